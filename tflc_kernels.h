/* tflc_kernels.h - int8 / float32 kernels and the LUT decoder of tflc.
 *
 * What it is
 *   The arithmetic half of tflc: quantization helpers (bit-exact with
 *   TensorFlow Lite Micro's reference kernels), the LUT bitstring decoder
 *   for compressed constants, and the kernels. It knows arrays, shapes,
 *   quantization parameters and LUT bitstrings; it never knows flatbuffers,
 *   models or the interpreter, so it can be used on its own, the way people
 *   use CMSIS-NN.
 *
 * Quick start (hand-written graph, no model; tests/quickstart_test.sh
 * builds this text as C99 and as C++)
 *   #define TFLC_KERNELS_IMPLEMENTATION  // in exactly one .c file
 *   #include "tflc_kernels.h"
 *   #include <string.h>
 *
 *   // 3x3 int8 convolution, 4 -> 8 channels, per-channel weight scales
 *   void conv_example(const int8_t *in, int8_t *out, const int8_t *weights,
 *                     const int32_t *bias, const float *w_scales,
 *                     float in_scale, int32_t in_zp, float out_scale,
 *                     int32_t out_zp) {
 *     static const int32_t in_dims[4] = {1, 8, 8, 4};
 *     static const int32_t w_dims[4] = {8, 3, 3, 4};
 *     static const int32_t out_dims[4] = {1, 6, 6, 8};
 *     int32_t mult[8], shift32[8], c;
 *     int8_t shift[8];
 *     tflc_conv_params p;
 *     tflc_const w = tflc_const_raw(weights, TFLC_INT8, 8 * 3 * 3 * 4);
 *     tflc_const b = tflc_const_raw(bias, TFLC_INT32, 8);
 *     tflc_conv_quantize_multipliers(in_scale, w_scales, 8, out_scale, 8,
 *                                    mult, shift32);
 *     for (c = 0; c < 8; c++)
 *       shift[c] = (int8_t)shift32[c];
 *     memset(&p, 0, sizeof p);
 *     p.stride_h = p.stride_w = 1;
 *     p.dilation_h = p.dilation_w = 1;
 *     p.input_offset = -in_zp;
 *     p.output_offset = out_zp;
 *     p.act_min = -128;
 *     p.act_max = 127;
 *     p.out_multiplier = mult;
 *     p.out_shift = shift;
 *     tflc_conv2d_s8(&p, in_dims, in, w_dims, &w, &b, out_dims, out, NULL,
 *                    0);
 *   }
 *
 * Configuration macros (define before including, or in the header named
 * by TFLC_CONFIG_FILE)
 *   TFLC_CONFIG_FILE      a header (as "tflc_config.h") included first,
 *                         holding the options below and tflc.h's
 *   TFLC_API              linkage of public functions (default extern;
 *                         static with TFLC_STATIC)
 *   TFLC_ASSERT(x)        internal invariant check (default: nothing)
 *   TFLC_MAX_DIMS         largest tensor rank handled (default 6)
 *   TFLC_TILE_BYTES       size of the decode tile the interpreter hands to
 *                         kernels reading compressed constants (default 512)
 *   TFLC_NO_COMPRESSION   raw constants only: the LUT, INT4, Huffman and
 *                         Prune decoders are left out (tflc_lut_decode and
 *                         the other readers of tflc_const then read raw
 *                         constants and give zeros for any other kind)
 *   TFLC_PLATFORM_HEADER  a header that replaces platform primitives (below)
 *   TFLC_NO_DSP           no Arm DSP paths even where the core has them
 *   TFLC_NO_DSP_ASM       the Arm DSP paths in ACLE intrinsics only (no
 *                         inline assembly for the innermost loops)
 *   TFLC_DSP_EMULATE      compile the Arm DSP paths on any host over C
 *                         definitions of the intrinsics (tests)
 *   TFLC_NO_HIFI          no Xtensa HiFi paths even on HiFi 4 / HiFi 5 cores
 *   TFLC_HIFI_EMULATE     compile the HiFi paths on any host over C
 *                         definitions of the intrinsics (tests; the header
 *                         TFLC_HIFI_EMULATE_HEADER, default tests/hifi_emu.h)
 *   TFLC_NO_SSE41         no x86 SSE4.1 paths even with -msse4.1
 *   TFLC_NO_AVX2          no x86 AVX2 paths even with -mavx2
 *   TFLC_NO_MVE           no Arm Helium (MVE) paths even where the core
 *                         has them (the DSP ones are used instead)
 *   TFLC_NO_MVE_FC        Helium without its FULLY_CONNECTED kernel (FC
 *                         layers through the MVE GEMM; no per-layer record)
 *   TFLC_NO_CONV_WINDOWS  int8 CONV_2D keeps only its pointwise path (1x1
 *                         filters, stride 1, the pixels one run): any other
 *                         convolution takes the direct loop, same bytes,
 *                         slower. For models whose convolutions are all
 *                         pointwise (`tflc ops --config` writes it then)
 *   TFLC_NO_DW_ANY_FILTER the Arm DSP depthwise keeps its 3x3 layer path
 *                         only: a layer it does not take goes through the
 *                         chunked portable primitive, compiled for size,
 *                         same bytes, slower. For models whose depthwise
 *                         filters are all 3x3 (`tflc ops --config` writes
 *                         it then)
 *   The library defines TFLC_HAVE_<PLATFORM> for each platform it compiles
 *   (DSP, MVE, HIFI, SSE41, AVX2) and TFLC_HAVE_<PLATFORM>_<PRIMITIVE> for
 *   each primitive that platform provides (GEMM, DEPTHWISE, REQUANTIZE,
 *   ADD_ELEMENTWISE, LUT_UNPACK, FULLY_CONNECTED); a build reads them, never
 *   sets them. Why the two emulations differ: TFLC_DSP_EMULATE's C
 *   definitions sit in this header because each ACLE intrinsic the DSP
 *   section uses is exact integer arithmetic that Arm's specification
 *   defines completely, so the C is the definition (eleven small
 *   functions). TFLC_HIFI_EMULATE's sit in tests/hifi_emu.h because
 *   Cadence publishes no such specification: that header models what
 *   public sources establish, states what it assumes and counts the cases
 *   it cannot vouch for, which is test scaffolding, not library code.
 *
 * Where the time goes: the platform seam
 *   The int8 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED kernels do the
 *   layout work (chunks of output channels, windows read in place or
 *   copied whole for small filters, the input offset folded into the
 *   biases) and spend their time in five primitives (the fifth is the
 *   int8 ADD's loop), each called through a macro that names a function:
 *     TFLC_GEMM_S8        a block of an int8 matrix product, requantized
 *                         (tflc_gemm_block: rows x columns, dot products
 *                         over runs of contiguous values)
 *     TFLC_DEPTHWISE_S8   a run of depthwise outputs over a block of
 *                         channels (tflc_depthwise_block)
 *     TFLC_REQUANTIZE_S8  a row of int32 accumulators to int8
 *     TFLC_LUT_UNPACK     LUT indices of any width 1..8 to bytes
 *     TFLC_ADD_ELEMENTWISE_S8  the int8 ADD's element-wise loop
 *   Each has a portable C version, always compiled, which is the
 *   reference: tflc_gemm_s8_portable, tflc_depthwise_s8_portable,
 *   tflc_requantize_s8_portable, tflc_add_elementwise_s8_portable,
 *   tflc_lut_unpack_portable. Besides the five, Helium has entry points of
 *   its own that the selection block reaches through internal seams
 *   (tflc_gemm_window_s8_mve for small convolution windows,
 *   tflc_fully_connected_s8_mve behind tflc_fully_connected_s8_run). On
 *   Arm cores with the DSP extension (__ARM_FEATURE_DSP: Cortex-M4, M7,
 *   M33, M55...) the GEMM and depthwise macros default to tflc_gemm_s8_dsp and
 *   tflc_depthwise_s8_dsp (SXTB16 / SXTAB16 / SMLAD / SMLABB through
 *   <arm_acle.h>, the innermost loops in Thumb-2 assembly), and the LUT
 *   unpack to tflc_lut_unpack_dsp (2- and 4-bit indices a word at a
 *   time); with that default, depthwise layers run whole through
 *   tflc__dsp_dw3x3_layer (3x3 filters, multiplier 1 or a multiple of
 *   four: four channels over bands of the map padded with the zero point,
 *   or the inner windows from the input and the border's strips through
 *   bands; with a multiple of four one input byte a tap for the four) or
 *   tflc__dsp_dw_layer (any filter), the chunked primitive
 *   taking the others; int8 FULLY_CONNECTED of 1..3 batches with a raw
 *   filter runs through tflc_fully_connected_s8_dsp (groups of four
 *   weight rows against the input row, requantized in the same assembly
 *   call), and the ADD loop is tflc_add_elementwise_s8_dsp (SMMULR high
 *   products).
 *   Every version gives the portable version's bytes:
 *   tests/test_platform.c checks them against each other and against
 *   naive references on random shapes, here through TFLC_DSP_EMULATE and
 *   on the Cortex-M4 harness with the real instructions (make test-m4). On
 *   Xtensa HiFi 4 / HiFi 5 cores the GEMM and depthwise macros default to
 *   tflc_gemm_s8_hifi and tflc_depthwise_s8_hifi (Cadence's intrinsics),
 *   tested only through TFLC_HIFI_EMULATE on hosts
 *   (tests/test_platform_hifi.c): never run on HiFi silicon. On
 *   x86-64 built with -msse4.1 or -mavx2 (or -march=native: __SSE4_1__,
 *   __AVX2__) the GEMM, depthwise and requantization macros default to
 *   tflc_gemm_s8_avx2 / _sse41 and their siblings (PMOVSXBW + PMADDWD,
 *   requantization 4 or 8 channels at a time; tests/test_platform_x86.c,
 *   fuzz/fuzz_kernels.c). On cores with integer Helium
 *   (__ARM_FEATURE_MVE bit 0: Cortex-M55, M85) the GEMM, depthwise and
 *   requantization macros default to tflc_gemm_s8_mve and its siblings
 *   (VMLADAVA dot products, VQRDMULH / VRSHL requantization of four
 *   outputs at a time, tail predication), tested against the portable
 *   ones on the Cortex-M55 harness (make test-m55).
 *   A platform replaces any primitive with a header named by
 *   TFLC_PLATFORM_HEADER, included at the start of the implementation
 *   (after the declarations, so it can call the portable versions for the
 *   cases it leaves alone):
 *     // my_platform.h
 *     #define TFLC_GEMM_S8 my_gemm_s8
 *     static void my_gemm_s8(const tflc_requant_params *rq,
 *                            const tflc_gemm_block *g) {
 *       if (!my_accelerator_can(g))
 *         tflc_gemm_s8_portable(rq, g);
 *       else
 *         my_accelerator_gemm(rq, g);
 *     }
 *   and the build defines TFLC_PLATFORM_HEADER="my_platform.h" (a path the
 *   include of tflc_kernels.h finds). tests/platform_count.h is such a
 *   header.
 *
 * Contents (sections in the order the data flows; search for the titles)
 *   1. Configuration          macros above, defaults in the API
 *   2. API                    declarations, grouped under the titles of the
 *                             implementation sections below (3, 5, 7-16 in
 *                             that order), then "Platforms": every
 *                             platform's declarations under one #if each
 *   -- implementation (TFLC_KERNELS_IMPLEMENTATION or TFLC_IMPLEMENTATION) --
 *   3. Quantization helpers   TFLM's double rounding, multipliers, ranges
 *   4. Platform seam          helpers the platform versions share; the
 *                             selection block: the one place that picks the
 *                             version behind TFLC_GEMM_S8, TFLC_DEPTHWISE_S8,
 *                             TFLC_REQUANTIZE_S8, TFLC_ADD_ELEMENTWISE_S8,
 *                             TFLC_LUT_UNPACK and the internal seams
 *                             (TFLC__SUM_S8, TFLC__CONV_WINDOWS_S8,
 *                             TFLC__CONV_OFFSET_ONE_PIXEL, TFLC__FC_S8_*)
 *   5. Portable primitives    the reference versions of the five
 *   6. LUT decoder            tflc_const, raw or LUT, a tile at a time
 *   7. Convolution family     int8 CONV_2D, DEPTHWISE_CONV_2D,
 *                             FULLY_CONNECTED (blocked paths over the
 *                             primitives, the FC seam), float FC
 *   8. Pooling, softmax, ADD, MEAN, PAD, TRANSPOSE, (de)quantization
 *   9. Element-wise arithmetic, activations, comparisons, reductions
 *  10. Convolutions in int16x8 and float32, TRANSPOSE_CONV, SVDF, LSTM
 *  11. Data movement          CONCATENATION, RESIZE_*, GATHER, SLICE, ...
 *  12. Constants: INT4, Huffman and Prune
 *  13. Element-wise math, logic, casts, more types of pools and reductions
 *  14. Signal processing      TFLM's Signal* operators
 *  15. Structural operators and TFLM's custom operators
 *  16. 16-bit requantization  the VTA delegate's arithmetic (not TFLM's)
 *  17. Platform: Arm Cortex-M DSP       each platform one section under
 *  18. Platform: Arm Helium (MVE)       one #if, holding every function
 *  19. Platform: x86 SSE4.1 / AVX2      of that platform (its primitives,
 *  20. Platform: Xtensa HiFi 4 / HiFi 5 its seam entries, its helpers)
 *   Why the seam comes before the kernels and the platforms after them:
 *   C needs a macro defined before the kernels that expand it and a
 *   function declared before its call, not defined. So the selection
 *   block (4) names every version early, declaring the few static
 *   platform functions it names; the kernels (7-16) call only the seam
 *   macros and never test a platform's name; and each platform's bodies
 *   (17-20) come last, where they may use any helper above them. A reader
 *   follows the data: arithmetic, the seam, the reference, the kernels,
 *   then the fast versions of what the kernels call.
 *
 * License: MIT (see LICENSE).
 */
/* The build's configuration file, if it names one (as mbedTLS's
 * MBEDTLS_CONFIG_FILE): a header holding TFLC_OPS and the other options
 * above, e.g. -DTFLC_CONFIG_FILE='"tflc_config.h"' (`tflc ops MODEL
 * --config -o tflc_config.h` writes one). Included once, before anything
 * reads an option. */
#if defined(TFLC_CONFIG_FILE) && !defined(TFLC__CONFIG_FILE_DONE)
#define TFLC__CONFIG_FILE_DONE
#include TFLC_CONFIG_FILE
#endif

#ifndef TFLC_KERNELS_H
#define TFLC_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* ======================================================================== */
/* API: configuration defaults, the contract, status, element types,        */
/* constants (raw or compressed: the LUT decoder's interface)               */
/* ======================================================================== */
/* ---- configuration defaults --------------------------------------------- */
#ifndef TFLC_API
#ifdef TFLC_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define TFLC_API static __attribute__((unused)) /* no unused warnings */
#else
#define TFLC_API static
#endif
#else
#define TFLC_API extern
#endif
#endif
#ifndef TFLC_ASSERT
#define TFLC_ASSERT(x) ((void)0)
#endif
#ifndef TFLC_MAX_DIMS
#define TFLC_MAX_DIMS 6
#endif
#ifndef TFLC_TILE_BYTES
#define TFLC_TILE_BYTES 512
#endif
/* 1 unless TFLC_NO_COMPRESSION: the LUT, INT4, Huffman and Prune
 * decoders are compiled (tested with `if`, so both builds compile all of
 * the code and the optimizer drops what is left out). */
#ifdef TFLC_NO_COMPRESSION
#define TFLC__COMPRESSION 0
#else
#define TFLC__COMPRESSION 1
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the contract of every function below ------------------------------- */
/* Unless a function's own comment says otherwise:
 * - Arguments. Pointers are not NULL and point at as many elements as the
 *   shapes and counts given imply; arguments documented "or NULL" / "may
 *   be NULL" may be NULL. Nothing is checked: shapes, counts, axes, types
 *   and parameters must be the consistent ones the comment describes
 *   (tflc.h's operators check them from the model at
 *   tflc_interpreter_init, before any kernel runs); anything else is
 *   undefined behaviour. Arrays need only their element type's alignment
 *   (constants read through tflc_const: any alignment).
 * - Writes. A function writes its outputs (out, dst, the parameters a
 *   *_prepare fills) and the buffers its comment names (tile, acc, work,
 *   scratch; state such as SVDF / LSTM state, rings, noise estimates,
 *   cursors, which it updates in place), nothing else; inputs, filters,
 *   biases, tables and constants are only read. An output must not overlap
 *   an input unless the comment says they may be the same array. Scratch
 *   contents are undefined after the call.
 * - Lifetimes. Nothing is allocated and no pointer is kept once a
 *   function returns, with two exceptions: a tflc_const made by
 *   tflc_const_* points at the caller's arrays (data, values, table,
 *   mask, zero points, cursor), and a tflc_fft_plan and a tflc_ring_s16
 *   point at the memory they were given: those arrays must outlive the
 *   descriptor. There is no global state: every function is reentrant and
 *   may run on several threads at once (on different outputs and state).
 * - Results. A function returning void cannot fail. Others say what each
 *   return value means; where a *_prepare or check returns failure (0 or
 *   -1), the parameters it fills are unspecified. Integer results are the
 *   bytes of TFLM's reference kernels; float results follow TFLM's order
 *   of operations and give TFLM's bits where the target's libm (expf,
 *   logf, tanhf...) gives the same bits as TFLM's build: the
 *   implementation never fuses multiply-adds, whatever the build's flags
 *   (it turns contraction off for itself; clang's -ffp-contract=fast
 *   overrides that, so do not use it). */

/* ---- status ------------------------------------------------------------- */
typedef enum tflc_status {
  TFLC_OK = 0,
  TFLC_ERR_ARG,         /* bad argument from the caller */
  TFLC_ERR_TRUNCATED,   /* model bytes end too early */
  TFLC_ERR_FLATBUFFER,  /* malformed flatbuffer structure */
  TFLC_ERR_IDENTIFIER,  /* not a TFL3 model */
  TFLC_ERR_SCHEMA,      /* structurally valid but semantically invalid */
  TFLC_ERR_INDEX,       /* tensor/buffer/opcode/subgraph index out of range */
  TFLC_ERR_SHAPE,       /* bad or overflowing dimensions */
  TFLC_ERR_TYPE,        /* unsupported or mismatched tensor type */
  TFLC_ERR_QUANT,       /* bad quantization parameters */
  TFLC_ERR_BUFFER,      /* constant buffer shorter than its shape */
  TFLC_ERR_COMPRESSION, /* malformed compression descriptor */
  TFLC_ERR_UNSUPPORTED, /* operator or feature not supported */
  TFLC_ERR_ARENA,       /* arena too small */
  TFLC_ERR_STATE,       /* call out of order */
  TFLC_ERR_KERNEL       /* kernel failed at invoke */
} tflc_status;

/* ---- tensor element types (numbers of the TFLite schema) ---------------- */
typedef enum tflc_type {
  TFLC_FLOAT32 = 0,
  TFLC_FLOAT16 = 1,
  TFLC_INT32 = 2,
  TFLC_UINT8 = 3,
  TFLC_INT64 = 4,
  TFLC_STRING = 5,
  TFLC_BOOL = 6,
  TFLC_INT16 = 7,
  TFLC_INT8 = 9,
  TFLC_UINT64 = 12,
  TFLC_RESOURCE = 13,
  TFLC_UINT32 = 15,
  TFLC_UINT16 = 16,
  TFLC_INT4 = 17 /* two per byte; element 2i in the low nibble */
} tflc_type;

/* Size in bytes of one element, 0 for types tflc cannot hold. */
TFLC_API size_t tflc_type_size(int type);

/* ---- constants, raw or compressed --------------------------------------- */
/* How a constant's elements are stored (tflc_const.kind). */
enum {
  TFLC_CONST_RAW_LUT = 0, /* raw when bits == 0, LUT when bits is 1..8 */
  TFLC_CONST_INT4 = 1,    /* INT4 packed two per byte, read as INT8 */
  TFLC_CONST_HUFFMAN = 2, /* TFLM_DECODE type 1: Huffman codewords */
  TFLC_CONST_PRUNE = 3    /* TFLM_DECODE type 2: keep-bitmask + kept values */
};

/* Where the last decode of a Huffman or Prune constant stopped, so that the
 * next request, usually the next tile, goes on from there instead of
 * decoding the stream again from its start. A cursor belongs to whichever
 * constant used it last (it notes its data, table and parameters): sharing
 * one between constants costs restarts, never wrong elements. */
typedef struct tflc_const_cursor {
  const void *data, *values; /* the constant it belongs to */
  uint32_t tag;              /* and its kind and parameters */
  int32_t elem;              /* next element */
  uint32_t pos;              /* its stream position (see tflc_const) */
  int32_t mark_elem;         /* where the last backward request started */
  uint32_t mark_pos;
  uint32_t restarts; /* requests that went backwards (diagnostics) */
} tflc_const_cursor;

/* A constant tensor as kernels see it; `count` elements of `type`.
 * kind TFLC_CONST_RAW_LUT:
 *   bits == 0: `data` holds the raw little-endian elements.
 *   bits 1..8: `data` holds `count` unsigned bits-wide indices packed
 *   MSB-first in one continuous bitstring, and element i is
 *   values[channel(i) * stride + index_i], where channel(i) is
 *     0                              when channels == 1,
 *     i / elems_per_channel          on the first axis (alt_axis == 0),
 *     i % channels                   on the last axis (alt_axis == 1).
 *   `values` holds channels * stride elements of `type`.
 * kind TFLC_CONST_INT4 (type INT8, bits 4): `data` holds ceil(count / 2)
 *   bytes, element 2j in the low nibble of byte j, 2j + 1 in the high
 *   one, each a 4-bit two's complement value (-8..7).
 * kind TFLC_CONST_HUFFMAN (bits 8): `data` is the codeword stream
 *   (data_bytes, read MSB-first from byte 0), `values` the decoding table
 *   (nvalues entries of 16 bits, or 32 when `wide`, little-endian), as
 *   TFLM's DECODE type 1: each element starts with a lookup of
 *   first_bits (1..16) stream bits; an entry with the top bit clear
 *   links to a sub-table (count field + 1 more bits, offset field from
 *   the link's own index), one with it set is the element (its low 8 *
 *   type size bits, zero-extended past 4 bytes) and gives how many of the
 *   bits read at its level the codeword used. Stream bits past the end
 *   read as 0; an index outside the table, or a 64th lookup that is again
 *   a link, reads as the entry "element 0, 15 bits used" (a verified
 *   constant never does either: tflc_const_check).
 * kind TFLC_CONST_PRUNE (bits 8): `data` is the keep-bitmask (data_bytes,
 *   one bit per element, MSB-first), `values` the nvalues kept elements in
 *   element order. A kept element takes the next value, a pruned one the
 *   zero point: for 1-byte types the int8 at aux + channel(i) * aux_stride
 *   (low byte of a little-endian integer) when `aux` is set, else `zero`;
 *   0 for wider types. Mask bits past data_bytes read as 0 (pruned), kept
 *   elements past the table as 0.
 * `bits` is 0 only for raw constants: kernels read those in place and
 * every other kind through tflc_lut_decode / tflc_lut_gather /
 * tflc_const_span / tflc_const_i32 / i64 / f32. Huffman and Prune are
 * sequential formats: with a `cursor` a request that starts where the
 * previous one ended costs only its own elements, without one every
 * request decodes from element 0. Descriptors built by tflc.h are
 * verified; hand-built ones should pass tflc_const_check (reads stay
 * inside the buffers either way for Huffman and Prune; raw, LUT and INT4
 * data must hold what the descriptor says). */
typedef struct tflc_const {
  const void *data;
  const void *values;
  int32_t count;
  int32_t channels;
  int32_t elems_per_channel;
  uint16_t stride;
  uint8_t type;
  uint8_t bits;
  uint8_t alt_axis;
  uint8_t kind;       /* TFLC_CONST_* */
  uint8_t wide;       /* HUFFMAN: 32-bit table entries */
  uint8_t first_bits; /* HUFFMAN: bits of the first lookup */
  uint8_t aux_stride; /* PRUNE: bytes from one zero point to the next */
  int8_t zero;        /* PRUNE: pruned value without `aux` (1-byte types) */
  /* HUFFMAN and PRUNE only from here (tflc.h keeps the other kinds'
   * descriptors without these fields) */
  uint32_t data_bytes;       /* bytes at `data` */
  uint32_t nvalues;          /* HUFFMAN: table entries; PRUNE: kept values */
  const void *aux;           /* PRUNE: per-channel zero points, or NULL */
  tflc_const_cursor *cursor; /* resume point, or NULL */
} tflc_const;

/* An uncompressed constant: `count` elements of `type` at `data` (kept as a
 * pointer: data must outlive the descriptor; any alignment). */
TFLC_API tflc_const tflc_const_raw(const void *data, tflc_type type,
                                   int32_t count);
/* A LUT-compressed constant: `bitstring` holds `count` bits-wide indices
 * (1..8), `values` channels * stride elements (both kept as pointers:
 * they must outlive the descriptor). elems_per_channel is set as TFLM
 * does: count when channels <= 1, 1 on the last axis (alt_axis 1), else
 * count / channels. */
TFLC_API tflc_const tflc_const_lut(const void *bitstring, const void *values,
                                   tflc_type type, int32_t count, int bits,
                                   int32_t channels, int32_t stride,
                                   int alt_axis);
/* Decode elements [start, start + n) of c (0 <= start, start + n <=
 * c->count) into dst (n * type size bytes; any alignment). Raw constants
 * are copied. Huffman and Prune constants move their cursor (when set).
 * Uses the fast paths (whole bytes / groups at a time);
 * tflc_lut_decode_ref is the portable one-index-at-a-time path it is
 * tested against (same bytes, always). */
TFLC_API void tflc_lut_decode(const tflc_const *c, int32_t start, int32_t n,
                              void *dst);
TFLC_API void tflc_lut_decode_ref(const tflc_const *c, int32_t start, int32_t n,
                                  void *dst);
/* Decode elements start, start + step, ... (n of them, all inside the
 * constant) into dst (n elements). */
TFLC_API void tflc_lut_gather(const tflc_const *c, int32_t start, int32_t step,
                              int32_t n, void *dst);
/* Pointer to elements [start, start + n): into the raw data when the
 * constant is raw (valid as long as the data), else decoded into `tile`
 * (which must hold n elements; valid until tile is reused). */
TFLC_API const void *tflc_const_span(const tflc_const *c, int32_t start,
                                     int32_t n, void *tile);
/* Element i (0 <= i < c->count) widened, any kind of constant.
 * tflc_const_i32: INT8/UINT8/BOOL/INT16/INT32 (INT64 keeps its low 32
 * bits); tflc_const_i64: every integer type. Both give 0 for FLOAT32.
 * tflc_const_f32: FLOAT32 as stored, integer types converted. Values are
 * read little-endian byte by byte (any alignment, any host). */
TFLC_API int32_t tflc_const_i32(const tflc_const *c, int32_t i);
TFLC_API int64_t tflc_const_i64(const tflc_const *c, int32_t i);
TFLC_API float tflc_const_f32(const tflc_const *c, int32_t i);

/* ======================================================================== */
/* Quantization helpers: TFLM's double rounding, multipliers, ranges        */
/* ======================================================================== */
/* m -> (*q, *shift), m ~= q * 2^(shift - 31); TFLM's QuantizeMultiplier
 * (m 0 gives 0, 0). */
TFLC_API void tflc_quantize_multiplier(double m, int32_t *q, int32_t *shift);
/* High 32 bits of 2 * a * b, rounded (SaturatingRoundingDoublingHighMul). */
TFLC_API int32_t tflc_saturating_rounding_doubling_high_mul(int32_t a,
                                                            int32_t b);
/* x / 2^exponent, to nearest, ties away from zero (RoundingDivideByPOT). */
TFLC_API int32_t tflc_rounding_divide_by_pot(int32_t x, int32_t exponent);
/* TFLM's MultiplyByQuantizedMultiplier of x by (q, shift):
 * tflc_multiply_by_quantized_multiplier for int32 accumulators,
 * tflc_multiply_by_quantized_multiplier_64 for int64 ones. */
TFLC_API int32_t tflc_multiply_by_quantized_multiplier(int32_t x, int32_t q,
                                                       int32_t shift);
TFLC_API int32_t tflc_multiply_by_quantized_multiplier_64(int64_t x, int32_t q,
                                                          int32_t shift);
/* Fused activation clamp for a quantized output (CalculateActivation-
 * RangeQuantized). act: 0 NONE, 1 RELU, 2 RELU_N1_TO_1, 3 RELU6. */
TFLC_API void tflc_activation_range_quantized(int act, float scale, int32_t zp,
                                              int32_t qmin, int32_t qmax,
                                              int32_t *lo, int32_t *hi);
/* The float clamp of fused activation act (NONE: the whole float range). */
TFLC_API void tflc_activation_range_f32(int act, float *lo, float *hi);

/* ======================================================================== */
/* Convolution family: int8 CONV_2D, DEPTHWISE_CONV_2D and                  */
/* FULLY_CONNECTED (with the FULLY_CONNECTED seam), float FC                */
/* ======================================================================== */
typedef struct tflc_conv_params {
  int32_t stride_h, stride_w;
  int32_t dilation_h, dilation_w;
  int32_t pad_h, pad_w;          /* padding before (top, left) */
  int32_t depth_multiplier;      /* depthwise only */
  int32_t input_offset;          /* -input zero point */
  int32_t output_offset;         /* output zero point */
  int32_t act_min, act_max;      /* quantized clamp */
  const int32_t *out_multiplier; /* per output channel */
  const int8_t *out_shift;       /* per output channel (-31..30) */
} tflc_conv_params;

/* Per-channel multipliers of CONV_2D / DEPTHWISE_CONV_2D / TRANSPOSE_CONV:
 * double(in) * double(filter[c]) / double(out); n_scales 1 broadcasts. */
TFLC_API void tflc_conv_quantize_multipliers(float in_scale,
                                             const float *filter_scales,
                                             int32_t n_scales, float out_scale,
                                             int32_t channels, int32_t *mult,
                                             int32_t *shift);

/* NHWC input [N,H,W,Cin], filter [Cout,Kh,Kw,Cin/groups] (INT8), bias
 * INT32 [Cout] or NULL, output [N,Ho,Wo,Cout]; groups = Cin / filter Cin.
 * Taps outside the input are skipped (pad_h/pad_w are the padding before).
 * Filter and bias may each be raw or LUT-compressed (any alignment).
 * Raw filters need no scratch: `tile` may be NULL. A compressed filter is
 * decoded a chunk of output channels at a time into `tile` (tile_bytes):
 * whole filter rows when at least one fits, else the direct path decodes
 * pieces of rows (with no tile, a 64-byte stack tile). Compressed biases
 * are decoded one element at a time. The output bytes depend neither on
 * the tile size nor on compression nor on the path (the blocked matrix
 * product of the platform seam, or the direct path for groups, dilation
 * across the width and rows that do not fit). */
TFLC_API void tflc_conv2d_s8(const tflc_conv_params *p,
                             const int32_t in_dims[4], const int8_t *in,
                             const int32_t filter_dims[4],
                             const tflc_const *filter, const tflc_const *bias,
                             const int32_t out_dims[4], int8_t *out, void *tile,
                             size_t tile_bytes);
/* The biases of a layer with a raw filter with the input offset folded
 * in, made once (a prepare) for tflc_conv2d_s8_folded: folded[c] = bias[c]
 * + input_offset * (the sum of filter row c), int32 wrapping (bias 0
 * without one), for the out_dims[3] output channels. Returns 1 when the
 * layer's paths read them, else 0 (a compressed filter, no input offset,
 * the direct path...) and nothing written; folded NULL: only that
 * answer. */
TFLC_API int tflc_conv2d_s8_fold(const tflc_conv_params *p,
                                 const int32_t in_dims[4],
                                 const int32_t filter_dims[4],
                                 const tflc_const *filter,
                                 const tflc_const *bias,
                                 const int32_t out_dims[4], int32_t *folded);
/* tflc_conv2d_s8 of a raw filter (no tile) with the folded biases
 * tflc_conv2d_s8_fold made for the same parameters, shapes, filter and
 * bias (where it returned 1): the blocked paths read them instead of
 * summing the filter at every call. The same bytes; folded NULL:
 * tflc_conv2d_s8. */
TFLC_API void tflc_conv2d_s8_folded(const tflc_conv_params *p,
                                    const int32_t in_dims[4], const int8_t *in,
                                    const int32_t filter_dims[4],
                                    const tflc_const *filter,
                                    const tflc_const *bias,
                                    const int32_t out_dims[4], int8_t *out,
                                    const int32_t *folded);
/* filter [1,Kh,Kw,Cin*M] (compressed on the last axis, typically), output
 * channel oc = ic * M + m with M = p->depth_multiplier; bias [Cin*M].
 * Compressed taps are decoded into the tile for a chunk of channels when
 * they fit, else piecewise per pixel (the direct path, which also takes
 * M above 16). Tile rules as tflc_conv2d_s8. */
TFLC_API void
tflc_depthwise_conv2d_s8(const tflc_conv_params *p, const int32_t in_dims[4],
                         const int8_t *in, const int32_t filter_dims[4],
                         const tflc_const *filter, const tflc_const *bias,
                         const int32_t out_dims[4], int8_t *out, void *tile,
                         size_t tile_bytes);
#ifndef TFLC_NO_PATCHES
/* The same layer with its output written over its input (depth
 * multiplier 1, any stride, padding and dilation): `io` holds the input
 * (in_dims) on entry and the output (out_dims, from the same address) on
 * return, the same bytes as tflc_depthwise_conv2d_s8 gives. `plane`
 * holds plane_channels channels of the output (plane_channels *
 * out_dims[0] * out_dims[1] * out_dims[2] bytes); they are computed
 * there, then stored. Returns 1; 0 (nothing written) when the layer has
 * another multiplier or channel count, or a compressed filter whose taps
 * of one channel do not fit the tile. */
TFLC_API int tflc_depthwise_conv2d_s8_inplace(
    const tflc_conv_params *p, const int32_t in_dims[4], int8_t *io,
    const int32_t filter_dims[4], const tflc_const *filter,
    const tflc_const *bias, const int32_t out_dims[4], int8_t *plane,
    int32_t plane_channels, void *tile, size_t tile_bytes);
#endif

typedef struct tflc_fc_params {
  int32_t input_offset;  /* -input zero point */
  int32_t filter_offset; /* -filter zero point (per-tensor only) */
  int32_t output_offset; /* output zero point */
  int32_t act_min, act_max;
  int32_t per_channel; /* 1: out_multiplier/out_shift have out_depth */
  const int32_t *out_multiplier;
  const int8_t *out_shift; /* -31..30 */
} tflc_fc_params;

/* Per-tensor FC multiplier: float(in * filter) then / double(out). */
TFLC_API void tflc_fc_quantize_multiplier(float in_scale, float filter_scale,
                                          float out_scale, int32_t *mult,
                                          int32_t *shift);
/* in [batches, accum_depth], filter INT8 [out_depth, accum_depth], bias
 * INT32 [out_depth] or NULL. Per-tensor: acc of (f + filter_offset) *
 * (x + input_offset) with out_multiplier[0]; per-channel: filter_offset is
 * ignored (as TFLM; a per-tensor filter offset takes the direct path).
 * Compressed rows are decoded into the tile a chunk at a time when one
 * fits, else in tile-sized pieces. Tile rules as tflc_conv2d_s8. */
TFLC_API void tflc_fully_connected_s8(const tflc_fc_params *p, int32_t batches,
                                      int32_t accum_depth, int32_t out_depth,
                                      const int8_t *in,
                                      const tflc_const *filter,
                                      const tflc_const *bias, int8_t *out,
                                      void *tile, size_t tile_bytes);
/* Per-layer data a platform's int8 FULLY_CONNECTED keeps from prepare to
 * invoke, the way CMSIS-NN's *_get_buffer_size functions size theirs: a
 * record of TFLC_FC_S8_RECORD_BYTES (a constant the implementation
 * defines after the platform header: 0 unless a platform kernel keeps
 * one; Arm Helium's is 12 bytes on its 32-bit cores) that the caller
 * keeps with the layer, zeroed, and a buffer of
 * tflc_fully_connected_s8_prepare_bytes bytes (0: none), both 8-byte
 * aligned and living as long as the layer. tflc_fully_connected_s8_prepare
 * fills them from the parameters (offsets and per_channel; multipliers
 * not needed yet) and the constants, which must then be final: pass
 * filter NULL when the weights or bias are not known at prepare (the
 * layer then takes tflc_fully_connected_s8); with a record of 0 bytes
 * neither call has anything to do. tflc_fully_connected_s8_run
 * computes what tflc_fully_connected_s8 does, byte for byte, through the
 * platform's kernel when the record says it applies. */
TFLC_API size_t tflc_fully_connected_s8_prepare_bytes(const tflc_fc_params *p,
                                                      int32_t accum_depth,
                                                      int32_t out_depth,
                                                      const tflc_const *filter,
                                                      const tflc_const *bias);
TFLC_API void tflc_fully_connected_s8_prepare(
    void *record, void *buf, const tflc_fc_params *p, int32_t accum_depth,
    int32_t out_depth, const tflc_const *filter, const tflc_const *bias);
TFLC_API void tflc_fully_connected_s8_run(const void *record,
                                          const tflc_fc_params *p,
                                          int32_t batches, int32_t accum_depth,
                                          int32_t out_depth, const int8_t *in,
                                          const tflc_const *filter,
                                          const tflc_const *bias, int8_t *out,
                                          void *tile, size_t tile_bytes);
/* Float FC: filter FLOAT32 [out_depth, accum_depth], bias FLOAT32 or NULL.
 * Sums x * w in order of d in float, then adds the bias (0.0f when absent),
 * then min(max(v, act_min), act_max), exactly as TFLM's reference (build
 * without FMA contraction, e.g. -ffp-contract=off, to keep that order).
 * Weights are read with memcpy (any alignment). */
TFLC_API void tflc_fully_connected_f32(float act_min, float act_max,
                                       int32_t batches, int32_t accum_depth,
                                       int32_t out_depth, const float *in,
                                       const tflc_const *filter,
                                       const tflc_const *bias, float *out,
                                       void *tile, size_t tile_bytes);
/* ======================================================================== */
/* Platform seam: the five primitives' types and portable versions          */
/* ======================================================================== */
/* The int8 convolution, depthwise and fully connected kernels spend their
 * time in four primitives, the int8 ADD in a fifth: five in all, plus the
 * Helium entry points reached through internal seams (the window GEMM,
 * the FULLY_CONNECTED kernel). Each has a portable C
 * version, always compiled: the reference every other version is tested
 * against, byte for byte. Kernels call a primitive through a macro that names
 * the function:
 *
 *   TFLC_GEMM_S8        int8 matrix product block with requantization
 *   TFLC_DEPTHWISE_S8   depthwise accumulation over a block of channels
 *   TFLC_REQUANTIZE_S8  requantization of a row of accumulators
 *   TFLC_LUT_UNPACK     unpacking of LUT indices (any width 1..8)
 *
 * and the int8 ADD's element-wise loop, TFLC_ADD_ELEMENTWISE_S8 (declared
 * with tflc_add_s8 below).
 *
 * When a macro is not defined before the implementation, the best built-in
 * version is used, first match wins: Xtensa HiFi 4/5 (unless
 * TFLC_NO_HIFI), Arm Helium on cores with integer MVE (unless
 * TFLC_NO_MVE), x86 AVX2 then SSE4.1 when the compiler targets them
 * (unless TFLC_NO_AVX2 / TFLC_NO_SSE41), the Arm DSP one on cores with
 * __ARM_FEATURE_DSP (unless TFLC_NO_DSP), else the portable one. A
 * platform header named by TFLC_PLATFORM_HEADER is included at the start of the
 * implementation, after these declarations: it may define any of the macros to
 * its own function (static is fine) with the same signature, and call the
 * portable version for the cases it does not handle. See the opening
 * comment for an example. */

/* Per-output-channel requantization: v = acc + bias[c], then
 * MultiplyByQuantizedMultiplier(v, multiplier[c], shift[c]) + output_offset
 * clamped to [act_min, act_max]. Arrays start at the block's channel 0;
 * with per_channel == 0 multiplier[0] and shift[0] serve every channel. */
typedef struct tflc_requant_params {
  const int32_t *bias; /* NULL: 0 */
  const int32_t *multiplier;
  const int8_t *shift; /* -31..30 */
  int32_t per_channel;
  int32_t output_offset, act_min, act_max;
} tflc_requant_params;

/* out[c] = requantized acc[c] for c < n. */
TFLC_API void tflc_requantize_s8_portable(const tflc_requant_params *rq,
                                          int32_t n, const int32_t *acc,
                                          int8_t *out);

/* A block of a matrix product: rows x cols outputs. Each dot product runs
 * over `segments` runs of seg_len contiguous values: segment s of row r
 * starts at a + r * a_row + s * a_seg, of column c at w + c * w_col +
 * s * w_seg (a convolution reads its windows in place this way, one run
 * per kernel row). Strides are in elements. */
typedef struct tflc_gemm_block {
  int32_t rows, cols, segments, seg_len;
  const int8_t *a;
  int32_t a_row, a_seg;
  int32_t a_offset; /* added to every a value */
  const int8_t *w;
  int32_t w_col, w_seg;
  int8_t *out; /* output (r, c) at out[r * out_row + c] */
  int32_t out_row;
} tflc_gemm_block;

/* Output (r, c) = requantized sum over the segments of
 * w[...] * (a[...] + a_offset), rq channel c for column c. int32 sums
 * wrap. */
TFLC_API void tflc_gemm_s8_portable(const tflc_requant_params *rq,
                                    const tflc_gemm_block *g);

/* A block of depthwise outputs: `pixels` output pixels (p) along a row,
 * each with a window of rows x cols taps (y, x), over `channels`
 * contiguous output channels (c). Output channel c reads input channel
 * c / multiplier (the block starts at the first output channel of an
 * input channel). Strides are in elements. */
typedef struct tflc_depthwise_block {
  int32_t channels, multiplier, pixels, rows, cols;
  const int8_t *x; /* input of tap (0, 0) of pixel 0, its channel 0 */
  int32_t x_row, x_col, x_pixel;
  int32_t x_offset; /* added to every input value */
  const int8_t *w;  /* weight of tap (0, 0), channel 0 */
  int32_t w_row, w_col;
  int8_t *out; /* output of pixel 0, channel 0 */
  int32_t out_pixel;
} tflc_depthwise_block;

/* out[p * out_pixel + c] = requantized sum over taps (y, x) of
 * w[y * w_row + x * w_col + c] *
 *   (x[p * x_pixel + y * x_row + x * x_col + c / multiplier] + x_offset). */
TFLC_API void tflc_depthwise_s8_portable(const tflc_requant_params *rq,
                                         const tflc_depthwise_block *b);

/* dst[k] = table[index k] for n bits-wide indices (1..8) read MSB-first
 * from src starting `bit` (0..7) bits into src[0]. Reads no byte past the
 * last index. */
TFLC_API void tflc_lut_unpack_portable(const uint8_t *src, unsigned bit,
                                       int32_t n, unsigned bits,
                                       const uint8_t *table, uint8_t *dst);

/* ======================================================================== */
/* Pooling, softmax, ADD, MEAN, PAD, TRANSPOSE, (de)quantization, and the   */
/* gemmlowp fixed-point helpers                                             */
/* ======================================================================== */
/* ---- pooling ------------------------------------------------------------ */
typedef struct tflc_pool_params {
  int32_t stride_h, stride_w;
  int32_t filter_h, filter_w;
  int32_t pad_h, pad_w;
  int32_t act_min, act_max;
} tflc_pool_params;
/* Returns TFLC_OK, or TFLC_ERR_KERNEL if a window has no valid tap (as
 * TFLM fails; the output is then incomplete). */
TFLC_API tflc_status tflc_avg_pool_s8(const tflc_pool_params *p,
                                      const int32_t in_dims[4],
                                      const int8_t *in,
                                      const int32_t out_dims[4], int8_t *out);
/* int8 MAX_POOL_2D, NHWC, clamped to p's activation range. */
TFLC_API void tflc_max_pool_s8(const tflc_pool_params *p,
                               const int32_t in_dims[4], const int8_t *in,
                               const int32_t out_dims[4], int8_t *out);

/* ---- softmax ------------------------------------------------------------ */
typedef struct tflc_softmax_params {
  int32_t input_multiplier;
  int32_t input_left_shift;
  int32_t diff_min;
} tflc_softmax_params;
/* Softmax parameters for an int8 input of scale in_scale (TFLM's scaling). */
TFLC_API void tflc_softmax_prepare_s8(float beta, float in_scale,
                                      tflc_softmax_params *p);
/* rows x depth, int8 in, int8 out (out scale 1/256, zero point -128). */
TFLC_API void tflc_softmax_s8(const tflc_softmax_params *p, int32_t rows,
                              int32_t depth, const int8_t *in, int8_t *out);
/* rows x depth, int8 in, int16 out (scale 1/65536, zero point -32768). */
TFLC_API void tflc_softmax_s8_s16(const tflc_softmax_params *p, int32_t rows,
                                  int32_t depth, const int8_t *in,
                                  int16_t *out);
/* float32 softmax of rows x depth with beta, max subtracted first. */
TFLC_API void tflc_softmax_f32(float beta, int32_t rows, int32_t depth,
                               const float *in, float *out);

/* ---- element-wise ------------------------------------------------------- */
typedef struct tflc_add_params {
  int32_t input1_offset, input2_offset, output_offset;
  int32_t left_shift;
  int32_t input1_multiplier, input1_shift;
  int32_t input2_multiplier, input2_shift;
  int32_t output_multiplier, output_shift;
  int32_t act_min, act_max;
} tflc_add_params;
/* ADD int8 (left shift 20), computed in double as TFLM. act as in
 * tflc_activation_range_quantized. */
TFLC_API void tflc_add_prepare_s8(float s1, int32_t z1, float s2, int32_t z2,
                                  float so, int32_t zo, int act,
                                  tflc_add_params *p);
/* Broadcasting add: tflc_add_s8 with p (tflc_add_prepare_s8), tflc_add_f32
 * in float clamped to [act_min, act_max]. All three shapes have the same
 * rank (<= TFLC_MAX_DIMS), right-aligned, with input dims either equal to
 * the output's or 1. */
TFLC_API void tflc_add_s8(const tflc_add_params *p, int32_t rank,
                          const int32_t *dims1, const int8_t *in1,
                          const int32_t *dims2, const int8_t *in2,
                          const int32_t *out_dims, int8_t *out);
TFLC_API void tflc_add_f32(float act_min, float act_max, int32_t rank,
                           const int32_t *dims1, const float *in1,
                           const int32_t *dims2, const float *in2,
                           const int32_t *out_dims, float *out);
/* The element-wise part of tflc_add_s8, a platform primitive
 * (TFLC_ADD_ELEMENTWISE_S8, see "the seam" above): out[i] = the ADD of
 * in1[i] and in2[i] for i < n (no broadcast), for parameters with
 * left_shift 0..20 and the three shifts in -31..31 (tflc_add_s8 takes the
 * others itself). The portable version; the Arm Helium one
 * (TFLC_HAVE_MVE_ADD_ELEMENTWISE) is declared with the platforms. */
TFLC_API void tflc_add_elementwise_s8_portable(const tflc_add_params *p,
                                               size_t n, const int8_t *in1,
                                               const int8_t *in2, int8_t *out);

/* ---- reductions --------------------------------------------------------- */
typedef struct tflc_mean_params {
  int32_t multiplier, shift; /* QuantizeMultiplier(in_scale / out_scale) */
  int32_t input_zp, output_zp;
} tflc_mean_params;
/* MEAN int8 over the axes whose bit is set in axis_mask; out holds the
 * product of the kept dims (keep_dims only changes the shape). */
TFLC_API void tflc_mean_s8(const tflc_mean_params *p, int32_t rank,
                           const int32_t *in_dims, uint32_t axis_mask,
                           const int8_t *in, int8_t *out);

/* ---- data movement (any element size) ----------------------------------- */
/* PAD: before/after per dim; pad_value points to one element. */
TFLC_API void tflc_pad(size_t elem_size, int32_t rank, const int32_t *in_dims,
                       const int32_t *before, const int32_t *after,
                       const void *pad_value, const void *in, void *out);
/* TRANSPOSE: out dim i = in dim perm[i]. */
TFLC_API void tflc_transpose(size_t elem_size, int32_t rank,
                             const int32_t *in_dims, const int32_t *perm,
                             const void *in, void *out);

/* ---- quantize / dequantize ---------------------------------------------- */
/* float -> int8 (tflc_quantize_f32_s8) / int16 (tflc_quantize_f32_s16):
 * AffineQuantize, round half away from zero, saturated. */
TFLC_API void tflc_quantize_f32_s8(float scale, int32_t zp, int32_t n,
                                   const float *in, int8_t *out);
TFLC_API void tflc_quantize_f32_s16(float scale, int32_t zp, int32_t n,
                                    const float *in, int16_t *out);
/* int8 -> int8 requantize: y = mbqm(x - in_zp, q, shift) + out_zp. */
TFLC_API void tflc_requantize_s8(int32_t q, int32_t shift, int32_t in_zp,
                                 int32_t out_zp, int32_t n, const int8_t *in,
                                 int8_t *out);
/* y = float(double(scale) * (x - zp)) of n int8 (tflc_dequantize_s8_f32)
 * or int16 (tflc_dequantize_s16_f32) values. */
TFLC_API void tflc_dequantize_s8_f32(float scale, int32_t zp, int32_t n,
                                     const int8_t *in, float *out);
TFLC_API void tflc_dequantize_s16_f32(float scale, int32_t zp, int32_t n,
                                      const int16_t *in, float *out);

/* ======================================================================== */
/* Element-wise arithmetic, activations, comparisons, reductions (MUL, SUB, */
/* int16 ADD, LOGISTIC, TANH, L2_NORMALIZATION, LOG_SOFTMAX, LEAKY_RELU,    */
/* HARD_SWISH, PRELU, RELU, RELU6, MAXIMUM, MINIMUM, comparisons, SUM,      */
/* ARG_MAX, ARG_MIN, integer QUANTIZE/DEQUANTIZE)                           */
/* ======================================================================== */
/* Element-wise arithmetic (MUL, SUB, int16 ADD), activations (LOGISTIC,
 * TANH, RELU, RELU6, LEAKY_RELU, HARD_SWISH, PRELU), normalisation
 * (L2_NORMALIZATION, LOG_SOFTMAX), MAXIMUM/MINIMUM, comparisons, SUM,
 * ARG_MAX/ARG_MIN and integer requantization. Bit-exact with TFLM's
 * reference kernels (reference/INT8_KERNELS.md sections 3, 5, 6).
 *
 * Binary kernels take three shapes of the same rank (<= TFLC_MAX_DIMS),
 * right-aligned, each input dim equal to the output's or 1 (as
 * tflc_add_s8). `w` arguments give the element width of integer
 * tensors: 1 for int8, 2 for int16. */

/* ---- MUL ---------------------------------------------------------------- */
typedef struct tflc_mul_params {
  int32_t input1_offset, input2_offset, output_offset; /* -z1, -z2, zo */
  int32_t multiplier, shift; /* QuantizeMultiplier(s1 * s2 / so) */
  int32_t act_min, act_max;
} tflc_mul_params;
/* y = mbqm((x1 + o1) * (x2 + o2), q, shift) + zo, clamped. w: 1 or 2. */
TFLC_API void tflc_mul_q(const tflc_mul_params *p, int w, int32_t rank,
                         const int32_t *dims1, const void *in1,
                         const int32_t *dims2, const void *in2,
                         const int32_t *out_dims, void *out);

/* ---- ADD (int16) / SUB (int8, int16) ------------------------------------ */
/* SUB's parameters, computed in float32 as TFLM's CalculateOpDataSub
 * (left shift 20 for int8, 15 for int16). Returns 0 when a multiplier is
 * not below 1 (TFLM's QuantizeMultiplierSmallerThanOneExp refuses it). */
TFLC_API int tflc_sub_prepare(float s1, int32_t z1, float s2, int32_t z2,
                              float so, int32_t zo, int act, int w,
                              tflc_add_params *p);
/* ADD int16 parameters (double arithmetic, left shift 15); same return. */
TFLC_API int tflc_add_prepare_s16(float s1, int32_t z1, float s2, int32_t z2,
                                  float so, int32_t zo, int act,
                                  tflc_add_params *p);
/* Broadcasting add (sub = 0) or subtract (sub = 1) of int8 (w = 1) or
 * int16 (w = 2) tensors with tflc_add_params. */
TFLC_API void tflc_add_sub_q(const tflc_add_params *p, int sub, int w,
                             int32_t rank, const int32_t *dims1,
                             const void *in1, const int32_t *dims2,
                             const void *in2, const int32_t *out_dims,
                             void *out);

/* ---- LOGISTIC / TANH int8 ----------------------------------------------- */
typedef struct tflc_sigmoid_params {
  int32_t input_zp;
  int32_t radius;     /* CalculateInputRadius(4, shift) */
  int32_t multiplier; /* frexp mantissa * 2^31, uncorrected */
  int32_t shift;
} tflc_sigmoid_params;
/* LOGISTIC / TANH parameters for an int8 input (4 integer bits). */
TFLC_API void tflc_sigmoid_prepare_s8(float in_scale, int32_t in_zp,
                                      tflc_sigmoid_params *p);
/* LOGISTIC: output scale 1/256, zero point -128 (assumed). */
TFLC_API void tflc_logistic_s8(const tflc_sigmoid_params *p, int32_t n,
                               const int8_t *in, int8_t *out);
/* TANH: output scale 1/128, zero point 0 (assumed). */
TFLC_API void tflc_tanh_s8(const tflc_sigmoid_params *p, int32_t n,
                           const int8_t *in, int8_t *out);

/* ---- RELU / RELU6 / LEAKY_RELU / PRELU ---------------------------------- */
/* RELU: y = zo + mbqm(x - zi, q, shift) clamped to [lo, hi]; RELU6 sets
 * clamp_only and copies x clamped to [lo, hi] (no requantization). */
typedef struct tflc_relu_params {
  int32_t input_zp, output_zp;
  int32_t multiplier, shift;
  int32_t lo, hi;
  int32_t clamp_only;
} tflc_relu_params;
/* RELU / RELU6 of n integers of w bytes (1: int8, 2: int16). */
TFLC_API void tflc_relu_q(const tflc_relu_params *p, int w, int32_t n,
                          const void *in, void *out);

typedef struct tflc_leaky_relu_params {
  int32_t input_zp, output_zp;
  int32_t mult_identity, shift_identity;
  int32_t mult_alpha, shift_alpha; /* negative mult_alpha: negative alpha */
} tflc_leaky_relu_params;
/* Float products then double, as TFLM's CalculateOpDataLeakyRelu. */
TFLC_API void tflc_leaky_relu_prepare(float in_scale, int32_t in_zp,
                                      float out_scale, int32_t out_zp,
                                      float alpha, tflc_leaky_relu_params *p);
/* LEAKY_RELU of n integers of w bytes (1: int8, 2: int16). */
TFLC_API void tflc_leaky_relu_q(const tflc_leaky_relu_params *p, int w,
                                int32_t n, const void *in, void *out);

typedef struct tflc_prelu_params {
  int32_t input_offset, alpha_offset, output_offset; /* -zi, -za, zo */
  int32_t mult1, shift1;                             /* s_in / s_out */
  int32_t mult2, shift2; /* s_in * s_alpha / s_out */
} tflc_prelu_params;
/* PRELU int8 input/output (w_in = 1) or int16 (w_in = 2); alpha is int8
 * (w_alpha = 1) or int16 (w_alpha = 2). Broadcasting input x alpha. */
TFLC_API void tflc_prelu_q(const tflc_prelu_params *p, int w_in, int w_alpha,
                           int32_t rank, const int32_t *dims_in, const void *in,
                           const int32_t *dims_alpha, const void *alpha,
                           const int32_t *out_dims, void *out);

/* ---- HARD_SWISH int8 ----------------------------------------------------- */
typedef struct tflc_hard_swish_params {
  int32_t input_zp, output_zp;
  int16_t output_mult, reluish_mult; /* int16 fixed-point multipliers */
  int32_t output_exp, reluish_exp;
} tflc_hard_swish_params;
/* Returns 0 when TFLM refuses the scales (output exponent > 0). */
TFLC_API int tflc_hard_swish_prepare_s8(float in_scale, int32_t in_zp,
                                        float out_scale, int32_t out_zp,
                                        tflc_hard_swish_params *p);
/* int8 HARD_SWISH of n values, int16 intermediates as TFLM. */
TFLC_API void tflc_hard_swish_s8(const tflc_hard_swish_params *p, int32_t n,
                                 const int8_t *in, int8_t *out);

/* ---- L2_NORMALIZATION / LOG_SOFTMAX int8 --------------------------------- */
/* rows x depth; output scale 1/128, zero point 0 (assumed, as TFLM). */
TFLC_API void tflc_l2_normalization_s8(int32_t input_zp, int32_t rows,
                                       int32_t depth, const int8_t *in,
                                       int8_t *out);

typedef struct tflc_log_softmax_params {
  int32_t input_multiplier, input_left_shift;
  int32_t reverse_divisor, reverse_shift; /* shift <= 0 */
  int32_t diff_min;
} tflc_log_softmax_params;
/* beta fixed to 1 (TFLM ignores the option); output scale 16/256, zero
 * point 127. */
TFLC_API void tflc_log_softmax_prepare_s8(float in_scale,
                                          tflc_log_softmax_params *p);
/* int8 LOG_SOFTMAX of rows x depth. */
TFLC_API void tflc_log_softmax_s8(const tflc_log_softmax_params *p,
                                  int32_t rows, int32_t depth, const int8_t *in,
                                  int8_t *out);

/* ---- MAXIMUM / MINIMUM, comparisons -------------------------------------- */
/* Raw element compare (no rescaling) of tflc_type `type` (FLOAT32, INT8,
 * INT16, INT32, INT64). */
TFLC_API void tflc_maximum_minimum(int type, int is_max, int32_t rank,
                                   const int32_t *dims1, const void *in1,
                                   const int32_t *dims2, const void *in2,
                                   const int32_t *out_dims, void *out);

enum {
  TFLC_CMP_EQUAL = 0,
  TFLC_CMP_NOT_EQUAL,
  TFLC_CMP_LESS,
  TFLC_CMP_LESS_EQUAL,
  TFLC_CMP_GREATER,
  TFLC_CMP_GREATER_EQUAL
};
/* int8 comparison with TFLM's rescaling (left shift 8, each input's own
 * scale as a multiplier below one); type FLOAT32/INT32/INT64/BOOL compare
 * raw values (scaled == NULL). Output is bool (one byte, 0 or 1). */
typedef struct tflc_cmp_params {
  int32_t input1_offset, input2_offset; /* -z1, -z2 */
  int32_t mult1, shift1, mult2, shift2;
} tflc_cmp_params;
/* Broadcasting comparison cmp (TFLC_CMP_*) of two tensors of `type`. */
TFLC_API void tflc_compare(int type, int cmp, const tflc_cmp_params *scaled,
                           int32_t rank, const int32_t *dims1, const void *in1,
                           const int32_t *dims2, const void *in2,
                           const int32_t *out_dims, uint8_t *out);

/* ---- SUM, ARG_MAX / ARG_MIN ---------------------------------------------- */
/* SUM of int8 (w = 1) / int16 (w = 2) over the axes set in axis_mask,
 * requantized with (multiplier, shift) = QuantizeMultiplier(si / so) as
 * TFLM's QuantizedMeanOrSum with compute_sum. */
TFLC_API void tflc_sum_q(const tflc_mean_params *p, int w, int32_t rank,
                         const int32_t *in_dims, uint32_t axis_mask,
                         const void *in, void *out);
/* float32 SUM, accumulated in input order as TFLM's ReduceGeneric. */
TFLC_API void tflc_sum_f32(int32_t rank, const int32_t *in_dims,
                           uint32_t axis_mask, const float *in, float *out);
/* outer x axis_size x inner; type INT8 or FLOAT32 (also INT16, INT32);
 * first index wins ties; int32 indices out. */
TFLC_API void tflc_arg_min_max(int type, int is_max, int32_t outer,
                               int32_t axis_size, int32_t inner, const void *in,
                               int32_t *out);

/* ---- requantize / dequantize ------------------------------------------- */
/* y = clamp(mbqm(x - in_zp, q, shift) + out_zp) between integer types
 * (in: INT8, UINT8, INT16, INT32; out: INT8, UINT8, INT16, INT32), with
 * TFLM's int8 <-> uint8 XOR 0x80 shortcut. */
TFLC_API void tflc_requantize(int in_type, int out_type, int32_t q,
                              int32_t shift, int32_t in_zp, int32_t out_zp,
                              int32_t n, const void *in, void *out);
/* uint8 -> float32: y = float(double(scale) * (x - zp)). */
TFLC_API void tflc_dequantize_u8_f32(float scale, int32_t zp, int32_t n,
                                     const uint8_t *in, float *out);

/* ---- float32 variants (TFLM reference order of operations) -------------- */
/* MUL (op 0) or SUB (op 1) then min(max(v, lo), hi), broadcasting. */
TFLC_API void tflc_mul_sub_f32(int op, float act_min, float act_max,
                               int32_t rank, const int32_t *dims1,
                               const float *in1, const int32_t *dims2,
                               const float *in2, const int32_t *out_dims,
                               float *out);
enum {
  TFLC_F32_RELU = 0,
  TFLC_F32_RELU6,
  TFLC_F32_LEAKY_RELU, /* uses alpha */
  TFLC_F32_LOGISTIC,
  TFLC_F32_TANH,
  TFLC_F32_HARD_SWISH
};
/* float32 activation `kind` (TFLC_F32_*) of n values. */
TFLC_API void tflc_unary_f32(int kind, float alpha, int32_t n, const float *in,
                             float *out);
/* x >= 0 ? x : x * alpha, broadcasting input x alpha. */
TFLC_API void tflc_prelu_f32(int32_t rank, const int32_t *dims_in,
                             const float *in, const int32_t *dims_alpha,
                             const float *alpha, const int32_t *out_dims,
                             float *out);
/* rows x depth; epsilon 1e-6 on the norm as TFLM. */
TFLC_API void tflc_l2_normalization_f32(int32_t rows, int32_t depth,
                                        const float *in, float *out);
/* float32 LOG_SOFTMAX of rows x depth. */
TFLC_API void tflc_log_softmax_f32(int32_t rows, int32_t depth, const float *in,
                                   float *out);

/* ======================================================================== */
/* Convolutions in int16x8 and float32, TRANSPOSE_CONV, SVDF,               */
/* UNIDIRECTIONAL_SEQUENCE_LSTM                                             */
/* ======================================================================== */
/* int16 activations with int8 weights ("int16x8") and float32 for CONV_2D
 * and DEPTHWISE_CONV_2D, int16x8 FULLY_CONNECTED, TRANSPOSE_CONV (int8,
 * int16x8, float32), SVDF and UNIDIRECTIONAL_SEQUENCE_LSTM, bit-exact with
 * TFLM's reference kernels. Filters and biases are tflc_const (raw or
 * LUT-compressed); compressed ones are decoded a tile at a time into
 * `tile` (tile_bytes), with the same tile rules as tflc_conv2d_s8. */

/* ---- int16x8 and float convolutions ------------------------------------- */
/* int16 CONV_2D. p->input_offset and p->output_offset are not used (TFLM's
 * int16 kernels assume zero points of 0); act_min/act_max clamp. bias is
 * INT32 or INT64 (any integer type is widened) or NULL. acc64 = 1: int64
 * accumulator and the 64-bit MultiplyByQuantizedMultiplier (TFLM with an
 * int64 bias); acc64 = 0: wrapping int32 accumulator and the 32-bit one
 * (TFLM with an int32 bias). Shapes as tflc_conv2d_s8. */
TFLC_API void tflc_conv2d_s16(const tflc_conv_params *p,
                              const int32_t in_dims[4], const int16_t *in,
                              const int32_t filter_dims[4],
                              const tflc_const *filter, const tflc_const *bias,
                              int acc64, const int32_t out_dims[4],
                              int16_t *out, void *tile, size_t tile_bytes);
/* int16 DEPTHWISE_CONV_2D: always the int64 accumulator (as TFLM). */
TFLC_API void
tflc_depthwise_conv2d_s16(const tflc_conv_params *p, const int32_t in_dims[4],
                          const int16_t *in, const int32_t filter_dims[4],
                          const tflc_const *filter, const tflc_const *bias,
                          const int32_t out_dims[4], int16_t *out, void *tile,
                          size_t tile_bytes);
/* float32 CONV_2D (tflc_conv2d_f32) / DEPTHWISE_CONV_2D
 * (tflc_depthwise_conv2d_f32): geometry from p (quantization fields
 * unused), FLOAT32 filter and bias (or NULL). Sums in TFLM's order, then +
 * bias, then min(max(v, act_min), act_max). Tile rules as
 * tflc_conv2d_s8. */
TFLC_API void tflc_conv2d_f32(const tflc_conv_params *p, float act_min,
                              float act_max, const int32_t in_dims[4],
                              const float *in, const int32_t filter_dims[4],
                              const tflc_const *filter, const tflc_const *bias,
                              const int32_t out_dims[4], float *out, void *tile,
                              size_t tile_bytes);
TFLC_API void tflc_depthwise_conv2d_f32(
    const tflc_conv_params *p, float act_min, float act_max,
    const int32_t in_dims[4], const float *in, const int32_t filter_dims[4],
    const tflc_const *filter, const tflc_const *bias, const int32_t out_dims[4],
    float *out, void *tile, size_t tile_bytes);
#ifndef TFLC_NO_PATCHES
/* The two above with the output written over the input (depth multiplier
 * 1), as tflc_depthwise_conv2d_s8_inplace: `io` holds the input, then the
 * output; `plane` holds one output channel (out_dims[0] * out_dims[1] *
 * out_dims[2] elements). The same values as the whole-tensor kernels;
 * returns 1, or 0 (nothing written) for another multiplier or channel
 * count. */
TFLC_API int tflc_depthwise_conv2d_s16_inplace(
    const tflc_conv_params *p, const int32_t in_dims[4], int16_t *io,
    const int32_t filter_dims[4], const tflc_const *filter,
    const tflc_const *bias, const int32_t out_dims[4], int16_t *plane,
    void *tile, size_t tile_bytes);
TFLC_API int tflc_depthwise_conv2d_f32_inplace(
    const tflc_conv_params *p, float act_min, float act_max,
    const int32_t in_dims[4], float *io, const int32_t filter_dims[4],
    const tflc_const *filter, const tflc_const *bias, const int32_t out_dims[4],
    float *plane, void *tile, size_t tile_bytes);
#endif

/* int16x8 FULLY_CONNECTED: as tflc_fully_connected_s8 (offsets are used,
 * as TFLM does for every type) with int16 input/output, bias INT32/INT64
 * or NULL and acc64 as tflc_conv2d_s16. */
TFLC_API void tflc_fully_connected_s16(const tflc_fc_params *p, int32_t batches,
                                       int32_t accum_depth, int32_t out_depth,
                                       const int16_t *in,
                                       const tflc_const *filter,
                                       const tflc_const *bias, int acc64,
                                       int16_t *out, void *tile,
                                       size_t tile_bytes);

/* ---- TRANSPOSE_CONV ----------------------------------------------------- */
/* input [N,H,W,Cin], filter [Cout,Kh,Kw,Cin], output [N,Ho,Wo,Cout];
 * p: stride_h/w, pad_h/w (padding before, computed as for a forward conv
 * over the output size), per-channel multipliers, offsets, clamp.
 * Output channels are computed one at a time; `acc` is an accumulator
 * plane of N*Ho*Wo elements (int32 for s8, int64 for s16). The int8
 * kernel accumulates (x + input_offset) * f, adds the INT32 bias, 32-bit
 * MBQM, + output_offset, clamp. The int16 kernel ignores the offsets, adds
 * the bias widened to int64 (INT16 or INT64 bias), 64-bit MBQM, clamp. */
TFLC_API void
tflc_transpose_conv_s8(const tflc_conv_params *p, const int32_t in_dims[4],
                       const int8_t *in, const int32_t filter_dims[4],
                       const tflc_const *filter, const tflc_const *bias,
                       const int32_t out_dims[4], int8_t *out, int32_t *acc,
                       void *tile, size_t tile_bytes);
TFLC_API void
tflc_transpose_conv_s16(const tflc_conv_params *p, const int32_t in_dims[4],
                        const int16_t *in, const int32_t filter_dims[4],
                        const tflc_const *filter, const tflc_const *bias,
                        const int32_t out_dims[4], int16_t *out, int64_t *acc,
                        void *tile, size_t tile_bytes);
/* float32: accumulates straight into `out` in TFLM's scatter order. */
TFLC_API void
tflc_transpose_conv_f32(const tflc_conv_params *p, float act_min, float act_max,
                        const int32_t in_dims[4], const float *in,
                        const int32_t filter_dims[4], const tflc_const *filter,
                        const tflc_const *bias, const int32_t out_dims[4],
                        float *out, void *tile, size_t tile_bytes);

/* ---- SVDF --------------------------------------------------------------- */
typedef struct tflc_svdf_params {
  int32_t batches, input_size, num_filters, memory_size, rank;
  int32_t input_zp, state_zp, output_zp; /* integer path */
  int32_t mult1, shift1;                 /* input x feature weights -> state */
  int32_t mult2, shift2;                 /* state x time weights -> output */
  int32_t act; /* float path: fused activation (0..5) */
} tflc_svdf_params;
/* Integer SVDF (TFLM's EvalIntegerSvdfReference): int8 input [B, I],
 * weights_feature INT8 [F, I], weights_time INT16 or INT8 [F, M] with the
 * state [B, F*M] of the same type (updated in place), bias INT32 [F/rank]
 * or NULL, int8 output [B, F/rank]. The fused activation is not applied
 * (as TFLM). */
TFLC_API void tflc_svdf_s8(const tflc_svdf_params *p, const int8_t *in,
                           const tflc_const *w_feature,
                           const tflc_const *w_time, const tflc_const *bias,
                           void *state, int8_t *out);
/* float SVDF: FLOAT32 weights and bias, float state, p->act applied. */
TFLC_API void tflc_svdf_f32(const tflc_svdf_params *p, const float *in,
                            const tflc_const *w_feature,
                            const tflc_const *w_time, const tflc_const *bias,
                            float *state, float *out);

/* ---- UNIDIRECTIONAL_SEQUENCE_LSTM --------------------------------------- */
/* Gates are numbered as the operator's tensors: 0 input, 1 forget, 2 cell,
 * 3 output. w[g] is the input weight [S, I] of gate g, w[4 + g] its
 * recurrent weight [S, S], b[g] its bias [S] (INT32 for int8 activations,
 * INT64 for int16, FLOAT32 for float). */
typedef struct tflc_lstm_params {
  int32_t time_major, batches, steps, input_size, state_size;
  /* integer path */
  int32_t input_offset, hidden_offset; /* -zero points of input, hidden */
  int32_t hidden_zp, hidden_min, hidden_max;
  int32_t acc64;        /* 1: int64 accumulators (int16 activations) */
  int32_t gate_mult[8]; /* [g] input FC, [4 + g] recurrent FC */
  int32_t gate_shift[8];
  int32_t w_offset[8];           /* -zero points of the weights */
  int32_t fc_mult, fc_shift;     /* forget gate x cell -> cell */
  int32_t ig_mult, ig_shift;     /* input gate x cell gate -> cell */
  int32_t h_mult, h_shift;       /* tanh(cell) x output gate -> hidden */
  int32_t tanh_mult, tanh_shift; /* int16 tanh of the cell state */
  int32_t clip_q; /* quantized cell clip (used when clip_f > 0) */
  float clip_f;   /* cell clip; <= 0: no clipping */
} tflc_lstm_params;
/* Rows processed per step: batches when time_major, else 1. scratch holds
 * 3 * rows * state_size cells (int16, or float for tflc_lstm_f32). hidden
 * ([B, S], int8 when act16 == 0 else int16) and cell ([B, S]) are updated
 * in place; out is [B, T, S] (or [T, B, S] when time major). */
TFLC_API void tflc_lstm_q(const tflc_lstm_params *p, int act16,
                          const tflc_const *w, const tflc_const *b,
                          const void *in, void *hidden, int16_t *cell,
                          void *out, int16_t *scratch);
TFLC_API void tflc_lstm_f32(const tflc_lstm_params *p, const tflc_const *w,
                            const tflc_const *b, const float *in, float *hidden,
                            float *cell, float *out, float *scratch);
/* One int16 LOGISTIC (tflc_logistic_s16_one) / TANH (tflc_tanh_s16_one)
 * value of TFLM's reference kernels (sigmoid table with linear
 * interpolation): v = (x * mult + 2^(shift-1)) >> shift (mult != 0;
 * TFLM's "multiplier 0" case is mult = 3 << shift, shift = 0). */
TFLC_API int16_t tflc_logistic_s16_one(int32_t x, int32_t mult, int32_t shift);
TFLC_API int16_t tflc_tanh_s16_one(int32_t x, int32_t mult, int32_t shift);

/* ======================================================================== */
/* Data movement (CONCATENATION, RESIZE_*, SPACE_TO_DEPTH, DEPTH_TO_SPACE,  */
/* GATHER, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, SQUEEZE, EXPAND_DIMS,      */
/* PADV2, SLICE, STRIDED_SLICE, SHAPE, SPLIT, SPLIT_V, PACK, UNPACK,        */
/* ZEROS_LIKE)                                                              */
/* ======================================================================== */

/* ---- data movement, part 2 (any element size) --------------------------- */
/* Copies `rows` rows of row_bytes bytes: row r from src + r * src_stride to
 * dst + r * dst_stride. CONCATENATION / PACK (one call per input, writing
 * its slice of each output row) and SPLIT / SPLIT_V / UNPACK (one call per
 * output) are made of these. */
TFLC_API void tflc_copy_rows(int32_t rows, size_t row_bytes, const void *src,
                             size_t src_stride, void *dst, size_t dst_stride);

/* SPACE_TO_DEPTH (to_depth 1) and DEPTH_TO_SPACE (to_depth 0) on NHWC
 * tensors. `dims` is the shape of the spatial side [N, H, W, C]; the depth
 * side is [N, H / block, W / block, C * block * block], channel
 * ((h % block) * block + w % block) * C + c. */
TFLC_API void tflc_space_depth(size_t elem_size, int to_depth,
                               const int32_t *dims, int32_t block,
                               const void *in, void *out);

/* BATCH_TO_SPACE_ND on [N, H, W, C] (a 3-D [N, H, C] has W = 1, block_w =
 * 1): input batch b = (sh * block_w + sw) * out_N + n goes to output
 * (n, h * block_h + sh - crop_top, w * block_w + sw - crop_left); pixels
 * landing outside the output are dropped. */
TFLC_API void tflc_batch_to_space(size_t elem_size, const int32_t *in_dims,
                                  const int32_t *out_dims, int32_t block_h,
                                  int32_t block_w, int32_t crop_top,
                                  int32_t crop_left, const void *in, void *out);
/* SPACE_TO_BATCH_ND, the inverse, with padding: output pixels that map
 * outside the input get pad_value (one element). */
TFLC_API void tflc_space_to_batch(size_t elem_size, const int32_t *in_dims,
                                  const int32_t *out_dims, int32_t block_h,
                                  int32_t block_w, int32_t pad_top,
                                  int32_t pad_left, const void *pad_value,
                                  const void *in, void *out);

/* GATHER: input viewed as [batch, outer, axis_size, inner], coords as
 * [batch, coord_size] (int32, any alignment); output [batch, outer, coord_size,
 * inner]. Returns 0, or -1 (nothing written) when a coordinate is outside [0,
 * axis_size). */
TFLC_API int tflc_gather(size_t elem_size, int32_t batch, int32_t outer,
                         int32_t axis_size, int32_t coord_size, int32_t inner,
                         const void *coords, const void *in, void *out);

/* STRIDED_SLICE / SLICE: along each axis k of in_dims (rank <=
 * TFLC_MAX_DIMS) take count[k] elements starting at start[k], stepping by
 * stride[k] (negative allowed); all of them must lie inside the input. The
 * output is written in order. */
TFLC_API void tflc_strided_slice(size_t elem_size, int32_t rank,
                                 const int32_t *in_dims, const int32_t *start,
                                 const int32_t *stride, const int32_t *count,
                                 const void *in, void *out);

/* One axis of STRIDED_SLICE as TFLM's reference kernel walks it: begin /
 * end clamped (negative values count from the end), masks applied, a
 * shrunk axis taking the single element at begin. Gives the first index
 * and the number of elements (0 when the range is empty). Returns 0, or -1
 * for a shrunk axis whose element TFLM never writes (begin outside the
 * dim, or a negative stride). stride must not be 0. */
TFLC_API int tflc_strided_slice_axis(int32_t size, int32_t begin, int32_t end,
                                     int32_t stride, int begin_mask,
                                     int end_mask, int shrink, int32_t *start,
                                     int32_t *count);

/* ---- resampling ---------------------------------------------------------- */
/* RESIZE_BILINEAR on NHWC [N, H, W, C] -> [N, out_h, out_w, C]. The int8
 * path (tflc_resize_bilinear_s8) is TFLM's integer one (Q10 scales, int64
 * sums, rounding half away from zero); the float path
 * (tflc_resize_bilinear_f32) follows TFLM's float expressions. Not both
 * align_corners and half_pixel_centers. */
TFLC_API void tflc_resize_bilinear_s8(const int32_t *in_dims, int32_t out_h,
                                      int32_t out_w, int align_corners,
                                      int half_pixel_centers, const int8_t *in,
                                      int8_t *out);
TFLC_API void tflc_resize_bilinear_f32(const int32_t *in_dims, int32_t out_h,
                                       int32_t out_w, int align_corners,
                                       int half_pixel_centers, const float *in,
                                       float *out);
/* RESIZE_NEAREST_NEIGHBOR, any element size. */
TFLC_API void tflc_resize_nearest(size_t elem_size, const int32_t *in_dims,
                                  int32_t out_h, int32_t out_w,
                                  int align_corners, int half_pixel_centers,
                                  const void *in, void *out);

/* ======================================================================== */
/* Constants: INT4, Huffman and Prune (TFLM_DECODE types 1 and 2)           */
/* ======================================================================== */
/* The kinds of tflc_const beyond raw and LUT (see there for the formats).
 * Kernels read them like LUT constants, a tile at a time. */

/* INT4 filter values: `count` elements packed two per byte, read as INT8. */
TFLC_API tflc_const tflc_const_int4(const void *packed, int32_t count);
/* Huffman (TFLM_DECODE type 1): `count` elements of `type` (INT8, INT16)
 * from stream_bytes of codewords and table_entries 16-bit (wide 0) or
 * 32-bit (wide 1) table entries; the first lookup reads first_bits
 * (1..16) bits. `cursor` may be NULL. */
TFLC_API tflc_const tflc_const_huffman(const void *stream,
                                       uint32_t stream_bytes, const void *table,
                                       uint32_t table_entries, int wide,
                                       int first_bits, tflc_type type,
                                       int32_t count,
                                       tflc_const_cursor *cursor);
/* Prune (TFLM_DECODE type 2): `count` elements of `type` from a keep-
 * bitmask of mask_bytes and nvalues kept values; pruned 1-byte elements
 * are `zero`. `cursor` may be NULL. */
TFLC_API tflc_const tflc_const_prune(const void *mask, uint32_t mask_bytes,
                                     const void *values, uint32_t nvalues,
                                     tflc_type type, int32_t count,
                                     int32_t zero, tflc_const_cursor *cursor);
/* Per-channel zero points for a Prune constant: channel ch's is the low
 * byte of zero_points + ch * zp_stride; channels on the first axis
 * (alt_axis 0: count / channels elements each) or the last (alt_axis 1). */
TFLC_API void tflc_const_prune_channels(tflc_const *c, const void *zero_points,
                                        int zp_stride, int32_t channels,
                                        int alt_axis);

/* What tflc_const_check found. */
enum {
  TFLC_CONST_OK = 0,
  TFLC_CONST_BAD_FIELDS,    /* count, type, widths or channels out of range */
  TFLC_CONST_STREAM_SHORT,  /* a Huffman lookup reads past the stream */
  TFLC_CONST_TABLE_INDEX,   /* a Huffman lookup outside the table */
  TFLC_CONST_TOO_DEEP,      /* a Huffman codeword needs over 64 lookups */
  TFLC_CONST_MASK_SHORT,    /* the Prune bitmask has fewer bits than count */
  TFLC_CONST_KEPT_MISMATCH, /* the Prune bitmask keeps != nvalues elements */
  TFLC_CONST_BAD_CHANNELS   /* channels do not divide count */
};
/* Checks a Huffman or Prune constant completely (decodes every Huffman
 * element: O(count)); other kinds only for sane fields. Returns
 * TFLC_CONST_OK or what is wrong; *where (may be NULL) receives the
 * element it happened at (TFLC_CONST_KEPT_MISMATCH: the elements kept). */
TFLC_API int tflc_const_check(const tflc_const *c, int32_t *where);

/* ======================================================================== */
/* Element-wise math, logic, casts, more types of pools and reductions      */
/* (ABS, CEIL, COS, EXP, FLOOR, LOG, NEG, ROUND, RSQRT, SIN, SQRT, SQUARE,  */
/* ELU, DIV, FLOOR_DIV, FLOOR_MOD, SQUARED_DIFFERENCE, ADD_N, int32 ADD /   */
/* SUB / MUL, CAST, LOGICAL_*, SELECT_V2, int16 LOGISTIC / TANH / SOFTMAX,  */
/* float32 / int16 pools, L2_POOL_2D, MEAN, REDUCE_MAX / MIN / ALL, CUMSUM) */
/* ======================================================================== */
/* Each follows the order of operations of TFLM's reference kernel, so
 * float outputs are bit-identical when built without FMA contraction and
 * linked with the same libm (expf, logf, sinf, ...). Binary kernels take
 * right-aligned shapes of one rank as tflc_add_s8. */

/* ---- float32 unary math ------------------------------------------------- */
enum {
  TFLC_MATH_ABS,   /* fabsf */
  TFLC_MATH_CEIL,  /* ceilf */
  TFLC_MATH_COS,   /* cosf */
  TFLC_MATH_ELU,   /* x < 0 ? expm1f(x) : x */
  TFLC_MATH_EXP,   /* expf */
  TFLC_MATH_FLOOR, /* floorf */
  TFLC_MATH_LOG,   /* logf */
  TFLC_MATH_NEG,   /* -x */
  TFLC_MATH_ROUND, /* to nearest, ties to even (TFLM's RoundToNearest) */
  TFLC_MATH_RSQRT, /* 1.0f / sqrtf(x) */
  TFLC_MATH_SIN,   /* sinf */
  TFLC_MATH_SQRT,  /* sqrtf */
  TFLC_MATH_SQUARE /* x * x */
};
/* float32 function `fn` (TFLC_MATH_*) of n values. */
TFLC_API void tflc_math_f32(int fn, int32_t n, const float *in, float *out);

/* ---- ABS / RSQRT int8, int16 -------------------------------------------- */
typedef struct tflc_abs_rsqrt_params {
  int32_t input_zp, output_zp;
  int32_t multiplier, shift; /* ABS: in / out; RSQRT: 1 / (sqrt(in) * out) */
  int32_t rescale;           /* ABS: 0 when the scales are equal */
  int32_t plain;             /* ABS int16 without quantization: abs(x) */
} tflc_abs_rsqrt_params;
/* TFLM's SetAbsOutputMultiplier / SetRsqrtOutputMultiplier (float math,
 * then QuantizeMultiplier). */
TFLC_API void tflc_abs_rsqrt_prepare(int rsqrt, float in_scale, int32_t in_zp,
                                     float out_scale, int32_t out_zp,
                                     tflc_abs_rsqrt_params *p);
/* w: 1 int8, 2 int16. */
TFLC_API void tflc_abs_q(const tflc_abs_rsqrt_params *p, int w, int32_t n,
                         const void *in, void *out);
/* Returns -1 (stopping there, as TFLM fails) at an input below the zero
 * point, else 0. */
TFLC_API int tflc_rsqrt_q(const tflc_abs_rsqrt_params *p, int w, int32_t n,
                          const void *in, void *out);

/* ---- ELU int8 (lookup table) -------------------------------------------- */
/* table[(uint8_t)x] = quantized ELU of x, as TFLM's PopulateLookupTable. */
TFLC_API void tflc_elu_table_s8(float in_scale, int32_t in_zp, float out_scale,
                                int32_t out_zp, int8_t table[256]);
/* out[i] = table[(uint8_t)in[i]] for n int8 values. */
TFLC_API void tflc_lut_s8(const int8_t table[256], int32_t n, const int8_t *in,
                          int8_t *out);

/* ---- binary float32 / int32 arithmetic ---------------------------------- */
enum {
  TFLC_ARITH_ADD,
  TFLC_ARITH_SUB,
  TFLC_ARITH_MUL,
  TFLC_ARITH_DIV,               /* float: a / b clamped; int32: truncating */
  TFLC_ARITH_FLOOR_DIV,         /* float: floor(double(a) / double(b)) */
  TFLC_ARITH_FLOOR_MOD,         /* float: fmodf, moved to the sign of b */
  TFLC_ARITH_SQUARED_DIFFERENCE /* (a - b) * (a - b) */
};
/* float32: DIV is clamped to [lo, hi] (the fused activation); the others
 * are not (ADD, SUB, MUL have their own kernels). */
TFLC_API void tflc_arith_f32(int fn, float lo, float hi, int32_t rank,
                             const int32_t *dims1, const float *in1,
                             const int32_t *dims2, const float *in2,
                             const int32_t *out_dims, float *out);
/* int32 with wrapping arithmetic (TFLM's overflow is undefined), clamped to
 * [lo, hi]. Returns -1 (output incomplete) for a DIV by zero, else 0. */
TFLC_API int tflc_arith_i32(int fn, int32_t lo, int32_t hi, int32_t rank,
                            const int32_t *dims1, const int32_t *in1,
                            const int32_t *dims2, const int32_t *in2,
                            const int32_t *out_dims, int32_t *out);

/* ---- DIV int8 ----------------------------------------------------------- */
typedef struct tflc_div_params {
  int32_t input1_offset, input2_offset, output_offset; /* -z1, -z2, zo */
  int32_t multiplier, shift; /* QuantizeMultiplier(s1 / (s2 * so)) */
  int32_t act_min, act_max;
} tflc_div_params;
/* Returns -1 (output incomplete) when a divisor is the zero point. */
TFLC_API int tflc_div_s8(const tflc_div_params *p, int32_t rank,
                         const int32_t *dims1, const int8_t *in1,
                         const int32_t *dims2, const int8_t *in2,
                         const int32_t *out_dims, int8_t *out);

/* ---- SQUARED_DIFFERENCE int8 / int16 ------------------------------------ */
/* Parameters as TFLM's PrepareQuantized (left shift 7 for int8, 0 for
 * int16; act_min/max the type's range). Returns 0 when an input
 * multiplier is not below one. */
TFLC_API int tflc_squared_difference_prepare(float s1, int32_t z1, float s2,
                                             int32_t z2, float so, int32_t zo,
                                             int w, tflc_add_params *p);
/* Broadcasting int8 / int16 (w bytes) SQUARED_DIFFERENCE with p's scales. */
TFLC_API void tflc_squared_difference_q(const tflc_add_params *p, int w,
                                        int32_t rank, const int32_t *dims1,
                                        const void *in1, const int32_t *dims2,
                                        const void *in2,
                                        const int32_t *out_dims, void *out);

/* ---- ADD_N, CUMSUM ------------------------------------------------------ */
/* ADD_N / CUMSUM int8 parameters (TFLM: left shift 20, one input scale,
 * no fused activation). Returns 0 when a multiplier is not below one. */
TFLC_API int tflc_add_n_prepare_s8(float in_scale, int32_t in_zp,
                                   float out_scale, int32_t out_zp,
                                   tflc_add_params *p);
/* out[i] = sum over k of inputs[k][i], summed in order k = 0, 1, ... */
TFLC_API void tflc_add_n_f32(int32_t n_inputs, const float *const *inputs,
                             int32_t count, float *out);
/* TFLM's quantized AddN (its accumulator starts at the scaled input
 * offset, not at 0). */
TFLC_API void tflc_add_n_s8(const tflc_add_params *p, int32_t n_inputs,
                            const int8_t *const *inputs, int32_t count,
                            int8_t *out);
/* Running sums along `axis` of a tensor of rank `rank`. */
TFLC_API void tflc_cumsum_f32(int32_t rank, const int32_t *dims, int32_t axis,
                              int exclusive, int reverse, const float *in,
                              float *out);
/* The int8 form, rescaled through p as ADD_N. */
TFLC_API void tflc_cumsum_s8(const tflc_add_params *p, int32_t rank,
                             const int32_t *dims, int32_t axis, int exclusive,
                             int reverse, const int8_t *in, int8_t *out);

/* ---- CAST --------------------------------------------------------------- */
/* n elements from in_type (INT8, INT16, INT32, UINT32, FLOAT32, BOOL) to
 * out_type (INT8, INT16, INT32, UINT32, FLOAT32): C conversions, integers
 * wrapping; floats truncate (out-of-range floats, undefined in TFLM, give
 * the wrapped int64 value, NaN gives 0). Returns -1 for other types. */
TFLC_API int tflc_cast(int in_type, int out_type, int32_t n, const void *in,
                       void *out);

/* ---- LOGICAL_AND / LOGICAL_OR / LOGICAL_NOT, SELECT_V2 ------------------ */
/* bool tensors of 0/1 bytes (any nonzero byte reads as true). */
TFLC_API void tflc_logical(int is_or, int32_t rank, const int32_t *dims1,
                           const uint8_t *in1, const int32_t *dims2,
                           const uint8_t *in2, const int32_t *out_dims,
                           uint8_t *out);
/* out = !in for n bool bytes. */
TFLC_API void tflc_logical_not(int32_t n, const uint8_t *in, uint8_t *out);
/* out = cond ? x : y, elements of elem_size bytes, three broadcast inputs. */
TFLC_API void tflc_select(size_t elem_size, int32_t rank,
                          const int32_t *cond_dims, const uint8_t *cond,
                          const int32_t *x_dims, const void *x,
                          const int32_t *y_dims, const void *y,
                          const int32_t *out_dims, void *out);

/* ---- int16 LOGISTIC / TANH, SOFTMAX ------------------------------------- */
/* TFLM's int16 input rescale: (mult, shift) for tflc_logistic_s16_one /
 * tflc_tanh_s16_one from the input scale (zero points must be 0). */
TFLC_API void tflc_sigmoid_prepare_s16(int tanh, float in_scale, int32_t *mult,
                                       int32_t *shift);
/* TFLM's CheckedLog2: 1 when x is 2^k within 1e-3 in log2 (k in *log2). */
TFLC_API int tflc_checked_log2(float x, int32_t *log2);
/* int16 LOGISTIC / TANH of n values (tflc_*_s16_one on each). */
TFLC_API void tflc_logistic_s16(int32_t mult, int32_t shift, int32_t n,
                                const int16_t *in, int16_t *out);
TFLC_API void tflc_tanh_s16(int32_t mult, int32_t shift, int32_t n,
                            const int16_t *in, int16_t *out);

typedef struct tflc_softmax_s16_params {
  int32_t input_multiplier, input_shift;
  int16_t exp_lut[513];   /* exp on [-10, 0] */
  int16_t recip_lut[513]; /* 1 / (1 + x) on [0, 1] */
} tflc_softmax_s16_params;
/* TFLM's int16 SOFTMAX setup (two 513-entry tables, input multiplier). */
TFLC_API void tflc_softmax_prepare_s16(float beta, float in_scale,
                                       tflc_softmax_s16_params *p);
/* rows x depth, int16 in and out (out scale 1/32768, zero point 0). */
TFLC_API void tflc_softmax_s16(const tflc_softmax_s16_params *p, int32_t rows,
                               int32_t depth, const int16_t *in, int16_t *out);

/* ---- pools of int16 and float32 ----------------------------------------- */
enum { TFLC_POOL_AVERAGE, TFLC_POOL_MAX, TFLC_POOL_L2 /* float32 only */ };
/* Pool `kind` (TFLC_POOL_*) on NHWC: tflc_pool_s16 with p's quantized
 * clamp, tflc_pool_f32 clamped to [act_min, act_max]; geometry from p.
 * Return TFLC_OK, or TFLC_ERR_KERNEL when an average window has no tap
 * (as TFLM fails; the output is then incomplete). */
TFLC_API tflc_status tflc_pool_s16(int kind, const tflc_pool_params *p,
                                   const int32_t in_dims[4], const int16_t *in,
                                   const int32_t out_dims[4], int16_t *out);
TFLC_API tflc_status tflc_pool_f32(int kind, const tflc_pool_params *p,
                                   float act_min, float act_max,
                                   const int32_t in_dims[4], const float *in,
                                   const int32_t out_dims[4], float *out);

/* ---- MEAN, REDUCE_MAX / REDUCE_MIN / REDUCE_ALL ------------------------- */
/* MEAN int8 / int16 (w = 1 / 2): TFLM folds 1/N into the multiplier of
 * p (QuantizeMultiplier(in_scale / out_scale)) before scaling the sum. */
TFLC_API void tflc_mean_q(const tflc_mean_params *p, int w, int32_t rank,
                          const int32_t *in_dims, uint32_t axis_mask,
                          const void *in, void *out);
/* float32 MEAN: float sums in input order, then / float(N). */
TFLC_API void tflc_mean_f32(int32_t rank, const int32_t *in_dims,
                            uint32_t axis_mask, const float *in, float *out);
/* tflc_reduce_minmax: REDUCE_MAX / REDUCE_MIN of FLOAT32 or INT8 (type);
 * tflc_reduce_all: REDUCE_ALL of bool bytes; over the axes set in
 * axis_mask, out holding the product of the kept dims. */
TFLC_API void tflc_reduce_minmax(int type, int is_max, int32_t rank,
                                 const int32_t *in_dims, uint32_t axis_mask,
                                 const void *in, void *out);
TFLC_API void tflc_reduce_all(int32_t rank, const int32_t *in_dims,
                              uint32_t axis_mask, const uint8_t *in,
                              uint8_t *out);

/* ======================================================================== */
/* Signal processing: TFLM's Signal* operators (the audio front end of      */
/* micro_speech, FFTs, framing). Integer arithmetic as TFLM's signal        */
/* library does it (its FFTs are KissFFT v130 in 16- and 32-bit fixed point  */
/* and float); float paths in TFLM's order of operations.                    */
/* ======================================================================== */
/* SignalWindow: out[i] = saturate16((in[i] * window[i]) >> shift), the
 * shift flooring; 0 <= shift <= 31. */
TFLC_API void tflc_signal_window_s16(const int16_t *in, const int16_t *window,
                                     int32_t n, int32_t shift, int16_t *out);

/* SignalFftAutoScale: scales `in` up by the largest power of two that keeps
 * its largest magnitude in int16 and returns that power (the scale bits). */
TFLC_API int32_t tflc_signal_fft_auto_scale_s16(const int16_t *in, int32_t n,
                                                int16_t *out);

/* SignalEnergy: out[i] = re^2 + im^2 of complex bin i (spectrum holds
 * re, im pairs) for start <= i < end; other bins are not written. */
TFLC_API void tflc_signal_energy_s16(const int16_t *spectrum, int32_t start,
                                     int32_t end, uint32_t *out);

/* SignalFilterBank: triangular mel filters. Arrays of num_channels + 1
 * entries (entry 0 is scratch, as in TFLM): channel i sums
 * in[frequency_starts[i] + j] * weights[weight_starts[i] + j] for j <
 * widths[i], plus the unweighted part of channel i - 1. Output channel k
 * is channel k + 1; `out_count` <= num_channels outputs are written. */
typedef struct tflc_filter_bank_params {
  int32_t num_channels;
  const int16_t *frequency_starts, *weight_starts, *widths;
  const int16_t *weights, *unweights;
} tflc_filter_bank_params;
/* 0 when every channel stays inside `in_count` spectrum bins and
 * `weights_count` weights (and unweights); -1 otherwise. */
TFLC_API int tflc_signal_filter_bank_check(const tflc_filter_bank_params *p,
                                           int32_t in_count,
                                           int32_t weights_count);
/* Runs the filter bank on `in` into out_count uint64 channels. */
TFLC_API void tflc_signal_filter_bank_u32(const tflc_filter_bank_params *p,
                                          const uint32_t *in, int32_t out_count,
                                          uint64_t *out);

/* SignalFilterBankSquareRoot: out[i] = isqrt_rounded(in[i]) >> shift,
 * 0 <= shift <= 31 (TFLM's integer square root, 32-bit shortcut included). */
TFLC_API void tflc_signal_filter_bank_square_root_u64(const uint64_t *in,
                                                      int32_t n, int32_t shift,
                                                      uint32_t *out);

/* SignalFilterBankLog: out[i] = min(32767, log(in[i] << correction_bits) *
 * output_scale / 2^16) in TFLM's fixed point (0 for inputs <= 1);
 * 0 <= correction_bits <= 31. */
TFLC_API void tflc_signal_filter_bank_log_u32(const uint32_t *in, int32_t n,
                                              int32_t output_scale,
                                              int32_t correction_bits,
                                              int16_t *out);

/* SignalFilterBankSpectralSubtraction: noise estimate update and
 * subtraction; `noise` (num_channels) is the state kept across calls.
 * smoothing_bits <= 31, spectral_subtraction_bits <= 63. */
typedef struct tflc_spectral_subtraction_params {
  int32_t num_channels;
  uint32_t smoothing, one_minus_smoothing;
  uint32_t alternate_smoothing, alternate_one_minus_smoothing;
  uint32_t min_signal_remaining;
  uint32_t smoothing_bits, spectral_subtraction_bits;
  int32_t clamping;
} tflc_spectral_subtraction_params;
/* One frame: updates `noise`, writes the noise-subtracted `out`. */
TFLC_API void
tflc_signal_spectral_subtraction_u32(const tflc_spectral_subtraction_params *p,
                                     const uint32_t *in, uint32_t *out,
                                     uint32_t *noise);

/* SignalPCAN: per-channel automatic gain control; gain_lut holds
 * TFLC_SIGNAL_PCAN_LUT_SIZE entries, 0 <= snr_shift <= 63. `in` and `out`
 * may be the same array. */
#define TFLC_SIGNAL_PCAN_LUT_SIZE 125
TFLC_API void tflc_signal_pcan_u32(const int16_t *gain_lut, int32_t snr_shift,
                                   const uint32_t *noise, const uint32_t *in,
                                   uint32_t *out, int32_t n);

/* SignalOverlapAdd, one frame: buffer[0..frame_size) += in (int16
 * saturating in tflc_signal_overlap_add_s16, float in
 * tflc_signal_overlap_add_f32), the first frame_step samples go out, the
 * buffer (the state, updated in place) shifts left by frame_step and
 * fills with zeros; 0 < frame_step <= frame_size. */
TFLC_API void tflc_signal_overlap_add_s16(const int16_t *in, int16_t *buffer,
                                          int32_t frame_size,
                                          int32_t frame_step, int16_t *out);
TFLC_API void tflc_signal_overlap_add_f32(const float *in, float *buffer,
                                          int32_t frame_size,
                                          int32_t frame_step, float *out);

/* ---- sample rings: SignalFramer, SignalStacker, SignalDelay -------------- */
/* A FIFO of int16 samples in `data` (capacity entries), with TFLM's
 * CircularBuffer semantics (read / write positions and an empty flag).
 * Callers keep every write within the free room and every get / discard
 * within the samples held. */
typedef struct tflc_ring_s16 {
  int16_t *data;
  uint32_t capacity, read, write;
  int32_t empty;
} tflc_ring_s16;
/* Sets r->data (capacity samples) to zeros and r empty; the caller sets
 * data and capacity first. */
TFLC_API void tflc_ring_s16_reset(tflc_ring_s16 *r);
/* The number of samples r holds. */
TFLC_API uint32_t tflc_ring_s16_available(const tflc_ring_s16 *r);
/* Appends n samples (zeros when v is NULL). */
TFLC_API void tflc_ring_s16_write(tflc_ring_s16 *r, const int16_t *v,
                                  uint32_t n);
/* Appends the last `count` samples `times` more times. */
TFLC_API void tflc_ring_s16_extend(tflc_ring_s16 *r, uint32_t count,
                                   int32_t times);
/* Copies the n oldest samples to out (they stay). */
TFLC_API void tflc_ring_s16_get(const tflc_ring_s16 *r, uint32_t n,
                                int16_t *out);
/* Drops the n oldest samples. */
TFLC_API void tflc_ring_s16_discard(tflc_ring_s16 *r, uint32_t n);

/* SignalFramer on one row: n_frames steps of frame_step samples from `in`;
 * each step that completes a frame of frame_size samples writes it to
 * out + frame * frame_size. Returns 1 when every step gave a frame, 0
 * otherwise (the frames of the others are not written). The ring holds
 * ceil(frame_size / frame_step) * frame_step samples. */
TFLC_API int tflc_signal_framer_s16(tflc_ring_s16 *ring, const int16_t *in,
                                    int32_t n_frames, int32_t frame_size,
                                    int32_t frame_step, int16_t *out);
/* SignalStacker: appends num_channels samples (the first call also repeats
 * them left_context times); when the ring (num_channels * (left + right +
 * 1) samples) is full, copies it to out, drops step_size samples and
 * returns 1; else returns 0 and writes nothing. *started tracks the first
 * call (0 before it). 0 < step_size <= capacity. */
TFLC_API int tflc_signal_stacker_s16(tflc_ring_s16 *ring, int32_t *started,
                                     const int16_t *in, int32_t num_channels,
                                     int32_t left_context, uint32_t step_size,
                                     int16_t *out);
/* SignalDelay on one row of n samples: out is the row delayed by the
 * ring's initial zeros (ring capacity n + delay, `delay` zeros written at
 * reset). */
TFLC_API void tflc_signal_delay_s16(tflc_ring_s16 *ring, const int16_t *in,
                                    int32_t n, int16_t *out);

/* ---- real FFTs: SignalRfft, SignalIrfft ---------------------------------- */
/* KissFFT's real transform: a complex FFT of fft_length / 2 points
 * (mixed radix 4, 2, 3, 5, recursion unrolled) and its split. The plan
 * holds the radices and the twiddle tables (computed with cos / sin, as
 * KissFFT does, once); lengths whose half has another prime factor are
 * not supported (TFLM's build of KissFFT cannot run them). */
#define TFLC_FFT_MAX_FACTORS 32
typedef struct tflc_fft_plan {
  int32_t fft_length; /* real points; even */
  int32_t inverse;
  int32_t num_factors;
  uint8_t radix[TFLC_FFT_MAX_FACTORS];
  void *twiddles;       /* fft_length / 2 complex */
  void *super_twiddles; /* fft_length / 4 complex */
} tflc_fft_plan;
/* Bytes of twiddle memory for a plan whose elements are elem_size bytes
 * (2: int16, 4: int32 or float); 0 when the length is not supported. */
TFLC_API size_t tflc_fft_plan_bytes(int32_t fft_length, size_t elem_size);
/* tflc_fft_plan_s16 / tflc_fft_plan_s32 / tflc_fft_plan_f32 fill a plan
 * for int16, int32 or float transforms; `mem` holds
 * tflc_fft_plan_bytes(fft_length, element size) bytes, aligned for the
 * element type, and is kept by the plan (it must outlive it). Returns 0,
 * or -1 when the length is not supported. */
TFLC_API int tflc_fft_plan_s16(tflc_fft_plan *p, int32_t fft_length,
                               int inverse, void *mem);
TFLC_API int tflc_fft_plan_s32(tflc_fft_plan *p, int32_t fft_length,
                               int inverse, void *mem);
TFLC_API int tflc_fft_plan_f32(tflc_fft_plan *p, int32_t fft_length,
                               int inverse, void *mem);
/* tflc_rfft_s16 / tflc_rfft_s32 / tflc_rfft_f32: forward transform of
 * in[0..in_len) zero-padded to fft_length (in_len <= fft_length) into
 * fft_length / 2 + 1 complex bins (re, im pairs) with a forward plan of
 * the same element type; `work` holds fft_length elements. */
TFLC_API void tflc_rfft_s16(const tflc_fft_plan *p, const int16_t *in,
                            int32_t in_len, int16_t *work, int16_t *out);
TFLC_API void tflc_rfft_s32(const tflc_fft_plan *p, const int32_t *in,
                            int32_t in_len, int32_t *work, int32_t *out);
TFLC_API void tflc_rfft_f32(const tflc_fft_plan *p, const float *in,
                            int32_t in_len, float *work, float *out);
/* tflc_irfft_s16 / tflc_irfft_s32 / tflc_irfft_f32: inverse transform of
 * fft_length / 2 + 1 complex bins into fft_length samples (inverse plan
 * of the same element type); `work` holds fft_length elements. The fixed
 * point ones scale by 1 / (fft_length / 2) as KissFFT does, the float one
 * divides by fft_length as TFLM does. */
TFLC_API void tflc_irfft_s16(const tflc_fft_plan *p, const int16_t *in,
                             int16_t *work, int16_t *out);
TFLC_API void tflc_irfft_s32(const tflc_fft_plan *p, const int32_t *in,
                             int32_t *work, int32_t *out);
TFLC_API void tflc_irfft_f32(const tflc_fft_plan *p, const float *in,
                             float *work, float *out);

/* ======================================================================== */
/* Structural operators and TFLM's custom operators (CIRCULAR_BUFFER, ...)  */
/* ======================================================================== */
/* CIRCULAR_BUFFER: `out` holds `slots` rows of row_bytes bytes, oldest
 * first; a push drops the oldest row and appends `in` (row_bytes). */
TFLC_API void tflc_circular_buffer_push(int32_t slots, size_t row_bytes,
                                        const void *in, void *out);

/* REVERSE_V2: the input viewed as [outer, middle, inner] elements of
 * elem_size bytes (the reversed axes, contiguous, merged into `middle`);
 * out[o][m][i] = in[o][middle - 1 - m][i]. */
TFLC_API void tflc_reverse(size_t elem_size, int32_t outer, int32_t middle,
                           int32_t inner, const void *in, void *out);

/* MIRROR_PAD as TFLM maps it: output coordinate p of axis k reads input
 * coordinate before[k] + offset - 1 - p inside the leading pad, p -
 * before[k] inside the input, and, past it, the mirror image clamped to
 * coordinate 0 (offset 1 REFLECT, 0 SYMMETRIC). Requires 0 <= before[k]
 * <= in_dims[k] - offset and in_dims[k] >= 1 for every k (when the output
 * is not empty), rank <= TFLC_MAX_DIMS. */
TFLC_API void tflc_mirror_pad(size_t elem_size, int32_t rank,
                              const int32_t *in_dims, const int32_t *out_dims,
                              const int32_t *before, int32_t offset,
                              const void *in, void *out);

/* FILL: n copies of the elem_size-byte value. */
TFLC_API void tflc_fill(size_t elem_size, int32_t n, const void *value,
                        void *out);

/* BROADCAST_TO: in_dims (rank entries, leading 1s added) each 1 or equal
 * to out_dims; out[i] = in[i with the broadcast coordinates at 0]. */
TFLC_API void tflc_broadcast_to(size_t elem_size, int32_t rank,
                                const int32_t *in_dims, const int32_t *out_dims,
                                const void *in, void *out);

/* BROADCAST_ARGS on shape vectors of int32 (wide 0) or int64 (wide 1)
 * elements: out (n_out elements, aligned right) gets the broadcast shape,
 * a missing leading entry counting as 1; entries are compared as TFLM's
 * kernel does, converted to int. Returns 0, or -1 for shapes that do not
 * broadcast (TFLM aborts). */
TFLC_API int tflc_broadcast_args(int wide, int32_t n1, const void *s1,
                                 int32_t n2, const void *s2, int32_t n_out,
                                 void *out);

/* GATHER_ND: params of `params_rank` dims; indices [n_slices, nd] (int32),
 * each row a coordinate over the first nd dims; every slice (the
 * remaining dims, contiguous) is copied to out in order. The bound check
 * is TFLM's, on the flat position: returns 0, or -1 when a slice would
 * start before the params or end after them (out is then partly
 * written). nd <= params_rank. */
TFLC_API int tflc_gather_nd(size_t elem_size, int32_t params_rank,
                            const int32_t *params_dims, int32_t n_slices,
                            int32_t nd, const int32_t *indices,
                            const void *params, void *out);

/* EMBEDDING_LOOKUP: out row i = table row ids[i] (rows rows of row_bytes
 * bytes). The hybrid form, tflc_embedding_lookup_s8_f32, dequantizes int8
 * rows of `cols` values to float: (float)q * scale. Return 0, or -1 at the
 * first id outside [0, rows) (the rows before it are written). */
TFLC_API int tflc_embedding_lookup(size_t row_bytes, int32_t rows, int32_t n,
                                   const int32_t *ids, const void *table,
                                   void *out);
TFLC_API int tflc_embedding_lookup_s8_f32(int32_t cols, int32_t rows, int32_t n,
                                          const int32_t *ids, float scale,
                                          const int8_t *table, float *out);

/* DYNAMIC_UPDATE_SLICE: writes `update` (upd_dims) into out (dims, both
 * rank dims) at `start` (0 <= start[k] <= dims[k] - upd_dims[k]). */
TFLC_API void tflc_dynamic_update_slice(size_t elem_size, int32_t rank,
                                        const int32_t *dims,
                                        const int32_t *upd_dims,
                                        const int32_t *start,
                                        const void *update, void *out);

/* BATCH_MATMUL: out[b][r][c] = sum over k (ascending) of lhs(b, r, k) *
 * rhs(b, k, c), for the three outer batch dims of TFLM's 5-D form. lhs
 * element (r, k) of a batch sits at r * lhs_row_step + k * lhs_depth_step
 * (adj_x swaps them), rhs (k, c) at k * rhs_depth_step + c * rhs_col_step;
 * a batch moves by *_batch_step (0 where that input broadcasts). int8 /
 * int16: (lhs + lhs_offset) * (rhs + rhs_offset) in int32 / int64,
 * requantized with (out_mult, out_shift), + out_offset, clamped. */
typedef struct tflc_batch_matmul_params {
  int32_t batches[3];
  int32_t lhs_batch_step[3], rhs_batch_step[3];
  int32_t rows, cols, depth;
  int32_t lhs_row_step, lhs_depth_step, rhs_depth_step, rhs_col_step;
  int32_t lhs_offset, rhs_offset, out_offset, out_mult, out_shift;
  int32_t act_min, act_max;
} tflc_batch_matmul_params;
/* BATCH_MATMUL of float32 (tflc_batch_matmul_f32), int8
 * (tflc_batch_matmul_s8) and int16 (tflc_batch_matmul_s16) tensors laid
 * out as p says; int8 / int16 requantized as above. */
TFLC_API void tflc_batch_matmul_f32(const tflc_batch_matmul_params *p,
                                    const float *lhs, const float *rhs,
                                    float *out);
TFLC_API void tflc_batch_matmul_s8(const tflc_batch_matmul_params *p,
                                   const int8_t *lhs, const int8_t *rhs,
                                   int8_t *out);
TFLC_API void tflc_batch_matmul_s16(const tflc_batch_matmul_params *p,
                                    const int16_t *lhs, const int16_t *rhs,
                                    int16_t *out);

/* TFLite_Detection_PostProcess (float32), TFLM's kernel step for step:
 * boxes [num_boxes, box_stride >= 4] (y, x, h, w) decoded against
 * anchors [num_boxes, 4] (y, x, h, w) in double precision; scores
 * [num_boxes, classes_with_background] (classes_with_background -
 * num_classes = 0 or 1 background column first); non-max suppression per
 * class (regular) or on each box's best class (fast), score threshold
 * inclusive, boxes dropped when their IoU exceeds iou_threshold. Writes
 * max_detections boxes (ymin, xmin, ymax, xmax), classes, scores (regular
 * NMS zero-fills unused slots; fast NMS leaves them as they were) and the
 * count. `capacity`: detections the outputs hold. Returns 0; -1 when a
 * decoded box is empty (TFLM fails the invoke); -2 when fast NMS would
 * write past `capacity` (TFLM writes out of bounds with
 * max_classes_per_detection > 1). Ties sort as TFLM sorts them; with NaN
 * scores the partial sorts may order differently. */
typedef struct tflc_detection_params {
  int32_t num_boxes, box_stride, num_classes, classes_with_background;
  int32_t max_detections, max_classes_per_detection, detections_per_class;
  int32_t regular; /* 1: regular NMS, 0: fast */
  float score_threshold, iou_threshold;
  float y_scale, x_scale, h_scale, w_scale;
} tflc_detection_params;
/* Scratch bytes tflc_detection_postprocess_f32 needs (0 on overflow). */
TFLC_API size_t
tflc_detection_postprocess_scratch(const tflc_detection_params *p);
/* Runs the post-processing above into the four outputs. */
TFLC_API int tflc_detection_postprocess_f32(
    const tflc_detection_params *p, const float *boxes, const float *scores,
    const float *anchors, float *out_boxes, float *out_classes,
    float *out_scores, float *out_count, int32_t capacity, void *scratch);
/* ======================================================================== */
/* 16-bit requantization: the arithmetic of seeds/vta_delegate_ops.rst for  */
/* accelerators whose accumulators are 32 bits wide and whose ALU can only  */
/* multiply by 16-bit numbers (VTA). Scales become a 16-bit multiplier and  */
/* a shift instead of TFLM's 32-bit ones, inputs of ADD are dequantized to  */
/* 7 fraction bits, and results are shifted down without rounding. Not the  */
/* bit-exact kernels: outputs differ from TFLM's by about one step (bounds  */
/* in tests/test_q16.c; measured per model in docs/delegates.md).           */
/* Shifts outside the seed's range shift the other way instead of being     */
/* undefined; products wrap to 32 bits as the accumulator does.             */
/* ======================================================================== */
/* scale ~= multiplier * 2^(shift - 15): frexp's mantissa rounded to 15 bits
 * (half away from zero); a mantissa that rounds to 2^15 becomes 2^14 with
 * shift + 1. Scales below 1e-6 (and non-finite ones), and results with a
 * shift below -15, give 0 and 0. Example: 96 -> 24576 (0.75 * 2^15), 7. */
TFLC_API void tflc_q16_multiplier(double scale, int16_t *multiplier,
                                  int16_t *shift);
/* Dequantization of an 8-bit value q: v = offset + q and v * 2^7 in 16 bits
 * (wrapping), times multiplier (32 bits), plus the nudge (2^14, or 1 - 2^14
 * for a negative product), >> 15 into 16 bits (-2^15 * -2^15 saturates),
 * >> -shift (every >> floors; a positive shift shifts left). With offset =
 * -zero point and the multiplier of scale s: about (q - zero point) * s *
 * 2^7, rounded up for positive products and about one step down for
 * negative ones (the nudge is gemmlowp's, made for a division that
 * truncates, here before a shift that floors). */
TFLC_API int32_t tflc_q16_dequantize(int32_t q, int32_t offset,
                                     int16_t multiplier, int16_t shift);
/* Requantization of an accumulator v: (v * multiplier) >> (15 - shift)
 * (32-bit product, floor; 15 - shift < 0 shifts left), plus offset (the
 * output zero point), clamped to [lo, hi]. */
TFLC_API int32_t tflc_q16_requantize(int32_t v, int16_t multiplier,
                                     int16_t shift, int32_t offset, int32_t lo,
                                     int32_t hi);
/* ADD int8: both inputs dequantized with their scale divided by
 * doubled_max_scale = 2 * max(s1, s2), summed, and requantized with
 * doubled_max_scale / (2^7 * s_out). */
typedef struct tflc_q16_add_params {
  int32_t offset1, offset2; /* minus the inputs' zero points */
  int32_t out_offset;       /* the output zero point */
  int16_t multiplier1, shift1, multiplier2, shift2;
  int16_t out_multiplier, out_shift;
  int32_t act_min, act_max; /* output clamp (fused activation) */
} tflc_q16_add_params;
/* Fills p for those scales and zero points and the output clamp. */
TFLC_API void tflc_q16_add_prepare(float s1, int32_t zp1, float s2, int32_t zp2,
                                   float s_out, int32_t zp_out, int32_t act_min,
                                   int32_t act_max, tflc_q16_add_params *p);
/* out[i] = requantize(dequantize(a[i]) + dequantize(b[i])), n elements. */
TFLC_API void tflc_add_q16_s8(const tflc_q16_add_params *p, int32_t n,
                              const int8_t *a, const int8_t *b, int8_t *out);

/* ======================================================================== */
/* Platforms: the versions each one compiles (declarations; bodies in       */
/* the sections "Platform: ..." at the end of the implementation)           */
/* ======================================================================== */
/* One #if a platform: TFLC_HAVE_<PLATFORM> when it is compiled,
 * TFLC_HAVE_<PLATFORM>_<PRIMITIVE> for each primitive it provides (the
 * selection block of the implementation picks among them). */
/* Arm Cortex-M DSP versions (SXTB16 / SMLAD ...), compiled when the core
 * has the DSP extension and TFLC_NO_DSP is not defined (or, for tests on
 * other hosts, with TFLC_DSP_EMULATE and C definitions of the ACLE
 * intrinsics they use). Same results as the portable ones, always. */
#if !defined(TFLC_NO_DSP) &&                                                   \
    (defined(__ARM_FEATURE_DSP) || defined(TFLC_DSP_EMULATE))
#define TFLC_HAVE_DSP 1
#define TFLC_HAVE_DSP_GEMM 1
#define TFLC_HAVE_DSP_DEPTHWISE 1
TFLC_API void tflc_gemm_s8_dsp(const tflc_requant_params *rq,
                               const tflc_gemm_block *g);
TFLC_API void tflc_depthwise_s8_dsp(const tflc_requant_params *rq,
                                    const tflc_depthwise_block *b);
/* widths 2 and 4 a word of indices at a time (others: the portable one) */
#define TFLC_HAVE_DSP_LUT_UNPACK 1
TFLC_API void tflc_lut_unpack_dsp(const uint8_t *src, unsigned bit, int32_t n,
                                  unsigned bits, const uint8_t *table,
                                  uint8_t *dst);
/* int8 FULLY_CONNECTED of 1..3 batches (tflc_fully_connected_s8's
 * arguments): each input row against groups of four weight rows, the
 * input widened once per group, the biases read in place, per-tensor
 * requantization set up once. Returns 1 when it computed the layer (the
 * bytes of tflc_fully_connected_s8), 0 (nothing written) where it does not
 * apply: a compressed filter or bias, a filter offset, more batches, fewer
 * than four values, an input offset beyond +-32640. */
TFLC_API int tflc_fully_connected_s8_dsp(const tflc_fc_params *p,
                                         int32_t batches, int32_t depth,
                                         int32_t out_depth, const int8_t *in,
                                         const tflc_const *filter,
                                         const tflc_const *bias, int8_t *out);
/* tflc_add_elementwise_s8_portable's bytes with SMMULR high products
 * where the left shift is 20 (tflc_add_prepare_s8's), the input offsets
 * are within +-256, the input shifts <= 0 and the output shift < 0 (and
 * the output offset small enough to ride in its rounding); others: the
 * portable loop */
#define TFLC_HAVE_DSP_ADD_ELEMENTWISE 1
TFLC_API void tflc_add_elementwise_s8_dsp(const tflc_add_params *p, size_t n,
                                          const int8_t *in1, const int8_t *in2,
                                          int8_t *out);
#endif

/* Arm Helium (MVE) versions (VMLADAVA over 16 int8 lanes, VQRDMULH and
 * VRSHL requantization, tail predication), compiled when the core has
 * integer MVE (__ARM_FEATURE_MVE bit 0: Cortex-M55, M85) and TFLC_NO_MVE
 * is not defined. Picked before the DSP ones; the same results as the
 * portable ones, always. */
#if !defined(TFLC_NO_MVE) && defined(__ARM_FEATURE_MVE) &&                     \
    (__ARM_FEATURE_MVE & 1)
#define TFLC_HAVE_MVE 1
#define TFLC_HAVE_MVE_GEMM 1
#define TFLC_HAVE_MVE_DEPTHWISE 1
#define TFLC_HAVE_MVE_REQUANTIZE 1
TFLC_API void tflc_gemm_s8_mve(const tflc_requant_params *rq,
                               const tflc_gemm_block *g);
TFLC_API void tflc_depthwise_s8_mve(const tflc_requant_params *rq,
                                    const tflc_depthwise_block *b);
TFLC_API void tflc_requantize_s8_mve(const tflc_requant_params *rq, int32_t n,
                                     const int32_t *acc, int8_t *out);
/* int8 AVERAGE_POOL_2D through Helium: the bytes and status of
 * tflc_avg_pool_s8 (TFLC_OK, or TFLC_ERR_KERNEL if a window has no valid
 * tap). */
TFLC_API tflc_status tflc_avg_pool_s8_mve(const tflc_pool_params *p,
                                          const int32_t in_dims[4],
                                          const int8_t *in,
                                          const int32_t out_dims[4],
                                          int8_t *out);
/* The block of tflc_gemm_s8_mve for few rows of a few dozen values (the
 * windows of a small filter copied whole, a few pixels against every
 * output channel): a row against four columns at a time in one
 * tail-predicated loop, the columns' requantization set up once for all
 * rows. Any rows, columns, seg_len and a_offset with one segment (other
 * blocks go to tflc_gemm_s8_mve); equal to tflc_gemm_s8_portable byte for
 * byte. rq->bias and per-channel multipliers 4-byte aligned. */
TFLC_API void tflc_gemm_window_s8_mve(const tflc_requant_params *rq,
                                      const tflc_gemm_block *g);
/* The record tflc_fully_connected_s8_prepare keeps on Helium: mode 1 when
 * the layer takes tflc_fully_connected_s8_mve, with its bias and sums. */
typedef struct tflc_fc_s8_mve_record {
  const int32_t *bias;
  const int16_t *sums;
  int32_t mode;
} tflc_fc_s8_mve_record;
/* FULLY_CONNECTED with raw int8 weights w [out_depth][depth] and inputs x
 * [batches][depth], the input offset already turned into per-output
 * constants (tflc_fully_connected_s8_prepare computes them once, unless
 * TFLC_NO_MVE_FC; tflc_fully_connected_s8_run calls this): out[b * out_depth +
 * o] = requantized sum_d w[o * depth + d] * x[b * depth + d] + k[o] with rq
 * channel o, where k[o] = rq->bias[o] + x_offset * sums[o] when sums is not
 * NULL (sums[o]: the sum of weight row o), else rq->bias[o] (0 when NULL).
 * Equals tflc_gemm_s8_portable with a_offset x_offset and the plain biases,
 * byte for byte (int32 sums wrap). rq->bias and per-channel multipliers 4-byte
 * aligned, sums 2-byte aligned. */
#if !defined(TFLC_NO_MVE_FC)
#define TFLC_HAVE_MVE_FULLY_CONNECTED 1
#endif
TFLC_API void tflc_fully_connected_s8_mve(const tflc_requant_params *rq,
                                          const int16_t *sums, int32_t x_offset,
                                          int32_t batches, int32_t depth,
                                          int32_t out_depth, const int8_t *x,
                                          const int8_t *w, int8_t *out);
/* the int8 ADD's element-wise loop (TFLC_ADD_ELEMENTWISE_S8) */
#define TFLC_HAVE_MVE_ADD_ELEMENTWISE 1
TFLC_API void tflc_add_elementwise_s8_mve(const tflc_add_params *p, size_t n,
                                          const int8_t *in1, const int8_t *in2,
                                          int8_t *out);
#endif

/* Xtensa HiFi 4 / HiFi 5 versions (Cadence's intrinsics from
 * <xtensa/tie/xt_hifi4.h> or xt_hifi5.h), compiled on an Xtensa core whose
 * <xtensa/config/core-isa.h> sets XCHAL_HAVE_HIFI4 or XCHAL_HAVE_HIFI5
 * (a build may also define that macro itself), unless TFLC_NO_HIFI; or,
 * for tests on any host, with TFLC_HIFI_EMULATE and C definitions of the
 * intrinsics (the header named by TFLC_HIFI_EMULATE_HEADER, default
 * tests/hifi_emu.h). Same results as the portable ones, always. */
#if !defined(TFLC_NO_HIFI) && defined(__XTENSA__) && !defined(TFLC_HIFI_EMULATE)
#if defined(__has_include)
#if __has_include(<xtensa/config/core-isa.h>)
#include <xtensa/config/core-isa.h>
#endif
#endif
#endif
#if !defined(TFLC_NO_HIFI) &&                                                  \
    (defined(TFLC_HIFI_EMULATE) ||                                             \
     (defined(__XTENSA__) &&                                                   \
      ((defined(XCHAL_HAVE_HIFI4) && XCHAL_HAVE_HIFI4) ||                      \
       (defined(XCHAL_HAVE_HIFI5) && XCHAL_HAVE_HIFI5))))
#define TFLC_HAVE_HIFI 1
#endif
#if defined(TFLC_HAVE_HIFI)
#define TFLC_HAVE_HIFI_GEMM 1
#define TFLC_HAVE_HIFI_DEPTHWISE 1
TFLC_API void tflc_gemm_s8_hifi(const tflc_requant_params *rq,
                                const tflc_gemm_block *g);
TFLC_API void tflc_depthwise_s8_hifi(const tflc_requant_params *rq,
                                     const tflc_depthwise_block *b);
#endif

/* x86-64 versions: SSE4.1 (compiled when the compiler targets it:
 * __SSE4_1__, e.g. -msse4.1 or -march=native; TFLC_NO_SSE41 turns them
 * off) and AVX2 (__AVX2__, e.g. -mavx2; TFLC_NO_AVX2). Same results as the
 * portable ones, always; tests/test_platform_x86.c and fuzz/fuzz_kernels.c
 * compare them byte for byte. */
#if !defined(TFLC_NO_SSE41) && defined(__SSE4_1__)
#define TFLC_HAVE_SSE41 1
#define TFLC_HAVE_SSE41_GEMM 1
#define TFLC_HAVE_SSE41_DEPTHWISE 1
#define TFLC_HAVE_SSE41_REQUANTIZE 1
TFLC_API void tflc_gemm_s8_sse41(const tflc_requant_params *rq,
                                 const tflc_gemm_block *g);
TFLC_API void tflc_depthwise_s8_sse41(const tflc_requant_params *rq,
                                      const tflc_depthwise_block *b);
TFLC_API void tflc_requantize_s8_sse41(const tflc_requant_params *rq, int32_t n,
                                       const int32_t *acc, int8_t *out);
#endif
#if !defined(TFLC_NO_AVX2) && defined(__AVX2__)
#define TFLC_HAVE_AVX2 1
#define TFLC_HAVE_AVX2_GEMM 1
#define TFLC_HAVE_AVX2_DEPTHWISE 1
#define TFLC_HAVE_AVX2_REQUANTIZE 1
TFLC_API void tflc_gemm_s8_avx2(const tflc_requant_params *rq,
                                const tflc_gemm_block *g);
TFLC_API void tflc_depthwise_s8_avx2(const tflc_requant_params *rq,
                                     const tflc_depthwise_block *b);
TFLC_API void tflc_requantize_s8_avx2(const tflc_requant_params *rq, int32_t n,
                                      const int32_t *acc, int8_t *out);
#endif

/* ---- internal interface ------------------------------------------------
 * What tflc.h, tflc_write.h and tests/ use of this header's implementation
 * beyond the API above. Not an API: it changes without notice. Its
 * functions are static (TFLC_INTERNAL) unless the build defines
 * TFLC_INTERNAL_API, as the test build does: tests/run.sh compiles the
 * library once per configuration that way and links the tests against it,
 * so a test sees exactly these declarations. */
#ifndef TFLC_INTERNAL
#if defined(TFLC_INTERNAL_API) && !defined(TFLC_STATIC)
#define TFLC_INTERNAL extern
#else
#define TFLC_INTERNAL static
#endif
#endif
/* tflc__float_parts's classes of a float */
enum { TFLC__FP_ZERO, TFLC__FP_FINITE, TFLC__FP_INF, TFLC__FP_NAN };
#if defined(TFLC_INTERNAL_API) && !defined(TFLC_STATIC)
TFLC_INTERNAL void tflc__lut_decode_rows(const tflc_const *c, int32_t start,
                                         int32_t step, int32_t n, int32_t rows,
                                         void *dst);
TFLC_INTERNAL int tflc__float_ratio(float a, float b, float c, uint64_t *m,
                                    int32_t *e, uint32_t *neg);
TFLC_INTERNAL void tflc__quantize_float_ratio(float a, float b, float c,
                                              int32_t *q, int32_t *shift);
TFLC_INTERNAL int32_t tflc__fp_exp_neg(int32_t a, int ibits);
TFLC_INTERNAL int32_t tflc__fp_recip_1px(int32_t a);
TFLC_INTERNAL int32_t tflc__fp_reciprocal(int32_t x, int ibits,
                                          int *bits_over_unit);
TFLC_INTERNAL int32_t tflc__fp_input_radius(int ibits, int left_shift);
#endif

#ifdef __cplusplus
}
#endif

/* ======================================================================== */
/* Stop here if you only want the API.                                      */
/* ======================================================================== */
#endif /* TFLC_KERNELS_H */

#if (defined(TFLC_KERNELS_IMPLEMENTATION) || defined(TFLC_IMPLEMENTATION)) &&  \
    !defined(TFLC_KERNELS_IMPLEMENTATION_DONE)
#define TFLC_KERNELS_IMPLEMENTATION_DONE

#include <float.h>
#include <math.h>
#include <string.h>

/* Float results are TFLM's only if every product and sum is rounded on
 * its own: no fused multiply-add, whatever the build's flags (gcc fuses
 * under -std=gnu99 or -ffp-contract=fast, clang within a statement by
 * default, wherever the target has FMA). The implementation turns
 * contraction off for itself and restores the build's setting at its end.
 * clang's -ffp-contract=fast ignores this pragma: do not use it (or use
 * -ffp-contract=fast-honor-pragmas) for byte-exact float kernels. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#elif defined(_MSC_VER)
#pragma fp_contract(off)
#endif

/* hot helpers inlined, cold fallbacks kept out of the callers' frames;
 * TFLC__SEAM: the portable side of an internal seam, unused where the
 * platform selection picked another */
#if defined(__GNUC__) || defined(__clang__)
#define TFLC__INLINE static inline __attribute__((always_inline))
#define TFLC__NOINLINE __attribute__((noinline))
#define TFLC__SEAM static __attribute__((unused))
#else
#define TFLC__INLINE static inline
#define TFLC__SEAM static
#define TFLC__NOINLINE
#endif
/* an inlined helper of the internal interface: extern in the test build */
#if defined(TFLC_INTERNAL_API) && !defined(TFLC_STATIC)
#define TFLC__INTERNAL_INLINE extern
#else
#define TFLC__INTERNAL_INLINE TFLC__INLINE
#endif
/* Code that runs once per operator (prepare, or an invoke's setup before
 * its loops: multipliers, ranges, tables, geometry) is compiled for size
 * under gcc in optimized builds, as tflc.h's own code is; the loops keep
 * the build's level. TFLC_NO_SIZE_GLUE turns it off. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__) &&       \
    !defined(__OPTIMIZE_SIZE__) && !defined(TFLC_NO_SIZE_GLUE)
#define TFLC__PREPARE_CODE __attribute__((optimize("Os")))
#else
#define TFLC__PREPARE_CODE
#endif
/* The same for the rare fallbacks no fast path reaches on the usual
 * shapes (the direct convolution: grouped, or a scratch too small). */
#define TFLC__FALLBACK_CODE TFLC__PREPARE_CODE

#ifdef TFLC_PLATFORM_HEADER
#include TFLC_PLATFORM_HEADER
#endif

/* ======================================================================== */
/* Quantization helpers: TFLM's double rounding, multipliers, ranges        */
/* ======================================================================== */
/* Integer helpers that reproduce TFLM's reference arithmetic (gemmlowp
 * double rounding). Right shifts of negative values are written so that they
 * floor on every compiler (C leaves >> of negative values to the
 * implementation); narrowing conversions wrap explicitly. */

static int64_t tflc__asr64(int64_t v, int n) {
  /* floor(v / 2^n) for 0 <= n <= 63 */
  return v >= 0 ? (v >> n) : ~((~v) >> n);
}

static int32_t tflc__asr32(int32_t v, int n) {
  return v >= 0 ? (v >> n) : ~((~v) >> n);
}

static int32_t tflc__wrap32(int64_t v) {
  uint32_t u = (uint32_t)(uint64_t)v;
  return u <= 0x7FFFFFFFu ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}

TFLC_API size_t tflc_type_size(int type) {
  switch (type) {
  case TFLC_FLOAT32:
  case TFLC_INT32:
  case TFLC_UINT32:
    return 4;
  case TFLC_FLOAT16:
  case TFLC_INT16:
  case TFLC_UINT16:
    return 2;
  case TFLC_UINT8:
  case TFLC_BOOL:
  case TFLC_INT8:
    return 1;
  case TFLC_INT64:
  case TFLC_UINT64:
    return 8;
  default:
    return 0;
  }
}

/* TFLM's QuantizeMultiplier of the nonzero double (-1)^neg * m * 2^e, m
 * in [2^52, 2^53): f = frexp(x, &fe) = m / 2^53 with fe = e + 53, and
 * q = std::round(f * 2^31) = m / 2^22 rounded half away from zero. */
static TFLC__PREPARE_CODE void tflc__quantize_parts(uint64_t m, int32_t e,
                                                    uint32_t neg, int32_t *q,
                                                    int32_t *shift) {
  int64_t qf = (int64_t)((m + ((uint64_t)1 << 21)) >> 22);
  e += 53;
  if (neg)
    qf = -qf;
  if (qf == ((int64_t)1 << 31)) {
    qf /= 2;
    ++e;
  }
  if (e < -31) {
    e = 0;
    qf = 0;
  }
  *q = (int32_t)qf;
  *shift = e;
}

TFLC_API TFLC__PREPARE_CODE void tflc_quantize_multiplier(double m, int32_t *q,
                                                          int32_t *shift) {
  /* Done on the bits (no libm, no double arithmetic): see
   * tflc__quantize_parts. */
  const double big = 1e300;
  uint64_t bits, lim, mant;
  int32_t e;
  memcpy(&bits, &m, sizeof bits);
  memcpy(&lim, &big, sizeof lim);
  /* Zero, non-finite or absurdly large multipliers cannot come from a
   * valid model; give the neutral answer instead of undefined behaviour
   * (|m| > 1e300 compared as bit patterns; NaN and infinities above). */
  if ((bits & ~((uint64_t)1 << 63)) == 0 ||
      (bits & ~((uint64_t)1 << 63)) > lim) {
    *q = 0;
    *shift = 0;
    return;
  }
  mant = bits & (((uint64_t)1 << 52) - 1);
  e = (int32_t)((bits >> 52) & 0x7FF);
  if (e == 0) { /* subnormal: normalize */
    e = -1074;
    while (!(mant & ((uint64_t)1 << 52))) {
      mant <<= 1;
      --e;
    }
  } else {
    mant |= (uint64_t)1 << 52;
    e -= 1075;
  }
  tflc__quantize_parts(mant, e, (uint32_t)(bits >> 63), q, shift);
}

/* A float as sign, significand m in [2^23, 2^24) and exponent (|x| =
 * m * 2^e, subnormals normalized). Returns TFLC__FP_ZERO, _FINITE, _INF
 * or _NAN. */
static TFLC__PREPARE_CODE int tflc__float_parts(float x, uint32_t *m,
                                                int32_t *e, uint32_t *neg) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  *neg = u >> 31;
  *m = u & 0x7FFFFFu;
  *e = (int32_t)((u >> 23) & 0xFFu);
  if (*e == 0xFF)
    return *m ? TFLC__FP_NAN : TFLC__FP_INF;
  if (*e == 0) {
    if (!*m)
      return TFLC__FP_ZERO;
    *e = -149;
    while (!(*m & 0x800000u)) {
      *m <<= 1;
      --*e;
    }
    return TFLC__FP_FINITE;
  }
  *m |= 0x800000u;
  *e -= 150;
  return TFLC__FP_FINITE;
}

/* The double (double)a * (double)b / (double)c that TFLM computes for its
 * multipliers, without double arithmetic: (-1)^neg * m * 2^e with m in
 * [2^52, 2^53) when finite and nonzero. The product of two floats is
 * exact in a double; the quotient is rounded to nearest even from an
 * integer quotient of 55 to 57 bits and its remainder. Returns its TFLC__FP_
 * class (no subnormal or overflowing double can arise from floats). */
TFLC_INTERNAL TFLC__PREPARE_CODE int tflc__float_ratio(float a, float b,
                                                       float c, uint64_t *m,
                                                       int32_t *e,
                                                       uint32_t *neg) {
  uint32_t ma, mb, mc, na, nb, nc;
  int32_t ea, eb, ec, d;
  const int ka = tflc__float_parts(a, &ma, &ea, &na);
  const int kb = tflc__float_parts(b, &mb, &eb, &nb);
  const int kc = tflc__float_parts(c, &mc, &ec, &nc);
  uint64_t p, quo, r, rem, half;
  *neg = na ^ nb ^ nc;
  *m = 0;
  *e = 0;
  if (ka == TFLC__FP_NAN || kb == TFLC__FP_NAN || kc == TFLC__FP_NAN)
    return TFLC__FP_NAN;
  if (ka == TFLC__FP_INF || kb == TFLC__FP_INF) /* inf * 0, inf / inf */
    return ka == TFLC__FP_ZERO || kb == TFLC__FP_ZERO || kc == TFLC__FP_INF
               ? TFLC__FP_NAN
               : TFLC__FP_INF;
  if (ka == TFLC__FP_ZERO || kb == TFLC__FP_ZERO) /* 0 / 0 */
    return kc == TFLC__FP_ZERO ? TFLC__FP_NAN : TFLC__FP_ZERO;
  if (kc == TFLC__FP_ZERO)
    return TFLC__FP_INF;
  if (kc == TFLC__FP_INF)
    return TFLC__FP_ZERO;
  /* quo = floor(p * 2^32 / mc) in two steps (no 64-bit overflow) */
  p = (uint64_t)ma * mb; /* [2^46, 2^48) */
  quo = p / mc;
  r = p % mc; /* < 2^24 */
  quo = (quo << 32) | ((r << 32) / mc);
  r = (r << 32) % mc;
  /* quo in [2^54, 2^57): keep 53 bits, round to nearest even */
  d = quo >> 56 ? 4 : quo >> 55 ? 3 : 2;
  *m = quo >> d;
  rem = quo & (((uint64_t)1 << d) - 1);
  half = (uint64_t)1 << (d - 1);
  if (rem > half || (rem == half && (r != 0 || (*m & 1))))
    ++*m;
  *e = ea + eb - ec - 32 + d;
  if (*m == ((uint64_t)1 << 53)) {
    *m >>= 1;
    ++*e;
  }
  return TFLC__FP_FINITE;
}

/* tflc_quantize_multiplier((double)a * (double)b / (double)c), exactly,
 * without double arithmetic. */
TFLC_INTERNAL TFLC__PREPARE_CODE void
tflc__quantize_float_ratio(float a, float b, float c, int32_t *q,
                           int32_t *shift) {
  uint64_t m;
  int32_t e;
  uint32_t neg;
  *q = 0;
  *shift = 0;
  if (tflc__float_ratio(a, b, c, &m, &e, &neg) == TFLC__FP_FINITE)
    tflc__quantize_parts(m, e, neg, q, shift);
}

TFLC_API int32_t tflc_saturating_rounding_doubling_high_mul(int32_t a,
                                                            int32_t b) {
  int64_t p;
  if (a == INT32_MIN && b == INT32_MIN)
    return INT32_MAX;
  p = (int64_t)a * (int64_t)b;
  /* (p + 2^30) >> 31 floors: round to nearest, ties toward +inf; the
   * result always fits in int32 here. */
  return (int32_t)tflc__asr64(p + ((int64_t)1 << 30), 31);
}

TFLC_API int32_t tflc_rounding_divide_by_pot(int32_t x, int32_t exponent) {
  if (exponent <= 0)
    return x;
  if (exponent <= 31) {
    const int32_t mask = (int32_t)((((uint32_t)1) << exponent) - 1u);
    const int32_t rem = x & mask;
    const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return tflc__asr32(x, (int)exponent) + (rem > threshold ? 1 : 0);
  } else {
    /* beyond gemmlowp's range: the same rounding, computed in 64 bits */
    const int n = exponent > 62 ? 62 : (int)exponent;
    const int64_t x64 = x;
    const int64_t mask = ((int64_t)1 << n) - 1;
    const int64_t rem = x64 & mask;
    const int64_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (int32_t)(tflc__asr64(x64, n) + (rem > threshold ? 1 : 0));
  }
}

TFLC_API int32_t tflc_multiply_by_quantized_multiplier(int32_t x, int32_t q,
                                                       int32_t shift) {
  /* x * 2^left is a plain (wrapping) int32 multiply, as in TFLM */
  const int32_t left = shift > 0 ? shift : 0;
  const int32_t right = shift > 0 ? 0 : -shift;
  const int32_t xs =
      left >= 32 ? 0 : tflc__wrap32((int64_t)((uint32_t)x << left));
  return tflc_rounding_divide_by_pot(
      tflc_saturating_rounding_doubling_high_mul(xs, q), right);
}

TFLC_API int32_t tflc_multiply_by_quantized_multiplier_64(int64_t x, int32_t q,
                                                          int32_t shift) {
  /* TFLM's 64-bit variant: 16-bit multiplier, one rounding (ties toward
   * +inf), non-saturating narrowing. Expects q >= 0, shift in [-31, 7]. */
  const int64_t q16 =
      q < 0x7FFF0000 ? (int64_t)tflc__asr32(q + (1 << 15), 16) : 0x7FFF;
  int32_t total = 15 - shift;
  int64_t prod;
  TFLC_ASSERT(total >= 1 && total <= 62);
  if (total < 1)
    total = 1;
  if (total > 62)
    total = 62;
  prod = (int64_t)((uint64_t)x * (uint64_t)q16);
  prod = (int64_t)((uint64_t)prod + ((uint64_t)1 << (total - 1)));
  return tflc__wrap32(tflc__asr64(prod, (int)total));
}

static int32_t tflc__quantize_act(float v, float scale, int32_t zp) {
  /* zp + (int32)round(float(v) / float(scale)), saturated (TFLM fails
   * Prepare when the value leaves int32; valid models never do). */
  float t = v / scale;
  int64_t r;
  t = roundf(t);
  if (!(t == t))
    t = 0.0f;
  if (t > 2147483520.0f)
    t = 2147483520.0f;
  if (t < -2147483648.0f)
    t = -2147483648.0f;
  r = (int64_t)zp + (int32_t)t; /* t is whole and in int32 range */
  if (r > INT32_MAX)
    r = INT32_MAX;
  if (r < INT32_MIN)
    r = INT32_MIN;
  return (int32_t)r;
}

TFLC_API TFLC__PREPARE_CODE void
tflc_activation_range_quantized(int act, float scale, int32_t zp, int32_t qmin,
                                int32_t qmax, int32_t *lo, int32_t *hi) {
  int32_t a = qmin, b = qmax, t;
  if (act == 1 || act == 2 || act == 3) {
    t = tflc__quantize_act(act == 2 ? -1.0f : 0.0f, scale, zp);
    a = t > qmin ? t : qmin;
    if (act != 1) {
      t = tflc__quantize_act(act == 2 ? 1.0f : 6.0f, scale, zp);
      b = t < qmax ? t : qmax;
    }
  }
  *lo = a;
  *hi = b;
}

TFLC_API void tflc_activation_range_f32(int act, float *lo, float *hi) {
  if (act == 1) {
    *lo = 0.0f;
    *hi = FLT_MAX;
  } else if (act == 2) {
    *lo = -1.0f;
    *hi = 1.0f;
  } else if (act == 3) {
    *lo = 0.0f;
    *hi = 6.0f;
  } else {
    *lo = -FLT_MAX;
    *hi = FLT_MAX;
  }
}

/* ======================================================================== */
/* Platform seam: helpers the platform versions share, then the             */
/* selection block (which version every primitive macro and internal        */
/* seam names; prototypes of the platform functions it names)               */
/* ======================================================================== */
/* ---- shared helpers ----------------------------------------------------- */

/* One requantized int8 output: MultiplyByQuantizedMultiplier of acc (with
 * its wrapping int32 left shift and gemmlowp's two roundings), + offset,
 * clamped (max then min, as TFLM), low byte. Written so that compilers
 * turn it into a multiply-accumulate and a few shifts (no 64-bit shift,
 * no call). */
TFLC__INLINE int8_t tflc__requant_one_s8(uint32_t acc, int32_t q, int32_t shift,
                                         int32_t out_off, int32_t lo,
                                         int32_t hi) {
  const int32_t left = shift > 0 ? shift : 0;
  const int32_t right = shift > 0 ? 0 : -shift;
  const int32_t x = tflc__wrap32((int64_t)(left >= 32 ? 0u : acc << left));
  int32_t v;
  if (x == INT32_MIN && q == INT32_MIN) {
    v = INT32_MAX;
  } else {
    /* (x * q + 2^30) >> 31 fits in int32, so its low word is the low 32
     * bits of the 64-bit logical shift */
    const uint64_t p = (uint64_t)((int64_t)x * (int64_t)q) + (1u << 30);
    v = tflc__wrap32((int64_t)(uint32_t)(p >> 31));
  }
  if (right > 0) {
    const int32_t mask = (int32_t)((1u << (right > 31 ? 31 : right)) - 1u);
    const int32_t threshold = (mask >> 1) + (v < 0 ? 1 : 0);
    const int32_t rem = v & mask;
    v = tflc__asr32(v, right > 31 ? 31 : (int)right) + (rem > threshold);
  }
  v = tflc__wrap32((int64_t)v + out_off);
  v = v < lo ? lo : v;
  v = v > hi ? hi : v;
  {
    /* low byte as int8 even for hand-made clamps outside [-128, 127] */
    const uint32_t u = (uint32_t)v & 0xFFu;
    return (int8_t)((int32_t)u - (u >= 128u ? 256 : 0));
  }
}

/* rq moved to channel c0 of its arrays */
static tflc_requant_params tflc__requant_at(const tflc_requant_params *rq,
                                            int32_t c0) {
  tflc_requant_params r = *rq;
  if (r.bias != NULL)
    r.bias += c0;
  if (r.per_channel) {
    r.multiplier += c0;
    r.shift += c0;
  }
  return r;
}

/* ---- selection block ---------------------------------------------------- */
/* First match wins: Xtensa HiFi, Arm MVE, x86 AVX2, x86 SSE4.1, Arm DSP,
 * portable. A platform section defines TFLC_HAVE_<PLATFORM> when it is
 * compiled and TFLC_HAVE_<PLATFORM>_<PRIMITIVE> for each primitive it
 * provides (and only then). A macro a platform header defined first is
 * kept. The internal seams below (TFLC__*) are the platform entries that
 * are no primitive of their own: each has a portable version, and no
 * kernel outside a platform section tests a platform's name. */
#ifndef TFLC_GEMM_S8
#if defined(TFLC_HAVE_HIFI_GEMM)
#define TFLC_GEMM_S8 tflc_gemm_s8_hifi
#elif defined(TFLC_HAVE_MVE_GEMM)
#define TFLC_GEMM_S8 tflc_gemm_s8_mve
/* the convolution driver and FULLY_CONNECTED may then also call the MVE
 * window GEMM and FC kernel; not when a platform header chose the GEMM */
#define TFLC__GEMM_S8_IS_MVE 1
#elif defined(TFLC_HAVE_AVX2_GEMM)
#define TFLC_GEMM_S8 tflc_gemm_s8_avx2
#elif defined(TFLC_HAVE_SSE41_GEMM)
#define TFLC_GEMM_S8 tflc_gemm_s8_sse41
#elif defined(TFLC_HAVE_DSP_GEMM)
#define TFLC_GEMM_S8 tflc_gemm_s8_dsp
#define TFLC__GEMM_S8_IS_DSP 1
#else
#define TFLC_GEMM_S8 tflc_gemm_s8_portable
#endif
#endif
#ifndef TFLC_DEPTHWISE_S8
#if defined(TFLC_HAVE_HIFI_DEPTHWISE)
#define TFLC_DEPTHWISE_S8 tflc_depthwise_s8_hifi
#elif defined(TFLC_HAVE_MVE_DEPTHWISE)
#define TFLC_DEPTHWISE_S8 tflc_depthwise_s8_mve
#define TFLC__DEPTHWISE_S8_IS_MVE 1
#elif defined(TFLC_HAVE_AVX2_DEPTHWISE)
#define TFLC_DEPTHWISE_S8 tflc_depthwise_s8_avx2
#elif defined(TFLC_HAVE_SSE41_DEPTHWISE)
#define TFLC_DEPTHWISE_S8 tflc_depthwise_s8_sse41
#elif defined(TFLC_HAVE_DSP_DEPTHWISE)
#define TFLC_DEPTHWISE_S8 tflc_depthwise_s8_dsp
#define TFLC__DEPTHWISE_S8_IS_DSP 1
#else
#define TFLC_DEPTHWISE_S8 tflc_depthwise_s8_portable
#endif
#endif
/* The portable GEMM and depthwise primitives where the Arm DSP's are the
 * default only see the parameters those do not cover (offsets or clamps
 * beyond int8, other requantizations): compiled for size there. */
#if defined(TFLC__GEMM_S8_IS_DSP) && defined(TFLC__DEPTHWISE_S8_IS_DSP)
#define TFLC__PORTABLE_CODE TFLC__FALLBACK_CODE
#else
#define TFLC__PORTABLE_CODE
#endif
/* TFLC_AVG_POOL_S8: the int8 AVERAGE_POOL_2D kernel the operator takes */
#ifndef TFLC_AVG_POOL_S8
#if defined(TFLC_HAVE_MVE)
#define TFLC_AVG_POOL_S8 tflc_avg_pool_s8_mve
#else
#define TFLC_AVG_POOL_S8 tflc_avg_pool_s8
#endif
#endif
#ifndef TFLC_REQUANTIZE_S8
#if defined(TFLC_HAVE_MVE_REQUANTIZE)
#define TFLC_REQUANTIZE_S8 tflc_requantize_s8_mve
#elif defined(TFLC_HAVE_AVX2_REQUANTIZE)
#define TFLC_REQUANTIZE_S8 tflc_requantize_s8_avx2
#elif defined(TFLC_HAVE_SSE41_REQUANTIZE)
#define TFLC_REQUANTIZE_S8 tflc_requantize_s8_sse41
#else
#define TFLC_REQUANTIZE_S8 tflc_requantize_s8_portable
#endif
#endif
#ifndef TFLC_ADD_ELEMENTWISE_S8
#if defined(TFLC_HAVE_MVE_ADD_ELEMENTWISE)
#define TFLC_ADD_ELEMENTWISE_S8 tflc_add_elementwise_s8_mve
#elif defined(TFLC_HAVE_DSP_ADD_ELEMENTWISE)
#define TFLC_ADD_ELEMENTWISE_S8 tflc_add_elementwise_s8_dsp
#else
#define TFLC_ADD_ELEMENTWISE_S8 tflc_add_elementwise_s8_portable
#endif
#endif
#ifndef TFLC_LUT_UNPACK
#if defined(TFLC_HAVE_DSP_LUT_UNPACK)
#define TFLC_LUT_UNPACK tflc_lut_unpack_dsp
#else
#define TFLC_LUT_UNPACK tflc_lut_unpack_portable
#endif
#endif
/* TFLC__DSP_ASM: the Arm DSP inner loops in Thumb-2 assembly where gcc or
 * clang and Thumb-2 are there (TFLC_NO_DSP_ASM keeps the ACLE versions,
 * which give the same bytes). */
#if defined(TFLC_HAVE_DSP) && !defined(TFLC_DSP_EMULATE) &&                    \
    !defined(TFLC_NO_DSP_ASM) && defined(__thumb2__) && defined(__GNUC__) &&   \
    defined(__OPTIMIZE__)
#define TFLC__DSP_ASM 1
#endif
/* The operands of the assembly blocks that keep thirteen registers. gcc
 * chooses their registers and addresses their state in memory ("m"
 * operands) from sp. clang gives every "m" operand a register of its own
 * and keeps r7 for its frame pointer, so there the registers are pinned
 * (TFLC__DSP_AV: r0-r6, r8-r12, lr) and the state is a word array
 * (TFLC__DSP_ACTX) that r7 points to while the block runs: the block saves
 * r7 itself (TFLC__DSP_AENTER, TFLC__DSP_AEXIT) and takes the array's
 * address in its operand `ctx`. TFLC__DSP_AM(name, offset): the state word
 * `name`, at byte `offset` of the array under clang; TFLC__DSP_AGCC(...):
 * operands for gcc only. */
#if defined(TFLC__DSP_ASM) && defined(__clang__)
#define TFLC__DSP_AV(type, name, reg) register type name __asm__(reg)
#define TFLC__DSP_AM(name, off) "[r7, #" #off "]"
#define TFLC__DSP_AENTER(ctx) "push {r7}\n\tmov r7, %[" #ctx "]\n\t"
#define TFLC__DSP_AEXIT "pop {r7}\n\t"
#define TFLC__DSP_ACTX(ctx, ...)                                               \
  uintptr_t tflc__actx[] = {__VA_ARGS__};                                      \
  ctx = (uint32_t)(uintptr_t)tflc__actx
#define TFLC__DSP_ACTX_RW(ctx) "+r"(ctx)
#define TFLC__DSP_AGCC(...)
#elif defined(TFLC__DSP_ASM)
#define TFLC__DSP_AV(type, name, reg) type name
#define TFLC__DSP_AM(name, off) "%[" #name "]"
#define TFLC__DSP_AENTER(ctx) ""
#define TFLC__DSP_AEXIT ""
#define TFLC__DSP_ACTX(ctx, ...) (void)0
#define TFLC__DSP_ACTX_RW(ctx) "=&r"(ctx)
#define TFLC__DSP_AGCC(...) __VA_ARGS__
#endif
/* TFLC__DEPTHWISE_LAYER_S8(p, in_dims, in, filter_dims, filter, bias,
 * out_dims, out, tile, tile_bytes): a whole int8 DEPTHWISE_CONV_2D layer
 * through a platform's own layer path before the generic blocked one (the
 * layer's tile as scratch where it holds tflc__depthwise_layer_tile_s8's
 * bytes); 1 when it ran, 0 (nothing written) where it does not apply. Where the
 * DSP depthwise is the default: the Arm DSP's 3x3 frame (tflc__dsp_dw3x3_layer;
 * its run in Thumb-2 assembly where TFLC__DSP_ASM is defined, in C with the
 * intrinsics otherwise), then the path of any filter
 * (tflc__dsp_dw_layer); TFLC_DW3_LAYER_TEST compiles both for
 * tests/test_platform.c, which calls them directly. */
#if defined(TFLC__DEPTHWISE_S8_IS_DSP)
#define TFLC__DEPTHWISE_LAYER_S8_IS_DSP 1
#endif
#if defined(TFLC__DEPTHWISE_LAYER_S8_IS_DSP) || defined(TFLC_DW3_LAYER_TEST)
static int tflc__dsp_dw3x3_layer(const tflc_conv_params *p,
                                 const int32_t in_dims[4], const int8_t *in,
                                 const int32_t filter_dims[4],
                                 const tflc_const *filter,
                                 const tflc_const *bias,
                                 const int32_t out_dims[4], int8_t *out,
                                 void *tile, size_t tile_bytes);
#endif
#if (defined(TFLC__DEPTHWISE_LAYER_S8_IS_DSP) &&                               \
     !defined(TFLC_NO_DW_ANY_FILTER)) ||                                       \
    defined(TFLC_DW3_LAYER_TEST)
static int tflc__dsp_dw_layer(const tflc_conv_params *p,
                              const int32_t in_dims[4], const int8_t *in,
                              const int32_t filter_dims[4],
                              const tflc_const *filter, const tflc_const *bias,
                              const int32_t out_dims[4], int8_t *out);
#ifndef TFLC_NO_PATCHES
static int tflc__dsp_dw_wide_layer(const tflc_conv_params *p,
                                   const int32_t in_dims[4], const int8_t *in,
                                   const int32_t filter_dims[4],
                                   const tflc_const *filter,
                                   const tflc_const *bias,
                                   const int32_t out_dims[4], int8_t *out,
                                   void *tile, size_t tile_bytes);
#endif
#endif
/* Helium's 3x3 layer (multiplier 1, channels a multiple of eight; narrow
 * tall maps with inputs of 3 x 3 at least) where the MVE depthwise is the
 * default (TFLC_MVE_DW3_LAYER_TEST compiles it for tests/test_platform.c).
 */
#if defined(TFLC__DEPTHWISE_S8_IS_MVE)
#define TFLC__DEPTHWISE_LAYER_S8_IS_MVE 1
#endif
#if defined(TFLC__DEPTHWISE_LAYER_S8_IS_MVE) ||                                \
    (defined(TFLC_MVE_DW3_LAYER_TEST) && defined(TFLC_HAVE_MVE))
static int tflc__mve_dw3x3_layer(const tflc_conv_params *p,
                                 const int32_t in_dims[4], const int8_t *in,
                                 const int32_t filter_dims[4],
                                 const tflc_const *filter,
                                 const tflc_const *bias,
                                 const int32_t out_dims[4], int8_t *out);
#endif
/* The chunked depthwise is only the fallback of the DSP's 3x3 layer path
 * under TFLC_NO_DW_ANY_FILTER: compiled for size there, over the portable
 * primitive (the DSP's primitive of any filter left out). */
#if defined(TFLC__DEPTHWISE_LAYER_S8_IS_DSP) && defined(TFLC_NO_DW_ANY_FILTER)
#define TFLC__DW_CHUNKS_CODE TFLC__FALLBACK_CODE
#define TFLC__DW_CHUNK_S8 tflc_depthwise_s8_portable
#else
#define TFLC__DW_CHUNKS_CODE
#define TFLC__DW_CHUNK_S8 TFLC_DEPTHWISE_S8
#endif
/* the rows of 5 or 7 taps run only from the layer's tile, which
 * TFLC_NO_PATCHES leaves out */
#ifndef TFLC_NO_PATCHES
#define TFLC__DSP_DW_WIDE_LAYER tflc__dsp_dw_wide_layer
#else
#define TFLC__DSP_DW_WIDE_LAYER(p, in_dims, in, fd, f, b, out_dims, out, tile, \
                                tb)                                            \
  ((void)(tile), (void)(tb), 0)
#endif
#if defined(TFLC__DEPTHWISE_LAYER_S8_IS_DSP) && defined(TFLC_NO_DW_ANY_FILTER)
#define TFLC__DEPTHWISE_LAYER_S8(p, in_dims, in, fd, f, b, out_dims, out,      \
                                 tile, tb)                                     \
  ((fd)[1] == 3 && (fd)[2] == 3 &&                                             \
   tflc__dsp_dw3x3_layer(p, in_dims, in, fd, f, b, out_dims, out, tile, tb))
#elif defined(TFLC__DEPTHWISE_LAYER_S8_IS_DSP)
#define TFLC__DEPTHWISE_LAYER_S8(p, in_dims, in, fd, f, b, out_dims, out,      \
                                 tile, tb)                                     \
  ((((fd)[1] == 3 && (fd)[2] == 3) &&                                          \
    tflc__dsp_dw3x3_layer(p, in_dims, in, fd, f, b, out_dims, out, tile,       \
                          tb)) ||                                              \
   (!(TFLC__COMPRESSION && (f)->bits != 0) &&                                  \
    (TFLC__DSP_DW_WIDE_LAYER(p, in_dims, in, fd, f, b, out_dims, out, tile,    \
                             tb) ||                                            \
     tflc__dsp_dw_layer(p, in_dims, in, fd, f, b, out_dims, out))))
#elif defined(TFLC__DEPTHWISE_LAYER_S8_IS_MVE)
#define TFLC__DEPTHWISE_LAYER_S8(p, in_dims, in, fd, f, b, out_dims, out,      \
                                 tile, tb)                                     \
  ((p)->depth_multiplier == 1 && (fd)[1] == 3 && (fd)[2] == 3 &&               \
   ((out_dims)[2] > 5 || (out_dims)[1] <= 5 ||                                 \
    ((in_dims)[1] >= 3 && (in_dims)[2] >= 3)) &&                               \
   tflc__mve_dw3x3_layer(p, in_dims, in, fd, f, b, out_dims, out))
#else
#define TFLC__DEPTHWISE_LAYER_S8(p, in_dims, in, fd, f, b, out_dims, out,      \
                                 tile, tb)                                     \
  0
#endif
/* TFLC__MVE_GEMM_OTHER / TFLC__MVE_DEPTHWISE_OTHER: the version a block
 * the MVE GEMM or depthwise does not take goes to */
#if defined(TFLC_HAVE_DSP)
#define TFLC__MVE_GEMM_OTHER tflc_gemm_s8_dsp
#define TFLC__MVE_DEPTHWISE_OTHER tflc_depthwise_s8_dsp
#else
#define TFLC__MVE_GEMM_OTHER tflc_gemm_s8_portable
#define TFLC__MVE_DEPTHWISE_OTHER tflc_depthwise_s8_portable
#endif
/* TFLC__SUM_S8(row, n): the sum of n int8 (the folded input offset of the
 * blocked convolution and FC paths) */
#if defined(TFLC_HAVE_MVE)
TFLC__INLINE int32_t tflc__mve_sum(const int8_t *w, int32_t len);
#define TFLC__SUM_S8 tflc__mve_sum
#elif defined(TFLC_HAVE_DSP)
#define TFLC__SUM_S8_IS_DSP 1
static int32_t tflc__sum_s8_dsp(const int8_t *row, int32_t n);
#define TFLC__SUM_S8 tflc__sum_s8_dsp
#else
#define TFLC__SUM_S8 tflc__sum_s8_portable
#endif
/* TFLC__CONV_OFFSET_ONE_PIXEL: 1 where a 1x1 convolution of a single
 * pixel adds the input offset in the GEMM (the Arm DSP's row blocks add it
 * with SXTAB16) instead of summing the filter to fold it into the biases */
#if defined(TFLC__GEMM_S8_IS_DSP)
#define TFLC__CONV_OFFSET_ONE_PIXEL 1
#else
#define TFLC__CONV_OFFSET_ONE_PIXEL 0
#endif
/* TFLC__CONV_WINDOWS_S8(s, p, filter, bias): a blocked convolution's
 * small windows copied whole against every output channel; 0 (nothing
 * written) where the platform has no such path or declines (it picks the
 * convolutions it takes from the state s) */
struct tflc__conv_blocked;
#if defined(TFLC__GEMM_S8_IS_MVE)
#define TFLC__CONV_WINDOWS_S8_IS_MVE 1
static int tflc__conv2d_s8_im2col_mve(struct tflc__conv_blocked *s,
                                      const tflc_conv_params *p,
                                      const tflc_const *filter,
                                      const tflc_const *bias);
/* kernel rows under 16 values of a small filter, pixels not one block */
#define TFLC__CONV_WINDOWS_S8(s, p, filter, bias)                              \
  ((s)->small && !(s)->contiguous && (s)->g.kw * (s)->g.c < 16 &&              \
   tflc__conv2d_s8_im2col_mve(s, p, filter, bias))
#else
#define TFLC__CONV_WINDOWS_S8(s, p, filter, bias) 0
#endif
/* TFLC__CONV_SPLIT_WINDOWS: 1 where a blocked convolution with few input
 * channels and a depth that is no multiple of four copies its windows in
 * two segments (tflc__conv2d_s8_im2col_split); 0 on Helium, whose GEMM
 * takes the windows read in place for less on a layer of 8 output
 * channels (vww_96_int8's first) */
#if defined(TFLC__GEMM_S8_IS_MVE)
#define TFLC__CONV_SPLIT_WINDOWS 0
#else
#define TFLC__CONV_SPLIT_WINDOWS 1
#endif
/* TFLC__CONV_WIDE_WINDOWS_S8(s): those windows (depths 5..28) widened to
 * 16-bit lanes once and taken against every column pair by the Arm DSP;
 * 0 (nothing written) where the platform has no such path or declines
 * (TFLC_CONV_WIDE_TEST compiles it for tests/test_platform.c and
 * fuzz/fuzz_kernels_wide.c, whose GEMM is their own) */
/* TFLC__CONV_NO_OFFSET_BLOCKS: 1 where the GEMM has no fast path for
 * blocks with an input offset or rows apart in memory (the Arm DSP's, and
 * tests/test_platform.c's, TFLC_CONV_WIDE_TEST): strided 1x1
 * convolutions then gather their pixels into one block
 * (tflc__conv2d_s8_gather) and the border runs take the offset in their
 * biases (tflc__conv2d_s8_border) */
#if defined(TFLC__GEMM_S8_IS_DSP) || defined(TFLC_CONV_WIDE_TEST)
#define TFLC__CONV_NO_OFFSET_BLOCKS 1
#else
#define TFLC__CONV_NO_OFFSET_BLOCKS 0
#endif
#if defined(TFLC__GEMM_S8_IS_DSP) ||                                           \
    (defined(TFLC_CONV_WIDE_TEST) && defined(TFLC_HAVE_DSP))
static int tflc__conv2d_s8_im2col_dsp(struct tflc__conv_blocked *s);
#define TFLC__CONV_WIDE_WINDOWS_S8(s) tflc__conv2d_s8_im2col_dsp(s)
#define TFLC__CONV_WIDE_WINDOWS_S8_ON 1
#else
#define TFLC__CONV_WIDE_WINDOWS_S8(s) 0
#define TFLC__CONV_WIDE_WINDOWS_S8_ON 0
#endif
/* TFLC__FC_S8_LAYER(p, batches, depth, out_depth, in, filter, bias, out):
 * an int8 FULLY_CONNECTED of a few batches through a platform's own layer
 * path before the blocked GEMM one; 1 when it ran, 0 (nothing written)
 * where it does not apply (the Arm DSP without Helium: one input row
 * against all the weight rows, the biases read in place). */
#if defined(TFLC__GEMM_S8_IS_DSP) && !defined(TFLC_HAVE_MVE)
#define TFLC__FC_S8_LAYER tflc_fully_connected_s8_dsp
#else
#define TFLC__FC_S8_LAYER(p, batches, depth, out_depth, in, filter, bias, out) 0
#endif
/* TFLC__FC_S8_PREPARE_BYTES / _PREPARE / _RUN and TFLC_FC_S8_RECORD_BYTES:
 * the int8 FULLY_CONNECTED seam behind tflc_fully_connected_s8_prepare and
 * its siblings (Helium: tflc_fully_connected_s8_mve, unless a platform
 * header chose the GEMM, whose every FC layer then goes through it) */
#if defined(TFLC_HAVE_MVE_FULLY_CONNECTED) && defined(TFLC__GEMM_S8_IS_MVE)
#define TFLC__FC_S8_IS_MVE 1
#define TFLC_FC_S8_RECORD_BYTES sizeof(tflc_fc_s8_mve_record)
static size_t tflc__fc_s8_prepare_bytes_mve(const tflc_fc_params *p,
                                            int32_t accum, int32_t depth,
                                            const tflc_const *filter,
                                            const tflc_const *bias);
static void tflc__fc_s8_prepare_mve(void *record, void *buf,
                                    const tflc_fc_params *p, int32_t accum,
                                    int32_t depth, const tflc_const *filter,
                                    const tflc_const *bias);
TFLC__INLINE void tflc__fc_s8_run_mve(
    const void *record, const tflc_fc_params *p, int32_t batches, int32_t accum,
    int32_t depth, const int8_t *in, const tflc_const *filter,
    const tflc_const *bias, int8_t *out, void *tile, size_t tile_bytes);
#define TFLC__FC_S8_PREPARE_BYTES tflc__fc_s8_prepare_bytes_mve
#define TFLC__FC_S8_PREPARE tflc__fc_s8_prepare_mve
#define TFLC__FC_S8_RUN tflc__fc_s8_run_mve
#else
#define TFLC_FC_S8_RECORD_BYTES 0u
#define TFLC__FC_S8_PREPARE_BYTES tflc__fc_s8_prepare_bytes_portable
#define TFLC__FC_S8_PREPARE tflc__fc_s8_prepare_portable
#define TFLC__FC_S8_RUN tflc__fc_s8_run_portable
#endif

/* ======================================================================== */
/* Portable primitives: the reference versions of the five                  */
/* ======================================================================== */
/* The reference for every platform version (see the API section). */

TFLC_API void tflc_requantize_s8_portable(const tflc_requant_params *rq,
                                          int32_t n, const int32_t *acc,
                                          int8_t *out) {
  const int32_t off = rq->output_offset, lo = rq->act_min, hi = rq->act_max;
  int32_t c;
  for (c = 0; c < n; c++) {
    const int32_t k = rq->per_channel ? c : 0;
    const uint32_t b = rq->bias != NULL ? (uint32_t)rq->bias[c] : 0u;
    out[c] = tflc__requant_one_s8((uint32_t)acc[c] + b, rq->multiplier[k],
                                  rq->shift[k], off, lo, hi);
  }
}

/* columns of accumulators the portable GEMM keeps per row */
#define TFLC__GEMM_COLS 16

TFLC_API TFLC__PORTABLE_CODE void
tflc_gemm_s8_portable(const tflc_requant_params *rq, const tflc_gemm_block *g) {
  int32_t acc0[TFLC__GEMM_COLS], acc1[TFLC__GEMM_COLS];
  const int32_t off = g->a_offset;
  int32_t r, c0, c, k, sg;
  for (r = 0; r < g->rows; r += 2) {
    const int two = r + 1 < g->rows;
    const int8_t *a0 = g->a + (ptrdiff_t)r * g->a_row;
    const int8_t *a1 = two ? a0 + g->a_row : a0;
    int8_t *o0 = g->out + (ptrdiff_t)r * g->out_row;
    for (c0 = 0; c0 < g->cols; c0 += TFLC__GEMM_COLS) {
      const int32_t nc =
          g->cols - c0 < TFLC__GEMM_COLS ? g->cols - c0 : TFLC__GEMM_COLS;
      tflc_requant_params rc = tflc__requant_at(rq, c0);
      if (!two) {
        /* a single row: one sum at a time, none computed twice */
        for (c = 0; c < nc; c++) {
          const int8_t *w0 = g->w + (ptrdiff_t)(c0 + c) * g->w_col;
          uint32_t s0 = 0;
          for (sg = 0; sg < g->segments; sg++) {
            const int8_t *x0 = a0 + (ptrdiff_t)sg * g->a_seg;
            const int8_t *f0 = w0 + (ptrdiff_t)sg * g->w_seg;
            if (off >= -32640 && off <= 32640) {
              /* |x + off| * |w| < 2^23: int32 products */
              for (k = 0; k < g->seg_len; k++)
                s0 += (uint32_t)(((int32_t)x0[k] + off) * (int32_t)f0[k]);
            } else {
              for (k = 0; k < g->seg_len; k++)
                s0 += ((uint32_t)(int32_t)x0[k] + (uint32_t)off) *
                      (uint32_t)(int32_t)f0[k];
            }
          }
          acc0[c] = tflc__wrap32(s0);
        }
        TFLC_REQUANTIZE_S8(&rc, nc, acc0, o0 + c0);
        continue;
      }
      /* a 2 x 2 block of sums at a time: each loaded value used twice */
      for (c = 0; c < nc; c += 2) {
        const int8_t *w0 = g->w + (ptrdiff_t)(c0 + c) * g->w_col;
        const int8_t *w1 = c + 1 < nc ? w0 + g->w_col : w0;
        uint32_t s00 = 0, s01 = 0, s10 = 0, s11 = 0;
        for (sg = 0; sg < g->segments; sg++) {
          const int8_t *x0 = a0 + (ptrdiff_t)sg * g->a_seg;
          const int8_t *x1 = a1 + (ptrdiff_t)sg * g->a_seg;
          const int8_t *f0 = w0 + (ptrdiff_t)sg * g->w_seg;
          const int8_t *f1 = w1 + (ptrdiff_t)sg * g->w_seg;
          if (off == 0) {
            /* int8 x int8 products: what vectorizers like */
            for (k = 0; k < g->seg_len; k++) {
              const int32_t v0 = x0[k], v1 = x1[k], u0 = f0[k], u1 = f1[k];
              s00 += (uint32_t)(v0 * u0);
              s01 += (uint32_t)(v0 * u1);
              s10 += (uint32_t)(v1 * u0);
              s11 += (uint32_t)(v1 * u1);
            }
          } else if (off >= -32640 && off <= 32640) {
            /* |x + off| * |w| < 2^23: int32 products */
            for (k = 0; k < g->seg_len; k++) {
              const int32_t v0 = (int32_t)x0[k] + off;
              const int32_t v1 = (int32_t)x1[k] + off;
              const int32_t u0 = f0[k], u1 = f1[k];
              s00 += (uint32_t)(v0 * u0);
              s01 += (uint32_t)(v0 * u1);
              s10 += (uint32_t)(v1 * u0);
              s11 += (uint32_t)(v1 * u1);
            }
          } else {
            /* wrapping products for any offset */
            for (k = 0; k < g->seg_len; k++) {
              const uint32_t v0 = (uint32_t)(int32_t)x0[k] + (uint32_t)off;
              const uint32_t v1 = (uint32_t)(int32_t)x1[k] + (uint32_t)off;
              const uint32_t u0 = (uint32_t)(int32_t)f0[k];
              const uint32_t u1 = (uint32_t)(int32_t)f1[k];
              s00 += v0 * u0;
              s01 += v0 * u1;
              s10 += v1 * u0;
              s11 += v1 * u1;
            }
          }
        }
        acc0[c] = tflc__wrap32(s00);
        acc1[c] = tflc__wrap32(s10);
        if (c + 1 < nc) {
          acc0[c + 1] = tflc__wrap32(s01);
          acc1[c + 1] = tflc__wrap32(s11);
        }
      }
      TFLC_REQUANTIZE_S8(&rc, nc, acc0, o0 + c0);
      if (two)
        TFLC_REQUANTIZE_S8(&rc, nc, acc1, o0 + g->out_row + c0);
    }
  }
}

/* channels of accumulators the portable depthwise keeps at a time */
#define TFLC__DW_CHANNELS 16

TFLC_API TFLC__PORTABLE_CODE void
tflc_depthwise_s8_portable(const tflc_requant_params *rq,
                           const tflc_depthwise_block *b) {
  int32_t acc[TFLC__DW_CHANNELS];
  const int32_t m = b->multiplier > 0 ? b->multiplier : 1;
  int32_t p, c0, c, y, x;
  for (p = 0; p < b->pixels; p++) {
    const int8_t *xp = b->x + (ptrdiff_t)p * b->x_pixel;
    for (c0 = 0; c0 < b->channels; c0 += TFLC__DW_CHANNELS) {
      const int32_t nc = b->channels - c0 < TFLC__DW_CHANNELS
                             ? b->channels - c0
                             : TFLC__DW_CHANNELS;
      tflc_requant_params rc = tflc__requant_at(rq, c0);
      uint32_t s[TFLC__DW_CHANNELS];
      for (c = 0; c < nc; c++)
        s[c] = 0;
      for (y = 0; y < b->rows; y++)
        for (x = 0; x < b->cols; x++) {
          const int8_t *xt =
              xp + (ptrdiff_t)y * b->x_row + (ptrdiff_t)x * b->x_col;
          const int8_t *wt =
              b->w + (ptrdiff_t)y * b->w_row + (ptrdiff_t)x * b->w_col + c0;
          if (m == 1) {
            for (c = 0; c < nc; c++)
              s[c] += ((uint32_t)(int32_t)xt[c0 + c] + (uint32_t)b->x_offset) *
                      (uint32_t)(int32_t)wt[c];
          } else {
            /* output channel c0 + c reads input channel (c0 + c) / m: one
             * input value for each run of its m outputs */
            for (c = 0; c < nc;) {
              const uint32_t xv =
                  (uint32_t)(int32_t)xt[(c0 + c) / m] + (uint32_t)b->x_offset;
              int32_t end = c + m - (c0 + c) % m;
              if (end > nc)
                end = nc;
              for (; c < end; c++) {
                const uint32_t wv = (uint32_t)(int32_t)wt[c];
                s[c] += xv * wv;
              }
            }
          }
        }
      for (c = 0; c < nc; c++)
        acc[c] = tflc__wrap32(s[c]);
      TFLC_REQUANTIZE_S8(&rc, nc, acc,
                         b->out + (ptrdiff_t)p * b->out_pixel + c0);
    }
  }
}

/* one index at (p, bit); reads p[1] only when the field reaches into it */
static unsigned tflc__index_at(const uint8_t *p, unsigned bit, unsigned bits) {
  unsigned v = (unsigned)p[0] << 8;
  if (bit + bits > 8u)
    v |= p[1];
  return (v >> (16u - bit - bits)) & ((1u << bits) - 1u);
}

/* The decoders of the other kinds (section "constants: INT4, Huffman,
 * Prune" at the end): fast, and the portable reference they are tested
 * against. */
static void tflc__kind_decode(const tflc_const *c, int32_t start, int32_t n,
                              void *dst);
static void tflc__kind_decode_ref(const tflc_const *c, int32_t start, int32_t n,
                                  void *dst);

/* n indices from (src, bit), each mapped through the byte table tab, into
 * dst (the portable TFLC_LUT_UNPACK). The fast core: a head of single fields
 * until the cursor is on a byte boundary, then whole byte groups per width (8 /
 * gcd(bits, 8) indices in bits / gcd(bits, 8) bytes), then a tail of single
 * fields. With tab = tflc__identity8 it just unpacks indices. */
TFLC_API void tflc_lut_unpack_portable(const uint8_t *src, unsigned bit,
                                       int32_t n, unsigned bits,
                                       const uint8_t *tab, uint8_t *dst) {
  const unsigned mask = (1u << bits) - 1u;
  while (n > 0 && bit != 0) {
    *dst++ = tab[tflc__index_at(src, bit, bits)];
    bit += bits;
    src += bit >> 3;
    bit &= 7u;
    n--;
  }
  switch (bits) {
  case 1:
    for (; n >= 8; n -= 8, dst += 8) {
      const unsigned b = *src++;
      dst[0] = tab[b >> 7];
      dst[1] = tab[(b >> 6) & 1u];
      dst[2] = tab[(b >> 5) & 1u];
      dst[3] = tab[(b >> 4) & 1u];
      dst[4] = tab[(b >> 3) & 1u];
      dst[5] = tab[(b >> 2) & 1u];
      dst[6] = tab[(b >> 1) & 1u];
      dst[7] = tab[b & 1u];
    }
    break;
  case 2:
    for (; n >= 4; n -= 4, dst += 4) {
      const unsigned b = *src++;
      dst[0] = tab[b >> 6];
      dst[1] = tab[(b >> 4) & 3u];
      dst[2] = tab[(b >> 2) & 3u];
      dst[3] = tab[b & 3u];
    }
    break;
  case 3:
    for (; n >= 8; n -= 8, dst += 8, src += 3) {
      const uint32_t w =
          ((uint32_t)src[0] << 16) | ((uint32_t)src[1] << 8) | (uint32_t)src[2];
      dst[0] = tab[w >> 21];
      dst[1] = tab[(w >> 18) & 7u];
      dst[2] = tab[(w >> 15) & 7u];
      dst[3] = tab[(w >> 12) & 7u];
      dst[4] = tab[(w >> 9) & 7u];
      dst[5] = tab[(w >> 6) & 7u];
      dst[6] = tab[(w >> 3) & 7u];
      dst[7] = tab[w & 7u];
    }
    break;
  case 4:
    for (; n >= 2; n -= 2, dst += 2) {
      const unsigned b = *src++;
      dst[0] = tab[b >> 4];
      dst[1] = tab[b & 15u];
    }
    break;
  case 6:
    for (; n >= 4; n -= 4, dst += 4, src += 3) {
      const uint32_t w =
          ((uint32_t)src[0] << 16) | ((uint32_t)src[1] << 8) | (uint32_t)src[2];
      dst[0] = tab[w >> 18];
      dst[1] = tab[(w >> 12) & 63u];
      dst[2] = tab[(w >> 6) & 63u];
      dst[3] = tab[w & 63u];
    }
    break;
  case 5:
  case 7:
    /* 8 indices in `bits` bytes */
    for (; n >= 8; n -= 8, dst += 8, src += bits) {
      uint64_t w = 0;
      unsigned k, sh;
      for (k = 0; k < bits; k++)
        w = (w << 8) | src[k];
      sh = 8u * bits;
      for (k = 0; k < 8; k++) {
        sh -= bits;
        dst[k] = tab[(unsigned)(w >> sh) & mask];
      }
    }
    break;
  case 8:
    for (; n >= 4; n -= 4, dst += 4, src += 4) {
      dst[0] = tab[src[0]];
      dst[1] = tab[src[1]];
      dst[2] = tab[src[2]];
      dst[3] = tab[src[3]];
    }
    break;
  default:
    break;
  }
  while (n > 0) {
    *dst++ = tab[tflc__index_at(src, bit, bits)];
    bit += bits;
    src += bit >> 3;
    bit &= 7u;
    n--;
  }
}

/* ======================================================================== */
/* LUT decoder: tflc_const read in place or decoded a tile at a time        */
/* ======================================================================== */
/* Owns tflc_const: raw constants are read in place; LUT-compressed ones are
 * decoded on demand. Bit position of element i is i * bits, kept as a byte
 * offset plus a bit offset (no 64-bit arithmetic, no overflow for any
 * int32 element index). Index fields are read MSB-first and a byte is only
 * touched when a field actually lies in it, so nothing past the last index
 * byte is ever read. Values are copied byte-wise (memcpy), so tables and
 * bitstrings may sit at any alignment. */

#define TFLC__I4(n) n, n + 1, n + 2, n + 3
#define TFLC__I16(n)                                                           \
  TFLC__I4(n), TFLC__I4(n + 4), TFLC__I4(n + 8), TFLC__I4(n + 12)
#define TFLC__I64(n)                                                           \
  TFLC__I16(n), TFLC__I16(n + 16), TFLC__I16(n + 32), TFLC__I16(n + 48)
static const uint8_t tflc__identity8[256] = {TFLC__I64(0), TFLC__I64(64),
                                             TFLC__I64(128), TFLC__I64(192)};
#undef TFLC__I4
#undef TFLC__I16
#undef TFLC__I64

/* byte / bit offset of element i in a bits-wide bitstring */
static uint32_t tflc__bit_byte(int32_t i, unsigned bits) {
  const uint32_t u = (uint32_t)i;
  return (u >> 3) * bits + (((u & 7u) * bits) >> 3);
}
static unsigned tflc__bit_off(int32_t i, unsigned bits) {
  return (((unsigned)i & 7u) * bits) & 7u;
}

/* Channel of element i (see tflc_const). */
static int32_t tflc__channel(const tflc_const *c, int32_t i) {
  if (c->channels <= 1)
    return 0;
  if (c->alt_axis)
    return i % c->channels;
  return c->elems_per_channel > 0 ? i / c->elems_per_channel : 0;
}

/* dst[k] = tab[idx[k]] for elements of es bytes */
static void tflc__lookup(const uint8_t *idx, int32_t m, const uint8_t *tab,
                         size_t es, uint8_t *dst) {
  int32_t k;
  switch (es) {
  case 2:
    for (k = 0; k < m; k++)
      memcpy(dst + 2 * k, tab + 2u * idx[k], 2);
    break;
  case 4:
    for (k = 0; k < m; k++)
      memcpy(dst + 4 * k, tab + 4u * idx[k], 4);
    break;
  case 8:
    for (k = 0; k < m; k++)
      memcpy(dst + 8 * k, tab + 8u * idx[k], 8);
    break;
  default:
    for (k = 0; k < m; k++)
      memcpy(dst + (size_t)k * es, tab + (size_t)idx[k] * es, es);
    break;
  }
}

#define TFLC__CHUNK 64

TFLC_API tflc_const tflc_const_raw(const void *data, tflc_type type,
                                   int32_t count) {
  tflc_const c;
  memset(&c, 0, sizeof c);
  c.data = data;
  c.count = count;
  c.channels = 1;
  c.elems_per_channel = count;
  c.type = (uint8_t)type;
  return c;
}

TFLC_API tflc_const tflc_const_lut(const void *bitstring, const void *values,
                                   tflc_type type, int32_t count, int bits,
                                   int32_t channels, int32_t stride,
                                   int alt_axis) {
  tflc_const c;
  memset(&c, 0, sizeof c);
  c.data = bitstring;
  c.values = values;
  c.count = count;
  c.channels = channels < 1 ? 1 : channels;
  if (c.channels <= 1)
    c.elems_per_channel = count;
  else if (alt_axis)
    c.elems_per_channel = 1;
  else
    c.elems_per_channel = count / c.channels;
  c.stride = (uint16_t)stride;
  c.type = (uint8_t)type;
  c.bits = (uint8_t)bits;
  c.alt_axis = (uint8_t)(alt_axis ? 1 : 0);
  return c;
}

/* element i (es bytes, as stored) into out */
static void tflc__const_get(const tflc_const *c, int32_t i, size_t es,
                            void *out) {
  if (!TFLC__COMPRESSION && (c->kind != TFLC_CONST_RAW_LUT || c->bits != 0)) {
    memset(out, 0, es); /* TFLC_NO_COMPRESSION: raw constants only */
  } else if (c->kind != TFLC_CONST_RAW_LUT) {
    tflc__kind_decode(c, i, 1, out);
  } else if (c->bits == 0) {
    memcpy(out, (const uint8_t *)c->data + (size_t)i * es, es);
  } else if (c->bits > 8) {
    memset(out, 0, es); /* never from a verified descriptor */
  } else {
    const unsigned bits = c->bits;
    const unsigned idx =
        tflc__index_at((const uint8_t *)c->data + tflc__bit_byte(i, bits),
                       tflc__bit_off(i, bits), bits);
    const size_t e =
        (size_t)tflc__channel(c, i) * (size_t)c->stride + (size_t)idx;
    memcpy(out, (const uint8_t *)c->values + e * es, es);
  }
}

TFLC_API void tflc_lut_decode_ref(const tflc_const *c, int32_t start, int32_t n,
                                  void *dst) {
  const size_t es = tflc_type_size(c->type);
  uint8_t *d = (uint8_t *)dst;
  int32_t k;
  if (TFLC__COMPRESSION && c->kind != TFLC_CONST_RAW_LUT) {
    tflc__kind_decode_ref(c, start, n, dst);
    return;
  }
  for (k = 0; k < n; k++)
    tflc__const_get(c, start + k, es, d + (size_t)k * es);
}

TFLC_API void tflc_lut_decode(const tflc_const *c, int32_t start, int32_t n,
                              void *dst) {
  const size_t es = tflc_type_size(c->type);
  const unsigned bits = c->bits;
  const uint8_t *bs = (const uint8_t *)c->data;
  const uint8_t *vals = (const uint8_t *)c->values;
  uint8_t *d = (uint8_t *)dst;
  uint8_t idx[TFLC__CHUNK];
  if (n <= 0 || es == 0)
    return;
  if (!TFLC__COMPRESSION && (c->kind != TFLC_CONST_RAW_LUT || bits != 0)) {
    memset(d, 0, (size_t)n * es); /* TFLC_NO_COMPRESSION: raw only */
    return;
  }
  if (c->kind != TFLC_CONST_RAW_LUT) {
    tflc__kind_decode(c, start, n, dst);
    return;
  }
  if (bits == 0) {
    memcpy(d, bs + (size_t)start * es, (size_t)n * es);
    return;
  }
  TFLC_ASSERT(bits <= 8);
  if (bits > 8) { /* never from a verified descriptor */
    memset(d, 0, (size_t)n * es);
    return;
  }
  if (c->channels > 1 && c->alt_axis) {
    /* last axis: the channel turns with every element */
    const size_t row = (size_t)c->stride * es;
    int32_t ch = start % c->channels;
    while (n > 0) {
      const int32_t m = n < TFLC__CHUNK ? n : TFLC__CHUNK;
      int32_t k;
      TFLC_LUT_UNPACK(bs + tflc__bit_byte(start, bits),
                      tflc__bit_off(start, bits), m, bits, tflc__identity8,
                      idx);
      if (es == 1) {
        for (k = 0; k < m; k++) {
          d[k] = vals[(size_t)ch * row + idx[k]];
          if (++ch == c->channels)
            ch = 0;
        }
      } else {
        for (k = 0; k < m; k++) {
          memcpy(d + (size_t)k * es, vals + (size_t)ch * row + idx[k] * es, es);
          if (++ch == c->channels)
            ch = 0;
        }
      }
      start += m;
      n -= m;
      d += (size_t)m * es;
    }
    return;
  }
  /* per tensor, or first axis: runs of elements share one table */
  while (n > 0) {
    int32_t seg = n;
    const uint8_t *tab = vals;
    if (c->channels > 1 && c->elems_per_channel > 0) {
      const int32_t epc = c->elems_per_channel;
      const int32_t ch = start / epc;
      const int32_t left = epc - (start - ch * epc);
      if (left < seg)
        seg = left;
      tab = vals + (size_t)ch * c->stride * es;
    }
    if (es == 1) {
      TFLC_LUT_UNPACK(bs + tflc__bit_byte(start, bits),
                      tflc__bit_off(start, bits), seg, bits, tab, d);
      start += seg;
      n -= seg;
      d += seg;
    } else {
      int32_t left = seg;
      while (left > 0) {
        const int32_t m = left < TFLC__CHUNK ? left : TFLC__CHUNK;
        TFLC_LUT_UNPACK(bs + tflc__bit_byte(start, bits),
                        tflc__bit_off(start, bits), m, bits, tflc__identity8,
                        idx);
        tflc__lookup(idx, m, tab, es, d);
        start += m;
        left -= m;
        n -= m;
        d += (size_t)m * es;
      }
    }
  }
}

/* n int8 elements of a last-axis LUT constant from element i (of channel
 * ch) into d: a bit cursor that reads each index byte when a field
 * reaches it (never past the last one), the channel's table advanced with
 * every element. */
static void tflc__lut_row_any(const tflc_const *c, int32_t i, int32_t n,
                              int32_t ch, int8_t *d) {
  const unsigned bits = c->bits;
  const uint32_t mask = (1u << bits) - 1u;
  const uint8_t *const vals = (const uint8_t *)c->values;
  const size_t stride = c->stride;
  const uint8_t *p = (const uint8_t *)c->data + tflc__bit_byte(i, bits);
  const uint8_t *tab = vals + (size_t)ch * stride;
  uint32_t acc; /* its low `have` bits: the next index bits, MSB first */
  unsigned have;
  int32_t j;
  if (n <= 0)
    return;
  acc = *p++;
  have = 8u - tflc__bit_off(i, bits);
  for (j = 0; j < n; j++) {
    if (have < bits) {
      acc = acc << 8 | *p++;
      have += 8u;
    }
    have -= bits;
    d[j] = (int8_t)tab[(acc >> have) & mask];
    if (++ch == c->channels) {
      ch = 0;
      tab = vals;
    } else {
      tab += stride;
    }
  }
}

/* groups of 8 int8 elements whose `bits`-wide indices (2, 3 or 4: a
 * constant at each call) fill `bits` whole bytes from p, through the
 * tables of consecutive channels from tab (stride apart, no wrap) */
TFLC__INLINE void tflc__lut_row_groups(const uint8_t *p, unsigned bits,
                                       int32_t groups, const uint8_t *tab,
                                       size_t stride, int8_t *d) {
  const uint32_t mask = (1u << bits) - 1u;
  int32_t g;
  for (g = 0; g < groups; g++, p += bits, d += 8) {
    /* written out: compilers do not unroll the two short loops */
    uint32_t w = (uint32_t)p[0] << 8 | p[1];
    if (bits > 2)
      w = w << 8 | p[2];
    if (bits > 3)
      w = w << 8 | p[3];
#define TFLC__LUT_FIELD(k)                                                     \
  d[k] = (int8_t)tab[(w >> (bits * (7u - (k)))) & mask];                       \
  tab += stride;
    TFLC__LUT_FIELD(0)
    TFLC__LUT_FIELD(1)
    TFLC__LUT_FIELD(2)
    TFLC__LUT_FIELD(3)
    TFLC__LUT_FIELD(4)
    TFLC__LUT_FIELD(5)
    TFLC__LUT_FIELD(6)
    TFLC__LUT_FIELD(7)
#undef TFLC__LUT_FIELD
  }
}

/* `rows` runs of n elements of a constant, run r from element start + r *
 * step, one after the other into dst: what tflc_lut_decode gives run by
 * run (the depthwise filters' chunks: n channels of every tap). Int8 LUT
 * constants on the last axis with step a multiple of the channels (every
 * run starts on the same channel) are read here without the index buffer
 * and per-run calls; runs of whole bytes within one channel cycle take
 * widths 2, 3 and 4 a group of 8 fields at a time. */
TFLC_INTERNAL TFLC__NOINLINE void
tflc__lut_decode_rows(const tflc_const *c, int32_t start, int32_t step,
                      int32_t n, int32_t rows, void *dst) {
  const unsigned bits = c->bits;
  int8_t *d = (int8_t *)dst;
  int32_t r;
  if (n <= 0 || rows <= 0)
    return;
  if (c->kind != TFLC_CONST_RAW_LUT || bits == 0 || bits > 8 ||
      tflc_type_size(c->type) != 1 || c->channels <= 1 || !c->alt_axis ||
      step % c->channels != 0) {
    const size_t run = (size_t)n * tflc_type_size(c->type); /* bytes */
    for (r = 0; r < rows; r++)
      tflc_lut_decode(c, start + r * step, n, (uint8_t *)dst + (size_t)r * run);
    return;
  }
  {
    const int32_t ch0 = start % c->channels;
    /* every run on a byte boundary, whole groups, within one cycle */
    const int grouped = (bits == 2 || bits == 3 || bits == 4) && n % 8 == 0 &&
                        start % 8 == 0 && step % 8 == 0 &&
                        n <= c->channels - ch0;
    const uint8_t *const tab =
        (const uint8_t *)c->values + (size_t)ch0 * c->stride;
    for (r = 0; r < rows; r++, d += n) {
      const int32_t i = start + r * step;
      const uint8_t *p = (const uint8_t *)c->data + tflc__bit_byte(i, bits);
      if (!grouped)
        tflc__lut_row_any(c, i, n, ch0, d);
      else if (bits == 2)
        tflc__lut_row_groups(p, 2, n / 8, tab, c->stride, d);
      else if (bits == 3)
        tflc__lut_row_groups(p, 3, n / 8, tab, c->stride, d);
      else
        tflc__lut_row_groups(p, 4, n / 8, tab, c->stride, d);
    }
  }
}

TFLC_API void tflc_lut_gather(const tflc_const *c, int32_t start, int32_t step,
                              int32_t n, void *dst) {
  const size_t es = tflc_type_size(c->type);
  uint8_t *d = (uint8_t *)dst;
  int32_t k, i = start;
  if (TFLC__COMPRESSION && es == 1 && c->kind == TFLC_CONST_RAW_LUT &&
      c->bits != 0 && c->bits <= 8) {
    const unsigned bits = c->bits;
    const uint8_t *bs = (const uint8_t *)c->data;
    const uint8_t *vals = (const uint8_t *)c->values;
    for (k = 0; k < n; k++, i += step) {
      const unsigned ix = tflc__index_at(bs + tflc__bit_byte(i, bits),
                                         tflc__bit_off(i, bits), bits);
      d[k] = vals[(size_t)tflc__channel(c, i) * c->stride + ix];
    }
    return;
  }
  for (k = 0; k < n; k++, i += step)
    tflc__const_get(c, i, es, d + (size_t)k * es);
}

TFLC_API const void *tflc_const_span(const tflc_const *c, int32_t start,
                                     int32_t n, void *tile) {
  const size_t es = tflc_type_size(c->type);
  if (c->kind == TFLC_CONST_RAW_LUT && c->bits == 0)
    return (const uint8_t *)c->data + (size_t)start * es;
  tflc_lut_decode(c, start, n, tile);
  return tile;
}

static uint64_t tflc__le_bytes(const uint8_t *b, size_t es) {
  uint64_t v = 0;
  size_t k = es;
  while (k > 0) {
    k--;
    v = (v << 8) | b[k];
  }
  return v;
}

TFLC_API int64_t tflc_const_i64(const tflc_const *c, int32_t i) {
  uint8_t b[8];
  const size_t es = tflc_type_size(c->type);
  uint64_t u;
  if (es == 0 || c->type == TFLC_FLOAT32 || c->type == TFLC_FLOAT16)
    return 0;
  tflc__const_get(c, i, es, b);
  u = tflc__le_bytes(b, es);
  switch (c->type) {
  case TFLC_INT8:
    return (int64_t)(int8_t)(u >= 0x80u ? (int)u - 256 : (int)u);
  case TFLC_INT16:
    return (int64_t)(u >= 0x8000u ? (int32_t)u - 65536 : (int32_t)u);
  case TFLC_INT32:
    return (int64_t)tflc__wrap32((int64_t)u);
  case TFLC_INT64:
    return u <= (uint64_t)INT64_MAX
               ? (int64_t)u
               : (int64_t)(u - ((uint64_t)1 << 63)) + INT64_MIN;
  default: /* UINT8, BOOL */
    return (int64_t)u;
  }
}

TFLC_API int32_t tflc_const_i32(const tflc_const *c, int32_t i) {
  if (c->kind == TFLC_CONST_RAW_LUT && c->bits == 0 && c->type == TFLC_INT32) {
    const uint8_t *p = (const uint8_t *)c->data + (size_t)i * 4u;
    return tflc__wrap32((int64_t)tflc__le_bytes(p, 4));
  }
  return tflc__wrap32(tflc_const_i64(c, i));
}

TFLC_API float tflc_const_f32(const tflc_const *c, int32_t i) {
  if (c->type == TFLC_FLOAT32) {
    uint8_t b[4];
    uint32_t u;
    float f;
    tflc__const_get(c, i, 4, b);
    u = (uint32_t)tflc__le_bytes(b, 4);
    memcpy(&f, &u, 4);
    return f;
  }
  {
    const int64_t v = tflc_const_i64(c, i);
    return (float)v;
  }
}

/* ======================================================================== */
/* Convolution family: int8 CONV_2D, DEPTHWISE_CONV_2D and                  */
/* FULLY_CONNECTED (with the FULLY_CONNECTED seam), float FC                */
/* ======================================================================== */
/* CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED, bit-exact with TFLM's
 * reference kernels. Filters and biases arrive as tflc_const: raw ones are
 * read in place, compressed ones are decoded here a tile at a time (a
 * filter row or an output channel's taps when it fits, else smaller
 * pieces), never as a whole tensor. Every path accumulates the same terms
 * into the same int32 accumulator, so the results do not depend on the
 * path. Accumulators are summed as uint32 (the wrap-around TFLM's int32
 * sums have on every real target, without C's signed-overflow UB). */

TFLC_API TFLC__PREPARE_CODE void tflc_conv_quantize_multipliers(
    float in_scale, const float *filter_scales, int32_t n_scales,
    float out_scale, int32_t channels, int32_t *mult, int32_t *shift) {
  int32_t c;
  for (c = 0; c < channels; c++) {
    const float s = n_scales > 1 ? filter_scales[c] : filter_scales[0];
    /* (double)in_scale * s / out_scale, as TFLM */
    tflc__quantize_float_ratio(in_scale, s, out_scale, &mult[c], &shift[c]);
  }
}

TFLC_API void tflc_fc_quantize_multiplier(float in_scale, float filter_scale,
                                          float out_scale, int32_t *mult,
                                          int32_t *shift) {
  /* the product is rounded to float first, as TFLM does */
  const float prod = in_scale * filter_scale;
  tflc__quantize_float_ratio(prod, 1.0f, out_scale, mult, shift);
}

/* int32 value of a little-endian word at any address */
static int32_t tflc__ld_i32(const uint8_t *p) {
  const uint32_t u = (uint32_t)p[0] | ((uint32_t)p[1] << 8) |
                     ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
  return tflc__wrap32((int64_t)u);
}

static int32_t tflc__bias_at(const tflc_const *bias, int32_t oc) {
  if (bias == NULL)
    return 0;
  if (bias->bits == 0 && bias->type == TFLC_INT32)
    return tflc__ld_i32((const uint8_t *)bias->data + (size_t)oc * 4u);
  return tflc_const_i32(bias, oc);
}

/* acc -> MBQM -> + output offset -> clamp (max then min, as TFLM) */
TFLC__INLINE int8_t tflc__requant_s8(uint32_t acc, int32_t q, int32_t s,
                                     int32_t out_off, int32_t lo, int32_t hi) {
  int32_t v = tflc__wrap32((int64_t)tflc_multiply_by_quantized_multiplier(
                               tflc__wrap32((int64_t)acc), q, s) +
                           out_off);
  v = v < lo ? lo : v;
  v = v > hi ? hi : v;
  {
    /* low byte as int8 even for hand-made clamps outside [-128, 127] */
    const uint32_t u = (uint32_t)v & 0xFFu;
    return (int8_t)((int32_t)u - (u >= 128u ? 256 : 0));
  }
}

/* Taps k in [*k0, *k1) with origin + dil * k inside [0, size). The set is
 * contiguous because the positions are monotonic in k. */
static void tflc__window(int32_t origin, int32_t dil, int32_t taps,
                         int32_t size, int32_t *k0, int32_t *k1) {
  int32_t a = 0, b = taps;
  while (a < b && (origin + dil * a < 0 || origin + dil * a >= size))
    a++;
  while (b > a &&
         (origin + dil * (b - 1) < 0 || origin + dil * (b - 1) >= size))
    b--;
  *k0 = a;
  *k1 = b;
}

/* Geometry shared by the loops of one conv call. */
typedef struct tflc__geom {
  int32_t h, w, c;        /* input */
  int32_t kh, kw;         /* filter taps */
  int32_t oh, ow;         /* output */
  int32_t sh, sw, dh, dw; /* strides, dilations */
  int32_t ph, pw;         /* padding before */
} tflc__geom;

/* Window of output pixel (oy, ox): input origin and valid tap ranges. */
typedef struct tflc__win {
  int32_t iy0, ix0, ky0, ky1, kx0, kx1;
} tflc__win;

static void tflc__pixel_window(const tflc__geom *g, int32_t oy, int32_t ox,
                               tflc__win *w) {
  w->iy0 = oy * g->sh - g->ph;
  w->ix0 = ox * g->sw - g->pw;
  tflc__window(w->iy0, g->dh, g->kh, g->h, &w->ky0, &w->ky1);
  tflc__window(w->ix0, g->dw, g->kw, g->w, &w->kx0, &w->kx1);
}

/* Conv accumulator of one output pixel and channel against a whole filter
 * row [Kh][Kw][fc]. `in` points at channel 0 of the group in batch n. */
static TFLC__FALLBACK_CODE uint32_t tflc__conv_acc(const tflc__geom *g,
                                                   const tflc__win *w,
                                                   const int8_t *in,
                                                   const int8_t *row,
                                                   int32_t fc, int32_t in_off) {
  uint32_t acc = 0;
  int32_t ky, kx, ci;
  for (ky = w->ky0; ky < w->ky1; ky++) {
    const int8_t *irow = in + (w->iy0 + ky * g->dh) * g->w * g->c;
    const int8_t *frow = row + ky * g->kw * fc;
    for (kx = w->kx0; kx < w->kx1; kx++) {
      const int8_t *ip = irow + (w->ix0 + kx * g->dw) * g->c;
      const int8_t *fp = frow + kx * fc;
      for (ci = 0; ci < fc; ci++)
        acc += (uint32_t)((int32_t)fp[ci] * ((int32_t)ip[ci] + in_off));
    }
  }
  return acc;
}

/* The same accumulator when the row does not fit the tile: the filter is
 * decoded per kernel row, in pieces of at most `cap` elements. */
TFLC__INLINE uint32_t tflc__conv_acc_tiled(const tflc__geom *g,
                                           const tflc__win *w, const int8_t *in,
                                           const tflc_const *f,
                                           int32_t row_start, int32_t fc,
                                           int32_t in_off, int8_t *tile,
                                           int32_t cap) {
  uint32_t acc = 0;
  int32_t ky;
  for (ky = w->ky0; ky < w->ky1; ky++) {
    const int8_t *irow = in + (w->iy0 + ky * g->dh) * g->w * g->c;
    /* filter elements of taps kx0..kx1-1 of this kernel row: contiguous */
    int32_t e = (ky * g->kw + w->kx0) * fc;
    const int32_t e_end = (ky * g->kw + w->kx1) * fc;
    int32_t kx = w->kx0, ci = 0;
    while (e < e_end) {
      const int32_t m = e_end - e < cap ? e_end - e : cap;
      int32_t j;
      tflc_lut_decode(f, row_start + e, m, tile);
      for (j = 0; j < m; j++) {
        const int8_t x = irow[(w->ix0 + kx * g->dw) * g->c + ci];
        acc += (uint32_t)((int32_t)tile[j] * ((int32_t)x + in_off));
        if (++ci == fc) {
          ci = 0;
          kx++;
        }
      }
      e += m;
    }
  }
  return acc;
}

TFLC__INLINE void tflc__geom_init(tflc__geom *g, const tflc_conv_params *p,
                                  const int32_t in_dims[4],
                                  const int32_t filter_dims[4],
                                  const int32_t out_dims[4]) {
  g->h = in_dims[1];
  g->w = in_dims[2];
  g->c = in_dims[3];
  g->kh = filter_dims[1];
  g->kw = filter_dims[2];
  g->oh = out_dims[1];
  g->ow = out_dims[2];
  g->sh = p->stride_h;
  g->sw = p->stride_w;
  g->dh = p->dilation_h;
  g->dw = p->dilation_w;
  g->ph = p->pad_h;
  g->pw = p->pad_w;
}

/* The int8 3x3 depthwise layers of small maps keep in their tile a copy
 * of the input with its zero-point border, which the Arm DSP's 3x3 frame
 * runs from (tflc__dsp_dw3x3_layer): at most TFLC__DW3_PAD_PIXELS output
 * pixels and TFLC__DW3_PAD_BYTES bytes of copy (there the set-up of its
 * bands outweighs the copy) */
#define TFLC__DW3_PAD_PIXELS 144
#define TFLC__DW3_PAD_BYTES 16384
/* The int8 depthwise layers of rows of 5 or 7 taps (at most 7 rows,
 * multiplier 1, channels a multiple of four) keep in their tile a block's
 * weights widened (8 bytes a tap), which the Arm DSP's whole windows
 * take (tflc__dsp_dw_wide_layer), and where the windows leave the input,
 * the rows and columns they read make at most TFLC__DW_WIDE_COPY pixels
 * and the copy pays, a copy of those of one block (a word a pixel) with
 * the zero point around, so that every window is a whole one. */
#define TFLC__DW_WIDE_COPY 4096
/* The rows and columns of that copy (0: none) */
TFLC__INLINE int32_t tflc__dw_wide_span(int32_t out, int32_t stride,
                                        int32_t taps, int32_t dil) {
  return (out - 1) * stride + (taps - 1) * dil + 1;
}
/* The taps inside the input (an input of n) of the windows of `out`
 * outputs along one axis */
static TFLC__PREPARE_CODE int64_t tflc__dw_wide_inside(int32_t out,
                                                       int32_t stride,
                                                       int32_t taps,
                                                       int32_t dil, int32_t pad,
                                                       int32_t n) {
  int64_t v = 0;
  int32_t o, k;
  for (o = 0; o < out; o++)
    for (k = 0; k < taps; k++)
      v += (uint32_t)(o * stride - pad + k * dil) < (uint32_t)n;
  return v;
}
static TFLC__NOINLINE TFLC__PREPARE_CODE size_t
tflc__dw_wide_tile(const tflc_conv_params *p, const int32_t in_dims[4],
                   const int32_t filter_dims[4], const int32_t out_dims[4]) {
  const int32_t kh = filter_dims[1], kw = filter_dims[2];
  int64_t r, c, vr, vc, n;
  if (out_dims[3] % 4 != 0 || in_dims[3] != out_dims[3] || out_dims[1] < 1 ||
      out_dims[2] < 1 || p->stride_h < 1 || p->stride_w < 1 ||
      p->dilation_h < 1 || p->dilation_w < 1 || out_dims[1] > 4096 ||
      out_dims[2] > 4096 || p->stride_h > 64 || p->stride_w > 64 ||
      p->dilation_h > 64 || p->dilation_w > 64)
    return 0;
  r = tflc__dw_wide_span(out_dims[1], p->stride_h, kh, p->dilation_h);
  c = tflc__dw_wide_span(out_dims[2], p->stride_w, kw, p->dilation_w);
  if (p->pad_h == 0 && p->pad_w == 0 && r <= in_dims[1] && c <= in_dims[2])
    return (size_t)(8 * kh * kw); /* every window inside the input */
  /* the copy where it costs less than the clipped windows, about (the
   * Cortex-M4's instructions a block): 250 a clipped window and 15 a tap
   * inside the input, against 6 a tap to widen, 5 a pixel copied, 95 a
   * whole window and 9.5 a tap */
  vr = tflc__dw_wide_inside(out_dims[1], p->stride_h, kh, p->dilation_h,
                            p->pad_h, in_dims[1]);
  vc = tflc__dw_wide_inside(out_dims[2], p->stride_w, kw, p->dilation_w,
                            p->pad_w, in_dims[2]);
  n = (int64_t)out_dims[1] * out_dims[2]; /* windows (below 2^24) */
  if (r * c <= TFLC__DW_WIDE_COPY &&
      12 * kh * kw + 10 * r * c + 190 * n + 19 * kh * kw * n <=
          500 * n + 30 * vr * vc)
    return (size_t)(8 * kh * kw + 4 * r * c);
  return 0;
}
/* Scratch bytes of an int8 depthwise layer's tile for its layer path (0:
 * none): the rows of 5 or 7 taps above, or the padded copy above, of one batch
 * (strides 1 and 2; the rows and columns the windows read, from the first
 * padded one). The same on every platform, so that an arena planned on one
 * holds on another; where no path reads it, it stays unused. */
TFLC__SEAM TFLC__NOINLINE TFLC__PREPARE_CODE size_t
tflc__depthwise_layer_tile_s8(const tflc_conv_params *p,
                              const int32_t in_dims[4],
                              const int32_t filter_dims[4],
                              const int32_t out_dims[4]) {
  const int32_t m = p->depth_multiplier, cin = in_dims[3];
  const int32_t oh = out_dims[1], ow = out_dims[2];
  uint32_t n;
  if (m == 1 && (filter_dims[2] == 5 || filter_dims[2] == 7) &&
      filter_dims[1] >= 1 && filter_dims[1] <= 7)
    return tflc__dw_wide_tile(p, in_dims, filter_dims, out_dims);
  if (filter_dims[1] != 3 || filter_dims[2] != 3 || (m != 1 && m % 4 != 0) ||
      cin < 1 || cin > TFLC__DW3_PAD_BYTES || out_dims[3] % 4 != 0 ||
      (int64_t)cin * m != out_dims[3] || p->dilation_h != 1 ||
      p->dilation_w != 1 || (uint32_t)(p->stride_h - 1) > 1u ||
      (uint32_t)(p->stride_w - 1) > 1u || (uint32_t)p->pad_h > 2u ||
      (uint32_t)p->pad_w > 2u || oh < 1 || ow < 1 ||
      oh > TFLC__DW3_PAD_PIXELS || ow > TFLC__DW3_PAD_PIXELS ||
      oh * ow > TFLC__DW3_PAD_PIXELS)
    return 0;
  /* (below 2^17 rows x columns, 2^14 channels) */
  n = (uint32_t)((oh - 1) * p->stride_h + 3) *
      (uint32_t)((ow - 1) * p->stride_w + 3) * (uint32_t)cin;
  return n <= TFLC__DW3_PAD_BYTES ? n : 0;
}

/* a / b (b > 0) where a is a window bound: a 32-bit division when a
 * fits one (a 64-bit one is a library call on 32-bit cores) */
static TFLC__NOINLINE int64_t tflc__div_bound(int64_t a, int32_t b) {
  return a >= 0 && a <= INT32_MAX ? (int64_t)((uint32_t)a / (uint32_t)b)
                                  : a / b;
}

/* The output indices [*first, *last] along one axis whose whole window
 * (k taps d apart, the first at index o * st - pad) lies inside an input
 * of n: *first at most out, *last from -1 to out - 1 (none: *last <
 * *first) */
static TFLC__PREPARE_CODE void tflc__inner_span(int32_t pad, int32_t st,
                                                int32_t n, int32_t k, int32_t d,
                                                int32_t out, int32_t *first,
                                                int32_t *last) {
  const int64_t f = tflc__div_bound((int64_t)pad + st - 1, st);
  int64_t l = (int64_t)n - 1 - (int64_t)(k - 1) * d + pad;
  l = l < 0 ? -1 : tflc__div_bound(l, st);
  *first = (int32_t)(f < out ? f : out);
  *last = (int32_t)(l < (int64_t)out - 1 ? l : (int64_t)out - 1);
}

/* stack tile used when the caller gives none (or a too small one) */
typedef union tflc__small_tile {
  int64_t align_;
  uint8_t b[64];
} tflc__small_tile;

/* The direct convolution: one output value at a time, straight from the
 * input (no scratch). Used for grouped convolutions and when the scratch
 * is too small for the blocked path. */
TFLC__NOINLINE TFLC__FALLBACK_CODE static void
tflc__conv2d_s8_direct(const tflc_conv_params *p, const int32_t in_dims[4],
                       const int8_t *in, const int32_t filter_dims[4],
                       const tflc_const *filter, const tflc_const *bias,
                       const int32_t out_dims[4], int8_t *out, void *tile,
                       size_t tile_bytes) {
  tflc__geom g;
  tflc__win w;
  tflc__small_tile small;
  const int32_t batches = in_dims[0];
  const int32_t oc_n = out_dims[3];
  const int32_t fc = filter_dims[3];
  const int32_t row_len = filter_dims[1] * filter_dims[2] * fc;
  const int32_t groups = fc > 0 ? in_dims[3] / fc : 0;
  const int32_t per_group = groups > 0 ? oc_n / groups : 0;
  const int32_t in_off = p->input_offset, out_off = p->output_offset;
  const int32_t lo = p->act_min, hi = p->act_max;
  int32_t n, oy, ox, oc;
  TFLC_ASSERT(filter->type == TFLC_INT8);
  if (per_group <= 0 || row_len <= 0)
    return;
  tflc__geom_init(&g, p, in_dims, filter_dims, out_dims);

  if (filter->bits == 0) {
    /* raw filter: pixel by pixel, every channel reads its row in place */
    const int8_t *fbase = (const int8_t *)filter->data;
    for (n = 0; n < batches; n++) {
      const int8_t *in_n = in + n * g.h * g.w * g.c;
      int8_t *o = out + n * g.oh * g.ow * oc_n;
      for (oy = 0; oy < g.oh; oy++)
        for (ox = 0; ox < g.ow; ox++, o += oc_n) {
          tflc__pixel_window(&g, oy, ox, &w);
          for (oc = 0; oc < oc_n; oc++) {
            const int8_t *in_g = in_n + (oc / per_group) * fc;
            uint32_t acc =
                tflc__conv_acc(&g, &w, in_g, fbase + oc * row_len, fc, in_off);
            acc += (uint32_t)tflc__bias_at(bias, oc);
            o[oc] = tflc__requant_s8(acc, p->out_multiplier[oc],
                                     p->out_shift[oc], out_off, lo, hi);
          }
        }
    }
    return;
  } else {
    /* compressed filter: channel by channel, its row decoded once when it
     * fits the tile, else piece by piece for every pixel */
    int8_t *t = (int8_t *)tile;
    int32_t cap = (int32_t)(tile_bytes > 0x7FFFFFFF ? 0x7FFFFFFF : tile_bytes);
    if (t == NULL || cap < (int32_t)sizeof small.b) {
      t = (int8_t *)small.b;
      cap = (int32_t)sizeof small.b;
    }
    for (oc = 0; oc < oc_n; oc++) {
      const int32_t q = p->out_multiplier[oc], s = p->out_shift[oc];
      const uint32_t b = (uint32_t)tflc__bias_at(bias, oc);
      const int32_t in_gofs = (oc / per_group) * fc;
      const int fits = row_len <= cap;
      if (fits)
        tflc_lut_decode(filter, oc * row_len, row_len, t);
      for (n = 0; n < batches; n++) {
        const int8_t *in_g = in + n * g.h * g.w * g.c + in_gofs;
        int8_t *o = out + n * g.oh * g.ow * oc_n + oc;
        for (oy = 0; oy < g.oh; oy++)
          for (ox = 0; ox < g.ow; ox++, o += oc_n) {
            uint32_t acc;
            tflc__pixel_window(&g, oy, ox, &w);
            if (fits)
              acc = tflc__conv_acc(&g, &w, in_g, t, fc, in_off);
            else
              acc = tflc__conv_acc_tiled(&g, &w, in_g, filter, oc * row_len, fc,
                                         in_off, t, cap);
            *o = tflc__requant_s8(acc + b, q, s, out_off, lo, hi);
          }
      }
    }
  }
}

#if TFLC__COMPRESSION
/* Depthwise accumulator of one output pixel and channel: input channel
 * ic (in points at it), tap (ky, kx) weight at taps[(ky * Kw + kx) * ts]. */
static uint32_t tflc__dw_acc(const tflc__geom *g, const tflc__win *w,
                             const int8_t *in, const int8_t *taps, int32_t ts,
                             int32_t in_off) {
  uint32_t acc = 0;
  int32_t ky, kx;
  for (ky = w->ky0; ky < w->ky1; ky++) {
    const int8_t *irow = in + (w->iy0 + ky * g->dh) * g->w * g->c;
    const int8_t *frow = taps + ky * g->kw * ts;
    for (kx = w->kx0; kx < w->kx1; kx++)
      acc += (uint32_t)((int32_t)frow[kx * ts] *
                        ((int32_t)irow[(w->ix0 + kx * g->dw) * g->c] + in_off));
  }
  return acc;
}

/* The direct depthwise convolution, one output value at a time: a
 * compressed filter whose taps (of a group of one input channel's
 * outputs) do not fit the tile (every other layer goes through the
 * chunks, tflc__depthwise_conv2d_s8_range). */
TFLC__NOINLINE static void tflc__depthwise_conv2d_s8_direct(
    const tflc_conv_params *p, const int32_t in_dims[4], const int8_t *in,
    const int32_t filter_dims[4], const tflc_const *filter,
    const tflc_const *bias, const int32_t out_dims[4], int8_t *out, void *tile,
    size_t tile_bytes) {
  tflc__geom g;
  tflc__win w;
  tflc__small_tile small;
  const int32_t batches = in_dims[0];
  const int32_t ic_n = in_dims[3];
  const int32_t mult = p->depth_multiplier;
  const int32_t oc_n = out_dims[3];    /* output channel stride */
  const int32_t f_oc = filter_dims[3]; /* filter channel stride */
  const int32_t ntaps = filter_dims[1] * filter_dims[2];
  const int32_t in_off = p->input_offset, out_off = p->output_offset;
  const int32_t lo = p->act_min, hi = p->act_max;
  int32_t n, oy, ox, ic, m;
  TFLC_ASSERT(filter->type == TFLC_INT8);
  TFLC_ASSERT(ic_n * mult == oc_n && oc_n == f_oc);
  if (mult <= 0 || ntaps <= 0)
    return;
  tflc__geom_init(&g, p, in_dims, filter_dims, out_dims);

  if (filter->bits == 0) {
    const int8_t *fbase = (const int8_t *)filter->data;
    for (n = 0; n < batches; n++) {
      const int8_t *in_n = in + n * g.h * g.w * g.c;
      int8_t *o = out + n * g.oh * g.ow * oc_n;
      for (oy = 0; oy < g.oh; oy++)
        for (ox = 0; ox < g.ow; ox++, o += oc_n) {
          tflc__pixel_window(&g, oy, ox, &w);
          for (ic = 0; ic < ic_n; ic++)
            for (m = 0; m < mult; m++) {
              const int32_t oc = ic * mult + m;
              uint32_t acc =
                  tflc__dw_acc(&g, &w, in_n + ic, fbase + oc, f_oc, in_off);
              acc += (uint32_t)tflc__bias_at(bias, oc);
              o[oc] = tflc__requant_s8(acc, p->out_multiplier[oc],
                                       p->out_shift[oc], out_off, lo, hi);
            }
        }
    }
  } else {
    /* compressed: per output channel, gather its taps (oc, oc + OC, ...)
     * into the tile once when they fit, else per pixel piece by piece */
    int8_t *t = (int8_t *)tile;
    int32_t cap = (int32_t)(tile_bytes > 0x7FFFFFFF ? 0x7FFFFFFF : tile_bytes);
    if (t == NULL || cap < (int32_t)sizeof small.b) {
      t = (int8_t *)small.b;
      cap = (int32_t)sizeof small.b;
    }
    for (ic = 0; ic < ic_n; ic++)
      for (m = 0; m < mult; m++) {
        const int32_t oc = ic * mult + m;
        const int32_t q = p->out_multiplier[oc], s = p->out_shift[oc];
        const uint32_t b = (uint32_t)tflc__bias_at(bias, oc);
        const int fits = ntaps <= cap;
        if (fits)
          tflc_lut_gather(filter, oc, f_oc, ntaps, t);
        for (n = 0; n < batches; n++) {
          const int8_t *in_c = in + n * g.h * g.w * g.c + ic;
          int8_t *o = out + n * g.oh * g.ow * oc_n + oc;
          for (oy = 0; oy < g.oh; oy++)
            for (ox = 0; ox < g.ow; ox++, o += oc_n) {
              uint32_t acc = 0;
              tflc__pixel_window(&g, oy, ox, &w);
              if (fits) {
                acc = tflc__dw_acc(&g, &w, in_c, t, 1, in_off);
              } else {
                int32_t t0;
                for (t0 = 0; t0 < ntaps; t0 += cap) {
                  const int32_t len = ntaps - t0 < cap ? ntaps - t0 : cap;
                  int32_t j;
                  tflc_lut_gather(filter, oc + t0 * f_oc, f_oc, len, t);
                  for (j = 0; j < len; j++) {
                    const int32_t ky = (t0 + j) / g.kw, kx = (t0 + j) % g.kw;
                    if (ky >= w.ky0 && ky < w.ky1 && kx >= w.kx0 &&
                        kx < w.kx1) {
                      const int8_t x =
                          in_c[((w.iy0 + ky * g.dh) * g.w + w.ix0 + kx * g.dw) *
                               g.c];
                      acc += (uint32_t)((int32_t)t[j] * ((int32_t)x + in_off));
                    }
                  }
                }
              }
              *o = tflc__requant_s8(acc + b, q, s, out_off, lo, hi);
            }
        }
      }
  }
}
#endif /* TFLC__COMPRESSION */

/* sum over d of (f[d] + f_off) * (x[d] + in_off) */
static uint32_t tflc__fc_dot(const int8_t *f, const int8_t *x, int32_t n,
                             int32_t f_off, int32_t in_off) {
  uint32_t acc = 0;
  int32_t d;
  if (f_off == 0) {
    for (d = 0; d < n; d++)
      acc += (uint32_t)((int32_t)f[d] * ((int32_t)x[d] + in_off));
  } else {
    for (d = 0; d < n; d++)
      acc += (uint32_t)(((int32_t)f[d] + f_off) * ((int32_t)x[d] + in_off));
  }
  return acc;
}

/* The direct fully connected layer, one output at a time (a filter zero
 * point, or compressed rows longer than the tile). */
TFLC__NOINLINE static void tflc__fully_connected_s8_direct(
    const tflc_fc_params *p, int32_t batches, int32_t accum_depth,
    int32_t out_depth, const int8_t *in, const tflc_const *filter,
    const tflc_const *bias, int8_t *out, void *tile, size_t tile_bytes) {
  tflc__small_tile small;
  int8_t *t = (int8_t *)tile;
  int32_t cap = (int32_t)(tile_bytes > 0x7FFFFFFF ? 0x7FFFFFFF : tile_bytes);
  /* per-channel TFLM kernels ignore the filter zero point */
  const int32_t f_off = p->per_channel ? 0 : p->filter_offset;
  const int32_t D = accum_depth;
  int32_t o, b;
  TFLC_ASSERT(filter->type == TFLC_INT8);
  if (filter->bits != 0 && (t == NULL || cap < (int32_t)sizeof small.b)) {
    t = (int8_t *)small.b;
    cap = (int32_t)sizeof small.b;
  }
  for (o = 0; o < out_depth; o++) {
    const int32_t q = p->out_multiplier[p->per_channel ? o : 0];
    const int32_t s = p->out_shift[p->per_channel ? o : 0];
    const uint32_t bv = (uint32_t)tflc__bias_at(bias, o);
    if (filter->bits == 0 || D <= cap) {
      /* raw row in place, or the whole row decoded once for all batches */
      const int8_t *row = (const int8_t *)tflc_const_span(filter, o * D, D, t);
      for (b = 0; b < batches; b++) {
        const uint32_t acc =
            tflc__fc_dot(row, in + b * D, D, f_off, p->input_offset);
        out[b * out_depth + o] = tflc__requant_s8(
            acc + bv, q, s, p->output_offset, p->act_min, p->act_max);
      }
    } else {
      for (b = 0; b < batches; b++) {
        uint32_t acc = 0;
        int32_t d0;
        for (d0 = 0; d0 < D; d0 += cap) {
          const int32_t m = D - d0 < cap ? D - d0 : cap;
          tflc_lut_decode(filter, o * D + d0, m, t);
          acc += tflc__fc_dot(t, in + b * D + d0, m, f_off, p->input_offset);
        }
        out[b * out_depth + o] = tflc__requant_s8(
            acc + bv, q, s, p->output_offset, p->act_min, p->act_max);
      }
    }
  }
}

/* ---- blocked int8 paths ------------------------------------------------- */
/* CONV_2D as a matrix product: rows are output pixels, columns output
 * channels. The GEMM primitive reads each pixel's window in place, one
 * run of Kw*Cin values per kernel row, so no im2col copy is needed. For
 * pixels whose window lies inside the input the input offset is folded
 * into each channel's bias (sum (x + off) * w = sum x * w + off * sum w;
 * int32 sums wrap the same in any order, so the bytes equal the direct
 * path's); border pixels read their clipped window with the offset added
 * to the inputs. Channels go in chunks whose biases sit on the stack;
 * compressed filters are decoded a chunk at a time into the scratch. The
 * kernels need no scratch for raw filters. Whatever the blocked paths do
 * not cover (groups, dilation across the width, scratch too small for a
 * compressed chunk) takes the direct paths above. Depth multipliers above
 * a chunk go in slices of one input channel's outputs. */

/* output channels per chunk (their biases on the stack) */
#define TFLC__CHANNEL_CHUNK 16

/* dst[j] = bias[c0 + j] (+ in_off * sum of row j of w when w != NULL) */
/* sum of n int8 (|sum| <= 128 * n: n below 2^23 here) */
TFLC__SEAM int32_t tflc__sum_s8_portable(const int8_t *row, int32_t n) {
  int32_t sum = 0, k;
  for (k = 0; k < n; k++)
    sum += row[k];
  return sum;
}
static int32_t tflc__sum_s8(const int8_t *row, int32_t n) {
  return TFLC__SUM_S8(row, n);
}

static void tflc__chunk_bias(const tflc_const *bias, int32_t c0, int32_t n,
                             const int8_t *w, int32_t depth, int32_t in_off,
                             int32_t *dst) {
  int32_t j;
  if (w == NULL) {
    if (bias != NULL && bias->bits == 0 && bias->type == TFLC_INT32) {
      memcpy(dst, (const uint8_t *)bias->data + (size_t)c0 * 4u,
             (size_t)n * 4u);
      return;
    }
    for (j = 0; j < n; j++)
      dst[j] = tflc__bias_at(bias, c0 + j);
    return;
  }
  for (j = 0; j < n; j++) {
    uint32_t v = (uint32_t)tflc__bias_at(bias, c0 + j);
    if (in_off != 0) /* (a zero offset adds nothing) */
      v += (uint32_t)in_off *
           (uint32_t)tflc__sum_s8(w + (ptrdiff_t)j * depth, depth);
    dst[j] = tflc__wrap32((int64_t)v);
  }
}

/* compressed filter channels that fit `bytes` of scratch (depth each) */
static int32_t tflc__fit_channels(size_t bytes, int32_t depth) {
  const size_t n = bytes / (size_t)depth;
  return n > TFLC__CHANNEL_CHUNK ? TFLC__CHANNEL_CHUNK : (int32_t)n;
}

/* n int8 values (a few dozen at most) copied a word at a time: compilers
 * turn a byte loop into a call of memcpy, which costs more for so few */
static void tflc__copy_s8(int8_t *dst, const int8_t *src, int32_t n) {
  int32_t i;
  for (i = 0; i + 4 <= n; i += 4) {
    uint32_t v;
    memcpy(&v, src + i, 4);
    memcpy(dst + i, &v, 4);
  }
  if (n & 2) { /* the last one to three values without a loop */
    uint16_t v;
    memcpy(&v, src + i, 2);
    memcpy(dst + i, &v, 2);
    i += 2;
  }
  if (n & 1)
    dst[i] = src[i];
}

/* n copies of v (a few dozen at most), a word at a time */
static void tflc__fill_s8(int8_t *dst, int8_t v, int32_t n) {
  const uint32_t word = ((uint32_t)v & 0xFFu) * 0x01010101u;
  int32_t i;
  for (i = 0; i + 4 <= n; i += 4)
    memcpy(dst + i, &word, 4);
  if (n & 2) {
    memcpy(dst + i, &word, 2);
    i += 2;
  }
  if (n & 1)
    dst[i] = v;
}

/* filters up to this many values take their windows whole (im2col) */
#define TFLC__SMALL_DEPTH 64

/* 0 under TFLC_NO_CONV_WINDOWS: the blocked convolution keeps its
 * pointwise path only (the other convolutions go to the direct one) */
#ifdef TFLC_NO_CONV_WINDOWS
#define TFLC__CONV_WINDOWS 0
#else
#define TFLC__CONV_WINDOWS 1
#endif

/* The state of one blocked convolution, in the frame of its driver once;
 * the parts that call the GEMM get a pointer to it and keep small frames
 * of their own (the stack high water is the driver's frame plus one
 * part's plus the GEMM's). */
typedef struct tflc__conv_blocked {
  tflc__geom g;
  tflc_gemm_block gb;
  tflc_requant_params rq;
  int32_t bias[TFLC__CHANNEL_CHUNK]; /* the chunk's biases (rq.bias) */
  const int8_t *in;
  int8_t *out;
  const int8_t *wt; /* the chunk's filter rows */
  int32_t batches, cout, depth, in_off;
  int32_t c0, nc; /* the chunk: output channels [c0, c0 + nc) */
  /* output columns [first, last], run of them, whose windows are inside
   * the input across the width (first at most ow) */
  int32_t first, last, run;
  /* border: some windows leave the input; contiguous: none does and the
   * pixels follow each other in memory (one block); small: the filter
   * fits the im2col rows; im2col: every window through them (1), or
   * through them in two segments (2, tflc__conv2d_s8_im2col_split);
   * bytes, as the state lies under every GEMM call's frame */
  unsigned char border, contiguous, small, im2col;
  /* the inner pixels' GEMM adds the input offset to the inputs (a single
   * pixel, TFLC__CONV_OFFSET_ONE_PIXEL) */
  unsigned char offset_inner;
} tflc__conv_blocked;

/* The border pixels' windows of a small filter copied whole (Kh*Kw*C
 * values, the input zero point -in_off where they leave the input) and
 * multiplied as single runs with the folded biases, one at a time. */
static TFLC__NOINLINE void tflc__conv2d_s8_small_im2col(tflc__conv_blocked *s) {
  int8_t col[TFLC__SMALL_DEPTH];
  const tflc__geom *g = &s->g;
  tflc_gemm_block *gb = &s->gb;
  const int8_t pad = (int8_t)(-s->in_off);
  const int32_t row_len = g->kw * g->c, depth = s->depth, cout = s->cout;
  int32_t n, oy, ox, ky, kx;
  gb->rows = 1;
  gb->cols = s->nc;
  gb->segments = 1;
  gb->seg_len = depth;
  gb->a = col;
  gb->a_row = depth;
  gb->a_seg = 0;
  gb->a_offset = 0;
  gb->w = s->wt;
  gb->w_col = depth;
  gb->w_seg = 0;
  gb->out_row = cout;
  for (n = 0; n < s->batches; n++) {
    const int8_t *in_n = s->in + (ptrdiff_t)n * g->h * g->w * g->c;
    int8_t *out_n = s->out + (ptrdiff_t)n * g->oh * g->ow * cout + s->c0;
    for (oy = 0; oy < g->oh; oy++) {
      const int32_t iy0 = oy * g->sh - g->ph;
      const int inside_y = iy0 >= 0 && iy0 + (g->kh - 1) * g->dh < g->h;
      for (ox = 0; ox < g->ow; ox++) {
        const int32_t ix0 = ox * g->sw - g->pw;
        int8_t *d = col;
        if (inside_y && ox >= s->first && ox <= s->last)
          continue;
        for (ky = 0; ky < g->kh; ky++) {
          const int32_t iy = iy0 + ky * g->dh;
          if (iy < 0 || iy >= g->h) {
            tflc__fill_s8(d, pad, row_len);
            d += row_len;
            continue;
          }
          if (g->dw == 1) {
            /* taps [lo, hi) are one run of the input, the others pad */
            const int32_t lo = ix0 >= 0 ? 0 : -ix0 < g->kw ? -ix0 : g->kw;
            int32_t hi = g->w - ix0 < g->kw ? g->w - ix0 : g->kw;
            hi = hi < lo ? lo : hi;
            if (lo > 0)
              tflc__fill_s8(d, pad, lo * g->c);
            tflc__copy_s8(d + lo * g->c,
                          in_n + ((ptrdiff_t)iy * g->w + ix0 + lo) * g->c,
                          (hi - lo) * g->c);
            if (hi < g->kw)
              tflc__fill_s8(d + hi * g->c, pad, (g->kw - hi) * g->c);
            d += row_len;
            continue;
          }
          for (kx = 0; kx < g->kw; kx++, d += g->c) {
            const int32_t ix = ix0 + kx * g->dw;
            int32_t i;
            if (iy < 0 || iy >= g->h || ix < 0 || ix >= g->w) {
              for (i = 0; i < g->c; i++)
                d[i] = pad;
            } else {
              const int8_t *src = in_n + ((ptrdiff_t)iy * g->w + ix) * g->c;
              for (i = 0; i < g->c; i++)
                d[i] = src[i];
            }
          }
        }
        gb->out = out_n + ((ptrdiff_t)oy * g->ow + ox) * cout;
        TFLC_GEMM_S8(&s->rq, gb);
      }
    }
  }
}

/* bytes of the window rows tflc__conv2d_s8_im2col_rows copies */
#define TFLC__IM2COL_BYTES 176

/* n (under 16) int8 values copied, or set to the word's byte, without a
 * loop: 8, 4, 2 and 1 of them as n's bits say */
TFLC__INLINE void tflc__copy_short_s8(int8_t *dst, const int8_t *src,
                                      int32_t n) {
  uint32_t v, u;
  if (n & 8) {
    memcpy(&v, src, 4);
    memcpy(&u, src + 4, 4);
    memcpy(dst, &v, 4);
    memcpy(dst + 4, &u, 4);
    dst += 8;
    src += 8;
  }
  if (n & 4) {
    memcpy(&v, src, 4);
    memcpy(dst, &v, 4);
    dst += 4;
    src += 4;
  }
  if (n & 2) {
    uint16_t h;
    memcpy(&h, src, 2);
    memcpy(dst, &h, 2);
    dst += 2;
    src += 2;
  }
  if (n & 1)
    *dst = *src;
}
TFLC__INLINE void tflc__fill_short_s8(int8_t *dst, uint32_t word, int32_t n) {
  if (n & 8) {
    memcpy(dst, &word, 4);
    memcpy(dst + 4, &word, 4);
    dst += 8;
  }
  if (n & 4) {
    memcpy(dst, &word, 4);
    dst += 4;
  }
  if (n & 2) {
    memcpy(dst, &word, 2);
    dst += 2;
  }
  if (n & 1)
    memcpy(dst, &word, 1);
}

/* The window of output pixel q (batches one after the other) copied
 * whole to d: depth values, the input zero point where the window leaves
 * the input. Out of the frame of
 * tflc__conv2d_s8_im2col_rows, which lies under the GEMM's. */
static TFLC__NOINLINE void tflc__conv_window_s8(const tflc__conv_blocked *s,
                                                int32_t q, int8_t *d) {
  const tflc__geom *g = &s->g;
  const int32_t per_batch = g->oh * g->ow, n = q / per_batch;
  const int32_t oy = (q - n * per_batch) / g->ow;
  const int32_t ox = q - n * per_batch - oy * g->ow;
  const int32_t iy0 = oy * g->sh - g->ph, ix0 = ox * g->sw - g->pw;
  const int32_t row_len = g->kw * g->c;
  const int32_t lo = ix0 >= 0 ? 0 : -ix0 < g->kw ? -ix0 : g->kw;
  const int8_t *in_n = s->in + (ptrdiff_t)n * g->h * g->w * g->c;
  const int8_t pad = (int8_t)(-s->in_off);
  int32_t hi = g->w - ix0 < g->kw ? g->w - ix0 : g->kw, ky;
  hi = hi < lo ? lo : hi;
  if (lo == 0 && hi == g->kw && iy0 >= 0 && iy0 + (g->kh - 1) * g->dh < g->h) {
    /* inside: kernel rows one after the other */
    const int8_t *src = in_n + ((ptrdiff_t)iy0 * g->w + ix0) * g->c;
    const ptrdiff_t step = (ptrdiff_t)g->dh * g->w * g->c;
    for (ky = 0; ky < g->kh; ky++, d += row_len, src += step)
      tflc__copy_short_s8(d, src, row_len);
    return;
  }
  {
    /* taps [lo, hi) of a row are one run of the input: every row the
     * zero point first, then the run over it where the row is inside */
    const uint32_t word = (uint32_t)(uint8_t)pad * 0x01010101u;
    const int32_t run = (hi - lo) * g->c;
    const ptrdiff_t first = (ptrdiff_t)(ix0 + lo) * g->c;
    for (ky = 0; ky < g->kh; ky++, d += row_len) {
      const int32_t iy = iy0 + ky * g->dh;
      tflc__fill_short_s8(d, word, row_len);
      if (iy >= 0 && iy < g->h)
        tflc__copy_short_s8(d + lo * g->c,
                            in_n + (ptrdiff_t)iy * g->w * g->c + first, run);
    }
  }
}

/* Every window of a small filter copied whole (tflc__conv_window_s8), as
 * many pixels as TFLC__IM2COL_BYTES holds per GEMM call (the GEMM's set-up
 * per column shared by those rows), the biases with the offset folded in.
 * Its frame, under the GEMM's, holds the buffer and little else (the
 * copy of a window has a frame of its own, tflc__conv_window_s8). */
static TFLC__NOINLINE void tflc__conv2d_s8_im2col_rows(tflc__conv_blocked *s) {
  int8_t col[TFLC__IM2COL_BYTES];
  tflc_gemm_block *gb = &s->gb;
  const int32_t depth = s->depth, rows = TFLC__IM2COL_BYTES / depth;
  const int32_t total = s->batches * s->g.oh * s->g.ow;
  int32_t q, r = 0;
  gb->cols = s->nc;
  gb->segments = 1;
  gb->seg_len = depth;
  gb->a = col;
  gb->a_row = depth;
  gb->a_seg = 0;
  gb->a_offset = 0;
  gb->w = s->wt;
  gb->w_col = depth;
  gb->w_seg = 0;
  gb->out_row = s->cout;
  for (q = 0; q < total; q++) {
    tflc__conv_window_s8(s, q, col + r * depth);
    if (++r < rows && q + 1 < total)
      continue;
    /* the r pixels just copied end at pixel q */
    gb->rows = r;
    gb->out = s->out + (ptrdiff_t)(q + 1 - r) * s->cout + s->c0;
    TFLC_GEMM_S8(&s->rq, gb);
    r = 0;
  }
}

/* bytes of the window rows tflc__conv2d_s8_im2col_split copies */
#define TFLC__IM2COL_SPLIT_BYTES 128

/* A filter depth D that is no multiple of four as two segments of L
 * values, L = ceil(D / 2) rounded up to a multiple of four (16 for 27):
 * weights [0, L) and [D - L, D), read in place (the rows D apart), so the
 * GEMM's blocks of four run over both. The weights of the overlap,
 * [D - L, L), are in both segments: a pixel's copy holds values [0, D - L)
 * of its window, then 2 L - D zeros (the overlap's place in the first
 * segment: nothing added there, the offset being folded into the
 * biases), then values [D - L, D) (the second segment), 2 L bytes in all.
 * Returns L, or 0 where the depth is not for this layout: a multiple of
 * four, 4 or less, or where the zeros would be more than a quarter of it
 * (3x3x1's 9 in 16 bytes: the windows read in place cost no more). */
TFLC__INLINE int32_t tflc__im2col_split_len(int32_t depth) {
  const int32_t len = ((depth + 1) / 2 + 3) & ~3;
  return depth > 4 && (depth & 3) != 0 && 2 * len <= TFLC__IM2COL_SPLIT_BYTES &&
                 4 * (2 * len - depth) <= depth
             ? len
             : 0;
}

/* The window at d + gap (2 L - D) moved to the two segments of
 * tflc__im2col_split_len: its first D - L values back to the start, a word
 * at a time up to L (each word read before the one it overlaps is
 * written; bytes past D - L lie in the zeros), then the zeros. */
TFLC__INLINE void tflc__split_window_s8(int8_t *d, int32_t len, int32_t gap,
                                        int32_t head) {
  int32_t i;
  for (i = 0; i < len; i += 4) {
    uint32_t v;
    memcpy(&v, d + gap + i, 4);
    memcpy(d + i, &v, 4);
  }
  tflc__fill_short_s8(d + head, 0, gap);
}

/* The windows of `rows` output pixels from q on (batches one after the
 * other) copied to d in the two segments of tflc__im2col_split_len, 2 L
 * bytes each: each window first whole 2 L - D bytes on, then split
 * (tflc__split_window_s8). Runs of windows inside the input: a kernel
 * row of 8 values or more is 16 bytes copied as four words, one of 4 to 7
 * values 8 bytes as two (the rows after overwrite those past its end, and
 * 2 L - D + D - 2 rows + 16 <= 2 L: they stay in the window's 2 L bytes;
 * the input goes on for a row of at least 16 bytes beyond them), shorter
 * ones and the last row exactly; other windows through
 * tflc__conv_window_s8. */
static void tflc__conv_windows_split_s8(const tflc__conv_blocked *s, int32_t q,
                                        int32_t rows, int8_t *d) {
  const tflc__geom *g = &s->g;
  const int32_t len = tflc__im2col_split_len(s->depth);
  const int32_t gap = 2 * len - s->depth, head = s->depth - len;
  const int32_t row_len = g->kw * g->c, per_batch = g->oh * g->ow;
  const int words = g->w * g->c >= 16;
  const ptrdiff_t step = (ptrdiff_t)g->dh * g->w * g->c;
  const ptrdiff_t next = (ptrdiff_t)g->sw * g->c;
  int32_t n = q / per_batch, oy = (q - n * per_batch) / g->ow;
  int32_t ox = q - n * per_batch - oy * g->ow, k, ky;
  while (rows > 0) {
    const int32_t iy0 = oy * g->sh - g->ph;
    k = 1;
    if (words && ox >= s->first && ox <= s->last && iy0 >= 0 &&
        iy0 + (g->kh - 1) * g->dh < g->h) {
      /* the inside windows of this output row, to the call's last */
      const int8_t *src =
          s->in + (ptrdiff_t)n * g->h * g->w * g->c +
          ((ptrdiff_t)iy0 * g->w + (ptrdiff_t)ox * g->sw - g->pw) * g->c;
      int32_t j;
      k = s->last - ox + 1 < rows ? s->last - ox + 1 : rows;
      for (j = 0; j < k; j++, src += next, d += 2 * len) {
        const int8_t *x = src;
        int8_t *t = d + gap;
        for (ky = 0; ky + 1 < g->kh; ky++, x += step, t += row_len) {
          uint32_t v0, v1, v2, v3;
          if (row_len < 4) {
            tflc__copy_short_s8(t, x, row_len);
            continue;
          }
          memcpy(&v0, x, 4);
          memcpy(&v1, x + 4, 4);
          memcpy(t, &v0, 4);
          memcpy(t + 4, &v1, 4);
          if (row_len < 8)
            continue;
          memcpy(&v2, x + 8, 4);
          memcpy(&v3, x + 12, 4);
          memcpy(t + 8, &v2, 4);
          memcpy(t + 12, &v3, 4);
        }
        tflc__copy_short_s8(t, x, row_len);
        tflc__split_window_s8(d, len, gap, head);
      }
    } else {
      tflc__conv_window_s8(s, (n * g->oh + oy) * g->ow + ox, d + gap);
      tflc__split_window_s8(d, len, gap, head);
      d += 2 * len;
    }
    rows -= k;
    ox += k;
    if (ox == g->ow) {
      ox = 0;
      if (++oy == g->oh) {
        oy = 0;
        n++;
      }
    }
  }
}

/* pixels per GEMM call of tflc__conv2d_s8_im2col_split where their
 * windows go to the output's unwritten part */
#define TFLC__IM2COL_SPLIT_OUT_ROWS 32

/* The windows of the pixels from q on for one GEMM call of
 * tflc__conv2d_s8_im2col_split (tflc__conv_windows_split_s8, 2 L
 * bytes each): sets s->gb.rows and returns where they are. Where the chunk is
 * every output channel, the outputs of the pixels after these are not
 * written yet: TFLC__IM2COL_SPLIT_OUT_ROWS windows go there (from a word
 * boundary) where that room holds them and lies apart from the input,
 * else as many as TFLC__IM2COL_SPLIT_BYTES holds go to col. Out of the
 * frame of tflc__conv2d_s8_im2col_split, which lies under the GEMM's. */
static TFLC__NOINLINE int8_t *tflc__conv_split_rows(tflc__conv_blocked *s,
                                                    int32_t q, int32_t total,
                                                    int8_t *col) {
  const int32_t a_row = s->gb.a_row, cout = s->cout;
  const int32_t big = TFLC__IM2COL_SPLIT_OUT_ROWS;
  int32_t rows = TFLC__IM2COL_SPLIT_BYTES / a_row;
  int8_t *buf = col;
  if (s->nc == cout && total - q > big &&
      (int64_t)(total - q - big) * cout >= (int64_t)big * a_row + 3) {
    const tflc__geom *g = &s->g;
    int8_t *at = s->out + (ptrdiff_t)(q + big) * cout;
    const uintptr_t lo = (uintptr_t)(at + ((0u - (uintptr_t)at) & 3u));
    const uintptr_t hi = lo + (uintptr_t)big * (uintptr_t)a_row;
    const uintptr_t in_lo = (uintptr_t)s->in;
    const uintptr_t in_hi = in_lo + (uintptr_t)s->batches * (uintptr_t)g->h *
                                        (uintptr_t)g->w * (uintptr_t)g->c;
    if (hi <= in_lo || lo >= in_hi) {
      buf = at + ((0u - (uintptr_t)at) & 3u);
      rows = big;
    }
  }
  if (rows > total - q)
    rows = total - q;
  tflc__conv_windows_split_s8(s, q, rows, buf);
  s->gb.rows = rows;
  return buf;
}

/* Every window of a small filter whose depth is no multiple of four
 * copied whole, in the two segments of tflc__im2col_split_len, several
 * pixels per GEMM call (tflc__conv_split_rows), the biases with the
 * offset folded in. Its frame, under the GEMM's, holds the buffer and
 * little else. */
static TFLC__NOINLINE void tflc__conv2d_s8_im2col_split(tflc__conv_blocked *s) {
  int8_t col[TFLC__IM2COL_SPLIT_BYTES];
  tflc_gemm_block *gb = &s->gb;
  const int32_t len = tflc__im2col_split_len(s->depth);
  const int32_t total = s->batches * s->g.oh * s->g.ow;
  int32_t q;
  gb->cols = s->nc;
  gb->segments = 2;
  gb->seg_len = len;
  gb->a_row = 2 * len;
  gb->a_seg = len;
  gb->a_offset = 0;
  gb->w = s->wt;
  gb->w_col = s->depth;
  gb->w_seg = s->depth - len;
  gb->out_row = s->cout;
  for (q = 0; q < total; q += gb->rows) {
    gb->a = tflc__conv_split_rows(s, q, total, col);
    gb->out = s->out + (ptrdiff_t)q * s->cout + s->c0;
    TFLC_GEMM_S8(&s->rq, gb);
  }
}

/* pixels per GEMM call of tflc__conv2d_s8_gather, at most */
#define TFLC__GATHER_ROWS 64

/* A 1x1 convolution of a raw filter whose pixels are not one run in
 * memory (strides above one) with every window inside the input: the
 * input pixels of up to TFLC__GATHER_ROWS output pixels at a time copied
 * one after the other into the output's unwritten part (the outputs of
 * the pixels after them, from a word boundary: as many pixels as that
 * room holds, where it lies apart from the input), then every chunk of
 * output channels over them as one contiguous block, the biases with the offset
 * folded in (folded, made once, or here); a pixel without such room is read in
 * place, alone. */
static TFLC__NOINLINE void tflc__conv2d_s8_gather(tflc__conv_blocked *s,
                                                  const tflc_conv_params *p,
                                                  const tflc_const *filter,
                                                  const tflc_const *bias,
                                                  const int32_t *folded) {
  const tflc__geom *g = &s->g;
  tflc_gemm_block *gb = &s->gb;
  const int32_t c = g->c, cout = s->cout, per_batch = g->oh * g->ow;
  const int32_t total = s->batches * per_batch;
  const uintptr_t in_lo = (uintptr_t)s->in;
  const uintptr_t in_hi = in_lo + (uintptr_t)s->batches * (uintptr_t)g->h *
                                      (uintptr_t)g->w * (uintptr_t)c;
  int32_t q = 0, c0;
  gb->segments = 1;
  gb->seg_len = c;
  gb->a_row = c;
  gb->a_seg = 0;
  gb->a_offset = 0;
  gb->w_col = s->depth;
  gb->w_seg = 0;
  gb->out_row = cout;
  while (q < total) {
    /* the most pixels r whose copy, r C bytes from a word boundary, the
     * outputs of the pixels after them hold: r (Cout + C) + 3 <=
     * (total - q) Cout */
    const int64_t fit = ((int64_t)(total - q) * cout - 3) / (cout + c);
    int32_t rows = fit < TFLC__GATHER_ROWS ? (int32_t)fit : TFLC__GATHER_ROWS;
    int8_t *buf = NULL;
    if (rows > 1) {
      int8_t *at = s->out + (ptrdiff_t)(q + rows) * cout;
      const uintptr_t lo = (uintptr_t)(at + ((0u - (uintptr_t)at) & 3u));
      const uintptr_t hi = lo + (uintptr_t)rows * (uintptr_t)c;
      if (hi <= in_lo || lo >= in_hi)
        buf = at + ((0u - (uintptr_t)at) & 3u);
    }
    if (buf != NULL) {
      int32_t j, n = q / per_batch, oy = (q - n * per_batch) / g->ow;
      int32_t ox = q - n * per_batch - oy * g->ow;
      for (j = 0; j < rows; j++) {
        tflc__copy_s8(
            buf + (ptrdiff_t)j * c,
            s->in +
                (((ptrdiff_t)n * g->h + (ptrdiff_t)oy * g->sh - g->ph) * g->w +
                 (ptrdiff_t)ox * g->sw - g->pw) *
                    c,
            c);
        if (++ox == g->ow) {
          ox = 0;
          if (++oy == g->oh) {
            oy = 0;
            n++;
          }
        }
      }
      gb->a = buf;
    } else {
      const int32_t n = q / per_batch, oy = (q - n * per_batch) / g->ow;
      const int32_t ox = q - n * per_batch - oy * g->ow;
      rows = 1;
      gb->a = s->in +
              (((ptrdiff_t)n * g->h + (ptrdiff_t)oy * g->sh - g->ph) * g->w +
               (ptrdiff_t)ox * g->sw - g->pw) *
                  c;
    }
    gb->rows = rows;
    for (c0 = 0; c0 < cout; c0 += TFLC__CHANNEL_CHUNK) {
      const int32_t nc =
          cout - c0 < TFLC__CHANNEL_CHUNK ? cout - c0 : TFLC__CHANNEL_CHUNK;
      s->wt = (const int8_t *)filter->data + (ptrdiff_t)c0 * s->depth;
      s->rq.multiplier = p->out_multiplier + c0;
      s->rq.shift = p->out_shift + c0;
      if (folded != NULL)
        memcpy(s->bias, folded + c0, (size_t)nc * sizeof *s->bias);
      else
        tflc__chunk_bias(bias, c0, nc, s->wt, s->depth, s->in_off, s->bias);
      gb->cols = nc;
      gb->w = s->wt;
      gb->out = s->out + (ptrdiff_t)q * cout + c0;
      TFLC_GEMM_S8(&s->rq, gb);
    }
    q += rows;
  }
}

/* The pixels whose windows lie inside the input, read in place with the
 * offset folded into the biases: all of them as one block (contiguous),
 * or one block per output row. */
static TFLC__NOINLINE void tflc__conv2d_s8_inner(tflc__conv_blocked *s) {
  const tflc__geom *g = &s->g;
  tflc_gemm_block *gb = &s->gb;
  int32_t n, oy;
  gb->cols = s->nc;
  gb->segments = g->kh;
  gb->seg_len = g->kw * g->c;
  gb->a_seg = g->dh * g->w * g->c;
  gb->a_offset = s->offset_inner ? s->in_off : 0;
  gb->w = s->wt;
  gb->w_col = s->depth;
  gb->w_seg = g->kw * g->c;
  gb->out_row = s->cout;
  for (n = 0; n < s->batches; n++) {
    const int8_t *in_n = s->in + (ptrdiff_t)n * g->h * g->w * g->c;
    int8_t *out_n = s->out + (ptrdiff_t)n * g->oh * g->ow * s->cout + s->c0;
    if (s->contiguous) {
      gb->rows = g->oh * g->ow;
      gb->a = in_n;
      gb->a_row = g->c;
      gb->out = out_n;
      TFLC_GEMM_S8(&s->rq, gb);
      continue;
    }
    if (!TFLC__CONV_WINDOWS || s->run <= 0)
      continue;
    for (oy = 0; oy < g->oh; oy++) {
      const int32_t iy0 = oy * g->sh - g->ph;
      if (iy0 < 0 || iy0 + (g->kh - 1) * g->dh >= g->h)
        continue;
      gb->rows = s->run;
      gb->a = in_n + ((ptrdiff_t)iy0 * g->w + s->first * g->sw - g->pw) * g->c;
      gb->a_row = g->sw * g->c;
      gb->out = out_n + ((ptrdiff_t)oy * g->ow + s->first) * s->cout;
      TFLC_GEMM_S8(&s->rq, gb);
    }
  }
}

/* the windows of output row oy inside the input across the height */
TFLC__INLINE int tflc__conv_inside_y(const tflc__geom *g, int32_t oy) {
  const int32_t iy0 = oy * g->sh - g->ph;
  return iy0 >= 0 && iy0 + (g->kh - 1) * g->dh < g->h;
}

/* The border pixels: their clipped windows read in place, neighbours with
 * the same clipped window in one block: runs along the border rows, and
 * down each border column over the inside rows. Under
 * TFLC__CONV_NO_OFFSET_BLOCKS a block of several pixels takes the offset
 * folded into its biases (bias, the chunk's plain ones, plus the offset
 * times the sum of the window's weights inside the input); otherwise, and
 * a single pixel, the offset added to the inputs. */
static TFLC__NOINLINE void tflc__conv2d_s8_border(tflc__conv_blocked *s,
                                                  const tflc_const *bias) {
  const tflc__geom *g = &s->g;
  tflc_gemm_block *gb = &s->gb;
  const int32_t cout = s->cout;
  int32_t n, oy, ox, k, j, sg;
  int folded = 0;
  gb->cols = s->nc;
  gb->a_seg = g->dh * g->w * g->c;
  gb->w_col = s->depth;
  gb->w_seg = g->kw * g->c;
  for (n = 0; n < s->batches; n++) {
    const int8_t *in_n = s->in + (ptrdiff_t)n * g->h * g->w * g->c;
    int8_t *out_n = s->out + (ptrdiff_t)n * g->oh * g->ow * cout + s->c0;
    for (oy = 0; oy < g->oh; oy++) {
      const int inside_y = tflc__conv_inside_y(g, oy);
      for (ox = 0; ox < g->ow; ox += k) {
        tflc__win w, w2;
        k = 1;
        if (inside_y) {
          if ((ox >= s->first && ox <= s->last) ||
              (oy > 0 && tflc__conv_inside_y(g, oy - 1)))
            continue; /* inside, or in the column run of a row above */
          while (oy + k < g->oh && tflc__conv_inside_y(g, oy + k))
            k++;
          gb->rows = k;
          gb->a_row = g->sh * g->w * g->c;
          gb->out_row = g->ow * cout;
          k = 1;
        } else {
          tflc__pixel_window(g, oy, ox, &w);
          for (; ox + k < g->ow; k++) {
            tflc__pixel_window(g, oy, ox + k, &w2);
            if (w2.kx0 != w.kx0 || w2.kx1 != w.kx1)
              break;
          }
          gb->rows = k;
          gb->a_row = g->sw * g->c;
          gb->out_row = cout;
        }
        tflc__pixel_window(g, oy, ox, &w);
        gb->segments = w.ky1 - w.ky0;
        gb->seg_len = (w.kx1 - w.kx0) * g->c;
        if (gb->segments <= 0 || gb->seg_len <= 0) {
          gb->segments = 0;
          gb->seg_len = 0;
          gb->a = in_n;
          gb->w = s->wt;
        } else {
          gb->a = in_n +
                  ((ptrdiff_t)(w.iy0 + w.ky0 * g->dh) * g->w + w.ix0 + w.kx0) *
                      g->c;
          gb->w = s->wt + (ptrdiff_t)(w.ky0 * g->kw + w.kx0) * g->c;
        }
        gb->out = out_n + ((ptrdiff_t)oy * g->ow + ox) * cout;
        if (folded)
          tflc__chunk_bias(bias, s->c0, s->nc, NULL, 0, 0, s->bias);
        folded = TFLC__CONV_NO_OFFSET_BLOCKS && gb->rows >= 2 &&
                 gb->segments > 0 && s->in_off != 0;
        gb->a_offset = folded ? 0 : s->in_off;
        for (j = 0; folded && j < s->nc; j++) {
          /* a run of several pixels: the offset folded into the biases
           * over the window's part inside the input */
          uint32_t v = (uint32_t)s->bias[j];
          for (sg = 0; sg < gb->segments; sg++)
            v += (uint32_t)s->in_off *
                 (uint32_t)tflc__sum_s8(gb->w + (ptrdiff_t)j * gb->w_col +
                                            (ptrdiff_t)sg * gb->w_seg,
                                        gb->seg_len);
          s->bias[j] = tflc__wrap32((int64_t)v);
        }
        TFLC_GEMM_S8(&s->rq, gb);
      }
    }
  }
  gb->out_row = cout;
}

/* Where the blocked convolution's windows lie: the output columns inside
 * the input across the width (one run a row), whether any window leaves
 * the input, whether the pixels are one run in memory, and whether the
 * windows are copied whole (small filters, short kernel rows). */
static void tflc__conv_blocked_shape(tflc__conv_blocked *s, int32_t depth,
                                     int32_t in_off) {
  const tflc__geom *g = &s->g;
  int32_t oy;
  /* output columns whose window is inside the input across the width */
  tflc__inner_span(g->pw, g->sw, g->w, g->kw, g->dw, g->ow, &s->first,
                   &s->last);
  s->run = s->last >= s->first ? s->last - s->first + 1 : 0;
  s->border = s->run < g->ow;
  for (oy = 0; oy < g->oh && !s->border; oy++) {
    const int64_t iy0 = (int64_t)oy * g->sh - g->ph;
    s->border =
        (unsigned char)(iy0 < 0 || iy0 + (int64_t)(g->kh - 1) * g->dh >= g->h);
  }
  /* every window inside and the pixels one after the other in memory */
  s->contiguous =
      (unsigned char)(!s->border && g->kh == 1 && g->kw == 1 && g->sh == 1 &&
                      g->sw == 1 && g->ow == g->w && g->ph == 0 && g->pw == 0);
  s->small = (unsigned char)(depth <= TFLC__SMALL_DEPTH && in_off >= -127 &&
                             in_off <= 128);
  /* short runs per kernel row: every window copied whole instead */
  s->im2col = (unsigned char)(s->small && g->kw * g->c < 16 &&
                              (depth & 3) == 0 && !s->contiguous);
  /* 2: depths no multiple of four in two segments (tflc__im2col_split_len) */
  if (TFLC__CONV_SPLIT_WINDOWS && s->small && g->kw * g->c < 16 &&
      !s->contiguous && tflc__im2col_split_len(depth) > 0)
    s->im2col = 2;
}

/* The blocked convolution's state before its first chunk (out of the
 * driver's frame, four arguments: none on the stack; the driver sets the
 * output's height and width in s->g, the output channels in s->cout and
 * the tensors' data after); returns 0 when the convolution is not for
 * the blocked paths. */
static TFLC__NOINLINE int
tflc__conv_blocked_init(tflc__conv_blocked *s, const tflc_conv_params *p,
                        const int32_t in_dims[4],
                        const int32_t filter_dims[4]) {
  tflc__geom *g = &s->g;
  const int32_t depth = filter_dims[1] * filter_dims[2] * filter_dims[3];
  const int32_t in_off = p->input_offset;
  const int32_t out_dims[4] = {0, g->oh, g->ow, 0};
  tflc__geom_init(g, p, in_dims, filter_dims, out_dims);
  if (filter_dims[3] != g->c || depth > 0x7FFFFF || (g->dw != 1 && g->kw != 1))
    return 0; /* grouped, huge, or dilated across the width */
  if (TFLC__CONV_WINDOWS) {
    tflc__conv_blocked_shape(s, depth, in_off);
  } else {
    /* pointwise only: 1x1, stride 1, no padding, the pixels one run */
    s->contiguous = (unsigned char)(g->kh == 1 && g->kw == 1 && g->sh == 1 &&
                                    g->sw == 1 && g->ph == 0 && g->pw == 0 &&
                                    g->ow == g->w && g->oh <= g->h);
    if (!s->contiguous)
      return 0;
    s->first = 0;
    s->last = g->ow - 1;
    s->run = g->ow;
    s->border = s->small = s->im2col = 0;
  }
  s->offset_inner = (unsigned char)(TFLC__CONV_OFFSET_ONE_PIXEL &&
                                    s->contiguous && g->oh == 1 && g->ow == 1);
  s->rq.bias = s->bias;
  s->rq.per_channel = 1;
  s->rq.output_offset = p->output_offset;
  s->rq.act_min = p->act_min;
  s->rq.act_max = p->act_max;
  s->batches = in_dims[0];
  s->depth = depth;
  s->in_off = in_off;
  return 1;
}

/* The blocked convolution; returns 0 (nothing written) when the
 * convolution is not for it. Inlined: one frame with tflc_conv2d_s8's. */
TFLC__INLINE int
tflc__conv2d_s8_blocked(const tflc_conv_params *p, const int32_t in_dims[4],
                        const int8_t *in, const int32_t filter_dims[4],
                        const tflc_const *filter, const tflc_const *bias,
                        const int32_t out_dims[4], int8_t *out, void *tile,
                        size_t tile_bytes, const int32_t *folded) {
  tflc__conv_blocked s;
  int32_t c0, chunk = TFLC__CHANNEL_CHUNK;
  s.g.oh = out_dims[1];
  s.g.ow = out_dims[2];
  s.cout = out_dims[3];
  if (!tflc__conv_blocked_init(&s, p, in_dims, filter_dims))
    return 0;
  if (filter->bits != 0) {
    chunk = tile != NULL ? tflc__fit_channels(tile_bytes, s.depth) : 0;
    if (chunk < 1)
      return 0;
  }
  s.in = in;
  s.out = out;
  if (folded != NULL)
    s.offset_inner = 0; /* (the folded biases serve every inner pixel) */
  /* a platform's windows of small filters against every channel at once
   * (Helium), 0 where none (nothing written) */
  if (TFLC__CONV_WINDOWS && TFLC__CONV_WINDOWS_S8(&s, p, filter, bias))
    return 1;
  /* 1x1, strided: the pixels gathered into one block */
  if (TFLC__CONV_WINDOWS && TFLC__CONV_NO_OFFSET_BLOCKS && filter->bits == 0 &&
      !s.border && !s.contiguous && s.g.kh == 1 && s.g.kw == 1) {
    tflc__conv2d_s8_gather(&s, p, filter, bias, folded);
    return 1;
  }
  for (c0 = 0; c0 < s.cout; c0 += chunk) {
    const int32_t nc = s.cout - c0 < chunk ? s.cout - c0 : chunk;
    if (filter->bits != 0) {
      tflc_lut_decode(filter, c0 * s.depth, nc * s.depth, tile);
      s.wt = (const int8_t *)tile;
    } else {
      s.wt = (const int8_t *)filter->data + (ptrdiff_t)c0 * s.depth;
    }
    s.c0 = c0;
    s.nc = nc;
    s.rq.multiplier = p->out_multiplier + c0;
    s.rq.shift = p->out_shift + c0;
    /* windows inside the input: biases with the offset folded in (made
     * once by tflc_conv2d_s8_fold, or here; the plain biases where the
     * inner pixels add the offset, offset_inner) */
    if (folded != NULL)
      memcpy(s.bias, folded + c0, (size_t)nc * sizeof *s.bias);
    else
      tflc__chunk_bias(bias, c0, nc, s.offset_inner ? NULL : s.wt, s.depth,
                       s.in_off, s.bias);
    if (TFLC__CONV_WINDOWS && s.im2col) {
      if (s.im2col == 2 && TFLC__CONV_WIDE_WINDOWS_S8(&s))
        continue;
      if (s.im2col == 2)
        tflc__conv2d_s8_im2col_split(&s);
      else
        tflc__conv2d_s8_im2col_rows(&s);
      continue;
    }
    tflc__conv2d_s8_inner(&s);
    if (!TFLC__CONV_WINDOWS || !s.border)
      continue;
    if (s.small) {
      tflc__conv2d_s8_small_im2col(&s);
      continue;
    }
    /* border pixels: their clipped windows, the offset on the inputs */
    tflc__chunk_bias(bias, c0, nc, NULL, 0, 0, s.bias);
    tflc__conv2d_s8_border(&s, bias);
  }
  return 1;
}

TFLC_API void tflc_conv2d_s8(const tflc_conv_params *p,
                             const int32_t in_dims[4], const int8_t *in,
                             const int32_t filter_dims[4],
                             const tflc_const *filter, const tflc_const *bias,
                             const int32_t out_dims[4], int8_t *out, void *tile,
                             size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_INT8);
  if (out_dims[3] <= 0 || filter_dims[1] * filter_dims[2] * filter_dims[3] <= 0)
    return;
  if (!tflc__conv2d_s8_blocked(p, in_dims, in, filter_dims, filter, bias,
                               out_dims, out, tile, tile_bytes, NULL))
    tflc__conv2d_s8_direct(p, in_dims, in, filter_dims, filter, bias, out_dims,
                           out, tile, tile_bytes);
}

/* (its own copy of the driver: a call with the tile's two arguments too
 * would deepen the callers' frames) */
TFLC_API void tflc_conv2d_s8_folded(const tflc_conv_params *p,
                                    const int32_t in_dims[4], const int8_t *in,
                                    const int32_t filter_dims[4],
                                    const tflc_const *filter,
                                    const tflc_const *bias,
                                    const int32_t out_dims[4], int8_t *out,
                                    const int32_t *folded) {
  TFLC_ASSERT(filter->type == TFLC_INT8);
  if (out_dims[3] <= 0 || filter_dims[1] * filter_dims[2] * filter_dims[3] <= 0)
    return;
  if (!tflc__conv2d_s8_blocked(p, in_dims, in, filter_dims, filter, bias,
                               out_dims, out, NULL, 0,
                               filter->bits == 0 ? folded : NULL))
    tflc__conv2d_s8_direct(p, in_dims, in, filter_dims, filter, bias, out_dims,
                           out, NULL, 0);
}

TFLC_API int tflc_conv2d_s8_fold(const tflc_conv_params *p,
                                 const int32_t in_dims[4],
                                 const int32_t filter_dims[4],
                                 const tflc_const *filter,
                                 const tflc_const *bias,
                                 const int32_t out_dims[4], int32_t *folded) {
  /* the blocked paths' conditions on a raw filter (tflc__conv_blocked_init;
   * their state is not built here: a prepare's stack stays shallow) */
  const int32_t depth = filter_dims[1] * filter_dims[2] * filter_dims[3];
  int32_t c;
  if (out_dims[3] <= 0 || depth <= 0 || depth > 0x7FFFFF || filter->bits != 0 ||
      p->input_offset == 0 || filter_dims[3] != in_dims[3] ||
      (p->dilation_w != 1 && filter_dims[2] != 1))
    return 0;
#if defined(TFLC__CONV_WINDOWS_S8_IS_MVE)
  if (depth <= TFLC__SMALL_DEPTH && filter_dims[2] * filter_dims[3] < 16 &&
      (depth & 3) == 0)
    return 0; /* (the Helium windows fold their own) */
#endif
  for (c = 0; folded != NULL && c < out_dims[3]; c++) {
    const uint32_t v = (uint32_t)tflc__sum_s8(
        (const int8_t *)filter->data + (ptrdiff_t)c * depth, depth);
    folded[c] = tflc__wrap32((int64_t)((uint32_t)tflc__bias_at(bias, c) +
                                       (uint32_t)p->input_offset * v));
  }
  return 1;
}

/* DEPTHWISE_CONV_2D over chunks of output channels: for each output row,
 * the pixels whose window lies inside the input go to the primitive in
 * one run, the border pixels one at a time with their clipped windows.
 * Output channels [c_begin, c_end) (c_begin a multiple of the depth
 * multiplier) go to `out`, channel c_begin of pixel 0, pixels out_ch
 * elements apart (the whole tensor: 0, channels, out, channels; inlined
 * into both callers, so the whole-tensor one keeps its constants). */
TFLC__INLINE int tflc__depthwise_conv2d_s8_range(
    const tflc_conv_params *p, const int32_t in_dims[4], const int8_t *in,
    const int32_t filter_dims[4], const tflc_const *filter,
    const tflc_const *bias, const int32_t out_dims[4], int32_t c_begin,
    int32_t c_end, int8_t *out, int32_t out_ch, void *tile, size_t tile_bytes) {
  tflc__geom g;
  int32_t bias_chunk[TFLC__CHANNEL_CHUNK];
  const int32_t batches = in_dims[0], cin = in_dims[3], ch = out_dims[3];
  const int32_t m = p->depth_multiplier;
  const int32_t ntaps = filter_dims[1] * filter_dims[2];
  const int compressed = TFLC__COMPRESSION && filter->bits != 0;
  int32_t chunk, c0, nc, n, oy, ox, pass, first, last, top, bottom;
  int column, fold;
  if (m < 1 || (int64_t)cin * m != ch || filter_dims[3] != ch)
    return 0;
  chunk = TFLC__CHANNEL_CHUNK;
  if (compressed) {
    chunk = tile != NULL ? tflc__fit_channels(tile_bytes, ntaps) : 0;
    if (m == 1 && chunk >= 4)
      chunk &= ~3;
  }
  /* a compressed group wider than the tile takes the direct path (each
   * output channel's taps gathered into the tile once): its slices would
   * run a few channels at a time, on compressed micro_speech 1.6 times
   * the direct path's instructions */
  if (compressed && m > chunk)
    return 0;
  if (m <= chunk)
    chunk -= chunk % m; /* whole groups of one input channel */
  if (chunk < 1)
    return 0;
  tflc__geom_init(&g, p, in_dims, filter_dims, out_dims);
  /* output columns and rows whose whole window is inside the input */
  tflc__inner_span(g.pw, g.sw, g.w, g.kw, g.dw, g.ow, &first, &last);
  tflc__inner_span(g.ph, g.sh, g.h, g.kh, g.dh, g.oh, &top, &bottom);
  /* more such rows than inner columns (tall, narrow maps): those rows go
   * down the columns, one run per output column (every pixel of a run has
   * the same window), instead of three or more runs per row */
  column = bottom > top && bottom - top > last - first;
  /* folding costs a sum over the taps per channel: it pays from a few
   * windows inside the input on */
  fold = bottom >= top && last >= first &&
         (int64_t)(bottom - top + 1) * (last - first + 1) * batches >= 8;
  /* without folding, raw aligned int32 biases are read in place (fold
   * 2): every channel in one chunk */
  if (!fold && !compressed &&
      (bias == NULL || (bias->bits == 0 && bias->type == TFLC_INT32 &&
                        ((uintptr_t)bias->data & 3u) == 0))) {
    fold = 2;
    chunk = ch;
  }
  for (c0 = c_begin; c0 < c_end; c0 += nc) {
    tflc_depthwise_block b;
    tflc_requant_params rq;
    const int8_t *wt;
    int32_t w_col;
    nc = c_end - c0 < chunk ? c_end - c0 : chunk;
    if (m > chunk && m - c0 % m < nc)
      nc = m - c0 % m; /* groups wider than a chunk: slices of one group */
    if (compressed) {
      tflc__lut_decode_rows(filter, c0, ch, nc, ntaps, tile);
      wt = (const int8_t *)tile;
      w_col = nc;
    } else {
      wt = (const int8_t *)filter->data + c0;
      w_col = ch;
    }
    rq.bias = fold != 2      ? bias_chunk
              : bias != NULL ? (const int32_t *)bias->data + c0
                             : NULL;
    rq.multiplier = p->out_multiplier + c0;
    rq.shift = p->out_shift + c0;
    rq.per_channel = 1;
    rq.output_offset = p->output_offset;
    rq.act_min = p->act_min;
    rq.act_max = p->act_max;
    b.channels = nc;
    b.multiplier = m > chunk ? nc : m; /* a slice reads one input channel */
    b.x_row = g.dh * g.w * cin;
    b.x_col = g.dw * cin;
    b.x_pixel = g.sw * cin;
    b.x_offset = p->input_offset;
    b.w_row = g.kw * w_col;
    b.w_col = w_col;
    b.out_pixel = out_ch;
    /* pass 0: windows inside the input, the offset folded into the
     * biases (when enough of them share the sums); pass 1: the other
     * windows, the offset on the inputs */
    for (pass = 0; pass < 2; pass++) {
      if (pass == 0 && fold == 1) {
        int32_t j, t;
        for (j = 0; j < nc; j++) {
          uint32_t sum = 0; /* (modulo 2^32, as the accumulators) */
          for (t = 0; t < ntaps; t++) {
            const int32_t v = wt[(ptrdiff_t)t * w_col + j];
            sum += (uint32_t)v;
          }
          bias_chunk[j] =
              tflc__wrap32((int64_t)((uint32_t)tflc__bias_at(bias, c0 + j) +
                                     (uint32_t)p->input_offset * sum));
        }
        b.x_offset = 0;
      } else {
        if (fold != 2)
          tflc__chunk_bias(bias, c0, nc, NULL, 0, 0, bias_chunk);
        b.x_offset = p->input_offset;
      }
      for (n = 0; n < batches; n++) {
        const int8_t *in_n = in + (ptrdiff_t)n * g.h * g.w * cin + c0 / m;
        int8_t *out_n =
            out + (ptrdiff_t)n * g.oh * g.ow * out_ch + (c0 - c_begin);
        for (oy = 0; oy < g.oh; oy++) {
          tflc__win w;
          int8_t *orow = out_n + (ptrdiff_t)oy * g.ow * out_ch;
          const int down = column && oy >= top && oy <= bottom;
          int full_y, inner_x;
          if (down && oy != top)
            continue; /* in the column runs from row `top` */
          b.x_pixel = down ? g.sh * g.w * cin : g.sw * cin;
          b.out_pixel = down ? g.ow * out_ch : out_ch;
          ox = 0;
          while (ox < g.ow) {
            tflc__pixel_window(&g, oy, ox, &w);
            full_y = w.ky0 == 0 && w.ky1 == g.kh;
            inner_x = ox >= first && ox <= last;
            b.pixels = down      ? (int32_t)(bottom - top + 1)
                       : inner_x ? (int32_t)(last - ox + 1)
                                 : 1;
            if ((inner_x && full_y) != (pass == 0)) {
              ox += down ? 1 : b.pixels; /* the other pass's */
              continue;
            }
            b.rows = w.ky1 - w.ky0;
            b.cols = w.kx1 - w.kx0;
            b.x = in_n + ((ptrdiff_t)(w.iy0 + w.ky0 * g.dh) * g.w + w.ix0 +
                          w.kx0 * g.dw) *
                             cin;
            b.w = wt + (ptrdiff_t)(w.ky0 * g.kw + w.kx0) * w_col;
            b.out = orow + (ptrdiff_t)ox * out_ch;
            if (b.rows <= 0 || b.cols <= 0) {
              b.rows = b.cols = 0;
              b.x = in_n;
              b.w = wt;
            }
            TFLC__DW_CHUNK_S8(&rq, &b);
            ox += down ? 1 : b.pixels;
          }
        }
      }
    }
  }
  return 1;
}

/* The whole tensor through the chunks, in a frame of its own: a
 * platform's layer path then runs beside that frame, not on top of it. */
static TFLC__NOINLINE TFLC__DW_CHUNKS_CODE int tflc__depthwise_conv2d_s8_whole(
    const tflc_conv_params *p, const int32_t in_dims[4], const int8_t *in,
    const int32_t filter_dims[4], const tflc_const *filter,
    const tflc_const *bias, const int32_t out_dims[4], int8_t *out, void *tile,
    size_t tile_bytes) {
  return tflc__depthwise_conv2d_s8_range(p, in_dims, in, filter_dims, filter,
                                         bias, out_dims, 0, out_dims[3], out,
                                         out_dims[3], tile, tile_bytes);
}

static int tflc__depthwise_conv2d_s8_blocked(
    const tflc_conv_params *p, const int32_t in_dims[4], const int8_t *in,
    const int32_t filter_dims[4], const tflc_const *filter,
    const tflc_const *bias, const int32_t out_dims[4], int8_t *out, void *tile,
    size_t tile_bytes) {
  /* a platform's own path for the whole layer first, where it has one */
  if (TFLC__DEPTHWISE_LAYER_S8(p, in_dims, in, filter_dims, filter, bias,
                               out_dims, out, tile, tile_bytes))
    return 1;
  return tflc__depthwise_conv2d_s8_whole(p, in_dims, in, filter_dims, filter,
                                         bias, out_dims, out, tile, tile_bytes);
}

TFLC_API void
tflc_depthwise_conv2d_s8(const tflc_conv_params *p, const int32_t in_dims[4],
                         const int8_t *in, const int32_t filter_dims[4],
                         const tflc_const *filter, const tflc_const *bias,
                         const int32_t out_dims[4], int8_t *out, void *tile,
                         size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_INT8);
  if (filter_dims[1] * filter_dims[2] <= 0 || in_dims[3] <= 0)
    return;
#if TFLC__COMPRESSION
  if (!tflc__depthwise_conv2d_s8_blocked(p, in_dims, in, filter_dims, filter,
                                         bias, out_dims, out, tile, tile_bytes))
    tflc__depthwise_conv2d_s8_direct(p, in_dims, in, filter_dims, filter, bias,
                                     out_dims, out, tile, tile_bytes);
#else
  /* (without compression the chunks take every layer a prepare accepts) */
  (void)tflc__depthwise_conv2d_s8_blocked(p, in_dims, in, filter_dims, filter,
                                          bias, out_dims, out, tile,
                                          tile_bytes);
#endif
}

#ifndef TFLC_NO_PATCHES
/* In place: `plane_channels` output channels at a time into the plane,
 * then stored where input channels [c0, c0 + nc) were. Every byte stored
 * there held an input value of those channels (same channel count, same
 * start), which only the channels just computed read. */
TFLC_API int tflc_depthwise_conv2d_s8_inplace(
    const tflc_conv_params *p, const int32_t in_dims[4], int8_t *io,
    const int32_t filter_dims[4], const tflc_const *filter,
    const tflc_const *bias, const int32_t out_dims[4], int8_t *plane,
    int32_t plane_channels, void *tile, size_t tile_bytes) {
  const int32_t ch = out_dims[3];
  const int32_t ntaps = filter_dims[1] * filter_dims[2];
  const ptrdiff_t pixels = (ptrdiff_t)out_dims[0] * out_dims[1] * out_dims[2];
  int32_t c0;
  if (p->depth_multiplier != 1 || in_dims[3] != ch || filter_dims[3] != ch ||
      plane_channels < 1 || ntaps <= 0 || ntaps > 0x7FFFFF ||
      (TFLC__COMPRESSION && filter->bits != 0 &&
       (tile == NULL || tile_bytes < (size_t)ntaps)))
    return 0;
  for (c0 = 0; c0 < ch; c0 += plane_channels) {
    const int32_t nc = ch - c0 < plane_channels ? ch - c0 : plane_channels;
    int8_t *dst = io + c0;
    const int8_t *src = plane;
    ptrdiff_t q;
    (void)tflc__depthwise_conv2d_s8_range(p, in_dims, io, filter_dims, filter,
                                          bias, out_dims, c0, c0 + nc, plane,
                                          nc, tile, tile_bytes);
    if (nc == 1) {
      for (q = 0; q < pixels; q++, dst += ch)
        *dst = src[q];
    } else if (nc == 4) {
      for (q = 0; q < pixels; q++, dst += ch, src += 4)
        memcpy(dst, src, 4);
    } else {
      for (q = 0; q < pixels; q++, dst += ch, src += nc)
        memcpy(dst, src, (size_t)nc);
    }
  }
  return 1;
}
#endif

/* FULLY_CONNECTED as a matrix product over chunks of outputs. With four or
 * more batches the input offset is folded into the biases; with fewer the
 * product adds it to the inputs (a fold would cost a pass over the
 * weights). */
static TFLC__NOINLINE int tflc__fully_connected_s8_blocked(
    const tflc_fc_params *p, int32_t batches, int32_t depth, int32_t out_depth,
    const int8_t *in, const tflc_const *filter, const tflc_const *bias,
    int8_t *out, void *tile, size_t tile_bytes) {
  int32_t bias_chunk[TFLC__CHANNEL_CHUNK];
  const int compressed = filter->bits != 0;
  const int fold = batches >= 4;
  int32_t chunk = TFLC__CHANNEL_CHUNK, o0;
  tflc_gemm_block gb;
  if ((!p->per_channel && p->filter_offset != 0) || depth > 0x7FFFFF)
    return 0;
  if (compressed) {
    chunk = tile != NULL ? tflc__fit_channels(tile_bytes, depth) : 0;
    if (chunk < 1)
      return 0;
  }
  gb.rows = batches;
  gb.segments = 1;
  gb.seg_len = depth;
  gb.a = in;
  gb.a_row = depth;
  gb.a_seg = 0;
  gb.a_offset = fold ? 0 : p->input_offset;
  gb.w_col = depth;
  gb.w_seg = 0;
  gb.out_row = out_depth;
  for (o0 = 0; o0 < out_depth; o0 += chunk) {
    const int32_t nc = out_depth - o0 < chunk ? out_depth - o0 : chunk;
    tflc_requant_params rq;
    if (compressed) {
      tflc_lut_decode(filter, o0 * depth, nc * depth, tile);
      gb.w = (const int8_t *)tile;
    } else {
      gb.w = (const int8_t *)filter->data + (ptrdiff_t)o0 * depth;
    }
    tflc__chunk_bias(bias, o0, nc, fold ? gb.w : NULL, depth, p->input_offset,
                     bias_chunk);
    rq.bias = bias_chunk;
    rq.multiplier = p->out_multiplier + (p->per_channel ? o0 : 0);
    rq.shift = p->out_shift + (p->per_channel ? o0 : 0);
    rq.per_channel = p->per_channel;
    rq.output_offset = p->output_offset;
    rq.act_min = p->act_min;
    rq.act_max = p->act_max;
    gb.cols = nc;
    gb.out = out + o0;
    TFLC_GEMM_S8(&rq, &gb);
  }
  return 1;
}

TFLC_API void tflc_fully_connected_s8(const tflc_fc_params *p, int32_t batches,
                                      int32_t accum_depth, int32_t out_depth,
                                      const int8_t *in,
                                      const tflc_const *filter,
                                      const tflc_const *bias, int8_t *out,
                                      void *tile, size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_INT8);
  if (accum_depth <= 0 || out_depth <= 0 || batches <= 0)
    return;
  if (TFLC__FC_S8_LAYER(p, batches, accum_depth, out_depth, in, filter, bias,
                        out))
    return;
  if (!tflc__fully_connected_s8_blocked(p, batches, accum_depth, out_depth, in,
                                        filter, bias, out, tile, tile_bytes))
    tflc__fully_connected_s8_direct(p, batches, accum_depth, out_depth, in,
                                    filter, bias, out, tile, tile_bytes);
}

/* The portable side of the FULLY_CONNECTED seam (TFLC__FC_S8_*): nothing
 * kept, every layer through tflc_fully_connected_s8. */
TFLC__SEAM size_t tflc__fc_s8_prepare_bytes_portable(const tflc_fc_params *p,
                                                     int32_t accum,
                                                     int32_t depth,
                                                     const tflc_const *filter,
                                                     const tflc_const *bias) {
  (void)p, (void)accum, (void)depth, (void)filter, (void)bias;
  return 0;
}
TFLC__SEAM void tflc__fc_s8_prepare_portable(void *record, void *buf,
                                             const tflc_fc_params *p,
                                             int32_t accum, int32_t depth,
                                             const tflc_const *filter,
                                             const tflc_const *bias) {
  (void)record, (void)buf, (void)p, (void)accum, (void)depth, (void)filter,
      (void)bias;
}
TFLC__INLINE void tflc__fc_s8_run_portable(
    const void *record, const tflc_fc_params *p, int32_t batches, int32_t accum,
    int32_t depth, const int8_t *in, const tflc_const *filter,
    const tflc_const *bias, int8_t *out, void *tile, size_t tile_bytes) {
  (void)record;
  tflc_fully_connected_s8(p, batches, accum, depth, in, filter, bias, out, tile,
                          tile_bytes);
}

TFLC_API size_t tflc_fully_connected_s8_prepare_bytes(const tflc_fc_params *p,
                                                      int32_t accum_depth,
                                                      int32_t out_depth,
                                                      const tflc_const *filter,
                                                      const tflc_const *bias) {
  return TFLC__FC_S8_PREPARE_BYTES(p, accum_depth, out_depth, filter, bias);
}
TFLC_API void tflc_fully_connected_s8_prepare(
    void *record, void *buf, const tflc_fc_params *p, int32_t accum_depth,
    int32_t out_depth, const tflc_const *filter, const tflc_const *bias) {
  TFLC__FC_S8_PREPARE(record, buf, p, accum_depth, out_depth, filter, bias);
}
TFLC_API void tflc_fully_connected_s8_run(const void *record,
                                          const tflc_fc_params *p,
                                          int32_t batches, int32_t accum_depth,
                                          int32_t out_depth, const int8_t *in,
                                          const tflc_const *filter,
                                          const tflc_const *bias, int8_t *out,
                                          void *tile, size_t tile_bytes) {
  TFLC__FC_S8_RUN(record, p, batches, accum_depth, out_depth, in, filter, bias,
                  out, tile, tile_bytes);
}

static float tflc__ldf(const uint8_t *p) {
  float f;
  memcpy(&f, p, 4);
  return f;
}

/* sequential float sum, continuing from `total` (same order as TFLM) */
static float tflc__fc_dot_f32(float total, const uint8_t *w, const float *x,
                              int32_t n) {
  int32_t d;
  for (d = 0; d < n; d++) {
    const float prod = x[d] * tflc__ldf(w + 4 * d);
    total += prod;
  }
  return total;
}

TFLC_API void tflc_fully_connected_f32(float act_min, float act_max,
                                       int32_t batches, int32_t accum_depth,
                                       int32_t out_depth, const float *in,
                                       const tflc_const *filter,
                                       const tflc_const *bias, float *out,
                                       void *tile, size_t tile_bytes) {
  tflc__small_tile small;
  uint8_t *t = (uint8_t *)tile;
  int32_t cap =
      (int32_t)((tile_bytes > 0x7FFFFFFF ? 0x7FFFFFFF : tile_bytes) / 4u);
  const int32_t D = accum_depth;
  int32_t o, b;
  TFLC_ASSERT(filter->type == TFLC_FLOAT32);
  if (filter->bits != 0 && (t == NULL || cap < (int32_t)sizeof small.b / 4)) {
    t = small.b;
    cap = (int32_t)sizeof small.b / 4;
  }
  for (o = 0; o < out_depth; o++) {
    const float bv = bias != NULL ? tflc_const_f32(bias, o) : 0.0f;
    const int whole = filter->bits == 0 || D <= cap;
    const uint8_t *row =
        whole ? (const uint8_t *)tflc_const_span(filter, o * D, D, t) : NULL;
    for (b = 0; b < batches; b++) {
      float total = 0.0f, v;
      if (whole) {
        total = tflc__fc_dot_f32(total, row, in + b * D, D);
      } else {
        int32_t d0;
        for (d0 = 0; d0 < D; d0 += cap) {
          const int32_t m = D - d0 < cap ? D - d0 : cap;
          tflc_lut_decode(filter, o * D + d0, m, t);
          total = tflc__fc_dot_f32(total, t, in + b * D + d0, m);
        }
      }
      /* bias (0.0f when absent) then min(max(v, lo), hi) as std:: does */
      v = total + bv;
      v = v < act_min ? act_min : v;
      v = act_max < v ? act_max : v;
      out[b * out_depth + o] = v;
    }
  }
}

/* ======================================================================== */
/* Pooling, softmax, ADD, MEAN, PAD, TRANSPOSE, (de)quantization, and the   */
/* gemmlowp fixed-point helpers                                             */
/* ======================================================================== */
/* Pooling,
 * softmax, element-wise add, MEAN, PAD, TRANSPOSE, quantize/dequantize.
 *
 * Relies on the quantization helpers above
 * (tflc_quantize_multiplier, tflc_saturating_rounding_doubling_high_mul,
 * tflc_rounding_divide_by_pot, tflc_multiply_by_quantized_multiplier,
 * tflc_activation_range_quantized). All arithmetic follows TFLM's reference
 * kernels bit for bit; see reference/INT8_KERNELS.md sections 1, 3, 4, 5.1, 6.
 */

/* ---- small integer helpers ---------------------------------------------- */

/* Reinterpret the low 32 bits as a two's complement int32 (no UB). */
static int32_t tflc__kop_i32(uint32_t u) {
  return u <= 0x7FFFFFFFu ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}

/* Wrapping int32 add / subtract (gemmlowp's int32 fixed-point +, -). */
static int32_t tflc__kop_add(int32_t a, int32_t b) {
  return tflc__kop_i32((uint32_t)a + (uint32_t)b);
}
static int32_t tflc__kop_sub(int32_t a, int32_t b) {
  return tflc__kop_i32((uint32_t)a - (uint32_t)b);
}

static int tflc__kop_clz32(uint32_t x) {
  int n = 0;
  if (x == 0)
    return 32;
  while (!(x & 0x80000000u)) {
    x <<= 1;
    ++n;
  }
  return n;
}

static int tflc__kop_clz64(uint64_t x) {
  int n = 0;
  if (x == 0)
    return 64;
  while (!(x & ((uint64_t)1 << 63))) {
    x <<= 1;
    ++n;
  }
  return n;
}

/* ---- gemmlowp fixed point (scalar int32) ---------------------------------
 * A raw int32 with k integer bits holds value raw * 2^(k - 31). */

/* Saturating multiply by 2^e, 0 <= e <= 31 (gemmlowp's Rescale to fewer
 * integer bits): beyond +-(2^(31-e) - 1) the result saturates. */
static int32_t tflc__fp_sat_shl(int32_t x, int e) {
  int32_t limit;
  if (e <= 0)
    return x;
  limit = (int32_t)((((uint32_t)1) << (31 - e)) - 1u);
  if (x > limit)
    return INT32_MAX;
  if (x < -limit)
    return INT32_MIN;
  return tflc__kop_i32((uint32_t)x << e);
}

/* (a + b) / 2 rounded half away from zero, in 64 bits. */
static int32_t tflc__fp_half_sum(int32_t a, int32_t b) {
  const int64_t s = (int64_t)a + (int64_t)b;
  return (int32_t)((s + (s >= 0 ? 1 : -1)) / 2);
}

/* exp(a) for a in [-1/4, 0), a and result with 0 integer bits. Taylor series
 * of degree 4 around -1/8. */
static int32_t tflc__fp_exp_quarter(int32_t a) {
  const int32_t exp_m1_8 = 1895147668; /* exp(-1/8) */
  const int32_t third = 715827883;     /* 1/3 */
  const int32_t x = tflc__kop_add(a, (int32_t)1 << 28);
  const int32_t x2 = tflc_saturating_rounding_doubling_high_mul(x, x);
  const int32_t x3 = tflc_saturating_rounding_doubling_high_mul(x2, x);
  const int32_t x4 = tflc_saturating_rounding_doubling_high_mul(x2, x2);
  const int32_t x4_4 = tflc_rounding_divide_by_pot(x4, 2);
  const int32_t poly = tflc_rounding_divide_by_pot(
      tflc__kop_add(tflc_saturating_rounding_doubling_high_mul(
                        tflc__kop_add(x4_4, x3), third),
                    x2),
      1);
  return tflc__kop_add(exp_m1_8, tflc_saturating_rounding_doubling_high_mul(
                                     exp_m1_8, tflc__kop_add(x, poly)));
}

/* exp(a) for a <= 0 given with `ibits` integer bits (0..29); result has 0
 * integer bits. Splits a into a multiple of 1/4 and a rest in [-1/4, 0),
 * then multiplies in exp(-2^e) for each set bit of the multiple. */
TFLC_INTERNAL int32_t tflc__fp_exp_neg(int32_t a, int ibits) {
  static const int32_t factors[7] = {
      1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  const int fbits = 31 - ibits;
  const int32_t quarter = (int32_t)1 << (fbits - 2);
  const int32_t a_mod = (a & (quarter - 1)) - quarter;
  const uint32_t rest = (uint32_t)tflc__kop_sub(a_mod, a);
  int32_t r = tflc__fp_exp_quarter(tflc__fp_sat_shl(a_mod, ibits));
  int e;
  for (e = -2; e <= 4; ++e) {
    if (ibits > e && (rest & ((uint32_t)1 << (fbits + e))) != 0)
      r = tflc_saturating_rounding_doubling_high_mul(r, factors[e + 2]);
  }
  if (ibits > 5 && a < -((int32_t)1 << (36 - ibits)))
    r = 0;
  if (a == 0)
    r = INT32_MAX;
  return r;
}

/* 1 / (1 + a) for a in [0, 1), both with 0 integer bits: Newton-Raphson
 * in a 2-integer-bit format starting from 48/17 - 32/17 * d. */
TFLC_INTERNAL int32_t tflc__fp_recip_1px(int32_t a) {
  const int32_t one_q2 = (int32_t)1 << 29;
  const int32_t d = tflc__fp_half_sum(a, INT32_MAX);
  int32_t x = tflc__kop_add(
      1515870810, tflc_saturating_rounding_doubling_high_mul(d, -1010580540));
  int i;
  for (i = 0; i < 3; ++i) {
    const int32_t dx = tflc_saturating_rounding_doubling_high_mul(d, x);
    const int32_t err = tflc__kop_sub(one_q2, dx);
    x = tflc__kop_add(
        x, tflc__fp_sat_shl(tflc_saturating_rounding_doubling_high_mul(x, err),
                            2));
  }
  return tflc__fp_sat_shl(x, 1);
}

/* TFLM GetReciprocal: 1/x for x with `ibits` integer bits, returned as a
 * 0-integer-bit value scaled by 2^-(*bits_over_unit). */
TFLC_INTERNAL int32_t tflc__fp_reciprocal(int32_t x, int ibits,
                                          int *bits_over_unit) {
  const int h = tflc__kop_clz32((uint32_t)x);
  const uint32_t norm = h >= 32 ? 0u : ((uint32_t)x << h);
  *bits_over_unit = ibits - h;
  return tflc__fp_recip_1px(tflc__kop_i32(norm - 0x80000000u));
}

/* TFLM CalculateInputRadius with 31 total bits, in double like TFLM. */
TFLC__INTERNAL_INLINE int32_t tflc__fp_input_radius(int ibits, int left_shift) {
  /* TFLM: floor((2^ibits - 1) * 2^(31 - ibits) / 2^left_shift) in double,
   * capped at INT32_MAX; exact in integers (no libm) */
  const int64_t n = (((int64_t)1 << ibits) - 1) << (31 - ibits);
  if (left_shift >= 0)
    return left_shift > 62 ? 0 : (int32_t)(n >> left_shift);
  if (left_shift < -31 || (n << -left_shift) >= INT32_MAX)
    return INT32_MAX;
  return (int32_t)(n << -left_shift);
}

/* ---- pooling ------------------------------------------------------------ */

/* Clipped filter window of one output position on one axis. */
static void tflc__pool_window(int32_t out_pos, int32_t stride, int32_t pad,
                              int32_t filter, int32_t in_size, int32_t *origin,
                              int32_t *start, int32_t *end) {
  const int32_t o = out_pos * stride - pad;
  *origin = o;
  *start = o < 0 ? -o : 0;
  *end = filter < in_size - o ? filter : in_size - o;
}

TFLC_API tflc_status tflc_avg_pool_s8(const tflc_pool_params *p,
                                      const int32_t in_dims[4],
                                      const int8_t *in,
                                      const int32_t out_dims[4], int8_t *out) {
  const int32_t batches = in_dims[0], in_h = in_dims[1], in_w = in_dims[2];
  const int32_t depth = in_dims[3];
  const int32_t out_h = out_dims[1], out_w = out_dims[2];
  int32_t b, oy, ox, c, fy, fx;
  for (b = 0; b < batches; ++b) {
    for (oy = 0; oy < out_h; ++oy) {
      int32_t y0, ys, ye;
      tflc__pool_window(oy, p->stride_h, p->pad_h, p->filter_h, in_h, &y0, &ys,
                        &ye);
      for (ox = 0; ox < out_w; ++ox) {
        int32_t x0, xs, xe;
        int8_t *dst =
            out + (((size_t)b * (size_t)out_h + (size_t)oy) * (size_t)out_w +
                   (size_t)ox) *
                      (size_t)depth;
        tflc__pool_window(ox, p->stride_w, p->pad_w, p->filter_w, in_w, &x0,
                          &xs, &xe);
        for (c = 0; c < depth; ++c) {
          int32_t acc = 0, n = 0;
          for (fy = ys; fy < ye; ++fy) {
            const int8_t *row =
                in + ((size_t)b * (size_t)in_h + (size_t)(y0 + fy)) *
                         (size_t)in_w * (size_t)depth;
            for (fx = xs; fx < xe; ++fx) {
              acc += row[(size_t)(x0 + fx) * (size_t)depth + (size_t)c];
              ++n;
            }
          }
          if (n == 0)
            return TFLC_ERR_KERNEL;
          /* round half away from zero with truncating division */
          acc = acc > 0 ? (acc + n / 2) / n : (acc - n / 2) / n;
          if (acc < p->act_min)
            acc = p->act_min;
          if (acc > p->act_max)
            acc = p->act_max;
          dst[c] = (int8_t)acc;
        }
      }
    }
  }
  return TFLC_OK;
}

TFLC_API void tflc_max_pool_s8(const tflc_pool_params *p,
                               const int32_t in_dims[4], const int8_t *in,
                               const int32_t out_dims[4], int8_t *out) {
  const int32_t batches = in_dims[0], in_h = in_dims[1], in_w = in_dims[2];
  const int32_t depth = in_dims[3];
  const int32_t out_h = out_dims[1], out_w = out_dims[2];
  int32_t b, oy, ox, c, fy, fx;
  for (b = 0; b < batches; ++b) {
    for (oy = 0; oy < out_h; ++oy) {
      int32_t y0, ys, ye;
      tflc__pool_window(oy, p->stride_h, p->pad_h, p->filter_h, in_h, &y0, &ys,
                        &ye);
      for (ox = 0; ox < out_w; ++ox) {
        int32_t x0, xs, xe;
        int8_t *dst =
            out + (((size_t)b * (size_t)out_h + (size_t)oy) * (size_t)out_w +
                   (size_t)ox) *
                      (size_t)depth;
        tflc__pool_window(ox, p->stride_w, p->pad_w, p->filter_w, in_w, &x0,
                          &xs, &xe);
        for (c = 0; c < depth; ++c) {
          int32_t m = -128;
          for (fy = ys; fy < ye; ++fy) {
            const int8_t *row =
                in + ((size_t)b * (size_t)in_h + (size_t)(y0 + fy)) *
                         (size_t)in_w * (size_t)depth;
            for (fx = xs; fx < xe; ++fx) {
              const int32_t v =
                  row[(size_t)(x0 + fx) * (size_t)depth + (size_t)c];
              if (v > m)
                m = v;
            }
          }
          if (m < p->act_min)
            m = p->act_min;
          if (m > p->act_max)
            m = p->act_max;
          dst[c] = (int8_t)m;
        }
      }
    }
  }
}

/* ---- softmax ------------------------------------------------------------ */

TFLC_API TFLC__PREPARE_CODE void
tflc_softmax_prepare_s8(float beta, float in_scale, tflc_softmax_params *p) {
  /* TFLM PreprocessSoftmaxScaling with 5 integer bits for the scaled
   * difference (its CHECK requires the real multiplier to exceed 1). */
  /* real = (double)beta * in_scale * 2^26 (exact), at most 2^31 - 1 */
  uint64_t m;
  int32_t e, q = 0, shift = 0;
  uint32_t neg;
  const int k =
      tflc__float_ratio(beta, in_scale, 1.0f / 67108864.0f, &m, &e, &neg);
  if (!neg && (k == TFLC__FP_INF ||
               (k == TFLC__FP_FINITE &&
                (e >= 0 || (e > -33 && m > ((uint64_t)0x7FFFFFFF << -e)))))) {
    q = 0x7FFFFFFF; /* tflc_quantize_multiplier(2^31 - 1) */
    shift = 31;
  } else if (k == TFLC__FP_FINITE) {
    tflc__quantize_parts(m, e, neg, &q, &shift);
  }
  p->input_multiplier = q;
  p->input_left_shift = shift;
  p->diff_min = -tflc__fp_input_radius(5, shift);
}

/* int8 input; int8 (out_bits 8, zero point -128) or int16 (out_bits 16,
 * zero point -32768) output. */
static void tflc__softmax_s8_core(const tflc_softmax_params *p, int32_t rows,
                                  int32_t depth, const int8_t *in, void *out,
                                  int out_bits) {
  const int32_t mult = p->input_multiplier;
  const int32_t shift = p->input_left_shift;
  const int32_t diff_min = p->diff_min;
  int32_t r, c;
  for (r = 0; r < rows; ++r) {
    const int8_t *x = in + (size_t)r * (size_t)depth;
    int32_t max = -128, sum = 0, recip;
    int bits_over_unit, exponent;
    for (c = 0; c < depth; ++c) {
      if (x[c] > max)
        max = x[c];
    }
    /* sum of exps with 12 integer bits (wrapping add, as gemmlowp) */
    for (c = 0; c < depth; ++c) {
      const int32_t diff = (int32_t)x[c] - max;
      if (diff >= diff_min) {
        const int32_t e = tflc__fp_exp_neg(
            tflc_multiply_by_quantized_multiplier(diff, mult, shift), 5);
        sum = tflc__kop_add(sum, tflc_rounding_divide_by_pot(e, 12));
      }
    }
    recip = tflc__fp_reciprocal(sum, 12, &bits_over_unit);
    exponent = bits_over_unit + 31 - out_bits;
    /* TFLM CHECK-fails outside [0, 31]; stay defined here */
    if (exponent < 0)
      exponent = 0;
    if (exponent > 31)
      exponent = 31;
    for (c = 0; c < depth; ++c) {
      const int32_t diff = (int32_t)x[c] - max;
      if (diff >= diff_min) {
        const int32_t e = tflc__fp_exp_neg(
            tflc_multiply_by_quantized_multiplier(diff, mult, shift), 5);
        const int32_t lo = out_bits == 8 ? -128 : -32768, hi = -lo - 1;
        int32_t v = tflc_rounding_divide_by_pot(
                        tflc_saturating_rounding_doubling_high_mul(recip, e),
                        exponent) +
                    lo;
        if (v > hi)
          v = hi;
        if (v < lo)
          v = lo;
        if (out_bits == 8)
          ((int8_t *)out)[(size_t)r * (size_t)depth + (size_t)c] = (int8_t)v;
        else
          ((int16_t *)out)[(size_t)r * (size_t)depth + (size_t)c] = (int16_t)v;
      } else if (out_bits == 8) {
        ((int8_t *)out)[(size_t)r * (size_t)depth + (size_t)c] = -128;
      } else {
        ((int16_t *)out)[(size_t)r * (size_t)depth + (size_t)c] = -32768;
      }
    }
  }
}

TFLC_API void tflc_softmax_s8(const tflc_softmax_params *p, int32_t rows,
                              int32_t depth, const int8_t *in, int8_t *out) {
  tflc__softmax_s8_core(p, rows, depth, in, out, 8);
}
TFLC_API void tflc_softmax_s8_s16(const tflc_softmax_params *p, int32_t rows,
                                  int32_t depth, const int8_t *in,
                                  int16_t *out) {
  tflc__softmax_s8_core(p, rows, depth, in, out, 16);
}

TFLC_API void tflc_softmax_f32(float beta, int32_t rows, int32_t depth,
                               const float *in, float *out) {
  int32_t r, c;
  for (r = 0; r < rows; ++r) {
    const float *x = in + (size_t)r * (size_t)depth;
    float *y = out + (size_t)r * (size_t)depth;
    float max = -3.40282346638528859811704183484516925e+38F, sum = 0.0f;
    for (c = 0; c < depth; ++c) {
      if (max < x[c])
        max = x[c];
    }
    for (c = 0; c < depth; ++c) {
      const float e = expf((x[c] - max) * beta);
      y[c] = e;
      sum += e;
    }
    for (c = 0; c < depth; ++c)
      y[c] = y[c] / sum;
  }
}

/* ---- element-wise add --------------------------------------------------- */

TFLC_API void tflc_add_prepare_s8(float s1, int32_t z1, float s2, int32_t z2,
                                  float so, int32_t zo, int act,
                                  tflc_add_params *p) {
  const double twice_max = 2 * (double)(s1 < s2 ? s2 : s1);
  const double m1 = (double)s1 / twice_max;
  const double m2 = (double)s2 / twice_max;
  const double mo = twice_max / ((double)(1 << 20) * (double)so);
  p->input1_offset = -z1;
  p->input2_offset = -z2;
  p->output_offset = zo;
  p->left_shift = 20;
  tflc_quantize_multiplier(m1, &p->input1_multiplier, &p->input1_shift);
  tflc_quantize_multiplier(m2, &p->input2_multiplier, &p->input2_shift);
  tflc_quantize_multiplier(mo, &p->output_multiplier, &p->output_shift);
  tflc_activation_range_quantized(act, so, zo, -128, 127, &p->act_min,
                                  &p->act_max);
}

/* Odometer over an output shape of rank <= TFLC_MAX_DIMS that tracks the
 * element offsets of two broadcast inputs (stride 0 on broadcast axes). */
typedef struct tflc__bcast {
  int32_t rank;
  int32_t dims[TFLC_MAX_DIMS];
  int32_t idx[TFLC_MAX_DIMS];
  size_t st1[TFLC_MAX_DIMS], st2[TFLC_MAX_DIMS];
  size_t off1, off2;
} tflc__bcast;

static size_t tflc__bcast_init(tflc__bcast *it, int32_t rank,
                               const int32_t *dims1, const int32_t *dims2,
                               const int32_t *out_dims) {
  size_t s1 = 1, s2 = 1, total = 1;
  int32_t k;
  it->rank = rank;
  it->off1 = it->off2 = 0;
  for (k = rank - 1; k >= 0; --k) {
    it->dims[k] = out_dims[k];
    it->idx[k] = 0;
    it->st1[k] = dims1[k] == 1 ? 0 : s1;
    it->st2[k] = dims2[k] == 1 ? 0 : s2;
    s1 *= (size_t)dims1[k];
    s2 *= (size_t)dims2[k];
    total *= (size_t)out_dims[k];
  }
  return total;
}

static void tflc__bcast_next(tflc__bcast *it) {
  int32_t k;
  for (k = it->rank - 1; k >= 0; --k) {
    it->off1 += it->st1[k];
    it->off2 += it->st2[k];
    if (++it->idx[k] < it->dims[k])
      return;
    it->off1 -= it->st1[k] * (size_t)it->dims[k];
    it->off2 -= it->st2[k] * (size_t)it->dims[k];
    it->idx[k] = 0;
  }
}

static int8_t tflc__add_one_s8(const tflc_add_params *p, int32_t x1,
                               int32_t x2) {
  const int32_t a = (p->input1_offset + x1) * ((int32_t)1 << p->left_shift);
  const int32_t b = (p->input2_offset + x2) * ((int32_t)1 << p->left_shift);
  const int32_t sa = tflc_multiply_by_quantized_multiplier(
      a, p->input1_multiplier, p->input1_shift);
  const int32_t sb = tflc_multiply_by_quantized_multiplier(
      b, p->input2_multiplier, p->input2_shift);
  int32_t y = tflc_multiply_by_quantized_multiplier(
                  sa + sb, p->output_multiplier, p->output_shift) +
              p->output_offset;
  if (y < p->act_min)
    y = p->act_min;
  if (y > p->act_max)
    y = p->act_max;
  return (int8_t)y;
}

/* MultiplyByQuantizedMultiplier inlined (the same arithmetic as
 * tflc_multiply_by_quantized_multiplier, for shifts in [-31, 31]) */
TFLC__INLINE int32_t tflc__mbqm_inline(int32_t x, int32_t q, int32_t shift) {
  const uint32_t left = shift > 0 ? (uint32_t)shift : 0u;
  const uint32_t right = shift > 0 ? 0u : (uint32_t)-shift;
  const int32_t xs = tflc__wrap32((int64_t)((uint32_t)x << left));
  int32_t v;
  if (xs == INT32_MIN && q == INT32_MIN) {
    v = INT32_MAX;
  } else {
    const uint64_t prod = (uint64_t)((int64_t)xs * (int64_t)q) + (1u << 30);
    v = tflc__wrap32((int64_t)(uint32_t)(prod >> 31));
  }
  {
    const int32_t mask = (int32_t)((1u << right) - 1u);
    const int32_t threshold = (mask >> 1) + (v < 0 ? 1 : 0);
    return tflc__asr32(v, (int)right) + ((v & mask) > threshold);
  }
}

TFLC_API void tflc_add_elementwise_s8_portable(const tflc_add_params *p,
                                               size_t n, const int8_t *in1,
                                               const int8_t *in2, int8_t *out) {
  /* the multiplies inlined (the parameters in locals, out of reach of the
   * int8 stores) */
  const int32_t o1 = p->input1_offset, o2 = p->input2_offset;
  const uint32_t ls = (uint32_t)p->left_shift;
  const int32_t q1 = p->input1_multiplier, s1 = p->input1_shift;
  const int32_t q2 = p->input2_multiplier, s2 = p->input2_shift;
  const int32_t qo = p->output_multiplier, so = p->output_shift;
  const int32_t zo = p->output_offset, lo = p->act_min, hi = p->act_max;
  size_t i;
  for (i = 0; i < n; ++i) {
    const int32_t a =
        tflc__wrap32((int64_t)((uint32_t)((int32_t)in1[i] + o1) << ls));
    const int32_t b =
        tflc__wrap32((int64_t)((uint32_t)((int32_t)in2[i] + o2) << ls));
    const int32_t sum =
        tflc__wrap32((int64_t)((uint32_t)tflc__mbqm_inline(a, q1, s1) +
                               (uint32_t)tflc__mbqm_inline(b, q2, s2)));
    int32_t y =
        tflc__wrap32((int64_t)tflc__mbqm_inline(sum, qo, so) + (int64_t)zo);
    y = y < lo ? lo : y;
    y = y > hi ? hi : y;
    out[i] = (int8_t)y;
  }
}

TFLC_API void tflc_add_s8(const tflc_add_params *p, int32_t rank,
                          const int32_t *dims1, const int8_t *in1,
                          const int32_t *dims2, const int8_t *in2,
                          const int32_t *out_dims, int8_t *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  int32_t k, same = 1;
  for (k = 0; k < rank; k++)
    same &= dims1[k] == out_dims[k] && dims2[k] == out_dims[k];
  if (same && p->left_shift >= 0 && p->left_shift <= 20 &&
      p->input1_shift >= -31 && p->input1_shift <= 31 &&
      p->input2_shift >= -31 && p->input2_shift <= 31 &&
      p->output_shift >= -31 && p->output_shift <= 31) {
    /* no broadcast: the element-wise primitive */
    TFLC_ADD_ELEMENTWISE_S8(p, n, in1, in2, out);
    return;
  }
  for (i = 0; i < n; ++i) {
    out[i] = tflc__add_one_s8(p, in1[it.off1], in2[it.off2]);
    tflc__bcast_next(&it);
  }
}

TFLC_API void tflc_add_f32(float act_min, float act_max, int32_t rank,
                           const int32_t *dims1, const float *in1,
                           const int32_t *dims2, const float *in2,
                           const int32_t *out_dims, float *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    float v = in1[it.off1] + in2[it.off2];
    /* min(max(v, lo), hi) with std::max/std::min's comparison order */
    v = v < act_min ? act_min : v;
    v = act_max < v ? act_max : v;
    out[i] = v;
    tflc__bcast_next(&it);
  }
}

/* ---- reductions --------------------------------------------------------- */

TFLC_API void tflc_mean_s8(const tflc_mean_params *p, int32_t rank,
                           const int32_t *in_dims, uint32_t axis_mask,
                           const int8_t *in, int8_t *out) {
  /* Kept axes (outer odometer) and reduced axes (inner odometer), each with
   * its input stride, in input order. */
  int32_t kd[TFLC_MAX_DIMS], rd[TFLC_MAX_DIMS], ki[TFLC_MAX_DIMS],
      ri[TFLC_MAX_DIMS];
  size_t ks[TFLC_MAX_DIMS], rs[TFLC_MAX_DIMS];
  int32_t nk = 0, nr = 0, k;
  size_t stride = 1, n_out = 1, o, base = 0;
  int64_t n_red = 1;
  int32_t q = p->multiplier, shift = p->shift;
  int any_empty = 0;
  for (k = rank - 1; k >= 0; --k) {
    if (in_dims[k] == 0)
      any_empty = 1;
    if (axis_mask & ((uint32_t)1 << k))
      ++nr;
    else
      ++nk;
  }
  {
    int32_t a = nk, b = nr;
    for (k = rank - 1; k >= 0; --k) {
      if (axis_mask & ((uint32_t)1 << k)) {
        --b;
        rd[b] = in_dims[k];
        rs[b] = stride;
        ri[b] = 0;
        n_red *= in_dims[k];
      } else {
        --a;
        kd[a] = in_dims[k];
        ks[a] = stride;
        ki[a] = 0;
        n_out *= (size_t)in_dims[k];
      }
      stride *= (size_t)in_dims[k];
    }
  }
  if (any_empty) {
    /* TFLM zeroes the output and stops */
    for (o = 0; o < n_out; ++o)
      out[o] = 0;
    return;
  }
  {
    /* fold 1/N into the multiplier, as TFLM's QuantizedMeanOrSum */
    int sh = 63 - tflc__kop_clz64((uint64_t)n_red);
    if (sh > 32)
      sh = 32;
    if (sh > 31 + shift)
      sh = 31 + shift;
    if (sh < 0)
      sh = 0;
    q = (int32_t)(((int64_t)q * ((int64_t)1 << sh)) / n_red);
    shift -= sh;
  }
  for (o = 0; o < n_out; ++o) {
    int32_t sum = 0, y;
    size_t off = base;
    int64_t i;
    for (i = 0; i < n_red; ++i) {
      sum = tflc__kop_add(sum, in[off]);
      for (k = nr - 1; k >= 0; --k) {
        off += rs[k];
        if (++ri[k] < rd[k])
          break;
        off -= rs[k] * (size_t)rd[k];
        ri[k] = 0;
      }
    }
    y = tflc_multiply_by_quantized_multiplier(
            tflc__kop_i32((uint32_t)(uint64_t)((int64_t)sum -
                                               (int64_t)p->input_zp * n_red)),
            q, shift) +
        p->output_zp;
    if (y < -128)
      y = -128;
    if (y > 127)
      y = 127;
    out[o] = (int8_t)y;
    for (k = nk - 1; k >= 0; --k) {
      base += ks[k];
      if (++ki[k] < kd[k])
        break;
      base -= ks[k] * (size_t)kd[k];
      ki[k] = 0;
    }
  }
}

/* ---- data movement ------------------------------------------------------ */

/* n bytes of the element at v (es bytes, n a multiple of es) repeated:
 * one element, then the filled part copied onto the rest */
static void tflc__fill_elems(unsigned char *dst, size_t n, const void *v,
                             size_t es) {
  size_t done;
  if (n == 0)
    return;
  if (es == 1) {
    memset(dst, *(const unsigned char *)v, n);
    return;
  }
  memcpy(dst, v, es);
  for (done = es; done < n;) {
    const size_t c = done < n - done ? done : n - done;
    memcpy(dst + done, dst, c);
    done += c;
  }
}

TFLC_API void tflc_pad(size_t elem_size, int32_t rank, const int32_t *in_dims,
                       const int32_t *before, const int32_t *after,
                       const void *pad_value, const void *in, void *out) {
  int32_t od[TFLC_MAX_DIMS], idx[TFLC_MAX_DIMS];
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  size_t rows = 1, row, inner = elem_size, nb, ni, n_out;
  int32_t k, last;
  if (rank <= 0) {
    memcpy(dst, src, elem_size);
    return;
  }
  /* the axes after the innermost padded one are one block of `inner`
   * bytes: rows of the output along the axes before `last`, each row the
   * blocks of `last` (padding, the input's, padding) */
  last = rank - 1;
  while (last > 0 && before[last] == 0 && after[last] == 0)
    inner *= (size_t)in_dims[last--];
  for (k = 0; k < last; ++k) {
    od[k] = before[k] + in_dims[k] + after[k];
    idx[k] = 0;
    rows *= (size_t)od[k];
  }
  nb = (size_t)before[last] * inner;
  ni = (size_t)in_dims[last] * inner;
  n_out = nb + ni + (size_t)after[last] * inner;
  for (row = 0; row < rows; ++row, dst += n_out) {
    int inside = ni > 0;
    for (k = 0; k < last; ++k)
      if (idx[k] < before[k] || idx[k] >= before[k] + in_dims[k])
        inside = 0;
    if (inside) {
      tflc__fill_elems(dst, nb, pad_value, elem_size);
      memcpy(dst + nb, src, ni);
      src += ni;
      tflc__fill_elems(dst + nb + ni, n_out - nb - ni, pad_value, elem_size);
    } else {
      tflc__fill_elems(dst, n_out, pad_value, elem_size);
    }
    for (k = last - 1; k >= 0; --k) {
      if (++idx[k] < before[k] + in_dims[k] + after[k])
        break;
      idx[k] = 0;
    }
  }
}

TFLC_API void tflc_transpose(size_t elem_size, int32_t rank,
                             const int32_t *in_dims, const int32_t *perm,
                             const void *in, void *out) {
  size_t in_st[TFLC_MAX_DIMS], st[TFLC_MAX_DIMS], s = 1, n = 1, i, off = 0;
  int32_t od[TFLC_MAX_DIMS], idx[TFLC_MAX_DIMS], k;
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  for (k = rank - 1; k >= 0; --k) {
    in_st[k] = s;
    s *= (size_t)in_dims[k];
  }
  for (k = 0; k < rank; ++k) {
    od[k] = in_dims[perm[k]];
    st[k] = in_st[perm[k]];
    idx[k] = 0;
    n *= (size_t)od[k];
  }
  for (i = 0; i < n; ++i) {
    switch (elem_size) {
    case 1:
      dst[i] = src[off];
      break;
    case 2:
      memcpy(dst + i * 2, src + off * 2, 2);
      break;
    case 4:
      memcpy(dst + i * 4, src + off * 4, 4);
      break;
    default:
      memcpy(dst + i * elem_size, src + off * elem_size, elem_size);
      break;
    }
    for (k = rank - 1; k >= 0; --k) {
      off += st[k];
      if (++idx[k] < od[k])
        break;
      off -= st[k] * (size_t)od[k];
      idx[k] = 0;
    }
  }
}

/* ---- quantize / dequantize ---------------------------------------------- */

/* zp + (int32)roundf(x / scale) as TFLM computes it on x86-64: float
 * division, round half away from zero, an out-of-range or NaN conversion
 * yields INT32_MIN (cvttss2si), the zero point add wraps. Where roundf is
 * not one instruction (VRINTA: Armv8 floating point), rounded without it:
 * below 2^23 the quotient minus its truncation is its exact fraction;
 * from 2^23 on every float is an integer. */
#if defined(__ARM_FEATURE_DIRECTED_ROUNDING) ||                                \
    (defined(__ARM_FP) && defined(__ARM_ARCH) && __ARM_ARCH >= 8)
#define TFLC__ROUNDF_INSN 1
#else
#define TFLC__ROUNDF_INSN 0
#endif
static int32_t tflc__quantize_one(float x, float scale, int32_t zp) {
  const float q = TFLC__ROUNDF_INSN ? roundf(x / scale) : x / scale;
  int32_t v;
  if (!TFLC__ROUNDF_INSN && fabsf(q) < 8388608.0f) { /* (not NaN) */
    float f;
    v = (int32_t)q;
    f = q - (float)v;
    v += (int32_t)(f + f); /* 1 from a half up, -1 from a half down */
  } else if (q >= -2147483648.0f && q < 2147483648.0f) {
    v = (int32_t)q;
  } else {
    v = INT32_MIN;
  }
  return tflc__kop_add(v, zp);
}

TFLC_API void tflc_quantize_f32_s8(float scale, int32_t zp, int32_t n,
                                   const float *in, int8_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    int32_t v = tflc__quantize_one(in[i], scale, zp);
    if (v < -128)
      v = -128;
    if (v > 127)
      v = 127;
    out[i] = (int8_t)v;
  }
}

TFLC_API void tflc_quantize_f32_s16(float scale, int32_t zp, int32_t n,
                                    const float *in, int16_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    int32_t v = tflc__quantize_one(in[i], scale, zp);
    if (v < -32768)
      v = -32768;
    if (v > 32767)
      v = 32767;
    out[i] = (int16_t)v;
  }
}

TFLC_API void tflc_requantize_s8(int32_t q, int32_t shift, int32_t in_zp,
                                 int32_t out_zp, int32_t n, const int8_t *in,
                                 int8_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    int32_t v = tflc_multiply_by_quantized_multiplier((int32_t)in[i] - in_zp, q,
                                                      shift) +
                out_zp;
    if (v > 127)
      v = 127;
    if (v < -128)
      v = -128;
    out[i] = (int8_t)v;
  }
}

TFLC_API void tflc_dequantize_s8_f32(float scale, int32_t zp, int32_t n,
                                     const int8_t *in, float *out) {
  int32_t i;
  for (i = 0; i < n; ++i)
    out[i] = (float)((double)scale * (double)((int32_t)in[i] - zp));
}

TFLC_API void tflc_dequantize_s16_f32(float scale, int32_t zp, int32_t n,
                                      const int16_t *in, float *out) {
  int32_t i;
  for (i = 0; i < n; ++i)
    out[i] = (float)((double)scale * (double)((int32_t)in[i] - zp));
}

/* ======================================================================== */
/* Element-wise arithmetic, activations, comparisons, reductions (MUL, SUB, */
/* int16 ADD, LOGISTIC, TANH, L2_NORMALIZATION, LOG_SOFTMAX, LEAKY_RELU,    */
/* HARD_SWISH, PRELU, RELU, RELU6, MAXIMUM, MINIMUM, comparisons, SUM,      */
/* ARG_MAX, ARG_MIN, integer QUANTIZE/DEQUANTIZE)                           */
/* ======================================================================== */
/* Reuses the section above: its gemmlowp helpers (tflc__fp_*),
 * wrapping int32 helpers (tflc__kop_*) and broadcast odometer
 * (tflc__bcast) are reused here. Bit-exact with TFLM's reference kernels;
 * see reference/INT8_KERNELS.md sections 1, 3, 5, 6. */

/* ---- element access ------------------------------------------------------ */

/* Element i of an int8 (w = 1) or int16 (w = 2) array. */
static int32_t tflc__load_int(const void *p, int w, size_t i) {
  if (w == 1)
    return ((const int8_t *)p)[i];
  return ((const int16_t *)p)[i];
}
/* Stores v clamped to [lo, hi] (within the type's range). */
static void tflc__store_int_clamped(void *p, int w, size_t i, int32_t v,
                                    int32_t lo, int32_t hi) {
  if (v < lo)
    v = lo;
  if (v > hi)
    v = hi;
  if (w == 1)
    ((int8_t *)p)[i] = (int8_t)v;
  else
    ((int16_t *)p)[i] = (int16_t)v;
}
static int32_t tflc__int_min_of_width(int w) {
  return w == 1 ? -128 : -32768;
}
static int32_t tflc__int_max_of_width(int w) {
  return w == 1 ? 127 : 32767;
}

/* Saturating int32 add / subtract (TFLM SaturatingAddNonGemmlowp,
 * SaturatingSub). */
static int32_t tflc__saturating_add32(int32_t a, int32_t b) {
  const int64_t s = (int64_t)a + (int64_t)b;
  return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}
static int32_t tflc__saturating_sub32(int32_t a, int32_t b) {
  const int64_t s = (int64_t)a - (int64_t)b;
  return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}
/* Wrapping int32 multiply (x86 behaviour of TFLM's plain int products). */
static int32_t tflc__wrapping_mul32(int32_t a, int32_t b) {
  return tflc__kop_i32((uint32_t)a * (uint32_t)b);
}

/* ---- fixed point beyond the gemmlowp helpers above ---------------------- */

/* (1 - a) / (1 + a) for a in [0, 1), both Q0.31 (gemmlowp
 * one_minus_x_over_one_plus_x_for_x_in_0_1): the Newton-Raphson iteration
 * of tflc__fp_recip_1px on (1 + a) / 2, then 2x - 1... as x - 1 in Q2.29
 * shifted left by 2 with saturation. */
static int32_t tflc__fp_one_minus_x_over_one_plus_x(int32_t a) {
  const int32_t one_q2 = (int32_t)1 << 29;
  const int32_t d = tflc__fp_half_sum(a, INT32_MAX);
  int32_t x = tflc__kop_add(
      1515870810, tflc_saturating_rounding_doubling_high_mul(d, -1010580540));
  int i;
  for (i = 0; i < 3; ++i) {
    const int32_t dx = tflc_saturating_rounding_doubling_high_mul(d, x);
    const int32_t err = tflc__kop_sub(one_q2, dx);
    x = tflc__kop_add(
        x, tflc__fp_sat_shl(tflc_saturating_rounding_doubling_high_mul(x, err),
                            2));
  }
  return tflc__fp_sat_shl(tflc__kop_sub(x, one_q2), 2);
}

/* gemmlowp logistic(a), a with `ibits` integer bits, result Q0.31. */
static int32_t tflc__fp_logistic(int32_t a, int ibits) {
  int32_t abs_a, pos;
  if (a == 0)
    return (int32_t)1 << 30;
  abs_a = a > 0 ? a : tflc__kop_sub(0, a);
  pos = tflc__fp_recip_1px(tflc__fp_exp_neg(tflc__kop_sub(0, abs_a), ibits));
  return a > 0 ? pos : tflc__kop_sub(INT32_MAX, pos);
}

/* gemmlowp tanh(a), a with `ibits` integer bits, result Q0.31. exp(2n)
 * is exp_on_negative_values of the same raw with one more integer bit. */
static int32_t tflc__fp_tanh(int32_t a, int ibits) {
  int32_t n, t;
  if (a == 0)
    return 0;
  n = a < 0 ? a : tflc__kop_sub(0, a);
  t = tflc__fp_one_minus_x_over_one_plus_x(tflc__fp_exp_neg(n, ibits + 1));
  return a < 0 ? tflc__kop_sub(0, t) : t;
}

/* TFLM log_x_for_x_greater_than_or_equal_to_1<5>(x in Q12.19), Q5.26. */
static int32_t tflc__fp_log_q12_to_q5(int32_t z) {
  const int32_t log2 = 1488522236, ssh = 1805811301, sh = 1518500250;
  const int32_t an = 117049297, ad = 127690142, ai = 1057819769, af = 638450708;
  const int acc_bits = 6; /* output integer bits + 1 */
  const int32_t sq = tflc_rounding_divide_by_pot(536870912, acc_bits);
  const int h1 = tflc__kop_clz32((uint32_t)z);
  const int32_t ra =
      tflc__fp_sat_shl(tflc_saturating_rounding_doubling_high_mul(
                           tflc__fp_sat_shl(z, h1 - 1), sh),
                       1);
  const int32_t za =
      tflc__saturating_add32(tflc__fp_sat_shl(12 - h1, 31 - acc_bits), sq);
  const int32_t zb = tflc_saturating_rounding_doubling_high_mul(z, sh);
  const int hb = tflc__kop_clz32((uint32_t)zb) - 1;
  const int32_t rb = tflc__fp_sat_shl(z, hb);
  const int32_t zb_adj =
      tflc__saturating_sub32(tflc__fp_sat_shl(12 - hb, 31 - acc_bits), sq);
  const int32_t r = ra < rb ? ra : rb;
  const int32_t zadj = za > zb_adj ? za : zb_adj;
  const int32_t p = tflc__fp_half_sum(r, ssh);
  int32_t q = tflc__kop_sub(r, ssh), cs, num, den, rd, s;
  q = tflc__kop_add(q, q);
  cs = tflc_saturating_rounding_doubling_high_mul(q, q);
  num =
      tflc__kop_add(tflc_saturating_rounding_doubling_high_mul(q, r),
                    tflc_saturating_rounding_doubling_high_mul(
                        tflc_saturating_rounding_doubling_high_mul(q, cs), an));
  den = tflc__kop_add(
      tflc_saturating_rounding_doubling_high_mul(
          p, tflc__kop_add(tflc__kop_add(ai, q),
                           tflc_saturating_rounding_doubling_high_mul(ad, cs))),
      tflc_saturating_rounding_doubling_high_mul(af, q));
  rd = tflc__fp_recip_1px(den);
  s = tflc__kop_add(tflc_saturating_rounding_doubling_high_mul(zadj, log2),
                    tflc_saturating_rounding_doubling_high_mul(
                        tflc_rounding_divide_by_pot(num, acc_bits), rd));
  return tflc__fp_sat_shl(s, acc_bits - 5);
}

/* TFLM GetInvSqrtQuantizedMultiplierExp(v, reverse_shift = -1). */
static void tflc__fp_inv_sqrt_multiplier(int32_t v, int32_t *mult,
                                         int32_t *shift) {
  const int32_t one_q3 = (int32_t)1 << 28;
  const int32_t half_three = ((int32_t)1 << 28) + ((int32_t)1 << 27);
  int32_t sh = 11, half_in, x;
  int pairs, i;
  if (v <= 1) {
    *mult = INT32_MAX;
    *shift = 0;
    return;
  }
  while (v >= ((int32_t)1 << 29)) {
    v /= 4;
    ++sh;
  }
  pairs = (tflc__kop_clz32((uint32_t)v) - 1) / 2 - 1;
  sh -= pairs;
  v = tflc__kop_i32((uint32_t)v << (2 * pairs));
  half_in = tflc_rounding_divide_by_pot(v >> 1, 1);
  x = one_q3;
  for (i = 0; i < 5; ++i) {
    const int32_t x3 = tflc__fp_sat_shl(
        tflc_saturating_rounding_doubling_high_mul(
            tflc_saturating_rounding_doubling_high_mul(x, x), x),
        6); /* Q9 -> Q3 */
    x = tflc__fp_sat_shl(
        tflc__kop_sub(tflc_saturating_rounding_doubling_high_mul(half_three, x),
                      tflc_saturating_rounding_doubling_high_mul(half_in, x3)),
        3); /* Q6 -> Q3 */
  }
  x = tflc_saturating_rounding_doubling_high_mul(x,
                                                 1518500250); /* * sqrt(1/2) */
  if (sh < 0) {
    x = tflc__kop_i32((uint32_t)x << (-sh));
    sh = 0;
  }
  *mult = x;
  *shift = -sh;
}

/* gemmlowp int16 SaturatingRoundingDoublingHighMul. */
static int32_t tflc__saturating_rounding_doubling_high_mul16(int32_t a,
                                                             int32_t b) {
  const int32_t ab = a * b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  if (a == -32768 && b == -32768)
    return 32767;
  return (int32_t)(int16_t)((ab + nudge) / (1 << 15));
}
/* gemmlowp RoundingDivideByPOT on int16 values (exponent 0..31; a mask
 * wider than 16 bits truncates to -1 as in the int16 instantiation). */
static int32_t tflc__rounding_divide_by_pot16(int32_t x, int e) {
  int32_t mask, rem, thr, r;
  if (e <= 0)
    return x;
  mask = e >= 16 ? -1 : (int32_t)((1 << e) - 1);
  rem = x & mask;
  thr = (mask >> 1) + (x < 0 ? 1 : 0);
  r = (e >= 16 ? (x < 0 ? -1 : 0) : (x >> e)) + (rem > thr ? 1 : 0);
  return (int32_t)(int16_t)r;
}
/* TFLM reference_ops::SaturatingLeftShift (int16). */
static int32_t tflc__saturating_shift_left16(int32_t v, int amount) {
  int64_t r = (int64_t)v * ((int64_t)1 << amount);
  if (r > 32767)
    r = 32767;
  if (r < -32768)
    r = -32768;
  return (int32_t)r;
}

/* ---- MUL ---------------------------------------------------------------- */

TFLC_API void tflc_mul_q(const tflc_mul_params *p, int w, int32_t rank,
                         const int32_t *dims1, const void *in1,
                         const int32_t *dims2, const void *in2,
                         const int32_t *out_dims, void *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    const int32_t a = p->input1_offset + tflc__load_int(in1, w, it.off1);
    const int32_t b = p->input2_offset + tflc__load_int(in2, w, it.off2);
    const int32_t y = p->output_offset +
                      tflc_multiply_by_quantized_multiplier(
                          tflc__wrapping_mul32(a, b), p->multiplier, p->shift);
    tflc__store_int_clamped(out, w, i, y, p->act_min, p->act_max);
    tflc__bcast_next(&it);
  }
}

/* ---- ADD / SUB ---------------------------------------------------------- */

/* QuantizeMultiplierSmallerThanOneExp: 0 when m is not in (0, 1). */
static int tflc__quantize_multiplier_below_one(double m, int32_t *q,
                                               int32_t *shift) {
  if (!(m > 0.0) || !(m < 1.0))
    return 0;
  tflc_quantize_multiplier(m, q, shift);
  return *shift <= 0;
}

TFLC_API int tflc_sub_prepare(float s1, int32_t z1, float s2, int32_t z2,
                              float so, int32_t zo, int act, int w,
                              tflc_add_params *p) {
  const int32_t ls = w == 1 ? 20 : 15;
  const float twice_max = 2 * (s1 < s2 ? s2 : s1);
  const double m1 = (double)(s1 / twice_max);
  const double m2 = (double)(s2 / twice_max);
  const double mo = (double)(twice_max / ((float)(1 << ls) * so));
  p->input1_offset = -z1;
  p->input2_offset = -z2;
  p->output_offset = zo;
  p->left_shift = ls;
  tflc_activation_range_quantized(act, so, zo, tflc__int_min_of_width(w),
                                  tflc__int_max_of_width(w), &p->act_min,
                                  &p->act_max);
  return tflc__quantize_multiplier_below_one(m1, &p->input1_multiplier,
                                             &p->input1_shift) &&
         tflc__quantize_multiplier_below_one(m2, &p->input2_multiplier,
                                             &p->input2_shift) &&
         tflc__quantize_multiplier_below_one(mo, &p->output_multiplier,
                                             &p->output_shift);
}

TFLC_API int tflc_add_prepare_s16(float s1, int32_t z1, float s2, int32_t z2,
                                  float so, int32_t zo, int act,
                                  tflc_add_params *p) {
  const double twice_max = 2 * (double)(s1 < s2 ? s2 : s1);
  const double m1 = (double)s1 / twice_max;
  const double m2 = (double)s2 / twice_max;
  const double mo = twice_max / ((double)(1 << 15) * (double)so);
  p->input1_offset = -z1;
  p->input2_offset = -z2;
  p->output_offset = zo;
  p->left_shift = 15;
  tflc_activation_range_quantized(act, so, zo, -32768, 32767, &p->act_min,
                                  &p->act_max);
  return tflc__quantize_multiplier_below_one(m1, &p->input1_multiplier,
                                             &p->input1_shift) &&
         tflc__quantize_multiplier_below_one(m2, &p->input2_multiplier,
                                             &p->input2_shift) &&
         tflc__quantize_multiplier_below_one(mo, &p->output_multiplier,
                                             &p->output_shift);
}

TFLC_API void tflc_add_sub_q(const tflc_add_params *p, int sub, int w,
                             int32_t rank, const int32_t *dims1,
                             const void *in1, const int32_t *dims2,
                             const void *in2, const int32_t *out_dims,
                             void *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  const int32_t scale = (int32_t)1 << p->left_shift;
  for (i = 0; i < n; ++i) {
    const int32_t a = tflc__wrapping_mul32(
        p->input1_offset + tflc__load_int(in1, w, it.off1), scale);
    const int32_t b = tflc__wrapping_mul32(
        p->input2_offset + tflc__load_int(in2, w, it.off2), scale);
    const int32_t sa = tflc_multiply_by_quantized_multiplier(
        a, p->input1_multiplier, p->input1_shift);
    const int32_t sb = tflc_multiply_by_quantized_multiplier(
        b, p->input2_multiplier, p->input2_shift);
    const int32_t raw = sub ? tflc__kop_sub(sa, sb) : tflc__kop_add(sa, sb);
    const int32_t y = tflc_multiply_by_quantized_multiplier(
                          raw, p->output_multiplier, p->output_shift) +
                      p->output_offset;
    tflc__store_int_clamped(out, w, i, y, p->act_min, p->act_max);
    tflc__bcast_next(&it);
  }
}

/* ---- LOGISTIC / TANH ---------------------------------------------------- */

TFLC_API void tflc_sigmoid_prepare_s8(float in_scale, int32_t in_zp,
                                      tflc_sigmoid_params *p) {
  /* 4 integer bits; frexp without QuantizeMultiplier's correction: a
   * mantissa rounding to 2^31 converts to INT32_MIN as on x86 */
  const double real = (double)in_scale * (double)(1 << 27);
  int e = 0;
  const double f = frexp(real, &e);
  const double r = round(f * 2147483648.0);
  p->input_zp = in_zp;
  p->multiplier = r >= 2147483648.0 ? INT32_MIN : (int32_t)r;
  p->shift = e;
  p->radius = tflc__fp_input_radius(4, e);
}

TFLC_API void tflc_logistic_s8(const tflc_sigmoid_params *p, int32_t n,
                               const int8_t *in, int8_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    const int32_t v = (int32_t)in[i] - p->input_zp;
    if (v <= -p->radius) {
      out[i] = -128;
    } else if (v >= p->radius) {
      out[i] = 127;
    } else {
      const int32_t q4 =
          tflc_multiply_by_quantized_multiplier(v, p->multiplier, p->shift);
      int32_t y =
          tflc_rounding_divide_by_pot(tflc__fp_logistic(q4, 4), 23) - 128;
      if (y < -128)
        y = -128;
      if (y > 127)
        y = 127;
      out[i] = (int8_t)y;
    }
  }
}

TFLC_API void tflc_tanh_s8(const tflc_sigmoid_params *p, int32_t n,
                           const int8_t *in, int8_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    const int32_t v = (int32_t)in[i] - p->input_zp;
    if (v <= -p->radius) {
      out[i] = -128;
    } else if (v >= p->radius) {
      out[i] = 127;
    } else {
      const int32_t q4 =
          tflc_multiply_by_quantized_multiplier(v, p->multiplier, p->shift);
      int32_t y = tflc_rounding_divide_by_pot(tflc__fp_tanh(q4, 4), 24);
      if (y < -128)
        y = -128;
      if (y > 127)
        y = 127;
      out[i] = (int8_t)y;
    }
  }
}

/* ---- RELU / RELU6 / LEAKY_RELU / PRELU ---------------------------------- */

TFLC_API void tflc_relu_q(const tflc_relu_params *p, int w, int32_t n,
                          const void *in, void *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    const int32_t x = tflc__load_int(in, w, (size_t)i);
    const int32_t y =
        p->clamp_only
            ? x
            : p->output_zp + tflc_multiply_by_quantized_multiplier(
                                 x - p->input_zp, p->multiplier, p->shift);
    tflc__store_int_clamped(out, w, (size_t)i, y, p->lo, p->hi);
  }
}

TFLC_API void tflc_leaky_relu_prepare(float in_scale, int32_t in_zp,
                                      float out_scale, int32_t out_zp,
                                      float alpha, tflc_leaky_relu_params *p) {
  p->input_zp = in_zp;
  p->output_zp = out_zp;
  tflc_quantize_multiplier((double)(in_scale * alpha / out_scale),
                           &p->mult_alpha, &p->shift_alpha);
  tflc_quantize_multiplier((double)(in_scale / out_scale), &p->mult_identity,
                           &p->shift_identity);
}

TFLC_API void tflc_leaky_relu_q(const tflc_leaky_relu_params *p, int w,
                                int32_t n, const void *in, void *out) {
  const int neg = p->mult_alpha < 0;
  const int32_t ma = neg ? tflc__kop_sub(0, p->mult_alpha) : p->mult_alpha;
  int32_t i;
  for (i = 0; i < n; ++i) {
    const int32_t v = tflc__load_int(in, w, (size_t)i) - p->input_zp;
    int32_t y = p->output_zp;
    if (v >= 0) {
      y += tflc_multiply_by_quantized_multiplier(v, p->mult_identity,
                                                 p->shift_identity);
    } else {
      const int32_t s =
          tflc_multiply_by_quantized_multiplier(v, ma, p->shift_alpha);
      y = neg ? tflc__kop_sub(y, s) : tflc__kop_add(y, s);
    }
    tflc__store_int_clamped(out, w, (size_t)i, y, tflc__int_min_of_width(w),
                            tflc__int_max_of_width(w));
  }
}

TFLC_API void tflc_prelu_q(const tflc_prelu_params *p, int w_in, int w_alpha,
                           int32_t rank, const int32_t *dims_in, const void *in,
                           const int32_t *dims_alpha, const void *alpha,
                           const int32_t *out_dims, void *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims_in, dims_alpha, out_dims);
  for (i = 0; i < n; ++i) {
    const int32_t v = p->input_offset + tflc__load_int(in, w_in, it.off1);
    int32_t y;
    if (v >= 0) {
      y = tflc_multiply_by_quantized_multiplier(v, p->mult1, p->shift1);
    } else {
      const int32_t a =
          p->alpha_offset + tflc__load_int(alpha, w_alpha, it.off2);
      y = tflc_multiply_by_quantized_multiplier(tflc__wrapping_mul32(v, a),
                                                p->mult2, p->shift2);
    }
    tflc__store_int_clamped(out, w_in, i, y + p->output_offset,
                            tflc__int_min_of_width(w_in),
                            tflc__int_max_of_width(w_in));
    tflc__bcast_next(&it);
  }
}

/* ---- HARD_SWISH --------------------------------------------------------- */

/* TFLM DownScaleInt32ToInt16Multiplier (q >= 0). */
static int16_t tflc__to_q15(int32_t q) {
  if (q >= INT32_MAX - (1 << 15))
    return 32767;
  return (int16_t)((q + (1 << 15)) >> 16);
}

TFLC_API int tflc_hard_swish_prepare_s8(float in_scale, int32_t in_zp,
                                        float out_scale, int32_t out_zp,
                                        tflc_hard_swish_params *p) {
  const float hires = (1.0f / 128.0f) * in_scale;
  const float reluish_scale = 3.0f / 32768.0f;
  int32_t q, e;
  p->input_zp = in_zp;
  p->output_zp = out_zp;
  tflc_quantize_multiplier((double)(hires / out_scale), &q, &e);
  p->output_mult = tflc__to_q15(q < 0 ? 0 : q);
  p->output_exp = e;
  tflc_quantize_multiplier((double)(hires / reluish_scale), &q, &e);
  p->reluish_mult = tflc__to_q15(q < 0 ? 0 : q);
  p->reluish_exp = e;
  return p->output_exp <= 0;
}

TFLC_API void tflc_hard_swish_s8(const tflc_hard_swish_params *p, int32_t n,
                                 const int8_t *in, int8_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    /* every intermediate is an int16 as in TFLM */
    const int32_t v = (int32_t)(int16_t)((int32_t)in[i] - p->input_zp);
    const int32_t hires = (int32_t)(int16_t)(v * 128);
    const int32_t pre =
        tflc__saturating_rounding_doubling_high_mul16(hires, p->output_mult);
    int32_t r = hires, t, y;
    if (p->reluish_exp > 0)
      r = tflc__saturating_shift_left16(r, (int)p->reluish_exp - 1);
    r = tflc__saturating_rounding_doubling_high_mul16(r, p->reluish_mult);
    if (p->reluish_exp > 0)
      r = tflc__saturating_shift_left16(r, 1);
    if (p->reluish_exp < 0)
      r = tflc__rounding_divide_by_pot16(r, (int)-p->reluish_exp);
    r = (int32_t)(int16_t)((r + (1 << 15)) >> 1);
    /* non-rounding doubling high mul, truncating division */
    t = (r == -32768 && pre == -32768) ? 32767
                                       : (int32_t)(int16_t)((r * pre) / 32768);
    y = tflc__rounding_divide_by_pot16(t, (int)-p->output_exp) + p->output_zp;
    y = (int32_t)(((uint32_t)y + 32768u) & 0xFFFFu) - 32768; /* int16 wrap */
    if (y > 127)
      y = 127;
    if (y < -128)
      y = -128;
    out[i] = (int8_t)y;
  }
}

/* ---- L2_NORMALIZATION --------------------------------------------------- */

TFLC_API void tflc_l2_normalization_s8(int32_t input_zp, int32_t rows,
                                       int32_t depth, const int8_t *in,
                                       int8_t *out) {
  int32_t r, c;
  for (r = 0; r < rows; ++r) {
    const int8_t *x = in + (size_t)r * (size_t)depth;
    int8_t *y = out + (size_t)r * (size_t)depth;
    int32_t acc = 0, mult, shift;
    for (c = 0; c < depth; ++c) {
      const int32_t v = (int32_t)x[c] - input_zp;
      acc = tflc__kop_add(acc, v * v);
    }
    tflc__fp_inv_sqrt_multiplier(acc, &mult, &shift);
    for (c = 0; c < depth; ++c) {
      int32_t v = tflc_multiply_by_quantized_multiplier(
          (int32_t)x[c] - input_zp, mult, shift + 7);
      if (v < -128)
        v = -128;
      if (v > 127)
        v = 127;
      y[c] = (int8_t)v;
    }
  }
}

/* ---- LOG_SOFTMAX -------------------------------------------------------- */

TFLC_API void tflc_log_softmax_prepare_s8(float in_scale,
                                          tflc_log_softmax_params *p) {
  tflc_softmax_params sp;
  double divisor;
  int32_t q = 0, s = 0;
  tflc_softmax_prepare_s8(1.0f, in_scale, &sp); /* beta fixed to 1 */
  p->input_multiplier = sp.input_multiplier;
  p->input_left_shift = sp.input_left_shift;
  p->diff_min = sp.diff_min;
  /* (1 << (31 - left_shift)) is an int in TFLM: 2^31 wraps negative */
  divisor = (double)tflc__kop_i32((uint32_t)1 << (31 - sp.input_left_shift)) /
            (double)sp.input_multiplier;
  if (divisor > 0.0 && divisor < 1.0)
    tflc_quantize_multiplier(divisor, &q, &s);
  p->reverse_divisor = q;
  p->reverse_shift = s;
}

TFLC_API void tflc_log_softmax_s8(const tflc_log_softmax_params *p,
                                  int32_t rows, int32_t depth, const int8_t *in,
                                  int8_t *out) {
  const int32_t mult = p->input_multiplier, shift = p->input_left_shift;
  int32_t r, c;
  for (r = 0; r < rows; ++r) {
    const int8_t *x = in + (size_t)r * (size_t)depth;
    int8_t *y = out + (size_t)r * (size_t)depth;
    int32_t max = -128, sum = 0, log_sum, adj, lim;
    for (c = 0; c < depth; ++c) {
      if (x[c] > max)
        max = x[c];
    }
    for (c = 0; c < depth; ++c) {
      const int32_t diff = (int32_t)x[c] - max;
      if (diff >= p->diff_min) {
        const int32_t e = tflc__fp_exp_neg(
            tflc_multiply_by_quantized_multiplier(diff, mult, shift), 5);
        sum = tflc__kop_add(sum, tflc_rounding_divide_by_pot(e, 12));
      }
    }
    log_sum = tflc__fp_log_q12_to_q5(sum);
    adj = tflc_multiply_by_quantized_multiplier(
        tflc__kop_add(log_sum, INT32_MIN), p->reverse_divisor,
        p->reverse_shift);
    lim = p->diff_min - 1;
    if (adj > lim)
      lim = adj;
    for (c = 0; c < depth; ++c) {
      const int32_t diff = (int32_t)x[c] - max;
      if (diff > lim) {
        const int32_t d5 =
            tflc_multiply_by_quantized_multiplier(diff, mult, shift);
        int32_t v =
            tflc_rounding_divide_by_pot(tflc__kop_sub(d5, log_sum), 22) + 127;
        if (v > 127)
          v = 127;
        if (v < -128)
          v = -128;
        y[c] = (int8_t)v;
      } else {
        y[c] = -128;
      }
    }
  }
}

/* ---- MAXIMUM / MINIMUM -------------------------------------------------- */

TFLC_API void tflc_maximum_minimum(int type, int is_max, int32_t rank,
                                   const int32_t *dims1, const void *in1,
                                   const int32_t *dims2, const void *in2,
                                   const int32_t *out_dims, void *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    const size_t a = it.off1, b = it.off2;
    switch (type) {
    case TFLC_FLOAT32: {
      const float x = ((const float *)in1)[a], y = ((const float *)in2)[b];
      ((float *)out)[i] = is_max ? (x > y ? x : y) : (x < y ? x : y);
      break;
    }
    case TFLC_INT16: {
      const int16_t x = ((const int16_t *)in1)[a],
                    y = ((const int16_t *)in2)[b];
      ((int16_t *)out)[i] = is_max ? (x > y ? x : y) : (x < y ? x : y);
      break;
    }
    case TFLC_INT32: {
      const int32_t x = ((const int32_t *)in1)[a],
                    y = ((const int32_t *)in2)[b];
      ((int32_t *)out)[i] = is_max ? (x > y ? x : y) : (x < y ? x : y);
      break;
    }
    case TFLC_INT64: {
      int64_t x, y;
      memcpy(&x, (const unsigned char *)in1 + 8 * a, 8);
      memcpy(&y, (const unsigned char *)in2 + 8 * b, 8);
      x = is_max ? (x > y ? x : y) : (x < y ? x : y);
      memcpy((unsigned char *)out + 8 * i, &x, 8);
      break;
    }
    default: {
      const int8_t x = ((const int8_t *)in1)[a], y = ((const int8_t *)in2)[b];
      ((int8_t *)out)[i] = is_max ? (x > y ? x : y) : (x < y ? x : y);
      break;
    }
    }
    tflc__bcast_next(&it);
  }
}

/* ---- comparisons -------------------------------------------------------- */

static uint8_t tflc__compare_i64(int cmp, int64_t a, int64_t b) {
  switch (cmp) {
  case TFLC_CMP_EQUAL:
    return a == b;
  case TFLC_CMP_NOT_EQUAL:
    return a != b;
  case TFLC_CMP_LESS:
    return a < b;
  case TFLC_CMP_LESS_EQUAL:
    return a <= b;
  case TFLC_CMP_GREATER:
    return a > b;
  default:
    return a >= b;
  }
}
static uint8_t tflc__compare_f32(int cmp, float a, float b) {
  switch (cmp) {
  case TFLC_CMP_EQUAL:
    return a == b;
  case TFLC_CMP_NOT_EQUAL:
    return a != b;
  case TFLC_CMP_LESS:
    return a < b;
  case TFLC_CMP_LESS_EQUAL:
    return a <= b;
  case TFLC_CMP_GREATER:
    return a > b;
  default:
    return a >= b;
  }
}

TFLC_API void tflc_compare(int type, int cmp, const tflc_cmp_params *scaled,
                           int32_t rank, const int32_t *dims1, const void *in1,
                           const int32_t *dims2, const void *in2,
                           const int32_t *out_dims, uint8_t *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    const size_t a = it.off1, b = it.off2;
    switch (type) {
    case TFLC_FLOAT32:
      out[i] = tflc__compare_f32(cmp, ((const float *)in1)[a],
                                 ((const float *)in2)[b]);
      break;
    case TFLC_INT32:
      out[i] = tflc__compare_i64(cmp, ((const int32_t *)in1)[a],
                                 ((const int32_t *)in2)[b]);
      break;
    case TFLC_INT64: {
      int64_t x, y;
      memcpy(&x, (const unsigned char *)in1 + 8 * a, 8);
      memcpy(&y, (const unsigned char *)in2 + 8 * b, 8);
      out[i] = tflc__compare_i64(cmp, x, y);
      break;
    }
    case TFLC_BOOL:
      out[i] = tflc__compare_i64(cmp, ((const uint8_t *)in1)[a] != 0,
                                 ((const uint8_t *)in2)[b] != 0);
      break;
    default: {
      /* int8 with rescaling: both sides on a common 2^-8 grid */
      const int32_t x =
          (scaled->input1_offset + ((const int8_t *)in1)[a]) * (1 << 8);
      const int32_t y =
          (scaled->input2_offset + ((const int8_t *)in2)[b]) * (1 << 8);
      out[i] = tflc__compare_i64(cmp,
                                 tflc_multiply_by_quantized_multiplier(
                                     x, scaled->mult1, scaled->shift1),
                                 tflc_multiply_by_quantized_multiplier(
                                     y, scaled->mult2, scaled->shift2));
      break;
    }
    }
    tflc__bcast_next(&it);
  }
}

/* ---- SUM ---------------------------------------------------------------- */

/* Splits the input axes into kept (outer) and reduced (inner) odometers,
 * each with its input stride, in input order. Returns the number of
 * outputs; *n_red receives the reduced element count, *empty 1 when a
 * dim is 0. */
typedef struct tflc__reduce_iter {
  int32_t nk, nr;
  int32_t kd[TFLC_MAX_DIMS], rd[TFLC_MAX_DIMS];
  size_t ks[TFLC_MAX_DIMS], rs[TFLC_MAX_DIMS];
  size_t n_out;
  int64_t n_red;
  int empty;
} tflc__reduce_iter;

static void tflc__reduce_iter_init(tflc__reduce_iter *r, int32_t rank,
                                   const int32_t *dims, uint32_t mask) {
  int32_t k, a = 0, b = 0;
  size_t stride = 1;
  r->nk = r->nr = 0;
  r->n_out = 1;
  r->n_red = 1;
  r->empty = 0;
  for (k = 0; k < rank; ++k) {
    if (dims[k] == 0)
      r->empty = 1;
    if (mask & ((uint32_t)1 << k))
      ++r->nr;
    else
      ++r->nk;
  }
  a = r->nk;
  b = r->nr;
  for (k = rank - 1; k >= 0; --k) {
    if (mask & ((uint32_t)1 << k)) {
      --b;
      r->rd[b] = dims[k];
      r->rs[b] = stride;
      r->n_red *= dims[k];
    } else {
      --a;
      r->kd[a] = dims[k];
      r->ks[a] = stride;
      r->n_out *= (size_t)dims[k];
    }
    stride *= (size_t)dims[k];
  }
}

/* Advances an odometer (dims d, strides s, index idx) and the offset. */
static void tflc__odometer_next(int32_t n, const int32_t *d, const size_t *s,
                                int32_t *idx, size_t *off) {
  int32_t k;
  for (k = n - 1; k >= 0; --k) {
    *off += s[k];
    if (++idx[k] < d[k])
      return;
    *off -= s[k] * (size_t)d[k];
    idx[k] = 0;
  }
}

TFLC_API void tflc_sum_q(const tflc_mean_params *p, int w, int32_t rank,
                         const int32_t *in_dims, uint32_t axis_mask,
                         const void *in, void *out) {
  tflc__reduce_iter r;
  int32_t ki[TFLC_MAX_DIMS], ri[TFLC_MAX_DIMS];
  size_t o, base = 0;
  int32_t k;
  tflc__reduce_iter_init(&r, rank, in_dims, axis_mask);
  if (r.empty) {
    /* TFLM zeroes the output and stops */
    for (o = 0; o < r.n_out; ++o)
      tflc__store_int_clamped(out, w, o, 0, 0, 0);
    return;
  }
  for (k = 0; k < TFLC_MAX_DIMS; ++k)
    ki[k] = ri[k] = 0;
  for (o = 0; o < r.n_out; ++o) {
    int32_t sum = 0, y;
    size_t off = base;
    int64_t i;
    for (i = 0; i < r.n_red; ++i) {
      sum = tflc__kop_add(sum, tflc__load_int(in, w, off));
      tflc__odometer_next(r.nr, r.rd, r.rs, ri, &off);
    }
    y = tflc_multiply_by_quantized_multiplier(
            tflc__kop_i32((uint32_t)(uint64_t)((int64_t)sum -
                                               (int64_t)p->input_zp * r.n_red)),
            p->multiplier, p->shift) +
        p->output_zp;
    tflc__store_int_clamped(out, w, o, y, tflc__int_min_of_width(w),
                            tflc__int_max_of_width(w));
    tflc__odometer_next(r.nk, r.kd, r.ks, ki, &base);
  }
}

TFLC_API void tflc_sum_f32(int32_t rank, const int32_t *in_dims,
                           uint32_t axis_mask, const float *in, float *out) {
  tflc__reduce_iter r;
  int32_t ki[TFLC_MAX_DIMS], ri[TFLC_MAX_DIMS];
  size_t o, base = 0;
  int32_t k;
  tflc__reduce_iter_init(&r, rank, in_dims, axis_mask);
  for (o = 0; o < r.n_out; ++o)
    out[o] = 0.0f;
  if (r.empty)
    return;
  for (k = 0; k < TFLC_MAX_DIMS; ++k)
    ki[k] = ri[k] = 0;
  for (o = 0; o < r.n_out; ++o) {
    float sum = 0.0f;
    size_t off = base;
    int64_t i;
    for (i = 0; i < r.n_red; ++i) {
      sum = in[off] + sum;
      tflc__odometer_next(r.nr, r.rd, r.rs, ri, &off);
    }
    out[o] = sum;
    tflc__odometer_next(r.nk, r.kd, r.ks, ki, &base);
  }
}

/* ---- ARG_MAX / ARG_MIN -------------------------------------------------- */

static int tflc__arg_is_better(int type, int is_max, const void *in, size_t a,
                               size_t b) {
  /* 1 when element a strictly beats element b */
  if (type == TFLC_FLOAT32) {
    const float x = ((const float *)in)[a], y = ((const float *)in)[b];
    return is_max ? x > y : x < y;
  } else {
    int64_t x, y;
    if (type == TFLC_INT32) {
      x = ((const int32_t *)in)[a];
      y = ((const int32_t *)in)[b];
    } else if (type == TFLC_INT16) {
      x = ((const int16_t *)in)[a];
      y = ((const int16_t *)in)[b];
    } else {
      x = ((const int8_t *)in)[a];
      y = ((const int8_t *)in)[b];
    }
    return is_max ? x > y : x < y;
  }
}

TFLC_API void tflc_arg_min_max(int type, int is_max, int32_t outer,
                               int32_t axis_size, int32_t inner, const void *in,
                               int32_t *out) {
  int32_t o, j, i;
  for (o = 0; o < outer; ++o) {
    for (j = 0; j < inner; ++j) {
      const size_t base = (size_t)o * (size_t)axis_size * (size_t)inner;
      size_t best = base + (size_t)j;
      int32_t idx = 0;
      for (i = 1; i < axis_size; ++i) {
        const size_t cur = base + (size_t)i * (size_t)inner + (size_t)j;
        if (tflc__arg_is_better(type, is_max, in, cur, best)) {
          best = cur;
          idx = i;
        }
      }
      out[(size_t)o * (size_t)inner + (size_t)j] = idx;
    }
  }
}

/* ---- requantize / dequantize -------------------------------------------- */

static int32_t tflc__load_any_int(int type, const void *p, size_t i) {
  switch (type) {
  case TFLC_UINT8:
    return ((const uint8_t *)p)[i];
  case TFLC_INT16:
    return ((const int16_t *)p)[i];
  case TFLC_INT32:
    return ((const int32_t *)p)[i];
  default:
    return ((const int8_t *)p)[i];
  }
}

TFLC_API void tflc_requantize(int in_type, int out_type, int32_t q,
                              int32_t shift, int32_t in_zp, int32_t out_zp,
                              int32_t n, const void *in, void *out) {
  int32_t i, lo, hi;
  if (q == ((int32_t)1 << 30) && shift == 1) {
    const int32_t zd = in_zp - out_zp;
    if ((in_type == TFLC_INT8 && out_type == TFLC_UINT8 && zd == -128) ||
        (in_type == TFLC_UINT8 && out_type == TFLC_INT8 && zd == 128)) {
      for (i = 0; i < n; ++i)
        ((uint8_t *)out)[i] = (uint8_t)(((const uint8_t *)in)[i] ^ 0x80u);
      return;
    }
  }
  switch (out_type) {
  case TFLC_UINT8:
    lo = 0;
    hi = 255;
    break;
  case TFLC_INT16:
    lo = -32768;
    hi = 32767;
    break;
  case TFLC_INT32:
    lo = INT32_MIN;
    hi = INT32_MAX;
    break;
  default:
    lo = -128;
    hi = 127;
    break;
  }
  for (i = 0; i < n; ++i) {
    const int32_t x =
        tflc__kop_sub(tflc__load_any_int(in_type, in, (size_t)i), in_zp);
    int32_t y = tflc__kop_add(
        tflc_multiply_by_quantized_multiplier(x, q, shift), out_zp);
    if (y < lo)
      y = lo;
    if (y > hi)
      y = hi;
    switch (out_type) {
    case TFLC_UINT8:
      ((uint8_t *)out)[i] = (uint8_t)y;
      break;
    case TFLC_INT16:
      ((int16_t *)out)[i] = (int16_t)y;
      break;
    case TFLC_INT32:
      ((int32_t *)out)[i] = y;
      break;
    default:
      ((int8_t *)out)[i] = (int8_t)y;
      break;
    }
  }
}

TFLC_API void tflc_dequantize_u8_f32(float scale, int32_t zp, int32_t n,
                                     const uint8_t *in, float *out) {
  int32_t i;
  for (i = 0; i < n; ++i)
    out[i] = (float)((double)scale * (double)((int32_t)in[i] - zp));
}

/* ---- float32 variants -------------------------------------------------------
 * Same operations in the same order as TFLM's float reference kernels;
 * float math functions (expf, tanhf, logf, sqrtf) as std:: on floats. */

TFLC_API void tflc_mul_sub_f32(int op, float act_min, float act_max,
                               int32_t rank, const int32_t *dims1,
                               const float *in1, const int32_t *dims2,
                               const float *in2, const int32_t *out_dims,
                               float *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    const float a = in1[it.off1], b = in2[it.off2];
    float v = op == 0 ? a * b : a - b;
    /* min(max(v, lo), hi) with std::max / std::min's comparisons */
    v = v < act_min ? act_min : v;
    v = act_max < v ? act_max : v;
    out[i] = v;
    tflc__bcast_next(&it);
  }
}

TFLC_API void tflc_unary_f32(int kind, float alpha, int32_t n, const float *in,
                             float *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    const float v = in[i];
    float y;
    switch (kind) {
    case TFLC_F32_RELU:
      y = v < 0.0f ? 0.0f : v;
      break;
    case TFLC_F32_RELU6:
      y = v > 6.0f ? 6.0f : v < 0.0f ? 0.0f : v;
      break;
    case TFLC_F32_LEAKY_RELU:
      y = v > 0.0f ? v : v * alpha;
      break;
    case TFLC_F32_LOGISTIC:
      /* TFLM's cut-offs: 1 above 16.619..., exp(v) below -9 */
      if (v > 16.619047164916992188f)
        y = 1.0f;
      else if (v < -9.0f)
        y = expf(v);
      else
        y = 1.0f / (1.0f + expf(-v));
      break;
    case TFLC_F32_TANH:
      y = tanhf(v);
      break;
    default: { /* HARD_SWISH: v * min(6, max(0, v + 3)) / 6 */
      float r = v + 3.0f;
      r = 0.0f < r ? r : 0.0f;
      r = r < 6.0f ? r : 6.0f;
      y = v * r / 6.0f;
      break;
    }
    }
    out[i] = y;
  }
}

TFLC_API void tflc_prelu_f32(int32_t rank, const int32_t *dims_in,
                             const float *in, const int32_t *dims_alpha,
                             const float *alpha, const int32_t *out_dims,
                             float *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims_in, dims_alpha, out_dims);
  for (i = 0; i < n; ++i) {
    const float v = in[it.off1];
    out[i] = v >= 0.0f ? v : v * alpha[it.off2];
    tflc__bcast_next(&it);
  }
}

TFLC_API void tflc_l2_normalization_f32(int32_t rows, int32_t depth,
                                        const float *in, float *out) {
  int32_t r, c;
  for (r = 0; r < rows; ++r) {
    const float *x = in + (size_t)r * (size_t)depth;
    float *y = out + (size_t)r * (size_t)depth;
    float ss = 0.0f, norm;
    for (c = 0; c < depth; ++c)
      ss += x[c] * x[c];
    norm = sqrtf(ss);
    norm = norm < 1e-6f ? 1e-6f : norm;
    for (c = 0; c < depth; ++c)
      y[c] = x[c] / norm;
  }
}

TFLC_API void tflc_log_softmax_f32(int32_t rows, int32_t depth, const float *in,
                                   float *out) {
  int32_t r, c;
  for (r = 0; r < rows; ++r) {
    const float *x = in + (size_t)r * (size_t)depth;
    float *y = out + (size_t)r * (size_t)depth;
    float max = -FLT_MAX, sum = 0.0f, log_sum;
    for (c = 0; c < depth; ++c)
      max = max < x[c] ? x[c] : max;
    for (c = 0; c < depth; ++c)
      sum += expf(x[c] - max);
    log_sum = logf(sum);
    for (c = 0; c < depth; ++c)
      y[c] = x[c] - max - log_sum;
  }
}

/* ======================================================================== */
/* Convolutions in int16x8 and float32, TRANSPOSE_CONV, SVDF,               */
/* UNIDIRECTIONAL_SEQUENCE_LSTM                                             */
/* ======================================================================== */
/* Comes after the convolution family of tflc_kernels.h, whose helpers it
 * reuses (tflc__geom, tflc__pixel_window, tflc__small_tile, tflc__ldf,
 * tflc__wrap32, tflc_lut_decode, tflc_lut_gather, tflc_const_*). Each
 * kernel follows the loops of TFLM's reference kernel; integer sums are
 * kept in int64 (exact) and narrowed the way TFLM's int32 accumulator
 * wraps when the TFLM kernel accumulates in int32, float sums are done
 * one product at a time in TFLM's order. Compressed filters are decoded a
 * row (or a channel's taps) at a time into the tile when they fit, else in
 * tile-sized pieces for every pixel; results never depend on the path. */

/* A usable tile of at least 64 bytes and its capacity in elements. */
static uint8_t *tflc__usable_tile(void *tile, size_t tile_bytes, size_t es,
                                  tflc__small_tile *small, int32_t *cap) {
  size_t n = tile_bytes > 0x7FFFFFFF ? 0x7FFFFFFF : tile_bytes;
  if (tile == NULL || n < sizeof small->b) {
    *cap = (int32_t)(sizeof small->b / es);
    return small->b;
  }
  *cap = (int32_t)(n / es);
  return (uint8_t *)tile;
}

/* Requantization of an int16x8 accumulator. acc64: 64-bit MBQM on
 * acc + bias; else the int32 accumulator TFLM keeps (acc + bias wrapped)
 * and the 32-bit MBQM. Then + out_off, clamp, narrow. */
static int16_t tflc__requant_s16(int64_t acc, int64_t bias, int acc64,
                                 int32_t q, int32_t s, int32_t out_off,
                                 int32_t lo, int32_t hi) {
  int32_t v;
  if (acc64)
    v = tflc_multiply_by_quantized_multiplier_64(
        (int64_t)((uint64_t)acc + (uint64_t)bias), q, s);
  else
    v = tflc_multiply_by_quantized_multiplier(
        tflc__wrap32((int64_t)((uint64_t)acc + (uint64_t)bias)), q, s);
  v = tflc__wrap32((int64_t)v + out_off);
  v = v < lo ? lo : v;
  v = v > hi ? hi : v;
  {
    const uint32_t u = (uint32_t)v & 0xFFFFu;
    return (int16_t)((int32_t)u - (u >= 32768u ? 65536 : 0));
  }
}

static float tflc__clamp_f32(float v, float lo, float hi) {
  v = v < lo ? lo : v; /* std::max(v, lo) */
  v = hi < v ? hi : v; /* std::min(v, hi) */
  return v;
}

/* ---- CONV_2D int16x8 / float -------------------------------------------- */
/* Accumulator of one output value; `i` for int16x8, `f` for float. */
typedef struct tflc__acc_s16_f32 {
  int64_t i;
  float f;
} tflc__acc_s16_f32;

/* m consecutive filter elements of a kernel row (f: int8 or float bytes)
 * against the input pixels they meet; (kx, ci) is the cursor of the first
 * element within the row and is advanced. irow is the input row at the
 * group's first channel; pixel x of the kernel reads irow[(ix0 + x * dw) *
 * c + ci]. */
static void tflc__conv_segment(int f32, const void *irow, int32_t ix0,
                               int32_t dw, int32_t c, const uint8_t *f,
                               int32_t m, int32_t fc, int32_t *kx, int32_t *ci,
                               tflc__acc_s16_f32 *a) {
  int32_t j, x = *kx, i = *ci, off = (ix0 + x * dw) * c;
  if (f32) {
    const float *ip = (const float *)irow;
    float total = a->f;
    for (j = 0; j < m; j++) {
      const float prod = ip[off + i] * tflc__ldf(f + 4 * j);
      total += prod;
      if (++i == fc) {
        i = 0;
        x++;
        off += dw * c;
      }
    }
    a->f = total;
  } else {
    const int16_t *ip = (const int16_t *)irow;
    const int8_t *fp = (const int8_t *)f;
    int64_t acc = 0;
    for (j = 0; j < m; j++) {
      acc += (int32_t)fp[j] * (int32_t)ip[off + i];
      if (++i == fc) {
        i = 0;
        x++;
        off += dw * c;
      }
    }
    a->i += acc;
  }
  *kx = x;
  *ci = i;
}

static void tflc__conv_s16_f32(int f32, const tflc_conv_params *p, float fmin,
                               float fmax, int acc64, const int32_t in_dims[4],
                               const void *in, const int32_t filter_dims[4],
                               const tflc_const *filter, const tflc_const *bias,
                               const int32_t out_dims[4], void *out, void *tile,
                               size_t tile_bytes) {
  tflc__geom g;
  tflc__win w;
  tflc__small_tile small;
  const size_t es = f32 ? 4u : 1u;
  const int32_t batches = in_dims[0];
  const int32_t oc_n = out_dims[3];
  const int32_t fc = filter_dims[3];
  const int32_t row_len = filter_dims[1] * filter_dims[2] * fc;
  const int32_t groups = fc > 0 ? in_dims[3] / fc : 0;
  const int32_t per_group = groups > 0 ? oc_n / groups : 0;
  int32_t cap, n, oy, ox, oc;
  uint8_t *t;
  if (per_group <= 0 || row_len <= 0)
    return;
  tflc__geom_init(&g, p, in_dims, filter_dims, out_dims);
  t = tflc__usable_tile(tile, tile_bytes, es, &small, &cap);
  for (oc = 0; oc < oc_n; oc++) {
    const uint8_t *row = NULL;
    const int32_t gofs = (oc / per_group) * fc;
    int64_t bi = 0;
    float bf = 0.0f;
    if (filter->bits == 0) {
      row = (const uint8_t *)filter->data + (size_t)oc * (size_t)row_len * es;
    } else if (row_len <= cap) {
      tflc_lut_decode(filter, oc * row_len, row_len, t);
      row = t;
    }
    if (bias != NULL) {
      if (f32)
        bf = tflc_const_f32(bias, oc);
      else
        bi = tflc_const_i64(bias, oc);
    }
    for (n = 0; n < batches; n++)
      for (oy = 0; oy < g.oh; oy++)
        for (ox = 0; ox < g.ow; ox++) {
          const size_t o =
              ((size_t)(n * g.oh + oy) * (size_t)g.ow + (size_t)ox) *
                  (size_t)oc_n +
              (size_t)oc;
          tflc__acc_s16_f32 a;
          int32_t ky;
          a.i = 0;
          a.f = 0.0f;
          tflc__pixel_window(&g, oy, ox, &w);
          for (ky = w.ky0; ky < w.ky1; ky++) {
            const int32_t iy = w.iy0 + ky * g.dh;
            const size_t ro =
                ((size_t)(n * g.h + iy) * (size_t)g.w) * (size_t)g.c +
                (size_t)gofs;
            const void *irow = f32 ? (const void *)((const float *)in + ro)
                                   : (const void *)((const int16_t *)in + ro);
            int32_t e = (ky * g.kw + w.kx0) * fc;
            const int32_t e_end = (ky * g.kw + w.kx1) * fc;
            int32_t kx = w.kx0, ci = 0;
            if (row != NULL) {
              tflc__conv_segment(f32, irow, w.ix0, g.dw, g.c,
                                 row + (size_t)e * es, e_end - e, fc, &kx, &ci,
                                 &a);
            } else {
              while (e < e_end) {
                const int32_t m = e_end - e < cap ? e_end - e : cap;
                tflc_lut_decode(filter, oc * row_len + e, m, t);
                tflc__conv_segment(f32, irow, w.ix0, g.dw, g.c, t, m, fc, &kx,
                                   &ci, &a);
                e += m;
              }
            }
          }
          if (f32)
            ((float *)out)[o] = tflc__clamp_f32(a.f + bf, fmin, fmax);
          else
            ((int16_t *)out)[o] =
                tflc__requant_s16(a.i, bi, acc64, p->out_multiplier[oc],
                                  p->out_shift[oc], 0, p->act_min, p->act_max);
        }
  }
}

TFLC_API void tflc_conv2d_s16(const tflc_conv_params *p,
                              const int32_t in_dims[4], const int16_t *in,
                              const int32_t filter_dims[4],
                              const tflc_const *filter, const tflc_const *bias,
                              int acc64, const int32_t out_dims[4],
                              int16_t *out, void *tile, size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_INT8);
  tflc__conv_s16_f32(0, p, 0.0f, 0.0f, acc64, in_dims, in, filter_dims, filter,
                     bias, out_dims, out, tile, tile_bytes);
}

TFLC_API void tflc_conv2d_f32(const tflc_conv_params *p, float act_min,
                              float act_max, const int32_t in_dims[4],
                              const float *in, const int32_t filter_dims[4],
                              const tflc_const *filter, const tflc_const *bias,
                              const int32_t out_dims[4], float *out, void *tile,
                              size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_FLOAT32);
  tflc__conv_s16_f32(1, p, act_min, act_max, 1, in_dims, in, filter_dims,
                     filter, bias, out_dims, out, tile, tile_bytes);
}

/* ---- DEPTHWISE_CONV_2D int16x8 / float ---------------------------------- */
/* One tap (weight w) against input value index xi. */
static void tflc__depthwise_tap(int f32, const void *in, size_t xi,
                                const uint8_t *w, tflc__acc_s16_f32 *a) {
  if (f32) {
    const float prod = ((const float *)in)[xi] * tflc__ldf(w);
    a->f += prod;
  } else {
    a->i += (int64_t)(int8_t)w[0] * (int64_t)((const int16_t *)in)[xi];
  }
}

/* Output channel by output channel; with a plane (depth multiplier 1,
 * out == in: written over the input), each channel goes to the plane,
 * then to its places, which held input values of that channel only. */
static void
tflc__depthwise_s16_f32(int f32, const tflc_conv_params *p, float fmin,
                        float fmax, const int32_t in_dims[4], const void *in,
                        const int32_t filter_dims[4], const tflc_const *filter,
                        const tflc_const *bias, const int32_t out_dims[4],
                        void *out, void *plane, void *tile, size_t tile_bytes) {
  tflc__geom g;
  tflc__win w;
  tflc__small_tile small;
  const size_t es = f32 ? 4u : 1u;
  const int32_t batches = in_dims[0];
  const int32_t ic_n = in_dims[3];
  const int32_t mult = p->depth_multiplier;
  const int32_t oc_n = out_dims[3];
  const int32_t f_oc = filter_dims[3];
  const int32_t ntaps = filter_dims[1] * filter_dims[2];
  int32_t cap, n, oy, ox, ic, m;
  uint8_t *t;
  TFLC_ASSERT(ic_n * mult == oc_n && oc_n == f_oc);
  if (mult <= 0 || ntaps <= 0)
    return;
  tflc__geom_init(&g, p, in_dims, filter_dims, out_dims);
  t = tflc__usable_tile(tile, tile_bytes, es, &small, &cap);
  for (ic = 0; ic < ic_n; ic++)
    for (m = 0; m < mult; m++) {
      const int32_t oc = ic * mult + m;
      const uint8_t *taps = NULL; /* tap k at taps + k * ts */
      size_t ts = es;
      int64_t bi = 0;
      float bf = 0.0f;
      if (filter->bits == 0) {
        taps = (const uint8_t *)filter->data + (size_t)oc * es;
        ts = (size_t)f_oc * es;
      } else if (ntaps <= cap) {
        tflc_lut_gather(filter, oc, f_oc, ntaps, t);
        taps = t;
      }
      if (bias != NULL) {
        if (f32)
          bf = tflc_const_f32(bias, oc);
        else
          bi = tflc_const_i64(bias, oc);
      }
      for (n = 0; n < batches; n++)
        for (oy = 0; oy < g.oh; oy++)
          for (ox = 0; ox < g.ow; ox++) {
            const size_t q =
                (size_t)(n * g.oh + oy) * (size_t)g.ow + (size_t)ox;
            const size_t o = plane ? q : q * (size_t)oc_n + (size_t)oc;
            void *dst = plane ? plane : out;
            tflc__acc_s16_f32 a;
            int32_t ky, kx;
            a.i = 0;
            a.f = 0.0f;
            tflc__pixel_window(&g, oy, ox, &w);
            if (taps != NULL) {
              for (ky = w.ky0; ky < w.ky1; ky++)
                for (kx = w.kx0; kx < w.kx1; kx++) {
                  const int32_t iy = w.iy0 + ky * g.dh, ix = w.ix0 + kx * g.dw;
                  const size_t xi =
                      ((size_t)(n * g.h + iy) * (size_t)g.w + (size_t)ix) *
                          (size_t)g.c +
                      (size_t)ic;
                  tflc__depthwise_tap(f32, in, xi,
                                      taps + (size_t)(ky * g.kw + kx) * ts, &a);
                }
            } else {
              int32_t t0;
              for (t0 = 0; t0 < ntaps; t0 += cap) {
                const int32_t len = ntaps - t0 < cap ? ntaps - t0 : cap;
                int32_t j;
                tflc_lut_gather(filter, oc + t0 * f_oc, f_oc, len, t);
                for (j = 0; j < len; j++) {
                  ky = (t0 + j) / g.kw;
                  kx = (t0 + j) % g.kw;
                  if (ky >= w.ky0 && ky < w.ky1 && kx >= w.kx0 && kx < w.kx1) {
                    const int32_t iy = w.iy0 + ky * g.dh,
                                  ix = w.ix0 + kx * g.dw;
                    const size_t xi =
                        ((size_t)(n * g.h + iy) * (size_t)g.w + (size_t)ix) *
                            (size_t)g.c +
                        (size_t)ic;
                    tflc__depthwise_tap(f32, in, xi, t + (size_t)j * es, &a);
                  }
                }
              }
            }
            if (f32)
              ((float *)dst)[o] = tflc__clamp_f32(a.f + bf, fmin, fmax);
            else
              ((int16_t *)dst)[o] = tflc__requant_s16(
                  a.i, bi, 1, p->out_multiplier[oc], p->out_shift[oc], 0,
                  p->act_min, p->act_max);
          }
      if (plane) {
        const size_t pixels = (size_t)batches * (size_t)g.oh * (size_t)g.ow;
        const size_t xs = f32 ? 4u : 2u; /* (es: the filter's) */
        size_t q;
        for (q = 0; q < pixels; q++)
          memcpy((uint8_t *)out + (q * (size_t)oc_n + (size_t)oc) * xs,
                 (const uint8_t *)plane + q * xs, xs);
      }
    }
}

TFLC_API void
tflc_depthwise_conv2d_s16(const tflc_conv_params *p, const int32_t in_dims[4],
                          const int16_t *in, const int32_t filter_dims[4],
                          const tflc_const *filter, const tflc_const *bias,
                          const int32_t out_dims[4], int16_t *out, void *tile,
                          size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_INT8);
  tflc__depthwise_s16_f32(0, p, 0.0f, 0.0f, in_dims, in, filter_dims, filter,
                          bias, out_dims, out, NULL, tile, tile_bytes);
}

TFLC_API void tflc_depthwise_conv2d_f32(
    const tflc_conv_params *p, float act_min, float act_max,
    const int32_t in_dims[4], const float *in, const int32_t filter_dims[4],
    const tflc_const *filter, const tflc_const *bias, const int32_t out_dims[4],
    float *out, void *tile, size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_FLOAT32);
  tflc__depthwise_s16_f32(1, p, act_min, act_max, in_dims, in, filter_dims,
                          filter, bias, out_dims, out, NULL, tile, tile_bytes);
}

#ifndef TFLC_NO_PATCHES
TFLC_API int tflc_depthwise_conv2d_s16_inplace(
    const tflc_conv_params *p, const int32_t in_dims[4], int16_t *io,
    const int32_t filter_dims[4], const tflc_const *filter,
    const tflc_const *bias, const int32_t out_dims[4], int16_t *plane,
    void *tile, size_t tile_bytes) {
  if (p->depth_multiplier != 1 || in_dims[3] != out_dims[3] ||
      filter_dims[3] != out_dims[3] || filter->type != TFLC_INT8)
    return 0;
  tflc__depthwise_s16_f32(0, p, 0.0f, 0.0f, in_dims, io, filter_dims, filter,
                          bias, out_dims, io, plane, tile, tile_bytes);
  return 1;
}
TFLC_API int tflc_depthwise_conv2d_f32_inplace(
    const tflc_conv_params *p, float act_min, float act_max,
    const int32_t in_dims[4], float *io, const int32_t filter_dims[4],
    const tflc_const *filter, const tflc_const *bias, const int32_t out_dims[4],
    float *plane, void *tile, size_t tile_bytes) {
  if (p->depth_multiplier != 1 || in_dims[3] != out_dims[3] ||
      filter_dims[3] != out_dims[3] || filter->type != TFLC_FLOAT32)
    return 0;
  tflc__depthwise_s16_f32(1, p, act_min, act_max, in_dims, io, filter_dims,
                          filter, bias, out_dims, io, plane, tile, tile_bytes);
  return 1;
}
#endif

/* ---- FULLY_CONNECTED int16x8 -------------------------------------------- */
static int64_t tflc__fc_dot_s16(const int8_t *f, const int16_t *x, int32_t n,
                                int32_t f_off, int32_t in_off) {
  int64_t acc = 0;
  int32_t d;
  for (d = 0; d < n; d++)
    acc += ((int32_t)f[d] + f_off) * ((int32_t)x[d] + in_off);
  return acc;
}

TFLC_API void tflc_fully_connected_s16(const tflc_fc_params *p, int32_t batches,
                                       int32_t accum_depth, int32_t out_depth,
                                       const int16_t *in,
                                       const tflc_const *filter,
                                       const tflc_const *bias, int acc64,
                                       int16_t *out, void *tile,
                                       size_t tile_bytes) {
  tflc__small_tile small;
  int32_t cap, o, b;
  const int32_t D = accum_depth;
  const int32_t f_off = p->per_channel ? 0 : p->filter_offset;
  int8_t *t = (int8_t *)tflc__usable_tile(tile, tile_bytes, 1, &small, &cap);
  TFLC_ASSERT(filter->type == TFLC_INT8);
  for (o = 0; o < out_depth; o++) {
    const int32_t q = p->out_multiplier[p->per_channel ? o : 0];
    const int32_t s = p->out_shift[p->per_channel ? o : 0];
    const int64_t bv = bias != NULL ? tflc_const_i64(bias, o) : 0;
    const int whole = filter->bits == 0 || D <= cap;
    const int8_t *row =
        whole ? (const int8_t *)tflc_const_span(filter, o * D, D, t) : NULL;
    for (b = 0; b < batches; b++) {
      int64_t acc = 0;
      if (whole) {
        acc = tflc__fc_dot_s16(row, in + (size_t)b * (size_t)D, D, f_off,
                               p->input_offset);
      } else {
        int32_t d0;
        for (d0 = 0; d0 < D; d0 += cap) {
          const int32_t m = D - d0 < cap ? D - d0 : cap;
          tflc_lut_decode(filter, o * D + d0, m, t);
          acc += tflc__fc_dot_s16(t, in + (size_t)b * (size_t)D + (size_t)d0, m,
                                  f_off, p->input_offset);
        }
      }
      out[(size_t)b * (size_t)out_depth + (size_t)o] = tflc__requant_s16(
          acc, bv, acc64, q, s, p->output_offset, p->act_min, p->act_max);
    }
  }
}

/* ---- TRANSPOSE_CONV ----------------------------------------------------- */
/* kind: 0 int8 (int32 plane), 1 int16x8 (int64 plane), 2 float (into out) */
typedef struct tflc__tconv_state {
  int kind;
  int32_t h, w, cin, kh, kw, oh, ow, cout, in_off;
  const void *in;
  void *plane; /* int32 / int64 accumulators of one channel, or out */
  float *fout;
  int32_t oc;
} tflc__tconv_state;

/* Scatters filter elements [e0, e0 + m) of the current output channel's
 * row [Kh][Kw][Cin] (f holds them) from input pixel (n, iy, ix) at xo
 * (input element offset of its channel 0), whose window starts at output
 * (oy0, ox0). */
static void tflc__tconv_scatter(const tflc__tconv_state *s, int32_t n,
                                size_t xo, int32_t oy0, int32_t ox0,
                                const uint8_t *f, int32_t e0, int32_t m) {
  int32_t e = e0;
  const int32_t end = e0 + m;
  while (e < end) {
    const int32_t tap = e / s->cin, ic = e - tap * s->cin;
    const int32_t run = s->cin - ic < end - e ? s->cin - ic : end - e;
    const int32_t ky = tap / s->kw, kx = tap - ky * s->kw;
    const int32_t oy = oy0 + ky, ox = ox0 + kx;
    if (oy >= 0 && oy < s->oh && ox >= 0 && ox < s->ow) {
      const size_t pi = (size_t)(n * s->oh + oy) * (size_t)s->ow + (size_t)ox;
      const uint8_t *fp = f + (size_t)(e - e0) * (s->kind == 2 ? 4u : 1u);
      int32_t j;
      if (s->kind == 0) {
        const int8_t *x = (const int8_t *)s->in + xo + (size_t)ic;
        int32_t *acc = (int32_t *)s->plane + pi;
        uint32_t sum = (uint32_t)*acc;
        for (j = 0; j < run; j++)
          sum +=
              (uint32_t)(((int32_t)x[j] + s->in_off) * (int32_t)(int8_t)fp[j]);
        *acc = tflc__wrap32((int64_t)sum);
      } else if (s->kind == 1) {
        const int16_t *x = (const int16_t *)s->in + xo + (size_t)ic;
        int64_t *acc = (int64_t *)s->plane + pi;
        int64_t sum = 0;
        for (j = 0; j < run; j++)
          sum += (int32_t)x[j] * (int32_t)(int8_t)fp[j];
        *acc += sum;
      } else {
        const float *x = (const float *)s->in + xo + (size_t)ic;
        float *o = s->fout + pi * (size_t)s->cout + (size_t)s->oc;
        for (j = 0; j < run; j++) {
          const float prod = x[j] * tflc__ldf(fp + 4 * j);
          *o += prod;
        }
      }
    }
    e += run;
  }
}

static void
tflc__transpose_conv_any(int kind, const tflc_conv_params *p, float fmin,
                         float fmax, const int32_t in_dims[4], const void *in,
                         const int32_t filter_dims[4], const tflc_const *filter,
                         const tflc_const *bias, const int32_t out_dims[4],
                         void *out, void *acc, void *tile, size_t tile_bytes) {
  tflc__tconv_state s;
  tflc__small_tile small;
  const size_t es = kind == 2 ? 4u : 1u;
  const int32_t batches = in_dims[0];
  int32_t cap, row_len, n, iy, ix, oc;
  size_t i, plane_n;
  uint8_t *t;
  s.kind = kind;
  s.h = in_dims[1];
  s.w = in_dims[2];
  s.cin = in_dims[3];
  s.cout = filter_dims[0];
  s.kh = filter_dims[1];
  s.kw = filter_dims[2];
  s.oh = out_dims[1];
  s.ow = out_dims[2];
  s.in_off = p->input_offset;
  s.in = in;
  s.plane = acc;
  s.fout = (float *)out;
  TFLC_ASSERT(filter_dims[3] == s.cin && out_dims[3] == s.cout);
  row_len = s.kh * s.kw * s.cin;
  if (row_len <= 0 || s.cout <= 0)
    return;
  plane_n = (size_t)batches * (size_t)s.oh * (size_t)s.ow;
  t = tflc__usable_tile(tile, tile_bytes, es, &small, &cap);
  for (oc = 0; oc < s.cout; oc++) {
    const uint8_t *row = NULL;
    s.oc = oc;
    if (filter->bits == 0) {
      row = (const uint8_t *)filter->data + (size_t)oc * (size_t)row_len * es;
    } else if (row_len <= cap) {
      tflc_lut_decode(filter, oc * row_len, row_len, t);
      row = t;
    }
    for (i = 0; i < plane_n; i++) {
      if (kind == 0)
        ((int32_t *)acc)[i] = 0;
      else if (kind == 1)
        ((int64_t *)acc)[i] = 0;
      else
        s.fout[i * (size_t)s.cout + (size_t)oc] = 0.0f;
    }
    for (n = 0; n < batches; n++)
      for (iy = 0; iy < s.h; iy++)
        for (ix = 0; ix < s.w; ix++) {
          const size_t xo =
              ((size_t)(n * s.h + iy) * (size_t)s.w + (size_t)ix) *
              (size_t)s.cin;
          const int32_t oy0 = iy * p->stride_h - p->pad_h;
          const int32_t ox0 = ix * p->stride_w - p->pad_w;
          if (row != NULL) {
            tflc__tconv_scatter(&s, n, xo, oy0, ox0, row, 0, row_len);
          } else {
            int32_t e;
            for (e = 0; e < row_len; e += cap) {
              const int32_t m = row_len - e < cap ? row_len - e : cap;
              tflc_lut_decode(filter, oc * row_len + e, m, t);
              tflc__tconv_scatter(&s, n, xo, oy0, ox0, t, e, m);
            }
          }
        }
    if (kind == 2) {
      const float bf = bias != NULL ? tflc_const_f32(bias, oc) : 0.0f;
      for (i = 0; i < plane_n; i++) {
        float *o = s.fout + i * (size_t)s.cout + (size_t)oc;
        float v = *o;
        if (bias != NULL)
          v += bf;
        *o = tflc__clamp_f32(v, fmin, fmax);
      }
    } else {
      const int64_t bv = bias != NULL ? tflc_const_i64(bias, oc) : 0;
      const int32_t q = p->out_multiplier[oc], sh = p->out_shift[oc];
      for (i = 0; i < plane_n; i++) {
        const size_t o = i * (size_t)s.cout + (size_t)oc;
        if (kind == 0) {
          int32_t v = tflc__wrap32(
              (int64_t)((uint32_t)((int32_t *)acc)[i] + (uint32_t)(int32_t)bv));
          v = tflc__wrap32(
              (int64_t)tflc_multiply_by_quantized_multiplier(v, q, sh) +
              p->output_offset);
          v = v < p->act_min ? p->act_min : v;
          v = v > p->act_max ? p->act_max : v;
          ((int8_t *)out)[o] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
        } else {
          ((int16_t *)out)[o] = tflc__requant_s16(
              ((int64_t *)acc)[i], bv, 1, q, sh, 0, p->act_min, p->act_max);
        }
      }
    }
  }
}

TFLC_API void
tflc_transpose_conv_s8(const tflc_conv_params *p, const int32_t in_dims[4],
                       const int8_t *in, const int32_t filter_dims[4],
                       const tflc_const *filter, const tflc_const *bias,
                       const int32_t out_dims[4], int8_t *out, int32_t *acc,
                       void *tile, size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_INT8);
  tflc__transpose_conv_any(0, p, 0.0f, 0.0f, in_dims, in, filter_dims, filter,
                           bias, out_dims, out, acc, tile, tile_bytes);
}

TFLC_API void
tflc_transpose_conv_s16(const tflc_conv_params *p, const int32_t in_dims[4],
                        const int16_t *in, const int32_t filter_dims[4],
                        const tflc_const *filter, const tflc_const *bias,
                        const int32_t out_dims[4], int16_t *out, int64_t *acc,
                        void *tile, size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_INT8);
  tflc__transpose_conv_any(1, p, 0.0f, 0.0f, in_dims, in, filter_dims, filter,
                           bias, out_dims, out, acc, tile, tile_bytes);
}

TFLC_API void
tflc_transpose_conv_f32(const tflc_conv_params *p, float act_min, float act_max,
                        const int32_t in_dims[4], const float *in,
                        const int32_t filter_dims[4], const tflc_const *filter,
                        const tflc_const *bias, const int32_t out_dims[4],
                        float *out, void *tile, size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_FLOAT32);
  tflc__transpose_conv_any(2, p, act_min, act_max, in_dims, in, filter_dims,
                           filter, bias, out_dims, out, NULL, tile, tile_bytes);
}

/* ---- shared element access ---------------------------------------------- */
/* Integer element i of a constant: in place when raw, decoded otherwise. */
static int32_t tflc__const_int_at(const tflc_const *c, int32_t i) {
  if (c->bits == 0) {
    const uint8_t *p = (const uint8_t *)c->data;
    switch (c->type) {
    case TFLC_INT8:
      return (int32_t)((const int8_t *)c->data)[i];
    case TFLC_INT16: {
      const uint32_t u = (uint32_t)p[2 * i] | ((uint32_t)p[2 * i + 1] << 8);
      return (int32_t)u - (u >= 32768u ? 65536 : 0);
    }
    default:
      break;
    }
  }
  return tflc_const_i32(c, i);
}

/* sum over d < n of (w[row * n + d] + w_off) * (x[d] + x_off), exact;
 * x is int8 (x16 == 0) or int16, w INT8 raw or compressed */
static int64_t tflc__dot_weights_s8(const tflc_const *w, int32_t row, int32_t n,
                                    int32_t w_off, const void *x, int x16,
                                    int32_t x_off) {
  int64_t acc = 0;
  int32_t d0 = 0;
  while (d0 < n) {
    int8_t buf[64];
    const int8_t *f;
    int32_t m = n - d0, d;
    if (w->bits == 0) {
      f = (const int8_t *)w->data + (size_t)row * (size_t)n + (size_t)d0;
    } else {
      if (m > 64)
        m = 64;
      tflc_lut_decode(w, row * n + d0, m, buf);
      f = buf;
    }
    if (x16) {
      const int16_t *xv = (const int16_t *)x + d0;
      for (d = 0; d < m; d++)
        acc += ((int32_t)f[d] + w_off) * ((int32_t)xv[d] + x_off);
    } else {
      const int8_t *xv = (const int8_t *)x + d0;
      for (d = 0; d < m; d++)
        acc += ((int32_t)f[d] + w_off) * ((int32_t)xv[d] + x_off);
    }
    d0 += m;
  }
  return acc;
}

/* ---- SVDF --------------------------------------------------------------- */
TFLC_API void tflc_svdf_s8(const tflc_svdf_params *p, const int8_t *in,
                           const tflc_const *w_feature,
                           const tflc_const *w_time, const tflc_const *bias,
                           void *state, int8_t *out) {
  const int32_t B = p->batches, I = p->input_size, F = p->num_filters;
  const int32_t M = p->memory_size, R = p->rank;
  const int32_t U = R > 0 ? F / R : 0;
  const int s16 = w_time->type == TFLC_INT16;
  const int32_t smin = s16 ? -32768 : -128, smax = s16 ? 32767 : 127;
  const size_t total = (size_t)B * (size_t)F * (size_t)M;
  int16_t *st16 = (int16_t *)state;
  int8_t *st8 = (int8_t *)state;
  int32_t b, r, u, j;
  if (total == 0 || U <= 0)
    return;
  /* 1. the whole state moves one element to the left */
  if (s16)
    memmove(st16, st16 + 1, (total - 1) * sizeof(int16_t));
  else
    memmove(st8, st8 + 1, total - 1);
  /* 2. the newest entry of every filter: feature weights x input */
  for (b = 0; b < B; b++)
    for (r = 0; r < F; r++) {
      const size_t k =
          ((size_t)b * (size_t)F + (size_t)r) * (size_t)M + (size_t)(M - 1);
      int32_t v = tflc__wrap32(tflc__dot_weights_s8(
          w_feature, r, I, 0, in + (size_t)b * (size_t)I, 0, -p->input_zp));
      v = tflc_multiply_by_quantized_multiplier(v, p->mult1, p->shift1);
      v = v < smin ? smin : v > smax ? smax : v;
      v = tflc__wrap32((int64_t)p->state_zp + v);
      /* narrowed with wrap-around, as the assignment in TFLM */
      if (s16) {
        const uint32_t w = (uint32_t)v & 0xFFFFu;
        st16[k] = (int16_t)((int32_t)w - (w >= 32768u ? 65536 : 0));
      } else {
        const uint32_t w = (uint32_t)v & 0xFFu;
        st8[k] = (int8_t)((int32_t)w - (w >= 128u ? 256 : 0));
      }
    }
  /* 3.-5. time weights x state, summed over the rank, bias, requantize */
  for (b = 0; b < B; b++)
    for (u = 0; u < U; u++) {
      uint32_t acc = bias != NULL ? (uint32_t)tflc_const_i32(bias, u) : 0u;
      int32_t v;
      for (r = u * R; r < (u + 1) * R; r++) {
        const size_t k0 = ((size_t)b * (size_t)F + (size_t)r) * (size_t)M;
        uint32_t s = 0;
        for (j = 0; j < M; j++) {
          const int32_t sv = s16 ? (int32_t)st16[k0 + (size_t)j]
                                 : (int32_t)st8[k0 + (size_t)j];
          s += (uint32_t)(tflc__const_int_at(w_time, r * M + j) *
                          (sv - p->state_zp));
        }
        acc += s;
      }
      v = tflc_multiply_by_quantized_multiplier(tflc__wrap32((int64_t)acc),
                                                p->mult2, p->shift2);
      v = tflc__wrap32((int64_t)v + p->output_zp);
      v = v < -128 ? -128 : v > 127 ? 127 : v;
      out[(size_t)b * (size_t)U + (size_t)u] = (int8_t)v;
    }
}

/* TFLM's ActivationValFloat */
static float tflc__activation_f32(int act, float a) {
  switch (act) {
  case 1:
    return fmaxf(0.0f, a);
  case 2:
    return fmaxf(-1.0f, fminf(a, 1.0f));
  case 3:
    return fmaxf(0.0f, fminf(a, 6.0f));
  case 4:
    return tanhf(a);
  case 5:
    return signbit(a) ? 1.0f : 0.0f;
  default:
    return a;
  }
}

TFLC_API void tflc_svdf_f32(const tflc_svdf_params *p, const float *in,
                            const tflc_const *w_feature,
                            const tflc_const *w_time, const tflc_const *bias,
                            float *state, float *out) {
  const int32_t B = p->batches, I = p->input_size, F = p->num_filters;
  const int32_t M = p->memory_size, R = p->rank;
  const int32_t U = R > 0 ? F / R : 0;
  const size_t total = (size_t)B * (size_t)F * (size_t)M;
  int32_t b, r, u, j, k;
  if (total == 0 || U <= 0)
    return;
  memmove(state, state + 1, (total - 1) * sizeof(float));
  for (b = 0; b < B; b++)
    for (r = 0; r < F; r++) {
      float dot = 0.0f;
      for (k = 0; k < I; k++) {
        const float prod = tflc_const_f32(w_feature, r * I + k) *
                           in[(size_t)b * (size_t)I + (size_t)k];
        dot += prod;
      }
      state[((size_t)b * (size_t)F + (size_t)r) * (size_t)M + (size_t)(M - 1)] =
          dot;
    }
  for (b = 0; b < B; b++)
    for (u = 0; u < U; u++) {
      float o = bias != NULL ? tflc_const_f32(bias, u) : 0.0f;
      for (r = u * R; r < (u + 1) * R; r++) {
        const float *sp =
            state + ((size_t)b * (size_t)F + (size_t)r) * (size_t)M;
        float s = 0.0f;
        for (j = 0; j < M; j++) {
          const float prod = tflc_const_f32(w_time, r * M + j) * sp[j];
          s += prod;
        }
        o += s;
      }
      out[(size_t)b * (size_t)U + (size_t)u] = tflc__activation_f32(p->act, o);
    }
}

/* ---- int16 LOGISTIC / TANH (sigmoid table) ------------------------------ */
/* sigmoid(i / 24) in unsigned 0.16, the 256 values TFLM tabulates */
static const uint16_t tflc__sigmoid_table_s16[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498,
    40149, 40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255,
    46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865,
    52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174,
    56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544, 58800, 59048, 59288,
    59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279, 61441,
    61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886,
    62990, 63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835,
    63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450,
    64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845,
    64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097,
    65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
    65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425,
    65429, 65433, 65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465,
    65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508,
    65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516, 65517, 65517, 65518,
    65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524, 65525,
    65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529,
    65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531,
    65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533,
    65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65535,
};

/* (x * mult + round) >> shift in int32, as TFLM computes it */
static int32_t tflc__scale_input_s16(int32_t x, int32_t mult, int32_t shift) {
  /* shifts beyond 31 (only from nonsense scales) act as 31 */
  const int32_t sh = shift > 31 ? 31 : shift;
  const int32_t round = sh > 0 ? (int32_t)1 << (sh - 1) : 0;
  const int32_t v = tflc__wrap32(
      (int64_t)((uint32_t)((uint64_t)((int64_t)x * mult) + (uint32_t)round)));
  return sh > 0 ? tflc__asr32(v, (int)sh) : v;
}

TFLC_API int16_t tflc_logistic_s16_one(int32_t x, int32_t mult, int32_t shift) {
  const int32_t v = tflc__scale_input_s16(x, mult, shift);
  const uint32_t a = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
  const uint32_t h = a >> 9;
  uint32_t r;
  if (h >= 255) {
    r = 0x7FFFu << 10;
  } else {
    const uint32_t lo = tflc__sigmoid_table_s16[h],
                   hi = tflc__sigmoid_table_s16[h + 1];
    r = (lo << 9) + (a & 0x1FFu) * (hi - lo);
  }
  r = v >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
  return (int16_t)(r >> 10);
}

TFLC_API int16_t tflc_tanh_s16_one(int32_t x, int32_t mult, int32_t shift) {
  const int32_t v = tflc__scale_input_s16(x, mult, shift);
  const uint32_t a = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
  const uint32_t h = a >> 8;
  int32_t r;
  if (h >= 255) {
    r = 0xFFFF << 8;
  } else {
    const uint32_t lo = tflc__sigmoid_table_s16[h],
                   hi = tflc__sigmoid_table_s16[h + 1];
    r = (int32_t)((lo << 8) + (a & 0xFFu) * (hi - lo));
  }
  r = v >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
  return (int16_t)tflc__asr32(r, 8);
}

/* ---- UNIDIRECTIONAL_SEQUENCE_LSTM --------------------------------------- */
static int16_t tflc__saturate_s16(int32_t v) {
  return (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
}

/* MulElementwise: MBQM(a * b) + zp, clamped to [lo, hi] */
static int32_t tflc__mul_requant(int32_t a, int32_t b, int32_t q, int32_t s,
                                 int32_t zp, int32_t lo, int32_t hi) {
  int32_t v = tflc__wrap32(
      (int64_t)tflc_multiply_by_quantized_multiplier(a * b, q, s) + zp);
  return v < lo ? lo : v > hi ? hi : v;
}

/* Pre-activation of gate g for `rows` rows: input FC (with bias) and
 * recurrent FC (no bias), each requantized to Q3.12 int16, added with
 * saturation; then the gate's nonlinearity. */
static void tflc__lstm_gate_q(const tflc_lstm_params *p, int act16,
                              const tflc_const *w, const tflc_const *b, int g,
                              int32_t rows, const void *x, const void *h,
                              int tanh_gate, int16_t *dst) {
  const int32_t S = p->state_size, I = p->input_size;
  const size_t xs = act16 ? 2u : 1u;
  int32_t r, o;
  for (r = 0; r < rows; r++) {
    const void *xr = (const uint8_t *)x + (size_t)r * (size_t)I * xs;
    const void *hr = (const uint8_t *)h + (size_t)r * (size_t)S * xs;
    for (o = 0; o < S; o++) {
      const int64_t bias = tflc_const_i64(&b[g], o);
      const int64_t ax = tflc__dot_weights_s8(&w[g], o, I, p->w_offset[g], xr,
                                              act16, p->input_offset);
      const int64_t ah = tflc__dot_weights_s8(
          &w[4 + g], o, S, p->w_offset[4 + g], hr, act16, p->hidden_offset);
      int32_t vx, vh;
      if (p->acc64) {
        vx = tflc_multiply_by_quantized_multiplier_64(
            ax + bias, p->gate_mult[g], p->gate_shift[g]);
        vh = tflc_multiply_by_quantized_multiplier_64(ah, p->gate_mult[4 + g],
                                                      p->gate_shift[4 + g]);
      } else {
        vx = tflc_multiply_by_quantized_multiplier(
            tflc__wrap32(ax + bias), p->gate_mult[g], p->gate_shift[g]);
        vh = tflc_multiply_by_quantized_multiplier(
            tflc__wrap32(ah), p->gate_mult[4 + g], p->gate_shift[4 + g]);
      }
      {
        const int32_t s =
            (int32_t)tflc__saturate_s16(vx) + tflc__saturate_s16(vh);
        const int16_t pre = tflc__saturate_s16(s);
        dst[(size_t)r * (size_t)S + (size_t)o] =
            tanh_gate ? tflc_tanh_s16_one(pre, 3, 0)
                      : tflc_logistic_s16_one(pre, 3, 0);
      }
    }
  }
}

TFLC_API void tflc_lstm_q(const tflc_lstm_params *p, int act16,
                          const tflc_const *w, const tflc_const *b,
                          const void *in, void *hidden, int16_t *cell,
                          void *out, int16_t *scratch) {
  const int32_t S = p->state_size, I = p->input_size;
  const int32_t rows = p->time_major ? p->batches : 1;
  const int32_t outer = p->time_major ? 1 : p->batches;
  const size_t n = (size_t)rows * (size_t)S, xs = act16 ? 2u : 1u;
  int16_t *fg = scratch, *ig = scratch + n, *cg = scratch + 2 * n;
  int32_t ob, t;
  size_t i;
  for (ob = 0; ob < outer; ob++) {
    /* batch-major: one batch row at a time, its own state rows */
    uint8_t *h = (uint8_t *)hidden + (size_t)ob * (size_t)S * xs;
    int16_t *c = cell + (size_t)ob * (size_t)S;
    for (t = 0; t < p->steps; t++) {
      const size_t step = (size_t)ob * (size_t)p->steps + (size_t)t;
      const void *x =
          (const uint8_t *)in + step * (size_t)rows * (size_t)I * xs;
      uint8_t *o = (uint8_t *)out + step * n * xs;
      tflc__lstm_gate_q(p, act16, w, b, 1, rows, x, h, 0, fg);
      tflc__lstm_gate_q(p, act16, w, b, 0, rows, x, h, 0, ig);
      tflc__lstm_gate_q(p, act16, w, b, 2, rows, x, h, 1, cg);
      for (i = 0; i < n; i++) {
        int32_t v = tflc__mul_requant(fg[i], c[i], p->fc_mult, p->fc_shift, 0,
                                      -32768, 32767);
        v += tflc__mul_requant(ig[i], cg[i], p->ig_mult, p->ig_shift, 0, -32768,
                               32767);
        v = tflc__saturate_s16(v);
        if (p->clip_f > 0.0f) {
          v = v < p->clip_q ? v : p->clip_q;
          v = v > -p->clip_q ? v : -p->clip_q;
        }
        c[i] = (int16_t)v;
      }
      tflc__lstm_gate_q(p, act16, w, b, 3, rows, x, h, 0, ig);
      for (i = 0; i < n; i++) {
        const int16_t tc = tflc_tanh_s16_one(c[i], p->tanh_mult, p->tanh_shift);
        const int32_t v =
            tflc__mul_requant(tc, ig[i], p->h_mult, p->h_shift, p->hidden_zp,
                              p->hidden_min, p->hidden_max);
        if (act16)
          ((int16_t *)(void *)h)[i] = (int16_t)v;
        else
          ((int8_t *)h)[i] = (int8_t)v;
      }
      memcpy(o, h, n * xs);
    }
  }
}

/* float FC value of one gate output: sum in order, + bias (0.0f when
 * absent), clamped to the float range (TFLM's activation NONE) */
static float tflc__lstm_fc_f32(const tflc_const *w, const tflc_const *b,
                               int32_t o, const float *x, int32_t n) {
  float total = 0.0f, v;
  int32_t d;
  for (d = 0; d < n; d++) {
    const float prod = x[d] * tflc_const_f32(w, o * n + d);
    total += prod;
  }
  v = total + (b != NULL ? tflc_const_f32(b, o) : 0.0f);
  return tflc__clamp_f32(v, -FLT_MAX, FLT_MAX);
}

static float tflc__sigmoid_f32(float v) {
  if (v > 16.619047164916992188f)
    return 1.0f;
  if (v < -9.0f)
    return expf(v);
  return 1.0f / (1.0f + expf(-v));
}

static void tflc__lstm_gate_f32(const tflc_lstm_params *p, const tflc_const *w,
                                const tflc_const *b, int g, int32_t rows,
                                const float *x, const float *h, int tanh_gate,
                                float *dst) {
  const int32_t S = p->state_size, I = p->input_size;
  int32_t r, o;
  for (r = 0; r < rows; r++)
    for (o = 0; o < S; o++) {
      const float vx =
          tflc__lstm_fc_f32(&w[g], &b[g], o, x + (size_t)r * (size_t)I, I);
      const float vh =
          tflc__lstm_fc_f32(&w[4 + g], NULL, o, h + (size_t)r * (size_t)S, S);
      const float pre = vx + vh;
      dst[(size_t)r * (size_t)S + (size_t)o] =
          tanh_gate ? tanhf(pre) : tflc__sigmoid_f32(pre);
    }
}

TFLC_API void tflc_lstm_f32(const tflc_lstm_params *p, const tflc_const *w,
                            const tflc_const *b, const float *in, float *hidden,
                            float *cell, float *out, float *scratch) {
  const int32_t S = p->state_size, I = p->input_size;
  const int32_t rows = p->time_major ? p->batches : 1;
  const int32_t outer = p->time_major ? 1 : p->batches;
  const size_t n = (size_t)rows * (size_t)S;
  float *fg = scratch, *ig = scratch + n, *cg = scratch + 2 * n;
  int32_t ob, t;
  size_t i;
  for (ob = 0; ob < outer; ob++) {
    float *h = hidden + (size_t)ob * (size_t)S;
    float *c = cell + (size_t)ob * (size_t)S;
    for (t = 0; t < p->steps; t++) {
      const size_t step = (size_t)ob * (size_t)p->steps + (size_t)t;
      const float *x = in + step * (size_t)rows * (size_t)I;
      tflc__lstm_gate_f32(p, w, b, 1, rows, x, h, 0, fg);
      tflc__lstm_gate_f32(p, w, b, 0, rows, x, h, 0, ig);
      tflc__lstm_gate_f32(p, w, b, 2, rows, x, h, 1, cg);
      for (i = 0; i < n; i++) {
        const float fc = tflc__clamp_f32(fg[i] * c[i], -FLT_MAX, FLT_MAX);
        const float icg = tflc__clamp_f32(ig[i] * cg[i], -FLT_MAX, FLT_MAX);
        float v = fc + icg;
        if (p->clip_f > 0.0f) {
          v = v < p->clip_f ? v : p->clip_f;   /* std::min(clip, v) */
          v = v < -p->clip_f ? -p->clip_f : v; /* std::max(v, -clip) */
        }
        c[i] = v;
      }
      tflc__lstm_gate_f32(p, w, b, 3, rows, x, h, 0, ig);
      for (i = 0; i < n; i++)
        h[i] = tflc__clamp_f32(tanhf(c[i]) * ig[i], -FLT_MAX, FLT_MAX);
      memcpy(out + step * n, h, n * sizeof(float));
    }
  }
}

/* ======================================================================== */
/* Data movement (CONCATENATION, RESIZE_*, SPACE_TO_DEPTH, DEPTH_TO_SPACE,  */
/* GATHER, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, SQUEEZE, EXPAND_DIMS,      */
/* PADV2, SLICE, STRIDED_SLICE, SHAPE, SPLIT, SPLIT_V, PACK, UNPACK,        */
/* ZEROS_LIKE)                                                              */
/* ======================================================================== */

/* ---- data movement, part 2 ----------------------------------------------- */
/* memcpy of the tensors' rows; with Helium, 16 bytes a step in a
 * tail-predicated low-overhead loop (three instructions each, the last
 * step storing only the bytes left), without a call */
#if defined(TFLC_HAVE_MVE) && !defined(TFLC_NO_DSP_ASM)
TFLC__INLINE void tflc__copy(void *dst, const void *src, size_t n) {
  if (n > 0) {
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    __asm__ volatile("dlstp.8 lr, %[n]\n"
                     "1:\n\t"
                     "vldrb.u8 q0, [%[s]], #16\n\t"
                     "vstrb.8 q0, [%[d]], #16\n\t"
                     "letp lr, 1b\n\t"
                     : [d] "+r"(d), [s] "+r"(s)
                     : [n] "r"(n)
                     : "lr", "q0", "memory");
  }
}
#else
#define tflc__copy memcpy
#endif

TFLC_API void tflc_copy_rows(int32_t rows, size_t row_bytes, const void *src,
                             size_t src_stride, void *dst, size_t dst_stride) {
  const unsigned char *s = (const unsigned char *)src;
  unsigned char *d = (unsigned char *)dst;
  int32_t r;
  if (row_bytes == 0)
    return;
  for (r = 0; r < rows; ++r, s += src_stride, d += dst_stride)
    tflc__copy(d, s, row_bytes);
}

TFLC_API void tflc_space_depth(size_t elem_size, int to_depth,
                               const int32_t *dims, int32_t block,
                               const void *in, void *out) {
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  const size_t b = (size_t)block, run = (size_t)dims[3] * elem_size;
  const size_t hd = (size_t)dims[1] / b, wd = (size_t)dims[2] / b;
  size_t n, h, w, sp = 0;
  if (run == 0)
    return;
  /* walk the spatial side in order; each pixel's C elements are one run
   * in the deep side */
  for (n = 0; n < (size_t)dims[0]; ++n)
    for (h = 0; h < (size_t)dims[1]; ++h)
      for (w = 0; w < (size_t)dims[2]; ++w, sp += run) {
        const size_t dp =
            (((n * hd + h / b) * wd + w / b) * b * b + (h % b) * b + w % b) *
            run;
        if (to_depth)
          memcpy(dst + dp, src + sp, run);
        else
          memcpy(dst + sp, src + dp, run);
      }
}

TFLC_API void tflc_batch_to_space(size_t elem_size, const int32_t *in_dims,
                                  const int32_t *out_dims, int32_t block_h,
                                  int32_t block_w, int32_t crop_top,
                                  int32_t crop_left, const void *in,
                                  void *out) {
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  const size_t run = (size_t)in_dims[3] * elem_size;
  int32_t b, h, w;
  if (run == 0 || out_dims[0] <= 0)
    return;
  for (b = 0; b < in_dims[0]; ++b) {
    const int32_t ob = b % out_dims[0], spatial = b / out_dims[0];
    const int32_t sh = spatial / block_w, sw = spatial % block_w;
    for (h = 0; h < in_dims[1]; ++h) {
      const int32_t oh = h * block_h + sh - crop_top;
      if (oh < 0 || oh >= out_dims[1])
        continue;
      for (w = 0; w < in_dims[2]; ++w) {
        const int32_t ow = w * block_w + sw - crop_left;
        size_t si, di;
        if (ow < 0 || ow >= out_dims[2])
          continue;
        si =
            (((size_t)b * (size_t)in_dims[1] + (size_t)h) * (size_t)in_dims[2] +
             (size_t)w) *
            run;
        di = (((size_t)ob * (size_t)out_dims[1] + (size_t)oh) *
                  (size_t)out_dims[2] +
              (size_t)ow) *
             run;
        memcpy(dst + di, src + si, run);
      }
    }
  }
}

TFLC_API void tflc_space_to_batch(size_t elem_size, const int32_t *in_dims,
                                  const int32_t *out_dims, int32_t block_h,
                                  int32_t block_w, int32_t pad_top,
                                  int32_t pad_left, const void *pad_value,
                                  const void *in, void *out) {
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  const size_t run = (size_t)in_dims[3] * elem_size;
  int32_t b, h, w;
  size_t k;
  if (run == 0 || in_dims[0] <= 0)
    return;
  for (b = 0; b < out_dims[0]; ++b) {
    const int32_t ib = b % in_dims[0], spatial = b / in_dims[0];
    const int32_t sw = spatial % block_w, sh = spatial / block_w;
    for (h = 0; h < out_dims[1]; ++h) {
      const int32_t ih = h * block_h + sh - pad_top;
      for (w = 0; w < out_dims[2]; ++w, dst += run) {
        const int32_t iw = w * block_w + sw - pad_left;
        if (ih < 0 || ih >= in_dims[1] || iw < 0 || iw >= in_dims[2]) {
          for (k = 0; k < run; k += elem_size)
            memcpy(dst + k, pad_value, elem_size);
        } else {
          memcpy(dst,
                 src + (((size_t)ib * (size_t)in_dims[1] + (size_t)ih) *
                            (size_t)in_dims[2] +
                        (size_t)iw) *
                           run,
                 run);
        }
      }
    }
  }
}

TFLC_API int tflc_gather(size_t elem_size, int32_t batch, int32_t outer,
                         int32_t axis_size, int32_t coord_size, int32_t inner,
                         const void *coords, const void *in, void *out) {
  const unsigned char *src = (const unsigned char *)in;
  const unsigned char *cd = (const unsigned char *)coords;
  unsigned char *dst = (unsigned char *)out;
  const size_t run = (size_t)inner * elem_size;
  int32_t b, o, j, x;
  for (j = 0; j < batch * coord_size; ++j) {
    memcpy(&x, cd + 4 * (size_t)j, 4);
    if (x < 0 || x >= axis_size)
      return -1;
  }
  if (run == 0)
    return 0;
  for (b = 0; b < batch; ++b)
    for (o = 0; o < outer; ++o) {
      const size_t row = (size_t)b * (size_t)outer + (size_t)o;
      for (j = 0; j < coord_size; ++j, dst += run) {
        memcpy(&x, cd + 4 * ((size_t)b * (size_t)coord_size + (size_t)j), 4);
        memcpy(dst, src + (row * (size_t)axis_size + (size_t)x) * run, run);
      }
    }
  return 0;
}

TFLC_API void tflc_strided_slice(size_t elem_size, int32_t rank,
                                 const int32_t *in_dims, const int32_t *start,
                                 const int32_t *stride, const int32_t *count,
                                 const void *in, void *out) {
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  ptrdiff_t st[TFLC_MAX_DIMS], s;
  int32_t idx[TFLC_MAX_DIMS], k, last = rank - 1, j;
  size_t rows = 1, row;
  if (rank <= 0) {
    memcpy(dst, src, elem_size);
    return;
  }
  for (k = 0; k < rank; ++k)
    if (count[k] <= 0)
      return;
  /* trailing axes taken whole are one element of the axis before them
   * (one copy a row instead of one per inner row) */
  while (last > 0 && start[last] == 0 && stride[last] == 1 &&
         count[last] == in_dims[last]) {
    elem_size *= (size_t)in_dims[last];
    last--;
  }
  s = (ptrdiff_t)elem_size;
  for (k = last; k >= 0; --k) {
    st[k] = s;
    s *= (ptrdiff_t)in_dims[k];
    idx[k] = 0;
    if (k < last)
      rows *= (size_t)count[k];
  }
  for (row = 0; row < rows; ++row) {
    ptrdiff_t off = (ptrdiff_t)start[last] * st[last];
    for (k = 0; k < last; ++k)
      off += ((ptrdiff_t)start[k] + (ptrdiff_t)idx[k] * stride[k]) * st[k];
    if (stride[last] == 1) {
      const size_t n = (size_t)count[last] * elem_size;
      tflc__copy(dst, src + off, n);
      dst += n;
    } else {
      for (j = 0; j < count[last]; ++j, dst += elem_size)
        memcpy(dst, src + off + (ptrdiff_t)j * stride[last] * st[last],
               elem_size);
    }
    for (k = last - 1; k >= 0; --k) {
      if (++idx[k] < count[k])
        break;
      idx[k] = 0;
    }
  }
}

static int32_t tflc__clamp_i32(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}
TFLC_API int tflc_strided_slice_axis(int32_t size, int32_t begin, int32_t end,
                                     int32_t stride, int begin_mask,
                                     int end_mask, int shrink, int32_t *start,
                                     int32_t *count) {
  int32_t s = begin, e = end;
  /* negative indices count from the end, then clamp to [0, size] going
   * forward or [-1, size - 1] going backward; a mask overrides */
  if (s < 0)
    s += size;
  s = stride > 0 ? tflc__clamp_i32(s, 0, size)
                 : tflc__clamp_i32(s, -1, size - 1);
  if (begin_mask)
    s = stride > 0 ? 0 : size - 1;
  *start = s;
  if (shrink) {
    /* TFLM walks [s, s + 1) with this stride */
    *count = 1;
    return stride > 0 && s >= 0 && s < size ? 0 : -1;
  }
  if (e < 0)
    e += size;
  e = stride > 0 ? tflc__clamp_i32(e, 0, size)
                 : tflc__clamp_i32(e, -1, size - 1);
  if (end_mask)
    e = stride > 0 ? size : -1;
  /* ceil(span / |stride|) in 32 bits: span and |stride| are at most
   * 2^31, their sum less 1 fits (no 64-bit division call) */
  if (stride > 0)
    *count = e > s ? (int32_t)(((uint32_t)(e - s) + (uint32_t)stride - 1u) /
                               (uint32_t)stride)
                   : 0;
  else
    *count = s > e ? (int32_t)(((uint32_t)(s - e) +
                                (uint32_t)(-(int64_t)stride) - 1u) /
                               (uint32_t)(-(int64_t)stride))
                   : 0;
  return 0;
}

/* ---- resampling ---------------------------------------------------------- */
/* Source row/column of RESIZE_NEAREST_NEIGHBOR (TFLM's float expressions). */
static int32_t tflc__nearest_source(int32_t x, int32_t in, int32_t out,
                                    int align_corners, int half_pixel_centers) {
  const float scale = (align_corners && out > 1)
                          ? (float)(in - 1) / (float)(out - 1)
                          : (float)in / (float)out;
  const float v = ((float)x + (half_pixel_centers ? 0.5f : 0.0f)) * scale;
  int32_t r = align_corners ? (int32_t)roundf(v) : (int32_t)floorf(v);
  if (r > in - 1)
    r = in - 1;
  if (half_pixel_centers && r < 0)
    r = 0;
  return r;
}

TFLC_API void tflc_resize_nearest(size_t elem_size, const int32_t *in_dims,
                                  int32_t out_h, int32_t out_w,
                                  int align_corners, int half_pixel_centers,
                                  const void *in, void *out) {
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  const size_t run = (size_t)in_dims[3] * elem_size;
  const size_t row = (size_t)in_dims[2] * run;
  const size_t img = (size_t)in_dims[1] * row;
  int32_t b, y, x;
  if (run == 0)
    return;
  for (b = 0; b < in_dims[0]; ++b) {
    for (y = 0; y < out_h; ++y) {
      const int32_t iy = tflc__nearest_source(
          y, in_dims[1], out_h, align_corners, half_pixel_centers);
      const unsigned char *srow = src + (size_t)b * img + (size_t)iy * row;
      for (x = 0; x < out_w; ++x, dst += run) {
        const int32_t ix = tflc__nearest_source(
            x, in_dims[2], out_w, align_corners, half_pixel_centers);
        memcpy(dst, srow + (size_t)ix * run, run);
      }
    }
  }
}

/* int64 -> int8 keeping the low 8 bits, as the C++ cast does on two's
 * complement targets. */
static int8_t tflc__wrap8(int64_t v) {
  const int32_t u = (int32_t)((uint64_t)v & 0xFFu);
  return (int8_t)(u >= 128 ? u - 256 : u);
}
/* Q10 position along one axis: v, and the two source indices. */
static void tflc__bilinear_q10(int32_t x, int32_t scale_10, int half,
                               int32_t in, int32_t *v, int32_t *lo,
                               int32_t *hi) {
  int32_t a, c;
  *v = half ? x * scale_10 + scale_10 / 2 - (1 << 9) : x * scale_10;
  a = *v / (1 << 10); /* truncates toward zero, as C++ */
  c = (*v + (1 << 10) - 1) / (1 << 10);
  *lo = a > 0 ? a : 0;
  *hi = c < in - 1 ? c : in - 1;
}
static int32_t tflc__bilinear_scale_q10(int32_t in, int32_t out, int align) {
  if (align && out > 1)
    return ((1 << 10) * (in - 1) + (out - 1) / 2) / (out - 1);
  return ((1 << 10) * in + out / 2) / out;
}

TFLC_API void tflc_resize_bilinear_s8(const int32_t *in_dims, int32_t out_h,
                                      int32_t out_w, int align_corners,
                                      int half_pixel_centers, const int8_t *in,
                                      int8_t *out) {
  const int32_t ih = in_dims[1], iw = in_dims[2], depth = in_dims[3];
  const int32_t hs = tflc__bilinear_scale_q10(ih, out_h, align_corners);
  const int32_t ws = tflc__bilinear_scale_q10(iw, out_w, align_corners);
  const size_t row = (size_t)iw * (size_t)depth, img = (size_t)ih * row;
  int32_t b, y, x, c;
  for (b = 0; b < in_dims[0]; ++b) {
    const int8_t *base = in + (size_t)b * img;
    for (y = 0; y < out_h; ++y) {
      int32_t vy, y0, y1, wy1, wy0;
      tflc__bilinear_q10(y, hs, half_pixel_centers, ih, &vy, &y0, &y1);
      wy1 = vy - (1 << 10) * y0;
      wy0 = (1 << 10) - wy1;
      for (x = 0; x < out_w; ++x) {
        int32_t vx, x0, x1, wx1, wx0;
        const int8_t *p00, *p10, *p01, *p11;
        tflc__bilinear_q10(x, ws, half_pixel_centers, iw, &vx, &x0, &x1);
        wx1 = vx - (1 << 10) * x0;
        wx0 = (1 << 10) - wx1;
        p00 = base + (size_t)y0 * row + (size_t)x0 * (size_t)depth;
        p10 = base + (size_t)y1 * row + (size_t)x0 * (size_t)depth;
        p01 = base + (size_t)y0 * row + (size_t)x1 * (size_t)depth;
        p11 = base + (size_t)y1 * row + (size_t)x1 * (size_t)depth;
        for (c = 0; c < depth; ++c) {
          const int64_t s =
              (int64_t)p00[c] * wy0 * wx0 + (int64_t)p10[c] * wy1 * wx0 +
              (int64_t)p01[c] * wy0 * wx1 + (int64_t)p11[c] * wy1 * wx1;
          const int64_t q =
              (s + (s > 0 ? (int64_t)1 << 19 : -((int64_t)1 << 19))) /
              ((int64_t)1 << 20);
          *out++ = tflc__wrap8(q);
        }
      }
    }
  }
}

TFLC_API void tflc_resize_bilinear_f32(const int32_t *in_dims, int32_t out_h,
                                       int32_t out_w, int align_corners,
                                       int half_pixel_centers, const float *in,
                                       float *out) {
  const int32_t ih = in_dims[1], iw = in_dims[2], depth = in_dims[3];
  const size_t row = (size_t)iw * (size_t)depth, img = (size_t)ih * row;
  float hs = (float)ih / (float)out_h, ws = (float)iw / (float)out_w;
  int32_t b, y, x, c;
  if (align_corners && out_h > 1)
    hs = (float)(ih - 1) / (float)(out_h - 1);
  if (align_corners && out_w > 1)
    ws = (float)(iw - 1) / (float)(out_w - 1);
  for (b = 0; b < in_dims[0]; ++b) {
    const float *base = in + (size_t)b * img;
    for (y = 0; y < out_h; ++y) {
      const float fy =
          half_pixel_centers ? ((float)y + 0.5f) * hs - 0.5f : (float)y * hs;
      const int32_t fl = (int32_t)floorf(fy), ce = (int32_t)ceilf(fy);
      const int32_t y0 = fl > 0 ? fl : 0, y1 = ce < ih - 1 ? ce : ih - 1;
      const float dy = fy - (float)y0;
      for (x = 0; x < out_w; ++x) {
        const float fx =
            half_pixel_centers ? ((float)x + 0.5f) * ws - 0.5f : (float)x * ws;
        const int32_t flx = (int32_t)floorf(fx), cex = (int32_t)ceilf(fx);
        const int32_t x0 = flx > 0 ? flx : 0, x1 = cex < iw - 1 ? cex : iw - 1;
        const float dx = fx - (float)x0;
        const float *p00 = base + (size_t)y0 * row + (size_t)x0 * (size_t)depth;
        const float *p10 = base + (size_t)y1 * row + (size_t)x0 * (size_t)depth;
        const float *p01 = base + (size_t)y0 * row + (size_t)x1 * (size_t)depth;
        const float *p11 = base + (size_t)y1 * row + (size_t)x1 * (size_t)depth;
        for (c = 0; c < depth; ++c)
          /* TFLM's order: four products left to right, then + 0.0f */
          *out++ = p00[c] * (1.0f - dy) * (1.0f - dx) +
                   p10[c] * dy * (1.0f - dx) + p01[c] * (1.0f - dy) * dx +
                   p11[c] * dy * dx + 0.0f;
      }
    }
  }
}

/* ======================================================================== */
/* Constants: INT4, Huffman and Prune                                       */
/* ======================================================================== */
/* INT4 nibbles are unpacked two at a time. Huffman and Prune are
 * sequential formats: a request is served from the constant's cursor when
 * it starts at or after it, else from the mark (where the last backward
 * request started) or from element 0, skipping forward to its start; the
 * cursor then notes where it ended. Every read of the stream, table,
 * bitmask and kept values is bounds-checked (past the end: zero bits, the
 * "element 0" entry, pruned elements, zero values), so unverified
 * descriptors decode the same way every time and never read outside their
 * buffers. The reference decoders below the fast ones share nothing with
 * them but the format. */

#define TFLC__HUFF_LOOKUPS 64            /* most lookups of one codeword */
#define TFLC__HUFF_MAX_BYTES 0x0FFFFFFFu /* stream bytes read at most */

TFLC_API tflc_const tflc_const_int4(const void *packed, int32_t count) {
  tflc_const c;
  memset(&c, 0, sizeof c);
  c.data = packed;
  c.count = count;
  c.channels = 1;
  c.elems_per_channel = count;
  c.type = (uint8_t)TFLC_INT8;
  c.bits = 4;
  c.kind = (uint8_t)TFLC_CONST_INT4;
  c.data_bytes = count > 0 ? (uint32_t)count / 2u + ((uint32_t)count & 1u) : 0;
  return c;
}

TFLC_API tflc_const tflc_const_huffman(const void *stream,
                                       uint32_t stream_bytes, const void *table,
                                       uint32_t table_entries, int wide,
                                       int first_bits, tflc_type type,
                                       int32_t count,
                                       tflc_const_cursor *cursor) {
  tflc_const c;
  memset(&c, 0, sizeof c);
  c.data = stream;
  c.values = table;
  c.count = count;
  c.channels = 1;
  c.elems_per_channel = count;
  c.type = (uint8_t)type;
  c.bits = 8;
  c.kind = (uint8_t)TFLC_CONST_HUFFMAN;
  c.wide = (uint8_t)(wide ? 1 : 0);
  c.first_bits = (uint8_t)(first_bits < 0     ? 0
                           : first_bits > 255 ? 255
                                              : first_bits);
  c.data_bytes = stream_bytes;
  c.nvalues = table_entries;
  c.cursor = cursor;
  return c;
}

TFLC_API tflc_const tflc_const_prune(const void *mask, uint32_t mask_bytes,
                                     const void *values, uint32_t nvalues,
                                     tflc_type type, int32_t count,
                                     int32_t zero, tflc_const_cursor *cursor) {
  tflc_const c;
  memset(&c, 0, sizeof c);
  c.data = mask;
  c.values = values;
  c.count = count;
  c.channels = 1;
  c.elems_per_channel = count;
  c.type = (uint8_t)type;
  c.bits = 8;
  c.kind = (uint8_t)TFLC_CONST_PRUNE;
  /* its low byte, as TFLM keeps zero points of int8 tensors */
  c.zero = (int8_t)((int32_t)((uint32_t)zero & 0xFFu) -
                    (((uint32_t)zero & 0x80u) ? 256 : 0));
  c.data_bytes = mask_bytes;
  c.nvalues = nvalues;
  c.cursor = cursor;
  return c;
}

TFLC_API void tflc_const_prune_channels(tflc_const *c, const void *zero_points,
                                        int zp_stride, int32_t channels,
                                        int alt_axis) {
  c->aux = zero_points;
  c->aux_stride = (uint8_t)(zp_stride < 1     ? 1
                            : zp_stride > 255 ? 255
                                              : zp_stride);
  c->channels = channels < 1 ? 1 : channels;
  c->alt_axis = (uint8_t)(alt_axis && c->channels > 1 ? 1 : 0);
  if (c->channels <= 1)
    c->elems_per_channel = c->count;
  else if (c->alt_axis)
    c->elems_per_channel = 1;
  else
    c->elems_per_channel = c->count / c->channels;
}

/* es little-endian bytes of v (zero past its 4 bytes, or sign-extended
 * when `sext`) */
static void tflc__put_le(uint8_t *d, uint32_t v, size_t es, int sext) {
  size_t k;
  for (k = 0; k < es; k++)
    d[k] = (uint8_t)(k < 4 ? (v >> (8 * k)) & 0xFFu
                           : (sext && (v & 0x80000000u) ? 0xFFu : 0u));
}

/* ---- INT4 ---------------------------------------------------------------- */
static uint32_t tflc__nibble(const uint8_t *p, int32_t i) {
  const unsigned b = p[(uint32_t)i >> 1];
  const unsigned v = (i & 1) ? b >> 4 : b & 15u;
  return (uint32_t)(int32_t)((int)(v ^ 8u) - 8); /* sign-extended */
}
static void tflc__int4_decode(const tflc_const *c, int32_t i, int32_t n,
                              uint8_t *d, size_t es) {
  const uint8_t *p = (const uint8_t *)c->data;
  if (es != 1) {
    for (; n > 0; n--, i++, d += es)
      tflc__put_le(d, tflc__nibble(p, i), es, 1);
    return;
  }
  if (n > 0 && (i & 1)) {
    *d++ = (uint8_t)tflc__nibble(p, i++);
    n--;
  }
  {
    const uint8_t *s = p + ((uint32_t)i >> 1);
    for (; n >= 2; n -= 2, d += 2) {
      const unsigned b = *s++;
      d[0] = (uint8_t)(((b & 15u) ^ 8u) - 8u);
      d[1] = (uint8_t)(((b >> 4) ^ 8u) - 8u);
    }
    if (n > 0)
      *d = (uint8_t)(((*s & 15u) ^ 8u) - 8u);
  }
}

/* ---- cursors ------------------------------------------------------------- */
static uint32_t tflc__cursor_tag(const tflc_const *c) {
  return (uint32_t)c->kind | ((uint32_t)c->wide << 8) |
         ((uint32_t)c->first_bits << 16);
}
/* Where decoding for a request at `start` begins (*elem, *pos). Returns 1
 * when the request goes backwards (the mark then moves to its start). */
static int tflc__cursor_from(const tflc_const *c, int32_t start, int32_t *elem,
                             uint32_t *pos) {
  tflc_const_cursor *u = c->cursor;
  *elem = 0;
  *pos = 0;
  if (u == NULL)
    return 0;
  if (u->data != c->data || u->values != c->values ||
      u->tag != tflc__cursor_tag(c)) {
    memset(u, 0, sizeof *u);
    u->data = c->data;
    u->values = c->values;
    u->tag = tflc__cursor_tag(c);
    return 0;
  }
  if (start >= u->elem) {
    *elem = u->elem;
    *pos = u->pos;
    return 0;
  }
  u->restarts++;
  if (u->mark_elem <= start) {
    *elem = u->mark_elem;
    *pos = u->mark_pos;
  }
  return 1;
}
static void tflc__cursor_mark(const tflc_const *c, int32_t elem, uint32_t pos) {
  c->cursor->mark_elem = elem;
  c->cursor->mark_pos = pos;
}
static void tflc__cursor_save(const tflc_const *c, int32_t elem, uint32_t pos) {
  if (c->cursor != NULL) {
    c->cursor->elem = elem;
    c->cursor->pos = pos;
  }
}

/* ---- Huffman ------------------------------------------------------------- */
/* The stream, MSB-first: `acc` holds the next `have` bits from bit 31 down
 * (at least 25 after a fill). Past the end it reads zeros; `next` stops
 * counting 8 bytes past the end, so positions stay below 2^31. */
typedef struct tflc__bitrd {
  const uint8_t *p;
  uint32_t n;    /* stream bytes */
  uint32_t next; /* next byte to load */
  uint32_t acc;
  uint32_t have;
} tflc__bitrd;

static uint32_t tflc__huff_bytes(const tflc_const *c) {
  return c->data_bytes < TFLC__HUFF_MAX_BYTES ? c->data_bytes
                                              : TFLC__HUFF_MAX_BYTES;
}
static unsigned tflc__huff_first(const tflc_const *c) {
  return c->first_bits < 1 ? 1u : c->first_bits > 16 ? 16u : c->first_bits;
}
static void tflc__bitrd_fill(tflc__bitrd *r) {
  while (r->have <= 24u) {
    if (r->next < r->n)
      r->acc |= (uint32_t)r->p[r->next] << (24u - r->have);
    if (r->next < r->n + 8u)
      r->next++;
    r->have += 8u;
  }
}
static void tflc__bitrd_seek(tflc__bitrd *r, const tflc_const *c,
                             uint32_t pos) {
  r->p = (const uint8_t *)c->data;
  r->n = tflc__huff_bytes(c);
  r->next = pos >> 3;
  if (r->next > r->n + 8u)
    r->next = r->n + 8u;
  r->acc = 0;
  r->have = 0;
  tflc__bitrd_fill(r);
  r->acc <<= pos & 7u;
  r->have -= pos & 7u;
}
static uint32_t tflc__bitrd_pos(const tflc__bitrd *r) {
  return 8u * r->next - r->have;
}

/* Table entry fields of a 16-bit (wide 0) or 32-bit table. */
typedef struct tflc__huff_fmt {
  uint32_t found; /* flag: the entry is an element */
  unsigned shift; /* of the 4-bit count field */
  uint32_t link;  /* mask of the offset field */
} tflc__huff_fmt;
static tflc__huff_fmt tflc__huff_format(const tflc_const *c) {
  tflc__huff_fmt f;
  f.found = c->wide ? 0x80000000u : 0x8000u;
  f.shift = c->wide ? 27u : 11u;
  f.link = c->wide ? 0x07FFFFFFu : 0x07FFu;
  return f;
}
static uint32_t tflc__huff_entry(const tflc_const *c, const tflc__huff_fmt *f,
                                 uint32_t at) {
  const uint8_t *t = (const uint8_t *)c->values;
  if (at >= c->nvalues)
    return f->found | (15u << f->shift); /* "element 0, 15 bits used" */
  if (c->wide) {
    t += 4u * at;
    return (uint32_t)t[0] | ((uint32_t)t[1] << 8) | ((uint32_t)t[2] << 16) |
           ((uint32_t)t[3] << 24);
  }
  t += 2u * at;
  return (uint32_t)t[0] | ((uint32_t)t[1] << 8);
}

/* Table entries, little-endian at any address: one (unaligned) load on
 * little-endian hosts, bytes otherwise. */
static uint32_t tflc__huff_ld16(const uint8_t *t) {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) &&             \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint16_t v;
  memcpy(&v, t, 2);
  return v;
#else
  return (uint32_t)t[0] | ((uint32_t)t[1] << 8);
#endif
}
static uint32_t tflc__huff_ld32(const uint8_t *t) {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) &&             \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint32_t v;
  memcpy(&v, t, 4);
  return v;
#else
  return (uint32_t)t[0] | ((uint32_t)t[1] << 8) | ((uint32_t)t[2] << 16) |
         ((uint32_t)t[3] << 24);
#endif
}

/* The table entries of the next n elements (n <= TFLC__HUFF_CHUNK) into
 * e[], consuming their codewords; one function per table width, so that
 * the entry layout is constant in the loop. Each element: a lookup of the
 * first `first` bits, links followed to their sub-tables (at most
 * TFLC__HUFF_LOOKUPS lookups), then the bits the codeword used at its last
 * level are consumed. acc keeps at least 16 bits before every lookup (two
 * bytes at once inside the stream, zeros past its end). */
#define TFLC__HUFF_CHUNK 32
#define TFLC__HUFF_REFILL()                                                    \
  do {                                                                         \
    if (have < 16u) {                                                          \
      if (next + 1u < nb) {                                                    \
        acc |= (((uint32_t)p[next] << 8) | (uint32_t)p[next + 1u])             \
               << (16u - have);                                                \
        next += 2u;                                                            \
        have += 16u;                                                           \
      } else {                                                                 \
        while (have < 16u) {                                                   \
          if (next < nb)                                                       \
            acc |= (uint32_t)p[next] << (24u - have);                          \
          if (next < nb + 8u)                                                  \
            next++;                                                            \
          have += 8u;                                                          \
        }                                                                      \
      }                                                                        \
    }                                                                          \
  } while (0)
#define TFLC__HUFF_ENTRIES(NAME, ENTRY, FOUND, SHIFT, LINK)                    \
  static void NAME(const tflc_const *c, tflc__bitrd *r, int32_t n,             \
                   uint32_t *out) {                                            \
    const uint8_t *tab = (const uint8_t *)c->values, *p = r->p;                \
    const uint32_t len = c->nvalues, nb = r->n;                                \
    const uint32_t bad = (FOUND) | (15u << (SHIFT));                           \
    const unsigned first = tflc__huff_first(c);                                \
    uint32_t acc = r->acc, have = r->have, next = r->next;                     \
    int32_t k;                                                                 \
    for (k = 0; k < n; k++) {                                                  \
      unsigned w = first, used, left = TFLC__HUFF_LOOKUPS;                     \
      uint32_t at, e;                                                          \
      TFLC__HUFF_REFILL();                                                     \
      at = acc >> (32u - w);                                                   \
      e = at < len ? ENTRY : bad;                                              \
      while (!(e & (FOUND))) {                                                 \
        if (--left == 0) {                                                     \
          e = bad;                                                             \
          break;                                                               \
        }                                                                      \
        acc <<= w;                                                             \
        have -= w;                                                             \
        w = ((e >> (SHIFT)) & 15u) + 1u;                                       \
        TFLC__HUFF_REFILL();                                                   \
        at = at + (e & (LINK)) + (acc >> (32u - w));                           \
        e = at < len ? ENTRY : bad;                                            \
      }                                                                        \
      used = (e >> (SHIFT)) & 15u;                                             \
      if (used > w)                                                            \
        used = w;                                                              \
      acc <<= used;                                                            \
      have -= used;                                                            \
      out[k] = e;                                                              \
    }                                                                          \
    r->acc = acc;                                                              \
    r->have = have;                                                            \
    r->next = next;                                                            \
  }
TFLC__HUFF_ENTRIES(tflc__huff_entries16, tflc__huff_ld16(tab + 2u * at),
                   0x8000u, 11u, 0x07FFu)
TFLC__HUFF_ENTRIES(tflc__huff_entries32, tflc__huff_ld32(tab + 4u * at),
                   0x80000000u, 27u, 0x07FFFFFFu)
#undef TFLC__HUFF_ENTRIES
#undef TFLC__HUFF_REFILL

/* n elements from r: into d (es bytes each: an entry's low bytes), or
 * skipped when d is NULL. */
static void tflc__huff_run(const tflc_const *c, tflc__bitrd *r, int32_t n,
                           uint8_t *d, size_t es) {
  uint32_t e[TFLC__HUFF_CHUNK];
  while (n > 0) {
    const int32_t m = n < TFLC__HUFF_CHUNK ? n : TFLC__HUFF_CHUNK;
    int32_t k;
    if (c->wide)
      tflc__huff_entries32(c, r, m, e);
    else
      tflc__huff_entries16(c, r, m, e);
    if (d != NULL && es == 1) {
      for (k = 0; k < m; k++)
        d[k] = (uint8_t)e[k];
      d += m;
    } else if (d != NULL) {
      for (k = 0; k < m; k++, d += es)
        tflc__put_le(d, e[k], es, 0);
    }
    n -= m;
  }
}

static void tflc__huff_decode(const tflc_const *c, int32_t start, int32_t n,
                              uint8_t *d, size_t es) {
  tflc__bitrd r;
  int32_t e;
  uint32_t pos;
  const int back = tflc__cursor_from(c, start, &e, &pos);
  tflc__bitrd_seek(&r, c, pos);
  tflc__huff_run(c, &r, start - e, NULL, es);
  if (back)
    tflc__cursor_mark(c, start, tflc__bitrd_pos(&r));
  tflc__huff_run(c, &r, n, d, es);
  tflc__cursor_save(c, start + n, tflc__bitrd_pos(&r));
}

/* ---- Prune --------------------------------------------------------------- */
static uint32_t tflc__ones8(uint32_t b) {
  b = b - ((b >> 1) & 0x55u);
  b = (b & 0x33u) + ((b >> 2) & 0x33u);
  return (b + (b >> 4)) & 0x0Fu;
}
/* Kept elements among [from, to) (mask bits past data_bytes are 0). */
static uint32_t tflc__mask_ones(const tflc_const *c, int32_t from, int32_t to) {
  const uint8_t *m = (const uint8_t *)c->data;
  const uint32_t nb = c->data_bytes, end = (uint32_t)to;
  uint32_t i = (uint32_t)from, ones = 0;
  for (; i < end && (i & 7u); i++)
    if ((i >> 3) < nb)
      ones += ((unsigned)m[i >> 3] >> (7u - (i & 7u))) & 1u;
  for (; i + 8u <= end && (i >> 3) < nb; i += 8u)
    ones += tflc__ones8(m[i >> 3]);
  for (; i < end && (i >> 3) < nb; i++)
    ones += ((unsigned)m[i >> 3] >> (7u - (i & 7u))) & 1u;
  return ones;
}
/* The pruned value of channel ch (1-byte types). */
static uint8_t tflc__prune_zero(const tflc_const *c, int32_t ch) {
  if (c->aux == NULL)
    return (uint8_t)((uint32_t)c->zero & 0xFFu);
  if (ch >= c->channels)
    ch = c->channels - 1;
  return ((const uint8_t *)c->aux)[(size_t)ch * c->aux_stride];
}

static void tflc__prune_decode(const tflc_const *c, int32_t start, int32_t n,
                               uint8_t *d, size_t es) {
  const uint8_t *m = (const uint8_t *)c->data;
  const uint8_t *vals = (const uint8_t *)c->values;
  const uint32_t nb = c->data_bytes, nv = c->nvalues;
  const int per_ch = c->aux != NULL && c->channels > 1;
  const int32_t epc = c->elems_per_channel;
  int32_t e, i, end = start + n, ch = 0, left = 0;
  uint32_t kept;
  uint8_t zero = es == 1 ? tflc__prune_zero(c, 0) : 0u;
  const int back = tflc__cursor_from(c, start, &e, &kept);
  kept += tflc__mask_ones(c, e, start);
  if (back)
    tflc__cursor_mark(c, start, kept);
  if (es == 1 && !per_ch && n > 0 && ((uint32_t)end + 7u) / 8u <= nb &&
      kept + tflc__mask_ones(c, start, end) <= nv) {
    /* int8 / bool, one zero point, everything inside the buffers: a mask
     * byte at a time without bounds checks */
    const uint8_t *v = vals + kept;
    unsigned b;
    for (i = start; i < end && (i & 7); i++)
      *d++ = (((unsigned)m[(uint32_t)i >> 3] >> (7u - ((unsigned)i & 7u))) & 1u)
                 ? *v++
                 : zero;
    for (; end - i >= 8; i += 8, d += 8) {
      b = m[(uint32_t)i >> 3];
      d[0] = (b & 0x80u) ? *v++ : zero;
      d[1] = (b & 0x40u) ? *v++ : zero;
      d[2] = (b & 0x20u) ? *v++ : zero;
      d[3] = (b & 0x10u) ? *v++ : zero;
      d[4] = (b & 0x08u) ? *v++ : zero;
      d[5] = (b & 0x04u) ? *v++ : zero;
      d[6] = (b & 0x02u) ? *v++ : zero;
      d[7] = (b & 0x01u) ? *v++ : zero;
    }
    for (; i < end; i++)
      *d++ = (((unsigned)m[(uint32_t)i >> 3] >> (7u - ((unsigned)i & 7u))) & 1u)
                 ? *v++
                 : zero;
    tflc__cursor_save(c, end, (uint32_t)(v - vals));
    return;
  }
  if (per_ch) {
    if (c->alt_axis) {
      ch = start % c->channels;
    } else if (epc > 0) {
      ch = start / epc;
      left = epc - start % epc;
    }
    zero = es == 1 ? tflc__prune_zero(c, ch) : 0u;
  }
  for (i = start; i < end;) {
    const uint32_t byte = (uint32_t)i >> 3;
    const unsigned b = byte < nb ? m[byte] : 0u;
    /* int8 / bool, one zero point: a mask byte at a time */
    if (es == 1 && !per_ch && ((unsigned)i & 7u) == 0 && end - i >= 8 &&
        kept + 8u <= nv && kept + 8u > kept) {
      const uint8_t *v = vals + kept;
      unsigned bb = b, j;
      for (j = 0; j < 8u; j++, bb <<= 1)
        d[j] = (bb & 0x80u) ? *v++ : zero;
      kept = (uint32_t)(v - vals);
      d += 8;
      i += 8;
      continue;
    }
    /* whole mask bytes of one zero point: all kept or all pruned */
    if (((unsigned)i & 7u) == 0 && end - i >= 8 &&
        (!per_ch || (!c->alt_axis && (epc <= 0 || left >= 8)))) {
      if (b == 0xFFu && kept + 8u <= nv && kept + 8u > kept) {
        memcpy(d, vals + (size_t)kept * es, 8u * es);
        kept += 8u;
      } else if (b == 0) {
        memset(d, es == 1 ? zero : 0, 8u * es);
      } else {
        unsigned k;
        for (k = 0; k < 8u; k++) {
          if ((b >> (7u - k)) & 1u) {
            if (kept < nv)
              memcpy(d + k * es, vals + (size_t)kept * es, es);
            else
              memset(d + k * es, 0, es);
            kept++;
          } else {
            memset(d + k * es, es == 1 ? zero : 0, es);
          }
        }
      }
      d += 8u * es;
      i += 8;
      if (per_ch && epc > 0 && (left -= 8) == 0) {
        ch++;
        left = epc;
        zero = es == 1 ? tflc__prune_zero(c, ch) : 0u;
      }
      continue;
    }
    if ((b >> (7u - ((unsigned)i & 7u))) & 1u) {
      if (kept < nv)
        memcpy(d, vals + (size_t)kept * es, es);
      else
        memset(d, 0, es);
      kept++;
    } else if (es == 1) {
      *d = zero;
    } else {
      memset(d, 0, es);
    }
    d += es;
    i++;
    if (per_ch) {
      if (c->alt_axis) {
        if (++ch == c->channels)
          ch = 0;
        zero = es == 1 ? tflc__prune_zero(c, ch) : 0u;
      } else if (epc > 0 && --left == 0) {
        ch++;
        left = epc;
        zero = es == 1 ? tflc__prune_zero(c, ch) : 0u;
      }
    }
  }
  tflc__cursor_save(c, end, kept);
}

static void tflc__kind_decode(const tflc_const *c, int32_t start, int32_t n,
                              void *dst) {
  const size_t es = tflc_type_size(c->type);
  uint8_t *d = (uint8_t *)dst;
  if (n <= 0 || es == 0)
    return;
  switch (c->kind) {
  case TFLC_CONST_INT4:
    tflc__int4_decode(c, start, n, d, es);
    break;
  case TFLC_CONST_HUFFMAN:
    tflc__huff_decode(c, start, n, d, es);
    break;
  case TFLC_CONST_PRUNE:
    tflc__prune_decode(c, start, n, d, es);
    break;
  default:
    memset(d, 0, (size_t)n * es); /* unknown kind */
    break;
  }
}

/* ---- reference decoders -------------------------------------------------- */
/* One element at a time from element 0, bits read one by one, channels by
 * division: slow and plain, the yardstick of the decoders above. */
static uint32_t tflc__ref_bits(const tflc_const *c, uint64_t pos, unsigned w) {
  const uint8_t *p = (const uint8_t *)c->data;
  const uint64_t nbits = (uint64_t)tflc__huff_bytes(c) * 8u;
  uint32_t v = 0;
  unsigned k;
  for (k = 0; k < w; k++, pos++) {
    unsigned bit = 0;
    if (pos < nbits)
      bit = ((unsigned)p[pos / 8u] >> (7u - (unsigned)(pos % 8u))) & 1u;
    v = (v << 1) | bit;
  }
  return v;
}
static uint32_t tflc__ref_huff_entry(const tflc_const *c, uint32_t at) {
  const uint8_t *t = (const uint8_t *)c->values;
  const unsigned sz = c->wide ? 4u : 2u;
  uint32_t v = 0;
  unsigned k;
  if (at >= c->nvalues)
    return c->wide ? 0xF8000000u : 0xF800u;
  for (k = sz; k > 0; k--)
    v = (v << 8) | t[(size_t)at * sz + k - 1];
  return v;
}
static void tflc__kind_decode_ref(const tflc_const *c, int32_t start, int32_t n,
                                  void *dst) {
  const size_t es = tflc_type_size(c->type);
  uint8_t *d = (uint8_t *)dst;
  int32_t i;
  if (n <= 0 || es == 0)
    return;
  if (c->kind == TFLC_CONST_INT4) {
    const uint8_t *p = (const uint8_t *)c->data;
    for (i = start; i < start + n; i++, d += es) {
      const unsigned b = p[i / 2];
      const int v = (int)(i % 2 ? b / 16u : b % 16u);
      tflc__put_le(d, (uint32_t)(int32_t)(v >= 8 ? v - 16 : v), es, 1);
    }
  } else if (c->kind == TFLC_CONST_HUFFMAN) {
    const uint32_t flag = c->wide ? 0x80000000u : 0x8000u;
    const unsigned cs = c->wide ? 27u : 11u;
    const uint32_t off = c->wide ? 0x07FFFFFFu : 0x07FFu;
    uint64_t pos = 0;
    for (i = 0; i < start + n; i++) {
      unsigned w = tflc__huff_first(c), look;
      uint32_t at = tflc__ref_bits(c, pos, w), e = 0, used;
      for (look = 1; look <= TFLC__HUFF_LOOKUPS; look++) {
        e = tflc__ref_huff_entry(c, at);
        if (e & flag)
          break;
        if (look == TFLC__HUFF_LOOKUPS) {
          e = flag | (15u << cs);
          break;
        }
        pos += w;
        w = ((e >> cs) & 15u) + 1u;
        at = at + (e & off) + tflc__ref_bits(c, pos, w);
      }
      used = (e >> cs) & 15u;
      pos += used < w ? used : w;
      if (i >= start) {
        tflc__put_le(d, e, es, 0);
        d += es;
      }
    }
  } else if (c->kind == TFLC_CONST_PRUNE) {
    const uint8_t *m = (const uint8_t *)c->data;
    const uint8_t *vals = (const uint8_t *)c->values;
    uint32_t kept = 0;
    for (i = 0; i < start + n; i++) {
      const int keep = (uint32_t)(i / 8) < c->data_bytes &&
                       ((m[i / 8] >> (7 - i % 8)) & 1) != 0;
      if (i >= start) {
        if (keep && kept < c->nvalues)
          memcpy(d, vals + (size_t)kept * es, es);
        else
          memset(d, 0, es);
        if (!keep && es == 1) {
          int32_t ch = 0;
          if (c->aux != NULL && c->channels > 1) {
            if (c->alt_axis)
              ch = i % c->channels;
            else if (c->elems_per_channel > 0)
              ch = i / c->elems_per_channel;
          }
          *d = tflc__prune_zero(c, ch);
        }
        d += es;
      }
      if (keep)
        kept++;
    }
  } else {
    memset(d, 0, (size_t)n * es);
  }
}

/* ---- checks -------------------------------------------------------------- */
static int tflc__huff_check(const tflc_const *c, int32_t *where) {
  const tflc__huff_fmt f = tflc__huff_format(c);
  const uint64_t nbits = (uint64_t)tflc__huff_bytes(c) * 8u;
  uint64_t pos = 0;
  int32_t i;
  tflc__bitrd r;
  if (c->first_bits < 1 || c->first_bits > 16 || c->wide > 1)
    return TFLC_CONST_BAD_FIELDS;
  tflc__bitrd_seek(&r, c, 0);
  for (i = 0; i < c->count; i++) {
    unsigned w = c->first_bits, look = 1, used;
    uint32_t at, e;
    *where = i;
    if (pos + w > nbits)
      return TFLC_CONST_STREAM_SHORT;
    tflc__bitrd_fill(&r);
    at = r.acc >> (32u - w);
    for (;;) {
      if (at >= c->nvalues)
        return TFLC_CONST_TABLE_INDEX;
      e = tflc__huff_entry(c, &f, at);
      if (e & f.found)
        break;
      if (look == TFLC__HUFF_LOOKUPS)
        return TFLC_CONST_TOO_DEEP;
      look++;
      r.acc <<= w;
      r.have -= w;
      pos += w;
      w = ((e >> f.shift) & 15u) + 1u;
      if (pos + w > nbits)
        return TFLC_CONST_STREAM_SHORT;
      tflc__bitrd_fill(&r);
      at = at + (e & f.link) + (r.acc >> (32u - w));
    }
    used = (e >> f.shift) & 15u;
    if (used > w)
      used = w;
    r.acc <<= used;
    r.have -= used;
    pos += used;
  }
  return TFLC_CONST_OK;
}

TFLC_API int tflc_const_check(const tflc_const *c, int32_t *where) {
  int32_t at = 0;
  int st = TFLC_CONST_OK;
  if (c->count < 0 || tflc_type_size(c->type) == 0) {
    st = TFLC_CONST_BAD_FIELDS;
  } else if (c->kind == TFLC_CONST_HUFFMAN) {
    st = tflc__huff_check(c, &at);
  } else if (c->kind == TFLC_CONST_PRUNE) {
    const uint64_t mask_bits = (uint64_t)c->data_bytes * 8u;
    if (c->aux != NULL && (c->channels < 1 || c->aux_stride < 1 ||
                           (c->channels > 1 && c->count % c->channels != 0))) {
      st = TFLC_CONST_BAD_CHANNELS;
    } else if (mask_bits < (uint64_t)c->count) {
      st = TFLC_CONST_MASK_SHORT;
      at = (int32_t)mask_bits;
    } else {
      const uint32_t ones = tflc__mask_ones(c, 0, c->count);
      if (ones != c->nvalues) {
        st = TFLC_CONST_KEPT_MISMATCH;
        at = (int32_t)ones;
      }
    }
  } else if (c->kind == TFLC_CONST_RAW_LUT) {
    if (c->bits > 8 || (c->bits && (c->stride < 1 || c->channels < 1)))
      st = TFLC_CONST_BAD_FIELDS;
  } else if (c->kind != TFLC_CONST_INT4) {
    st = TFLC_CONST_BAD_FIELDS;
  }
  if (where != NULL)
    *where = at;
  return st;
}

/* ======================================================================== */
/* Element-wise math, logic, casts, more types of pools and reductions      */
/* ======================================================================== */
/* Reuses the helpers above: the broadcast odometer (tflc__bcast), the
 * reduction odometers (tflc__reduce_iter), element access (tflc__load_int /
 * tflc__store_int_clamped) and the gemmlowp primitives. */

/* ---- float32 unary math ------------------------------------------------- */

/* TFLM's RoundToNearest: ties go to the even neighbour. */
static float tflc__round_half_even(float v) {
  const float fl = floorf(v);
  const float diff = v - fl;
  /* static_cast<int>(floor) % 2 in TFLM; a tie needs |v| < 2^23 */
  const int even =
      diff == 0.5f && fabsf(fl) < 8388608.0f && ((int32_t)fl % 2) == 0;
  if (diff < 0.5f || even)
    return fl;
  return fl + 1.0f;
}

TFLC_API void tflc_math_f32(int fn, int32_t n, const float *in, float *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    const float x = in[i];
    float y;
    switch (fn) {
    case TFLC_MATH_ABS:
      y = fabsf(x);
      break;
    case TFLC_MATH_CEIL:
      y = ceilf(x);
      break;
    case TFLC_MATH_COS:
      y = cosf(x);
      break;
    case TFLC_MATH_ELU:
      y = x < 0.0f ? expm1f(x) : x;
      break;
    case TFLC_MATH_EXP:
      y = expf(x);
      break;
    case TFLC_MATH_FLOOR:
      y = floorf(x);
      break;
    case TFLC_MATH_LOG:
      y = logf(x);
      break;
    case TFLC_MATH_NEG:
      y = -x;
      break;
    case TFLC_MATH_ROUND:
      y = tflc__round_half_even(x);
      break;
    case TFLC_MATH_RSQRT:
      y = 1.0f / sqrtf(x);
      break;
    case TFLC_MATH_SIN:
      y = sinf(x);
      break;
    case TFLC_MATH_SQRT:
      y = sqrtf(x);
      break;
    default: /* TFLC_MATH_SQUARE */
      y = x * x;
      break;
    }
    out[i] = y;
  }
}

/* ---- ABS / RSQRT int8, int16 -------------------------------------------- */

TFLC_API void tflc_abs_rsqrt_prepare(int rsqrt, float in_scale, int32_t in_zp,
                                     float out_scale, int32_t out_zp,
                                     tflc_abs_rsqrt_params *p) {
  p->input_zp = in_zp;
  p->output_zp = out_zp;
  p->rescale = in_scale != out_scale;
  p->plain = 0;
  p->multiplier = p->shift = 0;
  if (rsqrt) {
    const float den = sqrtf(in_scale) * out_scale;
    tflc_quantize_multiplier(1.0 / (double)den, &p->multiplier, &p->shift);
  } else if (p->rescale) {
    tflc_quantize_multiplier((double)(in_scale / out_scale), &p->multiplier,
                             &p->shift);
  }
}

TFLC_API void tflc_abs_q(const tflc_abs_rsqrt_params *p, int w, int32_t n,
                         const void *in, void *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    const int32_t x = tflc__load_int(in, w, (size_t)i);
    if (p->plain) {
      /* static_cast<int16_t>(std::abs(x)): abs(-32768) wraps */
      const int32_t a = x < 0 ? -x : x;
      ((int16_t *)out)[i] = (int16_t)(a > 32767 ? a - 65536 : a);
    } else {
      const int32_t d = x - p->input_zp;
      const int32_t v = d < 0 ? -d : d;
      const int32_t y = p->rescale ? tflc_multiply_by_quantized_multiplier(
                                         v, p->multiplier, p->shift) +
                                         p->output_zp
                                   : v + p->output_zp;
      tflc__store_int_clamped(out, w, (size_t)i, y, tflc__int_min_of_width(w),
                              tflc__int_max_of_width(w));
    }
  }
}

TFLC_API int tflc_rsqrt_q(const tflc_abs_rsqrt_params *p, int w, int32_t n,
                          const void *in, void *out) {
  /* 1/sqrt(v) as a multiplier, applied to 1 << 20, then rescaled */
  const int32_t shift20 = 20;
  int32_t i;
  for (i = 0; i < n; ++i) {
    const int32_t x = tflc__load_int(in, w, (size_t)i);
    const int32_t v = x - p->input_zp;
    int32_t y;
    if (v < 0)
      return -1;
    if (v == 0) {
      y = tflc__int_max_of_width(w);
    } else {
      int32_t m, s, data;
      tflc__fp_inv_sqrt_multiplier(v, &m, &s);
      data = tflc_multiply_by_quantized_multiplier(1, m, s + shift20);
      y = tflc_multiply_by_quantized_multiplier(data, p->multiplier,
                                                p->shift - shift20) +
          p->output_zp;
    }
    tflc__store_int_clamped(out, w, (size_t)i, y, tflc__int_min_of_width(w),
                            tflc__int_max_of_width(w));
  }
  return 0;
}

/* ---- ELU int8 (lookup table) -------------------------------------------- */

TFLC_API void tflc_elu_table_s8(float in_scale, int32_t in_zp, float out_scale,
                                int32_t out_zp, int8_t table[256]) {
  const float inverse_scale = 1 / out_scale;
  int32_t v;
  for (v = -128; v <= 127; ++v) {
    const float x = in_scale * (float)(v - in_zp);
    const float t = x < 0.0f ? expf(x) - 1.0f : x;
    const float r = roundf(t * inverse_scale);
    const float q = r + (float)out_zp;
    int32_t y;
    /* static_cast<int32_t> of a float beyond int32 is undefined in TFLM;
     * saturating gives the clamp's answer */
    if (!(q == q))
      y = 0;
    else if (q >= 2147483647.0f)
      y = 127;
    else if (q <= -2147483648.0f)
      y = -128;
    else
      y = (int32_t)q;
    y = y > 127 ? 127 : y < -128 ? -128 : y;
    table[(uint8_t)(int8_t)v] = (int8_t)y;
  }
}

TFLC_API void tflc_lut_s8(const int8_t table[256], int32_t n, const int8_t *in,
                          int8_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i)
    out[i] = table[(uint8_t)in[i]];
}

/* ---- binary float32 / int32 arithmetic ---------------------------------- */

static float tflc__arith_one_f32(int fn, float a, float b) {
  switch (fn) {
  case TFLC_ARITH_ADD:
    return a + b;
  case TFLC_ARITH_SUB:
    return a - b;
  case TFLC_ARITH_MUL:
    return a * b;
  case TFLC_ARITH_DIV:
    return a / b;
  case TFLC_ARITH_FLOOR_DIV:
    return (float)floor((double)a / (double)b);
  case TFLC_ARITH_FLOOR_MOD: {
    const float m = fmodf(a, b);
    return m != 0.0f && ((b < 0.0f) != (m < 0.0f)) ? m + b : m;
  }
  default: { /* TFLC_ARITH_SQUARED_DIFFERENCE */
    const float d = a - b;
    return d * d;
  }
  }
}

TFLC_API void tflc_arith_f32(int fn, float lo, float hi, int32_t rank,
                             const int32_t *dims1, const float *in1,
                             const int32_t *dims2, const float *in2,
                             const int32_t *out_dims, float *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    float v = tflc__arith_one_f32(fn, in1[it.off1], in2[it.off2]);
    if (fn == TFLC_ARITH_DIV) {
      v = v < lo ? lo : v;
      v = hi < v ? hi : v;
    }
    out[i] = v;
    tflc__bcast_next(&it);
  }
}

TFLC_API int tflc_arith_i32(int fn, int32_t lo, int32_t hi, int32_t rank,
                            const int32_t *dims1, const int32_t *in1,
                            const int32_t *dims2, const int32_t *in2,
                            const int32_t *out_dims, int32_t *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    const int32_t a = in1[it.off1], b = in2[it.off2];
    int32_t v;
    switch (fn) {
    case TFLC_ARITH_ADD:
      v = tflc__kop_add(a, b);
      break;
    case TFLC_ARITH_SUB:
      v = tflc__kop_sub(a, b);
      break;
    case TFLC_ARITH_MUL:
      v = tflc__wrapping_mul32(a, b);
      break;
    case TFLC_ARITH_DIV:
      if (b == 0)
        return -1;
      /* INT32_MIN / -1 traps in C; its wrapped quotient is INT32_MIN */
      v = (b == -1) ? tflc__kop_sub(0, a) : a / b;
      break;
    default: { /* TFLC_ARITH_SQUARED_DIFFERENCE */
      const int32_t d = tflc__kop_sub(a, b);
      v = tflc__wrapping_mul32(d, d);
      break;
    }
    }
    v = v < lo ? lo : v;
    v = hi < v ? hi : v;
    out[i] = v;
    tflc__bcast_next(&it);
  }
  return 0;
}

/* ---- DIV int8 ----------------------------------------------------------- */

/* TFLM's CountLeadingSignBits for int32 (31 for 0). */
static int tflc__leading_sign_bits(int32_t x) {
  const uint32_t u = x >= 0 ? (uint32_t)x : ~(uint32_t)x;
  return tflc__kop_clz32(u) - 1;
}

TFLC_API int tflc_div_s8(const tflc_div_params *p, int32_t rank,
                         const int32_t *dims1, const int8_t *in1,
                         const int32_t *dims2, const int8_t *in2,
                         const int32_t *out_dims, int8_t *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    int32_t a = p->input1_offset + in1[it.off1];
    int32_t b = p->input2_offset + in2[it.off2];
    int recip_shift, headroom;
    int32_t inv, quotient, y;
    if (b == 0)
      return -1;
    if (b < 0) {
      a = -a;
      b = -b;
    }
    inv = tflc__fp_reciprocal(b, 31, &recip_shift);
    headroom = tflc__leading_sign_bits(a);
    /* MultiplyByQuantizedMultiplierGreaterThanOne(a, inv, headroom) */
    quotient = tflc_saturating_rounding_doubling_high_mul(
        tflc__kop_i32((uint32_t)a << headroom), inv);
    /* ...SmallerThanOneExp(quotient, multiplier, total shift) */
    y = tflc_rounding_divide_by_pot(
            tflc_saturating_rounding_doubling_high_mul(quotient, p->multiplier),
            -(p->shift - recip_shift - headroom)) +
        p->output_offset;
    y = y < p->act_min ? p->act_min : y;
    y = y > p->act_max ? p->act_max : y;
    out[i] = (int8_t)y;
    tflc__bcast_next(&it);
  }
  return 0;
}

/* ---- SQUARED_DIFFERENCE int8 / int16 ------------------------------------ */

TFLC_API int tflc_squared_difference_prepare(float s1, int32_t z1, float s2,
                                             int32_t z2, float so, int32_t zo,
                                             int w, tflc_add_params *p) {
  const double twice_max = 2.0 * (double)(s1 < s2 ? s2 : s1);
  const int32_t ls = w == 1 ? 7 : 0;
  const double mo =
      twice_max * twice_max / (double)((float)((int32_t)1 << (ls * 2)) * so);
  p->input1_offset = -z1;
  p->input2_offset = -z2;
  p->output_offset = zo;
  p->left_shift = ls;
  p->act_min = tflc__int_min_of_width(w);
  p->act_max = tflc__int_max_of_width(w);
  tflc_quantize_multiplier(mo, &p->output_multiplier, &p->output_shift);
  return tflc__quantize_multiplier_below_one(
             (double)s1 / twice_max, &p->input1_multiplier, &p->input1_shift) &&
         tflc__quantize_multiplier_below_one(
             (double)s2 / twice_max, &p->input2_multiplier, &p->input2_shift);
}

/* MultiplyByQuantizedMultiplierSmallerThanOneExp */
static int32_t tflc__mbqm_below_one(int32_t x, int32_t q, int32_t shift) {
  return tflc_rounding_divide_by_pot(
      tflc_saturating_rounding_doubling_high_mul(x, q), -shift);
}

TFLC_API void tflc_squared_difference_q(const tflc_add_params *p, int w,
                                        int32_t rank, const int32_t *dims1,
                                        const void *in1, const int32_t *dims2,
                                        const void *in2,
                                        const int32_t *out_dims, void *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    const int32_t a = (p->input1_offset + tflc__load_int(in1, w, it.off1)) *
                      ((int32_t)1 << p->left_shift);
    const int32_t b = (p->input2_offset + tflc__load_int(in2, w, it.off2)) *
                      ((int32_t)1 << p->left_shift);
    const int32_t d =
        tflc__mbqm_below_one(a, p->input1_multiplier, p->input1_shift) -
        tflc__mbqm_below_one(b, p->input2_multiplier, p->input2_shift);
    const int32_t y =
        tflc_multiply_by_quantized_multiplier(
            tflc__wrapping_mul32(d, d), p->output_multiplier, p->output_shift) +
        p->output_offset;
    tflc__store_int_clamped(out, w, i, y, p->act_min, p->act_max);
    tflc__bcast_next(&it);
  }
}

/* ---- ADD_N, CUMSUM ------------------------------------------------------ */

TFLC_API int tflc_add_n_prepare_s8(float in_scale, int32_t in_zp,
                                   float out_scale, int32_t out_zp,
                                   tflc_add_params *p) {
  const double twice = 2 * (double)in_scale;
  p->input1_offset = p->input2_offset = -in_zp;
  p->output_offset = out_zp;
  p->left_shift = 20;
  p->act_min = -128;
  p->act_max = 127;
  p->input2_multiplier = p->input2_shift = 0;
  return tflc__quantize_multiplier_below_one((double)in_scale / twice,
                                             &p->input1_multiplier,
                                             &p->input1_shift) &&
         tflc__quantize_multiplier_below_one(
             twice / ((double)(1 << 20) * (double)out_scale),
             &p->output_multiplier, &p->output_shift);
}

TFLC_API void tflc_add_n_f32(int32_t n_inputs, const float *const *inputs,
                             int32_t count, float *out) {
  int32_t i, k;
  for (i = 0; i < count; ++i) {
    float x = 0.0f;
    for (k = 0; k < n_inputs; ++k)
      x += inputs[k][i];
    out[i] = x;
  }
}

/* One int8 value scaled as TFLM's left-shift-20 adders do it. */
static int32_t tflc__scaled_input_s8(const tflc_add_params *p, int32_t x) {
  return tflc__mbqm_below_one((p->input1_offset + x) * ((int32_t)1 << 20),
                              p->input1_multiplier, p->input1_shift);
}
static int8_t tflc__scaled_output_s8(const tflc_add_params *p, int32_t acc) {
  int32_t y = tflc__mbqm_below_one(acc, p->output_multiplier, p->output_shift) +
              p->output_offset;
  y = y < p->act_min ? p->act_min : y;
  y = y > p->act_max ? p->act_max : y;
  return (int8_t)y;
}

TFLC_API void tflc_add_n_s8(const tflc_add_params *p, int32_t n_inputs,
                            const int8_t *const *inputs, int32_t count,
                            int8_t *out) {
  int32_t i, k;
  for (i = 0; i < count; ++i) {
    /* TFLM starts from the scaled offset itself ("x = 0" in its comment) */
    int32_t acc = tflc__mbqm_below_one(p->input1_offset * ((int32_t)1 << 20),
                                       p->input1_multiplier, p->input1_shift);
    for (k = 0; k < n_inputs; ++k)
      acc = tflc__kop_add(acc, tflc__scaled_input_s8(p, inputs[k][i]));
    out[i] = tflc__scaled_output_s8(p, acc);
  }
}

/* Lines along `axis`: count of lines before it (outer) and after it
 * (inner, also the stride of the axis). */
static void tflc__axis_lines(int32_t rank, const int32_t *dims, int32_t axis,
                             size_t *before, size_t *len, size_t *after) {
  int32_t k;
  *before = *after = 1;
  *len = (size_t)dims[axis];
  for (k = 0; k < rank; ++k) {
    if (k < axis)
      *before *= (size_t)dims[k];
    else if (k > axis)
      *after *= (size_t)dims[k];
  }
}

TFLC_API void tflc_cumsum_f32(int32_t rank, const int32_t *dims, int32_t axis,
                              int exclusive, int reverse, const float *in,
                              float *out) {
  size_t before, len, after, b, a, d;
  tflc__axis_lines(rank, dims, axis, &before, &len, &after);
  for (b = 0; b < before; ++b) {
    for (a = 0; a < after; ++a) {
      float acc = 0.0f;
      for (d = 0; d < len; ++d) {
        const size_t dd = reverse ? len - 1 - d : d;
        const size_t idx = (b * len + dd) * after + a;
        if (exclusive) {
          out[idx] = acc;
          acc = acc + in[idx];
        } else {
          acc = acc + in[idx];
          out[idx] = acc;
        }
      }
    }
  }
}

TFLC_API void tflc_cumsum_s8(const tflc_add_params *p, int32_t rank,
                             const int32_t *dims, int32_t axis, int exclusive,
                             int reverse, const int8_t *in, int8_t *out) {
  size_t before, len, after, b, a, d;
  tflc__axis_lines(rank, dims, axis, &before, &len, &after);
  for (b = 0; b < before; ++b) {
    for (a = 0; a < after; ++a) {
      /* as ADD_N, the accumulator starts at the scaled offset */
      int32_t acc = tflc__mbqm_below_one(p->input1_offset * ((int32_t)1 << 20),
                                         p->input1_multiplier, p->input1_shift);
      for (d = 0; d < len; ++d) {
        const size_t dd = reverse ? len - 1 - d : d;
        const size_t idx = (b * len + dd) * after + a;
        const int32_t y = tflc__scaled_input_s8(p, in[idx]);
        int32_t v;
        if (exclusive) {
          v = acc;
          acc = tflc__kop_add(acc, y);
        } else {
          acc = tflc__kop_add(acc, y);
          v = acc;
        }
        out[idx] = tflc__scaled_output_s8(p, v);
      }
    }
  }
}

/* ---- CAST --------------------------------------------------------------- */

static int tflc__cast_in_ok(int t) {
  return t == TFLC_INT8 || t == TFLC_INT16 || t == TFLC_INT32 ||
         t == TFLC_UINT32 || t == TFLC_FLOAT32 || t == TFLC_BOOL;
}
static int tflc__cast_out_ok(int t) {
  return t == TFLC_INT8 || t == TFLC_INT16 || t == TFLC_INT32 ||
         t == TFLC_UINT32 || t == TFLC_FLOAT32;
}
/* An integer element widened to int64 (uint32 zero-extended). */
static int64_t tflc__cast_load_int(int t, const void *p, int32_t i) {
  switch (t) {
  case TFLC_INT8:
    return ((const int8_t *)p)[i];
  case TFLC_INT16:
    return ((const int16_t *)p)[i];
  case TFLC_INT32:
    return ((const int32_t *)p)[i];
  case TFLC_UINT32:
    return ((const uint32_t *)p)[i];
  default: /* TFLC_BOOL */
    return ((const uint8_t *)p)[i] != 0;
  }
}
/* float -> int64 by truncation; beyond int64 or NaN: 0 (undefined in
 * TFLM, whose inputs stay in range). */
static int64_t tflc__cast_trunc(float f) {
  if (!(f > -9.2233720e18f && f < 9.2233720e18f))
    return 0;
  return (int64_t)f;
}

TFLC_API int tflc_cast(int in_type, int out_type, int32_t n, const void *in,
                       void *out) {
  int32_t i;
  if (!tflc__cast_in_ok(in_type) || !tflc__cast_out_ok(out_type))
    return -1;
  for (i = 0; i < n; ++i) {
    if (out_type == TFLC_FLOAT32) {
      ((float *)out)[i] = in_type == TFLC_FLOAT32
                              ? ((const float *)in)[i]
                              : (float)tflc__cast_load_int(in_type, in, i);
    } else {
      const int64_t v = in_type == TFLC_FLOAT32
                            ? tflc__cast_trunc(((const float *)in)[i])
                            : tflc__cast_load_int(in_type, in, i);
      const uint32_t u = (uint32_t)(uint64_t)v; /* the low bits: wrapping */
      switch (out_type) {
      case TFLC_INT8:
        ((int8_t *)out)[i] =
            (int8_t)((int32_t)(u & 0xFFu) - ((u & 0x80u) ? 256 : 0));
        break;
      case TFLC_INT16:
        ((int16_t *)out)[i] =
            (int16_t)((int32_t)(u & 0xFFFFu) - ((u & 0x8000u) ? 65536 : 0));
        break;
      case TFLC_INT32:
        ((int32_t *)out)[i] = tflc__kop_i32(u);
        break;
      default: /* TFLC_UINT32 */
        ((uint32_t *)out)[i] = u;
        break;
      }
    }
  }
  return 0;
}

/* ---- LOGICAL_AND / LOGICAL_OR / LOGICAL_NOT, SELECT_V2 ------------------ */

TFLC_API void tflc_logical(int is_or, int32_t rank, const int32_t *dims1,
                           const uint8_t *in1, const int32_t *dims2,
                           const uint8_t *in2, const int32_t *out_dims,
                           uint8_t *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    const int a = in1[it.off1] != 0, b = in2[it.off2] != 0;
    out[i] = (uint8_t)(is_or ? (a || b) : (a && b));
    tflc__bcast_next(&it);
  }
}

TFLC_API void tflc_logical_not(int32_t n, const uint8_t *in, uint8_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i)
    out[i] = (uint8_t)(in[i] == 0);
}

TFLC_API void tflc_select(size_t elem_size, int32_t rank,
                          const int32_t *cond_dims, const uint8_t *cond,
                          const int32_t *x_dims, const void *x,
                          const int32_t *y_dims, const void *y,
                          const int32_t *out_dims, void *out) {
  /* two odometers: (cond, x) and (y, y) */
  tflc__bcast cx, yy;
  size_t i;
  const size_t n = tflc__bcast_init(&cx, rank, cond_dims, x_dims, out_dims);
  (void)tflc__bcast_init(&yy, rank, y_dims, y_dims, out_dims);
  for (i = 0; i < n; ++i) {
    const uint8_t *src = cond[cx.off1]
                             ? (const uint8_t *)x + cx.off2 * elem_size
                             : (const uint8_t *)y + yy.off1 * elem_size;
    memcpy((uint8_t *)out + i * elem_size, src, elem_size);
    tflc__bcast_next(&cx);
    tflc__bcast_next(&yy);
  }
}

/* ---- int16 LOGISTIC / TANH, SOFTMAX ------------------------------------- */

TFLC_API int tflc_checked_log2(float x, int32_t *log2) {
  const float l = logf(x) * (1.0f / logf(2.0f));
  const float r = roundf(l);
  *log2 = (r > -1e9f && r < 1e9f) ? (int32_t)r : 0;
  return fabsf(l - r) < 1e-3f;
}

TFLC_API void tflc_sigmoid_prepare_s16(int tanh, float in_scale, int32_t *mult,
                                       int32_t *shift) {
  /* 3 input integer bits; a power-of-two scale of 2^-12 (or 2^-13 for
   * tanh) multiplies by 3 without a shift */
  int32_t l2, s;
  const int pot = tflc_checked_log2(in_scale, &l2);
  s = 12 + l2;
  if (pot && (s == 0 || (tanh && s == 1))) {
    *mult = 3 << s;
    *shift = 0;
    return;
  }
  {
    double m = (double)in_scale * 4096.0 * 3.0;
    s = 0;
    while (m <= 32767.0 / 2.0 && s <= 30) {
      ++s;
      m = m * 2.0;
    }
    /* (nonsense scales: beyond int32, negative or NaN, saturated; the
     * kernel's arithmetic wraps, so any multiplier is defined) */
    *mult = !(m > -2147483648.0) ? INT32_MIN
            : m >= 2147483647.0  ? INT32_MAX
                                 : (int32_t)m;
    *shift = s;
  }
}

TFLC_API void tflc_logistic_s16(int32_t mult, int32_t shift, int32_t n,
                                const int16_t *in, int16_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i)
    out[i] = tflc_logistic_s16_one(in[i], mult, shift);
}

TFLC_API void tflc_tanh_s16(int32_t mult, int32_t shift, int32_t n,
                            const int16_t *in, int16_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i)
    out[i] = tflc_tanh_s16_one(in[i], mult, shift);
}

/* TFLM's LUTPopulate<int16_t> (float arithmetic): 512 interpolation steps
 * over the input range plus the end point. fn: 0 exp, 1 1 / (1 + x). */
static float tflc__lut16_fn(int fn, float x) {
  return fn == 0 ? expf(x) : 1.0f / (1.0f + x);
}
static void tflc__lut16_populate(int fn, float in_scale, int32_t in_zp,
                                 float out_scale, int32_t out_zp,
                                 int16_t *lut) {
  const float in_min = in_scale * (float)(-32768 - in_zp);
  const float in_max = in_scale * (float)(32767 - in_zp);
  const float out_min = out_scale * (float)(-32768 - out_zp);
  const float out_max = out_scale * (float)(32767 - out_zp);
  const float step = (in_max - in_min) / 512.0f;
  const float half_step = step / 2.0f;
  const float inv = 65536.0f / (out_max - out_min);
  int32_t i;
  float v;
  for (i = 0; i < 512; ++i) {
    const float val = tflc__lut16_fn(fn, in_min + (float)i * step);
    const float mid = tflc__lut16_fn(fn, in_min + (float)i * step + half_step);
    const float next = tflc__lut16_fn(fn, in_min + (float)(i + 1) * step);
    const float sample = roundf(val * inv);
    const float mid_interp = roundf((next * inv + roundf(val * inv)) / 2.0f);
    const float mid_val = roundf(mid * inv);
    const float bias = roundf((mid_interp - mid_val) / 2.0f);
    v = sample - bias;
    v = v > -32768.0f ? v : -32768.0f;
    v = v < 32767.0f ? v : 32767.0f;
    lut[i] = (int16_t)v;
  }
  v = roundf(tflc__lut16_fn(fn, in_max) * inv);
  v = v > -32768.0f ? v : -32768.0f;
  v = v < 32767.0f ? v : 32767.0f;
  lut[512] = (int16_t)v;
}

/* TFLM's LUTLookup: 9 index bits, 7 interpolated. */
static int16_t tflc__lut16_lookup(int16_t x, const int16_t *lut) {
  const int32_t index = 256 + tflc__asr32(x, 7);
  const int32_t offset = x & 0x7F;
  const int32_t base = lut[index];
  const int32_t slope = (int16_t)(lut[index + 1] - lut[index]);
  const int32_t delta = tflc__asr32(slope * offset + 64, 7);
  return (int16_t)(base + delta);
}

TFLC_API void tflc_softmax_prepare_s16(float beta, float in_scale,
                                       tflc_softmax_s16_params *p) {
  const float range = 65535.0f;
  tflc__lut16_populate(0, 10.0f / range, 32767, 2.0f / range, 0, p->exp_lut);
  tflc__lut16_populate(1, 1.0f / range, -32768, 2.0f / range, 0, p->recip_lut);
  tflc_quantize_multiplier((double)in_scale * (double)beta / (10.0 / 65535.0),
                           &p->input_multiplier, &p->input_shift);
}

TFLC_API void tflc_softmax_s16(const tflc_softmax_s16_params *p, int32_t rows,
                               int32_t depth, const int16_t *in, int16_t *out) {
  int32_t r, c;
  for (r = 0; r < rows; ++r) {
    const int16_t *x = in + (size_t)r * (size_t)depth;
    int16_t *y = out + (size_t)r * (size_t)depth;
    int32_t mx = -32768, sum = 0, h, shifted, sym, right;
    int16_t recip;
    for (c = 0; c < depth; ++c)
      mx = x[c] > mx ? x[c] : mx;
    /* exp values cached in the output, as TFLM */
    for (c = 0; c < depth; ++c) {
      int32_t d = tflc_multiply_by_quantized_multiplier(
          x[c] - mx, p->input_multiplier, p->input_shift);
      d += 32767;
      d = d < -32768 ? -32768 : d > 32767 ? 32767 : d;
      y[c] = tflc__lut16_lookup((int16_t)d, p->exp_lut);
      sum = tflc__kop_add(sum, y[c]);
    }
    h = tflc__kop_clz32((uint32_t)sum);
    if (h < 1 || h > 31)
      h = h < 1 ? 1 : 31; /* sum is positive: max's exp is near 32767 */
    shifted = (int32_t)tflc__asr64(
        ((int64_t)sum * ((int64_t)1 << (h - 1))) + (1 << 13), 14);
    sym = shifted - ((1 << 15) + (1 << 16));
    sym = sym < -32768 ? -32768 : sym > 32767 ? 32767 : sym;
    recip = tflc__lut16_lookup((int16_t)sym, p->recip_lut);
    right = 31 - h;
    for (c = 0; c < depth; ++c) {
      const int64_t round = right > 0 ? (int64_t)1 << (right - 1) : 0;
      int32_t v = (int32_t)tflc__asr64((int64_t)y[c] * recip + round, right);
      v = v < 0 ? 0 : v > 32767 ? 32767 : v;
      y[c] = (int16_t)v;
    }
  }
}

/* ---- pools of int16 and float32 ----------------------------------------- */

TFLC_API tflc_status tflc_pool_s16(int kind, const tflc_pool_params *p,
                                   const int32_t in_dims[4], const int16_t *in,
                                   const int32_t out_dims[4], int16_t *out) {
  const int32_t in_h = in_dims[1], in_w = in_dims[2], depth = in_dims[3];
  int32_t b, oy, ox, c, fy, fx;
  for (b = 0; b < in_dims[0]; ++b) {
    for (oy = 0; oy < out_dims[1]; ++oy) {
      int32_t y0, ys, ye;
      tflc__pool_window(oy, p->stride_h, p->pad_h, p->filter_h, in_h, &y0, &ys,
                        &ye);
      for (ox = 0; ox < out_dims[2]; ++ox) {
        int32_t x0, xs, xe;
        tflc__pool_window(ox, p->stride_w, p->pad_w, p->filter_w, in_w, &x0,
                          &xs, &xe);
        for (c = 0; c < depth; ++c) {
          int32_t acc = kind == TFLC_POOL_MAX ? -32768 : 0, cnt = 0;
          for (fy = ys; fy < ye; ++fy)
            for (fx = xs; fx < xe; ++fx) {
              const int32_t v =
                  in[(((size_t)b * (size_t)in_h + (size_t)(y0 + fy)) *
                          (size_t)in_w +
                      (size_t)(x0 + fx)) *
                         (size_t)depth +
                     (size_t)c];
              if (kind == TFLC_POOL_MAX)
                acc = v > acc ? v : acc;
              else
                acc += v;
              ++cnt;
            }
          if (kind != TFLC_POOL_MAX) {
            if (cnt == 0)
              return TFLC_ERR_KERNEL;
            acc = acc > 0 ? (acc + cnt / 2) / cnt : (acc - cnt / 2) / cnt;
          }
          acc = acc < p->act_min ? p->act_min : acc;
          acc = acc > p->act_max ? p->act_max : acc;
          *out++ = (int16_t)acc;
        }
      }
    }
  }
  return TFLC_OK;
}

TFLC_API tflc_status tflc_pool_f32(int kind, const tflc_pool_params *p,
                                   float act_min, float act_max,
                                   const int32_t in_dims[4], const float *in,
                                   const int32_t out_dims[4], float *out) {
  const int32_t in_h = in_dims[1], in_w = in_dims[2], depth = in_dims[3];
  int32_t b, oy, ox, c, fy, fx;
  for (b = 0; b < in_dims[0]; ++b) {
    for (oy = 0; oy < out_dims[1]; ++oy) {
      int32_t y0, ys, ye;
      tflc__pool_window(oy, p->stride_h, p->pad_h, p->filter_h, in_h, &y0, &ys,
                        &ye);
      for (ox = 0; ox < out_dims[2]; ++ox) {
        int32_t x0, xs, xe;
        tflc__pool_window(ox, p->stride_w, p->pad_w, p->filter_w, in_w, &x0,
                          &xs, &xe);
        for (c = 0; c < depth; ++c) {
          float acc = kind == TFLC_POOL_MAX ? -FLT_MAX : 0.0f, v;
          int32_t cnt = 0;
          for (fy = ys; fy < ye; ++fy)
            for (fx = xs; fx < xe; ++fx) {
              const float x =
                  in[(((size_t)b * (size_t)in_h + (size_t)(y0 + fy)) *
                          (size_t)in_w +
                      (size_t)(x0 + fx)) *
                         (size_t)depth +
                     (size_t)c];
              if (kind == TFLC_POOL_MAX)
                acc = acc < x ? x : acc; /* std::max(acc, x) */
              else if (kind == TFLC_POOL_L2)
                acc += x * x;
              else
                acc += x;
              ++cnt;
            }
          if (kind == TFLC_POOL_AVERAGE) {
            if (cnt == 0)
              return TFLC_ERR_KERNEL;
            v = acc / (float)cnt;
          } else if (kind == TFLC_POOL_L2) {
            v = sqrtf(acc / (float)cnt);
          } else {
            v = acc;
          }
          v = v < act_min ? act_min : v;
          v = act_max < v ? act_max : v;
          *out++ = v;
        }
      }
    }
  }
  return TFLC_OK;
}

/* ---- MEAN, REDUCE_MAX / REDUCE_MIN / REDUCE_ALL ------------------------- */

TFLC_API void tflc_mean_q(const tflc_mean_params *p, int w, int32_t rank,
                          const int32_t *in_dims, uint32_t axis_mask,
                          const void *in, void *out) {
  tflc__reduce_iter r;
  tflc_mean_params m = *p;
  tflc__reduce_iter_init(&r, rank, in_dims, axis_mask);
  if (!r.empty && r.n_red > 0) {
    /* fold 1/N into the multiplier, as TFLM's QuantizedMeanOrSum */
    int sh = 63 - tflc__kop_clz64((uint64_t)r.n_red);
    sh = sh > 32 ? 32 : sh;
    sh = sh > 31 + m.shift ? 31 + m.shift : sh;
    sh = sh < 0 ? 0 : sh;
    m.multiplier =
        (int32_t)(((int64_t)m.multiplier * ((int64_t)1 << sh)) / r.n_red);
    m.shift -= sh;
  }
  tflc_sum_q(&m, w, rank, in_dims, axis_mask, in, out);
}

TFLC_API void tflc_mean_f32(int32_t rank, const int32_t *in_dims,
                            uint32_t axis_mask, const float *in, float *out) {
  tflc__reduce_iter r;
  size_t o;
  tflc__reduce_iter_init(&r, rank, in_dims, axis_mask);
  tflc_sum_f32(rank, in_dims, axis_mask, in, out);
  if (r.empty || r.n_red <= 0)
    return;
  for (o = 0; o < r.n_out; ++o)
    out[o] = out[o] / (float)r.n_red;
}

TFLC_API void tflc_reduce_minmax(int type, int is_max, int32_t rank,
                                 const int32_t *in_dims, uint32_t axis_mask,
                                 const void *in, void *out) {
  tflc__reduce_iter r;
  int32_t ki[TFLC_MAX_DIMS], ri[TFLC_MAX_DIMS];
  size_t o, base = 0;
  int32_t k;
  const int f32 = type == TFLC_FLOAT32;
  tflc__reduce_iter_init(&r, rank, in_dims, axis_mask);
  for (k = 0; k < TFLC_MAX_DIMS; ++k)
    ki[k] = ri[k] = 0;
  for (o = 0; o < r.n_out; ++o) {
    float fa = is_max ? -FLT_MAX : FLT_MAX;
    int32_t ia = is_max ? -128 : 127;
    size_t off = base;
    int64_t i;
    for (i = 0; !r.empty && i < r.n_red; ++i) {
      if (f32) {
        const float x = ((const float *)in)[off];
        fa = is_max ? (x > fa ? x : fa) : (x < fa ? x : fa);
      } else {
        const int32_t x = ((const int8_t *)in)[off];
        ia = is_max ? (x > ia ? x : ia) : (x < ia ? x : ia);
      }
      tflc__odometer_next(r.nr, r.rd, r.rs, ri, &off);
    }
    if (f32)
      ((float *)out)[o] = fa;
    else
      ((int8_t *)out)[o] = (int8_t)ia;
    tflc__odometer_next(r.nk, r.kd, r.ks, ki, &base);
  }
}

TFLC_API void tflc_reduce_all(int32_t rank, const int32_t *in_dims,
                              uint32_t axis_mask, const uint8_t *in,
                              uint8_t *out) {
  tflc__reduce_iter r;
  int32_t ki[TFLC_MAX_DIMS], ri[TFLC_MAX_DIMS];
  size_t o, base = 0;
  int32_t k;
  tflc__reduce_iter_init(&r, rank, in_dims, axis_mask);
  for (k = 0; k < TFLC_MAX_DIMS; ++k)
    ki[k] = ri[k] = 0;
  for (o = 0; o < r.n_out; ++o) {
    int all = 1;
    size_t off = base;
    int64_t i;
    for (i = 0; !r.empty && i < r.n_red; ++i) {
      all = all && in[off] != 0;
      tflc__odometer_next(r.nr, r.rd, r.rs, ri, &off);
    }
    out[o] = (uint8_t)all;
    tflc__odometer_next(r.nk, r.kd, r.ks, ki, &base);
  }
}

/* ======================================================================== */
/* Signal processing: TFLM's Signal* operators                              */
/* ======================================================================== */
static int16_t tflc__signal_wrap16(int64_t v) {
  uint16_t u = (uint16_t)(uint64_t)v;
  return u <= 0x7FFFu ? (int16_t)u : (int16_t)((int32_t)u - 65536);
}
static int16_t tflc__signal_sat16(int32_t v) {
  return (int16_t)(v < INT16_MIN ? INT16_MIN : v > INT16_MAX ? INT16_MAX : v);
}
/* The position of the highest set bit, from 1; 32 for 0 (TFLM's
 * MostSignificantBit32 as GCC builds it, __builtin_clz based). */
static uint32_t tflc__signal_msb32(uint32_t x) {
  uint32_t n = 0;
  if (!x)
    return 32;
  while (x) {
    x >>= 1;
    n++;
  }
  return n;
}
static uint32_t tflc__signal_msb64(uint64_t x) {
  uint32_t n = 0;
  if (!x)
    return 64;
  while (x) {
    x >>= 1;
    n++;
  }
  return n;
}

TFLC_API void tflc_signal_window_s16(const int16_t *in, const int16_t *window,
                                     int32_t n, int32_t shift, int16_t *out) {
  int32_t i;
  for (i = 0; i < n; i++)
    out[i] = tflc__signal_sat16(
        tflc__asr32((int32_t)in[i] * (int32_t)window[i], (int)shift));
}

TFLC_API int32_t tflc_signal_fft_auto_scale_s16(const int16_t *in, int32_t n,
                                                int16_t *out) {
  /* TFLM's running maximum: an int16, so -(-32768) wraps to -32768 and a
   * later smaller magnitude can replace it; its bit count is taken of the
   * sign-extended value */
  int16_t max = 0;
  int32_t i, bits;
  for (i = 0; i < n; i++) {
    const int32_t v = in[i];
    if (v > max)
      max = (int16_t)v;
    else if (-v > max)
      max = tflc__signal_wrap16(-v);
  }
  bits = 16 - (int32_t)tflc__signal_msb32((uint32_t)(int32_t)max) - 1;
  if (bits < 0)
    bits = 0;
  for (i = 0; i < n; i++)
    out[i] = tflc__signal_wrap16((int32_t)in[i] * ((int32_t)1 << bits));
  return bits;
}

TFLC_API void tflc_signal_energy_s16(const int16_t *spectrum, int32_t start,
                                     int32_t end, uint32_t *out) {
  int32_t i;
  for (i = start; i < end; i++) {
    const int32_t re = spectrum[2 * i], im = spectrum[2 * i + 1];
    /* the int32 sum of TFLM, wrapping at 2^31 as it does */
    out[i] = (uint32_t)(re * re) + (uint32_t)(im * im);
  }
}

TFLC_API int tflc_signal_filter_bank_check(const tflc_filter_bank_params *p,
                                           int32_t in_count,
                                           int32_t weights_count) {
  int32_t i;
  if (p->num_channels < 0)
    return -1;
  for (i = 0; i <= p->num_channels; i++) {
    const int32_t f = p->frequency_starts[i], w = p->weight_starts[i],
                  n = p->widths[i];
    if (n <= 0)
      continue;
    if (f < 0 || w < 0 || n > in_count - f || n > weights_count - w)
      return -1;
  }
  return 0;
}

TFLC_API void tflc_signal_filter_bank_u32(const tflc_filter_bank_params *p,
                                          const uint32_t *in, int32_t out_count,
                                          uint64_t *out) {
  /* each bin adds weight * energy to its channel and (1 - weight) * energy
   * to the next; channel 0 only carries the first unweighted part */
  uint64_t weighted = 0, unweighted = 0;
  int32_t i, j;
  for (i = 0; i <= p->num_channels; i++) {
    const uint32_t *x = in + p->frequency_starts[i];
    const int16_t *w = p->weights + p->weight_starts[i];
    const int16_t *u = p->unweights + p->weight_starts[i];
    for (j = 0; j < p->widths[i]; j++) {
      /* int16 weights convert to uint64 (negative ones wrap), as in TFLM */
      weighted += (uint64_t)(int64_t)w[j] * x[j];
      unweighted += (uint64_t)(int64_t)u[j] * x[j];
    }
    if (i > 0 && i <= out_count)
      out[i - 1] = weighted;
    weighted = unweighted;
    unweighted = 0;
  }
}

/* TFLM's bit-by-bit integer square root, rounded to nearest when the
 * result has room. */
static uint32_t tflc__signal_sqrt32(uint32_t num) {
  uint32_t res = 0, bit;
  int32_t top, rounds;
  if (num == 0)
    return 0;
  top = (32 - (int32_t)tflc__signal_msb32(num)) | 1;
  bit = (uint32_t)1 << (31 - top);
  rounds = (31 - top) / 2 + 1;
  while (rounds--) {
    if (num >= res + bit) {
      num -= res + bit;
      res = (res >> 1) + bit;
    } else {
      res >>= 1;
    }
    bit >>= 2;
  }
  if (num > res && res != 0xFFFFu)
    ++res;
  return res & 0xFFFFu;
}
static uint32_t tflc__signal_sqrt64(uint64_t num) {
  uint64_t res = 0, bit;
  int32_t top, rounds;
  if ((num >> 32) == 0) /* TFLM's 32-bit shortcut */
    return tflc__signal_sqrt32((uint32_t)num);
  top = (64 - (int32_t)tflc__signal_msb64(num)) | 1;
  bit = (uint64_t)1 << (63 - top);
  rounds = (63 - top) / 2 + 1;
  while (rounds--) {
    if (num >= res + bit) {
      num -= res + bit;
      res = (res >> 1) + bit;
    } else {
      res >>= 1;
    }
    bit >>= 2;
  }
  if (num > res && res != 0xFFFFFFFFu)
    ++res;
  return (uint32_t)res;
}
TFLC_API void tflc_signal_filter_bank_square_root_u64(const uint64_t *in,
                                                      int32_t n, int32_t shift,
                                                      uint32_t *out) {
  int32_t i;
  for (i = 0; i < n; i++)
    out[i] = tflc__signal_sqrt64(in[i]) >> shift;
}

/* log2 of the fraction of x in [1, 2), 16 fractional bits, by linear
 * interpolation in a 128-segment correction table (TFLM's kLogLut). */
static const uint16_t tflc__signal_log_table[130] = {
    0,    224,  442,  654,  861,  1063, 1259, 1450, 1636, 1817, 1992, 2163,
    2329, 2490, 2646, 2797, 2944, 3087, 3224, 3358, 3487, 3611, 3732, 3848,
    3960, 4068, 4172, 4272, 4368, 4460, 4549, 4633, 4714, 4791, 4864, 4934,
    5001, 5063, 5123, 5178, 5231, 5280, 5326, 5368, 5408, 5444, 5477, 5507,
    5533, 5557, 5578, 5595, 5610, 5622, 5631, 5637, 5640, 5641, 5638, 5633,
    5626, 5615, 5602, 5586, 5568, 5547, 5524, 5498, 5470, 5439, 5406, 5370,
    5332, 5291, 5249, 5203, 5156, 5106, 5054, 5000, 4944, 4885, 4825, 4762,
    4697, 4630, 4561, 4490, 4416, 4341, 4264, 4184, 4103, 4020, 3935, 3848,
    3759, 3668, 3575, 3481, 3384, 3286, 3186, 3084, 2981, 2875, 2768, 2659,
    2549, 2437, 2323, 2207, 2090, 1971, 1851, 1729, 1605, 1480, 1353, 1224,
    1094, 963,  830,  695,  559,  421,  282,  142,  0,    0};
static uint32_t tflc__signal_log2_fraction(uint32_t x, uint32_t log2x) {
  int32_t frac = (int32_t)(x - ((uint32_t)1 << log2x)), c0, c1, rel;
  uint32_t seg;
  if (log2x < 16)
    frac = (int32_t)((uint32_t)frac << (16 - log2x));
  else
    frac >>= log2x - 16;     /* frac >= 0 */
  seg = (uint32_t)frac >> 9; /* 128 segments of 512 */
  c0 = tflc__signal_log_table[seg];
  c1 = tflc__signal_log_table[seg + 1];
  rel = tflc__asr32((c1 - c0) * (frac - (int32_t)(seg * 512u)), 16);
  return (uint32_t)(frac + c0 + rel);
}
/* ln(x) * out_scale / 2^16, x > 1, in TFLM's fixed point (log2 times
 * 45426 / 2^16, rounding at each step; the last product wraps). */
static uint32_t tflc__signal_log32(uint32_t x, uint32_t out_scale) {
  const uint32_t integer = tflc__signal_msb32(x) - 1;
  const uint32_t log2 =
      (integer << 16) + tflc__signal_log2_fraction(x, integer);
  const uint32_t loge = (uint32_t)(((uint64_t)45426 * log2 + 32768u) >> 16);
  return (out_scale * loge + 32768u) >> 16;
}
TFLC_API void tflc_signal_filter_bank_log_u32(const uint32_t *in, int32_t n,
                                              int32_t output_scale,
                                              int32_t correction_bits,
                                              int16_t *out) {
  int32_t i;
  for (i = 0; i < n; i++) {
    const uint32_t scaled = in[i] << correction_bits;
    if (scaled > 1) {
      const uint32_t v = tflc__signal_log32(scaled, (uint32_t)output_scale);
      out[i] = (int16_t)(v < 32767u ? v : 32767u);
    } else {
      out[i] = 0;
    }
  }
}

TFLC_API void
tflc_signal_spectral_subtraction_u32(const tflc_spectral_subtraction_params *p,
                                     const uint32_t *in, uint32_t *out,
                                     uint32_t *noise) {
  const uint32_t sb = p->smoothing_bits, ssb = p->spectral_subtraction_bits;
  int32_t i;
  for (i = 0; i < p->num_channels; i++) {
    /* odd channels use the alternate coefficients */
    const uint32_t s = (i & 1) ? p->alternate_smoothing : p->smoothing;
    const uint32_t oms =
        (i & 1) ? p->alternate_one_minus_smoothing : p->one_minus_smoothing;
    const uint32_t up = in[i] << sb;
    uint32_t est, floor_v, sub;
    noise[i] = (uint32_t)(((uint64_t)up * s + (uint64_t)noise[i] * oms) >> ssb);
    est = noise[i];
    if (est > up) {
      est = up;
      if (p->clamping)
        noise[i] = est;
    }
    floor_v = (uint32_t)(((uint64_t)in[i] * p->min_signal_remaining) >> ssb);
    sub = (up - est) >> sb;
    out[i] = sub > floor_v ? sub : floor_v;
  }
}

/* PCAN gain: piecewise quadratic in the segment of x's top bit (4 table
 * entries per power of two, 10 fraction bits), TFLM's fixed point with
 * int32 wrap-around. */
static int16_t tflc__signal_pcan_gain(uint32_t x, const int16_t *lut) {
  int32_t interval, frac, r;
  if (x <= 2)
    return lut[x];
  interval = (int32_t)tflc__signal_msb32(x);
  lut += 4 * interval - 6;
  frac = (int32_t)(((interval < 11) ? (x << (11 - interval))
                                    : (x >> (interval - 11))) &
                   0x3FFu);
  r = tflc__asr32((int32_t)lut[2] * frac, 5);
  r = tflc__wrap32((int64_t)r +
                   tflc__wrap32((int64_t)((uint32_t)(int32_t)lut[1] << 5)));
  r = tflc__wrap32((int64_t)r * frac);
  r = tflc__asr32(tflc__wrap32((int64_t)r + (1 << 14)), 15);
  return tflc__signal_wrap16((int64_t)r + lut[0]);
}
/* x^2 / 4 below 2 (SNR with 12 fraction bits), x - 1 above; 6 fraction
 * bits out */
static uint32_t tflc__signal_pcan_shrink(uint32_t x) {
  if (x < (2u << 12))
    return (x * x) >> 20;
  return (x >> 6) - (1u << 6);
}
TFLC_API void tflc_signal_pcan_u32(const int16_t *gain_lut, int32_t snr_shift,
                                   const uint32_t *noise, const uint32_t *in,
                                   uint32_t *out, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) {
    const uint32_t gain =
        (uint32_t)(int32_t)tflc__signal_pcan_gain(noise[i], gain_lut);
    const uint32_t snr = (uint32_t)(((uint64_t)in[i] * gain) >> snr_shift);
    out[i] = tflc__signal_pcan_shrink(snr);
  }
}

TFLC_API void tflc_signal_overlap_add_s16(const int16_t *in, int16_t *buffer,
                                          int32_t frame_size,
                                          int32_t frame_step, int16_t *out) {
  int32_t i;
  for (i = 0; i < frame_size; i++)
    buffer[i] = tflc__signal_sat16((int32_t)in[i] + buffer[i]);
  memcpy(out, buffer, (size_t)frame_step * sizeof *out);
  memmove(buffer, buffer + frame_step,
          (size_t)(frame_size - frame_step) * sizeof *buffer);
  memset(buffer + (frame_size - frame_step), 0,
         (size_t)frame_step * sizeof *buffer);
}
TFLC_API void tflc_signal_overlap_add_f32(const float *in, float *buffer,
                                          int32_t frame_size,
                                          int32_t frame_step, float *out) {
  int32_t i;
  for (i = 0; i < frame_size; i++)
    buffer[i] += in[i];
  memcpy(out, buffer, (size_t)frame_step * sizeof *out);
  memmove(buffer, buffer + frame_step,
          (size_t)(frame_size - frame_step) * sizeof *buffer);
  memset(buffer + (frame_size - frame_step), 0,
         (size_t)frame_step * sizeof *buffer);
}

/* ---- sample rings -------------------------------------------------------- */
TFLC_API void tflc_ring_s16_reset(tflc_ring_s16 *r) {
  r->read = r->write = 0;
  r->empty = 1;
  memset(r->data, 0, (size_t)r->capacity * sizeof *r->data);
}
TFLC_API uint32_t tflc_ring_s16_available(const tflc_ring_s16 *r) {
  if (r->write > r->read)
    return r->write - r->read;
  if (r->write < r->read)
    return r->capacity - (r->read - r->write);
  return r->empty ? 0 : r->capacity;
}
TFLC_API void tflc_ring_s16_write(tflc_ring_s16 *r, const int16_t *v,
                                  uint32_t n) {
  uint32_t first;
  if (n == 0)
    return;
  if (n > r->capacity) /* outside the contract; stay inside the buffer */
    n = r->capacity;
  first = r->capacity - r->write < n ? r->capacity - r->write : n;
  if (v) {
    memcpy(r->data + r->write, v, (size_t)first * sizeof *v);
    memcpy(r->data, v + first, (size_t)(n - first) * sizeof *v);
  } else {
    memset(r->data + r->write, 0, (size_t)first * sizeof *r->data);
    memset(r->data, 0, (size_t)(n - first) * sizeof *r->data);
  }
  /* n <= capacity: the end wraps at most once */
  r->write =
      r->write + n < r->capacity ? r->write + n : r->write + n - r->capacity;
  r->empty = 0;
}
TFLC_API void tflc_ring_s16_extend(tflc_ring_s16 *r, uint32_t count,
                                   int32_t times) {
  uint32_t start;
  int32_t t;
  if (times <= 0 || count == 0 || count > r->capacity)
    return;
  start = count > r->write ? r->write + r->capacity - count : r->write - count;
  for (t = 0; t < times; t++) {
    if (start + count <= r->capacity) {
      tflc_ring_s16_write(r, r->data + start, count);
    } else {
      const uint32_t n1 = r->capacity - start;
      tflc_ring_s16_write(r, r->data + start, n1);
      tflc_ring_s16_write(r, r->data, count - n1);
    }
  }
}
TFLC_API void tflc_ring_s16_get(const tflc_ring_s16 *r, uint32_t n,
                                int16_t *out) {
  uint32_t first;
  if (n > r->capacity)
    n = r->capacity;
  first = r->capacity - r->read < n ? r->capacity - r->read : n;
  memcpy(out, r->data + r->read, (size_t)first * sizeof *out);
  memcpy(out + first, r->data, (size_t)(n - first) * sizeof *out);
}
TFLC_API void tflc_ring_s16_discard(tflc_ring_s16 *r, uint32_t n) {
  if (n > r->capacity)
    n = r->capacity;
  r->read += n;
  if (r->read >= r->capacity)
    r->read -= r->capacity;
  if (r->read == r->write) /* also for n == 0, as TFLM */
    r->empty = 1;
}

TFLC_API int tflc_signal_framer_s16(tflc_ring_s16 *ring, const int16_t *in,
                                    int32_t n_frames, int32_t frame_size,
                                    int32_t frame_step, int16_t *out) {
  int valid = 1;
  int32_t f;
  for (f = 0; f < n_frames; f++) {
    tflc_ring_s16_write(ring, in + (size_t)f * (size_t)frame_step,
                        (uint32_t)frame_step);
    if (tflc_ring_s16_available(ring) >= (uint32_t)frame_size) {
      tflc_ring_s16_get(ring, (uint32_t)frame_size,
                        out + (size_t)f * (size_t)frame_size);
      tflc_ring_s16_discard(ring, (uint32_t)frame_step);
    } else {
      valid = 0;
    }
  }
  return valid;
}
TFLC_API int tflc_signal_stacker_s16(tflc_ring_s16 *ring, int32_t *started,
                                     const int16_t *in, int32_t num_channels,
                                     int32_t left_context, uint32_t step_size,
                                     int16_t *out) {
  tflc_ring_s16_write(ring, in, (uint32_t)num_channels);
  if (!*started) { /* the first frame stands in for the left context */
    tflc_ring_s16_extend(ring, (uint32_t)num_channels, left_context);
    *started = 1;
  }
  if (tflc_ring_s16_available(ring) < ring->capacity)
    return 0;
  tflc_ring_s16_get(ring, ring->capacity, out);
  tflc_ring_s16_discard(ring, step_size);
  return 1;
}
TFLC_API void tflc_signal_delay_s16(tflc_ring_s16 *ring, const int16_t *in,
                                    int32_t n, int16_t *out) {
  tflc_ring_s16_write(ring, in, (uint32_t)n);
  tflc_ring_s16_get(ring, (uint32_t)n, out);
  tflc_ring_s16_discard(ring, (uint32_t)n);
}

/* ---- real FFTs (KissFFT v130 arithmetic) --------------------------------- */
/* Scalar operations of the three FFT flavours. Fixed point (Q15 / Q31):
 * products round half up ((p + 2^(b-1)) >> b), sums wrap as TFLM's int16 /
 * int32 stores do, each stage divides by its radix (C_FIXDIV). Float: plain
 * arithmetic, no division per stage, halving as * 0.5f. */
typedef struct tflc__fft_cpx_s16 {
  int16_t r, i;
} tflc__fft_cpx_s16;
typedef struct tflc__fft_cpx_s32 {
  int32_t r, i;
} tflc__fft_cpx_s32;
typedef struct tflc__fft_cpx_f32 {
  float r, i;
} tflc__fft_cpx_f32;

static int16_t tflc__fft_s16_add(int16_t a, int16_t b) {
  return tflc__signal_wrap16((int32_t)a + b);
}
static int16_t tflc__fft_s16_sub(int16_t a, int16_t b) {
  return tflc__signal_wrap16((int32_t)a - b);
}
static int16_t tflc__fft_s16_neg(int16_t a) {
  return tflc__signal_wrap16(-(int32_t)a);
}
static int16_t tflc__fft_s16_add3(int16_t a, int16_t b, int16_t c) {
  return tflc__signal_wrap16((int32_t)a + b + c);
}
static int16_t tflc__fft_s16_neg_sub(int16_t a, int16_t b) {
  return tflc__signal_wrap16(-(int32_t)a - b);
}
static int16_t tflc__fft_s16_neg_add(int16_t a, int16_t b) {
  return tflc__signal_wrap16(-(int32_t)a + b);
}
static int16_t tflc__fft_s16_round(int64_t p) {
  return tflc__signal_wrap16(tflc__asr64(p + (1 << 14), 15));
}
static int16_t tflc__fft_s16_mul(int16_t a, int16_t b) {
  return tflc__fft_s16_round((int64_t)a * b);
}
static tflc__fft_cpx_s16 tflc__fft_s16_cmul(tflc__fft_cpx_s16 a,
                                            tflc__fft_cpx_s16 b) {
  tflc__fft_cpx_s16 m;
  m.r = tflc__fft_s16_round((int64_t)a.r * b.r - (int64_t)a.i * b.i);
  m.i = tflc__fft_s16_round((int64_t)a.r * b.i + (int64_t)a.i * b.r);
  return m;
}
static void tflc__fft_s16_fixdiv(tflc__fft_cpx_s16 *c, int32_t k) {
  c->r = tflc__fft_s16_round((int64_t)c->r * (32767 / k));
  c->i = tflc__fft_s16_round((int64_t)c->i * (32767 / k));
}
static int16_t tflc__fft_s16_half_add(int16_t a, int16_t b) {
  return tflc__signal_wrap16(tflc__asr32((int32_t)a + b, 1));
}
static int16_t tflc__fft_s16_half_sub(int16_t a, int16_t b) {
  return tflc__signal_wrap16(tflc__asr32((int32_t)a - b, 1));
}
static int16_t tflc__fft_s16_sub_half(int16_t a, int16_t b) {
  return tflc__signal_wrap16((int32_t)a - tflc__asr32(b, 1));
}
static int16_t tflc__fft_s16_twiddle(double v) {
  return (int16_t)floor(.5 + 32767 * v);
}

static int32_t tflc__fft_s32_add(int32_t a, int32_t b) {
  return tflc__wrap32((int64_t)a + b);
}
static int32_t tflc__fft_s32_sub(int32_t a, int32_t b) {
  return tflc__wrap32((int64_t)a - b);
}
static int32_t tflc__fft_s32_neg(int32_t a) {
  return tflc__wrap32(-(int64_t)a);
}
static int32_t tflc__fft_s32_add3(int32_t a, int32_t b, int32_t c) {
  return tflc__wrap32((int64_t)a + b + c);
}
static int32_t tflc__fft_s32_neg_sub(int32_t a, int32_t b) {
  return tflc__wrap32(-(int64_t)a - b);
}
static int32_t tflc__fft_s32_neg_add(int32_t a, int32_t b) {
  return tflc__wrap32(-(int64_t)a + b);
}
static int32_t tflc__fft_s32_round(int64_t p) {
  /* p is at most 2^63 - 2^32 in magnitude: products of Q31 twiddles */
  return tflc__wrap32(tflc__asr64(p + ((int64_t)1 << 30), 31));
}
static int32_t tflc__fft_s32_mul(int32_t a, int32_t b) {
  return tflc__fft_s32_round((int64_t)a * b);
}
static tflc__fft_cpx_s32 tflc__fft_s32_cmul(tflc__fft_cpx_s32 a,
                                            tflc__fft_cpx_s32 b) {
  tflc__fft_cpx_s32 m;
  m.r = tflc__fft_s32_round((int64_t)a.r * b.r - (int64_t)a.i * b.i);
  m.i = tflc__fft_s32_round((int64_t)a.r * b.i + (int64_t)a.i * b.r);
  return m;
}
static void tflc__fft_s32_fixdiv(tflc__fft_cpx_s32 *c, int32_t k) {
  c->r = tflc__fft_s32_round((int64_t)c->r * (2147483647 / k));
  c->i = tflc__fft_s32_round((int64_t)c->i * (2147483647 / k));
}
static int32_t tflc__fft_s32_half_add(int32_t a, int32_t b) {
  return tflc__asr32(tflc__wrap32((int64_t)a + b), 1);
}
static int32_t tflc__fft_s32_half_sub(int32_t a, int32_t b) {
  return tflc__asr32(tflc__wrap32((int64_t)a - b), 1);
}
static int32_t tflc__fft_s32_sub_half(int32_t a, int32_t b) {
  return tflc__wrap32((int64_t)a - tflc__asr32(b, 1));
}
static int32_t tflc__fft_s32_twiddle(double v) {
  return (int32_t)floor(.5 + 2147483647 * v);
}

static float tflc__fft_f32_add(float a, float b) {
  return a + b;
}
static float tflc__fft_f32_sub(float a, float b) {
  return a - b;
}
static float tflc__fft_f32_neg(float a) {
  return -a;
}
static float tflc__fft_f32_add3(float a, float b, float c) {
  return a + b + c;
}
static float tflc__fft_f32_neg_sub(float a, float b) {
  return -a - b;
}
static float tflc__fft_f32_neg_add(float a, float b) {
  return -a + b;
}
static float tflc__fft_f32_mul(float a, float b) {
  return a * b;
}
static tflc__fft_cpx_f32 tflc__fft_f32_cmul(tflc__fft_cpx_f32 a,
                                            tflc__fft_cpx_f32 b) {
  tflc__fft_cpx_f32 m;
  m.r = a.r * b.r - a.i * b.i;
  m.i = a.r * b.i + a.i * b.r;
  return m;
}
static void tflc__fft_f32_fixdiv(tflc__fft_cpx_f32 *c, int32_t k) {
  (void)c;
  (void)k;
}
static float tflc__fft_f32_half_add(float a, float b) {
  return (a + b) * .5f;
}
static float tflc__fft_f32_half_sub(float a, float b) {
  return (a - b) * .5f;
}
static float tflc__fft_f32_sub_half(float a, float b) {
  return a - b * .5f;
}
static float tflc__fft_f32_twiddle(double v) {
  return (float)v;
}

/* KissFFT's factorization of n (the complex length): 4s first, then 2s,
 * then odd numbers, up to floor(sqrt(n)), then n itself. Only radices 2, 3,
 * 4 and 5 run in TFLM's build (the generic butterfly needs malloc). */
static int tflc__fft_factor(tflc_fft_plan *p, int32_t fft_length) {
  int32_t n, q = 4, root = 0, k = 0;
  if (fft_length < 4 || fft_length > ((int32_t)1 << 24) || (fft_length & 1))
    return -1;
  n = fft_length / 2;
  while ((root + 1) * (root + 1) <= n)
    root++;
  do {
    while (n % q) {
      q = q == 4 ? 2 : q == 2 ? 3 : q + 2;
      if (q > root)
        q = n;
    }
    if (q > 5 || k >= TFLC_FFT_MAX_FACTORS)
      return -1;
    n /= q;
    p->radix[k++] = (uint8_t)q;
  } while (n > 1);
  p->num_factors = k;
  p->fft_length = fft_length;
  return 0;
}
TFLC_API size_t tflc_fft_plan_bytes(int32_t fft_length, size_t elem_size) {
  tflc_fft_plan p;
  if (tflc__fft_factor(&p, fft_length) != 0 || elem_size == 0 || elem_size > 8)
    return 0;
  /* fft_length / 2 twiddles and fft_length / 4 super twiddles, complex */
  return (size_t)(fft_length / 2 + fft_length / 4) * 2 * elem_size;
}

/* One flavour of the FFT (sfx: s16, s32, f32; T its scalar). The complex
 * FFT is KissFFT's recursive decimation in time, unrolled: inputs copied in
 * digit-reversed order, then each stage's butterflies from the innermost
 * out (blocks of a stage are independent, so the order inside a stage does
 * not change a bit). */
#define TFLC__FFT_FLAVOUR(sfx, T)                                              \
  static tflc__fft_cpx_##sfx tflc__fft_##sfx##_at(const T *v, size_t k) {      \
    tflc__fft_cpx_##sfx c;                                                     \
    c.r = v[2 * k];                                                            \
    c.i = v[2 * k + 1];                                                        \
    return c;                                                                  \
  }                                                                            \
  static void tflc__fft_##sfx##_put(T *v, size_t k, tflc__fft_cpx_##sfx c) {   \
    v[2 * k] = c.r;                                                            \
    v[2 * k + 1] = c.i;                                                        \
  }                                                                            \
  static tflc__fft_cpx_##sfx tflc__fft_##sfx##_cadd(tflc__fft_cpx_##sfx a,     \
                                                    tflc__fft_cpx_##sfx b) {   \
    a.r = tflc__fft_##sfx##_add(a.r, b.r);                                     \
    a.i = tflc__fft_##sfx##_add(a.i, b.i);                                     \
    return a;                                                                  \
  }                                                                            \
  static tflc__fft_cpx_##sfx tflc__fft_##sfx##_csub(tflc__fft_cpx_##sfx a,     \
                                                    tflc__fft_cpx_##sfx b) {   \
    a.r = tflc__fft_##sfx##_sub(a.r, b.r);                                     \
    a.i = tflc__fft_##sfx##_sub(a.i, b.i);                                     \
    return a;                                                                  \
  }                                                                            \
  static void tflc__fft_##sfx##_bfly2(T *f, size_t fstride, const T *tw,       \
                                      size_t m) {                              \
    size_t k;                                                                  \
    for (k = 0; k < m; k++) {                                                  \
      tflc__fft_cpx_##sfx a = tflc__fft_##sfx##_at(f, k), t;                   \
      tflc__fft_cpx_##sfx b = tflc__fft_##sfx##_at(f, k + m);                  \
      tflc__fft_##sfx##_fixdiv(&a, 2);                                         \
      tflc__fft_##sfx##_fixdiv(&b, 2);                                         \
      t = tflc__fft_##sfx##_cmul(b, tflc__fft_##sfx##_at(tw, k * fstride));    \
      tflc__fft_##sfx##_put(f, k + m, tflc__fft_##sfx##_csub(a, t));           \
      tflc__fft_##sfx##_put(f, k, tflc__fft_##sfx##_cadd(a, t));               \
    }                                                                          \
  }                                                                            \
  static void tflc__fft_##sfx##_bfly3(T *f, size_t fstride, const T *tw,       \
                                      size_t m) {                              \
    const tflc__fft_cpx_##sfx e = tflc__fft_##sfx##_at(tw, fstride * m);       \
    size_t k;                                                                  \
    for (k = 0; k < m; k++) {                                                  \
      tflc__fft_cpx_##sfx f0 = tflc__fft_##sfx##_at(f, k);                     \
      tflc__fft_cpx_##sfx f1 = tflc__fft_##sfx##_at(f, k + m);                 \
      tflc__fft_cpx_##sfx f2 = tflc__fft_##sfx##_at(f, k + 2 * m);             \
      tflc__fft_cpx_##sfx s0, s1, s2, s3;                                      \
      tflc__fft_##sfx##_fixdiv(&f0, 3);                                        \
      tflc__fft_##sfx##_fixdiv(&f1, 3);                                        \
      tflc__fft_##sfx##_fixdiv(&f2, 3);                                        \
      s1 = tflc__fft_##sfx##_cmul(f1, tflc__fft_##sfx##_at(tw, k * fstride));  \
      s2 = tflc__fft_##sfx##_cmul(f2,                                          \
                                  tflc__fft_##sfx##_at(tw, 2 * k * fstride));  \
      s3 = tflc__fft_##sfx##_cadd(s1, s2);                                     \
      s0 = tflc__fft_##sfx##_csub(s1, s2);                                     \
      f1.r = tflc__fft_##sfx##_sub_half(f0.r, s3.r);                           \
      f1.i = tflc__fft_##sfx##_sub_half(f0.i, s3.i);                           \
      s0.r = tflc__fft_##sfx##_mul(s0.r, e.i);                                 \
      s0.i = tflc__fft_##sfx##_mul(s0.i, e.i);                                 \
      f0 = tflc__fft_##sfx##_cadd(f0, s3);                                     \
      f2.r = tflc__fft_##sfx##_add(f1.r, s0.i);                                \
      f2.i = tflc__fft_##sfx##_sub(f1.i, s0.r);                                \
      f1.r = tflc__fft_##sfx##_sub(f1.r, s0.i);                                \
      f1.i = tflc__fft_##sfx##_add(f1.i, s0.r);                                \
      tflc__fft_##sfx##_put(f, k, f0);                                         \
      tflc__fft_##sfx##_put(f, k + m, f1);                                     \
      tflc__fft_##sfx##_put(f, k + 2 * m, f2);                                 \
    }                                                                          \
  }                                                                            \
  static void tflc__fft_##sfx##_bfly4(T *f, size_t fstride, const T *tw,       \
                                      size_t m, int inverse) {                 \
    size_t k;                                                                  \
    for (k = 0; k < m; k++) {                                                  \
      tflc__fft_cpx_##sfx f0 = tflc__fft_##sfx##_at(f, k);                     \
      tflc__fft_cpx_##sfx f1 = tflc__fft_##sfx##_at(f, k + m);                 \
      tflc__fft_cpx_##sfx f2 = tflc__fft_##sfx##_at(f, k + 2 * m);             \
      tflc__fft_cpx_##sfx f3 = tflc__fft_##sfx##_at(f, k + 3 * m);             \
      tflc__fft_cpx_##sfx s0, s1, s2, s3, s4, s5;                              \
      tflc__fft_##sfx##_fixdiv(&f0, 4);                                        \
      tflc__fft_##sfx##_fixdiv(&f1, 4);                                        \
      tflc__fft_##sfx##_fixdiv(&f2, 4);                                        \
      tflc__fft_##sfx##_fixdiv(&f3, 4);                                        \
      s0 = tflc__fft_##sfx##_cmul(f1, tflc__fft_##sfx##_at(tw, k * fstride));  \
      s1 = tflc__fft_##sfx##_cmul(f2,                                          \
                                  tflc__fft_##sfx##_at(tw, 2 * k * fstride));  \
      s2 = tflc__fft_##sfx##_cmul(f3,                                          \
                                  tflc__fft_##sfx##_at(tw, 3 * k * fstride));  \
      s5 = tflc__fft_##sfx##_csub(f0, s1);                                     \
      f0 = tflc__fft_##sfx##_cadd(f0, s1);                                     \
      s3 = tflc__fft_##sfx##_cadd(s0, s2);                                     \
      s4 = tflc__fft_##sfx##_csub(s0, s2);                                     \
      f2 = tflc__fft_##sfx##_csub(f0, s3);                                     \
      f0 = tflc__fft_##sfx##_cadd(f0, s3);                                     \
      if (inverse) {                                                           \
        f1.r = tflc__fft_##sfx##_sub(s5.r, s4.i);                              \
        f1.i = tflc__fft_##sfx##_add(s5.i, s4.r);                              \
        f3.r = tflc__fft_##sfx##_add(s5.r, s4.i);                              \
        f3.i = tflc__fft_##sfx##_sub(s5.i, s4.r);                              \
      } else {                                                                 \
        f1.r = tflc__fft_##sfx##_add(s5.r, s4.i);                              \
        f1.i = tflc__fft_##sfx##_sub(s5.i, s4.r);                              \
        f3.r = tflc__fft_##sfx##_sub(s5.r, s4.i);                              \
        f3.i = tflc__fft_##sfx##_add(s5.i, s4.r);                              \
      }                                                                        \
      tflc__fft_##sfx##_put(f, k, f0);                                         \
      tflc__fft_##sfx##_put(f, k + m, f1);                                     \
      tflc__fft_##sfx##_put(f, k + 2 * m, f2);                                 \
      tflc__fft_##sfx##_put(f, k + 3 * m, f3);                                 \
    }                                                                          \
  }                                                                            \
  static void tflc__fft_##sfx##_bfly5(T *f, size_t fstride, const T *tw,       \
                                      size_t m) {                              \
    const tflc__fft_cpx_##sfx ya = tflc__fft_##sfx##_at(tw, fstride * m);      \
    const tflc__fft_cpx_##sfx yb = tflc__fft_##sfx##_at(tw, 2 * fstride * m);  \
    size_t u;                                                                  \
    for (u = 0; u < m; u++) {                                                  \
      tflc__fft_cpx_##sfx x[5], s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11,  \
          s12;                                                                 \
      int j;                                                                   \
      for (j = 0; j < 5; j++) {                                                \
        x[j] = tflc__fft_##sfx##_at(f, u + (size_t)j * m);                     \
        tflc__fft_##sfx##_fixdiv(&x[j], 5);                                    \
      }                                                                        \
      s1 =                                                                     \
          tflc__fft_##sfx##_cmul(x[1], tflc__fft_##sfx##_at(tw, u * fstride)); \
      s2 = tflc__fft_##sfx##_cmul(x[2],                                        \
                                  tflc__fft_##sfx##_at(tw, 2 * u * fstride));  \
      s3 = tflc__fft_##sfx##_cmul(x[3],                                        \
                                  tflc__fft_##sfx##_at(tw, 3 * u * fstride));  \
      s4 = tflc__fft_##sfx##_cmul(x[4],                                        \
                                  tflc__fft_##sfx##_at(tw, 4 * u * fstride));  \
      s7 = tflc__fft_##sfx##_cadd(s1, s4);                                     \
      s10 = tflc__fft_##sfx##_csub(s1, s4);                                    \
      s8 = tflc__fft_##sfx##_cadd(s2, s3);                                     \
      s9 = tflc__fft_##sfx##_csub(s2, s3);                                     \
      s5.r = tflc__fft_##sfx##_add3(x[0].r, tflc__fft_##sfx##_mul(s7.r, ya.r), \
                                    tflc__fft_##sfx##_mul(s8.r, yb.r));        \
      s5.i = tflc__fft_##sfx##_add3(x[0].i, tflc__fft_##sfx##_mul(s7.i, ya.r), \
                                    tflc__fft_##sfx##_mul(s8.i, yb.r));        \
      s6.r = tflc__fft_##sfx##_add(tflc__fft_##sfx##_mul(s10.i, ya.i),         \
                                   tflc__fft_##sfx##_mul(s9.i, yb.i));         \
      s6.i = tflc__fft_##sfx##_neg_sub(tflc__fft_##sfx##_mul(s10.r, ya.i),     \
                                       tflc__fft_##sfx##_mul(s9.r, yb.i));     \
      s11.r =                                                                  \
          tflc__fft_##sfx##_add3(x[0].r, tflc__fft_##sfx##_mul(s7.r, yb.r),    \
                                 tflc__fft_##sfx##_mul(s8.r, ya.r));           \
      s11.i =                                                                  \
          tflc__fft_##sfx##_add3(x[0].i, tflc__fft_##sfx##_mul(s7.i, yb.r),    \
                                 tflc__fft_##sfx##_mul(s8.i, ya.r));           \
      s12.r = tflc__fft_##sfx##_neg_add(tflc__fft_##sfx##_mul(s10.i, yb.i),    \
                                        tflc__fft_##sfx##_mul(s9.i, ya.i));    \
      s12.i = tflc__fft_##sfx##_sub(tflc__fft_##sfx##_mul(s10.r, yb.i),        \
                                    tflc__fft_##sfx##_mul(s9.r, ya.i));        \
      x[0].r =                                                                 \
          tflc__fft_##sfx##_add(x[0].r, tflc__fft_##sfx##_add(s7.r, s8.r));    \
      x[0].i =                                                                 \
          tflc__fft_##sfx##_add(x[0].i, tflc__fft_##sfx##_add(s7.i, s8.i));    \
      tflc__fft_##sfx##_put(f, u, x[0]);                                       \
      tflc__fft_##sfx##_put(f, u + m, tflc__fft_##sfx##_csub(s5, s6));         \
      tflc__fft_##sfx##_put(f, u + 4 * m, tflc__fft_##sfx##_cadd(s5, s6));     \
      tflc__fft_##sfx##_put(f, u + 2 * m, tflc__fft_##sfx##_cadd(s11, s12));   \
      tflc__fft_##sfx##_put(f, u + 3 * m, tflc__fft_##sfx##_csub(s11, s12));   \
    }                                                                          \
  }                                                                            \
  /* complex FFT of fft_length / 2 points: in (complex, zero from scalar       \
   * in_len on) to out */                                                      \
  static void tflc__fft_##sfx##_complex(const tflc_fft_plan *p, const T *in,   \
                                        size_t in_len, T *out) {               \
    const T *tw = (const T *)p->twiddles;                                      \
    const size_t n = (size_t)p->fft_length / 2;                                \
    size_t stride[TFLC_FFT_MAX_FACTORS + 1], digit[TFLC_FFT_MAX_FACTORS];      \
    size_t pos, idx = 0, b;                                                    \
    int32_t l;                                                                 \
    stride[0] = 1;                                                             \
    for (l = 0; l < p->num_factors; l++) {                                     \
      stride[l + 1] = stride[l] * p->radix[l];                                 \
      digit[l] = 0;                                                            \
    }                                                                          \
    for (pos = 0; pos < n; pos++) {                                            \
      out[2 * pos] = 2 * idx < in_len ? in[2 * idx] : (T)0;                    \
      out[2 * pos + 1] = 2 * idx + 1 < in_len ? in[2 * idx + 1] : (T)0;        \
      for (l = p->num_factors - 1; l >= 0; l--) {                              \
        idx += stride[l];                                                      \
        if (++digit[l] < p->radix[l])                                          \
          break;                                                               \
        idx -= stride[l] * p->radix[l];                                        \
        digit[l] = 0;                                                          \
      }                                                                        \
    }                                                                          \
    for (l = p->num_factors - 1; l >= 0; l--) {                                \
      const size_t q = p->radix[l], m = n / stride[l + 1];                     \
      for (b = 0; b < stride[l]; b++) {                                        \
        T *f = out + 2 * b * q * m;                                            \
        if (q == 2)                                                            \
          tflc__fft_##sfx##_bfly2(f, stride[l], tw, m);                        \
        else if (q == 3)                                                       \
          tflc__fft_##sfx##_bfly3(f, stride[l], tw, m);                        \
        else if (q == 4)                                                       \
          tflc__fft_##sfx##_bfly4(f, stride[l], tw, m, p->inverse);            \
        else                                                                   \
          tflc__fft_##sfx##_bfly5(f, stride[l], tw, m);                        \
      }                                                                        \
    }                                                                          \
  }                                                                            \
  TFLC_API int tflc_fft_plan_##sfx(tflc_fft_plan *p, int32_t fft_length,       \
                                   int inverse, void *mem) {                   \
    const double pi = 3.14159265358979323846264338327950288;                   \
    T *tw = (T *)mem, *st;                                                     \
    int32_t n, i;                                                              \
    if (tflc__fft_factor(p, fft_length) != 0)                                  \
      return -1;                                                               \
    n = fft_length / 2;                                                        \
    st = tw + 2 * n;                                                           \
    p->inverse = inverse ? 1 : 0;                                              \
    p->twiddles = tw;                                                          \
    p->super_twiddles = st;                                                    \
    for (i = 0; i < n; i++) {                                                  \
      double phase = -2 * pi * i / n;                                          \
      if (inverse)                                                             \
        phase *= -1;                                                           \
      tw[2 * i] = tflc__fft_##sfx##_twiddle(cos(phase));                       \
      tw[2 * i + 1] = tflc__fft_##sfx##_twiddle(sin(phase));                   \
    }                                                                          \
    for (i = 0; i < n / 2; i++) {                                              \
      double phase = -pi * ((double)(i + 1) / n + .5);                         \
      if (inverse)                                                             \
        phase *= -1;                                                           \
      st[2 * i] = tflc__fft_##sfx##_twiddle(cos(phase));                       \
      st[2 * i + 1] = tflc__fft_##sfx##_twiddle(sin(phase));                   \
    }                                                                          \
    return 0;                                                                  \
  }                                                                            \
  TFLC_API void tflc_rfft_##sfx(const tflc_fft_plan *p, const T *in,           \
                                int32_t in_len, T *work, T *out) {             \
    const size_t n = (size_t)p->fft_length / 2;                                \
    const T *st = (const T *)p->super_twiddles;                                \
    tflc__fft_cpx_##sfx dc;                                                    \
    size_t k;                                                                  \
    tflc__fft_##sfx##_complex(p, in, (size_t)in_len, work);                    \
    /* split the complex spectrum of the even / odd samples */                 \
    dc = tflc__fft_##sfx##_at(work, 0);                                        \
    tflc__fft_##sfx##_fixdiv(&dc, 2);                                          \
    out[0] = tflc__fft_##sfx##_add(dc.r, dc.i);                                \
    out[2 * n] = tflc__fft_##sfx##_sub(dc.r, dc.i);                            \
    out[1] = out[2 * n + 1] = (T)0;                                            \
    for (k = 1; k <= n / 2; k++) {                                             \
      tflc__fft_cpx_##sfx a = tflc__fft_##sfx##_at(work, k), b, s, d, t;       \
      b.r = work[2 * (n - k)];                                                 \
      b.i = tflc__fft_##sfx##_neg(work[2 * (n - k) + 1]);                      \
      tflc__fft_##sfx##_fixdiv(&a, 2);                                         \
      tflc__fft_##sfx##_fixdiv(&b, 2);                                         \
      s = tflc__fft_##sfx##_cadd(a, b);                                        \
      d = tflc__fft_##sfx##_csub(a, b);                                        \
      t = tflc__fft_##sfx##_cmul(d, tflc__fft_##sfx##_at(st, k - 1));          \
      out[2 * k] = tflc__fft_##sfx##_half_add(s.r, t.r);                       \
      out[2 * k + 1] = tflc__fft_##sfx##_half_add(s.i, t.i);                   \
      out[2 * (n - k)] = tflc__fft_##sfx##_half_sub(s.r, t.r);                 \
      out[2 * (n - k) + 1] = tflc__fft_##sfx##_half_sub(t.i, s.i);             \
    }                                                                          \
  }                                                                            \
  static void tflc__irfft_##sfx##_core(const tflc_fft_plan *p, const T *in,    \
                                       T *work, T *out) {                      \
    const size_t n = (size_t)p->fft_length / 2;                                \
    const T *st = (const T *)p->super_twiddles;                                \
    tflc__fft_cpx_##sfx dc;                                                    \
    size_t k;                                                                  \
    dc.r = tflc__fft_##sfx##_add(in[0], in[2 * n]);                            \
    dc.i = tflc__fft_##sfx##_sub(in[0], in[2 * n]);                            \
    tflc__fft_##sfx##_fixdiv(&dc, 2);                                          \
    tflc__fft_##sfx##_put(work, 0, dc);                                        \
    for (k = 1; k <= n / 2; k++) {                                             \
      tflc__fft_cpx_##sfx a = tflc__fft_##sfx##_at(in, k), b, e, d, o, w;      \
      b.r = in[2 * (n - k)];                                                   \
      b.i = tflc__fft_##sfx##_neg(in[2 * (n - k) + 1]);                        \
      tflc__fft_##sfx##_fixdiv(&a, 2);                                         \
      tflc__fft_##sfx##_fixdiv(&b, 2);                                         \
      e = tflc__fft_##sfx##_cadd(a, b);                                        \
      d = tflc__fft_##sfx##_csub(a, b);                                        \
      o = tflc__fft_##sfx##_cmul(d, tflc__fft_##sfx##_at(st, k - 1));          \
      tflc__fft_##sfx##_put(work, k, tflc__fft_##sfx##_cadd(e, o));            \
      w = tflc__fft_##sfx##_csub(e, o);                                        \
      w.i = tflc__fft_##sfx##_neg(w.i);                                        \
      tflc__fft_##sfx##_put(work, n - k, w);                                   \
    }                                                                          \
    tflc__fft_##sfx##_complex(p, work, 2 * n, out);                            \
  }

TFLC__FFT_FLAVOUR(s16, int16_t)
TFLC__FFT_FLAVOUR(s32, int32_t)
TFLC__FFT_FLAVOUR(f32, float)

TFLC_API void tflc_irfft_s16(const tflc_fft_plan *p, const int16_t *in,
                             int16_t *work, int16_t *out) {
  tflc__irfft_s16_core(p, in, work, out);
}
TFLC_API void tflc_irfft_s32(const tflc_fft_plan *p, const int32_t *in,
                             int32_t *work, int32_t *out) {
  tflc__irfft_s32_core(p, in, work, out);
}
TFLC_API void tflc_irfft_f32(const tflc_fft_plan *p, const float *in,
                             float *work, float *out) {
  int32_t i;
  tflc__irfft_f32_core(p, in, work, out);
  /* KissFFT leaves the inverse unscaled; TFLM divides by the length */
  for (i = 0; i < p->fft_length; i++)
    out[i] /= (float)p->fft_length;
}

/* ======================================================================== */
/* Structural operators and TFLM's custom operators                         */
/* ======================================================================== */
TFLC_API void tflc_circular_buffer_push(int32_t slots, size_t row_bytes,
                                        const void *in, void *out) {
  size_t keep;
  if (slots < 1)
    return;
  keep = (size_t)(slots - 1) * row_bytes;
  memmove(out, (unsigned char *)out + row_bytes, keep);
  memcpy((unsigned char *)out + keep, in, row_bytes);
}

TFLC_API void tflc_reverse(size_t elem_size, int32_t outer, int32_t middle,
                           int32_t inner, const void *in, void *out) {
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  const size_t block = (size_t)inner * elem_size;
  int32_t o, m;
  for (o = 0; o < outer; o++)
    for (m = 0; m < middle; m++)
      memcpy(dst + ((size_t)o * (size_t)middle + (size_t)(middle - 1 - m)) *
                       block,
             src + ((size_t)o * (size_t)middle + (size_t)m) * block, block);
}

/* Input coordinate of output coordinate p along one MIRROR_PAD axis. */
static int32_t tflc__mirror_coordinate(int32_t p, int32_t before, int32_t dim,
                                       int32_t offset) {
  int32_t last;
  if (p < before)
    return before + offset - 1 - p;
  p -= before;
  if (p < dim)
    return p;
  p -= dim;
  last = dim - 1 - offset;
  return last - (p < last ? p : last);
}
TFLC_API void tflc_mirror_pad(size_t elem_size, int32_t rank,
                              const int32_t *in_dims, const int32_t *out_dims,
                              const int32_t *before, int32_t offset,
                              const void *in, void *out) {
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  size_t stride[TFLC_MAX_DIMS], n = 1, i;
  int32_t pos[TFLC_MAX_DIMS], k;
  for (k = rank - 1; k >= 0; k--) {
    stride[k] = k == rank - 1 ? 1 : stride[k + 1] * (size_t)in_dims[k + 1];
    n *= (size_t)out_dims[k];
    pos[k] = 0;
  }
  for (i = 0; i < n; i++) {
    size_t at = 0;
    for (k = 0; k < rank; k++)
      at += (size_t)tflc__mirror_coordinate(pos[k], before[k], in_dims[k],
                                            offset) *
            stride[k];
    memcpy(dst + i * elem_size, src + at * elem_size, elem_size);
    for (k = rank - 1; k >= 0 && ++pos[k] == out_dims[k]; k--)
      pos[k] = 0;
  }
}

TFLC_API void tflc_fill(size_t elem_size, int32_t n, const void *value,
                        void *out) {
  unsigned char *dst = (unsigned char *)out;
  int32_t i;
  for (i = 0; i < n; i++)
    memcpy(dst + (size_t)i * elem_size, value, elem_size);
}

TFLC_API void tflc_broadcast_to(size_t elem_size, int32_t rank,
                                const int32_t *in_dims, const int32_t *out_dims,
                                const void *in, void *out) {
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  size_t step[TFLC_MAX_DIMS], n = 1, i, at = 0, s = 1;
  int32_t pos[TFLC_MAX_DIMS], k;
  for (k = rank - 1; k >= 0; k--) {
    step[k] = in_dims[k] == 1 ? 0 : s;
    s *= (size_t)in_dims[k];
    n *= (size_t)out_dims[k];
    pos[k] = 0;
  }
  for (i = 0; i < n; i++) {
    memcpy(dst + i * elem_size, src + at * elem_size, elem_size);
    for (k = rank - 1; k >= 0; k--) {
      at += step[k];
      if (++pos[k] < out_dims[k])
        break;
      at -= step[k] * (size_t)pos[k];
      pos[k] = 0;
    }
  }
}

/* Entry i of an int32 / int64 shape vector, converted to int32 as TFLM's
 * `int` (the low 32 bits). */
static int32_t tflc__shape_entry(int wide, const void *v, int32_t i) {
  if (wide) {
    int64_t x;
    memcpy(&x, (const unsigned char *)v + (size_t)i * 8, 8);
    return (int32_t)(uint32_t)(uint64_t)x;
  } else {
    int32_t x;
    memcpy(&x, (const unsigned char *)v + (size_t)i * 4, 4);
    return x;
  }
}
TFLC_API int tflc_broadcast_args(int wide, int32_t n1, const void *s1,
                                 int32_t n2, const void *s2, int32_t n_out,
                                 void *out) {
  int32_t i;
  for (i = 0; i < n_out; i++) {
    int32_t a = n1 - 1 - i >= 0 ? tflc__shape_entry(wide, s1, n1 - 1 - i) : 1;
    int32_t b = n2 - 1 - i >= 0 ? tflc__shape_entry(wide, s2, n2 - 1 - i) : 1;
    int32_t r = a == 1 ? b : a;
    unsigned char *o = (unsigned char *)out;
    if (a != 1 && b != 1 && a != b)
      return -1;
    if (wide) {
      int64_t x = r;
      memcpy(o + (size_t)(n_out - 1 - i) * 8, &x, 8);
    } else {
      memcpy(o + (size_t)(n_out - 1 - i) * 4, &r, 4);
    }
  }
  return 0;
}

TFLC_API int tflc_gather_nd(size_t elem_size, int32_t params_rank,
                            const int32_t *params_dims, int32_t n_slices,
                            int32_t nd, const int32_t *indices,
                            const void *params, void *out) {
  int64_t count[TFLC_MAX_DIMS], flat = 1, slice = 1;
  int32_t i, j;
  for (j = 0; j < params_rank; j++)
    flat *= params_dims[j];
  for (j = nd; j < params_rank; j++)
    slice *= params_dims[j];
  for (j = 0; j < nd; j++) /* elements per step along dim j */
    count[j] = (j ? count[j - 1] : flat) / params_dims[j];
  for (i = 0; i < n_slices; i++) {
    int64_t from = 0;
    for (j = 0; j < nd; j++)
      from += (int64_t)indices[(size_t)i * (size_t)nd + (size_t)j] * count[j];
    if (from < 0 || from + slice > flat)
      return -1;
    memcpy((unsigned char *)out + (size_t)i * (size_t)slice * elem_size,
           (const unsigned char *)params + (size_t)from * elem_size,
           (size_t)slice * elem_size);
  }
  return 0;
}

TFLC_API int tflc_embedding_lookup(size_t row_bytes, int32_t rows, int32_t n,
                                   const int32_t *ids, const void *table,
                                   void *out) {
  int32_t i;
  for (i = 0; i < n; i++) {
    if (ids[i] < 0 || ids[i] >= rows)
      return -1;
    memcpy((unsigned char *)out + (size_t)i * row_bytes,
           (const unsigned char *)table + (size_t)ids[i] * row_bytes,
           row_bytes);
  }
  return 0;
}
TFLC_API int tflc_embedding_lookup_s8_f32(int32_t cols, int32_t rows, int32_t n,
                                          const int32_t *ids, float scale,
                                          const int8_t *table, float *out) {
  int32_t i, k;
  for (i = 0; i < n; i++) {
    const int8_t *row;
    if (ids[i] < 0 || ids[i] >= rows)
      return -1;
    row = table + (size_t)ids[i] * (size_t)cols;
    for (k = 0; k < cols; k++)
      out[(size_t)i * (size_t)cols + (size_t)k] = (float)row[k] * scale;
  }
  return 0;
}

TFLC_API void tflc_dynamic_update_slice(size_t elem_size, int32_t rank,
                                        const int32_t *dims,
                                        const int32_t *upd_dims,
                                        const int32_t *start,
                                        const void *update, void *out) {
  const unsigned char *src = (const unsigned char *)update;
  unsigned char *dst = (unsigned char *)out;
  size_t stride[TFLC_MAX_DIMS], rows = 1, r, row_bytes;
  int32_t pos[TFLC_MAX_DIMS], k;
  if (rank < 1)
    return;
  for (k = rank - 1; k >= 0; k--) {
    stride[k] = k == rank - 1 ? 1 : stride[k + 1] * (size_t)dims[k + 1];
    pos[k] = 0;
    if (k < rank - 1)
      rows *= (size_t)upd_dims[k];
  }
  row_bytes = (size_t)upd_dims[rank - 1] * elem_size;
  for (r = 0; r < rows; r++) {
    size_t at = (size_t)start[rank - 1];
    for (k = 0; k < rank - 1; k++)
      at += (size_t)(start[k] + pos[k]) * stride[k];
    memcpy(dst + at * elem_size, src + r * row_bytes, row_bytes);
    for (k = rank - 2; k >= 0 && ++pos[k] == upd_dims[k]; k--)
      pos[k] = 0;
  }
}

/* The element offsets of batch (b0, b1, b2) in lhs and rhs, and of its
 * output matrix. */
static void tflc__batch_offsets(const tflc_batch_matmul_params *p, int32_t b0,
                                int32_t b1, int32_t b2, size_t *l, size_t *r,
                                size_t *o) {
  *l = (size_t)b0 * (size_t)p->lhs_batch_step[0] +
       (size_t)b1 * (size_t)p->lhs_batch_step[1] +
       (size_t)b2 * (size_t)p->lhs_batch_step[2];
  *r = (size_t)b0 * (size_t)p->rhs_batch_step[0] +
       (size_t)b1 * (size_t)p->rhs_batch_step[1] +
       (size_t)b2 * (size_t)p->rhs_batch_step[2];
  *o = (((size_t)b0 * (size_t)p->batches[1] + (size_t)b1) *
            (size_t)p->batches[2] +
        (size_t)b2) *
       (size_t)p->rows * (size_t)p->cols;
}
TFLC_API void tflc_batch_matmul_f32(const tflc_batch_matmul_params *p,
                                    const float *lhs, const float *rhs,
                                    float *out) {
  int32_t b0, b1, b2, r, c, k;
  for (b0 = 0; b0 < p->batches[0]; b0++)
    for (b1 = 0; b1 < p->batches[1]; b1++)
      for (b2 = 0; b2 < p->batches[2]; b2++) {
        size_t lo, ro, oo;
        tflc__batch_offsets(p, b0, b1, b2, &lo, &ro, &oo);
        for (r = 0; r < p->rows; r++)
          for (c = 0; c < p->cols; c++) {
            const float *a = lhs + lo + (size_t)r * (size_t)p->lhs_row_step;
            const float *b = rhs + ro + (size_t)c * (size_t)p->rhs_col_step;
            float total = 0.0f;
            for (k = 0; k < p->depth; k++)
              total += a[(size_t)k * (size_t)p->lhs_depth_step] *
                       b[(size_t)k * (size_t)p->rhs_depth_step];
            out[oo + (size_t)r * (size_t)p->cols + (size_t)c] = total;
          }
      }
}
TFLC_API void tflc_batch_matmul_s8(const tflc_batch_matmul_params *p,
                                   const int8_t *lhs, const int8_t *rhs,
                                   int8_t *out) {
  int32_t b0, b1, b2, r, c, k;
  for (b0 = 0; b0 < p->batches[0]; b0++)
    for (b1 = 0; b1 < p->batches[1]; b1++)
      for (b2 = 0; b2 < p->batches[2]; b2++) {
        size_t lo, ro, oo;
        tflc__batch_offsets(p, b0, b1, b2, &lo, &ro, &oo);
        for (r = 0; r < p->rows; r++)
          for (c = 0; c < p->cols; c++) {
            const int8_t *a = lhs + lo + (size_t)r * (size_t)p->lhs_row_step;
            const int8_t *b = rhs + ro + (size_t)c * (size_t)p->rhs_col_step;
            int32_t acc = 0, v;
            for (k = 0; k < p->depth; k++)
              acc += ((int32_t)a[(size_t)k * (size_t)p->lhs_depth_step] +
                      p->lhs_offset) *
                     ((int32_t)b[(size_t)k * (size_t)p->rhs_depth_step] +
                      p->rhs_offset);
            v = tflc_multiply_by_quantized_multiplier(acc, p->out_mult,
                                                      p->out_shift) +
                p->out_offset;
            v = v < p->act_min ? p->act_min : v > p->act_max ? p->act_max : v;
            out[oo + (size_t)r * (size_t)p->cols + (size_t)c] = (int8_t)v;
          }
      }
}
TFLC_API void tflc_batch_matmul_s16(const tflc_batch_matmul_params *p,
                                    const int16_t *lhs, const int16_t *rhs,
                                    int16_t *out) {
  int32_t b0, b1, b2, r, c, k;
  for (b0 = 0; b0 < p->batches[0]; b0++)
    for (b1 = 0; b1 < p->batches[1]; b1++)
      for (b2 = 0; b2 < p->batches[2]; b2++) {
        size_t lo, ro, oo;
        tflc__batch_offsets(p, b0, b1, b2, &lo, &ro, &oo);
        for (r = 0; r < p->rows; r++)
          for (c = 0; c < p->cols; c++) {
            const int16_t *a = lhs + lo + (size_t)r * (size_t)p->lhs_row_step;
            const int16_t *b = rhs + ro + (size_t)c * (size_t)p->rhs_col_step;
            int64_t acc = 0;
            int32_t v;
            for (k = 0; k < p->depth; k++)
              acc += ((int64_t)a[(size_t)k * (size_t)p->lhs_depth_step] +
                      p->lhs_offset) *
                     ((int64_t)b[(size_t)k * (size_t)p->rhs_depth_step] +
                      p->rhs_offset);
            v = tflc_multiply_by_quantized_multiplier_64(acc, p->out_mult,
                                                         p->out_shift) +
                p->out_offset;
            v = v < p->act_min ? p->act_min : v > p->act_max ? p->act_max : v;
            out[oo + (size_t)r * (size_t)p->cols + (size_t)c] = (int16_t)v;
          }
      }
}

/* ---- TFLite_Detection_PostProcess ---------------------------------------- */
/* std::upper_bound over index array [first, last) for `value`, ordered by
 * decreasing score (comparator: score[a] > score[b]), probing as the
 * standard library does. */
static int32_t *tflc__dpp_upper_bound(int32_t *first, int32_t *last,
                                      int32_t value, const float *v) {
  ptrdiff_t count = last - first;
  while (count > 0) {
    ptrdiff_t step = count / 2;
    int32_t *it = first + step;
    if (!(v[value] > v[*it])) {
      first = it + 1;
      count -= step + 1;
    } else {
      count = step;
    }
  }
  return first;
}
static void tflc__dpp_insertion_sort(int32_t *a, int32_t n, const float *v) {
  int32_t i;
  for (i = 0; i < n; i++) {
    int32_t x = a[i];
    int32_t *pos = tflc__dpp_upper_bound(a, a + i, x, v);
    memmove(pos + 1, pos, (size_t)(a + i - pos) * sizeof *a);
    *pos = x;
  }
}
/* TFLM's DecreasingArgSort: indices 0..n-1 ordered by decreasing v, a
 * top-down merge sort (insertion sort below 20), here with an explicit
 * stack (depth <= log2 n). scratch: n ints. */
static void tflc__dpp_arg_sort(const float *v, int32_t n, int32_t *idx,
                               int32_t *scratch) {
  struct {
    int32_t off, n, stage;
  } st[40];
  int32_t d = 0, i;
  for (i = 0; i < n; i++)
    idx[i] = i;
  st[0].off = 0;
  st[0].n = n;
  st[0].stage = 0;
  while (d >= 0) {
    int32_t off = st[d].off, m = st[d].n, half = m / 2;
    if (m < 20) {
      tflc__dpp_insertion_sort(idx + off, m, v);
      d--;
    } else if (st[d].stage < 2) {
      int32_t right = st[d].stage++;
      d++;
      st[d].off = right ? off + half : off;
      st[d].n = right ? m - half : half;
      st[d].stage = 0;
    } else {
      int32_t *a = idx + off, left = 0, r = half, k;
      for (k = 0; k < m; k++)
        scratch[k] = left >= half || (r < m && v[a[r]] > v[a[left]])
                         ? a[r++]
                         : a[left++];
      memcpy(a, scratch, (size_t)m * sizeof *a);
      d--;
    }
  }
}
/* TFLM's DecreasingPartialArgSort: the first k of indices 0..n-1 by
 * decreasing v, ties by increasing index (a total order for numbers). */
static void tflc__dpp_partial_arg_sort(const float *v, int32_t n, int32_t k,
                                       int32_t *idx) {
  int32_t i, j;
  for (i = 0; i < n; i++)
    idx[i] = i;
  for (i = 0; i < k && i < n; i++) {
    int32_t best = i, t;
    for (j = i + 1; j < n; j++)
      if (v[idx[j]] > v[idx[best]] ||
          (!(v[idx[j]] < v[idx[best]]) && !(v[idx[best]] < v[idx[j]]) &&
           idx[j] < idx[best]))
        best = j;
    t = idx[i];
    idx[i] = idx[best];
    idx[best] = t;
  }
}
static float tflc__dpp_max(float a, float b) {
  return a < b ? b : a;
}
static float tflc__dpp_min(float a, float b) {
  return b < a ? b : a;
}
static float tflc__dpp_iou(const float *boxes, int32_t i, int32_t j) {
  const float *a = boxes + 4 * (size_t)i, *b = boxes + 4 * (size_t)j;
  const float area_a = (a[2] - a[0]) * (a[3] - a[1]);
  const float area_b = (b[2] - b[0]) * (b[3] - b[1]);
  float ymin, xmin, ymax, xmax, inter;
  if (area_a <= 0 || area_b <= 0)
    return 0.0f;
  ymin = tflc__dpp_max(a[0], b[0]);
  xmin = tflc__dpp_max(a[1], b[1]);
  ymax = tflc__dpp_min(a[2], b[2]);
  xmax = tflc__dpp_min(a[3], b[3]);
  inter = tflc__dpp_max(ymax - ymin, 0.0f) * tflc__dpp_max(xmax - xmin, 0.0f);
  return inter / (area_a + area_b - inter);
}
/* Scratch of the post-processing, carved from one buffer. */
typedef struct tflc__dpp_work {
  float *decoded, *class_scores, *keep_scores, *after_scores, *sorted_values;
  int32_t *keep_indices, *sorted_indices, *selected, *after_indices,
      *class_indices;
  uint8_t *active;
} tflc__dpp_work;
static size_t tflc__dpp_layout(const tflc_detection_params *p,
                               tflc__dpp_work *w, void *base) {
  uint64_t nb = (uint64_t)p->num_boxes, m = nb + (uint64_t)p->max_detections;
  uint64_t at = 0, sizes[11];
  unsigned char *b = (unsigned char *)base;
  int k;
  sizes[0] = 16 * nb;                /* decoded boxes */
  sizes[1] = 4 * nb;                 /* class / max scores */
  sizes[2] = 4 * nb;                 /* kept scores */
  sizes[3] = p->regular ? 4 * m : 0; /* scores after NMS */
  sizes[4] = p->regular ? 4 * m : 0; /* sorted values */
  sizes[5] = 4 * nb;                 /* kept indices */
  sizes[6] = 4 * (m > nb ? m : nb);  /* sorted indices */
  sizes[7] = 4 * nb;                 /* selected */
  sizes[8] = p->regular ? 4 * m : 0; /* indices after NMS */
  sizes[9] = p->regular ? 0 : 4 * nb * (uint64_t)p->num_classes;
  sizes[10] = nb; /* active candidates */
  for (k = 0; k < 11; k++) {
    void *q = b ? b + at : NULL;
    switch (k) {
    case 0:
      w->decoded = (float *)q;
      break;
    case 1:
      w->class_scores = (float *)q;
      break;
    case 2:
      w->keep_scores = (float *)q;
      break;
    case 3:
      w->after_scores = (float *)q;
      break;
    case 4:
      w->sorted_values = (float *)q;
      break;
    case 5:
      w->keep_indices = (int32_t *)q;
      break;
    case 6:
      w->sorted_indices = (int32_t *)q;
      break;
    case 7:
      w->selected = (int32_t *)q;
      break;
    case 8:
      w->after_indices = (int32_t *)q;
      break;
    case 9:
      w->class_indices = (int32_t *)q;
      break;
    default:
      w->active = (uint8_t *)q;
      break;
    }
    at += sizes[k];
  }
  return at > 0x7FFFFFFFu ? 0 : (size_t)(at ? at : 1);
}
TFLC_API size_t
tflc_detection_postprocess_scratch(const tflc_detection_params *p) {
  tflc__dpp_work w;
  if (p->num_boxes < 0 || p->max_detections < 0 || p->num_classes < 0)
    return 0;
  return tflc__dpp_layout(p, &w, NULL);
}
/* TFLM's NonMaxSuppressionSingleClassHelper on scores[num_boxes]: the
 * selected box indices, best first. Returns their count, or -1 for an
 * empty decoded box. */
static int32_t tflc__dpp_nms(const tflc_detection_params *p,
                             const tflc__dpp_work *w, const float *scores,
                             int32_t max_out) {
  int32_t i, j, kept = 0, out_size, selected = 0, active;
  for (i = 0; i < p->num_boxes; i++) {
    const float *b = w->decoded + 4 * (size_t)i;
    if (b[0] >= b[2] || b[1] >= b[3])
      return -1;
  }
  for (i = 0; i < p->num_boxes; i++)
    if (scores[i] >= p->score_threshold) {
      w->keep_scores[kept] = scores[i];
      w->keep_indices[kept++] = i;
    }
  /* keep_indices is the sort's scratch, then filled again */
  tflc__dpp_arg_sort(w->keep_scores, kept, w->sorted_indices, w->keep_indices);
  for (i = 0, j = 0; i < p->num_boxes; i++)
    if (scores[i] >= p->score_threshold)
      w->keep_indices[j++] = i;
  out_size = kept < max_out ? kept : max_out;
  active = kept;
  memset(w->active, 1, (size_t)kept);
  for (i = 0; i < kept; i++) {
    if (active == 0 || selected >= out_size)
      break;
    if (!w->active[i])
      continue;
    w->selected[selected++] = w->keep_indices[w->sorted_indices[i]];
    w->active[i] = 0;
    active--;
    for (j = i + 1; j < kept; j++)
      if (w->active[j] &&
          tflc__dpp_iou(w->decoded, w->keep_indices[w->sorted_indices[i]],
                        w->keep_indices[w->sorted_indices[j]]) >
              p->iou_threshold) {
        w->active[j] = 0;
        active--;
      }
  }
  return selected;
}
TFLC_API int tflc_detection_postprocess_f32(
    const tflc_detection_params *p, const float *boxes, const float *scores,
    const float *anchors, float *out_boxes, float *out_classes,
    float *out_scores, float *out_count, int32_t capacity, void *scratch) {
  tflc__dpp_work w;
  const int32_t nb = p->num_boxes, ncb = p->classes_with_background;
  const int32_t label = ncb - p->num_classes;
  int32_t i, j;
  (void)tflc__dpp_layout(p, &w, scratch);
  /* decode (y, x, h, w) against the anchors, in double as TFLM */
  for (i = 0; i < nb; i++) {
    const float *e = boxes + (size_t)i * (size_t)p->box_stride;
    const float *a = anchors + 4 * (size_t)i;
    float *d = w.decoded + 4 * (size_t)i;
    float yc = (float)((double)e[0] / (double)p->y_scale * (double)a[2] +
                       (double)a[0]);
    float xc = (float)((double)e[1] / (double)p->x_scale * (double)a[3] +
                       (double)a[1]);
    float hh =
        (float)(0.5 * exp((double)e[2] / (double)p->h_scale) * (double)a[2]);
    float hw =
        (float)(0.5 * exp((double)e[3] / (double)p->w_scale) * (double)a[3]);
    d[0] = yc - hh;
    d[1] = xc - hw;
    d[2] = yc + hh;
    d[3] = xc + hw;
  }
  if (p->regular) {
    int32_t sorted = 0, k;
    for (j = 0; j < p->num_classes; j++) {
      int32_t n, out_index = sorted, to_sort;
      for (i = 0; i < nb; i++)
        w.class_scores[i] =
            scores[(size_t)i * (size_t)ncb + (size_t)j + (size_t)label];
      n = tflc__dpp_nms(p, &w, w.class_scores, p->detections_per_class);
      if (n < 0)
        return -1;
      for (i = 0; i < n; i++) {
        w.after_indices[out_index] = w.selected[i] * ncb + j + label;
        w.after_scores[out_index++] = w.class_scores[w.selected[i]];
      }
      to_sort = out_index < p->max_detections ? out_index : p->max_detections;
      tflc__dpp_partial_arg_sort(w.after_scores, out_index, to_sort,
                                 w.sorted_indices);
      for (i = 0; i < to_sort; i++) {
        k = w.sorted_indices[i];
        w.sorted_indices[i] = w.after_indices[k];
        w.sorted_values[i] = w.after_scores[k];
      }
      for (i = 0; i < to_sort; i++) {
        w.after_indices[i] = w.sorted_indices[i];
        w.after_scores[i] = w.sorted_values[i];
      }
      sorted = to_sort;
    }
    for (i = 0; i < p->max_detections; i++) {
      if (i < sorted) {
        int32_t anchor = w.after_indices[i] / ncb;
        memcpy(out_boxes + 4 * (size_t)i, w.decoded + 4 * (size_t)anchor,
               4 * sizeof(float));
        out_classes[i] = (float)(w.after_indices[i] - anchor * ncb - label);
        out_scores[i] = w.after_scores[i];
      } else {
        memset(out_boxes + 4 * (size_t)i, 0, 4 * sizeof(float));
        out_classes[i] = 0.0f;
        out_scores[i] = 0.0f;
      }
    }
    *out_count = (float)sorted;
  } else {
    const int32_t per = p->max_classes_per_detection < p->num_classes
                            ? p->max_classes_per_detection
                            : p->num_classes;
    int32_t n, out_index = 0, col;
    for (i = 0; i < nb; i++) {
      const float *bs = scores + (size_t)i * (size_t)ncb + (size_t)label;
      int32_t *ci = w.class_indices + (size_t)i * (size_t)p->num_classes;
      tflc__dpp_partial_arg_sort(bs, p->num_classes, per, ci);
      w.class_scores[i] = bs[ci[0]];
    }
    n = tflc__dpp_nms(p, &w, w.class_scores, p->max_detections);
    if (n < 0)
      return -1;
    for (i = 0; i < n; i++) {
      const int32_t s = w.selected[i];
      const float *bs = scores + (size_t)s * (size_t)ncb + (size_t)label;
      const int32_t *ci = w.class_indices + (size_t)s * (size_t)p->num_classes;
      for (col = 0; col < per; col++) {
        /* TFLM's slot: also counts per column (out of bounds when per > 1) */
        int64_t slot = (int64_t)per * out_index + col;
        if (slot >= capacity)
          return -2;
        memcpy(out_boxes + 4 * (size_t)slot, w.decoded + 4 * (size_t)s,
               4 * sizeof(float));
        out_classes[slot] = (float)ci[col];
        out_scores[slot] = bs[ci[col]];
        out_index++;
      }
    }
    *out_count = (float)out_index;
  }
  return 0;
}

/* ======================================================================== */
/* 16-bit requantization: the arithmetic of seeds/vta_delegate_ops.rst      */
/* ======================================================================== */
/* Two's complement of the low 16 bits. */
static int32_t tflc__q16_wrap16(int32_t v) {
  int32_t u = (int32_t)((uint32_t)v & 0xFFFFu);
  return u >= 0x8000 ? u - 0x10000 : u;
}
/* v >> n for n >= 0, v << -n for n < 0 (32-bit, wrapping); n is clamped to
 * the width. */
static int32_t tflc__q16_shift(int32_t v, int32_t n) {
  if (n >= 0)
    return tflc__asr32(v, n > 31 ? 31 : n);
  return tflc__wrap32((int64_t)((uint64_t)(uint32_t)v << (n < -31 ? 31 : -n)));
}

TFLC_API void tflc_q16_multiplier(double scale, int16_t *multiplier,
                                  int16_t *shift) {
  int e = 0;
  double q;
  int64_t fixed;
  *multiplier = 0;
  *shift = 0;
  if (!(scale >= 1e-6) || scale > 1e300)
    return; /* also NaN */
  q = frexp(scale, &e);
  fixed = (int64_t)round(q * 32768.0);
  if (fixed == 32768) {
    fixed /= 2;
    ++e;
  }
  if (e < -15 || e > 32767)
    return;
  *multiplier = (int16_t)fixed;
  *shift = (int16_t)e;
}

TFLC_API int32_t tflc_q16_dequantize(int32_t q, int32_t offset,
                                     int16_t multiplier, int16_t shift) {
  const int32_t v = tflc__q16_wrap16(tflc__q16_wrap16(offset) + q);
  const int32_t shifted = tflc__q16_wrap16(v * 128);
  const int32_t raw = shifted * (int32_t)multiplier; /* |raw| <= 2^30 */
  const int32_t nudge = raw >= 0 ? (1 << 14) : 1 - (1 << 14);
  const int32_t overflow = shifted == multiplier && shifted == -32768;
  const int32_t scaled =
      overflow ? 32767 : tflc__q16_wrap16(tflc__asr32(raw + nudge, 15));
  return tflc__q16_shift(scaled, -(int32_t)shift);
}

TFLC_API int32_t tflc_q16_requantize(int32_t v, int16_t multiplier,
                                     int16_t shift, int32_t offset, int32_t lo,
                                     int32_t hi) {
  const int32_t product = tflc__wrap32((int64_t)v * multiplier);
  int32_t r = tflc__q16_shift(product, 15 - (int32_t)shift);
  r = tflc__wrap32((int64_t)r + offset);
  return r < lo ? lo : r > hi ? hi : r;
}

TFLC_API void tflc_q16_add_prepare(float s1, int32_t zp1, float s2, int32_t zp2,
                                   float s_out, int32_t zp_out, int32_t act_min,
                                   int32_t act_max, tflc_q16_add_params *p) {
  /* all in double: the float products of the seed are by powers of two */
  const double doubled_max_scale = 2.0 * (double)(s1 > s2 ? s1 : s2);
  p->offset1 = -zp1;
  p->offset2 = -zp2;
  p->out_offset = zp_out;
  p->act_min = act_min;
  p->act_max = act_max;
  tflc_q16_multiplier((double)s1 / doubled_max_scale, &p->multiplier1,
                      &p->shift1);
  tflc_q16_multiplier((double)s2 / doubled_max_scale, &p->multiplier2,
                      &p->shift2);
  tflc_q16_multiplier(doubled_max_scale / (128.0 * (double)s_out),
                      &p->out_multiplier, &p->out_shift);
}

TFLC_API void tflc_add_q16_s8(const tflc_q16_add_params *p, int32_t n,
                              const int8_t *a, const int8_t *b, int8_t *out) {
  int32_t i;
  for (i = 0; i < n; i++) {
    const int32_t x =
        tflc_q16_dequantize(a[i], p->offset1, p->multiplier1, p->shift1);
    const int32_t y =
        tflc_q16_dequantize(b[i], p->offset2, p->multiplier2, p->shift2);
    out[i] = (int8_t)tflc_q16_requantize(x + y, p->out_multiplier, p->out_shift,
                                         p->out_offset, p->act_min, p->act_max);
  }
}

/* ======================================================================== */
/* Platform: Arm Cortex-M DSP (TFLC_HAVE_DSP)                               */
/* ======================================================================== */
/* int8 values are widened two at a time with SXTB16 (bytes 0 and 2, and
 * with a rotation bytes 1 and 3) and multiplied two pairs at a time with
 * SMLAD, or one lane at a time with SMLABB / SMLATT. All sums wrap as the
 * portable int32 sums do, so the results are the same bytes. */
#if defined(TFLC_HAVE_DSP)
#if defined(TFLC_DSP_EMULATE)
/* signed 16-bit lane (0 low, 1 high) of a word */
static int32_t tflc__lane16(uint32_t v, int hi) {
  const uint32_t u = hi ? v >> 16 : v & 0xFFFFu;
  return (int32_t)u - (u >= 0x8000u ? 0x10000 : 0);
}
/* C definitions of the ACLE intrinsics used below (tests on any host) */
static uint32_t tflc__byte_s16(uint32_t v, int byte) {
  const uint32_t u = (v >> (8 * byte)) & 0xFFu;
  return (u >= 0x80u ? u | 0xFF00u : u) & 0xFFFFu;
}
static uint32_t tflc__sxtb16(uint32_t x) {
  return tflc__byte_s16(x, 0) | (tflc__byte_s16(x, 2) << 16);
}
static uint32_t tflc__sxtb16_ror8(uint32_t x) {
  return tflc__byte_s16(x, 1) | (tflc__byte_s16(x, 3) << 16);
}
static uint32_t tflc__smlad(uint32_t x, uint32_t y, uint32_t acc) {
  return acc + (uint32_t)(tflc__lane16(x, 0) * tflc__lane16(y, 0)) +
         (uint32_t)(tflc__lane16(x, 1) * tflc__lane16(y, 1));
}
static uint32_t tflc__smlabb(uint32_t x, uint32_t y, uint32_t acc) {
  return acc + (uint32_t)(tflc__lane16(x, 0) * tflc__lane16(y, 0));
}
static uint32_t tflc__smlatt(uint32_t x, uint32_t y, uint32_t acc) {
  return acc + (uint32_t)(tflc__lane16(x, 1) * tflc__lane16(y, 1));
}
static uint32_t tflc__sadd16(uint32_t x, uint32_t y) {
  return ((x + y) & 0xFFFFu) | ((((x >> 16) + (y >> 16)) & 0xFFFFu) << 16);
}
static int32_t tflc__qadd(int32_t x, int32_t y) {
  const int64_t v = (int64_t)x + y;
  return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}
static uint32_t tflc__sxtab16(uint32_t a, uint32_t x) {
  return tflc__sadd16(a, tflc__sxtb16(x));
}
static uint32_t tflc__sxtab16_ror8(uint32_t a, uint32_t x) {
  return tflc__sadd16(a, tflc__sxtb16_ror8(x));
}
#else
#include <arm_acle.h>
#define tflc__sxtb16(x) ((uint32_t)__sxtb16((int8x4_t)(x)))
#define tflc__smlad(x, y, acc)                                                 \
  ((uint32_t)__smlad((int16x2_t)(x), (int16x2_t)(y), (int32_t)(acc)))
#define tflc__smlabb(x, y, acc)                                                \
  ((uint32_t)__smlabb((int32_t)(x), (int32_t)(y), (int32_t)(acc)))
#define tflc__smlatt(x, y, acc)                                                \
  ((uint32_t)__smlatt((int32_t)(x), (int32_t)(y), (int32_t)(acc)))
#define tflc__sadd16(x, y) ((uint32_t)__sadd16((int16x2_t)(x), (int16x2_t)(y)))
#define tflc__qadd(x, y) ((int32_t)__qadd((x), (y)))
static uint32_t tflc__sxtb16_ror8(uint32_t x) {
#if defined(__GNUC__)
  /* one instruction: compilers do not fold the rotation into SXTB16 */
  uint32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
  return r;
#else
  return tflc__sxtb16((x >> 8) | (x << 24));
#endif
}
/* a + the widened bytes 0 and 2 of x (1 and 3: _ror8), lane by lane */
#define tflc__sxtab16(a, x) ((uint32_t)__sxtab16((int16x2_t)(a), (int8x4_t)(x)))
static uint32_t tflc__sxtab16_ror8(uint32_t a, uint32_t x) {
#if defined(__GNUC__)
  uint32_t r;
  __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(x));
  return r;
#else
  return tflc__sxtab16(a, (x >> 8) | (x << 24));
#endif
}
#endif

/* v saturated to int8 (SSAT) */
TFLC__INLINE int32_t tflc__ssat8(int32_t v) {
#if !defined(TFLC_DSP_EMULATE) && (defined(__GNUC__) || defined(__clang__))
  return (int32_t)__builtin_arm_ssat((int)v, 8);
#else
  return v > 127 ? 127 : v < -128 ? -128 : v;
#endif
}

/* (a * b + 2^31) >> 32, the rounded high word of a product: SMMULR */
TFLC__INLINE int32_t tflc__smmulr(int32_t a, int32_t b) {
#if !defined(TFLC_DSP_EMULATE) && (defined(__GNUC__) || defined(__clang__))
  int32_t r;
  __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
#else
  return (int32_t)tflc__asr64((int64_t)a * b + ((int64_t)1 << 31), 32);
#endif
}

/* four int8 at any address, as one little-endian word */
static uint32_t tflc__load4(const int8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* The DSP requantization of one channel: the wrapping left shift, the
 * multiplier's high product with SMLAL, then gemmlowp's rounding division
 * by 2^n as (v + 2^(n-1) - (v < 0)) >> n with a saturating QADD (n = 0:
 * v itself). Where the sum would overflow (v within 2^(n-1) of INT32_MAX)
 * the saturation moves the result by one, at values >= 2^(31-n) - 1 >= 255
 * (n <= 23) that clamp to the same int8 after any int8 offset. So it is
 * used with int8 offsets and clamps only, and shifts beyond 23 (nearly
 * dead channels) take the same sum in 64 bits. */
typedef struct tflc__dsp_requant {
  int32_t q, nudge;
  uint32_t left, right, round; /* round: 1 when right > 0 */
  int simple;                  /* no left shift, right shift 1..23 */
} tflc__dsp_requant;

TFLC__INLINE int tflc__dsp_requant_init(tflc__dsp_requant *r, int32_t q,
                                        int32_t shift) {
  const int ok = q != INT32_MIN && shift >= -31 && shift <= 30;
  /* every field written either way (no uninitialized reads to reason
   * about); the values of a refused channel are not used */
  r->q = q;
  r->left = ok && shift > 0 ? (uint32_t)shift : 0u;
  r->right = ok && shift < 0 ? (uint32_t)-shift : 0u;
  r->round = r->right > 0;
  r->nudge = r->right > 0 ? (int32_t)1 << (r->right - 1) : 0;
  r->simple = r->left == 0 && r->right >= 1 && r->right <= 23;
  return ok;
}

/* both of two channels simple */
#define TFLC__DSP_SIMPLE2(f0, f1) ((f0).simple && (f1).simple)
/* 1 when every sum of up to n products of two int8 values added to the
 * bias b stays within +-(2^30 - 1), so that twice it is an int32 (the
 * requantization by SMMULR of the assembly blocks) */
TFLC__INLINE int tflc__dsp_fits30(uint32_t b, int64_t n) {
  const int64_t v = (int32_t)b;
  return n >= 0 && n <= 0x8000 &&
         (v < 0 ? -v : v) + n * 16384 < ((int64_t)1 << 30);
}

/* simple: a constant at each call site, the channel's r->simple */
TFLC__INLINE int32_t tflc__dsp_requant_apply(const tflc__dsp_requant *r,
                                             uint32_t acc, int simple) {
  if (simple) {
    const uint64_t p =
        (uint64_t)((int64_t)tflc__wrap32((int64_t)acc) * (int64_t)r->q) +
        (1u << 30);
    const int32_t v = tflc__wrap32((int64_t)(uint32_t)(p >> 31));
    return tflc__asr32(tflc__qadd(v, r->nudge - (int32_t)((uint32_t)v >> 31)),
                       (int)r->right);
  } else {
    const uint64_t p =
        (uint64_t)((int64_t)tflc__wrap32((int64_t)(acc << r->left)) *
                   (int64_t)r->q) +
        (1u << 30);
    const int32_t v = tflc__wrap32((int64_t)(uint32_t)(p >> 31));
    const int32_t nudge = r->nudge - (int32_t)(((uint32_t)v >> 31) & r->round);
    if (r->right > 23)
      return (int32_t)tflc__asr64((int64_t)v + nudge, (int)r->right);
    return tflc__asr32(tflc__qadd(v, nudge), (int)r->right);
  }
}

/* tflc__dsp_requant_apply of a simple channel from its multiplier q and
 * right shift (1..23) */
TFLC__INLINE int32_t tflc__dsp_requant_simple(uint32_t acc, int32_t q,
                                              int32_t right) {
  const uint64_t p =
      (uint64_t)((int64_t)tflc__wrap32((int64_t)acc) * (int64_t)q) + (1u << 30);
  const int32_t v = tflc__wrap32((int64_t)(uint32_t)(p >> 31));
  const int32_t nudge = (int32_t)1 << (right - 1);
  return tflc__asr32(tflc__qadd(v, nudge - (int32_t)((uint32_t)v >> 31)),
                     (int)right);
}

/* + offset, clamp to [lo, hi] (within int8) or saturate (sat8) */
TFLC__INLINE int8_t tflc__dsp_out_s8(int32_t v, int32_t off, int32_t lo,
                                     int32_t hi, int sat8) {
  v = tflc__wrap32((int64_t)((uint32_t)v + (uint32_t)off)); /* wraps */
  if (sat8) {
    v = tflc__ssat8(v);
  } else {
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
  }
  return (int8_t)v;
}

/* One requantized output, the variant chosen at run time (sat8, simple:
 * see tflc__dsp_out_s8 and tflc__dsp_requant_apply). The parameters come
 * by value: through pointers, compilers reload them after every int8
 * store (which may alias anything). */
TFLC__INLINE int8_t tflc__dsp_out(tflc__dsp_requant f, uint32_t acc,
                                  int32_t off, int32_t lo, int32_t hi, int sat8,
                                  int simple) {
  if (simple && sat8)
    return tflc__dsp_out_s8(tflc__dsp_requant_apply(&f, acc, 1), off, lo, hi,
                            1);
  if (simple)
    return tflc__dsp_out_s8(tflc__dsp_requant_apply(&f, acc, 1), off, lo, hi,
                            0);
  return tflc__dsp_out_s8(tflc__dsp_requant_apply(&f, acc, 0), off, lo, hi,
                          sat8);
}

/* 2: fast requantization saturating to int8, 1: fast with a clamp, 0: the
 * generic one */
static int tflc__dsp_mode(const tflc_requant_params *rq) {
  if (rq->output_offset < -128 || rq->output_offset > 127 ||
      rq->act_min < -128 || rq->act_max > 127 || rq->act_min > rq->act_max)
    return 0;
  return rq->act_min == -128 && rq->act_max == 127 ? 2 : 1;
}

/* s[0..3] += the sums of a 2 x 2 block over n4 values (a multiple of 4):
 * s[0] = a0.w0, s[1] = a0.w1, s[2] = a1.w0, s[3] = a1.w1; the offset pair
 * off2 is added to the widened inputs when with_offset. */
TFLC__INLINE void tflc__dsp_dot2x2(const int8_t *a0, const int8_t *a1,
                                   const int8_t *w0, const int8_t *w1,
                                   int32_t n4, int with_offset, uint32_t off2,
                                   uint32_t *s) {
  uint32_t s00 = s[0], s01 = s[1], s10 = s[2], s11 = s[3];
  int32_t k;
  for (k = 0; k < n4; k += 4) {
    uint32_t wl, wh, xal, xah, xbl, xbh;
    const uint32_t xa = tflc__load4(a0 + k), wa = tflc__load4(w0 + k);
    const uint32_t xb = tflc__load4(a1 + k), wb = tflc__load4(w1 + k);
    xal = tflc__sxtb16(xa);
    xah = tflc__sxtb16_ror8(xa);
    if (with_offset) {
      xal = tflc__sadd16(xal, off2);
      xah = tflc__sadd16(xah, off2);
    }
    wl = tflc__sxtb16(wa);
    wh = tflc__sxtb16_ror8(wa);
    s00 = tflc__smlad(xal, wl, s00);
    s00 = tflc__smlad(xah, wh, s00);
    xbl = tflc__sxtb16(xb);
    xbh = tflc__sxtb16_ror8(xb);
    if (with_offset) {
      xbl = tflc__sadd16(xbl, off2);
      xbh = tflc__sadd16(xbh, off2);
    }
    s10 = tflc__smlad(xbl, wl, s10);
    s10 = tflc__smlad(xbh, wh, s10);
    wl = tflc__sxtb16(wb);
    wh = tflc__sxtb16_ror8(wb);
    s01 = tflc__smlad(xal, wl, s01);
    s11 = tflc__smlad(xbl, wl, s11);
    s01 = tflc__smlad(xah, wh, s01);
    s11 = tflc__smlad(xbh, wh, s11);
  }
  s[0] = s00;
  s[1] = s01;
  s[2] = s10;
  s[3] = s11;
}

/* s[0..1] += the sums of one row against two weight rows over n4 values */
TFLC__INLINE void tflc__dsp_dot1x2(const int8_t *a0, const int8_t *w0,
                                   const int8_t *w1, int32_t n4,
                                   int with_offset, uint32_t off2,
                                   uint32_t *s) {
  uint32_t s0 = s[0], s1 = s[1];
  int32_t k;
  for (k = 0; k < n4; k += 4) {
    const uint32_t xa = tflc__load4(a0 + k);
    const uint32_t wa = tflc__load4(w0 + k), wb = tflc__load4(w1 + k);
    uint32_t xl = tflc__sxtb16(xa), xh = tflc__sxtb16_ror8(xa);
    if (with_offset) {
      xl = tflc__sadd16(xl, off2);
      xh = tflc__sadd16(xh, off2);
    }
    s0 = tflc__smlad(xl, tflc__sxtb16(wa), s0);
    s0 = tflc__smlad(xh, tflc__sxtb16_ror8(wa), s0);
    s1 = tflc__smlad(xl, tflc__sxtb16(wb), s1);
    s1 = tflc__smlad(xh, tflc__sxtb16_ror8(wb), s1);
  }
  s[0] = s0;
  s[1] = s1;
}

/* The inner loops in assembly where TFLC__DSP_ASM is defined (gcc or
 * clang, Thumb-2, optimized: chosen in the selection block). */
#if defined(TFLC__DSP_ASM)
/* The no-offset 2 x 2 inner loop in Thumb-2 assembly: the ACLE version
 * needs more registers than compilers find (they spill three values per
 * iteration). This one keeps thirteen registers (a frame pointer may hold
 * the fourteenth) with the second input row's pointer in memory: 22
 * instructions per four values, unrolled twice. n4 > 0. */
#define TFLC__DSP_M_A1 TFLC__DSP_AM(a1, 0)
#define TFLC__DSP_M_END TFLC__DSP_AM(end, 4)
#define TFLC__DSP_M_ODD TFLC__DSP_AM(odd, 8)
static TFLC__NOINLINE void
tflc__dsp_dot2x2_asm(const int8_t *a0_, const int8_t *a1, const int8_t *w0_,
                     const int8_t *w1_, int32_t n4, uint32_t *s) {
  TFLC__DSP_AV(uint32_t, s00, "r0") = s[0];
  TFLC__DSP_AV(uint32_t, s01, "r1") = s[1];
  TFLC__DSP_AV(uint32_t, s10, "r2") = s[2];
  TFLC__DSP_AV(uint32_t, s11, "r3") = s[3];
  TFLC__DSP_AV(const int8_t *, a0, "r4") = a0_;
  TFLC__DSP_AV(const int8_t *, w0, "r5") = w0_;
  TFLC__DSP_AV(const int8_t *, w1, "r6") = w1_;
  TFLC__DSP_AV(uint32_t, t0, "r8");
  TFLC__DSP_AV(uint32_t, t1, "r9");
  TFLC__DSP_AV(uint32_t, t2, "r10");
  TFLC__DSP_AV(uint32_t, t3, "r11");
  TFLC__DSP_AV(uint32_t, t4, "r12");
  TFLC__DSP_AV(uint32_t, t5, "lr");
  const int8_t *const end = a0 + n4;
  const int32_t odd = n4 & 4;
  TFLC__DSP_ACTX(t0, (uintptr_t)a1, (uintptr_t)end, (uintptr_t)(uint32_t)odd);
#define TFLC__DSP_STEP_2X2                                                     \
  "ldr %[t0], [%[a0]], #4\n\t"                                                 \
  "ldr %[t2], [%[w0]], #4\n\t"                                                 \
  "sxtb16 %[t1], %[t0], ror #8\n\t"                                            \
  "sxtb16 %[t0], %[t0]\n\t"                                                    \
  "sxtb16 %[t3], %[t2], ror #8\n\t"                                            \
  "sxtb16 %[t2], %[t2]\n\t"                                                    \
  "smlad %[s00], %[t0], %[t2], %[s00]\n\t"                                     \
  "smlad %[s00], %[t1], %[t3], %[s00]\n\t"                                     \
  "ldr %[t4], " TFLC__DSP_M_A1 "\n\t"                                          \
  "ldr %[t5], [%[t4]], #4\n\t"                                                 \
  "str %[t4], " TFLC__DSP_M_A1 "\n\t"                                          \
  "sxtb16 %[t4], %[t5]\n\t"                                                    \
  "sxtb16 %[t5], %[t5], ror #8\n\t"                                            \
  "smlad %[s10], %[t4], %[t2], %[s10]\n\t"                                     \
  "smlad %[s10], %[t5], %[t3], %[s10]\n\t"                                     \
  "ldr %[t2], [%[w1]], #4\n\t"                                                 \
  "sxtb16 %[t3], %[t2], ror #8\n\t"                                            \
  "sxtb16 %[t2], %[t2]\n\t"                                                    \
  "smlad %[s01], %[t0], %[t2], %[s01]\n\t"                                     \
  "smlad %[s01], %[t1], %[t3], %[s01]\n\t"                                     \
  "smlad %[s11], %[t4], %[t2], %[s11]\n\t"                                     \
  "smlad %[s11], %[t5], %[t3], %[s11]\n\t"
  __asm__(TFLC__DSP_AENTER(t0) "ldr %[t0], " TFLC__DSP_M_ODD "\n\t"
                               "cmp %[t0], #0\n\t"
                               "bne 2f\n"
                               "1:\n\t" TFLC__DSP_STEP_2X2
                               "2:\n\t" TFLC__DSP_STEP_2X2
                               "ldr %[t0], " TFLC__DSP_M_END "\n\t"
                               "cmp %[a0], %[t0]\n\t"
                               "bne 1b\n\t" TFLC__DSP_AEXIT
          : [s00] "+r"(s00), [s01] "+r"(s01), [s10] "+r"(s10), [s11] "+r"(s11),
            [a0] "+r"(a0), [w0] "+r"(w0), [w1] "+r"(w1),
            TFLC__DSP_AGCC([a1] "+m"(a1), )[t0] TFLC__DSP_ACTX_RW(t0),
            [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
            [t5] "=&r"(t5)
          : TFLC__DSP_AGCC([end] "m"(end), [odd] "m"(odd))
          : "cc", "memory");
#undef TFLC__DSP_STEP_2X2
#undef TFLC__DSP_M_A1
#undef TFLC__DSP_M_END
#undef TFLC__DSP_M_ODD
  s[0] = s00;
  s[1] = s01;
  s[2] = s10;
  s[3] = s11;
}
/* The same when the second input row and the second weight row lie the
 * same distance `stride` after the first ones (pointwise convolutions,
 * fully connected layers): thirteen registers, 20 instructions per four
 * values. */
#define TFLC__DSP_M_END TFLC__DSP_AM(end, 0)
#define TFLC__DSP_M_ODD TFLC__DSP_AM(odd, 4)
static TFLC__NOINLINE void
tflc__dsp_dot2x2_stride_asm(const int8_t *a0_, const int8_t *w0_,
                            int32_t stride, int32_t n4, uint32_t *s) {
  TFLC__DSP_AV(uint32_t, s00, "r0") = s[0];
  TFLC__DSP_AV(uint32_t, s01, "r1") = s[1];
  TFLC__DSP_AV(uint32_t, s10, "r2") = s[2];
  TFLC__DSP_AV(uint32_t, s11, "r3") = s[3];
  TFLC__DSP_AV(const int8_t *, a0, "r4") = a0_;
  TFLC__DSP_AV(const int8_t *, w0, "r5") = w0_;
  TFLC__DSP_AV(int32_t, st, "r6") = stride;
  TFLC__DSP_AV(uint32_t, t0, "r8");
  TFLC__DSP_AV(uint32_t, t1, "r9");
  TFLC__DSP_AV(uint32_t, t2, "r10");
  TFLC__DSP_AV(uint32_t, t3, "r11");
  TFLC__DSP_AV(uint32_t, t4, "r12");
  TFLC__DSP_AV(uint32_t, t5, "lr");
  const int8_t *const end = a0 + n4;
  const int32_t odd = n4 & 4;
  TFLC__DSP_ACTX(t0, (uintptr_t)end, (uintptr_t)(uint32_t)odd);
#define TFLC__DSP_STEP_2X2_STRIDE                                              \
  "ldr %[t4], [%[a0], %[st]]\n\t"                                              \
  "ldr %[t0], [%[a0]], #4\n\t"                                                 \
  "ldr %[t2], [%[w0]]\n\t"                                                     \
  "sxtb16 %[t1], %[t0], ror #8\n\t"                                            \
  "sxtb16 %[t0], %[t0]\n\t"                                                    \
  "sxtb16 %[t3], %[t2], ror #8\n\t"                                            \
  "sxtb16 %[t2], %[t2]\n\t"                                                    \
  "smlad %[s00], %[t0], %[t2], %[s00]\n\t"                                     \
  "smlad %[s00], %[t1], %[t3], %[s00]\n\t"                                     \
  "sxtb16 %[t5], %[t4], ror #8\n\t"                                            \
  "sxtb16 %[t4], %[t4]\n\t"                                                    \
  "smlad %[s10], %[t4], %[t2], %[s10]\n\t"                                     \
  "smlad %[s10], %[t5], %[t3], %[s10]\n\t"                                     \
  "ldr %[t2], [%[w0], %[st]]\n\t"                                              \
  "add %[w0], %[w0], #4\n\t"                                                   \
  "sxtb16 %[t3], %[t2], ror #8\n\t"                                            \
  "sxtb16 %[t2], %[t2]\n\t"                                                    \
  "smlad %[s01], %[t0], %[t2], %[s01]\n\t"                                     \
  "smlad %[s01], %[t1], %[t3], %[s01]\n\t"                                     \
  "smlad %[s11], %[t4], %[t2], %[s11]\n\t"                                     \
  "smlad %[s11], %[t5], %[t3], %[s11]\n\t"
  __asm__(TFLC__DSP_AENTER(t0) "ldr %[t0], " TFLC__DSP_M_ODD "\n\t"
                               "cmp %[t0], #0\n\t"
                               "bne 2f\n"
                               "1:\n\t" TFLC__DSP_STEP_2X2_STRIDE
                               "2:\n\t" TFLC__DSP_STEP_2X2_STRIDE
                               "ldr %[t0], " TFLC__DSP_M_END "\n\t"
                               "cmp %[a0], %[t0]\n\t"
                               "bne 1b\n\t" TFLC__DSP_AEXIT
          : [s00] "+r"(s00), [s01] "+r"(s01), [s10] "+r"(s10), [s11] "+r"(s11),
            [a0] "+r"(a0), [w0] "+r"(w0), [t0] TFLC__DSP_ACTX_RW(t0),
            [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
            [t5] "=&r"(t5)
          : [st] "r"(st)TFLC__DSP_AGCC(, [end] "m"(end), [odd] "m"(odd))
          : "cc", "memory");
#undef TFLC__DSP_STEP_2X2_STRIDE
#undef TFLC__DSP_M_END
#undef TFLC__DSP_M_ODD
  s[0] = s00;
  s[1] = s01;
  s[2] = s10;
  s[3] = s11;
}
#endif

/* One segment of a 2 x 2 (two_r) or 1 x 2 block: s += its sums */
TFLC__INLINE void tflc__dsp_segment(const int8_t *a0, const int8_t *a1,
                                    const int8_t *w0, const int8_t *w1,
                                    int32_t len, int32_t a_offset,
                                    uint32_t off2, int two_r, uint32_t *s) {
  const int32_t n4 = len & ~3;
  int32_t k;
  if (two_r) {
    if (a_offset != 0)
      tflc__dsp_dot2x2(a0, a1, w0, w1, n4, 1, off2, s);
#if defined(TFLC__DSP_ASM)
    else if (n4 > 0 && a1 - a0 == w1 - w0)
      tflc__dsp_dot2x2_stride_asm(a0, w0, (int32_t)(a1 - a0), n4, s);
    else if (n4 > 0)
      tflc__dsp_dot2x2_asm(a0, a1, w0, w1, n4, s);
#else
    else
      tflc__dsp_dot2x2(a0, a1, w0, w1, n4, 0, 0, s);
#endif
    for (k = n4; k < len; k++) {
      const int32_t x0 = (int32_t)a0[k] + a_offset;
      const int32_t x1 = (int32_t)a1[k] + a_offset;
      s[0] += (uint32_t)(x0 * w0[k]);
      s[1] += (uint32_t)(x0 * w1[k]);
      s[2] += (uint32_t)(x1 * w0[k]);
      s[3] += (uint32_t)(x1 * w1[k]);
    }
  } else {
    if (a_offset != 0)
      tflc__dsp_dot1x2(a0, w0, w1, n4, 1, off2, s);
    else
      tflc__dsp_dot1x2(a0, w0, w1, n4, 0, 0, s);
    for (k = n4; k < len; k++) {
      const int32_t x0 = (int32_t)a0[k] + a_offset;
      s[0] += (uint32_t)(x0 * w0[k]);
      s[1] += (uint32_t)(x0 * w1[k]);
    }
  }
}

/* s[0..3] += one input row against four weight rows (w0 + j * w_col) over
 * n4 values (a multiple of 4), with the offset pair off2 added to the
 * widened inputs (0 adds nothing). */
TFLC__INLINE void tflc__dsp_dot1x4(const int8_t *a0, const int8_t *w0,
                                   int32_t w_col, int32_t n4, uint32_t off2,
                                   uint32_t *s) {
  const int8_t *w1 = w0 + w_col, *w2 = w1 + w_col, *w3 = w2 + w_col;
  uint32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
  int32_t k;
  for (k = 0; k < n4; k += 4) {
    const uint32_t xa = tflc__load4(a0 + k);
    const uint32_t xl = tflc__sadd16(tflc__sxtb16(xa), off2);
    const uint32_t xh = tflc__sadd16(tflc__sxtb16_ror8(xa), off2);
    uint32_t wv = tflc__load4(w0 + k);
    s0 = tflc__smlad(xl, tflc__sxtb16(wv), s0);
    s0 = tflc__smlad(xh, tflc__sxtb16_ror8(wv), s0);
    wv = tflc__load4(w1 + k);
    s1 = tflc__smlad(xl, tflc__sxtb16(wv), s1);
    s1 = tflc__smlad(xh, tflc__sxtb16_ror8(wv), s1);
    wv = tflc__load4(w2 + k);
    s2 = tflc__smlad(xl, tflc__sxtb16(wv), s2);
    s2 = tflc__smlad(xh, tflc__sxtb16_ror8(wv), s2);
    wv = tflc__load4(w3 + k);
    s3 = tflc__smlad(xl, tflc__sxtb16(wv), s3);
    s3 = tflc__smlad(xh, tflc__sxtb16_ror8(wv), s3);
  }
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
}

#if defined(TFLC__DSP_ASM)
/* The 1 x 4 loop in assembly (the inputs widened once for four weight
 * rows), twelve registers: 26 instructions per four values, unrolled
 * twice. n4 > 0. */
#define TFLC__DSP_M_OFF2 TFLC__DSP_AM(off2, 0)
#define TFLC__DSP_M_END TFLC__DSP_AM(end, 4)
#define TFLC__DSP_M_ODD TFLC__DSP_AM(odd, 8)
static TFLC__NOINLINE void tflc__dsp_dot1x4_asm(const int8_t *a0_,
                                                const int8_t *w0_,
                                                int32_t w_col, int32_t n4,
                                                uint32_t off2, uint32_t *s) {
  TFLC__DSP_AV(uint32_t, s0, "r0") = s[0];
  TFLC__DSP_AV(uint32_t, s1, "r1") = s[1];
  TFLC__DSP_AV(uint32_t, s2, "r2") = s[2];
  TFLC__DSP_AV(uint32_t, s3, "r3") = s[3];
  TFLC__DSP_AV(const int8_t *, a0, "r4") = a0_;
  TFLC__DSP_AV(const int8_t *, w0, "r5") = w0_;
  TFLC__DSP_AV(const int8_t *, w2, "r6") = w0_ + 2 * w_col;
  TFLC__DSP_AV(int32_t, wc, "r8") = w_col;
  TFLC__DSP_AV(uint32_t, xl, "r9");
  TFLC__DSP_AV(uint32_t, xh, "r10");
  TFLC__DSP_AV(uint32_t, wv, "r11");
  TFLC__DSP_AV(uint32_t, wl, "r12");
  const int8_t *const end = a0 + n4;
  const int32_t odd = n4 & 4;
  TFLC__DSP_ACTX(wv, (uintptr_t)off2, (uintptr_t)end, (uintptr_t)(uint32_t)odd);
#define TFLC__DSP_STEP_1X4                                                     \
  "ldr %[xh], [%[a0]], #4\n\t"                                                 \
  "sxtb16 %[xl], %[xh]\n\t"                                                    \
  "sxtb16 %[xh], %[xh], ror #8\n\t"                                            \
  "ldr %[wv], " TFLC__DSP_M_OFF2 "\n\t"                                        \
  "sadd16 %[xl], %[xl], %[wv]\n\t"                                             \
  "sadd16 %[xh], %[xh], %[wv]\n\t"                                             \
  "ldr %[wv], [%[w0], %[wc]]\n\t"                                              \
  "sxtb16 %[wl], %[wv]\n\t"                                                    \
  "sxtb16 %[wv], %[wv], ror #8\n\t"                                            \
  "smlad %[s1], %[xl], %[wl], %[s1]\n\t"                                       \
  "smlad %[s1], %[xh], %[wv], %[s1]\n\t"                                       \
  "ldr %[wv], [%[w0]], #4\n\t"                                                 \
  "sxtb16 %[wl], %[wv]\n\t"                                                    \
  "sxtb16 %[wv], %[wv], ror #8\n\t"                                            \
  "smlad %[s0], %[xl], %[wl], %[s0]\n\t"                                       \
  "smlad %[s0], %[xh], %[wv], %[s0]\n\t"                                       \
  "ldr %[wv], [%[w2], %[wc]]\n\t"                                              \
  "sxtb16 %[wl], %[wv]\n\t"                                                    \
  "sxtb16 %[wv], %[wv], ror #8\n\t"                                            \
  "smlad %[s3], %[xl], %[wl], %[s3]\n\t"                                       \
  "smlad %[s3], %[xh], %[wv], %[s3]\n\t"                                       \
  "ldr %[wv], [%[w2]], #4\n\t"                                                 \
  "sxtb16 %[wl], %[wv]\n\t"                                                    \
  "sxtb16 %[wv], %[wv], ror #8\n\t"                                            \
  "smlad %[s2], %[xl], %[wl], %[s2]\n\t"                                       \
  "smlad %[s2], %[xh], %[wv], %[s2]\n\t"
  __asm__(TFLC__DSP_AENTER(wv) "ldr %[wv], " TFLC__DSP_M_ODD "\n\t"
                               "cmp %[wv], #0\n\t"
                               "bne 2f\n"
                               "1:\n\t" TFLC__DSP_STEP_1X4
                               "2:\n\t" TFLC__DSP_STEP_1X4
                               "ldr %[wv], " TFLC__DSP_M_END "\n\t"
                               "cmp %[a0], %[wv]\n\t"
                               "bne 1b\n\t" TFLC__DSP_AEXIT
          : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3),
            [a0] "+r"(a0), [w0] "+r"(w0), [w2] "+r"(w2), [xl] "=&r"(xl),
            [xh] "=&r"(xh), [wv] TFLC__DSP_ACTX_RW(wv), [wl] "=&r"(wl)
          : [wc] "r"(wc)TFLC__DSP_AGCC(
              , [off2] "m"(off2), [end] "m"(end), [odd] "m"(odd))
          : "cc", "memory");
#undef TFLC__DSP_STEP_1X4
#undef TFLC__DSP_M_OFF2
#undef TFLC__DSP_M_END
#undef TFLC__DSP_M_ODD
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
}
#endif

/* The bound of tflc__dsp_pre_cols' biases over runs of n values: |b| is
 * below it exactly when every sum of b and n products of two int8 values
 * stays within +-(2^30 - 1) (tflc__dsp_fits30). */
TFLC__INLINE uint32_t tflc__dsp_pre_lim(int32_t n) {
  return n >= 0 && n <= 0x8000 ? (1u << 30) - (uint32_t)n * 16384u : 0u;
}

/* Column words q[0..2] for the blocks requantized in assembly: the
 * multiplier m, the nudge with the output offset and the right shift;
 * 0 (q not written) when the channel is not simple (no left shift, right
 * shift 1..23, m not INT32_MIN: tflc__dsp_requant_init's) or its bias v
 * is not below lim (tflc__dsp_pre_lim's) */
TFLC__INLINE int tflc__dsp_pre_one(int32_t m, int32_t shift, uint32_t v,
                                   uint32_t off, uint32_t lim, uint32_t *q) {
  const uint32_t r = 0u - (uint32_t)shift;
  if (m == INT32_MIN || r - 1u >= 23u || ((v >> 31) != 0 ? 0u - v : v) >= lim)
    return 0;
  q[0] = (uint32_t)m;
  q[1] = ((1u << r) >> 1) + (off << r);
  q[2] = r;
  return 1;
}

/* The words of tflc__dsp_pw_sat_asm for columns c and c + 1 in p[0..8]:
 * each column's multiplier, nudge with the output offset and right
 * shift, then out_row and the two biases; 0 when tflc__dsp_pre_one does
 * not take a column. */
static TFLC__NOINLINE int tflc__dsp_pre_cols(const tflc_requant_params *rq,
                                             int32_t c, uint32_t lim,
                                             int32_t out_row, uint32_t *p) {
  const int32_t k0 = rq->per_channel ? c : 0, k1 = rq->per_channel ? c + 1 : 0;
  const uint32_t v0 = rq->bias != NULL ? (uint32_t)rq->bias[c] : 0u;
  const uint32_t v1 = rq->bias != NULL ? (uint32_t)rq->bias[c + 1] : 0u;
  const uint32_t off = (uint32_t)rq->output_offset;
  if (!tflc__dsp_pre_one(rq->multiplier[k0], rq->shift[k0], v0, off, lim, p) ||
      !tflc__dsp_pre_one(rq->multiplier[k1], rq->shift[k1], v1, off, lim,
                         p + 3))
    return 0;
  p[6] = (uint32_t)out_row;
  p[7] = v0;
  p[8] = v1;
  return 1;
}

#if defined(TFLC__DSP_ASM)
/* 2 x 2 blocks per call of the pointwise path (their sums on the stack) */
#define TFLC__DSP_PAIRS 4
/* Sums of `pairs` 2 x 2 blocks down the rows: block i takes input rows
 * a + 2 i stride and the one after, against weight rows w0 and w0 +
 * stride, over n4 values (a positive multiple of 4), starting from the
 * biases b0 (column 0) and b1; out gets four sums per block (a0.w0,
 * a0.w1, a1.w0, a1.w1). One call for many blocks: the loop state lives in
 * memory between blocks, the inner loop in thirteen registers. */
#define TFLC__DSP_M_A TFLC__DSP_AM(a, 0)
#define TFLC__DSP_M_OUT TFLC__DSP_AM(out, 4)
#define TFLC__DSP_M_PAIRS TFLC__DSP_AM(pairs, 8)
#define TFLC__DSP_M_END TFLC__DSP_AM(end, 12)
#define TFLC__DSP_M_W0 TFLC__DSP_AM(w0, 16)
#define TFLC__DSP_M_B0 TFLC__DSP_AM(b0, 20)
#define TFLC__DSP_M_B1 TFLC__DSP_AM(b1, 24)
#define TFLC__DSP_M_N4 TFLC__DSP_AM(n4, 28)
#define TFLC__DSP_M_ODD TFLC__DSP_AM(odd, 32)
static TFLC__NOINLINE void tflc__dsp_pairs_asm(const int8_t *a,
                                               const int8_t *w0, int32_t stride,
                                               int32_t n4, int32_t pairs,
                                               uint32_t b0, uint32_t b1,
                                               uint32_t *out) {
  TFLC__DSP_AV(uint32_t, s00, "r0");
  TFLC__DSP_AV(uint32_t, s01, "r1");
  TFLC__DSP_AV(uint32_t, s10, "r2");
  TFLC__DSP_AV(uint32_t, s11, "r3");
  TFLC__DSP_AV(const int8_t *, a0, "r4");
  TFLC__DSP_AV(const int8_t *, w, "r5");
  TFLC__DSP_AV(int32_t, st, "r6") = stride;
  TFLC__DSP_AV(uint32_t, t0, "r8");
  TFLC__DSP_AV(uint32_t, t1, "r9");
  TFLC__DSP_AV(uint32_t, t2, "r10");
  TFLC__DSP_AV(uint32_t, t3, "r11");
  TFLC__DSP_AV(uint32_t, t4, "r12");
  TFLC__DSP_AV(uint32_t, t5, "lr");
  const int8_t *end = a;
  const int32_t odd = n4 & 4;
  TFLC__DSP_ACTX(t0, (uintptr_t)a, (uintptr_t)out, (uintptr_t)(uint32_t)pairs,
                 (uintptr_t)end, (uintptr_t)w0, (uintptr_t)b0, (uintptr_t)b1,
                 (uintptr_t)(uint32_t)n4, (uintptr_t)(uint32_t)odd);
#define TFLC__DSP_STEP_PAIRS                                                   \
  "ldr %[t4], [%[a0], %[st]]\n\t"                                              \
  "ldr %[t0], [%[a0]], #4\n\t"                                                 \
  "ldr %[t2], [%[w]]\n\t"                                                      \
  "sxtb16 %[t1], %[t0], ror #8\n\t"                                            \
  "sxtb16 %[t0], %[t0]\n\t"                                                    \
  "sxtb16 %[t3], %[t2], ror #8\n\t"                                            \
  "sxtb16 %[t2], %[t2]\n\t"                                                    \
  "smlad %[s00], %[t0], %[t2], %[s00]\n\t"                                     \
  "smlad %[s00], %[t1], %[t3], %[s00]\n\t"                                     \
  "sxtb16 %[t5], %[t4], ror #8\n\t"                                            \
  "sxtb16 %[t4], %[t4]\n\t"                                                    \
  "smlad %[s10], %[t4], %[t2], %[s10]\n\t"                                     \
  "smlad %[s10], %[t5], %[t3], %[s10]\n\t"                                     \
  "ldr %[t2], [%[w], %[st]]\n\t"                                               \
  "add %[w], %[w], #4\n\t"                                                     \
  "sxtb16 %[t3], %[t2], ror #8\n\t"                                            \
  "sxtb16 %[t2], %[t2]\n\t"                                                    \
  "smlad %[s01], %[t0], %[t2], %[s01]\n\t"                                     \
  "smlad %[s01], %[t1], %[t3], %[s01]\n\t"                                     \
  "smlad %[s11], %[t4], %[t2], %[s11]\n\t"                                     \
  "smlad %[s11], %[t5], %[t3], %[s11]\n\t"
  __asm__(
      TFLC__DSP_AENTER(t0) "3:\n\t"
                           "ldr %[a0], " TFLC__DSP_M_A "\n\t"
                           "ldr %[w], " TFLC__DSP_M_W0 "\n\t"
                           "ldr %[s00], " TFLC__DSP_M_B0 "\n\t"
                           "ldr %[s10], " TFLC__DSP_M_B0 "\n\t"
                           "ldr %[s01], " TFLC__DSP_M_B1 "\n\t"
                           "ldr "
                           "%[s11], " TFLC__DSP_M_B1 "\n\t"
                           "ldr "
                           "%[t0],"
                           " " TFLC__DSP_M_N4 "\n\t"
                           "add "
                           "%[t0], "
                           "%[a0], "
                           "%[t0]\n\t"
                           "str "
                           "%[t0],"
                           " " TFLC__DSP_M_END "\n\t"
                           "l"
                           "d"
                           "r"
                           " "
                           "%"
                           "["
                           "t"
                           "0"
                           "]"
                           ","
                           " " TFLC__DSP_M_ODD "\n\t"
                           "cmp %[t0], #0\n\t"
                           "bne 2f\n"
                           "1:\n\t" TFLC__DSP_STEP_PAIRS
                           "2:\n\t" TFLC__DSP_STEP_PAIRS
                           "ldr %[t0], " TFLC__DSP_M_END "\n\t"
                           "cmp %[a0], %[t0]\n\t"
                           "bne 1b\n\t"
                           "ldr %[t0], " TFLC__DSP_M_OUT "\n\t"
                           "str %[s00], [%[t0]], #4\n\t"
                           "str %[s01], [%[t0]], #4\n\t"
                           "str %[s10], [%[t0]], #4\n\t"
                           "str %[s11], [%[t0]], #4\n\t"
                           "str %[t0], " TFLC__DSP_M_OUT "\n\t"
                           "ldr %[t0], " TFLC__DSP_M_A "\n\t"
                           "add %[t0], %[t0], %[st], lsl #1\n\t"
                           "str %[t0], " TFLC__DSP_M_A "\n\t"
                           "ldr %[t0], " TFLC__DSP_M_PAIRS "\n\t"
                           "subs %[t0], %[t0], #1\n\t"
                           "str %[t0], " TFLC__DSP_M_PAIRS "\n\t"
                           "bne 3b\n\t" TFLC__DSP_AEXIT
      : [s00] "=&r"(s00), [s01] "=&r"(s01), [s10] "=&r"(s10), [s11] "=&r"(s11),
        [a0] "=&r"(a0), [w] "=&r"(w), [t0] TFLC__DSP_ACTX_RW(t0),
        [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [t5] "=&r"(t5)TFLC__DSP_AGCC(, [a] "+m"(a), [out] "+m"(out),
                                     [pairs] "+m"(pairs), [end] "+m"(end))
      : [st] "r"(st)TFLC__DSP_AGCC(, [w0] "m"(w0), [b0] "m"(b0), [b1] "m"(b1),
                                   [n4] "m"(n4), [odd] "m"(odd))
      : "cc", "memory");
#undef TFLC__DSP_STEP_PAIRS
#undef TFLC__DSP_M_A
#undef TFLC__DSP_M_OUT
#undef TFLC__DSP_M_PAIRS
#undef TFLC__DSP_M_END
#undef TFLC__DSP_M_W0
#undef TFLC__DSP_M_B0
#undef TFLC__DSP_M_B1
#undef TFLC__DSP_M_N4
#undef TFLC__DSP_M_ODD
}

#if defined(__clang__)
/* (their assembly text is longer than C99's minimum string length) */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Woverlength-strings"
#endif
/* The 2 x 2 blocks requantized in assembly (tflc__dsp_pw_sat_asm,
 * tflc__dsp_pw_wide_asm, tflc__dsp_blocks_sat_asm): their steps, their
 * requantizations and the pointwise loop. */
/* 20 instructions per 16 products: the weights of column 1 first, so that
 * column 0's load can step the pointer */
#define TFLC__DSP_STEP_PW                                                      \
  "ldr %[t4], [%[a0], %[st]]\n\t"                                              \
  "ldr %[t0], [%[a0]], #4\n\t"                                                 \
  "ldr %[t2], [%[w], %[st]]\n\t"                                               \
  "sxtb16 %[t1], %[t0], ror #8\n\t"                                            \
  "sxtb16 %[t0], %[t0]\n\t"                                                    \
  "sxtb16 %[t3], %[t2], ror #8\n\t"                                            \
  "sxtb16 %[t2], %[t2]\n\t"                                                    \
  "smlad %[s01], %[t0], %[t2], %[s01]\n\t"                                     \
  "smlad %[s01], %[t1], %[t3], %[s01]\n\t"                                     \
  "sxtb16 %[t5], %[t4], ror #8\n\t"                                            \
  "sxtb16 %[t4], %[t4]\n\t"                                                    \
  "smlad %[s11], %[t4], %[t2], %[s11]\n\t"                                     \
  "smlad %[s11], %[t5], %[t3], %[s11]\n\t"                                     \
  "ldr %[t2], [%[w]], #4\n\t"                                                  \
  "sxtb16 %[t3], %[t2], ror #8\n\t"                                            \
  "sxtb16 %[t2], %[t2]\n\t"                                                    \
  "smlad %[s00], %[t0], %[t2], %[s00]\n\t"                                     \
  "smlad %[s00], %[t1], %[t3], %[s00]\n\t"                                     \
  "smlad %[s10], %[t4], %[t2], %[s10]\n\t"                                     \
  "smlad %[s10], %[t5], %[t3], %[s10]\n\t"
/* t1 = sum s requantized (multiplier t2, nudge t3, right shift t4) and
 * saturated to int8, t0 clobbered: SMMULR of twice the sum (exact: the
 * callers see that |s| < 2^30, tflc__dsp_fits30) is the doubling high
 * product with its rounding add of 2^30, then the rounding right shift */
#define TFLC__DSP_REQ_PW(s)                                                    \
  "add %[t1], %[" #s "], %[" #s "]\n\t"                                        \
  "smmulr %[t1], %[t1], %[t2]\n\t"                                             \
  "sub %[t0], %[t3], %[t1], lsr #31\n\t"                                       \
  "qadd %[t1], %[t1], %[t0]\n\t"                                               \
  "asr %[t1], %[t1], %[t4]\n\t"                                                \
  "ssat %[t1], #8, %[t1]\n\t"
#define TFLC__DSP_REQ_PW00 TFLC__DSP_REQ_PW(s00)
#define TFLC__DSP_REQ_PW01 TFLC__DSP_REQ_PW(s01)
#define TFLC__DSP_REQ_PW10 TFLC__DSP_REQ_PW(s10)
#define TFLC__DSP_REQ_PW11 TFLC__DSP_REQ_PW(s11)
/* the state words of the requantizing blocks */
#define TFLC__DSP_M_PRM TFLC__DSP_AM(prm, 0)
#define TFLC__DSP_M_OUT TFLC__DSP_AM(out, 4)
/* the block's four outputs (w: where they go, t5: prm; s00 takes out_row
 * once its own output is made, a0 is kept) */
#define TFLC__DSP_OUT_PW                                                       \
  "ldr %[t5], " TFLC__DSP_M_PRM "\n\t"                                         \
  "ldr %[t2], [%[t5]]\n\t"                                                     \
  "ldr %[t3], [%[t5], #4]\n\t"                                                 \
  "ldr %[t4], [%[t5], #8]\n\t"                                                 \
  "ldr %[w], " TFLC__DSP_M_OUT "\n\t" TFLC__DSP_REQ_PW00                       \
  "strb %[t1], [%[w]]\n\t"                                                     \
  "ldr %[s00], [%[t5], #24]\n\t" TFLC__DSP_REQ_PW10                            \
  "strb %[t1], [%[w], %[s00]]\n\t"                                             \
  "ldr %[t2], [%[t5], #12]\n\t"                                                \
  "ldr %[t3], [%[t5], #16]\n\t"                                                \
  "ldr %[t4], [%[t5], #20]\n\t" TFLC__DSP_REQ_PW01                             \
  "strb %[t1], [%[w], #1]\n\t" TFLC__DSP_REQ_PW11 "add %[w], %[w], %[s00]\n\t" \
  "strb %[t1], [%[w], #1]\n\t"                                                 \
  "add %[w], %[w], %[s00]\n\t"                                                 \
  "str %[w], " TFLC__DSP_M_OUT "\n\t"
/* the wide requantization (tflc__dsp_pw_wide_asm): t1 = sum s with
 * multiplier t2, nudge t3, pre-shift t4 and right shift m (for the first
 * row, LOADM loads it from prm into m = s once the product is made),
 * saturated to int8; t0 clobbered */
#define TFLC__DSP_REQW_PW(s, m, LOADM)                                         \
  "smull %[t0], %[t1], %[" #s "], %[t2]\n\t" LOADM                             \
  "adds %[t0], %[t0], %[t0]\n\t"                                               \
  "adc %[t1], %[t1], %[t1]\n\t"                                                \
  "add %[t1], %[t1], %[t0], lsr #31\n\t"                                       \
  "sub %[t1], %[t1], %[t1], lsr #31\n\t"                                       \
  "asr %[t1], %[t1], %[t4]\n\t"                                                \
  "qadd %[t1], %[t1], %[t3]\n\t"                                               \
  "asr %[t1], %[t1], %[" #m "]\n\t"                                            \
  "ssat %[t1], #8, %[t1]\n\t"
#define TFLC__DSP_REQW_PW00                                                    \
  TFLC__DSP_REQW_PW(s00, s00, "ldr %[s00], [%[t5], #36]\n\t")
#define TFLC__DSP_REQW_PW01                                                    \
  TFLC__DSP_REQW_PW(s01, s01, "ldr %[s01], [%[t5], #40]\n\t")
#define TFLC__DSP_REQW_PW10 TFLC__DSP_REQW_PW(s10, s00, "")
#define TFLC__DSP_REQW_PW11 TFLC__DSP_REQW_PW(s11, s01, "")
/* the block's four outputs through it (w: where they go, t5: prm; a0
 * kept) */
#define TFLC__DSP_OUTW_PW                                                      \
  "ldr %[t5], " TFLC__DSP_M_PRM "\n\t"                                         \
  "ldr %[t2], [%[t5]]\n\t"                                                     \
  "ldr %[t3], [%[t5], #4]\n\t"                                                 \
  "ldr %[t4], [%[t5], #8]\n\t"                                                 \
  "ldr %[w], " TFLC__DSP_M_OUT "\n\t" TFLC__DSP_REQW_PW00                      \
  "strb %[t1], [%[w]]\n\t" TFLC__DSP_REQW_PW10 "ldr %[t0], [%[t5], #24]\n\t"   \
  "strb %[t1], [%[w], %[t0]]\n\t"                                              \
  "ldr %[t2], [%[t5], #12]\n\t"                                                \
  "ldr %[t3], [%[t5], #16]\n\t"                                                \
  "ldr %[t4], [%[t5], #20]\n\t" TFLC__DSP_REQW_PW01                            \
  "strb %[t1], [%[w], #1]\n\t" TFLC__DSP_REQW_PW11                             \
  "ldr %[t0], [%[t5], #24]\n\t"                                                \
  "add %[w], %[w], %[t0]\n\t"                                                  \
  "strb %[t1], [%[w], #1]\n\t"                                                 \
  "add %[w], %[w], %[t0]\n\t"                                                  \
  "str %[w], " TFLC__DSP_M_OUT "\n\t"
/* The inner loops of tflc__dsp_pw_sat_asm's and tflc__dsp_pw_wide_asm's
 * blocks: the steps unrolled four (wide) or six times (sat), entered at
 * the step that leaves whole passes through a TBB (t0: the steps skipped,
 * 0 .. unroll - 1, the state word rem) */
#define TFLC__DSP_PW_LOOP4                                                     \
  "tbb [pc, %[t0]]\n"                                                          \
  "0:\n\t"                                                                     \
  ".byte (1f - 0b) / 2, (11f - 0b) / 2, (12f - 0b) / 2, (13f - 0b) / 2\n"      \
  "1:\n\t" TFLC__DSP_STEP_PW "11:\n\t" TFLC__DSP_STEP_PW                       \
  "12:\n\t" TFLC__DSP_STEP_PW "13:\n\t" TFLC__DSP_STEP_PW
#define TFLC__DSP_PW_LOOP6                                                     \
  "tbb [pc, %[t0]]\n"                                                          \
  "0:\n\t"                                                                     \
  ".byte (1f - 0b) / 2, (11f - 0b) / 2, (12f - 0b) / 2, (13f - 0b) / 2\n\t"    \
  ".byte (14f - 0b) / 2, (15f - 0b) / 2\n"                                     \
  "1:\n\t" TFLC__DSP_STEP_PW "11:\n\t" TFLC__DSP_STEP_PW                       \
  "12:\n\t" TFLC__DSP_STEP_PW "13:\n\t" TFLC__DSP_STEP_PW                      \
  "14:\n\t" TFLC__DSP_STEP_PW "15:\n\t" TFLC__DSP_STEP_PW
/* tflc__dsp_pw_sat_asm's body: LOOP the inner loop (U steps a pass), OUT
 * the blocks' requantization (t5: prm after it, a0 kept: the next block's
 * first input row) */
#define TFLC__DSP_M_A TFLC__DSP_AM(a, 8)
#define TFLC__DSP_M_A_END TFLC__DSP_AM(a_end, 12)
#define TFLC__DSP_M_W0 TFLC__DSP_AM(w0, 16)
#define TFLC__DSP_M_WEND TFLC__DSP_AM(wend, 20)
#define TFLC__DSP_M_REM TFLC__DSP_AM(rem, 24)
#define TFLC__DSP_M_A_NEXT TFLC__DSP_AM(a_next, 28)
#define TFLC__DSP_PW_BODY(LOOP, U, OUT)                                        \
  TFLC__DSP_AV(uint32_t, s00, "r0");                                           \
  TFLC__DSP_AV(uint32_t, s01, "r1");                                           \
  TFLC__DSP_AV(uint32_t, s10, "r2");                                           \
  TFLC__DSP_AV(uint32_t, s11, "r3");                                           \
  TFLC__DSP_AV(const int8_t *, a0, "r4");                                      \
  TFLC__DSP_AV(const int8_t *, w, "r5");                                       \
  TFLC__DSP_AV(int32_t, st, "r6") = stride;                                    \
  TFLC__DSP_AV(uint32_t, t0, "r8");                                            \
  TFLC__DSP_AV(uint32_t, t1, "r9");                                            \
  TFLC__DSP_AV(uint32_t, t2, "r10");                                           \
  TFLC__DSP_AV(uint32_t, t3, "r11");                                           \
  TFLC__DSP_AV(uint32_t, t4, "r12");                                           \
  TFLC__DSP_AV(uint32_t, t5, "lr");                                            \
  const int8_t *const wend = w0 + n4;                                          \
  const uintptr_t a_end =                                                      \
      (uintptr_t)a + 2u * (uintptr_t)(uint32_t)pairs * (uint32_t)stride;       \
  const int32_t rem = (U - 1) - ((n4 >> 2) - 1) % U; /* (n4 >= 4) */           \
  const int32_t a_next = 2 * stride - n4;                                      \
  TFLC__DSP_ACTX(t0, (uintptr_t)prm, (uintptr_t)out, (uintptr_t)a, a_end,      \
                 (uintptr_t)w0, (uintptr_t)wend, (uintptr_t)(uint32_t)rem,     \
                 (uintptr_t)(uint32_t)a_next);                                 \
  __asm__(                                                                     \
      TFLC__DSP_AENTER(t0) /* the first block's input row and biases */        \
      "ldr %[t5], " TFLC__DSP_M_PRM "\n\t"                                     \
      "ldr %[a0], " TFLC__DSP_M_A "\n\t"                                       \
      "ldrd %[s00], %[s01], [%[t5], #28]\n"                                    \
      "3:\n\t"                                                                 \
      "mov %[s10], %[s00]\n\t"                                                 \
      "mov %[s11], %[s01]\n\t"                                                 \
      "ldr %[w], " TFLC__DSP_M_W0 "\n\t"                                       \
      "ldr %[t0], " TFLC__DSP_M_REM "\n\t" LOOP "ldr %[t0], " TFLC__DSP_M_WEND \
      "\n\t"                                                                   \
      "cmp %[w], %[t0]\n\t"                                                    \
      "bne 1b\n\t" /* the next block's input rows, biases */                   \
      "ldr %[t0], " TFLC__DSP_M_A_NEXT "\n\t"                                  \
      "add %[a0], %[a0], %[t0]\n\t" OUT                                        \
      "ldrd %[s00], %[s01], [%[t5], #28]\n\t"                                  \
      "ldr %[t0], " TFLC__DSP_M_A_END "\n\t"                                   \
      "cmp %[a0], %[t0]\n\t"                                                   \
      "bne 3b\n\t" TFLC__DSP_AEXIT                                             \
      : [s00] "=&r"(s00), [s01] "=&r"(s01), [s10] "=&r"(s10),                  \
        [s11] "=&r"(s11), [a0] "=&r"(a0), [w] "=&r"(w),                        \
        [t0] TFLC__DSP_ACTX_RW(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),            \
        [t3] "=&r"(t3), [t4] "=&r"(t4),                                        \
        [t5] "=&r"(t5)TFLC__DSP_AGCC(, [out] "+m"(out))                        \
      : [st] "r"(st)TFLC__DSP_AGCC(                                            \
          , [a] "m"(a), [a_end] "m"(a_end), [w0] "m"(w0), [wend] "m"(wend),    \
          [rem] "m"(rem), [a_next] "m"(a_next), [prm] "m"(prm))                \
      : "cc", "memory");

/* 2 x 2 blocks down the rows of pointwise block g (one run of n4 values,
 * a positive multiple of 4, no offset, w_col == a_row == stride), each
 * requantized and stored in assembly, columns c and c + 1: block i takes
 * input rows 2 i and 2 i + 1 against weight rows c and c + 1 and writes
 * its four outputs, for i < rows / 2. prm[]: column c's multiplier, nudge
 * and right shift, then column c + 1's, out_row, the biases of the two
 * columns. Both channels are simple (no left shift, right shift n of
 * 1..23), every sum stays within +-(2^30 - 1) (tflc__dsp_fits30: the high
 * product is SMMULR of twice it) and the outputs saturate to int8 (the
 * fast requantization's mode 2); a nudge is 2^(n-1) + offset * 2^n, the
 * output offset added before the shift: exact where the rounding add does
 * not saturate, and where it does, both orders give a value beyond int8 of
 * the same sign (|offset| <= 128, 2^(31-n) >= 256). So the bytes are
 * tflc__dsp_out's (simple, sat8). rows >= 2. The loop state lives in
 * memory, the inner loop (unrolled six times, entered through a TBB at the
 * step that leaves whole passes) and the requantization in thirteen
 * registers. */
static TFLC__NOINLINE void
tflc__dsp_pw_sat_asm(const tflc_gemm_block *g, int32_t c, const uint32_t *prm) {
  const int8_t *const a = g->a;
  const int32_t stride = g->a_row, n4 = g->seg_len, pairs = g->rows / 2;
  const int8_t *const w0 = g->w + (ptrdiff_t)c * stride;
  int8_t *out = g->out + c;
  TFLC__DSP_PW_BODY(TFLC__DSP_PW_LOOP6, 6, TFLC__DSP_OUT_PW);
}

/* tflc__dsp_pw_sat_asm for channels with right shifts n of 1..31 (no left
 * shift; nearly dead channels shift beyond 23): prm[] as its, but each
 * column's three words the multiplier, a nudge and a pre-shift k, and
 * prm[9], prm[10] the columns' final right shifts m. With v the rounded
 * high product, an output is ((v - (v < 0)) >> k + nudge) >> m: k = 0,
 * m = n and nudge = 2^(n-1) + offset * 2^n for n <= 23 (the sum
 * tflc__dsp_pw_sat_asm takes), k = n - 23, m = 23 and nudge = 2^22 +
 * offset * 2^23 beyond (2^(n-1) is a multiple of 2^k, so the floors
 * compose, and no sum leaves int32): the bytes of tflc__dsp_out with
 * sat8. out_row is loaded again for each store to the second row (m
 * takes its register). */
static TFLC__NOINLINE void tflc__dsp_pw_wide_asm(const int8_t *a,
                                                 const int8_t *w0,
                                                 int32_t stride, int32_t n4,
                                                 int32_t pairs, int8_t *out,
                                                 const uint32_t *prm) {
  TFLC__DSP_PW_BODY(TFLC__DSP_PW_LOOP4, 4, TFLC__DSP_OUTW_PW);
}
#undef TFLC__DSP_PW_BODY
#undef TFLC__DSP_PW_LOOP4
#undef TFLC__DSP_PW_LOOP6
#undef TFLC__DSP_M_A
#undef TFLC__DSP_M_A_END
#undef TFLC__DSP_M_W0
#undef TFLC__DSP_M_WEND
#undef TFLC__DSP_M_REM
#undef TFLC__DSP_M_A_NEXT
#undef TFLC__DSP_STEP_PW
#undef TFLC__DSP_REQW_PW
#undef TFLC__DSP_OUTW_PW
#undef TFLC__DSP_REQW_PW00
#undef TFLC__DSP_REQW_PW01
#undef TFLC__DSP_REQW_PW10
#undef TFLC__DSP_REQW_PW11

/* tflc__dsp_pw_sat_asm's blocks over the runs of a general block: input
 * rows a_row apart, weight rows w_col apart, `segments` runs of n4 values
 * (a positive multiple of 4) each, a_seg and w_seg apart. prm[] as
 * tflc__dsp_pw_sat_asm's, then a_row, w_col, a_seg - n4, w_seg - n4 and
 * segments (> 0). The second input row's pointer lives in memory: 22
 * instructions per 16 products. */
#define TFLC__DSP_M_A TFLC__DSP_AM(a, 8)
#define TFLC__DSP_M_PAIRS TFLC__DSP_AM(pairs, 12)
#define TFLC__DSP_M_W0 TFLC__DSP_AM(w0, 16)
#define TFLC__DSP_M_END TFLC__DSP_AM(end, 20)
#define TFLC__DSP_M_REM TFLC__DSP_AM(rem, 24)
#define TFLC__DSP_M_A1 TFLC__DSP_AM(a1, 28)
#define TFLC__DSP_M_SEGS TFLC__DSP_AM(segs, 32)
#define TFLC__DSP_M_N4 TFLC__DSP_AM(n4, 36)
static TFLC__NOINLINE void
tflc__dsp_blocks_sat_asm(const int8_t *a, const int8_t *w0, int32_t n4,
                         int32_t pairs, int8_t *out, const uint32_t *prm) {
  TFLC__DSP_AV(uint32_t, s00, "r0");
  TFLC__DSP_AV(uint32_t, s01, "r1");
  TFLC__DSP_AV(uint32_t, s10, "r2");
  TFLC__DSP_AV(uint32_t, s11, "r3");
  TFLC__DSP_AV(const int8_t *, a0, "r4");
  TFLC__DSP_AV(const int8_t *, w, "r5");
  TFLC__DSP_AV(const int8_t *, w1, "r6");
  TFLC__DSP_AV(uint32_t, t0, "r8");
  TFLC__DSP_AV(uint32_t, t1, "r9");
  TFLC__DSP_AV(uint32_t, t2, "r10");
  TFLC__DSP_AV(uint32_t, t3, "r11");
  TFLC__DSP_AV(uint32_t, t4, "r12");
  TFLC__DSP_AV(uint32_t, t5, "lr");
  const int8_t *a1 = a, *end = a;
  const int32_t rem = (n4 >> 2) & 3;
  int32_t segs = 0;
  TFLC__DSP_ACTX(t0, (uintptr_t)prm, (uintptr_t)out, (uintptr_t)a,
                 (uintptr_t)(uint32_t)pairs, (uintptr_t)w0, (uintptr_t)end,
                 (uintptr_t)(uint32_t)rem, (uintptr_t)a1,
                 (uintptr_t)(uint32_t)segs, (uintptr_t)(uint32_t)n4);
#define TFLC__DSP_STEP_BLK                                                     \
  "ldr %[t0], [%[a0]], #4\n\t"                                                 \
  "ldr %[t2], [%[w1]], #4\n\t"                                                 \
  "sxtb16 %[t1], %[t0], ror #8\n\t"                                            \
  "sxtb16 %[t0], %[t0]\n\t"                                                    \
  "sxtb16 %[t3], %[t2], ror #8\n\t"                                            \
  "sxtb16 %[t2], %[t2]\n\t"                                                    \
  "smlad %[s01], %[t0], %[t2], %[s01]\n\t"                                     \
  "smlad %[s01], %[t1], %[t3], %[s01]\n\t"                                     \
  "ldr %[t4], " TFLC__DSP_M_A1 "\n\t"                                          \
  "ldr %[t5], [%[t4]], #4\n\t"                                                 \
  "str %[t4], " TFLC__DSP_M_A1 "\n\t"                                          \
  "sxtb16 %[t4], %[t5]\n\t"                                                    \
  "sxtb16 %[t5], %[t5], ror #8\n\t"                                            \
  "smlad %[s11], %[t4], %[t2], %[s11]\n\t"                                     \
  "smlad %[s11], %[t5], %[t3], %[s11]\n\t"                                     \
  "ldr %[t2], [%[w]], #4\n\t"                                                  \
  "sxtb16 %[t3], %[t2], ror #8\n\t"                                            \
  "sxtb16 %[t2], %[t2]\n\t"                                                    \
  "smlad %[s00], %[t0], %[t2], %[s00]\n\t"                                     \
  "smlad %[s00], %[t1], %[t3], %[s00]\n\t"                                     \
  "smlad %[s10], %[t4], %[t2], %[s10]\n\t"                                     \
  "smlad %[s10], %[t5], %[t3], %[s10]\n\t"
  __asm__(TFLC__DSP_AENTER(t0) "3:\n\t"
                               "ldr %[t5], " TFLC__DSP_M_PRM "\n\t"
                               "ldr %[a0], " TFLC__DSP_M_A "\n\t"
                               "ldr %[t0], [%[t5], #36]\n\t"
                               "add %[t0], %[a0], %[t0]\n\t"
                               "str %[t0], " TFLC__DSP_M_A1 "\n\t"
                               "ldr %[w], " TFLC__DSP_M_W0 "\n\t"
                               "ldr %[t0], [%[t5], #40]\n\t"
                               "add %[w1], %[w], %[t0]\n\t"
                               "ldr %[s00], [%[t5], "
                               "#28]\n\t"
                               "ldr %[s01], [%[t5], "
                               "#32]\n\t"
                               "mov %[s10], %[s00]\n\t"
                               "mov %[s11], %[s01]\n\t"
                               "ldr %[t0], [%[t5], #52]\n\t"
                               "str %[t0], " TFLC__DSP_M_SEGS "\n"
                               /* each run */
                               "4:\n\t"
                               "ldr %[t0], " TFLC__DSP_M_N4 "\n\t"
                               "add %[t0], %[a0], %[t0]\n\t"
                               "str %[t0], " TFLC__DSP_M_END "\n\t"
                               "ldr %[t0], " TFLC__DSP_M_REM "\n\t"
                               "cmp %[t0], #0\n\t"
                               "beq 1f\n\t"
                               "cmp %[t0], #2\n\t"
                               "beq 6f\n\t"
                               "bhi 5f\n\t"
                               "b 7f\n"
                               "1:\n\t" TFLC__DSP_STEP_BLK
                               "5:\n\t" TFLC__DSP_STEP_BLK
                               "6:\n\t" TFLC__DSP_STEP_BLK
                               "7:\n\t" TFLC__DSP_STEP_BLK
                               "ldr %[t0], " TFLC__DSP_M_END "\n\t"
                               "cmp %[a0], %[t0]\n\t"
                               "bne 1b\n\t"
                               "ldr %[t5], " TFLC__DSP_M_PRM "\n\t"
                               "ldr %[t0], [%[t5], #44]\n\t"
                               "add %[a0], %[a0], %[t0]\n\t"
                               "ldr %[t1], " TFLC__DSP_M_A1 "\n\t"
                               "add %[t1], %[t1], %[t0]\n\t"
                               "str %[t1], " TFLC__DSP_M_A1 "\n\t"
                               "ldr %[t0], [%[t5], #48]\n\t"
                               "add %[w], %[w], %[t0]\n\t"
                               "add %[w1], %[w1], %[t0]\n\t"
                               "ldr %[t0], " TFLC__DSP_M_SEGS "\n\t"
                               "subs %[t0], %[t0], #1\n\t"
                               "str %[t0], " TFLC__DSP_M_SEGS "\n\t"
                               "bne 4b\n\t" TFLC__DSP_OUT_PW
                               /* the next block's input rows (t5: prm) */
                               "ldr %[t0], [%[t5], #36]\n\t"
                               "ldr %[t1], " TFLC__DSP_M_A "\n\t"
                               "add %[t1], %[t1], %[t0], lsl #1\n\t"
                               "str %[t1], " TFLC__DSP_M_A "\n\t"
                               "ldr %[t0], " TFLC__DSP_M_PAIRS "\n\t"
                               "subs %[t0], %[t0], #1\n\t"
                               "str %[t0], " TFLC__DSP_M_PAIRS "\n\t"
                               "bne 3b\n\t" TFLC__DSP_AEXIT
          : [s00] "=&r"(s00), [s01] "=&r"(s01), [s10] "=&r"(s10),
            [s11] "=&r"(s11), [a0] "=&r"(a0), [w] "=&r"(w), [w1] "=&r"(w1),
            [t0] TFLC__DSP_ACTX_RW(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
            [t3] "=&r"(t3), [t4] "=&r"(t4),
            [t5] "=&r"(t5)TFLC__DSP_AGCC(
                , [a] "+m"(a), [out] "+m"(out), [pairs] "+m"(pairs),
                [a1] "+m"(a1), [end] "+m"(end), [segs] "+m"(segs))
          : TFLC__DSP_AGCC([w0] "m"(w0), [n4] "m"(n4), [rem] "m"(rem),
                           [prm] "m"(prm))
          : "cc", "memory");
#undef TFLC__DSP_STEP_BLK
#undef TFLC__DSP_M_A
#undef TFLC__DSP_M_PAIRS
#undef TFLC__DSP_M_W0
#undef TFLC__DSP_M_END
#undef TFLC__DSP_M_REM
#undef TFLC__DSP_M_A1
#undef TFLC__DSP_M_SEGS
#undef TFLC__DSP_M_N4
#undef TFLC__DSP_M_PRM
#undef TFLC__DSP_M_OUT
#undef TFLC__DSP_REQ_PW
#undef TFLC__DSP_OUT_PW
#undef TFLC__DSP_REQ_PW00
#undef TFLC__DSP_REQ_PW01
#undef TFLC__DSP_REQ_PW10
#undef TFLC__DSP_REQ_PW11
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#endif

/* The pointwise path with the weights of a pair of columns widened once
 * (tflc__dsp_gemm_pre): 2 x 2 blocks down the rows against 16-bit weights
 * in a buffer, four words per four values (column 0's even and odd lanes,
 * then column 1's), each weight doubled. Block i takes input rows
 * a + 2 i stride and the one after over n4 values and writes its four
 * outputs at out + 2 i out_row (columns 0 and 1, that row and the next).
 * prm[]: out_row, column 0's multiplier, nudge (2^(n-1) + offset * 2^n)
 * and right shift n, column 1's, then twice the biases of columns 0 and 1.
 * The sums are twice tflc__dsp_pw_sat_asm's (doubled weights, doubled
 * biases), so the requantization's high product is SMMULR of the sum
 * itself: the bytes of tflc__dsp_pw_sat_asm, under its conditions (both
 * channels simple, tflc__dsp_fits30, outputs saturated to int8). */
#if defined(TFLC__DSP_ASM)
/* In assembly: the weights of a step loaded by one LDM, 15 instructions
 * per 16 products, unrolled four times (n4 a positive multiple of 16;
 * tflc__dsp_pw_pre8_asm: n4 = 8, its two steps without the loop);
 * the three words of a column's requantization by one LDM, five
 * instructions an output. The registers are pinned (LDM's register lists
 * ascend); the loop state lives in memory. pairs > 0, out_row > 0. */
#define TFLC__DSP_M_PRM TFLC__DSP_AM(prm, 0)
#define TFLC__DSP_M_OUT TFLC__DSP_AM(out, 4)
#define TFLC__DSP_M_A TFLC__DSP_AM(a, 8)
#define TFLC__DSP_M_W0 TFLC__DSP_AM(w0, 12)
#define TFLC__DSP_M_WEND TFLC__DSP_AM(wend, 16)
#define TFLC__DSP_M_OEND TFLC__DSP_AM(oend, 20)
#define TFLC__DSP_M_A_NEXT TFLC__DSP_AM(a_next, 24)
#define TFLC__DSP_PIN(type, name, reg) register type name __asm__(reg)
#define TFLC__DSP_STEP_PRE                                                     \
  "ldm %[w]!, {%[t2], %[t3], %[t4], %[t5]}\n\t"                                \
  "ldr %[t1], [%[a0], %[st]]\n\t"                                              \
  "sxtb16 %[t0], %[t1]\n\t"                                                    \
  "sxtb16 %[t1], %[t1], ror #8\n\t"                                            \
  "smlad %[s10], %[t0], %[t2], %[s10]\n\t"                                     \
  "smlad %[s10], %[t1], %[t3], %[s10]\n\t"                                     \
  "smlad %[s11], %[t0], %[t4], %[s11]\n\t"                                     \
  "smlad %[s11], %[t1], %[t5], %[s11]\n\t"                                     \
  "ldr %[t1], [%[a0]], #4\n\t"                                                 \
  "sxtb16 %[t0], %[t1]\n\t"                                                    \
  "sxtb16 %[t1], %[t1], ror #8\n\t"                                            \
  "smlad %[s00], %[t0], %[t2], %[s00]\n\t"                                     \
  "smlad %[s00], %[t1], %[t3], %[s00]\n\t"                                     \
  "smlad %[s01], %[t0], %[t4], %[s01]\n\t"                                     \
  "smlad %[s01], %[t1], %[t5], %[s01]\n\t"
/* t1 = twice-sum s requantized (multiplier t2, nudge t3, shift t4) and
 * saturated to int8, t0 clobbered */
#define TFLC__DSP_REQ_PRE(s)                                                   \
  "smmulr %[t1], %[" #s "], %[t2]\n\t"                                         \
  "sub %[t0], %[t3], %[t1], lsr #31\n\t"                                       \
  "qadd %[t1], %[t1], %[t0]\n\t"                                               \
  "asr %[t1], %[t1], %[t4]\n\t"                                                \
  "ssat %[t1], #8, %[t1]\n\t"
/* the first block's biases (t5: prm) */
#define TFLC__DSP_HEAD_PRE                                                     \
  "ldr %[t5], " TFLC__DSP_M_PRM "\n\t"                                         \
  "ldrd %[s00], %[s01], [%[t5], #28]\n\t"                                      \
  "mov %[s10], %[s00]\n\t"                                                     \
  "mov %[s11], %[s01]\n"
/* a block's rows and weights, then its run (unrolled four times) */
#define TFLC__DSP_RUN_PRE                                                      \
  "3:\n\t"                                                                     \
  "ldr %[a0], " TFLC__DSP_M_A "\n\t"                                           \
  "ldr %[w], " TFLC__DSP_M_W0 "\n"                                             \
  "1:\n\t" TFLC__DSP_STEP_PRE TFLC__DSP_STEP_PRE TFLC__DSP_STEP_PRE            \
      TFLC__DSP_STEP_PRE "ldr %[t0], " TFLC__DSP_M_WEND "\n\t"                 \
  "cmp %[w], %[t0]\n\t"                                                        \
  "bne 1b\n\t"                                                                 \
  "ldr %[t0], " TFLC__DSP_M_A_NEXT "\n\t"                                      \
  "add %[a0], %[a0], %[t0]\n\t"                                                \
  "str %[a0], " TFLC__DSP_M_A "\n\t"
/* a block's rows and weights, then its two steps (eight values) */
#define TFLC__DSP_RUN_PRE8                                                     \
  "3:\n\t"                                                                     \
  "ldr %[a0], " TFLC__DSP_M_A "\n\t"                                           \
  "ldr %[w], " TFLC__DSP_M_W0 "\n\t" TFLC__DSP_STEP_PRE TFLC__DSP_STEP_PRE     \
  "ldr %[t0], " TFLC__DSP_M_A_NEXT "\n\t"                                      \
  "add %[a0], %[a0], %[t0]\n\t"                                                \
  "str %[a0], " TFLC__DSP_M_A "\n\t"
#define TFLC__DSP_REQ_PRE00 TFLC__DSP_REQ_PRE(s00)
#define TFLC__DSP_REQ_PRE01 TFLC__DSP_REQ_PRE(s01)
#define TFLC__DSP_REQ_PRE10 TFLC__DSP_REQ_PRE(s10)
#define TFLC__DSP_REQ_PRE11 TFLC__DSP_REQ_PRE(s11)
/* its four outputs (a0: out_row, w: where they go), the next block's
 * biases, and on to it while outputs are left */
#define TFLC__DSP_OUT_PRE                                                      \
  "ldr %[t5], " TFLC__DSP_M_PRM "\n\t"                                         \
  "ldm %[t5]!, {%[a0], %[t2], %[t3], %[t4]}\n\t"                               \
  "ldr %[w], " TFLC__DSP_M_OUT "\n\t" TFLC__DSP_REQ_PRE00                      \
  "strb %[t1], [%[w]]\n\t" TFLC__DSP_REQ_PRE10 "strb %[t1], [%[w], %[a0]]\n\t" \
  "ldm %[t5]!, {%[t2], %[t3], %[t4]}\n\t" TFLC__DSP_REQ_PRE01                  \
  "strb %[t1], [%[w], #1]\n\t" TFLC__DSP_REQ_PRE11 "add %[w], %[w], %[a0]\n\t" \
  "strb %[t1], [%[w], #1]\n\t"                                                 \
  "add %[w], %[w], %[a0]\n\t"                                                  \
  "str %[w], " TFLC__DSP_M_OUT "\n\t"                                          \
  "ldrd %[s00], %[s01], [%[t5]]\n\t"                                           \
  "mov %[s10], %[s00]\n\t"                                                     \
  "mov %[s11], %[s01]\n\t"                                                     \
  "ldr %[t0], " TFLC__DSP_M_OEND "\n\t"                                        \
  "cmp %[w], %[t0]\n\t"                                                        \
  "bne 3b\n\t"
/* clang-format off */
#define TFLC__DSP_PW_PRE(name, RUN)                                            \
  static TFLC__NOINLINE void name(const int8_t *a, const uint32_t *w0,        \
                                  int32_t stride, int32_t n4, int32_t pairs,  \
                                  int8_t *out, const uint32_t *prm) {         \
    TFLC__DSP_PIN(uint32_t, s00, "r0");                                        \
    TFLC__DSP_PIN(uint32_t, s01, "r1");                                        \
    TFLC__DSP_PIN(uint32_t, s10, "r2");                                        \
    TFLC__DSP_PIN(uint32_t, s11, "r3");                                        \
    TFLC__DSP_PIN(const int8_t *, a0, "r4");                                   \
    TFLC__DSP_PIN(const uint32_t *, w, "r5");                                  \
    TFLC__DSP_PIN(int32_t, st, "r6") = stride;                                 \
    TFLC__DSP_PIN(uint32_t, t0, "r8");                                         \
    TFLC__DSP_PIN(uint32_t, t1, "r9");                                         \
    TFLC__DSP_PIN(uint32_t, t2, "r10");                                        \
    TFLC__DSP_PIN(uint32_t, t3, "r11");                                        \
    TFLC__DSP_PIN(uint32_t, t4, "r12");                                        \
    TFLC__DSP_PIN(uint32_t, t5, "lr");                                         \
    const uint32_t *const wend = w0 + n4;                                      \
    const int8_t *const oend = out + (ptrdiff_t)2 * pairs * (int32_t)prm[0];   \
    const int32_t a_next = 2 * stride - n4;                                    \
    TFLC__DSP_ACTX(t0, (uintptr_t)prm, (uintptr_t)out, (uintptr_t)a,           \
                   (uintptr_t)w0, (uintptr_t)wend, (uintptr_t)oend,            \
                   (uintptr_t)(uint32_t)a_next);                               \
    __asm__(                                                                   \
        TFLC__DSP_AENTER(t0)                                                   \
            TFLC__DSP_HEAD_PRE RUN TFLC__DSP_OUT_PRE TFLC__DSP_AEXIT           \
        : [s00] "=&r"(s00), [s01] "=&r"(s01), [s10] "=&r"(s10),              \
          [s11] "=&r"(s11),                                                    \
          [a0] "=&r"(a0), [w] "=&r"(w), [t0] TFLC__DSP_ACTX_RW(t0),            \
          [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),      \
          [t5] "=&r"(t5)TFLC__DSP_AGCC(, [a] "+m"(a), [out] "+m"(out))         \
        : [st] "r"(st)TFLC__DSP_AGCC(                                          \
            , [w0] "m"(w0), [wend] "m"(wend), [oend] "m"(oend),                \
            [a_next] "m"(a_next), [prm] "m"(prm))                              \
        : "cc", "memory");                                                     \
  }
/* clang-format on */
TFLC__DSP_PW_PRE(tflc__dsp_pw_pre_asm, TFLC__DSP_RUN_PRE)
TFLC__DSP_PW_PRE(tflc__dsp_pw_pre8_asm, TFLC__DSP_RUN_PRE8)
#undef TFLC__DSP_PW_PRE
#undef TFLC__DSP_RUN_PRE8
#undef TFLC__DSP_STEP_PRE
#undef TFLC__DSP_REQ_PRE
#undef TFLC__DSP_HEAD_PRE
#undef TFLC__DSP_RUN_PRE
#undef TFLC__DSP_OUT_PRE
#undef TFLC__DSP_REQ_PRE00
#undef TFLC__DSP_REQ_PRE01
#undef TFLC__DSP_REQ_PRE10
#undef TFLC__DSP_REQ_PRE11
#undef TFLC__DSP_PIN
#undef TFLC__DSP_M_PRM
#undef TFLC__DSP_M_OUT
#undef TFLC__DSP_M_A
#undef TFLC__DSP_M_W0
#undef TFLC__DSP_M_WEND
#undef TFLC__DSP_M_OEND
#undef TFLC__DSP_M_A_NEXT
#else
TFLC__INLINE int8_t tflc__dsp_pre_out(uint32_t s2, const uint32_t *p) {
  const int32_t v = (int32_t)tflc__asr64(
      (int64_t)(int32_t)s2 * (int32_t)p[0] + ((int64_t)1 << 31), 32);
  return (int8_t)tflc__ssat8(tflc__asr32(
      tflc__qadd(v, (int32_t)(p[1] - ((uint32_t)v >> 31))), (int)p[2]));
}

/* s[0..1] += one input row of n4 values against the widened columns */
TFLC__INLINE void tflc__dsp_pre_row(const int8_t *a0, const uint32_t *w,
                                    int32_t n4, uint32_t *s) {
  uint32_t s0 = s[0], s1 = s[1];
  int32_t k;
  for (k = 0; k < n4; k += 4, w += 4) {
    const uint32_t x = tflc__load4(a0 + k);
    const uint32_t xl = tflc__sxtb16(x), xh = tflc__sxtb16_ror8(x);
    s0 = tflc__smlad(xl, w[0], s0);
    s0 = tflc__smlad(xh, w[1], s0);
    s1 = tflc__smlad(xl, w[2], s1);
    s1 = tflc__smlad(xh, w[3], s1);
  }
  s[0] = s0;
  s[1] = s1;
}

/* tflc__dsp_pw_pre_asm (and tflc__dsp_pw_pre8_asm) in C (n4 a positive
 * multiple of 4) */
#define tflc__dsp_pw_pre8_asm tflc__dsp_pw_pre_asm
static void tflc__dsp_pw_pre_asm(const int8_t *a, const uint32_t *w0,
                                 int32_t stride, int32_t n4, int32_t pairs,
                                 int8_t *out, const uint32_t *prm) {
  const int32_t out_row = (int32_t)prm[0];
  int32_t i;
  for (i = 0; i < pairs; i++) {
    const int8_t *a0 = a + (ptrdiff_t)2 * i * stride;
    int8_t *o = out + (ptrdiff_t)2 * i * out_row;
    uint32_t s0[2], s1[2];
    s0[0] = s1[0] = prm[7];
    s0[1] = s1[1] = prm[8];
    tflc__dsp_pre_row(a0, w0, n4, s0);
    tflc__dsp_pre_row(a0 + stride, w0, n4, s1);
    o[0] = tflc__dsp_pre_out(s0[0], prm + 1);
    o[out_row] = tflc__dsp_pre_out(s1[0], prm + 1);
    o[1] = tflc__dsp_pre_out(s0[1], prm + 4);
    o[out_row + 1] = tflc__dsp_pre_out(s1[1], prm + 4);
  }
}
#endif

/* The largest run of tflc__dsp_gemm_pre (its widened weights live on the
 * stack: 4 bytes per value) */
#define TFLC__DSP_PRE_MAX 64
/* The pointwise path for short runs: one segment of n4 values (a multiple
 * of 16 up to TFLC__DSP_PRE_MAX, or 8), no offset, the second input row and
 * weight row the same distance after the first, an even number of
 * columns, the outputs saturated to int8, both channels of a pair simple
 * and every sum within tflc__dsp_fits30. Each pair of columns has its
 * weights widened
 * once, then tflc__dsp_pw_pre_asm's blocks down the rows (the last of
 * an odd number of rows left to tflc__dsp_gemm_last_row). Returns the
 * columns done: all, 0 when the block is not for it, or those of the
 * pairs before the first pair that is not. */
static TFLC__NOINLINE int32_t tflc__dsp_gemm_pre(const tflc_requant_params *rq,
                                                 const tflc_gemm_block *g) {
  uint32_t wide[TFLC__DSP_PRE_MAX], prm[10];
  const int32_t cols = g->cols, n4 = g->seg_len, stride = g->a_row;
  const uint32_t lim = tflc__dsp_pre_lim(n4);
  int32_t c, k;
  if (g->segments != 1 || g->a_offset != 0 || n4 <= 0 ||
      ((n4 & 15) != 0 && n4 != 8) || n4 > TFLC__DSP_PRE_MAX || g->rows < 2 ||
      (cols & 1) != 0 || g->w_col != stride || g->out_row <= 0 ||
      tflc__dsp_mode(rq) != 2)
    return 0;
  prm[0] = (uint32_t)g->out_row;
  for (c = 0; c < cols; c++) {
    /* column c's requantization and doubled bias, and its weights widened
     * and doubled (words 4 k + 2 (c & 1) and the next of four values k) */
    const int8_t *w = g->w + (ptrdiff_t)c * stride;
    const int32_t j = c & 1;
    if (j == 0 && !tflc__dsp_pre_cols(rq, c, lim, 0, prm + 1))
      return c; /* (the pairs before it done; the biases set below) */
    prm[7 + j] = 2u * (rq->bias != NULL ? (uint32_t)rq->bias[c] : 0u);
    for (k = 0; k < n4; k += 4) {
      const uint32_t x = tflc__load4(w + k);
      const uint32_t lo = tflc__sxtb16(x), hi = tflc__sxtb16_ror8(x);
      wide[k + 2 * j] = tflc__sadd16(lo, lo);
      wide[k + 2 * j + 1] = tflc__sadd16(hi, hi);
    }
    if (j == 1 && n4 == 8)
      tflc__dsp_pw_pre8_asm(g->a, wide, stride, n4, g->rows / 2, g->out + c - 1,
                            prm);
    else if (j == 1)
      tflc__dsp_pw_pre_asm(g->a, wide, stride, n4, g->rows / 2, g->out + c - 1,
                           prm);
  }
  return cols;
}

#if defined(TFLC__DSP_ASM)
/* `groups` 1 x 4 blocks side by side: group i takes weight rows
 * w + (4 i + j) w_col, j < 4, against the one input row a0 (n4 values, a
 * positive multiple of 4, the offset pair off2 added); sums[4 i + j]
 * holds the starting value (the bias) and gets the sum. The loop state
 * between groups lives in memory. */
#define TFLC__DSP_M_W TFLC__DSP_AM(w, 0)
#define TFLC__DSP_M_SUMS TFLC__DSP_AM(sums, 4)
#define TFLC__DSP_M_GROUPS TFLC__DSP_AM(groups, 8)
#define TFLC__DSP_M_A0 TFLC__DSP_AM(a0, 12)
#define TFLC__DSP_M_END TFLC__DSP_AM(end, 16)
#define TFLC__DSP_M_ODD TFLC__DSP_AM(odd, 20)
static TFLC__NOINLINE void
tflc__dsp_row_groups_asm(const int8_t *a0, const int8_t *w, int32_t w_col,
                         int32_t n4, uint32_t off2, int32_t groups,
                         uint32_t *sums) {
  TFLC__DSP_AV(uint32_t, s0, "r0");
  TFLC__DSP_AV(uint32_t, s1, "r1");
  TFLC__DSP_AV(uint32_t, s2, "r2");
  TFLC__DSP_AV(uint32_t, s3, "r3");
  TFLC__DSP_AV(const int8_t *, a, "r4");
  TFLC__DSP_AV(const int8_t *, w0, "r5");
  TFLC__DSP_AV(const int8_t *, w2, "r6");
  TFLC__DSP_AV(int32_t, wc, "r8") = w_col;
  TFLC__DSP_AV(uint32_t, off, "r9") = off2;
  TFLC__DSP_AV(uint32_t, xl, "r10");
  TFLC__DSP_AV(uint32_t, xh, "r11");
  TFLC__DSP_AV(uint32_t, wv, "r12");
  TFLC__DSP_AV(uint32_t, wl, "lr");
  const int8_t *const end = a0 + n4;
  const int32_t odd = n4 & 4;
  TFLC__DSP_ACTX(wv, (uintptr_t)w, (uintptr_t)sums, (uintptr_t)(uint32_t)groups,
                 (uintptr_t)a0, (uintptr_t)end, (uintptr_t)(uint32_t)odd);
#define TFLC__DSP_STEP_POINTWISE                                               \
  "ldr %[xh], [%[a]], #4\n\t"                                                  \
  "sxtab16 %[xl], %[off], %[xh]\n\t"                                           \
  "sxtab16 %[xh], %[off], %[xh], ror #8\n\t"                                   \
  "ldr %[wv], [%[w0], %[wc]]\n\t"                                              \
  "sxtb16 %[wl], %[wv]\n\t"                                                    \
  "sxtb16 %[wv], %[wv], ror #8\n\t"                                            \
  "smlad %[s1], %[xl], %[wl], %[s1]\n\t"                                       \
  "smlad %[s1], %[xh], %[wv], %[s1]\n\t"                                       \
  "ldr %[wv], [%[w0]], #4\n\t"                                                 \
  "sxtb16 %[wl], %[wv]\n\t"                                                    \
  "sxtb16 %[wv], %[wv], ror #8\n\t"                                            \
  "smlad %[s0], %[xl], %[wl], %[s0]\n\t"                                       \
  "smlad %[s0], %[xh], %[wv], %[s0]\n\t"                                       \
  "ldr %[wv], [%[w2], %[wc]]\n\t"                                              \
  "sxtb16 %[wl], %[wv]\n\t"                                                    \
  "sxtb16 %[wv], %[wv], ror #8\n\t"                                            \
  "smlad %[s3], %[xl], %[wl], %[s3]\n\t"                                       \
  "smlad %[s3], %[xh], %[wv], %[s3]\n\t"                                       \
  "ldr %[wv], [%[w2]], #4\n\t"                                                 \
  "sxtb16 %[wl], %[wv]\n\t"                                                    \
  "sxtb16 %[wv], %[wv], ror #8\n\t"                                            \
  "smlad %[s2], %[xl], %[wl], %[s2]\n\t"                                       \
  "smlad %[s2], %[xh], %[wv], %[s2]\n\t"
  __asm__(TFLC__DSP_AENTER(wv) "3:\n\t"
                               "ldr %[a], " TFLC__DSP_M_A0 "\n\t"
                               "ldr %[w0], " TFLC__DSP_M_W "\n\t"
                               "add %[w2], %[w0], %[wc], lsl #1\n\t"
                               "add %[wv], %[w0], %[wc], lsl #2\n\t"
                               "str %[wv], " TFLC__DSP_M_W "\n\t"
                               "ldr %[wv], " TFLC__DSP_M_SUMS "\n\t"
                               "ldr %[s0], [%[wv]]\n\t"
                               "ldr %[s1], [%[wv], #4]\n\t"
                               "ldr %[s2], [%[wv], #8]\n\t"
                               "ldr %[s3], [%[wv], #12]\n\t"
                               "ldr %[wv], " TFLC__DSP_M_ODD "\n\t"
                               "cmp %[wv], #0\n\t"
                               "bne 2f\n"
                               "1:"
                               "\n"
                               "\t" TFLC__DSP_STEP_POINTWISE "2:"
                               "\n"
                               "\t" TFLC__DSP_STEP_POINTWISE
                               "ldr %[wv], " TFLC__DSP_M_END "\n\t"
                               "cmp %[a], %[wv]\n\t"
                               "bne 1b\n\t"
                               "ldr "
                               "%[wv],"
                               " " TFLC__DSP_M_SUMS "\n\t"
                               "str %[s0], "
                               "[%[wv]], "
                               "#4\n\t"
                               "str %[s1], "
                               "[%[wv]], "
                               "#4\n\t"
                               "str %[s2], "
                               "[%[wv]], "
                               "#4\n\t"
                               "str %[s3], "
                               "[%[wv]], "
                               "#4\n\t"
                               "str "
                               "%[wv],"
                               " " TFLC__DSP_M_SUMS "\n\t"
                               "ldr "
                               "%[wv]"
                               ","
                               " " TFLC__DSP_M_GROUPS "\n\t"
                               "subs %[wv], %[wv], #1\n\t"
                               "str %[wv], " TFLC__DSP_M_GROUPS "\n\t"
                               "bne 3b\n\t" TFLC__DSP_AEXIT
          : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
            [a] "=&r"(a), [w0] "=&r"(w0), [w2] "=&r"(w2), [xl] "=&r"(xl),
            [xh] "=&r"(xh), [wv] TFLC__DSP_ACTX_RW(wv),
            [wl] "=&r"(wl)TFLC__DSP_AGCC(
                , [w] "+m"(w), [sums] "+m"(sums), [groups] "+m"(groups))
          : [wc] "r"(wc), [off] "r"(off)TFLC__DSP_AGCC(
                              , [a0] "m"(a0), [end] "m"(end), [odd] "m"(odd))
          : "cc", "memory");
#undef TFLC__DSP_STEP_POINTWISE
#undef TFLC__DSP_M_W
#undef TFLC__DSP_M_SUMS
#undef TFLC__DSP_M_GROUPS
#undef TFLC__DSP_M_A0
#undef TFLC__DSP_M_END
#undef TFLC__DSP_M_ODD
}

#endif

#if defined(TFLC__DSP_ASM)
/* tflc__dsp_gemm_row's case of one run of a multiple of four values: up
 * to four groups of four columns per assembly call, then their
 * requantization (its own frame: the sums stay off the other path's). */
static TFLC__NOINLINE int32_t
tflc__dsp_gemm_row_runs(const tflc_requant_params *rq, const tflc_gemm_block *g,
                        int mode, int32_t n4, uint32_t off2) {
  const int32_t out_off = rq->output_offset, lo = rq->act_min, hi = rq->act_max;
  int32_t c, j;
  uint32_t sums[16];
  const int32_t cols4 = g->cols & ~3;
  for (c = 0; c < cols4; c += 16) {
    const int32_t nc = cols4 - c < 16 ? cols4 - c : 16;
    for (j = 0; j < nc; j++)
      sums[j] = rq->bias != NULL ? (uint32_t)rq->bias[c + j] : 0u;
    tflc__dsp_row_groups_asm(g->a, g->w + (ptrdiff_t)c * g->w_col, g->w_col, n4,
                             off2, nc / 4, sums);
    for (j = 0; j < nc; j++) {
      tflc__dsp_requant f;
      const int32_t q = rq->per_channel ? c + j : 0;
      const int32_t qm = rq->multiplier[q], sh = rq->shift[q];
      if (qm != INT32_MIN && sh <= -1 && sh >= -23) {
        /* simple (no left shift, right shift 1..23): computed here */
        g->out[c + j] =
            tflc__dsp_out_s8(tflc__dsp_requant_simple(sums[j], qm, -sh),
                             out_off, lo, hi, mode == 2);
        continue;
      }
      if (!tflc__dsp_requant_init(&f, qm, sh))
        return c; /* redone by the caller's general path */
      if (f.simple && mode == 2)
        g->out[c + j] = tflc__dsp_out_s8(
            tflc__dsp_requant_apply(&f, sums[j], 1), out_off, lo, hi, 1);
      else
        g->out[c + j] =
            tflc__dsp_out(f, sums[j], out_off, lo, hi, mode == 2, f.simple);
    }
  }
  return cols4;
}
#endif

/* tflc_fully_connected_s8_dsp's requantization of n sums of the output
 * channels c.. (mode: tflc__dsp_mode's): per tensor with a multiplier > 0
 * and a right shift 1..23 as one 64-bit sum (below); otherwise the
 * simple channels (no left shift, right shift 1..23) through
 * tflc__dsp_requant_simple, the others through the portable arithmetic */
static TFLC__NOINLINE void tflc__dsp_fc_out(const tflc_fc_params *p, int mode,
                                            int32_t c, int32_t n,
                                            const uint32_t *sums, int8_t *out) {
  const int32_t off = p->output_offset, lo = p->act_min, hi = p->act_max;
  int32_t j;
  if (!p->per_channel && mode != 0) {
    const int32_t q = p->out_multiplier[0], r = -p->out_shift[0];
    if (q > 0 && r >= 1 && r <= 23) {
      /* v = (acc q + 2^30) >> 31 (SQRDMULH), then (v + 2^(r-1) - (v < 0))
       * >> r, + off: one 64-bit sum acc q + 2^30 + 2^(r+30) - (acc < 0)
       * 2^31 + off 2^(31+r), shifted right by 31 + r (the floor of a floor
       * of a quotient is the floor of the whole quotient). With q > 0, acc
       * < 0 gives v < 0, or v = 0, where 2^(r-1) - 1 and 2^(r-1) shift to
       * the same 0. |acc q| < 2^62 and |off 2^(31+r)| <= 2^61: no
       * overflow. The high word shifted by r - 1 is the result. */
      const int64_t cst = ((int64_t)1 << 30) + ((int64_t)1 << (r + 30)) +
                          (int64_t)off * ((int64_t)1 << (31 + r));
#define TFLC__DSP_FC_Y(acc)                                                    \
  tflc__asr32(tflc__wrap32(tflc__asr64(                                        \
                  cst + (int64_t)tflc__wrap32((int64_t)(acc)) * q -            \
                      (int64_t)((uint32_t)(acc) >> 31) * ((int64_t)1 << 31),   \
                  32)),                                                        \
              (int)(r - 1))
      if (mode == 2) {
        for (j = 0; j < n; j++)
          out[j] = (int8_t)tflc__ssat8(TFLC__DSP_FC_Y(sums[j]));
      } else {
        for (j = 0; j < n; j++) {
          const int32_t y = TFLC__DSP_FC_Y(sums[j]);
          out[j] = (int8_t)(y < lo ? lo : y > hi ? hi : y);
        }
      }
#undef TFLC__DSP_FC_Y
      return;
    }
  }
  for (j = 0; j < n; j++) {
    const int32_t k = p->per_channel ? c + j : 0;
    const int32_t q = p->out_multiplier[k], sh = p->out_shift[k];
    if (mode != 0 && q != INT32_MIN && sh <= -1 && sh >= -23)
      out[j] = tflc__dsp_out_s8(tflc__dsp_requant_simple(sums[j], q, -sh), off,
                                lo, hi, mode == 2);
    else
      out[j] = tflc__requant_s8(sums[j], q, sh, off, lo, hi);
  }
}

/* The frame of tflc__dsp_fc_groups: `groups` groups of four weight rows
 * against one input row, each group's four sums from its biases,
 * requantized per tensor and stored as four bytes. Fields at fixed
 * offsets (the assembly reads them by offset). */
typedef struct tflc__dsp_fc_frame {
  const int8_t *a;     /*  0: the input row */
  const int8_t *w;     /*  4: the next group's first weight row */
  const int8_t *end;   /*  8: a + n4 */
  const uint8_t *bias; /* 12: the next group's biases (any alignment) */
  int32_t bias_step;   /* 16: 16, or 0 for a block of zeros */
  int8_t *out;         /* 20: the next group's outputs */
  int32_t groups;      /* 24: > 0 */
  int32_t wc;          /* 28: weight row length (depth) */
  uint32_t off2;       /* 32: the input offset in both 16-bit lanes */
  int32_t entry;       /* 36: (n4 / 4) % 4, the steps of the first pass */
  int32_t q;           /* 40: the multiplier, > 0 */
  int32_t sh;          /* 44: the right shift less one, 0..22 */
  uint32_t lo4, hi4;   /* 48, 52: the clamp in every byte */
  uint32_t c[4];       /* 56: the 64-bit constants (low word first) for */
                       /*     sums >= 0 and for sums < 0 */
} tflc__dsp_fc_frame;

#if defined(TFLC__DSP_ASM)
/* In Thumb-2 assembly, one call for all groups: fourteen registers, the
 * frame in lr, r4-r11 saved inside (so any compiler can allocate the one
 * operand). The 1 x 4 step: the four input values widened once with the
 * offset (SXTAB16), each weight row's four values with SXTB16, two SMLAD
 * a row; four steps a pass. The requantization: lsr / add / ldrd choose the
 * constant by the sum's sign, SMLAL, the high word shifted, SSAT; the four
 * bytes packed (BFI), clamped with SSUB8 + SEL, stored as one word. */
static TFLC__NOINLINE void tflc__dsp_fc_groups(tflc__dsp_fc_frame *f) {
#define TFLC__DSP_FC_STEP                                                      \
  "ldr r5, [r8], #4\n\t"                                                       \
  "sxtab16 r4, r12, r5\n\t"                                                    \
  "sxtab16 r5, r12, r5, ror #8\n\t"                                            \
  "ldr r6, [r9, r11]\n\t"                                                      \
  "sxtb16 r7, r6\n\t"                                                          \
  "sxtb16 r6, r6, ror #8\n\t"                                                  \
  "smlad r1, r4, r7, r1\n\t"                                                   \
  "smlad r1, r5, r6, r1\n\t"                                                   \
  "ldr r6, [r9], #4\n\t"                                                       \
  "sxtb16 r7, r6\n\t"                                                          \
  "sxtb16 r6, r6, ror #8\n\t"                                                  \
  "smlad r0, r4, r7, r0\n\t"                                                   \
  "smlad r0, r5, r6, r0\n\t"                                                   \
  "ldr r6, [r10, r11]\n\t"                                                     \
  "sxtb16 r7, r6\n\t"                                                          \
  "sxtb16 r6, r6, ror #8\n\t"                                                  \
  "smlad r3, r4, r7, r3\n\t"                                                   \
  "smlad r3, r5, r6, r3\n\t"                                                   \
  "ldr r6, [r10], #4\n\t"                                                      \
  "sxtb16 r7, r6\n\t"                                                          \
  "sxtb16 r6, r6, ror #8\n\t"                                                  \
  "smlad r2, r4, r7, r2\n\t"                                                   \
  "smlad r2, r5, r6, r2\n\t"
#define TFLC__DSP_FC_REQ(s)                                                    \
  "lsr r10, " s ", #31\n\t"                                                    \
  "add r10, lr, r10, lsl #3\n\t"                                               \
  "ldrd r6, r7, [r10, #56]\n\t"                                                \
  "smlal r6, r7, " s ", r4\n\t"                                                \
  "asr " s ", r7, r5\n\t"                                                      \
  "ssat " s ", #8, " s "\n\t"
  __asm__ volatile("push {r4-r11}\n\t"
                   "mov lr, %[f]\n"
                   "3:\n\t"
                   "ldr r11, [lr, #28]\n\t"
                   "ldr r12, [lr, #32]\n\t"
                   "ldr r8, [lr, #0]\n\t"
                   "ldr r9, [lr, #4]\n\t"
                   "add r10, r9, r11, lsl #1\n\t"
                   "add r6, r9, r11, lsl #2\n\t"
                   "str r6, [lr, #4]\n\t"
                   "ldr r6, [lr, #12]\n\t"
                   "ldr r0, [r6]\n\t"
                   "ldr r1, [r6, #4]\n\t"
                   "ldr r2, [r6, #8]\n\t"
                   "ldr r3, [r6, #12]\n\t"
                   "ldr r7, [lr, #16]\n\t"
                   "add r6, r6, r7\n\t"
                   "str r6, [lr, #12]\n\t"
                   "ldr r6, [lr, #36]\n\t"
                   "cmp r6, #2\n\t"
                   "beq 6f\n\t"
                   "bhi 5f\n\t"
                   "cmp r6, #1\n\t"
                   "beq 7f\n"
                   "1:\n\t" TFLC__DSP_FC_STEP "5:\n\t" TFLC__DSP_FC_STEP
                   "6:\n\t" TFLC__DSP_FC_STEP "7:\n\t" TFLC__DSP_FC_STEP
                   "ldr r6, [lr, #8]\n\t"
                   "cmp r8, r6\n\t"
                   "bne 1b\n\t"
                   "ldr r4, [lr, #40]\n\t"
                   "ldr r5, [lr, #44]\n\t" TFLC__DSP_FC_REQ("r0")
                       TFLC__DSP_FC_REQ("r1") TFLC__DSP_FC_REQ("r2")
                           TFLC__DSP_FC_REQ("r3") "bfi r0, r1, #8, #8\n\t"
                                                  "bfi r0, r2, #16, #8\n\t"
                                                  "bfi r0, r3, #24, #8\n\t"
                                                  "ldr r6, [lr, #48]\n\t"
                                                  "ssub8 r7, r0, r6\n\t"
                                                  "sel r0, r0, r6\n\t"
                                                  "ldr r6, [lr, #52]\n\t"
                                                  "ssub8 r7, r6, r0\n\t"
                                                  "sel r0, r0, r6\n\t"
                                                  "ldr r6, [lr, #20]\n\t"
                                                  "str r0, [r6], #4\n\t"
                                                  "str r6, [lr, #20]\n\t"
                                                  "ldr r6, [lr, #24]\n\t"
                                                  "subs r6, r6, #1\n\t"
                                                  "str r6, [lr, #24]\n\t"
                                                  "bne 3b\n\t"
                                                  "pop {r4-r11}\n\t"
                   :
                   : [f] "r"(f)
                   : "r0", "r1", "r2", "r3", "r12", "lr", "cc", "memory");
#undef TFLC__DSP_FC_STEP
#undef TFLC__DSP_FC_REQ
}
#else
/* The same in C (clang builds, the DSP emulation on other hosts) */
static void tflc__dsp_fc_groups(tflc__dsp_fc_frame *f) {
  const int32_t n4 = (int32_t)(f->end - f->a);
  int32_t g, j;
  for (g = 0; g < f->groups; g++) {
    uint32_t s[4];
    for (j = 0; j < 4; j++)
      s[j] = (uint32_t)tflc__ld_i32(f->bias + 4 * j);
    tflc__dsp_dot1x4(f->a, f->w, f->wc, n4, f->off2, s);
    for (j = 0; j < 4; j++) {
      const int32_t acc = tflc__wrap32((int64_t)s[j]);
      const uint32_t *c = f->c + (acc < 0 ? 2 : 0);
      const int64_t k = (int64_t)(((uint64_t)c[1] << 32) | c[0]);
      const int32_t y = tflc__ssat8(tflc__asr32(
          tflc__wrap32(tflc__asr64(k + (int64_t)acc * f->q, 32)), (int)f->sh));
      const int32_t lo = (int32_t)(f->lo4 & 0xFFu) - (f->lo4 & 0x80u ? 256 : 0);
      const int32_t hi = (int32_t)(f->hi4 & 0xFFu) - (f->hi4 & 0x80u ? 256 : 0);
      f->out[j] = (int8_t)(y < lo ? lo : y > hi ? hi : y);
    }
    f->w += 4 * (ptrdiff_t)f->wc;
    f->bias += f->bias_step;
    f->out += 4;
  }
}
#endif

/* tflc_fully_connected_s8_dsp's groups of four output channels through
 * tflc__dsp_fc_groups where the requantization is per tensor with a
 * multiplier > 0, a right shift of 1..23 and an int8 offset and clamp
 * (mode != 0), and the depth a multiple of 4. Returns the channels done
 * (a multiple of 4; 0 where it does not apply). */
static TFLC__NOINLINE int32_t tflc__dsp_fc_frame_run(
    const tflc_fc_params *p, int mode, int32_t depth, int32_t out_depth,
    const int8_t *a, const int8_t *w, const uint8_t *bias, int8_t *out) {
  static const int32_t zeros[4] = {0, 0, 0, 0};
  tflc__dsp_fc_frame f;
  int64_t k;
  const int32_t q = p->out_multiplier[0], r = -p->out_shift[0];
  if (p->per_channel || mode == 0 || q <= 0 || r < 1 || r > 23 ||
      (depth & 3) != 0 || out_depth < 4)
    return 0;
  /* tflc__dsp_fc_out's 64-bit constant, and the same less 2^31 for
   * negative sums */
  k = ((int64_t)1 << 30) + ((int64_t)1 << (r + 30)) +
      (int64_t)p->output_offset * ((int64_t)1 << (31 + r));
  f.c[0] = (uint32_t)(uint64_t)k;
  f.c[1] = (uint32_t)((uint64_t)k >> 32);
  k -= (int64_t)1 << 31;
  f.c[2] = (uint32_t)(uint64_t)k;
  f.c[3] = (uint32_t)((uint64_t)k >> 32);
  f.a = a;
  f.w = w;
  f.end = a + depth;
  f.bias = bias != NULL ? bias : (const uint8_t *)zeros;
  f.bias_step = bias != NULL ? 16 : 0;
  f.out = out;
  f.groups = out_depth / 4;
  f.wc = depth;
  f.off2 = ((uint32_t)p->input_offset & 0xFFFFu) * 0x10001u;
  f.entry = (depth / 4) % 4;
  f.q = q;
  f.sh = r - 1;
  f.lo4 = ((uint32_t)p->act_min & 0xFFu) * 0x01010101u;
  f.hi4 = ((uint32_t)p->act_max & 0xFFu) * 0x01010101u;
  tflc__dsp_fc_groups(&f);
  return out_depth & ~3;
}

/* tflc_fully_connected_s8_dsp's other outputs: nc <= 16 output channels
 * from c of the input row a (its own frame: the sums stay off the group
 * path's) */
static TFLC__NOINLINE void tflc__dsp_fc_chunk(const tflc_fc_params *p, int mode,
                                              int32_t depth, const int8_t *a,
                                              const int8_t *w,
                                              const uint8_t *bb, int32_t c,
                                              int32_t nc, int8_t *o) {
  uint32_t sums[16];
  const int32_t in_off = p->input_offset, n4 = depth & ~3, nc4 = nc & ~3;
  const uint32_t off2 = ((uint32_t)in_off & 0xFFFFu) * 0x10001u;
  const int8_t *wc = w + (ptrdiff_t)c * depth;
  int32_t j, k;
  for (j = 0; j < nc; j++)
    sums[j] =
        bb != NULL ? (uint32_t)tflc__ld_i32(bb + 4 * (size_t)(c + j)) : 0u;
#if defined(TFLC__DSP_ASM)
  if (nc4 > 0)
    tflc__dsp_row_groups_asm(a, wc, depth, n4, off2, nc4 / 4, sums);
#else
  for (j = 0; j < nc4; j += 4)
    tflc__dsp_dot1x4(a, wc + (ptrdiff_t)j * depth, depth, n4, off2, sums + j);
#endif
  for (j = nc4; j + 2 <= nc; j += 2) /* the last rows in pairs */
    tflc__dsp_dot1x2(a, wc + (ptrdiff_t)j * depth,
                     wc + (ptrdiff_t)(j + 1) * depth, n4, 1, off2, sums + j);
  for (; j < nc; j++) { /* and the last odd one */
    const int8_t *wr = wc + (ptrdiff_t)j * depth;
    uint32_t s = sums[j];
    for (k = 0; k < n4; k += 4) {
      const uint32_t xa = tflc__load4(a + k), wv = tflc__load4(wr + k);
      s = tflc__smlad(tflc__sadd16(tflc__sxtb16(xa), off2), tflc__sxtb16(wv),
                      s);
      s = tflc__smlad(tflc__sadd16(tflc__sxtb16_ror8(xa), off2),
                      tflc__sxtb16_ror8(wv), s);
    }
    sums[j] = s;
  }
  for (k = n4; k < depth; k++) { /* the last one to three values */
    const int32_t x = (int32_t)a[k] + in_off;
    for (j = 0; j < nc; j++)
      sums[j] += (uint32_t)(x * wc[(ptrdiff_t)j * depth + k]);
  }
  tflc__dsp_fc_out(p, mode, c, nc, sums, o + c);
}

TFLC_API int tflc_fully_connected_s8_dsp(const tflc_fc_params *p,
                                         int32_t batches, int32_t depth,
                                         int32_t out_depth, const int8_t *in,
                                         const tflc_const *filter,
                                         const tflc_const *bias, int8_t *out) {
  const int32_t in_off = p->input_offset;
  const int8_t *w = (const int8_t *)filter->data;
  const uint8_t *bb = bias != NULL ? (const uint8_t *)bias->data : NULL;
  int mode;
  int32_t b, c;
  if (batches < 1 || batches > 3 || depth < 4 || out_depth < 1 ||
      (!p->per_channel && p->filter_offset != 0) ||
      filter->kind != TFLC_CONST_RAW_LUT || filter->bits != 0 ||
      filter->type != TFLC_INT8 ||
      (bias != NULL && (bias->kind != TFLC_CONST_RAW_LUT || bias->bits != 0 ||
                        bias->type != TFLC_INT32)) ||
      in_off < -32640 || in_off > 32640)
    return 0;
  mode = p->output_offset < -128 || p->output_offset > 127 ||
                 p->act_min < -128 || p->act_max > 127 ||
                 p->act_min > p->act_max
             ? 0
         : p->act_min == -128 && p->act_max == 127 ? 2
                                                   : 1;
  for (b = 0; b < batches; b++) {
    const int8_t *a = in + (ptrdiff_t)b * depth;
    int8_t *o = out + (ptrdiff_t)b * out_depth;
    for (c = tflc__dsp_fc_frame_run(p, mode, depth, out_depth, a, w, bb, o);
         c < out_depth; c += 16)
      tflc__dsp_fc_chunk(p, mode, depth, a, w, bb, c,
                         out_depth - c < 16 ? out_depth - c : 16, o);
  }
  return 1;
}

/* SMMLAR: a + the high word of b c rounded, a + ((b c + 2^31) >> 32)
 * (in C where TFLC_NO_DSP_ASM asks for no assembly: ACLE has no SMMLAR) */
#if defined(TFLC_DSP_EMULATE) || defined(TFLC_NO_DSP_ASM) || !defined(__GNUC__)
static int32_t tflc__dsp_smmlar(int32_t b, int32_t c, int32_t a) {
  return (int32_t)((uint32_t)a + (uint32_t)tflc__asr64(
                                     (int64_t)b * c + ((int64_t)1 << 31), 32));
}
#else
TFLC__INLINE int32_t tflc__dsp_smmlar(int32_t b, int32_t c, int32_t a) {
  int32_t r;
  __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(b), "r"(c), "r"(a));
  return r;
}
#endif

/* MultiplyByQuantizedMultiplier(x, q, -r) from twice x (|x| < 2^30, so no
 * saturation): SQRDMULH(x, q) = SMMULR(2 x, q), then the rounding division
 * by 2^r (r 1..31, nudge 2^(r-1)) as (v + nudge - (v < 0)) >> r, exact as
 * |v| < 2^30; r 0 (exact): v itself */
TFLC__INLINE int32_t tflc__dsp_add_scale(int32_t x2, int32_t q, int32_t nudge,
                                         int32_t r, int exact) {
  const int32_t v = tflc__smmulr(x2, q);
  if (exact)
    return v;
  return tflc__asr32(v + nudge + tflc__asr32(v, 31), (int)r);
}

/* The constants of tflc__dsp_add_loop: per input twice its offset
 * scaled (o 2^21), the multiplier, the nudge 2^(r-1) and the right shift
 * r; the output's multiplier and shift, its nudge with the output offset
 * added (nz = 2^(ro-1) + zo 2^ro) and the clamp */
typedef struct tflc__dsp_add_k {
  int32_t ok1, q1, n1, r1, ok2, q2, n2, r2;
  int32_t qo, nz, ro, lo, hi;
} tflc__dsp_add_k;

/* The element loop of tflc_add_elementwise_s8_dsp (left shift 20); e1,
 * e2: constants at each call, 1 where that input's right shift is 0.
 * Twice an input's scaled value is x 2^21 + o 2^21; |x + o| <= 384, so it
 * stays below 2^30, as does the sum of the two scaled values (at most
 * 805306370). The output offset rides in the output's nudge: (v + nudge +
 * zo 2^ro - (v < 0)) >> ro = ((v + nudge - (v < 0)) >> ro) + zo, while the
 * sum stays in int32 (checked by the caller). */
TFLC__INLINE void tflc__dsp_add_loop(const tflc__dsp_add_k *kp, size_t n,
                                     const int8_t *in1, const int8_t *in2,
                                     int8_t *out, int e1, int e2) {
  const tflc__dsp_add_k k = *kp;
  size_t i;
  for (i = 0; i + 2 <= n; i += 2) { /* two at a time: the constants once */
    const int32_t a0 = tflc__dsp_add_scale(in1[i] * ((int32_t)1 << 21) + k.ok1,
                                           k.q1, k.n1, k.r1, e1);
    const int32_t a1 = tflc__dsp_add_scale(
        in1[i + 1] * ((int32_t)1 << 21) + k.ok1, k.q1, k.n1, k.r1, e1);
    const int32_t b0 = tflc__dsp_add_scale(in2[i] * ((int32_t)1 << 21) + k.ok2,
                                           k.q2, k.n2, k.r2, e2);
    const int32_t b1 = tflc__dsp_add_scale(
        in2[i + 1] * ((int32_t)1 << 21) + k.ok2, k.q2, k.n2, k.r2, e2);
    int32_t y0 = tflc__dsp_add_scale(2 * (a0 + b0), k.qo, k.nz, k.ro, 0);
    int32_t y1 = tflc__dsp_add_scale(2 * (a1 + b1), k.qo, k.nz, k.ro, 0);
    y0 = y0 < k.lo ? k.lo : y0;
    y0 = y0 > k.hi ? k.hi : y0;
    y1 = y1 < k.lo ? k.lo : y1;
    y1 = y1 > k.hi ? k.hi : y1;
    out[i] = (int8_t)y0;
    out[i + 1] = (int8_t)y1;
  }
  for (; i < n; ++i) {
    const int32_t a = tflc__dsp_add_scale(in1[i] * ((int32_t)1 << 21) + k.ok1,
                                          k.q1, k.n1, k.r1, e1);
    const int32_t b = tflc__dsp_add_scale(in2[i] * ((int32_t)1 << 21) + k.ok2,
                                          k.q2, k.n2, k.r2, e2);
    int32_t y = tflc__dsp_add_scale(2 * (a + b), k.qo, k.nz, k.ro, 0);
    y = y < k.lo ? k.lo : y;
    y = y > k.hi ? k.hi : y;
    out[i] = (int8_t)y;
  }
}

/* elements per pass of tflc__dsp_add_passes (its int32 sums on the stack) */
#define TFLC__DSP_ADD_CHUNK 32

/* The output pass of tflc__dsp_add_passes over m doubled sums (a frame of
 * its own: its constants stay in registers). */
static TFLC__NOINLINE void tflc__dsp_add_out(const tflc__dsp_add_k *kp,
                                             size_t m, const int32_t *sum,
                                             int8_t *out) {
  const int32_t qo = kp->qo, nz = kp->nz, ro = kp->ro;
  const int32_t lo = kp->lo, hi = kp->hi;
  size_t i;
  if (lo == -128 && hi == 127) { /* the clamp is SSAT's */
    for (i = 0; i < m; i++) {
      const int32_t v = sum[i];
      out[i] = (int8_t)tflc__ssat8(tflc__asr32(
          tflc__dsp_smmlar(v, qo, nz) + tflc__asr32(v, 31), (int)ro));
    }
    return;
  }
  for (i = 0; i < m; i++) {
    const int32_t v = sum[i];
    int32_t o =
        tflc__asr32(tflc__dsp_smmlar(v, qo, nz) + tflc__asr32(v, 31), (int)ro);
    o = o < lo ? lo : o;
    o = o > hi ? hi : o;
    out[i] = (int8_t)o;
  }
}

/* tflc__dsp_add_loop's arithmetic in two passes over chunks of
 * TFLC__DSP_ADD_CHUNK elements, each with few enough constants to stay in
 * registers: twice the sum of the scaled inputs, then the output. The
 * nudge rides in SMMLAR, and the sign that picks the rounding is the one
 * of the value multiplied (x): with q >= 0 (the caller's condition)
 * SMMULR(x, q) has x's sign or is 0, and where it is 0 the nudge 2^(r-1)
 * with or without the 1 taken off gives the same quotient by 2^r (0, or
 * the output offset that rides in the output's nudge). */
TFLC__INLINE void tflc__dsp_add_passes(const tflc__dsp_add_k *kp, size_t n,
                                       const int8_t *in1, const int8_t *in2,
                                       int8_t *out, int e1, int e2) {
  int32_t sum[TFLC__DSP_ADD_CHUNK];
  size_t i, m;
  for (; n > 0; n -= m, in1 += m, in2 += m, out += m) {
    m = n < TFLC__DSP_ADD_CHUNK ? n : TFLC__DSP_ADD_CHUNK;
    {
      const int32_t ok1 = kp->ok1, q1 = kp->q1, n1 = kp->n1, r1 = kp->r1;
      const int32_t ok2 = kp->ok2, q2 = kp->q2, n2 = kp->n2, r2 = kp->r2;
      for (i = 0; i < m; i++) {
        const int32_t x = in1[i] * ((int32_t)1 << 21) + ok1;
        const int32_t y = in2[i] * ((int32_t)1 << 21) + ok2;
        const int32_t a =
            e1 ? tflc__smmulr(x, q1)
               : tflc__asr32(tflc__dsp_smmlar(x, q1, n1) + tflc__asr32(x, 31),
                             (int)r1);
        const int32_t b =
            e2 ? tflc__smmulr(y, q2)
               : tflc__asr32(tflc__dsp_smmlar(y, q2, n2) + tflc__asr32(y, 31),
                             (int)r2);
        sum[i] = 2 * (a + b);
      }
    }
    tflc__dsp_add_out(kp, m, sum, out);
  }
}

TFLC_API void tflc_add_elementwise_s8_dsp(const tflc_add_params *p, size_t n,
                                          const int8_t *in1, const int8_t *in2,
                                          int8_t *out) {
  tflc__dsp_add_k k;
  const int32_t ro = -p->output_shift, zo = p->output_offset;
  if (p->left_shift != 20 || p->input1_offset < -256 ||
      p->input1_offset > 256 || p->input2_offset < -256 ||
      p->input2_offset > 256 || p->input1_shift > 0 || p->input1_shift < -31 ||
      p->input2_shift > 0 || p->input2_shift < -31 || ro < 1 || ro > 31 ||
      zo < -0x10000 || zo > 0x10000 ||
      805306371 + ((int64_t)1 << (ro - 1)) +
              (int64_t)(zo < 0 ? -zo : zo) * ((int64_t)1 << ro) >
          INT32_MAX) {
    tflc_add_elementwise_s8_portable(p, n, in1, in2, out);
    return;
  }
  if (p->input2_shift == 0 && p->input1_shift != 0) {
    /* the input without a right shift first (the sum is the same) */
    const int8_t *t = in1;
    in1 = in2;
    in2 = t;
    k.ok1 = p->input2_offset * ((int32_t)1 << 21);
    k.q1 = p->input2_multiplier;
    k.r1 = -p->input2_shift;
    k.ok2 = p->input1_offset * ((int32_t)1 << 21);
    k.q2 = p->input1_multiplier;
    k.r2 = -p->input1_shift;
  } else {
    k.ok1 = p->input1_offset * ((int32_t)1 << 21);
    k.q1 = p->input1_multiplier;
    k.r1 = -p->input1_shift;
    k.ok2 = p->input2_offset * ((int32_t)1 << 21);
    k.q2 = p->input2_multiplier;
    k.r2 = -p->input2_shift;
  }
  k.n1 = k.r1 > 0 ? (int32_t)1 << (k.r1 - 1) : 0;
  k.n2 = k.r2 > 0 ? (int32_t)1 << (k.r2 - 1) : 0;
  k.qo = p->output_multiplier;
  k.ro = ro;
  k.nz =
      tflc__wrap32(((int64_t)1 << (ro - 1)) + (int64_t)zo * ((int64_t)1 << ro));
  k.lo = p->act_min;
  k.hi = p->act_max;
  if (k.q1 >= 0 && k.q2 >= 0 && k.qo >= 0) {
    /* (tflc__dsp_add_passes' multipliers) */
    if (k.r1 == 0 && k.r2 != 0)
      tflc__dsp_add_passes(&k, n, in1, in2, out, 1, 0);
    else if (k.r1 == 0)
      tflc__dsp_add_passes(&k, n, in1, in2, out, 1, 1);
    else
      tflc__dsp_add_passes(&k, n, in1, in2, out, 0, 0);
  } else if (k.r1 == 0 && k.r2 != 0)
    tflc__dsp_add_loop(&k, n, in1, in2, out, 1, 0);
  else if (k.r1 == 0)
    tflc__dsp_add_loop(&k, n, in1, in2, out, 1, 1);
  else
    tflc__dsp_add_loop(&k, n, in1, in2, out, 0, 0);
}

/* tflc__dsp_gemm_row's other cases: four columns at a time over the
 * segments (its own frame, as tflc__dsp_gemm_row_runs has). */
static TFLC__NOINLINE int32_t tflc__dsp_gemm_row_fours(
    const tflc_requant_params *rq, const tflc_gemm_block *g, int mode) {
  const int32_t a_offset = g->a_offset;
  const uint32_t off2 = ((uint32_t)a_offset & 0xFFFFu) * 0x10001u;
  const int32_t out_off = rq->output_offset, lo = rq->act_min, hi = rq->act_max;
  const int32_t n4 = g->seg_len & ~3;
  int32_t c, j, sg, k;
  for (c = 0; c + 4 <= g->cols; c += 4) {
    tflc__dsp_requant f[4];
    uint32_t s[4];
    const int8_t *w0 = g->w + (ptrdiff_t)c * g->w_col;
    for (j = 0; j < 4; j++) {
      const int32_t q = rq->per_channel ? c + j : 0;
      if (!tflc__dsp_requant_init(&f[j], rq->multiplier[q], rq->shift[q]))
        return c;
      s[j] = rq->bias != NULL ? (uint32_t)rq->bias[c + j] : 0u;
    }
    for (sg = 0; sg < g->segments; sg++) {
      const int8_t *a0 = g->a + (ptrdiff_t)sg * g->a_seg;
      const int8_t *ws = w0 + (ptrdiff_t)sg * g->w_seg;
#if defined(TFLC__DSP_ASM)
      if (n4 > 0)
        tflc__dsp_dot1x4_asm(a0, ws, g->w_col, n4, off2, s);
#else
      tflc__dsp_dot1x4(a0, ws, g->w_col, n4, off2, s);
#endif
      for (k = n4; k < g->seg_len; k++) {
        const int32_t x = (int32_t)a0[k] + a_offset;
        for (j = 0; j < 4; j++)
          s[j] += (uint32_t)(x * ws[(ptrdiff_t)j * g->w_col + k]);
      }
    }
    {
      const int simple =
          TFLC__DSP_SIMPLE2(f[0], f[1]) && TFLC__DSP_SIMPLE2(f[2], f[3]);
      for (j = 0; j < 4; j++)
        g->out[c + j] =
            tflc__dsp_out(f[j], s[j], out_off, lo, hi, mode == 2, simple);
    }
  }
  return c;
}

/* A single output row, four columns at a time (the inputs widened once
 * for four weight rows); returns the columns done (a multiple of 4,
 * stopping before columns the prepared requantization does not cover). */
static int32_t tflc__dsp_gemm_row(const tflc_requant_params *rq,
                                  const tflc_gemm_block *g) {
  const int mode = tflc__dsp_mode(rq);
  if (mode == 0)
    return 0;
#if defined(TFLC__DSP_ASM)
  if (g->segments == 1 && (g->seg_len & 3) == 0 && g->seg_len > 0)
    return tflc__dsp_gemm_row_runs(
        rq, g, mode, g->seg_len, ((uint32_t)g->a_offset & 0xFFFFu) * 0x10001u);
#endif
  return tflc__dsp_gemm_row_fours(rq, g, mode);
}

/* Columns [c, c + n) of a block through the portable GEMM (parameters the
 * DSP requantization does not cover). */
static TFLC__NOINLINE void
tflc__dsp_gemm_cols_portable(const tflc_requant_params *rq,
                             const tflc_gemm_block *g, int32_t c, int32_t n) {
  tflc_requant_params rc = tflc__requant_at(rq, c);
  tflc_gemm_block sub = *g;
  sub.cols = n;
  sub.w = g->w + (ptrdiff_t)c * g->w_col;
  sub.out = g->out + c;
  tflc_gemm_s8_portable(&rc, &sub);
}

/* The general DSP GEMM from column c: columns in pairs, rows in pairs,
 * every segment of each 2 x 2 block in turn. */
static TFLC__NOINLINE void tflc__dsp_gemm_pairs(const tflc_requant_params *rq,
                                                const tflc_gemm_block *g,
                                                int32_t c, int mode) {
  const int32_t a_offset = g->a_offset;
  const uint32_t off2 = ((uint32_t)a_offset & 0xFFFFu) * 0x10001u;
  const int32_t out_off = rq->output_offset, lo = rq->act_min, hi = rq->act_max;
  const int sat8 = mode == 2;
  /* the block's fields in locals: the int8 stores below may alias
   * anything, so compilers would reload them from memory otherwise */
  const int32_t rows = g->rows, cols = g->cols, segs = g->segments;
  const int32_t len = g->seg_len, a_row = g->a_row, a_seg = g->a_seg;
  const int32_t w_col = g->w_col, w_seg = g->w_seg, out_row = g->out_row;
  int32_t r, sg;
  for (; c < cols; c += 2) {
    const int two_c = c + 1 < cols;
    const int8_t *w0 = g->w + (ptrdiff_t)c * w_col;
    const int8_t *w1 = two_c ? w0 + w_col : w0;
    const int32_t k0 = rq->per_channel ? c : 0;
    const int32_t k1 = rq->per_channel && two_c ? c + 1 : k0;
    const uint32_t b0 = rq->bias != NULL ? (uint32_t)rq->bias[c] : 0u;
    const uint32_t b1 =
        rq->bias != NULL ? (uint32_t)rq->bias[two_c ? c + 1 : c] : 0u;
    tflc__dsp_requant f0, f1;
    const int fast0 =
        tflc__dsp_requant_init(&f0, rq->multiplier[k0], rq->shift[k0]);
    const int fast1 =
        tflc__dsp_requant_init(&f1, rq->multiplier[k1], rq->shift[k1]);
    const int8_t *a0 = g->a;
    int8_t *o = g->out + c;
    const int simple = TFLC__DSP_SIMPLE2(f0, f1);
    if (!fast0 || !fast1) {
      tflc__dsp_gemm_cols_portable(rq, g, c, two_c ? 2 : 1);
      continue;
    }
    r = 0;
#if defined(TFLC__DSP_ASM)
    if (simple && sat8 && two_c && rows >= 2 && a_offset == 0 && segs > 0 &&
        len > 0 && (len & 3) == 0 &&
        tflc__dsp_fits30(b0, (int64_t)segs * len) &&
        tflc__dsp_fits30(b1, (int64_t)segs * len)) {
      /* 2 x 2 blocks requantized in the assembly loop */
      uint32_t prm[14];
      prm[0] = (uint32_t)f0.q;
      prm[1] = (uint32_t)f0.nudge + ((uint32_t)out_off << f0.right);
      prm[2] = f0.right;
      prm[3] = (uint32_t)f1.q;
      prm[4] = (uint32_t)f1.nudge + ((uint32_t)out_off << f1.right);
      prm[5] = f1.right;
      prm[6] = (uint32_t)out_row;
      prm[7] = b0;
      prm[8] = b1;
      prm[9] = (uint32_t)a_row;
      prm[10] = (uint32_t)w_col;
      prm[11] = (uint32_t)a_seg - (uint32_t)len;
      prm[12] = (uint32_t)w_seg - (uint32_t)len;
      prm[13] = (uint32_t)segs;
      tflc__dsp_blocks_sat_asm(a0, w0, len, rows / 2, o, prm);
      r = rows & ~1;
      a0 += (ptrdiff_t)r * a_row;
      o += (ptrdiff_t)r * out_row;
    }
#endif
    for (; r < rows; r += 2, a0 += 2 * a_row, o += 2 * out_row) {
      const int two_r = r + 1 < rows;
      const int8_t *a1 = two_r ? a0 + a_row : a0;
      uint32_t s[4];
      s[0] = b0;
      s[1] = b1;
      s[2] = b0;
      s[3] = b1;
      if (segs == 1)
        tflc__dsp_segment(a0, a1, w0, w1, len, a_offset, off2, two_r, s);
      else
        for (sg = 0; sg < segs; sg++)
          tflc__dsp_segment(
              a0 + (ptrdiff_t)sg * a_seg, a1 + (ptrdiff_t)sg * a_seg,
              w0 + (ptrdiff_t)sg * w_seg, w1 + (ptrdiff_t)sg * w_seg, len,
              a_offset, off2, two_r, s);
      o[0] = tflc__dsp_out(f0, s[0], out_off, lo, hi, sat8, simple);
      if (two_c)
        o[1] = tflc__dsp_out(f1, s[1], out_off, lo, hi, sat8, simple);
      if (two_r) {
        o[out_row] = tflc__dsp_out(f0, s[2], out_off, lo, hi, sat8, simple);
        if (two_c)
          o[out_row + 1] =
              tflc__dsp_out(f1, s[3], out_off, lo, hi, sat8, simple);
      }
    }
  }
}

#if defined(TFLC__GEMM_S8_IS_DSP) || defined(TFLC_CONV_WIDE_TEST)
/* words of tflc__conv2d_s8_im2col_dsp's window buffer: a pair of windows
 * of up to 7 steps of 4 values, each step four words of 16-bit lanes, and
 * the copies they are widened from (tflc__dsp_windows_wide: up to
 * 20 steps - 24 bytes) */
#define TFLC__DSP_WIN_WORDS 30

/* The windows of output pixels q0 and q1 (the same pixel for a single
 * one) widened to 16-bit lanes at d, in `steps` steps of four values: step
 * j's four words are the SXTB16 lanes of values 4 j .. 4 j + 3 of pixel q0
 * (bytes 0 and 2, then 1 and 3), then of pixel q1. The last step holds
 * values D - 4 .. D - 1 with the first 4 steps - D of them (those the step
 * before already has) set to zero, so that it goes with the weights read
 * from D - 4: no weight read leaves its row. Both windows are copied first
 * (tflc__conv_window_s8), 12 (steps - 2) and 16 steps - 24 bytes on, where
 * no step's write reaches a value a later step reads (the last step's
 * words are read before the others). steps is 2..7. */
static TFLC__NOINLINE void tflc__dsp_windows_wide(const tflc__conv_blocked *s,
                                                  int32_t q0, int32_t q1,
                                                  uint32_t *d, int32_t steps) {
  const int32_t depth = s->depth;
  const uint32_t keep = 0xFFFFFFFFu << (8 * (4 * steps - depth));
  int8_t *const r0 = (int8_t *)d + 12 * (steps - 2), *const r1 = r0 + 4 * steps;
  uint32_t last0, last1;
  int32_t j;
  tflc__conv_window_s8(s, q0, r0);
  tflc__conv_window_s8(s, q1, r1);
  last0 = tflc__load4(r0 + depth - 4) & keep;
  last1 = tflc__load4(r1 + depth - 4) & keep;
  for (j = 0; j + 1 < steps; j++) {
    const uint32_t v0 = tflc__load4(r0 + 4 * j), v1 = tflc__load4(r1 + 4 * j);
    d[4 * j] = tflc__sxtb16(v0);
    d[4 * j + 1] = tflc__sxtb16_ror8(v0);
    d[4 * j + 2] = tflc__sxtb16(v1);
    d[4 * j + 3] = tflc__sxtb16_ror8(v1);
  }
  d[4 * j] = tflc__sxtb16(last0);
  d[4 * j + 1] = tflc__sxtb16_ror8(last0);
  d[4 * j + 2] = tflc__sxtb16(last1);
  d[4 * j + 3] = tflc__sxtb16_ror8(last1);
}

/* One step of tflc__dsp_wide_blocks: x's four words against the weight
 * words v0, v1 of two columns */
#define TFLC__DSP_WIDE_STEP(x, v0, v1)                                         \
  do {                                                                         \
    const uint32_t l0_ = tflc__sxtb16(v0), h0_ = tflc__sxtb16_ror8(v0);        \
    const uint32_t l1_ = tflc__sxtb16(v1), h1_ = tflc__sxtb16_ror8(v1);        \
    s00 = tflc__smlad((x)[0], l0_, s00);                                       \
    s00 = tflc__smlad((x)[1], h0_, s00);                                       \
    s10 = tflc__smlad((x)[2], l0_, s10);                                       \
    s10 = tflc__smlad((x)[3], h0_, s10);                                       \
    s01 = tflc__smlad((x)[0], l1_, s01);                                       \
    s01 = tflc__smlad((x)[1], h1_, s01);                                       \
    s11 = tflc__smlad((x)[2], l1_, s11);                                       \
    s11 = tflc__smlad((x)[3], h1_, s11);                                       \
  } while (0)

/* Columns [c, nc) of the chunk in pairs against the widened windows x
 * (tflc__dsp_windows_wide, `steps` steps) of output pixels o and
 * o + out_row (only o when !two_r), the weights read in place (rows D
 * apart, the last step's from D - 4), the biases with the offset folded
 * in; every column's requantization is the DSP's (checked by the
 * caller). */
static TFLC__NOINLINE void tflc__dsp_wide_blocks(const tflc__conv_blocked *s,
                                                 const uint32_t *x, int32_t c,
                                                 int32_t steps, int8_t *o,
                                                 int two_r, int mode) {
  const int32_t depth = s->depth, nc = s->nc, out_row = s->cout;
  const int32_t out_off = s->rq.output_offset;
  const int32_t lo = s->rq.act_min, hi = s->rq.act_max;
  const int sat8 = mode == 2;
  int32_t j;
  for (o += c; c < nc; c += 2, o += 2) {
    const int two_c = c + 1 < nc;
    const int32_t c1 = two_c ? c + 1 : c;
    const int8_t *w0 = s->wt + (ptrdiff_t)c * depth;
    const int8_t *w1 = s->wt + (ptrdiff_t)c1 * depth;
    const int8_t *const tail0 = w0 + depth - 4, *const tail1 = w1 + depth - 4;
    uint32_t s00 = (uint32_t)s->bias[c], s01 = (uint32_t)s->bias[c1];
    uint32_t s10 = s00, s11 = s01;
    tflc__dsp_requant f0, f1;
    int simple;
    (void)tflc__dsp_requant_init(&f0, s->rq.multiplier[c], s->rq.shift[c]);
    (void)tflc__dsp_requant_init(&f1, s->rq.multiplier[c1], s->rq.shift[c1]);
    simple = TFLC__DSP_SIMPLE2(f0, f1);
    for (j = 0; j + 1 < steps; j++, w0 += 4, w1 += 4)
      TFLC__DSP_WIDE_STEP(x + 4 * j, tflc__load4(w0), tflc__load4(w1));
    TFLC__DSP_WIDE_STEP(x + 4 * j, tflc__load4(tail0), tflc__load4(tail1));
    o[0] = tflc__dsp_out(f0, s00, out_off, lo, hi, sat8, simple);
    if (two_c)
      o[1] = tflc__dsp_out(f1, s01, out_off, lo, hi, sat8, simple);
    if (two_r) {
      o[out_row] = tflc__dsp_out(f0, s10, out_off, lo, hi, sat8, simple);
      if (two_c)
        o[out_row + 1] = tflc__dsp_out(f1, s11, out_off, lo, hi, sat8, simple);
    }
  }
}
#undef TFLC__DSP_WIDE_STEP

#if defined(TFLC__DSP_ASM)
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Woverlength-strings"
#endif
/* tflc__dsp_wide_blocks in assembly for the column pairs [0, pairs) of a
 * chunk whose channels are simple (no left shift, right shift n of 1..23),
 * whose sums stay within +-(2^30 - 1) (tflc__dsp_fits30) and whose
 * outputs saturate to int8 (the fast requantization's mode 2), both
 * pixels there: the bytes of tflc__dsp_out (simple, sat8), as
 * tflc__dsp_pw_sat_asm's requantization with the nudge 2^(n-1) +
 * offset * 2^n = (2 offset + 1) << (n - 1) made from each channel's shift.
 * The steps before the last (1..6) unrolled and entered through a TBB, 16
 * instructions per 16 products; the loop state lives in memory. */
#define TFLC__DSP_M_X TFLC__DSP_AM(mx, 0)
#define TFLC__DSP_M_W TFLC__DSP_AM(mw, 4)
#define TFLC__DSP_M_OUT TFLC__DSP_AM(mout, 8)
#define TFLC__DSP_M_MULT TFLC__DSP_AM(mmult, 12)
#define TFLC__DSP_M_SHIFT TFLC__DSP_AM(mshift, 16)
#define TFLC__DSP_M_BIAS TFLC__DSP_AM(mbias, 20)
#define TFLC__DSP_M_END TFLC__DSP_AM(mend, 24)
#define TFLC__DSP_M_IDX TFLC__DSP_AM(midx, 28)
#define TFLC__DSP_M_PAD TFLC__DSP_AM(mpad, 32)
#define TFLC__DSP_M_OROW TFLC__DSP_AM(morow, 36)
#define TFLC__DSP_M_OFF2 TFLC__DSP_AM(moff2, 40)
static TFLC__NOINLINE void tflc__dsp_wide_asm(const tflc__conv_blocked *s,
                                              const uint32_t *x_, int32_t steps,
                                              int8_t *o, int32_t pairs) {
  TFLC__DSP_AV(uint32_t, s00, "r0");
  TFLC__DSP_AV(uint32_t, s01, "r1");
  TFLC__DSP_AV(uint32_t, s10, "r2");
  TFLC__DSP_AV(uint32_t, s11, "r3");
  TFLC__DSP_AV(const uint32_t *, xp, "r4");
  TFLC__DSP_AV(const int8_t *, wp, "r5");
  TFLC__DSP_AV(int32_t, st, "r6") = s->depth;
  TFLC__DSP_AV(uint32_t, t0, "r8");
  TFLC__DSP_AV(uint32_t, t1, "r9");
  TFLC__DSP_AV(uint32_t, t2, "r10");
  TFLC__DSP_AV(uint32_t, t3, "r11");
  TFLC__DSP_AV(uint32_t, t4, "r12");
  TFLC__DSP_AV(uint32_t, t5, "lr");
  const uint32_t *const mx = x_;
  const int8_t *mw = s->wt;
  int8_t *mout = o;
  const int32_t *mmult = s->rq.multiplier;
  const int8_t *mshift = s->rq.shift;
  const int32_t *mbias = s->bias;
  const int8_t *const mend = o + 2 * pairs;
  const int32_t midx = 7 - steps, mpad = 4 * steps - s->depth;
  const int32_t morow = s->cout;
  const uint32_t moff2 = 2u * (uint32_t)s->rq.output_offset + 1u;
  TFLC__DSP_ACTX(t0, (uintptr_t)mx, (uintptr_t)mw, (uintptr_t)mout,
                 (uintptr_t)mmult, (uintptr_t)mshift, (uintptr_t)mbias,
                 (uintptr_t)mend, (uintptr_t)(uint32_t)midx,
                 (uintptr_t)(uint32_t)mpad, (uintptr_t)(uint32_t)morow,
                 (uintptr_t)moff2);
#define TFLC__DSP_STEP_WIDE                                                    \
  "ldrd %[t0], %[t1], [%[xp]], #8\n\t"                                         \
  "ldrd %[t2], %[t3], [%[xp]], #8\n\t"                                         \
  "ldr %[t4], [%[wp], %[st]]\n\t"                                              \
  "sxtb16 %[t5], %[t4], ror #8\n\t"                                            \
  "sxtb16 %[t4], %[t4]\n\t"                                                    \
  "smlad %[s01], %[t0], %[t4], %[s01]\n\t"                                     \
  "smlad %[s01], %[t1], %[t5], %[s01]\n\t"                                     \
  "smlad %[s11], %[t2], %[t4], %[s11]\n\t"                                     \
  "smlad %[s11], %[t3], %[t5], %[s11]\n\t"                                     \
  "ldr %[t4], [%[wp]], #4\n\t"                                                 \
  "sxtb16 %[t5], %[t4], ror #8\n\t"                                            \
  "sxtb16 %[t4], %[t4]\n\t"                                                    \
  "smlad %[s00], %[t0], %[t4], %[s00]\n\t"                                     \
  "smlad %[s00], %[t1], %[t5], %[s00]\n\t"                                     \
  "smlad %[s10], %[t2], %[t4], %[s10]\n\t"                                     \
  "smlad %[s10], %[t3], %[t5], %[s10]\n\t"
/* sum s requantized (multiplier t2, nudge t3, right shift t4), saturated
 * to int8 and stored at `at` (t0, t1 clobbered) */
#define TFLC__DSP_REQ_WIDE(s, at)                                              \
  "add %[t1], %[" #s "], %[" #s "]\n\t"                                        \
  "smmulr %[t1], %[t1], %[t2]\n\t"                                             \
  "sub %[t0], %[t3], %[t1], lsr #31\n\t"                                       \
  "qadd %[t1], %[t1], %[t0]\n\t"                                               \
  "asr %[t1], %[t1], %[t4]\n\t"                                                \
  "ssat %[t1], #8, %[t1]\n\t"                                                  \
  "strb %[t1], " at "\n\t"
/* the shifts and multipliers stepped to the next column pair (t5: the
 * shifts) */
#define TFLC__DSP_STEP_PRM_WIDE                                                \
  "add %[t5], %[t5], #2\n\t"                                                   \
  "str %[t5], " TFLC__DSP_M_SHIFT "\n\t"                                       \
  "ldr %[t5], " TFLC__DSP_M_MULT "\n\t"                                        \
  "add %[t5], %[t5], #8\n\t"                                                   \
  "str %[t5], " TFLC__DSP_M_MULT "\n\t"
/* channel k's multiplier t2, nudge t3 and right shift t4 (t5: the shifts,
 * t0 clobbered) */
#define TFLC__DSP_PRM_WIDE(k)                                                  \
  "ldrsb %[t4], [%[t5], #" #k "]\n\t"                                          \
  "mvn %[t0], %[t4]\n\t"                                                       \
  "rsb %[t4], %[t4], #0\n\t"                                                   \
  "ldr %[t3], " TFLC__DSP_M_OFF2 "\n\t"                                        \
  "lsl %[t3], %[t3], %[t0]\n\t"                                                \
  "ldr %[t2], " TFLC__DSP_M_MULT "\n\t"                                        \
  "ldr %[t2], [%[t2], #" #k " * 4]\n\t"
/* the four outputs (wp: where they go, xp: out_row), the multipliers,
 * shifts and output pointer stepped to the next column pair */
#define TFLC__DSP_OUT_WIDE                                                     \
  "ldr %[wp], " TFLC__DSP_M_OUT "\n\t"                                         \
  "ldr %[xp], " TFLC__DSP_M_OROW "\n\t"                                        \
  "ldr %[t5], " TFLC__DSP_M_SHIFT                                              \
  "\n\t" TFLC__DSP_PRM_WIDE(0) TFLC__DSP_REQ_WIDE(s00, "[%[wp]]")              \
      TFLC__DSP_REQ_WIDE(s10, "[%[wp], %[xp]]") TFLC__DSP_PRM_WIDE(1)          \
          TFLC__DSP_STEP_PRM_WIDE                                              \
          TFLC__DSP_REQ_WIDE(                                                  \
              s01, "[%[wp], #1]") "add %[xp], %[xp], "                         \
                                  "%[wp]\n\t" TFLC__DSP_REQ_WIDE(              \
                                      s11, "[%[xp], #1]") "add %[wp], "        \
                                                          "%[wp], "            \
                                                          "#2\n\t"             \
                                                          "str "               \
                                                          "%[wp],"             \
                                                          " " TFLC__DSP_M_OUT  \
                                                          "\n\t"
/* the next column pair's weights; the flags: whether the outputs end */
#define TFLC__DSP_NEXT_WIDE                                                    \
  "ldr %[wp], " TFLC__DSP_M_W "\n\t"                                           \
  "add %[wp], %[wp], %[st], lsl #1\n\t"                                        \
  "str %[wp], " TFLC__DSP_M_W "\n\t"                                           \
  "ldr %[t0], " TFLC__DSP_M_OUT "\n\t"                                         \
  "ldr %[t1], " TFLC__DSP_M_END "\n\t"                                         \
  "cmp %[t0], %[t1]\n\t"
  __asm__(
      TFLC__DSP_AENTER(
          t0) "ldr %[wp], " TFLC__DSP_M_W "\n"
              "2:\n\t"
              "ldr %[xp], " TFLC__DSP_M_X "\n\t"
              "ldr %[t5], " TFLC__DSP_M_BIAS "\n\t"
              "ldrd %[s00], %[s01], [%[t5]], #8\n\t"
              "str %[t5], " TFLC__DSP_M_BIAS "\n\t"
              "mov %[s10], %[s00]\n\t"
              "mov %[s11], %[s01]\n\t"
              "ldr %[t0], " TFLC__DSP_M_IDX "\n\t"
              "tbb [pc, %[t0]]\n"
              "0:\n\t"
              ".byte (10f - 0b) / 2, (11f - 0b) / 2\n\t"
              ".byte (12f - 0b) / 2, (13f - 0b) / 2\n\t"
              ".byte (14f - 0b) / 2, (15f - 0b) / 2\n"
              "10:\n\t" TFLC__DSP_STEP_WIDE "11:\n\t" TFLC__DSP_STEP_WIDE
              "12:\n\t" TFLC__DSP_STEP_WIDE "13:\n\t" TFLC__DSP_STEP_WIDE
              "14:\n\t" TFLC__DSP_STEP_WIDE "15:\n\t" TFLC__DSP_STEP_WIDE
              /* the last step: weights from D - 4 */
              "ldr %[t0], " TFLC__DSP_M_PAD "\n\t"
              "sub %[wp], %[wp], %[t0]\n\t" TFLC__DSP_STEP_WIDE
                  TFLC__DSP_OUT_WIDE TFLC__DSP_NEXT_WIDE
              "bne 2b\n\t" TFLC__DSP_AEXIT
      : [s00] "=&r"(s00), [s01] "=&r"(s01), [s10] "=&r"(s10), [s11] "=&r"(s11),
        [xp] "=&r"(xp), [wp] "=&r"(wp), [t0] TFLC__DSP_ACTX_RW(t0),
        [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [t5] "=&r"(t5)TFLC__DSP_AGCC(
            , [mw] "+m"(mw), [mout] "+m"(mout), [mmult] "+m"(mmult),
            [mshift] "+m"(mshift), [mbias] "+m"(mbias))
      : [st] "r"(st)TFLC__DSP_AGCC(
          , [mx] "m"(mx), [mend] "m"(mend), [midx] "m"(midx), [mpad] "m"(mpad),
          [morow] "m"(morow), [moff2] "m"(moff2))
      : "cc", "memory");
#undef TFLC__DSP_STEP_WIDE
#undef TFLC__DSP_REQ_WIDE
#undef TFLC__DSP_PRM_WIDE
#undef TFLC__DSP_OUT_WIDE
#undef TFLC__DSP_NEXT_WIDE
#undef TFLC__DSP_STEP_PRM_WIDE
}
#undef TFLC__DSP_M_X
#undef TFLC__DSP_M_W
#undef TFLC__DSP_M_OUT
#undef TFLC__DSP_M_MULT
#undef TFLC__DSP_M_SHIFT
#undef TFLC__DSP_M_BIAS
#undef TFLC__DSP_M_END
#undef TFLC__DSP_M_IDX
#undef TFLC__DSP_M_PAD
#undef TFLC__DSP_M_OROW
#undef TFLC__DSP_M_OFF2
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
#endif

/* Every window of a small filter whose depth D (5..28) is no multiple of
 * four copied and widened to 16-bit lanes (tflc__dsp_windows_wide), two
 * pixels at a time, against every column pair of the chunk with the
 * weights read in place (tflc__dsp_wide_asm; a last single column or
 * pixel through tflc__dsp_wide_blocks), the biases with the offset folded
 * in. Returns 0 (nothing written) where the depth is not for it, or the
 * requantization not tflc__dsp_wide_asm's (every channel simple, sums
 * within tflc__dsp_fits30, outputs saturating to int8), or without the
 * assembly (the C blocks only for tests/test_platform.c). */
static TFLC__NOINLINE int tflc__conv2d_s8_im2col_dsp(tflc__conv_blocked *s) {
  uint32_t col[TFLC__DSP_WIN_WORDS];
  const int32_t depth = s->depth, steps = (depth + 3) >> 2;
  const int32_t total = s->batches * s->g.oh * s->g.ow;
  const int mode = tflc__dsp_mode(&s->rq);
  int32_t q, c;
#if !defined(TFLC__DSP_ASM) && !defined(TFLC_CONV_WIDE_TEST)
  return 0; /* (the C blocks take longer than the split windows' GEMM) */
#endif
  if (depth < 5 || depth > 28 ||
      16 * steps - 24 + depth > 4 * TFLC__DSP_WIN_WORDS || mode != 2)
    return 0;
  for (c = 0; c < s->nc; c++) {
    tflc__dsp_requant f;
    if (!tflc__dsp_requant_init(&f, s->rq.multiplier[c], s->rq.shift[c]) ||
        !f.simple || !tflc__dsp_fits30((uint32_t)s->bias[c], 4 * steps))
      return 0;
  }
  for (q = 0; q < total; q += 2) {
    const int two_r = q + 1 < total;
    int8_t *const o = s->out + (ptrdiff_t)q * s->cout + s->c0;
    tflc__dsp_windows_wide(s, q, two_r ? q + 1 : q, col, steps);
    c = 0;
#if defined(TFLC__DSP_ASM)
    if (two_r && s->nc >= 2) {
      tflc__dsp_wide_asm(s, col, steps, o, s->nc / 2);
      c = s->nc & ~1;
    }
#endif
    if (c < s->nc)
      tflc__dsp_wide_blocks(s, col, c, steps, o, two_r, mode);
  }
  return 1;
}
#endif

/* The last row of an odd number of rows that tflc__dsp_gemm_pre or
 * tflc__dsp_pw_pairs left, its columns [c0, c0 + n): the single-row path,
 * four columns a pass (the inputs widened once for four weight rows), in
 * a frame of its own. rq's requantization is the DSP's fast one
 * (tflc__dsp_mode 1 or 2). */
static TFLC__NOINLINE void
tflc__dsp_gemm_last_row(const tflc_requant_params *rq, const tflc_gemm_block *g,
                        int32_t c0, int32_t n) {
  const tflc_requant_params rc = tflc__requant_at(rq, c0);
  tflc_gemm_block last = *g;
  int32_t c;
  last.rows = 1;
  last.cols = n;
  last.a = g->a + (ptrdiff_t)(g->rows - 1) * g->a_row;
  last.w = g->w + (ptrdiff_t)c0 * g->w_col;
  last.out = g->out + (ptrdiff_t)(g->rows - 1) * g->out_row + c0;
  c = tflc__dsp_gemm_row(&rc, &last);
  if (c < n)
    tflc__dsp_gemm_pairs(&rc, &last, c,
                         rq->act_min == -128 && rq->act_max == 127 ? 2 : 1);
}

#if defined(TFLC__DSP_ASM)
/* The pairs of columns from c0 of tflc__dsp_gemm_pointwise's blocks, all
 * rows but the last of an odd number, up to c1 or the next pair after c0
 * that tflc__dsp_pre_cols takes (outputs saturated to int8): through
 * tflc__dsp_pw_wide_asm where the outputs saturate to int8 and the right
 * shifts go beyond 23, otherwise from tflc__dsp_pairs_asm's sums. Returns
 * the first column not done: c1, that pair's, or that of a pair whose
 * requantization is not the DSP's. */
static TFLC__NOINLINE int32_t tflc__dsp_pw_pairs(const tflc_requant_params *rq,
                                                 const tflc_gemm_block *g,
                                                 int32_t c0, int32_t c1) {
  uint32_t sums[4 * TFLC__DSP_PAIRS];
  const int32_t rows = g->rows, n4 = g->seg_len;
  const int32_t stride = g->a_row, out_row = g->out_row;
  const int32_t out_off = rq->output_offset, lo = rq->act_min, hi = rq->act_max;
  const int mode = tflc__dsp_mode(rq);
  const int sat8 = mode == 2;
  int32_t c, r, i, np;
  for (c = c0; c < c1; c += 2) {
    const int8_t *w0 = g->w + (ptrdiff_t)c * stride;
    const int32_t k0 = rq->per_channel ? c : 0;
    const int32_t k1 = rq->per_channel ? c + 1 : 0;
    const uint32_t b0 = rq->bias != NULL ? (uint32_t)rq->bias[c] : 0u;
    const uint32_t b1 = rq->bias != NULL ? (uint32_t)rq->bias[c + 1] : 0u;
    tflc__dsp_requant f[2];
    int8_t *o = g->out + c;
    int simple, wide = 0;
    if (c > c0 && sat8 &&
        tflc__dsp_pre_cols(rq, c, tflc__dsp_pre_lim(n4), out_row, sums))
      return c;
    if (!tflc__dsp_requant_init(&f[0], rq->multiplier[k0], rq->shift[k0]) ||
        !tflc__dsp_requant_init(&f[1], rq->multiplier[k1], rq->shift[k1]))
      return c;
    simple = TFLC__DSP_SIMPLE2(f[0], f[1]);
    if (sat8 && f[0].left == 0 && f[1].left == 0 && f[0].right > 0 &&
        f[1].right > 0) {
      /* a right shift beyond 23: the wide requantization in the loop */
      for (i = 0; i < 2; i++) {
        const uint32_t pre = f[i].right > 23 ? f[i].right - 23 : 0;
        sums[3 * i] = (uint32_t)f[i].q;
        sums[3 * i + 1] = (1u << (f[i].right - pre - 1)) +
                          ((uint32_t)out_off << (f[i].right - pre));
        sums[3 * i + 2] = pre;
        sums[9 + i] = f[i].right - pre;
      }
      sums[6] = (uint32_t)out_row;
      sums[7] = b0;
      sums[8] = b1;
      tflc__dsp_pw_wide_asm(g->a, w0, stride, n4, rows / 2, o, sums);
      wide = 1;
    }
    for (r = wide ? rows & ~1 : 0; r + 1 < rows; r += 2 * np) {
      const int32_t left = (rows - r) / 2;
      np = left < TFLC__DSP_PAIRS ? left : TFLC__DSP_PAIRS;
      tflc__dsp_pairs_asm(g->a + (ptrdiff_t)r * stride, w0, stride, n4, np, b0,
                          b1, sums);
      for (i = 0; i < 4 * np; i++) /* (sums of row i / 2, column i & 1) */
        o[(i >> 1) * out_row + (i & 1)] =
            tflc__dsp_out(f[i & 1], sums[i], out_off, lo, hi, sat8, simple);
      o += 2 * np * out_row;
    }
  }
  return c1;
}

/* The output of sum s through column words p (tflc__dsp_pre_cols'): the
 * requantization of TFLC__DSP_REQ_PW in C, so the same bytes (|s| < 2^30:
 * SMMULR of twice it is the doubling high product). */
TFLC__INLINE int8_t tflc__dsp_pw_req(uint32_t s, const uint32_t *p) {
  int32_t v;
  __asm__("smmulr %0, %1, %2" : "=r"(v) : "r"(s + s), "r"(p[0]));
  return (int8_t)tflc__ssat8(tflc__asr32(
      tflc__qadd(v, tflc__wrap32((int64_t)(p[1] - ((uint32_t)v >> 31)))),
      (int)p[2]));
}

/* Four columns c .. c + 3 (n = 4) or two (n = 2) of
 * tflc__dsp_gemm_pointwise's blocks through tflc__dsp_pw_sat_asm, rows
 * in pairs, where tflc__dsp_pre_cols takes their pairs (outputs saturated
 * to int8), and with four columns the last of an odd number of rows as
 * one 1 x 4 group of tflc__dsp_row_groups_asm requantized from the same
 * words. Returns 0 (nothing done: the first pair not taken), 2 (the first
 * pair, its last row not) or 4 (both pairs and the last row). */
static TFLC__NOINLINE int32_t tflc__dsp_pw_group(const tflc_requant_params *rq,
                                                 const tflc_gemm_block *g,
                                                 int32_t c, int32_t n) {
  /* pair i's words for tflc__dsp_pw_sat_asm at p + 11 i; the biases
   * then copied to p[7..10] for the last row's sums */
  uint32_t p[20];
  const int32_t rows = g->rows, n4 = g->seg_len, stride = g->a_row;
  const uint32_t lim = tflc__dsp_pre_lim(n4);
  if (!tflc__dsp_pre_cols(rq, c, lim, g->out_row, p))
    return 0;
  tflc__dsp_pw_sat_asm(g, c, p);
  if (n == 2 || !tflc__dsp_pre_cols(rq, c + 2, lim, g->out_row, p + 11))
    return 2;
  tflc__dsp_pw_sat_asm(g, c + 2, p + 11);
  if ((rows & 1) != 0) {
    int8_t *o = g->out + (ptrdiff_t)(rows - 1) * g->out_row + c;
    p[9] = p[18];
    p[10] = p[19];
    tflc__dsp_row_groups_asm(g->a + (ptrdiff_t)(rows - 1) * stride,
                             g->w + (ptrdiff_t)c * stride, stride, n4, 0, 1,
                             p + 7);
    o[0] = tflc__dsp_pw_req(p[7], p);
    o[1] = tflc__dsp_pw_req(p[8], p + 3);
    o[2] = tflc__dsp_pw_req(p[9], p + 11);
    o[3] = tflc__dsp_pw_req(p[10], p + 14);
  }
  return n;
}

/* The pointwise fast path of the DSP GEMM: one segment of a multiple of
 * four values, no offset, the second input row and weight row the same
 * distance after the first (pointwise convolutions, fully connected
 * layers with several batches), an even number of columns. Four columns
 * at a time through tflc__dsp_pw_group, the runs of pairs it does not
 * take through tflc__dsp_pw_pairs, their last row (of an odd number) in
 * runs through tflc__dsp_gemm_last_row. Returns the columns done, every
 * row of them: all, 0 when the block is not for it, or those before the
 * first pair that tflc__dsp_pw_pairs does not take (the caller's general
 * path does the rest). */
static TFLC__NOINLINE int32_t tflc__dsp_gemm_pointwise(
    const tflc_requant_params *rq, const tflc_gemm_block *g) {
  const int32_t rows = g->rows, cols = g->cols, n4 = g->seg_len;
  const int mode = tflc__dsp_mode(rq);
  int32_t c = 0, pend = 0; /* pend: the first column of the last row to do */
  if (g->segments != 1 || g->a_offset != 0 || n4 <= 0 || (n4 & 3) != 0 ||
      rows < 2 || cols < 2 || (cols & 1) != 0 || g->w_col != g->a_row ||
      mode == 0)
    return 0;
  while (c < cols) {
    const int32_t k =
        mode == 2 ? tflc__dsp_pw_group(rq, g, c, cols - c < 4 ? 2 : 4) : 0;
    if (k == 4 && (rows & 1) != 0) {
      if (pend < c)
        tflc__dsp_gemm_last_row(rq, g, pend, c - pend);
      pend = c + 4;
    }
    c += k;
    if (k < 4 && c < cols) {
      const int32_t next = tflc__dsp_pw_pairs(rq, g, c, cols);
      if (next == c)
        break;
      c = next;
    }
  }
  if ((rows & 1) != 0 && pend < c)
    tflc__dsp_gemm_last_row(rq, g, pend, c - pend);
  return c;
}
#endif

TFLC_API void tflc_gemm_s8_dsp(const tflc_requant_params *rq,
                               const tflc_gemm_block *g) {
  const int mode = tflc__dsp_mode(rq);
  int32_t c = 0;
  if (g->a_offset < -32640 || g->a_offset > 32640 || mode == 0) {
    /* inputs beyond 16-bit lanes, or an offset or clamp beyond int8 */
    tflc_gemm_s8_portable(rq, g);
    return;
  }
  if (g->rows == 1 && g->cols >= 4)
    c = tflc__dsp_gemm_row(rq, g);
  else {
    /* (the widened weights' main conditions seen before the call) */
    if (mode == 2 && g->segments == 1 &&
        ((g->seg_len & 15) == 0 || g->seg_len == 8) &&
        g->seg_len <= TFLC__DSP_PRE_MAX && g->w_col == g->a_row)
      c = tflc__dsp_gemm_pre(rq, g);
#if defined(TFLC__DSP_ASM)
    if (c == 0)
      c = tflc__dsp_gemm_pointwise(rq, g); /* (with its last row) */
    else if (g->rows & 1)
      tflc__dsp_gemm_last_row(rq, g, 0, g->cols); /* (every column's) */
#else
    if (c > 0 && (g->rows & 1))
      tflc__dsp_gemm_last_row(rq, g, 0, g->cols); /* (every column's) */
#endif
  }
  if (c < g->cols)
    tflc__dsp_gemm_pairs(rq, g, c, mode);
}

/* Four channels [c, c + 4) of a depthwise block, with their prepared
 * requantizations (r only used in mode 0). One copy for every case: the
 * offset pair added to the widened inputs (zero without an offset), with
 * broadcast one input channel for the four, its value in both halfwords.
 * The layer paths take the common layers, this the others. */
static TFLC__NOINLINE void tflc__depthwise4_dsp(const tflc_requant_params *rq,
                                                const tflc_depthwise_block *b,
                                                int32_t c,
                                                const tflc__dsp_requant *f,
                                                int sat8, int broadcast) {
  const int simple =
      TFLC__DSP_SIMPLE2(f[0], f[1]) && TFLC__DSP_SIMPLE2(f[2], f[3]);
  const int32_t rows = b->rows, cols = b->cols;
  const int32_t x_col = b->x_col, w_col = b->w_col;
  const int32_t out_off = rq->output_offset, lo = rq->act_min, hi = rq->act_max;
  const uint32_t off2 = ((uint32_t)b->x_offset & 0xFFFFu) * 0x10001u;
  uint32_t bias[4];
  int32_t j, p, y, x;
  for (j = 0; j < 4; j++)
    bias[j] = rq->bias != NULL ? (uint32_t)rq->bias[c + j] : 0u;
  const int8_t *xp = b->x + (broadcast ? c / b->multiplier : c);
  int8_t *o = b->out + c;
  for (p = 0; p < b->pixels; p++, xp += b->x_pixel, o += b->out_pixel) {
    uint32_t s0 = bias[0], s1 = bias[1], s2 = bias[2], s3 = bias[3];
    for (y = 0; y < rows; y++) {
      const int8_t *xt = xp + (ptrdiff_t)y * b->x_row;
      const int8_t *wt = b->w + (ptrdiff_t)y * b->w_row + c;
      for (x = 0; x < cols; x++, xt += x_col, wt += w_col) {
        const uint32_t wv = tflc__load4(wt);
        const uint32_t wl = tflc__sxtb16(wv), wh = tflc__sxtb16_ror8(wv);
        uint32_t xl, xh;
        if (broadcast) {
          xl = xh = (((uint32_t)(int32_t)*xt + off2) & 0xFFFFu) * 0x10001u;
        } else {
          const uint32_t xv = tflc__load4(xt);
          xl = tflc__sxtab16(off2, xv);
          xh = tflc__sxtab16_ror8(off2, xv);
        }
        s0 = tflc__smlabb(xl, wl, s0);
        s2 = tflc__smlatt(xl, wl, s2);
        s1 = tflc__smlabb(xh, wh, s1);
        s3 = tflc__smlatt(xh, wh, s3);
      }
    }
    {
      const uint32_t s[4] = {s0, s1, s2, s3};
      for (j = 0; j < 4; j++)
        o[j] = tflc__dsp_out(f[j], s[j], out_off, lo, hi, sat8, simple);
    }
  }
}

/* Channels [c, c + n) of a depthwise block through the portable
 * primitive (the last channels, or parameters the DSP requantization does
 * not cover). */
static TFLC__NOINLINE void
tflc__dsp_depthwise_portable(const tflc_requant_params *rq,
                             const tflc_depthwise_block *b, int32_t c,
                             int32_t n) {
  tflc_depthwise_block sub = *b;
  tflc_requant_params rc = tflc__requant_at(rq, c);
  sub.channels = n;
  sub.x += c / b->multiplier;
  sub.w += c;
  sub.out += c;
  tflc_depthwise_s8_portable(&rc, &sub);
}

/* Channels [c, c + 4) of a depthwise block with any requantization (the
 * portable primitive for those the DSP one does not cover). Kept out of
 * the caller's frame. */
static TFLC__NOINLINE void
tflc__dsp_depthwise4_general(const tflc_requant_params *rq,
                             const tflc_depthwise_block *b, int32_t c,
                             int mode) {
  tflc__dsp_requant f[4];
  int ok = 1, j;
  for (j = 0; j < 4; j++) {
    const int32_t k = rq->per_channel ? c + j : 0;
    ok &= tflc__dsp_requant_init(&f[j], rq->multiplier[k], rq->shift[k]);
  }
  if (!ok)
    tflc__dsp_depthwise_portable(rq, b, c, 4);
  else
    tflc__depthwise4_dsp(rq, b, c, f, mode == 2, b->multiplier != 1);
}

/* 3x3 depthwise runs of four channels (of tflc__dsp_dw3x3_layer) without
 * an input offset (the offset folded into the biases), with simple
 * requantizations (multipliers q, right shifts 1..23) and biases within
 * +-(2^30 - 9 * 2^14). The weights are sign-extended once per run
 * into halfword pairs (channels 0 and 2 of tap t, then 1 and 3), so a tap
 * costs one word of input, its two SXTB16, one LDRD of the pair and four
 * multiply-accumulates.
 *
 * Weights and biases are doubled: the sums are then twice the
 * accumulator, exactly (|acc| < 2^30 by the bias bound), and
 * SMMULR(2 acc, q) = (acc q + 2^30) >> 31, the doubling high multiply in
 * one instruction. The output offset rides in the nudge as
 * offset << right: where the sum does not saturate the shift gives the
 * same integer plus the offset, and where either saturates (right <= 23)
 * both results lie beyond int8 on the same side, so the final
 * saturation (and clamp within int8) agrees.
 *
 * The frame of a run; on 32-bit targets its byte offsets are the
 * assembly's (tflc__dw3_frame32_matches). */
typedef struct tflc__dw3_frame {
  uint32_t w[18];    /* 0: doubled weight pairs of the nine taps */
  uint32_t bias[4];  /* 72: doubled biases */
  uint32_t qn[12];   /* 88: multiplier, nudge (with the offset), right */
  int32_t x_next;    /* 136: third tap of a row to the first of the next */
  const int8_t *x;   /* 140: tap (0, 0) of the first pixel */
  int32_t x_pixel;   /* 144 */
  int8_t *out;       /* 148 */
  int32_t out_pixel; /* 152 */
  int32_t pixels;    /* 156: a row's (at least 1; the assembly turns it
                      * into the row's output end, out + pixels * out_pixel) */
  uint32_t lo4, hi4; /* 160, 164: the clamp, its byte in every lane */
  uint32_t clamp;    /* 168: 0 where the clamp is the whole int8 range */
  int32_t rows;      /* 172: rows of `pixels` pixels (at least 1) */
  int32_t x_skip;    /* 176: x after a row's last pixel to the next row's */
  int32_t out_skip;  /* 180: out likewise */
  int32_t row_bytes; /* 184, 188: the assembly's (pixels * out_pixel; */
  int32_t step;      /* x_pixel less the two rows of taps) */
} tflc__dw3_frame;

/* The frame's weights (w: tap (0, 0) of channel 0, taps w_row and w_col
 * apart); the sums of the doubled weights of channels 0 and 2 (halfword
 * lanes) go to lo4, those of channels 1 and 3 to hi4, until the clamp
 * replaces them (|sum| <= 2 * 9 * 128: no lane overflows). */
TFLC__INLINE void tflc__dsp_dw3x3_weights(tflc__dw3_frame *k, const int8_t *w,
                                          int32_t w_row, int32_t w_col) {
  uint32_t *d = k->w, s02 = 0, s13 = 0;
  int32_t y;
  for (y = 0; y < 3; y++, w += w_row, d += 6) {
    const uint32_t v0 = tflc__load4(w), v1 = tflc__load4(w + w_col);
    const uint32_t v2 = tflc__load4(w + 2 * w_col);
    const uint32_t l0 = tflc__sxtb16(v0), h0 = tflc__sxtb16_ror8(v0);
    const uint32_t l1 = tflc__sxtb16(v1), h1 = tflc__sxtb16_ror8(v1);
    const uint32_t l2 = tflc__sxtb16(v2), h2 = tflc__sxtb16_ror8(v2);
    d[0] = tflc__sadd16(l0, l0);
    d[1] = tflc__sadd16(h0, h0);
    d[2] = tflc__sadd16(l1, l1);
    d[3] = tflc__sadd16(h1, h1);
    d[4] = tflc__sadd16(l2, l2);
    d[5] = tflc__sadd16(h2, h2);
    s02 = tflc__sadd16(s02, tflc__sadd16(tflc__sadd16(l0, l1), l2));
    s13 = tflc__sadd16(s13, tflc__sadd16(tflc__sadd16(h0, h1), h2));
  }
  k->lo4 = tflc__sadd16(s02, s02);
  k->hi4 = tflc__sadd16(s13, s13);
}

#if defined(TFLC__DSP_ASM) &&                                                  \
    (defined(TFLC__DEPTHWISE_LAYER_S8_IS_DSP) || defined(TFLC_DW3_LAYER_TEST))
typedef char
    tflc__dw3_frame32_matches[offsetof(tflc__dw3_frame, x_next) == 136 &&
                                      offsetof(tflc__dw3_frame, x) == 140 &&
                                      offsetof(tflc__dw3_frame, out) == 148 &&
                                      offsetof(tflc__dw3_frame, lo4) == 160 &&
                                      offsetof(tflc__dw3_frame, clamp) == 168 &&
                                      offsetof(tflc__dw3_frame, x_skip) ==
                                          176 &&
                                      offsetof(tflc__dw3_frame, step) == 188
                                  ? 1
                                  : -1];
/* The run of frame k in assembly: twelve registers (-fno-omit-frame-pointer
 * builds keep r7; wl one of r0-r7 for CBZ), the rest in the frame. The
 * input pointer stays in xt from pixel to pixel (and row to row). A
 * pixel's four outputs are packed into one word (BFI), clamped lane by
 * lane (SSUB8 + SEL against the clamp's bytes; skipped by one CBZ for the
 * whole int8 range) and stored at once: one loop for every clamp. */
/* clang-format off */
#define TFLC__DW3_TAP4(xaddr, woff)                                             \
  "ldr %[xv], " xaddr "\n"                                                     \
  "ldrd %[wl], %[wh], [%[k], #" woff "]\n"                                     \
  "sxtb16 %[xl], %[xv]\n"                                                      \
  "sxtb16 %[xv], %[xv], ror #8\n"                                              \
  "smlabb %[s0], %[xl], %[wl], %[s0]\n"                                        \
  "smlatt %[s2], %[xl], %[wl], %[s2]\n"                                        \
  "smlabb %[s1], %[xv], %[wh], %[s1]\n"                                        \
  "smlatt %[s3], %[xv], %[wh], %[s3]\n"
/* one input byte for the four channels: LDRSB, then the byte's products
 * by both halfwords of the weight pairs (SMLABB, SMLABT) */
#define TFLC__DW3_TAP1(xaddr, woff)                                            \
  "ldrsb %[xl], " xaddr "\n"                                                   \
  "ldrd %[wl], %[wh], [%[k], #" woff "]\n"                                     \
  "smlabb %[s0], %[xl], %[wl], %[s0]\n"                                        \
  "smlabt %[s2], %[xl], %[wl], %[s2]\n"                                        \
  "smlabb %[s1], %[xl], %[wh], %[s1]\n"                                        \
  "smlabt %[s3], %[xl], %[wh], %[s3]\n"
#define TFLC__DW3_ROW(TAP, w0, w1, w2)                                         \
  TAP("[%[xt]]", w0)                                                           \
  TAP("[%[xt], %[xc]]", w1)                                                    \
  TAP("[%[xt], %[xc], lsl #1]", w2)
/* two channels' requantizations from their six words at qn (the second's
 * multiplier loaded with the first's right shift) */
#define TFLC__DW3_OUT2(sa, sb, qn, rq, nr)                                     \
  "ldrd %[wl], %[wh], [%[k], #" qn "]\n"                                       \
  "smmulr " sa ", " sa ", %[wl]\n"                                             \
  "sub %[wh], %[wh], " sa ", lsr #31\n"                                        \
  "qadd " sa ", " sa ", %[wh]\n"                                               \
  "ldrd %[wl], %[wh], [%[k], #" rq "]\n"                                       \
  "asr " sa ", " sa ", %[wl]\n"                                                \
  "ssat " sa ", #8, " sa "\n"                                                  \
  "smmulr " sb ", " sb ", %[wh]\n"                                             \
  "ldrd %[wl], %[wh], [%[k], #" nr "]\n"                                       \
  "sub %[wl], %[wl], " sb ", lsr #31\n"                                        \
  "qadd " sb ", " sb ", %[wl]\n"                                               \
  "asr " sb ", " sb ", %[wh]\n"                                                \
  "ssat " sb ", #8, " sb "\n"
#define TFLC__DW3_LOOP(name, TAP)                                               \
  static TFLC__NOINLINE void name(tflc__dw3_frame *k, int32_t x_col) {          \
    uint32_t s0, s1, s2, s3, xv, xl, wl, wh;                                    \
    const int8_t *xt;                                                           \
    const int32_t x_row = k->x_next + 2 * x_col; /* tap (r, 0) to (r + 1, 0) */ \
    __asm__ volatile(                                                           \
        "ldr %[xt], [%[k], #140]\n"                                             \
        "ldrd %[xl], %[wh], [%[k], #148]\n"                                     \
        "ldr %[wl], [%[k], #156]\n"                                             \
        "mul %[wh], %[wl], %[wh]\n"                                             \
        "str %[wh], [%[k], #184]\n"                                             \
        "add %[wl], %[xl], %[wh]\n"                                             \
        "str %[wl], [%[k], #156]\n"                                             \
        "ldr %[wl], [%[k], #144]\n"                                             \
        "sub %[wl], %[wl], %[xn], lsl #1\n"                                     \
        "str %[wl], [%[k], #188]\n"                                             \
        "1:\n"                                                                  \
        "ldrd %[s0], %[s1], [%[k], #72]\n"                                      \
        "ldrd %[s2], %[s3], [%[k], #80]\n"                                      \
        TFLC__DW3_ROW(TAP, "0", "8", "16")                                      \
        "add %[xt], %[xt], %[xn]\n"                                             \
        TFLC__DW3_ROW(TAP, "24", "32", "40")                                    \
        "add %[xt], %[xt], %[xn]\n"                                             \
        TFLC__DW3_ROW(TAP, "48", "56", "64")                                    \
        "ldr %[wl], [%[k], #188]\n"                                             \
        "add %[xt], %[xt], %[wl]\n"                                             \
        TFLC__DW3_OUT2("%[s0]", "%[s1]", "88", "96", "104")                     \
        TFLC__DW3_OUT2("%[s2]", "%[s3]", "112", "120", "128")                   \
        "bfi %[s0], %[s1], #8, #8\n"                                            \
        "bfi %[s0], %[s2], #16, #8\n"                                           \
        "bfi %[s0], %[s3], #24, #8\n"                                           \
        "ldr %[wl], [%[k], #168]\n"                                             \
        "cbz %[wl], 2f\n"                                                       \
        "ldrd %[wl], %[wh], [%[k], #160]\n"                                     \
        "ssub8 %[xv], %[s0], %[wl]\n"                                           \
        "sel %[s0], %[s0], %[wl]\n"                                             \
        "ssub8 %[xv], %[s0], %[wh]\n"                                           \
        "sel %[s0], %[wh], %[s0]\n"                                             \
        "2:\n"                                                                  \
        "ldrd %[xl], %[wh], [%[k], #148]\n"                                     \
        "str %[s0], [%[xl]]\n"                                                  \
        "add %[xl], %[xl], %[wh]\n"                                             \
        "str %[xl], [%[k], #148]\n"                                             \
        "ldr %[wl], [%[k], #156]\n"                                             \
        "cmp %[xl], %[wl]\n"                                                    \
        "bne 1b\n"                                                              \
        /* the row's end: the next row, if any */                               \
        "ldr %[wl], [%[k], #172]\n"                                             \
        "subs %[wl], %[wl], #1\n"                                               \
        "beq 3f\n"                                                              \
        "str %[wl], [%[k], #172]\n"                                             \
        "ldrd %[wl], %[wh], [%[k], #176]\n"                                     \
        "add %[xt], %[xt], %[wl]\n"                                             \
        "add %[xl], %[xl], %[wh]\n"                                             \
        "str %[xl], [%[k], #148]\n"                                             \
        "ldr %[wh], [%[k], #184]\n"                                             \
        "add %[wl], %[xl], %[wh]\n"                                             \
        "str %[wl], [%[k], #156]\n"                                             \
        "b 1b\n"                                                                \
        "3:\n"                                                                  \
        : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),       \
          [xt] "=&r"(xt), [xv] "=&r"(xv), [xl] "=&r"(xl), [wl] "=&l"(wl),       \
          [wh] "=&r"(wh)                                                        \
        : [xc] "r"(x_col), [xn] "r"(x_row), [k] "r"(k)                          \
        : "cc", "memory");                                                      \
    (void)s0;                                                                   \
    (void)s1;                                                                   \
    (void)s2;                                                                   \
    (void)s3;                                                                   \
    (void)xv;                                                                   \
    (void)xl;                                                                   \
    (void)wl;                                                                   \
    (void)wh;                                                                   \
    (void)xt;                                                                   \
  }
/* clang-format on */
TFLC__DW3_LOOP(tflc__dsp_dw3x3_loop, TFLC__DW3_TAP4)
TFLC__DW3_LOOP(tflc__dsp_dw3x3_loop1, TFLC__DW3_TAP1)
#undef TFLC__DW3_LOOP
#undef TFLC__DW3_ROW
#undef TFLC__DW3_TAP1
#undef TFLC__DW3_TAP4
#else
/* A pixel's four outputs of the doubled sums s in C (the 3x3 frame's runs
 * and those of rows of 5 or 7 taps): the requantization words qn, the
 * clamp lane by lane as SSUB8 + SEL do it (lo4, hi4: its byte in every
 * lane; clamp 0: the whole int8 range) */
TFLC__INLINE void tflc__dsp_dw_out_c(const uint32_t *s, const uint32_t *qn,
                                     uint32_t lo4, uint32_t hi4, uint32_t clamp,
                                     int8_t *o) {
  const int32_t lo = (int32_t)(int8_t)(uint8_t)(lo4 & 0xFFu);
  const int32_t hi = (int32_t)(int8_t)(uint8_t)(hi4 & 0xFFu);
  int32_t j;
  for (j = 0; j < 4; j++) {
    int32_t v = tflc__smmulr(tflc__wrap32((int64_t)s[j]), (int32_t)qn[3 * j]);
    v = tflc__qadd(
        v, tflc__wrap32((int64_t)qn[3 * j + 1] - (int64_t)((uint32_t)v >> 31)));
    v = tflc__ssat8(tflc__asr32(v, (int)qn[3 * j + 2]));
    if (clamp != 0) {
      v = v >= lo ? v : lo;
      v = v >= hi ? hi : v;
    }
    o[j] = (int8_t)v;
  }
}

/* The same run in C with the DSP intrinsics (SMMULR as above, the clamp
 * lane by lane as SSUB8 + SEL do it): what TFLC_NO_DSP_ASM builds and the
 * DSP emulation on other hosts run (tests/test_platform.c through the layer
 * paths). */
TFLC__INLINE void tflc__dsp_dw3x3_run(tflc__dw3_frame *k, int32_t x_col,
                                      int one) {
  const int32_t x_next = k->x_next, x_pixel = k->x_pixel;
  const int32_t out_pixel = k->out_pixel;
  const int8_t *x = k->x;
  int8_t *o = k->out, *end = o + (ptrdiff_t)k->pixels * out_pixel;
  int32_t rows = k->rows;
  for (;;) {
    const int8_t *xt = x;
    const uint32_t *w = k->w;
    uint32_t s[4];
    int32_t r, t;
    s[0] = k->bias[0];
    s[1] = k->bias[1];
    s[2] = k->bias[2];
    s[3] = k->bias[3];
    for (r = 0; r < 3; r++, xt += 2 * x_col + x_next)
      for (t = 0; t < 3; t++, w += 2) {
        const int8_t *xr = xt + (ptrdiff_t)t * x_col;
        /* one: the byte in both halfwords (LDRSB, SMLABB and SMLABT) */
        const uint32_t x1 = ((uint32_t)(int32_t)*xr & 0xFFFFu) * 0x10001u;
        const uint32_t xv = one ? 0u : tflc__load4(xr);
        const uint32_t xl = one ? x1 : tflc__sxtb16(xv);
        const uint32_t xh = one ? x1 : tflc__sxtb16_ror8(xv);
        s[0] = tflc__smlabb(xl, w[0], s[0]);
        s[2] = tflc__smlatt(xl, w[0], s[2]);
        s[1] = tflc__smlabb(xh, w[1], s[1]);
        s[3] = tflc__smlatt(xh, w[1], s[3]);
      }
    tflc__dsp_dw_out_c(s, k->qn, k->lo4, k->hi4, k->clamp, o);
    x += x_pixel;
    o += out_pixel;
    if (o != end)
      continue;
    if (--rows == 0)
      break;
    x += k->x_skip; /* the next row */
    o += k->out_skip;
    end = o + (ptrdiff_t)k->pixels * out_pixel;
  }
}
#if defined(TFLC__DEPTHWISE_LAYER_S8_IS_DSP) || defined(TFLC_DW3_LAYER_TEST)
/* the two kinds */
static TFLC__NOINLINE void tflc__dsp_dw3x3_loop(tflc__dw3_frame *k,
                                                int32_t x_col) {
  tflc__dsp_dw3x3_run(k, x_col, 0);
}
static TFLC__NOINLINE void tflc__dsp_dw3x3_loop1(tflc__dw3_frame *k,
                                                 int32_t x_col) {
  tflc__dsp_dw3x3_run(k, x_col, 1);
}
#endif
#endif

#if defined(TFLC__DEPTHWISE_LAYER_S8_IS_DSP) || defined(TFLC_DW3_LAYER_TEST)
/* words of the zero-point-padded band of input rows (on the stack) */
#define TFLC__DW3_BAND 80

/* The frame of output channels [c, c + 4) of a layer (ch channels): the
 * filter's taps (LUT-compressed ones decoded into the frame's
 * requantizations, written after the weights), the input offset folded
 * into the biases with the doubled weight sums (|sum| <= 2 * 9 * 128 fits
 * a halfword lane). Out of line: its temporaries stay out of the layer's
 * frame. */
static TFLC__NOINLINE void tflc__dsp_dw3x3_block(tflc__dw3_frame *k,
                                                 const tflc_conv_params *p,
                                                 const tflc_const *filter,
                                                 const tflc_const *bias,
                                                 int32_t c, int32_t ch) {
  /* the offset in both halfword lanes (|offset| <= 128) */
  const uint32_t off2 = ((uint32_t)p->input_offset & 0xFFFFu) * 0x10001u;
  const int32_t out_off = p->output_offset;
  int32_t j;
  if (TFLC__COMPRESSION && filter->bits != 0) {
    tflc__lut_decode_rows(filter, c, ch, 4, 9, k->qn);
    tflc__dsp_dw3x3_weights(k, (const int8_t *)k->qn, 12, 4);
  } else {
    tflc__dsp_dw3x3_weights(k, (const int8_t *)filter->data + c, 3 * ch, ch);
  }
  if (bias != NULL && bias->bits == 0 && bias->type == TFLC_INT32) {
    /* (aligned: the model's misaligned constants are copied at init) */
    const uint32_t *b = (const uint32_t *)bias->data + c;
    k->bias[0] = b[0];
    k->bias[1] = b[1];
    k->bias[2] = b[2];
    k->bias[3] = b[3];
  } else {
    for (j = 0; j < 4; j++)
      k->bias[j] = (uint32_t)tflc__bias_at(bias, c + j);
  }
  /* doubled biases plus the offset times the doubled weight sums */
  k->bias[0] = tflc__smlabb(k->lo4, off2, k->bias[0] * 2u);
  k->bias[1] = tflc__smlabb(k->hi4, off2, k->bias[1] * 2u);
  k->bias[2] = tflc__smlatt(k->lo4, off2, k->bias[2] * 2u);
  k->bias[3] = tflc__smlatt(k->hi4, off2, k->bias[3] * 2u);
  for (j = 0; j < 4; j++) {
    const uint32_t right = (uint32_t)-p->out_shift[c + j];
    k->qn[3 * j] = (uint32_t)p->out_multiplier[c + j];
    k->qn[3 * j + 1] =
        ((uint32_t)1 << (right - 1)) + ((uint32_t)out_off << right);
    k->qn[3 * j + 2] = right;
  }
  /* the clamp's bytes; none for the whole int8 range (SSAT clamps) */
  k->lo4 = (uint32_t)(uint8_t)(int8_t)p->act_min * 0x01010101u;
  k->hi4 = (uint32_t)(uint8_t)(int8_t)p->act_max * 0x01010101u;
  k->clamp = (uint32_t)(p->act_min != -128 || p->act_max != 127);
  k->rows = 1;
}

/* The low halfwords of a and b as one word (a's low), and the high
 * halfwords (a's high low): PKHBT and PKHTB */
#if defined(TFLC_DSP_EMULATE) || !defined(__GNUC__)
TFLC__INLINE uint32_t tflc__pack_lo(uint32_t a, uint32_t b) {
  return (a & 0xFFFFu) | (b << 16);
}
TFLC__INLINE uint32_t tflc__pack_hi(uint32_t a, uint32_t b) {
  return (a >> 16) | (b & 0xFFFF0000u);
}
#else
/* one instruction each (gcc builds two from the C) */
TFLC__INLINE uint32_t tflc__pack_lo(uint32_t a, uint32_t b) {
  uint32_t r;
  __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
TFLC__INLINE uint32_t tflc__pack_hi(uint32_t a, uint32_t b) {
  uint32_t r;
  __asm__("pkhtb %0, %2, %1, asr #16" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
#endif

/* A rectangle of output pixels, [x0, x1) x [y0, y1), through bands of
 * `seg` output columns (whose windows cover (seg - 1) * sw + 3 words a
 * row) and `per` output rows */
typedef struct tflc__dw3_rect {
  int32_t x0, x1, y0, y1, seg, per;
} tflc__dw3_rect;

/* The bands of rectangle r (seg and per within the band's entries: words,
 * or bytes for one input channel); a rectangle of stride 1 one segment
 * wide whose band would hold one output row (three input rows) takes two
 * segments instead, whose bands hold three or more output rows: half the
 * entries copied an output pixel. Returns twice the instructions its
 * copies take, about (person_detect's layers on the Cortex-M4): 4.5 a word
 * and 200 a band. */
static TFLC__PREPARE_CODE int64_t tflc__dsp_dw3x3_plan(tflc__dw3_rect *r,
                                                       const tflc__geom *g,
                                                       int one) {
  const int32_t w = r->x1 - r->x0, h = r->y1 - r->y0;
  const int32_t cap = one ? 4 * TFLC__DW3_BAND : TFLC__DW3_BAND;
  int32_t seg = (cap / 3 - 3) / g->sw + 1, per;
  seg = seg < w ? seg : w;
  for (;;) {
    per = (cap / ((seg - 1) * g->sw + 3) - 3) / g->sh + 1;
    if (per != 1 || g->sh != 1 || seg != w)
      break;
    seg = (seg + 1) / 2;
  }
  r->seg = seg;
  r->per = per;
  /* (w, h < 2^30: maps of four channels or more) */
  return (int64_t)((w + seg - 1) / seg) * ((h + per - 1) / per) *
         (400 +
          ((per - 1) * g->sh + 3) * ((seg - 1) * g->sw + 3) * (one ? 3 : 9));
}

/* The output pixels of rectangle r, four channels (from in_n and out_n),
 * through bands: words of four channels, or (one) bytes of the input's
 * channel (tflc__dsp_dw3x3_loop1); first: the first bands of the layer or
 * of a rectangle (with one band for the whole rectangle its padding stays
 * from there). */
TFLC__INLINE void tflc__dsp_dw3x3_band_runs(tflc__dw3_frame *k, uint32_t *band,
                                            const tflc__geom *g,
                                            const int8_t *in_n, int8_t *out_n,
                                            int32_t ch, int32_t cin, int one,
                                            const tflc__dw3_rect *r,
                                            uint32_t pad, int first) {
  const int32_t seg = r->seg, per = r->per;
  const int32_t w = r->x1 - r->x0, h = r->y1 - r->y0;
  const int32_t all = (h - 1) * g->sh + 3; /* input rows the rectangle reads */
  const int32_t es = one ? 1 : 4;          /* bytes an entry */
  const int32_t cap = TFLC__DW3_BAND * 4 / es;
  const int refill = first || seg < w || per < h;
  uint8_t *b8 = (uint8_t *)band;
  int32_t sx, oy, j, t;
  for (sx = r->x0; sx < r->x1; sx += seg) {
    const int32_t nx = r->x1 - sx < seg ? r->x1 - sx : seg;
    const int32_t ix0 = sx * g->sw - g->pw, n = (nx - 1) * g->sw + 3;
    /* entries [lo, hi) of a row from the input, the others padding */
    const int32_t lo = -ix0 < 0 ? 0 : -ix0 < n ? -ix0 : n;
    const int32_t hi = g->w - ix0 < lo ? lo : g->w - ix0 < n ? g->w - ix0 : n;
    k->x_pixel = g->sw * es;
    k->out_pixel = ch;
    k->x_next = (n - 2) * es;
    /* (one segment: the same columns for every block) */
    for (j = 0; (seg < w || first) && j < cap / n && j < all; j++) {
      for (t = 0; t < lo; t++)
        if (one)
          b8[j * n + t] = (uint8_t)pad;
        else
          band[j * n + t] = pad;
      for (t = hi; t < n; t++)
        if (one)
          b8[j * n + t] = (uint8_t)pad;
        else
          band[j * n + t] = pad;
    }
    for (oy = r->y0; oy < r->y1; oy += per) {
      const int32_t rows = r->y1 - oy < per ? r->y1 - oy : per;
      const int32_t iy0 = oy * g->sh - g->ph;
      const int32_t in_rows = (rows - 1) * g->sh + 3;
      int32_t e = lo; /* the row's first entry from the input */
      /* the input rows [iy0, iy0 + in_rows), at a running offset */
      ptrdiff_t at = ((ptrdiff_t)iy0 * g->w + ix0 + lo) * cin;
      for (j = 0; j < in_rows; j++, e += n, at += (ptrdiff_t)g->w * cin) {
        const int8_t *src = in_n + at;
        int32_t left = hi - lo;
        if ((uint32_t)(iy0 + j) >= (uint32_t)g->h) {
          for (t = e; left > 0 && refill; left--, t++)
            if (one)
              b8[t] = (uint8_t)pad;
            else
              band[t] = pad;
        } else if (!one) {
          uint32_t *d = band + e;
          for (; left > 0; left--, src += cin)
            *d++ = tflc__load4(src);
        } else {
          uint8_t *d = b8 + e;
          if (cin == 1)
            for (; left >= 4; left -= 4, src += 4, d += 4)
              memcpy(d, src, 4);
          for (; left > 0; left--, src += cin)
            *d++ = (uint8_t)*src;
        }
      }
      /* the band's output rows in one run */
      k->x = (const int8_t *)band;
      k->out = out_n + ((ptrdiff_t)oy * g->ow + sx) * ch;
      k->pixels = nx;
      k->rows = rows;
      k->x_skip = (g->sh * n - nx * g->sw) * es;
      k->out_skip = (g->ow - nx) * ch;
      if (one)
        tflc__dsp_dw3x3_loop1(k, 1);
      else
        tflc__dsp_dw3x3_loop(k, 4);
    }
  }
}

/* The two kinds out of line, each compiled for its entries */
static TFLC__NOINLINE void
tflc__dsp_dw3x3_bands(tflc__dw3_frame *k, uint32_t *band, const tflc__geom *g,
                      const int8_t *in_n, int8_t *out_n, int32_t ch,
                      int32_t cin, const tflc__dw3_rect *r, uint32_t pad,
                      int first) {
  tflc__dsp_dw3x3_band_runs(k, band, g, in_n, out_n, ch, cin, 0, r, pad, first);
}
static TFLC__NOINLINE void
tflc__dsp_dw3x3_bands1(tflc__dw3_frame *k, uint32_t *band, const tflc__geom *g,
                       const int8_t *in_n, int8_t *out_n, int32_t ch,
                       int32_t cin, const tflc__dw3_rect *r, uint32_t pad,
                       int first) {
  tflc__dsp_dw3x3_band_runs(k, band, g, in_n, out_n, ch, cin, 1, r, pad, first);
}

/* Whether every channel's requantization (of ch, a multiple of four) is a
 * simple one (right shifts 1..23) and its bias within 2^30 less the largest
 * sum of `taps` products with the offset folded (taps * 256 * 128): the
 * sums doubled fit; raw int32 biases (aligned: the model's misaligned
 * constants are copied at init) read in place. */
static TFLC__NOINLINE int tflc__dsp_dw_check(const tflc_conv_params *p,
                                             const tflc_const *bias, int32_t ch,
                                             int32_t taps) {
  const int32_t bound = ((int32_t)1 << 30) - taps * 32768;
  const int32_t *b32 =
      bias != NULL && bias->bits == 0 && bias->type == TFLC_INT32
          ? (const int32_t *)bias->data
          : NULL;
  const int32_t *q = p->out_multiplier;
  uint32_t bad = 0;
  int32_t c;
  /* four shifts at once: each byte of ~s (-1 - shift) at most 22, its bit
   * 7 clear with and without 0x69 added (a carry out of a byte above 0x96,
   * itself refused, can only refuse the next one too) */
  for (c = 0; c < ch; c += 4) {
    const uint32_t s = ~tflc__load4(p->out_shift + c);
    bad |= ((s + 0x69696969u) | s) & 0x80808080u;
  }
  /* |b| < bound in unsigned arithmetic */
  if (b32 != NULL)
    for (c = 0; c < ch; c++)
      bad |= (uint32_t)(q[c] == INT32_MIN) |
             (uint32_t)((uint32_t)b32[c] + (uint32_t)(bound - 1) >
                        (uint32_t)(2 * bound - 2));
  else
    for (c = 0; c < ch; c++)
      bad |=
          (uint32_t)(q[c] == INT32_MIN) |
          (uint32_t)((uint32_t)tflc__bias_at(bias, c) + (uint32_t)(bound - 1) >
                     (uint32_t)(2 * bound - 2));
  return bad == 0;
}

#ifndef TFLC_NO_PATCHES
/* The padded copy of one batch (in_n) into t: rows of cols pixels of cin
 * bytes, the input's pixels at (ph, pw), the zero point elsewhere; g
 * becomes the copy's geometry (rows x cols, no padding) */
static TFLC__PREPARE_CODE TFLC__NOINLINE void
tflc__dsp_dw3x3_pad_copy(int8_t *t, const int8_t *in_n, tflc__geom *g,
                         int32_t cin, int8_t zp) {
  const int32_t rows = (g->oh - 1) * g->sh + 3, cols = (g->ow - 1) * g->sw + 3;
  /* the input columns the windows read (cols - pw, within the input) */
  const int32_t iw = g->w < cols - g->pw ? g->w : cols - g->pw;
  const size_t row = (size_t)cols * (size_t)cin;
  const size_t left = (size_t)g->pw * (size_t)cin;
  const size_t mid = (size_t)iw * (size_t)cin;
  int32_t r;
  for (r = 0; r < rows; r++, t += row) {
    const int32_t iy = r - g->ph;
    if (iy < 0 || iy >= g->h) {
      memset(t, zp, row);
      continue;
    }
    memset(t, zp, left);
    memcpy(t + left, in_n + (ptrdiff_t)iy * g->w * cin, mid);
    memset(t + left + mid, zp, row - left - mid);
  }
  g->h = rows;
  g->w = cols;
  g->ph = g->pw = 0;
}
#endif

/* Rectangle j of a map whose inner windows are the output columns
 * [first, last] and rows [top, bottom]: 0 the whole map, 1..4 the strips
 * of its border (the rows above and below the inner ones, then the
 * columns left and right of them beside the inner rows). Returns 0 for an
 * empty strip. */
static int tflc__dsp_dw3x3_strip(tflc__dw3_rect *r, const tflc__geom *g,
                                 int32_t j, int32_t first, int32_t last,
                                 int32_t top, int32_t bottom) {
  r->x0 = j == 4 ? last + 1 : 0;
  r->x1 = j == 3 ? first : g->ow;
  r->y0 = j == 2 ? bottom + 1 : j >= 3 ? top : 0;
  r->y1 = j == 1 ? top : j >= 3 ? bottom + 1 : g->oh;
  return r->x0 < r->x1 && r->y0 < r->y1;
}

/* DEPTHWISE_CONV_2D with 3x3 filters and no dilation through the Arm DSP
 * frame (tflc__dsp_dw3x3_loop), four output channels at a time over the
 * whole map, the input offset folded into the biases: bands of input rows
 * and columns are copied to TFLC__DW3_BAND words, four channels a word
 * (multiplier 1) or one input channel's byte in every lane (multipliers
 * that are multiples of four), the input's zero point where the windows
 * leave the input (those inputs plus the offset are zero, so the folded
 * biases hold). The output rows of a band are then one run, its borders
 * included. Maps of multiplier 1 where that copies more run the windows
 * inside the input from the input instead, in one run, and take the four
 * strips of the border (above, below, left and right of those windows)
 * through bands each. LUT-compressed filters are decoded four channels at
 * a time.
 * Returns 0, nothing written, where it does not apply: channels not a
 * multiple of four, requantizations other than the simple ones (right
 * shifts 1..23), clamps or offsets beyond int8, biases beyond the frame's
 * bound less the largest folded offset (9 * 128 * 128).
 * (TFLC_DW3_LAYER_TEST compiles it for tests/test_platform.c, whose
 * primitives are its own.) */
static TFLC__PREPARE_CODE TFLC__NOINLINE int
tflc__dsp_dw3x3_layer(const tflc_conv_params *p, const int32_t in_dims[4],
                      const int8_t *in, const int32_t filter_dims[4],
                      const tflc_const *filter, const tflc_const *bias,
                      const int32_t out_dims[4], int8_t *out, void *tile,
                      size_t tile_bytes) {
  tflc__geom g;
  const int32_t ch = out_dims[3], cin = in_dims[3], m = p->depth_multiplier;
  const int32_t off = p->input_offset;
  uint32_t pad, band[TFLC__DW3_BAND];
  int32_t c, n, j, first, last, top, bottom;
  int64_t e;
  tflc__dw3_rect r; /* the whole map's bands, or a strip's */
  int strips = 0;
  if ((m != 1 && m % 4 != 0) || (int64_t)cin * m != ch || filter_dims[1] != 3 ||
      filter_dims[2] != 3 || filter_dims[3] != ch || ch % 4 != 0 ||
      off < -127 || off > 128 || p->output_offset < -128 ||
      p->output_offset > 127 || p->act_min < -128 || p->act_max > 127 ||
      p->act_min > p->act_max)
    return 0;
  tflc__geom_init(&g, p, in_dims, filter_dims, out_dims);
  if (g.dh != 1 || g.dw != 1 || g.pw > 2)
    return 0;
  if (!tflc__dsp_dw_check(p, bias, ch, 9))
    return 0;
#ifndef TFLC_NO_PATCHES
  if (in_dims[0] == 1 && tile != NULL && ((uintptr_t)tile & 3u) == 0 &&
      tflc__depthwise_layer_tile_s8(p, in_dims, filter_dims, out_dims) - 1u <
          tile_bytes) {
    /* a small map of one batch: its windows, all inside the padded copy,
     * in one run a block from there */
    tflc__dsp_dw3x3_pad_copy((int8_t *)tile, in, &g, cin, (int8_t)-off);
    in = (const int8_t *)tile;
    strips = 1;
  }
#else
  (void)tile;
  (void)tile_bytes;
#endif
  pad = (uint32_t)(uint8_t)(int8_t)-off * 0x01010101u;
  /* output columns and rows whose whole window is inside the input
   * (tflc__inner_span's, in registers: paddings 0..2, maps below 2^30,
   * four channels or more) */
  first = (g.pw + g.sw - 1) / g.sw;
  first = first < g.ow ? first : g.ow;
  last = g.w - 3 + g.pw < 0 ? -1 : (g.w - 3 + g.pw) / g.sw;
  last = last < g.ow ? last : g.ow - 1;
  top = (g.ph + g.sh - 1) / g.sh;
  top = top < g.oh ? top : g.oh;
  bottom = g.h - 3 + g.ph < 0 ? -1 : (g.h - 3 + g.ph) / g.sh;
  bottom = bottom < g.oh ? bottom : g.oh - 1;
  /* the whole map through bands, or (multiplier 1) the windows inside the
   * input in one run from the input and the border's four strips through
   * bands (about 350 instructions more a strip, planned at each block),
   * whichever copies less */
  if (!strips) {
    tflc__dsp_dw3x3_strip(&r, &g, 0, first, last, top, bottom);
    e = tflc__dsp_dw3x3_plan(&r, &g, m != 1) - 120;
    if (r.seg == g.ow && r.per >= g.oh)
      e = 0; /* one band */
    for (j = 1; j <= 4 && e > 0 && first <= last && top <= bottom; j++) {
      if (tflc__dsp_dw3x3_strip(&r, &g, j, first, last, top, bottom))
        e -= tflc__dsp_dw3x3_plan(&r, &g, m != 1) + 700;
      strips = e > 0;
    }
    if (j > 1 && !strips) { /* the whole map's plan again */
      tflc__dsp_dw3x3_strip(&r, &g, 0, first, last, top, bottom);
      tflc__dsp_dw3x3_plan(&r, &g, m != 1);
    }
  }
  for (c = 0; c < ch; c += 4) {
    tflc__dw3_frame k;
    tflc__dsp_dw3x3_block(&k, p, filter, bias, c, ch);
    for (n = 0; n < in_dims[0]; n++) {
      const int8_t *in_n =
          in + (ptrdiff_t)n * g.h * g.w * cin + (m == 1 ? c : c / m);
      int8_t *out_n = out + (ptrdiff_t)n * g.oh * g.ow * ch + c;
      if (strips) {
        /* the inner windows: one run from the input */
        k.x_next = (g.w - 2) * cin;
        k.x =
            in_n +
            ((ptrdiff_t)(top * g.sh - g.ph) * g.w + first * g.sw - g.pw) * cin;
        k.x_pixel = g.sw * cin;
        k.out = out_n + ((ptrdiff_t)top * g.ow + first) * ch;
        k.out_pixel = ch;
        k.pixels = last - first + 1;
        k.rows = bottom - top + 1;
        k.x_skip = (g.sh * g.w - k.pixels * g.sw) * cin;
        k.out_skip = (g.ow - k.pixels) * ch;
        if (m == 1)
          tflc__dsp_dw3x3_loop(&k, cin);
        else
          tflc__dsp_dw3x3_loop1(&k, cin);
      }
      /* the whole map (j = 0), or the border's strips (none in the
       * padded copy) */
      for (j = strips; j <= 4 * strips && in != tile; j++)
        if (j == 0 ||
            tflc__dsp_dw3x3_strip(&r, &g, j, first, last, top, bottom)) {
          if (j > 0)
            tflc__dsp_dw3x3_plan(&r, &g, m != 1);
          if (m == 1)
            tflc__dsp_dw3x3_bands(&k, band, &g, in_n, out_n, ch, cin, &r, pad,
                                  j > 0 || (c == 0 && n == 0));
          else
            tflc__dsp_dw3x3_bands1(&k, band, &g, in_n, out_n, ch, cin, &r, pad,
                                   j > 0 || (c == 0 && n == 0));
        }
    }
  }
  return 1;
}
#undef TFLC__DW3_BAND
#endif

#if (defined(TFLC__DEPTHWISE_LAYER_S8_IS_DSP) &&                               \
     !defined(TFLC_NO_DW_ANY_FILTER)) ||                                       \
    defined(TFLC_DW3_LAYER_TEST)
/* The taps of one window for four channels: n_out x n_in taps, the inner
 * ones xi / wi bytes apart, the outer ones xo / wo, added to s; the input
 * offset added to the widened inputs (off2: in both halfwords), or (one)
 * one input value for the four channels, the offset added to it. */
TFLC__INLINE void tflc__dsp_dw_window(const int8_t *x, const int8_t *w,
                                      int32_t n_out, int32_t n_in, int32_t xo,
                                      int32_t xi, int32_t wo, int32_t wi,
                                      uint32_t off2, int one, uint32_t *s) {
  uint32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
  do { /* (n_out, n_in >= 1; counted down: fewer registers) */
    const int8_t *xt = x, *wt = w;
    int32_t i = n_in;
    do {
      const uint32_t wv = tflc__load4(wt);
      const uint32_t wl = tflc__sxtb16(wv), wh = tflc__sxtb16_ror8(wv);
      uint32_t xl, xh;
      if (one) {
        xl = xh = (((uint32_t)(int32_t)*xt + off2) & 0xFFFFu) * 0x10001u;
      } else {
        const uint32_t xv = tflc__load4(xt);
        xl = tflc__sxtab16(off2, xv);
        xh = tflc__sxtab16_ror8(off2, xv);
      }
      s0 = tflc__smlabb(xl, wl, s0);
      s2 = tflc__smlatt(xl, wl, s2);
      s1 = tflc__smlabb(xh, wh, s1);
      s3 = tflc__smlatt(xh, wh, s3);
      xt += xi;
      wt += wi;
    } while (--i != 0);
    x += xo;
    w += wo;
  } while (--n_out != 0);
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
}

/* The two kinds out of line: the accumulators keep their registers at
 * every optimization level. */
static TFLC__NOINLINE void
tflc__dsp_dw_window4(const int8_t *x, const int8_t *w, int32_t n_out,
                     int32_t n_in, int32_t xo, int32_t xi, int32_t wo,
                     int32_t wi, uint32_t off2, uint32_t *s) {
  tflc__dsp_dw_window(x, w, n_out, n_in, xo, xi, wo, wi, off2, 0, s);
}
static TFLC__NOINLINE void
tflc__dsp_dw_window1(const int8_t *x, const int8_t *w, int32_t n_out,
                     int32_t n_in, int32_t xo, int32_t xi, int32_t wo,
                     int32_t wi, uint32_t off2, uint32_t *s) {
  tflc__dsp_dw_window(x, w, n_out, n_in, xo, xi, wo, wi, off2, 1, s);
}

/* tflc__dsp_dw_window1 where each window row's taps are consecutive input
 * values (one input channel, unit dilation across the width): four taps
 * at a time, the inputs of taps t and t + 2 (t + 1 and t + 3) widened into
 * one word with the offset pair, the weights of the same two taps packed
 * into one word per channel, one SMLAD per channel and pair of taps; the
 * last n_in % 4 taps one at a time. Every product and sum is the
 * broadcast one's, in another order (int32 sums wrap alike). Inlined with
 * a constant wi (weights of consecutive taps wi bytes apart) where it is
 * one, for the registers. */
/* four taps from xt / wt (weights wi bytes apart) into s0..s3 */
#define TFLC__DSP_DW_PAIRS4(xt, wt, wi)                                        \
  do {                                                                         \
    const uint32_t xv_ = tflc__load4(xt);                                      \
    uint32_t xp_ = tflc__sxtab16(off2, xv_);                                   \
    uint32_t a_ = tflc__load4(wt), b_ = tflc__load4((wt) + 2 * (wi));          \
    uint32_t ae_ = tflc__sxtb16(a_), be_ = tflc__sxtb16(b_);                   \
    s0 = tflc__smlad(xp_, tflc__pack_lo(ae_, be_), s0);                        \
    s2 = tflc__smlad(xp_, tflc__pack_hi(ae_, be_), s2);                        \
    ae_ = tflc__sxtb16_ror8(a_);                                               \
    be_ = tflc__sxtb16_ror8(b_);                                               \
    s1 = tflc__smlad(xp_, tflc__pack_lo(ae_, be_), s1);                        \
    s3 = tflc__smlad(xp_, tflc__pack_hi(ae_, be_), s3);                        \
    xp_ = tflc__sxtab16_ror8(off2, xv_);                                       \
    a_ = tflc__load4((wt) + (wi));                                             \
    b_ = tflc__load4((wt) + 3 * (wi));                                         \
    ae_ = tflc__sxtb16(a_);                                                    \
    be_ = tflc__sxtb16(b_);                                                    \
    s0 = tflc__smlad(xp_, tflc__pack_lo(ae_, be_), s0);                        \
    s2 = tflc__smlad(xp_, tflc__pack_hi(ae_, be_), s2);                        \
    ae_ = tflc__sxtb16_ror8(a_);                                               \
    be_ = tflc__sxtb16_ror8(b_);                                               \
    s1 = tflc__smlad(xp_, tflc__pack_lo(ae_, be_), s1);                        \
    s3 = tflc__smlad(xp_, tflc__pack_hi(ae_, be_), s3);                        \
  } while (0)

TFLC__INLINE void tflc__dsp_dw_pairs(const int8_t *x, const int8_t *w,
                                     int32_t n_out, int32_t n_in, int32_t xo,
                                     int32_t wo, int32_t wi, uint32_t off2,
                                     uint32_t *s) {
  uint32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
  const int32_t n4 = n_in & ~3;
  if (n_in == 8) {
    /* (a constant where it is inlined) two groups a row, no inner loop */
    do {
      TFLC__DSP_DW_PAIRS4(x, w, wi);
      TFLC__DSP_DW_PAIRS4(x + 4, w + 4 * wi, wi);
      x += xo;
      w += wo;
    } while (--n_out != 0);
  } else {
    do {
      const int8_t *xt = x, *wt = w;
      const int8_t *const end = x + n4;
      int32_t i;
      for (; xt != end; xt += 4, wt += 4 * wi)
        TFLC__DSP_DW_PAIRS4(xt, wt, wi);
      for (i = n4; i < n_in; i++, xt++, wt += wi) {
        const uint32_t wv = tflc__load4(wt);
        const uint32_t wl = tflc__sxtb16(wv), wh = tflc__sxtb16_ror8(wv);
        const uint32_t xl =
            (((uint32_t)(int32_t)*xt + off2) & 0xFFFFu) * 0x10001u;
        s0 = tflc__smlabb(xl, wl, s0);
        s2 = tflc__smlatt(xl, wl, s2);
        s1 = tflc__smlabb(xl, wh, s1);
        s3 = tflc__smlatt(xl, wh, s3);
      }
      x += xo;
      w += wo;
    } while (--n_out != 0);
  }
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
}
#undef TFLC__DSP_DW_PAIRS4
static TFLC__NOINLINE void
tflc__dsp_dw_window1_pairs(const int8_t *x, const int8_t *w, int32_t n_out,
                           int32_t n_in, int32_t xo, int32_t wo, int32_t wi,
                           uint32_t off2, uint32_t *s) {
  if (wi == 8 && n_in == 8) /* rows of eight taps, eight channels */
    tflc__dsp_dw_pairs(x, w, n_out, 8, xo, wo, 8, off2, s);
  else
    tflc__dsp_dw_pairs(x, w, n_out, n_in, xo, wo, wi, off2, s);
}

#ifndef TFLC_NO_PATCHES
/* A row of whole windows of rows of 5 or 7 taps (tflc__dsp_dw_block_wide
 * where the doubled sums fit): the weights and the sums' start doubled,
 * each pixel's four outputs requantized, packed, clamped and stored as the
 * 3x3 frame's runs do. On 32-bit targets its byte offsets are the
 * assembly's (tflc__dww_frame32_matches). */
typedef struct tflc__dww_frame {
  uint32_t fold[4];  /* 0: the doubled sums' start */
  uint32_t qn[12];   /* 16: multiplier, nudge (with the offset), right */
  const int8_t *x;   /* 64: the first tap of the pixel */
  int32_t x_pixel;   /* 68 */
  int8_t *out;       /* 72 */
  int32_t out_pixel; /* 76 */
  int8_t *end;       /* 80: the row's end */
  uint32_t lo4, hi4; /* 84, 88: the clamp, its byte in every lane */
  uint32_t clamp;    /* 92: 0 where the clamp is the whole int8 range */
  int32_t skip;      /* 96: a row's last tap plus xi to the next row's first */
  int32_t kh;        /* 100: rows of taps */
  int32_t left;      /* 104: rows left (the run's) */
  const uint32_t *w; /* 108: the doubled widened weights */
  int32_t xi;        /* 112: a tap to the next */
} tflc__dww_frame;
#if defined(TFLC__DSP_ASM)
typedef char
    tflc__dww_frame32_matches[offsetof(tflc__dww_frame, x) == 64 &&
                                      offsetof(tflc__dww_frame, end) == 80 &&
                                      offsetof(tflc__dww_frame, clamp) == 92 &&
                                      offsetof(tflc__dww_frame, w) == 108 &&
                                      offsetof(tflc__dww_frame, xi) == 112
                                  ? 1
                                  : -1];
/* clang-format off */
/* a tap of four channels: one word of input, its pointer's step, one LDRD
 * of the weights, two SXTB16 and four multiply-accumulates */
#define TFLC__DSP_DW_TAP(woff)                                                  \
  "ldr %[xv], [%[xt]]\n"                                                       \
  "add %[xt], %[xt], %[xi]\n"                                                  \
  "ldrd %[wl], %[wh], [%[w], #" woff "]\n"                                     \
  "sxtb16 %[xl], %[xv]\n"                                                      \
  "sxtb16 %[xv], %[xv], ror #8\n"                                              \
  "smlabb %[s0], %[xl], %[wl], %[s0]\n"                                        \
  "smlatt %[s2], %[xl], %[wl], %[s2]\n"                                        \
  "smlabb %[s1], %[xv], %[wh], %[s1]\n"                                        \
  "smlatt %[s3], %[xv], %[wh], %[s3]\n"
/* a row's five or seven taps */
#define TFLC__DSP_DW_TAPS5                                                      \
  TFLC__DSP_DW_TAP("0") TFLC__DSP_DW_TAP("8") TFLC__DSP_DW_TAP("16")            \
  TFLC__DSP_DW_TAP("24") TFLC__DSP_DW_TAP("32")
#define TFLC__DSP_DW_TAPS7                                                      \
  TFLC__DSP_DW_TAPS5 TFLC__DSP_DW_TAP("40") TFLC__DSP_DW_TAP("48")
/* twelve registers, as the 3x3 frame's run */
#define TFLC__DSP_DW_RUN(name, TAPS, wrow)                                      \
  static TFLC__NOINLINE void name(tflc__dww_frame *k) {                         \
    uint32_t s0, s1, s2, s3, xv, xl, wl, wh, xi;                                \
    const int8_t *xt;                                                           \
    const uint32_t *w;                                                          \
    __asm__ volatile(                                                           \
        "ldr %[xi], [%[k], #112]\n"                                             \
        "1:\n"                                                                  \
        "ldrd %[s0], %[s1], [%[k], #0]\n"                                       \
        "ldrd %[s2], %[s3], [%[k], #8]\n"                                       \
        "ldr %[xt], [%[k], #64]\n"                                              \
        "ldr %[w], [%[k], #108]\n"                                              \
        "ldr %[wl], [%[k], #100]\n"                                             \
        "str %[wl], [%[k], #104]\n"                                             \
        "2:\n"                                                                  \
        TAPS                                                                    \
        "ldr %[wl], [%[k], #96]\n"                                              \
        "add %[xt], %[xt], %[wl]\n"                                             \
        "add %[w], %[w], #" #wrow "\n"                                          \
        "ldr %[wl], [%[k], #104]\n"                                             \
        "subs %[wl], %[wl], #1\n"                                               \
        "str %[wl], [%[k], #104]\n"                                             \
        "bne 2b\n"                                                              \
        TFLC__DW3_OUT2("%[s0]", "%[s1]", "16", "24", "32")                      \
        TFLC__DW3_OUT2("%[s2]", "%[s3]", "40", "48", "56")                      \
        "bfi %[s0], %[s1], #8, #8\n"                                            \
        "bfi %[s0], %[s2], #16, #8\n"                                           \
        "bfi %[s0], %[s3], #24, #8\n"                                           \
        "ldr %[wl], [%[k], #92]\n"                                              \
        "cbz %[wl], 3f\n"                                                       \
        "ldrd %[wl], %[wh], [%[k], #84]\n"                                      \
        "ssub8 %[xv], %[s0], %[wl]\n"                                           \
        "sel %[s0], %[s0], %[wl]\n"                                             \
        "ssub8 %[xv], %[s0], %[wh]\n"                                           \
        "sel %[s0], %[wh], %[s0]\n"                                             \
        "3:\n"                                                                  \
        "ldrd %[xl], %[wh], [%[k], #72]\n"                                      \
        "str %[s0], [%[xl]]\n"                                                  \
        "add %[xl], %[xl], %[wh]\n"                                             \
        "str %[xl], [%[k], #72]\n"                                              \
        "ldrd %[wl], %[wh], [%[k], #64]\n"                                      \
        "add %[wl], %[wl], %[wh]\n"                                             \
        "str %[wl], [%[k], #64]\n"                                              \
        "ldr %[wl], [%[k], #80]\n"                                              \
        "cmp %[xl], %[wl]\n"                                                    \
        "bne 1b\n"                                                              \
        : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),       \
          [xt] "=&r"(xt), [w] "=&r"(w), [xv] "=&r"(xv), [xl] "=&r"(xl),         \
          [wl] "=&l"(wl), [wh] "=&r"(wh), [xi] "=&r"(xi)                        \
        : [k] "r"(k)                                                            \
        : "cc", "memory");                                                      \
    (void)s0;                                                                   \
    (void)s1;                                                                   \
    (void)s2;                                                                   \
    (void)s3;                                                                   \
    (void)xv;                                                                   \
    (void)xl;                                                                   \
    (void)wl;                                                                   \
    (void)wh;                                                                   \
    (void)xt;                                                                   \
    (void)w;                                                                    \
    (void)xi;                                                                   \
  }
TFLC__DSP_DW_RUN(tflc__dsp_dw_run5, TFLC__DSP_DW_TAPS5, 40)
TFLC__DSP_DW_RUN(tflc__dsp_dw_run7, TFLC__DSP_DW_TAPS7, 56)
/* clang-format on */
#undef TFLC__DSP_DW_RUN
#undef TFLC__DSP_DW_TAPS7
#undef TFLC__DSP_DW_TAPS5
#undef TFLC__DSP_DW_TAP
#else
/* the same run in C with the intrinsics (the clamp lane by lane) */
TFLC__INLINE void tflc__dsp_dw_run(tflc__dww_frame *k, int32_t kw) {
  for (; k->out != k->end; k->out += k->out_pixel, k->x += k->x_pixel) {
    const int8_t *xt = k->x;
    const uint32_t *w = k->w;
    uint32_t s[4];
    int32_t r, t;
    s[0] = k->fold[0];
    s[1] = k->fold[1];
    s[2] = k->fold[2];
    s[3] = k->fold[3];
    for (r = 0; r < k->kh; r++, xt += k->skip)
      for (t = 0; t < kw; t++, xt += k->xi, w += 2) {
        const uint32_t xv = tflc__load4(xt);
        const uint32_t xl = tflc__sxtb16(xv), xh = tflc__sxtb16_ror8(xv);
        s[0] = tflc__smlabb(xl, w[0], s[0]);
        s[2] = tflc__smlatt(xl, w[0], s[2]);
        s[1] = tflc__smlabb(xh, w[1], s[1]);
        s[3] = tflc__smlatt(xh, w[1], s[3]);
      }
    tflc__dsp_dw_out_c(s, k->qn, k->lo4, k->hi4, k->clamp, k->out);
  }
}
static TFLC__NOINLINE void tflc__dsp_dw_run5(tflc__dww_frame *k) {
  tflc__dsp_dw_run(k, 5);
}
static TFLC__NOINLINE void tflc__dsp_dw_run7(tflc__dww_frame *k) {
  tflc__dsp_dw_run(k, 7);
}
#endif
#undef TFLC__DW3_OUT2

/* The pixels of channels [c, c + 4) of tflc__dsp_dw_wide_layer (b4, q,
 * right: their biases and requantizations), every window a whole one
 * (copy: from the tile's copy, else inside the input), row by row through
 * tflc__dsp_dw_run5 / 7: the block's weights widened and doubled into the
 * tile (t), the input offset folded into the doubled sums' start */
static TFLC__NOINLINE void
tflc__dsp_dw_block_wide(const tflc_conv_params *p, const tflc__geom *g,
                        const int8_t *in, const int8_t *wt, int8_t *out,
                        int32_t c, int32_t ch, int32_t batches,
                        const uint32_t *b4, const int32_t *q,
                        const int32_t *right, uint32_t *t, int copy) {
  tflc__dww_frame k;
  uint32_t s02 = 0, s13 = 0;
  const uint32_t off2 = ((uint32_t)p->input_offset & 0xFFFFu) * 0x10001u;
  const int32_t taps = g->kh * g->kw;
  const int32_t rows = tflc__dw_wide_span(g->oh, g->sh, g->kh, g->dh);
  const int32_t cols = tflc__dw_wide_span(g->ow, g->sw, g->kw, g->dw);
  uint32_t *cp = t + 2 * taps; /* the copy: rows x cols words */
  int32_t j, n, oy;
  for (j = 0; j < taps; j++) {
    const uint32_t v = tflc__load4(wt + (ptrdiff_t)j * ch + c);
    const uint32_t l = tflc__sxtb16(v), h = tflc__sxtb16_ror8(v);
    /* (|sum| <= 49 * 128, |weight| <= 256: no lane overflows) */
    s02 = tflc__sadd16(s02, l);
    s13 = tflc__sadd16(s13, h);
    t[2 * j] = tflc__sadd16(l, l);
    t[2 * j + 1] = tflc__sadd16(h, h);
  }
  /* twice the biases plus the offset times the weight sums (the doubled
   * sums fit: tflc__dsp_dw_check) */
  k.fold[0] = tflc__smlabb(s02, off2, b4[0]) * 2u;
  k.fold[1] = tflc__smlabb(s13, off2, b4[1]) * 2u;
  k.fold[2] = tflc__smlatt(s02, off2, b4[2]) * 2u;
  k.fold[3] = tflc__smlatt(s13, off2, b4[3]) * 2u;
  for (j = 0; j < 4; j++) { /* the 3x3 frame's requantization words */
    const uint32_t r = (uint32_t)right[j];
    k.qn[3 * j] = (uint32_t)q[j];
    k.qn[3 * j + 1] =
        ((uint32_t)1 << (r - 1)) + ((uint32_t)p->output_offset << r);
    k.qn[3 * j + 2] = r;
  }
  k.lo4 = (uint32_t)(uint8_t)(int8_t)p->act_min * 0x01010101u;
  k.hi4 = (uint32_t)(uint8_t)(int8_t)p->act_max * 0x01010101u;
  k.clamp = (uint32_t)(p->act_min != -128 || p->act_max != 127);
  k.kh = g->kh;
  k.w = t;
  k.out_pixel = ch;
  for (n = 0; n < batches; n++) {
    const int8_t *in_n = in + (ptrdiff_t)n * g->h * g->w * ch + c;
    int8_t *o = out + (ptrdiff_t)n * g->oh * g->ow * ch + c;
    const int8_t *x = in_n;
    int32_t xr = g->w * ch, xp = ch; /* a row's and a pixel's bytes */
    if (copy) {
      /* the zero point where the windows leave the input, the block's
       * four channels elsewhere (inputs plus offset zero there: the
       * folded biases hold); the input's columns [0, iw) at pw */
      const uint32_t pad =
          (uint32_t)(uint8_t)(int8_t)-p->input_offset * 0x01010101u;
      const int32_t iw = g->w < cols - g->pw ? g->w : cols - g->pw;
      int32_t y, xx;
      for (y = 0; y < rows; y++) {
        const int32_t iy = y - g->ph;
        uint32_t *d = cp + (ptrdiff_t)y * cols, *e = d + cols;
        if ((uint32_t)iy < (uint32_t)g->h) {
          const int8_t *src = in_n + (ptrdiff_t)iy * g->w * ch;
          for (xx = 0; xx < g->pw; xx++)
            *d++ = pad;
          for (xx = 0; xx < iw; xx++, src += ch)
            *d++ = tflc__load4(src);
        }
        while (d != e)
          *d++ = pad;
      }
      x = (const int8_t *)cp;
      xr = cols * 4;
      xp = 4;
    }
    k.xi = g->dw * xp;
    k.skip = g->dh * xr - g->kw * k.xi;
    k.x_pixel = g->sw * xp;
    for (oy = 0; oy < g->oh; oy++, o += (ptrdiff_t)g->ow * ch) {
      k.x = x + (ptrdiff_t)oy * g->sh * xr;
      k.out = o;
      k.end = o + (ptrdiff_t)g->ow * ch;
      if (g->kw == 5)
        tflc__dsp_dw_run5(&k);
      else
        tflc__dsp_dw_run7(&k);
    }
  }
}
#endif

/* DEPTHWISE_CONV_2D of any filter size, stride and dilation with the Arm
 * DSP primitives' arithmetic, four output channels at a time over the
 * whole map, without the chunked path's set-up: multiplier 1 (four input
 * channels a word) or a multiple of four (one input value for four
 * outputs), int8 filters in place, channels a multiple of four, simple
 * requantizations (right shifts 1..23), clamps and output offset within
 * int8, input offsets within +-32640. Returns 0, nothing written,
 * otherwise. */
static TFLC__NOINLINE int
tflc__dsp_dw_layer(const tflc_conv_params *p, const int32_t in_dims[4],
                   const int8_t *in, const int32_t filter_dims[4],
                   const tflc_const *filter, const tflc_const *bias,
                   const int32_t out_dims[4], int8_t *out) {
  tflc__geom g;
  const int32_t ch = out_dims[3], cin = in_dims[3], m = p->depth_multiplier;
  const int32_t out_off = p->output_offset, lo = p->act_min, hi = p->act_max;
  const int8_t *wt = (const int8_t *)filter->data;
  const uint32_t off2 = ((uint32_t)p->input_offset & 0xFFFFu) * 0x10001u;
  const int one = m != 1;
  int32_t c, j, n, oy, ox, first, last;
  int64_t e;
  if (m < 1 || (m != 1 && m % 4 != 0) || (int64_t)cin * m != ch ||
      filter_dims[3] != ch || ch % 4 != 0 ||
      (TFLC__COMPRESSION && filter->bits != 0) || p->input_offset < -32640 ||
      p->input_offset > 32640 || out_off < -128 || out_off > 127 || lo < -128 ||
      hi > 127 || lo > hi)
    return 0;
  for (c = 0; c < ch; c++) {
    const int32_t sh = p->out_shift[c];
    if (p->out_multiplier[c] == INT32_MIN || sh > -1 || sh < -23)
      return 0;
  }
  tflc__geom_init(&g, p, in_dims, filter_dims, out_dims);
  /* output columns whose whole window is inside the input */
  e = ((int64_t)g.pw + g.sw - 1) / g.sw;
  first = e < g.ow ? (int32_t)e : g.ow;
  e = (int64_t)g.w - 1 - (int64_t)(g.kw - 1) * g.dw + g.pw;
  e = e < 0 ? -1 : e / g.sw;
  last = e < g.ow ? (int32_t)e : g.ow - 1;
  for (c = 0; c < ch; c += 4) {
    uint32_t b4[4];
    int32_t q[4], right[4];
    for (j = 0; j < 4; j++) {
      b4[j] = (uint32_t)tflc__bias_at(bias, c + j);
      q[j] = p->out_multiplier[c + j];
      right[j] = -p->out_shift[c + j];
    }
    for (n = 0; n < in_dims[0]; n++) {
      const int8_t *in_n = in + (ptrdiff_t)n * g.h * g.w * cin + c / m;
      int8_t *o = out + (ptrdiff_t)n * g.oh * g.ow * ch + c;
      for (oy = 0; oy < g.oh; oy++) {
        const int32_t iy0 = oy * g.sh - g.ph;
        int32_t ky0, ky1;
        tflc__window(iy0, g.dh, g.kh, g.h, &ky0, &ky1);
        for (ox = 0; ox < g.ow; ox++, o += ch) {
          const int32_t ix0 = ox * g.sw - g.pw;
          int32_t kx0 = 0, kx1 = g.kw, rows = ky1 - ky0, cols;
          uint32_t s[4];
          if (ox < first || ox > last)
            tflc__window(ix0, g.dw, g.kw, g.w, &kx0, &kx1);
          cols = kx1 - kx0;
          s[0] = b4[0];
          s[1] = b4[1];
          s[2] = b4[2];
          s[3] = b4[3];
          if (rows > 0 && cols > 0) {
            /* the rows outer, the columns inner; one column: the rows as
             * the inner loop */
            int32_t xo = g.dh * g.w * cin, xi = g.dw * cin;
            int32_t wo = g.kw * ch, wi = ch;
            const int8_t *x =
                in_n +
                ((ptrdiff_t)(iy0 + ky0 * g.dh) * g.w + ix0 + kx0 * g.dw) * cin;
            const int8_t *w = wt + ((ptrdiff_t)ky0 * g.kw + kx0) * ch + c;
            if (cols == 1) {
              xi = xo;
              wi = wo;
              cols = rows;
              rows = 1;
            }
            if (one && xi == 1 && cols >= 4)
              tflc__dsp_dw_window1_pairs(x, w, rows, cols, xo, wo, wi, off2, s);
            else if (one)
              tflc__dsp_dw_window1(x, w, rows, cols, xo, xi, wo, wi, off2, s);
            else
              tflc__dsp_dw_window4(x, w, rows, cols, xo, xi, wo, wi, off2, s);
          }
          for (j = 0; j < 4; j++)
            o[j] =
                tflc__dsp_out_s8(tflc__dsp_requant_simple(s[j], q[j], right[j]),
                                 out_off, lo, hi, 0);
        }
      }
    }
  }
  return 1;
}

#ifndef TFLC_NO_PATCHES
/* DEPTHWISE_CONV_2D of rows of 5 or 7 taps (at most 7 rows, any stride
 * and dilation) with the layer's tile (tflc__depthwise_layer_tile_s8's
 * bytes, 4-aligned) where every window is a whole one, inside the input or
 * in the tile's copy of each block (tflc__dsp_dw_block_wide): multiplier
 * 1, channels a multiple of four, int8 filters in place, input offsets
 * (the zero point's negation), output offsets and clamps within int8,
 * simple requantizations and biases whose doubled sums fit
 * (tflc__dsp_dw_check). Returns 0, nothing written, otherwise (then
 * tflc__dsp_dw_layer). */
static TFLC__NOINLINE int
tflc__dsp_dw_wide_layer(const tflc_conv_params *p, const int32_t in_dims[4],
                        const int8_t *in, const int32_t filter_dims[4],
                        const tflc_const *filter, const tflc_const *bias,
                        const int32_t out_dims[4], int8_t *out, void *tile,
                        size_t tile_bytes) {
  tflc__geom g;
  const int32_t ch = out_dims[3];
  int32_t c, j;
  size_t wide;
  if (p->depth_multiplier != 1 || in_dims[3] != ch || filter_dims[3] != ch ||
      ch % 4 != 0 || (filter_dims[2] != 5 && filter_dims[2] != 7) ||
      filter_dims[1] < 1 || filter_dims[1] > 7 || tile == NULL ||
      ((uintptr_t)tile & 3u) != 0 || (TFLC__COMPRESSION && filter->bits != 0) ||
      p->input_offset < -127 || p->input_offset > 128 ||
      p->output_offset < -128 || p->output_offset > 127 || p->act_min < -128 ||
      p->act_max > 127 || p->act_min > p->act_max)
    return 0;
  wide = tflc__dw_wide_tile(p, in_dims, filter_dims, out_dims);
  if (wide == 0 || wide > tile_bytes ||
      !tflc__dsp_dw_check(p, bias, ch, filter_dims[1] * filter_dims[2]))
    return 0;
  tflc__geom_init(&g, p, in_dims, filter_dims, out_dims);
  for (c = 0; c < ch; c += 4) {
    uint32_t b4[4];
    int32_t q[4], right[4];
    for (j = 0; j < 4; j++) {
      b4[j] = (uint32_t)tflc__bias_at(bias, c + j);
      q[j] = p->out_multiplier[c + j];
      right[j] = -p->out_shift[c + j];
    }
    tflc__dsp_dw_block_wide(p, &g, in, (const int8_t *)filter->data, out, c, ch,
                            in_dims[0], b4, q, right, (uint32_t *)tile,
                            wide > (size_t)(8 * g.kh * g.kw));
  }
  return 1;
}
#endif
#endif

TFLC_API void tflc_depthwise_s8_dsp(const tflc_requant_params *rq,
                                    const tflc_depthwise_block *b) {
  const int32_t n4 = b->channels & ~3;
  const int mode = tflc__dsp_mode(rq);
  int32_t c;
  if (b->x_offset < -32640 || b->x_offset > 32640 || mode == 0 ||
      (b->multiplier != 1 && b->multiplier % 4 != 0)) {
    /* inputs beyond 16-bit lanes, an offset or clamp beyond int8, or
     * groups of four channels that read different input channels */
    tflc_depthwise_s8_portable(rq, b);
    return;
  }
  for (c = 0; c < n4; c += 4)
    tflc__dsp_depthwise4_general(rq, b, c, mode);
  if (c < b->channels)
    tflc__dsp_depthwise_portable(rq, b, c, b->channels - c);
}
/* LUT indices of 2 and 4 bits a 32-bit word (16 or 8 indices) at a time:
 * one load, a field extraction and a table byte per index, no loop per
 * byte. The head up to a byte boundary, the tail, and the other widths go
 * through the portable version. */
TFLC_API void tflc_lut_unpack_dsp(const uint8_t *src, unsigned bit, int32_t n,
                                  unsigned bits, const uint8_t *tab,
                                  uint8_t *dst) {
  int32_t head = 0;
  if ((bits != 4 && bits != 2) || n < 8 || bit % bits != 0) {
    tflc_lut_unpack_portable(src, bit, n, bits, tab, dst);
    return;
  }
  if (bit != 0) {
    /* up to the next byte boundary: (8 - bit) / bits indices */
    head = (int32_t)((8u - bit) / bits);
    tflc_lut_unpack_portable(src, bit, head, bits, tab, dst);
    src++;
    dst += head;
    n -= head;
  }
  if (bits == 4) {
#define TFLC__DSP_NIBBLES(src, dst)                                            \
  do {                                                                         \
    const uint32_t w = (uint32_t)(src)[0] << 24 | (uint32_t)(src)[1] << 16 |   \
                       (uint32_t)(src)[2] << 8 | (uint32_t)(src)[3];           \
    (dst)[0] = tab[w >> 28];                                                   \
    (dst)[1] = tab[(w >> 24) & 15u];                                           \
    (dst)[2] = tab[(w >> 20) & 15u];                                           \
    (dst)[3] = tab[(w >> 16) & 15u];                                           \
    (dst)[4] = tab[(w >> 12) & 15u];                                           \
    (dst)[5] = tab[(w >> 8) & 15u];                                            \
    (dst)[6] = tab[(w >> 4) & 15u];                                            \
    (dst)[7] = tab[w & 15u];                                                   \
  } while (0)
    /* two words per turn (the loop's own instructions per 16 indices) */
    for (; n >= 16; n -= 16, src += 8, dst += 16) {
      TFLC__DSP_NIBBLES(src, dst);
      TFLC__DSP_NIBBLES(src + 4, dst + 8);
    }
    if (n >= 8) {
      TFLC__DSP_NIBBLES(src, dst);
      n -= 8;
      src += 4;
      dst += 8;
    }
#undef TFLC__DSP_NIBBLES
  } else {
    for (; n >= 16; n -= 16, src += 4, dst += 16) {
      const uint32_t w = (uint32_t)src[0] << 24 | (uint32_t)src[1] << 16 |
                         (uint32_t)src[2] << 8 | (uint32_t)src[3];
      dst[0] = tab[w >> 30];
      dst[1] = tab[(w >> 28) & 3u];
      dst[2] = tab[(w >> 26) & 3u];
      dst[3] = tab[(w >> 24) & 3u];
      dst[4] = tab[(w >> 22) & 3u];
      dst[5] = tab[(w >> 20) & 3u];
      dst[6] = tab[(w >> 18) & 3u];
      dst[7] = tab[(w >> 16) & 3u];
      dst[8] = tab[(w >> 14) & 3u];
      dst[9] = tab[(w >> 12) & 3u];
      dst[10] = tab[(w >> 10) & 3u];
      dst[11] = tab[(w >> 8) & 3u];
      dst[12] = tab[(w >> 6) & 3u];
      dst[13] = tab[(w >> 4) & 3u];
      dst[14] = tab[(w >> 2) & 3u];
      dst[15] = tab[w & 3u];
    }
  }
  if (n > 0)
    tflc_lut_unpack_portable(src, 0, n, bits, tab, dst);
}

#if defined(TFLC__SUM_S8_IS_DSP)
/* sum of n int8 (the seam TFLC__SUM_S8): the bytes added into four 16-bit
 * lanes with SXTAB16, two words a step, the lanes summed every 255 words
 * at most (each lane then at most 255 * 128 in magnitude, exact in
 * int16) */
static TFLC__NOINLINE int32_t tflc__sum_s8_dsp(const int8_t *row, int32_t n) {
  int32_t sum = 0, words = n / 4, k;
  const int8_t *p = row;
  while (words > 0) {
    const int32_t m = words < 255 ? words : 255;
    uint32_t lo = 0, hi = 0;
    words -= m;
    for (k = m >> 1; k > 0; k--, p += 8) {
      const uint32_t v0 = tflc__load4(p), v1 = tflc__load4(p + 4);
      lo = tflc__sxtab16(lo, v0);
      hi = tflc__sxtab16_ror8(hi, v0);
      lo = tflc__sxtab16(lo, v1);
      hi = tflc__sxtab16_ror8(hi, v1);
    }
    if (m & 1) {
      const uint32_t v = tflc__load4(p);
      lo = tflc__sxtab16(lo, v);
      hi = tflc__sxtab16_ror8(hi, v);
      p += 4;
    }
    /* the four lanes, each a signed 16-bit sum */
    sum += tflc__wrap32(
        (int64_t)tflc__smlad(lo, 0x00010001u, tflc__smlad(hi, 0x00010001u, 0)));
  }
  for (k = n & 3; k > 0; k--)
    sum += *p++;
  return sum;
}
#endif
#endif /* TFLC_HAVE_DSP */

/* ======================================================================== */
/* Platform: Arm Helium (MVE) (TFLC_HAVE_MVE)                               */
/* ======================================================================== */
/* Dot products with VMLADAVA (16 int8 products summed into a 32-bit
 * scalar, wrapping), depthwise sums with four channels in the 32-bit lanes
 * of a vector, requantization of four outputs at a time. The remainders
 * (depths not a multiple of 16, fewer than four channels) go through
 * tail-predicated loads and stores, which touch no memory in their
 * inactive lanes. All sums wrap modulo 2^32 as the portable ones do, so
 * the results are the same bytes for any parameters:
 *  - an input offset is added as off * (sum of the weights), which equals
 *    the portable sum of (x + off) * w modulo 2^32;
 *  - VQRDMULH is gemmlowp's SaturatingRoundingDoublingHighMul exactly
 *    (the same rounding, the same saturation of INT32_MIN * INT32_MIN);
 *  - gemmlowp's RoundingDivideByPOT(v, n) is VRSHL by -n (round half up,
 *    computed without overflow) of v - 1 for negative v and n > 0, the
 *    subtraction saturating (at INT32_MIN both give -2^(31-n));
 *  - the left shift is a plain VSHL (wrapping; 32 or more gives 0, as in
 *    the portable version), right shifts beyond 31 take 31 (likewise);
 *  - the offset add wraps, the clamp is max then min, VSTRB keeps the low
 *    byte. */
#if defined(TFLC_HAVE_MVE)
#include <arm_mve.h>

/* Requantization of four channels as vectors: multiplier, left shift
 * (0..), right shift as a VRSHL amount (-31..0), bias; and the output
 * offset and clamp. */
typedef struct tflc__mve_quant {
  int32x4_t q, left, right, bias;
  int32_t off, lo, hi;
} tflc__mve_quant;

/* channels [c, c + n) of rq, n 1..4 (the lanes from n on are zero) */
TFLC__INLINE void tflc__mve_quant_at(tflc__mve_quant *f,
                                     const tflc_requant_params *rq, int32_t c,
                                     int32_t n) {
  const mve_pred16_t p = vctp32q((uint32_t)n);
  int32x4_t s;
  if (rq->per_channel) {
    f->q = vldrwq_z_s32(rq->multiplier + c, p);
    s = vldrbq_z_s32(rq->shift + c, p);
  } else {
    f->q = vdupq_n_s32(rq->multiplier[0]);
    s = vdupq_n_s32(rq->shift[0]);
  }
  f->bias = rq->bias != NULL ? vldrwq_z_s32(rq->bias + c, p) : vdupq_n_s32(0);
  f->left = vmaxq_s32(s, vdupq_n_s32(0));
  f->right = vmaxq_s32(vminq_s32(s, vdupq_n_s32(0)), vdupq_n_s32(-31));
  f->off = rq->output_offset;
  f->lo = rq->act_min;
  f->hi = rq->act_max;
}

/* the requantized values of the sums acc (bias not added) */
TFLC__INLINE int32x4_t tflc__mve_requant_shift(int32x4_t acc,
                                               const tflc__mve_quant *f,
                                               int left) {
  int32x4_t v = vqrdmulhq_s32(left ? vshlq_s32(acc, f->left) : acc, f->q);
  v = vqaddq_s32(v, vshrq_n_s32(vandq_s32(v, f->right), 31));
  v = vrshlq_s32(v, f->right);
  v = vaddq_n_s32(v, f->off);
  v = vmaxq_s32(v, vdupq_n_s32(f->lo));
  return vminq_s32(v, vdupq_n_s32(f->hi));
}

/* the same with any left shift */
TFLC__INLINE int32x4_t tflc__mve_requant(int32x4_t acc,
                                         const tflc__mve_quant *f) {
  return tflc__mve_requant_shift(acc, f, 1);
}

TFLC_API void tflc_requantize_s8_mve(const tflc_requant_params *rq, int32_t n,
                                     const int32_t *acc, int8_t *out) {
  tflc__mve_quant f;
  int32_t c;
  for (c = 0; c < n; c += 4) {
    const int32_t k = n - c < 4 ? n - c : 4;
    const mve_pred16_t p = vctp32q((uint32_t)k);
    int32x4_t v;
    tflc__mve_quant_at(&f, rq, c, k);
    v = vaddq_s32(vldrwq_z_s32(acc + c, p), f.bias);
    vstrbq_p_s32(out + c, tflc__mve_requant(v, &f), p);
  }
}

/* the mean of a channel's sum a over n taps, rounded as tflc_avg_pool_s8
 * (half away from zero, a truncating division) and clamped */
TFLC__INLINE int8_t tflc__mve_avg_round(int32_t a, int32_t n,
                                        const tflc_pool_params *p) {
  a = a > 0 ? (a + n / 2) / n : (a - n / 2) / n;
  a = a < p->act_min ? p->act_min : a;
  return (int8_t)(a > p->act_max ? p->act_max : a);
}

/* int8 AVERAGE_POOL_2D: sixteen channels at a time, their sums over the
 * clipped window in vectors (16-bit lanes where sixteen channels are left
 * and the window has at most 256 taps, else predicated 32-bit ones), then
 * each channel's mean as the portable kernel rounds it
 * (tflc__mve_avg_round); a window without taps fails as there. Filters
 * of more than 2^23 taps go to the portable kernel (their sums need not
 * fit 32 bits). */
TFLC_API tflc_status tflc_avg_pool_s8_mve(const tflc_pool_params *p,
                                          const int32_t in_dims[4],
                                          const int8_t *in,
                                          const int32_t out_dims[4],
                                          int8_t *out) {
  const int32_t batches = in_dims[0], in_h = in_dims[1], in_w = in_dims[2];
  const int32_t depth = in_dims[3];
  const int32_t out_h = out_dims[1], out_w = out_dims[2];
  int32_t b, oy, ox, c, fy, fx, j;
  if ((int64_t)p->filter_h * p->filter_w > ((int64_t)1 << 23))
    return tflc_avg_pool_s8(p, in_dims, in, out_dims, out);
  for (b = 0; b < batches; ++b)
    for (oy = 0; oy < out_h; ++oy) {
      int32_t y0, ys, ye;
      tflc__pool_window(oy, p->stride_h, p->pad_h, p->filter_h, in_h, &y0, &ys,
                        &ye);
      for (ox = 0; ox < out_w; ++ox) {
        int32_t x0, xs, xe, n;
        int8_t *dst =
            out + (((size_t)b * (size_t)out_h + (size_t)oy) * (size_t)out_w +
                   (size_t)ox) *
                      (size_t)depth;
        const int8_t *win;
        tflc__pool_window(ox, p->stride_w, p->pad_w, p->filter_w, in_w, &x0,
                          &xs, &xe);
        n = (ye > ys ? ye - ys : 0) * (xe > xs ? xe - xs : 0);
        if (depth > 0 && n == 0)
          return TFLC_ERR_KERNEL;
        if (n == 0)
          continue;
        /* the window's first tap */
        win = in +
              (((size_t)b * (size_t)in_h + (size_t)(y0 + ys)) * (size_t)in_w +
               (size_t)(x0 + xs)) *
                  (size_t)depth;
        for (c = 0; c < depth; c += 16) {
          const int32_t rest = depth - c;
          if (rest >= 16 && n <= 256) {
            int16x8_t h0 = vdupq_n_s16(0), h1 = h0;
            int16_t t[16];
            for (fy = ys; fy < ye; ++fy) {
              const int8_t *x =
                  win + (size_t)(fy - ys) * (size_t)in_w * (size_t)depth +
                  (size_t)c;
              for (fx = xs; fx < xe; ++fx, x += depth) {
                h0 = vaddq_s16(h0, vldrbq_s16(x));
                h1 = vaddq_s16(h1, vldrbq_s16(x + 8));
              }
            }
            vstrhq_s16(t, h0);
            vstrhq_s16(t + 8, h1);
            for (j = 0; j < 16; j++)
              dst[c + j] = tflc__mve_avg_round(t[j], n, p);
          } else {
            const mve_pred16_t p0 = vctp32q((uint32_t)rest);
            const mve_pred16_t p1 =
                vctp32q((uint32_t)(rest > 4 ? rest - 4 : 0));
            const mve_pred16_t p2 =
                vctp32q((uint32_t)(rest > 8 ? rest - 8 : 0));
            const mve_pred16_t p3 =
                vctp32q((uint32_t)(rest > 12 ? rest - 12 : 0));
            int32x4_t s0 = vdupq_n_s32(0), s1 = s0, s2 = s0, s3 = s0;
            int32_t acc[16];
            for (fy = ys; fy < ye; ++fy) {
              const int8_t *x =
                  win + (size_t)(fy - ys) * (size_t)in_w * (size_t)depth +
                  (size_t)c;
              for (fx = xs; fx < xe; ++fx, x += depth) {
                s0 = vaddq_s32(s0, vldrbq_z_s32(x, p0));
                s1 = vaddq_s32(s1, vldrbq_z_s32(x + 4, p1));
                s2 = vaddq_s32(s2, vldrbq_z_s32(x + 8, p2));
                s3 = vaddq_s32(s3, vldrbq_z_s32(x + 12, p3));
              }
            }
            vstrwq_s32(acc, s0);
            vstrwq_s32(acc + 4, s1);
            vstrwq_s32(acc + 8, s2);
            vstrwq_s32(acc + 12, s3);
            for (j = 0; j < 16 && j < rest; j++)
              dst[c + j] = tflc__mve_avg_round(acc[j], n, p);
          }
        }
      }
    }
  return TFLC_OK;
}

/* four sums from four scalars */
TFLC__INLINE int32x4_t tflc__mve_vec4(int32_t s0, int32_t s1, int32_t s2,
                                      int32_t s3) {
  int32x4_t v = vdupq_n_s32(s0);
  v = vsetq_lane_s32(s1, v, 1);
  v = vsetq_lane_s32(s2, v, 2);
  return vsetq_lane_s32(s3, v, 3);
}

/* s[j] += the dot products of the row a with the weight rows w[j] over
 * len values (16 at a time, then one predicated step) */
TFLC__INLINE void tflc__mve_dot1x4(const int8_t *a, const int8_t *w0,
                                   const int8_t *w1, const int8_t *w2,
                                   const int8_t *w3, int32_t len, int32_t *s) {
  int32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
  int32_t k;
  for (k = 16; k <= len; k += 16) {
    const int8x16_t x = vldrbq_s8(a);
    s0 = vmladavaq_s8(s0, x, vldrbq_s8(w0));
    s1 = vmladavaq_s8(s1, x, vldrbq_s8(w1));
    s2 = vmladavaq_s8(s2, x, vldrbq_s8(w2));
    s3 = vmladavaq_s8(s3, x, vldrbq_s8(w3));
    a += 16;
    w0 += 16;
    w1 += 16;
    w2 += 16;
    w3 += 16;
  }
  if (len & 15) {
    const mve_pred16_t p = vctp8q((uint32_t)(len & 15));
    const int8x16_t x = vldrbq_z_s8(a, p);
    s0 = vmladavaq_s8(s0, x, vldrbq_z_s8(w0, p));
    s1 = vmladavaq_s8(s1, x, vldrbq_z_s8(w1, p));
    s2 = vmladavaq_s8(s2, x, vldrbq_z_s8(w2, p));
    s3 = vmladavaq_s8(s3, x, vldrbq_z_s8(w3, p));
  }
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
}

/* sum of len int8 */
TFLC__INLINE int32_t tflc__mve_sum(const int8_t *w, int32_t len) {
  int32_t s = 0, k;
  for (k = 16; k <= len; k += 16, w += 16)
    s = vaddvaq_s8(s, vldrbq_s8(w));
  if (len & 15)
    s = vaddvaq_s8(s, vldrbq_z_s8(w, vctp8q((uint32_t)(len & 15))));
  return s;
}

/* s[0..3] += the sums of a 2 x 2 block (a0.w0, a0.w1, a1.w0, a1.w1) over
 * len values */
TFLC__INLINE void tflc__mve_dot2x2(const int8_t *a0, const int8_t *a1,
                                   const int8_t *w0, const int8_t *w1,
                                   int32_t len, int32_t *s) {
  int32_t s00 = s[0], s01 = s[1], s10 = s[2], s11 = s[3];
  int32_t i;
  for (i = len >> 4; i > 0; i--) {
    const int8x16_t x0 = vldrbq_s8(a0), x1 = vldrbq_s8(a1);
    const int8x16_t v0 = vldrbq_s8(w0), v1 = vldrbq_s8(w1);
    s00 = vmladavaq_s8(s00, x0, v0);
    s01 = vmladavaq_s8(s01, x0, v1);
    s10 = vmladavaq_s8(s10, x1, v0);
    s11 = vmladavaq_s8(s11, x1, v1);
    a0 += 16;
    a1 += 16;
    w0 += 16;
    w1 += 16;
  }
  if (len & 15) {
    const mve_pred16_t p = vctp8q((uint32_t)(len & 15));
    const int8x16_t x0 = vldrbq_z_s8(a0, p), x1 = vldrbq_z_s8(a1, p);
    const int8x16_t v0 = vldrbq_z_s8(w0, p), v1 = vldrbq_z_s8(w1, p);
    s00 = vmladavaq_s8(s00, x0, v0);
    s01 = vmladavaq_s8(s01, x0, v1);
    s10 = vmladavaq_s8(s10, x1, v0);
    s11 = vmladavaq_s8(s11, x1, v1);
  }
  s[0] = s00;
  s[1] = s01;
  s[2] = s10;
  s[3] = s11;
}

/* The dot products of the row a with the weight rows w0..w3 over len > 0
 * values, as one vector: one tail-predicated low-overhead loop (DLSTP/
 * LETP: the last vector loads only its valid lanes, the others are zero
 * and add nothing); in C, compilers reload the pointers around a
 * predicated tail. */
TFLC__INLINE int32x4_t tflc__mve_dot1x4_tp(const int8_t *a, const int8_t *w0,
                                           const int8_t *w1, const int8_t *w2,
                                           const int8_t *w3, int32_t len) {
  int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  /* accumulators in even registers (VMLAVA), "Te" in gcc and clang */
  __asm__(
      "dlstp.8 lr, %[len]\n"
      "1:\n\t"
      "vldrb.u8 q0, [%[a]], #16\n\t"
      "vldrb.u8 q1, [%[w0]], #16\n\t"
      "vmlava.s8 %[s0], q0, q1\n\t"
      "vldrb.u8 q1, [%[w1]], #16\n\t"
      "vmlava.s8 %[s1], q0, q1\n\t"
      "vldrb.u8 q1, [%[w2]], #16\n\t"
      "vmlava.s8 %[s2], q0, q1\n\t"
      "vldrb.u8 q1, [%[w3]], #16\n\t"
      "vmlava.s8 %[s3], q0, q1\n\t"
      "letp lr, 1b\n\t"
      : [s0] "+Te"(s0), [s1] "+Te"(s1), [s2] "+Te"(s2), [s3] "+Te"(s3),
        [a] "+r"(a), [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3)
      : [len] "r"(len)
      : "lr", "q0", "q1", "memory");
  return tflc__mve_vec4(s0, s1, s2, s3);
}

/* Columns [c, cols) of the block, four at a time against one row at a
 * time: the sums of a row against four weight rows, their requantization
 * as one vector, one predicated store. */
static TFLC__NOINLINE void tflc__mve_gemm_cols(const tflc_requant_params *rq,
                                               const tflc_gemm_block *g,
                                               int32_t c) {
  /* segments that follow each other in the rows and columns are one
   * (the windows of a convolution over the whole width) */
  const int joined = g->segments > 1 && g->seg_len > 0 &&
                     g->a_seg == g->seg_len && g->w_seg == g->seg_len &&
                     g->segments <= INT32_MAX / g->seg_len;
  const int32_t segs = joined ? 1 : g->segments;
  const int32_t len = joined ? g->segments * g->seg_len : g->seg_len;
  const int32_t rows = g->rows, a_row = g->a_row, a_seg = g->a_seg;
  const int32_t w_col = g->w_col, w_seg = g->w_seg, out_row = g->out_row;
  int32_t r, sg;
  for (; c < g->cols; c += 4) {
    const int32_t n = g->cols - c < 4 ? g->cols - c : 4;
    const mve_pred16_t p = vctp32q((uint32_t)n);
    /* columns past the block repeat its column c (their lanes unused) */
    const int8_t *const w0 = g->w + (ptrdiff_t)c * w_col;
    const int8_t *const w1 = n > 1 ? w0 + w_col : w0;
    const int8_t *const w2 = n > 2 ? w1 + w_col : w0;
    const int8_t *const w3 = n > 3 ? w2 + w_col : w0;
    const int8_t *a = g->a;
    int8_t *o = g->out + c;
    tflc__mve_quant f;
    tflc__mve_quant_at(&f, rq, c, n);
    if (g->a_offset != 0 && len > 0) {
      /* the offset times each column's sum, into the biases */
      int32_t t[4] = {0, 0, 0, 0};
      for (sg = 0; sg < segs; sg++) {
        const ptrdiff_t d = (ptrdiff_t)sg * w_seg;
        t[0] += tflc__mve_sum(w0 + d, len);
        t[1] += tflc__mve_sum(w1 + d, len);
        t[2] += tflc__mve_sum(w2 + d, len);
        t[3] += tflc__mve_sum(w3 + d, len);
      }
      f.bias = vmlaq_n_s32(f.bias, tflc__mve_vec4(t[0], t[1], t[2], t[3]),
                           g->a_offset);
    }
    for (r = 0; r < rows; r++, a += a_row, o += out_row) {
      int32_t s[4] = {0, 0, 0, 0};
      if (joined || (segs == 1 && rows == 1 && len > 0)) {
        /* one run: a tail-predicated loop */
        vstrbq_p_s32(
            o,
            tflc__mve_requant(
                vaddq_s32(tflc__mve_dot1x4_tp(a, w0, w1, w2, w3, len), f.bias),
                &f),
            p);
        continue;
      }
      for (sg = 0; sg < segs; sg++) {
        const ptrdiff_t d = (ptrdiff_t)sg * w_seg;
        tflc__mve_dot1x4(a + (ptrdiff_t)sg * a_seg, w0 + d, w1 + d, w2 + d,
                         w3 + d, len, s);
      }
      vstrbq_p_s32(
          o,
          tflc__mve_requant(
              vaddq_s32(tflc__mve_vec4(s[0], s[1], s[2], s[3]), f.bias), &f),
          p);
    }
  }
}

/* Requantization of a 2 x 2 block's lanes (c, c + 1, c, c + 1): the
 * parameters of channels c and c + 1 twice; the biases get the offset
 * times the columns' sums (w0 and w1 over the segments) when a_offset is
 * not 0. */
TFLC__INLINE void tflc__mve_quant_pair(tflc__mve_quant *f,
                                       const tflc_requant_params *rq,
                                       const tflc_gemm_block *g, int32_t c,
                                       const int8_t *w0, const int8_t *w1) {
  /* lanes 0, 1, 0, 1: channels c and c + 1 gathered */
  const uint32x4_t pair = vandq_u32(vidupq_n_u32(0, 1), vdupq_n_u32(1));
  int32x4_t s, bias;
  if (rq->per_channel) {
    f->q = vldrwq_gather_shifted_offset_s32(rq->multiplier + c, pair);
    s = vldrbq_gather_offset_s32(rq->shift + c, pair);
  } else {
    f->q = vdupq_n_s32(rq->multiplier[0]);
    s = vdupq_n_s32(rq->shift[0]);
  }
  bias = rq->bias != NULL ? vldrwq_gather_shifted_offset_s32(rq->bias + c, pair)
                          : vdupq_n_s32(0);
  if (g->a_offset != 0 && g->seg_len > 0) {
    uint32_t t0 = 0, t1 = 0;
    int32_t sg, s0, s1;
    for (sg = 0; sg < g->segments; sg++) {
      const ptrdiff_t d = (ptrdiff_t)sg * g->w_seg;
      t0 += (uint32_t)tflc__mve_sum(w0 + d, g->seg_len);
      t1 += (uint32_t)tflc__mve_sum(w1 + d, g->seg_len);
    }
    s0 = tflc__wrap32((int64_t)t0);
    s1 = tflc__wrap32((int64_t)t1);
    /* bias + offset * sum, wrapping */
    bias = vmlaq_n_s32(bias, tflc__mve_vec4(s0, s1, s0, s1), g->a_offset);
  }
  f->bias = bias;
  f->left = vmaxq_s32(s, vdupq_n_s32(0));
  f->right = vmaxq_s32(vminq_s32(s, vdupq_n_s32(0)), vdupq_n_s32(-31));
  f->off = rq->output_offset;
  f->lo = rq->act_min;
  f->hi = rq->act_max;
}

/* The four sums of a 2 x 2 block (a0.w0, a0.w1, a1.w0, a1.w1 into s[0..3])
 * over segs > 0 runs of len > 0 values: the runs of a0 and a1 da apart
 * after each other's ends rounded up to 16 (from the start of a run,
 * 16 * ceil(len / 16) + da reaches the next), those of w0 and w1 dw apart
 * likewise. One tail-predicated low-overhead loop per run (DLSTP/LETP:
 * the last vector of a run loads only its valid lanes, the others are
 * zero and add nothing); compilers spill the C version of this loop. */
TFLC__INLINE void tflc__mve_dot2x2_runs(const int8_t *a0, const int8_t *a1,
                                        const int8_t *w0, const int8_t *w1,
                                        int32_t len, int32_t segs, int32_t da,
                                        int32_t dw, int32_t *s) {
  int32_t s00 = 0, s01 = 0, s10 = 0, s11 = 0;
  /* accumulators in even registers (VMLAVA), "Te" in gcc and clang */
  __asm__("1:\n\t"
          "dlstp.8 lr, %[len]\n"
          "2:\n\t"
          "vldrb.u8 q0, [%[a0]], #16\n\t"
          "vldrb.u8 q1, [%[a1]], #16\n\t"
          "vldrb.u8 q2, [%[w0]], #16\n\t"
          "vmlava.s8 %[s00], q0, q2\n\t"
          "vmlava.s8 %[s10], q1, q2\n\t"
          "vldrb.u8 q2, [%[w1]], #16\n\t"
          "vmlava.s8 %[s01], q0, q2\n\t"
          "vmlava.s8 %[s11], q1, q2\n\t"
          "letp lr, 2b\n\t"
          "ldr lr, %[da]\n\t"
          "add %[a0], %[a0], lr\n\t"
          "add %[a1], %[a1], lr\n\t"
          "ldr lr, %[dw]\n\t"
          "add %[w0], %[w0], lr\n\t"
          "add %[w1], %[w1], lr\n\t"
          "subs %[segs], %[segs], #1\n\t"
          "bne 1b\n\t"
          : [s00] "+Te"(s00), [s01] "+Te"(s01), [s10] "+Te"(s10),
            [s11] "+Te"(s11), [a0] "+r"(a0), [a1] "+r"(a1), [w0] "+r"(w0),
            [w1] "+r"(w1), [segs] "+r"(segs)
          : [len] "r"(len), [da] "m"(da), [dw] "m"(dw)
          : "cc", "lr", "q0", "q1", "q2", "memory");
  s[0] = s00;
  s[1] = s01;
  s[2] = s10;
  s[3] = s11;
}

/* tflc__mve_dot2x2_runs for runs of a multiple of 48 values, the weight
 * runs one after the other (w0's and w1's segments contiguous, the
 * convolutions' 3 x 3 windows of 16, 32, 64 ... channels): no predication,
 * three vectors a loop (DLS/LE), only a0 and a1 moved da on between runs;
 * n48: len / 48. */
TFLC__INLINE void tflc__mve_dot2x2_runs48(const int8_t *a0, const int8_t *a1,
                                          const int8_t *w0, const int8_t *w1,
                                          int32_t n48, int32_t segs, int32_t da,
                                          int32_t *s) {
  int32_t s00 = 0, s01 = 0, s10 = 0, s11 = 0;
  /* clang-format off */
#define TFLC__MVE_DOT2X2_STEP                                                  \
  "vldrb.u8 q0, [%[a0]], #16\n\t"                                              \
  "vldrb.u8 q1, [%[a1]], #16\n\t"                                              \
  "vldrb.u8 q2, [%[w0]], #16\n\t"                                              \
  "vmlava.s8 %[s00], q0, q2\n\t"                                              \
  "vmlava.s8 %[s10], q1, q2\n\t"                                              \
  "vldrb.u8 q2, [%[w1]], #16\n\t"                                              \
  "vmlava.s8 %[s01], q0, q2\n\t"                                              \
  "vmlava.s8 %[s11], q1, q2\n\t"
  __asm__("1:\n\t"
          "dls lr, %[n48]\n"
          "2:\n\t"
          TFLC__MVE_DOT2X2_STEP
          TFLC__MVE_DOT2X2_STEP
          TFLC__MVE_DOT2X2_STEP
          "le lr, 2b\n\t"
          "add %[a0], %[a0], %[da]\n\t"
          "add %[a1], %[a1], %[da]\n\t"
          "subs %[segs], %[segs], #1\n\t"
          "bne 1b\n\t"
          : [s00] "+Te"(s00), [s01] "+Te"(s01), [s10] "+Te"(s10),
            [s11] "+Te"(s11), [a0] "+r"(a0), [a1] "+r"(a1), [w0] "+r"(w0),
            [w1] "+r"(w1), [segs] "+r"(segs)
          : [n48] "r"(n48), [da] "r"(da)
          : "cc", "lr", "q0", "q1", "q2", "memory");
#undef TFLC__MVE_DOT2X2_STEP
  /* clang-format on */
  s[0] = s00;
  s[1] = s01;
  s[2] = s10;
  s[3] = s11;
}

/* the same as a call (its registers out of a busy caller's) */
static TFLC__NOINLINE void
tflc__mve_dot2x2_runs_call(const int8_t *a0, const int8_t *a1, const int8_t *w0,
                           const int8_t *w1, int32_t len, int32_t segs,
                           int32_t da, int32_t dw, int32_t *s) {
  tflc__mve_dot2x2_runs(a0, a1, w0, w1, len, segs, da, dw, s);
}

/* Row pairs [0, 2 pairs) of a block against the columns w0, w1, over
 * segs > 0 segments of len > 0 values; left: some left shift is not 0,
 * run48: len a multiple of 48 and w_seg len (tflc__mve_dot2x2_runs48;
 * constants at each call site). */
TFLC__INLINE void tflc__mve_gemm_pairs_body(
    const tflc__mve_quant *fp, const int8_t *a, int32_t a_row, const int8_t *w0,
    const int8_t *w1, int32_t len, int8_t *o, int32_t out_row, int32_t pairs,
    int32_t segs, int32_t a_seg, int32_t w_seg, int left, int run48) {
  const tflc__mve_quant f = *fp;
  const uint32x4_t where =
      vreinterpretq_u32_s32(tflc__mve_vec4(0, 1, out_row, out_row + 1));
  const int32_t run = (len + 15) & ~15; /* what the loads step over */
  const ptrdiff_t a_step = 2 * (ptrdiff_t)a_row,
                  o_step = 2 * (ptrdiff_t)out_row;
  for (; pairs > 0; pairs--, a += a_step, o += o_step) {
    int32_t s[4];
    if (run48)
      tflc__mve_dot2x2_runs48(a, a + a_row, w0, w1, len / 48, segs, a_seg - len,
                              s);
    else
      tflc__mve_dot2x2_runs(a, a + a_row, w0, w1, len, segs, a_seg - run,
                            w_seg - run, s);
    vstrbq_scatter_offset_s32(
        o, where,
        tflc__mve_requant_shift(
            vaddq_s32(tflc__mve_vec4(s[0], s[1], s[2], s[3]), f.bias), &f,
            left));
  }
}

/* the loop above for one segment (the pointwise convolutions and fully
 * connected layers: written out, compilers keep more in registers) */
TFLC__INLINE void tflc__mve_gemm_pairs1_body(const tflc__mve_quant *fp,
                                             const int8_t *a, int32_t a_row,
                                             const int8_t *w0, const int8_t *w1,
                                             int32_t len, int8_t *o,
                                             int32_t out_row, int32_t pairs,
                                             int left, int tail) {
  const tflc__mve_quant f = *fp;
  const uint32x4_t where =
      vreinterpretq_u32_s32(tflc__mve_vec4(0, 1, out_row, out_row + 1));
  const int32_t n16 = len >> 4;
  const mve_pred16_t p = vctp8q((uint32_t)(len & 15));
  const ptrdiff_t a_step = 2 * (ptrdiff_t)a_row,
                  o_step = 2 * (ptrdiff_t)out_row;
  for (; pairs > 0; pairs--, a += a_step, o += o_step) {
    const int8_t *x0 = a, *x1 = a + a_row, *v0 = w0, *v1 = w1;
    int32_t s00 = 0, s01 = 0, s10 = 0, s11 = 0, i;
    for (i = n16; i > 0; i--) {
      const int8x16_t a0 = vldrbq_s8(x0), a1 = vldrbq_s8(x1);
      const int8x16_t b0 = vldrbq_s8(v0), b1 = vldrbq_s8(v1);
      s00 = vmladavaq_s8(s00, a0, b0);
      s01 = vmladavaq_s8(s01, a0, b1);
      s10 = vmladavaq_s8(s10, a1, b0);
      s11 = vmladavaq_s8(s11, a1, b1);
      x0 += 16;
      x1 += 16;
      v0 += 16;
      v1 += 16;
    }
    if (tail) {
      const int8x16_t a0 = vldrbq_z_s8(x0, p), a1 = vldrbq_z_s8(x1, p);
      const int8x16_t b0 = vldrbq_z_s8(v0, p), b1 = vldrbq_z_s8(v1, p);
      s00 = vmladavaq_s8(s00, a0, b0);
      s01 = vmladavaq_s8(s01, a0, b1);
      s10 = vmladavaq_s8(s10, a1, b0);
      s11 = vmladavaq_s8(s11, a1, b1);
    }
    vstrbq_scatter_offset_s32(
        o, where,
        tflc__mve_requant_shift(
            vaddq_s32(tflc__mve_vec4(s00, s01, s10, s11), f.bias), &f, left));
  }
}

/* The locals the requantization below reads (the block's quantization
 * fp, its output rows out_row bytes apart), and them as the asm's input
 * operands. */
#define TFLC__MVE_REQ_LOCALS                                                   \
  const int32x4_t bias = fp->bias, q = fp->q, right = fp->right;               \
  const uint32x4_t where =                                                     \
      vreinterpretq_u32_s32(tflc__mve_vec4(0, 1, out_row, out_row + 1));       \
  const int32_t off = fp->off, lo = fp->lo, hi = fp->hi;                       \
  const int32_t step = 2 * out_row;
#define TFLC__MVE_REQ_IN                                                       \
  [step] "r"(step), [off] "r"(off), [lo] "r"(lo), [hi] "r"(hi),                \
      [bias] "w"(bias), [q] "w"(q), [right] "w"(right), [where] "w"(where)
/* The requantization asm of the Helium loops below, as
 * tflc__mve_requant_shift without the left shift; the functions' named
 * operands are used as they are. TFLC__MVE_REQ_OUT(acc, t): the register
 * acc's four values plus %[off], clamped to %[lo]..%[hi] (t clobbered),
 * stored by one scatter at %[o] + %q[where] (the low bytes), %[o] moved on
 * by %[step]. TFLC__MVE_REQ_PAIRS: the sums %[s00] %[s01] %[s10] %[s11]
 * into q0's lanes 0..3 (q1 clobbered), plus %q[bias], VQRDMULH by %q[q],
 * the nudge and VRSHL by %q[right] (the right shifts as VRSHL amounts,
 * -31..0), then TFLC__MVE_REQ_OUT("q0", "q1"). */
#define TFLC__MVE_REQ_OUT(acc, t)                                              \
  "vadd.i32 " acc ", " acc ", %[off]\n\t"                                      \
  "vdup.32 " t ", %[lo]\n\t"                                                   \
  "vmax.s32 " acc ", " acc ", " t "\n\t"                                       \
  "vdup.32 " t ", %[hi]\n\t"                                                   \
  "vmin.s32 " acc ", " acc ", " t "\n\t"                                       \
  "vstrb.32 " acc ", [%[o], %q[where]]\n\t"                                    \
  "add %[o], %[o], %[step]\n\t"
#define TFLC__MVE_REQ_PAIRS                                                    \
  "vmov q0[2], q0[0], %[s00], %[s10]\n\t"                                      \
  "vmov q0[3], q0[1], %[s01], %[s11]\n\t"                                      \
  "vadd.i32 q0, q0, %q[bias]\n\t"                                              \
  "vqrdmulh.s32 q0, q0, %q[q]\n\t"                                             \
  "vand q1, q0, %q[right]\n\t"                                                 \
  "vshr.s32 q1, q1, #31\n\t"                                                   \
  "vqadd.s32 q0, q0, q1\n\t"                                                   \
  "vrshl.s32 q0, q0, %q[right]\n\t" TFLC__MVE_REQ_OUT("q0", "q1")

/* Pairs [0, pairs) of rows of 8 values that follow each other (a_row 8:
 * one 16-byte load holds rows r and r + 1) against the columns w0, w1
 * (their 8 weights twice in a vector: u, v), requantized by f (no left
 * shift) into lanes (r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1) and
 * stored with one scatter. One predicated block of four dot products
 * (VPSTETE: the low half of the load against the low half of u, the high
 * half against the high half, the same with v), so each load serves the
 * four sums of a 2 x 2 block; the requantization in the same asm, every
 * vector in a register. It sets VPR.P0, which no compiler lets an asm
 * declare clobbered: P0 is saved before the loop and put back after it.
 * pairs > 0. */
static TFLC__NOINLINE void tflc__mve_gemm_k8(const tflc__mve_quant *fp,
                                             const int8_t *a, const int8_t *w0,
                                             const int8_t *w1, int8_t *o,
                                             int32_t out_row, int32_t pairs) {
  /* lanes 0..7 and 8..15 read bytes 0..7 */
  const uint8x16_t twice = vandq_u8(vidupq_n_u8(0, 1), vdupq_n_u8(7));
  const int8x16_t u = vldrbq_gather_offset_s8(w0, twice);
  const int8x16_t v = vldrbq_gather_offset_s8(w1, twice);
  TFLC__MVE_REQ_LOCALS
  int32_t s00, s01, s10, s11, keep;
  /* clang-format off */
  /* accumulators in even registers (VMLADAV), "Te" in gcc and clang */
  __asm__ __volatile__(
      "vmrs %[s11], p0\n\t"
      "str %[s11], %[keep]\n\t"
      "ldr lr, %[n]\n\t"
      "dls lr, lr\n"
      "1:\n\t"
      "vldrb.u8 q0, [%[a]], #16\n\t"
      "movs %[s00], #255\n\t" /* the predicate: bytes 0..7 */
      "vmsr p0, %[s00]\n\t"   /* (an else inverts P0: set each time) */
      "vpstete\n\t"
      "vmladavt.s8 %[s00], q0, %q[u]\n\t"
      "vmladave.s8 %[s10], q0, %q[u]\n\t"
      "vmladavt.s8 %[s01], q0, %q[v]\n\t"
      "vmladave.s8 %[s11], q0, %q[v]\n\t"
      TFLC__MVE_REQ_PAIRS
      "le lr, 1b\n\t"
      "ldr %[s11], %[keep]\n\t"
      "vmsr p0, %[s11]\n\t"
      : [s00] "=&Te"(s00), [s01] "=&Te"(s01), [s10] "=&Te"(s10),
        [s11] "=&Te"(s11), [a] "+r"(a), [o] "+r"(o), [keep] "=m"(keep)
      : [n] "m"(pairs), [u] "w"(u), [v] "w"(v), TFLC__MVE_REQ_IN
      : "lr", "q0", "q1", "memory");
  /* clang-format on */
  (void)s00;
  (void)s01;
  (void)s10;
  (void)s11;
}

/* Pairs [0, pairs) of rows of 16 values that follow each other (a_row
 * 16) against the columns w0, w1 (u, v), requantized by f (no left
 * shift) into lanes (r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1) and
 * stored with one scatter: two loads, four dot products and the
 * requantization in one asm loop, every vector in a register (the loads'
 * registers reused for the sums). pairs > 0. */
static TFLC__NOINLINE void tflc__mve_gemm_k16(const tflc__mve_quant *fp,
                                              const int8_t *a, const int8_t *w0,
                                              const int8_t *w1, int8_t *o,
                                              int32_t out_row, int32_t pairs) {
  const int8x16_t u = vldrbq_s8(w0), v = vldrbq_s8(w1);
  TFLC__MVE_REQ_LOCALS
  int32_t s00, s01, s10, s11;
  /* clang-format off */
  /* accumulators in even registers (VMLADAV), "Te" in gcc and clang */
  __asm__ __volatile__(
      "ldr lr, %[n]\n\t"
      "dls lr, lr\n"
      "1:\n\t"
      "vldrb.u8 q0, [%[a]], #16\n\t"
      "vldrb.u8 q1, [%[a]], #16\n\t"
      "vmladav.s8 %[s00], q0, %q[u]\n\t"
      "vmladav.s8 %[s01], q0, %q[v]\n\t"
      "vmladav.s8 %[s10], q1, %q[u]\n\t"
      "vmladav.s8 %[s11], q1, %q[v]\n\t"
      TFLC__MVE_REQ_PAIRS
      "le lr, 1b\n\t"
      : [s00] "=&Te"(s00), [s01] "=&Te"(s01), [s10] "=&Te"(s10),
        [s11] "=&Te"(s11), [a] "+r"(a), [o] "+r"(o)
      : [n] "m"(pairs), [u] "w"(u), [v] "w"(v), TFLC__MVE_REQ_IN
      : "lr", "q0", "q1", "memory");
  /* clang-format on */
  (void)s00;
  (void)s01;
  (void)s10;
  (void)s11;
}

/* Pairs [0, pairs) of rows of 48 values that follow each other (a_row
 * 48) against two columns of 48 weights that follow each other (w_col 48:
 * w0 at w, w1 at w + 48), requantized by f (no left shift) into lanes
 * (r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1) and stored with one
 * scatter: every load at an immediate offset (the rows' pointer moved on
 * by the last one), twelve dot products and the requantization in one asm
 * loop. pairs > 0. */
static TFLC__NOINLINE void tflc__mve_gemm_k48(const tflc__mve_quant *fp,
                                              const int8_t *a, const int8_t *w,
                                              int8_t *o, int32_t out_row,
                                              int32_t pairs) {
  TFLC__MVE_REQ_LOCALS
  int32_t s00, s01, s10, s11;
  /* clang-format off */
  /* accumulators in even registers (VMLADAV), "Te" in gcc and clang */
#define TFLC__MVE_K48_STEP(op, xa, xb, wa, wb)                                 \
  "vldrb.u8 q0, [%[a], #" xa "]\n\t"                                           \
  "vldrb.u8 q1, [%[a], #" xb "]\n\t"                                           \
  "vldrb.u8 q2, [%[w], #" wa "]\n\t"                                           \
  "vldrb.u8 q3, [%[w], #" wb "]\n\t"                                           \
  op " %[s00], q0, q2\n\t"                                                     \
  op " %[s01], q0, q3\n\t"                                                     \
  op " %[s10], q1, q2\n\t"                                                     \
  op " %[s11], q1, q3\n\t"
  __asm__ __volatile__(
      "ldr lr, %[n]\n\t"
      "dls lr, lr\n"
      "1:\n\t"
      TFLC__MVE_K48_STEP("vmladav.s8", "16", "64", "16", "64")
      TFLC__MVE_K48_STEP("vmladava.s8", "32", "80", "32", "80")
      "vldrb.u8 q1, [%[a], #48]\n\t"
      "vldrb.u8 q0, [%[a]], #96\n\t"
      "vldrb.u8 q2, [%[w]]\n\t"
      "vldrb.u8 q3, [%[w], #48]\n\t"
      "vmladava.s8 %[s00], q0, q2\n\t"
      "vmladava.s8 %[s01], q0, q3\n\t"
      "vmladava.s8 %[s10], q1, q2\n\t"
      "vmladava.s8 %[s11], q1, q3\n\t"
      TFLC__MVE_REQ_PAIRS
      "le lr, 1b\n\t"
      : [s00] "=&Te"(s00), [s01] "=&Te"(s01), [s10] "=&Te"(s10),
        [s11] "=&Te"(s11), [a] "+r"(a), [o] "+r"(o)
      : [n] "m"(pairs), [w] "r"(w), TFLC__MVE_REQ_IN
      : "lr", "q0", "q1", "q2", "q3", "memory");
#undef TFLC__MVE_K48_STEP
  /* clang-format on */
  (void)s00;
  (void)s01;
  (void)s10;
  (void)s11;
}

static TFLC__NOINLINE void
tflc__mve_gemm_pairs1(const tflc__mve_quant *fp, const int8_t *a, int32_t a_row,
                      const int8_t *w0, const int8_t *w1, int32_t len,
                      int8_t *o, int32_t out_row, int32_t pairs) {
  /* variants without the left shift (all of them 0: the usual case) and
   * without the predicated tail */
  const int left = vmaxvq_s32(0, fp->left) != 0;
  if (left)
    tflc__mve_gemm_pairs1_body(fp, a, a_row, w0, w1, len, o, out_row, pairs, 1,
                               1);
  else if (len & 15)
    tflc__mve_gemm_pairs1_body(fp, a, a_row, w0, w1, len, o, out_row, pairs, 0,
                               1);
  else
    tflc__mve_gemm_pairs1_body(fp, a, a_row, w0, w1, len, o, out_row, pairs, 0,
                               0);
}

/* the loop above for any number of segments */
static TFLC__NOINLINE void
tflc__mve_gemm_pairs(const tflc__mve_quant *fp, const int8_t *a, int32_t a_row,
                     const int8_t *w0, const int8_t *w1, int32_t len, int8_t *o,
                     int32_t out_row, int32_t pairs, int32_t segs,
                     int32_t a_seg, int32_t w_seg) {
  if (vmaxvq_s32(0, fp->left) != 0)
    tflc__mve_gemm_pairs_body(fp, a, a_row, w0, w1, len, o, out_row, pairs,
                              segs, a_seg, w_seg, 1, 0);
  else
    tflc__mve_gemm_pairs_body(fp, a, a_row, w0, w1, len, o, out_row, pairs,
                              segs, a_seg, w_seg, 0, 0);
}

/* Quads [0, quads) of rows of 24 values that follow each other (a_row
 * 24: two rows are three 16-byte loads, the middle one the end of the
 * first row and the start of the second) against one column w, its
 * weights held as w[0..15], w[16..23] w[0..7] and w[8..23]: the middle
 * load's halves go to the two rows' sums through a predicated pair (VPSTE
 * on bytes 0..7, P0 set again before each pair since an else inverts
 * it). The four rows' sums make one vector (lanes r, r + 2, r + 1, r + 3)
 * requantized with the column's scalars (bias with the input offset
 * folded in, multiplier, right shift -31..0; no left shift) and stored
 * with one scatter. Like tflc__mve_gemm_k8 it keeps VPR.P0 as it found
 * it. quads > 0. */
static TFLC__NOINLINE void tflc__mve_gemm_k24(const int8_t *a, const int8_t *w,
                                              int8_t *o, int32_t out_row,
                                              int32_t quads, int32_t bias,
                                              int32_t mul, int32_t right,
                                              const tflc_requant_params *rq) {
  static const uint8_t mid[16] = {16, 17, 18, 19, 20, 21, 22, 23,
                                  0,  1,  2,  3,  4,  5,  6,  7};
  const int8x16_t w0 = vldrbq_s8(w), w2 = vldrbq_s8(w + 8);
  const int8x16_t w1 = vldrbq_gather_offset_s8(w, vldrbq_u8(mid));
  const int32x4_t b = vdupq_n_s32(bias);
  const uint32x4_t where = vreinterpretq_u32_s32(
      tflc__mve_vec4(0, 2 * out_row, out_row, 3 * out_row));
  const int32_t off = rq->output_offset, lo = rq->act_min, hi = rq->act_max;
  const int32_t step = 4 * out_row;
  int32_t s0, s1, keep;
  /* clang-format off */
#define TFLC__MVE_K24_PAIR(lanes)                                              \
  "vldrb.u8 q0, [%[a]], #16\n\t"                                               \
  "vmladav.s8 %[s0], q0, %q[w0]\n\t"                                           \
  "vldrb.u8 q0, [%[a]], #16\n\t"                                               \
  "movs %[s1], #255\n\t"                                                       \
  "vmsr p0, %[s1]\n\t"                                                         \
  "vpste\n\t"                                                                  \
  "vmladavat.s8 %[s0], q0, %q[w1]\n\t"                                         \
  "vmladave.s8 %[s1], q0, %q[w1]\n\t"                                          \
  "vldrb.u8 q0, [%[a]], #16\n\t"                                               \
  "vmladava.s8 %[s1], q0, %q[w2]\n\t"                                          \
  "vmov q1[" lanes "], %[s0], %[s1]\n\t"
  __asm__ __volatile__(
      "vmrs %[s1], p0\n\t"
      "str %[s1], %[keep]\n\t"
      "ldr lr, %[n]\n\t"
      "dls lr, lr\n"
      "1:\n\t"
      TFLC__MVE_K24_PAIR("2], q1[0")
      TFLC__MVE_K24_PAIR("3], q1[1")
      "vadd.i32 q1, q1, %q[b]\n\t"
      "vqrdmulh.s32 q1, q1, %[mul]\n\t"
      "vdup.32 q0, %[right]\n\t"
      "vand q0, q1, q0\n\t"
      "vshr.s32 q0, q0, #31\n\t"
      "vqadd.s32 q1, q1, q0\n\t"
      "vrshl.s32 q1, %[right]\n\t"
      TFLC__MVE_REQ_OUT("q1", "q0")
      "le lr, 1b\n\t"
      "ldr %[s1], %[keep]\n\t"
      "vmsr p0, %[s1]\n\t"
      : [s0] "=&Te"(s0), [s1] "=&Te"(s1), [a] "+r"(a), [o] "+r"(o),
        [keep] "=m"(keep)
      : [n] "m"(quads), [step] "r"(step), [mul] "r"(mul), [right] "r"(right),
        [off] "r"(off), [lo] "r"(lo), [hi] "r"(hi),
        [w0] "w"(w0), [w1] "w"(w1), [w2] "w"(w2), [b] "w"(b),
        [where] "w"(where)
      : "lr", "q0", "q1", "memory");
#undef TFLC__MVE_K24_PAIR
  /* clang-format on */
  (void)s0;
  (void)s1;
}
#undef TFLC__MVE_REQ_PAIRS
#undef TFLC__MVE_REQ_OUT
#undef TFLC__MVE_REQ_IN
#undef TFLC__MVE_REQ_LOCALS

/* One segment of rows of len 1..32 values (16 * (two + 1) bytes readable
 * from each row's start: those past len multiply zero weights) against
 * pairs of columns whose weights stay in vector registers for all rows
 * (zero past len; two: len above 16, a second vector each), in 2 x 2
 * blocks: four sums requantized as one vector (lanes c, c + 1, c, c + 1,
 * their parameters gathered), one scatter store; an odd last row as a
 * 1 x 2 block. The biases get a_offset times the columns' sums. Even
 * columns; rq per channel, no left shift. */
TFLC__INLINE void tflc__mve_window_pairs_body(const tflc_requant_params *rq,
                                              const tflc_gemm_block *g,
                                              int two) {
  const int32_t len = g->seg_len, a_row = g->a_row, out_row = g->out_row;
  const int32_t off = g->a_offset, z = rq->output_offset;
  const int32_t lo = rq->act_min, hi = rq->act_max;
  const mve_pred16_t p0 = vctp8q((uint32_t)len);
  const mve_pred16_t p1 = vctp8q((uint32_t)(len > 16 ? len - 16 : 0));
  const uint32x4_t pair = vreinterpretq_u32_s32(tflc__mve_vec4(0, 1, 0, 1));
  const uint32x4_t where =
      vreinterpretq_u32_s32(tflc__mve_vec4(0, 1, out_row, out_row + 1));
  const ptrdiff_t a_step = 2 * (ptrdiff_t)a_row,
                  o_step = 2 * (ptrdiff_t)out_row;
  int32_t c, r;
  for (c = 0; c < g->cols; c += 2) {
    const int8_t *const w0 = g->w + (ptrdiff_t)c * g->w_col;
    const int8_t *const w1 = w0 + g->w_col;
    const int8x16_t u0 = vldrbq_z_s8(w0, p0), v0 = vldrbq_z_s8(w1, p0);
    const int8x16_t u1 = two ? vldrbq_z_s8(w0 + 16, p1) : vdupq_n_s8(0);
    const int8x16_t v1 = two ? vldrbq_z_s8(w1 + 16, p1) : vdupq_n_s8(0);
    const int32_t t0 = vaddvaq_s8(vaddvq_s8(u0), u1);
    const int32_t t1 = vaddvaq_s8(vaddvq_s8(v0), v1);
    const int32x4_t q =
        vldrwq_gather_shifted_offset_s32(rq->multiplier + c, pair);
    const int32x4_t right =
        vmaxq_s32(vminq_s32(vldrbq_gather_offset_s32(rq->shift + c, pair),
                            vdupq_n_s32(0)),
                  vdupq_n_s32(-31));
    const int32x4_t bias = vmlaq_n_s32(
        rq->bias != NULL ? vldrwq_gather_shifted_offset_s32(rq->bias + c, pair)
                         : vdupq_n_s32(0),
        tflc__mve_vec4(t0, t1, t0, t1), off);
    const int8_t *a = g->a;
    int8_t *o = g->out + c;
    for (r = 0; r + 2 <= g->rows; r += 2, a += a_step, o += o_step) {
      const int8x16_t x0 = vldrbq_s8(a), y0 = vldrbq_s8(a + a_row);
      int32_t s00 = vmladavq_s8(x0, u0), s01 = vmladavq_s8(x0, v0);
      int32_t s10 = vmladavq_s8(y0, u0), s11 = vmladavq_s8(y0, v0);
      int32x4_t v;
      if (two) {
        const int8x16_t x1 = vldrbq_s8(a + 16), y1 = vldrbq_s8(a + a_row + 16);
        s00 = vmladavaq_s8(s00, x1, u1);
        s01 = vmladavaq_s8(s01, x1, v1);
        s10 = vmladavaq_s8(s10, y1, u1);
        s11 = vmladavaq_s8(s11, y1, v1);
      }
      /* tflc__mve_requant_shift without the left shift */
      v = vqrdmulhq_s32(vaddq_s32(tflc__mve_vec4(s00, s01, s10, s11), bias), q);
      v = vqaddq_s32(v, vshrq_n_s32(vandq_s32(v, right), 31));
      v = vaddq_n_s32(vrshlq_s32(v, right), z);
      v = vminq_s32(vmaxq_s32(v, vdupq_n_s32(lo)), vdupq_n_s32(hi));
      vstrbq_scatter_offset_s32(o, where, v);
    }
    if (r < g->rows) { /* the last row: lanes 0 and 1 */
      const int8x16_t x0 = vldrbq_s8(a);
      int32_t s00 = vmladavq_s8(x0, u0), s01 = vmladavq_s8(x0, v0);
      int32x4_t v;
      if (two) {
        const int8x16_t x1 = vldrbq_s8(a + 16);
        s00 = vmladavaq_s8(s00, x1, u1);
        s01 = vmladavaq_s8(s01, x1, v1);
      }
      v = vqrdmulhq_s32(vaddq_s32(tflc__mve_vec4(s00, s01, s00, s01), bias), q);
      v = vqaddq_s32(v, vshrq_n_s32(vandq_s32(v, right), 31));
      v = vaddq_n_s32(vrshlq_s32(v, right), z);
      v = vminq_s32(vmaxq_s32(v, vdupq_n_s32(lo)), vdupq_n_s32(hi));
      vstrbq_p_s32(o, v, vctp32q(2u)); /* lanes 0 and 1 */
    }
  }
}

/* tflc_gemm_s8_mve's blocks of one segment of 16 or 32 values (the
 * pointwise convolutions of 16 or 32 channels): even columns, per-channel
 * requantization without left shifts */
static TFLC__NOINLINE void tflc__mve_gemm_points(const tflc_requant_params *rq,
                                                 const tflc_gemm_block *g) {
  if (g->seg_len > 16)
    tflc__mve_window_pairs_body(rq, g, 1);
  else
    tflc__mve_window_pairs_body(rq, g, 0);
}

/* The GEMM in 2 x 2 blocks (two rows against two columns: each loaded
 * vector used twice), four sums requantized as one vector and stored with
 * one scatter; an odd last row as a 1 x 2 block, an odd last column
 * through tflc__mve_gemm_cols. */
static TFLC__NOINLINE void tflc__mve_gemm_blocks(const tflc_requant_params *rq,
                                                 const tflc_gemm_block *g) {
  const int32_t rows = g->rows, segs = g->segments, len = g->seg_len;
  const int32_t a_row = g->a_row, a_seg = g->a_seg, w_col = g->w_col;
  const int32_t w_seg = g->w_seg, out_row = g->out_row;
  const uint32x4_t where =
      vreinterpretq_u32_s32(tflc__mve_vec4(0, 1, out_row, out_row + 1));
  int32_t c, r, sg;
  if (rows == 1) {
    /* one row: four columns at a time, no row computed twice */
    tflc__mve_gemm_cols(rq, g, 0);
    return;
  }
  for (c = 0; c + 2 <= g->cols; c += 2) {
    const int8_t *const w0 = g->w + (ptrdiff_t)c * w_col;
    const int8_t *const w1 = w0 + w_col;
    const int8_t *a = g->a;
    int8_t *o = g->out + c;
    tflc__mve_quant f;
    tflc__mve_quant_pair(&f, rq, g, c, w0, w1);
    r = 0;
    if (rows >= 2 && segs == 1) {
      tflc__mve_gemm_pairs1(&f, a, a_row, w0, w1, len, o, out_row, rows / 2);
      r = rows & ~1;
      a += (ptrdiff_t)r * a_row;
      o += (ptrdiff_t)r * out_row;
    } else if (rows >= 2 && segs > 0 && len > 0) {
      tflc__mve_gemm_pairs(&f, a, a_row, w0, w1, len, o, out_row, rows / 2,
                           segs, a_seg, w_seg);
      r = rows & ~1;
      a += (ptrdiff_t)r * a_row;
      o += (ptrdiff_t)r * out_row;
    }
    for (; r < rows;
         r += 2, a += 2 * (ptrdiff_t)a_row, o += 2 * (ptrdiff_t)out_row) {
      /* an odd last row: its own row twice, the second pair not stored */
      const int8_t *const a1 = r + 1 < rows ? a + a_row : a;
      int32_t s[4] = {0, 0, 0, 0};
      int32x4_t v;
      if (segs == 1)
        tflc__mve_dot2x2(a, a1, w0, w1, len, s);
      else if (segs > 0 && len > 0)
        tflc__mve_dot2x2_runs_call(a, a1, w0, w1, len, segs,
                                   a_seg - ((len + 15) & ~15),
                                   w_seg - ((len + 15) & ~15), s);
      else
        for (sg = 0; sg < segs; sg++) {
          const ptrdiff_t da = (ptrdiff_t)sg * a_seg;
          const ptrdiff_t dw = (ptrdiff_t)sg * w_seg;
          tflc__mve_dot2x2(a + da, a1 + da, w0 + dw, w1 + dw, len, s);
        }
      v = tflc__mve_requant(
          vaddq_s32(tflc__mve_vec4(s[0], s[1], s[2], s[3]), f.bias), &f);
      if (r + 1 < rows)
        vstrbq_scatter_offset_s32(o, where, v);
      else
        vstrbq_p_s32(o, v, vctp32q(2u));
    }
  }
  if (c < g->cols)
    tflc__mve_gemm_cols(rq, g, c);
}

/* The pointwise blocks of 24 input channels (one segment of 24 values,
 * rows 24 bytes apart, four rows at least, no left shift): each column's
 * quads of rows through tflc__mve_gemm_k24, its bias with a_offset times
 * the column's sum folded in (wrapping); the last rows % 4 rows through
 * tflc__mve_gemm_blocks. */
static TFLC__NOINLINE void
tflc__mve_gemm_k24_block(const tflc_requant_params *rq,
                         const tflc_gemm_block *g) {
  const int32_t quads = g->rows / 4;
  tflc_gemm_block rest = *g;
  int32_t c;
  for (c = 0; c < g->cols; c++) {
    const int8_t *const w = g->w + (ptrdiff_t)c * g->w_col;
    const int32_t k = rq->per_channel ? c : 0;
    const int32_t sh = rq->shift[k];
    uint32_t bias = rq->bias != NULL ? (uint32_t)rq->bias[c] : 0u;
    bias += (uint32_t)g->a_offset * (uint32_t)tflc__mve_sum(w, 24);
    tflc__mve_gemm_k24(g->a, w, g->out + c, g->out_row, quads,
                       tflc__wrap32((int64_t)bias), rq->multiplier[k],
                       sh < -31 ? -31 : sh, rq);
  }
  rest.rows = g->rows - 4 * quads;
  if (rest.rows > 0) {
    rest.a += (ptrdiff_t)(4 * quads) * g->a_row;
    rest.out += (ptrdiff_t)(4 * quads) * g->out_row;
    tflc__mve_gemm_blocks(rq, &rest);
  }
}

/* The pointwise blocks of 8, 16 or 48 values (one segment, rows one
 * after the other, for 48 the columns too; two rows at least): each
 * column pair's row pairs through tflc__mve_gemm_k8, _k16 or _k48 (with a
 * left shift through tflc__mve_gemm_pairs1), an odd last row as a 1 x 2
 * block (its row twice, two lanes stored), an odd last column through
 * tflc__mve_gemm_cols. */
static TFLC__NOINLINE void
tflc__mve_gemm_pointwise(const tflc_requant_params *rq,
                         const tflc_gemm_block *g) {
  const int32_t rows = g->rows, len = g->seg_len, out_row = g->out_row;
  const ptrdiff_t last = (ptrdiff_t)(rows & ~1);
  int32_t c;
  for (c = 0; c + 2 <= g->cols; c += 2) {
    const int8_t *const w0 = g->w + (ptrdiff_t)c * g->w_col;
    const int8_t *const w1 = w0 + g->w_col;
    int8_t *const o = g->out + c;
    tflc__mve_quant f;
    tflc__mve_quant_pair(&f, rq, g, c, w0, w1);
    if (vmaxvq_s32(0, f.left) != 0)
      tflc__mve_gemm_pairs1(&f, g->a, len, w0, w1, len, o, out_row, rows / 2);
    else if (len == 8)
      tflc__mve_gemm_k8(&f, g->a, w0, w1, o, out_row, rows / 2);
    else if (len == 16)
      tflc__mve_gemm_k16(&f, g->a, w0, w1, o, out_row, rows / 2);
    else
      tflc__mve_gemm_k48(&f, g->a, w0, o, out_row, rows / 2);
    if (rows & 1) {
      const int8_t *const a = g->a + last * len;
      int32_t s[4] = {0, 0, 0, 0};
      tflc__mve_dot2x2(a, a, w0, w1, len, s);
      vstrbq_p_s32(
          o + last * out_row,
          tflc__mve_requant(
              vaddq_s32(tflc__mve_vec4(s[0], s[1], s[2], s[3]), f.bias), &f),
          vctp32q(2u));
    }
  }
  if (c < g->cols)
    tflc__mve_gemm_cols(rq, g, c);
}

/* The blocks of the 3 x 3 convolutions of 16, 32, 64 ... channels: every
 * column pair's requantization (tflc__mve_quant_pair) and its row pairs
 * in one call, runs of a multiple of 48 values whose weight segments
 * follow each other (w_seg len; tflc__mve_dot2x2_runs48), an odd last row
 * as a 1 x 2 block (its row twice, two lanes stored), an odd last column
 * through tflc__mve_gemm_cols. Two rows at least. */
static TFLC__NOINLINE void tflc__mve_gemm_runs48(const tflc_requant_params *rq,
                                                 const tflc_gemm_block *g) {
  const int32_t rows = g->rows, segs = g->segments, len = g->seg_len;
  const int32_t a_row = g->a_row, a_seg = g->a_seg, out_row = g->out_row;
  const ptrdiff_t last = (ptrdiff_t)(rows & ~1);
  int32_t c;
  for (c = 0; c + 2 <= g->cols; c += 2) {
    const int8_t *const w0 = g->w + (ptrdiff_t)c * g->w_col;
    const int8_t *const w1 = w0 + g->w_col;
    int8_t *const o = g->out + c;
    tflc__mve_quant f;
    tflc__mve_quant_pair(&f, rq, g, c, w0, w1);
    if (vmaxvq_s32(0, f.left) != 0)
      tflc__mve_gemm_pairs_body(&f, g->a, a_row, w0, w1, len, o, out_row,
                                rows / 2, segs, a_seg, len, 1, 0);
    else
      tflc__mve_gemm_pairs_body(&f, g->a, a_row, w0, w1, len, o, out_row,
                                rows / 2, segs, a_seg, len, 0, 1);
    if (rows & 1) {
      const int8_t *const a = g->a + last * a_row;
      int32_t s[4];
      tflc__mve_dot2x2_runs48(a, a, w0, w1, len / 48, segs, a_seg - len, s);
      vstrbq_p_s32(
          o + last * out_row,
          tflc__mve_requant(
              vaddq_s32(tflc__mve_vec4(s[0], s[1], s[2], s[3]), f.bias), &f),
          vctp32q(2u));
    }
  }
  if (c < g->cols)
    tflc__mve_gemm_cols(rq, g, c);
}

/* one row takes tflc__mve_gemm_cols; blocks of one segment of 16 or 32
 * values against even columns with per-channel requantization and no
 * left shift tflc__mve_gemm_points, those of runs of a multiple of 48
 * values tflc__mve_gemm_runs48, the others tflc__mve_gemm_blocks */
TFLC_API void tflc_gemm_s8_mve(const tflc_requant_params *rq,
                               const tflc_gemm_block *g) {
  int32_t c;
  if (g->rows < 2) {
    /* one row: four columns at a time, no row computed twice */
    tflc__mve_gemm_cols(rq, g, 0);
    return;
  }
  if (g->segments == 1 && g->seg_len == g->a_row) {
    /* pointwise blocks, their rows one after the other */
    if (g->seg_len == 24 && g->rows >= 4) {
      const int32_t n = rq->per_channel ? g->cols : 1;
      for (c = 0; c < n && rq->shift[c] <= 0; c++) {
      }
      if (c == n) {
        tflc__mve_gemm_k24_block(rq, g);
        return;
      }
    }
    if (g->seg_len == 8 || g->seg_len == 16 ||
        (g->seg_len == 48 && g->w_col == 48)) {
      tflc__mve_gemm_pointwise(rq, g);
      return;
    }
  }
  if (g->segments == 1 && (g->seg_len == 16 || g->seg_len == 32) &&
      g->cols >= 2 && (g->cols & 1) == 0 && rq->per_channel) {
    for (c = 0; c < g->cols && rq->shift[c] <= 0; c++) {
    }
    if (c == g->cols) {
      tflc__mve_gemm_points(rq, g);
      return;
    }
  }
  if (g->segments > 0 && g->seg_len > 0 && g->seg_len % 48 == 0 &&
      g->w_seg == g->seg_len)
    tflc__mve_gemm_runs48(rq, g);
  else
    tflc__mve_gemm_blocks(rq, g);
}

TFLC_API void tflc_gemm_window_s8_mve(const tflc_requant_params *rq,
                                      const tflc_gemm_block *g) {
  const int32_t len = g->seg_len, w_col = g->w_col;
  int32_t c, r;
  if (g->segments != 1 || len < 1) {
    tflc_gemm_s8_mve(rq, g); /* not a window block */
    return;
  }
  for (c = 0; c < g->cols; c += 4) {
    const int32_t n = g->cols - c < 4 ? g->cols - c : 4;
    const mve_pred16_t p = vctp32q((uint32_t)n);
    /* columns past the block repeat its column c (their lanes unused) */
    const int8_t *const w0 = g->w + (ptrdiff_t)c * w_col;
    const int8_t *const w1 = n > 1 ? w0 + w_col : w0;
    const int8_t *const w2 = n > 2 ? w1 + w_col : w0;
    const int8_t *const w3 = n > 3 ? w2 + w_col : w0;
    const int8_t *a = g->a;
    int8_t *o = g->out + c;
    tflc__mve_quant f;
    tflc__mve_quant_at(&f, rq, c, n);
    if (g->a_offset != 0) /* the offset times each column's sum */
      f.bias = vmlaq_n_s32(
          f.bias,
          tflc__mve_vec4(tflc__mve_sum(w0, len), tflc__mve_sum(w1, len),
                         tflc__mve_sum(w2, len), tflc__mve_sum(w3, len)),
          g->a_offset);
    for (r = 0; r < g->rows; r++, a += g->a_row, o += g->out_row)
      vstrbq_p_s32(
          o,
          tflc__mve_requant(
              vaddq_s32(tflc__mve_dot1x4_tp(a, w0, w1, w2, w3, len), f.bias),
              &f),
          p);
  }
}

/* The dot products of the row x with four weight rows over depth values
 * (16 at a time, then one predicated step), as one vector. */
TFLC__INLINE int32x4_t tflc__mve_fc_dot4(const int8_t *x, const int8_t *w0,
                                         const int8_t *w1, const int8_t *w2,
                                         const int8_t *w3, int32_t depth) {
  int32_t s[4] = {0, 0, 0, 0};
  tflc__mve_dot1x4(x, w0, w1, w2, w3, depth, s);
  return tflc__mve_vec4(s[0], s[1], s[2], s[3]);
}

TFLC_API void tflc_fully_connected_s8_mve(const tflc_requant_params *rq,
                                          const int16_t *sums, int32_t x_offset,
                                          int32_t batches, int32_t depth,
                                          int32_t out_depth, const int8_t *x,
                                          const int8_t *w, int8_t *out) {
  int32_t c, b;
  for (c = 0; c < out_depth; c += 4) {
    const int32_t n = out_depth - c < 4 ? out_depth - c : 4;
    const mve_pred16_t p = vctp32q((uint32_t)n);
    /* outputs past the end repeat row c (their lanes are not stored) */
    const int8_t *const w0 = w + (ptrdiff_t)c * depth;
    const int8_t *const w1 = n > 1 ? w0 + depth : w0;
    const int8_t *const w2 = n > 2 ? w1 + depth : w0;
    const int8_t *const w3 = n > 3 ? w2 + depth : w0;
    const int8_t *xb = x;
    int8_t *o = out + c;
    tflc__mve_quant f;
    tflc__mve_quant_at(&f, rq, c, n);
    if (sums != NULL) /* the input offset times the rows' sums */
      f.bias = vmlaq_n_s32(f.bias, vldrhq_z_s32(sums + c, p), x_offset);
    for (b = 0; b < batches; b++, xb += depth, o += out_depth)
      vstrbq_p_s32(
          o,
          tflc__mve_requant(
              vaddq_s32(tflc__mve_fc_dot4(xb, w0, w1, w2, w3, depth), f.bias),
              &f),
          p);
  }
}

#if defined(TFLC__FC_S8_IS_MVE)
/* The FULLY_CONNECTED seam on Helium (TFLC__FC_S8_*): raw int8 weights
 * take tflc_fully_connected_s8_mve, the input offset times each weight
 * row's sum made once at prepare instead of on every invoke. Rows of at
 * most 256 values have sums that fit 16 bits (|sum| <= 32,768): those are
 * kept as int16 and the biases read from the model at invoke (2 bytes per
 * output); longer rows, or biases not 4-byte aligned, get bias + offset *
 * sum as one int32 per output. No buffer when the offset is 0 and the
 * biases can be read in place. The other layers (weights or bias not
 * final at prepare, compressed or INT4 weights, a per-tensor filter zero
 * point) keep the generic kernel. Returns the buffer's bytes, 0 for a
 * layer that takes the generic kernel (*mve 0). */
static size_t tflc__fc_s8_mve_plan(const tflc_fc_params *p, int32_t accum,
                                   int32_t depth, const tflc_const *filter,
                                   const tflc_const *bias, int *mve) {
  int bias_in_place;
  *mve = 0;
  if (!filter || filter->kind != TFLC_CONST_RAW_LUT || filter->bits != 0 ||
      filter->type != TFLC_INT8 || !filter->data || depth < 1 ||
      (uint32_t)depth > 0x3FFFFFFFu || (!p->per_channel && p->filter_offset))
    return 0;
  if (bias && (bias->kind != TFLC_CONST_RAW_LUT || bias->bits != 0 ||
               bias->type != TFLC_INT32 || !bias->data))
    return 0;
  *mve = 1;
  bias_in_place = !bias || ((uintptr_t)bias->data & 3u) == 0;
  if (p->input_offset == 0 && bias_in_place)
    return 0;
  return (accum <= 256 && bias_in_place ? 2u : 4u) * (size_t)(uint32_t)depth;
}
static size_t tflc__fc_s8_prepare_bytes_mve(const tflc_fc_params *p,
                                            int32_t accum, int32_t depth,
                                            const tflc_const *filter,
                                            const tflc_const *bias) {
  int mve;
  return tflc__fc_s8_mve_plan(p, accum, depth, filter, bias, &mve);
}
static void tflc__fc_s8_prepare_mve(void *record, void *buf,
                                    const tflc_fc_params *p, int32_t accum,
                                    int32_t depth, const tflc_const *filter,
                                    const tflc_const *bias) {
  tflc_fc_s8_mve_record *r = (tflc_fc_s8_mve_record *)record;
  int mve;
  const size_t n = tflc__fc_s8_mve_plan(p, accum, depth, filter, bias, &mve);
  const int8_t *w;
  int32_t o;
  r->mode = mve;
  r->bias = NULL;
  r->sums = NULL;
  if (!mve)
    return;
  w = (const int8_t *)filter->data;
  r->bias = bias ? (const int32_t *)bias->data : NULL;
  if (n == 0 || !buf)
    return;
  if (n == 2u * (size_t)(uint32_t)depth) {
    int16_t *sums = (int16_t *)buf;
    for (o = 0; o < depth; o++)
      sums[o] = (int16_t)tflc__mve_sum(w + (ptrdiff_t)o * accum, accum);
    r->sums = sums;
  } else {
    int32_t *k = (int32_t *)buf;
    for (o = 0; o < depth; o++) {
      int32_t b = 0;
      if (bias)
        memcpy(&b, (const uint8_t *)bias->data + (size_t)o * 4u, 4);
      k[o] = tflc__wrap32(
          (int64_t)((uint32_t)b + (uint32_t)p->input_offset *
                                      (uint32_t)tflc__mve_sum(
                                          w + (ptrdiff_t)o * accum, accum)));
    }
    r->bias = k;
  }
}
TFLC__INLINE void tflc__fc_s8_run_mve(
    const void *record, const tflc_fc_params *p, int32_t batches, int32_t accum,
    int32_t depth, const int8_t *in, const tflc_const *filter,
    const tflc_const *bias, int8_t *out, void *tile, size_t tile_bytes) {
  const tflc_fc_s8_mve_record *r = (const tflc_fc_s8_mve_record *)record;
  if (r->mode) {
    tflc_requant_params rq;
    rq.bias = r->bias;
    rq.multiplier = p->out_multiplier;
    rq.shift = p->out_shift;
    rq.per_channel = p->per_channel;
    rq.output_offset = p->output_offset;
    rq.act_min = p->act_min;
    rq.act_max = p->act_max;
    tflc_fully_connected_s8_mve(&rq, r->sums, p->input_offset, batches, accum,
                                depth, in, (const int8_t *)filter->data, out);
    return;
  }
  tflc_fully_connected_s8(p, batches, accum, depth, in, filter, bias, out, tile,
                          tile_bytes);
}
#endif

/* Depthwise sums of four channels (lanes) of one or two pixels over a
 * window of rows x cols taps (constants at some call sites); full: all
 * four lanes valid (no predication); m1: multiplier 1 (else every lane
 * reads the one input value at xt[0]); with_off: the input offset is not
 * 0 (the broadcast input adds it anyway). */
TFLC__INLINE void tflc__mve_dw_window(const tflc_depthwise_block *b,
                                      const int8_t *xt, const int8_t *wt,
                                      mve_pred16_t p, int full, int m1, int two,
                                      int32_t rows, int32_t cols, int with_off,
                                      int32x4_t *acc0, int32x4_t *acc1) {
  const int32_t x_col = b->x_col, w_col = b->w_col, x_pixel = b->x_pixel;
  const int32_t off = b->x_offset;
  int32x4_t s0 = *acc0, s1 = *acc1;
  int32_t y, x;
  for (y = 0; y < rows; y++) {
    const int8_t *xr = xt + (ptrdiff_t)y * b->x_row;
    const int8_t *wr = wt + (ptrdiff_t)y * b->w_row;
    for (x = 0; x < cols; x++, xr += x_col, wr += w_col) {
      const int32x4_t wv = full ? vldrbq_s32(wr) : vldrbq_z_s32(wr, p);
      if (m1) {
        int32x4_t xv = full ? vldrbq_s32(xr) : vldrbq_z_s32(xr, p);
        if (with_off)
          xv = vaddq_n_s32(xv, off);
        s0 = vaddq_s32(s0, vmulq_s32(xv, wv));
        if (two) {
          xv = full ? vldrbq_s32(xr + x_pixel) : vldrbq_z_s32(xr + x_pixel, p);
          if (with_off)
            xv = vaddq_n_s32(xv, off);
          s1 = vaddq_s32(s1, vmulq_s32(xv, wv));
        }
      } else {
        s0 = vmlaq_n_s32(s0, wv, (int32_t)((uint32_t)xr[0] + (uint32_t)off));
        if (two)
          s1 = vmlaq_n_s32(s1, wv,
                           (int32_t)((uint32_t)xr[x_pixel] + (uint32_t)off));
      }
    }
  }
  *acc0 = s0;
  *acc1 = s1;
}

/* Sums of four channels of four pixels (all lanes valid), the input
 * offset 0 when m1 (with a broadcast input it is added to the scalar). */
TFLC__INLINE void tflc__mve_dw_window4(const tflc_depthwise_block *b,
                                       const int8_t *xt, const int8_t *wt,
                                       int m1, int32_t rows, int32_t cols,
                                       int32x4_t *acc) {
  const int32_t x_col = b->x_col, w_col = b->w_col;
  const ptrdiff_t xp = b->x_pixel;
  const uint32_t off = (uint32_t)b->x_offset;
  int32x4_t s0 = acc[0], s1 = acc[0], s2 = acc[0], s3 = acc[0];
  int32_t y, x;
  for (y = 0; y < rows; y++) {
    const int8_t *xr = xt + (ptrdiff_t)y * b->x_row;
    const int8_t *wr = wt + (ptrdiff_t)y * b->w_row;
    for (x = 0; x < cols; x++, xr += x_col, wr += w_col) {
      const int32x4_t wv = vldrbq_s32(wr);
      if (m1) {
        s0 = vaddq_s32(s0, vmulq_s32(vldrbq_s32(xr), wv));
        s1 = vaddq_s32(s1, vmulq_s32(vldrbq_s32(xr + xp), wv));
        s2 = vaddq_s32(s2, vmulq_s32(vldrbq_s32(xr + 2 * xp), wv));
        s3 = vaddq_s32(s3, vmulq_s32(vldrbq_s32(xr + 3 * xp), wv));
      } else {
        s0 = vmlaq_n_s32(s0, wv, (int32_t)((uint32_t)xr[0] + off));
        s1 = vmlaq_n_s32(s1, wv, (int32_t)((uint32_t)xr[xp] + off));
        s2 = vmlaq_n_s32(s2, wv, (int32_t)((uint32_t)xr[2 * xp] + off));
        s3 = vmlaq_n_s32(s3, wv, (int32_t)((uint32_t)xr[3 * xp] + off));
      }
    }
  }
  acc[0] = s0;
  acc[1] = s1;
  acc[2] = s2;
  acc[3] = s3;
}

/* Channels [c, c + n) (n 1..4) of a depthwise block: pixels four at a
 * time (all lanes valid, and no input offset with multiplier 1), then two
 * at a time, then one. full: n == 4 (a constant at each call site). */
TFLC__INLINE void tflc__mve_dw4(const tflc_requant_params *rq,
                                const tflc_depthwise_block *b, int32_t c,
                                int32_t n, int full, int m1) {
  const mve_pred16_t p = vctp32q((uint32_t)n);
  const int8_t *xt = b->x + (m1 ? c : c / b->multiplier);
  const int8_t *wt = b->w + c;
  int8_t *o = b->out + c;
  const ptrdiff_t xp = b->x_pixel;
  const ptrdiff_t op = b->out_pixel;
  const int is3x3 = b->rows == 3 && b->cols == 3;
  const int fast3x3 = full && m1 && is3x3 && b->x_offset == 0;
  tflc__mve_quant f;
  int32_t px = 0;
  tflc__mve_quant_at(&f, rq, c, n);
  if (full && (!m1 || b->x_offset == 0))
    for (; px + 4 <= b->pixels; px += 4, xt += 4 * xp, o += 4 * op) {
      int32x4_t s[4];
      s[0] = f.bias;
      if (is3x3)
        tflc__mve_dw_window4(b, xt, wt, m1, 3, 3, s);
      else
        tflc__mve_dw_window4(b, xt, wt, m1, b->rows, b->cols, s);
      vstrbq_s32(o, tflc__mve_requant(s[0], &f));
      vstrbq_s32(o + op, tflc__mve_requant(s[1], &f));
      vstrbq_s32(o + 2 * op, tflc__mve_requant(s[2], &f));
      vstrbq_s32(o + 3 * op, tflc__mve_requant(s[3], &f));
    }
  for (; px + 2 <= b->pixels; px += 2, xt += 2 * xp, o += 2 * op) {
    int32x4_t s0 = f.bias, s1 = f.bias;
    if (fast3x3)
      tflc__mve_dw_window(b, xt, wt, p, 1, 1, 1, 3, 3, 0, &s0, &s1);
    else
      tflc__mve_dw_window(b, xt, wt, p, full, m1, 1, b->rows, b->cols, 1, &s0,
                          &s1);
    s0 = tflc__mve_requant(s0, &f);
    s1 = tflc__mve_requant(s1, &f);
    if (full) {
      vstrbq_s32(o, s0);
      vstrbq_s32(o + op, s1);
    } else {
      vstrbq_p_s32(o, s0, p);
      vstrbq_p_s32(o + op, s1, p);
    }
  }
  if (px < b->pixels) {
    int32x4_t s0 = f.bias, s1 = f.bias;
    if (fast3x3)
      tflc__mve_dw_window(b, xt, wt, p, 1, 1, 0, 3, 3, 0, &s0, &s1);
    else
      tflc__mve_dw_window(b, xt, wt, p, full, m1, 0, b->rows, b->cols, 1, &s0,
                          &s1);
    vstrbq_p_s32(o, tflc__mve_requant(s0, &f), p);
  }
}

/* the four cases, each compiled once */
static TFLC__NOINLINE void tflc__mve_dw4_m1(const tflc_requant_params *rq,
                                            const tflc_depthwise_block *b,
                                            int32_t c) {
  tflc__mve_dw4(rq, b, c, 4, 1, 1);
}
static TFLC__NOINLINE void tflc__mve_dw4_bcast(const tflc_requant_params *rq,
                                               const tflc_depthwise_block *b,
                                               int32_t c) {
  tflc__mve_dw4(rq, b, c, 4, 1, 0);
}
static TFLC__NOINLINE void tflc__mve_dw_tail(const tflc_requant_params *rq,
                                             const tflc_depthwise_block *b,
                                             int32_t c, int m1) {
  if (m1)
    tflc__mve_dw4(rq, b, c, b->channels - c, 0, 1);
  else
    tflc__mve_dw4(rq, b, c, b->channels - c, 0, 0);
}

/* The nine weights of a window of at most 3 x 3 taps of one channel, as
 * scalars (0 for taps outside the window) */
typedef struct tflc__mve_w3x3 {
  int32_t w00, w01, w02, w10, w11, w12, w20, w21, w22;
} tflc__mve_w3x3;

/* Requantization of four pixels of one channel, the parameters as
 * scalars: shift >= 0 a left shift (mode 1), < 0 a right shift (mode 2,
 * shift = max(shift, -31)); as tflc__mve_requant. */
TFLC__INLINE int32x4_t tflc__mve_requant_lanes(int32x4_t acc, int32_t q,
                                               int32_t shift, int32_t off,
                                               int32x4_t lo, int32x4_t hi,
                                               int mode) {
  int32x4_t v = mode == 1 ? vshlq_r_s32(acc, shift) : acc;
  v = vqrdmulhq_n_s32(v, q);
  if (mode == 2) {
    v = vqaddq_s32(v, vshrq_n_s32(v, 31));
    v = vrshlq_n_s32(v, shift);
  }
  return vminq_s32(vmaxq_s32(vaddq_n_s32(v, off), lo), hi);
}

/* Gather and scatter offsets of a run of pixels with four in the lanes:
 * of tap columns 0..2 from a tap row (o), of the outputs (where); for a
 * run of fewer than four pixels (ot, where_t) the lanes past the run
 * repeat its last pixel, so the gathers need no predicate (the scatter
 * has one). */
typedef struct tflc__mve_lanes {
  uint32x4_t o0, o1, o2, where, ot0, ot1, ot2, where_t;
  int32x4_t lo, hi;
  int32_t groups;           /* runs of four or more pixels: groups of four */
  ptrdiff_t back_x, back_o; /* the last group's step back (0..3 pixels) */
} tflc__mve_lanes;

/* The sums of four pixels of one channel: one VMLA per tap of a gathered
 * input vector by the weight as a scalar, over taps rows x cols
 * (constants at every call: the taps outside are left out). */
TFLC__INLINE int32x4_t tflc__mve_dw_lanes_sum(
    const int8_t *r0, const int8_t *r1, const int8_t *r2, uint32x4_t o0,
    uint32x4_t o1, uint32x4_t o2, const tflc__mve_w3x3 *w, int32_t bias,
    int rows, int cols) {
  int32x4_t acc = vdupq_n_s32(bias);
  acc = vmlaq_n_s32(acc, vldrbq_gather_offset_s32(r0, o0), w->w00);
  if (cols > 1)
    acc = vmlaq_n_s32(acc, vldrbq_gather_offset_s32(r0, o1), w->w01);
  if (cols > 2)
    acc = vmlaq_n_s32(acc, vldrbq_gather_offset_s32(r0, o2), w->w02);
  if (rows > 1) {
    acc = vmlaq_n_s32(acc, vldrbq_gather_offset_s32(r1, o0), w->w10);
    if (cols > 1)
      acc = vmlaq_n_s32(acc, vldrbq_gather_offset_s32(r1, o1), w->w11);
    if (cols > 2)
      acc = vmlaq_n_s32(acc, vldrbq_gather_offset_s32(r1, o2), w->w12);
  }
  if (rows > 2) {
    acc = vmlaq_n_s32(acc, vldrbq_gather_offset_s32(r2, o0), w->w20);
    if (cols > 1)
      acc = vmlaq_n_s32(acc, vldrbq_gather_offset_s32(r2, o1), w->w21);
    if (cols > 2)
      acc = vmlaq_n_s32(acc, vldrbq_gather_offset_s32(r2, o2), w->w22);
  }
  return acc;
}

/* One channel's run of pixels, four per vector: the inputs of tap (y, x)
 * at row pointer y (r0, r1, r2) plus the offsets of column x. Taps
 * outside a smaller window have weight 0 and read an existing tap again.
 * Runs of four or more pixels end with the group of their last four
 * (recomputing up to three outputs with the same values), shorter ones
 * are one partial group. */
TFLC__INLINE void tflc__mve_dw_lanes_run(const tflc__mve_lanes *lv,
                                         const tflc_depthwise_block *b,
                                         const int8_t *r0, const int8_t *r1,
                                         const int8_t *r2, int8_t *o,
                                         const tflc__mve_w3x3 *wk, int32_t bias,
                                         int32_t q, int32_t shift, int32_t off,
                                         int mode, int rows, int cols) {
  const tflc__mve_w3x3 w = *wk;
  const int32x4_t lo = lv->lo, hi = lv->hi;
  if (b->pixels >= 4) {
    const ptrdiff_t xs = 4 * (ptrdiff_t)b->x_pixel,
                    os = 4 * (ptrdiff_t)b->out_pixel;
    const uint32x4_t o0 = lv->o0, o1 = lv->o1, o2 = lv->o2;
    const uint32x4_t where = lv->where;
    int32_t g;
    for (g = lv->groups;; r0 += xs, r1 += xs, r2 += xs, o += os) {
      vstrbq_scatter_offset_s32(
          o, where,
          tflc__mve_requant_lanes(tflc__mve_dw_lanes_sum(r0, r1, r2, o0, o1, o2,
                                                         &w, bias, rows, cols),
                                  q, shift, off, lo, hi, mode));
      if (--g == 0)
        break;
      if (g == 1) { /* the last group ends at the last pixel */
        r0 -= lv->back_x;
        r1 -= lv->back_x;
        r2 -= lv->back_x;
        o -= lv->back_o;
      }
    }
  } else {
    vstrbq_scatter_offset_p_s32(
        o, lv->where_t,
        tflc__mve_requant_lanes(tflc__mve_dw_lanes_sum(r0, r1, r2, lv->ot0,
                                                       lv->ot1, lv->ot2, &w,
                                                       bias, rows, cols),
                                q, shift, off, lo, hi, mode),
        vctp32q((uint32_t)b->pixels));
  }
}

/* The weights of channel c (at w0) of a window of rows x cols taps (1..3
 * each; constants at the call for the full 3 x 3 window). */
TFLC__INLINE void tflc__mve_w3x3_load(tflc__mve_w3x3 *wk, const int8_t *w0,
                                      ptrdiff_t wr, ptrdiff_t wc, int32_t rows,
                                      int32_t cols) {
  const int8_t *w1 = w0 + wr, *w2 = w1 + wr;
  wk->w00 = w0[0];
  wk->w01 = cols > 1 ? w0[wc] : 0;
  wk->w02 = cols > 2 ? w0[2 * wc] : 0;
  wk->w10 = rows > 1 ? w1[0] : 0;
  wk->w11 = rows > 1 && cols > 1 ? w1[wc] : 0;
  wk->w12 = rows > 1 && cols > 2 ? w1[2 * wc] : 0;
  wk->w20 = rows > 2 ? w2[0] : 0;
  wk->w21 = rows > 2 && cols > 1 ? w2[wc] : 0;
  wk->w22 = rows > 2 && cols > 2 ? w2[2 * wc] : 0;
}

/* Channels [0, channels) of a lanes block, the window rows x cols
 * (constants at the calls for the shapes compiled on their own), taps
 * taps_rows x taps_cols computed (constants: the window's shape, or 3 x 3
 * with weights 0 outside it). */
TFLC__INLINE void tflc__mve_dw_lanes_channels(const tflc__mve_lanes *lv,
                                              const tflc_requant_params *rq,
                                              const tflc_depthwise_block *b,
                                              int32_t rows, int32_t cols,
                                              int taps_rows, int taps_cols) {
  const ptrdiff_t wr = b->w_row, wc = b->w_col;
  const ptrdiff_t d1 = rows > 1 ? b->x_row : 0, d2 = rows > 2 ? 2 * d1 : 0;
  const int32_t off = rq->output_offset;
  int32_t c;
  for (c = 0; c < b->channels; c++) {
    const int8_t *r0 = b->x + c;
    const int32_t k = rq->per_channel ? c : 0;
    const int32_t q = rq->multiplier[k], s = rq->shift[k];
    tflc__mve_w3x3 wk;
    uint32_t bias = rq->bias != NULL ? (uint32_t)rq->bias[c] : 0u;
    tflc__mve_w3x3_load(&wk, b->w + c, wr, wc, rows, cols);
    if (b->x_offset != 0)
      bias += (uint32_t)b->x_offset *
              (uint32_t)(wk.w00 + wk.w01 + wk.w02 + wk.w10 + wk.w11 + wk.w12 +
                         wk.w20 + wk.w21 + wk.w22);
    if (s < 0)
      tflc__mve_dw_lanes_run(lv, b, r0, r0 + d1, r0 + d2, b->out + c, &wk,
                             tflc__wrap32((int64_t)bias), q, s < -31 ? -31 : s,
                             off, 2, taps_rows, taps_cols);
    else
      tflc__mve_dw_lanes_run(lv, b, r0, r0 + d1, r0 + d2, b->out + c, &wk,
                             tflc__wrap32((int64_t)bias), q, s, off, 1,
                             taps_rows, taps_cols);
  }
}

/* Depthwise with multiplier 1 and a window of at most 3 x 3 taps over a
 * run of pixels: four pixels in the lanes of a vector, one channel at a
 * time, each tap one VMLA of the gathered inputs by its weight as a
 * scalar (no multiply and add per tap as with channels in the lanes). The
 * weights stay scalars for the whole run, and the input offset goes into
 * the bias as the offset times their sum (the portable sums of
 * (x + off) * w wrap to the same value). The last group may write up to
 * three outputs a second time (the same values): out must not overlap x,
 * as tflc's planner guarantees for an operator's input and output. */
static TFLC__NOINLINE void tflc__mve_dw_lanes(const tflc_requant_params *rq,
                                              const tflc_depthwise_block *b) {
  const uint32x4_t lanes = vidupq_n_u32(0u, 1);
  /* the last group's lanes: 0, 1, .., last, last, .. */
  const uint32x4_t tail =
      vminq_u32(lanes, vdupq_n_u32((uint32_t)((b->pixels - 1) & 3)));
  const uint32_t xc = (uint32_t)b->x_col, xp = (uint32_t)b->x_pixel;
  const uint32_t c1 = b->cols > 1 ? xc : 0u, c2 = b->cols > 2 ? 2u * xc : 0u;
  tflc__mve_lanes lv;
  lv.o0 = vmulq_n_u32(lanes, xp);
  lv.o1 = vaddq_n_u32(lv.o0, c1);
  lv.o2 = vaddq_n_u32(lv.o0, c2);
  lv.where = vmulq_n_u32(lanes, (uint32_t)b->out_pixel);
  lv.ot0 = vmulq_n_u32(tail, xp);
  lv.ot1 = vaddq_n_u32(lv.ot0, c1);
  lv.ot2 = vaddq_n_u32(lv.ot0, c2);
  lv.where_t = vmulq_n_u32(tail, (uint32_t)b->out_pixel);
  lv.lo = vdupq_n_s32(rq->act_min);
  lv.hi = vdupq_n_s32(rq->act_max);
  lv.groups = (b->pixels + 3) / 4;
  lv.back_x = (ptrdiff_t)(4 * lv.groups - b->pixels) * b->x_pixel;
  lv.back_o = (ptrdiff_t)(4 * lv.groups - b->pixels) * b->out_pixel;
  /* the full window and the clipped ones of a 3 x 3 window's borders
   * compiled for their shapes */
  if (b->rows == 3 && b->cols == 3)
    tflc__mve_dw_lanes_channels(&lv, rq, b, 3, 3, 3, 3);
  else if (b->rows == 3 && b->cols == 2)
    tflc__mve_dw_lanes_channels(&lv, rq, b, 3, 2, 3, 2);
  else if (b->rows == 2 && b->cols == 3)
    tflc__mve_dw_lanes_channels(&lv, rq, b, 2, 3, 2, 3);
  else
    tflc__mve_dw_lanes_channels(&lv, rq, b, b->rows, b->cols, 3, 3);
}

/* Sums of channels [c, c + 16) of one pixel over its window, as four
 * vectors; with_off: the input offset is not 0. */
TFLC__INLINE void tflc__mve_dw_one16_sums(const tflc_depthwise_block *b,
                                          int32_t c, int with_off,
                                          int32x4_t *acc) {
  const int32_t x_col = b->x_col, w_col = b->w_col, off = b->x_offset;
  int32x4_t s0 = vdupq_n_s32(0), s1 = s0, s2 = s0, s3 = s0;
  int32_t y, x;
  for (y = 0; y < b->rows; y++) {
    const int8_t *xr = b->x + c + (ptrdiff_t)y * b->x_row;
    const int8_t *wr = b->w + c + (ptrdiff_t)y * b->w_row;
    for (x = 0; x < b->cols; x++, xr += x_col, wr += w_col) {
      int32x4_t x0 = vldrbq_s32(xr), x1 = vldrbq_s32(xr + 4);
      int32x4_t x2 = vldrbq_s32(xr + 8), x3 = vldrbq_s32(xr + 12);
      if (with_off) {
        x0 = vaddq_n_s32(x0, off);
        x1 = vaddq_n_s32(x1, off);
        x2 = vaddq_n_s32(x2, off);
        x3 = vaddq_n_s32(x3, off);
      }
      s0 = vaddq_s32(s0, vmulq_s32(x0, vldrbq_s32(wr)));
      s1 = vaddq_s32(s1, vmulq_s32(x1, vldrbq_s32(wr + 4)));
      s2 = vaddq_s32(s2, vmulq_s32(x2, vldrbq_s32(wr + 8)));
      s3 = vaddq_s32(s3, vmulq_s32(x3, vldrbq_s32(wr + 12)));
    }
  }
  acc[0] = s0;
  acc[1] = s1;
  acc[2] = s2;
  acc[3] = s3;
}

/* Depthwise with multiplier 1 for one pixel (the border pixels, each with
 * its own clipped window): sixteen channels at a time, the four vectors
 * of one tap read at one address. */
static TFLC__NOINLINE void tflc__mve_dw_one16(const tflc_requant_params *rq,
                                              const tflc_depthwise_block *b,
                                              int32_t c) {
  int32x4_t acc[4];
  int32_t k;
  if (b->x_offset != 0)
    tflc__mve_dw_one16_sums(b, c, 1, acc);
  else
    tflc__mve_dw_one16_sums(b, c, 0, acc);
  for (k = 0; k < 4; k++) {
    tflc__mve_quant f;
    tflc__mve_quant_at(&f, rq, c + 4 * k, 4);
    vstrbq_s32(b->out + c + 4 * k,
               tflc__mve_requant(vaddq_s32(acc[k], f.bias), &f));
  }
}

/* The requantization of channels c + 2 i + odd (i < 4) of rq: the even or
 * odd channels of eight, as VMULLB / VMULLT leave them in the lanes. */
TFLC__INLINE void tflc__mve_quant_pairs(tflc__mve_quant *f,
                                        const tflc_requant_params *rq,
                                        int32_t c, int odd) {
  const uint32x4_t ix = vmulq_n_u32(vidupq_n_u32(0, 1), 2);
  int32x4_t s;
  if (rq->per_channel) {
    f->q = vldrwq_gather_shifted_offset_s32(rq->multiplier + c + odd, ix);
    s = vldrbq_gather_offset_s32(rq->shift + c + odd, ix);
  } else {
    f->q = vdupq_n_s32(rq->multiplier[0]);
    s = vdupq_n_s32(rq->shift[0]);
  }
  f->bias = rq->bias != NULL
                ? vldrwq_gather_shifted_offset_s32(rq->bias + c + odd, ix)
                : vdupq_n_s32(0);
  f->left = vmaxq_s32(s, vdupq_n_s32(0));
  f->right = vmaxq_s32(vminq_s32(s, vdupq_n_s32(0)), vdupq_n_s32(-31));
  f->off = rq->output_offset;
  f->lo = rq->act_min;
  f->hi = rq->act_max;
}

/* Channels [c, c + 8) of each pixel of the block, multiplier 1: the
 * inputs and weights widened to 16 bits (the input offset too: |offset|
 * <= 32640 keeps x + offset within 16 bits), their products exact in 32
 * bits (VMULLB for the even channels, VMULLT for the odd ones) and summed
 * wrapping; the requantization read once for all the pixels. */
static TFLC__NOINLINE void tflc__mve_dw_run8(const tflc_requant_params *rq,
                                             const tflc_depthwise_block *b,
                                             int32_t c) {
  const uint32x4_t ix = vmulq_n_u32(vidupq_n_u32(0, 1), 2);
  const int16_t off = (int16_t)b->x_offset;
  const ptrdiff_t x_row = b->x_row, x_col = b->x_col;
  const ptrdiff_t w_row = b->w_row, w_col = b->w_col;
  /* rows that follow each other (a filter one column wide, a map one
   * column wide): one row of all the taps */
  const int flat = x_row == (ptrdiff_t)b->cols * x_col &&
                   w_row == (ptrdiff_t)b->cols * w_col;
  const int32_t rows = flat ? 1 : b->rows;
  const int32_t cols = flat ? b->rows * b->cols : b->cols;
  tflc__mve_quant fe, fo;
  int32_t p, y, x;
  tflc__mve_quant_pairs(&fe, rq, c, 0);
  tflc__mve_quant_pairs(&fo, rq, c, 1);
  for (p = 0; p < b->pixels; p++) {
    const int8_t *xp = b->x + c + (ptrdiff_t)p * b->x_pixel;
    int8_t *o = b->out + c + (ptrdiff_t)p * b->out_pixel;
    int32x4_t se = fe.bias, so = fo.bias;
    for (y = 0; y < rows; y++) {
      const int8_t *xr = xp + (ptrdiff_t)y * x_row;
      const int8_t *wr = b->w + c + (ptrdiff_t)y * w_row;
      for (x = 0; x < cols; x++, xr += x_col, wr += w_col) {
        const int16x8_t xv = vaddq_n_s16(vldrbq_s16(xr), off);
        const int16x8_t wv = vldrbq_s16(wr);
        se = vaddq_s32(se, vmullbq_int_s16(xv, wv));
        so = vaddq_s32(so, vmulltq_int_s16(xv, wv));
      }
    }
    vstrbq_scatter_offset_s32(o, ix, tflc__mve_requant(se, &fe));
    vstrbq_scatter_offset_s32(o + 1, ix, tflc__mve_requant(so, &fo));
  }
}

#ifndef TFLC__MVE_DW_PIXELS_MAX
#define TFLC__MVE_DW_PIXELS_CH 16 /* channels at least */
#define TFLC__MVE_DW_PIXELS_MAX 8 /* runs shorter than this */
#endif
/* Depthwise with multiplier 1, channels in the lanes: eight at a time
 * over all the pixels (tflc__mve_dw_run8), the rest pixel by pixel
 * (sixteen, then four, then the last predicated). */
static TFLC__NOINLINE void tflc__mve_dw_pixels(const tflc_requant_params *rq,
                                               const tflc_depthwise_block *b) {
  tflc_depthwise_block one = *b;
  int32_t p, c = 0;
  if (b->x_offset >= -32640 && b->x_offset <= 32640)
    for (; c + 8 <= b->channels; c += 8)
      tflc__mve_dw_run8(rq, b, c);
  if (c == b->channels)
    return;
  one.pixels = 1;
  for (p = 0; p < b->pixels; p++) {
    int32_t k = c;
    one.x = b->x + (ptrdiff_t)p * b->x_pixel;
    one.out = b->out + (ptrdiff_t)p * b->out_pixel;
    for (; k + 16 <= one.channels; k += 16)
      tflc__mve_dw_one16(rq, &one, k);
    for (; k + 4 <= one.channels; k += 4)
      tflc__mve_dw4_m1(rq, &one, k);
    if (k < one.channels)
      tflc__mve_dw_tail(rq, &one, k, 1);
  }
}

TFLC_API void tflc_depthwise_s8_mve(const tflc_requant_params *rq,
                                    const tflc_depthwise_block *b) {
  const int32_t m = b->multiplier;
  int32_t c;
  if (m == 1 && b->channels >= TFLC__MVE_DW_PIXELS_CH &&
      b->pixels < TFLC__MVE_DW_PIXELS_MAX) {
    /* short runs of many channels: channels in the lanes, pixel by pixel
     * (the lanes below pay each channel's set-up once per run) */
    tflc__mve_dw_pixels(rq, b);
    return;
  }
  if (m == 1 && b->pixels >= 2 && b->rows >= 1 && b->rows <= 3 &&
      b->cols >= 1 && b->cols <= 3 && b->x_pixel >= 0 && b->x_col >= 0 &&
      b->out_pixel >= 0 &&
      (int64_t)b->x_pixel * 3 + 2 * (int64_t)b->x_col <= INT32_MAX &&
      (int64_t)b->out_pixel * 3 <= INT32_MAX) {
    /* runs of windows up to 3 x 3: pixels in the lanes */
    tflc__mve_dw_lanes(rq, b);
    return;
  }
  if (m == 1 && b->pixels == 1 && b->channels >= 16) {
    /* one pixel: sixteen channels at a time, the rest as below */
    for (c = 0; c + 16 <= b->channels; c += 16)
      tflc__mve_dw_one16(rq, b, c);
    for (; c + 4 <= b->channels; c += 4)
      tflc__mve_dw4_m1(rq, b, c);
    if (c < b->channels)
      tflc__mve_dw_tail(rq, b, c, 1);
    return;
  }
  if (m != 1 && (m <= 0 || m % 4 != 0)) {
    /* groups of four channels that read different input channels */
    TFLC__MVE_DEPTHWISE_OTHER(rq, b);
    return;
  }
  for (c = 0; c + 4 <= b->channels; c += 4) {
    if (m == 1)
      tflc__mve_dw4_m1(rq, b, c);
    else
      tflc__mve_dw4_bcast(rq, b, c);
  }
  if (c < b->channels) /* the last channels, predicated */
    tflc__mve_dw_tail(rq, b, c, m == 1);
}

#if defined(TFLC__DEPTHWISE_LAYER_S8_IS_MVE) ||                                \
    (defined(TFLC_MVE_DW3_LAYER_TEST) && defined(TFLC_HAVE_MVE))
/* The assembly text of the Helium 3 x 3 depthwise: one tap of eight
 * channels (the input at register operand xr, its weights at w + k): the
 * even channels' products into %q[e], the odd ones' into %q[o] (q2-q4
 * scratch); a window's nine taps (x0 at its first tap, rows %[row] and
 * columns %[ch] apart; x0-x2 moved) */
/* clang-format off */
#define TFLC__MVE_TAP8(xr, k)                                                  \
  "vldrb.s16 q2, [%[" xr "]]\n\t"                                              \
  "vldrb.s16 q3, [%[w], #" #k "]\n\t"                                          \
  "vmullb.s16 q4, q2, q3\n\t"                                                  \
  "vadd.i32 %q[e], %q[e], q4\n\t"                                              \
  "vmullt.s16 q4, q2, q3\n\t"                                                  \
  "vadd.i32 %q[o], %q[o], q4\n\t"
#define TFLC__MVE_TAPS9                                                        \
  "add %[x1], %[x0], %[ch]\n\t"  TFLC__MVE_TAP8("x0", 0)                       \
  "add %[x2], %[x1], %[ch]\n\t"  TFLC__MVE_TAP8("x1", 8)                       \
  "add %[x0], %[x0], %[row]\n\t" TFLC__MVE_TAP8("x2", 16)                      \
  "add %[x1], %[x0], %[ch]\n\t"  TFLC__MVE_TAP8("x0", 24)                      \
  "add %[x2], %[x1], %[ch]\n\t"  TFLC__MVE_TAP8("x1", 32)                      \
  "add %[x0], %[x0], %[row]\n\t" TFLC__MVE_TAP8("x2", 40)                      \
  "add %[x1], %[x0], %[ch]\n\t"  TFLC__MVE_TAP8("x0", 48)                      \
  "add %[x2], %[x1], %[ch]\n\t"  TFLC__MVE_TAP8("x1", 56)                      \
                                  TFLC__MVE_TAP8("x2", 64)
/* the rounding right shift of a VQRDMULH result in %q[acc] by the VRSHL
 * amounts in s (t scratch), as tflc__mve_requant_shift */
#define TFLC__MVE_RSHIFT(acc, s, t)                                            \
  "vand " t ", %q[" acc "], " s "\n\t"                                         \
  "vshr.s32 " t ", " t ", #31\n\t"                                             \
  "vqadd.s32 %q[" acc "], %q[" acc "], " t "\n\t"                              \
  "vrshl.s32 %q[" acc "], %q[" acc "], " s "\n\t"
/* clang-format on */

/* The sums of channels [c, c + 8) over a 3 x 3 window inside the input
 * (x at its first tap and channel c, w the nine taps' eight weights one
 * after the other), the inputs and weights widened to 16 bits, even
 * channels added to *se and odd ones to *so (VMULLB/VMULLT: exact 32-bit
 * products). In assembly: compilers load every tap first and spill. */
TFLC__INLINE void tflc__mve_dw3x3_sums8(const int8_t *x, const int8_t *w,
                                        ptrdiff_t x_row, ptrdiff_t ch,
                                        int32x4_t *se, int32x4_t *so) {
  int32x4_t e = *se, o = *so;
  const int8_t *x0 = x, *x1, *x2;
  /* widening loads take r0-r7 ("l") */
  __asm__(
      TFLC__MVE_TAPS9
      : [e] "+w"(e), [o] "+w"(o), [x0] "+l"(x0), [x1] "=&l"(x1), [x2] "=&l"(x2)
      : [w] "l"(w), [ch] "r"(ch), [row] "r"(x_row)
      : "q2", "q3", "q4", "memory");
  *se = e;
  *so = o;
}

/* A run of output pixels whose 3 x 3 windows lie inside the input,
 * channels [c, c + 8) (x, o at channel c; w the nine taps' eight weights
 * one after the other): the sums start from be, bo, the biases with the
 * input offset in them (offset times the nine weights), requantized as
 * fe, fo (their biases not read); left: some left shift is not 0 (a
 * constant at each call site). */
TFLC__INLINE void
tflc__mve_dw3x3_run8_body(const int8_t *x, const int8_t *w, int8_t *o,
                          int32_t pixels, ptrdiff_t x_row, ptrdiff_t ch,
                          ptrdiff_t x_pixel, ptrdiff_t o_pixel,
                          const tflc__mve_quant *fe, const tflc__mve_quant *fo,
                          int32x4_t be, int32x4_t bo, int left) {
  const uint32x4_t ix = vmulq_n_u32(vidupq_n_u32(0, 1), 2);
  for (; pixels > 0; pixels--, x += x_pixel, o += o_pixel) {
    int32x4_t se = be, so = bo;
    tflc__mve_dw3x3_sums8(x, w, x_row, ch, &se, &so);
    vstrbq_scatter_offset_s32(o, ix, tflc__mve_requant_shift(se, fe, left));
    vstrbq_scatter_offset_s32(o + 1, ix, tflc__mve_requant_shift(so, fo, left));
  }
}

/* *se, *so += the products of the eight inputs at x plus off and the
 * eight weights at w, widened to 16 bits (even channels into *se, odd
 * ones into *so); in assembly, as tflc__mve_dw3x3_sums8 */
TFLC__INLINE void tflc__mve_dw8_tap_off(const int8_t *x, const int8_t *w,
                                        int32_t off, int32x4_t *se,
                                        int32x4_t *so) {
  int32x4_t e = *se, o = *so;
  __asm__("vldrb.s16 q2, [%[x]]\n\t"
          "vldrb.s16 q3, [%[w]]\n\t"
          "vadd.i16 q2, q2, %[off]\n\t"
          "vmullb.s16 q4, q2, q3\n\t"
          "vadd.i32 %q[e], %q[e], q4\n\t"
          "vmullt.s16 q4, q2, q3\n\t"
          "vadd.i32 %q[o], %q[o], q4"
          : [e] "+w"(e), [o] "+w"(o)
          : [x] "l"(x), [w] "l"(w), [off] "r"(off)
          : "q2", "q3", "q4", "memory");
  *se = e;
  *so = o;
}

/* the sums of a clipped window of rows x cols taps (constants at each
 * call site; w the nine taps' weights as in tflc__mve_dw3x3_sums8, at the
 * window's first tap) */
TFLC__INLINE void tflc__mve_dw3x3_clip8(const int8_t *x, const int8_t *w,
                                        int32_t rows, int32_t cols,
                                        ptrdiff_t x_row, ptrdiff_t ch,
                                        int32_t off, int32x4_t *se,
                                        int32x4_t *so) {
  int32_t y, k;
  for (y = 0; y < rows; y++, x += x_row, w += 24)
    for (k = 0; k < cols; k++)
      tflc__mve_dw8_tap_off(x + k * ch, w + 8 * k, off, se, so);
}

/* One output pixel with a clipped window of rows x cols taps (1..3 each),
 * channels [c, c + 8), the input offset added to each input. */
TFLC__INLINE void tflc__mve_dw3x3_one8(const int8_t *x, const int8_t *w,
                                       int8_t *o, int32_t rows, int32_t cols,
                                       ptrdiff_t x_row, ptrdiff_t ch,
                                       int32_t off, const tflc__mve_quant *fe,
                                       const tflc__mve_quant *fo) {
  const uint32x4_t ix = vmulq_n_u32(vidupq_n_u32(0, 1), 2);
  int32x4_t se = fe->bias, so = fo->bias;
  switch (rows * 4 + cols) {
  case 5:
    tflc__mve_dw3x3_clip8(x, w, 1, 1, x_row, ch, off, &se, &so);
    break;
  case 6:
    tflc__mve_dw3x3_clip8(x, w, 1, 2, x_row, ch, off, &se, &so);
    break;
  case 7:
    tflc__mve_dw3x3_clip8(x, w, 1, 3, x_row, ch, off, &se, &so);
    break;
  case 9:
    tflc__mve_dw3x3_clip8(x, w, 2, 1, x_row, ch, off, &se, &so);
    break;
  case 10:
    tflc__mve_dw3x3_clip8(x, w, 2, 2, x_row, ch, off, &se, &so);
    break;
  case 11:
    tflc__mve_dw3x3_clip8(x, w, 2, 3, x_row, ch, off, &se, &so);
    break;
  case 13:
    tflc__mve_dw3x3_clip8(x, w, 3, 1, x_row, ch, off, &se, &so);
    break;
  case 14:
    tflc__mve_dw3x3_clip8(x, w, 3, 2, x_row, ch, off, &se, &so);
    break;
  default:
    tflc__mve_dw3x3_clip8(x, w, 3, 3, x_row, ch, off, &se, &so);
    break;
  }
  vstrbq_scatter_offset_s32(o, ix, tflc__mve_requant(se, fe));
  vstrbq_scatter_offset_s32(o + 1, ix, tflc__mve_requant(so, fo));
}

/* A 3 x 3 depthwise map's eight channels: geometry, batches, the input
 * and output at the first channel, the weights (as in
 * tflc__mve_dw3x3_sums8), channels of a pixel, input offset, the output
 * columns whose windows lie inside the input ([first, last]; rows in
 * tflc__mve_dw3x3_cols8), and the
 * requantizations (even and odd channels; then with the offset times the
 * nine weights in the biases). */
typedef struct tflc__mve_dw3 {
  tflc__geom g;
  int32_t batches, ch, off, first, last;
  const int8_t *in, *w9;
  int8_t *out;
  tflc__mve_quant fe, fo;
  int32x4_t be9, bo9; /* the biases with the offset times the nine weights */
} tflc__mve_dw3;

/* The map: in each output row the pixels whose windows lie inside the
 * input as one run, every other pixel with its clipped window (an empty
 * one: the biases alone). */
TFLC__INLINE void tflc__mve_dw3x3_map8_body(const tflc__mve_dw3 *k, int left) {
  const tflc__geom g = k->g;
  const ptrdiff_t ch = k->ch, x_row = (ptrdiff_t)g.w * k->ch;
  const uint32x4_t ix = vmulq_n_u32(vidupq_n_u32(0, 1), 2);
  int32_t n, oy, ox;
  for (n = 0; n < k->batches; n++) {
    const int8_t *in_n = k->in + (ptrdiff_t)n * g.h * x_row;
    for (oy = 0; oy < g.oh; oy++) {
      const int32_t iy0 = oy * g.sh - g.ph;
      const int32_t ky0 = iy0 < 0 ? -iy0 : 0;
      const int32_t ky1 = g.h - iy0 < 3 ? g.h - iy0 : 3;
      const int full_y = ky0 == 0 && ky1 == 3 && k->first <= k->last;
      int8_t *orow = k->out + ((ptrdiff_t)n * g.oh + oy) * g.ow * ch;
      for (ox = 0; ox < g.ow; ox++) {
        const int32_t ix0 = ox * g.sw - g.pw;
        const int32_t kx0 = ix0 < 0 ? -ix0 : 0;
        const int32_t kx1 = g.w - ix0 < 3 ? g.w - ix0 : 3;
        if (full_y && ox == k->first) {
          tflc__mve_dw3x3_run8_body(
              in_n + ((ptrdiff_t)iy0 * g.w + ix0) * ch, k->w9,
              orow + (ptrdiff_t)ox * ch, k->last - k->first + 1, x_row, ch,
              (ptrdiff_t)g.sw * ch, ch, &k->fe, &k->fo, k->be9, k->bo9, left);
          ox = k->last;
        } else if (ky1 > ky0 && kx1 > kx0) {
          tflc__mve_dw3x3_one8(
              in_n + ((ptrdiff_t)(iy0 + ky0) * g.w + ix0 + kx0) * ch,
              k->w9 + 8 * (ky0 * 3 + kx0), orow + (ptrdiff_t)ox * ch, ky1 - ky0,
              kx1 - kx0, x_row, ch, k->off, &k->fe, &k->fo);
        } else {
          int8_t *o = orow + (ptrdiff_t)ox * ch;
          vstrbq_scatter_offset_s32(o, ix,
                                    tflc__mve_requant(k->fe.bias, &k->fe));
          vstrbq_scatter_offset_s32(o + 1, ix,
                                    tflc__mve_requant(k->fo.bias, &k->fo));
        }
      }
    }
  }
}

/* the map without the left shifts (all of them 0: the usual case) or with */
static TFLC__NOINLINE void tflc__mve_dw3x3_map8(const tflc__mve_dw3 *k) {
  if (vmaxvq_s32(vmaxvq_s32(0, k->fe.left), k->fo.left) != 0)
    tflc__mve_dw3x3_map8_body(k, 1);
  else
    tflc__mve_dw3x3_map8_body(k, 0);
}

/* The constants of a window of eight channels for tflc__mve_dw3x3_px8:
 * the biases of the even and odd channels (with the input offset folded
 * in), their multipliers and right shifts (VRSHL amounts), the clamp in
 * 16 bits. */
typedef struct tflc__mve_dw3c {
  int32x4_t be, bo, qe, re, qo, ro;
  int16x8_t lo, hi; /* the clamp */
} tflc__mve_dw3c;

/* One output pixel of eight channels from a 3 x 3 window inside the input
 * (x at its first tap, w and kc as tflc__mve_dw3x3_shift8 leaves them): the
 * sums as tflc__mve_dw3x3_sums8, requantized with no left shift (VQRDMULH,
 * the rounding right shift as tflc__mve_requant_shift), narrowed with
 * saturation to 16 bits in channel order (VQMOVNB/VQMOVNT), the output
 * offset added with saturation and clamped in 16 bits: the bytes of
 * tflc__mve_requant where the offset is within +-32640 and the clamp
 * within int8 (a value saturated to 16 bits is clamped the same way). In
 * assembly, as tflc__mve_dw3x3_sums8. */
TFLC__INLINE void tflc__mve_dw3x3_px8(const int8_t *x, const int8_t *w,
                                      int8_t *o, ptrdiff_t x_row, ptrdiff_t ch,
                                      const tflc__mve_dw3c *kc, int32_t off,
                                      int16x8_t lo, int16x8_t hi) {
  const int8_t *x0 = x, *x1, *x2;
  int32x4_t e, odd;
  /* clang-format off */
  __asm__ volatile("vldrw.u32 %q[e], [%[kc]]\n\t"
                   "vldrw.u32 %q[o], [%[kc], #16]\n\t"
                   TFLC__MVE_TAPS9
                   "vldrw.u32 q3, [%[kc], #32]\n\t"
                   "vqrdmulh.s32 %q[e], %q[e], q3\n\t"
                   "vldrw.u32 q3, [%[kc], #48]\n\t"
                   TFLC__MVE_RSHIFT("e", "q3", "q4")
                   "vldrw.u32 q3, [%[kc], #64]\n\t"
                   "vqrdmulh.s32 %q[o], %q[o], q3\n\t"
                   "vldrw.u32 q3, [%[kc], #80]\n\t"
                   TFLC__MVE_RSHIFT("o", "q3", "q4")
                   "vqmovnb.s32 q2, %q[e]\n\t"
                   "vqmovnt.s32 q2, %q[o]\n\t"
                   "vqadd.s16 q2, q2, %[off]\n\t"
                   "vmax.s16 q2, q2, %q[lo]\n\t"
                   "vmin.s16 q2, q2, %q[hi]\n\t"
                   "vstrb.16 q2, [%[out]]"
                   : [e] "=&w"(e), [o] "=&w"(odd), [x0] "+l"(x0), [x1] "=&l"(x1),
                     [x2] "=&l"(x2)
                   : [w] "l"(w), [out] "l"(o), [ch] "r"(ch), [row] "r"(x_row),
                     [kc] "r"(kc), [off] "r"(off), [lo] "w"(lo), [hi] "w"(hi)
                   : "q2", "q3", "q4", "memory");
  /* clang-format on */
}

/* one column of two windows one above the other (x at the upper one's
 * tap, rows %[row] apart; weights at w + a, b, c): four input rows, the
 * upper window's sums in %q[e0] / %q[d0], the lower one's in %q[e1] /
 * %q[d1] (q4-q7 scratch) */
/* clang-format off */
#define TFLC__MVE_MAC8(wq, e, d)                                               \
  "vmullb.s16 q7, q4, " wq "\n\t"                                              \
  "vadd.i32 %q[" e "], %q[" e "], q7\n\t"                                      \
  "vmullt.s16 q7, q4, " wq "\n\t"                                              \
  "vadd.i32 %q[" d "], %q[" d "], q7\n\t"
#define TFLC__MVE_COL8X2(a, b, c)                                              \
  "vldrb.s16 q4, [%[x]]\n\t"                                                   \
  "vldrb.s16 q5, [%[w], #" #a "]\n\t"                                          \
  TFLC__MVE_MAC8("q5", "e0", "d0")                                             \
  "add %[x], %[x], %[row]\n\t"                                                 \
  "vldrb.s16 q4, [%[x]]\n\t"                                                   \
  "vldrb.s16 q6, [%[w], #" #b "]\n\t"                                          \
  TFLC__MVE_MAC8("q6", "e0", "d0")                                             \
  TFLC__MVE_MAC8("q5", "e1", "d1")                                             \
  "add %[x], %[x], %[row]\n\t"                                                 \
  "vldrb.s16 q4, [%[x]]\n\t"                                                   \
  "vldrb.s16 q5, [%[w], #" #c "]\n\t"                                          \
  TFLC__MVE_MAC8("q5", "e0", "d0")                                             \
  TFLC__MVE_MAC8("q6", "e1", "d1")                                             \
  "add %[x], %[x], %[row]\n\t"                                                 \
  "vldrb.s16 q4, [%[x]]\n\t"                                                   \
  TFLC__MVE_MAC8("q5", "e1", "d1")
/* clang-format on */

/* Two output pixels of eight channels, one above the other with stride 1
 * (x at the upper one's first tap, its output at o0, the lower one's at
 * o1): the lower window's rows are the upper one's moved down one row, so
 * each input row is read once for both (four rows a column), each weight
 * once; the sums and requantization as tflc__mve_dw3x3_px8, the clamp
 * from kc. In assembly, as tflc__mve_dw3x3_sums8. */
TFLC__INLINE void tflc__mve_dw3x3_px8x2(const int8_t *x, const int8_t *w,
                                        int8_t *o0, int8_t *o1, ptrdiff_t x_row,
                                        ptrdiff_t ch, const tflc__mve_dw3c *kc,
                                        int32_t off) {
  const ptrdiff_t back = ch - 3 * x_row;
  int32x4_t e0, d0, e1, d1;
  /* clang-format off */
  __asm__ volatile("vldrw.u32 %q[e0], [%[kc]]\n\t"
                   "vldrw.u32 %q[d0], [%[kc], #16]\n\t"
                   "vldrw.u32 %q[e1], [%[kc]]\n\t"
                   "vldrw.u32 %q[d1], [%[kc], #16]\n\t"
                   TFLC__MVE_COL8X2(0, 24, 48)
                   "add %[x], %[x], %[back]\n\t"
                   TFLC__MVE_COL8X2(8, 32, 56)
                   "add %[x], %[x], %[back]\n\t"
                   TFLC__MVE_COL8X2(16, 40, 64)
                   "vldrw.u32 q4, [%[kc], #32]\n\t"
                   "vldrw.u32 q5, [%[kc], #48]\n\t"
                   "vqrdmulh.s32 %q[e0], %q[e0], q4\n\t"
                   TFLC__MVE_RSHIFT("e0", "q5", "q6")
                   "vqrdmulh.s32 %q[e1], %q[e1], q4\n\t"
                   TFLC__MVE_RSHIFT("e1", "q5", "q6")
                   "vldrw.u32 q4, [%[kc], #64]\n\t"
                   "vldrw.u32 q5, [%[kc], #80]\n\t"
                   "vqrdmulh.s32 %q[d0], %q[d0], q4\n\t"
                   TFLC__MVE_RSHIFT("d0", "q5", "q6")
                   "vqrdmulh.s32 %q[d1], %q[d1], q4\n\t"
                   TFLC__MVE_RSHIFT("d1", "q5", "q6")
                   "vqmovnb.s32 q4, %q[e0]\n\t"
                   "vqmovnt.s32 q4, %q[d0]\n\t"
                   "vqmovnb.s32 q5, %q[e1]\n\t"
                   "vqmovnt.s32 q5, %q[d1]\n\t"
                   "vqadd.s16 q4, q4, %[off]\n\t"
                   "vqadd.s16 q5, q5, %[off]\n\t"
                   "vldrw.u32 q6, [%[kc], #96]\n\t"
                   "vmax.s16 q4, q4, q6\n\t"
                   "vmax.s16 q5, q5, q6\n\t"
                   "vldrw.u32 q6, [%[kc], #112]\n\t"
                   "vmin.s16 q4, q4, q6\n\t"
                   "vmin.s16 q5, q5, q6\n\t"
                   "vstrb.16 q4, [%[o0]]\n\t"
                   "vstrb.16 q5, [%[o1]]"
                   : [e0] "=&w"(e0), [d0] "=&w"(d0), [e1] "=&w"(e1),
                     [d1] "=&w"(d1), [x] "+l"(x)
                   : [w] "l"(w), [o0] "l"(o0), [o1] "l"(o1), [row] "r"(x_row),
                     [back] "r"(back), [kc] "r"(kc), [off] "r"(off)
                   : "q4", "q5", "q6", "q7", "memory");
  /* clang-format on */
}

/* The weights of a window read dy rows and dx columns below and right of
 * its own origin (wa: as k->w9, read tap (r, c) holding the original tap
 * (r + dy, c + dx), zero where that is outside the 3 x 3) and its biases
 * (kc->be, kc->bo: the input offset times the sum of those weights
 * added). */
static void tflc__mve_dw3x3_shift8(const tflc__mve_dw3 *k, int64_t dy,
                                   int64_t dx, int8_t *wa, tflc__mve_dw3c *kc) {
  const int16x8_t offv = vdupq_n_s16((int16_t)k->off);
  const int32_t y0 = dy < 0 ? (int32_t)(dy < -3 ? 3 : -dy) : 0;
  const int32_t y1 = dy > 0 ? (int32_t)(dy > 3 ? 0 : 3 - dy) : 3;
  const int32_t x0 = dx < 0 ? (int32_t)(dx < -3 ? 3 : -dx) : 0;
  const int32_t x1 = dx > 0 ? (int32_t)(dx > 3 ? 0 : 3 - dx) : 3;
  int32x4_t te = vdupq_n_s32(0), to = te;
  int32_t r, c;
  if (y0 != 0 || y1 != 3 || x0 != 0 || x1 != 3)
    for (r = 0; r < 72; r += 8)
      vstrbq_s16(wa + r, vdupq_n_s16(0));
  for (r = y0; r < y1; r++)
    for (c = x0; c < x1; c++) {
      const int16x8_t wv = vldrbq_s16(k->w9 + 8 * ((r + dy) * 3 + c + dx));
      vstrbq_s16(wa + 8 * (r * 3 + c), wv);
      te = vaddq_s32(te, vmullbq_int_s16(offv, wv));
      to = vaddq_s32(to, vmulltq_int_s16(offv, wv));
    }
  kc->be = vaddq_s32(k->fe.bias, te);
  kc->bo = vaddq_s32(k->fo.bias, to);
}

/* the first input row or column (0..n - 3) a window at i0 is read from */
TFLC__INLINE int32_t tflc__mve_dw3_start(int32_t i0, int32_t n) {
  return i0 < 0 ? 0 : i0 > n - 3 ? n - 3 : i0;
}

/* A narrow map (input at least 3 x 3, no left shifts, the output offset
 * within +-32640 and the clamp within int8), column by column: every
 * window is read as a whole 3 x 3 one inside the input, moved in from the
 * border, with the weights moved the other way and zero where the window
 * was clipped (tflc__mve_dw3x3_shift8: products by zero add nothing, the
 * offset times the remaining weights in the biases), so the pixels of a
 * column are runs (tflc__mve_dw3x3_px8 down the column, two pixels at a
 * time with tflc__mve_dw3x3_px8x2 at stride 1): the rows whose windows
 * lie inside the input as one, each other row alone; the weights are
 * moved again only where the shift changes. */
static TFLC__NOINLINE void tflc__mve_dw3x3_cols8(const tflc__mve_dw3 *k) {
  const tflc__geom g = k->g;
  const ptrdiff_t ch = k->ch, x_row = (ptrdiff_t)g.w * ch;
  const ptrdiff_t o_row = (ptrdiff_t)g.ow * ch, x_step = g.sh * x_row;
  const int16x8_t lo = vdupq_n_s16((int16_t)k->fe.lo);
  const int16x8_t hi = vdupq_n_s16((int16_t)k->fe.hi);
  const int32_t off = k->fe.off;
  int8_t wa[72];
  tflc__mve_dw3c kc;
  int64_t dy0 = -99, dx0 = -99;
  kc.qe = k->fe.q;
  kc.re = k->fe.right;
  kc.qo = k->fo.q;
  kc.ro = k->fo.right;
  kc.lo = lo;
  kc.hi = hi;
  int32_t y0, y1, oy, ox, n, j;
  /* the output rows whose windows lie inside the input: [y0, y1] */
  y0 = k->first;
  y1 = k->last;
  for (oy = 0; oy < g.oh; oy++) {
    const int32_t run = oy == y0 && y1 >= y0 ? y1 - y0 + 1 : 1;
    const int32_t iy0 = oy * g.sh - g.ph, sy = tflc__mve_dw3_start(iy0, g.h);
    if (sy != iy0) { /* a row clipped at the top or bottom */
      const int32_t ky0 = iy0 < 0 ? -iy0 : 0;
      const int32_t ky1 = g.h - iy0 < 3 ? g.h - iy0 : 3;
      for (ox = 0; ox < g.ow; ox++) {
        const int32_t ix0 = ox * g.sw - g.pw;
        const int32_t kx0 = ix0 < 0 ? -ix0 : 0;
        const int32_t kx1 = g.w - ix0 < 3 ? g.w - ix0 : 3;
        for (n = 0; n < k->batches; n++) {
          int8_t *o = k->out + (((ptrdiff_t)n * g.oh + oy) * g.ow + ox) * ch;
          if (ky1 > ky0 && kx1 > kx0) {
            tflc__mve_dw3x3_one8(
                k->in +
                    (((ptrdiff_t)n * g.h + iy0 + ky0) * g.w + ix0 + kx0) * ch,
                k->w9 + 8 * (ky0 * 3 + kx0), o, ky1 - ky0, kx1 - kx0, x_row, ch,
                k->off, &k->fe, &k->fo);
          } else {
            const uint32x4_t ix = vmulq_n_u32(vidupq_n_u32(0, 1), 2);
            vstrbq_scatter_offset_s32(o, ix,
                                      tflc__mve_requant(k->fe.bias, &k->fe));
            vstrbq_scatter_offset_s32(o + 1, ix,
                                      tflc__mve_requant(k->fo.bias, &k->fo));
          }
        }
      }
      continue;
    }
    for (ox = 0; ox < g.ow; ox++) {
      const int32_t ix0 = ox * g.sw - g.pw, sx = tflc__mve_dw3_start(ix0, g.w);
      const int64_t dy = (int64_t)sy - iy0, dx = (int64_t)sx - ix0;
      if (dy != dy0 || dx != dx0) {
        tflc__mve_dw3x3_shift8(k, dy, dx, wa, &kc);
        dy0 = dy;
        dx0 = dx;
      }
      for (n = 0; n < k->batches; n++) {
        const int8_t *x = k->in + (((ptrdiff_t)n * g.h + sy) * g.w + sx) * ch;
        int8_t *o = k->out + (((ptrdiff_t)n * g.oh + oy) * g.ow + ox) * ch;
        j = run;
        if (g.sh == 1)
          for (; j >= 2; j -= 2, x += 2 * x_step, o += 2 * o_row)
            tflc__mve_dw3x3_px8x2(x, wa, o, o + o_row, x_row, ch, &kc, off);
        for (; j > 0; j--, x += x_step, o += o_row)
          tflc__mve_dw3x3_px8(x, wa, o, x_row, ch, &kc, off, lo, hi);
      }
    }
    oy += run - 1;
  }
}

/* DEPTHWISE_CONV_2D with 3 x 3 filters, multiplier 1, no dilation, int8
 * filters in place and channels a multiple of eight, through Helium:
 * eight channels at a time over the whole map, their requantization set
 * up once; in each output row the pixels whose windows lie inside the
 * input in one run (tflc__mve_dw3x3_run8: the input offset folded into
 * the biases, off * (sum of the nine weights) modulo 2^32, the same sum
 * as the portable one's), every other pixel with its own clipped window
 * (the offset added to each input, as the portable sum). Returns 0,
 * nothing written, where it does not apply. */
static TFLC__NOINLINE int
tflc__mve_dw3x3_layer(const tflc_conv_params *p, const int32_t in_dims[4],
                      const int8_t *in, const int32_t filter_dims[4],
                      const tflc_const *filter, const tflc_const *bias,
                      const int32_t out_dims[4], int8_t *out) {
  tflc__geom g;
  const int32_t ch = out_dims[3], off = p->input_offset;
  const int8_t *wt = (const int8_t *)filter->data;
  tflc__mve_dw3 k;
  int8_t w9[72]; /* the nine taps' eight weights one after the other */
  int32_t c, j, first, last;
  int64_t e;
  int narrow;
  if (p->depth_multiplier != 1 || filter_dims[1] != 3 || filter_dims[2] != 3 ||
      filter_dims[3] != ch || in_dims[3] != ch || ch <= 0 || ch % 8 != 0 ||
      in_dims[0] != out_dims[0] || (TFLC__COMPRESSION && filter->bits != 0) ||
      off < -32640 || off > 32640)
    return 0;
  tflc__geom_init(&g, p, in_dims, filter_dims, out_dims);
  if (g.dh != 1 || g.dw != 1 || g.sh <= 0 || g.sw <= 0)
    return 0;
  /* narrow, tall maps (two border pixels in every row of at most five,
   * kws_ref_model's 25 x 5): column by column where the input is 3 x 3 at
   * least and the requantization has no left shift, else through the
   * generic driver's runs */
  narrow = g.ow <= 5 && g.oh > 5;
  if (narrow) {
    if (g.h < 3 || g.w < 3 || p->output_offset < -32640 ||
        p->output_offset > 32640 || p->act_min < -128 || p->act_max > 127)
      return 0;
    for (j = 0; j < ch; j++)
      if (p->out_shift[j] > 0) /* left shifts: not in tflc__mve_dw3x3_px8 */
        return 0;
  }
  /* output columns (rows of a narrow map) whose whole window is inside
   * the input */
  if (narrow) {
    e = tflc__div_bound((int64_t)g.ph + g.sh - 1, g.sh);
    first = e < g.oh ? (int32_t)e : g.oh;
    e = (int64_t)g.h - 3 + g.ph;
    e = e < 0 ? -1 : tflc__div_bound(e, g.sh);
    last = e < g.oh ? (int32_t)e : g.oh - 1;
  } else {
    e = tflc__div_bound((int64_t)g.pw + g.sw - 1, g.sw);
    first = e < g.ow ? (int32_t)e : g.ow;
    e = (int64_t)g.w - 3 + g.pw;
    e = e < 0 ? -1 : tflc__div_bound(e, g.sw);
    last = e < g.ow ? (int32_t)e : g.ow - 1;
  }
  k.g = g;
  k.batches = in_dims[0];
  k.ch = ch;
  k.off = off;
  k.first = first;
  k.last = last;
  k.w9 = w9;
  for (c = 0; c < ch; c += 8) {
    tflc_requant_params rq;
    int32_t b8[8];
    int32x4_t te = vdupq_n_s32(0), to = te;
    const int16x8_t offv = vdupq_n_s16((int16_t)off);
    if (bias != NULL && bias->bits == 0 && bias->type == TFLC_INT32)
      memcpy(b8, (const uint8_t *)bias->data + (size_t)c * 4u, sizeof b8);
    else
      for (j = 0; j < 8; j++)
        b8[j] = tflc__bias_at(bias, c + j);
    rq.bias = b8;
    rq.multiplier = p->out_multiplier + c;
    rq.shift = p->out_shift + c;
    rq.per_channel = 1;
    rq.output_offset = p->output_offset;
    rq.act_min = p->act_min;
    rq.act_max = p->act_max;
    tflc__mve_quant_pairs(&k.fe, &rq, 0, 0);
    tflc__mve_quant_pairs(&k.fo, &rq, 0, 1);
    /* the offset times the sums of the nine weights, wrapping */
    for (j = 0; j < 9; j++) {
      const int16x8_t wv = vldrbq_s16(wt + (ptrdiff_t)j * ch + c);
      vstrbq_s16(w9 + 8 * j, wv);
      te = vaddq_s32(te, vmullbq_int_s16(offv, wv));
      to = vaddq_s32(to, vmulltq_int_s16(offv, wv));
    }
    k.be9 = vaddq_s32(k.fe.bias, te);
    k.bo9 = vaddq_s32(k.fo.bias, to);
    k.in = in + c;
    k.out = out + c;
    if (narrow)
      tflc__mve_dw3x3_cols8(&k);
    else
      tflc__mve_dw3x3_map8(&k);
  }
  return 1;
}
#endif

/* The int8 ADD's parameters as the vector code uses them: per input the
 * offset already shifted left and the shift as a multiplier (the ADD's
 * left shift and the multiplier's: (x + o) << l == x * 2^l + (o << l)
 * modulo 2^32, 2^l being 0 from l = 32 on), the multipliers, the right
 * shifts as VRSHL amounts (-31..0) with masks all ones where they are
 * below 0, the output's left shift, offset and clamp. */
typedef struct tflc__mve_add {
  int32x4_t scale1, scale2, fix1, fix2, fixo, lo, hi;
  int32_t off1, off2, q1, q2, qo, r1, r2, ro, left_o, zo;
} tflc__mve_add;

/* the rounding right shift of VQRDMULH's result v as in
 * tflc__mve_requant_shift; how: 0 the shift is 0 (nothing to do), 1 it is
 * below 0, 2 either (fix all ones when below 0, else 0) */
TFLC__INLINE int32x4_t tflc__mve_add_round(int32x4_t v, int32_t right,
                                           int32x4_t fix, int how) {
  const int32x4_t neg = vshrq_n_s32(v, 31);
  if (how == 0)
    return v;
  v = vqaddq_s32(v, how == 2 ? vandq_s32(neg, fix) : neg);
  return vrshlq_n_s32(v, right);
}

/* four outputs of the ADD from four values of each input; how1, how2 the
 * inputs' right shifts (tflc__mve_add_round), any: the output's shifts
 * any (else no left shift, the right one below 0) */
TFLC__INLINE int32x4_t tflc__mve_add4(const tflc__mve_add *k, int32x4_t x1,
                                      int32x4_t x2, int how1, int how2,
                                      int any) {
  int32x4_t a = vqrdmulhq_n_s32(vmlasq_n_s32(x1, k->scale1, k->off1), k->q1);
  int32x4_t b = vqrdmulhq_n_s32(vmlasq_n_s32(x2, k->scale2, k->off2), k->q2);
  int32x4_t y = vaddq_s32(tflc__mve_add_round(a, k->r1, k->fix1, how1),
                          tflc__mve_add_round(b, k->r2, k->fix2, how2));
  if (any)
    y = vshlq_r_s32(y, k->left_o);
  y = tflc__mve_add_round(vqrdmulhq_n_s32(y, k->qo), k->ro, k->fixo,
                          any ? 2 : 1);
  return vminq_s32(vmaxq_s32(vaddq_n_s32(y, k->zo), k->lo), k->hi);
}

/* n elements: four at a time, then the last one to three predicated;
 * how1, how2 and any constants at each call site */
TFLC__INLINE void tflc__mve_add_loop(const tflc__mve_add *kp, size_t n,
                                     const int8_t *in1, const int8_t *in2,
                                     int8_t *out, int how1, int how2, int any) {
  const tflc__mve_add k = *kp;
  size_t i;
  for (i = n >> 2; i > 0; i--, in1 += 4, in2 += 4, out += 4)
    vstrbq_s32(out, tflc__mve_add4(&k, vldrbq_s32(in1), vldrbq_s32(in2), how1,
                                   how2, any));
  if (n & 3) {
    const mve_pred16_t p = vctp32q((uint32_t)(n & 3));
    vstrbq_p_s32(out,
                 tflc__mve_add4(&k, vldrbq_z_s32(in1, p), vldrbq_z_s32(in2, p),
                                how1, how2, any),
                 p);
  }
}

/* every right shift below 0, no left shift of the sum */
static TFLC__NOINLINE void tflc__mve_add_plain(const tflc__mve_add *k, size_t n,
                                               const int8_t *in1,
                                               const int8_t *in2, int8_t *out) {
  tflc__mve_add_loop(k, n, in1, in2, out, 1, 1, 0);
}

/* the same but the first input's right shift 0 (its multiplier 1/2: the
 * input of the larger scale, as tflc_add_prepare_s8 makes them) */
static TFLC__NOINLINE void tflc__mve_add_first0(const tflc__mve_add *k,
                                                size_t n, const int8_t *in1,
                                                const int8_t *in2,
                                                int8_t *out) {
  tflc__mve_add_loop(k, n, in1, in2, out, 0, 1, 0);
}

static TFLC__NOINLINE void tflc__mve_add_any(const tflc__mve_add *k, size_t n,
                                             const int8_t *in1,
                                             const int8_t *in2, int8_t *out) {
  tflc__mve_add_loop(k, n, in1, in2, out, 2, 2, 1);
}

/* the scale 2^l (l 0..51) of a VSHL by l, modulo 2^32 */
TFLC__INLINE int32x4_t tflc__mve_pow2(int32_t l) {
  return vdupq_n_s32(l < 32 ? (int32_t)((uint32_t)1 << l) : 0);
}

/* one input's part of k: offset, multiplier, shift and ADD left shift */
TFLC__INLINE void tflc__mve_add_input(int32_t off, int32_t q, int32_t shift,
                                      int32_t left_shift, int32x4_t *scale,
                                      int32_t *off_out, int32_t *q_out,
                                      int32_t *right, int32x4_t *fix) {
  const int32_t l = left_shift + (shift > 0 ? shift : 0);
  *scale = tflc__mve_pow2(l);
  *off_out = l < 32 ? (int32_t)((uint32_t)off << l) : 0;
  *q_out = q;
  *right = shift < 0 ? shift : 0;
  *fix = vdupq_n_s32(shift < 0 ? -1 : 0);
}

/* The int8 ADD without broadcast, four elements a vector: both inputs
 * offset, shifted and scaled, summed, scaled to the output, offset and
 * clamped, every step the wrapping or saturating one of the portable
 * version. The usual parameters (the right shifts below 0 or one input's
 * 0, no left shift of the sum) skip the masks and the shift; the sum
 * wraps the same in either order, so the inputs may swap. */
TFLC_API void tflc_add_elementwise_s8_mve(const tflc_add_params *p, size_t n,
                                          const int8_t *in1, const int8_t *in2,
                                          int8_t *out) {
  const int32_t so = p->output_shift;
  const int swap = p->input1_shift < 0 && p->input2_shift >= 0;
  tflc__mve_add k;
  tflc__mve_add_input(p->input1_offset, p->input1_multiplier, p->input1_shift,
                      p->left_shift, swap ? &k.scale2 : &k.scale1,
                      swap ? &k.off2 : &k.off1, swap ? &k.q2 : &k.q1,
                      swap ? &k.r2 : &k.r1, swap ? &k.fix2 : &k.fix1);
  tflc__mve_add_input(p->input2_offset, p->input2_multiplier, p->input2_shift,
                      p->left_shift, swap ? &k.scale1 : &k.scale2,
                      swap ? &k.off1 : &k.off2, swap ? &k.q1 : &k.q2,
                      swap ? &k.r1 : &k.r2, swap ? &k.fix1 : &k.fix2);
  k.qo = p->output_multiplier;
  k.ro = so < 0 ? so : 0;
  k.fixo = vdupq_n_s32(k.ro < 0 ? -1 : 0);
  k.left_o = so > 0 ? so : 0;
  k.zo = p->output_offset;
  k.lo = vdupq_n_s32(p->act_min);
  k.hi = vdupq_n_s32(p->act_max);
  if (swap) {
    const int8_t *const t = in1;
    in1 = in2;
    in2 = t;
  }
  if (k.ro < 0 && k.r2 < 0 && k.r1 < 0)
    tflc__mve_add_plain(&k, n, in1, in2, out);
  else if (k.ro < 0 && k.r2 < 0 && k.r1 == 0)
    tflc__mve_add_first0(&k, n, in1, in2, out);
  else
    tflc__mve_add_any(&k, n, in1, in2, out);
}

/* ---- convolution windows (TFLC__CONV_WINDOWS_S8) ----------------------- */
#if defined(TFLC__CONV_WINDOWS_S8_IS_MVE)
static TFLC__NOINLINE void tflc__mve_window_pairs(const tflc_requant_params *rq,
                                                  const tflc_gemm_block *g) {
  tflc__mve_window_pairs_body(rq, g, 1);
}

/* The r (1..) window copies of tflc__conv2d_s8_im2col_mve against every
 * column of g (its rows and out set here, its other fields as that
 * leaves them): tflc__mve_window_pairs for the even rows and columns
 * where pairs, tflc_gemm_window_s8_mve for the rest (rq moved to the
 * first such column and back). */
TFLC__INLINE void tflc__mve_windows_run(tflc_requant_params *rq,
                                        tflc_gemm_block *g, int32_t r,
                                        int8_t *out, int pairs) {
  const int32_t cols = g->cols, r2 = pairs ? r & ~1 : 0;
  const int32_t c2 = pairs ? cols & ~1 : 0;
  const int8_t *const a = g->a;
  g->out = out;
  if (r2 > 0 && c2 > 0) {
    g->rows = r2;
    g->cols = c2;
    tflc__mve_window_pairs(rq, g);
    g->cols = cols;
  }
  if (c2 < cols) { /* every row, the columns from c2 (all without pairs) */
    const int8_t *const w = g->w;
    rq->multiplier += c2;
    rq->shift += c2;
    if (rq->bias != NULL)
      rq->bias += c2;
    g->rows = r;
    g->cols = cols - c2;
    g->w = w + (ptrdiff_t)c2 * g->w_col;
    g->out = out + c2;
    tflc_gemm_window_s8_mve(rq, g);
    rq->multiplier -= c2;
    rq->shift -= c2;
    if (rq->bias != NULL)
      rq->bias -= c2;
    g->w = w;
    g->cols = cols;
  }
  if (r2 < r && c2 > 0) { /* the last row, columns [0, c2) */
    g->rows = 1;
    g->cols = c2;
    g->a = a + (ptrdiff_t)r2 * g->a_row;
    g->out = out + (ptrdiff_t)r2 * g->out_row;
    tflc_gemm_window_s8_mve(rq, g);
    g->a = a;
    g->cols = cols;
  }
}

/* bytes of the window copies per call of the window kernels (as many
 * pixels as they hold), output channels per pass of the wide windows */
#define TFLC__MVE_WINDOW_BYTES 240
#define TFLC__MVE_WINDOW_CHANNELS 64

/* One pass of tflc__conv2d_s8_im2col_mve over every pixel: the windows
 * copied to col (TFLC__MVE_WINDOW_BYTES + 16 bytes; the input zero point
 * where they leave the input: a predicated store per kernel row, a whole
 * row where the window is inside), as many as the bytes hold, then
 * multiplied against s->gb's columns (its rows and out set here), written
 * from output channel c0 on: through tflc_gemm_window_s8_mve (wide) or
 * tflc__mve_windows_run. */
TFLC__INLINE void tflc__mve_windows_pass(tflc__conv_blocked *s, int8_t *col,
                                         int32_t c0, int pairs, int wide) {
  const tflc__geom *g = &s->g;
  const int8x16_t pad = vdupq_n_s8((int8_t)(-s->in_off));
  const int32_t depth = s->depth, cout = s->cout, pixels = g->oh * g->ow;
  const int32_t row_len = g->kw * g->c;
  /* an even number of pixels per call where two fit (the 2 x 2 blocks) */
  const int32_t fit = TFLC__MVE_WINDOW_BYTES / depth;
  const int32_t rows = fit > 1 ? fit & ~1 : fit;
  const ptrdiff_t x_step = (ptrdiff_t)g->dh * g->w * g->c;
  const mve_pred16_t whole = vctp8q((uint32_t)row_len);
  int32_t n, i, oy, ox, r = 0, ky;
  /* the 16 bytes past the copies the kernels read (times zero weights) */
  vstrbq_s8(col + rows * depth, vdupq_n_s8(0));
  for (n = 0; n < s->batches; n++) {
    const int8_t *in_n = s->in + (ptrdiff_t)n * g->h * g->w * g->c;
    int8_t *out_n = s->out + (ptrdiff_t)n * pixels * cout + c0;
    for (i = 0, oy = 0, ox = 0; i < pixels; i++) {
      const int32_t iy0 = oy * g->sh - g->ph, ix0 = ox * g->sw - g->pw;
      int8_t *d = col + (ptrdiff_t)r * depth;
      if (ix0 >= 0 && ix0 <= g->w - g->kw && iy0 >= 0 &&
          iy0 + (g->kh - 1) * g->dh < g->h) {
        /* inside: each kernel row one predicated load and a whole
         * vector stored (past the row: the next row's place, written
         * after it, or the 16 bytes after the copies) */
        const int8_t *x = in_n + ((ptrdiff_t)iy0 * g->w + ix0) * g->c;
        for (ky = 0; ky < g->kh; ky++, d += row_len, x += x_step)
          vstrbq_s8(d, vldrbq_z_s8(x, whole));
      } else {
        /* taps [lo, hi) of a kernel row are one run of the input (unit
         * dilation across the width, or one tap), the others pad */
        const int32_t lo = ix0 >= 0 ? 0 : -ix0 < g->kw ? -ix0 : g->kw;
        int32_t hi = g->w - ix0 < g->kw ? g->w - ix0 : g->kw;
        mve_pred16_t run;
        hi = hi < lo ? lo : hi;
        /* a kernel row (under 16 values) is one predicated store of the
         * zero point, then one of its run, loaded predicated */
        run = vctp8q((uint32_t)((hi - lo) * g->c));
        for (ky = 0; ky < g->kh; ky++, d += row_len) {
          const int32_t iy = iy0 + ky * g->dh;
          vstrbq_p_s8(d, pad, whole);
          if (iy >= 0 && iy < g->h && hi > lo)
            vstrbq_p_s8(
                d + lo * g->c,
                vldrbq_z_s8(in_n + ((ptrdiff_t)iy * g->w + ix0 + lo) * g->c,
                            run),
                run);
        }
      }
      if (++ox == g->ow) {
        ox = 0;
        oy++;
      }
      if (++r < rows && i + 1 < pixels)
        continue;
      /* the r pixels just copied end at pixel i */
      if (wide) {
        s->gb.rows = r;
        s->gb.out = out_n + (ptrdiff_t)(i + 1 - r) * cout;
        tflc_gemm_window_s8_mve(&s->rq, &s->gb);
      } else {
        tflc__mve_windows_run(&s->rq, &s->gb, r,
                              out_n + (ptrdiff_t)(i + 1 - r) * cout, pairs);
      }
      r = 0;
    }
  }
}

/* the fields of the driver's block every pass shares (it stops after the
 * window path, which takes its block and requantization over) */
TFLC__INLINE void tflc__mve_windows_block(tflc__conv_blocked *s,
                                          const tflc_conv_params *p,
                                          const int8_t *w, int8_t *col) {
  tflc_gemm_block *const gb = &s->gb;
  gb->segments = 1;
  gb->seg_len = s->depth;
  gb->a = col;
  gb->a_row = s->depth;
  gb->a_seg = 0;
  gb->w = w;
  gb->w_col = s->depth;
  gb->w_seg = 0;
  gb->out_row = s->cout;
  s->rq.multiplier = p->out_multiplier;
  s->rq.shift = p->out_shift;
}

/* windows of up to 32 values, biases in place (int32, 4-byte aligned, or
 * none): every channel in one pass, the input offset times each column's
 * sum added once per call */
static TFLC__NOINLINE void tflc__mve_windows_narrow(tflc__conv_blocked *s,
                                                    const tflc_conv_params *p,
                                                    const int8_t *w,
                                                    const int32_t *bias) {
  /* the copies, then 16 bytes the kernels may read (and the copies
   * write) past the last one */
  int8_t col[TFLC__MVE_WINDOW_BYTES + 16];
  int pairs = 1;
  int32_t c;
  for (c = 0; c < s->cout; c++)
    pairs &= p->out_shift[c] <= 0; /* no left shift in the pairs */
  tflc__mve_windows_block(s, p, w, col);
  s->rq.bias = bias;
  s->gb.cols = s->cout;
  s->gb.a_offset = s->in_off;
  tflc__mve_windows_pass(s, col, 0, pairs, 0);
}

/* the others: up to 64 channels a pass, their biases with the offset
 * folded in */
static TFLC__NOINLINE void tflc__mve_windows_wide(tflc__conv_blocked *s,
                                                  const tflc_conv_params *p,
                                                  const int8_t *w,
                                                  const tflc_const *bias) {
  int8_t col[TFLC__MVE_WINDOW_BYTES + 16];
  int32_t folded[TFLC__MVE_WINDOW_CHANNELS];
  int32_t c0;
  tflc__mve_windows_block(s, p, w, col);
  s->rq.bias = folded;
  s->gb.a_offset = 0;
  for (c0 = 0; c0 < s->cout; c0 += TFLC__MVE_WINDOW_CHANNELS) {
    s->gb.cols = s->cout - c0 < TFLC__MVE_WINDOW_CHANNELS
                     ? s->cout - c0
                     : TFLC__MVE_WINDOW_CHANNELS;
    s->gb.w = w + (ptrdiff_t)c0 * s->depth;
    s->rq.multiplier = p->out_multiplier + c0;
    s->rq.shift = p->out_shift + c0;
    tflc__chunk_bias(bias, c0, s->gb.cols, s->gb.w, s->depth, s->in_off,
                     folded);
    tflc__mve_windows_pass(s, col, c0, 0, 1);
  }
}

/* Helium: the windows of a small filter (TFLC__SMALL_DEPTH values at most,
 * kernel rows under 16, any depth: the loads need no alignment; the
 * shapes TFLC__CONV_WINDOWS_S8 lets through) copied whole, as many pixels
 * as TFLC__MVE_WINDOW_BYTES holds per call, against every output channel:
 * rows of up to 32 values in 2 x 2 blocks with the weights held in
 * registers (tflc__mve_window_pairs) where the biases can be read in
 * place, the others four columns at a time (tflc_gemm_window_s8_mve)
 * with the offset folded into the biases. Raw filters only: returns 0
 * (nothing written) for a compressed one. (tflc__conv_blocked_init
 * leaves convolutions dilated across the width to the direct path.) */
static TFLC__NOINLINE int tflc__conv2d_s8_im2col_mve(tflc__conv_blocked *s,
                                                     const tflc_conv_params *p,
                                                     const tflc_const *filter,
                                                     const tflc_const *bias) {
  const int8_t *const w = (const int8_t *)filter->data;
  if (filter->bits != 0)
    return 0;
  if (s->depth <= 32 &&
      (bias == NULL || (bias->kind == TFLC_CONST_RAW_LUT && bias->bits == 0 &&
                        bias->type == TFLC_INT32 && bias->data != NULL &&
                        ((uintptr_t)bias->data & 3u) == 0)))
    tflc__mve_windows_narrow(s, p, w,
                             bias != NULL ? (const int32_t *)bias->data : NULL);
  else
    tflc__mve_windows_wide(s, p, w, bias);
  return 1;
}
#endif
#endif /* TFLC_HAVE_MVE */

/* ======================================================================== */
/* Platform: x86 SSE4.1 / AVX2 (TFLC_HAVE_SSE41, TFLC_HAVE_AVX2)            */
/* ======================================================================== */
/* int8 values are widened to int16 lanes (PMOVSXBW), the input offset is
 * added there (exact: |x + offset| <= 32768 for |offset| <= 32640, the
 * bound the portable path uses too) and pairs are multiplied and summed
 * with PMADDWD, exact since a weight is int8 (a pair sum stays below
 * 2^23). The int32 sums wrap as the portable ones do, so the bytes are the
 * same. Requantization runs on 4 (SSE4.1) or 8 (AVX2) channels at once:
 * the wrapping left shift (a multiplication by 2^left, or VPSLLVD), the
 * rounding doubling high product in 64-bit lanes (PMULDQ on the even and
 * the odd lanes, + 2^30, bits 31..62), and the rounding right shift as
 * gemmlowp writes it: the floor shift plus (remainder > threshold). SSE4.1
 * has no per-lane shift: the floor shift of v by e is there
 * ((v + 2^31) * 2^(31-e)) >> 31, less 2^(31-e), in unsigned 64-bit lanes.
 * Offsets beyond 16-bit lanes, clamps beyond int8 and depth multipliers
 * other than 1 go to the portable versions. */
#if defined(TFLC_HAVE_SSE41) || defined(TFLC_HAVE_AVX2)
#include <immintrin.h>

/* Shift, multiplier and bias of the channels c..c+3 as int32 lanes (lanes
 * past the n valid channels repeat channel c; their results are not
 * stored). */
static void tflc__x86_raw4(const tflc_requant_params *rq, int32_t c, int32_t n,
                           __m128i *s, __m128i *q, __m128i *bias) {
  if (!rq->per_channel) {
    *s = _mm_set1_epi32(rq->shift[0]);
    *q = _mm_set1_epi32(rq->multiplier[0]);
  } else if (n >= 4) {
    int32_t s4;
    memcpy(&s4, rq->shift + c, 4);
    *s = _mm_cvtepi8_epi32(_mm_cvtsi32_si128(s4));
    *q = _mm_loadu_si128((const __m128i *)(const void *)(rq->multiplier + c));
  } else {
    int32_t sv[4], qv[4], j;
    for (j = 0; j < 4; j++) {
      sv[j] = rq->shift[c + (j < n ? j : 0)];
      qv[j] = rq->multiplier[c + (j < n ? j : 0)];
    }
    *s = _mm_loadu_si128((const __m128i *)(const void *)sv);
    *q = _mm_loadu_si128((const __m128i *)(const void *)qv);
  }
  if (rq->bias == NULL) {
    *bias = _mm_setzero_si128();
  } else if (n >= 4) {
    *bias = _mm_loadu_si128((const __m128i *)(const void *)(rq->bias + c));
  } else {
    int32_t bv[4], j;
    for (j = 0; j < 4; j++)
      bv[j] = rq->bias[c + (j < n ? j : 0)];
    *bias = _mm_loadu_si128((const __m128i *)(const void *)bv);
  }
}

/* the vector paths: an input offset within 16-bit lanes and a clamp
 * within int8 (then the clamped value is its own low byte) */
static int tflc__x86_ok(const tflc_requant_params *rq, int32_t offset) {
  return offset >= -32640 && offset <= 32640 && rq->act_min >= -128 &&
         rq->act_max >= -128 && rq->act_max <= 127;
}

/* 4 lanes of constants (SSE4.1) */
typedef struct tflc__x86_rq4 {
  __m128i bias, q, q_odd, left_mul, mask, half, right_mul, right_mul_odd;
  __m128i qmin, out_off, lo, hi;
} tflc__x86_rq4;

#define TFLC__X86_LOAD4(p) _mm_loadu_si128((const __m128i *)(const void *)(p))

/* 2^e for lanes e = 0..31 (2^31 as 0x80000000), through the float
 * exponent */
TFLC__INLINE __m128i tflc__x86_pow2(__m128i e) {
  return _mm_cvttps_epi32(_mm_castsi128_ps(
      _mm_slli_epi32(_mm_add_epi32(e, _mm_set1_epi32(127)), 23)));
}

/* the constants of 4 channels from their shifts, multipliers, biases */
static void tflc__x86_rq4_init(tflc__x86_rq4 *r, const tflc_requant_params *rq,
                               int32_t c, int32_t n) {
  __m128i s, left, right;
  tflc__x86_raw4(rq, c, n, &s, &r->q, &r->bias);
  left = _mm_max_epi32(s, _mm_setzero_si128());
  right = _mm_min_epi32(
      _mm_max_epi32(_mm_sub_epi32(_mm_setzero_si128(), s), _mm_setzero_si128()),
      _mm_set1_epi32(31));
  /* a left shift of 32 or more leaves 0 */
  r->left_mul =
      _mm_and_si128(tflc__x86_pow2(_mm_min_epi32(left, _mm_set1_epi32(32))),
                    _mm_cmpgt_epi32(_mm_set1_epi32(32), left));
  r->mask = _mm_sub_epi32(tflc__x86_pow2(right), _mm_set1_epi32(1));
  r->half = _mm_srli_epi32(r->mask, 1);
  r->right_mul = tflc__x86_pow2(_mm_sub_epi32(_mm_set1_epi32(31), right));
  r->q_odd = _mm_srli_epi64(r->q, 32);
  r->right_mul_odd = _mm_srli_epi64(r->right_mul, 32);
  r->qmin = _mm_cmpeq_epi32(r->q, _mm_set1_epi32(INT32_MIN));
  r->out_off = _mm_set1_epi32(rq->output_offset);
  r->lo = _mm_set1_epi32(rq->act_min);
  r->hi = _mm_set1_epi32(rq->act_max);
}

/* 4 accumulators (bias not yet added) to 4 clamped int32 outputs */
TFLC__INLINE __m128i tflc__x86_requant4(__m128i acc, const tflc__x86_rq4 *r) {
  const __m128i round = _mm_set1_epi64x((long long)1 << 30);
  const __m128i sign = _mm_set1_epi32(INT32_MIN);
  const __m128i x = _mm_mullo_epi32(_mm_add_epi32(acc, r->bias), r->left_mul);
  const __m128i pe = _mm_add_epi64(_mm_mul_epi32(x, r->q), round);
  const __m128i po =
      _mm_add_epi64(_mm_mul_epi32(_mm_srli_epi64(x, 32), r->q_odd), round);
  __m128i v =
      _mm_blend_epi16(_mm_srli_epi64(pe, 31), _mm_slli_epi64(po, 1), 0xCC);
  __m128i u, se, so, fl, thr;
  /* INT32_MIN * INT32_MIN saturates to INT32_MAX */
  v = _mm_xor_si128(v, _mm_and_si128(_mm_cmpeq_epi32(x, sign), r->qmin));
  /* floor(v / 2^right) */
  u = _mm_xor_si128(v, sign);
  se = _mm_srli_epi64(_mm_mul_epu32(u, r->right_mul), 31);
  so =
      _mm_slli_epi64(_mm_mul_epu32(_mm_srli_epi64(u, 32), r->right_mul_odd), 1);
  fl = _mm_sub_epi32(_mm_blend_epi16(se, so, 0xCC), r->right_mul);
  /* + (remainder > mask / 2 + (v < 0)) */
  thr = _mm_sub_epi32(r->half, _mm_srai_epi32(v, 31));
  fl = _mm_sub_epi32(fl, _mm_cmpgt_epi32(_mm_and_si128(v, r->mask), thr));
  fl = _mm_add_epi32(fl, r->out_off);
  return _mm_min_epi32(_mm_max_epi32(fl, r->lo), r->hi);
}

/* n (1..4) int32 lanes within int8 to out[0..n) */
TFLC__INLINE void tflc__x86_store4(int8_t *out, __m128i v, int32_t n) {
  const __m128i p = _mm_packs_epi16(_mm_packs_epi32(v, v), v);
  const int32_t word = _mm_cvtsi128_si32(p);
  if (n == 4)
    memcpy(out, &word, 4);
  else
    memcpy(out, &word, (size_t)n);
}

/* n (1..8) int32 lanes (lo: 0..3, hi: 4..7) within int8 to out[0..n) */
TFLC__INLINE void tflc__x86_store8(int8_t *out, __m128i lo, __m128i hi,
                                   int32_t n) {
  const __m128i p = _mm_packs_epi16(_mm_packs_epi32(lo, hi), lo);
  if (n == 8) {
    _mm_storel_epi64((__m128i *)(void *)out, p);
  } else {
    int8_t tmp[16];
    _mm_storeu_si128((__m128i *)(void *)tmp, p);
    memcpy(out, tmp, (size_t)n);
  }
}

#if defined(TFLC_HAVE_AVX2_GEMM)
/* 8 lanes of constants (AVX2) */
typedef struct tflc__x86_rq8 {
  __m256i bias, q, q_odd, left, right, mask, half, qmin, out_off, lo, hi;
} tflc__x86_rq8;

#define TFLC__X86_LOAD8(p)                                                     \
  _mm256_loadu_si256((const __m256i *)(const void *)(p))

/* the constants of 8 channels: c..c+3 in the low lanes, c2..c2+3 in the
 * high ones (c2 = c: one group of 4 in both halves) */
static void tflc__x86_rq8_init(tflc__x86_rq8 *r, const tflc_requant_params *rq,
                               int32_t c, int32_t n, int32_t c2, int32_t n2) {
  __m128i s0, q0, b0, s1, q1, b1;
  __m256i s, zero = _mm256_setzero_si256();
  tflc__x86_raw4(rq, c, n, &s0, &q0, &b0);
  tflc__x86_raw4(rq, c2, n2, &s1, &q1, &b1);
  s = _mm256_inserti128_si256(_mm256_castsi128_si256(s0), s1, 1);
  r->q = _mm256_inserti128_si256(_mm256_castsi128_si256(q0), q1, 1);
  r->bias = _mm256_inserti128_si256(_mm256_castsi128_si256(b0), b1, 1);
  r->q_odd = _mm256_srli_epi64(r->q, 32);
  r->left = _mm256_max_epi32(s, zero);
  r->right = _mm256_min_epi32(_mm256_max_epi32(_mm256_sub_epi32(zero, s), zero),
                              _mm256_set1_epi32(31));
  r->mask = _mm256_sub_epi32(_mm256_sllv_epi32(_mm256_set1_epi32(1), r->right),
                             _mm256_set1_epi32(1));
  r->half = _mm256_srli_epi32(r->mask, 1);
  r->qmin = _mm256_cmpeq_epi32(r->q, _mm256_set1_epi32(INT32_MIN));
  r->out_off = _mm256_set1_epi32(rq->output_offset);
  r->lo = _mm256_set1_epi32(rq->act_min);
  r->hi = _mm256_set1_epi32(rq->act_max);
}

/* 8 accumulators (bias not yet added) to 8 clamped int32 outputs */
TFLC__INLINE __m256i tflc__x86_requant8(__m256i acc, const tflc__x86_rq8 *r) {
  const __m256i round = _mm256_set1_epi64x((long long)1 << 30);
  const __m256i sign = _mm256_set1_epi32(INT32_MIN);
  const __m256i x = _mm256_sllv_epi32(_mm256_add_epi32(acc, r->bias), r->left);
  const __m256i pe = _mm256_add_epi64(_mm256_mul_epi32(x, r->q), round);
  const __m256i po = _mm256_add_epi64(
      _mm256_mul_epi32(_mm256_srli_epi64(x, 32), r->q_odd), round);
  __m256i v = _mm256_blend_epi32(_mm256_srli_epi64(pe, 31),
                                 _mm256_slli_epi64(po, 1), 0xAA);
  __m256i fl, thr;
  v = _mm256_xor_si256(v,
                       _mm256_and_si256(_mm256_cmpeq_epi32(x, sign), r->qmin));
  thr = _mm256_sub_epi32(r->half, _mm256_srai_epi32(v, 31));
  fl = _mm256_sub_epi32(_mm256_srav_epi32(v, r->right),
                        _mm256_cmpgt_epi32(_mm256_and_si256(v, r->mask), thr));
  fl = _mm256_add_epi32(fl, r->out_off);
  return _mm256_min_epi32(_mm256_max_epi32(fl, r->lo), r->hi);
}
#endif

/* ---- requantization of a row ---- */
TFLC__INLINE void tflc__x86_requantize(const tflc_requant_params *rq, int32_t n,
                                       const int32_t *acc, int8_t *out,
                                       int wide) {
  int32_t c = 0;
  if (!tflc__x86_ok(rq, 0)) {
    tflc_requantize_s8_portable(rq, n, acc, out);
    return;
  }
#if defined(TFLC_HAVE_AVX2_GEMM)
  if (wide) {
    for (; c + 8 <= n; c += 8) {
      tflc__x86_rq8 r;
      __m256i v;
      tflc__x86_rq8_init(&r, rq, c, 4, c + 4, 4);
      v = tflc__x86_requant8(TFLC__X86_LOAD8(acc + c), &r);
      tflc__x86_store8(out + c, _mm256_castsi256_si128(v),
                       _mm256_extracti128_si256(v, 1), 8);
    }
  }
#else
  (void)wide;
#endif
  for (; c < n; c += 4) {
    const int32_t m = n - c < 4 ? n - c : 4;
    int32_t tmp[4] = {0, 0, 0, 0}, j;
    tflc__x86_rq4 r;
    for (j = 0; j < m; j++)
      tmp[j] = acc[c + j];
    tflc__x86_rq4_init(&r, rq, c, m);
    tflc__x86_store4(out + c, tflc__x86_requant4(TFLC__X86_LOAD4(tmp), &r), m);
  }
}

/* ---- GEMM ---- */
/* the int16 input values of 8 channels at p, with the offset */
TFLC__INLINE __m128i tflc__x86_load8_s16(const int8_t *p, __m128i off16,
                                         int with_offset) {
  const __m128i v =
      _mm_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)p));
  return with_offset ? _mm_add_epi16(v, off16) : v;
}

/* Sums of 4 weight columns against row a0 and, when two, row a1, over
 * every segment of g: the four sums of row 0 in *s0, of row 1 in *s1 (no
 * bias). wide: 16 values a step in AVX2 registers, else 8 in SSE ones. */
/* one column j of a vector step: u its widened weights, the products with
 * row 0 (v0) and, when two, row 1 (v1) added to the sums s0j, s1j */
#define TFLC__X86_STEP(add, madd, u, s0j, s1j)                                 \
  do {                                                                         \
    s0j = add(s0j, madd(v0, u));                                               \
    if (two)                                                                   \
      s1j = add(s1j, madd(v1, u));                                             \
  } while (0)

TFLC__INLINE void tflc__x86_dot_2x4(const tflc_gemm_block *g, const int8_t *a0,
                                    const int8_t *a1, const int8_t *const *w,
                                    int two, int with_offset, int wide,
                                    __m128i *s0, __m128i *s1) {
  const int32_t len = g->seg_len, off = g->a_offset;
  uint32_t t0[4] = {0, 0, 0, 0}, t1[4] = {0, 0, 0, 0};
  __m128i c00 = _mm_setzero_si128(), c01 = c00, c02 = c00, c03 = c00;
  __m128i c10 = c00, c11 = c00, c12 = c00, c13 = c00;
  const int8_t *w0 = w[0], *w1 = w[1], *w2 = w[2], *w3 = w[3];
  int32_t sg, k;
#if defined(TFLC_HAVE_AVX2_GEMM)
  __m256i d00 = _mm256_setzero_si256(), d01 = d00, d02 = d00, d03 = d00;
  __m256i d10 = d00, d11 = d00, d12 = d00, d13 = d00;
  const __m256i off16w = _mm256_set1_epi16((short)off);
#else
  (void)wide;
#endif
  const __m128i off16 = _mm_set1_epi16((short)off);
  for (sg = 0; sg < g->segments; sg++) {
    const int8_t *x0 = a0 + (ptrdiff_t)sg * g->a_seg;
    const int8_t *x1 = a1 + (ptrdiff_t)sg * g->a_seg;
    const ptrdiff_t ws = (ptrdiff_t)sg * g->w_seg;
    const int8_t *f0 = w0 + ws, *f1 = w1 + ws, *f2 = w2 + ws, *f3 = w3 + ws;
    k = 0;
#if defined(TFLC_HAVE_AVX2_GEMM)
    if (wide) {
      for (; k + 16 <= len; k += 16) {
        __m256i v0 = _mm256_cvtepi8_epi16(TFLC__X86_LOAD4(x0 + k)), v1 = v0;
        if (with_offset)
          v0 = _mm256_add_epi16(v0, off16w);
        if (two) {
          v1 = _mm256_cvtepi8_epi16(TFLC__X86_LOAD4(x1 + k));
          if (with_offset)
            v1 = _mm256_add_epi16(v1, off16w);
        }
        TFLC__X86_STEP(_mm256_add_epi32, _mm256_madd_epi16,
                       _mm256_cvtepi8_epi16(TFLC__X86_LOAD4(f0 + k)), d00, d10);
        TFLC__X86_STEP(_mm256_add_epi32, _mm256_madd_epi16,
                       _mm256_cvtepi8_epi16(TFLC__X86_LOAD4(f1 + k)), d01, d11);
        TFLC__X86_STEP(_mm256_add_epi32, _mm256_madd_epi16,
                       _mm256_cvtepi8_epi16(TFLC__X86_LOAD4(f2 + k)), d02, d12);
        TFLC__X86_STEP(_mm256_add_epi32, _mm256_madd_epi16,
                       _mm256_cvtepi8_epi16(TFLC__X86_LOAD4(f3 + k)), d03, d13);
      }
    }
#endif
    for (; k + 8 <= len; k += 8) {
      __m128i v0 = tflc__x86_load8_s16(x0 + k, off16, with_offset), v1 = v0;
      if (two)
        v1 = tflc__x86_load8_s16(x1 + k, off16, with_offset);
      TFLC__X86_STEP(_mm_add_epi32, _mm_madd_epi16,
                     tflc__x86_load8_s16(f0 + k, off16, 0), c00, c10);
      TFLC__X86_STEP(_mm_add_epi32, _mm_madd_epi16,
                     tflc__x86_load8_s16(f1 + k, off16, 0), c01, c11);
      TFLC__X86_STEP(_mm_add_epi32, _mm_madd_epi16,
                     tflc__x86_load8_s16(f2 + k, off16, 0), c02, c12);
      TFLC__X86_STEP(_mm_add_epi32, _mm_madd_epi16,
                     tflc__x86_load8_s16(f3 + k, off16, 0), c03, c13);
    }
    for (; k < len; k++) {
      const uint32_t v0 = (uint32_t)((int32_t)x0[k] + off);
      const uint32_t v1 = two ? (uint32_t)((int32_t)x1[k] + off) : 0u;
      const uint32_t u0 = (uint32_t)(int32_t)f0[k];
      const uint32_t u1 = (uint32_t)(int32_t)f1[k];
      const uint32_t u2 = (uint32_t)(int32_t)f2[k];
      const uint32_t u3 = (uint32_t)(int32_t)f3[k];
      t0[0] += v0 * u0;
      t0[1] += v0 * u1;
      t0[2] += v0 * u2;
      t0[3] += v0 * u3;
      if (two) {
        t1[0] += v1 * u0;
        t1[1] += v1 * u1;
        t1[2] += v1 * u2;
        t1[3] += v1 * u3;
      }
    }
  }
#if defined(TFLC_HAVE_AVX2_GEMM)
  if (wide) {
    /* the 256-bit sums of each column folded into one 128-bit sum with
     * the 128-bit ones: (row, column) = (lane sums of) d + c */
#define TFLC__X86_FOLD(c, d)                                                   \
  c = _mm_add_epi32(c, _mm_add_epi32(_mm256_castsi256_si128(d),                \
                                     _mm256_extracti128_si256(d, 1)))
    TFLC__X86_FOLD(c00, d00);
    TFLC__X86_FOLD(c01, d01);
    TFLC__X86_FOLD(c02, d02);
    TFLC__X86_FOLD(c03, d03);
    if (two) {
      TFLC__X86_FOLD(c10, d10);
      TFLC__X86_FOLD(c11, d11);
      TFLC__X86_FOLD(c12, d12);
      TFLC__X86_FOLD(c13, d13);
    }
#undef TFLC__X86_FOLD
  }
#endif
  *s0 = _mm_add_epi32(
      _mm_hadd_epi32(_mm_hadd_epi32(c00, c01), _mm_hadd_epi32(c02, c03)),
      TFLC__X86_LOAD4(t0));
  if (two)
    *s1 = _mm_add_epi32(
        _mm_hadd_epi32(_mm_hadd_epi32(c10, c11), _mm_hadd_epi32(c12, c13)),
        TFLC__X86_LOAD4(t1));
  else
    *s1 = *s0;
}
#undef TFLC__X86_STEP

TFLC__INLINE void tflc__x86_gemm(const tflc_requant_params *rq,
                                 const tflc_gemm_block *g, int wide) {
  const int with_offset = g->a_offset != 0;
  int32_t c, r;
  if (!tflc__x86_ok(rq, g->a_offset)) {
    tflc_gemm_s8_portable(rq, g);
    return;
  }
  for (c = 0; c < g->cols; c += 4) {
    const int32_t nc = g->cols - c < 4 ? g->cols - c : 4;
    const int8_t *w[4];
    const int8_t *a0 = g->a;
    int8_t *o = g->out + c;
    int32_t j;
#if defined(TFLC_HAVE_AVX2_GEMM)
    tflc__x86_rq8 r8;
#endif
    tflc__x86_rq4 r4;
    for (j = 0; j < 4; j++)
      w[j] = g->w + (ptrdiff_t)(c + (j < nc ? j : 0)) * g->w_col;
    tflc__x86_rq4_init(&r4, rq, c, nc);
#if defined(TFLC_HAVE_AVX2_GEMM)
    if (wide)
      tflc__x86_rq8_init(&r8, rq, c, nc, c, nc);
#endif
    for (r = 0; r + 2 <= g->rows; r += 2) {
      __m128i s0, s1, q0, q1;
      const int8_t *a1 = a0 + g->a_row;
      if (with_offset)
        tflc__x86_dot_2x4(g, a0, a1, w, 1, 1, wide, &s0, &s1);
      else
        tflc__x86_dot_2x4(g, a0, a1, w, 1, 0, wide, &s0, &s1);
#if defined(TFLC_HAVE_AVX2_GEMM)
      if (wide) {
        const __m256i v = tflc__x86_requant8(
            _mm256_inserti128_si256(_mm256_castsi128_si256(s0), s1, 1), &r8);
        q0 = _mm256_castsi256_si128(v);
        q1 = _mm256_extracti128_si256(v, 1);
      } else
#endif
      {
        q0 = tflc__x86_requant4(s0, &r4);
        q1 = tflc__x86_requant4(s1, &r4);
      }
      tflc__x86_store4(o, q0, nc);
      tflc__x86_store4(o + g->out_row, q1, nc);
      a0 += 2 * (ptrdiff_t)g->a_row;
      o += 2 * (ptrdiff_t)g->out_row;
    }
    if (r < g->rows) {
      __m128i s0, s1;
      if (with_offset)
        tflc__x86_dot_2x4(g, a0, a0, w, 0, 1, wide, &s0, &s1);
      else
        tflc__x86_dot_2x4(g, a0, a0, w, 0, 0, wide, &s0, &s1);
      tflc__x86_store4(o, tflc__x86_requant4(s0, &r4), nc);
    }
  }
}

/* ---- depthwise ---- */
/* taps a block's window may have for the vector paths (more: portable) */
#define TFLC__X86_DW_TAPS 64

/* Channels [c, c + n) of a depthwise block through the portable
 * primitive. */
static TFLC__NOINLINE void
tflc__x86_depthwise_portable(const tflc_requant_params *rq,
                             const tflc_depthwise_block *b, int32_t c,
                             int32_t n) {
  tflc_depthwise_block sub = *b;
  tflc_requant_params rc = tflc__requant_at(rq, c);
  sub.channels = n;
  sub.x += c / b->multiplier;
  sub.w += c;
  sub.out += c;
  tflc_depthwise_s8_portable(&rc, &sub);
}

/* the int16 input values of 8 channels at p, with the offset, or (bcast)
 * the one value at p in every lane */
TFLC__INLINE __m128i tflc__x86_input8(const int8_t *p, __m128i off16,
                                      int32_t off, int with_offset, int bcast) {
  if (bcast)
    return _mm_set1_epi16((short)((int32_t)p[0] + off));
  return tflc__x86_load8_s16(p, off16, with_offset);
}

/* 8 channels from channel c of every pixel (SSE4.1): taps in pairs, the
 * two taps' values interleaved per channel for PMADDWD; the weights
 * interleaved once per block. bcast: the 8 channels read one input channel
 * (a depth multiplier of 8, 16, ...). */
TFLC__INLINE void tflc__x86_depthwise8(const tflc_requant_params *rq,
                                       const tflc_depthwise_block *b, int32_t c,
                                       const int32_t *xo, const int32_t *wo,
                                       int32_t taps, int with_offset,
                                       int bcast) {
  const int32_t xc = bcast ? c / b->multiplier : c;
  __m128i wp[TFLC__X86_DW_TAPS + 2];
  const __m128i off16 = _mm_set1_epi16((short)b->x_offset);
  const __m128i zero = _mm_setzero_si128();
  tflc__x86_rq4 r0, r1;
  int32_t p, t;
  for (t = 0; t < taps; t += 2) {
    const __m128i wa = tflc__x86_load8_s16(b->w + wo[t] + c, zero, 0);
    const __m128i wb = t + 1 < taps
                           ? tflc__x86_load8_s16(b->w + wo[t + 1] + c, zero, 0)
                           : zero;
    wp[t] = _mm_unpacklo_epi16(wa, wb);
    wp[t + 1] = _mm_unpackhi_epi16(wa, wb);
  }
  tflc__x86_rq4_init(&r0, rq, c, 4);
  tflc__x86_rq4_init(&r1, rq, c + 4, 4);
  for (p = 0; p < b->pixels; p++) {
    const int8_t *xp = b->x + (ptrdiff_t)p * b->x_pixel + xc;
    __m128i lo = zero, hi = zero;
    for (t = 0; t < taps; t += 2) {
      const __m128i xa =
          tflc__x86_input8(xp + xo[t], off16, b->x_offset, with_offset, bcast);
      const __m128i xb = t + 1 < taps
                             ? tflc__x86_input8(xp + xo[t + 1], off16,
                                                b->x_offset, with_offset, bcast)
                             : zero;
      lo = _mm_add_epi32(lo, _mm_madd_epi16(_mm_unpacklo_epi16(xa, xb), wp[t]));
      hi = _mm_add_epi32(hi,
                         _mm_madd_epi16(_mm_unpackhi_epi16(xa, xb), wp[t + 1]));
    }
    tflc__x86_store8(b->out + (ptrdiff_t)p * b->out_pixel + c,
                     tflc__x86_requant4(lo, &r0), tflc__x86_requant4(hi, &r1),
                     8);
  }
}

#if defined(TFLC_HAVE_AVX2_GEMM)
/* 16 channels from channel c of every pixel (AVX2). PUNPCKL/HWD work in
 * 128-bit halves: the low sums hold channels 0..3 and 8..11, the high
 * ones 4..7 and 12..15. */
TFLC__INLINE void tflc__x86_depthwise16(const tflc_requant_params *rq,
                                        const tflc_depthwise_block *b,
                                        int32_t c, const int32_t *xo,
                                        const int32_t *wo, int32_t taps,
                                        int with_offset) {
  __m256i wp[TFLC__X86_DW_TAPS + 2];
  const __m256i off16 = _mm256_set1_epi16((short)b->x_offset);
  const __m256i zero = _mm256_setzero_si256();
  tflc__x86_rq8 r0, r1;
  int32_t p, t;
  for (t = 0; t < taps; t += 2) {
    const __m256i wa = _mm256_cvtepi8_epi16(TFLC__X86_LOAD4(b->w + wo[t] + c));
    const __m256i wb =
        t + 1 < taps
            ? _mm256_cvtepi8_epi16(TFLC__X86_LOAD4(b->w + wo[t + 1] + c))
            : zero;
    wp[t] = _mm256_unpacklo_epi16(wa, wb);
    wp[t + 1] = _mm256_unpackhi_epi16(wa, wb);
  }
  tflc__x86_rq8_init(&r0, rq, c, 4, c + 4, 4);
  tflc__x86_rq8_init(&r1, rq, c + 8, 4, c + 12, 4);
  for (p = 0; p < b->pixels; p++) {
    const int8_t *xp = b->x + (ptrdiff_t)p * b->x_pixel + c;
    __m256i lo = zero, hi = zero, v0, v1;
    for (t = 0; t < taps; t += 2) {
      __m256i xa = _mm256_cvtepi8_epi16(TFLC__X86_LOAD4(xp + xo[t]));
      __m256i xb = t + 1 < taps
                       ? _mm256_cvtepi8_epi16(TFLC__X86_LOAD4(xp + xo[t + 1]))
                       : zero;
      if (with_offset) {
        xa = _mm256_add_epi16(xa, off16);
        if (t + 1 < taps)
          xb = _mm256_add_epi16(xb, off16);
      }
      lo = _mm256_add_epi32(
          lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(xa, xb), wp[t]));
      hi = _mm256_add_epi32(
          hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(xa, xb), wp[t + 1]));
    }
    v0 = tflc__x86_requant8(_mm256_permute2x128_si256(lo, hi, 0x20), &r0);
    v1 = tflc__x86_requant8(_mm256_permute2x128_si256(lo, hi, 0x31), &r1);
    {
      /* 16 int32 within int8 to 16 bytes, in order */
      const __m256i w16 = _mm256_packs_epi32(v0, v1); /* 0-3 8-11 4-7 12-15 */
      const __m128i b16 = _mm_packs_epi16(_mm256_castsi256_si128(w16),
                                          _mm256_extracti128_si256(w16, 1));
      _mm_storeu_si128(
          (__m128i *)(void *)(b->out + (ptrdiff_t)p * b->out_pixel + c),
          _mm_shuffle_epi32(b16, _MM_SHUFFLE(3, 1, 2, 0)));
    }
  }
}
#endif

TFLC__INLINE void tflc__x86_depthwise(const tflc_requant_params *rq,
                                      const tflc_depthwise_block *b, int wide) {
  int32_t xo[TFLC__X86_DW_TAPS], wo[TFLC__X86_DW_TAPS];
  const int32_t taps = b->rows > 0 && b->rows <= TFLC__X86_DW_TAPS &&
                               b->cols > 0 && b->cols <= TFLC__X86_DW_TAPS
                           ? b->rows * b->cols
                           : 0;
  const int with_offset = b->x_offset != 0;
  int32_t c = 0, y, x, t = 0;
  const int bcast = b->multiplier != 1;
  if ((bcast && b->multiplier % 8 != 0) || !tflc__x86_ok(rq, b->x_offset) ||
      b->rows <= 0 || b->cols <= 0 || b->rows > TFLC__X86_DW_TAPS ||
      b->cols > TFLC__X86_DW_TAPS || taps > TFLC__X86_DW_TAPS) {
    tflc_depthwise_s8_portable(rq, b);
    return;
  }
  for (y = 0; y < b->rows; y++)
    for (x = 0; x < b->cols; x++, t++) {
      xo[t] = y * b->x_row + x * b->x_col;
      wo[t] = y * b->w_row + x * b->w_col;
    }
#if defined(TFLC_HAVE_AVX2_GEMM)
  if (wide && !bcast)
    for (; c + 16 <= b->channels; c += 16) {
      if (with_offset)
        tflc__x86_depthwise16(rq, b, c, xo, wo, taps, 1);
      else
        tflc__x86_depthwise16(rq, b, c, xo, wo, taps, 0);
    }
#else
  (void)wide;
#endif
  for (; c + 8 <= b->channels; c += 8) {
    if (bcast)
      tflc__x86_depthwise8(rq, b, c, xo, wo, taps, 1, 1);
    else if (with_offset)
      tflc__x86_depthwise8(rq, b, c, xo, wo, taps, 1, 0);
    else
      tflc__x86_depthwise8(rq, b, c, xo, wo, taps, 0, 0);
  }
  if (c < b->channels)
    tflc__x86_depthwise_portable(rq, b, c, b->channels - c);
}

#if defined(TFLC_HAVE_SSE41_GEMM)
TFLC_API void tflc_requantize_s8_sse41(const tflc_requant_params *rq, int32_t n,
                                       const int32_t *acc, int8_t *out) {
  tflc__x86_requantize(rq, n, acc, out, 0);
}
TFLC_API void tflc_gemm_s8_sse41(const tflc_requant_params *rq,
                                 const tflc_gemm_block *g) {
  tflc__x86_gemm(rq, g, 0);
}
TFLC_API void tflc_depthwise_s8_sse41(const tflc_requant_params *rq,
                                      const tflc_depthwise_block *b) {
  tflc__x86_depthwise(rq, b, 0);
}
#endif
#if defined(TFLC_HAVE_AVX2_GEMM)
TFLC_API void tflc_requantize_s8_avx2(const tflc_requant_params *rq, int32_t n,
                                      const int32_t *acc, int8_t *out) {
  tflc__x86_requantize(rq, n, acc, out, 1);
}
TFLC_API void tflc_gemm_s8_avx2(const tflc_requant_params *rq,
                                const tflc_gemm_block *g) {
  tflc__x86_gemm(rq, g, 1);
}
TFLC_API void tflc_depthwise_s8_avx2(const tflc_requant_params *rq,
                                     const tflc_depthwise_block *b) {
  tflc__x86_depthwise(rq, b, 1);
}
#endif
#endif /* x86 SSE4.1 / AVX2 */

/* ======================================================================== */
/* Platform: Xtensa HiFi 4 / HiFi 5 (TFLC_HAVE_HIFI)                        */
/* ======================================================================== */
/* HiFi 4 (and HiFi 5, which keeps these HiFi 4 operations) through
 * Cadence's intrinsics. int8 values are loaded four at a time from 4-byte
 * aligned addresses into 16-bit lanes (AE_L8X4F: value * 256); the GEMM
 * multiplies a 2 x 4 (or 1 x 4) block four products at a time into 64-bit
 * sums (AE_MULAAAAQ16), the depthwise four channels at a time into 32-bit
 * lanes (AE_MULA16X4), two pixels per weight load. On HiFi 5 the GEMM
 * without an input offset takes runs of eight values of any alignment
 * (AE_LA8X8_IP) into 32 int8 products per AE_MULA8Q8X8 first. Exactness does
 * not rest on how these instructions overflow: the inputs are bounded so that
 * no 16-bit lane, 32-bit lane or 64-bit sum can, and the wrapping int32 sum of
 * the portable version is the low word of the exact 64-bit one. Tails,
 * misaligned runs, the biases and the requantization are the portable C
 * (TFLC_REQUANTIZE_S8), so no HiFi rounding instruction is involved. Not run on
 * HiFi silicon nor through Cadence's compiler: tested on hosts with
 * TFLC_HIFI_EMULATE over tests/hifi_emu.h, which says what the public sources
 * establish about each intrinsic used and what it assumes. */
#if defined(TFLC_HAVE_HIFI)
#if defined(TFLC_HIFI_EMULATE)
#if defined(TFLC_HIFI_EMULATE_HEADER)
#include TFLC_HIFI_EMULATE_HEADER
#else
#include "tests/hifi_emu.h"
#endif
#elif defined(XCHAL_HAVE_HIFI5) && XCHAL_HAVE_HIFI5
#include <xtensa/tie/xt_hifi5.h>
#else
#include <xtensa/tie/xt_hifi4.h>
#endif

/* largest |offset| added to int8 values in 16-bit lanes */
#define TFLC__HIFI_MAX_OFFSET 32640
/* values per GEMM dot product: at most 2^28 products of magnitude at most
 * 2^30 (F form) keep the 64-bit sums below 2^58 */
#define TFLC__HIFI_MAX_DEPTH ((int64_t)1 << 28)
/* taps per depthwise output: at most 256 products of magnitude at most 2^22
 * (|x + offset| <= 2^15, |w| <= 2^7) keep a 32-bit lane below 2^30 */
#define TFLC__HIFI_MAX_TAPS 256

/* nonzero when p is not 4-byte aligned */
TFLC__INLINE uintptr_t tflc__hifi_misaligned(const int8_t *p) {
  return (uintptr_t)p & 3u;
}

/* the low word of a 64-bit sum shifted right by 16 (no offset: both sides
 * in F form) or by 8 */
TFLC__INLINE uint32_t tflc__hifi_low32(ae_int64 q, int no_offset) {
  return (uint32_t)AE_MOVAD32_L(
      AE_MOVINT32X2_FROMINT64(no_offset ? AE_SRAI64(q, 16) : AE_SRAI64(q, 8)));
}

/* q[4 i + j] (input row i, weight row j) += a 2 x 4 block (1 x 4 without
 * a1: q[0..3] only) over n4 groups of four values at 4-byte aligned
 * addresses. Weights stay in F form; inputs too without an offset (sums of
 * 65536 x the products), else they are turned back to int8 and offset in
 * 16-bit lanes (sums of 256 x the products). */
TFLC__INLINE void tflc__hifi_dot_x4(const int8_t *a0, const int8_t *a1,
                                    const int8_t *w0, const int8_t *w1,
                                    const int8_t *w2, const int8_t *w3,
                                    int32_t n4, int32_t a_offset, ae_int64 *q) {
  ae_int64 q00 = q[0], q01 = q[1], q02 = q[2], q03 = q[3];
  ae_int64 q10 = q[4], q11 = q[5], q12 = q[6], q13 = q[7];
  const ae_int16x4 off = AE_MOVDA16(a_offset);
  int32_t k;
  if (a1 != NULL) {
    for (k = 0; k < n4; k++) {
      ae_int16x4 x0, x1, f;
      AE_L8X4F_IP(x0, a0, 4);
      AE_L8X4F_IP(x1, a1, 4);
      if (a_offset != 0) {
        x0 = AE_ADD16(AE_SRAI16(x0, 8), off);
        x1 = AE_ADD16(AE_SRAI16(x1, 8), off);
      }
      AE_L8X4F_IP(f, w0, 4);
      AE_MULAAAAQ16(q00, x0, f);
      AE_MULAAAAQ16(q10, x1, f);
      AE_L8X4F_IP(f, w1, 4);
      AE_MULAAAAQ16(q01, x0, f);
      AE_MULAAAAQ16(q11, x1, f);
      AE_L8X4F_IP(f, w2, 4);
      AE_MULAAAAQ16(q02, x0, f);
      AE_MULAAAAQ16(q12, x1, f);
      AE_L8X4F_IP(f, w3, 4);
      AE_MULAAAAQ16(q03, x0, f);
      AE_MULAAAAQ16(q13, x1, f);
    }
  } else {
    for (k = 0; k < n4; k++) {
      ae_int16x4 x0, f;
      AE_L8X4F_IP(x0, a0, 4);
      if (a_offset != 0)
        x0 = AE_ADD16(AE_SRAI16(x0, 8), off);
      AE_L8X4F_IP(f, w0, 4);
      AE_MULAAAAQ16(q00, x0, f);
      AE_L8X4F_IP(f, w1, 4);
      AE_MULAAAAQ16(q01, x0, f);
      AE_L8X4F_IP(f, w2, 4);
      AE_MULAAAAQ16(q02, x0, f);
      AE_L8X4F_IP(f, w3, 4);
      AE_MULAAAAQ16(q03, x0, f);
    }
  }
  q[0] = q00;
  q[1] = q01;
  q[2] = q02;
  q[3] = q03;
  q[4] = q10;
  q[5] = q11;
  q[6] = q12;
  q[7] = q13;
}

#if defined(XCHAL_HAVE_HIFI5) && XCHAL_HAVE_HIFI5
#define TFLC__HIFI5 1
/* values per HiFi 5 run: at most 2^16 products of magnitude at most 2^14
 * keep a 32-bit lane below 2^30 */
#define TFLC__HIFI5_MAX_RUN 65536

/* HiFi 5, no input offset: t[4 i + j] += input row i (a1: row 1, unless
 * NULL) . weight row j over n8 groups of eight values, 32 int8 x int8
 * products per AE_MULA8Q8X8 (weight rows 0 and 1 into the H and L elements
 * of its first pair, 2 and 3 into its second). The rows are read at any
 * alignment as streams: AE_LA64_PP primes each one's alignment register,
 * AE_LA8X8_IP then gives its next eight values. */
TFLC__INLINE void tflc__hifi5_dot_x4(const int8_t *a0, const int8_t *a1,
                                     const int8_t *w0, const int8_t *w1,
                                     const int8_t *w2, const int8_t *w3,
                                     int32_t n8, uint32_t *t) {
  const ae_int8x8 *pa0 = (const ae_int8x8 *)(const void *)a0;
  const ae_int8x8 *pa1 = (const ae_int8x8 *)(const void *)(a1 ? a1 : a0);
  const ae_int8x8 *pw0 = (const ae_int8x8 *)(const void *)w0;
  const ae_int8x8 *pw1 = (const ae_int8x8 *)(const void *)w1;
  const ae_int8x8 *pw2 = (const ae_int8x8 *)(const void *)w2;
  const ae_int8x8 *pw3 = (const ae_int8x8 *)(const void *)w3;
  ae_valign va0 = AE_LA64_PP(pa0), va1 = AE_LA64_PP(pa1);
  ae_valign vw0 = AE_LA64_PP(pw0), vw1 = AE_LA64_PP(pw1);
  ae_valign vw2 = AE_LA64_PP(pw2), vw3 = AE_LA64_PP(pw3);
  ae_int32x2 p01 = AE_ZERO32(), p23 = AE_ZERO32();
  ae_int32x2 r01 = AE_ZERO32(), r23 = AE_ZERO32();
  int32_t k;
  for (k = 0; k < n8; k++) {
    ae_int8x8 x0, f0, f1, f2, f3;
    AE_LA8X8_IP(f0, vw0, pw0);
    AE_LA8X8_IP(f1, vw1, pw1);
    AE_LA8X8_IP(f2, vw2, pw2);
    AE_LA8X8_IP(f3, vw3, pw3);
    AE_LA8X8_IP(x0, va0, pa0);
    AE_MULA8Q8X8(p01, p23, f0, f1, f2, f3, x0);
    if (a1 != NULL) {
      ae_int8x8 x1;
      AE_LA8X8_IP(x1, va1, pa1);
      AE_MULA8Q8X8(r01, r23, f0, f1, f2, f3, x1);
    }
  }
  t[0] += (uint32_t)AE_MOVAD32_H(p01);
  t[1] += (uint32_t)AE_MOVAD32_L(p01);
  t[2] += (uint32_t)AE_MOVAD32_H(p23);
  t[3] += (uint32_t)AE_MOVAD32_L(p23);
  t[4] += (uint32_t)AE_MOVAD32_H(r01);
  t[5] += (uint32_t)AE_MOVAD32_L(r01);
  t[6] += (uint32_t)AE_MOVAD32_H(r23);
  t[7] += (uint32_t)AE_MOVAD32_L(r23);
}
#endif

/* The int32 sums (wrapping, no bias) of columns [c0, c0 + nc) of row r
 * into s0, and of row r + 1 into s1 when two. Four columns at a time (the
 * last group repeats its first column); each segment through the HiFi
 * loop when its rows start 4-byte aligned, its last len % 4 values (or all
 * of a misaligned one) in C. */
static void tflc__hifi_gemm_cols(const tflc_gemm_block *g, int32_t r, int two,
                                 int32_t c0, int32_t nc, uint32_t *s0,
                                 uint32_t *s1) {
  const int32_t off = g->a_offset, len = g->seg_len;
  const int8_t *a0 = g->a + (ptrdiff_t)r * g->a_row;
  const int8_t *a1 = two ? a0 + g->a_row : NULL;
  int32_t c, j, sg, k;
  for (c = 0; c < nc; c += 4) {
    const int8_t *w[4];
    ae_int64 q[8];
    uint32_t t[8];
    for (j = 0; j < 4; j++)
      w[j] = g->w + (ptrdiff_t)(c0 + (c + j < nc ? c + j : c)) * g->w_col;
    for (j = 0; j < 8; j++) {
      q[j] = AE_ZERO64();
      t[j] = 0;
    }
    for (sg = 0; sg < g->segments; sg++) {
      const int8_t *x0 = a0 + (ptrdiff_t)sg * g->a_seg;
      const int8_t *x1 = two ? a1 + (ptrdiff_t)sg * g->a_seg : NULL;
      const int8_t *f0 = w[0] + (ptrdiff_t)sg * g->w_seg;
      const int8_t *f1 = w[1] + (ptrdiff_t)sg * g->w_seg;
      const int8_t *f2 = w[2] + (ptrdiff_t)sg * g->w_seg;
      const int8_t *f3 = w[3] + (ptrdiff_t)sg * g->w_seg;
      k = 0;
#if defined(TFLC__HIFI5)
      if (off == 0 && len >= 8 && len <= TFLC__HIFI5_MAX_RUN) {
        /* eight values at a time, then at most one group of four */
        tflc__hifi5_dot_x4(x0, x1, f0, f1, f2, f3, len >> 3, t);
        k = len & ~7;
      }
#endif
      if (len - k >= 4 &&
          (tflc__hifi_misaligned(x0 + k) |
           (two ? tflc__hifi_misaligned(x1 + k) : 0u) |
           tflc__hifi_misaligned(f0 + k) | tflc__hifi_misaligned(f1 + k) |
           tflc__hifi_misaligned(f2 + k) | tflc__hifi_misaligned(f3 + k)) ==
              0u) {
        tflc__hifi_dot_x4(x0 + k, two ? x1 + k : NULL, f0 + k, f1 + k, f2 + k,
                          f3 + k, (len - k) >> 2, off, q);
        k += (len - k) & ~3;
      }
      for (; k < len; k++) {
        /* |x + off| * |w| < 2^23: int32 products, wrapping sums */
        const int32_t v0 = (int32_t)x0[k] + off;
        t[0] += (uint32_t)(v0 * f0[k]);
        t[1] += (uint32_t)(v0 * f1[k]);
        t[2] += (uint32_t)(v0 * f2[k]);
        t[3] += (uint32_t)(v0 * f3[k]);
        if (two) {
          const int32_t v1 = (int32_t)x1[k] + off;
          t[4] += (uint32_t)(v1 * f0[k]);
          t[5] += (uint32_t)(v1 * f1[k]);
          t[6] += (uint32_t)(v1 * f2[k]);
          t[7] += (uint32_t)(v1 * f3[k]);
        }
      }
    }
    for (j = 0; j < 4 && c + j < nc; j++) {
      s0[c + j] = tflc__hifi_low32(q[j], off == 0) + t[j];
      if (two)
        s1[c + j] = tflc__hifi_low32(q[4 + j], off == 0) + t[4 + j];
    }
  }
}

/* columns of accumulators the HiFi GEMM keeps per row */
#define TFLC__HIFI_COLS 16

TFLC_API void tflc_gemm_s8_hifi(const tflc_requant_params *rq,
                                const tflc_gemm_block *g) {
  int32_t acc0[TFLC__HIFI_COLS], acc1[TFLC__HIFI_COLS];
  uint32_t s0[TFLC__HIFI_COLS], s1[TFLC__HIFI_COLS];
  int32_t r, c0, c;
  if (g->a_offset < -TFLC__HIFI_MAX_OFFSET ||
      g->a_offset > TFLC__HIFI_MAX_OFFSET ||
      (int64_t)g->segments * g->seg_len > TFLC__HIFI_MAX_DEPTH) {
    /* inputs beyond 16-bit lanes, or sums beyond the bound above */
    tflc_gemm_s8_portable(rq, g);
    return;
  }
  for (r = 0; r < g->rows; r += 2) {
    const int two = r + 1 < g->rows;
    int8_t *o0 = g->out + (ptrdiff_t)r * g->out_row;
    for (c0 = 0; c0 < g->cols; c0 += TFLC__HIFI_COLS) {
      const int32_t nc =
          g->cols - c0 < TFLC__HIFI_COLS ? g->cols - c0 : TFLC__HIFI_COLS;
      const tflc_requant_params rc = tflc__requant_at(rq, c0);
      tflc__hifi_gemm_cols(g, r, two, c0, nc, s0, s1);
      for (c = 0; c < nc; c++)
        acc0[c] = tflc__wrap32(s0[c]);
      TFLC_REQUANTIZE_S8(&rc, nc, acc0, o0 + c0);
      if (two) {
        for (c = 0; c < nc; c++)
          acc1[c] = tflc__wrap32(s1[c]);
        TFLC_REQUANTIZE_S8(&rc, nc, acc1, o0 + g->out_row + c0);
      }
    }
  }
}

/* The input lanes of one tap: four channels at xt (an aligned load), as
 * int8 + offset, or in F form (value * 256) when f_form; or with
 * broadcast the one value at xt + offset in all four lanes. */
TFLC__INLINE ae_int16x4 tflc__hifi_dw_input(const int8_t *xt, int broadcast,
                                            int f_form, int32_t x_offset,
                                            ae_int16x4 off) {
  if (broadcast)
    return AE_MOVDA16((int32_t)*xt + x_offset);
  if (f_form)
    return AE_L8X4F_I(xt, 0);
  return AE_ADD16(AE_SRAI16(AE_L8X4F_I(xt, 0), 8), off);
}

/* The sums (no bias) of four channels over a window of taps for one pixel
 * (inputs of tap (0, 0) at x0) into s0, and for a second one (x1, unless
 * NULL) into s1; the weights at wt; every load 4-byte aligned. The
 * weights are loaded once for both pixels. Channel j is lane 3 - j of the
 * loads: AE_MULA16X4 adds lanes 3 and 2 into its first pair (H, L), lanes
 * 1 and 0 into its second. Without an offset the inputs stay in F form
 * and the sums, 256 x the dot products, are shifted back at the end. */
TFLC__INLINE void tflc__hifi_dw4(const tflc_depthwise_block *b,
                                 const int8_t *x0, const int8_t *x1,
                                 const int8_t *wt0, int broadcast, uint32_t *s0,
                                 uint32_t *s1) {
  ae_int32x2 q01 = AE_ZERO32(), q23 = AE_ZERO32();
  ae_int32x2 r01 = AE_ZERO32(), r23 = AE_ZERO32();
  const ae_int16x4 off = AE_MOVDA16(b->x_offset);
  const int f_form = !broadcast && b->x_offset == 0;
  int32_t y, x, j;
  int32_t v[8];
  for (y = 0; y < b->rows; y++) {
    const ptrdiff_t xr = (ptrdiff_t)y * b->x_row;
    const int8_t *wt = wt0 + (ptrdiff_t)y * b->w_row;
    ptrdiff_t xo = xr;
    for (x = 0; x < b->cols; x++) {
      const ae_int16x4 wv = AE_SRAI16(AE_L8X4F_I(wt, 0), 8);
      AE_MULA16X4(
          q01, q23,
          tflc__hifi_dw_input(x0 + xo, broadcast, f_form, b->x_offset, off),
          wv);
      if (x1 != NULL)
        AE_MULA16X4(
            r01, r23,
            tflc__hifi_dw_input(x1 + xo, broadcast, f_form, b->x_offset, off),
            wv);
      xo += b->x_col;
      wt += b->w_col;
    }
  }
  v[0] = AE_MOVAD32_H(q01);
  v[1] = AE_MOVAD32_L(q01);
  v[2] = AE_MOVAD32_H(q23);
  v[3] = AE_MOVAD32_L(q23);
  v[4] = AE_MOVAD32_H(r01);
  v[5] = AE_MOVAD32_L(r01);
  v[6] = AE_MOVAD32_H(r23);
  v[7] = AE_MOVAD32_L(r23);
  for (j = 0; j < 4; j++) {
    /* F form: exact multiples of 256 */
    s0[j] = (uint32_t)(f_form ? tflc__asr32(v[j], 8) : v[j]);
    if (x1 != NULL)
      s1[j] = (uint32_t)(f_form ? tflc__asr32(v[4 + j], 8) : v[4 + j]);
  }
}

/* s[j] = the sum (no bias) of channel ch + j of the pixel whose tap (0, 0)
 * is at xp, for j < n, in C as the portable version (wrapping products of
 * any offset): the channels the HiFi loop does not take. */
static void tflc__hifi_dw_c(const tflc_depthwise_block *b, const int8_t *xp,
                            int32_t m, int32_t ch, int32_t n, uint32_t *s) {
  int32_t j, y, x;
  for (j = 0; j < n; j++) {
    uint32_t sum = 0;
    for (y = 0; y < b->rows; y++)
      for (x = 0; x < b->cols; x++) {
        const ptrdiff_t xo = (ptrdiff_t)y * b->x_row + (ptrdiff_t)x * b->x_col;
        const ptrdiff_t wo = (ptrdiff_t)y * b->w_row + (ptrdiff_t)x * b->w_col;
        sum +=
            ((uint32_t)(int32_t)xp[xo + (ch + j) / m] + (uint32_t)b->x_offset) *
            (uint32_t)(int32_t)b->w[wo + ch + j];
      }
    s[j] = sum;
  }
}

/* channels of accumulators the HiFi depthwise keeps at a time */
#define TFLC__HIFI_DW_CHANNELS 16

TFLC_API void tflc_depthwise_s8_hifi(const tflc_requant_params *rq,
                                     const tflc_depthwise_block *b) {
  int32_t acc[TFLC__HIFI_DW_CHANNELS];
  uint32_t s0[TFLC__HIFI_DW_CHANNELS], s1[TFLC__HIFI_DW_CHANNELS];
  const int32_t m = b->multiplier > 0 ? b->multiplier : 1;
  const int broadcast = m != 1;
  /* every tap of an aligned channel group aligned when these are */
  const int strides_aligned = ((b->w_row | b->w_col) & 3) == 0 &&
                              (broadcast || ((b->x_row | b->x_col) & 3) == 0);
  int32_t p, c0, c;
  if (b->x_offset < -TFLC__HIFI_MAX_OFFSET ||
      b->x_offset > TFLC__HIFI_MAX_OFFSET ||
      (int64_t)b->rows * b->cols > TFLC__HIFI_MAX_TAPS ||
      (m != 1 && m % 4 != 0)) {
    /* inputs beyond 16-bit lanes, sums beyond the bound above, or groups
     * of four channels that read different input channels */
    tflc_depthwise_s8_portable(rq, b);
    return;
  }
  for (p = 0; p < b->pixels; p += 2) {
    /* two pixels at a time (the weights loaded once for both) */
    const int two = p + 1 < b->pixels;
    const int8_t *xp0 = b->x + (ptrdiff_t)p * b->x_pixel;
    const int8_t *xp1 = two ? xp0 + b->x_pixel : NULL;
    int8_t *o0 = b->out + (ptrdiff_t)p * b->out_pixel;
    for (c0 = 0; c0 < b->channels; c0 += TFLC__HIFI_DW_CHANNELS) {
      const int32_t nc = b->channels - c0 < TFLC__HIFI_DW_CHANNELS
                             ? b->channels - c0
                             : TFLC__HIFI_DW_CHANNELS;
      const tflc_requant_params rc = tflc__requant_at(rq, c0);
      for (c = 0; c < nc; c += 4) {
        /* c0 + c is a multiple of 4, so with m % 4 == 0 its four channels
         * read one input channel */
        const int32_t ch = c0 + c;
        const int32_t in_ch = broadcast ? ch / m : ch;
        const int8_t *wt = b->w + ch;
        const int32_t n = nc - c < 4 ? nc - c : 4;
        if (n == 4 && strides_aligned && tflc__hifi_misaligned(wt) == 0u &&
            (broadcast ||
             (tflc__hifi_misaligned(xp0 + in_ch) |
              (two ? tflc__hifi_misaligned(xp1 + in_ch) : 0u)) == 0u)) {
          tflc__hifi_dw4(b, xp0 + in_ch, two ? xp1 + in_ch : NULL, wt,
                         broadcast, s0 + c, s1 + c);
          continue;
        }
        tflc__hifi_dw_c(b, xp0, m, ch, n, s0 + c);
        if (two)
          tflc__hifi_dw_c(b, xp1, m, ch, n, s1 + c);
      }
      for (c = 0; c < nc; c++)
        acc[c] = tflc__wrap32(s0[c]);
      TFLC_REQUANTIZE_S8(&rc, nc, acc, o0 + c0);
      if (two) {
        for (c = 0; c < nc; c++)
          acc[c] = tflc__wrap32(s1[c]);
        TFLC_REQUANTIZE_S8(&rc, nc, acc, o0 + b->out_pixel + c0);
      }
    }
  }
}
#endif /* TFLC_HAVE_HIFI */

/* the build's own floating-point contraction again */
#if defined(__clang__)
#pragma STDC FP_CONTRACT DEFAULT
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif

#endif /* TFLC_KERNELS_IMPLEMENTATION */

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
 * Quick start (hand-written graph, no model)
 *   #define TFLC_KERNELS_IMPLEMENTATION   // in exactly one .c file
 *   #include "tflc_kernels.h"
 *
 *   int32_t mult[8], shift[8];
 *   tflc_conv_quantize_multipliers(in_scale, w_scales, 8, out_scale, 8,
 *                                  mult, shift);
 *   tflc_conv_params p = {0};
 *   p.stride_h = p.stride_w = 1; p.dilation_h = p.dilation_w = 1;
 *   p.input_offset = -in_zp; p.output_offset = out_zp;
 *   p.act_min = -128; p.act_max = 127;
 *   p.out_multiplier = mult; p.out_shift = shift;
 *   tflc_const w = tflc_const_raw(weights, TFLC_INT8, 8 * 3 * 3 * 4);
 *   tflc_conv2d_s8(&p, in_dims, in, w_dims, &w, NULL, out_dims, out,
 *                  NULL, 0);
 *
 * Configuration macros (define before including)
 *   TFLC_API              linkage of public functions (default extern;
 *                         static with TFLC_STATIC)
 *   TFLC_ASSERT(x)        internal invariant check (default: nothing)
 *   TFLC_MAX_DIMS         largest tensor rank handled (default 6)
 *   TFLC_TILE_BYTES       size of the decode tile the interpreter hands to
 *                         kernels reading compressed constants (default 512)
 *   TFLC_PLATFORM_HEADER  a header that replaces platform primitives
 *
 * License: MIT (see LICENSE).
 */
#ifndef TFLC_KERNELS_H
#define TFLC_KERNELS_H

#include <stddef.h>
#include <stdint.h>

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

#ifdef __cplusplus
extern "C" {
#endif

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

TFLC_API tflc_const tflc_const_raw(const void *data, tflc_type type,
                                   int32_t count);
/* A LUT-compressed constant: `bitstring` holds `count` bits-wide indices
 * (1..8), `values` channels * stride elements. elems_per_channel is set as
 * TFLM does: count when channels <= 1, 1 on the last axis (alt_axis 1),
 * else count / channels. */
TFLC_API tflc_const tflc_const_lut(const void *bitstring, const void *values,
                                   tflc_type type, int32_t count, int bits,
                                   int32_t channels, int32_t stride,
                                   int alt_axis);
/* Decode elements [start, start + n) into dst (n * type size bytes). Raw
 * constants are copied. Uses the fast paths (whole bytes / groups at a
 * time); tflc_lut_decode_ref is the portable one-index-at-a-time path it
 * is tested against (same bytes, always). */
TFLC_API void tflc_lut_decode(const tflc_const *c, int32_t start, int32_t n,
                              void *dst);
TFLC_API void tflc_lut_decode_ref(const tflc_const *c, int32_t start, int32_t n,
                                  void *dst);
/* Decode elements start, start + step, ... (n of them) into dst. */
TFLC_API void tflc_lut_gather(const tflc_const *c, int32_t start, int32_t step,
                              int32_t n, void *dst);
/* Pointer to elements [start, start + n): into the raw data when the
 * constant is raw, else decoded into `tile` (which must hold n elements). */
TFLC_API const void *tflc_const_span(const tflc_const *c, int32_t start,
                                     int32_t n, void *tile);
/* One element widened. i32: INT8/UINT8/BOOL/INT16/INT32 (INT64 keeps its
 * low 32 bits); i64: every integer type. Both give 0 for FLOAT32. f32:
 * FLOAT32 as stored, integer types converted. Values are read
 * little-endian byte by byte (any alignment, any host). */
TFLC_API int32_t tflc_const_i32(const tflc_const *c, int32_t i);
TFLC_API int64_t tflc_const_i64(const tflc_const *c, int32_t i);
TFLC_API float tflc_const_f32(const tflc_const *c, int32_t i);

/* ---- quantization helpers (TFLM double rounding) ------------------------ */
/* m -> (q, shift), m ~= q * 2^(shift - 31); TFLM's QuantizeMultiplier. */
TFLC_API void tflc_quantize_multiplier(double m, int32_t *q, int32_t *shift);
TFLC_API int32_t tflc_saturating_rounding_doubling_high_mul(int32_t a,
                                                            int32_t b);
TFLC_API int32_t tflc_rounding_divide_by_pot(int32_t x, int32_t exponent);
/* MultiplyByQuantizedMultiplier, int32 and int64 accumulators. */
TFLC_API int32_t tflc_multiply_by_quantized_multiplier(int32_t x, int32_t q,
                                                       int32_t shift);
TFLC_API int32_t tflc_multiply_by_quantized_multiplier_64(int64_t x, int32_t q,
                                                          int32_t shift);
/* Fused activation clamp for a quantized output (CalculateActivation-
 * RangeQuantized). act: 0 NONE, 1 RELU, 2 RELU_N1_TO_1, 3 RELU6. */
TFLC_API void tflc_activation_range_quantized(int act, float scale, int32_t zp,
                                              int32_t qmin, int32_t qmax,
                                              int32_t *lo, int32_t *hi);
TFLC_API void tflc_activation_range_f32(int act, float *lo, float *hi);

/* ---- convolution family ------------------------------------------------- */
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
 * `tile` (tile_bytes) is scratch for decoding a compressed filter a row (or
 * a piece of one) at a time; it may be NULL when the filter is raw. With a
 * compressed filter and no tile (or one under 64 bytes) a 64-byte stack
 * tile is used. Compressed biases are decoded one element at a time. The
 * output bytes do not depend on the tile size or on compression. */
TFLC_API void tflc_conv2d_s8(const tflc_conv_params *p,
                             const int32_t in_dims[4], const int8_t *in,
                             const int32_t filter_dims[4],
                             const tflc_const *filter, const tflc_const *bias,
                             const int32_t out_dims[4], int8_t *out, void *tile,
                             size_t tile_bytes);
/* filter [1,Kh,Kw,Cin*M] (compressed on the last axis, typically), output
 * channel oc = ic * M + m with M = p->depth_multiplier; bias [Cin*M]. The
 * Kh*Kw taps of a channel are gathered into the tile once when they fit,
 * else piecewise per pixel. Tile rules as tflc_conv2d_s8. */
TFLC_API void
tflc_depthwise_conv2d_s8(const tflc_conv_params *p, const int32_t in_dims[4],
                         const int8_t *in, const int32_t filter_dims[4],
                         const tflc_const *filter, const tflc_const *bias,
                         const int32_t out_dims[4], int8_t *out, void *tile,
                         size_t tile_bytes);

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
 * ignored (as TFLM). A compressed filter row is decoded once for all
 * batches when it fits the tile, else in tile-sized pieces. Tile rules as
 * tflc_conv2d_s8. */
TFLC_API void tflc_fully_connected_s8(const tflc_fc_params *p, int32_t batches,
                                      int32_t accum_depth, int32_t out_depth,
                                      const int8_t *in,
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

/* ---- pooling ------------------------------------------------------------ */
typedef struct tflc_pool_params {
  int32_t stride_h, stride_w;
  int32_t filter_h, filter_w;
  int32_t pad_h, pad_w;
  int32_t act_min, act_max;
} tflc_pool_params;
/* Returns TFLC_ERR_KERNEL if a window has no valid tap (as TFLM fails). */
TFLC_API tflc_status tflc_avg_pool_s8(const tflc_pool_params *p,
                                      const int32_t in_dims[4],
                                      const int8_t *in,
                                      const int32_t out_dims[4], int8_t *out);
TFLC_API void tflc_max_pool_s8(const tflc_pool_params *p,
                               const int32_t in_dims[4], const int8_t *in,
                               const int32_t out_dims[4], int8_t *out);

/* ---- softmax ------------------------------------------------------------ */
typedef struct tflc_softmax_params {
  int32_t input_multiplier;
  int32_t input_left_shift;
  int32_t diff_min;
} tflc_softmax_params;
TFLC_API void tflc_softmax_prepare_s8(float beta, float in_scale,
                                      tflc_softmax_params *p);
/* rows x depth, int8 in, int8 out (out scale 1/256, zero point -128). */
TFLC_API void tflc_softmax_s8(const tflc_softmax_params *p, int32_t rows,
                              int32_t depth, const int8_t *in, int8_t *out);
/* rows x depth, int8 in, int16 out (scale 1/65536, zero point -32768). */
TFLC_API void tflc_softmax_s8_s16(const tflc_softmax_params *p, int32_t rows,
                                  int32_t depth, const int8_t *in,
                                  int16_t *out);
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
/* Broadcasting add. All three shapes have the same rank (<= TFLC_MAX_DIMS),
 * right-aligned, with input dims either equal to the output's or 1. */
TFLC_API void tflc_add_s8(const tflc_add_params *p, int32_t rank,
                          const int32_t *dims1, const int8_t *in1,
                          const int32_t *dims2, const int8_t *in2,
                          const int32_t *out_dims, int8_t *out);
TFLC_API void tflc_add_f32(float act_min, float act_max, int32_t rank,
                           const int32_t *dims1, const float *in1,
                           const int32_t *dims2, const float *in2,
                           const int32_t *out_dims, float *out);

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
/* float -> int8/int16 (AffineQuantize, round half away from zero). */
TFLC_API void tflc_quantize_f32_s8(float scale, int32_t zp, int32_t n,
                                   const float *in, int8_t *out);
TFLC_API void tflc_quantize_f32_s16(float scale, int32_t zp, int32_t n,
                                    const float *in, int16_t *out);
/* int8 -> int8 requantize: y = mbqm(x - in_zp, q, shift) + out_zp. */
TFLC_API void tflc_requantize_s8(int32_t q, int32_t shift, int32_t in_zp,
                                 int32_t out_zp, int32_t n, const int8_t *in,
                                 int8_t *out);
/* y = float(double(scale) * (x - zp)). */
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
/* float32 CONV_2D / DEPTHWISE_CONV_2D: geometry from p (quantization
 * fields unused), FLOAT32 filter and bias (or NULL). Sums in TFLM's order,
 * then + bias, then min(max(v, act_min), act_max). */
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
/* int16 LOGISTIC / TANH of TFLM's reference kernels (sigmoid table with
 * linear interpolation): v = (x * mult + 2^(shift-1)) >> shift (mult != 0;
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
 * path is TFLM's integer one (Q10 scales, int64 sums, rounding half away
 * from zero); the float path follows TFLM's float expressions. Not both
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

/* ---- quantization helpers ----------------------------------------------- */
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

TFLC_API void tflc_quantize_multiplier(double m, int32_t *q, int32_t *shift) {
  int e = 0;
  double f, r;
  int64_t qf;
  /* Non-finite or absurdly large multipliers cannot come from a valid
   * model; give the neutral answer instead of undefined behaviour. */
  if (m == 0.0 || !(m == m) || m > 1e300 || m < -1e300) {
    *q = 0;
    *shift = 0;
    return;
  }
  f = frexp(m, &e);
  r = f * 2147483648.0; /* f * 2^31, exact */
  r = round(r);         /* half away from zero, as std::round */
  qf = (int64_t)r;
  if (qf == ((int64_t)1 << 31)) {
    qf /= 2;
    ++e;
  }
  if (e < -31) {
    e = 0;
    qf = 0;
  }
  *q = (int32_t)qf;
  *shift = (int32_t)e;
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
  r = (int64_t)zp + (int64_t)t;
  if (r > INT32_MAX)
    r = INT32_MAX;
  if (r < INT32_MIN)
    r = INT32_MIN;
  return (int32_t)r;
}

TFLC_API void tflc_activation_range_quantized(int act, float scale, int32_t zp,
                                              int32_t qmin, int32_t qmax,
                                              int32_t *lo, int32_t *hi) {
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

/* ---- LUT decoder -------------------------------------------------------- */
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

/* Channel of element i (see tflc_const). */
static int32_t tflc__channel(const tflc_const *c, int32_t i) {
  if (c->channels <= 1)
    return 0;
  if (c->alt_axis)
    return i % c->channels;
  return c->elems_per_channel > 0 ? i / c->elems_per_channel : 0;
}

/* n indices from (src, bit), each mapped through the byte table tab, into
 * dst. The fast core: a head of single fields until the cursor is on a byte
 * boundary, then whole byte groups per width (8 / gcd(bits, 8) indices in
 * bits / gcd(bits, 8) bytes), then a tail of single fields. With
 * tab = tflc__identity8 it just unpacks indices. */
static void tflc__unpack8(const uint8_t *src, unsigned bit, int32_t n,
                          unsigned bits, const uint8_t *tab, uint8_t *dst) {
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
  if (c->kind != TFLC_CONST_RAW_LUT) {
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
  if (c->kind != TFLC_CONST_RAW_LUT) {
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
      tflc__unpack8(bs + tflc__bit_byte(start, bits),
                    tflc__bit_off(start, bits), m, bits, tflc__identity8, idx);
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
      tflc__unpack8(bs + tflc__bit_byte(start, bits),
                    tflc__bit_off(start, bits), seg, bits, tab, d);
      start += seg;
      n -= seg;
      d += seg;
    } else {
      int32_t left = seg;
      while (left > 0) {
        const int32_t m = left < TFLC__CHUNK ? left : TFLC__CHUNK;
        tflc__unpack8(bs + tflc__bit_byte(start, bits),
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

TFLC_API void tflc_lut_gather(const tflc_const *c, int32_t start, int32_t step,
                              int32_t n, void *dst) {
  const size_t es = tflc_type_size(c->type);
  uint8_t *d = (uint8_t *)dst;
  int32_t k, i = start;
  if (es == 1 && c->kind == TFLC_CONST_RAW_LUT && c->bits != 0 &&
      c->bits <= 8) {
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

/* ---- convolution family ------------------------------------------------- */
/* CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED, bit-exact with TFLM's
 * reference kernels. Filters and biases arrive as tflc_const: raw ones are
 * read in place, compressed ones are decoded here a tile at a time (a
 * filter row or an output channel's taps when it fits, else smaller
 * pieces), never as a whole tensor. Every path accumulates the same terms
 * into the same int32 accumulator, so the results do not depend on the
 * path. Accumulators are summed as uint32 (the wrap-around TFLM's int32
 * sums have on every real target, without C's signed-overflow UB). */

TFLC_API void tflc_conv_quantize_multipliers(float in_scale,
                                             const float *filter_scales,
                                             int32_t n_scales, float out_scale,
                                             int32_t channels, int32_t *mult,
                                             int32_t *shift) {
  int32_t c;
  for (c = 0; c < channels; c++) {
    const float s = n_scales > 1 ? filter_scales[c] : filter_scales[0];
    const double eff = (double)in_scale * (double)s / (double)out_scale;
    tflc_quantize_multiplier(eff, &mult[c], &shift[c]);
  }
}

TFLC_API void tflc_fc_quantize_multiplier(float in_scale, float filter_scale,
                                          float out_scale, int32_t *mult,
                                          int32_t *shift) {
  /* the product is rounded to float first, as TFLM does */
  const float prod = in_scale * filter_scale;
  tflc_quantize_multiplier((double)prod / (double)out_scale, mult, shift);
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
static int8_t tflc__requant_s8(uint32_t acc, int32_t q, int32_t s,
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
static uint32_t tflc__conv_acc(const tflc__geom *g, const tflc__win *w,
                               const int8_t *in, const int8_t *row, int32_t fc,
                               int32_t in_off) {
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
static uint32_t tflc__conv_acc_tiled(const tflc__geom *g, const tflc__win *w,
                                     const int8_t *in, const tflc_const *f,
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

static void tflc__geom_init(tflc__geom *g, const tflc_conv_params *p,
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

/* stack tile used when the caller gives none (or a too small one) */
typedef union tflc__small_tile {
  int64_t align_;
  uint8_t b[64];
} tflc__small_tile;

TFLC_API void tflc_conv2d_s8(const tflc_conv_params *p,
                             const int32_t in_dims[4], const int8_t *in,
                             const int32_t filter_dims[4],
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

TFLC_API void
tflc_depthwise_conv2d_s8(const tflc_conv_params *p, const int32_t in_dims[4],
                         const int8_t *in, const int32_t filter_dims[4],
                         const tflc_const *filter, const tflc_const *bias,
                         const int32_t out_dims[4], int8_t *out, void *tile,
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

TFLC_API void tflc_fully_connected_s8(const tflc_fc_params *p, int32_t batches,
                                      int32_t accum_depth, int32_t out_depth,
                                      const int8_t *in,
                                      const tflc_const *filter,
                                      const tflc_const *bias, int8_t *out,
                                      void *tile, size_t tile_bytes) {
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

/* ---- pooling, softmax, element-wise, reductions, data movement ---------- */
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
static int32_t tflc__fp_exp_neg(int32_t a, int ibits) {
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
static int32_t tflc__fp_recip_1px(int32_t a) {
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
static int32_t tflc__fp_reciprocal(int32_t x, int ibits, int *bits_over_unit) {
  const int h = tflc__kop_clz32((uint32_t)x);
  const uint32_t norm = h >= 32 ? 0u : ((uint32_t)x << h);
  *bits_over_unit = ibits - h;
  return tflc__fp_recip_1px(tflc__kop_i32(norm - 0x80000000u));
}

/* TFLM CalculateInputRadius with 31 total bits, in double like TFLM. */
static int32_t tflc__fp_input_radius(int ibits, int left_shift) {
  const double r = 1.0 * (double)((1 << ibits) - 1) *
                   (double)((int64_t)1 << (31 - ibits)) /
                   ldexp(1.0, left_shift);
  const double f = floor(r);
  if (f >= 2147483647.0)
    return INT32_MAX;
  return (int32_t)f;
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

TFLC_API void tflc_softmax_prepare_s8(float beta, float in_scale,
                                      tflc_softmax_params *p) {
  /* TFLM PreprocessSoftmaxScaling with 5 integer bits for the scaled
   * difference (its CHECK requires the real multiplier to exceed 1). */
  double real = (double)beta * (double)in_scale * (double)(1 << 26);
  int32_t q, shift;
  if (real > 2147483647.0)
    real = 2147483647.0;
  tflc_quantize_multiplier(real, &q, &shift);
  p->input_multiplier = q;
  p->input_left_shift = shift;
  p->diff_min = (int32_t)(-1.0 * (double)tflc__fp_input_radius(5, shift));
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

TFLC_API void tflc_add_s8(const tflc_add_params *p, int32_t rank,
                          const int32_t *dims1, const int8_t *in1,
                          const int32_t *dims2, const int8_t *in2,
                          const int32_t *out_dims, int8_t *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
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

TFLC_API void tflc_pad(size_t elem_size, int32_t rank, const int32_t *in_dims,
                       const int32_t *before, const int32_t *after,
                       const void *pad_value, const void *in, void *out) {
  int32_t od[TFLC_MAX_DIMS], idx[TFLC_MAX_DIMS];
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  size_t rows = 1, row, j;
  int32_t k, last;
  if (rank <= 0) {
    memcpy(dst, src, elem_size);
    return;
  }
  last = rank - 1;
  for (k = 0; k < rank; ++k) {
    od[k] = before[k] + in_dims[k] + after[k];
    idx[k] = 0;
    if (k < last)
      rows *= (size_t)od[k];
  }
  /* one output row (last axis) at a time; src advances over input rows */
  for (row = 0; row < rows; ++row) {
    int inside = in_dims[last] > 0;
    size_t n_out = (size_t)od[last];
    for (k = 0; k < last; ++k) {
      if (idx[k] < before[k] || idx[k] >= before[k] + in_dims[k])
        inside = 0;
    }
    if (inside) {
      const size_t nb = (size_t)before[last], ni = (size_t)in_dims[last];
      for (j = 0; j < nb; ++j, dst += elem_size)
        memcpy(dst, pad_value, elem_size);
      memcpy(dst, src, ni * elem_size);
      dst += ni * elem_size;
      src += ni * elem_size;
      for (j = nb + ni; j < n_out; ++j, dst += elem_size)
        memcpy(dst, pad_value, elem_size);
    } else {
      for (j = 0; j < n_out; ++j, dst += elem_size)
        memcpy(dst, pad_value, elem_size);
    }
    for (k = last - 1; k >= 0; --k) {
      if (++idx[k] < od[k])
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
 * yields INT32_MIN (cvttss2si), the zero point add wraps. */
static int32_t tflc__quantize_one(float x, float scale, int32_t zp) {
  const float r = roundf(x / scale);
  int32_t v;
  if (r >= -2147483648.0f && r < 2147483648.0f)
    v = (int32_t)r;
  else
    v = INT32_MIN;
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

static void
tflc__depthwise_s16_f32(int f32, const tflc_conv_params *p, float fmin,
                        float fmax, const int32_t in_dims[4], const void *in,
                        const int32_t filter_dims[4], const tflc_const *filter,
                        const tflc_const *bias, const int32_t out_dims[4],
                        void *out, void *tile, size_t tile_bytes) {
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
            const size_t o =
                ((size_t)(n * g.oh + oy) * (size_t)g.ow + (size_t)ox) *
                    (size_t)oc_n +
                (size_t)oc;
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
              ((float *)out)[o] = tflc__clamp_f32(a.f + bf, fmin, fmax);
            else
              ((int16_t *)out)[o] = tflc__requant_s16(
                  a.i, bi, 1, p->out_multiplier[oc], p->out_shift[oc], 0,
                  p->act_min, p->act_max);
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
                          bias, out_dims, out, tile, tile_bytes);
}

TFLC_API void tflc_depthwise_conv2d_f32(
    const tflc_conv_params *p, float act_min, float act_max,
    const int32_t in_dims[4], const float *in, const int32_t filter_dims[4],
    const tflc_const *filter, const tflc_const *bias, const int32_t out_dims[4],
    float *out, void *tile, size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_FLOAT32);
  tflc__depthwise_s16_f32(1, p, act_min, act_max, in_dims, in, filter_dims,
                          filter, bias, out_dims, out, tile, tile_bytes);
}

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
  const int32_t round = shift > 0 ? (int32_t)1 << (shift - 1) : 0;
  const int32_t v = tflc__wrap32(
      (int64_t)((uint32_t)((uint64_t)((int64_t)x * mult) + (uint32_t)round)));
  return shift > 0 ? tflc__asr32(v, (int)(shift > 31 ? 31 : shift)) : v;
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
TFLC_API void tflc_copy_rows(int32_t rows, size_t row_bytes, const void *src,
                             size_t src_stride, void *dst, size_t dst_stride) {
  const unsigned char *s = (const unsigned char *)src;
  unsigned char *d = (unsigned char *)dst;
  int32_t r;
  if (row_bytes == 0)
    return;
  for (r = 0; r < rows; ++r, s += src_stride, d += dst_stride)
    memcpy(d, s, row_bytes);
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
  ptrdiff_t st[TFLC_MAX_DIMS], s = (ptrdiff_t)elem_size;
  int32_t idx[TFLC_MAX_DIMS], k, last = rank - 1, j;
  size_t rows = 1, row;
  if (rank <= 0) {
    memcpy(dst, src, elem_size);
    return;
  }
  for (k = last; k >= 0; --k) {
    st[k] = s;
    s *= (ptrdiff_t)in_dims[k];
    idx[k] = 0;
    if (count[k] <= 0)
      return;
    if (k < last)
      rows *= (size_t)count[k];
  }
  for (row = 0; row < rows; ++row) {
    ptrdiff_t off = (ptrdiff_t)start[last] * st[last];
    for (k = 0; k < last; ++k)
      off += ((ptrdiff_t)start[k] + (ptrdiff_t)idx[k] * stride[k]) * st[k];
    if (stride[last] == 1) {
      const size_t n = (size_t)count[last] * elem_size;
      memcpy(dst, src + off, n);
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
  if (stride > 0)
    *count = e > s ? (int32_t)(((int64_t)e - s + stride - 1) / stride) : 0;
  else
    *count =
        s > e ? (int32_t)(((int64_t)s - e - stride - 1) / -(int64_t)stride) : 0;
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

#endif /* TFLC_KERNELS_IMPLEMENTATION */

/* tflc.h - run TensorFlow Lite models, plain or LUT-compressed, in C99.
 *
 * What it is
 *   A header-only interpreter for .tflite models on microcontrollers and
 *   DSPs: a hand-written flatbuffer walker and verifier for the TFLite
 *   schema, the two LUT compression formats of TensorFlow Lite Micro
 *   (COMPRESSION_METADATA and the TFLM_DECODE operator), a memory planner
 *   and an interpreter whose outputs are bit-identical to TFLM's reference
 *   kernels. The model stays where it is (flash); everything else lives in
 *   one arena you provide. No malloc, no printf, no global state.
 *
 * Quick start
 *   #define TFLC_IMPLEMENTATION      // in exactly one .c file
 *   #include "tflc.h"                // tflc_kernels.h beside it
 *
 *   static uint8_t arena[64 * 1024] __attribute__((aligned(16)));
 *   tflc_model model;
 *   tflc_interpreter it;
 *   if (tflc_model_init(&model, model_bytes, model_size) != TFLC_OK)
 *     return fail(tflc_model_error(&model));
 *   if (tflc_interpreter_init(&it, &model, arena, sizeof arena, NULL))
 *     return fail(tflc_error(&it));
 *   memcpy(tflc_input(&it, 0)->data, features, tflc_input(&it, 0)->bytes);
 *   if (tflc_invoke(&it) != TFLC_OK) return fail(tflc_error(&it));
 *   const int8_t *scores = (const int8_t *)tflc_output(&it, 0)->data;
 *
 * Configuration macros (define before including, or in one header named
 * by TFLC_CONFIG_FILE, the way mbedTLS's MBEDTLS_CONFIG_FILE works:
 * -DTFLC_CONFIG_FILE='"tflc_config.h"'; `tflc ops MODEL --config -o
 * tflc_config.h` writes one for a model; the same file must reach every
 * unit that includes tflc.h)
 *   TFLC_IMPLEMENTATION     compile the implementation in this unit
 *   TFLC_STATIC             make every function static (unity builds)
 *   TFLC_NO_ERROR_STRINGS   compile error messages out (saves flash)
 *   TFLC_MAX_DIMS           largest tensor rank (default 6)
 *   TFLC_TILE_BYTES         decode tile for compressed constants (512)
 *   TFLC_MAX_NESTING        subgraphs running subgraphs (IF, WHILE,
 *                           CALL_ONCE): deepest nesting the verifier
 *                           accepts (8); invoke recurses that deep, each
 *                           level a few hundred bytes of stack
 *   TFLC_WHILE_MAX_ITERATIONS  a WHILE fails after this many iterations
 *                           (0, the default: no bound, as TFLM; fuzzing
 *                           and tests of damaged models set one)
 *   TFLC_OPS(X)             the operators to compile, e.g.
 *                             #define TFLC_OPS(X) X(CONV_2D) X(SOFTMAX)
 *                           (`tflc ops MODEL` prints the line a model
 *                           needs); all when undefined. Operators left out
 *                           cost no flash with -ffunction-sections
 *                           -Wl,--gc-sections and are refused at init
 *                           ("op 3 MEAN: not compiled in"; with
 *                           TFLC_NO_ERROR_STRINGS a custom one left out
 *                           reads as an unknown custom operator).
 *   TFLC_NO_FLOAT32         compile the operators' float32 paths out
 *   TFLC_NO_INT16           compile the operators' int16 paths out
 *   TFLC_INT8_ONLY          both: int8 kernels only, as TFLM's int8-only
 *                           registrations. An operator with a tensor of a
 *                           type left out among its inputs or outputs is
 *                           refused at init ("op 3 SOFTMAX: float32 tensor
 *                           7 not compiled in (TFLC_NO_FLOAT32)"); with
 *                           TFLC_OPS the float32 / int16 kernels of the
 *                           operators kept cost no flash. Operators whose
 *                           int8 form has int16 tensors (int8 SVDF and
 *                           LSTM states, SOFTMAX to int16, Signal*) need
 *                           TFLC_NO_FLOAT32 alone.
 *   Firmware for one kind of model can leave out more (defaults: all in;
 *   a model or option needing what was left out is refused at init with
 *   TFLC_ERR_UNSUPPORTED):
 *   TFLC_NO_COMPRESSION     plain constants only: the LUT, Huffman, Prune
 *                           and INT4 decoders are left out; tflc_model_init
 *                           refuses COMPRESSION_METADATA, TFLM_DECODE
 *                           operators and INT4 tensors
 *   TFLC_NO_SUBGRAPHS       one subgraph: tflc_model_init refuses models
 *                           with more, and IF / WHILE / CALL_ONCE
 *   TFLC_NO_DELEGATES       no delegates (tflc_options.delegates)
 *   TFLC_NO_USER_OPS        no user operators (tflc_options.user_ops)
 *                           (with TFLC_OPS and TFLC_NO_DELEGATES too, only
 *                           the selected operators' rows of the operator
 *                           table are linked: an operator left out gets
 *                           its options unchecked by tflc_model_init and
 *                           is refused by tflc_interpreter_init)
 *   TFLC_NO_PATCHES         one plan, the fastest: no memory-saving plans
 *                           (tflc_options.plan is ignored; no depthwise
 *                           layers written over their input; no tiles for
 *                           the small depthwise maps' padded copies); an
 *                           arena below the fastest plan's fails
 *   Kernel paths a model's layers do not take (nothing refused: a layer
 *   that needs one runs a slower path with the same results; tflc_kernels.h
 *   says which): TFLC_NO_CONV_WINDOWS, TFLC_NO_DW_ANY_FILTER
 *   TFLC_NO_SIZE_GLUE       gcc: compile this header's code (reader,
 *                           verifier, planner, init, operator glue) and
 *                           the kernels' once-per-operator helpers and
 *                           rare fallbacks (the direct convolution) at the
 *                           build's level instead of for size (the other
 *                           kernels always keep the build's level)
 *   (The host-side model writer and compression stage, tflc_compress and
 *   tflc_bin, are in tflc_write.h beside this file.)
 *
 * API in one screen
 *   tflc_model_init(&m, bytes, size)      verify once; zero-copy view
 *   tflc_interpreter_init(&it, &m, arena, size, opt)   plan + prepare
 *   tflc_input(&it, i), tflc_output(&it, i)            tensors
 *   tflc_invoke(&it)                       run every operator
 *   tflc_reset(&it)                        variables back to their start
 *   tflc_error(&it), tflc_model_error(&m)  "op 7 CONV_2D: ..." messages
 *   tflc_error_op(&it, &sg)               the failing operator (also with
 *                                          TFLC_NO_ERROR_STRINGS)
 *   tflc_arena_used(&it)                   bytes of arena really needed
 *   tflc_status_str(status)
 *
 * Contents (sections in the order the data flows; search for the titles)
 *   1. Configuration          macros above, defaults in tflc_kernels.h
 *   2. API                    model, tensors, the operator table
 *                             (TFLC_OPERATORS) and opcodes, user operators,
 *                             delegates, options, interpreter, functions
 *   -- implementation (TFLC_IMPLEMENTATION) --
 *   3. Messages               the formatter behind every error text
 *   4. Flatbuffer reader      bounds-checked accessors; the flexbuffer
 *                             reader (custom operators' options)
 *   5. Model view             schema slots, typed builtin-options readers,
 *                             operator codes, tensors
 *   6. Compression descriptors  both LUT formats
 *   7. Verifier               everything, once, at tflc_model_init
 *   8. Interpreter records    arena, operator records, operator context
 *   9. Planner                tensor lifetimes, greedy first-fit
 *  10. Interpreter            init and invoke
 *  11. Operators              what is compiled in (TFLC_OPS, types);
 *                             convolution family; pooling, softmax and
 *                             element-wise; data movement; quantization,
 *                             decode, variables, subgraphs; TFLM's Signal*
 *                             custom operators (audio front end, FFTs)
 *  12. Operator table         the array, dispatch, the types check, the
 *                             context accessors of user operators
 *  13. Delegates              claims, partitions, their records and context
 *
 * License: MIT (see LICENSE).
 */
/* the build's configuration file first (see tflc_kernels.h) */
#if defined(TFLC_CONFIG_FILE) && !defined(TFLC__CONFIG_FILE_DONE)
#define TFLC__CONFIG_FILE_DONE
#include TFLC_CONFIG_FILE
#endif
#ifndef TFLC_H
#define TFLC_H

/* Version of this library: TFLC_VERSION is the text ("0.1.0"),
 * TFLC_VERSION_NUMBER major * 10000 + minor * 100 + patch, for #if. */
#define TFLC_VERSION_MAJOR 0
#define TFLC_VERSION_MINOR 1
#define TFLC_VERSION_PATCH 0
#define TFLC_VERSION "0.1.0"
#define TFLC_VERSION_NUMBER                                                    \
  (TFLC_VERSION_MAJOR * 10000 + TFLC_VERSION_MINOR * 100 + TFLC_VERSION_PATCH)

#include "tflc_kernels.h"

#ifndef TFLC_ERROR_LEN
#define TFLC_ERROR_LEN 128
#endif
#ifndef TFLC_MAX_IO
#define TFLC_MAX_IO 16
#endif
#ifndef TFLC_WHILE_MAX_ITERATIONS
#define TFLC_WHILE_MAX_ITERATIONS 0
#endif
#ifndef TFLC_MAX_NESTING
#define TFLC_MAX_NESTING 8
#endif
/* The features above as 0 / 1 (TFLC__COMPRESSION is in tflc_kernels.h),
 * tested with `if` so that every build compiles all of the code and the
 * optimizer drops what is left out. */
#ifdef TFLC_NO_SUBGRAPHS
#define TFLC__SUBGRAPHS 0
#else
#define TFLC__SUBGRAPHS 1
#endif
#ifdef TFLC_NO_DELEGATES
#define TFLC__DELEGATES 0
#else
#define TFLC__DELEGATES 1
#endif
#ifdef TFLC_NO_USER_OPS
#define TFLC__USER_OPS 0
#else
#define TFLC__USER_OPS 1
#endif
#ifdef TFLC_NO_PATCHES
#define TFLC__PATCHES 0
#else
#define TFLC__PATCHES 1
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- model -------------------------------------------------------------- */
/* A verified, zero-copy view of a .tflite flatbuffer. Fields read-only. */
typedef struct tflc_model {
  const uint8_t *bytes;
  size_t size;
  uint32_t root;      /* Model table */
  uint32_t opcodes;   /* first element of Model.operator_codes */
  uint32_t subgraphs; /* first element of Model.subgraphs */
  uint32_t buffers;   /* first element of Model.buffers */
  uint32_t comp_meta; /* COMPRESSION_METADATA root table (absolute), 0 */
  uint32_t comp_size; /* end of the nested metadata flatbuffer */
  uint32_t comp_base; /* start of the nested metadata flatbuffer */
  int32_t num_opcodes;
  int32_t num_subgraphs;
  int32_t num_buffers;
  int32_t num_lut_tensors; /* tensors compressed, both formats */
  int32_t verified;        /* 1 once tflc_model_init succeeded */
  char error[TFLC_ERROR_LEN];
} tflc_model;

/* ---- tensors ------------------------------------------------------------ */
enum {
  TFLC_TENSOR_CONST = 1,    /* data points into the model */
  TFLC_TENSOR_VARIABLE = 2, /* persistent across invokes */
  TFLC_TENSOR_LUT = 4,      /* compressed constant: see `lut` */
  TFLC_TENSOR_VIRTUAL = 8,  /* decoded inside its consumers, or kept by a
                               delegate (see delegates); no data */
  TFLC_TENSOR_DECODED = 16, /* output of a TFLM_DECODE operator */
  TFLC_TENSOR_EXTERN = 32,  /* data in an alternate decompression region */
  /* reserved: the planner's own bits (64, 128); also gives the enum the
     range of a byte, which C++ on Arm's short enums checks */
  TFLC__TENSOR_PLANNER = 192
};
/* A tensor as the interpreter holds it. When flags has TFLC_TENSOR_LUT
 * the tensor is a compressed constant: `data` then points at its LUT
 * tflc_const descriptor (the fields up to data_bytes), or for a Huffman or
 * Prune TFLM_DECODE output at its two int32 input indices (encoded,
 * ancillary) in the model; never at elements. An INT4 tensor (a constant
 * filter) holds its packed bytes, `bytes` = ceil(n / 2). */
typedef struct tflc_tensor {
  void *data; /* elements; for TFLC_TENSOR_LUT its tflc_const descriptor */
  int32_t dims[TFLC_MAX_DIMS];
  uint32_t bytes;     /* element count * element size */
  float scale;        /* first scale (0 when not quantized) */
  int16_t zero_point; /* first zero point (int8/int16/uint8 range) */
  uint16_t index;     /* tensor index in the model's subgraph */
  uint8_t rank;
  uint8_t type;    /* tflc_type */
  uint8_t flags;   /* TFLC_TENSOR_* */
  uint8_t nscales; /* number of scales, saturated at 255 */
} tflc_tensor;

/* ---- operators ---------------------------------------------------------- */
/* The operator table: everything tflc knows about an operator, one row
 * each, in schema order. Custom operators take codes from 256. Every
 * rule about an operator is a column or a flag of its row: nothing
 * elsewhere tests operator codes to decide what an operator may do.
 *
 *   X(NAME, code, options, inplace, facts, prepare, invoke, reset)
 *     An operator tflc runs. `options`: the BuiltinOptions table the
 *     verifier expects, by name (TFLC__OPTIONS_<options>; NONE: not
 *     checked); the padding and fused-activation fields it range-checks
 *     follow from the table (TFLC__PADDING_SLOT, TFLC__ACTIVATION_SLOT).
 *     `inplace`: the inputs its kernel reads compressed, tile by tile
 *     (TFLC_INPUTS); the others are decoded whole before it runs. `facts`:
 *     what `tflc check` verifies (one TFLC_CHECK_*) and the operator's
 *     flags (TFLC_OPF_*). `prepare` / `invoke`: its functions in the
 *     implementation; `reset`: the function that puts back the state it
 *     keeps outside tensors (tflc_reset), or 0.
 *   N(NAME, code, facts)
 *     A builtin operator tflc knows by name only (refused at init).
 *
 * From it come the opcode enum below, tflc_opcode_name, tflc_op_info,
 * the verifier's options checks, dispatch, TFLC_OPS selection, reset,
 * which inputs are decoded whole or in place, the compressor's rules and
 * `tflc check`. Adding an operator: turn its N row into an X row, write
 * its functions and its kernel, and test them (docs/adding_an_operator.md). */
#define TFLC_INPUTS(k) (1u << (k)) /* input k in an `inplace` mask */
#define TFLC_INPUTS_ALL 0xFFFFu

/* `facts`: one TFLC_CHECK_* kind (what `tflc check` verifies of the
 * quantization), plus TFLC_OPF_* flags. */
enum {
  TFLC_CHECK_NONE = 0,
  TFLC_CHECK_CONV,            /* weights 1 per channel on axis 0, bias 2 */
  TFLC_CHECK_DEPTHWISE,       /* weights 1 per channel on axis 3, bias 2 */
  TFLC_CHECK_FC,              /* weights 1 per tensor, bias 2 */
  TFLC_CHECK_TRANSPOSE_CONV,  /* weights 1 on axis 0, data 2, bias 3 */
  TFLC_CHECK_OUT_SIGMOID,     /* int8 output scale 1/256, zero point -128 */
  TFLC_CHECK_OUT_TANH,        /* int8 output scale 1/128, zero point 0 */
  TFLC_CHECK_OUT_LOG_SOFTMAX, /* int8 output scale 16/256, zero point 127 */
  TFLC_CHECK_SAME_IN0,        /* input 0 and output 0 quantized alike */
  TFLC_CHECK_SAME_IN0_IN2,    /* inputs 0 and 2 and output 0 alike */
  TFLC_CHECK_SAME_ALL,        /* every input and output 0 alike */
  TFLC_CHECK_MASK = 15,
  TFLC_OPF_SUBGRAPHS = 16, /* hands tensors to other subgraphs */
  /* how the kernel reads its filter (input 1), which decides whether a
   * Huffman / Prune filter is decoded in place, in stream order, or
   * whole first (every other `inplace` input is read front to back):
   * ROWS, a [out, h, w, in] filter read one output channel's row at a
   * time (in place when a row fits the decode tile); MATRIX, a [out, in]
   * matrix read row by row (in place when a row fits or there is one
   * batch); SPREAD, a filter whose channels are spread over the whole
   * tensor (always whole). The filter is also what `tflc bin` bins. */
  TFLC_OPF_FILTER_ROWS = 32,
  TFLC_OPF_FILTER_MATRIX = 64,
  TFLC_OPF_FILTER_SPREAD = 96,
  TFLC_OPF_FILTER_MASK = 96,
  TFLC_OPF_INT4_FILTER = 128, /* takes a constant packed INT4 filter */
  /* its bias (input 2), read once per output channel beside a filter read
   * compressed, is read at every pixel beside a plain one: then a Huffman /
   * Prune bias is decoded whole */
  TFLC_OPF_BIAS_BESIDE_FILTER = 256,
  /* its constant weights and bias (inputs 1, 2) need no tensor record
   * (TFLC__NO_RECORD) unless input 0 is int16 */
  TFLC_OPF_NO_RECORD = 512,
  /* TFLM's kernel decompresses its `inplace` inputs too: the compressor
   * compresses them in TFLM-compatible models */
  TFLC_OPF_TFLM_DECODES = 1024,
  /* its inputs other than the data (input 0; SPLIT: input 1) are read
   * only by its prepare: raw constants there need no tensor record */
  TFLC_OPF_PARAMS_AT_PREPARE = 2048
};

/* clang-format off */
#define TFLC_OPERATORS(X, N) \
  X(ADD, 0, ADD, 0, 0, tflc__add_any_prepare, tflc__add_any_invoke, 0) \
  X(AVERAGE_POOL_2D, 1, POOL2D, 0, TFLC_CHECK_SAME_IN0, tflc__pool_any_prepare, tflc__pool_any_invoke, 0) \
  X(CONCATENATION, 2, CONCATENATION, TFLC_INPUTS_ALL, TFLC_CHECK_SAME_ALL | TFLC_OPF_TFLM_DECODES, tflc__concat_prepare, tflc__concat_invoke, 0) \
  X(CONV_2D, 3, CONV2D, TFLC_INPUTS(1) | TFLC_INPUTS(2), TFLC_CHECK_CONV | TFLC_OPF_FILTER_ROWS | TFLC_OPF_INT4_FILTER | TFLC_OPF_BIAS_BESIDE_FILTER | TFLC_OPF_TFLM_DECODES, tflc__conv_prepare, tflc__conv_invoke, 0) \
  X(DEPTHWISE_CONV_2D, 4, DEPTHWISE_CONV2D, TFLC_INPUTS(1) | TFLC_INPUTS(2), TFLC_CHECK_DEPTHWISE | TFLC_OPF_FILTER_SPREAD | TFLC_OPF_INT4_FILTER | TFLC_OPF_BIAS_BESIDE_FILTER | TFLC_OPF_TFLM_DECODES, tflc__conv_prepare, tflc__conv_invoke, 0) \
  X(DEPTH_TO_SPACE, 5, NONE, 0, 0, tflc__space_depth_prepare, tflc__space_depth_invoke, 0) \
  X(DEQUANTIZE, 6, DEQUANTIZE, 0, 0, tflc__quantize_prepare, tflc__quantize_invoke, 0) \
  X(EMBEDDING_LOOKUP, 7, NONE, 0, 0, tflc__embedding_lookup_prepare, tflc__embedding_lookup_invoke, 0) \
  X(FLOOR, 8, NONE, 0, 0, tflc__math_prepare, tflc__math_invoke, 0) \
  X(FULLY_CONNECTED, 9, FULLY_CONNECTED, TFLC_INPUTS(1) | TFLC_INPUTS(2), TFLC_CHECK_FC | TFLC_OPF_FILTER_MATRIX | TFLC_OPF_INT4_FILTER | TFLC_OPF_NO_RECORD | TFLC_OPF_TFLM_DECODES, tflc__fully_connected_prepare, tflc__fully_connected_invoke, 0) \
  N(HASHTABLE_LOOKUP, 10, 0) \
  X(L2_NORMALIZATION, 11, L2NORM, 0, TFLC_CHECK_OUT_TANH, tflc__l2norm_prepare, tflc__elementwise_invoke, 0) \
  X(L2_POOL_2D, 12, POOL2D, 0, 0, tflc__pool_any_prepare, tflc__pool_any_invoke, 0) \
  N(LOCAL_RESPONSE_NORMALIZATION, 13, 0) \
  X(LOGISTIC, 14, NONE, 0, TFLC_CHECK_OUT_SIGMOID, tflc__sigmoid_any_prepare, tflc__sigmoid_any_invoke, 0) \
  N(LSH_PROJECTION, 15, 0) \
  N(LSTM, 16, 0) \
  X(MAX_POOL_2D, 17, POOL2D, 0, TFLC_CHECK_SAME_IN0, tflc__pool_any_prepare, tflc__pool_any_invoke, 0) \
  X(MUL, 18, MUL, 0, 0, tflc__mul_sub_any_prepare, tflc__mul_sub_any_invoke, 0) \
  X(RELU, 19, NONE, 0, 0, tflc__relu_prepare, tflc__elementwise_invoke, 0) \
  N(RELU_N1_TO_1, 20, 0) \
  X(RELU6, 21, NONE, 0, 0, tflc__relu_prepare, tflc__elementwise_invoke, 0) \
  X(RESHAPE, 22, RESHAPE, 0, TFLC_CHECK_SAME_IN0 | TFLC_OPF_PARAMS_AT_PREPARE, tflc__reshape_prepare, tflc__reshape_invoke, 0) \
  X(RESIZE_BILINEAR, 23, RESIZE_BILINEAR, 0, TFLC_CHECK_SAME_IN0 | TFLC_OPF_PARAMS_AT_PREPARE, tflc__resize_prepare, tflc__resize_invoke, 0) \
  N(RNN, 24, 0) \
  X(SOFTMAX, 25, SOFTMAX, 0, TFLC_CHECK_OUT_SIGMOID, tflc__softmax_any_prepare, tflc__softmax_any_invoke, 0) \
  X(SPACE_TO_DEPTH, 26, SPACE_TO_DEPTH, 0, TFLC_CHECK_SAME_IN0, tflc__space_depth_prepare, tflc__space_depth_invoke, 0) \
  X(SVDF, 27, NONE, 0, 0, tflc__svdf_prepare, tflc__svdf_invoke, 0) \
  X(TANH, 28, NONE, 0, TFLC_CHECK_OUT_TANH, tflc__sigmoid_any_prepare, tflc__sigmoid_any_invoke, 0) \
  N(CONCAT_EMBEDDINGS, 29, 0) \
  N(SKIP_GRAM, 30, 0) \
  N(CALL, 31, TFLC_OPF_SUBGRAPHS) \
  N(CUSTOM, 32, 0) \
  N(EMBEDDING_LOOKUP_SPARSE, 33, 0) \
  X(PAD, 34, PAD, 0, TFLC_CHECK_SAME_IN0, tflc__pad_prepare, tflc__pad_invoke, 0) \
  N(UNIDIRECTIONAL_SEQUENCE_RNN, 35, 0) \
  X(GATHER, 36, GATHER, 0, TFLC_CHECK_SAME_IN0, tflc__gather_prepare, tflc__gather_invoke, 0) \
  X(BATCH_TO_SPACE_ND, 37, BATCH_TO_SPACE_ND, 0, TFLC_CHECK_SAME_IN0, tflc__batch_space_prepare, tflc__batch_space_invoke, 0) \
  X(SPACE_TO_BATCH_ND, 38, SPACE_TO_BATCH_ND, 0, TFLC_CHECK_SAME_IN0, tflc__batch_space_prepare, tflc__batch_space_invoke, 0) \
  X(TRANSPOSE, 39, TRANSPOSE, 0, TFLC_CHECK_SAME_IN0 | TFLC_OPF_PARAMS_AT_PREPARE, tflc__transpose_prepare, tflc__transpose_invoke, 0) \
  X(MEAN, 40, REDUCER, 0, TFLC_OPF_PARAMS_AT_PREPARE, tflc__reduce_prepare, tflc__reduce_invoke, 0) \
  X(SUB, 41, SUB, 0, 0, tflc__mul_sub_any_prepare, tflc__mul_sub_any_invoke, 0) \
  X(DIV, 42, DIV, 0, 0, tflc__arith_prepare, tflc__arith_invoke, 0) \
  X(SQUEEZE, 43, SQUEEZE, 0, TFLC_CHECK_SAME_IN0, tflc__squeeze_prepare, tflc__copy_invoke, 0) \
  X(UNIDIRECTIONAL_SEQUENCE_LSTM, 44, NONE, 0, 0, tflc__lstm_prepare, tflc__lstm_invoke, 0) \
  X(STRIDED_SLICE, 45, STRIDED_SLICE, 0, TFLC_OPF_PARAMS_AT_PREPARE, tflc__strided_slice_prepare, tflc__slice_invoke, 0) \
  N(BIDIRECTIONAL_SEQUENCE_RNN, 46, 0) \
  X(EXP, 47, EXP, 0, 0, tflc__math_prepare, tflc__math_invoke, 0) \
  N(TOPK_V2, 48, 0) \
  X(SPLIT, 49, NONE, 0, TFLC_OPF_PARAMS_AT_PREPARE, tflc__split_prepare, tflc__split_invoke, 0) \
  X(LOG_SOFTMAX, 50, LOG_SOFTMAX, 0, TFLC_CHECK_OUT_LOG_SOFTMAX, tflc__log_softmax_prepare, tflc__elementwise_invoke, 0) \
  N(DELEGATE, 51, 0) \
  N(BIDIRECTIONAL_SEQUENCE_LSTM, 52, 0) \
  X(CAST, 53, CAST, 0, 0, tflc__cast_prepare, tflc__cast_invoke, 0) \
  X(PRELU, 54, NONE, 0, 0, tflc__prelu_prepare, tflc__elementwise_invoke, 0) \
  X(MAXIMUM, 55, MAXIMUM_MINIMUM, 0, TFLC_CHECK_SAME_ALL, tflc__maxmin_prepare, tflc__elementwise_invoke, 0) \
  X(ARG_MAX, 56, ARG_MAX, 0, 0, tflc__arg_minmax_prepare, tflc__elementwise_invoke, 0) \
  X(MINIMUM, 57, MAXIMUM_MINIMUM, 0, TFLC_CHECK_SAME_ALL, tflc__maxmin_prepare, tflc__elementwise_invoke, 0) \
  X(LESS, 58, LESS, 0, 0, tflc__compare_prepare, tflc__elementwise_invoke, 0) \
  X(NEG, 59, NEG, 0, 0, tflc__math_prepare, tflc__math_invoke, 0) \
  X(PADV2, 60, PADV2, 0, TFLC_CHECK_SAME_IN0_IN2, tflc__padv2_prepare, tflc__padv2_invoke, 0) \
  X(GREATER, 61, GREATER, 0, 0, tflc__compare_prepare, tflc__elementwise_invoke, 0) \
  X(GREATER_EQUAL, 62, GREATER_EQUAL, 0, 0, tflc__compare_prepare, tflc__elementwise_invoke, 0) \
  X(LESS_EQUAL, 63, LESS_EQUAL, 0, 0, tflc__compare_prepare, tflc__elementwise_invoke, 0) \
  N(SELECT, 64, 0) \
  X(SLICE, 65, SLICE, 0, TFLC_CHECK_SAME_IN0, tflc__slice_prepare, tflc__slice_invoke, 0) \
  X(SIN, 66, NONE, 0, 0, tflc__math_prepare, tflc__math_invoke, 0) \
  X(TRANSPOSE_CONV, 67, TRANSPOSE_CONV, TFLC_INPUTS(1) | TFLC_INPUTS(3), TFLC_CHECK_TRANSPOSE_CONV | TFLC_OPF_FILTER_ROWS | TFLC_OPF_TFLM_DECODES, tflc__transpose_conv_prepare, tflc__conv_wide_invoke, 0) \
  N(SPARSE_TO_DENSE, 68, 0) \
  N(TILE, 69, 0) \
  X(EXPAND_DIMS, 70, NONE, 0, TFLC_OPF_PARAMS_AT_PREPARE, tflc__expand_dims_prepare, tflc__copy_invoke, 0) \
  X(EQUAL, 71, EQUAL, 0, 0, tflc__compare_prepare, tflc__elementwise_invoke, 0) \
  X(NOT_EQUAL, 72, NOT_EQUAL, 0, 0, tflc__compare_prepare, tflc__elementwise_invoke, 0) \
  X(LOG, 73, NONE, 0, 0, tflc__math_prepare, tflc__math_invoke, 0) \
  X(SUM, 74, REDUCER, 0, 0, tflc__sum_prepare, tflc__elementwise_invoke, 0) \
  X(SQRT, 75, NONE, 0, 0, tflc__math_prepare, tflc__math_invoke, 0) \
  X(RSQRT, 76, NONE, 0, 0, tflc__math_prepare, tflc__math_invoke, 0) \
  X(SHAPE, 77, SHAPE, 0, 0, tflc__shape_prepare, tflc__shape_invoke, 0) \
  N(POW, 78, 0) \
  X(ARG_MIN, 79, NONE, 0, 0, tflc__arg_minmax_prepare, tflc__elementwise_invoke, 0) \
  N(FAKE_QUANT, 80, 0) \
  N(REDUCE_PROD, 81, 0) \
  X(REDUCE_MAX, 82, REDUCER, 0, TFLC_OPF_PARAMS_AT_PREPARE, tflc__reduce_prepare, tflc__reduce_invoke, 0) \
  X(PACK, 83, NONE, 0, 0, tflc__concat_prepare, tflc__concat_invoke, 0) \
  X(LOGICAL_OR, 84, LOGICAL_OR, 0, 0, tflc__logical_prepare, tflc__logical_invoke, 0) \
  N(ONE_HOT, 85, 0) \
  X(LOGICAL_AND, 86, LOGICAL_AND, 0, 0, tflc__logical_prepare, tflc__logical_invoke, 0) \
  X(LOGICAL_NOT, 87, LOGICAL_NOT, 0, 0, tflc__math_prepare, tflc__math_invoke, 0) \
  X(UNPACK, 88, NONE, 0, 0, tflc__split_prepare, tflc__split_invoke, 0) \
  X(REDUCE_MIN, 89, REDUCER, 0, 0, tflc__reduce_prepare, tflc__reduce_invoke, 0) \
  X(FLOOR_DIV, 90, FLOOR_DIV, 0, 0, tflc__arith_prepare, tflc__floor_div_invoke, 0) \
  N(REDUCE_ANY, 91, 0) \
  X(SQUARE, 92, SQUARE, 0, 0, tflc__math_prepare, tflc__math_invoke, 0) \
  X(ZEROS_LIKE, 93, NONE, 0, 0, tflc__zeros_like_prepare, tflc__zeros_like_invoke, 0) \
  X(FILL, 94, FILL, 0, 0, tflc__fill_prepare, tflc__fill_invoke, 0) \
  X(FLOOR_MOD, 95, FLOOR_MOD, 0, 0, tflc__arith_prepare, tflc__arith_invoke, 0) \
  N(RANGE, 96, 0) \
  X(RESIZE_NEAREST_NEIGHBOR, 97, NONE, 0, TFLC_OPF_PARAMS_AT_PREPARE, tflc__resize_prepare, tflc__resize_invoke, 0) \
  X(LEAKY_RELU, 98, LEAKY_RELU, 0, 0, tflc__leaky_relu_prepare, tflc__elementwise_invoke, 0) \
  X(SQUARED_DIFFERENCE, 99, SQUARED_DIFFERENCE, 0, 0, tflc__arith_prepare, tflc__arith_invoke, 0) \
  X(MIRROR_PAD, 100, MIRROR_PAD, 0, TFLC_CHECK_SAME_IN0, tflc__mirror_pad_prepare, tflc__mirror_pad_invoke, 0) \
  X(ABS, 101, ABS, 0, 0, tflc__math_prepare, tflc__math_invoke, 0) \
  X(SPLIT_V, 102, NONE, 0, TFLC_OPF_PARAMS_AT_PREPARE, tflc__split_prepare, tflc__split_invoke, 0) \
  N(UNIQUE, 103, 0) \
  X(CEIL, 104, NONE, 0, 0, tflc__math_prepare, tflc__math_invoke, 0) \
  X(REVERSE_V2, 105, REVERSE_V2, 0, TFLC_CHECK_SAME_IN0, tflc__reverse_prepare, tflc__reverse_invoke, 0) \
  X(ADD_N, 106, ADD_N, 0, 0, tflc__add_n_prepare, tflc__add_n_invoke, 0) \
  X(GATHER_ND, 107, GATHER_ND, 0, TFLC_CHECK_SAME_IN0, tflc__gather_nd_prepare, tflc__gather_nd_invoke, 0) \
  X(COS, 108, COS, 0, 0, tflc__math_prepare, tflc__math_invoke, 0) \
  N(WHERE, 109, 0) \
  N(RANK, 110, 0) \
  X(ELU, 111, NONE, 0, 0, tflc__math_prepare, tflc__math_invoke, 0) \
  N(REVERSE_SEQUENCE, 112, 0) \
  N(MATRIX_DIAG, 113, 0) \
  X(QUANTIZE, 114, QUANTIZE, 0, 0, tflc__quantize_prepare, tflc__quantize_invoke, 0) \
  N(MATRIX_SET_DIAG, 115, 0) \
  X(ROUND, 116, NONE, 0, 0, tflc__math_prepare, tflc__math_invoke, 0) \
  X(HARD_SWISH, 117, HARD_SWISH, 0, 0, tflc__hard_swish_prepare, tflc__elementwise_invoke, 0) \
  X(IF, 118, IF, 0, TFLC_OPF_SUBGRAPHS, tflc__if_prepare, tflc__if_invoke, 0) \
  X(WHILE, 119, WHILE, 0, TFLC_OPF_SUBGRAPHS, tflc__while_prepare, tflc__while_invoke, 0) \
  N(NON_MAX_SUPPRESSION_V4, 120, 0) \
  N(NON_MAX_SUPPRESSION_V5, 121, 0) \
  N(SCATTER_ND, 122, 0) \
  X(SELECT_V2, 123, SELECT_V2, 0, 0, tflc__select_prepare, tflc__select_invoke, 0) \
  N(DENSIFY, 124, 0) \
  N(SEGMENT_SUM, 125, 0) \
  X(BATCH_MATMUL, 126, BATCH_MATMUL, 0, 0, tflc__batch_matmul_prepare, tflc__batch_matmul_invoke, 0) \
  N(PLACEHOLDER_FOR_GREATER_OP_CODES, 127, 0) \
  X(CUMSUM, 128, CUMSUM, 0, 0, tflc__cumsum_prepare, tflc__cumsum_invoke, 0) \
  X(CALL_ONCE, 129, CALL_ONCE, 0, TFLC_OPF_SUBGRAPHS, tflc__call_once_prepare, tflc__call_once_invoke, 0) \
  X(BROADCAST_TO, 130, BROADCAST_TO, 0, TFLC_CHECK_SAME_IN0, tflc__broadcast_to_prepare, tflc__broadcast_to_invoke, 0) \
  N(RFFT2D, 131, 0) \
  N(CONV_3D, 132, 0) \
  N(HASHTABLE, 136, 0) \
  N(HASHTABLE_FIND, 137, 0) \
  N(HASHTABLE_IMPORT, 138, 0) \
  N(HASHTABLE_SIZE, 139, 0) \
  X(REDUCE_ALL, 140, REDUCER, 0, 0, tflc__reduce_prepare, tflc__reduce_invoke, 0) \
  N(CONV_3D_TRANSPOSE, 141, 0) \
  X(VAR_HANDLE, 142, VAR_HANDLE, 0, 0, tflc__var_handle_prepare, tflc__nothing_invoke, 0) \
  X(READ_VARIABLE, 143, READ_VARIABLE, 0, 0, tflc__read_variable_prepare, tflc__read_variable_invoke, 0) \
  X(ASSIGN_VARIABLE, 144, ASSIGN_VARIABLE, TFLC_INPUTS(1), TFLC_OPF_TFLM_DECODES, tflc__assign_variable_prepare, tflc__assign_variable_invoke, 0) \
  X(BROADCAST_ARGS, 145, NONE, 0, 0, tflc__broadcast_args_prepare, tflc__broadcast_args_invoke, 0) \
  N(RANDOM_STANDARD_NORMAL, 146, 0) \
  N(BUCKETIZE, 147, 0) \
  N(RANDOM_UNIFORM, 148, 0) \
  N(MULTINOMIAL, 149, 0) \
  N(GELU, 150, 0) \
  X(DYNAMIC_UPDATE_SLICE, 151, DYNAMIC_UPDATE_SLICE, 0, 0, tflc__dynamic_update_slice_prepare, tflc__dynamic_update_slice_invoke, 0) \
  N(RELU_0_TO_1, 152, 0) \
  N(UNSORTED_SEGMENT_PROD, 153, 0) \
  N(UNSORTED_SEGMENT_MAX, 154, 0) \
  N(UNSORTED_SEGMENT_SUM, 155, 0) \
  N(ATAN2, 156, 0) \
  N(UNSORTED_SEGMENT_MIN, 157, 0) \
  N(SIGN, 158, 0) \
  N(BITCAST, 159, 0) \
  N(BITWISE_XOR, 160, 0) \
  N(RIGHT_SHIFT, 161, 0) \
  N(STABLEHLO_LOGISTIC, 162, 0) \
  N(STABLEHLO_ADD, 163, 0) \
  N(STABLEHLO_DIVIDE, 164, 0) \
  N(STABLEHLO_MULTIPLY, 165, 0) \
  N(STABLEHLO_MAXIMUM, 166, 0) \
  N(STABLEHLO_RESHAPE, 167, 0) \
  N(STABLEHLO_CLAMP, 168, 0) \
  N(STABLEHLO_CONCATENATE, 169, 0) \
  N(STABLEHLO_BROADCAST_IN_DIM, 170, 0) \
  N(STABLEHLO_CONVOLUTION, 171, 0) \
  N(STABLEHLO_SLICE, 172, 0) \
  N(STABLEHLO_CUSTOM_CALL, 173, 0) \
  N(STABLEHLO_REDUCE, 174, 0) \
  N(STABLEHLO_ABS, 175, 0) \
  N(STABLEHLO_AND, 176, 0) \
  N(STABLEHLO_COSINE, 177, 0) \
  N(STABLEHLO_EXPONENTIAL, 178, 0) \
  N(STABLEHLO_FLOOR, 179, 0) \
  N(STABLEHLO_LOG, 180, 0) \
  N(STABLEHLO_MINIMUM, 181, 0) \
  N(STABLEHLO_NEGATE, 182, 0) \
  N(STABLEHLO_OR, 183, 0) \
  N(STABLEHLO_POWER, 184, 0) \
  N(STABLEHLO_REMAINDER, 185, 0) \
  N(STABLEHLO_RSQRT, 186, 0) \
  N(STABLEHLO_SELECT, 187, 0) \
  N(STABLEHLO_SUBTRACT, 188, 0) \
  N(STABLEHLO_TANH, 189, 0) \
  N(STABLEHLO_SCATTER, 190, 0) \
  N(STABLEHLO_COMPARE, 191, 0) \
  N(STABLEHLO_CONVERT, 192, 0) \
  N(STABLEHLO_DYNAMIC_SLICE, 193, 0) \
  N(STABLEHLO_DYNAMIC_UPDATE_SLICE, 194, 0) \
  N(STABLEHLO_PAD, 195, 0) \
  N(STABLEHLO_IOTA, 196, 0) \
  N(STABLEHLO_DOT_GENERAL, 197, 0) \
  N(STABLEHLO_REDUCE_WINDOW, 198, 0) \
  N(STABLEHLO_SORT, 199, 0) \
  N(STABLEHLO_WHILE, 200, TFLC_OPF_SUBGRAPHS) \
  N(STABLEHLO_GATHER, 201, 0) \
  N(STABLEHLO_TRANSPOSE, 202, 0) \
  N(DILATE, 203, 0) \
  N(STABLEHLO_RNG_BIT_GENERATOR, 204, 0) \
  N(REDUCE_WINDOW, 205, 0) \
  N(STABLEHLO_COMPOSITE, 206, 0) \
  N(STABLEHLO_SHIFT_LEFT, 207, 0) \
  N(STABLEHLO_CBRT, 208, 0) \
  N(STABLEHLO_CASE, 209, TFLC_OPF_SUBGRAPHS) \
  X(TFLM_DECODE, 256, NONE, 0, 0, tflc__decode_prepare, tflc__decode_invoke, 0) \
  X(CIRCULAR_BUFFER, 257, NONE, 0, 0, tflc__circular_buffer_prepare, tflc__circular_buffer_invoke, tflc__circular_buffer_reset) \
  X(TFLite_Detection_PostProcess, 258, NONE, 0, 0, tflc__detection_postprocess_prepare, tflc__detection_postprocess_invoke, 0) \
  X(SignalDelay, 280, NONE, 0, 0, tflc__signal_delay_prepare, tflc__signal_delay_invoke, tflc__signal_reset) \
  X(SignalEnergy, 281, NONE, 0, 0, tflc__signal_energy_prepare, tflc__signal_energy_invoke, 0) \
  X(SignalFftAutoScale, 282, NONE, 0, 0, tflc__signal_fft_auto_scale_prepare, tflc__signal_fft_auto_scale_invoke, 0) \
  X(SignalFilterBank, 283, NONE, 0, 0, tflc__signal_filter_bank_prepare, tflc__signal_filter_bank_invoke, 0) \
  X(SignalFilterBankLog, 284, NONE, 0, 0, tflc__signal_filter_bank_log_prepare, tflc__signal_filter_bank_log_invoke, 0) \
  X(SignalFilterBankSpectralSubtraction, 285, NONE, 0, 0, tflc__signal_spectral_subtraction_prepare, tflc__signal_spectral_subtraction_invoke, tflc__signal_reset) \
  X(SignalFilterBankSquareRoot, 286, NONE, 0, 0, tflc__signal_filter_bank_square_root_prepare, tflc__signal_filter_bank_square_root_invoke, 0) \
  X(SignalFramer, 287, NONE, 0, 0, tflc__signal_framer_prepare, tflc__signal_framer_invoke, tflc__signal_reset) \
  X(SignalIrfft, 288, NONE, 0, 0, tflc__signal_irfft_prepare, tflc__signal_fft_invoke, 0) \
  X(SignalOverlapAdd, 289, NONE, 0, 0, tflc__signal_overlap_add_prepare, tflc__signal_overlap_add_invoke, tflc__signal_reset) \
  X(SignalPCAN, 290, NONE, 0, 0, tflc__signal_pcan_prepare, tflc__signal_pcan_invoke, 0) \
  X(SignalRfft, 291, NONE, 0, 0, tflc__signal_rfft_prepare, tflc__signal_fft_invoke, 0) \
  X(SignalStacker, 292, NONE, 0, 0, tflc__signal_stacker_prepare, tflc__signal_stacker_invoke, tflc__signal_reset) \
  X(SignalWindow, 293, NONE, 0, 0, tflc__signal_window_prepare, tflc__signal_window_invoke, 0)
/* clang-format on */

#define TFLC__OPCODE_X(name, code, o, i, f, pr, iv, rs) TFLC_OP_##name = code,
#define TFLC__OPCODE_N(name, code, f) TFLC_OP_##name = code,
/* Operator codes: the schema's BuiltinOperator numbers; custom operators
 * tflc knows from 256; -1 for a custom operator it does not know. */
typedef enum tflc_opcode {
  TFLC_OPERATORS(TFLC__OPCODE_X, TFLC__OPCODE_N) TFLC_OP_UNKNOWN_CUSTOM = -1
} tflc_opcode;

/* What tflc knows of an operator code (tflc_op_info). */
enum {
  TFLC_OP_NAME_ONLY = 0, /* known by name; tflc has no kernel for it */
  TFLC_OP_LEFT_OUT = 1,  /* has a kernel, not compiled in (TFLC_OPS) */
  TFLC_OP_COMPILED = 2   /* runs in this build */
};
typedef struct tflc_op_info {
  const char *name;
  int32_t code;
  uint16_t inplace_inputs; /* TFLC_INPUTS mask */
  uint16_t facts;          /* TFLC_CHECK_* | TFLC_OPF_* */
  uint8_t options_type;    /* BuiltinOptions type the verifier expects */
  uint8_t status;          /* TFLC_OP_NAME_ONLY / _LEFT_OUT / _COMPILED */
} tflc_op_info;

/* ---- operators you register ----------------------------------------------
 * A tflc_user_op runs a custom operator or replaces a built-in one (a
 * vendor kernel, a wrapper that counts or times). Entries are matched
 * before the built-ins: `code` a builtin code (TFLC_OP_CONV_2D, ...), or
 * TFLC_OP_CUSTOM with `custom_name` equal to the model's custom_code.
 * prepare (may be NULL) runs once at tflc_interpreter_init, invoke at
 * every tflc_invoke; both get the operator's context (tensors, options,
 * state: the tflc_op_* accessors below) and `user`. Compressed inputs
 * reach a user operator decoded. Return TFLC_OK or an error status (set a
 * message with tflc_op_fail). Example, a custom op adding one:
 *
 *   static tflc_status plus_one(tflc_op_context *op, void *user) {
 *     const tflc_tensor *x = tflc_op_input(op, 0);
 *     tflc_tensor *y = tflc_op_output(op, 0);
 *     uint32_t i;
 *     (void)user;
 *     if (x->type != TFLC_FLOAT32 || y->bytes != x->bytes)
 *       return tflc_op_fail(op, TFLC_ERR_TYPE, "float32 in and out");
 *     for (i = 0; i < x->bytes / 4; i++)
 *       ((float *)y->data)[i] = ((const float *)x->data)[i] + 1.0f;
 *     return TFLC_OK;
 *   }
 *   tflc_user_op ops[1] = {{TFLC_OP_CUSTOM, "PlusOne", NULL, plus_one, 0}};
 *   tflc_options opt = {0};
 *   opt.user_ops = ops;
 *   opt.num_user_ops = 1;
 *   tflc_interpreter_init(&it, &model, arena, sizeof arena, &opt);
 */
typedef struct tflc_op_context tflc_op_context;
typedef tflc_status (*tflc_user_op_fn)(tflc_op_context *op, void *user);
typedef struct tflc_user_op {
  int32_t code;            /* builtin to replace, or TFLC_OP_CUSTOM */
  const char *custom_name; /* with TFLC_OP_CUSTOM: the custom_code */
  tflc_user_op_fn prepare; /* at init; may be NULL */
  tflc_user_op_fn invoke;  /* at every invoke */
  void *user;
} tflc_user_op;

/* ---- delegates -----------------------------------------------------------
 * A delegate hands operators to something else (an accelerator, a vendor
 * library). At tflc_interpreter_init tflc asks it, operator by operator
 * and in order, whether it takes the operator: `claims` sees the operator's
 * context (code, custom name, tensors with types, shapes and quantization,
 * options: the tflc_op_* accessors; it only looks: no tflc_op_persist,
 * scratch or state there) and returns 1 to take it. Delegates are
 * asked in the order given, before user operators and the built-ins; the
 * first that claims an operator takes it (TFLM_DECODE operators tflc keeps
 * are never offered). Each maximal run of consecutive operators taken by
 * one delegate becomes a partition: one operator record that stands for
 * the run (tflc_op_code TFLC_OP_DELEGATE, tflc_op_index its first
 * operator). Its inputs and outputs are the tensors crossing its edge,
 * ordinary arena tensors; tensors living only inside it get no arena (flag
 * TFLC_TENSOR_VIRTUAL, data NULL: the delegate keeps them). Constants stay
 * in the model (read them with tflc_op_const). `prepare` (may be NULL)
 * runs once per partition at init, `invoke` at every tflc_invoke in place
 * of the run's operators; both get the partition's context:
 * tflc_op_input / tflc_op_output are its edge tensors, tflc_partition_op
 * gives the context of each operator it took, tflc_op_persist /
 * tflc_op_scratch_request / tflc_op_set_state work as for operators, and
 * tflc_op_fail reports "partition 2 (ops 5-9, delegate vta): message".
 * Example, a delegate taking every int8 ADD:
 *
 *   static int takes(tflc_op_context *op, void *user) {
 *     const tflc_tensor *a = tflc_op_input(op, 0);
 *     (void)user;
 *     return tflc_op_code(op) == TFLC_OP_ADD && a && a->type == TFLC_INT8;
 *   }
 *   static tflc_status run(tflc_op_context *part, void *user) {
 *     int32_t k; // tensors only the partition uses: data NULL, yours
 *     for (k = 0; k < tflc_partition_num_ops(part); k++) {
 *       tflc_op_context *op = tflc_partition_op(part, k);
 *       if (accel_add(user, tflc_op_input(op, 0), tflc_op_input(op, 1),
 *                     tflc_op_output(op, 0)) != 0)
 *         return tflc_op_fail(part, TFLC_ERR_KERNEL, "accelerator");
 *     }
 *     return TFLC_OK;
 *   }
 *   tflc_delegate accel = {"accel", takes, NULL, run, &my_device};
 *   tflc_options opt = {0};
 *   opt.delegates = &accel;
 *   opt.num_delegates = 1;
 *   tflc_interpreter_init(&it, &model, arena, sizeof arena, &opt);
 */
typedef int (*tflc_claims_fn)(tflc_op_context *op, void *user);
typedef struct tflc_delegate {
  const char *name;        /* in messages and tools */
  tflc_claims_fn claims;   /* at init, per operator: 1 takes it */
  tflc_user_op_fn prepare; /* at init, per partition; may be NULL */
  tflc_user_op_fn invoke;  /* at every invoke, per partition */
  void *user;
} tflc_delegate;
/* A partition as tools see it (tflc_partition_info_get). */
typedef struct tflc_partition_info {
  const char *delegate; /* its name */
  int32_t subgraph;
  int32_t first_op, last_op;       /* model operator indices */
  int32_t num_ops;                 /* operators taken */
  int32_t num_inputs, num_outputs; /* tensors crossing the edge */
  int32_t num_internal;            /* tensors kept by the delegate */
} tflc_partition_info;

/* ---- options ------------------------------------------------------------ */
typedef struct tflc_region {
  void *base;
  size_t size;
} tflc_region;

typedef void (*tflc_profile_fn)(void *user, int32_t op_index, int32_t opcode,
                                int begin);

/* Plans, from the fastest to the smallest: each step trades instructions
 * for arena, and every plan gives the same bytes. tflc_options.plan asks
 * for one (0: the fastest the arena holds); tflc_interpreter.plan says
 * which one init made. */
typedef enum tflc_plan {
  TFLC_PLAN_AUTO = 0,     /* options: the fastest plan that fits */
  TFLC_PLAN_FASTEST = 1,  /* every tensor whole, in its own buffer */
  TFLC_PLAN_INPLACE = 2,  /* + depthwise layers (depth multiplier 1; int8,
                             int16, float32) whose input dies with them
                             write their output over it, a few channels at
                             a time through a plane, where that lowers the
                             arena (a model's only subgraph) */
  TFLC_PLAN_PATCHES = 3,  /* + a chain of int8 convolution layers (CONV_2D,
                             DEPTHWISE_CONV_2D) run band by band: each
                             layer makes a few output rows at a time into
                             the next one's window of input rows, so that
                             the maps inside the chain never exist whole;
                             no row is made twice (a model's only
                             subgraph) */
  TFLC_PLAN_COMPACT = 13, /* + the per-channel requantization (multipliers
                             and shifts) of int8 CONV_2D and
                             DEPTHWISE_CONV_2D outside the chain computed at
                             each invoke, from the model's scales, into the
                             operator's scratch instead of kept in
                             persistent arena (the last step: 5 bytes a
                             channel less, for about 400 instructions a
                             channel on a Cortex-M4) */
  /* options: the plan with the smallest arena (of those, the fastest) */
  TFLC_PLAN_SMALLEST = 14,
  /* options, for tests: every step wherever it applies, whether or not it
     saves arena (each plan chooses where a step pays) */
  TFLC_PLAN_EVERYWHERE = 15
} tflc_plan;

typedef struct tflc_options {
  /* Alternate memory for compressed tensors that must be decoded whole
   * (operators without a tiled path): first region with room, else the
   * arena. Regions must be 16-byte aligned and outlive the interpreter. */
  const tflc_region *decomp_regions;
  int32_t num_decomp_regions;
  tflc_profile_fn profile; /* called before (1) and after (0) each op */
  void *profile_user;
  /* When set, interpreter init reports every operator it cannot prepare
   * (subgraph, op index, status, message) and goes on to the next one;
   * it still fails, with the first error. For tools such as `tflc check`. */
  void (*report)(void *user, int32_t subgraph, int32_t op, tflc_status st,
                 const char *message);
  void *report_user;
  /* Operators you register (see above), looked up before the built-ins;
   * the array must outlive the interpreter. At most 255. */
  const tflc_user_op *user_ops;
  int32_t num_user_ops;
  /* Delegates (see above), asked in this order before everything else;
   * the array must outlive the interpreter. At most 255. */
  const tflc_delegate *delegates;
  int32_t num_delegates;
  /* TFLC_PLAN_AUTO (0): the fastest plan the arena holds, trying each
   * step in turn; TFLC_PLAN_SMALLEST: the plan with the smallest arena
   * (every step tried at init); another tflc_plan: that one only.
   * Ignored with TFLC_NO_PATCHES (the fastest plan, always). */
  int32_t plan;
} tflc_options;

/* ---- interpreter -------------------------------------------------------- */
struct tflc__op;
typedef struct tflc_interpreter {
  const tflc_model *model;
  uint8_t *arena;    /* 16-byte aligned start */
  size_t arena_size; /* usable bytes from `arena` */
  size_t head;       /* planned activations */
  size_t tail;       /* persistent bytes at the end */
  size_t tail32;     /* the same records laid out by a 32-bit target */
  size_t align_pad;  /* bytes skipped to align the arena */
  tflc_tensor *tensors;
  struct tflc__op *ops;
  int32_t num_tensors;
  int32_t num_ops;
  int32_t num_inputs, num_outputs;
  int32_t inputs[TFLC_MAX_IO];
  int32_t outputs[TFLC_MAX_IO];
  tflc_options opt;
  int32_t ready;
  uint32_t sgt;     /* subgraph table of the current view */
  size_t map_bytes; /* init-time scratch */
  /* while one operator is prepared: records of its constant inputs that
   * keep none after init (tflc__in), else NULL */
  tflc_tensor *prep_consts;
  struct tflc__graph *graphs; /* per subgraph (when more than one) */
  struct tflc__var *vars;     /* resource variables */
  int32_t num_vars;
  tflc_status first_error; /* with opt.report: the first op failure */
  /* positions of the running operator's Huffman / Prune inputs (its
   * filter, its other inputs); in the arena, only when a model has them */
  tflc_const_cursor *cursors;
  struct tflc__partition *partitions; /* delegated runs, in init order */
  int32_t num_partitions;
  int32_t plan; /* the plan init made: TFLC_PLAN_FASTEST, _INPLACE or
                   _PATCHES or _COMPACT (0 with TFLC_NO_PATCHES: the
                   fastest, the only
                   one) */
  /* depthwise layers written over their input (fastest plan: that could
   * be, where it pays or not) */
  int32_t inplace_ops;
  /* operators whose requantization is computed at invoke (the fastest
   * plan: that could be) */
  int32_t compact_ops;
  size_t plan_need; /* after TFLC_ERR_ARENA: this plan's exact arena, or 0
                       when it failed before planning */
  /* init only: persistent bytes of folded CONV_2D biases that did not fit
   * (the plan then fails, its need counting them) */
  size_t fold_short;
  /* the int8 CONV_2D layers whose biases this plan folds (the fastest plan
   * only: tflc_interpreter_init tries it again without them when the
   * arena cannot hold them, before any memory-saving step) */
  int32_t folded_ops;
  uint8_t unfolded; /* init only: the fastest plan without the folds */
  /* TFLC_PLAN_PATCHES: operators patch_first .. patch_last run band by
   * band, each making patch_rows output rows a kernel call (0: no chain),
   * their windows in a buffer of patch_bytes */
  int32_t patch_first, patch_last, patch_rows;
  int32_t patch_alias; /* the chain's output written over its input */
  uint32_t patch_bytes;
  int32_t patch_skip;    /* rows of the window of the chain's skip (an ADD) */
  uint64_t patch_copied; /* estimated bytes copied at each invoke */
  size_t patch_budget;   /* init only: activation bytes the chain should fit */
  /* the operator that failed (tflc_error_op): index + 1, 0 when none */
  int32_t error_op, error_subgraph;
  char error[TFLC_ERROR_LEN];
} tflc_interpreter;

/* A short constant text for a status ("arena too small"); never NULL. */
TFLC_API const char *tflc_status_str(tflc_status s);
/* Verifies the .tflite flatbuffer at `bytes` (size bytes) once and makes m
 * a zero-copy view of it. Every table, vector and string is checked as
 * the flatbuffers verifier checks them, and everything tflc reads (index
 * ranges, shapes, quantization, constant buffer lengths, compression
 * descriptors); TFLM's schema version 3 only. `bytes` may sit at any
 * address: constants misaligned for their type are copied into the arena
 * by tflc_interpreter_init (16-byte alignment, as `tflc embed` writes,
 * costs nothing). The bytes are read, never written, and must stay valid
 * and unchanged as long as m and any interpreter made from it.
 * Returns TFLC_OK; TFLC_ERR_ARG (m or bytes NULL), TFLC_ERR_TRUNCATED (the
 * model ends before something it refers to: the message gives the
 * offset), TFLC_ERR_IDENTIFIER, TFLC_ERR_FLATBUFFER, TFLC_ERR_SCHEMA,
 * TFLC_ERR_INDEX, TFLC_ERR_SHAPE, TFLC_ERR_TYPE, TFLC_ERR_QUANT,
 * TFLC_ERR_BUFFER, TFLC_ERR_COMPRESSION or TFLC_ERR_UNSUPPORTED (a schema
 * version other than 3, a sparse tensor, ...), with tflc_model_error(m)
 * saying where. m needs no cleanup. */
TFLC_API tflc_status tflc_model_init(tflc_model *m, const void *bytes,
                                     size_t size);
/* The message of the last failed tflc_model_init ("" after success, or
 * with TFLC_NO_ERROR_STRINGS); "no model" for NULL. */
TFLC_API const char *tflc_model_error(const tflc_model *m);
/* Plans and prepares every subgraph of the verified model m in `arena`
 * (arena_size bytes, any alignment: up to 15 bytes are skipped to reach
 * 16-byte alignment, and that slack counts in arena_size). Nothing else
 * is allocated; `opt` may be NULL and is copied, but the arrays it points
 * to (regions, user operators) must outlive the interpreter. m and the
 * arena must outlive it too; it keeps pointers into both. Reinitialising
 * `it` is how it is reset. The arena decides the plan (tflc_plan): the
 * fastest when it fits, else the next step down that fits (it->plan says
 * which; opt->plan can ask for one). Returns TFLC_OK; TFLC_ERR_ARG (it
 * NULL; m NULL or not verified; arena NULL; bad options), TFLC_ERR_ARENA
 * (too small: the message names the smallest plan's arena and the
 * fastest's, "needs at least S bytes (the smallest plan; the fastest
 * needs F)", both exact when the records fit the arena given, else a
 * lower bound; tflc_arena_used after a success with a larger arena the
 * exact size), TFLC_ERR_UNSUPPORTED or another status from an operator's
 * preparation, with tflc_error(it) saying which. */
TFLC_API tflc_status tflc_interpreter_init(tflc_interpreter *it,
                                           const tflc_model *m, void *arena,
                                           size_t arena_size,
                                           const tflc_options *opt);
/* Input i of subgraph 0 (NULL when it is NULL or not initialised, or i is
 * out of range). Its `data` is valid for the interpreter's lifetime:
 * write `bytes` bytes there before every tflc_invoke (an invoke may reuse
 * the input buffers for later activations). */
TFLC_API tflc_tensor *tflc_input(tflc_interpreter *it, int32_t i);
/* Output i of subgraph 0 (NULL as for tflc_input). Its `data` holds the
 * result of the last tflc_invoke until the next one. */
TFLC_API const tflc_tensor *tflc_output(const tflc_interpreter *it, int32_t i);
/* Runs every operator of subgraph 0 once. It overwrites every activation
 * buffer of the arena: outputs, intermediate tensors, scratch, and the
 * inputs' buffers too (TFLM's planner shares them the same way), so the
 * inputs must be written again before the next invoke. It updates the
 * variable tensors and resource variables (state kept from invoke to
 * invoke) and never writes the model. Returns TFLC_OK; TFLC_ERR_STATE
 * when it is NULL or not initialised; TFLC_ERR_KERNEL or an operator's
 * status on failure (tflc_error(it) says which operator); after a failure
 * the outputs are undefined, the interpreter stays usable. */
TFLC_API tflc_status tflc_invoke(tflc_interpreter *it);
/* Puts every variable back where a fresh interpreter starts it (int8
 * variable tensors at their zero point, the rest 0; resource variables at
 * their default) and lets CALL_ONCE run again: the next invoke gives what
 * the first one after tflc_interpreter_init gave. No re-planning; inputs
 * and outputs are not touched. Returns TFLC_OK, or TFLC_ERR_STATE when it
 * is NULL or not initialised. */
TFLC_API tflc_status tflc_reset(tflc_interpreter *it);
/* The message of the last failure of it ("" when none, or with
 * TFLC_NO_ERROR_STRINGS); "no interpreter" for NULL. */
TFLC_API const char *tflc_error(const tflc_interpreter *it);
/* The operator whose prepare (tflc_interpreter_init) or invoke
 * (tflc_invoke) failed last: its index in its subgraph, the subgraph's in
 * *subgraph (when not NULL); -1 when the failure was not an operator's or
 * nothing failed. The innermost one when a subgraph of IF / WHILE /
 * CALL_ONCE failed. Kept with TFLC_NO_ERROR_STRINGS, where tflc_error
 * says nothing. */
TFLC_API int32_t tflc_error_op(const tflc_interpreter *it, int32_t *subgraph);
/* The arena this interpreter uses, in bytes, counted from the arena
 * pointer it was given: planned activations (at least the init-time
 * tensor map) + persistent records, rounded up to 16, + the bytes skipped
 * to align the arena. Passing exactly this size (with the same arena
 * alignment) works and one byte less fails. 0 for NULL. */
TFLC_API size_t tflc_arena_used(const tflc_interpreter *it);
/* The arena the same model needs on a target with `pointer_bits`-bit
 * pointers (32: a Cortex-M, ESP32, RISC-V MCU; or this host's width),
 * for a 16-byte aligned arena and model: exact, as tflc_arena_used is on
 * that target. Operators you register are counted with the bytes they
 * asked for here. 0 for other widths, NULL or an uninitialised it. */
TFLC_API size_t tflc_arena_used_for(const tflc_interpreter *it,
                                    int pointer_bits);

/* ---- operator context (inside a tflc_user_op's prepare / invoke) ------- */
/* Every tflc_op_* function takes the context tflc hands to a callback
 * (never NULL: op is not checked), valid only during that call; the
 * pointers they return into the model or the arena stay valid as long as
 * the interpreter. */
/* tflc_op_code: the operator's code (TFLC_OP_*, TFLC_OP_UNKNOWN_CUSTOM for a
 * custom one tflc does not know); tflc_op_index: its position in the
 * subgraph. */
TFLC_API int32_t tflc_op_code(const tflc_op_context *op);
TFLC_API int32_t tflc_op_index(const tflc_op_context *op);
/* tflc_op_num_inputs / tflc_op_num_outputs: input / output counts;
 * tflc_op_input / tflc_op_output: tensor k (NULL when absent or out of
 * range). Tensors are valid for the interpreter's lifetime; `data` is set
 * during invoke (at prepare only for constants). */
TFLC_API int32_t tflc_op_num_inputs(const tflc_op_context *op);
TFLC_API int32_t tflc_op_num_outputs(const tflc_op_context *op);
TFLC_API tflc_tensor *tflc_op_input(tflc_op_context *op, int32_t k);
TFLC_API tflc_tensor *tflc_op_output(tflc_op_context *op, int32_t k);
/* Field `field` (0-based, schema order) of the builtin options table, or
 * `dflt` when absent: tflc_op_option_int for 4-byte integers;
 * tflc_op_option_byte for 1-byte enums and bools (Padding,
 * ActivationFunctionType, ...), sign-extended; tflc_op_option_float for
 * floats. */
TFLC_API int32_t tflc_op_option_int(const tflc_op_context *op, int32_t field,
                                    int32_t dflt);
TFLC_API int32_t tflc_op_option_byte(const tflc_op_context *op, int32_t field,
                                     int32_t dflt);
TFLC_API float tflc_op_option_float(const tflc_op_context *op, int32_t field,
                                    float dflt);
/* The custom_options bytes of a custom operator (NULL, *size 0: none). */
TFLC_API const uint8_t *tflc_op_custom_options(const tflc_op_context *op,
                                               uint32_t *size);
/* Value `key` of custom options that are a FlexBuffer map (how TFLite
 * stores them) as a number: integers, floats and booleans. 1 and *value,
 * or 0 (*value 0) when absent, not a number or not a valid map. */
TFLC_API int tflc_op_custom_option(const tflc_op_context *op, const char *key,
                                   double *value);
/* Prepare only: `bytes` of zeroed persistent arena, 8-byte aligned, living
 * as long as the interpreter (NULL when the arena is full). */
TFLC_API void *tflc_op_persist(tflc_op_context *op, size_t bytes);
/* Prepare only: a scratch buffer of `bytes` valid during this operator's
 * invoke (shared with other operators' scratch and activations); returns
 * its index for tflc_op_scratch, or -1 when the arena or the 3 slots of
 * an operator are used up. */
TFLC_API int32_t tflc_op_scratch_request(tflc_op_context *op, size_t bytes);
/* Invoke only: the address of scratch buffer `index` (NULL at prepare, or
 * for an index never requested). */
TFLC_API void *tflc_op_scratch(const tflc_op_context *op, int32_t index);
/* tflc_op_set_state / tflc_op_state: set and read the operator's state
 * pointer (NULL until set; tflc never dereferences it). */
TFLC_API void tflc_op_set_state(tflc_op_context *op, void *state);
TFLC_API void *tflc_op_state(const tflc_op_context *op);
/* Sets the interpreter's message to "op N NAME: message" (message NULL:
 * "failed"; a partition's prefix for a delegate) and returns st, the
 * status the callback should return (TFLC_ERR_KERNEL, TFLC_ERR_UNSUPPORTED,
 * ...). */
TFLC_API tflc_status tflc_op_fail(tflc_op_context *op, tflc_status st,
                                  const char *message);
/* tflc_op_builtin_prepare / tflc_op_builtin_invoke: the built-in prepare /
 * invoke of this operator, for a user operator that wraps it (counts,
 * times, checks); their status, or TFLC_ERR_UNSUPPORTED when tflc has
 * none compiled in. A wrapper must leave the state to the built-in. */
TFLC_API tflc_status tflc_op_builtin_prepare(tflc_op_context *op);
TFLC_API tflc_status tflc_op_builtin_invoke(tflc_op_context *op);
/* The custom_code of a custom operator (NULL, *len 0: a builtin). */
TFLC_API const char *tflc_op_custom_name(const tflc_op_context *op,
                                         uint32_t *len);
/* Quantization number i of tensor t as the model gives it: returns the
 * number of scales (0: not quantized) and fills scale, zero point and the
 * quantized dimension (any may be NULL), as tflc_model_tensor_quant. */
TFLC_API int32_t tflc_op_tensor_quant(const tflc_op_context *op,
                                      const tflc_tensor *t, int32_t i,
                                      float *scale, int64_t *zero_point,
                                      int32_t *axis);
/* Input k as kernels read a constant: raw, or LUT-compressed (decode with
 * tflc_lut_decode, read with tflc_const_i32). Returns 0 (and a zeroed *c)
 * when input k is absent or not constant. */
TFLC_API int tflc_op_const(tflc_op_context *op, int32_t k, tflc_const *c);

/* ---- partitions (inside a tflc_delegate's prepare / invoke) ------------ */
/* tflc_partition_num_ops: operators in the partition (0 when `part` is not
 * a partition); tflc_partition_op: the context of operator k (NULL out of
 * range), valid as `part` is: its code, tensors and options as at claims.
 * Its tensors' `data`: arena tensors during invoke; NULL for the ones the
 * delegate keeps. */
TFLC_API int32_t tflc_partition_num_ops(const tflc_op_context *part);
TFLC_API tflc_op_context *tflc_partition_op(tflc_op_context *part, int32_t k);
/* tflc_num_partitions: partitions of a ready interpreter, every subgraph,
 * in init order (0 for NULL or not initialised); tflc_partition_info_get:
 * 1 and *info (not NULL) about partition i, or 0 and a zeroed *info when
 * out of range. info->delegate points at the delegate's name. */
TFLC_API int32_t tflc_num_partitions(const tflc_interpreter *it);
TFLC_API int tflc_partition_info_get(const tflc_interpreter *it, int32_t i,
                                     tflc_partition_info *info);

/* ---- introspection, for tools ------------------------------------------- */
/* The tflc_model_* functions below read a model tflc_model_init accepted
 * (m not NULL); the pointers they return point into its bytes. */
/* Name of an operator code: "CONV_2D", "TFLM_DECODE", "CUSTOM" for an
 * unknown custom operator, "UNKNOWN" outside the schema. */
TFLC_API const char *tflc_opcode_name(int32_t code);
/* Facts of the operator table for `code`; 0 (and *info zeroed, name
 * "UNKNOWN") when the code is not in the schema. */
TFLC_API int tflc_op_info_get(int32_t code, tflc_op_info *info);
/* Name of a tensor type: "INT8", "FLOAT32", ... ("UNKNOWN" otherwise). */
TFLC_API const char *tflc_type_name(int32_t type);
/* Operator i of subgraph sg: its code (TFLC_OP_*; TFLC_OP_UNKNOWN_CUSTOM
 * for a custom operator tflc does not know), or -1 when out of range. */
TFLC_API int32_t tflc_model_op_code(const tflc_model *m, int32_t sg, int32_t i);
/* Operator i's custom_code (NULL, *len 0 when not a custom operator). */
TFLC_API const char *tflc_model_op_custom_name(const tflc_model *m, int32_t sg,
                                               int32_t i, uint32_t *len);
/* tflc_model_num_ops / tflc_model_num_tensors: operators / tensors of
 * subgraph sg (0 when sg is out of range). */
TFLC_API int32_t tflc_model_num_ops(const tflc_model *m, int32_t sg);
TFLC_API int32_t tflc_model_num_tensors(const tflc_model *m, int32_t sg);
/* Operator i's inputs (outputs != 0: outputs): k < 0 returns the count,
 * else the tensor index (-1 for an absent optional input). */
TFLC_API int32_t tflc_model_op_io(const tflc_model *m, int32_t sg, int32_t i,
                                  int outputs, int32_t k);
/* Quantization of tensor t: number of scales (0 when not quantized); scale
 * and zero point number i; the quantized dimension. */
TFLC_API int32_t tflc_model_tensor_quant(const tflc_model *m, int32_t sg,
                                         int32_t t, int32_t i, float *scale,
                                         int64_t *zero_point, int32_t *axis);
/* Tensor description from the model (no interpreter needed): shape,
 * type, quantization, TFLC_TENSOR_CONST with `data` pointing at its bytes
 * in the model (which may be misaligned for the type: read them with
 * memcpy); its name and length when name / name_len are not NULL.
 * TFLC_ERR_INDEX when sg or t is out of range. */
TFLC_API tflc_status tflc_model_tensor(const tflc_model *m, int32_t sg,
                                       int32_t t, tflc_tensor *out,
                                       const char **name, uint32_t *name_len);
/* Compression of tensor t of subgraph sg, either format. Returns 1 and
 * fills `c` (bits, channels, stride, alt_axis) when compressed; `stored`
 * receives the bytes stored for it (indices + value table) and `format`
 * 1 = COMPRESSION_METADATA, 2 = TFLM_DECODE. */
TFLC_API int tflc_model_lut(const tflc_model *m, int32_t sg, int32_t t,
                            tflc_const *c, uint32_t *stored, int *format);

/* ---- internal interface ------------------------------------------------
 * What tflc_write.h and tests/ use of the implementation beyond the API
 * above (tflc_kernels.h has the same section for its part). Not an API: it
 * changes without notice. Functions are static unless the build defines
 * TFLC_INTERNAL_API (the test build: the library compiled once, the tests
 * linked against it). */
/* Compressed inputs without a tiled path are decoded whole before the op
 * runs, into an alternate region or an arena scratch buffer. */
typedef struct tflc__whole {
  int32_t slot;    /* input slot */
  int32_t scratch; /* scratch index, or -1 when `ptr` is in a region */
  void *ptr;
} tflc__whole;
/* The interpreter's record of one operator (it->ops). */
struct tflc__op {
  int16_t code;  /* builtin code or TFLC_OP_TFLM_DECODE */
  uint16_t def;  /* 1 + its row of the operator table (prepare), or 0 */
  int32_t index; /* position in the subgraph */
  uint32_t opts; /* builtin options table or 0 */
  uint16_t nin, nout;
  uint8_t nscratch, nwhole;
  uint8_t variant; /* kernel the prepare function chose, for invoke */
  uint8_t user;    /* 1 + index of the tflc_user_op running it, or 0 */
  /* tensor record indices: nin inputs (-1 = absent), then nout outputs;
   * TFLC__OUT(op)[k] is output k */
  int16_t *in;
  void *state; /* kernel-specific, persistent */
  /* scratch buffers living for this op only (allocated on the first
   * request): requested sizes until the plan is made, then addresses */
  uintptr_t *scratch;
  tflc__whole *whole;
};
typedef struct tflc__op tflc__op;
#define TFLC__OUT(op) ((op)->in + (op)->nin)
#if defined(TFLC_INTERNAL_API) && !defined(TFLC_STATIC)
/* elements of a tensor's shape */
TFLC_INTERNAL int32_t tflc__count(const tflc_tensor *t);
#endif

#ifdef __cplusplus
}
#endif

/* ======================================================================== */
/* Stop here if you only want the API.                                      */
/* ======================================================================== */
#endif /* TFLC_H */

#if defined(TFLC_IMPLEMENTATION) && !defined(TFLC_IMPLEMENTATION_DONE)
#define TFLC_IMPLEMENTATION_DONE
#include <stdarg.h>
#include <string.h>

/* no fused multiply-add in the implementation (see tflc_kernels.h; gcc:
 * with the size pragma below, one set of options for all of it) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(_MSC_VER)
#pragma fp_contract(off)
#endif

/* ======================================================================== */
/* Messages: a tiny formatter (%d %u %s) so the runtime needs no printf.     */
/* ======================================================================== */
#ifndef TFLC_NO_ERROR_STRINGS
static void tflc__vfmt(char *dst, size_t cap, const char *f, va_list ap) {
  size_t n = 0;
  if (cap == 0)
    return;
  while (*f && n + 1 < cap) {
    if (f[0] == '%' && (f[1] == 'd' || f[1] == 'u')) {
      char tmp[24];
      int k = 0;
      unsigned long v;
      if (f[1] == 'd') {
        long s = (long)va_arg(ap, int);
        if (s < 0) {
          dst[n++] = '-';
          v = (unsigned long)(-(s + 1)) + 1u;
        } else {
          v = (unsigned long)s;
        }
      } else {
        v = (unsigned long)va_arg(ap, unsigned);
      }
      do {
        tmp[k++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
      } while (v && k < 23);
      while (k > 0 && n + 1 < cap)
        dst[n++] = tmp[--k];
      f += 2;
    } else if (f[0] == '%' && f[1] == 's') {
      const char *s = va_arg(ap, const char *);
      while (s && *s && n + 1 < cap)
        dst[n++] = *s++;
      f += 2;
    } else {
      dst[n++] = *f++;
    }
  }
  dst[n] = 0;
}
static tflc_status tflc__err(char *buf, tflc_status st, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  tflc__vfmt(buf, TFLC_ERROR_LEN, f, ap);
  va_end(ap);
  return st;
}
#else
static tflc_status tflc__err(char *buf, tflc_status st, const char *f, ...) {
  (void)f;
  buf[0] = 0;
  return st;
}
#endif

TFLC_API const char *tflc_status_str(tflc_status s) {
  switch (s) {
  case TFLC_OK:
    return "ok";
  case TFLC_ERR_ARG:
    return "bad argument";
  case TFLC_ERR_TRUNCATED:
    return "model truncated";
  case TFLC_ERR_FLATBUFFER:
    return "malformed flatbuffer";
  case TFLC_ERR_IDENTIFIER:
    return "not a TFL3 model";
  case TFLC_ERR_SCHEMA:
    return "invalid model";
  case TFLC_ERR_INDEX:
    return "index out of range";
  case TFLC_ERR_SHAPE:
    return "bad shape";
  case TFLC_ERR_TYPE:
    return "unsupported type";
  case TFLC_ERR_QUANT:
    return "bad quantization";
  case TFLC_ERR_BUFFER:
    return "constant buffer too short";
  case TFLC_ERR_COMPRESSION:
    return "bad compression data";
  case TFLC_ERR_UNSUPPORTED:
    return "unsupported";
  case TFLC_ERR_ARENA:
    return "arena too small";
  case TFLC_ERR_STATE:
    return "wrong call order";
  case TFLC_ERR_KERNEL:
    return "kernel failed";
  }
  return "unknown status";
}

/* From here to the end: the flatbuffer reader, verifier, records, planner,
 * init, and the operators' glue (prepare, which runs once, and invoke,
 * which runs once per operator and hands the loops to tflc_kernels.h).
 * gcc compiles this part for size in optimized builds (and, in every
 * build, without floating-point contraction: one set of options, so the
 * optimizer inlines across it as before); the kernels keep
 * the build's own level, so invoke is as fast and the image smaller
 * (person_detect's int8-only lean build, -O2 on the M4: 1.7 KB less,
 * instructions per invoke unchanged). TFLC_NO_SIZE_GLUE turns it off. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__) &&       \
    !defined(__OPTIMIZE_SIZE__) && !defined(TFLC_NO_SIZE_GLUE)
#pragma GCC push_options
#pragma GCC optimize("Os", "fp-contract=off")
#define TFLC__GLUE_PUSHED 1
#elif defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#define TFLC__GLUE_PUSHED 1
#endif

/* ======================================================================== */
/* Flatbuffer reader: bounds-checked accessors over the model bytes.        */
/* Every accessor is safe on any input (it returns 0/defaults when a read   */
/* would leave the buffer); the verifier below turns "absent or broken"     */
/* into errors once, so later code can take absent fields as defaults.      */
/* ======================================================================== */
static uint32_t tflc__u16(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8);
}
static uint32_t tflc__u32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
         ((uint32_t)p[3] << 24);
}
static uint64_t tflc__u64(const uint8_t *p) {
  return (uint64_t)tflc__u32(p) | ((uint64_t)tflc__u32(p + 4) << 32);
}
static int32_t tflc__i32(const uint8_t *p) {
  uint32_t u = tflc__u32(p);
  int32_t v;
  memcpy(&v, &u, 4);
  return v;
}
static float tflc__f32(const uint8_t *p) {
  uint32_t u = tflc__u32(p);
  float v;
  memcpy(&v, &u, 4);
  return v;
}

/* The bytes a flatbuffer lives in: the model, or a nested buffer. */
typedef struct tflc__fb {
  const uint8_t *b;
  uint32_t n;
} tflc__fb;

/* 1 if a table starts at t with a vtable and inline part inside the
 * buffer. Tables never start at 0 (that is where the root offset sits). */
static int tflc__table_ok(tflc__fb fb, uint32_t t) {
  int64_t vt;
  uint32_t vts, ts;
  if (t == 0 || fb.n < 4 || t > fb.n - 4)
    return 0;
  vt = (int64_t)t - (int64_t)tflc__i32(fb.b + t);
  if (vt < 0 || vt > (int64_t)fb.n - 4)
    return 0;
  vts = tflc__u16(fb.b + vt);
  ts = tflc__u16(fb.b + vt + 2);
  if (vts < 4 || (vts & 1u) || (uint64_t)vt + vts > fb.n || ts < 4 ||
      (uint64_t)t + ts > fb.n)
    return 0;
  return 1;
}
/* Absolute position of field `slot` (size `sz`) of table t, 0 if the field
 * is absent or does not fit inside the table's inline part. */
static uint32_t tflc__field(tflc__fb fb, uint32_t t, uint32_t slot,
                            uint32_t sz) {
  uint32_t vt, vts, ts, fo;
  if (!tflc__table_ok(fb, t))
    return 0;
  vt = (uint32_t)((int64_t)t - (int64_t)tflc__i32(fb.b + t));
  vts = tflc__u16(fb.b + vt);
  ts = tflc__u16(fb.b + vt + 2);
  if (4 + 2 * slot + 2 > vts)
    return 0;
  fo = tflc__u16(fb.b + vt + 4 + 2 * slot);
  if (fo < 4 || fo + sz > ts)
    return 0;
  return t + fo;
}
/* 1 if the vtable names the field at all (even if it is broken). */
static int tflc__has_field(tflc__fb fb, uint32_t t, uint32_t slot) {
  uint32_t vt, vts;
  if (!tflc__table_ok(fb, t))
    return 0;
  vt = (uint32_t)((int64_t)t - (int64_t)tflc__i32(fb.b + t));
  vts = tflc__u16(fb.b + vt);
  if (4 + 2 * slot + 2 > vts)
    return 0;
  return tflc__u16(fb.b + vt + 4 + 2 * slot) != 0;
}
static uint32_t tflc__get_u8(tflc__fb fb, uint32_t t, uint32_t slot,
                             uint32_t def) {
  uint32_t p = tflc__field(fb, t, slot, 1);
  return p ? fb.b[p] : def;
}
static int32_t tflc__get_i32(tflc__fb fb, uint32_t t, uint32_t slot,
                             int32_t def) {
  uint32_t p = tflc__field(fb, t, slot, 4);
  return p ? tflc__i32(fb.b + p) : def;
}
static uint32_t tflc__get_u32(tflc__fb fb, uint32_t t, uint32_t slot,
                              uint32_t def) {
  uint32_t p = tflc__field(fb, t, slot, 4);
  return p ? tflc__u32(fb.b + p) : def;
}
static uint64_t tflc__get_u64(tflc__fb fb, uint32_t t, uint32_t slot) {
  uint32_t p = tflc__field(fb, t, slot, 8);
  return p ? tflc__u64(fb.b + p) : 0;
}
static float tflc__get_f32(tflc__fb fb, uint32_t t, uint32_t slot, float def) {
  uint32_t p = tflc__field(fb, t, slot, 4);
  return p ? tflc__f32(fb.b + p) : def;
}
/* Follows the uoffset stored in field `slot`; 0 when absent/out of range. */
static uint32_t tflc__get_ref(tflc__fb fb, uint32_t t, uint32_t slot) {
  uint32_t p = tflc__field(fb, t, slot, 4);
  uint64_t r;
  if (!p)
    return 0;
  r = (uint64_t)p + tflc__u32(fb.b + p);
  if (r > (uint64_t)fb.n - 4 || r == 0)
    return 0;
  return (uint32_t)r;
}
/* Vector in field `slot` with elements of `esz` bytes: returns the position
 * of the first element (nonzero even when empty), length in *len; 0 when
 * absent or when the elements would run past the end. */
static uint32_t tflc__get_vec(tflc__fb fb, uint32_t t, uint32_t slot,
                              uint32_t esz, uint32_t *len) {
  uint32_t v = tflc__get_ref(fb, t, slot), n;
  *len = 0;
  if (!v)
    return 0;
  n = tflc__u32(fb.b + v);
  if ((uint64_t)n * esz > (uint64_t)fb.n - v - 4)
    return 0;
  *len = n;
  return v + 4;
}
/* Element i of a vector of tables starting at `vec`. */
static uint32_t tflc__vec_table(tflc__fb fb, uint32_t vec, uint32_t i) {
  uint32_t e = vec + 4 * i;
  uint64_t r = (uint64_t)e + tflc__u32(fb.b + e);
  if (r > (uint64_t)fb.n - 4)
    return 0;
  return tflc__table_ok(fb, (uint32_t)r) ? (uint32_t)r : 0;
}
/* String in field `slot`: pointer to its bytes (NUL-terminated in a valid
 * file) and length; NULL when absent or broken. */
static const char *tflc__get_str(tflc__fb fb, uint32_t t, uint32_t slot,
                                 uint32_t *len) {
  uint32_t s = tflc__get_vec(fb, t, slot, 1, len);
  if (!s || (uint64_t)s + *len >= fb.n || fb.b[s + *len] != 0) {
    *len = 0;
    return NULL;
  }
  return (const char *)(fb.b + s);
}

/* ---- flexbuffer reader ---------------------------------------------------
 * The custom options of TFLM's custom operators are a FlexBuffer: a root
 * map (or vector) of scalars at the end of the bytes. Reading it walks
 * backwards from the last byte (root width), the byte before it (root
 * type, packed as type << 2 | log2 width) and the root slot; maps and
 * vectors are reached through unsigned offsets subtracted from the slot
 * that holds them. A vector's size sits in the `width` bytes before its
 * first element, an untyped vector's element types (one packed byte each)
 * after its last; a map is an untyped vector of values preceded by the
 * offset and byte width of its sorted key vector. tflc__flex_open checks
 * every offset and size against the buffer once; element reads check
 * their own targets, so no read leaves the bytes, whatever they hold. */
enum {
  TFLC__FLEX_NULL = 0,
  TFLC__FLEX_INT = 1,
  TFLC__FLEX_UINT = 2,
  TFLC__FLEX_FLOAT = 3,
  TFLC__FLEX_INDIRECT_INT = 6,
  TFLC__FLEX_INDIRECT_UINT = 7,
  TFLC__FLEX_INDIRECT_FLOAT = 8,
  TFLC__FLEX_MAP = 9,
  TFLC__FLEX_VECTOR = 10,
  TFLC__FLEX_BOOL = 26
};
typedef struct tflc__flex {
  const uint8_t *b;
  uint32_t size;
  uint32_t elems; /* first element of the root map / vector */
  uint32_t count; /* its elements */
  uint32_t width; /* their byte width (1, 2, 4, 8) */
  uint32_t keys;  /* map: first slot of the key vector (0: a vector) */
  uint32_t key_width;
} tflc__flex;

/* The little-endian unsigned integer of w (1, 2, 4, 8) bytes at p. */
static uint64_t tflc__flex_u(const uint8_t *p, uint32_t w) {
  uint64_t v = 0;
  uint32_t i;
  for (i = 0; i < w; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}
/* The same, sign-extended from w bytes. */
static int64_t tflc__flex_s(const uint8_t *p, uint32_t w) {
  uint64_t u = tflc__flex_u(p, w);
  int64_t v;
  if (w < 8 && (u >> (8 * w - 1)) & 1)
    u |= ~(uint64_t)0 << (8 * w);
  memcpy(&v, &u, 8);
  return v;
}
static int tflc__flex_width_ok(uint64_t w) {
  return w == 1 || w == 2 || w == 4 || w == 8;
}
/* The target of the offset in the w-byte slot at `at` (slot inside the
 * buffer): 1 and *out when it lands inside the buffer, else 0. */
static int tflc__flex_target(const tflc__flex *f, uint32_t at, uint32_t w,
                             uint32_t *out) {
  uint64_t off;
  if ((uint64_t)at + w > f->size)
    return 0;
  off = tflc__flex_u(f->b + at, w);
  if (off > at)
    return 0;
  *out = at - (uint32_t)off;
  return 1;
}
/* A sized vector of `count` elements of width w starting at `at`, plus
 * `extra` bytes per element after it, lies inside the buffer. */
static int tflc__flex_span_ok(const tflc__flex *f, uint32_t at, uint64_t count,
                              uint32_t w, uint32_t extra) {
  return count <= f->size && (uint64_t)at + count * (w + extra) <= f->size;
}
/* Opens the root map or vector of `size` bytes at b: 1 when every offset
 * and size of the root and (for a map) of its keys is inside the buffer
 * and every key is NUL-terminated inside it; 0 otherwise (*f zeroed). */
static int tflc__flex_open(tflc__flex *f, const uint8_t *b, uint32_t size) {
  uint32_t rw, packed, type, at, i;
  uint64_t n;
  memset(f, 0, sizeof *f);
  if (!b || size < 3)
    return 0;
  f->b = b;
  f->size = size;
  rw = b[size - 1];
  packed = b[size - 2];
  type = packed >> 2;
  f->width = 1u << (packed & 3);
  if (!tflc__flex_width_ok(rw) || size < 2 + rw ||
      (type != TFLC__FLEX_MAP && type != TFLC__FLEX_VECTOR))
    goto bad;
  at = size - 2 - rw;
  if (!tflc__flex_target(f, at, rw, &f->elems) || f->elems < f->width)
    goto bad;
  n = tflc__flex_u(b + f->elems - f->width, f->width);
  if (!tflc__flex_span_ok(f, f->elems, n, f->width, 1))
    goto bad;
  f->count = (uint32_t)n;
  if (type == TFLC__FLEX_VECTOR)
    return 1;
  /* map: [keys offset][keys width][count] values... types... */
  if (f->elems < 3 * f->width)
    goto bad;
  f->key_width =
      (uint32_t)tflc__flex_u(b + f->elems - 2 * f->width, f->width) & 0xFF;
  if (!tflc__flex_width_ok(
          tflc__flex_u(b + f->elems - 2 * f->width, f->width)) ||
      !tflc__flex_target(f, f->elems - 3 * f->width, f->width, &f->keys) ||
      f->keys < f->key_width)
    goto bad;
  n = tflc__flex_u(b + f->keys - f->key_width, f->key_width);
  if (n != f->count || !tflc__flex_span_ok(f, f->keys, n, f->key_width, 0))
    goto bad;
  for (i = 0; i < f->count; i++) {
    uint32_t k;
    if (!tflc__flex_target(f, f->keys + i * f->key_width, f->key_width, &k) ||
        !memchr(b + k, 0, size - k))
      goto bad;
  }
  return 1;
bad:
  memset(f, 0, sizeof *f);
  return 0;
}
/* Index of `key` in the opened map, or -1 (also for a vector). */
static int32_t tflc__flex_find(const tflc__flex *f, const char *key) {
  uint32_t i, k;
  if (!f->keys)
    return -1;
  for (i = 0; i < f->count; i++)
    if (tflc__flex_target(f, f->keys + i * f->key_width, f->key_width, &k) &&
        strcmp((const char *)(f->b + k), key) == 0)
      return (int32_t)i;
  return -1;
}
/* Element i as a number, the conversions of FlexBuffers' AsInt64 (*iv)
 * and AsDouble (*dv): integers, unsigned, floats (truncated toward zero
 * for *iv), booleans, their indirect forms; AsBool is *iv != 0. Null and a
 * missing element (i < 0 or past the end) read 0. Returns 0 when the
 * element is of another type or an indirect value leaves the buffer. */
static int tflc__flex_number(const tflc__flex *f, int32_t i, int64_t *iv,
                             double *dv) {
  uint32_t at, type, w, bw, target;
  const uint8_t *p;
  int is_float = 0, is_unsigned = 0;
  int64_t v = 0;
  double d = 0.0;
  if (i < 0 || (uint32_t)i >= f->count) {
    *iv = 0;
    *dv = 0.0;
    return 1;
  }
  at = f->elems + (uint32_t)i * f->width;
  type = f->b[f->elems + f->count * f->width + (uint32_t)i] >> 2u;
  bw = 1u << (f->b[f->elems + f->count * f->width + (uint32_t)i] & 3u);
  w = f->width;
  p = f->b + at;
  switch (type) {
  case TFLC__FLEX_NULL:
    break;
  case TFLC__FLEX_INT:
  case TFLC__FLEX_BOOL:
    is_unsigned = type == TFLC__FLEX_BOOL;
    break;
  case TFLC__FLEX_UINT:
    is_unsigned = 1;
    break;
  case TFLC__FLEX_FLOAT:
    is_float = 1;
    break;
  case TFLC__FLEX_INDIRECT_INT:
  case TFLC__FLEX_INDIRECT_UINT:
  case TFLC__FLEX_INDIRECT_FLOAT:
    if (!tflc__flex_target(f, at, w, &target) ||
        (uint64_t)target + bw > f->size)
      return 0;
    p = f->b + target;
    w = bw;
    is_unsigned = type == TFLC__FLEX_INDIRECT_UINT;
    is_float = type == TFLC__FLEX_INDIRECT_FLOAT;
    break;
  default:
    return 0;
  }
  if (type == TFLC__FLEX_NULL) {
    v = 0;
    d = 0.0;
  } else if (is_float) {
    /* 8- and 16-bit floats are read as integers, as FlexBuffers does */
    if (w == 8) {
      uint64_t u = tflc__flex_u(p, 8);
      memcpy(&d, &u, 8);
    } else if (w == 4) {
      d = (double)tflc__f32(p);
    } else {
      d = (double)tflc__flex_s(p, w);
    }
    v = d != d || d >= 9.2e18 || d <= -9.2e18 ? 0 : (int64_t)d;
  } else if (is_unsigned) {
    uint64_t u = tflc__flex_u(p, w);
    memcpy(&v, &u, 8);
    d = (double)u;
  } else {
    v = tflc__flex_s(p, w);
    d = (double)v;
  }
  *iv = v;
  *dv = d;
  return 1;
}
/* 1 when element i is missing (i < 0, past the end) or a null. */
static int tflc__flex_is_null(const tflc__flex *f, int32_t i) {
  return i < 0 || (uint32_t)i >= f->count ||
         f->b[f->elems + f->count * f->width + (uint32_t)i] >> 2 ==
             TFLC__FLEX_NULL;
}
/* The raw slot of element i, read as a signed integer of the vector's
 * width whatever its type (TFLM's FlexbufferWrapper::ElementAsInt64, how
 * the Signal operators read their options by index); dflt past the end. */
static int64_t tflc__flex_element_int(const tflc__flex *f, int32_t i,
                                      int64_t dflt) {
  if (i < 0 || (uint32_t)i >= f->count)
    return dflt;
  return tflc__flex_s(f->b + f->elems + (uint32_t)i * f->width, f->width);
}

/* ======================================================================== */
/* Model view: schema slots (reference: COMPRESSION_RUNTIME.md section 7).  */
/* ======================================================================== */
enum {
  TFLC__MODEL_VERSION = 0,
  TFLC__MODEL_OPCODES = 1,
  TFLC__MODEL_SUBGRAPHS = 2,
  TFLC__MODEL_BUFFERS = 4,
  TFLC__MODEL_METADATA = 6,
  TFLC__SG_TENSORS = 0,
  TFLC__SG_INPUTS = 1,
  TFLC__SG_OUTPUTS = 2,
  TFLC__SG_OPERATORS = 3,
  TFLC__T_SHAPE = 0,
  TFLC__T_TYPE = 1,
  TFLC__T_BUFFER = 2,
  TFLC__T_NAME = 3,
  TFLC__T_QUANT = 4,
  TFLC__T_VARIABLE = 5,
  TFLC__T_SPARSITY = 6,
  TFLC__BUF_DATA = 0,
  TFLC__BUF_OFFSET = 1,
  TFLC__BUF_SIZE = 2,
  TFLC__OP_OPCODE = 0,
  TFLC__OP_INPUTS = 1,
  TFLC__OP_OUTPUTS = 2,
  TFLC__OP_OPTTYPE = 3,
  TFLC__OP_OPTS = 4,
  TFLC__OP_CUSTOM_OPTIONS = 5,
  TFLC__OC_DEPRECATED = 0,
  TFLC__OC_CUSTOM = 1,
  TFLC__OC_VERSION = 2,
  TFLC__OC_BUILTIN = 3,
  TFLC__Q_SCALE = 2,
  TFLC__Q_ZP = 3,
  TFLC__Q_DIM = 6,
  TFLC__MD_NAME = 0,
  TFLC__MD_BUFFER = 1
};

static tflc__fb tflc__mfb(const tflc_model *m) {
  tflc__fb fb;
  fb.b = m->bytes;
  fb.n = (uint32_t)m->size;
  return fb;
}
static uint32_t tflc__subgraph(const tflc_model *m, int32_t sg) {
  return tflc__vec_table(tflc__mfb(m), m->subgraphs, (uint32_t)sg);
}
static uint32_t tflc__sg_vec(const tflc_model *m, uint32_t sgt, uint32_t slot,
                             uint32_t esz, uint32_t *len) {
  return tflc__get_vec(tflc__mfb(m), sgt, slot, esz, len);
}
static uint32_t tflc__tensor_table(const tflc_model *m, uint32_t sgt,
                                   int32_t t) {
  uint32_t n, v = tflc__sg_vec(m, sgt, TFLC__SG_TENSORS, 4, &n);
  if (!v || t < 0 || (uint32_t)t >= n)
    return 0;
  return tflc__vec_table(tflc__mfb(m), v, (uint32_t)t);
}
static uint32_t tflc__op_table(const tflc_model *m, uint32_t sgt, int32_t i) {
  uint32_t n, v = tflc__sg_vec(m, sgt, TFLC__SG_OPERATORS, 4, &n);
  if (!v || i < 0 || (uint32_t)i >= n)
    return 0;
  return tflc__vec_table(tflc__mfb(m), v, (uint32_t)i);
}
/* ---- builtin options: typed readers --------------------------------------
 * One struct per BuiltinOptions table the operators read, with the
 * schema's field names and defaults (schema.fbs of TFLite), and its reader
 * `tflc__read_<table>(model, table, &options)`. The enum beside each
 * struct names the table's field slots in schema order: the only option
 * slot numbers in this file. A reader given table 0 (an operator without
 * options) returns the defaults. Tables of identical layout share a
 * struct. The BuiltinOptions union numbers, by table name (the operator
 * table's `options` column names them; a few tables have no reader: the
 * row only names the type the verifier expects). */
enum {
  TFLC__OPTIONS_NONE = 0, /* in the operator table: options not checked */
  TFLC__OPTIONS_CONV2D = 1,
  TFLC__OPTIONS_DEPTHWISE_CONV2D = 2,
  TFLC__OPTIONS_POOL2D = 5,
  TFLC__OPTIONS_SVDF = 6,
  TFLC__OPTIONS_FULLY_CONNECTED = 8,
  TFLC__OPTIONS_SOFTMAX = 9,
  TFLC__OPTIONS_CONCATENATION = 10,
  TFLC__OPTIONS_ADD = 11,
  TFLC__OPTIONS_L2NORM = 12,
  TFLC__OPTIONS_RESIZE_BILINEAR = 15,
  TFLC__OPTIONS_RESHAPE = 17,
  TFLC__OPTIONS_SPACE_TO_DEPTH = 19,
  TFLC__OPTIONS_MUL = 21,
  TFLC__OPTIONS_PAD = 22,
  TFLC__OPTIONS_GATHER = 23,
  TFLC__OPTIONS_BATCH_TO_SPACE_ND = 24,
  TFLC__OPTIONS_SPACE_TO_BATCH_ND = 25,
  TFLC__OPTIONS_TRANSPOSE = 26,
  TFLC__OPTIONS_REDUCER = 27,
  TFLC__OPTIONS_SUB = 28,
  TFLC__OPTIONS_DIV = 29,
  TFLC__OPTIONS_SQUEEZE = 30,
  TFLC__OPTIONS_STRIDED_SLICE = 32,
  TFLC__OPTIONS_EXP = 33,
  TFLC__OPTIONS_LOG_SOFTMAX = 36,
  TFLC__OPTIONS_CAST = 37,
  TFLC__OPTIONS_DEQUANTIZE = 38,
  TFLC__OPTIONS_MAXIMUM_MINIMUM = 39,
  TFLC__OPTIONS_ARG_MAX = 40,
  TFLC__OPTIONS_LESS = 41,
  TFLC__OPTIONS_NEG = 42,
  TFLC__OPTIONS_PADV2 = 43,
  TFLC__OPTIONS_GREATER = 44,
  TFLC__OPTIONS_GREATER_EQUAL = 45,
  TFLC__OPTIONS_LESS_EQUAL = 46,
  TFLC__OPTIONS_SLICE = 48,
  TFLC__OPTIONS_TRANSPOSE_CONV = 49,
  TFLC__OPTIONS_EQUAL = 53,
  TFLC__OPTIONS_NOT_EQUAL = 54,
  TFLC__OPTIONS_SHAPE = 55,
  TFLC__OPTIONS_PACK = 59,
  TFLC__OPTIONS_LOGICAL_OR = 60,
  TFLC__OPTIONS_LOGICAL_AND = 62,
  TFLC__OPTIONS_LOGICAL_NOT = 63,
  TFLC__OPTIONS_UNPACK = 64,
  TFLC__OPTIONS_FLOOR_DIV = 65,
  TFLC__OPTIONS_SQUARE = 66,
  TFLC__OPTIONS_FILL = 68,
  TFLC__OPTIONS_UNIDIRECTIONAL_SEQUENCE_LSTM = 71,
  TFLC__OPTIONS_FLOOR_MOD = 72,
  TFLC__OPTIONS_RESIZE_NEAREST_NEIGHBOR = 74,
  TFLC__OPTIONS_LEAKY_RELU = 75,
  TFLC__OPTIONS_SQUARED_DIFFERENCE = 76,
  TFLC__OPTIONS_MIRROR_PAD = 77,
  TFLC__OPTIONS_ABS = 78,
  TFLC__OPTIONS_REVERSE_V2 = 81,
  TFLC__OPTIONS_ADD_N = 82,
  TFLC__OPTIONS_GATHER_ND = 83,
  TFLC__OPTIONS_COS = 84,
  TFLC__OPTIONS_QUANTIZE = 89,
  TFLC__OPTIONS_HARD_SWISH = 91,
  TFLC__OPTIONS_IF = 92,
  TFLC__OPTIONS_WHILE = 93,
  TFLC__OPTIONS_DEPTH_TO_SPACE = 94,
  TFLC__OPTIONS_SELECT_V2 = 98,
  TFLC__OPTIONS_BATCH_MATMUL = 101,
  TFLC__OPTIONS_CUMSUM = 102,
  TFLC__OPTIONS_CALL_ONCE = 103,
  TFLC__OPTIONS_BROADCAST_TO = 104,
  TFLC__OPTIONS_VAR_HANDLE = 111,
  TFLC__OPTIONS_READ_VARIABLE = 112,
  TFLC__OPTIONS_ASSIGN_VARIABLE = 113,
  TFLC__OPTIONS_DYNAMIC_UPDATE_SLICE = 117
};
/* Padding: SAME 0, VALID 1. Fused activation (ActivationFunctionType):
 * NONE 0, RELU 1, RELU_N1_TO_1 2, RELU6 3, TANH 4, SIGN_BIT 5. Tensor
 * types are the schema's TensorType numbers (tflc_type). */

/* Conv2DOptions (CONV_2D) */
enum {
  TFLC__CONV2D_PADDING = 0,
  TFLC__CONV2D_STRIDE_W = 1,
  TFLC__CONV2D_STRIDE_H = 2,
  TFLC__CONV2D_FUSED_ACTIVATION_FUNCTION = 3,
  TFLC__CONV2D_DILATION_W_FACTOR = 4,
  TFLC__CONV2D_DILATION_H_FACTOR = 5,
  TFLC__CONV2D_QUANTIZED_BIAS_TYPE = 6
};
typedef struct tflc__conv2d_options {
  int32_t padding, stride_w, stride_h, fused_activation_function;
  int32_t dilation_w_factor, dilation_h_factor; /* default 1 */
  int32_t quantized_bias_type;
} tflc__conv2d_options;
static void tflc__read_conv2d_options(const tflc_model *m, uint32_t t,
                                      tflc__conv2d_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->padding = (int32_t)tflc__get_u8(fb, t, TFLC__CONV2D_PADDING, 0);
  o->stride_w = tflc__get_i32(fb, t, TFLC__CONV2D_STRIDE_W, 0);
  o->stride_h = tflc__get_i32(fb, t, TFLC__CONV2D_STRIDE_H, 0);
  o->fused_activation_function =
      (int32_t)tflc__get_u8(fb, t, TFLC__CONV2D_FUSED_ACTIVATION_FUNCTION, 0);
  o->dilation_w_factor =
      tflc__get_i32(fb, t, TFLC__CONV2D_DILATION_W_FACTOR, 1);
  o->dilation_h_factor =
      tflc__get_i32(fb, t, TFLC__CONV2D_DILATION_H_FACTOR, 1);
  o->quantized_bias_type =
      (int32_t)tflc__get_u8(fb, t, TFLC__CONV2D_QUANTIZED_BIAS_TYPE, 0);
}

/* DepthwiseConv2DOptions (DEPTHWISE_CONV_2D) */
enum {
  TFLC__DEPTHWISE_CONV2D_PADDING = 0,
  TFLC__DEPTHWISE_CONV2D_STRIDE_W = 1,
  TFLC__DEPTHWISE_CONV2D_STRIDE_H = 2,
  TFLC__DEPTHWISE_CONV2D_DEPTH_MULTIPLIER = 3,
  TFLC__DEPTHWISE_CONV2D_FUSED_ACTIVATION_FUNCTION = 4,
  TFLC__DEPTHWISE_CONV2D_DILATION_W_FACTOR = 5,
  TFLC__DEPTHWISE_CONV2D_DILATION_H_FACTOR = 6
};
typedef struct tflc__depthwise_conv2d_options {
  int32_t padding, stride_w, stride_h, depth_multiplier;
  int32_t fused_activation_function;
  int32_t dilation_w_factor, dilation_h_factor; /* default 1 */
} tflc__depthwise_conv2d_options;
static void
tflc__read_depthwise_conv2d_options(const tflc_model *m, uint32_t t,
                                    tflc__depthwise_conv2d_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->padding = (int32_t)tflc__get_u8(fb, t, TFLC__DEPTHWISE_CONV2D_PADDING, 0);
  o->stride_w = tflc__get_i32(fb, t, TFLC__DEPTHWISE_CONV2D_STRIDE_W, 0);
  o->stride_h = tflc__get_i32(fb, t, TFLC__DEPTHWISE_CONV2D_STRIDE_H, 0);
  o->depth_multiplier =
      tflc__get_i32(fb, t, TFLC__DEPTHWISE_CONV2D_DEPTH_MULTIPLIER, 0);
  o->fused_activation_function = (int32_t)tflc__get_u8(
      fb, t, TFLC__DEPTHWISE_CONV2D_FUSED_ACTIVATION_FUNCTION, 0);
  o->dilation_w_factor =
      tflc__get_i32(fb, t, TFLC__DEPTHWISE_CONV2D_DILATION_W_FACTOR, 1);
  o->dilation_h_factor =
      tflc__get_i32(fb, t, TFLC__DEPTHWISE_CONV2D_DILATION_H_FACTOR, 1);
}

/* TransposeConvOptions (TRANSPOSE_CONV) */
enum {
  TFLC__TRANSPOSE_CONV_PADDING = 0,
  TFLC__TRANSPOSE_CONV_STRIDE_W = 1,
  TFLC__TRANSPOSE_CONV_STRIDE_H = 2,
  TFLC__TRANSPOSE_CONV_FUSED_ACTIVATION_FUNCTION = 3,
  TFLC__TRANSPOSE_CONV_QUANTIZED_BIAS_TYPE = 4
};
typedef struct tflc__transpose_conv_options {
  int32_t padding, stride_w, stride_h, fused_activation_function;
  int32_t quantized_bias_type;
} tflc__transpose_conv_options;
static void tflc__read_transpose_conv_options(const tflc_model *m, uint32_t t,
                                              tflc__transpose_conv_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->padding = (int32_t)tflc__get_u8(fb, t, TFLC__TRANSPOSE_CONV_PADDING, 0);
  o->stride_w = tflc__get_i32(fb, t, TFLC__TRANSPOSE_CONV_STRIDE_W, 0);
  o->stride_h = tflc__get_i32(fb, t, TFLC__TRANSPOSE_CONV_STRIDE_H, 0);
  o->fused_activation_function = (int32_t)tflc__get_u8(
      fb, t, TFLC__TRANSPOSE_CONV_FUSED_ACTIVATION_FUNCTION, 0);
  o->quantized_bias_type =
      (int32_t)tflc__get_u8(fb, t, TFLC__TRANSPOSE_CONV_QUANTIZED_BIAS_TYPE, 0);
}

/* Pool2DOptions (AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D) */
enum {
  TFLC__POOL2D_PADDING = 0,
  TFLC__POOL2D_STRIDE_W = 1,
  TFLC__POOL2D_STRIDE_H = 2,
  TFLC__POOL2D_FILTER_WIDTH = 3,
  TFLC__POOL2D_FILTER_HEIGHT = 4,
  TFLC__POOL2D_FUSED_ACTIVATION_FUNCTION = 5
};
typedef struct tflc__pool2d_options {
  int32_t padding, stride_w, stride_h, filter_width, filter_height;
  int32_t fused_activation_function;
} tflc__pool2d_options;
static void tflc__read_pool2d_options(const tflc_model *m, uint32_t t,
                                      tflc__pool2d_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->padding = (int32_t)tflc__get_u8(fb, t, TFLC__POOL2D_PADDING, 0);
  o->stride_w = tflc__get_i32(fb, t, TFLC__POOL2D_STRIDE_W, 0);
  o->stride_h = tflc__get_i32(fb, t, TFLC__POOL2D_STRIDE_H, 0);
  o->filter_width = tflc__get_i32(fb, t, TFLC__POOL2D_FILTER_WIDTH, 0);
  o->filter_height = tflc__get_i32(fb, t, TFLC__POOL2D_FILTER_HEIGHT, 0);
  o->fused_activation_function =
      (int32_t)tflc__get_u8(fb, t, TFLC__POOL2D_FUSED_ACTIVATION_FUNCTION, 0);
}

/* FullyConnectedOptions (FULLY_CONNECTED) */
enum {
  TFLC__FULLY_CONNECTED_FUSED_ACTIVATION_FUNCTION = 0,
  TFLC__FULLY_CONNECTED_WEIGHTS_FORMAT = 1,
  TFLC__FULLY_CONNECTED_KEEP_NUM_DIMS = 2,
  TFLC__FULLY_CONNECTED_ASYMMETRIC_QUANTIZE_INPUTS = 3,
  TFLC__FULLY_CONNECTED_QUANTIZED_BIAS_TYPE = 4
};
typedef struct tflc__fully_connected_options {
  int32_t fused_activation_function;
  int32_t weights_format; /* 0 DEFAULT, 1 SHUFFLED4x16INT8 */
  int32_t keep_num_dims, asymmetric_quantize_inputs; /* bools */
  int32_t quantized_bias_type;
} tflc__fully_connected_options;
static void
tflc__read_fully_connected_options(const tflc_model *m, uint32_t t,
                                   tflc__fully_connected_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->fused_activation_function = (int32_t)tflc__get_u8(
      fb, t, TFLC__FULLY_CONNECTED_FUSED_ACTIVATION_FUNCTION, 0);
  o->weights_format =
      (int32_t)tflc__get_u8(fb, t, TFLC__FULLY_CONNECTED_WEIGHTS_FORMAT, 0);
  o->keep_num_dims =
      tflc__get_u8(fb, t, TFLC__FULLY_CONNECTED_KEEP_NUM_DIMS, 0) != 0;
  o->asymmetric_quantize_inputs =
      tflc__get_u8(fb, t, TFLC__FULLY_CONNECTED_ASYMMETRIC_QUANTIZE_INPUTS,
                   0) != 0;
  o->quantized_bias_type = (int32_t)tflc__get_u8(
      fb, t, TFLC__FULLY_CONNECTED_QUANTIZED_BIAS_TYPE, 0);
}

/* SVDFOptions (SVDF) */
enum {
  TFLC__SVDF_RANK = 0,
  TFLC__SVDF_FUSED_ACTIVATION_FUNCTION = 1,
  TFLC__SVDF_ASYMMETRIC_QUANTIZE_INPUTS = 2
};
typedef struct tflc__svdf_options {
  int32_t rank, fused_activation_function;
  int32_t asymmetric_quantize_inputs; /* bool */
} tflc__svdf_options;
static void tflc__read_svdf_options(const tflc_model *m, uint32_t t,
                                    tflc__svdf_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->rank = tflc__get_i32(fb, t, TFLC__SVDF_RANK, 0);
  o->fused_activation_function =
      (int32_t)tflc__get_u8(fb, t, TFLC__SVDF_FUSED_ACTIVATION_FUNCTION, 0);
  o->asymmetric_quantize_inputs =
      tflc__get_u8(fb, t, TFLC__SVDF_ASYMMETRIC_QUANTIZE_INPUTS, 0) != 0;
}

/* UnidirectionalSequenceLSTMOptions (UNIDIRECTIONAL_SEQUENCE_LSTM) */
enum {
  TFLC__SEQUENCE_LSTM_FUSED_ACTIVATION_FUNCTION = 0,
  TFLC__SEQUENCE_LSTM_CELL_CLIP = 1,
  TFLC__SEQUENCE_LSTM_PROJ_CLIP = 2,
  TFLC__SEQUENCE_LSTM_TIME_MAJOR = 3,
  TFLC__SEQUENCE_LSTM_ASYMMETRIC_QUANTIZE_INPUTS = 4,
  TFLC__SEQUENCE_LSTM_DIAGONAL_RECURRENT_TENSORS = 5
};
typedef struct tflc__sequence_lstm_options {
  int32_t fused_activation_function;
  float cell_clip, proj_clip;
  int32_t time_major, asymmetric_quantize_inputs; /* bools */
  int32_t diagonal_recurrent_tensors;             /* bool */
} tflc__sequence_lstm_options;
static void tflc__read_sequence_lstm_options(const tflc_model *m, uint32_t t,
                                             tflc__sequence_lstm_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->fused_activation_function = (int32_t)tflc__get_u8(
      fb, t, TFLC__SEQUENCE_LSTM_FUSED_ACTIVATION_FUNCTION, 0);
  o->cell_clip = tflc__get_f32(fb, t, TFLC__SEQUENCE_LSTM_CELL_CLIP, 0.0f);
  o->proj_clip = tflc__get_f32(fb, t, TFLC__SEQUENCE_LSTM_PROJ_CLIP, 0.0f);
  o->time_major = tflc__get_u8(fb, t, TFLC__SEQUENCE_LSTM_TIME_MAJOR, 0) != 0;
  o->asymmetric_quantize_inputs =
      tflc__get_u8(fb, t, TFLC__SEQUENCE_LSTM_ASYMMETRIC_QUANTIZE_INPUTS, 0) !=
      0;
  o->diagonal_recurrent_tensors =
      tflc__get_u8(fb, t, TFLC__SEQUENCE_LSTM_DIAGONAL_RECURRENT_TENSORS, 0) !=
      0;
}

/* BatchMatMulOptions (BATCH_MATMUL) */
enum {
  TFLC__BATCH_MATMUL_ADJ_X = 0,
  TFLC__BATCH_MATMUL_ADJ_Y = 1,
  TFLC__BATCH_MATMUL_ASYMMETRIC_QUANTIZE_INPUTS = 2
};
typedef struct tflc__batch_matmul_options {
  int32_t adj_x, adj_y, asymmetric_quantize_inputs; /* bools */
} tflc__batch_matmul_options;
static void tflc__read_batch_matmul_options(const tflc_model *m, uint32_t t,
                                            tflc__batch_matmul_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->adj_x = tflc__get_u8(fb, t, TFLC__BATCH_MATMUL_ADJ_X, 0) != 0;
  o->adj_y = tflc__get_u8(fb, t, TFLC__BATCH_MATMUL_ADJ_Y, 0) != 0;
  o->asymmetric_quantize_inputs =
      tflc__get_u8(fb, t, TFLC__BATCH_MATMUL_ASYMMETRIC_QUANTIZE_INPUTS, 0) !=
      0;
}

/* SoftmaxOptions (SOFTMAX) */
enum { TFLC__SOFTMAX_BETA = 0 };
typedef struct tflc__softmax_options {
  float beta;
} tflc__softmax_options;
static void tflc__read_softmax_options(const tflc_model *m, uint32_t t,
                                       tflc__softmax_options *o) {
  o->beta = tflc__get_f32(tflc__mfb(m), t, TFLC__SOFTMAX_BETA, 0.0f);
}

/* LeakyReluOptions (LEAKY_RELU) */
enum { TFLC__LEAKY_RELU_ALPHA = 0 };
typedef struct tflc__leaky_relu_options {
  float alpha;
} tflc__leaky_relu_options;
static void tflc__read_leaky_relu_options(const tflc_model *m, uint32_t t,
                                          tflc__leaky_relu_options *o) {
  o->alpha = tflc__get_f32(tflc__mfb(m), t, TFLC__LEAKY_RELU_ALPHA, 0.0f);
}

/* AddOptions (ADD) and SubOptions (SUB), the same fields */
enum {
  TFLC__ADD_SUB_FUSED_ACTIVATION_FUNCTION = 0,
  TFLC__ADD_SUB_POT_SCALE_INT16 = 1
};
typedef struct tflc__add_sub_options {
  int32_t fused_activation_function;
  int32_t pot_scale_int16; /* bool, default true */
} tflc__add_sub_options;
static void tflc__read_add_sub_options(const tflc_model *m, uint32_t t,
                                       tflc__add_sub_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->fused_activation_function =
      (int32_t)tflc__get_u8(fb, t, TFLC__ADD_SUB_FUSED_ACTIVATION_FUNCTION, 0);
  o->pot_scale_int16 =
      tflc__get_u8(fb, t, TFLC__ADD_SUB_POT_SCALE_INT16, 1) != 0;
}

/* MulOptions (MUL), DivOptions (DIV), L2NormOptions (L2_NORMALIZATION):
 * the fused activation alone */
enum { TFLC__ACTIVATION_ONLY_FUSED_ACTIVATION_FUNCTION = 0 };
typedef struct tflc__activation_only_options {
  int32_t fused_activation_function;
} tflc__activation_only_options;
static void
tflc__read_activation_only_options(const tflc_model *m, uint32_t t,
                                   tflc__activation_only_options *o) {
  o->fused_activation_function = (int32_t)tflc__get_u8(
      tflc__mfb(m), t, TFLC__ACTIVATION_ONLY_FUSED_ACTIVATION_FUNCTION, 0);
}

/* ConcatenationOptions (CONCATENATION) */
enum {
  TFLC__CONCATENATION_AXIS = 0,
  TFLC__CONCATENATION_FUSED_ACTIVATION_FUNCTION = 1
};
typedef struct tflc__concatenation_options {
  int32_t axis, fused_activation_function;
} tflc__concatenation_options;
static void tflc__read_concatenation_options(const tflc_model *m, uint32_t t,
                                             tflc__concatenation_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->axis = tflc__get_i32(fb, t, TFLC__CONCATENATION_AXIS, 0);
  o->fused_activation_function = (int32_t)tflc__get_u8(
      fb, t, TFLC__CONCATENATION_FUSED_ACTIVATION_FUNCTION, 0);
}

/* PackOptions (PACK) */
enum { TFLC__PACK_VALUES_COUNT = 0, TFLC__PACK_AXIS = 1 };
typedef struct tflc__pack_options {
  int32_t values_count, axis;
} tflc__pack_options;
static void tflc__read_pack_options(const tflc_model *m, uint32_t t,
                                    tflc__pack_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->values_count = tflc__get_i32(fb, t, TFLC__PACK_VALUES_COUNT, 0);
  o->axis = tflc__get_i32(fb, t, TFLC__PACK_AXIS, 0);
}

/* UnpackOptions (UNPACK) */
enum { TFLC__UNPACK_NUM = 0, TFLC__UNPACK_AXIS = 1 };
typedef struct tflc__unpack_options {
  int32_t num, axis;
} tflc__unpack_options;
static void tflc__read_unpack_options(const tflc_model *m, uint32_t t,
                                      tflc__unpack_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->num = tflc__get_i32(fb, t, TFLC__UNPACK_NUM, 0);
  o->axis = tflc__get_i32(fb, t, TFLC__UNPACK_AXIS, 0);
}

/* GatherOptions (GATHER) */
enum { TFLC__GATHER_AXIS = 0, TFLC__GATHER_BATCH_DIMS = 1 };
typedef struct tflc__gather_options {
  int32_t axis, batch_dims;
} tflc__gather_options;
static void tflc__read_gather_options(const tflc_model *m, uint32_t t,
                                      tflc__gather_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->axis = tflc__get_i32(fb, t, TFLC__GATHER_AXIS, 0);
  o->batch_dims = tflc__get_i32(fb, t, TFLC__GATHER_BATCH_DIMS, 0);
}

/* StridedSliceOptions (STRIDED_SLICE) */
enum {
  TFLC__STRIDED_SLICE_BEGIN_MASK = 0,
  TFLC__STRIDED_SLICE_END_MASK = 1,
  TFLC__STRIDED_SLICE_ELLIPSIS_MASK = 2,
  TFLC__STRIDED_SLICE_NEW_AXIS_MASK = 3,
  TFLC__STRIDED_SLICE_SHRINK_AXIS_MASK = 4,
  TFLC__STRIDED_SLICE_OFFSET = 5
};
typedef struct tflc__strided_slice_options {
  int32_t begin_mask, end_mask, ellipsis_mask, new_axis_mask;
  int32_t shrink_axis_mask;
  int32_t offset; /* bool */
} tflc__strided_slice_options;
static void tflc__read_strided_slice_options(const tflc_model *m, uint32_t t,
                                             tflc__strided_slice_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->begin_mask = tflc__get_i32(fb, t, TFLC__STRIDED_SLICE_BEGIN_MASK, 0);
  o->end_mask = tflc__get_i32(fb, t, TFLC__STRIDED_SLICE_END_MASK, 0);
  o->ellipsis_mask = tflc__get_i32(fb, t, TFLC__STRIDED_SLICE_ELLIPSIS_MASK, 0);
  o->new_axis_mask = tflc__get_i32(fb, t, TFLC__STRIDED_SLICE_NEW_AXIS_MASK, 0);
  o->shrink_axis_mask =
      tflc__get_i32(fb, t, TFLC__STRIDED_SLICE_SHRINK_AXIS_MASK, 0);
  o->offset = tflc__get_u8(fb, t, TFLC__STRIDED_SLICE_OFFSET, 0) != 0;
}

/* SpaceToDepthOptions (SPACE_TO_DEPTH) and DepthToSpaceOptions
 * (DEPTH_TO_SPACE), the same field */
enum { TFLC__SPACE_DEPTH_BLOCK_SIZE = 0 };
typedef struct tflc__space_depth_options {
  int32_t block_size;
} tflc__space_depth_options;
static void tflc__read_space_depth_options(const tflc_model *m, uint32_t t,
                                           tflc__space_depth_options *o) {
  o->block_size =
      tflc__get_i32(tflc__mfb(m), t, TFLC__SPACE_DEPTH_BLOCK_SIZE, 0);
}

/* ResizeBilinearOptions (RESIZE_BILINEAR; slots 0 and 1, new_height and
 * new_width, are deprecated) and ResizeNearestNeighborOptions
 * (RESIZE_NEAREST_NEIGHBOR): one struct, two layouts */
enum {
  TFLC__RESIZE_BILINEAR_ALIGN_CORNERS = 2,
  TFLC__RESIZE_BILINEAR_HALF_PIXEL_CENTERS = 3,
  TFLC__RESIZE_NEAREST_NEIGHBOR_ALIGN_CORNERS = 0,
  TFLC__RESIZE_NEAREST_NEIGHBOR_HALF_PIXEL_CENTERS = 1
};
typedef struct tflc__resize_options {
  int32_t align_corners, half_pixel_centers; /* bools */
} tflc__resize_options;
static void tflc__read_resize_bilinear_options(const tflc_model *m, uint32_t t,
                                               tflc__resize_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->align_corners =
      tflc__get_u8(fb, t, TFLC__RESIZE_BILINEAR_ALIGN_CORNERS, 0) != 0;
  o->half_pixel_centers =
      tflc__get_u8(fb, t, TFLC__RESIZE_BILINEAR_HALF_PIXEL_CENTERS, 0) != 0;
}
static void
tflc__read_resize_nearest_neighbor_options(const tflc_model *m, uint32_t t,
                                           tflc__resize_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->align_corners =
      tflc__get_u8(fb, t, TFLC__RESIZE_NEAREST_NEIGHBOR_ALIGN_CORNERS, 0) != 0;
  o->half_pixel_centers =
      tflc__get_u8(fb, t, TFLC__RESIZE_NEAREST_NEIGHBOR_HALF_PIXEL_CENTERS,
                   0) != 0;
}

/* SqueezeOptions (SQUEEZE) */
enum { TFLC__SQUEEZE_SQUEEZE_DIMS = 0 };
typedef struct tflc__squeeze_options {
  uint32_t squeeze_dims; /* position of the first int32 in the model; 0 */
  uint32_t num_squeeze_dims;
} tflc__squeeze_options;
static void tflc__read_squeeze_options(const tflc_model *m, uint32_t t,
                                       tflc__squeeze_options *o) {
  o->num_squeeze_dims = 0;
  o->squeeze_dims = tflc__get_vec(tflc__mfb(m), t, TFLC__SQUEEZE_SQUEEZE_DIMS,
                                  4, &o->num_squeeze_dims);
}

/* MirrorPadOptions (MIRROR_PAD) */
enum { TFLC__MIRROR_PAD_MODE = 0 };
typedef struct tflc__mirror_pad_options {
  int32_t mode; /* 0 REFLECT, 1 SYMMETRIC */
} tflc__mirror_pad_options;
static void tflc__read_mirror_pad_options(const tflc_model *m, uint32_t t,
                                          tflc__mirror_pad_options *o) {
  o->mode = (int32_t)tflc__get_u8(tflc__mfb(m), t, TFLC__MIRROR_PAD_MODE, 0);
}

/* CumsumOptions (CUMSUM) */
enum { TFLC__CUMSUM_EXCLUSIVE = 0, TFLC__CUMSUM_REVERSE = 1 };
typedef struct tflc__cumsum_options {
  int32_t exclusive, reverse; /* bools */
} tflc__cumsum_options;
static void tflc__read_cumsum_options(const tflc_model *m, uint32_t t,
                                      tflc__cumsum_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->exclusive = tflc__get_u8(fb, t, TFLC__CUMSUM_EXCLUSIVE, 0) != 0;
  o->reverse = tflc__get_u8(fb, t, TFLC__CUMSUM_REVERSE, 0) != 0;
}

/* VarHandleOptions (VAR_HANDLE) */
enum { TFLC__VAR_HANDLE_CONTAINER = 0, TFLC__VAR_HANDLE_SHARED_NAME = 1 };
typedef struct tflc__var_handle_options {
  const char *container, *shared_name; /* NULL when absent */
  uint32_t container_len, shared_name_len;
} tflc__var_handle_options;
static void tflc__read_var_handle_options(const tflc_model *m, uint32_t t,
                                          tflc__var_handle_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->container_len = 0;
  o->shared_name_len = 0;
  o->container =
      tflc__get_str(fb, t, TFLC__VAR_HANDLE_CONTAINER, &o->container_len);
  o->shared_name =
      tflc__get_str(fb, t, TFLC__VAR_HANDLE_SHARED_NAME, &o->shared_name_len);
}

/* IfOptions (IF), WhileOptions (WHILE), CallOnceOptions (CALL_ONCE): the
 * subgraphs they run */
enum {
  TFLC__IF_THEN_SUBGRAPH_INDEX = 0,
  TFLC__IF_ELSE_SUBGRAPH_INDEX = 1,
  TFLC__WHILE_COND_SUBGRAPH_INDEX = 0,
  TFLC__WHILE_BODY_SUBGRAPH_INDEX = 1,
  TFLC__CALL_ONCE_INIT_SUBGRAPH_INDEX = 0
};
typedef struct tflc__if_options {
  int32_t then_subgraph_index, else_subgraph_index;
} tflc__if_options;
typedef struct tflc__while_options {
  int32_t cond_subgraph_index, body_subgraph_index;
} tflc__while_options;
typedef struct tflc__call_once_options {
  int32_t init_subgraph_index;
} tflc__call_once_options;
static void tflc__read_if_options(const tflc_model *m, uint32_t t,
                                  tflc__if_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->then_subgraph_index =
      tflc__get_i32(fb, t, TFLC__IF_THEN_SUBGRAPH_INDEX, 0);
  o->else_subgraph_index =
      tflc__get_i32(fb, t, TFLC__IF_ELSE_SUBGRAPH_INDEX, 0);
}
static void tflc__read_while_options(const tflc_model *m, uint32_t t,
                                     tflc__while_options *o) {
  const tflc__fb fb = tflc__mfb(m);
  o->cond_subgraph_index =
      tflc__get_i32(fb, t, TFLC__WHILE_COND_SUBGRAPH_INDEX, 0);
  o->body_subgraph_index =
      tflc__get_i32(fb, t, TFLC__WHILE_BODY_SUBGRAPH_INDEX, 0);
}
static void tflc__read_call_once_options(const tflc_model *m, uint32_t t,
                                         tflc__call_once_options *o) {
  o->init_subgraph_index =
      tflc__get_i32(tflc__mfb(m), t, TFLC__CALL_ONCE_INIT_SUBGRAPH_INDEX, 0);
}

/* The options fields the verifier range-checks, by options table (-1: the
 * table has no such field, or tflc has no reader for it): an operator's
 * row names its table, these give the slots. A reader added for a table
 * with padding or a fused activation adds its line here. */
#define TFLC__PADDING_SLOT(options)                                            \
  ((options) == TFLC__OPTIONS_CONV2D ? TFLC__CONV2D_PADDING                    \
   : (options) == TFLC__OPTIONS_DEPTHWISE_CONV2D                               \
       ? TFLC__DEPTHWISE_CONV2D_PADDING                                        \
   : (options) == TFLC__OPTIONS_TRANSPOSE_CONV ? TFLC__TRANSPOSE_CONV_PADDING  \
   : (options) == TFLC__OPTIONS_POOL2D         ? TFLC__POOL2D_PADDING          \
                                               : -1)
#define TFLC__ACTIVATION_SLOT(options)                                         \
  ((options) == TFLC__OPTIONS_CONV2D ? TFLC__CONV2D_FUSED_ACTIVATION_FUNCTION  \
   : (options) == TFLC__OPTIONS_DEPTHWISE_CONV2D                               \
       ? TFLC__DEPTHWISE_CONV2D_FUSED_ACTIVATION_FUNCTION                      \
   : (options) == TFLC__OPTIONS_TRANSPOSE_CONV                                 \
       ? TFLC__TRANSPOSE_CONV_FUSED_ACTIVATION_FUNCTION                        \
   : (options) == TFLC__OPTIONS_POOL2D                                         \
       ? TFLC__POOL2D_FUSED_ACTIVATION_FUNCTION                                \
   : (options) == TFLC__OPTIONS_FULLY_CONNECTED                                \
       ? TFLC__FULLY_CONNECTED_FUSED_ACTIVATION_FUNCTION                       \
   : (options) == TFLC__OPTIONS_SVDF ? TFLC__SVDF_FUSED_ACTIVATION_FUNCTION    \
   : (options) == TFLC__OPTIONS_UNIDIRECTIONAL_SEQUENCE_LSTM                   \
       ? TFLC__SEQUENCE_LSTM_FUSED_ACTIVATION_FUNCTION                         \
   : (options) == TFLC__OPTIONS_ADD || (options) == TFLC__OPTIONS_SUB          \
       ? TFLC__ADD_SUB_FUSED_ACTIVATION_FUNCTION                               \
   : (options) == TFLC__OPTIONS_MUL || (options) == TFLC__OPTIONS_DIV ||       \
           (options) == TFLC__OPTIONS_L2NORM                                   \
       ? TFLC__ACTIVATION_ONLY_FUSED_ACTIVATION_FUNCTION                       \
   : (options) == TFLC__OPTIONS_CONCATENATION                                  \
       ? TFLC__CONCATENATION_FUSED_ACTIVATION_FUNCTION                         \
       : -1)
/* The subgraphs an operator with options table `opts` runs: IF then /
 * else, WHILE cond / body, CALL_ONCE init. Returns how many (0..2). */
static int32_t tflc__op_subgraphs(const tflc_model *m, int32_t code,
                                  uint32_t opts, int32_t out[2]) {
  if (code == TFLC_OP_IF) {
    tflc__if_options o;
    tflc__read_if_options(m, opts, &o);
    out[0] = o.then_subgraph_index;
    out[1] = o.else_subgraph_index;
    return 2;
  }
  if (code == TFLC_OP_WHILE) {
    tflc__while_options o;
    tflc__read_while_options(m, opts, &o);
    out[0] = o.cond_subgraph_index;
    out[1] = o.body_subgraph_index;
    return 2;
  }
  if (code == TFLC_OP_CALL_ONCE) {
    tflc__call_once_options o;
    tflc__read_call_once_options(m, opts, &o);
    out[0] = o.init_subgraph_index;
    return 1;
  }
  return 0;
}
/* Data of buffer b (Buffer.data, or the large-model offset/size form). */
static const uint8_t *tflc__buffer(const tflc_model *m, uint32_t b,
                                   uint32_t *len) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t bt, d;
  uint64_t off, sz;
  *len = 0;
  if (b == 0 || b >= (uint32_t)m->num_buffers)
    return NULL;
  bt = tflc__vec_table(fb, m->buffers, b);
  if (!bt)
    return NULL;
  d = tflc__get_vec(fb, bt, TFLC__BUF_DATA, 1, len);
  if (d && *len)
    return m->bytes + d;
  off = tflc__get_u64(fb, bt, TFLC__BUF_OFFSET);
  sz = tflc__get_u64(fb, bt, TFLC__BUF_SIZE);
  if (off > 1 && sz > 0 && off <= m->size && sz <= m->size - off &&
      sz <= 0xFFFFFFFFu) {
    *len = (uint32_t)sz;
    return m->bytes + off;
  }
  *len = 0;
  return NULL;
}
/* Effective builtin code of operator code k: max(builtin, deprecated);
 * CUSTOM resolves to the custom operators of the table by name. */
static int32_t tflc__opcode(const tflc_model *m, uint32_t k) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t oc, len;
  int32_t b, d;
  const char *cc;
  if (k >= (uint32_t)m->num_opcodes)
    return TFLC_OP_UNKNOWN_CUSTOM;
  oc = tflc__vec_table(fb, m->opcodes, k);
  b = tflc__get_i32(fb, oc, TFLC__OC_BUILTIN, 0);
  d = (int8_t)tflc__get_u8(fb, oc, TFLC__OC_DEPRECATED, 0);
  if (d > b)
    b = d;
  if (b == TFLC_OP_CUSTOM) {
    cc = tflc__get_str(fb, oc, TFLC__OC_CUSTOM, &len);
    if (!cc)
      return TFLC_OP_UNKNOWN_CUSTOM;
#if defined(TFLC_OPS) && defined(TFLC_NO_ERROR_STRINGS)
      /* a firmware build without messages knows the custom operators it
       * runs, and TFLM_DECODE (folded into its consumers, or refused with
       * TFLC_NO_COMPRESSION); the others read as unknown custom operators
       * (refused all the same: only the message would name them) */
#define TFLC__CUSTOM_SEL(name)                                                 \
  if ((int)TFLC_OP_##name >= 256 && len == sizeof #name - 1 &&                 \
      memcmp(cc, #name, len) == 0)                                             \
    return TFLC_OP_##name;
    if (len == 11 && memcmp(cc, "TFLM_DECODE", 11) == 0)
      return TFLC_OP_TFLM_DECODE;
    TFLC_OPS(TFLC__CUSTOM_SEL)
#else
#define TFLC__CUSTOM_X(name, code, o, i, f, pr, iv, rs)                        \
  if ((code) >= 256 && len == sizeof #name - 1 && memcmp(cc, #name, len) == 0) \
    return code;
#define TFLC__CUSTOM_N(name, code, f)
    TFLC_OPERATORS(TFLC__CUSTOM_X, TFLC__CUSTOM_N)
#endif
    return TFLC_OP_UNKNOWN_CUSTOM;
  }
  return b;
}
/* The custom_code of the operator at table ot (NULL when it has none). */
static const char *tflc__op_custom_name(const tflc_model *m, uint32_t ot,
                                        uint32_t *len) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t k = tflc__get_u32(fb, ot, TFLC__OP_OPCODE, 0), oc;
  *len = 0;
  if (k >= (uint32_t)m->num_opcodes)
    return NULL;
  oc = tflc__vec_table(fb, m->opcodes, k);
  return oc ? tflc__get_str(fb, oc, TFLC__OC_CUSTOM, len) : NULL;
}
/* Operator.custom_options of operator i of subgraph table sgt. */
static const uint8_t *tflc__op_custom_options(const tflc_model *m, uint32_t sgt,
                                              int32_t i, uint32_t *size) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t ot = tflc__op_table(m, sgt, i), v;
  *size = 0;
  v = ot ? tflc__get_vec(fb, ot, TFLC__OP_CUSTOM_OPTIONS, 1, size) : 0;
  return v && *size ? m->bytes + v : NULL;
}

TFLC_API const char *tflc_type_name(int32_t type) {
  switch (type) {
  case TFLC_FLOAT32:
    return "FLOAT32";
  case TFLC_FLOAT16:
    return "FLOAT16";
  case TFLC_INT32:
    return "INT32";
  case TFLC_UINT8:
    return "UINT8";
  case TFLC_INT64:
    return "INT64";
  case TFLC_STRING:
    return "STRING";
  case TFLC_BOOL:
    return "BOOL";
  case TFLC_INT16:
    return "INT16";
  case TFLC_INT8:
    return "INT8";
  case TFLC_RESOURCE:
    return "RESOURCE";
  case TFLC_UINT64:
    return "UINT64";
  case TFLC_UINT32:
    return "UINT32";
  case TFLC_UINT16:
    return "UINT16";
  case TFLC_INT4:
    return "INT4";
  case 8:
    return "COMPLEX64";
  case 10:
    return "FLOAT64";
  case 11:
    return "COMPLEX128";
  case 14:
    return "VARIANT";
  case 18:
    return "BFLOAT16";
  }
  return "UNKNOWN";
}

/* Reads tensor table tt into *o (shape, type, quantization) of a model
 * the schema walk accepted (its vectors and tables are sound). Checks the
 * shape (0 <= dim; the product of the nonzero dims, so every partial
 * product kernels form, fits in 31 bits, in elements and in bytes) and
 * the type. */
static tflc_status tflc__read_tensor(const tflc_model *m, uint32_t tt,
                                     tflc_tensor *o, char *err, int32_t t) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t n, i, sv, qt, ns, nz;
  uint64_t count = 1, span = 1;
  size_t es;
  memset(o, 0, sizeof *o);
  o->type = (uint8_t)tflc__get_u8(fb, tt, TFLC__T_TYPE, 0);
  es = tflc_type_size(o->type);
  if (es == 0 && o->type != TFLC_RESOURCE && o->type != TFLC_INT4)
    return tflc__err(err, TFLC_ERR_TYPE, "tensor %d: type %s (%u) unsupported",
                     t, tflc_type_name(o->type), (unsigned)o->type);
  sv = tflc__get_vec(fb, tt, TFLC__T_SHAPE, 4, &n);
  if (n > TFLC_MAX_DIMS)
    return tflc__err(err, TFLC_ERR_SHAPE, "tensor %d: rank %u > %d", t, n,
                     TFLC_MAX_DIMS);
  o->rank = (uint8_t)n;
  for (i = 0; i < n; i++) {
    int32_t d = tflc__i32(fb.b + sv + 4 * i);
    if (d < 0)
      return tflc__err(err, TFLC_ERR_SHAPE, "tensor %d: dimension %u is %d", t,
                       i, d);
    o->dims[i] = d;
    count *= (uint64_t)d;
    span *= (uint64_t)(d > 0 ? d : 1);
    if (span > 0x7FFFFFFFu)
      return tflc__err(err, TFLC_ERR_SHAPE, "tensor %d: too many elements", t);
  }
  if (span * (es ? es : 1) > 0x7FFFFFFFu)
    return tflc__err(err, TFLC_ERR_SHAPE, "tensor %d: too many bytes", t);
  /* INT4: two elements per byte (ceil(n / 2) bytes of data) */
  o->bytes = o->type == TFLC_INT4 ? (uint32_t)((count + 1) / 2)
                                  : (uint32_t)(count * es);
  if (tflc__get_u8(fb, tt, TFLC__T_VARIABLE, 0))
    o->flags |= TFLC_TENSOR_VARIABLE;
  if (tflc__has_field(fb, tt, TFLC__T_SPARSITY))
    return tflc__err(err, TFLC_ERR_UNSUPPORTED, "tensor %d: sparse tensor", t);
  qt = tflc__get_ref(fb, tt, TFLC__T_QUANT);
  if (qt) {
    uint32_t s = tflc__get_vec(fb, qt, TFLC__Q_SCALE, 4, &ns);
    uint32_t z = tflc__get_vec(fb, qt, TFLC__Q_ZP, 8, &nz);
    /* TFLM uses quantization only when both vectors are non-empty. */
    if (ns > 0 && nz > 0) {
      int64_t zp = (int64_t)tflc__u64(fb.b + z);
      float sc = tflc__f32(fb.b + s);
      /* tflc keeps zero points in 16 bits: int8, uint8 and int16 tensors
       * need no more (wider ones are refused here) */
      if (zp < -32768 || zp > 32767)
        return tflc__err(err, TFLC_ERR_QUANT,
                         "tensor %d: zero point 0 out of 16 bits", t);
      /* the axis is checked where per-channel data is used (kernels,
       * LUT channels); TFLM accepts e.g. rank-1 biases with axis 3 */
      if (nz != 1 && nz != ns)
        return tflc__err(err, TFLC_ERR_QUANT,
                         "tensor %d: %u zero points for %u scales", t, nz, ns);
      for (i = 0; i < ns; i++) {
        float si = tflc__f32(fb.b + s + 4 * i);
        if (!(si - si == 0.0f)) /* NaN or infinite */
          return tflc__err(err, TFLC_ERR_QUANT,
                           "tensor %d: scale %u is not finite", t, i);
      }
      /* int8/int16 zero points within the type's range: kernels add them
       * to elements in 32-bit arithmetic, as TFLM does */
      for (i = 0; i < nz && (o->type == TFLC_INT8 || o->type == TFLC_INT16);
           i++) {
        int64_t zi = (int64_t)tflc__u64(fb.b + z + 8 * i);
        int64_t lim = o->type == TFLC_INT8 ? 128 : 32768;
        if (zi < -lim || zi >= lim)
          return tflc__err(err, TFLC_ERR_QUANT,
                           "tensor %d: zero point %u out of range for %s", t, i,
                           tflc_type_name(o->type));
      }
      o->scale = sc;
      o->zero_point = (int16_t)zp;
      o->nscales = (uint8_t)(ns > 255 ? 255 : ns);
    }
  }
  return TFLC_OK;
}
/* Scale i (per channel) of tensor table tt, or the first when per-tensor. */
static float tflc__tensor_scale(const tflc_model *m, uint32_t tt, uint32_t i) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t ns, qt = tflc__get_ref(fb, tt, TFLC__T_QUANT);
  uint32_t s = qt ? tflc__get_vec(fb, qt, TFLC__Q_SCALE, 4, &ns) : 0;
  if (!s || ns == 0)
    return 0.0f;
  if (i >= ns)
    i = 0;
  return tflc__f32(fb.b + s + 4 * i);
}
static uint32_t tflc__tensor_nscales(const tflc_model *m, uint32_t tt) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t ns = 0, qt = tflc__get_ref(fb, tt, TFLC__T_QUANT);
  if (qt)
    (void)tflc__get_vec(fb, qt, TFLC__Q_SCALE, 4, &ns);
  return ns;
}
static int32_t tflc__tensor_qdim(const tflc_model *m, uint32_t tt) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t qt = tflc__get_ref(fb, tt, TFLC__T_QUANT);
  return qt ? tflc__get_i32(fb, qt, TFLC__Q_DIM, 0) : 0;
}

/* ======================================================================== */
/* Compression descriptors: COMPRESSION_METADATA (nested flatbuffer) and    */
/* TFLM_DECODE ancillary data, both checked completely before use.          */
/* ======================================================================== */
TFLC_INTERNAL int32_t tflc__count(const tflc_tensor *t) {
  int32_t i, c = 1;
  for (i = 0; i < t->rank; i++)
    c *= t->dims[i];
  return c;
}
/* Completes a LUT descriptor for tensor `t` and checks it against the
 * packed indices (n_idx bytes) and value table (n_val bytes): width, table
 * sizes, channel layout, and that every index selects an entry of its
 * channel's table, so decoding can never read outside the tables. */
static tflc_status tflc__lut_check(tflc_const *c, const tflc_tensor *t,
                                   uint32_t n_idx, uint32_t n_val,
                                   int32_t channels, int alt, char *err,
                                   int32_t ti, int verify) {
  size_t es = tflc_type_size(t->type);
  uint64_t need, i, count = (uint64_t)tflc__count(t);
  const uint8_t *p = (const uint8_t *)c->data;
  if (c->bits < 1 || c->bits > 8)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: LUT index width %u not in 1..8", ti,
                     (unsigned)c->bits);
  switch (t->type) {
  case TFLC_FLOAT32:
  case TFLC_INT8:
  case TFLC_UINT8:
  case TFLC_BOOL:
  case TFLC_INT16:
  case TFLC_INT32:
  case TFLC_INT64:
    break;
  default:
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: LUT for type %s unsupported", ti,
                     tflc_type_name(t->type));
  }
  if (channels < 1 || count % (uint64_t)channels)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: %d channels do not divide %u elements", ti,
                     channels, (unsigned)count);
  if (c->stride < 1)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: empty LUT value table", ti);
  if ((uint64_t)c->stride * (uint64_t)channels * es > n_val)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: value table %u bytes < %u channels x %u", ti,
                     n_val, (unsigned)channels, (unsigned)c->stride);
  need = (count * c->bits + 7) / 8;
  if (need > n_idx)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: %u index bytes, %u needed at %u bits", ti,
                     n_idx, (unsigned)need, (unsigned)c->bits);
  c->count = (int32_t)count;
  c->type = t->type;
  c->channels = channels;
  c->alt_axis = (uint8_t)(alt && channels > 1);
  c->elems_per_channel =
      c->alt_axis ? 1 : (int32_t)(count / (uint64_t)channels);
  if (verify && c->stride < (1u << c->bits)) {
    for (i = 0; i < count; i++) {
      uint64_t bit = i * c->bits;
      uint32_t w = ((uint32_t)p[bit >> 3] << 8) |
                   ((bit >> 3) + 1 < n_idx ? p[(bit >> 3) + 1] : 0u);
      uint32_t idx = (w >> (16 - (bit & 7) - c->bits)) & ((1u << c->bits) - 1);
      if (idx >= c->stride)
        return tflc__err(err, TFLC_ERR_COMPRESSION,
                         "tensor %d: LUT index %u at element %u >= table size "
                         "%u",
                         ti, idx, (unsigned)i, (unsigned)c->stride);
    }
  }
  return TFLC_OK;
}

/* Finds the LutTensor for (sg, t) in COMPRESSION_METADATA; returns its
 * table in the nested buffer or 0. */
static tflc__fb tflc__meta_fb(const tflc_model *m) {
  tflc__fb nb;
  nb.b = m->bytes + m->comp_base;
  nb.n = m->comp_size;
  return nb;
}
/* The LutTensor list of subgraph sg: position of its first element in the
 * nested buffer (0 when there is none) and its length in *nl. */
static uint32_t tflc__meta_list(const tflc_model *m, int32_t sg, uint32_t *nl) {
  tflc__fb nb = tflc__meta_fb(m);
  uint32_t sgs, nsg, s;
  *nl = 0;
  if (!m->comp_meta)
    return 0;
  sgs = tflc__get_vec(nb, m->comp_meta - m->comp_base, 1, 4, &nsg);
  if (!sgs || sg < 0 || (uint32_t)sg >= nsg)
    return 0;
  s = tflc__vec_table(nb, sgs, (uint32_t)sg);
  return s ? tflc__get_vec(nb, s, 0, 4, nl) : 0;
}
static uint32_t tflc__meta_lut(const tflc_model *m, int32_t sg, int32_t t) {
  tflc__fb nb = tflc__meta_fb(m);
  uint32_t nl, i, luts = tflc__meta_list(m, sg, &nl);
  for (i = 0; luts && i < nl; i++) {
    uint32_t lt = tflc__vec_table(nb, luts, i);
    if (lt && tflc__get_i32(nb, lt, 0, 0) == t)
      return lt;
  }
  return 0;
}
/* Builds the descriptor of a COMPRESSION_METADATA tensor. */
static tflc_status tflc__meta_const(const tflc_model *m, int32_t sg,
                                    uint32_t lt, uint32_t tt,
                                    const tflc_tensor *t, int32_t ti,
                                    tflc_const *c, uint32_t *stored, char *err,
                                    int verify) {
  tflc__fb nb, fb = tflc__mfb(m);
  uint32_t vb, n_idx, n_val, bidx;
  const uint8_t *idx, *val;
  int32_t channels = 1;
  int alt = 0;
  size_t es = tflc_type_size(t->type);
  (void)sg;
  memset(c, 0, sizeof *c);
  if (!TFLC__COMPRESSION) /* never reached: refused by tflc_model_init */
    return tflc__err(err, TFLC_ERR_UNSUPPORTED,
                     "tensor %d: compression not compiled in", ti);
  nb.b = m->bytes + m->comp_base;
  nb.n = m->comp_size;
  c->bits = (uint8_t)tflc__get_u8(nb, lt, 2, 0);
  vb = tflc__get_u32(nb, lt, 1, 0);
  bidx = tflc__get_u32(fb, tt, TFLC__T_BUFFER, 0);
  idx = tflc__buffer(m, bidx, &n_idx);
  val = tflc__buffer(m, vb, &n_val);
  if (!idx)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: compressed but has no data", ti);
  if (!val)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: value buffer %u missing or empty", ti, vb);
  if (es == 0)
    return tflc__err(err, TFLC_ERR_COMPRESSION, "tensor %d: bad type", ti);
  if (!tflc__has_field(fb, tt, TFLC__T_SHAPE))
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: compressed scalar tensor", ti);
  if (t->nscales > 1) {
    int32_t qd = tflc__tensor_qdim(m, tt);
    channels = (int32_t)tflc__tensor_nscales(m, tt);
    if (qd == 0)
      alt = 0;
    else if (qd == t->rank - 1)
      alt = 1;
    else
      return tflc__err(err, TFLC_ERR_COMPRESSION,
                       "tensor %d: LUT channel axis %d unsupported", ti, qd);
    if (channels != t->dims[qd])
      return tflc__err(err, TFLC_ERR_COMPRESSION,
                       "tensor %d: %d scales for dimension of %d", ti, channels,
                       t->dims[qd]);
  }
  {
    uint64_t st = (uint64_t)n_val / es / (uint64_t)channels;
    c->stride = (uint16_t)(st > 65535 ? 65535 : st);
  }
  c->data = idx;
  c->values = val;
  if (stored)
    *stored = n_idx + n_val;
  return tflc__lut_check(c, t, n_idx, n_val, channels, alt, err, ti, verify);
}
/* The message of a tflc_const_check result for tensor ti. */
static tflc_status tflc__const_check_err(char *err, int r, int32_t where,
                                         int32_t ti, uint32_t nvalues) {
  switch (r) {
  case TFLC_CONST_OK:
    return TFLC_OK;
  case TFLC_CONST_STREAM_SHORT:
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: Huffman stream ends inside element %d", ti,
                     where);
  case TFLC_CONST_TABLE_INDEX:
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: Huffman lookup outside the table at element "
                     "%d",
                     ti, where);
  case TFLC_CONST_TOO_DEEP:
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: Huffman codeword of element %d needs over 64 "
                     "lookups",
                     ti, where);
  case TFLC_CONST_MASK_SHORT:
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: prune bitmask has %d bits, too few", ti,
                     where);
  case TFLC_CONST_KEPT_MISMATCH:
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: prune bitmask keeps %u values, table has %u",
                     ti, (uint32_t)where, nvalues);
  case TFLC_CONST_BAD_CHANNELS:
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: zero-point channels do not divide %d "
                     "elements",
                     ti, where);
  default:
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: bad compression parameters", ti);
  }
}

/* Huffman (DECODE type 1): version, table width against the output type
 * as TFLM's Setup (16-bit tables only for INT8) and its Decode (INT8 or
 * INT16, refused here at init instead of at invoke), then the stream
 * against the table when verifying. TFLM ignores the quantization. */
static tflc_status tflc__huffman_const(const tflc_tensor *out, int32_t oi,
                                       const uint8_t *enc, uint32_t n_enc,
                                       const uint8_t *anc, uint32_t n_anc,
                                       tflc_const *c, char *err, int verify) {
  const int wide = anc[5] & 1u;
  const uint32_t entries = (n_anc - 16u) / (wide ? 4u : 2u);
  if (anc[4] != 1)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: Huffman version %u != 1", oi,
                     (unsigned)anc[4]);
  if (!wide && out->type != TFLC_INT8)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: 16-bit Huffman table for %s (INT8 only)", oi,
                     tflc_type_name(out->type));
  if (out->type != TFLC_INT8 && out->type != TFLC_INT16)
    return tflc__err(err, TFLC_ERR_UNSUPPORTED,
                     "tensor %d: Huffman output type %s unsupported (INT8, "
                     "INT16)",
                     oi, tflc_type_name(out->type));
  if (n_enc >= 0x0FFFFFFFu)
    return tflc__err(err, TFLC_ERR_UNSUPPORTED,
                     "tensor %d: Huffman stream of %u bytes too long", oi,
                     n_enc);
  *c = tflc_const_huffman(enc, n_enc, anc + 16, entries, wide,
                          (int)(anc[5] >> 4) + 1, (tflc_type)out->type,
                          tflc__count(out), NULL);
  if (verify) {
    int32_t where = 0;
    const int r = tflc_const_check(c, &where);
    return tflc__const_check_err(err, r, where, oi, entries);
  }
  return TFLC_OK;
}

/* Prune (DECODE type 2): version, the output's quantization as TFLM's
 * Setup reads it (channels = scale count on axis 0 or the last axis;
 * zero points must be 0 except for INT8; INT8 with a non-zero zero point
 * and several channels prunes to each channel's zero point), output types
 * as its Decode (refused here at init), and when verifying the bitmask
 * against the kept values. */
static tflc_status tflc__prune_const(const tflc_model *m, uint32_t ot,
                                     const tflc_tensor *out, int32_t oi,
                                     const uint8_t *enc, uint32_t n_enc,
                                     const uint8_t *anc, uint32_t n_anc,
                                     tflc_const *c, char *err, int verify) {
  tflc__fb fb = tflc__mfb(m);
  const size_t es = tflc_type_size(out->type);
  const int32_t count = tflc__count(out);
  uint32_t ns = 0, nz = 0, zv = 0, i;
  int32_t zero = 0, channels = 1;
  int alt = 0, any = 0;
  if (anc[4] != 1)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: Prune version %u != 1", oi, (unsigned)anc[4]);
  switch (out->type) {
  case TFLC_BOOL:
  case TFLC_INT8:
  case TFLC_INT16:
  case TFLC_INT32:
  case TFLC_INT64:
  case TFLC_FLOAT32:
    break;
  default:
    return tflc__err(err, TFLC_ERR_UNSUPPORTED,
                     "tensor %d: Prune output type %s unsupported", oi,
                     tflc_type_name(out->type));
  }
  if (out->nscales > 0) { /* scale and zero points both present */
    const uint32_t qt = tflc__get_ref(fb, ot, TFLC__T_QUANT);
    const int32_t qd = tflc__tensor_qdim(m, ot);
    ns = tflc__tensor_nscales(m, ot);
    zv = tflc__get_vec(fb, qt, TFLC__Q_ZP, 8, &nz);
    if (ns > 1 && qd == out->rank - 1)
      alt = 1;
    else if (qd != 0)
      return tflc__err(err, TFLC_ERR_COMPRESSION,
                       "tensor %d: unsupported quantization axis %d", oi, qd);
    for (i = 0; i < nz; i++) {
      const int64_t z = (int64_t)tflc__u64(fb.b + zv + 8 * i);
      if (z != 0 && out->type != TFLC_INT8)
        return tflc__err(err, TFLC_ERR_COMPRESSION,
                         "tensor %d: zero point %u of %s must be 0", oi, i,
                         tflc_type_name(out->type));
      any |= z != 0;
    }
    zero = (int32_t)(int8_t)(tflc__u64(fb.b + zv) & 0xFFu);
    if (out->type == TFLC_INT8 && ns > 1 && any) {
      /* TFLM's per-channel path; it misdecodes uneven channels */
      channels = (int32_t)ns;
      if (count % channels != 0)
        return tflc__err(err, TFLC_ERR_COMPRESSION,
                         "tensor %d: %d channels do not divide %d elements", oi,
                         channels, count);
    }
  }
  if ((n_anc - 16u) % es != 0)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: prune values of %u bytes, not whole %s", oi,
                     n_anc - 16u, tflc_type_name(out->type));
  *c = tflc_const_prune(enc, n_enc, anc + 16, (uint32_t)((n_anc - 16u) / es),
                        (tflc_type)out->type, count, zero, NULL);
  if (channels > 1)
    tflc_const_prune_channels(c, nz == ns ? fb.b + zv : NULL, 8, channels, alt);
  if (verify) {
    int32_t where = 0;
    const int r = tflc_const_check(c, &where);
    return tflc__const_check_err(err, r, where, oi, c->nvalues);
  }
  return TFLC_OK;
}

/* Builds the descriptor for decoded output `out` of a TFLM_DECODE pair
 * (encoded tensor e, ancillary tensor a): the common metadata's checks in
 * TFLM's order (version, then type), then LUT (0), Huffman (1) or Prune
 * (2). */
static tflc_status tflc__decode_const(const tflc_model *m, uint32_t sgt,
                                      int32_t e, int32_t a, uint32_t ot,
                                      const tflc_tensor *out, int32_t oi,
                                      tflc_const *c, uint32_t *stored,
                                      char *err, int verify) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t et = tflc__tensor_table(m, sgt, e),
           at = tflc__tensor_table(m, sgt, a);
  uint32_t n_idx, n_anc;
  const uint8_t *idx =
      tflc__buffer(m, tflc__get_u32(fb, et, TFLC__T_BUFFER, 0), &n_idx);
  const uint8_t *anc =
      tflc__buffer(m, tflc__get_u32(fb, at, TFLC__T_BUFFER, 0), &n_anc);
  int32_t channels = 1, alt = 0;
  memset(c, 0, sizeof *c);
  if (!TFLC__COMPRESSION) /* never reached: refused by tflc_model_init */
    return tflc__err(err, TFLC_ERR_UNSUPPORTED,
                     "tensor %d: compression not compiled in", oi);
  if (!idx || !anc)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: DECODE inputs %d/%d must be constant", oi, e,
                     a);
  /* TFLM's decoder reads the ancillary tensor as bytes; its tooling
   * writes it UINT8 */
  if (tflc__get_u8(fb, at, TFLC__T_TYPE, 0) != TFLC_UINT8)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: DECODE ancillary tensor %d is not UINT8", oi,
                     a);
  if (n_anc < 16)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: ancillary data %u bytes < 16", oi, n_anc);
  if (anc[1] != 1)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: DECODE metadata version %u != 1", oi,
                     (unsigned)anc[1]);
  if (stored)
    *stored = n_idx + n_anc;
  if (anc[0] == 1)
    return tflc__huffman_const(out, oi, idx, n_idx, anc, n_anc, c, err, verify);
  if (anc[0] == 2)
    return tflc__prune_const(m, ot, out, oi, idx, n_idx, anc, n_anc, c, err,
                             verify);
  if (anc[0] == 127)
    return tflc__err(err, TFLC_ERR_UNSUPPORTED,
                     "tensor %d: custom DECODE type 127 unsupported", oi);
  if (anc[0] != 0)
    return tflc__err(err, TFLC_ERR_UNSUPPORTED,
                     "tensor %d: DECODE type %u unsupported", oi,
                     (unsigned)anc[0]);
  if (anc[4] != 1)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: LUT version %u != 1", oi, (unsigned)anc[4]);
  if (anc[5] & 0xF0u)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: LUT params byte %u has unknown bits", oi,
                     (unsigned)anc[5]);
  /* bits 0-2 are the width 1..7 (TFLM); 8 is stored as bit 3 (tflc). */
  c->bits = (uint8_t)(anc[5] & 0x0Fu);
  c->stride = anc[6];
  if (out->nscales > 0 || tflc__tensor_qdim(m, ot) != 0) {
    int32_t qd = tflc__tensor_qdim(m, ot);
    uint32_t ns = tflc__tensor_nscales(m, ot);
    if (ns > 1 && qd == out->rank - 1) {
      channels = (int32_t)ns;
      alt = 1;
    } else if (qd != 0 && ns > 1) {
      /* (TFLM also refuses a per-tensor output with an axis other than 0;
       * with one scale the axis means nothing, so tflc accepts it) */
      return tflc__err(err, TFLC_ERR_COMPRESSION,
                       "tensor %d: LUT channel axis %d unsupported", oi, qd);
    } else if (ns > 1) {
      channels = (int32_t)ns;
    }
    if (ns > 1 && (out->rank == 0 || out->dims[qd] != (int32_t)ns))
      return tflc__err(err, TFLC_ERR_COMPRESSION,
                       "tensor %d: %u scales for dimension %d", oi, ns, qd);
  }
  c->data = idx;
  c->values = anc + 16;
  return tflc__lut_check(c, out, n_idx, n_anc - 16, channels, alt, err, oi,
                         verify);
}

/* ======================================================================== */
/* Verifier: walks every part of the model tflc reads, once.                */
/* ======================================================================== */
/* Schema walk: every table, vector and string of the TFLite schema (the
 * schema.fbs TFLM builds with), read by tflc or not, checked as the
 * flatbuffers verifier checks it: offsets, tables and vector lengths
 * 4-aligned, vtables 2-aligned, scalars aligned to their size, every
 * byte inside the model, strings NUL-terminated, at most 64 tables deep
 * and 1,000,000 tables. Unions are followed for the option tables that
 * hold vectors or strings; options of other types are checked as tables.
 * One more rule than flatbuffers': a field lies inside its table. A walk
 * with an explicit stack (no recursion): the schema nests 6 tables deep. */
enum { /* field kinds */
       TFLC__SF_END,
       TFLC__SF_SCALAR, /* arg: size in bytes */
       TFLC__SF_STRING,
       TFLC__SF_VECTOR,  /* arg: element size */
       TFLC__SF_STRINGS, /* vector of strings */
       TFLC__SF_TABLE,   /* arg: table kind */
       TFLC__SF_TABLES,  /* vector of tables; arg: table kind */
       TFLC__SF_UNION    /* arg: union kind; the type is in the slot before */
};
enum { /* table kinds: rows of tflc__schema_fields */
       TFLC__ST_MODEL,
       TFLC__ST_OPCODE,
       TFLC__ST_SUBGRAPH,
       TFLC__ST_TENSOR,
       TFLC__ST_QUANT,
       TFLC__ST_CUSTOMQ,
       TFLC__ST_SPARSITY,
       TFLC__ST_DIMMETA,
       TFLC__ST_VARIANT,
       TFLC__ST_OPERATOR,
       TFLC__ST_BUFFER,
       TFLC__ST_METADATA,
       TFLC__ST_SIGDEF,
       TFLC__ST_TENSORMAP,
       TFLC__ST_VEC4,  /* Int32Vector, ReshapeOptions, SqueezeOptions,
                          BucketizeOptions: a 4-byte vector in slot 0 */
       TFLC__ST_VEC2,  /* Uint16Vector */
       TFLC__ST_VEC1,  /* Uint8Vector */
       TFLC__ST_PLAIN, /* options of scalars only */
       TFLC__ST_CONCATEMB,
       TFLC__ST_VARHANDLE,
       TFLC__ST_VEC8,   /* StableHLO options with a [long] in slot 0 */
       TFLC__ST_VEC8X3, /* ... in slots 0, 1, 2 */
       TFLC__ST_SHLO_CONV,
       TFLC__ST_SHLO_CALL,
       TFLC__ST_SHLO_SCATTER,
       TFLC__ST_SHLO_DOT,
       TFLC__ST_SHLO_RWIN,
       TFLC__ST_SHLO_GATHER,
       TFLC__ST_COUNT
};
enum { TFLC__SU_QUANT, TFLC__SU_SPARSE, TFLC__SU_OPTS, TFLC__SU_OPTS2 };
/* slot, kind, arg per field; each table's list ends with TFLC__SF_END */
static const uint8_t tflc__schema_fields[][3] = {
    /* Model */
    {0, TFLC__SF_SCALAR, 4},
    {1, TFLC__SF_TABLES, TFLC__ST_OPCODE},
    {2, TFLC__SF_TABLES, TFLC__ST_SUBGRAPH},
    {3, TFLC__SF_STRING, 0},
    {4, TFLC__SF_TABLES, TFLC__ST_BUFFER},
    {5, TFLC__SF_VECTOR, 4},
    {6, TFLC__SF_TABLES, TFLC__ST_METADATA},
    {7, TFLC__SF_TABLES, TFLC__ST_SIGDEF},
    {0, TFLC__SF_END, 0},
    /* OperatorCode */
    {0, TFLC__SF_SCALAR, 1},
    {1, TFLC__SF_STRING, 0},
    {2, TFLC__SF_SCALAR, 4},
    {3, TFLC__SF_SCALAR, 4},
    {0, TFLC__SF_END, 0},
    /* SubGraph */
    {0, TFLC__SF_TABLES, TFLC__ST_TENSOR},
    {1, TFLC__SF_VECTOR, 4},
    {2, TFLC__SF_VECTOR, 4},
    {3, TFLC__SF_TABLES, TFLC__ST_OPERATOR},
    {4, TFLC__SF_STRING, 0},
    {0, TFLC__SF_END, 0},
    /* Tensor */
    {0, TFLC__SF_VECTOR, 4},
    {1, TFLC__SF_SCALAR, 1},
    {2, TFLC__SF_SCALAR, 4},
    {3, TFLC__SF_STRING, 0},
    {4, TFLC__SF_TABLE, TFLC__ST_QUANT},
    {5, TFLC__SF_SCALAR, 1},
    {6, TFLC__SF_TABLE, TFLC__ST_SPARSITY},
    {7, TFLC__SF_VECTOR, 4},
    {8, TFLC__SF_SCALAR, 1},
    {9, TFLC__SF_TABLES, TFLC__ST_VARIANT},
    {0, TFLC__SF_END, 0},
    /* QuantizationParameters */
    {0, TFLC__SF_VECTOR, 4},
    {1, TFLC__SF_VECTOR, 4},
    {2, TFLC__SF_VECTOR, 4},
    {3, TFLC__SF_VECTOR, 8},
    {4, TFLC__SF_SCALAR, 1},
    {5, TFLC__SF_UNION, TFLC__SU_QUANT},
    {6, TFLC__SF_SCALAR, 4},
    {0, TFLC__SF_END, 0},
    /* CustomQuantization */
    {0, TFLC__SF_VECTOR, 1},
    {0, TFLC__SF_END, 0},
    /* SparsityParameters */
    {0, TFLC__SF_VECTOR, 4},
    {1, TFLC__SF_VECTOR, 4},
    {2, TFLC__SF_TABLES, TFLC__ST_DIMMETA},
    {0, TFLC__SF_END, 0},
    /* DimensionMetadata */
    {0, TFLC__SF_SCALAR, 1},
    {1, TFLC__SF_SCALAR, 4},
    {2, TFLC__SF_SCALAR, 1},
    {3, TFLC__SF_UNION, TFLC__SU_SPARSE},
    {4, TFLC__SF_SCALAR, 1},
    {5, TFLC__SF_UNION, TFLC__SU_SPARSE},
    {0, TFLC__SF_END, 0},
    /* VariantSubType */
    {0, TFLC__SF_VECTOR, 4},
    {1, TFLC__SF_SCALAR, 1},
    {2, TFLC__SF_SCALAR, 1},
    {0, TFLC__SF_END, 0},
    /* Operator */
    {0, TFLC__SF_SCALAR, 4},
    {1, TFLC__SF_VECTOR, 4},
    {2, TFLC__SF_VECTOR, 4},
    {3, TFLC__SF_SCALAR, 1},
    {4, TFLC__SF_UNION, TFLC__SU_OPTS},
    {5, TFLC__SF_VECTOR, 1},
    {6, TFLC__SF_SCALAR, 1},
    {7, TFLC__SF_VECTOR, 1},
    {8, TFLC__SF_VECTOR, 4},
    {9, TFLC__SF_SCALAR, 8},
    {10, TFLC__SF_SCALAR, 8},
    {11, TFLC__SF_SCALAR, 1},
    {12, TFLC__SF_UNION, TFLC__SU_OPTS2},
    {0, TFLC__SF_END, 0},
    /* Buffer */
    {0, TFLC__SF_VECTOR, 1},
    {1, TFLC__SF_SCALAR, 8},
    {2, TFLC__SF_SCALAR, 8},
    {0, TFLC__SF_END, 0},
    /* Metadata */
    {0, TFLC__SF_STRING, 0},
    {1, TFLC__SF_SCALAR, 4},
    {0, TFLC__SF_END, 0},
    /* SignatureDef (slot 3, deprecated_tag, is not verified) */
    {0, TFLC__SF_TABLES, TFLC__ST_TENSORMAP},
    {1, TFLC__SF_TABLES, TFLC__ST_TENSORMAP},
    {2, TFLC__SF_STRING, 0},
    {4, TFLC__SF_SCALAR, 4},
    {0, TFLC__SF_END, 0},
    /* TensorMap */
    {0, TFLC__SF_STRING, 0},
    {1, TFLC__SF_SCALAR, 4},
    {0, TFLC__SF_END, 0},
    /* one vector of 4-, 2-, 1-byte elements in slot 0 */
    {0, TFLC__SF_VECTOR, 4},
    {0, TFLC__SF_END, 0},
    {0, TFLC__SF_VECTOR, 2},
    {0, TFLC__SF_END, 0},
    {0, TFLC__SF_VECTOR, 1},
    {0, TFLC__SF_END, 0},
    /* options of scalars only: the table itself */
    {0, TFLC__SF_END, 0},
    /* ConcatEmbeddingsOptions */
    {1, TFLC__SF_VECTOR, 4},
    {2, TFLC__SF_VECTOR, 4},
    {0, TFLC__SF_END, 0},
    /* VarHandleOptions */
    {0, TFLC__SF_STRING, 0},
    {1, TFLC__SF_STRING, 0},
    {0, TFLC__SF_END, 0},
    /* StableHLO: [long] in slot 0; in slots 0, 1, 2 */
    {0, TFLC__SF_VECTOR, 8},
    {0, TFLC__SF_END, 0},
    {0, TFLC__SF_VECTOR, 8},
    {1, TFLC__SF_VECTOR, 8},
    {2, TFLC__SF_VECTOR, 8},
    {0, TFLC__SF_END, 0},
    /* StablehloConvolutionOptions */
    {0, TFLC__SF_VECTOR, 8},
    {1, TFLC__SF_VECTOR, 8},
    {2, TFLC__SF_VECTOR, 8},
    {3, TFLC__SF_VECTOR, 8},
    {4, TFLC__SF_VECTOR, 1},
    {7, TFLC__SF_VECTOR, 8},
    {10, TFLC__SF_VECTOR, 8},
    {13, TFLC__SF_VECTOR, 8},
    {16, TFLC__SF_VECTOR, 4},
    {0, TFLC__SF_END, 0},
    /* StablehloCustomCallOptions */
    {0, TFLC__SF_STRING, 0},
    {2, TFLC__SF_STRING, 0},
    {4, TFLC__SF_VECTOR, 4},
    {5, TFLC__SF_VECTOR, 1},
    {0, TFLC__SF_END, 0},
    /* StablehloScatterOptions */
    {1, TFLC__SF_VECTOR, 8},
    {2, TFLC__SF_VECTOR, 8},
    {3, TFLC__SF_VECTOR, 8},
    {0, TFLC__SF_END, 0},
    /* StablehloDotGeneralOptions */
    {0, TFLC__SF_VECTOR, 8},
    {1, TFLC__SF_VECTOR, 8},
    {2, TFLC__SF_VECTOR, 8},
    {3, TFLC__SF_VECTOR, 8},
    {4, TFLC__SF_VECTOR, 4},
    {0, TFLC__SF_END, 0},
    /* StablehloReduceWindowOptions */
    {0, TFLC__SF_VECTOR, 8},
    {1, TFLC__SF_VECTOR, 8},
    {2, TFLC__SF_VECTOR, 8},
    {3, TFLC__SF_VECTOR, 8},
    {4, TFLC__SF_VECTOR, 8},
    {0, TFLC__SF_END, 0},
    /* StablehloGatherOptions */
    {0, TFLC__SF_VECTOR, 8},
    {1, TFLC__SF_VECTOR, 8},
    {2, TFLC__SF_VECTOR, 8},
    {4, TFLC__SF_VECTOR, 8},
    {0, TFLC__SF_END, 0}};
#ifndef TFLC_NO_ERROR_STRINGS
static const char *const tflc__schema_names[TFLC__ST_COUNT] = {
    "root table",   "operator code",
    "subgraph",     "tensor",
    "quantization", "quantization",
    "sparsity",     "dimension metadata",
    "variant type", "op",
    "buffer",       "metadata",
    "signature",    "tensor map",
    "options",      "index vector",
    "index vector", "options",
    "options",      "options",
    "options",      "options",
    "options",      "options",
    "options",      "options",
    "options",      "options"};
/* the schema's name of each entry of tflc__schema_fields */
static const char *const tflc__schema_field_names[] = {
    "version",
    "operator_codes",
    "subgraphs",
    "description",
    "buffers",
    "metadata_buffer",
    "metadata",
    "signature_defs",
    "",
    "deprecated_builtin_code",
    "custom_code",
    "version",
    "builtin_code",
    "",
    "tensors",
    "inputs",
    "outputs",
    "operators",
    "name",
    "",
    "shape",
    "type",
    "buffer",
    "name",
    "quantization",
    "is_variable",
    "sparsity",
    "shape_signature",
    "has_rank",
    "variant_tensors",
    "",
    "min",
    "max",
    "scale",
    "zero_point",
    "details_type",
    "details",
    "quantized_dimension",
    "",
    "custom",
    "",
    "traversal_order",
    "block_map",
    "dim_metadata",
    "",
    "format",
    "dense_size",
    "array_segments_type",
    "array_segments",
    "array_indices_type",
    "array_indices",
    "",
    "shape",
    "type",
    "has_rank",
    "",
    "opcode_index",
    "inputs",
    "outputs",
    "builtin_options_type",
    "builtin_options",
    "custom_options",
    "custom_options_format",
    "mutating_variable_inputs",
    "intermediates",
    "large_custom_options_offset",
    "large_custom_options_size",
    "builtin_options_2_type",
    "builtin_options_2",
    "",
    "data",
    "offset",
    "size",
    "",
    "name",
    "buffer",
    "",
    "inputs",
    "outputs",
    "signature_key",
    "subgraph_index",
    "",
    "name",
    "tensor_index",
    "",
    "values",
    "",
    "values",
    "",
    "values",
    "",
    "",
    "num_columns_per_channel",
    "embedding_dim_per_channel",
    "",
    "container",
    "shared_name",
    "",
    "dimensions",
    "",
    "indices",
    "indices",
    "indices",
    "",
    "window_strides",
    "padding",
    "lhs_dilation",
    "rhs_dilation",
    "window_reversal",
    "input_spatial_dimensions",
    "kernel_spatial_dimensions",
    "output_spatial_dimensions",
    "precision_config",
    "",
    "call_target_name",
    "backend_config",
    "called_computations",
    "custom_attributes",
    "",
    "update_window_dims",
    "inserted_window_dims",
    "scatter_dims_to_operand_dims",
    "",
    "lhs_batching_dimensions",
    "rhs_batching_dimensions",
    "lhs_contracting_dimensions",
    "rhs_contracting_dimensions",
    "precision_config",
    "",
    "window_dimensions",
    "window_strides",
    "base_dilations",
    "window_dilations",
    "padding",
    "",
    "offset_dims",
    "collapsed_slice_dims",
    "start_index_map",
    "slice_sizes",
    ""};
/* (one name per field: the array sizes must match) */
typedef char tflc__schema_field_names_match
    [sizeof tflc__schema_field_names / sizeof tflc__schema_field_names[0] ==
             sizeof tflc__schema_fields / sizeof tflc__schema_fields[0]
         ? 1
         : -1];
#define TFLC__SCHEMA_NAME(k) tflc__schema_names[k]
#define TFLC__SCHEMA_FIELD(f) tflc__schema_field_names[f]
#else
#define TFLC__SCHEMA_NAME(k) ""
#define TFLC__SCHEMA_FIELD(f) ""
#endif

/* First field of each table kind in tflc__schema_fields. */
static uint32_t tflc__schema_first(uint32_t kind) {
  uint32_t i = 0, k = 0;
  while (k < kind) {
    if (tflc__schema_fields[i][1] == TFLC__SF_END)
      k++;
    i++;
  }
  return i;
}
/* Table kind of union member `type` (0: none or not checked, as the
 * flatbuffers verifier skips unknown members; the kind + 1 otherwise). */
static uint32_t tflc__schema_union(uint32_t u, uint32_t type) {
  /* BuiltinOptions2 members 1..20 */
  static const uint8_t opts2[21] = {0,
                                    TFLC__ST_PLAIN,
                                    TFLC__ST_VEC8,
                                    TFLC__ST_VEC8X3,
                                    TFLC__ST_SHLO_CONV,
                                    TFLC__ST_SHLO_CALL,
                                    TFLC__ST_VEC8,
                                    TFLC__ST_SHLO_SCATTER,
                                    TFLC__ST_PLAIN,
                                    TFLC__ST_VEC8,
                                    TFLC__ST_VEC8X3,
                                    TFLC__ST_PLAIN,
                                    TFLC__ST_SHLO_DOT,
                                    TFLC__ST_SHLO_RWIN,
                                    TFLC__ST_PLAIN,
                                    TFLC__ST_PLAIN,
                                    TFLC__ST_SHLO_GATHER,
                                    TFLC__ST_VEC8,
                                    TFLC__ST_PLAIN,
                                    TFLC__ST_PLAIN,
                                    TFLC__ST_PLAIN};
  if (type == 0)
    return 0;
  switch (u) {
  case TFLC__SU_QUANT:
    return type == 1 ? TFLC__ST_CUSTOMQ + 1u : 0;
  case TFLC__SU_SPARSE:
    return type <= 3 ? TFLC__ST_VEC4 + type : 0;
  case TFLC__SU_OPTS:
    /* BuiltinOptions members 1..126: ConcatEmbeddings (3), Reshape (17),
     * Squeeze (30), VarHandle (111), Bucketize (115) hold vectors */
    if (type == 3)
      return TFLC__ST_CONCATEMB + 1u;
    if (type == 17 || type == 30 || type == 115)
      return TFLC__ST_VEC4 + 1u;
    if (type == 111)
      return TFLC__ST_VARHANDLE + 1u;
    return type <= 126 ? TFLC__ST_PLAIN + 1u : 0;
  default:
    return type <= 20 ? opts2[type] + 1u : 0;
  }
}

/* A table being walked, and where it sits (for messages). */
typedef struct tflc__schema_frame {
  uint32_t t;      /* table */
  uint32_t vec;    /* vector of tables being walked (first element), or 0 */
  uint32_t n, i;   /* its length and next element */
  uint32_t index;  /* this table's index in its vector; ~0u: a field */
  uint32_t pindex; /* the index of the table holding it (a field) */
  uint16_t f;      /* next field in tflc__schema_fields */
  uint8_t kind;    /* TFLC__ST_* */
  uint8_t pkind;   /* kind of the table holding it */
  uint8_t sub;     /* kind of the vector's tables */
} tflc__schema_frame;

/* An error in `what` (a field name, "table", "offset") at byte `pos` of
 * the table at `kind`/`index` (held by pkind/pindex when index is ~0u):
 * "model truncated" when what it needs (up to `end`) runs past the end of
 * the model and could be there in a longer file; broken otherwise. */
static tflc_status tflc__schema_fail(tflc_model *m, uint32_t kind,
                                     uint32_t index, uint32_t pkind,
                                     uint32_t pindex, const char *what,
                                     uint32_t pos, uint64_t end,
                                     const char *detail) {
  char where[TFLC_ERROR_LEN];
  if (kind == TFLC__ST_MODEL)
    (void)tflc__err(where, TFLC_OK, "%s", TFLC__SCHEMA_NAME(kind));
  else if (index != 0xFFFFFFFFu)
    (void)tflc__err(where, TFLC_OK, "%s %u", TFLC__SCHEMA_NAME(kind), index);
  else if (pkind == TFLC__ST_MODEL)
    (void)tflc__err(where, TFLC_OK, "%s", TFLC__SCHEMA_NAME(kind));
  else
    (void)tflc__err(where, TFLC_OK, "%s of %s %u", TFLC__SCHEMA_NAME(kind),
                    TFLC__SCHEMA_NAME(pkind), pindex);
  if (end > m->size && end <= 0x7FFFFFFFu)
    return tflc__err(m->error, TFLC_ERR_TRUNCATED,
                     "model truncated: %s: %s at offset %u needs %u bytes, "
                     "the model has %u",
                     where, what, pos, (unsigned)end, (unsigned)m->size);
  return tflc__err(m->error, TFLC_ERR_FLATBUFFER,
                   "%s: broken %s at offset %u%s", where, what, pos, detail);
}
#define TFLC__SCHEMA_FAIL(fr, what, pos, end, detail)                          \
  tflc__schema_fail(m, (fr)->kind, (fr)->index, (fr)->pkind, (fr)->pindex,     \
                    what, pos, end, detail)

/* The offset stored at p (4-aligned, inside the model): its target. */
static tflc_status tflc__schema_offset(tflc_model *m,
                                       const tflc__schema_frame *fr,
                                       const char *what, uint32_t p,
                                       uint32_t *target) {
  uint32_t o;
  if (p & 3u)
    return TFLC__SCHEMA_FAIL(fr, what, p, 0, " (misaligned offset)");
  if ((uint64_t)p + 4 > m->size)
    return TFLC__SCHEMA_FAIL(fr, what, p, (uint64_t)p + 4, "");
  o = tflc__u32(m->bytes + p);
  if (o == 0 || o > 0x7FFFFFFFu || (uint64_t)p + o + 1 > m->size)
    return TFLC__SCHEMA_FAIL(fr, what, p, (uint64_t)p + o + 1, "");
  *target = p + o;
  return TFLC_OK;
}
/* A vector of esz-byte elements (esz 0: a string) at v: aligned length,
 * elements inside the model, the string's terminating NUL. */
static tflc_status tflc__schema_vector(tflc_model *m,
                                       const tflc__schema_frame *fr,
                                       const char *what, uint32_t v,
                                       uint32_t esz, uint32_t *len) {
  uint64_t end;
  if (v & 3u)
    return TFLC__SCHEMA_FAIL(fr, what, v, 0, " (misaligned length)");
  if ((uint64_t)v + 4 > m->size)
    return TFLC__SCHEMA_FAIL(fr, what, v, (uint64_t)v + 4, "");
  *len = tflc__u32(m->bytes + v);
  end = (uint64_t)v + 4 + (uint64_t)*len * (esz ? esz : 1) + (esz ? 0 : 1);
  if (end > m->size)
    return TFLC__SCHEMA_FAIL(fr, what, v, end, "");
  if (!esz && m->bytes[end - 1] != 0)
    return TFLC__SCHEMA_FAIL(fr, what, v, 0, " (no terminating NUL)");
  return TFLC_OK;
}
/* The table of frame fr: aligned, its vtable aligned and inside. */
static tflc_status tflc__schema_table(tflc_model *m,
                                      const tflc__schema_frame *fr) {
  int64_t vt;
  uint32_t vts, ts, t = fr->t;
  if (t & 3u)
    return TFLC__SCHEMA_FAIL(fr, "table", t, 0, " (misaligned)");
  if ((uint64_t)t + 4 > m->size)
    return TFLC__SCHEMA_FAIL(fr, "table", t, (uint64_t)t + 4, "");
  vt = (int64_t)t - (int64_t)tflc__i32(m->bytes + t);
  if (vt < 0 || (vt & 1))
    return TFLC__SCHEMA_FAIL(fr, "vtable", t, 0, "");
  if (vt + 4 > (int64_t)m->size)
    return TFLC__SCHEMA_FAIL(fr, "vtable", t, (uint64_t)vt + 4, "");
  vts = tflc__u16(m->bytes + vt);
  ts = tflc__u16(m->bytes + vt + 2);
  if (vts < 4 || (vts & 1u) || ts < 4)
    return TFLC__SCHEMA_FAIL(fr, "vtable", t, 0, " (bad sizes)");
  if ((uint64_t)vt + vts > m->size)
    return TFLC__SCHEMA_FAIL(fr, "vtable", t, (uint64_t)vt + vts, "");
  if ((uint64_t)t + ts > m->size)
    return TFLC__SCHEMA_FAIL(fr, "table", t, (uint64_t)t + ts, "");
  return TFLC_OK;
}

static TFLC__NOINLINE tflc_status tflc__verify_schema(tflc_model *m) {
  tflc__schema_frame st[8], *fr;
  uint32_t sp, tables = 1;
  tflc__fb fb = tflc__mfb(m);
  tflc_status s;
  memset(st, 0, sizeof st);
  st[0].t = m->root;
  st[0].kind = TFLC__ST_MODEL;
  st[0].index = 0xFFFFFFFFu;
  st[0].f = (uint16_t)tflc__schema_first(TFLC__ST_MODEL);
  s = tflc__schema_table(m, &st[0]);
  if (s)
    return s;
  sp = 1;
  while (sp > 0) {
    uint32_t slot, kind, arg, vt, vts, ts, fo, p, target = 0, len, sub = 0;
    uint32_t index = 0xFFFFFFFFu;
    const char *fname;
    fr = &st[sp - 1];
    fname = TFLC__SCHEMA_FIELD(fr->f);
    if (fr->vec) { /* next table of a vector of tables */
      tflc__schema_frame el = *fr;
      if (fr->i >= fr->n) {
        fr->vec = 0;
        fr->f++;
        continue;
      }
      el.kind = fr->sub;
      el.index = fr->i;
      s = tflc__schema_offset(m, &el, "offset", fr->vec + 4 * fr->i, &target);
      if (s)
        return s;
      index = fr->i++;
      sub = fr->sub + 1u;
    } else {
      slot = tflc__schema_fields[fr->f][0];
      kind = tflc__schema_fields[fr->f][1];
      arg = tflc__schema_fields[fr->f][2];
      if (kind == TFLC__SF_END) {
        sp--;
        continue;
      }
      vt = (uint32_t)((int64_t)fr->t - (int64_t)tflc__i32(m->bytes + fr->t));
      vts = tflc__u16(m->bytes + vt);
      ts = tflc__u16(m->bytes + vt + 2);
      fo =
          4 + 2 * slot + 2 <= vts ? tflc__u16(m->bytes + vt + 4 + 2 * slot) : 0;
      if (fo == 0) { /* absent */
        fr->f++;
        continue;
      }
      {
        uint32_t sz = kind == TFLC__SF_SCALAR ? arg : 4;
        p = fr->t + fo;
        if (fo < 4 || fo + sz > ts || (p & (sz - 1u)))
          return TFLC__SCHEMA_FAIL(fr, fname, p, 0, " (outside its table)");
      }
      if (kind == TFLC__SF_SCALAR) {
        fr->f++;
        continue;
      }
      s = tflc__schema_offset(m, fr, fname, p, &target);
      if (s)
        return s;
      switch (kind) {
      case TFLC__SF_STRING:
      case TFLC__SF_VECTOR:
        s = tflc__schema_vector(m, fr, fname, target,
                                kind == TFLC__SF_STRING ? 0 : arg, &len);
        fr->f++;
        if (s)
          return s;
        continue;
      case TFLC__SF_STRINGS: {
        uint32_t i, e, n;
        s = tflc__schema_vector(m, fr, fname, target, 4, &n);
        for (i = 0; !s && i < n; i++) {
          s = tflc__schema_offset(m, fr, fname, target + 4 + 4 * i, &e);
          if (!s)
            s = tflc__schema_vector(m, fr, fname, e, 0, &len);
        }
        fr->f++;
        if (s)
          return s;
        continue;
      }
      case TFLC__SF_TABLES:
        s = tflc__schema_vector(m, fr, fname, target, 4, &len);
        if (s)
          return s;
        fr->vec = target + 4;
        fr->n = len;
        fr->i = 0;
        fr->sub = (uint8_t)arg;
        continue;
      case TFLC__SF_TABLE:
        sub = arg + 1u;
        fr->f++;
        break;
      default: /* TFLC__SF_UNION: the type sits in the slot before */
        sub = tflc__schema_union(arg, tflc__get_u8(fb, fr->t, slot - 1, 0));
        fr->f++;
        break;
      }
    }
    if (!sub)
      continue;
    if (++tables > 1000000u)
      return tflc__err(m->error, TFLC_ERR_FLATBUFFER,
                       "more than 1000000 tables");
    if (sp == sizeof st / sizeof st[0])
      return tflc__err(m->error, TFLC_ERR_FLATBUFFER, "tables nest too deep");
    st[sp].t = target;
    st[sp].vec = 0;
    st[sp].kind = (uint8_t)(sub - 1u);
    st[sp].index = index;
    st[sp].pkind = fr->kind;
    st[sp].pindex = fr->index;
    st[sp].f = (uint16_t)tflc__schema_first(sub - 1u);
    s = tflc__schema_table(m, &st[sp]);
    if (s)
      return s;
    sp++;
  }
  return TFLC_OK;
}

static tflc_status tflc__verify_int_vec(const tflc_model *m, uint32_t table,
                                        uint32_t slot, int32_t lo, int32_t hi,
                                        char *err, const char *what,
                                        int32_t where) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t n, i, v = tflc__get_vec(fb, table, slot, 4, &n);
  for (i = 0; v && i < n; i++) {
    int32_t x = tflc__i32(fb.b + v + 4 * i);
    if (x < lo || x >= hi)
      return tflc__err(err, TFLC_ERR_INDEX,
                       "%s %d: tensor index %d out of range", what, where, x);
  }
  return TFLC_OK;
}

static tflc_status tflc__verify_meta(tflc_model *m) {
  tflc__fb fb = tflc__mfb(m), nb;
  uint32_t md, nmd, i, root, sgs, nsg, s, k;
  char *err = m->error;
  md = tflc__get_vec(fb, m->root, TFLC__MODEL_METADATA, 4, &nmd);
  for (i = 0; md && i < nmd; i++) {
    uint32_t e = tflc__vec_table(fb, md, i), len, blen, b;
    const char *name;
    const uint8_t *data;
    name = tflc__get_str(fb, e, TFLC__MD_NAME, &len);
    if (!name || len != 20 || memcmp(name, "COMPRESSION_METADATA", 20) != 0)
      continue;
    if (!TFLC__COMPRESSION)
      return tflc__err(err, TFLC_ERR_UNSUPPORTED,
                       "COMPRESSION_METADATA: compressed tensors not compiled "
                       "in (TFLC_NO_COMPRESSION)");
    if (m->comp_meta)
      return tflc__err(err, TFLC_ERR_COMPRESSION,
                       "two COMPRESSION_METADATA entries");
    b = tflc__get_u32(fb, e, TFLC__MD_BUFFER, 0);
    data = tflc__buffer(m, b, &blen);
    if (!data || blen < 8)
      return tflc__err(err, TFLC_ERR_COMPRESSION,
                       "COMPRESSION_METADATA buffer %u missing or too short",
                       b);
    nb.b = data;
    nb.n = blen;
    root = tflc__u32(data);
    if (!tflc__table_ok(nb, root))
      return tflc__err(err, TFLC_ERR_COMPRESSION,
                       "COMPRESSION_METADATA: broken root table");
    if (tflc__get_u32(nb, root, 0, 1) > 1)
      return tflc__err(err, TFLC_ERR_COMPRESSION,
                       "COMPRESSION_METADATA: schema version %u > 1",
                       tflc__get_u32(nb, root, 0, 1));
    sgs = tflc__get_vec(nb, root, 1, 4, &nsg);
    if (!sgs || nsg == 0)
      return tflc__err(err, TFLC_ERR_COMPRESSION,
                       "COMPRESSION_METADATA: no subgraph list");
    if (nsg > (uint32_t)m->num_subgraphs)
      return tflc__err(err, TFLC_ERR_COMPRESSION,
                       "COMPRESSION_METADATA: %u subgraphs, model has %d", nsg,
                       m->num_subgraphs);
    m->comp_base = (uint32_t)(data - m->bytes);
    m->comp_size = blen;
    m->comp_meta = m->comp_base + root;
    for (s = 0; s < nsg; s++) {
      uint32_t st = tflc__vec_table(nb, sgs, s), luts, nl;
      uint32_t msg = tflc__subgraph(m, (int32_t)s), ntens;
      (void)tflc__sg_vec(m, msg, TFLC__SG_TENSORS, 4, &ntens);
      if (!st)
        return tflc__err(err, TFLC_ERR_COMPRESSION,
                         "COMPRESSION_METADATA: subgraph %u broken", s);
      luts = tflc__get_vec(nb, st, 0, 4, &nl);
      if (tflc__has_field(nb, st, 0) && !luts)
        return tflc__err(err, TFLC_ERR_COMPRESSION,
                         "COMPRESSION_METADATA: subgraph %u LUT list broken",
                         s);
      for (k = 0; luts && k < nl; k++) {
        uint32_t lt = tflc__vec_table(nb, luts, k);
        int32_t t;
        if (!lt)
          return tflc__err(err, TFLC_ERR_COMPRESSION,
                           "COMPRESSION_METADATA: LutTensor %u broken", k);
        t = tflc__get_i32(nb, lt, 0, 0);
        if (t < 0 || (uint32_t)t >= ntens)
          return tflc__err(err, TFLC_ERR_COMPRESSION,
                           "COMPRESSION_METADATA: tensor %d out of range", t);
        /* (a tensor listed twice is found by tflc__lut_window) */
      }
    }
  }
  return TFLC_OK;
}

/* Window w of subgraph s's tensors (indices 512 w .. 512 w + 511):
 * marks in `bits` (64 bytes, on the verifier's stack) those its
 * LutTensors name, verifies each one's descriptor once and refuses a
 * tensor named twice. Walking the tensors a window at a time costs
 * O(entries x tensors / 512), not the O(entries x tensors) of a lookup
 * per tensor, and needs no memory. */
#define TFLC__LUT_WINDOW_SHIFT 9
#define TFLC__LUT_WINDOW_MASK ((1u << TFLC__LUT_WINDOW_SHIFT) - 1u)
#define TFLC__LUT_WINDOW_BYTES (1u << (TFLC__LUT_WINDOW_SHIFT - 3))
static tflc_status tflc__lut_window(tflc_model *m, int32_t s, uint32_t w,
                                    uint8_t *bits) {
  tflc__fb nb = tflc__meta_fb(m);
  uint32_t nl, k, sgt = tflc__subgraph(m, s);
  uint32_t luts = tflc__meta_list(m, s, &nl);
  memset(bits, 0, TFLC__LUT_WINDOW_BYTES);
  for (k = 0; luts && k < nl; k++) {
    uint32_t lt = tflc__vec_table(nb, luts, k), tt, u;
    int32_t t = lt ? tflc__get_i32(nb, lt, 0, 0) : -1;
    tflc_tensor x;
    tflc_const c;
    tflc_status st;
    if (t < 0 || ((uint32_t)t >> TFLC__LUT_WINDOW_SHIFT) != w)
      continue;
    u = (uint32_t)t & TFLC__LUT_WINDOW_MASK;
    if (bits[u >> 3] & (1u << (u & 7)))
      return tflc__err(m->error, TFLC_ERR_COMPRESSION,
                       "COMPRESSION_METADATA: tensor %d listed twice", t);
    bits[u >> 3] = (uint8_t)(bits[u >> 3] | (1u << (u & 7)));
    tt = tflc__tensor_table(m, sgt, t);
    st = tflc__read_tensor(m, tt, &x, m->error, t);
    if (!st)
      st = tflc__meta_const(m, s, lt, tt, &x, t, &c, NULL, m->error, 1);
    if (st)
      return st;
    m->num_lut_tensors++;
  }
  return TFLC_OK;
}

/* Builtin options of operator table ot (options table opt, 0 if none):
 * the union type must be the table the operator takes (or NONE), and the
 * enum fields tflc reads (padding, fused activation) known values.
 * Operators without an entry take any options (unknown operators are
 * refused when the interpreter prepares them). */
static const struct tflc__opdef *tflc__opdef_find(int32_t code);
/* The options of operator i against its row of the operator table: the
 * options type, the padding and fused activation enums in range. */
static tflc_status tflc__verify_options(tflc_model *m, uint32_t ot,
                                        uint32_t opt, int32_t code, uint32_t i);
/* Per-channel quantization of tensor ti of subgraph table sgt: with more
 * than one scale, one scale (and one zero point, or a single one) per
 * element of the quantized dimension. A rank-1 tensor may name an axis
 * past its rank (TFLM's biases do): its one dimension is the channels. */
static tflc_status tflc__verify_channels(tflc_model *m, uint32_t sgt,
                                         int32_t ti) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t tt = ti >= 0 ? tflc__tensor_table(m, sgt, ti) : 0, qt, sv, rank;
  uint32_t ns = 0, nz = 0;
  int32_t qd, dim;
  qt = tt ? tflc__get_ref(fb, tt, TFLC__T_QUANT) : 0;
  if (!qt)
    return TFLC_OK;
  (void)tflc__get_vec(fb, qt, TFLC__Q_SCALE, 4, &ns);
  (void)tflc__get_vec(fb, qt, TFLC__Q_ZP, 8, &nz);
  if (ns <= 1 && nz <= 1)
    return TFLC_OK;
  qd = tflc__get_i32(fb, qt, TFLC__Q_DIM, 0);
  sv = tflc__get_vec(fb, tt, TFLC__T_SHAPE, 4, &rank);
  if (qd < 0 || !sv || rank == 0 || ((uint32_t)qd >= rank && rank != 1))
    return tflc__err(m->error, TFLC_ERR_QUANT,
                     "tensor %d: quantized dimension %d outside rank %u", ti,
                     qd, rank);
  dim = tflc__i32(fb.b + sv + 4 * ((uint32_t)qd < rank ? (uint32_t)qd : 0));
  if ((int64_t)ns != dim || (nz > 1 && nz != ns))
    return tflc__err(m->error, TFLC_ERR_QUANT,
                     "tensor %d: %u scales and %u zero points for %d channels "
                     "(dimension %d)",
                     ti, ns, nz, dim, qd);
  return TFLC_OK;
}

/* Verifies subgraph s: tensors, operators, index ranges, constant buffer
 * lengths, operator codes, and every compression descriptor. (The schema
 * walk has checked every table, vector and string it reads: the
 * accessors find them all.) */
static TFLC__NOINLINE tflc_status tflc__verify_subgraph(tflc_model *m,
                                                        int32_t s) {
  tflc__fb fb = tflc__mfb(m);
  char *err = m->error;
  uint32_t sgt = tflc__subgraph(m, s), nt, no, i, tv, ov;
  uint32_t win = 0xFFFFFFFFu;           /* tensor window of lmap */
  uint8_t lmap[TFLC__LUT_WINDOW_BYTES]; /* its compressed tensors, a bit each */
  tflc_status st;
  tflc_tensor t;
  tv = tflc__sg_vec(m, sgt, TFLC__SG_TENSORS, 4, &nt);
  ov = tflc__sg_vec(m, sgt, TFLC__SG_OPERATORS, 4, &no);
  if (nt > 0x7FFFFFF || no > 0x7FFFFFF)
    return tflc__err(err, TFLC_ERR_SCHEMA, "subgraph %d: too large", s);
  st = tflc__verify_int_vec(m, sgt, TFLC__SG_INPUTS, 0, (int32_t)nt, err,
                            "inputs of subgraph", s);
  if (!st)
    st = tflc__verify_int_vec(m, sgt, TFLC__SG_OUTPUTS, 0, (int32_t)nt, err,
                              "outputs of subgraph", s);
  if (st)
    return st;
  for (i = 0; i < nt; i++) {
    uint32_t tt = tflc__vec_table(fb, tv, i), b, blen;
    const uint8_t *data;
    st = tflc__read_tensor(m, tt, &t, err, (int32_t)i);
    if (st)
      return st;
    if (!TFLC__COMPRESSION && t.type == TFLC_INT4)
      return tflc__err(err, TFLC_ERR_UNSUPPORTED,
                       "tensor %u: INT4 not compiled in (TFLC_NO_COMPRESSION)",
                       i);
    b = tflc__get_u32(fb, tt, TFLC__T_BUFFER, 0);
    if (b >= (uint32_t)m->num_buffers)
      return tflc__err(err, TFLC_ERR_INDEX, "tensor %u: buffer %u out of range",
                       i, b);
    data = tflc__buffer(m, b, &blen);
    if (TFLC__COMPRESSION && (i >> TFLC__LUT_WINDOW_SHIFT) != win) {
      win = i >> TFLC__LUT_WINDOW_SHIFT;
      st = tflc__lut_window(m, s, win, lmap);
      if (st)
        return st;
    }
    if (TFLC__COMPRESSION &&
        (lmap[(i & TFLC__LUT_WINDOW_MASK) >> 3] & (1u << (i & 7u)))) {
      /* compressed (COMPRESSION_METADATA): checked by tflc__lut_window */
    } else if (data && blen < t.bytes) {
      return tflc__err(err, TFLC_ERR_BUFFER,
                       "tensor %u: buffer %u has %u bytes, shape needs %u", i,
                       b, blen, t.bytes);
    }
    /* (a constant misaligned for its type is copied into the arena by
     * tflc_interpreter_init: models run at any address) */
  }
  for (i = 0; i < no; i++) {
    uint32_t ot = tflc__vec_table(fb, ov, i), ni, nout, k, opt;
    int32_t code;
    k = tflc__get_u32(fb, ot, TFLC__OP_OPCODE, 0);
    if (k >= (uint32_t)m->num_opcodes)
      return tflc__err(err, TFLC_ERR_INDEX,
                       "op %u: opcode index %u out of range", i, k);
    code = tflc__opcode(m, k);
    if ((!TFLC__COMPRESSION && code == TFLC_OP_TFLM_DECODE) ||
        (!TFLC__SUBGRAPHS && (code == TFLC_OP_IF || code == TFLC_OP_WHILE ||
                              code == TFLC_OP_CALL_ONCE)))
      return tflc__err(err, TFLC_ERR_UNSUPPORTED,
                       "op %u %s: not compiled in (%s)", i,
                       tflc_opcode_name(code),
                       code == TFLC_OP_TFLM_DECODE ? "TFLC_NO_COMPRESSION"
                                                   : "TFLC_NO_SUBGRAPHS");
    st = tflc__verify_int_vec(m, ot, TFLC__OP_INPUTS, -1, (int32_t)nt, err,
                              "inputs of op", (int32_t)i);
    if (!st)
      st = tflc__verify_int_vec(m, ot, TFLC__OP_OUTPUTS, 0, (int32_t)nt, err,
                                "outputs of op", (int32_t)i);
    if (st)
      return st;
    opt = tflc__get_ref(fb, ot, TFLC__OP_OPTS);
    if (tflc__has_field(fb, ot, TFLC__OP_OPTS) && !tflc__table_ok(fb, opt))
      return tflc__err(err, TFLC_ERR_FLATBUFFER, "op %u %s: broken options", i,
                       tflc_opcode_name(code));
    st = tflc__verify_options(m, ot, opt, code, i);
    if (st)
      return st;
    if (code != TFLC_OP_TFLM_DECODE) {
      /* (a TFLM_DECODE input keeps its decoded tensor's quantization) */
      uint32_t iv = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &ni);
      uint32_t ovv = tflc__get_vec(fb, ot, TFLC__OP_OUTPUTS, 4, &nout);
      uint32_t j;
      for (j = 0; !st && j < ni + nout; j++)
        st = tflc__verify_channels(
            m, sgt,
            tflc__i32(fb.b + (j < ni ? iv + 4 * j : ovv + 4 * (j - ni))));
      if (st)
        return st;
    }
    if (code == TFLC_OP_TFLM_DECODE) {
      uint32_t iv = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &ni);
      uint32_t ovv = tflc__get_vec(fb, ot, TFLC__OP_OUTPUTS, 4, &nout);
      uint32_t j;
      if (nout == 0 || ni != 2 * nout)
        return tflc__err(err, TFLC_ERR_COMPRESSION,
                         "op %u TFLM_DECODE: %u inputs for %u outputs", i, ni,
                         nout);
      for (j = 0; j < nout; j++) {
        int32_t e = tflc__i32(fb.b + iv + 8 * j);
        int32_t a = tflc__i32(fb.b + iv + 8 * j + 4);
        int32_t o = tflc__i32(fb.b + ovv + 4 * j);
        tflc_const c;
        if (e < 0 || a < 0)
          return tflc__err(err, TFLC_ERR_COMPRESSION,
                           "op %u TFLM_DECODE: absent input", i);
        uint32_t ott = tflc__tensor_table(m, sgt, o);
        st = tflc__read_tensor(m, ott, &t, err, o);
        if (!st)
          st = tflc__decode_const(m, sgt, e, a, ott, &t, o, &c, NULL, err, 1);
        if (st)
          return st;
        m->num_lut_tensors++;
      }
    }
  }
  return TFLC_OK;
}

/* Subgraphs running subgraphs (IF, WHILE, CALL_ONCE): every index in
 * range, no subgraph running itself directly or indirectly, and at most
 * TFLC_MAX_NESTING levels below any subgraph, so that invoke and the
 * planner never go deeper. Heights (levels below a subgraph) grow by
 * relaxation, one round per level: a cycle exceeds the bound within
 * TFLC_MAX_NESTING + 1 rounds. Subgraphs taking part: the first
 * TFLC__MAX_CALL_GRAPHS. */
#define TFLC__MAX_CALL_GRAPHS 256
#if TFLC_MAX_NESTING < 1 || TFLC_MAX_NESTING > 64
#error "TFLC_MAX_NESTING must be 1..64"
#endif
static TFLC__NOINLINE tflc_status tflc__verify_calls(tflc_model *m) {
  uint8_t height[TFLC__MAX_CALL_GRAPHS];
  int32_t round, sg, i, k, changed = 1;
  tflc__fb fb = tflc__mfb(m);
  memset(height, 0, sizeof height);
  for (round = 0; changed && round <= TFLC_MAX_NESTING; round++) {
    changed = 0;
    for (sg = 0; sg < m->num_subgraphs; sg++) {
      uint32_t sgt = tflc__subgraph(m, sg);
      int32_t no = tflc_model_num_ops(m, sg);
      for (i = 0; i < no; i++) {
        uint32_t ot = tflc__op_table(m, sgt, i);
        int32_t code =
            tflc__opcode(m, tflc__get_u32(fb, ot, TFLC__OP_OPCODE, 0));
        int32_t g[2];
        int32_t n = tflc__op_subgraphs(m, code,
                                       tflc__get_ref(fb, ot, TFLC__OP_OPTS), g);
        for (k = 0; k < n; k++) {
          if (g[k] < 0 || g[k] >= m->num_subgraphs)
            return tflc__err(m->error, TFLC_ERR_INDEX,
                             "subgraph %d op %d: subgraph %d out of range", sg,
                             i, g[k]);
          if (sg >= TFLC__MAX_CALL_GRAPHS || g[k] >= TFLC__MAX_CALL_GRAPHS)
            return tflc__err(
                m->error, TFLC_ERR_UNSUPPORTED,
                "subgraph %d op %d: control flow beyond subgraph %d", sg, i,
                TFLC__MAX_CALL_GRAPHS - 1);
          if (height[g[k]] + 1 > height[sg]) {
            height[sg] = (uint8_t)(height[g[k]] + 1);
            changed = 1;
            if (height[sg] > TFLC_MAX_NESTING)
              return tflc__err(m->error, TFLC_ERR_UNSUPPORTED,
                               "subgraph %d: subgraphs call themselves or nest "
                               "deeper than %d",
                               sg, TFLC_MAX_NESTING);
          }
        }
      }
    }
  }
  return TFLC_OK;
}

TFLC_API tflc_status tflc_model_init(tflc_model *m, const void *bytes,
                                     size_t size) {
  tflc__fb fb;
  uint32_t n, i;
  tflc_status st;
  if (!m)
    return TFLC_ERR_ARG;
  memset(m, 0, sizeof *m);
  if (!bytes)
    return tflc__err(m->error, TFLC_ERR_ARG, "no model bytes");
  if (size < 8)
    return tflc__err(m->error, TFLC_ERR_TRUNCATED, "model is %u bytes",
                     (unsigned)size);
  if (size > 0x7FFFFFF0u)
    return tflc__err(m->error, TFLC_ERR_UNSUPPORTED, "model larger than 2 GiB");
  m->bytes = (const uint8_t *)bytes;
  m->size = size;
  fb = tflc__mfb(m);
  if (memcmp(m->bytes + 4, "TFL3", 4) != 0)
    return tflc__err(m->error, TFLC_ERR_IDENTIFIER,
                     "file identifier is not TFL3");
  m->root = tflc__u32(m->bytes);
  /* every table, vector and string, first: a cut-off model is reported
   * as truncated, with the offset of the first thing that runs past.
   * What follows reads only what the walk checked: the accessors find
   * every table, vector and string it names. */
  st = tflc__verify_schema(m);
  if (st)
    return st;
  /* TFLM runs schema version 3 only */
  if (tflc__get_u32(fb, m->root, TFLC__MODEL_VERSION, 0) != 3)
    return tflc__err(m->error, TFLC_ERR_UNSUPPORTED,
                     "schema version %u (TFLite models are version 3)",
                     tflc__get_u32(fb, m->root, TFLC__MODEL_VERSION, 0));
  m->opcodes = tflc__get_vec(fb, m->root, TFLC__MODEL_OPCODES, 4, &n);
  m->num_opcodes = (int32_t)n;
  m->subgraphs = tflc__get_vec(fb, m->root, TFLC__MODEL_SUBGRAPHS, 4, &n);
  m->num_subgraphs = (int32_t)n;
  if (!m->subgraphs || n == 0)
    return tflc__err(m->error, TFLC_ERR_SCHEMA, "model has no subgraph");
  if (!TFLC__SUBGRAPHS && n > 1)
    return tflc__err(m->error, TFLC_ERR_UNSUPPORTED,
                     "model has %u subgraphs (TFLC_NO_SUBGRAPHS: one)", n);
  m->buffers = tflc__get_vec(fb, m->root, TFLC__MODEL_BUFFERS, 4, &n);
  m->num_buffers = (int32_t)n;
  for (i = 0; i < (uint32_t)m->num_opcodes; i++) {
    uint32_t oc = tflc__vec_table(fb, m->opcodes, i), len;
    if (tflc__get_i32(fb, oc, TFLC__OC_BUILTIN, 0) == TFLC_OP_CUSTOM &&
        !tflc__get_str(fb, oc, TFLC__OC_CUSTOM, &len))
      return tflc__err(m->error, TFLC_ERR_SCHEMA,
                       "operator code %u: CUSTOM without a name", i);
  }
  for (i = 0; i < (uint32_t)m->num_buffers; i++) {
    uint32_t bt = tflc__vec_table(fb, m->buffers, i);
    uint64_t off, sz;
    off = tflc__get_u64(fb, bt, TFLC__BUF_OFFSET);
    sz = tflc__get_u64(fb, bt, TFLC__BUF_SIZE);
    if (off > 1 && (off > size || sz > size - off))
      return tflc__err(m->error, TFLC_ERR_TRUNCATED,
                       "buffer %u: offset/size outside the model", i);
  }
  st = tflc__verify_meta(m);
  if (st)
    return st;
  for (i = 0; i < (uint32_t)m->num_subgraphs; i++) {
    st = tflc__verify_subgraph(m, (int32_t)i);
    if (st)
      return st;
  }
  st = TFLC__SUBGRAPHS ? tflc__verify_calls(m) : TFLC_OK;
  if (st)
    return st;
  m->verified = 1;
  return TFLC_OK;
}
TFLC_API const char *tflc_model_error(const tflc_model *m) {
  return m ? m->error : "no model";
}
TFLC_API int32_t tflc_model_num_ops(const tflc_model *m, int32_t sg) {
  uint32_t n = 0, sgt = tflc__subgraph(m, sg);
  if (sgt)
    (void)tflc__sg_vec(m, sgt, TFLC__SG_OPERATORS, 4, &n);
  return (int32_t)n;
}
TFLC_API int32_t tflc_model_num_tensors(const tflc_model *m, int32_t sg) {
  uint32_t n = 0, sgt = tflc__subgraph(m, sg);
  if (sgt)
    (void)tflc__sg_vec(m, sgt, TFLC__SG_TENSORS, 4, &n);
  return (int32_t)n;
}
TFLC_API int32_t tflc_model_op_io(const tflc_model *m, int32_t sg, int32_t i,
                                  int outputs, int32_t k) {
  uint32_t ot = tflc__op_table(m, tflc__subgraph(m, sg), i), n;
  uint32_t v = tflc__get_vec(
      tflc__mfb(m), ot, outputs ? TFLC__OP_OUTPUTS : TFLC__OP_INPUTS, 4, &n);
  if (k < 0)
    return (int32_t)n;
  if (!v || (uint32_t)k >= n)
    return -1;
  return tflc__i32(m->bytes + v + 4 * (uint32_t)k);
}
static int32_t tflc__tensor_quant(const tflc_model *m, uint32_t sgt, int32_t t,
                                  int32_t i, float *scale, int64_t *zero_point,
                                  int32_t *axis);
TFLC_API int32_t tflc_model_tensor_quant(const tflc_model *m, int32_t sg,
                                         int32_t t, int32_t i, float *scale,
                                         int64_t *zero_point, int32_t *axis) {
  return tflc__tensor_quant(m, tflc__subgraph(m, sg), t, i, scale, zero_point,
                            axis);
}
/* The same, subgraph by table (tflc_op_tensor_quant). */
static int32_t tflc__tensor_quant(const tflc_model *m, uint32_t sgt, int32_t t,
                                  int32_t i, float *scale, int64_t *zero_point,
                                  int32_t *axis) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t tt = tflc__tensor_table(m, sgt, t);
  uint32_t qt = tt ? tflc__get_ref(fb, tt, TFLC__T_QUANT) : 0, ns = 0, nz = 0;
  uint32_t sv = qt ? tflc__get_vec(fb, qt, TFLC__Q_SCALE, 4, &ns) : 0;
  uint32_t zv = qt ? tflc__get_vec(fb, qt, TFLC__Q_ZP, 8, &nz) : 0;
  if (axis)
    *axis = qt ? tflc__get_i32(fb, qt, TFLC__Q_DIM, 0) : 0;
  if (!sv || !zv || ns == 0 || nz == 0)
    return 0;
  if (i >= 0 && (uint32_t)i < ns) {
    if (scale)
      *scale = tflc__f32(fb.b + sv + 4 * (uint32_t)i);
    if (zero_point)
      *zero_point = (int64_t)tflc__u64(
          fb.b + zv + 8 * ((uint32_t)i < nz ? (uint32_t)i : 0));
  }
  return (int32_t)ns;
}
TFLC_API int32_t tflc_model_op_code(const tflc_model *m, int32_t sg,
                                    int32_t i) {
  uint32_t ot = tflc__op_table(m, tflc__subgraph(m, sg), i);
  if (!ot)
    return -1;
  return tflc__opcode(m, tflc__get_u32(tflc__mfb(m), ot, TFLC__OP_OPCODE, 0));
}
TFLC_API const char *tflc_model_op_custom_name(const tflc_model *m, int32_t sg,
                                               int32_t i, uint32_t *len) {
  uint32_t ot = tflc__op_table(m, tflc__subgraph(m, sg), i);
  *len = 0;
  return ot ? tflc__op_custom_name(m, ot, len) : NULL;
}
TFLC_API tflc_status tflc_model_tensor(const tflc_model *m, int32_t sg,
                                       int32_t t, tflc_tensor *out,
                                       const char **name, uint32_t *name_len) {
  char err[TFLC_ERROR_LEN];
  uint32_t tt = tflc__tensor_table(m, tflc__subgraph(m, sg), t), len = 0;
  const uint8_t *d;
  tflc_status st;
  if (!tt)
    return TFLC_ERR_INDEX;
  st = tflc__read_tensor(m, tt, out, err, t);
  if (st)
    return st;
  d = tflc__buffer(m, tflc__get_u32(tflc__mfb(m), tt, TFLC__T_BUFFER, 0), &len);
  if (d) {
    out->data = (void *)(uintptr_t)d;
    out->flags |= TFLC_TENSOR_CONST;
  }
  if (name)
    *name = tflc__get_str(tflc__mfb(m), tt, TFLC__T_NAME, &len);
  if (name_len)
    *name_len = name && *name ? len : 0;
  return TFLC_OK;
}
TFLC_API int tflc_model_lut(const tflc_model *m, int32_t sg, int32_t t,
                            tflc_const *c, uint32_t *stored, int *format) {
  char err[TFLC_ERROR_LEN];
  tflc__fb fb = tflc__mfb(m);
  uint32_t sgt = tflc__subgraph(m, sg), lt, no, i, j;
  tflc_tensor tt;
  if (tflc_model_tensor(m, sg, t, &tt, NULL, NULL) != TFLC_OK)
    return 0;
  lt = tflc__meta_lut(m, sg, t);
  if (lt) {
    if (format)
      *format = 1;
    return tflc__meta_const(m, sg, lt, tflc__tensor_table(m, sgt, t), &tt, t, c,
                            stored, err, 0) == TFLC_OK;
  }
  (void)tflc__sg_vec(m, sgt, TFLC__SG_OPERATORS, 4, &no);
  for (i = 0; i < no; i++) {
    uint32_t ot = tflc__op_table(m, sgt, (int32_t)i), ni, nout, iv, ov;
    if (tflc__opcode(m, tflc__get_u32(fb, ot, TFLC__OP_OPCODE, 0)) !=
        TFLC_OP_TFLM_DECODE)
      continue;
    iv = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &ni);
    ov = tflc__get_vec(fb, ot, TFLC__OP_OUTPUTS, 4, &nout);
    for (j = 0; j < nout && 2 * j + 1 < ni; j++) {
      if (tflc__i32(fb.b + ov + 4 * j) != t)
        continue;
      if (format)
        *format = 2;
      return tflc__decode_const(m, sgt, tflc__i32(fb.b + iv + 8 * j),
                                tflc__i32(fb.b + iv + 8 * j + 4),
                                tflc__tensor_table(m, sgt, t), &tt, t, c,
                                stored, err, 0) == TFLC_OK;
    }
  }
  return 0;
}

/* ======================================================================== */
/* Interpreter records: the arena, operator records, the operator context,  */
/* helpers every operator uses.                                             */
/*                                                                          */
/* Arena: [ planned activations ... | ... persistent state ]                */
/* Persistent state (tensor records, op records, op state, LUT descriptors, */
/* variables) grows down from the end; activations and per-op scratch are   */
/* placed from the start by a greedy first-fit planner over lifetimes.      */
/* ======================================================================== */
#define TFLC__ALIGN 16u
#define TFLC__MAX_SCRATCH 3
#define TFLC__CURSORS 2 /* decode positions: filter, other inputs */
/* An operator input slot holding TFLC__NO_RECORD(j) reads a raw constant
 * that has no record after init: one only FULLY_CONNECTED (int8, float32)
 * reads as weights or bias, whose prepare keeps what its invoke needs (the
 * data and the shape) in its state; 44 bytes a tensor less on a 32-bit
 * target. While that operator is prepared, its j-th such input has a
 * record in it->prep_consts (built from the model after the init map). */
#define TFLC__NO_RECORD(j) (-2 - (int32_t)(j))
/* bytes one such record takes then: the 64-bit layout's, on every target,
 * so that the init map (and the arena) is the same on both */
#define TFLC__PREP_RECORD_BYTES ((sizeof(tflc__tensor32) + 4u + 7u) & ~7u)

/* The context of one operator at prepare and invoke (tflc_op_context in
 * the API). */
struct tflc_op_context {
  tflc_interpreter *it;
  const tflc_model *m;
  uint32_t sgt;
  tflc__op *op;
};
typedef struct tflc_op_context tflc__ctx;
/* Defined with the delegates (section 13). */
static tflc_status tflc__delegate_graph(tflc_interpreter *it, int32_t sg);
static int tflc__is_partition(const tflc__op *op);
static tflc_status tflc__partition_err(tflc__ctx *c, tflc_status st,
                                       const char *message);

/* One subgraph's records, kept (persistent, compact) when a model has
 * several: what the interpreter's view fields hold while it runs. */
typedef struct tflc__graph {
  tflc_tensor *tensors;
  tflc__op *ops;
  int16_t *io; /* input records, then output records */
  int32_t num_tensors, num_ops;
  uint32_t sgt;
  uint16_t num_inputs, num_outputs;
  uint8_t ran; /* CALL_ONCE: already run */
} tflc__graph;
#define TFLC__GRAPH_IN(g, k) ((g)->io[k])
#define TFLC__GRAPH_OUT(g, k) ((g)->io[(g)->num_inputs + (k)])
/* The view fields themselves, saved on the stack while a subgraph runs. */
typedef struct tflc__view {
  tflc_tensor *tensors;
  tflc__op *ops;
  int32_t num_tensors, num_ops, num_inputs, num_outputs;
  int32_t inputs[TFLC_MAX_IO], outputs[TFLC_MAX_IO];
  uint32_t sgt;
} tflc__view;

/* A resource variable: VAR_HANDLE (container, shared_name) names it; its
 * buffer is persistent arena, sized by the first READ or ASSIGN. */
typedef struct tflc__var {
  const char *container, *name;
  uint32_t container_len, name_len;
  void *data;
  uint32_t bytes;
  uint8_t type;
  uint8_t fill;     /* byte the variable starts as (tflc_reset) */
  uint8_t fill_set; /* fill chosen by the first ASSIGN_VARIABLE */
} tflc__var;

/* The persistent records holding pointers, as a 32-bit target (4-byte
 * pointers) lays them out: with them a host computes the arena a 32-bit
 * microcontroller needs, exactly (tflc_arena_used_for(it, 32)). A 32-bit
 * build checks that they match the real records (below): change both. */
typedef struct tflc__tensor32 {
  uint32_t data;
  int32_t dims[TFLC_MAX_DIMS];
  uint32_t bytes;
  float scale;
  int16_t zero_point;
  uint16_t index;
  uint8_t rank, type, flags, nscales;
} tflc__tensor32;
typedef struct tflc__whole32 {
  int32_t slot, scratch;
  uint32_t ptr;
} tflc__whole32;
typedef struct tflc__op32 {
  int32_t code, index;
  uint32_t opts;
  uint16_t nin, nout;
  uint8_t nscratch, nwhole, variant, user;
  uint32_t in, state, scratch, whole;
} tflc__op32;
typedef struct tflc__graph32 {
  uint32_t tensors, ops, io;
  int32_t num_tensors, num_ops;
  uint32_t sgt;
  uint16_t num_inputs, num_outputs;
  uint8_t ran;
} tflc__graph32;
typedef struct tflc__var32 {
  uint32_t container, name, container_len, name_len, data, bytes;
  uint8_t type, fill, fill_set;
} tflc__var32;
typedef struct tflc__conv_params32 {
  int32_t v[11];
  uint32_t out_multiplier, out_shift;
} tflc__conv_params32;
typedef struct tflc__fc_params32 {
  int32_t v[6];
  uint32_t out_multiplier, out_shift;
} tflc__fc_params32;
typedef struct tflc__const32 {
  uint32_t data, values;
  int32_t count, channels, elems_per_channel;
  uint16_t stride;
  uint8_t type, bits, alt_axis, kind, wide, first_bits, aux_stride;
  int8_t zero;
  uint32_t data_bytes, nvalues, aux, cursor;
} tflc__const32;
typedef struct tflc__cursor32 {
  uint32_t data, values, tag;
  int32_t elem;
  uint32_t pos;
  int32_t mark_elem;
  uint32_t mark_pos, restarts;
} tflc__cursor32;
#if defined(UINTPTR_MAX) && UINTPTR_MAX == 0xFFFFFFFFu
typedef char tflc__layout32_matches
    [sizeof(tflc_tensor) == sizeof(tflc__tensor32) &&
             sizeof(tflc__whole) == sizeof(tflc__whole32) &&
             sizeof(tflc__op) == sizeof(tflc__op32) &&
             sizeof(tflc__graph) == sizeof(tflc__graph32) &&
             sizeof(tflc__var) == sizeof(tflc__var32) &&
             sizeof(tflc_conv_params) == sizeof(tflc__conv_params32) &&
             sizeof(tflc_fc_params) == sizeof(tflc__fc_params32) &&
             sizeof(tflc_const) == sizeof(tflc__const32) &&
             sizeof(tflc_const_cursor) == sizeof(tflc__cursor32) &&
             offsetof(tflc_const, data_bytes) ==
                 offsetof(tflc__const32, data_bytes)
         ? 1
         : -1];
#endif

/* Persistent allocation from the end of the arena: `bytes` here, `bytes32`
 * on a 32-bit target (tail32 counts those). */
static void *tflc__persist2(tflc_interpreter *it, size_t bytes,
                            size_t bytes32) {
  void *p;
  size_t tail = it->tail;
  size_t need = (bytes + 7) & ~(size_t)7;
  /* never into the planned activations of earlier subgraphs nor into the
   * init-time map / planning table at the start of the arena */
  /* (head ends init as the larger of the two, unrounded: nothing below
   * the floor is touched after init, and tflc_arena_used adds them up) */
  size_t floor = it->head > it->map_bytes ? it->head : it->map_bytes;
  if (bytes > it->arena_size || floor > it->arena_size - it->tail ||
      need > it->arena_size - it->tail - floor)
    return NULL;
  it->tail += need;
  it->tail32 += (bytes32 + 7) & ~(size_t)7;
  p = it->arena + it->arena_size - it->tail;
  memset(p, 0, it->tail - tail);
  return p;
}
/* Persistent bytes without pointers: the same on every target. */
static void *tflc__persist(tflc_interpreter *it, size_t bytes) {
  return tflc__persist2(it, bytes, bytes);
}

#ifndef TFLC_NO_ERROR_STRINGS
/* The operator's name for messages: its custom_code when it is a custom
 * operator (a flatbuffer string, NUL-terminated in a verified model). */
static const char *tflc__op_name(const tflc__ctx *c) {
  uint32_t len;
  const char *n = NULL;
  if (c->op->code == TFLC_OP_UNKNOWN_CUSTOM)
    n = tflc__op_custom_name(c->m, tflc__op_table(c->m, c->sgt, c->op->index),
                             &len);
  return n ? n : tflc_opcode_name(c->op->code);
}
#endif
static tflc_status tflc__op_err(tflc__ctx *c, tflc_status st, const char *what,
                                int32_t a, int32_t b) {
#ifndef TFLC_NO_ERROR_STRINGS
  char tmp[TFLC_ERROR_LEN];
  tflc__err(tmp, st, what, a, b);
  if (tflc__is_partition(c->op)) /* delegates: "partition N (...): " */
    return tflc__partition_err(c, st, tmp);
  tflc__err(c->it->error, st, "op %d %s: %s", c->op->index, tflc__op_name(c),
            tmp);
#else
  (void)what;
  (void)a;
  (void)b;
  c->it->error[0] = 0;
#endif
  return st;
}
/* "op N NAME: types A<sep>B -> O unsupported" (TFLC_ERR_UNSUPPORTED). */
static tflc_status tflc__op_err_types(tflc__ctx *c, const char *sep,
                                      const tflc_tensor *a,
                                      const tflc_tensor *b,
                                      const tflc_tensor *o) {
#ifndef TFLC_NO_ERROR_STRINGS
  char tmp[TFLC_ERROR_LEN];
  (void)tflc__err(tmp, TFLC_OK, "types %s%s%s -> %s unsupported",
                  tflc_type_name(a->type), sep, tflc_type_name(b->type),
                  tflc_type_name(o->type));
  return tflc__err(c->it->error, TFLC_ERR_UNSUPPORTED, "op %d %s: %s",
                   c->op->index, tflc__op_name(c), tmp);
#else
  (void)sep;
  (void)a;
  (void)b;
  (void)o;
  c->it->error[0] = 0;
  return TFLC_ERR_UNSUPPORTED;
#endif
}
static tflc_tensor *tflc__in(tflc__ctx *c, int32_t k) {
  int32_t r;
  if (k >= c->op->nin)
    return NULL;
  r = c->op->in[k];
  if (r >= 0)
    return &c->it->tensors[r];
  /* TFLC__NO_RECORD(j): a constant whose record exists only while its
   * operator is prepared; absent (NULL) at invoke */
  return r < -1 && c->it->prep_consts ? &c->it->prep_consts[-2 - r] : NULL;
}
static tflc_tensor *tflc__out(tflc__ctx *c, int32_t k) {
  if (k >= c->op->nout)
    return NULL;
  return &c->it->tensors[TFLC__OUT(c->op)[k]];
}
static int tflc__same_shape(const tflc_tensor *a, const tflc_tensor *b) {
  int i;
  if (a->rank != b->rank)
    return 0;
  for (i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i])
      return 0;
  return 1;
}
static tflc__fb tflc__cfb(tflc__ctx *c) {
  return tflc__mfb(c->m);
}
/* Requests a scratch buffer living for this op only; returns its index. */
/* The error of a failed tflc__scratch: the arena is full, or the op asked
 * for more than TFLC__MAX_SCRATCH buffers. */
static tflc_status tflc__scratch_err(tflc__ctx *c) {
  if (c->op->nscratch < TFLC__MAX_SCRATCH)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for scratch records", 0,
                        0);
  return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "too many scratch buffers", 0,
                      0);
}
static int32_t tflc__scratch(tflc__ctx *c, uintptr_t bytes) {
  tflc__op *op = c->op;
  /* only records in the ops array are planned (not the operators a
   * delegate took: their partition asks) */
  if (op->nscratch >= TFLC__MAX_SCRATCH ||
      (uintptr_t)op < (uintptr_t)c->it->ops ||
      (uintptr_t)op >= (uintptr_t)(c->it->ops + c->it->num_ops))
    return -1;
  /* most ops need one scratch buffer (a decode tile): one slot first, then
   * room for all of them */
  if (op->nscratch == 0 || op->nscratch == 1) {
    const size_t n = op->nscratch ? TFLC__MAX_SCRATCH : 1;
    uintptr_t *p =
        (uintptr_t *)tflc__persist2(c->it, sizeof(uintptr_t) * n, 4u * n);
    if (!p)
      return -1;
    if (op->nscratch)
      p[0] = op->scratch[0];
    op->scratch = p;
  }
  op->scratch[op->nscratch] = bytes;
  return op->nscratch++;
}
/* Bytes of a kept LUT descriptor: the fields before data_bytes (the rest
 * serve Huffman and Prune only). */
#define TFLC__LUT_DESC_BYTES offsetof(tflc_const, data_bytes)
#define TFLC__LUT_DESC_BYTES32 offsetof(tflc__const32, data_bytes)
/* 1 when p points into the model: the (encoded, ancillary) pair that a
 * Huffman or Prune tensor's record keeps instead of a descriptor. */
static int tflc__in_model(const tflc_model *m, const void *p) {
  const uintptr_t a = (uintptr_t)p, b = (uintptr_t)m->bytes;
  return a >= b && a - b < m->size;
}
/* The descriptor of a compressed tensor from the (verified) model, built
 * once at interpreter init: `data` points at its LutTensor table
 * (COMPRESSION_METADATA) or at its (encoded, ancillary) pair in a
 * TFLM_DECODE operator. */
static tflc_status tflc__lut_desc(tflc_interpreter *it, uint32_t sgt,
                                  const tflc_tensor *t, tflc_const *d) {
  const tflc_model *m = it->model;
  const uint8_t *p = (const uint8_t *)t->data;
  uint32_t tt = tflc__tensor_table(m, sgt, t->index);
  if (t->flags & TFLC_TENSOR_DECODED)
    return tflc__decode_const(m, sgt, tflc__i32(p), tflc__i32(p + 4), tt, t,
                              t->index, d, NULL, it->error, 0);
  return tflc__meta_const(m, 0, (uint32_t)(p - (m->bytes + m->comp_base)), tt,
                          t, t->index, d, NULL, it->error, 0);
}
/* The descriptor of compressed tensor t: the LUT one kept in the arena at
 * init, or, for Huffman and Prune (larger descriptors), rebuilt from the
 * model's pair: a few hundred instructions per operator call instead of
 * 48 bytes of arena per tensor (64 on 64-bit hosts). */
static void tflc__desc_of(tflc_interpreter *it, uint32_t sgt,
                          const tflc_tensor *t, tflc_const *d) {
  const tflc_model *m = it->model;
  memset(d, 0, sizeof *d);
  if (tflc__in_model(m, t->data)) {
    /* (checked at init: the message is never written here) */
    const uint8_t *p = (const uint8_t *)t->data;
    (void)tflc__decode_const(m, sgt, tflc__i32(p), tflc__i32(p + 4),
                             tflc__tensor_table(m, sgt, t->index), t, t->index,
                             d, NULL, it->error, 0);
  } else {
    memcpy(d, t->data, TFLC__LUT_DESC_BYTES);
  }
}
/* The cursor a Huffman / Prune input of the running operator decodes
 * with: one for the filter (input 1), one for the others (biases, the
 * inputs of CONCATENATION, decoded one after the other), NULL when
 * none. */
static tflc_const_cursor *tflc__cursor_for(tflc__ctx *c, const tflc_tensor *t) {
  int32_t k;
  if (!c->it->cursors || !c->op)
    return NULL;
  for (k = 0; k < c->op->nin; k++)
    if (c->op->in[k] >= 0 && &c->it->tensors[c->op->in[k]] == t)
      return &c->it->cursors[k == 1 ? 0 : 1];
  return NULL;
}
/* The constant as kernels read it: raw data, INT4, or the descriptor a
 * compressed tensor's record points at (built at init; Huffman and Prune
 * ones get the cursor of their input slot). */
static tflc_const tflc__const(tflc__ctx *c, const tflc_tensor *t) {
  if (TFLC__COMPRESSION && (t->flags & TFLC_TENSOR_LUT)) {
    tflc_const d;
    tflc__desc_of(c->it, c->sgt, t, &d);
    if (d.kind == TFLC_CONST_HUFFMAN || d.kind == TFLC_CONST_PRUNE)
      d.cursor = tflc__cursor_for(c, t);
    return d;
  }
  if (TFLC__COMPRESSION && t->type == TFLC_INT4)
    return tflc_const_int4(t->data, tflc__count(t));
  return tflc_const_raw(t->data, (tflc_type)t->type, tflc__count(t));
}
/* Requires input k to be constant (raw or compressed). */
static int tflc__is_const(const tflc_tensor *t) {
  return t && (t->flags & (TFLC_TENSOR_CONST | TFLC_TENSOR_LUT |
                           TFLC_TENSOR_DECODED)) != 0;
}

/* Defined with the operator table, at the end of the operators. */
static tflc_status tflc__prepare_op(tflc__ctx *c);
static tflc_status tflc__run_op(tflc__ctx *c);
static uint8_t tflc__user_op_for(const tflc_interpreter *it, int32_t code,
                                 uint32_t ot);
static int tflc__tiled_input(int32_t code, int user, int32_t k);
static int tflc__op_facts(int32_t code, int mask);
static void tflc__reset_op(tflc__ctx *c);
/* Defined with the variable operators. */
static tflc_status tflc__vars_init(tflc_interpreter *it);

/* 1 when ancillary tensor `a` of a DECODE pair says Huffman or Prune. */
static int tflc__decode_stream_pair(const tflc_model *m, uint32_t sgt,
                                    int32_t a) {
  uint32_t n;
  const uint8_t *anc =
      tflc__buffer(m,
                   tflc__get_u32(tflc__mfb(m), tflc__tensor_table(m, sgt, a),
                                 TFLC__T_BUFFER, 0),
                   &n);
  return anc && n >= 16 && (anc[0] == 1 || anc[0] == 2);
}
/* Whether the kernel of operator `code` (table ot) reads a Huffman or
 * Prune constant at input k in stream order, so that it can decode it in
 * place: every input but a filter (biases, concatenated or assigned
 * values: read front to back); a filter as its row's TFLC_OPF_FILTER_*
 * says: ROWS when one output channel's row fits the decode tile (decoded
 * once per channel, in order; else again for every pixel), MATRIX when a
 * row fits or there is one batch, SPREAD never (a channel's taps are
 * spread over the whole tensor). The others are decoded whole before the
 * operator, as TFLM always does. */
static int tflc__stream_inplace(const tflc_model *m, uint32_t sgt, uint32_t ot,
                                int32_t code, int32_t k) {
  char err[TFLC_ERROR_LEN];
  tflc__fb fb = tflc__mfb(m);
  uint32_t ni, iv = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &ni);
  tflc_tensor f, x;
  uint64_t row;
  size_t es;
  const int filter = tflc__op_facts(code, TFLC_OPF_FILTER_MASK);
  if (k != 1 || !filter)
    return 1;
  if (filter == TFLC_OPF_FILTER_SPREAD)
    return 0;
  if (ni < 2 ||
      tflc__read_tensor(m, tflc__tensor_table(m, sgt, tflc__i32(fb.b + iv + 4)),
                        &f, err, 1) != TFLC_OK)
    return 0;
  es = tflc_type_size(f.type);
  if (filter == TFLC_OPF_FILTER_MATRIX) {
    if (f.rank != 2)
      return 0;
    if ((uint64_t)f.dims[1] * es <= TFLC_TILE_BYTES)
      return 1;
    /* one batch: the row is read once, front to back, in pieces */
    return tflc__i32(fb.b + iv) >= 0 &&
           tflc__read_tensor(m,
                             tflc__tensor_table(m, sgt, tflc__i32(fb.b + iv)),
                             &x, err, 0) == TFLC_OK &&
           tflc__count(&x) == f.dims[1];
  }
  if (f.rank != 4)
    return 0;
  row = (uint64_t)f.dims[1] * (uint64_t)f.dims[2] * (uint64_t)f.dims[3] * es;
  return row <= TFLC_TILE_BYTES;
}
/* 1 when input k of the operator is a compressed constant it reads
 * decoded whole (see tflc__stream_inplace and tflc__tiled_input; a
 * Huffman / Prune bias of a TFLC_OPF_BIAS_BESIDE_FILTER operator also
 * when its filter is not read compressed). */
static int tflc__whole_input(tflc__ctx *c, int32_t k) {
  const tflc__op *op = c->op;
  const tflc_tensor *t = op->in[k] >= 0 ? &c->it->tensors[op->in[k]] : NULL;
  tflc_const d;
  if (!t || !(t->flags & TFLC_TENSOR_LUT))
    return 0;
  if (!tflc__tiled_input(op->code, op->user, k))
    return 1;
  tflc__desc_of(c->it, c->sgt, t, &d);
  if (d.kind != TFLC_CONST_HUFFMAN && d.kind != TFLC_CONST_PRUNE)
    return 0;
  if (k == 2 && tflc__op_facts(op->code, TFLC_OPF_BIAS_BESIDE_FILTER)) {
    /* the bias is read once per channel only beside a filter read
     * compressed; beside a plain one, at every pixel: then whole (small) */
    const tflc_tensor *f = op->in[1] >= 0 ? &c->it->tensors[op->in[1]] : NULL;
    return !f || !(f->type == TFLC_INT4 ||
                   ((f->flags & TFLC_TENSOR_LUT) && !tflc__whole_input(c, 1)));
  }
  return !tflc__stream_inplace(
      c->m, c->sgt, tflc__op_table(c->m, c->sgt, op->index), op->code, k);
}
/* 1 when input k is decoded whole before the operator runs. */
static int tflc__decoded_whole(const tflc__ctx *c, int32_t k) {
  int32_t j;
  for (j = 0; j < c->op->nwhole; j++)
    if (c->op->whole[j].slot == k)
      return 1;
  return 0;
}

/* ======================================================================== */
/* Planner: greedy first-fit by decreasing size over tensor lifetimes, as  */
/* TFLM's greedy planner, with RESHAPE outputs sharing their input's        */
/* buffer. One plan for every subgraph, on one timeline as TFLM builds it:  */
/* subgraph 0's operators in order, each operator running subgraphs (IF,   */
/* WHILE, CALL_ONCE) followed by their operators before the next one, so   */
/* subgraphs that never run at the same time share memory. Lifetimes live  */
/* in a table at the start of the free arena (where the activations go     */
/* afterwards); offsets in `data` while planning.                          */
/* ======================================================================== */
#define TFLC__ALIASED 64 /* planning only: data holds the owner index + 1 */
/* op->variant bit a prepare sets (smaller plans): output 0 is written over
 * input 0, so the planner gives them one buffer */
#define TFLC__OVER_INPUT 0x80u
/* op->variant bit an int8 CONV_2D / DEPTHWISE_CONV_2D prepare sets
 * (TFLC_PLAN_COMPACT): its multipliers and shifts are computed at invoke
 * into its last scratch buffer */
#define TFLC__MULT_AT_INVOKE 0x40u
/* op->variant bit an int8 CONV_2D prepare sets (plans before
 * TFLC_PLAN_COMPACT, an input offset): its state is a tflc__conv2d_state,
 * whose biases with the input offset folded in (tflc_conv2d_s8_fold, one
 * int32 an output channel in the persistent arena) are made once every
 * operator is prepared (tflc__conv_folds) */
#define TFLC__FOLDED 0x20u
/* op->variant bit an int8 DEPTHWISE_CONV_2D prepare sets (the fastest
 * plan; not under TFLC_NO_PATCHES): its tile also holds the scratch of
 * the platform's layer path (tflc__depthwise_layer_tile_s8), which the
 * plan keeps only where it does not raise the arena */
#define TFLC__LAYER_TILE 0x10u
#define TFLC__LAYER_TILE_OF(op)                                                \
  (TFLC__PATCHES && (op)->code == TFLC_OP_DEPTHWISE_CONV_2D &&                 \
   ((op)->variant & TFLC__LAYER_TILE) && (op)->nscratch == 1)
/* operator i is in the chain run band by band (TFLC_PLAN_PATCHES) */
#define TFLC__IN_CHAIN(it, i)                                                  \
  ((it)->patch_rows && (i) >= (it)->patch_first && (i) <= (it)->patch_last)
#define TFLC__PLACED 128        /* planning only: data holds the arena offset */
#define TFLC__MAX_STEPS 0xFFFEu /* timeline length (16-bit lifetimes) */

/* 1 if the tensor needs an arena buffer. */
#define TFLC__FIRST(l) ((l)&0xFFFFu)
#define TFLC__LAST(l) ((l) >> 16)
static int tflc__needs_buffer(const tflc_tensor *t, uint32_t life) {
  return !(t->flags & (TFLC_TENSOR_CONST | TFLC_TENSOR_VIRTUAL |
                       TFLC_TENSOR_EXTERN | TFLC_TENSOR_LUT)) &&
         life != 0xFFFFFFFFu;
}
/* The tensor owning the buffer of tensor ti (itself unless a RESHAPE
 * output shares its input's). */
static int32_t tflc__owner(const tflc_tensor *ts, int32_t ti) {
  int32_t guard = 0;
  while ((ts[ti].flags & TFLC__ALIASED) && guard++ < 1 << 16)
    ti = (int32_t)(uintptr_t)ts[ti].data - 1;
  return ti;
}
static void tflc__use(uint32_t *life, uint32_t step) {
  uint32_t f = TFLC__FIRST(*life), l = TFLC__LAST(*life);
  if (*life == 0xFFFFFFFFu)
    f = l = step;
  if (step < f)
    f = step;
  if (step > l)
    l = step;
  *life = f | (l << 16);
}
static int tflc__overlap(uint32_t a, uint32_t b) {
  return TFLC__LAST(a) >= TFLC__FIRST(b) && TFLC__FIRST(a) <= TFLC__LAST(b);
}

/* The plan being made: the subgraph views and, in the table at the start
 * of the free arena, each view's first global tensor and operator, each
 * tensor's lifetime, each operator's span of steps (from its start to the
 * end of the subgraphs it runs) and each scratch buffer's offset. */
typedef struct tflc__planner {
  const tflc_model *m;
  tflc__graph *g;
  int32_t ng;
  uint32_t *tbase, *obase, *life, *scope, *soff;
  uint32_t steps;
} tflc__planner;

/* 1 when op's tile is a depthwise layer's tile for its layer path
 * (TFLC__LAYER_TILE), now dropped: no bytes, the bit cleared */
static TFLC__NOINLINE int tflc__drop_layer_tile(tflc__op *op) {
  if (!TFLC__LAYER_TILE_OF(op))
    return 0;
  op->scratch[0] = 0;
  op->variant = (uint8_t)(op->variant & ~TFLC__LAYER_TILE);
  return 1;
}
/* Lowest 16-aligned offset >= 0 where `size` bytes live during `span`
 * without overlapping a placed tensor or one of the first `nscratch`
 * placed scratch buffers (in view, operator, slot order) whose lifetime
 * meets it, nor the `nx` extra (offset, size) ranges. */
static size_t tflc__fit(const tflc__planner *p, uint32_t size, uint32_t span,
                        uint32_t nscratch, const uintptr_t *xo,
                        const uintptr_t *xs, int32_t nx) {
  size_t off = 0;
  int moved = 1;
  int32_t g, i, k;
  while (moved) {
    uint32_t si = 0;
    moved = 0;
    for (g = 0; g < p->ng; g++) {
      const tflc__graph *v = &p->g[g];
      for (i = 0; i < v->num_tensors; i++) {
        const tflc_tensor *o = &v->tensors[i];
        size_t oo, os;
        if (!(o->flags & TFLC__PLACED) ||
            !tflc__overlap(p->life[p->tbase[g] + (uint32_t)i], span))
          continue;
        oo = (size_t)(uintptr_t)o->data;
        os = (o->bytes + TFLC__ALIGN - 1) & ~(size_t)(TFLC__ALIGN - 1);
        if (off < oo + os && oo < off + size) {
          off = oo + os;
          moved = 1;
        }
      }
    }
    for (g = 0; g < p->ng && si < nscratch; g++) {
      const tflc__graph *v = &p->g[g];
      for (i = 0; i < v->num_ops && si < nscratch; i++) {
        const tflc__op *op = &v->ops[i];
        uint32_t sc = p->scope[p->obase[g] + (uint32_t)i];
        for (k = 0; k < op->nscratch && si < nscratch; k++, si++) {
          size_t oo = p->soff[si];
          size_t os =
              (op->scratch[k] + TFLC__ALIGN - 1) & ~(size_t)(TFLC__ALIGN - 1);
          if (tflc__overlap(sc, span) && off < oo + os && oo < off + size) {
            off = oo + os;
            moved = 1;
          }
        }
      }
    }
    for (i = 0; i < nx; i++)
      if (off < xo[i] + xs[i] && xo[i] < off + size) {
        off = (xo[i] + xs[i] + TFLC__ALIGN - 1) & ~(size_t)(TFLC__ALIGN - 1);
        moved = 1;
      }
  }
  return off;
}

/* Marks a use of tensor record ti of view g at the current step. */
static void tflc__plan_use(tflc__planner *p, int32_t g, int32_t ti) {
  if (ti >= 0)
    tflc__use(
        &p->life[p->tbase[g] + (uint32_t)tflc__owner(p->g[g].tensors, ti)],
        p->steps);
}
static tflc_status tflc__plan_step(tflc__planner *p, char *err) {
  if (p->steps >= TFLC__MAX_STEPS)
    return tflc__err(err, TFLC_ERR_UNSUPPORTED,
                     "subgraphs run more than %u operators in all",
                     TFLC__MAX_STEPS);
  p->steps++;
  return TFLC_OK;
}
/* 1 for the built-in IF and WHILE: they read their inputs only as they
 * start (IF: into the branch taken; WHILE: into its outputs, which then
 * feed cond and body). */
static int tflc__reads_inputs_first(const tflc__op *op) {
  return !op->user && (op->code == TFLC_OP_IF || op->code == TFLC_OP_WHILE);
}
/* Lifetimes along TFLM's timeline: a subgraph's inputs are created when
 * it starts, each operator takes a step, then the subgraphs it runs take
 * theirs, and its inputs and outputs stay alive until they end; a
 * subgraph's outputs live until its last step. Depth is bounded by the
 * verifier (TFLC_MAX_NESTING), the length by TFLC__MAX_STEPS. */
static tflc_status tflc__plan_lifetimes(tflc__planner *p, char *err) {
  struct {
    int32_t g, i, k;
  } st[TFLC_MAX_NESTING + 2];
  int32_t d = 0, k;
  tflc_status s;
  st[0].g = 0;
  st[0].i = 0;
  st[0].k = -1;
  for (k = 0; k < p->g[0].num_inputs; k++)
    tflc__plan_use(p, 0, TFLC__GRAPH_IN(&p->g[0], k));
  while (d >= 0) {
    const tflc__graph *v = &p->g[st[d].g];
    const tflc__op *op;
    int32_t sub[2], nsub;
    if (st[d].i >= v->num_ops) { /* subgraph done */
      for (k = 0; k < v->num_outputs; k++)
        tflc__plan_use(p, st[d].g, TFLC__GRAPH_OUT(v, k));
      if (--d >= 0)
        st[d].k++;
      continue;
    }
    op = &v->ops[st[d].i];
    if (st[d].k < 0) { /* operator starts */
      s = tflc__plan_step(p, err);
      if (s)
        return s;
      p->scope[p->obase[st[d].g] + (uint32_t)st[d].i] =
          p->steps | (p->steps << 16);
      for (k = 0; k < op->nout; k++)
        tflc__plan_use(p, st[d].g, TFLC__OUT(op)[k]);
      /* IF and WHILE read their inputs once, as the subgraphs start:
       * those buffers are then free for the subgraphs (TFLM keeps them) */
      if (tflc__reads_inputs_first(op))
        for (k = 0; k < op->nin; k++)
          tflc__plan_use(p, st[d].g, op->in[k]);
      st[d].k = 0;
    }
    nsub = tflc__op_subgraphs(p->m, op->code, op->opts, sub);
    if (st[d].k < nsub) { /* next subgraph it runs */
      int32_t c = sub[st[d].k];
      if (d + 1 >= TFLC_MAX_NESTING + 2 || c < 0 || c >= p->ng)
        return tflc__err(err, TFLC_ERR_UNSUPPORTED, "subgraphs nest too deep");
      s = tflc__plan_step(p, err);
      if (s)
        return s;
      /* IF copies its inputs into the branch it takes, at its start */
      if (op->code == TFLC_OP_IF && tflc__reads_inputs_first(op))
        for (k = 0; k < op->nin; k++)
          tflc__plan_use(p, st[d].g, op->in[k]);
      d++;
      st[d].g = c;
      st[d].i = 0;
      st[d].k = -1;
      for (k = 0; k < p->g[c].num_inputs; k++)
        tflc__plan_use(p, c, TFLC__GRAPH_IN(&p->g[c], k));
      continue;
    }
    /* operator done: inputs (but IF's and WHILE's) and outputs alive
     * until here */
    for (k = 0; k < op->nin + op->nout; k++)
      if (k >= op->nin || !tflc__reads_inputs_first(op))
        tflc__plan_use(p, st[d].g,
                       k < op->nin ? op->in[k] : TFLC__OUT(op)[k - op->nin]);
    tflc__use(&p->scope[p->obase[st[d].g] + (uint32_t)st[d].i], p->steps);
    st[d].i++;
    st[d].k = -1;
  }
  return TFLC_OK;
}

/* ---- smaller plans: operators writing over their input ------------------ */
/* Output channels a depthwise layer written over its input computes at a
 * time (its plane holds that many channels of its output): four, as the
 * platform primitives take them (Arm DSP: 7.7% more instructions on
 * person_detect with all 13 of its layers in place, against three times
 * as many with one channel, through the portable primitive). */
#define TFLC__PLANE_CH 4
#define TFLC__PLANE_CHANNELS(o)                                                \
  ((o)->type != TFLC_INT8          ? 1                                         \
   : (o)->dims[3] < TFLC__PLANE_CH ? (o)->dims[3]                              \
                                   : TFLC__PLANE_CH)
/* 1 when operator op of the current view may write output 0 over input 0
 * as far as the graph goes: a built-in DEPTHWISE_CONV_2D (not delegated),
 * input and output planned tensors of one type, 4-D, with as many
 * channels, the output no larger, the input dead after it (not a
 * subgraph input or output, read by no other operator, not made by a
 * RESHAPE, whose input would share its buffer). Its prepare checks the
 * rest (depth multiplier 1, tflc__dw_over_input). */
static int tflc__dead_input(const tflc_interpreter *it, const tflc__op *op) {
  const int32_t r = op->nin > 0 ? op->in[0] : -1;
  const tflc_tensor *in, *o;
  int32_t i, k;
  if (op->code != TFLC_OP_DEPTHWISE_CONV_2D || op->user ||
      it->opt.num_delegates > 0 || tflc__is_partition(op) || op->nout != 1 ||
      r < 0 || r == TFLC__OUT(op)[0])
    return 0;
  in = &it->tensors[r];
  o = &it->tensors[TFLC__OUT(op)[0]];
  if (in->type != o->type ||
      !(in->type == TFLC_INT8 || in->type == TFLC_INT16 ||
        in->type == TFLC_FLOAT32) ||
      in->rank != 4 || o->rank != 4 || in->dims[3] != o->dims[3] ||
      o->dims[3] < 1 || o->bytes > in->bytes ||
      o->bytes / (uint32_t)o->dims[3] > 0x7FFFFFFFu / TFLC__PLANE_CH ||
      ((in->flags | o->flags) &
       (TFLC_TENSOR_CONST | TFLC_TENSOR_VIRTUAL | TFLC_TENSOR_EXTERN |
        TFLC_TENSOR_LUT | TFLC_TENSOR_VARIABLE | TFLC_TENSOR_DECODED)))
    return 0;
  for (k = 0; k < it->num_inputs; k++)
    if (it->inputs[k] == r || it->inputs[k] == TFLC__OUT(op)[0])
      return 0;
  for (k = 0; k < it->num_outputs; k++)
    if (it->outputs[k] == r)
      return 0;
  for (i = 0; i < it->num_ops; i++) {
    const tflc__op *q = &it->ops[i];
    for (k = 0; k < q->nin + q->nout; k++)
      if (q->in[k] == r &&
          (k < q->nin ? q != op || k != 0 : q->code == TFLC_OP_RESHAPE))
        return 0;
  }
  return 1;
}
/* The plan's starting point: each view's first tensor and operator in the
 * table, lifetimes empty, planned tensors without data, and the outputs
 * that share their input's buffer marked (TFLC__ALIASED). */
static void tflc__plan_setup(tflc__planner *p) {
  tflc__graph *const gs = p->g;
  const int32_t ng = p->ng;
  uint32_t nt, no;
  int32_t g, k, i;
  nt = no = 0;
  for (g = 0; g < ng; g++) {
    tflc__graph *v = &gs[g];
    p->tbase[g] = (uint32_t)nt;
    p->obase[g] = (uint32_t)no;
    nt += (uint32_t)v->num_tensors;
    no += (uint32_t)v->num_ops;
    for (k = 0; k < v->num_tensors; k++) {
      p->life[p->tbase[g] + (uint32_t)k] = 0xFFFFFFFFu;
      if (!(v->tensors[k].flags & (TFLC_TENSOR_CONST | TFLC_TENSOR_VIRTUAL |
                                   TFLC_TENSOR_EXTERN | TFLC_TENSOR_LUT)))
        v->tensors[k].data = NULL;
    }
    for (i = 0; i < v->num_ops; i++)
      p->scope[p->obase[g] + (uint32_t)i] = 0xFFFFFFFFu;
    /* RESHAPE: the output is the input's buffer */
    for (i = 0; i < v->num_ops; i++) {
      tflc__op *op = &v->ops[i];
      tflc_tensor *src, *dst;
      if (op->code != TFLC_OP_RESHAPE || op->nin < 1 || op->in[0] < 0)
        continue;
      src = &v->tensors[op->in[0]];
      dst = &v->tensors[TFLC__OUT(op)[0]];
      if (src == dst || src->bytes != dst->bytes ||
          ((src->flags | dst->flags) &
           (TFLC_TENSOR_CONST | TFLC_TENSOR_VIRTUAL | TFLC_TENSOR_EXTERN |
            TFLC_TENSOR_LUT | TFLC_TENSOR_VARIABLE | TFLC__ALIASED)))
        continue;
      dst->flags |= TFLC__ALIASED;
      dst->data = (void *)(uintptr_t)(tflc__owner(v->tensors, op->in[0]) + 1);
    }
    /* operators writing over their input (their prepare checked that
     * nothing reads it afterwards): the output is the input's buffer */
    for (i = 0; TFLC__PATCHES && i < v->num_ops; i++) {
      tflc__op *op = &v->ops[i];
      tflc_tensor *src, *dst;
      if (!(op->variant & TFLC__OVER_INPUT) || op->nin < 1 || op->nout < 1 ||
          op->in[0] < 0)
        continue;
      src = &v->tensors[op->in[0]];
      dst = &v->tensors[TFLC__OUT(op)[0]];
      if (src == dst || dst->bytes > src->bytes ||
          (dst->flags & TFLC__ALIASED) ||
          tflc__owner(v->tensors, op->in[0]) == TFLC__OUT(op)[0] ||
          ((src->flags | dst->flags) &
           (TFLC_TENSOR_CONST | TFLC_TENSOR_VIRTUAL | TFLC_TENSOR_EXTERN |
            TFLC_TENSOR_LUT | TFLC_TENSOR_VARIABLE)))
        continue; /* (its invoke then reads and writes two buffers) */
      dst->flags |= TFLC__ALIASED;
      dst->data = (void *)(uintptr_t)(tflc__owner(v->tensors, op->in[0]) + 1);
    }
  }
}
/* Places the tensors of the plan, largest first (ties: earliest first
 * use, then index), each at the lowest offset free during its lifetime;
 * returns the bytes they span. */
static size_t tflc__place_tensors(tflc__planner *p) {
  tflc__graph *const gs = p->g;
  const int32_t ng = p->ng;
  size_t high = 0;
  int32_t g, k;
  for (;;) {
    tflc_tensor *b = NULL;
    uint32_t blife = 0;
    size_t off, sz;
    for (g = 0; g < ng; g++)
      for (k = 0; k < gs[g].num_tensors; k++) {
        tflc_tensor *t = &gs[g].tensors[k];
        uint32_t l = p->life[p->tbase[g] + (uint32_t)k];
        if (!tflc__needs_buffer(t, l) ||
            (t->flags & (TFLC__PLACED | TFLC__ALIASED)))
          continue;
        if (!b || t->bytes > b->bytes ||
            (t->bytes == b->bytes && TFLC__FIRST(l) < TFLC__FIRST(blife))) {
          b = t;
          blife = l;
        }
      }
    if (!b)
      break;
    sz = (b->bytes + TFLC__ALIGN - 1) & ~(size_t)(TFLC__ALIGN - 1);
    off = tflc__fit(p, (uint32_t)sz, blife, 0, NULL, NULL, 0);
    b->data = (void *)(uintptr_t)off;
    b->flags |= TFLC__PLACED;
    if (off + sz > high)
      high = off + sz;
  }
  return high;
}
static void tflc__graph_keep(const tflc_interpreter *it, tflc__graph *g,
                             int16_t *io);
#ifndef TFLC_NO_PATCHES
static void tflc__patch_lifetimes(const tflc_interpreter *it, uint32_t *life,
                                  uint32_t *scope);
static tflc_status tflc__patch_ready(tflc__ctx *c);
static tflc_status tflc__patch_run(tflc__ctx *c);
static void tflc__patch_alias(tflc_interpreter *it);
#endif
static int32_t tflc__pad_amount(int32_t padding_same, int32_t in, int32_t k,
                                int32_t stride, int32_t dil, int32_t *out);
static int tflc__const_ints(const tflc_tensor *t, int32_t *v, int32_t cap,
                            int32_t *n);
/* The bytes the current view's tensors span planned alone (no scratch,
 * variables left out) with the operators marked TFLC__OVER_INPUT sharing
 * their input's buffer, or SIZE_MAX; planning table at `table`. Leaves
 * the records as it found them. */
static size_t tflc__trial_high(tflc_interpreter *it, uint32_t *table) {
  tflc__planner p;
  tflc__graph one;
  int16_t io[2 * TFLC_MAX_IO];
  size_t high = (size_t)-1;
  int32_t k;
  tflc__graph_keep(it, &one, io);
  memset(&p, 0, sizeof p);
  p.m = it->model;
  p.g = &one;
  p.ng = 1;
  p.tbase = table;
  p.obase = table + 1;
  p.life = table + 2;
  p.scope = p.life + it->num_tensors;
  p.soff = p.scope + it->num_ops;
  tflc__plan_setup(&p);
#ifndef TFLC_NO_PATCHES
  tflc__patch_alias(it);
#endif
  if (tflc__plan_lifetimes(&p, it->error) == TFLC_OK) {
    for (k = 0; k < it->num_tensors; k++)
      if (it->tensors[k].flags & TFLC_TENSOR_VARIABLE)
        p.life[k] = 0xFFFFFFFFu;
#ifndef TFLC_NO_PATCHES
    if (it->patch_rows) /* (the chain's band buffers with the tensors) */
      tflc__patch_lifetimes(it, p.life, p.scope);
#endif
    high = tflc__place_tensors(&p);
#ifndef TFLC_NO_PATCHES
    if (it->patch_rows) {
      const size_t sz =
          (it->patch_bytes + TFLC__ALIGN - 1) & ~(size_t)(TFLC__ALIGN - 1);
      const size_t off = tflc__fit(&p, (uint32_t)sz, p.scope[it->patch_first],
                                   0, NULL, NULL, 0);
      if (off + sz > high)
        high = off + sz;
    }
#endif
  }
  it->error[0] = 0;
  for (k = 0; k < it->num_tensors; k++) {
    tflc_tensor *t = &it->tensors[k];
    t->flags = (uint8_t)(t->flags & ~(TFLC__PLACED | TFLC__ALIASED));
    if (!(t->flags & (TFLC_TENSOR_CONST | TFLC_TENSOR_VIRTUAL |
                      TFLC_TENSOR_EXTERN | TFLC_TENSOR_LUT)))
      t->data = NULL;
  }
  return high;
}
/* The smaller plans' choice, before the operators of a model's only
 * subgraph are prepared: the depthwise layers that could write over
 * their input (tflc__dead_input) all do when that lowers the tensors'
 * plan (tflc__trial_high), and then each goes back to its own buffer if
 * the plan stays as low without it (no extra instructions where no byte
 * is saved). Marks them TFLC__OVER_INPUT; their prepare confirms. The
 * planning table sits after the init map of nt words. */
static tflc_status tflc__choose_over_input(tflc_interpreter *it, uint32_t nt) {
  const int32_t n = it->num_ops;
  const size_t start = ((size_t)nt * 4 + 15) & ~(size_t)15;
  const size_t table = 4 * (2 + (size_t)it->num_tensors + (size_t)n);
  uint32_t *tab = (uint32_t *)(void *)(it->arena + start);
  size_t none, cur, h;
  int32_t i;
  for (i = 0; i < n && !tflc__dead_input(it, &it->ops[i]); i++)
    ;
  if (i == n || it->graphs)
    return TFLC_OK; /* no candidate (or several subgraphs): no table */
  if (start + table > it->arena_size - it->tail)
    return tflc__err(it->error, TFLC_ERR_ARENA, "arena too small to plan");
  if (it->map_bytes < start + table)
    it->map_bytes = start + table;
  none = it->opt.plan == TFLC_PLAN_EVERYWHERE ? 0 : tflc__trial_high(it, tab);
  for (i = 0; i < n; i++)
    if (tflc__dead_input(it, &it->ops[i]) && !TFLC__IN_CHAIN(it, i))
      it->ops[i].variant |= TFLC__OVER_INPUT;
  if (it->opt.plan == TFLC_PLAN_EVERYWHERE)
    return TFLC_OK;
  cur = tflc__trial_high(it, tab);
  for (i = 0; i < n; i++) {
    tflc__op *op = &it->ops[i];
    if (!(op->variant & TFLC__OVER_INPUT))
      continue;
    op->variant = (uint8_t)(op->variant & ~TFLC__OVER_INPUT);
    if (cur >= none)
      continue; /* no gain at all: none goes over its input */
    h = tflc__trial_high(it, tab);
    if (h > cur)
      op->variant |= TFLC__OVER_INPUT;
    else
      cur = h;
  }
  return TFLC_OK;
}
/* ---- smaller plans: patch-based execution -------------------------------- */
/* TFLC_PLAN_PATCHES: a chain of spatially local layers (int8 or float32
 * convolutions, PADs, pools and element-wise maps, one residual ADD;
 * tflc__patch_geo), each reading only the previous one's output (and the
 * ADD a skip made inside the chain), runs row band by row band
 * (MCUNetV2's patch-based inference, in bands of whole rows, with line
 * buffers instead of recomputed halos): each layer holds a window of its
 * input rows and makes `rows` output rows at a time into the next layer's
 * window, asking the layer before for the rows it lacks; rows no longer
 * needed leave the window. The maps inside the chain never exist whole
 * and no row is made twice. A window holds its rows with the padding of
 * the true tensor borders written out (the input zero point, whose taps
 * add nothing, as the kernels skip taps outside the tensor), so the
 * unchanged kernels, platform paths included, run it with no padding and
 * give the same bytes as the whole tensor. Where the order allows, the
 * chain's output is written over the rows of its input already read. */
#ifndef TFLC_NO_PATCHES
#define TFLC__PATCH_MAX 16 /* layers of a chain */
/* choices tried at init at most (each a plan of the tensors): init time
 * stays bounded whatever the model */
#define TFLC__PATCH_TRIALS 1024
/* One layer of a chain: input h x w x c, output oh x ow x oc, filter taps
 * kh x kw, strides, dilations, padding before (top, left), its input zero
 * point, the width of its window (padding included). */
typedef struct tflc__patch_layer {
  uint16_t h, w, c, oh, ow, oc;
  uint8_t kh, kw, sh, sw, dh, dw;
  int16_t pad_t, pad_l, zp;
  int32_t wb;
  uint8_t es, oes; /* bytes of an element of its input, of its output */
  uint8_t kind;    /* TFLC__PK_* */
  uint8_t main;    /* an ADD: the input the layer before makes (0 or 1) */
  int16_t skip;    /* an ADD: the operator making its other input */
} tflc__patch_layer;
/* the layers' kinds: a convolution (CONV_2D, DEPTHWISE_CONV_2D), a PAD,
 * a pool (AVERAGE_POOL_2D, MAX_POOL_2D: its window holds the rows
 * unpadded, the kernel leaves out the cells beyond the true borders), an
 * element-wise map of one input (QUANTIZE, RELU, RELU6, HARD_SWISH,
 * LOGISTIC, TANH), an ADD of the layer before's output and an earlier layer's
 * (the skip, kept in a rolling window of its own until the ADD reads it) */
#define TFLC__PK_CONV 0
#define TFLC__PK_PAD 1
#define TFLC__PK_POOL 2
#define TFLC__PK_MAP 3
#define TFLC__PK_ADD 4

/* Fills L from the tensors and the geometry; 0 when out of range. */
static int tflc__patch_fill(tflc__patch_layer *L, const tflc_tensor *in,
                            int32_t kh, int32_t kw, const tflc_tensor *o,
                            int32_t sh, int32_t sw, int32_t dh, int32_t dw,
                            int32_t pad_t, int32_t pad_l) {
  const int32_t h = in->dims[1], w = in->dims[2], c = in->dims[3];
  const int32_t oh = o->dims[1], ow = o->dims[2], oc = o->dims[3];
  int64_t need, wb;
  if (sh < 1 || sw < 1 || dh < 1 || dw < 1 || sh > 64 || sw > 64 || dh > 64 ||
      dw > 64 || kh < 1 || kw < 1 || kh > 64 || kw > 64 || pad_t < 0 ||
      pad_l < 0 || h < 1 || w < 1 || c < 1 || oh < 1 || ow < 1 || oc < 1 ||
      h > 0xFFFF || w > 0xFFFF || oh > 0xFFFF || ow > 0xFFFF || c > 0xFFFF ||
      oc > 0xFFFF || pad_t >= (kh - 1) * dh + 1 || pad_l >= (kw - 1) * dw + 1 ||
      (int64_t)(oh - 1) * sh + (int64_t)(kh - 1) * dh + 1 - pad_t >
          (int64_t)h + (kh - 1) * dh)
    return 0;
  need = (int64_t)(ow - 1) * sw + (int64_t)(kw - 1) * dw + 1;
  wb = (int64_t)pad_l + w;
  if (need > wb)
    wb = need;
  if (wb * c * 4 >= 0x1000000)
    return 0;
  L->h = (uint16_t)h;
  L->w = (uint16_t)w;
  L->c = (uint16_t)c;
  L->oh = (uint16_t)oh;
  L->ow = (uint16_t)ow;
  L->oc = (uint16_t)oc;
  L->kh = (uint8_t)kh;
  L->kw = (uint8_t)kw;
  L->sh = (uint8_t)sh;
  L->sw = (uint8_t)sw;
  L->dh = (uint8_t)dh;
  L->dw = (uint8_t)dw;
  L->pad_t = (int16_t)pad_t;
  L->pad_l = (int16_t)pad_l;
  L->es = in->type == TFLC_FLOAT32 ? 4 : 1;
  L->oes = o->type == TFLC_FLOAT32 ? 4 : 1;
  L->zp = L->es == 4 ? 0 : in->zero_point; /* (float32: 0.0f, zero bytes) */
  L->wb = (int32_t)wb;
  L->kind = TFLC__PK_CONV;
  L->main = 0;
  L->skip = -1;
  return 1;
}

/* A PAD of one int8 image's rows and columns, as a layer of 1x1 taps
 * whose padding is the PAD's (its windows padded with the PAD's value,
 * its output zero point): L; 0 when it is not one. */
static int tflc__patch_pad_geo(const tflc_interpreter *it, const tflc__op *op,
                               tflc__patch_layer *L) {
  const tflc_tensor *in, *o;
  int32_t v[8], n = 0;
  int64_t wb;
  if (op->code != TFLC_OP_PAD || op->nin != 2 || op->nout != 1 ||
      op->in[0] < 0 || op->in[1] < 0 || TFLC__OUT(op)[0] < 0)
    return 0;
  in = &it->tensors[op->in[0]];
  o = &it->tensors[TFLC__OUT(op)[0]];
  if ((in->type != TFLC_INT8 && in->type != TFLC_FLOAT32) ||
      o->type != in->type || in->rank != 4 || o->rank != 4 ||
      in->dims[0] != 1 || o->dims[0] != 1 ||
      !tflc__const_ints(&it->tensors[op->in[1]], v, 8, &n) || n != 8 || v[0] ||
      v[1] || v[6] || v[7] || v[2] < 0 || v[3] < 0 || v[4] < 0 || v[5] < 0 ||
      v[2] > 0x7FFF || v[3] > 0x7FFF || v[4] > 0x7FFF || v[5] > 0x7FFF ||
      in->dims[1] < 1 || in->dims[2] < 1 || in->dims[3] < 1 ||
      in->dims[1] > 0x7FFF || in->dims[2] > 0x7FFF || in->dims[3] > 0xFFFF ||
      o->dims[1] != in->dims[1] + v[2] + v[3] ||
      o->dims[2] != in->dims[2] + v[4] + v[5] || o->dims[3] != in->dims[3] ||
      o->dims[1] > 0xFFFF || o->dims[2] > 0xFFFF)
    return 0;
  wb = o->dims[2];
  if (wb * in->dims[3] * 4 >= 0x1000000)
    return 0;
  L->h = (uint16_t)in->dims[1];
  L->w = (uint16_t)in->dims[2];
  L->c = L->oc = (uint16_t)in->dims[3];
  L->oh = (uint16_t)o->dims[1];
  L->ow = (uint16_t)o->dims[2];
  L->kh = L->kw = L->sh = L->sw = L->dh = L->dw = 1;
  L->pad_t = (int16_t)v[2];
  L->pad_l = (int16_t)v[4];
  L->es = L->oes = in->type == TFLC_FLOAT32 ? 4 : 1;
  L->zp = L->es == 4 ? 0 : o->zero_point; /* (float32: 0.0f, zero bytes) */
  L->wb = (int32_t)wb;
  L->kind = TFLC__PK_PAD;
  L->main = 0;
  L->skip = -1;
  return 1;
}

/* The bytes of an element of tensor t (1, 4) when it is an int8 or
 * float32 map of one image (1 x h x w x c) made and read by operators (no
 * constant, variable, compressed or outside buffer), else 0. */
static int32_t tflc__patch_map(const tflc_interpreter *it, int32_t t) {
  const tflc_tensor *x;
  if (t < 0 || t >= it->num_tensors)
    return 0;
  x = &it->tensors[t];
  if ((x->type != TFLC_INT8 && x->type != TFLC_FLOAT32) || x->rank != 4 ||
      x->dims[0] != 1 || x->dims[1] < 1 || x->dims[2] < 1 || x->dims[3] < 1 ||
      x->dims[1] > 0x7FFF || x->dims[2] > 0x7FFF || x->dims[3] > 0xFFFF ||
      (int64_t)x->dims[2] * x->dims[3] * 4 >= 0x1000000 ||
      (x->flags &
       (TFLC_TENSOR_CONST | TFLC_TENSOR_VARIABLE | TFLC_TENSOR_LUT |
        TFLC_TENSOR_DECODED | TFLC_TENSOR_VIRTUAL | TFLC_TENSOR_EXTERN)))
    return 0;
  return x->type == TFLC_FLOAT32 ? 4 : 1;
}
/* An element-wise layer (one input, or an ADD): 1 x 1 taps, no padding,
 * the output's shape the input's. */
static int tflc__patch_ew_geo(const tflc_tensor *in, const tflc_tensor *o,
                              int32_t kind, tflc__patch_layer *L) {
  if (!tflc__same_shape(in, o) ||
      !tflc__patch_fill(L, in, 1, 1, o, 1, 1, 1, 1, 0, 0))
    return 0;
  L->kind = (uint8_t)kind;
  return 1;
}
/* The layers other than convolutions and PADs (tflc__patch_geo). */
static int tflc__patch_other_geo(const tflc_interpreter *it, int32_t i,
                                 tflc__patch_layer *L) {
  const tflc__op *op = &it->ops[i];
  const tflc_tensor *in, *o;
  const int32_t code = op->code;
  int32_t ti, to;
  if (op->nin < 1 || op->nout != 1)
    return 0;
  ti = tflc__patch_map(it, op->in[0]);
  to = tflc__patch_map(it, TFLC__OUT(op)[0]);
  if (!ti || !to)
    return 0;
  in = &it->tensors[op->in[0]];
  o = &it->tensors[TFLC__OUT(op)[0]];
  if (ti != to) /* a QUANTIZE float32 -> int8 alone */
    return code == TFLC_OP_QUANTIZE && ti == 4 && op->nin == 1 &&
           tflc__patch_ew_geo(in, o, TFLC__PK_MAP, L);
  if (ti == 4 && code == TFLC_OP_QUANTIZE)
    return 0;
  if (code == TFLC_OP_AVERAGE_POOL_2D || code == TFLC_OP_MAX_POOL_2D) {
    tflc__pool2d_options po;
    int32_t oh, ow, pt, pl;
    tflc__read_pool2d_options(it->model, op->opts, &po);
    if (op->nin != 1 || po.padding < 0 || po.padding > 1 || po.stride_h < 1 ||
        po.stride_w < 1 || po.stride_h > 64 || po.stride_w > 64 ||
        po.filter_height < 1 || po.filter_width < 1 || po.filter_height > 64 ||
        po.filter_width > 64 || in->dims[3] != o->dims[3])
      return 0;
    pt = tflc__pad_amount(po.padding == 0, in->dims[1], po.filter_height,
                          po.stride_h, 1, &oh);
    pl = tflc__pad_amount(po.padding == 0, in->dims[2], po.filter_width,
                          po.stride_w, 1, &ow);
    if (oh != o->dims[1] || ow != o->dims[2] ||
        !tflc__patch_fill(L, in, po.filter_height, po.filter_width, o,
                          po.stride_h, po.stride_w, 1, 1, pt, pl))
      return 0;
    /* the window unpadded: the kernel pads the columns itself */
    L->pad_l = 0;
    L->wb = L->w;
    L->kind = TFLC__PK_POOL;
    return 1;
  }
  if (code == TFLC_OP_QUANTIZE || code == TFLC_OP_RELU ||
      code == TFLC_OP_RELU6 || code == TFLC_OP_HARD_SWISH ||
      code == TFLC_OP_LOGISTIC || code == TFLC_OP_TANH)
    return op->nin == 1 && tflc__patch_ew_geo(in, o, TFLC__PK_MAP, L);
  if (code == TFLC_OP_ADD && op->nin == 2 && i > 0 &&
      tflc__patch_map(it, op->in[1]) == tflc__patch_map(it, TFLC__OUT(op)[0]) &&
      in->type == o->type && op->in[0] != op->in[1] &&
      tflc__same_shape(&it->tensors[op->in[1]], o)) {
    /* the layer before's output and an earlier operator's */
    const int32_t prev = TFLC__OUT(&it->ops[i - 1])[0];
    const int32_t m = op->in[0] == prev ? 0 : op->in[1] == prev ? 1 : -1;
    int32_t j;
    if (m < 0 || !tflc__patch_ew_geo(&it->tensors[prev], o, TFLC__PK_ADD, L))
      return 0;
    for (j = i - 2; j >= 0; j--)
      if (it->ops[j].nout == 1 && TFLC__OUT(&it->ops[j])[0] == op->in[1 - m])
        break;
    if (j < 0 || j > 0x7FFF)
      return 0;
    L->main = (uint8_t)m;
    L->skip = (int16_t)j;
    return 1;
  }
  return 0;
}

/* 1 when operator i of a model's only subgraph can be a layer of a chain
 * (L: its geometry, from its options; before its prepare), its maps all
 * int8 or all float32: a built-in CONV_2D or DEPTHWISE_CONV_2D on one
 * image, plain constant filter and bias; a PAD of rows and columns; an
 * AVERAGE_POOL_2D or MAX_POOL_2D; an element-wise RELU, RELU6,
 * HARD_SWISH, LOGISTIC or TANH; an ADD of two maps of one shape; a
 * QUANTIZE int8 -> int8 or float32 -> int8. Its prepare confirms
 * (tflc__patch_ready). */
static int tflc__patch_geo(const tflc_interpreter *it, int32_t i,
                           tflc__patch_layer *L) {
  const tflc__op *op = &it->ops[i];
  const uint32_t plain = TFLC_TENSOR_LUT | TFLC_TENSOR_DECODED |
                         TFLC_TENSOR_VIRTUAL | TFLC_TENSOR_EXTERN;
  const int dwc = op->code == TFLC_OP_DEPTHWISE_CONV_2D;
  const tflc_tensor *in, *f, *o, *b;
  int32_t padding, sh, sw, dh, dw, oh, ow, pt, pl;
  if (op->code == TFLC_OP_PAD && !op->user && it->opt.num_delegates == 0 &&
      !tflc__is_partition(op))
    return tflc__patch_pad_geo(it, op, L);
  if (op->code != TFLC_OP_CONV_2D && !dwc)
    return !op->user && it->opt.num_delegates == 0 && !tflc__is_partition(op) &&
           tflc__patch_other_geo(it, i, L);
  if (op->user || it->opt.num_delegates > 0 || tflc__is_partition(op) ||
      op->nin < 2 || op->nout != 1 || op->in[0] < 0 || op->in[1] < 0 ||
      TFLC__OUT(op)[0] < 0)
    return 0;
  in = &it->tensors[op->in[0]];
  f = &it->tensors[op->in[1]];
  o = &it->tensors[TFLC__OUT(op)[0]];
  b = op->nin > 2 && op->in[2] >= 0 ? &it->tensors[op->in[2]] : NULL;
  if ((in->type != TFLC_INT8 && in->type != TFLC_FLOAT32) ||
      o->type != in->type || f->type != in->type ||
      (b && b->type != (in->type == TFLC_INT8 ? TFLC_INT32 : TFLC_FLOAT32)) ||
      in->rank != 4 || o->rank != 4 || f->rank != 4 || in->dims[0] != 1 ||
      o->dims[0] != 1 || !(f->flags & TFLC_TENSOR_CONST) ||
      (f->flags & plain) ||
      (b && (!(b->flags & TFLC_TENSOR_CONST) || (b->flags & plain))) ||
      ((in->flags | o->flags) &
       (TFLC_TENSOR_CONST | TFLC_TENSOR_VARIABLE | plain)))
    return 0;
  if (dwc) {
    tflc__depthwise_conv2d_options d;
    tflc__read_depthwise_conv2d_options(it->model, op->opts, &d);
    padding = d.padding;
    sh = d.stride_h;
    sw = d.stride_w;
    dh = d.dilation_h_factor;
    dw = d.dilation_w_factor;
    if (d.depth_multiplier < 1 ||
        (int64_t)in->dims[3] * d.depth_multiplier != o->dims[3] ||
        f->dims[0] != 1 || f->dims[3] != o->dims[3])
      return 0;
  } else {
    tflc__conv2d_options d;
    tflc__read_conv2d_options(it->model, op->opts, &d);
    padding = d.padding;
    sh = d.stride_h;
    sw = d.stride_w;
    dh = d.dilation_h_factor;
    dw = d.dilation_w_factor;
    if (f->dims[3] != in->dims[3] || f->dims[0] != o->dims[3])
      return 0;
  }
  if (padding < 0 || padding > 1 || sh < 1 || sw < 1 || dh < 1 || dw < 1 ||
      sh > 64 || sw > 64 || dh > 64 || dw > 64 || f->dims[1] > 64 ||
      f->dims[2] > 64 || in->dims[1] > 0xFFFF || in->dims[2] > 0xFFFF)
    return 0;
  pt = tflc__pad_amount(padding == 0, in->dims[1], f->dims[1], sh, dh, &oh);
  pl = tflc__pad_amount(padding == 0, in->dims[2], f->dims[2], sw, dw, &ow);
  if (oh != o->dims[1] || ow != o->dims[2])
    return 0;
  return tflc__patch_fill(L, in, f->dims[1], f->dims[2], o, sh, sw, dh, dw, pt,
                          pl);
}

/* 1 when the output of operator i feeds operator i + 1 (input 0, or
 * input 1 of an ADD) and nothing else but, at most, one later ADD (*add:
 * its index, else -1): not a subgraph input or output, read by no other
 * operator. */
static int tflc__patch_link(const tflc_interpreter *it, int32_t i,
                            int32_t *add) {
  const int32_t t = TFLC__OUT(&it->ops[i])[0];
  int32_t j, k, m;
  *add = -1;
  if (i + 1 >= it->num_ops)
    return 0;
  m = it->ops[i + 1].in[0] == t ? 0 : 1;
  if (it->ops[i + 1].in[m] != t ||
      (m && (it->ops[i + 1].code != TFLC_OP_ADD || it->ops[i + 1].nin != 2)))
    return 0;
  for (k = 0; k < it->num_inputs; k++)
    if (it->inputs[k] == t)
      return 0;
  for (k = 0; k < it->num_outputs; k++)
    if (it->outputs[k] == t)
      return 0;
  for (j = 0; j < it->num_ops; j++) {
    const tflc__op *q = &it->ops[j];
    for (k = 0; k < q->nin + q->nout; k++)
      if (q->in[k] == t && !(j == i + 1 && k == m) &&
          !(j == i && k == q->nin)) {
        if (j <= i + 1 || q->code != TFLC_OP_ADD || k >= q->nin || *add >= 0)
          return 0;
        *add = j;
      }
  }
  return 1;
}

/* Operator i as layer i - f of a chain starting at operator f (an ADD's
 * skip counted from f, inside the chain): tflc__patch_geo. */
static int tflc__patch_geo_in(const tflc_interpreter *it, int32_t f, int32_t i,
                              tflc__patch_layer *L) {
  if (!tflc__patch_geo(it, i, L))
    return 0;
  if (L->kind == TFLC__PK_ADD) {
    if (L->skip < f)
      return 0;
    L->skip = (int16_t)(L->skip - f);
  }
  return 1;
}

/* Rolling windows: the rows layer j's window holds (its kernel reads at
 * most `rows` output rows' worth, plus rows skipped when the stride
 * passes the filter); 1 when the first layer reads the chain's input in
 * place (no padding to write). */
static int32_t tflc__patch_cap(const tflc__patch_layer *L, int32_t rows) {
  const int32_t eff = (L->kh - 1) * L->dh + 1;
  return (rows - 1) * L->sh + eff + (L->sh > eff ? L->sh - eff : 0);
}
static int tflc__patch_in_place(const tflc__patch_layer *L) {
  return L->pad_t == 0 && L->wb == L->w &&
         (L->oh - 1) * L->sh + (L->kh - 1) * L->dh + 1 <= L->h;
}
/* Rolling windows, without data: the order in which tflc__patch_produce
 * makes rows. Clears *valid when an ADD would read skip rows not made
 * yet; kmax: the most rows the skip's window holds (rows the skip's
 * source made that the ADD has not read). Clears *ok when the chain's
 * output, written over its input (irow, orow: bytes of an input and an
 * output row), would reach input rows still to be read. */
typedef struct tflc__patch_sim {
  const tflc__patch_layer *L;
  int32_t n, rows, ok, valid;
  int32_t ks, ka, kmax; /* the skip's source and ADD layers, else -1 */
  uint64_t irow, orow;
  int32_t p0[TFLC__PATCH_MAX], p1[TFLC__PATCH_MAX], done[TFLC__PATCH_MAX];
} tflc__patch_sim;
static void tflc__patch_sim_produce(tflc__patch_sim *S, int32_t j,
                                    int32_t target) {
  const tflc__patch_layer *L = &S->L[j];
  const int32_t eff = (L->kh - 1) * L->dh + 1;
  const int32_t cap = tflc__patch_cap(L, S->rows);
  const int in_place = j == 0 && tflc__patch_in_place(L);
  while (S->done[j] < target && S->valid) {
    const int32_t r = S->done[j];
    const int32_t cnt = target - r < S->rows ? target - r : S->rows;
    const int32_t first = r * L->sh - L->pad_t;
    const int32_t e = (r + cnt - 1) * L->sh - L->pad_t + eff;
    if (!in_place) {
      const int32_t k0 = first < S->p1[j] ? first : S->p1[j];
      if (e - S->p0[j] > cap)
        S->p0[j] = k0;
      if (j > 0 && (e < L->h ? e : L->h) > (S->p1[j] > 0 ? S->p1[j] : 0))
        tflc__patch_sim_produce(S, j - 1, e < L->h ? e : L->h);
      S->p1[j] = e;
    }
    if (j == S->ka && S->done[S->ks] < r + cnt)
      S->valid = 0;
    if (j == S->ks && S->ka >= 0 && r + cnt - S->done[S->ka] > S->kmax)
      S->kmax = r + cnt - S->done[S->ka];
    S->done[j] += cnt;
    if (j == S->n - 1 && S->irow) {
      const tflc__patch_layer *F = &S->L[0];
      int32_t front =
          tflc__patch_in_place(F) ? S->done[0] * F->sh - F->pad_t : S->p1[0];
      if (S->done[0] >= F->oh || front > F->h)
        front = F->h;
      if (front < 0)
        front = 0;
      if ((uint64_t)(r + cnt) * S->orow > (uint64_t)front * S->irow)
        S->ok = 0;
    }
  }
}
/* Runs the simulation of the chain L[0 .. n) (alias: with the check of
 * the output written over the input); S->valid, S->ok, S->kmax. */
static void tflc__patch_simulate(tflc__patch_sim *S, const tflc__patch_layer *L,
                                 int32_t n, int32_t rows, int alias) {
  int32_t j;
  S->L = L;
  S->n = n;
  S->rows = rows;
  S->ok = S->valid = 1;
  S->ks = S->ka = -1;
  S->kmax = 0;
  S->irow = alias ? (uint64_t)(uint32_t)L[0].w * (uint32_t)L[0].c * L[0].es : 0;
  S->orow =
      (uint64_t)(uint32_t)L[n - 1].ow * (uint32_t)L[n - 1].oc * L[n - 1].oes;
  for (j = 0; j < n; j++) {
    S->p0[j] = S->p1[j] = -L[j].pad_t;
    S->done[j] = 0;
    if (L[j].kind == TFLC__PK_ADD) {
      S->ka = j;
      S->ks = L[j].skip;
    }
  }
  if (S->ka >= 0 && (S->ks < 0 || S->ks >= S->ka - 1))
    S->valid = 0;
  else
    tflc__patch_sim_produce(S, n - 1, L[n - 1].oh);
}
/* The rows the window of the chain's skip holds (tflc__patch_simulate),
 * 0 without an ADD, -1 when the ADD would read skip rows not made yet
 * (init only: invoke keeps the figure, it->patch_skip). */
static int32_t tflc__patch_skip_rows(const tflc__patch_layer *L, int32_t n,
                                     int32_t rows) {
  tflc__patch_sim S;
  int32_t j;
  for (j = 1; j < n && L[j].kind != TFLC__PK_ADD; j++)
    ;
  if (j == n)
    return 0;
  tflc__patch_simulate(&S, L, n, rows, 0);
  return S.valid && S.kmax >= 1 ? S.kmax : -1;
}
/* Windows for `rows` output rows a kernel call: each layer's window
 * offset in the band buffer, then the window of krows rows of the skip
 * (skip_off: its offset), when the chain has an ADD; off[n]: their bytes;
 * an estimate of the bytes copied at each invoke (the first layer's
 * window filled from the chain's input, rows kept moved to a window's
 * top, rows spread to a padded width, rows copied to the skip's window).
 * 0 when too large. */
static int tflc__patch_cost(const tflc__patch_layer *L, int32_t n, int32_t rows,
                            uint32_t *off, uint64_t *copied, int32_t krows,
                            uint32_t *skip_off) {
  uint64_t cp = 0, at = 0;
  int32_t j;
  for (j = 0; j < n; j++) {
    const uint64_t row =
        (uint64_t)(uint32_t)L[j].wb * (uint32_t)L[j].c * L[j].es;
    const int32_t eff = (L[j].kh - 1) * L[j].dh + 1;
    const int32_t calls = (L[j].oh + rows - 1) / rows;
    off[j] = (uint32_t)at;
    if (j == 0 && tflc__patch_in_place(&L[0]))
      continue;
    at += ((uint64_t)tflc__patch_cap(&L[j], rows) * row + TFLC__ALIGN - 1) &
          ~(uint64_t)(TFLC__ALIGN - 1);
    if (at > 0x7FFF0000u)
      return 0;
    cp += (uint64_t)calls * (uint32_t)(eff > L[j].sh ? eff - L[j].sh : 0) * row;
    if (j == 0 || L[j].wb != L[j].w)
      cp += (uint64_t)(uint32_t)L[j].h * row;
  }
  if (skip_off)
    *skip_off = (uint32_t)at;
  for (j = 1; j < n && L[j].kind != TFLC__PK_ADD; j++)
    ;
  if (j < n) { /* the skip's window */
    const uint64_t row =
        (uint64_t)(uint32_t)L[j].w * (uint32_t)L[j].c * L[j].es;
    if (krows < 1 || krows > L[j].h)
      return 0;
    at += ((uint64_t)(uint32_t)krows * row + TFLC__ALIGN - 1) &
          ~(uint64_t)(TFLC__ALIGN - 1);
    if (at > 0x7FFF0000u)
      return 0;
    cp += (uint64_t)(uint32_t)L[j].h * row;
  }
  off[n] = (uint32_t)at;
  *copied = cp;
  return 1;
}
static int tflc__patch_order_ok(const tflc__patch_layer *L, int32_t n,
                                int32_t rows) {
  tflc__patch_sim S;
  tflc__patch_simulate(&S, L, n, rows, 1);
  return S.valid && S.ok;
}

/* Planning: the chain's output shares its input's buffer (patch_alias). */
static void tflc__patch_alias(tflc_interpreter *it) {
  tflc_tensor *dst;
  if (!it->patch_rows || !it->patch_alias)
    return;
  dst = &it->tensors[TFLC__OUT(&it->ops[it->patch_last])[0]];
  dst->flags |= TFLC__ALIASED;
  dst->data = (void *)(uintptr_t)(tflc__owner(it->tensors,
                                              it->ops[it->patch_first].in[0]) +
                                  1);
}
/* 1 when the chain's output may share its input's buffer, as far as the
 * graph goes: the input read by the chain's first operator alone, not a
 * subgraph output, not made by a RESHAPE (whose input would share it),
 * no smaller than the output. tflc__patch_cost checks the order. */
static int tflc__patch_may_alias(const tflc_interpreter *it, int32_t f,
                                 int32_t l) {
  const int32_t t = it->ops[f].in[0], o = TFLC__OUT(&it->ops[l])[0];
  int32_t j, k;
  if (t < 0 || it->tensors[o].bytes > it->tensors[t].bytes)
    return 0;
  for (k = 0; k < it->num_outputs; k++)
    if (it->outputs[k] == t)
      return 0;
  for (j = 0; j < it->num_ops; j++) {
    const tflc__op *q = &it->ops[j];
    for (k = 0; k < q->nin + q->nout; k++)
      if (q->in[k] == t && (k < q->nin ? j != f || k != 0
                                       : q->code == TFLC_OP_RESHAPE ||
                                             (q->variant & TFLC__OVER_INPUT)))
        return 0;
  }
  return 1;
}

/* The planner's part: the tensors inside the chain get no buffer, its
 * input lives to its end, its output from its start, and the band
 * buffers (scratch of its first operator) through all of it. */
static void tflc__patch_lifetimes(const tflc_interpreter *it, uint32_t *life,
                                  uint32_t *scope) {
  const int32_t f = it->patch_first, l = it->patch_last;
  const uint32_t span = (scope[f] & 0xFFFFu) | (scope[l] & 0xFFFF0000u);
  const int32_t in = it->ops[f].in[0], out = TFLC__OUT(&it->ops[l])[0];
  int32_t i;
  for (i = f; i < l; i++)
    life[TFLC__OUT(&it->ops[i])[0]] = 0xFFFFFFFFu;
  if (life[in] != 0xFFFFFFFFu)
    tflc__use(&life[in], TFLC__LAST(span));
  tflc__use(&life[out], TFLC__FIRST(span));
  scope[f] = span;
}

/* Chooses the chain and its rows a kernel call for TFLC_PLAN_PATCHES
 * before the operators are prepared, from the tensors' plan
 * (tflc__trial_high) of each choice: the smallest (of those, the fewest
 * bytes copied), or with it->patch_budget set, the fewest bytes copied
 * among those whose tensors fit it. Leaves it->patch_budget at the chosen
 * plan's tensor bytes. Planning table after the init map of nt words. */
static TFLC__NOINLINE tflc_status tflc__choose_patches(tflc_interpreter *it,
                                                       uint32_t nt) {
  static const int16_t heights[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
  const int32_t n = it->num_ops;
  const size_t start = ((size_t)nt * 4 + 15) & ~(size_t)15;
  const size_t table = 4 * (2 + (size_t)it->num_tensors + (size_t)n);
  const size_t budget = it->patch_budget;
  uint32_t *tab = (uint32_t *)(void *)(it->arena + start);
  tflc__patch_layer L[TFLC__PATCH_MAX];
  uint32_t off[TFLC__PATCH_MAX + 1], big = 0;
  int32_t f, l, h, bf = 0, bl = 0, brows = 0, balias = 0;
  uint64_t bcopied = 0, copied;
  size_t best, hi;
  int fits = 0, ok, trials = 0;
  it->patch_rows = 0;
  if (it->graphs || n < 2)
    return TFLC_OK;
  if (start + table > it->arena_size - it->tail)
    return tflc__err(it->error, TFLC_ERR_ARENA, "arena too small to plan");
  if (it->map_bytes < start + table)
    it->map_bytes = start + table;
  for (f = 0; f < it->num_tensors; f++) /* (the largest map) */
    if (it->tensors[f].bytes > big &&
        !(it->tensors[f].flags & TFLC_TENSOR_CONST))
      big = it->tensors[f].bytes;
  best = tflc__trial_high(it, tab);
  if (budget && best <= budget)
    return TFLC_OK; /* no chain needed */
  for (f = 0; f + 1 < n && trials < TFLC__PATCH_TRIALS; f++) {
    int32_t pend = -1, adds = 0, add;
    if (!tflc__patch_geo_in(it, f, f, &L[0]) ||
        (uint64_t)L[0].oh * (uint32_t)L[0].ow * (uint32_t)L[0].oc * L[0].oes <
            (uint64_t)big / 8)
      continue; /* chains start where the maps are large */
    for (l = f + 1; l < n && l - f < TFLC__PATCH_MAX; l++) {
      if (!tflc__patch_link(it, l - 1, &add) ||
          !tflc__patch_geo_in(it, f, l, &L[l - f]))
        break;
      if (add >= 0) { /* a skip: one a chain, its ADD in the chain */
        if (pend >= 0 || adds)
          break;
        pend = add;
      }
      if (L[l - f].kind == TFLC__PK_ADD) {
        if (pend != l)
          break;
        pend = -1;
        adds++;
      }
      if (pend >= 0)
        continue; /* (the skip's map would be needed whole) */
      for (h = 0; h < (int32_t)(sizeof heights / sizeof heights[0]) &&
                  heights[h] < L[l - f].oh && trials < TFLC__PATCH_TRIALS;
           h++) {
        const int32_t krows = tflc__patch_skip_rows(L, l - f + 1, heights[h]);
        if (krows < 0 || !tflc__patch_cost(L, l - f + 1, heights[h], off,
                                           &copied, krows, NULL))
          continue;
        trials++;
        it->patch_alias = tflc__patch_may_alias(it, f, l) &&
                          tflc__patch_order_ok(L, l - f + 1, heights[h]);
        it->patch_first = f;
        it->patch_last = l;
        it->patch_rows = heights[h];
        it->patch_bytes = off[l - f + 1];
        hi = tflc__trial_high(it, tab);
        it->patch_rows = 0;
        ok = budget && hi <= budget;
        if (fits ? ok && copied < bcopied
                 : ok || hi < best ||
                       (hi == best && brows && copied < bcopied)) {
          fits = ok;
          best = hi;
          bf = f;
          bl = l;
          brows = heights[h];
          balias = it->patch_alias;
          bcopied = copied;
        }
      }
    }
  }
  it->patch_first = bf;
  it->patch_last = bl;
  it->patch_rows = brows;
  it->patch_alias = balias;
  it->patch_copied = bcopied;
  it->patch_budget = best;
  if (brows) {
    for (f = bf; f <= bl; f++)
      (void)tflc__patch_geo_in(it, bf, f, &L[f - bf]);
    it->patch_skip = tflc__patch_skip_rows(L, bl - bf + 1, brows);
    (void)tflc__patch_cost(L, bl - bf + 1, brows, off, &copied, it->patch_skip,
                           NULL);
    it->patch_bytes = off[bl - bf + 1];
  }
  return TFLC_OK;
}
#endif
/* Plans the `ng` subgraph views `gs` together (from it->head). */
static tflc_status tflc__plan(tflc_interpreter *it, tflc__graph *gs,
                              int32_t ng) {
  tflc__planner p;
  uint64_t nt = 0, no = 0, ns = 0, table;
  size_t high = 0, room = it->arena_size - it->tail;
  uint8_t *base = it->arena + it->head; /* after earlier subgraphs */
  int32_t g, k, i;
  uint32_t si;
  tflc_status st;
  for (g = 0; g < ng; g++) {
    nt += (uint32_t)gs[g].num_tensors;
    no += (uint32_t)gs[g].num_ops;
    for (i = 0; i < gs[g].num_ops; i++)
      ns += gs[g].ops[i].nscratch;
  }
  table = 4 * (2 * (uint64_t)ng + nt + no + ns);
  if (table > room - it->head)
    return tflc__err(it->error, TFLC_ERR_ARENA, "arena too small to plan");
  if (it->map_bytes < it->head + (size_t)table)
    it->map_bytes = it->head + (size_t)table;
  memset(&p, 0, sizeof p);
  p.m = it->model;
  p.g = gs;
  p.ng = ng;
  p.tbase = (uint32_t *)(void *)base;
  p.obase = p.tbase + ng;
  p.life = p.obase + ng;
  p.scope = p.life + nt;
  p.soff = p.scope + no;
  tflc__plan_setup(&p);
#ifndef TFLC_NO_PATCHES
  if (ng == 1 && !it->graphs)
    tflc__patch_alias(it);
#endif
  st = tflc__plan_lifetimes(&p, it->error);
  if (st)
    return st;
  /* variables live from the first step to the last: persistent, as in
   * TFLM, instead of a band through the whole plan */
  for (g = 0; g < ng; g++)
    for (k = 0; k < gs[g].num_tensors; k++) {
      tflc_tensor *t = &gs[g].tensors[k];
      if (!(t->flags & TFLC_TENSOR_VARIABLE) || !tflc__needs_buffer(t, 0) ||
          (t->flags & TFLC__ALIASED))
        continue;
      t->data = tflc__persist(it, t->bytes ? t->bytes : 1);
      if (!t->data)
        return tflc__err(it->error, TFLC_ERR_ARENA,
                         "arena too small for variable tensor %d", t->index);
      p.life[p.tbase[g] + (uint32_t)k] = 0xFFFFFFFFu; /* not planned */
    }
#ifndef TFLC_NO_PATCHES
  if (it->patch_rows && ng == 1 && !it->graphs)
    tflc__patch_lifetimes(it, p.life, p.scope);
#endif
  room = it->arena_size - it->tail;
  high = tflc__place_tensors(&p);
  /* per-op scratch: lives during its op (and the subgraphs it runs);
   * placed after the tensors */
  si = 0;
  for (g = 0; g < ng; g++)
    for (i = 0; i < gs[g].num_ops; i++) {
      tflc__op *op = &gs[g].ops[i];
      uint32_t span = p.scope[p.obase[g] + (uint32_t)i];
      uintptr_t xo[TFLC__MAX_SCRATCH], xs[TFLC__MAX_SCRATCH];
      for (k = 0; k < op->nscratch; k++, si++) {
        size_t sz =
            (op->scratch[k] + TFLC__ALIGN - 1) & ~(size_t)(TFLC__ALIGN - 1);
        size_t off = span == 0xFFFFFFFFu
                         ? 0 /* never runs: any place */
                         : tflc__fit(&p, (uint32_t)sz, span, si - (uint32_t)k,
                                     xo, xs, k);
        /* a depthwise layer's tile for its layer path only where it
         * leaves the arena as it is (the tensors placed) */
        if (k == 0 && off + sz > high && tflc__drop_layer_tile(op))
          off = sz = 0;
        xo[k] = off;
        xs[k] = sz;
        p.soff[si] = (uint32_t)off;
        if (off + sz > high)
          high = off + sz;
      }
    }
  if (it->fold_short || high > room - it->head) {
    /* a lower bound: records made after the plan come on top (the exact
     * figure: tflc_arena_used with a large arena, `tflc info`) */
    size_t low =
        it->head + high > it->map_bytes ? it->head + high : it->map_bytes;
    low = ((low + it->tail + it->fold_short + TFLC__ALIGN - 1) &
           ~(size_t)(TFLC__ALIGN - 1)) +
          it->align_pad;
    if (TFLC__PATCHES)
      it->plan_need = low;
    return tflc__err(it->error, TFLC_ERR_ARENA,
                     "arena too small: needs at least %u bytes", (unsigned)low);
  }
  it->head += high;
  /* offsets to pointers */
  si = 0;
  for (g = 0; g < ng; g++) {
    tflc__graph *v = &gs[g];
    for (k = 0; k < v->num_tensors; k++) {
      tflc_tensor *t = &v->tensors[k];
      if (t->flags & TFLC__PLACED) {
        t->data = base + (uintptr_t)t->data;
        t->flags &= (uint8_t)~TFLC__PLACED;
      } else if (tflc__needs_buffer(t, p.life[p.tbase[g] + (uint32_t)k]) &&
                 !(t->flags & TFLC__ALIASED)) {
        t->data = it->arena; /* zero bytes */
      } else if (!(t->flags &
                   (TFLC_TENSOR_CONST | TFLC_TENSOR_VIRTUAL |
                    TFLC_TENSOR_EXTERN | TFLC_TENSOR_LUT | TFLC__ALIASED)) &&
                 !t->data) {
        t->data = it->arena; /* unused tensor: valid pointer, no bytes used */
      }
    }
    for (k = 0; k < v->num_tensors; k++) {
      tflc_tensor *t = &v->tensors[k];
      if (t->flags & TFLC__ALIASED) {
        const tflc_tensor *o = &v->tensors[tflc__owner(v->tensors, k)];
        t->flags &= (uint8_t)~TFLC__ALIASED;
        t->data = o->data;
      }
    }
    for (k = 0; k < v->num_tensors; k++)
      v->tensors[k].flags &= (uint8_t)~TFLC__ALIASED;
    for (i = 0; i < v->num_ops; i++) {
      tflc__op *op = &v->ops[i];
      for (k = 0; k < op->nscratch; k++)
        op->scratch[k] = (uintptr_t)(base + p.soff[si++]);
      for (k = 0; k < op->nwhole; k++)
        if (op->whole[k].scratch >= 0)
          op->whole[k].ptr = (void *)op->scratch[op->whole[k].scratch];
    }
  }
  return TFLC_OK;
}

/* ======================================================================== */
/* Interpreter: init (records for every subgraph, operators matched to      */
/* the table or to user operators, prepare, plan) and invoke.               */
/* ======================================================================== */
/* Places a whole-tensor decode buffer of op i in the first alternate region
 * with room (regions are reset for every op, as in TFLM); NULL if none. */
static void *tflc__region_alloc(const tflc_options *o, size_t *used,
                                uint32_t bytes) {
  int32_t r;
  for (r = 0; r < o->num_decomp_regions && r < 8; r++) {
    size_t start = (used[r] + TFLC__ALIGN - 1) & ~(size_t)(TFLC__ALIGN - 1);
    if (start <= o->decomp_regions[r].size &&
        bytes <= o->decomp_regions[r].size - start) {
      used[r] = start + bytes;
      return (uint8_t *)o->decomp_regions[r].base + start;
    }
  }
  return NULL;
}

static tflc_status tflc__init_graphs(tflc_interpreter *it);
/* tflc__init_plan's plan with this bit: the fastest plan without the
 * folded CONV_2D biases */
#define TFLC__PLAN_UNFOLDED 0x100
/* One attempt of tflc_interpreter_init with one plan. */
static tflc_status tflc__init_plan(tflc_interpreter *it, const tflc_model *m,
                                   void *arena, size_t arena_size,
                                   const tflc_options *opt, int32_t plan,
                                   size_t budget) {
  uintptr_t a;
  tflc_status st;
  memset(it, 0, sizeof *it);
  it->unfolded = (uint8_t)((plan & TFLC__PLAN_UNFOLDED) != 0);
  plan &= ~TFLC__PLAN_UNFOLDED;
  if (TFLC__PATCHES) /* (lean builds: 0, the fastest plan) */
    it->plan = plan;
  it->patch_budget = budget;
  if (!m || !m->verified || !arena)
    return tflc__err(it->error, TFLC_ERR_ARG, "no verified model or no arena");
  it->model = m;
  if (opt)
    it->opt = *opt;
  if (it->opt.num_decomp_regions < 0 || it->opt.num_decomp_regions > 8 ||
      (it->opt.num_decomp_regions && !it->opt.decomp_regions))
    return tflc__err(it->error, TFLC_ERR_ARG, "bad decompression regions");
  if (it->opt.num_delegates < 0 || it->opt.num_delegates > 255 ||
      (it->opt.num_delegates && !it->opt.delegates))
    return tflc__err(it->error, TFLC_ERR_ARG, "bad delegates");
  if (!TFLC__DELEGATES && it->opt.num_delegates)
    return tflc__err(it->error, TFLC_ERR_UNSUPPORTED,
                     "delegates not compiled in (TFLC_NO_DELEGATES)");
  if (!TFLC__USER_OPS && it->opt.num_user_ops)
    return tflc__err(it->error, TFLC_ERR_UNSUPPORTED,
                     "user operators not compiled in (TFLC_NO_USER_OPS)");
  if (TFLC__PATCHES &&
      (it->opt.plan < 0 ||
       (it->opt.plan > TFLC_PLAN_PATCHES && it->opt.plan != TFLC_PLAN_COMPACT &&
        it->opt.plan != TFLC_PLAN_SMALLEST &&
        it->opt.plan != TFLC_PLAN_EVERYWHERE)))
    return tflc__err(it->error, TFLC_ERR_ARG, "unknown plan %d", it->opt.plan);
  a = (uintptr_t)arena;
  it->align_pad =
      (size_t)((TFLC__ALIGN - (a & (TFLC__ALIGN - 1))) & (TFLC__ALIGN - 1));
  if (arena_size < it->align_pad + 64)
    return tflc__err(it->error, TFLC_ERR_ARENA, "arena of %u bytes too small",
                     (unsigned)arena_size);
  it->arena = (uint8_t *)arena + it->align_pad;
  it->arena_size = (arena_size - it->align_pad) & ~(size_t)(TFLC__ALIGN - 1);
  st = tflc__init_graphs(it);
  /* the plan made: a step that changed nothing is the plan before it */
  if (TFLC__PATCHES && st == TFLC_OK && it->plan > TFLC_PLAN_FASTEST)
    it->plan = it->compact_ops > 0   ? TFLC_PLAN_COMPACT
               : it->patch_rows      ? TFLC_PLAN_PATCHES
               : it->inplace_ops > 0 ? TFLC_PLAN_INPLACE
                                     : TFLC_PLAN_FASTEST;
  return st;
}
/* The fastest plan, then, where the arena cannot hold its folded CONV_2D
 * biases, the same plan without them; *need: the fastest plan's arena
 * (when it failed, its exact need, or 0 when that is unknown). */
static tflc_status tflc__init_fastest(tflc_interpreter *it, const tflc_model *m,
                                      void *arena, size_t arena_size,
                                      const tflc_options *opt, size_t *need) {
  tflc_status st =
      tflc__init_plan(it, m, arena, arena_size, opt, TFLC_PLAN_FASTEST, 0);
  *need = st == TFLC_OK ? tflc_arena_used(it) : it->plan_need;
  if (st == TFLC_ERR_ARENA && (it->folded_ops || it->fold_short))
    st = tflc__init_plan(it, m, arena, arena_size, opt,
                         TFLC_PLAN_FASTEST | TFLC__PLAN_UNFOLDED, 0);
  return st;
}
/* The fastest plan when the arena holds it (TFLC_PLAN_AUTO), else the
 * next step down that fits (in-place depthwise; patches: the fewest
 * bytes copied whose tensors fit the arena left; compact requantization
 * outside the smallest chain, with in-place depthwise); the smallest
 * (TFLC_PLAN_SMALLEST): each step tried, the fastest of the smallest
 * kept. A step is tried when the fastest plan found where it applies
 * (inplace_ops, compact_ops). When none fits, the message names the
 * fastest plan's arena and the smallest's (exact when their records fit
 * the arena given, as they do one byte below the smallest). */
TFLC_API tflc_status tflc_interpreter_init(tflc_interpreter *it,
                                           const tflc_model *m, void *arena,
                                           size_t arena_size,
                                           const tflc_options *opt) {
  const int32_t asked = opt ? opt->plan : (int32_t)TFLC_PLAN_AUTO;
  static const int32_t steps[3] = {TFLC_PLAN_INPLACE, TFLC_PLAN_PATCHES,
                                   TFLC_PLAN_COMPACT};
  const int32_t unfolded = TFLC_PLAN_FASTEST | TFLC__PLAN_UNFOLDED;
  size_t fastest, small, used, best_used = 0;
  int32_t k, step, best = 0, last, can_inplace, can_compact;
  tflc_status fst, st;
  if (!it)
    return TFLC_ERR_ARG;
  if (!TFLC__PATCHES) /* tflc_options.plan ignored: the fastest plan */
    return tflc__init_fastest(it, m, arena, arena_size, opt, &fastest);
  if (asked != TFLC_PLAN_AUTO && asked != TFLC_PLAN_SMALLEST)
    return tflc__init_plan(it, m, arena, arena_size, opt, asked, 0);
  /* the fastest plan (the smallest plan asked: without the folds), then
   * each step */
  if (asked == TFLC_PLAN_SMALLEST) {
    fst = tflc__init_plan(it, m, arena, arena_size, opt, unfolded, 0);
    fastest = fst == TFLC_OK ? tflc_arena_used(it) : it->plan_need;
  } else {
    fst = tflc__init_fastest(it, m, arena, arena_size, opt, &fastest);
  }
  last = it->unfolded ? unfolded : (int32_t)TFLC_PLAN_FASTEST;
  if ((fst == TFLC_OK && asked == TFLC_PLAN_AUTO) ||
      (fst != TFLC_OK && fst != TFLC_ERR_ARENA))
    return fst;
  small = fst == TFLC_OK ? tflc_arena_used(it) : fastest;
  if (fst == TFLC_OK) {
    best = last;
    best_used = small;
  } else if (it->plan_need && it->plan_need < small) {
    small = it->plan_need;
  }
  /* what the fastest plan found the steps could change */
  can_inplace = it->inplace_ops;
  can_compact = it->compact_ops;
  for (k = 0; k < 3; k++) {
    step = steps[k];
    if ((step == TFLC_PLAN_INPLACE && can_inplace == 0) ||
        (step == TFLC_PLAN_COMPACT && can_compact == 0))
      continue; /* no layer the step would change */
    last = step;
    st = tflc__init_plan(it, m, arena, arena_size, opt, step, 0);
    if (st != TFLC_OK && st != TFLC_ERR_ARENA)
      return st;
    if (st == TFLC_ERR_ARENA) {
      if (it->plan_need && it->plan_need < small)
        small = it->plan_need;
      if (!it->plan_need)
        small = 0;
      continue;
    }
    used = tflc_arena_used(it);
    if (it->plan != step) { /* the step changed nothing */
      if (!best || used < best_used) {
        best = it->plan == TFLC_PLAN_FASTEST ? unfolded : it->plan;
        best_used = used;
      }
      continue;
    }
    if (asked == TFLC_PLAN_AUTO && step == TFLC_PLAN_PATCHES &&
        it->patch_budget + (arena_size - used) > it->patch_budget) {
      /* the smallest chain fits: the fewest bytes copied whose tensors
       * fit the arena left, else the smallest again */
      const size_t budget = it->patch_budget + (arena_size - used);
      st = tflc__init_plan(it, m, arena, arena_size, opt, step, budget);
      if (st != TFLC_OK)
        st = tflc__init_plan(it, m, arena, arena_size, opt, step, 0);
      return st;
    }
    if (asked == TFLC_PLAN_AUTO)
      return TFLC_OK;
    if (!best || used < best_used) {
      best = step;
      best_used = used;
    }
  }
  if (best) /* (TFLC_PLAN_SMALLEST) */
    return best == last
               ? TFLC_OK
               : tflc__init_plan(it, m, arena, arena_size, opt, best, 0);
  if (fastest && small)
    (void)tflc__err(it->error, TFLC_ERR_ARENA,
                    "arena too small: needs at least %u bytes (the smallest "
                    "plan; the fastest needs %u)",
                    (unsigned)small, (unsigned)fastest);
  return TFLC_ERR_ARENA;
}

/* 1 when input k of the operator (table ot, code, user op or not) can
 * read a constant that keeps no record (TFLC__NO_RECORD): the weights or
 * bias of a built-in TFLC_OPF_NO_RECORD operator whose input 0 is not
 * int16, or a parameter of a TFLC_OPF_PARAMS_AT_PREPARE one, without
 * delegates (which may take the operator). */
static TFLC__NOINLINE int tflc__reads_without_record(const tflc_interpreter *it,
                                                     uint32_t sgt, uint32_t ot,
                                                     int32_t code, int user,
                                                     int32_t k) {
  const tflc_model *m = it->model;
  tflc__fb fb = tflc__mfb(m);
  uint32_t ni, iv;
  int32_t x;
  if (user || it->opt.num_delegates > 0)
    return 0;
  if (tflc__op_facts(code, TFLC_OPF_PARAMS_AT_PREPARE))
    return k != (code == TFLC_OP_SPLIT ? 1 : 0);
  if ((k != 1 && k != 2) || !tflc__op_facts(code, TFLC_OPF_NO_RECORD))
    return 0;
  iv = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &ni);
  x = ni > 0 ? tflc__i32(fb.b + iv) : -1;
  return x >= 0 && tflc__get_u8(fb, tflc__tensor_table(m, sgt, x), TFLC__T_TYPE,
                                0) != TFLC_INT16;
}
/* 1 when tensor t is a raw constant such an input may read without a
 * record: int8, int32 or float32 data in the model, aligned, not a
 * variable (compressed ones are marked as needing records). */
static TFLC__NOINLINE int tflc__const_without_record(const tflc_model *m,
                                                     uint32_t sgt, int32_t t) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t tt = tflc__tensor_table(m, sgt, t), blen;
  uint8_t type = (uint8_t)tflc__get_u8(fb, tt, TFLC__T_TYPE, 0);
  const uint8_t *d =
      tflc__buffer(m, tflc__get_u32(fb, tt, TFLC__T_BUFFER, 0), &blen);
  size_t es = tflc_type_size(type);
  if (!d || tflc__get_u8(fb, tt, TFLC__T_VARIABLE, 0))
    return 0;
  if (type != TFLC_INT8 && type != TFLC_INT32 && type != TFLC_FLOAT32)
    return 0;
  return ((uintptr_t)d & (es - 1u)) == 0;
}
/* The records of the inputs of c's operator that keep none
 * (TFLC__NO_RECORD), built from the model for its prepare at the start of
 * the arena, where the init map was (no longer read once the records are
 * numbered) and the activations go later (it->prep_consts; NULL when it
 * has none). */
static TFLC__NOINLINE tflc_status tflc__prep_consts(tflc_interpreter *it,
                                                    tflc__ctx *c) {
  const tflc_model *m = it->model;
  const tflc__op *op = c->op;
  tflc__fb fb = tflc__mfb(m);
  const size_t start = 0;
  size_t need;
  uint32_t ni, iv;
  int32_t k, n = 0;
  it->prep_consts = NULL;
  for (k = 0; k < op->nin; k++)
    n += op->in[k] < -1;
  if (n == 0)
    return TFLC_OK;
  need = start + (size_t)n * TFLC__PREP_RECORD_BYTES;
  if (need > it->arena_size - it->tail)
    return tflc__op_err(c, TFLC_ERR_ARENA, "arena too small", 0, 0);
  if (it->map_bytes < need)
    it->map_bytes = need; /* tflc__persist stays above them */
  it->prep_consts = (tflc_tensor *)(void *)(it->arena + start);
  iv = tflc__get_vec(fb, tflc__op_table(m, c->sgt, op->index), TFLC__OP_INPUTS,
                     4, &ni);
  for (k = 0; k < op->nin && (uint32_t)k < ni; k++) {
    const int32_t ti = tflc__i32(fb.b + iv + 4 * k);
    const uint32_t tt = tflc__tensor_table(m, c->sgt, ti);
    tflc_tensor *t;
    uint32_t blen;
    tflc_status st;
    if (op->in[k] >= -1)
      continue;
    t = &it->prep_consts[-2 - op->in[k]];
    st = tflc__read_tensor(m, tt, t, it->error, ti);
    if (st)
      return st;
    t->index = (uint16_t)ti;
    t->data = (void *)(uintptr_t)tflc__buffer(
        m, tflc__get_u32(fb, tt, TFLC__T_BUFFER, 0), &blen);
    t->flags |= TFLC_TENSOR_CONST;
  }
  return TFLC_OK;
}

/* Init pass 1 over subgraph sgt (table; m's model, fb its bytes) and its no
 * operators: the subgraph's inputs and outputs into it (indices of the
 * model, renumbered to records later), and the tensor marks of map[]
 * (zeroed by the caller; see tflc__init_graph) for them and for every
 * operator's inputs and outputs. */
static tflc_status tflc__mark_tensors(tflc_interpreter *it, const tflc_model *m,
                                      tflc__fb fb, uint32_t sgt, uint32_t no,
                                      int32_t *map) {
  uint32_t i, nio, iov;
  iov = tflc__sg_vec(m, sgt, TFLC__SG_INPUTS, 4, &nio);
  if (nio > TFLC_MAX_IO)
    return tflc__err(it->error, TFLC_ERR_UNSUPPORTED, "%u inputs > %d", nio,
                     TFLC_MAX_IO);
  it->num_inputs = (int32_t)nio;
  for (i = 0; i < nio; i++) {
    it->inputs[i] = tflc__i32(fb.b + iov + 4 * i);
    map[it->inputs[i]] |= 1 | 8;
  }
  iov = tflc__sg_vec(m, sgt, TFLC__SG_OUTPUTS, 4, &nio);
  if (nio > TFLC_MAX_IO)
    return tflc__err(it->error, TFLC_ERR_UNSUPPORTED, "%u outputs > %d", nio,
                     TFLC_MAX_IO);
  it->num_outputs = (int32_t)nio;
  for (i = 0; i < nio; i++) {
    it->outputs[i] = tflc__i32(fb.b + iov + 4 * i);
    map[it->outputs[i]] |= 1 | 4 | 8;
  }
  for (i = 0; i < no; i++) {
    uint32_t ot = tflc__op_table(m, sgt, (int32_t)i), ni, nout, j;
    uint32_t iv = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &ni);
    uint32_t ov = tflc__get_vec(fb, ot, TFLC__OP_OUTPUTS, 4, &nout);
    int32_t code = tflc__opcode(m, tflc__get_u32(fb, ot, TFLC__OP_OPCODE, 0));
    int user;
    if (TFLC__COMPRESSION && code == TFLC_OP_TFLM_DECODE) {
      for (j = 0; j < nout; j++)
        map[tflc__i32(fb.b + ov + 4 * j)] |= 2 | 8;
      continue;
    }
    user = TFLC__USER_OPS && tflc__user_op_for(it, code, ot) != 0;
    for (j = 0; j < ni; j++) {
      int32_t ti = tflc__i32(fb.b + iv + 4 * j);
      if (ti >= 0)
        map[ti] |=
            1 | (tflc__tiled_input(code, user, (int32_t)j) ? 0 : 4) |
            (tflc__reads_without_record(it, sgt, ot, code, user, (int32_t)j)
                 ? 0
                 : 8);
    }
    for (j = 0; j < nout; j++)
      map[tflc__i32(fb.b + ov + 4 * j)] |= 1 | 8;
  }
  return TFLC_OK;
}

/* The operators init keeps of the no of subgraph sgt (a DECODE only if
 * one of its outputs must be decoded whole: map bit 2, its outputs then
 * marked as referenced with records), and in *nidx the count of their
 * tensor indices (a kept DECODE: its outputs only). */
static uint32_t tflc__keep_ops(const tflc_model *m, tflc__fb fb, uint32_t sgt,
                               uint32_t no, int32_t *map, uint64_t *nidx) {
  uint32_t i, nops = 0;
  /* keep a DECODE op only if one of its outputs must be decoded whole;
   * count the kept operators' tensor indices (a kept DECODE: outputs
   * only) for their one shared index array */
  for (i = 0; i < no; i++) {
    uint32_t ot = tflc__op_table(m, sgt, (int32_t)i), nout, j, keep = 0, ni;
    uint32_t ov = tflc__get_vec(fb, ot, TFLC__OP_OUTPUTS, 4, &nout);
    if (!TFLC__COMPRESSION ||
        tflc__opcode(m, tflc__get_u32(fb, ot, TFLC__OP_OPCODE, 0)) !=
            TFLC_OP_TFLM_DECODE) {
      (void)tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &ni);
      *nidx += (uint64_t)ni + nout;
      nops++;
      continue;
    }
    for (j = 0; j < nout; j++)
      if (map[tflc__i32(fb.b + ov + 4 * j)] & 4)
        keep = 1;
    if (keep) {
      *nidx += nout;
      nops++;
      for (j = 0; j < nout; j++)
        map[tflc__i32(fb.b + ov + 4 * j)] |= 1 | 8;
    }
  }
  return nops;
}

/* Numbers the records of subgraph sg's nt tensors in map[] (from bit 4 up):
 * every referenced tensor but the constants read only as TFLC__NO_RECORD
 * (their bit 0 cleared); compressed tensors always keep one. Returns the
 * number of records. */
static uint32_t tflc__number_records(const tflc_model *m, uint32_t sgt,
                                     int32_t sg, uint32_t nt, int32_t *map) {
  uint32_t i, nrec = 0;
  {
    /* compressed tensors (COMPRESSION_METADATA) keep records */
    tflc__fb nb = tflc__meta_fb(m);
    uint32_t nl, luts = tflc__meta_list(m, sg, &nl);
    for (i = 0; luts && i < nl; i++) {
      uint32_t lt = tflc__vec_table(nb, luts, i);
      int32_t ti = lt ? tflc__get_i32(nb, lt, 0, 0) : -1;
      if (ti >= 0 && (uint32_t)ti < nt)
        map[ti] |= 8;
    }
  }
  for (i = 0; i < nt; i++)
    if ((map[i] & 9) == 1 && tflc__const_without_record(m, sgt, (int32_t)i))
      map[i] &= ~1; /* read only as TFLC__NO_RECORD: no record */
    else if (map[i] & 1)
      map[i] |= (int32_t)(nrec++ << 4);
  return nrec;
}

/* The records (it->tensors, numbered by map[]) of subgraph sg's nt tensors:
 * shapes, types, quantization and constant data (a misaligned constant
 * copied into the persistent arena), then the compressed tensors of the
 * model's COMPRESSION_METADATA pointed at their descriptors. */
static tflc_status tflc__read_records(tflc_interpreter *it, const tflc_model *m,
                                      tflc__fb fb, uint32_t sgt, int32_t sg,
                                      uint32_t nt, const int32_t *map) {
  uint32_t i;
  tflc_status st;
  /* tensor records */
  for (i = 0; i < nt; i++) {
    tflc_tensor *t;
    uint32_t tt, blen;
    const uint8_t *d;
    if (!(map[i] & 1))
      continue;
    t = &it->tensors[map[i] >> 4];
    tt = tflc__tensor_table(m, sgt, (int32_t)i);
    st = tflc__read_tensor(m, tt, t, it->error, (int32_t)i);
    if (st)
      return st;
    t->index = (uint16_t)i;
    d = tflc__buffer(m, tflc__get_u32(fb, tt, TFLC__T_BUFFER, 0), &blen);
    if (d) {
      size_t es = tflc_type_size(t->type);
      t->data = (void *)(uintptr_t)d;
      t->flags |= TFLC_TENSOR_CONST;
      if (es > 1 && ((uintptr_t)d & (es - 1u)) && t->bytes) {
        /* kernels read constants as typed arrays (an int32 or float at an
         * odd address faults on many cores): a misaligned one is copied
         * once into the persistent arena, 8-byte aligned. An aligned
         * model (tflc embed, or any 16-byte aligned array of a model
         * written by the TFLite converter) needs none. */
        void *copy = tflc__persist(it, t->bytes);
        if (!copy)
          return tflc__err(it->error, TFLC_ERR_ARENA,
                           "arena too small for a copy of misaligned constant "
                           "tensor %u (%u bytes)",
                           i, t->bytes);
        memcpy(copy, d, t->bytes);
        t->data = copy;
      }
    }
  }
  if (TFLC__COMPRESSION) {
    /* compressed tensors (COMPRESSION_METADATA), in one pass over the
     * list; the descriptor is rebuilt from the model when used */
    tflc__fb nb = tflc__meta_fb(m);
    uint32_t nl, luts = tflc__meta_list(m, sg, &nl);
    for (i = 0; luts && i < nl; i++) {
      uint32_t lt = tflc__vec_table(nb, luts, i);
      int32_t ti = lt ? tflc__get_i32(nb, lt, 0, 0) : -1; /* 0: default */
      tflc_tensor *t;
      if (ti < 0 || (uint32_t)ti >= nt || !(map[ti] & 1))
        continue;
      t = &it->tensors[map[ti] >> 4];
      t->data = (void *)(uintptr_t)(m->bytes + m->comp_base + lt);
      t->flags = (uint8_t)((t->flags & ~TFLC_TENSOR_CONST) | TFLC_TENSOR_LUT);
    }
  }
  return TFLC_OK;
}

/* The operator records (it->ops, kept ones only: see tflc__keep_ops) of the
 * no operators of subgraph sgt, their tensor indices in idx (nidx
 * entries), through map[]; the outputs of a folded DECODE become virtual
 * records read in place. *nops_out: the number of records written. */
static tflc_status tflc__read_ops(tflc_interpreter *it, const tflc_model *m,
                                  tflc__fb fb, uint32_t sgt, uint32_t no,
                                  const int32_t *map, int16_t *idx,
                                  uint64_t nidx, uint32_t *nops_out) {
  uint32_t i, nops = 0;
  uint64_t nused = 0;
  for (i = 0; i < no; i++) {
    uint32_t ot = tflc__op_table(m, sgt, (int32_t)i), ni, nout, iv, ovv, j, nnr;
    int32_t code = tflc__opcode(m, tflc__get_u32(fb, ot, TFLC__OP_OPCODE, 0));
    tflc__op *op;
    iv = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &ni);
    ovv = tflc__get_vec(fb, ot, TFLC__OP_OUTPUTS, 4, &nout);
    if (TFLC__COMPRESSION && code == TFLC_OP_TFLM_DECODE) {
      /* outputs read only tile by tile: the record points at the pair of
       * (encoded, ancillary) indices in the model; no operator is kept */
      int keep = 0;
      for (j = 0; j < nout; j++) {
        int32_t o = tflc__i32(fb.b + ovv + 4 * j);
        if (map[o] & 4) {
          keep = 1;
        } else if (map[o] & 1) {
          tflc_tensor *t = &it->tensors[map[o] >> 4];
          t->data = (void *)(uintptr_t)(fb.b + iv + 8 * j);
          t->flags |=
              TFLC_TENSOR_LUT | TFLC_TENSOR_VIRTUAL | TFLC_TENSOR_DECODED;
          if (!it->cursors && tflc__decode_stream_pair(
                                  m, sgt, tflc__i32(fb.b + iv + 8 * j + 4))) {
            /* decoded in place in stream order: the running operator's
             * inputs keep their positions here */
            it->cursors = (tflc_const_cursor *)tflc__persist2(
                it, sizeof(tflc_const_cursor) * TFLC__CURSORS,
                sizeof(tflc__cursor32) * TFLC__CURSORS);
            if (!it->cursors)
              return tflc__err(it->error, TFLC_ERR_ARENA,
                               "arena too small for decode cursors");
          }
        }
      }
      if (!keep)
        continue;
      ni = 0; /* a kept DECODE reads its pairs from the model */
    }
    op = &it->ops[nops++];
    op->index = (int32_t)i;
    op->code = (int16_t)code;
    op->def = 0;
    op->user = TFLC__USER_OPS && code != TFLC_OP_TFLM_DECODE
                   ? tflc__user_op_for(it, code, ot)
                   : 0;
    op->opts = TFLC__COMPRESSION && code == TFLC_OP_TFLM_DECODE
                   ? ot
                   : tflc__get_ref(fb, ot, TFLC__OP_OPTS);
    if (ni > 0xFFFF || nout > 0xFFFF)
      return tflc__err(it->error, TFLC_ERR_UNSUPPORTED,
                       "op %u: too many inputs", i);
    op->nin = (uint16_t)ni;
    op->nout = (uint16_t)nout;
    if (nused + ni + nout > nidx)
      return tflc__err(it->error, TFLC_ERR_SCHEMA, "op %u: inputs changed", i);
    op->in = idx + nused;
    nused += ni + nout;
    for (j = 0, nnr = 0; j < ni; j++) {
      int32_t ti = tflc__i32(fb.b + iv + 4 * j);
      op->in[j] = (int16_t)(ti < 0               ? -1
                            : (map[ti] & 1) == 0 ? TFLC__NO_RECORD(nnr++)
                                                 : map[ti] >> 4);
    }
    for (j = 0; j < nout; j++) {
      /* (constant outputs are refused below, with the compressed ones) */
      TFLC__OUT(op)
      [j] = (int16_t)(map[tflc__i32(fb.b + ovv + 4 * j)] >> 4);
      if (TFLC__COMPRESSION && code == TFLC_OP_TFLM_DECODE)
        it->tensors[TFLC__OUT(op)[j]].flags |= TFLC_TENSOR_DECODED;
    }
  }
  *nops_out = nops;
  return TFLC_OK;
}

/* The records of subgraph sgt and its nops operators, checked and
 * completed: the descriptors of compressed constants, no constant or
 * compressed tensor written by the caller or an operator, INT4 only where
 * a kernel reads it. */
static tflc_status tflc__check_records(tflc_interpreter *it, uint32_t sgt,
                                       uint32_t nops) {
  uint32_t i;
  int32_t k;
  tflc_status st;
  /* compressed constants: each descriptor built and checked once; LUT
   * ones kept in the persistent arena (the record's data points at it),
   * Huffman and Prune ones rebuilt when used (tflc__desc_of: the record
   * keeps pointing at the pair in the model) */
  for (k = 0; TFLC__COMPRESSION && k < it->num_tensors; k++) {
    tflc_tensor *t = &it->tensors[k];
    tflc_const full;
    void *d;
    if (!(t->flags & TFLC_TENSOR_LUT))
      continue;
    st = tflc__lut_desc(it, sgt, t, &full);
    if (st)
      return st;
    if (full.kind == TFLC_CONST_HUFFMAN || full.kind == TFLC_CONST_PRUNE)
      continue;
    d = tflc__persist2(it, TFLC__LUT_DESC_BYTES, TFLC__LUT_DESC_BYTES32);
    if (!d)
      return tflc__err(it->error, TFLC_ERR_ARENA,
                       "arena too small for compressed tensor %d", t->index);
    memcpy(d, &full, TFLC__LUT_DESC_BYTES);
    t->data = d;
  }
  /* Tensors the caller or an operator writes must own their bytes: not
   * model data (constant, compressed, or a folded DECODE output). An
   * output the caller reads must hold plain elements. */
  for (k = 0; k < it->num_inputs; k++)
    if (it->tensors[it->inputs[k]].flags &
        (TFLC_TENSOR_CONST | TFLC_TENSOR_LUT | TFLC_TENSOR_VIRTUAL))
      return tflc__err(it->error, TFLC_ERR_SCHEMA,
                       "input %d: tensor %d is constant", k,
                       it->tensors[it->inputs[k]].index);
  for (k = 0; k < it->num_outputs; k++)
    if (it->tensors[it->outputs[k]].flags &
        (TFLC_TENSOR_LUT | TFLC_TENSOR_VIRTUAL))
      return tflc__err(it->error, TFLC_ERR_UNSUPPORTED,
                       "output %d: tensor %d is a compressed constant", k,
                       it->tensors[it->outputs[k]].index);
  for (i = 0; i < nops; i++) {
    tflc__op *op = &it->ops[i];
    for (k = 0; k < op->nout; k++)
      /* (a kept DECODE's outputs read in place stay virtual: it skips
       * them) */
      if ((it->tensors[TFLC__OUT(op)[k]].flags &
           (TFLC_TENSOR_CONST | TFLC_TENSOR_LUT | TFLC_TENSOR_VIRTUAL)) &&
          !(op->code == TFLC_OP_TFLM_DECODE &&
            (it->tensors[TFLC__OUT(op)[k]].flags & TFLC_TENSOR_VIRTUAL)))
        return tflc__err(it->error, TFLC_ERR_SCHEMA,
                         "op %d %s: output tensor %d is constant", op->index,
                         tflc_opcode_name(op->code),
                         it->tensors[TFLC__OUT(op)[k]].index);
  }
  /* INT4 tensors: only constant, and only as the filter of a
   * TFLC_OPF_INT4_FILTER operator (CONV_2D, DEPTHWISE_CONV_2D,
   * FULLY_CONNECTED: the kernels TFLM runs them in); user operators see
   * them as they are */
  for (i = 0; TFLC__COMPRESSION && i < nops; i++) {
    const tflc__op *op = &it->ops[i];
    const int filter_op = tflc__op_facts(op->code, TFLC_OPF_INT4_FILTER) != 0;
    if (op->user)
      continue;
    for (k = 0; k < op->nin + op->nout; k++) {
      const tflc_tensor *t = op->in[k] >= 0 ? &it->tensors[op->in[k]] : NULL;
      if (!t || t->type != TFLC_INT4 ||
          (filter_op && k == 1 && (t->flags & TFLC_TENSOR_CONST)))
        continue;
      return tflc__err(it->error, TFLC_ERR_TYPE,
                       "op %d %s: INT4 tensor %d (INT4 only as a constant "
                       "conv / fully-connected filter)",
                       op->index, tflc_opcode_name(op->code), t->index);
    }
  }
  return TFLC_OK;
}

/* Prepares the nops operators of subgraph sg (nt tensors: the init map's
 * words), each with its whole-tensor decode buffers; with a report
 * callback, a failing operator is reported and the others still prepared
 * (it->first_error). */
static void tflc__conv_folds(tflc__ctx *c, uint32_t nops);
static tflc_status tflc__prepare_ops(tflc_interpreter *it, const tflc_model *m,
                                     uint32_t sgt, int32_t sg, uint32_t nops) {
  tflc__ctx c;
  uint32_t i;
  int32_t k;
  tflc_status st;
  c.it = it;
  c.m = m;
  c.sgt = sgt;
  c.op = NULL;
  /* prepare every op; compressed inputs its kernel cannot read tile by
   * tile (metadata LUT inputs without a tiled path, Huffman / Prune inputs
   * not read in stream order) get a whole-tensor decode buffer: alternate
   * region, else arena scratch */
  for (i = 0; i < nops; i++) {
    tflc__op *op = &it->ops[i];
    size_t used[8];
    int32_t nwhole = 0;
    memset(used, 0, sizeof used);
    c.op = op;
    for (k = 0; TFLC__COMPRESSION && k < op->nin; k++)
      nwhole += tflc__whole_input(&c, k);
    if (nwhole > TFLC__MAX_SCRATCH)
      return tflc__op_err(&c, TFLC_ERR_UNSUPPORTED,
                          "more than %d compressed inputs", TFLC__MAX_SCRATCH,
                          0);
    if (nwhole > 0) {
      op->whole = (tflc__whole *)tflc__persist2(
          it, sizeof(tflc__whole) * (uint32_t)nwhole,
          sizeof(tflc__whole32) * (uint32_t)nwhole);
      if (!op->whole)
        return tflc__op_err(&c, TFLC_ERR_ARENA, "arena too small", 0, 0);
    }
    for (k = 0; k < op->nin && nwhole > 0; k++) {
      tflc_tensor *t = &it->tensors[op->in[k] >= 0 ? op->in[k] : 0];
      tflc__whole *w;
      if (!tflc__whole_input(&c, k))
        continue;
      w = &op->whole[op->nwhole++];
      w->slot = k;
      w->ptr = tflc__region_alloc(&it->opt, used, t->bytes);
      w->scratch = w->ptr ? -1 : tflc__scratch(&c, t->bytes);
      if (!w->ptr && w->scratch < 0)
        return tflc__scratch_err(&c);
    }
    if (TFLC__COMPRESSION && op->code == TFLC_OP_TFLM_DECODE) {
      int32_t j;
      for (j = 0; j < op->nout; j++) {
        tflc_tensor *o = &it->tensors[TFLC__OUT(op)[j]];
        if (o->flags & TFLC_TENSOR_VIRTUAL)
          continue;
        o->data = tflc__region_alloc(&it->opt, used, o->bytes);
        if (o->data)
          o->flags |= TFLC_TENSOR_EXTERN;
      }
    }
    st = tflc__prep_consts(it, &c);
    if (st)
      return st;
    st = tflc__prepare_op(&c);
    it->prep_consts = NULL;
    if (st && !it->error_op) {
      it->error_op = op->index + 1;
      it->error_subgraph = sg;
    }
    if (st && it->opt.report) {
      it->opt.report(it->opt.report_user, sg, op->index, st, it->error);
      if (!it->first_error)
        it->first_error = st;
      continue;
    }
    if (st)
      return st;
  }
  /* the CONV_2D layers' folded biases, once every record is made */
  tflc__conv_folds(&c, nops);
#ifndef TFLC_NO_PATCHES
  /* the chain's band buffers, once every layer is prepared */
  if (!it->first_error)
    return tflc__patch_ready(&c);
#endif
  return TFLC_OK;
}

/* Records, operators, preparation and plan of subgraph `sg`; the view
 * fields of `it` (tensors, ops, inputs, ...) describe it afterwards. */
static tflc_status tflc__init_graph(tflc_interpreter *it, int32_t sg) {
  const tflc_model *m = it->model;
  const tflc__fb fb = tflc__mfb(m);
  uint32_t sgt, nt, no, nrec, nops;
  uint64_t nidx = 0; /* operators' tensor indices */
  int16_t *idx;
  tflc_status st;
  int32_t k, *map;
  sgt = tflc__subgraph(m, sg);
  it->sgt = sgt;
  (void)tflc__sg_vec(m, sgt, TFLC__SG_TENSORS, 4, &nt);
  (void)tflc__sg_vec(m, sgt, TFLC__SG_OPERATORS, 4, &no);
  if (nt > (uint32_t)(it->arena_size / 4))
    return tflc__err(it->error, TFLC_ERR_ARENA,
                     "arena too small for %u tensors", nt);
  if (nt > 65535)
    return tflc__err(it->error, TFLC_ERR_UNSUPPORTED,
                     "subgraph %d: %u tensors (at most 65535)", sg, nt);
  /* Pass 1, in a temporary map at the start of the arena (where the
   * activations go later): map[t] = bit 0 referenced, bit 1 DECODE output,
   * bit 2 read by an operator without a tiled path (or a subgraph output),
   * bit 3 needs a record (used other than as TFLC__NO_RECORD allows), then
   * the record index from bit 4 up. */
  if ((uint64_t)nt * 4 > it->arena_size - it->tail)
    return tflc__err(it->error, TFLC_ERR_ARENA,
                     "arena too small for %u tensors", nt);
  map = (int32_t *)(void *)it->arena;
  memset(map, 0, (size_t)nt * 4);
  if (it->map_bytes < (size_t)nt * 4)
    it->map_bytes = (size_t)nt * 4; /* tflc__persist stays above it */
  st = tflc__mark_tensors(it, m, fb, sgt, no, map);
  if (st)
    return st;
  nops = tflc__keep_ops(m, fb, sgt, no, map, &nidx);
  nrec = tflc__number_records(m, sgt, sg, nt, map);
  if (nrec > 32767)
    return tflc__err(it->error, TFLC_ERR_UNSUPPORTED,
                     "subgraph %d: %u tensors in use (at most 32767)", sg,
                     nrec);
  it->num_tensors = (int32_t)nrec;
  it->num_ops = (int32_t)nops;
  it->tensors = (tflc_tensor *)tflc__persist2(it, sizeof(tflc_tensor) * nrec,
                                              sizeof(tflc__tensor32) * nrec);
  it->ops = (tflc__op *)tflc__persist2(it, sizeof(tflc__op) * nops,
                                       sizeof(tflc__op32) * nops);
  if ((nrec && !it->tensors) || (nops && !it->ops))
    return tflc__err(it->error, TFLC_ERR_ARENA,
                     "arena too small for %u tensors and %u ops", nrec, nops);
  /* every operator's tensor indices, then (several subgraphs) the
   * subgraph's input and output records, in one array: one rounding */
  if (TFLC__SUBGRAPHS && it->graphs)
    nidx += (uint32_t)(it->num_inputs + it->num_outputs);
  if (nidx > (uint64_t)(it->arena_size / 2))
    return tflc__err(it->error, TFLC_ERR_ARENA,
                     "arena too small for %u ops' tensor indices", nops);
  /* none: a valid pointer all the same (to no bytes: the arena's start) */
  idx = nidx ? (int16_t *)tflc__persist(it, 2u * (size_t)nidx)
             : (int16_t *)(void *)it->arena;
  if (!idx)
    return tflc__err(it->error, TFLC_ERR_ARENA,
                     "arena too small for %u ops' tensor indices", nops);
  if (TFLC__SUBGRAPHS && it->graphs)
    it->graphs[sg].io =
        idx + (nidx - (uint32_t)(it->num_inputs + it->num_outputs));
  for (k = 0; k < it->num_inputs; k++)
    it->inputs[k] = map[it->inputs[k]] >> 4;
  for (k = 0; k < it->num_outputs; k++)
    it->outputs[k] = map[it->outputs[k]] >> 4;
  st = tflc__read_records(it, m, fb, sgt, sg, nt, map);
  if (st)
    return st;
  st = tflc__read_ops(it, m, fb, sgt, no, map, idx, nidx, &nops);
  if (st)
    return st;
  st = tflc__check_records(it, sgt, nops);
  if (st)
    return st;
  /* delegates (section 13): each run of operators one delegate takes
   * becomes one record; the ops array shrinks accordingly */
  if (TFLC__DELEGATES && it->opt.num_delegates > 0) {
    st = tflc__delegate_graph(it, sg);
    if (st)
      return st;
    nops = (uint32_t)it->num_ops;
  }
  /* smaller plans: the chain run band by band, the layers that write over
   * their input */
#ifndef TFLC_NO_PATCHES
  /* (the compact plan too, its chain's layers keeping their multipliers;
   * not with _EVERYWHERE: every depthwise layer over its input) */
  if (it->plan == TFLC_PLAN_PATCHES || it->plan == TFLC_PLAN_COMPACT) {
    st = tflc__choose_patches(it, nt);
    if (st)
      return st;
  }
#endif
  if (TFLC__PATCHES && it->plan >= TFLC_PLAN_INPLACE) {
    st = tflc__choose_over_input(it, nt);
    if (st)
      return st;
  }
  st = tflc__prepare_ops(it, m, sgt, sg, nops);
  if (st)
    return st;
  if (it->first_error)
    return it->first_error;
  if (it->map_bytes < (size_t)nt * 4)
    it->map_bytes = (size_t)nt * 4; /* the map needed that much at init */
  return TFLC_OK;
}

static void tflc__view_save(const tflc_interpreter *it, tflc__view *v) {
  v->tensors = it->tensors;
  v->ops = it->ops;
  v->num_tensors = it->num_tensors;
  v->num_ops = it->num_ops;
  v->num_inputs = it->num_inputs;
  v->num_outputs = it->num_outputs;
  memcpy(v->inputs, it->inputs, sizeof v->inputs);
  memcpy(v->outputs, it->outputs, sizeof v->outputs);
  v->sgt = it->sgt;
}
static void tflc__view_load(tflc_interpreter *it, const tflc__view *v) {
  it->tensors = v->tensors;
  it->ops = v->ops;
  it->num_tensors = v->num_tensors;
  it->num_ops = v->num_ops;
  it->num_inputs = v->num_inputs;
  it->num_outputs = v->num_outputs;
  memcpy(it->inputs, v->inputs, sizeof v->inputs);
  memcpy(it->outputs, v->outputs, sizeof v->outputs);
  it->sgt = v->sgt;
}
/* The current view as a graph record; `io` holds num_inputs +
 * num_outputs entries. */
static void tflc__graph_keep(const tflc_interpreter *it, tflc__graph *g,
                             int16_t *io) {
  int32_t k;
  g->tensors = it->tensors;
  g->ops = it->ops;
  g->io = io;
  g->num_tensors = it->num_tensors;
  g->num_ops = it->num_ops;
  g->num_inputs = (uint16_t)it->num_inputs;
  g->num_outputs = (uint16_t)it->num_outputs;
  for (k = 0; k < it->num_inputs; k++)
    io[k] = (int16_t)it->inputs[k];
  for (k = 0; k < it->num_outputs; k++)
    io[it->num_inputs + k] = (int16_t)it->outputs[k];
  g->sgt = it->sgt;
  g->ran = 0;
}
static void tflc__graph_load(tflc_interpreter *it, const tflc__graph *g) {
  int32_t k;
  it->tensors = g->tensors;
  it->ops = g->ops;
  it->num_tensors = g->num_tensors;
  it->num_ops = g->num_ops;
  it->num_inputs = g->num_inputs;
  it->num_outputs = g->num_outputs;
  for (k = 0; k < g->num_inputs; k++)
    it->inputs[k] = TFLC__GRAPH_IN(g, k);
  for (k = 0; k < g->num_outputs; k++)
    it->outputs[k] = TFLC__GRAPH_OUT(g, k);
  it->sgt = g->sgt;
}

/* Every subgraph, last to first, so that subgraph 0's view is the one left
 * in place; subgraphs share nothing but variables and the arena. */
static tflc_status tflc__init_graphs(tflc_interpreter *it) {
  const tflc_model *m = it->model;
  int32_t n = m->num_subgraphs, sg;
  tflc_status st;
  if (TFLC__SUBGRAPHS && n > 1) {
    it->graphs =
        (tflc__graph *)tflc__persist2(it, sizeof(tflc__graph) * (uint32_t)n,
                                      sizeof(tflc__graph32) * (uint32_t)n);
    if (!it->graphs)
      return tflc__err(it->error, TFLC_ERR_ARENA, "arena too small");
  }
  st = tflc__vars_init(it);
  if (st)
    return st;
  /* prepare in TFLM's order (0 first), then plan them all together */
  for (sg = 0; sg < n; sg++) {
    memset(it->inputs, 0, sizeof it->inputs);
    memset(it->outputs, 0, sizeof it->outputs);
    it->num_inputs = it->num_outputs = 0;
    st = tflc__init_graph(it, sg);
    if (st)
      return st;
    if (TFLC__SUBGRAPHS &&
        it->graphs) /* io: the end of the subgraph's index array */
      tflc__graph_keep(it, &it->graphs[sg], it->graphs[sg].io);
  }
  if (TFLC__SUBGRAPHS && it->graphs) {
    st = tflc__plan(it, it->graphs, n);
    tflc__graph_load(it, &it->graphs[0]);
  } else {
    tflc__graph one;
    int16_t io[2 * TFLC_MAX_IO];
    tflc__graph_keep(it, &one, io);
    st = tflc__plan(it, &one, 1);
  }
  if (st)
    return st;
  /* the init-time map lay where the activations are: the arena needs
   * the larger of the two below the persistent records */
  if (it->head < it->map_bytes)
    it->head = it->map_bytes;
  memset(it->arena, 0, it->head);
  it->ready = 1;
  return tflc_reset(it);
}

TFLC_API tflc_tensor *tflc_input(tflc_interpreter *it, int32_t i) {
  if (!it || !it->ready || i < 0 || i >= it->num_inputs)
    return NULL;
  return &it->tensors[it->inputs[i]];
}
TFLC_API const tflc_tensor *tflc_output(const tflc_interpreter *it, int32_t i) {
  if (!it || !it->ready || i < 0 || i >= it->num_outputs)
    return NULL;
  return &it->tensors[it->outputs[i]];
}
TFLC_API const char *tflc_error(const tflc_interpreter *it) {
  return it ? it->error : "no interpreter";
}
TFLC_API size_t tflc_arena_used(const tflc_interpreter *it) {
  return it ? ((it->head + it->tail + TFLC__ALIGN - 1) &
               ~(size_t)(TFLC__ALIGN - 1)) +
                  it->align_pad
            : 0;
}
TFLC_API size_t tflc_arena_used_for(const tflc_interpreter *it,
                                    int pointer_bits) {
  if (!it || !it->ready)
    return 0;
  if (pointer_bits == (int)(8 * sizeof(void *)))
    return tflc_arena_used(it) - it->align_pad;
  if (pointer_bits != 32)
    return 0;
  return (it->head + it->tail32 + TFLC__ALIGN - 1) & ~(size_t)(TFLC__ALIGN - 1);
}
/* Compressed inputs of an op without tiles: decoded whole, the kernel
 * shown a plain tensor for the duration of the op (saved: their data).
 * Kept out of tflc__run_graph's frame, which stays under every kernel. */
static TFLC__NOINLINE void tflc__decode_whole(tflc_interpreter *it,
                                              uint32_t sgt, const tflc__op *op,
                                              void **saved) {
  int32_t k;
  for (k = 0; k < op->nwhole; k++) {
    tflc_tensor *t = &it->tensors[op->in[op->whole[k].slot]];
    tflc_const lut;
    tflc__desc_of(it, sgt, t, &lut);
    tflc_lut_decode(&lut, 0, lut.count, op->whole[k].ptr);
    saved[k] = t->data;
    t->data = op->whole[k].ptr;
    t->flags &= (uint8_t)~TFLC_TENSOR_LUT;
  }
}

/* Records operator `index` of the running subgraph as the one that
 * failed (tflc_error_op). */
static void tflc__note_error_op(tflc_interpreter *it, int32_t index) {
  int32_t g = 0;
  if (TFLC__SUBGRAPHS && it->graphs)
    for (g = 0; g < it->model->num_subgraphs; g++)
      if (it->graphs[g].sgt == it->sgt)
        break;
  it->error_op = index + 1;
  it->error_subgraph = g < it->model->num_subgraphs ? g : 0;
}

static tflc_status tflc__run_graph(tflc_interpreter *it) {
  tflc__ctx c;
  int32_t i, k;
  tflc_status st;
  c.it = it;
  c.m = it->model;
  c.sgt = it->sgt;
  for (i = 0; i < it->num_ops; i++) {
    tflc__op *op = &it->ops[i];
    void *saved[TFLC__MAX_SCRATCH];
    c.op = op;
    if (it->opt.profile)
      it->opt.profile(it->opt.profile_user, op->index, op->code, 1);
    if (TFLC__COMPRESSION && op->nwhole > 0)
      tflc__decode_whole(it, c.sgt, op, saved);
#ifndef TFLC_NO_PATCHES
    if (it->patch_rows && i >= it->patch_first && i <= it->patch_last &&
        !it->graphs) /* a chain run band by band, at its first operator */
      st = i == it->patch_first ? tflc__patch_run(&c) : TFLC_OK;
    else
#endif
      st = tflc__run_op(&c);
    for (k = op->nwhole - 1; TFLC__COMPRESSION && k >= 0; k--) {
      tflc_tensor *t = &it->tensors[op->in[op->whole[k].slot]];
      t->data = saved[k];
      t->flags |= TFLC_TENSOR_LUT;
    }
    if (it->opt.profile)
      it->opt.profile(it->opt.profile_user, op->index, op->code, 0);
    if (st) {
      if (!it->error_op) /* the innermost failure: its subgraph */
        tflc__note_error_op(it, op->index);
      return st;
    }
  }
  return TFLC_OK;
}

TFLC_API tflc_status tflc_invoke(tflc_interpreter *it) {
  if (!it || !it->ready)
    return TFLC_ERR_STATE;
  it->error_op = 0;
  return tflc__run_graph(it);
}

TFLC_API int32_t tflc_error_op(const tflc_interpreter *it, int32_t *subgraph) {
  if (subgraph)
    *subgraph = it && it->error_op ? it->error_subgraph : -1;
  return it && it->error_op ? it->error_op - 1 : -1;
}

/* ======================================================================== */
/* Operators: convolution family. CONV_2D, DEPTHWISE_CONV_2D and            */
/* FULLY_CONNECTED (int8 and float32; int16x8 further down), TRANSPOSE_CONV, */
/* SVDF, UNIDIRECTIONAL_SEQUENCE_LSTM. Rows: TFLC_OPERATORS.                */
/* ======================================================================== */
/* ---- selection: TFLC_OPS ------------------------------------------------- */
/* With TFLC_OPS defined as a list, e.g.
 *   #define TFLC_OPS(X) X(CONV_2D) X(DEPTHWISE_CONV_2D) X(SOFTMAX)
 * only the named operators are compiled in: the others keep their row
 * in the table (name, options checks; with neither delegates nor user
 * operators only the selected rows are linked, tflc__opdef_find) but
 * the dispatch (tflc__op_call) calls only the selected ones, so nothing
 * references the others' code and the compiler (and --gc-sections for the
 * kernels) drops it. The operators' own code may also test
 * TFLC__SELECTED(TFLC_OP_x) to leave out what serves only another operator.
 * TFLC__SELECTED(code) compares the code with each listed operator's
 * (the list expanded with X = `|| (code) == TFLC__SELCODE`): a constant
 * expression in C and C++ for a constant code, for any code a row has. */
/* TFLC__SELECTED_FACTS: the facts of the listed operators, ORed (a flag
 * no selected operator has leaves out the code serving it). */
#define TFLC__FACTS_OF_X(name, k, o, i, f, pr, iv, rs)                         \
  TFLC__FACTS_OF_##name = (f),
#define TFLC__FACTS_OF_N(name, k, f) TFLC__FACTS_OF_##name = (f),
enum { TFLC_OPERATORS(TFLC__FACTS_OF_X, TFLC__FACTS_OF_N) TFLC__FACTS_OF_END };
#ifdef TFLC_OPS
#define TFLC__SELCODE(name) (int)TFLC_OP_##name
#define TFLC__SELECTED(code) (0 TFLC_OPS(|| (code) == TFLC__SELCODE))
#define TFLC__SELFACTS(name) | (int)TFLC__FACTS_OF_##name
#define TFLC__SELECTED_FACTS (0 TFLC_OPS(TFLC__SELFACTS))
#else
#define TFLC__SELECTED(code) 1
#define TFLC__SELECTED_FACTS 0xFFFF
#endif

/* ---- types: TFLC_NO_FLOAT32, TFLC_NO_INT16, TFLC_INT8_ONLY -------------- */
/* TFLC__F32 / TFLC__S16: 1 when the float32 / int16 paths of the
 * operators are compiled in. Without them, an operator with a tensor of
 * that type among its inputs or outputs is refused before its prepare
 * (tflc__types_compiled), so every branch taken on such a type below is
 * dead and written `if (TFLC__F32 && ...)`: the compiler drops it and
 * --gc-sections the kernels it calls. */
#if defined(TFLC_NO_FLOAT32) || defined(TFLC_INT8_ONLY)
#define TFLC__F32 0
#else
#define TFLC__F32 1
#endif
#if defined(TFLC_NO_INT16) || defined(TFLC_INT8_ONLY)
#define TFLC__S16 0
#else
#define TFLC__S16 1
#endif

/* ---- state and helpers shared by operators ------------------------------ */
typedef struct tflc__conv_state {
  tflc_conv_params p;
  int16_t tile;  /* scratch index or -1 */
  int16_t plane; /* depthwise written over its input: scratch index of its
                    plane (`plane_ch` channels), else -1 */
} tflc__conv_state;
/* FULLY_CONNECTED int8 / float32. Kept small (TFLM's arena is the bound):
 * the kernel's parameters are put together at invoke from zero points and
 * int8 bounds, and a per-tensor multiplier lives here instead of in an
 * allocation of its own. Weights and bias without a record
 * (TFLC__NO_RECORD) are read through `filter` and `bias`. The kernel
 * layer's int8 record (TFLC_FC_S8_RECORD_BYTES, 0 on most platforms)
 * follows the state in the same allocation (tflc__fc_record). */
typedef struct tflc__fc_state {
  const void *filter; /* elements of a filter without a record, else NULL */
  const void *bias;   /* elements of a bias without a record, else NULL */
  union {
    struct {
      float min, max; /* float32: fused activation range */
    } f32;
    int32_t mult;         /* int8 per-tensor: the output multiplier */
    const int32_t *mults; /* int8 per-channel: depth multipliers, then
                             depth int8 shifts */
  } r;
  int32_t accum, depth;
  int16_t in_zp, filter_zp, out_zp;
  int8_t act_min, act_max; /* int8 output bounds (within -128..127: an
                              int8 zero point is, tflc__read_tensor) */
  int8_t shift;            /* int8 per-tensor */
  int8_t tile;             /* scratch index or -1 */
  uint8_t per_channel;
} tflc__fc_state;
/* an int8 CONV_2D's state where it may fold (TFLC__FOLDED): its folded
 * biases, or NULL where its kernel paths do not read them */
typedef struct tflc__conv2d_state {
  tflc__conv_state s;
  const int32_t *folded;
} tflc__conv2d_state;
/* the states above as a 32-bit target lays them out */
typedef struct tflc__conv_state32 {
  tflc__conv_params32 p;
  int16_t tile, plane;
} tflc__conv_state32;
typedef struct tflc__conv2d_state32 {
  tflc__conv_state32 s;
  uint32_t folded;
} tflc__conv2d_state32;
typedef struct tflc__fc_state32 {
  uint32_t filter, bias;
  union {
    struct {
      float min, max;
    } f32;
    int32_t mult;
    uint32_t mults;
  } r;
  int32_t accum, depth;
  int16_t in_zp, filter_zp, out_zp;
  int8_t act_min, act_max, shift, tile;
  uint8_t per_channel;
} tflc__fc_state32;
#if defined(UINTPTR_MAX) && UINTPTR_MAX == 0xFFFFFFFFu
typedef char tflc__states32_match
    [sizeof(tflc__conv_state) == sizeof(tflc__conv_state32) &&
             sizeof(tflc__conv2d_state) == sizeof(tflc__conv2d_state32) &&
             sizeof(tflc__fc_state) == sizeof(tflc__fc_state32)
         ? 1
         : -1];
#endif
typedef struct tflc__pool_state {
  tflc_pool_params p;
} tflc__pool_state;
/* float32 and int16 pools, L2_POOL_2D (variant 1) */
typedef struct tflc__pool_wide_state {
  tflc_pool_params p;
  float fmin, fmax;
} tflc__pool_wide_state;
typedef struct tflc__softmax_state {
  tflc_softmax_params p;
  float beta;
  int32_t rows, depth;
} tflc__softmax_state;
typedef struct tflc__add_state {
  tflc_add_params p;
  float fmin, fmax;
  int32_t rank;
  int32_t d1[TFLC_MAX_DIMS], d2[TFLC_MAX_DIMS], d0[TFLC_MAX_DIMS];
} tflc__add_state;
typedef struct tflc__mean_state {
  tflc_mean_params p;
  uint32_t mask;
} tflc__mean_state;
typedef struct tflc__pad_state {
  int32_t before[TFLC_MAX_DIMS], after[TFLC_MAX_DIMS];
  uint8_t value[8];
} tflc__pad_state;
typedef struct tflc__perm_state {
  int32_t perm[TFLC_MAX_DIMS];
} tflc__perm_state;
typedef struct tflc__quant_state {
  int32_t kind; /* 1 f32->s8, 2 f32->s16, 3 s8->s8, 4 s8->f32, 5 s16->f32 */
  int32_t q, shift;
} tflc__quant_state;

/* Reads an int32 (or int64) constant vector input into v (n entries). */
static int tflc__const_ints(const tflc_tensor *t, int32_t *v, int32_t cap,
                            int32_t *n) {
  int32_t i, cnt;
  if (!t || !(t->flags & TFLC_TENSOR_CONST) || !t->data)
    return 0;
  cnt = tflc__count(t);
  if (cnt > cap)
    return 0;
  for (i = 0; i < cnt; i++) {
    if (t->type == TFLC_INT32) {
      v[i] = tflc__i32((const uint8_t *)t->data + 4 * i);
    } else if (t->type == TFLC_INT64) {
      int64_t x = (int64_t)tflc__u64((const uint8_t *)t->data + 8 * i);
      if (x < INT32_MIN || x > INT32_MAX)
        return 0;
      v[i] = (int32_t)x;
    } else {
      return 0;
    }
  }
  *n = cnt;
  return 1;
}

static int32_t tflc__pad_amount(int32_t padding_same, int32_t in, int32_t k,
                                int32_t stride, int32_t dil, int32_t *out) {
  int32_t eff = (k - 1) * dil + 1, o, total;
  if (padding_same)
    o = (in + stride - 1) / stride;
  else
    o = (in - eff + stride) / stride;
  *out = o;
  total = (o - 1) * stride + eff - in;
  return total > 0 ? total / 2 : 0;
}

/* Decode tile of an int8 / float32 CONV_2D, DEPTHWISE_CONV_2D or
 * FULLY_CONNECTED (0: none): TFLC_TILE_BYTES for a filter read compressed
 * (LUT, or Huffman / Prune in stream order: the kernels decode as many
 * whole channels as fit); for an INT4 filter at most its unpacked size
 * (TFLM's arena holds the whole unpacked filter, so tflc never needs
 * more); none for a raw filter or one decoded whole (biases are read
 * element by element). */
static size_t tflc__filter_tile(const tflc__ctx *c, const tflc_tensor *f,
                                const tflc_tensor *b) {
  (void)b;
  if (f->type == TFLC_INT4) {
    const int64_t n = tflc__count(f);
    return n < TFLC_TILE_BYTES ? (size_t)(n + 15) & ~(size_t)15
                               : TFLC_TILE_BYTES;
  }
  if ((f->flags & TFLC_TENSOR_LUT) && !tflc__decoded_whole(c, 1))
    return TFLC_TILE_BYTES;
  return 0;
}

/* ---- CONV_2D / DEPTHWISE_CONV_2D ---------------------------------------- */
/* The largest bytes of an operator's first input and first output
 * together over the operators of c's view */
static TFLC__NOINLINE size_t tflc__largest_io(const tflc__ctx *c) {
  const tflc_interpreter *it = c->it;
  size_t best = 0;
  int32_t i;
  for (i = 0; i < it->num_ops; i++) {
    const tflc__op *op = &it->ops[i];
    size_t n = 0;
    if (op->nin > 0 && op->in[0] >= 0)
      n += it->tensors[op->in[0]].bytes;
    if (op->nout > 0)
      n += it->tensors[TFLC__OUT(op)[0]].bytes;
    best = n > best ? n : best;
  }
  return best;
}
/* The tile of a convolution: the filter's (tflc__filter_tile), or where
 * its prepare set TFLC__LAYER_TILE, the larger of that and the scratch of
 * the platform's depthwise layer path */
static TFLC__NOINLINE size_t tflc__conv_tile(tflc__ctx *c,
                                             const tflc_conv_params *p,
                                             const tflc_tensor *f,
                                             const tflc_tensor *b) {
  const size_t t = tflc__filter_tile(c, f, b);
  size_t l;
  if (!TFLC__PATCHES || !(c->op->variant & TFLC__LAYER_TILE))
    return t;
  l = tflc__depthwise_layer_tile_s8(p, tflc__in(c, 0)->dims, f->dims,
                                    tflc__out(c, 0)->dims);
  return l > t ? l : t;
}
/* CONV_2D / DEPTHWISE_CONV_2D geometry, the same for every type: the
 * options (padding, strides, dilation, fused activation, depth
 * multiplier), the shapes against the filter and the model's output, the
 * padding. Fills p's geometry; returns the fused activation and the
 * number of output channels. */
static tflc_status tflc__conv_geometry(tflc__ctx *c, int depthwise,
                                       tflc_conv_params *p, int32_t *act_out,
                                       int32_t *cout_out) {
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *o = tflc__out(c, 0);
  int32_t padding, sh, sw, dh, dw, act, same, oh, ow, cout, kh, kw, m = 0;
  if (in->rank != 4 || f->rank != 4 || o->rank != 4)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "tensors must be 4-D", 0, 0);
  if (depthwise) {
    tflc__depthwise_conv2d_options d;
    tflc__read_depthwise_conv2d_options(c->m, c->op->opts, &d);
    padding = d.padding;
    sw = d.stride_w;
    sh = d.stride_h;
    act = d.fused_activation_function;
    dw = d.dilation_w_factor;
    dh = d.dilation_h_factor;
    m = d.depth_multiplier;
  } else {
    tflc__conv2d_options d;
    tflc__read_conv2d_options(c->m, c->op->opts, &d);
    padding = d.padding;
    sw = d.stride_w;
    sh = d.stride_h;
    act = d.fused_activation_function;
    dw = d.dilation_w_factor;
    dh = d.dilation_h_factor;
  }
  if (padding > 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "unknown padding %d", padding, 0);
  same = padding == 0;
  if (sw < 1 || sh < 1 || dw < 1 || dh < 1 || sw > 65535 || sh > 65535 ||
      dw > 65535 || dh > 65535)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "bad stride/dilation %d/%d", sw,
                        dw);
  kh = f->dims[1];
  kw = f->dims[2];
  cout = depthwise ? f->dims[3] : f->dims[0];
  if (kh < 1 || kw < 1 || cout < 1 || o->dims[3] != cout ||
      o->dims[0] != in->dims[0])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "filter/output channels %d/%d", cout,
                        o->dims[3]);
  if (depthwise) {
    if (f->dims[0] != 1 || m < 1 || (int64_t)in->dims[3] * m != cout)
      return tflc__op_err(c, TFLC_ERR_SHAPE,
                          "depth multiplier %d does not give %d channels", m,
                          cout);
    p->depth_multiplier = m;
  } else if (f->dims[3] < 1 || in->dims[3] < 1 ||
             in->dims[3] % f->dims[3] != 0 ||
             cout % (in->dims[3] / f->dims[3]) != 0) {
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input depth %d vs filter depth %d",
                        in->dims[3], f->dims[3]);
  }
  p->stride_h = sh;
  p->stride_w = sw;
  p->dilation_h = dh;
  p->dilation_w = dw;
  /* keep every position the kernels compute (in + padding, taps times
   * dilation) far inside int32 */
  if ((int64_t)(kh - 1) * dh + 1 > 0x3FFFFFFF ||
      (int64_t)(kw - 1) * dw + 1 > 0x3FFFFFFF || in->dims[1] > 0x3FFFFFFF ||
      in->dims[2] > 0x3FFFFFFF)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "filter %dx%d or dilation too large",
                        kh, kw);
  p->pad_h = tflc__pad_amount(same, in->dims[1], kh, sh, dh, &oh);
  p->pad_w = tflc__pad_amount(same, in->dims[2], kw, sw, dw, &ow);
  if (oh != o->dims[1] || ow != o->dims[2])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output is %dx%d, model says other",
                        oh, ow);
  *act_out = act;
  *cout_out = cout;
  return TFLC_OK;
}

/* Multiplier and shift of one output channel from its filter scale fs:
 * the one computation prepare and (TFLC_PLAN_COMPACT) invoke share. */
static int32_t tflc__channel_mult(float in_scale, float fs, float out_scale,
                                  int32_t *mult) {
  int32_t sh32;
  tflc_conv_quantize_multipliers(in_scale, &fs, 1, out_scale, 1, mult, &sh32);
  return sh32;
}
/* Per-channel (or broadcast per-tensor) output multipliers and int8
 * shifts of CONV_2D / DEPTHWISE_CONV_2D / TRANSPOSE_CONV, into p; with
 * `check_only`, checked and not kept (p's arrays stay NULL: the operator
 * computes them at invoke, tflc__conv_mult_at_invoke). */
static tflc_status tflc__conv_mult2(tflc__ctx *c, const tflc_tensor *in,
                                    const tflc_tensor *f, const tflc_tensor *o,
                                    int32_t cout, tflc_conv_params *p,
                                    int check_only) {
  uint32_t ftt = tflc__tensor_table(c->m, c->sgt, f->index), nsc, i;
  int32_t *mult = NULL, one;
  int8_t *shift = NULL;
  if (!(in->scale > 0.0f) || !(o->scale > 0.0f))
    return tflc__op_err(c, TFLC_ERR_QUANT, "input/output not quantized", 0, 0);
  nsc = tflc__tensor_nscales(c->m, ftt);
  if (nsc == 0)
    return tflc__op_err(c, TFLC_ERR_QUANT, "filter tensor %d not quantized",
                        f->index, 0);
  if (nsc > 1) {
    const int32_t qd = tflc__tensor_qdim(c->m, ftt);
    if (nsc != (uint32_t)cout || qd < 0 || qd >= f->rank || f->dims[qd] != cout)
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "filter has %d scales for %d channels", (int32_t)nsc,
                          cout);
  }
  if (cout > 0x7FFFFFFF / 5)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "%d channels", cout, 0);
  if (!check_only) {
    mult = (int32_t *)tflc__persist(c->it, 5u * (uint32_t)cout);
    if (!mult)
      return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for multipliers", 0, 0);
    shift = (int8_t *)(mult + cout);
  }
  for (i = 0; i < (uint32_t)cout; i++) {
    float fs = tflc__tensor_scale(c->m, ftt, nsc == 1 ? 0 : i);
    int32_t sh32;
    if (!(fs > 0.0f))
      return tflc__op_err(c, TFLC_ERR_QUANT, "filter scale %d is not positive",
                          (int32_t)i, 0);
    sh32 = tflc__channel_mult(in->scale, fs, o->scale, mult ? mult + i : &one);
    if (sh32 < -31 || sh32 > 30)
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "channel %d: multiplier exponent %d out of range",
                          (int32_t)i, sh32);
    if (shift)
      shift[i] = (int8_t)sh32;
  }
  p->out_multiplier = mult;
  p->out_shift = shift;
  return TFLC_OK;
}
static tflc_status tflc__conv_mult(tflc__ctx *c, const tflc_tensor *in,
                                   const tflc_tensor *f, const tflc_tensor *o,
                                   int32_t cout, tflc_conv_params *p) {
  return tflc__conv_mult2(c, in, f, o, cout, p, 0);
}
#ifndef TFLC_NO_PATCHES
/* TFLC_PLAN_COMPACT: the multipliers and shifts of an int8 convolution
 * (cout channels) that keeps none, computed from the model's scales as
 * prepare checked them, into its last scratch buffer (5 bytes a channel,
 * live during this operator only), and pointed at by p. */
static TFLC__NOINLINE void
tflc__conv_mult_at_invoke(tflc__ctx *c, tflc_conv_params *p, int32_t cout) {
  const tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1);
  const tflc_tensor *o = tflc__out(c, 0);
  const tflc__fb fb = tflc__mfb(c->m);
  const uint32_t qt = tflc__get_ref(
      fb, tflc__tensor_table(c->m, c->sgt, f->index), TFLC__T_QUANT);
  uint32_t ns = 0, sv = qt ? tflc__get_vec(fb, qt, TFLC__Q_SCALE, 4, &ns) : 0;
  int32_t *mult = (int32_t *)c->op->scratch[c->op->nscratch - 1], i;
  int8_t *shift = (int8_t *)(mult + cout);
  const uint32_t step = ns > 1 ? 4u : 0u; /* per-tensor: one scale */
  for (i = 0; i < cout; i++)
    shift[i] = (int8_t)tflc__channel_mult(
        in->scale, tflc__f32(fb.b + sv + step * (uint32_t)i), o->scale,
        mult + i);
  p->out_multiplier = mult;
  p->out_shift = shift;
}
#endif

/* 1 when the depthwise operator of c (geometry p, decode tile `tile`
 * bytes or 0) can write its output over its input: depth multiplier 1,
 * taps of a channel within the tile, and its input dead after it
 * (tflc__dead_input). */
static int tflc__dw_over_input(tflc__ctx *c, const tflc_conv_params *p,
                               size_t tile) {
  const tflc_tensor *f = tflc__in(c, 1);
  return p->depth_multiplier == 1 && f && f->rank == 4 &&
         (int64_t)f->dims[1] * f->dims[2] <=
             (tile ? (int64_t)tile : 0x7FFFFF) &&
         tflc__dead_input(c->it, c->op);
}

/* The end of an int8 convolution's prepare: TFLC_PLAN_COMPACT (p's
 * arrays left NULL by tflc__conv_mult2) gives it the scratch they are
 * computed into at invoke, its last one, or keeps them after all when it
 * can have no more scratch. (The fastest plan counts in compact_ops the
 * operators that could.) */
static TFLC__NOINLINE tflc_status tflc__conv_mult_scratch(
    tflc__ctx *c, const tflc_tensor *in, const tflc_tensor *f,
    const tflc_tensor *o, int32_t cout, tflc_conv_params *p) {
  int32_t k;
  if (p->out_multiplier)
    return TFLC_OK;
  k = tflc__scratch(c, 5u * (uint32_t)cout); /* (< 2^31: conv_mult2) */
  if (k < 0) /* (an operator a delegate took, or no scratch slot left) */
    return tflc__conv_mult(c, in, f, o, cout, p);
  c->op->variant |= TFLC__MULT_AT_INVOKE;
  c->it->compact_ops++;
  return TFLC_OK;
}
/* The folded biases of the int8 CONV_2D of c (TFLC__FOLDED: a raw
 * filter), made once every operator is prepared, where its kernel paths
 * read them; none for a bias whose decoding needs the invoke's cursor
 * (the sums are then taken at each invoke). Where they do not fit,
 * fold_short counts them: the plan then fails, its need exact. */
static TFLC__NOINLINE void tflc__conv_fold(tflc__ctx *c) {
  tflc__conv2d_state *s = (tflc__conv2d_state *)c->op->state;
  const tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1);
  const tflc_tensor *b = tflc__in(c, 2), *o = tflc__out(c, 0);
  const int32_t cout = o->dims[3];
  tflc_const fc, bc;
  int32_t *folded;
  if (cout <= 0 || cout > 0xFFFFFF)
    return;
  fc = tflc__const(c, f);
  if (b)
    bc = tflc__const(c, b);
  if ((b && (bc.kind == TFLC_CONST_HUFFMAN || bc.kind == TFLC_CONST_PRUNE)) ||
      !tflc_conv2d_s8_fold(&s->s.p, in->dims, f->dims, &fc, b ? &bc : NULL,
                           o->dims, NULL))
    return;
  folded = (int32_t *)tflc__persist(c->it, 4u * (size_t)cout);
  if (!folded) {
    c->it->fold_short += ((size_t)cout * 4u + 7u) & ~(size_t)7u;
    return;
  }
  tflc_conv2d_s8_fold(&s->s.p, in->dims, f->dims, &fc, b ? &bc : NULL, o->dims,
                      folded);
  s->folded = folded;
}
/* tflc__conv_fold for every int8 CONV_2D of the view (c: its context)
 * that may fold */
static void tflc__conv_folds(tflc__ctx *c, uint32_t nops) {
  uint32_t i;
  for (i = 0; TFLC__SELECTED(TFLC_OP_CONV_2D) && i < nops; i++) {
    c->op = &c->it->ops[i];
    if (c->op->code == TFLC_OP_CONV_2D && (c->op->variant & TFLC__FOLDED) &&
        c->op->state)
      tflc__conv_fold(c);
  }
}
static tflc_status tflc__conv_s8_prepare(tflc__ctx *c, int depthwise) {
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__conv_state *s;
  int32_t act = 0, cout = 0;
  int foldable, fold;
  tflc_status st;
  if (!in || !f || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "missing input or output", 0, 0);
  /* INT4 filters (two per byte) are read as int8 a tile at a time */
  if (in->type != TFLC_INT8 || (f->type != TFLC_INT8 && f->type != TFLC_INT4) ||
      o->type != TFLC_INT8)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "only int8 input/filter/output supported (got %d/%d)",
                        in->type, f->type);
  if (!tflc__is_const(f) || (b && !tflc__is_const(b)))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "filter tensor %d must be constant", f->index, 0);
  if (b && (b->type != TFLC_INT32 || tflc__count(b) != o->dims[3]))
    return tflc__op_err(c, TFLC_ERR_TYPE, "bias tensor %d must be int32[%d]",
                        b->index, o->dims[3]);
  /* (CONV_2D of a raw filter in the fastest plan: room for its folded
   * biases; the other plans' layers sum their filters at each invoke) */
  foldable = !depthwise && in->zero_point != 0 && f->type == TFLC_INT8 &&
             !(f->flags & (TFLC_TENSOR_LUT | TFLC_TENSOR_DECODED));
  fold =
      foldable && c->it->plan <= (int32_t)TFLC_PLAN_FASTEST && !c->it->unfolded;
  s = (tflc__conv_state *)(fold ? tflc__persist2(c->it,
                                                 sizeof(tflc__conv2d_state),
                                                 sizeof(tflc__conv2d_state32))
                                : tflc__persist2(c->it, sizeof *s,
                                                 sizeof(tflc__conv_state32)));
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  st = tflc__conv_geometry(c, depthwise, &s->p, &act, &cout);
  if (!st && (in->scale <= 0.0f || o->scale <= 0.0f))
    st = tflc__op_err(c, TFLC_ERR_QUANT, "input/output not quantized", 0, 0);
  if (TFLC__PATCHES && !st && c->it->plan == TFLC_PLAN_FASTEST)
    c->it->compact_ops++; /* (counted before its arrays: they may not fit) */
  if (!st)
    st = tflc__conv_mult2(
        c, in, f, o, cout, &s->p,
        TFLC__PATCHES && c->it->plan >= (int32_t)TFLC_PLAN_COMPACT &&
            !TFLC__IN_CHAIN(c->it, (int32_t)(c->op - c->it->ops)));
  if (st)
    return st;
  s->p.input_offset = -in->zero_point;
  s->p.output_offset = o->zero_point;
  tflc_activation_range_quantized(act, o->scale, o->zero_point, -128, 127,
                                  &s->p.act_min, &s->p.act_max);
  s->tile = -1;
  s->plane = -1;
  c->op->variant = (uint8_t)(c->op->variant & ~TFLC__LAYER_TILE);
  if (TFLC__PATCHES && depthwise && f->type == TFLC_INT8 &&
      tflc__filter_tile(c, f, b) == 0 && c->op->nscratch == 0 &&
      c->it->plan <= (int32_t)TFLC_PLAN_FASTEST) {
    /* (asked where it has a chance: with the layer's input and output
     * within the largest such pair of the view, which the activations
     * hold anyway) */
    size_t t;
    c->op->variant |= TFLC__LAYER_TILE;
    t = tflc__conv_tile(c, &s->p, f, b);
    if (t == 0 || t + in->bytes + o->bytes > tflc__largest_io(c))
      c->op->variant = (uint8_t)(c->op->variant & ~TFLC__LAYER_TILE);
  }
  if (tflc__conv_tile(c, &s->p, f, b) > 0)
    s->tile = (int16_t)tflc__scratch(c, tflc__conv_tile(c, &s->p, f, b));
  if (TFLC__PATCHES && depthwise) {
    /* the fastest plan counts the layers that could go over their input;
     * the smaller ones take those tflc__choose_over_input marked */
    const int marked = (c->op->variant & TFLC__OVER_INPUT) != 0;
    c->op->variant = (uint8_t)(c->op->variant & ~TFLC__OVER_INPUT);
    if ((marked || c->it->plan == TFLC_PLAN_FASTEST) &&
        tflc__dw_over_input(c, &s->p,
                            s->tile >= 0 ? tflc__filter_tile(c, f, b) : 0)) {
      c->it->inplace_ops++;
      if (marked) {
        /* N * Ho * Wo bytes a channel (tflc__dead_input: < 2^31) */
        const uint32_t plane = o->bytes / (uint32_t)o->dims[3];
        s->plane = (int16_t)tflc__scratch(
            c, (uintptr_t)plane * (uint32_t)TFLC__PLANE_CHANNELS(o));
        if (s->plane < 0)
          return tflc__scratch_err(c);
        c->op->variant |= TFLC__OVER_INPUT;
      }
    }
  }
  if (TFLC__PATCHES)
    st = tflc__conv_mult_scratch(c, in, f, o, cout, &s->p);
  /* prepared: its biases are folded once every operator is */
  if (!st && fold) {
    c->op->variant |= TFLC__FOLDED;
    c->it->folded_ops++;
  }
  return st;
}
#ifndef TFLC_NO_PATCHES
/* A depthwise layer written over its input (the smaller plans), kept out
 * of tflc__conv_s8_invoke's frame. */
static TFLC__NOINLINE tflc_status tflc__dw_s8_over_input(
    tflc__ctx *c, const tflc__conv_state *s, const tflc_const *fc,
    const tflc_const *bc, void *tile, size_t tb) {
  const tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1);
  const tflc_tensor *o = tflc__out(c, 0);
  if (!tflc_depthwise_conv2d_s8_inplace(&s->p, in->dims, (int8_t *)o->data,
                                        f->dims, fc, bc, o->dims,
                                        (int8_t *)c->op->scratch[s->plane],
                                        TFLC__PLANE_CHANNELS(o), tile, tb))
    return tflc__op_err(c, TFLC_ERR_KERNEL, "not in place", 0, 0);
  return TFLC_OK;
}
#endif
/* (inlined into one function each, the frames of the depthwise layers
 * and the convolutions only as deep as they need) */
TFLC__INLINE tflc_status tflc__conv_s8_invoke(tflc__ctx *c, int depthwise) {
  tflc__conv_state *s = (tflc__conv_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  void *tile = s->tile >= 0 ? (void *)c->op->scratch[s->tile] : NULL;
  size_t tb = s->tile >= 0 ? tflc__conv_tile(c, &s->p, f, b) : 0;
  tflc_const fc = tflc__const(c, f), bc;
  if (b)
    bc = tflc__const(c, b);
#ifndef TFLC_NO_PATCHES
  if (c->op->variant & TFLC__MULT_AT_INVOKE)
    tflc__conv_mult_at_invoke(c, &s->p, o->dims[3]);
  if (depthwise && s->plane >= 0 && o->data == in->data)
    return tflc__dw_s8_over_input(c, s, &fc, b ? &bc : NULL, tile, tb);
#endif
  if (depthwise)
    tflc_depthwise_conv2d_s8(&s->p, in->dims, (const int8_t *)in->data, f->dims,
                             &fc, b ? &bc : NULL, o->dims, (int8_t *)o->data,
                             tile, tb);
  else if ((c->op->variant & TFLC__FOLDED) &&
           ((const tflc__conv2d_state *)(const void *)s)->folded)
    tflc_conv2d_s8_folded(
        &s->p, in->dims, (const int8_t *)in->data, f->dims, &fc, b ? &bc : NULL,
        o->dims, (int8_t *)o->data,
        ((const tflc__conv2d_state *)(const void *)s)->folded);
  else
    tflc_conv2d_s8(&s->p, in->dims, (const int8_t *)in->data, f->dims, &fc,
                   b ? &bc : NULL, o->dims, (int8_t *)o->data, tile, tb);
  return TFLC_OK;
}
static TFLC__NOINLINE tflc_status tflc__conv2d_s8_invoke(tflc__ctx *c) {
  return tflc__conv_s8_invoke(c, 0);
}
static TFLC__NOINLINE tflc_status tflc__dw_s8_invoke(tflc__ctx *c) {
  return tflc__conv_s8_invoke(c, 1);
}

#ifndef TFLC_NO_PATCHES
/* 1 when a layer other than a convolution or a PAD was prepared as its
 * band run assumes (no scratch, no whole input): a pool's strides, filter
 * and top padding (float32: the wide pool's state); a QUANTIZE int8 ->
 * int8 requantizing, float32 -> int8 quantizing; the float32 element-wise
 * maps, which keep no state. */
static int tflc__patch_other_ready(const tflc__op *op,
                                   const tflc__patch_layer *L) {
  const int f32 = L->es == 4;
  if (op->nscratch || op->nwhole || (f32 && !TFLC__F32))
    return 0;
  if (L->kind == TFLC__PK_POOL) {
    const tflc_pool_params *p;
    if (!op->state || op->variant != (f32 ? 1 : 0))
      return 0;
    p = f32 ? &((const tflc__pool_wide_state *)op->state)->p
            : &((const tflc__pool_state *)op->state)->p;
    return p->stride_h == L->sh && p->stride_w == L->sw &&
           p->filter_h == L->kh && p->filter_w == L->kw && p->pad_h == L->pad_t;
  }
  if (op->variant)
    return 0;
  if (op->code == TFLC_OP_QUANTIZE)
    return op->state &&
           ((const tflc__quant_state *)op->state)->kind == (f32 ? 1 : 3);
  if (f32 && L->kind == TFLC__PK_MAP)
    return 1;
  return op->state && (L->kind == TFLC__PK_MAP || L->kind == TFLC__PK_ADD);
}
static int tflc__patch_f32_ready(const tflc__op *op,
                                 const tflc__patch_layer *L);
static void tflc__patch_f32_conv(tflc__ctx *k, tflc__op *op,
                                 const tflc__patch_layer *L, const int8_t *x,
                                 int32_t rows, int8_t *y, int32_t out_rows);
/* After the operators are prepared: the chain's layers as prepared (no
 * decode tile, none written over its input, the geometry chosen), else no
 * chain; then its band buffers, as scratch of its first operator. */
static TFLC__NOINLINE tflc_status tflc__patch_ready(tflc__ctx *c) {
  tflc_interpreter *it = c->it;
  int32_t i;
  if (!it->patch_rows)
    return TFLC_OK;
  for (i = it->patch_first; i <= it->patch_last; i++) {
    const tflc__op *op = &it->ops[i];
    const tflc__conv_state *s = (const tflc__conv_state *)op->state;
    tflc__patch_layer L;
    if (op->code == TFLC_OP_PAD && !op->nscratch && !op->nwhole &&
        tflc__patch_geo(it, i, &L))
      continue;
    if (op->code != TFLC_OP_CONV_2D && op->code != TFLC_OP_DEPTHWISE_CONV_2D) {
      if (TFLC__SELECTED(op->code) && tflc__patch_geo(it, i, &L) &&
          tflc__patch_other_ready(op, &L))
        continue;
      it->patch_rows = 0;
      return TFLC_OK;
    }
    if (tflc__patch_geo(it, i, &L) && L.es == 4) {
      if (tflc__patch_f32_ready(op, &L))
        continue;
      it->patch_rows = 0;
      return TFLC_OK;
    }
    if (op->nscratch || op->nwhole || (op->variant & 0x81u) || !s ||
        s->tile >= 0 || s->plane >= 0 || !tflc__patch_geo(it, i, &L) ||
        s->p.stride_h != L.sh || s->p.stride_w != L.sw ||
        s->p.dilation_h != L.dh || s->p.dilation_w != L.dw ||
        s->p.pad_h != L.pad_t || s->p.pad_w != L.pad_l) {
      it->patch_rows = 0;
      return TFLC_OK;
    }
  }
  c->op = &it->ops[it->patch_first];
  if (tflc__scratch(c, it->patch_bytes ? it->patch_bytes : 1) != 0)
    return tflc__scratch_err(c);
  return TFLC_OK;
}

/* Rows [0, n) of a band buffer of layer L, rows r0 .. r0 + n of its
 * padded input: those inside the tensor from `src` (the chain's input,
 * whole), the padding the zero point. */
static void tflc__patch_copy_in(const tflc__patch_layer *L, int8_t *dst,
                                const int8_t *src, int32_t r0, int32_t r1) {
  const size_t c = (size_t)L->c * L->es, row = (size_t)L->wb * c;
  const size_t left = (size_t)L->pad_l * c, w = (size_t)L->w * c;
  int32_t r;
  for (r = r0; r < r1; r++, dst += row) {
    if (r < 0 || r >= L->h) {
      memset(dst, L->zp, row);
      continue;
    }
    memset(dst, L->zp, left);
    memcpy(dst + left, src + (size_t)r * w, w);
    memset(dst + left + w, L->zp, row - left - w);
  }
}
/* Rows [top, top + n) of a window of layer L that the layer before wrote
 * packed (L->w wide) from row top: spread to the window's width, the
 * padding columns around them the zero point. */
static void tflc__patch_spread(const tflc__patch_layer *L, int8_t *buf,
                               int32_t top, int32_t n) {
  const size_t c = (size_t)L->c * L->es, row = (size_t)L->wb * c;
  const size_t left = (size_t)L->pad_l * c, w = (size_t)L->w * c;
  int8_t *first = buf + (size_t)top * row;
  int32_t r;
  if (row != w)
    for (r = n - 1; r >= 0; r--) {
      int8_t *d = first + (size_t)r * row;
      memmove(d + left, first + (size_t)r * w, w);
      memset(d, L->zp, left);
      memset(d + left + w, L->zp, row - left - w);
    }
}

/* The shapes of a chain layer's kernel call: `rows` window rows of L->wb
 * columns in, `out_rows` rows of L->ow out, batch 1. */
static void tflc__patch_band_dims(const tflc__patch_layer *L, int32_t rows,
                                  int32_t out_rows, int32_t idims[4],
                                  int32_t odims[4]) {
  idims[0] = odims[0] = 1;
  idims[1] = rows;
  idims[2] = L->wb;
  idims[3] = L->c;
  odims[1] = out_rows;
  odims[2] = L->ow;
  odims[3] = L->oc;
}

/* A layer other than a convolution on `x` (rows x L->wb x L->c; a pool:
 * with pad_top padding rows above them, none below), making `out_rows`
 * rows at y; an ADD adds the skip's rows x2. */
static TFLC__NOINLINE void
tflc__patch_other_run(tflc__ctx *k, tflc__op *op, const tflc__patch_layer *L,
                      const int8_t *x, int32_t rows, int32_t pad_top,
                      const int8_t *x2, int8_t *y, int32_t out_rows) {
  tflc_interpreter *it = k->it;
  const int32_t n = out_rows * (int32_t)L->ow * (int32_t)L->oc;
  const tflc_tensor *in = &it->tensors[op->in[0]];
  const tflc_tensor *o = &it->tensors[TFLC__OUT(op)[0]];
  switch (op->code) {
  case TFLC_OP_PAD: /* its window is its output */
    memcpy(y, x, (size_t)n * L->oes);
    break;
  case TFLC_OP_AVERAGE_POOL_2D:
  case TFLC_OP_MAX_POOL_2D: {
    const tflc__pool_wide_state *ws = (const tflc__pool_wide_state *)op->state;
    tflc_pool_params p =
        L->es == 4 ? ws->p : ((const tflc__pool_state *)op->state)->p;
    int32_t idims[4], odims[4];
    tflc__patch_band_dims(L, rows, out_rows, idims, odims);
    idims[2] = L->w; /* the pool pads its own columns: no band columns */
    p.pad_h = pad_top;
    if (TFLC__F32 && L->es == 4 &&
        (TFLC__SELECTED(TFLC_OP_AVERAGE_POOL_2D) ||
         TFLC__SELECTED(TFLC_OP_MAX_POOL_2D)))
      (void)tflc_pool_f32(
          op->code == TFLC_OP_AVERAGE_POOL_2D ? TFLC_POOL_AVERAGE
                                              : TFLC_POOL_MAX,
          &p, ws->fmin, ws->fmax, idims, (const float *)(const void *)x, odims,
          (float *)(void *)y);
    else if (TFLC__SELECTED(TFLC_OP_AVERAGE_POOL_2D) &&
             op->code == TFLC_OP_AVERAGE_POOL_2D)
      (void)TFLC_AVG_POOL_S8(&p, idims, x, odims, y);
    else if (TFLC__SELECTED(TFLC_OP_MAX_POOL_2D))
      tflc_max_pool_s8(&p, idims, x, odims, y);
    break; /* (no window without input: the whole tensor's run checked) */
  }
  case TFLC_OP_QUANTIZE:
    if (TFLC__SELECTED(TFLC_OP_QUANTIZE)) {
      const tflc__quant_state *s = (const tflc__quant_state *)op->state;
      if (s->kind == 3)
        tflc_requantize_s8(s->q, s->shift, in->zero_point, o->zero_point, n, x,
                           y);
      else /* (float32 -> int8) */
        tflc_quantize_f32_s8(o->scale, o->zero_point, n,
                             (const float *)(const void *)x, y);
    }
    break;
  case TFLC_OP_RELU:
  case TFLC_OP_RELU6:
  case TFLC_OP_HARD_SWISH:
  case TFLC_OP_LOGISTIC:
  case TFLC_OP_TANH:
    if (L->es == 4) { /* (float32: no state) */
      if (TFLC__F32 &&
          (TFLC__SELECTED(TFLC_OP_RELU) || TFLC__SELECTED(TFLC_OP_RELU6) ||
           TFLC__SELECTED(TFLC_OP_HARD_SWISH) ||
           TFLC__SELECTED(TFLC_OP_LOGISTIC) || TFLC__SELECTED(TFLC_OP_TANH)))
        tflc_unary_f32(op->code == TFLC_OP_RELU         ? TFLC_F32_RELU
                       : op->code == TFLC_OP_RELU6      ? TFLC_F32_RELU6
                       : op->code == TFLC_OP_HARD_SWISH ? TFLC_F32_HARD_SWISH
                       : op->code == TFLC_OP_LOGISTIC   ? TFLC_F32_LOGISTIC
                                                        : TFLC_F32_TANH,
                       0.0f, n, (const float *)(const void *)x,
                       (float *)(void *)y);
    } else if (TFLC__SELECTED(TFLC_OP_HARD_SWISH) &&
               op->code == TFLC_OP_HARD_SWISH)
      tflc_hard_swish_s8((const tflc_hard_swish_params *)op->state, n, x, y);
    else if (TFLC__SELECTED(TFLC_OP_LOGISTIC) && op->code == TFLC_OP_LOGISTIC)
      tflc_logistic_s8((const tflc_sigmoid_params *)op->state, n, x, y);
    else if (TFLC__SELECTED(TFLC_OP_TANH) && op->code == TFLC_OP_TANH)
      tflc_tanh_s8((const tflc_sigmoid_params *)op->state, n, x, y);
    else if (TFLC__SELECTED(TFLC_OP_RELU) || TFLC__SELECTED(TFLC_OP_RELU6))
      tflc_relu_q((const tflc_relu_params *)op->state, 1, n, x, y);
    break;
  default: /* ADD */
    if (TFLC__SELECTED(TFLC_OP_ADD)) {
      const tflc__add_state *s = (const tflc__add_state *)op->state;
      const int8_t *a = L->main ? x2 : x, *b = L->main ? x : x2;
      if (TFLC__F32 && L->es == 4)
        tflc_add_f32(s->fmin, s->fmax, 1, &n, (const float *)(const void *)a,
                     &n, (const float *)(const void *)b, &n,
                     (float *)(void *)y);
      else
        tflc_add_s8(&s->p, 1, &n, a, &n, b, &n, y);
    }
    break;
  }
}
/* One layer's kernel on `in` (rows x L->wb x L->c, no padding) making
 * `out_rows` rows at y. */
static TFLC__NOINLINE void tflc__patch_layer_run(tflc__ctx *k, tflc__op *op,
                                                 const tflc__patch_layer *L,
                                                 const int8_t *x, int32_t rows,
                                                 int8_t *y, int32_t out_rows) {
  tflc_interpreter *it = k->it;
  const tflc__conv_state *s = (const tflc__conv_state *)op->state;
  const tflc_tensor *f = &it->tensors[op->in[1]];
  const tflc_tensor *bt =
      op->nin > 2 && op->in[2] >= 0 ? &it->tensors[op->in[2]] : NULL;
  int32_t idims[4], odims[4];
  tflc_conv_params p;
  tflc_const fc, bc;
  if (L->es == 4) {
    tflc__patch_f32_conv(k, op, L, x, rows, y, out_rows);
    return;
  }
  p = s->p;
  tflc__patch_band_dims(L, rows, out_rows, idims, odims);
  p.pad_h = p.pad_w = 0;
  k->op = op;
  fc = tflc__const(k, f);
  if (bt)
    bc = tflc__const(k, bt);
  if (op->code == TFLC_OP_DEPTHWISE_CONV_2D)
    tflc_depthwise_conv2d_s8(&p, idims, x, f->dims, &fc, bt ? &bc : NULL, odims,
                             y, NULL, 0);
  else if (op->variant & TFLC__FOLDED)
    tflc_conv2d_s8_folded(
        &p, idims, x, f->dims, &fc, bt ? &bc : NULL, odims, y,
        ((const tflc__conv2d_state *)(const void *)s)->folded);
  else
    tflc_conv2d_s8(&p, idims, x, f->dims, &fc, bt ? &bc : NULL, odims, y, NULL,
                   0);
}

/* Rolling windows: the chain's state while it runs. Layer j's window
 * win[j] holds its padded input rows [p0, p1); done: its output rows
 * made. */
typedef struct tflc__patch_stream {
  tflc__ctx k;
  tflc__op *ops;
  const tflc__patch_layer *L;
  int32_t n, rows;
  const int8_t *src;
  int8_t *dst;
  int8_t *win[TFLC__PATCH_MAX];
  int32_t p0[TFLC__PATCH_MAX], p1[TFLC__PATCH_MAX], done[TFLC__PATCH_MAX];
  /* the skip: its source and ADD layers (else -1), its window of kcap
   * rows of krow bytes holding the rows from q0 to what ks made */
  int8_t *kwin;
  int32_t ks, ka, kcap, q0;
  size_t krow;
} tflc__patch_stream;
/* Makes layer j's output rows up to `target`, `rows` at a time, into the
 * next layer's window (the chain's output for the last layer); each
 * window first drops the rows no longer needed, then gets its new rows:
 * padding (the zero point), the chain's input for the first layer, the
 * layer before's output (made here, recursively) for the others. */
static void tflc__patch_produce(tflc__patch_stream *S, int32_t j,
                                int32_t target) {
  const tflc__patch_layer *L = &S->L[j];
  const size_t row = (size_t)L->wb * (size_t)L->c * L->es;
  const int32_t eff = (L->kh - 1) * L->dh + 1;
  const int32_t cap = tflc__patch_cap(L, S->rows);
  const int in_place = j == 0 && tflc__patch_in_place(L);
  while (S->done[j] < target) {
    const int32_t r = S->done[j];
    const int32_t cnt = target - r < S->rows ? target - r : S->rows;
    const int32_t first = r * L->sh - L->pad_t;
    const int32_t e = (r + cnt - 1) * L->sh - L->pad_t + eff;
    const int8_t *x;
    int8_t *y;
    if (in_place) {
      x = S->src + (size_t)first * (size_t)L->w * (size_t)L->c * L->es;
    } else {
      int8_t *const win = S->win[j];
      const int32_t k0 = first < S->p1[j] ? first : S->p1[j];
      int32_t p1 = S->p1[j], rr;
      if (e - S->p0[j] > cap) { /* drop the rows before k0 */
        memmove(win, win + (size_t)(k0 - S->p0[j]) * row,
                (size_t)(p1 - k0) * row);
        S->p0[j] = k0;
      }
      if (j == 0) {
        tflc__patch_copy_in(L, win + (size_t)(p1 - S->p0[j]) * row, S->src, p1,
                            e);
      } else {
        for (rr = p1; rr < e && rr < 0; rr++)
          memset(win + (size_t)(rr - S->p0[j]) * row, L->zp, row);
        if ((e < L->h ? e : L->h) > (p1 > 0 ? p1 : 0))
          tflc__patch_produce(S, j - 1, e < L->h ? e : L->h);
        for (rr = p1 > L->h ? p1 : L->h; rr < e; rr++)
          memset(win + (size_t)(rr - S->p0[j]) * row, L->zp, row);
      }
      S->p1[j] = e;
      x = win + (size_t)(first - S->p0[j]) * row;
    }
    if (j == S->n - 1) {
      y = S->dst + (size_t)r * (size_t)L->ow * (size_t)L->oc * L->oes;
    } else {
      const tflc__patch_layer *N = &S->L[j + 1];
      y = S->win[j + 1] +
          (size_t)(r - S->p0[j + 1]) * (size_t)N->wb * (size_t)N->c * N->es;
    }
    if (L->kind == TFLC__PK_CONV) {
      tflc__patch_layer_run(&S->k, &S->ops[j], L, x, e - first, y, cnt);
    } else if (L->kind == TFLC__PK_POOL) { /* the rows inside the tensor */
      const int32_t lo = first > 0 ? first : 0, hi = e < L->h ? e : L->h;
      tflc__patch_other_run(&S->k, &S->ops[j], L,
                            x + (size_t)(lo - first) * row, hi - lo, lo - first,
                            NULL, y, cnt);
    } else {
      const int8_t *x2 =
          j == S->ka ? S->kwin + (size_t)(r - S->q0) * S->krow : NULL;
      tflc__patch_other_run(&S->k, &S->ops[j], L, x, e - first, 0, x2, y, cnt);
    }
    if (j == S->ks) { /* the skip's rows too, first those read dropped */
      if (r + cnt - S->q0 > S->kcap) {
        const int32_t d = S->done[S->ka];
        memmove(S->kwin, S->kwin + (size_t)(d - S->q0) * S->krow,
                (size_t)(r - d) * S->krow);
        S->q0 = d;
      }
      memcpy(S->kwin + (size_t)(r - S->q0) * S->krow, y, (size_t)cnt * S->krow);
    }
    if (j < S->n - 1)
      tflc__patch_spread(&S->L[j + 1], S->win[j + 1], r - S->p0[j + 1], cnt);
    S->done[j] += cnt;
  }
}

/* Runs the chain (it->patch_first .. patch_last) band by band. */
static TFLC__NOINLINE tflc_status tflc__patch_run(tflc__ctx *c) {
  tflc_interpreter *it = c->it;
  const int32_t n = it->patch_last - it->patch_first + 1;
  tflc__op *const ops = it->ops + it->patch_first;
  tflc__patch_layer L[TFLC__PATCH_MAX];
  uint32_t off[TFLC__PATCH_MAX + 1];
  uint64_t copied;
  tflc__patch_stream st;
  int32_t j;
  uint32_t skip_off;
  for (j = 0; j < n; j++) /* (as tflc__patch_ready found the layers) */
    if (!tflc__patch_geo_in(it, it->patch_first, it->patch_first + j, &L[j]))
      return tflc__err(it->error, TFLC_ERR_STATE, "bad chain");
  if (!tflc__patch_cost(L, n, it->patch_rows, off, &copied, it->patch_skip,
                        &skip_off) ||
      off[n] > it->patch_bytes)
    return tflc__err(it->error, TFLC_ERR_STATE, "bad chain");
  {
    st.k = *c;
    st.ops = ops;
    st.L = L;
    st.n = n;
    st.rows = it->patch_rows;
    st.src = (const int8_t *)it->tensors[ops[0].in[0]].data;
    st.dst = (int8_t *)it->tensors[TFLC__OUT(&ops[n - 1])[0]].data;
    st.ks = st.ka = -1;
    st.kwin = (int8_t *)ops[0].scratch[0] + skip_off;
    st.kcap = it->patch_skip;
    st.q0 = 0;
    st.krow = 0;
    for (j = 0; j < n; j++) {
      st.win[j] = (int8_t *)ops[0].scratch[0] + off[j];
      st.p0[j] = st.p1[j] = -L[j].pad_t;
      st.done[j] = 0;
      if (L[j].kind == TFLC__PK_ADD) {
        st.ka = j;
        st.ks = L[j].skip;
        st.krow = (size_t)L[j].w * (size_t)L[j].c * L[j].es;
      }
    }
    tflc__patch_produce(&st, n - 1, L[n - 1].oh);
  }
  return TFLC_OK;
}
#endif

/* ---- FULLY_CONNECTED ---------------------------------------------------- */
/* The kernel layer's record of an int8 layer, right after its state (both
 * pointer-aligned: the state holds pointers) */
static void *tflc__fc_record(const tflc__fc_state *s) {
  return (void *)((uintptr_t)s + sizeof *s);
}
static tflc_status tflc__fc_s8_f32_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__fc_state *s;
  tflc__fully_connected_options fco;
  int32_t act, nin, i, accum, depth;
  uint32_t nsc, ftt = tflc__tensor_table(c->m, c->sgt, f ? f->index : -1);
  if (!in || !f || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "missing input or output", 0, 0);
  if (!tflc__is_const(f) || (b && !tflc__is_const(b)))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "weights must be constant", 0,
                        0);
  tflc__read_fully_connected_options(c->m, c->op->opts, &fco);
  if (fco.weights_format != 0)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "shuffled weights format", 0,
                        0);
  act = fco.fused_activation_function;
  if (f->rank != 2 || f->dims[1] < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "weights must be 2-D", 0, 0);
  s = (tflc__fc_state *)tflc__persist2(
      c->it, sizeof *s + TFLC_FC_S8_RECORD_BYTES,
      sizeof(tflc__fc_state32) + TFLC_FC_S8_RECORD_BYTES);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  accum = f->dims[1];
  depth = f->dims[0];
  nin = tflc__count(in);
  if (nin % accum != 0)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "input of %d elements is not a multiple of %d", nin,
                        accum);
  if ((int64_t)tflc__count(o) != (int64_t)(nin / accum) * depth)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "output has %d elements for %d batches", tflc__count(o),
                        nin / accum);
  if (b && tflc__count(b) != depth)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "bias has %d elements, expected %d",
                        tflc__count(b), depth);
  s->tile = -1;
  if (tflc__filter_tile(c, f, b) > 0)
    s->tile = (int8_t)tflc__scratch(c, tflc__filter_tile(c, f, b));
  s->accum = accum;
  s->depth = depth;
  /* weights and bias that keep no record after init: their elements */
  if (c->op->in[1] < -1)
    s->filter = f->data;
  if (b && c->op->in[2] < -1)
    s->bias = b->data;
  if (in->type == TFLC_FLOAT32 && f->type == TFLC_FLOAT32 &&
      o->type == TFLC_FLOAT32 && (!b || b->type == TFLC_FLOAT32)) {
    tflc_activation_range_f32(act, &s->r.f32.min, &s->r.f32.max);
    return TFLC_OK;
  }
  if (in->type != TFLC_INT8 || (f->type != TFLC_INT8 && f->type != TFLC_INT4) ||
      o->type != TFLC_INT8 || (b && b->type != TFLC_INT32))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "types %d x %d unsupported (int8 or float32)", in->type,
                        f->type);
  if (in->scale <= 0.0f || o->scale <= 0.0f || f->scale <= 0.0f)
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  nsc = tflc__tensor_nscales(c->m, ftt);
  if (f->type == TFLC_INT4 && nsc > 1) /* as TFLM */
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "INT4 weights must be per-tensor (%d scales)",
                        (int32_t)nsc, 0);
  s->in_zp = in->zero_point;
  s->out_zp = o->zero_point;
  {
    int32_t lo, hi;
    tflc_activation_range_quantized(act, o->scale, o->zero_point, -128, 127,
                                    &lo, &hi);
    s->act_min = (int8_t)lo;
    s->act_max = (int8_t)hi;
  }
  {
    /* one (multiplier, shift) per output channel, or one for the tensor
     * (kept in the state) */
    int32_t n = nsc > 1 ? depth : 1, sh32, *mult = &s->r.mult;
    int8_t *shift = &s->shift;
    if (nsc > 1 && nsc != (uint32_t)depth)
      return tflc__op_err(c, TFLC_ERR_QUANT, "%d filter scales for %d outputs",
                          (int32_t)nsc, depth);
    if (nsc > 1) {
      mult = (int32_t *)tflc__persist(c->it, 5u * (uint32_t)n);
      if (!mult)
        return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for multipliers", 0,
                            0);
      shift = (int8_t *)(mult + n);
    }
    for (i = 0; i < n; i++) {
      if (nsc > 1) {
        float fs = tflc__tensor_scale(c->m, ftt, (uint32_t)i);
        if (!(fs > 0.0f))
          return tflc__op_err(c, TFLC_ERR_QUANT,
                              "filter scale %d is not positive", i, 0);
        tflc_conv_quantize_multipliers(in->scale, &fs, 1, o->scale, 1, mult + i,
                                       &sh32);
      } else {
        tflc_fc_quantize_multiplier(in->scale, f->scale, o->scale, mult, &sh32);
        s->filter_zp = f->zero_point;
      }
      if (sh32 < -31 || sh32 > 30)
        return tflc__op_err(c, TFLC_ERR_QUANT,
                            "multiplier exponent %d out of range", sh32, 0);
      shift[i] = (int8_t)sh32;
    }
    s->per_channel = nsc > 1;
    if (nsc > 1)
      s->r.mults = mult;
  }
  if (TFLC_FC_S8_RECORD_BYTES != 0) {
    /* the kernel layer's per-layer data (none where it keeps no record):
     * weights and bias read in place when final now (raw, not produced by
     * a DECODE operator) */
    const uint32_t plain = TFLC_TENSOR_LUT | TFLC_TENSOR_DECODED;
    const int fin = !(f->flags & plain) && (!b || !(b->flags & plain));
    tflc_fc_params p;
    tflc_const fc, bc;
    const tflc_const *fp = fin ? &fc : NULL, *bp = fin && b ? &bc : NULL;
    size_t n;
    void *buf = NULL;
    if (fin)
      fc = tflc__const(c, f);
    if (bp)
      bc = tflc__const(c, b);
    memset(&p, 0, sizeof p);
    p.input_offset = -s->in_zp;
    p.filter_offset = -s->filter_zp;
    p.output_offset = s->out_zp;
    p.per_channel = s->per_channel;
    n = tflc_fully_connected_s8_prepare_bytes(&p, accum, depth, fp, bp);
    if (n > 0 && !(buf = tflc__persist(c->it, n)))
      return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for weight sums", 0, 0);
    tflc_fully_connected_s8_prepare(tflc__fc_record(s), buf, &p, accum, depth,
                                    fp, bp);
  }
  return TFLC_OK;
}
static tflc_status tflc__fc_s8_f32_invoke(tflc__ctx *c) {
  const tflc__fc_state *s = (const tflc__fc_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  void *tile = s->tile >= 0 ? (void *)c->op->scratch[s->tile] : NULL;
  size_t tb = s->tile >= 0 && f ? tflc__filter_tile(c, f, b) : 0;
  const int32_t accum = s->accum, depth = s->depth;
  const int32_t batches = tflc__count(in) / accum;
  const int f32 = in->type == TFLC_FLOAT32;
  /* (a filter or bias without a record is raw int8 / int32 or float32) */
  tflc_const fc = f ? tflc__const(c, f)
                    : tflc_const_raw(s->filter, f32 ? TFLC_FLOAT32 : TFLC_INT8,
                                     accum * depth),
             bc;
  if (b)
    bc = tflc__const(c, b);
  else if (s->bias)
    bc = tflc_const_raw(s->bias, f32 ? TFLC_FLOAT32 : TFLC_INT32, depth);
  if (f32) {
    tflc_fully_connected_f32(s->r.f32.min, s->r.f32.max, batches, accum, depth,
                             (const float *)in->data, &fc,
                             b || s->bias ? &bc : NULL, (float *)o->data, tile,
                             tb);
  } else {
    tflc_fc_params p;
    p.input_offset = -s->in_zp;
    p.filter_offset = -s->filter_zp;
    p.output_offset = s->out_zp;
    p.act_min = s->act_min;
    p.act_max = s->act_max;
    p.per_channel = s->per_channel;
    p.out_multiplier = s->per_channel ? s->r.mults : &s->r.mult;
    p.out_shift =
        s->per_channel ? (const int8_t *)(s->r.mults + depth) : &s->shift;
    if (TFLC_FC_S8_RECORD_BYTES != 0) /* the kernel layer's own choice */
      tflc_fully_connected_s8_run(tflc__fc_record(s), &p, batches, accum, depth,
                                  (const int8_t *)in->data, &fc,
                                  b || s->bias ? &bc : NULL, (int8_t *)o->data,
                                  tile, tb);
    else /* no record kept: the generic kernel */
      tflc_fully_connected_s8(
          &p, batches, accum, depth, (const int8_t *)in->data, &fc,
          b || s->bias ? &bc : NULL, (int8_t *)o->data, tile, tb);
  }
  return TFLC_OK;
}

/* CONV_2D / DEPTHWISE_CONV_2D for int16x8 and float32 inputs,
 * FULLY_CONNECTED for int16x8 inputs (the int8 cases, and float FC, stay
 * with the built-in table), TRANSPOSE_CONV (int8, int16x8, float32). The
 * checks follow TFLM's Prepare functions; where TFLM would read a tensor
 * with the wrong element type (e.g. an int32 bias where it expects int64)
 * tflc refuses instead. */

enum {
  TFLC__KIND_CONV_S16 = 1,
  TFLC__KIND_CONV_F32,
  TFLC__KIND_DW_S16,
  TFLC__KIND_DW_F32,
  TFLC__KIND_FC_S16,
  TFLC__KIND_TC_S8,
  TFLC__KIND_TC_S16,
  TFLC__KIND_TC_F32,
  TFLC__KIND_SVDF_S8,
  TFLC__KIND_SVDF_F32,
  TFLC__KIND_LSTM_Q,
  TFLC__KIND_LSTM_F32
};

typedef struct tflc__conv_wide_state {
  int32_t kind;
  tflc_conv_params p;
  float fmin, fmax;
  int32_t tile; /* scratch index or -1 */
  int32_t acc;  /* scratch index of the transpose-conv plane or -1 */
  int32_t acc64;
} tflc__conv_wide_state;
#ifndef TFLC_NO_PATCHES
/* 1 when a float32 convolution was prepared as its band run assumes: no
 * decode tile, not over its input, the geometry L. */
static int tflc__patch_f32_ready(const tflc__op *op,
                                 const tflc__patch_layer *L) {
#if TFLC__F32
  const tflc__conv_wide_state *s = (const tflc__conv_wide_state *)op->state;
  return s && (op->variant & 0x81u) == 1 && !op->nscratch && !op->nwhole &&
         s->kind == (op->code == TFLC_OP_DEPTHWISE_CONV_2D
                         ? TFLC__KIND_DW_F32
                         : TFLC__KIND_CONV_F32) &&
         s->tile < 0 && s->acc < 0 && s->p.stride_h == L->sh &&
         s->p.stride_w == L->sw && s->p.dilation_h == L->dh &&
         s->p.dilation_w == L->dw && s->p.pad_h == L->pad_t &&
         s->p.pad_w == L->pad_l;
#else
  (void)op;
  (void)L;
  return 0;
#endif
}
/* A float32 convolution of a chain on `x` (rows x L->wb x L->c, no
 * padding) making `out_rows` rows at y. */
static TFLC__NOINLINE void tflc__patch_f32_conv(tflc__ctx *k, tflc__op *op,
                                                const tflc__patch_layer *L,
                                                const int8_t *x, int32_t rows,
                                                int8_t *y, int32_t out_rows) {
#if TFLC__F32
  const tflc__conv_wide_state *s = (const tflc__conv_wide_state *)op->state;
  const tflc_tensor *f = &k->it->tensors[op->in[1]];
  const tflc_tensor *bt =
      op->nin > 2 && op->in[2] >= 0 ? &k->it->tensors[op->in[2]] : NULL;
  int32_t idims[4], odims[4];
  tflc_conv_params p = s->p;
  tflc_const fc, bc;
  tflc__patch_band_dims(L, rows, out_rows, idims, odims);
  p.pad_h = p.pad_w = 0;
  k->op = op;
  fc = tflc__const(k, f);
  if (bt)
    bc = tflc__const(k, bt);
  if (op->code == TFLC_OP_DEPTHWISE_CONV_2D)
    tflc_depthwise_conv2d_f32(
        &p, s->fmin, s->fmax, idims, (const float *)(const void *)x, f->dims,
        &fc, bt ? &bc : NULL, odims, (float *)(void *)y, NULL, 0);
  else
    tflc_conv2d_f32(&p, s->fmin, s->fmax, idims, (const float *)(const void *)x,
                    f->dims, &fc, bt ? &bc : NULL, odims, (float *)(void *)y,
                    NULL, 0);
#else
  (void)k, (void)op, (void)L, (void)x, (void)rows, (void)y, (void)out_rows;
#endif
}
#endif

typedef struct tflc__fc_s16_state {
  int32_t kind;
  tflc_fc_params p;
  int32_t batches, accum, depth;
  int32_t tile;
  int32_t acc64;
} tflc__fc_s16_state;
/* the two states above as a 32-bit target lays them out */
typedef struct tflc__conv_wide_state32 {
  int32_t kind;
  tflc__conv_params32 p;
  float fmin, fmax;
  int32_t tile, acc, acc64;
} tflc__conv_wide_state32;
typedef struct tflc__fc_s16_state32 {
  int32_t kind;
  tflc__fc_params32 p;
  int32_t batches, accum, depth, tile, acc64;
} tflc__fc_s16_state32;
#if defined(UINTPTR_MAX) && UINTPTR_MAX == 0xFFFFFFFFu
typedef char tflc__wide_states32_match
    [sizeof(tflc__conv_wide_state) == sizeof(tflc__conv_wide_state32) &&
             sizeof(tflc__fc_s16_state) == sizeof(tflc__fc_s16_state32)
         ? 1
         : -1];
#endif

/* SVDF keeps only what the tensors do not say (24 bytes per op) */
typedef struct tflc__svdf_state {
  int32_t kind;
  int16_t rank;
  int16_t act;
  int32_t mult1, shift1, mult2, shift2;
} tflc__svdf_state;

typedef struct tflc__lstm_state {
  int32_t kind;
  int32_t act16;
  int32_t scratch;
  tflc_lstm_params p;
} tflc__lstm_state;

/* ---- CONV_2D / DEPTHWISE_CONV_2D (int16x8, float32) --------------------- */
static tflc_status tflc__conv_wide_prepare(tflc__ctx *c, int depthwise) {
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__conv_wide_state *s;
  int32_t act = 0, cout = 0, f32;
  tflc_status st;
  if (c->op->nin < 2 || c->op->nin > 3 || c->op->nout != 1 || !f || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs 2 or 3 inputs, 1 output", 0,
                        0);
  f32 = in->type == TFLC_FLOAT32;
  if (o->type != in->type ||
      (f32 ? f->type != TFLC_FLOAT32 : f->type != TFLC_INT8))
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "input %d with filter %d unsupported (hybrid)",
                        in->type, f->type);
  s = (tflc__conv_wide_state *)tflc__persist2(c->it, sizeof *s,
                                              sizeof(tflc__conv_wide_state32));
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  st = tflc__conv_geometry(c, depthwise, &s->p, &act, &cout);
  if (st)
    return st;
  if (b && tflc__count(b) != cout)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "bias has %d elements, expected %d",
                        tflc__count(b), cout);
  s->tile = -1;
  s->acc = -1;
  if (f32) {
    if (b && b->type != TFLC_FLOAT32)
      return tflc__op_err(c, TFLC_ERR_TYPE, "bias tensor %d must be float32",
                          b->index, 0);
    s->kind = depthwise ? TFLC__KIND_DW_F32 : TFLC__KIND_CONV_F32;
    tflc_activation_range_f32(act, &s->fmin, &s->fmax);
  } else {
    if (depthwise) {
      /* TFLM's int16 depthwise reads the bias as int64 */
      if (b && b->type != TFLC_INT64)
        return tflc__op_err(c, TFLC_ERR_TYPE, "bias tensor %d must be int64",
                            b->index, 0);
      s->acc64 = 1;
    } else {
      if (b && b->type != TFLC_INT32 && b->type != TFLC_INT64)
        return tflc__op_err(c, TFLC_ERR_TYPE,
                            "bias tensor %d must be int32 or int64", b->index,
                            0);
      /* int32 accumulator with an int32 bias, or without bias when
       * quantized_bias_type says INT32 */
      tflc__conv2d_options co;
      tflc__read_conv2d_options(c->m, c->op->opts, &co);
      s->acc64 = b ? b->type == TFLC_INT64 : co.quantized_bias_type != 2;
    }
    s->kind = depthwise ? TFLC__KIND_DW_S16 : TFLC__KIND_CONV_S16;
    st = tflc__conv_mult(c, in, f, o, cout, &s->p);
    if (st)
      return st;
    tflc_activation_range_quantized(act, o->scale, o->zero_point, -32768, 32767,
                                    &s->p.act_min, &s->p.act_max);
  }
  if (f->flags & TFLC_TENSOR_LUT) {
    s->tile = tflc__scratch(c, TFLC_TILE_BYTES);
    if (s->tile < 0)
      return tflc__scratch_err(c);
  }
  if (TFLC__PATCHES && depthwise) {
    /* written over its input: as tflc__conv_s8_prepare, one channel's
     * plane (`acc`) */
    const int marked = (c->op->variant & TFLC__OVER_INPUT) != 0;
    c->op->variant = (uint8_t)(c->op->variant & ~TFLC__OVER_INPUT);
    if ((marked || c->it->plan == TFLC_PLAN_FASTEST) &&
        tflc__dw_over_input(c, &s->p, 0)) {
      c->it->inplace_ops++;
      if (marked) {
        s->acc = tflc__scratch(c, o->bytes / (uint32_t)o->dims[3]);
        if (s->acc < 0)
          return tflc__scratch_err(c);
        c->op->variant |= TFLC__OVER_INPUT;
      }
    }
  }
  return TFLC_OK;
}

/* ---- FULLY_CONNECTED (int16x8) ------------------------------------------ */
static tflc_status tflc__fc_s16_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__fc_s16_state *s;
  tflc__fully_connected_options fco;
  uint32_t nsc, ftt;
  int32_t act, nin, n, i, *mult;
  int8_t *shift;
  if (c->op->nin < 2 || c->op->nout != 1 || !f || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "missing input or output", 0, 0);
  if (f->type != TFLC_INT8 || o->type != TFLC_INT16)
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "int16 input needs int8 filter, int16 output", 0, 0);
  if (b && b->type != TFLC_INT32 && b->type != TFLC_INT64)
    return tflc__op_err(c, TFLC_ERR_TYPE, "bias tensor %d must be int32/int64",
                        b->index, 0);
  tflc__read_fully_connected_options(c->m, c->op->opts, &fco);
  if (fco.weights_format != 0)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "shuffled weights format", 0,
                        0);
  act = fco.fused_activation_function;
  if (f->rank != 2 || f->dims[1] < 1 || f->dims[0] < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "weights must be 2-D", 0, 0);
  s = (tflc__fc_s16_state *)tflc__persist2(c->it, sizeof *s,
                                           sizeof(tflc__fc_s16_state32));
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  s->kind = TFLC__KIND_FC_S16;
  s->accum = f->dims[1];
  s->depth = f->dims[0];
  nin = tflc__count(in);
  if (nin % s->accum != 0)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "input of %d elements is not a multiple of %d", nin,
                        s->accum);
  s->batches = nin / s->accum;
  if (tflc__count(o) != s->batches * s->depth)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "output has %d elements, expected %d", tflc__count(o),
                        s->batches * s->depth);
  if (b && tflc__count(b) != s->depth)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "bias has %d elements, expected %d",
                        tflc__count(b), s->depth);
  if (!(in->scale > 0.0f) || !(o->scale > 0.0f) || !(f->scale > 0.0f))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  s->acc64 = b ? b->type == TFLC_INT64 : fco.quantized_bias_type != 2;
  ftt = tflc__tensor_table(c->m, c->sgt, f->index);
  nsc = tflc__tensor_nscales(c->m, ftt);
  s->p.per_channel = nsc > 1;
  if (nsc > 1) {
    const int32_t qd = tflc__tensor_qdim(c->m, ftt);
    if (qd < 0 || qd >= f->rank || (uint32_t)f->dims[qd] != nsc ||
        nsc != (uint32_t)s->depth)
      return tflc__op_err(c, TFLC_ERR_QUANT, "%d filter scales for %d outputs",
                          (int32_t)nsc, s->depth);
  } else if (b) {
    /* GetQuantizedConvolutionMultipler's bias scale check */
    const double ps = (double)in->scale * (double)f->scale;
    const double d =
        ps > (double)b->scale ? ps - (double)b->scale : (double)b->scale - ps;
    if (!(d / (double)o->scale <= 0.02))
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "bias scale does not match input x filter scale", 0,
                          0);
  }
  n = nsc > 1 ? s->depth : 1;
  if (n > 0x7FFFFFFF / 5)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "%d outputs", n, 0);
  mult = (int32_t *)tflc__persist(c->it, 5u * (uint32_t)n);
  if (!mult)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for multipliers", 0, 0);
  shift = (int8_t *)(mult + n);
  for (i = 0; i < n; i++) {
    int32_t sh32;
    if (nsc > 1) {
      float fs = tflc__tensor_scale(c->m, ftt, (uint32_t)i);
      tflc_conv_quantize_multipliers(in->scale, &fs, 1, o->scale, 1, mult + i,
                                     &sh32);
    } else {
      tflc_fc_quantize_multiplier(in->scale, f->scale, o->scale, mult, &sh32);
    }
    if (sh32 < -31 || sh32 > 30)
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "multiplier exponent %d out of range", sh32, 0);
    shift[i] = (int8_t)sh32;
  }
  s->p.out_multiplier = mult;
  s->p.out_shift = shift;
  s->p.filter_offset = -f->zero_point;
  s->p.input_offset = -in->zero_point;
  s->p.output_offset = o->zero_point;
  tflc_activation_range_quantized(act, o->scale, o->zero_point, -32768, 32767,
                                  &s->p.act_min, &s->p.act_max);
  s->tile = -1;
  if (f->flags & TFLC_TENSOR_LUT) {
    s->tile = tflc__scratch(c, TFLC_TILE_BYTES);
    if (s->tile < 0)
      return tflc__scratch_err(c);
  }
  return TFLC_OK;
}

/* ---- TRANSPOSE_CONV ----------------------------------------------------- */
/* Padding of TFLM's ComputePaddingHeightWidth with the transpose-conv
 * output size as the "input" and dilation 1; when the output-size step
 * fails (negative size) TFLM leaves both paddings at 0. */
static int tflc__transpose_conv_pad(int same, int32_t in, int32_t k,
                                    int32_t stride, int32_t *pad) {
  int64_t o, total;
  if (same)
    o = ((int64_t)in + stride - 1) / stride;
  else
    o = ((int64_t)in + stride - k) / stride;
  if (o < 0)
    return 0;
  total = (o - 1) * stride + k - in;
  *pad = total > 0 ? (int32_t)(total / 2) : 0;
  return 1;
}

static tflc_status tflc__transpose_conv_prepare(tflc__ctx *c) {
  tflc_tensor *f = tflc__in(c, 1), *in = tflc__in(c, 2), *b = tflc__in(c, 3);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__conv_wide_state *s;
  tflc__transpose_conv_options tco;
  int32_t sh, sw, act, same, cout, ph = 0, pw = 0;
  uint64_t plane;
  tflc_status st;
  if (c->op->nin < 3 || c->op->nin > 4 || c->op->nout != 1 || !f || !in || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs 3 or 4 inputs, 1 output", 0,
                        0);
  if (!(in->type == f->type &&
        (in->type == TFLC_FLOAT32 || in->type == TFLC_INT8)) &&
      !(in->type == TFLC_INT16 && f->type == TFLC_INT8))
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "input %d with filter %d unsupported (hybrid)",
                        in->type, f->type);
  if (o->type != in->type)
    return tflc__op_err(c, TFLC_ERR_TYPE, "output type %d differs from input",
                        o->type, 0);
  if (in->rank != 4 || f->rank != 4 || o->rank != 4)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "tensors must be 4-D", 0, 0);
  cout = f->dims[0];
  if (f->dims[3] != in->dims[3] || o->dims[3] != cout ||
      o->dims[0] != in->dims[0] || f->dims[1] < 1 || f->dims[2] < 1 || cout < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "filter [%d,..,%d] does not match input/output", cout,
                        f->dims[3]);
  tflc__read_transpose_conv_options(c->m, c->op->opts, &tco);
  if (tco.padding > 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "unknown padding %d", tco.padding,
                        0);
  same = tco.padding == 0;
  sw = tco.stride_w;
  sh = tco.stride_h;
  act = tco.fused_activation_function;
  if (sw < 1 || sh < 1 || sw > 65535 || sh > 65535)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "bad stride %d/%d", sw, sh);
  if (b && tflc__count(b) != cout)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "bias has %d elements, expected %d",
                        tflc__count(b), cout);
  s = (tflc__conv_wide_state *)tflc__persist2(c->it, sizeof *s,
                                              sizeof(tflc__conv_wide_state32));
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  if ((int64_t)in->dims[1] * sh + f->dims[1] > 0x3FFFFFFF ||
      (int64_t)in->dims[2] * sw + f->dims[2] > 0x3FFFFFFF ||
      o->dims[1] > 0x3FFFFFFF || o->dims[2] > 0x3FFFFFFF)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input %dx%d times stride too large",
                        in->dims[1], in->dims[2]);
  if (tflc__transpose_conv_pad(same, o->dims[2], f->dims[2], sw, &pw) &&
      tflc__transpose_conv_pad(same, o->dims[1], f->dims[1], sh, &ph)) {
    s->p.pad_h = ph;
    s->p.pad_w = pw;
  }
  s->p.stride_h = sh;
  s->p.stride_w = sw;
  s->p.dilation_h = s->p.dilation_w = 1;
  s->tile = -1;
  s->acc = -1;
  plane = (uint64_t)o->dims[0] * (uint64_t)o->dims[1] * (uint64_t)o->dims[2];
  if (in->type == TFLC_FLOAT32) {
    if (b && b->type != TFLC_FLOAT32)
      return tflc__op_err(c, TFLC_ERR_TYPE, "bias tensor %d must be float32",
                          b->index, 0);
    s->kind = TFLC__KIND_TC_F32;
    tflc_activation_range_f32(act, &s->fmin, &s->fmax);
  } else {
    const int s16 = in->type == TFLC_INT16;
    if (b && (s16 ? (b->type != TFLC_INT16 && b->type != TFLC_INT64)
                  : b->type != TFLC_INT32))
      return tflc__op_err(c, TFLC_ERR_TYPE,
                          s16 ? "bias tensor %d must be int16 or int64"
                              : "bias tensor %d must be int32",
                          b->index, 0);
    s->kind = s16 ? TFLC__KIND_TC_S16 : TFLC__KIND_TC_S8;
    st = tflc__conv_mult(c, in, f, o, cout, &s->p);
    if (st)
      return st;
    s->p.input_offset = -in->zero_point;
    s->p.output_offset = o->zero_point;
    tflc_activation_range_quantized(act, o->scale, o->zero_point,
                                    s16 ? -32768 : -128, s16 ? 32767 : 127,
                                    &s->p.act_min, &s->p.act_max);
    /* one output channel's accumulators at a time */
    if (plane * (s16 ? 8u : 4u) > 0x7FFFFFFFu)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "output too large", 0, 0);
    s->acc = tflc__scratch(c, (uintptr_t)(plane * (s16 ? 8u : 4u)));
    if (s->acc < 0)
      return tflc__scratch_err(c);
  }
  if (f->flags & TFLC_TENSOR_LUT) {
    s->tile = tflc__scratch(c, TFLC_TILE_BYTES);
    if (s->tile < 0)
      return tflc__scratch_err(c);
  }
  return TFLC_OK;
}

/* ---- SVDF --------------------------------------------------------------- */
static tflc_status tflc__svdf_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *wf = tflc__in(c, 1), *wt = tflc__in(c, 2);
  tflc_tensor *b = tflc__in(c, 3), *st = tflc__in(c, 4), *o = tflc__out(c, 0);
  tflc__svdf_state *s;
  tflc__svdf_options so;
  int32_t rank, B, I, F, U, M;
  if (c->op->nin != 5 || c->op->nout != 1 || !in || !wf || !wt || !st || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "needs 5 inputs (bias optional), 1 output", 0, 0);
  tflc__read_svdf_options(c->m, c->op->opts, &so);
  rank = so.rank;
  if (in->rank != 2 || o->rank != 2 || wf->rank != 2 || wt->rank != 2 ||
      st->rank != 2 || (b && b->rank < 1))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "tensors must be 2-D", 0, 0);
  B = in->dims[0];
  I = in->dims[1];
  F = wf->dims[0];
  M = wt->dims[1];
  if (rank < 1 || F % rank != 0)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "rank %d does not divide %d filters", rank, F);
  U = F / rank;
  if (o->dims[0] != B || o->dims[1] != U || wf->dims[1] != I ||
      wt->dims[0] != F || (b && b->dims[0] != U) || st->dims[0] != B ||
      (int64_t)st->dims[1] != (int64_t)M * F || M < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "shapes do not match %d filters, memory %d", F, M);
  if (!(st->flags & TFLC_TENSOR_VARIABLE))
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "activation state tensor %d is not a variable",
                        st->index, 0);
  s = (tflc__svdf_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  if (rank > 32767)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "rank %d too large", rank, 0);
  s->rank = (int16_t)rank;
  s->act = (int16_t)so.fused_activation_function;
  if (in->type == TFLC_FLOAT32) {
    if (wf->type != TFLC_FLOAT32 || wt->type != TFLC_FLOAT32 ||
        st->type != TFLC_FLOAT32 || o->type != TFLC_FLOAT32 ||
        (b && b->type != TFLC_FLOAT32))
      return tflc__op_err(c, TFLC_ERR_TYPE, "float SVDF needs float tensors", 0,
                          0);
    s->kind = TFLC__KIND_SVDF_F32;
    return TFLC_OK;
  }
  if (in->type != TFLC_INT8 || wf->type != TFLC_INT8 ||
      (wt->type != TFLC_INT16 && wt->type != TFLC_INT8) ||
      st->type != wt->type || o->type != TFLC_INT8 ||
      (b && b->type != TFLC_INT32))
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "int8 SVDF needs int8 input/feature weights/output, "
                        "time weights and state both int16 or int8 (%d/%d)",
                        wt->type, st->type);
  if (!(in->scale > 0.0f) || !(wf->scale > 0.0f) || !(wt->scale > 0.0f) ||
      !(st->scale > 0.0f) || !(o->scale > 0.0f))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  {
    /* TFLM multiplies and divides the scales in float */
    float s1 = in->scale * wf->scale, s2 = st->scale * wt->scale;
    const float pb = s2;
    s1 = s1 / st->scale;
    s2 = s2 / o->scale;
    if (b) {
      const double d = (double)b->scale - (double)pb;
      if (!((d < 0 ? -d : d) < 1e-5))
        return tflc__op_err(c, TFLC_ERR_QUANT,
                            "bias scale differs from state x time weights", 0,
                            0);
    }
    tflc_quantize_multiplier((double)s1, &s->mult1, &s->shift1);
    tflc_quantize_multiplier((double)s2, &s->mult2, &s->shift2);
  }
  s->kind = TFLC__KIND_SVDF_S8;
  return TFLC_OK;
}

static tflc_status tflc__svdf_invoke(tflc__ctx *c) {
  tflc__svdf_state *s = (tflc__svdf_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *wf = tflc__in(c, 1), *wt = tflc__in(c, 2);
  tflc_tensor *b = tflc__in(c, 3), *st = tflc__in(c, 4), *o = tflc__out(c, 0);
  tflc_const fc = tflc__const(c, wf), tc = tflc__const(c, wt), bc;
  tflc_svdf_params p;
  p.batches = in->dims[0];
  p.input_size = in->dims[1];
  p.num_filters = wf->dims[0];
  p.memory_size = wt->dims[1];
  p.rank = s->rank;
  p.act = s->act;
  p.input_zp = in->zero_point;
  p.state_zp = st->zero_point;
  p.output_zp = o->zero_point;
  p.mult1 = s->mult1;
  p.shift1 = s->shift1;
  p.mult2 = s->mult2;
  p.shift2 = s->shift2;
  if (b)
    bc = tflc__const(c, b);
  if (s->kind == TFLC__KIND_SVDF_F32)
    tflc_svdf_f32(&p, (const float *)in->data, &fc, &tc, b ? &bc : NULL,
                  (float *)st->data, (float *)o->data);
  else
    tflc_svdf_s8(&p, (const int8_t *)in->data, &fc, &tc, b ? &bc : NULL,
                 st->data, (int8_t *)o->data);
  return TFLC_OK;
}

/* ---- UNIDIRECTIONAL_SEQUENCE_LSTM --------------------------------------- */
/* QuantizeMultiplier of double(a) * double(b) / double(o) into p[0], p[1] */
static void tflc__quantize_ratio(float a, float b, float o, int32_t *q,
                                 int32_t *sh) {
  tflc_quantize_multiplier((double)a * (double)b / (double)o, q, sh);
}

/* The 24 inputs of t[] (input, hidden and cell state checked already):
 * the input and recurrent weights 1..8 and gate biases 12..15 present,
 * each of the same type as its group's (2: weights, 13: biases), every
 * other input (CIFG, peephole, projection, layer norm) absent. */
static tflc_status tflc__lstm_check_inputs(tflc__ctx *c,
                                           tflc_tensor *const *t) {
  int32_t k;
  for (k = 1; k < 24; k++) {
    const int needed = (k >= 1 && k <= 8) || (k >= 12 && k <= 15);
    if (k == 18 || k == 19)
      continue;
    if (needed && !t[k])
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "input %d missing (CIFG is not supported)", k, 0);
    if (!needed && t[k])
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "input %d present (peephole, projection or layer "
                          "norm are not supported)",
                          k, 0);
    if (needed && t[k]->type != t[k <= 8 ? 2 : 13]->type)
      return tflc__op_err(c, TFLC_ERR_TYPE, "input %d type %d differs", k,
                          t[k]->type);
  }
  return TFLC_OK;
}

/* The integer LSTM's quantized parameters into s (kind, activation
 * width) and p (= &s->p; its clip_f set): gate multipliers, offsets,
 * the state rescalings, the tanh input scaling and the quantized cell
 * clip. t[]: the 24 inputs; in, h, cs: input, hidden and cell state. */
static tflc_status tflc__lstm_prepare_q(tflc__ctx *c, tflc_tensor *const *t,
                                        const tflc_tensor *in,
                                        const tflc_tensor *h,
                                        const tflc_tensor *cs,
                                        tflc__lstm_state *s) {
  tflc_lstm_params *p = &s->p;
  const float clip = p->clip_f;
  int32_t k;
  const int act16 = in->type == TFLC_INT16;
  int32_t sh, l2;
  float sc;
  if (cs->type != TFLC_INT16 || (in->type != TFLC_INT8 && !act16) ||
      t[2]->type != TFLC_INT8 ||
      t[13]->type != (act16 ? TFLC_INT64 : TFLC_INT32))
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "integer LSTM needs int8/int16 activations, int8 "
                        "weights, int16 cell, int32/int64 bias (got %d/%d)",
                        in->type, cs->type);
  s->kind = TFLC__KIND_LSTM_Q;
  s->act16 = act16;
  p->acc64 = act16;
  if (!(in->scale > 0.0f) || !(h->scale > 0.0f) || !(cs->scale > 0.0f))
    return tflc__op_err(c, TFLC_ERR_QUANT, "state tensors not quantized", 0, 0);
  for (k = 0; k < 8; k++) {
    const tflc_tensor *w = t[1 + k];
    const uint32_t wtt = tflc__tensor_table(c->m, c->sgt, w->index);
    if (tflc__tensor_nscales(c->m, wtt) != 1 || !(w->scale > 0.0f))
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "weight %d must be per-tensor quantized", 1 + k, 0);
    /* gate FCs write Q3.12 (scale 2^-12), product rounded to float */
    tflc_fc_quantize_multiplier(k < 4 ? in->scale : h->scale, w->scale,
                                0.000244140625f, &p->gate_mult[k], &sh);
    p->gate_shift[k] = sh;
    p->w_offset[k] = -w->zero_point;
  }
  p->input_offset = -in->zero_point;
  p->hidden_offset = -h->zero_point;
  p->hidden_zp = h->zero_point;
  p->hidden_min = act16 ? -32768 : -128;
  p->hidden_max = act16 ? 32767 : 127;
  sc = cs->scale;
  tflc__quantize_ratio(0.000030517578125f, sc, sc, &p->fc_mult, &p->fc_shift);
  tflc__quantize_ratio(0.000030517578125f, 0.000030517578125f, sc, &p->ig_mult,
                       &p->ig_shift);
  tflc__quantize_ratio(0.000030517578125f, 0.000030517578125f, h->scale,
                       &p->h_mult, &p->h_shift);
  /* CheckedLog2 of the cell scale (float log, rounded) */
  l2 = (int32_t)roundf(logf(sc) * (1.0f / logf(2.0f)));
  sh = 15 + l2 - 3;
  if (sh < 0) {
    p->tanh_mult = 3;
    p->tanh_shift = -sh;
  } else if (sh < 29) {
    p->tanh_mult = 3 << sh;
    p->tanh_shift = 0;
  } else {
    return tflc__op_err(c, TFLC_ERR_QUANT, "cell scale 2^%d too large", l2, 0);
  }
  {
    double q = (double)clip / (double)sc;
    q = q < -32768.0 ? -32768.0 : q;
    q = q > 32767.0 ? 32767.0 : q;
    p->clip_q = (int32_t)q;
  }
  return TFLC_OK;
}

static tflc_status tflc__lstm_prepare(tflc__ctx *c) {
  tflc_tensor *t[24], *in, *h, *cs, *o = tflc__out(c, 0);
  tflc__lstm_state *s;
  tflc_lstm_params *p;
  tflc__sequence_lstm_options lo;
  int32_t k, act, B, T, I, S, rows, flt;
  float clip;
  tflc_status st;
  if (c->op->nin != 24 || c->op->nout != 1 || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs 24 inputs and 1 output", 0,
                        0);
  for (k = 0; k < 24; k++)
    t[k] = tflc__in(c, k);
  in = t[0];
  h = t[18];
  cs = t[19];
  if (!in || !h || !cs)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "input, hidden or cell missing", 0,
                        0);
  if (!(h->flags & TFLC_TENSOR_VARIABLE) || !(cs->flags & TFLC_TENSOR_VARIABLE))
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "hidden and cell state must be variables", 0, 0);
  if (h->type != in->type || o->type != in->type)
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "hidden/output type differs from "
                        "input type %d",
                        in->type, 0);
  st = tflc__lstm_check_inputs(c, t);
  if (st)
    return st;
  tflc__read_sequence_lstm_options(c->m, c->op->opts, &lo);
  act = lo.fused_activation_function;
  clip = lo.cell_clip;
  if (act != 4)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "cell activation %d (only TANH)", act, 0);
  if (in->rank != 3 || h->rank != 2 || o->rank != 3)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input/output 3-D, hidden 2-D", 0,
                        0);
  s = (tflc__lstm_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  p = &s->p;
  p->time_major = lo.time_major;
  B = p->time_major ? in->dims[1] : in->dims[0];
  T = p->time_major ? in->dims[0] : in->dims[1];
  I = in->dims[2];
  S = h->dims[1];
  p->batches = B;
  p->steps = T;
  p->input_size = I;
  p->state_size = S;
  for (k = 1; k <= 8; k++)
    if (t[k]->rank != 2 || t[k]->dims[0] != S ||
        t[k]->dims[1] != (k <= 4 ? I : S))
      return tflc__op_err(c, TFLC_ERR_SHAPE, "weight %d is not [%d, ..]", k, S);
  for (k = 12; k <= 15; k++)
    if (t[k]->rank != 1 || t[k]->dims[0] != S)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "bias %d is not [%d]", k, S);
  if ((int64_t)tflc__count(h) != (int64_t)B * S ||
      (int64_t)tflc__count(cs) != (int64_t)B * S || o->dims[0] != in->dims[0] ||
      o->dims[1] != in->dims[1] || o->dims[2] != S || B < 1 || S < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "state/output shapes vs %d x %d", B,
                        S);
  flt = cs->type == TFLC_FLOAT32;
  p->clip_f = clip;
  if (flt) {
    if (in->type != TFLC_FLOAT32 || t[2]->type != TFLC_FLOAT32 ||
        t[13]->type != TFLC_FLOAT32)
      return tflc__op_err(c, TFLC_ERR_TYPE, "float LSTM needs float tensors", 0,
                          0);
    s->kind = TFLC__KIND_LSTM_F32;
  } else {
    st = tflc__lstm_prepare_q(c, t, in, h, cs, s);
    if (st)
      return st;
  }
  rows = p->time_major ? B : 1;
  {
    const uint64_t bytes = 3u * (uint64_t)rows * (uint64_t)S * (flt ? 4u : 2u);
    if (bytes > 0x7FFFFFFFu)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "state too large", 0, 0);
    s->scratch = tflc__scratch(c, (uintptr_t)bytes);
    if (s->scratch < 0)
      return tflc__scratch_err(c);
  }
  return TFLC_OK;
}

static tflc_status tflc__lstm_invoke(tflc__ctx *c) {
  tflc__lstm_state *s = (tflc__lstm_state *)c->op->state;
  tflc_const w[8], b[4];
  tflc_tensor *in = tflc__in(c, 0), *h = tflc__in(c, 18), *cs = tflc__in(c, 19);
  tflc_tensor *o = tflc__out(c, 0);
  void *scratch = (void *)c->op->scratch[s->scratch];
  int32_t k;
  for (k = 0; k < 8; k++)
    w[k] = tflc__const(c, tflc__in(c, 1 + k));
  for (k = 0; k < 4; k++)
    b[k] = tflc__const(c, tflc__in(c, 12 + k));
  if (s->kind == TFLC__KIND_LSTM_F32)
    tflc_lstm_f32(&s->p, w, b, (const float *)in->data, (float *)h->data,
                  (float *)cs->data, (float *)o->data, (float *)scratch);
  else
    tflc_lstm_q(&s->p, s->act16, w, b, in->data, h->data, (int16_t *)cs->data,
                o->data, (int16_t *)scratch);
  return TFLC_OK;
}

#ifndef TFLC_NO_PATCHES
/* A float32 / int16 depthwise layer written over its input (its plane:
 * scratch `acc`), kept out of tflc__conv_wide_invoke's frame. */
static TFLC__NOINLINE tflc_status tflc__dw_wide_over_input(
    tflc__ctx *c, const tflc__conv_wide_state *s, const tflc_const *fc,
    const tflc_const *bp, void *tile, size_t tb) {
  const tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1);
  const tflc_tensor *o = tflc__out(c, 0);
  void *plane = (void *)c->op->scratch[s->acc];
  int done = 0;
  if (TFLC__S16 && s->kind == TFLC__KIND_DW_S16)
    done = tflc_depthwise_conv2d_s16_inplace(
        &s->p, in->dims, (int16_t *)o->data, f->dims, fc, bp, o->dims,
        (int16_t *)plane, tile, tb);
  else if (TFLC__F32 && s->kind == TFLC__KIND_DW_F32)
    done = tflc_depthwise_conv2d_f32_inplace(&s->p, s->fmin, s->fmax, in->dims,
                                             (float *)o->data, f->dims, fc, bp,
                                             o->dims, (float *)plane, tile, tb);
  return done ? TFLC_OK
              : tflc__op_err(c, TFLC_ERR_KERNEL, "not in place", 0, 0);
}
#endif
static tflc_status tflc__conv_wide_invoke(tflc__ctx *c) {
  tflc__conv_wide_state *s = (tflc__conv_wide_state *)c->op->state;
  const int tc = s->kind >= TFLC__KIND_TC_S8;
  tflc_tensor *in = tflc__in(c, tc ? 2 : 0), *f = tflc__in(c, 1);
  tflc_tensor *b = tflc__in(c, tc ? 3 : 2), *o = tflc__out(c, 0);
  void *tile = s->tile >= 0 ? (void *)c->op->scratch[s->tile] : NULL;
  void *acc = s->acc >= 0 ? (void *)c->op->scratch[s->acc] : NULL;
  size_t tb = s->tile >= 0 ? TFLC_TILE_BYTES : 0;
  tflc_const fc = tflc__const(c, f), bc;
  const tflc_const *bp = NULL;
  if (b) {
    bc = tflc__const(c, b);
    bp = &bc;
  }
#ifndef TFLC_NO_PATCHES
  if ((s->kind == TFLC__KIND_DW_S16 || s->kind == TFLC__KIND_DW_F32) &&
      s->acc >= 0 && o->data == in->data)
    return tflc__dw_wide_over_input(c, s, &fc, bp, tile, tb);
#endif
  switch (s->kind) {
#if TFLC__S16
  case TFLC__KIND_CONV_S16:
    tflc_conv2d_s16(&s->p, in->dims, (const int16_t *)in->data, f->dims, &fc,
                    bp, s->acc64, o->dims, (int16_t *)o->data, tile, tb);
    break;
  case TFLC__KIND_DW_S16:
    tflc_depthwise_conv2d_s16(&s->p, in->dims, (const int16_t *)in->data,
                              f->dims, &fc, bp, o->dims, (int16_t *)o->data,
                              tile, tb);
    break;
#endif
#if TFLC__F32
  case TFLC__KIND_CONV_F32:
    tflc_conv2d_f32(&s->p, s->fmin, s->fmax, in->dims, (const float *)in->data,
                    f->dims, &fc, bp, o->dims, (float *)o->data, tile, tb);
    break;
  case TFLC__KIND_DW_F32:
    tflc_depthwise_conv2d_f32(&s->p, s->fmin, s->fmax, in->dims,
                              (const float *)in->data, f->dims, &fc, bp,
                              o->dims, (float *)o->data, tile, tb);
    break;
#endif
  /* TRANSPOSE_CONV's kernels only when it is compiled in (TFLC_OPS) */
  case TFLC__KIND_TC_S8:
    if (!TFLC__SELECTED(TFLC_OP_TRANSPOSE_CONV))
      return TFLC_ERR_STATE;
    tflc_transpose_conv_s8(&s->p, in->dims, (const int8_t *)in->data, f->dims,
                           &fc, bp, o->dims, (int8_t *)o->data, (int32_t *)acc,
                           tile, tb);
    break;
  case TFLC__KIND_TC_S16:
    if (!TFLC__S16 || !TFLC__SELECTED(TFLC_OP_TRANSPOSE_CONV))
      return TFLC_ERR_STATE;
    tflc_transpose_conv_s16(&s->p, in->dims, (const int16_t *)in->data, f->dims,
                            &fc, bp, o->dims, (int16_t *)o->data,
                            (int64_t *)acc, tile, tb);
    break;
  case TFLC__KIND_TC_F32:
    if (!TFLC__F32 || !TFLC__SELECTED(TFLC_OP_TRANSPOSE_CONV))
      return TFLC_ERR_STATE;
    tflc_transpose_conv_f32(&s->p, s->fmin, s->fmax, in->dims,
                            (const float *)in->data, f->dims, &fc, bp, o->dims,
                            (float *)o->data, tile, tb);
    break;
  default:
    return TFLC_ERR_STATE;
  }
  return TFLC_OK;
}

static tflc_status tflc__fc_s16_invoke(tflc__ctx *c) {
  tflc__fc_s16_state *s = (tflc__fc_s16_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  void *tile = s->tile >= 0 ? (void *)c->op->scratch[s->tile] : NULL;
  size_t tb = s->tile >= 0 ? TFLC_TILE_BYTES : 0;
  tflc_const fc = tflc__const(c, f), bc;
  if (b)
    bc = tflc__const(c, b);
  tflc_fully_connected_s16(&s->p, s->batches, s->accum, s->depth,
                           (const int16_t *)in->data, &fc, b ? &bc : NULL,
                           s->acc64, (int16_t *)o->data, tile, tb);
  return TFLC_OK;
}

/* ---- BATCH_MATMUL ---------------------------------------------------------
 */
/* Elements of dims d[from..4] of a 5-D shape. */
static int64_t tflc__dims_count5(const int32_t *d, int32_t from) {
  int64_t n = 1;
  for (; from < 5; from++)
    n *= d[from];
  return n;
}
/* lhs [..., rows, depth] (adj_x: [..., depth, rows]) times rhs [..., depth,
 * cols] (adj_y: [..., cols, depth]), 2 to 5 dims, batch dims broadcast;
 * float32, int8, int16 (zero points 0). TFLM transposes into persistent
 * copies first; the kernel here reads both in place with strides and sums
 * in the same order, so no copy is needed. */
static tflc_status tflc__batch_matmul_prepare(tflc__ctx *c) {
  const tflc_tensor *l = tflc__in(c, 0), *r = tflc__in(c, 1),
                    *o = tflc__out(c, 0);
  tflc_batch_matmul_params *p;
  tflc__batch_matmul_options bo;
  int32_t ld[5], rd[5], rank, i, adj_x, adj_y, count = 1, ldepth, rdepth;
  if (c->op->nin != 2 || c->op->nout != 1 || !l || !r || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs 2 inputs, 1 output", 0, 0);
  if ((l->type != TFLC_FLOAT32 && l->type != TFLC_INT8 &&
       l->type != TFLC_INT16) ||
      r->type != l->type || o->type != l->type)
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "float32, int8 or int16, all alike (not %d)", l->type,
                        0);
  if (l->rank < 2 || l->rank > 5 || r->rank < 2 || r->rank > 5)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "ranks %d and %d (2 to 5)", l->rank,
                        r->rank);
  tflc__read_batch_matmul_options(c->m, c->op->opts, &bo);
  adj_x = bo.adj_x;
  adj_y = bo.adj_y;
  rank = l->rank > r->rank ? l->rank : r->rank;
  /* both to TFLM's 5-D form, leading 1s */
  for (i = 0; i < 5; i++) {
    ld[i] = i < 5 - l->rank ? 1 : l->dims[i - (5 - l->rank)];
    rd[i] = i < 5 - r->rank ? 1 : r->dims[i - (5 - r->rank)];
  }
  p = (tflc_batch_matmul_params *)tflc__persist(c->it, sizeof *p);
  if (!p)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = p;
  for (i = 0; i < 3; i++) {
    if (ld[i] != rd[i] && ld[i] != 1 && rd[i] != 1)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "batch dims %d and %d differ",
                          ld[i], rd[i]);
    p->batches[i] = ld[i] == 1 ? rd[i] : ld[i];
    count *= p->batches[i];
    p->lhs_batch_step[i] =
        ld[i] == 1 ? 0 : (int32_t)tflc__dims_count5(ld, i + 1);
    p->rhs_batch_step[i] =
        rd[i] == 1 ? 0 : (int32_t)tflc__dims_count5(rd, i + 1);
  }
  p->rows = adj_x ? ld[4] : ld[3];
  ldepth = adj_x ? ld[3] : ld[4];
  rdepth = adj_y ? rd[4] : rd[3];
  p->cols = adj_y ? rd[3] : rd[4];
  if (ldepth != rdepth)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "depths %d and %d differ", ldepth,
                        rdepth);
  p->depth = ldepth;
  p->lhs_row_step = adj_x ? 1 : ld[4];
  p->lhs_depth_step = adj_x ? ld[4] : 1;
  p->rhs_depth_step = adj_y ? 1 : rd[4];
  p->rhs_col_step = adj_y ? rd[4] : 1;
  /* TFLM rewrites the output shape and requires the same element count */
  if (o->rank < rank ||
      (int64_t)tflc__count(o) != (int64_t)count * p->rows * p->cols)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output has %d elements, not %d",
                        tflc__count(o), count * p->rows * p->cols);
  if (l->type != TFLC_FLOAT32) {
    if (!((double)l->scale * (double)r->scale >= 0.0))
      return tflc__op_err(c, TFLC_ERR_QUANT, "negative scale product", 0, 0);
    tflc_fc_quantize_multiplier(l->scale, r->scale, o->scale, &p->out_mult,
                                &p->out_shift);
    if (l->type == TFLC_INT16 &&
        (l->zero_point || r->zero_point || o->zero_point))
      return tflc__op_err(c, TFLC_ERR_QUANT, "int16 zero points must be 0", 0,
                          0);
    p->lhs_offset = -l->zero_point;
    p->rhs_offset = -r->zero_point;
    p->out_offset = o->zero_point;
    p->act_min = l->type == TFLC_INT8 ? -128 : -32768;
    p->act_max = l->type == TFLC_INT8 ? 127 : 32767;
  }
  return TFLC_OK;
}
static tflc_status tflc__batch_matmul_invoke(tflc__ctx *c) {
  const tflc_batch_matmul_params *p =
      (const tflc_batch_matmul_params *)c->op->state;
  const tflc_tensor *l = tflc__in(c, 0), *r = tflc__in(c, 1);
  tflc_tensor *o = tflc__out(c, 0);
  if (l->type == TFLC_FLOAT32)
    tflc_batch_matmul_f32(p, (const float *)l->data, (const float *)r->data,
                          (float *)o->data);
  else if (l->type == TFLC_INT8)
    tflc_batch_matmul_s8(p, (const int8_t *)l->data, (const int8_t *)r->data,
                         (int8_t *)o->data);
  else
    tflc_batch_matmul_s16(p, (const int16_t *)l->data, (const int16_t *)r->data,
                          (int16_t *)o->data);
  return TFLC_OK;
}

/* ======================================================================== */
/* Operators: pooling, SOFTMAX, element-wise arithmetic, activations,       */
/* comparisons and reductions (ADD, MEAN, MUL, SUB, LOGISTIC, TANH,         */
/* L2_NORMALIZATION, LOG_SOFTMAX, LEAKY_RELU, HARD_SWISH, PRELU, RELU,      */
/* RELU6, MAXIMUM, MINIMUM, comparisons, SUM, ARG_MAX, ARG_MIN).            */
/* ======================================================================== */
/* ---- pooling ------------------------------------------------------------ */
/* |(double)a - (double)b| > 1e-6 as the double expression gives it (the
 * difference rounded to nearest even), without double arithmetic: the
 * difference of the floats' integer significands, exact in 64 bits when
 * their exponents are within 38, else with the smaller one's low bits as
 * a sticky bit; rounded to 53 bits and compared with 1e-6's. */
static int tflc__scales_differ(float a, float b) {
  const double t = 1e-6;
  uint32_t ma, mb, na, nb, tmp;
  int32_t ea, eb, g, et, d, len = 0;
  const int ka = tflc__float_parts(a, &ma, &ea, &na);
  const int kb = tflc__float_parts(b, &mb, &eb, &nb);
  uint64_t x, lo, mt;
  int sticky = 0;
  if (ka == TFLC__FP_NAN || kb == TFLC__FP_NAN) /* NaN: no comparison holds */
    return 0;
  if (ka == TFLC__FP_INF || kb == TFLC__FP_INF) /* inf - inf is NaN */
    return !(ka == kb && na == nb);
  if (ka == TFLC__FP_ZERO && kb == TFLC__FP_ZERO)
    return 0;
  if (ka == TFLC__FP_ZERO || kb == TFLC__FP_ZERO) {
    x = ka == TFLC__FP_ZERO ? mb : ma;
    eb = ka == TFLC__FP_ZERO ? eb : ea;
  } else {
    if (ea < eb || (ea == eb && ma < mb)) { /* a: the larger magnitude */
      tmp = ma, ma = mb, mb = tmp;
      g = ea, ea = eb, eb = g;
    }
    g = ea - eb;
    if (g <= 38) {
      x = (uint64_t)ma << g;
      x = na == nb ? x - mb : x + mb;
    } else { /* mb's bits below 2^(g - 38) only as a sticky bit */
      const int32_t s = g - 38;
      lo = s < 32 ? mb >> s : 0;
      sticky = s >= 32 || (mb & ((1u << s) - 1u)) != 0;
      x = (uint64_t)ma << 38;
      x = na == nb ? x - lo - (uint64_t)sticky : x + lo;
      eb += s;
    }
  }
  if (x == 0)
    return 0;
  /* round x * 2^eb to 53 bits: x = m * 2^d */
  for (lo = x; lo; lo >>= 1)
    len++;
  d = len - 53;
  if (d > 0) {
    const uint64_t rem = x & (((uint64_t)1 << d) - 1),
                   half = (uint64_t)1 << (d - 1);
    x >>= d;
    if (rem > half || (rem == half && (sticky || (x & 1))))
      x++;
    if (x >> 53) {
      x >>= 1;
      d++;
    }
  } else {
    x <<= -d;
  }
  eb += d;
  /* 1e-6 as m * 2^e, m in [2^52, 2^53) */
  memcpy(&mt, &t, sizeof mt);
  et = (int32_t)((mt >> 52) & 0x7FF) - 1075;
  mt = (mt & (((uint64_t)1 << 52) - 1)) | ((uint64_t)1 << 52);
  return eb > et || (eb == et && x > mt);
}
static tflc_status tflc__pool_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__pool_state *s;
  tflc__pool2d_options po;
  int32_t same, oh, ow, act;
  if (!in || !o || in->type != TFLC_INT8 || o->type != TFLC_INT8 ||
      in->rank != 4 || o->rank != 4)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "needs 4-D int8 tensors", 0,
                        0);
  if (tflc__scales_differ(in->scale, o->scale) ||
      in->zero_point != o->zero_point)
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "input and output quantization differ", 0, 0);
  s = (tflc__pool_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  tflc__read_pool2d_options(c->m, c->op->opts, &po);
  same = po.padding == 0;
  s->p.stride_w = po.stride_w;
  s->p.stride_h = po.stride_h;
  s->p.filter_w = po.filter_width;
  s->p.filter_h = po.filter_height;
  act = po.fused_activation_function;
  if (s->p.stride_w < 1 || s->p.stride_h < 1 || s->p.filter_w < 1 ||
      s->p.filter_h < 1 || s->p.stride_w > 65535 || s->p.stride_h > 65535 ||
      s->p.filter_w > 65535 || s->p.filter_h > 65535)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "bad stride %d or filter %d",
                        s->p.stride_w, s->p.filter_w);
  s->p.pad_h =
      tflc__pad_amount(same, in->dims[1], s->p.filter_h, s->p.stride_h, 1, &oh);
  s->p.pad_w =
      tflc__pad_amount(same, in->dims[2], s->p.filter_w, s->p.stride_w, 1, &ow);
  if (oh != o->dims[1] || ow != o->dims[2] || in->dims[0] != o->dims[0] ||
      in->dims[3] != o->dims[3])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output should be %dx%d", oh, ow);
  tflc_activation_range_quantized(act, o->scale, o->zero_point, -128, 127,
                                  &s->p.act_min, &s->p.act_max);
  return TFLC_OK;
}
static tflc_status tflc__pool_invoke(tflc__ctx *c) {
  /* (a kernel whose operator is left out of TFLC_OPS is never called) */
  const int avg = TFLC__SELECTED(TFLC_OP_AVERAGE_POOL_2D) &&
                  (!TFLC__SELECTED(TFLC_OP_MAX_POOL_2D) ||
                   c->op->code == TFLC_OP_AVERAGE_POOL_2D);
  tflc__pool_state *s = (tflc__pool_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  if (avg) {
    if (TFLC_AVG_POOL_S8(&s->p, in->dims, (const int8_t *)in->data, o->dims,
                         (int8_t *)o->data) != TFLC_OK)
      return tflc__op_err(c, TFLC_ERR_KERNEL, "window without input", 0, 0);
  } else {
    tflc_max_pool_s8(&s->p, in->dims, (const int8_t *)in->data, o->dims,
                     (int8_t *)o->data);
  }
  return TFLC_OK;
}

/* ---- SOFTMAX ------------------------------------------------------------ */
/* (double)beta * in_scale * 2^26 > 1 (TFLM's check that the multiplier
 * exceeds 1), exactly, without double arithmetic */
static int tflc__softmax_scale_ok(float beta, float in_scale) {
  uint64_t m;
  int32_t e;
  uint32_t neg;
  const int k =
      tflc__float_ratio(beta, in_scale, 1.0f / 67108864.0f, &m, &e, &neg);
  if (neg || k == TFLC__FP_ZERO || k == TFLC__FP_NAN)
    return 0;
  return k == TFLC__FP_INF || e >= 0 || (e > -53 && m > ((uint64_t)1 << -e));
}
static tflc_status tflc__softmax_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__softmax_state *s;
  tflc__softmax_options so;
  if (!in || !o || !tflc__same_shape(in, o) || in->rank < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input and output shapes differ", 0,
                        0);
  s = (tflc__softmax_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  tflc__read_softmax_options(c->m, c->op->opts, &so);
  s->beta = so.beta;
  s->depth = in->dims[in->rank - 1];
  s->rows = s->depth ? tflc__count(in) / s->depth : 0;
  if (TFLC__F32 && in->type == TFLC_FLOAT32 && o->type == TFLC_FLOAT32)
    return TFLC_OK;
  if (TFLC__S16 && in->type == TFLC_INT8 && o->type == TFLC_INT16) {
    /* TFLM: zero point -32768, scale within 0.1% of 1/65536 */
    double d = (double)o->scale * 65536.0 - 1.0;
    if (o->zero_point != -32768 || d > 0.001 || d < -0.001)
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "int16 output must have scale 1/65536, zero point "
                          "-32768",
                          0, 0);
  } else if (in->type != TFLC_INT8 || o->type != TFLC_INT8) {
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d -> %d unsupported",
                        in->type, o->type);
  } else if (o->zero_point != -128 || o->scale != 1.0f / 256.0f) {
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "int8 output must have scale 1/256, zero point -128", 0,
                        0);
  }
  if (!(in->scale > 0.0f) || !tflc__softmax_scale_ok(s->beta, in->scale))
    return tflc__op_err(c, TFLC_ERR_QUANT, "input scale * beta too small", 0,
                        0);
  tflc_softmax_prepare_s8(s->beta, in->scale, &s->p);
  return TFLC_OK;
}
static tflc_status tflc__softmax_invoke(tflc__ctx *c) {
  tflc__softmax_state *s = (tflc__softmax_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  if (TFLC__F32 && in->type == TFLC_FLOAT32)
    tflc_softmax_f32(s->beta, s->rows, s->depth, (const float *)in->data,
                     (float *)o->data);
  else if (TFLC__S16 && o->type == TFLC_INT16)
    tflc_softmax_s8_s16(&s->p, s->rows, s->depth, (const int8_t *)in->data,
                        (int16_t *)o->data);
  else
    tflc_softmax_s8(&s->p, s->rows, s->depth, (const int8_t *)in->data,
                    (int8_t *)o->data);
  return TFLC_OK;
}

/* ---- ADD ---------------------------------------------------------------- */
/* Right-aligns the shapes of a, b and out into rank r = out rank; inputs
 * must broadcast (each dim equal to out's or 1). */
static int tflc__broadcast(const tflc_tensor *a, const tflc_tensor *b,
                           const tflc_tensor *o, int32_t *da, int32_t *db,
                           int32_t *dout, int32_t *rank) {
  int32_t r = o->rank, i;
  if (r < a->rank || r < b->rank || r < 1)
    return 0;
  for (i = 0; i < r; i++) {
    int32_t ia = i - (r - a->rank), ib = i - (r - b->rank);
    da[i] = ia >= 0 ? a->dims[ia] : 1;
    db[i] = ib >= 0 ? b->dims[ib] : 1;
    dout[i] = o->dims[i];
    if ((da[i] != dout[i] && da[i] != 1) || (db[i] != dout[i] && db[i] != 1) ||
        (da[i] != dout[i] && db[i] != dout[i]))
      return 0;
  }
  *rank = r;
  return 1;
}
static tflc_status tflc__add_s8_f32_prepare(tflc__ctx *c) {
  tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__add_state *s;
  tflc__add_sub_options ao;
  int32_t act;
  tflc__read_add_sub_options(c->m, c->op->opts, &ao);
  act = ao.fused_activation_function;
  if (!a || !b || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs two inputs", 0, 0);
  s = (tflc__add_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  if (!tflc__broadcast(a, b, o, s->d1, s->d2, s->d0, &s->rank))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "shapes do not broadcast", 0, 0);
  if (TFLC__F32 && a->type == TFLC_FLOAT32 && b->type == TFLC_FLOAT32 &&
      o->type == TFLC_FLOAT32) {
    tflc_activation_range_f32(act, &s->fmin, &s->fmax);
    return TFLC_OK;
  }
  if (a->type != TFLC_INT8 || b->type != TFLC_INT8 || o->type != TFLC_INT8)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d + %d unsupported",
                        a->type, b->type);
  if (!(a->scale > 0.0f) || !(b->scale > 0.0f) || !(o->scale > 0.0f))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  tflc_add_prepare_s8(a->scale, a->zero_point, b->scale, b->zero_point,
                      o->scale, o->zero_point, act, &s->p);
  return TFLC_OK;
}
static tflc_status tflc__add_s8_f32_invoke(tflc__ctx *c) {
  tflc__add_state *s = (tflc__add_state *)c->op->state;
  tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1), *o = tflc__out(c, 0);
  if (TFLC__F32 && o->type == TFLC_FLOAT32)
    tflc_add_f32(s->fmin, s->fmax, s->rank, s->d1, (const float *)a->data,
                 s->d2, (const float *)b->data, s->d0, (float *)o->data);
  else
    tflc_add_s8(&s->p, s->rank, s->d1, (const int8_t *)a->data, s->d2,
                (const int8_t *)b->data, s->d0, (int8_t *)o->data);
  return TFLC_OK;
}

/* ---- MEAN
 * --------------------------------------------------------------------- */
static tflc_status tflc__mean_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *ax = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__mean_state *s;
  int32_t axes[TFLC_MAX_DIMS * 2], n = 0, i, kept = 1;
  if (!in || !o || in->type != TFLC_INT8 || o->type != TFLC_INT8)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "only int8 supported", 0, 0);
  if (!tflc__const_ints(ax, axes, TFLC_MAX_DIMS * 2, &n))
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "axes must be a constant int vector", 0, 0);
  s = (tflc__mean_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  for (i = 0; i < n; i++) {
    int32_t a = axes[i] < 0 ? axes[i] + in->rank : axes[i];
    if (a < 0 || a >= in->rank)
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "axis %d out of range", axes[i],
                          0);
    s->mask |= 1u << a;
  }
  for (i = 0; i < in->rank; i++)
    if (!(s->mask & (1u << i)))
      kept *= in->dims[i];
  if (tflc__count(o) != kept)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "output has %d elements, expected %d", tflc__count(o),
                        kept);
  if (!(in->scale > 0.0f) || !(o->scale > 0.0f))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  tflc_quantize_multiplier((double)in->scale / (double)o->scale,
                           &s->p.multiplier, &s->p.shift);
  s->p.input_zp = in->zero_point;
  s->p.output_zp = o->zero_point;
  return TFLC_OK;
}
static tflc_status tflc__mean_invoke(tflc__ctx *c) {
  tflc__mean_state *s = (tflc__mean_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_mean_s8(&s->p, in->rank, in->dims, s->mask, (const int8_t *)in->data,
               (int8_t *)o->data);
  return TFLC_OK;
}

/* Operators: LOGISTIC, TANH, MUL, SUB, ADD (int16 only; the built-in ADD
 * keeps int8/float32), L2_NORMALIZATION, LOG_SOFTMAX, LEAKY_RELU,
 * HARD_SWISH, PRELU, RELU, RELU6, MAXIMUM, MINIMUM, LESS, LESS_EQUAL,
 * GREATER, GREATER_EQUAL, EQUAL, NOT_EQUAL, SUM, ARG_MAX, ARG_MIN, and
 * the QUANTIZE / DEQUANTIZE type pairs the built-in table refuses
 * (integer <-> integer requantization other than int8 -> int8, uint8 ->
 * float32). Prepare follows TFLM's checks; run is integer-only for
 * quantized tensors. Binary operators recompute their (right-aligned)
 * broadcast shapes at run time so the persistent state stays small. */

typedef struct tflc__sum_state {
  tflc_mean_params p;
  uint32_t mask;
} tflc__sum_state;
typedef struct tflc__f32_pair_state {
  float a, b; /* activation range, or alpha */
} tflc__f32_pair_state;
typedef struct tflc__requant_state {
  int32_t q, shift;
} tflc__requant_state;

static void *tflc__new_state(tflc__ctx *c, size_t bytes, size_t bytes32) {
  void *s = tflc__persist2(c->it, bytes, bytes32);
  c->op->state = s;
  return s;
}
/* A state without pointers; TFLC__NEW_STATE32 names the 32-bit layout of
 * one with pointers (see tflc__tensor32). */
#define TFLC__NEW_STATE(c, T) ((T *)tflc__new_state((c), sizeof(T), sizeof(T)))
#define TFLC__NEW_STATE32(c, T, T32)                                           \
  ((T *)tflc__new_state((c), sizeof(T), sizeof(T32)))

/* TFLM QuantizeMultiplierSmallerThanOneExp: 0 when m is not in (0, 1). */
static int tflc__multiplier_below_one(double m, int32_t *q, int32_t *shift) {
  if (!(m > 0.0) || !(m < 1.0))
    return 0;
  tflc_quantize_multiplier(m, q, shift);
  return *shift <= 0;
}
static int32_t tflc__qmin_of_width(int w) {
  return w == 1 ? -128 : -32768;
}
static int32_t tflc__qmax_of_width(int w) {
  return w == 1 ? 127 : 32767;
}

static int tflc__is_quantized(const tflc_tensor *t) {
  return t->scale > 0.0f;
}
/* Element width of an int8 / int16 tensor (0 otherwise). */
static int tflc__int_width(const tflc_tensor *t) {
  return t->type == TFLC_INT8 ? 1 : t->type == TFLC_INT16 ? 2 : 0;
}

/* Right-aligned broadcast shapes of inputs 0, 1 against output 0; scalars
 * (rank 0) count as [1]. */
static int tflc__binary_shapes(tflc__ctx *c, int32_t *d1, int32_t *d2,
                               int32_t *d0, int32_t *rank) {
  const tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1),
                    *o = tflc__out(c, 0);
  if (!a || !b || !o)
    return 0;
  if (o->rank == 0) {
    if (tflc__count(a) != 1 || tflc__count(b) != 1)
      return 0;
    d1[0] = d2[0] = d0[0] = 1;
    *rank = 1;
    return 1;
  }
  return tflc__broadcast(a, b, o, d1, d2, d0, rank);
}

/* Unary shape/type check: input 0 and output 0 exist, same element
 * count, same type. */
static tflc_status tflc__check_unary(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  if (!in || !o || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs one input and one output", 0,
                        0);
  if (in->type != o->type)
    return tflc__op_err(c, TFLC_ERR_TYPE, "input type %d, output type %d",
                        in->type, o->type);
  if (tflc__count(in) != tflc__count(o))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input and output sizes differ", 0,
                        0);
  return TFLC_OK;
}

/* Binary check: two inputs of one type, broadcastable to the output. */
static tflc_status tflc__check_binary(tflc__ctx *c) {
  const tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1),
                    *o = tflc__out(c, 0);
  int32_t d1[TFLC_MAX_DIMS], d2[TFLC_MAX_DIMS], d0[TFLC_MAX_DIMS], r;
  if (!a || !b || !o || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs two inputs and one output",
                        0, 0);
  if (a->type != b->type)
    return tflc__op_err(c, TFLC_ERR_TYPE, "input types %d and %d differ",
                        a->type, b->type);
  if (!tflc__binary_shapes(c, d1, d2, d0, &r))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "shapes do not broadcast", 0, 0);
  return TFLC_OK;
}

/* ---- prepare ------------------------------------------------------------ */

static tflc_status tflc__sigmoid_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_sigmoid_params *s;
  tflc_status st = tflc__check_unary(c);
  if (st != TFLC_OK || in->type == TFLC_FLOAT32)
    return st;
  if (in->type != TFLC_INT8)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported",
                        in->type, 0);
  if (!tflc__is_quantized(in))
    return tflc__op_err(c, TFLC_ERR_QUANT, "input not quantized", 0, 0);
  if (c->op->code == TFLC_OP_LOGISTIC && o->zero_point != -128)
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "int8 output zero point must be -128, is %d",
                        o->zero_point, 0);
  s = TFLC__NEW_STATE(c, tflc_sigmoid_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  tflc_sigmoid_prepare_s8(in->scale, in->zero_point, s);
  return TFLC_OK;
}

/* float32 MUL / SUB: only the activation range is kept. */
static tflc_status tflc__binary_f32_prepare(tflc__ctx *c, int32_t act) {
  tflc__f32_pair_state *s = TFLC__NEW_STATE(c, tflc__f32_pair_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  tflc_activation_range_f32(act, &s->a, &s->b);
  return TFLC_OK;
}

static tflc_status tflc__mul_prepare(tflc__ctx *c) {
  tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc_mul_params *s;
  tflc__activation_only_options mo;
  int32_t act;
  int w;
  tflc_status st = tflc__check_binary(c);
  if (st != TFLC_OK)
    return st;
  tflc__read_activation_only_options(c->m, c->op->opts, &mo);
  act = mo.fused_activation_function;
  if (a->type == TFLC_FLOAT32 && o->type == TFLC_FLOAT32)
    return tflc__binary_f32_prepare(c, act);
  w = tflc__int_width(o);
  if (!w || a->type != o->type)
    return tflc__op_err_types(c, " * ", a, b, o);
  if (!tflc__is_quantized(a) || !tflc__is_quantized(b) ||
      !tflc__is_quantized(o))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  if (w == 2 && (a->zero_point || b->zero_point || o->zero_point))
    return tflc__op_err(c, TFLC_ERR_QUANT, "int16 zero points must be 0", 0, 0);
  s = TFLC__NEW_STATE(c, tflc_mul_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->input1_offset = -a->zero_point;
  s->input2_offset = -b->zero_point;
  s->output_offset = o->zero_point;
  tflc_quantize_multiplier((double)a->scale * (double)b->scale /
                               (double)o->scale,
                           &s->multiplier, &s->shift);
  tflc_activation_range_quantized(
      act, o->scale, o->zero_point, tflc__qmin_of_width(w),
      tflc__qmax_of_width(w), &s->act_min, &s->act_max);
  return TFLC_OK;
}

/* SUB int8/int16 and ADD int16. */
static tflc_status tflc__addsub_q_prepare(tflc__ctx *c) {
  tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc_add_params *s;
  tflc__add_sub_options ao;
  int32_t act;
  int w, ok;
  tflc_status st = tflc__check_binary(c);
  if (st != TFLC_OK)
    return st;
  tflc__read_add_sub_options(c->m, c->op->opts, &ao);
  act = ao.fused_activation_function;
  if (a->type == TFLC_FLOAT32 && o->type == TFLC_FLOAT32 &&
      c->op->code == TFLC_OP_SUB)
    return tflc__binary_f32_prepare(c, act);
  w = tflc__int_width(o);
  if (!w || a->type != o->type)
    return tflc__op_err_types(c, c->op->code == TFLC_OP_SUB ? " - " : " + ", a,
                              b, o);
  if (!tflc__is_quantized(a) || !tflc__is_quantized(b) ||
      !tflc__is_quantized(o))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  s = TFLC__NEW_STATE(c, tflc_add_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  if (c->op->code == TFLC_OP_SUB)
    ok = tflc_sub_prepare(a->scale, a->zero_point, b->scale, b->zero_point,
                          o->scale, o->zero_point, act, w, s);
  else
    ok = tflc_add_prepare_s16(a->scale, a->zero_point, b->scale, b->zero_point,
                              o->scale, o->zero_point, act, s);
  if (!ok)
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "scales give a multiplier of 1 or more", 0, 0);
  return TFLC_OK;
}

static tflc_status tflc__l2norm_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0);
  tflc__activation_only_options lo;
  int32_t act;
  tflc_status st = tflc__check_unary(c);
  if (st != TFLC_OK)
    return st;
  tflc__read_activation_only_options(c->m, c->op->opts, &lo);
  act = lo.fused_activation_function;
  if (in->rank > 4 || in->rank < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "rank %d, expected 1 to 4", in->rank,
                        0);
  if (act != 0)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "fused activation %d unsupported", act, 0);
  if (in->type != TFLC_INT8 && in->type != TFLC_FLOAT32)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported",
                        in->type, 0);
  return TFLC_OK;
}

static tflc_status tflc__log_softmax_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_log_softmax_params *s;
  tflc_status st = tflc__check_unary(c);
  if (st != TFLC_OK)
    return st;
  if (!tflc__same_shape(in, o) || in->rank < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input and output shapes differ", 0,
                        0);
  if (in->type == TFLC_FLOAT32)
    return TFLC_OK;
  if (in->type != TFLC_INT8)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported",
                        in->type, 0);
  if (o->scale != 16.0f / 256.0f || o->zero_point != 127)
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "int8 output must have scale 16/256, zero point 127", 0,
                        0);
  if (!(in->scale > 0.0f) || !((double)in->scale * 67108864.0 > 1.0))
    return tflc__op_err(c, TFLC_ERR_QUANT, "input scale too small", 0, 0);
  s = TFLC__NEW_STATE(c, tflc_log_softmax_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  tflc_log_softmax_prepare_s8(in->scale, s);
  return TFLC_OK;
}

static tflc_status tflc__leaky_relu_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_leaky_relu_params *s;
  tflc__leaky_relu_options lo;
  float alpha;
  tflc_status st = tflc__check_unary(c);
  if (st != TFLC_OK)
    return st;
  tflc__read_leaky_relu_options(c->m, c->op->opts, &lo);
  alpha = lo.alpha;
  if (in->type == TFLC_FLOAT32) {
    tflc__f32_pair_state *f = TFLC__NEW_STATE(c, tflc__f32_pair_state);
    if (!f)
      return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
    f->a = alpha;
    return TFLC_OK;
  }
  if (!tflc__int_width(in))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported",
                        in->type, 0);
  if (!tflc__is_quantized(in) || !tflc__is_quantized(o))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  s = TFLC__NEW_STATE(c, tflc_leaky_relu_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  tflc_leaky_relu_prepare(in->scale, in->zero_point, o->scale, o->zero_point,
                          alpha, s);
  return TFLC_OK;
}

static tflc_status tflc__hard_swish_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_hard_swish_params *s;
  tflc_status st = tflc__check_unary(c);
  if (st != TFLC_OK || in->type == TFLC_FLOAT32)
    return st;
  if (in->type != TFLC_INT8)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported",
                        in->type, 0);
  if (!tflc__is_quantized(in) || !tflc__is_quantized(o))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  s = TFLC__NEW_STATE(c, tflc_hard_swish_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  if (!tflc_hard_swish_prepare_s8(in->scale, in->zero_point, o->scale,
                                  o->zero_point, s))
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "output scale below input scale / 128", 0, 0);
  return TFLC_OK;
}

static tflc_status tflc__prelu_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *al = tflc__in(c, 1), *o = tflc__out(c, 0);
  int32_t d1[TFLC_MAX_DIMS], d2[TFLC_MAX_DIMS], d0[TFLC_MAX_DIMS], r;
  tflc_prelu_params *s;
  if (!in || !al || !o || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs two inputs and one output",
                        0, 0);
  if (!tflc__binary_shapes(c, d1, d2, d0, &r))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "shapes do not broadcast", 0, 0);
  if (in->type == TFLC_FLOAT32 && al->type == TFLC_FLOAT32 &&
      o->type == TFLC_FLOAT32)
    return TFLC_OK;
  if (!tflc__int_width(in) || in->type != o->type || al->type != TFLC_INT8)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "input type %d with alpha type %d unsupported",
                        in->type, al->type);
  if (!tflc__is_quantized(in) || !tflc__is_quantized(al) ||
      !tflc__is_quantized(o))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  s = TFLC__NEW_STATE(c, tflc_prelu_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  tflc_quantize_multiplier((double)in->scale / (double)o->scale, &s->mult1,
                           &s->shift1);
  tflc_quantize_multiplier((double)in->scale * (double)al->scale /
                               (double)o->scale,
                           &s->mult2, &s->shift2);
  s->input_offset = -in->zero_point;
  s->alpha_offset = -al->zero_point;
  s->output_offset = o->zero_point;
  return TFLC_OK;
}

static tflc_status tflc__relu_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_relu_params *s;
  int w;
  tflc_status st = tflc__check_unary(c);
  if (st != TFLC_OK || in->type == TFLC_FLOAT32)
    return st;
  w = tflc__int_width(in);
  if (!w)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported",
                        in->type, 0);
  if (!tflc__is_quantized(in) || !tflc__is_quantized(o))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  if (c->op->code == TFLC_OP_RELU && w == 2 &&
      (in->zero_point || o->zero_point))
    return tflc__op_err(c, TFLC_ERR_QUANT, "int16 zero points must be 0", 0, 0);
  s = TFLC__NEW_STATE(c, tflc_relu_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->input_zp = in->zero_point;
  s->output_zp = o->zero_point;
  if (c->op->code == TFLC_OP_RELU) {
    const int32_t z = o->zero_point + (int32_t)roundf(0.0f / o->scale);
    tflc_quantize_multiplier((double)(in->scale / o->scale), &s->multiplier,
                             &s->shift);
    s->lo = z > tflc__qmin_of_width(w) ? z : tflc__qmin_of_width(w);
    s->hi = tflc__qmax_of_width(w);
  } else {
    /* RELU6: clamp to [zin, quantized 6] on the input's quantization */
    const float six = roundf(6.0f / in->scale);
    int32_t hi = tflc__qmax_of_width(w);
    if (six < 65536.0f)
      hi = (int32_t)six + in->zero_point;
    s->clamp_only = 1;
    s->lo = in->zero_point;
    s->hi = hi < tflc__qmin_of_width(w)   ? tflc__qmin_of_width(w)
            : hi > tflc__qmax_of_width(w) ? tflc__qmax_of_width(w)
                                          : hi;
  }
  return TFLC_OK;
}

static tflc_status tflc__maxmin_prepare(tflc__ctx *c) {
  tflc_tensor *a = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_status st = tflc__check_binary(c);
  if (st != TFLC_OK)
    return st;
  if (a->type != o->type ||
      (a->type != TFLC_FLOAT32 && a->type != TFLC_INT8 &&
       a->type != TFLC_INT16 && a->type != TFLC_INT32 && a->type != TFLC_INT64))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d -> %d unsupported",
                        a->type, o->type);
  return TFLC_OK;
}

static int tflc__compare_kind(int32_t code) {
  switch (code) {
  case TFLC_OP_EQUAL:
    return TFLC_CMP_EQUAL;
  case TFLC_OP_NOT_EQUAL:
    return TFLC_CMP_NOT_EQUAL;
  case TFLC_OP_LESS:
    return TFLC_CMP_LESS;
  case TFLC_OP_LESS_EQUAL:
    return TFLC_CMP_LESS_EQUAL;
  case TFLC_OP_GREATER:
    return TFLC_CMP_GREATER;
  default:
    return TFLC_CMP_GREATER_EQUAL;
  }
}

static tflc_status tflc__compare_prepare(tflc__ctx *c) {
  tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1), *o = tflc__out(c, 0);
  const int eq =
      c->op->code == TFLC_OP_EQUAL || c->op->code == TFLC_OP_NOT_EQUAL;
  tflc_cmp_params *s;
  tflc_status st = tflc__check_binary(c);
  if (st != TFLC_OK)
    return st;
  if (o->type != TFLC_BOOL)
    return tflc__op_err(c, TFLC_ERR_TYPE, "output type %d, expected bool",
                        o->type, 0);
  if (a->type == TFLC_FLOAT32 || a->type == TFLC_INT32 ||
      a->type == TFLC_INT64 || (eq && a->type == TFLC_BOOL))
    return TFLC_OK;
  if (a->type != TFLC_INT8)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported", a->type,
                        0);
  s = TFLC__NEW_STATE(c, tflc_cmp_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  /* each scale itself becomes a multiplier below one */
  if (!tflc__multiplier_below_one((double)a->scale, &s->mult1, &s->shift1) ||
      !tflc__multiplier_below_one((double)b->scale, &s->mult2, &s->shift2))
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "int8 input scales must be in (0, 1)", 0, 0);
  s->input1_offset = -a->zero_point;
  s->input2_offset = -b->zero_point;
  return TFLC_OK;
}

static tflc_status tflc__sum_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *ax = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__sum_state *s;
  int32_t axes[TFLC_MAX_DIMS * 2], n = 0, i, kept = 1;
  uint32_t mask = 0;
  if (!in || !o || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs input and output", 0, 0);
  if (in->type != o->type || (in->type != TFLC_INT8 && in->type != TFLC_INT16 &&
                              in->type != TFLC_FLOAT32))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d -> %d unsupported",
                        in->type, o->type);
  if (!ax || ax->type != TFLC_INT32 ||
      !tflc__const_ints(ax, axes, TFLC_MAX_DIMS * 2, &n))
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "axes must be a constant int32 vector", 0, 0);
  for (i = 0; i < n; i++) {
    const int32_t a = axes[i] < 0 ? axes[i] + in->rank : axes[i];
    if (a < 0 || a >= in->rank)
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "axis %d out of range", axes[i],
                          0);
    mask |= 1u << a;
  }
  for (i = 0; i < in->rank; i++)
    if (!(mask & (1u << i)))
      kept *= in->dims[i];
  if (tflc__count(o) != kept)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "output has %d elements, expected %d", tflc__count(o),
                        kept);
  s = TFLC__NEW_STATE(c, tflc__sum_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->mask = mask;
  if (in->type == TFLC_FLOAT32)
    return TFLC_OK;
  if (!tflc__is_quantized(in) || !tflc__is_quantized(o))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  tflc_quantize_multiplier((double)in->scale / (double)o->scale,
                           &s->p.multiplier, &s->p.shift);
  s->p.input_zp = in->zero_point;
  s->p.output_zp = o->zero_point;
  return TFLC_OK;
}

/* ARG_MAX / ARG_MIN geometry for axis value `axis`; 0 when inconsistent. */
static int tflc__arg_geometry(const tflc_tensor *in, const tflc_tensor *o,
                              int32_t axis, int32_t *outer, int32_t *size,
                              int32_t *inner) {
  int32_t i;
  if (axis < 0)
    axis += in->rank;
  if (axis < 0 || axis >= in->rank || o->rank != in->rank - 1)
    return 0;
  *outer = *inner = 1;
  for (i = 0; i < in->rank; i++) {
    if (i < axis) {
      if (o->dims[i] != in->dims[i])
        return 0;
      *outer *= in->dims[i];
    } else if (i > axis) {
      if (o->dims[i - 1] != in->dims[i])
        return 0;
      *inner *= in->dims[i];
    }
  }
  *size = in->dims[axis];
  return *size > 0;
}

static tflc_status tflc__arg_minmax_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *ax = tflc__in(c, 1), *o = tflc__out(c, 0);
  int32_t axis, n = 0, outer, size, inner;
  if (!in || !ax || !o || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs input, axis and output", 0,
                        0);
  if (in->type != TFLC_INT8 && in->type != TFLC_FLOAT32)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "input type %d unsupported",
                        in->type, 0);
  if (o->type != TFLC_INT32 || ax->type != TFLC_INT32)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "output type %d, axis type %d: only int32", o->type,
                        ax->type);
  if (tflc__count(ax) < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "empty axis", 0, 0);
  /* a constant axis is checked now; others at run */
  if (tflc__const_ints(ax, &axis, 1, &n) &&
      !tflc__arg_geometry(in, o, axis, &outer, &size, &inner))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "axis %d does not fit the shapes",
                        axis, 0);
  return TFLC_OK;
}

/* QUANTIZE between integer types (not int8 -> int8, which the built-in
 * table handles); 0 = not ours. */
static int tflc__requantize_pair(const tflc_tensor *in, const tflc_tensor *o) {
  const int it = in->type, ot = o->type;
  return (it == TFLC_INT16 && ot == TFLC_INT8) ||
         (it == TFLC_INT8 && ot == TFLC_UINT8) ||
         (it == TFLC_UINT8 && ot == TFLC_INT8) ||
         (it == TFLC_INT8 && ot == TFLC_INT16) ||
         (it == TFLC_INT8 && ot == TFLC_INT32) ||
         (it == TFLC_INT16 && ot == TFLC_INT16) ||
         (it == TFLC_INT16 && ot == TFLC_INT32) ||
         (it == TFLC_INT32 && ot == TFLC_INT8) ||
         (it == TFLC_INT32 && ot == TFLC_INT16);
}

static tflc_status tflc__requantize_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__requant_state *s;
  if (tflc__count(in) != tflc__count(o))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input and output sizes differ", 0,
                        0);
  if (o->nscales != 1 || !tflc__is_quantized(o) || !tflc__is_quantized(in))
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "needs quantized tensors, one output scale", 0, 0);
  s = TFLC__NEW_STATE(c, tflc__requant_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  tflc_quantize_multiplier((double)in->scale / (double)o->scale, &s->q,
                           &s->shift);
  return TFLC_OK;
}

/* ---- run ---------------------------------------------------------------- */

/* The float32 cases of tflc__elementwise_invoke (both input and output
 * float32): 1 when this op's code is one of them (the output written),
 * 0 for the others (SUM, ARG_MAX, ...: the typed path decides). The
 * binary ones read the broadcast shapes rank, d1, d2, d0. */
static int tflc__elementwise_f32(const tflc__ctx *c, const tflc_tensor *in,
                                 const tflc_tensor *in2, const tflc_tensor *o,
                                 int32_t n, int32_t rank, const int32_t *d1,
                                 const int32_t *d2, const int32_t *d0) {
  const tflc__f32_pair_state *f = (const tflc__f32_pair_state *)c->op->state;
  const float *x = (const float *)in->data;
  float *y = (float *)o->data;
  switch (c->op->code) {
  case TFLC_OP_MUL:
  case TFLC_OP_SUB:
    tflc_mul_sub_f32(c->op->code == TFLC_OP_SUB, f->a, f->b, rank, d1, x, d2,
                     (const float *)in2->data, d0, y);
    return 1;
  case TFLC_OP_PRELU:
    tflc_prelu_f32(rank, d1, x, d2, (const float *)in2->data, d0, y);
    return 1;
  case TFLC_OP_RELU:
    tflc_unary_f32(TFLC_F32_RELU, 0.0f, n, x, y);
    return 1;
  case TFLC_OP_RELU6:
    tflc_unary_f32(TFLC_F32_RELU6, 0.0f, n, x, y);
    return 1;
  case TFLC_OP_LEAKY_RELU:
    tflc_unary_f32(TFLC_F32_LEAKY_RELU, f->a, n, x, y);
    return 1;
  case TFLC_OP_LOGISTIC:
    tflc_unary_f32(TFLC_F32_LOGISTIC, 0.0f, n, x, y);
    return 1;
  case TFLC_OP_TANH:
    tflc_unary_f32(TFLC_F32_TANH, 0.0f, n, x, y);
    return 1;
  case TFLC_OP_HARD_SWISH:
    tflc_unary_f32(TFLC_F32_HARD_SWISH, 0.0f, n, x, y);
    return 1;
  case TFLC_OP_L2_NORMALIZATION:
  case TFLC_OP_LOG_SOFTMAX: {
    const int32_t depth = in->dims[in->rank - 1];
    if (c->op->code == TFLC_OP_L2_NORMALIZATION)
      tflc_l2_normalization_f32(depth ? n / depth : 0, depth, x, y);
    else
      tflc_log_softmax_f32(depth ? n / depth : 0, depth, x, y);
    return 1;
  }
  }
  return 0;
}

static tflc_status tflc__elementwise_invoke(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *in2 = tflc__in(c, 1), *o = tflc__out(c, 0);
  const void *s = c->op->state;
  int32_t d1[TFLC_MAX_DIMS], d2[TFLC_MAX_DIMS], d0[TFLC_MAX_DIMS], rank = 0;
  const int32_t n = tflc__count(in);
  switch (c->op->code) {
  case TFLC_OP_MUL:
  case TFLC_OP_ADD:
  case TFLC_OP_SUB:
  case TFLC_OP_PRELU:
  case TFLC_OP_MAXIMUM:
  case TFLC_OP_MINIMUM:
  case TFLC_OP_LESS:
  case TFLC_OP_LESS_EQUAL:
  case TFLC_OP_GREATER:
  case TFLC_OP_GREATER_EQUAL:
  case TFLC_OP_EQUAL:
  case TFLC_OP_NOT_EQUAL:
    if (!tflc__binary_shapes(c, d1, d2, d0, &rank))
      return TFLC_ERR_KERNEL;
    break;
  }
  if (o->type == TFLC_FLOAT32 && in->type == TFLC_FLOAT32 &&
      tflc__elementwise_f32(c, in, in2, o, n, rank, d1, d2, d0))
    return TFLC_OK;
  switch (c->op->code) {
  case TFLC_OP_LOGISTIC:
    tflc_logistic_s8((const tflc_sigmoid_params *)s, n,
                     (const int8_t *)in->data, (int8_t *)o->data);
    break;
  case TFLC_OP_TANH:
    tflc_tanh_s8((const tflc_sigmoid_params *)s, n, (const int8_t *)in->data,
                 (int8_t *)o->data);
    break;
  case TFLC_OP_MUL:
    tflc_mul_q((const tflc_mul_params *)s, tflc__int_width(o), rank, d1,
               in->data, d2, in2->data, d0, o->data);
    break;
  case TFLC_OP_ADD:
  case TFLC_OP_SUB:
    tflc_add_sub_q((const tflc_add_params *)s, c->op->code == TFLC_OP_SUB,
                   tflc__int_width(o), rank, d1, in->data, d2, in2->data, d0,
                   o->data);
    break;
  case TFLC_OP_L2_NORMALIZATION: {
    const int32_t depth = in->dims[in->rank - 1];
    tflc_l2_normalization_s8(in->zero_point, depth ? n / depth : 0, depth,
                             (const int8_t *)in->data, (int8_t *)o->data);
    break;
  }
  case TFLC_OP_LOG_SOFTMAX: {
    const int32_t depth = in->dims[in->rank - 1];
    tflc_log_softmax_s8((const tflc_log_softmax_params *)s,
                        depth ? n / depth : 0, depth, (const int8_t *)in->data,
                        (int8_t *)o->data);
    break;
  }
  case TFLC_OP_LEAKY_RELU:
    tflc_leaky_relu_q((const tflc_leaky_relu_params *)s, tflc__int_width(in), n,
                      in->data, o->data);
    break;
  case TFLC_OP_HARD_SWISH:
    tflc_hard_swish_s8((const tflc_hard_swish_params *)s, n,
                       (const int8_t *)in->data, (int8_t *)o->data);
    break;
  case TFLC_OP_PRELU:
    tflc_prelu_q((const tflc_prelu_params *)s, tflc__int_width(in), 1, rank, d1,
                 in->data, d2, in2->data, d0, o->data);
    break;
  case TFLC_OP_RELU:
  case TFLC_OP_RELU6:
    tflc_relu_q((const tflc_relu_params *)s, tflc__int_width(in), n, in->data,
                o->data);
    break;
  case TFLC_OP_MAXIMUM:
  case TFLC_OP_MINIMUM:
    tflc_maximum_minimum(in->type, c->op->code == TFLC_OP_MAXIMUM, rank, d1,
                         in->data, d2, in2->data, d0, o->data);
    break;
  case TFLC_OP_LESS:
  case TFLC_OP_LESS_EQUAL:
  case TFLC_OP_GREATER:
  case TFLC_OP_GREATER_EQUAL:
  case TFLC_OP_EQUAL:
  case TFLC_OP_NOT_EQUAL:
    tflc_compare(in->type, tflc__compare_kind(c->op->code),
                 (const tflc_cmp_params *)s, rank, d1, in->data, d2, in2->data,
                 d0, (uint8_t *)o->data);
    break;
  case TFLC_OP_SUM: {
    const tflc__sum_state *ss = (const tflc__sum_state *)s;
    if (in->type == TFLC_FLOAT32)
      tflc_sum_f32(in->rank, in->dims, ss->mask, (const float *)in->data,
                   (float *)o->data);
    else
      tflc_sum_q(&ss->p, tflc__int_width(in), in->rank, in->dims, ss->mask,
                 in->data, o->data);
    break;
  }
  case TFLC_OP_ARG_MAX:
  case TFLC_OP_ARG_MIN: {
    int32_t outer, size, inner, axis;
    memcpy(&axis, in2->data, 4);
    if (!tflc__arg_geometry(in, o, axis, &outer, &size, &inner))
      return tflc__op_err(c, TFLC_ERR_KERNEL, "axis %d does not fit the shapes",
                          axis, 0);
    tflc_arg_min_max(in->type, c->op->code == TFLC_OP_ARG_MAX, outer, size,
                     inner, in->data, (int32_t *)o->data);
    break;
  }
  case TFLC_OP_QUANTIZE: {
    const tflc__requant_state *qs = (const tflc__requant_state *)s;
    tflc_requantize(in->type, o->type, qs->q, qs->shift, in->zero_point,
                    o->zero_point, n, in->data, o->data);
    break;
  }
  case TFLC_OP_DEQUANTIZE:
    tflc_dequantize_u8_f32(in->scale, in->zero_point, n,
                           (const uint8_t *)in->data, (float *)o->data);
    break;
  default:
    return TFLC_ERR_UNSUPPORTED;
  }
  return TFLC_OK;
}

/* ---- element-wise math, logic, casts, more pool and reduction types ----- */
/* ABS, CEIL, COS, ELU, EXP, FLOOR, LOG, NEG, ROUND, RSQRT, SIN, SQRT,
 * SQUARE, LOGICAL_NOT (unary); DIV, FLOOR_DIV, FLOOR_MOD,
 * SQUARED_DIFFERENCE, LOGICAL_AND, LOGICAL_OR and int32 ADD / SUB / MUL
 * (binary); ADD_N, CAST, SELECT_V2, CUMSUM; int16 LOGISTIC / TANH /
 * SOFTMAX; float32 and int16 AVERAGE_POOL_2D / MAX_POOL_2D, L2_POOL_2D;
 * float32 / int16 MEAN, REDUCE_MAX, REDUCE_MIN, REDUCE_ALL. Operators
 * that already ran in other types keep their functions; the *_any_*
 * functions below pick by type and note the choice in op->variant. */

typedef struct tflc__i32_range_state {
  int32_t lo, hi; /* int32 fused activation range */
} tflc__i32_range_state;

static int tflc__math_fn(int32_t code) {
  switch (code) {
  case TFLC_OP_ABS:
    return TFLC_MATH_ABS;
  case TFLC_OP_CEIL:
    return TFLC_MATH_CEIL;
  case TFLC_OP_COS:
    return TFLC_MATH_COS;
  case TFLC_OP_ELU:
    return TFLC_MATH_ELU;
  case TFLC_OP_EXP:
    return TFLC_MATH_EXP;
  case TFLC_OP_FLOOR:
    return TFLC_MATH_FLOOR;
  case TFLC_OP_LOG:
    return TFLC_MATH_LOG;
  case TFLC_OP_NEG:
    return TFLC_MATH_NEG;
  case TFLC_OP_ROUND:
    return TFLC_MATH_ROUND;
  case TFLC_OP_RSQRT:
    return TFLC_MATH_RSQRT;
  case TFLC_OP_SIN:
    return TFLC_MATH_SIN;
  case TFLC_OP_SQRT:
    return TFLC_MATH_SQRT;
  default:
    return TFLC_MATH_SQUARE;
  }
}

/* int32 CalculateActivationRange (act 0..3 as the schema). */
static void tflc__activation_range_i32(int32_t act, int32_t *lo, int32_t *hi) {
  *lo = act == 1 || act == 3 ? 0 : act == 2 ? -1 : INT32_MIN;
  *hi = act == 3 ? 6 : act == 2 ? 1 : INT32_MAX;
}

static tflc_status tflc__math_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  const int32_t code = c->op->code;
  tflc_status st = tflc__check_unary(c);
  if (st != TFLC_OK)
    return st;
  if (c->op->nin != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs one input", 0, 0);
  /* CEIL, EXP, ROUND check the shapes too */
  if ((code == TFLC_OP_CEIL || code == TFLC_OP_EXP || code == TFLC_OP_ROUND) &&
      !tflc__same_shape(in, o))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input and output shapes differ", 0,
                        0);
  if (code == TFLC_OP_LOGICAL_NOT) {
    if (in->type != TFLC_BOOL)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d, expected bool",
                          in->type, 0);
    return TFLC_OK;
  }
  if (in->type == TFLC_FLOAT32)
    return TFLC_OK;
  if ((code == TFLC_OP_ABS && tflc__int_width(in)) ||
      (code == TFLC_OP_RSQRT && in->type == TFLC_INT8)) {
    tflc_abs_rsqrt_params *s = TFLC__NEW_STATE(c, tflc_abs_rsqrt_params);
    if (!s)
      return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
    if (in->type == TFLC_INT16 && !tflc__is_quantized(in) &&
        code == TFLC_OP_ABS) {
      s->plain = 1; /* int16 without quantization: plain abs */
      return TFLC_OK;
    }
    if (!tflc__is_quantized(in) || !tflc__is_quantized(o))
      return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
    if (in->type == TFLC_INT16 && (in->zero_point || o->zero_point))
      return tflc__op_err(c, TFLC_ERR_QUANT, "int16 zero points must be 0", 0,
                          0);
    tflc_abs_rsqrt_prepare(code == TFLC_OP_RSQRT, in->scale, in->zero_point,
                           o->scale, o->zero_point, s);
    return TFLC_OK;
  }
  if (code == TFLC_OP_ELU && in->type == TFLC_INT8) {
    int8_t *table = (int8_t *)tflc__new_state(c, 256, 256);
    if (!table)
      return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
    tflc_elu_table_s8(in->scale, in->zero_point, o->scale, o->zero_point,
                      table);
    return TFLC_OK;
  }
  return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported", in->type,
                      0);
}
static tflc_status tflc__math_invoke(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  const int32_t n = tflc__count(in), code = c->op->code;
  if (code == TFLC_OP_LOGICAL_NOT) {
    tflc_logical_not(n, (const uint8_t *)in->data, (uint8_t *)o->data);
  } else if (in->type == TFLC_FLOAT32) {
    tflc_math_f32(tflc__math_fn(code), n, (const float *)in->data,
                  (float *)o->data);
  } else if (code == TFLC_OP_ELU) {
    tflc_lut_s8((const int8_t *)c->op->state, n, (const int8_t *)in->data,
                (int8_t *)o->data);
  } else if (code == TFLC_OP_ABS) {
    tflc_abs_q((const tflc_abs_rsqrt_params *)c->op->state, tflc__int_width(in),
               n, in->data, o->data);
  } else if (tflc_rsqrt_q((const tflc_abs_rsqrt_params *)c->op->state,
                          tflc__int_width(in), n, in->data, o->data) != 0) {
    return tflc__op_err(c, TFLC_ERR_KERNEL,
                        "input below the zero point (negative)", 0, 0);
  }
  return TFLC_OK;
}

/* ---- binary: DIV, FLOOR_DIV, FLOOR_MOD, SQUARED_DIFFERENCE, int32 ------- */
static int tflc__arith_fn(int32_t code) {
  switch (code) {
  case TFLC_OP_ADD:
    return TFLC_ARITH_ADD;
  case TFLC_OP_SUB:
    return TFLC_ARITH_SUB;
  case TFLC_OP_MUL:
    return TFLC_ARITH_MUL;
  case TFLC_OP_DIV:
    return TFLC_ARITH_DIV;
  case TFLC_OP_FLOOR_DIV:
    return TFLC_ARITH_FLOOR_DIV;
  case TFLC_OP_FLOOR_MOD:
    return TFLC_ARITH_FLOOR_MOD;
  default:
    return TFLC_ARITH_SQUARED_DIFFERENCE;
  }
}

static tflc_status tflc__arith_prepare(tflc__ctx *c) {
  tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1), *o = tflc__out(c, 0);
  const int32_t code = c->op->code;
  int32_t act = 0; /* ADD int32 and the others have no fused activation */
  tflc_status st = tflc__check_binary(c);
  if (st != TFLC_OK)
    return st;
  if (code == TFLC_OP_SUB) {
    tflc__add_sub_options so;
    tflc__read_add_sub_options(c->m, c->op->opts, &so);
    act = so.fused_activation_function;
  } else if (code == TFLC_OP_MUL || code == TFLC_OP_DIV) {
    tflc__activation_only_options mo; /* MulOptions, DivOptions */
    tflc__read_activation_only_options(c->m, c->op->opts, &mo);
    act = mo.fused_activation_function;
  }
  if (c->op->nin != 2)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs two inputs", 0, 0);
  if (a->type != o->type)
    return tflc__op_err(c, TFLC_ERR_TYPE, "input type %d, output type %d",
                        a->type, o->type);
  if (a->type == TFLC_FLOAT32 && code != TFLC_OP_ADD && code != TFLC_OP_SUB &&
      code != TFLC_OP_MUL)
    return tflc__binary_f32_prepare(c, act);
  if (a->type == TFLC_INT32 &&
      (code == TFLC_OP_ADD || code == TFLC_OP_SUB || code == TFLC_OP_MUL ||
       code == TFLC_OP_DIV || code == TFLC_OP_SQUARED_DIFFERENCE)) {
    tflc__i32_range_state *s = TFLC__NEW_STATE(c, tflc__i32_range_state);
    if (!s)
      return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
    if (code == TFLC_OP_DIV && (tflc__is_quantized(a) || tflc__is_quantized(b)))
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "int32 inputs must not be quantized", 0, 0);
    tflc__activation_range_i32(act, &s->lo, &s->hi);
    return TFLC_OK;
  }
  if (code == TFLC_OP_DIV && a->type == TFLC_INT8) {
    tflc_div_params *s = TFLC__NEW_STATE(c, tflc_div_params);
    if (!s)
      return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
    if (!tflc__is_quantized(a) || !tflc__is_quantized(b) ||
        !tflc__is_quantized(o))
      return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
    tflc_activation_range_quantized(act, o->scale, o->zero_point, -128, 127,
                                    &s->act_min, &s->act_max);
    tflc_quantize_multiplier((double)(a->scale / (b->scale * o->scale)),
                             &s->multiplier, &s->shift);
    s->input1_offset = -a->zero_point;
    s->input2_offset = -b->zero_point;
    s->output_offset = o->zero_point;
    return TFLC_OK;
  }
  if (code == TFLC_OP_SQUARED_DIFFERENCE && tflc__int_width(a)) {
    const int w = tflc__int_width(a);
    tflc_add_params *s = TFLC__NEW_STATE(c, tflc_add_params);
    if (!s)
      return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
    if (w == 2 && (a->zero_point || b->zero_point || o->zero_point))
      return tflc__op_err(c, TFLC_ERR_QUANT, "int16 zero points must be 0", 0,
                          0);
    if (!tflc__is_quantized(a) || !tflc__is_quantized(b) ||
        !tflc__is_quantized(o) ||
        !tflc_squared_difference_prepare(a->scale, a->zero_point, b->scale,
                                         b->zero_point, o->scale, o->zero_point,
                                         w, s))
      return tflc__op_err(c, TFLC_ERR_QUANT, "bad input scales", 0, 0);
    return TFLC_OK;
  }
  return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported", a->type,
                      0);
}
static tflc_status tflc__arith_invoke(tflc__ctx *c) {
  tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1), *o = tflc__out(c, 0);
  int32_t d1[TFLC_MAX_DIMS], d2[TFLC_MAX_DIMS], d0[TFLC_MAX_DIMS], rank = 0;
  const int fn = tflc__arith_fn(c->op->code);
  int bad = 0;
  if (!tflc__binary_shapes(c, d1, d2, d0, &rank))
    return TFLC_ERR_KERNEL;
  if (a->type == TFLC_FLOAT32) {
    const tflc__f32_pair_state *s = (const tflc__f32_pair_state *)c->op->state;
    tflc_arith_f32(fn, s->a, s->b, rank, d1, (const float *)a->data, d2,
                   (const float *)b->data, d0, (float *)o->data);
  } else if (a->type == TFLC_INT32) {
    const tflc__i32_range_state *s =
        (const tflc__i32_range_state *)c->op->state;
    bad = tflc_arith_i32(fn, s->lo, s->hi, rank, d1, (const int32_t *)a->data,
                         d2, (const int32_t *)b->data, d0, (int32_t *)o->data);
  } else if (c->op->code == TFLC_OP_DIV) {
    bad = tflc_div_s8((const tflc_div_params *)c->op->state, rank, d1,
                      (const int8_t *)a->data, d2, (const int8_t *)b->data, d0,
                      (int8_t *)o->data);
  } else {
    tflc_squared_difference_q((const tflc_add_params *)c->op->state,
                              tflc__int_width(a), rank, d1, a->data, d2,
                              b->data, d0, o->data);
  }
  if (bad)
    return tflc__op_err(c, TFLC_ERR_KERNEL, "division by zero", 0, 0);
  return TFLC_OK;
}

/* FLOOR_DIV refuses a zero divisor before running (as TFLM). */
static tflc_status tflc__floor_div_invoke(tflc__ctx *c) {
  const tflc_tensor *b = tflc__in(c, 1);
  const int32_t n = tflc__count(b);
  int32_t i;
  for (i = 0; i < n; ++i)
    if (((const float *)b->data)[i] == 0.0f)
      return tflc__op_err(c, TFLC_ERR_KERNEL, "division by zero", 0, 0);
  return tflc__arith_invoke(c);
}

/* ADD, SUB, MUL: int32 here, other types where they were. */
static tflc_status tflc__add_prepare(tflc__ctx *c);
static tflc_status tflc__add_invoke(tflc__ctx *c);
static int tflc__is_int32_op(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  return in && in->type == TFLC_INT32;
}
static tflc_status tflc__add_any_prepare(tflc__ctx *c) {
  if (tflc__is_int32_op(c)) {
    c->op->variant = 2;
    return tflc__arith_prepare(c);
  }
  return tflc__add_prepare(c);
}
static tflc_status tflc__add_any_invoke(tflc__ctx *c) {
  return c->op->variant == 2 ? tflc__arith_invoke(c) : tflc__add_invoke(c);
}
static tflc_status tflc__mul_sub_any_prepare(tflc__ctx *c) {
  if (tflc__is_int32_op(c)) {
    c->op->variant = 2;
    return tflc__arith_prepare(c);
  }
  return c->op->code == TFLC_OP_MUL ? tflc__mul_prepare(c)
                                    : tflc__addsub_q_prepare(c);
}
static tflc_status tflc__mul_sub_any_invoke(tflc__ctx *c) {
  return c->op->variant == 2 ? tflc__arith_invoke(c)
                             : tflc__elementwise_invoke(c);
}

/* ---- LOGICAL_AND / LOGICAL_OR ------------------------------------------- */
static tflc_status tflc__logical_prepare(tflc__ctx *c) {
  const tflc_tensor *a = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_status st = tflc__check_binary(c);
  if (st != TFLC_OK)
    return st;
  if (a->type != TFLC_BOOL || o->type != TFLC_BOOL)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "types %d -> %d, expected bool", a->type, o->type);
  return TFLC_OK;
}
static tflc_status tflc__logical_invoke(tflc__ctx *c) {
  tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1), *o = tflc__out(c, 0);
  int32_t d1[TFLC_MAX_DIMS], d2[TFLC_MAX_DIMS], d0[TFLC_MAX_DIMS], rank = 0;
  if (!tflc__binary_shapes(c, d1, d2, d0, &rank))
    return TFLC_ERR_KERNEL;
  tflc_logical(c->op->code == TFLC_OP_LOGICAL_OR, rank, d1,
               (const uint8_t *)a->data, d2, (const uint8_t *)b->data, d0,
               (uint8_t *)o->data);
  return TFLC_OK;
}

/* ---- ADD_N -------------------------------------------------------------- */
static tflc_status tflc__add_n_prepare(tflc__ctx *c) {
  tflc_tensor *a = tflc__in(c, 0), *o = tflc__out(c, 0);
  int32_t k, idx;
  if (!a || !o || c->op->nin < 2 || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs two inputs or more", 0, 0);
  if (o->type != a->type || (a->type != TFLC_FLOAT32 && a->type != TFLC_INT8))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d -> %d unsupported",
                        a->type, o->type);
  if (tflc__count(a) != tflc__count(o))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input and output sizes differ", 0,
                        0);
  for (k = 1; k < c->op->nin; ++k) {
    const tflc_tensor *b = tflc__in(c, k);
    if (!b || !tflc__same_shape(a, b) || b->type != a->type)
      return tflc__op_err(c, TFLC_ERR_SHAPE,
                          "input %d differs from input 0 in shape or type", k,
                          0);
    if (a->type == TFLC_INT8 &&
        (b->zero_point != a->zero_point || b->scale != a->scale))
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "input %d quantized unlike input 0", k, 0);
  }
  if (a->type == TFLC_INT8) {
    tflc_add_params *s = TFLC__NEW_STATE(c, tflc_add_params);
    if (!s)
      return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
    if (!tflc__is_quantized(a) || !tflc__is_quantized(o) ||
        !tflc_add_n_prepare_s8(a->scale, a->zero_point, o->scale, o->zero_point,
                               s))
      return tflc__op_err(c, TFLC_ERR_QUANT, "bad scales", 0, 0);
  }
  /* the input pointers, in an arena scratch buffer (as TFLM); 8 bytes
   * each whatever the pointer size, so 32- and 64-bit targets plan alike
   * (tflc_arena_used_for) */
  idx = tflc__scratch(c, (uintptr_t)c->op->nin * 8u);
  if (idx < 0)
    return tflc__scratch_err(c);
  c->op->variant = (uint8_t)idx;
  return TFLC_OK;
}
static tflc_status tflc__add_n_invoke(tflc__ctx *c) {
  tflc_tensor *o = tflc__out(c, 0);
  const void **inputs = (const void **)c->op->scratch[c->op->variant];
  int32_t k;
  for (k = 0; k < c->op->nin; ++k)
    inputs[k] = tflc__in(c, k)->data;
  if (o->type == TFLC_FLOAT32)
    tflc_add_n_f32(c->op->nin, (const float *const *)inputs, tflc__count(o),
                   (float *)o->data);
  else
    tflc_add_n_s8((const tflc_add_params *)c->op->state, c->op->nin,
                  (const int8_t *const *)inputs, tflc__count(o),
                  (int8_t *)o->data);
  return TFLC_OK;
}

/* ---- CAST --------------------------------------------------------------- */
static tflc_status tflc__cast_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  if (!in || !o || c->op->nin != 1 || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs one input and one output", 0,
                        0);
  if (tflc__count(in) != tflc__count(o))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input and output sizes differ", 0,
                        0);
  /* a zero-element probe tells which pairs the kernel converts */
  if (tflc_cast(in->type, o->type, 0, NULL, NULL) != 0)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d -> %d unsupported",
                        in->type, o->type);
  return TFLC_OK;
}
static tflc_status tflc__cast_invoke(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  (void)tflc_cast(in->type, o->type, tflc__count(in), in->data, o->data);
  return TFLC_OK;
}

/* ---- SELECT_V2 ---------------------------------------------------------- */
/* The three inputs right-aligned to the output's rank; 0 when they do not
 * broadcast to it (TFLM's CheckBroadcastShape). All-scalar selects count
 * as rank 1. */
static int tflc__select_shapes(tflc__ctx *c, int32_t dims[3][TFLC_MAX_DIMS],
                               int32_t *d0, int32_t *rank) {
  const tflc_tensor *o = tflc__out(c, 0);
  int32_t r = o->rank, i, k;
  if (r == 0) {
    for (k = 0; k < 3; ++k)
      if (tflc__count(tflc__in(c, k)) != 1)
        return 0;
    dims[0][0] = dims[1][0] = dims[2][0] = d0[0] = 1;
    *rank = 1;
    return 1;
  }
  for (i = 0; i < r; ++i) {
    int32_t mx = 1, mn = INT32_MAX;
    for (k = 0; k < 3; ++k) {
      const tflc_tensor *t = tflc__in(c, k);
      const int32_t j = i - (r - t->rank);
      if (t->rank > r)
        return 0;
      dims[k][i] = j >= 0 ? t->dims[j] : 1;
      mx = dims[k][i] > mx ? dims[k][i] : mx;
      mn = dims[k][i] < mn ? dims[k][i] : mn;
    }
    if (mn == 0)
      mx = 0;
    for (k = 0; k < 3; ++k)
      if (dims[k][i] != 1 && dims[k][i] != mx)
        return 0;
    if (o->dims[i] != mx)
      return 0;
    d0[i] = mx;
  }
  *rank = r;
  return 1;
}
static tflc_status tflc__select_prepare(tflc__ctx *c) {
  tflc_tensor *cond = tflc__in(c, 0), *x = tflc__in(c, 1), *y = tflc__in(c, 2),
              *o = tflc__out(c, 0);
  int32_t dims[3][TFLC_MAX_DIMS], d0[TFLC_MAX_DIMS], rank;
  if (!cond || !x || !y || !o || c->op->nin != 3 || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs three inputs, one output", 0,
                        0);
  if (cond->type != TFLC_BOOL)
    return tflc__op_err(c, TFLC_ERR_TYPE, "condition type %d, expected bool",
                        cond->type, 0);
  if (x->type != y->type || o->type != x->type ||
      (x->type != TFLC_FLOAT32 && x->type != TFLC_INT8 &&
       x->type != TFLC_INT16))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d, %d unsupported",
                        x->type, y->type);
  if (!tflc__select_shapes(c, dims, d0, &rank))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "shapes do not broadcast", 0, 0);
  return TFLC_OK;
}
static tflc_status tflc__select_invoke(tflc__ctx *c) {
  tflc_tensor *cond = tflc__in(c, 0), *x = tflc__in(c, 1), *y = tflc__in(c, 2),
              *o = tflc__out(c, 0);
  int32_t dims[3][TFLC_MAX_DIMS], d0[TFLC_MAX_DIMS], rank = 0;
  if (!tflc__select_shapes(c, dims, d0, &rank))
    return TFLC_ERR_KERNEL;
  tflc_select(tflc_type_size(x->type), rank, dims[0],
              (const uint8_t *)cond->data, dims[1], x->data, dims[2], y->data,
              d0, o->data);
  return TFLC_OK;
}

/* ---- CUMSUM ------------------------------------------------------------- */
static tflc_status tflc__cumsum_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *ax = tflc__in(c, 1), *o = tflc__out(c, 0);
  if (!in || !ax || !o || c->op->nin != 2 || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs input, axis and output", 0,
                        0);
  if ((in->type != TFLC_FLOAT32 && in->type != TFLC_INT8) ||
      o->type != in->type)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d -> %d unsupported",
                        in->type, o->type);
  if (ax->type != TFLC_INT32 || tflc__count(ax) != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "axis must be one int32", 0, 0);
  if (in->rank < 1 || !tflc__same_shape(in, o))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input and output shapes differ", 0,
                        0);
  if (in->type == TFLC_INT8) {
    tflc_add_params *s = TFLC__NEW_STATE(c, tflc_add_params);
    if (!s)
      return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
    if (!tflc__is_quantized(in) || !tflc__is_quantized(o) ||
        !tflc_add_n_prepare_s8(in->scale, in->zero_point, o->scale,
                               o->zero_point, s))
      return tflc__op_err(c, TFLC_ERR_QUANT, "bad scales", 0, 0);
  }
  return TFLC_OK;
}
static tflc_status tflc__cumsum_invoke(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *ax = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__cumsum_options co;
  int exclusive, reverse;
  int32_t axis;
  tflc__read_cumsum_options(c->m, c->op->opts, &co);
  exclusive = co.exclusive;
  reverse = co.reverse;
  memcpy(&axis, ax->data, 4);
  if (axis < 0)
    axis += in->rank;
  if (axis < 0 || axis >= in->rank)
    return tflc__op_err(c, TFLC_ERR_KERNEL, "axis %d out of range", axis, 0);
  if (in->type == TFLC_FLOAT32)
    tflc_cumsum_f32(in->rank, in->dims, axis, exclusive, reverse,
                    (const float *)in->data, (float *)o->data);
  else
    tflc_cumsum_s8((const tflc_add_params *)c->op->state, in->rank, in->dims,
                   axis, exclusive, reverse, (const int8_t *)in->data,
                   (int8_t *)o->data);
  return TFLC_OK;
}

/* ---- int16 LOGISTIC / TANH, int16 SOFTMAX ------------------------------- */
static tflc_status tflc__sigmoid_any_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__requant_state *s;
  int32_t l2;
  tflc_status st;
  if (!in || in->type != TFLC_INT16)
    return tflc__sigmoid_prepare(c);
  c->op->variant = 1;
  st = tflc__check_unary(c);
  if (st != TFLC_OK)
    return st;
  if (in->zero_point || o->zero_point)
    return tflc__op_err(c, TFLC_ERR_QUANT, "int16 zero points must be 0", 0, 0);
  if (!tflc_checked_log2(o->scale, &l2) || l2 != -15)
    return tflc__op_err(c, TFLC_ERR_QUANT, "int16 output scale must be 2^-15",
                        0, 0);
  s = TFLC__NEW_STATE(c, tflc__requant_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  tflc_sigmoid_prepare_s16(c->op->code == TFLC_OP_TANH, in->scale, &s->q,
                           &s->shift);
  return TFLC_OK;
}
static tflc_status tflc__sigmoid_any_invoke(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  const tflc__requant_state *s = (const tflc__requant_state *)c->op->state;
  if (!c->op->variant)
    return tflc__elementwise_invoke(c);
  if (c->op->code == TFLC_OP_TANH)
    tflc_tanh_s16(s->q, s->shift, tflc__count(in), (const int16_t *)in->data,
                  (int16_t *)o->data);
  else
    tflc_logistic_s16(s->q, s->shift, tflc__count(in),
                      (const int16_t *)in->data, (int16_t *)o->data);
  return TFLC_OK;
}

typedef struct tflc__softmax16_state {
  tflc_softmax_s16_params p;
  int32_t rows, depth;
} tflc__softmax16_state;
static tflc_status tflc__softmax_any_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__softmax16_state *s;
  tflc__softmax_options so;
  double d;
  if (!TFLC__S16 || !in || !o || in->type != TFLC_INT16)
    return tflc__softmax_prepare(c);
  c->op->variant = 1;
  if (!tflc__same_shape(in, o) || in->rank < 1 || o->type != TFLC_INT16)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "output must be int16 of the input's shape", 0, 0);
  d = (double)o->scale * 32768.0 - 1.0;
  if (in->zero_point || o->zero_point || d > 0.001 || d < -0.001)
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "int16 needs zero points 0, output scale 1/32768", 0,
                        0);
  s = TFLC__NEW_STATE(c, tflc__softmax16_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->depth = in->dims[in->rank - 1];
  s->rows = s->depth ? tflc__count(in) / s->depth : 0;
  tflc__read_softmax_options(c->m, c->op->opts, &so);
  tflc_softmax_prepare_s16(so.beta, in->scale, &s->p);
  return TFLC_OK;
}
static tflc_status tflc__softmax_any_invoke(tflc__ctx *c) {
  const tflc__softmax16_state *s = (const tflc__softmax16_state *)c->op->state;
  if (!TFLC__S16 || !c->op->variant)
    return tflc__softmax_invoke(c);
  tflc_softmax_s16(&s->p, s->rows, s->depth,
                   (const int16_t *)tflc__in(c, 0)->data,
                   (int16_t *)tflc__out(c, 0)->data);
  return TFLC_OK;
}

/* ---- float32 / int16 pools, L2_POOL_2D ---------------------------------- */
static tflc_status tflc__pool_any_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__pool2d_options po;
  const int l2 = c->op->code == TFLC_OP_L2_POOL_2D;
  tflc__pool_wide_state *s;
  int32_t same, oh, ow, act;
  if (!l2 && in && in->type == TFLC_INT8)
    return tflc__pool_prepare(c);
  if (!TFLC__F32 && !TFLC__S16) /* L2_POOL_2D is float32 only */
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "needs 4-D int8 tensors", 0,
                        0);
  c->op->variant = 1;
  if (!in || !o || in->rank != 4 || o->rank != 4 || in->type != o->type ||
      (in->type != TFLC_FLOAT32 && (l2 || in->type != TFLC_INT16)))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "needs 4-D tensors of one supported type (%d)",
                        in ? in->type : -1, 0);
  if (in->type == TFLC_INT16) {
    if (tflc__scales_differ(in->scale, o->scale) ||
        in->zero_point != o->zero_point)
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "input and output quantization differ", 0, 0);
  }
  s = TFLC__NEW_STATE(c, tflc__pool_wide_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  tflc__read_pool2d_options(c->m, c->op->opts, &po);
  same = po.padding == 0;
  s->p.stride_w = po.stride_w;
  s->p.stride_h = po.stride_h;
  s->p.filter_w = po.filter_width;
  s->p.filter_h = po.filter_height;
  act = po.fused_activation_function;
  if (s->p.stride_w < 1 || s->p.stride_h < 1 || s->p.filter_w < 1 ||
      s->p.filter_h < 1 || s->p.stride_w > 65535 || s->p.stride_h > 65535 ||
      s->p.filter_w > 65535 || s->p.filter_h > 65535)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "bad stride %d or filter %d",
                        s->p.stride_w, s->p.filter_w);
  s->p.pad_h =
      tflc__pad_amount(same, in->dims[1], s->p.filter_h, s->p.stride_h, 1, &oh);
  s->p.pad_w =
      tflc__pad_amount(same, in->dims[2], s->p.filter_w, s->p.stride_w, 1, &ow);
  if (oh != o->dims[1] || ow != o->dims[2] || in->dims[0] != o->dims[0] ||
      in->dims[3] != o->dims[3])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output should be %dx%d", oh, ow);
  tflc_activation_range_f32(act, &s->fmin, &s->fmax);
  tflc_activation_range_quantized(act, o->scale, o->zero_point, -32768, 32767,
                                  &s->p.act_min, &s->p.act_max);
  return TFLC_OK;
}
static tflc_status tflc__pool_any_invoke(tflc__ctx *c) {
  const tflc__pool_wide_state *s = (const tflc__pool_wide_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  const int kind = c->op->code == TFLC_OP_AVERAGE_POOL_2D ? TFLC_POOL_AVERAGE
                   : c->op->code == TFLC_OP_MAX_POOL_2D   ? TFLC_POOL_MAX
                                                          : TFLC_POOL_L2;
  tflc_status st;
  if ((!TFLC__F32 && !TFLC__S16) || !c->op->variant)
    return tflc__pool_invoke(c);
  if (TFLC__F32 && (!TFLC__S16 || in->type == TFLC_FLOAT32))
    st = tflc_pool_f32(kind, &s->p, s->fmin, s->fmax, in->dims,
                       (const float *)in->data, o->dims, (float *)o->data);
  else
    st = tflc_pool_s16(kind, &s->p, in->dims, (const int16_t *)in->data,
                       o->dims, (int16_t *)o->data);
  if (st != TFLC_OK)
    return tflc__op_err(c, TFLC_ERR_KERNEL, "window without input", 0, 0);
  return TFLC_OK;
}

/* ---- MEAN (float32, int16), REDUCE_MAX, REDUCE_MIN, REDUCE_ALL ---------- */
typedef struct tflc__reduce_state {
  tflc_mean_params p;
  uint32_t mask;
} tflc__reduce_state;
static tflc_status tflc__reduce_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *ax = tflc__in(c, 1), *o = tflc__out(c, 0);
  const int32_t code = c->op->code;
  tflc__reduce_state *s;
  int32_t axes[TFLC_MAX_DIMS * 2], n = 0, i, kept = 1;
  uint32_t mask = 0;
  int ok;
  if (!in || !ax || !o || c->op->nin != 2 || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs input, axes and output", 0,
                        0);
  if (code == TFLC_OP_MEAN && in->type == TFLC_INT8)
    return tflc__mean_prepare(c);
  c->op->variant = 1;
  ok = in->type == o->type &&
       (code == TFLC_OP_REDUCE_ALL ? in->type == TFLC_BOOL
        : code == TFLC_OP_MEAN
            ? (in->type == TFLC_FLOAT32 || in->type == TFLC_INT16)
            : (in->type == TFLC_FLOAT32 || in->type == TFLC_INT8));
  if (!ok)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d -> %d unsupported",
                        in->type, o->type);
  if (ax->type != TFLC_INT32 ||
      !tflc__const_ints(ax, axes, TFLC_MAX_DIMS * 2, &n))
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "axes must be a constant int32 vector", 0, 0);
  for (i = 0; i < n; i++) {
    const int32_t a = axes[i] < 0 ? axes[i] + in->rank : axes[i];
    if (a < 0 || a >= in->rank)
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "axis %d out of range", axes[i],
                          0);
    mask |= 1u << a;
  }
  for (i = 0; i < in->rank; i++)
    if (!(mask & (1u << i)))
      kept *= in->dims[i];
  if (tflc__count(o) != kept)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "output has %d elements, expected %d", tflc__count(o),
                        kept);
  s = TFLC__NEW_STATE(c, tflc__reduce_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->mask = mask;
  if (in->type == TFLC_INT8 && ((double)in->scale != (double)o->scale ||
                                in->zero_point != o->zero_point))
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "input and output quantization differ", 0, 0);
  if (in->type == TFLC_INT16) {
    if (!tflc__is_quantized(in) || !tflc__is_quantized(o))
      return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
    tflc_quantize_multiplier((double)in->scale / (double)o->scale,
                             &s->p.multiplier, &s->p.shift);
    s->p.input_zp = in->zero_point;
    s->p.output_zp = o->zero_point;
  }
  return TFLC_OK;
}
static tflc_status tflc__reduce_invoke(tflc__ctx *c) {
  const tflc__reduce_state *s = (const tflc__reduce_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  if (!c->op->variant)
    return tflc__mean_invoke(c);
  switch (c->op->code) {
  case TFLC_OP_MEAN:
    if (in->type == TFLC_FLOAT32)
      tflc_mean_f32(in->rank, in->dims, s->mask, (const float *)in->data,
                    (float *)o->data);
    else
      tflc_mean_q(&s->p, 2, in->rank, in->dims, s->mask, in->data, o->data);
    break;
  case TFLC_OP_REDUCE_ALL:
    tflc_reduce_all(in->rank, in->dims, s->mask, (const uint8_t *)in->data,
                    (uint8_t *)o->data);
    break;
  default:
    tflc_reduce_minmax(in->type, c->op->code == TFLC_OP_REDUCE_MAX, in->rank,
                       in->dims, s->mask, in->data, o->data);
    break;
  }
  return TFLC_OK;
}

/* ======================================================================== */
/* Operators: data movement (PAD, TRANSPOSE, RESHAPE, CONCATENATION,        */
/* PACK, SPLIT, SPLIT_V, UNPACK, GATHER, SLICE, STRIDED_SLICE, PADV2,       */
/* SPACE_TO_DEPTH, DEPTH_TO_SPACE, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND,    */
/* RESIZE_*, SQUEEZE, EXPAND_DIMS, SHAPE, ZEROS_LIKE).                      */
/* ======================================================================== */
/* ---- PAD
 * ----------------------------------------------------------------------- */
static tflc_status tflc__pad_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *pd = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__pad_state *s;
  int32_t v[TFLC_MAX_DIMS * 2], n = 0, i;
  if (!in || !o || in->type != o->type)
    return tflc__op_err(c, TFLC_ERR_TYPE, "input and output types differ", 0,
                        0);
  if (!tflc__const_ints(pd, v, TFLC_MAX_DIMS * 2, &n) || n != 2 * in->rank ||
      o->rank != in->rank)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "paddings must be a constant [%d,2] tensor", in->rank,
                        0);
  s = (tflc__pad_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  for (i = 0; i < in->rank; i++) {
    s->before[i] = v[2 * i];
    s->after[i] = v[2 * i + 1];
    if (s->before[i] < 0 || s->after[i] < 0 ||
        (int64_t)in->dims[i] + s->before[i] + s->after[i] != o->dims[i])
      return tflc__op_err(c, TFLC_ERR_SHAPE, "padding of dim %d gives %d", i,
                          o->dims[i]);
  }
  if (in->type == TFLC_INT8 || in->type == TFLC_UINT8)
    s->value[0] = (uint8_t)(int8_t)o->zero_point;
  else if (in->type == TFLC_INT16) {
    int16_t z = (int16_t)o->zero_point;
    memcpy(s->value, &z, 2);
  } else if (tflc_type_size(in->type) == 0)
    return tflc__op_err(c, TFLC_ERR_TYPE, "type %d unsupported", in->type, 0);
  return TFLC_OK;
}
static tflc_status tflc__pad_invoke(tflc__ctx *c) {
  tflc__pad_state *s = (tflc__pad_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_pad(tflc_type_size(in->type), in->rank, in->dims, s->before, s->after,
           s->value, in->data, o->data);
  return TFLC_OK;
}

/* ---- TRANSPOSE
 * --------------------------------------------------------------------- */
static tflc_status tflc__transpose_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *pm = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__perm_state *s;
  int32_t v[TFLC_MAX_DIMS], n = 0, i;
  uint32_t seen = 0;
  if (!in || !o || in->type != o->type || tflc_type_size(in->type) == 0)
    return tflc__op_err(c, TFLC_ERR_TYPE, "input and output types differ", 0,
                        0);
  if (!tflc__const_ints(pm, v, TFLC_MAX_DIMS, &n) || n != in->rank ||
      o->rank != in->rank)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "perm must be a constant [%d]",
                        in->rank, 0);
  s = (tflc__perm_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  for (i = 0; i < n; i++) {
    if (v[i] < 0 || v[i] >= n || (seen & (1u << v[i])) ||
        o->dims[i] != in->dims[v[i]])
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "bad permutation entry %d", i, 0);
    seen |= 1u << v[i];
    s->perm[i] = v[i];
  }
  return TFLC_OK;
}
static tflc_status tflc__transpose_invoke(tflc__ctx *c) {
  tflc__perm_state *s = (tflc__perm_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_transpose(tflc_type_size(in->type), in->rank, in->dims, s->perm,
                 in->data, o->data);
  return TFLC_OK;
}

/* ---- RESHAPE
 * ------------------------------------------------------------------------ */
static tflc_status tflc__reshape_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  if (!in || !o || in->type != o->type || in->bytes != o->bytes)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "input and output differ in type or size", 0, 0);
  return TFLC_OK;
}
static tflc_status tflc__reshape_invoke(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  if (in->data != o->data)
    memmove(o->data, in->data, o->bytes);
  return TFLC_OK;
}

/* Data movement and resampling: CONCATENATION, PACK, SPLIT, SPLIT_V,
 * UNPACK, GATHER, SLICE, STRIDED_SLICE, PADV2, SPACE_TO_DEPTH,
 * DEPTH_TO_SPACE, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, SQUEEZE,
 * EXPAND_DIMS, SHAPE, ZEROS_LIKE, RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR.
 * Each accepts what TFLM's micro kernel (tflite-micro 90b983c2b) accepts
 * and refuses at init what TFLM refuses at prepare; where TFLM only
 * debug-checks (shapes, indices) tflc refuses too instead of reading or
 * writing out of bounds. */

/* type masks */
#define TFLC__TYPE_BIT(t) (1u << (t))
#define TFLC__TYPE_F32 TFLC__TYPE_BIT(TFLC_FLOAT32)
#define TFLC__TYPE_I8 TFLC__TYPE_BIT(TFLC_INT8)
#define TFLC__TYPE_I16 TFLC__TYPE_BIT(TFLC_INT16)
#define TFLC__TYPE_I32 TFLC__TYPE_BIT(TFLC_INT32)
#define TFLC__TYPE_I64 TFLC__TYPE_BIT(TFLC_INT64)
#define TFLC__TYPE_BOOL TFLC__TYPE_BIT(TFLC_BOOL)

/* Persistent state, 8 bytes: an axis and a mode, a block size, flags.
 * SLICE, STRIDED_SLICE, PADV2, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND keep
 * none: their parameters (constant, checked at init) are read again from
 * the tensors at run, as TFLM's kernels do. */
typedef struct tflc__small_state {
  int32_t v[2];
} tflc__small_state;
/* Per-axis start / stride / count of SLICE and STRIDED_SLICE (on the
 * stack). */
typedef struct tflc__slice_geometry {
  int32_t rank;
  int32_t start[TFLC_MAX_DIMS], stride[TFLC_MAX_DIMS], count[TFLC_MAX_DIMS];
} tflc__slice_geometry;

static tflc__small_state *tflc__small_state_new(tflc__ctx *c) {
  tflc__small_state *s = (tflc__small_state *)tflc__persist(c->it, sizeof *s);
  c->op->state = s;
  return s;
}
/* Input / output counts and presence. */
static tflc_status tflc__check_io(tflc__ctx *c, int32_t nin_lo, int32_t nin_hi,
                                  int32_t nout_lo, int32_t nout_hi) {
  int32_t k;
  if (c->op->nin < nin_lo || c->op->nin > nin_hi || c->op->nout < nout_lo ||
      c->op->nout > nout_hi)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "%d inputs, %d outputs unexpected",
                        c->op->nin, c->op->nout);
  for (k = 0; k < c->op->nin; k++)
    if (!tflc__in(c, k))
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "input %d missing", k, 0);
  return TFLC_OK;
}
/* Input 0 and output 0 of the same type, one of `mask`. */
static tflc_status tflc__check_same_type(tflc__ctx *c, const tflc_tensor *in,
                                         const tflc_tensor *o, uint32_t mask) {
  if (in->type >= 32 || !(mask & TFLC__TYPE_BIT(in->type)))
    return tflc__op_err(c, TFLC_ERR_TYPE, "type %d unsupported", in->type, 0);
  if (o->type != in->type)
    return tflc__op_err(c, TFLC_ERR_TYPE, "output type %d, input type %d",
                        o->type, in->type);
  return TFLC_OK;
}
/* Constant data present in the model (not compressed). */
static int tflc__is_plain_const(const tflc_tensor *t) {
  return t && (t->flags & TFLC_TENSOR_CONST) && !(t->flags & TFLC_TENSOR_LUT) &&
         t->data;
}
/* Reads an int32 (or, if allow64, int64) vector from t->data: at init for
 * constants, at run for any tensor. 0 if the type or count is wrong. */
static int tflc__int_vector(const tflc_tensor *t, int allow64, int32_t *v,
                            int32_t cap, int32_t *n) {
  int32_t i, cnt = tflc__count(t);
  const uint8_t *p = (const uint8_t *)t->data;
  if (!p || cnt > cap || cnt < 0)
    return 0;
  for (i = 0; i < cnt; i++) {
    if (t->type == TFLC_INT32) {
      v[i] = tflc__i32(p + 4 * i);
    } else if (t->type == TFLC_INT64 && allow64) {
      int64_t x = (int64_t)tflc__u64(p + 8 * i);
      if (x < INT32_MIN || x > INT32_MAX)
        return 0;
      v[i] = (int32_t)x;
    } else {
      return 0;
    }
  }
  *n = cnt;
  return 1;
}
static size_t tflc__dims_product(const int32_t *d, int32_t from, int32_t to) {
  size_t p = 1;
  int32_t i;
  for (i = from; i < to; i++)
    p *= (size_t)d[i];
  return p;
}
static int tflc__dims_equal(const int32_t *a, const int32_t *b, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++)
    if (a[i] != b[i])
      return 0;
  return 1;
}

/* ---- CONCATENATION / PACK ------------------------------------------------ */
static tflc_status tflc__concat_prepare(tflc__ctx *c) {
  const int pack = c->op->code == TFLC_OP_PACK;
  tflc_tensor *o = tflc__out(c, 0), *i0 = tflc__in(c, 0);
  tflc__small_state *s;
  int32_t k, j, axis, sum = 0, n = c->op->nin;
  tflc_status st = tflc__check_io(c, 1, pack ? 0x7FFF : 10, 1, 1);
  if (st)
    return st;
  st = tflc__check_same_type(
      c, i0, o,
      pack ? TFLC__TYPE_F32 | TFLC__TYPE_I8 | TFLC__TYPE_I16 | TFLC__TYPE_I32 |
                 TFLC__TYPE_I64
           : TFLC__TYPE_F32 | TFLC__TYPE_I8 | TFLC__TYPE_I16 | TFLC__TYPE_I32 |
                 TFLC__TYPE_I64 | TFLC__TYPE_BOOL);
  if (st)
    return st;
  if (pack) {
    tflc__pack_options po;
    tflc__read_pack_options(c->m, c->op->opts, &po);
    if (po.values_count != n)
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "values_count %d but %d inputs",
                          po.values_count, n);
    axis = po.axis;
    if (o->rank != i0->rank + 1)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "output rank %d, input rank %d",
                          o->rank, i0->rank);
  } else {
    tflc__concatenation_options co;
    tflc__read_concatenation_options(c->m, c->op->opts, &co);
    if (co.fused_activation_function != 0)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "fused activation %d (TFLM requires NONE)",
                          co.fused_activation_function, 0);
    axis = co.axis;
  }
  if (axis < 0)
    axis += o->rank;
  if (axis < 0 || axis >= o->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "axis %d outside rank %d", axis,
                        o->rank);
  if (!pack && i0->type == TFLC_INT16 && o->zero_point != 0)
    return tflc__op_err(c, TFLC_ERR_QUANT, "int16 output zero point %d != 0",
                        o->zero_point, 0);
  for (k = 0; k < n; k++) {
    const tflc_tensor *t = tflc__in(c, k);
    if (t->type != i0->type)
      return tflc__op_err(c, TFLC_ERR_TYPE, "input %d type differs", k, 0);
    if (pack) {
      if (t->rank + 1 != o->rank)
        return tflc__op_err(c, TFLC_ERR_SHAPE, "input %d has rank %d", k,
                            t->rank);
      for (j = 0; j < o->rank; j++)
        if (j != axis && o->dims[j] != t->dims[j < axis ? j : j - 1])
          return tflc__op_err(c, TFLC_ERR_SHAPE,
                              "input %d does not match output dim %d", k, j);
      continue;
    }
    if (t->rank != o->rank)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "input %d has rank %d", k,
                          t->rank);
    for (j = 0; j < o->rank; j++)
      if (j != axis && o->dims[j] != t->dims[j])
        return tflc__op_err(c, TFLC_ERR_SHAPE,
                            "input %d does not match output dim %d", k, j);
    sum += t->dims[axis];
    if (t->type == TFLC_INT8 &&
        (t->scale != o->scale || t->zero_point != o->zero_point))
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "input %d quantization differs from the output's "
                          "(TFLM does not rescale int8)",
                          k, 0);
    if (t->type == TFLC_INT16 && t->zero_point != 0)
      return tflc__op_err(c, TFLC_ERR_QUANT, "int16 input %d zero point %d", k,
                          t->zero_point);
  }
  if (pack ? o->dims[axis] != n : sum != o->dims[axis])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output dim %d is %d", axis,
                        o->dims[axis]);
  s = tflc__small_state_new(c);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->v[0] = axis;
  s->v[1] = pack;
  return TFLC_OK;
}
static tflc_status tflc__concat_invoke(tflc__ctx *c) {
  const tflc__small_state *s = (const tflc__small_state *)c->op->state;
  tflc_tensor *o = tflc__out(c, 0);
  const int32_t axis = s->v[0];
  const size_t es = tflc_type_size(o->type);
  const size_t inner = tflc__dims_product(o->dims, axis + 1, o->rank);
  const size_t orow = (size_t)o->dims[axis] * inner * es;
  const int32_t outer = (int32_t)tflc__dims_product(o->dims, 0, axis);
  unsigned char *dst = (unsigned char *)o->data;
  int32_t k, r;
  for (k = 0; k < c->op->nin; k++) {
    const tflc_tensor *t = tflc__in(c, k);
    const size_t len = (s->v[1] ? 1 : (size_t)t->dims[axis]) * inner;
    if (len == 0)
      continue;
    if (t->flags & TFLC_TENSOR_LUT) {
      /* compressed constant: decode each row straight into the output */
      tflc_const d = tflc__const(c, t);
      for (r = 0; r < outer; r++)
        tflc_lut_decode(&d, (int32_t)((size_t)r * len), (int32_t)len,
                        dst + (size_t)r * orow);
    } else {
      tflc_copy_rows(outer, len * es, t->data, len * es, dst, orow);
    }
    dst += len * es;
  }
  return TFLC_OK;
}

/* ---- SPLIT / SPLIT_V / UNPACK -------------------------------------------- */
/* mode 0 SPLIT, 1 SPLIT_V, 2 UNPACK */
static tflc_status tflc__split_prepare(tflc__ctx *c) {
  const int mode = c->op->code == TFLC_OP_SPLIT     ? 0
                   : c->op->code == TFLC_OP_SPLIT_V ? 1
                                                    : 2;
  tflc_tensor *in, *o0 = tflc__out(c, 0);
  tflc__small_state *s;
  int32_t axis = 0, k, j, sum = 0, n = c->op->nout;
  tflc_status st = tflc__check_io(c,
                                  mode == 0   ? 2
                                  : mode == 1 ? 3
                                              : 1,
                                  mode == 0   ? 2
                                  : mode == 1 ? 3
                                              : 1,
                                  1, 0x7FFF);
  if (st)
    return st;
  in = tflc__in(c, mode == 0 ? 1 : 0);
  st = tflc__check_same_type(c, in, o0,
                             TFLC__TYPE_F32 | TFLC__TYPE_I8 | TFLC__TYPE_I16 |
                                 TFLC__TYPE_I32);
  if (st)
    return st;
  if (mode == 2) {
    tflc__unpack_options uo;
    tflc__read_unpack_options(c->m, c->op->opts, &uo);
    axis = uo.axis;
    if (uo.num != n)
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "num %d but %d outputs", uo.num,
                          n);
  } else {
    const tflc_tensor *ax = tflc__in(c, mode == 0 ? 0 : 2);
    int32_t cnt = 0;
    if (!tflc__is_plain_const(ax) || ax->type != TFLC_INT32 ||
        !tflc__int_vector(ax, 0, &axis, 1, &cnt) || cnt != 1)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "axis must be a constant int32 scalar", 0, 0);
  }
  if (axis < 0)
    axis += in->rank;
  if (axis < 0 || axis >= in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "axis %d outside rank %d", axis,
                        in->rank);
  for (k = 0; k < n; k++) {
    const tflc_tensor *t = tflc__out(c, k);
    if (t->type != in->type)
      return tflc__op_err(c, TFLC_ERR_TYPE, "output %d type differs", k, 0);
    if (mode == 2) {
      if (t->rank + 1 != in->rank)
        return tflc__op_err(c, TFLC_ERR_SHAPE, "output %d has rank %d", k,
                            t->rank);
      for (j = 0; j < in->rank; j++)
        if (j != axis && in->dims[j] != t->dims[j < axis ? j : j - 1])
          return tflc__op_err(c, TFLC_ERR_SHAPE,
                              "output %d does not match input dim %d", k, j);
      sum++;
      continue;
    }
    if (t->rank != in->rank)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "output %d has rank %d", k,
                          t->rank);
    for (j = 0; j < in->rank; j++)
      if (j != axis && in->dims[j] != t->dims[j])
        return tflc__op_err(c, TFLC_ERR_SHAPE,
                            "output %d does not match input dim %d", k, j);
    if (mode == 0 && t->dims[axis] != o0->dims[axis])
      return tflc__op_err(c, TFLC_ERR_SHAPE, "output %d differs from output 0",
                          k, 0);
    if (mode == 1 && t->dims[axis] == 0)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "output %d is empty (TFLM refuses)", k, 0);
    sum += t->dims[axis];
  }
  if (sum != in->dims[axis])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "outputs cover %d of %d", sum,
                        in->dims[axis]);
  s = tflc__small_state_new(c);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->v[0] = axis;
  s->v[1] = mode;
  return TFLC_OK;
}
static tflc_status tflc__split_invoke(tflc__ctx *c) {
  const tflc__small_state *s = (const tflc__small_state *)c->op->state;
  const tflc_tensor *in = tflc__in(c, s->v[1] == 0 ? 1 : 0);
  const int32_t axis = s->v[0];
  const size_t es = tflc_type_size(in->type);
  const size_t inner = tflc__dims_product(in->dims, axis + 1, in->rank) * es;
  const size_t irow = (size_t)in->dims[axis] * inner;
  const int32_t outer = (int32_t)tflc__dims_product(in->dims, 0, axis);
  const unsigned char *src = (const unsigned char *)in->data;
  int32_t k;
  for (k = 0; k < c->op->nout; k++) {
    tflc_tensor *t = tflc__out(c, k);
    const size_t len = (s->v[1] == 2 ? 1 : (size_t)t->dims[axis]) * inner;
    tflc_copy_rows(outer, len, src, irow, t->data, len);
    src += len;
  }
  return TFLC_OK;
}

/* ---- GATHER -------------------------------------------------------------- */
static tflc_status tflc__gather_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *co = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__small_state *s;
  tflc__gather_options go;
  int32_t axis, bd, i, r = 0, od[TFLC_MAX_DIMS + TFLC_MAX_DIMS];
  tflc_status st = tflc__check_io(c, 2, 2, 1, 1);
  if (st)
    return st;
  if (co->type != TFLC_INT32)
    return tflc__op_err(c, TFLC_ERR_TYPE, "positions of type %d unsupported",
                        co->type, 0);
  st = tflc__check_same_type(c, in, o, TFLC__TYPE_F32 | TFLC__TYPE_I8);
  if (st)
    return st;
  tflc__read_gather_options(c->m, c->op->opts, &go);
  axis = go.axis;
  bd = go.batch_dims;
  if (axis < 0)
    axis += in->rank;
  if (bd < 0)
    bd += co->rank;
  if (axis < 0 || axis >= in->rank || bd < 0 || bd > axis || bd >= in->rank ||
      bd > co->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "axis %d / batch_dims %d invalid",
                        axis, bd);
  for (i = 0; i < bd; i++)
    if (in->dims[i] != co->dims[i])
      return tflc__op_err(c, TFLC_ERR_SHAPE, "batch dim %d differs", i, 0);
  for (i = 0; i < axis; i++)
    od[r++] = in->dims[i];
  for (i = bd; i < co->rank; i++)
    od[r++] = co->dims[i];
  for (i = axis + 1; i < in->rank; i++)
    od[r++] = in->dims[i];
  if (r != o->rank || !tflc__dims_equal(od, o->dims, r))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output shape differs (rank %d)", r,
                        0);
  s = tflc__small_state_new(c);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->v[0] = axis;
  s->v[1] = bd;
  if (tflc__is_plain_const(co)) {
    const uint8_t *p = (const uint8_t *)co->data;
    int32_t n = tflc__count(co);
    for (i = 0; i < n; i++) {
      int32_t x = tflc__i32(p + 4 * i);
      if (x < 0 || x >= in->dims[axis])
        return tflc__op_err(c, TFLC_ERR_SHAPE, "position %d outside [0, %d)", x,
                            in->dims[axis]);
    }
  }
  return TFLC_OK;
}
static tflc_status tflc__gather_invoke(tflc__ctx *c) {
  const tflc__small_state *s = (const tflc__small_state *)c->op->state;
  const tflc_tensor *in = tflc__in(c, 0), *co = tflc__in(c, 1);
  tflc_tensor *o = tflc__out(c, 0);
  const int32_t axis = s->v[0], bd = s->v[1];
  if (tflc_gather(tflc_type_size(in->type),
                  (int32_t)tflc__dims_product(in->dims, 0, bd),
                  (int32_t)tflc__dims_product(in->dims, bd, axis),
                  in->dims[axis],
                  (int32_t)tflc__dims_product(co->dims, bd, co->rank),
                  (int32_t)tflc__dims_product(in->dims, axis + 1, in->rank),
                  co->data, in->data, o->data))
    return tflc__op_err(c, TFLC_ERR_KERNEL, "position outside [0, %d)",
                        in->dims[axis], 0);
  return TFLC_OK;
}

/* ---- SLICE / STRIDED_SLICE ----------------------------------------------- */
/* SLICE parameters from begin/size (TFLM: size -1 = to the end), checked
 * against the shapes. Used at init for constants and at every run. */
static tflc_status tflc__slice_params(tflc__ctx *c, tflc__slice_geometry *p) {
  const tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  int32_t b[TFLC_MAX_DIMS], z[TFLC_MAX_DIMS], nb = 0, nz = 0, k;
  if (!tflc__int_vector(tflc__in(c, 1), 1, b, TFLC_MAX_DIMS, &nb) ||
      !tflc__int_vector(tflc__in(c, 2), 1, z, TFLC_MAX_DIMS, &nz) ||
      nb != in->rank || nz != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "begin/size must have %d entries",
                        in->rank, 0);
  p->rank = in->rank;
  for (k = 0; k < in->rank; k++) {
    int32_t cnt = z[k] == -1 ? in->dims[k] - b[k] : z[k];
    if (b[k] < 0 || b[k] > in->dims[k] || cnt < 0 || cnt > in->dims[k] - b[k] ||
        cnt != o->dims[k])
      return tflc__op_err(c, TFLC_ERR_SHAPE,
                          "slice of dim %d (begin %d) outside the input or "
                          "not the output's",
                          k, b[k]);
    p->start[k] = b[k];
    p->stride[k] = 1;
    p->count[k] = cnt;
  }
  return TFLC_OK;
}
static tflc_status tflc__slice_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *bt = tflc__in(c, 1), *zt = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__slice_geometry p;
  tflc_status st = tflc__check_io(c, 3, 3, 1, 1);
  if (st)
    return st;
  st = tflc__check_same_type(c, in, o,
                             TFLC__TYPE_F32 | TFLC__TYPE_I32 | TFLC__TYPE_I8 |
                                 TFLC__TYPE_I16 | TFLC__TYPE_BOOL);
  if (st)
    return st;
  if (bt->type != zt->type ||
      (bt->type != TFLC_INT32 && bt->type != TFLC_INT64) || bt->rank != 1 ||
      zt->rank != 1)
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "begin and size must be int32 or int64 vectors", 0, 0);
  if (in->rank > 5 || o->rank != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input rank %d, output rank %d",
                        in->rank, o->rank);
  if (tflc__is_plain_const(bt) && tflc__is_plain_const(zt))
    return tflc__slice_params(c, &p);
  /* read (and checked) at every run */
  if (tflc__count(bt) != in->rank || tflc__count(zt) != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "begin/size must have %d entries",
                        in->rank, 0);
  return TFLC_OK;
}
/* STRIDED_SLICE parameters as TFLM's micro kernel takes them: begin, end,
 * strides constant int32 with one entry per input dim, begin_mask,
 * end_mask, shrink_axis_mask. TFLM zeroes ellipsis_mask and new_axis_mask
 * and leaves offset false in its parameters, so they have no effect here
 * either (a model relying on them fails the output shape check, as in
 * TFLM). */
static tflc_status tflc__strided_params(tflc__ctx *c, tflc__slice_geometry *p) {
  const tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  int32_t b[TFLC_MAX_DIMS], e[TFLC_MAX_DIMS], sd[TFLC_MAX_DIMS];
  int32_t nb = 0, ne = 0, ns = 0, k, r = 0, bmask, emask, smask;
  tflc__strided_slice_options so;
  tflc__read_strided_slice_options(c->m, c->op->opts, &so);
  bmask = so.begin_mask;
  emask = so.end_mask;
  smask = so.shrink_axis_mask;
  if (!tflc__int_vector(tflc__in(c, 1), 0, b, TFLC_MAX_DIMS, &nb) ||
      !tflc__int_vector(tflc__in(c, 2), 0, e, TFLC_MAX_DIMS, &ne) ||
      !tflc__int_vector(tflc__in(c, 3), 0, sd, TFLC_MAX_DIMS, &ns) ||
      nb != in->rank || ne != in->rank || ns != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "begin/end/strides must have %d entries", in->rank, 0);
  p->rank = in->rank;
  for (k = 0; k < in->rank; k++) {
    const int shrink = (smask >> k) & 1;
    if (sd[k] == 0)
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "stride of dim %d is 0", k, 0);
    if (tflc_strided_slice_axis(in->dims[k], b[k], e[k], sd[k],
                                (bmask >> k) & 1, (emask >> k) & 1, shrink,
                                &p->start[k], &p->count[k]))
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "shrunk dim %d: begin %d outside it or negative "
                          "stride (TFLM writes nothing)",
                          k, b[k]);
    p->stride[k] = sd[k];
    if (!shrink) {
      if (r >= o->rank || o->dims[r] != p->count[k])
        return tflc__op_err(c, TFLC_ERR_SHAPE,
                            "dim %d gives %d elements, not the output's", k,
                            p->count[k]);
      r++;
    }
  }
  if (r != o->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output rank %d, expected %d",
                        o->rank, r);
  return TFLC_OK;
}
static tflc_status tflc__strided_slice_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__slice_geometry p;
  int32_t k, *s;
  tflc_status st = tflc__check_io(c, 4, 4, 1, 1);
  if (st)
    return st;
  st = tflc__check_same_type(c, in, o,
                             TFLC__TYPE_F32 | TFLC__TYPE_I8 | TFLC__TYPE_I16 |
                                 TFLC__TYPE_I32 | TFLC__TYPE_BOOL);
  if (st)
    return st;
  if (in->rank > 4)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input rank %d > 4", in->rank, 0);
  for (k = 1; k <= 3; k++)
    if (!tflc__is_plain_const(tflc__in(c, k)) ||
        tflc__in(c, k)->type != TFLC_INT32)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "input %d must be a constant int32 vector", k, 0);
  st = tflc__strided_params(c, &p);
  if (st || (c->op->in[1] >= 0 && c->op->in[2] >= 0 && c->op->in[3] >= 0))
    return st; /* (invoke reads the records again) */
  /* the geometry kept when its constants keep no records: rank, then
   * start, stride and count of each axis */
  s = (int32_t *)tflc__persist(c->it, 4u + 12u * (uint32_t)p.rank);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s[0] = p.rank;
  for (k = 0; k < p.rank; k++) {
    s[1 + k] = p.start[k];
    s[1 + p.rank + k] = p.stride[k];
    s[1 + 2 * p.rank + k] = p.count[k];
  }
  c->op->state = s;
  return TFLC_OK;
}
static tflc_status tflc__slice_invoke(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__slice_geometry p;
  if (c->op->state) { /* STRIDED_SLICE's kept geometry */
    const int32_t *s = (const int32_t *)c->op->state;
    tflc_strided_slice(tflc_type_size(in->type), s[0], in->dims, s + 1,
                       s + 1 + s[0], s + 1 + 2 * s[0], in->data, o->data);
    return TFLC_OK;
  }
  if (c->op->code == TFLC_OP_SLICE ? tflc__slice_params(c, &p)
                                   : tflc__strided_params(c, &p))
    return TFLC_ERR_KERNEL;
  tflc_strided_slice(tflc_type_size(in->type), p.rank, in->dims, p.start,
                     p.stride, p.count, in->data, o->data);
  return TFLC_OK;
}

/* ---- PADV2 -------------------------------------------------------------- */
/* Paddings (constant int32 [rank, 2], checked against the shapes) and, if
 * value is not NULL, the pad value: input 2's element, else the int8
 * output zero point, else 0. */
static tflc_status tflc__padv2_params(tflc__ctx *c, int32_t *before,
                                      int32_t *after, uint8_t *value) {
  const tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  const tflc_tensor *cv = tflc__in(c, 2);
  int32_t v[2 * TFLC_MAX_DIMS], n = 0, k;
  if (!tflc__int_vector(tflc__in(c, 1), 0, v, 2 * TFLC_MAX_DIMS, &n) ||
      n != 2 * in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "paddings must be [%d, 2]", in->rank,
                        0);
  for (k = 0; k < in->rank; k++) {
    before[k] = v[2 * k];
    after[k] = v[2 * k + 1];
    if (before[k] < 0 || after[k] < 0 ||
        (int64_t)in->dims[k] + before[k] + after[k] != o->dims[k])
      return tflc__op_err(c, TFLC_ERR_SHAPE, "padding of dim %d gives %d", k,
                          o->dims[k]);
  }
  if (!value)
    return TFLC_OK;
  memset(value, 0, 8);
  if (cv)
    memcpy(value, cv->data, tflc_type_size(cv->type));
  else if (in->type == TFLC_INT8)
    value[0] = (uint8_t)(o->zero_point & 0xFF);
  return TFLC_OK;
}
static tflc_status tflc__padv2_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *pd = tflc__in(c, 1), *cv = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  int32_t before[TFLC_MAX_DIMS], after[TFLC_MAX_DIMS];
  tflc_status st;
  if (c->op->nin < 2 || c->op->nin > 3 || c->op->nout != 1 || !in || !pd)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "%d inputs, %d outputs unexpected",
                        c->op->nin, c->op->nout);
  /* input 2 may be absent (-1): then as without it, as in TFLM */
  st = tflc__check_same_type(c, in, o,
                             TFLC__TYPE_F32 | TFLC__TYPE_I8 | TFLC__TYPE_I16 |
                                 TFLC__TYPE_I32);
  if (st)
    return st;
  if (in->rank > 5 || o->rank != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input rank %d, output rank %d",
                        in->rank, o->rank);
  if (!tflc__is_plain_const(pd) || pd->type != TFLC_INT32)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "paddings must be a constant int32 [%d, 2] tensor",
                        o->rank, 0);
  if (cv && (cv->type != in->type || tflc__count(cv) != 1))
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "constant value must be one element of the input type",
                        0, 0);
  if (in->type == TFLC_INT8) {
    if (!cv && (o->zero_point < -128 || o->zero_point > 127))
      return tflc__op_err(c, TFLC_ERR_QUANT, "zero point %d", o->zero_point, 0);
    if (cv && (cv->zero_point != o->zero_point || cv->scale != o->scale))
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "constant value quantization differs from the "
                          "output's",
                          0, 0);
  }
  /* the value is read at run (it may be an activation) */
  return tflc__padv2_params(c, before, after, NULL);
}
static tflc_status tflc__padv2_invoke(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_tensor *o = tflc__out(c, 0);
  int32_t before[TFLC_MAX_DIMS], after[TFLC_MAX_DIMS];
  uint8_t value[8];
  if (tflc__padv2_params(c, before, after, value))
    return TFLC_ERR_KERNEL;
  tflc_pad(tflc_type_size(in->type), in->rank, in->dims, before, after, value,
           in->data, o->data);
  return TFLC_OK;
}

/* ---- SPACE_TO_DEPTH / DEPTH_TO_SPACE ------------------------------------ */
static tflc_status tflc__space_depth_prepare(tflc__ctx *c) {
  const int to_depth = c->op->code == TFLC_OP_SPACE_TO_DEPTH;
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  const tflc_tensor *sp, *dp;
  tflc__small_state *s;
  tflc__space_depth_options so;
  int32_t b;
  tflc_status st = tflc__check_io(c, 1, 1, 1, 1);
  if (st)
    return st;
  st = tflc__check_same_type(c, in, o, TFLC__TYPE_F32 | TFLC__TYPE_I8);
  if (st)
    return st;
  tflc__read_space_depth_options(c->m, c->op->opts, &so);
  b = so.block_size;
  if (in->rank != 4 || o->rank != 4)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "tensors must be 4-D", 0, 0);
  if (b < 1 || b > 65535)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "block size %d", b, 0);
  sp = to_depth ? in : o;
  dp = to_depth ? o : in;
  if (sp->dims[1] % b || sp->dims[2] % b || dp->dims[0] != sp->dims[0] ||
      dp->dims[1] != sp->dims[1] / b || dp->dims[2] != sp->dims[2] / b ||
      (int64_t)sp->dims[3] * b * b != dp->dims[3])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "shapes do not match block size %d",
                        b, 0);
  s = tflc__small_state_new(c);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->v[0] = b;
  s->v[1] = to_depth;
  return TFLC_OK;
}
static tflc_status tflc__space_depth_invoke(tflc__ctx *c) {
  const tflc__small_state *s = (const tflc__small_state *)c->op->state;
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_tensor *o = tflc__out(c, 0);
  tflc_space_depth(tflc_type_size(in->type), s->v[1],
                   s->v[1] ? in->dims : o->dims, s->v[0], in->data, o->data);
  return TFLC_OK;
}

/* ---- BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND ------------------------------ */
/* 4-D view: [N, H, C] is [N, H, 1, C]. */
static void tflc__dims4(const tflc_tensor *t, int32_t *d) {
  d[0] = t->dims[0];
  d[1] = t->dims[1];
  d[2] = t->rank == 4 ? t->dims[2] : 1;
  d[3] = t->rank == 4 ? t->dims[3] : t->dims[2];
}
/* Block and crops / paddings from inputs 1 and 2, checked against the
 * shapes: v = {block_h, block_w, top, left}. */
static tflc_status tflc__batch_space_params(tflc__ctx *c, int s2b, int32_t *v) {
  const tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  int32_t blk[2] = {1, 1}, pad[4] = {0, 0, 0, 0}, nb = 0, np = 0, k;
  int32_t id[4], od[4];
  int64_t bb;
  const int32_t sp = in->rank - 2;
  if (!tflc__int_vector(tflc__in(c, 1), 0, blk, 2, &nb) || nb != sp ||
      !tflc__int_vector(tflc__in(c, 2), 0, pad, 4, &np) || np != 2 * sp)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "block shape must be int32[%d], crops/paddings "
                        "int32[%d, 2]",
                        sp, sp);
  tflc__dims4(in, id);
  tflc__dims4(o, od);
  for (k = 0; k < 2; k++) {
    const int32_t lo = pad[2 * k], hi = pad[2 * k + 1], b = blk[k];
    int64_t size;
    if (b < 1 || b > 65535 || lo < 0 || hi < 0 ||
        (int64_t)id[1 + k] * b > INT32_MAX ||
        (int64_t)id[1 + k] + lo + hi > INT32_MAX)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "block %d / crop or pad %d", b,
                          lo < 0 ? lo : hi);
    if (s2b) {
      size = (int64_t)id[1 + k] + lo + hi;
      if (size % b || size / b != od[1 + k])
        return tflc__op_err(c, TFLC_ERR_SHAPE,
                            "padded dim %d does not give the output's", 1 + k,
                            0);
    } else {
      size = (int64_t)id[1 + k] * b - lo - hi;
      if (size != od[1 + k])
        return tflc__op_err(c, TFLC_ERR_SHAPE,
                            "cropped dim %d does not give the output's", 1 + k,
                            0);
    }
  }
  bb = (int64_t)blk[0] * blk[1];
  if (s2b ? (int64_t)id[0] * bb != od[0]
          : id[0] % bb != 0 || id[0] / bb != od[0])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "batch %d vs %d", id[0], od[0]);
  if (id[3] != od[3])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "depth %d vs %d", id[3], od[3]);
  v[0] = blk[0];
  v[1] = blk[1];
  v[2] = pad[0];
  v[3] = pad[2];
  return TFLC_OK;
}
static tflc_status tflc__batch_space_prepare(tflc__ctx *c) {
  const int s2b = c->op->code == TFLC_OP_SPACE_TO_BATCH_ND;
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  int32_t k, v[4];
  tflc_status st = tflc__check_io(c, 3, 3, 1, 1);
  if (st)
    return st;
  st = tflc__check_same_type(c, in, o, TFLC__TYPE_F32 | TFLC__TYPE_I8);
  if (st)
    return st;
  if (in->rank < 3 || in->rank > 4 || o->rank != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input rank %d, output rank %d",
                        in->rank, o->rank);
  for (k = 1; k <= 2; k++)
    if (tflc__in(c, k)->type != TFLC_INT32)
      return tflc__op_err(c, TFLC_ERR_TYPE, "input %d must be int32", k, 0);
  if (tflc__is_plain_const(tflc__in(c, 1)) &&
      tflc__is_plain_const(tflc__in(c, 2)))
    return tflc__batch_space_params(c, s2b, v);
  /* read (and checked) at every run */
  if (tflc__count(tflc__in(c, 1)) != in->rank - 2 ||
      tflc__count(tflc__in(c, 2)) != 2 * (in->rank - 2))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "block/crops sizes wrong", 0, 0);
  return TFLC_OK;
}
static tflc_status tflc__batch_space_invoke(tflc__ctx *c) {
  const int s2b = c->op->code == TFLC_OP_SPACE_TO_BATCH_ND;
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_tensor *o = tflc__out(c, 0);
  int32_t v[4], id[4], od[4];
  if (tflc__batch_space_params(c, s2b, v))
    return TFLC_ERR_KERNEL;
  tflc__dims4(in, id);
  tflc__dims4(o, od);
  if (s2b) {
    /* padding value: the zero point (TFLM leaves its pad value unset, 0 in
     * a fresh arena; the zero point is what the padding means) */
    uint8_t value[4] = {0, 0, 0, 0};
    if (in->type == TFLC_INT8)
      value[0] = (uint8_t)(o->zero_point & 0xFF);
    tflc_space_to_batch(tflc_type_size(in->type), id, od, v[0], v[1], v[2],
                        v[3], value, in->data, o->data);
  } else {
    tflc_batch_to_space(tflc_type_size(in->type), id, od, v[0], v[1], v[2],
                        v[3], in->data, o->data);
  }
  return TFLC_OK;
}

/* ---- RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR -------------------------- */
static tflc_status tflc__resize_prepare(tflc__ctx *c) {
  const int bilinear = c->op->code == TFLC_OP_RESIZE_BILINEAR;
  tflc_tensor *in = tflc__in(c, 0), *sz = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__small_state *s;
  tflc__resize_options ro;
  int32_t v[2], n = 0, align, half;
  tflc_status st = tflc__check_io(c, 2, 2, 1, 1);
  if (st)
    return st;
  st = tflc__check_same_type(c, in, o,
                             bilinear ? TFLC__TYPE_F32 | TFLC__TYPE_I8
                                      : TFLC__TYPE_F32 | TFLC__TYPE_I8 |
                                            TFLC__TYPE_I16);
  if (st)
    return st;
  if (in->rank != 4 || o->rank != 4 || sz->rank != 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input must be 4-D, size 1-D", 0, 0);
  if (!tflc__is_plain_const(sz) || sz->type != TFLC_INT32 ||
      !tflc__int_vector(sz, 0, v, 2, &n) || n != 2)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "size must be a constant int32[2]", 0, 0);
  if (bilinear)
    tflc__read_resize_bilinear_options(c->m, c->op->opts, &ro);
  else
    tflc__read_resize_nearest_neighbor_options(c->m, c->op->opts, &ro);
  align = ro.align_corners;
  half = ro.half_pixel_centers;
  if (bilinear && align && half)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "align_corners with half_pixel_centers", 0, 0);
  if (v[0] < 1 || v[1] < 1 || o->dims[0] != in->dims[0] || o->dims[1] != v[0] ||
      o->dims[2] != v[1] || o->dims[3] != in->dims[3])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output is not %dx%d", v[0], v[1]);
  /* keeps TFLM's int32 Q10 arithmetic free of overflow */
  if (in->dims[1] < 1 || in->dims[2] < 1 || in->dims[1] > (1 << 20) ||
      in->dims[2] > (1 << 20) || v[0] > (1 << 20) || v[1] > (1 << 20))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "sizes %dx%d out of range",
                        in->dims[1], in->dims[2]);
  s = tflc__small_state_new(c);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->v[0] = align;
  s->v[1] = half;
  return TFLC_OK;
}
static tflc_status tflc__resize_invoke(tflc__ctx *c) {
  const tflc__small_state *s = (const tflc__small_state *)c->op->state;
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_tensor *o = tflc__out(c, 0);
  if (c->op->code == TFLC_OP_RESIZE_NEAREST_NEIGHBOR)
    tflc_resize_nearest(tflc_type_size(in->type), in->dims, o->dims[1],
                        o->dims[2], s->v[0], s->v[1], in->data, o->data);
  else if (in->type == TFLC_INT8)
    tflc_resize_bilinear_s8(in->dims, o->dims[1], o->dims[2], s->v[0], s->v[1],
                            (const int8_t *)in->data, (int8_t *)o->data);
  else
    tflc_resize_bilinear_f32(in->dims, o->dims[1], o->dims[2], s->v[0], s->v[1],
                             (const float *)in->data, (float *)o->data);
  return TFLC_OK;
}

/* ---- SQUEEZE / EXPAND_DIMS / SHAPE / ZEROS_LIKE ------------------------- */
static tflc_status tflc__squeeze_prepare(tflc__ctx *c) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__squeeze_options so;
  uint32_t nd, pos, i;
  uint32_t squeeze = 0;
  int32_t k, r = 0;
  tflc_status st = tflc__check_io(c, 1, 1, 1, 1);
  tflc__read_squeeze_options(c->m, c->op->opts, &so);
  nd = so.num_squeeze_dims;
  pos = so.squeeze_dims;
  if (st)
    return st;
  if (o->type != in->type)
    return tflc__op_err(c, TFLC_ERR_TYPE, "output type differs", 0, 0);
  if (nd > 8)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "%d squeeze dims > 8", (int32_t)nd,
                        0);
  for (i = 0; i < nd; i++) {
    int32_t d = tflc__i32(fb.b + pos + 4 * i);
    if (d < 0)
      d += in->rank;
    if (d < 0 || d >= in->rank || in->dims[d] != 1)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "cannot squeeze dim %d",
                          tflc__i32(fb.b + pos + 4 * i), 0);
    squeeze |= 1u << d;
  }
  for (k = 0; k < in->rank; k++) {
    if (nd == 0 ? in->dims[k] == 1 : (squeeze >> k) & 1)
      continue;
    if (r >= o->rank || o->dims[r] != in->dims[k])
      return tflc__op_err(c, TFLC_ERR_SHAPE, "output dim %d differs", r, 0);
    r++;
  }
  if (r != o->rank || o->bytes != in->bytes)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output rank %d, expected %d",
                        o->rank, r);
  return TFLC_OK;
}
static tflc_status tflc__expand_dims_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *ax = tflc__in(c, 1), *o = tflc__out(c, 0);
  int32_t a[8], n = 0, k;
  tflc_status st = tflc__check_io(c, 2, 2, 1, 1);
  if (st)
    return st;
  st = tflc__check_same_type(c, in, o,
                             TFLC__TYPE_F32 | TFLC__TYPE_I16 | TFLC__TYPE_I8);
  if (st)
    return st;
  if (!tflc__is_plain_const(ax) || ax->type != TFLC_INT32 || ax->rank > 1 ||
      !tflc__int_vector(ax, 0, a, 8, &n) || n < 1)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "axis must be a constant int32 scalar", 0, 0);
  if (a[0] < 0)
    a[0] += in->rank + 1;
  if (a[0] < 0 || a[0] > in->rank || o->rank != in->rank + 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "axis %d for rank %d", a[0],
                        in->rank);
  for (k = 0; k < o->rank; k++)
    if (o->dims[k] != (k < a[0]    ? in->dims[k]
                       : k == a[0] ? 1
                                   : in->dims[k - 1]))
      return tflc__op_err(c, TFLC_ERR_SHAPE, "output dim %d differs", k, 0);
  return TFLC_OK;
}
static tflc_status tflc__shape_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_status st = tflc__check_io(c, 1, 1, 1, 1);
  if (st)
    return st;
  if (o->type != TFLC_INT32)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "output type %d (TFLM supports int32 only)", o->type,
                        0);
  if (o->rank != 1 || o->dims[0] != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output must be int32[%d]", in->rank,
                        0);
  return TFLC_OK;
}
static tflc_status tflc__zeros_like_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_status st = tflc__check_io(c, 1, 1, 1, 1);
  if (st)
    return st;
  st = tflc__check_same_type(c, in, o,
                             TFLC__TYPE_I64 | TFLC__TYPE_I32 | TFLC__TYPE_I8 |
                                 TFLC__TYPE_F32);
  if (st)
    return st;
  if (tflc__count(in) != tflc__count(o))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "sizes differ", 0, 0);
  return TFLC_OK;
}

/* ---- SQUEEZE / EXPAND_DIMS (copy), SHAPE, ZEROS_LIKE -------------------- */
static tflc_status tflc__copy_invoke(tflc__ctx *c) {
  tflc_tensor *o = tflc__out(c, 0);
  if (o->data != tflc__in(c, 0)->data)
    memmove(o->data, tflc__in(c, 0)->data, o->bytes);
  return TFLC_OK;
}
static tflc_status tflc__shape_invoke(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_tensor *o = tflc__out(c, 0);
  int32_t k;
  for (k = 0; k < in->rank; k++)
    memcpy((unsigned char *)o->data + 4 * k, &in->dims[k], 4);
  return TFLC_OK;
}
static tflc_status tflc__zeros_like_invoke(tflc__ctx *c) {
  tflc_tensor *o = tflc__out(c, 0);
  memset(o->data, 0, o->bytes);
  return TFLC_OK;
}

/* ---- REVERSE_V2, MIRROR_PAD, FILL, BROADCAST_TO, BROADCAST_ARGS, ---------
 * GATHER_ND, EMBEDDING_LOOKUP, DYNAMIC_UPDATE_SLICE. Parameters read from
 * tensors are checked at init when constant, else at every run (errors
 * where TFLM would fail, or read or write out of bounds). */

/* int32 / int64 vector entry i as int64 (the tensor's own type). */
static int64_t tflc__entry64(const tflc_tensor *t, int32_t i) {
  const uint8_t *p = (const uint8_t *)t->data;
  return t->type == TFLC_INT64 ? (int64_t)tflc__u64(p + 8 * (size_t)i)
                               : (int64_t)tflc__i32(p + 4 * (size_t)i);
}

/* REVERSE_V2: axes (int32, possibly negative) must be contiguous once
 * sorted, as TFLM requires at run; [outer, middle, inner] around them. */
static tflc_status tflc__reverse_geometry(tflc__ctx *c, int32_t *outer,
                                          int32_t *middle, int32_t *inner) {
  const tflc_tensor *in = tflc__in(c, 0), *ax = tflc__in(c, 1);
  int32_t a[TFLC_MAX_DIMS], n = tflc__count(ax), i, j, lo, hi;
  for (i = 0; i < n; i++) {
    a[i] = tflc__i32((const uint8_t *)ax->data + 4 * (size_t)i);
    if (a[i] < 0)
      a[i] += in->rank;
    if (a[i] < 0 || a[i] >= in->rank)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "axis %d out of range", a[i], 0);
  }
  for (i = 1; i < n; i++) /* insertion sort, at most 6 */
    for (j = i; j > 0 && a[j - 1] > a[j]; j--) {
      int32_t t = a[j];
      a[j] = a[j - 1];
      a[j - 1] = t;
    }
  for (i = 1; i < n; i++)
    if (a[i - 1] + 1 != a[i])
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "axes not contiguous", 0, 0);
  /* no axis (TFLM reads before its array): nothing reversed */
  lo = n ? a[0] : 0;
  hi = n ? a[n - 1] : -1;
  *outer = (int32_t)tflc__dims_product(in->dims, 0, lo);
  *middle = n ? (int32_t)tflc__dims_product(in->dims, lo, hi + 1) : 1;
  *inner = (int32_t)tflc__dims_product(in->dims, hi + 1, in->rank);
  return TFLC_OK;
}
static tflc_status tflc__reverse_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *ax = tflc__in(c, 1), *o = tflc__out(c, 0);
  int32_t a, b, d;
  tflc_status st = tflc__check_io(c, 2, 2, 1, 1);
  if (st)
    return st;
  st = tflc__check_same_type(
      c, in, o,
      TFLC__TYPE_I32 | TFLC__TYPE_F32 | TFLC__TYPE_BIT(TFLC_UINT8) |
          TFLC__TYPE_I8 | TFLC__TYPE_I16 | TFLC__TYPE_I64 | TFLC__TYPE_BOOL);
  if (st)
    return st;
  if (ax->type != TFLC_INT32)
    return tflc__op_err(c, TFLC_ERR_TYPE, "axis of type %d unsupported",
                        ax->type, 0);
  if (ax->rank != 1 || in->rank > 6 || in->rank < tflc__count(ax))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "axis of %d entries for rank %d",
                        tflc__count(ax), in->rank);
  if (o->bytes != in->bytes)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output size differs", 0, 0);
  return tflc__is_plain_const(ax) ? tflc__reverse_geometry(c, &a, &b, &d)
                                  : TFLC_OK;
}
static tflc_status tflc__reverse_invoke(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  int32_t outer, middle, inner;
  tflc_status st = tflc__reverse_geometry(c, &outer, &middle, &inner);
  if (st)
    return st;
  tflc_reverse(tflc_type_size(in->type), outer, middle, inner, in->data,
               tflc__out(c, 0)->data);
  return TFLC_OK;
}

/* MIRROR_PAD: TFLM maps output coordinates through the leading pads and
 * the output shape (the trailing pads are not read); a leading pad beyond
 * the input (REFLECT: dim - 1, SYMMETRIC: dim) would read outside it. */
static tflc_status tflc__mirror_pad_before(tflc__ctx *c, int32_t offset,
                                           int32_t *before) {
  const tflc_tensor *in = tflc__in(c, 0), *pad = tflc__in(c, 1);
  const tflc_tensor *o = tflc__out(c, 0);
  int32_t k;
  for (k = 0; k < in->rank; k++) {
    int64_t b = tflc__entry64(pad, 2 * k);
    if (b < 0 || b > (int64_t)in->dims[k] - offset ||
        (in->dims[k] < 1 && tflc__count(o) > 0))
      return tflc__op_err(c, TFLC_ERR_SHAPE, "padding before axis %d: %d", k,
                          (int32_t)b);
    before[k] = (int32_t)b;
  }
  return TFLC_OK;
}
static tflc_status tflc__mirror_pad_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *pad = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__small_state *s;
  tflc__mirror_pad_options mo;
  int32_t before[TFLC_MAX_DIMS];
  tflc_status st = tflc__check_io(c, 2, 2, 1, 1);
  if (st)
    return st;
  st = tflc__check_same_type(c, in, o, TFLC__TYPE_F32 | TFLC__TYPE_I8);
  if (st)
    return st;
  if (pad->type != TFLC_INT32 && pad->type != TFLC_INT64)
    return tflc__op_err(c, TFLC_ERR_TYPE, "paddings of type %d unsupported",
                        pad->type, 0);
  if (pad->rank != 2 || pad->dims[0] != in->rank || pad->dims[1] != 2 ||
      o->rank != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "paddings must be [%d, 2]", in->rank,
                        0);
  s = tflc__small_state_new(c);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  /* REFLECT (0, the default) skips the edge; SYMMETRIC repeats it; no
   * options at all leave TFLM's mode unknown, which reads as SYMMETRIC */
  tflc__read_mirror_pad_options(c->m, c->op->opts, &mo);
  s->v[0] = c->op->opts && mo.mode == 0;
  return tflc__is_plain_const(pad) ? tflc__mirror_pad_before(c, s->v[0], before)
                                   : TFLC_OK;
}
static tflc_status tflc__mirror_pad_invoke(tflc__ctx *c) {
  const tflc__small_state *s = (const tflc__small_state *)c->op->state;
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_tensor *o = tflc__out(c, 0);
  int32_t before[TFLC_MAX_DIMS];
  tflc_status st = tflc__mirror_pad_before(c, s->v[0], before);
  if (st)
    return st;
  tflc_mirror_pad(tflc_type_size(in->type), in->rank, in->dims, o->dims, before,
                  s->v[0], in->data, o->data);
  return TFLC_OK;
}

/* FILL: constant dims equal to the output's shape, a scalar value of the
 * output's type (float32, int32, int8). */
static tflc_status tflc__fill_prepare(tflc__ctx *c) {
  tflc_tensor *d = tflc__in(c, 0), *v = tflc__in(c, 1), *o = tflc__out(c, 0);
  int32_t k;
  tflc_status st = tflc__check_io(c, 2, 2, 1, 1);
  if (st)
    return st;
  if (v->rank != 0)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "value must be a scalar", 0, 0);
  st = tflc__check_same_type(c, v, o,
                             TFLC__TYPE_F32 | TFLC__TYPE_I32 | TFLC__TYPE_I8);
  if (st)
    return st;
  if (!tflc__is_plain_const(d))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "dims must be constant", 0, 0);
  if (d->rank != 1 || d->dims[0] != o->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "dims of %d entries for rank %d",
                        tflc__count(d), o->rank);
  for (k = 0; k < o->rank; k++) {
    int64_t x;
    const uint8_t *p = (const uint8_t *)d->data;
    if (d->type == TFLC_INT8)
      x = (int8_t)p[k];
    else if (d->type == TFLC_INT16)
      x = (int16_t)tflc__u16(p + 2 * k);
    else if (d->type == TFLC_INT32 || d->type == TFLC_INT64)
      x = tflc__entry64(d, k);
    else
      return tflc__op_err(c, TFLC_ERR_TYPE, "dims of type %d unsupported",
                          d->type, 0);
    if (x != o->dims[k])
      return tflc__op_err(c, TFLC_ERR_SHAPE, "dims differ from the output's", 0,
                          0);
  }
  return TFLC_OK;
}
static tflc_status tflc__fill_invoke(tflc__ctx *c) {
  tflc_tensor *o = tflc__out(c, 0);
  tflc_fill(tflc_type_size(o->type), tflc__count(o), tflc__in(c, 1)->data,
            o->data);
  return TFLC_OK;
}

/* BROADCAST_TO: constant int32 / int64 shape equal to the output's, input
 * broadcastable to it, at most 5 dims. */
static tflc_status tflc__broadcast_to_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *sh = tflc__in(c, 1), *o = tflc__out(c, 0);
  int32_t k, ext;
  tflc_status st = tflc__check_io(c, 2, 2, 1, 1);
  if (st)
    return st;
  if (in->rank > 5 || o->rank > 5)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "at most 5 dims", 0, 0);
  if (sh->type != TFLC_INT32 && sh->type != TFLC_INT64)
    return tflc__op_err(c, TFLC_ERR_TYPE, "shape of type %d unsupported",
                        sh->type, 0);
  if (in->type != o->type || tflc_type_size(in->type) == 0)
    return tflc__op_err(c, TFLC_ERR_TYPE, "types %d and %d", in->type, o->type);
  if (!tflc__is_plain_const(sh))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "shape must be constant", 0,
                        0);
  if (sh->rank != 1 || sh->dims[0] != o->rank || in->rank > o->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "shape of %d entries for rank %d",
                        tflc__count(sh), o->rank);
  ext = o->rank - in->rank;
  for (k = 0; k < o->rank; k++)
    if (tflc__entry64(sh, k) != o->dims[k] ||
        (k >= ext && in->dims[k - ext] != 1 && in->dims[k - ext] != o->dims[k]))
      return tflc__op_err(c, TFLC_ERR_SHAPE,
                          "output shape not broadcastable from the input", 0,
                          0);
  return TFLC_OK;
}
static tflc_status tflc__broadcast_to_invoke(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_tensor *o = tflc__out(c, 0);
  int32_t d[TFLC_MAX_DIMS], k, ext = o->rank - in->rank;
  for (k = 0; k < o->rank; k++)
    d[k] = k < ext ? 1 : in->dims[k - ext];
  tflc_broadcast_to(tflc_type_size(in->type), o->rank, d, o->dims, in->data,
                    o->data);
  return TFLC_OK;
}

/* BROADCAST_ARGS: two 1-D shapes (int32 or int64, alike) to the output's
 * type; shapes that do not broadcast fail the run (TFLM aborts). */
static tflc_status tflc__broadcast_args_prepare(tflc__ctx *c) {
  tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc_status st = tflc__check_io(c, 2, 2, 1, 1);
  if (st)
    return st;
  if ((a->type != TFLC_INT32 && a->type != TFLC_INT64) || b->type != a->type ||
      o->type != a->type)
    return tflc__op_err(c, TFLC_ERR_TYPE, "int32 or int64 shapes, alike", 0, 0);
  if (a->rank != 1 || b->rank != 1 || o->rank != 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "shapes must be 1-D", 0, 0);
  return TFLC_OK;
}
static tflc_status tflc__broadcast_args_invoke(tflc__ctx *c) {
  const tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1);
  tflc_tensor *o = tflc__out(c, 0);
  if (tflc_broadcast_args(a->type == TFLC_INT64, tflc__count(a), a->data,
                          tflc__count(b), b->data, tflc__count(o), o->data))
    return tflc__op_err(c, TFLC_ERR_KERNEL, "shapes do not broadcast", 0, 0);
  return TFLC_OK;
}

/* GATHER_ND: float32 / int8 params, int32 indices [..., nd] with nd <= 5
 * and <= the params' rank; output indices.shape[:-1] + params.shape[nd:]
 * (TFLM sets it; here the output must hold that many elements). */
static tflc_status tflc__gather_nd_prepare(tflc__ctx *c) {
  tflc_tensor *pa = tflc__in(c, 0), *ix = tflc__in(c, 1), *o = tflc__out(c, 0);
  int32_t nd, k;
  size_t n;
  tflc_status st = tflc__check_io(c, 2, 2, 1, 1);
  if (st)
    return st;
  st = tflc__check_same_type(c, pa, o, TFLC__TYPE_F32 | TFLC__TYPE_I8);
  if (st)
    return st;
  if (ix->type != TFLC_INT32)
    return tflc__op_err(c, TFLC_ERR_TYPE, "indices of type %d unsupported",
                        ix->type, 0);
  if (pa->rank < 1 || ix->rank < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "params and indices need a dim", 0,
                        0);
  nd = ix->dims[ix->rank - 1];
  if (nd > pa->rank || nd > 5)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "index depth %d (params rank %d)",
                        nd, pa->rank);
  for (k = 0; k < nd; k++)
    if (pa->dims[k] < 1)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "params dim %d is empty", k, 0);
  n = tflc__dims_product(ix->dims, 0, ix->rank - 1) *
      tflc__dims_product(pa->dims, nd, pa->rank);
  if (n != (size_t)tflc__count(o))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output has %d elements, not %d",
                        tflc__count(o), (int32_t)n);
  return TFLC_OK;
}
static tflc_status tflc__gather_nd_invoke(tflc__ctx *c) {
  const tflc_tensor *pa = tflc__in(c, 0), *ix = tflc__in(c, 1);
  int32_t nd = ix->dims[ix->rank - 1];
  if (tflc_gather_nd(tflc_type_size(pa->type), pa->rank, pa->dims,
                     (int32_t)tflc__dims_product(ix->dims, 0, ix->rank - 1), nd,
                     (const int32_t *)ix->data, pa->data,
                     tflc__out(c, 0)->data))
    return tflc__op_err(c, TFLC_ERR_KERNEL, "index out of bounds", 0, 0);
  return TFLC_OK;
}

/* EMBEDDING_LOOKUP: int32 ids [n], table [rows, ...] float32 or int8;
 * output [n, ...] of the table's type, or float32 from int8 (scale of the
 * table, zero point 0). */
static tflc_status tflc__embedding_lookup_prepare(tflc__ctx *c) {
  tflc_tensor *ids = tflc__in(c, 0), *t = tflc__in(c, 1), *o = tflc__out(c, 0);
  int32_t k;
  tflc_status st = tflc__check_io(c, 2, 2, 1, 1);
  if (st)
    return st;
  if (ids->rank != 1 || ids->type != TFLC_INT32)
    return tflc__op_err(c, TFLC_ERR_TYPE, "ids must be 1-D int32", 0, 0);
  if (t->rank < 2 || (t->type != TFLC_FLOAT32 && t->type != TFLC_INT8) ||
      (o->type != t->type && o->type != TFLC_FLOAT32))
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "table float32 or int8 of rank >= 2, output of its "
                        "type or float32",
                        0, 0);
  if (t->dims[0] < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "empty table", 0, 0);
  if (o->rank != t->rank || o->dims[0] != ids->dims[0] ||
      !tflc__dims_equal(o->dims + 1, t->dims + 1, t->rank - 1))
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "output must be [ids, table dims 1..]", 0, 0);
  if (t->type == TFLC_INT8 && o->type == TFLC_FLOAT32 && t->zero_point != 0)
    return tflc__op_err(c, TFLC_ERR_QUANT, "table zero point must be 0", 0, 0);
  for (k = 0; tflc__is_plain_const(ids) && k < ids->dims[0]; k++) {
    int32_t x = tflc__i32((const uint8_t *)ids->data + 4 * k);
    if (x < 0 || x >= t->dims[0])
      return tflc__op_err(c, TFLC_ERR_SHAPE, "id %d outside [0, %d)", x,
                          t->dims[0]);
  }
  return TFLC_OK;
}
static tflc_status tflc__embedding_lookup_invoke(tflc__ctx *c) {
  const tflc_tensor *ids = tflc__in(c, 0), *t = tflc__in(c, 1);
  tflc_tensor *o = tflc__out(c, 0);
  int32_t rows = t->dims[0], cols = tflc__count(t) / rows, bad;
  if (t->type == TFLC_INT8 && o->type == TFLC_FLOAT32)
    bad = tflc_embedding_lookup_s8_f32(
        cols, rows, ids->dims[0], (const int32_t *)ids->data, t->scale,
        (const int8_t *)t->data, (float *)o->data);
  else
    bad = tflc_embedding_lookup((size_t)cols * tflc_type_size(t->type), rows,
                                ids->dims[0], (const int32_t *)ids->data,
                                t->data, o->data);
  if (bad)
    return tflc__op_err(c, TFLC_ERR_KERNEL, "id outside [0, %d)", rows, 0);
  return TFLC_OK;
}

/* DYNAMIC_UPDATE_SLICE: operand and update of one type (float32, int8,
 * int16, int32) and rank, update no larger; int32 / int64 start indices,
 * clamped into the operand as TFLM does. */
static tflc_status tflc__dynamic_update_slice_prepare(tflc__ctx *c) {
  tflc_tensor *x = tflc__in(c, 0), *u = tflc__in(c, 1), *st_ix = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  int32_t k;
  tflc_status st = tflc__check_io(c, 3, 3, 1, 1);
  if (st)
    return st;
  st = tflc__check_same_type(c, x, o,
                             TFLC__TYPE_F32 | TFLC__TYPE_I8 | TFLC__TYPE_I16 |
                                 TFLC__TYPE_I32);
  if (st)
    return st;
  if (u->type != x->type)
    return tflc__op_err(c, TFLC_ERR_TYPE, "update type %d, operand type %d",
                        u->type, x->type);
  if (st_ix->type != TFLC_INT32 && st_ix->type != TFLC_INT64)
    return tflc__op_err(c, TFLC_ERR_TYPE, "indices of type %d unsupported",
                        st_ix->type, 0);
  if (st_ix->rank != 1 || st_ix->dims[0] != x->rank || u->rank != x->rank ||
      x->rank > 6 || o->bytes != x->bytes)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "indices / update / output shapes",
                        0, 0);
  for (k = 0; k < x->rank; k++)
    if (u->dims[k] > x->dims[k])
      return tflc__op_err(c, TFLC_ERR_SHAPE, "update larger than the operand",
                          0, 0);
  return TFLC_OK;
}
static tflc_status tflc__dynamic_update_slice_invoke(tflc__ctx *c) {
  const tflc_tensor *x = tflc__in(c, 0), *u = tflc__in(c, 1);
  const tflc_tensor *ix = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  int32_t start[TFLC_MAX_DIMS], k;
  if (tflc__count(x) == tflc__count(u)) { /* the update is everything */
    memcpy(o->data, u->data, o->bytes);
    return TFLC_OK;
  }
  if (o->data != x->data)
    memcpy(o->data, x->data, o->bytes);
  if (tflc__count(u) == 0)
    return TFLC_OK;
  for (k = 0; k < x->rank; k++) {
    int64_t v = tflc__entry64(ix, k), hi = (int64_t)x->dims[k] - u->dims[k];
    start[k] = (int32_t)(v < 0 ? 0 : v > hi ? hi : v);
  }
  tflc_dynamic_update_slice(tflc_type_size(x->type), x->rank, x->dims, u->dims,
                            start, u->data, o->data);
  return TFLC_OK;
}

/* ======================================================================== */
/* Operators: QUANTIZE / DEQUANTIZE, TFLM_DECODE, resource variables        */
/* (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE) and CALL_ONCE.              */
/* ======================================================================== */
/* ---- QUANTIZE / DEQUANTIZE
 * --------------------------------------------------------------- */
static tflc_status tflc__quantize_core_prepare(tflc__ctx *c, int dequant) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__quant_state *s;
  if (!in || !o || tflc__count(in) != tflc__count(o))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input and output sizes differ", 0,
                        0);
  s = (tflc__quant_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  if (dequant) {
    if (o->type == TFLC_FLOAT32 && in->type == TFLC_INT8)
      s->kind = 4;
    else if (o->type == TFLC_FLOAT32 && in->type == TFLC_INT16)
      s->kind = 5;
  } else {
    if (in->type == TFLC_FLOAT32 && o->type == TFLC_INT8)
      s->kind = 1;
    else if (in->type == TFLC_FLOAT32 && o->type == TFLC_INT16)
      s->kind = 2;
    else if (in->type == TFLC_INT8 && o->type == TFLC_INT8)
      s->kind = 3;
  }
  if (!s->kind)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d -> %d unsupported",
                        in->type, o->type);
  if (s->kind == 3) {
    if (!(in->scale > 0.0f) || !(o->scale > 0.0f))
      return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
    tflc_quantize_multiplier((double)in->scale / (double)o->scale, &s->q,
                             &s->shift);
  } else if (s->kind <= 2 && !(o->scale > 0.0f)) {
    return tflc__op_err(c, TFLC_ERR_QUANT, "output not quantized", 0, 0);
  }
  return TFLC_OK;
}
static tflc_status tflc__quantize_core_invoke(tflc__ctx *c) {
  tflc__quant_state *s = (tflc__quant_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  int32_t n = tflc__count(in);
  switch (s->kind) {
  case 1:
    tflc_quantize_f32_s8(o->scale, o->zero_point, n, (const float *)in->data,
                         (int8_t *)o->data);
    break;
  case 2:
    tflc_quantize_f32_s16(o->scale, o->zero_point, n, (const float *)in->data,
                          (int16_t *)o->data);
    break;
  case 3:
    tflc_requantize_s8(s->q, s->shift, in->zero_point, o->zero_point, n,
                       (const int8_t *)in->data, (int8_t *)o->data);
    break;
  case 4:
    tflc_dequantize_s8_f32(in->scale, in->zero_point, n,
                           (const int8_t *)in->data, (float *)o->data);
    break;
  default:
    tflc_dequantize_s16_f32(in->scale, in->zero_point, n,
                            (const int16_t *)in->data, (float *)o->data);
    break;
  }
  return TFLC_OK;
}

/* ---- TFLM_DECODE
 * -------------------------------------------------------------------------- */
/* Outputs consumed only by tiled kernels are virtual (decoded inside those
 * kernels); the others are decoded here, whole, at every invoke. */
/* A TFLM_DECODE operator kept because a consumer needs its output whole:
 * the descriptors of its outputs, built here once, then decoded at every
 * invoke into the output buffers. */
static tflc_status tflc__decode_prepare(tflc__ctx *c) {
  tflc__fb fb = tflc__cfb(c);
  uint32_t ni, iv = tflc__get_vec(fb, c->op->opts, TFLC__OP_INPUTS, 4, &ni);
  tflc_const *d;
  int32_t j;
  d = (tflc_const *)tflc__persist2(c->it, sizeof(tflc_const) * c->op->nout,
                                   sizeof(tflc__const32) * c->op->nout);
  if (!d && c->op->nout)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for descriptors", 0, 0);
  c->op->state = d;
  for (j = 0; j < c->op->nout; j++) {
    tflc_tensor v = *tflc__out(c, j);
    tflc_status st;
    if (v.flags & TFLC_TENSOR_VIRTUAL)
      continue;
    v.data = (void *)(uintptr_t)(fb.b + iv + 8 * (uint32_t)j);
    v.flags |= TFLC_TENSOR_LUT | TFLC_TENSOR_DECODED;
    st = tflc__lut_desc(c->it, c->sgt, &v, &d[j]);
    if (st)
      return st;
  }
  return TFLC_OK;
}
static tflc_status tflc__decode_invoke(tflc__ctx *c) {
  const tflc_const *d = (const tflc_const *)c->op->state;
  int32_t j;
  for (j = 0; j < c->op->nout; j++) {
    tflc_tensor *o = tflc__out(c, j);
    if (!(o->flags & TFLC_TENSOR_VIRTUAL))
      tflc_lut_decode(&d[j], 0, d[j].count, o->data);
  }
  return TFLC_OK;
}

/* ---- resource variables and subgraphs ---------------------------------- */
/* The model's VAR_HANDLE operators, every subgraph's. */
static int32_t tflc__var_handles(const tflc_model *m) {
  int32_t sg, i, n = 0;
  for (sg = 0; sg < m->num_subgraphs; sg++)
    for (i = 0; i < tflc_model_num_ops(m, sg); i++)
      n += tflc_model_op_code(m, sg, i) == TFLC_OP_VAR_HANDLE;
  return n;
}
/* Room for one variable per VAR_HANDLE operator in the model. */
static tflc_status tflc__vars_init(tflc_interpreter *it) {
  const int32_t n = tflc__var_handles(it->model);
  if (n) {
    it->vars = (tflc__var *)tflc__persist2(it, sizeof(tflc__var) * (uint32_t)n,
                                           sizeof(tflc__var32) * (uint32_t)n);
    if (!it->vars)
      return tflc__err(it->error, TFLC_ERR_ARENA, "arena too small");
  }
  it->num_vars = 0;
  return TFLC_OK;
}
static tflc_status tflc__var_handle_prepare(tflc__ctx *c) {
  tflc_tensor *o = tflc__out(c, 0);
  tflc__var_handle_options vo;
  uint32_t cl, nl;
  const char *cn, *nm;
  int32_t i;
  tflc__var *v = NULL;
  tflc__read_var_handle_options(c->m, c->op->opts, &vo);
  cn = vo.container;
  cl = vo.container_len;
  nm = vo.shared_name;
  nl = vo.shared_name_len;
  if (!o || o->type != TFLC_RESOURCE)
    return tflc__op_err(c, TFLC_ERR_TYPE, "output must be a resource", 0, 0);
  for (i = 0; i < c->it->num_vars && !v; i++) {
    tflc__var *x = &c->it->vars[i];
    if (x->container_len == cl && x->name_len == nl &&
        (cl == 0 || memcmp(x->container, cn, cl) == 0) &&
        (nl == 0 || memcmp(x->name, nm, nl) == 0))
      v = x;
  }
  if (!v) {
    /* (one record per VAR_HANDLE operator: a model whose handles are
     * prepared more often than it has them is refused) */
    if (!c->it->vars || c->it->num_vars >= tflc__var_handles(c->m))
      return tflc__op_err(c, TFLC_ERR_SCHEMA,
                          "more variables than VAR_HANDLE operators", 0, 0);
    v = &c->it->vars[c->it->num_vars++];
    v->container = cn;
    v->container_len = cl;
    v->name = nm;
    v->name_len = nl;
  }
  o->data = v;
  o->flags |= TFLC_TENSOR_EXTERN; /* no arena buffer: names a variable */
  return TFLC_OK;
}
/* The variable behind resource input k, given its value tensor `t`: its
 * buffer is allocated (zeroed) by the first reader or writer. */
static tflc_status tflc__var_of(tflc__ctx *c, int32_t k, const tflc_tensor *t,
                                tflc__var **out) {
  tflc_tensor *r = tflc__in(c, k);
  tflc__var *v;
  if (!r || r->type != TFLC_RESOURCE || !(r->flags & TFLC_TENSOR_EXTERN) ||
      !r->data)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "input %d must come from VAR_HANDLE", k, 0);
  v = (tflc__var *)r->data;
  if (!v->data) {
    v->data = tflc__persist(c->it, t->bytes ? t->bytes : 1);
    if (!v->data)
      return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for variable", 0, 0);
    v->bytes = t->bytes;
    v->type = t->type;
  } else if (v->bytes != t->bytes || v->type != t->type) {
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "variable holds %d bytes, tensor %d differs",
                        (int32_t)v->bytes, t->index);
  }
  *out = v;
  return TFLC_OK;
}
static tflc_status tflc__read_variable_prepare(tflc__ctx *c) {
  tflc__var *v;
  tflc_tensor *o = tflc__out(c, 0);
  if (!o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "no output", 0, 0);
  return tflc__var_of(c, 0, o, &v);
}
static tflc_status tflc__assign_variable_prepare(tflc__ctx *c) {
  tflc__var *v;
  tflc_tensor *x = tflc__in(c, 1);
  tflc_status st;
  if (!x)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "no value input", 0, 0);
  st = tflc__var_of(c, 0, x, &v);
  /* as TFLM: the first writer prepared fixes the start value, the low
   * byte of its zero point when the value tensor is quantized */
  if (st == TFLC_OK && !v->fill_set) {
    v->fill = x->nscales ? (uint8_t)(x->zero_point & 0xFF) : 0;
    v->fill_set = 1;
  }
  return st;
}
static tflc_status tflc__read_variable_invoke(tflc__ctx *c) {
  tflc__var *v = (tflc__var *)tflc__in(c, 0)->data;
  tflc_copy_rows(1, v->bytes, v->data, 0, tflc__out(c, 0)->data, 0);
  return TFLC_OK;
}
static tflc_status tflc__assign_variable_invoke(tflc__ctx *c) {
  tflc__var *v = (tflc__var *)tflc__in(c, 0)->data;
  tflc_tensor *x = tflc__in(c, 1);
  if (x->flags & TFLC_TENSOR_LUT) { /* compressed: decode straight in */
    tflc_const d = tflc__const(c, x);
    tflc_lut_decode(&d, 0, d.count, v->data);
  } else {
    const uintptr_t a = (uintptr_t)v->data, b = (uintptr_t)x->data;
    if (a + v->bytes <= b || b + v->bytes <= a) /* apart: no memmove */
      tflc_copy_rows(1, v->bytes, x->data, 0, v->data, 0);
    else
      memmove(v->data, x->data, v->bytes);
  }
  return TFLC_OK;
}
static void tflc__view_save(const tflc_interpreter *it, tflc__view *v);
static void tflc__view_load(tflc_interpreter *it, const tflc__view *v);
static void tflc__graph_load(tflc_interpreter *it, const tflc__graph *g);
static tflc_status tflc__run_graph(tflc_interpreter *it);
/* Runs subgraph g in place of the current one, then comes back. Nesting
 * is bounded by the verifier (TFLC_MAX_NESTING). */
static tflc_status tflc__run_subgraph(tflc_interpreter *it, int32_t g) {
  tflc__view cur;
  tflc_status st;
  tflc__view_save(it, &cur);
  tflc__graph_load(it, &it->graphs[g]);
  st = tflc__run_graph(it);
  tflc__view_load(it, &cur);
  return st;
}
static tflc_status tflc__call_once_prepare(tflc__ctx *c) {
  tflc__call_once_options co;
  int32_t g;
  tflc__read_call_once_options(c->m, c->op->opts, &co);
  g = co.init_subgraph_index;
  /* the verifier keeps g in range and the calls acyclic and bounded */
  if (g < 1 || g >= c->m->num_subgraphs || !c->it->graphs)
    return tflc__op_err(c, TFLC_ERR_INDEX, "init subgraph %d out of range", g,
                        0);
  c->op->state = (void *)(uintptr_t)g; /* the index, not a pointer */
  return TFLC_OK;
}
static tflc_status tflc__call_once_invoke(tflc__ctx *c) {
  tflc_interpreter *it = c->it;
  int32_t g = (int32_t)(uintptr_t)c->op->state;
  tflc_status st;
  if (it->graphs[g].ran)
    return TFLC_OK;
  st = tflc__run_subgraph(it, g);
  if (st == TFLC_OK)
    it->graphs[g].ran = 1;
  return st;
}

/* ---- IF / WHILE ---------------------------------------------------------- */
/* IF runs `then` or `else` on inputs 1.. (input 0 the bool condition) and
 * takes its outputs; WHILE runs `cond` on its loop values and, while its
 * first output is true, `body`, whose outputs become the next values. As
 * TFLM, values are copied into the subgraph's inputs and out of its
 * outputs; every subgraph is planned on one timeline with the rest (the
 * planner), so branches and loop parts share memory. */
typedef struct tflc__flow_state {
  int32_t first, second; /* then / else, or cond / body */
} tflc__flow_state;

/* Subgraph g's input (outputs != 0: output) count when k < 0, else the
 * model tensor index of its k-th one (-1 when absent). */
static int32_t tflc__subgraph_io(const tflc_model *m, int32_t g, int outputs,
                                 int32_t k) {
  uint32_t n = 0, v = tflc__sg_vec(m, tflc__subgraph(m, g),
                                   outputs ? TFLC__SG_OUTPUTS : TFLC__SG_INPUTS,
                                   4, &n);
  if (k < 0)
    return (int32_t)n;
  return v && (uint32_t)k < n ? tflc__i32(tflc__mfb(m).b + v + 4 * (uint32_t)k)
                              : -1;
}
/* Tensor t and input (outputs != 0: output) k of subgraph g have the same
 * type and byte size, so values copy between them unchanged. */
static tflc_status tflc__check_passed(tflc__ctx *c, const tflc_tensor *t,
                                      int32_t g, int outputs, int32_t k) {
  tflc_tensor s;
  int32_t ti = tflc__subgraph_io(c->m, g, outputs, k);
  if (!t)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "value %d absent", k, 0);
  if (ti < 0 || tflc_model_tensor(c->m, g, ti, &s, NULL, NULL) != TFLC_OK ||
      s.type != t->type || s.bytes != t->bytes)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        outputs ? "subgraph %d output %d: type or size differs"
                                : "subgraph %d input %d: type or size differs",
                        g, k);
  return TFLC_OK;
}
/* The two subgraphs, read from the operator's options when needed (no
 * persistent state: the verifier keeps the indices in range). */
static tflc__flow_state tflc__flow_graphs(const tflc__ctx *c) {
  tflc__flow_state s;
  int32_t g[2] = {0, 0};
  (void)tflc__op_subgraphs(c->m, c->op->code, c->op->opts, g);
  s.first = g[0];
  s.second = g[1];
  return s;
}
/* Copies a value between two tensors of equal size (checked at prepare). */
static void tflc__pass(tflc_tensor *dst, const tflc_tensor *src) {
  if (dst->data != src->data)
    memcpy(dst->data, src->data, dst->bytes);
}
static tflc_tensor *tflc__graph_in(tflc_interpreter *it, int32_t g, int32_t k) {
  return &it->graphs[g].tensors[TFLC__GRAPH_IN(&it->graphs[g], k)];
}
static tflc_tensor *tflc__graph_out(tflc_interpreter *it, int32_t g,
                                    int32_t k) {
  return &it->graphs[g].tensors[TFLC__GRAPH_OUT(&it->graphs[g], k)];
}

/* IF: TFLM's Prepare checks the condition (bool, one element) and the
 * `then` input / output counts; `else` is checked here too, at prepare,
 * where TFLM would fail at invoke when it takes that branch. */
static tflc_status tflc__if_prepare(tflc__ctx *c) {
  const tflc_tensor *cond = tflc__in(c, 0);
  tflc__flow_state fs;
  const tflc__flow_state *s = &fs;
  int32_t b, k, g;
  tflc_status st;
  if (c->op->nin < 1 || !cond)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "no condition input", 0, 0);
  if (cond->type != TFLC_BOOL || tflc__count(cond) != 1)
    return tflc__op_err(c, TFLC_ERR_TYPE, "condition must be one bool", 0, 0);
  if (!c->it->graphs)
    return tflc__op_err(c, TFLC_ERR_INDEX, "no branch subgraphs", 0, 0);
  fs = tflc__flow_graphs(c);
  for (b = 0; b < 2; b++) {
    g = b ? s->second : s->first;
    if (tflc__subgraph_io(c->m, g, 0, -1) != c->op->nin - 1 ||
        tflc__subgraph_io(c->m, g, 1, -1) != c->op->nout)
      return tflc__op_err(c, TFLC_ERR_SCHEMA,
                          "subgraph %d: inputs / outputs differ from the op's",
                          g, 0);
    for (k = 1; k < c->op->nin; k++) {
      st = tflc__check_passed(c, tflc__in(c, k), g, 0, k - 1);
      if (st)
        return st;
    }
    for (k = 0; k < c->op->nout; k++) {
      st = tflc__check_passed(c, tflc__out(c, k), g, 1, k);
      if (st)
        return st;
    }
  }
  return TFLC_OK;
}
static tflc_status tflc__if_invoke(tflc__ctx *c) {
  tflc_interpreter *it = c->it;
  const tflc__flow_state s = tflc__flow_graphs(c);
  int32_t g = ((const uint8_t *)tflc__in(c, 0)->data)[0] ? s.first : s.second;
  int32_t k;
  tflc_status st;
  for (k = 1; k < c->op->nin; k++)
    tflc__pass(tflc__graph_in(it, g, k - 1), tflc__in(c, k));
  st = tflc__run_subgraph(it, g);
  if (st)
    return st;
  for (k = 0; k < c->op->nout; k++)
    tflc__pass(tflc__out(c, k), tflc__graph_out(it, g, k));
  return TFLC_OK;
}

/* WHILE: TFLM's Prepare checks the counts (op inputs = op outputs = cond
 * inputs = body inputs = body outputs); here also every value's type and
 * size and that cond's first output is a bool, which TFLM reads. */
static tflc_status tflc__while_prepare(tflc__ctx *c) {
  tflc__flow_state fs;
  const tflc__flow_state *s = &fs;
  tflc_tensor co;
  int32_t k, n = c->op->nin, ci;
  tflc_status st;
  if (!c->it->graphs)
    return tflc__op_err(c, TFLC_ERR_INDEX, "no loop subgraphs", 0, 0);
  fs = tflc__flow_graphs(c);
  if (c->op->nout != n || tflc__subgraph_io(c->m, s->first, 0, -1) != n ||
      tflc__subgraph_io(c->m, s->second, 0, -1) != n ||
      tflc__subgraph_io(c->m, s->second, 1, -1) != n)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "cond %d / body %d: inputs / outputs differ from the "
                        "op's",
                        s->first, s->second);
  ci = tflc__subgraph_io(c->m, s->first, 1, 0);
  if (ci < 0 || tflc_model_tensor(c->m, s->first, ci, &co, NULL, NULL) ||
      co.type != TFLC_BOOL || tflc__count(&co) < 1)
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "cond subgraph %d: first output must be bool", s->first,
                        0);
  for (k = 0; k < n; k++) {
    const tflc_tensor *x = tflc__in(c, k), *y = tflc__out(c, k);
    if (!x || !y || x->type != y->type || x->bytes != y->bytes)
      return tflc__op_err(c, TFLC_ERR_SHAPE,
                          "input %d and output %d differ in type or size", k,
                          k);
    st = tflc__check_passed(c, x, s->first, 0, k);
    if (!st)
      st = tflc__check_passed(c, x, s->second, 0, k);
    if (!st)
      st = tflc__check_passed(c, x, s->second, 1, k);
    if (st)
      return st;
  }
  return TFLC_OK;
}
static tflc_status tflc__while_invoke(tflc__ctx *c) {
  tflc_interpreter *it = c->it;
  const tflc__flow_state fs = tflc__flow_graphs(c);
  const tflc__flow_state *s = &fs;
  int32_t k, n = c->op->nin;
  uint32_t iterations = 0;
  tflc_status st;
  /* the inputs go to the outputs first: the planner lets cond's and
   * body's tensors reuse the inputs' bytes once they are read */
  for (k = 0; k < n; k++)
    tflc__pass(tflc__out(c, k), tflc__in(c, k));
  for (k = 0; k < n; k++)
    tflc__pass(tflc__graph_in(it, s->first, k), tflc__out(c, k));
  st = tflc__run_subgraph(it, s->first);
  while (!st && ((const uint8_t *)tflc__graph_out(it, s->first, 0)->data)[0]) {
    if (TFLC_WHILE_MAX_ITERATIONS &&
        ++iterations > (uint32_t)TFLC_WHILE_MAX_ITERATIONS)
      return tflc__op_err(c, TFLC_ERR_KERNEL, "more than %d iterations",
                          (int32_t)TFLC_WHILE_MAX_ITERATIONS, 0);
    for (k = 0; k < n; k++)
      tflc__pass(tflc__graph_in(it, s->second, k), tflc__out(c, k));
    st = tflc__run_subgraph(it, s->second);
    if (st)
      break;
    for (k = 0; k < n; k++)
      tflc__pass(tflc__out(c, k), tflc__graph_out(it, s->second, k));
    for (k = 0; k < n; k++)
      tflc__pass(tflc__graph_in(it, s->first, k), tflc__out(c, k));
    st = tflc__run_subgraph(it, s->first);
  }
  return st;
}

/* ---- reset: variables back to their start values ------------------------ */
/* The byte a variable tensor starts as (TFLM's ResetTensorData): the low
 * byte of an int8 tensor's first zero point when it has any, else 0. */
static uint8_t tflc__variable_fill(const tflc_model *m, uint32_t sgt,
                                   const tflc_tensor *t) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t qt, z, nz = 0;
  if (t->type != TFLC_INT8)
    return 0;
  qt = tflc__get_ref(fb, tflc__tensor_table(m, sgt, t->index), TFLC__T_QUANT);
  z = qt ? tflc__get_vec(fb, qt, TFLC__Q_ZP, 8, &nz) : 0;
  return z && nz ? fb.b[z] : 0; /* little-endian int64: low byte first */
}
/* Variable tensors of one subgraph to their start values, and the state
 * its operators keep outside tensors (TFLM's per-operator Reset). */
static void tflc__reset_graph(tflc_interpreter *it, uint32_t sgt,
                              tflc_tensor *tensors, tflc__op *ops, int32_t n,
                              int32_t nops) {
  int32_t k;
  tflc__ctx c;
  for (k = 0; k < n; k++) {
    tflc_tensor *t = &tensors[k];
    if ((t->flags & TFLC_TENSOR_VARIABLE) && t->data &&
        !(t->flags & (TFLC_TENSOR_CONST | TFLC_TENSOR_LUT |
                      TFLC_TENSOR_VIRTUAL | TFLC_TENSOR_EXTERN)))
      memset(t->data, tflc__variable_fill(it->model, sgt, t), t->bytes);
  }
  c.it = it;
  c.m = it->model;
  c.sgt = sgt;
  for (k = 0; k < nops; k++) {
    c.op = &ops[k];
    if (!c.op->user)
      tflc__reset_op(&c);
  }
}
TFLC_API tflc_status tflc_reset(tflc_interpreter *it) {
  int32_t g;
  if (!it || !it->ready)
    return TFLC_ERR_STATE;
  if (it->graphs) {
    for (g = 0; g < it->model->num_subgraphs; g++) {
      tflc__graph *gr = &it->graphs[g];
      tflc__reset_graph(it, gr->sgt, gr->tensors, gr->ops, gr->num_tensors,
                        gr->num_ops);
      gr->ran = 0;
    }
  } else {
    tflc__reset_graph(it, it->sgt, it->tensors, it->ops, it->num_tensors,
                      it->num_ops);
  }
  for (g = 0; g < it->num_vars; g++)
    if (it->vars[g].data)
      memset(it->vars[g].data, it->vars[g].fill, it->vars[g].bytes);
  return TFLC_OK;
}

/* ---- TFLM's custom operators: CIRCULAR_BUFFER ---------------------------- */
/* CIRCULAR_BUFFER (custom code "CIRCULAR_BUFFER"): the output [1, slots, 1,
 * depth] (a variable tensor) keeps the last `slots` inputs [1, 1, 1,
 * depth]; each invoke drops the oldest and appends the input. It runs
 * every cycles_max-th invoke only (the others end the invoke with an
 * error, TFLM's kTfLiteAbort). cycles_max is element 0 of the custom
 * options (read as TFLM's FlexbufferWrapper does); when absent or <= 0,
 * TFLM guesses 1 or 2 from the output shape and a count of such
 * operators, kept in a process-wide static: here it is counted over this
 * model, which gives TFLM's choice for the first interpreter a process
 * makes. */
typedef struct tflc__circular_buffer_state {
  int32_t cycles_max, cycles_until_run;
  int32_t slots, depth;
} tflc__circular_buffer_state;

/* cycles_max of a CIRCULAR_BUFFER as written in its options (0: none). */
static int32_t tflc__circular_buffer_option(const tflc_model *m, uint32_t sgt,
                                            int32_t i) {
  uint32_t size = 0;
  const uint8_t *o = tflc__op_custom_options(m, sgt, i, &size);
  tflc__flex f;
  if (!o || size == 0 || !tflc__flex_open(&f, o, size))
    return 0;
  return (int32_t)tflc__flex_element_int(&f, 0, 0);
}
/* TFLM's guess when cycles_max <= 0: 1 for outputs of 5, 13 or 25 slots,
 * or for the fifth guessing operator with a [.., 2, 96] output; else 2. The
 * count restarts after each guess of 1. Replays the guesses of the
 * CIRCULAR_BUFFER operators prepared before operator `index` of subgraph
 * table `sgt` (subgraphs in order, operators in order). */
static int32_t tflc__circular_buffer_guess(const tflc_model *m, uint32_t sgt,
                                           int32_t index) {
  int32_t sg, i, count = 0, guess = 2;
  for (sg = 0; sg < m->num_subgraphs; sg++) {
    uint32_t t = tflc__subgraph(m, sg);
    int32_t n = tflc_model_num_ops(m, sg);
    for (i = 0; i < n; i++) {
      tflc_tensor o;
      int32_t out;
      if (tflc_model_op_code(m, sg, i) != TFLC_OP_CIRCULAR_BUFFER ||
          tflc__circular_buffer_option(m, t, i) > 0)
        continue;
      out = tflc_model_op_io(m, sg, i, 1, 0);
      if (out < 0 || tflc_model_tensor(m, sg, out, &o, NULL, NULL) != TFLC_OK ||
          o.rank != 4)
        continue; /* refused at its own prepare */
      count++;
      if (o.dims[1] == 5 || o.dims[1] == 13 || o.dims[1] == 25 ||
          (count == 5 && o.dims[2] == 2 && o.dims[3] == 96)) {
        guess = 1;
        count = 0;
      } else {
        guess = 2;
      }
      if (t == sgt && i == index)
        return guess;
    }
  }
  return guess;
}
static tflc_status tflc__circular_buffer_prepare(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__circular_buffer_state *s;
  if (!in || !o || c->op->nin != 1 || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs one input and one output", 0,
                        0);
  if (in->rank != 4 || o->rank != 4 || in->dims[0] != o->dims[0] ||
      in->dims[1] != 1 || in->dims[2] != o->dims[2] ||
      in->dims[3] != o->dims[3] || o->dims[1] < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "input [N, 1, H, D], output [N, slots, H, D]", 0, 0);
  if (in->type != TFLC_INT8 || o->type != TFLC_INT8)
    return tflc__op_err(c, TFLC_ERR_TYPE, "int8 input and output only", 0, 0);
  s = TFLC__NEW_STATE(c, tflc__circular_buffer_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "arena too small", 0, 0);
  s->cycles_max = tflc__circular_buffer_option(c->m, c->sgt, c->op->index);
  if (s->cycles_max <= 0)
    s->cycles_max = tflc__circular_buffer_guess(c->m, c->sgt, c->op->index);
  s->cycles_until_run = s->cycles_max;
  s->slots = o->dims[1];
  s->depth = o->dims[2] * o->dims[3];
  return TFLC_OK;
}
static tflc_status tflc__circular_buffer_invoke(tflc__ctx *c) {
  tflc__circular_buffer_state *s = (tflc__circular_buffer_state *)c->op->state;
  /* the first batch only, as TFLM */
  tflc_circular_buffer_push(s->slots, (size_t)s->depth, tflc__in(c, 0)->data,
                            tflc__out(c, 0)->data);
  if (--s->cycles_until_run != 0)
    return tflc__op_err(c, TFLC_ERR_KERNEL,
                        "not due this cycle: invoke ends here (TFLM: abort)", 0,
                        0);
  s->cycles_until_run = s->cycles_max;
  return TFLC_OK;
}
static void tflc__circular_buffer_reset(tflc__ctx *c) {
  tflc__circular_buffer_state *s = (tflc__circular_buffer_state *)c->op->state;
  if (s)
    s->cycles_until_run = s->cycles_max;
}

/* ---- TFLM's custom operators: TFLite_Detection_PostProcess --------------- */
/* Float32 SSD post-processing (custom code "TFLite_Detection_PostProcess"):
 * box encodings [1, boxes, >= 4], class scores [1, boxes, classes (+1
 * background)], anchors [boxes, 4] -> detection boxes, classes, scores
 * and their count. Options: a flexbuffer map read by key as TFLM reads
 * it. TFLM's run-time checks on shapes and options are made here at init;
 * its scratch (11 buffers, several of max_detections x boxes) is one
 * buffer sized to what the algorithm uses. */
typedef struct tflc__detection_state {
  tflc_detection_params p;
  int32_t scratch, capacity;
} tflc__detection_state;

/* Option `key` as a number (TFLM's AsInt32 / AsFloat / AsBool): 1, or 0
 * when present but not a number. Absent keys read 0. */
static int tflc__detection_option(const tflc__flex *f, const char *key,
                                  int64_t *iv, double *dv) {
  return tflc__flex_number(f, tflc__flex_find(f, key), iv, dv);
}
static tflc_status tflc__detection_postprocess_prepare(tflc__ctx *c) {
  static const char *const keys[11] = {"max_detections",
                                       "max_classes_per_detection",
                                       "detections_per_class",
                                       "use_regular_nms",
                                       "nms_score_threshold",
                                       "nms_iou_threshold",
                                       "num_classes",
                                       "y_scale",
                                       "x_scale",
                                       "h_scale",
                                       "w_scale"};
  const tflc_tensor *bx = tflc__in(c, 0), *sc = tflc__in(c, 1);
  const tflc_tensor *an = tflc__in(c, 2);
  tflc__detection_state *s;
  tflc_detection_params *p;
  int64_t iv[11];
  double dv[11];
  uint32_t size = 0;
  const uint8_t *o = tflc__op_custom_options(c->m, c->sgt, c->op->index, &size);
  tflc__flex f;
  size_t bytes;
  int32_t k, cap = 0x7FFFFFFF;
  if (!o || !tflc__flex_open(&f, o, size) || !f.keys)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "custom options are not a flexbuffer map", 0, 0);
  for (k = 0; k < 11; k++)
    if (!tflc__detection_option(&f, keys[k], &iv[k], &dv[k]))
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "option %d is not a number", k,
                          0);
  if (c->op->nin != 3 || c->op->nout != 4 || !bx || !sc || !an)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs 3 inputs and 4 outputs", 0,
                        0);
  for (k = 0; k < 4; k++)
    if (tflc__out(c, k)->type != TFLC_FLOAT32)
      return tflc__op_err(c, TFLC_ERR_TYPE, "output %d must be float32", k, 0);
  if (bx->type != TFLC_FLOAT32 || sc->type != TFLC_FLOAT32 ||
      an->type != TFLC_FLOAT32)
    return tflc__op_err(c, TFLC_ERR_TYPE, "float32 inputs only (as TFLM)", 0,
                        0);
  if (bx->rank != 3 || sc->rank != 3 || an->rank != 2)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "ranks must be 3, 3 and 2", 0, 0);
  s = TFLC__NEW_STATE(c, tflc__detection_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  p = &s->p;
  p->max_detections = (int32_t)iv[0];
  p->max_classes_per_detection = (int32_t)iv[1];
  p->detections_per_class = tflc__flex_is_null(&f, tflc__flex_find(&f, keys[2]))
                                ? 100
                                : (int32_t)iv[2];
  p->regular =
      !tflc__flex_is_null(&f, tflc__flex_find(&f, keys[3])) && iv[3] != 0;
  p->score_threshold = (float)dv[4];
  p->iou_threshold = (float)dv[5];
  p->num_classes = (int32_t)iv[6];
  p->y_scale = (float)dv[7];
  p->x_scale = (float)dv[8];
  p->h_scale = (float)dv[9];
  p->w_scale = (float)dv[10];
  p->num_boxes = bx->dims[1];
  p->box_stride = bx->dims[2];
  p->classes_with_background = sc->dims[2];
  if (bx->dims[0] != 1 || bx->dims[2] < 4 || sc->dims[0] != 1 ||
      sc->dims[1] != p->num_boxes || an->dims[1] != 4 ||
      an->dims[0] < p->num_boxes)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "boxes [1, n, >=4], scores [1, n, c], anchors [n, 4]",
                        0, 0);
  if (p->num_classes < 0 || p->classes_with_background < p->num_classes ||
      p->classes_with_background - p->num_classes > 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "%d classes for %d score columns",
                        p->num_classes, p->classes_with_background);
  if (p->max_detections < 0 ||
      (p->regular ? p->detections_per_class <= 0
                  : p->max_classes_per_detection <= 0 || p->num_classes < 1))
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "detection counts out of range", 0,
                        0);
  if ((!p->regular || p->num_classes > 0) &&
      !(p->iou_threshold > 0.0f && p->iou_threshold <= 1.0f))
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "IoU threshold outside (0, 1]", 0,
                        0);
  /* detections the outputs hold: boxes of 4, classes, scores */
  if (tflc__count(tflc__out(c, 0)) / 4 < cap)
    cap = tflc__count(tflc__out(c, 0)) / 4;
  for (k = 1; k < 3; k++)
    if (tflc__count(tflc__out(c, k)) < cap)
      cap = tflc__count(tflc__out(c, k));
  if (tflc__count(tflc__out(c, 3)) < 1 ||
      (p->regular && cap < p->max_detections))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "outputs hold %d detections, not %d",
                        cap, p->max_detections);
  s->capacity = cap;
  bytes = tflc_detection_postprocess_scratch(p);
  s->scratch = bytes ? tflc__scratch(c, bytes) : -1;
  if (s->scratch < 0)
    return bytes ? tflc__scratch_err(c)
                 : tflc__op_err(c, TFLC_ERR_ARENA, "scratch too large", 0, 0);
  return TFLC_OK;
}
static tflc_status tflc__detection_postprocess_invoke(tflc__ctx *c) {
  const tflc__detection_state *s = (const tflc__detection_state *)c->op->state;
  int r = tflc_detection_postprocess_f32(
      &s->p, (const float *)tflc__in(c, 0)->data,
      (const float *)tflc__in(c, 1)->data, (const float *)tflc__in(c, 2)->data,
      (float *)tflc__out(c, 0)->data, (float *)tflc__out(c, 1)->data,
      (float *)tflc__out(c, 2)->data, (float *)tflc__out(c, 3)->data,
      s->capacity, (void *)c->op->scratch[s->scratch]);
  if (r == -1)
    return tflc__op_err(c, TFLC_ERR_KERNEL,
                        "a decoded box is empty (TFLM fails too)", 0, 0);
  if (r)
    return tflc__op_err(c, TFLC_ERR_KERNEL,
                        "detections past the outputs (max_classes_per_"
                        "detection > 1 with fast NMS)",
                        0, 0);
  return TFLC_OK;
}

/* ======================================================================== */
/* Operators: TFLM's Signal* custom operators (signal/micro/kernels):       */
/* window, FFT auto scale, RFFT / IRFFT, energy, filter bank and its square */
/* root, spectral subtraction, PCAN and log, framer, stacker, delay and     */
/* overlap-add. Their custom options are FlexBuffers maps that TFLM reads   */
/* by index (keys sorted); here the key at each index must be TFLM's.       */
/* Where TFLM's kernels would read or write outside a tensor (or shift by   */
/* 32 or more), prepare refuses the model instead.                          */
/* ======================================================================== */
/* ---- options and checks shared by the Signal operators ------------------ */
static tflc_status tflc__signal_key_err(tflc__ctx *c, int32_t k,
                                        const char *key) {
#ifndef TFLC_NO_ERROR_STRINGS
  return tflc__err(c->it->error, TFLC_ERR_SCHEMA,
                   "op %d %s: custom option %d must be '%s'", c->op->index,
                   tflc__op_name(c), k, key);
#else
  (void)k;
  (void)key;
  return tflc__op_err(c, TFLC_ERR_SCHEMA, "", 0, 0);
#endif
}
/* Reads custom options 0..n-1 into v as TFLM's FlexbufferWrapper does
 * (ElementAsInt32 / ElementAsBool: the slot as a signed integer); option k
 * must have key names[k]. With `type`, also the map's "T" (looked up by
 * key, 0 when absent, as flexbuffers::Map::operator[]). */
static tflc_status tflc__signal_options(tflc__ctx *c, const char *const *names,
                                        int32_t n, int32_t *v, int32_t *type) {
  tflc__flex f;
  uint32_t size = 0;
  const uint8_t *b = tflc__op_custom_options(c->m, c->sgt, c->op->index, &size);
  int32_t k;
  if (!tflc__flex_open(&f, b, size) || !f.keys)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "custom options are not a FlexBuffers map", 0, 0);
  for (k = 0; k < n; k++) {
    if (tflc__flex_find(&f, names[k]) != k)
      return tflc__signal_key_err(c, k, names[k]);
    v[k] = (int32_t)(uint32_t)(uint64_t)tflc__flex_element_int(&f, k, 0);
  }
  if (type) {
    int64_t iv = 0;
    double dv = 0.0;
    if (!tflc__flex_number(&f, tflc__flex_find(&f, "T"), &iv, &dv))
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "custom option T is no number", 0,
                          0);
    *type = (int32_t)(uint32_t)(uint64_t)iv;
  }
  return TFLC_OK;
}
/* Input / output k of type `type` and rank `rank` (-1: any rank). */
static tflc_status tflc__signal_tensor(tflc__ctx *c, tflc_tensor *t, int output,
                                       int32_t k, int32_t type, int32_t rank) {
  if (!t)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        output ? "output %d missing" : "input %d missing", k,
                        0);
  if (t->type != type)
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        output ? "output %d must be of type %d"
                               : "input %d must be of type %d",
                        k, type);
  if (rank >= 0 && t->rank != rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        output ? "output %d must have rank %d"
                               : "input %d must have rank %d",
                        k, rank);
  return TFLC_OK;
}
static tflc_status tflc__signal_io(tflc__ctx *c, int32_t nin, int32_t nout) {
  if (c->op->nin != nin || c->op->nout != nout)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs %d inputs and %d outputs",
                        nin, nout);
  return TFLC_OK;
}
/* Persistent bytes for an op: the product a * b * c, NULL when it
 * overflows or the arena is full. */
static void *tflc__signal_persist(tflc__ctx *c, uint64_t a, uint64_t b,
                                  uint64_t n) {
  if (b && a > 0xFFFFFFFFu / b)
    return NULL;
  if (n && a * b > 0xFFFFFFFFu / n)
    return NULL;
  return tflc__persist(c->it, (size_t)(a * b * n));
}
#define TFLC__SIGNAL_CHECK(x)                                                  \
  do {                                                                         \
    tflc_status st_ = (x);                                                     \
    if (st_ != TFLC_OK)                                                        \
      return st_;                                                              \
  } while (0)

/* ---- SignalWindow -------------------------------------------------------- */
typedef struct tflc__signal_window_state {
  int32_t shift, window;
} tflc__signal_window_state;
static tflc_status tflc__signal_window_prepare(tflc__ctx *c) {
  static const char *const names[1] = {"shift"};
  tflc_tensor *in = tflc__in(c, 0), *w = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__signal_window_state *s;
  int32_t v[1] = {0}; /* (set by the options; gcc -O1 cannot tell) */
  TFLC__SIGNAL_CHECK(tflc__signal_io(c, 2, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_options(c, names, 1, v, NULL));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, in, 0, 0, TFLC_INT16, -1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, w, 0, 1, TFLC_INT16, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, o, 1, 0, TFLC_INT16, in->rank));
  if (in->rank < 1 || tflc__count(o) != tflc__count(in))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output must match the input", 0, 0);
  if (w->dims[0] < 1 || tflc__count(in) % w->dims[0] != 0)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "input of %d samples is no whole number of windows "
                        "of %d",
                        tflc__count(in), w->dims[0]);
  if (v[0] < 0 || v[0] > 31)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "shift %d outside [0, 31]", v[0],
                        0);
  s = TFLC__NEW_STATE(c, tflc__signal_window_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->shift = v[0];
  s->window = w->dims[0];
  return TFLC_OK;
}
static tflc_status tflc__signal_window_invoke(tflc__ctx *c) {
  const tflc__signal_window_state *s =
      (const tflc__signal_window_state *)c->op->state;
  const tflc_tensor *in = tflc__in(c, 0);
  const int16_t *x = (const int16_t *)in->data;
  int16_t *y = (int16_t *)tflc__out(c, 0)->data;
  int32_t i, n = tflc__count(in);
  for (i = 0; i < n; i += s->window)
    tflc_signal_window_s16(x + i, (const int16_t *)tflc__in(c, 1)->data,
                           s->window, s->shift, y + i);
  return TFLC_OK;
}

/* ---- SignalFftAutoScale -------------------------------------------------- */
static tflc_status tflc__signal_fft_auto_scale_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0),
              *bits = tflc__out(c, 1);
  TFLC__SIGNAL_CHECK(tflc__signal_io(c, 1, 2));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, in, 0, 0, TFLC_INT16, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, o, 1, 0, TFLC_INT16, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, bits, 1, 1, TFLC_INT32, 0));
  if (o->dims[0] != in->dims[0])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output must match the input", 0, 0);
  return TFLC_OK;
}
static tflc_status tflc__signal_fft_auto_scale_invoke(tflc__ctx *c) {
  const tflc_tensor *o = tflc__out(c, 0);
  const int32_t bits = tflc_signal_fft_auto_scale_s16(
      (const int16_t *)tflc__in(c, 0)->data, o->dims[0], (int16_t *)o->data);
  memcpy(tflc__out(c, 1)->data, &bits, sizeof bits);
  return TFLC_OK;
}

/* ---- SignalRfft / SignalIrfft -------------------------------------------- */
typedef struct tflc__signal_fft_state {
  tflc_fft_plan plan;
  int32_t type, rows, in_row, out_row, work;
} tflc__signal_fft_state;
typedef struct tflc__signal_fft_state32 {
  int32_t fft_length, inverse, num_factors;
  uint8_t radix[TFLC_FFT_MAX_FACTORS];
  uint32_t twiddles, super_twiddles;
  int32_t type, rows, in_row, out_row, work;
} tflc__signal_fft_state32;
/* T, fft_length, shapes: rows of in_row samples (RFFT) or of fft_length /
 * 2 + 1 complex bins (IRFFT), one output row each. */
static tflc_status tflc__signal_fft_prepare(tflc__ctx *c, int inverse) {
  static const char *const names[2] = {"T", "fft_length"};
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__signal_fft_state *s;
  int32_t v[2], type = 0, n, bins, in_last, out_last, in_rows, out_rows;
  size_t es, tw;
  void *mem;
  int ok;
  TFLC__SIGNAL_CHECK(tflc__signal_io(c, 1, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_options(c, names, 2, v, &type));
  if (type != TFLC_INT16 && type != TFLC_INT32 && type != TFLC_FLOAT32)
    return tflc__op_err(c, TFLC_ERR_TYPE, "T %d is not int16, int32, float32",
                        type, 0);
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, in, 0, 0, type, -1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, o, 1, 0, type, in->rank));
  n = v[1];
  es = tflc_type_size(type);
  tw = tflc_fft_plan_bytes(n, es);
  if (!tw)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "fft_length %d: not even, or its half has a prime "
                        "factor above 5",
                        n, 0);
  bins = n / 2 + 1;
  if (in->rank < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input must have rank >= 1", 0, 0);
  in_last = in->dims[in->rank - 1];
  out_last = o->dims[o->rank - 1];
  if (!inverse && (in_last < 1 || in_last > n || out_last != 2 * bins))
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "rows of 1..fft_length samples in, fft_length + 2 "
                        "out (fft_length %d)",
                        n, 0);
  if (inverse && (in_last != 2 * bins || out_last != n))
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "rows of fft_length + 2 values in, fft_length out "
                        "(fft_length %d)",
                        n, 0);
  in_rows = tflc__count(in) / in_last;
  out_rows = out_last ? tflc__count(o) / out_last : 0;
  if (in_rows != out_rows)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "%d input rows, %d output rows",
                        in_rows, out_rows);
  s = TFLC__NEW_STATE32(c, tflc__signal_fft_state, tflc__signal_fft_state32);
  mem = s ? tflc__persist(c->it, tw) : NULL;
  if (!mem)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  if (type == TFLC_INT16)
    ok = tflc_fft_plan_s16(&s->plan, n, inverse, mem) == 0;
  else if (type == TFLC_INT32)
    ok = tflc_fft_plan_s32(&s->plan, n, inverse, mem) == 0;
  else
    ok = tflc_fft_plan_f32(&s->plan, n, inverse, mem) == 0;
  if (!ok)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "fft_length %d unsupported", n,
                        0);
  s->type = type;
  s->rows = in_rows;
  s->in_row = in_last;
  s->out_row = out_last;
  s->work = tflc__scratch(c, (uintptr_t)n * es);
  if (s->work < 0)
    return tflc__scratch_err(c);
  return TFLC_OK;
}
static tflc_status tflc__signal_rfft_prepare(tflc__ctx *c) {
  return tflc__signal_fft_prepare(c, 0);
}
static tflc_status tflc__signal_irfft_prepare(tflc__ctx *c) {
  return tflc__signal_fft_prepare(c, 1);
}
static tflc_status tflc__signal_fft_invoke(tflc__ctx *c) {
  const tflc__signal_fft_state *s =
      (const tflc__signal_fft_state *)c->op->state;
  const uint8_t *x = (const uint8_t *)tflc__in(c, 0)->data;
  uint8_t *y = (uint8_t *)tflc__out(c, 0)->data;
  void *work = (void *)c->op->scratch[s->work];
  const size_t es = tflc_type_size(s->type);
  const size_t in_step = (size_t)s->in_row * es,
               out_step = (size_t)s->out_row * es;
  const int inverse = s->plan.inverse;
  int32_t r;
  for (r = 0; r < s->rows; r++, x += in_step, y += out_step) {
    if (s->type == TFLC_INT16) {
      if (inverse)
        tflc_irfft_s16(&s->plan, (const int16_t *)(const void *)x,
                       (int16_t *)(void *)work, (int16_t *)(void *)y);
      else
        tflc_rfft_s16(&s->plan, (const int16_t *)(const void *)x, s->in_row,
                      (int16_t *)(void *)work, (int16_t *)(void *)y);
    } else if (s->type == TFLC_INT32) {
      if (inverse)
        tflc_irfft_s32(&s->plan, (const int32_t *)(const void *)x,
                       (int32_t *)(void *)work, (int32_t *)(void *)y);
      else
        tflc_rfft_s32(&s->plan, (const int32_t *)(const void *)x, s->in_row,
                      (int32_t *)(void *)work, (int32_t *)(void *)y);
    } else {
      if (inverse)
        tflc_irfft_f32(&s->plan, (const float *)(const void *)x,
                       (float *)(void *)work, (float *)(void *)y);
      else
        tflc_rfft_f32(&s->plan, (const float *)(const void *)x, s->in_row,
                      (float *)(void *)work, (float *)(void *)y);
    }
  }
  return TFLC_OK;
}

/* ---- SignalEnergy -------------------------------------------------------- */
typedef struct tflc__signal_range_state {
  int32_t start, end;
} tflc__signal_range_state;
static tflc_status tflc__signal_energy_prepare(tflc__ctx *c) {
  static const char *const names[2] = {"end_index", "start_index"};
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__signal_range_state *s;
  int32_t v[2];
  TFLC__SIGNAL_CHECK(tflc__signal_io(c, 1, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_options(c, names, 2, v, NULL));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, in, 0, 0, TFLC_INT16, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, o, 1, 0, TFLC_UINT32, 1));
  if (v[1] < v[0] && (v[1] < 0 || v[0] > in->dims[0] / 2 || v[0] > o->dims[0]))
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "bins [%d, %d) outside the spectrum or the output",
                        v[1], v[0]);
  s = TFLC__NEW_STATE(c, tflc__signal_range_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->start = v[1];
  s->end = v[0];
  return TFLC_OK;
}
static tflc_status tflc__signal_energy_invoke(tflc__ctx *c) {
  const tflc__signal_range_state *s =
      (const tflc__signal_range_state *)c->op->state;
  tflc_signal_energy_s16((const int16_t *)tflc__in(c, 0)->data, s->start,
                         s->end, (uint32_t *)tflc__out(c, 0)->data);
  return TFLC_OK;
}

/* ---- SignalFilterBank ---------------------------------------------------- */
static tflc_status tflc__signal_filter_bank_prepare(tflc__ctx *c) {
  static const char *const names[1] = {"num_channels"};
  tflc_tensor *o = tflc__out(c, 0);
  int32_t v[1], k;
  TFLC__SIGNAL_CHECK(tflc__signal_io(c, 6, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_options(c, names, 1, v, NULL));
  TFLC__SIGNAL_CHECK(
      tflc__signal_tensor(c, tflc__in(c, 0), 0, 0, TFLC_UINT32, 1));
  for (k = 1; k < 6; k++)
    TFLC__SIGNAL_CHECK(
        tflc__signal_tensor(c, tflc__in(c, k), 0, k, TFLC_INT16, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, o, 1, 0, TFLC_UINT64, 1));
  if (v[0] < 0 || o->dims[0] > v[0])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "%d channels for an output of %d",
                        v[0], o->dims[0]);
  for (k = 3; k < 6; k++)
    if (tflc__in(c, k)->dims[0] <= v[0])
      return tflc__op_err(c, TFLC_ERR_SHAPE,
                          "input %d needs num_channels + 1 = %d entries", k,
                          v[0] + 1);
  c->op->state = (void *)(uintptr_t)(uint32_t)v[0]; /* the count */
  return TFLC_OK;
}
static tflc_status tflc__signal_filter_bank_invoke(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0), *w = tflc__in(c, 1),
                    *u = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  tflc_filter_bank_params p;
  p.num_channels = (int32_t)(uintptr_t)c->op->state;
  p.weights = (const int16_t *)w->data;
  p.unweights = (const int16_t *)u->data;
  p.frequency_starts = (const int16_t *)tflc__in(c, 3)->data;
  p.weight_starts = (const int16_t *)tflc__in(c, 4)->data;
  p.widths = (const int16_t *)tflc__in(c, 5)->data;
  /* the channel tables are tensors: checked at every invoke (they are
   * usually constants; a few hundred comparisons) */
  if (tflc_signal_filter_bank_check(
          &p, in->dims[0], w->dims[0] < u->dims[0] ? w->dims[0] : u->dims[0]))
    return tflc__op_err(c, TFLC_ERR_KERNEL,
                        "a channel reaches outside the spectrum or weights", 0,
                        0);
  tflc_signal_filter_bank_u32(&p, (const uint32_t *)in->data, o->dims[0],
                              (uint64_t *)o->data);
  return TFLC_OK;
}

/* ---- SignalFilterBankSquareRoot ------------------------------------------ */
static tflc_status tflc__signal_filter_bank_square_root_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  TFLC__SIGNAL_CHECK(tflc__signal_io(c, 2, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, in, 0, 0, TFLC_UINT64, 1));
  TFLC__SIGNAL_CHECK(
      tflc__signal_tensor(c, tflc__in(c, 1), 0, 1, TFLC_INT32, 0));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, o, 1, 0, TFLC_UINT32, 1));
  if (o->dims[0] != in->dims[0])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output must match the input", 0, 0);
  return TFLC_OK;
}
static tflc_status tflc__signal_filter_bank_square_root_invoke(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  int32_t shift;
  memcpy(&shift, tflc__in(c, 1)->data, sizeof shift);
  if (shift < 0 || shift > 31)
    return tflc__op_err(c, TFLC_ERR_KERNEL, "scale bits %d outside [0, 31]",
                        shift, 0);
  tflc_signal_filter_bank_square_root_u64((const uint64_t *)in->data,
                                          in->dims[0], shift,
                                          (uint32_t *)tflc__out(c, 0)->data);
  return TFLC_OK;
}

/* ---- SignalFilterBankLog ------------------------------------------------- */
static tflc_status tflc__signal_filter_bank_log_prepare(tflc__ctx *c) {
  static const char *const names[2] = {"input_correction_bits", "output_scale"};
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__signal_range_state *s;
  int32_t v[2];
  TFLC__SIGNAL_CHECK(tflc__signal_io(c, 1, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_options(c, names, 2, v, NULL));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, in, 0, 0, TFLC_UINT32, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, o, 1, 0, TFLC_INT16, 1));
  if (o->dims[0] != in->dims[0])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output must match the input", 0, 0);
  if (v[0] < 0 || v[0] > 31)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "input_correction_bits %d outside [0, 31]", v[0], 0);
  s = TFLC__NEW_STATE(c, tflc__signal_range_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->start = v[0]; /* correction bits */
  s->end = v[1];   /* output scale */
  return TFLC_OK;
}
static tflc_status tflc__signal_filter_bank_log_invoke(tflc__ctx *c) {
  const tflc__signal_range_state *s =
      (const tflc__signal_range_state *)c->op->state;
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_signal_filter_bank_log_u32((const uint32_t *)in->data, in->dims[0],
                                  s->end, s->start,
                                  (int16_t *)tflc__out(c, 0)->data);
  return TFLC_OK;
}

/* ---- SignalFilterBankSpectralSubtraction --------------------------------- */
typedef struct tflc__signal_spectral_state {
  tflc_spectral_subtraction_params p;
  uint32_t *noise; /* num_channels, the state */
  int32_t noise_out;
} tflc__signal_spectral_state;
typedef struct tflc__signal_spectral_state32 {
  tflc_spectral_subtraction_params p;
  uint32_t noise;
  int32_t noise_out;
} tflc__signal_spectral_state32;
static tflc_status tflc__signal_spectral_subtraction_prepare(tflc__ctx *c) {
  static const char *const names[9] = {"alternate_one_minus_smoothing",
                                       "alternate_smoothing",
                                       "clamping",
                                       "min_signal_remaining",
                                       "num_channels",
                                       "one_minus_smoothing",
                                       "smoothing",
                                       "smoothing_bits",
                                       "spectral_subtraction_bits"};
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0),
              *noise = tflc__out(c, 1);
  tflc__signal_spectral_state *s;
  int32_t v[9];
  TFLC__SIGNAL_CHECK(tflc__signal_io(c, 1, 2));
  TFLC__SIGNAL_CHECK(tflc__signal_options(c, names, 9, v, NULL));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, in, 0, 0, TFLC_UINT32, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, o, 1, 0, TFLC_UINT32, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, noise, 1, 1, TFLC_UINT32, 1));
  if (v[4] < 0 || v[4] > in->dims[0] || v[4] > o->dims[0] ||
      noise->dims[0] > v[4])
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "num_channels %d does not fit the tensors", v[4], 0);
  if (v[7] < 0 || v[7] > 31 || v[8] < 0 || v[8] > 63)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "smoothing_bits %d or spectral_subtraction_bits %d "
                        "out of range",
                        v[7], v[8]);
  s = TFLC__NEW_STATE32(c, tflc__signal_spectral_state,
                        tflc__signal_spectral_state32);
  if (s)
    s->noise = (uint32_t *)tflc__signal_persist(c, (uint64_t)v[4], 4, 1);
  if (!s || (!s->noise && v[4]))
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->p.alternate_one_minus_smoothing = (uint32_t)v[0];
  s->p.alternate_smoothing = (uint32_t)v[1];
  s->p.clamping = v[2] != 0;
  s->p.min_signal_remaining = (uint32_t)v[3];
  s->p.num_channels = v[4];
  s->p.one_minus_smoothing = (uint32_t)v[5];
  s->p.smoothing = (uint32_t)v[6];
  s->p.smoothing_bits = (uint32_t)v[7];
  s->p.spectral_subtraction_bits = (uint32_t)v[8];
  s->noise_out = noise->dims[0];
  return TFLC_OK;
}
static tflc_status tflc__signal_spectral_subtraction_invoke(tflc__ctx *c) {
  const tflc__signal_spectral_state *s =
      (const tflc__signal_spectral_state *)c->op->state;
  tflc_signal_spectral_subtraction_u32(
      &s->p, (const uint32_t *)tflc__in(c, 0)->data,
      (uint32_t *)tflc__out(c, 0)->data, s->noise);
  if (s->noise_out)
    memcpy(tflc__out(c, 1)->data, s->noise, (size_t)s->noise_out * 4u);
  return TFLC_OK;
}

/* ---- SignalPCAN ---------------------------------------------------------- */
static tflc_status tflc__signal_pcan_prepare(tflc__ctx *c) {
  static const char *const names[1] = {"snr_shift"};
  tflc_tensor *in = tflc__in(c, 0), *noise = tflc__in(c, 1),
              *lut = tflc__in(c, 2), *o = tflc__out(c, 0);
  int32_t v[1];
  TFLC__SIGNAL_CHECK(tflc__signal_io(c, 3, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_options(c, names, 1, v, NULL));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, in, 0, 0, TFLC_UINT32, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, noise, 0, 1, TFLC_UINT32, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, lut, 0, 2, TFLC_INT16, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, o, 1, 0, TFLC_UINT32, 1));
  if (o->dims[0] != in->dims[0] || noise->dims[0] < in->dims[0])
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "output and noise estimate must match the input", 0, 0);
  if (lut->dims[0] < TFLC_SIGNAL_PCAN_LUT_SIZE)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "gain table of %d entries, needs %d",
                        lut->dims[0], TFLC_SIGNAL_PCAN_LUT_SIZE);
  if (v[0] < 0 || v[0] > 63)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "snr_shift %d outside [0, 63]",
                        v[0], 0);
  c->op->state = (void *)(uintptr_t)(uint32_t)v[0]; /* the shift */
  return TFLC_OK;
}
static tflc_status tflc__signal_pcan_invoke(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_signal_pcan_u32(
      (const int16_t *)tflc__in(c, 2)->data, (int32_t)(uintptr_t)c->op->state,
      (const uint32_t *)tflc__in(c, 1)->data, (const uint32_t *)in->data,
      (uint32_t *)tflc__out(c, 0)->data, in->dims[0]);
  return TFLC_OK;
}

/* ---- SignalOverlapAdd ---------------------------------------------------- */
typedef struct tflc__signal_overlap_state {
  int32_t type, rows, frames, frame_size, frame_step;
  void *buffers; /* rows * frame_size elements, the state */
} tflc__signal_overlap_state;
typedef struct tflc__signal_overlap_state32 {
  int32_t type, rows, frames, frame_size, frame_step;
  uint32_t buffers;
} tflc__signal_overlap_state32;
static void tflc__signal_overlap_add_reset(tflc__signal_overlap_state *s) {
  memset(s->buffers, 0,
         (size_t)s->rows * (size_t)s->frame_size * tflc_type_size(s->type));
}
static tflc_status tflc__signal_overlap_add_prepare(tflc__ctx *c) {
  static const char *const names[2] = {"T", "frame_step"};
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__signal_overlap_state *s;
  int32_t v[2], type = 0, size, frames, rows;
  TFLC__SIGNAL_CHECK(tflc__signal_io(c, 1, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_options(c, names, 2, v, &type));
  if (type != TFLC_INT16 && type != TFLC_FLOAT32)
    return tflc__op_err(c, TFLC_ERR_TYPE, "T %d is not int16 or float32", type,
                        0);
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, in, 0, 0, type, -1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, o, 1, 0, type, -1));
  if (in->rank < 2 || o->rank + 1 != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "input rank %d: needs >= 2, output one less", in->rank,
                        0);
  size = in->dims[in->rank - 1];
  frames = in->dims[in->rank - 2];
  if (size < 1 || frames < 1 || v[1] < 1 || v[1] > size)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "frame_step %d outside [1, frame size %d]", v[1], size);
  rows = tflc__count(in) / size / frames;
  if ((int64_t)tflc__count(o) != (int64_t)rows * frames * v[1])
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "output must hold frames * frame_step = %d samples",
                        frames * v[1], 0);
  s = TFLC__NEW_STATE32(c, tflc__signal_overlap_state,
                        tflc__signal_overlap_state32);
  if (s)
    s->buffers = tflc__signal_persist(c, (uint64_t)rows, (uint64_t)size,
                                      tflc_type_size(type));
  if (!s || !s->buffers)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->type = type;
  s->rows = rows;
  s->frames = frames;
  s->frame_size = size;
  s->frame_step = v[1];
  return TFLC_OK;
}
static tflc_status tflc__signal_overlap_add_invoke(tflc__ctx *c) {
  const tflc__signal_overlap_state *s =
      (const tflc__signal_overlap_state *)c->op->state;
  const size_t es = tflc_type_size(s->type);
  const uint8_t *x = (const uint8_t *)tflc__in(c, 0)->data;
  uint8_t *y = (uint8_t *)tflc__out(c, 0)->data;
  int32_t r, f;
  for (r = 0; r < s->rows; r++) {
    uint8_t *buf =
        (uint8_t *)s->buffers + (size_t)r * (size_t)s->frame_size * es;
    for (f = 0; f < s->frames; f++) {
      const size_t k = (size_t)r * (size_t)s->frames + (size_t)f;
      if (s->type == TFLC_INT16)
        tflc_signal_overlap_add_s16(
            (const int16_t *)(const void *)(x + k * (size_t)s->frame_size * es),
            (int16_t *)(void *)buf, s->frame_size, s->frame_step,
            (int16_t *)(void *)(y + k * (size_t)s->frame_step * es));
      else
        tflc_signal_overlap_add_f32(
            (const float *)(const void *)(x + k * (size_t)s->frame_size * es),
            (float *)(void *)buf, s->frame_size, s->frame_step,
            (float *)(void *)(y + k * (size_t)s->frame_step * es));
    }
  }
  return TFLC_OK;
}

/* ---- SignalFramer, SignalStacker, SignalDelay: sample rings -------------- */
/* rows rings of `capacity` samples each (one allocation) */
typedef struct tflc__signal_ring_state {
  int32_t rows, a, b, c, d; /* per operator, see the prepares */
  int32_t started;          /* SignalStacker: the first frame came */
  tflc_ring_s16 *rings;
} tflc__signal_ring_state;
typedef struct tflc__signal_ring_state32 {
  int32_t rows, a, b, c, d, started;
  uint32_t rings;
} tflc__signal_ring_state32;
typedef struct tflc__ring_s16_32 {
  uint32_t data, capacity, read, write;
  int32_t empty;
} tflc__ring_s16_32;
#if defined(UINTPTR_MAX) && UINTPTR_MAX == 0xFFFFFFFFu
typedef char tflc__signal_states32_match
    [sizeof(tflc__signal_fft_state) == sizeof(tflc__signal_fft_state32) &&
             sizeof(tflc__signal_spectral_state) ==
                 sizeof(tflc__signal_spectral_state32) &&
             sizeof(tflc__signal_overlap_state) ==
                 sizeof(tflc__signal_overlap_state32) &&
             sizeof(tflc__signal_ring_state) ==
                 sizeof(tflc__signal_ring_state32) &&
             sizeof(tflc_ring_s16) == sizeof(tflc__ring_s16_32)
         ? 1
         : -1];
#endif
static tflc__signal_ring_state *tflc__signal_rings(tflc__ctx *c, int32_t rows,
                                                   int64_t capacity) {
  tflc__signal_ring_state *s;
  int16_t *data;
  int32_t r;
  if (capacity < 1 || capacity > 0x7FFFFFFF)
    return NULL;
  s = TFLC__NEW_STATE32(c, tflc__signal_ring_state, tflc__signal_ring_state32);
  if (!s)
    return NULL;
  s->rings = rows >= 0 && rows <= 0xFFFFFF
                 ? (tflc_ring_s16 *)tflc__persist2(
                       c->it, (size_t)rows * sizeof(tflc_ring_s16),
                       (size_t)rows * sizeof(tflc__ring_s16_32))
                 : NULL;
  data = (int16_t *)tflc__signal_persist(c, (uint64_t)rows, (uint64_t)capacity,
                                         sizeof(int16_t));
  if (!s->rings || !data)
    return NULL;
  s->rows = rows;
  for (r = 0; r < rows; r++) {
    s->rings[r].data = data + (size_t)r * (size_t)capacity;
    s->rings[r].capacity = (uint32_t)capacity;
    tflc_ring_s16_reset(&s->rings[r]);
  }
  return s;
}

/* Framer: a = frame_size, b = frame_step, c = frames per row, d = prefill */
static void tflc__signal_framer_reset(tflc__signal_ring_state *s) {
  int32_t r;
  for (r = 0; r < s->rows; r++) {
    tflc_ring_s16_reset(&s->rings[r]);
    if (s->d)
      tflc_ring_s16_write(&s->rings[r], NULL, (uint32_t)(s->a - s->b));
  }
}
static tflc_status tflc__signal_framer_prepare(tflc__ctx *c) {
  static const char *const names[3] = {"frame_size", "frame_step", "prefill"};
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0),
              *valid = tflc__out(c, 1);
  tflc__signal_ring_state *s;
  int32_t v[3], inner, frames, rows;
  TFLC__SIGNAL_CHECK(tflc__signal_io(c, 1, 2));
  TFLC__SIGNAL_CHECK(tflc__signal_options(c, names, 3, v, NULL));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, in, 0, 0, TFLC_INT16, -1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, o, 1, 0, TFLC_INT16, in->rank + 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, valid, 1, 1, TFLC_BOOL, 0));
  if (in->rank < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input must have rank >= 1", 0, 0);
  inner = in->dims[in->rank - 1];
  if (v[1] < 1 || inner < v[1] || inner % v[1] != 0)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "frame_step %d must divide the row of %d samples", v[1],
                        inner);
  if (v[0] < 1 || (v[2] && v[0] < v[1]))
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "frame_size %d: must be >= 1 (>= frame_step with "
                        "prefill)",
                        v[0], 0);
  frames = inner / v[1];
  rows = tflc__count(in) / inner;
  if ((int64_t)tflc__count(o) != (int64_t)rows * frames * v[0])
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "output must hold %d frames of %d samples per row",
                        frames, v[0]);
  /* the frame rounded up to whole steps, as TFLM sizes its buffers */
  s = tflc__signal_rings(c, rows,
                         ((int64_t)v[0] + v[1] - 1) / v[1] * (int64_t)v[1]);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->a = v[0];
  s->b = v[1];
  s->c = frames;
  s->d = v[2] != 0;
  tflc__signal_framer_reset(s);
  return TFLC_OK;
}
static tflc_status tflc__signal_framer_invoke(tflc__ctx *c) {
  tflc__signal_ring_state *s = (tflc__signal_ring_state *)c->op->state;
  const int16_t *x = (const int16_t *)tflc__in(c, 0)->data;
  int16_t *y = (int16_t *)tflc__out(c, 0)->data;
  const size_t in_row = (size_t)s->c * (size_t)s->b,
               out_row = (size_t)s->c * (size_t)s->a;
  uint8_t valid = 1;
  int32_t r;
  for (r = 0; r < s->rows; r++)
    if (!tflc_signal_framer_s16(&s->rings[r], x + (size_t)r * in_row, s->c,
                                s->a, s->b, y + (size_t)r * out_row))
      valid = 0;
  *(uint8_t *)tflc__out(c, 1)->data = valid;
  return TFLC_OK;
}

/* Stacker: a = num_channels, b = left context, c = step in samples */
static void tflc__signal_stacker_reset(tflc__signal_ring_state *s) {
  tflc_ring_s16_reset(&s->rings[0]);
  s->started = 0;
}
static tflc_status tflc__signal_stacker_prepare(tflc__ctx *c) {
  static const char *const names[4] = {"num_channels", "stacker_left_context",
                                       "stacker_right_context", "stacker_step"};
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0),
              *valid = tflc__out(c, 1);
  tflc__signal_ring_state *s;
  int32_t v[4];
  int64_t size;
  TFLC__SIGNAL_CHECK(tflc__signal_io(c, 1, 2));
  TFLC__SIGNAL_CHECK(tflc__signal_options(c, names, 4, v, NULL));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, in, 0, 0, TFLC_INT16, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, o, 1, 0, TFLC_INT16, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, valid, 1, 1, TFLC_BOOL, 0));
  if (v[0] < 1 || v[1] < 0 || v[2] < 0 || v[1] > 0xFFFF || v[2] > 0xFFFF)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "num_channels %d >= 1, contexts >= 0 needed", v[0], 0);
  size = (int64_t)v[0] * ((int64_t)v[1] + v[2] + 1);
  if (v[3] < 1 || v[3] > v[1] + v[2] + 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "stacker_step %d outside [1, %d frames stacked]", v[3],
                        v[1] + v[2] + 1);
  if (in->dims[0] < v[0] || (int64_t)o->dims[0] != size)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "input needs %d channels, output %d samples", v[0],
                        (int32_t)(size < 0x7FFFFFFF ? size : 0x7FFFFFFF));
  s = tflc__signal_rings(c, 1, size);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->a = v[0];
  s->b = v[1];
  s->c = v[0] * v[3];
  tflc__signal_stacker_reset(s);
  return TFLC_OK;
}
static tflc_status tflc__signal_stacker_invoke(tflc__ctx *c) {
  tflc__signal_ring_state *s = (tflc__signal_ring_state *)c->op->state;
  *(uint8_t *)tflc__out(c, 1)->data = (uint8_t)tflc_signal_stacker_s16(
      &s->rings[0], &s->started, (const int16_t *)tflc__in(c, 0)->data, s->a,
      s->b, (uint32_t)s->c, (int16_t *)tflc__out(c, 0)->data);
  return TFLC_OK;
}

/* Delay: a = row length, b = delay */
static void tflc__signal_delay_reset(tflc__signal_ring_state *s) {
  int32_t r;
  for (r = 0; r < s->rows; r++) {
    tflc_ring_s16_reset(&s->rings[r]);
    tflc_ring_s16_write(&s->rings[r], NULL, (uint32_t)s->b);
  }
}
static tflc_status tflc__signal_delay_prepare(tflc__ctx *c) {
  static const char *const names[1] = {"delay_length"};
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__signal_ring_state *s;
  int32_t v[1], inner;
  TFLC__SIGNAL_CHECK(tflc__signal_io(c, 1, 1));
  TFLC__SIGNAL_CHECK(tflc__signal_options(c, names, 1, v, NULL));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, in, 0, 0, TFLC_INT16, -1));
  TFLC__SIGNAL_CHECK(tflc__signal_tensor(c, o, 1, 0, TFLC_INT16, -1));
  inner = in->rank ? in->dims[in->rank - 1] : 0;
  if (inner < 1 || tflc__count(o) != tflc__count(in) || v[0] < 0)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "rows of >= 1 sample, output as the input, delay %d "
                        ">= 0",
                        v[0], 0);
  s = tflc__signal_rings(c, tflc__count(in) / inner, (int64_t)inner + v[0]);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->a = inner;
  s->b = v[0];
  tflc__signal_delay_reset(s);
  return TFLC_OK;
}
static tflc_status tflc__signal_delay_invoke(tflc__ctx *c) {
  tflc__signal_ring_state *s = (tflc__signal_ring_state *)c->op->state;
  const int16_t *x = (const int16_t *)tflc__in(c, 0)->data;
  int16_t *y = (int16_t *)tflc__out(c, 0)->data;
  int32_t r;
  for (r = 0; r < s->rows; r++)
    tflc_signal_delay_s16(&s->rings[r], x + (size_t)r * (size_t)s->a, s->a,
                          y + (size_t)r * (size_t)s->a);
  return TFLC_OK;
}

/* State kept outside tensors back to where prepare left it (tflc_reset), as
 * the Reset functions of TFLM's Signal kernels do. */
static void tflc__signal_reset(tflc__ctx *c) {
  void *s = c->op->state;
  if (!s)
    return;
  switch (c->op->code) {
  case TFLC_OP_SignalFramer:
    tflc__signal_framer_reset((tflc__signal_ring_state *)s);
    break;
  case TFLC_OP_SignalStacker:
    tflc__signal_stacker_reset((tflc__signal_ring_state *)s);
    break;
  case TFLC_OP_SignalDelay:
    tflc__signal_delay_reset((tflc__signal_ring_state *)s);
    break;
  case TFLC_OP_SignalOverlapAdd:
    tflc__signal_overlap_add_reset((tflc__signal_overlap_state *)s);
    break;
  case TFLC_OP_SignalFilterBankSpectralSubtraction: {
    const tflc__signal_spectral_state *p =
        (const tflc__signal_spectral_state *)s;
    if (p->p.num_channels)
      memset(p->noise, 0, (size_t)p->p.num_channels * 4u);
    break;
  }
  default:
    break;
  }
}

/* ======================================================================== */
/* Operator table: the array TFLC_OPERATORS builds, with the operators a    */
/* firmware build selects (TFLC_OPS), lookup, dispatch, and the functions   */
/* of operators split by type (one row, several kernels).                   */
/* ======================================================================== */
/* Operators whose kernels differ by type choose at prepare and note the
 * choice in op->variant for invoke. */
static tflc_status tflc__conv_prepare(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  const int dw = c->op->code == TFLC_OP_DEPTHWISE_CONV_2D;
  if ((TFLC__S16 || TFLC__F32) && in &&
      (in->type == TFLC_INT16 || in->type == TFLC_FLOAT32)) {
    c->op->variant |= 1; /* (keeping TFLC__OVER_INPUT) */
    return tflc__conv_wide_prepare(c, dw);
  }
  return tflc__conv_s8_prepare(c, dw);
}
static tflc_status tflc__conv_invoke(tflc__ctx *c) {
  if ((TFLC__S16 || TFLC__F32) && (c->op->variant & 1))
    return tflc__conv_wide_invoke(c);
  if (c->op->code == TFLC_OP_DEPTHWISE_CONV_2D)
    return tflc__dw_s8_invoke(c);
  return tflc__conv2d_s8_invoke(c);
}
static tflc_status tflc__fully_connected_prepare(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  if (TFLC__S16 && in && in->type == TFLC_INT16) {
    c->op->variant = 1;
    return tflc__fc_s16_prepare(c);
  }
  return tflc__fc_s8_f32_prepare(c);
}
static tflc_status tflc__fully_connected_invoke(tflc__ctx *c) {
  return TFLC__S16 && c->op->variant ? tflc__fc_s16_invoke(c)
                                     : tflc__fc_s8_f32_invoke(c);
}
static tflc_status tflc__add_prepare(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  if (TFLC__S16 && in && in->type == TFLC_INT16) {
    c->op->variant = 1;
    return tflc__addsub_q_prepare(c);
  }
  return tflc__add_s8_f32_prepare(c);
}
static tflc_status tflc__add_invoke(tflc__ctx *c) {
  return TFLC__S16 && c->op->variant ? tflc__elementwise_invoke(c)
                                     : tflc__add_s8_f32_invoke(c);
}
/* QUANTIZE / DEQUANTIZE: integer requantization pairs other than int8 ->
 * int8 and uint8 -> float32 run element-wise; the rest in the core. */
static tflc_status tflc__quantize_prepare(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  const int dequant = c->op->code == TFLC_OP_DEQUANTIZE;
  if (in && o && !dequant && tflc__requantize_pair(in, o)) {
    c->op->variant = 1;
    return tflc__requantize_prepare(c);
  }
  if (in && o && dequant && in->type == TFLC_UINT8 && o->type == TFLC_FLOAT32) {
    c->op->variant = 1;
    if (tflc__count(in) != tflc__count(o))
      return tflc__op_err(c, TFLC_ERR_SHAPE, "input and output sizes differ", 0,
                          0);
    return TFLC_OK;
  }
  return tflc__quantize_core_prepare(c, dequant);
}
static tflc_status tflc__quantize_invoke(tflc__ctx *c) {
  return c->op->variant ? tflc__elementwise_invoke(c)
                        : tflc__quantize_core_invoke(c);
}
static tflc_status tflc__nothing_invoke(tflc__ctx *c) {
  (void)c;
  return TFLC_OK;
}

/* ---- the table ----------------------------------------------------------- */
typedef tflc_status (*tflc__op_fn)(tflc__ctx *c);
/* (the names only serve messages: none with TFLC_NO_ERROR_STRINGS) */
#ifndef TFLC_NO_ERROR_STRINGS
#define TFLC__OPDEF_NAME_FIELD const char *name;
#define TFLC__OPDEF_NAME(name) #name,
#define TFLC__OPDEF_NAME_OF(d) ((d)->name)
#else
#define TFLC__OPDEF_NAME_FIELD
#define TFLC__OPDEF_NAME(name)
#define TFLC__OPDEF_NAME_OF(d) ""
#endif
/* The functions: with TFLC_OPS a switch over the few operators selected
 * (tflc__op_call) costs less than two pointers in every row. */
#ifdef TFLC_OPS
#define TFLC__OPDEF_FNS
#define TFLC__OPDEF_FN_INIT(code, pr, iv)
#else
#define TFLC__OPDEF_FNS tflc__op_fn prepare, invoke;
#define TFLC__OPDEF_FN_INIT(code, pr, iv) , pr, iv
#endif
/* The options fields the verifier range-checks, in one byte: 16 *
 * (padding slot + 1) + activation slot + 1 (0: none). */
#define TFLC__SLOTS(options)                                                   \
  (16 * (TFLC__PADDING_SLOT((int)(options)) + 1) +                             \
   TFLC__ACTIVATION_SLOT((int)(options)) + 1)
#define TFLC__PAD_SLOT_OF(d) (((d)->slots >> 4) - 1)
#define TFLC__ACT_SLOT_OF(d) (((d)->slots & 15) - 1)
typedef struct tflc__opdef {
  TFLC__OPDEF_NAME_FIELD
  int16_t code;
  uint16_t inplace; /* TFLC_INPUTS mask */
  uint16_t facts;   /* TFLC_CHECK_* | TFLC_OPF_* */
  int8_t options;   /* TFLC__OPTIONS_* */
  uint8_t slots;    /* TFLC__SLOTS(options) */
  TFLC__OPDEF_FNS
} tflc__opdef;

#define TFLC__DEF_X(name, code, o, i, f, pr, iv, rs)                           \
  {TFLC__OPDEF_NAME(name) code, i, f, TFLC__OPTIONS_##o,                       \
   TFLC__SLOTS(TFLC__OPTIONS_##o) TFLC__OPDEF_FN_INIT(code, pr, iv)},
#define TFLC__DEF_N(name, code, f)
static const tflc__opdef tflc__opdefs[] = {
    TFLC_OPERATORS(TFLC__DEF_X, TFLC__DEF_N)};

#define TFLC__INDEX_X(name, code, o, i, f, pr, iv, rs) TFLC__DEF_##name,
#define TFLC__INDEX_N(name, code, f)
enum { TFLC_OPERATORS(TFLC__INDEX_X, TFLC__INDEX_N) TFLC__NUM_DEFS };

/* 1 if the row's operator is compiled in (TFLC_OPS). */
static int tflc__op_compiled(const tflc__opdef *d) {
#if defined(TFLC_OPS) && defined(TFLC_NO_DELEGATES) && defined(TFLC_NO_USER_OPS)
  /* (tflc__opdef_find finds only the selected rows) */
  (void)d;
  return 1;
#elif defined(TFLC_OPS)
  return TFLC__SELECTED(d->code);
#else
  (void)d;
  return 1;
#endif
}
/* The prepare (invoke 0) or invoke function of a compiled-in row. */
static tflc_status tflc__op_call(const tflc__opdef *d, tflc__ctx *c,
                                 int invoke) {
#ifdef TFLC_OPS
  /* (a chain of tests the compiler keeps for selected operators only) */
#define TFLC__CALL_X(name, k, o, i, f, pr, iv, rs)                             \
  if (TFLC__SELECTED(k) && d->code == (k))                                     \
    return invoke ? iv(c) : pr(c);
#define TFLC__CALL_N(name, code, f)
  TFLC_OPERATORS(TFLC__CALL_X, TFLC__CALL_N)
  return TFLC_ERR_STATE;
#else
  return invoke ? d->invoke(c) : d->prepare(c);
#endif
}

/* The row of an operator with a kernel, compiled in or not, or NULL: a
 * binary search, the rows being in code order (tests/test_op_select.c
 * checks it). */
static const tflc__opdef *tflc__opdef_row(int32_t code) {
  uint32_t lo = 0, hi = TFLC__NUM_DEFS;
  while (lo < hi) {
    const uint32_t mid = (lo + hi) / 2;
    if (tflc__opdefs[mid].code < code)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < TFLC__NUM_DEFS && tflc__opdefs[lo].code == code
             ? &tflc__opdefs[lo]
             : NULL;
}

/* The row of an operator tflc runs, or NULL. With TFLC_OPS, and neither
 * delegates nor user operators (whose operators may be any builtin, and
 * whose options the rows check), only the selected operators' rows are
 * linked: a table built from the TFLC_OPS list, searched in its order,
 * instead of the 117 rows; an operator left out has no row, so its
 * options are not checked at tflc_model_init and the interpreter refuses
 * it at init (TFLC_ERR_UNSUPPORTED) as before. tflc_op_info_get keeps
 * every row (tflc__opdef_row). */
#if defined(TFLC_OPS) && defined(TFLC_NO_DELEGATES) && defined(TFLC_NO_USER_OPS)
#define TFLC__SELECTED_ROWS_ONLY 1
/* each operator's row fields as constants named after it; an operator
 * without a kernel (N) gets a code no model operator has (codes read from
 * a model are at least -128) */
#define TFLC__ROWC_X(name, k, o, i, f, pr, iv, rs)                             \
  TFLC__ROWC_CODE_##name = (k), TFLC__ROWC_OPT_##name = TFLC__OPTIONS_##o,     \
  TFLC__ROWC_INPL_##name = (int)(i), TFLC__ROWC_FACTS_##name = (f),
#define TFLC__ROWC_N(name, k, f)                                               \
  TFLC__ROWC_CODE_##name = -32768, TFLC__ROWC_OPT_##name = 0,                  \
  TFLC__ROWC_INPL_##name = 0, TFLC__ROWC_FACTS_##name = (f),
enum { TFLC_OPERATORS(TFLC__ROWC_X, TFLC__ROWC_N) TFLC__ROWC_END };
#define TFLC__SELROW(name)                                                     \
  {TFLC__OPDEF_NAME(name)(int16_t) TFLC__ROWC_CODE_##name,                     \
   (uint16_t)TFLC__ROWC_INPL_##name, (uint16_t)TFLC__ROWC_FACTS_##name,        \
   (int8_t)TFLC__ROWC_OPT_##name,                                              \
   (uint8_t)TFLC__SLOTS(TFLC__ROWC_OPT_##name)},
static const tflc__opdef tflc__selected_opdefs[] = {TFLC_OPS(TFLC__SELROW)};
#define TFLC__OPDEF_TABLE tflc__selected_opdefs
static const tflc__opdef *tflc__opdef_find(int32_t code) {
  uint32_t k;
  for (k = 0; k < sizeof tflc__selected_opdefs / sizeof *tflc__selected_opdefs;
       k++)
    if (tflc__selected_opdefs[k].code == code)
      return &tflc__selected_opdefs[k];
  return NULL;
}
#else
#define TFLC__SELECTED_ROWS_ONLY 0
#define TFLC__OPDEF_TABLE tflc__opdefs
static const tflc__opdef *tflc__opdef_find(int32_t code) {
  return tflc__opdef_row(code);
}
#endif

static tflc_status tflc__verify_options(tflc_model *m, uint32_t ot,
                                        uint32_t opt, int32_t code,
                                        uint32_t i) {
  const tflc__opdef *d = tflc__opdef_find(code);
  tflc__fb fb = tflc__mfb(m);
  uint32_t type = tflc__get_u8(fb, ot, TFLC__OP_OPTTYPE, 0), v;
  if (!d || d->options == 0)
    return TFLC_OK;
  if (type != 0 && type != (uint32_t)d->options)
    return tflc__err(m->error, TFLC_ERR_SCHEMA,
                     "op %u %s: options type %u, expected %d", i,
                     TFLC__OPDEF_NAME_OF(d), type, d->options);
  if (!opt || type == 0)
    return TFLC_OK;
  v = TFLC__PAD_SLOT_OF(d) >= 0
          ? tflc__get_u8(fb, opt, (uint32_t)TFLC__PAD_SLOT_OF(d), 0)
          : 0;
  if (v > 1)
    return tflc__err(m->error, TFLC_ERR_SCHEMA, "op %u %s: padding %u unknown",
                     i, TFLC__OPDEF_NAME_OF(d), v);
  v = TFLC__ACT_SLOT_OF(d) >= 0
          ? tflc__get_u8(fb, opt, (uint32_t)TFLC__ACT_SLOT_OF(d), 0)
          : 0;
  if (v > 5)
    return tflc__err(m->error, TFLC_ERR_SCHEMA,
                     "op %u %s: fused activation %u unknown", i,
                     TFLC__OPDEF_NAME_OF(d), v);
  return TFLC_OK;
}

TFLC_API const char *tflc_opcode_name(int32_t code) {
#define TFLC__NAME_X(name, code, o, i, f, pr, iv, rs)                          \
  case code:                                                                   \
    return #name;
#define TFLC__NAME_N(name, code, f)                                            \
  case code:                                                                   \
    return #name;
  switch (code) {
    TFLC_OPERATORS(TFLC__NAME_X, TFLC__NAME_N)
  case TFLC_OP_UNKNOWN_CUSTOM:
    return "CUSTOM";
  }
  return "UNKNOWN";
}

TFLC_API int tflc_op_info_get(int32_t code, tflc_op_info *info) {
  const tflc__opdef *d = tflc__opdef_row(code);
  memset(info, 0, sizeof *info);
  info->name = tflc_opcode_name(code);
  info->code = code;
  if (d) {
    info->inplace_inputs = d->inplace;
    info->options_type = (uint8_t)d->options;
    info->facts = d->facts;
    info->status =
        TFLC__SELECTED(d->code) ? TFLC_OP_COMPILED : TFLC_OP_LEFT_OUT;
    return 1;
  }
#define TFLC__FACTS_X(name, code, o, i, f, pr, iv, rs)
#define TFLC__FACTS_N(name, code, f)                                           \
  case code:                                                                   \
    info->facts = (uint16_t)(f);                                               \
    return 1;
  switch (code) { TFLC_OPERATORS(TFLC__FACTS_X, TFLC__FACTS_N) }
  return 0;
}

/* 1 if input k of an operator with this code reads compressed constants
 * tile by tile (no whole decoded copy needed); `user`: the operator is a
 * user operator, which sees its inputs decoded. */
static int tflc__tiled_input(int32_t code, int user, int32_t k) {
  const tflc__opdef *d;
  if (user || k >= 16)
    return 0;
  d = tflc__opdef_find(code);
  return d && (d->inplace >> k) & 1;
}
/* The facts (TFLC_CHECK_* | TFLC_OPF_*) in `mask` of the row of operator
 * `code`: 0 when it has no row in this build (tflc__opdef_find), and for
 * the flags no operator compiled in has. */
static int tflc__op_facts(int32_t code, int mask) {
  const tflc__opdef *d;
  if (!(TFLC__SELECTED_FACTS & mask))
    return 0;
  d = tflc__opdef_find(code);
  return d ? d->facts & mask : 0;
}

/* The user operator taking operator `i` (table `ot`), or 0. */
static uint8_t tflc__user_op_for(const tflc_interpreter *it, int32_t code,
                                 uint32_t ot) {
  int32_t k;
  uint32_t len = 0;
  const char *name = NULL;
  if (code == TFLC_OP_UNKNOWN_CUSTOM || code >= 256)
    name = tflc__op_custom_name(it->model, ot, &len);
  for (k = 0; k < it->opt.num_user_ops && k < 255; k++) {
    const tflc_user_op *u = &it->opt.user_ops[k];
    if (!u->invoke)
      continue;
    if (name && u->code == TFLC_OP_CUSTOM && u->custom_name &&
        strlen(u->custom_name) == len && memcmp(u->custom_name, name, len) == 0)
      return (uint8_t)(k + 1);
    if (!name && u->code == code)
      return (uint8_t)(k + 1);
  }
  return 0;
}

/* TFLC_NO_FLOAT32 / TFLC_NO_INT16 / TFLC_INT8_ONLY: a builtin operator
 * reading or writing a tensor of a type compiled out is refused before
 * its prepare ("op 3 SOFTMAX: int16 tensor 7 not compiled in
 * (TFLC_NO_INT16)"); user operators and delegates choose for themselves. */
static tflc_status tflc__types_compiled(tflc__ctx *c) {
  int32_t k;
  if (TFLC__F32 && TFLC__S16)
    return TFLC_OK;
  for (k = 0; k < c->op->nin + c->op->nout; k++) {
    const tflc_tensor *t =
        k < c->op->nin ? tflc__in(c, k) : tflc__out(c, k - c->op->nin);
    if (t && !TFLC__F32 && t->type == TFLC_FLOAT32)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "float32 tensor %d not compiled in (TFLC_NO_FLOAT32)",
                          t->index, 0);
    if (t && !TFLC__S16 && t->type == TFLC_INT16)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "int16 tensor %d not compiled in (TFLC_NO_INT16)",
                          t->index, 0);
  }
  return TFLC_OK;
}

static tflc_status tflc__partition_prepare(tflc__ctx *c);
static tflc_status tflc__partition_invoke(tflc__ctx *c);
static tflc_status tflc__prepare_op(tflc__ctx *c) {
  const tflc__opdef *d;
  if (tflc__is_partition(c->op)) /* a delegate's partition (section 13) */
    return tflc__partition_prepare(c);
  if (c->op->user) {
    const tflc_user_op *u = &c->it->opt.user_ops[c->op->user - 1];
    return u->prepare ? u->prepare(c, u->user) : TFLC_OK;
  }
  d = tflc__opdef_find(c->op->code);
  if (d && tflc__op_compiled(d)) {
    const tflc_status st = tflc__types_compiled(c);
    /* (the row kept for every invoke: no search there) */
    c->op->def = (uint16_t)(1 + (d - TFLC__OPDEF_TABLE));
    return st ? st : tflc__op_call(d, c, 0);
  }
  if (d)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "not compiled in (add it to TFLC_OPS)", 0, 0);
  if (TFLC__SELECTED_ROWS_ONLY && c->op->code != TFLC_OP_UNKNOWN_CUSTOM)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "not compiled in (TFLC_OPS) or not supported (code %d)",
                        c->op->code, 0);
  if (c->op->code == TFLC_OP_UNKNOWN_CUSTOM)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "custom operator unknown (register it: user_ops)", 0,
                        0);
  return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                      "operator not supported (code %d)", c->op->code, 0);
}
static tflc_status tflc__run_op(tflc__ctx *c) {
  const tflc__opdef *d;
  if (tflc__is_partition(c->op)) /* a delegate's partition (section 13) */
    return tflc__partition_invoke(c);
  if (c->op->user) {
    const tflc_user_op *u = &c->it->opt.user_ops[c->op->user - 1];
    return u->invoke(c, u->user);
  }
  d = c->op->def ? &TFLC__OPDEF_TABLE[c->op->def - 1] : NULL;
  return d ? tflc__op_call(d, c, 1) : TFLC_ERR_STATE;
}

/* Operators keeping state outside tensors put it back here (tflc_reset),
 * as TFLM's per-operator Reset functions do: the row's `reset` function,
 * of the operators compiled in (the others never ran). */
typedef void (*tflc__reset_fn)(tflc__ctx *c);
static void tflc__reset_op(tflc__ctx *c) {
#define TFLC__RESET_X(name, k, o, i, f, pr, iv, rs)                            \
  case k: {                                                                    \
    const tflc__reset_fn fn = rs;                                              \
    if (TFLC__SELECTED(k) && fn)                                               \
      fn(c);                                                                   \
    return;                                                                    \
  }
#define TFLC__RESET_N(name, k, f)
  switch (c->op->code) { TFLC_OPERATORS(TFLC__RESET_X, TFLC__RESET_N) }
}

/* ---- the operator context of user operators ----------------------------- */
TFLC_API int32_t tflc_op_code(const tflc_op_context *op) {
  return op->op->code;
}
TFLC_API int32_t tflc_op_index(const tflc_op_context *op) {
  return op->op->index;
}
TFLC_API int32_t tflc_op_num_inputs(const tflc_op_context *op) {
  return op->op->nin;
}
TFLC_API int32_t tflc_op_num_outputs(const tflc_op_context *op) {
  return op->op->nout;
}
TFLC_API tflc_tensor *tflc_op_input(tflc_op_context *op, int32_t k) {
  return k < 0 ? NULL : tflc__in(op, k);
}
TFLC_API tflc_tensor *tflc_op_output(tflc_op_context *op, int32_t k) {
  return k < 0 ? NULL : tflc__out(op, k);
}
/* The builtin options table of a builtin operator, or 0. */
static uint32_t tflc__user_opts(const tflc_op_context *op, int32_t field) {
  if (field < 0 || op->op->code >= 256 ||
      op->op->code == TFLC_OP_UNKNOWN_CUSTOM)
    return 0;
  return op->op->opts;
}
TFLC_API int32_t tflc_op_option_int(const tflc_op_context *op, int32_t field,
                                    int32_t dflt) {
  uint32_t t = tflc__user_opts(op, field);
  return t ? tflc__get_i32(tflc__mfb(op->m), t, (uint32_t)field, dflt) : dflt;
}
TFLC_API int32_t tflc_op_option_byte(const tflc_op_context *op, int32_t field,
                                     int32_t dflt) {
  uint32_t t = tflc__user_opts(op, field), p;
  tflc__fb fb = tflc__mfb(op->m);
  p = t ? tflc__field(fb, t, (uint32_t)field, 1) : 0;
  return p ? (int32_t)(int8_t)fb.b[p] : dflt;
}
TFLC_API float tflc_op_option_float(const tflc_op_context *op, int32_t field,
                                    float dflt) {
  uint32_t t = tflc__user_opts(op, field);
  return t ? tflc__get_f32(tflc__mfb(op->m), t, (uint32_t)field, dflt) : dflt;
}
TFLC_API const uint8_t *tflc_op_custom_options(const tflc_op_context *op,
                                               uint32_t *size) {
  return tflc__op_custom_options(op->m, op->sgt, op->op->index, size);
}
TFLC_API int tflc_op_custom_option(const tflc_op_context *op, const char *key,
                                   double *value) {
  uint32_t size = 0;
  const uint8_t *o = tflc_op_custom_options(op, &size);
  tflc__flex f;
  int32_t i;
  int64_t iv;
  *value = 0.0;
  if (!o || !key || !tflc__flex_open(&f, o, size))
    return 0;
  i = tflc__flex_find(&f, key);
  return i >= 0 && tflc__flex_number(&f, i, &iv, value);
}
TFLC_API void *tflc_op_persist(tflc_op_context *op, size_t bytes) {
  return op->it->ready ? NULL : tflc__persist(op->it, bytes);
}
TFLC_API int32_t tflc_op_scratch_request(tflc_op_context *op, size_t bytes) {
  if (op->it->ready || bytes > 0x7FFFFFFFu)
    return -1;
  return tflc__scratch(op, (uintptr_t)bytes);
}
TFLC_API void *tflc_op_scratch(const tflc_op_context *op, int32_t index) {
  if (!op->it->ready || index < 0 || index >= op->op->nscratch)
    return NULL;
  return (void *)op->op->scratch[index];
}
static void **tflc__partition_state(const tflc__op *op);
TFLC_API void tflc_op_set_state(tflc_op_context *op, void *state) {
  if (tflc__is_partition(op->op)) /* delegates: the partition keeps it */
    *tflc__partition_state(op->op) = state;
  else
    op->op->state = state;
}
TFLC_API void *tflc_op_state(const tflc_op_context *op) {
  if (tflc__is_partition(op->op))
    return *tflc__partition_state(op->op);
  return op->op->state;
}
TFLC_API tflc_status tflc_op_fail(tflc_op_context *op, tflc_status st,
                                  const char *message) {
#ifndef TFLC_NO_ERROR_STRINGS
  if (tflc__is_partition(op->op)) /* delegates: "partition N (...): " */
    return tflc__partition_err(op, st, message ? message : "failed");
  tflc__err(op->it->error, st, "op %d %s: %s", op->op->index, tflc__op_name(op),
            message ? message : "failed");
#else
  (void)message;
  op->it->error[0] = 0;
#endif
  return st;
}
TFLC_API tflc_status tflc_op_builtin_prepare(tflc_op_context *op) {
  const tflc__opdef *d = tflc__opdef_find(op->op->code);
  tflc_status st;
  if (!d || !tflc__op_compiled(d))
    return tflc__op_err(op, TFLC_ERR_UNSUPPORTED, "no built-in kernel", 0, 0);
  st = tflc__types_compiled(op);
  return st ? st : tflc__op_call(d, op, 0);
}
TFLC_API tflc_status tflc_op_builtin_invoke(tflc_op_context *op) {
  const tflc__opdef *d = tflc__opdef_find(op->op->code);
  if (!d || !tflc__op_compiled(d))
    return TFLC_ERR_UNSUPPORTED;
  return tflc__op_call(d, op, 1);
}

/* ======================================================================== */
/* Delegates: at init each operator record is offered to the delegates in   */
/* order; every maximal run of consecutive records one delegate claims is   */
/* moved into a partition, and one record (code TFLC_OP_DELEGATE, the edge  */
/* tensors as inputs and outputs) takes the run's place in the ops array.   */
/* The planner and the invoke loop then treat it as any operator: edge      */
/* tensors live across it, tensors used only inside it are flagged          */
/* TFLC_TENSOR_VIRTUAL and get no arena.                                    */
/* ======================================================================== */
/* The record standing for a run: code TFLC_OP_DELEGATE, no user operator,
 * its state the partition (the delegate's state pointer lives in there).
 * A DELEGATE operator of a model never gets a state: tflc has no kernel
 * for it, and a user operator running one is marked by `user`. */
struct tflc__partition {
  const tflc_delegate *delegate;
  struct tflc__partition *next; /* the next partition, in init order */
  tflc__op *record;             /* the record standing for the run */
  tflc__op *ops;                /* the claimed operators' records */
  tflc__ctx *ctx;               /* their contexts */
  void *state;                  /* tflc_op_set_state on the partition */
  int32_t number, subgraph, num_ops, num_internal;
};
/* the two above as a 32-bit target lays them out (see tflc__tensor32) */
typedef struct tflc__partition32 {
  uint32_t delegate, next, record, ops, ctx, state;
  int32_t number, subgraph, num_ops, num_internal;
} tflc__partition32;
typedef struct tflc__ctx32 {
  uint32_t it, m, sgt, op;
} tflc__ctx32;
#if defined(UINTPTR_MAX) && UINTPTR_MAX == 0xFFFFFFFFu
typedef char
    tflc__partition32_matches[sizeof(struct tflc__partition) ==
                                          sizeof(tflc__partition32) &&
                                      sizeof(tflc__ctx) == sizeof(tflc__ctx32)
                                  ? 1
                                  : -1];
#endif

static struct tflc__partition *tflc__partition_of(const tflc__op *op) {
  if (!TFLC__DELEGATES || op->code != TFLC_OP_DELEGATE || op->user ||
      !op->state)
    return NULL;
  return (struct tflc__partition *)op->state;
}
static int tflc__is_partition(const tflc__op *op) {
  return tflc__partition_of(op) != NULL;
}
static void **tflc__partition_state(const tflc__op *op) {
  return &tflc__partition_of(op)->state;
}
static tflc_status tflc__partition_err(tflc__ctx *c, tflc_status st,
                                       const char *message) {
#ifndef TFLC_NO_ERROR_STRINGS
  const struct tflc__partition *p = tflc__partition_of(c->op);
  const char *name = p->delegate->name ? p->delegate->name : "unnamed";
  tflc__err(c->it->error, st, "partition %d (ops %d-%d, delegate %s): %s",
            p->number, p->ops[0].index, p->ops[p->num_ops - 1].index, name,
            message);
#else
  (void)message;
  c->it->error[0] = 0;
#endif
  return st;
}

/* The delegate claiming record `op`, or NULL. */
static const tflc_delegate *tflc__claimant(tflc_interpreter *it, tflc__op *op) {
  tflc__ctx c;
  int32_t k;
  if (op->code == TFLC_OP_TFLM_DECODE)
    return NULL; /* a kept DECODE feeds built-ins; never offered */
  c.it = it;
  c.m = it->model;
  c.sgt = it->sgt;
  c.op = op;
  for (k = 0; k < it->opt.num_delegates; k++) {
    const tflc_delegate *d = &it->opt.delegates[k];
    if (d->claims(&c, d->user))
      return d;
  }
  return NULL;
}

/* 1 if tensor record ti is in `list` (n entries). */
static int tflc__listed(const int16_t *list, int32_t n, int32_t ti) {
  int32_t k;
  for (k = 0; k < n; k++)
    if (list[k] == ti)
      return 1;
  return 0;
}

/* Builds the partition of records [s, e) claimed by `d` into `rec`. `life`
 * holds, per tensor record, the first and last record using it (16 bits
 * each; graph inputs and outputs span everything). */
static tflc_status tflc__make_partition(tflc_interpreter *it, int32_t sg,
                                        const tflc_delegate *d, int32_t s,
                                        int32_t e, const uint32_t *life,
                                        tflc__op *rec) {
  struct tflc__partition *p, **tail;
  int32_t i, k, pass, nin = 0, nout = 0, n = e - s;
  int16_t *edge = NULL;
  p = (struct tflc__partition *)tflc__persist2(it, sizeof *p,
                                               sizeof(tflc__partition32));
  if (p)
    p->ops = (tflc__op *)tflc__persist2(it, sizeof(tflc__op) * (uint32_t)n,
                                        sizeof(tflc__op32) * (uint32_t)n);
  if (p && p->ops)
    p->ctx = (tflc__ctx *)tflc__persist2(it, sizeof(tflc__ctx) * (uint32_t)n,
                                         sizeof(tflc__ctx32) * (uint32_t)n);
  if (!p || !p->ops || !p->ctx)
    return tflc__err(it->error, TFLC_ERR_ARENA,
                     "arena too small for a partition of %d ops", n);
  p->delegate = d;
  p->number = it->num_partitions;
  p->subgraph = sg;
  p->num_ops = n;
  /* tensors used by no record outside [s, e) and not graph inputs or
   * outputs, variables or model data: kept by the delegate */
  for (i = s; i < e; i++) {
    tflc__op *op = &it->ops[i];
    for (k = 0; k < op->nin + op->nout; k++) {
      int32_t ti = k < op->nin ? op->in[k] : TFLC__OUT(op)[k - op->nin];
      tflc_tensor *t = ti >= 0 ? &it->tensors[ti] : NULL;
      if (!t || (int32_t)TFLC__FIRST(life[ti]) < s ||
          (int32_t)TFLC__LAST(life[ti]) >= e ||
          (t->flags &
           (TFLC_TENSOR_CONST | TFLC_TENSOR_VARIABLE | TFLC_TENSOR_LUT |
            TFLC_TENSOR_VIRTUAL | TFLC_TENSOR_EXTERN | TFLC_TENSOR_DECODED)))
        continue;
      t->flags |= TFLC_TENSOR_VIRTUAL;
      t->data = NULL;
      p->num_internal++;
    }
  }
  /* edge tensors: the others that are not model data; outputs are those a
   * claimed operator writes. Pass 0 counts, pass 1 fills. */
  for (pass = 0; pass < 2; pass++) {
    int32_t ni = 0, no = 0;
    for (i = s; i < e; i++) {
      tflc__op *op = &it->ops[i];
      for (k = 0; k < op->nout; k++) {
        int32_t ti = TFLC__OUT(op)[k];
        if (it->tensors[ti].flags & TFLC_TENSOR_VIRTUAL)
          continue;
        if (pass == 0 || !tflc__listed(edge + nin, no, ti)) {
          if (pass)
            edge[nin + no] = (int16_t)ti;
          no++;
        }
      }
    }
    for (i = s; i < e; i++) {
      tflc__op *op = &it->ops[i];
      for (k = 0; k < op->nin; k++) {
        int32_t ti = op->in[k];
        if (ti < 0 ||
            (it->tensors[ti].flags &
             (TFLC_TENSOR_CONST | TFLC_TENSOR_LUT | TFLC_TENSOR_VIRTUAL)))
          continue;
        if (pass == 1 &&
            (tflc__listed(edge + nin, no, ti) || tflc__listed(edge, ni, ti)))
          continue; /* written inside, or listed already */
        if (pass)
          edge[ni] = (int16_t)ti;
        ni++;
      }
    }
    if (pass == 0) {
      /* upper bounds; pass 1 finds the exact (deduplicated) counts */
      nin = ni;
      nout = no;
      if (nin + nout > 0xFFFF)
        return tflc__err(it->error, TFLC_ERR_UNSUPPORTED,
                         "partition %d: too many edge tensors", p->number);
      edge = (int16_t *)tflc__persist(it, 2u * (uint32_t)(nin + nout));
      if (!edge && nin + nout)
        return tflc__err(it->error, TFLC_ERR_ARENA, "arena too small");
    } else {
      /* outputs were written after the nin input slots; close the gap */
      memmove(edge + ni, edge + nin, sizeof(int16_t) * (size_t)no);
      nin = ni;
      nout = no;
    }
  }
  /* the claimed records move into the partition; the caller then writes
   * `rec` (which may be where record s was) */
  for (i = 0; i < n; i++) {
    p->ops[i] = it->ops[s + i];
    p->ctx[i].it = it;
    p->ctx[i].m = it->model;
    p->ctx[i].sgt = it->sgt;
    p->ctx[i].op = &p->ops[i];
  }
  memset(rec, 0, sizeof *rec);
  rec->code = (int16_t)TFLC_OP_DELEGATE;
  rec->def = 0;
  rec->index = p->ops[0].index;
  rec->nin = (uint16_t)nin;
  rec->nout = (uint16_t)nout;
  rec->in = edge;
  rec->state = p;
  for (tail = &it->partitions; *tail; tail = &(*tail)->next)
    ;
  *tail = p;
  it->num_partitions++;
  return TFLC_OK;
}

/* Offers subgraph sg's records to the delegates and replaces each claimed
 * run by its partition's record. Uses the init map at the start of the
 * arena (free by now, one word per tensor) for the tensors' first and last
 * use. */
static tflc_status tflc__delegate_graph(tflc_interpreter *it, int32_t sg) {
  uint32_t *life = (uint32_t *)(void *)it->arena;
  int32_t i, k, n = it->num_ops, kept = 0, start = 0;
  const tflc_delegate *run = NULL;
  if (n > 0xFFFE)
    return tflc__err(it->error, TFLC_ERR_UNSUPPORTED, "more than 65534 ops");
  for (k = 0; k < it->opt.num_delegates; k++)
    if (!it->opt.delegates[k].claims || !it->opt.delegates[k].invoke)
      return tflc__err(it->error, TFLC_ERR_ARG,
                       "delegate %d: claims and invoke are required", k);
  for (k = 0; k < it->num_tensors; k++)
    life[k] = 0xFFFFFFFFu;
  for (i = 0; i < n; i++) {
    tflc__op *op = &it->ops[i];
    for (k = 0; k < op->nin + op->nout; k++) {
      int32_t ti = k < op->nin ? op->in[k] : TFLC__OUT(op)[k - op->nin];
      if (ti >= 0)
        tflc__use(&life[ti], (uint32_t)i);
    }
  }
  for (k = 0; k < it->num_inputs; k++)
    life[it->inputs[k]] = 0xFFFF0000u; /* first 0, last 0xFFFF */
  for (k = 0; k < it->num_outputs; k++)
    life[it->outputs[k]] = 0xFFFF0000u;
  /* records [start, i) are claimed by `run`; kept <= start */
  for (i = 0; i <= n; i++) {
    const tflc_delegate *d = i < n ? tflc__claimant(it, &it->ops[i]) : NULL;
    if (run && d != run) {
      tflc_status st;
      tflc__op rec;
      st = tflc__make_partition(it, sg, run, start, i, life, &rec);
      if (st)
        return st;
      it->ops[kept] = rec;
      tflc__partition_of(&rec)->record = &it->ops[kept];
      kept++;
    }
    if (d && d != run)
      start = i;
    run = d;
    if (!d && i < n)
      it->ops[kept++] = it->ops[i];
  }
  it->num_ops = kept;
  return TFLC_OK;
}

static tflc_status tflc__partition_prepare(tflc__ctx *c) {
  const tflc_delegate *d = tflc__partition_of(c->op)->delegate;
  tflc_status st;
  c->it->error[0] = 0;
  st = d->prepare ? d->prepare(c, d->user) : TFLC_OK;
  if (st && !c->it->error[0])
    tflc__partition_err(c, st, "prepare failed");
  return st;
}
static tflc_status tflc__partition_invoke(tflc__ctx *c) {
  const tflc_delegate *d = tflc__partition_of(c->op)->delegate;
  tflc_status st;
  c->it->error[0] = 0;
  st = d->invoke(c, d->user);
  if (st && !c->it->error[0])
    tflc__partition_err(c, st, "invoke failed");
  return st;
}

/* ---- the context of delegates -------------------------------------------- */
TFLC_API const char *tflc_op_custom_name(const tflc_op_context *op,
                                         uint32_t *len) {
  *len = 0;
  if (tflc__is_partition(op->op))
    return NULL;
  return tflc__op_custom_name(
      op->m, tflc__op_table(op->m, op->sgt, op->op->index), len);
}
TFLC_API int32_t tflc_op_tensor_quant(const tflc_op_context *op,
                                      const tflc_tensor *t, int32_t i,
                                      float *scale, int64_t *zero_point,
                                      int32_t *axis) {
  if (!t) {
    if (axis)
      *axis = 0;
    return 0;
  }
  return tflc__tensor_quant(op->m, op->sgt, t->index, i, scale, zero_point,
                            axis);
}
TFLC_API int tflc_op_const(tflc_op_context *op, int32_t k, tflc_const *c) {
  const tflc_tensor *t = k < 0 ? NULL : tflc__in(op, k);
  if (!t || !(t->flags & (TFLC_TENSOR_CONST | TFLC_TENSOR_LUT))) {
    memset(c, 0, sizeof *c);
    return 0;
  }
  *c = tflc__const(op, t);
  return 1;
}
TFLC_API int32_t tflc_partition_num_ops(const tflc_op_context *part) {
  const struct tflc__partition *p = tflc__partition_of(part->op);
  return p ? p->num_ops : 0;
}
TFLC_API tflc_op_context *tflc_partition_op(tflc_op_context *part, int32_t k) {
  struct tflc__partition *p = tflc__partition_of(part->op);
  if (!p || k < 0 || k >= p->num_ops)
    return NULL;
  return &p->ctx[k];
}
TFLC_API int32_t tflc_num_partitions(const tflc_interpreter *it) {
  return it && it->ready ? it->num_partitions : 0;
}
TFLC_API int tflc_partition_info_get(const tflc_interpreter *it, int32_t i,
                                     tflc_partition_info *info) {
  const struct tflc__partition *p = it && it->ready ? it->partitions : NULL;
  memset(info, 0, sizeof *info);
  if (i < 0)
    return 0;
  for (; p && i > 0; i--)
    p = p->next;
  if (!p)
    return 0;
  info->delegate = p->delegate->name;
  info->subgraph = p->subgraph;
  info->first_op = p->ops[0].index;
  info->last_op = p->ops[p->num_ops - 1].index;
  info->num_ops = p->num_ops;
  info->num_inputs = p->record->nin;
  info->num_outputs = p->record->nout;
  info->num_internal = p->num_internal;
  return 1;
}

#ifdef TFLC__GLUE_PUSHED
#pragma GCC pop_options
#endif

/* the build's own floating-point contraction again (gcc: the pop above) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT DEFAULT
#endif

#endif /* TFLC_IMPLEMENTATION */

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
 * Configuration macros (define before including)
 *   TFLC_IMPLEMENTATION     compile the implementation in this unit
 *   TFLC_STATIC             make every function static (unity builds)
 *   TFLC_NO_ERROR_STRINGS   compile error messages out (saves flash)
 *   TFLC_MAX_DIMS           largest tensor rank (default 6)
 *   TFLC_TILE_BYTES         decode tile for compressed constants (512)
 *   TFLC_OPS(X)             the operators to compile, e.g.
 *                             #define TFLC_OPS(X) X(CONV_2D) X(SOFTMAX)
 *                           (`tflc ops MODEL` prints the line a model
 *                           needs); all when undefined. Operators left out
 *                           cost no flash with -ffunction-sections
 *                           -Wl,--gc-sections and are refused at init
 *                           ("op 3 MEAN: not compiled in").
 *   (The host-side model writer and compression stage, tflc_compress and
 *   tflc_bin, are in tflc_write.h beside this file.)
 *
 * API in one screen
 *   tflc_model_init(&m, bytes, size)      verify once; zero-copy view
 *   tflc_interpreter_init(&it, &m, arena, size, opt)   plan + prepare
 *   tflc_input(&it, i), tflc_output(&it, i)            tensors
 *   tflc_invoke(&it)                       run every operator
 *   tflc_error(&it), tflc_model_error(&m)  "op 7 CONV_2D: ..." messages
 *   tflc_arena_used(&it)                   bytes of arena really needed
 *   tflc_status_str(status)
 *
 * Contents (sections in the order the data flows; search for the titles)
 *   1. Configuration          macros above, defaults in tflc_kernels.h
 *   2. API                    model, tensors, the operator table
 *                             (TFLC_OPERATORS) and opcodes, user operators,
 *                             options, interpreter, functions
 *   -- implementation (TFLC_IMPLEMENTATION) --
 *   3. Messages               the formatter behind every error text
 *   4. Flatbuffer reader      bounds-checked accessors
 *   5. Model view             schema slots, operator codes, tensors
 *   6. Compression descriptors  both LUT formats
 *   7. Verifier               everything, once, at tflc_model_init
 *   8. Interpreter records    arena, operator records, operator context
 *   9. Planner                tensor lifetimes, greedy first-fit
 *  10. Interpreter            init and invoke
 *  11. Operators              convolution family; pooling, softmax and
 *                             element-wise; data movement; quantization,
 *                             decode, variables, subgraphs
 *  12. Operator table         the array, TFLC_OPS, dispatch, the context
 *                             accessors of user operators
 *
 * License: MIT (see LICENSE).
 */
#ifndef TFLC_H
#define TFLC_H

#include "tflc_kernels.h"

#ifndef TFLC_ERROR_LEN
#define TFLC_ERROR_LEN 128
#endif
#ifndef TFLC_MAX_IO
#define TFLC_MAX_IO 16
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
  TFLC_TENSOR_VIRTUAL = 8,  /* decoded inside its consumers; no data */
  TFLC_TENSOR_DECODED = 16, /* output of a TFLM_DECODE operator */
  TFLC_TENSOR_EXTERN = 32   /* data in an alternate decompression region */
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
 * each, in schema order. Custom operators take codes from 256.
 *
 *   X(NAME, code, options, pad, act, inplace, facts, prepare, invoke)
 *     An operator tflc runs. `options`: the BuiltinOptions type the
 *     verifier expects (0: not checked); `pad` / `act`: the options fields
 *     holding padding and fused activation, range-checked by the verifier
 *     (-1: none); `inplace`: the inputs its kernel reads compressed, tile
 *     by tile (TFLC_INPUTS); the others are decoded whole before it runs;
 *     `facts`: what tools check (TFLC_CHECK_*, TFLC_OPF_*); `prepare` /
 *     `invoke`: its functions in the implementation.
 *   N(NAME, code, facts)
 *     A builtin operator tflc knows by name only (refused at init).
 *
 * From it come the opcode enum below, tflc_opcode_name, tflc_op_info,
 * the verifier's options checks, dispatch, the compressor's rules and
 * `tflc check`. Adding an operator: turn its N row into an X row, write
 * its prepare / invoke and its kernel, and test them. */
#define TFLC_INPUTS(k) (1u << (k)) /* input k in an `inplace` mask */
#define TFLC_INPUTS_ALL 0xFFFFu

/* `facts`: one TFLC_CHECK_* kind (what `tflc check` verifies of the
 * quantization), plus flags. */
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
  TFLC_OPF_SUBGRAPHS = 16 /* hands tensors to other subgraphs */
};

/* clang-format off */
#define TFLC_OPERATORS(X, N) \
  X(ADD, 0, 11, -1, 0, 0, 0, tflc__add_prepare, tflc__add_invoke) \
  X(AVERAGE_POOL_2D, 1, 5, 0, 5, 0, TFLC_CHECK_SAME_IN0, tflc__pool_prepare, tflc__pool_invoke) \
  X(CONCATENATION, 2, 10, -1, 1, TFLC_INPUTS_ALL, TFLC_CHECK_SAME_ALL, tflc__concat_prepare, tflc__concat_invoke) \
  X(CONV_2D, 3, 1, 0, 3, TFLC_INPUTS(1) | TFLC_INPUTS(2), TFLC_CHECK_CONV, tflc__conv_prepare, tflc__conv_invoke) \
  X(DEPTHWISE_CONV_2D, 4, 2, 0, 4, TFLC_INPUTS(1) | TFLC_INPUTS(2), TFLC_CHECK_DEPTHWISE, tflc__conv_prepare, tflc__conv_invoke) \
  X(DEPTH_TO_SPACE, 5, 0, -1, -1, 0, 0, tflc__space_depth_prepare, tflc__space_depth_invoke) \
  X(DEQUANTIZE, 6, 38, -1, -1, 0, 0, tflc__quantize_prepare, tflc__quantize_invoke) \
  N(EMBEDDING_LOOKUP, 7, 0) \
  N(FLOOR, 8, 0) \
  X(FULLY_CONNECTED, 9, 8, -1, 0, TFLC_INPUTS(1) | TFLC_INPUTS(2), TFLC_CHECK_FC, tflc__fully_connected_prepare, tflc__fully_connected_invoke) \
  N(HASHTABLE_LOOKUP, 10, 0) \
  X(L2_NORMALIZATION, 11, 12, -1, 0, 0, TFLC_CHECK_OUT_TANH, tflc__l2norm_prepare, tflc__elementwise_invoke) \
  N(L2_POOL_2D, 12, 0) \
  N(LOCAL_RESPONSE_NORMALIZATION, 13, 0) \
  X(LOGISTIC, 14, 0, -1, -1, 0, TFLC_CHECK_OUT_SIGMOID, tflc__sigmoid_prepare, tflc__elementwise_invoke) \
  N(LSH_PROJECTION, 15, 0) \
  N(LSTM, 16, 0) \
  X(MAX_POOL_2D, 17, 5, 0, 5, 0, TFLC_CHECK_SAME_IN0, tflc__pool_prepare, tflc__pool_invoke) \
  X(MUL, 18, 21, -1, 0, 0, 0, tflc__mul_prepare, tflc__elementwise_invoke) \
  X(RELU, 19, 0, -1, -1, 0, 0, tflc__relu_prepare, tflc__elementwise_invoke) \
  N(RELU_N1_TO_1, 20, 0) \
  X(RELU6, 21, 0, -1, -1, 0, 0, tflc__relu_prepare, tflc__elementwise_invoke) \
  X(RESHAPE, 22, 17, -1, -1, 0, TFLC_CHECK_SAME_IN0, tflc__reshape_prepare, tflc__reshape_invoke) \
  X(RESIZE_BILINEAR, 23, 15, -1, -1, 0, TFLC_CHECK_SAME_IN0, tflc__resize_prepare, tflc__resize_invoke) \
  N(RNN, 24, 0) \
  X(SOFTMAX, 25, 9, -1, -1, 0, TFLC_CHECK_OUT_SIGMOID, tflc__softmax_prepare, tflc__softmax_invoke) \
  X(SPACE_TO_DEPTH, 26, 19, -1, -1, 0, TFLC_CHECK_SAME_IN0, tflc__space_depth_prepare, tflc__space_depth_invoke) \
  X(SVDF, 27, 0, -1, -1, 0, 0, tflc__svdf_prepare, tflc__svdf_invoke) \
  X(TANH, 28, 0, -1, -1, 0, TFLC_CHECK_OUT_TANH, tflc__sigmoid_prepare, tflc__elementwise_invoke) \
  N(CONCAT_EMBEDDINGS, 29, 0) \
  N(SKIP_GRAM, 30, 0) \
  N(CALL, 31, TFLC_OPF_SUBGRAPHS) \
  N(CUSTOM, 32, 0) \
  N(EMBEDDING_LOOKUP_SPARSE, 33, 0) \
  X(PAD, 34, 22, -1, -1, 0, TFLC_CHECK_SAME_IN0, tflc__pad_prepare, tflc__pad_invoke) \
  N(UNIDIRECTIONAL_SEQUENCE_RNN, 35, 0) \
  X(GATHER, 36, 23, -1, -1, 0, TFLC_CHECK_SAME_IN0, tflc__gather_prepare, tflc__gather_invoke) \
  X(BATCH_TO_SPACE_ND, 37, 24, -1, -1, 0, TFLC_CHECK_SAME_IN0, tflc__batch_space_prepare, tflc__batch_space_invoke) \
  X(SPACE_TO_BATCH_ND, 38, 25, -1, -1, 0, TFLC_CHECK_SAME_IN0, tflc__batch_space_prepare, tflc__batch_space_invoke) \
  X(TRANSPOSE, 39, 26, -1, -1, 0, TFLC_CHECK_SAME_IN0, tflc__transpose_prepare, tflc__transpose_invoke) \
  X(MEAN, 40, 27, -1, -1, 0, 0, tflc__mean_prepare, tflc__mean_invoke) \
  X(SUB, 41, 28, -1, 0, 0, 0, tflc__addsub_q_prepare, tflc__elementwise_invoke) \
  N(DIV, 42, 0) \
  X(SQUEEZE, 43, 30, -1, -1, 0, TFLC_CHECK_SAME_IN0, tflc__squeeze_prepare, tflc__copy_invoke) \
  X(UNIDIRECTIONAL_SEQUENCE_LSTM, 44, 0, -1, -1, 0, 0, tflc__lstm_prepare, tflc__lstm_invoke) \
  X(STRIDED_SLICE, 45, 32, -1, -1, 0, 0, tflc__strided_slice_prepare, tflc__slice_invoke) \
  N(BIDIRECTIONAL_SEQUENCE_RNN, 46, 0) \
  N(EXP, 47, 0) \
  N(TOPK_V2, 48, 0) \
  X(SPLIT, 49, 0, -1, -1, 0, 0, tflc__split_prepare, tflc__split_invoke) \
  X(LOG_SOFTMAX, 50, 36, -1, -1, 0, TFLC_CHECK_OUT_LOG_SOFTMAX, tflc__log_softmax_prepare, tflc__elementwise_invoke) \
  N(DELEGATE, 51, 0) \
  N(BIDIRECTIONAL_SEQUENCE_LSTM, 52, 0) \
  N(CAST, 53, 0) \
  X(PRELU, 54, 0, -1, -1, 0, 0, tflc__prelu_prepare, tflc__elementwise_invoke) \
  X(MAXIMUM, 55, 39, -1, -1, 0, TFLC_CHECK_SAME_ALL, tflc__maxmin_prepare, tflc__elementwise_invoke) \
  X(ARG_MAX, 56, 40, -1, -1, 0, 0, tflc__arg_minmax_prepare, tflc__elementwise_invoke) \
  X(MINIMUM, 57, 39, -1, -1, 0, TFLC_CHECK_SAME_ALL, tflc__maxmin_prepare, tflc__elementwise_invoke) \
  X(LESS, 58, 41, -1, -1, 0, 0, tflc__compare_prepare, tflc__elementwise_invoke) \
  N(NEG, 59, 0) \
  X(PADV2, 60, 43, -1, -1, 0, TFLC_CHECK_SAME_IN0_IN2, tflc__padv2_prepare, tflc__padv2_invoke) \
  X(GREATER, 61, 44, -1, -1, 0, 0, tflc__compare_prepare, tflc__elementwise_invoke) \
  X(GREATER_EQUAL, 62, 45, -1, -1, 0, 0, tflc__compare_prepare, tflc__elementwise_invoke) \
  X(LESS_EQUAL, 63, 46, -1, -1, 0, 0, tflc__compare_prepare, tflc__elementwise_invoke) \
  N(SELECT, 64, 0) \
  X(SLICE, 65, 48, -1, -1, 0, TFLC_CHECK_SAME_IN0, tflc__slice_prepare, tflc__slice_invoke) \
  N(SIN, 66, 0) \
  X(TRANSPOSE_CONV, 67, 49, 0, 3, TFLC_INPUTS(1) | TFLC_INPUTS(3), TFLC_CHECK_TRANSPOSE_CONV, tflc__transpose_conv_prepare, tflc__conv_wide_invoke) \
  N(SPARSE_TO_DENSE, 68, 0) \
  N(TILE, 69, 0) \
  X(EXPAND_DIMS, 70, 0, -1, -1, 0, 0, tflc__expand_dims_prepare, tflc__copy_invoke) \
  X(EQUAL, 71, 53, -1, -1, 0, 0, tflc__compare_prepare, tflc__elementwise_invoke) \
  X(NOT_EQUAL, 72, 54, -1, -1, 0, 0, tflc__compare_prepare, tflc__elementwise_invoke) \
  N(LOG, 73, 0) \
  X(SUM, 74, 27, -1, -1, 0, 0, tflc__sum_prepare, tflc__elementwise_invoke) \
  N(SQRT, 75, 0) \
  N(RSQRT, 76, 0) \
  X(SHAPE, 77, 55, -1, -1, 0, 0, tflc__shape_prepare, tflc__shape_invoke) \
  N(POW, 78, 0) \
  X(ARG_MIN, 79, 0, -1, -1, 0, 0, tflc__arg_minmax_prepare, tflc__elementwise_invoke) \
  N(FAKE_QUANT, 80, 0) \
  N(REDUCE_PROD, 81, 0) \
  N(REDUCE_MAX, 82, 0) \
  X(PACK, 83, 0, -1, -1, 0, 0, tflc__concat_prepare, tflc__concat_invoke) \
  N(LOGICAL_OR, 84, 0) \
  N(ONE_HOT, 85, 0) \
  N(LOGICAL_AND, 86, 0) \
  N(LOGICAL_NOT, 87, 0) \
  X(UNPACK, 88, 0, -1, -1, 0, 0, tflc__split_prepare, tflc__split_invoke) \
  N(REDUCE_MIN, 89, 0) \
  N(FLOOR_DIV, 90, 0) \
  N(REDUCE_ANY, 91, 0) \
  N(SQUARE, 92, 0) \
  X(ZEROS_LIKE, 93, 0, -1, -1, 0, 0, tflc__zeros_like_prepare, tflc__zeros_like_invoke) \
  N(FILL, 94, 0) \
  N(FLOOR_MOD, 95, 0) \
  N(RANGE, 96, 0) \
  X(RESIZE_NEAREST_NEIGHBOR, 97, 0, -1, -1, 0, 0, tflc__resize_prepare, tflc__resize_invoke) \
  X(LEAKY_RELU, 98, 75, -1, -1, 0, 0, tflc__leaky_relu_prepare, tflc__elementwise_invoke) \
  N(SQUARED_DIFFERENCE, 99, 0) \
  N(MIRROR_PAD, 100, 0) \
  N(ABS, 101, 0) \
  X(SPLIT_V, 102, 0, -1, -1, 0, 0, tflc__split_prepare, tflc__split_invoke) \
  N(UNIQUE, 103, 0) \
  N(CEIL, 104, 0) \
  N(REVERSE_V2, 105, 0) \
  N(ADD_N, 106, 0) \
  N(GATHER_ND, 107, 0) \
  N(COS, 108, 0) \
  N(WHERE, 109, 0) \
  N(RANK, 110, 0) \
  N(ELU, 111, 0) \
  N(REVERSE_SEQUENCE, 112, 0) \
  N(MATRIX_DIAG, 113, 0) \
  X(QUANTIZE, 114, 89, -1, -1, 0, 0, tflc__quantize_prepare, tflc__quantize_invoke) \
  N(MATRIX_SET_DIAG, 115, 0) \
  N(ROUND, 116, 0) \
  X(HARD_SWISH, 117, 91, -1, -1, 0, 0, tflc__hard_swish_prepare, tflc__elementwise_invoke) \
  N(IF, 118, TFLC_OPF_SUBGRAPHS) \
  N(WHILE, 119, TFLC_OPF_SUBGRAPHS) \
  N(NON_MAX_SUPPRESSION_V4, 120, 0) \
  N(NON_MAX_SUPPRESSION_V5, 121, 0) \
  N(SCATTER_ND, 122, 0) \
  N(SELECT_V2, 123, 0) \
  N(DENSIFY, 124, 0) \
  N(SEGMENT_SUM, 125, 0) \
  N(BATCH_MATMUL, 126, 0) \
  N(PLACEHOLDER_FOR_GREATER_OP_CODES, 127, 0) \
  N(CUMSUM, 128, 0) \
  X(CALL_ONCE, 129, 103, -1, -1, 0, TFLC_OPF_SUBGRAPHS, tflc__call_once_prepare, tflc__call_once_invoke) \
  N(BROADCAST_TO, 130, 0) \
  N(RFFT2D, 131, 0) \
  N(CONV_3D, 132, 0) \
  N(HASHTABLE, 136, 0) \
  N(HASHTABLE_FIND, 137, 0) \
  N(HASHTABLE_IMPORT, 138, 0) \
  N(HASHTABLE_SIZE, 139, 0) \
  N(REDUCE_ALL, 140, 0) \
  N(CONV_3D_TRANSPOSE, 141, 0) \
  X(VAR_HANDLE, 142, 111, -1, -1, 0, 0, tflc__var_handle_prepare, tflc__nothing_invoke) \
  X(READ_VARIABLE, 143, 112, -1, -1, 0, 0, tflc__read_variable_prepare, tflc__read_variable_invoke) \
  X(ASSIGN_VARIABLE, 144, 113, -1, -1, TFLC_INPUTS(1), 0, tflc__assign_variable_prepare, tflc__assign_variable_invoke) \
  N(BROADCAST_ARGS, 145, 0) \
  N(RANDOM_STANDARD_NORMAL, 146, 0) \
  N(BUCKETIZE, 147, 0) \
  N(RANDOM_UNIFORM, 148, 0) \
  N(MULTINOMIAL, 149, 0) \
  N(GELU, 150, 0) \
  N(DYNAMIC_UPDATE_SLICE, 151, 0) \
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
  X(TFLM_DECODE, 256, 0, -1, -1, 0, 0, tflc__decode_prepare, tflc__decode_invoke)
/* clang-format on */

#define TFLC__OPCODE_X(name, code, o, p, a, i, f, pr, iv) TFLC_OP_##name = code,
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
  uint8_t options_type;    /* BuiltinOptions type the verifier expects */
  uint8_t facts;           /* TFLC_CHECK_* | TFLC_OPF_* */
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

/* ---- options ------------------------------------------------------------ */
typedef struct tflc_region {
  void *base;
  size_t size;
} tflc_region;

typedef void (*tflc_profile_fn)(void *user, int32_t op_index, int32_t opcode,
                                int begin);

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
} tflc_options;

/* ---- interpreter -------------------------------------------------------- */
struct tflc__op;
typedef struct tflc_interpreter {
  const tflc_model *model;
  uint8_t *arena;    /* 16-byte aligned start */
  size_t arena_size; /* usable bytes from `arena` */
  size_t head;       /* planned activations */
  size_t tail;       /* persistent bytes at the end */
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
  uint32_t sgt;               /* subgraph table of the current view */
  size_t map_bytes;           /* init-time scratch */
  struct tflc__graph *graphs; /* per subgraph (when more than one) */
  struct tflc__var *vars;     /* resource variables */
  int32_t num_vars;
  tflc_status first_error; /* with opt.report: the first op failure */
  /* positions of the running operator's Huffman / Prune inputs (its
   * filter, its other inputs); in the arena, only when a model has them */
  tflc_const_cursor *cursors;
  char error[TFLC_ERROR_LEN];
} tflc_interpreter;

TFLC_API const char *tflc_status_str(tflc_status s);
TFLC_API tflc_status tflc_model_init(tflc_model *m, const void *bytes,
                                     size_t size);
TFLC_API const char *tflc_model_error(const tflc_model *m);
TFLC_API tflc_status tflc_interpreter_init(tflc_interpreter *it,
                                           const tflc_model *m, void *arena,
                                           size_t arena_size,
                                           const tflc_options *opt);
TFLC_API tflc_tensor *tflc_input(tflc_interpreter *it, int32_t i);
TFLC_API const tflc_tensor *tflc_output(const tflc_interpreter *it, int32_t i);
TFLC_API tflc_status tflc_invoke(tflc_interpreter *it);
TFLC_API const char *tflc_error(const tflc_interpreter *it);
TFLC_API size_t tflc_arena_used(const tflc_interpreter *it);

/* ---- operator context (inside a tflc_user_op's prepare / invoke) ------- */
/* The operator's code (TFLC_OP_*, TFLC_OP_UNKNOWN_CUSTOM for a custom one
 * tflc does not know) and its position in the subgraph. */
TFLC_API int32_t tflc_op_code(const tflc_op_context *op);
TFLC_API int32_t tflc_op_index(const tflc_op_context *op);
/* Input / output counts, and tensor k (NULL when absent or out of range).
 * Tensors are valid for the interpreter's lifetime; `data` is set during
 * invoke (at prepare only for constants). */
TFLC_API int32_t tflc_op_num_inputs(const tflc_op_context *op);
TFLC_API int32_t tflc_op_num_outputs(const tflc_op_context *op);
TFLC_API tflc_tensor *tflc_op_input(tflc_op_context *op, int32_t k);
TFLC_API tflc_tensor *tflc_op_output(tflc_op_context *op, int32_t k);
/* Field `field` (0-based, schema order) of the builtin options table, or
 * `dflt` when absent: 4-byte integers; 1-byte enums and bools (Padding,
 * ActivationFunctionType, ...), sign-extended; floats. */
TFLC_API int32_t tflc_op_option_int(const tflc_op_context *op, int32_t field,
                                    int32_t dflt);
TFLC_API int32_t tflc_op_option_byte(const tflc_op_context *op, int32_t field,
                                     int32_t dflt);
TFLC_API float tflc_op_option_float(const tflc_op_context *op, int32_t field,
                                    float dflt);
/* The custom_options bytes of a custom operator (NULL, *size 0: none). */
TFLC_API const uint8_t *tflc_op_custom_options(const tflc_op_context *op,
                                               uint32_t *size);
/* Prepare only: `bytes` of zeroed persistent arena, 8-byte aligned, living
 * as long as the interpreter (NULL when the arena is full). */
TFLC_API void *tflc_op_persist(tflc_op_context *op, size_t bytes);
/* Prepare only: a scratch buffer of `bytes` valid during this operator's
 * invoke (shared with other operators' scratch and activations); returns
 * its index for tflc_op_scratch, or -1 when the arena or the 3 slots of
 * an operator are used up. */
TFLC_API int32_t tflc_op_scratch_request(tflc_op_context *op, size_t bytes);
TFLC_API void *tflc_op_scratch(const tflc_op_context *op, int32_t index);
/* The operator's state pointer (NULL until set). */
TFLC_API void tflc_op_set_state(tflc_op_context *op, void *state);
TFLC_API void *tflc_op_state(const tflc_op_context *op);
/* Sets the interpreter's message to "op N NAME: message" and returns st. */
TFLC_API tflc_status tflc_op_fail(tflc_op_context *op, tflc_status st,
                                  const char *message);
/* The built-in prepare / invoke of this operator, for a user operator that
 * wraps it (counts, times, checks); TFLC_ERR_UNSUPPORTED when tflc has
 * none compiled in. A wrapper must leave the state to the built-in. */
TFLC_API tflc_status tflc_op_builtin_prepare(tflc_op_context *op);
TFLC_API tflc_status tflc_op_builtin_invoke(tflc_op_context *op);

/* ---- introspection, for tools ------------------------------------------- */
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
/* Tensor description from the model (no interpreter needed). */
TFLC_API tflc_status tflc_model_tensor(const tflc_model *m, int32_t sg,
                                       int32_t t, tflc_tensor *out,
                                       const char **name, uint32_t *name_len);
/* Compression of tensor t of subgraph sg, either format. Returns 1 and
 * fills `c` (bits, channels, stride, alt_axis) when compressed; `stored`
 * receives the bytes stored for it (indices + value table) and `format`
 * 1 = COMPRESSION_METADATA, 2 = TFLM_DECODE. */
TFLC_API int tflc_model_lut(const tflc_model *m, int32_t sg, int32_t t,
                            tflc_const *c, uint32_t *stored, int *format);

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
#define TFLC__CUSTOM_X(name, code, o, p, a, i, f, pr, iv)                      \
  if ((code) >= 256 && len == sizeof #name - 1 && memcmp(cc, #name, len) == 0) \
    return code;
#define TFLC__CUSTOM_N(name, code, f)
    TFLC_OPERATORS(TFLC__CUSTOM_X, TFLC__CUSTOM_N)
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

/* Reads tensor table tt into *o (shape, type, quantization). Checks the
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
  if (tflc__has_field(fb, tt, TFLC__T_SHAPE) && !sv)
    return tflc__err(err, TFLC_ERR_FLATBUFFER, "tensor %d: broken shape", t);
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
  if (tflc__has_field(fb, tt, TFLC__T_QUANT) && !tflc__table_ok(fb, qt))
    return tflc__err(err, TFLC_ERR_FLATBUFFER, "tensor %d: broken quantization",
                     t);
  if (qt) {
    uint32_t s = tflc__get_vec(fb, qt, TFLC__Q_SCALE, 4, &ns);
    uint32_t z = tflc__get_vec(fb, qt, TFLC__Q_ZP, 8, &nz);
    if ((tflc__has_field(fb, qt, TFLC__Q_SCALE) && !s) ||
        (tflc__has_field(fb, qt, TFLC__Q_ZP) && !z))
      return tflc__err(err, TFLC_ERR_FLATBUFFER,
                       "tensor %d: broken quantization vectors", t);
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
static int32_t tflc__count(const tflc_tensor *t) {
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
  nb.b = m->bytes + m->comp_base;
  nb.n = m->comp_size;
  memset(c, 0, sizeof *c);
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
  if (!idx || !anc)
    return tflc__err(err, TFLC_ERR_COMPRESSION,
                     "tensor %d: DECODE inputs %d/%d must be constant", oi, e,
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
static tflc_status tflc__verify_int_vec(const tflc_model *m, uint32_t table,
                                        uint32_t slot, int32_t lo, int32_t hi,
                                        char *err, const char *what,
                                        int32_t where) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t n, i, v = tflc__get_vec(fb, table, slot, 4, &n);
  if (tflc__has_field(fb, table, slot) && !v)
    return tflc__err(err, TFLC_ERR_FLATBUFFER, "%s %d: broken vector", what,
                     where);
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
  if (tflc__has_field(fb, m->root, TFLC__MODEL_METADATA) && !md)
    return tflc__err(err, TFLC_ERR_FLATBUFFER, "model metadata broken");
  for (i = 0; md && i < nmd; i++) {
    uint32_t e = tflc__vec_table(fb, md, i), len, blen, b;
    const char *name;
    const uint8_t *data;
    if (!e)
      return tflc__err(err, TFLC_ERR_FLATBUFFER, "metadata %u broken", i);
    name = tflc__get_str(fb, e, TFLC__MD_NAME, &len);
    if (!name || len != 20 || memcmp(name, "COMPRESSION_METADATA", 20) != 0)
      continue;
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

/* Window w of subgraph s's tensors (indices 2048 w .. 2048 w + 2047):
 * marks in `bits` (256 bytes) those its LutTensors name, verifies each
 * one's descriptor once and refuses a tensor named twice. Walking the
 * tensors a window at a time costs O(entries x tensors / 2048), not the
 * O(entries x tensors) of a lookup per tensor, and needs no memory. */
static tflc_status tflc__lut_window(tflc_model *m, int32_t s, uint32_t w,
                                    uint8_t *bits) {
  tflc__fb nb = tflc__meta_fb(m);
  uint32_t nl, k, sgt = tflc__subgraph(m, s);
  uint32_t luts = tflc__meta_list(m, s, &nl);
  memset(bits, 0, 256);
  for (k = 0; luts && k < nl; k++) {
    uint32_t lt = tflc__vec_table(nb, luts, k), tt, u;
    int32_t t = lt ? tflc__get_i32(nb, lt, 0, 0) : -1;
    tflc_tensor x;
    tflc_const c;
    tflc_status st;
    if (t < 0 || ((uint32_t)t >> 11) != w)
      continue;
    u = (uint32_t)t & 2047u;
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
/* Verifies subgraph s: tensors, operators, index ranges, constant buffer
 * lengths, operator codes, and every compression descriptor. */
static tflc_status tflc__verify_subgraph(tflc_model *m, int32_t s) {
  tflc__fb fb = tflc__mfb(m);
  char *err = m->error;
  uint32_t sgt = tflc__subgraph(m, s), nt, no, i, tv, ov;
  uint32_t win = 0xFFFFFFFFu; /* tensor window of lmap */
  uint8_t lmap[256];          /* its compressed tensors, one bit each */
  tflc_status st;
  tflc_tensor t;
  if (!sgt)
    return tflc__err(err, TFLC_ERR_FLATBUFFER, "subgraph %d broken", s);
  tv = tflc__sg_vec(m, sgt, TFLC__SG_TENSORS, 4, &nt);
  ov = tflc__sg_vec(m, sgt, TFLC__SG_OPERATORS, 4, &no);
  if ((tflc__has_field(fb, sgt, TFLC__SG_TENSORS) && !tv) ||
      (tflc__has_field(fb, sgt, TFLC__SG_OPERATORS) && !ov))
    return tflc__err(err, TFLC_ERR_FLATBUFFER, "subgraph %d: broken vectors",
                     s);
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
    if (!tt)
      return tflc__err(err, TFLC_ERR_FLATBUFFER, "tensor %u: broken table", i);
    st = tflc__read_tensor(m, tt, &t, err, (int32_t)i);
    if (st)
      return st;
    if (tflc__has_field(fb, tt, TFLC__T_NAME)) {
      uint32_t nl;
      if (!tflc__get_str(fb, tt, TFLC__T_NAME, &nl))
        return tflc__err(err, TFLC_ERR_FLATBUFFER, "tensor %u: broken name", i);
    }
    b = tflc__get_u32(fb, tt, TFLC__T_BUFFER, 0);
    if (b >= (uint32_t)m->num_buffers)
      return tflc__err(err, TFLC_ERR_INDEX, "tensor %u: buffer %u out of range",
                       i, b);
    data = tflc__buffer(m, b, &blen);
    if ((i >> 11) != win) {
      win = i >> 11;
      st = tflc__lut_window(m, s, win, lmap);
      if (st)
        return st;
    }
    if (lmap[(i & 2047u) >> 3] & (1u << (i & 7u))) {
      /* compressed (COMPRESSION_METADATA): checked by tflc__lut_window */
    } else if (data && blen < t.bytes) {
      return tflc__err(err, TFLC_ERR_BUFFER,
                       "tensor %u: buffer %u has %u bytes, shape needs %u", i,
                       b, blen, t.bytes);
    } else if (data && tflc_type_size(t.type) > 1 &&
               ((uintptr_t)data & (tflc_type_size(t.type) - 1u))) {
      /* kernels read constants as typed arrays: an int32 at an odd
       * address faults on many cores (load the model 16-byte aligned) */
      return tflc__err(err, TFLC_ERR_BUFFER,
                       "tensor %u: data of buffer %u not aligned to %u bytes",
                       i, b, (unsigned)tflc_type_size(t.type));
    }
  }
  for (i = 0; i < no; i++) {
    uint32_t ot = tflc__vec_table(fb, ov, i), ni, nout, k, opt;
    int32_t code;
    if (!ot)
      return tflc__err(err, TFLC_ERR_FLATBUFFER, "op %u: broken table", i);
    k = tflc__get_u32(fb, ot, TFLC__OP_OPCODE, 0);
    if (k >= (uint32_t)m->num_opcodes)
      return tflc__err(err, TFLC_ERR_INDEX,
                       "op %u: opcode index %u out of range", i, k);
    code = tflc__opcode(m, k);
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
  if (!tflc__table_ok(fb, m->root))
    return tflc__err(m->error,
                     m->root >= size ? TFLC_ERR_TRUNCATED : TFLC_ERR_FLATBUFFER,
                     "root table broken");
  if (tflc__get_u32(fb, m->root, TFLC__MODEL_VERSION, 0) > 3)
    return tflc__err(m->error, TFLC_ERR_UNSUPPORTED, "schema version %u > 3",
                     tflc__get_u32(fb, m->root, TFLC__MODEL_VERSION, 0));
  m->opcodes = tflc__get_vec(fb, m->root, TFLC__MODEL_OPCODES, 4, &n);
  m->num_opcodes = (int32_t)n;
  if (tflc__has_field(fb, m->root, TFLC__MODEL_OPCODES) && !m->opcodes)
    return tflc__err(m->error, TFLC_ERR_FLATBUFFER, "operator codes broken");
  m->subgraphs = tflc__get_vec(fb, m->root, TFLC__MODEL_SUBGRAPHS, 4, &n);
  m->num_subgraphs = (int32_t)n;
  if (tflc__has_field(fb, m->root, TFLC__MODEL_SUBGRAPHS) && !m->subgraphs)
    return tflc__err(m->error, TFLC_ERR_FLATBUFFER, "subgraphs broken");
  if (!m->subgraphs || n == 0)
    return tflc__err(m->error, TFLC_ERR_SCHEMA, "model has no subgraph");
  m->buffers = tflc__get_vec(fb, m->root, TFLC__MODEL_BUFFERS, 4, &n);
  m->num_buffers = (int32_t)n;
  if (tflc__has_field(fb, m->root, TFLC__MODEL_BUFFERS) && !m->buffers)
    return tflc__err(m->error, TFLC_ERR_FLATBUFFER, "buffers broken");
  for (i = 0; i < (uint32_t)m->num_opcodes; i++) {
    uint32_t oc = tflc__vec_table(fb, m->opcodes, i), len;
    if (!oc)
      return tflc__err(m->error, TFLC_ERR_FLATBUFFER, "operator code %u broken",
                       i);
    if (tflc__has_field(fb, oc, TFLC__OC_CUSTOM) &&
        !tflc__get_str(fb, oc, TFLC__OC_CUSTOM, &len))
      return tflc__err(m->error, TFLC_ERR_FLATBUFFER,
                       "operator code %u: broken custom code", i);
    if (tflc__get_i32(fb, oc, TFLC__OC_BUILTIN, 0) == TFLC_OP_CUSTOM &&
        !tflc__get_str(fb, oc, TFLC__OC_CUSTOM, &len))
      return tflc__err(m->error, TFLC_ERR_SCHEMA,
                       "operator code %u: CUSTOM without a name", i);
  }
  for (i = 0; i < (uint32_t)m->num_buffers; i++) {
    uint32_t bt = tflc__vec_table(fb, m->buffers, i), len;
    uint64_t off, sz;
    if (!bt)
      return tflc__err(m->error, TFLC_ERR_FLATBUFFER, "buffer %u broken", i);
    if (tflc__has_field(fb, bt, TFLC__BUF_DATA) &&
        !tflc__get_vec(fb, bt, TFLC__BUF_DATA, 1, &len))
      return tflc__err(m->error, TFLC_ERR_TRUNCATED,
                       "buffer %u: data runs past the end of the model", i);
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
TFLC_API int32_t tflc_model_tensor_quant(const tflc_model *m, int32_t sg,
                                         int32_t t, int32_t i, float *scale,
                                         int64_t *zero_point, int32_t *axis) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t tt = tflc__tensor_table(m, tflc__subgraph(m, sg), t);
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
#define TFLC__OUT(op) ((op)->in + (op)->nin)

/* Compressed inputs without a tiled path are decoded whole before the op
 * runs, into an alternate region or an arena scratch buffer. */
typedef struct tflc__whole {
  int32_t slot;    /* input slot */
  int32_t scratch; /* scratch index, or -1 when `ptr` is in a region */
  void *ptr;
} tflc__whole;

typedef struct tflc__op {
  int32_t code;  /* builtin code or TFLC_OP_TFLM_DECODE */
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
} tflc__op;

/* The context of one operator at prepare and invoke (tflc_op_context in
 * the API). */
struct tflc_op_context {
  tflc_interpreter *it;
  const tflc_model *m;
  uint32_t sgt;
  tflc__op *op;
};
typedef struct tflc_op_context tflc__ctx;

/* One subgraph's records, kept when a model has several (CALL_ONCE). */
typedef struct tflc__graph {
  tflc_tensor *tensors;
  tflc__op *ops;
  int32_t num_tensors, num_ops, num_inputs, num_outputs;
  int32_t inputs[TFLC_MAX_IO], outputs[TFLC_MAX_IO];
  uint32_t sgt;
  int32_t ran; /* CALL_ONCE: already run */
} tflc__graph;

/* A resource variable: VAR_HANDLE (container, shared_name) names it; its
 * buffer is persistent arena, sized by the first READ or ASSIGN. */
typedef struct tflc__var {
  const char *container, *name;
  uint32_t container_len, name_len;
  void *data;
  uint32_t bytes;
  uint8_t type;
} tflc__var;

/* Persistent allocation from the end of the arena. */
static void *tflc__persist(tflc_interpreter *it, size_t bytes) {
  size_t need = (bytes + 7) & ~(size_t)7;
  /* never into the planned activations of earlier subgraphs nor into the
   * init-time map / planning table at the start of the arena */
  size_t floor = it->head > it->map_bytes ? it->head : it->map_bytes;
  /* the map is rounded up to the alignment when init ends (head) */
  floor = (floor + TFLC__ALIGN - 1) & ~(size_t)(TFLC__ALIGN - 1);
  if (bytes > it->arena_size || floor > it->arena_size - it->tail ||
      need > it->arena_size - it->tail - floor)
    return NULL;
  it->tail += need;
  memset(it->arena + it->arena_size - it->tail, 0, need);
  return it->arena + it->arena_size - it->tail;
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
static tflc_tensor *tflc__in(tflc__ctx *c, int32_t k) {
  if (k >= c->op->nin || c->op->in[k] < 0)
    return NULL;
  return &c->it->tensors[c->op->in[k]];
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
  if (op->nscratch >= TFLC__MAX_SCRATCH)
    return -1;
  /* most ops need one scratch buffer (a decode tile): one slot first, then
   * room for all of them */
  if (op->nscratch == 0 || op->nscratch == 1) {
    uintptr_t *p = (uintptr_t *)tflc__persist(
        c->it, sizeof(uintptr_t) * (op->nscratch ? TFLC__MAX_SCRATCH : 1));
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
  if (t->flags & TFLC_TENSOR_LUT) {
    tflc_const d;
    tflc__desc_of(c->it, c->sgt, t, &d);
    if (d.kind == TFLC_CONST_HUFFMAN || d.kind == TFLC_CONST_PRUNE)
      d.cursor = tflc__cursor_for(c, t);
    return d;
  }
  if (t->type == TFLC_INT4)
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
 * place: biases and concatenated or assigned values always (read
 * front to back); CONV_2D / TRANSPOSE_CONV filters when one output
 * channel's row fits the decode tile (decoded once per channel, in
 * order; else again for every pixel); FULLY_CONNECTED weights when a row
 * fits or there is one batch; DEPTHWISE_CONV_2D filters never (a
 * channel's taps are spread over the whole tensor). The others are
 * decoded whole before the operator, as TFLM always does. */
static int tflc__stream_inplace(const tflc_model *m, uint32_t sgt, uint32_t ot,
                                int32_t code, int32_t k) {
  char err[TFLC_ERROR_LEN];
  tflc__fb fb = tflc__mfb(m);
  uint32_t ni, iv = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &ni);
  tflc_tensor f, x;
  uint64_t row;
  size_t es;
  if (k != 1)
    return 1;
  if (code == TFLC_OP_DEPTHWISE_CONV_2D)
    return 0;
  if (code != TFLC_OP_CONV_2D && code != TFLC_OP_TRANSPOSE_CONV &&
      code != TFLC_OP_FULLY_CONNECTED)
    return 1;
  if (ni < 2 ||
      tflc__read_tensor(m, tflc__tensor_table(m, sgt, tflc__i32(fb.b + iv + 4)),
                        &f, err, 1) != TFLC_OK)
    return 0;
  es = tflc_type_size(f.type);
  if (code == TFLC_OP_FULLY_CONNECTED) {
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
 * Huffman / Prune CONV_2D or DEPTHWISE_CONV_2D bias also when its filter
 * is not read compressed). */
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
  if (k == 2 &&
      (op->code == TFLC_OP_CONV_2D || op->code == TFLC_OP_DEPTHWISE_CONV_2D)) {
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
/* buffer. Lifetimes live in a table at the start of the free arena (4     */
/* bytes a tensor, where the activations go afterwards); offsets in `data`. */
/* ======================================================================== */
#define TFLC__ALIASED 64 /* planning only: data holds the owner index + 1 */
#define TFLC__PLACED 128 /* planning only: data holds the arena offset */

/* 1 if the tensor needs an arena buffer. */
#define TFLC__FIRST(l) ((l)&0xFFFFu)
#define TFLC__LAST(l) ((l) >> 16)
static int tflc__needs_buffer(const tflc_tensor *t, uint32_t life) {
  return !(t->flags & (TFLC_TENSOR_CONST | TFLC_TENSOR_VIRTUAL |
                       TFLC_TENSOR_EXTERN | TFLC_TENSOR_LUT)) &&
         life != 0xFFFFFFFFu;
}
static int32_t tflc__owner(const tflc_interpreter *it, int32_t ti) {
  int32_t guard = 0;
  while ((it->tensors[ti].flags & TFLC__ALIASED) && guard++ < 1 << 16)
    ti = (int32_t)(uintptr_t)it->tensors[ti].data - 1;
  return ti;
}
static void tflc__use(uint32_t *life, uint32_t op) {
  uint32_t f = TFLC__FIRST(*life), l = TFLC__LAST(*life);
  if (*life == 0xFFFFFFFFu)
    f = l = op;
  if (op < f)
    f = op;
  if (op > l)
    l = op;
  *life = f | (l << 16);
}
/* Lowest 16-aligned offset >= 0 where `size` bytes live during [first,
 * last] without overlapping any placed tensor of intersecting lifetime or
 * any of the `nx` extra (offset, size) ranges. */
static size_t tflc__fit(const tflc_interpreter *it, const uint32_t *life,
                        uint32_t size, uint32_t first, uint32_t last,
                        const uintptr_t *xo, const uintptr_t *xs, int32_t nx) {
  size_t off = 0;
  int moved = 1;
  int32_t i;
  while (moved) {
    moved = 0;
    for (i = 0; i < it->num_tensors; i++) {
      const tflc_tensor *o = &it->tensors[i];
      size_t oo, os;
      if (!(o->flags & TFLC__PLACED) || TFLC__LAST(life[i]) < first ||
          TFLC__FIRST(life[i]) > last)
        continue;
      oo = (size_t)(uintptr_t)o->data;
      os = (o->bytes + TFLC__ALIGN - 1) & ~(size_t)(TFLC__ALIGN - 1);
      if (off < oo + os && oo < off + size) {
        off = oo + os;
        moved = 1;
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
static tflc_status tflc__plan(tflc_interpreter *it) {
  uint32_t i, no = (uint32_t)it->num_ops;
  int32_t k, n = it->num_tensors;
  size_t high = 0, room = it->arena_size - it->tail;
  uint8_t *base = it->arena + it->head; /* after earlier subgraphs */
  uint32_t *life = (uint32_t *)(void *)base;
  if (no > 0xFFFE)
    return tflc__err(it->error, TFLC_ERR_UNSUPPORTED, "more than 65534 ops");
  if ((size_t)n * 4 > room - it->head)
    return tflc__err(it->error, TFLC_ERR_ARENA, "arena too small to plan");
  if (it->map_bytes < it->head + (size_t)n * 4)
    it->map_bytes = it->head + (size_t)n * 4;
  for (k = 0; k < n; k++) {
    life[k] = 0xFFFFFFFFu;
    if (!(it->tensors[k].flags & (TFLC_TENSOR_CONST | TFLC_TENSOR_VIRTUAL |
                                  TFLC_TENSOR_EXTERN | TFLC_TENSOR_LUT)))
      it->tensors[k].data = NULL;
  }
  /* RESHAPE: the output is the input's buffer */
  for (i = 0; i < no; i++) {
    tflc__op *op = &it->ops[i];
    tflc_tensor *src, *dst;
    if (op->code != TFLC_OP_RESHAPE || op->nin < 1 || op->in[0] < 0)
      continue;
    src = &it->tensors[op->in[0]];
    dst = &it->tensors[TFLC__OUT(op)[0]];
    if (src == dst || src->bytes != dst->bytes ||
        ((src->flags | dst->flags) &
         (TFLC_TENSOR_CONST | TFLC_TENSOR_VIRTUAL | TFLC_TENSOR_EXTERN |
          TFLC_TENSOR_LUT | TFLC_TENSOR_VARIABLE | TFLC__ALIASED)))
      continue;
    dst->flags |= TFLC__ALIASED;
    dst->data = (void *)(uintptr_t)(tflc__owner(it, op->in[0]) + 1);
  }
  /* lifetimes, on the owners of shared buffers */
  for (k = 0; k < it->num_inputs; k++)
    tflc__use(&life[tflc__owner(it, it->inputs[k])], 0);
  for (i = 0; i < no; i++) {
    tflc__op *op = &it->ops[i];
    for (k = 0; k < op->nin + op->nout; k++) {
      int32_t ti = k < op->nin ? op->in[k] : TFLC__OUT(op)[k - op->nin];
      if (ti >= 0)
        tflc__use(&life[tflc__owner(it, ti)], i);
    }
  }
  for (k = 0; k < it->num_outputs; k++)
    tflc__use(&life[tflc__owner(it, it->outputs[k])], no);
  for (k = 0; k < n; k++)
    if (it->tensors[k].flags & TFLC_TENSOR_VARIABLE) {
      tflc__use(&life[k], 0);
      tflc__use(&life[k], no);
    }
  /* place tensors, largest first (ties: earliest first use, then index) */
  for (;;) {
    int32_t best = -1;
    tflc_tensor *b;
    size_t off, sz;
    for (k = 0; k < n; k++) {
      const tflc_tensor *t = &it->tensors[k];
      if (!tflc__needs_buffer(t, life[k]) ||
          (t->flags & (TFLC__PLACED | TFLC__ALIASED)))
        continue;
      if (best < 0 || t->bytes > it->tensors[best].bytes ||
          (t->bytes == it->tensors[best].bytes &&
           TFLC__FIRST(life[k]) < TFLC__FIRST(life[best])))
        best = k;
    }
    if (best < 0)
      break;
    b = &it->tensors[best];
    sz = (b->bytes + TFLC__ALIGN - 1) & ~(size_t)(TFLC__ALIGN - 1);
    off = tflc__fit(it, life, (uint32_t)sz, TFLC__FIRST(life[best]),
                    TFLC__LAST(life[best]), NULL, NULL, 0);
    b->data = (void *)(uintptr_t)off;
    b->flags |= TFLC__PLACED;
    if (off + sz > high)
      high = off + sz;
  }
  /* per-op scratch: lives during its op only; placed after the tensors */
  for (i = 0; i < no; i++) {
    tflc__op *op = &it->ops[i];
    uintptr_t xo[TFLC__MAX_SCRATCH], xs[TFLC__MAX_SCRATCH];
    for (k = 0; k < op->nscratch; k++) {
      size_t sz =
          (op->scratch[k] + TFLC__ALIGN - 1) & ~(size_t)(TFLC__ALIGN - 1);
      size_t off = tflc__fit(it, life, (uint32_t)sz, i, i, xo, xs, k);
      xo[k] = off;
      xs[k] = sz;
      if (off + sz > high)
        high = off + sz;
    }
    for (k = 0; k < op->nscratch; k++)
      op->scratch[k] = xo[k];
  }
  if (high > room - it->head)
    return tflc__err(it->error, TFLC_ERR_ARENA,
                     "arena too small: needs %u bytes",
                     (unsigned)(it->head + high + it->tail + it->align_pad));
  it->head += high;
  /* offsets to pointers */
  for (k = 0; k < n; k++) {
    tflc_tensor *t = &it->tensors[k];
    if (t->flags & TFLC__PLACED) {
      t->data = base + (uintptr_t)t->data;
      t->flags &= (uint8_t)~TFLC__PLACED;
    } else if (tflc__needs_buffer(t, life[k]) && !(t->flags & TFLC__ALIASED)) {
      t->data = it->arena; /* zero bytes */
    } else if (!(t->flags &
                 (TFLC_TENSOR_CONST | TFLC_TENSOR_VIRTUAL | TFLC_TENSOR_EXTERN |
                  TFLC_TENSOR_LUT | TFLC__ALIASED)) &&
               !t->data) {
      t->data = it->arena; /* unused tensor: valid pointer, no bytes used */
    }
  }
  for (k = 0; k < n; k++) {
    tflc_tensor *t = &it->tensors[k];
    if (t->flags & TFLC__ALIASED) {
      const tflc_tensor *o = &it->tensors[tflc__owner(it, k)];
      t->flags &= (uint8_t)~TFLC__ALIASED;
      t->data = o->data;
    }
  }
  for (k = 0; k < n; k++)
    it->tensors[k].flags &= (uint8_t)~TFLC__ALIASED;
  for (i = 0; i < no; i++) {
    tflc__op *op = &it->ops[i];
    for (k = 0; k < op->nscratch; k++)
      op->scratch[k] = (uintptr_t)(base + op->scratch[k]);
    for (k = 0; k < op->nwhole; k++)
      if (op->whole[k].scratch >= 0)
        op->whole[k].ptr = (void *)op->scratch[op->whole[k].scratch];
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
TFLC_API tflc_status tflc_interpreter_init(tflc_interpreter *it,
                                           const tflc_model *m, void *arena,
                                           size_t arena_size,
                                           const tflc_options *opt) {
  uintptr_t a;
  if (!it)
    return TFLC_ERR_ARG;
  memset(it, 0, sizeof *it);
  if (!m || !m->verified || !arena)
    return tflc__err(it->error, TFLC_ERR_ARG, "no verified model or no arena");
  it->model = m;
  if (opt)
    it->opt = *opt;
  if (it->opt.num_decomp_regions < 0 || it->opt.num_decomp_regions > 8 ||
      (it->opt.num_decomp_regions && !it->opt.decomp_regions))
    return tflc__err(it->error, TFLC_ERR_ARG, "bad decompression regions");
  a = (uintptr_t)arena;
  it->align_pad =
      (size_t)((TFLC__ALIGN - (a & (TFLC__ALIGN - 1))) & (TFLC__ALIGN - 1));
  if (arena_size < it->align_pad + 64)
    return tflc__err(it->error, TFLC_ERR_ARENA, "arena of %u bytes too small",
                     (unsigned)arena_size);
  it->arena = (uint8_t *)arena + it->align_pad;
  it->arena_size = (arena_size - it->align_pad) & ~(size_t)(TFLC__ALIGN - 1);
  return tflc__init_graphs(it);
}

/* Records, operators, preparation and plan of subgraph `sg`; the view
 * fields of `it` (tensors, ops, inputs, ...) describe it afterwards. */
static tflc_status tflc__init_graph(tflc_interpreter *it, int32_t sg) {
  const tflc_model *m = it->model;
  tflc__fb fb;
  uint32_t sgt, nt, no, i, nio, iov, nrec = 0, nops = 0;
  tflc_status st;
  tflc__ctx c;
  int32_t k, *map;
  fb = tflc__mfb(m);
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
  c.it = it;
  c.m = m;
  c.sgt = sgt;
  c.op = NULL;
  /* Pass 1, in a temporary map at the start of the arena (where the
   * activations go later): map[t] = bit 0 referenced, bit 1 DECODE output,
   * bit 2 read by an operator without a tiled path (or a subgraph output),
   * then the record index from bit 3 up. */
  if ((uint64_t)nt * 4 > it->arena_size - it->tail)
    return tflc__err(it->error, TFLC_ERR_ARENA,
                     "arena too small for %u tensors", nt);
  map = (int32_t *)(void *)it->arena;
  memset(map, 0, (size_t)nt * 4);
  if (it->map_bytes < (size_t)nt * 4)
    it->map_bytes = (size_t)nt * 4; /* tflc__persist stays above it */
  iov = tflc__sg_vec(m, sgt, TFLC__SG_INPUTS, 4, &nio);
  if (nio > TFLC_MAX_IO)
    return tflc__err(it->error, TFLC_ERR_UNSUPPORTED, "%u inputs > %d", nio,
                     TFLC_MAX_IO);
  it->num_inputs = (int32_t)nio;
  for (i = 0; i < nio; i++) {
    it->inputs[i] = tflc__i32(fb.b + iov + 4 * i);
    map[it->inputs[i]] |= 1;
  }
  iov = tflc__sg_vec(m, sgt, TFLC__SG_OUTPUTS, 4, &nio);
  if (nio > TFLC_MAX_IO)
    return tflc__err(it->error, TFLC_ERR_UNSUPPORTED, "%u outputs > %d", nio,
                     TFLC_MAX_IO);
  it->num_outputs = (int32_t)nio;
  for (i = 0; i < nio; i++) {
    it->outputs[i] = tflc__i32(fb.b + iov + 4 * i);
    map[it->outputs[i]] |= 1 | 4;
  }
  for (i = 0; i < no; i++) {
    uint32_t ot = tflc__op_table(m, sgt, (int32_t)i), ni, nout, j;
    uint32_t iv = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &ni);
    uint32_t ov = tflc__get_vec(fb, ot, TFLC__OP_OUTPUTS, 4, &nout);
    int32_t code = tflc__opcode(m, tflc__get_u32(fb, ot, TFLC__OP_OPCODE, 0));
    int user;
    if (code == TFLC_OP_TFLM_DECODE) {
      for (j = 0; j < nout; j++)
        map[tflc__i32(fb.b + ov + 4 * j)] |= 2;
      continue;
    }
    user = tflc__user_op_for(it, code, ot) != 0;
    for (j = 0; j < ni; j++) {
      int32_t ti = tflc__i32(fb.b + iv + 4 * j);
      if (ti >= 0)
        map[ti] |= 1 | (tflc__tiled_input(code, user, (int32_t)j) ? 0 : 4);
    }
    for (j = 0; j < nout; j++)
      map[tflc__i32(fb.b + ov + 4 * j)] |= 1;
  }
  /* keep a DECODE op only if one of its outputs must be decoded whole */
  for (i = 0; i < no; i++) {
    uint32_t ot = tflc__op_table(m, sgt, (int32_t)i), nout, j, keep = 0;
    uint32_t ov = tflc__get_vec(fb, ot, TFLC__OP_OUTPUTS, 4, &nout);
    if (tflc__opcode(m, tflc__get_u32(fb, ot, TFLC__OP_OPCODE, 0)) !=
        TFLC_OP_TFLM_DECODE) {
      nops++;
      continue;
    }
    for (j = 0; j < nout; j++)
      if (map[tflc__i32(fb.b + ov + 4 * j)] & 4)
        keep = 1;
    if (keep) {
      nops++;
      for (j = 0; j < nout; j++)
        map[tflc__i32(fb.b + ov + 4 * j)] |= 1;
    }
  }
  for (i = 0; i < nt; i++)
    if (map[i] & 1)
      map[i] |= (int32_t)(nrec++ << 3);
  if (nrec > 32767)
    return tflc__err(it->error, TFLC_ERR_UNSUPPORTED,
                     "subgraph %d: %u tensors in use (at most 32767)", sg,
                     nrec);
  it->num_tensors = (int32_t)nrec;
  it->num_ops = (int32_t)nops;
  it->tensors = (tflc_tensor *)tflc__persist(it, sizeof(tflc_tensor) * nrec);
  it->ops = (tflc__op *)tflc__persist(it, sizeof(tflc__op) * nops);
  if ((nrec && !it->tensors) || (nops && !it->ops))
    return tflc__err(it->error, TFLC_ERR_ARENA,
                     "arena too small for %u tensors and %u ops", nrec, nops);
  for (k = 0; k < it->num_inputs; k++)
    it->inputs[k] = map[it->inputs[k]] >> 3;
  for (k = 0; k < it->num_outputs; k++)
    it->outputs[k] = map[it->outputs[k]] >> 3;
  /* tensor records */
  for (i = 0; i < nt; i++) {
    tflc_tensor *t;
    uint32_t tt, blen;
    const uint8_t *d;
    if (!(map[i] & 1))
      continue;
    t = &it->tensors[map[i] >> 3];
    tt = tflc__tensor_table(m, sgt, (int32_t)i);
    st = tflc__read_tensor(m, tt, t, it->error, (int32_t)i);
    if (st)
      return st;
    t->index = (uint16_t)i;
    d = tflc__buffer(m, tflc__get_u32(fb, tt, TFLC__T_BUFFER, 0), &blen);
    if (d) {
      t->data = (void *)(uintptr_t)d;
      t->flags |= TFLC_TENSOR_CONST;
    }
  }
  {
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
      t = &it->tensors[map[ti] >> 3];
      t->data = (void *)(uintptr_t)(m->bytes + m->comp_base + lt);
      t->flags = (uint8_t)((t->flags & ~TFLC_TENSOR_CONST) | TFLC_TENSOR_LUT);
    }
  }
  /* operators */
  nops = 0;
  for (i = 0; i < no; i++) {
    uint32_t ot = tflc__op_table(m, sgt, (int32_t)i), ni, nout, iv, ovv, j;
    int32_t code = tflc__opcode(m, tflc__get_u32(fb, ot, TFLC__OP_OPCODE, 0));
    tflc__op *op;
    iv = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &ni);
    ovv = tflc__get_vec(fb, ot, TFLC__OP_OUTPUTS, 4, &nout);
    if (code == TFLC_OP_TFLM_DECODE) {
      /* outputs read only tile by tile: the record points at the pair of
       * (encoded, ancillary) indices in the model; no operator is kept */
      int keep = 0;
      for (j = 0; j < nout; j++) {
        int32_t o = tflc__i32(fb.b + ovv + 4 * j);
        if (map[o] & 4) {
          keep = 1;
        } else if (map[o] & 1) {
          tflc_tensor *t = &it->tensors[map[o] >> 3];
          t->data = (void *)(uintptr_t)(fb.b + iv + 8 * j);
          t->flags |=
              TFLC_TENSOR_LUT | TFLC_TENSOR_VIRTUAL | TFLC_TENSOR_DECODED;
          if (!it->cursors && tflc__decode_stream_pair(
                                  m, sgt, tflc__i32(fb.b + iv + 8 * j + 4))) {
            /* decoded in place in stream order: the running operator's
             * inputs keep their positions here */
            it->cursors = (tflc_const_cursor *)tflc__persist(
                it, sizeof(tflc_const_cursor) * TFLC__CURSORS);
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
    op->code = code;
    op->user =
        code == TFLC_OP_TFLM_DECODE ? 0 : tflc__user_op_for(it, code, ot);
    op->opts =
        code == TFLC_OP_TFLM_DECODE ? ot : tflc__get_ref(fb, ot, TFLC__OP_OPTS);
    if (ni > 0xFFFF || nout > 0xFFFF)
      return tflc__err(it->error, TFLC_ERR_UNSUPPORTED,
                       "op %u: too many inputs", i);
    op->nin = (uint16_t)ni;
    op->nout = (uint16_t)nout;
    op->in = (int16_t *)tflc__persist(it, 2u * (ni + nout));
    if (!op->in && ni + nout)
      return tflc__err(it->error, TFLC_ERR_ARENA, "arena too small");
    for (j = 0; j < ni; j++) {
      int32_t ti = tflc__i32(fb.b + iv + 4 * j);
      op->in[j] = (int16_t)(ti < 0 ? -1 : map[ti] >> 3);
    }
    for (j = 0; j < nout; j++) {
      TFLC__OUT(op)
      [j] = (int16_t)(map[tflc__i32(fb.b + ovv + 4 * j)] >> 3);
      if (it->tensors[TFLC__OUT(op)[j]].flags & TFLC_TENSOR_CONST)
        return tflc__err(it->error, TFLC_ERR_SCHEMA,
                         "op %u %s: output tensor %d is constant", i,
                         tflc_opcode_name(op->code),
                         it->tensors[TFLC__OUT(op)[j]].index);
      if (code == TFLC_OP_TFLM_DECODE)
        it->tensors[TFLC__OUT(op)[j]].flags |= TFLC_TENSOR_DECODED;
    }
  }
  /* compressed constants: each descriptor built and checked once; LUT
   * ones kept in the persistent arena (the record's data points at it),
   * Huffman and Prune ones rebuilt when used (tflc__desc_of: the record
   * keeps pointing at the pair in the model) */
  for (k = 0; k < it->num_tensors; k++) {
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
    d = tflc__persist(it, TFLC__LUT_DESC_BYTES);
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
  /* INT4 tensors: only constant, and only as the filter of CONV_2D,
   * DEPTHWISE_CONV_2D or FULLY_CONNECTED (the kernels TFLM runs them in);
   * user operators see them as they are */
  for (i = 0; i < nops; i++) {
    const tflc__op *op = &it->ops[i];
    const int filter_op = op->code == TFLC_OP_CONV_2D ||
                          op->code == TFLC_OP_DEPTHWISE_CONV_2D ||
                          op->code == TFLC_OP_FULLY_CONNECTED;
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
    for (k = 0; k < op->nin; k++)
      nwhole += tflc__whole_input(&c, k);
    if (nwhole > TFLC__MAX_SCRATCH)
      return tflc__op_err(&c, TFLC_ERR_UNSUPPORTED,
                          "more than %d compressed inputs", TFLC__MAX_SCRATCH,
                          0);
    if (nwhole > 0) {
      op->whole = (tflc__whole *)tflc__persist(it, sizeof(tflc__whole) *
                                                       (uint32_t)nwhole);
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
    if (op->code == TFLC_OP_TFLM_DECODE) {
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
    st = tflc__prepare_op(&c);
    if (st && it->opt.report) {
      it->opt.report(it->opt.report_user, sg, op->index, st, it->error);
      if (!it->first_error)
        it->first_error = st;
      continue;
    }
    if (st)
      return st;
  }
  if (it->first_error)
    return it->first_error;
  if (it->map_bytes < (size_t)nt * 4)
    it->map_bytes = (size_t)nt * 4; /* the map needed that much at init */
  return tflc__plan(it);
}

static void tflc__view_save(const tflc_interpreter *it, tflc__graph *g) {
  g->tensors = it->tensors;
  g->ops = it->ops;
  g->num_tensors = it->num_tensors;
  g->num_ops = it->num_ops;
  g->num_inputs = it->num_inputs;
  g->num_outputs = it->num_outputs;
  memcpy(g->inputs, it->inputs, sizeof g->inputs);
  memcpy(g->outputs, it->outputs, sizeof g->outputs);
  g->sgt = it->sgt;
}
static void tflc__view_load(tflc_interpreter *it, const tflc__graph *g) {
  it->tensors = g->tensors;
  it->ops = g->ops;
  it->num_tensors = g->num_tensors;
  it->num_ops = g->num_ops;
  it->num_inputs = g->num_inputs;
  it->num_outputs = g->num_outputs;
  memcpy(it->inputs, g->inputs, sizeof g->inputs);
  memcpy(it->outputs, g->outputs, sizeof g->outputs);
  it->sgt = g->sgt;
}

/* Every subgraph, last to first, so that subgraph 0's view is the one left
 * in place; subgraphs share nothing but variables and the arena. */
static tflc_status tflc__init_graphs(tflc_interpreter *it) {
  const tflc_model *m = it->model;
  int32_t n = m->num_subgraphs, sg;
  tflc_status st;
  if (n > 1) {
    it->graphs =
        (tflc__graph *)tflc__persist(it, sizeof(tflc__graph) * (uint32_t)n);
    if (!it->graphs)
      return tflc__err(it->error, TFLC_ERR_ARENA, "arena too small");
  }
  st = tflc__vars_init(it);
  if (st)
    return st;
  /* prepare in TFLM's order (0 first) but keep 0's view at the end */
  for (sg = 0; sg < n; sg++) {
    memset(it->inputs, 0, sizeof it->inputs);
    memset(it->outputs, 0, sizeof it->outputs);
    it->num_inputs = it->num_outputs = 0;
    st = tflc__init_graph(it, sg);
    if (st)
      return st;
    if (it->graphs)
      tflc__view_save(it, &it->graphs[sg]);
  }
  if (it->graphs)
    tflc__view_load(it, &it->graphs[0]);
  if (it->head < it->map_bytes)
    it->head = (it->map_bytes + TFLC__ALIGN - 1) & ~(size_t)(TFLC__ALIGN - 1);
  memset(it->arena, 0, it->head);
  it->ready = 1;
  return TFLC_OK;
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
    /* compressed inputs of ops without tiles: decode whole, and show the
     * kernel a plain tensor for the duration of the op */
    for (k = 0; k < op->nwhole; k++) {
      tflc_tensor *t = &it->tensors[op->in[op->whole[k].slot]];
      tflc_const lut;
      tflc__desc_of(it, c.sgt, t, &lut);
      tflc_lut_decode(&lut, 0, lut.count, op->whole[k].ptr);
      saved[k] = t->data;
      t->data = op->whole[k].ptr;
      t->flags &= (uint8_t)~TFLC_TENSOR_LUT;
    }
    st = tflc__run_op(&c);
    for (k = op->nwhole - 1; k >= 0; k--) {
      tflc_tensor *t = &it->tensors[op->in[op->whole[k].slot]];
      t->data = saved[k];
      t->flags |= TFLC_TENSOR_LUT;
    }
    if (it->opt.profile)
      it->opt.profile(it->opt.profile_user, op->index, op->code, 0);
    if (st)
      return st;
  }
  return TFLC_OK;
}

TFLC_API tflc_status tflc_invoke(tflc_interpreter *it) {
  if (!it || !it->ready)
    return TFLC_ERR_STATE;
  return tflc__run_graph(it);
}

/* ======================================================================== */
/* Operators: convolution family. CONV_2D, DEPTHWISE_CONV_2D and            */
/* FULLY_CONNECTED (int8 and float32; int16x8 further down), TRANSPOSE_CONV, */
/* SVDF, UNIDIRECTIONAL_SEQUENCE_LSTM. Rows: TFLC_OPERATORS.                */
/* ======================================================================== */
/* ---- state and helpers shared by operators ------------------------------ */
typedef struct tflc__conv_state {
  tflc_conv_params p;
  int32_t tile; /* scratch index or -1 */
} tflc__conv_state;
typedef struct tflc__fc_state {
  tflc_fc_params p;
  int32_t batches, accum, depth;
  float fmin, fmax;
  int32_t tile;
} tflc__fc_state;
typedef struct tflc__pool_state {
  tflc_pool_params p;
} tflc__pool_state;
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
 * FULLY_CONNECTED (0: none): for a filter read compressed (LUT, INT4, or
 * Huffman / Prune in stream order) one filter row (a channel's taps for
 * depthwise), the most the kernels decode at once, at most
 * TFLC_TILE_BYTES; none up to 64 bytes (the kernels' own stack tile) and
 * none for a raw filter or one decoded whole (biases are read element by
 * element). */
static size_t tflc__filter_tile(const tflc__ctx *c, const tflc_tensor *f,
                                const tflc_tensor *b) {
  const size_t es = f->type == TFLC_INT4 ? 1 : tflc_type_size(f->type);
  int64_t row;
  (void)b;
  if (!(f->type == TFLC_INT4 ||
        ((f->flags & TFLC_TENSOR_LUT) && !tflc__decoded_whole(c, 1))))
    return 0;
  if (c->op->code == TFLC_OP_FULLY_CONNECTED)
    row = f->rank == 2 ? f->dims[1] : 0;
  else if (c->op->code == TFLC_OP_DEPTHWISE_CONV_2D)
    row = f->rank == 4 ? (int64_t)f->dims[1] * f->dims[2] : 0;
  else
    row = f->rank == 4 ? (int64_t)f->dims[1] * f->dims[2] * f->dims[3] : 0;
  row *= (int64_t)es;
  if (row <= 64)
    return 0;
  return row < TFLC_TILE_BYTES ? (size_t)(row + 15) & ~(size_t)15
                               : TFLC_TILE_BYTES;
}

/* ---- CONV_2D / DEPTHWISE_CONV_2D ---------------------------------------- */
/* CONV_2D / DEPTHWISE_CONV_2D geometry, the same for every type: the
 * options (padding, strides, dilation, fused activation, depth
 * multiplier), the shapes against the filter and the model's output, the
 * padding. Fills p's geometry; returns the fused activation and the
 * number of output channels. */
static tflc_status tflc__conv_geometry(tflc__ctx *c, int depthwise,
                                       tflc_conv_params *p, int32_t *act_out,
                                       int32_t *cout_out) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *o = tflc__out(c, 0);
  uint32_t opts = c->op->opts;
  int32_t sh, sw, dh, dw, act, same, oh, ow, cout, kh, kw;
  if (in->rank != 4 || f->rank != 4 || o->rank != 4)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "tensors must be 4-D", 0, 0);
  if (tflc__get_u8(fb, opts, 0, 0) > 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "unknown padding %d",
                        (int32_t)tflc__get_u8(fb, opts, 0, 0), 0);
  same = tflc__get_u8(fb, opts, 0, 0) == 0;
  sw = tflc__get_i32(fb, opts, 1, 0);
  sh = tflc__get_i32(fb, opts, 2, 0);
  act = (int32_t)tflc__get_u8(fb, opts, depthwise ? 4 : 3, 0);
  dw = tflc__get_i32(fb, opts, depthwise ? 5 : 4, 1);
  dh = tflc__get_i32(fb, opts, depthwise ? 6 : 5, 1);
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
    int32_t m = tflc__get_i32(fb, opts, 3, 0);
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

/* Per-channel (or broadcast per-tensor) output multipliers and int8
 * shifts of CONV_2D / DEPTHWISE_CONV_2D / TRANSPOSE_CONV, into p. */
static tflc_status tflc__conv_mult(tflc__ctx *c, const tflc_tensor *in,
                                   const tflc_tensor *f, const tflc_tensor *o,
                                   int32_t cout, tflc_conv_params *p) {
  uint32_t ftt = tflc__tensor_table(c->m, c->sgt, f->index), nsc, i;
  int32_t *mult;
  int8_t *shift;
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
  mult = (int32_t *)tflc__persist(c->it, 5u * (uint32_t)cout);
  if (!mult)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for multipliers", 0, 0);
  shift = (int8_t *)(mult + cout);
  for (i = 0; i < (uint32_t)cout; i++) {
    float fs = tflc__tensor_scale(c->m, ftt, nsc == 1 ? 0 : i);
    int32_t sh32;
    if (!(fs > 0.0f))
      return tflc__op_err(c, TFLC_ERR_QUANT, "filter scale %d is not positive",
                          (int32_t)i, 0);
    tflc_conv_quantize_multipliers(in->scale, &fs, 1, o->scale, 1, mult + i,
                                   &sh32);
    if (sh32 < -31 || sh32 > 30)
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "channel %d: multiplier exponent %d out of range",
                          (int32_t)i, sh32);
    shift[i] = (int8_t)sh32;
  }
  p->out_multiplier = mult;
  p->out_shift = shift;
  return TFLC_OK;
}

static tflc_status tflc__conv_s8_prepare(tflc__ctx *c, int depthwise) {
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__conv_state *s;
  int32_t act = 0, cout = 0;
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
  s = (tflc__conv_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  st = tflc__conv_geometry(c, depthwise, &s->p, &act, &cout);
  if (!st && (in->scale <= 0.0f || o->scale <= 0.0f))
    st = tflc__op_err(c, TFLC_ERR_QUANT, "input/output not quantized", 0, 0);
  if (!st)
    st = tflc__conv_mult(c, in, f, o, cout, &s->p);
  if (st)
    return st;
  s->p.input_offset = -in->zero_point;
  s->p.output_offset = o->zero_point;
  tflc_activation_range_quantized(act, o->scale, o->zero_point, -128, 127,
                                  &s->p.act_min, &s->p.act_max);
  s->tile = -1;
  if (tflc__filter_tile(c, f, b) > 0)
    s->tile = tflc__scratch(c, tflc__filter_tile(c, f, b));
  return TFLC_OK;
}
static tflc_status tflc__conv_s8_invoke(tflc__ctx *c, int depthwise) {
  tflc__conv_state *s = (tflc__conv_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  void *tile = s->tile >= 0 ? (void *)c->op->scratch[s->tile] : NULL;
  size_t tb = s->tile >= 0 ? tflc__filter_tile(c, f, b) : 0;
  tflc_const fc = tflc__const(c, f), bc;
  if (b)
    bc = tflc__const(c, b);
  if (depthwise)
    tflc_depthwise_conv2d_s8(&s->p, in->dims, (const int8_t *)in->data, f->dims,
                             &fc, b ? &bc : NULL, o->dims, (int8_t *)o->data,
                             tile, tb);
  else
    tflc_conv2d_s8(&s->p, in->dims, (const int8_t *)in->data, f->dims, &fc,
                   b ? &bc : NULL, o->dims, (int8_t *)o->data, tile, tb);
  return TFLC_OK;
}

/* ---- FULLY_CONNECTED ---------------------------------------------------- */
static tflc_status tflc__fc_s8_f32_prepare(tflc__ctx *c) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__fc_state *s;
  int32_t act, nin, i;
  uint32_t nsc, ftt = tflc__tensor_table(c->m, c->sgt, f ? f->index : -1);
  if (!in || !f || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "missing input or output", 0, 0);
  if (!tflc__is_const(f) || (b && !tflc__is_const(b)))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "weights must be constant", 0,
                        0);
  if (tflc__get_u8(fb, c->op->opts, 1, 0) != 0)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "shuffled weights format", 0,
                        0);
  act = (int32_t)tflc__get_u8(fb, c->op->opts, 0, 0);
  if (f->rank != 2 || f->dims[1] < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "weights must be 2-D", 0, 0);
  s = (tflc__fc_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  s->accum = f->dims[1];
  s->depth = f->dims[0];
  nin = tflc__count(in);
  if (nin % s->accum != 0)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "input of %d elements is not a multiple of %d", nin,
                        s->accum);
  s->batches = nin / s->accum;
  if ((int64_t)tflc__count(o) != (int64_t)s->batches * s->depth)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "output has %d elements for %d batches", tflc__count(o),
                        s->batches);
  if (b && tflc__count(b) != s->depth)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "bias has %d elements, expected %d",
                        tflc__count(b), s->depth);
  s->tile = -1;
  if (tflc__filter_tile(c, f, b) > 0)
    s->tile = tflc__scratch(c, tflc__filter_tile(c, f, b));
  if (in->type == TFLC_FLOAT32 && f->type == TFLC_FLOAT32 &&
      o->type == TFLC_FLOAT32 && (!b || b->type == TFLC_FLOAT32)) {
    tflc_activation_range_f32(act, &s->fmin, &s->fmax);
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
  s->p.input_offset = -in->zero_point;
  s->p.output_offset = o->zero_point;
  tflc_activation_range_quantized(act, o->scale, o->zero_point, -128, 127,
                                  &s->p.act_min, &s->p.act_max);
  {
    /* one (multiplier, shift) per output channel, or one for the tensor */
    int32_t n = nsc > 1 ? s->depth : 1, sh32, *mult;
    int8_t *shift;
    if (nsc > 1 && nsc != (uint32_t)s->depth)
      return tflc__op_err(c, TFLC_ERR_QUANT, "%d filter scales for %d outputs",
                          (int32_t)nsc, s->depth);
    mult = (int32_t *)tflc__persist(c->it, 5u * (uint32_t)n);
    if (!mult)
      return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for multipliers", 0, 0);
    shift = (int8_t *)(mult + n);
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
        s->p.filter_offset = -f->zero_point;
      }
      if (sh32 < -31 || sh32 > 30)
        return tflc__op_err(c, TFLC_ERR_QUANT,
                            "multiplier exponent %d out of range", sh32, 0);
      shift[i] = (int8_t)sh32;
    }
    s->p.per_channel = nsc > 1;
    s->p.out_multiplier = mult;
    s->p.out_shift = shift;
  }
  return TFLC_OK;
}
static tflc_status tflc__fc_s8_f32_invoke(tflc__ctx *c) {
  tflc__fc_state *s = (tflc__fc_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  void *tile = s->tile >= 0 ? (void *)c->op->scratch[s->tile] : NULL;
  size_t tb = s->tile >= 0 ? tflc__filter_tile(c, f, b) : 0;
  tflc_const fc = tflc__const(c, f), bc;
  if (b)
    bc = tflc__const(c, b);
  if (in->type == TFLC_FLOAT32)
    tflc_fully_connected_f32(s->fmin, s->fmax, s->batches, s->accum, s->depth,
                             (const float *)in->data, &fc, b ? &bc : NULL,
                             (float *)o->data, tile, tb);
  else
    tflc_fully_connected_s8(&s->p, s->batches, s->accum, s->depth,
                            (const int8_t *)in->data, &fc, b ? &bc : NULL,
                            (int8_t *)o->data, tile, tb);
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

typedef struct tflc__fc_s16_state {
  int32_t kind;
  tflc_fc_params p;
  int32_t batches, accum, depth;
  int32_t tile;
  int32_t acc64;
} tflc__fc_s16_state;

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
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__conv_wide_state *s;
  uint32_t opts = c->op->opts;
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
  s = (tflc__conv_wide_state *)tflc__persist(c->it, sizeof *s);
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
      s->acc64 = b ? b->type == TFLC_INT64 : tflc__get_u8(fb, opts, 6, 0) != 2;
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
  return TFLC_OK;
}

/* ---- FULLY_CONNECTED (int16x8) ------------------------------------------ */
static tflc_status tflc__fc_s16_prepare(tflc__ctx *c) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__fc_s16_state *s;
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
  if (tflc__get_u8(fb, c->op->opts, 1, 0) != 0)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "shuffled weights format", 0,
                        0);
  act = (int32_t)tflc__get_u8(fb, c->op->opts, 0, 0);
  if (f->rank != 2 || f->dims[1] < 1 || f->dims[0] < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "weights must be 2-D", 0, 0);
  s = (tflc__fc_s16_state *)tflc__persist(c->it, sizeof *s);
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
  s->acc64 =
      b ? b->type == TFLC_INT64 : tflc__get_u8(fb, c->op->opts, 4, 0) != 2;
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
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *f = tflc__in(c, 1), *in = tflc__in(c, 2), *b = tflc__in(c, 3);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__conv_wide_state *s;
  uint32_t opts = c->op->opts;
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
  if (tflc__get_u8(fb, opts, 0, 0) > 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "unknown padding %d",
                        (int32_t)tflc__get_u8(fb, opts, 0, 0), 0);
  same = tflc__get_u8(fb, opts, 0, 0) == 0;
  sw = tflc__get_i32(fb, opts, 1, 0);
  sh = tflc__get_i32(fb, opts, 2, 0);
  act = (int32_t)tflc__get_u8(fb, opts, 3, 0);
  if (sw < 1 || sh < 1 || sw > 65535 || sh > 65535)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "bad stride %d/%d", sw, sh);
  if (b && tflc__count(b) != cout)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "bias has %d elements, expected %d",
                        tflc__count(b), cout);
  s = (tflc__conv_wide_state *)tflc__persist(c->it, sizeof *s);
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
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *wf = tflc__in(c, 1), *wt = tflc__in(c, 2);
  tflc_tensor *b = tflc__in(c, 3), *st = tflc__in(c, 4), *o = tflc__out(c, 0);
  tflc__svdf_state *s;
  int32_t rank, B, I, F, U, M;
  if (c->op->nin != 5 || c->op->nout != 1 || !in || !wf || !wt || !st || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "needs 5 inputs (bias optional), 1 output", 0, 0);
  rank = tflc__get_i32(fb, c->op->opts, 0, 0);
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
  s->act = (int16_t)tflc__get_u8(fb, c->op->opts, 1, 0);
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

static tflc_status tflc__lstm_prepare(tflc__ctx *c) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *t[24], *in, *h, *cs, *o = tflc__out(c, 0);
  tflc__lstm_state *s;
  tflc_lstm_params *p;
  int32_t k, act, B, T, I, S, rows, flt;
  float clip;
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
  act = (int32_t)tflc__get_u8(fb, c->op->opts, 0, 0);
  clip = tflc__get_f32(fb, c->op->opts, 1, 0.0f);
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
  p->time_major = tflc__get_u8(fb, c->op->opts, 3, 0) != 0;
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
      return tflc__op_err(c, TFLC_ERR_QUANT, "state tensors not quantized", 0,
                          0);
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
    tflc__quantize_ratio(0.000030517578125f, 0.000030517578125f, sc,
                         &p->ig_mult, &p->ig_shift);
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
      return tflc__op_err(c, TFLC_ERR_QUANT, "cell scale 2^%d too large", l2,
                          0);
    }
    {
      double q = (double)clip / (double)sc;
      q = q < -32768.0 ? -32768.0 : q;
      q = q > 32767.0 ? 32767.0 : q;
      p->clip_q = (int32_t)q;
    }
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
  switch (s->kind) {
  case TFLC__KIND_CONV_S16:
    tflc_conv2d_s16(&s->p, in->dims, (const int16_t *)in->data, f->dims, &fc,
                    bp, s->acc64, o->dims, (int16_t *)o->data, tile, tb);
    break;
  case TFLC__KIND_CONV_F32:
    tflc_conv2d_f32(&s->p, s->fmin, s->fmax, in->dims, (const float *)in->data,
                    f->dims, &fc, bp, o->dims, (float *)o->data, tile, tb);
    break;
  case TFLC__KIND_DW_S16:
    tflc_depthwise_conv2d_s16(&s->p, in->dims, (const int16_t *)in->data,
                              f->dims, &fc, bp, o->dims, (int16_t *)o->data,
                              tile, tb);
    break;
  case TFLC__KIND_DW_F32:
    tflc_depthwise_conv2d_f32(&s->p, s->fmin, s->fmax, in->dims,
                              (const float *)in->data, f->dims, &fc, bp,
                              o->dims, (float *)o->data, tile, tb);
    break;
  case TFLC__KIND_TC_S8:
    tflc_transpose_conv_s8(&s->p, in->dims, (const int8_t *)in->data, f->dims,
                           &fc, bp, o->dims, (int8_t *)o->data, (int32_t *)acc,
                           tile, tb);
    break;
  case TFLC__KIND_TC_S16:
    tflc_transpose_conv_s16(&s->p, in->dims, (const int16_t *)in->data, f->dims,
                            &fc, bp, o->dims, (int16_t *)o->data,
                            (int64_t *)acc, tile, tb);
    break;
  case TFLC__KIND_TC_F32:
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

/* ======================================================================== */
/* Operators: pooling, SOFTMAX, element-wise arithmetic, activations,       */
/* comparisons and reductions (ADD, MEAN, MUL, SUB, LOGISTIC, TANH,         */
/* L2_NORMALIZATION, LOG_SOFTMAX, LEAKY_RELU, HARD_SWISH, PRELU, RELU,      */
/* RELU6, MAXIMUM, MINIMUM, comparisons, SUM, ARG_MAX, ARG_MIN).            */
/* ======================================================================== */
/* ---- pooling ------------------------------------------------------------ */
static tflc_status tflc__pool_prepare(tflc__ctx *c) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__pool_state *s;
  uint32_t opts = c->op->opts;
  int32_t same, oh, ow, act;
  double ds;
  if (!in || !o || in->type != TFLC_INT8 || o->type != TFLC_INT8 ||
      in->rank != 4 || o->rank != 4)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "needs 4-D int8 tensors", 0,
                        0);
  ds = (double)in->scale - (double)o->scale;
  if (ds > 1e-6 || ds < -1e-6 || in->zero_point != o->zero_point)
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "input and output quantization differ", 0, 0);
  s = (tflc__pool_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  same = tflc__get_u8(fb, opts, 0, 0) == 0;
  s->p.stride_w = tflc__get_i32(fb, opts, 1, 0);
  s->p.stride_h = tflc__get_i32(fb, opts, 2, 0);
  s->p.filter_w = tflc__get_i32(fb, opts, 3, 0);
  s->p.filter_h = tflc__get_i32(fb, opts, 4, 0);
  act = (int32_t)tflc__get_u8(fb, opts, 5, 0);
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
  const int avg = c->op->code == TFLC_OP_AVERAGE_POOL_2D;
  tflc__pool_state *s = (tflc__pool_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  if (avg) {
    if (tflc_avg_pool_s8(&s->p, in->dims, (const int8_t *)in->data, o->dims,
                         (int8_t *)o->data) != TFLC_OK)
      return tflc__op_err(c, TFLC_ERR_KERNEL, "window without input", 0, 0);
  } else {
    tflc_max_pool_s8(&s->p, in->dims, (const int8_t *)in->data, o->dims,
                     (int8_t *)o->data);
  }
  return TFLC_OK;
}

/* ---- SOFTMAX ------------------------------------------------------------ */
static tflc_status tflc__softmax_prepare(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__softmax_state *s;
  if (!in || !o || !tflc__same_shape(in, o) || in->rank < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input and output shapes differ", 0,
                        0);
  s = (tflc__softmax_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  s->beta = tflc__get_f32(tflc__cfb(c), c->op->opts, 0, 0.0f);
  s->depth = in->dims[in->rank - 1];
  s->rows = s->depth ? tflc__count(in) / s->depth : 0;
  if (in->type == TFLC_FLOAT32 && o->type == TFLC_FLOAT32)
    return TFLC_OK;
  if (in->type == TFLC_INT8 && o->type == TFLC_INT16) {
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
  if (!(in->scale > 0.0f) || !((double)s->beta * in->scale * 67108864.0 > 1.0))
    return tflc__op_err(c, TFLC_ERR_QUANT, "input scale * beta too small", 0,
                        0);
  tflc_softmax_prepare_s8(s->beta, in->scale, &s->p);
  return TFLC_OK;
}
static tflc_status tflc__softmax_invoke(tflc__ctx *c) {
  tflc__softmax_state *s = (tflc__softmax_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  if (in->type == TFLC_FLOAT32)
    tflc_softmax_f32(s->beta, s->rows, s->depth, (const float *)in->data,
                     (float *)o->data);
  else if (o->type == TFLC_INT16)
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
  int32_t act = (int32_t)tflc__get_u8(tflc__cfb(c), c->op->opts, 0, 0);
  if (!a || !b || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs two inputs", 0, 0);
  s = (tflc__add_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  if (!tflc__broadcast(a, b, o, s->d1, s->d2, s->d0, &s->rank))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "shapes do not broadcast", 0, 0);
  if (a->type == TFLC_FLOAT32 && b->type == TFLC_FLOAT32 &&
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
  if (o->type == TFLC_FLOAT32)
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

static void *tflc__new_state(tflc__ctx *c, size_t bytes) {
  void *s = tflc__persist(c->it, bytes);
  c->op->state = s;
  return s;
}
#define TFLC__NEW_STATE(c, T) ((T *)tflc__new_state((c), sizeof(T)))

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
  int32_t act = (int32_t)tflc__get_u8(tflc__cfb(c), c->op->opts, 0, 0);
  int w;
  tflc_status st = tflc__check_binary(c);
  if (st != TFLC_OK)
    return st;
  if (a->type == TFLC_FLOAT32 && o->type == TFLC_FLOAT32)
    return tflc__binary_f32_prepare(c, act);
  w = tflc__int_width(o);
  if (!w || a->type != o->type)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d * %d -> %d", a->type,
                        o->type);
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
  int32_t act = (int32_t)tflc__get_u8(tflc__cfb(c), c->op->opts, 0, 0);
  int w, ok;
  tflc_status st = tflc__check_binary(c);
  if (st != TFLC_OK)
    return st;
  if (a->type == TFLC_FLOAT32 && o->type == TFLC_FLOAT32 &&
      c->op->code == TFLC_OP_SUB)
    return tflc__binary_f32_prepare(c, act);
  w = tflc__int_width(o);
  if (!w || a->type != o->type)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d, %d -> %d", a->type,
                        o->type);
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
  int32_t act = (int32_t)tflc__get_u8(tflc__cfb(c), c->op->opts, 0, 0);
  tflc_status st = tflc__check_unary(c);
  if (st != TFLC_OK)
    return st;
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
  const float alpha = tflc__get_f32(tflc__cfb(c), c->op->opts, 0, 0.0f);
  tflc_status st = tflc__check_unary(c);
  if (st != TFLC_OK)
    return st;
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
  if (o->type == TFLC_FLOAT32 && in->type == TFLC_FLOAT32) {
    const tflc__f32_pair_state *f = (const tflc__f32_pair_state *)s;
    const float *x = (const float *)in->data;
    float *y = (float *)o->data;
    switch (c->op->code) {
    case TFLC_OP_MUL:
    case TFLC_OP_SUB:
      tflc_mul_sub_f32(c->op->code == TFLC_OP_SUB, f->a, f->b, rank, d1, x, d2,
                       (const float *)in2->data, d0, y);
      return TFLC_OK;
    case TFLC_OP_PRELU:
      tflc_prelu_f32(rank, d1, x, d2, (const float *)in2->data, d0, y);
      return TFLC_OK;
    case TFLC_OP_RELU:
      tflc_unary_f32(TFLC_F32_RELU, 0.0f, n, x, y);
      return TFLC_OK;
    case TFLC_OP_RELU6:
      tflc_unary_f32(TFLC_F32_RELU6, 0.0f, n, x, y);
      return TFLC_OK;
    case TFLC_OP_LEAKY_RELU:
      tflc_unary_f32(TFLC_F32_LEAKY_RELU, f->a, n, x, y);
      return TFLC_OK;
    case TFLC_OP_LOGISTIC:
      tflc_unary_f32(TFLC_F32_LOGISTIC, 0.0f, n, x, y);
      return TFLC_OK;
    case TFLC_OP_TANH:
      tflc_unary_f32(TFLC_F32_TANH, 0.0f, n, x, y);
      return TFLC_OK;
    case TFLC_OP_HARD_SWISH:
      tflc_unary_f32(TFLC_F32_HARD_SWISH, 0.0f, n, x, y);
      return TFLC_OK;
    case TFLC_OP_L2_NORMALIZATION:
    case TFLC_OP_LOG_SOFTMAX: {
      const int32_t depth = in->dims[in->rank - 1];
      if (c->op->code == TFLC_OP_L2_NORMALIZATION)
        tflc_l2_normalization_f32(depth ? n / depth : 0, depth, x, y);
      else
        tflc_log_softmax_f32(depth ? n / depth : 0, depth, x, y);
      return TFLC_OK;
    }
    }
  }
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
  tflc__fb fb = tflc__cfb(c);
  uint32_t opts = c->op->opts;
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
    int32_t vc = tflc__get_i32(fb, opts, 0, 0);
    if (vc != n)
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "values_count %d but %d inputs",
                          vc, n);
    axis = tflc__get_i32(fb, opts, 1, 0);
    if (o->rank != i0->rank + 1)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "output rank %d, input rank %d",
                          o->rank, i0->rank);
  } else {
    int32_t act = (int32_t)tflc__get_u8(fb, opts, 1, 0);
    if (act != 0)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "fused activation %d (TFLM requires NONE)", act, 0);
    axis = tflc__get_i32(fb, opts, 0, 0);
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
  tflc__fb fb = tflc__cfb(c);
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
    int32_t num = tflc__get_i32(fb, c->op->opts, 0, 0);
    axis = tflc__get_i32(fb, c->op->opts, 1, 0);
    if (num != n)
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "num %d but %d outputs", num, n);
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
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *co = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__small_state *s;
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
  axis = tflc__get_i32(fb, c->op->opts, 0, 0);
  bd = tflc__get_i32(fb, c->op->opts, 1, 0);
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
  tflc__fb fb = tflc__cfb(c);
  const uint32_t opts = c->op->opts;
  const tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  int32_t b[TFLC_MAX_DIMS], e[TFLC_MAX_DIMS], sd[TFLC_MAX_DIMS];
  int32_t nb = 0, ne = 0, ns = 0, k, r = 0;
  const int32_t bmask = tflc__get_i32(fb, opts, 0, 0);
  const int32_t emask = tflc__get_i32(fb, opts, 1, 0);
  const int32_t smask = tflc__get_i32(fb, opts, 4, 0);
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
  int32_t k;
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
  return tflc__strided_params(c, &p);
}
static tflc_status tflc__slice_invoke(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__slice_geometry p;
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
  int32_t b;
  tflc_status st = tflc__check_io(c, 1, 1, 1, 1);
  if (st)
    return st;
  st = tflc__check_same_type(c, in, o, TFLC__TYPE_F32 | TFLC__TYPE_I8);
  if (st)
    return st;
  b = tflc__get_i32(tflc__cfb(c), c->op->opts, 0, 0);
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
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *sz = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__small_state *s;
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
  align = (int32_t)tflc__get_u8(fb, c->op->opts, bilinear ? 2 : 0, 0) != 0;
  half = (int32_t)tflc__get_u8(fb, c->op->opts, bilinear ? 3 : 1, 0) != 0;
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
  uint32_t nd = 0, pos = tflc__get_vec(fb, c->op->opts, 0, 4, &nd), i;
  uint32_t squeeze = 0;
  int32_t k, r = 0;
  tflc_status st = tflc__check_io(c, 1, 1, 1, 1);
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
  d = (tflc_const *)tflc__persist(c->it, sizeof(tflc_const) * c->op->nout);
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
/* Room for one variable per VAR_HANDLE operator in the model. */
static tflc_status tflc__vars_init(tflc_interpreter *it) {
  const tflc_model *m = it->model;
  int32_t sg, i, n = 0;
  for (sg = 0; sg < m->num_subgraphs; sg++)
    for (i = 0; i < tflc_model_num_ops(m, sg); i++)
      n += tflc_model_op_code(m, sg, i) == TFLC_OP_VAR_HANDLE;
  if (n) {
    it->vars = (tflc__var *)tflc__persist(it, sizeof(tflc__var) * (uint32_t)n);
    if (!it->vars)
      return tflc__err(it->error, TFLC_ERR_ARENA, "arena too small");
  }
  it->num_vars = 0;
  return TFLC_OK;
}
static tflc_status tflc__var_handle_prepare(tflc__ctx *c) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *o = tflc__out(c, 0);
  uint32_t cl = 0, nl = 0;
  const char *cn = tflc__get_str(fb, c->op->opts, 0, &cl);
  const char *nm = tflc__get_str(fb, c->op->opts, 1, &nl);
  int32_t i;
  tflc__var *v = NULL;
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
  if (!x)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "no value input", 0, 0);
  return tflc__var_of(c, 0, x, &v);
}
static tflc_status tflc__read_variable_invoke(tflc__ctx *c) {
  tflc__var *v = (tflc__var *)tflc__in(c, 0)->data;
  memcpy(tflc__out(c, 0)->data, v->data, v->bytes);
  return TFLC_OK;
}
static tflc_status tflc__assign_variable_invoke(tflc__ctx *c) {
  tflc__var *v = (tflc__var *)tflc__in(c, 0)->data;
  tflc_tensor *x = tflc__in(c, 1);
  if (x->flags & TFLC_TENSOR_LUT) { /* compressed: decode straight in */
    tflc_const d = tflc__const(c, x);
    tflc_lut_decode(&d, 0, d.count, v->data);
  } else {
    memmove(v->data, x->data, v->bytes);
  }
  return TFLC_OK;
}
static tflc_status tflc__call_once_prepare(tflc__ctx *c) {
  int32_t g = tflc__get_i32(tflc__cfb(c), c->op->opts, 0, 0), i;
  const tflc_model *m = c->m;
  if (g < 1 || g >= m->num_subgraphs || !c->it->graphs)
    return tflc__op_err(c, TFLC_ERR_INDEX, "init subgraph %d out of range", g,
                        0);
  /* no nesting: the init subgraph must not call CALL_ONCE itself, so
   * invoke never recurses beyond one level */
  for (i = 0; i < tflc_model_num_ops(m, g); i++)
    if (tflc_model_op_code(m, g, i) == TFLC_OP_CALL_ONCE)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "init subgraph %d calls CALL_ONCE itself", g, 0);
  c->op->state = (void *)(uintptr_t)g; /* the index, not a pointer */
  return TFLC_OK;
}
static void tflc__view_save(const tflc_interpreter *it, tflc__graph *g);
static void tflc__view_load(tflc_interpreter *it, const tflc__graph *g);
static tflc_status tflc__run_graph(tflc_interpreter *it);
static tflc_status tflc__call_once_invoke(tflc__ctx *c) {
  tflc_interpreter *it = c->it;
  int32_t g = (int32_t)(uintptr_t)c->op->state;
  tflc__graph cur;
  tflc_status st;
  if (it->graphs[g].ran)
    return TFLC_OK;
  tflc__view_save(it, &cur);
  tflc__view_load(it, &it->graphs[g]);
  st = tflc__run_graph(it);
  tflc__view_load(it, &cur);
  if (st == TFLC_OK)
    it->graphs[g].ran = 1;
  return st;
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
  if (in && (in->type == TFLC_INT16 || in->type == TFLC_FLOAT32)) {
    c->op->variant = 1;
    return tflc__conv_wide_prepare(c, dw);
  }
  return tflc__conv_s8_prepare(c, dw);
}
static tflc_status tflc__conv_invoke(tflc__ctx *c) {
  if (c->op->variant)
    return tflc__conv_wide_invoke(c);
  return tflc__conv_s8_invoke(c, c->op->code == TFLC_OP_DEPTHWISE_CONV_2D);
}
static tflc_status tflc__fully_connected_prepare(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  if (in && in->type == TFLC_INT16) {
    c->op->variant = 1;
    return tflc__fc_s16_prepare(c);
  }
  return tflc__fc_s8_f32_prepare(c);
}
static tflc_status tflc__fully_connected_invoke(tflc__ctx *c) {
  return c->op->variant ? tflc__fc_s16_invoke(c) : tflc__fc_s8_f32_invoke(c);
}
static tflc_status tflc__add_prepare(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  if (in && in->type == TFLC_INT16) {
    c->op->variant = 1;
    return tflc__addsub_q_prepare(c);
  }
  return tflc__add_s8_f32_prepare(c);
}
static tflc_status tflc__add_invoke(tflc__ctx *c) {
  return c->op->variant ? tflc__elementwise_invoke(c)
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

/* ---- selection: TFLC_OPS ------------------------------------------------- */
/* With TFLC_OPS defined as a list, e.g.
 *   #define TFLC_OPS(X) X(CONV_2D) X(DEPTHWISE_CONV_2D) X(SOFTMAX)
 * only the named operators are compiled in: the others' rows keep their
 * name, their functions become null pointers, and nothing references
 * their code, so the compiler (and --gc-sections for the kernels) drops
 * it. The list becomes 16-bit words of a bitset of codes (enum constants,
 * so that selection is a constant expression in C and C++). */
#ifdef TFLC_OPS
#define TFLC__SELBIT(name, w)                                                  \
  | (((int)TFLC_OP_##name >> 4) == (w) ? 1 << ((int)TFLC_OP_##name & 15) : 0)
#define TFLC__SEL0(n) TFLC__SELBIT(n, 0)
#define TFLC__SEL1(n) TFLC__SELBIT(n, 1)
#define TFLC__SEL2(n) TFLC__SELBIT(n, 2)
#define TFLC__SEL3(n) TFLC__SELBIT(n, 3)
#define TFLC__SEL4(n) TFLC__SELBIT(n, 4)
#define TFLC__SEL5(n) TFLC__SELBIT(n, 5)
#define TFLC__SEL6(n) TFLC__SELBIT(n, 6)
#define TFLC__SEL7(n) TFLC__SELBIT(n, 7)
#define TFLC__SEL8(n) TFLC__SELBIT(n, 8)
#define TFLC__SEL9(n) TFLC__SELBIT(n, 9)
#define TFLC__SEL10(n) TFLC__SELBIT(n, 10)
#define TFLC__SEL11(n) TFLC__SELBIT(n, 11)
#define TFLC__SEL12(n) TFLC__SELBIT(n, 12)
#define TFLC__SEL13(n) TFLC__SELBIT(n, 13)
#define TFLC__SEL14(n) TFLC__SELBIT(n, 14)
#define TFLC__SEL15(n) TFLC__SELBIT(n, 15)
#define TFLC__SEL16(n) TFLC__SELBIT(n, 16)
#define TFLC__SEL17(n) TFLC__SELBIT(n, 17)
enum {
  TFLC__SW0 = 0 TFLC_OPS(TFLC__SEL0),
  TFLC__SW1 = 0 TFLC_OPS(TFLC__SEL1),
  TFLC__SW2 = 0 TFLC_OPS(TFLC__SEL2),
  TFLC__SW3 = 0 TFLC_OPS(TFLC__SEL3),
  TFLC__SW4 = 0 TFLC_OPS(TFLC__SEL4),
  TFLC__SW5 = 0 TFLC_OPS(TFLC__SEL5),
  TFLC__SW6 = 0 TFLC_OPS(TFLC__SEL6),
  TFLC__SW7 = 0 TFLC_OPS(TFLC__SEL7),
  TFLC__SW8 = 0 TFLC_OPS(TFLC__SEL8),
  TFLC__SW9 = 0 TFLC_OPS(TFLC__SEL9),
  TFLC__SW10 = 0 TFLC_OPS(TFLC__SEL10),
  TFLC__SW11 = 0 TFLC_OPS(TFLC__SEL11),
  TFLC__SW12 = 0 TFLC_OPS(TFLC__SEL12),
  TFLC__SW13 = 0 TFLC_OPS(TFLC__SEL13),
  TFLC__SW14 = 0 TFLC_OPS(TFLC__SEL14),
  TFLC__SW15 = 0 TFLC_OPS(TFLC__SEL15),
  TFLC__SW16 = 0 TFLC_OPS(TFLC__SEL16),
  TFLC__SW17 = 0 TFLC_OPS(TFLC__SEL17)
};
#define TFLC__SELWORD(w)                                                       \
  ((w) == 0    ? TFLC__SW0                                                     \
   : (w) == 1  ? TFLC__SW1                                                     \
   : (w) == 2  ? TFLC__SW2                                                     \
   : (w) == 3  ? TFLC__SW3                                                     \
   : (w) == 4  ? TFLC__SW4                                                     \
   : (w) == 5  ? TFLC__SW5                                                     \
   : (w) == 6  ? TFLC__SW6                                                     \
   : (w) == 7  ? TFLC__SW7                                                     \
   : (w) == 8  ? TFLC__SW8                                                     \
   : (w) == 9  ? TFLC__SW9                                                     \
   : (w) == 10 ? TFLC__SW10                                                    \
   : (w) == 11 ? TFLC__SW11                                                    \
   : (w) == 12 ? TFLC__SW12                                                    \
   : (w) == 13 ? TFLC__SW13                                                    \
   : (w) == 14 ? TFLC__SW14                                                    \
   : (w) == 15 ? TFLC__SW15                                                    \
   : (w) == 16 ? TFLC__SW16                                                    \
   : (w) == 17 ? TFLC__SW17                                                    \
               : 0)
#define TFLC__SELECTED(code) ((TFLC__SELWORD((code) >> 4) >> ((code)&15)) & 1)
#else
#define TFLC__SELECTED(code) 1
#endif
#define TFLC__PICK(code, fn) (TFLC__SELECTED(code) ? fn : 0)

/* ---- the table ----------------------------------------------------------- */
typedef tflc_status (*tflc__op_fn)(tflc__ctx *c);
typedef struct tflc__opdef {
  const char *name;
  int16_t code;
  uint16_t inplace; /* TFLC_INPUTS mask */
  int8_t options, pad, act;
  uint8_t facts;
  tflc__op_fn prepare, invoke; /* null when left out (TFLC_OPS) */
} tflc__opdef;

#define TFLC__DEF_X(name, code, o, p, a, i, f, pr, iv)                         \
  {#name, code, i, o, p, a, f, TFLC__PICK(code, pr), TFLC__PICK(code, iv)},
#define TFLC__DEF_N(name, code, f)
static const tflc__opdef tflc__opdefs[] = {
    TFLC_OPERATORS(TFLC__DEF_X, TFLC__DEF_N)};

#define TFLC__INDEX_X(name, code, o, p, a, i, f, pr, iv) TFLC__DEF_##name,
#define TFLC__INDEX_N(name, code, f)
enum { TFLC_OPERATORS(TFLC__INDEX_X, TFLC__INDEX_N) TFLC__NUM_DEFS };

/* The row of an operator tflc runs, or NULL. */
static const tflc__opdef *tflc__opdef_find(int32_t code) {
#define TFLC__FIND_X(name, code, o, p, a, i, f, pr, iv)                        \
  case code:                                                                   \
    return &tflc__opdefs[TFLC__DEF_##name];
#define TFLC__FIND_N(name, code, f)
  switch (code) { TFLC_OPERATORS(TFLC__FIND_X, TFLC__FIND_N) }
  return NULL;
}

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
                     "op %u %s: options type %u, expected %d", i, d->name, type,
                     d->options);
  if (!opt || type == 0)
    return TFLC_OK;
  v = d->pad >= 0 ? tflc__get_u8(fb, opt, (uint32_t)d->pad, 0) : 0;
  if (v > 1)
    return tflc__err(m->error, TFLC_ERR_SCHEMA, "op %u %s: padding %u unknown",
                     i, d->name, v);
  v = d->act >= 0 ? tflc__get_u8(fb, opt, (uint32_t)d->act, 0) : 0;
  if (v > 5)
    return tflc__err(m->error, TFLC_ERR_SCHEMA,
                     "op %u %s: fused activation %u unknown", i, d->name, v);
  return TFLC_OK;
}

TFLC_API const char *tflc_opcode_name(int32_t code) {
#define TFLC__NAME_X(name, code, o, p, a, i, f, pr, iv)                        \
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
  const tflc__opdef *d = tflc__opdef_find(code);
  memset(info, 0, sizeof *info);
  info->name = tflc_opcode_name(code);
  info->code = code;
  if (d) {
    info->inplace_inputs = d->inplace;
    info->options_type = (uint8_t)d->options;
    info->facts = d->facts;
    info->status = d->prepare ? TFLC_OP_COMPILED : TFLC_OP_LEFT_OUT;
    return 1;
  }
#define TFLC__FACTS_X(name, code, o, p, a, i, f, pr, iv)
#define TFLC__FACTS_N(name, code, f)                                           \
  case code:                                                                   \
    info->facts = (uint8_t)(f);                                                \
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

static tflc_status tflc__prepare_op(tflc__ctx *c) {
  const tflc__opdef *d;
  if (c->op->user) {
    const tflc_user_op *u = &c->it->opt.user_ops[c->op->user - 1];
    return u->prepare ? u->prepare(c, u->user) : TFLC_OK;
  }
  d = tflc__opdef_find(c->op->code);
  if (d && d->prepare)
    return d->prepare(c);
  if (d)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "not compiled in (add it to TFLC_OPS)", 0, 0);
  if (c->op->code == TFLC_OP_UNKNOWN_CUSTOM)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "custom operator unknown (register it: user_ops)", 0,
                        0);
  return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                      "operator not supported (code %d)", c->op->code, 0);
}
static tflc_status tflc__run_op(tflc__ctx *c) {
  const tflc__opdef *d;
  if (c->op->user) {
    const tflc_user_op *u = &c->it->opt.user_ops[c->op->user - 1];
    return u->invoke(c, u->user);
  }
  d = tflc__opdef_find(c->op->code);
  return d && d->invoke ? d->invoke(c) : TFLC_ERR_STATE;
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
TFLC_API void tflc_op_set_state(tflc_op_context *op, void *state) {
  op->op->state = state;
}
TFLC_API void *tflc_op_state(const tflc_op_context *op) {
  return op->op->state;
}
TFLC_API tflc_status tflc_op_fail(tflc_op_context *op, tflc_status st,
                                  const char *message) {
#ifndef TFLC_NO_ERROR_STRINGS
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
  if (!d || !d->prepare)
    return tflc__op_err(op, TFLC_ERR_UNSUPPORTED, "no built-in kernel", 0, 0);
  return d->prepare(op);
}
TFLC_API tflc_status tflc_op_builtin_invoke(tflc_op_context *op) {
  const tflc__opdef *d = tflc__opdef_find(op->op->code);
  if (!d || !d->invoke)
    return TFLC_ERR_UNSUPPORTED;
  return d->invoke(op);
}

#endif /* TFLC_IMPLEMENTATION */

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
  TFLC_RESOURCE = 13
} tflc_type;

/* Size in bytes of one element, 0 for types tflc cannot hold. */
TFLC_API size_t tflc_type_size(int type);

/* ---- constants, raw or LUT-compressed ----------------------------------- */
/* A constant tensor as kernels see it. When bits == 0 `data` holds the raw
 * little-endian elements. When bits is 1..8, `data` holds `count` unsigned
 * bits-wide indices packed MSB-first in one continuous bitstring, and
 * element i is values[channel(i) * stride + index_i], where channel(i) is
 *   0                              when channels == 1,
 *   i / elems_per_channel          on the first axis (alt_axis == 0),
 *   i % channels                   on the last axis (alt_axis == 1).
 * `values` holds channels * stride elements of `type`. Descriptors built
 * by tflc.h are verified (bitstring and table long enough); hand-built
 * ones must satisfy the same. */
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
TFLC_API int32_t tflc_srdhm(int32_t a, int32_t b);
TFLC_API int32_t tflc_rdbpot(int32_t x, int32_t exponent);
/* MultiplyByQuantizedMultiplier, int32 and int64 accumulators. */
TFLC_API int32_t tflc_mbqm(int32_t x, int32_t q, int32_t shift);
TFLC_API int32_t tflc_mbqm64(int64_t x, int32_t q, int32_t shift);
/* Fused activation clamp for a quantized output (CalculateActivation-
 * RangeQuantized). act: 0 NONE, 1 RELU, 2 RELU_N1_TO_1, 3 RELU6. */
TFLC_API void tflc_activation_range_q(int act, float scale, int32_t zp,
                                      int32_t qmin, int32_t qmax, int32_t *lo,
                                      int32_t *hi);
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
 * tflc_activation_range_q. */
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

#include "dev/ops_a_api.h"
#include "dev/ops_b_api.h"
#include "dev/ops_c_api.h"

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
    return 4;
  case TFLC_FLOAT16:
  case TFLC_INT16:
    return 2;
  case TFLC_UINT8:
  case TFLC_BOOL:
  case TFLC_INT8:
    return 1;
  case TFLC_INT64:
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

TFLC_API int32_t tflc_srdhm(int32_t a, int32_t b) {
  int64_t p;
  if (a == INT32_MIN && b == INT32_MIN)
    return INT32_MAX;
  p = (int64_t)a * (int64_t)b;
  /* (p + 2^30) >> 31 floors: round to nearest, ties toward +inf; the
   * result always fits in int32 here. */
  return (int32_t)tflc__asr64(p + ((int64_t)1 << 30), 31);
}

TFLC_API int32_t tflc_rdbpot(int32_t x, int32_t exponent) {
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

TFLC_API int32_t tflc_mbqm(int32_t x, int32_t q, int32_t shift) {
  /* x * 2^left is a plain (wrapping) int32 multiply, as in TFLM */
  const int32_t left = shift > 0 ? shift : 0;
  const int32_t right = shift > 0 ? 0 : -shift;
  const int32_t xs =
      left >= 32 ? 0 : tflc__wrap32((int64_t)((uint32_t)x << left));
  return tflc_rdbpot(tflc_srdhm(xs, q), right);
}

TFLC_API int32_t tflc_mbqm64(int64_t x, int32_t q, int32_t shift) {
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

TFLC_API void tflc_activation_range_q(int act, float scale, int32_t zp,
                                      int32_t qmin, int32_t qmax, int32_t *lo,
                                      int32_t *hi) {
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
  if (c->bits == 0) {
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
  if (es == 1 && c->bits != 0 && c->bits <= 8) {
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
  if (c->bits == 0)
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
  if (c->bits == 0 && c->type == TFLC_INT32) {
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
  int32_t v = tflc__wrap32(
      (int64_t)tflc_mbqm(tflc__wrap32((int64_t)acc), q, s) + out_off);
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
#include "dev/kops_impl.h"
#include "dev/ops_a_impl.h"
#include "dev/ops_b_impl.h"
#include "dev/ops_c_impl.h"

#endif /* TFLC_KERNELS_IMPLEMENTATION */

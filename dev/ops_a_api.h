/* Extension fragment a: kernel declarations (API part of tflc_kernels.h).
 *
 * Element-wise arithmetic (MUL, SUB, int16 ADD), activations (LOGISTIC,
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
TFLC_API void tflc_addsub_q(const tflc_add_params *p, int sub, int w,
                            int32_t rank, const int32_t *dims1, const void *in1,
                            const int32_t *dims2, const void *in2,
                            const int32_t *out_dims, void *out);

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
TFLC_API void tflc_l2norm_s8(int32_t input_zp, int32_t rows, int32_t depth,
                             const int8_t *in, int8_t *out);

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
TFLC_API void tflc_maxmin(int type, int is_max, int32_t rank,
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
TFLC_API void tflc_arg_minmax(int type, int is_max, int32_t outer,
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
TFLC_API void tflc_binary_f32(int op, float act_min, float act_max,
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
TFLC_API void tflc_l2norm_f32(int32_t rows, int32_t depth, const float *in,
                              float *out);
TFLC_API void tflc_log_softmax_f32(int32_t rows, int32_t depth, const float *in,
                                   float *out);

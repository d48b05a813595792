/* Extension fragment b: kernel declarations (API part of tflc_kernels.h).
 *
 * int16 activations with int8 weights ("int16x8") and float32 for CONV_2D
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

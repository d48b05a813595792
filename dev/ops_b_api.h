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

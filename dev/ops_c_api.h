/* Extension fragment c: kernel declarations (API part of tflc_kernels.h). */

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

/* Extension fragment c: kernel implementations (tflc_kernels.h). */

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

static int32_t tflc__c_clamp(int32_t v, int32_t lo, int32_t hi) {
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
  s = stride > 0 ? tflc__c_clamp(s, 0, size) : tflc__c_clamp(s, -1, size - 1);
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
  e = stride > 0 ? tflc__c_clamp(e, 0, size) : tflc__c_clamp(e, -1, size - 1);
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
static int32_t tflc__c_nearest_src(int32_t x, int32_t in, int32_t out,
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
      const int32_t iy = tflc__c_nearest_src(y, in_dims[1], out_h,
                                             align_corners, half_pixel_centers);
      const unsigned char *srow = src + (size_t)b * img + (size_t)iy * row;
      for (x = 0; x < out_w; ++x, dst += run) {
        const int32_t ix = tflc__c_nearest_src(
            x, in_dims[2], out_w, align_corners, half_pixel_centers);
        memcpy(dst, srow + (size_t)ix * run, run);
      }
    }
  }
}

/* int64 -> int8 keeping the low 8 bits, as the C++ cast does on two's
 * complement targets. */
static int8_t tflc__c_wrap8(int64_t v) {
  const int32_t u = (int32_t)((uint64_t)v & 0xFFu);
  return (int8_t)(u >= 128 ? u - 256 : u);
}
/* Q10 position along one axis: v, and the two source indices. */
static void tflc__c_bilinear_q10(int32_t x, int32_t scale_10, int half,
                                 int32_t in, int32_t *v, int32_t *lo,
                                 int32_t *hi) {
  int32_t a, c;
  *v = half ? x * scale_10 + scale_10 / 2 - (1 << 9) : x * scale_10;
  a = *v / (1 << 10); /* truncates toward zero, as C++ */
  c = (*v + (1 << 10) - 1) / (1 << 10);
  *lo = a > 0 ? a : 0;
  *hi = c < in - 1 ? c : in - 1;
}
static int32_t tflc__c_bilinear_scale_10(int32_t in, int32_t out, int align) {
  if (align && out > 1)
    return ((1 << 10) * (in - 1) + (out - 1) / 2) / (out - 1);
  return ((1 << 10) * in + out / 2) / out;
}

TFLC_API void tflc_resize_bilinear_s8(const int32_t *in_dims, int32_t out_h,
                                      int32_t out_w, int align_corners,
                                      int half_pixel_centers, const int8_t *in,
                                      int8_t *out) {
  const int32_t ih = in_dims[1], iw = in_dims[2], depth = in_dims[3];
  const int32_t hs = tflc__c_bilinear_scale_10(ih, out_h, align_corners);
  const int32_t ws = tflc__c_bilinear_scale_10(iw, out_w, align_corners);
  const size_t row = (size_t)iw * (size_t)depth, img = (size_t)ih * row;
  int32_t b, y, x, c;
  for (b = 0; b < in_dims[0]; ++b) {
    const int8_t *base = in + (size_t)b * img;
    for (y = 0; y < out_h; ++y) {
      int32_t vy, y0, y1, wy1, wy0;
      tflc__c_bilinear_q10(y, hs, half_pixel_centers, ih, &vy, &y0, &y1);
      wy1 = vy - (1 << 10) * y0;
      wy0 = (1 << 10) - wy1;
      for (x = 0; x < out_w; ++x) {
        int32_t vx, x0, x1, wx1, wx0;
        const int8_t *p00, *p10, *p01, *p11;
        tflc__c_bilinear_q10(x, ws, half_pixel_centers, iw, &vx, &x0, &x1);
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
          *out++ = tflc__c_wrap8(q);
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

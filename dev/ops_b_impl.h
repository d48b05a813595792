/* Extension fragment b: kernel implementations (tflc_kernels.h).
 *
 * Included after the convolution family of tflc_kernels.h, whose helpers it
 * reuses (tflc__geom, tflc__pixel_window, tflc__small_tile, tflc__ldf,
 * tflc__wrap32, tflc_lut_decode, tflc_lut_gather, tflc_const_*). Each
 * kernel follows the loops of TFLM's reference kernel; integer sums are
 * kept in int64 (exact) and narrowed the way TFLM's int32 accumulator
 * wraps when the TFLM kernel accumulates in int32, float sums are done
 * one product at a time in TFLM's order. Compressed filters are decoded a
 * row (or a channel's taps) at a time into the tile when they fit, else in
 * tile-sized pieces for every pixel; results never depend on the path. */

/* A usable tile of at least 64 bytes and its capacity in elements. */
static uint8_t *tflc__b_tile(void *tile, size_t tile_bytes, size_t es,
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
static int16_t tflc__b_req16(int64_t acc, int64_t bias, int acc64, int32_t q,
                             int32_t s, int32_t out_off, int32_t lo,
                             int32_t hi) {
  int32_t v;
  if (acc64)
    v = tflc_mbqm64((int64_t)((uint64_t)acc + (uint64_t)bias), q, s);
  else
    v = tflc_mbqm(tflc__wrap32((int64_t)((uint64_t)acc + (uint64_t)bias)), q,
                  s);
  v = tflc__wrap32((int64_t)v + out_off);
  v = v < lo ? lo : v;
  v = v > hi ? hi : v;
  {
    const uint32_t u = (uint32_t)v & 0xFFFFu;
    return (int16_t)((int32_t)u - (u >= 32768u ? 65536 : 0));
  }
}

static float tflc__b_clampf(float v, float lo, float hi) {
  v = v < lo ? lo : v; /* std::max(v, lo) */
  v = hi < v ? hi : v; /* std::min(v, hi) */
  return v;
}

/* ---- CONV_2D int16x8 / float -------------------------------------------- */
/* Accumulator of one output value; `i` for int16x8, `f` for float. */
typedef struct tflc__b_acc {
  int64_t i;
  float f;
} tflc__b_acc;

/* m consecutive filter elements of a kernel row (f: int8 or float bytes)
 * against the input pixels they meet; (kx, ci) is the cursor of the first
 * element within the row and is advanced. irow is the input row at the
 * group's first channel; pixel x of the kernel reads irow[(ix0 + x * dw) *
 * c + ci]. */
static void tflc__b_conv_seg(int f32, const void *irow, int32_t ix0, int32_t dw,
                             int32_t c, const uint8_t *f, int32_t m, int32_t fc,
                             int32_t *kx, int32_t *ci, tflc__b_acc *a) {
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

static void tflc__b_conv(int f32, const tflc_conv_params *p, float fmin,
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
  t = tflc__b_tile(tile, tile_bytes, es, &small, &cap);
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
          tflc__b_acc a;
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
              tflc__b_conv_seg(f32, irow, w.ix0, g.dw, g.c,
                               row + (size_t)e * es, e_end - e, fc, &kx, &ci,
                               &a);
            } else {
              while (e < e_end) {
                const int32_t m = e_end - e < cap ? e_end - e : cap;
                tflc_lut_decode(filter, oc * row_len + e, m, t);
                tflc__b_conv_seg(f32, irow, w.ix0, g.dw, g.c, t, m, fc, &kx,
                                 &ci, &a);
                e += m;
              }
            }
          }
          if (f32)
            ((float *)out)[o] = tflc__b_clampf(a.f + bf, fmin, fmax);
          else
            ((int16_t *)out)[o] =
                tflc__b_req16(a.i, bi, acc64, p->out_multiplier[oc],
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
  tflc__b_conv(0, p, 0.0f, 0.0f, acc64, in_dims, in, filter_dims, filter, bias,
               out_dims, out, tile, tile_bytes);
}

TFLC_API void tflc_conv2d_f32(const tflc_conv_params *p, float act_min,
                              float act_max, const int32_t in_dims[4],
                              const float *in, const int32_t filter_dims[4],
                              const tflc_const *filter, const tflc_const *bias,
                              const int32_t out_dims[4], float *out, void *tile,
                              size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_FLOAT32);
  tflc__b_conv(1, p, act_min, act_max, 1, in_dims, in, filter_dims, filter,
               bias, out_dims, out, tile, tile_bytes);
}

/* ---- DEPTHWISE_CONV_2D int16x8 / float ---------------------------------- */
/* One tap (weight w) against input value index xi. */
static void tflc__b_dw_tap(int f32, const void *in, size_t xi, const uint8_t *w,
                           tflc__b_acc *a) {
  if (f32) {
    const float prod = ((const float *)in)[xi] * tflc__ldf(w);
    a->f += prod;
  } else {
    a->i += (int64_t)(int8_t)w[0] * (int64_t)((const int16_t *)in)[xi];
  }
}

static void tflc__b_dw(int f32, const tflc_conv_params *p, float fmin,
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
  t = tflc__b_tile(tile, tile_bytes, es, &small, &cap);
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
            tflc__b_acc a;
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
                  tflc__b_dw_tap(f32, in, xi,
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
                    tflc__b_dw_tap(f32, in, xi, t + (size_t)j * es, &a);
                  }
                }
              }
            }
            if (f32)
              ((float *)out)[o] = tflc__b_clampf(a.f + bf, fmin, fmax);
            else
              ((int16_t *)out)[o] =
                  tflc__b_req16(a.i, bi, 1, p->out_multiplier[oc],
                                p->out_shift[oc], 0, p->act_min, p->act_max);
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
  tflc__b_dw(0, p, 0.0f, 0.0f, in_dims, in, filter_dims, filter, bias, out_dims,
             out, tile, tile_bytes);
}

TFLC_API void tflc_depthwise_conv2d_f32(
    const tflc_conv_params *p, float act_min, float act_max,
    const int32_t in_dims[4], const float *in, const int32_t filter_dims[4],
    const tflc_const *filter, const tflc_const *bias, const int32_t out_dims[4],
    float *out, void *tile, size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_FLOAT32);
  tflc__b_dw(1, p, act_min, act_max, in_dims, in, filter_dims, filter, bias,
             out_dims, out, tile, tile_bytes);
}

/* ---- FULLY_CONNECTED int16x8 -------------------------------------------- */
static int64_t tflc__b_fc_dot16(const int8_t *f, const int16_t *x, int32_t n,
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
  int8_t *t = (int8_t *)tflc__b_tile(tile, tile_bytes, 1, &small, &cap);
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
        acc = tflc__b_fc_dot16(row, in + (size_t)b * (size_t)D, D, f_off,
                               p->input_offset);
      } else {
        int32_t d0;
        for (d0 = 0; d0 < D; d0 += cap) {
          const int32_t m = D - d0 < cap ? D - d0 : cap;
          tflc_lut_decode(filter, o * D + d0, m, t);
          acc += tflc__b_fc_dot16(t, in + (size_t)b * (size_t)D + (size_t)d0, m,
                                  f_off, p->input_offset);
        }
      }
      out[(size_t)b * (size_t)out_depth + (size_t)o] = tflc__b_req16(
          acc, bv, acc64, q, s, p->output_offset, p->act_min, p->act_max);
    }
  }
}

/* ---- TRANSPOSE_CONV ----------------------------------------------------- */
/* kind: 0 int8 (int32 plane), 1 int16x8 (int64 plane), 2 float (into out) */
typedef struct tflc__b_tc {
  int kind;
  int32_t h, w, cin, kh, kw, oh, ow, cout, in_off;
  const void *in;
  void *plane; /* int32 / int64 accumulators of one channel, or out */
  float *fout;
  int32_t oc;
} tflc__b_tc;

/* Scatters filter elements [e0, e0 + m) of the current output channel's
 * row [Kh][Kw][Cin] (f holds them) from input pixel (n, iy, ix) at xo
 * (input element offset of its channel 0), whose window starts at output
 * (oy0, ox0). */
static void tflc__b_tc_scatter(const tflc__b_tc *s, int32_t n, size_t xo,
                               int32_t oy0, int32_t ox0, const uint8_t *f,
                               int32_t e0, int32_t m) {
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

static void tflc__b_tconv(int kind, const tflc_conv_params *p, float fmin,
                          float fmax, const int32_t in_dims[4], const void *in,
                          const int32_t filter_dims[4],
                          const tflc_const *filter, const tflc_const *bias,
                          const int32_t out_dims[4], void *out, void *acc,
                          void *tile, size_t tile_bytes) {
  tflc__b_tc s;
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
  t = tflc__b_tile(tile, tile_bytes, es, &small, &cap);
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
            tflc__b_tc_scatter(&s, n, xo, oy0, ox0, row, 0, row_len);
          } else {
            int32_t e;
            for (e = 0; e < row_len; e += cap) {
              const int32_t m = row_len - e < cap ? row_len - e : cap;
              tflc_lut_decode(filter, oc * row_len + e, m, t);
              tflc__b_tc_scatter(&s, n, xo, oy0, ox0, t, e, m);
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
        *o = tflc__b_clampf(v, fmin, fmax);
      }
    } else {
      const int64_t bv = bias != NULL ? tflc_const_i64(bias, oc) : 0;
      const int32_t q = p->out_multiplier[oc], sh = p->out_shift[oc];
      for (i = 0; i < plane_n; i++) {
        const size_t o = i * (size_t)s.cout + (size_t)oc;
        if (kind == 0) {
          int32_t v = tflc__wrap32(
              (int64_t)((uint32_t)((int32_t *)acc)[i] + (uint32_t)(int32_t)bv));
          v = tflc__wrap32((int64_t)tflc_mbqm(v, q, sh) + p->output_offset);
          v = v < p->act_min ? p->act_min : v;
          v = v > p->act_max ? p->act_max : v;
          ((int8_t *)out)[o] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
        } else {
          ((int16_t *)out)[o] = tflc__b_req16(((int64_t *)acc)[i], bv, 1, q, sh,
                                              0, p->act_min, p->act_max);
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
  tflc__b_tconv(0, p, 0.0f, 0.0f, in_dims, in, filter_dims, filter, bias,
                out_dims, out, acc, tile, tile_bytes);
}

TFLC_API void
tflc_transpose_conv_s16(const tflc_conv_params *p, const int32_t in_dims[4],
                        const int16_t *in, const int32_t filter_dims[4],
                        const tflc_const *filter, const tflc_const *bias,
                        const int32_t out_dims[4], int16_t *out, int64_t *acc,
                        void *tile, size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_INT8);
  tflc__b_tconv(1, p, 0.0f, 0.0f, in_dims, in, filter_dims, filter, bias,
                out_dims, out, acc, tile, tile_bytes);
}

TFLC_API void
tflc_transpose_conv_f32(const tflc_conv_params *p, float act_min, float act_max,
                        const int32_t in_dims[4], const float *in,
                        const int32_t filter_dims[4], const tflc_const *filter,
                        const tflc_const *bias, const int32_t out_dims[4],
                        float *out, void *tile, size_t tile_bytes) {
  TFLC_ASSERT(filter->type == TFLC_FLOAT32);
  tflc__b_tconv(2, p, act_min, act_max, in_dims, in, filter_dims, filter, bias,
                out_dims, out, NULL, tile, tile_bytes);
}

/* ---- shared element access ---------------------------------------------- */
/* Integer element i of a constant: in place when raw, decoded otherwise. */
static int32_t tflc__b_ci(const tflc_const *c, int32_t i) {
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
static int64_t tflc__b_dot_w8(const tflc_const *w, int32_t row, int32_t n,
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
      int32_t v = tflc__wrap32(tflc__b_dot_w8(
          w_feature, r, I, 0, in + (size_t)b * (size_t)I, 0, -p->input_zp));
      v = tflc_mbqm(v, p->mult1, p->shift1);
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
          s += (uint32_t)(tflc__b_ci(w_time, r * M + j) * (sv - p->state_zp));
        }
        acc += s;
      }
      v = tflc_mbqm(tflc__wrap32((int64_t)acc), p->mult2, p->shift2);
      v = tflc__wrap32((int64_t)v + p->output_zp);
      v = v < -128 ? -128 : v > 127 ? 127 : v;
      out[(size_t)b * (size_t)U + (size_t)u] = (int8_t)v;
    }
}

/* TFLM's ActivationValFloat */
static float tflc__b_act_f32(int act, float a) {
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
      out[(size_t)b * (size_t)U + (size_t)u] = tflc__b_act_f32(p->act, o);
    }
}

/* ---- int16 LOGISTIC / TANH (sigmoid table) ------------------------------ */
/* sigmoid(i / 24) in unsigned 0.16, the 256 values TFLM tabulates */
static const uint16_t tflc__b_sigmoid16[256] = {
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
static int32_t tflc__b_scale16(int32_t x, int32_t mult, int32_t shift) {
  const int32_t round = shift > 0 ? (int32_t)1 << (shift - 1) : 0;
  const int32_t v = tflc__wrap32(
      (int64_t)((uint32_t)((uint64_t)((int64_t)x * mult) + (uint32_t)round)));
  return shift > 0 ? tflc__asr32(v, (int)(shift > 31 ? 31 : shift)) : v;
}

TFLC_API int16_t tflc_logistic_s16_one(int32_t x, int32_t mult, int32_t shift) {
  const int32_t v = tflc__b_scale16(x, mult, shift);
  const uint32_t a = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
  const uint32_t h = a >> 9;
  uint32_t r;
  if (h >= 255) {
    r = 0x7FFFu << 10;
  } else {
    const uint32_t lo = tflc__b_sigmoid16[h], hi = tflc__b_sigmoid16[h + 1];
    r = (lo << 9) + (a & 0x1FFu) * (hi - lo);
  }
  r = v >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
  return (int16_t)(r >> 10);
}

TFLC_API int16_t tflc_tanh_s16_one(int32_t x, int32_t mult, int32_t shift) {
  const int32_t v = tflc__b_scale16(x, mult, shift);
  const uint32_t a = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
  const uint32_t h = a >> 8;
  int32_t r;
  if (h >= 255) {
    r = 0xFFFF << 8;
  } else {
    const uint32_t lo = tflc__b_sigmoid16[h], hi = tflc__b_sigmoid16[h + 1];
    r = (int32_t)((lo << 8) + (a & 0xFFu) * (hi - lo));
  }
  r = v >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
  return (int16_t)tflc__asr32(r, 8);
}

/* ---- UNIDIRECTIONAL_SEQUENCE_LSTM --------------------------------------- */
static int16_t tflc__b_sat16(int32_t v) {
  return (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
}

/* MulElementwise: MBQM(a * b) + zp, clamped to [lo, hi] */
static int32_t tflc__b_mul_q(int32_t a, int32_t b, int32_t q, int32_t s,
                             int32_t zp, int32_t lo, int32_t hi) {
  int32_t v = tflc__wrap32((int64_t)tflc_mbqm(a * b, q, s) + zp);
  return v < lo ? lo : v > hi ? hi : v;
}

/* Pre-activation of gate g for `rows` rows: input FC (with bias) and
 * recurrent FC (no bias), each requantized to Q3.12 int16, added with
 * saturation; then the gate's nonlinearity. */
static void tflc__b_lstm_gate_q(const tflc_lstm_params *p, int act16,
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
      const int64_t ax = tflc__b_dot_w8(&w[g], o, I, p->w_offset[g], xr, act16,
                                        p->input_offset);
      const int64_t ah = tflc__b_dot_w8(&w[4 + g], o, S, p->w_offset[4 + g], hr,
                                        act16, p->hidden_offset);
      int32_t vx, vh;
      if (p->acc64) {
        vx = tflc_mbqm64(ax + bias, p->gate_mult[g], p->gate_shift[g]);
        vh = tflc_mbqm64(ah, p->gate_mult[4 + g], p->gate_shift[4 + g]);
      } else {
        vx = tflc_mbqm(tflc__wrap32(ax + bias), p->gate_mult[g],
                       p->gate_shift[g]);
        vh = tflc_mbqm(tflc__wrap32(ah), p->gate_mult[4 + g],
                       p->gate_shift[4 + g]);
      }
      {
        const int32_t s = (int32_t)tflc__b_sat16(vx) + tflc__b_sat16(vh);
        const int16_t pre = tflc__b_sat16(s);
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
      tflc__b_lstm_gate_q(p, act16, w, b, 1, rows, x, h, 0, fg);
      tflc__b_lstm_gate_q(p, act16, w, b, 0, rows, x, h, 0, ig);
      tflc__b_lstm_gate_q(p, act16, w, b, 2, rows, x, h, 1, cg);
      for (i = 0; i < n; i++) {
        int32_t v = tflc__b_mul_q(fg[i], c[i], p->fc_mult, p->fc_shift, 0,
                                  -32768, 32767);
        v += tflc__b_mul_q(ig[i], cg[i], p->ig_mult, p->ig_shift, 0, -32768,
                           32767);
        v = tflc__b_sat16(v);
        if (p->clip_f > 0.0f) {
          v = v < p->clip_q ? v : p->clip_q;
          v = v > -p->clip_q ? v : -p->clip_q;
        }
        c[i] = (int16_t)v;
      }
      tflc__b_lstm_gate_q(p, act16, w, b, 3, rows, x, h, 0, ig);
      for (i = 0; i < n; i++) {
        const int16_t tc = tflc_tanh_s16_one(c[i], p->tanh_mult, p->tanh_shift);
        const int32_t v =
            tflc__b_mul_q(tc, ig[i], p->h_mult, p->h_shift, p->hidden_zp,
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
static float tflc__b_fc_f32(const tflc_const *w, const tflc_const *b, int32_t o,
                            const float *x, int32_t n) {
  float total = 0.0f, v;
  int32_t d;
  for (d = 0; d < n; d++) {
    const float prod = x[d] * tflc_const_f32(w, o * n + d);
    total += prod;
  }
  v = total + (b != NULL ? tflc_const_f32(b, o) : 0.0f);
  return tflc__b_clampf(v, -FLT_MAX, FLT_MAX);
}

static float tflc__b_sigmoid_f32(float v) {
  if (v > 16.619047164916992188f)
    return 1.0f;
  if (v < -9.0f)
    return expf(v);
  return 1.0f / (1.0f + expf(-v));
}

static void tflc__b_lstm_gate_f32(const tflc_lstm_params *p,
                                  const tflc_const *w, const tflc_const *b,
                                  int g, int32_t rows, const float *x,
                                  const float *h, int tanh_gate, float *dst) {
  const int32_t S = p->state_size, I = p->input_size;
  int32_t r, o;
  for (r = 0; r < rows; r++)
    for (o = 0; o < S; o++) {
      const float vx =
          tflc__b_fc_f32(&w[g], &b[g], o, x + (size_t)r * (size_t)I, I);
      const float vh =
          tflc__b_fc_f32(&w[4 + g], NULL, o, h + (size_t)r * (size_t)S, S);
      const float pre = vx + vh;
      dst[(size_t)r * (size_t)S + (size_t)o] =
          tanh_gate ? tanhf(pre) : tflc__b_sigmoid_f32(pre);
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
      tflc__b_lstm_gate_f32(p, w, b, 1, rows, x, h, 0, fg);
      tflc__b_lstm_gate_f32(p, w, b, 0, rows, x, h, 0, ig);
      tflc__b_lstm_gate_f32(p, w, b, 2, rows, x, h, 1, cg);
      for (i = 0; i < n; i++) {
        const float fc = tflc__b_clampf(fg[i] * c[i], -FLT_MAX, FLT_MAX);
        const float icg = tflc__b_clampf(ig[i] * cg[i], -FLT_MAX, FLT_MAX);
        float v = fc + icg;
        if (p->clip_f > 0.0f) {
          v = v < p->clip_f ? v : p->clip_f;   /* std::min(clip, v) */
          v = v < -p->clip_f ? -p->clip_f : v; /* std::max(v, -clip) */
        }
        c[i] = v;
      }
      tflc__b_lstm_gate_f32(p, w, b, 3, rows, x, h, 0, ig);
      for (i = 0; i < n; i++)
        h[i] = tflc__b_clampf(tanhf(c[i]) * ig[i], -FLT_MAX, FLT_MAX);
      memcpy(out + step * n, h, n * sizeof(float));
    }
  }
}

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

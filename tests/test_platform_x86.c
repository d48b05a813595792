/* tests/test_platform_x86.c - the x86-64 SSE4.1 / AVX2 primitives of
 * tflc_kernels.h against the portable ones, byte for byte.
 *
 * tests/run.sh builds this file twice, with -msse4.1 and with -mavx2 (the
 * build picks which primitives exist: -mavx2 has both). Built without
 * either it checks the portable primitives against the naive references
 * only. Checks:
 *  - requantization, GEMM and depthwise primitives, every compiled x86
 *    version, against the portable version and a naive reference (64-bit
 *    sums, its own MultiplyByQuantizedMultiplier) on random shapes,
 *    strides, input offsets (the -128..255 the kernels see, up to the
 *    16-bit lane limit and beyond), shifts -31..30 (and beyond, as int8
 *    allows), multipliers near INT32_MAX and INT32_MIN, biases near the
 *    int32 limits and clamps within and beyond int8;
 *  - CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED int8 kernels end to end
 *    (raw and LUT-compressed filters) against naive references, with the
 *    primitives the build dispatches to, counting that the kernels called
 *    them.
 * A CPU without the instructions the build needs: the checks are skipped
 * and counted ("N skipped"). */
#define TFLC_REQUANTIZE_S8 tflc_requantize_s8_portable /* a pure reference */
#define TFLC_PLATFORM_HEADER "tests/platform_count.h"
#define TFLC_KERNELS_IMPLEMENTATION
#include "../tflc_kernels.h"
#include "harness.h"

#include <stdlib.h>

typedef void (*requant_fn)(const tflc_requant_params *rq, int32_t n,
                           const int32_t *acc, int8_t *out);
typedef struct x86_impl {
  const char *name;
  requant_fn requant;
  test_gemm_fn gemm;
  test_depthwise_fn depthwise;
} x86_impl;

/* every x86 version this build has */
static const x86_impl impls[] = {
#if defined(TFLC_HAVE_SSE41_GEMM)
    {"sse41", tflc_requantize_s8_sse41, tflc_gemm_s8_sse41,
     tflc_depthwise_s8_sse41},
#endif
#if defined(TFLC_HAVE_AVX2_GEMM)
    {"avx2", tflc_requantize_s8_avx2, tflc_gemm_s8_avx2,
     tflc_depthwise_s8_avx2},
#endif
    {"portable", tflc_requantize_s8_portable, tflc_gemm_s8_portable,
     tflc_depthwise_s8_portable}};
#define N_IMPLS ((int)(sizeof impls / sizeof impls[0]))

#include "kernel_ref.h"

/* requantization parameters for n channels, sums of `depth` products:
 * mostly realistic, often extreme */
typedef struct quant {
  int32_t q[256], s32[256];
  int8_t s[256];
  int32_t bias[256];
  int32_t zp, lo, hi;
} quant;
static int kernel_params; /* 1: shifts -31..30, clamps within int8 */
static void make_quant(quant *k, int32_t n, int32_t depth) {
  const int extreme = rng_below(4) == 0;
  int32_t c;
  for (c = 0; c < n; c++) {
    if (!extreme) {
      const double base = 60.0 / (16384.0 * sqrt((double)depth));
      double m = base * (0.5 + rng_below(1000) / 666.0);
      if (rng_below(16) == 0)
        m *= 300.0;
      tflc_quantize_multiplier(m, &k->q[c], &k->s32[c]);
      if (k->s32[c] < -31 || k->s32[c] > 30) {
        k->q[c] = 0;
        k->s32[c] = 0;
      }
      k->bias[c] = rng_int(-20000, 20000);
    } else {
      switch (rng_below(5)) {
      case 0:
        k->q[c] = INT32_MAX - rng_int(0, 1000);
        break;
      case 1:
        k->q[c] = INT32_MIN + rng_int(0, 2);
        break;
      case 2:
        k->q[c] = (int32_t)rng();
        break;
      default:
        k->q[c] = rng_int(1 << 30, INT32_MAX);
        break;
      }
      k->s32[c] = rng_below(8) == 0 && !kernel_params ? rng_int(-128, 127)
                                                      : rng_int(-31, 30);
      k->bias[c] = rng_below(2)
                       ? (int32_t)rng()
                       : (rng_below(2) ? INT32_MAX - rng_int(0, 50000)
                                       : INT32_MIN + rng_int(0, 50000));
    }
    k->s[c] = (int8_t)k->s32[c];
  }
  k->zp = rng_below(8) == 0 ? (int32_t)rng() : rng_int(-128, 127);
  switch (kernel_params ? 1 + rng_below(5) : rng_below(6)) {
  case 0:
    k->lo = rng_int(-300, 200); /* clamps beyond int8 too */
    k->hi = rng_int(-200, 300);
    break;
  case 1:
    k->lo = -128;
    k->hi = 127;
    break;
  default:
    tflc_activation_range_quantized(rng_below(4), 0.05f, rng_int(-128, 127),
                                    -128, 127, &k->lo, &k->hi);
    break;
  }
}
static tflc_requant_params quant_params(const quant *k, int per_channel,
                                        int with_bias) {
  tflc_requant_params rq;
  rq.bias = with_bias ? k->bias : NULL;
  rq.multiplier = k->q;
  rq.shift = k->s;
  rq.per_channel = per_channel;
  rq.output_offset = k->zp;
  rq.act_min = k->lo;
  rq.act_max = k->hi;
  return rq;
}
static int32_t pick_offset(void) {
  switch (rng_below(8)) {
  case 0:
    return 0;
  case 1:
    return rng_below(2) ? 255 : -128; /* the ends of what kernels see */
  case 2:
    return rng_below(2) ? 32640 : -32640; /* the 16-bit lane limit */
  case 3:
    return rng_int(-32640, 32640);
  case 4:
    return rng_below(2) ? 32641 : -1000000; /* beyond: portable */
  default:
    return rng_int(-128, 255);
  }
}

/* ---- primitives -----------------------------------------------------------
 */
static int n_failed_cases[4];

static void test_requantize(void) {
  int i, m;
  for (i = 0; i < 3000; i++) {
    quant k;
    int32_t acc[80], c;
    const int32_t n = rng_int(1, 80);
    int8_t expect[80], got[80];
    const int pc = rng_below(2), wb = rng_below(2);
    tflc_requant_params rq;
    make_quant(&k, n, rng_int(1, 500));
    rq = quant_params(&k, pc, wb);
    for (c = 0; c < n; c++) {
      acc[c] = (int32_t)rng();
      if (rng_below(2))
        acc[c] = wrap32((int64_t)acc[c] >> rng_int(0, 24));
      if (rng_below(16) == 0)
        acc[c] = rng_below(2) ? INT32_MIN : INT32_MAX;
      expect[c] = ref_out((int64_t)acc[c] + (wb ? k.bias[c] : 0),
                          k.q[pc ? c : 0], k.s32[pc ? c : 0], k.zp, k.lo, k.hi);
    }
    for (m = 0; m < N_IMPLS; m++) {
      memset(got, 0x33, sizeof got);
      impls[m].requant(&rq, n, acc, got);
      if (memcmp(got, expect, (size_t)n) != 0 && n_failed_cases[0]++ < 5)
        fprintf(stderr, "  requantize %s differs (case %d)\n", impls[m].name,
                i);
    }
  }
  CHECK_EQ_INT(n_failed_cases[0], 0);
}

static void ref_gemm(const quant *k, int pc, int wb, const tflc_gemm_block *g) {
  int32_t r, c, sg, d;
  for (r = 0; r < g->rows; r++)
    for (c = 0; c < g->cols; c++) {
      int64_t acc = wb ? k->bias[c] : 0;
      for (sg = 0; sg < g->segments; sg++)
        for (d = 0; d < g->seg_len; d++)
          acc +=
              (int64_t)g->w[c * g->w_col + sg * g->w_seg + d] *
              ((int64_t)g->a[r * g->a_row + sg * g->a_seg + d] + g->a_offset);
      g->out[r * g->out_row + c] = ref_out(
          acc, k->q[pc ? c : 0], k->s32[pc ? c : 0], k->zp, k->lo, k->hi);
    }
}

static void test_gemm(void) {
  int i, m;
  for (i = 0; i < 1500; i++) {
    quant k;
    tflc_gemm_block g;
    const int pc = rng_below(4) != 0, wb = rng_below(4) != 0;
    int32_t an, wn, on, segs;
    int8_t *a, *w, *expect, *got;
    tflc_requant_params rq;
    g.rows = rng_int(1, 9);
    g.cols = rng_int(1, 40);
    g.segments = rng_below(3) == 0 ? rng_int(0, 4) : 1;
    g.seg_len = rng_below(4) == 0 ? rng_int(0, 300) : rng_int(0, 70);
    if (rng_below(3) == 0)
      g.seg_len = 8 * rng_int(0, 12); /* whole vector steps */
    segs = g.segments > 0 ? g.segments : 1;
    g.a_seg = g.seg_len + rng_int(0, 9);
    g.a_row = rng_below(6) == 0 ? 0 : g.a_seg * segs + rng_int(0, 5);
    g.w_seg = g.seg_len + rng_int(0, 3);
    g.w_col = g.w_seg * segs + rng_int(0, 5);
    g.out_row = g.cols + rng_int(0, 3);
    g.a_offset = pick_offset();
    /* exact sizes: a read past the data shows under ASan */
    an = (g.rows - 1) * g.a_row + (segs - 1) * g.a_seg + g.seg_len;
    wn = (g.cols - 1) * g.w_col + (segs - 1) * g.w_seg + g.seg_len;
    on = (g.rows - 1) * g.out_row + g.cols;
    a = (int8_t *)malloc((size_t)an + 1);
    w = (int8_t *)malloc((size_t)wn + 1);
    expect = (int8_t *)malloc((size_t)on);
    got = (int8_t *)malloc((size_t)on);
    make_quant(&k, g.cols, g.seg_len * segs + 1);
    rq = quant_params(&k, pc, wb);
    fill_s8(a, an + 1);
    fill_s8(w, wn + 1);
    g.a = a;
    g.w = w;
    memset(expect, 0x33, (size_t)on);
    g.out = expect;
    ref_gemm(&k, pc, wb, &g);
    for (m = 0; m < N_IMPLS; m++) {
      memset(got, 0x33, (size_t)on);
      g.out = got;
      impls[m].gemm(&rq, &g);
      if (memcmp(got, expect, (size_t)on) != 0 && n_failed_cases[1]++ < 5)
        fprintf(stderr,
                "  gemm %s differs: rows %d cols %d segs %d len %d off %d\n",
                impls[m].name, (int)g.rows, (int)g.cols, (int)g.segments,
                (int)g.seg_len, (int)g.a_offset);
    }
    free(a);
    free(w);
    free(expect);
    free(got);
  }
  CHECK_EQ_INT(n_failed_cases[1], 0);
}

static void ref_depthwise(const quant *k, int pc, int wb,
                          const tflc_depthwise_block *b) {
  int32_t p, c, y, x;
  for (p = 0; p < b->pixels; p++)
    for (c = 0; c < b->channels; c++) {
      int64_t acc = wb ? k->bias[c] : 0;
      for (y = 0; y < b->rows; y++)
        for (x = 0; x < b->cols; x++)
          acc += (int64_t)b->w[y * b->w_row + x * b->w_col + c] *
                 ((int64_t)b->x[p * b->x_pixel + y * b->x_row + x * b->x_col +
                                c / b->multiplier] +
                  b->x_offset);
      b->out[p * b->out_pixel + c] = ref_out(
          acc, k->q[pc ? c : 0], k->s32[pc ? c : 0], k->zp, k->lo, k->hi);
    }
}

static void test_depthwise(void) {
  int i, m;
  for (i = 0; i < 1500; i++) {
    quant k;
    tflc_depthwise_block b;
    tflc_requant_params rq;
    const int pc = rng_below(4) != 0, wb = rng_below(4) != 0;
    int32_t xn, wn, on, cin;
    int8_t *x, *w, *expect, *got;
    b.channels = rng_below(3) == 0 ? 8 * rng_int(1, 5) : rng_int(1, 40);
    switch (rng_below(8)) {
    case 0:
      b.multiplier = rng_int(2, 8);
      break;
    case 1:
      b.multiplier = 8 * rng_int(1, 3); /* one input channel per 8 */
      break;
    default:
      b.multiplier = 1;
      break;
    }
    cin = (b.channels + b.multiplier - 1) / b.multiplier;
    b.pixels = rng_int(1, 6);
    b.rows = rng_int(0, 4);
    b.cols = rng_int(0, 4);
    if (rng_below(20) == 0) { /* more taps than the vector paths take */
      b.rows = rng_int(5, 9);
      b.cols = rng_int(8, 9);
    }
    b.x_col = cin + rng_int(0, 3);
    b.x_row = b.x_col * (b.cols + 1) + rng_int(0, 3);
    b.x_pixel = b.x_col * rng_int(1, 2);
    b.x_offset = pick_offset();
    b.w_col = b.channels + rng_int(0, 3);
    b.w_row = b.w_col * (b.cols > 0 ? b.cols : 1) + rng_int(0, 3);
    b.out_pixel = b.channels + rng_int(0, 3);
    /* exact sizes (reads past them show under ASan) */
    xn = (b.pixels - 1) * b.x_pixel + (b.rows > 0 ? b.rows - 1 : 0) * b.x_row +
         (b.cols > 0 ? b.cols - 1 : 0) * b.x_col + cin;
    wn = (b.rows > 0 ? b.rows - 1 : 0) * b.w_row +
         (b.cols > 0 ? b.cols - 1 : 0) * b.w_col + b.channels;
    on = (b.pixels - 1) * b.out_pixel + b.channels;
    x = (int8_t *)malloc((size_t)xn);
    w = (int8_t *)malloc((size_t)wn);
    expect = (int8_t *)malloc((size_t)on);
    got = (int8_t *)malloc((size_t)on);
    fill_s8(x, xn);
    fill_s8(w, wn);
    make_quant(&k, b.channels, b.rows * b.cols + 1);
    rq = quant_params(&k, pc, wb);
    b.x = x;
    b.w = w;
    memset(expect, 0x33, (size_t)on);
    b.out = expect;
    ref_depthwise(&k, pc, wb, &b);
    for (m = 0; m < N_IMPLS; m++) {
      memset(got, 0x33, (size_t)on);
      b.out = got;
      impls[m].depthwise(&rq, &b);
      if (memcmp(got, expect, (size_t)on) != 0 && n_failed_cases[2]++ < 5)
        fprintf(stderr,
                "  depthwise %s differs: ch %d mult %d px %d taps %dx%d off "
                "%d\n",
                impls[m].name, (int)b.channels, (int)b.multiplier,
                (int)b.pixels, (int)b.rows, (int)b.cols, (int)b.x_offset);
    }
    free(x);
    free(w);
    free(expect);
    free(got);
  }
  CHECK_EQ_INT(n_failed_cases[2], 0);
}

/* ---- kernels ---------------------------------------------------------------
 */
/* a filter from a palette of 16 values, LUT-compressed at 4 bits */
typedef struct lut4 {
  uint8_t *bits;
  int8_t values[16];
  tflc_const c;
} lut4;
static void lut4_make(lut4 *t, int8_t *data, int32_t count) {
  int32_t i;
  t->bits = (uint8_t *)calloc((size_t)(count + 1) / 2 + 1, 1);
  fill_s8(t->values, 16);
  for (i = 0; i < count; i++) {
    const uint8_t idx = (uint8_t)rng_below(16);
    data[i] = t->values[idx];
    t->bits[i / 2] = (uint8_t)(t->bits[i / 2] | (i % 2 ? idx : idx << 4));
  }
  t->c = tflc_const_lut(t->bits, t->values, TFLC_INT8, count, 4, 1, 16, 0);
}

static void out_size(int32_t in, int32_t k, int32_t stride, int same,
                     int32_t *out, int32_t *pad) {
  int32_t total;
  *out = same ? (in + stride - 1) / stride : (in - k + stride) / stride;
  if (*out < 1)
    *out = 1;
  total = (*out - 1) * stride + k - in;
  *pad = total > 0 ? total / 2 : 0;
}

/* one random convolution (dw: depthwise, multiplier 1) through the kernel
 * with a raw and a LUT filter; 1 when both match the naive reference */
static int conv_case(int dw) {
  quant k;
  tflc_conv_params p;
  int32_t n = rng_int(1, 2), h = rng_int(1, 14), wd = rng_int(1, 14), kh, kw;
  int32_t sh = rng_int(1, 2), sw = rng_int(1, 2), oh, ow, ph, pw, cin, cout;
  int32_t in_dims[4], f_dims[4], out_dims[4], in_n, f_n, out_n, in_zp;
  int32_t b, oy, ox, oc, ky, kx, ci, mode;
  const int same = rng_below(2), wb = rng_below(4) != 0;
  int8_t *in, *f, *expect, *got;
  static uint8_t tile[512];
  tflc_const braw;
  int ok = 1;
  kh = rng_below(3) == 0 ? 1 : rng_int(1, 5);
  kw = kh == 1 && rng_below(2) ? 1 : rng_int(1, 5);
  if (!same) {
    kh = kh > h ? h : kh;
    kw = kw > wd ? wd : kw;
  }
  out_size(h, kh, sh, same, &oh, &ph);
  out_size(wd, kw, sw, same, &ow, &pw);
  cin = rng_below(2) ? 8 * rng_int(1, 8) : rng_int(1, 70);
  cout = dw ? cin : (rng_below(2) ? 16 * rng_int(1, 4) : rng_int(1, 70));
  in_zp = rng_below(4) == 0 ? rng_int(-128, 127) : -128 + rng_below(2);
  in_n = n * h * wd * cin;
  f_n = kh * kw * cout * (dw ? 1 : cin);
  out_n = n * oh * ow * cout;
  in = (int8_t *)malloc((size_t)in_n);
  f = (int8_t *)malloc((size_t)f_n);
  expect = (int8_t *)malloc((size_t)out_n);
  got = (int8_t *)malloc((size_t)out_n);
  fill_s8(in, in_n);
  make_quant(&k, cout, kh * kw * (dw ? 1 : cin));
  in_dims[0] = n;
  in_dims[1] = h;
  in_dims[2] = wd;
  in_dims[3] = cin;
  f_dims[0] = dw ? 1 : cout;
  f_dims[1] = kh;
  f_dims[2] = kw;
  f_dims[3] = dw ? cout : cin;
  out_dims[0] = n;
  out_dims[1] = oh;
  out_dims[2] = ow;
  out_dims[3] = cout;
  memset(&p, 0, sizeof p);
  p.stride_h = sh;
  p.stride_w = sw;
  p.dilation_h = p.dilation_w = 1;
  p.pad_h = ph;
  p.pad_w = pw;
  p.depth_multiplier = 1;
  p.input_offset = -in_zp;
  p.output_offset = k.zp;
  p.act_min = k.lo;
  p.act_max = k.hi;
  p.out_multiplier = k.q;
  p.out_shift = k.s;
  braw = tflc_const_raw(k.bias, TFLC_INT32, cout);
  for (mode = 0; mode < 2; mode++) {
    lut4 lut;
    tflc_const fc;
    lut4_make(&lut, f, f_n);
    if (mode == 0)
      fill_s8(f, f_n);
    fc = mode == 0 ? tflc_const_raw(f, TFLC_INT8, f_n) : lut.c;
    for (b = 0; b < n; b++)
      for (oy = 0; oy < oh; oy++)
        for (ox = 0; ox < ow; ox++)
          for (oc = 0; oc < cout; oc++) {
            int64_t acc = wb ? k.bias[oc] : 0;
            for (ky = 0; ky < kh; ky++)
              for (kx = 0; kx < kw; kx++) {
                const int32_t iy = oy * sh - ph + ky, ix = ox * sw - pw + kx;
                const int8_t *px = in + ((b * h + iy) * wd + ix) * cin;
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd)
                  continue;
                if (dw)
                  acc +=
                      (int64_t)f[(ky * kw + kx) * cout + oc] * (px[oc] - in_zp);
                else
                  for (ci = 0; ci < cin; ci++)
                    acc += (int64_t)f[((oc * kh + ky) * kw + kx) * cin + ci] *
                           (px[ci] - in_zp);
              }
            expect[((b * oh + oy) * ow + ox) * cout + oc] =
                ref_out(acc, k.q[oc], k.s32[oc], k.zp, k.lo, k.hi);
          }
    memset(got, 0x5A, (size_t)out_n);
    if (dw)
      tflc_depthwise_conv2d_s8(&p, in_dims, in, f_dims, &fc, wb ? &braw : NULL,
                               out_dims, got, tile, sizeof tile);
    else
      tflc_conv2d_s8(&p, in_dims, in, f_dims, &fc, wb ? &braw : NULL, out_dims,
                     got, tile, sizeof tile);
    ok &= memcmp(got, expect, (size_t)out_n) == 0;
    free(lut.bits);
  }
  free(in);
  free(f);
  free(expect);
  free(got);
  return ok;
}

static int fc_case(void) {
  quant k;
  tflc_fc_params p;
  const int32_t batches = rng_below(3) == 0 ? rng_int(4, 9) : rng_int(1, 3);
  const int32_t depth = rng_int(1, 400), outs = rng_int(1, 70);
  const int pc = rng_below(2), wb = rng_below(4) != 0;
  const int32_t in_zp = rng_int(-128, 127);
  int8_t *in = (int8_t *)malloc((size_t)(batches * depth));
  int8_t *f = (int8_t *)malloc((size_t)(outs * depth));
  int8_t *expect = (int8_t *)malloc((size_t)(batches * outs));
  int8_t *got = (int8_t *)malloc((size_t)(batches * outs));
  tflc_const fc, braw;
  int32_t b, o, d;
  int ok;
  fill_s8(in, batches * depth);
  fill_s8(f, outs * depth);
  make_quant(&k, outs, depth);
  memset(&p, 0, sizeof p);
  p.input_offset = -in_zp;
  p.output_offset = k.zp;
  p.act_min = k.lo;
  p.act_max = k.hi;
  p.per_channel = pc;
  p.out_multiplier = k.q;
  p.out_shift = k.s;
  braw = tflc_const_raw(k.bias, TFLC_INT32, outs);
  fc = tflc_const_raw(f, TFLC_INT8, outs * depth);
  for (b = 0; b < batches; b++)
    for (o = 0; o < outs; o++) {
      int64_t acc = wb ? k.bias[o] : 0;
      for (d = 0; d < depth; d++)
        acc += (int64_t)f[o * depth + d] * (in[b * depth + d] - in_zp);
      expect[b * outs + o] =
          ref_out(acc, k.q[pc ? o : 0], k.s32[pc ? o : 0], k.zp, k.lo, k.hi);
    }
  memset(got, 0x5A, (size_t)(batches * outs));
  tflc_fully_connected_s8(&p, batches, depth, outs, in, &fc, wb ? &braw : NULL,
                          got, NULL, 0);
  ok = memcmp(got, expect, (size_t)(batches * outs)) == 0;
  free(in);
  free(f);
  free(expect);
  free(got);
  return ok;
}

/* the kernels through each implementation's primitives */
static void test_kernels(void) {
  int m, i;
  kernel_params = 1;
  for (m = 0; m < N_IMPLS; m++) {
    int bad_conv = 0, bad_dw = 0, bad_fc = 0;
    test_gemm_impl = impls[m].gemm;
    test_depthwise_impl = impls[m].depthwise;
    test_gemm_calls = test_depthwise_calls = 0;
    for (i = 0; i < 120; i++) {
      bad_conv += !conv_case(0);
      bad_dw += !conv_case(1);
      bad_fc += !fc_case();
    }
    if (bad_conv + bad_dw + bad_fc != 0)
      fprintf(stderr, "  kernels with %s: conv %d, depthwise %d, fc %d bad\n",
              impls[m].name, bad_conv, bad_dw, bad_fc);
    CHECK_EQ_INT(bad_conv, 0);
    CHECK_EQ_INT(bad_dw, 0);
    CHECK_EQ_INT(bad_fc, 0);
    CHECK(test_gemm_calls > 1000);
    CHECK(test_depthwise_calls > 500);
  }
}

int main(void) {
#if defined(__GNUC__) || defined(__clang__)
#if defined(TFLC_HAVE_AVX2_GEMM)
  if (!__builtin_cpu_supports("avx2")) {
    printf("no AVX2 on this CPU\n0 passed, 0 failed, 1 skipped\n");
    return 0;
  }
#elif defined(TFLC_HAVE_SSE41_GEMM)
  if (!__builtin_cpu_supports("sse4.1")) {
    printf("no SSE4.1 on this CPU\n0 passed, 0 failed, 1 skipped\n");
    return 0;
  }
#endif
#endif
  rng_seed(1111u);
  printf("x86 versions compiled:");
  {
    int m;
    for (m = 0; m + 1 < N_IMPLS; m++)
      printf(" %s", impls[m].name);
    printf("%s\n", N_IMPLS == 1 ? " none (portable only)" : "");
  }
  RUN(test_requantize);
  RUN(test_gemm);
  RUN(test_depthwise);
  RUN(test_kernels);
  return harness_report();
}

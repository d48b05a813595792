/* tests/test_platform_hifi.c - the Xtensa HiFi primitives of tflc_kernels.h
 * on this host (HiFi 4 code; tests/test_platform_hifi5.c includes this file
 * with XCHAL_HAVE_HIFI5 for the HiFi 5 code).
 *
 * Built with TFLC_HIFI_EMULATE (the HiFi section compiled over
 * tests/hifi_emu.h, C definitions of the HiFi 4 intrinsics it uses) and
 * TFLC_PLATFORM_HEADER tests/platform_count.h (the kernels' GEMM and
 * depthwise primitives picked at run time). Checks:
 *  - tflc_gemm_s8_hifi and tflc_depthwise_s8_hifi against the portable
 *    versions, byte for byte, on random shapes, strides, buffer alignments,
 *    offsets (inside and beyond 16-bit lanes) and requantization parameters
 *    (biases and multipliers near the int32 limits, left shifts, nearly
 *    dead channels), and on the largest sums the HiFi paths accept;
 *  - CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED int8 kernels on random
 *    shapes (raw and LUT-compressed filters, several scratch sizes) with
 *    the HiFi primitives against the same kernels with the portable ones;
 *  - that the HiFi loops ran (intrinsic counts), never loaded from a
 *    misaligned address and never overflowed a lane or a 64-bit sum (the
 *    emulation counts both: the section's exactness must not depend on how
 *    HiFi instructions overflow, which the public sources do not say). */
#define TFLC_HIFI_EMULATE
#define TFLC_PLATFORM_HEADER "tests/platform_count.h"
#define TFLC_KERNELS_IMPLEMENTATION
#include "../tflc_kernels.h"
#include "harness.h"

#include <stdlib.h>

static int32_t rnd_range(int32_t lo, int32_t hi) { /* inclusive */
  return rng_int(lo, hi);
}
#include "kernel_ref.h"

/* random requantization parameters for n channels of sums of `depth`
 * products (outputs of a few tens of LSB, some left shifts, some nearly
 * dead channels) */
typedef struct quant {
  int32_t q[256], s32[256];
  int8_t s[256];
  int32_t bias[256];
  int32_t zp, lo, hi;
} quant;
static void make_quant(quant *k, int32_t n, int32_t depth) {
  int32_t c;
  for (c = 0; c < n; c++) {
    const double base = 60.0 / (16384.0 * sqrt((double)depth));
    double m = base * (0.5 + (rng() % 1000) / 666.0);
    if (rng() % 16 == 0)
      m *= 300.0;
    else if (rng() % 16 == 0)
      m *= 1e-5;
    tflc_quantize_multiplier(m, &k->q[c], &k->s32[c]);
    if (k->s32[c] < -31 || k->s32[c] > 30) {
      k->q[c] = 0;
      k->s32[c] = 0;
    }
    k->s[c] = (int8_t)k->s32[c];
    k->bias[c] = rnd_range(-20000, 20000);
  }
  k->zp = rnd_range(-128, 127);
  tflc_activation_range_quantized((int)(rng() % 4), 0.05f, k->zp, -128, 127,
                                  &k->lo, &k->hi);
}
/* biases and multipliers near the int32 limits: sums that wrap */
static void make_quant_extreme(quant *k, int32_t n) {
  int32_t c;
  for (c = 0; c < n; c++) {
    k->bias[c] = (int32_t)(rng() % 2 ? 0x7FFFFFFFu - rng() % 50000u
                                     : 0x80000000u + rng() % 50000u);
    k->q[c] = 0x7FFFFFFF - (int32_t)(rng() % 1000u);
    k->s32[c] = rng() % 8 == 0 ? rnd_range(0, 3) : -rnd_range(0, 31);
    k->s[c] = (int8_t)k->s32[c];
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
  switch (rng() % 8) {
  case 0:
  case 1:
    return 0;
  case 2:
    return 128;
  case 3:
    return rng() % 2 ? 32640 : -32640; /* the largest the lanes take */
  case 4:
    return rng() % 2 ? 40000 : -1000000; /* beyond them: portable */
  default:
    return rnd_range(-127, 128);
  }
}
/* a stride or length: a multiple of 4 when aligned, half of those a
 * multiple of 8 (the HiFi 5 runs) */
static int32_t pick_len(int aligned, int32_t lo, int32_t hi) {
  const int32_t v = rnd_range(lo, hi);
  if (!aligned)
    return v;
  return rng() % 2 ? (v + 7) & ~7 : (v + 3) & ~3;
}

/* ---- GEMM ------------------------------------------------------------------
 */
/* One random block through both versions; 1 when the bytes agree. */
static int gemm_case(int aligned, int extreme) {
  quant k;
  tflc_gemm_block g;
  tflc_requant_params rq;
  const int pc = (int)(rng() % 4 != 0), wb = (int)(rng() % 4 != 0);
  const int32_t a_base = aligned ? 0 : rnd_range(0, 3);
  const int32_t w_base = aligned ? 0 : rnd_range(0, 3);
  int32_t an, wn, on;
  int8_t *a, *w, *expect, *got;
  int ok;
  g.rows = rnd_range(1, 9);
  g.cols = rnd_range(1, 40);
  g.segments = rng() % 3 == 0 ? rnd_range(0, 4) : 1;
  g.seg_len = pick_len(aligned && rng() % 4 != 0, 0, 70);
  g.a_seg = g.seg_len + pick_len(aligned, 0, 9);
  g.a_row =
      g.a_seg * (g.segments > 0 ? g.segments : 1) + pick_len(aligned, 0, 5);
  g.w_seg = g.seg_len + pick_len(aligned, 0, 3);
  g.w_col =
      g.w_seg * (g.segments > 0 ? g.segments : 1) + pick_len(aligned, 0, 5);
  g.out_row = g.cols + rnd_range(0, 3);
  g.a_offset = pick_offset();
  an = a_base + g.rows * g.a_row + 8;
  wn = w_base + g.cols * g.w_col + 8;
  on = g.rows * g.out_row;
  a = (int8_t *)malloc((size_t)an);
  w = (int8_t *)malloc((size_t)wn);
  expect = (int8_t *)malloc((size_t)on);
  got = (int8_t *)malloc((size_t)on);
  fill_s8(a, an);
  fill_s8(w, wn);
  make_quant(&k, g.cols, g.seg_len * g.segments + 1);
  if (extreme)
    make_quant_extreme(&k, g.cols);
  rq = quant_params(&k, pc, wb);
  g.a = a + a_base;
  g.w = w + w_base;
  memset(expect, 0x33, (size_t)on);
  g.out = expect;
  tflc_gemm_s8_portable(&rq, &g);
  memset(got, 0x33, (size_t)on);
  g.out = got;
  tflc_gemm_s8_hifi(&rq, &g);
  ok = memcmp(got, expect, (size_t)on) == 0;
  if (!ok)
    fprintf(stderr,
            "  gemm: %dx%d, %d x %d (a %d/%d, w %d/%d, base %d/%d), off %d\n",
            (int)g.rows, (int)g.cols, (int)g.segments, (int)g.seg_len,
            (int)g.a_row, (int)g.a_seg, (int)g.w_col, (int)g.w_seg, (int)a_base,
            (int)w_base, (int)g.a_offset);
  free(a);
  free(w);
  free(expect);
  free(got);
  return ok;
}

static void test_gemm(void) {
  int i, ok = 1;
  const long before = hifi_emu_count_mulaaaaq16;
  for (i = 0; i < 1200; i++)
    ok &= gemm_case(i % 2 == 0, i % 7 == 0);
  CHECK(ok);
  /* the aligned cases went through the HiFi loop */
  CHECK(hifi_emu_count_mulaaaaq16 - before > 100000);
}

/* The largest sums the GEMM takes to its lanes: every product
 * (-128 - 32640) * -128 in a long dot product, with and without offset. */
static void test_gemm_extremes(void) {
  static int8_t a[2 * 4096], w[4 * 4096];
  int8_t expect[8], got[8];
  int32_t q[4], b[4];
  int8_t s[4];
  tflc_requant_params rq;
  tflc_gemm_block g;
  int j, v, ok = 1;
  for (j = 0; j < 4; j++) {
    q[j] = 0x40000000;
    s[j] = (int8_t) - (20 + j);
    b[j] = j * 1000;
  }
  rq.bias = b;
  rq.multiplier = q;
  rq.shift = s;
  rq.per_channel = 1;
  rq.output_offset = 0;
  rq.act_min = -128;
  rq.act_max = 127;
  for (v = 0; v < 4; v++) {
    memset(a, v % 2 ? 127 : -128, sizeof a);
    memset(w, v / 2 ? 127 : -128, sizeof w);
    memset(&g, 0, sizeof g);
    g.rows = 2;
    g.cols = 4;
    g.segments = 2;
    g.seg_len = 2048;
    g.a = a;
    g.a_row = 4096;
    g.a_seg = 2048;
    g.w = w;
    g.w_col = 4096;
    g.w_seg = 2048;
    g.out_row = 4;
    for (j = 0; j < 3; j++) {
      g.a_offset = j == 0 ? 0 : j == 1 ? -32640 : 32640;
      g.out = expect;
      tflc_gemm_s8_portable(&rq, &g);
      g.out = got;
      tflc_gemm_s8_hifi(&rq, &g);
      ok &= memcmp(got, expect, sizeof got) == 0;
    }
  }
  CHECK(ok);
}

/* ---- depthwise -------------------------------------------------------------
 */
static int depthwise_case(int aligned, int extreme, int big) {
  quant k;
  tflc_depthwise_block b;
  tflc_requant_params rq;
  const int pc = (int)(rng() % 4 != 0), wb = (int)(rng() % 4 != 0);
  const int32_t x_base = aligned ? 0 : rnd_range(0, 3);
  const int32_t w_base = aligned ? 0 : rnd_range(0, 3);
  int32_t xn, wn, on;
  int8_t *x, *w, *expect, *got;
  int ok;
  b.channels = rnd_range(1, 40);
  switch (rng() % 6) {
  case 0:
    b.multiplier = 4;
    break;
  case 1:
    b.multiplier = 8;
    break;
  case 2:
    b.multiplier = rnd_range(2, 3);
    break;
  default:
    b.multiplier = 1;
    break;
  }
  if (aligned && rng() % 2)
    b.channels = (b.channels + 3) & ~3;
  b.pixels = rnd_range(1, 5);
  b.rows = big ? rnd_range(14, 18) : rnd_range(0, 3);
  b.cols = big ? rnd_range(14, 18) : rnd_range(0, 3);
  b.x_col = b.channels + pick_len(aligned, 0, 3);
  b.x_row = b.x_col * (b.cols + 1) + pick_len(aligned, 0, 3);
  b.x_pixel = b.x_col * rnd_range(1, 2);
  b.x_offset = pick_offset();
  b.w_col = b.channels + pick_len(aligned, 0, 3);
  b.w_row = b.w_col * b.cols + pick_len(aligned, 0, 3);
  b.out_pixel = b.channels + rnd_range(0, 3);
  xn =
      x_base + b.x_row * b.rows + b.x_pixel * 5 + b.x_col * b.cols + b.channels;
  wn = w_base + b.w_row * b.rows + b.w_col * b.cols + b.channels;
  on = b.out_pixel * b.pixels;
  x = (int8_t *)malloc((size_t)xn);
  w = (int8_t *)malloc((size_t)wn);
  expect = (int8_t *)malloc((size_t)on);
  got = (int8_t *)malloc((size_t)on);
  fill_s8(x, xn);
  fill_s8(w, wn);
  make_quant(&k, b.channels, b.rows * b.cols + 1);
  if (extreme)
    make_quant_extreme(&k, b.channels);
  rq = quant_params(&k, pc, wb);
  b.x = x + x_base;
  b.w = w + w_base;
  memset(expect, 0x33, (size_t)on);
  b.out = expect;
  tflc_depthwise_s8_portable(&rq, &b);
  memset(got, 0x33, (size_t)on);
  b.out = got;
  tflc_depthwise_s8_hifi(&rq, &b);
  ok = memcmp(got, expect, (size_t)on) == 0;
  if (!ok)
    fprintf(stderr,
            "  depthwise: %d ch x%d, %d px, %dx%d (x %d/%d/%d, w %d/%d, "
            "base %d/%d), off %d\n",
            (int)b.channels, (int)b.multiplier, (int)b.pixels, (int)b.rows,
            (int)b.cols, (int)b.x_row, (int)b.x_col, (int)b.x_pixel,
            (int)b.w_row, (int)b.w_col, (int)x_base, (int)w_base,
            (int)b.x_offset);
  free(x);
  free(w);
  free(expect);
  free(got);
  return ok;
}

static void test_depthwise(void) {
  int i, ok = 1;
  const long before = hifi_emu_count_mula16x4;
  for (i = 0; i < 1200; i++)
    ok &= depthwise_case(i % 2 == 0, i % 7 == 0, i % 50 == 3);
  CHECK(ok);
  CHECK(hifi_emu_count_mula16x4 - before > 10000);
}

/* The largest sums the depthwise takes to its 32-bit lanes: 16 x 16 taps of
 * (-128 - 32640) * -128, and 23 x 23 (beyond the bound, where 32-bit lanes
 * would overflow: portable). */
static void test_depthwise_extremes(void) {
  static int8_t x[23 * 23 * 8], w[23 * 23 * 8];
  int8_t expect[8], got[8];
  int32_t q[8], bias[8];
  int8_t s[8];
  tflc_requant_params rq;
  tflc_depthwise_block b;
  int j, n, v, ok = 1;
  for (j = 0; j < 8; j++) {
    q[j] = 0x40000000;
    s[j] = (int8_t) - (24 + j % 4);
    bias[j] = -j * 1000;
  }
  rq.bias = bias;
  rq.multiplier = q;
  rq.shift = s;
  rq.per_channel = 1;
  rq.output_offset = 0;
  rq.act_min = -128;
  rq.act_max = 127;
  for (n = 16; n <= 23; n += 7)
    for (v = 0; v < 4; v++) {
      memset(x, v % 2 ? 127 : -128, sizeof x);
      memset(w, v / 2 ? 127 : -128, sizeof w);
      memset(&b, 0, sizeof b);
      b.channels = 8;
      b.multiplier = 1;
      b.pixels = 1;
      b.rows = b.cols = n;
      b.x = x;
      b.x_col = 8;
      b.x_row = 8 * n;
      b.w = w;
      b.w_col = 8;
      b.w_row = 8 * n;
      b.out_pixel = 8;
      for (j = 0; j < 3; j++) {
        b.x_offset = j == 0 ? 0 : j == 1 ? -32640 : 32640;
        b.out = expect;
        tflc_depthwise_s8_portable(&rq, &b);
        b.out = got;
        tflc_depthwise_s8_hifi(&rq, &b);
        ok &= memcmp(got, expect, sizeof got) == 0;
      }
    }
  CHECK(ok);
}

/* ---- kernels ----------------------------------------------------------------
 */
/* A filter whose values come from a palette of 16 per channel (channels on
 * the first axis, or the last when alt), LUT-compressed at 4 bits. */
typedef struct lut4 {
  uint8_t *bits;
  int8_t values[256 * 16];
  tflc_const c;
} lut4;
static void lut4_make(lut4 *t, int8_t *data, int32_t count, int32_t channels,
                      int alt) {
  const int32_t epc = alt ? 1 : count / channels;
  int32_t i;
  t->bits = (uint8_t *)calloc((size_t)(count + 1) / 2 + 1, 1);
  fill_s8(t->values, channels * 16);
  for (i = 0; i < count; i++) {
    const int32_t ch = alt ? i % channels : i / epc;
    const uint8_t idx = (uint8_t)(rng() % 16);
    data[i] = t->values[ch * 16 + idx];
    t->bits[i / 2] = (uint8_t)(t->bits[i / 2] | (i % 2 ? idx : idx << 4));
  }
  t->c = tflc_const_lut(t->bits, t->values, TFLC_INT8, count, 4, channels, 16,
                        alt);
}

static const size_t scratch_sizes[3] = {0, 512, 4096};

/* The kernel once with the portable primitives, once with the HiFi ones. */
typedef struct kernel_run {
  int kind; /* 0 conv, 1 depthwise, 2 fully connected */
  tflc_conv_params p;
  tflc_fc_params fp;
  int32_t in_dims[4], f_dims[4], out_dims[4];
  int32_t batches, depth, outs;
  const int8_t *in;
  const tflc_const *filter, *bias;
  int32_t out_n;
} kernel_run;

static void kernel_once(const kernel_run *k, int8_t *out, void *scratch,
                        size_t scratch_bytes) {
  if (k->kind == 0)
    tflc_conv2d_s8(&k->p, k->in_dims, k->in, k->f_dims, k->filter, k->bias,
                   k->out_dims, out, scratch, scratch_bytes);
  else if (k->kind == 1)
    tflc_depthwise_conv2d_s8(&k->p, k->in_dims, k->in, k->f_dims, k->filter,
                             k->bias, k->out_dims, out, scratch, scratch_bytes);
  else
    tflc_fully_connected_s8(&k->fp, k->batches, k->depth, k->outs, k->in,
                            k->filter, k->bias, out, scratch, scratch_bytes);
}

/* 1 when the HiFi primitives give the portable bytes at every scratch
 * size */
static int kernel_compare(const kernel_run *k) {
  int8_t *expect = (int8_t *)malloc((size_t)k->out_n);
  int8_t *got = (int8_t *)malloc((size_t)k->out_n);
  int t, ok = 1;
  for (t = 0; t < 3; t++) {
    void *scratch = scratch_sizes[t] ? malloc(scratch_sizes[t]) : NULL;
    memset(expect, 0x5A, (size_t)k->out_n);
    memset(got, 0x5A, (size_t)k->out_n);
    test_gemm_impl = tflc_gemm_s8_portable;
    test_depthwise_impl = tflc_depthwise_s8_portable;
    kernel_once(k, expect, scratch, scratch_sizes[t]);
    test_gemm_impl = tflc_gemm_s8_hifi;
    test_depthwise_impl = tflc_depthwise_s8_hifi;
    kernel_once(k, got, scratch, scratch_sizes[t]);
    ok &= memcmp(got, expect, (size_t)k->out_n) == 0;
    free(scratch);
  }
  free(expect);
  free(got);
  return ok;
}

static void out_size(int32_t in, int32_t k, int32_t stride, int32_t dil,
                     int same, int32_t *out, int32_t *pad) {
  const int32_t eff = (k - 1) * dil + 1;
  int32_t total;
  *out = same ? (in + stride - 1) / stride : (in - eff + stride) / stride;
  if (*out < 1)
    *out = 1;
  total = (*out - 1) * stride + eff - in;
  *pad = total > 0 ? total / 2 : 0;
}

static int conv_case(int dw) {
  kernel_run k;
  quant q;
  int32_t h, w, cin, cout, kh, kw, mult = 1, in_n, f_n, mode, oh, ow;
  int8_t *in, *f;
  const int same = (int)(rng() % 2), wb = (int)(rng() % 4 != 0);
  const int32_t in_base = rng() % 4 == 0 ? rnd_range(1, 3) : 0;
  tflc_const braw;
  int ok = 1;
  memset(&k, 0, sizeof k);
  k.kind = dw;
  h = rnd_range(1, 10);
  w = rnd_range(1, 10);
  kh = rng() % 3 == 0 ? 1 : rnd_range(1, 4);
  kw = rng() % 3 == 0 ? 1 : rnd_range(1, 4);
  k.p.stride_h = rnd_range(1, 2);
  k.p.stride_w = rnd_range(1, 2);
  k.p.dilation_h = rng() % 5 == 0 ? 2 : 1;
  k.p.dilation_w = rng() % 5 == 0 ? 2 : 1;
  if (!same) {
    while ((kh - 1) * k.p.dilation_h + 1 > h) {
      if (k.p.dilation_h > 1)
        k.p.dilation_h = 1;
      else
        kh--;
    }
    while ((kw - 1) * k.p.dilation_w + 1 > w) {
      if (k.p.dilation_w > 1)
        k.p.dilation_w = 1;
      else
        kw--;
    }
  }
  out_size(h, kh, k.p.stride_h, k.p.dilation_h, same, &oh, &k.p.pad_h);
  out_size(w, kw, k.p.stride_w, k.p.dilation_w, same, &ow, &k.p.pad_w);
  /* channel counts that are multiples of 4 half of the time (aligned rows) */
  cin = rnd_range(1, dw ? 48 : 40);
  if (rng() % 2)
    cin = (cin + 3) & ~3;
  if (dw && rng() % 4 == 0) {
    cin = rnd_range(1, 4);
    mult = rng() % 2 ? 4 * rnd_range(1, 3) : rnd_range(2, 6);
  }
  cout = dw ? cin * mult : rnd_range(1, 48);
  if (!dw && rng() % 2)
    cout = (cout + 3) & ~3;
  in_n = 2 * h * w * cin;
  f_n = kh * kw * cout * (dw ? 1 : cin);
  in = (int8_t *)malloc((size_t)(in_n + in_base));
  f = (int8_t *)malloc((size_t)f_n);
  fill_s8(in, in_n + in_base);
  make_quant(&q, cout, kh * kw * (dw ? 1 : cin));
  k.in_dims[0] = 2;
  k.in_dims[1] = h;
  k.in_dims[2] = w;
  k.in_dims[3] = cin;
  k.f_dims[0] = dw ? 1 : cout;
  k.f_dims[1] = kh;
  k.f_dims[2] = kw;
  k.f_dims[3] = dw ? cout : cin;
  k.out_dims[0] = 2;
  k.out_dims[1] = oh;
  k.out_dims[2] = ow;
  k.out_dims[3] = cout;
  k.out_n = 2 * oh * ow * cout;
  k.p.depth_multiplier = mult;
  k.p.input_offset =
      rng() % 4 == 0 ? -rnd_range(-128, 127) : 128 - (int32_t)(rng() % 2);
  k.p.output_offset = q.zp;
  k.p.act_min = q.lo;
  k.p.act_max = q.hi;
  k.p.out_multiplier = q.q;
  k.p.out_shift = q.s;
  k.in = in + in_base;
  braw = tflc_const_raw(q.bias, TFLC_INT32, cout);
  k.bias = wb ? &braw : NULL;
  for (mode = 0; mode < 3; mode++) {
    lut4 lut;
    tflc_const fc;
    lut4_make(&lut, f, f_n, mode == 2 ? cout : 1, dw && mode == 2);
    fc = mode == 0 ? tflc_const_raw(f, TFLC_INT8, f_n) : lut.c;
    k.filter = &fc;
    ok &= kernel_compare(&k);
    free(lut.bits);
  }
  if (!ok)
    fprintf(stderr, "  %s: %dx%dx%d -> %d, k%dx%d s%d,%d, in_off %d\n",
            dw ? "depthwise" : "conv", (int)h, (int)w, (int)cin, (int)cout,
            (int)kh, (int)kw, (int)k.p.stride_h, (int)k.p.stride_w,
            (int)k.p.input_offset);
  free(in);
  free(f);
  return ok;
}

static int fc_case(void) {
  kernel_run k;
  quant q;
  int8_t *in, *f;
  tflc_const braw;
  int mode, ok = 1;
  const int wb = (int)(rng() % 4 != 0);
  memset(&k, 0, sizeof k);
  k.kind = 2;
  k.batches = rng() % 3 == 0 ? rnd_range(4, 9) : rnd_range(1, 3);
  k.depth = rnd_range(1, 300);
  if (rng() % 2)
    k.depth = (k.depth + 3) & ~3;
  k.outs = rnd_range(1, 70);
  k.out_n = k.batches * k.outs;
  in = (int8_t *)malloc((size_t)(k.batches * k.depth));
  f = (int8_t *)malloc((size_t)(k.outs * k.depth));
  fill_s8(in, k.batches * k.depth);
  make_quant(&q, k.outs, k.depth);
  k.fp.input_offset = -rnd_range(-128, 127);
  k.fp.output_offset = q.zp;
  k.fp.act_min = q.lo;
  k.fp.act_max = q.hi;
  k.fp.per_channel = (int32_t)(rng() % 2);
  k.fp.out_multiplier = q.q;
  k.fp.out_shift = q.s;
  k.in = in;
  braw = tflc_const_raw(q.bias, TFLC_INT32, k.outs);
  k.bias = wb ? &braw : NULL;
  for (mode = 0; mode < 3; mode++) {
    lut4 lut;
    tflc_const fc;
    lut4_make(&lut, f, k.outs * k.depth, mode == 2 ? k.outs : 1, 0);
    fc = mode == 0 ? tflc_const_raw(f, TFLC_INT8, k.outs * k.depth) : lut.c;
    k.filter = &fc;
    ok &= kernel_compare(&k);
    free(lut.bits);
  }
  free(in);
  free(f);
  return ok;
}

static void test_kernels(void) {
  int i, ok_conv = 1, ok_dw = 1, ok_fc = 1;
  const long g0 = hifi_emu_count_mulaaaaq16, d0 = hifi_emu_count_mula16x4;
  test_gemm_calls = test_depthwise_calls = 0;
  for (i = 0; i < 120; i++) {
    ok_conv &= conv_case(0);
    ok_dw &= conv_case(1);
    ok_fc &= fc_case();
  }
  CHECK(ok_conv);
  CHECK(ok_dw);
  CHECK(ok_fc);
  /* the kernels went through the primitives, and the HiFi loops ran */
  CHECK(test_gemm_calls > 1000);
  CHECK(test_depthwise_calls > 1000);
  CHECK(hifi_emu_count_mulaaaaq16 - g0 > 10000);
  CHECK(hifi_emu_count_mula16x4 - d0 > 10000);
}

/* The HiFi 5 runs (AE_MULA8Q8X8) ran in a HiFi 5 build, and only there. */
static void test_hifi5_runs(void) {
#if defined(XCHAL_HAVE_HIFI5) && XCHAL_HAVE_HIFI5
  CHECK(hifi_emu_count_mula8q8x8 > 100000);
#else
  CHECK(hifi_emu_count_mula8q8x8 == 0);
#endif
}

/* Last: no misaligned load, no overflowing lane or sum and no misused
 * load stream in any of the above (see tests/hifi_emu.h). */
static void test_emulation_clean(void) {
  CHECK_EQ_INT(hifi_emu_misaligned, 0);
  CHECK_EQ_INT(hifi_emu_overflows, 0);
  CHECK_EQ_INT(hifi_emu_stream_errors, 0);
}

/* The emulation's checks themselves: they do see a misaligned load and an
 * overflowing lane (so the zeros above mean something). */
static void test_emulation_checks(void) {
  static union {
    int32_t align;
    int8_t b[8];
  } u = {0};
  int8_t *const buf = u.b;
  const long m0 = hifi_emu_misaligned, v0 = hifi_emu_overflows;
  ae_int16x4 d, e;
  ae_int32x2 q1 = AE_ZERO32(), q0 = AE_ZERO32();
  int i;
  for (i = 0; i < 8; i++)
    buf[i] = (int8_t)(i + 1);
  d = AE_L8X4F_I(buf + 4, 0);
  /* byte at the lowest address in lane 3, as value * 256 */
  CHECK(d.h[3] == 5 * 256 && d.h[0] == 8 * 256);
  CHECK(hifi_emu_misaligned == m0);
  d = AE_L8X4F_I(buf + 1, 0);
  CHECK(hifi_emu_misaligned == m0 + 1);
  e = AE_ADD16(AE_MOVDA16(32767), AE_MOVDA16(1));
  CHECK(hifi_emu_overflows == v0 + 4 && e.h[0] == -32768);
  AE_MULA16X4(q1, q0, AE_MOVDA16(3), AE_SRAI16(d, 8));
  CHECK(AE_MOVAD32_H(q1) == 3 && AE_MOVAD32_L(q0) == 12);
  {
    /* a stream read in order, then one read out of order */
    const ae_int8x8 *pp = (const ae_int8x8 *)(const void *)buf;
    ae_valign va = AE_LA64_PP(pp);
    ae_int8x8 x;
    const long s0 = hifi_emu_stream_errors;
    AE_LA8X8_IP(x, va, pp);
    CHECK(x.b[0] == 1 && x.b[7] == 8 && hifi_emu_stream_errors == s0);
    pp = (const ae_int8x8 *)(const void *)buf;
    AE_LA8X8_IP(x, va, pp);
    CHECK(hifi_emu_stream_errors == s0 + 1);
    hifi_emu_stream_errors = s0;
  }
  hifi_emu_misaligned = m0;
  hifi_emu_overflows = v0;
}

int main(void) {
  rng_seed(2718u);
  RUN(test_emulation_checks);
  RUN(test_gemm);
  RUN(test_gemm_extremes);
  RUN(test_depthwise);
  RUN(test_depthwise_extremes);
  RUN(test_kernels);
  RUN(test_hifi5_runs);
  RUN(test_emulation_clean);
  printf("HiFi loops: %ld AE_MULAAAAQ16, %ld AE_MULA16X4, %ld AE_MULA8Q8X8\n",
         hifi_emu_count_mulaaaaq16, hifi_emu_count_mula16x4,
         hifi_emu_count_mula8q8x8);
  return harness_report();
}

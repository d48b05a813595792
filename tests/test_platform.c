/* tests/test_platform.c - the platform seam of tflc_kernels.h and its fast
 * paths.
 *
 * Built with TFLC_PLATFORM_HEADER (tests/platform_count.h replaces the
 * GEMM and depthwise primitives with call counters that forward to the
 * implementation picked at run time) and TFLC_DSP_EMULATE (the Arm DSP
 * primitives compiled on this host over C definitions of the ACLE
 * intrinsics). Checks:
 *  - each primitive, portable version, against a naive reference written
 *    here (64-bit sums, its own MultiplyByQuantizedMultiplier);
 *  - each DSP primitive against the portable one, byte for byte, on random
 *    shapes, strides, offsets and requantization parameters;
 *  - CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED int8 kernels on random
 *    shapes (channels and depths large enough for every blocked path, raw
 *    and LUT-compressed filters, several scratch sizes) against naive
 *    references, once with the portable primitives and once with the DSP
 *    ones, and that the kernels do call the replaced primitives. */
#if !defined(__ARM_FEATURE_DSP)
#define TFLC_DSP_EMULATE /* on Arm cores with DSP: the real instructions */
#endif
#define TFLC_PLATFORM_HEADER "tests/platform_count.h"
#define TFLC_DW3_LAYER_TEST     /* the DSP depthwise layer paths */
#define TFLC_MVE_DW3_LAYER_TEST /* tflc__mve_dw3x3_layer, likewise */
#define TFLC_CONV_WIDE_TEST     /* tflc__conv2d_s8_im2col_dsp, likewise */
#define TFLC_KERNELS_IMPLEMENTATION
#include "../tflc_kernels.h"
#include "harness.h"

#include <stdlib.h>

/* the harness's generator (seeded in main) */
static uint32_t rnd(void) {
  return rng();
}
static int32_t rnd_range(int32_t lo, int32_t hi) { /* inclusive */
  return rng_int(lo, hi);
}
#include "kernel_ref.h"

/* random requantization parameters for n channels with sums of `depth`
 * products: outputs of a few tens of LSB, sometimes a left shift */
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
    double m = base * (0.5 + (rnd() % 1000) / 666.0);
    if (rnd() % 16 == 0)
      m *= 300.0; /* multiplier above one: left shift */
    else if (rnd() % 16 == 0)
      m *= 1e-5; /* nearly dead channel: right shift beyond 23 */
    tflc_quantize_multiplier(m, &k->q[c], &k->s32[c]);
    if (k->s32[c] < -31 || k->s32[c] > 30) {
      k->q[c] = 0;
      k->s32[c] = 0;
    }
    k->s[c] = (int8_t)k->s32[c];
    k->bias[c] = rnd_range(-20000, 20000);
  }
  k->zp = rnd_range(-128, 127);
  tflc_activation_range_quantized((int)(rnd() % 4), 0.05f, k->zp, -128, 127,
                                  &k->lo, &k->hi);
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
static int pick_offset(void) {
  switch (rnd() % 8) {
  case 0:
    return 0;
  case 1:
    return 128;
  case 2:
    return -127;
  case 3:
    return rnd_range(-32640, 32640); /* still exact in 16-bit lanes */
  case 4:
    return rnd() % 2 ? 40000 : -1000000; /* beyond them: wrapping sums */
  default:
    return rnd_range(-127, 128);
  }
}

/* ---- primitives ------------------------------------------------------------
 */
static void test_requantize(void) {
  int i, ok = 1;
  for (i = 0; i < 200; i++) {
    quant k;
    int32_t acc[64], c, n = rnd_range(1, 64);
    int8_t got[64], expect[64];
    const int pc = (int)(rnd() % 2), wb = (int)(rnd() % 2);
    tflc_requant_params rq;
    make_quant(&k, n, rnd_range(1, 500));
    rq = quant_params(&k, pc, wb);
    for (c = 0; c < n; c++) {
      acc[c] = (int32_t)rnd();
      if (rnd() % 2)
        acc[c] >>= rnd_range(8, 24);
      expect[c] = ref_out((int64_t)acc[c] + (wb ? k.bias[c] : 0),
                          k.q[pc ? c : 0], k.s32[pc ? c : 0], k.zp, k.lo, k.hi);
    }
    tflc_requantize_s8_portable(&rq, n, acc, got);
    ok &= memcmp(got, expect, (size_t)n) == 0;
  }
  CHECK(ok);
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

static void test_gemm_primitives(void) {
  int i, ok_ref = 1, ok_dsp = 1;
  for (i = 0; i < 400; i++) {
    quant k;
    tflc_gemm_block g;
    const int pc = (int)(rnd() % 4 != 0), wb = (int)(rnd() % 4 != 0);
    int32_t an, wn, on;
    int8_t *a, *w, *expect, *got;
    tflc_requant_params rq;
    g.rows = rnd_range(1, 9);
    g.cols = rnd_range(1, 40);
    g.segments = rnd() % 3 == 0 ? rnd_range(0, 4) : 1;
    g.seg_len = rnd_range(0, 70);
    g.a_seg = g.seg_len + rnd_range(0, 9);
    g.a_row = g.a_seg * (g.segments > 0 ? g.segments : 1) + rnd_range(0, 5);
    g.w_seg = g.seg_len + rnd_range(0, 3);
    g.w_col = g.w_seg * (g.segments > 0 ? g.segments : 1) + rnd_range(0, 5);
    g.out_row = g.cols + rnd_range(0, 3);
    g.a_offset = pick_offset();
    if (i % 3 == 0) {
      /* pointwise shape: one segment of a multiple of four, no offset,
       * rows and weight rows equally far apart */
      g.rows = rnd_range(1, 20);
      g.cols = 2 * rnd_range(1, 20);
      g.segments = 1;
      g.seg_len = 4 * rnd_range(1, 20);
      g.a_row = g.w_col = g.seg_len + 4 * rnd_range(0, 1);
      g.a_offset = 0;
      g.out_row = g.cols + rnd_range(0, 3);
    }
    an = g.rows * g.a_row + 8;
    wn = g.cols * g.w_col + 8;
    on = g.rows * g.out_row;
    a = (int8_t *)malloc((size_t)an);
    w = (int8_t *)malloc((size_t)wn);
    expect = (int8_t *)malloc((size_t)on);
    got = (int8_t *)malloc((size_t)on);
    make_quant(&k, g.cols, g.seg_len * g.segments + 1);
    if (i % 7 == 0) {
      /* sums near the int32 limits: biases there, multipliers near one
       * and right shifts of 1..23 (the DSP rounding's saturating add) */
      int32_t c;
      for (c = 0; c < g.cols; c++) {
        k.bias[c] = (int32_t)(rnd() % 2 ? 0x7FFFFFFFu - rnd() % 50000u
                                        : 0x80000000u + rnd() % 50000u);
        k.q[c] = 0x7FFFFFFF - (int32_t)(rnd() % 1000u);
        k.s32[c] = rnd() % 8 == 0 ? rnd_range(0, 3) : -rnd_range(0, 31);
        k.s[c] = (int8_t)k.s32[c];
      }
    }
    rq = quant_params(&k, pc, wb);
    fill_s8(a, an);
    fill_s8(w, wn);
    g.a = a;
    g.w = w;
    memset(expect, 0x33, (size_t)on);
    g.out = expect;
    ref_gemm(&k, pc, wb, &g);
    memset(got, 0x33, (size_t)on);
    g.out = got;
    tflc_gemm_s8_portable(&rq, &g);
    ok_ref &= memcmp(got, expect, (size_t)on) == 0;
    memset(got, 0x33, (size_t)on);
    tflc_gemm_s8_dsp(&rq, &g);
    ok_dsp &= memcmp(got, expect, (size_t)on) == 0;
    free(a);
    free(w);
    free(expect);
    free(got);
  }
  CHECK(ok_ref);
  CHECK(ok_dsp);
}

/* The DSP GEMM's 2 x 2 blocks requantized in the assembly loop (no input
 * offset, runs of a multiple of four values) against the reference and the
 * portable GEMM: the pointwise shapes (one run, input and weight rows
 * equally far apart) and the windows of convolutions (several runs, rows
 * at different distances, overlapping input rows); odd and even rows and
 * columns, runs of 4 (mod 8) and 0 (mod 8) values, per-channel and
 * per-tensor, with and without biases, biases and multipliers near the
 * int32 limits, sums at the bound of the blocks' requantization (and
 * beyond it: the other paths), output zero points anywhere in int8,
 * saturation to int8 (act none) and clamps. */
static void gemm_sat_blocks(int pre) {
  int i, ok_ref = 1, ok_dsp = 1, took = 0;
  for (i = 0; i < 400; i++) {
    quant k;
    tflc_gemm_block g;
    const int pc = (int)(rnd() % 4 != 0), wb = (int)(rnd() % 4 != 0);
    int32_t an, wn, on, c;
    int8_t *a, *w, *expect, *got;
    tflc_requant_params rq;
    g.rows = rnd() % 4 == 0 ? rnd_range(2, 5) : rnd_range(2, 40);
    g.cols = 2 * rnd_range(1, 12);
    g.segments = 1;
    g.seg_len = 4 * rnd_range(1, 40);
    g.a_row = g.w_col = g.seg_len + 4 * rnd_range(0, 2);
    g.a_seg = g.w_seg = 0;
    g.a_offset = 0;
    g.out_row = g.cols + rnd_range(0, 5);
    if (pre) /* tflc__dsp_gemm_pre's runs: 8, 16, 32, 48, 64 */
      g.seg_len = rnd() % 5 == 0 ? 8 : 16 * rnd_range(1, 4);
    if (pre)
      g.a_row = g.w_col = g.seg_len + 4 * rnd_range(0, 2);
    if (i % 2 == 1 && !pre) {
      /* the convolution's windows read in place: several runs, input and
       * weight rows at different distances, odd column counts */
      g.cols = rnd_range(1, 24);
      g.segments = rnd_range(1, 4);
      g.seg_len = 4 * rnd_range(1, 16);
      g.a_seg = g.seg_len + rnd_range(0, 9);
      g.a_row = rnd() % 2 ? rnd_range(1, 3) * 4 : g.a_seg * g.segments + 3;
      g.w_seg = g.seg_len + rnd_range(0, 3);
      g.w_col = g.w_seg * g.segments + rnd_range(0, 5);
      g.out_row = g.cols + rnd_range(0, 5);
    }
    an = g.rows * g.a_row + g.segments * g.a_seg + 8;
    wn = g.cols * g.w_col + 8;
    on = g.rows * g.out_row;
    a = (int8_t *)malloc((size_t)an);
    w = (int8_t *)malloc((size_t)wn);
    expect = (int8_t *)malloc((size_t)on);
    got = (int8_t *)malloc((size_t)on);
    make_quant(&k, g.cols, g.seg_len * g.segments + 1);
    if (rnd() % 4 != 0) {
      /* no activation: the outputs saturate to int8 */
      k.lo = -128;
      k.hi = 127;
    }
    if (i % 5 == 0)
      for (c = 0; c < g.cols; c++) {
        /* sums near the int32 limits, multipliers near one, right shifts
         * of 1..23 (the saturating add of the rounding) and 24..31 */
        k.bias[c] = (int32_t)(rnd() % 2 ? 0x7FFFFFFFu - rnd() % 50000u
                                        : 0x80000000u + rnd() % 50000u);
        k.q[c] = 0x7FFFFFFF - (int32_t)(rnd() % 1000u);
        k.s32[c] = rnd() % 3 == 0 ? -rnd_range(24, 31) : -rnd_range(1, 23);
        k.s[c] = (int8_t)k.s32[c];
      }
    if (i % 5 == 1)
      for (c = 0; c < g.cols; c++) {
        /* small sums (inputs -1..1 below) halved, right shifts of 1..3 (a
         * rounding tie at every other output) beside ones of 24..31 */
        k.bias[c] = rnd_range(-300, 300);
        k.q[c] = 0x40000000 + (int32_t)(rnd() % 3u);
        k.s32[c] = rnd() % 3 == 0 ? -rnd_range(24, 31) : -rnd_range(1, 3);
        k.s[c] = (int8_t)k.s32[c];
      }
    if (i % 5 == 2)
      for (c = 0; c < g.cols; c++) {
        /* sums at the bound of the assembly blocks' requantization
         * (|sum| <= 2^30 - 1, tflc__dsp_fits30): inputs and weights of
         * +-128 below, biases a few units inside or beyond it, right
         * shifts of 1..23 */
        const int32_t lim =
            (int32_t)((1 << 30) - 1 - g.seg_len * g.segments * 16384);
        const int32_t b = lim + rnd_range(-2, 2);
        k.bias[c] = rnd() % 2 ? b : -b;
        k.s32[c] = -rnd_range(1, 23);
        k.s[c] = (int8_t)k.s32[c];
      }
    rq = quant_params(&k, pc, wb);
    fill_s8(a, an);
    fill_s8(w, wn);
    if (i % 5 == 1) {
      int32_t d;
      for (d = 0; d < an; d++)
        a[d] = (int8_t)((a[d] & 3) == 3 ? 0 : (a[d] & 3) - 1);
    }
    if (i % 5 == 2) {
      /* sums of +-2^14 a product, both signs: whole rows of -128 against
       * weights all -128 or all 127... (the largest) and random ones */
      int32_t d, sg;
      memset(a, rnd() % 4 == 0 ? 127 : -128, (size_t)an);
      for (d = 0; d < wn; d++)
        w[d] = (int8_t)(rnd() % 2 ? -128 : 127);
      for (c = 0; c < g.cols; c++)
        for (sg = 0; sg < g.segments && rnd() % 4 != 0; sg++)
          memset(w + (ptrdiff_t)c * g.w_col + (ptrdiff_t)sg * g.w_seg,
                 rnd() % 4 == 0 ? 127 : -128, (size_t)g.seg_len);
    }
    g.a = a;
    g.w = w;
    memset(expect, 0x33, (size_t)on);
    g.out = expect;
    ref_gemm(&k, pc, wb, &g);
    memset(got, 0x33, (size_t)on);
    g.out = got;
    tflc_gemm_s8_portable(&rq, &g);
    ok_ref &= memcmp(got, expect, (size_t)on) == 0;
    memset(got, 0x33, (size_t)on);
    tflc_gemm_s8_dsp(&rq, &g);
    ok_dsp &= memcmp(got, expect, (size_t)on) == 0;
#if defined(TFLC_HAVE_DSP)
    if (pre) {
      /* the widened-weights path itself (its C form on the host, its
       * assembly on the M4): when it takes the block, the same bytes */
      memset(got, 0x33, (size_t)on);
      if (tflc__dsp_gemm_pre(&rq, &g) == g.cols) {
        if (g.rows & 1) /* (the last row: tflc__dsp_gemm_last_row's) */
          tflc__dsp_gemm_last_row(&rq, &g, 0, g.cols);
        took++;
        ok_dsp &= memcmp(got, expect, (size_t)on) == 0;
      }
    }
#endif
    free(a);
    free(w);
    free(expect);
    free(got);
  }
  CHECK(ok_ref);
  CHECK(ok_dsp);
#if defined(TFLC_HAVE_DSP)
  CHECK(!pre || took >= 100); /* (the blocks it takes: about half) */
#else
  (void)took;
#endif
}
static void test_gemm_sat_blocks(void) {
  gemm_sat_blocks(0);
}
/* the same through the DSP GEMM's path with each pair of columns' weights
 * widened once (runs of 16..64 values, tflc__dsp_gemm_pre), which it
 * takes where every channel is simple, every sum within its bound and the
 * outputs saturate to int8 */
static void test_gemm_pre_blocks(void) {
  gemm_sat_blocks(1);
}

#if defined(TFLC__SUM_S8_IS_DSP)
/* The DSP sum of int8 rows (the folded input offsets) against a plain
 * loop: lengths 0..3000 (the 16-bit lanes summed every 255 words), random
 * rows and rows of -128 or 127 only (the lanes' largest magnitudes) */
static void test_dsp_sum_s8(void) {
  static int8_t row[3004];
  int i, ok = 1;
  for (i = 0; i < 200; i++) {
    const int32_t n = i < 20 ? i : rnd_range(0, 3000);
    const int32_t off = rnd_range(0, 3);
    int32_t k, expect = 0;
    fill_s8(row, (int32_t)sizeof row);
    if (i % 4 == 1)
      memset(row, 0x80, sizeof row);
    else if (i % 4 == 2)
      memset(row, 0x7F, sizeof row);
    for (k = 0; k < n; k++)
      expect += row[off + k];
    ok &= tflc__sum_s8_dsp(row + off, n) == expect;
  }
  CHECK(ok);
}
#endif

static void ref_depthwise_block(const quant *k, int pc, int wb,
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

static void test_depthwise_primitives(void) {
  int i, ok_ref = 1, ok_dsp = 1;
  for (i = 0; i < 400; i++) {
    quant k;
    tflc_depthwise_block b;
    tflc_requant_params rq;
    const int pc = (int)(rnd() % 4 != 0), wb = (int)(rnd() % 4 != 0);
    int32_t xn, wn, on;
    int8_t *x, *w, *expect, *got;
    b.channels = rnd_range(1, 40);
    switch (rnd() % 6) {
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
    b.pixels = rnd_range(1, 5);
    b.rows = rnd_range(0, 3);
    b.cols = rnd_range(0, 3);
    b.x_col = b.channels + rnd_range(0, 3);
    b.x_row = b.x_col * 4 + rnd_range(0, 3);
    b.x_pixel = b.x_col * rnd_range(1, 2);
    b.x_offset = pick_offset();
    b.w_col = b.channels + rnd_range(0, 3);
    b.w_row = b.w_col * 3 + rnd_range(0, 3);
    b.out_pixel = b.channels + rnd_range(0, 3);
    xn = b.x_row * 3 + b.x_pixel * 5 + b.x_col * 3 + b.channels;
    wn = b.w_row * 3 + b.w_col * 3 + b.channels;
    on = b.out_pixel * b.pixels;
    x = (int8_t *)malloc((size_t)xn);
    w = (int8_t *)malloc((size_t)wn);
    expect = (int8_t *)malloc((size_t)on);
    got = (int8_t *)malloc((size_t)on);
    fill_s8(x, xn);
    fill_s8(w, wn);
    make_quant(&k, b.channels, 9);
    rq = quant_params(&k, pc, wb);
    b.x = x;
    b.w = w;
    memset(expect, 0x33, (size_t)on);
    b.out = expect;
    ref_depthwise_block(&k, pc, wb, &b);
    memset(got, 0x33, (size_t)on);
    b.out = got;
    tflc_depthwise_s8_portable(&rq, &b);
    ok_ref &= memcmp(got, expect, (size_t)on) == 0;
    memset(got, 0x33, (size_t)on);
    tflc_depthwise_s8_dsp(&rq, &b);
    ok_dsp &= memcmp(got, expect, (size_t)on) == 0;
    free(x);
    free(w);
    free(expect);
    free(got);
  }
  CHECK(ok_ref);
  CHECK(ok_dsp);
}

static void test_lut_unpack(void) {
  int i, ok = 1, ok_dsp = 1;
  for (i = 0; i < 500; i++) {
    uint8_t src[80], tab[256], got[640], expect[640];
    const unsigned bits = (unsigned)rnd_range(1, 8);
    const unsigned bit = (unsigned)rnd_range(0, 7);
    const int32_t n = rnd_range(0, (int32_t)((sizeof src * 8 - bit) / bits));
    int32_t j;
    for (j = 0; j < (int32_t)sizeof src; j++)
      src[j] = (uint8_t)rnd();
    for (j = 0; j < 256; j++)
      tab[j] = (uint8_t)rnd();
    for (j = 0; j < n; j++) {
      const unsigned pos = bit + (unsigned)j * bits;
      unsigned v = 0, b;
      for (b = 0; b < bits; b++)
        v = (v << 1) |
            (((unsigned)src[(pos + b) / 8] >> (7u - (pos + b) % 8u)) & 1u);
      expect[j] = tab[v];
    }
    tflc_lut_unpack_portable(src, bit, n, bits, tab, got);
    ok &= memcmp(got, expect, (size_t)n) == 0;
#if defined(TFLC_HAVE_DSP_LUT_UNPACK)
    memset(got, 0x5A, sizeof got);
    tflc_lut_unpack_dsp(src, bit, n, bits, tab, got);
    ok_dsp &= memcmp(got, expect, (size_t)n) == 0;
#endif
  }
  CHECK(ok);
  CHECK(ok_dsp);
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
    const uint8_t idx = (uint8_t)(rnd() % 16);
    data[i] = t->values[ch * 16 + idx];
    t->bits[i / 2] = (uint8_t)(t->bits[i / 2] | (i % 2 ? idx : idx << 4));
  }
  t->c = tflc_const_lut(t->bits, t->values, TFLC_INT8, count, 4, channels, 16,
                        alt);
}

static const size_t scratch_sizes[4] = {0, 64, 512, 4096};

typedef struct conv_shape {
  int32_t n, h, w, cin, cout, kh, kw, sh, sw, dh, dw, ph, pw, oh, ow, in_zp;
  int32_t mult; /* depthwise: depth multiplier */
  int dw_conv;
} conv_shape;

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

static void ref_conv(const conv_shape *g, const quant *k, int wb,
                     const int8_t *in, const int8_t *f, int8_t *out) {
  int32_t b, oy, ox, oc, ky, kx, ci;
  for (b = 0; b < g->n; b++)
    for (oy = 0; oy < g->oh; oy++)
      for (ox = 0; ox < g->ow; ox++)
        for (oc = 0; oc < g->cout; oc++) {
          int64_t acc = wb ? k->bias[oc] : 0;
          for (ky = 0; ky < g->kh; ky++)
            for (kx = 0; kx < g->kw; kx++) {
              const int32_t iy = oy * g->sh - g->ph + ky * g->dh;
              const int32_t ix = ox * g->sw - g->pw + kx * g->dw;
              if (iy < 0 || iy >= g->h || ix < 0 || ix >= g->w)
                continue;
              if (g->dw_conv) {
                acc +=
                    (int64_t)f[(ky * g->kw + kx) * g->cout + oc] *
                    (in[((b * g->h + iy) * g->w + ix) * g->cin + oc / g->mult] -
                     g->in_zp);
                continue;
              }
              for (ci = 0; ci < g->cin; ci++)
                acc +=
                    (int64_t)f[((oc * g->kh + ky) * g->kw + kx) * g->cin + ci] *
                    (in[((b * g->h + iy) * g->w + ix) * g->cin + ci] -
                     g->in_zp);
            }
          out[((b * g->oh + oy) * g->ow + ox) * g->cout + oc] =
              ref_out(acc, k->q[oc], k->s32[oc], k->zp, k->lo, k->hi);
        }
}

static int conv_kernel_case(int dw_conv) {
  conv_shape g;
  quant k;
  tflc_conv_params p;
  int32_t in_dims[4], f_dims[4], out_dims[4], in_n, f_n, out_n;
  int8_t *in, *f, *expect, *got;
  const int wb = (int)(rnd() % 4 != 0);
  int same, ok = 1, mode, t;
  tflc_const braw;
  memset(&g, 0, sizeof g);
  g.dw_conv = dw_conv;
  g.n = rnd_range(1, 2);
  g.h = rnd_range(1, 12);
  g.w = rnd_range(1, 12);
  if (!dw_conv && rnd() % 8 == 0)
    g.h = g.w = 1; /* one pixel (a 1x1 filter: the offset on the inputs) */
  if (rnd() % 3 == 0) {
    g.kh = g.kw = 1;
  } else {
    g.kh = rnd_range(1, 5);
    g.kw = rnd_range(1, 5);
  }
  g.sh = rnd_range(1, 2);
  g.sw = rnd_range(1, 2);
  g.dh = rnd() % 5 == 0 ? 2 : 1;
  g.dw = rnd() % 5 == 0 ? 2 : 1;
  same = (int)(rnd() % 2);
  if (!same) {
    while ((g.kh - 1) * g.dh + 1 > g.h) {
      if (g.dh > 1)
        g.dh = 1;
      else
        g.kh--;
    }
    while ((g.kw - 1) * g.dw + 1 > g.w) {
      if (g.dw > 1)
        g.dw = 1;
      else
        g.kw--;
    }
  }
  out_size(g.h, g.kh, g.sh, g.dh, same, &g.oh, &g.ph);
  out_size(g.w, g.kw, g.sw, g.dw, same, &g.ow, &g.pw);
  /* a third of the convolutions with 1-4 input channels: short kernel
   * rows, the small-window (im2col) paths */
  g.cin = dw_conv          ? rnd_range(1, 70)
          : rnd() % 3 == 0 ? rnd_range(1, 4)
                           : rnd_range(1, 40);
  g.mult = 1;
  if (dw_conv && rnd() % 4 == 0) { /* depth multiplier */
    g.cin = rnd() % 2 ? 1 : rnd_range(2, 5);
    g.mult = rnd() % 2 ? 4 * rnd_range(1, 4) : rnd_range(2, 20);
  }
  g.cout = dw_conv ? g.cin * g.mult : rnd_range(1, 70);
  g.in_zp = rnd() % 4 == 0 ? rnd_range(-128, 127) : -128 + (int32_t)(rnd() % 2);
  in_n = g.n * g.h * g.w * g.cin;
  f_n = g.kh * g.kw * g.cout * (dw_conv ? 1 : g.cin);
  out_n = g.n * g.oh * g.ow * g.cout;
  in = (int8_t *)malloc((size_t)in_n);
  f = (int8_t *)malloc((size_t)f_n);
  expect = (int8_t *)malloc((size_t)out_n);
  got = (int8_t *)malloc((size_t)out_n);
  fill_s8(in, in_n);
  make_quant(&k, g.cout, g.kh * g.kw * (dw_conv ? 1 : g.cin));
  in_dims[0] = g.n;
  in_dims[1] = g.h;
  in_dims[2] = g.w;
  in_dims[3] = g.cin;
  f_dims[0] = dw_conv ? 1 : g.cout;
  f_dims[1] = g.kh;
  f_dims[2] = g.kw;
  f_dims[3] = dw_conv ? g.cout : g.cin;
  out_dims[0] = g.n;
  out_dims[1] = g.oh;
  out_dims[2] = g.ow;
  out_dims[3] = g.cout;
  memset(&p, 0, sizeof p);
  p.stride_h = g.sh;
  p.stride_w = g.sw;
  p.dilation_h = g.dh;
  p.dilation_w = g.dw;
  p.pad_h = g.ph;
  p.pad_w = g.pw;
  p.depth_multiplier = g.mult;
  p.input_offset = -g.in_zp;
  p.output_offset = k.zp;
  p.act_min = k.lo;
  p.act_max = k.hi;
  p.out_multiplier = k.q;
  p.out_shift = k.s;
  braw = tflc_const_raw(k.bias, TFLC_INT32, g.cout);
  for (mode = 0; mode < 3; mode++) {
    /* raw filter, LUT per tensor, LUT per channel */
    lut4 lut;
    tflc_const fc;
    lut4_make(&lut, f, f_n, mode == 2 ? g.cout : 1, dw_conv && mode == 2);
    fc = mode == 0 ? tflc_const_raw(f, TFLC_INT8, f_n) : lut.c;
    ref_conv(&g, &k, wb, in, f, expect);
    for (t = 0; t < 4; t++) {
      void *scratch = scratch_sizes[t] ? malloc(scratch_sizes[t]) : NULL;
      memset(got, 0x5A, (size_t)out_n);
      if (dw_conv)
        tflc_depthwise_conv2d_s8(&p, in_dims, in, f_dims, &fc,
                                 wb ? &braw : NULL, out_dims, got, scratch,
                                 scratch_sizes[t]);
      else
        tflc_conv2d_s8(&p, in_dims, in, f_dims, &fc, wb ? &braw : NULL,
                       out_dims, got, scratch, scratch_sizes[t]);
      ok &= memcmp(got, expect, (size_t)out_n) == 0;
      free(scratch);
    }
    free(lut.bits);
  }
  if (!ok)
    fprintf(stderr,
            "  %s: n%d %dx%dx%d -> %d, k%dx%d s%d,%d d%d,%d p%d,%d zp %d\n",
            dw_conv ? "depthwise" : "conv", (int)g.n, (int)g.h, (int)g.w,
            (int)g.cin, (int)g.cout, (int)g.kh, (int)g.kw, (int)g.sh, (int)g.sw,
            (int)g.dh, (int)g.dw, (int)g.ph, (int)g.pw, (int)g.in_zp);
  free(in);
  free(f);
  free(expect);
  free(got);
  return ok;
}

/* CONV_2D with few input channels through the window copies of several
 * pixels per GEMM call (tflc__conv2d_s8_im2col_rows: 1-4 input channels,
 * kernel rows under 16 values, depths a multiple of four up to 64), on
 * maps large enough for many full blocks and a short last one, odd and
 * even kernels, strides 1-3, dilation down the height, SAME and VALID,
 * every input zero point, one or two batches, 1-40 output channels (one
 * to three chunks), per-channel requantization with and without biases,
 * raw and LUT filters: the DSP GEMM and the portable one against the
 * reference, and the GEMM calls as many rows as the copy holds. */
static int conv_im2col_case(void) {
  conv_shape g;
  quant k;
  tflc_conv_params p;
  int32_t in_dims[4], f_dims[4], out_dims[4], in_n, f_n, out_n, depth;
  int8_t *in, *f, *expect, *got;
  const int wb = (int)(rnd() % 4 != 0);
  int same, ok = 1, impl, lut_mode;
  tflc_const braw;
  static lut4 lut;
  static char scratch[4096];
  memset(&g, 0, sizeof g);
  do {
    g.cin = rnd_range(1, 4);
    g.kh = rnd_range(1, 9);
    g.kw = rnd_range(1, 15 / g.cin);
    depth = g.kh * g.kw * g.cin;
  } while ((depth & 3) != 0 || depth > TFLC__SMALL_DEPTH ||
           (g.kh == 1 && g.kw == 1));
  g.n = rnd_range(1, 2);
  g.h = rnd_range(g.kh, 24);
  g.w = rnd_range(g.kw, 24);
  g.sh = rnd_range(1, 3);
  g.sw = rnd_range(1, 3);
  g.dh = rnd() % 5 == 0 && 2 * g.kh - 1 <= g.h ? 2 : 1;
  g.dw = 1;
  g.mult = 1;
  same = (int)(rnd() % 2);
  out_size(g.h, g.kh, g.sh, g.dh, same, &g.oh, &g.ph);
  out_size(g.w, g.kw, g.sw, g.dw, same, &g.ow, &g.pw);
  g.cout = rnd_range(1, 40);
  g.in_zp = rnd_range(-128, 127);
  in_n = g.n * g.h * g.w * g.cin;
  f_n = depth * g.cout;
  out_n = g.n * g.oh * g.ow * g.cout;
  in = (int8_t *)malloc((size_t)in_n);
  f = (int8_t *)malloc((size_t)f_n);
  expect = (int8_t *)malloc((size_t)out_n);
  got = (int8_t *)malloc((size_t)out_n);
  fill_s8(in, in_n);
  make_quant(&k, g.cout, depth);
  in_dims[0] = out_dims[0] = g.n;
  in_dims[1] = g.h;
  in_dims[2] = g.w;
  in_dims[3] = g.cin;
  f_dims[0] = g.cout;
  f_dims[1] = g.kh;
  f_dims[2] = g.kw;
  f_dims[3] = g.cin;
  out_dims[1] = g.oh;
  out_dims[2] = g.ow;
  out_dims[3] = g.cout;
  memset(&p, 0, sizeof p);
  p.stride_h = g.sh;
  p.stride_w = g.sw;
  p.dilation_h = g.dh;
  p.dilation_w = g.dw;
  p.pad_h = g.ph;
  p.pad_w = g.pw;
  p.depth_multiplier = 1;
  p.input_offset = -g.in_zp;
  p.output_offset = k.zp;
  p.act_min = k.lo;
  p.act_max = k.hi;
  p.out_multiplier = k.q;
  p.out_shift = k.s;
  braw = tflc_const_raw(k.bias, TFLC_INT32, g.cout);
  /* the filter's values from a palette per channel: raw or compressed */
  lut4_make(&lut, f, f_n, g.cout, 0);
  ref_conv(&g, &k, wb, in, f, expect);
  for (lut_mode = 0; lut_mode < 2; lut_mode++) {
    const tflc_const fc = lut_mode ? lut.c : tflc_const_raw(f, TFLC_INT8, f_n);
    for (impl = 0; impl < 2; impl++) {
      const int32_t pixels = g.n * g.oh * g.ow;
      const int32_t full = TFLC__IM2COL_BYTES / depth;
      test_gemm_impl = impl ? tflc_gemm_s8_dsp : tflc_gemm_s8_portable;
      test_gemm_rows_max = 0;
      memset(got, 0x5A, (size_t)out_n);
      tflc_conv2d_s8(&p, in_dims, in, f_dims, &fc, wb ? &braw : NULL, out_dims,
                     got, lut_mode ? scratch : NULL,
                     lut_mode ? sizeof scratch : 0);
      ok &= memcmp(got, expect, (size_t)out_n) == 0;
      /* every pixel through the copies: full blocks unless fewer pixels */
      ok &= test_gemm_rows_max == (pixels < full ? pixels : full);
    }
  }
  free(lut.bits);
  if (!ok)
    fprintf(stderr,
            "  im2col conv: n%d %dx%dx%d -> %d, k%dx%d s%d,%d d%d p%d,%d "
            "zp %d\n",
            (int)g.n, (int)g.h, (int)g.w, (int)g.cin, (int)g.cout, (int)g.kh,
            (int)g.kw, (int)g.sh, (int)g.sw, (int)g.dh, (int)g.ph, (int)g.pw,
            (int)g.in_zp);
  free(in);
  free(f);
  free(expect);
  free(got);
  return ok;
}

static void test_conv_im2col_rows(void) {
  int i, ok = 1;
  for (i = 0; i < 120; i++)
    ok &= conv_im2col_case();
  CHECK(ok);
  test_gemm_impl = tflc_gemm_s8_portable;
}

/* CONV_2D with few input channels and a depth that is no multiple of
 * four (7..63, those of tflc__im2col_split_len: 3x3x3, 5x3x1, 7x2x1, ...)
 * through the windows copied in two segments
 * (tflc__conv2d_s8_im2col_split), on maps large enough for the output's
 * unwritten part to hold 32 windows and on small ones, odd and even
 * kernels, strides 1-3, dilation down the height, SAME and VALID, every
 * input zero point, one or two batches, 1-40 output channels (one to
 * three chunks), raw and LUT filters: the DSP GEMM and the portable one
 * against the reference, and the GEMM calls as many rows as the path
 * picks (32 in the output where one chunk covers every channel and the
 * room is there, else what the stack buffer holds). */
/* 1 when every one of n channels' shifts is a right shift of 1..23 */
static int conv_simple(const int8_t *s, int32_t n) {
  int32_t c;
  for (c = 0; c < n; c++)
    if (s[c] < -23 || s[c] > -1)
      return 0;
  return 1;
}
/* conv_split_case's draws for the Arm DSP's widened windows
 * (tflc__conv2d_s8_im2col_dsp): depths up to 28, every channel simple,
 * mostly saturating to int8 (its assembly's conditions) */
static int conv_split_wide;
static int conv_split_case(void) {
  conv_shape g;
  quant k;
  tflc_conv_params p;
  int32_t in_dims[4], f_dims[4], out_dims[4], in_n, f_n, out_n, depth;
  int8_t *in, *f, *expect, *got;
  const int wb = (int)(rnd() % 4 != 0);
  int same, ok = 1, impl, lut_mode;
  tflc_const braw;
  static lut4 lut;
  static char scratch[4096];
  memset(&g, 0, sizeof g);
  do {
    g.cin = rnd_range(1, 5);
    g.kh = rnd_range(1, 9);
    g.kw = rnd_range(1, 15 / g.cin);
    depth = g.kh * g.kw * g.cin;
  } while (tflc__im2col_split_len(depth) == 0 || depth > TFLC__SMALL_DEPTH ||
           (g.kh == 1 && g.kw == 1) || (conv_split_wide && depth > 28));
  g.n = rnd_range(1, 2);
  g.h = rnd_range(g.kh, g.kh + (rnd() % 2 ? 32 : 6));
  g.w = rnd_range(g.kw, g.kw + (rnd() % 2 ? 32 : 6));
  g.sh = rnd_range(1, 3);
  g.sw = rnd_range(1, 3);
  g.dh = rnd() % 5 == 0 && 2 * g.kh - 1 <= g.h ? 2 : 1;
  g.dw = 1;
  g.mult = 1;
  same = (int)(rnd() % 2);
  out_size(g.h, g.kh, g.sh, g.dh, same, &g.oh, &g.ph);
  out_size(g.w, g.kw, g.sw, g.dw, same, &g.ow, &g.pw);
  g.cout = rnd() % 2 ? rnd_range(1, 16) : rnd_range(1, 40);
  g.in_zp = rnd_range(-128, 127);
  in_n = g.n * g.h * g.w * g.cin;
  f_n = depth * g.cout;
  out_n = g.n * g.oh * g.ow * g.cout;
  in = (int8_t *)malloc((size_t)in_n);
  f = (int8_t *)malloc((size_t)f_n);
  expect = (int8_t *)malloc((size_t)out_n);
  got = (int8_t *)malloc((size_t)out_n);
  fill_s8(in, in_n);
  make_quant(&k, g.cout, depth);
  if (conv_split_wide) {
    int32_t c;
    for (c = 0; c < g.cout; c++)
      if (k.s[c] < -23 || k.s[c] > -1) {
        k.q[c] = rnd_range(1 << 30, INT32_MAX);
        k.s32[c] = -rnd_range(1, 23);
        k.s[c] = (int8_t)k.s32[c];
      }
    if (rnd() % 4 != 0) {
      k.lo = -128;
      k.hi = 127;
    }
  }
  in_dims[0] = out_dims[0] = g.n;
  in_dims[1] = g.h;
  in_dims[2] = g.w;
  in_dims[3] = g.cin;
  f_dims[0] = g.cout;
  f_dims[1] = g.kh;
  f_dims[2] = g.kw;
  f_dims[3] = g.cin;
  out_dims[1] = g.oh;
  out_dims[2] = g.ow;
  out_dims[3] = g.cout;
  memset(&p, 0, sizeof p);
  p.stride_h = g.sh;
  p.stride_w = g.sw;
  p.dilation_h = g.dh;
  p.dilation_w = g.dw;
  p.pad_h = g.ph;
  p.pad_w = g.pw;
  p.depth_multiplier = 1;
  p.input_offset = -g.in_zp;
  p.output_offset = k.zp;
  p.act_min = k.lo;
  p.act_max = k.hi;
  p.out_multiplier = k.q;
  p.out_shift = k.s;
  braw = tflc_const_raw(k.bias, TFLC_INT32, g.cout);
  lut4_make(&lut, f, f_n, g.cout, 0);
  ref_conv(&g, &k, wb, in, f, expect);
  for (lut_mode = 0; lut_mode < 2; lut_mode++) {
    const tflc_const fc = lut_mode ? lut.c : tflc_const_raw(f, TFLC_INT8, f_n);
    for (impl = 0; impl < 2; impl++) {
      /* (the Arm DSP's widened windows call no GEMM) */
      const int wide = TFLC__CONV_SPLIT_WINDOWS && depth <= 28 &&
                       TFLC__CONV_WIDE_WINDOWS_S8_ON && k.lo == -128 &&
                       k.hi == 127 && conv_simple(k.s, g.cout);
      const int32_t pixels = wide ? 0 : g.n * g.oh * g.ow;
      const int32_t row = 2 * tflc__im2col_split_len(depth);
      const int32_t big = TFLC__IM2COL_SPLIT_OUT_ROWS;
      int32_t full = TFLC__IM2COL_SPLIT_BYTES / row;
      if (g.cout <= TFLC__CHANNEL_CHUNK && pixels > big &&
          (pixels - big) * g.cout >= big * row + 3)
        full = big;
      test_gemm_impl = impl ? tflc_gemm_s8_dsp : tflc_gemm_s8_portable;
      test_gemm_rows_max = 0;
      memset(got, 0x5A, (size_t)out_n);
      tflc_conv2d_s8(&p, in_dims, in, f_dims, &fc, wb ? &braw : NULL, out_dims,
                     got, lut_mode ? scratch : NULL,
                     lut_mode ? sizeof scratch : 0);
      ok &= memcmp(got, expect, (size_t)out_n) == 0;
      /* (Helium reads these windows in place: TFLC__CONV_SPLIT_WINDOWS) */
      ok &= !TFLC__CONV_SPLIT_WINDOWS ||
            test_gemm_rows_max == (pixels < full ? pixels : full);
    }
  }
  free(lut.bits);
  if (!ok)
    fprintf(stderr,
            "  split conv: n%d %dx%dx%d -> %d, k%dx%d s%d,%d d%d p%d,%d "
            "zp %d\n",
            (int)g.n, (int)g.h, (int)g.w, (int)g.cin, (int)g.cout, (int)g.kh,
            (int)g.kw, (int)g.sh, (int)g.sw, (int)g.dh, (int)g.ph, (int)g.pw,
            (int)g.in_zp);
  free(in);
  free(f);
  free(expect);
  free(got);
  return ok;
}

static void test_conv_im2col_split(void) {
  int i, ok = 1;
  for (i = 0; i < 150; i++)
    ok &= conv_split_case();
  CHECK(ok);
  {
    /* (the later tests' random draws kept) */
    const uint32_t kept = rng_state;
    conv_split_wide = 1;
    for (i = 0, ok = 1; i < 150; i++)
      ok &= conv_split_case();
    conv_split_wide = 0;
    rng_state = kept;
  }
  CHECK(ok);
  test_gemm_impl = tflc_gemm_s8_portable;
}

/* 1x1 CONV_2D of a raw filter with strides (the pixels no run in memory)
 * through the gathered blocks (tflc__conv2d_s8_gather): maps large and
 * small (the room in the output's unwritten part shrinking, the last
 * pixels read in place alone), 1-70 input and output channels (one to
 * five chunks), one or two batches, SAME and VALID, every input zero
 * point, with and without biases: the DSP GEMM and the portable one
 * against the reference, tflc_conv2d_s8 and tflc_conv2d_s8_folded, and
 * the GEMM's most rows those of the first gathered block. */
static int conv_gather_case(void) {
  conv_shape g;
  quant k;
  tflc_conv_params p;
  int32_t in_dims[4], f_dims[4], out_dims[4], in_n, f_n, out_n;
  int32_t pixels, first;
  int8_t *in, *f, *expect, *got;
  int32_t *folded;
  const int wb = (int)(rnd() % 4 != 0);
  int same, ok = 1, impl, api;
  tflc_const braw, fc;
  memset(&g, 0, sizeof g);
  g.kh = g.kw = 1;
  g.cin = rnd() % 2 ? 4 * rnd_range(1, 16) : rnd_range(1, 70);
  g.cout = rnd_range(1, 70);
  g.n = rnd_range(1, 2);
  g.h = rnd_range(1, rnd() % 2 ? 40 : 8);
  g.w = rnd_range(1, rnd() % 2 ? 40 : 8);
  g.sh = rnd_range(1, 3);
  g.sw = rnd_range(2, 3);
  g.dh = g.dw = 1;
  g.mult = 1;
  same = (int)(rnd() % 2);
  out_size(g.h, 1, g.sh, 1, same, &g.oh, &g.ph);
  out_size(g.w, 1, g.sw, 1, same, &g.ow, &g.pw);
  g.in_zp = rnd_range(-128, 127);
  in_n = g.n * g.h * g.w * g.cin;
  f_n = g.cin * g.cout;
  out_n = g.n * g.oh * g.ow * g.cout;
  in = (int8_t *)malloc((size_t)in_n);
  f = (int8_t *)malloc((size_t)f_n);
  expect = (int8_t *)malloc((size_t)out_n);
  got = (int8_t *)malloc((size_t)out_n);
  folded = (int32_t *)malloc((size_t)g.cout * sizeof *folded);
  fill_s8(in, in_n);
  fill_s8(f, f_n);
  make_quant(&k, g.cout, g.cin);
  in_dims[0] = out_dims[0] = g.n;
  in_dims[1] = g.h;
  in_dims[2] = g.w;
  in_dims[3] = g.cin;
  f_dims[0] = g.cout;
  f_dims[1] = f_dims[2] = 1;
  f_dims[3] = g.cin;
  out_dims[1] = g.oh;
  out_dims[2] = g.ow;
  out_dims[3] = g.cout;
  memset(&p, 0, sizeof p);
  p.stride_h = g.sh;
  p.stride_w = g.sw;
  p.dilation_h = p.dilation_w = 1;
  p.pad_h = g.ph;
  p.pad_w = g.pw;
  p.depth_multiplier = 1;
  p.input_offset = -g.in_zp;
  p.output_offset = k.zp;
  p.act_min = k.lo;
  p.act_max = k.hi;
  p.out_multiplier = k.q;
  p.out_shift = k.s;
  braw = tflc_const_raw(k.bias, TFLC_INT32, g.cout);
  fc = tflc_const_raw(f, TFLC_INT8, f_n);
  ref_conv(&g, &k, wb, in, f, expect);
  /* the first block's pixels: up to 64, as many as the outputs after
   * them hold the copy of (from a word boundary) */
  pixels = g.n * g.oh * g.ow;
  first = TFLC__GATHER_ROWS;
  while (first > 1 && (pixels - first) * g.cout < first * g.cin + 3)
    first--;
  for (api = 0; api < 2; api++) {
    const int made =
        api && tflc_conv2d_s8_fold(&p, in_dims, f_dims, &fc, wb ? &braw : NULL,
                                   out_dims, folded);
    for (impl = 0; impl < 2; impl++) {
      test_gemm_impl = impl ? tflc_gemm_s8_dsp : tflc_gemm_s8_portable;
      test_gemm_rows_max = 0;
      memset(got, 0x5A, (size_t)out_n);
      if (api)
        tflc_conv2d_s8_folded(&p, in_dims, in, f_dims, &fc, wb ? &braw : NULL,
                              out_dims, got, made ? folded : NULL);
      else
        tflc_conv2d_s8(&p, in_dims, in, f_dims, &fc, wb ? &braw : NULL,
                       out_dims, got, NULL, 0);
      ok &= memcmp(got, expect, (size_t)out_n) == 0;
      ok &= test_gemm_rows_max == first;
    }
  }
  test_gemm_impl = tflc_gemm_s8_portable;
  if (!ok)
    fprintf(stderr,
            "  gather conv: n%d %dx%dx%d -> %d, s%d,%d p%d,%d zp %d rows %d "
            "(%d)\n",
            (int)g.n, (int)g.h, (int)g.w, (int)g.cin, (int)g.cout, (int)g.sh,
            (int)g.sw, (int)g.ph, (int)g.pw, (int)g.in_zp,
            (int)test_gemm_rows_max, (int)first);
  free(in);
  free(f);
  free(expect);
  free(got);
  free(folded);
  return ok;
}

static void test_conv_gather(void) {
  const uint32_t kept = rng_state; /* (the later tests' random draws kept) */
  int i, ok = 1;
  for (i = 0; i < 200; i++)
    ok &= conv_gather_case();
  rng_state = kept;
  CHECK(ok);
}

#if defined(TFLC_HAVE_DSP)
/* The Arm DSP depthwise layer paths against the reference: the 3x3 frame
 * (tflc__dsp_dw3x3_layer: four channels at a time over the whole map,
 * bands of input rows and columns padded with the zero point, or on wide
 * maps runs inside the input and padded border windows; any = 0) and the
 * path of any filter (tflc__dsp_dw_layer: 1x1 to 7x7, long columns,
 * dilation 1 or 2; any = 1). Maps from 1x1 to 13x13 and some up to 40
 * wide, strides 1 and 2, SAME and VALID, one or two batches, multipliers 1
 * (channels mostly a multiple of four), 4 and 8 (one to three input
 * channels) and now and then 2 (refused), every input zero point, simple
 * requantizations with any clamp, now and then a channel or bias they
 * refuse (then they write nothing). Returns 1 when it agreed or refused
 * cleanly; *used counts the layers it ran. */
static int dw_layer_case(int any, int *used) {
  conv_shape g;
  quant k;
  tflc_conv_params p;
  int32_t in_dims[4], f_dims[4], out_dims[4], in_n, f_n, out_n, c, taps;
  int8_t *in, *f, *expect, *got;
  const int wb = (int)(rnd() % 4 != 0);
  const uint32_t pick = rnd() % 16;
  int same, ok, ran, one = 0;
  tflc_const braw, fc;
  memset(&g, 0, sizeof g);
  g.dw_conv = 1;
  g.mult = pick < 10 ? 1 : pick < 12 ? 4 : pick < 15 ? 8 : 2;
  g.n = rnd_range(1, 2);
  g.h = rnd_range(1, 13);
  /* now and then wider than a band (segments, or runs and border windows) */
  g.w = rnd() % 4 == 0 ? rnd_range(14, 40) : rnd_range(1, 13);
  g.kh = g.kw = 3;
  g.dh = g.dw = 1;
  if (any) {
    g.kh = rnd_range(1, 7);
    g.kw = rnd_range(1, 7);
    if (rnd() % 4 == 0) { /* a long column (streaming audio models) */
      g.kh = rnd_range(5, 23);
      g.kw = 1;
      g.h = g.kh + rnd_range(0, 2);
    }
    g.dh = rnd_range(1, 2);
    g.dw = rnd_range(1, 2);
    if (rnd() % 4 == 0) {
      /* one input channel, multiplier 4-16, kernel rows of 4-12 taps:
       * the paired taps (tflc__dsp_dw_window1_pairs; rows of eight taps
       * for eight channels: a build of their own) */
      one = 1;
      g.mult = rnd() % 2 ? 8 : 4 * rnd_range(1, 4);
      g.kw = rnd() % 2 ? 8 : rnd_range(4, 12);
      g.kh = rnd_range(1, 10);
      g.w = rnd_range(1, 30);
      g.dw = 1;
    }
  }
  g.sh = rnd_range(1, 2);
  g.sw = rnd_range(1, 2);
  same =
      g.h < (g.kh - 1) * g.dh + 1 || g.w < (g.kw - 1) * g.dw + 1 || rnd() % 2;
  out_size(g.h, g.kh, g.sh, g.dh, same, &g.oh, &g.ph);
  out_size(g.w, g.kw, g.sw, g.dw, same, &g.ow, &g.pw);
  if (g.mult == 1)
    g.cin = rnd() % 8 == 0 ? rnd_range(1, 24) : 4 * rnd_range(1, 6);
  else
    g.cin = one ? 1 : rnd_range(1, 3);
  g.cout = g.cin * g.mult;
  g.in_zp = rnd() % 3 == 0 ? rnd_range(-128, 127) : -128 + (int32_t)(rnd() % 2);
  taps = g.kh * g.kw;
  in_n = g.n * g.h * g.w * g.cin;
  f_n = taps * g.cout;
  out_n = g.n * g.oh * g.ow * g.cout;
  in = (int8_t *)malloc((size_t)in_n);
  f = (int8_t *)malloc((size_t)f_n);
  expect = (int8_t *)malloc((size_t)out_n);
  got = (int8_t *)malloc((size_t)out_n);
  fill_s8(in, in_n);
  fill_s8(f, f_n);
  make_quant(&k, g.cout, taps);
  for (c = 0; c < g.cout; c++) {
    if (rnd() % 64 != 0 && (k.s32[c] > -1 || k.s32[c] < -23)) {
      k.q[c] = (int32_t)(0x40000000u + rnd() % 0x40000000u);
      k.s32[c] = -rnd_range(1, 23);
      k.s[c] = (int8_t)k.s32[c];
    }
    if (rnd() % 64 == 0)
      k.bias[c] = (int32_t)rnd(); /* beyond the frame's bound, mostly */
  }
  in_dims[0] = out_dims[0] = g.n;
  in_dims[1] = g.h;
  in_dims[2] = g.w;
  in_dims[3] = g.cin;
  f_dims[0] = 1;
  f_dims[1] = g.kh;
  f_dims[2] = g.kw;
  f_dims[3] = g.cout;
  out_dims[1] = g.oh;
  out_dims[2] = g.ow;
  out_dims[3] = g.cout;
  memset(&p, 0, sizeof p);
  p.stride_h = g.sh;
  p.stride_w = g.sw;
  p.dilation_h = g.dh;
  p.dilation_w = g.dw;
  p.pad_h = g.ph;
  p.pad_w = g.pw;
  p.depth_multiplier = g.mult;
  p.input_offset = -g.in_zp;
  p.output_offset = k.zp;
  p.act_min = k.lo;
  p.act_max = k.hi;
  p.out_multiplier = k.q;
  p.out_shift = k.s;
  braw = tflc_const_raw(k.bias, TFLC_INT32, g.cout);
  fc = tflc_const_raw(f, TFLC_INT8, f_n);
  ref_conv(&g, &k, wb, in, f, expect);
  memset(got, 0x5A, (size_t)out_n);
  if (any) {
    /* now and then the tile of rows of 5 or 7 taps: the bytes it takes,
     * more, one byte short (then without it) or misaligned */
    const size_t need =
        tflc__depthwise_layer_tile_s8(&p, in_dims, f_dims, out_dims);
    const uint32_t t = rnd() % 6;
    size_t tb = t == 0 ? 0 : t == 1 ? need - 1 : t == 2 ? need + 16 : need;
    uint32_t *tile = (uint32_t *)malloc(need + 32);
    memset(tile, 0xA5, need + 32);
    /* (as TFLC__DEPTHWISE_LAYER_S8: the rows of 5 or 7 taps with the
     * tile, else the layer of any filter) */
    ran = tflc__dsp_dw_wide_layer(&p, in_dims, in, f_dims, &fc,
                                  wb ? &braw : NULL, out_dims, got,
                                  t == 0   ? NULL
                                  : t == 5 ? (void *)((char *)tile + 1)
                                           : (void *)tile,
                                  tb) ||
          tflc__dsp_dw_layer(&p, in_dims, in, f_dims, &fc, wb ? &braw : NULL,
                             out_dims, got);
    free(tile);
  } else {
    /* now and then the padded copy's tile (small maps): the bytes it
     * takes, more, one byte short (then the bands) or misaligned */
    const int32_t rows = (g.oh - 1) * g.sh + 3, cols = (g.ow - 1) * g.sw + 3;
    const size_t need = (size_t)(rows * cols * g.cin);
    const uint32_t t = rnd() % 6;
    size_t tb = t == 0 ? 0 : t == 1 ? need - 1 : t == 2 ? need + 16 : need;
    uint32_t *tile = (uint32_t *)malloc(need + 32);
    memset(tile, 0xA5, need + 32);
    ran = tflc__dsp_dw3x3_layer(&p, in_dims, in, f_dims, &fc, wb ? &braw : NULL,
                                out_dims, got,
                                t == 0   ? NULL
                                : t == 5 ? (void *)((char *)tile + 1)
                                         : (void *)tile,
                                tb);
    free(tile);
  }
  if (ran) {
    ok = memcmp(got, expect, (size_t)out_n) == 0;
    (*used)++;
  } else {
    int32_t i;
    ok = 1;
    for (i = 0; i < out_n; i++)
      ok &= got[i] == 0x5A;
  }
  if (!ok)
    fprintf(stderr,
            "  dsp depthwise layer (%s): n%d %dx%dx%d k%dx%d m%d s%d,%d "
            "d%d,%d p%d,%d zp %d\n",
            any ? "any" : "3x3", (int)g.n, (int)g.h, (int)g.w, (int)g.cin,
            (int)g.kh, (int)g.kw, (int)g.mult, (int)g.sh, (int)g.sw, (int)g.dh,
            (int)g.dw, (int)g.ph, (int)g.pw, (int)g.in_zp);
  free(in);
  free(f);
  free(expect);
  free(got);
  return ok;
}

static void test_dsp_dw3x3_layer(void) {
  int i, ok = 1, used = 0;
  for (i = 0; i < 400; i++)
    ok &= dw_layer_case(0, &used);
  CHECK(ok);
  CHECK(used > 200); /* most layers took the path */
}

static void test_dsp_dw_layer(void) {
  int i, ok = 1, used = 0;
  for (i = 0; i < 300; i++)
    ok &= dw_layer_case(1, &used);
  CHECK(ok);
  CHECK(used > 150);
}

/* tflc_fully_connected_s8_dsp against tflc_fully_connected_s8 over the
 * portable GEMM, byte for byte: 1..3 batches (and 4, which it declines),
 * depths of any length (below 4 declined; multiples of 4 often, for the
 * per-tensor group path), odd output counts, per-tensor
 * and per-channel requantization with left shifts and right shifts beyond
 * 23, output offsets and clamps, input offsets beyond the 16-bit lanes
 * (declined), no bias, an aligned and a misaligned one. */
static int dsp_fc_case(int *used) {
  quant k;
  tflc_fc_params p;
  const int32_t batches = rnd() % 8 == 0 ? 4 : rnd_range(1, 3);
  const int32_t depth = rnd() % 4 == 0   ? rnd_range(1, 12)
                        : rnd() % 2 == 0 ? 4 * rnd_range(1, 75)
                                         : rnd_range(4, 300);
  const int32_t outs = rnd() % 4 == 0 ? rnd_range(1, 7) : rnd_range(1, 70);
  const int pc = (int)(rnd() % 2), bk = (int)(rnd() % 3);
  int8_t *in = (int8_t *)malloc((size_t)(batches * depth));
  int8_t *f = (int8_t *)malloc((size_t)(outs * depth));
  int8_t *expect = (int8_t *)malloc((size_t)(batches * outs));
  int8_t *got = (int8_t *)malloc((size_t)(batches * outs));
  uint8_t bmis[4 * 70 + 1];
  tflc_const fc, braw, bm;
  int ran, ok;
  fill_s8(in, batches * depth);
  fill_s8(f, outs * depth);
  make_quant(&k, outs, depth);
  if (rnd() % 4 == 0) { /* every channel as channel 0 (per-tensor runs) */
    int32_t c;
    for (c = 1; c < outs; c++) {
      k.q[c] = k.q[0];
      k.s[c] = k.s[0];
      k.s32[c] = k.s32[0];
    }
  }
  memset(&p, 0, sizeof p);
  p.input_offset = pick_offset();
  p.filter_offset = rnd() % 8 == 0 ? rnd_range(-5, 5) : 0;
  p.output_offset = rnd() % 16 == 0 ? rnd_range(-300, 300) : k.zp;
  p.act_min = k.lo;
  p.act_max = k.hi;
  p.per_channel = pc;
  p.out_multiplier = k.q;
  p.out_shift = k.s;
  fc = tflc_const_raw(f, TFLC_INT8, outs * depth);
  braw = tflc_const_raw(k.bias, TFLC_INT32, outs);
  memcpy(bmis + 1, k.bias, (size_t)outs * 4u);
  bm = tflc_const_raw(bmis + 1, TFLC_INT32, outs);
  test_gemm_impl = tflc_gemm_s8_portable;
  memset(expect, 0x5A, (size_t)(batches * outs));
  tflc_fully_connected_s8(&p, batches, depth, outs, in, &fc,
                          bk == 0   ? NULL
                          : bk == 1 ? &braw
                                    : &bm,
                          expect, NULL, 0);
  memset(got, 0x5A, (size_t)(batches * outs));
  ran = tflc_fully_connected_s8_dsp(&p, batches, depth, outs, in, &fc,
                                    bk == 0   ? NULL
                                    : bk == 1 ? &braw
                                              : &bm,
                                    got);
  if (ran) {
    ok = memcmp(got, expect, (size_t)(batches * outs)) == 0;
    *used += 1;
  } else {
    /* declined: nothing written, and only where it says it declines */
    int32_t i;
    ok = batches > 3 || depth < 4 || (!pc && p.filter_offset != 0) ||
         p.input_offset < -32640 || p.input_offset > 32640;
    for (i = 0; i < batches * outs; i++)
      ok &= got[i] == 0x5A;
  }
  free(in);
  free(f);
  free(expect);
  free(got);
  return ok;
}

static void test_dsp_fully_connected(void) {
  int i, ok = 1, used = 0;
  for (i = 0; i < 600; i++)
    ok &= dsp_fc_case(&used);
  CHECK(ok);
  CHECK(used > 300);
}

/* tflc_add_elementwise_s8_dsp against the portable loop: parameters from
 * tflc_add_prepare_s8 (every activation), random ones in its range
 * (offsets within +-256, shifts <= 0, small shifts where an intermediate
 * off by one shows, extreme multipliers, output offsets that do and do
 * not fit its rounding, multipliers around the bounds of its two-pass
 * loop, clamps inside int8 and none) and beyond it (left shifts other
 * than 20, input offsets beyond +-256, shifts > 0: the portable loop),
 * lengths not multiples of 4 and beyond a pass (32). */
static void test_dsp_add(void) {
  int i, ok = 1, bad = 0;
  for (i = 0; i < 1500; i++) {
    tflc_add_params p;
    int8_t in1[80], in2[80], expect[84], got[84];
    const size_t n = (size_t)rnd_range(0, 80);
    const uint32_t mode = rnd() % 4;
    if (mode == 0) {
      const float s1 = 0.001f + (float)(rnd() % 1000) / 1000.0f;
      const float s2 = 0.001f + (float)(rnd() % 1000) / 1000.0f;
      const float so = 0.001f + (float)(rnd() % 1000) / 500.0f;
      tflc_add_prepare_s8(s1, rnd_range(-128, 127), s2, rnd_range(-128, 127),
                          so, rnd_range(-128, 127), (int)(rnd() % 4), &p);
    } else {
      const int32_t lo = rnd_range(-128, 127);
      const int wide = mode == 3;
      p.input1_offset = wide ? rnd_range(-400, 400) : rnd_range(-256, 256);
      p.input2_offset = wide ? rnd_range(-400, 400) : rnd_range(-256, 256);
      p.output_offset =
          rnd() % 16 ? rnd_range(-300, 300) : rnd_range(-70000, 70000);
      p.left_shift = wide ? rnd_range(0, 20) : 20;
      p.input1_multiplier = rnd() % 4 == 0 ? INT32_MIN : (int32_t)rnd();
      p.input2_multiplier = rnd() % 4 == 0 ? INT32_MAX : (int32_t)rnd();
      p.output_multiplier = rnd() % 4 == 0 ? INT32_MIN : (int32_t)rnd();
      p.input1_shift = wide ? rnd_range(-31, 31) : rnd_range(-31, 0);
      p.input2_shift = rnd() % 2 ? rnd_range(-31, 0) : rnd_range(-20, 0);
      p.output_shift = wide ? rnd_range(-31, 31) : rnd_range(-31, -1);
      if (mode == 2) {
        /* small shifts everywhere */
        p.input1_shift = rnd_range(-3, 0);
        p.input2_shift = rnd_range(-3, 0);
        p.output_shift = rnd_range(-3, -1);
      }
      p.act_min = lo;
      p.act_max = rnd_range(lo, 127);
      if (rnd() % 4 == 0) { /* no clamp inside int8 (SSAT's) */
        p.act_min = -128;
        p.act_max = 127;
      }
      if (rnd() % 3 == 0) {
        /* around the two-pass loop's bounds: 0, 2^11, 2^30 */
        static const int32_t edge[] = {0,          1,          2047,
                                       2048,       2049,       0x3FFFFFFF,
                                       0x40000000, 0x40000001, INT32_MAX};
        const int32_t ne = (int32_t)(sizeof edge / sizeof edge[0]);
        p.input1_multiplier = edge[rnd_range(0, ne - 1)];
        p.input2_multiplier = edge[rnd_range(0, ne - 1)];
        p.output_multiplier = edge[rnd_range(0, ne - 1)];
      }
    }
    fill_s8(in1, 80);
    fill_s8(in2, 80);
    if (i % 8 == 0) { /* the extremes */
      memset(in1, i % 16 ? 0x80 : 0x7F, 80);
      memset(in2, i % 32 ? 0x7F : 0x80, 80);
    }
    memset(expect, 0x33, sizeof expect);
    memset(got, 0x33, sizeof got);
    tflc_add_elementwise_s8_portable(&p, n, in1, in2, expect);
    tflc_add_elementwise_s8_dsp(&p, n, in1, in2, got);
    if (memcmp(got, expect, sizeof got) != 0) {
      ok = 0;
      if (bad++ < 3)
        printf("  dsp add differs: n %d shifts %d %d %d left %d\n", (int)n,
               (int)p.input1_shift, (int)p.input2_shift, (int)p.output_shift,
               (int)p.left_shift);
    }
  }
  CHECK(ok);
}
#endif

static int fc_kernel_case(void) {
  quant k;
  tflc_fc_params p;
  const int32_t batches = rnd() % 3 == 0 ? rnd_range(4, 9) : rnd_range(1, 3);
  const int32_t depth = rnd_range(1, 300), outs = rnd_range(1, 70);
  const int pc = (int)(rnd() % 2), wb = (int)(rnd() % 4 != 0);
  const int32_t in_zp = rnd_range(-128, 127);
  int8_t *in = (int8_t *)malloc((size_t)(batches * depth));
  int8_t *f = (int8_t *)malloc((size_t)(outs * depth));
  int8_t *expect = (int8_t *)malloc((size_t)(batches * outs));
  int8_t *got = (int8_t *)malloc((size_t)(batches * outs));
  tflc_const braw;
  int32_t b, o, d;
  int ok = 1, mode, t;
  fill_s8(in, batches * depth);
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
  for (mode = 0; mode < 3; mode++) {
    lut4 lut;
    tflc_const fc;
    lut4_make(&lut, f, outs * depth, mode == 2 ? outs : 1, 0);
    fc = mode == 0 ? tflc_const_raw(f, TFLC_INT8, outs * depth) : lut.c;
    for (b = 0; b < batches; b++)
      for (o = 0; o < outs; o++) {
        int64_t acc = wb ? k.bias[o] : 0;
        for (d = 0; d < depth; d++)
          acc += (int64_t)f[o * depth + d] * (in[b * depth + d] - in_zp);
        expect[b * outs + o] =
            ref_out(acc, k.q[pc ? o : 0], k.s32[pc ? o : 0], k.zp, k.lo, k.hi);
      }
    for (t = 0; t < 4; t++) {
      void *scratch = scratch_sizes[t] ? malloc(scratch_sizes[t]) : NULL;
      memset(got, 0x5A, (size_t)(batches * outs));
      tflc_fully_connected_s8(&p, batches, depth, outs, in, &fc,
                              wb ? &braw : NULL, got, scratch,
                              scratch_sizes[t]);
      ok &= memcmp(got, expect, (size_t)(batches * outs)) == 0;
      free(scratch);
    }
    /* the prepare / run pair (the platform's own FC kernel where the
     * selection picked one, e.g. Helium): the same bytes, with the bias
     * aligned or not */
    for (t = 0; t < 2; t++) {
      uint64_t rec[4], buf[(4 * 70 + 7) / 8];
      uint8_t bmis[4 * 70 + 1];
      const tflc_const bm = tflc_const_raw(bmis + 1, TFLC_INT32, outs);
      const tflc_const *bp = !wb ? NULL : t ? &bm : &braw;
      void *scratch = malloc(scratch_sizes[3]);
      size_t n;
      memcpy(bmis + 1, k.bias, (size_t)outs * 4u);
      memset(rec, 0, sizeof rec);
      CHECK(TFLC_FC_S8_RECORD_BYTES <= sizeof rec);
      n = tflc_fully_connected_s8_prepare_bytes(&p, depth, outs, &fc, bp);
      ok &= n <= sizeof buf;
      if (n > sizeof buf)
        n = 0;
      tflc_fully_connected_s8_prepare(rec, n ? buf : NULL, &p, depth, outs, &fc,
                                      bp);
      memset(got, 0x5A, (size_t)(batches * outs));
      tflc_fully_connected_s8_run(rec, &p, batches, depth, outs, in, &fc, bp,
                                  got, scratch, scratch_sizes[3]);
      ok &= memcmp(got, expect, (size_t)(batches * outs)) == 0;
      free(scratch);
    }
    free(lut.bits);
  }
  free(in);
  free(f);
  free(expect);
  free(got);
  return ok;
}

static void kernels_with(test_gemm_fn gemm, test_depthwise_fn dw) {
  int i, ok_conv = 1, ok_dw = 1, ok_fc = 1;
  test_gemm_impl = gemm;
  test_depthwise_impl = dw;
  test_gemm_calls = test_depthwise_calls = 0;
  for (i = 0; i < 150; i++) {
    ok_conv &= conv_kernel_case(0);
    ok_dw &= conv_kernel_case(1);
    ok_fc &= fc_kernel_case();
  }
  CHECK(ok_conv);
  CHECK(ok_dw);
  CHECK(ok_fc);
  /* the kernels went through the replaced primitives */
#if !defined(TEST_LIBRARY_GEMM)
  CHECK(test_gemm_calls > 1000);
#endif
  CHECK(test_depthwise_calls > 1000);
}

static void test_kernels_portable(void) {
  kernels_with(tflc_gemm_s8_portable, tflc_depthwise_s8_portable);
}

static void test_kernels_dsp(void) {
  kernels_with(tflc_gemm_s8_dsp, tflc_depthwise_s8_dsp);
}

/* The Arm DSP depthwise against the portable one on the shapes of the
 * multiplier-1 runs: 3x3 windows without an input offset over runs of
 * pixels (the weights widened once per run, tflc__dsp_dw3x3_pixels), and
 * around them short runs, clipped windows, offsets, pixel strides along
 * a row or down a column, biases anywhere in int32. */
static void test_dsp_depthwise_runs(void) {
  int i, ok = 1, bad = 0, runs = 0;
  for (i = 0; i < 300; i++) {
    quant k;
    tflc_depthwise_block b;
    tflc_requant_params rq;
    int32_t xn, wn, on, c;
    int8_t *x, *w, *expect, *got;
    b.multiplier = 1;
    b.channels = rnd_range(1, 40);
    b.pixels = rnd() % 4 == 0 ? rnd_range(1, 3) : rnd_range(3, 40);
    b.rows = rnd() % 4 == 0 ? rnd_range(1, 3) : 3;
    b.cols = rnd() % 4 == 0 ? rnd_range(1, 3) : 3;
    b.x_col = b.channels + rnd_range(0, 3);
    b.x_row = b.x_col * rnd_range(3, 6) + rnd_range(0, 3);
    b.x_pixel = rnd() % 3 ? b.x_col * rnd_range(1, 2) : b.x_row;
    b.x_offset = rnd() % 4 ? 0 : pick_offset();
    b.w_col = b.channels + rnd_range(0, 3);
    b.w_row = b.w_col * 3 + rnd_range(0, 3);
    b.out_pixel = b.channels + rnd_range(0, 5);
    xn = b.x_row * 3 + b.x_pixel * b.pixels + b.x_col * 3 + 4;
    wn = b.w_row * 3 + b.w_col * 3 + b.channels;
    on = b.out_pixel * b.pixels;
    x = (int8_t *)malloc((size_t)xn);
    w = (int8_t *)malloc((size_t)wn);
    expect = (int8_t *)malloc((size_t)on);
    got = (int8_t *)malloc((size_t)on);
    fill_s8(x, xn);
    fill_s8(w, wn);
    make_quant(&k, b.channels, 9);
    if (rnd() % 8 == 0)
      for (c = 0; c < b.channels; c++)
        k.bias[c] = (int32_t)rnd(); /* sums that wrap */
    rq = quant_params(&k, (int)(rnd() % 4 != 0), (int)(rnd() % 4 != 0));
    runs += b.rows == 3 && b.cols == 3 && b.x_offset == 0 && b.pixels >= 3 &&
            b.channels >= 4;
    b.x = x;
    b.w = w;
    memset(expect, 0x33, (size_t)on);
    b.out = expect;
    ref_depthwise_block(&k, rq.per_channel, rq.bias != NULL, &b);
    memset(got, 0x33, (size_t)on);
    b.out = got;
    tflc_depthwise_s8_portable(&rq, &b);
    ok &= memcmp(got, expect, (size_t)on) == 0;
    memset(got, 0x33, (size_t)on);
    tflc_depthwise_s8_dsp(&rq, &b);
    if (memcmp(got, expect, (size_t)on) != 0) {
      ok = 0;
      if (bad++ < 3)
        printf("  dsp depthwise run differs: ch %d px %d %dx%d off %d\n",
               (int)b.channels, (int)b.pixels, (int)b.rows, (int)b.cols,
               (int)b.x_offset);
    }
    free(x);
    free(w);
    free(expect);
    free(got);
  }
  CHECK(ok);
  CHECK(runs > 60); /* the widened-weight runs were there */
}

#if defined(TFLC_HAVE_MVE)
/* ---- Arm Helium (MVE), on an MVE core (tests/m55_test.sh) -----------------
 * Each MVE primitive against the portable one, byte for byte, on random
 * shapes and parameters: depths around multiples of 16 (the predicated
 * tails), odd rows and columns, several segments, any input offset, sums
 * near the int32 limits, every shift from -31 to 30 and beyond. */
static void mve_random_quant(quant *k, int32_t n, int32_t depth) {
  int32_t c;
  make_quant(k, n, depth);
  if (rnd() % 4 == 0)
    for (c = 0; c < n; c++) {
      /* extreme parameters: multipliers near the limits, any shift */
      k->q[c] = rnd() % 2 ? INT32_MAX - (int32_t)(rnd() % 1000u)
                          : (int32_t)(rnd() % 3 == 0 ? 0x80000000u : rnd());
      k->s32[c] = rnd() % 8 == 0 ? rnd_range(-128, 127) : rnd_range(-31, 30);
      k->s[c] = (int8_t)k->s32[c];
      k->bias[c] = (int32_t)rnd();
    }
}

/* Block g (shape and strides set) with random inputs, weights and
 * requantization through the portable GEMM and `fn`: 1 if the bytes agree
 * (the first three differences printed, counted in *bad). */
static int mve_gemm_same(tflc_gemm_block g, test_gemm_fn fn, const char *name,
                         int *bad) {
  quant k;
  tflc_requant_params rq;
  const int32_t an = g.rows * g.a_row + 1, wn = g.cols * g.w_col + 1;
  const int32_t on = g.rows * g.out_row;
  int8_t *a = (int8_t *)malloc((size_t)an), *w = (int8_t *)malloc((size_t)wn);
  int8_t *expect = (int8_t *)malloc((size_t)on);
  int8_t *got = (int8_t *)malloc((size_t)on);
  int ok = 1;
  mve_random_quant(&k, g.cols, g.seg_len * g.segments + 1);
  rq = quant_params(&k, (int)(rnd() % 4 != 0), (int)(rnd() % 4 != 0));
  fill_s8(a, an);
  fill_s8(w, wn);
  g.a = a;
  g.w = w;
  memset(expect, 0x33, (size_t)on);
  g.out = expect;
  tflc_gemm_s8_portable(&rq, &g);
  memset(got, 0x33, (size_t)on);
  g.out = got;
  fn(&rq, &g);
  if (memcmp(got, expect, (size_t)on) != 0) {
    ok = 0;
    if ((*bad)++ < 3)
      printf("  %s differs: rows %d cols %d segs %d len %d off %d\n", name,
             (int)g.rows, (int)g.cols, (int)g.segments, (int)g.seg_len,
             (int)g.a_offset);
  }
  free(a);
  free(w);
  free(expect);
  free(got);
  return ok;
}

static void test_mve_gemm(void) {
  int i, ok = 1, bad = 0;
  for (i = 0; i < 600; i++) {
    tflc_gemm_block g;
    g.rows = rnd() % 4 == 0 ? 1 : rnd_range(1, 11);
    g.cols = rnd_range(1, 19);
    g.segments = rnd() % 3 == 0 ? rnd_range(0, 4) : 1;
    g.seg_len =
        rnd() % 2 ? 16 * rnd_range(0, 9) + rnd_range(-1, 1) : rnd_range(0, 70);
    if (g.seg_len < 0)
      g.seg_len = 0;
    g.a_seg = g.seg_len + rnd_range(0, 9);
    g.a_row = g.a_seg * (g.segments > 0 ? g.segments : 1) + rnd_range(0, 5);
    g.w_seg = g.seg_len + rnd_range(0, 3);
    g.w_col = g.w_seg * (g.segments > 0 ? g.segments : 1) + rnd_range(0, 5);
    g.out_row = g.cols + rnd_range(0, 3);
    g.a_offset = rnd() % 2 ? 0 : pick_offset();
    ok &= mve_gemm_same(g, tflc_gemm_s8_mve, "mve gemm", &bad);
  }
  CHECK(ok);
}

/* tflc_gemm_s8_mve on the blocks of the 3 x 3 convolutions with 16, 32,
 * 64 ... channels: runs of a multiple of 48 values in several segments,
 * the weight segments one after the other (tflc__mve_gemm_pairs48), and
 * beside them the same runs with gaps between the weight segments, against
 * the portable GEMM: any rows, columns, gaps between the input runs,
 * input offsets and shifts (left ones too). */
static void test_mve_gemm_runs48(void) {
  int i, ok = 1, bad = 0;
  for (i = 0; i < 300; i++) {
    tflc_gemm_block g;
    g.rows = rnd_range(1, 11);
    g.cols = rnd_range(1, 19);
    g.segments = rnd_range(1, 4);
    g.seg_len = 48 * rnd_range(1, 4);
    g.a_seg = g.seg_len + (rnd() % 2 ? 0 : rnd_range(1, 40));
    g.a_row = g.a_seg * g.segments + rnd_range(0, 5);
    g.w_seg = g.seg_len + (rnd() % 4 == 0 ? rnd_range(1, 3) : 0);
    g.w_col = g.w_seg * g.segments + rnd_range(0, 5);
    g.out_row = g.cols + rnd_range(0, 3);
    g.a_offset = rnd() % 2 ? 0 : pick_offset();
    ok &= mve_gemm_same(g, tflc_gemm_s8_mve, "mve gemm runs48", &bad);
  }
  CHECK(ok);
}

/* tflc_gemm_s8_mve on the blocks of the pointwise convolutions of 16 or
 * 32 channels (tflc__mve_gemm_points: one segment of 16 or 32 values,
 * even columns, odd and even rows) against the portable GEMM: any input
 * offset, gaps between rows, columns and outputs, and now and then a left
 * shift (those blocks take the general path). */
static void test_mve_gemm_points(void) {
  int i, ok = 1, bad = 0;
  for (i = 0; i < 300; i++) {
    tflc_gemm_block g;
    g.rows = rnd_range(1, 11);
    g.cols = 2 * rnd_range(1, 9);
    g.segments = 1;
    g.seg_len = 16 * rnd_range(1, 2);
    g.a_seg = g.seg_len;
    g.a_row = g.seg_len + rnd_range(0, 9);
    g.w_seg = g.seg_len;
    g.w_col = g.seg_len + rnd_range(0, 5);
    g.out_row = g.cols + rnd_range(0, 3);
    g.a_offset = rnd() % 2 ? 0 : pick_offset();
    ok &= mve_gemm_same(g, tflc_gemm_s8_mve, "mve gemm points", &bad);
  }
  CHECK(ok);
}

/* tflc_gemm_s8_mve on the blocks of the pointwise convolutions of 8, 16,
 * 24 and 48 channels (tflc__mve_gemm_k8: one segment of 8 values, rows 8
 * bytes apart, two rows a load; tflc__mve_gemm_k16: 16 values;
 * tflc__mve_gemm_k24: 24 values, four rows a column at a time;
 * tflc__mve_gemm_k48: 48 values, columns 48 bytes apart) against the
 * portable GEMM: any rows
 * and columns, any input offset, gaps between columns and outputs, per
 * tensor and per channel, and now and then a left shift or rows further
 * apart (those blocks take the general path). */
static void test_mve_gemm_k8(void) {
  int i, ok = 1, bad = 0;
  for (i = 0; i < 300; i++) {
    tflc_gemm_block g;
    g.rows = rnd_range(1, 17);
    g.cols = rnd_range(1, 19);
    g.segments = 1;
    g.seg_len = rnd() % 4 == 0 ? 48 : 8 * rnd_range(1, 3);
    g.a_seg = g.seg_len;
    g.a_row = g.seg_len + (rnd() % 8 == 0 ? rnd_range(1, 4) : 0);
    g.w_seg = g.seg_len;
    g.w_col = g.seg_len + (rnd() % 2 ? 0 : rnd_range(1, 5));
    g.out_row = g.cols + rnd_range(0, 3);
    g.a_offset = rnd() % 2 ? 0 : pick_offset();
    ok &= mve_gemm_same(g, tflc_gemm_s8_mve, "mve gemm k8..k48", &bad);
  }
  CHECK(ok);
}

/* tflc_gemm_s8_mve on one row (tflc__mve_gemm_cols) whose segments
 * follow each other in the row and in the columns (a convolution's window
 * over the whole input width: one run of segments * seg_len values, the
 * tail-predicated dot product), and beside them rows and columns with
 * gaps, against the portable GEMM. */
static void test_mve_gemm_one_row(void) {
  int i, ok = 1, bad = 0;
  for (i = 0; i < 300; i++) {
    tflc_gemm_block g;
    g.rows = 1;
    g.cols = rnd_range(1, 19);
    g.segments = rnd_range(1, 6);
    g.seg_len = rnd() % 2 ? 8 * rnd_range(1, 8) : rnd_range(1, 70);
    g.a_seg = g.seg_len + (rnd() % 4 == 0 ? rnd_range(1, 5) : 0);
    g.a_row = g.a_seg * g.segments + rnd_range(0, 5);
    g.w_seg = g.seg_len + (rnd() % 4 == 0 ? rnd_range(1, 3) : 0);
    g.w_col = g.w_seg * g.segments + rnd_range(0, 5);
    g.out_row = g.cols + rnd_range(0, 3);
    g.a_offset = rnd() % 2 ? 0 : pick_offset();
    ok &= mve_gemm_same(g, tflc_gemm_s8_mve, "mve gemm one row", &bad);
  }
  CHECK(ok);
}

/* tflc_gemm_window_s8_mve against the portable GEMM: one segment of any
 * length (around the vector multiples, up to the im2col rows' 64 and
 * past them), few or many rows, any columns (remainders of four), any
 * input offset, gaps between rows, columns and outputs; blocks with
 * other segment counts go through tflc_gemm_s8_mve. */
static void test_mve_gemm_window(void) {
  int i, ok = 1, bad = 0;
  for (i = 0; i < 600; i++) {
    tflc_gemm_block g;
    g.rows = rnd() % 3 == 0 ? rnd_range(1, 40) : rnd_range(1, 4);
    g.cols = rnd_range(1, 70);
    g.segments = rnd() % 8 == 0 ? rnd_range(0, 3) : 1;
    g.seg_len =
        rnd() % 2 ? 16 * rnd_range(1, 4) + rnd_range(-1, 1) : rnd_range(0, 90);
    g.a_seg = g.seg_len + rnd_range(0, 3);
    g.a_row = g.a_seg * (g.segments > 0 ? g.segments : 1) + rnd_range(0, 5);
    g.w_seg = g.seg_len + rnd_range(0, 3);
    g.w_col = g.w_seg * (g.segments > 0 ? g.segments : 1) + rnd_range(0, 5);
    g.out_row = g.cols + rnd_range(0, 3);
    g.a_offset = rnd() % 3 == 0 ? 0 : pick_offset();
    ok &= mve_gemm_same(g, tflc_gemm_window_s8_mve, "mve window gemm", &bad);
  }
  CHECK(ok);
}

/* Runs the block through the portable and the MVE depthwise into
 * `expect` and `got` (both first filled with 0x33): 1 if the bytes agree. */
static int mve_depthwise_same(const tflc_requant_params *rq,
                              tflc_depthwise_block *b, int8_t *expect,
                              int8_t *got, int32_t on) {
  memset(expect, 0x33, (size_t)on);
  b->out = expect;
  tflc_depthwise_s8_portable(rq, b);
  memset(got, 0x33, (size_t)on);
  b->out = got;
  tflc_depthwise_s8_mve(rq, b);
  return memcmp(got, expect, (size_t)on) == 0;
}

static void test_mve_depthwise(void) {
  int i, ok = 1, bad = 0;
  for (i = 0; i < 600; i++) {
    quant k;
    tflc_depthwise_block b;
    tflc_requant_params rq;
    int32_t xn, wn, on;
    int8_t *x, *w, *expect, *got;
    static const int32_t mults[8] = {1, 1, 1, 1, 4, 8, 2, 3};
    b.multiplier = mults[rnd() % 8];
    b.channels = rnd() % 2 ? 4 * rnd_range(1, 5) : rnd_range(1, 21);
    b.pixels = rnd_range(1, 11);
    b.rows = rnd_range(0, 3);
    b.cols = rnd_range(0, 3);
    b.x_col = (b.channels + b.multiplier - 1) / b.multiplier + rnd_range(0, 3);
    b.x_row = b.x_col * 4 + rnd_range(0, 3);
    b.x_pixel = b.x_col * rnd_range(1, 2);
    b.x_offset = rnd() % 2 ? 0 : pick_offset();
    b.w_col = b.channels + rnd_range(0, 3);
    b.w_row = b.w_col * 3 + rnd_range(0, 3);
    b.out_pixel = b.channels + rnd_range(0, 3);
    xn = b.x_row * 3 + b.x_pixel * b.pixels + b.x_col * 3 + 1;
    wn = b.w_row * 3 + b.w_col * 3 + b.channels;
    on = b.out_pixel * b.pixels;
    x = (int8_t *)malloc((size_t)xn);
    w = (int8_t *)malloc((size_t)wn);
    expect = (int8_t *)malloc((size_t)on);
    got = (int8_t *)malloc((size_t)on);
    fill_s8(x, xn);
    fill_s8(w, wn);
    mve_random_quant(&k, b.channels, 9);
    rq = quant_params(&k, (int)(rnd() % 4 != 0), (int)(rnd() % 4 != 0));
    b.x = x;
    b.w = w;
    if (!mve_depthwise_same(&rq, &b, expect, got, on)) {
      ok = 0;
      if (bad++ < 3)
        printf("  mve depthwise differs: ch %d m %d px %d %dx%d off %d\n",
               (int)b.channels, (int)b.multiplier, (int)b.pixels, (int)b.rows,
               (int)b.cols, (int)b.x_offset);
    }
    free(x);
    free(w);
    free(expect);
    free(got);
  }
  CHECK(ok);
}

/* The depthwise shapes of the multiplier-1 paths: runs of pixels with
 * windows up to 3 x 3 (pixels in the lanes, the last group partial) and
 * short runs (1 to 7 pixels) of sixteen or more channels (channels in the
 * lanes), any input offset, pixel strides along a row or down a column,
 * every shift. */
static void test_mve_depthwise_runs(void) {
  int i, ok = 1, bad = 0;
  for (i = 0; i < 500; i++) {
    quant k;
    tflc_depthwise_block b;
    tflc_requant_params rq;
    int32_t xn, wn, on;
    int8_t *x, *w, *expect, *got;
    const int one = rnd() % 3 == 0;
    b.multiplier = 1;
    b.channels = one ? rnd_range(16, 45) : rnd_range(1, 20);
    b.pixels = one ? rnd_range(1, 7) : rnd_range(2, 30);
    b.rows = rnd() % 2 ? 3 : rnd_range(1, 3);
    b.cols = rnd() % 2 ? 3 : rnd_range(1, 3);
    if (rnd() % 16 == 0) /* an empty window */
      b.rows = 0;
    b.x_col = b.channels + rnd_range(0, 3);
    b.x_row = b.x_col * rnd_range(3, 6) + rnd_range(0, 3);
    b.x_pixel = rnd() % 2 ? b.x_col * rnd_range(1, 2) : b.x_row;
    b.x_offset = rnd() % 3 == 0 ? 0 : pick_offset();
    b.w_col = b.channels + rnd_range(0, 3);
    b.w_row = b.w_col * 3 + rnd_range(0, 3);
    b.out_pixel = b.channels + rnd_range(0, 5);
    xn = b.x_row * 3 + b.x_pixel * b.pixels + b.x_col * 3 + 1;
    wn = b.w_row * 3 + b.w_col * 3 + b.channels;
    on = b.out_pixel * b.pixels;
    x = (int8_t *)malloc((size_t)xn);
    w = (int8_t *)malloc((size_t)wn);
    expect = (int8_t *)malloc((size_t)on);
    got = (int8_t *)malloc((size_t)on);
    fill_s8(x, xn);
    fill_s8(w, wn);
    mve_random_quant(&k, b.channels, 9);
    rq = quant_params(&k, (int)(rnd() % 4 != 0), (int)(rnd() % 4 != 0));
    b.x = x;
    b.w = w;
    if (!mve_depthwise_same(&rq, &b, expect, got, on)) {
      ok = 0;
      if (bad++ < 3)
        printf("  mve depthwise run differs: ch %d px %d %dx%d off %d\n",
               (int)b.channels, (int)b.pixels, (int)b.rows, (int)b.cols,
               (int)b.x_offset);
    }
    free(x);
    free(w);
    free(expect);
    free(got);
  }
  CHECK(ok);
}

/* Helium's 3x3 depthwise layer (tflc__mve_dw3x3_layer: eight channels at
 * a time over the whole map, runs inside the input with the offset in the
 * biases, clipped windows on the borders) against the reference and the
 * portable whole-layer path, byte for byte: maps from 1x1 (windows
 * clipped on every side, empty ones with large padding), strides 1 to 3,
 * SAME and VALID, one or two batches, any input offset up to 16 bits, any
 * requantization and bias, and narrow tall maps (1 to 6 columns, up to 30
 * rows: the column by column path); channels not a multiple of eight,
 * offsets beyond 16 bits, and narrow tall maps of inputs under 3 x 3 or
 * with left shifts, output offsets beyond +-32640 or clamps beyond int8
 * refused (nothing written). */
static void test_mve_dw3x3_layer(void) {
  const test_depthwise_fn saved = test_depthwise_impl;
  int i, ok = 1, used = 0, used_narrow = 0;
  for (i = 0; i < 400; i++) {
    conv_shape g;
    quant k;
    tflc_conv_params p;
    int32_t in_dims[4], f_dims[4], out_dims[4], in_n, f_n, out_n, off;
    int8_t *in, *f, *expect, *got;
    const int wb = (int)(rnd() % 4 != 0);
    const int tall = i % 3 == 0;
    int same, ran, case_ok, narrow, narrow_ok;
    int32_t j;
    tflc_const braw, fc;
    memset(&g, 0, sizeof g);
    g.dw_conv = 1;
    g.mult = 1;
    g.n = rnd_range(1, 2);
    g.h = tall ? rnd_range(6, 30) : rnd_range(1, 12);
    g.w = tall ? rnd_range(1, 6) : rnd_range(1, 12);
    g.kh = g.kw = 3;
    g.dh = g.dw = 1;
    g.sh = tall ? rnd_range(1, 2) : rnd_range(1, 3);
    g.sw = tall ? rnd_range(1, 2) : rnd_range(1, 3);
    same = g.h < 3 || g.w < 3 || rnd() % 2;
    out_size(g.h, 3, g.sh, 1, same, &g.oh, &g.ph);
    out_size(g.w, 3, g.sw, 1, same, &g.ow, &g.pw);
    if (rnd() % 16 == 0) { /* padding beyond the window: empty windows */
      g.ph += 3;
      g.pw += 2;
      g.oh += 2;
      g.ow += 2;
    }
    g.cin = g.cout = rnd() % 8 == 0 ? rnd_range(1, 40)
                     : tall         ? 8 * rnd_range(1, 9)
                                    : 8 * rnd_range(1, 6);
    narrow = g.ow <= 5 && g.oh > 5;
    narrow_ok = g.h >= 3 && g.w >= 3;
    off = rnd() % 4 == 0 ? 0 : pick_offset();
    g.in_zp = -off;
    in_n = g.n * g.h * g.w * g.cin;
    f_n = 9 * g.cout;
    out_n = g.n * g.oh * g.ow * g.cout;
    in = (int8_t *)malloc((size_t)in_n);
    f = (int8_t *)malloc((size_t)f_n);
    expect = (int8_t *)malloc((size_t)out_n);
    got = (int8_t *)malloc((size_t)out_n);
    fill_s8(in, in_n);
    fill_s8(f, f_n);
    mve_random_quant(&k, g.cout, 9);
    for (j = 0; j < g.cout; j++)
      narrow_ok &= k.s[j] <= 0;
    narrow_ok &= k.zp >= -32640 && k.zp <= 32640 && k.lo >= -128 && k.hi <= 127;
    in_dims[0] = out_dims[0] = g.n;
    in_dims[1] = g.h;
    in_dims[2] = g.w;
    in_dims[3] = g.cin;
    f_dims[0] = 1;
    f_dims[1] = f_dims[2] = 3;
    f_dims[3] = g.cout;
    out_dims[1] = g.oh;
    out_dims[2] = g.ow;
    out_dims[3] = g.cout;
    memset(&p, 0, sizeof p);
    p.stride_h = g.sh;
    p.stride_w = g.sw;
    p.dilation_h = p.dilation_w = 1;
    p.pad_h = g.ph;
    p.pad_w = g.pw;
    p.depth_multiplier = 1;
    p.input_offset = off;
    p.output_offset = k.zp;
    p.act_min = k.lo;
    p.act_max = k.hi;
    p.out_multiplier = k.q;
    p.out_shift = k.s;
    braw = tflc_const_raw(k.bias, TFLC_INT32, g.cout);
    fc = tflc_const_raw(f, TFLC_INT8, f_n);
    ref_conv(&g, &k, wb, in, f, expect);
    /* the portable whole-layer path gives the reference's bytes */
    test_depthwise_impl = tflc_depthwise_s8_portable;
    memset(got, 0x5A, (size_t)out_n);
    tflc_depthwise_conv2d_s8(&p, in_dims, in, f_dims, &fc, wb ? &braw : NULL,
                             out_dims, got, NULL, 0);
    case_ok = memcmp(got, expect, (size_t)out_n) == 0;
    memset(got, 0x5A, (size_t)out_n);
    ran = tflc__mve_dw3x3_layer(&p, in_dims, in, f_dims, &fc, wb ? &braw : NULL,
                                out_dims, got);
    if (ran) {
      case_ok &= memcmp(got, expect, (size_t)out_n) == 0;
      case_ok &= g.cout % 8 == 0 && off >= -32640 && off <= 32640 &&
                 (!narrow || narrow_ok);
      used++;
      used_narrow += narrow;
    } else {
      case_ok &= g.cout % 8 != 0 || off < -32640 || off > 32640 ||
                 (narrow && !narrow_ok);
      for (j = 0; j < out_n; j++)
        case_ok &= got[j] == 0x5A;
    }
    if (!case_ok)
      fprintf(stderr, "  mve 3x3 layer: n%d %dx%dx%d s%d,%d p%d,%d off %d\n",
              (int)g.n, (int)g.h, (int)g.w, (int)g.cin, (int)g.sh, (int)g.sw,
              (int)g.ph, (int)g.pw, (int)off);
    ok &= case_ok;
    free(in);
    free(f);
    free(expect);
    free(got);
  }
  test_depthwise_impl = saved;
  CHECK(ok);
  CHECK(used > 160);       /* most layers took the path */
  CHECK(used_narrow > 30); /* and the narrow maps' */
}

/* Helium's int8 AVERAGE_POOL_2D against the portable kernel, bytes and
 * status: random maps, depths not multiples of sixteen, strides, padding
 * (windows clipped on every side, some without taps), filters larger than
 * the input, clamps, one or two batches. */
static void test_mve_avg_pool(void) {
  int i, ok = 1, failed = 0;
  for (i = 0; i < 300; i++) {
    tflc_pool_params p;
    int32_t id[4], od[4], in_n, out_n;
    int8_t *in, *expect, *got;
    tflc_status se, sg;
    id[0] = od[0] = rnd_range(1, 2);
    id[1] = rnd_range(1, 12);
    id[2] = rnd_range(1, 12);
    id[3] = od[3] = rnd() % 4 == 0 ? rnd_range(1, 80) : 8 * rnd_range(1, 9);
    p.filter_h = rnd_range(1, id[1] + 3);
    p.filter_w = rnd_range(1, id[2] + 3);
    p.stride_h = rnd_range(1, 3);
    p.stride_w = rnd_range(1, 3);
    p.pad_h = rnd() % 3 == 0 ? rnd_range(0, p.filter_h + 1) : 0;
    p.pad_w = rnd() % 3 == 0 ? rnd_range(0, p.filter_w + 1) : 0;
    od[1] = rnd_range(1, (id[1] + 2 * p.pad_h) / p.stride_h + 1);
    od[2] = rnd_range(1, (id[2] + 2 * p.pad_w) / p.stride_w + 1);
    p.act_min = rnd() % 2 ? -128 : rnd_range(-128, 20);
    p.act_max = rnd() % 2 ? 127 : rnd_range(p.act_min, 127);
    in_n = id[0] * id[1] * id[2] * id[3];
    out_n = od[0] * od[1] * od[2] * od[3];
    in = (int8_t *)malloc((size_t)in_n);
    expect = (int8_t *)malloc((size_t)out_n);
    got = (int8_t *)malloc((size_t)out_n);
    fill_s8(in, in_n);
    memset(expect, 0x5A, (size_t)out_n);
    memset(got, 0x5A, (size_t)out_n);
    se = tflc_avg_pool_s8(&p, id, in, od, expect);
    sg = tflc_avg_pool_s8_mve(&p, id, in, od, got);
    failed += se != TFLC_OK;
    if (se != sg || memcmp(expect, got, (size_t)out_n) != 0) {
      fprintf(stderr, "  mve avg pool: %dx%dx%dx%d f%dx%d s%d,%d p%d,%d\n",
              (int)id[0], (int)id[1], (int)id[2], (int)id[3], (int)p.filter_h,
              (int)p.filter_w, (int)p.stride_h, (int)p.stride_w, (int)p.pad_h,
              (int)p.pad_w);
      ok = 0;
    }
    free(in);
    free(expect);
    free(got);
  }
  CHECK(ok);
  CHECK(failed > 5 && failed < 150); /* some windows without taps */
}

/* The fully connected layer with prepared per-output constants against
 * the portable GEMM with the input offset on the inputs: int16 row sums
 * (depths up to 256) or biases with the offset folded in (any depth),
 * with and without biases, any offset, one or more batches. */
static void test_mve_fully_connected(void) {
  int i, ok = 1, bad = 0;
  for (i = 0; i < 400; i++) {
    quant k;
    tflc_gemm_block g;
    tflc_requant_params rq;
    const int32_t batches = rnd() % 2 ? 1 : rnd_range(1, 5);
    const int32_t depth = rnd() % 2 ? 16 * rnd_range(1, 20) + rnd_range(-1, 1)
                                    : rnd_range(1, 300);
    const int32_t out_depth = rnd_range(1, 37);
    const int32_t off = rnd() % 4 == 0 ? 0 : pick_offset();
    const int with_bias = (int)(rnd() % 4 != 0);
    const int use_sums = depth <= 256 && rnd() % 2;
    int32_t folded[256], o, d;
    int16_t sums[256];
    int8_t *x, *w, *expect, *got;
    x = (int8_t *)malloc((size_t)(batches * depth));
    w = (int8_t *)malloc((size_t)(out_depth * depth));
    expect = (int8_t *)malloc((size_t)(batches * out_depth));
    got = (int8_t *)malloc((size_t)(batches * out_depth));
    fill_s8(x, batches * depth);
    fill_s8(w, out_depth * depth);
    if (rnd() % 8 == 0) /* rows of -128: the extreme sums */
      memset(w, 0x80, (size_t)(out_depth * depth));
    mve_random_quant(&k, out_depth, depth + 1);
    rq = quant_params(&k, (int)(rnd() % 4 != 0), with_bias);
    g.rows = batches;
    g.cols = out_depth;
    g.segments = 1;
    g.seg_len = depth;
    g.a = x;
    g.a_row = depth;
    g.a_seg = 0;
    g.a_offset = off;
    g.w = w;
    g.w_col = depth;
    g.w_seg = 0;
    g.out_row = out_depth;
    memset(expect, 0x33, (size_t)(batches * out_depth));
    g.out = expect;
    tflc_gemm_s8_portable(&rq, &g);
    for (o = 0; o < out_depth; o++) {
      int32_t sum = 0;
      for (d = 0; d < depth; d++)
        sum += w[o * depth + d];
      sums[o] = (int16_t)sum;
      folded[o] = (int32_t)((uint32_t)(with_bias ? k.bias[o] : 0) +
                            (uint32_t)off * (uint32_t)sum);
    }
    if (!use_sums)
      rq.bias = folded;
    memset(got, 0x33, (size_t)(batches * out_depth));
    tflc_fully_connected_s8_mve(&rq, use_sums ? sums : NULL, off, batches,
                                depth, out_depth, x, w, got);
    if (memcmp(got, expect, (size_t)(batches * out_depth)) != 0) {
      ok = 0;
      if (bad++ < 3)
        printf("  mve fc differs: batches %d depth %d out %d off %d sums %d\n",
               (int)batches, (int)depth, (int)out_depth, (int)off, use_sums);
    }
    free(x);
    free(w);
    free(expect);
    free(got);
  }
  CHECK(ok);
}

static void test_mve_requantize(void) {
  int i, ok = 1;
  for (i = 0; i < 300; i++) {
    quant k;
    int32_t acc[40], c, n = rnd_range(1, 40);
    int8_t got[40], expect[40];
    tflc_requant_params rq;
    mve_random_quant(&k, n, rnd_range(1, 500));
    rq = quant_params(&k, (int)(rnd() % 2), (int)(rnd() % 2));
    for (c = 0; c < n; c++) {
      acc[c] = (int32_t)rnd();
      if (rnd() % 2)
        acc[c] >>= rnd_range(8, 24);
    }
    tflc_requantize_s8_portable(&rq, n, acc, expect);
    tflc_requantize_s8_mve(&rq, n, acc, got);
    ok &= memcmp(got, expect, (size_t)n) == 0;
  }
  CHECK(ok);
}

/* The int8 ADD's element-wise loop: random lengths (the predicated tail),
 * parameters as tflc_add_prepare_s8 makes them from random scales, or any
 * within the primitive's range (left shift 0..20, shifts -31..31, extreme
 * multipliers, offsets and clamps), or small shifts throughout (where an
 * intermediate off by one changes the output). Every variant of the MVE
 * loop (right shifts below 0 or 0, the inputs swapped, left shifts) gets
 * its cases. */
static void test_mve_add(void) {
  int i, ok = 1, bad = 0;
  for (i = 0; i < 600; i++) {
    tflc_add_params p;
    int8_t in1[80], in2[80], expect[84], got[84];
    const size_t n = (size_t)rnd_range(0, 80);
    const uint32_t mode = rnd() % 3;
    if (mode == 0) {
      const float s1 = 0.001f + (float)(rnd() % 1000) / 1000.0f;
      const float s2 = 0.001f + (float)(rnd() % 1000) / 1000.0f;
      const float so = 0.001f + (float)(rnd() % 1000) / 500.0f;
      tflc_add_prepare_s8(s1, rnd_range(-128, 127), s2, rnd_range(-128, 127),
                          so, rnd_range(-128, 127), (int)(rnd() % 4), &p);
    } else {
      const int32_t lo = rnd_range(-128, 127);
      p.input1_offset = rnd_range(-255, 255);
      p.input2_offset = rnd_range(-255, 255);
      p.output_offset = rnd_range(-300, 300);
      p.left_shift = rnd_range(0, 20);
      p.input1_multiplier = rnd() % 4 == 0 ? INT32_MIN : (int32_t)rnd();
      p.input2_multiplier = rnd() % 4 == 0 ? INT32_MAX : (int32_t)rnd();
      p.output_multiplier = rnd() % 4 == 0 ? INT32_MIN : (int32_t)rnd();
      p.input1_shift = rnd_range(-31, 31);
      p.input2_shift = rnd() % 2 ? rnd_range(-31, 31) : rnd_range(-20, 0);
      p.output_shift = rnd() % 2 ? rnd_range(-31, 31) : rnd_range(-20, 0);
      if (mode == 2) {
        /* small shifts everywhere: an intermediate off by one shows */
        p.left_shift = rnd_range(0, 2);
        p.input1_shift = rnd_range(-3, 1);
        p.input2_shift = rnd_range(-3, 1);
        p.output_shift = rnd_range(-3, 1);
      }
      p.act_min = lo;
      p.act_max = rnd_range(lo, 127);
    }
    fill_s8(in1, 80);
    fill_s8(in2, 80);
    memset(expect, 0x33, sizeof expect);
    memset(got, 0x33, sizeof got);
    tflc_add_elementwise_s8_portable(&p, n, in1, in2, expect);
    tflc_add_elementwise_s8_mve(&p, n, in1, in2, got);
    if (memcmp(got, expect, sizeof got) != 0) {
      ok = 0;
      if (bad++ < 3)
        printf("  mve add differs: n %d shifts %d %d %d left %d\n", (int)n,
               (int)p.input1_shift, (int)p.input2_shift, (int)p.output_shift,
               (int)p.left_shift);
    }
  }
  CHECK(ok);
}

#if defined(TFLC__CONV_WINDOWS_S8_IS_MVE)
/* CONV_2D through Helium's window copies (tflc__conv2d_s8_im2col_mve, the
 * library's GEMM: tests/m55_test.sh's TEST_LIBRARY_GEMM build) against the
 * reference: kernel rows under 16 values of 1-5 input channels, any depth
 * up to 64 (odd ones, the 2 x 2 blocks of rows up to 32 values and the
 * four-column kernel beyond), maps with inside and border windows,
 * strides 1-3, dilation down the height, SAME and VALID, every input zero
 * point, one or two batches, 1-40 output channels (odd ones), left shifts
 * now and then, biases none, in place, or not 4-byte aligned (that layer
 * declines to the generic driver). */
static int mve_conv_windows_case(void) {
  conv_shape g;
  quant k;
  tflc_conv_params p;
  int32_t in_dims[4], f_dims[4], out_dims[4], in_n, f_n, out_n, depth;
  int8_t *in, *f, *expect, *got;
  const int bias_mode = (int)(rnd() % 4); /* 0 none, 3 misaligned */
  int same, ok;
  tflc_const braw;
  static int32_t bias_words[257];
  memset(&g, 0, sizeof g);
  do {
    g.cin = rnd_range(1, 5);
    g.kh = rnd_range(1, 7);
    g.kw = rnd_range(1, 15 / g.cin);
    depth = g.kh * g.kw * g.cin;
  } while (depth > TFLC__SMALL_DEPTH || (g.kh == 1 && g.kw == 1));
  g.n = rnd_range(1, 2);
  g.h = rnd_range(g.kh, 20);
  g.w = rnd_range(g.kw, 20);
  g.sh = rnd_range(1, 3);
  g.sw = rnd_range(1, 3);
  g.dh = rnd() % 5 == 0 && 2 * g.kh - 1 <= g.h ? 2 : 1;
  g.dw = 1;
  g.mult = 1;
  same = (int)(rnd() % 2);
  out_size(g.h, g.kh, g.sh, g.dh, same, &g.oh, &g.ph);
  out_size(g.w, g.kw, g.sw, g.dw, same, &g.ow, &g.pw);
  g.cout = rnd_range(1, 40);
  g.in_zp = rnd_range(-128, 127);
  in_n = g.n * g.h * g.w * g.cin;
  f_n = depth * g.cout;
  out_n = g.n * g.oh * g.ow * g.cout;
  in = (int8_t *)malloc((size_t)in_n);
  f = (int8_t *)malloc((size_t)f_n);
  expect = (int8_t *)malloc((size_t)out_n);
  got = (int8_t *)malloc((size_t)out_n);
  fill_s8(in, in_n);
  fill_s8(f, f_n);
  make_quant(&k, g.cout, depth);
  in_dims[0] = out_dims[0] = g.n;
  in_dims[1] = g.h;
  in_dims[2] = g.w;
  in_dims[3] = g.cin;
  f_dims[0] = g.cout;
  f_dims[1] = g.kh;
  f_dims[2] = g.kw;
  f_dims[3] = g.cin;
  out_dims[1] = g.oh;
  out_dims[2] = g.ow;
  out_dims[3] = g.cout;
  memset(&p, 0, sizeof p);
  p.stride_h = g.sh;
  p.stride_w = g.sw;
  p.dilation_h = g.dh;
  p.dilation_w = g.dw;
  p.pad_h = g.ph;
  p.pad_w = g.pw;
  p.depth_multiplier = 1;
  p.input_offset = -g.in_zp;
  p.output_offset = k.zp;
  p.act_min = k.lo;
  p.act_max = k.hi;
  p.out_multiplier = k.q;
  p.out_shift = k.s;
  if (bias_mode == 3) { /* two bytes into the words: not 4-byte aligned */
    memcpy((uint8_t *)bias_words + 2, k.bias, (size_t)g.cout * 4u);
    braw = tflc_const_raw((uint8_t *)bias_words + 2, TFLC_INT32, g.cout);
  } else {
    braw = tflc_const_raw(k.bias, TFLC_INT32, g.cout);
  }
  ref_conv(&g, &k, bias_mode != 0, in, f, expect);
  {
    const tflc_const fc = tflc_const_raw(f, TFLC_INT8, f_n);
    memset(got, 0x5A, (size_t)out_n);
    tflc_conv2d_s8(&p, in_dims, in, f_dims, &fc, bias_mode ? &braw : NULL,
                   out_dims, got, NULL, 0);
  }
  ok = memcmp(got, expect, (size_t)out_n) == 0;
  if (!ok)
    printf("  mve conv windows: n%d %dx%dx%d -> %d, k%dx%d s%d,%d d%d p%d,%d "
           "zp %d bias %d\n",
           (int)g.n, (int)g.h, (int)g.w, (int)g.cin, (int)g.cout, (int)g.kh,
           (int)g.kw, (int)g.sh, (int)g.sw, (int)g.dh, (int)g.ph, (int)g.pw,
           (int)g.in_zp, bias_mode);
  free(in);
  free(f);
  free(expect);
  free(got);
  return ok;
}

static void test_mve_conv_windows(void) {
  int i, ok = 1;
  for (i = 0; i < 200; i++)
    ok &= mve_conv_windows_case();
  CHECK(ok);
}
#endif

static void test_kernels_mve(void) {
  kernels_with(tflc_gemm_s8_mve, tflc_depthwise_s8_mve);
}
#endif

/* row copies (Helium's tail-predicated loop where the core has it)
 * against a byte loop: lengths 0..100, any alignment, strides with gaps,
 * the bytes around each row untouched */
static void test_copy_rows(void) {
  static unsigned char src[1200], dst[1200], want[1200];
  int it, bad = 0;
  for (it = 0; it < 400; it++) {
    const int32_t rows = rng_int(1, 4), len = rng_int(0, 100);
    const size_t so = (size_t)rng_int(0, 15), doff = (size_t)rng_int(0, 15);
    const size_t ss = (size_t)(len + rng_int(0, 9));
    const size_t ds = (size_t)(len + rng_int(0, 9));
    int32_t r, i;
    for (i = 0; i < 1200; i++) {
      src[i] = (unsigned char)rng();
      dst[i] = want[i] = (unsigned char)rng();
    }
    for (r = 0; r < rows; r++)
      for (i = 0; i < len; i++)
        want[doff + (size_t)r * ds + (size_t)i] =
            src[so + (size_t)r * ss + (size_t)i];
    tflc_copy_rows(rows, (size_t)len, src + so, ss, dst + doff, ds);
    bad += memcmp(dst, want, sizeof dst) != 0;
  }
  CHECK_EQ_INT(bad, 0);
}

int main(void) {
  rng_seed(777u);
#if defined(TEST_LIBRARY_GEMM)
  /* the kernels with the GEMM the library picks for this core (the test's
   * own choice of GEMM has no effect) */
  RUN(test_kernels_portable);
#if defined(TFLC__CONV_WINDOWS_S8_IS_MVE)
  RUN(test_mve_conv_windows);
  printf("MVE convolution windows tested\n");
#endif
  printf("kernels with the library's GEMM tested\n");
  return harness_report();
#endif
  RUN(test_copy_rows);
  RUN(test_requantize);
  RUN(test_gemm_primitives);
  RUN(test_gemm_sat_blocks);
  RUN(test_gemm_pre_blocks);
#if defined(TFLC__SUM_S8_IS_DSP)
  RUN(test_dsp_sum_s8);
#endif
  RUN(test_depthwise_primitives);
  RUN(test_dsp_depthwise_runs);
#if defined(TFLC_HAVE_DSP)
  RUN(test_dsp_dw3x3_layer);
  RUN(test_dsp_dw_layer);
  RUN(test_dsp_fully_connected);
  RUN(test_dsp_add);
#endif
  RUN(test_lut_unpack);
  RUN(test_kernels_portable);
  RUN(test_kernels_dsp);
  RUN(test_conv_im2col_rows);
  RUN(test_conv_im2col_split);
  RUN(test_conv_gather);
#if defined(TFLC_HAVE_MVE)
  RUN(test_mve_requantize);
  RUN(test_mve_gemm);
  RUN(test_mve_gemm_runs48);
  RUN(test_mve_gemm_points);
  RUN(test_mve_gemm_window);
  RUN(test_mve_depthwise);
  RUN(test_mve_depthwise_runs);
  RUN(test_mve_dw3x3_layer);
  RUN(test_mve_avg_pool);
  RUN(test_mve_fully_connected);
  RUN(test_mve_add);
  RUN(test_kernels_mve);
  /* last: the random draws of the others kept */
  RUN(test_mve_gemm_k8);
  RUN(test_mve_gemm_one_row);
  printf("MVE primitives tested\n");
#endif
  printf("gemm calls %ld, depthwise calls %ld (last run)\n", test_gemm_calls,
         test_depthwise_calls);
  return harness_report();
}

/* tests/test_ops_conv_int8.c - int8 CONV_2D, DEPTHWISE_CONV_2D and
 * FULLY_CONNECTED kernels (float32 FULLY_CONNECTED too); the rest of the
 * convolution family is in test_ops_conv.c.
 *
 * Three kinds of checks:
 *  - small cases whose outputs were computed by hand (in the comments);
 *  - random cases against naive references written here straight from
 *    INT8_KERNELS.md §1.4 and §2.2 (their own MBQM, per-tap bounds checks,
 *    64-bit accumulators; no call into the kernels);
 *  - the same cases with the filter (and bias) LUT-compressed, per tensor
 *    and per channel, run with tiles of 64, 100, 512 and 1 MiB bytes and
 *    with no tile: the output bytes must equal the raw-constant run. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_KERNELS_IMPLEMENTATION
#endif
#include "../tflc_kernels.h"
#include "harness.h"

#include <stdlib.h>

/* ---- naive references (INT8_KERNELS.md) --------------------------------- */

static int32_t ref_srdhm(int64_t a, int64_t b) {
  int64_t p;
  if (a == INT32_MIN && b == INT32_MIN)
    return INT32_MAX;
  p = a * b + ((int64_t)1 << 30);
  /* floor division by 2^31 */
  if (p >= 0)
    return (int32_t)(p / ((int64_t)1 << 31));
  return (int32_t)(-((-p + ((int64_t)1 << 31) - 1) / ((int64_t)1 << 31)));
}

static int32_t ref_rdbpot(int32_t x, int n) {
  /* nearest, ties away from zero */
  int64_t mag = x < 0 ? -(int64_t)x : (int64_t)x, d = (int64_t)1 << n, r;
  if (n == 0)
    return x;
  r = mag / d + ((mag % d) * 2 >= d ? 1 : 0);
  return (int32_t)(x < 0 ? -r : r);
}

/* The kernels take int8 shifts; tests keep int32 ones and narrow here. */
static int8_t shift8_buf[16][1024];
static unsigned shift8_next;
static const int8_t *shift8(const int32_t *s, size_t n) {
  int8_t *d = shift8_buf[shift8_next++ % 16];
  size_t i;
  for (i = 0; i < n && i < 1024; i++)
    d[i] = (int8_t)s[i];
  return d;
}

static int32_t ref_mbqm(int32_t x, int32_t q, int32_t shift) {
  const int32_t xl = shift > 0 ? x * (1 << shift) : x;
  return ref_rdbpot(ref_srdhm(xl, q), shift > 0 ? 0 : (int)-shift);
}

static int8_t ref_out(int64_t acc, int32_t q, int32_t s, int32_t zp, int32_t lo,
                      int32_t hi) {
  int32_t v = ref_mbqm((int32_t)acc, q, s) + zp;
  if (v < lo)
    v = lo;
  if (v > hi)
    v = hi;
  return (int8_t)v;
}

typedef struct conv_case {
  int32_t n, h, w, cin;       /* input */
  int32_t cout, kh, kw, fcin; /* filter [cout, kh, kw, fcin] */
  int32_t mult;               /* depthwise multiplier */
  int32_t oh, ow;             /* output */
  int32_t sh, sw, dh, dw, ph, pw;
  int32_t in_zp, out_zp, lo, hi;
  const int8_t *in, *filter;
  const int32_t *bias; /* may be NULL */
  const int32_t *q, *shift;
} conv_case;

static void ref_conv(const conv_case *k, int8_t *out) {
  const int32_t groups = k->cin / k->fcin, fpg = k->cout / groups;
  int32_t b, oy, ox, oc, ky, kx, ci;
  for (b = 0; b < k->n; b++)
    for (oy = 0; oy < k->oh; oy++)
      for (ox = 0; ox < k->ow; ox++)
        for (oc = 0; oc < k->cout; oc++) {
          const int32_t g = oc / fpg;
          int64_t acc = 0;
          for (ky = 0; ky < k->kh; ky++)
            for (kx = 0; kx < k->kw; kx++) {
              const int32_t iy = oy * k->sh - k->ph + ky * k->dh;
              const int32_t ix = ox * k->sw - k->pw + kx * k->dw;
              if (iy < 0 || iy >= k->h || ix < 0 || ix >= k->w)
                continue;
              for (ci = 0; ci < k->fcin; ci++) {
                const int32_t x = k->in[((b * k->h + iy) * k->w + ix) * k->cin +
                                        g * k->fcin + ci];
                const int32_t f =
                    k->filter[((oc * k->kh + ky) * k->kw + kx) * k->fcin + ci];
                acc += (int64_t)f * (x - k->in_zp);
              }
            }
          if (k->bias)
            acc += k->bias[oc];
          out[((b * k->oh + oy) * k->ow + ox) * k->cout + oc] =
              ref_out(acc, k->q[oc], k->shift[oc], k->out_zp, k->lo, k->hi);
        }
}

static void ref_depthwise(const conv_case *k, int8_t *out) {
  int32_t b, oy, ox, ic, m, ky, kx;
  for (b = 0; b < k->n; b++)
    for (oy = 0; oy < k->oh; oy++)
      for (ox = 0; ox < k->ow; ox++)
        for (ic = 0; ic < k->cin; ic++)
          for (m = 0; m < k->mult; m++) {
            const int32_t oc = ic * k->mult + m;
            int64_t acc = 0;
            for (ky = 0; ky < k->kh; ky++)
              for (kx = 0; kx < k->kw; kx++) {
                const int32_t iy = oy * k->sh - k->ph + ky * k->dh;
                const int32_t ix = ox * k->sw - k->pw + kx * k->dw;
                if (iy < 0 || iy >= k->h || ix < 0 || ix >= k->w)
                  continue;
                acc += (int64_t)k->filter[(ky * k->kw + kx) * k->cout + oc] *
                       (k->in[((b * k->h + iy) * k->w + ix) * k->cin + ic] -
                        k->in_zp);
              }
            if (k->bias)
              acc += k->bias[oc];
            out[((b * k->oh + oy) * k->ow + ox) * k->cout + oc] =
                ref_out(acc, k->q[oc], k->shift[oc], k->out_zp, k->lo, k->hi);
          }
}

static void ref_fc(int32_t batches, int32_t depth, int32_t outs,
                   const int8_t *in, const int8_t *w, const int32_t *bias,
                   int32_t in_zp, int32_t w_zp, int per_channel,
                   const int32_t *q, const int32_t *s, int32_t out_zp,
                   int32_t lo, int32_t hi, int8_t *out) {
  int32_t b, o, d;
  for (b = 0; b < batches; b++)
    for (o = 0; o < outs; o++) {
      int64_t acc = 0;
      for (d = 0; d < depth; d++)
        acc += (int64_t)(w[o * depth + d] - (per_channel ? 0 : w_zp)) *
               (in[b * depth + d] - in_zp);
      if (bias)
        acc += bias[o];
      out[b * outs + o] = ref_out(acc, q[per_channel ? o : 0],
                                  s[per_channel ? o : 0], out_zp, lo, hi);
    }
}

/* ---- LUT compression done by the test ----------------------------------- */

typedef struct test_lut {
  uint8_t *bits;   /* exact-size heap block */
  uint8_t *values; /* exact-size heap block */
  tflc_const c;
} test_lut;

/* Compress `count` elements of `es` bytes: per tensor (channels 1), first
 * axis or last axis. Values of a channel are collected in order of first
 * appearance; the index width is the smallest that fits every channel, at
 * least min_bits. */
static void lut_make(test_lut *t, const void *data, tflc_type type, size_t es,
                     int32_t count, int32_t channels, int alt, int min_bits) {
  const uint8_t *d = (const uint8_t *)data;
  const int32_t epc = channels <= 1 ? count : (alt ? 1 : count / channels);
  int32_t stride = 1, ch, i, bits = min_bits;
  uint32_t *idx = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)count);
  int32_t *used = (int32_t *)calloc((size_t)channels, sizeof(int32_t));
  uint8_t *tab = (uint8_t *)calloc((size_t)channels * 256u, es);
  size_t nbytes;
  for (i = 0; i < count; i++) {
    int32_t j;
    ch = channels <= 1 ? 0 : (alt ? i % channels : i / epc);
    for (j = 0; j < used[ch]; j++)
      if (memcmp(tab + ((size_t)ch * 256u + (size_t)j) * es, d + (size_t)i * es,
                 es) == 0)
        break;
    if (j == 256) { /* more distinct values than 8 bits can index */
      CHECK(j < 256);
      j = 0;
    } else if (j == used[ch]) {
      memcpy(tab + ((size_t)ch * 256u + (size_t)j) * es, d + (size_t)i * es,
             es);
      used[ch]++;
    }
    idx[i] = (uint32_t)j;
    if (j + 1 > stride)
      stride = j + 1;
  }
  while ((1 << bits) < stride)
    bits++;
  nbytes = ((size_t)count * (size_t)bits + 7u) / 8u;
  t->bits = (uint8_t *)calloc(nbytes, 1);
  t->values = (uint8_t *)malloc((size_t)channels * (size_t)stride * es);
  for (ch = 0; ch < channels; ch++)
    memcpy(t->values + (size_t)ch * (size_t)stride * es,
           tab + (size_t)ch * 256u * es, (size_t)stride * es);
  pack_indices(idx, count, bits, t->bits);
  t->c = tflc_const_lut(t->bits, t->values, type, count, bits, channels, stride,
                        alt);
  free(idx);
  free(used);
  free(tab);
}

static void lut_free(test_lut *t) {
  free(t->bits);
  free(t->values);
}

/* int8 values drawn from a per-channel palette of `pal` values so that
 * the tensor compresses to log2(pal) bits */
static void palette_fill(int8_t *dst, int32_t count, int32_t channels, int alt,
                         int32_t pal) {
  int8_t table[64][16];
  const int32_t epc = count / channels;
  int32_t ch, i, j;
  for (ch = 0; ch < channels && ch < 64; ch++)
    for (j = 0; j < 16; j++)
      table[ch][j] = (int8_t)rng_int(-128, 127);
  for (i = 0; i < count; i++) {
    ch = alt ? i % channels : i / epc;
    dst[i] = table[ch % 64][rng_int(0, pal - 1)];
  }
}

static void fill_s8(int8_t *p, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++)
    p[i] = (int8_t)rng_int(-128, 127);
}

/* ---- hand-computed cases ------------------------------------------------- */

static void test_fc_hand(void) {
  const int8_t in[3] = {1, 2, 3};
  const int8_t w[6] = {1, -1, 2, 0, 3, -1};
  const int32_t bias[2] = {10, -20};
  const int32_t q = 1073741824, s = 0; /* 0.5 */
  tflc_fc_params p;
  tflc_const wc = tflc_const_raw(w, TFLC_INT8, 6);
  tflc_const bc = tflc_const_raw(bias, TFLC_INT32, 2);
  int8_t out[2];
  memset(&p, 0, sizeof p);
  p.act_min = -128;
  p.act_max = 127;
  p.out_multiplier = &q;
  p.out_shift = shift8(&s, sizeof(s) / sizeof(int32_t));
  /* acc = 1 - 2 + 6 + 10 = 15 -> 7.5 -> 8 ; 0 + 6 - 3 - 20 = -17 ->
   * -8.5 -> -8 (SRDHM ties toward +inf) */
  tflc_fully_connected_s8(&p, 1, 3, 2, in, &wc, &bc, out, NULL, 0);
  CHECK_EQ_INT(out[0], 8);
  CHECK_EQ_INT(out[1], -8);
  /* input zero point -1: x + 1 = 2, 3, 4: 17 -> 9 ; -15 -> -7 */
  p.input_offset = 1;
  tflc_fully_connected_s8(&p, 1, 3, 2, in, &wc, &bc, out, NULL, 0);
  CHECK_EQ_INT(out[0], 9);
  CHECK_EQ_INT(out[1], -7);
  /* per-tensor filter zero point 1 (filter_offset -1): (0, -2, 1) . (2, 3,
   * 4) + 10 = 8 -> 4 ; (-1, 2, -2) . (2, 3, 4) - 20 = -24 -> -12 */
  p.filter_offset = -1;
  tflc_fully_connected_s8(&p, 1, 3, 2, in, &wc, &bc, out, NULL, 0);
  CHECK_EQ_INT(out[0], 4);
  CHECK_EQ_INT(out[1], -12);
  /* per channel ignores the filter offset; shift -1 on channel 1:
   * channel 0: 17 -> 9 ; channel 1: -15 -> -7 -> -3.5 -> -4 */
  {
    const int32_t qs[2] = {1073741824, 1073741824}, ss[2] = {0, -1};
    p.per_channel = 1;
    p.out_multiplier = qs;
    p.out_shift = shift8(ss, sizeof(ss) / sizeof(int32_t));
    tflc_fully_connected_s8(&p, 1, 3, 2, in, &wc, &bc, out, NULL, 0);
    CHECK_EQ_INT(out[0], 9);
    CHECK_EQ_INT(out[1], -4);
    /* no bias: 7 -> 4 (3.5 -> 4) ; 5 * 0.5 = 2.5 -> 3, -> 1.5 -> 2 */
    tflc_fully_connected_s8(&p, 1, 3, 2, in, &wc, NULL, out, NULL, 0);
    CHECK_EQ_INT(out[0], 4);
    CHECK_EQ_INT(out[1], 2);
    /* output zero point and clamp: 4 + 100 = 104, 2 + 100 -> clamp 50 */
    p.output_offset = 100;
    p.act_max = 103;
    tflc_fully_connected_s8(&p, 1, 3, 2, in, &wc, NULL, out, NULL, 0);
    CHECK_EQ_INT(out[0], 103);
    CHECK_EQ_INT(out[1], 102);
  }
}

static void test_conv_hand(void) {
  /* input 3x3x1 = 1..9, filter 2x2 = [1 2; 3 4], multiplier 1.0 */
  const int8_t in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const int8_t f[4] = {1, 2, 3, 4};
  const int32_t q = 1073741824, s = 1;
  const int32_t in_dims[4] = {1, 3, 3, 1}, f_dims[4] = {1, 2, 2, 1};
  int32_t out_dims[4] = {1, 2, 2, 1};
  tflc_conv_params p;
  tflc_const fc = tflc_const_raw(f, TFLC_INT8, 4);
  int8_t out[9];
  memset(&p, 0, sizeof p);
  p.stride_h = p.stride_w = p.dilation_h = p.dilation_w = 1;
  p.act_min = -128;
  p.act_max = 127;
  p.out_multiplier = &q;
  p.out_shift = shift8(&s, sizeof(s) / sizeof(int32_t));
  /* VALID: 1+4+12+20 = 37, 2+6+15+24 = 47, 4+10+21+32 = 67, 77 */
  tflc_conv2d_s8(&p, in_dims, in, f_dims, &fc, NULL, out_dims, out, NULL, 0);
  CHECK_EQ_INT(out[0], 37);
  CHECK_EQ_INT(out[1], 47);
  CHECK_EQ_INT(out[2], 67);
  CHECK_EQ_INT(out[3], 77);
  /* SAME (pad before 0, after 1): the right column and bottom row see
   * only part of the filter: 3 + 3*6 = 21, 6 + 27 = 33, 7 + 16 = 23,
   * 8 + 18 = 26, 9 */
  out_dims[1] = out_dims[2] = 3;
  tflc_conv2d_s8(&p, in_dims, in, f_dims, &fc, NULL, out_dims, out, NULL, 0);
  {
    const int8_t e[9] = {37, 47, 21, 67, 77, 33, 23, 26, 9};
    CHECK_EQ_MEM(out, e, 9);
  }
  /* padding 1 before, stride 2: origins -1, 1: (0,0) sees only tap (1,1):
   * 4*1 = 4; (0,1): taps (1,0),(1,1) on x = 1, 2: 3*2 + 4*3 = 18;
   * (1,0): taps (0,1),(1,1) on y = 1, 2, x = 0: 2*4 + 4*7 = 36;
   * (1,1): all: 5 + 12 + 24 + 36 = 77 */
  p.pad_h = p.pad_w = 1;
  p.stride_h = p.stride_w = 2;
  out_dims[1] = out_dims[2] = 2;
  tflc_conv2d_s8(&p, in_dims, in, f_dims, &fc, NULL, out_dims, out, NULL, 0);
  CHECK_EQ_INT(out[0], 4);
  CHECK_EQ_INT(out[1], 18);
  CHECK_EQ_INT(out[2], 36);
  CHECK_EQ_INT(out[3], 77);
  /* dilation 2, VALID: one output, taps at (0,0),(0,2),(2,0),(2,2):
   * 1 + 2*3 + 3*7 + 4*9 = 64; input zero point 1 subtracts 1+2+3+4 */
  p.pad_h = p.pad_w = 0;
  p.stride_h = p.stride_w = 1;
  p.dilation_h = p.dilation_w = 2;
  out_dims[1] = out_dims[2] = 1;
  tflc_conv2d_s8(&p, in_dims, in, f_dims, &fc, NULL, out_dims, out, NULL, 0);
  CHECK_EQ_INT(out[0], 64);
  p.input_offset = -1;
  tflc_conv2d_s8(&p, in_dims, in, f_dims, &fc, NULL, out_dims, out, NULL, 0);
  CHECK_EQ_INT(out[0], 54);
  /* RELU-style clamp from the output zero point */
  p.output_offset = -100;
  p.act_min = -100;
  p.act_max = -60;
  tflc_conv2d_s8(&p, in_dims, in, f_dims, &fc, NULL, out_dims, out, NULL, 0);
  CHECK_EQ_INT(out[0], -60);
}

static void test_depthwise_hand(void) {
  /* input 2x2x2: channel 0 = 1, 2, 3, 4; channel 1 = 10, 20, 30, 40.
   * M = 2 -> 4 output channels; filter taps: t0 = oc + 1, t3 = -1, else 0.
   * out[oc] = (oc + 1) * x(0,0,ic) - x(1,1,ic) + bias[oc]:
   * oc0: 1 - 4 + 0 = -3; oc1: 2 - 4 + 1 = -1; oc2: 30 - 40 + 2 = -8;
   * oc3: 40 - 40 + 3 = 3 */
  const int8_t in[8] = {1, 10, 2, 20, 3, 30, 4, 40};
  const int8_t f[16] = {1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1};
  const int32_t bias[4] = {0, 1, 2, 3};
  const int32_t q[4] = {1073741824, 1073741824, 1073741824, 1073741824};
  const int32_t s[4] = {1, 1, 1, 1};
  const int32_t in_dims[4] = {1, 2, 2, 2}, f_dims[4] = {1, 2, 2, 4};
  const int32_t out_dims[4] = {1, 1, 1, 4};
  tflc_conv_params p;
  tflc_const fc = tflc_const_raw(f, TFLC_INT8, 16);
  tflc_const bc = tflc_const_raw(bias, TFLC_INT32, 4);
  int8_t out[4];
  memset(&p, 0, sizeof p);
  p.stride_h = p.stride_w = p.dilation_h = p.dilation_w = 1;
  p.depth_multiplier = 2;
  p.act_min = -128;
  p.act_max = 127;
  p.out_multiplier = q;
  p.out_shift = shift8(s, sizeof(s) / sizeof(int32_t));
  tflc_depthwise_conv2d_s8(&p, in_dims, in, f_dims, &fc, &bc, out_dims, out,
                           NULL, 0);
  CHECK_EQ_INT(out[0], -3);
  CHECK_EQ_INT(out[1], -1);
  CHECK_EQ_INT(out[2], -8);
  CHECK_EQ_INT(out[3], 3);
  {
    /* the same with the filter compressed on the last axis */
    test_lut t;
    lut_make(&t, f, TFLC_INT8, 1, 16, 4, 1, 1);
    memset(out, 0, 4);
    tflc_depthwise_conv2d_s8(&p, in_dims, in, f_dims, &t.c, &bc, out_dims, out,
                             NULL, 0);
    CHECK_EQ_INT(out[0], -3);
    CHECK_EQ_INT(out[3], 3);
    lut_free(&t);
  }
}

static void test_fc_f32_hand(void) {
  const float in[2] = {1.0f, 2.0f};
  const float w[4] = {0.5f, 0.25f, 10.0f, 0.0f};
  const float bias[2] = {1.0f, 1.0f};
  tflc_const wc = tflc_const_raw(w, TFLC_FLOAT32, 4);
  tflc_const bc = tflc_const_raw(bias, TFLC_FLOAT32, 2);
  float out[2];
  /* 0.5 + 0.5 + 1 = 2 ; 10 + 0 + 1 = 11 -> RELU6 -> 6 */
  tflc_fully_connected_f32(0.0f, 6.0f, 1, 2, 2, in, &wc, &bc, out, NULL, 0);
  CHECK(out[0] == 2.0f);
  CHECK(out[1] == 6.0f);
  tflc_fully_connected_f32(-1.0f, 1.0f, 1, 2, 2, in, &wc, NULL, out, NULL, 0);
  CHECK(out[0] == 1.0f);
  CHECK(out[1] == 1.0f);
}

/* ---- random cases: reference, raw vs compressed -------------------------- */

static const size_t tile_sizes[5] = {64, 100, 512, 1u << 20, 0};

static void make_quant(int32_t cout, int32_t depth, int32_t *q, int32_t *s) {
  int32_t c;
  for (c = 0; c < cout; c++) {
    /* outputs of a few tens of LSB: scale ~ 60 / (128 * 128 * sqrt(depth)) */
    const double base = 60.0 / (16384.0 * sqrt((double)depth));
    tflc_quantize_multiplier(base * (0.5 + (rng() % 1000) / 666.0), &q[c],
                             &s[c]);
  }
}

static int32_t pick_zp(void) {
  switch (rng() % 4) {
  case 0:
    return -128;
  case 1:
    return 127;
  default:
    return rng_int(-128, 127);
  }
}

static void act_range(int32_t zp, int32_t *lo, int32_t *hi) {
  /* every fused activation with an output scale of 0.05 */
  tflc_activation_range_quantized((int)(rng() % 4), 0.05f, zp, -128, 127, lo,
                                  hi);
}

/* output size and padding before, as TFLite's padding.h (SAME / VALID) */
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

static int g_conv_cases, g_dw_cases, g_fc_cases, g_fold_cases;

/* tflc_conv2d_s8_fold's biases (filter fc) against bias + input_offset *
 * the filter's row sums (f raw), and tflc_conv2d_s8_folded with them
 * against expect; 1 when they agree or the layer's paths do not read
 * folded biases (a compressed filter among them) */
static int fold_case(const tflc_conv_params *p, const int32_t in_dims[4],
                     const int8_t *in, const int32_t f_dims[4],
                     const tflc_const *fc, const int8_t *f,
                     const tflc_const *bc, const int32_t *bias,
                     const int32_t out_dims[4], const int8_t *expect,
                     int8_t *got) {
  const int32_t cout = out_dims[3], depth = f_dims[1] * f_dims[2] * f_dims[3];
  const size_t out_n = (size_t)out_dims[0] * (size_t)out_dims[1] *
                       (size_t)out_dims[2] * (size_t)cout;
  int32_t *folded = (int32_t *)malloc(sizeof(int32_t) * (size_t)cout);
  int ok = 1, c, k;
  const int used =
      tflc_conv2d_s8_fold(p, in_dims, f_dims, fc, bc, out_dims, NULL);
  if (used != tflc_conv2d_s8_fold(p, in_dims, f_dims, fc, bc, out_dims, folded))
    ok = 0;
  if (fc->bits != 0)
    ok &= used == 0;
  if (used && ok) {
    g_fold_cases++;
    for (c = 0; c < cout; c++) {
      int64_t v = bc != NULL ? bias[c] : 0;
      for (k = 0; k < depth; k++)
        v +=
            (int64_t)p->input_offset * f[(size_t)c * (size_t)depth + (size_t)k];
      ok &= folded[c] == (int32_t)v;
    }
    memset(got, 0x5A, out_n);
    tflc_conv2d_s8_folded(p, in_dims, in, f_dims, fc, bc, out_dims, got,
                          folded);
    ok &= memcmp(got, expect, out_n) == 0;
  }
  free(folded);
  return ok;
}

static void conv_random_case(int dw) {
  conv_case k;
  int32_t groups, in_n, f_n, out_n, c, same;
  int8_t *in, *f, *expect, *got;
  int32_t *bias, *q, *s;
  int32_t in_dims[4], f_dims[4], out_dims[4];
  tflc_conv_params p;
  tflc_const fraw, braw;
  int with_bias = rng() % 4 != 0;
  int ok = 1, t, mode;
  memset(&k, 0, sizeof k);
  k.n = rng_int(1, 2);
  k.h = rng_int(1, 9);
  k.w = rng_int(1, 9);
  k.kh = rng_int(1, 4);
  k.kw = rng_int(1, 4);
  k.sh = rng_int(1, 3);
  k.sw = rng_int(1, 3);
  k.dh = rng() % 4 == 0 ? 2 : 1;
  k.dw = rng() % 4 == 0 ? rng_int(2, 3) : 1;
  same = (int)(rng() % 2);
  if (!same) { /* VALID needs the dilated filter inside the input */
    while ((k.kh - 1) * k.dh + 1 > k.h) {
      if (k.dh > 1)
        k.dh = 1;
      else
        k.kh--;
    }
    while ((k.kw - 1) * k.dw + 1 > k.w) {
      if (k.dw > 1)
        k.dw = 1;
      else
        k.kw--;
    }
  }
  out_size(k.h, k.kh, k.sh, k.dh, same, &k.oh, &k.ph);
  out_size(k.w, k.kw, k.sw, k.dw, same, &k.ow, &k.pw);
  if (rng() % 5 == 0) { /* explicit larger padding before */
    k.ph += rng_int(0, 2);
    k.pw += rng_int(0, 2);
  }
  if (dw) {
    k.cin = rng_int(1, 7);
    k.mult = rng() % 3 != 0   ? 1
             : rng() % 4 != 0 ? rng_int(2, 3)
                              : rng_int(15, 40);
    if (k.cin * k.mult > 256) /* (the per-tensor bias tables index 8 bits) */
      k.cin = 256 / k.mult;
    k.cout = k.cin * k.mult;
    k.fcin = 1;
  } else {
    groups = rng() % 4 == 0 ? rng_int(2, 3) : 1;
    k.fcin = rng_int(1, 7);
    k.cin = groups * k.fcin;
    k.cout = groups * rng_int(1, 4);
  }
  k.in_zp = pick_zp();
  k.out_zp = pick_zp();
  act_range(k.out_zp, &k.lo, &k.hi);
  in_n = k.n * k.h * k.w * k.cin;
  f_n = k.kh * k.kw * (dw ? k.cout : k.cout * k.fcin);
  out_n = k.n * k.oh * k.ow * k.cout;
  in = (int8_t *)malloc((size_t)in_n);
  f = (int8_t *)malloc((size_t)f_n);
  expect = (int8_t *)malloc((size_t)out_n);
  got = (int8_t *)malloc((size_t)out_n);
  bias = (int32_t *)malloc(sizeof(int32_t) * (size_t)k.cout);
  q = (int32_t *)malloc(sizeof(int32_t) * (size_t)k.cout);
  s = (int32_t *)malloc(sizeof(int32_t) * (size_t)k.cout);
  fill_s8(in, in_n);
  /* filter values from per-channel palettes of 2..16 values */
  palette_fill(f, f_n, k.cout, dw, 1 << rng_int(1, dw ? 3 : 4));
  for (c = 0; c < k.cout; c++)
    bias[c] = rng_int(-3000, 3000);
  make_quant(k.cout, k.kh * k.kw * k.fcin, q, s);
  k.in = in;
  k.filter = f;
  k.bias = with_bias ? bias : NULL;
  k.q = q;
  k.shift = s;
  if (dw)
    ref_depthwise(&k, expect);
  else
    ref_conv(&k, expect);

  in_dims[0] = k.n;
  in_dims[1] = k.h;
  in_dims[2] = k.w;
  in_dims[3] = k.cin;
  f_dims[0] = dw ? 1 : k.cout;
  f_dims[1] = k.kh;
  f_dims[2] = k.kw;
  f_dims[3] = dw ? k.cout : k.fcin;
  out_dims[0] = k.n;
  out_dims[1] = k.oh;
  out_dims[2] = k.ow;
  out_dims[3] = k.cout;
  memset(&p, 0, sizeof p);
  p.stride_h = k.sh;
  p.stride_w = k.sw;
  p.dilation_h = k.dh;
  p.dilation_w = k.dw;
  p.pad_h = k.ph;
  p.pad_w = k.pw;
  p.depth_multiplier = k.mult;
  p.input_offset = -k.in_zp;
  p.output_offset = k.out_zp;
  p.act_min = k.lo;
  p.act_max = k.hi;
  p.out_multiplier = q;
  p.out_shift = shift8(s, (size_t)k.cout);
  fraw = tflc_const_raw(f, TFLC_INT8, f_n);
  braw = tflc_const_raw(bias, TFLC_INT32, k.cout);

  memset(got, 0x5A, (size_t)out_n);
  if (dw)
    tflc_depthwise_conv2d_s8(&p, in_dims, in, f_dims, &fraw,
                             with_bias ? &braw : NULL, out_dims, got, NULL, 0);
  else
    tflc_conv2d_s8(&p, in_dims, in, f_dims, &fraw, with_bias ? &braw : NULL,
                   out_dims, got, NULL, 0);
  ok &= memcmp(got, expect, (size_t)out_n) == 0;
  if (!dw)
    ok &= fold_case(&p, in_dims, in, f_dims, &fraw, f, with_bias ? &braw : NULL,
                    bias, out_dims, expect, got);

  /* compressed: filter per tensor / per channel, bias per channel */
  for (mode = 0; mode < 2; mode++) {
    test_lut fl, bl;
    lut_make(&fl, f, TFLC_INT8, 1, f_n, mode ? k.cout : 1, dw && mode, 1);
    lut_make(&bl, bias, TFLC_INT32, 4, k.cout, mode ? k.cout : 1, 0, 1);
    for (t = 0; t < 5; t++) {
      uint8_t *tile = tile_sizes[t] ? (uint8_t *)malloc(tile_sizes[t]) : NULL;
      memset(got, 0x5A, (size_t)out_n);
      if (dw)
        tflc_depthwise_conv2d_s8(&p, in_dims, in, f_dims, &fl.c,
                                 with_bias ? &bl.c : NULL, out_dims, got, tile,
                                 tile_sizes[t]);
      else
        tflc_conv2d_s8(&p, in_dims, in, f_dims, &fl.c, with_bias ? &bl.c : NULL,
                       out_dims, got, tile, tile_sizes[t]);
      ok &= memcmp(got, expect, (size_t)out_n) == 0;
      free(tile);
    }
    if (!dw) /* (none made for a compressed filter) */
      ok &= fold_case(&p, in_dims, in, f_dims, &fl.c, f,
                      with_bias ? &bl.c : NULL, bias, out_dims, expect, got);
    lut_free(&fl);
    lut_free(&bl);
  }
  if (!ok)
    fprintf(stderr,
            "  %s: n%d h%d w%d cin%d cout%d k%dx%d fcin%d M%d s%d,%d d%d,%d "
            "p%d,%d zp %d,%d act [%d,%d] bias %d\n",
            dw ? "depthwise" : "conv", (int)k.n, (int)k.h, (int)k.w, (int)k.cin,
            (int)k.cout, (int)k.kh, (int)k.kw, (int)k.fcin, (int)k.mult,
            (int)k.sh, (int)k.sw, (int)k.dh, (int)k.dw, (int)k.ph, (int)k.pw,
            (int)k.in_zp, (int)k.out_zp, (int)k.lo, (int)k.hi, with_bias);
  CHECK(ok);
  if (dw)
    g_dw_cases++;
  else
    g_conv_cases++;
  free(in);
  free(f);
  free(expect);
  free(got);
  free(bias);
  free(q);
  free(s);
}

static void test_conv_random(void) {
  int i;
  for (i = 0; i < 300; i++)
    conv_random_case(0);
}

static void test_depthwise_random(void) {
  int i;
  for (i = 0; i < 300; i++)
    conv_random_case(1);
}

/* big rows: a filter row longer than every tile but the largest, so the
 * piecewise decoding paths run with real-size channels */
static void test_conv_big_rows(void) {
  int i;
  for (i = 0; i < 4; i++) {
    conv_case k;
    int8_t in[5 * 5 * 96], f[3 * 3 * 3 * 3 * 96], expect[5 * 5 * 9],
        got[5 * 5 * 9];
    int32_t bias[9], q[9], s[9], c, t;
    const int32_t in_dims[4] = {1, 5, 5, 96}, f_dims[4] = {9, 3, 3, 32};
    const int32_t out_dims[4] = {1, 5, 5, 9};
    tflc_conv_params p;
    test_lut fl;
    memset(&k, 0, sizeof k);
    k.n = 1;
    k.h = k.w = 5;
    k.cin = 96;
    k.cout = 9;
    k.kh = k.kw = 3;
    k.fcin = 32; /* 3 groups */
    k.oh = k.ow = 5;
    k.sh = k.sw = k.dh = k.dw = 1;
    k.ph = k.pw = 1;
    k.in_zp = i == 0 ? -128 : 5;
    k.out_zp = i == 1 ? 127 : -3;
    k.lo = -128;
    k.hi = 127;
    fill_s8(in, 5 * 5 * 96);
    palette_fill(f, 9 * 3 * 3 * 32, 9, 0, 8);
    for (c = 0; c < 9; c++)
      bias[c] = rng_int(-20000, 20000);
    make_quant(9, 288, q, s);
    k.in = in;
    k.filter = f;
    k.bias = bias;
    k.q = q;
    k.shift = s;
    ref_conv(&k, expect);
    memset(&p, 0, sizeof p);
    p.stride_h = p.stride_w = p.dilation_h = p.dilation_w = 1;
    p.pad_h = p.pad_w = 1;
    p.input_offset = -k.in_zp;
    p.output_offset = k.out_zp;
    p.act_min = -128;
    p.act_max = 127;
    p.out_multiplier = q;
    p.out_shift = shift8(s, sizeof(s) / sizeof(int32_t));
    lut_make(&fl, f, TFLC_INT8, 1, 9 * 3 * 3 * 32, i % 2 ? 9 : 1, 0, 3);
    for (t = 0; t < 5; t++) {
      uint8_t *tile = tile_sizes[t] ? (uint8_t *)malloc(tile_sizes[t]) : NULL;
      const tflc_const bc = tflc_const_raw(bias, TFLC_INT32, 9);
      memset(got, 0, sizeof got);
      tflc_conv2d_s8(&p, in_dims, in, f_dims, &fl.c, &bc, out_dims, got, tile,
                     tile_sizes[t]);
      CHECK_EQ_MEM(got, expect, sizeof got);
      free(tile);
    }
    lut_free(&fl);
  }
}

/* depthwise with 7x7 and 9x9 kernels (49 / 81 taps: more than the
 * 64-byte tile holds for 81) */
static void test_depthwise_big_kernels(void) {
  int i;
  for (i = 0; i < 4; i++) {
    conv_case k;
    const int32_t ks = i < 2 ? 9 : 7, cin = 5, mult = 2, cout = 10;
    int8_t in[11 * 11 * 5], f[9 * 9 * 10], expect[11 * 11 * 10],
        got[11 * 11 * 10];
    int32_t bias[10], q[10], s[10], c, t;
    const int32_t in_dims[4] = {1, 11, 11, cin};
    const int32_t f_dims[4] = {1, ks, ks, cout};
    const int32_t out_dims[4] = {1, 11, 11, cout};
    const int32_t out_n = 11 * 11 * cout;
    tflc_conv_params p;
    test_lut fl;
    memset(&k, 0, sizeof k);
    k.n = 1;
    k.h = k.w = 11;
    k.cin = cin;
    k.cout = cout;
    k.mult = mult;
    k.kh = k.kw = ks;
    k.fcin = 1;
    k.oh = k.ow = 11;
    k.sh = k.sw = 1;
    k.dh = k.dw = 1;
    k.ph = k.pw = ks / 2;
    k.in_zp = rng_int(-128, 127);
    k.out_zp = rng_int(-128, 127);
    act_range(k.out_zp, &k.lo, &k.hi);
    fill_s8(in, 11 * 11 * cin);
    palette_fill(f, ks * ks * cout, cout, 1, 4);
    for (c = 0; c < cout; c++)
      bias[c] = rng_int(-2000, 2000);
    make_quant(cout, ks * ks, q, s);
    k.in = in;
    k.filter = f;
    k.bias = bias;
    k.q = q;
    k.shift = s;
    ref_depthwise(&k, expect);
    memset(&p, 0, sizeof p);
    p.stride_h = p.stride_w = p.dilation_h = p.dilation_w = 1;
    p.pad_h = p.pad_w = ks / 2;
    p.depth_multiplier = mult;
    p.input_offset = -k.in_zp;
    p.output_offset = k.out_zp;
    p.act_min = k.lo;
    p.act_max = k.hi;
    p.out_multiplier = q;
    p.out_shift = shift8(s, sizeof(s) / sizeof(int32_t));
    lut_make(&fl, f, TFLC_INT8, 1, ks * ks * cout, i % 2 ? cout : 1, i % 2, 2);
    for (t = 0; t < 5; t++) {
      uint8_t *tile = tile_sizes[t] ? (uint8_t *)malloc(tile_sizes[t]) : NULL;
      const tflc_const bc = tflc_const_raw(bias, TFLC_INT32, cout);
      memset(got, 0, sizeof got);
      tflc_depthwise_conv2d_s8(&p, in_dims, in, f_dims, &fl.c, &bc, out_dims,
                               got, tile, tile_sizes[t]);
      CHECK_EQ_MEM(got, expect, (size_t)out_n);
      free(tile);
    }
    lut_free(&fl);
  }
}

static void fc_random_case(void) {
  const int32_t batches = rng_int(1, 3);
  const int32_t depth = rng() % 3 == 0 ? rng_int(100, 1300) : rng_int(1, 40);
  const int32_t outs = rng_int(1, 9);
  const int per_channel = (int)(rng() % 2);
  const int32_t in_zp = pick_zp(), out_zp = pick_zp();
  const int32_t w_zp = per_channel ? 0 : (rng() % 3 == 0 ? rng_int(-3, 3) : 0);
  const int with_bias = rng() % 4 != 0;
  int8_t *in = (int8_t *)malloc((size_t)(batches * depth));
  int8_t *w = (int8_t *)malloc((size_t)(outs * depth));
  int8_t *expect = (int8_t *)malloc((size_t)(batches * outs));
  int8_t *got = (int8_t *)malloc((size_t)(batches * outs));
  int32_t bias[9], q[9], s[9], lo, hi, o;
  tflc_fc_params p;
  tflc_const wraw, braw;
  int ok = 1, t, mode;
  fill_s8(in, batches * depth);
  palette_fill(w, outs * depth, outs, 0, 1 << rng_int(1, 4));
  for (o = 0; o < outs; o++)
    bias[o] = rng_int(-10000, 10000);
  make_quant(outs, depth, q, s);
  act_range(out_zp, &lo, &hi);
  ref_fc(batches, depth, outs, in, w, with_bias ? bias : NULL, in_zp, w_zp,
         per_channel, q, s, out_zp, lo, hi, expect);
  memset(&p, 0, sizeof p);
  p.input_offset = -in_zp;
  p.filter_offset = -w_zp;
  p.output_offset = out_zp;
  p.act_min = lo;
  p.act_max = hi;
  p.per_channel = per_channel;
  p.out_multiplier = q;
  p.out_shift = shift8(s, sizeof(s) / sizeof(int32_t));
  wraw = tflc_const_raw(w, TFLC_INT8, outs * depth);
  braw = tflc_const_raw(bias, TFLC_INT32, outs);
  tflc_fully_connected_s8(&p, batches, depth, outs, in, &wraw,
                          with_bias ? &braw : NULL, got, NULL, 0);
  ok &= memcmp(got, expect, (size_t)(batches * outs)) == 0;
  for (mode = 0; mode < 2; mode++) {
    test_lut wl, bl;
    lut_make(&wl, w, TFLC_INT8, 1, outs * depth, mode ? outs : 1, 0, 1);
    lut_make(&bl, bias, TFLC_INT32, 4, outs, mode ? outs : 1, 0, 1);
    for (t = 0; t < 5; t++) {
      uint8_t *tile = tile_sizes[t] ? (uint8_t *)malloc(tile_sizes[t]) : NULL;
      memset(got, 0x5A, (size_t)(batches * outs));
      tflc_fully_connected_s8(&p, batches, depth, outs, in, &wl.c,
                              with_bias ? &bl.c : NULL, got, tile,
                              tile_sizes[t]);
      ok &= memcmp(got, expect, (size_t)(batches * outs)) == 0;
      free(tile);
    }
    lut_free(&wl);
    lut_free(&bl);
  }
  if (!ok)
    fprintf(stderr, "  fc: b%d depth%d outs%d pc%d zp %d,%d,%d bias %d\n",
            (int)batches, (int)depth, (int)outs, per_channel, (int)in_zp,
            (int)w_zp, (int)out_zp, with_bias);
  CHECK(ok);
  g_fc_cases++;
  free(in);
  free(w);
  free(expect);
  free(got);
}

static void test_fc_random(void) {
  int i;
  for (i = 0; i < 300; i++)
    fc_random_case();
}

static float rnd_float(void) {
  return (float)((int32_t)(rng() % 20001u) - 10000) / 1237.0f;
}

static void test_fc_f32_random(void) {
  int i;
  for (i = 0; i < 100; i++) {
    const int32_t batches = rng_int(1, 3);
    const int32_t depth = rng() % 3 == 0 ? rng_int(100, 700) : rng_int(1, 30);
    const int32_t outs = rng_int(1, 6);
    const int with_bias = rng() % 3 != 0;
    float *in = (float *)malloc(sizeof(float) * (size_t)(batches * depth));
    float *w = (float *)malloc(sizeof(float) * (size_t)(outs * depth));
    float *expect = (float *)malloc(sizeof(float) * (size_t)(batches * outs));
    float *got = (float *)malloc(sizeof(float) * (size_t)(batches * outs));
    float pal[6][8], bias[6], lo, hi;
    int32_t b, o, d, t, mode;
    tflc_const wraw = tflc_const_raw(w, TFLC_FLOAT32, outs * depth);
    tflc_const braw = tflc_const_raw(bias, TFLC_FLOAT32, outs);
    int ok = 1;
    tflc_activation_range_f32((int)(rng() % 4), &lo, &hi);
    for (o = 0; o < outs; o++) {
      for (d = 0; d < 8; d++)
        pal[o][d] = rnd_float();
      bias[o] = rnd_float();
    }
    for (d = 0; d < batches * depth; d++)
      in[d] = rnd_float();
    for (o = 0; o < outs; o++)
      for (d = 0; d < depth; d++)
        w[o * depth + d] = pal[o][rng() % 8];
    /* reference: sequential float sum, + bias (or 0), min(max()) */
    for (b = 0; b < batches; b++)
      for (o = 0; o < outs; o++) {
        float total = 0.0f, v;
        for (d = 0; d < depth; d++) {
          const float prod = in[b * depth + d] * w[o * depth + d];
          total = total + prod;
        }
        v = total + (with_bias ? bias[o] : 0.0f);
        if (v < lo)
          v = lo;
        if (hi < v)
          v = hi;
        expect[b * outs + o] = v;
      }
    tflc_fully_connected_f32(lo, hi, batches, depth, outs, in, &wraw,
                             with_bias ? &braw : NULL, got, NULL, 0);
    ok &= memcmp(got, expect, sizeof(float) * (size_t)(batches * outs)) == 0;
    for (mode = 0; mode < 2; mode++) {
      test_lut wl, bl;
      lut_make(&wl, w, TFLC_FLOAT32, 4, outs * depth, mode ? outs : 1, 0, 1);
      lut_make(&bl, bias, TFLC_FLOAT32, 4, outs, 1, 0, 1);
      for (t = 0; t < 5; t++) {
        uint8_t *tile = tile_sizes[t] ? (uint8_t *)malloc(tile_sizes[t]) : NULL;
        memset(got, 0, sizeof(float) * (size_t)(batches * outs));
        tflc_fully_connected_f32(lo, hi, batches, depth, outs, in, &wl.c,
                                 with_bias ? &bl.c : NULL, got, tile,
                                 tile_sizes[t]);
        ok &=
            memcmp(got, expect, sizeof(float) * (size_t)(batches * outs)) == 0;
        free(tile);
      }
      lut_free(&wl);
      lut_free(&bl);
    }
    CHECK(ok);
    free(in);
    free(w);
    free(expect);
    free(got);
  }
}

/* the raw filter at an odd address and a raw bias at an odd address */
static void test_unaligned_constants(void) {
  uint8_t fbuf[1 + 2 * 3 * 3 * 4], bbuf[1 + 8];
  int8_t in[4 * 4 * 4], expect[2 * 2 * 2], got[2 * 2 * 2];
  int32_t bias[2] = {-70000, 123456}, q[2], s[2], c;
  const int32_t in_dims[4] = {1, 4, 4, 4}, f_dims[4] = {2, 3, 3, 4};
  const int32_t out_dims[4] = {1, 2, 2, 2};
  conv_case k;
  tflc_conv_params p;
  tflc_const fc, bc;
  fill_s8(in, 64);
  for (c = 0; c < 72; c++)
    fbuf[1 + c] = (uint8_t)rng();
  for (c = 0; c < 2; c++) { /* little-endian int32 at an odd address */
    const uint32_t u = (uint32_t)bias[c];
    bbuf[1 + 4 * c] = (uint8_t)(u & 0xFF);
    bbuf[2 + 4 * c] = (uint8_t)((u >> 8) & 0xFF);
    bbuf[3 + 4 * c] = (uint8_t)((u >> 16) & 0xFF);
    bbuf[4 + 4 * c] = (uint8_t)(u >> 24);
  }
  make_quant(2, 36, q, s);
  memset(&k, 0, sizeof k);
  k.n = 1;
  k.h = k.w = 4;
  k.cin = 4;
  k.cout = 2;
  k.kh = k.kw = 3;
  k.fcin = 4;
  k.oh = k.ow = 2;
  k.sh = k.sw = k.dh = k.dw = 1;
  k.in_zp = 3;
  k.out_zp = -5;
  k.lo = -128;
  k.hi = 127;
  k.in = in;
  k.filter = (const int8_t *)(fbuf + 1);
  k.bias = bias;
  k.q = q;
  k.shift = s;
  ref_conv(&k, expect);
  memset(&p, 0, sizeof p);
  p.stride_h = p.stride_w = p.dilation_h = p.dilation_w = 1;
  p.input_offset = -3;
  p.output_offset = -5;
  p.act_min = -128;
  p.act_max = 127;
  p.out_multiplier = q;
  p.out_shift = shift8(s, sizeof(s) / sizeof(int32_t));
  fc = tflc_const_raw(fbuf + 1, TFLC_INT8, 72);
  bc = tflc_const_raw(bbuf + 1, TFLC_INT32, 2);
  tflc_conv2d_s8(&p, in_dims, in, f_dims, &fc, &bc, out_dims, got, NULL, 0);
  CHECK_EQ_MEM(got, expect, sizeof got);
}

int main(void) {
  rng_seed(2024u);
  RUN(test_fc_hand);
  RUN(test_conv_hand);
  RUN(test_depthwise_hand);
  RUN(test_fc_f32_hand);
  RUN(test_conv_random);
  RUN(test_depthwise_random);
  RUN(test_conv_big_rows);
  RUN(test_depthwise_big_kernels);
  RUN(test_fc_random);
  RUN(test_fc_f32_random);
  RUN(test_unaligned_constants);
  printf("random cases: %d conv, %d depthwise, %d fc; %d with folded "
         "biases\n",
         g_conv_cases, g_dw_cases, g_fc_cases, g_fold_cases);
  CHECK(g_fold_cases > 100); /* (the folded paths ran) */
  return harness_report();
}

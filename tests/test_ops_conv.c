/* tests/test_ops_conv.c - the convolution family beyond the int8 core
 * (test_ops_conv_int8.c): int16x8 and float CONV_2D / DEPTHWISE_CONV_2D,
 * int16x8 FULLY_CONNECTED, TRANSPOSE_CONV (int8, int16x8, float), SVDF,
 * UNIDIRECTIONAL_SEQUENCE_LSTM.
 *
 * Evidence:
 *   - hand-computed values (worked out in the comments);
 *   - naive references written here from the TFLM reference loops as
 *     reference/INT8_KERNELS.md (sections 1.4, 2, 8, 9) describes them,
 *     with their own fixed-point primitives, on random shapes; float
 *     references sum in the same order, so results must be identical;
 *   - every kernel also run with LUT-compressed filters (hand-packed
 *     bitstrings, per-tensor and per-channel tables) at several tile sizes:
 *     the bytes must not change;
 *   - single-operator models built with the writer, run through the
 *     interpreter: compressed filters in both formats, refusals, the
 *     quantized_bias_type option, SVDF state across invokes. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#endif
#include "../tflc_write.h"
#include "harness.h"
#include "models.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- utilities ------------------------------------------------------------
 */

/* ---- independent fixed-point reference (INT8_KERNELS.md 1.3, 1.4) ------- */
static int64_t r_floor_pot(int64_t a, int n) { /* floor(a / 2^n) */
  const int64_t d = (int64_t)1 << n;
  int64_t q = a / d;
  if (a % d != 0 && a < 0)
    q--;
  return q;
}
static int32_t r_srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN)
    return INT32_MAX;
  return (int32_t)r_floor_pot((int64_t)a * b + ((int64_t)1 << 30), 31);
}
static int32_t r_rdbpot(int32_t x, int n) {
  const int32_t mask = (int32_t)((1u << n) - 1u);
  const int32_t rem = x & mask;
  const int32_t thr = (mask >> 1) + (x < 0 ? 1 : 0);
  return (int32_t)r_floor_pot(x, n) + (rem > thr ? 1 : 0);
}
static int32_t r_mbqm(int32_t x, int32_t q, int32_t s) {
  const int32_t l = s > 0 ? s : 0, r = s > 0 ? 0 : -s;
  return r_rdbpot(r_srdhm((int32_t)(uint32_t)((uint32_t)x << l), q), r);
}
static int32_t r_mbqm64(int64_t x, int32_t q, int32_t s) {
  const int64_t q16 = q < 0x7FFF0000 ? ((int64_t)q + 32768) >> 16 : 0x7FFF;
  const int total = 15 - s;
  return (int32_t)r_floor_pot(x * q16 + ((int64_t)1 << (total - 1)), total);
}
static int32_t r_wrap32(int64_t v) {
  return (int32_t)(uint32_t)(uint64_t)v;
}
static int32_t r_clamp(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* ---- LUT-compressed constants built by hand -------------------------------
 * indices MSB-first; channel tables per tensor (channels 1), on the first
 * axis (alt 0) or the last axis (alt 1). */
typedef struct lutc {
  uint8_t bits_buf[8192];
  uint8_t vals[4 * 64 * 128];
  tflc_const c;
} lutc;
/* Fills raw (n elements of es bytes) from random indices into random
 * tables and builds the matching compressed constant in L. */
static void make_lut(lutc *L, int type, size_t es, int32_t n, int bits,
                     int32_t channels, int alt, void *raw) {
  static uint32_t idx[8192];
  const int32_t stride = 1 << bits;
  int32_t i, k;
  for (k = 0; k < channels * stride; k++) {
    if (type == TFLC_FLOAT32) {
      const float f = rng_unit();
      memcpy(L->vals + (size_t)k * 4, &f, 4);
    } else {
      const int8_t v = (int8_t)rng_int(-128, 127);
      memcpy(L->vals + k, &v, 1);
    }
  }
  for (i = 0; i < n; i++) {
    const int32_t ch = channels <= 1 ? 0
                       : alt         ? i % channels
                                     : i / (n / channels);
    idx[i] = (uint32_t)rng_int(0, stride - 1);
    memcpy((uint8_t *)raw + (size_t)i * es,
           L->vals + ((size_t)ch * (size_t)stride + idx[i]) * es, es);
  }
  pack_indices(idx, n, bits, L->bits_buf);
  L->c = tflc_const_lut(L->bits_buf, L->vals, (tflc_type)type, n, bits,
                        channels, stride, alt);
}

/* ---- convolution geometry --------------------------------------------------
 */
typedef struct geo {
  int32_t in[4], f[4], out[4];
  tflc_conv_params p;
  int32_t mult[64];
  int8_t shift[64];
} geo;
/* Random conv geometry (SAME or VALID as TFLM pads). depthwise: filter
 * [1, kh, kw, cin * m]; else [cout, kh, kw, cin / groups]. */
static void make_geo(geo *g, int depthwise) {
  int32_t kh = rng_int(1, 3), kw = rng_int(1, 3), sh = rng_int(1, 3),
          sw = rng_int(1, 3), dh = rng_int(1, 2), dw = rng_int(1, 2);
  int32_t h, w, same = (int32_t)(rng() & 1u), c, k, eh, ew, oh, ow;
  memset(g, 0, sizeof *g);
  do {
    h = rng_int(1, 7);
    w = rng_int(1, 7);
    eh = (kh - 1) * dh + 1;
    ew = (kw - 1) * dw + 1;
  } while (!same && (h < eh || w < ew));
  oh = same ? (h + sh - 1) / sh : (h - eh + sh) / sh;
  ow = same ? (w + sw - 1) / sw : (w - ew + sw) / sw;
  g->in[0] = rng_int(1, 2);
  g->in[1] = h;
  g->in[2] = w;
  g->p.stride_h = sh;
  g->p.stride_w = sw;
  g->p.dilation_h = dh;
  g->p.dilation_w = dw;
  g->p.pad_h = (oh - 1) * sh + eh - h > 0 ? ((oh - 1) * sh + eh - h) / 2 : 0;
  g->p.pad_w = (ow - 1) * sw + ew - w > 0 ? ((ow - 1) * sw + ew - w) / 2 : 0;
  if (depthwise) {
    c = rng_int(1, 4);
    g->p.depth_multiplier = rng_int(1, 3);
    g->in[3] = c;
    g->f[0] = 1;
    g->f[3] = c * g->p.depth_multiplier;
  } else {
    const int32_t groups = rng_int(1, 2), fc = rng_int(1, 4);
    g->in[3] = groups * fc;
    g->f[0] = groups * rng_int(1, 3);
    g->f[3] = fc;
  }
  g->f[1] = kh;
  g->f[2] = kw;
  g->out[0] = g->in[0];
  g->out[1] = oh;
  g->out[2] = ow;
  g->out[3] = depthwise ? g->f[3] : g->f[0];
  for (k = 0; k < g->out[3]; k++) {
    g->mult[k] = rng_int(1 << 30, INT32_MAX);
    g->shift[k] = (int8_t)rng_int(-14, 2);
  }
  g->p.out_multiplier = g->mult;
  g->p.out_shift = g->shift;
}
static int32_t cnt4(const int32_t *d) {
  return d[0] * d[1] * d[2] * d[3];
}

/* Naive conv / depthwise following TFLM's loops. kind 0: int16 (acc64
 * chooses the accumulator), kind 1: float. Filter as float array or int8. */
static void ref_conv(int depthwise, int kind, const geo *g, int acc64,
                     const int16_t *x16, const float *xf, const int8_t *f8,
                     const float *ff, const int64_t *bias64, const float *biasf,
                     float lo, float hi, int16_t *o16, float *of) {
  const int32_t B = g->in[0], H = g->in[1], W = g->in[2], C = g->in[3];
  const int32_t KH = g->f[1], KW = g->f[2], FC = g->f[3];
  const int32_t OH = g->out[1], OW = g->out[2], OC = g->out[3];
  int32_t b, oy, ox, oc, ky, kx, ic;
  for (b = 0; b < B; b++)
    for (oy = 0; oy < OH; oy++)
      for (ox = 0; ox < OW; ox++)
        for (oc = 0; oc < OC; oc++) {
          int64_t acc = 0;
          float total = 0.0f;
          const int32_t per_group = depthwise ? 1 : OC / (C / FC);
          const int32_t grp = depthwise ? 0 : oc / per_group;
          const int32_t dic = depthwise ? oc / g->p.depth_multiplier : 0;
          const int32_t o = ((b * OH + oy) * OW + ox) * OC + oc;
          for (ky = 0; ky < KH; ky++)
            for (kx = 0; kx < KW; kx++) {
              const int32_t iy =
                  oy * g->p.stride_h - g->p.pad_h + ky * g->p.dilation_h;
              const int32_t ix =
                  ox * g->p.stride_w - g->p.pad_w + kx * g->p.dilation_w;
              if (iy < 0 || iy >= H || ix < 0 || ix >= W)
                continue;
              for (ic = 0; ic < (depthwise ? 1 : FC); ic++) {
                const int32_t xc = depthwise ? dic : grp * FC + ic;
                const int32_t xi = ((b * H + iy) * W + ix) * C + xc;
                const int32_t fi = depthwise
                                       ? (ky * KW + kx) * FC + oc
                                       : ((oc * KH + ky) * KW + kx) * FC + ic;
                if (kind == 0) {
                  acc += (int64_t)f8[fi] * x16[xi];
                } else {
                  const float prod = xf[xi] * ff[fi];
                  total += prod;
                }
              }
            }
          if (kind == 0) {
            int32_t v;
            if (bias64)
              acc += bias64[oc];
            v = acc64 ? r_mbqm64(acc, g->mult[oc], g->shift[oc])
                      : r_mbqm(r_wrap32(acc), g->mult[oc], g->shift[oc]);
            o16[o] = (int16_t)r_clamp(v, g->p.act_min, g->p.act_max);
          } else {
            float v = total + (biasf ? biasf[oc] : 0.0f);
            v = v < lo ? lo : v;
            v = hi < v ? hi : v;
            of[o] = v;
          }
        }
}

static const size_t tiles[4] = {0, 64, 100, 512};

static void test_conv_s16_random(void) {
  static int16_t x[4096], o[4096], r[4096];
  static int8_t f[4096];
  static int64_t b64[64];
  static int32_t b32[64];
  static uint8_t tile[512];
  static lutc L;
  int iter, t, dw;
  for (dw = 0; dw < 2; dw++)
    for (iter = 0; iter < 60; iter++) {
      geo g;
      int32_t i, n;
      const int acc64 = dw ? 1 : (int)(rng() & 1u);
      const int has_bias = (int)(rng() % 3u != 0);
      const int compressed = (int)(rng() & 1u);
      tflc_const fc, bc;
      make_geo(&g, dw);
      g.p.act_min = rng_int(-32768, -100);
      g.p.act_max = rng_int(100, 32767);
      n = cnt4(g.in);
      for (i = 0; i < n; i++)
        x[i] = (int16_t)rng_int(-32768, 32767);
      if (compressed) {
        const int32_t ch = (int32_t)(rng() % 2u) ? g.out[3] : 1;
        make_lut(&L, TFLC_INT8, 1, cnt4(g.f), rng_int(1, 7), ch, dw, f);
        fc = L.c;
      } else {
        for (i = 0; i < cnt4(g.f); i++)
          f[i] = (int8_t)rng_int(-128, 127);
        fc = tflc_const_raw(f, TFLC_INT8, cnt4(g.f));
      }
      for (i = 0; i < g.out[3]; i++) {
        b32[i] = rng_int(-100000, 100000);
        b64[i] = acc64 ? (int64_t)b32[i] * rng_int(1, 1000) : b32[i];
      }
      if (acc64)
        bc = tflc_const_raw(b64, TFLC_INT64, g.out[3]);
      else
        bc = tflc_const_raw(b32, TFLC_INT32, g.out[3]);
      ref_conv(dw, 0, &g, acc64, x, NULL, f, NULL, has_bias ? b64 : NULL, NULL,
               0, 0, r, NULL);
      for (t = 0; t < 4; t++) {
        memset(o, 0x55, sizeof o);
        if (dw)
          tflc_depthwise_conv2d_s16(&g.p, g.in, x, g.f, &fc,
                                    has_bias ? &bc : NULL, g.out, o,
                                    tiles[t] ? tile : NULL, tiles[t]);
        else
          tflc_conv2d_s16(&g.p, g.in, x, g.f, &fc, has_bias ? &bc : NULL, acc64,
                          g.out, o, tiles[t] ? tile : NULL, tiles[t]);
        CHECK_EQ_MEM(o, r, (size_t)cnt4(g.out) * 2);
      }
    }
}

static void test_conv_f32_random(void) {
  static float x[4096], f[4096], bias[64], o[4096], r[4096];
  static uint8_t tile[512];
  static lutc L, LB;
  int iter, t, dw;
  for (dw = 0; dw < 2; dw++)
    for (iter = 0; iter < 60; iter++) {
      geo g;
      int32_t i;
      const int has_bias = (int)(rng() % 3u != 0);
      const int compressed = (int)(rng() & 1u);
      const int act = rng_int(0, 3);
      float lo, hi;
      tflc_const fc, bc;
      make_geo(&g, dw);
      tflc_activation_range_f32(act, &lo, &hi);
      for (i = 0; i < cnt4(g.in); i++)
        x[i] = rng_unit() * 4.0f;
      if (compressed) {
        make_lut(&L, TFLC_FLOAT32, 4, cnt4(g.f), rng_int(1, 6), 1, 0, f);
        fc = L.c;
        make_lut(&LB, TFLC_FLOAT32, 4, g.out[3], 2, 1, 0, bias);
        bc = LB.c;
      } else {
        for (i = 0; i < cnt4(g.f); i++)
          f[i] = rng_unit();
        for (i = 0; i < g.out[3]; i++)
          bias[i] = rng_unit();
        fc = tflc_const_raw(f, TFLC_FLOAT32, cnt4(g.f));
        bc = tflc_const_raw(bias, TFLC_FLOAT32, g.out[3]);
      }
      ref_conv(dw, 1, &g, 0, NULL, x, NULL, f, NULL, has_bias ? bias : NULL, lo,
               hi, NULL, r);
      for (t = 0; t < 4; t++) {
        memset(o, 0x55, sizeof o);
        if (dw)
          tflc_depthwise_conv2d_f32(&g.p, lo, hi, g.in, x, g.f, &fc,
                                    has_bias ? &bc : NULL, g.out, o,
                                    tiles[t] ? tile : NULL, tiles[t]);
        else
          tflc_conv2d_f32(&g.p, lo, hi, g.in, x, g.f, &fc,
                          has_bias ? &bc : NULL, g.out, o,
                          tiles[t] ? tile : NULL, tiles[t]);
        CHECK_EQ_MEM(o, r, (size_t)cnt4(g.out) * 4);
      }
    }
}

static void test_conv_s16_hand(void) {
  /* 1x1 input with channels {1000, -2000}, one 1x1 filter {3, 4}:
   * acc = 3000 - 8000 = -5000, bias 1000 -> -4000; multiplier 0.5
   * (2^30, shift 0) -> -2000 on both accumulators. With a 64-bit bias of
   * 2^33 and multiplier 1/16 (2^30, shift -3) the int32 path sees the bias
   * wrapped to 0: -5000 / 16 = -312.5 -> -313 (ties away from zero); the
   * int64 path gives (2^33 - 5000) / 16 ~ 2^29, clamped to 32767. */
  const int32_t in_d[4] = {1, 1, 1, 2}, f_d[4] = {1, 1, 1, 2},
                o_d[4] = {1, 1, 1, 1};
  const int16_t x[2] = {1000, -2000};
  const int8_t f[2] = {3, 4};
  const int32_t b32 = 1000;
  const int64_t b64 = (int64_t)1 << 33;
  int32_t mult = 1 << 30;
  int8_t shift = 0;
  tflc_conv_params p;
  tflc_const fc = tflc_const_raw(f, TFLC_INT8, 2), bc;
  int16_t o = 0;
  memset(&p, 0, sizeof p);
  p.stride_h = p.stride_w = p.dilation_h = p.dilation_w = 1;
  p.act_min = -32768;
  p.act_max = 32767;
  p.out_multiplier = &mult;
  p.out_shift = &shift;
  bc = tflc_const_raw(&b32, TFLC_INT32, 1);
  tflc_conv2d_s16(&p, in_d, x, f_d, &fc, &bc, 0, o_d, &o, NULL, 0);
  CHECK_EQ_INT(o, -2000);
  tflc_conv2d_s16(&p, in_d, x, f_d, &fc, &bc, 1, o_d, &o, NULL, 0);
  CHECK_EQ_INT(o, -2000);
  bc = tflc_const_raw(&b64, TFLC_INT64, 1);
  shift = -3;
  tflc_conv2d_s16(&p, in_d, x, f_d, &fc, &bc, 0, o_d, &o, NULL, 0);
  CHECK_EQ_INT(o, -313);
  tflc_conv2d_s16(&p, in_d, x, f_d, &fc, &bc, 1, o_d, &o, NULL, 0);
  CHECK_EQ_INT(o, 32767);
  shift = 0;
  /* the clamp: act_max 100 */
  p.act_max = 100;
  bc = tflc_const_raw(&b32, TFLC_INT32, 1);
  tflc_conv2d_s16(&p, in_d, x, f_d, &fc, NULL, 0, o_d, &o, NULL, 0);
  CHECK_EQ_INT(o, -2500);
  p.act_min = -2000;
  tflc_conv2d_s16(&p, in_d, x, f_d, &fc, NULL, 0, o_d, &o, NULL, 0);
  CHECK_EQ_INT(o, -2000);
}

/* ---- FULLY_CONNECTED int16x8 ----------------------------------------------
 */
static void test_fc_s16_random(void) {
  static int16_t x[2048], o[512], r[512];
  static int8_t f[8192];
  static int64_t b64[64];
  static int32_t b32[64];
  static uint8_t tile[512];
  static lutc L;
  int iter, t;
  for (iter = 0; iter < 80; iter++) {
    const int32_t B = rng_int(1, 3), D = rng_int(1, 120), O = rng_int(1, 40);
    const int acc64 = (int)(rng() & 1u), has_bias = (int)(rng() % 3u != 0);
    const int pc = (int)(rng() & 1u), compressed = (int)(rng() & 1u);
    int32_t mult[64], i, b, oc;
    int8_t shift[64];
    tflc_fc_params p;
    tflc_const fc, bc;
    memset(&p, 0, sizeof p);
    p.input_offset = rng_int(-5, 5);
    p.filter_offset = pc ? 0 : rng_int(-3, 3);
    p.output_offset = rng_int(-10, 10);
    p.act_min = rng_int(-32768, -1000);
    p.act_max = rng_int(1000, 32767);
    p.per_channel = pc;
    for (oc = 0; oc < O; oc++) {
      mult[oc] = rng_int(1 << 30, INT32_MAX);
      shift[oc] = (int8_t)rng_int(-14, 0);
    }
    p.out_multiplier = mult;
    p.out_shift = shift;
    for (i = 0; i < B * D; i++)
      x[i] = (int16_t)rng_int(-32768, 32767);
    if (compressed) {
      make_lut(&L, TFLC_INT8, 1, O * D, rng_int(1, 7), pc ? O : 1, 0, f);
      fc = L.c;
    } else {
      for (i = 0; i < O * D; i++)
        f[i] = (int8_t)rng_int(-128, 127);
      fc = tflc_const_raw(f, TFLC_INT8, O * D);
    }
    for (oc = 0; oc < O; oc++) {
      b32[oc] = rng_int(-1000000, 1000000);
      b64[oc] = b32[oc];
    }
    bc = acc64 ? tflc_const_raw(b64, TFLC_INT64, O)
               : tflc_const_raw(b32, TFLC_INT32, O);
    for (b = 0; b < B; b++)
      for (oc = 0; oc < O; oc++) {
        int64_t acc = 0;
        int32_t v, d;
        const int32_t q = mult[pc ? oc : 0], s = shift[pc ? oc : 0];
        for (d = 0; d < D; d++)
          acc += ((int32_t)f[oc * D + d] + p.filter_offset) *
                 ((int32_t)x[b * D + d] + p.input_offset);
        if (has_bias)
          acc += b64[oc];
        v = acc64 ? r_mbqm64(acc, q, s) : r_mbqm(r_wrap32(acc), q, s);
        r[b * O + oc] = (int16_t)r_clamp(r_wrap32((int64_t)v + p.output_offset),
                                         p.act_min, p.act_max);
      }
    for (t = 0; t < 4; t++) {
      memset(o, 0x55, sizeof o);
      tflc_fully_connected_s16(&p, B, D, O, x, &fc, has_bias ? &bc : NULL,
                               acc64, o, tiles[t] ? tile : NULL, tiles[t]);
      CHECK_EQ_MEM(o, r, (size_t)(B * O) * 2);
    }
  }
}

/* ---- TRANSPOSE_CONV --------------------------------------------------------
 */
static void test_tconv_hand(void) {
  /* one input pixel x = 2 (zero point 0) through a 2x2 filter {1, 2, 3, 4}
   * at stride 2, VALID: the output is 2 * f; multiplier 0.5 with shift 1
   * (2^30, 1) is exactly 1, so out = {2, 4, 6, 8}; with a bias of 10:
   * {12, 14, 16, 18}; output zero point 3 adds 3. */
  const int32_t in_d[4] = {1, 1, 1, 1}, f_d[4] = {1, 2, 2, 1},
                o_d[4] = {1, 2, 2, 1};
  const int8_t x = 2, f[4] = {1, 2, 3, 4};
  const int32_t bias = 10;
  const int8_t want[4] = {2, 4, 6, 8}, want_b[4] = {15, 17, 19, 21};
  int32_t mult = 1 << 30, acc[4];
  int8_t shift = 1, o[4];
  tflc_conv_params p;
  tflc_const fc = tflc_const_raw(f, TFLC_INT8, 4);
  tflc_const bc = tflc_const_raw(&bias, TFLC_INT32, 1);
  memset(&p, 0, sizeof p);
  p.stride_h = p.stride_w = 2;
  p.act_min = -128;
  p.act_max = 127;
  p.out_multiplier = &mult;
  p.out_shift = &shift;
  tflc_transpose_conv_s8(&p, in_d, &x, f_d, &fc, NULL, o_d, o, acc, NULL, 0);
  CHECK_EQ_MEM(o, want, 4);
  p.output_offset = 3;
  tflc_transpose_conv_s8(&p, in_d, &x, f_d, &fc, &bc, o_d, o, acc, NULL, 0);
  CHECK_EQ_MEM(o, want_b, 4);
  /* an input zero point of 1 (offset -1) makes x count as 1 */
  p.input_offset = -1;
  p.output_offset = 0;
  tflc_transpose_conv_s8(&p, in_d, &x, f_d, &fc, NULL, o_d, o, acc, NULL, 0);
  CHECK_EQ_MEM(o, f, 4);
  {
    /* float: 2x1 input {1, -1}, 1x3 filter {1, 2, 4} stride 1 padding 1:
     * full output {1, 2-1, 4-2, -4} = {1, 1, 2, -4} cropped by the pad of 1
     * at the left to width 2 -> {1, 2}; bias 0.5 -> {1.5, 2.5} */
    const int32_t fi_d[4] = {1, 1, 2, 1}, ff_d[4] = {1, 1, 3, 1},
                  fo_d[4] = {1, 1, 2, 1};
    const float fx[2] = {1.0f, -1.0f}, ff[3] = {1.0f, 2.0f, 4.0f}, fb = 0.5f;
    const float fwant[2] = {1.5f, 2.5f};
    float fo[2];
    tflc_const ffc = tflc_const_raw(ff, TFLC_FLOAT32, 3);
    tflc_const fbc = tflc_const_raw(&fb, TFLC_FLOAT32, 1);
    memset(&p, 0, sizeof p);
    p.stride_h = p.stride_w = 1;
    p.pad_w = 1;
    tflc_transpose_conv_f32(&p, -FLT_MAX, FLT_MAX, fi_d, fx, ff_d, &ffc, &fbc,
                            fo_d, fo, NULL, 0);
    CHECK_EQ_MEM(fo, fwant, 8);
  }
}

/* naive scatter (TFLM's loop order), kind 0 int8, 1 int16, 2 float */
static void ref_tconv(int kind, const int32_t *in_d, const int32_t *f_d,
                      const int32_t *o_d, const tflc_conv_params *p,
                      const void *x, const void *f, const int64_t *bias,
                      const float *biasf, float lo, float hi, void *out) {
  static int64_t acc[8192];
  static float facc[8192];
  const int32_t B = in_d[0], H = in_d[1], W = in_d[2], C = in_d[3];
  const int32_t OC = f_d[0], KH = f_d[1], KW = f_d[2];
  const int32_t OH = o_d[1], OW = o_d[2];
  int32_t b, iy, ix, ic, ky, kx, oc, oy, ox, n = cnt4(o_d), i;
  for (i = 0; i < n; i++) {
    acc[i] = 0;
    facc[i] = 0.0f;
  }
  for (b = 0; b < B; b++)
    for (iy = 0; iy < H; iy++)
      for (ix = 0; ix < W; ix++)
        for (ic = 0; ic < C; ic++)
          for (ky = 0; ky < KH; ky++)
            for (kx = 0; kx < KW; kx++)
              for (oc = 0; oc < OC; oc++) {
                const int32_t oy_ = iy * p->stride_h - p->pad_h + ky;
                const int32_t ox_ = ix * p->stride_w - p->pad_w + kx;
                const int32_t xi = ((b * H + iy) * W + ix) * C + ic;
                const int32_t fi = ((oc * KH + ky) * KW + kx) * C + ic;
                int32_t oi;
                if (oy_ < 0 || oy_ >= OH || ox_ < 0 || ox_ >= OW)
                  continue;
                oi = ((b * OH + oy_) * OW + ox_) * OC + oc;
                if (kind == 0)
                  acc[oi] = r_wrap32(
                      acc[oi] + (((const int8_t *)x)[xi] + p->input_offset) *
                                    ((const int8_t *)f)[fi]);
                else if (kind == 1)
                  acc[oi] += ((const int16_t *)x)[xi] * ((const int8_t *)f)[fi];
                else {
                  const float prod =
                      ((const float *)x)[xi] * ((const float *)f)[fi];
                  facc[oi] += prod;
                }
              }
  for (b = 0; b < B; b++)
    for (oy = 0; oy < OH; oy++)
      for (ox = 0; ox < OW; ox++)
        for (oc = 0; oc < OC; oc++) {
          const int32_t oi = ((b * OH + oy) * OW + ox) * OC + oc;
          if (kind == 2) {
            float v = facc[oi];
            if (biasf)
              v += biasf[oc];
            v = v < lo ? lo : v;
            v = hi < v ? hi : v;
            ((float *)out)[oi] = v;
          } else if (kind == 0) {
            int32_t v = r_wrap32(acc[oi] + (bias ? bias[oc] : 0));
            v = r_mbqm(v, p->out_multiplier[oc], p->out_shift[oc]) +
                p->output_offset;
            ((int8_t *)out)[oi] = (int8_t)r_clamp(v, p->act_min, p->act_max);
          } else {
            const int32_t v = r_mbqm64(acc[oi] + (bias ? bias[oc] : 0),
                                       p->out_multiplier[oc], p->out_shift[oc]);
            ((int16_t *)out)[oi] = (int16_t)r_clamp(v, p->act_min, p->act_max);
          }
        }
}

static void test_tconv_random(void) {
  static int8_t x8[2048], f8[4096], o8[8192], r8[8192];
  static int16_t x16[2048], o16[8192], r16[8192];
  static float xf[2048], ff[4096], of[8192], rf[8192], bf[64];
  static int64_t b64[64], acc[8192];
  static int32_t b32[64];
  static int16_t b16[64];
  static uint8_t tile[512];
  static lutc L;
  int iter, kind, t;
  for (kind = 0; kind < 3; kind++)
    for (iter = 0; iter < 50; iter++) {
      int32_t in_d[4], f_d[4], o_d[4], mult[64], i;
      int8_t shift[64];
      tflc_conv_params p;
      const int has_bias = (int)(rng() % 3u != 0);
      const int compressed = (int)(rng() & 1u);
      const int b16type = (int)(rng() & 1u);
      tflc_const fc, bc;
      float lo = -FLT_MAX, hi = FLT_MAX;
      memset(&p, 0, sizeof p);
      in_d[0] = rng_int(1, 2);
      in_d[1] = rng_int(1, 4);
      in_d[2] = rng_int(1, 4);
      in_d[3] = rng_int(1, 5);
      f_d[0] = rng_int(1, 4);
      f_d[1] = rng_int(1, 4);
      f_d[2] = rng_int(1, 4);
      f_d[3] = in_d[3];
      p.stride_h = rng_int(1, 3);
      p.stride_w = rng_int(1, 3);
      o_d[0] = in_d[0];
      /* output sizes around (in - 1) * stride + k; any size is allowed */
      o_d[1] = (in_d[1] - 1) * p.stride_h + f_d[1] - rng_int(0, 2);
      o_d[2] = (in_d[2] - 1) * p.stride_w + f_d[2] - rng_int(0, 2);
      if (o_d[1] < 1)
        o_d[1] = 1;
      if (o_d[2] < 1)
        o_d[2] = 1;
      o_d[3] = f_d[0];
      p.pad_h = rng_int(0, 1);
      p.pad_w = rng_int(0, 1);
      p.input_offset = kind == 0 ? rng_int(-10, 10) : 0;
      p.output_offset = kind == 0 ? rng_int(-10, 10) : 0;
      p.act_min = kind == 0 ? rng_int(-128, -50) : rng_int(-32768, -100);
      p.act_max = kind == 0 ? rng_int(50, 127) : rng_int(100, 32767);
      for (i = 0; i < f_d[0]; i++) {
        mult[i] = rng_int(1 << 30, INT32_MAX);
        shift[i] = (int8_t)(kind == 0 ? rng_int(-10, -1) : rng_int(-14, 0));
        b32[i] = rng_int(-30000, 30000);
        b16[i] = (int16_t)b32[i];
        b64[i] = kind == 1 && b16type ? b16[i] : b32[i];
        bf[i] = rng_unit();
      }
      p.out_multiplier = mult;
      p.out_shift = shift;
      for (i = 0; i < cnt4(in_d); i++) {
        x8[i] = (int8_t)rng_int(-128, 127);
        x16[i] = (int16_t)rng_int(-32768, 32767);
        xf[i] = rng_unit() * 3.0f;
      }
      if (kind == 2) {
        if (compressed) {
          make_lut(&L, TFLC_FLOAT32, 4, cnt4(f_d), rng_int(1, 5), 1, 0, ff);
          fc = L.c;
        } else {
          for (i = 0; i < cnt4(f_d); i++)
            ff[i] = rng_unit();
          fc = tflc_const_raw(ff, TFLC_FLOAT32, cnt4(f_d));
        }
        bc = tflc_const_raw(bf, TFLC_FLOAT32, f_d[0]);
        tflc_activation_range_f32(rng_int(0, 3), &lo, &hi);
      } else {
        if (compressed) {
          make_lut(&L, TFLC_INT8, 1, cnt4(f_d), rng_int(1, 7),
                   (rng() & 1u) ? f_d[0] : 1, 0, f8);
          fc = L.c;
        } else {
          for (i = 0; i < cnt4(f_d); i++)
            f8[i] = (int8_t)rng_int(-128, 127);
          fc = tflc_const_raw(f8, TFLC_INT8, cnt4(f_d));
        }
        if (kind == 0)
          bc = tflc_const_raw(b32, TFLC_INT32, f_d[0]);
        else if (b16type)
          bc = tflc_const_raw(b16, TFLC_INT16, f_d[0]);
        else
          bc = tflc_const_raw(b64, TFLC_INT64, f_d[0]);
      }
      if (kind == 0)
        ref_tconv(0, in_d, f_d, o_d, &p, x8, f8, has_bias ? b64 : NULL, NULL, 0,
                  0, r8);
      else if (kind == 1)
        ref_tconv(1, in_d, f_d, o_d, &p, x16, f8, has_bias ? b64 : NULL, NULL,
                  0, 0, r16);
      else
        ref_tconv(2, in_d, f_d, o_d, &p, xf, ff, NULL, has_bias ? bf : NULL, lo,
                  hi, rf);
      for (t = 0; t < 4; t++) {
        void *tl = tiles[t] ? tile : NULL;
        if (kind == 0) {
          tflc_transpose_conv_s8(&p, in_d, x8, f_d, &fc, has_bias ? &bc : NULL,
                                 o_d, o8, (int32_t *)acc, tl, tiles[t]);
          CHECK_EQ_MEM(o8, r8, (size_t)cnt4(o_d));
        } else if (kind == 1) {
          tflc_transpose_conv_s16(&p, in_d, x16, f_d, &fc,
                                  has_bias ? &bc : NULL, o_d, o16, acc, tl,
                                  tiles[t]);
          CHECK_EQ_MEM(o16, r16, (size_t)cnt4(o_d) * 2);
        } else {
          tflc_transpose_conv_f32(&p, lo, hi, in_d, xf, f_d, &fc,
                                  has_bias ? &bc : NULL, o_d, of, tl, tiles[t]);
          CHECK_EQ_MEM(of, rf, (size_t)cnt4(o_d) * 4);
        }
      }
    }
}

/* ---- int16 logistic / tanh ------------------------------------------------
 */
static void test_sigmoid_tanh_s16(void) {
  int32_t x, worst_l = 0, worst_t = 0, asym = 0;
  /* hand values: 0 -> 0.5 (16384 in Q0.15) and 0 */
  CHECK_EQ_INT(tflc_logistic_s16_one(0, 3, 0), 16384);
  CHECK_EQ_INT(tflc_tanh_s16_one(0, 3, 0), 0);
  /* saturation: |x * 3| >> 9 >= 255 only for inputs beyond int16 with
   * multiplier 3; with multiplier 3 << 4 the table end is reached */
  CHECK_EQ_INT(tflc_logistic_s16_one(32767, 48, 0), 32767);
  CHECK_EQ_INT(tflc_logistic_s16_one(-32768, 48, 0), 1);
  CHECK_EQ_INT(tflc_tanh_s16_one(32767, 48, 0), 32767);
  CHECK_EQ_INT(tflc_tanh_s16_one(-32768, 48, 0), -32767);
  /* Q3.12 input (multiplier 3, the LSTM gates): close to the functions */
  for (x = -32768; x <= 32767; x += 7) {
    const double v = x / 4096.0;
    const int32_t l = tflc_logistic_s16_one(x, 3, 0);
    const int32_t t = tflc_tanh_s16_one(x, 3, 0);
    const int32_t el = l - (int32_t)floor(32768.0 / (1.0 + exp(-v)) + 0.5);
    const int32_t et = t - (int32_t)floor(32768.0 * tanh(v) + 0.5);
    if (abs(el) > worst_l)
      worst_l = abs(el);
    if (abs(et) > worst_t)
      worst_t = abs(et);
    /* both are exactly odd around their centre: from the rounding terms,
     * logistic(x) + logistic(-x) = 1 and tanh(-x) = -tanh(x) */
    if (x > -32768 && (t != -tflc_tanh_s16_one(-x, 3, 0) ||
                       l + tflc_logistic_s16_one(-x, 3, 0) != 32768))
      asym++;
  }
  CHECK(worst_l <= 3);
  CHECK(worst_t <= 6);
  CHECK_EQ_INT(asym, 0);
  /* a right shift: (x * 3 + 2^(s-1)) >> s halves the input: x = 8192
   * (2.0 at Q3.12) -> tanh(1.0) = 0.76159 -> ~24956 */
  CHECK(abs(tflc_tanh_s16_one(8192, 3, 1) - 24956) <= 6);
}

/* ---- SVDF ------------------------------------------------------------------
 */
typedef struct svdf_case {
  tflc_svdf_params p;
  int8_t in[64], wf[1024];
  int16_t wt16[512];
  int8_t wt8[512];
  int32_t bias[32];
} svdf_case;

/* INT8_KERNELS.md section 8, written out */
static void ref_svdf(const svdf_case *k, int s16, int has_bias, void *state,
                     int8_t *out) {
  const tflc_svdf_params *p = &k->p;
  const int32_t B = p->batches, I = p->input_size, F = p->num_filters;
  const int32_t M = p->memory_size, R = p->rank, U = F / R;
  const int32_t lo = s16 ? -32768 : -128, hi = s16 ? 32767 : 127;
  int16_t *s16p = (int16_t *)state;
  int8_t *s8p = (int8_t *)state;
  int32_t i, b, r, u, j, c;
  for (i = 0; i < B * F * M - 1; i++) {
    if (s16)
      s16p[i] = s16p[i + 1];
    else
      s8p[i] = s8p[i + 1];
  }
  for (b = 0; b < B; b++)
    for (r = 0; r < F; r++) {
      int32_t dot = 0;
      for (c = 0; c < I; c++)
        dot = r_wrap32((int64_t)dot +
                       k->wf[r * I + c] * (k->in[b * I + c] - p->input_zp));
      dot = r_clamp(r_mbqm(dot, p->mult1, p->shift1), lo, hi);
      if (s16)
        s16p[(b * F + r) * M + M - 1] = (int16_t)(p->state_zp + dot);
      else
        s8p[(b * F + r) * M + M - 1] = (int8_t)(p->state_zp + dot);
    }
  for (b = 0; b < B; b++)
    for (u = 0; u < U; u++) {
      int32_t acc = has_bias ? k->bias[u] : 0;
      for (r = u * R; r < (u + 1) * R; r++)
        for (j = 0; j < M; j++) {
          const int32_t sv =
              s16 ? s16p[(b * F + r) * M + j] : s8p[(b * F + r) * M + j];
          const int32_t wv = s16 ? k->wt16[r * M + j] : k->wt8[r * M + j];
          acc = r_wrap32((int64_t)acc + wv * (sv - p->state_zp));
        }
      out[b * U + u] = (int8_t)r_clamp(
          r_mbqm(acc, p->mult2, p->shift2) + p->output_zp, -128, 127);
    }
}

static void test_svdf_random(void) {
  static svdf_case k;
  static int16_t st16[2048], rs16[2048];
  static int8_t st8[2048], rs8[2048];
  int iter, step;
  for (iter = 0; iter < 40; iter++) {
    const int s16 = (int)(rng() & 1u), has_bias = (int)(rng() % 3u != 0);
    int32_t i, U;
    tflc_const wf, wt, bc;
    memset(&k, 0, sizeof k);
    k.p.batches = rng_int(1, 2);
    k.p.input_size = rng_int(1, 20);
    k.p.rank = rng_int(1, 3);
    k.p.num_filters = k.p.rank * rng_int(1, 8);
    k.p.memory_size = rng_int(1, 10);
    k.p.input_zp = rng_int(-128, 127);
    k.p.state_zp = s16 ? 0 : rng_int(-60, 60);
    k.p.output_zp = rng_int(-20, 20);
    k.p.mult1 = rng_int(1 << 30, INT32_MAX);
    k.p.shift1 = rng_int(-12, 1);
    k.p.mult2 = rng_int(1 << 30, INT32_MAX);
    k.p.shift2 = rng_int(-16, -4);
    U = k.p.num_filters / k.p.rank;
    for (i = 0; i < k.p.num_filters * k.p.input_size; i++)
      k.wf[i] = (int8_t)rng_int(-128, 127);
    for (i = 0; i < k.p.num_filters * k.p.memory_size; i++) {
      k.wt16[i] = (int16_t)rng_int(-32768, 32767);
      k.wt8[i] = (int8_t)rng_int(-128, 127);
    }
    for (i = 0; i < U; i++)
      k.bias[i] = rng_int(-100000, 100000);
    wf = tflc_const_raw(k.wf, TFLC_INT8, k.p.num_filters * k.p.input_size);
    wt = s16 ? tflc_const_raw(k.wt16, TFLC_INT16,
                              k.p.num_filters * k.p.memory_size)
             : tflc_const_raw(k.wt8, TFLC_INT8,
                              k.p.num_filters * k.p.memory_size);
    bc = tflc_const_raw(k.bias, TFLC_INT32, U);
    memset(st16, 0, sizeof st16);
    memset(rs16, 0, sizeof rs16);
    memset(st8, 0, sizeof st8);
    memset(rs8, 0, sizeof rs8);
    for (step = 0; step < 4; step++) {
      int8_t o[64], r[64];
      for (i = 0; i < k.p.batches * k.p.input_size; i++)
        k.in[i] = (int8_t)rng_int(-128, 127);
      ref_svdf(&k, s16, has_bias, s16 ? (void *)rs16 : (void *)rs8, r);
      tflc_svdf_s8(&k.p, k.in, &wf, &wt, has_bias ? &bc : NULL,
                   s16 ? (void *)st16 : (void *)st8, o);
      CHECK_EQ_MEM(o, r, (size_t)(k.p.batches * U));
      if (s16)
        CHECK_EQ_MEM(st16, rs16, sizeof st16);
      else
        CHECK_EQ_MEM(st8, rs8, sizeof st8);
    }
  }
}

static void test_svdf_f32_hand(void) {
  /* 1 batch, 2 inputs, 2 filters (rank 2 -> 1 unit), memory 2.
   * step 1: x = {1, 2}; feature rows {1, 1}, {2, -1} -> 3, 0; state rows
   * {0, 3}, {0, 0}; time rows {0.5, 1}, {1, 1} -> 3 + 0 = 3; bias 1 -> 4.
   * step 2: x = {-1, 1} -> 0, -3; state {3, 0}, {0, -3}; time -> 1.5 - 3
   * = -1.5, + 1 = -0.5; RELU -> 0; NONE -> -0.5. */
  const float wf[4] = {1, 1, 2, -1}, wt[4] = {0.5f, 1, 1, 1}, bias = 1.0f;
  const float x1[2] = {1, 2}, x2[2] = {-1, 1};
  float state[4] = {0, 0, 0, 0}, o;
  tflc_svdf_params p;
  tflc_const wfc = tflc_const_raw(wf, TFLC_FLOAT32, 4);
  tflc_const wtc = tflc_const_raw(wt, TFLC_FLOAT32, 4);
  tflc_const bc = tflc_const_raw(&bias, TFLC_FLOAT32, 1);
  memset(&p, 0, sizeof p);
  p.batches = 1;
  p.input_size = 2;
  p.num_filters = 2;
  p.memory_size = 2;
  p.rank = 2;
  p.act = 1;
  tflc_svdf_f32(&p, x1, &wfc, &wtc, &bc, state, &o);
  CHECK(o == 4.0f);
  CHECK(state[1] == 3.0f && state[3] == 0.0f);
  tflc_svdf_f32(&p, x2, &wfc, &wtc, &bc, state, &o);
  CHECK(o == 0.0f);
  p.act = 0;
  state[0] = 0;
  state[1] = 3;
  state[2] = 0;
  state[3] = 0;
  tflc_svdf_f32(&p, x2, &wfc, &wtc, &bc, state, &o);
  CHECK(o == -0.5f);
}

/* ---- LSTM ------------------------------------------------------------------
 */
/* float reference in TFLM's order: gates f, i, g; cell; gate o; hidden */
static float ref_sig(float v) {
  if (v > 16.619047164916992188f)
    return 1.0f;
  if (v < -9.0f)
    return expf(v);
  return 1.0f / (1.0f + expf(-v));
}
static float ref_fc(const float *w, const float *b, int32_t o, const float *x,
                    int32_t n) {
  float total = 0.0f, v;
  int32_t d;
  for (d = 0; d < n; d++) {
    const float prod = x[d] * w[o * n + d];
    total += prod;
  }
  v = total + (b ? b[o] : 0.0f);
  return v < -FLT_MAX ? -FLT_MAX : FLT_MAX < v ? FLT_MAX : v;
}
static void ref_lstm_f32(int32_t B, int32_t T, int32_t I, int32_t S,
                         const float *w[8], const float *bias[4],
                         const float *x, float *h, float *c, float *out,
                         float clip) {
  int32_t b, t, o, g;
  float gate[4][16];
  for (b = 0; b < B; b++)
    for (t = 0; t < T; t++) {
      const float *xt = x + (b * T + t) * I;
      float *hb = h + b * S, *cb = c + b * S;
      for (g = 0; g < 4; g++)
        for (o = 0; o < S; o++) {
          const float pre = ref_fc(w[g], bias[g], o, xt, I) +
                            ref_fc(w[4 + g], NULL, o, hb, S);
          gate[g][o] = g == 2 ? tanhf(pre) : ref_sig(pre);
        }
      for (o = 0; o < S; o++) {
        float v = gate[1][o] * cb[o] + gate[0][o] * gate[2][o];
        if (clip > 0) {
          v = v < clip ? v : clip;
          v = v < -clip ? -clip : v;
        }
        cb[o] = v;
      }
      for (o = 0; o < S; o++) {
        hb[o] = tanhf(cb[o]) * gate[3][o];
        out[(b * T + t) * S + o] = hb[o];
      }
    }
}

static void test_lstm_f32_random(void) {
  static float wbuf[8][16 * 16], bbuf[4][16], x[2 * 6 * 12], h[32], c[32],
      out[2 * 6 * 16], rh[32], rc[32], rout[2 * 6 * 16], scratch[3 * 16];
  int iter;
  for (iter = 0; iter < 20; iter++) {
    const int32_t B = rng_int(1, 2), T = rng_int(1, 6), I = rng_int(1, 12),
                  S = rng_int(1, 16);
    const float *wp[8], *bp[4];
    tflc_const w[8], b[4];
    tflc_lstm_params p;
    int32_t k, i;
    memset(&p, 0, sizeof p);
    p.batches = B;
    p.steps = T;
    p.input_size = I;
    p.state_size = S;
    p.clip_f = (rng() & 1u) ? 0.75f : 0.0f;
    for (k = 0; k < 8; k++) {
      const int32_t n = S * (k < 4 ? I : S);
      for (i = 0; i < n; i++)
        wbuf[k][i] = rng_unit();
      w[k] = tflc_const_raw(wbuf[k], TFLC_FLOAT32, n);
      wp[k] = wbuf[k];
    }
    for (k = 0; k < 4; k++) {
      for (i = 0; i < S; i++)
        bbuf[k][i] = rng_unit();
      b[k] = tflc_const_raw(bbuf[k], TFLC_FLOAT32, S);
      bp[k] = bbuf[k];
    }
    for (i = 0; i < B * T * I; i++)
      x[i] = rng_unit() * 2.0f;
    for (i = 0; i < B * S; i++) {
      h[i] = rh[i] = rng_unit();
      c[i] = rc[i] = rng_unit();
    }
    ref_lstm_f32(B, T, I, S, wp, bp, x, rh, rc, rout, p.clip_f);
    tflc_lstm_f32(&p, w, b, x, h, c, out, scratch);
    CHECK_EQ_MEM(out, rout, (size_t)(B * T * S) * 4);
    CHECK_EQ_MEM(h, rh, (size_t)(B * S) * 4);
    CHECK_EQ_MEM(c, rc, (size_t)(B * S) * 4);
  }
}

/* Quantized LSTM: time-major and batch-major runs of the same sequences
 * agree, and the dequantized result follows the float LSTM. */
static void test_lstm_q(void) {
  static int8_t w8[8][16 * 16], x_bm[2 * 5 * 8], x_tm[5 * 2 * 8];
  static int8_t h_bm[2 * 16], h_tm[2 * 16], o_bm[2 * 5 * 16], o_tm[5 * 2 * 16];
  static int16_t c_bm[2 * 16], c_tm[2 * 16], scratch[3 * 2 * 16];
  static int32_t bias[4][16];
  static float wf[8][16 * 16], bf[4][16], xf[2 * 5 * 8], hf[32], cf[32],
      of[2 * 5 * 16];
  const int32_t B = 2, T = 5, I = 8, S = 16;
  const float sx = 1.0f / 64, sh = 1.0f / 128, sc = 1.0f / 4096, sw = 1.0f / 64;
  tflc_lstm_params p;
  tflc_const w[8], b[4];
  const float *wp[8], *bp[4];
  int32_t k, i, bb, t, sh32, worst = 0;
  memset(&p, 0, sizeof p);
  p.batches = B;
  p.steps = T;
  p.input_size = I;
  p.state_size = S;
  p.hidden_min = -128;
  p.hidden_max = 127;
  for (k = 0; k < 8; k++) {
    const int32_t n = S * (k < 4 ? I : S);
    for (i = 0; i < n; i++) {
      w8[k][i] = (int8_t)rng_int(-40, 40);
      wf[k][i] = w8[k][i] * sw;
    }
    w[k] = tflc_const_raw(w8[k], TFLC_INT8, n);
    wp[k] = wf[k];
    tflc_fc_quantize_multiplier(k < 4 ? sx : sh, sw, 1.0f / 4096,
                                &p.gate_mult[k], &sh32);
    p.gate_shift[k] = sh32;
  }
  for (k = 0; k < 4; k++) {
    for (i = 0; i < S; i++) {
      bias[k][i] = rng_int(-200, 200);
      bf[k][i] = (float)bias[k][i] * sx * sw;
    }
    b[k] = tflc_const_raw(bias[k], TFLC_INT32, S);
    bp[k] = bf[k];
  }
  tflc_quantize_multiplier(1.0 / 32768 * sc / sc, &p.fc_mult, &p.fc_shift);
  tflc_quantize_multiplier(1.0 / 32768 / 32768 / sc, &p.ig_mult, &p.ig_shift);
  tflc_quantize_multiplier(1.0 / 32768 / 32768 / sh, &p.h_mult, &p.h_shift);
  p.tanh_mult = 3; /* cell scale 2^-12: tanh input shift 0 */
  for (bb = 0; bb < B; bb++)
    for (t = 0; t < T; t++)
      for (i = 0; i < I; i++) {
        const int8_t v = (int8_t)rng_int(-64, 64);
        x_bm[(bb * T + t) * I + i] = v;
        x_tm[(t * B + bb) * I + i] = v;
        xf[(bb * T + t) * I + i] = v * sx;
      }
  memset(h_bm, 0, sizeof h_bm);
  memset(h_tm, 0, sizeof h_tm);
  memset(c_bm, 0, sizeof c_bm);
  memset(c_tm, 0, sizeof c_tm);
  memset(hf, 0, sizeof hf);
  memset(cf, 0, sizeof cf);
  tflc_lstm_q(&p, 0, w, b, x_bm, h_bm, c_bm, o_bm, scratch);
  p.time_major = 1;
  tflc_lstm_q(&p, 0, w, b, x_tm, h_tm, c_tm, o_tm, scratch);
  for (bb = 0; bb < B; bb++)
    for (t = 0; t < T; t++)
      CHECK_EQ_MEM(&o_bm[(bb * T + t) * S], &o_tm[(t * B + bb) * S], (size_t)S);
  CHECK_EQ_MEM(h_bm, h_tm, sizeof h_bm);
  CHECK_EQ_MEM(c_bm, c_tm, sizeof c_bm);
  ref_lstm_f32(B, T, I, S, wp, bp, xf, hf, cf, of, 0.0f);
  for (i = 0; i < B * T * S; i++) {
    const int32_t e = abs(o_bm[i] - (int32_t)lroundf(of[i] / sh));
    worst = e > worst ? e : worst;
  }
  CHECK(worst <= 3);
  /* every hidden value is a real output (not all zero) */
  for (i = 0, k = 0; i < B * T * S; i++)
    k += o_bm[i] != 0;
  CHECK(k > B * T * S / 2);
}

/* ---- models through the interpreter ----------------------------------------
 */
/* A tensor of rank <= 4 with its dimensions inline: constant data (or
 * NULL), one scale (0: not quantized) and zero point. */
static tensor_spec tensor4(int type, int32_t rank, int32_t d0, int32_t d1,
                           int32_t d2, int32_t d3, const void *data,
                           size_t size, float scale, int64_t zp) {
  const int32_t d[4] = {d0, d1, d2, d3};
  tensor_spec t = tensor_quant(tensor_shape(type, rank, d), scale, zp);
  t.data = data;
  t.size = size;
  return t;
}
/* One operator with one output; `invokes` runs (feeds: one set per
 * invoke), the last output to dst. compress_in >= 0: that input
 * compressed (bits, format). */
static op_result run_one(int32_t code, uint8_t opt_type, int32_t nopts,
                         const tflc_w_option *opts, int32_t nin,
                         const tensor_spec *in, const tensor_spec *out,
                         const void *const *feeds, int invokes, void *dst,
                         int32_t compress_in, int bits, int format) {
  static op_spec s;
  void *outs[1];
  s = op_spec_of(code, opt_type);
  s.nopts = nopts;
  if (nopts)
    memcpy(s.opts, opts, sizeof *opts * (size_t)nopts);
  s.nin = nin;
  memcpy(s.in, in, sizeof *in * (size_t)nin);
  s.nout = 1;
  s.out[0] = *out;
  s.compress_in = compress_in;
  s.bits = bits;
  s.format = format;
  s.invokes = invokes;
  outs[0] = dst;
  return run_op_model(&s, feeds, outs);
}

static void test_model_tconv_compressed(void) {
  /* int8 TRANSPOSE_CONV 3x3x4 -> 7x7x3 (stride 2, VALID): plain, and the
   * filter compressed in both formats (4-bit, per-channel tables), give
   * the same bytes; also what the kernel gives directly */
  static const float filter_scales[3] = {0.02f, 0.03f, 0.01f};
  static int8_t f[3 * 3 * 3 * 4], x[36], o_plain[147], o_c[147], o_k[147];
  static int32_t acc[49];
  const int32_t shape[4] = {1, 7, 7, 3}, bias[3] = {100, -50, 7};
  const void *feeds[1] = {x};
  tflc_w_option opts[4];
  tensor_spec in[4], out;
  op_result r;
  int32_t i, fmt;
  for (i = 0; i < 108; i++)
    f[i] = (int8_t)(rng_int(0, 7) * 9 - 30 + (i / 36) * 3);
  for (i = 0; i < 36; i++)
    x[i] = (int8_t)rng_int(-128, 127);
  opts[0] = opt_u8(0, 1); /* VALID */
  opts[1] = opt_i32(1, 2);
  opts[2] = opt_i32(2, 2);
  opts[3] = opt_u8(3, 0);
  in[0] = tensor4(TFLC_INT32, 1, 4, 0, 0, 0, shape, sizeof shape, 0, 0);
  in[1] = tensor4(TFLC_INT8, 4, 3, 3, 3, 4, f, sizeof f, 0.02f, 0);
  in[1].scales = filter_scales;
  in[1].nscales = 3;
  in[2] = tensor4(TFLC_INT8, 4, 1, 3, 3, 4, NULL, 0, 0.1f, 5);
  in[3] = tensor4(TFLC_INT32, 1, 3, 0, 0, 0, bias, sizeof bias, 0.002f, 0);
  out = tensor4(TFLC_INT8, 4, 1, 7, 7, 3, NULL, 0, 0.3f, -3);
  r = run_one(67, 49, 4, opts, 4, in, &out, feeds, 1, o_plain, -1, 0, 0);
  CHECK_EQ_INT(r.init, TFLC_OK);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  for (fmt = TFLC_W_METADATA; fmt <= TFLC_W_DECODE; fmt++) {
    memset(o_c, 0, sizeof o_c);
    r = run_one(67, 49, 4, opts, 4, in, &out, feeds, 1, o_c, 1, 4, fmt);
    CHECK_EQ_INT(r.init, TFLC_OK);
    CHECK_EQ_INT(r.invoke, TFLC_OK);
    CHECK_EQ_MEM(o_c, o_plain, sizeof o_c);
  }
  {
    /* the kernel with TFLM's multipliers: 0.1 * s_c / 0.3 */
    const float fs[3] = {0.02f, 0.03f, 0.01f};
    const int32_t in_d[4] = {1, 3, 3, 4}, f_d[4] = {3, 3, 3, 4};
    int32_t mult[3], sh32[3];
    int8_t shift[3];
    tflc_conv_params p;
    tflc_const fc = tflc_const_raw(f, TFLC_INT8, 108);
    tflc_const bc = tflc_const_raw(bias, TFLC_INT32, 3);
    memset(&p, 0, sizeof p);
    tflc_conv_quantize_multipliers(0.1f, fs, 3, 0.3f, 3, mult, sh32);
    for (i = 0; i < 3; i++)
      shift[i] = (int8_t)sh32[i];
    p.stride_h = p.stride_w = 2;
    p.input_offset = -5;
    p.output_offset = -3;
    p.act_min = -128;
    p.act_max = 127;
    p.out_multiplier = mult;
    p.out_shift = shift;
    tflc_transpose_conv_s8(&p, in_d, x, f_d, &fc, &bc, shape, o_k, acc, NULL,
                           0);
    CHECK_EQ_MEM(o_k, o_plain, sizeof o_k);
  }
}

static void test_model_refusals(void) {
  static const float filter_scales[3] = {0.01f, 0.01f, 0.01f};
  static int8_t f[2 * 3 * 3 * 2];
  static int16_t x[2 * 5 * 5], o[2 * 5 * 5 * 2];
  const int32_t b32[4] = {0, 0, 0, 0};
  const int64_t b64[4] = {0, 0, 0, 0};
  const int16_t b16[4] = {0, 0, 0, 0};
  const int32_t shape[4] = {1, 5, 5, 2};
  const void *feeds[1] = {x};
  tflc_w_option opts[7];
  tensor_spec in[4], out;
  op_result r;
  memset(f, 1, sizeof f);
  opts[0] = opt_i32(1, 1);
  opts[1] = opt_i32(2, 1);
  opts[2] = opt_i32(3, 1); /* depth multiplier */
  /* int16 DEPTHWISE_CONV_2D: TFLM reads the bias as int64 */
  in[0] = tensor4(TFLC_INT16, 4, 1, 5, 5, 2, NULL, 0, 0.01f, 0);
  in[1] = tensor4(TFLC_INT8, 4, 1, 3, 3, 2, f, sizeof f, 0.01f, 0);
  in[2] = tensor4(TFLC_INT32, 1, 2, 0, 0, 0, b32, 8, 0.0001f, 0);
  out = tensor4(TFLC_INT16, 4, 1, 5, 5, 2, NULL, 0, 0.02f, 0);
  r = run_one(4, 2, 3, opts, 3, in, &out, feeds, 1, o, -1, 0, 0);
  CHECK_EQ_INT(r.init, TFLC_ERR_TYPE);
  in[2] = tensor4(TFLC_INT64, 1, 2, 0, 0, 0, b64, 16, 0.0001f, 0);
  r = run_one(4, 2, 3, opts, 3, in, &out, feeds, 1, o, -1, 0, 0);
  CHECK_EQ_INT(r.init, TFLC_OK);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  /* hybrid: float input with int8 filter */
  in[0] = tensor4(TFLC_FLOAT32, 4, 1, 5, 5, 2, NULL, 0, 0, 0);
  out = tensor4(TFLC_FLOAT32, 4, 1, 5, 5, 2, NULL, 0, 0, 0);
  r = run_one(4, 2, 3, opts, 3, in, &out, feeds, 1, o, -1, 0, 0);
  CHECK_EQ_INT(r.init, TFLC_ERR_TYPE);
  /* int16 TRANSPOSE_CONV with an int32 bias (TFLM reads int64) */
  opts[0] = opt_u8(0, 0);
  opts[1] = opt_i32(1, 1);
  opts[2] = opt_i32(2, 1);
  in[0] = tensor4(TFLC_INT32, 1, 4, 0, 0, 0, shape, sizeof shape, 0, 0);
  in[1] = tensor4(TFLC_INT8, 4, 2, 3, 3, 2, f, sizeof f, 0.01f, 0);
  in[2] = tensor4(TFLC_INT16, 4, 1, 5, 5, 2, NULL, 0, 0.01f, 0);
  in[3] = tensor4(TFLC_INT32, 1, 2, 0, 0, 0, b32, 8, 0.0001f, 0);
  out = tensor4(TFLC_INT16, 4, 1, 5, 5, 2, NULL, 0, 0.02f, 0);
  r = run_one(67, 49, 3, opts, 4, in, &out, feeds, 1, o, -1, 0, 0);
  CHECK_EQ_INT(r.init, TFLC_ERR_TYPE);
  in[3] = tensor4(TFLC_INT16, 1, 2, 0, 0, 0, b16, 4, 0.0001f, 0);
  r = run_one(67, 49, 3, opts, 4, in, &out, feeds, 1, o, -1, 0, 0);
  CHECK_EQ_INT(r.init, TFLC_OK);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  /* the filter's per-channel scale count must match the channels */
  in[1].scales = filter_scales;
  in[1].nscales = 3;
  r = run_one(67, 49, 3, opts, 4, in, &out, feeds, 1, o, -1, 0, 0);
  CHECK(r.init != TFLC_OK);
}

static void test_model_conv_s16_bias_type(void) {
  /* int16 CONV_2D without bias: quantized_bias_type INT32 (option slot 6)
   * selects the int32 accumulator, which wraps for these values; the
   * default selects int64. Compare with the kernel. */
  static int8_t f[1 * 3 * 3 * 64];
  static int16_t x[3 * 3 * 64], o[2], want[2];
  const int32_t in_d[4] = {1, 3, 3, 64}, f_d[4] = {1, 3, 3, 64},
                o_d[4] = {1, 1, 1, 1};
  const void *feeds[1] = {x};
  tflc_w_option opts[5];
  tensor_spec in[3], out;
  op_result r;
  int32_t i, mult, sh32;
  int8_t shift;
  tflc_conv_params p;
  tflc_const fc;
  for (i = 0; i < 576; i++) {
    f[i] = 127;
    x[i] = 32767;
  }
  opts[0] = opt_u8(0, 1);
  opts[1] = opt_i32(1, 1);
  opts[2] = opt_i32(2, 1);
  in[0] = tensor4(TFLC_INT16, 4, 1, 3, 3, 64, NULL, 0, 0.001f, 0);
  in[1] = tensor4(TFLC_INT8, 4, 1, 3, 3, 64, f, sizeof f, 0.001f, 0);
  in[2] = tensor4(-1, 0, 0, 0, 0, 0, NULL, 0, 0, 0);
  out = tensor4(TFLC_INT16, 4, 1, 1, 1, 1, NULL, 0, 0.5f, 0);
  memset(&p, 0, sizeof p);
  p.stride_h = p.stride_w = p.dilation_h = p.dilation_w = 1;
  p.act_min = -32768;
  p.act_max = 32767;
  tflc_quantize_multiplier((double)0.001f * (double)0.001f / (double)0.5f,
                           &mult, &sh32);
  shift = (int8_t)sh32;
  p.out_multiplier = &mult;
  p.out_shift = &shift;
  fc = tflc_const_raw(f, TFLC_INT8, 576);
  r = run_one(3, 1, 3, opts, 3, in, &out, feeds, 1, &o[0], -1, 0, 0);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  tflc_conv2d_s16(&p, in_d, x, f_d, &fc, NULL, 1, o_d, &want[0], NULL, 0);
  CHECK_EQ_INT(o[0], want[0]);
  opts[3] = opt_u8(6, 2); /* INT32 */
  r = run_one(3, 1, 4, opts, 3, in, &out, feeds, 1, &o[1], -1, 0, 0);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  tflc_conv2d_s16(&p, in_d, x, f_d, &fc, NULL, 0, o_d, &want[1], NULL, 0);
  CHECK_EQ_INT(o[1], want[1]);
  CHECK(want[0] != want[1]); /* 576 * 127 * 32767 wraps in int32 */
}

static void test_model_svdf_state(void) {
  /* int8 SVDF with int16 state over three invokes; the state is a
   * variable planned for the whole run, so each output depends on the
   * previous inputs: compare with the kernel called three times. */
  static svdf_case k;
  static int16_t st[64 * 4];
  static int8_t xs[3][8];
  const void *feeds[3] = {xs[0], xs[1], xs[2]};
  tflc_w_option opts[2];
  tensor_spec in[5], out;
  op_result r;
  int8_t o[4], want[4];
  int32_t i, n;
  tflc_const wf, wt, bc;
  memset(&k, 0, sizeof k);
  k.p.batches = 1;
  k.p.input_size = 8;
  k.p.rank = 2;
  k.p.num_filters = 8;
  k.p.memory_size = 4;
  for (i = 0; i < 64; i++)
    k.wf[i] = (int8_t)rng_int(-100, 100);
  for (i = 0; i < 32; i++)
    k.wt16[i] = (int16_t)rng_int(-3000, 3000);
  for (i = 0; i < 4; i++)
    k.bias[i] = rng_int(-500, 500);
  for (n = 0; n < 3; n++)
    for (i = 0; i < 8; i++)
      xs[n][i] = (int8_t)rng_int(-128, 127);
  opts[0] = opt_i32(0, 2);
  opts[1] = opt_u8(1, 1); /* RELU: not applied (as TFLM) */
  in[0] = tensor4(TFLC_INT8, 2, 1, 8, 0, 0, NULL, 0, 0.05f, -3);
  in[1] = tensor4(TFLC_INT8, 2, 8, 8, 0, 0, k.wf, 64, 0.01f, 0);
  in[2] = tensor4(TFLC_INT16, 2, 8, 4, 0, 0, k.wt16, 64, 0.002f, 0);
  in[3] = tensor4(TFLC_INT32, 1, 4, 0, 0, 0, k.bias, 16, 0.004f * 0.002f, 0);
  in[4] = tensor4(TFLC_INT16, 2, 1, 32, 0, 0, NULL, 0, 0.004f, 0);
  in[4].variable = 1;
  out = tensor4(TFLC_INT8, 2, 1, 4, 0, 0, NULL, 0, 0.1f, 2);
  r = run_one(27, 6, 2, opts, 5, in, &out, feeds, 3, o, -1, 0, 0);
  CHECK_EQ_INT(r.init, TFLC_OK);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  {
    const float s1 = 0.05f * 0.01f / 0.004f, s2 = 0.004f * 0.002f / 0.1f;
    tflc_quantize_multiplier((double)s1, &k.p.mult1, &k.p.shift1);
    tflc_quantize_multiplier((double)s2, &k.p.mult2, &k.p.shift2);
  }
  k.p.input_zp = -3;
  k.p.output_zp = 2;
  wf = tflc_const_raw(k.wf, TFLC_INT8, 64);
  wt = tflc_const_raw(k.wt16, TFLC_INT16, 32);
  bc = tflc_const_raw(k.bias, TFLC_INT32, 4);
  memset(st, 0, sizeof st);
  for (n = 0; n < 3; n++)
    tflc_svdf_s8(&k.p, xs[n], &wf, &wt, &bc, st, want);
  CHECK_EQ_MEM(o, want, 4);
  /* the state must be a variable */
  in[4].variable = 0;
  r = run_one(27, 6, 2, opts, 5, in, &out, feeds, 1, o, -1, 0, 0);
  CHECK_EQ_INT(r.init, TFLC_ERR_SCHEMA);
}

int main(void) {
  rng_seed(0x6A09E667u);
  RUN(test_conv_s16_hand);
  RUN(test_conv_s16_random);
  RUN(test_conv_f32_random);
  RUN(test_fc_s16_random);
  RUN(test_tconv_hand);
  RUN(test_tconv_random);
  RUN(test_sigmoid_tanh_s16);
  RUN(test_svdf_random);
  RUN(test_svdf_f32_hand);
  RUN(test_lstm_f32_random);
  RUN(test_lstm_q);
  RUN(test_model_tconv_compressed);
  RUN(test_model_refusals);
  RUN(test_model_conv_s16_bias_type);
  RUN(test_model_svdf_state);
  return harness_report();
}

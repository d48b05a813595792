/* tests/test_ops_elementwise.c - element-wise kernels: MUL, SUB, int16 ADD,
 * LOGISTIC, TANH, RELU, RELU6, LEAKY_RELU, PRELU, HARD_SWISH, L2_NORMALIZATION,
 * LOG_SOFTMAX, MAXIMUM/MINIMUM, comparisons, SUM, ARG_MAX/ARG_MIN,
 * integer requantization.
 *
 * Evidence of three kinds:
 *   - hand-computed values (worked out in the comments);
 *   - an independent reference written here from reference/INT8_KERNELS.md
 *     (its own fixed-point primitives in int64 arithmetic), compared on
 *     random shapes, scales and inputs;
 *   - outputs recorded from TFLM's reference kernels (conformance cases
 *     named in the comments; inputs regenerated from the case's seed with
 *     the conformance generator), for the gemmlowp-based kernels, which are
 *     also checked against float math within a small tolerance. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#endif
#include "../tflc_write.h"
#include "harness.h"
#include "models.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- utilities ----------------------------------------------------------- */

static float rng_scale(void) { /* log-uniform in about [1e-3, 0.5] */
  return rng_log_uniform(-6.9, 6.2);
}

/* Random sweeps count their mismatches (the first few are printed) and
 * end in one check, so they weigh one check each in the totals. */
static long g_bad;
#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond) && g_bad++ < 5)                                                \
      fprintf(stderr, "%s:%d: %s: EXPECT(%s) failed\n", __FILE__, __LINE__,    \
              harness_current, #cond);                                         \
  } while (0)
#define EXPECT_EQ(a, b) EXPECT((long long)(a) == (long long)(b))
static void sweep_done(void) {
  CHECK_EQ_INT(g_bad, 0);
  g_bad = 0;
}

static int32_t clampi(int64_t v, int32_t lo, int32_t hi) {
  return (int32_t)(v < lo ? lo : v > hi ? hi : v);
}

/* ---- independent fixed-point reference ----------------------------------- */

/* floor(a / 2^n), no shifts of negative values */
static int64_t ref_floor_pot(int64_t a, int n) {
  const int64_t d = (int64_t)1 << n;
  int64_t q = a / d;
  if (a % d != 0 && a < 0)
    q -= 1;
  return q;
}
/* SRDHM: round(a*b / 2^31), ties toward +inf; INT32_MIN^2 saturates. */
static int32_t ref_srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN)
    return INT32_MAX;
  return (int32_t)ref_floor_pot((int64_t)a * b + ((int64_t)1 << 30), 31);
}
/* RDBPOT: x / 2^n rounded to nearest, ties away from zero. */
static int32_t ref_rdbpot(int32_t x, int n) {
  int64_t m, r;
  if (n <= 0)
    return x;
  m = x < 0 ? -(int64_t)x : (int64_t)x;
  r = (m + ((int64_t)1 << (n - 1))) >> n;
  return (int32_t)(x < 0 ? -r : r);
}
/* MultiplyByQuantizedMultiplier (double rounding, wrapping left shift). */
static int32_t ref_mbqm(int32_t x, int32_t q, int32_t shift) {
  const int64_t xs = (int64_t)x * ((int64_t)1 << (shift > 0 ? shift : 0));
  const uint32_t w = (uint32_t)(uint64_t)xs;
  const int32_t xw =
      w > 0x7FFFFFFFu ? (int32_t)(w - 0x80000000u) + INT32_MIN : (int32_t)w;
  return ref_rdbpot(ref_srdhm(xw, q), shift < 0 ? -shift : 0);
}
/* QuantizeMultiplier */
static void ref_qm(double m, int32_t *q, int32_t *shift) {
  int e = 0;
  double f;
  int64_t r;
  if (m == 0.0) {
    *q = 0;
    *shift = 0;
    return;
  }
  f = frexp(m, &e);
  r = (int64_t)round(f * 2147483648.0);
  if (r == ((int64_t)1 << 31)) {
    r /= 2;
    ++e;
  }
  if (e < -31) {
    r = 0;
    e = 0;
  }
  *q = (int32_t)r;
  *shift = e;
}

/* Broadcast index of output element i for an input of dims din (all
 * shapes rank r, right-aligned already). */
static size_t ref_bidx(int r, const int32_t *dout, const int32_t *din,
                       size_t i) {
  size_t off = 0, stride = 1;
  int k;
  for (k = r - 1; k >= 0; --k) {
    const size_t c = i % (size_t)dout[k];
    i /= (size_t)dout[k];
    if (din[k] != 1)
      off += c * stride;
    stride *= (size_t)din[k];
  }
  return off;
}
/* Random broadcastable shapes of rank r. */
static size_t rand_shapes(int r, int32_t *d0, int32_t *d1, int32_t *d2) {
  size_t n = 1;
  int k;
  for (k = 0; k < r; ++k) {
    const int m = rng_int(0, 2);
    d0[k] = rng_int(1, 4);
    d1[k] = m == 1 ? 1 : d0[k];
    d2[k] = m == 2 ? 1 : d0[k];
    n *= (size_t)d0[k];
  }
  return n;
}
static size_t count(int r, const int32_t *d) {
  size_t n = 1;
  int k;
  for (k = 0; k < r; ++k)
    n *= (size_t)d[k];
  return n;
}

/* ---- MUL ------------------------------------------------------------------
 */

static void test_mul_hand(void) {
  /* s1 0.5, s2 0.25, so 0.125: m = 1 -> q 2^30, shift 1 (exactly x2 then
   * the high mul halves). (3 - 1) * (-5 - 0) = -10 -> -10 + 4 = -6;
   * broadcast [2] x [2,2]. */
  tflc_mul_params p;
  const int32_t d1[2] = {1, 2}, d2[2] = {2, 2}, d0[2] = {2, 2};
  const int8_t a[2] = {3, 1}, b[4] = {-5, 7, 100, -100};
  int8_t y[4];
  p.input1_offset = -1;
  p.input2_offset = 0;
  p.output_offset = 4;
  tflc_quantize_multiplier(0.5 * 0.25 / 0.125, &p.multiplier, &p.shift);
  CHECK_EQ_INT(p.multiplier, 1 << 30);
  CHECK_EQ_INT(p.shift, 1);
  p.act_min = -128;
  p.act_max = 127;
  tflc_mul_q(&p, 1, 2, d1, a, d2, b, d0, y);
  CHECK_EQ_INT(y[0], -6);  /* 2 * -5 + 4 */
  CHECK_EQ_INT(y[1], 4);   /* 0 * 7 + 4 */
  CHECK_EQ_INT(y[2], 127); /* 2 * 100 + 4, clamped */
  CHECK_EQ_INT(y[3], 4);   /* 0 * -100 + 4 */
  /* activation clamp */
  p.act_min = 0;
  p.act_max = 5;
  tflc_mul_q(&p, 1, 2, d1, a, d2, b, d0, y);
  CHECK_EQ_INT(y[0], 0);
  CHECK_EQ_INT(y[2], 5);
}

static void test_mul_vs_reference(void) {
  int it;
  for (it = 0; it < 300; ++it) {
    const int r = rng_int(1, 5), w = rng_int(1, 2);
    int32_t d0[6], d1[6], d2[6];
    const size_t n = rand_shapes(r, d0, d1, d2);
    int16_t x1[1024], x2[1024], y[1024];
    int8_t x1b[1024], x2b[1024], yb[1024];
    const int32_t lo = w == 1 ? -128 : -32768, hi = w == 1 ? 127 : 32767;
    tflc_mul_params p;
    size_t i;
    const double m = (double)rng_scale() * (double)rng_scale() /
                     (double)rng_scale() * (w == 2 ? 1e-3 : 1.0);
    for (i = 0; i < count(r, d1); ++i) {
      x1[i] = (int16_t)rng_int(lo, hi);
      x1b[i] = (int8_t)rng_int(-128, 127);
    }
    for (i = 0; i < count(r, d2); ++i) {
      x2[i] = (int16_t)rng_int(lo, hi);
      x2b[i] = (int8_t)rng_int(-128, 127);
    }
    p.input1_offset = w == 1 ? rng_int(-127, 128) : 0;
    p.input2_offset = w == 1 ? rng_int(-127, 128) : 0;
    p.output_offset = w == 1 ? rng_int(-128, 127) : 0;
    ref_qm(m, &p.multiplier, &p.shift);
    p.act_min = lo + rng_int(0, 20);
    p.act_max = hi - rng_int(0, 20);
    if (w == 1)
      tflc_mul_q(&p, 1, r, d1, x1b, d2, x2b, d0, yb);
    else
      tflc_mul_q(&p, 2, r, d1, x1, d2, x2, d0, y);
    for (i = 0; i < n; ++i) {
      const size_t i1 = ref_bidx(r, d0, d1, i), i2 = ref_bidx(r, d0, d2, i);
      const int32_t a = p.input1_offset + (w == 1 ? x1b[i1] : x1[i1]);
      const int32_t b = p.input2_offset + (w == 1 ? x2b[i2] : x2[i2]);
      const int32_t e = clampi((int64_t)p.output_offset +
                                   ref_mbqm(a * b, p.multiplier, p.shift),
                               p.act_min, p.act_max);
      EXPECT_EQ(w == 1 ? yb[i] : y[i], e);
    }
  }
  sweep_done();
}

/* ---- ADD int16 / SUB --------------------------------------------------------
 */

static void test_sub_prepare_float(void) {
  /* SUB derives its multipliers in float32: find scales where that differs
   * from the double derivation ADD uses, and check SUB follows float. */
  int it, found = 0;
  for (it = 0; it < 20000 && found < 5; ++it) {
    const float s1 = rng_scale(), s2 = rng_scale(), so = rng_scale();
    const float tw = 2 * (s1 < s2 ? s2 : s1);
    const double mo_f = (double)(tw / ((float)(1 << 20) * so));
    const double mo_d = (double)tw / ((double)(1 << 20) * (double)so);
    int32_t qf, sf, qd, sd;
    tflc_add_params p;
    ref_qm(mo_f, &qf, &sf);
    ref_qm(mo_d, &qd, &sd);
    if (qf == qd)
      continue;
    ++found;
    CHECK(tflc_sub_prepare(s1, 0, s2, 0, so, 0, 0, 1, &p));
    CHECK_EQ_INT(p.output_multiplier, qf);
    CHECK_EQ_INT(p.output_shift, sf);
    CHECK_EQ_INT(p.left_shift, 20);
  }
  CHECK(found > 0);
  {
    /* a multiplier of 1 or more is refused (TFLM's CHECK) */
    tflc_add_params p;
    CHECK(!tflc_sub_prepare(0.5f, 0, 0.5f, 0, 1e-7f, 0, 0, 1, &p));
    CHECK(!tflc_add_prepare_s16(0.5f, 0, 0.5f, 0, 1e-6f, 0, 0, &p));
  }
}

static void test_sub_hand(void) {
  /* equal scales s: m1 = m2 = 1/2 (q 2^30, shift 0), mo = 2s/(2^20 s) =
   * 2^-19 (q 2^30, shift -18). (x1 - x2) * 2^20 / 2 / 2^19 = x1 - x2. */
  tflc_add_params p;
  const int32_t d[1] = {4};
  const int8_t a[4] = {10, -10, 100, -100}, b[4] = {3, 3, -100, 100};
  int8_t y[4];
  CHECK(tflc_sub_prepare(0.1f, 0, 0.1f, 0, 0.1f, 0, 0, 1, &p));
  CHECK_EQ_INT(p.input1_multiplier, 1 << 30);
  CHECK_EQ_INT(p.input1_shift, 0);
  CHECK_EQ_INT(p.output_multiplier, 1 << 30);
  CHECK_EQ_INT(p.output_shift, -18);
  tflc_add_sub_q(&p, 1, 1, 1, d, a, d, b, d, y);
  CHECK_EQ_INT(y[0], 7);
  CHECK_EQ_INT(y[1], -13);
  CHECK_EQ_INT(y[2], 127);
  CHECK_EQ_INT(y[3], -128);
  /* same parameters, add */
  tflc_add_sub_q(&p, 0, 1, 1, d, a, d, b, d, y);
  CHECK_EQ_INT(y[0], 13);
  CHECK_EQ_INT(y[1], -7);
  CHECK_EQ_INT(y[2], 0);
}

static void test_addsub_vs_reference(void) {
  int it;
  for (it = 0; it < 300; ++it) {
    const int r = rng_int(1, 5), w = rng_int(1, 2), sub = rng_int(0, 1);
    int32_t d0[6], d1[6], d2[6];
    const size_t n = rand_shapes(r, d0, d1, d2);
    int16_t x1[1024], x2[1024], y[1024];
    const int32_t lo = w == 1 ? -128 : -32768, hi = w == 1 ? 127 : 32767;
    const float s1 = rng_scale(), s2 = rng_scale(), so = rng_scale();
    const int32_t z1 = w == 1 ? rng_int(-128, 127) : 0,
                  z2 = w == 1 ? rng_int(-128, 127) : 0,
                  zo = w == 1 ? rng_int(-128, 127) : 0;
    const int act = rng_int(0, 3);
    int8_t x1b[1024], x2b[1024], yb[1024];
    int32_t q1, sh1, q2, sh2, qo, sho, alo, ahi;
    const int32_t ls = w == 1 ? 20 : 15;
    tflc_add_params p;
    size_t i;
    int ok;
    /* reference multipliers: SUB in float, int16 ADD in double */
    if (sub) {
      const float tw = 2 * (s1 < s2 ? s2 : s1);
      ref_qm((double)(s1 / tw), &q1, &sh1);
      ref_qm((double)(s2 / tw), &q2, &sh2);
      ref_qm((double)(tw / ((float)(1 << ls) * so)), &qo, &sho);
      ok = tflc_sub_prepare(s1, z1, s2, z2, so, zo, act, w, &p);
    } else {
      const double tw = 2 * (double)(s1 < s2 ? s2 : s1);
      if (w == 1)
        continue; /* int8 ADD is the built-in kernel */
      ref_qm((double)s1 / tw, &q1, &sh1);
      ref_qm((double)s2 / tw, &q2, &sh2);
      ref_qm(tw / ((double)(1 << ls) * (double)so), &qo, &sho);
      ok = tflc_add_prepare_s16(s1, z1, s2, z2, so, zo, act, &p);
    }
    EXPECT(ok);
    EXPECT_EQ(p.input1_multiplier, q1);
    EXPECT_EQ(p.input1_shift, sh1);
    EXPECT_EQ(p.input2_multiplier, q2);
    EXPECT_EQ(p.input2_shift, sh2);
    EXPECT_EQ(p.output_multiplier, qo);
    EXPECT_EQ(p.output_shift, sho);
    tflc_activation_range_quantized(act, so, zo, lo, hi, &alo, &ahi);
    EXPECT_EQ(p.act_min, alo);
    EXPECT_EQ(p.act_max, ahi);
    for (i = 0; i < count(r, d1); ++i) {
      x1[i] = (int16_t)rng_int(lo, hi);
      x1b[i] = (int8_t)rng_int(-128, 127);
    }
    for (i = 0; i < count(r, d2); ++i) {
      x2[i] = (int16_t)rng_int(lo, hi);
      x2b[i] = (int8_t)rng_int(-128, 127);
    }
    if (w == 1)
      tflc_add_sub_q(&p, sub, 1, r, d1, x1b, d2, x2b, d0, yb);
    else
      tflc_add_sub_q(&p, sub, 2, r, d1, x1, d2, x2, d0, y);
    for (i = 0; i < n; ++i) {
      const size_t i1 = ref_bidx(r, d0, d1, i), i2 = ref_bidx(r, d0, d2, i);
      const int32_t a =
          ref_mbqm(((w == 1 ? x1b[i1] : x1[i1]) - z1) * (1 << ls), q1, sh1);
      const int32_t b =
          ref_mbqm(((w == 1 ? x2b[i2] : x2[i2]) - z2) * (1 << ls), q2, sh2);
      const int32_t e = clampi(
          (int64_t)ref_mbqm(sub ? a - b : a + b, qo, sho) + zo, alo, ahi);
      EXPECT_EQ(w == 1 ? yb[i] : y[i], e);
    }
  }
  sweep_done();
}

/* conformance SUB/i8_7_3x7_bcast_rank_none_zp127 (TFLM outputs) */
static void test_sub_tflm(void) {
  static const int8_t want[21] = {-78,  81,  37,  -59, 59,  -20, -77,
                                  -121, 101, -51, 34,  -9,  -57, -91,
                                  -30,  -35, -2,  116, -68, 102, -1};
  uint8_t a[7], b[21];
  int8_t y[21];
  const int32_t d1[2] = {1, 7}, d2[2] = {3, 7}, d0[2] = {3, 7};
  tflc_add_params p;
  conformance_bytes(1691743u, 0, a, 7);
  conformance_bytes(1691743u, 1, b, 21);
  CHECK(tflc_sub_prepare(0.0386121906f, 127, 0.0689250603f, 79, 0.0891689137f,
                         -6, 0, 1, &p));
  tflc_add_sub_q(&p, 1, 1, 2, d1, a, d2, b, d0, y);
  CHECK_EQ_MEM(y, want, 21);
}

/* ---- LOGISTIC / TANH --------------------------------------------------------
 */

static void test_sigmoid_hand(void) {
  /* x == zero point -> logistic 1/2 -> 2^30 / 2^23 - 128 = 0; tanh 0.
   * Beyond the radius the outputs saturate. scale 1/16: real = 2^23 ->
   * mantissa 1/2, shift 24, radius floor(15 * 2^27 / 2^24) = 120. */
  tflc_sigmoid_params p;
  int8_t in[5] = {5, -128, 127, 6, 4}, y[5];
  tflc_sigmoid_prepare_s8(1.0f / 16.0f, 5, &p);
  CHECK_EQ_INT(p.multiplier, 1 << 30);
  CHECK_EQ_INT(p.shift, 24);
  CHECK_EQ_INT(p.radius, 120);
  tflc_logistic_s8(&p, 5, in, y);
  CHECK_EQ_INT(y[0], 0);
  CHECK_EQ_INT(y[1], -128); /* -133 <= -120 */
  CHECK_EQ_INT(y[2], 127);  /* 122 >= 120 */
  /* x = +-1/16: logistic = 0.5 +- 0.015623 -> 256 * that - 128 = +-4 */
  CHECK_EQ_INT(y[3], 4);
  CHECK_EQ_INT(y[4], -4);
  tflc_tanh_s8(&p, 5, in, y);
  CHECK_EQ_INT(y[0], 0);
  CHECK_EQ_INT(y[1], -128);
  CHECK_EQ_INT(y[2], 127);
  /* tanh(1/16) * 128 = 7.99 -> 8 */
  CHECK_EQ_INT(y[3], 8);
  CHECK_EQ_INT(y[4], -8);
}

static void test_sigmoid_vs_float(void) {
  /* every int8 input at random scales: within 1 LSB of the float value */
  int it, x;
  for (it = 0; it < 200; ++it) {
    const float s = rng_scale() * 4.0f;
    const int32_t zp = rng_int(-128, 127);
    int8_t in[256], yl[256], yt[256];
    tflc_sigmoid_params p;
    for (x = 0; x < 256; ++x)
      in[x] = (int8_t)(x - 128);
    tflc_sigmoid_prepare_s8(s, zp, &p);
    tflc_logistic_s8(&p, 256, in, yl);
    tflc_tanh_s8(&p, 256, in, yt);
    for (x = 0; x < 256; ++x) {
      const double v = (double)s * (double)(in[x] - zp);
      const double l = 256.0 / (1.0 + exp(-v)) - 128.0;
      const double t = 128.0 * tanh(v);
      EXPECT(fabs((double)yl[x] - (l > 127.0 ? 127.0 : l)) <= 1.0);
      EXPECT(fabs((double)yt[x] - (t > 127.0 ? 127.0 : t)) <= 1.0);
    }
  }
  sweep_done();
}

/* conformance LOGISTIC/i8_1x40 and TANH/i8_1x40 (TFLM outputs) */
static void test_sigmoid_tflm(void) {
  static const int8_t want_l[40] = {
      -46, -48, 54,  59, -29, 5,   91,  -42, 26, 92,  -51, -39, 7,  33,
      51,  10,  -14, 30, 60,  82,  79,  -37, 12, -3,  -42, 77,  62, -35,
      21,  -14, 6,   23, 40,  -23, -15, 54,  69, -40, 38,  0};
  static const int8_t want_t[40] = {
      41, 45, 15, -2,  -12, 61,  21,  62, 59, 78, -2, 57,  72, 44,
      -4, 73, 56, 58,  -29, 19,  57,  73, 38, 9,  77, -27, 76, 45,
      15, 67, -1, -11, 66,  -10, -22, 28, 78, 65, -4, 70};
  uint8_t in[40];
  int8_t y[40];
  tflc_sigmoid_params p;
  conformance_bytes(1328810u, 0, in, 40);
  tflc_sigmoid_prepare_s8(0.0108772228f, -49, &p);
  tflc_logistic_s8(&p, 40, (const int8_t *)in, y);
  CHECK_EQ_MEM(y, want_l, 40);
  conformance_bytes(1634150u, 0, in, 40);
  tflc_sigmoid_prepare_s8(0.00381134055f, -60, &p);
  tflc_tanh_s8(&p, 40, (const int8_t *)in, y);
  CHECK_EQ_MEM(y, want_t, 40);
}

/* ---- RELU / RELU6 / LEAKY_RELU / PRELU -------------------------------------
 */

static void test_relu_hand(void) {
  /* RELU: in (0.5, zp 10) -> out (0.25, zp -20): m = 2 (q 2^30, shift 2);
   * x = 13 -> -20 + 2*3 = -14; x = 7 -> -20 - 6 = -26 -> clamped to -20. */
  tflc_relu_params p;
  const int8_t in[4] = {13, 7, 127, -128};
  int8_t y[4];
  memset(&p, 0, sizeof p);
  p.input_zp = 10;
  p.output_zp = -20;
  tflc_quantize_multiplier(2.0, &p.multiplier, &p.shift);
  p.lo = -20;
  p.hi = 127;
  tflc_relu_q(&p, 1, 4, in, y);
  CHECK_EQ_INT(y[0], -14);
  CHECK_EQ_INT(y[1], -20);
  CHECK_EQ_INT(y[2], 127); /* -20 + 234 */
  CHECK_EQ_INT(y[3], -20);
  /* RELU6 as a plain clamp to [zp, zp + 6/s]: s 0.1, zp 3 -> [3, 63] */
  p.clamp_only = 1;
  p.lo = 3;
  p.hi = 63;
  tflc_relu_q(&p, 1, 4, in, y);
  CHECK_EQ_INT(y[0], 13);
  CHECK_EQ_INT(y[1], 7);
  CHECK_EQ_INT(y[2], 63);
  CHECK_EQ_INT(y[3], 3);
}

static void test_leaky_relu(void) {
  /* s_in = s_out = 1/8, alpha 0.25 (exact in float): identity m = 1,
   * alpha m = 0.25. x - zp = -8 -> -2; 9 -> 9. */
  tflc_leaky_relu_params p;
  const int8_t in[4] = {-8, 9, -7, -128};
  int8_t y[4];
  int it, i;
  tflc_leaky_relu_prepare(0.125f, 0, 0.125f, 1, 0.25f, &p);
  tflc_leaky_relu_q(&p, 1, 4, in, y);
  CHECK_EQ_INT(y[0], -1);  /* 1 - 2 */
  CHECK_EQ_INT(y[1], 10);  /* 1 + 9 */
  CHECK_EQ_INT(y[2], -1);  /* 1 + round(-1.75) = 1 - 2 */
  CHECK_EQ_INT(y[3], -31); /* 1 - 32 */
  /* negative alpha: -0.5 -> x < 0 gives positive outputs */
  tflc_leaky_relu_prepare(0.125f, 0, 0.125f, 0, -0.5f, &p);
  CHECK(p.mult_alpha < 0);
  tflc_leaky_relu_q(&p, 1, 4, in, y);
  CHECK_EQ_INT(y[0], 4);
  CHECK_EQ_INT(y[3], 64);
  /* random, against the reference formula with float-derived multipliers */
  for (it = 0; it < 200; ++it) {
    const float si = rng_scale(), so = rng_scale();
    const float alpha = (float)rng_int(-400, 400) / 200.0f;
    const int32_t zi = rng_int(-128, 127), zo = rng_int(-128, 127);
    int32_t qa, sa, qi, sid;
    int16_t x16[64], y16[64];
    int8_t x8[64], y8[64];
    ref_qm((double)(si * alpha / so), &qa, &sa);
    ref_qm((double)(si / so), &qi, &sid);
    tflc_leaky_relu_prepare(si, zi, so, zo, alpha, &p);
    for (i = 0; i < 64; ++i) {
      x8[i] = (int8_t)rng_int(-128, 127);
      x16[i] = (int16_t)rng_int(-32768, 32767);
    }
    tflc_leaky_relu_q(&p, 1, 64, x8, y8);
    tflc_leaky_relu_q(&p, 2, 64, x16, y16);
    for (i = 0; i < 64; ++i) {
      int w;
      for (w = 1; w <= 2; ++w) {
        const int32_t v = (w == 1 ? x8[i] : x16[i]) - zi;
        int64_t e;
        if (v >= 0)
          e = (int64_t)zo + ref_mbqm(v, qi, sid);
        else if (qa < 0)
          e = (int64_t)zo - ref_mbqm(v, -qa, sa);
        else
          e = (int64_t)zo + ref_mbqm(v, qa, sa);
        EXPECT_EQ(w == 1 ? y8[i] : y16[i],
                  clampi(e, w == 1 ? -128 : -32768, w == 1 ? 127 : 32767));
      }
    }
  }
  sweep_done();
}

static void test_prelu(void) {
  /* in s 0.5 zp 0, alpha s 1/128 zp 0, out s 0.5 zp 0: m1 = 1,
   * m2 = 1/128. x = -10, alpha 64 (= 0.5) -> -640/128 = -5. */
  tflc_prelu_params p;
  const int32_t di[2] = {2, 2}, da[2] = {1, 2}, d0[2] = {2, 2};
  const int8_t in[4] = {-10, -10, 7, -128}, al[2] = {64, -128};
  int8_t y[4];
  int it;
  size_t i;
  memset(&p, 0, sizeof p);
  tflc_quantize_multiplier(1.0, &p.mult1, &p.shift1);
  tflc_quantize_multiplier(1.0 / 128.0, &p.mult2, &p.shift2);
  tflc_prelu_q(&p, 1, 1, 2, di, in, da, al, d0, y);
  CHECK_EQ_INT(y[0], -5);
  CHECK_EQ_INT(y[1], 10); /* -10 * -1 */
  CHECK_EQ_INT(y[2], 7);
  CHECK_EQ_INT(y[3], 127); /* -128 * -1 = 128, clamped */
  for (it = 0; it < 200; ++it) {
    const int r = rng_int(1, 4);
    int32_t e0[6], e1[6], e2[6];
    const size_t n = rand_shapes(r, e0, e1, e2);
    int8_t x[256], a[256], out[256];
    p.input_offset = rng_int(-127, 128);
    p.alpha_offset = rng_int(-127, 128);
    p.output_offset = rng_int(-128, 127);
    ref_qm((double)rng_scale() * 4, &p.mult1, &p.shift1);
    ref_qm((double)rng_scale() * (double)rng_scale(), &p.mult2, &p.shift2);
    for (i = 0; i < count(r, e1); ++i)
      x[i] = (int8_t)rng_int(-128, 127);
    for (i = 0; i < count(r, e2); ++i)
      a[i] = (int8_t)rng_int(-128, 127);
    tflc_prelu_q(&p, 1, 1, r, e1, x, e2, a, e0, out);
    for (i = 0; i < n; ++i) {
      const int32_t v = p.input_offset + x[ref_bidx(r, e0, e1, i)];
      const int32_t al2 = p.alpha_offset + a[ref_bidx(r, e0, e2, i)];
      const int32_t e = v >= 0 ? ref_mbqm(v, p.mult1, p.shift1)
                               : ref_mbqm(v * al2, p.mult2, p.shift2);
      EXPECT_EQ(out[i], clampi((int64_t)e + p.output_offset, -128, 127));
    }
  }
  sweep_done();
}

/* ---- HARD_SWISH ------------------------------------------------------------
 */

static void test_hard_swish(void) {
  /* conformance HARD_SWISH/i8_1x40 (TFLM outputs) */
  static const int8_t want[40] = {-98,  -128, -55, 41,   127,  -128, -77,  73,
                                  127,  -45,  -70, -128, 127,  -113, 39,   58,
                                  127,  -13,  16,  66,   -43,  127,  -31,  -128,
                                  -128, -128, 6,   -128, -3,   122,  -128, -128,
                                  -13,  -40,  10,  122,  -106, -128, -128, -54};
  uint8_t in[40];
  int8_t y[256], x[256];
  tflc_hard_swish_params p;
  int it, i;
  conformance_bytes(1789910u, 0, in, 40);
  CHECK(
      tflc_hard_swish_prepare_s8(0.0165639538f, -23, 0.00807516091f, -95, &p));
  tflc_hard_swish_s8(&p, 40, (const int8_t *)in, y);
  CHECK_EQ_MEM(y, want, 40);
  /* an output scale below in_scale / 128 is refused */
  CHECK(!tflc_hard_swish_prepare_s8(0.5f, 0, 0.001f, 0, &p));
  /* against float hard-swish within 1 LSB (+ rounding of the int16 path) */
  for (i = 0; i < 256; ++i)
    x[i] = (int8_t)(i - 128);
  for (it = 0; it < 100; ++it) {
    const float si = rng_scale() * 0.2f, so = rng_scale() * 0.2f;
    const int32_t zi = rng_int(-128, 127), zo = rng_int(-128, 127);
    if (!tflc_hard_swish_prepare_s8(si, zi, so, zo, &p))
      continue;
    tflc_hard_swish_s8(&p, 256, x, y);
    for (i = 0; i < 256; ++i) {
      const double v = (double)si * (double)(x[i] - zi);
      const double r = v + 3.0 < 0.0 ? 0.0 : v + 3.0 > 6.0 ? 6.0 : v + 3.0;
      double e = v * r / 6.0 / (double)so + (double)zo;
      e = e < -128.0 ? -128.0 : e > 127.0 ? 127.0 : e;
      EXPECT(fabs((double)y[i] - e) <= 1.5);
    }
  }
  sweep_done();
}

/* ---- L2_NORMALIZATION ---------------------------------------------------- */

static void test_l2norm(void) {
  /* conformance L2_NORMALIZATION/i8_1x16 (TFLM outputs) */
  static const int8_t want[16] = {23, 62, 15, 14,  36, 27, 18, -22,
                                  29, 54, 47, -21, -8, 3,  48, 0};
  uint8_t in[16];
  int8_t y[600], x[600];
  int it, i;
  conformance_bytes(1371520u, 0, in, 16);
  tflc_l2_normalization_s8(-45, 1, 16, (const int8_t *)in, y);
  CHECK_EQ_MEM(y, want, 16);
  {
    /* [3, 4] -> [0.6, 0.8] * 128 = [76.8, 102.4]; zero row stays 0 */
    const int8_t h[4] = {3, 4, 0, 0};
    tflc_l2_normalization_s8(0, 2, 2, h, y);
    CHECK(y[0] == 76 || y[0] == 77);
    CHECK(y[1] == 102 || y[1] == 103);
    CHECK_EQ_INT(y[2], 0);
    CHECK_EQ_INT(y[3], 0);
  }
  /* against float within 1 LSB */
  for (it = 0; it < 200; ++it) {
    const int32_t depth = rng_int(1, 600), zp = rng_int(-128, 127);
    double ss = 0.0;
    for (i = 0; i < depth; ++i) {
      x[i] = (int8_t)rng_int(-128, 127);
      ss += (double)(x[i] - zp) * (double)(x[i] - zp);
    }
    tflc_l2_normalization_s8(zp, 1, depth, x, y);
    for (i = 0; i < depth; ++i) {
      double e = ss > 1.0 ? 128.0 * (double)(x[i] - zp) / sqrt(ss)
                          : 128.0 * (double)(x[i] - zp);
      e = e < -128.0 ? -128.0 : e > 127.0 ? 127.0 : e;
      EXPECT(fabs((double)y[i] - e) <= 1.0);
    }
  }
  sweep_done();
}

/* ---- LOG_SOFTMAX ------------------------------------------------------------
 */

static void test_log_softmax(void) {
  /* conformance LOG_SOFTMAX/i8_1x10 (TFLM outputs) */
  static const int8_t want[10] = {79, 77, 107, 84, 50, 96, 64, 108, 85, 46};
  uint8_t in[10];
  int8_t y[300], x[300];
  tflc_log_softmax_params p;
  int it, i;
  conformance_bytes(1083710u, 0, in, 10);
  tflc_log_softmax_prepare_s8(0.0159785319f, &p);
  CHECK(p.reverse_shift <= 0);
  tflc_log_softmax_s8(&p, 1, 10, (const int8_t *)in, y);
  CHECK_EQ_MEM(y, want, 10);
  /* one element: log(1) = 0 -> 127 */
  x[0] = -7;
  tflc_log_softmax_s8(&p, 1, 1, x, y);
  CHECK_EQ_INT(y[0], 127);
  /* against float log-softmax (out scale 1/16, zp 127) within 1 LSB */
  for (it = 0; it < 200; ++it) {
    const float s = rng_scale();
    const int32_t depth = rng_int(1, 300);
    double mx = -1e30, sum = 0.0;
    tflc_log_softmax_prepare_s8(s, &p);
    for (i = 0; i < depth; ++i) {
      x[i] = (int8_t)rng_int(-128, 127);
      if ((double)x[i] > mx)
        mx = (double)x[i];
    }
    for (i = 0; i < depth; ++i)
      sum += exp((double)s * ((double)x[i] - mx));
    tflc_log_softmax_s8(&p, 1, depth, x, y);
    for (i = 0; i < depth; ++i) {
      double e = 16.0 * ((double)s * ((double)x[i] - mx) - log(sum)) + 127.0;
      e = e < -128.0 ? -128.0 : e;
      EXPECT(fabs((double)y[i] - e) <= 1.0);
    }
  }
  sweep_done();
}

/* ---- MAXIMUM / MINIMUM, comparisons ----------------------------------------
 */

static void test_maxmin(void) {
  const int32_t d1[2] = {2, 1}, d2[2] = {1, 3}, d0[2] = {2, 3};
  const int8_t a[2] = {0, -5};
  const int8_t b[3] = {-1, 0, 7};
  const float fa[2] = {0.5f, -2.0f}, fb[3] = {-1.0f, 0.5f, 3.0f};
  int8_t y[6];
  float fy[6];
  tflc_maximum_minimum(TFLC_INT8, 1, 2, d1, a, d2, b, d0, y);
  CHECK_EQ_INT(y[0], 0);
  CHECK_EQ_INT(y[1], 0);
  CHECK_EQ_INT(y[2], 7);
  CHECK_EQ_INT(y[3], -1);
  CHECK_EQ_INT(y[5], 7);
  tflc_maximum_minimum(TFLC_INT8, 0, 2, d1, a, d2, b, d0, y);
  CHECK_EQ_INT(y[0], -1);
  CHECK_EQ_INT(y[2], 0);
  CHECK_EQ_INT(y[3], -5);
  CHECK_EQ_INT(y[5], -5);
  tflc_maximum_minimum(TFLC_FLOAT32, 1, 2, d1, fa, d2, fb, d0, fy);
  CHECK(fy[0] == 0.5f && fy[2] == 3.0f && fy[3] == -1.0f);
}

static void test_compare(void) {
  /* int8 with different scales: 10 at 0.1 (1.0) vs 4 at 0.25 (1.0) are
   * equal; 11 at 0.1 is greater. Both scales are < 1 multipliers. */
  tflc_cmp_params p;
  const int32_t d[1] = {3};
  const int8_t a[3] = {10, 11, 9}, b[3] = {4, 4, 4};
  const float fa[3] = {1.0f, 2.0f, -1.0f}, fb[3] = {1.0f, 1.0f, 0.0f};
  uint8_t y[3];
  int k, it;
  p.input1_offset = 0;
  p.input2_offset = 0;
  tflc_quantize_multiplier(0.1, &p.mult1, &p.shift1);
  tflc_quantize_multiplier(0.25, &p.mult2, &p.shift2);
  tflc_compare(TFLC_INT8, TFLC_CMP_EQUAL, &p, 1, d, a, d, b, d, y);
  CHECK(y[0] == 1 && y[1] == 0 && y[2] == 0);
  tflc_compare(TFLC_INT8, TFLC_CMP_GREATER, &p, 1, d, a, d, b, d, y);
  CHECK(y[0] == 0 && y[1] == 1 && y[2] == 0);
  tflc_compare(TFLC_INT8, TFLC_CMP_LESS_EQUAL, &p, 1, d, a, d, b, d, y);
  CHECK(y[0] == 1 && y[1] == 0 && y[2] == 1);
  tflc_compare(TFLC_FLOAT32, TFLC_CMP_NOT_EQUAL, NULL, 1, d, fa, d, fb, d, y);
  CHECK(y[0] == 0 && y[1] == 1 && y[2] == 1);
  tflc_compare(TFLC_FLOAT32, TFLC_CMP_GREATER_EQUAL, NULL, 1, d, fa, d, fb, d,
               y);
  CHECK(y[0] == 1 && y[1] == 1 && y[2] == 0);
  /* random against the reference rescaling (left shift 8) */
  for (it = 0; it < 200; ++it) {
    const int r = rng_int(1, 4);
    int32_t e0[6], e1[6], e2[6];
    const size_t n = rand_shapes(r, e0, e1, e2);
    int8_t x1[256], x2[256];
    uint8_t out[256];
    size_t i;
    p.input1_offset = rng_int(-127, 128);
    p.input2_offset = rng_int(-127, 128);
    ref_qm((double)rng_scale(), &p.mult1, &p.shift1);
    ref_qm((double)rng_scale(), &p.mult2, &p.shift2);
    for (i = 0; i < count(r, e1); ++i)
      x1[i] = (int8_t)rng_int(-128, 127);
    for (i = 0; i < count(r, e2); ++i)
      x2[i] = (int8_t)rng_int(-128, 127);
    for (k = 0; k < 6; ++k) {
      tflc_compare(TFLC_INT8, k, &p, r, e1, x1, e2, x2, e0, out);
      for (i = 0; i < n; ++i) {
        const int32_t u =
            ref_mbqm((p.input1_offset + x1[ref_bidx(r, e0, e1, i)]) * 256,
                     p.mult1, p.shift1);
        const int32_t v =
            ref_mbqm((p.input2_offset + x2[ref_bidx(r, e0, e2, i)]) * 256,
                     p.mult2, p.shift2);
        const int e = k == TFLC_CMP_EQUAL        ? u == v
                      : k == TFLC_CMP_NOT_EQUAL  ? u != v
                      : k == TFLC_CMP_LESS       ? u < v
                      : k == TFLC_CMP_LESS_EQUAL ? u <= v
                      : k == TFLC_CMP_GREATER    ? u > v
                                                 : u >= v;
        EXPECT_EQ(out[i], e);
      }
    }
  }
  sweep_done();
}

/* ---- SUM, ARG_MAX / ARG_MIN
 * -------------------------------------------------- */

static void test_sum(void) {
  /* [2,3] over axis 1, q = 1 (2^30, shift 1), zi 1, zo -2:
   * row 0: 1+2+3 - 3 = 3 -> 1; row 1: -4-5-6 - 3 = -18 -> -20 */
  tflc_mean_params p;
  const int32_t dims[2] = {2, 3};
  const int8_t in[6] = {1, 2, 3, -4, -5, -6};
  int8_t y[3];
  float fy[3];
  const float fin[6] = {1.0f, 2.0f, 3.0f, 0.5f, 0.25f, 0.125f};
  int it;
  tflc_quantize_multiplier(1.0, &p.multiplier, &p.shift);
  p.input_zp = 1;
  p.output_zp = -2;
  tflc_sum_q(&p, 1, 2, dims, 2u, in, y);
  CHECK_EQ_INT(y[0], 1);
  CHECK_EQ_INT(y[1], -20);
  /* over axis 0: 1-4-2 = -5 -> -7; 2-5-2 -> -7; 3-6-2 -> -7 */
  tflc_sum_q(&p, 1, 2, dims, 1u, in, y);
  CHECK_EQ_INT(y[0], -7);
  CHECK_EQ_INT(y[1], -7);
  CHECK_EQ_INT(y[2], -7);
  tflc_sum_f32(2, dims, 2u, fin, fy);
  CHECK(fy[0] == 6.0f && fy[1] == 0.875f);
  /* random against a naive reference */
  for (it = 0; it < 200; ++it) {
    const int r = rng_int(1, 4);
    int32_t d[4], k;
    uint32_t mask = (uint32_t)rng_int(0, (1 << r) - 1);
    int8_t x[256], out[256];
    size_t n = 1, i, nout = 1;
    for (k = 0; k < r; ++k) {
      d[k] = rng_int(1, 4);
      n *= (size_t)d[k];
      if (!(mask & (1u << k)))
        nout *= (size_t)d[k];
    }
    for (i = 0; i < n; ++i)
      x[i] = (int8_t)rng_int(-128, 127);
    ref_qm((double)rng_scale() / (double)rng_scale(), &p.multiplier, &p.shift);
    p.input_zp = rng_int(-128, 127);
    p.output_zp = rng_int(-128, 127);
    tflc_sum_q(&p, 1, r, d, mask, x, out);
    for (i = 0; i < nout; ++i) {
      /* output index i -> kept coordinates; sum over all input elements
       * whose kept coordinates match */
      int32_t s = 0, cnt = 0;
      size_t j;
      for (j = 0; j < n; ++j) {
        size_t rem = j, oi = 0, ost = 1;
        for (k = r - 1; k >= 0; --k) {
          const size_t c = rem % (size_t)d[k];
          rem /= (size_t)d[k];
          if (!(mask & (1u << k))) {
            oi += c * ost;
            ost *= (size_t)d[k];
          }
        }
        if (oi == i) {
          s += x[j];
          ++cnt;
        }
      }
      EXPECT_EQ(out[i], clampi((int64_t)ref_mbqm(s - p.input_zp * cnt,
                                                 p.multiplier, p.shift) +
                                   p.output_zp,
                               -128, 127));
    }
  }
  sweep_done();
}

static void test_arg_minmax(void) {
  /* [2, 3, 2]: axis 1 -> outer 2, size 3, inner 2; ties keep the first */
  const int8_t in[12] = {1,  5, 7,  5, 7,  -1, /* batch 0 */
                         -3, 0, -3, 0, -4, 0};
  const float fin[4] = {0.5f, 2.0f, 2.0f, -1.0f};
  int32_t y[4];
  tflc_arg_min_max(TFLC_INT8, 1, 2, 3, 2, in, y);
  CHECK_EQ_INT(y[0], 1); /* 1, 7, 7 -> first 7 */
  CHECK_EQ_INT(y[1], 0); /* 5, 5, -1 */
  CHECK_EQ_INT(y[2], 0); /* -3, -3, -4 */
  CHECK_EQ_INT(y[3], 0); /* 0, 0, 0 */
  tflc_arg_min_max(TFLC_INT8, 0, 2, 3, 2, in, y);
  CHECK_EQ_INT(y[0], 0);
  CHECK_EQ_INT(y[1], 2);
  CHECK_EQ_INT(y[2], 2);
  CHECK_EQ_INT(y[3], 0);
  tflc_arg_min_max(TFLC_FLOAT32, 1, 1, 4, 1, fin, y);
  CHECK_EQ_INT(y[0], 1);
  tflc_arg_min_max(TFLC_FLOAT32, 0, 1, 4, 1, fin, y);
  CHECK_EQ_INT(y[0], 3);
}

/* ---- requantize
 * -------------------------------------------------------------- */

static void test_requantize(void) {
  /* conformance QUANTIZE/i16_to_i8_3x11 (TFLM outputs) */
  static const int8_t want[33] = {
      -126, -31, -128, -128, 118, -74, 63,   -113, 86,  50,   -25,
      -21,  34,  -3,   55,   58,  32,  -111, -113, 77,  98,   67,
      117,  127, -12,  84,   -27, -71, -84,  -41,  -54, -128, -78};
  uint8_t bytes[66];
  int16_t in16[33];
  int8_t y[33];
  int32_t q, shift, i, it;
  conformance_bytes(1823954u, 0, bytes, 66);
  for (i = 0; i < 33; ++i)
    in16[i] = (int16_t)(uint16_t)(bytes[2 * i] | (bytes[2 * i + 1] << 8));
  tflc_quantize_multiplier((double)2.88889714e-05f / (double)0.00621119933f, &q,
                           &shift);
  tflc_requantize(TFLC_INT16, TFLC_INT8, q, shift, 0, 0, 33, in16, y);
  CHECK_EQ_MEM(y, want, 33);
  {
    /* int8 -> uint8 with scale 1 and zero point +128: XOR 0x80 */
    const int8_t a[3] = {-128, 0, 127};
    uint8_t u[3];
    int8_t back[3];
    tflc_quantize_multiplier(1.0, &q, &shift);
    tflc_requantize(TFLC_INT8, TFLC_UINT8, q, shift, 0, 128, 3, a, u);
    CHECK(u[0] == 0 && u[1] == 128 && u[2] == 255);
    tflc_requantize(TFLC_UINT8, TFLC_INT8, q, shift, 128, 0, 3, u, back);
    CHECK_EQ_MEM(back, a, 3);
    /* int8 -> int32 keeps the full range: (127 - -128) * 1000 */
    {
      int32_t o32[1];
      const int8_t v[1] = {127};
      tflc_quantize_multiplier(1000.0, &q, &shift);
      tflc_requantize(TFLC_INT8, TFLC_INT32, q, shift, -128, 0, 1, v, o32);
      CHECK_EQ_INT(o32[0], 255000);
    }
  }
  /* random int8 -> int16 and int16 -> int16 against the reference */
  for (it = 0; it < 200; ++it) {
    int8_t x8[64];
    int16_t x16[64], o16[64], p16[64];
    const int32_t zi = rng_int(-128, 127), zo = rng_int(-1000, 1000);
    ref_qm((double)rng_scale() / (double)rng_scale() * 100.0, &q, &shift);
    for (i = 0; i < 64; ++i) {
      x8[i] = (int8_t)rng_int(-128, 127);
      x16[i] = (int16_t)rng_int(-32768, 32767);
    }
    tflc_requantize(TFLC_INT8, TFLC_INT16, q, shift, zi, zo, 64, x8, o16);
    tflc_requantize(TFLC_INT16, TFLC_INT16, q, shift, 0, zo, 64, x16, p16);
    for (i = 0; i < 64; ++i) {
      EXPECT_EQ(o16[i], clampi((int64_t)ref_mbqm(x8[i] - zi, q, shift) + zo,
                               -32768, 32767));
      EXPECT_EQ(p16[i], clampi((int64_t)ref_mbqm(x16[i], q, shift) + zo, -32768,
                               32767));
    }
  }
  sweep_done();
  {
    float f[2];
    const uint8_t u[2] = {0, 200};
    tflc_dequantize_u8_f32(0.5f, 128, 2, u, f);
    CHECK(f[0] == -64.0f && f[1] == 36.0f);
  }
}

/* ---- through the interpreter (glue): float paths, routing, refusals ------ */

static char g_err[TFLC_ERROR_LEN];

/* One operator with inputs in[0..nin) and one output; non-constant inputs
 * are fed from `feed` (in order). Returns the first failure (writer, model
 * init, interpreter init, invoke; its message in g_err) or TFLC_OK; the
 * output bytes go to `out`. */
static tflc_status run_op(int32_t code, uint8_t opt_type, int32_t nopts,
                          const tflc_w_option *opts, int32_t nin,
                          const tensor_spec *in, const tensor_spec *out_spec,
                          const void *const *feed, void *out) {
  static op_spec s;
  void *outs[1];
  op_result r;
  s = op_spec_of(code, opt_type);
  s.nopts = nopts;
  if (nopts)
    memcpy(s.opts, opts, sizeof *opts * (size_t)nopts);
  s.nin = nin;
  memcpy(s.in, in, sizeof *in * (size_t)nin);
  s.nout = 1;
  s.out[0] = *out_spec;
  outs[0] = out;
  r = run_op_model(&s, feed, outs);
  memcpy(g_err, r.err, sizeof g_err);
  return op_result_status(&r);
}

/* [d0, d1], or [d1] when d0 is 0; scale 0: not quantized. */
static tensor_spec small_tensor(int type, int32_t d0, int32_t d1, float scale,
                                int64_t zp) {
  const int32_t d[2] = {d0 ? d0 : d1, d1};
  return tensor_quant(tensor_shape(type, d0 ? 2 : 1, d), scale, zp);
}

static void test_graph_float(void) {
  const float a[6] = {-2.0f, -0.5f, 0.0f, 0.5f, 3.0f, 8.0f};
  const float b[3] = {2.0f, -1.0f, 0.25f};
  const void *feed[2];
  float y[6];
  tensor_spec in[2], o;
  tflc_w_option opt;
  int i;
  memset(&opt, 0, sizeof opt);
  /* MUL [2,3] x [3], fused RELU */
  in[0] = small_tensor(TFLC_FLOAT32, 2, 3, 0, 0);
  in[1] = small_tensor(TFLC_FLOAT32, 0, 3, 0, 0);
  o = small_tensor(TFLC_FLOAT32, 2, 3, 0, 0);
  feed[0] = a;
  feed[1] = b;
  opt.slot = 0;
  opt.kind = TFLC_W_U8;
  opt.i = 1; /* RELU */
  CHECK_EQ_INT(run_op(18, 21, 1, &opt, 2, in, &o, feed, y), TFLC_OK);
  CHECK(y[0] == 0.0f && y[1] == 0.5f && y[2] == 0.0f && y[3] == 1.0f &&
        y[4] == 0.0f && y[5] == 2.0f);
  /* SUB, no activation */
  opt.i = 0;
  CHECK_EQ_INT(run_op(41, 28, 1, &opt, 2, in, &o, feed, y), TFLC_OK);
  CHECK(y[0] == -4.0f && y[1] == 0.5f && y[2] == -0.25f && y[3] == -1.5f &&
        y[4] == 4.0f && y[5] == 7.75f);
  /* PRELU with alpha [3] */
  CHECK_EQ_INT(run_op(54, 0, 0, NULL, 2, in, &o, feed, y), TFLC_OK);
  CHECK(y[0] == -4.0f && y[1] == 0.5f && y[2] == 0.0f && y[3] == 0.5f &&
        y[4] == 3.0f && y[5] == 8.0f);
  /* unary ones on [6] */
  in[0] = small_tensor(TFLC_FLOAT32, 0, 6, 0, 0);
  o = small_tensor(TFLC_FLOAT32, 0, 6, 0, 0);
  CHECK_EQ_INT(run_op(19, 0, 0, NULL, 1, in, &o, feed, y), TFLC_OK); /* RELU */
  CHECK(y[0] == 0.0f && y[3] == 0.5f && y[5] == 8.0f);
  CHECK_EQ_INT(run_op(21, 0, 0, NULL, 1, in, &o, feed, y), TFLC_OK); /* RELU6 */
  CHECK(y[0] == 0.0f && y[4] == 3.0f && y[5] == 6.0f);
  opt.kind = TFLC_W_F32;
  opt.f = 0.5f;
  CHECK_EQ_INT(run_op(98, 75, 1, &opt, 1, in, &o, feed, y), TFLC_OK);
  CHECK(y[0] == -1.0f && y[1] == -0.25f && y[5] == 8.0f);
  CHECK_EQ_INT(run_op(117, 0, 0, NULL, 1, in, &o, feed, y), TFLC_OK);
  /* hard swish: -2 * 1 / 6, 0.5 * 3.5 / 6, 8 * 6 / 6 */
  CHECK(fabsf(y[0] - (-2.0f / 6.0f)) < 1e-6f && y[5] == 8.0f &&
        fabsf(y[3] - 0.5f * 3.5f / 6.0f) < 1e-6f);
  CHECK_EQ_INT(run_op(14, 0, 0, NULL, 1, in, &o, feed, y), TFLC_OK);
  for (i = 0; i < 6; ++i)
    CHECK(fabs((double)y[i] - 1.0 / (1.0 + exp(-(double)a[i]))) < 1e-6);
  CHECK_EQ_INT(run_op(28, 0, 0, NULL, 1, in, &o, feed, y), TFLC_OK);
  for (i = 0; i < 6; ++i)
    CHECK(fabs((double)y[i] - tanh((double)a[i])) < 1e-6);
  /* L2 and LOG_SOFTMAX over rows of [2,3] */
  in[0] = small_tensor(TFLC_FLOAT32, 2, 3, 0, 0);
  o = small_tensor(TFLC_FLOAT32, 2, 3, 0, 0);
  CHECK_EQ_INT(run_op(11, 0, 0, NULL, 1, in, &o, feed, y), TFLC_OK);
  CHECK(fabs((double)y[0] + 2.0 / sqrt(4.25)) < 1e-6 &&
        fabs((double)y[5] - 8.0 / sqrt(73.25)) < 1e-6);
  CHECK_EQ_INT(run_op(50, 0, 0, NULL, 1, in, &o, feed, y), TFLC_OK);
  {
    const double l = log(exp(-2.0) + exp(-0.5) + exp(0.0));
    CHECK(fabs((double)y[0] - (-2.0 - l)) < 1e-5 &&
          fabs((double)y[2] - (0.0 - l)) < 1e-5);
  }
}

static void test_graph_int(void) {
  const void *feed[2];
  tensor_spec in[2], o;
  /* ADD int16 goes through fragment a (int8 stays built-in): equal scales
   * 2^-10, out 2^-9 -> (a + b) / 2 */
  {
    const int16_t a[4] = {100, -100, 32767, 3}, b[4] = {50, 51, 32767, 0};
    int16_t y[4];
    in[0] = small_tensor(TFLC_INT16, 0, 4, 1.0f / 1024, 0);
    in[1] = small_tensor(TFLC_INT16, 0, 4, 1.0f / 1024, 0);
    o = small_tensor(TFLC_INT16, 0, 4, 1.0f / 512, 0);
    feed[0] = a;
    feed[1] = b;
    CHECK_EQ_INT(run_op(0, 0, 0, NULL, 2, in, &o, feed, y), TFLC_OK);
    CHECK(y[0] == 75 && y[1] == -25 && y[2] == 32767 &&
          (y[3] == 2 || y[3] == 1));
  }
  /* QUANTIZE int8 -> int16 (scale 1/16 -> 1/256, zp 3 -> 0): x16 */
  {
    const int8_t a[3] = {3, 4, -128};
    int16_t y[3];
    in[0] = small_tensor(TFLC_INT8, 0, 3, 1.0f / 16, 3);
    o = small_tensor(TFLC_INT16, 0, 3, 1.0f / 256, 0);
    feed[0] = a;
    CHECK_EQ_INT(run_op(114, 0, 0, NULL, 1, in, &o, feed, y), TFLC_OK);
    CHECK(y[0] == 0 && y[1] == 16 && y[2] == -131 * 16);
  }
  /* DEQUANTIZE uint8 */
  {
    const uint8_t a[2] = {130, 126};
    float y[2];
    in[0] = small_tensor(TFLC_UINT8, 0, 2, 0.5f, 128);
    o = small_tensor(TFLC_FLOAT32, 0, 2, 0, 0);
    feed[0] = a;
    CHECK_EQ_INT(run_op(6, 0, 0, NULL, 1, in, &o, feed, y), TFLC_OK);
    CHECK(y[0] == 1.0f && y[1] == -1.0f);
  }
  /* ARG_MAX with an axis fed at run time: [2,3] over axis 1, then 0 */
  {
    const int8_t a[6] = {1, 9, 3, 7, 2, 8};
    int32_t axis = 1, y[3];
    in[0] = small_tensor(TFLC_INT8, 2, 3, 0.5f, 0);
    in[1] = small_tensor(TFLC_INT32, 0, 1, 0, 0);
    o = small_tensor(TFLC_INT32, 0, 2, 0, 0);
    feed[0] = a;
    feed[1] = &axis;
    CHECK_EQ_INT(run_op(56, 0, 0, NULL, 2, in, &o, feed, y), TFLC_OK);
    CHECK(y[0] == 1 && y[1] == 2);
    axis = 0; /* output [3] expected but the model says [2]: refused */
    CHECK_EQ_INT(run_op(56, 0, 0, NULL, 2, in, &o, feed, y), TFLC_ERR_KERNEL);
  }
  /* SUM with a constant axis, keep_dims */
  {
    const int8_t a[6] = {1, 2, 3, 4, 5, 6};
    const int32_t ax = 1;
    int8_t y[2];
    tflc_w_option opt;
    memset(&opt, 0, sizeof opt);
    opt.kind = TFLC_W_U8;
    opt.i = 1;
    in[0] = small_tensor(TFLC_INT8, 2, 3, 0.5f, 0);
    in[1] = small_tensor(TFLC_INT32, 0, 1, 0, 0);
    in[1].data = &ax;
    in[1].size = 4;
    o = small_tensor(TFLC_INT8, 2, 1, 0.5f, 0);
    feed[0] = a;
    CHECK_EQ_INT(run_op(74, 27, 1, &opt, 2, in, &o, feed, y), TFLC_OK);
    CHECK(y[0] == 6 && y[1] == 15);
  }
}

static void test_graph_refusals(void) {
  const int8_t a[4] = {0, 1, 2, 3};
  const void *feed[2];
  int8_t y[16];
  tensor_spec in[2], o;
  tflc_w_option opt;
  memset(&opt, 0, sizeof opt);
  feed[0] = a;
  feed[1] = a;
  in[0] = small_tensor(TFLC_INT8, 0, 4, 0.1f, 0);
  in[1] = small_tensor(TFLC_INT8, 0, 4, 0.1f, 0);
  /* LOGISTIC int8 needs output zero point -128 */
  o = small_tensor(TFLC_INT8, 0, 4, 1.0f / 256, 0);
  CHECK_EQ_INT(run_op(14, 0, 0, NULL, 1, in, &o, feed, y), TFLC_ERR_QUANT);
  CHECK(strstr(g_err, "-128") != NULL);
  /* LOG_SOFTMAX int8 needs scale 16/256, zero point 127 */
  o = small_tensor(TFLC_INT8, 0, 4, 1.0f / 256, 127);
  CHECK_EQ_INT(run_op(50, 0, 0, NULL, 1, in, &o, feed, y), TFLC_ERR_QUANT);
  /* L2_NORMALIZATION with a fused activation */
  o = small_tensor(TFLC_INT8, 0, 4, 1.0f / 128, 0);
  opt.kind = TFLC_W_U8;
  opt.i = 1;
  CHECK_EQ_INT(run_op(11, 12, 1, &opt, 1, in, &o, feed, y),
               TFLC_ERR_UNSUPPORTED);
  /* comparison output must be bool */
  CHECK_EQ_INT(run_op(58, 0, 0, NULL, 2, in, &o, feed, y), TFLC_ERR_TYPE);
  /* comparison int8 scales must be below 1 */
  in[1].scale = 2.0f;
  o = small_tensor(TFLC_BOOL, 0, 4, 0, 0);
  CHECK_EQ_INT(run_op(58, 0, 0, NULL, 2, in, &o, feed, y), TFLC_ERR_QUANT);
  in[1].scale = 0.1f;
  CHECK_EQ_INT(run_op(58, 0, 0, NULL, 2, in, &o, feed, y), TFLC_OK);
  CHECK(y[0] == 0 && y[3] == 0);
  /* SUM with an axis that is not constant */
  in[1] = small_tensor(TFLC_INT32, 0, 1, 0, 0);
  o = small_tensor(TFLC_INT8, 0, 1, 0.1f, 0);
  CHECK_EQ_INT(run_op(74, 27, 0, NULL, 2, in, &o, feed, y), TFLC_ERR_SCHEMA);
  /* HARD_SWISH output scale below in_scale / 128 */
  o = small_tensor(TFLC_INT8, 0, 4, 1e-5f, 0);
  CHECK_EQ_INT(run_op(117, 0, 0, NULL, 1, in, &o, feed, y), TFLC_ERR_QUANT);
  /* MUL int16 with a zero point */
  in[0] = small_tensor(TFLC_INT16, 0, 4, 0.1f, 1);
  in[1] = small_tensor(TFLC_INT16, 0, 4, 0.1f, 0);
  o = small_tensor(TFLC_INT16, 0, 4, 0.1f, 0);
  CHECK_EQ_INT(run_op(18, 0, 0, NULL, 2, in, &o, feed, y), TFLC_ERR_QUANT);
  /* SUB with mixed input types */
  in[0] = small_tensor(TFLC_INT8, 0, 4, 0.1f, 0);
  CHECK_EQ_INT(run_op(41, 0, 0, NULL, 2, in, &o, feed, y), TFLC_ERR_TYPE);
  /* shapes that do not broadcast */
  in[1] = small_tensor(TFLC_INT8, 0, 3, 0.1f, 0);
  o = small_tensor(TFLC_INT8, 0, 4, 0.1f, 0);
  CHECK_EQ_INT(run_op(55, 0, 0, NULL, 2, in, &o, feed, y), TFLC_ERR_SHAPE);
}

int main(void) {
  rng_seed(0x2468ACE1u);
  RUN(test_mul_hand);
  RUN(test_mul_vs_reference);
  RUN(test_sub_prepare_float);
  RUN(test_sub_hand);
  RUN(test_addsub_vs_reference);
  RUN(test_sub_tflm);
  RUN(test_sigmoid_hand);
  RUN(test_sigmoid_vs_float);
  RUN(test_sigmoid_tflm);
  RUN(test_relu_hand);
  RUN(test_leaky_relu);
  RUN(test_prelu);
  RUN(test_hard_swish);
  RUN(test_l2norm);
  RUN(test_log_softmax);
  RUN(test_maxmin);
  RUN(test_compare);
  RUN(test_sum);
  RUN(test_arg_minmax);
  RUN(test_requantize);
  RUN(test_graph_float);
  RUN(test_graph_int);
  RUN(test_graph_refusals);
  return harness_report();
}

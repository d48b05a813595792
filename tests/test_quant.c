/* tests/test_quant.c - quantization helpers of tflc_kernels.h against
 * values computed by hand (see the comments) from INT8_KERNELS.md §1.2-1.5
 * and §2.1, plus randomised checks against a straightforward 64-bit
 * re-statement of the same rules written here. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_KERNELS_IMPLEMENTATION
#endif
#include "../tflc_kernels.h"
#include "harness.h"

#include <float.h>

static void qm(double m, int32_t eq, int32_t es) {
  int32_t q = 12345, s = 12345;
  tflc_quantize_multiplier(m, &q, &s);
  CHECK_EQ_INT(q, eq);
  CHECK_EQ_INT(s, es);
}

static void test_quantize_multiplier(void) {
  qm(0.0, 0, 0);
  /* exact powers of two: q = 2^30, shift = exponent of frexp */
  qm(1.0, 1073741824, 1);
  qm(0.5, 1073741824, 0);
  qm(0.25, 1073741824, -1);
  qm(2.0, 1073741824, 2);
  qm(ldexp(1.0, -31), 1073741824, -30);
  qm(ldexp(1.0, -32), 1073741824, -31); /* shift -31 is kept */
  qm(ldexp(1.0, -33), 0, 0);            /* shift -32: flushed to zero */
  qm(ldexp(1.0, -60), 0, 0);
  qm(0.75, 1610612736, 0); /* 0.75 * 2^31 */
  qm(1.5, 1610612736, 1);
  /* 1 - 2^-40: f * 2^31 rounds up to 2^31 -> q = 2^30, shift + 1 */
  qm(1.0 - ldexp(1.0, -40), 1073741824, 1);
  /* f * 2^31 = 2^30 + 0.5 exactly: half away from zero -> 2^30 + 1 */
  qm((2147483648.0 + 1.0) / 4294967296.0, 1073741825, 0);
  /* 0.1 = 0.8 * 2^-3: round(0.8 * 2^31) = 1717986918 */
  qm(0.1, 1717986918, -3);
  /* negative multipliers keep their sign */
  qm(-0.75, -1610612736, 0);
  qm(-0.5, -1073741824, 0);
  qm(-1e-3, -1099511628, -9);
}

/* tflc_quantize_multiplier works on the bits of m; TFLM's QuantizeMultiplier
 * restated with libm (frexp, round) must agree on any double: random bit
 * patterns (every exponent, subnormals, both signs), values whose
 * f * 2^31 ends in exactly .5, and the extremes. */
static void qm_libm(double m, int32_t *q, int32_t *s) {
  int e = 0;
  int64_t qf;
  if (m == 0.0 || !(m == m) || m > 1e300 || m < -1e300) {
    *q = 0;
    *s = 0;
    return;
  }
  qf = (int64_t)round(frexp(m, &e) * 2147483648.0);
  if (qf == ((int64_t)1 << 31)) {
    qf /= 2;
    ++e;
  }
  if (e < -31) {
    e = 0;
    qf = 0;
  }
  *q = (int32_t)qf;
  *s = e;
}
static void qm_same(double m) {
  int32_t q = 1, s = 1, rq = 2, rs = 2;
  tflc_quantize_multiplier(m, &q, &s);
  qm_libm(m, &rq, &rs);
  CHECK_EQ_INT(q, rq);
  CHECK_EQ_INT(s, rs);
}
static void test_quantize_multiplier_bits(void) {
  int i, k;
  SWEEP_BEGIN();
  for (i = 0; i < 20000; i++) {
    uint64_t b = ((uint64_t)rng() << 32) | rng();
    double m;
    if (i % 4 == 1) /* exponents near 0, where models live */
      b = (b & 0x800FFFFFFFFFFFFFull) |
          ((uint64_t)(1023 - 40 + rng() % 50) << 52);
    if (i % 4 == 2) /* f * 2^31 = n + 0.5 */
      b = (b & 0x800FFFFFFFC00000ull) | 0x0000000000200000ull |
          ((uint64_t)(1023 - 20 + rng() % 30) << 52);
    memcpy(&m, &b, sizeof m);
    qm_same(m);
  }
  for (k = -1100; k < 1100; k += 7) {
    qm_same(ldexp(1.0, k));
    qm_same(-ldexp(0.75, k));
    qm_same(ldexp(1.0 - ldexp(1.0, -40), k));
  }
  qm_same(1e300);
  qm_same(-1e300);
  qm_same(nextafter(1e300, 2e300));
  qm_same(DBL_MIN);
  qm_same(ldexp(1.0, -1074));
  qm_same(-0.0);
  qm_same(HUGE_VAL);
  qm_same(-HUGE_VAL);
  qm_same(NAN);
  SWEEP_END();
}

/* Random floats for the multiplier inputs: any bit pattern (zeros,
 * subnormals, infinities, NaN, both signs) or scales as models have. */
static float rand_float(int kind) {
  uint32_t u = rng();
  float f;
  if (kind == 1) /* positive normal scales around 2^-20 .. 2^10 */
    u = (u & 0x007FFFFFu) | ((uint32_t)(127 - 20 + rng() % 30) << 23);
  if (kind == 2) /* few significand bits: ties and exact quotients */
    u = (u & 0x807E0000u) | ((uint32_t)(127 - 10 + rng() % 20) << 23);
  if (kind == 3) { /* the specials */
    static const uint32_t sp[] = {
        0, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
        1, 0x807FFFFFu, 0x3F800000u, 0x7F7FFFFFu, 0x00800000u};
    u = sp[rng() % (sizeof sp / sizeof sp[0])];
  }
  memcpy(&f, &u, sizeof f);
  return f;
}

/* the multipliers of CONV_2D, FULLY_CONNECTED and SOFTMAX computed
 * without double arithmetic: the same as the double expressions */
static void test_float_ratio(void) {
  int i;
  SWEEP_BEGIN();
  for (i = 0; i < 300000; i++) {
    const float a = rand_float(i % 4 == 0   ? 0
                               : i % 4 == 3 ? (int)(rng() % 4)
                                            : i % 3 + 1);
    const float b = rand_float(i % 5 == 0 ? 0 : i % 5 == 4 ? 3 : i % 2 + 1);
    const float c = rand_float(i % 7 == 0 ? 0 : i % 7 == 6 ? 3 : 1 + i % 2);
    const double ref = (double)a * (double)b / (double)c;
    int32_t q = 1, sh = 1, rq = 2, rs = 2, e = 0;
    uint64_t m = 0;
    uint32_t neg = 0;
    /* the double itself, bit for bit */
    switch (tflc__float_ratio(a, b, c, &m, &e, &neg)) {
    case TFLC__FP_ZERO:
      CHECK(ref == 0.0);
      break;
    case TFLC__FP_FINITE:
      CHECK(m >> 52 == 1);
      CHECK(ldexp((double)m, e) * (neg ? -1.0 : 1.0) == ref);
      break;
    case TFLC__FP_INF:
      CHECK(ref == HUGE_VAL * (neg ? -1.0 : 1.0));
      break;
    default:
      CHECK(ref != ref);
    }
    tflc__quantize_float_ratio(a, b, c, &q, &sh);
    tflc_quantize_multiplier((double)a * (double)b / (double)c, &rq, &rs);
    CHECK_EQ_INT(q, rq);
    CHECK_EQ_INT(sh, rs);
    {
      /* SOFTMAX: beta * scale * 2^26, at most 2^31 - 1 */
      tflc_softmax_params p;
      double real = (double)a * (double)b * (double)(1 << 26);
      if (real > 2147483647.0)
        real = 2147483647.0;
      tflc_quantize_multiplier(real, &rq, &rs);
      tflc_softmax_prepare_s8(a, b, &p);
      CHECK_EQ_INT(p.input_multiplier, rq);
      CHECK_EQ_INT(p.input_left_shift, rs);
      CHECK_EQ_INT(p.diff_min, -tflc__fp_input_radius(5, rs));
    }
  }
  SWEEP_END();
}

/* the softmax / logistic input radius, in integers, against TFLM's
 * double formula for every shift a multiplier can have */
static void test_input_radius(void) {
  int ibits, sh;
  SWEEP_BEGIN();
  for (ibits = 1; ibits <= 8; ibits++)
    for (sh = -1100; sh <= 1100; sh++) {
      const double r = 1.0 * (double)((1 << ibits) - 1) *
                       (double)((int64_t)1 << (31 - ibits)) / ldexp(1.0, sh);
      const double f = floor(r);
      const int32_t want = f >= 2147483647.0 ? INT32_MAX : (int32_t)f;
      CHECK_EQ_INT(tflc__fp_input_radius(ibits, sh), want);
    }
  SWEEP_END();
}

static void test_srdhm(void) {
  CHECK_EQ_INT(tflc_saturating_rounding_doubling_high_mul(INT32_MIN, INT32_MIN),
               INT32_MAX);
  CHECK_EQ_INT(tflc_saturating_rounding_doubling_high_mul(INT32_MIN, INT32_MAX),
               -2147483647);
  CHECK_EQ_INT(
      tflc_saturating_rounding_doubling_high_mul(INT32_MIN, 1073741824),
      -1073741824);
  CHECK_EQ_INT(
      tflc_saturating_rounding_doubling_high_mul(1073741824, 1073741824),
      536870912);
  CHECK_EQ_INT(tflc_saturating_rounding_doubling_high_mul(0, INT32_MIN), 0);
  /* x * 2^30 / 2^31 = x / 2: ties go toward +infinity */
  CHECK_EQ_INT(tflc_saturating_rounding_doubling_high_mul(1, 1073741824),
               1); /* 0.5 -> 1 */
  CHECK_EQ_INT(tflc_saturating_rounding_doubling_high_mul(-1, 1073741824),
               0); /* -0.5 -> 0 */
  CHECK_EQ_INT(tflc_saturating_rounding_doubling_high_mul(3, 1073741824),
               2); /* 1.5 -> 2 */
  CHECK_EQ_INT(tflc_saturating_rounding_doubling_high_mul(-3, 1073741824),
               -1); /* -1.5 -> -1 */
  CHECK_EQ_INT(tflc_saturating_rounding_doubling_high_mul(-5, 1073741824),
               -2); /* -2.5 -> -2 */
  /* not a tie: 15 * 0.75 = 11.25 -> 11, -11.25 -> -11 */
  CHECK_EQ_INT(tflc_saturating_rounding_doubling_high_mul(15, 1610612736), 11);
  CHECK_EQ_INT(tflc_saturating_rounding_doubling_high_mul(-15, 1610612736),
               -11);
  /* -11.625 -> -12 */
  CHECK_EQ_INT(tflc_saturating_rounding_doubling_high_mul(-31, 805306368), -12);
}

static void test_rdbpot(void) {
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(12345, 0), 12345);
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(-12345, 0), -12345);
  /* ties away from zero */
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(3, 1), 2);
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(-3, 1), -2);
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(5, 1), 3);
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(-5, 1), -3);
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(6, 2), 2);   /* 1.5 */
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(-6, 2), -2); /* -1.5 */
  /* not ties */
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(-4, 1), -2);
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(7, 2), 2);   /* 1.75 */
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(-7, 2), -2); /* -1.75 */
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(-5, 2), -1); /* -1.25 */
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(5, 2), 1);   /* 1.25 */
  /* extremes of the 31-bit range */
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(INT32_MIN, 31), -1);
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(INT32_MAX, 31), 1);
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(1073741824, 31), 1); /* 0.5 -> 1 */
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(-1073741824, 31),
               -1); /* -0.5 -> -1 */
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(1073741823, 31), 0);
  CHECK_EQ_INT(tflc_rounding_divide_by_pot(INT32_MIN, 1), -1073741824);
}

static void test_mbqm(void) {
  /* 15 * 0.5 = 7.5: SRDHM ties toward +inf -> 8; -7.5 -> -7 */
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier(15, 1073741824, 0), 8);
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier(-15, 1073741824, 0), -7);
  /* then the right shift: 8 / 2 = 4; -7 / 2 = -3.5 -> away from zero */
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier(15, 1073741824, -1), 4);
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier(-15, 1073741824, -1), -4);
  /* 13 * 0.5 = 6.5 -> 7, then 7 / 2 = 3.5 -> 4 (exact 3.25 would be 3) */
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier(13, 1073741824, -1), 4);
  /* left shift: 3 * 4 = 12, * 0.5 = 6 */
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier(3, 1073741824, 2), 6);
  /* 100 * 0.75 = 75, / 8 = 9.375 -> 9 */
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier(100, 1610612736, -3), 9);
  /* SRDHM(1000, 2^30 + 1) = 500, / 32 = 15.625 -> 16 */
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier(1000, 1073741825, -5), 16);
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier(0, 1610612736, -3), 0);
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier(12345, 0, 0), 0);
}

static void test_mbqm64(void) {
  /* q16 = (2^30 + 2^15) >> 16 = 16384, total shift 15:
   * (15 * 16384 + 2^14) >> 15 = 8 ; (-15 * 16384 + 2^14) >> 15 = -7 */
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier_64(15, 1073741824, 0), 8);
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier_64(-15, 1073741824, 0),
               -7);
  /* (-17 * 16384 + 2^15) >> 16 = floor(-3.75) = -4 */
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier_64(-17, 1073741824, -1),
               -4);
  /* q >= 0x7FFF0000 -> q16 = 0x7FFF: (2^20 * 32767 + 2^14) >> 15 */
  CHECK_EQ_INT(
      tflc_multiply_by_quantized_multiplier_64((int64_t)1 << 20, 0x7FFF0000, 0),
      1048544);
  /* 0x7FFEFFFF + 2^15 >> 16 = 0x7FFF as well */
  CHECK_EQ_INT(
      tflc_multiply_by_quantized_multiplier_64((int64_t)1 << 20, 0x7FFEFFFF, 0),
      1048544);
  /* shift 7: total 8: (-5 * 32767 + 128) >> 8 = -640 */
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier_64(-5, 0x7FFFFFFF, 7),
               -640);
  /* q16 = 23170 (1518500250 ~ 2^30.5): computed by hand with 64-bit
   * integers: (123456789 * 23170 + 2^21) >> 22 = 681995 */
  CHECK_EQ_INT(
      tflc_multiply_by_quantized_multiplier_64(123456789, 1518500250, -7),
      681995);
  CHECK_EQ_INT(tflc_multiply_by_quantized_multiplier_64(-((int64_t)1 << 40),
                                                        1518500250, -20),
               -741440);
}

/* 64-bit re-statement of MBQM (INT8_KERNELS.md §1.4) for random checks */
static int32_t ref_mbqm(int32_t x, int32_t q, int32_t shift) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const int64_t xl = (int64_t)x * ((int64_t)1 << left);
  int64_t p, h;
  int32_t a;
  if (xl == INT32_MIN && q == INT32_MIN)
    a = INT32_MAX;
  else {
    p = xl * (int64_t)q;
    /* floor((p + 2^30) / 2^31) via division with a correction */
    h = (p + ((int64_t)1 << 30));
    a = (int32_t)(h >= 0
                      ? h / ((int64_t)1 << 31)
                      : -((-h + ((int64_t)1 << 31) - 1) / ((int64_t)1 << 31)));
  }
  if (right == 0)
    return a;
  {
    /* round half away from zero of a / 2^right, by magnitude */
    const int64_t d = (int64_t)1 << right;
    const int64_t mag = a < 0 ? -(int64_t)a : (int64_t)a;
    int64_t r = mag / d;
    if ((mag % d) * 2 >= d)
      r++;
    return (int32_t)(a < 0 ? -r : r);
  }
}

static void test_mbqm_random(void) {
  uint32_t s = 99;
  int k, ok = 1;
  for (k = 0; k < 200000; k++) {
    int32_t x, q, sh;
    s = s * 1664525u + 1013904223u;
    x = (int32_t)(s >> 8) - (1 << 23);
    if (k % 3 == 0)
      x = (int32_t)((s >> 1) ^ 0x55555555u);
    s = s * 1664525u + 1013904223u;
    q = (int32_t)(1073741824u + (s >> 2));
    s = s * 1664525u + 1013904223u;
    sh = -(int32_t)(s % 32u);
    if (k % 7 == 0 && x < (1 << 20) && x > -(1 << 20))
      sh = (int32_t)(s % 8u);
    if (tflc_multiply_by_quantized_multiplier(x, q, sh) != ref_mbqm(x, q, sh)) {
      if (ok)
        fprintf(stderr, "  mbqm(%ld, %ld, %ld) = %ld, ref %ld\n", (long)x,
                (long)q, (long)sh,
                (long)tflc_multiply_by_quantized_multiplier(x, q, sh),
                (long)ref_mbqm(x, q, sh));
      ok = 0;
    }
  }
  CHECK(ok);
}

static void test_activation_range(void) {
  int32_t lo, hi;
  float flo, fhi;
  tflc_activation_range_quantized(0, 0.1f, -10, -128, 127, &lo, &hi);
  CHECK_EQ_INT(lo, -128);
  CHECK_EQ_INT(hi, 127);
  /* RELU: [max(qmin, zp), qmax] */
  tflc_activation_range_quantized(1, 0.1f, -10, -128, 127, &lo, &hi);
  CHECK_EQ_INT(lo, -10);
  CHECK_EQ_INT(hi, 127);
  /* RELU6: 6 / 0.1f = 60 (in float) -> -10 + 60 */
  tflc_activation_range_quantized(3, 0.1f, -10, -128, 127, &lo, &hi);
  CHECK_EQ_INT(lo, -10);
  CHECK_EQ_INT(hi, 50);
  /* RELU_N1_TO_1: 3 + round(-1 / 0.5), 3 + round(1 / 0.5) */
  tflc_activation_range_quantized(2, 0.5f, 3, -128, 127, &lo, &hi);
  CHECK_EQ_INT(lo, 1);
  CHECK_EQ_INT(hi, 5);
  /* 1 / 0.4f == 2.5f: half away from zero -> 3 (half-even would be 2) */
  tflc_activation_range_quantized(2, 0.4f, 0, -128, 127, &lo, &hi);
  CHECK_EQ_INT(lo, -3);
  CHECK_EQ_INT(hi, 3);
  /* clamped to the type range */
  tflc_activation_range_quantized(3, 0.01f, 0, -128, 127, &lo, &hi);
  CHECK_EQ_INT(lo, 0);
  CHECK_EQ_INT(hi, 127);
  tflc_activation_range_quantized(1, 0.1f, -128, -128, 127, &lo, &hi);
  CHECK_EQ_INT(lo, -128);
  tflc_activation_range_quantized(1, 0.1f, 127, -128, 127, &lo, &hi);
  CHECK_EQ_INT(lo, 127);
  CHECK_EQ_INT(hi, 127);
  /* int16 output */
  tflc_activation_range_quantized(3, 0.001f, 0, -32768, 32767, &lo, &hi);
  CHECK_EQ_INT(lo, 0);
  CHECK_EQ_INT(hi, 6000);
  /* TANH / SIGN_BIT: not applied */
  tflc_activation_range_quantized(4, 0.1f, 5, -128, 127, &lo, &hi);
  CHECK_EQ_INT(lo, -128);
  CHECK_EQ_INT(hi, 127);

  tflc_activation_range_f32(0, &flo, &fhi);
  CHECK(flo == -FLT_MAX && fhi == FLT_MAX);
  tflc_activation_range_f32(1, &flo, &fhi);
  CHECK(flo == 0.0f && fhi == FLT_MAX);
  tflc_activation_range_f32(2, &flo, &fhi);
  CHECK(flo == -1.0f && fhi == 1.0f);
  tflc_activation_range_f32(3, &flo, &fhi);
  CHECK(flo == 0.0f && fhi == 6.0f);
}

static float f_from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static void test_conv_fc_multipliers(void) {
  const float w[3] = {0.5f, 0.25f, 0.75f};
  int32_t m[3], s[3];
  /* per channel: 0.5 * w / 0.25 = 1.0, 0.5, 1.5 */
  tflc_conv_quantize_multipliers(0.5f, w, 3, 0.25f, 3, m, s);
  CHECK_EQ_INT(m[0], 1073741824);
  CHECK_EQ_INT(s[0], 1);
  CHECK_EQ_INT(m[1], 1073741824);
  CHECK_EQ_INT(s[1], 0);
  CHECK_EQ_INT(m[2], 1610612736);
  CHECK_EQ_INT(s[2], 1);
  /* one scale broadcast to all channels */
  tflc_conv_quantize_multipliers(0.5f, w + 2, 1, 0.25f, 3, m, s);
  CHECK_EQ_INT(m[0], 1610612736);
  CHECK_EQ_INT(m[2], 1610612736);
  CHECK_EQ_INT(s[1], 1);
  {
    /* scales where the float product Sin * Sf (FC per-tensor) and the
     * double product (conv) give different multipliers; the expected
     * values were computed with arbitrary-precision arithmetic */
    const float a = f_from_bits(0x3c6a5330u), b = f_from_bits(0x3d2e2de9u),
                c = f_from_bits(0x3ec4bc5cu);
    int32_t q, sh;
    tflc_fc_quantize_multiplier(a, b, c, &q, &sh);
    CHECK_EQ_INT(q, 1740290456);
    CHECK_EQ_INT(sh, -9);
    tflc_conv_quantize_multipliers(a, &b, 1, c, 1, m, s);
    CHECK_EQ_INT(m[0], 1740290376);
    CHECK_EQ_INT(s[0], -9);
  }
  {
    const float a = f_from_bits(0x3cd70e16u), b = f_from_bits(0x3ccf1049u),
                c = f_from_bits(0x3e6bc6d2u);
    int32_t q, sh;
    tflc_fc_quantize_multiplier(a, b, c, &q, &sh);
    CHECK_EQ_INT(q, 1584318536);
    CHECK_EQ_INT(sh, -8);
    tflc_conv_quantize_multipliers(a, &b, 1, c, 1, m, s);
    CHECK_EQ_INT(m[0], 1584318535);
    CHECK_EQ_INT(s[0], -8);
  }
}

int main(void) {
  RUN(test_quantize_multiplier);
  RUN(test_quantize_multiplier_bits);
  RUN(test_input_radius);
  RUN(test_float_ratio);
  RUN(test_srdhm);
  RUN(test_rdbpot);
  RUN(test_mbqm);
  RUN(test_mbqm64);
  RUN(test_mbqm_random);
  RUN(test_activation_range);
  RUN(test_conv_fc_multipliers);
  return harness_report();
}

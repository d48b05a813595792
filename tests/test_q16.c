/* tests/test_q16.c - the 16-bit requantization of seeds/vta_delegate_ops.rst
 * (tflc_q16_* in tflc_kernels.h): the seed's worked values, its formulas
 * re-derived with divisions instead of shifts, and every int8 input
 * against a double reference within a stated error bound.
 *
 * Error bounds (derived here, checked for every input below). Let M, s be
 * the multiplier and shift of scale r (tflc_q16_multiplier): |M 2^(s-15) -
 * r| <= 2^(s-16), since M is the mantissa rounded to 15 bits.
 *   dequantize: u = q - zero point, ideal R = u * 2^7 * r. The product
 *     P = u 2^7 M is rounded to a multiple of 2^15 with the nudge (within
 *     1/2 above for P >= 0; between 3/2 and 1/2 below for P < 0), then
 *     floored by 2^-s (up to 1 - 2^s down). So, with s <= 0,
 *       -1 - 2^s/2 - |u| 2^(s-9)  <=  D - R  <=  2^s/2 + 2^(s-15) + |u| 2^(s-9)
 *     (|D - R| < 2 for every ADD input, in units where one input step is
 *     2^7 r >= 2^(s+6)).
 *   requantize: floor(v M 2^(s-15)) + offset;
 *       -1 - |v| 2^(s-16)  <  out - (v r + offset)  <=  |v| 2^(s-16).
 *   ADD: out - clamp(zp_out + (s1 u1 + s2 u2) / s_out) lies in
 *       [-1 + ro (L1 + L2) - E, ro (U1 + U2) + E]
 *     where [Li, Ui] is input i's dequantize bound, ro the output scale
 *     2 max(s1, s2) / (2^7 s_out) and E = (|R1 + R2| + 4) 2^(so-16) its
 *     rounding. Observed (printed below): out - ideal in [-1.02, 0.002],
 *     i.e. the ideal rounded down where TFLM rounds to nearest; 38-100% of
 *     outputs equal round(ideal), the others are one step below. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_KERNELS_IMPLEMENTATION
#endif
#include "../tflc_kernels.h"
#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* floor(a / b) for b > 0, by division (not by shifts). */
static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (q * b > a) ? q - 1 : q;
}

/* The seed's dequantization written with divisions: independent of the
 * shifts in tflc_kernels.h. Valid for |offset + q| <= 255, shift <= 0. */
static int32_t seed_dequantize(int32_t q, int32_t offset, int32_t m,
                               int32_t shift) {
  const int64_t p = (int64_t)(offset + q) * 128 * m;
  const int64_t nudge = p >= 0 ? 16384 : 1 - 16384;
  const int64_t scaled = floor_div(p + nudge, 32768);
  return (int32_t)floor_div(scaled, (int64_t)1 << -shift);
}

static void test_multiplier(void) {
  int16_t m = -1, s = -1;
  double r;
  int k, bad = 0;
  /* the seed's example: 96 = 0.75 * 2^7 */
  tflc_q16_multiplier(96.0, &m, &s);
  CHECK_EQ_INT(m, 24576); /* 0.75 * 2^15 */
  CHECK_EQ_INT(s, 7);
  tflc_q16_multiplier(0.5, &m, &s);
  CHECK_EQ_INT(m, 16384);
  CHECK_EQ_INT(s, 0);
  tflc_q16_multiplier(0.25, &m, &s);
  CHECK_EQ_INT(m, 16384);
  CHECK_EQ_INT(s, -1);
  /* mantissa 1 - 2^-17 rounds to 2^15: halved, shift + 1 */
  tflc_q16_multiplier(1.0 - 1.0 / 131072.0, &m, &s);
  CHECK_EQ_INT(m, 16384);
  CHECK_EQ_INT(s, 1);
  /* half away from zero: 0.5 + 2^-16 is 16384.5 / 2^15 */
  tflc_q16_multiplier(0.5 + 1.0 / 65536.0, &m, &s);
  CHECK_EQ_INT(m, 16385);
  CHECK_EQ_INT(s, 0);
  /* too small: below 1e-6, or a shift below -15 (2^-17 = 0.5 * 2^-16) */
  tflc_q16_multiplier(1e-7, &m, &s);
  CHECK(m == 0 && s == 0);
  tflc_q16_multiplier(1.0 / 131072.0, &m, &s);
  CHECK(m == 0 && s == 0);
  tflc_q16_multiplier(1.0 / 65536.0, &m, &s); /* 0.5 * 2^-15: kept */
  CHECK(m == 16384 && s == -15);
  tflc_q16_multiplier(-3.0, &m, &s);
  CHECK(m == 0 && s == 0);
  tflc_q16_multiplier(NAN, &m, &s);
  CHECK(m == 0 && s == 0);
  /* a sweep: 15-bit mantissa within half a step of the scale */
  for (k = 0, r = 1.0 / 32768.0; k < 20000; k++, r *= 1.0009) {
    tflc_q16_multiplier(r, &m, &s);
    bad += m < 16384 || fabs(ldexp((double)m, s - 15) - r) >
                            ldexp(1.0, s - 16) * (1 + 1e-12);
  }
  CHECK_EQ_INT(bad, 0);
}

/* Values worked by hand: scale 0.25 is (16384, -1). Input 1: 128 * 16384
 * = 2^21, (2^21 + 2^14) >> 15 = 64, >> 1 = 32 = 1 * 2^7 * 0.25. Input -1:
 * (-2^21 + 1 - 2^14) >> 15 = -65, >> 1 = -33, one below the ideal -32. */
static void test_dequantize_worked(void) {
  CHECK_EQ_INT(tflc_q16_dequantize(1, 0, 16384, -1), 32);
  CHECK_EQ_INT(tflc_q16_dequantize(-1, 0, 16384, -1), -33);
  CHECK_EQ_INT(tflc_q16_dequantize(0, 0, 16384, -1), 0);
  CHECK_EQ_INT(tflc_q16_dequantize(-128, 128, 16384, -1), 0);
  /* 127 - (-128) = 255: 255 * 128 * 16384 / 2^16 = 8160 */
  CHECK_EQ_INT(tflc_q16_dequantize(127, 128, 16384, -1), 8160);
  /* the one overflow of the seed: -2^15 * -2^15 saturates to 2^15 - 1 */
  CHECK_EQ_INT(tflc_q16_dequantize(-256, 0, -32768, 0), 32767);
  /* a positive shift (outside the seed) shifts left */
  CHECK_EQ_INT(tflc_q16_dequantize(1, 0, 16384, 2), 64 * 4);
}

/* Every int8 input, every zero point, scales as ADD produces them (its
 * inputs' scales divided by twice the larger one: at most 1/2). */
static void test_dequantize_exhaustive(void) {
  static const double ratios[] = {0.5,   0.499, 0.37,   0.25, 0.1,
                                  0.013, 3e-3,  1.2e-4, 2e-5, 1.6e-5};
  unsigned r;
  for (r = 0; r < sizeof ratios / sizeof ratios[0]; r++) {
    int16_t m, s;
    int32_t zp, q, outside = 0, differ = 0;
    double lo_seen = 1e9, hi_seen = -1e9;
    tflc_q16_multiplier(ratios[r], &m, &s);
    CHECK(s <= 0);
    for (zp = -128; zp <= 127; zp++)
      for (q = -128; q <= 127; q++) {
        const int32_t d = tflc_q16_dequantize(q, -zp, m, s);
        const double u = (double)(q - zp), ideal = u * 128.0 * ratios[r];
        const double e = (double)d - ideal, ps = ldexp(1.0, s);
        const double mult = fabs(u) * ldexp(1.0, s - 9);
        const double lo = -1.0 - ps / 2 - mult - 1e-9;
        const double hi = ps / 2 + ldexp(1.0, s - 15) + mult + 1e-9;
        outside += e < lo || e > hi;
        differ += d != seed_dequantize(q, -zp, m, s);
        if (e < lo_seen)
          lo_seen = e;
        if (e > hi_seen)
          hi_seen = e;
      }
    CHECK_EQ_INT(outside, 0);
    CHECK_EQ_INT(differ, 0);
    printf("  dequantize r=%-8g (m %5d, shift %3d): error in [%.3f, %.3f] "
           "(bound [%.3f, %.3f])\n",
           ratios[r], m, s, lo_seen, hi_seen,
           -1.0 - ldexp(1.0, s) / 2 - 255.0 * ldexp(1.0, s - 9),
           ldexp(1.0, s) / 2 + ldexp(1.0, s - 15) + 255.0 * ldexp(1.0, s - 9));
  }
}

static void test_requantize(void) {
  static const double scales[] = {0.9, 0.5, 0.0123, 3.7e-4, 1.01e-5, 7.5};
  unsigned k;
  int32_t v;
  int16_t m, s;
  for (k = 0; k < sizeof scales / sizeof scales[0]; k++) {
    int32_t outside = 0;
    tflc_q16_multiplier(scales[k], &m, &s);
    /* products stay in 32 bits: |v| * 2^15 < 2^31 */
    for (v = -65535; v <= 65535; v++) {
      const int32_t out = tflc_q16_requantize(v, m, s, 3, INT32_MIN, INT32_MAX);
      const double ideal = (double)v * scales[k] + 3.0;
      const double slack = fabs((double)v) * ldexp(1.0, s - 16) + 1e-9;
      outside +=
          (double)out - ideal <= -1.0 - slack || (double)out - ideal > slack;
    }
    CHECK_EQ_INT(outside, 0);
  }
  /* clamps, offset */
  tflc_q16_multiplier(0.5, &m, &s);
  CHECK_EQ_INT(tflc_q16_requantize(1000, m, s, 0, -128, 127), 127);
  CHECK_EQ_INT(tflc_q16_requantize(-1000, m, s, 0, -128, 127), -128);
  CHECK_EQ_INT(tflc_q16_requantize(-3, m, s, 10, -128, 127), 8); /* -2 + 10 */
  /* the product wraps as the 32-bit accumulator does: 2^17 * 2^14 = 2^31 */
  CHECK_EQ_INT(tflc_q16_requantize(131072, 16384, 15, 0, INT32_MIN, INT32_MAX),
               INT32_MIN);
  /* 15 - shift < 0 shifts left: scale 2^17 is (16384, 18) */
  tflc_q16_multiplier(131072.0, &m, &s);
  CHECK(m == 16384 && s == 18);
  CHECK_EQ_INT(tflc_q16_requantize(3, m, s, 0, INT32_MIN, INT32_MAX),
               3 * 131072);
}

/* ADD on every pair of int8 inputs against the double reference. */
typedef struct add_case {
  float s1, s2, so;
  int32_t z1, z2, zo, lo, hi;
} add_case;
static double dq_lo(int16_t s) {
  return -1.0 - ldexp(1.0, s) / 2 - 255.0 * ldexp(1.0, s - 9);
}
static double dq_hi(int16_t s) {
  return ldexp(1.0, s) / 2 + ldexp(1.0, s - 15) + 255.0 * ldexp(1.0, s - 9);
}
static void test_add_exhaustive(void) {
  static const add_case cases[] = {
      {0.05f, 0.05f, 0.1f, 0, 0, 0, -128, 127},
      {0.0235f, 0.0412f, 0.0588f, -128, 5, -20, -128, 127},
      {0.1f, 0.1f, 0.02f, 3, -7, 0, -128, 127},      /* clamps often */
      {0.5f, 0.001f, 0.4f, 0, 100, 127, 127, 127},   /* RELU at zp 127 */
      {0.5f, 0.001f, 0.4f, 0, 100, -128, -128, 127}, /* tiny 2nd input */
      {1.0f, 1e-5f, 1.1f, 12, 0, 1, -128, 127},      /* 2nd scale -> 0 */
      {0.0039f, 0.0041f, 0.0079f, -128, -128, -128, -128, 127}};
  unsigned k;
  printf("  ADD, all 65536 input pairs: out - ideal, and against round(ideal)"
         "\n");
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const add_case *c = &cases[k];
    tflc_q16_add_params p;
    int8_t a[256], b[256], o[256];
    int32_t i, j, outside = 0, equal = 0, worst = 0;
    double lo_seen = 1e9, hi_seen = -1e9, ro, dm, L, U;
    tflc_q16_add_prepare(c->s1, c->z1, c->s2, c->z2, c->so, c->zo, c->lo, c->hi,
                         &p);
    ro = 2.0 * (c->s1 > c->s2 ? c->s1 : c->s2) / (128.0 * c->so);
    dm = ldexp(1.0, p.out_shift - 16);
    L = dq_lo(p.shift1) + dq_lo(p.shift2);
    U = dq_hi(p.shift1) + dq_hi(p.shift2);
    for (i = 0; i < 256; i++)
      b[i] = (int8_t)(i - 128);
    for (i = 0; i < 256; i++) {
      memset(a, (int)(uint8_t)(int8_t)(i - 128), sizeof a);
      tflc_add_q16_s8(&p, 256, a, b, o);
      for (j = 0; j < 256; j++) {
        const double u1 = (double)(i - 128 - c->z1);
        const double u2 = (double)(j - 128 - c->z2);
        const double real =
            c->zo + ((double)c->s1 * u1 + (double)c->s2 * u2) / (double)c->so;
        const double clamped = real < c->lo   ? c->lo
                               : real > c->hi ? c->hi
                                              : real;
        const double rsum = real - c->zo; /* (R1 + R2) * ro */
        const double e_max = (fabs(rsum / ro) + 4.0) * dm + 1e-6;
        const double e = (double)o[j] - clamped;
        double rounded = floor(fabs(clamped) + 0.5);
        int32_t diff;
        rounded = clamped < 0 ? -rounded : rounded;
        outside += e < -1.0 + ro * L - e_max || e > ro * U + e_max;
        diff = (int32_t)(o[j] - (int32_t)rounded);
        equal += diff == 0;
        if (abs(diff) > worst)
          worst = abs(diff);
        if (e < lo_seen)
          lo_seen = e;
        if (e > hi_seen)
          hi_seen = e;
      }
    }
    CHECK_EQ_INT(outside, 0);
    printf("  case %u: out - ideal in [%.3f, %.3f] (bound [%.3f, %.3f]); "
           "%.1f%% equal to round(ideal), worst %d\n",
           k, lo_seen, hi_seen, -1.0 + ro * L, ro * U, 100.0 * equal / 65536.0,
           worst);
  }
}

int main(void) {
  RUN(test_multiplier);
  RUN(test_dequantize_worked);
  RUN(test_dequantize_exhaustive);
  RUN(test_requantize);
  RUN(test_add_exhaustive);
  return harness_report();
}

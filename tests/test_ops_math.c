/* tests/test_ops_math.c - element-wise math, logic, casts and the pool /
 * reduction types of issue 12: ABS, CEIL, COS, EXP, FLOOR, LOG, NEG, ROUND,
 * RSQRT, SIN, SQRT, SQUARE, ELU, DIV, FLOOR_DIV, FLOOR_MOD,
 * SQUARED_DIFFERENCE, ADD_N, CAST, LOGICAL_*, SELECT_V2, CUMSUM, int32
 * ADD/SUB/MUL, int16 LOGISTIC/TANH/SOFTMAX, float32 / int16 pools,
 * L2_POOL_2D, MEAN, REDUCE_MAX/MIN/ALL.
 *
 * Evidence of three kinds:
 *   - hand-computed values (worked out in the comments);
 *   - float references (the real-valued operation on dequantized inputs),
 *     which the quantized kernels must meet within a stated tolerance on
 *     random shapes, scales and inputs;
 *   - whole one-operator models through the interpreter (prepare checks
 *     that refuse what TFLM refuses, dispatch by type).
 * Byte equality with TFLM itself is checked by the ops2 conformance cases
 * (tests/conformance.sh in make test). */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#endif
#include "../tflc_write.h"
#include "harness.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- utilities ----------------------------------------------------------- */

/* log-uniform in about [1e-3, 0.5] */
static float rng_scale(void) {
  return (float)exp(-6.9 + 6.2 * (double)(rng() >> 8) / 16777216.0);
}

/* Random sweeps count mismatches (the first few are printed) and end in
 * one check each. */
static long g_bad;
static void expect_near(double got, double want, double tol, const char *what) {
  if (!(fabs(got - want) <= tol)) {
    if (g_bad < 5)
      fprintf(stderr, "%s: %s got %g want %g (tol %g)\n", harness_current, what,
              got, want, tol);
    ++g_bad;
  }
}
static int32_t clampi(double v, int32_t lo, int32_t hi) {
  return v < lo ? lo : v > hi ? hi : (int32_t)v;
}

/* ---- float32 unary math ---------------------------------------------------
 */

static void test_math_f32_hand(void) {
  rng_seed(0x13579BDFu);
  /* ROUND: ties to even, in both signs */
  const float r_in[8] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2.4999f, 1e30f};
  const float r_out[8] = {0.0f, 2.0f, 2.0f, 0.0f, -2.0f, -2.0f, 2.0f, 1e30f};
  float y[8];
  const float x[4] = {4.0f, -2.0f, 0.25f, -1.0f};
  int i;
  tflc_math_f32(TFLC_MATH_ROUND, 8, r_in, y);
  CHECK_EQ_MEM(y, r_out, sizeof r_out);
  CHECK(!signbit(y[3])); /* -0.5: floor -1 is odd, -1 + 1 gives +0.0 */
  tflc_math_f32(TFLC_MATH_RSQRT, 1, x, y);
  CHECK(y[0] == 0.5f);
  tflc_math_f32(TFLC_MATH_SQUARE, 4, x, y);
  CHECK(y[0] == 16.0f && y[1] == 4.0f && y[2] == 0.0625f && y[3] == 1.0f);
  tflc_math_f32(TFLC_MATH_NEG, 4, x, y);
  CHECK(y[0] == -4.0f && y[1] == 2.0f);
  tflc_math_f32(TFLC_MATH_ABS, 4, x, y);
  CHECK(y[1] == 2.0f && y[3] == 1.0f);
  /* ELU: expm1 below zero, identity above */
  tflc_math_f32(TFLC_MATH_ELU, 4, x, y);
  CHECK(y[0] == 4.0f && y[1] == expm1f(-2.0f) && y[3] == expm1f(-1.0f));
  tflc_math_f32(TFLC_MATH_FLOOR, 4, x, y);
  CHECK(y[2] == 0.0f && y[1] == -2.0f);
  tflc_math_f32(TFLC_MATH_CEIL, 4, x, y);
  CHECK(y[2] == 1.0f);
  /* the libm functions, element by element */
  for (i = 0; i < 4; ++i) {
    float z;
    tflc_math_f32(TFLC_MATH_SIN, 1, &x[i], &z);
    CHECK(z == sinf(x[i]));
    tflc_math_f32(TFLC_MATH_COS, 1, &x[i], &z);
    CHECK(z == cosf(x[i]));
    tflc_math_f32(TFLC_MATH_EXP, 1, &x[i], &z);
    CHECK(z == expf(x[i]));
  }
  tflc_math_f32(TFLC_MATH_LOG, 1, &x[0], y);
  CHECK(y[0] == logf(4.0f));
  tflc_math_f32(TFLC_MATH_SQRT, 1, &x[2], y);
  CHECK(y[0] == 0.5f);
}

/* ---- ABS / RSQRT quantized ----------------------------------------------- */

static void test_abs_rsqrt(void) {
  tflc_abs_rsqrt_params p;
  const int8_t a[5] = {-128, -10, 0, 10, 127};
  const int16_t h[3] = {-32768, -5, 7};
  int8_t y[5];
  int16_t yh[3];
  int k, i;
  /* equal scales: |x - zp| + zo, clamped: zp 0, zo 0 -> 128 clamps to 127 */
  tflc_abs_rsqrt_prepare(0, 0.1f, 0, 0.1f, 0, &p);
  CHECK(p.rescale == 0);
  tflc_abs_q(&p, 1, 5, a, y);
  CHECK(y[0] == 127 && y[1] == 10 && y[2] == 0 && y[3] == 10 && y[4] == 127);
  /* int16 without quantization: abs(-32768) wraps to -32768 */
  memset(&p, 0, sizeof p);
  p.plain = 1;
  tflc_abs_q(&p, 2, 3, h, yh);
  CHECK(yh[0] == -32768 && yh[1] == 5 && yh[2] == 7);
  /* quantized int16 saturates instead */
  tflc_abs_rsqrt_prepare(0, 1.0f, 0, 1.0f, 0, &p);
  tflc_abs_q(&p, 2, 3, h, yh);
  CHECK(yh[0] == 32767);
  /* rescaled ABS and RSQRT against float on random scales */
  g_bad = 0;
  for (k = 0; k < 200; ++k) {
    const float si = rng_scale(), so = rng_scale() * 4.0f;
    const int32_t zi = rng_int(-60, 60), zo = rng_int(-100, 100);
    int8_t x[32], o[32];
    for (i = 0; i < 32; ++i)
      x[i] = (int8_t)rng_int(-128, 127);
    tflc_abs_rsqrt_prepare(0, si, zi, so, zo, &p);
    tflc_abs_q(&p, 1, 32, x, o);
    for (i = 0; i < 32; ++i)
      expect_near(o[i],
                  clampi(floor(fabs((double)si * (x[i] - zi)) / so + zo + 0.5),
                         -128, 127),
                  1.0, "abs");
    /* rsqrt inputs at or above the zero point */
    for (i = 0; i < 32; ++i)
      x[i] = (int8_t)rng_int(zi + 1, 127);
    tflc_abs_rsqrt_prepare(1, si, zi, so, zo, &p);
    CHECK_EQ_INT(tflc_rsqrt_q(&p, 1, 32, x, o), 0);
    for (i = 0; i < 32; ++i) {
      const double want = 1.0 / sqrt((double)si * (x[i] - zi)) / so + zo;
      /* the integer inverse square root is good to about 2^-10 */
      expect_near(o[i], clampi(floor(want + 0.5), -128, 127),
                  1.0 + fabs(want - zo) / 500.0, "rsqrt");
    }
  }
  CHECK_EQ_INT(g_bad, 0);
  /* below the zero point: refused, as TFLM refuses */
  tflc_abs_rsqrt_prepare(1, 0.1f, 5, 0.1f, 0, &p);
  CHECK_EQ_INT(tflc_rsqrt_q(&p, 1, 5, a, y), -1);
}

static void test_elu_table(void) {
  int8_t table[256], x[256], y[256];
  int v, k;
  g_bad = 0;
  for (k = 0; k < 50; ++k) {
    const float si = rng_scale() * 8, so = rng_scale() * 8;
    const int32_t zi = rng_int(-50, 50), zo = rng_int(-50, 50);
    tflc_elu_table_s8(si, zi, so, zo, table);
    for (v = 0; v < 256; ++v)
      x[v] = (int8_t)(v - 128);
    tflc_lut_s8(table, 256, x, y);
    for (v = 0; v < 256; ++v) {
      const double r = (double)si * (x[v] - zi);
      const double e = r < 0 ? expm1(r) : r;
      expect_near(y[v], clampi(floor(e / so + 0.5) + zo, -128, 127), 1.0,
                  "elu");
    }
  }
  CHECK_EQ_INT(g_bad, 0);
}

/* ---- binary float32 / int32 ------------------------------------------------
 */

static void test_arith_f32_hand(void) {
  const int32_t d[1] = {4}, d1[1] = {1};
  const float a[4] = {-7.0f, 7.0f, -7.5f, 6.0f};
  const float b[4] = {2.0f, -2.0f, 2.0f, 4.0f};
  const float two[1] = {2.0f};
  float y[4];
  tflc_arith_f32(TFLC_ARITH_FLOOR_DIV, 0, 0, 1, d, a, d, b, d, y);
  CHECK(y[0] == -4.0f && y[1] == -4.0f && y[2] == -4.0f && y[3] == 1.0f);
  /* floor mod takes the divisor's sign: -7 mod 2 = 1, 7 mod -2 = -1 */
  tflc_arith_f32(TFLC_ARITH_FLOOR_MOD, 0, 0, 1, d, a, d, b, d, y);
  CHECK(y[0] == 1.0f && y[1] == -1.0f && y[2] == 0.5f && y[3] == 2.0f);
  tflc_arith_f32(TFLC_ARITH_SQUARED_DIFFERENCE, 0, 0, 1, d, a, d1, two, d, y);
  CHECK(y[0] == 81.0f && y[1] == 25.0f && y[3] == 16.0f);
  /* DIV clamps to the fused range (RELU6 here) */
  tflc_arith_f32(TFLC_ARITH_DIV, 0.0f, 6.0f, 1, d, a, d1, two, d, y);
  CHECK(y[0] == 0.0f && y[1] == 3.5f && y[3] == 3.0f);
}

static void test_arith_i32(void) {
  const int32_t da[2] = {2, 3}, db[2] = {1, 3};
  const int32_t a[6] = {10, -10, 7, 100, INT32_MIN, -9};
  const int32_t b[3] = {3, -1, 2};
  const int32_t z[3] = {1, 0, 1};
  int32_t y[6];
  /* b broadcasts over the rows of a; INT32_MIN - 1 wraps */
  tflc_arith_i32(TFLC_ARITH_ADD, INT32_MIN, INT32_MAX, 2, da, a, db, b, da, y);
  CHECK(y[0] == 13 && y[1] == -11 && y[2] == 9 && y[3] == 103 &&
        y[4] == INT32_MAX && y[5] == -7);
  /* clamped to [0, max] (fused RELU) */
  tflc_arith_i32(TFLC_ARITH_SUB, 0, INT32_MAX, 2, da, a, db, b, da, y);
  CHECK(y[0] == 7 && y[1] == 0 && y[2] == 5 && y[3] == 97 && y[4] == 0 &&
        y[5] == 0);
  /* clamped to [-1, 6]; INT32_MIN * -1 wraps to INT32_MIN */
  tflc_arith_i32(TFLC_ARITH_MUL, -1, 6, 2, da, a, db, b, da, y);
  CHECK(y[0] == 6 && y[1] == 6 && y[2] == 6 && y[3] == 6 && y[4] == -1 &&
        y[5] == -1);
  /* truncating division; INT32_MIN / -1 wraps instead of trapping */
  CHECK_EQ_INT(tflc_arith_i32(TFLC_ARITH_DIV, INT32_MIN, INT32_MAX, 2, da, a,
                              db, b, da, y),
               0);
  CHECK(y[0] == 3 && y[1] == 10 && y[2] == 3 && y[3] == 33 &&
        y[4] == INT32_MIN && y[5] == -4);
  CHECK_EQ_INT(tflc_arith_i32(TFLC_ARITH_DIV, INT32_MIN, INT32_MAX, 2, da, a,
                              db, z, da, y),
               -1);
  tflc_arith_i32(TFLC_ARITH_SQUARED_DIFFERENCE, INT32_MIN, INT32_MAX, 2, da, a,
                 db, b, da, y);
  CHECK(y[0] == 49 && y[1] == 81 && y[2] == 25 && y[3] == 9409);
}

/* ---- DIV int8, SQUARED_DIFFERENCE int8/int16 ------------------------------
 */

static void test_div_s8(void) {
  tflc_div_params p;
  int k, i;
  /* hand: scales 1, zero points 0: 100 / 7 = 14.29 -> 14; -100 / 7 -> -14;
   * 5 / -2 = -2.5 -> rounds away from zero at the tie */
  {
    const int32_t d[1] = {3};
    const int8_t a[3] = {100, -100, 5}, b[3] = {7, 7, -2};
    int8_t y[3];
    memset(&p, 0, sizeof p);
    p.act_min = -128;
    p.act_max = 127;
    tflc_quantize_multiplier(1.0, &p.multiplier, &p.shift);
    CHECK_EQ_INT(tflc_div_s8(&p, 1, d, a, d, b, d, y), 0);
    CHECK(y[0] == 14 && y[1] == -14 && (y[2] == -3 || y[2] == -2));
  }
  g_bad = 0;
  for (k = 0; k < 300; ++k) {
    const int32_t d[1] = {16};
    const float s1 = rng_scale(), s2 = rng_scale(), so = s1 / s2 / 80.0f;
    const int32_t z1 = rng_int(-20, 20), z2 = rng_int(-20, 20),
                  zo = rng_int(-20, 20);
    int8_t a[16], b[16], y[16];
    memset(&p, 0, sizeof p);
    p.input1_offset = -z1;
    p.input2_offset = -z2;
    p.output_offset = zo;
    p.act_min = -128;
    p.act_max = 127;
    tflc_quantize_multiplier((double)(s1 / (s2 * so)), &p.multiplier, &p.shift);
    for (i = 0; i < 16; ++i) {
      a[i] = (int8_t)rng_int(-128, 127);
      do
        b[i] = (int8_t)rng_int(-128, 127);
      while (b[i] == z2);
    }
    CHECK_EQ_INT(tflc_div_s8(&p, 1, d, a, d, b, d, y), 0);
    for (i = 0; i < 16; ++i) {
      const double q =
          (double)s1 * (a[i] - z1) / ((double)s2 * (b[i] - z2)) / so + zo;
      expect_near(y[i], clampi(floor(q + 0.5), -128, 127), 1.0, "div");
    }
  }
  CHECK_EQ_INT(g_bad, 0);
  /* a divisor at its zero point is refused */
  {
    const int32_t d[1] = {1};
    const int8_t a[1] = {3}, b[1] = {0};
    int8_t y[1];
    p.input2_offset = 0;
    CHECK_EQ_INT(tflc_div_s8(&p, 1, d, a, d, b, d, y), -1);
  }
}

static void test_squared_difference_q(void) {
  tflc_add_params p;
  int k, i, w;
  g_bad = 0;
  for (w = 1; w <= 2; ++w) {
    for (k = 0; k < 200; ++k) {
      const int32_t d1[2] = {3, 5}, d2[2] = {1, 5};
      const float s1 = rng_scale(), s2 = rng_scale();
      const float so = (s1 + s2) * (s1 + s2) * (w == 1 ? 64.0f : 32768.0f);
      const int32_t z1 = w == 1 ? rng_int(-30, 30) : 0,
                    z2 = w == 1 ? rng_int(-30, 30) : 0,
                    zo = w == 1 ? rng_int(-128, -100) : 0;
      const int32_t lo = w == 1 ? -128 : -32768, hi = w == 1 ? 127 : 32767;
      int16_t a[15], b[5], y[15];
      int8_t a8[15], b8[5], y8[15];
      CHECK(tflc_squared_difference_prepare(s1, z1, s2, z2, so, zo, w, &p));
      for (i = 0; i < 15; ++i) {
        a[i] = (int16_t)rng_int(lo, hi);
        a8[i] = (int8_t)rng_int(-128, 127);
      }
      for (i = 0; i < 5; ++i) {
        b[i] = (int16_t)rng_int(lo, hi);
        b8[i] = (int8_t)rng_int(-128, 127);
      }
      if (w == 1)
        tflc_squared_difference_q(&p, 1, 2, d1, a8, d2, b8, d1, y8);
      else
        tflc_squared_difference_q(&p, 2, 2, d1, a, d2, b, d1, y);
      for (i = 0; i < 15; ++i) {
        const double va =
            w == 1 ? (double)s1 * (a8[i] - z1) : (double)s1 * a[i];
        const double vb =
            w == 1 ? (double)s2 * (b8[i % 5] - z2) : (double)s2 * b[i % 5];
        const double want = (va - vb) * (va - vb) / so + zo;
        const int32_t got = w == 1 ? y8[i] : y[i];
        /* int8 inputs are shifted left by 7 only: a few LSB of rounding */
        expect_near(got, clampi(floor(want + 0.5), lo, hi),
                    w == 1 ? 2.0 : 2.0 + fabs(want) * 1e-4, "sqdiff");
      }
    }
  }
  CHECK_EQ_INT(g_bad, 0);
}

/* ---- ADD_N, CUMSUM ---------------------------------------------------------
 */

static void test_add_n(void) {
  const float f0[3] = {1e8f, 1.0f, 0.5f}, f1[3] = {1.0f, 2.0f, 0.25f},
              f2[3] = {-1e8f, 3.0f, 0.125f};
  const float *fs[3];
  float fy[3];
  tflc_add_params p;
  int k, i;
  fs[0] = f0;
  fs[1] = f1;
  fs[2] = f2;
  /* summed in input order: (1e8 + 1) - 1e8 = 0 in float */
  tflc_add_n_f32(3, fs, 3, fy);
  CHECK(fy[0] == 0.0f && fy[1] == 6.0f && fy[2] == 0.875f);
  g_bad = 0;
  for (k = 0; k < 200; ++k) {
    const float si = rng_scale(), so = si * (float)rng_int(2, 6);
    const int32_t zi = rng_int(-50, 50), zo = rng_int(-50, 50);
    int8_t in[4][8], y[8];
    const int8_t *ps[4];
    CHECK(tflc_add_n_prepare_s8(si, zi, so, zo, &p));
    for (i = 0; i < 32; ++i)
      in[i / 8][i % 8] = (int8_t)rng_int(-128, 127);
    for (i = 0; i < 4; ++i)
      ps[i] = in[i];
    tflc_add_n_s8(&p, 4, ps, 8, y);
    for (i = 0; i < 8; ++i) {
      /* TFLM starts its sum at the scaled input offset: -zi counted once */
      const double sum = (double)si * (-zi) + (double)si * (in[0][i] - zi) +
                         (double)si * (in[1][i] - zi) +
                         (double)si * (in[2][i] - zi) +
                         (double)si * (in[3][i] - zi);
      expect_near(y[i], clampi(floor(sum / so + zo + 0.5), -128, 127), 1.0,
                  "add_n");
    }
  }
  CHECK_EQ_INT(g_bad, 0);
}

static void test_cumsum(void) {
  /* [2, 3] along axis 1: rows 1 2 3 / 4 5 6 */
  const int32_t dims[2] = {2, 3};
  const float x[6] = {1, 2, 3, 4, 5, 6};
  const float inc[6] = {1, 3, 6, 4, 9, 15}, exc[6] = {0, 1, 3, 0, 4, 9},
              rev[6] = {6, 5, 3, 15, 11, 6}, rexc[6] = {5, 3, 0, 11, 6, 0},
              ax0[6] = {1, 2, 3, 5, 7, 9};
  float y[6];
  tflc_add_params p;
  int8_t q[6], qy[6];
  int i;
  tflc_cumsum_f32(2, dims, 1, 0, 0, x, y);
  CHECK_EQ_MEM(y, inc, sizeof y);
  tflc_cumsum_f32(2, dims, 1, 1, 0, x, y);
  CHECK_EQ_MEM(y, exc, sizeof y);
  tflc_cumsum_f32(2, dims, 1, 0, 1, x, y);
  CHECK_EQ_MEM(y, rev, sizeof y);
  tflc_cumsum_f32(2, dims, 1, 1, 1, x, y);
  CHECK_EQ_MEM(y, rexc, sizeof y);
  tflc_cumsum_f32(2, dims, 0, 0, 0, x, y);
  CHECK_EQ_MEM(y, ax0, sizeof y);
  /* int8 with scale 1 in and out, zero point 0: the same sums */
  CHECK(tflc_add_n_prepare_s8(1.0f, 0, 1.0f, 0, &p));
  for (i = 0; i < 6; ++i)
    q[i] = (int8_t)x[i];
  tflc_cumsum_s8(&p, 2, dims, 1, 0, 1, q, qy);
  for (i = 0; i < 6; ++i)
    CHECK_EQ_INT(qy[i], (int32_t)rev[i]);
}

/* ---- CAST ------------------------------------------------------------------
 */

static void test_cast(void) {
  const int32_t i32[4] = {300, -1, -129, 70000};
  const uint32_t u32[2] = {0xFFFFFFFFu, 3000000000u};
  const float f[4] = {3.9f, -3.9f, 65535.0f, 0.0f};
  const uint8_t b[3] = {0, 1, 1};
  int8_t y8[4];
  int16_t y16[4];
  int32_t y32[4];
  uint32_t yu[4];
  float yf[4];
  /* narrowing wraps: 300 -> 44, -129 -> 127; 70000 -> 4464 in int16 */
  CHECK_EQ_INT(tflc_cast(TFLC_INT32, TFLC_INT8, 4, i32, y8), 0);
  CHECK(y8[0] == 44 && y8[1] == -1 && y8[2] == 127 && y8[3] == 112);
  CHECK_EQ_INT(tflc_cast(TFLC_INT32, TFLC_INT16, 4, i32, y16), 0);
  CHECK(y16[0] == 300 && y16[3] == 4464);
  CHECK_EQ_INT(tflc_cast(TFLC_INT32, TFLC_UINT32, 4, i32, yu), 0);
  CHECK(yu[1] == 0xFFFFFFFFu && yu[0] == 300);
  CHECK_EQ_INT(tflc_cast(TFLC_UINT32, TFLC_INT32, 2, u32, y32), 0);
  CHECK(y32[0] == -1 && y32[1] == (int32_t)(3000000000u - 4294967296.0));
  CHECK_EQ_INT(tflc_cast(TFLC_UINT32, TFLC_FLOAT32, 2, u32, yf), 0);
  CHECK(yf[0] == 4294967296.0f && yf[1] == 3000000000.0f);
  /* floats truncate toward zero */
  CHECK_EQ_INT(tflc_cast(TFLC_FLOAT32, TFLC_INT8, 2, f, y8), 0);
  CHECK(y8[0] == 3 && y8[1] == -3);
  CHECK_EQ_INT(tflc_cast(TFLC_FLOAT32, TFLC_UINT32, 3, f, yu), 0);
  CHECK(yu[0] == 3 && yu[2] == 65535);
  CHECK_EQ_INT(tflc_cast(TFLC_BOOL, TFLC_FLOAT32, 3, b, yf), 0);
  CHECK(yf[0] == 0.0f && yf[1] == 1.0f && yf[2] == 1.0f);
  CHECK_EQ_INT(tflc_cast(TFLC_INT8, TFLC_INT32, 2, y8, y32), 0);
  CHECK(y32[0] == 3 && y32[1] == -3);
  /* pairs TFLM does not cast */
  CHECK_EQ_INT(tflc_cast(TFLC_INT32, TFLC_BOOL, 1, i32, y8), -1);
  CHECK_EQ_INT(tflc_cast(TFLC_INT64, TFLC_INT32, 1, i32, y32), -1);
}

/* ---- logic, SELECT_V2
 * --------------------------------------------------------- */

static void test_logic_select(void) {
  const int32_t d23[2] = {2, 3}, d13[2] = {1, 3}, d21[2] = {2, 1};
  const uint8_t a[6] = {0, 1, 1, 0, 1, 0}, b[3] = {1, 1, 0};
  const uint8_t and_[6] = {0, 1, 0, 0, 1, 0}, or_[6] = {1, 1, 1, 1, 1, 0},
                not_[6] = {1, 0, 0, 1, 0, 1};
  uint8_t y[6];
  const int16_t x[3] = {10, 20, 30}, z[2] = {-1, -2};
  const int16_t sel[6] = {-1, 20, 30, -2, 20, -2};
  int16_t ys[6];
  tflc_logical(0, 2, d23, a, d13, b, d23, y);
  CHECK_EQ_MEM(y, and_, 6);
  tflc_logical(1, 2, d23, a, d13, b, d23, y);
  CHECK_EQ_MEM(y, or_, 6);
  tflc_logical_not(6, a, y);
  CHECK_EQ_MEM(y, not_, 6);
  /* cond [2,3], x [1,3], y [2,1] */
  tflc_select(2, 2, d23, a, d13, x, d21, z, d23, ys);
  CHECK_EQ_MEM(ys, sel, sizeof sel);
}

/* ---- int16 LOGISTIC / TANH / SOFTMAX ----------------------------------------
 */

static void test_sigmoid_s16(void) {
  int32_t m, s, l2, k, i;
  /* scale 2^-12 is the power-of-two case: multiplier 3, no shift */
  tflc_sigmoid_prepare_s16(0, 1.0f / 4096, &m, &s);
  CHECK(m == 3 && s == 0);
  /* tanh also takes 2^-11 that way, as 3 << 1 */
  tflc_sigmoid_prepare_s16(1, 1.0f / 2048, &m, &s);
  CHECK(m == 6 && s == 0);
  CHECK(tflc_checked_log2(1.0f / 32768, &l2) && l2 == -15);
  CHECK(!tflc_checked_log2(0.3f, &l2));
  /* nonsense scales (a fuzzed model's 1e35, negative) saturate the
   * multiplier instead of overflowing the conversion */
  tflc_sigmoid_prepare_s16(0, 1e35f, &m, &s);
  CHECK(m == INT32_MAX && s == 0);
  tflc_sigmoid_prepare_s16(1, -1.0f, &m, &s);
  CHECK(m == INT32_MIN);
  g_bad = 0;
  for (k = 0; k < 100; ++k) {
    const float sc = rng_scale() * 0.01f;
    int16_t x[64], y[64], t[64];
    for (i = 0; i < 64; ++i)
      x[i] = (int16_t)rng_int(-32768, 32767);
    tflc_sigmoid_prepare_s16(0, sc, &m, &s);
    tflc_logistic_s16(m, s, 64, x, y);
    tflc_sigmoid_prepare_s16(1, sc, &m, &s);
    tflc_tanh_s16(m, s, 64, x, t);
    for (i = 0; i < 64; ++i) {
      const double r = sc * x[i];
      expect_near(y[i] / 32768.0, 1.0 / (1.0 + exp(-r)), 2e-3, "logistic");
      expect_near(t[i] / 32768.0, tanh(r), 4e-3, "tanh");
    }
  }
  CHECK_EQ_INT(g_bad, 0);
}

static void test_softmax_s16(void) {
  static tflc_softmax_s16_params p; /* 2 KiB of tables */
  int k, i;
  g_bad = 0;
  for (k = 0; k < 60; ++k) {
    const float sc = rng_scale() * 0.004f, beta = 1.0f;
    int16_t x[2 * 10], y[2 * 10];
    tflc_softmax_prepare_s16(beta, sc, &p);
    for (i = 0; i < 20; ++i)
      x[i] = (int16_t)rng_int(-32768, 32767);
    tflc_softmax_s16(&p, 2, 10, x, y);
    for (i = 0; i < 20; ++i) {
      const int row = i / 10;
      double mx = -1e30, sum = 0;
      int j;
      for (j = 0; j < 10; ++j)
        mx = fmax(mx, sc * x[row * 10 + j]);
      for (j = 0; j < 10; ++j)
        sum += exp(sc * x[row * 10 + j] - mx);
      /* exp table on [-10, 0] and 1/(1+x) table: about 1e-3 */
      expect_near(y[i] / 32768.0, exp(sc * x[i] - mx) / sum, 2.5e-3,
                  "softmax16");
    }
  }
  CHECK_EQ_INT(g_bad, 0);
  /* exp(0) in the table is 1.0 (32767) */
  CHECK(p.exp_lut[512] == 32767);
  CHECK(p.recip_lut[0] == 32767);
}

/* ---- pools ------------------------------------------------------------------
 */

static void test_pools(void) {
  /* 1x2x2x1 input, 2x2 window, stride 2, VALID: one output */
  const int32_t in_dims[4] = {1, 2, 2, 1}, out_dims[4] = {1, 1, 1, 1};
  const int16_t h1[4] = {1, 2, 2, 1}, h2[4] = {-1, -2, -2, -1},
                h3[4] = {-5, 7, 3, 0};
  const float f[4] = {3.0f, -4.0f, 0.0f, 0.0f};
  tflc_pool_params p;
  int16_t y;
  float fy;
  memset(&p, 0, sizeof p);
  p.stride_h = p.stride_w = 2;
  p.filter_h = p.filter_w = 2;
  p.act_min = -32768;
  p.act_max = 32767;
  /* mean 1.5 -> 2, -1.5 -> -2: half away from zero */
  CHECK_EQ_INT(tflc_pool_s16(TFLC_POOL_AVERAGE, &p, in_dims, h1, out_dims, &y),
               TFLC_OK);
  CHECK_EQ_INT(y, 2);
  tflc_pool_s16(TFLC_POOL_AVERAGE, &p, in_dims, h2, out_dims, &y);
  CHECK_EQ_INT(y, -2);
  tflc_pool_s16(TFLC_POOL_MAX, &p, in_dims, h3, out_dims, &y);
  CHECK_EQ_INT(y, 7);
  p.act_max = 5; /* fused clamp */
  tflc_pool_s16(TFLC_POOL_MAX, &p, in_dims, h3, out_dims, &y);
  CHECK_EQ_INT(y, 5);
  /* float: L2 = sqrt((9 + 16) / 4) = 2.5, average -0.25, max 3 */
  tflc_pool_f32(TFLC_POOL_L2, &p, -FLT_MAX, FLT_MAX, in_dims, f, out_dims, &fy);
  CHECK(fy == 2.5f);
  tflc_pool_f32(TFLC_POOL_AVERAGE, &p, -FLT_MAX, FLT_MAX, in_dims, f, out_dims,
                &fy);
  CHECK(fy == -0.25f);
  tflc_pool_f32(TFLC_POOL_MAX, &p, 0.0f, 1.0f, in_dims, f, out_dims, &fy);
  CHECK(fy == 1.0f);
  /* SAME padding keeps windows partial: a 3x3 window at the corner of a
   * 2x2 input sees 4 values */
  p.stride_h = p.stride_w = 1;
  p.filter_h = p.filter_w = 3;
  p.pad_h = p.pad_w = 1;
  p.act_max = 32767;
  tflc_pool_s16(TFLC_POOL_AVERAGE, &p, in_dims, h3, out_dims, &y);
  CHECK_EQ_INT(y, 1); /* (-5 + 7 + 3 + 0) / 4 = 1.25 */
}

/* ---- reductions
 * -------------------------------------------------------------- */

static void test_reductions(void) {
  const int32_t dims[3] = {2, 3, 2};
  const float f[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const int8_t q[12] = {5, -3, 9, 0, -128, 127, 1, 2, 3, 4, 5, 6};
  const uint8_t b[12] = {1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1};
  float fy[6];
  int8_t qy[6];
  uint8_t by[6];
  tflc_mean_params p;
  int k, i;
  /* MEAN over axis 1: (1 + 3 + 5) / 3, (2 + 4 + 6) / 3, ... */
  tflc_mean_f32(3, dims, 2u, f, fy);
  CHECK(fy[0] == 3.0f && fy[1] == 4.0f && fy[2] == 9.0f && fy[3] == 10.0f);
  /* over axes 0 and 2 */
  tflc_mean_f32(3, dims, 5u, f, fy);
  CHECK(fy[0] == 4.5f && fy[1] == 6.5f && fy[2] == 8.5f);
  tflc_reduce_minmax(TFLC_FLOAT32, 1, 3, dims, 2u, f, fy);
  CHECK(fy[0] == 5.0f && fy[1] == 6.0f && fy[3] == 12.0f);
  tflc_reduce_minmax(TFLC_INT8, 0, 3, dims, 2u, q, qy);
  CHECK(qy[0] == -128 && qy[1] == -3 && qy[2] == 1 && qy[3] == 2);
  tflc_reduce_minmax(TFLC_INT8, 1, 3, dims, 7u, q, qy);
  CHECK(qy[0] == 127);
  tflc_reduce_all(3, dims, 2u, b, by);
  CHECK(by[0] == 1 && by[1] == 0 && by[2] == 1 && by[3] == 1);
  tflc_reduce_all(3, dims, 7u, b, by);
  CHECK(by[0] == 0);
  /* int16 MEAN against float */
  g_bad = 0;
  for (k = 0; k < 200; ++k) {
    const int32_t d[3] = {rng_int(1, 4), rng_int(1, 5), rng_int(1, 6)};
    const uint32_t mask = (uint32_t)rng_int(1, 7);
    const float si = rng_scale(), so = si * (float)(0.5 + rng_int(1, 4));
    int16_t x[120], y[120];
    int32_t n = d[0] * d[1] * d[2], nred = 1, o, a0, a1, a2;
    for (i = 0; i < n; ++i)
      x[i] = (int16_t)rng_int(-32768, 32767);
    tflc_quantize_multiplier((double)si / (double)so, &p.multiplier, &p.shift);
    p.input_zp = p.output_zp = 0;
    tflc_mean_q(&p, 2, 3, d, mask, x, y);
    for (i = 0; i < 3; ++i)
      if (mask & (1u << i))
        nred *= d[i];
    o = 0;
    for (a0 = 0; a0 < ((mask & 1u) ? 1 : d[0]); ++a0)
      for (a1 = 0; a1 < ((mask & 2u) ? 1 : d[1]); ++a1)
        for (a2 = 0; a2 < ((mask & 4u) ? 1 : d[2]); ++a2) {
          double sum = 0;
          int32_t r0, r1, r2;
          for (r0 = 0; r0 < ((mask & 1u) ? d[0] : 1); ++r0)
            for (r1 = 0; r1 < ((mask & 2u) ? d[1] : 1); ++r1)
              for (r2 = 0; r2 < ((mask & 4u) ? d[2] : 1); ++r2)
                sum += x[((a0 + r0) * d[1] + (a1 + r1)) * d[2] + (a2 + r2)];
          expect_near(y[o++],
                      clampi(floor(sum * si / nred / so + 0.5), -32768, 32767),
                      1.0, "mean16");
        }
  }
  CHECK_EQ_INT(g_bad, 0);
}

/* ---- one-operator models: dispatch and refusals ----------------------------
 */

typedef struct tspec {
  int type;
  int32_t rank;
  int32_t dims[4];
  float scale; /* 0: not quantized */
  int64_t zp;
  const void *data; /* constant data or NULL */
  size_t size;
} tspec;

static uint8_t g_arena[1 << 16];
static char g_err[TFLC_ERROR_LEN];

static tspec ts(int type, int32_t n, float scale, int64_t zp) {
  tspec t;
  memset(&t, 0, sizeof t);
  t.type = type;
  t.rank = 1;
  t.dims[0] = n;
  t.scale = scale;
  t.zp = zp;
  return t;
}

/* One operator with nin (<= 3) inputs and one output; the non-constant
 * inputs are fed from `feed` in order. Returns the status of init or
 * invoke; the output bytes go to `out`. */
static tflc_status run_op(int32_t code, uint8_t opt_type, int32_t nopts,
                          const tflc_w_option *opts, int32_t nin,
                          const tspec *in, const tspec *out_spec,
                          const void *const *feed, void *out) {
  tflc_writer *w = tflc_writer_create();
  int32_t ti[3], to = 0, k, nfeed = 0, feeds[3];
  uint8_t *bytes = NULL;
  size_t size = 0;
  tflc_model m;
  static tflc_interpreter it;
  tflc_status st;
  for (k = 0; k <= nin; ++k) {
    const tspec *t = k < nin ? &in[k] : out_spec;
    tflc_w_quant q;
    q.scale = &t->scale;
    q.zero_point = &t->zp;
    q.count = 1;
    q.axis = 0;
    if (k < nin) {
      ti[k] = tflc_writer_tensor(w, 0, t->type, t->rank, t->dims, t->data,
                                 t->size, NULL, t->scale > 0 ? &q : NULL);
      if (!t->data)
        feeds[nfeed++] = ti[k];
    } else {
      to = tflc_writer_tensor(w, 0, t->type, t->rank, t->dims, NULL, 0, NULL,
                              t->scale > 0 ? &q : NULL);
    }
  }
  tflc_writer_op(w, 0, code, NULL, nin, ti, 1, &to, opt_type, nopts, opts);
  tflc_writer_inputs(w, 0, nfeed, feeds);
  tflc_writer_outputs(w, 0, 1, &to);
  st = tflc_writer_finish(w, &bytes, &size);
  tflc_writer_destroy(w);
  if (st != TFLC_OK)
    return st;
  g_err[0] = 0;
  st = tflc_model_init(&m, bytes, size);
  if (st == TFLC_OK) {
    st = tflc_interpreter_init(&it, &m, g_arena, sizeof g_arena, NULL);
    if (st == TFLC_OK) {
      for (k = 0; k < nfeed; ++k)
        memcpy(tflc_input(&it, k)->data, feed[k], tflc_input(&it, k)->bytes);
      st = tflc_invoke(&it);
      if (st == TFLC_OK)
        memcpy(out, tflc_output(&it, 0)->data, tflc_output(&it, 0)->bytes);
    }
    if (st != TFLC_OK)
      memcpy(g_err, it.error, sizeof g_err);
  }
  free(bytes);
  return st;
}

static void test_models(void) {
  const int32_t ia[4] = {7, -7, 9, 100}, ib[4] = {2, 2, -3, 0};
  const float fa[4] = {-7.0f, 7.5f, 0.5f, -0.5f}, fb[4] = {2.0f, 2.0f, 1, 1};
  const int16_t h[4] = {-4096, 0, 4096, 32767};
  const uint8_t cond[4] = {1, 0, 1, 0};
  const void *feed[3];
  int32_t y32[4];
  float yf[4];
  int16_t y16[4];
  int8_t y8[4];
  tspec in[3], o;
  tflc_w_option opt;
  memset(&opt, 0, sizeof opt);
  /* int32 ADD through the interpreter (ADD's int8 / int16 / float paths
   * stay where they were) */
  in[0] = ts(TFLC_INT32, 4, 0, 0);
  in[1] = ts(TFLC_INT32, 4, 0, 0);
  o = ts(TFLC_INT32, 4, 0, 0);
  feed[0] = ia;
  feed[1] = ib;
  CHECK_EQ_INT(run_op(0, 0, 0, NULL, 2, in, &o, feed, y32), TFLC_OK);
  CHECK(y32[0] == 9 && y32[1] == -5 && y32[2] == 6 && y32[3] == 100);
  /* int32 MUL with fused RELU6 */
  opt.kind = TFLC_W_U8;
  opt.i = 3;
  CHECK_EQ_INT(run_op(18, 21, 1, &opt, 2, in, &o, feed, y32), TFLC_OK);
  CHECK(y32[0] == 6 && y32[1] == 0 && y32[2] == 0 && y32[3] == 0);
  /* int32 DIV by zero fails at invoke */
  CHECK_EQ_INT(run_op(42, 0, 0, NULL, 2, in, &o, feed, y32), TFLC_ERR_KERNEL);
  /* FLOOR_MOD float */
  in[0] = ts(TFLC_FLOAT32, 4, 0, 0);
  in[1] = ts(TFLC_FLOAT32, 4, 0, 0);
  o = ts(TFLC_FLOAT32, 4, 0, 0);
  feed[0] = fa;
  feed[1] = fb;
  CHECK_EQ_INT(run_op(95, 0, 0, NULL, 2, in, &o, feed, yf), TFLC_OK);
  CHECK(yf[0] == 1.0f && yf[1] == 1.5f && yf[2] == 0.5f && yf[3] == 0.5f);
  /* ROUND float */
  CHECK_EQ_INT(run_op(116, 0, 0, NULL, 1, in, &o, feed, yf), TFLC_OK);
  CHECK(yf[0] == -7.0f && yf[1] == 8.0f && yf[2] == 0.0f);
  /* SELECT_V2 int16 */
  in[0] = ts(TFLC_BOOL, 4, 0, 0);
  in[1] = ts(TFLC_INT16, 4, 0, 0);
  in[2] = ts(TFLC_INT16, 1, 0, 0);
  o = ts(TFLC_INT16, 4, 0, 0);
  feed[0] = cond;
  feed[1] = h;
  feed[2] = &h[3];
  CHECK_EQ_INT(run_op(123, 0, 0, NULL, 3, in, &o, feed, y16), TFLC_OK);
  CHECK(y16[0] == -4096 && y16[1] == 32767 && y16[2] == 4096 &&
        y16[3] == 32767);
  /* int16 LOGISTIC: output scale must be 2^-15 */
  in[0] = ts(TFLC_INT16, 4, 1.0f / 4096, 0);
  o = ts(TFLC_INT16, 4, 1.0f / 32768, 0);
  feed[0] = h;
  CHECK_EQ_INT(run_op(14, 0, 0, NULL, 1, in, &o, feed, y16), TFLC_OK);
  CHECK(y16[1] == 16384); /* sigmoid(0) = 0.5 */
  o = ts(TFLC_INT16, 4, 1.0f / 16384, 0);
  CHECK_EQ_INT(run_op(14, 0, 0, NULL, 1, in, &o, feed, y16), TFLC_ERR_QUANT);
  /* RSQRT int16 is refused at prepare (as TFLM) */
  o = ts(TFLC_INT16, 4, 1.0f / 4096, 0);
  CHECK_EQ_INT(run_op(76, 0, 0, NULL, 1, in, &o, feed, y16),
               TFLC_ERR_UNSUPPORTED);
  /* SIN of int8 is refused */
  in[0] = ts(TFLC_INT8, 4, 0.1f, 0);
  o = ts(TFLC_INT8, 4, 0.1f, 0);
  feed[0] = y8;
  memset(y8, 0, sizeof y8);
  CHECK_EQ_INT(run_op(66, 0, 0, NULL, 1, in, &o, feed, y8),
               TFLC_ERR_UNSUPPORTED);
  /* CAST to bool is refused; int8 -> float32 runs */
  o = ts(TFLC_BOOL, 4, 0, 0);
  CHECK_EQ_INT(run_op(53, 0, 0, NULL, 1, in, &o, feed, y8),
               TFLC_ERR_UNSUPPORTED);
  o = ts(TFLC_FLOAT32, 4, 0, 0);
  CHECK_EQ_INT(run_op(53, 0, 0, NULL, 1, in, &o, feed, yf), TFLC_OK);
  CHECK(yf[0] == 0.0f && yf[3] == 0.0f);
  /* LOGICAL_AND needs bool */
  in[1] = ts(TFLC_INT8, 4, 0.1f, 0);
  feed[1] = y8;
  o = ts(TFLC_BOOL, 4, 0, 0);
  CHECK_EQ_INT(run_op(86, 0, 0, NULL, 2, in, &o, feed, y8),
               TFLC_ERR_UNSUPPORTED);
  /* ADD_N inputs must be quantized alike */
  in[1] = ts(TFLC_INT8, 4, 0.2f, 0);
  o = ts(TFLC_INT8, 4, 0.1f, 0);
  CHECK_EQ_INT(run_op(106, 0, 0, NULL, 2, in, &o, feed, y8), TFLC_ERR_QUANT);
  in[1] = ts(TFLC_INT8, 4, 0.1f, 0);
  CHECK_EQ_INT(run_op(106, 0, 0, NULL, 2, in, &o, feed, y8), TFLC_OK);
}

int main(void) {
  RUN(test_math_f32_hand);
  RUN(test_abs_rsqrt);
  RUN(test_elu_table);
  RUN(test_arith_f32_hand);
  RUN(test_arith_i32);
  RUN(test_div_s8);
  RUN(test_squared_difference_q);
  RUN(test_add_n);
  RUN(test_cumsum);
  RUN(test_cast);
  RUN(test_logic_select);
  RUN(test_sigmoid_s16);
  RUN(test_softmax_s16);
  RUN(test_pools);
  RUN(test_reductions);
  RUN(test_models);
  return harness_report();
}

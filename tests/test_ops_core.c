/* tests/test_ops_core.c - the int8 core operators besides convolutions:
 * pooling, softmax, add, mean, pad, transpose and (de)quantize kernels.
 *
 * Three kinds of evidence:
 *   - hand-computed values for small cases (worked out in the comments);
 *   - outputs recorded from TFLM's reference kernels (the conformance cases
 *     named in the comments; inputs are regenerated here from the case's
 *     seed with the same xorshift32 generator, outputs are copied);
 *   - an independent reference written in this file straight from
 *     reference/INT8_KERNELS.md (sections 1, 3.1, 4, 5.1, 6.1, 6.3), with
 *     its own fixed-point primitives, compared on many random inputs. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_KERNELS_IMPLEMENTATION
#endif
#include "../tflc_kernels.h"
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- test utilities ---------------------------------------------------- */

static float rng_scale(void) { /* log-uniform in about [1e-4, 0.5] */
  return rng_log_uniform(-9.2, 8.5);
}

static uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static int8_t clamp8(int64_t v) {
  return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
}

/* ---- independent fixed-point reference (from INT8_KERNELS.md §1) ------- */

/* floor(a / 2^n) for int64 without relying on >> of negatives */
static int64_t ref_floor_pot(int64_t a, int n) {
  const int64_t d = (int64_t)1 << n;
  int64_t q = a / d;
  if (a % d != 0 && a < 0)
    --q;
  return q;
}

/* QuantizeMultiplier (§1.2) */
static void ref_qm(double m, int32_t *q, int32_t *shift) {
  int e;
  double f;
  int64_t qq;
  if (m == 0.0) {
    *q = 0;
    *shift = 0;
    return;
  }
  f = frexp(m, &e);
  qq = (int64_t)round(f * 2147483648.0);
  if (qq == ((int64_t)1 << 31)) {
    qq = (int64_t)1 << 30;
    ++e;
  }
  if (e < -31) {
    qq = 0;
    e = 0;
  }
  *q = (int32_t)qq;
  *shift = e;
}

/* SRDHM (§1.3): round(a*b / 2^31), ties toward +inf, one saturating case */
static int32_t ref_srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN)
    return INT32_MAX;
  return (int32_t)ref_floor_pot((int64_t)a * b + ((int64_t)1 << 30), 31);
}

/* RDBPOT (§1.3): x / 2^n rounded half away from zero */
static int32_t ref_rdbpot(int32_t x, int n) {
  int64_t m;
  if (n == 0)
    return x;
  m = x < 0 ? -(int64_t)x : (int64_t)x;
  m = (m + ((int64_t)1 << (n - 1))) >> n;
  return (int32_t)(x < 0 ? -m : m);
}

/* MultiplyByQuantizedMultiplier, double rounding (§1.4) */
static int32_t ref_mbqm(int32_t x, int32_t q, int32_t shift) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  return ref_rdbpot(ref_srdhm((int32_t)(x * ((int64_t)1 << left)), q), right);
}

/* saturating x * 2^e (Rescale to fewer integer bits) */
static int32_t ref_sat_pot(int32_t x, int e) {
  const int64_t v = (int64_t)x * ((int64_t)1 << e);
  return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

/* exp on [-1/4, 0), Q0.31 */
static int32_t ref_exp_interval(int32_t a) {
  const int32_t c = 1895147668;
  int32_t x, x2, x3, x4, t;
  x = a + (1 << 28);
  x2 = ref_srdhm(x, x);
  x3 = ref_srdhm(x2, x);
  x4 = ref_srdhm(x2, x2);
  t = ref_rdbpot(ref_srdhm(ref_rdbpot(x4, 2) + x3, 715827883) + x2, 1);
  return c + ref_srdhm(c, x + t);
}

/* exp_on_negative_values for Q5.26 input only (k = 5, f = 26) */
static int32_t ref_exp_q5(int32_t a) {
  static const int32_t mult[7] = {1672461947, 1302514674, 790015084, 290630308,
                                  39332535,   720401,     242};
  const int32_t quarter = 1 << 24;
  const int32_t amod = (a & (quarter - 1)) - quarter;
  const int32_t rem = amod - a;
  int32_t r = ref_exp_interval(ref_sat_pot(amod, 5));
  int i;
  for (i = 0; i < 7; ++i) /* bits 24 .. 30 of the remainder */
    if ((rem >> (24 + i)) & 1)
      r = ref_srdhm(r, mult[i]);
  return a == 0 ? INT32_MAX : r;
}

/* 1/(1+a), a in [0,1), Q0.31 */
static int32_t ref_one_over_1px(int32_t a) {
  const int64_t s = (int64_t)a + INT32_MAX;
  const int32_t d = (int32_t)((s + (s >= 0 ? 1 : -1)) / 2);
  int32_t x = 1515870810 + ref_srdhm(d, -1010580540);
  int i;
  for (i = 0; i < 3; ++i)
    x = x + ref_sat_pot(ref_srdhm(x, (1 << 29) - ref_srdhm(d, x)), 2);
  return ref_sat_pot(x, 1);
}

/* Softmax int8 -> int8 per §5.1 (prepare and one row) */
static void ref_softmax_prepare(float beta, float scale, int32_t *mult,
                                int32_t *shift, int32_t *diff_min) {
  double real = (double)beta * (double)scale * 67108864.0;
  if (real > 2147483647.0)
    real = 2147483647.0;
  ref_qm(real, mult, shift);
  *diff_min = -(int32_t)floor(31.0 * 67108864.0 / pow(2.0, *shift));
}

static void ref_softmax_row(int32_t mult, int32_t shift, int32_t diff_min,
                            int n, const int8_t *x, int8_t *y) {
  int32_t mx = -128, sum = 0, recip;
  int i, h, expo;
  uint32_t u;
  for (i = 0; i < n; ++i)
    if (x[i] > mx)
      mx = x[i];
  for (i = 0; i < n; ++i)
    if (x[i] - mx >= diff_min)
      sum += ref_rdbpot(ref_exp_q5(ref_mbqm(x[i] - mx, mult, shift)), 12);
  u = (uint32_t)sum;
  for (h = 0; h < 32 && !(u & (0x80000000u >> h)); ++h) {
  }
  recip = ref_one_over_1px((int32_t)((u << h) - 0x80000000u));
  expo = (12 - h) + 31 - 8;
  for (i = 0; i < n; ++i) {
    if (x[i] - mx >= diff_min) {
      const int32_t e = ref_exp_q5(ref_mbqm(x[i] - mx, mult, shift));
      y[i] = clamp8((int64_t)ref_rdbpot(ref_srdhm(recip, e), expo) - 128);
    } else {
      y[i] = -128;
    }
  }
}

/* ADD int8 per §3.1 */
typedef struct ref_add {
  int32_t z1, z2, zo, q1, s1, q2, s2, qo, so, lo, hi;
} ref_add;

static void ref_add_prepare(float s1, int32_t z1, float s2, int32_t z2,
                            float so, int32_t zo, int32_t lo, int32_t hi,
                            ref_add *r) {
  const double tm = 2.0 * (double)(s1 > s2 ? s1 : s2);
  ref_qm((double)s1 / tm, &r->q1, &r->s1);
  ref_qm((double)s2 / tm, &r->q2, &r->s2);
  ref_qm(tm / (1048576.0 * (double)so), &r->qo, &r->so);
  r->z1 = z1;
  r->z2 = z2;
  r->zo = zo;
  r->lo = lo;
  r->hi = hi;
}

static int8_t ref_add_one(const ref_add *r, int32_t x1, int32_t x2) {
  const int32_t a =
      ref_rdbpot(ref_srdhm((x1 - r->z1) * 1048576, r->q1), -r->s1);
  const int32_t b =
      ref_rdbpot(ref_srdhm((x2 - r->z2) * 1048576, r->q2), -r->s2);
  int32_t y = ref_rdbpot(ref_srdhm(a + b, r->qo), -r->so) + r->zo;
  y = y < r->lo ? r->lo : y;
  y = y > r->hi ? r->hi : y;
  return (int8_t)y;
}

/* MEAN int8 per §6.1 over an arbitrary axis set (sums by output index) */
static void ref_mean(int32_t q, int32_t shift, int32_t zi, int32_t zo, int rank,
                     const int32_t *dims, uint32_t mask, const int8_t *in,
                     int8_t *out) {
  static int64_t sums[4096];
  int64_t n_red = 1;
  int32_t n_in = 1, n_out = 1, i, k, sh;
  for (k = 0; k < rank; ++k) {
    n_in *= dims[k];
    if (mask & (1u << k))
      n_red *= dims[k];
    else
      n_out *= dims[k];
  }
  for (i = 0; i < n_out; ++i)
    sums[i] = 0;
  for (i = 0; i < n_in; ++i) {
    int32_t rest = i, o = 0, mul = 1;
    for (k = rank - 1; k >= 0; --k) {
      const int32_t c = rest % dims[k];
      rest /= dims[k];
      if (!(mask & (1u << k))) {
        o += c * mul;
        mul *= dims[k];
      }
    }
    sums[o] += in[i];
  }
  for (sh = 0; ((int64_t)2 << sh) <= n_red; ++sh) {
  } /* floor(log2 N) */
  if (sh > 32)
    sh = 32;
  if (sh > 31 + shift)
    sh = 31 + shift;
  q = (int32_t)(((int64_t)q << sh) / n_red);
  shift -= sh;
  for (i = 0; i < n_out; ++i)
    out[i] = clamp8(
        (int64_t)ref_mbqm((int32_t)(sums[i] - (int64_t)zi * n_red), q, shift) +
        zo);
}

/* ---- softmax ------------------------------------------------------------ */

/* The fixed-point helpers of the fragment (static, so visible here),
 * swept over their whole input range against the reference above and
 * against double precision. */
static void test_fixed_point_helpers(void) {
  int64_t a;
  int bad = 0, bad_real = 0, bits;
  int32_t i;
  /* exp(0) = One. exp(-1/4): the rest is -1/4 itself, so only the
   * interval polynomial at its lower end. exp(-1): rest -1/4, multiple 3/4
   * (remainder bits 24 and 25), so the polynomial times exp(-1/4) times
   * exp(-1/2). Values as gemmlowp's exp_on_negative_values<5> computes them
   * (true values 1672461946.7 and 790015084.4). */
  CHECK_EQ_INT(tflc__fp_exp_neg(0, 5), INT32_MAX);
  CHECK_EQ_INT(tflc__fp_exp_neg(-(1 << 24), 5), 1672462419);
  CHECK_EQ_INT(tflc__fp_exp_neg(-(1 << 26), 5), 790015308);
  for (a = 0; a >= -(int64_t)31 * (1 << 26); a -= 977) {
    const int32_t e = tflc__fp_exp_neg((int32_t)a, 5);
    const double want = exp((double)a / 67108864.0) * 2147483648.0;
    bad += e != ref_exp_q5((int32_t)a);
    bad_real += fabs((double)e - want) > 1024.0; /* 4.8e-7 */
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(bad_real, 0);
  /* one_over_one_plus_x on [0, 1) */
  bad = bad_real = 0;
  for (a = 0; a <= INT32_MAX; a += 1013) {
    const int32_t r = tflc__fp_recip_1px((int32_t)a);
    const double want = 2147483648.0 / (1.0 + (double)a / 2147483648.0);
    bad += r != ref_one_over_1px((int32_t)a);
    bad_real += fabs((double)r - want) > 64.0;
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(bad_real, 0);
  /* GetReciprocal with 12 integer bits: 1.0 (2^19) -> ~One, 0 bits over;
   * 3.0 = 1.5 * 2^1 -> 1 bit over unit, 1 / 1.5 (then scaled by 2^-1) */
  i = tflc__fp_reciprocal(1 << 19, 12, &bits);
  CHECK(bits == 0 && i >= INT32_MAX - 2);
  i = tflc__fp_reciprocal(3 << 19, 12, &bits);
  CHECK(bits == 1 && fabs((double)i - 2147483648.0 / 1.5) < 64.0);
}

static void test_softmax_prepare_hand(void) {
  tflc_softmax_params p;
  /* beta 1, scale 2^-8: real = 2^-8 * 2^26 = 2^18 = 0.5 * 2^19 -> q = 2^30,
   * shift 19; radius = floor(31 * 2^26 / 2^19) = 31 * 128 = 3968 */
  tflc_softmax_prepare_s8(1.0f, 0.00390625f, &p);
  CHECK_EQ_INT(p.input_multiplier, 1 << 30);
  CHECK_EQ_INT(p.input_left_shift, 19);
  CHECK_EQ_INT(p.diff_min, -3968);
  /* beta 0.5, scale 2^-5: real = 2^20 -> q = 2^30, shift 21, radius 992 */
  tflc_softmax_prepare_s8(0.5f, 0.03125f, &p);
  CHECK_EQ_INT(p.input_multiplier, 1 << 30);
  CHECK_EQ_INT(p.input_left_shift, 21);
  CHECK_EQ_INT(p.diff_min, -992);
  /* beta 1, scale 0.75 * 2^-6: real = 0.75 * 2^20 -> q = 0.75 * 2^31 =
   * 1610612736, shift 20; radius = floor(31 * 2^26 / 2^20) = 1984 */
  tflc_softmax_prepare_s8(1.0f, 0.01171875f, &p);
  CHECK_EQ_INT(p.input_multiplier, 1610612736);
  CHECK_EQ_INT(p.input_left_shift, 20);
  CHECK_EQ_INT(p.diff_min, -1984);
}

static void test_softmax_hand(void) {
  tflc_softmax_params p;
  int8_t in[256], out[256];
  int i, ok;
  tflc_softmax_prepare_s8(1.0f, 0.0625f, &p);
  /* One element: exp(0) = One; sum = RDBPOT(2^31 - 1, 12) = 2^19 (Q12.19
   * one); clz = 12 -> bits over unit 0, reciprocal of 1.0 ~ 2^31 - 1,
   * exponent 23: (2^31 - 2) / 2^23 rounds to 256; 256 - 128 = 128 clamps to
   * 127. */
  in[0] = 5;
  tflc_softmax_s8(&p, 1, 1, in, out);
  CHECK_EQ_INT(out[0], 127);
  /* Four equal values: sum = 2^21, clz 10 -> bits over unit 2, normalized
   * sum 1.0 -> reciprocal ~ 1; exponent 25: (2^31 - 2) / 2^25 -> 64 ->
   * 64 - 128 = -64 each (1/4 * 256). */
  for (i = 0; i < 4; ++i)
    in[i] = -7;
  tflc_softmax_s8(&p, 1, 4, in, out);
  for (i = 0; i < 4; ++i)
    CHECK_EQ_INT(out[i], -64);
  /* Two equal values: 1/2 -> 128 - 128 = 0. */
  in[0] = in[1] = 127;
  tflc_softmax_s8(&p, 1, 2, in, out);
  CHECK_EQ_INT(out[0], 0);
  CHECK_EQ_INT(out[1], 0);
  /* 256 equal values: sum 2^27, exponent 31; (2^31 - 2) / 2^31 rounds to 1
   * -> -127 each. */
  for (i = 0; i < 256; ++i)
    in[i] = 3;
  tflc_softmax_s8(&p, 1, 256, in, out);
  ok = 1;
  for (i = 0; i < 256; ++i)
    ok &= out[i] == -127;
  CHECK(ok);
  /* diff_min: with beta 1, scale 2^-8 diff_min is -3968, never reached by
   * int8; with a large scale (beta*scale*2^26 = 2^31 - 1 capped, shift 31)
   * the radius is floor(31 * 2^26 / 2^31) = 0, so only the maximum itself
   * contributes: it gets 127 (probability 1), everything else -128. */
  tflc_softmax_prepare_s8(1.0f, 100.0f, &p);
  CHECK_EQ_INT(p.input_left_shift, 31);
  CHECK_EQ_INT(p.diff_min, 0);
  in[0] = 10;
  in[1] = 9;
  in[2] = 10;
  in[3] = -128;
  tflc_softmax_s8(&p, 1, 4, in, out);
  CHECK_EQ_INT(out[0], 0); /* two maxima share: 1/2 */
  CHECK_EQ_INT(out[1], -128);
  CHECK_EQ_INT(out[2], 0);
  CHECK_EQ_INT(out[3], -128);
}

static void test_softmax_tflm(void) {
  /* SOFTMAX/i8_1x10_beta1: scale 0.00785196479, zp -19 */
  static const int8_t e1[10] = {-74,  -118, -110, -107, -109,
                                -113, -118, -93,  -110, -72};
  /* SOFTMAX/i8_2x16_beta0.5_zp-128: scale 0.0101720151 */
  static const int8_t e2[32] = {-97,  -119, -110, -118, -111, -101, -118, -118,
                                -113, -111, -117, -112, -109, -117, -110, -111,
                                -101, -115, -107, -116, -100, -110, -117, -119,
                                -119, -114, -113, -119, -115, -119, -106, -102};
  /* SOFTMAX/i8_4x33_beta0.1_zp127: scale 0.0382276922 */
  static const int8_t e3[132] = {
      -119, -123, -123, -123, -120, -118, -122, -119, -121, -119, -116, -122,
      -119, -123, -119, -121, -122, -119, -120, -118, -121, -121, -119, -120,
      -117, -123, -121, -123, -121, -118, -123, -119, -117, -123, -120, -121,
      -123, -119, -122, -121, -123, -122, -122, -119, -123, -120, -116, -120,
      -118, -117, -120, -122, -122, -119, -118, -122, -119, -116, -120, -120,
      -123, -122, -119, -120, -116, -121, -120, -121, -121, -121, -122, -117,
      -123, -122, -121, -121, -118, -123, -117, -119, -121, -121, -120, -122,
      -122, -121, -121, -119, -119, -120, -123, -118, -117, -123, -117, -117,
      -119, -118, -123, -119, -119, -119, -121, -120, -122, -122, -122, -123,
      -123, -117, -122, -124, -117, -121, -121, -121, -121, -121, -121, -120,
      -121, -118, -123, -121, -117, -117, -118, -120, -123, -118, -119, -118};
  /* SOFTMAX/f32_1x10_beta1, float bits */
  static const uint32_t e4[10] = {
      0x3D7EF93Du, 0x3D3D97D5u, 0x3D6D8587u, 0x3DB1F79Cu, 0x3DAE0066u,
      0x3E30234Fu, 0x3D365AD3u, 0x3E2856CFu, 0x3DEFF529u, 0x3E2772EDu};
  int8_t in[132], out[132];
  float fi[10], fo[10];
  tflc_softmax_params p;
  int i, ok;
  conformance_i8(1503040u, 0, in, 10);
  tflc_softmax_prepare_s8(1.0f, 0.00785196479f, &p);
  tflc_softmax_s8(&p, 1, 10, in, out);
  CHECK_EQ_MEM(out, e1, 10);
  conformance_i8(1503041u, 0, in, 32);
  tflc_softmax_prepare_s8(0.5f, 0.0101720151f, &p);
  tflc_softmax_s8(&p, 2, 16, in, out);
  CHECK_EQ_MEM(out, e2, 32);
  conformance_i8(1503043u, 0, in, 132);
  tflc_softmax_prepare_s8(0.1f, 0.0382276922f, &p);
  tflc_softmax_s8(&p, 4, 33, in, out);
  CHECK_EQ_MEM(out, e3, 132);
  conformance_f32(1503045u, 0, fi, 10);
  tflc_softmax_f32(1.0f, 1, 10, fi, fo);
  ok = 1;
  for (i = 0; i < 10; ++i)
    ok &= f2u(fo[i]) == e4[i];
  CHECK(ok);
}

static void test_softmax_vs_reference(void) {
  int8_t in[300], out[300], ref[300];
  int it, i, bad_exact = 0, bad_real = 0, bad_prep = 0;
  for (it = 0; it < 3000; ++it) {
    const float beta = it % 4 == 0 ? 1.0f : (float)rng_int(1, 400) / 100.0f;
    const float scale = rng_scale();
    const int n = rng_int(1, it % 10 == 0 ? 300 : 40);
    const int lo = it % 3 == 0 ? -128 : rng_int(-128, 127);
    const int hi = it % 3 == 0 ? 127 : rng_int(lo, 127);
    int32_t m, s, dm;
    tflc_softmax_params p;
    double sum = 0.0;
    if ((double)beta * (double)scale * 67108864.0 <= 1.0)
      continue; /* TFLM refuses these */
    for (i = 0; i < n; ++i)
      in[i] = (int8_t)rng_int(lo, hi);
    ref_softmax_prepare(beta, scale, &m, &s, &dm);
    tflc_softmax_prepare_s8(beta, scale, &p);
    bad_prep +=
        p.input_multiplier != m || p.input_left_shift != s || p.diff_min != dm;
    tflc_softmax_s8(&p, 1, n, in, out);
    ref_softmax_row(m, s, dm, n, in, ref);
    bad_exact += n > 0 && memcmp(out, ref, (size_t)n) != 0;
    /* and against real arithmetic: within one step of 256 * p - 128 */
    {
      int32_t mx = -128;
      for (i = 0; i < n; ++i)
        mx = in[i] > mx ? in[i] : mx;
      for (i = 0; i < n; ++i)
        sum += exp((double)beta * (double)scale * (double)(in[i] - mx));
      for (i = 0; i < n; ++i) {
        const double pr =
            exp((double)beta * (double)scale * (double)(in[i] - mx)) / sum;
        const int32_t want = clamp8((int64_t)floor(pr * 256.0 + 0.5) - 128);
        bad_real += abs(out[i] - want) > 1;
      }
    }
  }
  CHECK_EQ_INT(bad_prep, 0);
  CHECK_EQ_INT(bad_exact, 0);
  CHECK_EQ_INT(bad_real, 0);
}

static void test_softmax_f32(void) {
  float in[64], out[64], ref[64];
  int it, i, bad = 0;
  /* hand: equal values -> exp(0) = 1 each, 1/4 exactly; two rows */
  for (i = 0; i < 8; ++i)
    in[i] = i < 4 ? 2.5f : -1.0f;
  in[7] = 1.0f;
  tflc_softmax_f32(0.7f, 2, 4, in, out);
  CHECK(out[0] == 0.25f && out[1] == 0.25f && out[2] == 0.25f &&
        out[3] == 0.25f);
  /* second row [-1,-1,-1,1], beta 0.7: 1/(3 e^-1.4 + 1) for the max */
  CHECK(fabs(out[7] - 1.0 / (3.0 * exp(-1.4) + 1.0)) < 1e-6);
  CHECK(fabs(out[4] - exp(-1.4) / (3.0 * exp(-1.4) + 1.0)) < 1e-6);
  /* the row maximum starts at the lowest float, so an all-negative row
   * far from 0 still works: [-200, -201] -> [1/(1+e^-1), e^-1/(1+e^-1)] */
  in[0] = -200.0f;
  in[1] = -201.0f;
  tflc_softmax_f32(1.0f, 1, 2, in, out);
  CHECK(fabs(out[0] - 1.0 / (1.0 + exp(-1.0))) < 1e-6);
  CHECK(fabs(out[1] - exp(-1.0) / (1.0 + exp(-1.0))) < 1e-6);
  /* TFLM order of operations: float max, expf((x - max) * beta) summed in
   * float, then each divided by the sum */
  for (it = 0; it < 500; ++it) {
    const int n = rng_int(1, 64);
    const float beta = (float)rng_int(1, 300) / 100.0f;
    float mx = -3.4e38f, sum = 0.0f;
    for (i = 0; i < n; ++i)
      in[i] = (float)rng_int(-100000, 100000) / 3000.0f;
    for (i = 0; i < n; ++i)
      mx = in[i] > mx ? in[i] : mx;
    for (i = 0; i < n; ++i) {
      ref[i] = expf((in[i] - mx) * beta);
      sum += ref[i];
    }
    for (i = 0; i < n; ++i)
      ref[i] /= sum;
    tflc_softmax_f32(beta, 1, n, in, out);
    bad += memcmp(out, ref, sizeof(float) * (size_t)n) != 0;
  }
  CHECK_EQ_INT(bad, 0);
}

/* ---- add ---------------------------------------------------------------- */

static void test_add_prepare_hand(void) {
  tflc_add_params p;
  /* s1 = s2 = 0.5, so = 0.25: twice_max = 1; m1 = m2 = 0.5 -> (2^30, 0);
   * mo = 1 / (2^20 * 0.25) = 2^-18 = 0.5 * 2^-17 -> (2^30, -17) */
  tflc_add_prepare_s8(0.5f, 3, 0.5f, -4, 0.25f, 7, 0, &p);
  CHECK_EQ_INT(p.input1_offset, -3);
  CHECK_EQ_INT(p.input2_offset, 4);
  CHECK_EQ_INT(p.output_offset, 7);
  CHECK_EQ_INT(p.left_shift, 20);
  CHECK_EQ_INT(p.input1_multiplier, 1 << 30);
  CHECK_EQ_INT(p.input1_shift, 0);
  CHECK_EQ_INT(p.input2_multiplier, 1 << 30);
  CHECK_EQ_INT(p.input2_shift, 0);
  CHECK_EQ_INT(p.output_multiplier, 1 << 30);
  CHECK_EQ_INT(p.output_shift, -17);
  CHECK_EQ_INT(p.act_min, -128);
  CHECK_EQ_INT(p.act_max, 127);
  /* s2 = s1 / 4: m2 = 0.125 -> (2^30, -2); RELU6 on so = 0.25, zo 7:
   * [max(-128, 7), min(127, 7 + 24)] = [7, 31] */
  tflc_add_prepare_s8(1.0f, 0, 0.25f, 0, 0.25f, 7, 3, &p);
  CHECK_EQ_INT(p.input2_multiplier, 1 << 30);
  CHECK_EQ_INT(p.input2_shift, -2);
  CHECK_EQ_INT(p.output_multiplier, 1 << 30);
  CHECK_EQ_INT(p.output_shift, -18 + 2);
  CHECK_EQ_INT(p.act_min, 7);
  CHECK_EQ_INT(p.act_max, 31);
}

static void test_add_hand(void) {
  tflc_add_params p;
  int32_t d[1] = {6};
  const int8_t a[6] = {3, -128, 127, 10, -3, 0};
  const int8_t b[6] = {4, -128, 127, -10, 2, 1};
  int8_t o[6];
  /* equal scales 0.5, output scale 0.5, zero points 0: plain sum, clamped:
   * 7, -256 -> -128, 254 -> 127, 0, -1, 1 */
  tflc_add_prepare_s8(0.5f, 0, 0.5f, 0, 0.5f, 0, 0, &p);
  tflc_add_s8(&p, 1, d, a, d, b, d, o);
  CHECK_EQ_INT(o[0], 7);
  CHECK_EQ_INT(o[1], -128);
  CHECK_EQ_INT(o[2], 127);
  CHECK_EQ_INT(o[3], 0);
  CHECK_EQ_INT(o[4], -1);
  CHECK_EQ_INT(o[5], 1);
  /* output scale 1.0 (sum halves), zo -128, z1 127, z2 -128:
   * (3 - 127 + 4 + 128) / 2 = 4 -> -124;
   * (-128 - 127 - 128 + 128) / 2 = -127.5 -> -128 -> -256 -> clamp -128;
   * (127 - 127 + 127 + 128) / 2 = 127.5, half away from zero -> 128 -> 0;
   * (10 - 127 - 10 + 128) / 2 = 0.5 -> 1 -> -127 */
  tflc_add_prepare_s8(0.5f, 127, 0.5f, -128, 1.0f, -128, 0, &p);
  tflc_add_s8(&p, 1, d, a, d, b, d, o);
  CHECK_EQ_INT(o[0], -124);
  CHECK_EQ_INT(o[1], -128);
  CHECK_EQ_INT(o[2], 0);
  CHECK_EQ_INT(o[3], -127);
}

/* all 256 x 256 input pairs, several scale / zero point / activation sets */
static void test_add_exhaustive(void) {
  static const float sc[][3] = {
      {0.5f, 0.5f, 0.5f},
      {0.01f, 0.02f, 0.03f},
      {0.02f, 0.01f, 0.015f},
      {0.0169242509f, 0.0212007165f, 0.0327091664f},
      {0.1f, 0.003f, 0.1f},
      {0.003f, 0.1f, 0.05f},
      {0.05f, 0.05f, 0.001f},
      {0.0078125f, 0.00390625f, 0.0625f},
      {0.00310678524f, 0.00367036951f, 0.0101921353f}};
  static const int32_t zp[][3] = {{0, 0, 0},       {-128, -128, -128},
                                  {127, 127, 127}, {127, -128, -15},
                                  {-128, 127, 0},  {5, -17, 100}};
  static int8_t a[65536], b[65536], o[65536];
  int32_t d[1] = {65536};
  int i, si, zi, act, bad = 0, bad_real = 0, bad_prep = 0;
  for (i = 0; i < 65536; ++i) {
    a[i] = (int8_t)((i >> 8) - 128);
    b[i] = (int8_t)((i & 255) - 128);
  }
  for (si = 0; si < (int)(sizeof sc / sizeof sc[0]); ++si) {
    for (zi = 0; zi < (int)(sizeof zp / sizeof zp[0]); ++zi) {
      act = (si + zi) % 4;
      {
        tflc_add_params p;
        ref_add r;
        int32_t lo, hi;
        tflc_add_prepare_s8(sc[si][0], zp[zi][0], sc[si][1], zp[zi][1],
                            sc[si][2], zp[zi][2], act, &p);
        tflc_activation_range_quantized(act, sc[si][2], zp[zi][2], -128, 127,
                                        &lo, &hi);
        ref_add_prepare(sc[si][0], zp[zi][0], sc[si][1], zp[zi][1], sc[si][2],
                        zp[zi][2], lo, hi, &r);
        bad_prep += p.input1_multiplier != r.q1 || p.input1_shift != r.s1 ||
                    p.input2_multiplier != r.q2 || p.input2_shift != r.s2 ||
                    p.output_multiplier != r.qo || p.output_shift != r.so ||
                    p.act_min != lo || p.act_max != hi;
        tflc_add_s8(&p, 1, d, a, d, b, d, o);
        for (i = 0; i < 65536; ++i) {
          const double real = ((double)(a[i] - zp[zi][0]) * sc[si][0] +
                               (double)(b[i] - zp[zi][1]) * sc[si][1]) /
                                  sc[si][2] +
                              zp[zi][2];
          int64_t want = (int64_t)floor(real + 0.5);
          want = want < lo ? lo : want > hi ? hi : want;
          if (o[i] != ref_add_one(&r, a[i], b[i]))
            ++bad;
          if (llabs((int64_t)o[i] - want) > 1)
            ++bad_real;
        }
      }
    }
  }
  CHECK_EQ_INT(bad_prep, 0);
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(bad_real, 0);
}

/* naive broadcast: input coordinate is 0 wherever the input dim is 1 */
static int32_t bcast_index(int rank, const int32_t *od, const int32_t *id,
                           int32_t o) {
  int32_t k, idx = 0, mul = 1;
  for (k = rank - 1; k >= 0; --k) {
    const int32_t c = o % od[k];
    o /= od[k];
    idx += (id[k] == 1 ? 0 : c) * mul;
    mul *= id[k];
  }
  return idx;
}

static void test_add_broadcast(void) {
  static int8_t a[800], b[800], o[800];
  static float fa[800], fb[800], fo[800];
  int32_t od[6], d1[6], d2[6];
  int rank, axis, it, i, bad = 0, badf = 0;
  tflc_add_params p;
  ref_add r;
  tflc_add_prepare_s8(0.013f, -128, 0.021f, 127, 0.04f, 3, 0, &p);
  ref_add_prepare(0.013f, -128, 0.021f, 127, 0.04f, 3, -128, 127, &r);
  /* each axis of a rank-4 shape broadcast alone, on either input */
  for (axis = 0; axis < 4; ++axis) {
    int which;
    for (which = 0; which < 2; ++which) {
      int32_t n = 1;
      od[0] = 2;
      od[1] = 3;
      od[2] = 4;
      od[3] = 5;
      for (i = 0; i < 4; ++i) {
        d1[i] = od[i];
        d2[i] = od[i];
        n *= od[i];
      }
      (which ? d2 : d1)[axis] = 1;
      for (i = 0; i < n; ++i) {
        a[i] = (int8_t)rng_int(-128, 127);
        b[i] = (int8_t)rng_int(-128, 127);
      }
      tflc_add_s8(&p, 4, d1, a, d2, b, od, o);
      for (i = 0; i < n; ++i)
        bad += o[i] != ref_add_one(&r, a[bcast_index(4, od, d1, i)],
                                   b[bcast_index(4, od, d2, i)]);
    }
  }
  CHECK_EQ_INT(bad, 0);
  /* hand: [1,2] + [[10],[20],[30]] (scales 1, zp 0) -> 3x2 outer sum */
  {
    const int8_t x[2] = {1, 2}, y[3] = {10, 20, 30};
    const int8_t want[6] = {11, 12, 21, 22, 31, 32};
    int32_t dx[2] = {1, 2}, dy[2] = {3, 1}, dz[2] = {3, 2};
    tflc_add_params q;
    tflc_add_prepare_s8(1.0f, 0, 1.0f, 0, 1.0f, 0, 0, &q);
    tflc_add_s8(&q, 2, dx, x, dy, y, dz, o);
    CHECK_EQ_MEM(o, want, 6);
    /* scalar + vector (input 1 is the scalar, then input 2) */
    dx[0] = 1;
    dx[1] = 1;
    dy[0] = 1;
    dy[1] = 3;
    dz[0] = 1;
    dz[1] = 3;
    tflc_add_s8(&q, 2, dx, x, dy, y, dz, o);
    CHECK(o[0] == 11 && o[1] == 21 && o[2] == 31);
    tflc_add_s8(&q, 2, dy, y, dx, x, dz, o);
    CHECK(o[0] == 11 && o[1] == 21 && o[2] == 31);
  }
  /* random shapes of rank 1..6, each dim of each input equal or 1 */
  bad = 0;
  for (it = 0; it < 400; ++it) {
    int32_t n = 1, n1 = 1, n2 = 1;
    float lo, hi;
    rank = rng_int(1, 6);
    for (i = 0; i < rank; ++i) {
      od[i] = rng_int(1, 3);
      d1[i] = rng_int(0, 2) ? od[i] : 1;
      d2[i] = (rng_int(0, 2) || d1[i] != od[i]) ? od[i] : 1;
      n *= od[i];
      n1 *= d1[i];
      n2 *= d2[i];
    }
    for (i = 0; i < n1; ++i) {
      a[i] = (int8_t)rng_int(-128, 127);
      fa[i] = (float)rng_int(-1000, 1000) / 77.0f;
    }
    for (i = 0; i < n2; ++i) {
      b[i] = (int8_t)rng_int(-128, 127);
      fb[i] = (float)rng_int(-1000, 1000) / 77.0f;
    }
    tflc_add_s8(&p, rank, d1, a, d2, b, od, o);
    tflc_activation_range_f32(it % 4, &lo, &hi);
    tflc_add_f32(lo, hi, rank, d1, fa, d2, fb, od, fo);
    for (i = 0; i < n; ++i) {
      float f =
          fa[bcast_index(rank, od, d1, i)] + fb[bcast_index(rank, od, d2, i)];
      f = f < lo ? lo : f > hi ? hi : f;
      bad += o[i] != ref_add_one(&r, a[bcast_index(rank, od, d1, i)],
                                 b[bcast_index(rank, od, d2, i)]);
      badf += f2u(fo[i]) != f2u(f);
    }
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(badf, 0);
}

static void test_add_tflm(void) {
  /* ADD/i8_7_3x7_bcast_rank_none_zp127 (input 1 [7] right-aligned to
   * [1,7]) */
  static const int8_t e1[21] = {81,  78,  105, 50, -15, 11,  92,
                                84,  -42, 105, 83, -20, 19,  67,
                                -15, -42, -4,  80, -26, -17, 46};
  /* ADD/i8_1x5x1x4_1x1x6x1_bcast_both_relu_n1_to_1 */
  static const int8_t e2[120] = {
      66,  50,  10,  54,  59,  44,  3,   48,  78,  63,  22,  67,  35,  20,
      -21, 24,  -11, -26, -67, -22, 16,  1,   -40, 5,   55,  38,  45,  -5,
      48,  32,  38,  -11, 68,  51,  57,  8,   24,  8,   14,  -35, -22, -38,
      -32, -82, 5,   -11, -5,  -55, 5,   32,  8,   67,  -2,  25,  1,   61,
      18,  44,  20,  80,  -26, 1,   -23, 36,  -72, -45, -69, -10, -45, -18,
      -42, 17,  54,  62,  0,   67,  47,  55,  -7,  60,  66,  74,  12,  79,
      23,  31,  -31, 36,  -23, -15, -77, -10, 4,   12,  -50, 17,  43,  -7,
      34,  -2,  36,  -13, 28,  -9,  55,  6,   47,  11,  12,  -37, 4,   -33,
      -34, -83, -42, -79, -7,  -56, -15, -52};
  int8_t a[21], b[21], o[120];
  tflc_add_params p;
  {
    int32_t d1[2] = {1, 7}, d2[2] = {3, 7};
    conformance_i8(1610693u, 0, a, 7);
    conformance_i8(1610693u, 1, b, 21);
    tflc_add_prepare_s8(0.0169242509f, 127, 0.0212007165f, -128, 0.0327091664f,
                        -15, 0, &p);
    tflc_add_s8(&p, 2, d1, a, d2, b, d2, o);
    CHECK_EQ_MEM(o, e1, 21);
  }
  {
    int32_t d1[4] = {1, 5, 1, 4}, d2[4] = {1, 1, 6, 1}, od[4] = {1, 5, 6, 4};
    conformance_i8(1610692u, 0, a, 20);
    conformance_i8(1610692u, 1, b, 6);
    tflc_add_prepare_s8(0.00310678524f, -20, 0.00367036951f, 18, 0.0101921353f,
                        0, 2, &p);
    tflc_add_s8(&p, 4, d1, a, d2, b, od, o);
    CHECK_EQ_MEM(o, e2, 120);
  }
}

static void test_add_f32_hand(void) {
  int32_t d[1] = {5};
  const float a[5] = {1.5f, -2.0f, 3.0f, 10.0f, 0.25f};
  const float b[5] = {2.25f, 1.0f, 4.0f, -20.0f, 0.5f};
  float o[5], nan_in[1], nan_out[1];
  int32_t d1[1] = {1};
  float lo, hi;
  tflc_activation_range_f32(0, &lo, &hi);
  tflc_add_f32(lo, hi, 1, d, a, d, b, d, o);
  CHECK(o[0] == 3.75f && o[1] == -1.0f && o[2] == 7.0f && o[3] == -10.0f &&
        o[4] == 0.75f);
  tflc_activation_range_f32(3, &lo, &hi); /* RELU6 */
  tflc_add_f32(lo, hi, 1, d, a, d, b, d, o);
  CHECK(o[0] == 3.75f && o[1] == 0.0f && o[2] == 6.0f && o[3] == 0.0f &&
        o[4] == 0.75f);
  tflc_activation_range_f32(2, &lo, &hi); /* RELU_N1_TO_1 */
  tflc_add_f32(lo, hi, 1, d, a, d, b, d, o);
  CHECK(o[0] == 1.0f && o[1] == -1.0f && o[2] == 1.0f && o[3] == -1.0f &&
        o[4] == 0.75f);
  /* -0 + -0 = -0 survives the RELU clamp: std::max(-0.f, 0.f) returns its
   * first argument because -0 < 0 is false */
  {
    const float mz[1] = {-0.0f};
    tflc_activation_range_f32(1, &lo, &hi);
    tflc_add_f32(lo, hi, 1, d1, mz, d1, mz, d1, o);
    CHECK_EQ_INT(f2u(o[0]), 0x80000000u);
    tflc_activation_range_f32(2, &lo, &hi);
  }
  /* NaN passes through min(max(x, lo), hi) as in std::min/std::max */
  nan_in[0] = (float)NAN;
  tflc_add_f32(lo, hi, 1, d1, nan_in, d1, a, d1, nan_out);
  CHECK(nan_out[0] != nan_out[0]);
}

/* ---- pooling ------------------------------------------------------------ */

static void ref_pool(int is_max, const tflc_pool_params *p, const int32_t *id,
                     const int8_t *in, const int32_t *od, int8_t *out,
                     int *empty) {
  int32_t b, y, x, c, fy, fx;
  *empty = 0;
  for (b = 0; b < od[0]; ++b)
    for (y = 0; y < od[1]; ++y)
      for (x = 0; x < od[2]; ++x)
        for (c = 0; c < od[3]; ++c) {
          int32_t sum = 0, n = 0, mx = -128, v;
          for (fy = 0; fy < p->filter_h; ++fy)
            for (fx = 0; fx < p->filter_w; ++fx) {
              const int32_t iy = y * p->stride_h - p->pad_h + fy;
              const int32_t ix = x * p->stride_w - p->pad_w + fx;
              if (iy < 0 || iy >= id[1] || ix < 0 || ix >= id[2])
                continue;
              v = in[((b * id[1] + iy) * id[2] + ix) * id[3] + c];
              sum += v;
              mx = v > mx ? v : mx;
              ++n;
            }
          if (is_max) {
            v = mx;
          } else if (n == 0) {
            *empty = 1;
            v = 0;
          } else {
            /* nearest, ties away from zero */
            v = (int32_t)(sum >= 0 ? (2 * sum + n) / (2 * n)
                                   : -((-2 * sum + n) / (2 * n)));
          }
          v = v < p->act_min ? p->act_min : v > p->act_max ? p->act_max : v;
          out[((b * od[1] + y) * od[2] + x) * od[3] + c] = (int8_t)v;
        }
}

static void set_pool(tflc_pool_params *p, int32_t fh, int32_t fw, int32_t sh,
                     int32_t sw, int32_t ph, int32_t pw, int32_t lo,
                     int32_t hi) {
  p->filter_h = fh;
  p->filter_w = fw;
  p->stride_h = sh;
  p->stride_w = sw;
  p->pad_h = ph;
  p->pad_w = pw;
  p->act_min = lo;
  p->act_max = hi;
}

static void test_pool_hand(void) {
  tflc_pool_params p;
  int8_t o[16];
  /* 3x3 input, 3x3 filter, stride 1, SAME (pad 1): corner windows have 4
   * taps, edges 6, the centre 9.
   *    1  2  3
   *    4  5  6
   *    7  8  9   (one channel)
   * avg(0,0) = (1+2+4+5)/4 = 3; avg(0,1) = (1+2+3+4+5+6)/6 = 3.5 -> 4;
   * avg(1,1) = 45/9 = 5; avg(2,2) = (5+6+8+9)/4 = 7; avg(1,0) = 27/6 = 4.5
   * -> 5 */
  {
    const int32_t id[4] = {1, 3, 3, 1}, od[4] = {1, 3, 3, 1};
    const int8_t in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const int8_t neg[9] = {-1, -2, -3, -4, -5, -6, -7, -8, -9};
    set_pool(&p, 3, 3, 1, 1, 1, 1, -128, 127);
    CHECK_EQ_INT(tflc_avg_pool_s8(&p, id, in, od, o), TFLC_OK);
    CHECK_EQ_INT(o[0], 3);
    CHECK_EQ_INT(o[1], 4);
    CHECK_EQ_INT(o[3], 5);
    CHECK_EQ_INT(o[4], 5);
    CHECK_EQ_INT(o[8], 7);
    /* negatives round half away from zero: -3.5 -> -4, -4.5 -> -5 */
    CHECK_EQ_INT(tflc_avg_pool_s8(&p, id, neg, od, o), TFLC_OK);
    CHECK_EQ_INT(o[1], -4);
    CHECK_EQ_INT(o[3], -5);
    tflc_max_pool_s8(&p, id, in, od, o);
    CHECK_EQ_INT(o[0], 5);
    CHECK_EQ_INT(o[2], 6);
    CHECK_EQ_INT(o[4], 9);
    CHECK_EQ_INT(o[6], 8);
    tflc_max_pool_s8(&p, id, neg, od, o);
    CHECK_EQ_INT(o[0], -1);
    CHECK_EQ_INT(o[8], -5);
    /* activation clamp [2, 6] */
    set_pool(&p, 3, 3, 1, 1, 1, 1, 2, 6);
    tflc_max_pool_s8(&p, id, neg, od, o);
    CHECK_EQ_INT(o[0], 2);
    tflc_avg_pool_s8(&p, id, in, od, o);
    CHECK_EQ_INT(o[8], 6);
  }
  /* SAME with stride 2: 5x5 input, 3x3 filter -> out 3x3, total padding
   * (3-1)*2 + 3 - 5 = 2 -> pad 1. Input value = 10*row + col.
   * out(0,0): rows 0..1, cols 0..1 -> (0+1+10+11)/4 = 5.5 -> 6
   * out(1,1): rows 1..3, cols 1..3 -> mean 22 -> 22
   * out(2,2): rows 3..4, cols 3..4 -> (33+34+43+44)/4 = 38.5 -> 39
   * out(0,2): rows 0..1, cols 3..4 -> (3+4+13+14)/4 = 8.5 -> 9 */
  {
    const int32_t id[4] = {1, 5, 5, 1}, od[4] = {1, 3, 3, 1};
    int8_t in[25];
    int i;
    for (i = 0; i < 25; ++i)
      in[i] = (int8_t)(10 * (i / 5) + i % 5);
    set_pool(&p, 3, 3, 2, 2, 1, 1, -128, 127);
    CHECK_EQ_INT(tflc_avg_pool_s8(&p, id, in, od, o), TFLC_OK);
    CHECK_EQ_INT(o[0], 6);
    CHECK_EQ_INT(o[4], 22);
    CHECK_EQ_INT(o[8], 39);
    CHECK_EQ_INT(o[2], 9);
    tflc_max_pool_s8(&p, id, in, od, o);
    CHECK_EQ_INT(o[0], 11);
    CHECK_EQ_INT(o[4], 33);
    CHECK_EQ_INT(o[8], 44);
    CHECK_EQ_INT(o[2], 14);
  }
  /* 1x1 spatial input, 1x1 filter: identity per channel (2 batches) */
  {
    const int32_t id[4] = {2, 1, 1, 4}, od[4] = {2, 1, 1, 4};
    const int8_t in[8] = {-128, 127, 0, -1, 5, -5, 100, -100};
    set_pool(&p, 1, 1, 1, 1, 0, 0, -128, 127);
    CHECK_EQ_INT(tflc_avg_pool_s8(&p, id, in, od, o), TFLC_OK);
    CHECK_EQ_MEM(o, in, 8);
    tflc_max_pool_s8(&p, id, in, od, o);
    CHECK_EQ_MEM(o, in, 8);
  }
  /* a window entirely in the padding has no valid tap: TFLM fails */
  {
    const int32_t id[4] = {1, 1, 1, 1}, od[4] = {1, 1, 3, 1};
    const int8_t in[1] = {7};
    set_pool(&p, 1, 1, 1, 1, 0, 1, -128, 127);
    CHECK_EQ_INT(tflc_avg_pool_s8(&p, id, in, od, o), TFLC_ERR_KERNEL);
    /* max pool gives -128 there (the initial value), then clamps */
    tflc_max_pool_s8(&p, id, in, od, o);
    CHECK(o[0] == -128 && o[1] == 7 && o[2] == -128);
  }
}

static void test_pool_vs_reference(void) {
  static int8_t in[2 * 10 * 10 * 3], o[2 * 10 * 10 * 3], r[2 * 10 * 10 * 3];
  int it, i, bad = 0, bad_err = 0;
  for (it = 0; it < 1500; ++it) {
    tflc_pool_params p;
    int32_t id[4], od[4], n, empty, lo, hi;
    const int same = rng_int(0, 1);
    id[0] = rng_int(1, 2);
    id[1] = rng_int(1, 10);
    id[2] = rng_int(1, 10);
    id[3] = rng_int(1, 3);
    lo = rng_int(0, 3) ? -128 : rng_int(-128, 0);
    hi = rng_int(0, 3) ? 127 : rng_int(lo, 127);
    set_pool(&p, rng_int(1, 4), rng_int(1, 4), rng_int(1, 3), rng_int(1, 3), 0,
             0, lo, hi);
    od[0] = id[0];
    od[3] = id[3];
    if (same) {
      od[1] = (id[1] + p.stride_h - 1) / p.stride_h;
      od[2] = (id[2] + p.stride_w - 1) / p.stride_w;
      p.pad_h = (od[1] - 1) * p.stride_h + p.filter_h - id[1];
      p.pad_w = (od[2] - 1) * p.stride_w + p.filter_w - id[2];
      p.pad_h = p.pad_h > 0 ? p.pad_h / 2 : 0;
      p.pad_w = p.pad_w > 0 ? p.pad_w / 2 : 0;
    } else {
      od[1] = (id[1] - p.filter_h + p.stride_h) / p.stride_h;
      od[2] = (id[2] - p.filter_w + p.stride_w) / p.stride_w;
      if (od[1] < 1 || od[2] < 1)
        continue;
    }
    n = id[0] * id[1] * id[2] * id[3];
    for (i = 0; i < n; ++i)
      in[i] = (int8_t)rng_int(-128, 127);
    n = od[0] * od[1] * od[2] * od[3];
    ref_pool(0, &p, id, in, od, r, &empty);
    bad_err += (tflc_avg_pool_s8(&p, id, in, od, o) != TFLC_OK) != empty;
    if (!empty)
      bad += memcmp(o, r, (size_t)n) != 0;
    ref_pool(1, &p, id, in, od, r, &empty);
    tflc_max_pool_s8(&p, id, in, od, o);
    bad += memcmp(o, r, (size_t)n) != 0;
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(bad_err, 0);
}

static void test_pool_tflm(void) {
  /* AVERAGE_POOL_2D/i8_1x9x9x5_f3x3_s22_same_relu6_zp-128 and
   * MAX_POOL_2D/i8_1x9x9x5_f3x3_s22_same_relu6_zp-128: out 5x5, pad 1 */
  static const int8_t ea[125] = {
      -36, -36, -36, -40, -36, -36, -36, -36, -36, -36, -36, -36, -36, -36,
      -36, -36, -36, -36, -36, -36, -67, -36, -36, -36, -39, -36, -36, -36,
      -36, -36, -36, -36, -36, -36, -36, -36, -36, -36, -36, -36, -36, -36,
      -36, -36, -36, -36, -36, -36, -36, -72, -36, -36, -36, -36, -39, -36,
      -36, -36, -36, -36, -36, -36, -36, -36, -36, -36, -36, -36, -36, -45,
      -36, -39, -36, -36, -43, -40, -36, -36, -36, -36, -36, -36, -36, -36,
      -36, -36, -36, -36, -39, -36, -36, -36, -36, -36, -41, -44, -36, -36,
      -36, -36, -36, -36, -36, -36, -36, -36, -36, -36, -36, -36, -36, -46,
      -40, -36, -48, -36, -36, -88, -36, -36, -36, -36, -36, -36, -36};
  static const int8_t em[125] = {
      127, 87,  89,  106, 27,  127, -6,  63,  111, 105, 71,  110, 99,  118,
      97,  106, -11, 105, 75,  79,  106, -27, 105, 109, 81,  100, 87,  89,
      125, 27,  122, 116, 63,  87,  105, 102, 116, 63,  118, 111, 106, -11,
      105, 75,  79,  106, 123, 120, 110, 105, 57,  84,  41,  125, 83,  99,
      116, 76,  118, 117, 99,  116, -4,  79,  117, 69,  106, 88,  94,  78,
      104, 123, 120, 94,  78,  107, 84,  94,  97,  103, 107, 111, 114, 118,
      103, 116, 116, 126, 66,  33,  71,  116, 117, 108, 101, 65,  17,  122,
      94,  101, 61,  57,  88,  78,  103, 119, 58,  105, 84,  103, 71,  112,
      126, 53,  98,  101, 73,  119, 53,  32,  101, 73,  122, 87,  79};
  const int32_t id[4] = {1, 9, 9, 5}, od[4] = {1, 5, 5, 5};
  int8_t in[405], o[125];
  tflc_pool_params p;
  int32_t lo, hi;
  tflc_activation_range_quantized(3, 0.0654529631f, -128, -128, 127, &lo, &hi);
  set_pool(&p, 3, 3, 2, 2, 1, 1, lo, hi);
  conformance_i8(1774402u, 0, in, 405);
  CHECK_EQ_INT(tflc_avg_pool_s8(&p, id, in, od, o), TFLC_OK);
  CHECK_EQ_MEM(o, ea, 125);
  tflc_activation_range_quantized(3, 0.0138171958f, -128, -128, 127, &lo, &hi);
  set_pool(&p, 3, 3, 2, 2, 1, 1, lo, hi);
  conformance_i8(1980402u, 0, in, 405);
  tflc_max_pool_s8(&p, id, in, od, o);
  CHECK_EQ_MEM(o, em, 125);
}

/* ---- mean --------------------------------------------------------------- */

static void mean_params(float si, int32_t zi, float so, int32_t zo,
                        tflc_mean_params *p) {
  tflc_quantize_multiplier((double)si / (double)so, &p->multiplier, &p->shift);
  p->input_zp = zi;
  p->output_zp = zo;
}

static void test_mean_hand(void) {
  tflc_mean_params p;
  int8_t o[8];
  /* 1x2x2x1 over axes {1,2} (keep_dims: out 1x1x1x1), same scale, zp 0:
   * q = 2^30, shift 1; N = 4 -> sh = 2, q' = 2^32 / 4 = 2^30, shift' = -1;
   * sum 10 -> SRDHM(10, 2^30) = 5, RDBPOT(5, 1) = 3 (2.5 away from 0) */
  {
    const int32_t d[4] = {1, 2, 2, 1};
    const int8_t in[4] = {1, 2, 3, 4};
    const int8_t neg[4] = {-1, -2, -3, -4};
    mean_params(0.5f, 0, 0.5f, 0, &p);
    CHECK_EQ_INT(p.multiplier, 1 << 30);
    CHECK_EQ_INT(p.shift, 1);
    tflc_mean_s8(&p, 4, d, 0x6u, in, o);
    CHECK_EQ_INT(o[0], 3);
    tflc_mean_s8(&p, 4, d, 0x6u, neg, o);
    CHECK_EQ_INT(o[0], -3);
  }
  /* N = 3 (not a power of two): [1, 1, 2] -> sh = 1,
   * q' = 2^31 / 3 = 715827882, shift' = 0; SRDHM(4, 715827882) =
   * round(4/3) = 1. [2, 2, 1] -> 5/3 = 1.67 -> 2. */
  {
    const int32_t d[2] = {1, 3};
    const int8_t a[3] = {1, 1, 2}, b[3] = {2, 2, 1};
    mean_params(0.5f, 0, 0.5f, 0, &p);
    tflc_mean_s8(&p, 2, d, 0x2u, a, o);
    CHECK_EQ_INT(o[0], 1);
    tflc_mean_s8(&p, 2, d, 0x2u, b, o);
    CHECK_EQ_INT(o[0], 2);
  }
  /* zero points: zi = 127, zo = -128, out scale = in scale / 2 (doubles):
   * values [127, 125, 126, 120] over axis 1 of 1x4: sum - zi*N = -10;
   * mean -2.5 real steps -> *2 = -5 -> -128 - 5 = -133 -> clamp -128.
   * With zo = 0: -5. */
  {
    const int32_t d[2] = {1, 4};
    const int8_t a[4] = {127, 125, 126, 120};
    mean_params(0.5f, 127, 0.25f, 0, &p);
    tflc_mean_s8(&p, 2, d, 0x2u, a, o);
    CHECK_EQ_INT(o[0], -5);
    mean_params(0.5f, 127, 0.25f, -128, &p);
    tflc_mean_s8(&p, 2, d, 0x2u, a, o);
    CHECK_EQ_INT(o[0], -128);
  }
  /* 2x3 over axis 0 -> 3 outputs: columns (1,4) (2,5) (-1,-4), equal
   * quantization (q = 2^30, shift 1); N = 2 folds to (2^30, 0), a plain
   * SRDHM by 1/2 whose ties go toward +inf: 2.5 -> 3, 3.5 -> 4, and
   * -2.5 -> -2 (not -3) */
  {
    const int32_t d[2] = {2, 3};
    const int8_t a[6] = {1, 2, -1, 4, 5, -4};
    mean_params(0.1f, 0, 0.1f, 0, &p);
    tflc_mean_s8(&p, 2, d, 0x1u, a, o);
    CHECK(o[0] == 3 && o[1] == 4 && o[2] == -2);
    /* over axis 1 -> rows: 2/3 -> 1, 5/3 -> 2 */
    tflc_mean_s8(&p, 2, d, 0x2u, a, o);
    CHECK(o[0] == 1 && o[1] == 2);
  }
  /* the 1/N folding truncates: q' = floor(q * 2^sh / N). With N = 75,
   * si / so = 0.0624480173 / 0.0566843152 (q = 1182920668, shift 1) and a
   * shifted sum of -7930, the truncated q' gives -116 where a rounded q'
   * would give -117 (found by search; the real mean is -116.55). */
  {
    const int32_t d[4] = {1, 5, 15, 1};
    int8_t a[75];
    int i;
    for (i = 0; i < 75; ++i)
      a[i] = (int8_t)(i < 70 ? -106 : -102); /* sum -7930 */
    mean_params(0.06244801729917526f, 0, 0.05668431520462036f, 0, &p);
    CHECK_EQ_INT(p.multiplier, 1182920668);
    CHECK_EQ_INT(p.shift, 1);
    tflc_mean_s8(&p, 4, d, 0x6u, a, o);
    CHECK_EQ_INT(o[0], -116);
  }
  /* empty axis: TFLM zeroes the output */
  {
    const int32_t d[2] = {2, 0};
    const int8_t a[1] = {0};
    o[0] = o[1] = 55;
    mean_params(0.1f, 3, 0.1f, 9, &p);
    tflc_mean_s8(&p, 2, d, 0x2u, a, o);
    CHECK(o[0] == 0 && o[1] == 0);
  }
}

static void test_mean_vs_reference(void) {
  static int8_t in[4096], o[4096], r[4096];
  int it, i, bad = 0, bad_real = 0;
  for (it = 0; it < 3000; ++it) {
    int32_t d[5], n = 1, n_out = 1, n_red = 1, k;
    int rank;
    uint32_t mask = 0;
    tflc_mean_params p;
    float si = rng_scale(), so;
    int32_t zi = rng_int(-128, 127), zo = rng_int(-128, 127);
    if (it % 5 == 0)
      zi = it % 2 ? 127 : -128;
    if (it % 3 == 0) {
      rank = 4; /* NHWC over {1, 2}, the common model case */
      d[0] = rng_int(1, 2);
      d[1] = rng_int(1, 9);
      d[2] = rng_int(1, 9);
      d[3] = rng_int(1, 5);
      mask = 0x6u;
    } else if (it % 3 == 1) {
      rank = rng_int(1, 4); /* one axis */
      for (k = 0; k < rank; ++k)
        d[k] = rng_int(1, 7);
      mask = 1u << rng_int(0, rank - 1);
    } else {
      rank = rng_int(1, 5); /* any set of axes */
      for (k = 0; k < rank; ++k)
        d[k] = rng_int(1, 5);
      mask = (uint32_t)rng_int(0, (1 << rank) - 1);
    }
    so = it % 4 == 0 ? si : si * (float)rng_int(20, 400) / 100.0f;
    for (k = 0; k < rank; ++k) {
      n *= d[k];
      if (mask & (1u << k))
        n_red *= d[k];
      else
        n_out *= d[k];
    }
    for (i = 0; i < n; ++i)
      in[i] = (int8_t)(it % 7 == 0 ? (rng_int(0, 1) ? 127 : -128)
                                   : rng_int(-128, 127));
    mean_params(si, zi, so, zo, &p);
    tflc_mean_s8(&p, rank, d, mask, in, o);
    ref_mean(p.multiplier, p.shift, zi, zo, rank, d, mask, in, r);
    bad += memcmp(o, r, (size_t)n_out) != 0;
    /* real-number sanity for the all-axes case: within one step */
    if (n_out == 1) {
      double s = 0.0;
      int64_t want;
      for (i = 0; i < n; ++i)
        s += in[i] - zi;
      want = (int64_t)floor(s / (double)n_red * (double)si / (double)so +
                            (double)zo + 0.5);
      bad_real += llabs((int64_t)o[0] - clamp8(want)) > 1;
    }
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(bad_real, 0);
}

static void test_mean_tflm(void) {
  /* MEAN/i8_1x5x3x4_ax1_2_zp-128 (keep_dims false, out [1,4]) */
  static const int8_t e1[4] = {1, 5, 69, 37};
  /* MEAN/i8_2x3x6_axm1_keep (axis -1 = 2, out [2,3,1]) */
  static const int8_t e2[6] = {103, -13, -38, 72, -54, 2};
  int8_t in[60], o[6];
  tflc_mean_params p;
  {
    const int32_t d[4] = {1, 5, 3, 4};
    conformance_i8(1490601u, 0, in, 60);
    mean_params(0.0185871907f, -128, 0.0145104816f, -128, &p);
    tflc_mean_s8(&p, 4, d, 0x6u, in, o);
    CHECK_EQ_MEM(o, e1, 4);
  }
  {
    const int32_t d[3] = {2, 3, 6};
    conformance_i8(1490602u, 0, in, 36);
    mean_params(0.0411128961f, -46, 0.0257468875f, -73, &p);
    tflc_mean_s8(&p, 3, d, 0x4u, in, o);
    CHECK_EQ_MEM(o, e2, 6);
  }
}

/* ---- pad / transpose ---------------------------------------------------- */

static void test_pad(void) {
  /* rank 1 hand: [1,2,3], 1 before, 2 after, pad 9 */
  {
    const int32_t d[1] = {3}, b[1] = {1}, a[1] = {2};
    const int8_t in[3] = {1, 2, 3}, pv = 9, want[6] = {9, 1, 2, 3, 9, 9};
    int8_t o[6];
    tflc_pad(1, 1, d, b, a, &pv, in, o);
    CHECK_EQ_MEM(o, want, 6);
  }
  /* rank 2 hand: 2x2, rows 1 before 0 after, cols 0 before 1 after */
  {
    const int32_t d[2] = {2, 2}, b[2] = {1, 0}, a[2] = {0, 1};
    const int8_t in[4] = {1, 2, 3, 4}, pv = -128;
    const int8_t want[9] = {-128, -128, -128, 1, 2, -128, 3, 4, -128};
    int8_t o[9];
    tflc_pad(1, 2, d, b, a, &pv, in, o);
    CHECK_EQ_MEM(o, want, 9);
  }
  /* rank 4, asymmetric pads, element sizes 1, 2, 4, against a naive
   * per-element reference */
  {
    static unsigned char in[4096], o[40000], r[40000];
    int it, bad = 0;
    for (it = 0; it < 300; ++it) {
      static const size_t es_list[3] = {1, 2, 4};
      const size_t es = es_list[it % 3];
      int32_t d[4], b[4], a[4], od[4], n_out = 1, n_in = 1, i, k;
      unsigned char pv[4];
      for (k = 0; k < 4; ++k) {
        d[k] = rng_int(1, 4);
        b[k] = rng_int(0, 3);
        a[k] = rng_int(0, 3);
        if ((k == 0 && it % 2) || (k > 0 && rng() % 3 == 0))
          b[k] = a[k] = 0; /* batch usually unpadded; inner axes joined */
        od[k] = d[k] + b[k] + a[k];
        n_out *= od[k];
        n_in *= d[k];
      }
      for (i = 0; i < n_in * (int32_t)es; ++i)
        in[i] = (unsigned char)rng();
      for (i = 0; i < 4; ++i)
        pv[i] = (unsigned char)rng();
      tflc_pad(es, 4, d, b, a, pv, in, o);
      for (i = 0; i < n_out; ++i) {
        int32_t rest = i, src = 0, mul = 1, inside = 1;
        for (k = 3; k >= 0; --k) {
          const int32_t c = rest % od[k] - b[k];
          rest /= od[k];
          if (c < 0 || c >= d[k])
            inside = 0;
          src += c * mul;
          mul *= d[k];
        }
        if (inside)
          memcpy(r + (size_t)i * es, in + (size_t)src * es, es);
        else
          memcpy(r + (size_t)i * es, pv, es);
      }
      bad += memcmp(o, r, (size_t)n_out * es) != 0;
    }
    CHECK_EQ_INT(bad, 0);
  }
}

static void test_transpose(void) {
  /* hand: 2x3 -> 3x2 */
  {
    const int32_t d[2] = {2, 3}, perm[2] = {1, 0};
    const int8_t in[6] = {1, 2, 3, 4, 5, 6}, want[6] = {1, 4, 2, 5, 3, 6};
    int8_t o[6];
    tflc_transpose(1, 2, d, perm, in, o);
    CHECK_EQ_MEM(o, want, 6);
  }
  /* hand: 2x3x4 with perm {2, 0, 1} -> out [4,2,3],
   * out[i][j][k] = in[j][k][i]; in value = 100*j + 10*k + i (as int16) */
  {
    const int32_t d[3] = {2, 3, 4}, perm[3] = {2, 0, 1};
    int16_t in[24], o[24];
    int i, j, k, ok = 1;
    for (i = 0; i < 24; ++i)
      in[i] = (int16_t)(100 * (i / 12) + 10 * ((i / 4) % 3) + i % 4);
    tflc_transpose(2, 3, d, perm, in, o);
    for (i = 0; i < 4; ++i)
      for (j = 0; j < 2; ++j)
        for (k = 0; k < 3; ++k)
          ok &= o[(i * 2 + j) * 3 + k] == 100 * j + 10 * k + i;
    CHECK(ok);
  }
  /* ranks 2..6, random permutations, element sizes 1, 2, 3, 4, 8 */
  {
    static unsigned char in[8 * 4096], o[8 * 4096], r[8 * 4096];
    int it, rank, bad = 0;
    for (rank = 2; rank <= 6; ++rank) {
      for (it = 0; it < 60; ++it) {
        static const size_t es_list[5] = {1, 2, 3, 4, 8};
        const size_t es = es_list[it % 5];
        int32_t d[6], perm[6], od[6], n = 1, i, k;
        for (k = 0; k < rank; ++k) {
          d[k] = rng_int(1, rank <= 4 ? 5 : 3);
          perm[k] = k;
          n *= d[k];
        }
        for (k = rank - 1; k > 0; --k) {
          const int32_t j = rng_int(0, k), t = perm[k];
          perm[k] = perm[j];
          perm[j] = t;
        }
        for (k = 0; k < rank; ++k)
          od[k] = d[perm[k]];
        for (i = 0; i < n * (int32_t)es; ++i)
          in[i] = (unsigned char)rng();
        tflc_transpose(es, rank, d, perm, in, o);
        for (i = 0; i < n; ++i) {
          int32_t rest = i, c[6], src = 0;
          for (k = rank - 1; k >= 0; --k) {
            c[k] = rest % od[k];
            rest /= od[k];
          }
          /* output axis k walks input axis perm[k] */
          {
            int32_t ic[6];
            for (k = 0; k < rank; ++k)
              ic[perm[k]] = c[k];
            for (k = 0; k < rank; ++k)
              src = src * d[k] + ic[k];
          }
          memcpy(r + (size_t)i * es, in + (size_t)src * es, es);
        }
        bad += memcmp(o, r, (size_t)n * es) != 0;
      }
    }
    CHECK_EQ_INT(bad, 0);
  }
}

/* ---- quantize / dequantize ------------------------------------------------
 */

static void test_quantize_hand(void) {
  const float in[10] = {1.25f,  -1.25f,  0.75f, -0.75f, 0.0f,
                        100.0f, -100.0f, 0.24f, 63.5f,  -64.25f};
  int8_t o[10];
  int16_t o16[4];
  /* scale 0.5: 2.5 -> 3, -2.5 -> -3 (half away from zero, not to even),
   * 1.5 -> 2, -1.5 -> -2, 0, 200 -> 127, -200 -> -128, 0.48 -> 0,
   * 127 -> 127, -128.5 -> -129 -> -128 */
  tflc_quantize_f32_s8(0.5f, 0, 10, in, o);
  CHECK(o[0] == 3 && o[1] == -3 && o[2] == 2 && o[3] == -2 && o[4] == 0);
  CHECK(o[5] == 127 && o[6] == -128 && o[7] == 0 && o[8] == 127 &&
        o[9] == -128);
  /* zero point added after rounding: zp -128 -> 2.5 -> 3 - 128 = -125;
   * zp 127: -2.5 -> -3 + 127 = 124, 2.5 -> 130 -> 127 */
  tflc_quantize_f32_s8(0.5f, -128, 2, in, o);
  CHECK(o[0] == -125 && o[1] == -128);
  tflc_quantize_f32_s8(0.5f, 127, 2, in, o);
  CHECK(o[0] == 127 && o[1] == 124);
  /* float division: 0.25f / 0.1f rounds to exactly 2.5f in float (the true
   * quotient is 2.49999996...), so the result is 3, not 2 */
  {
    const float x[2] = {0.25f, -0.25f};
    tflc_quantize_f32_s8(0.1f, 0, 2, x, o);
    CHECK(o[0] == 3 && o[1] == -3);
  }
  /* int16: clamp at the type range, half away from zero */
  {
    const float x[4] = {1.5f, -1.5f, 1e6f, -1e6f};
    tflc_quantize_f32_s16(1.0f, 0, 4, x, o16);
    CHECK(o16[0] == 2 && o16[1] == -2 && o16[2] == 32767 && o16[3] == -32768);
  }
}

static void test_quantize_vs_reference(void) {
  static float in[1000];
  static int8_t o[1000];
  int it, i, bad = 0;
  for (it = 0; it < 200; ++it) {
    const float s = rng_scale();
    const int32_t zp = rng_int(-128, 127);
    for (i = 0; i < 1000; ++i)
      in[i] = i < 300 ? ((float)rng_int(-300, 300) + 0.5f) * s
                      : (float)rng_int(-1000000, 1000000) / 1e6f * 200.0f * s;
    tflc_quantize_f32_s8(s, zp, 1000, in, o);
    for (i = 0; i < 1000; ++i) {
      /* float division, then half away from zero (exact in double) */
      const double q = (double)(in[i] / s);
      const double rr = q >= 0.0 ? floor(q + 0.5) : -floor(-q + 0.5);
      bad += o[i] != clamp8((int64_t)rr + zp);
    }
  }
  CHECK_EQ_INT(bad, 0);
}

/* the rounding at its edges: just under a half, halves, around 2^23 and
 * 2^31, infinities and NaN, against roundf with the conversion rules of
 * tflc__quantize_one (out of range or NaN: INT32_MIN; the zero point add
 * wraps), through the int8 and int16 clamps */
static void test_quantize_edges(void) {
  static const float x[] = {
      0.49999997f,    -0.49999997f,  0.5f,           -0.5f,       1.4999999f,
      -1.4999999f,    2.5f,          -2.5f,          8388607.5f,  -8388607.5f,
      8388606.5f,     8388608.0f,    -8388608.0f,    16777215.0f, 2147483520.0f,
      -2147483520.0f, 2147483648.0f, -2147483648.0f, 1e30f,       -1e30f,
      0.0f,           -0.0f,         1e-30f,         126.5f,      -127.5f,
      32767.5f,       -32768.5f};
  static const int32_t zps[4] = {0, 127, -128, 100};
  const size_t n = sizeof x / sizeof x[0];
  float in[sizeof x / sizeof x[0] + 3];
  int8_t o8[sizeof x / sizeof x[0] + 3];
  int16_t o16[sizeof x / sizeof x[0] + 3];
  size_t i;
  int z, bad = 0;
  memcpy(in, x, sizeof x);
  in[n] = HUGE_VALF;
  in[n + 1] = -HUGE_VALF;
  in[n + 2] = NAN;
  for (z = 0; z < 4; z++) {
    tflc_quantize_f32_s8(1.0f, zps[z], (int32_t)n + 3, in, o8);
    tflc_quantize_f32_s16(1.0f, zps[z], (int32_t)n + 3, in, o16);
    for (i = 0; i < n + 3; i++) {
      const float r = roundf(in[i]);
      const int32_t v =
          r >= -2147483648.0f && r < 2147483648.0f ? (int32_t)r : INT32_MIN;
      const int64_t w =
          (int64_t)(int32_t)(uint32_t)((uint32_t)v + (uint32_t)zps[z]);
      bad += o8[i] != clamp8(w);
      bad += o16[i] != (w < -32768 ? -32768 : w > 32767 ? 32767 : w);
    }
  }
  CHECK_EQ_INT(bad, 0);
}

static void test_quantize_tflm(void) {
  /* QUANTIZE/f32_to_i8_64_zp_edge: scale 0.00380075513, zp -128 */
  static const int8_t e1[64] = {
      -128, -103, -128, 43,   -128, -128, -49,  25,   -42,  -128, -31,
      -128, -128, 106,  -56,  -128, -128, -5,   -128, -128, -128, 127,
      31,   -128, -128, 110,  -83,  -128, -50,  -128, -13,  -128, -128,
      116,  -128, -128, 113,  -128, -128, -56,  -25,  93,   -128, 3,
      -128, -45,  -110, -128, -112, -3,   71,   -128, -128, -128, 61,
      -83,  -128, -128, -128, -128, -128, -108, -37,  -128};
  /* QUANTIZE/i8_to_i8_2x3x7_down: 0.0727343112 (zp -128) -> 0.236786455
   * (zp -128) */
  static const int8_t e2[42] = {
      -64,  -105, -99,  -87,  -118, -75,  -111, -88, -84, -122, -91,
      -97,  -127, -79,  -90,  -89,  -72,  -76,  -77, -54, -54,  -72,
      -63,  -112, -78,  -122, -101, -98,  -109, -52, -94, -75,  -66,
      -116, -98,  -120, -56,  -116, -112, -51,  -60, -107};
  /* DEQUANTIZE/i8_to_f32_2x3x7_zp-128: scale 0.00756192114 */
  static const uint32_t e3[42] = {
      0x3FB0299Bu, 0x3F3408C3u, 0x3F9FB531u, 0x3EEC2C86u, 0x3F4D3346u,
      0x3F9417B9u, 0x3FD4F196u, 0x3FC47D2Cu, 0x3FB0299Bu, 0x3F700BAEu,
      0x3F80BBF1u, 0x3F96FF17u, 0x3EF00BAEu, 0x3D9ADE3Fu, 0x3E03A34Fu,
      0x3EF00BAEu, 0x3FF3EAD6u, 0x3E8B619Fu, 0x3D1ADE3Fu, 0x3F39D77Eu,
      0x3ED8D0BEu, 0x3EFBA926u, 0x3F7BA926u, 0x3FAB52A9u, 0x3F99E675u,
      0x3FE56600u, 0x3F931FEFu, 0x3FF3EAD6u, 0x3FF3EAD6u, 0x3FDBB81Cu,
      0x3EF3EAD6u, 0x3FA67BB7u, 0x3F79B992u, 0x3FC85C54u, 0x3FF4E2A0u,
      0x3DAA5ADFu, 0x00000000u, 0x3E229C8Fu, 0x3F7BA926u, 0x3F8F40C7u,
      0x3FA0ACFBu, 0x3FA77381u};
  float f[64];
  int8_t in[64], o[64];
  int32_t q, s;
  int i, ok = 1;
  conformance_f32(1823953u, 0, f, 64);
  tflc_quantize_f32_s8(0.00380075513f, -128, 64, f, o);
  CHECK_EQ_MEM(o, e1, 64);
  conformance_i8(1823951u, 0, in, 42);
  tflc_quantize_multiplier((double)0.0727343112f / (double)0.236786455f, &q,
                           &s);
  tflc_requantize_s8(q, s, -128, -128, 42, in, o);
  CHECK_EQ_MEM(o, e2, 42);
  conformance_i8(1367581u, 0, in, 42);
  tflc_dequantize_s8_f32(0.00756192114f, -128, 42, in, f);
  for (i = 0; i < 42; ++i)
    ok &= f2u(f[i]) == e3[i];
  CHECK(ok);
}

static void test_requantize_dequantize(void) {
  int8_t in[256], o[256];
  int16_t in16[5] = {-32768, -1, 0, 1, 32767};
  float f[256];
  int i, bad = 0;
  for (i = 0; i < 256; ++i)
    in[i] = (int8_t)(i - 128);
  /* multiplier 0.5 = (2^30, 0): SRDHM rounds ties toward +inf, so 3 -> 2
   * and -3 -> -1 (1.5 -> 2, -1.5 -> -1); then the zero points */
  {
    const int8_t x[4] = {3, -3, 5, -5};
    tflc_requantize_s8(1 << 30, 0, 0, 0, 4, x, o);
    CHECK(o[0] == 2 && o[1] == -1 && o[2] == 3 && o[3] == -2);
    tflc_requantize_s8(1 << 30, 0, -5, 100, 4, x, o);
    /* (3+5)/2 = 4 -> 104; (-3+5)/2 = 1 -> 101; 5 -> 105; 0 -> 100 */
    CHECK(o[0] == 104 && o[1] == 101 && o[2] == 105 && o[3] == 100);
  }
  /* multiplier 1.0 = (2^30, 1) maps x - in_zp + out_zp, clamped */
  tflc_requantize_s8(1 << 30, 1, 127, -128, 256, in, o);
  for (i = 0; i < 256; ++i)
    bad += o[i] != clamp8((int64_t)in[i] - 127 - 128);
  CHECK_EQ_INT(bad, 0);
  /* random multipliers against the reference MBQM */
  bad = 0;
  for (i = 0; i < 200; ++i) {
    int32_t q, s, zi = rng_int(-128, 127), zo = rng_int(-128, 127), j;
    tflc_quantize_multiplier((double)rng_scale() / (double)rng_scale(), &q, &s);
    tflc_requantize_s8(q, s, zi, zo, 256, in, o);
    for (j = 0; j < 256; ++j)
      bad += o[j] != clamp8((int64_t)ref_mbqm(in[j] - zi, q, s) + zo);
  }
  CHECK_EQ_INT(bad, 0);
  /* dequantize: float(double(scale) * (x - zp)) */
  tflc_dequantize_s8_f32(0.5f, -128, 256, in, f);
  CHECK(f[0] == 0.0f && f[1] == 0.5f && f[255] == 127.5f);
  bad = 0;
  tflc_dequantize_s8_f32(0.0123f, 17, 256, in, f);
  for (i = 0; i < 256; ++i)
    bad += f2u(f[i]) != f2u((float)((double)0.0123f * (double)(in[i] - 17)));
  CHECK_EQ_INT(bad, 0);
  tflc_dequantize_s16_f32(0.25f, 0, 5, in16, f);
  CHECK(f[0] == -8192.0f && f[1] == -0.25f && f[2] == 0.0f && f[3] == 0.25f &&
        f[4] == 8191.75f);
  tflc_dequantize_s16_f32(1.0f, 3, 1, in16, f);
  CHECK(f[0] == -32771.0f);
}

int main(void) {
  rng_seed(0x12345678u);
  RUN(test_fixed_point_helpers);
  RUN(test_softmax_prepare_hand);
  RUN(test_softmax_hand);
  RUN(test_softmax_tflm);
  RUN(test_softmax_vs_reference);
  RUN(test_softmax_f32);
  RUN(test_add_prepare_hand);
  RUN(test_add_hand);
  RUN(test_add_exhaustive);
  RUN(test_add_broadcast);
  RUN(test_add_tflm);
  RUN(test_add_f32_hand);
  RUN(test_pool_hand);
  RUN(test_pool_vs_reference);
  RUN(test_pool_tflm);
  RUN(test_mean_hand);
  RUN(test_mean_vs_reference);
  RUN(test_mean_tflm);
  RUN(test_pad);
  RUN(test_transpose);
  RUN(test_quantize_hand);
  RUN(test_quantize_vs_reference);
  RUN(test_quantize_edges);
  RUN(test_quantize_tflm);
  RUN(test_requantize_dequantize);
  return harness_report();
}

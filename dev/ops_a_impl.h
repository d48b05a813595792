/* Extension fragment a: kernel implementations (tflc_kernels.h).
 *
 * Included after dev/kops_impl.h, whose gemmlowp helpers (tflc__fp_*),
 * wrapping int32 helpers (tflc__kop_*) and broadcast odometer
 * (tflc__bcast) are reused here. Bit-exact with TFLM's reference kernels;
 * see reference/INT8_KERNELS.md sections 1, 3, 5, 6. */

/* ---- element access ------------------------------------------------------ */

/* Element i of an int8 (w = 1) or int16 (w = 2) array. */
static int32_t tflc__a_ld(const void *p, int w, size_t i) {
  if (w == 1)
    return ((const int8_t *)p)[i];
  return ((const int16_t *)p)[i];
}
/* Stores v clamped to [lo, hi] (within the type's range). */
static void tflc__a_st(void *p, int w, size_t i, int32_t v, int32_t lo,
                       int32_t hi) {
  if (v < lo)
    v = lo;
  if (v > hi)
    v = hi;
  if (w == 1)
    ((int8_t *)p)[i] = (int8_t)v;
  else
    ((int16_t *)p)[i] = (int16_t)v;
}
static int32_t tflc__a_tmin(int w) {
  return w == 1 ? -128 : -32768;
}
static int32_t tflc__a_tmax(int w) {
  return w == 1 ? 127 : 32767;
}

/* Saturating int32 add / subtract (TFLM SaturatingAddNonGemmlowp,
 * SaturatingSub). */
static int32_t tflc__a_sat_add(int32_t a, int32_t b) {
  const int64_t s = (int64_t)a + (int64_t)b;
  return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}
static int32_t tflc__a_sat_sub(int32_t a, int32_t b) {
  const int64_t s = (int64_t)a - (int64_t)b;
  return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}
/* Wrapping int32 multiply (x86 behaviour of TFLM's plain int products). */
static int32_t tflc__a_mul(int32_t a, int32_t b) {
  return tflc__kop_i32((uint32_t)a * (uint32_t)b);
}

/* ---- fixed point beyond dev/kops_impl.h ---------------------------------- */

/* (1 - a) / (1 + a) for a in [0, 1), both Q0.31 (gemmlowp
 * one_minus_x_over_one_plus_x_for_x_in_0_1): the Newton-Raphson iteration
 * of tflc__fp_recip_1px on (1 + a) / 2, then 2x - 1... as x - 1 in Q2.29
 * shifted left by 2 with saturation. */
static int32_t tflc__a_one_minus_over_one_plus(int32_t a) {
  const int32_t one_q2 = (int32_t)1 << 29;
  const int32_t d = tflc__fp_half_sum(a, INT32_MAX);
  int32_t x = tflc__kop_add(1515870810, tflc_srdhm(d, -1010580540));
  int i;
  for (i = 0; i < 3; ++i) {
    const int32_t dx = tflc_srdhm(d, x);
    const int32_t err = tflc__kop_sub(one_q2, dx);
    x = tflc__kop_add(x, tflc__fp_sat_shl(tflc_srdhm(x, err), 2));
  }
  return tflc__fp_sat_shl(tflc__kop_sub(x, one_q2), 2);
}

/* gemmlowp logistic(a), a with `ibits` integer bits, result Q0.31. */
static int32_t tflc__a_logistic(int32_t a, int ibits) {
  int32_t abs_a, pos;
  if (a == 0)
    return (int32_t)1 << 30;
  abs_a = a > 0 ? a : tflc__kop_sub(0, a);
  pos = tflc__fp_recip_1px(tflc__fp_exp_neg(tflc__kop_sub(0, abs_a), ibits));
  return a > 0 ? pos : tflc__kop_sub(INT32_MAX, pos);
}

/* gemmlowp tanh(a), a with `ibits` integer bits, result Q0.31. exp(2n)
 * is exp_on_negative_values of the same raw with one more integer bit. */
static int32_t tflc__a_tanh(int32_t a, int ibits) {
  int32_t n, t;
  if (a == 0)
    return 0;
  n = a < 0 ? a : tflc__kop_sub(0, a);
  t = tflc__a_one_minus_over_one_plus(tflc__fp_exp_neg(n, ibits + 1));
  return a < 0 ? tflc__kop_sub(0, t) : t;
}

/* TFLM log_x_for_x_greater_than_or_equal_to_1<5>(x in Q12.19), Q5.26. */
static int32_t tflc__a_log_q12_to_q5(int32_t z) {
  const int32_t log2 = 1488522236, ssh = 1805811301, sh = 1518500250;
  const int32_t an = 117049297, ad = 127690142, ai = 1057819769, af = 638450708;
  const int acc_bits = 6; /* output integer bits + 1 */
  const int32_t sq = tflc_rdbpot(536870912, acc_bits);
  const int h1 = tflc__kop_clz32((uint32_t)z);
  const int32_t ra =
      tflc__fp_sat_shl(tflc_srdhm(tflc__fp_sat_shl(z, h1 - 1), sh), 1);
  const int32_t za =
      tflc__a_sat_add(tflc__fp_sat_shl(12 - h1, 31 - acc_bits), sq);
  const int32_t zb = tflc_srdhm(z, sh);
  const int hb = tflc__kop_clz32((uint32_t)zb) - 1;
  const int32_t rb = tflc__fp_sat_shl(z, hb);
  const int32_t zb_adj =
      tflc__a_sat_sub(tflc__fp_sat_shl(12 - hb, 31 - acc_bits), sq);
  const int32_t r = ra < rb ? ra : rb;
  const int32_t zadj = za > zb_adj ? za : zb_adj;
  const int32_t p = tflc__fp_half_sum(r, ssh);
  int32_t q = tflc__kop_sub(r, ssh), cs, num, den, rd, s;
  q = tflc__kop_add(q, q);
  cs = tflc_srdhm(q, q);
  num = tflc__kop_add(tflc_srdhm(q, r), tflc_srdhm(tflc_srdhm(q, cs), an));
  den = tflc__kop_add(
      tflc_srdhm(p, tflc__kop_add(tflc__kop_add(ai, q), tflc_srdhm(ad, cs))),
      tflc_srdhm(af, q));
  rd = tflc__fp_recip_1px(den);
  s = tflc__kop_add(tflc_srdhm(zadj, log2),
                    tflc_srdhm(tflc_rdbpot(num, acc_bits), rd));
  return tflc__fp_sat_shl(s, acc_bits - 5);
}

/* TFLM GetInvSqrtQuantizedMultiplierExp(v, reverse_shift = -1). */
static void tflc__a_inv_sqrt(int32_t v, int32_t *mult, int32_t *shift) {
  const int32_t one_q3 = (int32_t)1 << 28;
  const int32_t half_three = ((int32_t)1 << 28) + ((int32_t)1 << 27);
  int32_t sh = 11, half_in, x;
  int pairs, i;
  if (v <= 1) {
    *mult = INT32_MAX;
    *shift = 0;
    return;
  }
  while (v >= ((int32_t)1 << 29)) {
    v /= 4;
    ++sh;
  }
  pairs = (tflc__kop_clz32((uint32_t)v) - 1) / 2 - 1;
  sh -= pairs;
  v = tflc__kop_i32((uint32_t)v << (2 * pairs));
  half_in = tflc_rdbpot(v >> 1, 1);
  x = one_q3;
  for (i = 0; i < 5; ++i) {
    const int32_t x3 =
        tflc__fp_sat_shl(tflc_srdhm(tflc_srdhm(x, x), x), 6); /* Q9 -> Q3 */
    x = tflc__fp_sat_shl(
        tflc__kop_sub(tflc_srdhm(half_three, x), tflc_srdhm(half_in, x3)),
        3); /* Q6 -> Q3 */
  }
  x = tflc_srdhm(x, 1518500250); /* * sqrt(1/2) */
  if (sh < 0) {
    x = tflc__kop_i32((uint32_t)x << (-sh));
    sh = 0;
  }
  *mult = x;
  *shift = -sh;
}

/* gemmlowp int16 SaturatingRoundingDoublingHighMul. */
static int32_t tflc__a_srdhm16(int32_t a, int32_t b) {
  const int32_t ab = a * b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  if (a == -32768 && b == -32768)
    return 32767;
  return (int32_t)(int16_t)((ab + nudge) / (1 << 15));
}
/* gemmlowp RoundingDivideByPOT on int16 values (exponent 0..31; a mask
 * wider than 16 bits truncates to -1 as in the int16 instantiation). */
static int32_t tflc__a_rdbpot16(int32_t x, int e) {
  int32_t mask, rem, thr, r;
  if (e <= 0)
    return x;
  mask = e >= 16 ? -1 : (int32_t)((1 << e) - 1);
  rem = x & mask;
  thr = (mask >> 1) + (x < 0 ? 1 : 0);
  r = (e >= 16 ? (x < 0 ? -1 : 0) : (x >> e)) + (rem > thr ? 1 : 0);
  return (int32_t)(int16_t)r;
}
/* TFLM reference_ops::SaturatingLeftShift (int16). */
static int32_t tflc__a_sat_shl16(int32_t v, int amount) {
  int64_t r = (int64_t)v * ((int64_t)1 << amount);
  if (r > 32767)
    r = 32767;
  if (r < -32768)
    r = -32768;
  return (int32_t)r;
}

/* ---- MUL ------------------------------------------------------------------
 */

TFLC_API void tflc_mul_q(const tflc_mul_params *p, int w, int32_t rank,
                         const int32_t *dims1, const void *in1,
                         const int32_t *dims2, const void *in2,
                         const int32_t *out_dims, void *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    const int32_t a = p->input1_offset + tflc__a_ld(in1, w, it.off1);
    const int32_t b = p->input2_offset + tflc__a_ld(in2, w, it.off2);
    const int32_t y = p->output_offset +
                      tflc_mbqm(tflc__a_mul(a, b), p->multiplier, p->shift);
    tflc__a_st(out, w, i, y, p->act_min, p->act_max);
    tflc__bcast_next(&it);
  }
}

/* ---- ADD / SUB -------------------------------------------------------------
 */

/* QuantizeMultiplierSmallerThanOneExp: 0 when m is not in (0, 1). */
static int tflc__a_qm_below_one(double m, int32_t *q, int32_t *shift) {
  if (!(m > 0.0) || !(m < 1.0))
    return 0;
  tflc_quantize_multiplier(m, q, shift);
  return *shift <= 0;
}

TFLC_API int tflc_sub_prepare(float s1, int32_t z1, float s2, int32_t z2,
                              float so, int32_t zo, int act, int w,
                              tflc_add_params *p) {
  const int32_t ls = w == 1 ? 20 : 15;
  const float twice_max = 2 * (s1 < s2 ? s2 : s1);
  const double m1 = (double)(s1 / twice_max);
  const double m2 = (double)(s2 / twice_max);
  const double mo = (double)(twice_max / ((float)(1 << ls) * so));
  p->input1_offset = -z1;
  p->input2_offset = -z2;
  p->output_offset = zo;
  p->left_shift = ls;
  tflc_activation_range_q(act, so, zo, tflc__a_tmin(w), tflc__a_tmax(w),
                          &p->act_min, &p->act_max);
  return tflc__a_qm_below_one(m1, &p->input1_multiplier, &p->input1_shift) &&
         tflc__a_qm_below_one(m2, &p->input2_multiplier, &p->input2_shift) &&
         tflc__a_qm_below_one(mo, &p->output_multiplier, &p->output_shift);
}

TFLC_API int tflc_add_prepare_s16(float s1, int32_t z1, float s2, int32_t z2,
                                  float so, int32_t zo, int act,
                                  tflc_add_params *p) {
  const double twice_max = 2 * (double)(s1 < s2 ? s2 : s1);
  const double m1 = (double)s1 / twice_max;
  const double m2 = (double)s2 / twice_max;
  const double mo = twice_max / ((double)(1 << 15) * (double)so);
  p->input1_offset = -z1;
  p->input2_offset = -z2;
  p->output_offset = zo;
  p->left_shift = 15;
  tflc_activation_range_q(act, so, zo, -32768, 32767, &p->act_min, &p->act_max);
  return tflc__a_qm_below_one(m1, &p->input1_multiplier, &p->input1_shift) &&
         tflc__a_qm_below_one(m2, &p->input2_multiplier, &p->input2_shift) &&
         tflc__a_qm_below_one(mo, &p->output_multiplier, &p->output_shift);
}

TFLC_API void tflc_addsub_q(const tflc_add_params *p, int sub, int w,
                            int32_t rank, const int32_t *dims1, const void *in1,
                            const int32_t *dims2, const void *in2,
                            const int32_t *out_dims, void *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  const int32_t scale = (int32_t)1 << p->left_shift;
  for (i = 0; i < n; ++i) {
    const int32_t a =
        tflc__a_mul(p->input1_offset + tflc__a_ld(in1, w, it.off1), scale);
    const int32_t b =
        tflc__a_mul(p->input2_offset + tflc__a_ld(in2, w, it.off2), scale);
    const int32_t sa = tflc_mbqm(a, p->input1_multiplier, p->input1_shift);
    const int32_t sb = tflc_mbqm(b, p->input2_multiplier, p->input2_shift);
    const int32_t raw = sub ? tflc__kop_sub(sa, sb) : tflc__kop_add(sa, sb);
    const int32_t y = tflc_mbqm(raw, p->output_multiplier, p->output_shift) +
                      p->output_offset;
    tflc__a_st(out, w, i, y, p->act_min, p->act_max);
    tflc__bcast_next(&it);
  }
}

/* ---- LOGISTIC / TANH ------------------------------------------------------
 */

TFLC_API void tflc_sigmoid_prepare_s8(float in_scale, int32_t in_zp,
                                      tflc_sigmoid_params *p) {
  /* 4 integer bits; frexp without QuantizeMultiplier's correction: a
   * mantissa rounding to 2^31 converts to INT32_MIN as on x86 */
  const double real = (double)in_scale * (double)(1 << 27);
  int e = 0;
  const double f = frexp(real, &e);
  const double r = round(f * 2147483648.0);
  p->input_zp = in_zp;
  p->multiplier = r >= 2147483648.0 ? INT32_MIN : (int32_t)r;
  p->shift = e;
  p->radius = tflc__fp_input_radius(4, e);
}

TFLC_API void tflc_logistic_s8(const tflc_sigmoid_params *p, int32_t n,
                               const int8_t *in, int8_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    const int32_t v = (int32_t)in[i] - p->input_zp;
    if (v <= -p->radius) {
      out[i] = -128;
    } else if (v >= p->radius) {
      out[i] = 127;
    } else {
      const int32_t q4 = tflc_mbqm(v, p->multiplier, p->shift);
      int32_t y = tflc_rdbpot(tflc__a_logistic(q4, 4), 23) - 128;
      if (y < -128)
        y = -128;
      if (y > 127)
        y = 127;
      out[i] = (int8_t)y;
    }
  }
}

TFLC_API void tflc_tanh_s8(const tflc_sigmoid_params *p, int32_t n,
                           const int8_t *in, int8_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    const int32_t v = (int32_t)in[i] - p->input_zp;
    if (v <= -p->radius) {
      out[i] = -128;
    } else if (v >= p->radius) {
      out[i] = 127;
    } else {
      const int32_t q4 = tflc_mbqm(v, p->multiplier, p->shift);
      int32_t y = tflc_rdbpot(tflc__a_tanh(q4, 4), 24);
      if (y < -128)
        y = -128;
      if (y > 127)
        y = 127;
      out[i] = (int8_t)y;
    }
  }
}

/* ---- RELU / RELU6 / LEAKY_RELU / PRELU ------------------------------------
 */

TFLC_API void tflc_relu_q(const tflc_relu_params *p, int w, int32_t n,
                          const void *in, void *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    const int32_t x = tflc__a_ld(in, w, (size_t)i);
    const int32_t y = p->clamp_only
                          ? x
                          : p->output_zp + tflc_mbqm(x - p->input_zp,
                                                     p->multiplier, p->shift);
    tflc__a_st(out, w, (size_t)i, y, p->lo, p->hi);
  }
}

TFLC_API void tflc_leaky_relu_prepare(float in_scale, int32_t in_zp,
                                      float out_scale, int32_t out_zp,
                                      float alpha, tflc_leaky_relu_params *p) {
  p->input_zp = in_zp;
  p->output_zp = out_zp;
  tflc_quantize_multiplier((double)(in_scale * alpha / out_scale),
                           &p->mult_alpha, &p->shift_alpha);
  tflc_quantize_multiplier((double)(in_scale / out_scale), &p->mult_identity,
                           &p->shift_identity);
}

TFLC_API void tflc_leaky_relu_q(const tflc_leaky_relu_params *p, int w,
                                int32_t n, const void *in, void *out) {
  const int neg = p->mult_alpha < 0;
  const int32_t ma = neg ? tflc__kop_sub(0, p->mult_alpha) : p->mult_alpha;
  int32_t i;
  for (i = 0; i < n; ++i) {
    const int32_t v = tflc__a_ld(in, w, (size_t)i) - p->input_zp;
    int32_t y = p->output_zp;
    if (v >= 0) {
      y += tflc_mbqm(v, p->mult_identity, p->shift_identity);
    } else {
      const int32_t s = tflc_mbqm(v, ma, p->shift_alpha);
      y = neg ? tflc__kop_sub(y, s) : tflc__kop_add(y, s);
    }
    tflc__a_st(out, w, (size_t)i, y, tflc__a_tmin(w), tflc__a_tmax(w));
  }
}

TFLC_API void tflc_prelu_q(const tflc_prelu_params *p, int w_in, int w_alpha,
                           int32_t rank, const int32_t *dims_in, const void *in,
                           const int32_t *dims_alpha, const void *alpha,
                           const int32_t *out_dims, void *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims_in, dims_alpha, out_dims);
  for (i = 0; i < n; ++i) {
    const int32_t v = p->input_offset + tflc__a_ld(in, w_in, it.off1);
    int32_t y;
    if (v >= 0) {
      y = tflc_mbqm(v, p->mult1, p->shift1);
    } else {
      const int32_t a = p->alpha_offset + tflc__a_ld(alpha, w_alpha, it.off2);
      y = tflc_mbqm(tflc__a_mul(v, a), p->mult2, p->shift2);
    }
    tflc__a_st(out, w_in, i, y + p->output_offset, tflc__a_tmin(w_in),
               tflc__a_tmax(w_in));
    tflc__bcast_next(&it);
  }
}

/* ---- HARD_SWISH -----------------------------------------------------------
 */

/* TFLM DownScaleInt32ToInt16Multiplier (q >= 0). */
static int16_t tflc__a_to_q15(int32_t q) {
  if (q >= INT32_MAX - (1 << 15))
    return 32767;
  return (int16_t)((q + (1 << 15)) >> 16);
}

TFLC_API int tflc_hard_swish_prepare_s8(float in_scale, int32_t in_zp,
                                        float out_scale, int32_t out_zp,
                                        tflc_hard_swish_params *p) {
  const float hires = (1.0f / 128.0f) * in_scale;
  const float reluish_scale = 3.0f / 32768.0f;
  int32_t q, e;
  p->input_zp = in_zp;
  p->output_zp = out_zp;
  tflc_quantize_multiplier((double)(hires / out_scale), &q, &e);
  p->output_mult = tflc__a_to_q15(q < 0 ? 0 : q);
  p->output_exp = e;
  tflc_quantize_multiplier((double)(hires / reluish_scale), &q, &e);
  p->reluish_mult = tflc__a_to_q15(q < 0 ? 0 : q);
  p->reluish_exp = e;
  return p->output_exp <= 0;
}

TFLC_API void tflc_hard_swish_s8(const tflc_hard_swish_params *p, int32_t n,
                                 const int8_t *in, int8_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    /* every intermediate is an int16 as in TFLM */
    const int32_t v = (int32_t)(int16_t)((int32_t)in[i] - p->input_zp);
    const int32_t hires = (int32_t)(int16_t)(v * 128);
    const int32_t pre = tflc__a_srdhm16(hires, p->output_mult);
    int32_t r = hires, t, y;
    if (p->reluish_exp > 0)
      r = tflc__a_sat_shl16(r, (int)p->reluish_exp - 1);
    r = tflc__a_srdhm16(r, p->reluish_mult);
    if (p->reluish_exp > 0)
      r = tflc__a_sat_shl16(r, 1);
    if (p->reluish_exp < 0)
      r = tflc__a_rdbpot16(r, (int)-p->reluish_exp);
    r = (int32_t)(int16_t)((r + (1 << 15)) >> 1);
    /* non-rounding doubling high mul, truncating division */
    t = (r == -32768 && pre == -32768) ? 32767
                                       : (int32_t)(int16_t)((r * pre) / 32768);
    y = tflc__a_rdbpot16(t, (int)-p->output_exp) + p->output_zp;
    y = (int32_t)(((uint32_t)y + 32768u) & 0xFFFFu) - 32768; /* int16 wrap */
    if (y > 127)
      y = 127;
    if (y < -128)
      y = -128;
    out[i] = (int8_t)y;
  }
}

/* ---- L2_NORMALIZATION -----------------------------------------------------
 */

TFLC_API void tflc_l2norm_s8(int32_t input_zp, int32_t rows, int32_t depth,
                             const int8_t *in, int8_t *out) {
  int32_t r, c;
  for (r = 0; r < rows; ++r) {
    const int8_t *x = in + (size_t)r * (size_t)depth;
    int8_t *y = out + (size_t)r * (size_t)depth;
    int32_t acc = 0, mult, shift;
    for (c = 0; c < depth; ++c) {
      const int32_t v = (int32_t)x[c] - input_zp;
      acc = tflc__kop_add(acc, v * v);
    }
    tflc__a_inv_sqrt(acc, &mult, &shift);
    for (c = 0; c < depth; ++c) {
      int32_t v = tflc_mbqm((int32_t)x[c] - input_zp, mult, shift + 7);
      if (v < -128)
        v = -128;
      if (v > 127)
        v = 127;
      y[c] = (int8_t)v;
    }
  }
}

/* ---- LOG_SOFTMAX ----------------------------------------------------------
 */

TFLC_API void tflc_log_softmax_prepare_s8(float in_scale,
                                          tflc_log_softmax_params *p) {
  tflc_softmax_params sp;
  double divisor;
  int32_t q = 0, s = 0;
  tflc_softmax_prepare_s8(1.0f, in_scale, &sp); /* beta fixed to 1 */
  p->input_multiplier = sp.input_multiplier;
  p->input_left_shift = sp.input_left_shift;
  p->diff_min = sp.diff_min;
  /* (1 << (31 - left_shift)) is an int in TFLM: 2^31 wraps negative */
  divisor = (double)tflc__kop_i32((uint32_t)1 << (31 - sp.input_left_shift)) /
            (double)sp.input_multiplier;
  if (divisor > 0.0 && divisor < 1.0)
    tflc_quantize_multiplier(divisor, &q, &s);
  p->reverse_divisor = q;
  p->reverse_shift = s;
}

TFLC_API void tflc_log_softmax_s8(const tflc_log_softmax_params *p,
                                  int32_t rows, int32_t depth, const int8_t *in,
                                  int8_t *out) {
  const int32_t mult = p->input_multiplier, shift = p->input_left_shift;
  int32_t r, c;
  for (r = 0; r < rows; ++r) {
    const int8_t *x = in + (size_t)r * (size_t)depth;
    int8_t *y = out + (size_t)r * (size_t)depth;
    int32_t max = -128, sum = 0, log_sum, adj, lim;
    for (c = 0; c < depth; ++c) {
      if (x[c] > max)
        max = x[c];
    }
    for (c = 0; c < depth; ++c) {
      const int32_t diff = (int32_t)x[c] - max;
      if (diff >= p->diff_min) {
        const int32_t e = tflc__fp_exp_neg(tflc_mbqm(diff, mult, shift), 5);
        sum = tflc__kop_add(sum, tflc_rdbpot(e, 12));
      }
    }
    log_sum = tflc__a_log_q12_to_q5(sum);
    adj = tflc_mbqm(tflc__kop_add(log_sum, INT32_MIN), p->reverse_divisor,
                    p->reverse_shift);
    lim = p->diff_min - 1;
    if (adj > lim)
      lim = adj;
    for (c = 0; c < depth; ++c) {
      const int32_t diff = (int32_t)x[c] - max;
      if (diff > lim) {
        const int32_t d5 = tflc_mbqm(diff, mult, shift);
        int32_t v = tflc_rdbpot(tflc__kop_sub(d5, log_sum), 22) + 127;
        if (v > 127)
          v = 127;
        if (v < -128)
          v = -128;
        y[c] = (int8_t)v;
      } else {
        y[c] = -128;
      }
    }
  }
}

/* ---- MAXIMUM / MINIMUM ----------------------------------------------------
 */

TFLC_API void tflc_maxmin(int type, int is_max, int32_t rank,
                          const int32_t *dims1, const void *in1,
                          const int32_t *dims2, const void *in2,
                          const int32_t *out_dims, void *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    const size_t a = it.off1, b = it.off2;
    switch (type) {
    case TFLC_FLOAT32: {
      const float x = ((const float *)in1)[a], y = ((const float *)in2)[b];
      ((float *)out)[i] = is_max ? (x > y ? x : y) : (x < y ? x : y);
      break;
    }
    case TFLC_INT16: {
      const int16_t x = ((const int16_t *)in1)[a],
                    y = ((const int16_t *)in2)[b];
      ((int16_t *)out)[i] = is_max ? (x > y ? x : y) : (x < y ? x : y);
      break;
    }
    case TFLC_INT32: {
      const int32_t x = ((const int32_t *)in1)[a],
                    y = ((const int32_t *)in2)[b];
      ((int32_t *)out)[i] = is_max ? (x > y ? x : y) : (x < y ? x : y);
      break;
    }
    case TFLC_INT64: {
      int64_t x, y;
      memcpy(&x, (const unsigned char *)in1 + 8 * a, 8);
      memcpy(&y, (const unsigned char *)in2 + 8 * b, 8);
      x = is_max ? (x > y ? x : y) : (x < y ? x : y);
      memcpy((unsigned char *)out + 8 * i, &x, 8);
      break;
    }
    default: {
      const int8_t x = ((const int8_t *)in1)[a], y = ((const int8_t *)in2)[b];
      ((int8_t *)out)[i] = is_max ? (x > y ? x : y) : (x < y ? x : y);
      break;
    }
    }
    tflc__bcast_next(&it);
  }
}

/* ---- comparisons ----------------------------------------------------------
 */

static uint8_t tflc__a_cmp_i64(int cmp, int64_t a, int64_t b) {
  switch (cmp) {
  case TFLC_CMP_EQUAL:
    return a == b;
  case TFLC_CMP_NOT_EQUAL:
    return a != b;
  case TFLC_CMP_LESS:
    return a < b;
  case TFLC_CMP_LESS_EQUAL:
    return a <= b;
  case TFLC_CMP_GREATER:
    return a > b;
  default:
    return a >= b;
  }
}
static uint8_t tflc__a_cmp_f32(int cmp, float a, float b) {
  switch (cmp) {
  case TFLC_CMP_EQUAL:
    return a == b;
  case TFLC_CMP_NOT_EQUAL:
    return a != b;
  case TFLC_CMP_LESS:
    return a < b;
  case TFLC_CMP_LESS_EQUAL:
    return a <= b;
  case TFLC_CMP_GREATER:
    return a > b;
  default:
    return a >= b;
  }
}

TFLC_API void tflc_compare(int type, int cmp, const tflc_cmp_params *scaled,
                           int32_t rank, const int32_t *dims1, const void *in1,
                           const int32_t *dims2, const void *in2,
                           const int32_t *out_dims, uint8_t *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    const size_t a = it.off1, b = it.off2;
    switch (type) {
    case TFLC_FLOAT32:
      out[i] = tflc__a_cmp_f32(cmp, ((const float *)in1)[a],
                               ((const float *)in2)[b]);
      break;
    case TFLC_INT32:
      out[i] = tflc__a_cmp_i64(cmp, ((const int32_t *)in1)[a],
                               ((const int32_t *)in2)[b]);
      break;
    case TFLC_INT64: {
      int64_t x, y;
      memcpy(&x, (const unsigned char *)in1 + 8 * a, 8);
      memcpy(&y, (const unsigned char *)in2 + 8 * b, 8);
      out[i] = tflc__a_cmp_i64(cmp, x, y);
      break;
    }
    case TFLC_BOOL:
      out[i] = tflc__a_cmp_i64(cmp, ((const uint8_t *)in1)[a] != 0,
                               ((const uint8_t *)in2)[b] != 0);
      break;
    default: {
      /* int8 with rescaling: both sides on a common 2^-8 grid */
      const int32_t x =
          (scaled->input1_offset + ((const int8_t *)in1)[a]) * (1 << 8);
      const int32_t y =
          (scaled->input2_offset + ((const int8_t *)in2)[b]) * (1 << 8);
      out[i] = tflc__a_cmp_i64(cmp, tflc_mbqm(x, scaled->mult1, scaled->shift1),
                               tflc_mbqm(y, scaled->mult2, scaled->shift2));
      break;
    }
    }
    tflc__bcast_next(&it);
  }
}

/* ---- SUM ------------------------------------------------------------------
 */

/* Splits the input axes into kept (outer) and reduced (inner) odometers,
 * each with its input stride, in input order. Returns the number of
 * outputs; *n_red receives the reduced element count, *empty 1 when a
 * dim is 0. */
typedef struct tflc__a_reduce {
  int32_t nk, nr;
  int32_t kd[TFLC_MAX_DIMS], rd[TFLC_MAX_DIMS];
  size_t ks[TFLC_MAX_DIMS], rs[TFLC_MAX_DIMS];
  size_t n_out;
  int64_t n_red;
  int empty;
} tflc__a_reduce;

static void tflc__a_reduce_init(tflc__a_reduce *r, int32_t rank,
                                const int32_t *dims, uint32_t mask) {
  int32_t k, a = 0, b = 0;
  size_t stride = 1;
  r->nk = r->nr = 0;
  r->n_out = 1;
  r->n_red = 1;
  r->empty = 0;
  for (k = 0; k < rank; ++k) {
    if (dims[k] == 0)
      r->empty = 1;
    if (mask & ((uint32_t)1 << k))
      ++r->nr;
    else
      ++r->nk;
  }
  a = r->nk;
  b = r->nr;
  for (k = rank - 1; k >= 0; --k) {
    if (mask & ((uint32_t)1 << k)) {
      --b;
      r->rd[b] = dims[k];
      r->rs[b] = stride;
      r->n_red *= dims[k];
    } else {
      --a;
      r->kd[a] = dims[k];
      r->ks[a] = stride;
      r->n_out *= (size_t)dims[k];
    }
    stride *= (size_t)dims[k];
  }
}

/* Advances an odometer (dims d, strides s, index idx) and the offset. */
static void tflc__a_odo_next(int32_t n, const int32_t *d, const size_t *s,
                             int32_t *idx, size_t *off) {
  int32_t k;
  for (k = n - 1; k >= 0; --k) {
    *off += s[k];
    if (++idx[k] < d[k])
      return;
    *off -= s[k] * (size_t)d[k];
    idx[k] = 0;
  }
}

TFLC_API void tflc_sum_q(const tflc_mean_params *p, int w, int32_t rank,
                         const int32_t *in_dims, uint32_t axis_mask,
                         const void *in, void *out) {
  tflc__a_reduce r;
  int32_t ki[TFLC_MAX_DIMS], ri[TFLC_MAX_DIMS];
  size_t o, base = 0;
  int32_t k;
  tflc__a_reduce_init(&r, rank, in_dims, axis_mask);
  if (r.empty) {
    /* TFLM zeroes the output and stops */
    for (o = 0; o < r.n_out; ++o)
      tflc__a_st(out, w, o, 0, 0, 0);
    return;
  }
  for (k = 0; k < TFLC_MAX_DIMS; ++k)
    ki[k] = ri[k] = 0;
  for (o = 0; o < r.n_out; ++o) {
    int32_t sum = 0, y;
    size_t off = base;
    int64_t i;
    for (i = 0; i < r.n_red; ++i) {
      sum = tflc__kop_add(sum, tflc__a_ld(in, w, off));
      tflc__a_odo_next(r.nr, r.rd, r.rs, ri, &off);
    }
    y = tflc_mbqm(
            tflc__kop_i32((uint32_t)(uint64_t)((int64_t)sum -
                                               (int64_t)p->input_zp * r.n_red)),
            p->multiplier, p->shift) +
        p->output_zp;
    tflc__a_st(out, w, o, y, tflc__a_tmin(w), tflc__a_tmax(w));
    tflc__a_odo_next(r.nk, r.kd, r.ks, ki, &base);
  }
}

TFLC_API void tflc_sum_f32(int32_t rank, const int32_t *in_dims,
                           uint32_t axis_mask, const float *in, float *out) {
  tflc__a_reduce r;
  int32_t ki[TFLC_MAX_DIMS], ri[TFLC_MAX_DIMS];
  size_t o, base = 0;
  int32_t k;
  tflc__a_reduce_init(&r, rank, in_dims, axis_mask);
  for (o = 0; o < r.n_out; ++o)
    out[o] = 0.0f;
  if (r.empty)
    return;
  for (k = 0; k < TFLC_MAX_DIMS; ++k)
    ki[k] = ri[k] = 0;
  for (o = 0; o < r.n_out; ++o) {
    float sum = 0.0f;
    size_t off = base;
    int64_t i;
    for (i = 0; i < r.n_red; ++i) {
      sum = in[off] + sum;
      tflc__a_odo_next(r.nr, r.rd, r.rs, ri, &off);
    }
    out[o] = sum;
    tflc__a_odo_next(r.nk, r.kd, r.ks, ki, &base);
  }
}

/* ---- ARG_MAX / ARG_MIN ----------------------------------------------------
 */

static int tflc__a_better(int type, int is_max, const void *in, size_t a,
                          size_t b) {
  /* 1 when element a strictly beats element b */
  if (type == TFLC_FLOAT32) {
    const float x = ((const float *)in)[a], y = ((const float *)in)[b];
    return is_max ? x > y : x < y;
  } else {
    int64_t x, y;
    if (type == TFLC_INT32) {
      x = ((const int32_t *)in)[a];
      y = ((const int32_t *)in)[b];
    } else if (type == TFLC_INT16) {
      x = ((const int16_t *)in)[a];
      y = ((const int16_t *)in)[b];
    } else {
      x = ((const int8_t *)in)[a];
      y = ((const int8_t *)in)[b];
    }
    return is_max ? x > y : x < y;
  }
}

TFLC_API void tflc_arg_minmax(int type, int is_max, int32_t outer,
                              int32_t axis_size, int32_t inner, const void *in,
                              int32_t *out) {
  int32_t o, j, i;
  for (o = 0; o < outer; ++o) {
    for (j = 0; j < inner; ++j) {
      const size_t base = (size_t)o * (size_t)axis_size * (size_t)inner;
      size_t best = base + (size_t)j;
      int32_t idx = 0;
      for (i = 1; i < axis_size; ++i) {
        const size_t cur = base + (size_t)i * (size_t)inner + (size_t)j;
        if (tflc__a_better(type, is_max, in, cur, best)) {
          best = cur;
          idx = i;
        }
      }
      out[(size_t)o * (size_t)inner + (size_t)j] = idx;
    }
  }
}

/* ---- requantize / dequantize ----------------------------------------------
 */

static int32_t tflc__a_ld_any(int type, const void *p, size_t i) {
  switch (type) {
  case TFLC_UINT8:
    return ((const uint8_t *)p)[i];
  case TFLC_INT16:
    return ((const int16_t *)p)[i];
  case TFLC_INT32:
    return ((const int32_t *)p)[i];
  default:
    return ((const int8_t *)p)[i];
  }
}

TFLC_API void tflc_requantize(int in_type, int out_type, int32_t q,
                              int32_t shift, int32_t in_zp, int32_t out_zp,
                              int32_t n, const void *in, void *out) {
  int32_t i, lo, hi;
  if (q == ((int32_t)1 << 30) && shift == 1) {
    const int32_t zd = in_zp - out_zp;
    if ((in_type == TFLC_INT8 && out_type == TFLC_UINT8 && zd == -128) ||
        (in_type == TFLC_UINT8 && out_type == TFLC_INT8 && zd == 128)) {
      for (i = 0; i < n; ++i)
        ((uint8_t *)out)[i] = (uint8_t)(((const uint8_t *)in)[i] ^ 0x80u);
      return;
    }
  }
  switch (out_type) {
  case TFLC_UINT8:
    lo = 0;
    hi = 255;
    break;
  case TFLC_INT16:
    lo = -32768;
    hi = 32767;
    break;
  case TFLC_INT32:
    lo = INT32_MIN;
    hi = INT32_MAX;
    break;
  default:
    lo = -128;
    hi = 127;
    break;
  }
  for (i = 0; i < n; ++i) {
    const int32_t x =
        tflc__kop_sub(tflc__a_ld_any(in_type, in, (size_t)i), in_zp);
    int32_t y = tflc__kop_add(tflc_mbqm(x, q, shift), out_zp);
    if (y < lo)
      y = lo;
    if (y > hi)
      y = hi;
    switch (out_type) {
    case TFLC_UINT8:
      ((uint8_t *)out)[i] = (uint8_t)y;
      break;
    case TFLC_INT16:
      ((int16_t *)out)[i] = (int16_t)y;
      break;
    case TFLC_INT32:
      ((int32_t *)out)[i] = y;
      break;
    default:
      ((int8_t *)out)[i] = (int8_t)y;
      break;
    }
  }
}

TFLC_API void tflc_dequantize_u8_f32(float scale, int32_t zp, int32_t n,
                                     const uint8_t *in, float *out) {
  int32_t i;
  for (i = 0; i < n; ++i)
    out[i] = (float)((double)scale * (double)((int32_t)in[i] - zp));
}

/* ---- float32 variants -------------------------------------------------------
 * Same operations in the same order as TFLM's float reference kernels;
 * float math functions (expf, tanhf, logf, sqrtf) as std:: on floats. */

TFLC_API void tflc_binary_f32(int op, float act_min, float act_max,
                              int32_t rank, const int32_t *dims1,
                              const float *in1, const int32_t *dims2,
                              const float *in2, const int32_t *out_dims,
                              float *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    const float a = in1[it.off1], b = in2[it.off2];
    float v = op == 0 ? a * b : a - b;
    /* min(max(v, lo), hi) with std::max / std::min's comparisons */
    v = v < act_min ? act_min : v;
    v = act_max < v ? act_max : v;
    out[i] = v;
    tflc__bcast_next(&it);
  }
}

TFLC_API void tflc_unary_f32(int kind, float alpha, int32_t n, const float *in,
                             float *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    const float v = in[i];
    float y;
    switch (kind) {
    case TFLC_F32_RELU:
      y = v < 0.0f ? 0.0f : v;
      break;
    case TFLC_F32_RELU6:
      y = v > 6.0f ? 6.0f : v < 0.0f ? 0.0f : v;
      break;
    case TFLC_F32_LEAKY_RELU:
      y = v > 0.0f ? v : v * alpha;
      break;
    case TFLC_F32_LOGISTIC:
      /* TFLM's cut-offs: 1 above 16.619..., exp(v) below -9 */
      if (v > 16.619047164916992188f)
        y = 1.0f;
      else if (v < -9.0f)
        y = expf(v);
      else
        y = 1.0f / (1.0f + expf(-v));
      break;
    case TFLC_F32_TANH:
      y = tanhf(v);
      break;
    default: { /* HARD_SWISH: v * min(6, max(0, v + 3)) / 6 */
      float r = v + 3.0f;
      r = 0.0f < r ? r : 0.0f;
      r = r < 6.0f ? r : 6.0f;
      y = v * r / 6.0f;
      break;
    }
    }
    out[i] = y;
  }
}

TFLC_API void tflc_prelu_f32(int32_t rank, const int32_t *dims_in,
                             const float *in, const int32_t *dims_alpha,
                             const float *alpha, const int32_t *out_dims,
                             float *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims_in, dims_alpha, out_dims);
  for (i = 0; i < n; ++i) {
    const float v = in[it.off1];
    out[i] = v >= 0.0f ? v : v * alpha[it.off2];
    tflc__bcast_next(&it);
  }
}

TFLC_API void tflc_l2norm_f32(int32_t rows, int32_t depth, const float *in,
                              float *out) {
  int32_t r, c;
  for (r = 0; r < rows; ++r) {
    const float *x = in + (size_t)r * (size_t)depth;
    float *y = out + (size_t)r * (size_t)depth;
    float ss = 0.0f, norm;
    for (c = 0; c < depth; ++c)
      ss += x[c] * x[c];
    norm = sqrtf(ss);
    norm = norm < 1e-6f ? 1e-6f : norm;
    for (c = 0; c < depth; ++c)
      y[c] = x[c] / norm;
  }
}

TFLC_API void tflc_log_softmax_f32(int32_t rows, int32_t depth, const float *in,
                                   float *out) {
  int32_t r, c;
  for (r = 0; r < rows; ++r) {
    const float *x = in + (size_t)r * (size_t)depth;
    float *y = out + (size_t)r * (size_t)depth;
    float max = -FLT_MAX, sum = 0.0f, log_sum;
    for (c = 0; c < depth; ++c)
      max = max < x[c] ? x[c] : max;
    for (c = 0; c < depth; ++c)
      sum += expf(x[c] - max);
    log_sum = logf(sum);
    for (c = 0; c < depth; ++c)
      y[c] = x[c] - max - log_sum;
  }
}

/* dev/kops_impl.h - implementation fragment of tflc_kernels.h: pooling,
 * softmax, element-wise add, MEAN, PAD, TRANSPOSE, quantize/dequantize.
 *
 * Included from (and later pasted into) the implementation section of
 * tflc_kernels.h, after the quantization helpers it relies on
 * (tflc_quantize_multiplier, tflc_srdhm, tflc_rdbpot, tflc_mbqm,
 * tflc_activation_range_q). All arithmetic follows TFLM's reference kernels
 * bit for bit; see reference/INT8_KERNELS.md sections 1, 3, 4, 5.1, 6. */

/* ---- small integer helpers ---------------------------------------------- */

/* Reinterpret the low 32 bits as a two's complement int32 (no UB). */
static int32_t tflc__kop_i32(uint32_t u) {
  return u <= 0x7FFFFFFFu ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}

/* Wrapping int32 add / subtract (gemmlowp's int32 fixed-point +, -). */
static int32_t tflc__kop_add(int32_t a, int32_t b) {
  return tflc__kop_i32((uint32_t)a + (uint32_t)b);
}
static int32_t tflc__kop_sub(int32_t a, int32_t b) {
  return tflc__kop_i32((uint32_t)a - (uint32_t)b);
}

static int tflc__kop_clz32(uint32_t x) {
  int n = 0;
  if (x == 0)
    return 32;
  while (!(x & 0x80000000u)) {
    x <<= 1;
    ++n;
  }
  return n;
}

static int tflc__kop_clz64(uint64_t x) {
  int n = 0;
  if (x == 0)
    return 64;
  while (!(x & ((uint64_t)1 << 63))) {
    x <<= 1;
    ++n;
  }
  return n;
}

/* ---- gemmlowp fixed point (scalar int32) ---------------------------------
 * A raw int32 with k integer bits holds value raw * 2^(k - 31). */

/* Saturating multiply by 2^e, 0 <= e <= 31 (gemmlowp's Rescale to fewer
 * integer bits): beyond +-(2^(31-e) - 1) the result saturates. */
static int32_t tflc__fp_sat_shl(int32_t x, int e) {
  int32_t limit;
  if (e <= 0)
    return x;
  limit = (int32_t)((((uint32_t)1) << (31 - e)) - 1u);
  if (x > limit)
    return INT32_MAX;
  if (x < -limit)
    return INT32_MIN;
  return tflc__kop_i32((uint32_t)x << e);
}

/* (a + b) / 2 rounded half away from zero, in 64 bits. */
static int32_t tflc__fp_half_sum(int32_t a, int32_t b) {
  const int64_t s = (int64_t)a + (int64_t)b;
  return (int32_t)((s + (s >= 0 ? 1 : -1)) / 2);
}

/* exp(a) for a in [-1/4, 0), a and result with 0 integer bits. Taylor series
 * of degree 4 around -1/8. */
static int32_t tflc__fp_exp_quarter(int32_t a) {
  const int32_t exp_m1_8 = 1895147668; /* exp(-1/8) */
  const int32_t third = 715827883;     /* 1/3 */
  const int32_t x = tflc__kop_add(a, (int32_t)1 << 28);
  const int32_t x2 = tflc_srdhm(x, x);
  const int32_t x3 = tflc_srdhm(x2, x);
  const int32_t x4 = tflc_srdhm(x2, x2);
  const int32_t x4_4 = tflc_rdbpot(x4, 2);
  const int32_t poly = tflc_rdbpot(
      tflc__kop_add(tflc_srdhm(tflc__kop_add(x4_4, x3), third), x2), 1);
  return tflc__kop_add(exp_m1_8, tflc_srdhm(exp_m1_8, tflc__kop_add(x, poly)));
}

/* exp(a) for a <= 0 given with `ibits` integer bits (0..29); result has 0
 * integer bits. Splits a into a multiple of 1/4 and a rest in [-1/4, 0),
 * then multiplies in exp(-2^e) for each set bit of the multiple. */
static int32_t tflc__fp_exp_neg(int32_t a, int ibits) {
  static const int32_t factors[7] = {
      1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  const int fbits = 31 - ibits;
  const int32_t quarter = (int32_t)1 << (fbits - 2);
  const int32_t a_mod = (a & (quarter - 1)) - quarter;
  const uint32_t rest = (uint32_t)tflc__kop_sub(a_mod, a);
  int32_t r = tflc__fp_exp_quarter(tflc__fp_sat_shl(a_mod, ibits));
  int e;
  for (e = -2; e <= 4; ++e) {
    if (ibits > e && (rest & ((uint32_t)1 << (fbits + e))) != 0)
      r = tflc_srdhm(r, factors[e + 2]);
  }
  if (ibits > 5 && a < -((int32_t)1 << (36 - ibits)))
    r = 0;
  if (a == 0)
    r = INT32_MAX;
  return r;
}

/* 1 / (1 + a) for a in [0, 1), both with 0 integer bits: Newton-Raphson
 * in a 2-integer-bit format starting from 48/17 - 32/17 * d. */
static int32_t tflc__fp_recip_1px(int32_t a) {
  const int32_t one_q2 = (int32_t)1 << 29;
  const int32_t d = tflc__fp_half_sum(a, INT32_MAX);
  int32_t x = tflc__kop_add(1515870810, tflc_srdhm(d, -1010580540));
  int i;
  for (i = 0; i < 3; ++i) {
    const int32_t dx = tflc_srdhm(d, x);
    const int32_t err = tflc__kop_sub(one_q2, dx);
    x = tflc__kop_add(x, tflc__fp_sat_shl(tflc_srdhm(x, err), 2));
  }
  return tflc__fp_sat_shl(x, 1);
}

/* TFLM GetReciprocal: 1/x for x with `ibits` integer bits, returned as a
 * 0-integer-bit value scaled by 2^-(*bits_over_unit). */
static int32_t tflc__fp_reciprocal(int32_t x, int ibits, int *bits_over_unit) {
  const int h = tflc__kop_clz32((uint32_t)x);
  const uint32_t norm = h >= 32 ? 0u : ((uint32_t)x << h);
  *bits_over_unit = ibits - h;
  return tflc__fp_recip_1px(tflc__kop_i32(norm - 0x80000000u));
}

/* TFLM CalculateInputRadius with 31 total bits, in double like TFLM. */
static int32_t tflc__fp_input_radius(int ibits, int left_shift) {
  const double r = 1.0 * (double)((1 << ibits) - 1) *
                   (double)((int64_t)1 << (31 - ibits)) /
                   ldexp(1.0, left_shift);
  const double f = floor(r);
  if (f >= 2147483647.0)
    return INT32_MAX;
  return (int32_t)f;
}

/* ---- pooling --------------------------------------------------------------
 */

/* Clipped filter window of one output position on one axis. */
static void tflc__pool_window(int32_t out_pos, int32_t stride, int32_t pad,
                              int32_t filter, int32_t in_size, int32_t *origin,
                              int32_t *start, int32_t *end) {
  const int32_t o = out_pos * stride - pad;
  *origin = o;
  *start = o < 0 ? -o : 0;
  *end = filter < in_size - o ? filter : in_size - o;
}

TFLC_API tflc_status tflc_avg_pool_s8(const tflc_pool_params *p,
                                      const int32_t in_dims[4],
                                      const int8_t *in,
                                      const int32_t out_dims[4], int8_t *out) {
  const int32_t batches = in_dims[0], in_h = in_dims[1], in_w = in_dims[2];
  const int32_t depth = in_dims[3];
  const int32_t out_h = out_dims[1], out_w = out_dims[2];
  int32_t b, oy, ox, c, fy, fx;
  for (b = 0; b < batches; ++b) {
    for (oy = 0; oy < out_h; ++oy) {
      int32_t y0, ys, ye;
      tflc__pool_window(oy, p->stride_h, p->pad_h, p->filter_h, in_h, &y0, &ys,
                        &ye);
      for (ox = 0; ox < out_w; ++ox) {
        int32_t x0, xs, xe;
        int8_t *dst =
            out + (((size_t)b * (size_t)out_h + (size_t)oy) * (size_t)out_w +
                   (size_t)ox) *
                      (size_t)depth;
        tflc__pool_window(ox, p->stride_w, p->pad_w, p->filter_w, in_w, &x0,
                          &xs, &xe);
        for (c = 0; c < depth; ++c) {
          int32_t acc = 0, n = 0;
          for (fy = ys; fy < ye; ++fy) {
            const int8_t *row =
                in + ((size_t)b * (size_t)in_h + (size_t)(y0 + fy)) *
                         (size_t)in_w * (size_t)depth;
            for (fx = xs; fx < xe; ++fx) {
              acc += row[(size_t)(x0 + fx) * (size_t)depth + (size_t)c];
              ++n;
            }
          }
          if (n == 0)
            return TFLC_ERR_KERNEL;
          /* round half away from zero with truncating division */
          acc = acc > 0 ? (acc + n / 2) / n : (acc - n / 2) / n;
          if (acc < p->act_min)
            acc = p->act_min;
          if (acc > p->act_max)
            acc = p->act_max;
          dst[c] = (int8_t)acc;
        }
      }
    }
  }
  return TFLC_OK;
}

TFLC_API void tflc_max_pool_s8(const tflc_pool_params *p,
                               const int32_t in_dims[4], const int8_t *in,
                               const int32_t out_dims[4], int8_t *out) {
  const int32_t batches = in_dims[0], in_h = in_dims[1], in_w = in_dims[2];
  const int32_t depth = in_dims[3];
  const int32_t out_h = out_dims[1], out_w = out_dims[2];
  int32_t b, oy, ox, c, fy, fx;
  for (b = 0; b < batches; ++b) {
    for (oy = 0; oy < out_h; ++oy) {
      int32_t y0, ys, ye;
      tflc__pool_window(oy, p->stride_h, p->pad_h, p->filter_h, in_h, &y0, &ys,
                        &ye);
      for (ox = 0; ox < out_w; ++ox) {
        int32_t x0, xs, xe;
        int8_t *dst =
            out + (((size_t)b * (size_t)out_h + (size_t)oy) * (size_t)out_w +
                   (size_t)ox) *
                      (size_t)depth;
        tflc__pool_window(ox, p->stride_w, p->pad_w, p->filter_w, in_w, &x0,
                          &xs, &xe);
        for (c = 0; c < depth; ++c) {
          int32_t m = -128;
          for (fy = ys; fy < ye; ++fy) {
            const int8_t *row =
                in + ((size_t)b * (size_t)in_h + (size_t)(y0 + fy)) *
                         (size_t)in_w * (size_t)depth;
            for (fx = xs; fx < xe; ++fx) {
              const int32_t v =
                  row[(size_t)(x0 + fx) * (size_t)depth + (size_t)c];
              if (v > m)
                m = v;
            }
          }
          if (m < p->act_min)
            m = p->act_min;
          if (m > p->act_max)
            m = p->act_max;
          dst[c] = (int8_t)m;
        }
      }
    }
  }
}

/* ---- softmax ----------------------------------------------------------------
 */

TFLC_API void tflc_softmax_prepare_s8(float beta, float in_scale,
                                      tflc_softmax_params *p) {
  /* TFLM PreprocessSoftmaxScaling with 5 integer bits for the scaled
   * difference (its CHECK requires the real multiplier to exceed 1). */
  double real = (double)beta * (double)in_scale * (double)(1 << 26);
  int32_t q, shift;
  if (real > 2147483647.0)
    real = 2147483647.0;
  tflc_quantize_multiplier(real, &q, &shift);
  p->input_multiplier = q;
  p->input_left_shift = shift;
  p->diff_min = (int32_t)(-1.0 * (double)tflc__fp_input_radius(5, shift));
}

/* int8 input; int8 (out_bits 8, zero point -128) or int16 (out_bits 16,
 * zero point -32768) output. */
static void tflc__softmax_s8_core(const tflc_softmax_params *p, int32_t rows,
                                  int32_t depth, const int8_t *in, void *out,
                                  int out_bits) {
  const int32_t mult = p->input_multiplier;
  const int32_t shift = p->input_left_shift;
  const int32_t diff_min = p->diff_min;
  int32_t r, c;
  for (r = 0; r < rows; ++r) {
    const int8_t *x = in + (size_t)r * (size_t)depth;
    int32_t max = -128, sum = 0, recip;
    int bits_over_unit, exponent;
    for (c = 0; c < depth; ++c) {
      if (x[c] > max)
        max = x[c];
    }
    /* sum of exps with 12 integer bits (wrapping add, as gemmlowp) */
    for (c = 0; c < depth; ++c) {
      const int32_t diff = (int32_t)x[c] - max;
      if (diff >= diff_min) {
        const int32_t e = tflc__fp_exp_neg(tflc_mbqm(diff, mult, shift), 5);
        sum = tflc__kop_add(sum, tflc_rdbpot(e, 12));
      }
    }
    recip = tflc__fp_reciprocal(sum, 12, &bits_over_unit);
    exponent = bits_over_unit + 31 - out_bits;
    /* TFLM CHECK-fails outside [0, 31]; stay defined here */
    if (exponent < 0)
      exponent = 0;
    if (exponent > 31)
      exponent = 31;
    for (c = 0; c < depth; ++c) {
      const int32_t diff = (int32_t)x[c] - max;
      if (diff >= diff_min) {
        const int32_t e = tflc__fp_exp_neg(tflc_mbqm(diff, mult, shift), 5);
        const int32_t lo = out_bits == 8 ? -128 : -32768, hi = -lo - 1;
        int32_t v = tflc_rdbpot(tflc_srdhm(recip, e), exponent) + lo;
        if (v > hi)
          v = hi;
        if (v < lo)
          v = lo;
        if (out_bits == 8)
          ((int8_t *)out)[(size_t)r * (size_t)depth + (size_t)c] = (int8_t)v;
        else
          ((int16_t *)out)[(size_t)r * (size_t)depth + (size_t)c] = (int16_t)v;
      } else if (out_bits == 8) {
        ((int8_t *)out)[(size_t)r * (size_t)depth + (size_t)c] = -128;
      } else {
        ((int16_t *)out)[(size_t)r * (size_t)depth + (size_t)c] = -32768;
      }
    }
  }
}

TFLC_API void tflc_softmax_s8(const tflc_softmax_params *p, int32_t rows,
                              int32_t depth, const int8_t *in, int8_t *out) {
  tflc__softmax_s8_core(p, rows, depth, in, out, 8);
}
TFLC_API void tflc_softmax_s8_s16(const tflc_softmax_params *p, int32_t rows,
                                  int32_t depth, const int8_t *in,
                                  int16_t *out) {
  tflc__softmax_s8_core(p, rows, depth, in, out, 16);
}

TFLC_API void tflc_softmax_f32(float beta, int32_t rows, int32_t depth,
                               const float *in, float *out) {
  int32_t r, c;
  for (r = 0; r < rows; ++r) {
    const float *x = in + (size_t)r * (size_t)depth;
    float *y = out + (size_t)r * (size_t)depth;
    float max = -3.40282346638528859811704183484516925e+38F, sum = 0.0f;
    for (c = 0; c < depth; ++c) {
      if (max < x[c])
        max = x[c];
    }
    for (c = 0; c < depth; ++c) {
      const float e = expf((x[c] - max) * beta);
      y[c] = e;
      sum += e;
    }
    for (c = 0; c < depth; ++c)
      y[c] = y[c] / sum;
  }
}

/* ---- element-wise add -------------------------------------------------------
 */

TFLC_API void tflc_add_prepare_s8(float s1, int32_t z1, float s2, int32_t z2,
                                  float so, int32_t zo, int act,
                                  tflc_add_params *p) {
  const double twice_max = 2 * (double)(s1 < s2 ? s2 : s1);
  const double m1 = (double)s1 / twice_max;
  const double m2 = (double)s2 / twice_max;
  const double mo = twice_max / ((double)(1 << 20) * (double)so);
  p->input1_offset = -z1;
  p->input2_offset = -z2;
  p->output_offset = zo;
  p->left_shift = 20;
  tflc_quantize_multiplier(m1, &p->input1_multiplier, &p->input1_shift);
  tflc_quantize_multiplier(m2, &p->input2_multiplier, &p->input2_shift);
  tflc_quantize_multiplier(mo, &p->output_multiplier, &p->output_shift);
  tflc_activation_range_q(act, so, zo, -128, 127, &p->act_min, &p->act_max);
}

/* Odometer over an output shape of rank <= TFLC_MAX_DIMS that tracks the
 * element offsets of two broadcast inputs (stride 0 on broadcast axes). */
typedef struct tflc__bcast {
  int32_t rank;
  int32_t dims[TFLC_MAX_DIMS];
  int32_t idx[TFLC_MAX_DIMS];
  size_t st1[TFLC_MAX_DIMS], st2[TFLC_MAX_DIMS];
  size_t off1, off2;
} tflc__bcast;

static size_t tflc__bcast_init(tflc__bcast *it, int32_t rank,
                               const int32_t *dims1, const int32_t *dims2,
                               const int32_t *out_dims) {
  size_t s1 = 1, s2 = 1, total = 1;
  int32_t k;
  it->rank = rank;
  it->off1 = it->off2 = 0;
  for (k = rank - 1; k >= 0; --k) {
    it->dims[k] = out_dims[k];
    it->idx[k] = 0;
    it->st1[k] = dims1[k] == 1 ? 0 : s1;
    it->st2[k] = dims2[k] == 1 ? 0 : s2;
    s1 *= (size_t)dims1[k];
    s2 *= (size_t)dims2[k];
    total *= (size_t)out_dims[k];
  }
  return total;
}

static void tflc__bcast_next(tflc__bcast *it) {
  int32_t k;
  for (k = it->rank - 1; k >= 0; --k) {
    it->off1 += it->st1[k];
    it->off2 += it->st2[k];
    if (++it->idx[k] < it->dims[k])
      return;
    it->off1 -= it->st1[k] * (size_t)it->dims[k];
    it->off2 -= it->st2[k] * (size_t)it->dims[k];
    it->idx[k] = 0;
  }
}

static int8_t tflc__add_one_s8(const tflc_add_params *p, int32_t x1,
                               int32_t x2) {
  const int32_t a = (p->input1_offset + x1) * ((int32_t)1 << p->left_shift);
  const int32_t b = (p->input2_offset + x2) * ((int32_t)1 << p->left_shift);
  const int32_t sa = tflc_mbqm(a, p->input1_multiplier, p->input1_shift);
  const int32_t sb = tflc_mbqm(b, p->input2_multiplier, p->input2_shift);
  int32_t y = tflc_mbqm(sa + sb, p->output_multiplier, p->output_shift) +
              p->output_offset;
  if (y < p->act_min)
    y = p->act_min;
  if (y > p->act_max)
    y = p->act_max;
  return (int8_t)y;
}

TFLC_API void tflc_add_s8(const tflc_add_params *p, int32_t rank,
                          const int32_t *dims1, const int8_t *in1,
                          const int32_t *dims2, const int8_t *in2,
                          const int32_t *out_dims, int8_t *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    out[i] = tflc__add_one_s8(p, in1[it.off1], in2[it.off2]);
    tflc__bcast_next(&it);
  }
}

TFLC_API void tflc_add_f32(float act_min, float act_max, int32_t rank,
                           const int32_t *dims1, const float *in1,
                           const int32_t *dims2, const float *in2,
                           const int32_t *out_dims, float *out) {
  tflc__bcast it;
  size_t i;
  const size_t n = tflc__bcast_init(&it, rank, dims1, dims2, out_dims);
  for (i = 0; i < n; ++i) {
    float v = in1[it.off1] + in2[it.off2];
    /* min(max(v, lo), hi) with std::max/std::min's comparison order */
    v = v < act_min ? act_min : v;
    v = act_max < v ? act_max : v;
    out[i] = v;
    tflc__bcast_next(&it);
  }
}

/* ---- reductions -------------------------------------------------------------
 */

TFLC_API void tflc_mean_s8(const tflc_mean_params *p, int32_t rank,
                           const int32_t *in_dims, uint32_t axis_mask,
                           const int8_t *in, int8_t *out) {
  /* Kept axes (outer odometer) and reduced axes (inner odometer), each with
   * its input stride, in input order. */
  int32_t kd[TFLC_MAX_DIMS], rd[TFLC_MAX_DIMS], ki[TFLC_MAX_DIMS],
      ri[TFLC_MAX_DIMS];
  size_t ks[TFLC_MAX_DIMS], rs[TFLC_MAX_DIMS];
  int32_t nk = 0, nr = 0, k;
  size_t stride = 1, n_out = 1, o, base = 0;
  int64_t n_red = 1;
  int32_t q = p->multiplier, shift = p->shift;
  int any_empty = 0;
  for (k = rank - 1; k >= 0; --k) {
    if (in_dims[k] == 0)
      any_empty = 1;
    if (axis_mask & ((uint32_t)1 << k))
      ++nr;
    else
      ++nk;
  }
  {
    int32_t a = nk, b = nr;
    for (k = rank - 1; k >= 0; --k) {
      if (axis_mask & ((uint32_t)1 << k)) {
        --b;
        rd[b] = in_dims[k];
        rs[b] = stride;
        ri[b] = 0;
        n_red *= in_dims[k];
      } else {
        --a;
        kd[a] = in_dims[k];
        ks[a] = stride;
        ki[a] = 0;
        n_out *= (size_t)in_dims[k];
      }
      stride *= (size_t)in_dims[k];
    }
  }
  if (any_empty) {
    /* TFLM zeroes the output and stops */
    for (o = 0; o < n_out; ++o)
      out[o] = 0;
    return;
  }
  {
    /* fold 1/N into the multiplier, as TFLM's QuantizedMeanOrSum */
    int sh = 63 - tflc__kop_clz64((uint64_t)n_red);
    if (sh > 32)
      sh = 32;
    if (sh > 31 + shift)
      sh = 31 + shift;
    if (sh < 0)
      sh = 0;
    q = (int32_t)(((int64_t)q * ((int64_t)1 << sh)) / n_red);
    shift -= sh;
  }
  for (o = 0; o < n_out; ++o) {
    int32_t sum = 0, y;
    size_t off = base;
    int64_t i;
    for (i = 0; i < n_red; ++i) {
      sum = tflc__kop_add(sum, in[off]);
      for (k = nr - 1; k >= 0; --k) {
        off += rs[k];
        if (++ri[k] < rd[k])
          break;
        off -= rs[k] * (size_t)rd[k];
        ri[k] = 0;
      }
    }
    y = tflc_mbqm(
            tflc__kop_i32((uint32_t)(uint64_t)((int64_t)sum -
                                               (int64_t)p->input_zp * n_red)),
            q, shift) +
        p->output_zp;
    if (y < -128)
      y = -128;
    if (y > 127)
      y = 127;
    out[o] = (int8_t)y;
    for (k = nk - 1; k >= 0; --k) {
      base += ks[k];
      if (++ki[k] < kd[k])
        break;
      base -= ks[k] * (size_t)kd[k];
      ki[k] = 0;
    }
  }
}

/* ---- data movement ----------------------------------------------------------
 */

TFLC_API void tflc_pad(size_t elem_size, int32_t rank, const int32_t *in_dims,
                       const int32_t *before, const int32_t *after,
                       const void *pad_value, const void *in, void *out) {
  int32_t od[TFLC_MAX_DIMS], idx[TFLC_MAX_DIMS];
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  size_t rows = 1, row, j;
  int32_t k, last;
  if (rank <= 0) {
    memcpy(dst, src, elem_size);
    return;
  }
  last = rank - 1;
  for (k = 0; k < rank; ++k) {
    od[k] = before[k] + in_dims[k] + after[k];
    idx[k] = 0;
    if (k < last)
      rows *= (size_t)od[k];
  }
  /* one output row (last axis) at a time; src advances over input rows */
  for (row = 0; row < rows; ++row) {
    int inside = in_dims[last] > 0;
    size_t n_out = (size_t)od[last];
    for (k = 0; k < last; ++k) {
      if (idx[k] < before[k] || idx[k] >= before[k] + in_dims[k])
        inside = 0;
    }
    if (inside) {
      const size_t nb = (size_t)before[last], ni = (size_t)in_dims[last];
      for (j = 0; j < nb; ++j, dst += elem_size)
        memcpy(dst, pad_value, elem_size);
      memcpy(dst, src, ni * elem_size);
      dst += ni * elem_size;
      src += ni * elem_size;
      for (j = nb + ni; j < n_out; ++j, dst += elem_size)
        memcpy(dst, pad_value, elem_size);
    } else {
      for (j = 0; j < n_out; ++j, dst += elem_size)
        memcpy(dst, pad_value, elem_size);
    }
    for (k = last - 1; k >= 0; --k) {
      if (++idx[k] < od[k])
        break;
      idx[k] = 0;
    }
  }
}

TFLC_API void tflc_transpose(size_t elem_size, int32_t rank,
                             const int32_t *in_dims, const int32_t *perm,
                             const void *in, void *out) {
  size_t in_st[TFLC_MAX_DIMS], st[TFLC_MAX_DIMS], s = 1, n = 1, i, off = 0;
  int32_t od[TFLC_MAX_DIMS], idx[TFLC_MAX_DIMS], k;
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  for (k = rank - 1; k >= 0; --k) {
    in_st[k] = s;
    s *= (size_t)in_dims[k];
  }
  for (k = 0; k < rank; ++k) {
    od[k] = in_dims[perm[k]];
    st[k] = in_st[perm[k]];
    idx[k] = 0;
    n *= (size_t)od[k];
  }
  for (i = 0; i < n; ++i) {
    switch (elem_size) {
    case 1:
      dst[i] = src[off];
      break;
    case 2:
      memcpy(dst + i * 2, src + off * 2, 2);
      break;
    case 4:
      memcpy(dst + i * 4, src + off * 4, 4);
      break;
    default:
      memcpy(dst + i * elem_size, src + off * elem_size, elem_size);
      break;
    }
    for (k = rank - 1; k >= 0; --k) {
      off += st[k];
      if (++idx[k] < od[k])
        break;
      off -= st[k] * (size_t)od[k];
      idx[k] = 0;
    }
  }
}

/* ---- quantize / dequantize --------------------------------------------------
 */

/* zp + (int32)roundf(x / scale) as TFLM computes it on x86-64: float
 * division, round half away from zero, an out-of-range or NaN conversion
 * yields INT32_MIN (cvttss2si), the zero point add wraps. */
static int32_t tflc__quantize_one(float x, float scale, int32_t zp) {
  const float r = roundf(x / scale);
  int32_t v;
  if (r >= -2147483648.0f && r < 2147483648.0f)
    v = (int32_t)r;
  else
    v = INT32_MIN;
  return tflc__kop_add(v, zp);
}

TFLC_API void tflc_quantize_f32_s8(float scale, int32_t zp, int32_t n,
                                   const float *in, int8_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    int32_t v = tflc__quantize_one(in[i], scale, zp);
    if (v < -128)
      v = -128;
    if (v > 127)
      v = 127;
    out[i] = (int8_t)v;
  }
}

TFLC_API void tflc_quantize_f32_s16(float scale, int32_t zp, int32_t n,
                                    const float *in, int16_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    int32_t v = tflc__quantize_one(in[i], scale, zp);
    if (v < -32768)
      v = -32768;
    if (v > 32767)
      v = 32767;
    out[i] = (int16_t)v;
  }
}

TFLC_API void tflc_requantize_s8(int32_t q, int32_t shift, int32_t in_zp,
                                 int32_t out_zp, int32_t n, const int8_t *in,
                                 int8_t *out) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    int32_t v = tflc_mbqm((int32_t)in[i] - in_zp, q, shift) + out_zp;
    if (v > 127)
      v = 127;
    if (v < -128)
      v = -128;
    out[i] = (int8_t)v;
  }
}

TFLC_API void tflc_dequantize_s8_f32(float scale, int32_t zp, int32_t n,
                                     const int8_t *in, float *out) {
  int32_t i;
  for (i = 0; i < n; ++i)
    out[i] = (float)((double)scale * (double)((int32_t)in[i] - zp));
}

TFLC_API void tflc_dequantize_s16_f32(float scale, int32_t zp, int32_t n,
                                      const int16_t *in, float *out) {
  int32_t i;
  for (i = 0; i < n; ++i)
    out[i] = (float)((double)scale * (double)((int32_t)in[i] - zp));
}

/* Extension fragment a: operator glue (prepare/run) for tflc.h. Pasted
 * into tflc.h's op table section when it stabilises.
 *
 * Operators: LOGISTIC, TANH, MUL, SUB, ADD (int16 only; the built-in ADD
 * keeps int8/float32), L2_NORMALIZATION, LOG_SOFTMAX, LEAKY_RELU,
 * HARD_SWISH, PRELU, RELU, RELU6, MAXIMUM, MINIMUM, LESS, LESS_EQUAL,
 * GREATER, GREATER_EQUAL, EQUAL, NOT_EQUAL, SUM, ARG_MAX, ARG_MIN, and
 * the QUANTIZE / DEQUANTIZE type pairs the built-in table refuses
 * (integer <-> integer requantization other than int8 -> int8, uint8 ->
 * float32). Prepare follows TFLM's checks; run is integer-only for
 * quantized tensors. Binary operators recompute their (right-aligned)
 * broadcast shapes at run time so the persistent state stays small. */

enum {
  TFLC__A_ADD = 0,
  TFLC__A_DEQUANTIZE = 6,
  TFLC__A_L2_NORMALIZATION = 11,
  TFLC__A_LOGISTIC = 14,
  TFLC__A_MUL = 18,
  TFLC__A_RELU = 19,
  TFLC__A_RELU6 = 21,
  TFLC__A_TANH = 28,
  TFLC__A_SUB = 41,
  TFLC__A_LOG_SOFTMAX = 50,
  TFLC__A_PRELU = 54,
  TFLC__A_MAXIMUM = 55,
  TFLC__A_ARG_MAX = 56,
  TFLC__A_MINIMUM = 57,
  TFLC__A_LESS = 58,
  TFLC__A_GREATER = 61,
  TFLC__A_GREATER_EQUAL = 62,
  TFLC__A_LESS_EQUAL = 63,
  TFLC__A_EQUAL = 71,
  TFLC__A_NOT_EQUAL = 72,
  TFLC__A_SUM = 74,
  TFLC__A_ARG_MIN = 79,
  TFLC__A_LEAKY_RELU = 98,
  TFLC__A_QUANTIZE = 114,
  TFLC__A_HARD_SWISH = 117
};

typedef struct tflc__a_sum_state {
  tflc_mean_params p;
  uint32_t mask;
} tflc__a_sum_state;
typedef struct tflc__a_f32_state {
  float a, b; /* activation range, or alpha */
} tflc__a_f32_state;
typedef struct tflc__a_quant_state {
  int32_t q, shift;
} tflc__a_quant_state;

static int tflc__ext_a_tiled(int32_t code, int32_t k) {
  (void)code;
  (void)k;
  return 0;
}

static void *tflc__a_state(tflc__ctx *c, size_t bytes) {
  void *s = tflc__persist(c->it, bytes);
  c->op->state = s;
  return s;
}
#define TFLC__A_STATE(c, T) ((T *)tflc__a_state((c), sizeof(T)))

/* TFLM QuantizeMultiplierSmallerThanOneExp: 0 when m is not in (0, 1). */
static int tflc__a_below_one(double m, int32_t *q, int32_t *shift) {
  if (!(m > 0.0) || !(m < 1.0))
    return 0;
  tflc_quantize_multiplier(m, q, shift);
  return *shift <= 0;
}
static int32_t tflc__a_qmin(int w) {
  return w == 1 ? -128 : -32768;
}
static int32_t tflc__a_qmax(int w) {
  return w == 1 ? 127 : 32767;
}

static int tflc__a_quantized(const tflc_tensor *t) {
  return t->scale > 0.0f;
}
/* Element width of an int8 / int16 tensor (0 otherwise). */
static int tflc__a_width(const tflc_tensor *t) {
  return t->type == TFLC_INT8 ? 1 : t->type == TFLC_INT16 ? 2 : 0;
}

/* Right-aligned broadcast shapes of inputs 0, 1 against output 0; scalars
 * (rank 0) count as [1]. */
static int tflc__a_bshape(tflc__ctx *c, int32_t *d1, int32_t *d2, int32_t *d0,
                          int32_t *rank) {
  const tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1),
                    *o = tflc__out(c, 0);
  if (!a || !b || !o)
    return 0;
  if (o->rank == 0) {
    if (tflc__count(a) != 1 || tflc__count(b) != 1)
      return 0;
    d1[0] = d2[0] = d0[0] = 1;
    *rank = 1;
    return 1;
  }
  return tflc__broadcast(a, b, o, d1, d2, d0, rank);
}

/* Unary shape/type check: input 0 and output 0 exist, same element
 * count, same type. */
static tflc_status tflc__a_unary(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  if (!in || !o || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs one input and one output", 0,
                        0);
  if (in->type != o->type)
    return tflc__op_err(c, TFLC_ERR_TYPE, "input type %d, output type %d",
                        in->type, o->type);
  if (tflc__count(in) != tflc__count(o))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input and output sizes differ", 0,
                        0);
  return TFLC_OK;
}

/* Binary check: two inputs of one type, broadcastable to the output. */
static tflc_status tflc__a_binary(tflc__ctx *c) {
  const tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1),
                    *o = tflc__out(c, 0);
  int32_t d1[TFLC_MAX_DIMS], d2[TFLC_MAX_DIMS], d0[TFLC_MAX_DIMS], r;
  if (!a || !b || !o || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs two inputs and one output",
                        0, 0);
  if (a->type != b->type)
    return tflc__op_err(c, TFLC_ERR_TYPE, "input types %d and %d differ",
                        a->type, b->type);
  if (!tflc__a_bshape(c, d1, d2, d0, &r))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "shapes do not broadcast", 0, 0);
  return TFLC_OK;
}

/* ---- prepare ---------------------------------------------------------------
 */

static tflc_status tflc__a_prep_sigmoid(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_sigmoid_params *s;
  tflc_status st = tflc__a_unary(c);
  if (st != TFLC_OK || in->type == TFLC_FLOAT32)
    return st;
  if (in->type != TFLC_INT8)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported",
                        in->type, 0);
  if (!tflc__a_quantized(in))
    return tflc__op_err(c, TFLC_ERR_QUANT, "input not quantized", 0, 0);
  if (c->op->code == TFLC__A_LOGISTIC && o->zero_point != -128)
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "int8 output zero point must be -128, is %d",
                        o->zero_point, 0);
  s = TFLC__A_STATE(c, tflc_sigmoid_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  tflc_sigmoid_prepare_s8(in->scale, in->zero_point, s);
  return TFLC_OK;
}

/* float32 MUL / SUB: only the activation range is kept. */
static tflc_status tflc__a_prep_binary_f32(tflc__ctx *c, int32_t act) {
  tflc__a_f32_state *s = TFLC__A_STATE(c, tflc__a_f32_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  tflc_activation_range_f32(act, &s->a, &s->b);
  return TFLC_OK;
}

static tflc_status tflc__a_prep_mul(tflc__ctx *c) {
  tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc_mul_params *s;
  int32_t act = (int32_t)tflc__get_u8(tflc__cfb(c), c->op->opts, 0, 0);
  int w;
  tflc_status st = tflc__a_binary(c);
  if (st != TFLC_OK)
    return st;
  if (a->type == TFLC_FLOAT32 && o->type == TFLC_FLOAT32)
    return tflc__a_prep_binary_f32(c, act);
  w = tflc__a_width(o);
  if (!w || a->type != o->type)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d * %d -> %d", a->type,
                        o->type);
  if (!tflc__a_quantized(a) || !tflc__a_quantized(b) || !tflc__a_quantized(o))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  if (w == 2 && (a->zero_point || b->zero_point || o->zero_point))
    return tflc__op_err(c, TFLC_ERR_QUANT, "int16 zero points must be 0", 0, 0);
  s = TFLC__A_STATE(c, tflc_mul_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->input1_offset = -a->zero_point;
  s->input2_offset = -b->zero_point;
  s->output_offset = o->zero_point;
  tflc_quantize_multiplier((double)a->scale * (double)b->scale /
                               (double)o->scale,
                           &s->multiplier, &s->shift);
  tflc_activation_range_q(act, o->scale, o->zero_point, tflc__a_qmin(w),
                          tflc__a_qmax(w), &s->act_min, &s->act_max);
  return TFLC_OK;
}

/* SUB int8/int16 and ADD int16. */
static tflc_status tflc__a_prep_addsub(tflc__ctx *c) {
  tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc_add_params *s;
  int32_t act = (int32_t)tflc__get_u8(tflc__cfb(c), c->op->opts, 0, 0);
  int w, ok;
  tflc_status st = tflc__a_binary(c);
  if (st != TFLC_OK)
    return st;
  if (a->type == TFLC_FLOAT32 && o->type == TFLC_FLOAT32 &&
      c->op->code == TFLC__A_SUB)
    return tflc__a_prep_binary_f32(c, act);
  w = tflc__a_width(o);
  if (!w || a->type != o->type)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d, %d -> %d", a->type,
                        o->type);
  if (!tflc__a_quantized(a) || !tflc__a_quantized(b) || !tflc__a_quantized(o))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  s = TFLC__A_STATE(c, tflc_add_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  if (c->op->code == TFLC__A_SUB)
    ok = tflc_sub_prepare(a->scale, a->zero_point, b->scale, b->zero_point,
                          o->scale, o->zero_point, act, w, s);
  else
    ok = tflc_add_prepare_s16(a->scale, a->zero_point, b->scale, b->zero_point,
                              o->scale, o->zero_point, act, s);
  if (!ok)
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "scales give a multiplier of 1 or more", 0, 0);
  return TFLC_OK;
}

static tflc_status tflc__a_prep_l2norm(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0);
  int32_t act = (int32_t)tflc__get_u8(tflc__cfb(c), c->op->opts, 0, 0);
  tflc_status st = tflc__a_unary(c);
  if (st != TFLC_OK)
    return st;
  if (in->rank > 4 || in->rank < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "rank %d, expected 1 to 4", in->rank,
                        0);
  if (act != 0)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "fused activation %d unsupported", act, 0);
  if (in->type != TFLC_INT8 && in->type != TFLC_FLOAT32)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported",
                        in->type, 0);
  return TFLC_OK;
}

static tflc_status tflc__a_prep_log_softmax(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_log_softmax_params *s;
  tflc_status st = tflc__a_unary(c);
  if (st != TFLC_OK)
    return st;
  if (!tflc__same_shape(in, o) || in->rank < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input and output shapes differ", 0,
                        0);
  if (in->type == TFLC_FLOAT32)
    return TFLC_OK;
  if (in->type != TFLC_INT8)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported",
                        in->type, 0);
  if (o->scale != 16.0f / 256.0f || o->zero_point != 127)
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "int8 output must have scale 16/256, zero point 127", 0,
                        0);
  if (!(in->scale > 0.0f) || !((double)in->scale * 67108864.0 > 1.0))
    return tflc__op_err(c, TFLC_ERR_QUANT, "input scale too small", 0, 0);
  s = TFLC__A_STATE(c, tflc_log_softmax_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  tflc_log_softmax_prepare_s8(in->scale, s);
  return TFLC_OK;
}

static tflc_status tflc__a_prep_leaky_relu(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_leaky_relu_params *s;
  const float alpha = tflc__get_f32(tflc__cfb(c), c->op->opts, 0, 0.0f);
  tflc_status st = tflc__a_unary(c);
  if (st != TFLC_OK)
    return st;
  if (in->type == TFLC_FLOAT32) {
    tflc__a_f32_state *f = TFLC__A_STATE(c, tflc__a_f32_state);
    if (!f)
      return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
    f->a = alpha;
    return TFLC_OK;
  }
  if (!tflc__a_width(in))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported",
                        in->type, 0);
  if (!tflc__a_quantized(in) || !tflc__a_quantized(o))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  s = TFLC__A_STATE(c, tflc_leaky_relu_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  tflc_leaky_relu_prepare(in->scale, in->zero_point, o->scale, o->zero_point,
                          alpha, s);
  return TFLC_OK;
}

static tflc_status tflc__a_prep_hard_swish(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_hard_swish_params *s;
  tflc_status st = tflc__a_unary(c);
  if (st != TFLC_OK || in->type == TFLC_FLOAT32)
    return st;
  if (in->type != TFLC_INT8)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported",
                        in->type, 0);
  if (!tflc__a_quantized(in) || !tflc__a_quantized(o))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  s = TFLC__A_STATE(c, tflc_hard_swish_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  if (!tflc_hard_swish_prepare_s8(in->scale, in->zero_point, o->scale,
                                  o->zero_point, s))
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "output scale below input scale / 128", 0, 0);
  return TFLC_OK;
}

static tflc_status tflc__a_prep_prelu(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *al = tflc__in(c, 1), *o = tflc__out(c, 0);
  int32_t d1[TFLC_MAX_DIMS], d2[TFLC_MAX_DIMS], d0[TFLC_MAX_DIMS], r;
  tflc_prelu_params *s;
  if (!in || !al || !o || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs two inputs and one output",
                        0, 0);
  if (!tflc__a_bshape(c, d1, d2, d0, &r))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "shapes do not broadcast", 0, 0);
  if (in->type == TFLC_FLOAT32 && al->type == TFLC_FLOAT32 &&
      o->type == TFLC_FLOAT32)
    return TFLC_OK;
  if (!tflc__a_width(in) || in->type != o->type || al->type != TFLC_INT8)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "input type %d with alpha type %d unsupported",
                        in->type, al->type);
  if (!tflc__a_quantized(in) || !tflc__a_quantized(al) || !tflc__a_quantized(o))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  s = TFLC__A_STATE(c, tflc_prelu_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  tflc_quantize_multiplier((double)in->scale / (double)o->scale, &s->mult1,
                           &s->shift1);
  tflc_quantize_multiplier((double)in->scale * (double)al->scale /
                               (double)o->scale,
                           &s->mult2, &s->shift2);
  s->input_offset = -in->zero_point;
  s->alpha_offset = -al->zero_point;
  s->output_offset = o->zero_point;
  return TFLC_OK;
}

static tflc_status tflc__a_prep_relu(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_relu_params *s;
  int w;
  tflc_status st = tflc__a_unary(c);
  if (st != TFLC_OK || in->type == TFLC_FLOAT32)
    return st;
  w = tflc__a_width(in);
  if (!w)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported",
                        in->type, 0);
  if (!tflc__a_quantized(in) || !tflc__a_quantized(o))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  if (c->op->code == TFLC__A_RELU && w == 2 &&
      (in->zero_point || o->zero_point))
    return tflc__op_err(c, TFLC_ERR_QUANT, "int16 zero points must be 0", 0, 0);
  s = TFLC__A_STATE(c, tflc_relu_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->input_zp = in->zero_point;
  s->output_zp = o->zero_point;
  if (c->op->code == TFLC__A_RELU) {
    const int32_t z = o->zero_point + (int32_t)roundf(0.0f / o->scale);
    tflc_quantize_multiplier((double)(in->scale / o->scale), &s->multiplier,
                             &s->shift);
    s->lo = z > tflc__a_qmin(w) ? z : tflc__a_qmin(w);
    s->hi = tflc__a_qmax(w);
  } else {
    /* RELU6: clamp to [zin, quantized 6] on the input's quantization */
    const float six = roundf(6.0f / in->scale);
    int32_t hi = tflc__a_qmax(w);
    if (six < 65536.0f)
      hi = (int32_t)six + in->zero_point;
    s->clamp_only = 1;
    s->lo = in->zero_point;
    s->hi = hi < tflc__a_qmin(w)   ? tflc__a_qmin(w)
            : hi > tflc__a_qmax(w) ? tflc__a_qmax(w)
                                   : hi;
  }
  return TFLC_OK;
}

static tflc_status tflc__a_prep_maxmin(tflc__ctx *c) {
  tflc_tensor *a = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_status st = tflc__a_binary(c);
  if (st != TFLC_OK)
    return st;
  if (a->type != o->type ||
      (a->type != TFLC_FLOAT32 && a->type != TFLC_INT8 &&
       a->type != TFLC_INT16 && a->type != TFLC_INT32 && a->type != TFLC_INT64))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d -> %d unsupported",
                        a->type, o->type);
  return TFLC_OK;
}

static int tflc__a_cmp_kind(int32_t code) {
  switch (code) {
  case TFLC__A_EQUAL:
    return TFLC_CMP_EQUAL;
  case TFLC__A_NOT_EQUAL:
    return TFLC_CMP_NOT_EQUAL;
  case TFLC__A_LESS:
    return TFLC_CMP_LESS;
  case TFLC__A_LESS_EQUAL:
    return TFLC_CMP_LESS_EQUAL;
  case TFLC__A_GREATER:
    return TFLC_CMP_GREATER;
  default:
    return TFLC_CMP_GREATER_EQUAL;
  }
}

static tflc_status tflc__a_prep_compare(tflc__ctx *c) {
  tflc_tensor *a = tflc__in(c, 0), *b = tflc__in(c, 1), *o = tflc__out(c, 0);
  const int eq =
      c->op->code == TFLC__A_EQUAL || c->op->code == TFLC__A_NOT_EQUAL;
  tflc_cmp_params *s;
  tflc_status st = tflc__a_binary(c);
  if (st != TFLC_OK)
    return st;
  if (o->type != TFLC_BOOL)
    return tflc__op_err(c, TFLC_ERR_TYPE, "output type %d, expected bool",
                        o->type, 0);
  if (a->type == TFLC_FLOAT32 || a->type == TFLC_INT32 ||
      a->type == TFLC_INT64 || (eq && a->type == TFLC_BOOL))
    return TFLC_OK;
  if (a->type != TFLC_INT8)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "type %d unsupported", a->type,
                        0);
  s = TFLC__A_STATE(c, tflc_cmp_params);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  /* each scale itself becomes a multiplier below one */
  if (!tflc__a_below_one((double)a->scale, &s->mult1, &s->shift1) ||
      !tflc__a_below_one((double)b->scale, &s->mult2, &s->shift2))
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "int8 input scales must be in (0, 1)", 0, 0);
  s->input1_offset = -a->zero_point;
  s->input2_offset = -b->zero_point;
  return TFLC_OK;
}

static tflc_status tflc__a_prep_sum(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *ax = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__a_sum_state *s;
  int32_t axes[TFLC_MAX_DIMS * 2], n = 0, i, kept = 1;
  uint32_t mask = 0;
  if (!in || !o || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs input and output", 0, 0);
  if (in->type != o->type || (in->type != TFLC_INT8 && in->type != TFLC_INT16 &&
                              in->type != TFLC_FLOAT32))
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "types %d -> %d unsupported",
                        in->type, o->type);
  if (!ax || ax->type != TFLC_INT32 ||
      !tflc__const_ints(ax, axes, TFLC_MAX_DIMS * 2, &n))
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "axes must be a constant int32 vector", 0, 0);
  for (i = 0; i < n; i++) {
    const int32_t a = axes[i] < 0 ? axes[i] + in->rank : axes[i];
    if (a < 0 || a >= in->rank)
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "axis %d out of range", axes[i],
                          0);
    mask |= 1u << a;
  }
  for (i = 0; i < in->rank; i++)
    if (!(mask & (1u << i)))
      kept *= in->dims[i];
  if (tflc__count(o) != kept)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "output has %d elements, expected %d", tflc__count(o),
                        kept);
  s = TFLC__A_STATE(c, tflc__a_sum_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->mask = mask;
  if (in->type == TFLC_FLOAT32)
    return TFLC_OK;
  if (!tflc__a_quantized(in) || !tflc__a_quantized(o))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  tflc_quantize_multiplier((double)in->scale / (double)o->scale,
                           &s->p.multiplier, &s->p.shift);
  s->p.input_zp = in->zero_point;
  s->p.output_zp = o->zero_point;
  return TFLC_OK;
}

/* ARG_MAX / ARG_MIN geometry for axis value `axis`; 0 when inconsistent. */
static int tflc__a_arg_geom(const tflc_tensor *in, const tflc_tensor *o,
                            int32_t axis, int32_t *outer, int32_t *size,
                            int32_t *inner) {
  int32_t i;
  if (axis < 0)
    axis += in->rank;
  if (axis < 0 || axis >= in->rank || o->rank != in->rank - 1)
    return 0;
  *outer = *inner = 1;
  for (i = 0; i < in->rank; i++) {
    if (i < axis) {
      if (o->dims[i] != in->dims[i])
        return 0;
      *outer *= in->dims[i];
    } else if (i > axis) {
      if (o->dims[i - 1] != in->dims[i])
        return 0;
      *inner *= in->dims[i];
    }
  }
  *size = in->dims[axis];
  return *size > 0;
}

static tflc_status tflc__a_prep_arg(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *ax = tflc__in(c, 1), *o = tflc__out(c, 0);
  int32_t axis, n = 0, outer, size, inner;
  if (!in || !ax || !o || c->op->nout != 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs input, axis and output", 0,
                        0);
  if (in->type != TFLC_INT8 && in->type != TFLC_FLOAT32)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "input type %d unsupported",
                        in->type, 0);
  if (o->type != TFLC_INT32 || ax->type != TFLC_INT32)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "output type %d, axis type %d: only int32", o->type,
                        ax->type);
  if (tflc__count(ax) < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "empty axis", 0, 0);
  /* a constant axis is checked now; others at run */
  if (tflc__const_ints(ax, &axis, 1, &n) &&
      !tflc__a_arg_geom(in, o, axis, &outer, &size, &inner))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "axis %d does not fit the shapes",
                        axis, 0);
  return TFLC_OK;
}

/* QUANTIZE between integer types (not int8 -> int8, which the built-in
 * table handles); 0 = not ours. */
static int tflc__a_quant_ours(const tflc_tensor *in, const tflc_tensor *o) {
  const int it = in->type, ot = o->type;
  return (it == TFLC_INT16 && ot == TFLC_INT8) ||
         (it == TFLC_INT8 && ot == TFLC_UINT8) ||
         (it == TFLC_UINT8 && ot == TFLC_INT8) ||
         (it == TFLC_INT8 && ot == TFLC_INT16) ||
         (it == TFLC_INT8 && ot == TFLC_INT32) ||
         (it == TFLC_INT16 && ot == TFLC_INT16) ||
         (it == TFLC_INT16 && ot == TFLC_INT32) ||
         (it == TFLC_INT32 && ot == TFLC_INT8) ||
         (it == TFLC_INT32 && ot == TFLC_INT16);
}

static tflc_status tflc__a_prep_quant(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__a_quant_state *s;
  if (tflc__count(in) != tflc__count(o))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input and output sizes differ", 0,
                        0);
  if (o->nscales != 1 || !tflc__a_quantized(o) || !tflc__a_quantized(in))
    return tflc__op_err(c, TFLC_ERR_QUANT,
                        "needs quantized tensors, one output scale", 0, 0);
  s = TFLC__A_STATE(c, tflc__a_quant_state);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  tflc_quantize_multiplier((double)in->scale / (double)o->scale, &s->q,
                           &s->shift);
  return TFLC_OK;
}

static int tflc__ext_a_prepare(tflc__ctx *c, tflc_status *st) {
  const tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  switch (c->op->code) {
  case TFLC__A_LOGISTIC:
  case TFLC__A_TANH:
    *st = tflc__a_prep_sigmoid(c);
    return 1;
  case TFLC__A_MUL:
    *st = tflc__a_prep_mul(c);
    return 1;
  case TFLC__A_ADD:
    if (!in || in->type != TFLC_INT16)
      return 0; /* int8 / float32: built-in ADD */
    *st = tflc__a_prep_addsub(c);
    return 1;
  case TFLC__A_SUB:
    *st = tflc__a_prep_addsub(c);
    return 1;
  case TFLC__A_L2_NORMALIZATION:
    *st = tflc__a_prep_l2norm(c);
    return 1;
  case TFLC__A_LOG_SOFTMAX:
    *st = tflc__a_prep_log_softmax(c);
    return 1;
  case TFLC__A_LEAKY_RELU:
    *st = tflc__a_prep_leaky_relu(c);
    return 1;
  case TFLC__A_HARD_SWISH:
    *st = tflc__a_prep_hard_swish(c);
    return 1;
  case TFLC__A_PRELU:
    *st = tflc__a_prep_prelu(c);
    return 1;
  case TFLC__A_RELU:
  case TFLC__A_RELU6:
    *st = tflc__a_prep_relu(c);
    return 1;
  case TFLC__A_MAXIMUM:
  case TFLC__A_MINIMUM:
    *st = tflc__a_prep_maxmin(c);
    return 1;
  case TFLC__A_LESS:
  case TFLC__A_LESS_EQUAL:
  case TFLC__A_GREATER:
  case TFLC__A_GREATER_EQUAL:
  case TFLC__A_EQUAL:
  case TFLC__A_NOT_EQUAL:
    *st = tflc__a_prep_compare(c);
    return 1;
  case TFLC__A_SUM:
    *st = tflc__a_prep_sum(c);
    return 1;
  case TFLC__A_ARG_MAX:
  case TFLC__A_ARG_MIN:
    *st = tflc__a_prep_arg(c);
    return 1;
  case TFLC__A_QUANTIZE:
    if (!in || !o || !tflc__a_quant_ours(in, o))
      return 0;
    *st = tflc__a_prep_quant(c);
    return 1;
  case TFLC__A_DEQUANTIZE:
    if (!in || !o || in->type != TFLC_UINT8 || o->type != TFLC_FLOAT32)
      return 0;
    if (tflc__count(in) != tflc__count(o))
      *st = tflc__op_err(c, TFLC_ERR_SHAPE, "input and output sizes differ", 0,
                         0);
    else
      *st = TFLC_OK;
    return 1;
  }
  return 0;
}

/* ---- run ------------------------------------------------------------------
 */

static tflc_status tflc__ext_a_run(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *in2 = tflc__in(c, 1), *o = tflc__out(c, 0);
  const void *s = c->op->state;
  int32_t d1[TFLC_MAX_DIMS], d2[TFLC_MAX_DIMS], d0[TFLC_MAX_DIMS], rank = 0;
  const int32_t n = tflc__count(in);
  switch (c->op->code) {
  case TFLC__A_MUL:
  case TFLC__A_ADD:
  case TFLC__A_SUB:
  case TFLC__A_PRELU:
  case TFLC__A_MAXIMUM:
  case TFLC__A_MINIMUM:
  case TFLC__A_LESS:
  case TFLC__A_LESS_EQUAL:
  case TFLC__A_GREATER:
  case TFLC__A_GREATER_EQUAL:
  case TFLC__A_EQUAL:
  case TFLC__A_NOT_EQUAL:
    if (!tflc__a_bshape(c, d1, d2, d0, &rank))
      return TFLC_ERR_KERNEL;
    break;
  }
  if (o->type == TFLC_FLOAT32 && in->type == TFLC_FLOAT32) {
    const tflc__a_f32_state *f = (const tflc__a_f32_state *)s;
    const float *x = (const float *)in->data;
    float *y = (float *)o->data;
    switch (c->op->code) {
    case TFLC__A_MUL:
    case TFLC__A_SUB:
      tflc_binary_f32(c->op->code == TFLC__A_SUB, f->a, f->b, rank, d1, x, d2,
                      (const float *)in2->data, d0, y);
      return TFLC_OK;
    case TFLC__A_PRELU:
      tflc_prelu_f32(rank, d1, x, d2, (const float *)in2->data, d0, y);
      return TFLC_OK;
    case TFLC__A_RELU:
      tflc_unary_f32(TFLC_F32_RELU, 0.0f, n, x, y);
      return TFLC_OK;
    case TFLC__A_RELU6:
      tflc_unary_f32(TFLC_F32_RELU6, 0.0f, n, x, y);
      return TFLC_OK;
    case TFLC__A_LEAKY_RELU:
      tflc_unary_f32(TFLC_F32_LEAKY_RELU, f->a, n, x, y);
      return TFLC_OK;
    case TFLC__A_LOGISTIC:
      tflc_unary_f32(TFLC_F32_LOGISTIC, 0.0f, n, x, y);
      return TFLC_OK;
    case TFLC__A_TANH:
      tflc_unary_f32(TFLC_F32_TANH, 0.0f, n, x, y);
      return TFLC_OK;
    case TFLC__A_HARD_SWISH:
      tflc_unary_f32(TFLC_F32_HARD_SWISH, 0.0f, n, x, y);
      return TFLC_OK;
    case TFLC__A_L2_NORMALIZATION:
    case TFLC__A_LOG_SOFTMAX: {
      const int32_t depth = in->dims[in->rank - 1];
      if (c->op->code == TFLC__A_L2_NORMALIZATION)
        tflc_l2norm_f32(depth ? n / depth : 0, depth, x, y);
      else
        tflc_log_softmax_f32(depth ? n / depth : 0, depth, x, y);
      return TFLC_OK;
    }
    }
  }
  switch (c->op->code) {
  case TFLC__A_LOGISTIC:
    tflc_logistic_s8((const tflc_sigmoid_params *)s, n,
                     (const int8_t *)in->data, (int8_t *)o->data);
    break;
  case TFLC__A_TANH:
    tflc_tanh_s8((const tflc_sigmoid_params *)s, n, (const int8_t *)in->data,
                 (int8_t *)o->data);
    break;
  case TFLC__A_MUL:
    tflc_mul_q((const tflc_mul_params *)s, tflc__a_width(o), rank, d1, in->data,
               d2, in2->data, d0, o->data);
    break;
  case TFLC__A_ADD:
  case TFLC__A_SUB:
    tflc_addsub_q((const tflc_add_params *)s, c->op->code == TFLC__A_SUB,
                  tflc__a_width(o), rank, d1, in->data, d2, in2->data, d0,
                  o->data);
    break;
  case TFLC__A_L2_NORMALIZATION: {
    const int32_t depth = in->dims[in->rank - 1];
    tflc_l2norm_s8(in->zero_point, depth ? n / depth : 0, depth,
                   (const int8_t *)in->data, (int8_t *)o->data);
    break;
  }
  case TFLC__A_LOG_SOFTMAX: {
    const int32_t depth = in->dims[in->rank - 1];
    tflc_log_softmax_s8((const tflc_log_softmax_params *)s,
                        depth ? n / depth : 0, depth, (const int8_t *)in->data,
                        (int8_t *)o->data);
    break;
  }
  case TFLC__A_LEAKY_RELU:
    tflc_leaky_relu_q((const tflc_leaky_relu_params *)s, tflc__a_width(in), n,
                      in->data, o->data);
    break;
  case TFLC__A_HARD_SWISH:
    tflc_hard_swish_s8((const tflc_hard_swish_params *)s, n,
                       (const int8_t *)in->data, (int8_t *)o->data);
    break;
  case TFLC__A_PRELU:
    tflc_prelu_q((const tflc_prelu_params *)s, tflc__a_width(in), 1, rank, d1,
                 in->data, d2, in2->data, d0, o->data);
    break;
  case TFLC__A_RELU:
  case TFLC__A_RELU6:
    tflc_relu_q((const tflc_relu_params *)s, tflc__a_width(in), n, in->data,
                o->data);
    break;
  case TFLC__A_MAXIMUM:
  case TFLC__A_MINIMUM:
    tflc_maxmin(in->type, c->op->code == TFLC__A_MAXIMUM, rank, d1, in->data,
                d2, in2->data, d0, o->data);
    break;
  case TFLC__A_LESS:
  case TFLC__A_LESS_EQUAL:
  case TFLC__A_GREATER:
  case TFLC__A_GREATER_EQUAL:
  case TFLC__A_EQUAL:
  case TFLC__A_NOT_EQUAL:
    tflc_compare(in->type, tflc__a_cmp_kind(c->op->code),
                 (const tflc_cmp_params *)s, rank, d1, in->data, d2, in2->data,
                 d0, (uint8_t *)o->data);
    break;
  case TFLC__A_SUM: {
    const tflc__a_sum_state *ss = (const tflc__a_sum_state *)s;
    if (in->type == TFLC_FLOAT32)
      tflc_sum_f32(in->rank, in->dims, ss->mask, (const float *)in->data,
                   (float *)o->data);
    else
      tflc_sum_q(&ss->p, tflc__a_width(in), in->rank, in->dims, ss->mask,
                 in->data, o->data);
    break;
  }
  case TFLC__A_ARG_MAX:
  case TFLC__A_ARG_MIN: {
    int32_t outer, size, inner, axis;
    memcpy(&axis, in2->data, 4);
    if (!tflc__a_arg_geom(in, o, axis, &outer, &size, &inner))
      return tflc__op_err(c, TFLC_ERR_KERNEL, "axis %d does not fit the shapes",
                          axis, 0);
    tflc_arg_minmax(in->type, c->op->code == TFLC__A_ARG_MAX, outer, size,
                    inner, in->data, (int32_t *)o->data);
    break;
  }
  case TFLC__A_QUANTIZE: {
    const tflc__a_quant_state *qs = (const tflc__a_quant_state *)s;
    tflc_requantize(in->type, o->type, qs->q, qs->shift, in->zero_point,
                    o->zero_point, n, in->data, o->data);
    break;
  }
  case TFLC__A_DEQUANTIZE:
    tflc_dequantize_u8_f32(in->scale, in->zero_point, n,
                           (const uint8_t *)in->data, (float *)o->data);
    break;
  default:
    return TFLC_ERR_UNSUPPORTED;
  }
  return TFLC_OK;
}

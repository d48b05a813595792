/* Extension fragment b: operator glue (prepare/run) for tflc.h. Pasted
 * into tflc.h's op table section when it stabilises.
 *
 * CONV_2D / DEPTHWISE_CONV_2D for int16x8 and float32 inputs,
 * FULLY_CONNECTED for int16x8 inputs (the int8 cases, and float FC, stay
 * with the built-in table), TRANSPOSE_CONV (int8, int16x8, float32). The
 * checks follow TFLM's Prepare functions; where TFLM would read a tensor
 * with the wrong element type (e.g. an int32 bias where it expects int64)
 * tflc refuses instead. */

#define TFLC__B_OP_SVDF 27
#define TFLC__B_OP_LSTM 44 /* UNIDIRECTIONAL_SEQUENCE_LSTM */
#define TFLC__B_OP_TRANSPOSE_CONV 67

enum {
  TFLC__B_CONV_S16 = 1,
  TFLC__B_CONV_F32,
  TFLC__B_DW_S16,
  TFLC__B_DW_F32,
  TFLC__B_FC_S16,
  TFLC__B_TC_S8,
  TFLC__B_TC_S16,
  TFLC__B_TC_F32,
  TFLC__B_SVDF_S8,
  TFLC__B_SVDF_F32,
  TFLC__B_LSTM_Q,
  TFLC__B_LSTM_F32
};

typedef struct tflc__b_conv_state {
  int32_t kind;
  tflc_conv_params p;
  float fmin, fmax;
  int32_t tile; /* scratch index or -1 */
  int32_t acc;  /* scratch index of the transpose-conv plane or -1 */
  int32_t acc64;
} tflc__b_conv_state;

typedef struct tflc__b_fc_state {
  int32_t kind;
  tflc_fc_params p;
  int32_t batches, accum, depth;
  int32_t tile;
  int32_t acc64;
} tflc__b_fc_state;

/* SVDF keeps only what the tensors do not say (24 bytes per op) */
typedef struct tflc__b_svdf_state {
  int32_t kind;
  int16_t rank;
  int16_t act;
  int32_t mult1, shift1, mult2, shift2;
} tflc__b_svdf_state;

typedef struct tflc__b_lstm_state {
  int32_t kind;
  int32_t act16;
  int32_t scratch;
  tflc_lstm_params p;
} tflc__b_lstm_state;

static int tflc__ext_b_tiled(int32_t code, int32_t k) {
  switch (code) {
  case TFLC_OP_CONV_2D:
  case TFLC_OP_DEPTHWISE_CONV_2D:
  case TFLC_OP_FULLY_CONNECTED:
    return k == 1 || k == 2;
  case TFLC__B_OP_TRANSPOSE_CONV:
    return k == 1 || k == 3;
  }
  return 0;
}

/* Per-channel multipliers (PopulateConvolutionQuantizationParams): scale
 * count 1 or `cout`, the per-channel axis must hold `cout` entries; shifts
 * must fit the kernels' int8 range. */
static tflc_status tflc__b_conv_mult(tflc__ctx *c, const tflc_tensor *in,
                                     const tflc_tensor *f, const tflc_tensor *o,
                                     int32_t cout, tflc_conv_params *p) {
  uint32_t ftt = tflc__tensor_table(c->m, c->sgt, f->index), nsc, i;
  int32_t *mult;
  int8_t *shift;
  if (!(in->scale > 0.0f) || !(o->scale > 0.0f))
    return tflc__op_err(c, TFLC_ERR_QUANT, "input/output not quantized", 0, 0);
  nsc = tflc__tensor_nscales(c->m, ftt);
  if (nsc == 0)
    return tflc__op_err(c, TFLC_ERR_QUANT, "filter tensor %d not quantized",
                        f->index, 0);
  if (nsc > 1) {
    const int32_t qd = tflc__tensor_qdim(c->m, ftt);
    if (nsc != (uint32_t)cout || qd < 0 || qd >= f->rank || f->dims[qd] != cout)
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "filter has %d scales for %d channels", (int32_t)nsc,
                          cout);
  }
  if (cout > 0x7FFFFFFF / 5)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "%d channels", cout, 0);
  mult = (int32_t *)tflc__persist(c->it, 5u * (uint32_t)cout);
  if (!mult)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for multipliers", 0, 0);
  shift = (int8_t *)(mult + cout);
  for (i = 0; i < (uint32_t)cout; i++) {
    float fs = tflc__tensor_scale(c->m, ftt, nsc == 1 ? 0 : i);
    int32_t sh32;
    tflc_conv_quantize_multipliers(in->scale, &fs, 1, o->scale, 1, mult + i,
                                   &sh32);
    if (sh32 < -31 || sh32 > 30)
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "channel %d: multiplier exponent %d out of range",
                          (int32_t)i, sh32);
    shift[i] = (int8_t)sh32;
  }
  p->out_multiplier = mult;
  p->out_shift = shift;
  return TFLC_OK;
}

/* ---- CONV_2D / DEPTHWISE_CONV_2D (int16x8, float32) --------------------- */
static tflc_status tflc__b_prep_conv(tflc__ctx *c, int depthwise) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__b_conv_state *s;
  uint32_t opts = c->op->opts;
  int32_t sh, sw, dh, dw, act, same, oh, ow, cout, kh, kw, f32;
  tflc_status st;
  if (c->op->nin < 2 || c->op->nin > 3 || c->op->nout != 1 || !f || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs 2 or 3 inputs, 1 output", 0,
                        0);
  f32 = in->type == TFLC_FLOAT32;
  if (o->type != in->type ||
      (f32 ? f->type != TFLC_FLOAT32 : f->type != TFLC_INT8))
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "input %d with filter %d unsupported (hybrid)",
                        in->type, f->type);
  if (in->rank != 4 || f->rank != 4 || o->rank != 4)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "tensors must be 4-D", 0, 0);
  if (tflc__get_u8(fb, opts, 0, 0) > 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "unknown padding %d",
                        (int32_t)tflc__get_u8(fb, opts, 0, 0), 0);
  same = tflc__get_u8(fb, opts, 0, 0) == 0;
  sw = tflc__get_i32(fb, opts, 1, 0);
  sh = tflc__get_i32(fb, opts, 2, 0);
  act = (int32_t)tflc__get_u8(fb, opts, depthwise ? 4 : 3, 0);
  dw = tflc__get_i32(fb, opts, depthwise ? 5 : 4, 1);
  dh = tflc__get_i32(fb, opts, depthwise ? 6 : 5, 1);
  if (sw < 1 || sh < 1 || dw < 1 || dh < 1 || sw > 65535 || sh > 65535 ||
      dw > 65535 || dh > 65535)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "bad stride/dilation %d/%d", sw,
                        dw);
  s = (tflc__b_conv_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  kh = f->dims[1];
  kw = f->dims[2];
  cout = depthwise ? f->dims[3] : f->dims[0];
  if (kh < 1 || kw < 1 || cout < 1 || o->dims[3] != cout ||
      o->dims[0] != in->dims[0])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "filter/output channels %d/%d", cout,
                        o->dims[3]);
  if (depthwise) {
    int32_t m = tflc__get_i32(fb, opts, 3, 0);
    if (f->dims[0] != 1 || m < 1 || in->dims[3] * m != cout)
      return tflc__op_err(c, TFLC_ERR_SHAPE,
                          "depth multiplier %d does not give %d channels", m,
                          cout);
    s->p.depth_multiplier = m;
  } else if (f->dims[3] < 1 || in->dims[3] % f->dims[3] != 0 ||
             cout % (in->dims[3] / f->dims[3]) != 0) {
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input depth %d vs filter depth %d",
                        in->dims[3], f->dims[3]);
  }
  s->p.stride_h = sh;
  s->p.stride_w = sw;
  s->p.dilation_h = dh;
  s->p.dilation_w = dw;
  /* keep every position the kernels compute (in + padding, taps times
   * dilation) far inside int32 */
  if ((int64_t)(kh - 1) * dh + 1 > 0x3FFFFFFF ||
      (int64_t)(kw - 1) * dw + 1 > 0x3FFFFFFF || in->dims[1] > 0x3FFFFFFF ||
      in->dims[2] > 0x3FFFFFFF)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "filter %dx%d or dilation too large",
                        kh, kw);
  s->p.pad_h = tflc__pad_amount(same, in->dims[1], kh, sh, dh, &oh);
  s->p.pad_w = tflc__pad_amount(same, in->dims[2], kw, sw, dw, &ow);
  if (oh != o->dims[1] || ow != o->dims[2])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output is %dx%d, model says other",
                        oh, ow);
  if (b && tflc__count(b) != cout)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "bias has %d elements, expected %d",
                        tflc__count(b), cout);
  s->tile = -1;
  s->acc = -1;
  if (f32) {
    if (b && b->type != TFLC_FLOAT32)
      return tflc__op_err(c, TFLC_ERR_TYPE, "bias tensor %d must be float32",
                          b->index, 0);
    s->kind = depthwise ? TFLC__B_DW_F32 : TFLC__B_CONV_F32;
    tflc_activation_range_f32(act, &s->fmin, &s->fmax);
  } else {
    if (depthwise) {
      /* TFLM's int16 depthwise reads the bias as int64 */
      if (b && b->type != TFLC_INT64)
        return tflc__op_err(c, TFLC_ERR_TYPE, "bias tensor %d must be int64",
                            b->index, 0);
      s->acc64 = 1;
    } else {
      if (b && b->type != TFLC_INT32 && b->type != TFLC_INT64)
        return tflc__op_err(c, TFLC_ERR_TYPE,
                            "bias tensor %d must be int32 or int64", b->index,
                            0);
      /* int32 accumulator with an int32 bias, or without bias when
       * quantized_bias_type says INT32 */
      s->acc64 = b ? b->type == TFLC_INT64 : tflc__get_u8(fb, opts, 6, 0) != 2;
    }
    s->kind = depthwise ? TFLC__B_DW_S16 : TFLC__B_CONV_S16;
    st = tflc__b_conv_mult(c, in, f, o, cout, &s->p);
    if (st)
      return st;
    tflc_activation_range_q(act, o->scale, o->zero_point, -32768, 32767,
                            &s->p.act_min, &s->p.act_max);
  }
  if (f->flags & TFLC_TENSOR_LUT) {
    s->tile = tflc__scratch(c, TFLC_TILE_BYTES);
    if (s->tile < 0)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "too many scratch buffers",
                          0, 0);
  }
  return TFLC_OK;
}

/* ---- FULLY_CONNECTED (int16x8) ------------------------------------------ */
static tflc_status tflc__b_prep_fc(tflc__ctx *c) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__b_fc_state *s;
  uint32_t nsc, ftt;
  int32_t act, nin, n, i, *mult;
  int8_t *shift;
  if (c->op->nin < 2 || c->op->nout != 1 || !f || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "missing input or output", 0, 0);
  if (f->type != TFLC_INT8 || o->type != TFLC_INT16)
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "int16 input needs int8 filter, int16 output", 0, 0);
  if (b && b->type != TFLC_INT32 && b->type != TFLC_INT64)
    return tflc__op_err(c, TFLC_ERR_TYPE, "bias tensor %d must be int32/int64",
                        b->index, 0);
  if (tflc__get_u8(fb, c->op->opts, 1, 0) != 0)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "shuffled weights format", 0,
                        0);
  act = (int32_t)tflc__get_u8(fb, c->op->opts, 0, 0);
  if (f->rank != 2 || f->dims[1] < 1 || f->dims[0] < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "weights must be 2-D", 0, 0);
  s = (tflc__b_fc_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  s->kind = TFLC__B_FC_S16;
  s->accum = f->dims[1];
  s->depth = f->dims[0];
  nin = tflc__count(in);
  if (nin % s->accum != 0)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "input of %d elements is not a multiple of %d", nin,
                        s->accum);
  s->batches = nin / s->accum;
  if (tflc__count(o) != s->batches * s->depth)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "output has %d elements, expected %d", tflc__count(o),
                        s->batches * s->depth);
  if (b && tflc__count(b) != s->depth)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "bias has %d elements, expected %d",
                        tflc__count(b), s->depth);
  if (!(in->scale > 0.0f) || !(o->scale > 0.0f) || !(f->scale > 0.0f))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  s->acc64 =
      b ? b->type == TFLC_INT64 : tflc__get_u8(fb, c->op->opts, 4, 0) != 2;
  ftt = tflc__tensor_table(c->m, c->sgt, f->index);
  nsc = tflc__tensor_nscales(c->m, ftt);
  s->p.per_channel = nsc > 1;
  if (nsc > 1) {
    const int32_t qd = tflc__tensor_qdim(c->m, ftt);
    if (qd < 0 || qd >= f->rank || (uint32_t)f->dims[qd] != nsc ||
        nsc != (uint32_t)s->depth)
      return tflc__op_err(c, TFLC_ERR_QUANT, "%d filter scales for %d outputs",
                          (int32_t)nsc, s->depth);
  } else if (b) {
    /* GetQuantizedConvolutionMultipler's bias scale check */
    const double ps = (double)in->scale * (double)f->scale;
    const double d =
        ps > (double)b->scale ? ps - (double)b->scale : (double)b->scale - ps;
    if (!(d / (double)o->scale <= 0.02))
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "bias scale does not match input x filter scale", 0,
                          0);
  }
  n = nsc > 1 ? s->depth : 1;
  if (n > 0x7FFFFFFF / 5)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "%d outputs", n, 0);
  mult = (int32_t *)tflc__persist(c->it, 5u * (uint32_t)n);
  if (!mult)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for multipliers", 0, 0);
  shift = (int8_t *)(mult + n);
  for (i = 0; i < n; i++) {
    int32_t sh32;
    if (nsc > 1) {
      float fs = tflc__tensor_scale(c->m, ftt, (uint32_t)i);
      tflc_conv_quantize_multipliers(in->scale, &fs, 1, o->scale, 1, mult + i,
                                     &sh32);
    } else {
      tflc_fc_quantize_multiplier(in->scale, f->scale, o->scale, mult, &sh32);
    }
    if (sh32 < -31 || sh32 > 30)
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "multiplier exponent %d out of range", sh32, 0);
    shift[i] = (int8_t)sh32;
  }
  s->p.out_multiplier = mult;
  s->p.out_shift = shift;
  s->p.filter_offset = -f->zero_point;
  s->p.input_offset = -in->zero_point;
  s->p.output_offset = o->zero_point;
  tflc_activation_range_q(act, o->scale, o->zero_point, -32768, 32767,
                          &s->p.act_min, &s->p.act_max);
  s->tile = -1;
  if (f->flags & TFLC_TENSOR_LUT) {
    s->tile = tflc__scratch(c, TFLC_TILE_BYTES);
    if (s->tile < 0)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "too many scratch buffers",
                          0, 0);
  }
  return TFLC_OK;
}

/* ---- TRANSPOSE_CONV ----------------------------------------------------- */
/* Padding of TFLM's ComputePaddingHeightWidth with the transpose-conv
 * output size as the "input" and dilation 1; when the output-size step
 * fails (negative size) TFLM leaves both paddings at 0. */
static int tflc__b_tc_pad(int same, int32_t in, int32_t k, int32_t stride,
                          int32_t *pad) {
  int64_t o, total;
  if (same)
    o = ((int64_t)in + stride - 1) / stride;
  else
    o = ((int64_t)in + stride - k) / stride;
  if (o < 0)
    return 0;
  total = (o - 1) * stride + k - in;
  *pad = total > 0 ? (int32_t)(total / 2) : 0;
  return 1;
}

static tflc_status tflc__b_prep_tconv(tflc__ctx *c) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *f = tflc__in(c, 1), *in = tflc__in(c, 2), *b = tflc__in(c, 3);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__b_conv_state *s;
  uint32_t opts = c->op->opts;
  int32_t sh, sw, act, same, cout, ph = 0, pw = 0;
  uint64_t plane;
  tflc_status st;
  if (c->op->nin < 3 || c->op->nin > 4 || c->op->nout != 1 || !f || !in || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs 3 or 4 inputs, 1 output", 0,
                        0);
  if (!(in->type == f->type &&
        (in->type == TFLC_FLOAT32 || in->type == TFLC_INT8)) &&
      !(in->type == TFLC_INT16 && f->type == TFLC_INT8))
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "input %d with filter %d unsupported (hybrid)",
                        in->type, f->type);
  if (o->type != in->type)
    return tflc__op_err(c, TFLC_ERR_TYPE, "output type %d differs from input",
                        o->type, 0);
  if (in->rank != 4 || f->rank != 4 || o->rank != 4)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "tensors must be 4-D", 0, 0);
  cout = f->dims[0];
  if (f->dims[3] != in->dims[3] || o->dims[3] != cout ||
      o->dims[0] != in->dims[0] || f->dims[1] < 1 || f->dims[2] < 1 || cout < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "filter [%d,..,%d] does not match input/output", cout,
                        f->dims[3]);
  if (tflc__get_u8(fb, opts, 0, 0) > 1)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "unknown padding %d",
                        (int32_t)tflc__get_u8(fb, opts, 0, 0), 0);
  same = tflc__get_u8(fb, opts, 0, 0) == 0;
  sw = tflc__get_i32(fb, opts, 1, 0);
  sh = tflc__get_i32(fb, opts, 2, 0);
  act = (int32_t)tflc__get_u8(fb, opts, 3, 0);
  if (sw < 1 || sh < 1 || sw > 65535 || sh > 65535)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "bad stride %d/%d", sw, sh);
  if (b && tflc__count(b) != cout)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "bias has %d elements, expected %d",
                        tflc__count(b), cout);
  s = (tflc__b_conv_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  if ((int64_t)in->dims[1] * sh + f->dims[1] > 0x3FFFFFFF ||
      (int64_t)in->dims[2] * sw + f->dims[2] > 0x3FFFFFFF ||
      o->dims[1] > 0x3FFFFFFF || o->dims[2] > 0x3FFFFFFF)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input %dx%d times stride too large",
                        in->dims[1], in->dims[2]);
  if (tflc__b_tc_pad(same, o->dims[2], f->dims[2], sw, &pw) &&
      tflc__b_tc_pad(same, o->dims[1], f->dims[1], sh, &ph)) {
    s->p.pad_h = ph;
    s->p.pad_w = pw;
  }
  s->p.stride_h = sh;
  s->p.stride_w = sw;
  s->p.dilation_h = s->p.dilation_w = 1;
  s->tile = -1;
  s->acc = -1;
  plane = (uint64_t)o->dims[0] * (uint64_t)o->dims[1] * (uint64_t)o->dims[2];
  if (in->type == TFLC_FLOAT32) {
    if (b && b->type != TFLC_FLOAT32)
      return tflc__op_err(c, TFLC_ERR_TYPE, "bias tensor %d must be float32",
                          b->index, 0);
    s->kind = TFLC__B_TC_F32;
    tflc_activation_range_f32(act, &s->fmin, &s->fmax);
  } else {
    const int s16 = in->type == TFLC_INT16;
    if (b && (s16 ? (b->type != TFLC_INT16 && b->type != TFLC_INT64)
                  : b->type != TFLC_INT32))
      return tflc__op_err(c, TFLC_ERR_TYPE,
                          s16 ? "bias tensor %d must be int16 or int64"
                              : "bias tensor %d must be int32",
                          b->index, 0);
    s->kind = s16 ? TFLC__B_TC_S16 : TFLC__B_TC_S8;
    st = tflc__b_conv_mult(c, in, f, o, cout, &s->p);
    if (st)
      return st;
    s->p.input_offset = -in->zero_point;
    s->p.output_offset = o->zero_point;
    tflc_activation_range_q(act, o->scale, o->zero_point, s16 ? -32768 : -128,
                            s16 ? 32767 : 127, &s->p.act_min, &s->p.act_max);
    /* one output channel's accumulators at a time */
    if (plane * (s16 ? 8u : 4u) > 0x7FFFFFFFu)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "output too large", 0, 0);
    s->acc = tflc__scratch(c, (uintptr_t)(plane * (s16 ? 8u : 4u)));
    if (s->acc < 0)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "too many scratch buffers",
                          0, 0);
  }
  if (f->flags & TFLC_TENSOR_LUT) {
    s->tile = tflc__scratch(c, TFLC_TILE_BYTES);
    if (s->tile < 0)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "too many scratch buffers",
                          0, 0);
  }
  return TFLC_OK;
}

/* ---- SVDF --------------------------------------------------------------- */
static tflc_status tflc__b_prep_svdf(tflc__ctx *c) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *wf = tflc__in(c, 1), *wt = tflc__in(c, 2);
  tflc_tensor *b = tflc__in(c, 3), *st = tflc__in(c, 4), *o = tflc__out(c, 0);
  tflc__b_svdf_state *s;
  int32_t rank, B, I, F, U, M;
  if (c->op->nin != 5 || c->op->nout != 1 || !in || !wf || !wt || !st || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "needs 5 inputs (bias optional), 1 output", 0, 0);
  rank = tflc__get_i32(fb, c->op->opts, 0, 0);
  if (in->rank != 2 || o->rank != 2 || wf->rank != 2 || wt->rank != 2 ||
      st->rank != 2 || (b && b->rank < 1))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "tensors must be 2-D", 0, 0);
  B = in->dims[0];
  I = in->dims[1];
  F = wf->dims[0];
  M = wt->dims[1];
  if (rank < 1 || F % rank != 0)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "rank %d does not divide %d filters", rank, F);
  U = F / rank;
  if (o->dims[0] != B || o->dims[1] != U || wf->dims[1] != I ||
      wt->dims[0] != F || (b && b->dims[0] != U) || st->dims[0] != B ||
      (int64_t)st->dims[1] != (int64_t)M * F || M < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "shapes do not match %d filters, memory %d", F, M);
  if (!(st->flags & TFLC_TENSOR_VARIABLE))
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "activation state tensor %d is not a variable",
                        st->index, 0);
  s = (tflc__b_svdf_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  if (rank > 32767)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "rank %d too large", rank, 0);
  s->rank = (int16_t)rank;
  s->act = (int16_t)tflc__get_u8(fb, c->op->opts, 1, 0);
  if (in->type == TFLC_FLOAT32) {
    if (wf->type != TFLC_FLOAT32 || wt->type != TFLC_FLOAT32 ||
        st->type != TFLC_FLOAT32 || o->type != TFLC_FLOAT32 ||
        (b && b->type != TFLC_FLOAT32))
      return tflc__op_err(c, TFLC_ERR_TYPE, "float SVDF needs float tensors", 0,
                          0);
    s->kind = TFLC__B_SVDF_F32;
    return TFLC_OK;
  }
  if (in->type != TFLC_INT8 || wf->type != TFLC_INT8 ||
      (wt->type != TFLC_INT16 && wt->type != TFLC_INT8) ||
      st->type != wt->type || o->type != TFLC_INT8 ||
      (b && b->type != TFLC_INT32))
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "int8 SVDF needs int8 input/feature weights/output, "
                        "time weights and state both int16 or int8 (%d/%d)",
                        wt->type, st->type);
  if (!(in->scale > 0.0f) || !(wf->scale > 0.0f) || !(wt->scale > 0.0f) ||
      !(st->scale > 0.0f) || !(o->scale > 0.0f))
    return tflc__op_err(c, TFLC_ERR_QUANT, "tensors not quantized", 0, 0);
  {
    /* TFLM multiplies and divides the scales in float */
    float s1 = in->scale * wf->scale, s2 = st->scale * wt->scale;
    const float pb = s2;
    s1 = s1 / st->scale;
    s2 = s2 / o->scale;
    if (b) {
      const double d = (double)b->scale - (double)pb;
      if (!((d < 0 ? -d : d) < 1e-5))
        return tflc__op_err(c, TFLC_ERR_QUANT,
                            "bias scale differs from state x time weights", 0,
                            0);
    }
    tflc_quantize_multiplier((double)s1, &s->mult1, &s->shift1);
    tflc_quantize_multiplier((double)s2, &s->mult2, &s->shift2);
  }
  s->kind = TFLC__B_SVDF_S8;
  return TFLC_OK;
}

static tflc_status tflc__b_run_svdf(tflc__ctx *c) {
  tflc__b_svdf_state *s = (tflc__b_svdf_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *wf = tflc__in(c, 1), *wt = tflc__in(c, 2);
  tflc_tensor *b = tflc__in(c, 3), *st = tflc__in(c, 4), *o = tflc__out(c, 0);
  tflc_const fc = tflc__const(c, wf), tc = tflc__const(c, wt), bc;
  tflc_svdf_params p;
  p.batches = in->dims[0];
  p.input_size = in->dims[1];
  p.num_filters = wf->dims[0];
  p.memory_size = wt->dims[1];
  p.rank = s->rank;
  p.act = s->act;
  p.input_zp = in->zero_point;
  p.state_zp = st->zero_point;
  p.output_zp = o->zero_point;
  p.mult1 = s->mult1;
  p.shift1 = s->shift1;
  p.mult2 = s->mult2;
  p.shift2 = s->shift2;
  if (b)
    bc = tflc__const(c, b);
  if (s->kind == TFLC__B_SVDF_F32)
    tflc_svdf_f32(&p, (const float *)in->data, &fc, &tc, b ? &bc : NULL,
                  (float *)st->data, (float *)o->data);
  else
    tflc_svdf_s8(&p, (const int8_t *)in->data, &fc, &tc, b ? &bc : NULL,
                 st->data, (int8_t *)o->data);
  return TFLC_OK;
}

/* ---- UNIDIRECTIONAL_SEQUENCE_LSTM --------------------------------------- */
/* QuantizeMultiplier of double(a) * double(b) / double(o) into p[0], p[1] */
static void tflc__b_qm3(float a, float b, float o, int32_t *q, int32_t *sh) {
  tflc_quantize_multiplier((double)a * (double)b / (double)o, q, sh);
}

static tflc_status tflc__b_prep_lstm(tflc__ctx *c) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *t[24], *in, *h, *cs, *o = tflc__out(c, 0);
  tflc__b_lstm_state *s;
  tflc_lstm_params *p;
  int32_t k, act, B, T, I, S, rows, flt;
  float clip;
  if (c->op->nin != 24 || c->op->nout != 1 || !o)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "needs 24 inputs and 1 output", 0,
                        0);
  for (k = 0; k < 24; k++)
    t[k] = tflc__in(c, k);
  in = t[0];
  h = t[18];
  cs = t[19];
  if (!in || !h || !cs)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "input, hidden or cell missing", 0,
                        0);
  if (!(h->flags & TFLC_TENSOR_VARIABLE) || !(cs->flags & TFLC_TENSOR_VARIABLE))
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "hidden and cell state must be variables", 0, 0);
  if (h->type != in->type || o->type != in->type)
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "hidden/output type differs from "
                        "input type %d",
                        in->type, 0);
  for (k = 1; k < 24; k++) {
    const int needed = (k >= 1 && k <= 8) || (k >= 12 && k <= 15);
    if (k == 18 || k == 19)
      continue;
    if (needed && !t[k])
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "input %d missing (CIFG is not supported)", k, 0);
    if (!needed && t[k])
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "input %d present (peephole, projection or layer "
                          "norm are not supported)",
                          k, 0);
    if (needed && t[k]->type != t[k <= 8 ? 2 : 13]->type)
      return tflc__op_err(c, TFLC_ERR_TYPE, "input %d type %d differs", k,
                          t[k]->type);
  }
  act = (int32_t)tflc__get_u8(fb, c->op->opts, 0, 0);
  clip = tflc__get_f32(fb, c->op->opts, 1, 0.0f);
  if (act != 4)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "cell activation %d (only TANH)", act, 0);
  if (in->rank != 3 || h->rank != 2 || o->rank != 3)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input/output 3-D, hidden 2-D", 0,
                        0);
  s = (tflc__b_lstm_state *)tflc__persist(c->it, sizeof *s);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  c->op->state = s;
  p = &s->p;
  p->time_major = tflc__get_u8(fb, c->op->opts, 3, 0) != 0;
  B = p->time_major ? in->dims[1] : in->dims[0];
  T = p->time_major ? in->dims[0] : in->dims[1];
  I = in->dims[2];
  S = h->dims[1];
  p->batches = B;
  p->steps = T;
  p->input_size = I;
  p->state_size = S;
  for (k = 1; k <= 8; k++)
    if (t[k]->rank != 2 || t[k]->dims[0] != S ||
        t[k]->dims[1] != (k <= 4 ? I : S))
      return tflc__op_err(c, TFLC_ERR_SHAPE, "weight %d is not [%d, ..]", k, S);
  for (k = 12; k <= 15; k++)
    if (t[k]->rank != 1 || t[k]->dims[0] != S)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "bias %d is not [%d]", k, S);
  if ((int64_t)tflc__count(h) != (int64_t)B * S ||
      (int64_t)tflc__count(cs) != (int64_t)B * S || o->dims[0] != in->dims[0] ||
      o->dims[1] != in->dims[1] || o->dims[2] != S || B < 1 || S < 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "state/output shapes vs %d x %d", B,
                        S);
  flt = cs->type == TFLC_FLOAT32;
  p->clip_f = clip;
  if (flt) {
    if (in->type != TFLC_FLOAT32 || t[2]->type != TFLC_FLOAT32 ||
        t[13]->type != TFLC_FLOAT32)
      return tflc__op_err(c, TFLC_ERR_TYPE, "float LSTM needs float tensors", 0,
                          0);
    s->kind = TFLC__B_LSTM_F32;
  } else {
    const int act16 = in->type == TFLC_INT16;
    int32_t sh, l2;
    float sc;
    if (cs->type != TFLC_INT16 || (in->type != TFLC_INT8 && !act16) ||
        t[2]->type != TFLC_INT8 ||
        t[13]->type != (act16 ? TFLC_INT64 : TFLC_INT32))
      return tflc__op_err(c, TFLC_ERR_TYPE,
                          "integer LSTM needs int8/int16 activations, int8 "
                          "weights, int16 cell, int32/int64 bias (got %d/%d)",
                          in->type, cs->type);
    s->kind = TFLC__B_LSTM_Q;
    s->act16 = act16;
    p->acc64 = act16;
    if (!(in->scale > 0.0f) || !(h->scale > 0.0f) || !(cs->scale > 0.0f))
      return tflc__op_err(c, TFLC_ERR_QUANT, "state tensors not quantized", 0,
                          0);
    for (k = 0; k < 8; k++) {
      const tflc_tensor *w = t[1 + k];
      const uint32_t wtt = tflc__tensor_table(c->m, c->sgt, w->index);
      if (tflc__tensor_nscales(c->m, wtt) != 1 || !(w->scale > 0.0f))
        return tflc__op_err(c, TFLC_ERR_QUANT,
                            "weight %d must be per-tensor quantized", 1 + k, 0);
      /* gate FCs write Q3.12 (scale 2^-12), product rounded to float */
      tflc_fc_quantize_multiplier(k < 4 ? in->scale : h->scale, w->scale,
                                  0.000244140625f, &p->gate_mult[k], &sh);
      p->gate_shift[k] = sh;
      p->w_offset[k] = -w->zero_point;
    }
    p->input_offset = -in->zero_point;
    p->hidden_offset = -h->zero_point;
    p->hidden_zp = h->zero_point;
    p->hidden_min = act16 ? -32768 : -128;
    p->hidden_max = act16 ? 32767 : 127;
    sc = cs->scale;
    tflc__b_qm3(0.000030517578125f, sc, sc, &p->fc_mult, &p->fc_shift);
    tflc__b_qm3(0.000030517578125f, 0.000030517578125f, sc, &p->ig_mult,
                &p->ig_shift);
    tflc__b_qm3(0.000030517578125f, 0.000030517578125f, h->scale, &p->h_mult,
                &p->h_shift);
    /* CheckedLog2 of the cell scale (float log, rounded) */
    l2 = (int32_t)roundf(logf(sc) * (1.0f / logf(2.0f)));
    sh = 15 + l2 - 3;
    if (sh < 0) {
      p->tanh_mult = 3;
      p->tanh_shift = -sh;
    } else if (sh < 29) {
      p->tanh_mult = 3 << sh;
      p->tanh_shift = 0;
    } else {
      return tflc__op_err(c, TFLC_ERR_QUANT, "cell scale 2^%d too large", l2,
                          0);
    }
    {
      double q = (double)clip / (double)sc;
      q = q < -32768.0 ? -32768.0 : q;
      q = q > 32767.0 ? 32767.0 : q;
      p->clip_q = (int32_t)q;
    }
  }
  rows = p->time_major ? B : 1;
  {
    const uint64_t bytes = 3u * (uint64_t)rows * (uint64_t)S * (flt ? 4u : 2u);
    if (bytes > 0x7FFFFFFFu)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "state too large", 0, 0);
    s->scratch = tflc__scratch(c, (uintptr_t)bytes);
    if (s->scratch < 0)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED, "too many scratch buffers",
                          0, 0);
  }
  return TFLC_OK;
}

static tflc_status tflc__b_run_lstm(tflc__ctx *c) {
  tflc__b_lstm_state *s = (tflc__b_lstm_state *)c->op->state;
  tflc_const w[8], b[4];
  tflc_tensor *in = tflc__in(c, 0), *h = tflc__in(c, 18), *cs = tflc__in(c, 19);
  tflc_tensor *o = tflc__out(c, 0);
  void *scratch = (void *)c->op->scratch[s->scratch];
  int32_t k;
  for (k = 0; k < 8; k++)
    w[k] = tflc__const(c, tflc__in(c, 1 + k));
  for (k = 0; k < 4; k++)
    b[k] = tflc__const(c, tflc__in(c, 12 + k));
  if (s->kind == TFLC__B_LSTM_F32)
    tflc_lstm_f32(&s->p, w, b, (const float *)in->data, (float *)h->data,
                  (float *)cs->data, (float *)o->data, (float *)scratch);
  else
    tflc_lstm_q(&s->p, s->act16, w, b, in->data, h->data, (int16_t *)cs->data,
                o->data, (int16_t *)scratch);
  return TFLC_OK;
}

/* ---- dispatch ----------------------------------------------------------- */
static int tflc__ext_b_prepare(tflc__ctx *c, tflc_status *st) {
  tflc_tensor *in;
  switch (c->op->code) {
  case TFLC_OP_CONV_2D:
  case TFLC_OP_DEPTHWISE_CONV_2D:
    in = tflc__in(c, 0);
    if (!in || (in->type != TFLC_INT16 && in->type != TFLC_FLOAT32))
      return 0; /* int8 (and errors) stay with the built-in */
    *st = tflc__b_prep_conv(c, c->op->code == TFLC_OP_DEPTHWISE_CONV_2D);
    return 1;
  case TFLC_OP_FULLY_CONNECTED:
    in = tflc__in(c, 0);
    if (!in || in->type != TFLC_INT16)
      return 0;
    *st = tflc__b_prep_fc(c);
    return 1;
  case TFLC__B_OP_TRANSPOSE_CONV:
    *st = tflc__b_prep_tconv(c);
    return 1;
  case TFLC__B_OP_SVDF:
    *st = tflc__b_prep_svdf(c);
    return 1;
  case TFLC__B_OP_LSTM:
    *st = tflc__b_prep_lstm(c);
    return 1;
  }
  return 0;
}

static tflc_status tflc__b_run_conv(tflc__ctx *c) {
  tflc__b_conv_state *s = (tflc__b_conv_state *)c->op->state;
  const int tc = s->kind >= TFLC__B_TC_S8;
  tflc_tensor *in = tflc__in(c, tc ? 2 : 0), *f = tflc__in(c, 1);
  tflc_tensor *b = tflc__in(c, tc ? 3 : 2), *o = tflc__out(c, 0);
  void *tile = s->tile >= 0 ? (void *)c->op->scratch[s->tile] : NULL;
  void *acc = s->acc >= 0 ? (void *)c->op->scratch[s->acc] : NULL;
  size_t tb = s->tile >= 0 ? TFLC_TILE_BYTES : 0;
  tflc_const fc = tflc__const(c, f), bc;
  const tflc_const *bp = NULL;
  if (b) {
    bc = tflc__const(c, b);
    bp = &bc;
  }
  switch (s->kind) {
  case TFLC__B_CONV_S16:
    tflc_conv2d_s16(&s->p, in->dims, (const int16_t *)in->data, f->dims, &fc,
                    bp, s->acc64, o->dims, (int16_t *)o->data, tile, tb);
    break;
  case TFLC__B_CONV_F32:
    tflc_conv2d_f32(&s->p, s->fmin, s->fmax, in->dims, (const float *)in->data,
                    f->dims, &fc, bp, o->dims, (float *)o->data, tile, tb);
    break;
  case TFLC__B_DW_S16:
    tflc_depthwise_conv2d_s16(&s->p, in->dims, (const int16_t *)in->data,
                              f->dims, &fc, bp, o->dims, (int16_t *)o->data,
                              tile, tb);
    break;
  case TFLC__B_DW_F32:
    tflc_depthwise_conv2d_f32(&s->p, s->fmin, s->fmax, in->dims,
                              (const float *)in->data, f->dims, &fc, bp,
                              o->dims, (float *)o->data, tile, tb);
    break;
  case TFLC__B_TC_S8:
    tflc_transpose_conv_s8(&s->p, in->dims, (const int8_t *)in->data, f->dims,
                           &fc, bp, o->dims, (int8_t *)o->data, (int32_t *)acc,
                           tile, tb);
    break;
  case TFLC__B_TC_S16:
    tflc_transpose_conv_s16(&s->p, in->dims, (const int16_t *)in->data, f->dims,
                            &fc, bp, o->dims, (int16_t *)o->data,
                            (int64_t *)acc, tile, tb);
    break;
  case TFLC__B_TC_F32:
    tflc_transpose_conv_f32(&s->p, s->fmin, s->fmax, in->dims,
                            (const float *)in->data, f->dims, &fc, bp, o->dims,
                            (float *)o->data, tile, tb);
    break;
  default:
    return TFLC_ERR_STATE;
  }
  return TFLC_OK;
}

static tflc_status tflc__b_run_fc(tflc__ctx *c) {
  tflc__b_fc_state *s = (tflc__b_fc_state *)c->op->state;
  tflc_tensor *in = tflc__in(c, 0), *f = tflc__in(c, 1), *b = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  void *tile = s->tile >= 0 ? (void *)c->op->scratch[s->tile] : NULL;
  size_t tb = s->tile >= 0 ? TFLC_TILE_BYTES : 0;
  tflc_const fc = tflc__const(c, f), bc;
  if (b)
    bc = tflc__const(c, b);
  tflc_fully_connected_s16(&s->p, s->batches, s->accum, s->depth,
                           (const int16_t *)in->data, &fc, b ? &bc : NULL,
                           s->acc64, (int16_t *)o->data, tile, tb);
  return TFLC_OK;
}

static tflc_status tflc__ext_b_run(tflc__ctx *c) {
  const int32_t kind = c->op->state ? *(const int32_t *)c->op->state : 0;
  if (kind == TFLC__B_FC_S16)
    return tflc__b_run_fc(c);
  if (kind == TFLC__B_SVDF_S8 || kind == TFLC__B_SVDF_F32)
    return tflc__b_run_svdf(c);
  if (kind == TFLC__B_LSTM_Q || kind == TFLC__B_LSTM_F32)
    return tflc__b_run_lstm(c);
  if (kind >= TFLC__B_CONV_S16 && kind <= TFLC__B_TC_F32)
    return tflc__b_run_conv(c);
  return TFLC_ERR_STATE;
}

/* Extension fragment c: operator glue (prepare/run) for tflc.h. Pasted
 * into tflc.h's op table section when it stabilises.
 *
 * Data movement and resampling: CONCATENATION, PACK, SPLIT, SPLIT_V,
 * UNPACK, GATHER, SLICE, STRIDED_SLICE, PADV2, SPACE_TO_DEPTH,
 * DEPTH_TO_SPACE, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, SQUEEZE,
 * EXPAND_DIMS, SHAPE, ZEROS_LIKE, RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR.
 * Each accepts what TFLM's micro kernel (tflite-micro 90b983c2b) accepts
 * and refuses at init what TFLM refuses at prepare; where TFLM only
 * debug-checks (shapes, indices) tflc refuses too instead of reading or
 * writing out of bounds. */

enum {
  TFLC__C_CONCATENATION = 2,
  TFLC__C_DEPTH_TO_SPACE = 5,
  TFLC__C_RESIZE_BILINEAR = 23,
  TFLC__C_SPACE_TO_DEPTH = 26,
  TFLC__C_GATHER = 36,
  TFLC__C_BATCH_TO_SPACE_ND = 37,
  TFLC__C_SPACE_TO_BATCH_ND = 38,
  TFLC__C_SQUEEZE = 43,
  TFLC__C_STRIDED_SLICE = 45,
  TFLC__C_SPLIT = 49,
  TFLC__C_PADV2 = 60,
  TFLC__C_SLICE = 65,
  TFLC__C_EXPAND_DIMS = 70,
  TFLC__C_SHAPE = 77,
  TFLC__C_PACK = 83,
  TFLC__C_UNPACK = 88,
  TFLC__C_ZEROS_LIKE = 93,
  TFLC__C_RESIZE_NEAREST_NEIGHBOR = 97,
  TFLC__C_SPLIT_V = 102
};

/* type masks */
#define TFLC__C_M(t) (1u << (t))
#define TFLC__C_F32 TFLC__C_M(TFLC_FLOAT32)
#define TFLC__C_I8 TFLC__C_M(TFLC_INT8)
#define TFLC__C_I16 TFLC__C_M(TFLC_INT16)
#define TFLC__C_I32 TFLC__C_M(TFLC_INT32)
#define TFLC__C_I64 TFLC__C_M(TFLC_INT64)
#define TFLC__C_BOOL TFLC__C_M(TFLC_BOOL)

/* Persistent state, 8 bytes: an axis and a mode, a block size, flags.
 * SLICE, STRIDED_SLICE, PADV2, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND keep
 * none: their parameters (constant, checked at init) are read again from
 * the tensors at run, as TFLM's kernels do. */
typedef struct tflc__c_state {
  int32_t v[2];
} tflc__c_state;
/* Per-axis start / stride / count of SLICE and STRIDED_SLICE (on the
 * stack). */
typedef struct tflc__c_slice {
  int32_t rank;
  int32_t start[TFLC_MAX_DIMS], stride[TFLC_MAX_DIMS], count[TFLC_MAX_DIMS];
} tflc__c_slice;

static tflc__c_state *tflc__c_new_state(tflc__ctx *c) {
  tflc__c_state *s = (tflc__c_state *)tflc__persist(c->it, sizeof *s);
  c->op->state = s;
  return s;
}
/* Input / output counts and presence. */
static tflc_status tflc__c_io(tflc__ctx *c, int32_t nin_lo, int32_t nin_hi,
                              int32_t nout_lo, int32_t nout_hi) {
  int32_t k;
  if (c->op->nin < nin_lo || c->op->nin > nin_hi || c->op->nout < nout_lo ||
      c->op->nout > nout_hi)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "%d inputs, %d outputs unexpected",
                        c->op->nin, c->op->nout);
  for (k = 0; k < c->op->nin; k++)
    if (!tflc__in(c, k))
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "input %d missing", k, 0);
  return TFLC_OK;
}
/* Input 0 and output 0 of the same type, one of `mask`. */
static tflc_status tflc__c_same_type(tflc__ctx *c, const tflc_tensor *in,
                                     const tflc_tensor *o, uint32_t mask) {
  if (in->type >= 32 || !(mask & TFLC__C_M(in->type)))
    return tflc__op_err(c, TFLC_ERR_TYPE, "type %d unsupported", in->type, 0);
  if (o->type != in->type)
    return tflc__op_err(c, TFLC_ERR_TYPE, "output type %d, input type %d",
                        o->type, in->type);
  return TFLC_OK;
}
/* Constant data present in the model (not compressed). */
static int tflc__c_static(const tflc_tensor *t) {
  return t && (t->flags & TFLC_TENSOR_CONST) && !(t->flags & TFLC_TENSOR_LUT) &&
         t->data;
}
/* Reads an int32 (or, if allow64, int64) vector from t->data: at init for
 * constants, at run for any tensor. 0 if the type or count is wrong. */
static int tflc__c_ints(const tflc_tensor *t, int allow64, int32_t *v,
                        int32_t cap, int32_t *n) {
  int32_t i, cnt = tflc__count(t);
  const uint8_t *p = (const uint8_t *)t->data;
  if (!p || cnt > cap || cnt < 0)
    return 0;
  for (i = 0; i < cnt; i++) {
    if (t->type == TFLC_INT32) {
      v[i] = tflc__i32(p + 4 * i);
    } else if (t->type == TFLC_INT64 && allow64) {
      int64_t x = (int64_t)tflc__u64(p + 8 * i);
      if (x < INT32_MIN || x > INT32_MAX)
        return 0;
      v[i] = (int32_t)x;
    } else {
      return 0;
    }
  }
  *n = cnt;
  return 1;
}
static size_t tflc__c_prod(const int32_t *d, int32_t from, int32_t to) {
  size_t p = 1;
  int32_t i;
  for (i = from; i < to; i++)
    p *= (size_t)d[i];
  return p;
}
static int tflc__c_dims_eq(const int32_t *a, const int32_t *b, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++)
    if (a[i] != b[i])
      return 0;
  return 1;
}

/* ---- CONCATENATION / PACK ------------------------------------------------ */
static tflc_status tflc__c_prep_concat(tflc__ctx *c, int pack) {
  tflc__fb fb = tflc__cfb(c);
  uint32_t opts = c->op->opts;
  tflc_tensor *o = tflc__out(c, 0), *i0 = tflc__in(c, 0);
  tflc__c_state *s;
  int32_t k, j, axis, sum = 0, n = c->op->nin;
  tflc_status st = tflc__c_io(c, 1, pack ? 0x7FFF : 10, 1, 1);
  if (st)
    return st;
  st = tflc__c_same_type(c, i0, o,
                         pack ? TFLC__C_F32 | TFLC__C_I8 | TFLC__C_I16 |
                                    TFLC__C_I32 | TFLC__C_I64
                              : TFLC__C_F32 | TFLC__C_I8 | TFLC__C_I16 |
                                    TFLC__C_I32 | TFLC__C_I64 | TFLC__C_BOOL);
  if (st)
    return st;
  if (pack) {
    int32_t vc = tflc__get_i32(fb, opts, 0, 0);
    if (vc != n)
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "values_count %d but %d inputs",
                          vc, n);
    axis = tflc__get_i32(fb, opts, 1, 0);
    if (o->rank != i0->rank + 1)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "output rank %d, input rank %d",
                          o->rank, i0->rank);
  } else {
    int32_t act = (int32_t)tflc__get_u8(fb, opts, 1, 0);
    if (act != 0)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "fused activation %d (TFLM requires NONE)", act, 0);
    axis = tflc__get_i32(fb, opts, 0, 0);
  }
  if (axis < 0)
    axis += o->rank;
  if (axis < 0 || axis >= o->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "axis %d outside rank %d", axis,
                        o->rank);
  if (!pack && i0->type == TFLC_INT16 && o->zero_point != 0)
    return tflc__op_err(c, TFLC_ERR_QUANT, "int16 output zero point %d != 0",
                        o->zero_point, 0);
  for (k = 0; k < n; k++) {
    const tflc_tensor *t = tflc__in(c, k);
    if (t->type != i0->type)
      return tflc__op_err(c, TFLC_ERR_TYPE, "input %d type differs", k, 0);
    if (pack) {
      if (t->rank + 1 != o->rank)
        return tflc__op_err(c, TFLC_ERR_SHAPE, "input %d has rank %d", k,
                            t->rank);
      for (j = 0; j < o->rank; j++)
        if (j != axis && o->dims[j] != t->dims[j < axis ? j : j - 1])
          return tflc__op_err(c, TFLC_ERR_SHAPE,
                              "input %d does not match output dim %d", k, j);
      continue;
    }
    if (t->rank != o->rank)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "input %d has rank %d", k,
                          t->rank);
    for (j = 0; j < o->rank; j++)
      if (j != axis && o->dims[j] != t->dims[j])
        return tflc__op_err(c, TFLC_ERR_SHAPE,
                            "input %d does not match output dim %d", k, j);
    sum += t->dims[axis];
    if (t->type == TFLC_INT8 &&
        (t->scale != o->scale || t->zero_point != o->zero_point))
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "input %d quantization differs from the output's "
                          "(TFLM does not rescale int8)",
                          k, 0);
    if (t->type == TFLC_INT16 && t->zero_point != 0)
      return tflc__op_err(c, TFLC_ERR_QUANT, "int16 input %d zero point %d", k,
                          t->zero_point);
  }
  if (pack ? o->dims[axis] != n : sum != o->dims[axis])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output dim %d is %d", axis,
                        o->dims[axis]);
  s = tflc__c_new_state(c);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->v[0] = axis;
  s->v[1] = pack;
  return TFLC_OK;
}
static tflc_status tflc__c_run_concat(tflc__ctx *c) {
  const tflc__c_state *s = (const tflc__c_state *)c->op->state;
  tflc_tensor *o = tflc__out(c, 0);
  const int32_t axis = s->v[0];
  const size_t es = tflc_type_size(o->type);
  const size_t inner = tflc__c_prod(o->dims, axis + 1, o->rank);
  const size_t orow = (size_t)o->dims[axis] * inner * es;
  const int32_t outer = (int32_t)tflc__c_prod(o->dims, 0, axis);
  unsigned char *dst = (unsigned char *)o->data;
  int32_t k, r;
  for (k = 0; k < c->op->nin; k++) {
    const tflc_tensor *t = tflc__in(c, k);
    const size_t len = (s->v[1] ? 1 : (size_t)t->dims[axis]) * inner;
    if (len == 0)
      continue;
    if (t->flags & TFLC_TENSOR_LUT) {
      /* compressed constant: decode each row straight into the output */
      tflc_const d = tflc__const(c, t);
      for (r = 0; r < outer; r++)
        tflc_lut_decode(&d, (int32_t)((size_t)r * len), (int32_t)len,
                        dst + (size_t)r * orow);
    } else {
      tflc_copy_rows(outer, len * es, t->data, len * es, dst, orow);
    }
    dst += len * es;
  }
  return TFLC_OK;
}

/* ---- SPLIT / SPLIT_V / UNPACK -------------------------------------------- */
/* mode 0 SPLIT, 1 SPLIT_V, 2 UNPACK */
static tflc_status tflc__c_prep_split(tflc__ctx *c, int mode) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in, *o0 = tflc__out(c, 0);
  tflc__c_state *s;
  int32_t axis = 0, k, j, sum = 0, n = c->op->nout;
  tflc_status st = tflc__c_io(c,
                              mode == 0   ? 2
                              : mode == 1 ? 3
                                          : 1,
                              mode == 0   ? 2
                              : mode == 1 ? 3
                                          : 1,
                              1, 0x7FFF);
  if (st)
    return st;
  in = tflc__in(c, mode == 0 ? 1 : 0);
  st = tflc__c_same_type(c, in, o0,
                         TFLC__C_F32 | TFLC__C_I8 | TFLC__C_I16 | TFLC__C_I32);
  if (st)
    return st;
  if (mode == 2) {
    int32_t num = tflc__get_i32(fb, c->op->opts, 0, 0);
    axis = tflc__get_i32(fb, c->op->opts, 1, 0);
    if (num != n)
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "num %d but %d outputs", num, n);
  } else {
    const tflc_tensor *ax = tflc__in(c, mode == 0 ? 0 : 2);
    int32_t cnt = 0;
    if (!tflc__c_static(ax) || ax->type != TFLC_INT32 ||
        !tflc__c_ints(ax, 0, &axis, 1, &cnt) || cnt != 1)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "axis must be a constant int32 scalar", 0, 0);
  }
  if (axis < 0)
    axis += in->rank;
  if (axis < 0 || axis >= in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "axis %d outside rank %d", axis,
                        in->rank);
  for (k = 0; k < n; k++) {
    const tflc_tensor *t = tflc__out(c, k);
    if (t->type != in->type)
      return tflc__op_err(c, TFLC_ERR_TYPE, "output %d type differs", k, 0);
    if (mode == 2) {
      if (t->rank + 1 != in->rank)
        return tflc__op_err(c, TFLC_ERR_SHAPE, "output %d has rank %d", k,
                            t->rank);
      for (j = 0; j < in->rank; j++)
        if (j != axis && in->dims[j] != t->dims[j < axis ? j : j - 1])
          return tflc__op_err(c, TFLC_ERR_SHAPE,
                              "output %d does not match input dim %d", k, j);
      sum++;
      continue;
    }
    if (t->rank != in->rank)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "output %d has rank %d", k,
                          t->rank);
    for (j = 0; j < in->rank; j++)
      if (j != axis && in->dims[j] != t->dims[j])
        return tflc__op_err(c, TFLC_ERR_SHAPE,
                            "output %d does not match input dim %d", k, j);
    if (mode == 0 && t->dims[axis] != o0->dims[axis])
      return tflc__op_err(c, TFLC_ERR_SHAPE, "output %d differs from output 0",
                          k, 0);
    if (mode == 1 && t->dims[axis] == 0)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "output %d is empty (TFLM refuses)", k, 0);
    sum += t->dims[axis];
  }
  if (sum != in->dims[axis])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "outputs cover %d of %d", sum,
                        in->dims[axis]);
  s = tflc__c_new_state(c);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->v[0] = axis;
  s->v[1] = mode;
  return TFLC_OK;
}
static tflc_status tflc__c_run_split(tflc__ctx *c) {
  const tflc__c_state *s = (const tflc__c_state *)c->op->state;
  const tflc_tensor *in = tflc__in(c, s->v[1] == 0 ? 1 : 0);
  const int32_t axis = s->v[0];
  const size_t es = tflc_type_size(in->type);
  const size_t inner = tflc__c_prod(in->dims, axis + 1, in->rank) * es;
  const size_t irow = (size_t)in->dims[axis] * inner;
  const int32_t outer = (int32_t)tflc__c_prod(in->dims, 0, axis);
  const unsigned char *src = (const unsigned char *)in->data;
  int32_t k;
  for (k = 0; k < c->op->nout; k++) {
    tflc_tensor *t = tflc__out(c, k);
    const size_t len = (s->v[1] == 2 ? 1 : (size_t)t->dims[axis]) * inner;
    tflc_copy_rows(outer, len, src, irow, t->data, len);
    src += len;
  }
  return TFLC_OK;
}

/* ---- GATHER -------------------------------------------------------------- */
static tflc_status tflc__c_prep_gather(tflc__ctx *c) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *co = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__c_state *s;
  int32_t axis, bd, i, r = 0, od[TFLC_MAX_DIMS + TFLC_MAX_DIMS];
  tflc_status st = tflc__c_io(c, 2, 2, 1, 1);
  if (st)
    return st;
  if (co->type != TFLC_INT32)
    return tflc__op_err(c, TFLC_ERR_TYPE, "positions of type %d unsupported",
                        co->type, 0);
  st = tflc__c_same_type(c, in, o, TFLC__C_F32 | TFLC__C_I8);
  if (st)
    return st;
  axis = tflc__get_i32(fb, c->op->opts, 0, 0);
  bd = tflc__get_i32(fb, c->op->opts, 1, 0);
  if (axis < 0)
    axis += in->rank;
  if (bd < 0)
    bd += co->rank;
  if (axis < 0 || axis >= in->rank || bd < 0 || bd > axis || bd >= in->rank ||
      bd > co->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "axis %d / batch_dims %d invalid",
                        axis, bd);
  for (i = 0; i < bd; i++)
    if (in->dims[i] != co->dims[i])
      return tflc__op_err(c, TFLC_ERR_SHAPE, "batch dim %d differs", i, 0);
  for (i = 0; i < axis; i++)
    od[r++] = in->dims[i];
  for (i = bd; i < co->rank; i++)
    od[r++] = co->dims[i];
  for (i = axis + 1; i < in->rank; i++)
    od[r++] = in->dims[i];
  if (r != o->rank || !tflc__c_dims_eq(od, o->dims, r))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output shape differs (rank %d)", r,
                        0);
  s = tflc__c_new_state(c);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->v[0] = axis;
  s->v[1] = bd;
  if (tflc__c_static(co)) {
    const uint8_t *p = (const uint8_t *)co->data;
    int32_t n = tflc__count(co);
    for (i = 0; i < n; i++) {
      int32_t x = tflc__i32(p + 4 * i);
      if (x < 0 || x >= in->dims[axis])
        return tflc__op_err(c, TFLC_ERR_SHAPE, "position %d outside [0, %d)", x,
                            in->dims[axis]);
    }
  }
  return TFLC_OK;
}
static tflc_status tflc__c_run_gather(tflc__ctx *c) {
  const tflc__c_state *s = (const tflc__c_state *)c->op->state;
  const tflc_tensor *in = tflc__in(c, 0), *co = tflc__in(c, 1);
  tflc_tensor *o = tflc__out(c, 0);
  const int32_t axis = s->v[0], bd = s->v[1];
  if (tflc_gather(tflc_type_size(in->type),
                  (int32_t)tflc__c_prod(in->dims, 0, bd),
                  (int32_t)tflc__c_prod(in->dims, bd, axis), in->dims[axis],
                  (int32_t)tflc__c_prod(co->dims, bd, co->rank),
                  (int32_t)tflc__c_prod(in->dims, axis + 1, in->rank), co->data,
                  in->data, o->data))
    return tflc__op_err(c, TFLC_ERR_KERNEL, "position outside [0, %d)",
                        in->dims[axis], 0);
  return TFLC_OK;
}

/* ---- SLICE / STRIDED_SLICE ----------------------------------------------- */
/* SLICE parameters from begin/size (TFLM: size -1 = to the end), checked
 * against the shapes. Used at init for constants and at every run. */
static tflc_status tflc__c_slice_params(tflc__ctx *c, tflc__c_slice *p) {
  const tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  int32_t b[TFLC_MAX_DIMS], z[TFLC_MAX_DIMS], nb = 0, nz = 0, k;
  if (!tflc__c_ints(tflc__in(c, 1), 1, b, TFLC_MAX_DIMS, &nb) ||
      !tflc__c_ints(tflc__in(c, 2), 1, z, TFLC_MAX_DIMS, &nz) ||
      nb != in->rank || nz != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "begin/size must have %d entries",
                        in->rank, 0);
  p->rank = in->rank;
  for (k = 0; k < in->rank; k++) {
    int32_t cnt = z[k] == -1 ? in->dims[k] - b[k] : z[k];
    if (b[k] < 0 || b[k] > in->dims[k] || cnt < 0 || cnt > in->dims[k] - b[k] ||
        cnt != o->dims[k])
      return tflc__op_err(c, TFLC_ERR_SHAPE,
                          "slice of dim %d (begin %d) outside the input or "
                          "not the output's",
                          k, b[k]);
    p->start[k] = b[k];
    p->stride[k] = 1;
    p->count[k] = cnt;
  }
  return TFLC_OK;
}
static tflc_status tflc__c_prep_slice(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *bt = tflc__in(c, 1), *zt = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__c_slice p;
  tflc_status st = tflc__c_io(c, 3, 3, 1, 1);
  if (st)
    return st;
  st = tflc__c_same_type(c, in, o,
                         TFLC__C_F32 | TFLC__C_I32 | TFLC__C_I8 | TFLC__C_I16 |
                             TFLC__C_BOOL);
  if (st)
    return st;
  if (bt->type != zt->type ||
      (bt->type != TFLC_INT32 && bt->type != TFLC_INT64) || bt->rank != 1 ||
      zt->rank != 1)
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "begin and size must be int32 or int64 vectors", 0, 0);
  if (in->rank > 5 || o->rank != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input rank %d, output rank %d",
                        in->rank, o->rank);
  if (tflc__c_static(bt) && tflc__c_static(zt))
    return tflc__c_slice_params(c, &p);
  /* read (and checked) at every run */
  if (tflc__count(bt) != in->rank || tflc__count(zt) != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "begin/size must have %d entries",
                        in->rank, 0);
  return TFLC_OK;
}
/* STRIDED_SLICE parameters as TFLM's micro kernel takes them: begin, end,
 * strides constant int32 with one entry per input dim, begin_mask,
 * end_mask, shrink_axis_mask. TFLM zeroes ellipsis_mask and new_axis_mask
 * and leaves offset false in its parameters, so they have no effect here
 * either (a model relying on them fails the output shape check, as in
 * TFLM). */
static tflc_status tflc__c_strided_params(tflc__ctx *c, tflc__c_slice *p) {
  tflc__fb fb = tflc__cfb(c);
  const uint32_t opts = c->op->opts;
  const tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  int32_t b[TFLC_MAX_DIMS], e[TFLC_MAX_DIMS], sd[TFLC_MAX_DIMS];
  int32_t nb = 0, ne = 0, ns = 0, k, r = 0;
  const int32_t bmask = tflc__get_i32(fb, opts, 0, 0);
  const int32_t emask = tflc__get_i32(fb, opts, 1, 0);
  const int32_t smask = tflc__get_i32(fb, opts, 4, 0);
  if (!tflc__c_ints(tflc__in(c, 1), 0, b, TFLC_MAX_DIMS, &nb) ||
      !tflc__c_ints(tflc__in(c, 2), 0, e, TFLC_MAX_DIMS, &ne) ||
      !tflc__c_ints(tflc__in(c, 3), 0, sd, TFLC_MAX_DIMS, &ns) ||
      nb != in->rank || ne != in->rank || ns != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "begin/end/strides must have %d entries", in->rank, 0);
  p->rank = in->rank;
  for (k = 0; k < in->rank; k++) {
    const int shrink = (smask >> k) & 1;
    if (sd[k] == 0)
      return tflc__op_err(c, TFLC_ERR_SCHEMA, "stride of dim %d is 0", k, 0);
    if (tflc_strided_slice_axis(in->dims[k], b[k], e[k], sd[k],
                                (bmask >> k) & 1, (emask >> k) & 1, shrink,
                                &p->start[k], &p->count[k]))
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "shrunk dim %d: begin %d outside it or negative "
                          "stride (TFLM writes nothing)",
                          k, b[k]);
    p->stride[k] = sd[k];
    if (!shrink) {
      if (r >= o->rank || o->dims[r] != p->count[k])
        return tflc__op_err(c, TFLC_ERR_SHAPE,
                            "dim %d gives %d elements, not the output's", k,
                            p->count[k]);
      r++;
    }
  }
  if (r != o->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output rank %d, expected %d",
                        o->rank, r);
  return TFLC_OK;
}
static tflc_status tflc__c_prep_strided(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc__c_slice p;
  int32_t k;
  tflc_status st = tflc__c_io(c, 4, 4, 1, 1);
  if (st)
    return st;
  st = tflc__c_same_type(c, in, o,
                         TFLC__C_F32 | TFLC__C_I8 | TFLC__C_I16 | TFLC__C_I32 |
                             TFLC__C_BOOL);
  if (st)
    return st;
  if (in->rank > 4)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input rank %d > 4", in->rank, 0);
  for (k = 1; k <= 3; k++)
    if (!tflc__c_static(tflc__in(c, k)) || tflc__in(c, k)->type != TFLC_INT32)
      return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                          "input %d must be a constant int32 vector", k, 0);
  return tflc__c_strided_params(c, &p);
}
static tflc_status tflc__c_run_slice(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_tensor *o = tflc__out(c, 0);
  tflc__c_slice p;
  if (c->op->code == TFLC__C_SLICE ? tflc__c_slice_params(c, &p)
                                   : tflc__c_strided_params(c, &p))
    return TFLC_ERR_KERNEL;
  tflc_strided_slice(tflc_type_size(in->type), p.rank, in->dims, p.start,
                     p.stride, p.count, in->data, o->data);
  return TFLC_OK;
}

/* ---- PADV2 ----------------------------------------------------------------
 */
/* Paddings (constant int32 [rank, 2], checked against the shapes) and, if
 * value is not NULL, the pad value: input 2's element, else the int8
 * output zero point, else 0. */
static tflc_status tflc__c_pad_params(tflc__ctx *c, int32_t *before,
                                      int32_t *after, uint8_t *value) {
  const tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  const tflc_tensor *cv = tflc__in(c, 2);
  int32_t v[2 * TFLC_MAX_DIMS], n = 0, k;
  if (!tflc__c_ints(tflc__in(c, 1), 0, v, 2 * TFLC_MAX_DIMS, &n) ||
      n != 2 * in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "paddings must be [%d, 2]", in->rank,
                        0);
  for (k = 0; k < in->rank; k++) {
    before[k] = v[2 * k];
    after[k] = v[2 * k + 1];
    if (before[k] < 0 || after[k] < 0 ||
        (int64_t)in->dims[k] + before[k] + after[k] != o->dims[k])
      return tflc__op_err(c, TFLC_ERR_SHAPE, "padding of dim %d gives %d", k,
                          o->dims[k]);
  }
  if (!value)
    return TFLC_OK;
  memset(value, 0, 8);
  if (cv)
    memcpy(value, cv->data, tflc_type_size(cv->type));
  else if (in->type == TFLC_INT8)
    value[0] = (uint8_t)(o->zero_point & 0xFF);
  return TFLC_OK;
}
static tflc_status tflc__c_prep_padv2(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *pd = tflc__in(c, 1), *cv = tflc__in(c, 2);
  tflc_tensor *o = tflc__out(c, 0);
  int32_t before[TFLC_MAX_DIMS], after[TFLC_MAX_DIMS];
  tflc_status st;
  if (c->op->nin < 2 || c->op->nin > 3 || c->op->nout != 1 || !in || !pd)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "%d inputs, %d outputs unexpected",
                        c->op->nin, c->op->nout);
  /* input 2 may be absent (-1): then as without it, as in TFLM */
  st = tflc__c_same_type(c, in, o,
                         TFLC__C_F32 | TFLC__C_I8 | TFLC__C_I16 | TFLC__C_I32);
  if (st)
    return st;
  if (in->rank > 5 || o->rank != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input rank %d, output rank %d",
                        in->rank, o->rank);
  if (!tflc__c_static(pd) || pd->type != TFLC_INT32)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "paddings must be a constant int32 [%d, 2] tensor",
                        o->rank, 0);
  if (cv && (cv->type != in->type || tflc__count(cv) != 1))
    return tflc__op_err(c, TFLC_ERR_TYPE,
                        "constant value must be one element of the input type",
                        0, 0);
  if (in->type == TFLC_INT8) {
    if (!cv && (o->zero_point < -128 || o->zero_point > 127))
      return tflc__op_err(c, TFLC_ERR_QUANT, "zero point %d", o->zero_point, 0);
    if (cv && (cv->zero_point != o->zero_point || cv->scale != o->scale))
      return tflc__op_err(c, TFLC_ERR_QUANT,
                          "constant value quantization differs from the "
                          "output's",
                          0, 0);
  }
  /* the value is read at run (it may be an activation) */
  return tflc__c_pad_params(c, before, after, NULL);
}
static tflc_status tflc__c_run_padv2(tflc__ctx *c) {
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_tensor *o = tflc__out(c, 0);
  int32_t before[TFLC_MAX_DIMS], after[TFLC_MAX_DIMS];
  uint8_t value[8];
  if (tflc__c_pad_params(c, before, after, value))
    return TFLC_ERR_KERNEL;
  tflc_pad(tflc_type_size(in->type), in->rank, in->dims, before, after, value,
           in->data, o->data);
  return TFLC_OK;
}

/* ---- SPACE_TO_DEPTH / DEPTH_TO_SPACE --------------------------------------
 */
static tflc_status tflc__c_prep_space_depth(tflc__ctx *c, int to_depth) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  const tflc_tensor *sp, *dp;
  tflc__c_state *s;
  int32_t b;
  tflc_status st = tflc__c_io(c, 1, 1, 1, 1);
  if (st)
    return st;
  st = tflc__c_same_type(c, in, o, TFLC__C_F32 | TFLC__C_I8);
  if (st)
    return st;
  b = tflc__get_i32(tflc__cfb(c), c->op->opts, 0, 0);
  if (in->rank != 4 || o->rank != 4)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "tensors must be 4-D", 0, 0);
  if (b < 1 || b > 65535)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "block size %d", b, 0);
  sp = to_depth ? in : o;
  dp = to_depth ? o : in;
  if (sp->dims[1] % b || sp->dims[2] % b || dp->dims[0] != sp->dims[0] ||
      dp->dims[1] != sp->dims[1] / b || dp->dims[2] != sp->dims[2] / b ||
      (int64_t)sp->dims[3] * b * b != dp->dims[3])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "shapes do not match block size %d",
                        b, 0);
  s = tflc__c_new_state(c);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->v[0] = b;
  s->v[1] = to_depth;
  return TFLC_OK;
}
static tflc_status tflc__c_run_space_depth(tflc__ctx *c) {
  const tflc__c_state *s = (const tflc__c_state *)c->op->state;
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_tensor *o = tflc__out(c, 0);
  tflc_space_depth(tflc_type_size(in->type), s->v[1],
                   s->v[1] ? in->dims : o->dims, s->v[0], in->data, o->data);
  return TFLC_OK;
}

/* ---- BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND --------------------------------
 */
/* 4-D view: [N, H, C] is [N, H, 1, C]. */
static void tflc__c_dims4(const tflc_tensor *t, int32_t *d) {
  d[0] = t->dims[0];
  d[1] = t->dims[1];
  d[2] = t->rank == 4 ? t->dims[2] : 1;
  d[3] = t->rank == 4 ? t->dims[3] : t->dims[2];
}
/* Block and crops / paddings from inputs 1 and 2, checked against the
 * shapes: v = {block_h, block_w, top, left}. */
static tflc_status tflc__c_b2s_params(tflc__ctx *c, int s2b, int32_t *v) {
  const tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  int32_t blk[2] = {1, 1}, pad[4] = {0, 0, 0, 0}, nb = 0, np = 0, k;
  int32_t id[4], od[4];
  int64_t bb;
  const int32_t sp = in->rank - 2;
  if (!tflc__c_ints(tflc__in(c, 1), 0, blk, 2, &nb) || nb != sp ||
      !tflc__c_ints(tflc__in(c, 2), 0, pad, 4, &np) || np != 2 * sp)
    return tflc__op_err(c, TFLC_ERR_SHAPE,
                        "block shape must be int32[%d], crops/paddings "
                        "int32[%d, 2]",
                        sp, sp);
  tflc__c_dims4(in, id);
  tflc__c_dims4(o, od);
  for (k = 0; k < 2; k++) {
    const int32_t lo = pad[2 * k], hi = pad[2 * k + 1], b = blk[k];
    int64_t size;
    if (b < 1 || b > 65535 || lo < 0 || hi < 0 ||
        (int64_t)id[1 + k] * b > INT32_MAX ||
        (int64_t)id[1 + k] + lo + hi > INT32_MAX)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "block %d / crop or pad %d", b,
                          lo < 0 ? lo : hi);
    if (s2b) {
      size = (int64_t)id[1 + k] + lo + hi;
      if (size % b || size / b != od[1 + k])
        return tflc__op_err(c, TFLC_ERR_SHAPE,
                            "padded dim %d does not give the output's", 1 + k,
                            0);
    } else {
      size = (int64_t)id[1 + k] * b - lo - hi;
      if (size != od[1 + k])
        return tflc__op_err(c, TFLC_ERR_SHAPE,
                            "cropped dim %d does not give the output's", 1 + k,
                            0);
    }
  }
  bb = (int64_t)blk[0] * blk[1];
  if (s2b ? (int64_t)id[0] * bb != od[0]
          : id[0] % bb != 0 || id[0] / bb != od[0])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "batch %d vs %d", id[0], od[0]);
  if (id[3] != od[3])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "depth %d vs %d", id[3], od[3]);
  v[0] = blk[0];
  v[1] = blk[1];
  v[2] = pad[0];
  v[3] = pad[2];
  return TFLC_OK;
}
static tflc_status tflc__c_prep_b2s(tflc__ctx *c, int s2b) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  int32_t k, v[4];
  tflc_status st = tflc__c_io(c, 3, 3, 1, 1);
  if (st)
    return st;
  st = tflc__c_same_type(c, in, o, TFLC__C_F32 | TFLC__C_I8);
  if (st)
    return st;
  if (in->rank < 3 || in->rank > 4 || o->rank != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input rank %d, output rank %d",
                        in->rank, o->rank);
  for (k = 1; k <= 2; k++)
    if (tflc__in(c, k)->type != TFLC_INT32)
      return tflc__op_err(c, TFLC_ERR_TYPE, "input %d must be int32", k, 0);
  if (tflc__c_static(tflc__in(c, 1)) && tflc__c_static(tflc__in(c, 2)))
    return tflc__c_b2s_params(c, s2b, v);
  /* read (and checked) at every run */
  if (tflc__count(tflc__in(c, 1)) != in->rank - 2 ||
      tflc__count(tflc__in(c, 2)) != 2 * (in->rank - 2))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "block/crops sizes wrong", 0, 0);
  return TFLC_OK;
}
static tflc_status tflc__c_run_b2s(tflc__ctx *c) {
  const int s2b = c->op->code == TFLC__C_SPACE_TO_BATCH_ND;
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_tensor *o = tflc__out(c, 0);
  int32_t v[4], id[4], od[4];
  if (tflc__c_b2s_params(c, s2b, v))
    return TFLC_ERR_KERNEL;
  tflc__c_dims4(in, id);
  tflc__c_dims4(o, od);
  if (s2b) {
    /* padding value: the zero point (TFLM leaves its pad value unset, 0 in
     * a fresh arena; the zero point is what the padding means) */
    uint8_t value[4] = {0, 0, 0, 0};
    if (in->type == TFLC_INT8)
      value[0] = (uint8_t)(o->zero_point & 0xFF);
    tflc_space_to_batch(tflc_type_size(in->type), id, od, v[0], v[1], v[2],
                        v[3], value, in->data, o->data);
  } else {
    tflc_batch_to_space(tflc_type_size(in->type), id, od, v[0], v[1], v[2],
                        v[3], in->data, o->data);
  }
  return TFLC_OK;
}

/* ---- RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR ----------------------------
 */
static tflc_status tflc__c_prep_resize(tflc__ctx *c, int bilinear) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *sz = tflc__in(c, 1), *o = tflc__out(c, 0);
  tflc__c_state *s;
  int32_t v[2], n = 0, align, half;
  tflc_status st = tflc__c_io(c, 2, 2, 1, 1);
  if (st)
    return st;
  st = tflc__c_same_type(c, in, o,
                         bilinear ? TFLC__C_F32 | TFLC__C_I8
                                  : TFLC__C_F32 | TFLC__C_I8 | TFLC__C_I16);
  if (st)
    return st;
  if (in->rank != 4 || o->rank != 4 || sz->rank != 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "input must be 4-D, size 1-D", 0, 0);
  if (!tflc__c_static(sz) || sz->type != TFLC_INT32 ||
      !tflc__c_ints(sz, 0, v, 2, &n) || n != 2)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "size must be a constant int32[2]", 0, 0);
  align = (int32_t)tflc__get_u8(fb, c->op->opts, bilinear ? 2 : 0, 0) != 0;
  half = (int32_t)tflc__get_u8(fb, c->op->opts, bilinear ? 3 : 1, 0) != 0;
  if (bilinear && align && half)
    return tflc__op_err(c, TFLC_ERR_SCHEMA,
                        "align_corners with half_pixel_centers", 0, 0);
  if (v[0] < 1 || v[1] < 1 || o->dims[0] != in->dims[0] || o->dims[1] != v[0] ||
      o->dims[2] != v[1] || o->dims[3] != in->dims[3])
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output is not %dx%d", v[0], v[1]);
  /* keeps TFLM's int32 Q10 arithmetic free of overflow */
  if (in->dims[1] < 1 || in->dims[2] < 1 || in->dims[1] > (1 << 20) ||
      in->dims[2] > (1 << 20) || v[0] > (1 << 20) || v[1] > (1 << 20))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "sizes %dx%d out of range",
                        in->dims[1], in->dims[2]);
  s = tflc__c_new_state(c);
  if (!s)
    return tflc__op_err(c, TFLC_ERR_ARENA, "no arena for op state", 0, 0);
  s->v[0] = align;
  s->v[1] = half;
  return TFLC_OK;
}
static tflc_status tflc__c_run_resize(tflc__ctx *c) {
  const tflc__c_state *s = (const tflc__c_state *)c->op->state;
  const tflc_tensor *in = tflc__in(c, 0);
  tflc_tensor *o = tflc__out(c, 0);
  if (c->op->code == TFLC__C_RESIZE_NEAREST_NEIGHBOR)
    tflc_resize_nearest(tflc_type_size(in->type), in->dims, o->dims[1],
                        o->dims[2], s->v[0], s->v[1], in->data, o->data);
  else if (in->type == TFLC_INT8)
    tflc_resize_bilinear_s8(in->dims, o->dims[1], o->dims[2], s->v[0], s->v[1],
                            (const int8_t *)in->data, (int8_t *)o->data);
  else
    tflc_resize_bilinear_f32(in->dims, o->dims[1], o->dims[2], s->v[0], s->v[1],
                             (const float *)in->data, (float *)o->data);
  return TFLC_OK;
}

/* ---- SQUEEZE / EXPAND_DIMS / SHAPE / ZEROS_LIKE ---------------------------
 */
static tflc_status tflc__c_prep_squeeze(tflc__ctx *c) {
  tflc__fb fb = tflc__cfb(c);
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  uint32_t nd = 0, pos = tflc__get_vec(fb, c->op->opts, 0, 4, &nd), i;
  uint32_t squeeze = 0;
  int32_t k, r = 0;
  tflc_status st = tflc__c_io(c, 1, 1, 1, 1);
  if (st)
    return st;
  if (o->type != in->type)
    return tflc__op_err(c, TFLC_ERR_TYPE, "output type differs", 0, 0);
  if (nd > 8)
    return tflc__op_err(c, TFLC_ERR_SCHEMA, "%d squeeze dims > 8", (int32_t)nd,
                        0);
  for (i = 0; i < nd; i++) {
    int32_t d = tflc__i32(fb.b + pos + 4 * i);
    if (d < 0)
      d += in->rank;
    if (d < 0 || d >= in->rank || in->dims[d] != 1)
      return tflc__op_err(c, TFLC_ERR_SHAPE, "cannot squeeze dim %d",
                          tflc__i32(fb.b + pos + 4 * i), 0);
    squeeze |= 1u << d;
  }
  for (k = 0; k < in->rank; k++) {
    if (nd == 0 ? in->dims[k] == 1 : (squeeze >> k) & 1)
      continue;
    if (r >= o->rank || o->dims[r] != in->dims[k])
      return tflc__op_err(c, TFLC_ERR_SHAPE, "output dim %d differs", r, 0);
    r++;
  }
  if (r != o->rank || o->bytes != in->bytes)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output rank %d, expected %d",
                        o->rank, r);
  return TFLC_OK;
}
static tflc_status tflc__c_prep_expand(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *ax = tflc__in(c, 1), *o = tflc__out(c, 0);
  int32_t a[8], n = 0, k;
  tflc_status st = tflc__c_io(c, 2, 2, 1, 1);
  if (st)
    return st;
  st = tflc__c_same_type(c, in, o, TFLC__C_F32 | TFLC__C_I16 | TFLC__C_I8);
  if (st)
    return st;
  if (!tflc__c_static(ax) || ax->type != TFLC_INT32 || ax->rank > 1 ||
      !tflc__c_ints(ax, 0, a, 8, &n) || n < 1)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "axis must be a constant int32 scalar", 0, 0);
  if (a[0] < 0)
    a[0] += in->rank + 1;
  if (a[0] < 0 || a[0] > in->rank || o->rank != in->rank + 1)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "axis %d for rank %d", a[0],
                        in->rank);
  for (k = 0; k < o->rank; k++)
    if (o->dims[k] != (k < a[0]    ? in->dims[k]
                       : k == a[0] ? 1
                                   : in->dims[k - 1]))
      return tflc__op_err(c, TFLC_ERR_SHAPE, "output dim %d differs", k, 0);
  return TFLC_OK;
}
static tflc_status tflc__c_prep_shape(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_status st = tflc__c_io(c, 1, 1, 1, 1);
  if (st)
    return st;
  if (o->type != TFLC_INT32)
    return tflc__op_err(c, TFLC_ERR_UNSUPPORTED,
                        "output type %d (TFLM supports int32 only)", o->type,
                        0);
  if (o->rank != 1 || o->dims[0] != in->rank)
    return tflc__op_err(c, TFLC_ERR_SHAPE, "output must be int32[%d]", in->rank,
                        0);
  return TFLC_OK;
}
static tflc_status tflc__c_prep_zeros(tflc__ctx *c) {
  tflc_tensor *in = tflc__in(c, 0), *o = tflc__out(c, 0);
  tflc_status st = tflc__c_io(c, 1, 1, 1, 1);
  if (st)
    return st;
  st = tflc__c_same_type(c, in, o,
                         TFLC__C_I64 | TFLC__C_I32 | TFLC__C_I8 | TFLC__C_F32);
  if (st)
    return st;
  if (tflc__count(in) != tflc__count(o))
    return tflc__op_err(c, TFLC_ERR_SHAPE, "sizes differ", 0, 0);
  return TFLC_OK;
}

/* ---- dispatch -------------------------------------------------------------
 */
static int tflc__ext_c_tiled(int32_t code, int32_t k) {
  (void)k;
  /* CONCATENATION decodes compressed inputs row by row into its output */
  return code == TFLC__C_CONCATENATION;
}
static int tflc__ext_c_prepare(tflc__ctx *c, tflc_status *st) {
  switch (c->op->code) {
  case TFLC__C_CONCATENATION:
    *st = tflc__c_prep_concat(c, 0);
    return 1;
  case TFLC__C_PACK:
    *st = tflc__c_prep_concat(c, 1);
    return 1;
  case TFLC__C_SPLIT:
    *st = tflc__c_prep_split(c, 0);
    return 1;
  case TFLC__C_SPLIT_V:
    *st = tflc__c_prep_split(c, 1);
    return 1;
  case TFLC__C_UNPACK:
    *st = tflc__c_prep_split(c, 2);
    return 1;
  case TFLC__C_GATHER:
    *st = tflc__c_prep_gather(c);
    return 1;
  case TFLC__C_SLICE:
    *st = tflc__c_prep_slice(c);
    return 1;
  case TFLC__C_STRIDED_SLICE:
    *st = tflc__c_prep_strided(c);
    return 1;
  case TFLC__C_PADV2:
    *st = tflc__c_prep_padv2(c);
    return 1;
  case TFLC__C_SPACE_TO_DEPTH:
    *st = tflc__c_prep_space_depth(c, 1);
    return 1;
  case TFLC__C_DEPTH_TO_SPACE:
    *st = tflc__c_prep_space_depth(c, 0);
    return 1;
  case TFLC__C_BATCH_TO_SPACE_ND:
    *st = tflc__c_prep_b2s(c, 0);
    return 1;
  case TFLC__C_SPACE_TO_BATCH_ND:
    *st = tflc__c_prep_b2s(c, 1);
    return 1;
  case TFLC__C_RESIZE_BILINEAR:
    *st = tflc__c_prep_resize(c, 1);
    return 1;
  case TFLC__C_RESIZE_NEAREST_NEIGHBOR:
    *st = tflc__c_prep_resize(c, 0);
    return 1;
  case TFLC__C_SQUEEZE:
    *st = tflc__c_prep_squeeze(c);
    return 1;
  case TFLC__C_EXPAND_DIMS:
    *st = tflc__c_prep_expand(c);
    return 1;
  case TFLC__C_SHAPE:
    *st = tflc__c_prep_shape(c);
    return 1;
  case TFLC__C_ZEROS_LIKE:
    *st = tflc__c_prep_zeros(c);
    return 1;
  }
  return 0;
}
static tflc_status tflc__ext_c_run(tflc__ctx *c) {
  tflc_tensor *o = tflc__out(c, 0);
  int32_t k;
  switch (c->op->code) {
  case TFLC__C_CONCATENATION:
  case TFLC__C_PACK:
    return tflc__c_run_concat(c);
  case TFLC__C_SPLIT:
  case TFLC__C_SPLIT_V:
  case TFLC__C_UNPACK:
    return tflc__c_run_split(c);
  case TFLC__C_GATHER:
    return tflc__c_run_gather(c);
  case TFLC__C_SLICE:
  case TFLC__C_STRIDED_SLICE:
    return tflc__c_run_slice(c);
  case TFLC__C_PADV2:
    return tflc__c_run_padv2(c);
  case TFLC__C_SPACE_TO_DEPTH:
  case TFLC__C_DEPTH_TO_SPACE:
    return tflc__c_run_space_depth(c);
  case TFLC__C_BATCH_TO_SPACE_ND:
  case TFLC__C_SPACE_TO_BATCH_ND:
    return tflc__c_run_b2s(c);
  case TFLC__C_RESIZE_BILINEAR:
  case TFLC__C_RESIZE_NEAREST_NEIGHBOR:
    return tflc__c_run_resize(c);
  case TFLC__C_SQUEEZE:
  case TFLC__C_EXPAND_DIMS:
    if (o->data != tflc__in(c, 0)->data)
      memmove(o->data, tflc__in(c, 0)->data, o->bytes);
    return TFLC_OK;
  case TFLC__C_SHAPE: {
    const tflc_tensor *in = tflc__in(c, 0);
    for (k = 0; k < in->rank; k++)
      memcpy((unsigned char *)o->data + 4 * k, &in->dims[k], 4);
    return TFLC_OK;
  }
  case TFLC__C_ZEROS_LIKE:
    memset(o->data, 0, o->bytes);
    return TFLC_OK;
  }
  return TFLC_ERR_UNSUPPORTED;
}

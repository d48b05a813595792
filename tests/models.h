/* tests/models.h - model-building helpers shared by the tests (and by
 * fuzz/models.h): options-table fields, tensors, finishing a model,
 * reading model files, and single-operator models run through the
 * interpreter.
 *
 * Include after tflc_write.h (with TFLC_IMPLEMENTATION and
 * TFLC_WRITE_IMPLEMENTATION defined) and harness.h:
 *
 *   tensor_spec x = tensor_quant(tensor_shape(TFLC_INT8, 2, d), 0.5f, 0);
 *   op_spec s = op_spec_of(0, 11);              // ADD, AddOptions
 *   s.nin = 2; s.in[0] = x; s.in[1] = x; s.nout = 1; s.out[0] = x;
 *   op_result r = run_op_model(&s, feeds, outs);        // r.invoke == 0
 *
 * Everything is `static inline` (no unused-function warnings). */
#ifndef TFLC_TEST_MODELS_H
#define TFLC_TEST_MODELS_H
#include "harness.h"

#include <stdlib.h>
#include <string.h>

/* ---- options-table fields (tflc_writer_op) ------------------------------ */

/* A bool / enum / int8 field. */
static inline tflc_w_option opt_u8(uint8_t slot, int32_t v) {
  tflc_w_option o;
  memset(&o, 0, sizeof o);
  o.slot = slot;
  o.kind = TFLC_W_U8;
  o.i = v;
  return o;
}
/* An int32 field. */
static inline tflc_w_option opt_i32(uint8_t slot, int32_t v) {
  tflc_w_option o = opt_u8(slot, v);
  o.kind = TFLC_W_I32;
  return o;
}
/* A float field. */
static inline tflc_w_option opt_f32(uint8_t slot, float v) {
  tflc_w_option o = opt_u8(slot, 0);
  o.kind = TFLC_W_F32;
  o.f = v;
  return o;
}
/* A scalar of `size` bytes (1, 2, 4, 8) holding the low bits of u. */
static inline tflc_w_option opt_raw(uint8_t slot, uint8_t size, uint64_t u) {
  tflc_w_option o = opt_u8(slot, 0);
  o.kind = TFLC_W_RAW;
  o.size = size;
  o.u = u;
  return o;
}
/* A vector of n elements of `size` bytes read from p (little-endian). */
static inline tflc_w_option opt_raw_vec(uint8_t slot, uint8_t size,
                                        const void *p, int32_t n) {
  tflc_w_option o = opt_u8(slot, 0);
  o.kind = TFLC_W_RAW_VEC;
  o.size = size;
  o.bytes = p;
  o.count = n;
  return o;
}

/* ---- tensors of subgraph 0 ----------------------------------------------- */

/* A tensor; scale <= 0: not quantized, else one scale and zero point. data
 * NULL: no buffer (activation). Returns its index. */
static inline int32_t add_tensor(tflc_writer *w, int type, int32_t rank,
                                 const int32_t *dims, const void *data,
                                 size_t size, float scale, int64_t zp,
                                 const char *name) {
  tflc_w_quant q;
  if (scale <= 0.0f)
    return tflc_writer_tensor(w, 0, type, rank, dims, data, size, name, NULL);
  q.scale = &scale;
  q.zero_point = &zp;
  q.count = 1;
  q.axis = 0;
  return tflc_writer_tensor(w, 0, type, rank, dims, data, size, name, &q);
}

/* The whole file at `path` in a malloc'd block (size in *n; an empty file
 * gives a block and 0), or NULL when it cannot be read. */
static inline uint8_t *read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  uint8_t *p;
  long len;
  *n = 0;
  if (!f)
    return NULL;
  if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  p = (uint8_t *)malloc((size_t)len + 1);
  if (p && len > 0 && fread(p, 1, (size_t)len, f) != (size_t)len) {
    free(p);
    p = NULL;
  }
  fclose(f);
  if (p)
    *n = (size_t)len;
  return p;
}

/* Serialises w (which stays alive) and counts one check that it worked.
 * Returns the malloc'd bytes (size in *n), NULL on failure. */
static inline uint8_t *finish_model(tflc_writer *w, size_t *n) {
  uint8_t *p = NULL;
  CHECK_EQ_INT(tflc_writer_finish(w, &p, n), TFLC_OK);
  return p;
}

/* ---- single-operator models -----------------------------------------------
 * One operator, its inputs either constants (data set), fed subgraph
 * inputs (data NULL), variables, or absent (type -1); its outputs are the
 * subgraph outputs. run_op_model builds it with the writer, initialises
 * an interpreter in a 64 KiB arena, feeds the inputs and invokes. */

enum { MODEL_MAX_INPUTS = 24, MODEL_MAX_OUTPUTS = 6, MODEL_MAX_OPTIONS = 8 };

typedef struct tensor_spec {
  int type; /* tflc_type; -1: an absent optional input */
  int32_t rank;
  int32_t dims[6];
  const void *data; /* constant data, or NULL */
  size_t size;
  float scale;         /* 0: not quantized */
  int64_t zp;          /* zero point (of every channel) */
  const float *scales; /* per channel when nscales > 1, on axis qaxis */
  int32_t nscales;
  int32_t qaxis;
  int variable; /* a variable tensor (neither constant nor fed) */
} tensor_spec;

typedef struct op_spec {
  int32_t code;     /* BuiltinOperator */
  uint8_t opt_type; /* BuiltinOptions union type (0 none) */
  int32_t nopts;
  tflc_w_option opts[MODEL_MAX_OPTIONS];
  int32_t nin, nout;
  tensor_spec in[MODEL_MAX_INPUTS], out[MODEL_MAX_OUTPUTS];
  int compress_in; /* input slot to LUT-compress (-1 none) */
  int format, bits;
  int invokes; /* invokes to run (0 = 1); feeds hold one set per invoke */
} op_spec;

typedef struct op_result {
  tflc_status build;  /* the writer (compress, finish) or tflc_model_init */
  tflc_status init;   /* tflc_interpreter_init (TFLC_ERR_ARG: not run) */
  tflc_status invoke; /* the last tflc_invoke (TFLC_ERR_STATE: not run) */
  char err[TFLC_ERROR_LEN]; /* the model's or the interpreter's message */
  size_t arena;             /* tflc_arena_used */
} op_result;

/* A tensor of the given shape: no data, not quantized. */
static inline tensor_spec tensor_shape(int type, int32_t rank,
                                       const int32_t *dims) {
  tensor_spec t;
  memset(&t, 0, sizeof t);
  t.type = type;
  t.rank = rank;
  memcpy(t.dims, dims, sizeof(int32_t) * (size_t)rank);
  return t;
}
/* A constant tensor holding `size` bytes of data. */
static inline tensor_spec tensor_const(int type, int32_t rank,
                                       const int32_t *dims, const void *data,
                                       size_t size) {
  tensor_spec t = tensor_shape(type, rank, dims);
  t.data = data;
  t.size = size;
  return t;
}
/* t quantized with one scale and zero point. */
static inline tensor_spec tensor_quant(tensor_spec t, float scale, int64_t zp) {
  t.scale = scale;
  t.zp = zp;
  return t;
}
/* An operator without inputs, outputs or options yet. */
static inline op_spec op_spec_of(int32_t code, uint8_t opt_type) {
  op_spec s;
  memset(&s, 0, sizeof s);
  s.code = code;
  s.opt_type = opt_type;
  s.compress_in = -1;
  return s;
}

/* Adds tensor t to subgraph 0 of w. */
static inline int32_t add_tensor_spec(tflc_writer *w, const tensor_spec *t,
                                      int with_data) {
  float sc = t->scale;
  int64_t zps[8];
  tflc_w_quant q;
  int32_t j;
  for (j = 0; j < 8; j++)
    zps[j] = t->zp;
  q.scale = &sc;
  q.zero_point = zps;
  q.count = 1;
  q.axis = 0;
  if (t->nscales > 1) {
    q.scale = t->scales;
    q.count = t->nscales > 8 ? 8 : t->nscales;
    q.axis = t->qaxis;
  }
  return tflc_writer_tensor(w, 0, t->type, t->rank, t->dims,
                            with_data ? t->data : NULL, with_data ? t->size : 0,
                            NULL, t->scale > 0 ? &q : NULL);
}

/* Builds and runs s. feeds: one pointer per fed input (in input order),
 * for each invoke; outs: one destination per output, filled after the
 * last invoke when every invoke succeeded. */
static inline op_result run_op_model(const op_spec *s, const void *const *feeds,
                                     void *const *outs) {
  static uint8_t arena[1 << 16];
  tflc_writer *w = tflc_writer_create();
  int32_t tin[MODEL_MAX_INPUTS], tout[MODEL_MAX_OUTPUTS];
  int32_t fed[MODEL_MAX_INPUTS], nfed = 0, k, n;
  int invokes = s->invokes > 0 ? s->invokes : 1;
  uint8_t *bytes = NULL;
  size_t size = 0;
  tflc_model m;
  tflc_interpreter it;
  op_result r;
  memset(&r, 0, sizeof r);
  r.init = TFLC_ERR_ARG;
  r.invoke = TFLC_ERR_STATE;
  for (k = 0; k < s->nin; k++) {
    const tensor_spec *t = &s->in[k];
    if (t->type < 0) {
      tin[k] = -1;
      continue;
    }
    tin[k] = add_tensor_spec(w, t, 1);
    if (t->variable)
      tflc_writer_set_variable(w, 0, tin[k], 1);
    else if (!t->data)
      fed[nfed++] = tin[k];
  }
  for (k = 0; k < s->nout; k++)
    tout[k] = add_tensor_spec(w, &s->out[k], 0);
  tflc_writer_op(w, 0, s->code, NULL, s->nin, tin, s->nout, tout, s->opt_type,
                 s->nopts, s->nopts ? s->opts : NULL);
  tflc_writer_inputs(w, 0, nfed, fed);
  tflc_writer_outputs(w, 0, s->nout, tout);
  if (s->compress_in >= 0)
    r.build =
        tflc_writer_compress(w, 0, tin[s->compress_in], s->bits, s->format, 0);
  if (r.build == TFLC_OK)
    r.build = tflc_writer_finish(w, &bytes, &size);
  tflc_writer_destroy(w);
  if (r.build != TFLC_OK)
    return r;
  r.build = tflc_model_init(&m, bytes, size);
  if (r.build != TFLC_OK) {
    memcpy(r.err, m.error, TFLC_ERROR_LEN);
    free(bytes);
    return r;
  }
  r.init = tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL);
  if (r.init == TFLC_OK) {
    r.arena = tflc_arena_used(&it);
    for (n = 0; n < invokes; n++) {
      for (k = 0; k < nfed; k++) {
        tflc_tensor *t = tflc_input(&it, k);
        memcpy(t->data, feeds[n * nfed + k], t->bytes);
      }
      r.invoke = tflc_invoke(&it);
      if (r.invoke != TFLC_OK)
        break;
    }
    if (r.invoke == TFLC_OK)
      for (k = 0; k < s->nout; k++)
        memcpy(outs[k], tflc_output(&it, k)->data, tflc_output(&it, k)->bytes);
  }
  memcpy(r.err, it.error, TFLC_ERROR_LEN);
  free(bytes);
  return r;
}

/* The first failure of a run (build, init, invoke), or TFLC_OK. */
static inline tflc_status op_result_status(const op_result *r) {
  return r->build ? r->build : r->init ? r->init : r->invoke;
}
/* ---- FlexBuffer maps (custom operators' options) --------------------------
 * A small writer: keys (sorted by the caller, at most 16) with 1-byte key
 * offsets, values in `width`-byte slots, indirect scalars before the keys,
 * 1-byte root. Returns the size written at b (keep it under 256 bytes).
 * The type codes are the FlexBuffers format's own (defined here, not
 * taken from the reader under test). */
enum {
  FLEX_NULL = 0,
  FLEX_INT = 1,
  FLEX_UINT = 2,
  FLEX_FLOAT = 3,
  FLEX_INDIRECT_INT = 6,
  FLEX_INDIRECT_UINT = 7,
  FLEX_INDIRECT_FLOAT = 8,
  FLEX_MAP = 9,
  FLEX_BOOL = 26
};
typedef struct flex_value {
  const char *key;
  int type;  /* FLEX_* */
  int width; /* bytes of an indirect scalar */
  long long i;
  double d;
} flex_value;
static inline void flex_put_le(uint8_t *p, unsigned long long v, int w) {
  int k;
  for (k = 0; k < w; k++)
    p[k] = (uint8_t)(v >> (8 * k));
}
static inline void flex_put_number(uint8_t *p, const flex_value *v, int w,
                                   int is_float) {
  if (is_float && w == 4) {
    float f = (float)v->d;
    uint32_t u;
    memcpy(&u, &f, 4);
    flex_put_le(p, u, 4);
  } else if (is_float && w == 8) {
    unsigned long long u;
    memcpy(&u, &v->d, 8);
    flex_put_le(p, u, 8);
  } else {
    flex_put_le(p, (unsigned long long)v->i, w);
  }
}
static inline int flex_log2w(int w) {
  return w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3;
}
static inline size_t flex_map(uint8_t *b, const flex_value *v, int n,
                              int width) {
  size_t pos = 0, kpos[16], ipos[16], kvec, map;
  int i;
  for (i = 0; i < n; i++) {
    kpos[i] = pos;
    memcpy(b + pos, v[i].key, strlen(v[i].key) + 1);
    pos += strlen(v[i].key) + 1;
  }
  for (i = 0; i < n; i++) {
    if (v[i].type < FLEX_INDIRECT_INT || v[i].type > FLEX_INDIRECT_FLOAT)
      continue;
    while (pos % (size_t)v[i].width)
      b[pos++] = 0;
    ipos[i] = pos;
    flex_put_number(b + pos, &v[i], v[i].width,
                    v[i].type == FLEX_INDIRECT_FLOAT);
    pos += (size_t)v[i].width;
  }
  b[pos++] = (uint8_t)n;
  kvec = pos;
  for (i = 0; i < n; i++, pos++)
    b[pos] = (uint8_t)(pos - kpos[i]);
  while (pos % (size_t)width)
    b[pos++] = 0;
  flex_put_le(b + pos, pos - kvec, width);
  pos += (size_t)width;
  flex_put_le(b + pos, 1, width);
  pos += (size_t)width;
  flex_put_le(b + pos, (unsigned long long)n, width);
  pos += (size_t)width;
  map = pos;
  for (i = 0; i < n; i++, pos += (size_t)width) {
    if (v[i].type >= FLEX_INDIRECT_INT && v[i].type <= FLEX_INDIRECT_FLOAT)
      flex_put_le(b + pos, pos - ipos[i], width);
    else
      flex_put_number(b + pos, &v[i], width, v[i].type == FLEX_FLOAT);
  }
  for (i = 0; i < n; i++)
    b[pos++] = (uint8_t)(v[i].type << 2 |
                         flex_log2w(v[i].type >= FLEX_INDIRECT_INT &&
                                            v[i].type <= FLEX_INDIRECT_FLOAT
                                        ? v[i].width
                                        : width));
  b[pos] = (uint8_t)(pos - map);
  b[pos + 1] = (uint8_t)(FLEX_MAP << 2 | flex_log2w(width));
  b[pos + 2] = 1;
  return pos + 3;
}

#endif

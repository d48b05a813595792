/* tests/test_compress.c - the compression stage: model copier, spec reader,
 * tensor selection, tflc_compress in both formats, tflc_bin.
 *
 * Models are built with the writer and read back with tflc.h's walker;
 * compressed tensors are decoded with tflc_model_lut + tflc_lut_decode
 * and compared with the binned data. When ../shared/conformance is
 * present, TFLM's own compressed models are the reference: ours must run
 * with the same outputs, be no larger, and (metadata format) have the
 * same structure; and every model there must survive the copier. */
#define _POSIX_C_SOURCE 200809L
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "../tflc_write.h"
#include "harness.h"
#include "models.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------ */

static int file_exists(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f)
    fclose(f);
  return f != NULL;
}

/* Index of the stage report entry for (sg, t), or -1. */
static int32_t entry_of(const tflc_stage_report *r, int32_t sg, int32_t t) {
  int32_t i;
  for (i = 0; i < r->nentries; i++)
    if (r->entries[i].subgraph == sg && r->entries[i].tensor == t)
      return i;
  return -1;
}

static int has_warning(const tflc_stage_report *r, const char *what) {
  int32_t i;
  for (i = 0; i < r->nwarnings; i++)
    if (strstr(r->warnings[i], what))
      return 1;
  return 0;
}

/* The tensor holding tensor t's values after compression: t itself
 * (METADATA), else the output of the TFLM_DECODE operator feeding op
 * `consumer` at input `k`. */
static int32_t lut_tensor(const tflc_model *m, int32_t t, int32_t consumer,
                          int32_t k) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t ot = tflc__op_table(m, tflc__subgraph(m, 0), consumer), n;
  uint32_t v = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &n);
  if (!v || (uint32_t)k >= n)
    return -1;
  return tflc__i32(fb.b + v + 4 * (uint32_t)k) == t
             ? t
             : tflc__i32(fb.b + v + 4 * (uint32_t)k);
}

/* Decodes compressed tensor t (any format) into a malloc'd array. */
static uint8_t *decode_all(const tflc_model *m, int32_t sg, int32_t t,
                           tflc_const *c) {
  size_t es;
  uint8_t *d;
  if (!tflc_model_lut(m, sg, t, c, NULL, NULL))
    return NULL;
  es = tflc_type_size(c->type);
  d = (uint8_t *)malloc((size_t)c->count * es + 1);
  if (d)
    tflc_lut_decode(c, 0, c->count, d);
  return d;
}

/* ---- structural comparison ----------------------------------------------
 * Two models mean the same: every field tflc or TFLM reads (absent scalars
 * as their defaults, buffer data by content, options tables by schema). */

typedef struct cmpctx {
  const tflc_model *a, *b;
  int diffs;
  int lut_ok; /* tensors compressed in b: compare decoded values */
} cmpctx;

static void diff(cmpctx *c, const char *fmt, int x, int y) {
  if (c->diffs++ < 8) {
    fprintf(stderr, "  model difference: ");
    fprintf(stderr, fmt, x, y);
    fputc('\n', stderr);
  }
}

static int vec_eq(const tflc_model *ma, uint32_t ta, const tflc_model *mb,
                  uint32_t tb, uint32_t slot, uint32_t es) {
  uint32_t na = 0, nb = 0;
  uint32_t va = tflc__get_vec(tflc__mfb(ma), ta, slot, es, &na);
  uint32_t vb = tflc__get_vec(tflc__mfb(mb), tb, slot, es, &nb);
  if (na != nb)
    return 0;
  return na == 0 ||
         memcmp(ma->bytes + va, mb->bytes + vb, (size_t)na * es) == 0;
}

static int str_eq(const tflc_model *ma, uint32_t ta, const tflc_model *mb,
                  uint32_t tb, uint32_t slot) {
  uint32_t la = 0, lb = 0;
  const char *sa = tflc__get_str(tflc__mfb(ma), ta, slot, &la);
  const char *sb = tflc__get_str(tflc__mfb(mb), tb, slot, &lb);
  if (!sa || !sb)
    return !sa == !sb;
  return la == lb && memcmp(sa, sb, la) == 0;
}

/* Options-like tables by schema letters (the writer's tables). */
static int opts_eq(cmpctx *c, uint32_t ta, uint32_t tb, const char *sch) {
  tflc__fb fa = tflc__mfb(c->a), fbb = tflc__mfb(c->b);
  uint32_t slot;
  size_t n = sch ? strlen(sch) : 0;
  if (!ta || !tb)
    return !ta == !tb;
  for (slot = 0; slot < 64; slot++) {
    int ha = tflc__has_field(fa, ta, slot), hb = tflc__has_field(fbb, tb, slot);
    char k = slot < n ? sch[slot] : 'i';
    if (ha != hb)
      return 0;
    if (!ha)
      continue;
    if (k == 'b' || k == 'i' || k == 'l') {
      uint32_t sz = k == 'b' ? 1 : k == 'i' ? 4 : 8;
      uint32_t pa = tflc__field(fa, ta, slot, sz),
               pb = tflc__field(fbb, tb, slot, sz);
      if (!pa || !pb || memcmp(fa.b + pa, fbb.b + pb, sz) != 0)
        return 0;
    } else if (k == 's') {
      if (!str_eq(c->a, ta, c->b, tb, slot))
        return 0;
    } else {
      uint32_t es = k == 'L' ? 8 : (k == 'B' || k == 'A') ? 1 : 4;
      if (!vec_eq(c->a, ta, c->b, tb, slot, es))
        return 0;
    }
  }
  return 1;
}

static const uint8_t *buf_of(const tflc_model *m, uint32_t tt, uint32_t *len) {
  return tflc__buffer(m, tflc__get_u32(tflc__mfb(m), tt, TFLC__T_BUFFER, 0),
                      len);
}

static void cmp_tensor(cmpctx *c, int32_t sg, int32_t i, uint32_t ta,
                       uint32_t tb) {
  tflc__fb fa = tflc__mfb(c->a), fbb = tflc__mfb(c->b);
  uint32_t qa, qb, la, lb;
  const uint8_t *da, *db;
  tflc_const lut;
  if (tflc__has_field(fa, ta, 0) != tflc__has_field(fbb, tb, 0) ||
      !vec_eq(c->a, ta, c->b, tb, 0, 4))
    diff(c, "tensor %d:%d shape", sg, i);
  if (tflc__get_u8(fa, ta, 1, 0) != tflc__get_u8(fbb, tb, 1, 0))
    diff(c, "tensor %d:%d type", sg, i);
  if (!str_eq(c->a, ta, c->b, tb, 3))
    diff(c, "tensor %d:%d name", sg, i);
  if (tflc__get_u8(fa, ta, 5, 0) != tflc__get_u8(fbb, tb, 5, 0))
    diff(c, "tensor %d:%d is_variable", sg, i);
  if (tflc__has_field(fa, ta, 7) != tflc__has_field(fbb, tb, 7) ||
      !vec_eq(c->a, ta, c->b, tb, 7, 4))
    diff(c, "tensor %d:%d shape_signature", sg, i);
  if (tflc__get_u8(fa, ta, 8, 0) != tflc__get_u8(fbb, tb, 8, 0))
    diff(c, "tensor %d:%d has_rank", sg, i);
  qa = tflc__get_ref(fa, ta, 4);
  qb = tflc__get_ref(fbb, tb, 4);
  if (!vec_eq(c->a, qa, c->b, qb, 0, 4) || !vec_eq(c->a, qa, c->b, qb, 1, 4) ||
      !vec_eq(c->a, qa, c->b, qb, 2, 4) || !vec_eq(c->a, qa, c->b, qb, 3, 8) ||
      tflc__get_i32(fa, qa, 6, 0) != tflc__get_i32(fbb, qb, 6, 0) ||
      tflc__get_u8(fa, qa, 4, 0) != tflc__get_u8(fbb, qb, 4, 0))
    diff(c, "tensor %d:%d quantization", sg, i);
  else if (tflc__get_u8(fa, qa, 4, 0)) {
    uint32_t dt = tflc__get_u8(fa, qa, 4, 0);
    if (dt < 4 &&
        !opts_eq(c, tflc__get_ref(fa, qa, 5), tflc__get_ref(fbb, qb, 5),
                 tflc__copy_qdetails_schema[dt]))
      diff(c, "tensor %d:%d quantization details", sg, i);
  }
  da = buf_of(c->a, ta, &la);
  db = buf_of(c->b, tb, &lb);
  if (c->lut_ok) { /* compressed tensors compared decoded */
    uint8_t *xa = NULL, *xb = NULL;
    if (tflc_model_lut(c->a, sg, i, &lut, NULL, NULL)) {
      xa = decode_all(c->a, sg, i, &lut);
      da = xa;
      la = xa ? (uint32_t)lut.count * (uint32_t)tflc_type_size(lut.type) : 0;
    }
    if (tflc_model_lut(c->b, sg, i, &lut, NULL, NULL)) {
      xb = decode_all(c->b, sg, i, &lut);
      db = xb;
      lb = xb ? (uint32_t)lut.count * (uint32_t)tflc_type_size(lut.type) : 0;
    }
    if (!da != !db || la != lb || (la && memcmp(da, db, la) != 0))
      diff(c, "tensor %d:%d (decoded) values", sg, i);
    free(xa);
    free(xb);
  } else if (!da != !db || la != lb || (la && memcmp(da, db, la) != 0)) {
    diff(c, "tensor %d:%d data", sg, i);
  }
}

static void cmp_op(cmpctx *c, int32_t sg, int32_t i, uint32_t oa, uint32_t ob) {
  tflc__fb fa = tflc__mfb(c->a), fbb = tflc__mfb(c->b);
  uint32_t ty = tflc__get_u8(fa, oa, 3, 0), ty2 = tflc__get_u8(fa, oa, 11, 0);
  if (tflc__opcode(c->a, tflc__get_u32(fa, oa, 0, 0)) !=
      tflc__opcode(c->b, tflc__get_u32(fbb, ob, 0, 0)))
    diff(c, "op %d:%d code", sg, i);
  if (!c->lut_ok && tflc__get_u32(fa, oa, 0, 0) != tflc__get_u32(fbb, ob, 0, 0))
    diff(c, "op %d:%d opcode index", sg, i);
  if (!vec_eq(c->a, oa, c->b, ob, 1, 4) || !vec_eq(c->a, oa, c->b, ob, 2, 4))
    diff(c, "op %d:%d inputs/outputs", sg, i);
  if (ty != tflc__get_u8(fbb, ob, 3, 0) ||
      !opts_eq(c, tflc__get_ref(fa, oa, 4), tflc__get_ref(fbb, ob, 4),
               ty < 127 ? tflc__copy_options_schema[ty] : NULL))
    diff(c, "op %d builtin options (type %d)", i, (int)ty);
  if (ty2 != tflc__get_u8(fbb, ob, 11, 0) ||
      !opts_eq(c, tflc__get_ref(fa, oa, 12), tflc__get_ref(fbb, ob, 12),
               ty2 < 24 ? tflc__copy_options2_schema[ty2] : NULL))
    diff(c, "op %d:%d builtin options 2", sg, i);
  if (!vec_eq(c->a, oa, c->b, ob, 5, 1) ||
      tflc__get_u8(fa, oa, 6, 0) != tflc__get_u8(fbb, ob, 6, 0))
    diff(c, "op %d:%d custom options", sg, i);
  if (!vec_eq(c->a, oa, c->b, ob, 7, 1) || !vec_eq(c->a, oa, c->b, ob, 8, 4))
    diff(c, "op %d:%d mutating inputs / intermediates", sg, i);
  if (tflc__get_i32(fa, oa, 13, -1) != tflc__get_i32(fbb, ob, 13, -1))
    diff(c, "op %d:%d debug_metadata_index", sg, i);
}

/* Metadata entry k of m other than COMPRESSION_METADATA (0 = none). */
static uint32_t meta_entry(const tflc_model *m, uint32_t k, uint32_t *skipped) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t n, v = tflc__get_vec(fb, m->root, 6, 4, &n), i, seen = 0;
  *skipped = 0;
  for (i = 0; v && i < n; i++) {
    uint32_t e = tflc__vec_table(fb, v, i), len;
    const char *s = tflc__get_str(fb, e, 0, &len);
    if (s && len == 20 && memcmp(s, "COMPRESSION_METADATA", 20) == 0) {
      (*skipped)++;
      continue;
    }
    if (seen++ == k)
      return e;
  }
  return 0;
}

/* Compares models a (reference) and b; returns the number of differences.
 * lut_ok: b may hold compressed tensors (compared decoded); then tensor and
 * operator lists must still match one to one (METADATA format). */
static int cmp_models(const tflc_model *a, const tflc_model *b, int lut_ok) {
  cmpctx c;
  tflc__fb fa = tflc__mfb(a), fbb = tflc__mfb(b);
  int32_t sg, i, k;
  uint32_t sk;
  memset(&c, 0, sizeof c);
  c.a = a;
  c.b = b;
  c.lut_ok = lut_ok;
  if (tflc__get_u32(fa, a->root, 0, 0) != tflc__get_u32(fbb, b->root, 0, 0))
    diff(&c, "model version %d/%d", 0, 0);
  if (!lut_ok && !str_eq(a, a->root, b, b->root, 3))
    diff(&c, "description %d%d", 0, 0);
  if (a->num_opcodes != b->num_opcodes && !lut_ok)
    diff(&c, "%d/%d operator codes", a->num_opcodes, b->num_opcodes);
  for (k = 0; !lut_ok && k < a->num_opcodes && k < b->num_opcodes; k++) {
    uint32_t oa = tflc__vec_table(fa, a->opcodes, (uint32_t)k);
    uint32_t ob = tflc__vec_table(fbb, b->opcodes, (uint32_t)k);
    if (tflc__get_u8(fa, oa, 0, 0) != tflc__get_u8(fbb, ob, 0, 0) ||
        tflc__get_i32(fa, oa, 3, 0) != tflc__get_i32(fbb, ob, 3, 0) ||
        tflc__get_i32(fa, oa, 2, 1) != tflc__get_i32(fbb, ob, 2, 1) ||
        !str_eq(a, oa, b, ob, 1))
      diff(&c, "operator code %d%d", k, 0);
  }
  if (a->num_subgraphs != b->num_subgraphs)
    diff(&c, "%d/%d subgraphs", a->num_subgraphs, b->num_subgraphs);
  for (sg = 0; sg < a->num_subgraphs && sg < b->num_subgraphs; sg++) {
    uint32_t sa = tflc__subgraph(a, sg), sb = tflc__subgraph(b, sg);
    int32_t nt = tflc_model_num_tensors(a, sg), no = tflc_model_num_ops(a, sg);
    if (nt != tflc_model_num_tensors(b, sg) || no != tflc_model_num_ops(b, sg))
      diff(&c, "subgraph %d: tensor/op counts (%d)", sg, nt);
    if (!vec_eq(a, sa, b, sb, 1, 4) || !vec_eq(a, sa, b, sb, 2, 4))
      diff(&c, "subgraph %d inputs/outputs%d", sg, 0);
    if (!str_eq(a, sa, b, sb, 4) ||
        tflc__get_i32(fa, sa, 5, -1) != tflc__get_i32(fbb, sb, 5, -1))
      diff(&c, "subgraph %d name/debug index%d", sg, 0);
    for (i = 0; i < nt && i < tflc_model_num_tensors(b, sg); i++)
      cmp_tensor(&c, sg, i, tflc__tensor_table(a, sa, i),
                 tflc__tensor_table(b, sb, i));
    for (i = 0; i < no && i < tflc_model_num_ops(b, sg); i++)
      cmp_op(&c, sg, i, tflc__op_table(a, sa, i), tflc__op_table(b, sb, i));
  }
  for (k = 0;; k++) { /* metadata other than COMPRESSION_METADATA */
    uint32_t ea = meta_entry(a, (uint32_t)k, &sk),
             eb = meta_entry(b, (uint32_t)k, &sk);
    uint32_t la, lb;
    const uint8_t *da, *db;
    if (!ea || !eb) {
      if (!ea != !eb)
        diff(&c, "metadata entry %d present in one model only%d", k, 0);
      break;
    }
    da = tflc__buffer(a, tflc__get_u32(fa, ea, 1, 0), &la);
    db = tflc__buffer(b, tflc__get_u32(fbb, eb, 1, 0), &lb);
    if (!str_eq(a, ea, b, eb, 0) || la != lb || (la && memcmp(da, db, la)))
      diff(&c, "metadata entry %d%d", k, 0);
  }
  { /* signature definitions */
    uint32_t na, nb, va = tflc__get_vec(fa, a->root, 7, 4, &na),
                     vb = tflc__get_vec(fbb, b->root, 7, 4, &nb), j;
    if (na != nb)
      diff(&c, "%d/%d signature defs", (int)na, (int)nb);
    for (j = 0; va && vb && j < na && j < nb; j++) {
      uint32_t da = tflc__vec_table(fa, va, j),
               db = tflc__vec_table(fbb, vb, j);
      uint32_t side;
      if (!str_eq(a, da, b, db, 2) ||
          tflc__get_u32(fa, da, 4, 0) != tflc__get_u32(fbb, db, 4, 0))
        diff(&c, "signature def %d%d", (int)j, 0);
      for (side = 0; side < 2; side++) {
        uint32_t ma, mb, xa = tflc__get_vec(fa, da, side, 4, &ma),
                         xb = tflc__get_vec(fbb, db, side, 4, &mb), q;
        if (ma != mb)
          diff(&c, "signature def %d side %d", (int)j, (int)side);
        for (q = 0; xa && xb && q < ma && q < mb; q++) {
          uint32_t e1 = tflc__vec_table(fa, xa, q),
                   e2 = tflc__vec_table(fbb, xb, q);
          if (!str_eq(a, e1, b, e2, 0) ||
              tflc__get_u32(fa, e1, 1, 0) != tflc__get_u32(fbb, e2, 1, 0))
            diff(&c, "signature def %d map %d", (int)j, (int)q);
        }
      }
    }
  }
  return c.diffs;
}

/* Runs model bytes with the inputs given; returns malloc'd output 0 and its
 * size, or NULL. */
static uint8_t *run_model(const uint8_t *bytes, size_t n, uint8_t **inputs,
                          size_t *in_sizes, int nin, size_t *out_n) {
  tflc_model m;
  tflc_interpreter it;
  size_t cap = (size_t)64 << 20;
  uint8_t *arena = (uint8_t *)malloc(cap), *out = NULL;
  int k;
  *out_n = 0;
  if (!arena)
    return NULL;
  if (tflc_model_init(&m, bytes, n) != TFLC_OK ||
      tflc_interpreter_init(&it, &m, arena, cap, NULL) != TFLC_OK ||
      it.num_inputs != nin) {
    free(arena);
    return NULL;
  }
  for (k = 0; k < nin; k++) {
    tflc_tensor *t = tflc_input(&it, k);
    if (!t || t->bytes != in_sizes[k]) {
      free(arena);
      return NULL;
    }
    memcpy(t->data, inputs[k], in_sizes[k]);
  }
  if (tflc_invoke(&it) == TFLC_OK) {
    const tflc_tensor *o = tflc_output(&it, 0);
    out = (uint8_t *)malloc(o->bytes + 1);
    if (out) {
      memcpy(out, o->data, o->bytes);
      *out_n = o->bytes;
    }
  }
  free(arena);
  return out;
}

/* ---- round trip: every type, width 1..8, both axes, both formats ------- */

/* n distinct values of `type` (little-endian bytes, es each) into v;
 * salt varies the set. */
static void distinct_values(int type, size_t es, uint32_t n, uint8_t *v,
                            uint32_t salt) {
  uint32_t i, j;
  for (i = 0; i < n; i++) {
    for (;;) {
      uint64_t x = ((uint64_t)rng() << 32) | rng();
      size_t k;
      if (type == TFLC_BOOL)
        x = i; /* 0, 1 */
      else if (type == TFLC_INT8 || type == TFLC_UINT8)
        x = (uint64_t)(uint8_t)(i * 37u + 11u + salt); /* distinct mod 256 */
      else if (type == TFLC_FLOAT32) {
        float f = (float)((int32_t)(rng() % 20001u) - 10000) / 64.0f;
        uint32_t b;
        if (i == 0)
          f = -0.0f; /* -0 and +0 are distinct table entries */
        if (i == 1)
          f = 0.0f;
        memcpy(&b, &f, 4);
        if (i == 2)
          b = 0x7fc00001u; /* a NaN with a payload, kept bit-exact */
        x = b;
      }
      for (k = 0; k < es; k++)
        v[i * es + k] = (uint8_t)(x >> (8 * k));
      for (j = 0; j < i; j++)
        if (memcmp(v + j * es, v + i * es, es) == 0)
          break;
      if (j == i)
        break;
    }
  }
}

/* Builds a model with one constant tensor (layout: 0 per tensor, 1 axis 0,
 * 2 last axis) with `u` distinct values per channel, compresses it at
 * `bits` in `format`, decodes it back and compares. */
static void roundtrip_case(int type, int bits, int layout, int format,
                           uint32_t u) {
  const int32_t C = 3, E = 300;
  size_t es = tflc_type_size(type), count = (size_t)(C * E), i;
  int32_t dims[2], odims[2] = {1, 1}, t, y, x;
  float sc[3] = {0.5f, 0.25f, 0.125f};
  int64_t zp[3] = {0, 0, 0};
  tflc_w_quant q;
  uint8_t *vals = (uint8_t *)malloc(3 * 256 * es), *data, *out = NULL, *dec;
  size_t n, on = 0;
  tflc_writer *w = tflc_writer_create();
  tflc_compress_options o;
  tflc_stage_report rep;
  tflc_tensor_ref ref;
  tflc_model m;
  tflc_const c;
  tflc_status st;
  int32_t in[1], lt;
  data = (uint8_t *)malloc(count * es);
  if (!vals || !data || !w) {
    CHECK(0);
    free(vals);
    free(data);
    tflc_writer_destroy(w);
    return;
  }
  for (i = 0; i < 3; i++)
    distinct_values(type, es, u, vals + i * u * es, (uint32_t)i * 5u);
  dims[0] = layout == 2 ? E : C;
  dims[1] = layout == 2 ? C : E;
  for (i = 0; i < count; i++) {
    size_t ch = layout == 0 ? 0 : layout == 1 ? i / (size_t)E : i % (size_t)C;
    size_t pos = layout == 2 ? i / (size_t)C : i % (size_t)E;
    uint32_t k = pos < u ? (uint32_t)pos : rng() % u; /* each value used */
    memcpy(data + i * es, vals + ((layout ? ch : 0) * u + k) * es, es);
  }
  q.scale = sc;
  q.zero_point = zp;
  q.count = 3;
  q.axis = layout == 2 ? 1 : 0;
  x = tflc_writer_tensor(w, 0, TFLC_INT8, 2, odims, NULL, 0, "x", NULL);
  t = tflc_writer_tensor(w, 0, type, 2, dims, data, count * es, "k",
                         layout ? &q : NULL);
  y = tflc_writer_tensor(w, 0, type, 2, dims, NULL, 0, "y", NULL);
  in[0] = t;
  CHECK(tflc_writer_op(w, 0, 2, NULL, 1, in, 1, &y, 0, 0, NULL) == 0);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  {
    uint8_t *model = finish_model(w, &n);
    memset(&o, 0, sizeof o);
    o.format = format;
    o.tflm_compatible = -1;
    ref.subgraph = 0;
    ref.tensor = t;
    ref.bits = bits;
    o.tensors = &ref;
    o.ntensors = 1;
    st = tflc_compress(model, n, &o, &out, &on, &rep);
    free(model);
  }
  CHECK_EQ_INT(st, TFLC_OK);
  if (st != TFLC_OK) {
    fprintf(stderr, "  type %d bits %d layout %d format %d: %s\n", type, bits,
            layout, format, rep.error);
  } else {
    CHECK_EQ_INT(tflc_model_init(&m, out, on), TFLC_OK);
    lt = lut_tensor(&m, t, 0, 0);
    if (format == TFLC_W_DECODE) { /* the DECODE op comes first */
      lt = lut_tensor(&m, t, 1, 0);
      CHECK_EQ_INT(tflc_model_op_code(&m, 0, 0), TFLC_OP_TFLM_DECODE);
    }
    dec = decode_all(&m, 0, lt, &c);
    CHECK(dec != NULL);
    if (dec) {
      CHECK_EQ_INT(c.bits, bits);
      CHECK_EQ_INT(c.channels, layout ? C : 1);
      CHECK_EQ_INT(c.alt_axis, layout == 2);
      CHECK_EQ_INT(c.stride, u);
      CHECK_EQ_INT(c.count, (int32_t)count);
      CHECK_EQ_MEM(dec, data, count * es);
    }
    CHECK_EQ_INT(rep.nentries, 1);
    if (rep.nentries == 1) {
      CHECK(rep.entries[0].done && rep.entries[0].bits == bits);
      CHECK_EQ_INT(rep.entries[0].unique, u);
    }
    free(dec);
  }
  tflc_stage_report_free(&rep);
  free(out);
  free(vals);
  free(data);
  tflc_writer_destroy(w);
}

static void test_roundtrip_types(void) {
  static const int types[] = {TFLC_FLOAT32, TFLC_INT8,  TFLC_UINT8, TFLC_BOOL,
                              TFLC_INT16,   TFLC_INT32, TFLC_INT64};
  size_t ti;
  int bits, layout, format;
  for (ti = 0; ti < sizeof types / sizeof types[0]; ti++)
    for (bits = 1; bits <= 8; bits++)
      for (layout = 0; layout < 3; layout++)
        for (format = TFLC_W_METADATA; format <= TFLC_W_DECODE; format++) {
          uint32_t u = (1u << (bits - 1)) + 1u + (uint32_t)layout;
          if (u > (1u << bits))
            u = 1u << bits;
          if (bits == 8)
            u = format == TFLC_W_DECODE ? 255u : 256u; /* stride byte */
          if (types[ti] == TFLC_BOOL)
            u = 2; /* wider than needed: a warning, still exact */
          roundtrip_case(types[ti], bits, layout, format, u);
        }
}

/* ---- spec reader ---------------------------------------------------------
 */

/* Parses text; returns the entry count (-1 on error, message in err). */
static int32_t spec_parse(const char *text, tflc__spec_entry **e, char *err,
                          size_t errn, tflc_stage_report *rep) {
  tflc__stage s;
  int32_t n = 0;
  tflc_status st;
  memset(&s, 0, sizeof s);
  memset(rep, 0, sizeof *rep);
  s.rep = rep;
  st = tflc__spec_read(&s, text, strlen(text), "spec.yaml", e, &n);
  if (err)
    snprintf(err, errn, "%s", rep->error);
  return st == TFLC_OK ? n : -1;
}

static void spec_expect(const char *text, int32_t n, const int32_t *triples) {
  tflc__spec_entry *e = NULL;
  tflc_stage_report rep;
  char err[256];
  int32_t got = spec_parse(text, &e, err, sizeof err, &rep), i;
  CHECK_EQ_INT(got, n);
  if (got != n)
    fprintf(stderr, "  spec error: %s\n", err);
  for (i = 0; got == n && i < n; i++) {
    CHECK_EQ_INT(e[i].sg, triples[3 * i]);
    CHECK_EQ_INT(e[i].tensor, triples[3 * i + 1]);
    CHECK_EQ_INT(e[i].bits, triples[3 * i + 2]);
  }
  free(e);
  tflc_stage_report_free(&rep);
}

static void spec_error(const char *text, const char *msg) {
  tflc__spec_entry *e = NULL;
  tflc_stage_report rep;
  char err[256];
  CHECK_EQ_INT(spec_parse(text, &e, err, sizeof err, &rep), -1);
  CHECK(strstr(err, msg) != NULL);
  if (!strstr(err, msg))
    fprintf(stderr, "  expected '%s' in '%s'\n", msg, err);
  free(e);
  tflc_stage_report_free(&rep);
}

static void test_spec_reader(void) {
  static const int32_t two[] = {0, 5, 4, 1, 10, 2};
  tflc__spec_entry *e = NULL;
  tflc_stage_report rep;
  /* the seed document's block style, comments, blank lines */
  spec_expect("# spec\n"
              "tensors:\n"
              "\n"
              "  - subgraph: 0   # main\n"
              "    tensor: 5\n"
              "    compression:\n"
              "      - lut:\n"
              "          index_bitwidth: 4\n"
              "\n"
              "  - subgraph: 1\n"
              "    tensor: 10\n"
              "    compression:\n"
              "      - lut:\n"
              "          index_bitwidth: 2\n",
              2, two);
  /* flow style, mixed, CRLF, document markers, sequence at key indent */
  spec_expect("---\r\ntensors:\r\n- {subgraph: 0, tensor: 5, compression: "
              "[{lut: {index_bitwidth: 4}}]}\r\n"
              "- subgraph: '1'\r\n  tensor: \"10\"\r\n  compression:\r\n  - "
              "lut: {index_bitwidth: 2}\r\n...\r\n",
              2, two);
  spec_expect("tensors: [\n  {subgraph: 0, tensor: 5,\n   compression: [{lut: "
              "{index_bitwidth: 4}}]},\n  {subgraph: 1, tensor: 10, "
              "compression: [{lut: {index_bitwidth: 2, per_tensor: }}]}\n]\n",
              2, two);
  spec_expect("tensors:\n", 0, two);
  spec_expect("\xEF\xBB\xBFtensors: [{subgraph: 0, tensor: 5, compression: "
              "[{lut: {index_bitwidth: 4}}]}]",
              1, two);
  spec_expect("tensors: []\n", 0, two);
  /* newer TFLM keys: per_tensor / per_channel */
  spec_expect("tensors:\n  - subgraph: 0\n    tensor: 5\n    compression:\n"
              "      - lut:\n          index_bitwidth: 4\n"
              "          per_channel:\n            axis: 0\n",
              1, two);
  CHECK_EQ_INT(spec_parse("tensors:\n  - subgraph: 0\n    tensor: 5\n    "
                          "extra: 1\n    compression:\n      - lut:\n     "
                          "     index_bitwidth: 4\n",
                          &e, NULL, 0, &rep),
               1);
  CHECK(has_warning(&rep, "spec.yaml:4: unknown key 'extra'"));
  free(e);
  e = NULL;
  tflc_stage_report_free(&rep);
  /* errors name the line */
  spec_error("", "spec.yaml:1: empty spec");
  spec_error("tensor:\n  - 1\n", "no 'tensors:' key");
  spec_error("tensors:\n  - subgraph: 0\n    tensor: 5\n", "spec.yaml:2: "
                                                           "'compression' "
                                                           "missing");
  spec_error("tensors:\n  - subgraph: x\n    tensor: 5\n", "spec.yaml:2: "
                                                           "'subgraph'");
  spec_error("tensors:\n  - subgraph: 0\n    tensor: -5\n", "spec.yaml:3: "
                                                            "'tensor'");
  spec_error("tensors:\n  - subgraph: 0\n    tensor: 5\n    compression:\n"
             "      - lut:\n          index_bitwidth: 9\n",
             "spec.yaml:6: 'index_bitwidth'");
  spec_error("tensors:\n  - subgraph: 0\n    tensor: 5\n    compression:\n"
             "      - zstd:\n",
             "spec.yaml:5: compression method 'zstd' unknown");
  /* huffman / pruning (issue 13): one entry each, no parameters read */
  {
    static const int32_t hp[] = {0, 5, 0, 0, 6, 0};
    spec_expect("tensors:\n  - subgraph: 0\n    tensor: 5\n"
                "    compression:\n      - huffman:\n"
                "  - subgraph: 0\n    tensor: 6\n"
                "    compression:\n      - pruning: {}\n",
                2, hp);
  }
  spec_error("tensors:\n  - subgraph: 0\n    tensor: 5\n    compression:\n"
             "      - lut: {index_bitwidth: 2}\n      - lut: "
             "{index_bitwidth: 3}\n",
             "spec.yaml:6: one compression method");
  spec_error("tensors:\n  - subgraph: 0\n     tensor: 5\n", "spec.yaml:3: bad "
                                                            "indentation");
  spec_error("tensors:\n\t- subgraph: 0\n", "spec.yaml:2: tab");
  spec_error("tensors: [{subgraph: 0\n", "spec.yaml:1: unterminated");
  spec_error("tensors: &a [1]\n", "spec.yaml:1: '&'");
  spec_error("tensors:\n  - subgraph: 0\n    subgraph: 1\n",
             "spec.yaml:3: key 'subgraph' given twice");
  spec_error("tensors:\n  - subgraph: 0\n    tensor: 5\n    compression:\n"
             "      - lut:\n          index_bitwidth: 2\n          "
             "per_tensor:\n          per_channel: {axis: 0}\n",
             "spec.yaml:8: per_tensor and per_channel");
  spec_error("tensors: 5\n", "'tensors' must be a list");
  spec_error("tensors:\n  - 5\n", "spec.yaml:2: a tensors entry must be a "
                                  "mapping");
}

/* ---- a small model to compress ------------------------------------------
 * FC(x, W, b) -> h; ADD(h, c) -> y; RESHAPE(y, shape) -> z; W int8 [8, 16]
 * per channel (8 scales, axis 0) with 4 values per channel, b int32 [8],
 * c int8 [1, 8] with 2 values, shape int32 [2]; plus a variable, an unused
 * constant and a constant subgraph output. */
typedef struct small {
  int32_t x, W, b, h, c, y, shape, z, var, unused, cout;
  uint8_t *bytes;
  size_t n;
} small;

static void small_model(small *s) {
  tflc_writer *w = tflc_writer_create();
  int8_t W[128], c[8], var[8], unused[64];
  int32_t b[8], shape[2] = {1, 8}, in[3], out[2];
  float ws[8], one = 0.5f;
  int64_t wz[8] = {0, 0, 0, 0, 0, 0, 0, 0}, z0 = 0;
  int32_t dx[2] = {1, 16}, dW[2] = {8, 16}, db[1] = {8}, dh[2] = {1, 8},
          ds[1] = {2}, dz[2] = {1, 8}, du[1] = {64};
  tflc_w_quant qw, q1;
  tflc_w_option fo;
  int i;
  for (i = 0; i < 128; i++)
    W[i] = (int8_t)((i / 16) * 3 + (i % 4) * 17 - 40);
  for (i = 0; i < 8; i++) {
    b[i] = i * 1000 - 3;
    c[i] = (int8_t)(i % 2 ? 5 : -7);
    var[i] = 0;
    ws[i] = 0.01f * (float)(i + 1);
  }
  for (i = 0; i < 64; i++)
    unused[i] = (int8_t)(i % 3);
  qw.scale = ws;
  qw.zero_point = wz;
  qw.count = 8;
  qw.axis = 0;
  q1.scale = &one;
  q1.zero_point = &z0;
  q1.count = 1;
  q1.axis = 0;
  s->x = tflc_writer_tensor(w, 0, TFLC_INT8, 2, dx, NULL, 0, "x", &q1);
  s->W = tflc_writer_tensor(w, 0, TFLC_INT8, 2, dW, W, sizeof W, "W", &qw);
  s->b = tflc_writer_tensor(w, 0, TFLC_INT32, 1, db, b, sizeof b, "b", NULL);
  s->h = tflc_writer_tensor(w, 0, TFLC_INT8, 2, dh, NULL, 0, "h", &q1);
  s->c = tflc_writer_tensor(w, 0, TFLC_INT8, 2, dh, c, sizeof c, "c", &q1);
  s->y = tflc_writer_tensor(w, 0, TFLC_INT8, 2, dh, NULL, 0, "y", &q1);
  s->shape = tflc_writer_tensor(w, 0, TFLC_INT32, 1, ds, shape, sizeof shape,
                                "shape", NULL);
  s->z = tflc_writer_tensor(w, 0, TFLC_INT8, 2, dz, NULL, 0, "z", &q1);
  s->var =
      tflc_writer_tensor(w, 0, TFLC_INT8, 2, dh, var, sizeof var, "var", &q1);
  tflc_writer_set_variable(w, 0, s->var, 1);
  s->unused = tflc_writer_tensor(w, 0, TFLC_INT8, 1, du, unused, sizeof unused,
                                 "unused", NULL);
  s->cout = tflc_writer_tensor(w, 0, TFLC_INT8, 1, du, unused, sizeof unused,
                               "cout", NULL);
  memset(&fo, 0, sizeof fo);
  fo.kind = TFLC_W_U8;
  in[0] = s->x;
  in[1] = s->W;
  in[2] = s->b;
  tflc_writer_op(w, 0, 9, NULL, 3, in, 1, &s->h, 8, 1, &fo);
  in[0] = s->h;
  in[1] = s->c;
  in[2] = s->var;
  tflc_writer_op(w, 0, 0, NULL, 2, in, 1, &s->y, 11, 1, &fo);
  in[0] = s->y;
  in[1] = s->shape;
  tflc_writer_op(w, 0, 22, NULL, 2, in, 1, &s->z, 0, 0, NULL);
  in[0] = s->var; /* ASSIGN_VARIABLE-like use of the variable */
  tflc_writer_op(w, 0, 2, NULL, 1, in, 1, &s->var, 0, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &s->x);
  out[0] = s->z;
  out[1] = s->cout;
  tflc_writer_outputs(w, 0, 2, out);
  s->bytes = finish_model(w, &s->n);
  tflc_writer_destroy(w);
}

static void test_auto_selection(void) {
  small s;
  tflc_compress_options o;
  tflc_stage_report rep;
  tflc_tensor_ref ex;
  uint8_t *out = NULL;
  size_t on = 0;
  tflc_model m;
  int32_t e;
  small_model(&s);
  memset(&o, 0, sizeof o);
  o.format = TFLC_W_METADATA; /* TFLM-compatible by default */
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_OK);
  CHECK_EQ_INT(rep.tflm_compatible, 1);
  e = entry_of(&rep, 0, s.W);
  CHECK(e >= 0 && rep.entries[e].done && rep.entries[e].bits == 2 &&
        rep.entries[e].tables == 8 && rep.entries[e].stride == 4 &&
        rep.entries[e].bytes_before == 128 &&
        rep.entries[e].bytes_after == 32 + 32);
  e = entry_of(&rep, 0, s.b); /* 8 distinct int32: 3 bits + 32 B table */
  CHECK(e >= 0 && !rep.entries[e].done &&
        strstr(rep.entries[e].reason, "not smaller"));
  e = entry_of(&rep, 0, s.c); /* ADD: not one of TFLM's six kernels */
  CHECK(e >= 0 && !rep.entries[e].done &&
        strstr(rep.entries[e].reason, "op 1 ADD, which TFLM cannot decode"));
  e = entry_of(&rep, 0, s.var);
  CHECK(e >= 0 && !rep.entries[e].done &&
        strstr(rep.entries[e].reason, "variable"));
  e = entry_of(&rep, 0, s.unused);
  CHECK(e >= 0 && strstr(rep.entries[e].reason, "read by no operator"));
  e = entry_of(&rep, 0, s.cout);
  CHECK(e >= 0 && strstr(rep.entries[e].reason, "subgraph input or output"));
  CHECK_EQ_INT(entry_of(&rep, 0, s.x), -1); /* activations: not listed */
  CHECK_EQ_INT(tflc_model_init(&m, out, on), TFLC_OK);
  CHECK_EQ_INT(m.num_lut_tensors, 1);
  free(out);
  tflc_stage_report_free(&rep);
  /* not restricted to TFLM: ADD's int8 constant too, not RESHAPE's shape */
  o.tflm_compatible = -1;
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_OK);
  e = entry_of(&rep, 0, s.c);
  CHECK(e >= 0 && rep.entries[e].done && rep.entries[e].bits == 1);
  e = entry_of(&rep, 0, s.shape);
  CHECK(e >= 0 && !rep.entries[e].done &&
        strstr(rep.entries[e].reason, "integer input 1 of op 2 RESHAPE"));
  free(out);
  tflc_stage_report_free(&rep);
  /* DECODE: the 16-byte header counts; --exclude */
  memset(&o, 0, sizeof o);
  ex.subgraph = 0;
  ex.tensor = s.W;
  ex.bits = 0;
  o.exclude = &ex;
  o.nexclude = 1;
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_OK);
  CHECK_EQ_INT(rep.format, TFLC_W_DECODE);
  CHECK_EQ_INT(rep.tflm_compatible, 0);
  e = entry_of(&rep, 0, s.W);
  CHECK(e >= 0 && !rep.entries[e].done &&
        strcmp(rep.entries[e].reason, "excluded") == 0);
  e = entry_of(&rep, 0, s.c); /* 1 + 2 + 16 > 8 */
  CHECK(e >= 0 && !rep.entries[e].done &&
        strstr(rep.entries[e].reason, "not smaller: 19 B"));
  free(out);
  tflc_stage_report_free(&rep);
  /* allow_growth: also what does not shrink */
  o.allow_growth = 1;
  o.nexclude = 0;
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_OK);
  e = entry_of(&rep, 0, s.c);
  CHECK(e >= 0 && rep.entries[e].done &&
        strstr(rep.entries[e].reason, "larger"));
  CHECK_EQ_INT(tflc_model_init(&m, out, on), TFLC_OK);
  CHECK_EQ_INT(m.num_lut_tensors, 3); /* W, b, c */
  free(out);
  tflc_stage_report_free(&rep);
  free(s.bytes);
}

static void test_explicit_lists(void) {
  small s;
  tflc_compress_options o;
  tflc_stage_report rep;
  tflc_tensor_ref r[2];
  uint8_t *out = NULL;
  size_t on = 0;
  const char *spec;
  small_model(&s);
  memset(&o, 0, sizeof o);
  o.format = TFLC_W_METADATA;
  /* width too small: an error naming the tensor and the width it needs */
  spec = "tensors:\n  - subgraph: 0\n    tensor: 1\n    compression:\n"
         "      - lut:\n          index_bitwidth: 1\n";
  o.spec = spec;
  o.spec_len = strlen(spec);
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_ERR_ARG);
  CHECK(strstr(rep.error, "tensor 0:1 (W): index_bitwidth 1 too small") &&
        strstr(rep.error, "need 2 bits"));
  CHECK(out == NULL && on == 0);
  tflc_stage_report_free(&rep);
  /* larger than needed: a warning; the indices use the spec's width */
  spec = "tensors:\n  - {subgraph: 0, tensor: 1, compression: [{lut: "
         "{index_bitwidth: 5}}]}\n";
  o.spec = spec;
  o.spec_len = strlen(spec);
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_OK);
  CHECK(has_warning(&rep, "tensor 0:1 (W): index_bitwidth 5 larger than "
                          "needed (2)"));
  CHECK(rep.nentries == 1 && rep.entries[0].bits == 5 &&
        rep.entries[0].bytes_after == 80 + 32);
  free(out);
  tflc_stage_report_free(&rep);
  /* 8 bits: tflc only */
  spec = "tensors:\n  - {subgraph: 0, tensor: 1, compression: [{lut: "
         "{index_bitwidth: 8}}]}\n";
  o.spec = spec;
  o.spec_len = strlen(spec);
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_ERR_ARG);
  CHECK(strstr(rep.error, "TFLM takes 1..7") != NULL);
  tflc_stage_report_free(&rep);
  o.tflm_compatible = -1;
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_OK);
  free(out);
  tflc_stage_report_free(&rep);
  /* bad entries */
  spec = "tensors:\n  - {subgraph: 0, tensor: 99, compression: [{lut: "
         "{index_bitwidth: 2}}]}\n";
  o.spec = spec;
  o.spec_len = strlen(spec);
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_ERR_ARG);
  CHECK(strstr(rep.error, "spec:2: tensor 0:99 does not exist") != NULL);
  tflc_stage_report_free(&rep);
  spec = "tensors:\n  - {subgraph: 0, tensor: 3, compression: [{lut: "
         "{index_bitwidth: 2}}]}\n";
  o.spec = spec;
  o.spec_len = strlen(spec);
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_ERR_ARG);
  CHECK(strstr(rep.error, "tensor 0:3 (h): cannot compress: not a constant"));
  tflc_stage_report_free(&rep);
  spec = "tensors:\n  - {subgraph: 0, tensor: 1, compression: [{lut: "
         "{index_bitwidth: 2, per_tensor: }}]}\n";
  o.spec = spec;
  o.spec_len = strlen(spec);
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_ERR_ARG);
  CHECK(strstr(rep.error, "per_tensor, but it is quantized per channel"));
  tflc_stage_report_free(&rep);
  /* --tensors: widths chosen when 0; listed twice is an error */
  memset(&o, 0, sizeof o);
  r[0].subgraph = 0;
  r[0].tensor = s.c;
  r[0].bits = 0;
  r[1] = r[0];
  o.tensors = r;
  o.ntensors = 1;
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_OK);
  CHECK(rep.nentries == 1 && rep.entries[0].done && rep.entries[0].bits == 1);
  free(out);
  tflc_stage_report_free(&rep);
  o.ntensors = 2;
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_ERR_ARG);
  CHECK(strstr(rep.error, "listed twice") != NULL);
  tflc_stage_report_free(&rep);
  /* DECODE needs a consumer (as TFLM: skipped with a warning); METADATA
   * compresses a subgraph output when told, with a warning */
  r[0].tensor = s.unused;
  r[1].tensor = s.cout;
  o.ntensors = 2;
  o.format = TFLC_W_DECODE;
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_OK);
  CHECK(has_warning(&rep, "tensor 0:9 (unused): read by no operator"));
  CHECK(rep.nentries == 2 && !rep.entries[0].done && rep.entries[1].done);
  free(out);
  tflc_stage_report_free(&rep);
  o.format = TFLC_W_METADATA;
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_OK);
  CHECK(has_warning(&rep, "tensor 0:10: a subgraph input or output"));
  CHECK(rep.nentries == 2 && rep.entries[0].done && rep.entries[1].done);
  free(out);
  tflc_stage_report_free(&rep);
  r[1] = r[0];
  /* unknown format, NULL arguments */
  o.format = 7;
  o.ntensors = 1;
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, &out, &on, &rep), TFLC_ERR_ARG);
  tflc_stage_report_free(&rep);
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, &o, NULL, &on, NULL), TFLC_ERR_ARG);
  CHECK(tflc_compress(NULL, 0, NULL, &out, &on, NULL) != TFLC_OK);
  /* an already compressed model is refused */
  memset(&o, 0, sizeof o);
  CHECK_EQ_INT(tflc_compress(s.bytes, s.n, NULL, &out, &on, NULL), TFLC_OK);
  {
    uint8_t *again = NULL;
    size_t an = 0;
    CHECK_EQ_INT(tflc_compress(out, on, NULL, &again, &an, &rep),
                 TFLC_ERR_UNSUPPORTED);
    CHECK(strstr(rep.error, "already compressed") != NULL);
    tflc_stage_report_free(&rep);
  }
  free(out);
  free(s.bytes);
}

/* ---- model copier --------------------------------------------------------
 */

/* A model using every field the copier keeps. */
static uint8_t *feature_model(size_t *n) {
  tflc_writer *w = tflc_writer_create();
  int32_t d2[2] = {2, 3}, d1[1] = {6}, sig[2] = {-1, 3}, in[3], out[2];
  int32_t t0, t1, t2, t3, t4, t5, sg1, o0, o1, o2, o3;
  float sc[2] = {0.5f, 0.25f}, mn[1] = {-1.0f}, mx[1] = {1.0f};
  int64_t zp[1] = {3}, big[3] = {1, -2, (int64_t)1 << 40};
  int8_t k[6] = {1, 2, 3, 4, 5, 6};
  int32_t shp[2] = {3, 2};
  uint8_t copts[5] = {1, 2, 3, 4, 5}, mut[2] = {0, 1}, attrs[3] = {9, 8, 7};
  uint8_t md[7] = {'1', '.', '1', '4', '.', '0', 0};
  tflc_w_quant q;
  tflc_w_option o[6];
  tflc__writer_tensor *tt;
  tflc__writer_op *op;
  uint8_t *p;
  q.scale = sc;
  q.zero_point = NULL;
  q.count = 2;
  q.axis = 0;
  t0 = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d2, NULL, 0, "in", NULL);
  t1 = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d2, k, 6, "k", &q);
  t2 = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d1, NULL, 0, "mid", NULL);
  t3 = tflc_writer_tensor(w, 0, TFLC_INT32, 1, d1 /*unused*/, shp, 8, "shape",
                          NULL);
  t4 = tflc_writer_tensor(w, 0, TFLC_INT8, 2, shp, NULL, 0, "out", NULL);
  t5 = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 0, NULL, NULL, 0, NULL, NULL);
  /* tensor extras, set on the writer's records */
  tt = &w->sg[0].t[t1];
  tt->qmin = (float *)malloc(sizeof mn);
  tt->qmax = (float *)malloc(sizeof mx);
  memcpy(tt->qmin, mn, sizeof mn);
  memcpy(tt->qmax, mx, sizeof mx);
  tt->nqmin = tt->nqmax = 1;
  tt->nzp_set = 1;
  tt->nzp = 1; /* one zero point for two scales */
  tt->zp[0] = zp[0];
  tt->qdtype = 1; /* CustomQuantization */
  o[0] = opt_raw_vec(0, 1, copts, 5);
  o[0].align = 16;
  CHECK(tflc__writer_copy_options(o, 1, &tt->qd, &tt->nqd));
  tt = &w->sg[0].t[t0];
  tt->has_sig = 1;
  tt->sig = (int32_t *)malloc(sizeof sig);
  memcpy(tt->sig, sig, sizeof sig);
  tt->nsig = 2;
  tt->has_rank = 2;
  w->sg[0].t[t5].no_shape = 1;
  w->sg[0].t[t3].dims[0] = 2;
  /* operators: FC with options; RESHAPE with a vector option; a custom op
   * with options and flags; an op with options 2 */
  in[0] = t0;
  in[1] = t1;
  in[2] = -1;
  o[0] = opt_raw(0, 1, 1);
  o[1] = opt_raw(2, 1, 1);
  o0 = tflc_writer_op(w, 0, 9, NULL, 3, in, 1, &t2, 8, 2, o);
  in[0] = t2;
  in[1] = t3;
  o[0] = opt_raw_vec(0, 4, shp, 2);
  o1 = tflc_writer_op(w, 0, 22, NULL, 2, in, 1, &t4, 17, 1, o);
  in[0] = t4;
  o2 = tflc_writer_op(w, 0, 32, "MyOp", 2, in, 1, &t5, 0, 0, NULL);
  o3 = tflc_writer_op(w, 0, 206, NULL, 1, in, 1, &t5, 0, 0, NULL);
  CHECK(o0 == 0 && o1 == 1 && o2 == 2 && o3 == 3);
  op = &w->sg[0].op[o2];
  op->has_copts = 1;
  op->copts = (uint8_t *)malloc(5);
  memcpy(op->copts, copts, 5);
  op->ncopts = 5;
  op->has_mut = 1;
  op->mut = (uint8_t *)malloc(2);
  memcpy(op->mut, mut, 2);
  op->nmut = 2;
  op->has_inter = 1;
  op->inter = (int32_t *)malloc(4);
  op->inter[0] = t2;
  op->ninter = 1;
  op->has_dbg = 1;
  op->dbg = 4;
  op = &w->sg[0].op[o3];
  op->otype2 = 21; /* StableHLOCompositeOptions: s i [ubyte] b i */
  memset(o, 0, sizeof o);
  o[0].slot = 0;
  o[0].kind = TFLC_W_STR;
  o[0].str = "composite";
  o[1] = opt_raw(1, 4, 1);
  o[2] = opt_raw_vec(2, 1, attrs, 3);
  o[3] = opt_raw(4, 4, 7);
  o[4] = opt_raw(9, 8, (uint64_t)big[2]); /* a slot the schema lacks */
  CHECK(tflc__writer_copy_options(o, 5, &op->opts2, &op->nopts2));
  /* operator codes: versions, a deprecated-only code */
  w->oc[0].raw = 1;
  w->oc[0].dep = 9;
  w->oc[0].version = 12;
  w->oc[0].has_code = 0;
  w->oc[0].code = 0;
  w->oc[3].raw = 1;
  w->oc[3].dep = 127;
  w->oc[3].version = 1;
  w->oc[3].has_code = 1;
  tflc_writer_inputs(w, 0, 1, &t0);
  out[0] = t4;
  out[1] = t5;
  tflc_writer_outputs(w, 0, 2, out);
  tflc_writer_subgraph_name(w, 0, "main");
  w->sg[0].has_dbg = 1;
  w->sg[0].dbg = 2;
  /* a second subgraph */
  sg1 = tflc_writer_subgraph(w);
  t0 = tflc_writer_tensor(w, sg1, TFLC_FLOAT32, 1, d1, NULL, 0, "a", NULL);
  t1 = tflc_writer_tensor(w, sg1, TFLC_FLOAT32, 1, d1, NULL, 0, "b", NULL);
  tflc_writer_op(w, sg1, 19, NULL, 1, &t0, 1, &t1, 0, 0, NULL);
  tflc_writer_inputs(w, sg1, 1, &t0);
  tflc_writer_outputs(w, sg1, 1, &t1);
  tflc_writer_metadata(w, "min_runtime_version", md, sizeof md);
  tflc_writer_metadata(w, "empty", NULL, 0);
  /* model: description, metadata_buffer, a signature */
  w->raw_model = 1;
  w->version = 3;
  w->description = (char *)malloc(16);
  memcpy(w->description, "MLIR Converted.", 16);
  w->has_mbuf = 1;
  w->mbuf = (int32_t *)malloc(4);
  w->mbuf[0] = 1; /* k's buffer */
  w->nmbuf = 1;
  w->sig = (tflc__writer_signature *)calloc(1, sizeof *w->sig);
  w->nsig = 1;
  w->sig[0].key = (char *)malloc(8);
  memcpy(w->sig[0].key, "serving", 8);
  w->sig[0].has_in = w->sig[0].has_out = 1;
  w->sig[0].in =
      (tflc__writer_tensor_map *)calloc(1, sizeof(tflc__writer_tensor_map));
  w->sig[0].out =
      (tflc__writer_tensor_map *)calloc(1, sizeof(tflc__writer_tensor_map));
  w->sig[0].nin = w->sig[0].nout = 1;
  w->sig[0].in[0].name = (char *)malloc(4);
  memcpy(w->sig[0].in[0].name, "in0", 4);
  w->sig[0].out[0].name = (char *)malloc(5);
  memcpy(w->sig[0].out[0].name, "out0", 5);
  w->sig[0].out[0].tensor = 4;
  p = finish_model(w, n);
  tflc_writer_destroy(w);
  return p;
}

static void test_copy(void) {
  size_t n, cn = 0, cn2 = 0;
  uint8_t *p = feature_model(&n), *c = NULL, *c2 = NULL;
  tflc_stage_report rep;
  tflc_model a, b;
  tflc__fb fb;
  uint32_t oc, len;
  CHECK_EQ_INT(tflc_model_init(&a, p, n), TFLC_OK);
  CHECK_EQ_INT(tflc_model_copy(p, n, &c, &cn, &rep), TFLC_OK);
  CHECK(has_warning(&rep, "op 0:3 options: field 9 not in the schema"));
  CHECK_EQ_INT(tflc_model_init(&b, c, cn), TFLC_OK);
  CHECK_EQ_INT(cmp_models(&a, &b, 0), 0);
  /* the deprecated-only code stays so; versions kept */
  fb = tflc__mfb(&b);
  oc = tflc__vec_table(fb, b.opcodes, 0);
  CHECK(!tflc__has_field(fb, oc, TFLC__OC_BUILTIN));
  CHECK_EQ_INT(tflc__get_u8(fb, oc, TFLC__OC_DEPRECATED, 0), 9);
  CHECK_EQ_INT(tflc__get_i32(fb, oc, TFLC__OC_VERSION, 1), 12);
  CHECK_EQ_INT(tflc_model_op_code(&b, 0, 0), 9);
  oc = tflc__vec_table(fb, b.opcodes, 3);
  CHECK_EQ_INT(tflc__get_i32(fb, oc, TFLC__OC_BUILTIN, 0), 206);
  CHECK_EQ_INT(tflc__get_u8(fb, oc, TFLC__OC_DEPRECATED, 0), 127);
  /* metadata_buffer points at a copy of k's data */
  {
    uint32_t v = tflc__get_vec(fb, b.root, 5, 4, &len);
    const uint8_t *d;
    CHECK(v && len == 1);
    d = v ? tflc__buffer(&b, tflc__u32(fb.b + v), &len) : NULL;
    CHECK(d && len == 6 && d[0] == 1 && d[5] == 6);
  }
  /* every buffer on a 16-byte offset */
  {
    int32_t i;
    for (i = 1; i < b.num_buffers; i++) {
      const uint8_t *d = tflc__buffer(&b, (uint32_t)i, &len);
      CHECK(!d || ((size_t)(d - c) & 15) == 0);
    }
  }
  /* copying the copy gives the same bytes */
  tflc_stage_report_free(&rep);
  CHECK_EQ_INT(tflc_model_copy(c, cn, &c2, &cn2, &rep), TFLC_OK);
  CHECK(cn2 == cn && c2 && memcmp(c, c2, cn) == 0);
  tflc_stage_report_free(&rep);
  free(c2);
  free(c);
  free(p);
  /* a model of the writer's deprecated-only flavour */
  {
    tflc_writer *w = tflc_writer_create();
    int32_t d[1] = {4}, x, y;
    x = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "x", NULL);
    y = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "y", NULL);
    tflc_writer_op(w, 0, 21, NULL, 1, &x, 1, &y, 0, 0, NULL);
    tflc_writer_inputs(w, 0, 1, &x);
    tflc_writer_outputs(w, 0, 1, &y);
    tflc_writer_set_flags(w, TFLC_W_FLAG_ONLY_DEPRECATED_CODE);
    p = finish_model(w, &n);
    tflc_writer_destroy(w);
    CHECK_EQ_INT(tflc_model_copy(p, n, &c, &cn, &rep), TFLC_OK);
    CHECK_EQ_INT(tflc_model_init(&b, c, cn), TFLC_OK);
    fb = tflc__mfb(&b);
    oc = tflc__vec_table(fb, b.opcodes, 0);
    CHECK(!tflc__has_field(fb, oc, TFLC__OC_BUILTIN));
    CHECK_EQ_INT(tflc_model_op_code(&b, 0, 0), 21);
    tflc_stage_report_free(&rep);
    free(c);
    free(p);
  }
}

/* ---- binning -------------------------------------------------------------
 */

static void test_kmeans(void) {
  /* points 1 2 3 | 10 11 | 20, weights 1: optimal 3 clusters */
  const double x[6] = {1, 2, 3, 10, 11, 20}, w[6] = {1, 1, 1, 1, 1, 1};
  const double x2[5] = {0, 1, 2, 3, 4}, w2[5] = {1, 1, 1, 1, 100};
  size_t start[4];
  CHECK(tflc__kmeans(x, w, 6, 3, start));
  CHECK(start[0] == 0 && start[1] == 3 && start[2] == 5 && start[3] == 6);
  CHECK(tflc__kmeans(x, w, 6, 1, start));
  CHECK(start[0] == 0 && start[1] == 6);
  /* weights matter: the heavy point pulls 3 into its cluster (cost
   * 2 + 0.99 against 5 for {0..3} {4}) */
  CHECK(tflc__kmeans(x2, w2, 5, 2, start));
  CHECK(start[0] == 0 && start[1] == 3 && start[2] == 5);
  /* brute force check on random data: the DP finds the optimum */
  {
    double px[9], pw[9], best = 1e300, got = 0;
    size_t a, b, c, k, s2[4];
    for (k = 0; k < 9; k++) {
      px[k] = (double)k * 3 + (double)(rng() % 7);
      pw[k] = 1.0 + (double)(rng() % 4);
    }
    for (k = 1; k < 9; k++) /* sorted, distinct */
      if (px[k] <= px[k - 1])
        px[k] = px[k - 1] + 1;
    for (a = 1; a < 8; a++)
      for (b = a + 1; b < 9; b++) {
        size_t cut[4] = {0, a, b, 9};
        double cost = 0;
        for (c = 0; c < 3; c++) {
          double sw = 0, sx = 0, sxx = 0;
          for (k = cut[c]; k < cut[c + 1]; k++) {
            sw += pw[k];
            sx += pw[k] * px[k];
            sxx += pw[k] * px[k] * px[k];
          }
          cost += sxx - sx * sx / sw;
        }
        if (cost < best)
          best = cost;
      }
    CHECK(tflc__kmeans(px, pw, 9, 3, s2));
    for (c = 0; c < 3; c++) {
      double sw = 0, sx = 0, sxx = 0;
      for (k = s2[c]; k < s2[c + 1]; k++) {
        sw += pw[k];
        sx += pw[k] * px[k];
        sxx += pw[k] * px[k] * px[k];
      }
      got += sxx - sx * sx / sw;
    }
    CHECK(fabs(got - best) < 1e-6 * (1 + best));
  }
}

static void test_bin(void) {
  small s;
  tflc_bin_options o;
  tflc_stage_report rep, rep2;
  uint8_t *out = NULL, *out2 = NULL, *cz = NULL;
  size_t on = 0, on2 = 0, cn = 0;
  tflc_model m, m0;
  tflc_tensor_ref r;
  int32_t e, i;
  small_model(&s);
  memset(&o, 0, sizeof o);
  o.bits = 1; /* W has 4 values per channel -> 2 */
  CHECK_EQ_INT(tflc_bin(s.bytes, s.n, &o, &out, &on, &rep), TFLC_OK);
  CHECK_EQ_INT(rep.nentries, 1); /* default: the weights only */
  e = entry_of(&rep, 0, s.W);
  CHECK(e >= 0 && rep.entries[e].done && rep.entries[e].tables == 8 &&
        rep.entries[e].unique == 4 && rep.entries[e].unique_after == 2);
  CHECK_EQ_INT(tflc_model_init(&m, out, on), TFLC_OK);
  CHECK_EQ_INT(tflc_model_init(&m0, s.bytes, s.n), TFLC_OK);
  if (e >= 0) {
    /* W row c: values -40+3c + {0, 17, 34, 51}: pairs merge into means
     * rounded half away from zero; |change| 8.5 -> 9 or 8 */
    tflc_tensor t, t0;
    double sum = 0, mx = 0;
    CHECK_EQ_INT(tflc_model_tensor(&m, 0, s.W, &t, NULL, NULL), TFLC_OK);
    CHECK_EQ_INT(tflc_model_tensor(&m0, 0, s.W, &t0, NULL, NULL), TFLC_OK);
    for (i = 0; i < 128; i++) {
      int v0 = ((const int8_t *)t0.data)[i], v = ((const int8_t *)t.data)[i];
      double d = fabs((double)(v - v0)) * (double)(0.01f * (float)(i / 16 + 1));
      int c = i / 16, lo = -40 + 3 * c;
      double m1 = (2.0 * lo + 17) / 2, m2 = (2.0 * lo + 85) / 2;
      double r1 = m1 < 0 ? -floor(-m1 + 0.5) : floor(m1 + 0.5);
      double r2 = m2 < 0 ? -floor(-m2 + 0.5) : floor(m2 + 0.5);
      CHECK(v == (int)((v0 - lo) < 34 ? r1 : r2));
      sum += d;
      if (d > mx)
        mx = d;
    }
    CHECK(fabs(rep.entries[e].mean_abs - sum / 128) < 1e-9);
    CHECK(fabs(rep.entries[e].max_abs - mx) < 1e-9);
  }
  /* binning again changes nothing */
  CHECK_EQ_INT(tflc_bin(out, on, &o, &out2, &on2, &rep2), TFLC_OK);
  CHECK(on2 == on && out2 && memcmp(out, out2, on) == 0);
  CHECK(rep2.nentries == 1 && !rep2.entries[0].done &&
        strstr(rep2.entries[0].reason, "already at most 2"));
  tflc_stage_report_free(&rep2);
  free(out2);
  /* then compression takes W at 1 bit */
  {
    tflc_compress_options co;
    memset(&co, 0, sizeof co);
    co.format = TFLC_W_METADATA;
    CHECK_EQ_INT(tflc_compress(out, on, &co, &cz, &cn, &rep2), TFLC_OK);
    e = entry_of(&rep2, 0, s.W);
    CHECK(e >= 0 && rep2.entries[e].done && rep2.entries[e].bits == 1);
    tflc_stage_report_free(&rep2);
    free(cz);
  }
  free(out);
  tflc_stage_report_free(&rep);
  /* an explicit float / int32 list: per tensor, raw units */
  r.subgraph = 0;
  r.tensor = s.b; /* 8 distinct int32 -> 2 */
  r.bits = 0;
  o.tensors = &r;
  o.ntensors = 1;
  CHECK_EQ_INT(tflc_bin(s.bytes, s.n, &o, &out, &on, &rep), TFLC_OK);
  CHECK(rep.nentries == 1 && rep.entries[0].done &&
        rep.entries[0].unique_after == 2);
  /* b = i*1000-3: clusters {0..3}, {4..7}: means 1497, 5497 */
  CHECK(fabs(rep.entries[0].max_abs - 1500.0) < 1e-9);
  CHECK(fabs(rep.entries[0].mean_abs - 1000.0) < 1e-9);
  free(out);
  tflc_stage_report_free(&rep);
  r.tensor = s.h; /* not a constant */
  CHECK_EQ_INT(tflc_bin(s.bytes, s.n, &o, &out, &on, &rep), TFLC_ERR_ARG);
  tflc_stage_report_free(&rep);
  o.bits = 9;
  CHECK_EQ_INT(tflc_bin(s.bytes, s.n, &o, &out, &on, &rep), TFLC_ERR_ARG);
  tflc_stage_report_free(&rep);
  free(s.bytes);
}

/* Float per-channel on the last axis, and determinism. */
static void test_bin_float(void) {
  tflc_writer *w = tflc_writer_create();
  float k[4 * 50], sc[4] = {1, 1, 1, 1};
  int32_t d[2] = {50, 4}, x, t, y, in[2], i;
  tflc_w_quant q;
  tflc_bin_options o;
  tflc_stage_report rep;
  uint8_t *p, *a = NULL, *b = NULL;
  size_t n, an = 0, bn = 0;
  tflc_model m;
  tflc_tensor tt;
  for (i = 0; i < 200; i++)
    k[i] = (float)((int32_t)(rng() % 2001u) - 1000) / 100.0f +
           (float)(i % 4) * 100.0f;
  q.scale = sc;
  q.zero_point = NULL;
  q.count = 4;
  q.axis = 1;
  x = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 2, d, NULL, 0, "x", NULL);
  t = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 2, d, k, sizeof k, "k", &q);
  y = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 2, d, NULL, 0, "y", NULL);
  in[0] = x;
  in[1] = t;
  tflc_writer_op(w, 0, 3, NULL, 2, in, 1, &y, 0, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  p = finish_model(w, &n);
  tflc_writer_destroy(w);
  memset(&o, 0, sizeof o);
  o.bits = 3;
  CHECK_EQ_INT(tflc_bin(p, n, &o, &a, &an, &rep), TFLC_OK);
  CHECK(rep.nentries == 1 && rep.entries[0].done &&
        rep.entries[0].tables == 4 && rep.entries[0].unique_after == 8);
  CHECK(rep.entries[0].max_abs > 0 && rep.entries[0].max_abs < 2.0);
  tflc_stage_report_free(&rep);
  CHECK_EQ_INT(tflc_bin(p, n, &o, &b, &bn, NULL), TFLC_OK);
  CHECK(an == bn && a && b && memcmp(a, b, an) == 0);
  CHECK_EQ_INT(tflc_model_init(&m, a, an), TFLC_OK);
  CHECK_EQ_INT(tflc_model_tensor(&m, 0, t, &tt, NULL, NULL), TFLC_OK);
  { /* at most 8 values per channel (column), each near the original */
    int c, j;
    for (c = 0; c < 4; c++) {
      float seen[200];
      int ns = 0;
      for (i = 0; i < 50; i++) {
        float v = ((const float *)tt.data)[i * 4 + c];
        CHECK(fabsf(v - k[i * 4 + c]) < 2.0f);
        for (j = 0; j < ns; j++)
          if (seen[j] == v)
            break;
        if (j == ns)
          seen[ns++] = v;
      }
      CHECK(ns <= 8);
    }
  }
  free(a);
  free(b);
  free(p);
}

/* Many distinct values: neighbours are merged before the DP. */
static void test_bin_many(void) {
  const int32_t N = 70000;
  float *k = (float *)malloc((size_t)N * 4);
  tflc_writer *w = tflc_writer_create();
  int32_t d[1], x, t, y, in[2], i;
  tflc_bin_options o;
  tflc_stage_report rep;
  uint8_t *p, *a = NULL;
  size_t n, an = 0;
  d[0] = N;
  for (i = 0; i < N; i++)
    k[i] = (float)i * 0.001f + (float)(i % 7) * 1e-5f;
  x = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "x", NULL);
  t = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, k, (size_t)N * 4, "k", NULL);
  y = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "y", NULL);
  in[0] = x;
  in[1] = t;
  tflc_writer_op(w, 0, 9, NULL, 2, in, 1, &y, 0, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  p = finish_model(w, &n);
  tflc_writer_destroy(w);
  memset(&o, 0, sizeof o);
  o.bits = 8;
  CHECK_EQ_INT(tflc_bin(p, n, &o, &a, &an, &rep), TFLC_OK);
  CHECK(rep.nentries == 1 && rep.entries[0].done &&
        rep.entries[0].unique == N && rep.entries[0].unique_after == 256);
  /* uniform values in [0, 70): 256 even bins, error at most ~0.14 */
  CHECK(rep.entries[0].max_abs < 0.2 && rep.entries[0].mean_abs < 0.08);
  tflc_stage_report_free(&rep);
  free(a);
  free(p);
  free(k);
}

/* ---- malformed input ----------------------------------------------------
 * Mutated models: every stage returns an error or a model that verifies;
 * never a crash (run under ASan/UBSan). */
static void test_malformed(void) {
  small s;
  size_t n, i;
  int it, ok = 1;
  uint8_t *m;
  small_model(&s);
  n = s.n;
  m = (uint8_t *)malloc(n);
  for (it = 0; it < 3000 && m; it++) {
    uint8_t *out = NULL;
    size_t on = 0, cut = n;
    tflc_stage_report rep;
    tflc_bin_options bo;
    tflc_status st;
    tflc_model vm;
    memcpy(m, s.bytes, n);
    for (i = 0; i < 1 + (size_t)(rng() % 4); i++)
      m[rng() % n] = (uint8_t)rng();
    if (it % 7 == 0)
      cut = rng() % n;
    st = it % 3 == 0   ? tflc_model_copy(m, cut, &out, &on, &rep)
         : it % 3 == 1 ? tflc_compress(m, cut, NULL, &out, &on, &rep)
                       : (memset(&bo, 0, sizeof bo), bo.bits = 1,
                          tflc_bin(m, cut, &bo, &out, &on, &rep));
    if (st == TFLC_OK) {
      if (tflc_model_init(&vm, out, on) != TFLC_OK)
        ok = 0;
    } else if (!rep.error[0] || out) {
      ok = 0;
    }
    tflc_stage_report_free(&rep);
    free(out);
  }
  CHECK(ok);
  free(m);
  free(s.bytes);
  /* mutated spec texts: an entry list or an error with a line number */
  {
    const char *base = "tensors:\n  - subgraph: 0\n    tensor: 1\n    "
                       "compression:\n      - lut: {index_bitwidth: [4, "
                       "'x']}\n  - {subgraph: 0, tensor: 2, compression: "
                       "[{lut: {index_bitwidth: 3}}]}\n";
    static const char alphabet[] = " -:#[]{},'\"\n\tab0123&*|>~";
    char text[256];
    size_t len = strlen(base);
    ok = 1;
    for (it = 0; it < 5000; it++) {
      tflc__spec_entry *e = NULL;
      tflc_stage_report rep;
      int32_t got;
      memcpy(text, base, len + 1);
      for (i = 0; i < 1 + (size_t)(rng() % 5); i++)
        text[rng() % len] = alphabet[rng() % (sizeof alphabet - 1)];
      got = spec_parse(text, &e, NULL, 0, &rep);
      if (got < 0 && !strstr(rep.error, "spec.yaml:"))
        ok = 0;
      free(e);
      tflc_stage_report_free(&rep);
    }
    CHECK(ok);
  }
}

/* ---- compact writer -----------------------------------------------------
 */
static void test_compact(void) {
  tflc_writer *w = tflc_writer_create();
  int32_t d[1] = {16}, t[6], i;
  uint8_t data[16], *p, *q;
  size_t n, qn;
  tflc_model m;
  for (i = 0; i < 16; i++)
    data[i] = (uint8_t)i;
  for (i = 0; i < 6; i++) /* 0..2 the same data, 3 a variable with it */
    t[i] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, i < 4 ? data : NULL,
                              i < 4 ? 16 : 0, "t", NULL);
  tflc_writer_set_variable(w, 0, t[3], 1);
  tflc_writer_op(w, 0, 0, NULL, 3, t, 1, &t[4], 0, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &t[5]);
  tflc_writer_outputs(w, 0, 1, &t[4]);
  p = finish_model(w, &n);
  tflc_writer_set_flags(w, TFLC_W_FLAG_COMPACT);
  q = finish_model(w, &qn);
  CHECK(qn < n);
  CHECK_EQ_INT(tflc_model_init(&m, q, qn), TFLC_OK);
  CHECK_EQ_INT(m.num_buffers, 3); /* sentinel, shared data, the variable's */
  {
    tflc_tensor a, b;
    CHECK_EQ_INT(tflc_model_tensor(&m, 0, t[0], &a, NULL, NULL), TFLC_OK);
    CHECK_EQ_INT(tflc_model_tensor(&m, 0, t[2], &b, NULL, NULL), TFLC_OK);
    CHECK(a.data == b.data && memcmp(a.data, data, 16) == 0);
    CHECK_EQ_INT(tflc_model_tensor(&m, 0, t[3], &b, NULL, NULL), TFLC_OK);
    CHECK(a.data != b.data && memcmp(b.data, data, 16) == 0);
    CHECK((((const uint8_t *)a.data - q) & 15) == 0);
    CHECK((((const uint8_t *)b.data - q) & 15) == 0);
  }
  free(p);
  free(q);
  tflc_writer_destroy(w);
}

/* ---- against TFLM's compressor (../shared/conformance) -------------------
 */

#define SHARED "../shared/conformance"

typedef struct tcase {
  char binned[600], spec[600], meta[600], decode[600];
} tcase;

static int ends_with(const char *s, const char *t) {
  size_t a = strlen(s), b = strlen(t);
  return a >= b && strcmp(s + a - b, t) == 0;
}

/* Collects directories under `dir` (recursively) that hold model.tflite. */
static void find_models(const char *dir, char (*out)[512], int *n, int cap) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char path[512];
  if (!d)
    return;
  snprintf(path, sizeof path, "%s/model.tflite", dir);
  if (file_exists(path) && *n < cap)
    snprintf(out[(*n)++], 512, "%s", dir);
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' || strlen(dir) + strlen(e->d_name) > 400)
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (strcmp(e->d_name, "layers") != 0 && !strchr(e->d_name, '.'))
      find_models(path, out, n, cap);
  }
  closedir(d);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp((const char *)a, (const char *)b);
}

/* Reads input_K.bin of a case directory. */
static int read_inputs(const char *dir, uint8_t **in, size_t *sz, int cap) {
  int k;
  for (k = 0; k < cap; k++) {
    char path[700];
    snprintf(path, sizeof path, "%s/input_%d.bin", dir, k);
    in[k] = read_file(path, &sz[k]);
    if (!in[k])
      break;
  }
  return k;
}

/* Structure of our METADATA model against TFLM's for the same spec. */
static void check_vs_tflm_meta(const uint8_t *ours, size_t on,
                               const char *tflm_path) {
  size_t tn;
  uint8_t *t = read_file(tflm_path, &tn);
  tflc_model a, b;
  int32_t i, nt;
  if (!t)
    return;
  CHECK_EQ_INT(tflc_model_init(&a, t, tn), TFLC_OK);
  CHECK_EQ_INT(tflc_model_init(&b, ours, on), TFLC_OK);
  CHECK_EQ_INT(cmp_models(&a, &b, 1), 0);
  CHECK_EQ_INT(a.num_lut_tensors, b.num_lut_tensors);
  CHECK(b.comp_meta != 0);
  nt = tflc_model_num_tensors(&a, 0);
  for (i = 0; i < nt; i++) { /* same LutTensors: bits, channels, axis */
    tflc_const ca, cb;
    int fa = 0, fb = 0, la = tflc_model_lut(&a, 0, i, &ca, NULL, &fa),
        lb = tflc_model_lut(&b, 0, i, &cb, NULL, &fb);
    CHECK_EQ_INT(la, lb);
    if (la && lb)
      CHECK(fa == 1 && fb == 1 && ca.bits == cb.bits &&
            ca.channels == cb.channels && ca.alt_axis == cb.alt_axis &&
            cb.stride <= ca.stride);
  }
  free(t);
}

/* Our DECODE model: every DECODE output equals the binned tensor it came
 * from; operator codes in the same order as TFLM's. */
static void check_decode(const tflc_model *bin, const uint8_t *ours, size_t on,
                         const char *tflm_path) {
  tflc_model m, t;
  tflc__fb fb;
  int32_t i, no;
  size_t tn;
  uint8_t *tb = read_file(tflm_path, &tn);
  CHECK_EQ_INT(tflc_model_init(&m, ours, on), TFLC_OK);
  fb = tflc__mfb(&m);
  no = tflc_model_num_ops(&m, 0);
  for (i = 0; i < no; i++) {
    uint32_t ot = tflc__op_table(&m, tflc__subgraph(&m, 0), i), ni, nout, j;
    uint32_t iv = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &ni);
    uint32_t ov = tflc__get_vec(fb, ot, TFLC__OP_OUTPUTS, 4, &nout);
    if (tflc_model_op_code(&m, 0, i) != TFLC_OP_TFLM_DECODE)
      continue;
    for (j = 0; j < nout; j++) {
      tflc_const c;
      tflc_tensor orig;
      int32_t e = tflc__i32(fb.b + iv + 8 * j);
      uint8_t *d = decode_all(&m, 0, tflc__i32(fb.b + ov + 4 * j), &c);
      CHECK(d != NULL);
      CHECK_EQ_INT(tflc_model_tensor(bin, 0, e, &orig, NULL, NULL), TFLC_OK);
      CHECK(d && orig.data &&
            c.count * (int32_t)tflc_type_size(c.type) == (int32_t)orig.bytes &&
            memcmp(d, orig.data, orig.bytes) == 0);
      free(d);
    }
  }
  if (tb && tflc_model_init(&t, tb, tn) == TFLC_OK) {
    int32_t tno = tflc_model_num_ops(&t, 0);
    CHECK_EQ_INT(no, tno);
    for (i = 0; i < no && i < tno; i++)
      CHECK_EQ_INT(tflc_model_op_code(&m, 0, i), tflc_model_op_code(&t, 0, i));
    CHECK_EQ_INT(m.num_lut_tensors, t.num_lut_tensors);
  }
  free(tb);
}

static void shared_case(const tcase *tc) {
  size_t bn, sn, on = 0, in_sz[8], exp_n, got_n;
  uint8_t *bytes = read_file(tc->binned, &bn), *spec = NULL, *out = NULL;
  uint8_t *inputs[8], *expect, *got;
  char dir[600], path[700];
  int nin, fmt, k;
  tflc_model bin;
  tflc__spec_entry *se = NULL;
  int32_t nse = 0;
  snprintf(dir, sizeof dir, "%s", tc->binned);
  dir[strlen(dir) - strlen("/model.tflite")] = 0;
  spec = read_file(tc->spec, &sn);
  nin = read_inputs(dir, inputs, in_sz, 8);
  snprintf(path, sizeof path, "%s/output_0.bin", dir);
  expect = read_file(path, &exp_n);
  CHECK(bytes && spec && expect && nin > 0);
  if (!bytes || !spec || !expect || nin <= 0)
    goto done;
  CHECK_EQ_INT(tflc_model_init(&bin, bytes, bn), TFLC_OK);
  {
    tflc_stage_report r;
    tflc__stage s;
    memset(&s, 0, sizeof s);
    memset(&r, 0, sizeof r);
    s.rep = &r;
    CHECK_EQ_INT(tflc__spec_read(&s, (const char *)spec, sn, "spec", &se, &nse),
                 TFLC_OK);
    tflc_stage_report_free(&r);
  }
  for (fmt = TFLC_W_METADATA; fmt <= TFLC_W_DECODE; fmt++) {
    tflc_compress_options o;
    tflc_stage_report rep;
    const char *tflm = fmt == TFLC_W_METADATA ? tc->meta : tc->decode;
    size_t tn = 0;
    uint8_t *t;
    int growth;
    memset(&o, 0, sizeof o);
    o.format = fmt;
    o.spec = (const char *)spec;
    o.spec_len = sn;
    o.spec_name = tc->spec;
    CHECK_EQ_INT(tflc_compress(bytes, bn, &o, &out, &on, &rep), TFLC_OK);
    if (!out) {
      fprintf(stderr, "  %s: %s\n", tc->binned, rep.error);
      tflc_stage_report_free(&rep);
      continue;
    }
    tflc_stage_report_free(&rep);
    got = run_model(out, on, inputs, in_sz, nin, &got_n);
    CHECK(got && got_n == exp_n && memcmp(got, expect, exp_n) == 0);
    if (!got || got_n != exp_n || memcmp(got, expect, exp_n) != 0)
      fprintf(stderr, "  %s format %d: outputs differ\n", tc->binned, fmt);
    free(got);
    { /* every buffer's data on a 16-byte offset */
      tflc_model m;
      int32_t bi;
      uint32_t len;
      CHECK_EQ_INT(tflc_model_init(&m, out, on), TFLC_OK);
      for (bi = 1; bi < m.num_buffers; bi++) {
        const uint8_t *d = tflc__buffer(&m, (uint32_t)bi, &len);
        CHECK(!d || ((size_t)(d - out) & 15) == 0);
      }
    }
    t = read_file(tflm, &tn);
    if (t) {
      CHECK(on <= tn);
      if (on > tn)
        fprintf(stderr, "  %s format %d: %lu > TFLM's %lu bytes\n", tc->binned,
                fmt, (unsigned long)on, (unsigned long)tn);
    }
    free(t);
    if (fmt == TFLC_W_METADATA) {
      tflc_model m;
      CHECK_EQ_INT(tflc_model_init(&m, out, on), TFLC_OK);
      CHECK_EQ_INT(cmp_models(&bin, &m, 1), 0); /* same graph, decoded */
      check_vs_tflm_meta(out, on, tflm);
    } else {
      check_decode(&bin, out, on, tflm);
    }
    free(out);
    out = NULL;
    /* automatic mode: every spec tensor, unless it would grow (then with
     * allow_growth); outputs unchanged */
    for (growth = 0; growth < 2; growth++) {
      int32_t i;
      o.spec = NULL;
      o.allow_growth = growth;
      CHECK_EQ_INT(tflc_compress(bytes, bn, &o, &out, &on, &rep), TFLC_OK);
      for (i = 0; i < nse; i++) {
        int32_t e = entry_of(&rep, se[i].sg, se[i].tensor);
        const tflc_stage_entry *en = e >= 0 ? &rep.entries[e] : NULL;
        int ok =
            en && (en->done || (!growth && strstr(en->reason, "not smaller") &&
                                en->bytes_after >= en->bytes_before));
        CHECK(ok);
        if (!ok)
          fprintf(stderr, "  %s auto format %d: tensor %d:%d not taken: %s\n",
                  tc->binned, fmt, se[i].sg, se[i].tensor,
                  en ? en->reason : "not a candidate");
      }
      tflc_stage_report_free(&rep);
      got = run_model(out, on, inputs, in_sz, nin, &got_n);
      CHECK(got && got_n == exp_n && memcmp(got, expect, exp_n) == 0);
      free(got);
      free(out);
      out = NULL;
    }
  }
done:
  for (k = 0; k < nin; k++)
    free(inputs[k]);
  free(se);
  free(expect);
  free(spec);
  free(bytes);
}

static void test_shared_compressed(void) {
  static char dirs[4096][512];
  int n = 0, i, ncase = 0;
  find_models(SHARED "/models/compressed", dirs, &n, 4096);
  find_models(SHARED "/ops", dirs, &n, 4096);
  if (n == 0) {
    printf("(" SHARED " not found: TFLM comparisons skipped)\n");
    return;
  }
  qsort(dirs, (size_t)n, sizeof dirs[0], cmp_str);
  for (i = 0; i < n; i++) {
    tcase tc;
    char base[512];
    if (ends_with(dirs[i], "/binned")) {
      snprintf(base, sizeof base, "%s", dirs[i]);
      base[strlen(base) - strlen("/binned")] = 0;
      snprintf(tc.spec, sizeof tc.spec, "%s/spec.yaml", base);
      snprintf(tc.meta, sizeof tc.meta, "%s/meta/model.tflite", base);
      snprintf(tc.decode, sizeof tc.decode, "%s/decode/model.tflite", base);
    } else if (ends_with(dirs[i], "_binned")) {
      snprintf(base, sizeof base, "%s", dirs[i]);
      base[strlen(base) - strlen("_binned")] = 0;
      snprintf(tc.spec, sizeof tc.spec, "%s/spec.yaml", dirs[i]);
      snprintf(tc.meta, sizeof tc.meta, "%s_meta/model.tflite", base);
      snprintf(tc.decode, sizeof tc.decode, "%s_decode/model.tflite", base);
    } else {
      continue;
    }
    snprintf(tc.binned, sizeof tc.binned, "%s/model.tflite", dirs[i]);
    if (!file_exists(tc.spec))
      continue;
    shared_case(&tc);
    ncase++;
  }
  CHECK(ncase >= 5);
  printf("(%d binned models compared with TFLM's compressor)\n", ncase);
}

/* Every conformance model survives the copier unchanged. */
static void test_shared_copy(void) {
  static char dirs[4096][512];
  int n = 0, i, ncopied = 0;
  find_models(SHARED, dirs, &n, 4096);
  for (i = 0; i < n; i++) {
    char path[600];
    size_t bn, cn = 0;
    uint8_t *b, *c = NULL;
    tflc_model a, m;
    tflc_stage_report rep;
    tflc_status st;
    snprintf(path, sizeof path, "%s/model.tflite", dirs[i]);
    b = read_file(path, &bn);
    if (!b || tflc_model_init(&a, b, bn) != TFLC_OK) {
      free(b);
      continue;
    }
    st = tflc_model_copy(b, bn, &c, &cn, &rep);
    if (a.num_lut_tensors > 0) {
      CHECK_EQ_INT(st, TFLC_ERR_UNSUPPORTED);
    } else {
      CHECK_EQ_INT(st, TFLC_OK);
      CHECK(st == TFLC_OK && tflc_model_init(&m, c, cn) == TFLC_OK &&
            cmp_models(&a, &m, 0) == 0 && cn <= bn + 64);
      CHECK_EQ_INT(rep.nwarnings, 0);
      ncopied++;
    }
    tflc_stage_report_free(&rep);
    free(c);
    free(b);
  }
  if (n)
    printf("(%d conformance models copied and compared)\n", ncopied);
}

int main(void) {
  rng_seed(12345u);
  RUN(test_spec_reader);
  RUN(test_roundtrip_types);
  RUN(test_auto_selection);
  RUN(test_explicit_lists);
  RUN(test_copy);
  RUN(test_kmeans);
  RUN(test_bin);
  RUN(test_bin_float);
  RUN(test_bin_many);
  RUN(test_compact);
  RUN(test_malformed);
  RUN(test_shared_compressed);
  RUN(test_shared_copy);
  return harness_report();
}

/* tests/test_writer.c - unit tests of the model writer (tflc_write.h).
 *
 * The models are read back with a small flatbuffer reader written here,
 * independent of the writer and of the runtime's walker: it follows root
 * offsets, vtables, uoffsets and vectors, and counts every read that is out
 * of bounds or not aligned to its size (r.bad), every backward or zero
 * uoffset and every string without its NUL. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#endif
#include "../tflc_write.h"
#include "harness.h"
#include "models.h"

/* ---- independent flatbuffer reader ----------------------------------------
 */

typedef struct fbr {
  const uint8_t *p;
  size_t n;
  int bad;
} fbr;

static fbr fbr_make(const uint8_t *p, size_t n) {
  fbr r;
  r.p = p;
  r.n = n;
  r.bad = 0;
  return r;
}

/* Little-endian read of `size` bytes; must be in bounds and aligned. */
static uint64_t rd(fbr *r, size_t pos, size_t size) {
  uint64_t v = 0;
  size_t k;
  if (pos > r->n || size > r->n - pos || pos % size != 0) {
    r->bad++;
    return 0;
  }
  for (k = 0; k < size; k++)
    v |= (uint64_t)r->p[pos + k] << (8 * k);
  return v;
}

static uint32_t rd32(fbr *r, size_t pos) {
  return (uint32_t)rd(r, pos, 4);
}

/* Follows the uoffset stored at `at` (must be forward and in bounds). */
static size_t fb_ref(fbr *r, size_t at) {
  uint32_t u = rd32(r, at);
  if (u == 0 || u >= r->n - at) {
    r->bad++;
    return 0;
  }
  return at + u;
}

/* Position of field `slot` of the table at tb, 0 when absent. */
static size_t fb_field(fbr *r, size_t tb, unsigned slot) {
  int32_t soff;
  size_t vt;
  uint32_t vsize, tsize, o;
  if (tb == 0)
    return 0;
  soff = (int32_t)rd32(r, tb);
  if ((soff > 0 && (size_t)soff > tb) ||
      (soff <= 0 && (size_t)(-(int64_t)soff) >= r->n - tb)) {
    r->bad++;
    return 0;
  }
  vt = soff > 0 ? tb - (size_t)soff : tb + (size_t)(-(int64_t)soff);
  vsize = (uint32_t)rd(r, vt, 2);
  tsize = (uint32_t)rd(r, vt + 2, 2);
  if (vsize < 4 || vsize % 2 || tsize < 4 || tsize > r->n - tb) {
    r->bad++;
    return 0;
  }
  if (4 + 2 * (size_t)slot + 2 > vsize)
    return 0;
  o = (uint32_t)rd(r, vt + 4 + 2 * (size_t)slot, 2);
  if (o == 0)
    return 0;
  if (o >= tsize) {
    r->bad++;
    return 0;
  }
  return tb + o;
}

static int fb_has(fbr *r, size_t tb, unsigned slot) {
  return fb_field(r, tb, slot) != 0;
}

/* Scalar field of `size` bytes, `def` when absent. */
static uint64_t fb_u(fbr *r, size_t tb, unsigned slot, size_t size,
                     uint64_t def) {
  size_t f = fb_field(r, tb, slot);
  return f ? rd(r, f, size) : def;
}

/* Table, vector or string referenced by field `slot`, 0 when absent. */
static size_t fb_sub(fbr *r, size_t tb, unsigned slot) {
  size_t f = fb_field(r, tb, slot);
  return f ? fb_ref(r, f) : 0;
}

/* Vector length (0 for an absent vector); checks the elements fit. */
static uint32_t fb_len(fbr *r, size_t vec, size_t esize) {
  uint32_t n;
  if (vec == 0)
    return 0;
  n = rd32(r, vec);
  if ((size_t)n > (r->n - vec - 4) / esize) {
    r->bad++;
    return 0;
  }
  return n;
}

static size_t fb_elem_table(fbr *r, size_t vec, uint32_t i) {
  return fb_ref(r, vec + 4 + 4 * (size_t)i);
}

static int32_t fb_i32(fbr *r, size_t vec, uint32_t i) {
  return (int32_t)rd32(r, vec + 4 + 4 * (size_t)i);
}

static const char *fb_str(fbr *r, size_t tb, unsigned slot) {
  size_t s = fb_sub(r, tb, slot);
  uint32_t n;
  if (!s)
    return NULL;
  n = fb_len(r, s, 1);
  if ((size_t)n >= r->n - s - 4 || r->p[s + 4 + n] != 0) {
    r->bad++;
    return NULL;
  }
  return (const char *)r->p + s + 4;
}

static float f32_of(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* ---- TFLite model accessors ------------------------------------------------
 */

static size_t m_root(fbr *r) {
  return fb_ref(r, 0);
}

static uint32_t m_count(fbr *r, unsigned slot) {
  return fb_len(r, fb_sub(r, m_root(r), slot), 4);
}

static size_t m_entry(fbr *r, unsigned slot, uint32_t i) {
  size_t v = fb_sub(r, m_root(r), slot);
  if (i >= fb_len(r, v, 4)) {
    r->bad++;
    return 0;
  }
  return fb_elem_table(r, v, i);
}

static size_t m_opcode(fbr *r, uint32_t i) {
  return m_entry(r, 1, i);
}
static size_t m_subgraph(fbr *r, uint32_t i) {
  return m_entry(r, 2, i);
}

/* Buffer data (NULL when the buffer has no data vector); checks the data
 * starts on a 16-byte file offset. */
static const uint8_t *m_buffer(fbr *r, uint32_t i, size_t *len) {
  size_t b = m_entry(r, 4, i), d = fb_sub(r, b, 0);
  *len = 0;
  if (!d)
    return NULL;
  *len = fb_len(r, d, 1);
  if ((d + 4) % 16 != 0)
    r->bad++;
  return r->p + d + 4;
}

static uint32_t sg_count(fbr *r, uint32_t sg, unsigned slot) {
  return fb_len(r, fb_sub(r, m_subgraph(r, sg), slot), 4);
}

static int32_t sg_list(fbr *r, uint32_t sg, unsigned slot, uint32_t i) {
  size_t v = fb_sub(r, m_subgraph(r, sg), slot);
  if (i >= fb_len(r, v, 4)) {
    r->bad++;
    return -999;
  }
  return fb_i32(r, v, i);
}

typedef struct tinfo {
  int has_shape;
  uint32_t rank;
  int32_t dims[8];
  int type;
  uint32_t buffer;
  const char *name;
  int has_q;
  uint32_t nscale, nzp;
  float scale[8];
  int64_t zp[8];
  int32_t axis;
  int is_var;
} tinfo;

static tinfo m_tensor(fbr *r, uint32_t sg, uint32_t i) {
  tinfo t;
  size_t v = fb_sub(r, m_subgraph(r, sg), 0), tb, s, q;
  uint32_t k;
  memset(&t, 0, sizeof t);
  if (i >= fb_len(r, v, 4)) {
    r->bad++;
    return t;
  }
  tb = fb_elem_table(r, v, i);
  s = fb_sub(r, tb, 0);
  t.has_shape = s != 0;
  t.rank = fb_len(r, s, 4);
  for (k = 0; k < t.rank && k < 8; k++)
    t.dims[k] = fb_i32(r, s, k);
  t.type = (int)(int8_t)(uint8_t)fb_u(r, tb, 1, 1, 0);
  t.buffer = (uint32_t)fb_u(r, tb, 2, 4, 0);
  t.name = fb_str(r, tb, 3);
  q = fb_sub(r, tb, 4);
  t.has_q = q != 0;
  t.is_var = (int)fb_u(r, tb, 5, 1, 0);
  if (q) {
    size_t sv = fb_sub(r, q, 2), zv = fb_sub(r, q, 3);
    t.nscale = fb_len(r, sv, 4);
    t.nzp = fb_len(r, zv, 8);
    for (k = 0; k < t.nscale && k < 8; k++)
      t.scale[k] = f32_of(rd32(r, sv + 4 + 4 * k));
    for (k = 0; k < t.nzp && k < 8; k++)
      t.zp[k] = (int64_t)rd(r, zv + 4 + 8 * k, 8);
    t.axis = (int32_t)fb_u(r, q, 6, 4, 0);
  }
  return t;
}

typedef struct oinfo {
  uint32_t opcode;
  uint32_t nin, nout;
  int32_t in[16], out[16];
  int otype;
  size_t opts; /* options table position, 0 when absent */
  int has_custom_options;
} oinfo;

static oinfo m_op(fbr *r, uint32_t sg, uint32_t i) {
  oinfo o;
  size_t v = fb_sub(r, m_subgraph(r, sg), 3), tb, a;
  uint32_t k;
  memset(&o, 0, sizeof o);
  if (i >= fb_len(r, v, 4)) {
    r->bad++;
    return o;
  }
  tb = fb_elem_table(r, v, i);
  o.opcode = (uint32_t)fb_u(r, tb, 0, 4, 0);
  a = fb_sub(r, tb, 1);
  o.nin = fb_len(r, a, 4);
  for (k = 0; k < o.nin && k < 16; k++)
    o.in[k] = fb_i32(r, a, k);
  a = fb_sub(r, tb, 2);
  o.nout = fb_len(r, a, 4);
  for (k = 0; k < o.nout && k < 16; k++)
    o.out[k] = fb_i32(r, a, k);
  o.otype = (int)fb_u(r, tb, 3, 1, 0);
  o.opts = fb_sub(r, tb, 4);
  o.has_custom_options = fb_has(r, tb, 5);
  return o;
}

/* Effective builtin code of an operator code (max of both fields). */
static int32_t m_code(fbr *r, uint32_t oc) {
  size_t t = m_opcode(r, oc);
  int32_t dep = (int32_t)(int8_t)(uint8_t)fb_u(r, t, 0, 1, 0);
  int32_t code = (int32_t)fb_u(r, t, 3, 4, 0);
  return code > dep ? code : dep;
}

/* Visits every table, vector and string of the model and of its buffers
 * (including external ones); returns the number of defects found. */
static int walk_model(fbr *r) {
  size_t m = m_root(r);
  uint32_t i, j, k, n;
  if (fb_u(r, m, 0, 4, 0) != 3)
    r->bad++;
  (void)fb_str(r, m, 3);
  n = m_count(r, 1);
  for (i = 0; i < n; i++) {
    size_t t = m_opcode(r, i);
    (void)fb_u(r, t, 0, 1, 0);
    (void)fb_str(r, t, 1);
    (void)fb_u(r, t, 2, 4, 1);
    (void)fb_u(r, t, 3, 4, 0);
  }
  n = m_count(r, 2);
  for (i = 0; i < n; i++) {
    uint32_t nt = sg_count(r, i, 0), nop = sg_count(r, i, 3);
    (void)fb_str(r, m_subgraph(r, i), 4);
    for (j = 0; j < nt; j++) {
      tinfo t = m_tensor(r, i, j);
      if (t.buffer >= m_count(r, 4))
        r->bad++;
    }
    for (j = 0; j < sg_count(r, i, 1); j++)
      (void)sg_list(r, i, 1, j);
    for (j = 0; j < sg_count(r, i, 2); j++)
      (void)sg_list(r, i, 2, j);
    for (j = 0; j < nop; j++) {
      oinfo o = m_op(r, i, j);
      if (o.opcode >= m_count(r, 1))
        r->bad++;
      if (o.otype && !o.opts)
        r->bad++;
      if (o.opts) /* the vtable and its 4 + 2n layout */
        for (k = 0; k < 16; k++)
          (void)fb_field(r, o.opts, k);
    }
  }
  n = m_count(r, 4);
  for (i = 0; i < n; i++) {
    size_t len, b = m_entry(r, 4, i);
    uint64_t off = fb_u(r, b, 1, 8, 0), sz = fb_u(r, b, 2, 8, 0);
    (void)m_buffer(r, i, &len);
    if (off > 1 && (off % 16 != 0 || off > r->n || sz > r->n - off))
      r->bad++;
  }
  n = m_count(r, 6);
  for (i = 0; i < n; i++) {
    size_t t = m_entry(r, 6, i);
    (void)fb_str(r, t, 0);
    if (fb_u(r, t, 1, 4, 0) >= m_count(r, 4))
      r->bad++;
  }
  return r->bad;
}

/* ---- helpers
 * ------------------------------------------------------------------ */

/* "0110..." -> bytes, MSB first, zero padded. */

/* Looks up the COMPRESSION_METADATA entry; returns its nested root or 0
 * and sets *sub to a reader over the nested flatbuffer. */
static size_t m_compression(fbr *r, fbr *sub) {
  uint32_t i, n = m_count(r, 6);
  for (i = 0; i < n; i++) {
    size_t t = m_entry(r, 6, i), len;
    const char *name = fb_str(r, t, 0);
    const uint8_t *d;
    if (!name || strcmp(name, "COMPRESSION_METADATA") != 0)
      continue;
    d = m_buffer(r, (uint32_t)fb_u(r, t, 1, 4, 0), &len);
    if (!d)
      return 0;
    *sub = fbr_make(d, len);
    return fb_ref(sub, 0);
  }
  return 0;
}

/* ---- pack_indices ----------------------------------------------------------
 */

static void test_pack_indices(void) {
  uint8_t out[16], want[16];
  size_t n;
  {
    const uint32_t idx[4] = {7, 0, 3, 2};
    memset(out, 0xff, sizeof out);
    tflc_writer_pack_indices(idx, 4, 3, out);
    CHECK_EQ_INT(out[0], 0xE1);
    CHECK_EQ_INT(out[1], 0xA0);
    CHECK_EQ_INT(out[2], 0xff); /* nothing written past ceil(12/8) */
    CHECK_EQ_INT(tflc_writer_packed_size(4, 3), 2);
  }
  { /* seed: INT16 example, bit width 3 */
    const uint32_t idx[10] = {1, 3, 3, 2, 4, 5, 0, 2, 1, 3};
    n = bits_to_bytes("00101101101010010100001000101100", want);
    CHECK_EQ_INT(n, 4);
    CHECK_EQ_INT(tflc_writer_packed_size(10, 3), 4);
    tflc_writer_pack_indices(idx, 10, 3, out);
    CHECK_EQ_MEM(out, want, 4);
  }
  { /* seed: per-channel example */
    const uint32_t idx[10] = {2, 3, 3, 1, 0, 3, 0, 1, 2, 4};
    n = bits_to_bytes("01001101100100001100000101010000", want);
    tflc_writer_pack_indices(idx, 10, 3, out);
    CHECK_EQ_MEM(out, want, n);
  }
  { /* other widths; indices masked to the width */
    const uint32_t idx[9] = {1, 0, 1, 1, 0, 0, 0, 1, 1};
    const uint32_t i8[2] = {0xAB, 0x1CD};
    const uint32_t i5[3] = {31, 1, 16};
    const uint32_t i7[2] = {0x7f, 0x01};
    tflc_writer_pack_indices(idx, 9, 1, out);
    CHECK_EQ_INT(out[0], 0xB1);
    CHECK_EQ_INT(out[1], 0x80);
    tflc_writer_pack_indices(i8, 2, 8, out);
    CHECK_EQ_INT(out[0], 0xAB);
    CHECK_EQ_INT(out[1], 0xCD);
    /* 11111 00001 10000 + 0 pad: 11111000 01100000 */
    tflc_writer_pack_indices(i5, 3, 5, out);
    CHECK_EQ_INT(out[0], 0xF8);
    CHECK_EQ_INT(out[1], 0x60);
    CHECK_EQ_INT(tflc_writer_packed_size(3, 5), 2);
    /* 1111111 0000001 + 00: 11111110 00000100 */
    tflc_writer_pack_indices(i7, 2, 7, out);
    CHECK_EQ_INT(out[0], 0xFE);
    CHECK_EQ_INT(out[1], 0x04);
  }
  CHECK_EQ_INT(tflc_writer_packed_size(0, 4), 0);
  CHECK_EQ_INT(tflc_writer_packed_size(17, 7), 15);
  CHECK_EQ_INT(tflc_writer_packed_size(5, 0), 0);
  CHECK_EQ_INT(tflc_writer_packed_size(5, 33), 0);
}

/* ---- model structure -------------------------------------------------------
 */

static void test_basic_model(void) {
  tflc_writer *w = tflc_writer_create();
  int32_t d4[4] = {1, 2, 3, 4}, d1[1] = {3}, x, k, y, s, in[3];
  const int8_t wts[3] = {1, -2, 3};
  const float sc[3] = {0.5f, 0.25f, 0.125f};
  const int64_t zp[3] = {-3, 0, 5000000000LL};
  tflc_w_quant q;
  uint8_t *p;
  size_t n, len;
  fbr r;
  tinfo t;
  oinfo o;
  const uint8_t *bd;
  q.scale = sc;
  q.zero_point = zp;
  q.count = 3;
  q.axis = 0;
  CHECK(w != NULL);
  x = tflc_writer_tensor(w, 0, TFLC_INT8, 4, d4, NULL, 0, "input", NULL);
  k = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d1, wts, 3, "k", &q);
  q.zero_point = NULL;
  q.axis = 2;
  y = tflc_writer_tensor(w, 0, TFLC_INT8, 4, d4, NULL, 0, NULL, &q);
  s = tflc_writer_tensor(w, 0, TFLC_INT32, 0, NULL, NULL, 0, "scalar", NULL);
  CHECK_EQ_INT(x, 0);
  CHECK_EQ_INT(k, 1);
  CHECK_EQ_INT(y, 2);
  CHECK_EQ_INT(s, 3);
  tflc_writer_set_variable(w, 0, s, 1);
  in[0] = x;
  in[1] = k;
  in[2] = -1;
  CHECK_EQ_INT(tflc_writer_op(w, 0, 0, NULL, 2, in, 1, &y, 0, 0, NULL), 0);
  CHECK_EQ_INT(tflc_writer_op(w, 0, 0, NULL, 3, in, 1, &y, 0, 0, NULL), 1);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  tflc_writer_subgraph_name(w, 0, "main");
  p = finish_model(w, &n);
  r = fbr_make(p, n);
  CHECK_EQ_MEM(p + 4, "TFL3", 4);
  CHECK_EQ_INT(walk_model(&r), 0);
  CHECK_EQ_INT(fb_u(&r, m_root(&r), 0, 4, 0), 3);
  CHECK(fb_str(&r, m_root(&r), 3) != NULL &&
        strcmp(fb_str(&r, m_root(&r), 3), "tflc") == 0);
  CHECK_EQ_INT(m_count(&r, 1), 1); /* ADD deduplicated */
  CHECK_EQ_INT(m_count(&r, 2), 1);
  CHECK_EQ_INT(m_count(&r, 4), 2);   /* sentinel + k */
  CHECK(!fb_has(&r, m_root(&r), 6)); /* no metadata */
  /* buffer 0: the empty sentinel */
  CHECK(m_buffer(&r, 0, &len) == NULL);
  CHECK(!fb_has(&r, m_entry(&r, 4, 0), 0) &&
        !fb_has(&r, m_entry(&r, 4, 0), 1) && !fb_has(&r, m_entry(&r, 4, 0), 2));
  bd = m_buffer(&r, 1, &len);
  CHECK(bd != NULL && len == 3 && memcmp(bd, wts, 3) == 0);
  /* opcode: ADD = 0, both fields written */
  CHECK(fb_has(&r, m_opcode(&r, 0), 0) && fb_has(&r, m_opcode(&r, 0), 3));
  CHECK_EQ_INT(fb_u(&r, m_opcode(&r, 0), 2, 4, 0), 1);
  CHECK(!fb_has(&r, m_opcode(&r, 0), 1));
  /* subgraph */
  CHECK(strcmp(fb_str(&r, m_subgraph(&r, 0), 4), "main") == 0);
  CHECK_EQ_INT(sg_count(&r, 0, 0), 4);
  CHECK_EQ_INT(sg_count(&r, 0, 1), 1);
  CHECK_EQ_INT(sg_list(&r, 0, 1, 0), x);
  CHECK_EQ_INT(sg_list(&r, 0, 2, 0), y);
  CHECK_EQ_INT(sg_count(&r, 0, 3), 2);
  /* tensors */
  t = m_tensor(&r, 0, 0);
  CHECK(t.has_shape && t.rank == 4 && t.dims[0] == 1 && t.dims[3] == 4);
  CHECK_EQ_INT(t.type, TFLC_INT8);
  CHECK_EQ_INT(t.buffer, 0);
  CHECK(t.name && strcmp(t.name, "input") == 0);
  CHECK(!t.has_q && !t.is_var);
  t = m_tensor(&r, 0, 1);
  CHECK_EQ_INT(t.buffer, 1);
  CHECK(t.has_q && t.nscale == 3 && t.nzp == 3);
  CHECK(t.scale[0] == 0.5f && t.scale[1] == 0.25f && t.scale[2] == 0.125f);
  CHECK(t.zp[0] == -3 && t.zp[1] == 0 && t.zp[2] == 5000000000LL);
  CHECK_EQ_INT(t.axis, 0);
  t = m_tensor(&r, 0, 2);
  CHECK(t.name == NULL);
  CHECK(t.has_q && t.nzp == 3 && t.zp[0] == 0 && t.zp[2] == 0);
  CHECK_EQ_INT(t.axis, 2);
  t = m_tensor(&r, 0, 3);
  CHECK(t.has_shape && t.rank == 0); /* scalar: explicit empty shape */
  CHECK_EQ_INT(t.type, TFLC_INT32);
  CHECK_EQ_INT(t.is_var, 1);
  /* operators */
  o = m_op(&r, 0, 1);
  CHECK_EQ_INT(o.opcode, 0);
  CHECK(o.nin == 3 && o.in[0] == 0 && o.in[1] == 1 && o.in[2] == -1);
  CHECK(o.nout == 1 && o.out[0] == 2);
  CHECK(o.otype == 0 && o.opts == 0 && !o.has_custom_options);
  free(p);
  tflc_writer_destroy(w);
}

static void test_opcodes(void) {
  tflc_writer *w = tflc_writer_create();
  int32_t d[1] = {1}, a, in[1], out[1];
  uint8_t *p, *p2;
  size_t n, n2, t;
  fbr r;
  a = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "a", NULL);
  in[0] = out[0] = a;
  CHECK_EQ_INT(tflc_writer_op(w, 0, 3, NULL, 1, in, 1, out, 0, 0, NULL), 0);
  CHECK_EQ_INT(tflc_writer_op(w, 0, 32, "Foo", 1, in, 1, out, 0, 0, NULL), 1);
  CHECK_EQ_INT(tflc_writer_op(w, 0, 32, "Bar", 1, in, 1, out, 0, 0, NULL), 2);
  CHECK_EQ_INT(tflc_writer_op(w, 0, 3, NULL, 1, in, 1, out, 0, 0, NULL), 3);
  CHECK_EQ_INT(tflc_writer_op(w, 0, 32, "Foo", 1, in, 1, out, 0, 0, NULL), 4);
  CHECK_EQ_INT(tflc_writer_op(w, 0, 129, NULL, 1, in, 1, out, 0, 0, NULL), 5);
  CHECK_EQ_INT(tflc_writer_op(w, 0, 127, NULL, 1, in, 1, out, 0, 0, NULL), 6);
  CHECK_EQ_INT(tflc_writer_op(w, 0, -1, NULL, 1, in, 1, out, 0, 0, NULL), -1);
  p = finish_model(w, &n);
  r = fbr_make(p, n);
  CHECK_EQ_INT(walk_model(&r), 0);
  CHECK_EQ_INT(m_count(&r, 1), 5);
  CHECK_EQ_INT(m_code(&r, 0), 3);
  CHECK_EQ_INT(m_code(&r, 1), 32);
  CHECK(strcmp(fb_str(&r, m_opcode(&r, 1), 1), "Foo") == 0);
  CHECK(strcmp(fb_str(&r, m_opcode(&r, 2), 1), "Bar") == 0);
  /* code > 127: deprecated field holds 127 */
  t = m_opcode(&r, 3);
  CHECK_EQ_INT(fb_u(&r, t, 0, 1, 0), 127);
  CHECK_EQ_INT(fb_u(&r, t, 3, 4, 0), 129);
  CHECK_EQ_INT(m_code(&r, 3), 129);
  CHECK_EQ_INT(m_code(&r, 4), 127);
  CHECK_EQ_INT(m_op(&r, 0, 3).opcode, 0);
  CHECK_EQ_INT(m_op(&r, 0, 4).opcode, 1);
  CHECK_EQ_INT(m_op(&r, 0, 5).opcode, 3);
  free(p);
  /* deprecated-only: fails while a code > 127 is in use */
  tflc_writer_set_flags(w, TFLC_W_FLAG_ONLY_DEPRECATED_CODE);
  p = (uint8_t *)1;
  CHECK_EQ_INT(tflc_writer_finish(w, &p, &n), TFLC_ERR_UNSUPPORTED);
  CHECK(p == NULL && n == 0);
  tflc_writer_destroy(w);
  w = tflc_writer_create();
  a = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "a", NULL);
  in[0] = out[0] = a;
  tflc_writer_op(w, 0, 9, NULL, 1, in, 1, out, 0, 0, NULL);
  tflc_writer_op(w, 0, 32, "X", 1, in, 1, out, 0, 0, NULL);
  tflc_writer_op(w, 0, 0, NULL, 1, in, 1, out, 0, 0, NULL);
  p2 = finish_model(w, &n2); /* both fields */
  tflc_writer_set_flags(w, TFLC_W_FLAG_ONLY_DEPRECATED_CODE);
  p = finish_model(w, &n);
  r = fbr_make(p, n);
  CHECK_EQ_INT(walk_model(&r), 0);
  CHECK(n < n2);
  t = m_opcode(&r, 0);
  CHECK(fb_has(&r, t, 0) && !fb_has(&r, t, 3));
  CHECK_EQ_INT(fb_u(&r, t, 0, 1, 99), 9);
  t = m_opcode(&r, 1);
  CHECK(!fb_has(&r, t, 3) && strcmp(fb_str(&r, t, 1), "X") == 0);
  CHECK_EQ_INT(fb_u(&r, t, 0, 1, 99), 32);
  t = m_opcode(&r, 2);
  CHECK(fb_has(&r, t, 0) && !fb_has(&r, t, 3));
  CHECK_EQ_INT(fb_u(&r, t, 0, 1, 99), 0);
  CHECK_EQ_INT(m_code(&r, 2), 0);
  free(p);
  free(p2);
  /* no identifier */
  tflc_writer_set_flags(w, TFLC_W_FLAG_NO_IDENTIFIER);
  p = finish_model(w, &n);
  r = fbr_make(p, n);
  CHECK(memcmp(p + 4, "TFL3", 4) != 0);
  CHECK_EQ_INT(walk_model(&r), 0);
  CHECK_EQ_INT(m_count(&r, 1), 3);
  free(p);
  tflc_writer_destroy(w);
}

static void test_options(void) {
  tflc_writer *w = tflc_writer_create();
  int32_t d[1] = {1}, a, shape[3] = {2, -1, 7};
  tflc_w_option o[8];
  uint8_t *p;
  size_t n, tb;
  fbr r;
  oinfo op;
  a = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "a", NULL);
  /* Conv2DOptions: padding VALID, strides 2/3, RELU6, dilation 4/5 */
  o[0] = opt_u8(0, 1);
  o[1] = opt_i32(1, 2);
  o[2] = opt_i32(2, 3);
  o[3] = opt_u8(3, 3);
  o[4] = opt_i32(5, 5);
  o[5] = opt_i32(4, 4);
  CHECK_EQ_INT(tflc_writer_op(w, 0, 3, NULL, 1, &a, 1, &a, 1, 6, o), 0);
  /* SoftmaxOptions beta */
  o[0] = opt_f32(0, 0.75f);
  CHECK_EQ_INT(tflc_writer_op(w, 0, 25, NULL, 1, &a, 1, &a, 9, 1, o), 1);
  /* ReshapeOptions new_shape */
  o[0] = opt_u8(0, 0);
  o[0].kind = TFLC_W_I32_VEC;
  o[0].vec = shape;
  o[0].vec_len = 3;
  CHECK_EQ_INT(tflc_writer_op(w, 0, 22, NULL, 1, &a, 1, &a, 17, 1, o), 2);
  /* VarHandleOptions: two strings; AddOptions pot_scale_int16 = false */
  o[0] = opt_u8(0, 0);
  o[0].kind = TFLC_W_STR;
  o[0].str = "box";
  o[1] = opt_u8(1, 0);
  o[1].kind = TFLC_W_STR;
  o[1].str = "shared_name";
  CHECK_EQ_INT(tflc_writer_op(w, 0, 142, NULL, 0, NULL, 1, &a, 111, 2, o), 3);
  o[0] = opt_u8(1, 0);
  o[1] = opt_u8(0, 1);
  CHECK_EQ_INT(tflc_writer_op(w, 0, 0, NULL, 1, &a, 1, &a, 11, 2, o), 4);
  /* options type with no fields: an empty table; mixed sizes */
  CHECK_EQ_INT(tflc_writer_op(w, 0, 34, NULL, 1, &a, 1, &a, 22, 0, NULL), 5);
  o[0] = opt_u8(7, 200);
  o[1] = opt_i32(1, -123456);
  o[2] = opt_u8(0, 1);
  o[3] = opt_f32(3, -1.5f);
  o[4] = opt_u8(4, 0);
  o[4].kind = TFLC_W_I32_VEC; /* empty vector */
  CHECK_EQ_INT(tflc_writer_op(w, 0, 99, NULL, 1, &a, 1, &a, 200, 5, o), 6);
  /* errors: duplicate slot, options without a type, bad kind, NULL str */
  o[0] = opt_u8(2, 1);
  o[1] = opt_i32(2, 1);
  CHECK_EQ_INT(tflc_writer_op(w, 0, 3, NULL, 1, &a, 1, &a, 1, 2, o), -1);
  CHECK_EQ_INT(tflc_writer_op(w, 0, 3, NULL, 1, &a, 1, &a, 0, 1, o), -1);
  o[0].kind = 9;
  CHECK_EQ_INT(tflc_writer_op(w, 0, 3, NULL, 1, &a, 1, &a, 1, 1, o), -1);
  o[0].kind = TFLC_W_STR;
  o[0].str = NULL;
  CHECK_EQ_INT(tflc_writer_op(w, 0, 3, NULL, 1, &a, 1, &a, 1, 1, o), -1);
  CHECK_EQ_INT(tflc_writer_status(w), TFLC_OK);
  p = finish_model(w, &n);
  r = fbr_make(p, n);
  CHECK_EQ_INT(walk_model(&r), 0);
  CHECK_EQ_INT(sg_count(&r, 0, 3), 7);
  op = m_op(&r, 0, 0);
  CHECK_EQ_INT(op.otype, 1);
  tb = op.opts;
  CHECK_EQ_INT(fb_u(&r, tb, 0, 1, 0), 1);
  CHECK_EQ_INT(fb_u(&r, tb, 1, 4, 0), 2);
  CHECK_EQ_INT(fb_u(&r, tb, 2, 4, 0), 3);
  CHECK_EQ_INT(fb_u(&r, tb, 3, 1, 0), 3);
  CHECK_EQ_INT(fb_u(&r, tb, 4, 4, 1), 4);
  CHECK_EQ_INT(fb_u(&r, tb, 5, 4, 1), 5);
  CHECK(!fb_has(&r, tb, 6));
  op = m_op(&r, 0, 1);
  CHECK_EQ_INT(op.otype, 9);
  CHECK(f32_of((uint32_t)fb_u(&r, op.opts, 0, 4, 0)) == 0.75f);
  op = m_op(&r, 0, 2);
  CHECK_EQ_INT(op.otype, 17);
  tb = fb_sub(&r, op.opts, 0);
  CHECK_EQ_INT(fb_len(&r, tb, 4), 3);
  CHECK(fb_i32(&r, tb, 0) == 2 && fb_i32(&r, tb, 1) == -1 &&
        fb_i32(&r, tb, 2) == 7);
  op = m_op(&r, 0, 3);
  CHECK_EQ_INT(op.otype, 111);
  CHECK_EQ_INT(op.nin, 0);
  CHECK(strcmp(fb_str(&r, op.opts, 0), "box") == 0);
  CHECK(strcmp(fb_str(&r, op.opts, 1), "shared_name") == 0);
  op = m_op(&r, 0, 4);
  CHECK(fb_has(&r, op.opts, 1)); /* false written explicitly */
  CHECK_EQ_INT(fb_u(&r, op.opts, 1, 1, 1), 0);
  CHECK_EQ_INT(fb_u(&r, op.opts, 0, 1, 0), 1);
  op = m_op(&r, 0, 5);
  CHECK(op.otype == 22 && op.opts != 0);
  CHECK(!fb_has(&r, op.opts, 0));
  op = m_op(&r, 0, 6);
  CHECK_EQ_INT(op.otype, 200);
  CHECK_EQ_INT(fb_u(&r, op.opts, 7, 1, 0), 200);
  CHECK_EQ_INT((int32_t)fb_u(&r, op.opts, 1, 4, 0), -123456);
  CHECK_EQ_INT(fb_u(&r, op.opts, 0, 1, 0), 1);
  CHECK(f32_of((uint32_t)fb_u(&r, op.opts, 3, 4, 0)) == -1.5f);
  CHECK(fb_has(&r, op.opts, 4) && fb_len(&r, fb_sub(&r, op.opts, 4), 4) == 0);
  CHECK(!fb_has(&r, op.opts, 2) && !fb_has(&r, op.opts, 5));
  CHECK_EQ_INT(r.bad, 0);
  free(p);
  tflc_writer_destroy(w);
}

/* Buffers of odd sizes, odd names: every data vector starts 16-aligned. */
static void test_buffer_alignment(void) {
  tflc_writer *w = tflc_writer_create();
  uint8_t data[64], *p;
  char name[40];
  int32_t i, d[1];
  size_t n, len;
  fbr r;
  for (i = 0; i < 64; i++)
    data[i] = (uint8_t)(i * 7 + 1);
  for (i = 1; i <= 20; i++) {
    size_t k;
    d[0] = i;
    for (k = 0; k < (size_t)i; k++)
      name[k] = (char)('a' + k % 26);
    name[i] = 0;
    CHECK_EQ_INT(tflc_writer_tensor(w, 0, TFLC_UINT8, 1, d, data + i, (size_t)i,
                                    name, NULL),
                 i - 1);
  }
  d[0] = 0; /* a buffer without data */
  CHECK_EQ_INT(tflc_writer_tensor(w, 0, TFLC_UINT8, 1, d, data, 0, "e", NULL),
               20);
  CHECK_EQ_INT(tflc_writer_metadata(w, "meta_odd", data, 5), 22);
  CHECK_EQ_INT(tflc_writer_metadata(w, "meta_empty", NULL, 0), 23);
  p = finish_model(w, &n);
  r = fbr_make(p, n);
  CHECK_EQ_INT(walk_model(&r), 0);
  CHECK_EQ_INT(m_count(&r, 4), 24);
  for (i = 1; i <= 20; i++) {
    const uint8_t *b = m_buffer(&r, (uint32_t)i, &len);
    CHECK(b != NULL && len == (size_t)i && memcmp(b, data + i, len) == 0);
    CHECK(b != NULL && (size_t)(b - p) % 16 == 0);
    CHECK_EQ_INT(m_tensor(&r, 0, (uint32_t)(i - 1)).buffer, i);
  }
  CHECK(m_buffer(&r, 21, &len) == NULL);
  CHECK_EQ_INT(m_tensor(&r, 0, 20).buffer, 21);
  CHECK_EQ_INT(m_count(&r, 6), 2);
  CHECK(strcmp(fb_str(&r, m_entry(&r, 6, 0), 0), "meta_odd") == 0);
  CHECK_EQ_INT(fb_u(&r, m_entry(&r, 6, 0), 1, 4, 0), 22);
  CHECK(m_buffer(&r, 22, &len) != NULL && len == 5);
  CHECK(m_buffer(&r, 23, &len) == NULL);
  CHECK_EQ_INT(r.bad, 0);
  free(p);
  tflc_writer_destroy(w);
}

static void test_external_buffers(void) {
  tflc_writer *w = tflc_writer_create();
  uint8_t a[5] = {1, 2, 3, 4, 5}, b[33], *p;
  int32_t d[1] = {5}, d2[1] = {33}, i;
  size_t n, bt, prev_end = 0;
  uint64_t off, sz;
  fbr r;
  for (i = 0; i < 33; i++)
    b[i] = (uint8_t)(0xC0 + i);
  tflc_writer_tensor(w, 0, TFLC_UINT8, 1, d, a, 5, "a", NULL);
  tflc_writer_tensor(w, 0, TFLC_UINT8, 1, d, NULL, 0, "act", NULL);
  tflc_writer_tensor(w, 0, TFLC_UINT8, 1, d2, b, 33, "b", NULL);
  tflc_writer_set_flags(w, TFLC_W_FLAG_EXTERNAL_BUFFERS);
  p = finish_model(w, &n);
  r = fbr_make(p, n);
  CHECK_EQ_INT(walk_model(&r), 0);
  CHECK_EQ_INT(m_count(&r, 4), 3);
  bt = m_entry(&r, 4, 0);
  CHECK(!fb_has(&r, bt, 0) && !fb_has(&r, bt, 1) && !fb_has(&r, bt, 2));
  for (i = 1; i <= 2; i++) {
    const uint8_t *want = i == 1 ? a : b;
    size_t wn = i == 1 ? 5 : 33;
    bt = m_entry(&r, 4, (uint32_t)i);
    CHECK(!fb_has(&r, bt, 0)); /* no data vector */
    off = fb_u(&r, bt, 1, 8, 0);
    sz = fb_u(&r, bt, 2, 8, 0);
    CHECK(off > 1 && off % 16 == 0);
    CHECK_EQ_INT(sz, wn);
    CHECK(off <= n && sz <= n - off &&
          memcmp(p + (size_t)off, want, (size_t)sz) == 0);
    CHECK(off >= prev_end); /* after the flatbuffer, in order */
    prev_end = (size_t)(off + sz);
  }
  CHECK_EQ_INT(prev_end, n);
  CHECK_EQ_INT(m_tensor(&r, 0, 0).buffer, 1);
  CHECK_EQ_INT(m_tensor(&r, 0, 1).buffer, 0);
  CHECK_EQ_INT(m_tensor(&r, 0, 2).buffer, 2);
  /* the flatbuffer proper ends before the first data: its last table
   * (a Buffer) ends at most 15 bytes of padding before */
  off = fb_u(&r, m_entry(&r, 4, 1), 1, 8, 0);
  CHECK(m_entry(&r, 4, 2) < (size_t)off);
  free(p);
  tflc_writer_destroy(w);
}

/* ---- compression tables
 * ------------------------------------------------------ */

/* Finishes and returns (tensor buffer data, value buffer data) of the single
 * METADATA-compressed tensor `ti` of subgraph 0. */
static uint8_t *meta_model(tflc_writer *w, int32_t ti, const uint8_t **idx,
                           size_t *idx_len, const uint8_t **vals,
                           size_t *vals_len, int *bits) {
  size_t n, root, lv, lt;
  uint8_t *p = finish_model(w, &n);
  fbr r = fbr_make(p, n), sub;
  CHECK_EQ_INT(walk_model(&r), 0);
  *idx = m_buffer(&r, m_tensor(&r, 0, (uint32_t)ti).buffer, idx_len);
  root = m_compression(&r, &sub);
  CHECK(root != 0);
  lv = fb_sub(&sub, fb_elem_table(&sub, fb_sub(&sub, root, 1), 0), 0);
  CHECK_EQ_INT(fb_len(&sub, lv, 4), 1);
  lt = fb_elem_table(&sub, lv, 0);
  CHECK_EQ_INT(fb_u(&sub, lt, 0, 4, 99), ti);
  *bits = (int)fb_u(&sub, lt, 2, 1, 0);
  *vals = m_buffer(&r, (uint32_t)fb_u(&sub, lt, 1, 4, 0), vals_len);
  CHECK_EQ_INT(sub.bad, 0);
  CHECK_EQ_INT(r.bad, 0);
  return p;
}

static void test_compress_seed_example(void) {
  /* seed: INT16 tensor [2, 4, 4, 10, 1, 7, 99, 10, 2, 4], bit width 3 */
  const int16_t data[10] = {2, 4, 4, 10, 1, 7, 99, 10, 2, 4};
  int32_t d1[1] = {10}, d2[2] = {2, 5}, t;
  const float sc[2] = {1.0f, 2.0f};
  tflc_w_quant q;
  const uint8_t *idx, *vals;
  size_t il, vl;
  int bits, pad;
  uint8_t want[8], *p;
  for (pad = 0; pad < 2; pad++) {
    /* per-tensor: table sorted [1 2 4 7 10 99] (+ 2 zeros when padded) */
    const int16_t tab[8] = {1, 2, 4, 7, 10, 99, 0, 0};
    const uint32_t ix[10] = {1, 2, 2, 4, 0, 3, 5, 4, 1, 2};
    tflc_writer *w = tflc_writer_create();
    t = tflc_writer_tensor(w, 0, TFLC_INT16, 1, d1, data, sizeof data, "t",
                           NULL);
    CHECK_EQ_INT(tflc_writer_compress(w, 0, t, 3, TFLC_W_METADATA, pad),
                 TFLC_OK);
    p = meta_model(w, t, &idx, &il, &vals, &vl, &bits);
    tflc_writer_pack_indices(ix, 10, 3, want);
    CHECK_EQ_INT(bits, 3);
    CHECK(idx != NULL && il == 4 && memcmp(idx, want, 4) == 0);
    CHECK_EQ_INT(vl, pad ? 16 : 12);
    CHECK(vals != NULL && memcmp(vals, tab, vl) == 0);
    free(p);
    tflc_writer_destroy(w);
  }
  for (pad = 0; pad < 2; pad++) {
    /* seed per-channel: [2 4 4 10 1 | 7 99 10 2 4]; ours sorted:
     * ch0 [1 2 4 10] ch1 [2 4 7 10 99]; stride 5 or 8 */
    const int16_t tab5[10] = {1, 2, 4, 10, 0, 2, 4, 7, 10, 99};
    const int16_t tab8[16] = {1, 2, 4, 10, 0,  0, 0, 0,
                              2, 4, 7, 10, 99, 0, 0, 0};
    const uint32_t ix[10] = {1, 2, 2, 3, 0, 2, 4, 3, 0, 1};
    tflc_writer *w = tflc_writer_create();
    q.scale = sc;
    q.zero_point = NULL;
    q.count = 2;
    q.axis = 0;
    t = tflc_writer_tensor(w, 0, TFLC_INT16, 2, d2, data, sizeof data, "t", &q);
    CHECK_EQ_INT(tflc_writer_compress(w, 0, t, 3, TFLC_W_METADATA, pad),
                 TFLC_OK);
    p = meta_model(w, t, &idx, &il, &vals, &vl, &bits);
    tflc_writer_pack_indices(ix, 10, 3, want);
    CHECK(idx != NULL && il == 4 && memcmp(idx, want, 4) == 0);
    CHECK_EQ_INT(vl, pad ? 32 : 20);
    CHECK(vals != NULL &&
          memcmp(vals, pad ? (const void *)tab8 : (const void *)tab5, vl) == 0);
    free(p);
    tflc_writer_destroy(w);
  }
}

static void test_compress_last_axis(void) {
  /* [2, 3] per-channel on axis 1: channel = i % 3 */
  const int8_t data[6] = {5, -1, 7, 5, 2, 7};
  const float sc[3] = {1, 1, 1};
  int32_t d[2] = {2, 3}, t;
  tflc_w_quant q;
  const uint8_t *idx, *vals;
  size_t il, vl;
  int bits;
  uint8_t *p;
  tflc_writer *w = tflc_writer_create();
  q.scale = sc;
  q.zero_point = NULL;
  q.count = 3;
  q.axis = 1;
  t = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d, data, 6, "t", &q);
  CHECK_EQ_INT(tflc_writer_compress(w, 0, t, 2, TFLC_W_METADATA, 0), TFLC_OK);
  p = meta_model(w, t, &idx, &il, &vals, &vl, &bits);
  /* ch0 {5} ch1 {-1, 2} ch2 {7}: stride 2, table [5 0 -1 2 7 0];
   * indices 0 0 0 0 1 0 at 2 bits: 00000000 0100(0000) */
  CHECK_EQ_INT(bits, 2);
  CHECK(idx != NULL && il == 2 && idx[0] == 0x00 && idx[1] == 0x40);
  CHECK_EQ_INT(vl, 6);
  CHECK(vals != NULL && vals[0] == 5 && vals[1] == 0 && vals[2] == 0xff &&
        vals[3] == 2 && vals[4] == 7 && vals[5] == 0);
  free(p);
  tflc_writer_destroy(w);
  /* padded to 2^bits, 4-D with axis 3 (depthwise filter layout) */
  {
    const int8_t f[8] = {1, 2, 3, 4, 9, 2, 3, 4};
    int32_t d4[4] = {1, 2, 1, 4};
    const float s4[4] = {1, 1, 1, 1};
    const int8_t want[16] = {1, 9, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};
    q.scale = s4;
    q.count = 4;
    q.axis = 3;
    w = tflc_writer_create();
    t = tflc_writer_tensor(w, 0, TFLC_INT8, 4, d4, f, 8, "dw", &q);
    CHECK_EQ_INT(tflc_writer_compress(w, 0, t, 2, TFLC_W_METADATA, 1), TFLC_OK);
    p = meta_model(w, t, &idx, &il, &vals, &vl, &bits);
    /* indices 0 0 0 0 1 0 0 0 -> 00000000 01000000 */
    CHECK(idx != NULL && il == 2 && idx[0] == 0x00 && idx[1] == 0x40);
    CHECK(vals != NULL && vl == 16 && memcmp(vals, want, 16) == 0);
    free(p);
    tflc_writer_destroy(w);
  }
}

static uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static void test_compress_types(void) {
  const uint8_t *idx, *vals;
  size_t il, vl;
  int bits;
  uint8_t *p;
  int32_t d[1], t;
  tflc_writer *w;
  { /* float32: numeric order, -0 before +0, bit-exact values */
    const float data[6] = {1.5f, -0.0f, 0.0f, -2.0f, 1.5f, 3.0f};
    const float tab[8] = {-2.0f, -0.0f, 0.0f, 1.5f, 3.0f, 0, 0, 0};
    const uint32_t ix[6] = {3, 1, 2, 0, 3, 4};
    uint8_t want[3];
    uint32_t k;
    d[0] = 6;
    w = tflc_writer_create();
    t = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, data, sizeof data, "f",
                           NULL);
    CHECK_EQ_INT(tflc_writer_compress(w, 0, t, 3, TFLC_W_METADATA, 1), TFLC_OK);
    p = meta_model(w, t, &idx, &il, &vals, &vl, &bits);
    tflc_writer_pack_indices(ix, 6, 3, want);
    CHECK(idx != NULL && il == 3 && memcmp(idx, want, 3) == 0);
    CHECK_EQ_INT(vl, 32);
    for (k = 0; vals && k < 8; k++) {
      uint32_t u = (uint32_t)vals[4 * k] | (uint32_t)vals[4 * k + 1] << 8 |
                   (uint32_t)vals[4 * k + 2] << 16 |
                   (uint32_t)vals[4 * k + 3] << 24;
      CHECK_EQ_INT(u, bits_of(tab[k]));
    }
    free(p);
    tflc_writer_destroy(w);
  }
  { /* uint8 sorts unsigned; bool */
    const uint8_t u8[4] = {200, 1, 200, 255};
    const uint8_t bl[5] = {1, 0, 0, 1, 1};
    d[0] = 4;
    w = tflc_writer_create();
    t = tflc_writer_tensor(w, 0, TFLC_UINT8, 1, d, u8, 4, "u", NULL);
    CHECK_EQ_INT(tflc_writer_compress(w, 0, t, 2, TFLC_W_METADATA, 0), TFLC_OK);
    p = meta_model(w, t, &idx, &il, &vals, &vl, &bits);
    CHECK(vals != NULL && vl == 3 && vals[0] == 1 && vals[1] == 200 &&
          vals[2] == 255);
    /* 1 0 1 2 -> 01 00 01 10 */
    CHECK(idx != NULL && il == 1 && idx[0] == 0x46);
    free(p);
    tflc_writer_destroy(w);
    d[0] = 5;
    w = tflc_writer_create();
    t = tflc_writer_tensor(w, 0, TFLC_BOOL, 1, d, bl, 5, "b", NULL);
    CHECK_EQ_INT(tflc_writer_compress(w, 0, t, 1, TFLC_W_METADATA, 0), TFLC_OK);
    p = meta_model(w, t, &idx, &il, &vals, &vl, &bits);
    CHECK(vals != NULL && vl == 2 && vals[0] == 0 && vals[1] == 1);
    CHECK(idx != NULL && il == 1 && idx[0] == 0x98); /* 10011 000 */
    CHECK_EQ_INT(bits, 1);
    free(p);
    tflc_writer_destroy(w);
  }
  { /* int8 signed order; int32; int64 */
    const int8_t s8[3] = {127, -128, 0};
    const int32_t s32[4] = {70000, -70000, 70000, 0};
    const int64_t s64[3] = {5000000000LL, -5000000000LL, 7};
    const int32_t t32[3] = {-70000, 0, 70000};
    const int64_t t64[3] = {-5000000000LL, 7, 5000000000LL};
    d[0] = 3;
    w = tflc_writer_create();
    t = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, s8, 3, "s8", NULL);
    CHECK_EQ_INT(tflc_writer_compress(w, 0, t, 2, TFLC_W_METADATA, 0), TFLC_OK);
    p = meta_model(w, t, &idx, &il, &vals, &vl, &bits);
    CHECK(vals != NULL && vl == 3 && vals[0] == 0x80 && vals[1] == 0 &&
          vals[2] == 0x7f);
    CHECK(idx != NULL && idx[0] == 0x84); /* 10 00 01 00 */
    free(p);
    tflc_writer_destroy(w);
    d[0] = 4;
    w = tflc_writer_create();
    t = tflc_writer_tensor(w, 0, TFLC_INT32, 1, d, s32, sizeof s32, "s32",
                           NULL);
    CHECK_EQ_INT(tflc_writer_compress(w, 0, t, 2, TFLC_W_METADATA, 0), TFLC_OK);
    p = meta_model(w, t, &idx, &il, &vals, &vl, &bits);
    CHECK(vals != NULL && vl == 12 && memcmp(vals, t32, 12) == 0);
    CHECK(idx != NULL && idx[0] == 0x89); /* 10 00 10 01 */
    free(p);
    tflc_writer_destroy(w);
    d[0] = 3;
    w = tflc_writer_create();
    t = tflc_writer_tensor(w, 0, TFLC_INT64, 1, d, s64, sizeof s64, "s64",
                           NULL);
    CHECK_EQ_INT(tflc_writer_compress(w, 0, t, 2, TFLC_W_METADATA, 0), TFLC_OK);
    p = meta_model(w, t, &idx, &il, &vals, &vl, &bits);
    CHECK(vals != NULL && vl == 24 && memcmp(vals, t64, 24) == 0);
    CHECK(idx != NULL && idx[0] == 0x84); /* 10 00 01 00 */
    free(p);
    tflc_writer_destroy(w);
  }
  { /* 8 bits, 256 uniques: stride 256 for METADATA */
    uint8_t big[300];
    uint32_t k;
    for (k = 0; k < 300; k++)
      big[k] = (uint8_t)(255 - k % 256);
    d[0] = 300;
    w = tflc_writer_create();
    t = tflc_writer_tensor(w, 0, TFLC_UINT8, 1, d, big, 300, "big", NULL);
    CHECK_EQ_INT(tflc_writer_compress(w, 0, t, 8, TFLC_W_METADATA, 1), TFLC_OK);
    p = meta_model(w, t, &idx, &il, &vals, &vl, &bits);
    CHECK(idx != NULL && il == 300 && memcmp(idx, big, 300) == 0);
    CHECK(vals != NULL && vl == 256 && vals[0] == 0 && vals[255] == 255);
    CHECK_EQ_INT(bits, 8);
    free(p);
    tflc_writer_destroy(w);
  }
}

static void test_compress_errors(void) {
  tflc_writer *w = tflc_writer_create();
  const int8_t five[5] = {1, 2, 3, 4, 5};
  const int8_t six[6] = {1, 2, 3, 4, 5, 6};
  const uint8_t big[256] = {0};
  const float sc[3] = {1, 1, 1};
  int32_t d5[1] = {5}, d6[3] = {1, 3, 2}, d23[2] = {2, 3}, d3[1] = {3};
  int32_t dneg[2] = {-1, 5}, d256[1] = {256};
  int32_t a, b, c, e, f16, mis, neg, ok, u8;
  tflc_w_quant q;
  uint8_t *p;
  size_t n;
  q.scale = sc;
  q.zero_point = NULL;
  q.count = 3;
  q.axis = 1;
  a = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d5, five, 5, "a", NULL);
  b = tflc_writer_tensor(w, 0, TFLC_INT8, 3, d6, six, 6, "b", &q);
  c = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d5, NULL, 0, "act", NULL);
  q.axis = 0;
  e = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d23, six, 6, "e", &q);
  f16 = tflc_writer_tensor(w, 0, 1, 1, d5, five, 4, "f16", NULL);
  mis = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d3, five, 5, "mis", NULL);
  neg = tflc_writer_tensor(w, 0, TFLC_INT8, 2, dneg, five, 5, "neg", NULL);
  ok = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d5, five, 5, "ok", NULL);
  u8 = tflc_writer_tensor(w, 0, TFLC_UINT8, 1, d256, big, 256, "u8", NULL);
  /* more than 2^bits unique values */
  CHECK_EQ_INT(tflc_writer_compress(w, 0, a, 2, TFLC_W_METADATA, 0),
               TFLC_ERR_COMPRESSION);
  CHECK_EQ_INT(tflc_writer_compress(w, 0, a, 2, TFLC_W_DECODE, 1),
               TFLC_ERR_COMPRESSION);
  /* per-channel axis 1 of rank 3 */
  CHECK_EQ_INT(tflc_writer_compress(w, 0, b, 4, TFLC_W_METADATA, 0),
               TFLC_ERR_QUANT);
  /* scale count 3 != dims[0] = 2 */
  CHECK_EQ_INT(tflc_writer_compress(w, 0, e, 4, TFLC_W_METADATA, 0),
               TFLC_ERR_QUANT);
  /* no data */
  CHECK_EQ_INT(tflc_writer_compress(w, 0, c, 4, TFLC_W_METADATA, 0),
               TFLC_ERR_BUFFER);
  /* unsupported type (FLOAT16) */
  CHECK_EQ_INT(tflc_writer_compress(w, 0, f16, 4, TFLC_W_METADATA, 0),
               TFLC_ERR_TYPE);
  /* data size does not match the shape; negative dim */
  CHECK_EQ_INT(tflc_writer_compress(w, 0, mis, 4, TFLC_W_METADATA, 0),
               TFLC_ERR_BUFFER);
  CHECK_EQ_INT(tflc_writer_compress(w, 0, neg, 4, TFLC_W_METADATA, 0),
               TFLC_ERR_SHAPE);
  /* bad arguments */
  CHECK_EQ_INT(tflc_writer_compress(w, 0, ok, 0, TFLC_W_METADATA, 0),
               TFLC_ERR_ARG);
  CHECK_EQ_INT(tflc_writer_compress(w, 0, ok, 9, TFLC_W_METADATA, 0),
               TFLC_ERR_ARG);
  CHECK_EQ_INT(tflc_writer_compress(w, 0, ok, 4, 3, 0), TFLC_ERR_ARG);
  CHECK_EQ_INT(tflc_writer_compress(NULL, 0, ok, 4, TFLC_W_DECODE, 0),
               TFLC_ERR_ARG);
  CHECK_EQ_INT(tflc_writer_compress(w, 0, 99, 4, TFLC_W_METADATA, 0),
               TFLC_ERR_INDEX);
  CHECK_EQ_INT(tflc_writer_compress(w, 1, ok, 4, TFLC_W_METADATA, 0),
               TFLC_ERR_INDEX);
  /* DECODE keeps the stride in one byte: 256 refused, 255 not needed */
  CHECK_EQ_INT(tflc_writer_compress(w, 0, u8, 8, TFLC_W_DECODE, 1),
               TFLC_ERR_COMPRESSION);
  /* exactly 2^bits uniques fit; twice is refused */
  CHECK_EQ_INT(tflc_writer_compress(w, 0, ok, 3, TFLC_W_METADATA, 0), TFLC_OK);
  CHECK_EQ_INT(tflc_writer_compress(w, 0, ok, 3, TFLC_W_METADATA, 0),
               TFLC_ERR_STATE);
  CHECK_EQ_INT(tflc_writer_compress(w, 0, a, 3, TFLC_W_DECODE, 0), TFLC_OK);
  /* failed compressions left no trace: the model still finishes */
  CHECK_EQ_INT(tflc_writer_status(w), TFLC_OK);
  p = finish_model(w, &n);
  free(p);
  tflc_writer_destroy(w);
}

/* ---- METADATA format -------------------------------------------------------
 */

static void test_metadata_format(void) {
  tflc_writer *w = tflc_writer_create();
  const int8_t k1[4] = {3, 3, -3, 3}, k2[6] = {0, 1, 0, 1, 2, 2};
  int32_t d4[1] = {4}, d6[2] = {2, 3}, x, a, b, c, sg1;
  uint8_t *p;
  size_t n, root, subs, lv, lt, len;
  const uint8_t *v;
  uint32_t i, vb;
  fbr r, sub;
  CHECK_EQ_INT(tflc_writer_metadata(w, "other", k1, 4), 1);
  sg1 = tflc_writer_subgraph(w);
  CHECK_EQ_INT(sg1, 1);
  CHECK_EQ_INT(tflc_writer_subgraph(w), 2);
  x = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d4, NULL, 0, "x", NULL);
  a = tflc_writer_tensor(w, sg1, TFLC_INT8, 1, d4, NULL, 0, "x1", NULL);
  b = tflc_writer_tensor(w, sg1, TFLC_INT8, 1, d4, k1, 4, "k1", NULL);
  c = tflc_writer_tensor(w, sg1, TFLC_INT8, 2, d6, k2, 6, "k2", NULL);
  CHECK(x == 0 && a == 0 && b == 1 && c == 2);
  tflc_writer_op(w, sg1, 0, NULL, 1, &b, 1, &a, 0, 0, NULL);
  CHECK_EQ_INT(tflc_writer_compress(w, sg1, c, 2, TFLC_W_METADATA, 1), TFLC_OK);
  CHECK_EQ_INT(tflc_writer_compress(w, sg1, b, 1, TFLC_W_METADATA, 1), TFLC_OK);
  p = finish_model(w, &n);
  r = fbr_make(p, n);
  CHECK_EQ_INT(walk_model(&r), 0);
  /* buffers: 0 sentinel, 1 "other", 2 k1, 3 k2, 4 k1 values, 5 k2 values,
   * 6 the metadata flatbuffer */
  CHECK_EQ_INT(m_count(&r, 4), 7);
  CHECK_EQ_INT(m_count(&r, 6), 2);
  CHECK(strcmp(fb_str(&r, m_entry(&r, 6, 0), 0), "other") == 0);
  CHECK(strcmp(fb_str(&r, m_entry(&r, 6, 1), 0), "COMPRESSION_METADATA") == 0);
  CHECK_EQ_INT(fb_u(&r, m_entry(&r, 6, 1), 1, 4, 0), 6);
  /* tensors keep id, shape, type; their buffers hold the indices */
  CHECK_EQ_INT(m_tensor(&r, 1, 1).buffer, 2);
  CHECK_EQ_INT(m_tensor(&r, 1, 2).buffer, 3);
  CHECK_EQ_INT(m_tensor(&r, 1, 2).rank, 2);
  CHECK_EQ_INT(m_tensor(&r, 1, 2).type, TFLC_INT8);
  v = m_buffer(&r, 2, &len); /* k1: table [-3 3], indices 1 1 0 1 */
  CHECK(v != NULL && len == 1 && v[0] == 0xD0);
  v = m_buffer(&r, 4, &len);
  CHECK(v != NULL && len == 2 && v[0] == 0xfd && v[1] == 3);
  v = m_buffer(&r, 3, &len); /* k2: 00 01 00 01 10 10 */
  CHECK(v != NULL && len == 2 && v[0] == 0x11 && v[1] == 0xA0);
  v = m_buffer(&r, 5, &len);
  CHECK(v != NULL && len == 4 && v[0] == 0 && v[1] == 1 && v[2] == 2 &&
        v[3] == 0);
  /* the nested flatbuffer: no identifier, schema_version 1 */
  root = m_compression(&r, &sub);
  CHECK(root != 0);
  CHECK_EQ_INT(rd32(&sub, 0), root);
  CHECK(fb_has(&sub, root, 0));
  CHECK_EQ_INT(fb_u(&sub, root, 0, 4, 0), 1);
  subs = fb_sub(&sub, root, 1);
  CHECK_EQ_INT(fb_len(&sub, subs, 4), 2); /* up to subgraph 1, not 2 */
  lv = fb_sub(&sub, fb_elem_table(&sub, subs, 0), 0);
  CHECK(lv != 0 && fb_len(&sub, lv, 4) == 0); /* placeholder entry */
  lv = fb_sub(&sub, fb_elem_table(&sub, subs, 1), 0);
  CHECK_EQ_INT(fb_len(&sub, lv, 4), 2);
  for (i = 0; i < 2; i++) {
    lt = fb_elem_table(&sub, lv, i);
    vb = (uint32_t)fb_u(&sub, lt, 1, 4, 0);
    if (fb_u(&sub, lt, 0, 4, 99) == 1) {
      CHECK_EQ_INT(vb, 4);
      CHECK_EQ_INT(fb_u(&sub, lt, 2, 1, 0), 1);
    } else {
      CHECK_EQ_INT(fb_u(&sub, lt, 0, 4, 99), 2);
      CHECK_EQ_INT(vb, 5);
      CHECK_EQ_INT(fb_u(&sub, lt, 2, 1, 0), 2);
    }
    CHECK(fb_has(&sub, lt, 0) && fb_has(&sub, lt, 1) && fb_has(&sub, lt, 2));
  }
  CHECK_EQ_INT(sub.bad, 0);
  CHECK_EQ_INT(r.bad, 0);
  free(p);
  /* with external buffers the metadata buffer moves out too */
  tflc_writer_set_flags(w, TFLC_W_FLAG_EXTERNAL_BUFFERS);
  p = finish_model(w, &n);
  r = fbr_make(p, n);
  CHECK_EQ_INT(walk_model(&r), 0);
  CHECK_EQ_INT(m_count(&r, 4), 7);
  {
    size_t bt = m_entry(&r, 4, 6);
    uint64_t off = fb_u(&r, bt, 1, 8, 0), sz = fb_u(&r, bt, 2, 8, 0);
    fbr nested;
    CHECK(!fb_has(&r, bt, 0) && off % 16 == 0 && off + sz <= n);
    nested = fbr_make(p + (size_t)off, (size_t)sz);
    root = fb_ref(&nested, 0);
    CHECK_EQ_INT(fb_u(&nested, root, 0, 4, 0), 1);
    CHECK_EQ_INT(fb_len(&nested, fb_sub(&nested, root, 1), 4), 2);
    CHECK_EQ_INT(nested.bad, 0);
  }
  free(p);
  tflc_writer_destroy(w);
}

/* ---- DECODE format --------------------------------------------------------
 */

static void check_ancillary(fbr *r, uint32_t sg, int32_t ti, int bits,
                            int stride, const void *vals, size_t vlen) {
  tinfo t = m_tensor(r, sg, (uint32_t)ti);
  size_t len;
  const uint8_t *a = m_buffer(r, t.buffer, &len);
  const uint8_t dcm[16] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  CHECK_EQ_INT(t.type, TFLC_UINT8);
  CHECK(t.rank == 1 && t.dims[0] == (int32_t)(16 + vlen));
  CHECK(!t.has_q);
  CHECK(a != NULL && len == 16 + vlen);
  if (!a || len != 16 + vlen)
    return;
  CHECK_EQ_MEM(a, dcm, 5);
  CHECK_EQ_INT(a[5], bits);
  CHECK_EQ_INT(a[6], stride);
  CHECK_EQ_MEM(a + 7, dcm + 7, 9);
  CHECK_EQ_MEM(a + 16, vals, vlen);
}

static void test_decode_format(void) {
  tflc_writer *w = tflc_writer_create();
  const int8_t wts[6] = {1, -1, 1, 4, 4, 4}; /* [2, 3], 2 channels */
  const int32_t bias[2] = {1000, -7};        /* [2] */
  const int8_t keep[3] = {9, 9, 8};          /* compressed, unused */
  const float sc[2] = {0.5f, 0.25f};
  const int64_t zp[2] = {0, 0};
  int32_t dx[2] = {1, 3}, dw[2] = {2, 3}, db[1] = {2}, dy[2] = {1, 2};
  int32_t dk[1] = {3};
  int32_t x, wt, bs, y, z, kp, in[3], nt;
  tflc_w_quant q;
  tflc_w_option fo[1];
  uint8_t *p, *p2;
  size_t n, n2, len;
  fbr r;
  tinfo t;
  oinfo o;
  uint32_t decode_oc, fc_oc;
  const uint8_t *bd;
  q.scale = sc;
  q.zero_point = zp;
  q.count = 2;
  q.axis = 0;
  x = tflc_writer_tensor(w, 0, TFLC_INT8, 2, dx, NULL, 0, "x", NULL);
  wt = tflc_writer_tensor(w, 0, TFLC_INT8, 2, dw, wts, 6, "w", &q);
  bs = tflc_writer_tensor(w, 0, TFLC_INT32, 1, db, bias, 8, "b", NULL);
  y = tflc_writer_tensor(w, 0, TFLC_INT8, 2, dy, NULL, 0, "y", NULL);
  z = tflc_writer_tensor(w, 0, TFLC_INT8, 2, dy, NULL, 0, "z", NULL);
  kp = tflc_writer_tensor(w, 0, TFLC_INT8, 1, dk, keep, 3, "keep", NULL);
  in[0] = x;
  in[1] = wt;
  in[2] = bs;
  fo[0] = opt_u8(0, 1);
  /* op 0: FC(x, w, b) -> y; op 1: ADD(w, w) -> z (same tensor twice) */
  CHECK_EQ_INT(tflc_writer_op(w, 0, 9, NULL, 3, in, 1, &y, 8, 1, fo), 0);
  in[0] = wt;
  in[1] = wt;
  CHECK_EQ_INT(tflc_writer_op(w, 0, 0, NULL, 2, in, 1, &z, 0, 0, NULL), 1);
  tflc_writer_inputs(w, 0, 1, &x);
  in[0] = y;
  in[1] = bs; /* a compressed tensor as subgraph output */
  in[2] = z;
  tflc_writer_outputs(w, 0, 3, in);
  CHECK_EQ_INT(tflc_writer_compress(w, 0, wt, 2, TFLC_W_DECODE, 0), TFLC_OK);
  CHECK_EQ_INT(tflc_writer_compress(w, 0, bs, 3, TFLC_W_DECODE, 1), TFLC_OK);
  CHECK_EQ_INT(tflc_writer_compress(w, 0, kp, 2, TFLC_W_DECODE, 0), TFLC_OK);
  p = finish_model(w, &n);
  r = fbr_make(p, n);
  CHECK_EQ_INT(walk_model(&r), 0);
  CHECK_EQ_INT(m_count(&r, 6), 0); /* no metadata in this format */
  /* operator codes: FC, ADD, then TFLM_DECODE */
  CHECK_EQ_INT(m_count(&r, 1), 3);
  fc_oc = 0;
  decode_oc = 2;
  CHECK_EQ_INT(m_code(&r, decode_oc), 32);
  CHECK(strcmp(fb_str(&r, m_opcode(&r, decode_oc), 1), "TFLM_DECODE") == 0);
  /* tensors: 0..5 original; 6 w_encoded 7 w_ancillary 8 b_encoded
   * 9 b_ancillary; then decoded: 10 w_decoded 11 b_decoded (op 0),
   * 12 w_decoded (op 1), 13 b_decoded (output) */
  nt = (int32_t)sg_count(&r, 0, 0);
  CHECK_EQ_INT(nt, 14);
  t = m_tensor(&r, 0, 6);
  CHECK(t.name && strcmp(t.name, "w_encoded") == 0);
  CHECK(t.type == TFLC_UINT8 && t.rank == 1 && t.dims[0] == 2 && !t.has_q);
  bd = m_buffer(&r, t.buffer, &len);
  /* w ch0 {-1, 1}: 1 0 1, ch1 {4}: 0 0 0 -> 01 00 01 00 00 00 */
  CHECK(bd != NULL && len == 2 && bd[0] == 0x44 && bd[1] == 0x00);
  {
    const int8_t wtab[4] = {-1, 1, 4, 0}; /* stride 2 */
    const int32_t btab[8] = {-7, 1000, 0, 0, 0, 0, 0, 0};
    check_ancillary(&r, 0, 7, 2, 2, wtab, 4);
    check_ancillary(&r, 0, 9, 3, 8, btab, 32);
  }
  CHECK(strcmp(m_tensor(&r, 0, 7).name, "w_ancillary") == 0);
  t = m_tensor(&r, 0, 8);
  CHECK(strcmp(t.name, "b_encoded") == 0 && t.dims[0] == 1);
  bd = m_buffer(&r, t.buffer, &len);
  CHECK(bd != NULL && len == 1 && bd[0] == 0x20); /* 001 000 00 */
  /* the originals lost their buffers; buffer indices 1, 2 stay, empty */
  CHECK_EQ_INT(m_tensor(&r, 0, 1).buffer, 0);
  CHECK_EQ_INT(m_tensor(&r, 0, 2).buffer, 0);
  CHECK_EQ_INT(m_count(&r, 4), 8); /* + w enc/anc, b enc/anc */
  CHECK(m_buffer(&r, 1, &len) == NULL && m_buffer(&r, 2, &len) == NULL);
  /* the unused compressed tensor is left as it was */
  t = m_tensor(&r, 0, 5);
  bd = m_buffer(&r, t.buffer, &len);
  CHECK(t.buffer == 3 && bd != NULL && len == 3 && memcmp(bd, keep, 3) == 0);
  /* decoded tensors: copies of the originals without buffers */
  t = m_tensor(&r, 0, 10);
  CHECK(t.name && strcmp(t.name, "w_decoded") == 0);
  CHECK(t.type == TFLC_INT8 && t.rank == 2 && t.dims[0] == 2 &&
        t.dims[1] == 3 && t.buffer == 0);
  CHECK(t.has_q && t.nscale == 2 && t.scale[1] == 0.25f && t.axis == 0);
  t = m_tensor(&r, 0, 11);
  CHECK(strcmp(t.name, "b_decoded") == 0 && t.type == TFLC_INT32 &&
        t.buffer == 0 && !t.has_q && t.rank == 1 && t.dims[0] == 2);
  CHECK(strcmp(m_tensor(&r, 0, 12).name, "w_decoded") == 0);
  CHECK(strcmp(m_tensor(&r, 0, 13).name, "b_decoded") == 0);
  /* operators: DECODE, FC, DECODE, ADD, DECODE */
  CHECK_EQ_INT(sg_count(&r, 0, 3), 5);
  o = m_op(&r, 0, 0);
  CHECK_EQ_INT(o.opcode, decode_oc);
  CHECK(o.nin == 4 && o.in[0] == 6 && o.in[1] == 7 && o.in[2] == 8 &&
        o.in[3] == 9);
  CHECK(o.nout == 2 && o.out[0] == 10 && o.out[1] == 11);
  CHECK(o.otype == 0 && o.opts == 0 && !o.has_custom_options);
  o = m_op(&r, 0, 1);
  CHECK_EQ_INT(o.opcode, fc_oc);
  CHECK(o.nin == 3 && o.in[0] == 0 && o.in[1] == 10 && o.in[2] == 11);
  CHECK(o.otype == 8 && fb_u(&r, o.opts, 0, 1, 0) == 1);
  o = m_op(&r, 0, 2);
  CHECK(o.opcode == decode_oc && o.nin == 2 && o.in[0] == 6 && o.in[1] == 7 &&
        o.nout == 1 && o.out[0] == 12);
  o = m_op(&r, 0, 3);
  CHECK(o.nin == 2 && o.in[0] == 12 && o.in[1] == 12 && o.out[0] == 4);
  o = m_op(&r, 0, 4);
  CHECK(o.opcode == decode_oc && o.nin == 2 && o.in[0] == 8 && o.in[1] == 9 &&
        o.nout == 1 && o.out[0] == 13);
  /* outputs rewired; inputs unchanged */
  CHECK_EQ_INT(sg_count(&r, 0, 2), 3);
  CHECK_EQ_INT(sg_list(&r, 0, 2, 0), 3);
  CHECK_EQ_INT(sg_list(&r, 0, 2, 1), 13);
  CHECK_EQ_INT(sg_list(&r, 0, 2, 2), 4);
  CHECK_EQ_INT(sg_list(&r, 0, 1, 0), 0);
  CHECK_EQ_INT(r.bad, 0);
  /* finishing again gives the same bytes */
  p2 = finish_model(w, &n2);
  CHECK(n2 == n && p2 && memcmp(p, p2, n) == 0);
  free(p2);
  free(p);
  tflc_writer_destroy(w);
}

/* DECODE in a second subgraph, with 8-bit indices (our extension). */
static void test_decode_subgraph(void) {
  tflc_writer *w = tflc_writer_create();
  uint8_t vals[100], *p;
  int8_t k[100];
  int32_t d[1] = {100}, sg, a, kt, y, in[2], i;
  size_t n, len;
  fbr r;
  oinfo o;
  const uint8_t *bd;
  for (i = 0; i < 100; i++) {
    k[i] = (int8_t)(i - 50);
    vals[i] = (uint8_t)(i - 50);
  }
  sg = tflc_writer_subgraph(w);
  a = tflc_writer_tensor(w, sg, TFLC_INT8, 1, d, NULL, 0, "a", NULL);
  kt = tflc_writer_tensor(w, sg, TFLC_INT8, 1, d, k, 100, NULL, NULL);
  y = tflc_writer_tensor(w, sg, TFLC_INT8, 1, d, NULL, 0, "y", NULL);
  in[0] = a;
  in[1] = kt;
  tflc_writer_op(w, sg, 0, NULL, 2, in, 1, &y, 0, 0, NULL);
  CHECK_EQ_INT(tflc_writer_compress(w, sg, kt, 8, TFLC_W_DECODE, 0), TFLC_OK);
  p = finish_model(w, &n);
  r = fbr_make(p, n);
  CHECK_EQ_INT(walk_model(&r), 0);
  CHECK_EQ_INT(sg_count(&r, 0, 3), 0);
  CHECK_EQ_INT(sg_count(&r, 1, 3), 2);
  o = m_op(&r, 1, 0);
  CHECK(m_code(&r, o.opcode) == 32 && o.nin == 2 && o.in[0] == 3 &&
        o.in[1] == 4 && o.out[0] == 5);
  o = m_op(&r, 1, 1);
  CHECK(o.in[0] == 0 && o.in[1] == 5 && o.out[0] == 2);
  CHECK(strcmp(m_tensor(&r, 1, 3).name, "_encoded") == 0);
  CHECK(strcmp(m_tensor(&r, 1, 5).name, "_decoded") == 0);
  bd = m_buffer(&r, m_tensor(&r, 1, 3).buffer, &len);
  CHECK(bd != NULL && len == 100);
  CHECK(bd != NULL && bd[0] == 0 && bd[99] == 99); /* sorted: -50..49 */
  check_ancillary(&r, 1, 4, 8, 100, vals, 100);
  free(p);
  tflc_writer_destroy(w);
}

/* ---- argument errors
 * ------------------------------------------------------------ */

static void test_arg_errors(void) {
  tflc_writer *w = tflc_writer_create();
  int32_t d[1] = {1}, a;
  uint8_t *p = NULL;
  size_t n = 0;
  tflc_w_quant q;
  q.scale = NULL;
  q.zero_point = NULL;
  q.count = 1;
  q.axis = 0;
  CHECK_EQ_INT(tflc_writer_tensor(w, 1, 0, 1, d, NULL, 0, "a", NULL), -1);
  CHECK_EQ_INT(tflc_writer_tensor(w, 0, 0, -1, d, NULL, 0, "a", NULL), -1);
  CHECK_EQ_INT(tflc_writer_tensor(w, 0, 0, 1, NULL, NULL, 0, "a", NULL), -1);
  CHECK_EQ_INT(tflc_writer_tensor(w, 0, 300, 1, d, NULL, 0, "a", NULL), -1);
  CHECK_EQ_INT(tflc_writer_tensor(w, 0, 0, 1, d, NULL, 0, "a", &q), -1);
  CHECK_EQ_INT(tflc_writer_tensor(NULL, 0, 0, 1, d, NULL, 0, "a", NULL), -1);
  a = tflc_writer_tensor(w, 0, 0, 1, d, NULL, 0, "a", NULL);
  CHECK_EQ_INT(a, 0);
  CHECK_EQ_INT(tflc_writer_op(w, 3, 0, NULL, 1, &a, 1, &a, 0, 0, NULL), -1);
  CHECK_EQ_INT(tflc_writer_op(w, 0, 0, NULL, 1, NULL, 1, &a, 0, 0, NULL), -1);
  CHECK_EQ_INT(tflc_writer_op(w, 0, 0, NULL, -1, &a, 1, &a, 0, 0, NULL), -1);
  CHECK_EQ_INT(tflc_writer_metadata(w, NULL, NULL, 0), -1);
  CHECK_EQ_INT(tflc_writer_status(w), TFLC_OK);
  /* out-of-range tensor indices are written as given (negative tests) */
  d[0] = 77;
  CHECK_EQ_INT(tflc_writer_op(w, 0, 0, NULL, 1, d, 1, &a, 0, 0, NULL), 0);
  tflc_writer_outputs(w, 0, 1, d);
  p = finish_model(w, &n);
  {
    fbr r = fbr_make(p, n);
    CHECK_EQ_INT(m_op(&r, 0, 0).in[0], 77);
    CHECK_EQ_INT(sg_list(&r, 0, 2, 0), 77);
  }
  free(p);
  CHECK_EQ_INT(tflc_writer_finish(w, NULL, &n), TFLC_ERR_ARG);
  CHECK_EQ_INT(tflc_writer_finish(NULL, &p, &n), TFLC_ERR_ARG);
  /* sticky errors from calls that return nothing */
  tflc_writer_inputs(w, 0, -2, d);
  CHECK_EQ_INT(tflc_writer_status(w), TFLC_ERR_ARG);
  tflc_writer_set_variable(w, 0, 5, 1); /* first error stays */
  CHECK_EQ_INT(tflc_writer_status(w), TFLC_ERR_ARG);
  CHECK_EQ_INT(tflc_writer_finish(w, &p, &n), TFLC_ERR_ARG);
  CHECK(p == NULL);
  tflc_writer_destroy(w);
  w = tflc_writer_create();
  tflc_writer_set_variable(w, 0, 0, 1);
  CHECK_EQ_INT(tflc_writer_status(w), TFLC_ERR_INDEX);
  tflc_writer_destroy(w);
  w = tflc_writer_create();
  tflc_writer_outputs(w, 4, 1, d);
  CHECK_EQ_INT(tflc_writer_status(w), TFLC_ERR_INDEX);
  tflc_writer_destroy(w);
  tflc_writer_destroy(NULL);
  CHECK_EQ_INT(tflc_writer_subgraph(NULL), -1);
  CHECK_EQ_INT(tflc_writer_status(NULL), TFLC_ERR_ARG);
}

/* An empty model still has one subgraph, the sentinel buffer and the
 * structure a reader expects. */
static void test_empty_model(void) {
  tflc_writer *w = tflc_writer_create();
  uint8_t *p;
  size_t n;
  fbr r;
  p = finish_model(w, &n);
  r = fbr_make(p, n);
  CHECK_EQ_INT(walk_model(&r), 0);
  CHECK_EQ_INT(m_count(&r, 1), 0);
  CHECK(fb_has(&r, m_root(&r), 1));
  CHECK_EQ_INT(m_count(&r, 2), 1);
  CHECK_EQ_INT(m_count(&r, 4), 1);
  CHECK(fb_has(&r, m_subgraph(&r, 0), 0) && fb_has(&r, m_subgraph(&r, 0), 1) &&
        fb_has(&r, m_subgraph(&r, 0), 2) && fb_has(&r, m_subgraph(&r, 0), 3));
  CHECK(!fb_has(&r, m_subgraph(&r, 0), 4));
  free(p);
  tflc_writer_destroy(w);
}

int main(void) {
  RUN(test_pack_indices);
  RUN(test_basic_model);
  RUN(test_opcodes);
  RUN(test_options);
  RUN(test_buffer_alignment);
  RUN(test_external_buffers);
  RUN(test_compress_seed_example);
  RUN(test_compress_last_axis);
  RUN(test_compress_types);
  RUN(test_compress_errors);
  RUN(test_metadata_format);
  RUN(test_decode_format);
  RUN(test_decode_subgraph);
  RUN(test_arg_errors);
  RUN(test_empty_model);
  return harness_report();
}

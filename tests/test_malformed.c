/* tests/test_malformed.c - damaged models: every class of damage gets its
 * own status and a message naming the place, and no mutant crashes.
 *
 * (a) Targeted cases: a valid model built with the writer (fuzz/models.h),
 *     then one kind of damage (truncation, offsets, vtables, lengths,
 *     unions, enums, shapes, indices, buffers, operator arity, scales,
 *     every malformed compression descriptor of both formats). Each case
 *     checks the exact status, the stage that refuses it (model init or
 *     interpreter init) and that the message names the place.
 * (b) Mutants of the shared models (../shared/models/NAME.tflite and the
 *     compressed conformance models, when present) and of the writer's
 *     corpus: truncations, bit flips, byte/u16/u32 overwrites with
 *     boundary values, structural edits of offsets and vector lengths.
 *     Every mutant goes through model init, interpreter init and invoke
 *     from an exact-size copy (run it under ASan/UBSan: make test
 *     SANITIZE=1, or valgrind). Mutants that are certainly invalid (cut
 *     inside, or with a broken offset/length of, a structure the verifier
 *     must read) must be refused by tflc_model_init.
 *
 * TFLC_MALFORMED_SECONDS (default 40) bounds the mutant phase; the checks
 * counted do not depend on it. SHARED (default ../shared) locates the
 * shared models. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* damaged models may loop forever in a WHILE: bounded here */
#define TFLC_WHILE_MAX_ITERATIONS 1000
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "../tflc_write.h"
#include "harness.h"
#include "models.h"
#include "../fuzz/models.h"

#define ARENA_SIZE (512u * 1024u)
static uint8_t *arena;

/* ---- running a model ------------------------------------------------------
 * stage: 0 refused by tflc_model_init, 1 by tflc_interpreter_init, 2 by
 * tflc_invoke, 3 ran. */
typedef struct result {
  tflc_status st;
  int stage;
  char msg[TFLC_ERROR_LEN];
} result;

static void fill_inputs(tflc_interpreter *it) {
  int32_t i;
  for (i = 0; i < it->num_inputs; i++) {
    tflc_tensor *t = tflc_input(it, i);
    memset(t->data, 0, t->bytes);
  }
}

static volatile uint32_t sink;

static result run_model(const uint8_t *p, size_t n, size_t arena_size) {
  result r;
  tflc_model m;
  tflc_interpreter it;
  uint8_t *copy = (uint8_t *)malloc(n ? n : 1); /* exact size */
  memset(&r, 0, sizeof r);
  if (!copy)
    abort();
  if (n)
    memcpy(copy, p, n);
  r.st = tflc_model_init(&m, copy, n);
  if (r.st != TFLC_OK) {
    memcpy(r.msg, m.error, TFLC_ERROR_LEN);
    free(copy);
    return r;
  }
  r.stage = 1;
  r.st = tflc_interpreter_init(&it, &m, arena, arena_size, NULL);
  if (r.st == TFLC_OK) {
    int32_t o;
    r.stage = 2;
    fill_inputs(&it);
    r.st = tflc_invoke(&it);
    for (o = 0; r.st == TFLC_OK && o < it.num_outputs; o++) {
      const tflc_tensor *t = tflc_output(&it, o);
      uint32_t k;
      for (k = 0; k < t->bytes; k++)
        sink += ((const uint8_t *)t->data)[k];
    }
    if (r.st == TFLC_OK)
      r.stage = 3;
  }
  memcpy(r.msg, it.error, TFLC_ERROR_LEN);
  {
    /* the smaller plans on the same bytes: every depthwise layer that can
     * written over its input, then the smallest plan; whatever they say,
     * nothing out of bounds */
    static const int32_t plans[2] = {TFLC_PLAN_EVERYWHERE, TFLC_PLAN_SMALLEST};
    tflc_options o;
    int k;
    for (k = 0; k < 2; k++) {
      memset(&o, 0, sizeof o);
      o.plan = plans[k];
      if (tflc_interpreter_init(&it, &m, arena, arena_size, &o) == TFLC_OK) {
        fill_inputs(&it);
        (void)tflc_invoke(&it);
      }
    }
  }
  free(copy);
  return r;
}

/* ---- the model being damaged ------------------------------------------------
 * `base` is a valid model; `ref` is tflc's view of it, used to find where
 * things are. Each case damages a fresh copy `cur`. */
static uint8_t *base, *cur;
static size_t base_n, cur_n;
static tflc_model ref;
static uint32_t ref_sgt;

static void set_base(int ok, uint8_t *p, size_t n) {
  free(base);
  base = NULL;
  if (!ok) {
    fprintf(stderr, "test_malformed: the writer failed\n");
    harness_failed++;
    return;
  }
  base = p;
  base_n = n;
  free(cur);
  cur = (uint8_t *)malloc(n);
  if (!cur)
    abort();
  if (tflc_model_init(&ref, base, base_n) != TFLC_OK) {
    fprintf(stderr, "test_malformed: base model invalid: %s\n", ref.error);
    harness_failed++;
  }
  ref_sgt = tflc__subgraph(&ref, 0);
}
static void reset(void) {
  memcpy(cur, base, base_n);
  cur_n = base_n;
}
static tflc__fb ref_fb(void) {
  return tflc__mfb(&ref);
}
static void put8(uint32_t pos, uint32_t v) {
  cur[pos] = (uint8_t)v;
}
static void put16(uint32_t pos, uint32_t v) {
  cur[pos] = (uint8_t)v;
  cur[pos + 1] = (uint8_t)(v >> 8);
}
static void put32(uint32_t pos, uint32_t v) {
  put16(pos, v & 0xFFFFu);
  put16(pos + 2, v >> 16);
}
/* Position of a field, of the uoffset it holds, of what it points to. */
static uint32_t field(uint32_t table, uint32_t slot, uint32_t size) {
  return tflc__field(ref_fb(), table, slot, size);
}
static uint32_t target(uint32_t table, uint32_t slot) {
  return tflc__get_ref(ref_fb(), table, slot);
}
static uint32_t tensor(int32_t t) {
  return tflc__tensor_table(&ref, ref_sgt, t);
}
static uint32_t op(int32_t i) {
  return tflc__op_table(&ref, ref_sgt, i);
}
/* Index of the first operator with builtin code `code`, or -1. */
static int32_t find_op(int32_t code) {
  int32_t i, n = tflc_model_num_ops(&ref, 0);
  for (i = 0; i < n; i++)
    if (tflc_model_op_code(&ref, 0, i) == code)
      return i;
  return -1;
}
/* Input k of operator i. */
static int32_t op_input(int32_t i, uint32_t k) {
  uint32_t v = target(op(i), TFLC__OP_INPUTS);
  return tflc__i32(ref.bytes + v + 4 + 4 * k);
}
/* Data position and length of tensor t's buffer. */
static uint32_t data_of(int32_t t, uint32_t *len) {
  const uint8_t *d = tflc__buffer(
      &ref, tflc__get_u32(ref_fb(), tensor(t), TFLC__T_BUFFER, 0), len);
  return d ? (uint32_t)(d - ref.bytes) : 0;
}
/* The LutTensor table of tensor t (COMPRESSION_METADATA), absolute. */
static uint32_t lut_of(int32_t t) {
  uint32_t lt = tflc__meta_lut(&ref, 0, t);
  return lt ? ref.comp_base + lt : 0;
}
static tflc__fb meta_fb(void) {
  tflc__fb nb;
  nb.b = ref.bytes + ref.comp_base;
  nb.n = ref.comp_size;
  return nb;
}
/* Absolute position of field `slot` of the nested table at absolute lt. */
static uint32_t meta_field(uint32_t lt, uint32_t slot, uint32_t size) {
  uint32_t f = tflc__field(meta_fb(), lt - ref.comp_base, slot, size);
  return f ? ref.comp_base + f : 0;
}

static int contains(const char *msg, const char *place) {
  return strstr(msg, place) != NULL;
}

/* The current damaged copy must be refused at `stage` with `st`, and the
 * message must contain `place`. */
static void expect(const char *name, int stage, tflc_status st,
                   const char *place) {
  result r = run_model(cur, cur_n, ARENA_SIZE);
  int ok = r.stage == stage && r.st == st && contains(r.msg, place);
  harness_current = name;
  CHECK(ok);
  if (!ok)
    fprintf(stderr,
            "  %s: stage %d, %s: \"%s\"; expected stage %d, %s, \"%s\"\n", name,
            r.stage, tflc_status_str(r.st), r.msg, stage, tflc_status_str(st),
            place);
}
/* As expect, accepting either status (truncations: where the file ends
 * decides whether a table or a vector is found cut). */
static void expect2(const char *name, int stage, tflc_status st,
                    tflc_status st2, const char *place) {
  result r = run_model(cur, cur_n, ARENA_SIZE);
  int ok =
      r.stage == stage && (r.st == st || r.st == st2) && contains(r.msg, place);
  harness_current = name;
  CHECK(ok);
  if (!ok)
    fprintf(stderr, "  %s: stage %d, %s: \"%s\"; expected stage %d, %s\n", name,
            r.stage, tflc_status_str(r.st), r.msg, stage, tflc_status_str(st));
}
/* Asserts that a position was found before damaging it. */
static int found(const char *name, uint32_t pos) {
  harness_current = name;
  CHECK(pos != 0);
  if (!pos)
    fprintf(stderr, "  %s: structure not found in the base model\n", name);
  return pos != 0;
}

/* ---- (a) targeted cases ----------------------------------------------------
 * fm_conv: tensors 0 x, 1 filter, 2 bias, 3 y; op 0 CONV_2D. */
static void build_conv(const fm_comp *c) {
  uint8_t *p = NULL;
  size_t n = 0;
  int ok;
  rng_seed(12345u);
  ok = fm_conv(0, 1, 1, c, &p, &n);
  set_base(ok, p, n);
}

static void test_flatbuffer(void) {
  uint32_t pos, vt;
  build_conv(NULL);
  if (!base)
    return;
  reset();
  cur_n = 5;
  expect("short file", 0, TFLC_ERR_TRUNCATED, "5 bytes");
  reset();
  cur_n = base_n - 8; /* buffer data is written last */
  expect("truncated buffer", 0, TFLC_ERR_TRUNCATED, "buffer");
  reset();
  for (pos = 8; pos < base_n; pos += 8) {
    result r;
    cur_n = pos;
    r = run_model(cur, cur_n, ARENA_SIZE);
    if (r.stage != 0 ||
        (r.st != TFLC_ERR_TRUNCATED && r.st != TFLC_ERR_FLATBUFFER) ||
        !r.msg[0]) {
      harness_current = "truncated anywhere";
      CHECK(0);
      fprintf(stderr, "  cut at %u: stage %d, %s: \"%s\"\n", pos, r.stage,
              tflc_status_str(r.st), r.msg);
      break;
    }
  }
  harness_current = "truncated anywhere";
  CHECK(pos >= base_n);
  reset();
  cur_n = 100;
  expect2("truncated tables", 0, TFLC_ERR_TRUNCATED, TFLC_ERR_FLATBUFFER, "");
  reset();
  put8(4, 'X');
  expect("identifier", 0, TFLC_ERR_IDENTIFIER, "TFL3");
  {
    /* the whole model 1..15 bytes off: the int32 bias is misaligned, and
     * copied into the arena; the outputs stay the aligned model's */
    uint8_t *buf = (uint8_t *)malloc(base_n + 32), *want = NULL;
    uint32_t off, want_n = 0;
    if (!buf)
      abort();
    for (off = 0; off < 16; off++) {
      uint8_t *at = (uint8_t *)(((uintptr_t)buf + 15) & ~(uintptr_t)15) + off;
      tflc_model m;
      tflc_interpreter it;
      const tflc_tensor *o;
      tflc_status st;
      memcpy(at, base, base_n);
      harness_current = "model at any address";
      st = tflc_model_init(&m, at, base_n);
      CHECK_EQ_INT(st, TFLC_OK);
      if (st)
        break;
      st = tflc_interpreter_init(&it, &m, arena, ARENA_SIZE, NULL);
      CHECK_EQ_INT(st, TFLC_OK);
      if (st)
        break;
      {
        tflc_tensor *in = tflc_input(&it, 0);
        uint32_t k;
        for (k = 0; k < in->bytes; k++)
          ((uint8_t *)in->data)[k] = (uint8_t)(k * 7u + 3u);
      }
      CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
      o = tflc_output(&it, 0);
      if (!want) {
        want = (uint8_t *)malloc(o->bytes);
        if (!want)
          abort();
        memcpy(want, o->data, o->bytes);
        want_n = o->bytes;
      } else {
        CHECK_EQ_INT((int)o->bytes, (int)want_n);
        CHECK(o->bytes == want_n && !memcmp(o->data, want, want_n));
      }
    }
    free(want);
    free(buf);
  }
  reset();
  put32(0, (uint32_t)base_n + 64);
  expect("root offset out of range", 0, TFLC_ERR_TRUNCATED, "root");
  reset();
  pos = tensor(1);
  if (found("vtable offset", pos)) {
    put32(pos, 0x80000000u);
    expect("vtable offset out of range", 0, TFLC_ERR_FLATBUFFER, "tensor 1");
  }
  reset();
  vt = (uint32_t)((int64_t)pos - tflc__i32(base + pos));
  put16(vt, 0xFFFFu);
  expect("vtable size odd/huge", 0, TFLC_ERR_FLATBUFFER, "tensor 1");
  reset();
  put16(vt + 2, 0xFFF0u);
  /* (a table running past the end may be a cut-off file) */
  expect2("table size past the end", 0, TFLC_ERR_FLATBUFFER, TFLC_ERR_TRUNCATED,
          "tensor 1");
  reset();
  pos = target(ref_sgt, TFLC__SG_TENSORS);
  if (found("tensors vector", pos)) {
    put32(pos, 0x7FFFFFFFu);
    expect("tensor vector length huge", 0, TFLC_ERR_FLATBUFFER, "subgraph 0");
  }
  reset();
  pos = field(ref_sgt, TFLC__SG_OPERATORS, 4);
  if (found("operators offset", pos)) {
    put32(pos, 0xFFFFFFF0u);
    expect("operators offset out of range", 0, TFLC_ERR_FLATBUFFER,
           "subgraph 0");
  }
  reset();
  pos = target(tensor(1), TFLC__T_SHAPE);
  if (found("shape vector", pos)) {
    put32(pos, 0xFFFFFFFFu);
    expect("shape length huge", 0, TFLC_ERR_FLATBUFFER, "tensor 1: broken");
  }
  reset();
  pos = target(tensor(1), TFLC__T_NAME);
  if (found("name string", pos)) {
    put32(pos, (uint32_t)base_n);
    expect2("name length huge", 0, TFLC_ERR_FLATBUFFER, TFLC_ERR_TRUNCATED,
            "tensor 1: ");
    reset();
    put8(pos + 4 + tflc__u32(base + pos), 'x');
    expect("name without NUL", 0, TFLC_ERR_FLATBUFFER, "tensor 1: broken name");
  }
  reset();
  pos = field(ref.root, TFLC__MODEL_SUBGRAPHS, 4);
  if (found("subgraphs offset", pos)) {
    put32(pos, 0x7FFFFFF0u);
    expect("subgraphs offset out of range", 0, TFLC_ERR_FLATBUFFER,
           "subgraphs");
  }
  reset();
  pos = field(ref.root, TFLC__MODEL_BUFFERS, 4);
  if (found("buffers offset", pos)) {
    put32(pos, 0x7FFFFFF0u);
    expect("buffers offset out of range", 0, TFLC_ERR_FLATBUFFER, "buffers");
  }
  reset();
  pos = target(tensor(3), TFLC__T_QUANT);
  if (found("quantization table", pos)) {
    put32(pos, 0x7FFFFFF0u);
    expect("quantization table broken", 0, TFLC_ERR_FLATBUFFER, "tensor 3");
  }
  reset();
  pos = target(op(0), TFLC__OP_OPTS);
  if (found("options table", pos)) {
    put32(pos, 0x7FFFFFF0u);
    expect("options table broken", 0, TFLC_ERR_FLATBUFFER, "options of op 0");
  }
  reset();
  pos = ref.opcodes;
  if (found("operator codes", pos)) {
    put32(pos, 0x7FFFFFF0u);
    expect("operator code offset broken", 0, TFLC_ERR_FLATBUFFER,
           "operator code 0");
  }
  reset();
  pos = ref.buffers + 4; /* buffer 1 */
  if (found("buffers", pos)) {
    put32(pos, 0x7FFFFFF0u);
    expect("buffer table offset broken", 0, TFLC_ERR_FLATBUFFER, "buffer 1");
  }
}

/* Builds a one-op model directly (for options, codes and indices). */
static void build_custom(int32_t code, const char *custom, uint8_t otype,
                         int32_t nopts, const tflc_w_option *opts,
                         int32_t in_idx, int32_t out_idx, int in_type) {
  tflc_writer *w = tflc_writer_create();
  int32_t d[2] = {2, 4}, x, y;
  uint8_t *p = NULL;
  size_t n = 0;
  int ok;
  x = add_tensor(w, in_type, 2, d, NULL, 0, 0.5f, 0, "x");
  y = add_tensor(w, TFLC_INT8, 2, d, NULL, 0, 0.5f, 0, "y");
  if (in_idx >= 0)
    x = in_idx;
  if (out_idx != -2)
    y = out_idx;
  tflc_writer_op(w, 0, code, custom, 1, &x, 1, &y, otype, nopts, opts);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  ok = fm_finish(w, &p, &n);
  set_base(ok, p, n);
}
/* As build_custom, but the model need not be valid: checks it directly. */
static void expect_built(const char *name, int32_t code, const char *custom,
                         uint8_t otype, int32_t nopts,
                         const tflc_w_option *opts, int32_t in_idx,
                         int32_t out_idx, int in_type, int stage,
                         tflc_status st, const char *place) {
  tflc_writer *w = tflc_writer_create();
  int32_t d[2] = {2, 4}, x, y;
  uint8_t *p = NULL;
  size_t n = 0;
  x = add_tensor(w, in_type, 2, d, NULL, 0, 0.5f, 0, "x");
  y = add_tensor(w, TFLC_INT8, 2, d, NULL, 0, 0.5f, 0, "y");
  if (in_idx >= 0)
    x = in_idx;
  if (out_idx != -2)
    y = out_idx;
  tflc_writer_op(w, 0, code, custom, 1, &x, 1, &y, otype, nopts, opts);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  if (!fm_finish(w, &p, &n)) {
    harness_current = name;
    CHECK(0);
    return;
  }
  free(cur);
  cur = p;
  cur_n = n;
  expect(name, stage, st, place);
  free(cur);
  cur = (uint8_t *)malloc(1);
}

static void test_unions_enums(void) {
  tflc_w_option o[2];
  uint32_t pos;
  o[0] = opt_u8(0, 0);
  expect_built("unknown options type", 9, NULL, 250, 1, o, -1, -2, TFLC_INT8, 0,
               TFLC_ERR_SCHEMA, "op 0 FULLY_CONNECTED: options type 250");
  expect_built("options of the wrong type", 9, NULL, 1, 1, o, -1, -2, TFLC_INT8,
               0, TFLC_ERR_SCHEMA, "op 0 FULLY_CONNECTED: options type 1");
  o[0] = opt_u8(0, 9);
  expect_built("unknown fused activation", 9, NULL, 8, 1, o, -1, -2, TFLC_INT8,
               0, TFLC_ERR_SCHEMA, "op 0 FULLY_CONNECTED: fused activation 9");
  o[0] = opt_u8(0, 7);
  expect_built("unknown padding", 17, NULL, 5, 1, o, -1, -2, TFLC_INT8, 0,
               TFLC_ERR_SCHEMA, "op 0 MAX_POOL_2D: padding 7");
  expect_built("unknown builtin operator", 500, NULL, 0, 0, NULL, -1, -2,
               TFLC_INT8, 1, TFLC_ERR_UNSUPPORTED,
               "op 0 UNKNOWN: operator not supported (code 500)");
  expect_built("unknown custom operator", 32, "MY_OP", 0, 0, NULL, -1, -2,
               TFLC_INT8, 1, TFLC_ERR_UNSUPPORTED,
               "op 0 MY_OP: custom operator unknown");
  expect_built("unknown tensor type", 19, NULL, 0, 0, NULL, -1, -2, 100, 0,
               TFLC_ERR_TYPE, "tensor 0: type");
  o[0] = opt_i32(0, 7);
  expect_built("subgraph index out of range", 129, NULL, 103, 1, o, -1, -2,
               TFLC_INT8, 0, TFLC_ERR_INDEX, "op 0: subgraph 7 out of range");
  /* CUSTOM without a name, and a broken custom name */
  build_custom(32, "MY_OP", 0, 0, NULL, -1, -2, TFLC_INT8);
  if (!base)
    return;
  reset();
  pos = target(tflc__vec_table(ref_fb(), ref.opcodes, 0), TFLC__OC_CUSTOM);
  if (found("custom code", pos)) {
    put32(pos, 0x7FFFFFFFu);
    expect("custom code length huge", 0, TFLC_ERR_FLATBUFFER,
           "operator code 0: broken custom_code");
  }
}

static void test_shapes_indices(void) {
  tflc_writer *w;
  int32_t d_neg[1] = {-3}, d_big[2] = {65536, 65536}, d_bytes[2] = {1 << 29, 2};
  int32_t d7[7] = {1, 1, 1, 1, 1, 1, 2};
  struct {
    const char *name;
    int32_t rank;
    const int32_t *dims;
    const char *place;
  } cases[4];
  int k;
  uint32_t pos;
  uint8_t *p;
  size_t n;
  cases[0].name = "negative dimension";
  cases[0].rank = 1;
  cases[0].dims = d_neg;
  cases[0].place = "tensor 0: dimension 0 is -3";
  cases[1].name = "overflowing dimensions";
  cases[1].rank = 2;
  cases[1].dims = d_big;
  cases[1].place = "tensor 0: too many elements";
  cases[2].name = "overflowing bytes";
  cases[2].rank = 2;
  cases[2].dims = d_bytes;
  cases[2].place = "tensor 0: too many bytes";
  cases[3].name = "rank above TFLC_MAX_DIMS";
  cases[3].rank = 7;
  cases[3].dims = d7;
  cases[3].place = "tensor 0: rank 7";
  for (k = 0; k < 4; k++) {
    int32_t x, y;
    w = tflc_writer_create();
    x = tflc_writer_tensor(w, 0, TFLC_FLOAT32, cases[k].rank, cases[k].dims,
                           NULL, 0, "x", NULL);
    y = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d_neg + 0, NULL, 0, "y",
                           NULL);
    (void)y;
    tflc_writer_inputs(w, 0, 1, &x);
    p = NULL;
    n = 0;
    if (!fm_finish(w, &p, &n))
      continue;
    free(cur);
    cur = p;
    cur_n = n;
    expect(cases[k].name, 0, TFLC_ERR_SHAPE, cases[k].place);
    free(cur);
    cur = (uint8_t *)malloc(1);
  }
  /* indices */
  expect_built("op input index out of range", 19, NULL, 0, 0, NULL, 99, -2,
               TFLC_INT8, 0, TFLC_ERR_INDEX, "inputs of subgraph 0");
  expect_built("op output index negative", 19, NULL, 0, 0, NULL, -1, -1,
               TFLC_INT8, 0, TFLC_ERR_INDEX, "outputs of subgraph 0");
  build_conv(NULL);
  if (!base)
    return;
  reset();
  pos = target(op(0), TFLC__OP_INPUTS);
  put32(pos + 4, 77);
  expect("operator input out of range", 0, TFLC_ERR_INDEX,
         "inputs of op 0: tensor index 77");
  reset();
  pos = target(op(0), TFLC__OP_OUTPUTS);
  put32(pos + 4, 0xFFFFFFFFu);
  expect("operator output -1", 0, TFLC_ERR_INDEX,
         "outputs of op 0: tensor index -1");
  reset();
  pos = field(tensor(1), TFLC__T_BUFFER, 4);
  if (found("buffer index", pos)) {
    put32(pos, 99);
    expect("buffer index out of range", 0, TFLC_ERR_INDEX,
           "tensor 1: buffer 99 out of range");
  }
  reset();
  pos = field(op(0), TFLC__OP_OPCODE, 4);
  if (pos) {
    put32(pos, 5);
    expect("opcode index out of range", 0, TFLC_ERR_INDEX,
           "op 0: opcode index 5");
  }
  reset();
  pos = target(ref_sgt, TFLC__SG_INPUTS);
  put32(pos + 4, 4);
  expect("subgraph input out of range", 0, TFLC_ERR_INDEX,
         "inputs of subgraph 0: tensor index 4");
  /* zero and short */
  reset();
  pos = target(tensor(0), TFLC__T_SHAPE);
  put32(pos + 4 + 12, 0);
  expect("zero input depth", 1, TFLC_ERR_SHAPE, "op 0 CONV_2D");
  reset();
  {
    uint32_t len, d = data_of(1, &len);
    put32(d - 4, len - 1);
    expect("constant buffer shorter than its shape", 0, TFLC_ERR_BUFFER,
           "tensor 1: buffer");
  }
}

static void test_operators_quant(void) {
  uint32_t pos;
  build_conv(NULL);
  if (!base)
    return;
  reset();
  pos = target(op(0), TFLC__OP_INPUTS);
  put32(pos, 1);
  expect("too few inputs", 1, TFLC_ERR_SCHEMA, "op 0 CONV_2D");
  reset();
  pos = target(op(0), TFLC__OP_OUTPUTS);
  put32(pos + 4, 1); /* the filter */
  expect("constant output", 1, TFLC_ERR_SCHEMA,
         "op 0 CONV_2D: output tensor 1 is constant");
  reset();
  pos = target(ref_sgt, TFLC__SG_INPUTS);
  put32(pos + 4, 2); /* the bias */
  expect("constant subgraph input", 1, TFLC_ERR_SCHEMA,
         "input 0: tensor 2 is constant");
  /* scales: y is per tensor (scale 0.25), filter per channel */
  reset();
  pos = target(target(tensor(3), TFLC__T_QUANT), TFLC__Q_SCALE);
  put32(pos + 4, 0x7FC00000u);
  expect("NaN scale", 0, TFLC_ERR_QUANT, "tensor 3: scale 0 is not finite");
  reset();
  put32(pos + 4, 0x7F800000u);
  expect("infinite scale", 0, TFLC_ERR_QUANT, "tensor 3: scale 0");
  reset();
  put32(pos + 4, 0);
  expect("zero scale", 1, TFLC_ERR_QUANT, "op 0 CONV_2D");
  reset();
  pos = target(target(tensor(1), TFLC__T_QUANT), TFLC__Q_SCALE);
  put32(pos + 8, 0xBF800000u); /* channel 1: -1.0 */
  expect("negative filter scale", 1, TFLC_ERR_QUANT,
         "op 0 CONV_2D: filter scale 1");
  reset();
  pos = target(target(tensor(3), TFLC__T_QUANT), TFLC__Q_ZP);
  put32(pos + 4, 200);
  expect("int8 zero point out of range", 0, TFLC_ERR_QUANT,
         "tensor 3: zero point 0 out of range");
  reset();
  pos = target(target(tensor(1), TFLC__T_QUANT), TFLC__Q_ZP);
  put32(pos, 2);
  expect("zero point count", 0, TFLC_ERR_QUANT, "tensor 1: 2 zero points");
}

/* COMPRESSION_METADATA: the filter (tensor 1) at 4 bits per channel. */
static void test_metadata(void) {
  fm_comp c;
  uint32_t lt, pos, len, d;
  c.format = TFLC_W_METADATA;
  c.bits = 4;
  c.pad_pow2 = 0;
  c.bias = 0;
  build_conv(&c);
  if (!base)
    return;
  lt = lut_of(1);
  if (!found("LutTensor", lt))
    return;
  reset();
  pos = meta_field(lt, 2, 1);
  if (found("index_bitwidth", pos)) {
    put8(pos, 0);
    expect("width 0", 0, TFLC_ERR_COMPRESSION, "tensor 1: LUT index width 0");
    reset();
    put8(pos, 9);
    expect("width 9", 0, TFLC_ERR_COMPRESSION, "tensor 1: LUT index width 9");
  }
  reset();
  d = data_of(1, &len);
  put32(d - 4, len - 1);
  expect("short bitstring", 0, TFLC_ERR_COMPRESSION, "tensor 1: ");
  reset();
  pos = meta_field(lt, 1, 4);
  if (found("value_buffer", pos)) {
    uint32_t vb = tflc__u32(base + pos), vlen;
    const uint8_t *vd = tflc__buffer(&ref, vb, &vlen);
    uint32_t vpos = (uint32_t)(vd - ref.bytes);
    put32(vpos - 4, 2); /* 3 channels, 2 bytes: no table */
    expect("table too small for its channels", 0, TFLC_ERR_COMPRESSION,
           "tensor 1: empty LUT value table");
    reset();
    put32(vpos - 4, 3 * 2); /* 2 entries per channel: indices reach 3+ */
    expect("index beyond its table", 0, TFLC_ERR_COMPRESSION, ">= table size");
    reset();
    put32(pos, 999);
    expect("value buffer out of range", 0, TFLC_ERR_COMPRESSION,
           "tensor 1: value buffer 999");
  }
  reset();
  pos = meta_field(lt, 0, 4);
  if (found("LutTensor.tensor", pos)) {
    put32(pos, 0); /* the input activation */
    expect("names a non-constant tensor", 0, TFLC_ERR_COMPRESSION,
           "tensor 0: compressed but has no data");
    reset();
    put32(pos, 99);
    expect("names a tensor out of range", 0, TFLC_ERR_COMPRESSION,
           "tensor 99 out of range");
  }
  reset();
  {
    tflc__fb nb = meta_fb();
    uint32_t root = tflc__u32(nb.b);
    uint32_t sgs = tflc__get_ref(nb, root, 1);
    uint32_t vpos = tflc__field(nb, root, 0, 4);
    put32(ref.comp_base, ref.comp_size + 8);
    expect("nested root broken", 0, TFLC_ERR_COMPRESSION,
           "COMPRESSION_METADATA: broken root table");
    reset();
    if (sgs) {
      put32(ref.comp_base + sgs, 2);
      expect("more metadata subgraphs than the model", 0, TFLC_ERR_COMPRESSION,
             "COMPRESSION_METADATA: 2 subgraphs, model has 1");
    }
    reset();
    if (vpos) {
      put32(ref.comp_base + vpos, 2);
      expect("metadata schema version 2", 0, TFLC_ERR_COMPRESSION,
             "schema version 2");
    }
  }
  /* unsupported channel axis: per-channel filter quantized on axis 1 */
  reset();
  pos = field(target(tensor(1), TFLC__T_QUANT), TFLC__Q_DIM, 4);
  if (!pos) {
    /* axis 0 is the default and may be omitted: use the depthwise model */
  } else {
    put32(pos, 1);
    expect("channel axis 1", 0, TFLC_ERR_COMPRESSION,
           "tensor 1: LUT channel axis 1");
  }
  /* duplicate LutTensor: both the filter and the bias compressed, then
   * the second entry renamed to the first */
  c.bias = 1;
  build_conv(&c);
  if (!base)
    return;
  reset();
  lt = lut_of(2);
  pos = lt ? meta_field(lt, 0, 4) : 0;
  if (found("second LutTensor", pos)) {
    put32(pos, 1);
    expect("tensor listed twice", 0, TFLC_ERR_COMPRESSION,
           "tensor 1 listed twice");
  }
}

/* TFLM_DECODE: the filter at 3 bits. op 0 DECODE, op 1 CONV_2D. */
static void test_decode(void) {
  fm_comp c;
  int32_t di, enc, anc;
  uint32_t a, alen, e, elen, pos;
  c.format = TFLC_W_DECODE;
  c.bits = 3;
  c.pad_pow2 = 0;
  c.bias = 0;
  build_conv(&c);
  if (!base)
    return;
  di = find_op(TFLC_OP_TFLM_DECODE);
  if (!found("DECODE operator", di >= 0 ? 1u : 0u))
    return;
  enc = op_input(di, 0);
  anc = op_input(di, 1);
  a = data_of(anc, &alen);
  e = data_of(enc, &elen);
  if (!found("ancillary data", a) || !found("encoded data", e))
    return;
  reset();
  put8(a + 5, 0);
  expect("width 0", 0, TFLC_ERR_COMPRESSION, "LUT index width 0");
  reset();
  put8(a + 5, 0x43);
  expect("params with unknown bits", 0, TFLC_ERR_COMPRESSION,
         "LUT params byte 67");
  reset();
  put32(e - 4, elen - 1); /* the encoded tensor's shape says so too */
  put32(target(tensor(enc), TFLC__T_SHAPE) + 4, elen - 1);
  expect("short bitstring", 0, TFLC_ERR_COMPRESSION, "index bytes");
  reset();
  put8(a + 6, 200);
  expect("table too small for its channels", 0, TFLC_ERR_COMPRESSION,
         "value table");
  reset();
  put8(a + 6, 1);
  expect("index beyond its table", 0, TFLC_ERR_COMPRESSION, ">= table size");
  reset();
  /* a LUT header turned Huffman / Prune: read as such, and refused */
  put8(a + 0, 1);
  expect("Huffman decode type", 0, TFLC_ERR_COMPRESSION,
         "Huffman lookup outside the table");
  reset();
  put8(a + 0, 2);
  expect("pruning decode type", 0, TFLC_ERR_COMPRESSION, "prune bitmask keeps");
  reset();
  put8(a + 0, 127);
  expect("custom decode type 127", 0, TFLC_ERR_UNSUPPORTED, "DECODE type 127");
  reset();
  put8(a + 0, 200);
  expect("custom decode type 200", 0, TFLC_ERR_UNSUPPORTED, "DECODE type 200");
  reset();
  put8(a + 1, 2);
  expect("DCM version 2", 0, TFLC_ERR_COMPRESSION, "DECODE metadata version 2");
  reset();
  put8(a + 4, 0);
  expect("LUT version 0", 0, TFLC_ERR_COMPRESSION, "LUT version 0");
  reset();
  put32(a - 4, 15);
  put32(target(tensor(anc), TFLC__T_SHAPE) + 4, 15);
  expect("ancillary shorter than 16", 0, TFLC_ERR_COMPRESSION,
         "ancillary data 15 bytes");
  reset();
  pos = target(op(di), TFLC__OP_INPUTS);
  put32(pos, 1);
  expect("odd input count", 0, TFLC_ERR_COMPRESSION,
         "TFLM_DECODE: 1 inputs for 1 outputs");
  reset();
  put32(pos + 4, 0); /* encoded = the input activation */
  expect("non-constant encoded input", 0, TFLC_ERR_COMPRESSION,
         "must be constant");
  reset();
  put32(pos + 4, 0xFFFFFFFFu);
  expect("absent encoded input", 0, TFLC_ERR_COMPRESSION, "absent input");
  /* channel axis 1 on the decoded (output) tensor */
  reset();
  pos = field(target(tensor(op_input(find_op(3), 1)), TFLC__T_QUANT),
              TFLC__Q_DIM, 4);
  if (pos) {
    put32(pos, 1);
    expect("channel axis 1", 0, TFLC_ERR_COMPRESSION, "LUT channel axis 1");
  }
}

/* ---- arena sizes ---------------------------------------------------------
 * Every arena size from the minimum to what the model needs, at two
 * alignments: init either succeeds with tflc_arena_used() <= the size and
 * then runs, or says TFLC_ERR_ARENA. The arena is a heap block of exactly
 * that size, so ASan sees any write past it. */
static long sweep_runs, sweep_bad;
static void arena_sweep(const char *name, const uint8_t *p, size_t n,
                        void *user) {
  tflc_model m;
  tflc_interpreter it;
  uint8_t *copy;
  size_t need, size;
  int *k = (int *)user;
  if ((*k)++ % 3 != 0)
    return;
  copy = (uint8_t *)malloc(n);
  if (!copy)
    abort();
  memcpy(copy, p, n);
  if (tflc_model_init(&m, copy, n) != TFLC_OK ||
      tflc_interpreter_init(&it, &m, arena, ARENA_SIZE, NULL) != TFLC_OK) {
    free(copy);
    return;
  }
  need = tflc_arena_used(&it);
  for (size = 8; size <= need + 48; size += size + 64 < need ? 56 : 8) {
    unsigned mis;
    for (mis = 0; mis < 2; mis++) {
      uint8_t *a = (uint8_t *)malloc(size + mis * 5);
      tflc_status st;
      if (!a)
        abort();
      st = tflc_interpreter_init(&it, &m, a + mis * 5, size, NULL);
      sweep_runs++;
      if (st == TFLC_OK) {
        fill_inputs(&it);
        if (tflc_arena_used(&it) > size || tflc_invoke(&it) != TFLC_OK) {
          sweep_bad++;
          fprintf(stderr, "  %s: arena %u: used %u, or invoke failed\n", name,
                  (unsigned)size, (unsigned)tflc_arena_used(&it));
        }
      } else if (st != TFLC_ERR_ARENA) {
        sweep_bad++;
        fprintf(stderr, "  %s: arena %u: %s: %s\n", name, (unsigned)size,
                tflc_status_str(st), it.error);
      }
      free(a);
    }
  }
  free(copy);
}
/* A model whose VAR_HANDLE operators are prepared more often than it has
 * them (a fuzz_model finding: the variable records ran out, and the next
 * handle was written through a null pointer): refused at init, no crash. */
static const uint8_t var_handles_model[] = {
    0x28, 0x00, 0x00, 0x00, 0x54, 0x46, 0x4c, 0x33, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x12, 0x00,
    0x1c, 0x00, 0x18, 0x00, 0x14, 0x00, 0x10, 0x00, 0x0c, 0x00, 0x08, 0x00,
    0x00, 0x00, 0x04, 0x00, 0x12, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00,
    0x18, 0x00, 0x00, 0x00, 0x58, 0x00, 0x00, 0x00, 0x70, 0x00, 0x00, 0x00,
    0x88, 0x03, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x3c, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
    0x72, 0xfd, 0xff, 0xff, 0x04, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00,
    0xb1, 0x44, 0x40, 0xbf, 0x67, 0x01, 0xea, 0x3e, 0xc3, 0xd8, 0xfb, 0x3d,
    0x40, 0xe8, 0x43, 0xbf, 0x73, 0xfd, 0x40, 0xbf, 0x69, 0x83, 0x4e, 0x3f,
    0xc7, 0xf1, 0x5a, 0xbd, 0x25, 0x51, 0x9e, 0xbe, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0xa0, 0xfc, 0xff, 0xff, 0x14, 0x00, 0x00, 0x00,
    0x74, 0x66, 0x6c, 0x6d, 0x20, 0x63, 0x6f, 0x6e, 0x66, 0x6f, 0x72, 0x6d,
    0x61, 0x6e, 0x63, 0x65, 0x20, 0x7a, 0x6f, 0x6f, 0x00, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x0c, 0x01, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
    0x08, 0xff, 0xff, 0xff, 0x10, 0x00, 0x00, 0x00, 0x7c, 0x00, 0x00, 0x00,
    0x7c, 0x00, 0x00, 0x00, 0x7c, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
    0x28, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x9e, 0xfe, 0xff, 0xff,
    0x0c, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x92, 0xfe, 0xff, 0xff, 0x14, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x6f, 0x2c, 0x00, 0x00, 0x00, 0x30, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x84, 0xfe, 0xff, 0xff, 0x08, 0x00, 0x00, 0x00,
    0x10, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x73, 0x74, 0x61, 0x74,
    0x65, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
    0x40, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x10, 0x00,
    0x0c, 0x00, 0x00, 0x00, 0x08, 0x00, 0x04, 0x00, 0x0c, 0x00, 0x00, 0x00,
    0x0c, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00,
    0x0a, 0x00, 0x00, 0x00, 0x69, 0x6e, 0x69, 0x74, 0x5f, 0x76, 0x61, 0x6c,
    0x75, 0x65, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x08, 0x00, 0x00, 0x00, 0x20, 0xfe, 0xff, 0xff, 0x0c, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x0d, 0x18, 0x00, 0x00, 0x00, 0x0d, 0x00, 0x00, 0x00,
    0x72, 0x65, 0x73, 0x6f, 0x75, 0x72, 0x63, 0x65, 0x5f, 0x69, 0x6e, 0x69,
    0x74, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x14, 0x00,
    0x10, 0x00, 0x0c, 0x00, 0x08, 0x00, 0x04, 0x00, 0x0c, 0x00, 0x00, 0x00,
    0x10, 0x00, 0x00, 0x00, 0x38, 0x01, 0x00, 0x00, 0x3c, 0x01, 0x00, 0x00,
    0x40, 0x01, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0xfc, 0x00, 0x00, 0x00,
    0x9c, 0x00, 0x00, 0x00, 0x68, 0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00,
    0x04, 0x00, 0x00, 0x00, 0xae, 0xff, 0xff, 0xff, 0x0c, 0x00, 0x00, 0x00,
    0x0c, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
    0xa2, 0xff, 0xff, 0xff, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0b,
    0x10, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
    0x34, 0xfe, 0xff, 0xff, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x0a, 0x00, 0x10, 0x00, 0x0c, 0x00, 0x08, 0x00, 0x04, 0x00,
    0x0a, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0e, 0x00,
    0x18, 0x00, 0x14, 0x00, 0x10, 0x00, 0x0c, 0x00, 0x0b, 0x00, 0x04, 0x00,
    0x0e, 0x00, 0x00, 0x00, 0x1c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x6f,
    0x34, 0x00, 0x00, 0x00, 0x38, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x08, 0x00, 0x0c, 0x00, 0x08, 0x00, 0x04, 0x00, 0x08, 0x00, 0x00, 0x00,
    0x08, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
    0x73, 0x74, 0x30, 0x74, 0x65, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x16, 0x00, 0x00, 0x00,
    0x10, 0x00, 0x0c, 0x00, 0x0b, 0x00, 0x04, 0x00, 0x0e, 0x00, 0x00, 0x00,
    0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x67, 0x18, 0x00, 0x00, 0x00,
    0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x08, 0x00, 0x04, 0x00,
    0x06, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
    0x94, 0x00, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00,
    0x04, 0x00, 0x00, 0x00, 0x88, 0xff, 0xff, 0xff, 0x08, 0x00, 0x00, 0x00,
    0x0c, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x73, 0x75, 0x6d, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00,
    0xa8, 0xff, 0xff, 0xff, 0x08, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00,
    0x0a, 0x00, 0x00, 0x00, 0x72, 0x65, 0x61, 0x64, 0x5f, 0x76, 0x61, 0x6c,
    0x75, 0x65, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x08, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x10, 0x00, 0x0c, 0x00, 0x0b, 0x00,
    0x00, 0x00, 0x04, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x0d, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00,
    0x72, 0x65, 0x73, 0x6f, 0x75, 0x72, 0x63, 0x65, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x0c, 0x00, 0x08, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x04, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00,
    0x10, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x69, 0x6e, 0x70, 0x75,
    0x74, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x08, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x4c, 0x00, 0x00, 0x00,
    0x30, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00,
    0x04, 0x00, 0x00, 0x00, 0xd4, 0xff, 0xff, 0xff, 0x90, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x7f, 0x04, 0x00, 0x04, 0x00, 0x04, 0x00, 0x00, 0x00,
    0xe8, 0xff, 0xff, 0xff, 0x8f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x7f,
    0xf4, 0xff, 0xff, 0xff, 0x8e, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00, 0x7f,
    0x0c, 0x00, 0x0c, 0x00, 0x0b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
    0x0c, 0x00, 0x00, 0x00, 0x81, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x7f};
static void test_var_handles(void) {
  const result r =
      run_model(var_handles_model, sizeof var_handles_model, sizeof arena);
  CHECK(r.stage == 1 && r.st != TFLC_OK);
}

static void test_arena_sizes(void) {
  int k = 0;
  rng_seed(4242u);
  fm_all(arena_sweep, &k);
  CHECK(sweep_runs > 1000);
  CHECK(sweep_bad == 0);
}

/* ---- (b) mutants ----------------------------------------------------------
 */
typedef struct span {
  uint32_t pos, len, kind; /* kind: 0 data, 1 uoffset, 2 vector length,
                              3 table (soffset) */
} span;

typedef struct model_map {
  span *s;
  size_t n, cap;
  uint32_t required_end; /* end of the last structure the verifier reads */
} model_map;

static void add_span(model_map *mm, uint32_t pos, uint32_t len, uint32_t kind) {
  if (mm->n == mm->cap) {
    size_t nc = mm->cap ? mm->cap * 2 : 256;
    span *ns = (span *)realloc(mm->s, nc * sizeof(span));
    if (!ns)
      abort();
    mm->s = ns;
    mm->cap = nc;
  }
  mm->s[mm->n].pos = pos;
  mm->s[mm->n].len = len;
  mm->s[mm->n].kind = kind;
  mm->n++;
  if (pos + len > mm->required_end)
    mm->required_end = pos + len;
}
/* A table: its soffset, its inline bytes (vtable included). */
static void add_table(model_map *mm, tflc__fb fb, uint32_t t) {
  uint32_t vt;
  if (!t)
    return;
  vt = (uint32_t)((int64_t)t - tflc__i32(fb.b + t));
  add_span(mm, t, 4, 3);
  add_span(mm, t, tflc__u16(fb.b + vt + 2), 0);
  add_span(mm, vt, tflc__u16(fb.b + vt), 0);
}
/* Field `slot` of table t holds a uoffset to a vector of esz elements. */
static uint32_t add_vec(model_map *mm, tflc__fb fb, uint32_t t, uint32_t slot,
                        uint32_t esz) {
  uint32_t f = tflc__field(fb, t, slot, 4), v, n;
  if (!f)
    return 0;
  v = tflc__get_ref(fb, t, slot);
  if (!v)
    return 0;
  n = tflc__u32(fb.b + v);
  add_span(mm, f, 4, 1);
  add_span(mm, v, 4, 2);
  add_span(mm, v + 4, n * esz, 0);
  return v + 4;
}
static void add_table_ref(model_map *mm, tflc__fb fb, uint32_t t,
                          uint32_t slot) {
  uint32_t f = tflc__field(fb, t, slot, 4);
  if (!f)
    return;
  add_span(mm, f, 4, 1);
  add_table(mm, fb, tflc__get_ref(fb, t, slot));
}

/* Everything of a valid model the verifier must read (all subgraphs,
 * tensors with shape and quantization, operators with their vectors and
 * options, operator codes, buffers with their data). */
static void map_model(const tflc_model *m, model_map *mm) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t i, k, n, v;
  memset(mm, 0, sizeof *mm);
  add_table(mm, fb, m->root);
  for (k = 0; k < 3; k++) {
    static const uint32_t slots[3] = {
        TFLC__MODEL_OPCODES, TFLC__MODEL_SUBGRAPHS, TFLC__MODEL_BUFFERS};
    v = add_vec(mm, fb, m->root, slots[k], 4);
    n = k == 0   ? (uint32_t)m->num_opcodes
        : k == 1 ? (uint32_t)m->num_subgraphs
                 : (uint32_t)m->num_buffers;
    for (i = 0; v && i < n; i++) {
      uint32_t t = tflc__vec_table(fb, v, i);
      add_span(mm, v + 4 * i, 4, 1);
      add_table(mm, fb, t);
      if (k == 2)
        (void)add_vec(mm, fb, t, TFLC__BUF_DATA, 1);
    }
  }
  for (k = 0; k < (uint32_t)m->num_subgraphs; k++) {
    uint32_t sgt = tflc__subgraph(m, (int32_t)k), nt, no;
    uint32_t tv = tflc__sg_vec(m, sgt, TFLC__SG_TENSORS, 4, &nt);
    uint32_t ov = tflc__sg_vec(m, sgt, TFLC__SG_OPERATORS, 4, &no);
    (void)add_vec(mm, fb, sgt, TFLC__SG_TENSORS, 4);
    (void)add_vec(mm, fb, sgt, TFLC__SG_OPERATORS, 4);
    (void)add_vec(mm, fb, sgt, TFLC__SG_INPUTS, 4);
    (void)add_vec(mm, fb, sgt, TFLC__SG_OUTPUTS, 4);
    for (i = 0; tv && i < nt; i++) {
      uint32_t t = tflc__vec_table(fb, tv, i), q;
      add_span(mm, tv + 4 * i, 4, 1);
      add_table(mm, fb, t);
      (void)add_vec(mm, fb, t, TFLC__T_SHAPE, 4);
      q = tflc__get_ref(fb, t, TFLC__T_QUANT);
      if (q) {
        add_table_ref(mm, fb, t, TFLC__T_QUANT);
        (void)add_vec(mm, fb, q, TFLC__Q_SCALE, 4);
        (void)add_vec(mm, fb, q, TFLC__Q_ZP, 8);
      }
    }
    for (i = 0; ov && i < no; i++) {
      uint32_t t = tflc__vec_table(fb, ov, i);
      add_span(mm, ov + 4 * i, 4, 1);
      add_table(mm, fb, t);
      (void)add_vec(mm, fb, t, TFLC__OP_INPUTS, 4);
      (void)add_vec(mm, fb, t, TFLC__OP_OUTPUTS, 4);
      add_table_ref(mm, fb, t, TFLC__OP_OPTS);
    }
  }
}

/* The mutations draw from their own stream, apart from the model
 * builders' (rng()). */
static uint32_t mutation_rng_state = 0x12345678u;
static uint32_t mutation_rng(void) {
  return rng_next(&mutation_rng_state);
}

static long mutants_total, mutants_accepted, mutants_invoked, mutants_certain,
    models_mutated;

typedef struct mstats {
  long mutants, accepted, invoked, certain, refused;
} mstats;

static clock_t deadline;
static int out_of_time(void) {
  return clock() > deadline;
}

/* One mutant: run it; `certain` = must be refused by tflc_model_init. */
static void mutant(const uint8_t *p, size_t n, int certain, mstats *s,
                   size_t arena_size) {
  result r = run_model(p, n, arena_size);
  s->mutants++;
  if (r.stage > 0)
    s->accepted++;
  if (r.stage >= 2)
    s->invoked++;
  if (certain) {
    s->certain++;
    if (r.stage == 0)
      s->refused++;
  }
}

static const uint32_t boundary[] = {
    0u,          1u,          2u,          3u,          4u,
    7u,          8u,          15u,         16u,         0x7Fu,
    0x80u,       0xFFu,       0x100u,      0x7FFFu,     0x8000u,
    0xFFFFu,     0x10000u,    0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu,
    0xFFFFFFFEu, 0xFFFFFFF0u, 0x40000000u, 0xFFFFFF80u};

/* Mutants of one model (n_each of each kind); adds one check per kind. */
static void mutate_model(const char *name, const uint8_t *p, size_t n,
                         int n_each) {
  tflc_model m;
  model_map mm;
  mstats st_trunc, st_struct, st_flip, st_over;
  uint8_t *buf = (uint8_t *)malloc(n), *orig = (uint8_t *)malloc(n);
  size_t arena_size = ARENA_SIZE;
  int k;
  char label[160];
  memset(&st_trunc, 0, sizeof st_trunc);
  st_struct = st_flip = st_over = st_trunc;
  if (!buf || !orig)
    abort();
  memcpy(orig, p, n);
  if (tflc_model_init(&m, orig, n) != TFLC_OK) {
    fprintf(stderr, "test_malformed: %s: not a valid model: %s\n", name,
            m.error);
    harness_failed++;
    free(buf);
    free(orig);
    return;
  }
  map_model(&m, &mm);
  /* truncations: spread over the file, plus inside every kind of span */
  for (k = 0; k < n_each && !out_of_time(); k++) {
    size_t cut =
        k < n_each / 2
            ? (size_t)((uint64_t)n * (uint64_t)k / (uint64_t)(n_each / 2))
            : (size_t)(mm.s[mutation_rng() % mm.n].pos + mutation_rng() % 4u);
    if (cut >= n)
      cut = n - 1;
    mutant(orig, cut, cut < mm.required_end, &st_trunc, arena_size);
  }
  /* structural edits: a uoffset or vector length out of range, a table's
   * soffset pointing outside the file (certainly invalid), or an edit to
   * boundary values (anything may happen) */
  for (k = 0; k < n_each && !out_of_time(); k++) {
    const span *s = &mm.s[mutation_rng() % mm.n];
    int certain = 1;
    uint32_t v;
    if (s->kind == 0)
      continue;
    memcpy(buf, orig, n);
    if (s->kind == 1)
      v = (uint32_t)n +
          (mutation_rng() % 2u ? 0u : 0x7FFF0000u); /* target past end */
    else if (s->kind == 2)
      v = (uint32_t)n + 1u + mutation_rng() % 0x10000u; /* length past end */
    else
      v = 0x80000000u +
          (mutation_rng() & 0x7FFF0000u); /* vtable before the file */
    if (mutation_rng() % 4u == 0) {
      v = boundary[mutation_rng() % (sizeof boundary / sizeof boundary[0])];
      certain = 0;
    }
    buf[s->pos] = (uint8_t)v;
    buf[s->pos + 1] = (uint8_t)(v >> 8);
    buf[s->pos + 2] = (uint8_t)(v >> 16);
    buf[s->pos + 3] = (uint8_t)(v >> 24);
    mutant(buf, n, certain, &st_struct, arena_size);
  }
  /* bit flips, mostly in the structures (not in weights) */
  for (k = 0; k < n_each && !out_of_time(); k++) {
    int f, nf = 1 + (int)(mutation_rng() % 4u);
    memcpy(buf, orig, n);
    for (f = 0; f < nf; f++) {
      uint32_t pos;
      if (mutation_rng() % 4u) {
        const span *s = &mm.s[mutation_rng() % mm.n];
        pos = s->pos + (s->len ? mutation_rng() % s->len : 0);
      } else {
        pos = mutation_rng();
      }
      pos %= (uint32_t)n;
      buf[pos] ^= (uint8_t)(1u << (mutation_rng() % 8u));
    }
    mutant(buf, n, 0, &st_flip, arena_size);
  }
  /* byte / u16 / u32 overwrites with boundary values */
  for (k = 0; k < n_each && !out_of_time(); k++) {
    const span *s = &mm.s[mutation_rng() % mm.n];
    uint32_t pos =
        s->pos + (s->len > 4 ? (mutation_rng() % (s->len - 3)) & ~3u : 0);
    uint32_t v =
        boundary[mutation_rng() % (sizeof boundary / sizeof boundary[0])];
    uint32_t w = 1u << (mutation_rng() % 3u), b;
    if (mutation_rng() % 3u == 0)
      v = (uint32_t)n - mutation_rng() % 64u; /* offsets near the end */
    memcpy(buf, orig, n);
    for (b = 0; b < w && pos + b < n; b++)
      buf[pos + b] = (uint8_t)(v >> (8 * b));
    mutant(buf, n, 0, &st_over, arena_size);
  }
  snprintf(label, sizeof label, "mutants of %s", name);
  harness_current = label;
  CHECK(st_trunc.refused == st_trunc.certain);
  CHECK(st_struct.refused == st_struct.certain);
  CHECK(st_flip.mutants + st_over.mutants + st_trunc.mutants > 0 ||
        out_of_time());
  if (st_trunc.refused != st_trunc.certain ||
      st_struct.refused != st_struct.certain)
    fprintf(stderr,
            "  %s: certainly invalid but accepted: %ld truncations, %ld "
            "structural edits\n",
            name, st_trunc.certain - st_trunc.refused,
            st_struct.certain - st_struct.refused);
  mutants_total +=
      st_trunc.mutants + st_struct.mutants + st_flip.mutants + st_over.mutants;
  mutants_accepted += st_trunc.accepted + st_struct.accepted +
                      st_flip.accepted + st_over.accepted;
  mutants_invoked +=
      st_trunc.invoked + st_struct.invoked + st_flip.invoked + st_over.invoked;
  mutants_certain += st_trunc.certain + st_struct.certain;
  models_mutated++;
  free(mm.s);
  free(buf);
  free(orig);
}

/* mutants per kind, by model size (big models cost a lot to invoke) */
static int mutants_for(size_t n) {
  return n <= 65536 ? 600 : n <= 524288 ? 80 : 24;
}

static void corpus_sink(const char *name, const uint8_t *p, size_t n,
                        void *user) {
  int *k = (int *)user;
  /* every 4th model of the writer's corpus (they are alike) */
  if ((*k)++ % 4 == 0)
    mutate_model(name, p, n, 160);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* mutants of dir/NAME for every NAME ending in `suffix` (sorted) */
static void mutate_dir(const char *dir, const char *suffix) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char *names[256];
  int nn = 0, i;
  if (!d)
    return;
  while ((e = readdir(d)) != NULL && nn < 256) {
    size_t l = strlen(e->d_name), ls = strlen(suffix);
    if (e->d_name[0] == '.' || l < ls || strcmp(e->d_name + l - ls, suffix))
      continue;
    names[nn] = (char *)malloc(l + 1);
    if (!names[nn])
      abort();
    memcpy(names[nn++], e->d_name, l + 1);
  }
  closedir(d);
  qsort(names, (size_t)nn, sizeof names[0], cmp_str);
  for (i = 0; i < nn; i++) {
    char path[1024];
    uint8_t *p;
    size_t n = 0;
    if (snprintf(path, sizeof path, "%s/%s", dir, names[i]) < (int)sizeof path)
      p = read_file(path, &n);
    else
      p = NULL;
    if (p && n >= 8 && memcmp(p + 4, "TFL3", 4) == 0)
      mutate_model(path, p, n, mutants_for(n));
    free(p);
    free(names[i]);
  }
}

static void test_mutants(void) {
  const char *shared = getenv("SHARED");
  const char *secs = getenv("TFLC_MALFORMED_SECONDS");
  char path[1024];
  int k = 0;
  double budget = secs ? atof(secs) : 40.0;
  deadline = clock() + (clock_t)(budget * (double)CLOCKS_PER_SEC);
  rng_seed(777u);
  fm_all(corpus_sink, &k);
  if (!shared)
    shared = "../shared";
  snprintf(path, sizeof path, "%s/models", shared);
  mutate_dir(path, ".tflite");
  snprintf(path, sizeof path, "%s/conformance/models/compressed", shared);
  {
    /* compressed/CASE/FORMAT/model.tflite */
    DIR *d = opendir(path);
    struct dirent *e;
    char *names[64];
    int nn = 0, i;
    if (d) {
      while ((e = readdir(d)) != NULL && nn < 64) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.')
          continue;
        names[nn] = (char *)malloc(l + 1);
        if (!names[nn])
          abort();
        memcpy(names[nn++], e->d_name, l + 1);
      }
      closedir(d);
      qsort(names, (size_t)nn, sizeof names[0], cmp_str);
      for (i = 0; i < nn; i++) {
        char sub[1024];
        DIR *d2;
        d2 =
            snprintf(sub, sizeof sub, "%s/%s", path, names[i]) < (int)sizeof sub
                ? opendir(sub)
                : NULL;
        if (d2) {
          char *fmts[16];
          int nf = 0, j;
          while ((e = readdir(d2)) != NULL && nf < 16) {
            size_t l = strlen(e->d_name);
            if (e->d_name[0] == '.')
              continue;
            fmts[nf] = (char *)malloc(l + 1);
            if (!fmts[nf])
              abort();
            memcpy(fmts[nf++], e->d_name, l + 1);
          }
          closedir(d2);
          qsort(fmts, (size_t)nf, sizeof fmts[0], cmp_str);
          for (j = 0; j < nf; j++) {
            char file[1200];
            uint8_t *p;
            size_t n = 0;
            p = snprintf(file, sizeof file, "%s/%s/model.tflite", sub,
                         fmts[j]) < (int)sizeof file
                    ? read_file(file, &n)
                    : NULL;
            if (p && n >= 8)
              mutate_model(file, p, n, mutants_for(n));
            free(p);
            free(fmts[j]);
          }
        }
        free(names[i]);
      }
    }
  }
  printf("mutants: %ld of %ld models (%ld accepted by tflc_model_init, %ld "
         "invoked; %ld certainly invalid, all refused)%s\n",
         mutants_total, models_mutated, mutants_accepted, mutants_invoked,
         mutants_certain, out_of_time() ? " [time budget reached]" : "");
}

int main(void) {
  rng_seed(0x2545F491u); /* fuzz/models.h builders */
  arena = (uint8_t *)malloc(ARENA_SIZE);
  if (!arena)
    return 1;
  RUN(test_flatbuffer);
  RUN(test_unions_enums);
  RUN(test_shapes_indices);
  RUN(test_operators_quant);
  RUN(test_metadata);
  RUN(test_decode);
  RUN(test_arena_sizes);
  RUN(test_var_handles);
  RUN(test_mutants);
  free(base);
  free(cur);
  free(arena);
  return harness_report();
}

/* tests/test_delegate.c - delegates (tflc_delegate): which operators form
 * partitions (claimed / unclaimed patterns, a partition at the graph's
 * start and end, fan-out across the edge, two delegates, first claimant
 * wins), which tensors cross a partition's edge and which the delegate
 * keeps (no arena), that results equal the built-in kernels', error
 * messages of a failing prepare / invoke, operators only a delegate can
 * run, and the context accessors delegates use (options, per-channel
 * quantization, compressed constants, custom names). */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#endif
#include "../tflc_write.h"
#include "harness.h"

#include <stdlib.h>
#include <string.h>

static uint8_t arena[256 * 1024] __attribute__((aligned(16)));

#define NOPS 6

/* x[4] -> ADD c0 -> t1 -> ADD c1 -> ... -> y, float32; c_k = k + 1 and op
 * k has the fused activation act[k] (AddOptions slot 0). Op k reads t_k
 * (tensor 2k, x = 0) and constant c_k (2k + 1), writes t_{k+1}. With
 * custom_at >= 0, that operator is instead the custom "Double" (y = 2x). */
static uint8_t *chain_model(const int *act, int custom_at, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  const int32_t d[1] = {4};
  int32_t k, t = 0, x, in[2], out;
  uint8_t *bytes = NULL;
  x = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "x", NULL);
  t = x;
  for (k = 0; k < NOPS; k++) {
    float c[4];
    tflc_w_option o;
    int j;
    for (j = 0; j < 4; j++)
      c[j] = (float)(k + 1);
    in[0] = t;
    in[1] =
        tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, c, sizeof c, "c", NULL);
    out = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "t", NULL);
    memset(&o, 0, sizeof o);
    o.slot = 0;
    o.kind = TFLC_W_U8;
    o.i = act ? act[k] : 0;
    if (k == custom_at)
      tflc_writer_op(w, 0, TFLC_OP_CUSTOM, "Double", 1, in, 1, &out, 0, 0,
                     NULL);
    else
      tflc_writer_op(w, 0, TFLC_OP_ADD, NULL, 2, in, 1, &out, 11, 1, &o);
    t = out;
  }
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &t);
  if (tflc_writer_finish(w, &bytes, size) != TFLC_OK)
    bytes = NULL;
  tflc_writer_destroy(w);
  return bytes;
}

/* Fan-out: a = x + c0 (op 0), b = a + c1 (op 1), c = b + c2 (op 2),
 * d = a + c (op 3); outputs d and b. Tensors: x 0, c0 1, a 2, c1 3, b 4,
 * c2 5, c 6, d 7. */
static uint8_t *fan_model(size_t *size) {
  tflc_writer *w = tflc_writer_create();
  const int32_t d1[1] = {4};
  const float cv[3][4] = {{1, 1, 1, 1}, {10, 10, 10, 10}, {100, 100, 100, 100}};
  int32_t t[8], in[2], outs[2];
  uint8_t *bytes = NULL;
  int k;
  for (k = 0; k < 8; k++) {
    const float *c = k == 1 ? cv[0] : k == 3 ? cv[1] : k == 5 ? cv[2] : NULL;
    t[k] =
        tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d1, c, c ? 16 : 0, "t", NULL);
  }
  in[0] = t[0], in[1] = t[1];
  tflc_writer_op(w, 0, TFLC_OP_ADD, NULL, 2, in, 1, &t[2], 11, 0, NULL);
  in[0] = t[2], in[1] = t[3];
  tflc_writer_op(w, 0, TFLC_OP_ADD, NULL, 2, in, 1, &t[4], 11, 0, NULL);
  in[0] = t[4], in[1] = t[5];
  tflc_writer_op(w, 0, TFLC_OP_ADD, NULL, 2, in, 1, &t[6], 11, 0, NULL);
  in[0] = t[2], in[1] = t[6];
  tflc_writer_op(w, 0, TFLC_OP_ADD, NULL, 2, in, 1, &t[7], 11, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &t[0]);
  outs[0] = t[7], outs[1] = t[4];
  tflc_writer_outputs(w, 0, 2, outs);
  if (tflc_writer_finish(w, &bytes, size) != TFLC_OK)
    bytes = NULL;
  tflc_writer_destroy(w);
  return bytes;
}

/* A delegate that takes the operators in `mask` (bit = model op index),
 * ADD float32 and the custom "Double"; it keeps the tensors living inside
 * a partition in persistent memory of its own. */
typedef struct fake {
  uint32_t mask;
  int skip_fused; /* decline operators with a fused activation */
  int fail_prepare, fail_invoke, quiet_fail;
  int claims, prepares, invokes, internal_seen, edge_null;
} fake;

typedef struct fake_state {
  int32_t n;
  float *kept[NOPS + 2]; /* per operator of the partition: its output */
} fake_state;

static int fake_claims(tflc_op_context *op, void *user) {
  fake *f = (fake *)user;
  uint32_t len = 0;
  const char *name = tflc_op_custom_name(op, &len);
  int32_t i = tflc_op_index(op);
  f->claims++;
  if (i < 0 || i > 31 || !((f->mask >> i) & 1))
    return 0;
  if (f->skip_fused && tflc_op_option_byte(op, 0, 0) != 0)
    return 0;
  if (name)
    return len == 6 && memcmp(name, "Double", 6) == 0;
  return tflc_op_code(op) == TFLC_OP_ADD;
}
static tflc_status fake_prepare(tflc_op_context *part, void *user) {
  fake *f = (fake *)user;
  fake_state *s;
  int32_t k, n = tflc_partition_num_ops(part);
  f->prepares++;
  if (f->fail_prepare)
    return f->quiet_fail
               ? TFLC_ERR_KERNEL
               : tflc_op_fail(part, TFLC_ERR_KERNEL, "no accelerator");
  if (tflc_op_code(part) != TFLC_OP_DELEGATE || n < 1 || n > NOPS + 2 ||
      tflc_partition_op(part, n) != NULL || tflc_partition_op(part, -1))
    return tflc_op_fail(part, TFLC_ERR_KERNEL, "bad partition context");
  s = (fake_state *)tflc_op_persist(part, sizeof *s);
  if (!s)
    return tflc_op_fail(part, TFLC_ERR_ARENA, "no arena");
  s->n = n;
  for (k = 0; k < n; k++) {
    tflc_op_context *op = tflc_partition_op(part, k);
    const tflc_tensor *o = tflc_op_output(op, 0);
    if (o->flags & TFLC_TENSOR_VIRTUAL) { /* kept by us */
      if (o->data)
        return tflc_op_fail(part, TFLC_ERR_KERNEL, "virtual with data");
      f->internal_seen++;
      s->kept[k] = (float *)tflc_op_persist(part, o->bytes);
      if (!s->kept[k])
        return tflc_op_fail(part, TFLC_ERR_ARENA, "no arena");
    }
  }
  tflc_op_set_state(part, s);
  return TFLC_OK;
}
/* The elements of tensor t: arena, or ours when a partition keeps it. */
static float *fake_data(tflc_op_context *part, fake_state *s,
                        const tflc_tensor *t) {
  int32_t k;
  if (t->data)
    return (float *)t->data;
  for (k = 0; k < s->n; k++)
    if (tflc_op_output(tflc_partition_op(part, k), 0) == t)
      return s->kept[k];
  return NULL;
}
static tflc_status fake_invoke(tflc_op_context *part, void *user) {
  fake *f = (fake *)user;
  fake_state *s = (fake_state *)tflc_op_state(part);
  int32_t k, j;
  f->invokes++;
  if (f->fail_invoke)
    return tflc_op_fail(part, TFLC_ERR_KERNEL, "accelerator timeout");
  for (k = 0; k < tflc_op_num_inputs(part); k++)
    f->edge_null += tflc_op_input(part, k)->data == NULL;
  for (k = 0; k < tflc_op_num_outputs(part); k++)
    f->edge_null += tflc_op_output(part, k)->data == NULL;
  for (k = 0; k < s->n; k++) {
    tflc_op_context *op = tflc_partition_op(part, k);
    const float *a = fake_data(part, s, tflc_op_input(op, 0));
    float *y = fake_data(part, s, tflc_op_output(op, 0));
    tflc_const c;
    if (!a || !y)
      return tflc_op_fail(part, TFLC_ERR_KERNEL, "tensor without data");
    if (tflc_op_code(op) != TFLC_OP_ADD) {
      for (j = 0; j < 4; j++)
        y[j] = 2.0f * a[j];
    } else if (tflc_op_const(op, 1, &c)) {
      for (j = 0; j < 4; j++)
        y[j] = a[j] + tflc_const_f32(&c, j);
    } else {
      const float *b = fake_data(part, s, tflc_op_input(op, 1));
      if (!b)
        return tflc_op_fail(part, TFLC_ERR_KERNEL, "tensor without data");
      for (j = 0; j < 4; j++)
        y[j] = a[j] + b[j];
    }
  }
  return TFLC_OK;
}

static tflc_delegate fake_delegate(const char *name, fake *f) {
  tflc_delegate d;
  d.name = name;
  d.claims = fake_claims;
  d.prepare = fake_prepare;
  d.invoke = fake_invoke;
  d.user = f;
  return d;
}

/* Runs the model with delegates (n of them) on x; copies output 0 (4
 * floats) into y. Returns the init status. */
static tflc_status run_with(const tflc_model *m, const tflc_delegate *d, int n,
                            tflc_interpreter *it, const float *x, float *y) {
  tflc_options opt;
  tflc_status st;
  memset(&opt, 0, sizeof opt);
  opt.delegates = d;
  opt.num_delegates = n;
  st = tflc_interpreter_init(it, m, arena, sizeof arena, n ? &opt : NULL);
  if (st) {
    fprintf(stderr, "  (init: %s)\n", tflc_error(it));
    return st;
  }
  memcpy(tflc_input(it, 0)->data, x, 16);
  st = tflc_invoke(it);
  if (st == TFLC_OK)
    memcpy(y, tflc_output(it, 0)->data, 16);
  return st;
}

static int bits_set(uint32_t v) {
  int n = 0;
  for (; v; v &= v - 1)
    n++;
  return n;
}

static int check_info(const tflc_interpreter *it, int32_t i, const char *name,
                      int32_t first, int32_t last, int32_t nin, int32_t nout,
                      int32_t internal) {
  tflc_partition_info p;
  if (!tflc_partition_info_get(it, i, &p))
    return 0;
  return strcmp(p.delegate, name) == 0 && p.first_op == first &&
         p.last_op == last && p.num_ops == last - first + 1 &&
         p.num_inputs == nin && p.num_outputs == nout &&
         p.num_internal == internal && p.subgraph == 0;
}

/* Claimed / unclaimed patterns on a chain of 6 ADDs: runs at the start, at
 * the end, in the middle, alternating, everything, nothing. Every result
 * equals the built-ins'; each run is one partition with one edge input,
 * one edge output and (length - 1) tensors kept by the delegate. */
static void test_patterns(void) {
  static const uint32_t masks[] = {0x00, 0x3F, 0x03, 0x30, 0x0C,
                                   0x15, 0x33, 0x01, 0x20, 0x1E};
  size_t size = 0;
  uint8_t *bytes = chain_model(NULL, -1, &size);
  const float x[4] = {1.5f, -2, 0, 1000};
  float ref[4], y[4];
  tflc_model m;
  tflc_interpreter it;
  size_t plain_arena;
  unsigned p;
  CHECK(bytes != NULL);
  if (!bytes)
    return;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  CHECK_EQ_INT(run_with(&m, NULL, 0, &it, x, ref), TFLC_OK);
  CHECK(ref[0] == 1.5f + 21 && ref[3] == 1021.0f);
  CHECK_EQ_INT(tflc_num_partitions(&it), 0);
  plain_arena = tflc_arena_used(&it);
  for (p = 0; p < sizeof masks / sizeof masks[0]; p++) {
    fake f;
    tflc_delegate d;
    int32_t i, runs = 0, first = -1, nparts;
    memset(&f, 0, sizeof f);
    f.mask = masks[p];
    d = fake_delegate("fake", &f);
    memset(y, 0, sizeof y);
    CHECK_EQ_INT(run_with(&m, &d, 1, &it, x, y), TFLC_OK);
    CHECK_EQ_MEM(y, ref, sizeof y);
    CHECK_EQ_INT(f.claims, NOPS); /* every operator offered once */
    CHECK_EQ_INT(f.edge_null, 0);
    /* expected partitions: maximal runs of set bits */
    nparts = tflc_num_partitions(&it);
    for (i = 0; i <= NOPS; i++) {
      int on = i < NOPS && ((f.mask >> i) & 1);
      if (on && first < 0)
        first = i;
      if (!on && first >= 0) {
        CHECK(check_info(&it, runs, "fake", first, i - 1, 1, 1, i - 1 - first));
        runs++;
        first = -1;
      }
    }
    CHECK_EQ_INT(nparts, runs);
    CHECK_EQ_INT(f.prepares, runs);
    CHECK_EQ_INT(f.invokes, runs);
    CHECK_EQ_INT(f.internal_seen, bits_set(f.mask) - runs);
    /* records: unclaimed operators plus one per partition */
    CHECK_EQ_INT(it.num_ops, NOPS - bits_set(f.mask) + runs);
    /* tensors the delegate keeps take no arena: planned bytes shrink or
     * stay (the chain reuses two buffers) */
    CHECK(it.head <= plain_arena);
    /* a second invoke gives the same */
    memcpy(tflc_input(&it, 0)->data, x, 16);
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
    CHECK_EQ_MEM(tflc_output(&it, 0)->data, ref, 16);
    CHECK_EQ_INT(f.invokes, 2 * runs);
  }
  free(bytes);
}

/* The tensors a partition keeps have no data and are flagged virtual; the
 * ones crossing its edge are arena tensors (listed as inputs and outputs
 * of the partition record) in the order the operators use them. */
static void test_edges(void) {
  size_t size = 0;
  uint8_t *bytes = fan_model(&size);
  const float x[4] = {1, 2, 3, 4};
  float ref[4], y[4], ref_b[4];
  tflc_model m;
  tflc_interpreter it;
  fake f;
  tflc_delegate d;
  tflc__op *rec = NULL;
  int32_t k;
  CHECK(bytes != NULL);
  if (!bytes)
    return;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  CHECK_EQ_INT(run_with(&m, NULL, 0, &it, x, ref), TFLC_OK);
  memcpy(ref_b, tflc_output(&it, 1)->data, 16);
  CHECK(ref[0] == 1 + 1 + (1 + 1 + 10 + 100) && ref_b[0] == 12);
  /* ops 2-3: c (tensor 6) lives inside; b (4, a graph output written
   * outside) and a (2) come in; d (7) goes out */
  memset(&f, 0, sizeof f);
  f.mask = 0x0C;
  d = fake_delegate("fan", &f);
  CHECK_EQ_INT(run_with(&m, &d, 1, &it, x, y), TFLC_OK);
  CHECK_EQ_MEM(y, ref, 16);
  CHECK_EQ_MEM(tflc_output(&it, 1)->data, ref_b, 16);
  CHECK(check_info(&it, 0, "fan", 2, 3, 2, 1, 1));
  for (k = 0; k < it.num_ops; k++)
    if (it.ops[k].code == TFLC_OP_DELEGATE)
      rec = &it.ops[k];
  CHECK(rec != NULL);
  if (rec) {
    CHECK_EQ_INT(rec->index, 2);
    CHECK_EQ_INT(it.tensors[rec->in[0]].index, 4); /* b, read by op 2 */
    CHECK_EQ_INT(it.tensors[rec->in[1]].index, 2); /* a, read by op 3 */
    CHECK_EQ_INT(it.tensors[TFLC__OUT(rec)[0]].index, 7);
  }
  for (k = 0; k < it.num_tensors; k++) {
    const tflc_tensor *t = &it.tensors[k];
    if (t->index == 6)
      CHECK(t->data == NULL && (t->flags & TFLC_TENSOR_VIRTUAL));
    else if (!(t->flags & TFLC_TENSOR_CONST))
      CHECK(t->data != NULL && !(t->flags & TFLC_TENSOR_VIRTUAL));
  }
  /* ops 0-2: a is read by op 3 outside, b is a graph output, c by op 3:
   * all three go out, nothing is kept */
  memset(&f, 0, sizeof f);
  f.mask = 0x07;
  CHECK_EQ_INT(run_with(&m, &d, 1, &it, x, y), TFLC_OK);
  CHECK_EQ_MEM(y, ref, 16);
  CHECK_EQ_MEM(tflc_output(&it, 1)->data, ref_b, 16);
  CHECK(check_info(&it, 0, "fan", 0, 2, 1, 3, 0));
  CHECK_EQ_INT(f.internal_seen, 0);
  /* everything: x in, d and b out, a and c kept */
  memset(&f, 0, sizeof f);
  f.mask = 0x0F;
  CHECK_EQ_INT(run_with(&m, &d, 1, &it, x, y), TFLC_OK);
  CHECK_EQ_MEM(y, ref, 16);
  CHECK_EQ_MEM(tflc_output(&it, 1)->data, ref_b, 16);
  CHECK(check_info(&it, 0, "fan", 0, 3, 1, 2, 2));
  CHECK_EQ_INT(it.num_ops, 1);
  /* planned activations: x, b and d, 16 bytes each, all live at the one
   * record; a and c take nothing */
  CHECK_EQ_INT(it.head, 48);
  free(bytes);
}

/* Two delegates: the first that claims an operator takes it, and runs of
 * different delegates are different partitions even when adjacent. */
static void test_two_delegates(void) {
  size_t size = 0;
  uint8_t *bytes = chain_model(NULL, -1, &size);
  const float x[4] = {3, 2, 1, 0};
  float ref[4], y[4];
  tflc_model m;
  tflc_interpreter it;
  fake fa, fb;
  tflc_delegate d[2];
  CHECK(bytes != NULL);
  if (!bytes)
    return;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  CHECK_EQ_INT(run_with(&m, NULL, 0, &it, x, ref), TFLC_OK);
  memset(&fa, 0, sizeof fa);
  memset(&fb, 0, sizeof fb);
  fa.mask = 0x03; /* ops 0, 1 */
  fb.mask = 0x1E; /* ops 1..4: op 1 already taken by A */
  d[0] = fake_delegate("A", &fa);
  d[1] = fake_delegate("B", &fb);
  CHECK_EQ_INT(run_with(&m, d, 2, &it, x, y), TFLC_OK);
  CHECK_EQ_MEM(y, ref, 16);
  CHECK_EQ_INT(tflc_num_partitions(&it), 2);
  CHECK(check_info(&it, 0, "A", 0, 1, 1, 1, 1));
  CHECK(check_info(&it, 1, "B", 2, 4, 1, 1, 2));
  CHECK_EQ_INT(fa.claims, NOPS);
  CHECK_EQ_INT(fb.claims, NOPS - 2); /* B is not asked what A took */
  CHECK_EQ_INT(fa.invokes, 1);
  CHECK_EQ_INT(fb.invokes, 1);
  /* the other order: B takes 1..4, A keeps op 0 */
  memset(&fa, 0, sizeof fa);
  memset(&fb, 0, sizeof fb);
  fa.mask = 0x03;
  fb.mask = 0x1E;
  d[0] = fake_delegate("B", &fb);
  d[1] = fake_delegate("A", &fa);
  CHECK_EQ_INT(run_with(&m, d, 2, &it, x, y), TFLC_OK);
  CHECK_EQ_MEM(y, ref, 16);
  CHECK_EQ_INT(tflc_num_partitions(&it), 2);
  CHECK(check_info(&it, 0, "A", 0, 0, 1, 1, 0));
  CHECK(check_info(&it, 1, "B", 1, 4, 1, 1, 3));
  free(bytes);
}

/* An operator declined for its options (fused RELU on op 3) splits what
 * would have been one run; the built-in runs it in between. */
static void test_options_seen(void) {
  const int act[NOPS] = {0, 0, 0, 1, 0, 0};
  size_t size = 0;
  uint8_t *bytes = chain_model(act, -1, &size);
  const float x[4] = {-100, -2, 5, 1};
  float ref[4], y[4];
  tflc_model m;
  tflc_interpreter it;
  fake f;
  tflc_delegate d;
  CHECK(bytes != NULL);
  if (!bytes)
    return;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  CHECK_EQ_INT(run_with(&m, NULL, 0, &it, x, ref), TFLC_OK);
  CHECK(ref[0] == 0 + 5 + 6); /* RELU after op 3 clamped -90 to 0 */
  memset(&f, 0, sizeof f);
  f.mask = 0x3F;
  f.skip_fused = 1;
  d = fake_delegate("norelu", &f);
  CHECK_EQ_INT(run_with(&m, &d, 1, &it, x, y), TFLC_OK);
  CHECK_EQ_MEM(y, ref, 16);
  CHECK_EQ_INT(tflc_num_partitions(&it), 2);
  CHECK(check_info(&it, 0, "norelu", 0, 2, 1, 1, 2));
  CHECK(check_info(&it, 1, "norelu", 4, 5, 1, 1, 1));
  free(bytes);
}

/* A custom operator tflc has no kernel for runs when a delegate takes it. */
static void test_unknown_op(void) {
  size_t size = 0;
  uint8_t *bytes = chain_model(NULL, 2, &size);
  const float x[4] = {1, 2, 3, 4};
  float y[4];
  tflc_model m;
  tflc_interpreter it;
  fake f;
  tflc_delegate d;
  CHECK(bytes != NULL);
  if (!bytes)
    return;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
               TFLC_ERR_UNSUPPORTED);
  CHECK(strstr(tflc_error(&it), "op 2 Double") != NULL);
  memset(&f, 0, sizeof f);
  f.mask = 0x04;
  d = fake_delegate("dbl", &f);
  CHECK_EQ_INT(run_with(&m, &d, 1, &it, x, y), TFLC_OK);
  /* ((x + 1 + 2) * 2) + 4 + 5 + 6 */
  CHECK(y[0] == 23.0f && y[3] == 29.0f);
  free(bytes);
}

/* Errors: a failing prepare names the partition, its operators and the
 * delegate; so does a failing invoke, and a silent failure gets a default
 * message. Bad options are refused. */
static void test_failures(void) {
  size_t size = 0;
  uint8_t *bytes = chain_model(NULL, -1, &size);
  const float x[4] = {1, 2, 3, 4};
  float y[4];
  tflc_model m;
  tflc_interpreter it;
  tflc_options opt;
  fake f, g;
  tflc_delegate d[2];
  CHECK(bytes != NULL);
  if (!bytes)
    return;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  memset(&f, 0, sizeof f);
  memset(&g, 0, sizeof g);
  g.mask = 0x01;
  f.mask = 0x3C; /* ops 2-5: partition 1 after g's partition 0 */
  f.fail_prepare = 1;
  d[0] = fake_delegate("ok", &g);
  d[1] = fake_delegate("vta", &f);
  CHECK_EQ_INT(run_with(&m, d, 2, &it, x, y), TFLC_ERR_KERNEL);
  CHECK(strcmp(tflc_error(&it),
               "partition 1 (ops 2-5, delegate vta): no accelerator") == 0);
  f.quiet_fail = 1;
  CHECK_EQ_INT(run_with(&m, d, 2, &it, x, y), TFLC_ERR_KERNEL);
  CHECK(strcmp(tflc_error(&it),
               "partition 1 (ops 2-5, delegate vta): prepare failed") == 0);
  f.fail_prepare = 0;
  f.fail_invoke = 1;
  CHECK_EQ_INT(run_with(&m, d, 2, &it, x, y), TFLC_ERR_KERNEL);
  CHECK(strcmp(tflc_error(&it),
               "partition 1 (ops 2-5, delegate vta): accelerator timeout") ==
        0);
  /* a delegate without claims or invoke, a negative count, no array */
  memset(&opt, 0, sizeof opt);
  d[1].invoke = NULL;
  opt.delegates = d;
  opt.num_delegates = 2;
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
               TFLC_ERR_ARG);
  opt.num_delegates = -1;
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
               TFLC_ERR_ARG);
  opt.delegates = NULL;
  opt.num_delegates = 1;
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
               TFLC_ERR_ARG);
  /* every arena size up to what it needs either runs correctly or fails
   * with "arena too small", never anything else */
  d[1] = fake_delegate("vta", &f);
  f.fail_invoke = 0;
  opt.delegates = d;
  opt.num_delegates = 2;
  {
    size_t need, sz;
    int other = 0, small = 0, wrong = 0;
    float ref[4];
    CHECK_EQ_INT(run_with(&m, d, 2, &it, x, ref), TFLC_OK);
    need = tflc_arena_used(&it);
    for (sz = 64; sz <= need; sz += 8) {
      tflc_status st = tflc_interpreter_init(&it, &m, arena, sz, &opt);
      if (st == TFLC_ERR_ARENA) {
        small++;
      } else if (st != TFLC_OK) {
        other++;
      } else {
        memcpy(tflc_input(&it, 0)->data, x, 16);
        wrong += tflc_invoke(&it) != TFLC_OK ||
                 memcmp(tflc_output(&it, 0)->data, ref, 16) != 0;
      }
    }
    CHECK(small > 0);
    CHECK_EQ_INT(other, 0);
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, need, &opt), TFLC_OK);
  }
  free(bytes);
}

/* Accessors a delegate needs at claims: per-channel scales of CONV_2D
 * weights and a LUT-compressed constant read through tflc_op_const. */
typedef struct probe {
  int32_t nscales, axis;
  float scale1;
  int lut_bits;
  int8_t decoded[3 * 1 * 1 * 2];
  int custom_null;
} probe;
static int probe_claims(tflc_op_context *op, void *user) {
  probe *p = (probe *)user;
  tflc_const c;
  uint32_t len = 7;
  p->nscales = tflc_op_tensor_quant(op, tflc_op_input(op, 1), 1, &p->scale1,
                                    NULL, &p->axis);
  if (tflc_op_const(op, 1, &c)) {
    p->lut_bits = c.bits;
    tflc_lut_decode(&c, 0, c.count, p->decoded);
  }
  p->custom_null = tflc_op_custom_name(op, &len) == NULL && len == 0;
  CHECK(!tflc_op_const(op, 0, &c) && c.data == NULL); /* not constant */
  CHECK(!tflc_op_const(op, 7, &c));                   /* absent */
  return 0;
}
static void test_accessors(void) {
  const int32_t din[4] = {1, 2, 2, 2}, dw[4] = {3, 1, 1, 2}, db[1] = {3};
  const int32_t dout[4] = {1, 2, 2, 3};
  const float sw[3] = {0.5f, 0.25f, 0.125f}, sa = 0.1f;
  const int64_t zw[3] = {0, 0, 0}, za = 0;
  const int8_t w[6] = {1, -1, 1, 1, -1, -1};
  const int32_t b[3] = {0, 0, 0};
  tflc_w_quant qw, qa, qb;
  float sb[3];
  int64_t zb[3] = {0, 0, 0};
  tflc_writer *wr = tflc_writer_create();
  int32_t t[4], wi;
  uint8_t *bytes = NULL;
  size_t size = 0;
  tflc_model m;
  tflc_interpreter it;
  tflc_options opt;
  tflc_delegate d;
  probe p;
  int k;
  for (k = 0; k < 3; k++)
    sb[k] = sa * sw[k];
  qw.scale = sw, qw.zero_point = zw, qw.count = 3, qw.axis = 0;
  qa.scale = &sa, qa.zero_point = &za, qa.count = 1, qa.axis = 0;
  qb.scale = sb, qb.zero_point = zb, qb.count = 3, qb.axis = 0;
  t[0] = tflc_writer_tensor(wr, 0, TFLC_INT8, 4, din, NULL, 0, "x", &qa);
  wi = t[1] = tflc_writer_tensor(wr, 0, TFLC_INT8, 4, dw, w, 6, "w", &qw);
  t[2] = tflc_writer_tensor(wr, 0, TFLC_INT32, 1, db, b, 12, "b", &qb);
  t[3] = tflc_writer_tensor(wr, 0, TFLC_INT8, 4, dout, NULL, 0, "y", &qa);
  {
    tflc_w_option o[3];
    memset(o, 0, sizeof o);
    o[0].slot = 0, o[0].kind = TFLC_W_U8, o[0].i = 0; /* SAME */
    o[1].slot = 1, o[1].kind = TFLC_W_I32, o[1].i = 1;
    o[2].slot = 2, o[2].kind = TFLC_W_I32, o[2].i = 1;
    tflc_writer_op(wr, 0, TFLC_OP_CONV_2D, NULL, 3, t, 1, &t[3], 1, 3, o);
  }
  tflc_writer_inputs(wr, 0, 1, &t[0]);
  tflc_writer_outputs(wr, 0, 1, &t[3]);
  CHECK_EQ_INT(tflc_writer_compress(wr, 0, wi, 1, TFLC_W_METADATA, 0), TFLC_OK);
  CHECK_EQ_INT(tflc_writer_finish(wr, &bytes, &size), TFLC_OK);
  tflc_writer_destroy(wr);
  if (!bytes)
    return;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  memset(&p, 0, sizeof p);
  d.name = "probe";
  d.claims = probe_claims;
  d.prepare = NULL;
  d.invoke = fake_invoke; /* never called: probe claims nothing */
  d.user = &p;
  memset(&opt, 0, sizeof opt);
  opt.delegates = &d;
  opt.num_delegates = 1;
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
               TFLC_OK);
  CHECK_EQ_INT(p.nscales, 3);
  CHECK(p.scale1 == 0.25f);
  CHECK_EQ_INT(p.axis, 0);
  CHECK_EQ_INT(p.lut_bits, 1);
  CHECK_EQ_MEM(p.decoded, w, 6);
  CHECK(p.custom_null);
  CHECK_EQ_INT(tflc_num_partitions(&it), 0);
  free(bytes);
}

int main(void) {
  RUN(test_patterns);
  RUN(test_edges);
  RUN(test_two_delegates);
  RUN(test_options_seen);
  RUN(test_unknown_op);
  RUN(test_failures);
  RUN(test_accessors);
  return harness_report();
}

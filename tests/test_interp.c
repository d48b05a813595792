/* tests/test_interp.c - the interpreter layer: models built by the writer,
 * run plain and LUT-compressed in both formats; planner invariants; arena
 * budget of compressed models; alternate decompression regions; errors. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#endif
#include "../tflc_write.h"
#include "harness.h"
#include "models.h"

#include <stdlib.h>

/* int8 values drawn from `levels` distinct values per row of `row` */
static void fill_levels(int8_t *d, int32_t n, int32_t row, int levels) {
  int32_t i;
  for (i = 0; i < n; i++) {
    int32_t ch = i / row;
    int32_t v = (int32_t)(rng() % (uint32_t)levels) * 9 - 60 + ch * 3;
    d[i] = (int8_t)(v > 127 ? 127 : v < -127 ? -127 : v);
  }
}

/* A small keyword-spotting-shaped network: CONV_2D -> DEPTHWISE_CONV_2D ->
 * AVERAGE_POOL_2D -> RESHAPE -> FULLY_CONNECTED -> SOFTMAX, int8, with
 * `levels` distinct weight values per channel. compress: 0 none, else a
 * TFLC_W_* format applied to every weight and bias at `bits`. */
typedef struct net_opts {
  int format; /* 0 plain, TFLC_W_METADATA, TFLC_W_DECODE */
  int bits;
  int levels;
  int pad_pow2;
  int per_tensor;
} net_opts;

static int build_net(const net_opts *no, uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  static const int32_t in_d[4] = {1, 10, 8, 1}, cf_d[4] = {8, 3, 3, 1};
  static const int32_t c_out[4] = {1, 10, 8, 8}, dw_d[4] = {1, 3, 3, 8};
  static const int32_t dw_out[4] = {1, 5, 4, 8}, p_out[4] = {1, 2, 2, 8};
  static const int32_t r_out[2] = {1, 32}, fc_d[2] = {6, 32}, o_d[2] = {1, 6};
  static const int32_t shape_v[2] = {1, 32}, shape_d[1] = {2};
  static const int32_t b8[1] = {8}, b6[1] = {6};
  int8_t cf[72], dw[72], fc[192];
  int32_t cb[8], dwb[8], fcb[6], i, t[16], ins[3], outs[1];
  float cfs[8], dws[8], bs[8], dwbs[8];
  float s_in = 0.05f, s_c = 0.04f, s_dw = 0.03f, s_fc = 0.1f, s_sm = 1.0f / 256;
  float fcs = 0.004f, fcbs = 0.05f * 0.03f * 0.004f / 0.03f;
  int64_t zin = -3, zc = -128, zdw = -128, zfc = 5, zsm = -128;
  tflc_w_quant q;
  tflc_w_option o[8];
  tflc_status st;
  uint32_t saved_rng = rng_state;
  (void)fcbs;
  rng_state = 0xC0FFEEu + (uint32_t)no->levels; /* same weights every build */
  fill_levels(cf, 72, 9, no->levels);
  fill_levels(dw, 72, 72, no->levels); /* per-channel on the last axis */
  for (i = 0; i < 72; i++) /* make the last-axis channel tables few-valued */
    dw[i] = (int8_t)((i % 8) * 5 - 20 +
                     (int32_t)(rng() % (uint32_t)no->levels) * 7);
  for (i = 0; i < 192; i++) /* per-tensor quantized: levels overall */
    fc[i] = (int8_t)((int32_t)(rng() % (uint32_t)no->levels) * 11 - 20);
  for (i = 0; i < 8; i++) {
    cfs[i] = 0.01f + 0.002f * (float)i;
    dws[i] = 0.02f + 0.001f * (float)i;
    bs[i] = s_in * cfs[i];
    dwbs[i] = s_c * dws[i];
    cb[i] = (int32_t)(rng() % 3) * 100 - 100;
    dwb[i] = (int32_t)(rng() % 2) * 50;
  }
  for (i = 0; i < 6; i++)
    fcb[i] = (int32_t)(rng() % 2) * 30 - 40;
  memset(&q, 0, sizeof q);
  q.count = 1;
  q.scale = &s_in;
  q.zero_point = &zin;
  t[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, in_d, NULL, 0, "input", &q);
  q.scale = cfs;
  q.zero_point = NULL;
  q.count = no->per_tensor ? 1 : 8;
  q.axis = 0;
  t[1] =
      tflc_writer_tensor(w, 0, TFLC_INT8, 4, cf_d, cf, sizeof cf, "conv_w", &q);
  q.scale = bs;
  t[2] =
      tflc_writer_tensor(w, 0, TFLC_INT32, 1, b8, cb, sizeof cb, "conv_b", &q);
  q.count = 1;
  q.scale = &s_c;
  q.zero_point = &zc;
  t[3] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, c_out, NULL, 0, "conv", &q);
  q.scale = dws;
  q.zero_point = NULL;
  q.count = no->per_tensor ? 1 : 8;
  q.axis = 3;
  t[4] =
      tflc_writer_tensor(w, 0, TFLC_INT8, 4, dw_d, dw, sizeof dw, "dw_w", &q);
  q.scale = dwbs;
  q.axis = 0;
  t[5] =
      tflc_writer_tensor(w, 0, TFLC_INT32, 1, b8, dwb, sizeof dwb, "dw_b", &q);
  q.count = 1;
  q.scale = &s_dw;
  q.zero_point = &zdw;
  t[6] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, dw_out, NULL, 0, "dw", &q);
  t[7] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, p_out, NULL, 0, "pool", &q);
  t[8] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, shape_d, shape_v,
                            sizeof shape_v, "shape", NULL);
  t[9] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, r_out, NULL, 0, "flat", &q);
  q.scale = &fcs;
  q.zero_point = NULL;
  t[10] =
      tflc_writer_tensor(w, 0, TFLC_INT8, 2, fc_d, fc, sizeof fc, "fc_w", &q);
  {
    float fbs = s_dw * fcs;
    q.scale = &fbs;
    t[11] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, b6, fcb, sizeof fcb, "fc_b",
                               &q);
  }
  q.scale = &s_fc;
  q.zero_point = &zfc;
  t[12] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, o_d, NULL, 0, "logits", &q);
  q.scale = &s_sm;
  q.zero_point = &zsm;
  t[13] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, o_d, NULL, 0, "probs", &q);
  /* CONV_2D SAME 1x1 RELU */
  o[0] = opt_u8(0, 0);
  o[1] = opt_i32(1, 1);
  o[2] = opt_i32(2, 1);
  o[3] = opt_u8(3, 1);
  ins[0] = t[0], ins[1] = t[1], ins[2] = t[2], outs[0] = t[3];
  tflc_writer_op(w, 0, 3, NULL, 3, ins, 1, outs, 1, 4, o);
  /* DEPTHWISE SAME 2x2 multiplier 1 RELU6 */
  o[0] = opt_u8(0, 0);
  o[1] = opt_i32(1, 2);
  o[2] = opt_i32(2, 2);
  o[3] = opt_i32(3, 1);
  o[4] = opt_u8(4, 3);
  ins[0] = t[3], ins[1] = t[4], ins[2] = t[5], outs[0] = t[6];
  tflc_writer_op(w, 0, 4, NULL, 3, ins, 1, outs, 2, 5, o);
  /* AVERAGE_POOL_2D VALID 2x2 stride 2 */
  o[0] = opt_u8(0, 1);
  o[1] = opt_i32(1, 2);
  o[2] = opt_i32(2, 2);
  o[3] = opt_i32(3, 2);
  o[4] = opt_i32(4, 2);
  ins[0] = t[6], outs[0] = t[7];
  tflc_writer_op(w, 0, 1, NULL, 1, ins, 1, outs, 5, 5, o);
  ins[0] = t[7], ins[1] = t[8], outs[0] = t[9];
  tflc_writer_op(w, 0, 22, NULL, 2, ins, 1, outs, 0, 0, NULL);
  ins[0] = t[9], ins[1] = t[10], ins[2] = t[11], outs[0] = t[12];
  tflc_writer_op(w, 0, 9, NULL, 3, ins, 1, outs, 0, 0, NULL);
  o[0] = opt_f32(0, 1.0f);
  ins[0] = t[12], outs[0] = t[13];
  tflc_writer_op(w, 0, 25, NULL, 1, ins, 1, outs, 9, 1, o);
  tflc_writer_inputs(w, 0, 1, &t[0]);
  tflc_writer_outputs(w, 0, 1, &t[13]);
  rng_state = saved_rng;
  st = TFLC_OK;
  if (no->format) {
    static const int32_t which[6] = {1, 2, 4, 5, 10, 11};
    for (i = 0; i < 6 && st == TFLC_OK; i++)
      st = tflc_writer_compress(w, 0, t[which[i]], no->bits, no->format,
                                no->pad_pow2);
  }
  if (st == TFLC_OK)
    st = tflc_writer_finish(w, out, size);
  tflc_writer_destroy(w);
  return st == TFLC_OK;
}

typedef struct run_result {
  tflc_status st;
  size_t arena;
  int8_t out[64];
  char err[TFLC_ERROR_LEN];
} run_result;

static uint8_t big_arena[1 << 20];

static void run(const uint8_t *bytes, size_t size, const void *in,
                const tflc_options *opt, run_result *r) {
  tflc_model m;
  tflc_interpreter it;
  const tflc_tensor *o;
  memset(r, 0, sizeof *r);
  r->st = tflc_model_init(&m, bytes, size);
  if (r->st) {
    memcpy(r->err, m.error, sizeof r->err);
    return;
  }
  r->st = tflc_interpreter_init(&it, &m, big_arena, sizeof big_arena, opt);
  if (r->st) {
    memcpy(r->err, it.error, sizeof r->err);
    return;
  }
  r->arena = tflc_arena_used(&it);
  memcpy(tflc_input(&it, 0)->data, in, tflc_input(&it, 0)->bytes);
  r->st = tflc_invoke(&it);
  o = tflc_output(&it, 0);
  if (!r->st)
    memcpy(r->out, o->data, o->bytes < 64 ? o->bytes : 64);
  memcpy(r->err, it.error, sizeof r->err);
}

/* Every pair of arena tensors with intersecting lifetimes is disjoint.
 * Lifetimes are recomputed here from the operators, independently of the
 * planner: inputs live from op 0, outputs to the end, variables always. */
/* 1 when tensor t is made inside the chain a patches plan runs band by
 * band: it has no buffer. */
static int inside_chain(const tflc_interpreter *it, int32_t t) {
  int32_t i;
  for (i = it->patch_first; it->patch_rows && i < it->patch_last; i++)
    if (it->ops[i].in[it->ops[i].nin] == t)
      return 1;
  return 0;
}
static int plan_ok(const tflc_interpreter *it) {
  int32_t first[256], last[256], i, j, k;
  if (it->num_tensors > 256)
    return 0;
  for (i = 0; i < it->num_tensors; i++) {
    first[i] = it->num_ops;
    last[i] = -1;
    if (it->tensors[i].flags & TFLC_TENSOR_VARIABLE) {
      first[i] = 0;
      last[i] = it->num_ops;
    }
  }
  for (k = 0; k < it->num_inputs; k++)
    first[it->inputs[k]] = 0;
  for (k = 0; k < it->num_outputs; k++)
    last[it->outputs[k]] = it->num_ops;
  for (i = 0; i < it->num_ops; i++)
    for (k = 0; k < it->ops[i].nin + it->ops[i].nout; k++) {
      int32_t t = it->ops[i].in[k];
      if (t < 0)
        continue;
      if (i < first[t])
        first[t] = i;
      if (i > last[t])
        last[t] = i;
    }
  for (i = 0; i < it->num_tensors; i++)
    for (j = i + 1; j < it->num_tensors; j++) {
      const tflc_tensor *a = &it->tensors[i], *b = &it->tensors[j];
      const uint8_t *pa = (const uint8_t *)a->data;
      const uint8_t *pb = (const uint8_t *)b->data;
      if (!a->bytes || !b->bytes || pa == pb)
        continue; /* empty, or a shared (RESHAPE) buffer */
      if (inside_chain(it, i) || inside_chain(it, j))
        continue; /* a map that never exists whole (TFLC_PLAN_PATCHES) */
      if (pa < it->arena || pa >= it->arena + it->arena_size ||
          pb < it->arena || pb >= it->arena + it->arena_size)
        continue;
      if (last[i] < first[j] || last[j] < first[i])
        continue;
      if (pa < pb + b->bytes && pb < pa + a->bytes)
        return 0;
    }
  return 1;
}

static void test_compressed_equals_plain(void) {
  int8_t in[80];
  int32_t i;
  int fmt, bits, pow2;
  uint8_t *plain, *comp;
  size_t plain_n, comp_n;
  run_result rp, rc;
  net_opts no;
  for (i = 0; i < 80; i++)
    in[i] = (int8_t)rng();
  memset(&no, 0, sizeof no);
  no.levels = 2;
  CHECK(build_net(&no, &plain, &plain_n));
  run(plain, plain_n, in, NULL, &rp);
  CHECK_EQ_INT(rp.st, TFLC_OK);
  for (fmt = TFLC_W_METADATA; fmt <= TFLC_W_DECODE; fmt++)
    for (bits = 1; bits <= 8; bits++)
      for (pow2 = 0; pow2 <= 1; pow2++) {
        if (fmt == TFLC_W_DECODE && bits == 8 && pow2)
          continue; /* stride 256 does not fit the DECODE header */
        no.format = fmt;
        no.bits = bits;
        no.pad_pow2 = pow2;
        comp = NULL;
        CHECK(build_net(&no, &comp, &comp_n));
        if (!comp)
          continue;
        run(comp, comp_n, in, NULL, &rc);
        CHECK_EQ_INT(rc.st, TFLC_OK);
        if (rc.st)
          fprintf(stderr, "  %s\n", rc.err);
        CHECK_EQ_MEM(rc.out, rp.out, 6);
        /* compressed constants are decoded inside the kernels */
        CHECK(rc.arena <= rp.arena + 1024);
        free(comp);
      }
  /* per-tensor tables */
  no.per_tensor = 1;
  no.format = 0;
  free(plain);
  CHECK(build_net(&no, &plain, &plain_n));
  run(plain, plain_n, in, NULL, &rp);
  for (fmt = TFLC_W_METADATA; fmt <= TFLC_W_DECODE; fmt++) {
    no.format = fmt;
    no.bits = 6;
    CHECK(build_net(&no, &comp, &comp_n));
    run(comp, comp_n, in, NULL, &rc);
    CHECK_EQ_INT(rc.st, TFLC_OK);
    if (rc.st)
      fprintf(stderr, "  %s\n", rc.err);
    CHECK_EQ_MEM(rc.out, rp.out, 6);
    free(comp);
  }
  free(plain);
}

static void test_plan_and_exact_arena(void) {
  uint8_t *bytes;
  size_t n, used;
  tflc_model m;
  tflc_interpreter it;
  tflc_options o;
  net_opts no;
  uint8_t *arena;
  memset(&no, 0, sizeof no);
  no.levels = 3;
  CHECK(build_net(&no, &bytes, &n));
  CHECK_EQ_INT(tflc_model_init(&m, bytes, n), TFLC_OK);
  CHECK_EQ_INT(
      tflc_interpreter_init(&it, &m, big_arena, sizeof big_arena, NULL),
      TFLC_OK);
  CHECK(plan_ok(&it));
  used = tflc_arena_used(&it);
  /* exactly `used` bytes work; 16 fewer do not (from an aligned start):
   * with the fastest plan only (a smaller plan fits in less) */
  arena = (uint8_t *)malloc(used);
  memset(&o, 0, sizeof o);
  o.plan = TFLC_PLAN_FASTEST;
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, big_arena, used, &o), TFLC_OK);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, big_arena, used - 16, &o),
               TFLC_ERR_ARENA);
  CHECK(strstr(it.error, "arena") != NULL);
  /* an unaligned arena start costs at most 15 bytes */
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, big_arena + 3, used + 13, NULL),
               TFLC_OK);
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  free(arena);
  free(bytes);
}

/* A compressed constant feeding an operator without a tiled path (ADD) is
 * decoded whole: into the first alternate region with room, else the
 * arena. Checked in both formats. */
static int build_add(int format, uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  static const int32_t d[2] = {4, 64};
  int8_t c[256];
  int32_t t[3], i;
  float s = 0.05f;
  int64_t z = 0;
  tflc_w_quant q;
  tflc_status st = TFLC_OK;
  for (i = 0; i < 256; i++)
    c[i] = (int8_t)((i % 4) * 10 - 15);
  memset(&q, 0, sizeof q);
  q.count = 1;
  q.scale = &s;
  q.zero_point = &z;
  t[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d, NULL, 0, "x", &q);
  t[1] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d, c, sizeof c, "c", &q);
  t[2] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d, NULL, 0, "y", &q);
  tflc_writer_op(w, 0, 0, NULL, 2, t, 1, &t[2], 11, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &t[0]);
  tflc_writer_outputs(w, 0, 1, &t[2]);
  if (format)
    st = tflc_writer_compress(w, 0, t[1], 2, format, 0);
  if (st == TFLC_OK)
    st = tflc_writer_finish(w, out, size);
  tflc_writer_destroy(w);
  return st == TFLC_OK;
}

static void test_decompression_regions(void) {
  static uint8_t region_small[64], region_big[512];
  int8_t in[256], want[256];
  tflc_region regions[2];
  tflc_options opt;
  run_result r0, r1, r2;
  uint8_t *b;
  size_t n;
  int fmt, i;
  for (i = 0; i < 256; i++) {
    in[i] = (int8_t)(i - 128);
    /* equal scales and zero points: y = x + c, clamped */
    want[i] = (int8_t)0;
  }
  (void)want;
  CHECK(build_add(0, &b, &n));
  run(b, n, in, NULL, &r0);
  CHECK_EQ_INT(r0.st, TFLC_OK);
  CHECK_EQ_INT(r0.out[0], -128); /* -128 - 15 clamps */
  CHECK_EQ_INT(r0.out[62], -66 + 5);
  CHECK_EQ_INT(r0.out[63], -65 + 15);
  free(b);
  for (fmt = TFLC_W_METADATA; fmt <= TFLC_W_DECODE; fmt++) {
    CHECK(build_add(fmt, &b, &n));
    run(b, n, in, NULL, &r1); /* no regions: arena */
    CHECK_EQ_INT(r1.st, TFLC_OK);
    CHECK_EQ_MEM(r1.out, r0.out, 64);
    CHECK(r1.arena >= r0.arena + 256);
    regions[0].base = region_small; /* too small: skipped */
    regions[0].size = sizeof region_small;
    regions[1].base = region_big;
    regions[1].size = sizeof region_big;
    memset(&opt, 0, sizeof opt);
    opt.decomp_regions = regions;
    opt.num_decomp_regions = 2;
    memset(region_big, 0x55, sizeof region_big);
    run(b, n, in, &opt, &r2);
    CHECK_EQ_INT(r2.st, TFLC_OK);
    CHECK_EQ_MEM(r2.out, r0.out, 64);
    CHECK(r2.arena + 256 <= r1.arena); /* the decoded copy left the arena */
    CHECK_EQ_INT(region_big[0], (uint8_t)(int8_t)-15); /* decoded there */
    free(b);
  }
}

static void test_errors_name_the_place(void) {
  tflc_writer *w = tflc_writer_create();
  static const int32_t d[1] = {4};
  int32_t t[2];
  uint8_t *b;
  size_t n;
  run_result r;
  int8_t in[4] = {0};
  t[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "x", NULL);
  t[1] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "y", NULL);
  /* 122 = a builtin tflc does not run (in this build) */
  tflc_writer_op(w, 0, 122, NULL, 1, t, 1, &t[1], 0, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &t[0]);
  tflc_writer_outputs(w, 0, 1, &t[1]);
  CHECK_EQ_INT(tflc_writer_finish(w, &b, &n), TFLC_OK);
  tflc_writer_destroy(w);
  run(b, n, in, NULL, &r);
  CHECK_EQ_INT(r.st, TFLC_ERR_UNSUPPORTED);
  CHECK(strncmp(r.err, "op 0 ", 5) == 0);
  free(b);
  /* unverified model, bad arguments, invoke before init */
  {
    tflc_model m;
    tflc_interpreter it;
    memset(&m, 0, sizeof m);
    CHECK_EQ_INT(tflc_interpreter_init(&it, &m, big_arena, 1024, NULL),
                 TFLC_ERR_ARG);
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_ERR_STATE);
    CHECK(tflc_input(&it, 0) == NULL);
    CHECK_EQ_INT(tflc_model_init(&m, NULL, 0), TFLC_ERR_ARG);
    CHECK_EQ_INT(tflc_model_init(&m, "TFL3", 4), TFLC_ERR_TRUNCATED);
  }
}

/* FULLY_CONNECTED weights and biases without records: x -> FC (per-channel
 * weights) -> FC (W2, b2) -> FC (W2 shared, no bias) -> ADD (a constant
 * only ADD reads), int8. */
static int build_fc_chain(uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  static const int32_t xd[2] = {1, 16}, w1d[2] = {8, 16}, w2d[2] = {8, 8};
  static const int32_t bd[1] = {8}, hd[2] = {1, 8};
  int8_t w1[128], w2[64], c[8];
  int32_t b1[8], b2[8], t[11], in[3], i;
  float s_x = 0.05f, s_h = 0.1f, s_w2 = 0.02f, s_w1[8], s_b1[8], s_b2;
  int64_t z_x = -3, z_h = 2, z0[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  tflc_w_quant qx, qh, qw1, qb1, qw2, qb2;
  tflc_w_option o[1];
  tflc_status st;
  for (i = 0; i < 128; i++)
    w1[i] = (int8_t)((int32_t)(rng() % 255u) - 127);
  for (i = 0; i < 64; i++)
    w2[i] = (int8_t)((int32_t)(rng() % 255u) - 127);
  for (i = 0; i < 8; i++) {
    s_w1[i] = 0.002f * (float)(i + 1);
    s_b1[i] = s_x * s_w1[i];
    b1[i] = (int32_t)(rng() % 2001u) - 1000;
    b2[i] = (int32_t)(rng() % 2001u) - 1000;
    c[i] = (int8_t)(i * 7 - 20);
  }
  s_b2 = s_h * s_w2;
  memset(&qx, 0, sizeof qx);
  qx.scale = &s_x;
  qx.zero_point = &z_x;
  qx.count = 1;
  qh = qx;
  qh.scale = &s_h;
  qh.zero_point = &z_h;
  qw1 = qx;
  qw1.scale = s_w1;
  qw1.zero_point = z0;
  qw1.count = 8;
  qb1 = qw1;
  qb1.scale = s_b1;
  qw2 = qx;
  qw2.scale = &s_w2;
  qw2.zero_point = z0;
  qb2 = qw2;
  qb2.scale = &s_b2;
  t[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, xd, NULL, 0, "x", &qx);
  t[1] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, w1d, w1, sizeof w1, "w1", &qw1);
  t[2] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, bd, b1, sizeof b1, "b1", &qb1);
  t[3] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, hd, NULL, 0, "h1", &qh);
  t[4] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, w2d, w2, sizeof w2, "w2", &qw2);
  t[5] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, bd, b2, sizeof b2, "b2", &qb2);
  t[6] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, hd, NULL, 0, "h2", &qh);
  t[7] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, hd, NULL, 0, "h3", &qh);
  t[8] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, hd, c, sizeof c, "c", &qh);
  t[9] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, hd, NULL, 0, "y", &qh);
  o[0] = opt_u8(0, 1); /* RELU */
  in[0] = t[0], in[1] = t[1], in[2] = t[2];
  tflc_writer_op(w, 0, TFLC_OP_FULLY_CONNECTED, NULL, 3, in, 1, &t[3], 8, 1, o);
  in[0] = t[3], in[1] = t[4], in[2] = t[5];
  tflc_writer_op(w, 0, TFLC_OP_FULLY_CONNECTED, NULL, 3, in, 1, &t[6], 8, 0,
                 NULL);
  in[0] = t[6], in[1] = t[4], in[2] = -1;
  tflc_writer_op(w, 0, TFLC_OP_FULLY_CONNECTED, NULL, 3, in, 1, &t[7], 8, 0,
                 NULL);
  in[0] = t[7], in[1] = t[8];
  tflc_writer_op(w, 0, TFLC_OP_ADD, NULL, 2, in, 1, &t[9], 11, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &t[0]);
  tflc_writer_outputs(w, 0, 1, &t[9]);
  st = tflc_writer_finish(w, out, size);
  tflc_writer_destroy(w);
  return st == TFLC_OK;
}
static int claims_nothing(tflc_op_context *op, void *user) {
  (void)op;
  (void)user;
  return 0;
}
static tflc_status never_runs(tflc_op_context *part, void *user) {
  (void)part;
  (void)user;
  return TFLC_ERR_STATE;
}
static void test_fc_constants_without_records(void) {
  uint8_t *bytes;
  size_t n, used;
  tflc_model m;
  tflc_interpreter it;
  tflc_delegate none = {"none", claims_nothing, NULL, never_runs, NULL};
  tflc_options opt;
  run_result plain, kept;
  int8_t x[16];
  int32_t i;
  for (i = 0; i < 16; i++)
    x[i] = (int8_t)rng();
  CHECK(build_fc_chain(&bytes, &n));
  CHECK_EQ_INT(tflc_model_init(&m, bytes, n), TFLC_OK);
  CHECK_EQ_INT(
      tflc_interpreter_init(&it, &m, big_arena, sizeof big_arena, NULL),
      TFLC_OK);
  /* records: x, h1, h2, h3, the ADD constant, y; none for w1 b1 w2 b2 */
  CHECK_EQ_INT(it.num_tensors, 6);
  CHECK(it.ops[0].in[1] < -1 && it.ops[0].in[2] < -1);
  CHECK(it.ops[2].in[1] < -1 && it.ops[2].in[2] == -1);
  CHECK(it.ops[3].in[1] >= 0);
  CHECK(it.prep_consts == NULL);
  CHECK(plan_ok(&it));
  /* exact arena, the prepare-time records included */
  used = tflc_arena_used(&it);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, big_arena, used, NULL), TFLC_OK);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, big_arena, used - 16, NULL),
               TFLC_ERR_ARENA);
  /* with a delegate every constant keeps its record: same bytes out */
  run(bytes, n, x, NULL, &plain);
  CHECK_EQ_INT(plain.st, TFLC_OK);
  memset(&opt, 0, sizeof opt);
  opt.delegates = &none;
  opt.num_delegates = 1;
  run(bytes, n, x, &opt, &kept);
  CHECK_EQ_INT(kept.st, TFLC_OK);
  CHECK_EQ_MEM(plain.out, kept.out, 8);
  for (i = 1; i < 8 && plain.out[i] == plain.out[0]; i++)
    ;
  CHECK(i < 8); /* not a constant (saturated) output */
  CHECK(plain.arena < kept.arena);
  CHECK_EQ_INT(
      tflc_interpreter_init(&it, &m, big_arena, sizeof big_arena, &opt),
      TFLC_OK);
  CHECK_EQ_INT(it.num_tensors, 10);
  free(bytes);
}

/* Parameters read only at prepare keep no records: x [4,6] ->
 * STRIDED_SLICE (begin {1,0}, end {4,6}, strides {1,2}) -> [3,3] ->
 * RESHAPE (shape {9}) -> SPLIT_V (sizes {4,5}, axis 0) -> [4], [5], int8. */
static int build_params_chain(uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  static const int32_t xd[2] = {4, 6}, yd[2] = {3, 3}, zd[1] = {9};
  static const int32_t ad[1] = {4}, bd[1] = {5}, two[1] = {2}, one[1] = {1};
  static const int32_t begin[2] = {1, 0}, end[2] = {4, 6}, strides[2] = {1, 2};
  static const int32_t shape[1] = {9}, sizes[2] = {4, 5}, axis[1] = {0};
  float s = 0.1f;
  int64_t z = 0;
  tflc_w_quant q;
  int32_t t[11], in[4];
  tflc_status st;
  memset(&q, 0, sizeof q);
  q.scale = &s;
  q.zero_point = &z;
  q.count = 1;
  t[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, xd, NULL, 0, "x", &q);
  t[1] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, two, begin, 8, "begin", NULL);
  t[2] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, two, end, 8, "end", NULL);
  t[3] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, two, strides, 8, "st", NULL);
  t[4] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, yd, NULL, 0, "y", &q);
  t[5] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, one, shape, 4, "shape", NULL);
  t[6] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, zd, NULL, 0, "z", &q);
  t[7] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, two, sizes, 8, "sizes", NULL);
  t[8] = tflc_writer_tensor(w, 0, TFLC_INT32, 0, NULL, axis, 4, "axis", NULL);
  t[9] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, ad, NULL, 0, "a", &q);
  t[10] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, bd, NULL, 0, "b", &q);
  in[0] = t[0], in[1] = t[1], in[2] = t[2], in[3] = t[3];
  tflc_writer_op(w, 0, TFLC_OP_STRIDED_SLICE, NULL, 4, in, 1, &t[4], 0, 0,
                 NULL);
  in[0] = t[4], in[1] = t[5];
  tflc_writer_op(w, 0, TFLC_OP_RESHAPE, NULL, 2, in, 1, &t[6], 0, 0, NULL);
  in[0] = t[6], in[1] = t[7], in[2] = t[8];
  tflc_writer_op(w, 0, TFLC_OP_SPLIT_V, NULL, 3, in, 2, &t[9], 0, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &t[0]);
  tflc_writer_outputs(w, 0, 1, &t[10]);
  st = tflc_writer_finish(w, out, size);
  tflc_writer_destroy(w);
  return st == TFLC_OK;
}
static void test_params_without_records(void) {
  uint8_t *bytes;
  size_t n, used;
  tflc_model m;
  tflc_interpreter it;
  tflc_delegate none = {"none", claims_nothing, NULL, never_runs, NULL};
  tflc_options opt;
  run_result plain, kept;
  int8_t x[24], want[5];
  int32_t i;
  for (i = 0; i < 24; i++)
    x[i] = (int8_t)(3 * i - 40);
  /* the slice's elements 4..8: rows 1..3, columns 0, 2, 4 */
  for (i = 0; i < 5; i++)
    want[i] = x[6 * (1 + (4 + i) / 3) + 2 * ((4 + i) % 3)];
  CHECK(build_params_chain(&bytes, &n));
  CHECK_EQ_INT(tflc_model_init(&m, bytes, n), TFLC_OK);
  CHECK_EQ_INT(
      tflc_interpreter_init(&it, &m, big_arena, sizeof big_arena, NULL),
      TFLC_OK);
  /* records: x, y, z, a, b; none for the six parameters */
  CHECK_EQ_INT(it.num_tensors, 5);
  CHECK(it.ops[0].in[1] < -1 && it.ops[0].in[2] < -1 && it.ops[0].in[3] < -1);
  CHECK(it.ops[0].state != NULL); /* the slice's geometry, kept */
  CHECK(it.ops[1].in[1] < -1);
  CHECK(it.ops[2].in[0] >= 0 && it.ops[2].in[1] < -1 && it.ops[2].in[2] < -1);
  CHECK(plan_ok(&it));
  used = tflc_arena_used(&it);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, big_arena, used, NULL), TFLC_OK);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, big_arena, used - 16, NULL),
               TFLC_ERR_ARENA);
  run(bytes, n, x, NULL, &plain);
  CHECK_EQ_INT(plain.st, TFLC_OK);
  CHECK_EQ_MEM(plain.out, want, 5);
  /* with a delegate every constant keeps its record (the slice reads its
   * parameters at invoke): same bytes, more arena */
  memset(&opt, 0, sizeof opt);
  opt.delegates = &none;
  opt.num_delegates = 1;
  run(bytes, n, x, &opt, &kept);
  CHECK_EQ_INT(kept.st, TFLC_OK);
  CHECK_EQ_MEM(kept.out, want, 5);
  CHECK(plain.arena < kept.arena);
  CHECK_EQ_INT(
      tflc_interpreter_init(&it, &m, big_arena, sizeof big_arena, &opt),
      TFLC_OK);
  CHECK_EQ_INT(it.num_tensors, 11);
  CHECK(it.ops[0].state == NULL);
  free(bytes);
}

/* The plan of real models (when ../shared is there): no live overlap. */
static void test_plan_real_models(void) {
  static const char *paths[] = {
      "../shared/models/person_detect.tflite",
      "../shared/models/micro_speech_quantized.tflite",
      "../shared/models/keyword_scrambled.tflite",
      "../shared/models/trained_lstm_int8.tflite",
      "../shared/conformance/models/compressed/pd_all_w4/decode/model.tflite"};
  static uint8_t buf[400 * 1024];
  size_t i;
  for (i = 0; i < sizeof paths / sizeof paths[0]; i++) {
    FILE *f = fopen(paths[i], "rb");
    size_t n;
    tflc_model m;
    tflc_interpreter it;
    if (!f)
      continue;
    n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    CHECK_EQ_INT(tflc_model_init(&m, buf, n), TFLC_OK);
    CHECK_EQ_INT(
        tflc_interpreter_init(&it, &m, big_arena, sizeof big_arena, NULL),
        TFLC_OK);
    CHECK(plan_ok(&it));
  }
}

/* Inputs 0..3 of it from in[k] (as much of each as fits). */
static void set_inputs(tflc_interpreter *it, uint8_t in[4][16 * 1024]) {
  int k;
  for (k = 0; k < it->num_inputs && k < 4; k++) {
    tflc_tensor *t = tflc_input(it, k);
    memcpy(t->data, in[k], t->bytes < sizeof in[k] ? t->bytes : sizeof in[k]);
  }
}

/* Compact state (TFLC_PLAN_COMPACT): on real models the requantization
 * computed at invoke gives the fastest plan's bytes, on several random
 * inputs; person_detect's persistent bytes (a 32-bit target) are at most
 * half the fastest plan's, and its smallest plan is that one. */
static void test_plan_compact(void) {
  static const char *paths[] = {
      "../shared/models/person_detect.tflite",
      "../shared/models/micro_speech_quantized.tflite",
      "../shared/conformance/external/mlperf_tiny/kws_ref_model/seed1/"
      "model.tflite",
      "../shared/conformance/external/mlperf_tiny/pretrainedResnet_quant/"
      "seed1/model.tflite",
      "../shared/conformance/models/compressed/pd_all_w4/decode/model.tflite",
      "../shared/conformance/models/compressed/pd_all_w4/meta/model.tflite"};
  static uint8_t buf[400 * 1024], fast_out[64], out[64];
  static uint8_t in_bytes[4][16 * 1024];
  size_t i;
  for (i = 0; i < sizeof paths / sizeof paths[0]; i++) {
    FILE *f = fopen(paths[i], "rb");
    size_t n, tail_fast = 0;
    tflc_model m;
    tflc_interpreter it;
    tflc_options o;
    int trial;
    if (!f)
      continue;
    n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    CHECK_EQ_INT(tflc_model_init(&m, buf, n), TFLC_OK);
    for (trial = 0; trial < 3; trial++) {
      int k, plan, folded;
      size_t ob = 0;
      rng_bytes(in_bytes[0], sizeof in_bytes);
      for (plan = 0; plan < 2; plan++) {
        memset(&o, 0, sizeof o);
        o.plan = plan ? TFLC_PLAN_COMPACT : TFLC_PLAN_FASTEST;
        CHECK_EQ_INT(
            tflc_interpreter_init(&it, &m, big_arena, sizeof big_arena, &o),
            TFLC_OK);
        CHECK(plan_ok(&it));
        /* the CONV_2D layers with folded biases: all in the fastest plan,
         * none in the compact one (they sum their filters at each invoke) */
        folded = 0;
        for (k = 0; k < it.num_ops; k++)
          if (it.ops[k].code == TFLC_OP_CONV_2D &&
              (it.ops[k].variant & 0x20u)) /* (TFLC__FOLDED) */
            folded++;
        if (plan) {
          CHECK_EQ_INT(it.plan, TFLC_PLAN_COMPACT);
          CHECK(it.compact_ops > 0);
          CHECK_EQ_INT(folded, 0);
        } else {
          tail_fast = it.tail32;
          if (i == 0) /* person_detect: its 14 CONV_2D */
            CHECK_EQ_INT(folded, 14);
        }
        set_inputs(&it, in_bytes);
        CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
        ob = tflc_output(&it, 0)->bytes < sizeof out
                 ? tflc_output(&it, 0)->bytes
                 : sizeof out;
        memcpy(plan ? out : fast_out, tflc_output(&it, 0)->data, ob);
        /* invoke twice: the multipliers are made again, the same */
        if (plan) {
          set_inputs(&it, in_bytes);
          CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
          CHECK_EQ_MEM(tflc_output(&it, 0)->data, out, ob);
        }
      }
      CHECK_EQ_MEM(out, fast_out, ob);
      if (i == 0 && trial == 0) {
        CHECK(2 * it.tail32 <= tail_fast);
        memset(&o, 0, sizeof o);
        o.plan = TFLC_PLAN_SMALLEST;
        CHECK_EQ_INT(
            tflc_interpreter_init(&it, &m, big_arena, sizeof big_arena, &o),
            TFLC_OK);
        /* the smaller of the patch and compact plans (person_detect: its
         * chain band by band) */
        CHECK(it.plan == TFLC_PLAN_PATCHES || it.plan == TFLC_PLAN_COMPACT);
        CHECK_EQ_INT(it.folded_ops, 0);
        /* an arena a byte short of the fastest plan's: the fastest plan
         * without the folded biases, TFLM's bytes again; the fastest plan
         * asked for fails there */
        memset(&o, 0, sizeof o);
        o.plan = TFLC_PLAN_FASTEST;
        CHECK_EQ_INT(
            tflc_interpreter_init(&it, &m, big_arena, sizeof big_arena, &o),
            TFLC_OK);
        CHECK_EQ_INT(it.folded_ops, 14);
        {
          const size_t fast_used = tflc_arena_used(&it);
          CHECK_EQ_INT(
              tflc_interpreter_init(&it, &m, big_arena, fast_used - 1, &o),
              TFLC_ERR_ARENA);
          memset(&o, 0, sizeof o);
          CHECK_EQ_INT(
              tflc_interpreter_init(&it, &m, big_arena, fast_used - 1, &o),
              TFLC_OK);
          CHECK_EQ_INT(it.plan, TFLC_PLAN_FASTEST);
          CHECK_EQ_INT(it.folded_ops, 0);
          CHECK(tflc_arena_used(&it) + 4 * 1000 < fast_used);
          set_inputs(&it, in_bytes);
          CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
          CHECK_EQ_MEM(tflc_output(&it, 0)->data, fast_out, ob);
          /* one byte short of that: the same plan without the depthwise
           * layers' tiles for their layer path (whose records take 8
           * bytes each), which a step that changes no layer gives */
          {
            const size_t unfolded_used = tflc_arena_used(&it);
            CHECK_EQ_INT(tflc_interpreter_init(&it, &m, big_arena,
                                               unfolded_used - 1, &o),
                         TFLC_OK);
            CHECK_EQ_INT(it.folded_ops, 0);
            CHECK(tflc_arena_used(&it) < unfolded_used);
            set_inputs(&it, in_bytes);
            CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
            CHECK_EQ_MEM(tflc_output(&it, 0)->data, fast_out, ob);
          }
        }
      }
    }
  }
}

/* ---- plans: depthwise layers written over their input ------------------- */
/* The in-place kernel against the whole-tensor one, byte for byte, on
 * random int8 depthwise layers (multiplier 1): strides, dilations, SAME
 * and VALID padding (windows clipped at every border), batches, planes of
 * 1 to all channels; the input buffer holds the output afterwards. */
static void test_depthwise_in_place_kernel(void) {
  static int8_t in[2 * 12 * 12 * 24], io[sizeof in], ref[sizeof in];
  static int8_t plane[sizeof in], filt[5 * 5 * 24];
  int32_t bias[24], mult[24], trial, runs = 0;
  int8_t shift[24];
  for (trial = 0; trial < 400; trial++) {
    const int32_t nb = rng_int(1, 2), h = rng_int(1, 12), w = rng_int(1, 12);
    const int32_t c = rng_int(1, 24), kh = rng_int(1, 5), kw = rng_int(1, 5);
    const int32_t sh = rng_int(1, 2), sw = rng_int(1, 3);
    const int32_t dh = rng_int(1, 2), dw = rng_int(1, 2);
    const int same = rng_below(2) == 0;
    const int32_t eh = (kh - 1) * dh + 1, ew = (kw - 1) * dw + 1;
    const int32_t oh = same ? (h + sh - 1) / sh : (h - eh + sh) / sh;
    const int32_t ow = same ? (w + sw - 1) / sw : (w - ew + sw) / sw;
    int32_t in_d[4], f_d[4], o_d[4], k, i, planes;
    tflc_conv_params p;
    tflc_const fc, bc;
    const tflc_const *bp;
    if (oh < 1 || ow < 1)
      continue;
    memset(&p, 0, sizeof p);
    p.stride_h = sh;
    p.stride_w = sw;
    p.dilation_h = dh;
    p.dilation_w = dw;
    p.pad_h = same && (oh - 1) * sh + eh > h ? ((oh - 1) * sh + eh - h) / 2 : 0;
    p.pad_w = same && (ow - 1) * sw + ew > w ? ((ow - 1) * sw + ew - w) / 2 : 0;
    p.depth_multiplier = 1;
    p.input_offset = rng_int(-127, 128);
    p.output_offset = rng_int(-128, 127);
    p.act_min = rng_below(4) ? -128 : rng_int(-128, 0);
    p.act_max = rng_below(4) ? 127 : rng_int(1, 127);
    for (k = 0; k < c; k++) {
      bias[k] = rng_int(-3000, 3000);
      mult[k] = rng_int(1 << 30, 0x7FFFFFFF);
      shift[k] = (int8_t)rng_int(-9, 1);
    }
    p.out_multiplier = mult;
    p.out_shift = shift;
    in_d[0] = o_d[0] = nb;
    in_d[1] = h;
    in_d[2] = w;
    in_d[3] = f_d[3] = o_d[3] = c;
    f_d[0] = 1;
    f_d[1] = kh;
    f_d[2] = kw;
    o_d[1] = oh;
    o_d[2] = ow;
    rng_bytes(in, (size_t)(nb * h * w * c));
    rng_bytes(filt, (size_t)(kh * kw * c));
    fc = tflc_const_raw(filt, TFLC_INT8, kh * kw * c);
    bc = tflc_const_raw(bias, TFLC_INT32, c);
    bp = rng_below(5) ? &bc : NULL;
    tflc_depthwise_conv2d_s8(&p, in_d, in, f_d, &fc, bp, o_d, ref, NULL, 0);
    planes = rng_int(1, c);
    memcpy(io, in, (size_t)(nb * h * w * c));
    memset(plane, 0x5A, sizeof plane);
    CHECK(tflc_depthwise_conv2d_s8_inplace(&p, in_d, io, f_d, &fc, bp, o_d,
                                           plane, planes, NULL, 0));
    CHECK_EQ_MEM(io, ref, (size_t)(nb * oh * ow * c));
    /* the plane's bytes past planes * N * Ho * Wo are never written */
    for (i = planes * nb * oh * ow; i < (int32_t)sizeof plane; i += 97)
      CHECK_EQ_INT(plane[i], 0x5A);
    if ((trial & 3) == 0) {
      /* float32 and int16 (one channel's plane), same layer */
      static float fin[sizeof in], fio[sizeof in], fref[sizeof in];
      static float fplane[sizeof in], ff[sizeof filt], fb[24];
      static int16_t sin_[sizeof in], sio[sizeof in], sref[sizeof in];
      static int16_t splane[sizeof in];
      static int64_t sb[24];
      const int32_t cnt = nb * h * w * c;
      tflc_const ffc, fbc, sbc;
      for (i = 0; i < cnt; i++) {
        fin[i] = (float)in[i] / 16.0f;
        sin_[i] = (int16_t)(in[i] * 200 + (i & 63));
      }
      for (i = 0; i < kh * kw * c; i++)
        ff[i] = (float)filt[i] / 64.0f;
      for (i = 0; i < c; i++) {
        fb[i] = (float)bias[i] / 1000.0f;
        sb[i] = (int64_t)bias[i] * 1000;
      }
      ffc = tflc_const_raw(ff, TFLC_FLOAT32, kh * kw * c);
      fbc = tflc_const_raw(fb, TFLC_FLOAT32, c);
      sbc = tflc_const_raw(sb, TFLC_INT64, c);
      tflc_depthwise_conv2d_f32(&p, -3.0f, 5.0f, in_d, fin, f_d, &ffc, &fbc,
                                o_d, fref, NULL, 0);
      memcpy(fio, fin, sizeof(float) * (size_t)cnt);
      CHECK(tflc_depthwise_conv2d_f32_inplace(
          &p, -3.0f, 5.0f, in_d, fio, f_d, &ffc, &fbc, o_d, fplane, NULL, 0));
      CHECK_EQ_MEM(fio, fref, sizeof(float) * (size_t)(nb * oh * ow * c));
      p.act_min = -32768;
      p.act_max = 32767;
      tflc_depthwise_conv2d_s16(&p, in_d, sin_, f_d, &fc, &sbc, o_d, sref, NULL,
                                0);
      memcpy(sio, sin_, sizeof(int16_t) * (size_t)cnt);
      CHECK(tflc_depthwise_conv2d_s16_inplace(&p, in_d, sio, f_d, &fc, &sbc,
                                              o_d, splane, NULL, 0));
      CHECK_EQ_MEM(sio, sref, sizeof(int16_t) * (size_t)(nb * oh * ow * c));
    }
    runs++;
  }
  CHECK(runs > 200);
  {
    /* another multiplier or channel count: 0, nothing written */
    int32_t in_d[4] = {1, 4, 4, 2}, f_d[4] = {1, 3, 3, 4},
            o_d[4] = {1, 4, 4, 4};
    tflc_conv_params p;
    tflc_const fc = tflc_const_raw(filt, TFLC_INT8, 36);
    memset(&p, 0, sizeof p);
    p.stride_h = p.stride_w = p.dilation_h = p.dilation_w = 1;
    p.depth_multiplier = 2;
    p.out_multiplier = mult;
    p.out_shift = shift;
    memcpy(io, in, 32);
    CHECK_EQ_INT(tflc_depthwise_conv2d_s8_inplace(&p, in_d, io, f_d, &fc, NULL,
                                                  o_d, plane, 1, NULL, 0),
                 0);
    CHECK_EQ_MEM(io, in, 32);
  }
}

/* input [1,h,w,2] -> CONV_2D 1x1 to c channels -> DEPTHWISE_CONV_2D
 * (kh x kw, stride, dilation, padding, multiplier 1) -> CONV_2D 1x1 to 2
 * channels -> output; the depthwise layer holds the peak, so writing it
 * over its input pays. `compress`: its filter LUT-compressed
 * (TFLC_W_METADATA / TFLC_W_DECODE, 4 bits), else 0. */
static int build_dw_chain(int32_t h, int32_t w, int32_t c, int32_t kh,
                          int32_t kw, int32_t stride, int32_t dil, int same,
                          int compress, uint8_t **out, size_t *size) {
  tflc_writer *wr = tflc_writer_create();
  const int32_t eh = (kh - 1) * dil + 1, ew = (kw - 1) * dil + 1;
  const int32_t oh =
      same ? (h + stride - 1) / stride : (h - eh + stride) / stride;
  const int32_t ow =
      same ? (w + stride - 1) / stride : (w - ew + stride) / stride;
  int32_t in_d[4], c1_d[4], t1_d[4], dw_d[4], t2_d[4], c2_d[4], o_d[4];
  int32_t bc[1], b2[1], t[12], ins[3], outs[1], i;
  int8_t c1[2 * 32], dwf[5 * 5 * 32], c2[2 * 32];
  int32_t b1v[32], dwb[32], b2v[2];
  float s_in = 0.05f, s_1 = 0.04f, s_2 = 0.03f, s_o = 0.1f;
  float ws1[32], wsd[32], ws2[2], bs1[32], bsd[32], bs2[2];
  int64_t zin = -3, z1 = -128, z2 = 5, zo = -1;
  tflc_w_quant q;
  tflc_w_option o[8];
  tflc_status st = TFLC_OK;
  if (c > 32 || kh * kw > 25)
    return 0;
  in_d[0] = 1, in_d[1] = h, in_d[2] = w, in_d[3] = 2;
  c1_d[0] = c, c1_d[1] = 1, c1_d[2] = 1, c1_d[3] = 2;
  t1_d[0] = 1, t1_d[1] = h, t1_d[2] = w, t1_d[3] = c;
  dw_d[0] = 1, dw_d[1] = kh, dw_d[2] = kw, dw_d[3] = c;
  t2_d[0] = 1, t2_d[1] = oh, t2_d[2] = ow, t2_d[3] = c;
  c2_d[0] = 2, c2_d[1] = 1, c2_d[2] = 1, c2_d[3] = c;
  o_d[0] = 1, o_d[1] = oh, o_d[2] = ow, o_d[3] = 2;
  bc[0] = c;
  b2[0] = 2;
  for (i = 0; i < 2 * c; i++)
    c1[i] = (int8_t)rng_int(-100, 100), c2[i] = (int8_t)rng_int(-100, 100);
  for (i = 0; i < kh * kw * c; i++) /* few values per channel (LUT) */
    dwf[i] = (int8_t)((i % c) * 3 - 40 + rng_int(0, 7) * 9);
  for (i = 0; i < c; i++) {
    ws1[i] = 0.01f + 0.001f * (float)i;
    wsd[i] = 0.02f + 0.0005f * (float)i;
    bs1[i] = s_in * ws1[i];
    bsd[i] = s_1 * wsd[i];
    b1v[i] = rng_int(-200, 200);
    dwb[i] = rng_int(-300, 300);
  }
  for (i = 0; i < 2; i++) {
    ws2[i] = 0.015f;
    bs2[i] = s_2 * ws2[i];
    b2v[i] = rng_int(-50, 50);
  }
  memset(&q, 0, sizeof q);
  q.count = 1;
  q.scale = &s_in;
  q.zero_point = &zin;
  t[0] = tflc_writer_tensor(wr, 0, TFLC_INT8, 4, in_d, NULL, 0, "in", &q);
  q.scale = &s_1;
  q.zero_point = &z1;
  t[1] = tflc_writer_tensor(wr, 0, TFLC_INT8, 4, t1_d, NULL, 0, "t1", &q);
  q.scale = &s_2;
  q.zero_point = &z2;
  t[2] = tflc_writer_tensor(wr, 0, TFLC_INT8, 4, t2_d, NULL, 0, "t2", &q);
  q.scale = &s_o;
  q.zero_point = &zo;
  t[3] = tflc_writer_tensor(wr, 0, TFLC_INT8, 4, o_d, NULL, 0, "out", &q);
  q.zero_point = NULL;
  q.count = c;
  q.axis = 0;
  q.scale = ws1;
  t[4] = tflc_writer_tensor(wr, 0, TFLC_INT8, 4, c1_d, c1, (size_t)(2 * c),
                            "c1", &q);
  q.scale = bs1;
  t[5] = tflc_writer_tensor(wr, 0, TFLC_INT32, 1, bc, b1v, 4 * (size_t)c, "b1",
                            &q);
  q.axis = 3;
  q.scale = wsd;
  t[6] = tflc_writer_tensor(wr, 0, TFLC_INT8, 4, dw_d, dwf,
                            (size_t)(kh * kw * c), "dw", &q);
  q.axis = 0;
  q.scale = bsd;
  t[7] = tflc_writer_tensor(wr, 0, TFLC_INT32, 1, bc, dwb, 4 * (size_t)c, "bd",
                            &q);
  q.count = 2;
  q.scale = ws2;
  t[8] = tflc_writer_tensor(wr, 0, TFLC_INT8, 4, c2_d, c2, (size_t)(2 * c),
                            "c2", &q);
  q.scale = bs2;
  t[9] = tflc_writer_tensor(wr, 0, TFLC_INT32, 1, b2, b2v, 8, "b2", &q);
  o[0] = opt_u8(0, 0);
  o[1] = opt_i32(1, 1);
  o[2] = opt_i32(2, 1);
  o[3] = opt_u8(3, 0);
  ins[0] = t[0], ins[1] = t[4], ins[2] = t[5], outs[0] = t[1];
  tflc_writer_op(wr, 0, 3, NULL, 3, ins, 1, outs, 1, 4, o);
  o[0] = opt_u8(0, same ? 0 : 1);
  o[1] = opt_i32(1, stride);
  o[2] = opt_i32(2, stride);
  o[3] = opt_i32(3, 1);
  o[4] = opt_u8(4, 3); /* RELU6 */
  o[5] = opt_i32(5, dil);
  o[6] = opt_i32(6, dil);
  ins[0] = t[1], ins[1] = t[6], ins[2] = t[7], outs[0] = t[2];
  tflc_writer_op(wr, 0, 4, NULL, 3, ins, 1, outs, 2, 7, o);
  o[0] = opt_u8(0, 0);
  o[1] = opt_i32(1, 1);
  o[2] = opt_i32(2, 1);
  o[3] = opt_u8(3, 0);
  ins[0] = t[2], ins[1] = t[8], ins[2] = t[9], outs[0] = t[3];
  tflc_writer_op(wr, 0, 3, NULL, 3, ins, 1, outs, 1, 4, o);
  tflc_writer_inputs(wr, 0, 1, &t[0]);
  tflc_writer_outputs(wr, 0, 1, &t[3]);
  if (compress)
    st = tflc_writer_compress(wr, 0, t[6], 4, compress, 0);
  if (st == TFLC_OK)
    st = tflc_writer_finish(wr, out, size);
  tflc_writer_destroy(wr);
  return st == TFLC_OK;
}

/* One init + invoke with plan `plan` in `arena_size` bytes of big_arena:
 * the status, and the output (up to `cap` bytes) and arena used. */
static tflc_status run_plan(const tflc_model *m, int32_t plan,
                            size_t arena_size, const int8_t *in, int8_t *out,
                            size_t cap, tflc_interpreter *it) {
  tflc_options o;
  tflc_status st;
  memset(&o, 0, sizeof o);
  o.plan = plan;
  st = tflc_interpreter_init(it, m, big_arena, arena_size, &o);
  if (st)
    return st;
  memcpy(tflc_input(it, 0)->data, in, tflc_input(it, 0)->bytes);
  st = tflc_invoke(it);
  if (!st)
    memcpy(out, tflc_output(it, 0)->data,
           tflc_output(it, 0)->bytes < cap ? tflc_output(it, 0)->bytes : cap);
  return st;
}

/* Whole models: every plan gives the fastest plan's bytes; the arena
 * decides the plan; each plan's arena is exact (one byte less takes the
 * next plan, or fails naming both figures); the plan has no live
 * overlap. Geometries with borders, VALID, stride 2, dilation, and
 * LUT-compressed depthwise filters in both formats. */
static void test_plans_depthwise(void) {
  static const int32_t geo[][8] = {
      /* h, w, c, kh, kw, stride, dilation, same */
      {8, 8, 8, 3, 3, 1, 1, 1},    {7, 5, 12, 3, 3, 1, 1, 0},
      {9, 9, 16, 5, 5, 1, 1, 1},   {6, 11, 3, 3, 3, 2, 1, 1},
      {10, 7, 5, 3, 2, 1, 2, 1},   {1, 1, 4, 3, 3, 1, 1, 1},
      {12, 12, 32, 3, 3, 1, 1, 1}, {5, 9, 7, 1, 1, 1, 1, 0}};
  static int8_t in[12 * 12 * 2], o_fast[12 * 12 * 2], o_other[12 * 12 * 2];
  size_t g;
  int fmt;
  for (g = 0; g < sizeof geo / sizeof geo[0]; g++)
    for (fmt = 0; fmt < 3; fmt++) {
      const int32_t *x = geo[g];
      const int compress = fmt == 0   ? 0
                           : fmt == 1 ? TFLC_W_METADATA
                                      : TFLC_W_DECODE;
      uint8_t *bytes;
      size_t n, fast, small, outn;
      int32_t small_plan, folds;
      tflc_model m;
      tflc_interpreter it;
      char want[TFLC_ERROR_LEN];
      if (!build_dw_chain(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7],
                          compress, &bytes, &n)) {
        CHECK(0);
        continue;
      }
      CHECK_EQ_INT(tflc_model_init(&m, bytes, n), TFLC_OK);
      rng_bytes(in, sizeof in);
      CHECK_EQ_INT(run_plan(&m, TFLC_PLAN_FASTEST, sizeof big_arena, in, o_fast,
                            sizeof o_fast, &it),
                   TFLC_OK);
      CHECK_EQ_INT(it.plan, TFLC_PLAN_FASTEST);
      fast = tflc_arena_used(&it);
      outn = tflc_output(&it, 0)->bytes;
      /* every layer that can, in place: the same bytes */
      memset(o_other, 0, sizeof o_other);
      CHECK_EQ_INT(run_plan(&m, TFLC_PLAN_EVERYWHERE, sizeof big_arena, in,
                            o_other, sizeof o_other, &it),
                   TFLC_OK);
      /* (every step: the requantization computed at invoke too) */
      CHECK_EQ_INT(it.plan, TFLC_PLAN_COMPACT);
      CHECK_EQ_INT(it.inplace_ops, 1);
      CHECK(it.compact_ops >= 1);
      CHECK(plan_ok(&it));
      CHECK(tflc_output(&it, 0)->data != NULL);
      CHECK_EQ_MEM(o_other, o_fast, outn);
      /* the chain band by band, forced: the same bytes */
      memset(o_other, 0, sizeof o_other);
      CHECK_EQ_INT(run_plan(&m, TFLC_PLAN_PATCHES, sizeof big_arena, in,
                            o_other, sizeof o_other, &it),
                   TFLC_OK);
      CHECK(plan_ok(&it));
      CHECK_EQ_MEM(o_other, o_fast, outn);
      if (!compress && x[0] * x[1] > 1) /* (a compressed filter: no chain) */
        CHECK_EQ_INT(it.plan, TFLC_PLAN_PATCHES);
      /* the smallest plan: in place or band by band here (the layer holds
       * the peak), its requantization at invoke or not */
      memset(o_other, 0, sizeof o_other);
      CHECK_EQ_INT(run_plan(&m, TFLC_PLAN_SMALLEST, sizeof big_arena, in,
                            o_other, sizeof o_other, &it),
                   TFLC_OK);
      small = tflc_arena_used(&it);
      small_plan = it.plan;
      CHECK_EQ_MEM(o_other, o_fast, outn);
      CHECK(small <= fast);
      if (x[2] >= 8 && x[0] * x[1] > 1) {
        CHECK(small < fast);
        CHECK(it.plan == TFLC_PLAN_INPLACE || it.plan == TFLC_PLAN_PATCHES ||
              it.plan == TFLC_PLAN_COMPACT);
      }
      /* the arena decides: the fastest plan's exact arena gets it ... */
      CHECK_EQ_INT(
          run_plan(&m, TFLC_PLAN_AUTO, fast, in, o_other, sizeof o_other, &it),
          TFLC_OK);
      CHECK_EQ_INT(it.plan, TFLC_PLAN_FASTEST);
      CHECK_EQ_INT(tflc_arena_used(&it), fast);
      folds = it.folded_ops;
      /* ... one byte less the fastest plan without its folded biases
       * (where it folds any), else the smaller one, if any, down to its
       * exact arena; one byte below that fails, naming both figures */
      memset(o_other, 0, sizeof o_other);
      if (small < fast) {
        CHECK_EQ_INT(run_plan(&m, TFLC_PLAN_AUTO, fast - 1, in, o_other,
                              sizeof o_other, &it),
                     TFLC_OK);
        if (folds)
          CHECK(it.plan == TFLC_PLAN_FASTEST && it.folded_ops == 0);
        else
          CHECK(it.plan == TFLC_PLAN_INPLACE || it.plan == TFLC_PLAN_PATCHES ||
                it.plan == TFLC_PLAN_COMPACT);
        CHECK_EQ_MEM(o_other, o_fast, outn);
        CHECK_EQ_INT(run_plan(&m, TFLC_PLAN_AUTO, small, in, o_other,
                              sizeof o_other, &it),
                     TFLC_OK);
        CHECK_EQ_INT(it.plan, small_plan);
        CHECK_EQ_INT(tflc_arena_used(&it), small);
        CHECK_EQ_MEM(o_other, o_fast, outn);
      }
      CHECK_EQ_INT(run_plan(&m, TFLC_PLAN_AUTO, small - 1, in, o_other,
                            sizeof o_other, &it),
                   TFLC_ERR_ARENA);
      /* (both figures when the records fit: not in a model this small) */
      if (x[2] >= 8 && x[0] * x[1] > 1) {
        snprintf(want, sizeof want,
                 "arena too small: needs at least %u bytes (the smallest "
                 "plan; the fastest needs %u)",
                 (unsigned)small, (unsigned)fast);
        CHECK(strcmp(it.error, want) == 0);
        if (strcmp(it.error, want) != 0)
          fprintf(stderr, "  got \"%s\"\n  want \"%s\"\n", it.error, want);
      }
      CHECK_EQ_INT(run_plan(&m, TFLC_PLAN_SMALLEST, small - 1, in, o_other,
                            sizeof o_other, &it),
                   TFLC_ERR_ARENA);
      free(bytes);
    }
}

/* A graph of layers on a map of h x w x c0 (CL_* kinds; k: the filter or
 * pool size, stride, same: SAME padding, cout: a convolution's channels,
 * skip: an ADD's other input, the output of layer skip (-1: the graph
 * input), swap: that input first, a pool's fused RELU6), random weights
 * and quantization; a last 1x1 convolution to 2 channels. The maps are
 * int8, or (flt) float32 up to the first QUANTIZE and int8 after it. */
enum {
  CL_CONV,
  CL_DW,
  CL_MAX,
  CL_AVG,
  CL_QUANT,
  CL_RELU,
  CL_RELU6,
  CL_HSWISH,
  CL_LOGISTIC,
  CL_TANH,
  CL_ADD
};
typedef struct chain_layer {
  int kind, k, stride, same, cout, skip, swap;
} chain_layer;
static int build_layers(int32_t h, int32_t w, int32_t c0, const chain_layer *ly,
                        int32_t n, int flt, uint8_t **out, size_t *size) {
  tflc_writer *wr = tflc_writer_create();
  int32_t t[20], dims[20][4], ins[3], i, j;
  float sc[20];
  int64_t zp[20];
  tflc_w_quant q;
  tflc_w_option o[8];
  tflc_status st = TFLC_OK;
  chain_layer last;
  int fl = flt != 0; /* the maps float32 so far */
  if (n > 18)
    return 0;
  memset(&q, 0, sizeof q);
  memset(&last, 0, sizeof last);
  last.kind = CL_CONV, last.k = 1, last.stride = 1, last.same = 1;
  last.cout = 2;
  dims[0][0] = 1, dims[0][1] = h, dims[0][2] = w, dims[0][3] = c0;
  sc[0] = 0.05f;
  zp[0] = -3;
  q.count = 1;
  q.scale = &sc[0];
  q.zero_point = &zp[0];
  t[0] = tflc_writer_tensor(wr, 0, flt ? TFLC_FLOAT32 : TFLC_INT8, 4, dims[0],
                            NULL, 0, "in", flt ? NULL : &q);
  for (i = 0; i <= n; i++) {
    const chain_layer *L = i < n ? &ly[i] : &last;
    const int32_t *d = dims[i];
    int32_t *e = dims[i + 1];
    const int32_t k = L->k, s = L->stride;
    const int f32 = fl && L->kind != CL_QUANT; /* (its output float32) */
    int32_t code, nin = 1, no = 0, x = t[i];
    uint8_t otype = 0;
    char name[16];
    e[0] = 1, e[3] = d[3];
    e[1] = L->same ? (d[1] + s - 1) / s : (d[1] - k + s) / s;
    e[2] = L->same ? (d[2] + s - 1) / s : (d[2] - k + s) / s;
    sc[i + 1] = 0.02f + 0.007f * (float)rng_int(0, 8);
    zp[i + 1] = rng_int(-20, 20);
    switch (L->kind) {
    case CL_CONV:
    case CL_DW: {
      static int8_t f[16 * 5 * 5 * 16];
      static float ff[16 * 5 * 5 * 16], bf[16];
      static int32_t b[16];
      static float fs[16], bs[16];
      const int dw = L->kind == CL_DW;
      const int32_t cout = dw ? d[3] : L->cout;
      int32_t fd[4], bd[1], m;
      e[3] = cout;
      fd[0] = dw ? 1 : cout, fd[1] = k, fd[2] = k, fd[3] = dw ? cout : d[3];
      bd[0] = cout;
      for (m = 0; m < fd[0] * k * k * fd[3]; m++) {
        f[m] = (int8_t)rng_int(-100, 100);
        ff[m] = (float)f[m] / 128.0f;
      }
      for (m = 0; m < cout; m++) {
        fs[m] = 0.004f + 0.0005f * (float)m;
        bs[m] = sc[i] * fs[m];
        b[m] = rng_int(-300, 300);
        bf[m] = (float)b[m] / 1000.0f;
      }
      q.count = cout;
      q.axis = dw ? 3 : 0;
      q.scale = fs;
      q.zero_point = NULL;
      snprintf(name, sizeof name, "f%d", (int)i);
      if (f32)
        ins[1] =
            tflc_writer_tensor(wr, 0, TFLC_FLOAT32, 4, fd, ff,
                               4 * (size_t)(fd[0] * k * k * fd[3]), name, NULL);
      else
        ins[1] = tflc_writer_tensor(wr, 0, TFLC_INT8, 4, fd, f,
                                    (size_t)(fd[0] * k * k * fd[3]), name, &q);
      q.axis = 0;
      q.scale = bs;
      snprintf(name, sizeof name, "b%d", (int)i);
      if (f32)
        ins[2] = tflc_writer_tensor(wr, 0, TFLC_FLOAT32, 1, bd, bf,
                                    4 * (size_t)cout, name, NULL);
      else
        ins[2] = tflc_writer_tensor(wr, 0, TFLC_INT32, 1, bd, b,
                                    4 * (size_t)cout, name, &q);
      nin = 3;
      code = dw ? 4 : 3;
      otype = dw ? 2 : 1;
      o[0] = opt_u8(0, L->same ? 0 : 1);
      o[1] = opt_i32(1, s);
      o[2] = opt_i32(2, s);
      if (dw) {
        o[3] = opt_i32(3, 1);
        o[4] = opt_u8(4, 0);
        no = 5;
      } else {
        o[3] = opt_u8(3, 1); /* RELU */
        no = 4;
      }
      break;
    }
    case CL_MAX:
    case CL_AVG:
      code = L->kind == CL_MAX ? 17 : 1;
      otype = 5;
      sc[i + 1] = sc[i], zp[i + 1] = zp[i];
      o[0] = opt_u8(0, L->same ? 0 : 1);
      o[1] = opt_i32(1, s);
      o[2] = opt_i32(2, s);
      o[3] = opt_i32(3, k);
      o[4] = opt_i32(4, k);
      o[5] = opt_u8(5, L->swap ? 3 : 0); /* (3: RELU6) */
      no = 6;
      break;
    case CL_ADD:
      code = 0;
      nin = 2;
      e[1] = d[1], e[2] = d[2];
      ins[1] = L->skip < 0 ? t[0] : t[L->skip + 1];
      if (L->swap)
        ins[1] = x, x = L->skip < 0 ? t[0] : t[L->skip + 1];
      break;
    default:
      code = L->kind == CL_QUANT    ? 114
             : L->kind == CL_RELU   ? 19
             : L->kind == CL_RELU6  ? 21
             : L->kind == CL_HSWISH ? 117
             : L->kind == CL_TANH   ? 28
                                    : 14;
      e[1] = d[1], e[2] = d[2];
      if (L->kind == CL_LOGISTIC)
        sc[i + 1] = 1.0f / 256, zp[i + 1] = -128;
      if (L->kind == CL_TANH)
        sc[i + 1] = 1.0f / 128, zp[i + 1] = 0;
      break;
    }
    q.count = 1;
    q.axis = 0;
    q.scale = &sc[i + 1];
    q.zero_point = &zp[i + 1];
    snprintf(name, sizeof name, "t%d", (int)i + 1);
    t[i + 1] = tflc_writer_tensor(wr, 0, f32 ? TFLC_FLOAT32 : TFLC_INT8, 4, e,
                                  NULL, 0, name, f32 ? NULL : &q);
    ins[0] = x;
    tflc_writer_op(wr, 0, code, NULL, nin, ins, 1, &t[i + 1], otype, no,
                   no ? o : NULL);
    fl = f32;
  }
  j = n + 1;
  tflc_writer_inputs(wr, 0, 1, &t[0]);
  tflc_writer_outputs(wr, 0, 1, &t[j]);
  st = tflc_writer_finish(wr, out, size);
  tflc_writer_destroy(wr);
  return st == TFLC_OK;
}

/* Chains with pools (SAME and VALID, stride 1 and 2), element-wise
 * operators and a residual ADD whose skip spans 1 to 3 layers: the
 * patches plan, forced, takes the layer `in` marks into its chain and
 * gives the fastest plan's bytes; so does the smallest plan, whose arena
 * is exact; ADDs whose skip the chain cannot hold run whole. */
static void test_plans_chain_ops(void) {
#define G(h, w, c0, n, in, flt) h, w, c0, n, in, flt
#define CL(kind, k, s, same, cout, skip, swap)                                 \
  { kind, k, s, same, cout, skip, swap }
  static const struct {
    int32_t h, w, c0, n, in; /* in: the layer the chain must take, or -1 */
    int flt;                 /* 1: float32 maps up to the first QUANTIZE */
    chain_layer ly[8];
  } cases[] = {
      /* pools: max / average, SAME / VALID, stride 1 / 2, odd sizes */
      {G(16, 16, 2, 2, 1, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_MAX, 3, 1, 1, 0, 0, 0)}},
      {G(15, 13, 2, 2, 1, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_AVG, 3, 2, 1, 0, 0, 0)}},
      {G(16, 12, 3, 2, 1, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_AVG, 2, 2, 0, 0, 0, 0)}},
      {G(17, 9, 2, 2, 1, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_MAX, 3, 2, 0, 0, 0, 0)}},
      {G(14, 14, 2, 3, 1, 0),
       {CL(CL_CONV, 3, 1, 1, 16, 0, 0), CL(CL_AVG, 5, 1, 1, 0, 0, 0),
        CL(CL_DW, 3, 1, 1, 0, 0, 0)}},
      {G(16, 16, 2, 3, 2, 0),
       {CL(CL_CONV, 1, 1, 1, 12, 0, 0), CL(CL_DW, 3, 2, 1, 0, 0, 0),
        CL(CL_MAX, 2, 2, 1, 0, 0, 0)}},
      /* element-wise: QUANTIZE int8 -> int8, RELU, RELU6, HARD_SWISH,
       * LOGISTIC */
      {G(16, 16, 2, 3, 1, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_QUANT, 1, 1, 1, 0, 0, 0),
        CL(CL_DW, 3, 1, 1, 0, 0, 0)}},
      {G(16, 16, 2, 3, 1, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_RELU, 1, 1, 1, 0, 0, 0),
        CL(CL_DW, 3, 2, 1, 0, 0, 0)}},
      {G(12, 16, 2, 3, 1, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_RELU6, 1, 1, 1, 0, 0, 0),
        CL(CL_DW, 3, 1, 0, 0, 0, 0)}},
      {G(16, 16, 2, 2, 1, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_HSWISH, 1, 1, 1, 0, 0, 0)}},
      {G(16, 16, 2, 2, 1, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_LOGISTIC, 1, 1, 1, 0, 0, 0)}},
      /* a residual ADD, its skip across 1, 2 and 3 layers, either input
       * first */
      {G(16, 16, 2, 3, 2, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_DW, 3, 1, 1, 0, 0, 0),
        CL(CL_ADD, 1, 1, 1, 0, 0, 0)}},
      {G(16, 16, 2, 4, 3, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_DW, 3, 1, 1, 0, 0, 0),
        CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_ADD, 1, 1, 1, 0, 0, 1)}},
      {G(16, 16, 2, 5, 4, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_DW, 3, 1, 1, 0, 0, 0),
        CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_DW, 5, 1, 1, 0, 0, 0),
        CL(CL_ADD, 1, 1, 1, 0, 0, 0)}},
      {G(20, 16, 2, 6, 5, 0),
       {CL(CL_CONV, 1, 1, 1, 8, 0, 0), CL(CL_DW, 3, 2, 1, 0, 0, 0),
        CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_DW, 3, 1, 1, 0, 0, 0),
        CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_ADD, 1, 1, 1, 0, 2, 0)}},
      /* a skip from the graph input, and one the chain would have to hold
       * beyond its last layer: those ADDs run whole */
      {G(16, 16, 16, 3, -1, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_DW, 3, 1, 1, 0, 0, 0),
        CL(CL_ADD, 1, 1, 1, 0, -1, 0)}},
      {G(16, 16, 2, 5, -1, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_DW, 3, 1, 1, 0, 0, 0),
        CL(CL_ADD, 1, 1, 1, 0, 0, 0), CL(CL_DW, 3, 1, 1, 0, 0, 0),
        CL(CL_ADD, 1, 1, 1, 0, 0, 0)}},
      /* float32: convolutions (SAME, VALID, stride 2), a residual ADD; a
       * float32 input quantized by the chain's first layer */
      {G(16, 16, 2, 3, 1, 1),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_DW, 3, 1, 1, 0, 0, 0),
        CL(CL_CONV, 3, 2, 0, 8, 0, 0)}},
      {G(15, 13, 3, 4, 3, 1),
       {CL(CL_CONV, 3, 2, 1, 16, 0, 0), CL(CL_DW, 3, 1, 1, 0, 0, 0),
        CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_ADD, 1, 1, 1, 0, 0, 1)}},
      {G(16, 16, 16, 3, 0, 1),
       {CL(CL_QUANT, 1, 1, 1, 0, 0, 0), CL(CL_CONV, 3, 1, 1, 4, 0, 0),
        CL(CL_DW, 3, 2, 1, 0, 0, 0)}},
      /* float32 pools: max / average, SAME / VALID, stride 1 / 2, odd
       * sizes, a fused RELU6 */
      {G(16, 16, 2, 3, 1, 1),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_MAX, 3, 1, 1, 0, 0, 0),
        CL(CL_DW, 3, 1, 1, 0, 0, 0)}},
      {G(15, 13, 2, 2, 1, 1),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_AVG, 3, 2, 1, 0, 0, 0)}},
      {G(16, 12, 3, 2, 1, 1),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_AVG, 2, 2, 0, 0, 0, 1)}},
      {G(17, 9, 2, 2, 1, 1),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_MAX, 3, 2, 0, 0, 0, 1)}},
      {G(14, 14, 2, 3, 1, 1),
       {CL(CL_CONV, 3, 1, 1, 16, 0, 0), CL(CL_AVG, 5, 1, 1, 0, 0, 0),
        CL(CL_DW, 3, 1, 1, 0, 0, 0)}},
      /* float32 element-wise: RELU, RELU6, HARD_SWISH, LOGISTIC, TANH;
       * int8 TANH; a float32 QUANTIZE inside the chain */
      {G(16, 16, 2, 3, 1, 1),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_RELU, 1, 1, 1, 0, 0, 0),
        CL(CL_DW, 3, 2, 1, 0, 0, 0)}},
      {G(12, 16, 2, 3, 1, 1),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_RELU6, 1, 1, 1, 0, 0, 0),
        CL(CL_DW, 3, 1, 0, 0, 0, 0)}},
      {G(16, 16, 2, 2, 1, 1),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_HSWISH, 1, 1, 1, 0, 0, 0)}},
      {G(16, 16, 2, 2, 1, 1),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_LOGISTIC, 1, 1, 1, 0, 0, 0)}},
      {G(16, 16, 2, 3, 1, 1),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_TANH, 1, 1, 1, 0, 0, 0),
        CL(CL_DW, 3, 1, 1, 0, 0, 0)}},
      {G(16, 16, 2, 3, 1, 0),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_TANH, 1, 1, 1, 0, 0, 0),
        CL(CL_DW, 3, 1, 1, 0, 0, 0)}},
      {G(16, 16, 2, 4, 2, 1),
       {CL(CL_CONV, 1, 1, 1, 16, 0, 0), CL(CL_DW, 3, 1, 1, 0, 0, 0),
        CL(CL_QUANT, 1, 1, 1, 0, 0, 0), CL(CL_DW, 3, 2, 1, 0, 0, 0)}},
  };
#undef G
#undef CL
  static float inf[20 * 16 * 16];
  static int8_t in[4 * 20 * 16 * 16], o_fast[4 * 4096], o_other[4 * 4096];
  size_t g, k, taller = 0;
  for (g = 0; g < sizeof cases / sizeof cases[0]; g++) {
    uint8_t *bytes;
    size_t n, fast, small, outn;
    int32_t small_plan;
    tflc_model m;
    tflc_interpreter it;
    if (!build_layers(cases[g].h, cases[g].w, cases[g].c0, cases[g].ly,
                      cases[g].n, cases[g].flt, &bytes, &n)) {
      CHECK(0);
      continue;
    }
    CHECK_EQ_INT(tflc_model_init(&m, bytes, n), TFLC_OK);
    rng_bytes(in, sizeof in);
    if (cases[g].flt) { /* (numbers, not random bits) */
      for (k = 0; k < sizeof inf / sizeof inf[0]; k++)
        inf[k] = (float)rng_int(-1000, 1000) / 500.0f;
      memcpy(in, inf, sizeof inf);
    }
    CHECK_EQ_INT(run_plan(&m, TFLC_PLAN_FASTEST, sizeof big_arena, in, o_fast,
                          sizeof o_fast, &it),
                 TFLC_OK);
    fast = tflc_arena_used(&it);
    outn = tflc_output(&it, 0)->bytes;
    /* the chain band by band, forced: the layer taken, the same bytes */
    memset(o_other, 0, sizeof o_other);
    CHECK_EQ_INT(run_plan(&m, TFLC_PLAN_PATCHES, sizeof big_arena, in, o_other,
                          sizeof o_other, &it),
                 TFLC_OK);
    CHECK(plan_ok(&it));
    CHECK_EQ_MEM(o_other, o_fast, outn);
    if (cases[g].in >= 0) {
      CHECK_EQ_INT(it.plan, TFLC_PLAN_PATCHES);
      CHECK(it.patch_rows > 0 && it.patch_first <= cases[g].in &&
            cases[g].in <= it.patch_last);
      if (!(it.patch_rows > 0 && it.patch_first <= cases[g].in &&
            cases[g].in <= it.patch_last))
        fprintf(stderr, "  case %d: chain %d-%d, %d rows\n", (int)g,
                (int)it.patch_first, (int)it.patch_last, (int)it.patch_rows);
    } else {
      int32_t i;
      for (i = 0; i < it.num_ops; i++)
        if (it.ops[i].code == TFLC_OP_ADD)
          CHECK(!it.patch_rows || i < it.patch_first || i > it.patch_last);
    }
    /* the smallest plan: the same bytes, its arena exact */
    memset(o_other, 0, sizeof o_other);
    CHECK_EQ_INT(run_plan(&m, TFLC_PLAN_SMALLEST, sizeof big_arena, in, o_other,
                          sizeof o_other, &it),
                 TFLC_OK);
    CHECK(plan_ok(&it));
    CHECK_EQ_MEM(o_other, o_fast, outn);
    small = tflc_arena_used(&it);
    small_plan = it.plan;
    CHECK(small <= fast);
    if (cases[g].in >= 0)
      CHECK(small < fast);
    memset(o_other, 0, sizeof o_other);
    CHECK_EQ_INT(
        run_plan(&m, TFLC_PLAN_AUTO, small, in, o_other, sizeof o_other, &it),
        TFLC_OK);
    CHECK_EQ_INT(it.plan, small_plan);
    CHECK_EQ_MEM(o_other, o_fast, outn);
    CHECK_EQ_INT(run_plan(&m, TFLC_PLAN_AUTO, small - 1, in, o_other,
                          sizeof o_other, &it),
                 TFLC_ERR_ARENA);
    /* arenas between: bands of more rows, the same bytes */
    for (k = 1; k < 8; k++) {
      memset(o_other, 0, sizeof o_other);
      CHECK_EQ_INT(run_plan(&m, TFLC_PLAN_AUTO, small + (fast - small) * k / 8,
                            in, o_other, sizeof o_other, &it),
                   TFLC_OK);
      CHECK_EQ_MEM(o_other, o_fast, outn);
      if (cases[g].in >= 0 && it.patch_rows > 1 &&
          it.patch_first <= cases[g].in && cases[g].in <= it.patch_last)
        taller++;
    }
    free(bytes);
  }
  CHECK(taller >= 10); /* (most cases also ran bands of several rows) */
}

int main(void) {
  rng_seed(0x12345678u);
  RUN(test_depthwise_in_place_kernel);
  RUN(test_plans_depthwise);
  RUN(test_plans_chain_ops);
  RUN(test_plan_real_models);
  RUN(test_plan_compact);
  RUN(test_compressed_equals_plain);
  RUN(test_plan_and_exact_arena);
  RUN(test_fc_constants_without_records);
  RUN(test_params_without_records);
  RUN(test_decompression_regions);
  RUN(test_errors_name_the_place);
  return harness_report();
}

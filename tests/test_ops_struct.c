/* tests/test_ops_struct.c - variables and tflc_reset, control flow (IF,
 * WHILE), structural operators and TFLM's custom operators
 * (CIRCULAR_BUFFER, TFLite_Detection_PostProcess).
 *
 * Evidence:
 *   - TFLM's outputs of real models (../shared/conformance cases, read
 *     from their files; SHARED overrides ../shared);
 *   - hand-computed values, worked out in the comments;
 *   - naive references written here from the operators' definitions. */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "../tflc_write.h"
#include "harness.h"
#include "models.h"

#include <stdlib.h>
#include <string.h>

/* ---- utilities ------------------------------------------------------------
 */
static uint8_t arena[256 * 1024] __attribute__((aligned(16)));

/* Reads SHARED/rel (SHARED from the environment, else ../shared) into a
 * malloc'd buffer; NULL when missing. */
static uint8_t *read_shared(const char *rel, size_t *size) {
  const char *shared = getenv("SHARED");
  char path[512];
  snprintf(path, sizeof path, "%s/%s", shared ? shared : "../shared", rel);
  return read_file(path, size);
}

/* ---- variables: start values and tflc_reset -------------------------------
 */
/* Every int8 variable tensor of the interpreter's current view holds its
 * zero point, every other variable tensor 0. */
static int variables_at_start(const tflc_interpreter *it, int *count) {
  int32_t k;
  uint32_t i;
  for (k = 0; k < it->num_tensors; k++) {
    const tflc_tensor *t = &it->tensors[k];
    uint8_t want = t->type == TFLC_INT8 ? (uint8_t)t->zero_point : 0;
    if (!(t->flags & TFLC_TENSOR_VARIABLE))
      continue;
    ++*count;
    for (i = 0; i < t->bytes; i++)
      if (((const uint8_t *)t->data)[i] != want)
        return 0;
  }
  return 1;
}

/* DTLN noise suppression (TFLM's examples/dtln): two LSTMs whose int8
 * output states are variables with zero point != 0. TFLM's outputs of
 * the first invoke for two inputs are the conformance cases seed1, seed2
 * (external/tflm_tests/models/dtln_noise_suppression). */
#define DTLN "conformance/external/tflm_tests/models/dtln_noise_suppression"
static void test_dtln_ten_invokes_with_reset(void) {
  size_t nm = 0, ni1 = 0, no1 = 0, ni2 = 0, no2 = 0;
  uint8_t *model = read_shared(DTLN "/seed1/model.tflite", &nm);
  uint8_t *in1 = read_shared(DTLN "/seed1/input_0.bin", &ni1);
  uint8_t *out1 = read_shared(DTLN "/seed1/output_0.bin", &no1);
  uint8_t *in2 = read_shared(DTLN "/seed2/input_0.bin", &ni2);
  uint8_t *out2 = read_shared(DTLN "/seed2/output_0.bin", &no2);
  static uint8_t seq[10][257];
  tflc_model m;
  tflc_interpreter it;
  tflc_tensor *x;
  const tflc_tensor *y;
  int i, nvar = 0, differs = 0;
  if (!model || !in1 || !out1 || !in2 || !out2) {
    printf("test_dtln_ten_invokes_with_reset: ../shared missing, skipped\n");
    goto done;
  }
  CHECK_EQ_INT(tflc_model_init(&m, model, nm), TFLC_OK);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
               TFLC_OK);
  x = tflc_input(&it, 0);
  y = tflc_output(&it, 0);
  CHECK(x && y && x->bytes == ni1 && y->bytes == no1 && no1 == 257);
  if (!x || !y || x->bytes != ni1 || y->bytes != no1 || no1 != 257)
    goto done;
  /* fresh: int8 variables at their zero point (not 0) */
  CHECK(variables_at_start(&it, &nvar));
  CHECK(nvar >= 2);
  /* ten times: reset, invoke, TFLM's first output */
  for (i = 0; i < 10; i++) {
    if (i)
      CHECK_EQ_INT(tflc_reset(&it), TFLC_OK);
    memcpy(x->data, in1, ni1);
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
    CHECK_EQ_MEM(y->data, out1, no1);
  }
  /* the state carries over: without reset, ten invokes of the same input
   * do not all give the first output */
  CHECK_EQ_INT(tflc_reset(&it), TFLC_OK);
  for (i = 0; i < 10; i++) {
    memcpy(x->data, in1, ni1);
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
    memcpy(seq[i], y->data, 257);
    differs += memcmp(seq[i], out1, 257) != 0;
  }
  CHECK(differs > 0);
  /* a reset puts the variables back, and the sequence repeats exactly */
  CHECK_EQ_INT(tflc_reset(&it), TFLC_OK);
  nvar = 0;
  CHECK(variables_at_start(&it, &nvar));
  for (i = 0; i < 10; i++) {
    memcpy(x->data, in1, ni1);
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
    CHECK_EQ_MEM(y->data, seq[i], 257);
  }
  /* the other input after a reset: TFLM's output for it */
  CHECK_EQ_INT(tflc_reset(&it), TFLC_OK);
  memcpy(x->data, in2, ni2);
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  CHECK_EQ_MEM(y->data, out2, no2);
done:
  free(model);
  free(in1);
  free(out1);
  free(in2);
  free(out2);
}

static void test_reset_needs_an_interpreter(void) {
  tflc_interpreter it;
  memset(&it, 0, sizeof it);
  CHECK_EQ_INT(tflc_reset(NULL), TFLC_ERR_STATE);
  CHECK_EQ_INT(tflc_reset(&it), TFLC_ERR_STATE);
}

/* ---- flexbuffer reader ------------------------------------------------------
 */
/* Every kind of scalar, at every slot width, read back by key. */
static void test_flex_map_values(void) {
  static const int widths[] = {1, 2, 4, 8};
  int wi;
  for (wi = 0; wi < 4; wi++) {
    int w = widths[wi];
    /* values that fit the slot width: 1-byte slots hold -100..100 */
    flex_value v[8] = {{"a_int", TFLC__FLEX_INT, 0, -100, 0},
                       {"b_uint", TFLC__FLEX_UINT, 0, 200, 0},
                       {"c_bool", TFLC__FLEX_BOOL, 0, 1, 0},
                       {"d_float", TFLC__FLEX_FLOAT, 0, 0, 2.75},
                       {"e_ind_int", TFLC__FLEX_INDIRECT_INT, 4, -123456, 0},
                       {"f_ind_float", TFLC__FLEX_INDIRECT_FLOAT, 8, 0, -0.1},
                       {"g_ind_uint", TFLC__FLEX_INDIRECT_UINT, 2, 40000, 0},
                       {"h_null", TFLC__FLEX_NULL, 0, 0, 0}};
    uint8_t b[256];
    size_t n;
    tflc__flex f;
    int64_t iv;
    double dv;
    int n_vals = w >= 4 ? 8 : 3; /* floats need 4- or 8-byte slots */
    n = flex_map(b, v, n_vals, w);
    CHECK(tflc__flex_open(&f, b, (uint32_t)n));
    CHECK_EQ_INT(f.count, n_vals);
    CHECK_EQ_INT(tflc__flex_find(&f, "a_int"), 0);
    CHECK_EQ_INT(tflc__flex_find(&f, "b_uint"), 1);
    CHECK_EQ_INT(tflc__flex_find(&f, "a_in"), -1);
    CHECK_EQ_INT(tflc__flex_find(&f, "zzz"), -1);
    CHECK(tflc__flex_number(&f, 0, &iv, &dv) && iv == -100 && dv == -100.0);
    CHECK(tflc__flex_number(&f, 1, &iv, &dv) && iv == 200);
    CHECK(tflc__flex_number(&f, 2, &iv, &dv) && iv == 1);
    /* raw slot reads (FlexbufferWrapper): sign-extended from the width */
    CHECK_EQ_INT(tflc__flex_element_int(&f, 0, 7), -100);
    CHECK_EQ_INT(tflc__flex_element_int(&f, 1, 7), w == 1 ? -56 : 200);
    CHECK_EQ_INT(tflc__flex_element_int(&f, 99, 7), 7);
    /* a missing element reads 0, as a FlexBuffers null */
    CHECK(tflc__flex_number(&f, -1, &iv, &dv) && iv == 0 && dv == 0.0);
    CHECK(tflc__flex_number(&f, 99, &iv, &dv) && iv == 0);
    if (w >= 4) {
      CHECK(tflc__flex_number(&f, 3, &iv, &dv) && dv == 2.75 && iv == 2);
      CHECK(tflc__flex_number(&f, 4, &iv, &dv) && iv == -123456);
      CHECK(tflc__flex_number(&f, 5, &iv, &dv) && dv == -0.1 && iv == 0);
      CHECK(tflc__flex_number(&f, 6, &iv, &dv) && iv == 40000);
      CHECK(tflc__flex_number(&f, 7, &iv, &dv) && iv == 0 && dv == 0.0);
      CHECK_EQ_INT(tflc__flex_find(&f, "h_null"), 7);
    }
  }
}

/* Cut or damaged buffers: open refuses or every read stays inside (ASan
 * and UBSan watch the reads; `make test SANITIZE=1`). */
static void test_flex_malformed(void) {
  flex_value v[4] = {{"cycles_max", TFLC__FLEX_INT, 0, 3, 0},
                     {"ind", TFLC__FLEX_INDIRECT_FLOAT, 8, 0, 1.5},
                     {"x", TFLC__FLEX_FLOAT, 0, 0, 0.25},
                     {"y", TFLC__FLEX_UINT, 0, 9, 0}};
  uint8_t good[256], b[256];
  size_t n = flex_map(good, v, 4, 4), k;
  uint32_t rng = 12345u;
  int opened = 0, refused = 0, trial;
  tflc__flex f;
  for (k = 0; k < n; k++) { /* every proper suffix: the root moves */
    uint8_t *cut = (uint8_t *)malloc(n - k);
    memcpy(cut, good + k, n - k);
    if (tflc__flex_open(&f, cut, (uint32_t)(n - k))) {
      int64_t iv;
      double dv;
      int32_t i;
      for (i = -1; i <= (int32_t)f.count; i++) {
        (void)tflc__flex_number(&f, i, &iv, &dv);
        (void)tflc__flex_element_int(&f, i, 0);
      }
      (void)tflc__flex_find(&f, "x");
    }
    free(cut);
  }
  for (k = 0; k < n; k++) { /* every prefix: the root is elsewhere */
    uint8_t *cut = (uint8_t *)malloc(k + 1);
    memcpy(cut, good, k);
    if (tflc__flex_open(&f, cut, (uint32_t)k))
      (void)tflc__flex_find(&f, "y");
    free(cut);
  }
  CHECK(!tflc__flex_open(&f, NULL, 10));
  CHECK(!tflc__flex_open(&f, good, 2));
  for (trial = 0; trial < 20000; trial++) {
    uint8_t *heap;
    int flips = 1 + (int)(rng % 3), j;
    memcpy(b, good, n);
    for (j = 0; j < flips; j++) {
      rng ^= rng << 13;
      rng ^= rng >> 17;
      rng ^= rng << 5;
      b[rng % n] = (uint8_t)(rng >> 8);
    }
    heap = (uint8_t *)malloc(n); /* exact size: ASan sees any overrun */
    memcpy(heap, b, n);
    if (tflc__flex_open(&f, heap, (uint32_t)n)) {
      int64_t iv;
      double dv;
      int32_t i;
      opened++;
      for (i = 0; i < (int32_t)f.count; i++) {
        (void)tflc__flex_number(&f, i, &iv, &dv);
        (void)tflc__flex_element_int(&f, i, 0);
      }
      (void)tflc__flex_find(&f, "cycles_max");
      (void)tflc__flex_find(&f, "zz");
    } else {
      refused++;
    }
    free(heap);
  }
  CHECK(opened > 0 && refused > 0);
  CHECK(tflc__flex_open(&f, good, (uint32_t)n));
}

/* Real custom options, written by the FlexBuffers library (the ops2
 * generator): the TFLite_Detection_PostProcess map of
 * ops2/DETECTION_POSTPROCESS/f32_a18_c4_max6_regular_scores (case.json
 * "options"), read through tflc_op_custom_option from a user operator. */
typedef struct seen_options {
  int calls;
  double v[12];
  int found[12];
} seen_options;
static const char *const dpp_keys[12] = {"max_detections",
                                         "max_classes_per_detection",
                                         "detections_per_class",
                                         "use_regular_nms",
                                         "nms_score_threshold",
                                         "nms_iou_threshold",
                                         "num_classes",
                                         "y_scale",
                                         "x_scale",
                                         "h_scale",
                                         "w_scale",
                                         "not_there"};
static tflc_status read_options(tflc_op_context *op, void *user) {
  seen_options *s = (seen_options *)user;
  int k;
  s->calls++;
  for (k = 0; k < 12; k++)
    s->found[k] = tflc_op_custom_option(op, dpp_keys[k], &s->v[k]);
  return TFLC_OK;
}
static tflc_status do_nothing(tflc_op_context *op, void *user) {
  (void)op;
  (void)user;
  return TFLC_OK;
}
static void test_flex_real_options(void) {
  static const double want[11] = {6, 1, 3, 1, 0.0, 0.5, 4, 10, 10, 5, 5};
  size_t nm = 0;
  uint8_t *model = read_shared("conformance/ops2/DETECTION_POSTPROCESS/"
                               "f32_a18_c4_max6_regular_scores/model.tflite",
                               &nm);
  seen_options seen;
  tflc_user_op u;
  tflc_options opt;
  tflc_model m;
  tflc_interpreter it;
  int k;
  if (!model) {
    printf("test_flex_real_options: ../shared missing, skipped\n");
    return;
  }
  memset(&seen, 0, sizeof seen);
  memset(&opt, 0, sizeof opt);
  u.code = TFLC_OP_CUSTOM;
  u.custom_name = "TFLite_Detection_PostProcess";
  u.prepare = read_options;
  u.invoke = do_nothing;
  u.user = &seen;
  opt.user_ops = &u;
  opt.num_user_ops = 1;
  CHECK_EQ_INT(tflc_model_init(&m, model, nm), TFLC_OK);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
               TFLC_OK);
  CHECK_EQ_INT(seen.calls, 1);
  for (k = 0; k < 11; k++) {
    CHECK(seen.found[k]);
    CHECK(seen.v[k] == want[k]);
  }
  CHECK(!seen.found[11] && seen.v[11] == 0.0);
  free(model);
}

/* ---- CIRCULAR_BUFFER
 * ---------------------------------------------------------
 */
static void test_circular_buffer_kernel(void) {
  /* 3 slots of 2 bytes: [a b][c d][e f] + [x y] -> [c d][e f][x y] */
  uint8_t out[6] = {1, 2, 3, 4, 5, 6};
  const uint8_t in[2] = {7, 8}, want[6] = {3, 4, 5, 6, 7, 8};
  const uint8_t one_in[2] = {9, 9}, want_one[2] = {9, 9};
  uint8_t one[2] = {0, 0};
  tflc_circular_buffer_push(3, 2, in, out);
  CHECK_EQ_MEM(out, want, 6);
  tflc_circular_buffer_push(1, 2, one_in, one); /* one slot: replaced */
  CHECK_EQ_MEM(one, want_one, 2);
}
/* ops2/CIRCULAR_BUFFER/i8_d4_slots2 (2 slots of 4, zero point -5, cycles_max
 * 1): fresh, one invoke gives [zp x4][input]; the slots then shift on
 * every invoke; tflc_reset brings the zero points back. */
static void test_circular_buffer_invokes(void) {
  size_t nm = 0, ni = 0, no = 0;
  uint8_t *model = read_shared(
      "conformance/ops2/CIRCULAR_BUFFER/i8_d4_slots2/model.tflite", &nm);
  uint8_t *in = read_shared(
      "conformance/ops2/CIRCULAR_BUFFER/i8_d4_slots2/input_0.bin", &ni);
  uint8_t *out = read_shared(
      "conformance/ops2/CIRCULAR_BUFFER/i8_d4_slots2/output_0.bin", &no);
  const int8_t a[4] = {1, 2, 3, 4}, b[4] = {-1, -2, -3, -4};
  int8_t want[8];
  tflc_model m;
  tflc_interpreter it;
  tflc_tensor *x;
  const tflc_tensor *y;
  if (!model || !in || !out) {
    printf("test_circular_buffer_invokes: ../shared missing, skipped\n");
    goto done;
  }
  CHECK_EQ_INT(tflc_model_init(&m, model, nm), TFLC_OK);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
               TFLC_OK);
  x = tflc_input(&it, 0);
  y = tflc_output(&it, 0);
  CHECK(x && y && x->bytes == 4 && y->bytes == 8 && no == 8);
  if (!x || !y || x->bytes != 4 || y->bytes != 8 || no != 8)
    goto done;
  memcpy(x->data, in, 4); /* TFLM's output: zero points, then the input */
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  CHECK_EQ_MEM(y->data, out, 8);
  memset(want, -5, 4);
  memcpy(want + 4, in, 4);
  CHECK_EQ_MEM(y->data, want, 8);
  memcpy(x->data, a, 4);
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  memcpy(x->data, b, 4);
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  memcpy(want, a, 4);
  memcpy(want + 4, b, 4);
  CHECK_EQ_MEM(y->data, want, 8);
  CHECK_EQ_INT(tflc_reset(&it), TFLC_OK);
  memcpy(x->data, in, 4);
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  CHECK_EQ_MEM(y->data, out, 8);
done:
  free(model);
  free(in);
  free(out);
}

/* ---- IF / WHILE
 * ---------------------------------------------------------------
 */
/* Models built with the writer (float32 ADD and LESS inside the
 * subgraphs), run through the interpreter. */
enum { OPT_ADD = 11, OPT_LESS = 41, OPT_IF = 92, OPT_WHILE = 93 };
static int32_t f32_tensor(tflc_writer *w, int32_t sg, int32_t n,
                          const float *data) {
  int32_t d[1];
  d[0] = n;
  return tflc_writer_tensor(w, sg, TFLC_FLOAT32, 1, d, data,
                            data ? sizeof(float) * (size_t)n : 0, NULL, NULL);
}
static int32_t bool_tensor(tflc_writer *w, int32_t sg) {
  int32_t d[1] = {1};
  return tflc_writer_tensor(w, sg, TFLC_BOOL, 1, d, NULL, 0, NULL, NULL);
}
static void add_op(tflc_writer *w, int32_t sg, int32_t a, int32_t b,
                   int32_t y) {
  int32_t in[2];
  in[0] = a;
  in[1] = b;
  tflc_writer_op(w, sg, TFLC_OP_ADD, NULL, 2, in, 1, &y, OPT_ADD, 0, NULL);
}
static void two_subgraphs_op(tflc_writer *w, int32_t sg, int32_t code,
                             int32_t g0, int32_t g1, int32_t nin,
                             const int32_t *in, int32_t nout,
                             const int32_t *out) {
  tflc_w_option o[2];
  o[0] = opt_i32(0, g0);
  o[1] = opt_i32(1, g1);
  tflc_writer_op(w, sg, code, NULL, nin, in, nout, out,
                 (uint8_t)(code == TFLC_OP_IF ? OPT_IF : OPT_WHILE), 2, o);
}
/* Subgraphs cond (c < limit) and body (c + 1, x + x) of a loop over
 * (c [1], x [n]); returns the index of cond (body is the next one). */
static int32_t loop_subgraphs(tflc_writer *w, int32_t n, float limit) {
  static const float one = 1.0f;
  int32_t cond = tflc_writer_subgraph(w), body = tflc_writer_subgraph(w);
  int32_t io[2], c, x, l, b, c1, x1, in[2], o1, out[2];
  c = f32_tensor(w, cond, 1, NULL);
  x = f32_tensor(w, cond, n, NULL);
  l = f32_tensor(w, cond, 1, &limit);
  b = bool_tensor(w, cond);
  in[0] = c;
  in[1] = l;
  tflc_writer_op(w, cond, TFLC_OP_LESS, NULL, 2, in, 1, &b, OPT_LESS, 0, NULL);
  io[0] = c;
  io[1] = x;
  tflc_writer_inputs(w, cond, 2, io);
  tflc_writer_outputs(w, cond, 1, &b);
  c = f32_tensor(w, body, 1, NULL);
  x = f32_tensor(w, body, n, NULL);
  o1 = f32_tensor(w, body, 1, &one);
  c1 = f32_tensor(w, body, 1, NULL);
  x1 = f32_tensor(w, body, n, NULL);
  add_op(w, body, c, o1, c1);
  add_op(w, body, x, x, x1);
  io[0] = c;
  io[1] = x;
  tflc_writer_inputs(w, body, 2, io);
  out[0] = c1;
  out[1] = x1;
  tflc_writer_outputs(w, body, 2, out);
  return cond;
}
static uint8_t *finish(tflc_writer *w, size_t *size) {
  uint8_t *bytes = finish_model(w, size);
  tflc_writer_destroy(w);
  return bytes;
}

/* WHILE (c < limit) { c += 1; x += x }, then z = x' + x (x read after the
 * loop: it must survive the loop's subgraphs). */
static uint8_t *while_model(int32_t n, float limit, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t c = f32_tensor(w, 0, 1, NULL), x = f32_tensor(w, 0, n, NULL);
  int32_t c2 = f32_tensor(w, 0, 1, NULL), x2 = f32_tensor(w, 0, n, NULL);
  int32_t z = f32_tensor(w, 0, n, NULL), in[2], out[2], cond;
  cond = loop_subgraphs(w, n, limit);
  in[0] = c;
  in[1] = x;
  out[0] = c2;
  out[1] = x2;
  two_subgraphs_op(w, 0, TFLC_OP_WHILE, cond, cond + 1, 2, in, 2, out);
  add_op(w, 0, x2, x, z);
  tflc_writer_inputs(w, 0, 2, in);
  out[1] = z;
  tflc_writer_outputs(w, 0, 2, out);
  return finish(w, size);
}
static void test_while_loops(void) {
  static const float starts[4] = {0.0f, 2.0f, 5.0f, 9.0f};
  size_t size = 0;
  int32_t n = 64, k, s;
  uint8_t *bytes = while_model(n, 5.0f, &size);
  tflc_model m;
  tflc_interpreter it;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
               TFLC_OK);
  for (s = 0; s < 4; s++) {
    float *x = (float *)tflc_input(&it, 1)->data;
    const float *c2 = (const float *)tflc_output(&it, 0)->data;
    const float *z = (const float *)tflc_output(&it, 1)->data;
    /* iterations: max(0, 5 - start); x doubles each time, z = x' + x */
    int32_t iters = starts[s] < 5.0f ? 5 - (int32_t)starts[s] : 0, bad = 0;
    *(float *)tflc_input(&it, 0)->data = starts[s];
    for (k = 0; k < n; k++)
      x[k] = (float)(k - 20) * 0.25f;
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
    CHECK(c2[0] == (starts[s] < 5.0f ? 5.0f : starts[s]));
    for (k = 0; k < n; k++)
      bad += z[k] != (float)(k - 20) * 0.25f * (float)((1 << iters) + 1);
    CHECK_EQ_INT(bad, 0);
  }
  free(bytes);
}

/* IF (cond) { y = (x + x) + (x + x) } else { y = (x + c) + (x + c) },
 * then z = y + x; optionally the then branch loops instead:
 * WHILE (k < 3) { x += x } (x * 8). */
static uint8_t *if_model(int32_t n, int nested, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t cond = bool_tensor(w, 0), x = f32_tensor(w, 0, n, NULL);
  int32_t y = f32_tensor(w, 0, n, NULL), z = f32_tensor(w, 0, n, NULL);
  int32_t then_g = tflc_writer_subgraph(w), else_g = tflc_writer_subgraph(w);
  int32_t in[2], out[2], bx, ba, by, cst;
  float *cv = (float *)malloc(sizeof(float) * (size_t)n);
  int32_t k;
  for (k = 0; k < n; k++)
    cv[k] = (float)k;
  in[0] = cond;
  in[1] = x;
  two_subgraphs_op(w, 0, TFLC_OP_IF, then_g, else_g, 2, in, 1, &y);
  add_op(w, 0, y, x, z);
  tflc_writer_inputs(w, 0, 2, in);
  tflc_writer_outputs(w, 0, 1, &z);
  /* then */
  bx = f32_tensor(w, then_g, n, NULL);
  by = f32_tensor(w, then_g, n, NULL);
  if (nested) {
    static const float zero = 0.0f;
    int32_t k0 = f32_tensor(w, then_g, 1, &zero);
    int32_t kk = f32_tensor(w, then_g, 1, NULL), lc;
    lc = loop_subgraphs(w, n, 3.0f);
    in[0] = k0;
    in[1] = bx;
    out[0] = kk;
    out[1] = by;
    two_subgraphs_op(w, then_g, TFLC_OP_WHILE, lc, lc + 1, 2, in, 2, out);
  } else {
    ba = f32_tensor(w, then_g, n, NULL);
    add_op(w, then_g, bx, bx, ba);
    add_op(w, then_g, ba, ba, by);
  }
  tflc_writer_inputs(w, then_g, 1, &bx);
  tflc_writer_outputs(w, then_g, 1, &by);
  /* else */
  bx = f32_tensor(w, else_g, n, NULL);
  cst = f32_tensor(w, else_g, n, cv);
  ba = f32_tensor(w, else_g, n, NULL);
  by = f32_tensor(w, else_g, n, NULL);
  add_op(w, else_g, bx, cst, ba);
  add_op(w, else_g, ba, ba, by);
  tflc_writer_inputs(w, else_g, 1, &bx);
  tflc_writer_outputs(w, else_g, 1, &by);
  free(cv);
  return finish(w, size);
}
static void test_if_branches(void) {
  int nested, cond;
  for (nested = 0; nested < 2; nested++) {
    size_t size = 0;
    int32_t n = 256, k;
    uint8_t *bytes = if_model(n, nested, &size);
    tflc_model m;
    tflc_interpreter it;
    CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
    CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
                 TFLC_OK);
    for (cond = 0; cond < 2; cond++) {
      float *x = (float *)tflc_input(&it, 1)->data;
      const float *z = (const float *)tflc_output(&it, 0)->data;
      int32_t bad = 0;
      *(uint8_t *)tflc_input(&it, 0)->data = (uint8_t)cond;
      for (k = 0; k < n; k++)
        x[k] = (float)k * 0.5f - 3.0f;
      CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
      for (k = 0; k < n; k++) {
        float xv = (float)k * 0.5f - 3.0f;
        float y = cond ? 4.0f * xv /* (x + x) + (x + x), or x * 8 */
                       : 2.0f * (xv + (float)k);
        if (cond && nested)
          y = 8.0f * xv;
        bad += z[k] != y + xv;
      }
      CHECK_EQ_INT(bad, 0);
    }
    if (!nested) {
      /* the branches never run together: their intermediates share bytes
       * (then's x + x and else's x + c, 1 KiB each) */
      const tflc_tensor *a = &it.graphs[1].tensors[2];
      const tflc_tensor *b = &it.graphs[2].tensors[2];
      CHECK(a->bytes == 1024 && b->bytes == 1024);
      CHECK((const uint8_t *)a->data < (const uint8_t *)b->data + b->bytes &&
            (const uint8_t *)b->data < (const uint8_t *)a->data + a->bytes);
      /* x, y, z and cond in subgraph 0; at the branch: its input, one
       * intermediate, its output: 6 buffers of 1 KiB at most live */
      CHECK(it.head <= 6 * 1024 + 64);
    }
    free(bytes);
  }
}

/* Subgraphs that call themselves, or nest deeper than 8 levels, are
 * refused by tflc_model_init; 8 levels run. */
static uint8_t *chain_model(int32_t levels, int cycle, size_t *size) {
  static const uint8_t yes = 1;
  tflc_writer *w = tflc_writer_create();
  int32_t g;
  for (g = 0; g <= levels; g++) {
    int32_t sg = g ? tflc_writer_subgraph(w) : 0, d[1] = {1};
    /* subgraph 0 takes the condition as input; the levels a constant */
    int32_t cond = tflc_writer_tensor(w, sg, TFLC_BOOL, 1, d, g ? &yes : NULL,
                                      g ? 1 : 0, NULL, NULL);
    int32_t x = f32_tensor(w, sg, 4, NULL);
    int32_t y = f32_tensor(w, sg, 4, NULL), in[2];
    in[0] = cond;
    in[1] = x;
    if (g < levels) /* IF (cond) next level else next level */
      two_subgraphs_op(w, sg, TFLC_OP_IF, g + 1, g + 1, 2, in, 1, &y);
    else if (cycle) /* the last level runs the first one again */
      two_subgraphs_op(w, sg, TFLC_OP_IF, 1, 1, 2, in, 1, &y);
    else
      add_op(w, sg, x, x, y);
    tflc_writer_inputs(w, sg, g ? 1 : 2, g ? &x : in);
    tflc_writer_outputs(w, sg, 1, &y);
  }
  return finish(w, size);
}
static void test_nesting_bounded(void) {
  size_t size = 0;
  uint8_t *bytes;
  tflc_model m;
  tflc_interpreter it;
  int32_t k;
  bytes = chain_model(8, 0, &size); /* 8 levels below subgraph 0: runs */
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
               TFLC_OK);
  *(uint8_t *)tflc_input(&it, 0)->data = 1;
  for (k = 0; k < 4; k++)
    ((float *)tflc_input(&it, 1)->data)[k] = (float)k;
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  CHECK(((const float *)tflc_output(&it, 0)->data)[3] == 6.0f);
  free(bytes);
  bytes = chain_model(9, 0, &size); /* 9 levels: refused */
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_ERR_UNSUPPORTED);
  CHECK(strstr(m.error, "nest deeper than 8") != NULL);
  free(bytes);
  bytes = chain_model(3, 1, &size); /* 1 -> 2 -> 3 -> 1: refused */
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_ERR_UNSUPPORTED);
  CHECK(strstr(m.error, "call themselves") != NULL);
  free(bytes);
}

/* IF and WHILE read their inputs once and the planner lets the subgraphs
 * reuse those bytes: with several inputs of the same size nothing read
 * later may be clobbered. IF (cond) { a + b } else { b + b };
 * WHILE (c < 4) { c += 1; u = u + v; v = v + v } on (u, v) = (b, a), two
 * model inputs used nowhere else (this plan puts cond's inputs on them,
 * crossed: copied one by one into cond they would overwrite each other;
 * WHILE copies them to its outputs first). */
static uint8_t *reuse_model(int32_t n, size_t *size) {
  static const float one = 1.0f, four = 4.0f;
  tflc_writer *w = tflc_writer_create();
  int32_t cond = bool_tensor(w, 0), a = f32_tensor(w, 0, n, NULL);
  int32_t b = f32_tensor(w, 0, n, NULL), y = f32_tensor(w, 0, n, NULL);
  int32_t c0 = f32_tensor(w, 0, 1, NULL), c1 = f32_tensor(w, 0, 1, NULL);
  int32_t a1 = f32_tensor(w, 0, n, NULL), b1 = f32_tensor(w, 0, n, NULL);
  int32_t then_g = tflc_writer_subgraph(w), else_g = tflc_writer_subgraph(w);
  int32_t cg = tflc_writer_subgraph(w), bg = tflc_writer_subgraph(w);
  int32_t in[4], out[3], ga, gb, gy, gc, gl, gt;
  in[0] = cond;
  in[1] = a;
  in[2] = b;
  two_subgraphs_op(w, 0, TFLC_OP_IF, then_g, else_g, 3, in, 1, &y);
  in[0] = c0; /* (b, a): the loop's inputs in another order than IF's */
  in[1] = b;
  in[2] = a;
  out[0] = c1;
  out[1] = a1;
  out[2] = b1;
  two_subgraphs_op(w, 0, TFLC_OP_WHILE, cg, bg, 3, in, 3, out);
  in[0] = cond;
  in[1] = a;
  in[2] = b;
  in[3] = c0;
  tflc_writer_inputs(w, 0, 4, in);
  out[0] = y;
  tflc_writer_outputs(w, 0, 3, out);
  /* then: a + b; else: b + b */
  ga = f32_tensor(w, then_g, n, NULL);
  gb = f32_tensor(w, then_g, n, NULL);
  gy = f32_tensor(w, then_g, n, NULL);
  add_op(w, then_g, ga, gb, gy);
  in[0] = ga;
  in[1] = gb;
  tflc_writer_inputs(w, then_g, 2, in);
  tflc_writer_outputs(w, then_g, 1, &gy);
  ga = f32_tensor(w, else_g, n, NULL);
  gb = f32_tensor(w, else_g, n, NULL);
  gy = f32_tensor(w, else_g, n, NULL);
  add_op(w, else_g, gb, gb, gy);
  in[0] = ga;
  in[1] = gb;
  tflc_writer_inputs(w, else_g, 2, in);
  tflc_writer_outputs(w, else_g, 1, &gy);
  /* cond: c < 4 */
  gc = f32_tensor(w, cg, 1, NULL);
  ga = f32_tensor(w, cg, n, NULL);
  gb = f32_tensor(w, cg, n, NULL);
  gl = f32_tensor(w, cg, 1, &four);
  gt = bool_tensor(w, cg);
  in[0] = gc;
  in[1] = gl;
  tflc_writer_op(w, cg, TFLC_OP_LESS, NULL, 2, in, 1, &gt, OPT_LESS, 0, NULL);
  in[0] = gc;
  in[1] = ga;
  in[2] = gb;
  tflc_writer_inputs(w, cg, 3, in);
  tflc_writer_outputs(w, cg, 1, &gt);
  /* body: c + 1, a + b, b + b */
  gc = f32_tensor(w, bg, 1, NULL);
  ga = f32_tensor(w, bg, n, NULL);
  gb = f32_tensor(w, bg, n, NULL);
  gl = f32_tensor(w, bg, 1, &one);
  out[0] = f32_tensor(w, bg, 1, NULL);
  out[1] = f32_tensor(w, bg, n, NULL);
  out[2] = f32_tensor(w, bg, n, NULL);
  add_op(w, bg, gc, gl, out[0]);
  add_op(w, bg, ga, gb, out[1]);
  add_op(w, bg, gb, gb, out[2]);
  in[0] = gc;
  in[1] = ga;
  in[2] = gb;
  tflc_writer_inputs(w, bg, 3, in);
  tflc_writer_outputs(w, bg, 3, out);
  return finish(w, size);
}
static void test_flow_inputs_reused(void) {
  size_t size = 0;
  int32_t n = 32, k, cond;
  uint8_t *bytes = reuse_model(n, &size);
  tflc_model m;
  tflc_interpreter it;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
               TFLC_OK);
  for (cond = 0; cond < 2; cond++) {
    float *a = (float *)tflc_input(&it, 1)->data;
    float *b = (float *)tflc_input(&it, 2)->data;
    const float *y = (const float *)tflc_output(&it, 0)->data;
    const float *a1 = (const float *)tflc_output(&it, 1)->data;
    const float *b1 = (const float *)tflc_output(&it, 2)->data;
    int32_t bad = 0;
    *(uint8_t *)tflc_input(&it, 0)->data = (uint8_t)cond;
    *(float *)tflc_input(&it, 3)->data = 1.0f; /* 3 iterations */
    for (k = 0; k < n; k++) {
      a[k] = (float)k;
      b[k] = (float)(100 + k);
    }
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
    for (k = 0; k < n; k++) {
      float av = (float)k, bv = (float)(100 + k), u = bv, v = av;
      int i;
      bad += y[k] != (cond ? av + bv : bv + bv);
      for (i = 0; i < 3; i++) {
        u = u + v;
        v = v + v;
      }
      bad += a1[k] != u || b1[k] != v;
    }
    CHECK_EQ_INT(bad, 0);
  }
  free(bytes);
}

int main(void) {
  RUN(test_reset_needs_an_interpreter);
  RUN(test_flex_map_values);
  RUN(test_flex_malformed);
  RUN(test_flex_real_options);
  RUN(test_circular_buffer_kernel);
  RUN(test_circular_buffer_invokes);
  RUN(test_while_loops);
  RUN(test_if_branches);
  RUN(test_nesting_bounded);
  RUN(test_flow_inputs_reused);
  RUN(test_dtln_ten_invokes_with_reset);
  return harness_report();
}

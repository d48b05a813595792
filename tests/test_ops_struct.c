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

/* ops2/RESOURCE_VARIABLE/i16_1x8_read_assign_read: CALL_ONCE assigns a
 * constant to a resource variable, then each invoke reads it (output 0),
 * assigns the input and reads again (output 1). TFLM's first output_0 is
 * the constant. The value carries to the next invoke; tflc_reset brings
 * back the fresh state, CALL_ONCE included (TFLM's Reset leaves CALL_ONCE
 * done and zeroes the variable: its next read would give zeros). */
#define RV "conformance/ops2/RESOURCE_VARIABLE/i16_1x8_read_assign_read"
static void test_reset_reruns_call_once(void) {
  size_t nm = 0, ni = 0, no = 0;
  uint8_t *model = read_shared(RV "/model.tflite", &nm);
  uint8_t *in = read_shared(RV "/input_0.bin", &ni);
  uint8_t *out0 = read_shared(RV "/output_0.bin", &no);
  static const int16_t b[8] = {1, -2, 3, -4, 5, -6, 7, -8};
  tflc_model m;
  tflc_interpreter it;
  if (!model || !in || !out0 || ni != 16 || no != 16) {
    printf("test_reset_reruns_call_once: ../shared missing, skipped\n");
    goto done;
  }
  CHECK_EQ_INT(tflc_model_init(&m, model, nm), TFLC_OK);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
               TFLC_OK);
  memcpy(tflc_input(&it, 0)->data, in, 16);
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  CHECK_EQ_MEM(tflc_output(&it, 0)->data, out0, 16);
  CHECK_EQ_MEM(tflc_output(&it, 1)->data, in, 16);
  memcpy(tflc_input(&it, 0)->data, b, 16);
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  CHECK_EQ_MEM(tflc_output(&it, 0)->data, in, 16); /* carried over */
  CHECK_EQ_MEM(tflc_output(&it, 1)->data, b, 16);
  CHECK_EQ_INT(tflc_reset(&it), TFLC_OK);
  memcpy(tflc_input(&it, 0)->data, in, 16);
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  CHECK_EQ_MEM(tflc_output(&it, 0)->data, out0, 16);
done:
  free(model);
  free(in);
  free(out0);
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
    flex_value v[8] = {{"a_int", FLEX_INT, 0, -100, 0},
                       {"b_uint", FLEX_UINT, 0, 200, 0},
                       {"c_bool", FLEX_BOOL, 0, 1, 0},
                       {"d_float", FLEX_FLOAT, 0, 0, 2.75},
                       {"e_ind_int", FLEX_INDIRECT_INT, 4, -123456, 0},
                       {"f_ind_float", FLEX_INDIRECT_FLOAT, 8, 0, -0.1},
                       {"g_ind_uint", FLEX_INDIRECT_UINT, 2, 40000, 0},
                       {"h_null", FLEX_NULL, 0, 0, 0}};
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
  flex_value v[4] = {{"cycles_max", FLEX_INT, 0, 3, 0},
                     {"ind", FLEX_INDIRECT_FLOAT, 8, 0, 1.5},
                     {"x", FLEX_FLOAT, 0, 0, 0.25},
                     {"y", FLEX_UINT, 0, 9, 0}};
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

/* ---- REVERSE_V2, MIRROR_PAD, FILL, BROADCAST_TO, BROADCAST_ARGS
 * ---------------
 */
/* Row-major coordinates of flat index i over dims (rank <= 6). */
static void coords_of(size_t i, int32_t rank, const int32_t *dims, int32_t *c) {
  int32_t k;
  for (k = rank - 1; k >= 0; k--) {
    c[k] = (int32_t)(i % (size_t)dims[k]);
    i /= (size_t)dims[k];
  }
}
static size_t flat_of(int32_t rank, const int32_t *dims, const int32_t *c) {
  size_t f = 0;
  int32_t k;
  for (k = 0; k < rank; k++)
    f = f * (size_t)dims[k] + (size_t)c[k];
  return f;
}
static size_t count_of(int32_t rank, const int32_t *dims) {
  size_t n = 1;
  int32_t k;
  for (k = 0; k < rank; k++)
    n *= (size_t)dims[k];
  return n;
}

/* Reversing axes lo..hi = reversing each coordinate in that range, on
 * random shapes and element sizes 1, 2, 4, 8. */
static void test_reverse_kernel(void) {
  static uint8_t in[8192], out[8192], ref[8192];
  int trial;
  rng_seed(101u);
  for (trial = 0; trial < 300; trial++) {
    int32_t rank = rng_int(1, 5), dims[6], c[6], lo, hi, k;
    size_t es = (size_t)1 << rng_int(0, 3), n, i;
    int32_t outer = 1, middle = 1, inner = 1;
    for (k = 0; k < rank; k++)
      dims[k] = rng_int(1, 4);
    lo = rng_int(0, rank - 1);
    hi = rng_int(lo, rank - 1);
    n = count_of(rank, dims);
    rng_bytes(in, n * es);
    for (k = 0; k < rank; k++) {
      if (k < lo)
        outer *= dims[k];
      else if (k <= hi)
        middle *= dims[k];
      else
        inner *= dims[k];
    }
    for (i = 0; i < n; i++) {
      coords_of(i, rank, dims, c);
      for (k = lo; k <= hi; k++)
        c[k] = dims[k] - 1 - c[k];
      memcpy(ref + i * es, in + flat_of(rank, dims, c) * es, es);
    }
    tflc_reverse(es, outer, middle, inner, in, out);
    CHECK_EQ_MEM(out, ref, n * es);
  }
}

/* MIRROR_PAD: [1 2 3] with 2 + 2: REFLECT 3 2 1 2 3 2 1, SYMMETRIC
 * 2 1 1 2 3 3 2; TFLM's clamp when the output runs past the mirror:
 * REFLECT [1 2 3] to 8 gives 1 2 3 2 1 1 1 1. Then random 2-D / 3-D
 * cases against the padded sequences written out per axis. */
static void test_mirror_pad_kernel(void) {
  static const int8_t x[3] = {1, 2, 3};
  static const int8_t reflect[7] = {3, 2, 1, 2, 3, 2, 1};
  static const int8_t symmetric[7] = {2, 1, 1, 2, 3, 3, 2};
  static const int8_t clamped[8] = {1, 2, 3, 2, 1, 1, 1, 1};
  int8_t y[8];
  int32_t in_d[1] = {3}, out_d[1] = {7}, before[1] = {2}, zero[1] = {0};
  int trial;
  tflc_mirror_pad(1, 1, in_d, out_d, before, 1, x, y);
  CHECK_EQ_MEM(y, reflect, 7);
  tflc_mirror_pad(1, 1, in_d, out_d, before, 0, x, y);
  CHECK_EQ_MEM(y, symmetric, 7);
  out_d[0] = 8;
  tflc_mirror_pad(1, 1, in_d, out_d, zero, 1, x, y);
  CHECK_EQ_MEM(y, clamped, 8);
  rng_seed(202u);
  for (trial = 0; trial < 200; trial++) {
    static float in[512], out[4096], ref[4096];
    int32_t rank = rng_int(1, 3), dims[3], od[3], b[3], a[3], k, c[3];
    int32_t offset = rng_int(0, 1);
    int32_t src[3][32];
    size_t n, i;
    for (k = 0; k < rank; k++) {
      int32_t p, j = 0;
      dims[k] = rng_int(offset + 1, 6);
      b[k] = rng_int(0, dims[k] - offset);
      a[k] = rng_int(0, dims[k] - offset);
      od[k] = b[k] + dims[k] + a[k];
      /* the padded sequence of input coordinates along axis k */
      for (p = b[k]; p >= 1; p--)
        src[k][j++] = p - 1 + offset;
      for (p = 0; p < dims[k]; p++)
        src[k][j++] = p;
      for (p = 0; p < a[k]; p++)
        src[k][j++] = dims[k] - 1 - offset - p;
    }
    n = count_of(rank, dims);
    for (i = 0; i < n; i++)
      in[i] = (float)rng_int(-1000, 1000);
    n = count_of(rank, od);
    for (i = 0; i < n; i++) {
      coords_of(i, rank, od, c);
      for (k = 0; k < rank; k++)
        c[k] = src[k][c[k]];
      ref[i] = in[flat_of(rank, dims, c)];
    }
    tflc_mirror_pad(4, rank, dims, od, b, offset, in, out);
    CHECK_EQ_MEM(out, ref, n * 4);
  }
}

static void test_fill_broadcast_kernels(void) {
  static const int16_t v = -1234;
  int16_t y[5];
  static const int16_t want[5] = {-1234, -1234, -1234, -1234, -1234};
  int32_t s1[2] = {2, 1}, s2[3] = {3, 1, 4}, o3[3], bad[1] = {5};
  int64_t w1[2] = {2, 1}, w2[3] = {3, 1, 4}, wo[3];
  int32_t want3[3] = {3, 2, 4};
  int64_t wwant[3] = {3, 2, 4};
  int trial;
  tflc_fill(2, 5, &v, y);
  CHECK_EQ_MEM(y, want, sizeof y);
  /* BROADCAST_ARGS: [2, 1] and [3, 1, 4] -> [3, 2, 4]; [3, 1, 4] and [5]
   * do not broadcast */
  CHECK_EQ_INT(tflc_broadcast_args(0, 2, s1, 3, s2, 3, o3), 0);
  CHECK_EQ_MEM(o3, want3, sizeof o3);
  CHECK_EQ_INT(tflc_broadcast_args(1, 2, w1, 3, w2, 3, wo), 0);
  CHECK_EQ_MEM(wo, wwant, sizeof wo);
  CHECK_EQ_INT(tflc_broadcast_args(0, 3, s2, 1, bad, 3, o3), -1);
  /* BROADCAST_TO against coordinates with the broadcast ones at 0 */
  rng_seed(303u);
  for (trial = 0; trial < 200; trial++) {
    static uint8_t in[8192], out[8192], ref[8192];
    int32_t rank = rng_int(1, 5), od[5], id[5], c[6], k;
    size_t es = (size_t)1 << rng_int(0, 3), n, i;
    for (k = 0; k < rank; k++) {
      od[k] = rng_int(1, 4);
      id[k] = rng_below(2) ? 1 : od[k];
    }
    rng_bytes(in, count_of(rank, id) * es);
    n = count_of(rank, od);
    for (i = 0; i < n; i++) {
      coords_of(i, rank, od, c);
      for (k = 0; k < rank; k++)
        if (id[k] == 1)
          c[k] = 0;
      memcpy(ref + i * es, in + flat_of(rank, id, c) * es, es);
    }
    tflc_broadcast_to(es, rank, id, od, in, out);
    CHECK_EQ_MEM(out, ref, n * es);
  }
}

/* ---- GATHER_ND, EMBEDDING_LOOKUP, DYNAMIC_UPDATE_SLICE
 * -----------------------
 */
static void test_gather_nd_kernel(void) {
  /* params [3, 4] = 0..11 */
  float p[12], y[8];
  static const int32_t rows[2] = {2, 0}, pts[4] = {1, 2, 2, 3};
  static const int32_t flat[2] = {0, 7}, past[2] = {2, 4}, neg[2] = {-1, 0};
  static const float want_rows[8] = {8, 9, 10, 11, 0, 1, 2, 3};
  static const float want_pts[2] = {6, 11};
  int32_t dims[2] = {3, 4}, k;
  for (k = 0; k < 12; k++)
    p[k] = (float)k;
  /* nd 1: whole rows; nd 2: single elements */
  CHECK_EQ_INT(tflc_gather_nd(4, 2, dims, 2, 1, rows, p, y), 0);
  CHECK_EQ_MEM(y, want_rows, sizeof want_rows);
  CHECK_EQ_INT(tflc_gather_nd(4, 2, dims, 2, 2, pts, p, y), 0);
  CHECK_EQ_MEM(y, want_pts, sizeof want_pts);
  /* TFLM checks the flat position only: [0, 7] reads element 7 (row 1);
   * [2, 4] ends past the params, [-1, 0] starts before them */
  CHECK_EQ_INT(tflc_gather_nd(4, 2, dims, 1, 2, flat, p, y), 0);
  CHECK(y[0] == 7.0f);
  CHECK_EQ_INT(tflc_gather_nd(4, 2, dims, 1, 2, past, p, y), -1);
  CHECK_EQ_INT(tflc_gather_nd(4, 2, dims, 1, 2, neg, p, y), -1);
}
static void test_embedding_lookup_kernel(void) {
  static const int8_t table[6] = {1, -2, 3, -4, 5, -6}; /* 3 rows of 2 */
  static const int32_t ids[3] = {2, 0, 2}, bad[2] = {1, 3};
  static const int8_t want[6] = {5, -6, 1, -2, 5, -6};
  static const float wantf[4] = {2.5f, -3.0f, 0.5f, -1.0f};
  int8_t y[6];
  float f[4];
  CHECK_EQ_INT(tflc_embedding_lookup(2, 3, 3, ids, table, y), 0);
  CHECK_EQ_MEM(y, want, 6);
  /* int8 -> float32: q * scale */
  CHECK_EQ_INT(tflc_embedding_lookup_s8_f32(2, 3, 2, ids, 0.5f, table, f), 0);
  CHECK_EQ_MEM(f, wantf, sizeof wantf);
  CHECK_EQ_INT(tflc_embedding_lookup(2, 3, 2, bad, table, y), -1);
  CHECK_EQ_INT(tflc_embedding_lookup_s8_f32(2, 3, 2, bad, 0.5f, table, f), -1);
}
static void test_dynamic_update_slice_kernel(void) {
  int trial;
  rng_seed(404u);
  for (trial = 0; trial < 300; trial++) {
    static int16_t x[2048], u[2048], out[2048], ref[2048];
    int32_t rank = rng_int(1, 4), d[4], ud[4], st[4], c[4], k;
    size_t n, nu, i;
    for (k = 0; k < rank; k++) {
      d[k] = rng_int(1, 6);
      ud[k] = rng_int(1, d[k]);
      st[k] = rng_int(0, d[k] - ud[k]);
    }
    n = count_of(rank, d);
    nu = count_of(rank, ud);
    rng_bytes(x, n * 2);
    rng_bytes(u, nu * 2);
    memcpy(ref, x, n * 2);
    for (i = 0; i < nu; i++) {
      coords_of(i, rank, ud, c);
      for (k = 0; k < rank; k++)
        c[k] += st[k];
      ref[flat_of(rank, d, c)] = u[i];
    }
    memcpy(out, x, n * 2);
    tflc_dynamic_update_slice(2, rank, d, ud, st, u, out);
    CHECK_EQ_MEM(out, ref, n * 2);
  }
}

/* ---- BATCH_MATMUL
 * --------------------------------------------------------------
 */
/* One-operator BATCH_MATMUL models on random shapes (ranks 2..5, batch
 * dims broadcast either way, adj_x / adj_y) against a reference that
 * indexes the inputs as written: float32 summed in the same order (so
 * bit-equal), int8 and int16 requantized with TFLM's multiplier. */
static void test_batch_matmul_models(void) {
  int trial, bad = 0, ran = 0;
  rng_seed(505u);
  for (trial = 0; trial < 120; trial++) {
    static float lf[1024], rf[1024], of[1024], reff[1024];
    static int8_t l8[1024], r8[1024], o8[1024], ref8[1024];
    static int16_t l16[1024], r16[1024], o16[1024], ref16[1024];
    int type = trial % 3 == 0   ? TFLC_FLOAT32
               : trial % 3 == 1 ? TFLC_INT8
                                : TFLC_INT16;
    int32_t lr = rng_int(2, 5), rr = rng_int(2, 5), orank, k;
    int32_t ld[5], rd[5], od[5], lb[5], rb[5];
    int32_t m = rng_int(1, 4), kk = rng_int(1, 5), nn = rng_int(1, 4);
    int adj_x = rng_below(2), adj_y = rng_below(2);
    const void *feeds[2];
    void *outs[1];
    op_spec s = op_spec_of(126, 101);
    op_result r;
    float ls = 0.05f, rs = 0.02f, os = 0.3f;
    int32_t lz = type == TFLC_INT8 ? rng_int(-5, 5) : 0;
    int32_t rz = type == TFLC_INT8 ? rng_int(-5, 5) : 0;
    int32_t oz = type == TFLC_INT8 ? rng_int(-5, 5) : 0, mult, shift;
    size_t nl, nr, no, i;
    orank = lr > rr ? lr : rr;
    /* batch dims, aligned right, each 1 on one side or equal */
    for (k = 0; k < orank - 2; k++) {
      int32_t b = rng_int(1, 3), which = rng_below(3);
      od[k] = b;
      lb[k] = which == 1 ? 1 : b;
      rb[k] = which == 2 ? 1 : b;
    }
    for (k = 0; k < lr - 2; k++)
      ld[k] = lb[orank - lr + k];
    for (k = 0; k < rr - 2; k++)
      rd[k] = rb[orank - rr + k];
    /* a batch dim present only on one side counts as 1 on the other */
    for (k = 0; k < orank - 2; k++) {
      if (k < orank - lr)
        lb[k] = 1;
      if (k < orank - rr)
        rb[k] = 1;
      od[k] = lb[k] > rb[k] ? lb[k] : rb[k];
    }
    ld[lr - 2] = adj_x ? kk : m;
    ld[lr - 1] = adj_x ? m : kk;
    rd[rr - 2] = adj_y ? nn : kk;
    rd[rr - 1] = adj_y ? kk : nn;
    od[orank - 2] = m;
    od[orank - 1] = nn;
    nl = count_of(lr, ld);
    nr = count_of(rr, rd);
    no = count_of(orank, od);
    if (nl > 1024 || nr > 1024 || no > 1024)
      continue;
    for (i = 0; i < nl; i++) {
      lf[i] = (float)rng_int(-50, 50) * 0.125f;
      l8[i] = (int8_t)rng_int(-128, 127);
      l16[i] = (int16_t)rng_int(-3000, 3000);
    }
    for (i = 0; i < nr; i++) {
      rf[i] = (float)rng_int(-50, 50) * 0.25f;
      r8[i] = (int8_t)rng_int(-128, 127);
      r16[i] = (int16_t)rng_int(-3000, 3000);
    }
    tflc_fc_quantize_multiplier(ls, rs, os, &mult, &shift);
    for (i = 0; i < no; i++) {
      int32_t oc[5], lc[5], rc[5], j, mi, ni;
      float tf = 0.0f;
      int32_t t8 = 0;
      int64_t t16 = 0;
      coords_of(i, orank, od, oc);
      mi = oc[orank - 2];
      ni = oc[orank - 1];
      for (j = 0; j < kk; j++) {
        size_t li, ri;
        for (k = 0; k < lr - 2; k++)
          lc[k] = ld[k] == 1 ? 0 : oc[orank - lr + k];
        for (k = 0; k < rr - 2; k++)
          rc[k] = rd[k] == 1 ? 0 : oc[orank - rr + k];
        lc[lr - 2] = adj_x ? j : mi;
        lc[lr - 1] = adj_x ? mi : j;
        rc[rr - 2] = adj_y ? ni : j;
        rc[rr - 1] = adj_y ? j : ni;
        li = flat_of(lr, ld, lc);
        ri = flat_of(rr, rd, rc);
        tf += lf[li] * rf[ri];
        t8 += (l8[li] - lz) * (r8[ri] - rz);
        t16 += (int64_t)l16[li] * r16[ri];
      }
      reff[i] = tf;
      t8 = tflc_multiply_by_quantized_multiplier(t8, mult, shift) + oz;
      ref8[i] = (int8_t)(t8 < -128 ? -128 : t8 > 127 ? 127 : t8);
      t8 = tflc_multiply_by_quantized_multiplier_64(t16, mult, shift);
      ref16[i] = (int16_t)(t8 < -32768 ? -32768 : t8 > 32767 ? 32767 : t8);
    }
    s.opts[0] = opt_u8(0, adj_x);
    s.opts[1] = opt_u8(1, adj_y);
    s.nopts = 2;
    s.nin = 2;
    s.nout = 1;
    s.in[0] = tensor_shape(type, lr, ld);
    s.in[1] = tensor_shape(type, rr, rd);
    s.out[0] = tensor_shape(type, orank, od);
    if (type != TFLC_FLOAT32) {
      s.in[0] = tensor_quant(s.in[0], ls, lz);
      s.in[1] = tensor_quant(s.in[1], rs, rz);
      s.out[0] = tensor_quant(s.out[0], os, oz);
    }
    feeds[0] = type == TFLC_FLOAT32 ? (const void *)lf
               : type == TFLC_INT8  ? (const void *)l8
                                    : (const void *)l16;
    feeds[1] = type == TFLC_FLOAT32 ? (const void *)rf
               : type == TFLC_INT8  ? (const void *)r8
                                    : (const void *)r16;
    outs[0] = type == TFLC_FLOAT32 ? (void *)of
              : type == TFLC_INT8  ? (void *)o8
                                   : (void *)o16;
    r = run_op_model(&s, feeds, outs);
    if (op_result_status(&r) != TFLC_OK) {
      fprintf(stderr, "batch_matmul trial %d: %s\n", trial, r.err);
      bad++;
      continue;
    }
    ran++;
    if (type == TFLC_FLOAT32)
      bad += memcmp(of, reff, no * 4) != 0;
    else if (type == TFLC_INT8)
      bad += memcmp(o8, ref8, no) != 0;
    else
      bad += memcmp(o16, ref16, no * 2) != 0;
  }
  CHECK_EQ_INT(bad, 0);
  CHECK(ran > 80);
}

/* Compressed constant inputs (both LUT formats, 3 bits) give the bytes of
 * the plain ones: BATCH_MATMUL's int8 right-hand side and
 * EMBEDDING_LOOKUP's table, decoded whole before the operator runs. */
static void test_compressed_inputs(void) {
  static int8_t lhs[24], rhs[20], table[40], y_plain[30], y_lut[30];
  static const int32_t ids[3] = {4, 0, 2};
  int32_t ld[3] = {2, 3, 4}, rd[2] = {4, 5}, od[3] = {2, 3, 5};
  int32_t td[2] = {5, 8}, idd[1] = {3}, ed[2] = {3, 8};
  int k, fmt, which;
  rng_seed(606u);
  for (k = 0; k < 24; k++)
    lhs[k] = (int8_t)rng_int(-100, 100);
  for (k = 0; k < 20; k++)
    rhs[k] = (int8_t)(rng_int(0, 7) * 9 - 30); /* 8 values: 3 bits */
  for (k = 0; k < 40; k++)
    table[k] = (int8_t)(rng_int(0, 7) * 5 - 17);
  for (which = 0; which < 2; which++)
    for (fmt = 0; fmt <= 2; fmt++) {
      op_spec s = which ? op_spec_of(7, 0) : op_spec_of(126, 101);
      const void *feeds[1];
      void *outs[1];
      op_result r;
      if (which) {
        s.nin = 2;
        s.in[0] = tensor_const(TFLC_INT32, 1, idd, ids, sizeof ids);
        s.in[1] =
            tensor_quant(tensor_const(TFLC_INT8, 2, td, table, 40), 0.5f, 0);
        s.out[0] = tensor_quant(tensor_shape(TFLC_INT8, 2, ed), 0.5f, 0);
        feeds[0] = NULL;
      } else {
        s.nin = 2;
        s.in[0] = tensor_quant(tensor_shape(TFLC_INT8, 3, ld), 0.5f, 3);
        s.in[1] =
            tensor_quant(tensor_const(TFLC_INT8, 2, rd, rhs, 20), 0.25f, 0);
        s.out[0] = tensor_quant(tensor_shape(TFLC_INT8, 3, od), 2.0f, -1);
        feeds[0] = lhs;
      }
      s.nout = 1;
      s.compress_in = fmt ? 1 : -1;
      s.format = fmt == 1 ? TFLC_W_METADATA : TFLC_W_DECODE;
      s.bits = 3;
      outs[0] = fmt ? y_lut : y_plain;
      r = run_op_model(&s, feeds, outs);
      CHECK_EQ_INT(op_result_status(&r), TFLC_OK);
      if (fmt)
        CHECK_EQ_MEM(y_lut, y_plain, which ? 24 : 30);
    }
}

/* ---- TFLite_Detection_PostProcess
 * ----------------------------------------------
 */
/* Three boxes, hand-computed. Anchors (y, x, h, w) = (0.5, 0.5, 1, 1) and
 * zero encodings decode to [0, 0, 1, 1]; encodings move the centres by
 * y / 10 * h. Box 0 [0, 0, 1, 1], box 1 the same shifted by 0.1 in y (IoU
 * 0.9 / 1.1 = 0.818), box 2 shifted by 0.9 in x (IoU 0.1 / 1.9). Scores
 * (background, c0, c1): box 0 (0, 0.9, 0.2), box 1 (0, 0.8, 0.7), box 2
 * (0, 0.3, 0.6). Regular NMS, IoU 0.5, 2 per class, 3 detections: class 0
 * keeps box 0 (0.9; box 1 suppressed), box 2 (0.3); class 1 keeps box 1
 * (0.7), box 2 (0.6); best 3: (box 0, c0, 0.9), (box 1, c1, 0.7), (box 2,
 * c1, 0.6). Fast NMS on each box's best class (0.9, 0.8, 0.6) keeps box 0
 * and box 2: (box 0, c0, 0.9), (box 2, c1, 0.6). */
static void test_detection_postprocess_kernel(void) {
  static const float enc[12] = {0, 0, 0, 0, 1, 0, 0, 0, 0, 9, 0, 0};
  static const float scores[9] = {0, 0.9f, 0.2f, 0, 0.8f, 0.7f, 0, 0.3f, 0.6f};
  static const float anchors[12] = {0.5f, 0.5f, 1,    1,    0.5f, 0.5f,
                                    1,    1,    0.5f, 0.5f, 1,    1};
  float boxes[16], classes[4], sc[4], count;
  static uint8_t scratch[4096];
  tflc_detection_params p;
  memset(&p, 0, sizeof p);
  p.num_boxes = 3;
  p.box_stride = 4;
  p.num_classes = 2;
  p.classes_with_background = 3;
  p.max_detections = 3;
  p.max_classes_per_detection = 1;
  p.detections_per_class = 2;
  p.regular = 1;
  p.score_threshold = 0.0f;
  p.iou_threshold = 0.5f;
  p.y_scale = p.x_scale = 10.0f;
  p.h_scale = p.w_scale = 5.0f;
  CHECK(tflc_detection_postprocess_scratch(&p) <= sizeof scratch);
  CHECK_EQ_INT(tflc_detection_postprocess_f32(&p, enc, scores, anchors, boxes,
                                              classes, sc, &count, 3, scratch),
               0);
  CHECK(count == 3.0f);
  CHECK(classes[0] == 0.0f && classes[1] == 1.0f && classes[2] == 1.0f);
  CHECK(sc[0] == 0.9f && sc[1] == 0.7f && sc[2] == 0.6f);
  /* box 0 [0, 0, 1, 1]; box 1: centre y 1 / 10 * 1 + 0.5 (in double,
   * then float) minus half a height */
  CHECK(boxes[0] == 0.0f && boxes[1] == 0.0f && boxes[2] == 1.0f &&
        boxes[3] == 1.0f);
  CHECK(boxes[4] == (float)(1.0 / 10.0 * 1.0 + 0.5) - 0.5f);
  CHECK(boxes[6] == (float)(1.0 / 10.0 * 1.0 + 0.5) + 0.5f);
  p.regular = 0;
  memset(boxes, 0x7F, sizeof boxes);
  CHECK_EQ_INT(tflc_detection_postprocess_f32(&p, enc, scores, anchors, boxes,
                                              classes, sc, &count, 3, scratch),
               0);
  CHECK(count == 2.0f);
  CHECK(classes[0] == 0.0f && classes[1] == 1.0f);
  CHECK(sc[0] == 0.9f && sc[1] == 0.6f);
  /* an empty decoded box fails (TFLM fails the invoke too) */
  {
    static const float zero_anchor[12] = {0.5f, 0.5f, 0,    1,    0.5f, 0.5f,
                                          1,    1,    0.5f, 0.5f, 1,    1};
    CHECK_EQ_INT(tflc_detection_postprocess_f32(&p, enc, scores, zero_anchor,
                                                boxes, classes, sc, &count, 3,
                                                scratch),
                 -1);
  }
  /* fast NMS with 2 classes per detection writes where TFLM would write
   * out of bounds: refused */
  p.max_classes_per_detection = 2;
  CHECK_EQ_INT(tflc_detection_postprocess_f32(&p, enc, scores, anchors, boxes,
                                              classes, sc, &count, 3, scratch),
               -2);
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
  RUN(test_reverse_kernel);
  RUN(test_mirror_pad_kernel);
  RUN(test_fill_broadcast_kernels);
  RUN(test_gather_nd_kernel);
  RUN(test_embedding_lookup_kernel);
  RUN(test_dynamic_update_slice_kernel);
  RUN(test_batch_matmul_models);
  RUN(test_compressed_inputs);
  RUN(test_detection_postprocess_kernel);
  RUN(test_dtln_ten_invokes_with_reset);
  RUN(test_reset_reruns_call_once);
  return harness_report();
}

/* tests/test_lean.c - a firmware build for plain models: person_detect's
 * operators (TFLC_OPS) and everything such a model does not need left out
 * (TFLC_NO_COMPRESSION, TFLC_NO_SUBGRAPHS, TFLC_NO_DELEGATES,
 * TFLC_NO_USER_OPS, TFLC_NO_PATCHES). person_detect still gives TFLM's
 * bytes, also in an arena without room for the fastest plan's folded
 * CONV_2D biases (the same plan without them); a model or an
 * option needing what was left out is refused at init with
 * TFLC_ERR_UNSUPPORTED (never run, never a wrong output). The models come
 * from ../shared/conformance when it is there, and from the writer. */
#define TFLC_OPS(X)                                                            \
  X(AVERAGE_POOL_2D)                                                           \
  X(CONV_2D)                                                                   \
  X(DEPTHWISE_CONV_2D) X(RESHAPE) X(SOFTMAX) X(ADD) X(IF) X(CIRCULAR_BUFFER)
#define TFLC_NO_COMPRESSION
#define TFLC_NO_SUBGRAPHS
#define TFLC_NO_DELEGATES
#define TFLC_NO_USER_OPS
#define TFLC_NO_PATCHES
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "../tflc_write.h"
#include "harness.h"

#include <stdlib.h>
#include <string.h>

/* The message of a refusal: containing `s`, or empty without messages
 * (tests/run.sh also runs this file with -DTFLC_NO_ERROR_STRINGS). */
#ifndef TFLC_NO_ERROR_STRINGS
#define MESSAGE_HAS(msg, s) (strstr((msg), (s)) != NULL)
#else
#define MESSAGE_HAS(msg, s) ((msg)[0] == 0 && (s)[0] != 0)
#endif

static uint8_t arena[256 * 1024] __attribute__((aligned(16)));

/* The bytes of file `path` (malloc'd), or NULL when it is not there. */
static uint8_t *load(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  uint8_t *b = NULL;
  long len;
  *n = 0;
  if (!f)
    return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 &&
      fseek(f, 0, SEEK_SET) == 0) {
    b = (uint8_t *)malloc((size_t)len);
    if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
      free(b);
      b = NULL;
    }
    *n = b ? (size_t)len : 0;
  }
  fclose(f);
  return b;
}

#define PD "../shared/conformance/models/person_detect/person/"

static void test_person_detect_equals_tflm(void) {
  size_t nm, ni, no;
  uint8_t *model = load(PD "model.tflite", &nm);
  uint8_t *in = load(PD "input_0.bin", &ni);
  uint8_t *want = load(PD "output_0.bin", &no);
  tflc_model m;
  tflc_interpreter it;
  if (!model || !in || !want) {
    printf("(no %s: person_detect skipped)\n", PD);
  } else {
    CHECK_EQ_INT(tflc_model_init(&m, model, nm), TFLC_OK);
    CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
                 TFLC_OK);
    if (tflc_input(&it, 0) && tflc_output(&it, 0) &&
        tflc_input(&it, 0)->bytes == ni && tflc_output(&it, 0)->bytes == no) {
      const size_t fast = tflc_arena_used(&it);
      CHECK_EQ_INT(it.folded_ops, 14);
      memcpy(tflc_input(&it, 0)->data, in, ni);
      CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
      CHECK_EQ_MEM(tflc_output(&it, 0)->data, want, no);
      /* a byte short: the fastest plan without the folds, the same bytes;
       * that plan's arena less a byte fails */
      CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, fast - 1, NULL),
                   TFLC_OK);
      CHECK_EQ_INT(it.folded_ops, 0);
      memcpy(tflc_input(&it, 0)->data, in, ni);
      CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
      CHECK_EQ_MEM(tflc_output(&it, 0)->data, want, no);
      CHECK_EQ_INT(
          tflc_interpreter_init(&it, &m, arena, tflc_arena_used(&it) - 1, NULL),
          TFLC_ERR_ARENA);
    } else {
      CHECK(0); /* input / output sizes as TFLM's files */
    }
  }
  free(model);
  free(in);
  free(want);
}

/* A model of the shared suites that needs what this build leaves out:
 * refused by tflc_model_init, the message naming the option. */
static void refused_file(const char *path, const char *option) {
  size_t n;
  uint8_t *b = load(path, &n);
  tflc_model m;
  if (!b) {
    printf("(no %s: skipped)\n", path);
    return;
  }
  CHECK_EQ_INT(tflc_model_init(&m, b, n), TFLC_ERR_UNSUPPORTED);
  if (!MESSAGE_HAS(tflc_model_error(&m), option))
    fprintf(stderr, "%s: \"%s\"\n", path, tflc_model_error(&m));
  CHECK(MESSAGE_HAS(tflc_model_error(&m), option));
  free(b);
}

static void test_left_out_models_refused(void) {
  /* COMPRESSION_METADATA (LUT), TFLM_DECODE LUT, Huffman and Prune */
  refused_file("../shared/conformance/models/compressed/pd_all_w4/meta/"
               "model.tflite",
               "TFLC_NO_COMPRESSION");
  refused_file("../shared/conformance/models/compressed/pd_all_w4/decode/"
               "model.tflite",
               "TFLC_NO_COMPRESSION");
  refused_file("../shared/conformance/weights/huffman/i16fc_t32_seed10119/"
               "model.tflite",
               "TFLC_NO_COMPRESSION");
  refused_file("../shared/conformance/weights/prune/bool_consts_seed16681/"
               "model.tflite",
               "TFLC_NO_COMPRESSION");
  /* an INT4 filter */
  refused_file("../shared/conformance/ops2/CONV_2D/"
               "i8_1x1x1x7_o3_k1x1_s11_d11_valid_none_wi4/model.tflite",
               "TFLC_NO_COMPRESSION");
  /* several subgraphs (IF, WHILE) */
  refused_file("../shared/conformance/ops2/IF/"
               "f32_2x3_then_add_const_else_neg_cond1/model.tflite",
               "TFLC_NO_SUBGRAPHS");
  refused_file("../shared/conformance/ops2/WHILE/"
               "f32_2x3_from0_to5_affine/model.tflite",
               "TFLC_NO_SUBGRAPHS");
}

/* A one-subgraph float ADD model (y = a + a), optionally with an IF
 * operator naming subgraph 0 (this build has no control flow) or an INT4
 * constant. */
enum { PLAIN, WITH_IF, WITH_INT4, WITH_MUL };
static uint8_t *writer_model(int kind, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  const int32_t d[1] = {4};
  const int8_t q[4] = {1, -2, 3, -4};
  int32_t a, y, c, in[2];
  uint8_t *bytes = NULL;
  a = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "a", NULL);
  y = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "y", NULL);
  in[0] = in[1] = a;
  tflc_writer_op(w, 0, kind == WITH_MUL ? TFLC_OP_MUL : TFLC_OP_ADD, NULL, 2,
                 in, 1, &y, 0, 0, NULL);
  if (kind == WITH_IF) {
    tflc_w_option o[2];
    int32_t cond, z, ifin[2];
    const uint8_t t = 1;
    memset(o, 0, sizeof o);
    o[0].slot = 0; /* then_subgraph_index */
    o[0].kind = TFLC_W_I32;
    o[1].slot = 1; /* else_subgraph_index */
    o[1].kind = TFLC_W_I32;
    cond = tflc_writer_tensor(w, 0, TFLC_BOOL, 0, NULL, &t, 1, "c", NULL);
    z = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "z", NULL);
    ifin[0] = cond;
    ifin[1] = a;
    tflc_writer_op(w, 0, TFLC_OP_IF, NULL, 2, ifin, 1, &z, 92, 2, o);
  }
  if (kind == WITH_INT4) {
    c = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, q, sizeof q, "q", NULL);
    tflc_writer_to_int4(w, 0, c);
  }
  tflc_writer_inputs(w, 0, 1, &a);
  tflc_writer_outputs(w, 0, 1, &y);
  if (tflc_writer_finish(w, &bytes, size) != TFLC_OK)
    bytes = NULL;
  tflc_writer_destroy(w);
  return bytes;
}

static void test_left_out_writer_models_refused(void) {
  size_t n;
  uint8_t *b = writer_model(WITH_IF, &n);
  tflc_model m;
  CHECK(b != NULL);
  if (b) {
    CHECK_EQ_INT(tflc_model_init(&m, b, n), TFLC_ERR_UNSUPPORTED);
    CHECK(MESSAGE_HAS(tflc_model_error(&m),
                      "op 1 IF: not compiled in (TFLC_NO_SUBGRAPHS)"));
  }
  free(b);
  b = writer_model(WITH_INT4, &n);
  CHECK(b != NULL);
  if (b) {
    CHECK_EQ_INT(tflc_model_init(&m, b, n), TFLC_ERR_UNSUPPORTED);
    CHECK(MESSAGE_HAS(tflc_model_error(&m), "INT4 not compiled in"));
  }
  free(b);
}

static int claims(tflc_op_context *op, void *user) {
  (void)op;
  (void)user;
  return 1;
}
static tflc_status run_user(tflc_op_context *op, void *user) {
  (void)op;
  (void)user;
  return TFLC_OK;
}

/* The plain model runs; delegates and user operators are refused. */
static void test_left_out_options_refused(void) {
  size_t n;
  uint8_t *b = writer_model(PLAIN, &n);
  const float x[4] = {1, 2, 3, 4};
  tflc_model m;
  tflc_interpreter it;
  tflc_options opt;
  tflc_delegate d;
  tflc_user_op u;
  CHECK(b != NULL);
  if (!b)
    return;
  CHECK_EQ_INT(tflc_model_init(&m, b, n), TFLC_OK);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
               TFLC_OK);
  if (tflc_input(&it, 0)) {
    memcpy(tflc_input(&it, 0)->data, x, sizeof x);
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
    CHECK(((const float *)tflc_output(&it, 0)->data)[3] == 8.0f);
  }
  memset(&opt, 0, sizeof opt);
  memset(&d, 0, sizeof d);
  d.name = "any";
  d.claims = claims;
  d.invoke = run_user;
  opt.delegates = &d;
  opt.num_delegates = 1;
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
               TFLC_ERR_UNSUPPORTED);
  CHECK(MESSAGE_HAS(tflc_error(&it),
                    "delegates not compiled in (TFLC_NO_DELEGATES)"));
  memset(&opt, 0, sizeof opt);
  memset(&u, 0, sizeof u);
  u.code = TFLC_OP_ADD;
  u.invoke = run_user;
  opt.user_ops = &u;
  opt.num_user_ops = 1;
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
               TFLC_ERR_UNSUPPORTED);
  CHECK(MESSAGE_HAS(tflc_error(&it),
                    "user operators not compiled in (TFLC_NO_USER_OPS)"));
  free(b);
}

/* A builtin operator with a kernel left out of TFLC_OPS (MUL): with
 * neither delegates nor user operators only the selected operators' rows
 * of the operator table are linked, and MUL, without a row, is refused at
 * interpreter init all the same; tflc_op_info_get still knows every row. */
static void test_unselected_builtin_refused(void) {
  size_t n;
  uint8_t *b = writer_model(WITH_MUL, &n);
  tflc_model m;
  tflc_interpreter it;
  tflc_op_info info;
  CHECK(b != NULL);
  if (b) {
    CHECK_EQ_INT(tflc_model_init(&m, b, n), TFLC_OK);
    CHECK_EQ_INT(tflc_model_op_code(&m, 0, 0), TFLC_OP_MUL);
    CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
                 TFLC_ERR_UNSUPPORTED);
    CHECK(MESSAGE_HAS(tflc_error(&it), "op 0 MUL: not compiled in"));
    { /* the operator is known without messages too */
      int32_t sg = 7;
      CHECK_EQ_INT(tflc_error_op(&it, &sg), 0);
      CHECK_EQ_INT(sg, 0);
    }
  }
  free(b);
  CHECK(tflc__opdef_find(TFLC_OP_MUL) == NULL);
  CHECK(tflc__opdef_find(TFLC_OP_CONV_2D) != NULL &&
        tflc__opdef_find(TFLC_OP_CONV_2D)->code == TFLC_OP_CONV_2D);
  CHECK(tflc__opdef_find(TFLC_OP_LSH_PROJECTION) == NULL);
  CHECK(tflc__opdef_find(TFLC_OP_UNKNOWN_CUSTOM) == NULL);
  CHECK(sizeof tflc__selected_opdefs / sizeof *tflc__selected_opdefs == 8);
  CHECK(tflc_op_info_get(TFLC_OP_MUL, &info));
  CHECK_EQ_INT(info.status, TFLC_OP_LEFT_OUT);
  CHECK_EQ_INT(info.options_type, 21);
  CHECK(tflc_op_info_get(TFLC_OP_CONV_2D, &info));
  CHECK_EQ_INT(info.status, TFLC_OP_COMPILED);
  CHECK_EQ_INT(info.options_type, 1);
  CHECK_EQ_INT(info.inplace_inputs, TFLC_INPUTS(1) | TFLC_INPUTS(2));
}

/* Custom operators: known by their custom_code; without messages only
 * those selected, the others read as unknown (TFLC_OP_UNKNOWN_CUSTOM). */
static void test_custom_codes_of_selected_operators(void) {
  static const char *const names[3] = {"CIRCULAR_BUFFER", "SignalWindow",
                                       "MyOp"};
#ifndef TFLC_NO_ERROR_STRINGS
  static const int32_t codes[3] = {
      TFLC_OP_CIRCULAR_BUFFER, TFLC_OP_SignalWindow, TFLC_OP_UNKNOWN_CUSTOM};
#else
  static const int32_t codes[3] = {
      TFLC_OP_CIRCULAR_BUFFER, TFLC_OP_UNKNOWN_CUSTOM, TFLC_OP_UNKNOWN_CUSTOM};
#endif
  int k;
  for (k = 0; k < 3; k++) {
    tflc_writer *w = tflc_writer_create();
    const int32_t d[1] = {4};
    int32_t a, y;
    uint8_t *bytes = NULL;
    size_t size = 0;
    tflc_model m;
    a = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "a", NULL);
    y = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "y", NULL);
    tflc_writer_op(w, 0, TFLC_OP_CUSTOM, names[k], 1, &a, 1, &y, 0, 0, NULL);
    tflc_writer_inputs(w, 0, 1, &a);
    tflc_writer_outputs(w, 0, 1, &y);
    CHECK_EQ_INT(tflc_writer_finish(w, &bytes, &size), TFLC_OK);
    tflc_writer_destroy(w);
    if (!bytes)
      continue;
    CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
    CHECK_EQ_INT(tflc_model_op_code(&m, 0, 0), codes[k]);
    free(bytes);
  }
}

/* The kernels' readers of constants: raw ones as always, any other kind
 * read as zeros (no decoder is compiled in). */
static void test_raw_constants_only(void) {
  const int8_t raw[6] = {1, 2, 3, -4, -5, -6};
  const uint8_t bits[1] = {0x1B};
  const int8_t values[4] = {9, 9, 9, 9};
  int8_t out[6];
  tflc_const r = tflc_const_raw(raw, TFLC_INT8, 6);
  tflc_const l = tflc_const_lut(bits, values, TFLC_INT8, 4, 2, 1, 4, 0);
  tflc_lut_decode(&r, 1, 5, out);
  CHECK_EQ_MEM(out, raw + 1, 5);
  CHECK_EQ_INT(tflc_const_i32(&r, 3), -4);
  memset(out, 7, sizeof out);
  tflc_lut_decode(&l, 0, 4, out);
  CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0 && out[3] == 0);
  CHECK_EQ_INT(out[4], 7);
  CHECK_EQ_INT(tflc_const_i32(&l, 2), 0);
  tflc_lut_gather(&l, 0, 2, 2, out);
  CHECK(out[0] == 0 && out[1] == 0);
}

int main(void) {
  RUN(test_person_detect_equals_tflm);
  RUN(test_left_out_models_refused);
  RUN(test_left_out_writer_models_refused);
  RUN(test_left_out_options_refused);
  RUN(test_unselected_builtin_refused);
  RUN(test_custom_codes_of_selected_operators);
  RUN(test_raw_constants_only);
  return harness_report();
}

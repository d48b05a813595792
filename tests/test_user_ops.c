/* tests/test_user_ops.c - operators the user registers (tflc_user_op): a
 * custom operator in a writer-built model, a built-in replaced by a user
 * kernel, a wrapper of CONV_2D that counts its calls and forwards to the
 * built-in (person_detect, byte-identical), persistent state, scratch,
 * options and error messages; and the operator table's introspection. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#endif
#include "../tflc_write.h"
#include "harness.h"

#include <stdlib.h>
#include <string.h>

static uint8_t arena[400 * 1024] __attribute__((aligned(16)));

/* x[4] -> op -> y[4], float32, one operator `code` / `custom`. With
 * `binary`, the operator reads x twice (ADD x, x). */
static uint8_t *one_op_model(int32_t code, const char *custom, int binary,
                             size_t *size) {
  tflc_writer *w = tflc_writer_create();
  const int32_t d[1] = {4};
  int32_t x, y, in[2];
  uint8_t *bytes = NULL;
  x = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "x", NULL);
  y = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "y", NULL);
  in[0] = in[1] = x;
  tflc_writer_op(w, 0, code, custom, binary ? 2 : 1, in, 1, &y, 0, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  if (tflc_writer_finish(w, &bytes, size) != TFLC_OK)
    bytes = NULL;
  tflc_writer_destroy(w);
  return bytes;
}

typedef struct counter {
  int prepares, invokes;
  float bias;
} counter;

/* PlusBias: y = x + bias, bias kept in persistent state set at prepare. */
static tflc_status plus_prepare(tflc_op_context *op, void *user) {
  float *b = (float *)tflc_op_persist(op, sizeof(float));
  const tflc_tensor *x = tflc_op_input(op, 0);
  counter *cnt = (counter *)user;
  cnt->prepares++;
  if (!b)
    return tflc_op_fail(op, TFLC_ERR_ARENA, "no arena");
  if (!x || x->type != TFLC_FLOAT32)
    return tflc_op_fail(op, TFLC_ERR_TYPE, "float32 input wanted");
  *b = cnt->bias;
  tflc_op_set_state(op, b);
  return TFLC_OK;
}
static tflc_status plus_invoke(tflc_op_context *op, void *user) {
  const tflc_tensor *x = tflc_op_input(op, 0);
  tflc_tensor *y = tflc_op_output(op, 0);
  const float b = *(const float *)tflc_op_state(op);
  uint32_t i;
  ((counter *)user)->invokes++;
  for (i = 0; i < x->bytes / 4; i++)
    ((float *)y->data)[i] = ((const float *)x->data)[i] + b;
  return TFLC_OK;
}
static tflc_status failing_prepare(tflc_op_context *op, void *user) {
  (void)user;
  return tflc_op_fail(op, TFLC_ERR_KERNEL, "accelerator busy");
}
static tflc_status failing_invoke(tflc_op_context *op, void *user) {
  (void)user;
  return tflc_op_fail(op, TFLC_ERR_KERNEL, "accelerator lost");
}

static void test_custom_op(void) {
  size_t size = 0;
  uint8_t *bytes = one_op_model(TFLC_OP_CUSTOM, "PlusBias", 0, &size);
  tflc_model m;
  tflc_interpreter it;
  tflc_options opt;
  counter cnt = {0, 0, 2.5f};
  tflc_user_op ops[2];
  const float x[4] = {1, -2, 0.5f, 100};
  uint32_t len = 0;
  const char *name;
  int k;
  CHECK(bytes != NULL);
  if (!bytes)
    return;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  CHECK_EQ_INT(tflc_model_op_code(&m, 0, 0), TFLC_OP_UNKNOWN_CUSTOM);
  name = tflc_model_op_custom_name(&m, 0, 0, &len);
  CHECK(name && len == 8 && memcmp(name, "PlusBias", 8) == 0);
  /* unregistered: refused, naming what to do */
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
               TFLC_ERR_UNSUPPORTED);
  CHECK(strstr(tflc_error(&it), "user_ops") != NULL);
  /* registered (after a non-matching entry) */
  memset(ops, 0, sizeof ops);
  ops[0].code = TFLC_OP_CUSTOM;
  ops[0].custom_name = "PlusBia"; /* a prefix must not match */
  ops[0].invoke = plus_invoke;
  ops[0].user = &cnt;
  ops[1] = ops[0];
  ops[1].custom_name = "PlusBias";
  ops[1].prepare = plus_prepare;
  memset(&opt, 0, sizeof opt);
  opt.user_ops = ops;
  opt.num_user_ops = 2;
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
               TFLC_OK);
  CHECK_EQ_INT(cnt.prepares, 1);
  for (k = 0; k < 3; k++) {
    memcpy(tflc_input(&it, 0)->data, x, sizeof x);
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
    CHECK(((const float *)tflc_output(&it, 0)->data)[0] == 3.5f);
    CHECK(((const float *)tflc_output(&it, 0)->data)[3] == 102.5f);
  }
  CHECK_EQ_INT(cnt.invokes, 3);
  {
    int32_t sg = 5; /* nothing failed */
    CHECK_EQ_INT(tflc_error_op(&it, &sg), -1);
    CHECK_EQ_INT(sg, -1);
  }
  /* a failing invoke: tflc_error_op names the operator */
  ops[1].invoke = failing_invoke;
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
               TFLC_OK);
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_ERR_KERNEL);
  {
    int32_t sg = 5;
    CHECK_EQ_INT(tflc_error_op(&it, &sg), 0);
    CHECK_EQ_INT(sg, 0);
  }
  ops[1].invoke = plus_invoke;
  /* a failing prepare reports like a kernel */
  ops[1].prepare = failing_prepare;
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
               TFLC_ERR_KERNEL);
  CHECK(strstr(tflc_error(&it), "op 0 PlusBias: accelerator busy") != NULL);
  CHECK_EQ_INT(tflc_error_op(&it, NULL), 0);
  free(bytes);
}

/* A built-in replaced: ADD(x, x) computed by a user kernel as x + 2.5. */
static void test_replace_builtin(void) {
  size_t size = 0;
  uint8_t *bytes = one_op_model(TFLC_OP_ADD, NULL, 1, &size);
  tflc_model m;
  tflc_interpreter it;
  tflc_options opt;
  counter cnt = {0, 0, 2.5f};
  tflc_user_op op;
  const float x[4] = {1, 2, 3, 4};
  CHECK(bytes != NULL);
  if (!bytes)
    return;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  /* built-in first: x + x */
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
               TFLC_OK);
  memcpy(tflc_input(&it, 0)->data, x, sizeof x);
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  CHECK(((const float *)tflc_output(&it, 0)->data)[3] == 8.0f);
  memset(&op, 0, sizeof op);
  op.code = TFLC_OP_ADD;
  op.prepare = plus_prepare;
  op.invoke = plus_invoke;
  op.user = &cnt;
  memset(&opt, 0, sizeof opt);
  opt.user_ops = &op;
  opt.num_user_ops = 1;
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
               TFLC_OK);
  memcpy(tflc_input(&it, 0)->data, x, sizeof x);
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  CHECK(((const float *)tflc_output(&it, 0)->data)[3] == 6.5f);
  CHECK_EQ_INT(cnt.invokes, 1);
  free(bytes);
}

/* CONV_2D wrapped: counts, checks the options and scratch accessors, and
 * forwards to the built-in; person_detect's scores stay TFLM's. */
typedef struct conv_spy {
  int prepares, invokes, scratch_ok;
  int32_t strides, padding;
} conv_spy;
static tflc_status spy_prepare(tflc_op_context *op, void *user) {
  conv_spy *s = (conv_spy *)user;
  s->prepares++;
  s->strides += tflc_op_option_int(op, 1, 0);  /* Conv2DOptions.stride_w */
  s->padding += tflc_op_option_byte(op, 0, 0); /* SAME 0 (default) */
  return tflc_op_builtin_prepare(op);
}
static tflc_status spy_invoke(tflc_op_context *op, void *user) {
  conv_spy *s = (conv_spy *)user;
  s->invokes++;
  if (tflc_op_code(op) != TFLC_OP_CONV_2D || tflc_op_num_inputs(op) != 3 ||
      !tflc_op_output(op, 0) || tflc_op_input(op, 3) != NULL)
    return tflc_op_fail(op, TFLC_ERR_KERNEL, "unexpected context");
  return tflc_op_builtin_invoke(op);
}
static uint8_t *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  uint8_t *b;
  long n;
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  b = (uint8_t *)malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return b;
}
static void test_wrap_conv(void) {
  size_t size = 0, isz = 0;
  const char *shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
  char path[512];
  uint8_t *bytes, *img;
  tflc_model m;
  tflc_interpreter it;
  tflc_options opt;
  tflc_user_op op;
  conv_spy spy;
  int8_t plain[2], wrapped[2];
  int32_t i, convs = 0;
  snprintf(path, sizeof path, "%s/models/person_detect.tflite", shared);
  bytes = read_all(path, &size);
  snprintf(path, sizeof path, "%s/models/person_96x96_gray.bin", shared);
  img = read_all(path, &isz);
  if (!bytes || !img || isz != 96 * 96) {
    printf("test_wrap_conv: %s/models not found, skipped\n", shared);
    free(bytes);
    free(img);
    return;
  }
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  for (i = 0; i < tflc_model_num_ops(&m, 0); i++)
    convs += tflc_model_op_code(&m, 0, i) == TFLC_OP_CONV_2D;
  CHECK(convs > 0);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
               TFLC_OK);
  memcpy(tflc_input(&it, 0)->data, img, isz);
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  memcpy(plain, tflc_output(&it, 0)->data, 2);
  memset(&spy, 0, sizeof spy);
  memset(&op, 0, sizeof op);
  op.code = TFLC_OP_CONV_2D;
  op.prepare = spy_prepare;
  op.invoke = spy_invoke;
  op.user = &spy;
  memset(&opt, 0, sizeof opt);
  opt.user_ops = &op;
  opt.num_user_ops = 1;
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
               TFLC_OK);
  for (i = 0; i < 2; i++) {
    memcpy(tflc_input(&it, 0)->data, img, isz);
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  }
  memcpy(wrapped, tflc_output(&it, 0)->data, 2);
  CHECK_EQ_INT(spy.prepares, convs);
  CHECK_EQ_INT(spy.invokes, 2 * convs);
  CHECK(spy.strides >= convs); /* every stride at least 1 */
  CHECK(spy.padding >= 0 && spy.padding <= convs);
  CHECK_EQ_MEM(plain, wrapped, 2);
  CHECK_EQ_INT(plain[1], 113); /* TFLM's person score */
  free(bytes);
  free(img);
}

/* Scratch for a user op: requested at prepare, valid at invoke. */
static tflc_status scratch_prepare(tflc_op_context *op, void *user) {
  int32_t k = tflc_op_scratch_request(op, 64);
  (void)user;
  if (k < 0)
    return tflc_op_fail(op, TFLC_ERR_ARENA, "no scratch");
  tflc_op_set_state(op, (void *)(uintptr_t)(k + 1));
  return TFLC_OK;
}
static tflc_status scratch_invoke(tflc_op_context *op, void *user) {
  int32_t k = (int32_t)(uintptr_t)tflc_op_state(op) - 1;
  uint8_t *s = (uint8_t *)tflc_op_scratch(op, k);
  const tflc_tensor *x = tflc_op_input(op, 0);
  tflc_tensor *y = tflc_op_output(op, 0);
  (void)user;
  if (!s || tflc_op_scratch(op, k + 1) != NULL ||
      tflc_op_persist(op, 4) != NULL) /* persist: prepare only */
    return tflc_op_fail(op, TFLC_ERR_KERNEL, "scratch broken");
  memcpy(s, x->data, x->bytes); /* through the scratch */
  memcpy(y->data, s, x->bytes);
  return TFLC_OK;
}
static void test_scratch(void) {
  size_t size = 0;
  uint8_t *bytes = one_op_model(TFLC_OP_CUSTOM, "Copy", 0, &size);
  tflc_model m;
  tflc_interpreter it;
  tflc_options opt;
  tflc_user_op op;
  const float x[4] = {1, 2, 3, 4};
  CHECK(bytes != NULL);
  if (!bytes)
    return;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  memset(&op, 0, sizeof op);
  op.code = TFLC_OP_CUSTOM;
  op.custom_name = "Copy";
  op.prepare = scratch_prepare;
  op.invoke = scratch_invoke;
  memset(&opt, 0, sizeof opt);
  opt.user_ops = &op;
  opt.num_user_ops = 1;
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
               TFLC_OK);
  memcpy(tflc_input(&it, 0)->data, x, sizeof x);
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  CHECK_EQ_MEM(tflc_output(&it, 0)->data, x, sizeof x);
  free(bytes);
}

static void test_table(void) {
  tflc_op_info info;
  CHECK(tflc_op_info_get(TFLC_OP_CONV_2D, &info));
  CHECK(strcmp(info.name, "CONV_2D") == 0);
  CHECK_EQ_INT(info.status, TFLC_OP_COMPILED);
  CHECK_EQ_INT(info.options_type, 1);
  CHECK_EQ_INT(info.inplace_inputs, TFLC_INPUTS(1) | TFLC_INPUTS(2));
  CHECK_EQ_INT(info.facts & TFLC_CHECK_MASK, TFLC_CHECK_CONV);
  CHECK(tflc_op_info_get(TFLC_OP_LSH_PROJECTION, &info));
  CHECK_EQ_INT(info.status, TFLC_OP_NAME_ONLY);
  CHECK(strcmp(tflc_opcode_name(TFLC_OP_CAST), "CAST") == 0);
  CHECK(strcmp(tflc_opcode_name(TFLC_OP_DIV), "DIV") == 0);
  CHECK(tflc_op_info_get(TFLC_OP_WHILE, &info));
  CHECK(info.facts & TFLC_OPF_SUBGRAPHS);
  CHECK(tflc_op_info_get(TFLC_OP_TFLM_DECODE, &info));
  CHECK(strcmp(info.name, "TFLM_DECODE") == 0);
  CHECK(!tflc_op_info_get(9999, &info));
  CHECK(strcmp(tflc_opcode_name(9999), "UNKNOWN") == 0);
  CHECK(strcmp(tflc_opcode_name(TFLC_OP_UNKNOWN_CUSTOM), "CUSTOM") == 0);
  /* every code has one name, and the enum follows the schema */
  CHECK_EQ_INT(TFLC_OP_ADD, 0);
  CHECK_EQ_INT(TFLC_OP_CUSTOM, 32);
  CHECK_EQ_INT(TFLC_OP_ASSIGN_VARIABLE, 144);
  CHECK_EQ_INT(TFLC_OP_STABLEHLO_CASE, 209);
}

int main(void) {
  RUN(test_custom_op);
  RUN(test_replace_builtin);
  RUN(test_wrap_conv);
  RUN(test_scratch);
  RUN(test_table);
  return harness_report();
}

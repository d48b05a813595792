/* tests/test_op_select.c - a firmware build that compiles a few operators
 * (TFLC_OPS): they run, the others are refused at init with "not compiled
 * in", and the table says which is which. Selection has no cap on codes:
 * the list also names the row with the highest code (SignalWindow), the
 * first custom one (CIRCULAR_BUFFER, 256 up) and a code far above every
 * row's, SELECT_FAR_TEST, declared here. */
#include <stdint.h>
/* (the code and facts a row of that name would give) */
enum { TFLC_OP_SELECT_FAR_TEST = 30000, TFLC__FACTS_OF_SELECT_FAR_TEST = 0 };
#define TFLC_OPS(X)                                                            \
  X(ADD) X(TFLM_DECODE) X(CIRCULAR_BUFFER) X(SignalWindow) X(SELECT_FAR_TEST)
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "../tflc_write.h"
#include "harness.h"

#include <stdlib.h>
#include <string.h>

static uint8_t arena[16 * 1024] __attribute__((aligned(16)));

static tflc_status run_one(int32_t code, char *err) {
  tflc_writer *w = tflc_writer_create();
  const int32_t d[1] = {4};
  const float x[4] = {1, 2, 3, 4};
  int32_t a, y, in[2];
  uint8_t *bytes = NULL;
  size_t size = 0;
  tflc_model m;
  tflc_interpreter it;
  tflc_status st;
  a = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "a", NULL);
  y = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "y", NULL);
  in[0] = in[1] = a;
  tflc_writer_op(w, 0, code, NULL, 2, in, 1, &y, 0, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &a);
  tflc_writer_outputs(w, 0, 1, &y);
  st = tflc_writer_finish(w, &bytes, &size);
  tflc_writer_destroy(w);
  if (st != TFLC_OK)
    return st;
  st = tflc_model_init(&m, bytes, size);
  if (st == TFLC_OK)
    st = tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL);
  strcpy(err, st == TFLC_OK ? "" : tflc_error(&it));
  if (st == TFLC_OK) {
    memcpy(tflc_input(&it, 0)->data, x, sizeof x);
    st = tflc_invoke(&it);
    if (st == TFLC_OK && ((const float *)tflc_output(&it, 0)->data)[3] != 8.0f)
      st = TFLC_ERR_KERNEL;
  }
  free(bytes);
  return st;
}

static void test_selected(void) {
  char err[TFLC_ERROR_LEN];
  tflc_op_info info;
  CHECK_EQ_INT(run_one(TFLC_OP_ADD, err), TFLC_OK);
  CHECK_EQ_INT(run_one(TFLC_OP_MUL, err), TFLC_ERR_UNSUPPORTED);
  CHECK(strcmp(err, "op 0 MUL: not compiled in (add it to TFLC_OPS)") == 0);
  CHECK_EQ_INT(run_one(TFLC_OP_LSH_PROJECTION, err), TFLC_ERR_UNSUPPORTED);
  CHECK(strstr(err, "op 0 LSH_PROJECTION: operator not supported") == err);
  CHECK(tflc_op_info_get(TFLC_OP_ADD, &info));
  CHECK_EQ_INT(info.status, TFLC_OP_COMPILED);
  CHECK(tflc_op_info_get(TFLC_OP_TFLM_DECODE, &info));
  CHECK_EQ_INT(info.status, TFLC_OP_COMPILED);
  CHECK(tflc_op_info_get(TFLC_OP_MUL, &info));
  CHECK_EQ_INT(info.status, TFLC_OP_LEFT_OUT);
  CHECK(tflc_op_info_get(TFLC_OP_CONV_2D, &info));
  CHECK_EQ_INT(info.status, TFLC_OP_LEFT_OUT);
  CHECK(tflc_op_info_get(TFLC_OP_LSH_PROJECTION, &info));
  CHECK_EQ_INT(info.status, TFLC_OP_NAME_ONLY);
}

/* tflc__opdef_find searches the rows by code: they must ascend */
static void test_rows_in_code_order(void) {
  int i;
  for (i = 1; i < TFLC__NUM_DEFS; i++)
    CHECK(tflc__opdefs[i - 1].code < tflc__opdefs[i].code);
  CHECK(tflc__opdef_find(TFLC_OP_ADD) == &tflc__opdefs[TFLC__DEF_ADD]);
  CHECK(tflc__opdef_find(TFLC_OP_SignalFramer) ==
        &tflc__opdefs[TFLC__DEF_SignalFramer]);
  CHECK(tflc__opdef_find(TFLC_OP_LSH_PROJECTION) == NULL);
  CHECK(tflc__opdef_find(-1) == NULL);
  CHECK(tflc__opdef_find(100000) == NULL);
}

/* TFLC__SELECTED(code): a constant expression, true for exactly the listed
 * codes, however large; tflc_op_info says the same for every row */
typedef char selection_is_a_constant_expression
    [TFLC__SELECTED(TFLC_OP_SELECT_FAR_TEST) &&
             !TFLC__SELECTED(TFLC_OP_SELECT_FAR_TEST - 1)
         ? 1
         : -1];
static void test_selection_has_no_cap(void) {
  tflc_op_info info;
  int32_t code, compiled = 0;
  CHECK(TFLC__SELECTED(TFLC_OP_SELECT_FAR_TEST));
  CHECK(!TFLC__SELECTED(TFLC_OP_SELECT_FAR_TEST + 1));
  CHECK(!TFLC__SELECTED(304));
  CHECK(TFLC__SELECTED(TFLC_OP_SignalWindow));
  CHECK(TFLC__SELECTED(TFLC_OP_CIRCULAR_BUFFER));
  CHECK(!TFLC__SELECTED(TFLC_OP_SignalStacker));
  CHECK(!TFLC__SELECTED(TFLC_OP_UNKNOWN_CUSTOM));
  /* SignalWindow is the row with the highest code */
  CHECK_EQ_INT(tflc__opdefs[TFLC__NUM_DEFS - 1].code, TFLC_OP_SignalWindow);
  for (code = -1; code <= TFLC_OP_SELECT_FAR_TEST + 1; code++) {
    if (!tflc_op_info_get(code, &info) || info.status != TFLC_OP_COMPILED)
      continue;
    compiled++;
    CHECK(code == TFLC_OP_ADD || code == TFLC_OP_TFLM_DECODE ||
          code == TFLC_OP_CIRCULAR_BUFFER || code == TFLC_OP_SignalWindow);
  }
  CHECK_EQ_INT(compiled, 4);
  CHECK(tflc__opdef_find(TFLC_OP_SignalWindow) != NULL &&
        tflc__op_compiled(tflc__opdef_find(TFLC_OP_SignalWindow)));
  CHECK(tflc__opdef_find(TFLC_OP_SignalStacker) != NULL &&
        !tflc__op_compiled(tflc__opdef_find(TFLC_OP_SignalStacker)));
}

int main(void) {
  RUN(test_selected);
  RUN(test_rows_in_code_order);
  RUN(test_selection_has_no_cap);
  return harness_report();
}

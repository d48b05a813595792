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
#define TFLC_WRITER_IMPLEMENTATION
#include "../tflc.h"
#include "harness.h"

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
  FILE *f;
  uint8_t *buf;
  long n;
  snprintf(path, sizeof path, "%s/%s", shared ? shared : "../shared", rel);
  f = fopen(path, "rb");
  if (!f)
    return NULL;
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  buf = (uint8_t *)malloc((size_t)n + 1); /* 16-aligned on the hosts */
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return buf;
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

int main(void) {
  RUN(test_reset_needs_an_interpreter);
  RUN(test_dtln_ten_invokes_with_reset);
  return harness_report();
}

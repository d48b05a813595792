/* tests/test_check.c - `tflc check` flags each departure from the int8
 * quantization spec in a model that has one of each, and each operator the
 * runtime cannot run; a clean model has no finding. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#endif
#include "../tflc_write.h"
#include "harness.h"
#include "models.h"

#include <stdlib.h>

#include "../examples/cmd_check.h"

/* bad = bit mask of the violations to put in */
enum {
  BAD_WZP = 1,      /* conv weights zero point 3 */
  BAD_W128 = 2,     /* conv weights hold -128 */
  BAD_AXIS = 4,     /* conv weights per-axis on dimension 3 */
  BAD_BIAS = 8,     /* conv bias scale != in * w */
  BAD_SOFTMAX = 16, /* softmax output (1/128, 0) */
  BAD_POOL = 32,    /* max pool output quantization differs */
  BAD_FC_AXIS = 64, /* fully connected weights per-axis */
  BAD_OP = 128      /* an operator tflc does not run */
};

static size_t build(unsigned bad, uint8_t **out) {
  tflc_writer *w = tflc_writer_create();
  static const int32_t d_in[4] = {1, 4, 4, 4}, d_w[4] = {4, 1, 1, 4};
  static const int32_t d_b[1] = {4}, d_p[4] = {1, 2, 2, 4}, d_f[2] = {1, 16};
  static const int32_t d_fw[2] = {3, 16}, d_o[2] = {1, 3}, d_s[1] = {2};
  static const int32_t shape[2] = {1, 16}, d_b3[1] = {3};
  int8_t wts[16], fw[48];
  int32_t bias[4] = {1, 2, 3, 4}, fb[3] = {0, 0, 0}, t[16], io[3], i;
  float s_in = 0.5f, s_w[4] = {0.1f, 0.1f, 0.1f, 0.1f}, s_b[4], s_c = 0.25f;
  float s_p = 0.25f, s_fw[3] = {0.2f, 0.2f, 0.2f}, s_fb[3], s_fo = 0.1f;
  float s_sm = 1.0f / 256;
  int64_t z0 = 0, z_w[4] = {0, 0, 0, 0}, z_sm = -128;
  tflc_w_quant q;
  tflc_w_option o[6];
  size_t n;
  for (i = 0; i < 16; i++)
    wts[i] = (int8_t)(i - 8);
  for (i = 0; i < 48; i++)
    fw[i] = (int8_t)(i % 7 - 3);
  if (bad & BAD_W128)
    wts[5] = -128;
  if (bad & BAD_WZP)
    z_w[0] = 3;
  for (i = 0; i < 4; i++)
    s_b[i] = s_in * s_w[i] * ((bad & BAD_BIAS) && i == 2 ? 2.0f : 1.0f);
  for (i = 0; i < 3; i++)
    s_fb[i] = s_p * s_fw[i];
  if (bad & BAD_POOL)
    s_p = 0.3f;
  if (bad & BAD_SOFTMAX) {
    s_sm = 1.0f / 128;
    z_sm = 0;
  }
  memset(&q, 0, sizeof q);
  q.count = 1;
  q.scale = &s_in;
  q.zero_point = &z0;
  t[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, d_in, NULL, 0, "in", &q);
  q.count = 4;
  q.scale = s_w;
  q.zero_point = z_w;
  q.axis = (bad & BAD_AXIS) ? 3 : 0;
  t[1] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, d_w, wts, sizeof wts, "w", &q);
  q.axis = 0;
  q.scale = s_b;
  q.zero_point = NULL;
  t[2] =
      tflc_writer_tensor(w, 0, TFLC_INT32, 1, d_b, bias, sizeof bias, "b", &q);
  q.count = 1;
  q.scale = &s_c;
  q.zero_point = &z0;
  t[3] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, d_in, NULL, 0, "conv", &q);
  q.scale = &s_p;
  t[4] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, d_p, NULL, 0, "pool", &q);
  t[5] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, d_s, shape, sizeof shape,
                            "shape", NULL);
  t[6] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d_f, NULL, 0, "flat", &q);
  q.count = (bad & BAD_FC_AXIS) ? 3 : 1;
  q.scale = s_fw;
  q.zero_point = NULL;
  t[7] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d_fw, fw, sizeof fw, "fw", &q);
  q.scale = s_fb;
  t[8] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, d_b3, fb, sizeof fb, "fb", &q);
  q.count = 1;
  q.scale = &s_fo;
  q.zero_point = &z0;
  t[9] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d_o, NULL, 0, "logits", &q);
  q.scale = &s_sm;
  q.zero_point = &z_sm;
  t[10] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d_o, NULL, 0, "probs", &q);
  t[11] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d_o, NULL, 0, "extra", &q);
  o[0] = opt_u8(0, 1);
  o[1] = opt_i32(1, 1);
  o[2] = opt_i32(2, 1);
  io[0] = t[0], io[1] = t[1], io[2] = t[2];
  tflc_writer_op(w, 0, 3, NULL, 3, io, 1, &t[3], 1, 3, o);
  o[0] = opt_u8(0, 1);
  o[1] = opt_i32(1, 2);
  o[2] = opt_i32(2, 2);
  o[3] = opt_i32(3, 2);
  o[4] = opt_i32(4, 2);
  tflc_writer_op(w, 0, 17, NULL, 1, &t[3], 1, &t[4], 5, 5, o);
  io[0] = t[4], io[1] = t[5];
  tflc_writer_op(w, 0, 22, NULL, 2, io, 1, &t[6], 0, 0, NULL);
  io[0] = t[6], io[1] = t[7], io[2] = t[8];
  tflc_writer_op(w, 0, 9, NULL, 3, io, 1, &t[9], 0, 0, NULL);
  o[0] = opt_u8(0, 0);
  o[0].kind = TFLC_W_F32;
  o[0].f = 1.0f; /* beta */
  tflc_writer_op(w, 0, 25, NULL, 1, &t[9], 1, &t[10], 9, 1, o);
  if (bad & BAD_OP) /* a custom operator nobody registered */
    tflc_writer_op(w, 0, 32, "MY_CUSTOM_OP", 1, &t[10], 1, &t[11], 0, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &t[0]);
  tflc_writer_outputs(w, 0, 1, (bad & BAD_OP) ? &t[11] : &t[10]);
  if (tflc_writer_finish(w, out, &n) != TFLC_OK)
    n = 0;
  tflc_writer_destroy(w);
  return n;
}

/* Runs the checker; returns its count and the text in buf. */
static int check(unsigned bad, char *buf, size_t cap) {
  uint8_t *b;
  size_t n = build(bad, &b), got;
  tflc_model m;
  FILE *f = tmpfile();
  int count;
  if (!n || !f || tflc_model_init(&m, b, n) != TFLC_OK) {
    if (f)
      fclose(f);
    return -1;
  }
  count = check_model(&m, f, 0);
  rewind(f);
  got = fread(buf, 1, cap - 1, f);
  buf[got] = 0;
  fclose(f);
  free(b);
  return count;
}

static void test_clean(void) {
  char buf[4096];
  CHECK_EQ_INT(check(0, buf, sizeof buf), 0);
  if (buf[0])
    fprintf(stderr, "%s", buf);
}

static void test_each_violation(void) {
  static const struct {
    unsigned bad;
    const char *want;
  } cases[] = {
      {BAD_WZP, "op 0 CONV_2D: quantization: weights tensor 1: zero point 3"},
      {BAD_W128, "op 0 CONV_2D: range: weights tensor 1: value -128"},
      {BAD_AXIS, "op 0 CONV_2D: granularity: weights tensor 1: per-axis on "
                 "dimension 3, spec: 0"},
      {BAD_BIAS, "op 0 CONV_2D: quantization: bias tensor 2: scale"},
      {BAD_SOFTMAX, "op 4 SOFTMAX: quantization: output tensor 10"},
      {BAD_SOFTMAX, "op 4 SOFTMAX: unsupported:"}, /* TFLM refuses it too */
      {BAD_POOL, "op 1 MAX_POOL_2D: quantization: input tensor 3"},
      {BAD_FC_AXIS, "op 3 FULLY_CONNECTED: granularity: weights tensor 7: 3 "
                    "scales (per-axis), spec: per-tensor"},
      {BAD_OP, "op 5 CUSTOM MY_CUSTOM_OP: unsupported:"},
  };
  char buf[8192];
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int n = check(cases[i].bad, buf, sizeof buf);
    CHECK(n >= 1);
    CHECK(strstr(buf, cases[i].want) != NULL);
    if (!strstr(buf, cases[i].want))
      fprintf(stderr, "  wanted \"%s\" in:\n%s", cases[i].want, buf);
  }
  /* all at once: every one is reported */
  {
    int n = check(0xFFu, buf, sizeof buf);
    CHECK(n >= 9);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
      CHECK(strstr(buf, cases[i].want) != NULL);
  }
}

int main(void) {
  RUN(test_clean);
  RUN(test_each_violation);
  return harness_report();
}

/* tests/test_int8_only.c - a firmware build with person_detect's operators
 * (TFLC_OPS) and their int8 kernels only (TFLC_INT8_ONLY): person_detect
 * still gives TFLM's bytes, the same operators with float32 or int16
 * tensors are refused at init with a clear message, and the int8 form of
 * each refused model runs. */
#define TFLC_OPS(X)                                                            \
  X(AVERAGE_POOL_2D) X(CONV_2D) X(DEPTHWISE_CONV_2D) X(RESHAPE) X(SOFTMAX)
#define TFLC_INT8_ONLY
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "../tflc_write.h"
#include "harness.h"
#include "models.h"

#include <stdlib.h>
#include <string.h>

/* person_detect's conformance case: TFLM's output bytes */
static void test_person_detect(void) {
  static uint8_t arena[256 * 1024] __attribute__((aligned(16)));
  const char *dir = "../shared/conformance/models/person_detect/person";
  char path[256];
  uint8_t *model, *input, *expect;
  size_t nm, ni, ne;
  tflc_model m;
  tflc_interpreter it;
  snprintf(path, sizeof path, "%s/model.tflite", dir);
  model = read_file(path, &nm);
  snprintf(path, sizeof path, "%s/input_0.bin", dir);
  input = read_file(path, &ni);
  snprintf(path, sizeof path, "%s/output_0.bin", dir);
  expect = read_file(path, &ne);
  if (model && input && expect) {
    CHECK_EQ_INT(tflc_model_init(&m, model, nm), TFLC_OK);
    CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
                 TFLC_OK);
    CHECK(tflc_input(&it, 0) && tflc_input(&it, 0)->bytes == ni);
    if (tflc_input(&it, 0) && tflc_input(&it, 0)->bytes == ni) {
      memcpy(tflc_input(&it, 0)->data, input, ni);
      CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
      CHECK(tflc_output(&it, 0)->bytes == ne);
      CHECK(memcmp(tflc_output(&it, 0)->data, expect, ne) == 0);
    }
  } else {
    printf("person_detect not found under %s: skipped\n", dir);
  }
  free(model);
  free(input);
  free(expect);
}

/* One operator from input type `ti` to output type `to` (4-D, [1,4,4,4]);
 * `filter`: CONV_2D / DEPTHWISE_CONV_2D get a constant 1x1 filter (int8,
 * or float32 when the input is float32) and no bias. */
static op_result run_typed(int32_t code, int ti, int to, float out_scale,
                           int64_t out_zp) {
  static const int32_t d[4] = {1, 4, 4, 4}, fd[4] = {4, 1, 1, 4};
  static const int8_t f8[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
  static const float f32[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
  static uint8_t in_data[64 * 4], out_data[64 * 4];
  const void *feeds[1] = {in_data};
  void *outs[1] = {out_data};
  op_spec s = op_spec_of(code, 0);
  s.nin = 1;
  s.in[0] = tensor_shape(ti, 4, d);
  if (ti != TFLC_FLOAT32)
    s.in[0] = tensor_quant(s.in[0], 0.5f, 0);
  if (code == TFLC_OP_CONV_2D || code == TFLC_OP_DEPTHWISE_CONV_2D) {
    s.nin = 2;
    s.in[1] = ti == TFLC_FLOAT32
                  ? tensor_const(TFLC_FLOAT32, 4, fd, f32, sizeof f32)
                  : tensor_quant(tensor_const(TFLC_INT8, 4, fd, f8, sizeof f8),
                                 0.25f, 0);
    s.opt_type = 1; /* Conv2DOptions: stride_w, stride_h 1 */
    s.nopts = 2;
    s.opts[0] = opt_i32(1, 1);
    s.opts[1] = opt_i32(2, 1);
    if (code == TFLC_OP_DEPTHWISE_CONV_2D) { /* [1, 1, 1, 4] x multiplier 1 */
      s.in[1].dims[0] = 1;
      s.in[1].dims[3] = 4;
      s.in[1].size = ti == TFLC_FLOAT32 ? 4 * sizeof(float) : 4;
      s.opt_type = 2;
      s.nopts = 3;
      s.opts[2] = opt_i32(3, 1); /* depth_multiplier */
    }
  }
  if (code == TFLC_OP_AVERAGE_POOL_2D) { /* 1x1 window, stride 1 */
    s.opt_type = 5;
    s.nopts = 4;
    s.opts[0] = opt_i32(1, 1);
    s.opts[1] = opt_i32(2, 1);
    s.opts[2] = opt_i32(3, 1);
    s.opts[3] = opt_i32(4, 1);
  }
  if (code == TFLC_OP_SOFTMAX) {
    s.opt_type = 9;
    s.nopts = 1;
    s.opts[0] = opt_f32(0, 1.0f);
  }
  s.nout = 1;
  s.out[0] = tensor_shape(to, 4, d);
  if (to != TFLC_FLOAT32)
    s.out[0] = tensor_quant(s.out[0], out_scale, out_zp);
  memset(in_data, 0, sizeof in_data);
  return run_op_model(&s, feeds, outs);
}

static void test_other_types_refused(void) {
  op_result r;
  /* int8: runs */
  r = run_typed(TFLC_OP_SOFTMAX, TFLC_INT8, TFLC_INT8, 1.0f / 256, -128);
  CHECK_EQ_INT(op_result_status(&r), TFLC_OK);
  r = run_typed(TFLC_OP_AVERAGE_POOL_2D, TFLC_INT8, TFLC_INT8, 0.5f, 0);
  CHECK_EQ_INT(op_result_status(&r), TFLC_OK);
  r = run_typed(TFLC_OP_CONV_2D, TFLC_INT8, TFLC_INT8, 1.0f, 0);
  CHECK_EQ_INT(op_result_status(&r), TFLC_OK);
  r = run_typed(TFLC_OP_DEPTHWISE_CONV_2D, TFLC_INT8, TFLC_INT8, 1.0f, 0);
  CHECK_EQ_INT(op_result_status(&r), TFLC_OK);
  /* float32 and int16: refused at init, naming the tensor and the option */
  r = run_typed(TFLC_OP_SOFTMAX, TFLC_FLOAT32, TFLC_FLOAT32, 0, 0);
  CHECK_EQ_INT(r.build, TFLC_OK);
  CHECK_EQ_INT(r.init, TFLC_ERR_UNSUPPORTED);
  CHECK(strcmp(r.err, "op 0 SOFTMAX: float32 tensor 0 not compiled in "
                      "(TFLC_NO_FLOAT32)") == 0);
  r = run_typed(TFLC_OP_SOFTMAX, TFLC_INT8, TFLC_INT16, 1.0f / 65536, -32768);
  CHECK_EQ_INT(r.init, TFLC_ERR_UNSUPPORTED);
  CHECK(strcmp(r.err, "op 0 SOFTMAX: int16 tensor 1 not compiled in "
                      "(TFLC_NO_INT16)") == 0);
  r = run_typed(TFLC_OP_SOFTMAX, TFLC_INT16, TFLC_INT16, 1.0f / 32768, 0);
  CHECK_EQ_INT(r.init, TFLC_ERR_UNSUPPORTED);
  CHECK(strstr(r.err, "int16 tensor 0 not compiled in") != NULL);
  r = run_typed(TFLC_OP_AVERAGE_POOL_2D, TFLC_INT16, TFLC_INT16, 0.5f, 0);
  CHECK_EQ_INT(r.init, TFLC_ERR_UNSUPPORTED);
  CHECK(strstr(r.err, "op 0 AVERAGE_POOL_2D: int16 tensor 0") == r.err);
  r = run_typed(TFLC_OP_AVERAGE_POOL_2D, TFLC_FLOAT32, TFLC_FLOAT32, 0, 0);
  CHECK_EQ_INT(r.init, TFLC_ERR_UNSUPPORTED);
  CHECK(strstr(r.err, "op 0 AVERAGE_POOL_2D: float32 tensor 0") == r.err);
  r = run_typed(TFLC_OP_CONV_2D, TFLC_FLOAT32, TFLC_FLOAT32, 0, 0);
  CHECK_EQ_INT(r.init, TFLC_ERR_UNSUPPORTED);
  CHECK(strstr(r.err, "op 0 CONV_2D: float32 tensor 0") == r.err);
  r = run_typed(TFLC_OP_CONV_2D, TFLC_INT16, TFLC_INT16, 1.0f, 0);
  CHECK_EQ_INT(r.init, TFLC_ERR_UNSUPPORTED);
  CHECK(strstr(r.err, "op 0 CONV_2D: int16 tensor 0") == r.err);
  r = run_typed(TFLC_OP_DEPTHWISE_CONV_2D, TFLC_INT16, TFLC_INT16, 1.0f, 0);
  CHECK_EQ_INT(r.init, TFLC_ERR_UNSUPPORTED);
  CHECK(strstr(r.err, "op 0 DEPTHWISE_CONV_2D: int16 tensor 0") == r.err);
  r = run_typed(TFLC_OP_DEPTHWISE_CONV_2D, TFLC_FLOAT32, TFLC_FLOAT32, 0, 0);
  CHECK_EQ_INT(r.init, TFLC_ERR_UNSUPPORTED);
  CHECK(strstr(r.err, "op 0 DEPTHWISE_CONV_2D: float32 tensor 0") == r.err);
  /* an operator left out of TFLC_OPS: still "not compiled in" */
  r = run_typed(TFLC_OP_MAX_POOL_2D, TFLC_INT8, TFLC_INT8, 0.5f, 0);
  CHECK_EQ_INT(r.init, TFLC_ERR_UNSUPPORTED);
  CHECK(strstr(r.err, "op 0 MAX_POOL_2D: not compiled in") == r.err);
}

/* the pooling check |(double)a - (double)b| > 1e-6, computed without
 * double arithmetic, against the double expression: random pairs (any
 * bits, near scales, differences around 1e-6, far exponents, specials) */
static float bits_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static void test_scales_differ(void) {
  static const uint32_t sp[] = {0,           0x80000000u, 0x7F800000u,
                                0xFF800000u, 0x7FC00000u, 1,
                                0x00800000u, 0x358637BDu /* 1e-6f */};
  int i;
  SWEEP_BEGIN();
  for (i = 0; i < 400000; i++) {
    uint32_t ua = rng(), ub = rng();
    float a, b;
    double ds;
    switch (i % 6) {
    case 1: /* neighbours */
      ub = ua + (rng() % 64) - 32;
      break;
    case 2: /* scales whose difference is near 1e-6 */
      ua = (ua & 0x807FFFFFu) | ((uint32_t)(127 - 25 + rng() % 16) << 23);
      a = bits_float(ua);
      b = a + (float)((double)(rng() % 2000) * 1e-9 - 1e-6);
      memcpy(&ub, &b, sizeof ub);
      if (rng() & 1)
        ub ^= rng() & 0x7u;
      break;
    case 3: /* far exponents, one of them near 1e-6 */
      ua = (ua & 0x807FFFFFu) | ((uint32_t)(127 - 20 + rng() % 2) << 23);
      ub = (ub & 0x807FFFFFu) | ((uint32_t)(rng() % 90) << 23);
      break;
    case 4:
      ua = sp[rng() % (sizeof sp / sizeof sp[0])];
      break;
    default:
      break;
    }
    a = bits_float(ua);
    b = bits_float(ub);
    ds = (double)a - (double)b;
    CHECK_EQ_INT(tflc__scales_differ(a, b), ds > 1e-6 || ds < -1e-6);
  }
  /* differences that round to 1e-6 itself or its neighbours: a near
   * 1e-6, b = a - 1e-6 (a float 2^-25 as large) give or take a few ulps */
  {
    int hits = 0, j, k, sgn;
    for (j = -64; j <= 64; j++)
      for (k = -24; k <= 24; k++)
        for (sgn = 0; sgn < 4; sgn++) {
          uint32_t ua, ub;
          float a, b, t;
          double ds;
          a = bits_float(0x358637BDu + (uint32_t)j);
          b = (float)((double)a - 1e-6);
          memcpy(&ub, &b, sizeof ub);
          ub += (uint32_t)k;
          b = bits_float(ub);
          if (sgn & 1) { /* both negated */
            memcpy(&ua, &a, sizeof ua);
            a = bits_float(ua ^ 0x80000000u);
            b = bits_float(ub ^ 0x80000000u);
          }
          if (sgn & 2) { /* swapped: the difference negated */
            t = a;
            a = b;
            b = t;
          }
          ds = (double)a - (double)b;
          hits += ds == 1e-6 || ds == -1e-6;
          CHECK_EQ_INT(tflc__scales_differ(a, b), ds > 1e-6 || ds < -1e-6);
        }
    SWEEP_END();
    CHECK(hits > 0); /* the boundary itself was reached */
  }
}

int main(void) {
  RUN(test_person_detect);
  RUN(test_other_types_refused);
  RUN(test_scales_differ);
  return harness_report();
}

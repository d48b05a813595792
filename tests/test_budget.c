/* tests/test_budget.c - tflc_compress_to_budget (tflc_write.h): the budget
 * parser, the search on small models the writer builds (the written model
 * stays within the budget when measured again, is smaller, and is the
 * same bytes on every run), labels, and the argument errors. */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "../tflc_write.h"
#include "harness.h"
#include "models.h"

#include <stdlib.h>
#include <string.h>

enum { IN = 32, HID = 24, OUT = 6, NS = 24 };

/* input int8 [1, IN] -> FC (RELU) [1, HID] -> FC [1, OUT], weights drawn
 * from the harness generator (many distinct values: binning changes them) */
static uint8_t *mlp_model(size_t *n) {
  tflc_writer *w = tflc_writer_create();
  int8_t w1[HID * IN], w2[OUT * HID];
  int32_t b1[HID], b2[OUT];
  int32_t din[2] = {1, IN}, dh[2] = {1, HID}, dout[2] = {1, OUT};
  int32_t dw1[2] = {HID, IN}, dw2[2] = {OUT, HID}, db1[1] = {HID},
          db2[1] = {OUT};
  int32_t x, k1, c1, h, k2, c2, y, i;
  uint8_t *bytes;
  tflc_w_option relu = opt_u8(0, 1), none = opt_u8(0, 0);
  for (i = 0; i < HID * IN; i++)
    w1[i] = (int8_t)((int32_t)(rng() % 255u) - 127);
  for (i = 0; i < OUT * HID; i++)
    w2[i] = (int8_t)((int32_t)(rng() % 255u) - 127);
  for (i = 0; i < HID; i++)
    b1[i] = (int32_t)(rng() % 2001u) - 1000;
  for (i = 0; i < OUT; i++)
    b2[i] = (int32_t)(rng() % 2001u) - 1000;
  x = add_tensor(w, TFLC_INT8, 2, din, NULL, 0, 0.02f, -3, "x");
  k1 = add_tensor(w, TFLC_INT8, 2, dw1, w1, sizeof w1, 0.01f, 0, "w1");
  c1 = add_tensor(w, TFLC_INT32, 1, db1, b1, sizeof b1, 0.0002f, 0, "b1");
  h = add_tensor(w, TFLC_INT8, 2, dh, NULL, 0, 0.05f, -128, "h");
  k2 = add_tensor(w, TFLC_INT8, 2, dw2, w2, sizeof w2, 0.01f, 0, "w2");
  c2 = add_tensor(w, TFLC_INT32, 1, db2, b2, sizeof b2, 0.0005f, 0, "b2");
  y = add_tensor(w, TFLC_INT8, 2, dout, NULL, 0, 0.1f, 0, "y");
  {
    int32_t in1[3] = {x, k1, c1}, in2[3] = {h, k2, c2};
    tflc_writer_op(w, 0, TFLC_OP_FULLY_CONNECTED, NULL, 3, in1, 1, &h, 8, 1,
                   &relu);
    tflc_writer_op(w, 0, TFLC_OP_FULLY_CONNECTED, NULL, 3, in2, 1, &y, 8, 1,
                   &none);
  }
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  bytes = finish_model(w, n);
  tflc_writer_destroy(w);
  return bytes;
}

static void test_parse(void) {
  tflc_budget b;
  char err[200];
  CHECK_EQ_INT(tflc_budget_parse("top1=99%,mean=0.01,max=0.5,drop=2%", &b, err,
                                 sizeof err),
               TFLC_OK);
  CHECK(fabs(b.top1 - 0.99) < 1e-12 && fabs(b.mean_abs - 0.01) < 1e-12);
  CHECK(fabs(b.max_abs - 0.5) < 1e-12 && fabs(b.acc_drop - 0.02) < 1e-12);
  CHECK_EQ_INT(tflc_budget_parse("agree=0.9", &b, err, sizeof err), TFLC_OK);
  CHECK(fabs(b.top1 - 0.9) < 1e-12 && b.mean_abs < 0 && b.max_abs < 0 &&
        b.acc_drop < 0);
  CHECK_EQ_INT(tflc_budget_parse("acc=1%", &b, NULL, 0), TFLC_OK);
  CHECK(fabs(b.acc_drop - 0.01) < 1e-12);
  CHECK_EQ_INT(tflc_budget_parse("", &b, err, sizeof err), TFLC_ERR_ARG);
  CHECK_EQ_INT(tflc_budget_parse("top=1", &b, err, sizeof err), TFLC_ERR_ARG);
  CHECK(strstr(err, "expected") != NULL);
  CHECK_EQ_INT(tflc_budget_parse("top1=x", &b, err, sizeof err), TFLC_ERR_ARG);
  CHECK_EQ_INT(tflc_budget_parse("top1=150%", &b, err, sizeof err),
               TFLC_ERR_ARG);
  CHECK_EQ_INT(tflc_budget_parse("mean=-1", &b, err, sizeof err), TFLC_ERR_ARG);
  CHECK_EQ_INT(tflc_budget_parse("max=1;", &b, err, sizeof err), TFLC_ERR_ARG);
  CHECK_EQ_INT(tflc_budget_parse("max=1", NULL, err, sizeof err), TFLC_ERR_ARG);
}

/* Runs `model` on every sample; the outputs one after another in y. */
static void run_all(const uint8_t *model, size_t n, const uint8_t *x,
                    int8_t *y) {
  static uint8_t arena[64 * 1024];
  tflc_model m;
  tflc_interpreter it;
  int32_t s;
  CHECK_EQ_INT(tflc_model_init(&m, model, n), TFLC_OK);
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
               TFLC_OK);
  for (s = 0; s < NS; s++) {
    memcpy(tflc_input(&it, 0)->data, x + s * IN, IN);
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
    memcpy(y + s * OUT, tflc_output(&it, 0)->data, OUT);
  }
}

static int32_t argmax8(const int8_t *v) {
  int32_t i, b = 0;
  for (i = 1; i < OUT; i++)
    if (v[i] > v[b])
      b = i;
  return b;
}

static void test_search(void) {
  size_t n, on = 0, on2 = 0;
  uint8_t *model = mlp_model(&n), *out = NULL, *out2 = NULL;
  uint8_t x[NS * IN];
  int8_t y0[NS * OUT], y1[NS * OUT];
  tflc_budget_options o;
  tflc_budget_report rep, rep2;
  int32_t s, i, agree = 0;
  double mx = 0;
  for (i = 0; i < NS * IN; i++)
    x[i] = (uint8_t)rng();
  memset(&o, 0, sizeof o);
  CHECK_EQ_INT(tflc_budget_parse("top1=90%,max=1.5", &o.budget, NULL, 0),
               TFLC_OK);
  o.samples = x;
  o.sample_bytes = IN;
  o.nsamples = NS;
  CHECK_EQ_INT(tflc_compress_to_budget(model, n, &o, &out, &on, &rep), TFLC_OK);
  CHECK(out != NULL && on > 0 && on < n);
  CHECK_EQ_INT(rep.ntensors, 2);
  CHECK(rep.nsteps >= 1 && rep.evaluations > rep.nsteps);
  CHECK(rep.final.top1 >= 0.9 && rep.final.max_abs <= 1.5 + 1e-9);
  CHECK(rep.in_size == n && rep.out_size == on && rep.seconds >= 0);
  for (i = 0; i < rep.ntensors; i++)
    CHECK(rep.tensors[i].bits == 0 ||
          (rep.tensors[i].bits >= 1 && rep.tensors[i].bits <= 7 &&
           rep.tensors[i].bytes_after < rep.tensors[i].bytes_before));
  /* measured here again: within the budget */
  run_all(model, n, x, y0);
  run_all(out, on, x, y1);
  for (s = 0; s < NS; s++) {
    agree += argmax8(y0 + s * OUT) == argmax8(y1 + s * OUT);
    for (i = 0; i < OUT; i++) {
      double d = fabs((double)(y1[s * OUT + i] - y0[s * OUT + i])) * 0.1;
      if (d > mx)
        mx = d;
    }
  }
  CHECK(agree >= (NS * 9 + 9) / 10);
  CHECK(fabs((double)agree / NS - rep.final.top1) < 1e-9);
  CHECK(mx <= 1.5 + 1e-6);
  CHECK(fabs(mx - rep.final.max_abs) < 1e-6);
  /* deterministic */
  CHECK_EQ_INT(tflc_compress_to_budget(model, n, &o, &out2, &on2, &rep2),
               TFLC_OK);
  CHECK(on2 == on && out2 && memcmp(out, out2, on) == 0);
  CHECK_EQ_INT(rep2.nsteps, rep.nsteps);
  free(out2);
  tflc_budget_report_free(&rep2);
  free(out);
  tflc_budget_report_free(&rep);
  CHECK(rep.tensors == NULL && rep.ntensors == 0);

  /* max=0: nothing may change the outputs */
  o.budget.top1 = -1;
  o.budget.max_abs = 0;
  CHECK_EQ_INT(tflc_compress_to_budget(model, n, &o, &out, &on, &rep), TFLC_OK);
  run_all(out, on, x, y1);
  CHECK(memcmp(y0, y1, sizeof y0) == 0);
  CHECK(rep.final.max_abs == 0);
  free(out);
  tflc_budget_report_free(&rep);

  /* labels: the original's answers, drop 0 -> accuracy stays 1 */
  {
    int32_t labels[NS];
    for (s = 0; s < NS; s++)
      labels[s] = argmax8(y0 + s * OUT);
    o.budget.max_abs = -1;
    o.budget.acc_drop = 0;
    o.labels = labels;
    o.prune = 1;
    CHECK_EQ_INT(tflc_compress_to_budget(model, n, &o, &out, &on, &rep),
                 TFLC_OK);
    CHECK(rep.baseline.accuracy == 1.0 && rep.final.accuracy == 1.0);
    CHECK(on < n);
    free(out);
    tflc_budget_report_free(&rep);
    o.labels = NULL;
    o.prune = 0;
  }

  /* errors */
  CHECK_EQ_INT(tflc_compress_to_budget(model, n, &o, &out, &on, &rep),
               TFLC_ERR_ARG); /* drop without labels */
  CHECK(strstr(rep.error, "labels") != NULL && out == NULL && on == 0);
  tflc_budget_report_free(&rep);
  o.budget.acc_drop = -1;
  o.sample_bytes = IN + 1;
  CHECK_EQ_INT(tflc_compress_to_budget(model, n, &o, &out, &on, &rep),
               TFLC_ERR_ARG);
  CHECK(strstr(rep.error, "bytes") != NULL);
  tflc_budget_report_free(&rep);
  o.sample_bytes = IN;
  o.min_bits = 9;
  CHECK_EQ_INT(tflc_compress_to_budget(model, n, &o, &out, &on, NULL),
               TFLC_ERR_ARG);
  o.min_bits = 0;
  CHECK_EQ_INT(tflc_compress_to_budget(NULL, n, &o, &out, &on, NULL),
               TFLC_ERR_ARG);
  CHECK_EQ_INT(tflc_compress_to_budget(model, n, NULL, &out, &on, NULL),
               TFLC_ERR_ARG);
  CHECK(tflc_compress_to_budget(model, 10, &o, &out, &on, NULL) != TFLC_OK);
  tflc_budget_report_free(NULL);
  free(model);
}

/* A model too small to pay for a TFLM_DECODE operator: no tensor changed,
 * every tensor reported as left alone, the file no larger. */
static void test_too_small(void) {
  tflc_writer *w = tflc_writer_create();
  int8_t k[4 * 4];
  int32_t d[2] = {1, 4}, dk[2] = {4, 4}, x, kt, y, i;
  uint8_t *model, *out = NULL, xs[4 * 4];
  size_t n, on = 0;
  tflc_budget_options o;
  tflc_budget_report rep;
  tflc_w_option none = opt_u8(0, 0);
  for (i = 0; i < 16; i++) {
    k[i] = (int8_t)(i * 13 - 100);
    xs[i] = (uint8_t)rng();
  }
  x = add_tensor(w, TFLC_INT8, 2, d, NULL, 0, 0.1f, 0, "x");
  kt = add_tensor(w, TFLC_INT8, 2, dk, k, sizeof k, 0.01f, 0, "k");
  y = add_tensor(w, TFLC_INT8, 2, d, NULL, 0, 0.5f, 0, "y");
  {
    int32_t in[3] = {x, kt, -1};
    tflc_writer_op(w, 0, TFLC_OP_FULLY_CONNECTED, NULL, 3, in, 1, &y, 8, 1,
                   &none);
  }
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  model = finish_model(w, &n);
  tflc_writer_destroy(w);
  memset(&o, 0, sizeof o);
  o.budget.top1 = o.budget.mean_abs = o.budget.acc_drop = -1;
  o.budget.max_abs = 100; /* anything goes */
  o.samples = xs;
  o.sample_bytes = 4;
  o.nsamples = 4;
  CHECK_EQ_INT(tflc_compress_to_budget(model, n, &o, &out, &on, &rep), TFLC_OK);
  CHECK(on <= n && out != NULL);
  CHECK_EQ_INT(rep.nsteps, 0);
  for (i = 0; i < rep.ntensors; i++)
    CHECK(rep.tensors[i].bits == 0 &&
          rep.tensors[i].bytes_after == rep.tensors[i].bytes_before);
  CHECK(rep.final.max_abs == 0);
  free(out);
  tflc_budget_report_free(&rep);
  free(model);
}

int main(void) {
  rng_seed(2222u);
  RUN(test_parse);
  RUN(test_search);
  RUN(test_too_small);
  return harness_report();
}

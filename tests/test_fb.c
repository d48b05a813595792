/* tests/test_fb.c - the flatbuffer walker and verifier: operator codes
 * (builtin_code vs deprecated_builtin_code), the TFL3 identifier, buffers
 * in the large-model offset/size form, and the compression metadata
 * checks where TFLM would silently run a model as uncompressed. */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "../tflc_write.h"
#include "harness.h"

#include <stdlib.h>

static uint8_t arena[64 * 1024];

/* y = x + c (int8, equal quantization), op code `code` (ADD unless told). */
static tflc_status build(unsigned flags, int compress_fmt, uint8_t **out,
                         size_t *n, const void *meta, size_t meta_n) {
  tflc_writer *w = tflc_writer_create();
  static const int32_t d[1] = {8};
  static const int8_t c[8] = {1, 2, 1, 2, 1, 2, 1, 2};
  float s = 0.5f;
  int64_t z = 0;
  int32_t t[3];
  tflc_w_quant q;
  tflc_status st = TFLC_OK;
  memset(&q, 0, sizeof q);
  q.scale = &s;
  q.zero_point = &z;
  q.count = 1;
  tflc_writer_set_flags(w, flags);
  t[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "x", &q);
  t[1] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, c, sizeof c, "c", &q);
  t[2] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "y", &q);
  tflc_writer_op(w, 0, 0, NULL, 2, t, 1, &t[2], 11, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &t[0]);
  tflc_writer_outputs(w, 0, 1, &t[2]);
  if (compress_fmt)
    st = tflc_writer_compress(w, 0, t[1], 1, compress_fmt, 0);
  if (meta)
    tflc_writer_metadata(w, "COMPRESSION_METADATA", meta, meta_n);
  if (st == TFLC_OK)
    st = tflc_writer_finish(w, out, n);
  tflc_writer_destroy(w);
  return st;
}

static tflc_status run(const uint8_t *b, size_t n, int8_t *y, char *err) {
  tflc_model m;
  tflc_interpreter it;
  tflc_status st = tflc_model_init(&m, b, n);
  int i;
  if (st) {
    strcpy(err, m.error);
    return st;
  }
  st = tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL);
  if (st) {
    strcpy(err, it.error);
    return st;
  }
  for (i = 0; i < 8; i++)
    ((int8_t *)tflc_input(&it, 0)->data)[i] = (int8_t)(i * 10);
  st = tflc_invoke(&it);
  memcpy(y, tflc_output(&it, 0)->data, 8);
  strcpy(err, it.error);
  return st;
}

static void expect_sum(const int8_t *y) {
  int i;
  for (i = 0; i < 8; i++)
    CHECK_EQ_INT(y[i], i * 10 + 1 + (i & 1));
}

static void test_codes_and_identifier(void) {
  uint8_t *b;
  size_t n;
  int8_t y[8];
  char err[TFLC_ERROR_LEN];
  tflc_model m;
  /* both code fields */
  CHECK_EQ_INT(build(0, 0, &b, &n, NULL, 0), TFLC_OK);
  CHECK_EQ_INT(run(b, n, y, err), TFLC_OK);
  expect_sum(y);
  CHECK(memcmp(b + 4, "TFL3", 4) == 0);
  CHECK_EQ_INT(tflc_model_init(&m, b, n), TFLC_OK);
  CHECK_EQ_INT(tflc_model_op_code(&m, 0, 0), 0);
  /* truncated anywhere: an error, never a crash (the data of the last
   * buffer is near the end, so every cut before it is refused) */
  {
    size_t cut, rejected = 0, tried = 0;
    for (cut = 0; cut + 16 < n; cut += 3, tried++)
      rejected += tflc_model_init(&m, b, cut) != TFLC_OK;
    CHECK_EQ_INT(rejected, tried);
  }
  free(b);
  /* only the deprecated byte (old converters) */
  CHECK_EQ_INT(build(TFLC_W_FLAG_ONLY_DEPRECATED_CODE, 0, &b, &n, NULL, 0),
               TFLC_OK);
  CHECK_EQ_INT(run(b, n, y, err), TFLC_OK);
  expect_sum(y);
  free(b);
  /* no identifier */
  CHECK_EQ_INT(build(TFLC_W_FLAG_NO_IDENTIFIER, 0, &b, &n, NULL, 0), TFLC_OK);
  CHECK_EQ_INT(tflc_model_init(&m, b, n), TFLC_ERR_IDENTIFIER);
  free(b);
  /* large-model buffers: Buffer.offset/size instead of Buffer.data */
  CHECK_EQ_INT(build(TFLC_W_FLAG_EXTERNAL_BUFFERS, 0, &b, &n, NULL, 0),
               TFLC_OK);
  CHECK_EQ_INT(run(b, n, y, err), TFLC_OK);
  expect_sum(y);
  /* ... and an offset pointing past the end is refused */
  CHECK_EQ_INT(tflc_model_init(&m, b, n - 4), TFLC_ERR_TRUNCATED);
  free(b);
}

/* A builtin code above 127 lives only in builtin_code, with the
 * deprecated byte at 127 (PLACEHOLDER_FOR_GREATER_OP_CODES). */
static void test_code_above_127(void) {
  tflc_writer *w = tflc_writer_create();
  static const int32_t d[1] = {2};
  int32_t t[2];
  uint8_t *b;
  size_t n;
  tflc_model m;
  t[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "x", NULL);
  t[1] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "y", NULL);
  tflc_writer_op(w, 0, 144, NULL, 1, t, 1, &t[1], 0, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &t[0]);
  tflc_writer_outputs(w, 0, 1, &t[1]);
  CHECK_EQ_INT(tflc_writer_finish(w, &b, &n), TFLC_OK);
  tflc_writer_destroy(w);
  CHECK_EQ_INT(tflc_model_init(&m, b, n), TFLC_OK);
  CHECK_EQ_INT(tflc_model_op_code(&m, 0, 0), 144);
  CHECK(strcmp(tflc_opcode_name(144), "ASSIGN_VARIABLE") == 0);
  free(b);
}

/* Compressed models in both formats load and report their compression. */
static void test_compressed_formats(void) {
  uint8_t *b;
  size_t n;
  int8_t y[8];
  char err[TFLC_ERROR_LEN];
  int fmt;
  for (fmt = TFLC_W_METADATA; fmt <= TFLC_W_DECODE; fmt++) {
    tflc_model m;
    tflc_const c;
    uint32_t stored = 0;
    int f = 0, k, found = 0;
    CHECK_EQ_INT(build(0, fmt, &b, &n, NULL, 0), TFLC_OK);
    CHECK_EQ_INT(run(b, n, y, err), TFLC_OK);
    expect_sum(y);
    CHECK_EQ_INT(tflc_model_init(&m, b, n), TFLC_OK);
    CHECK_EQ_INT(m.num_lut_tensors, 1);
    for (k = 0; k < tflc_model_num_tensors(&m, 0); k++)
      if (tflc_model_lut(&m, 0, k, &c, &stored, &f)) {
        found++;
        CHECK_EQ_INT(f, fmt);
        CHECK_EQ_INT(c.bits, 1);
        CHECK_EQ_INT(c.count, 8);
        CHECK_EQ_INT(c.channels, 1);
      }
    CHECK_EQ_INT(found, 1);
    free(b);
  }
}

/* Hand-made nested COMPRESSION_METADATA buffers that TFLM would skip
 * (verification failure, newer schema) and run the packed indices as
 * weights: tflc refuses them. */
static void test_bad_metadata_refused(void) {
  /* root at 12; vtable at 4 {8, 8, slot0 at 4}; table: soffset 8, version */
  static const uint8_t v2[20] = {12, 0, 0, 0, 8, 0, 8, 0, 4, 0,
                                 0,  0, 8, 0, 0, 0, 2, 0, 0, 0};
  static const uint8_t v1_empty[20] = {12, 0, 0, 0, 8, 0, 8, 0, 4, 0,
                                       0,  0, 8, 0, 0, 0, 1, 0, 0, 0};
  static const uint8_t garbage[16] = {200, 1, 2, 3, 4, 5, 6, 7,
                                      8,   9, 0, 0, 0, 0, 0, 0};
  uint8_t *b;
  size_t n;
  tflc_model m;
  CHECK_EQ_INT(build(0, 0, &b, &n, v2, sizeof v2), TFLC_OK);
  CHECK_EQ_INT(tflc_model_init(&m, b, n), TFLC_ERR_COMPRESSION);
  CHECK(strstr(m.error, "schema version 2") != NULL);
  free(b);
  CHECK_EQ_INT(build(0, 0, &b, &n, v1_empty, sizeof v1_empty), TFLC_OK);
  CHECK_EQ_INT(tflc_model_init(&m, b, n), TFLC_ERR_COMPRESSION);
  CHECK(strstr(m.error, "subgraph") != NULL);
  free(b);
  CHECK_EQ_INT(build(0, 0, &b, &n, garbage, sizeof garbage), TFLC_OK);
  CHECK_EQ_INT(tflc_model_init(&m, b, n), TFLC_ERR_COMPRESSION);
  CHECK(strstr(m.error, "root") != NULL);
  free(b);
  /* a second COMPRESSION_METADATA entry next to a real one */
  CHECK_EQ_INT(build(0, TFLC_W_METADATA, &b, &n, v1_empty, sizeof v1_empty),
               TFLC_OK);
  CHECK_EQ_INT(tflc_model_init(&m, b, n), TFLC_ERR_COMPRESSION);
  free(b);
}

static void test_status_strings(void) {
  int s;
  for (s = TFLC_OK; s <= TFLC_ERR_KERNEL; s++)
    CHECK(strcmp(tflc_status_str((tflc_status)s), "unknown status") != 0);
}

int main(void) {
  RUN(test_codes_and_identifier);
  RUN(test_code_above_127);
  RUN(test_compressed_formats);
  RUN(test_bad_metadata_refused);
  RUN(test_status_strings);
  return harness_report();
}

/* tests/test_fb.c - the flatbuffer walker and verifier: operator codes
 * (builtin_code vs deprecated_builtin_code), the TFL3 identifier, buffers
 * in the large-model offset/size form, and the compression metadata
 * checks where TFLM would silently run a model as uncompressed. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#endif
#include "../tflc_write.h"
#include "harness.h"

#include <stdio.h>
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

/* Position of the string s (with its length prefix) in b, or 0. */
static size_t find_str(const uint8_t *b, size_t n, const char *str) {
  size_t k, l = strlen(str);
  for (k = 4; k + l + 1 <= n; k++)
    if (b[k - 4] == l && !b[k - 3] && !b[k - 2] && !b[k - 1] &&
        !memcmp(b + k, str, l) && !b[k + l])
      return k - 4;
  return 0;
}
static tflc_status init_status(const uint8_t *b, size_t n, char *err) {
  tflc_model m;
  tflc_status st = tflc_model_init(&m, b, n);
  strcpy(err, m.error);
  return st;
}

/* Strings tflc never reads (the description, a metadata name) are checked
 * as the flatbuffers verifier checks them: inside the model and ended by
 * a NUL. */
static void test_unread_strings(void) {
  uint8_t *b, *c;
  size_t n, at;
  char err[TFLC_ERROR_LEN];
  static const char *const strs[2] = {"tflc", "zz_notes"};
  int k;
  tflc_writer *w;
  CHECK_EQ_INT(build(0, 0, &b, &n, NULL, 0), TFLC_OK);
  free(b);
  for (k = 0; k < 2; k++) {
    /* the demo model plus a metadata entry named zz_notes */
    w = tflc_writer_create();
    {
      static const int32_t d[1] = {8};
      int32_t t[2];
      t[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "x", NULL);
      t[1] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "y", NULL);
      tflc_writer_op(w, 0, 19, NULL, 1, t, 1, &t[1], 0, 0, NULL); /* RELU */
      tflc_writer_inputs(w, 0, 1, &t[0]);
      tflc_writer_outputs(w, 0, 1, &t[1]);
      tflc_writer_metadata(w, "zz_notes", "abc", 3);
      CHECK_EQ_INT(tflc_writer_finish(w, &b, &n), TFLC_OK);
      tflc_writer_destroy(w);
    }
    CHECK_EQ_INT(init_status(b, n, err), TFLC_OK);
    at = find_str(b, n, strs[k]);
    CHECK(at != 0);
    c = (uint8_t *)malloc(n);
    /* length past the end of the model: truncated */
    memcpy(c, b, n);
    c[at + 2] = 0x10;
    CHECK_EQ_INT(init_status(c, n, err), TFLC_ERR_TRUNCATED);
    CHECK(strstr(err, "offset") != NULL);
    /* no terminating NUL */
    memcpy(c, b, n);
    c[at + 4 + strlen(strs[k])] = 'x';
    CHECK_EQ_INT(init_status(c, n, err), TFLC_ERR_FLATBUFFER);
    CHECK(strstr(err, "NUL") != NULL);
    /* the string's offset misaligned */
    free(c);
    free(b);
  }
}

/* Every prefix of a model is refused, as truncated. */
static void test_truncation(void) {
  uint8_t *b, *c;
  size_t n, k, refused = 0, truncated = 0;
  char err[TFLC_ERROR_LEN];
  CHECK_EQ_INT(build(0, 0, &b, &n, NULL, 0), TFLC_OK);
  c = (uint8_t *)malloc(n);
  for (k = 8; k < n; k++) {
    tflc_status st;
    memcpy(c, b, k); /* a copy of exactly k bytes: ASan sees reads past */
    st = init_status(c, k, err);
    refused += st != TFLC_OK;
    truncated += st == TFLC_ERR_TRUNCATED;
    if (st != TFLC_ERR_TRUNCATED && st != TFLC_OK)
      printf("  prefix %u: %s: %s\n", (unsigned)k, tflc_status_str(st), err);
  }
  /* (trailing padding may go unmissed: the model never refers to it) */
  CHECK(refused + 8 >= n - 8);
  CHECK_EQ_INT((int)truncated, (int)refused);
  free(c);
  free(b);
}

/* Model.version: TFLM runs version 3 only. */
static void test_version(void) {
  uint8_t *b;
  size_t n;
  uint32_t root, vt, fo;
  char err[TFLC_ERROR_LEN];
  int v;
  CHECK_EQ_INT(build(0, 0, &b, &n, NULL, 0), TFLC_OK);
  root = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16;
  vt = root - (uint32_t)(b[root] | b[root + 1] << 8);
  fo = (uint32_t)(b[vt + 4] | b[vt + 5] << 8);
  CHECK(fo != 0);
  CHECK_EQ_INT(b[root + fo], 3);
  for (v = 0; v <= 4; v++) {
    b[root + fo] = (uint8_t)v;
    CHECK_EQ_INT(init_status(b, n, err),
                 v == 3 ? TFLC_OK : TFLC_ERR_UNSUPPORTED);
  }
  free(b);
}

/* Per-channel quantization: as many scales as the quantized dimension. */
static void test_channel_counts(void) {
  static const int32_t d[2] = {8, 2};
  static const int8_t c[16] = {0};
  static const float sc[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  static const int64_t zp[8] = {0};
  static const int32_t counts[4] = {8, 5, 2, 1};
  char err[TFLC_ERROR_LEN];
  int k;
  for (k = 0; k < 4; k++) {
    tflc_writer *w = tflc_writer_create();
    tflc_w_quant q, qc;
    int32_t t[3];
    uint8_t *b;
    size_t n;
    float s = 0.5f;
    int64_t z = 0;
    memset(&q, 0, sizeof q);
    q.scale = &s;
    q.zero_point = &z;
    q.count = 1;
    memset(&qc, 0, sizeof qc);
    qc.scale = sc;
    qc.zero_point = zp;
    qc.count = counts[k];
    qc.axis = 0;
    t[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d, NULL, 0, "x", &q);
    t[1] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d, c, sizeof c, "c", &qc);
    t[2] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, d, NULL, 0, "y", &q);
    tflc_writer_op(w, 0, 0, NULL, 2, t, 1, &t[2], 11, 0, NULL);
    tflc_writer_inputs(w, 0, 1, &t[0]);
    tflc_writer_outputs(w, 0, 1, &t[2]);
    CHECK_EQ_INT(tflc_writer_finish(w, &b, &n), TFLC_OK);
    tflc_writer_destroy(w);
    /* 8 channels on axis 0: 8 scales or 1, never 5 or 2 */
    CHECK_EQ_INT(init_status(b, n, err),
                 counts[k] == 8 || counts[k] == 1 ? TFLC_OK : TFLC_ERR_QUANT);
    free(b);
  }
}

/* Names: every schema tensor type and the operators once shown as
 * "BUILTIN (code N)"; MUL's message names the three types it refuses. */
static void test_names(void) {
  static const char *const types[18] = {
      "FLOAT32", "FLOAT16",  "INT32",     "UINT8",  "INT64",   "STRING",
      "BOOL",    "INT16",    "COMPLEX64", "INT8",   "FLOAT64", "COMPLEX128",
      "UINT64",  "RESOURCE", "VARIANT",   "UINT32", "UINT16",  "INT4"};
  int k;
  for (k = 0; k < 18; k++)
    CHECK(strcmp(tflc_type_name(k), types[k]) == 0);
  CHECK(strcmp(tflc_type_name(18), "BFLOAT16") == 0);
  CHECK(strcmp(tflc_type_name(19), "UNKNOWN") == 0);
  CHECK(strcmp(tflc_opcode_name(53), "CAST") == 0);
  CHECK(strcmp(tflc_opcode_name(42), "DIV") == 0);
  {
    static const int32_t d[1] = {8};
    tflc_writer *w = tflc_writer_create();
    tflc_w_quant q;
    float sc = 0.5f;
    int64_t z = 0;
    int32_t t[3];
    uint8_t *b;
    size_t n;
    tflc_model m;
    tflc_interpreter it;
    memset(&q, 0, sizeof q);
    q.scale = &sc;
    q.zero_point = &z;
    q.count = 1;
    t[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "a", &q);
    t[1] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "b", &q);
    t[2] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, d, NULL, 0, "y", &q);
    tflc_writer_op(w, 0, 18, NULL, 2, t, 1, &t[2], 21, 0, NULL); /* MUL */
    tflc_writer_inputs(w, 0, 2, t);
    tflc_writer_outputs(w, 0, 1, &t[2]);
    CHECK_EQ_INT(tflc_writer_finish(w, &b, &n), TFLC_OK);
    tflc_writer_destroy(w);
    CHECK_EQ_INT(tflc_model_init(&m, b, n), TFLC_OK);
    CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
                 TFLC_ERR_UNSUPPORTED);
    CHECK(strstr(it.error, "types INT8 * INT8 -> INT32") != NULL);
    if (!strstr(it.error, "types INT8 * INT8 -> INT32"))
      printf("  MUL message: %s\n", it.error);
    free(b);
  }
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
  RUN(test_unread_strings);
  RUN(test_truncation);
  RUN(test_version);
  RUN(test_channel_counts);
  RUN(test_names);
  RUN(test_status_strings);
  return harness_report();
}

/* demo.c - `make demo`: a keyword-spotting-shaped int8 CNN, written by the
 * model writer plain and LUT-compressed (both formats), run side by side.
 *
 *   build/demo               build the network, write build/demo_*.tflite,
 *                            run all three, compare outputs
 *   build/demo MODEL.tflite  run a given model (random input) instead
 *
 * Prints model sizes, the arena each needs, the median time per invoke,
 * and whether the outputs are identical. */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "../tflc_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ITERS 200

static uint32_t rng = 0xDECAFu;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}
static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}
static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static tflc_w_option opt(uint8_t slot, uint8_t kind, int32_t i, float f) {
  tflc_w_option o;
  memset(&o, 0, sizeof o);
  o.slot = slot;
  o.kind = kind;
  o.i = i;
  o.f = f;
  return o;
}

/* input [1,49,40,1] -> CONV 8x10x8 /2 RELU -> DEPTHWISE 3x3 RELU ->
 * RESHAPE [1,4000] -> FULLY_CONNECTED 12 -> SOFTMAX (micro_speech-like).
 * Every weight channel holds 4 distinct values (2-bit LUT indices). */
static uint8_t *build(int format, size_t *size) {
  static const int32_t in_d[4] = {1, 49, 40, 1}, cw_d[4] = {8, 10, 8, 1};
  static const int32_t c_d[4] = {1, 25, 20, 8}, dw_d[4] = {1, 3, 3, 8};
  static const int32_t r_d[2] = {1, 4000};
  static const int32_t fw_d[2] = {12, 4000}, o_d[2] = {1, 12}, b8[1] = {8};
  static const int32_t b12[1] = {12}, sh_d[1] = {2}, sh_v[2] = {1, 4000};
  static int8_t fw[48000];
  int8_t cw[640], dw[72];
  int32_t cb[8], dwb[8], fb[12], t[14], io[3], i;
  float s_in = 0.1f, s_c = 0.05f, s_dw = 0.05f, s_fc = 0.2f, s_sm = 1.0f / 256;
  float cws[8], cbs[8], dws[8], dbs[8], fws = 0.01f, fbs = 0.05f * 0.01f;
  int64_t z_in = -128, z_c = -128, z_fc = 0, z_sm = -128;
  tflc_w_quant q;
  tflc_w_option o[6];
  tflc_writer *w = tflc_writer_create();
  uint8_t *out = NULL;
  rng = 0xDECAFu;
  for (i = 0; i < 8; i++) {
    cws[i] = 0.004f + 0.0005f * (float)i;
    cbs[i] = s_in * cws[i];
    dws[i] = 0.01f + 0.001f * (float)i;
    dbs[i] = s_c * dws[i];
    cb[i] = (int32_t)(rnd() % 64) - 32;
    dwb[i] = (int32_t)(rnd() % 64) - 16;
  }
  for (i = 0; i < 640; i++) /* 4 levels per output channel (row of 80) */
    cw[i] = (int8_t)((int32_t)(rnd() % 4) * 40 - 60 + i / 80);
  for (i = 0; i < 72; i++) /* 4 levels per channel on the last axis */
    dw[i] = (int8_t)((int32_t)(rnd() % 4) * 30 - 45 + i % 8);
  for (i = 0; i < 48000; i++) /* 4 levels in the whole tensor */
    fw[i] = (int8_t)((int32_t)(rnd() % 4) * 50 - 75);
  for (i = 0; i < 12; i++)
    fb[i] = (int32_t)(rnd() % 4) * 25 - 40;
  memset(&q, 0, sizeof q);
  q.count = 1;
  q.scale = &s_in;
  q.zero_point = &z_in;
  t[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, in_d, NULL, 0, "features", &q);
  q.count = 8;
  q.zero_point = NULL;
  q.scale = cws;
  t[1] =
      tflc_writer_tensor(w, 0, TFLC_INT8, 4, cw_d, cw, sizeof cw, "conv_w", &q);
  q.scale = cbs;
  t[2] =
      tflc_writer_tensor(w, 0, TFLC_INT32, 1, b8, cb, sizeof cb, "conv_b", &q);
  q.scale = dws;
  q.axis = 3;
  t[4] =
      tflc_writer_tensor(w, 0, TFLC_INT8, 4, dw_d, dw, sizeof dw, "dw_w", &q);
  q.scale = dbs;
  q.axis = 0;
  t[5] =
      tflc_writer_tensor(w, 0, TFLC_INT32, 1, b8, dwb, sizeof dwb, "dw_b", &q);
  q.count = 1;
  q.scale = &s_c;
  q.zero_point = &z_c;
  t[3] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, c_d, NULL, 0, "conv", &q);
  q.scale = &s_dw;
  t[6] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, c_d, NULL, 0, "dw", &q);
  t[8] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, sh_d, sh_v, sizeof sh_v,
                            "shape", NULL);
  t[9] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, r_d, NULL, 0, "flat", &q);
  q.scale = &fws;
  q.zero_point = NULL;
  t[10] =
      tflc_writer_tensor(w, 0, TFLC_INT8, 2, fw_d, fw, sizeof fw, "fc_w", &q);
  q.scale = &fbs;
  t[11] =
      tflc_writer_tensor(w, 0, TFLC_INT32, 1, b12, fb, sizeof fb, "fc_b", &q);
  q.scale = &s_fc;
  q.zero_point = &z_fc;
  t[12] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, o_d, NULL, 0, "logits", &q);
  q.scale = &s_sm;
  q.zero_point = &z_sm;
  t[13] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, o_d, NULL, 0, "scores", &q);
  o[0] = opt(0, TFLC_W_U8, 0, 0); /* SAME */
  o[1] = opt(1, TFLC_W_I32, 2, 0);
  o[2] = opt(2, TFLC_W_I32, 2, 0);
  o[3] = opt(3, TFLC_W_U8, 1, 0); /* RELU */
  io[0] = t[0], io[1] = t[1], io[2] = t[2];
  tflc_writer_op(w, 0, 3, NULL, 3, io, 1, &t[3], 1, 4, o);
  o[1] = opt(1, TFLC_W_I32, 1, 0);
  o[2] = opt(2, TFLC_W_I32, 1, 0);
  o[3] = opt(3, TFLC_W_I32, 1, 0); /* depth multiplier */
  o[4] = opt(4, TFLC_W_U8, 1, 0);  /* RELU */
  io[0] = t[3], io[1] = t[4], io[2] = t[5];
  tflc_writer_op(w, 0, 4, NULL, 3, io, 1, &t[6], 2, 5, o);
  io[0] = t[6], io[1] = t[8];
  tflc_writer_op(w, 0, 22, NULL, 2, io, 1, &t[9], 0, 0, NULL);
  io[0] = t[9], io[1] = t[10], io[2] = t[11];
  tflc_writer_op(w, 0, 9, NULL, 3, io, 1, &t[12], 0, 0, NULL);
  o[0] = opt(0, TFLC_W_F32, 0, 1.0f);
  tflc_writer_op(w, 0, 25, NULL, 1, &t[12], 1, &t[13], 9, 1, o);
  tflc_writer_inputs(w, 0, 1, &t[0]);
  tflc_writer_outputs(w, 0, 1, &t[13]);
  if (format) {
    static const int which[4] = {1, 4, 10, 11};
    for (i = 0; i < 4; i++)
      if (tflc_writer_compress(w, 0, t[which[i]], 2, format, 0) != TFLC_OK) {
        fprintf(stderr, "demo: compress failed\n");
        exit(1);
      }
  }
  if (tflc_writer_finish(w, &out, size) != TFLC_OK) {
    fprintf(stderr, "demo: writer failed\n");
    exit(1);
  }
  tflc_writer_destroy(w);
  return out;
}

typedef struct result {
  size_t model_bytes, arena;
  double us;
  uint8_t out[4096];
  uint32_t out_bytes;
} result;

static int run(const char *label, const uint8_t *bytes, size_t n, result *r) {
  static uint8_t arena[8 << 20];
  tflc_model m;
  tflc_interpreter it;
  double t[ITERS];
  int32_t i, k;
  if (tflc_model_init(&m, bytes, n) != TFLC_OK) {
    fprintf(stderr, "demo: %s: %s\n", label, tflc_model_error(&m));
    return 0;
  }
  if (tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL) != TFLC_OK) {
    fprintf(stderr, "demo: %s: %s\n", label, tflc_error(&it));
    return 0;
  }
  for (k = 0; k < it.num_inputs; k++) {
    tflc_tensor *in = tflc_input(&it, k);
    uint32_t x = 1u + (uint32_t)k;
    for (i = 0; i < (int32_t)in->bytes; i++) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      ((uint8_t *)in->data)[i] = in->type == TFLC_FLOAT32 ? 0 : (uint8_t)x;
    }
  }
  for (i = 0; i < ITERS; i++) {
    double t0 = now_us();
    if (tflc_invoke(&it) != TFLC_OK) {
      fprintf(stderr, "demo: %s: %s\n", label, tflc_error(&it));
      return 0;
    }
    t[i] = now_us() - t0;
  }
  qsort(t, ITERS, sizeof t[0], cmp_d);
  r->model_bytes = n;
  r->arena = tflc_arena_used(&it);
  r->us = t[ITERS / 2];
  r->out_bytes = tflc_output(&it, 0)->bytes;
  if (r->out_bytes > sizeof r->out)
    r->out_bytes = sizeof r->out;
  memcpy(r->out, tflc_output(&it, 0)->data, r->out_bytes);
  printf("  %-26s %8lu B model  %8lu B arena  %9.1f us/invoke\n", label,
         (unsigned long)r->model_bytes, (unsigned long)r->arena, r->us);
  return 1;
}

static void save(const char *path, const uint8_t *b, size_t n) {
  FILE *f = fopen(path, "wb");
  if (f) {
    fwrite(b, 1, n, f);
    fclose(f);
  }
}

int main(int argc, char **argv) {
  static result plain, meta, dec;
  uint8_t *b0, *b1, *b2;
  size_t n0, n1, n2;
  if (argc > 1) {
    FILE *f = fopen(argv[1], "rb");
    uint8_t *b;
    long n;
    if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 ||
        fseek(f, 0, SEEK_SET)) {
      fprintf(stderr, "demo: cannot read %s\n", argv[1]);
      return 1;
    }
    b = (uint8_t *)aligned_alloc(16, ((size_t)n + 15) & ~(size_t)15);
    if (!b || fread(b, 1, (size_t)n, f) != (size_t)n)
      return 1;
    fclose(f);
    printf("tflc demo: %s (random input, median of %d invokes)\n", argv[1],
           ITERS);
    if (!run("model", b, (size_t)n, &plain))
      return 1;
    free(b);
    return 0;
  }
  b0 = build(0, &n0);
  b1 = build(TFLC_W_METADATA, &n1);
  b2 = build(TFLC_W_DECODE, &n2);
  save("build/demo_plain.tflite", b0, n0);
  save("build/demo_lut_metadata.tflite", b1, n1);
  save("build/demo_lut_decode.tflite", b2, n2);
  printf("tflc demo: keyword-spotting-shaped int8 CNN, weights at 2 bits "
         "(median of %d invokes)\n",
         ITERS);
  if (!run("plain", b0, n0, &plain) ||
      !run("LUT, COMPRESSION_METADATA", b1, n1, &meta) ||
      !run("LUT, TFLM_DECODE", b2, n2, &dec))
    return 1;
  printf("  models written to build/demo_{plain,lut_metadata,lut_decode}"
         ".tflite\n");
  if (plain.out_bytes == meta.out_bytes && plain.out_bytes == dec.out_bytes &&
      !memcmp(plain.out, meta.out, plain.out_bytes) &&
      !memcmp(plain.out, dec.out, plain.out_bytes)) {
    printf("  outputs identical: yes (%u bytes)\n", plain.out_bytes);
  } else {
    printf("  outputs identical: NO\n");
    return 1;
  }
  printf("  compressed arena - plain arena: %+ld B\n",
         (long)meta.arena - (long)plain.arena);
  free(b0);
  free(b1);
  free(b2);
  return 0;
}

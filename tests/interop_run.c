/* interop_run: the tflc side of tests/interop_test.sh. Runs MODEL on a
 * schedule of invokes and resets and writes every output of every invoke,
 * with the same command line as the TFLM runner the recorded outputs of
 * tests/interop/tflm_outputs.txt came from (docs/compression.md, "Interop"):
 *
 *   interop_run MODEL [--input FILE]... [--schedule S] [--out-dir DIR]
 *
 * S is a comma-separated list of steps: "f" invokes on the --input files
 * (one per model input, in order), a number N invokes on the conformance
 * generator's inputs of seed N (input k: state N + k, as `tflc run
 * --random-inputs N`), "r" calls tflc_reset. Default: "f" with --input
 * files, else "1". Writes DIR/output_K.bin when S has one invoke, else
 * DIR/output_K_stepS.bin (S: the step's index in the list). Prints
 * {"arena_used_bytes": N}. */
#define TFLC_IMPLEMENTATION
#include "../tflc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void interop_die(const char *what, const char *arg) {
  fprintf(stderr, "interop_run: %s%s%s\n", what, arg ? " " : "",
          arg ? arg : "");
  exit(2);
}

static uint8_t *interop_read(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  uint8_t *b = NULL;
  size_t n = 0, cap = 0, got;
  if (!f)
    interop_die("cannot open", path);
  for (;;) {
    if (n == cap) {
      uint8_t *nb;
      cap = cap ? 2 * cap : 65536;
      nb = (uint8_t *)realloc(b, cap);
      if (!nb)
        interop_die("out of memory reading", path);
      b = nb;
    }
    got = fread(b + n, 1, cap - n, f);
    if (!got)
      break;
    n += got;
  }
  fclose(f);
  *size = n;
  return b;
}

/* The conformance generator (shared/conformance/README.md): input k of
 * seed N starts at N + k (0 -> 0x9E3779B9), one xorshift32 step per byte
 * (low 8 bits) or per float32 element ((x >> 8) / 2^23 - 1). */
static void interop_fill(tflc_interpreter *it, long seed) {
  int32_t k;
  tflc_tensor *t;
  for (k = 0; (t = tflc_input(it, k)) != NULL; k++) {
    uint32_t x = (uint32_t)(seed + k);
    size_t e;
    if (!x)
      x = 0x9E3779B9u;
    if (t->type == TFLC_FLOAT32) {
      for (e = 0; e < t->bytes / 4; e++) {
        float v;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        v = (float)(x >> 8) / 8388608.0f - 1.0f;
        memcpy((uint8_t *)t->data + 4 * e, &v, 4);
      }
    } else {
      for (e = 0; e < t->bytes; e++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        ((uint8_t *)t->data)[e] = (uint8_t)x;
      }
    }
  }
}

int main(int argc, char **argv) {
  const char *model_path = NULL, *schedule = NULL, *out_dir = ".";
  const char *files[TFLC_MAX_IO];
  int nfiles = 0, i, ninvokes = 0, step;
  size_t msize, arena_size = (size_t)16 << 20;
  uint8_t *mbytes, *model_copy, *arena;
  static tflc_model m;
  static tflc_interpreter it;
  const char *p;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "--input") && more) {
      if (nfiles >= TFLC_MAX_IO)
        interop_die("too many inputs", NULL);
      files[nfiles++] = argv[++i];
    } else if (!strcmp(a, "--schedule") && more) {
      schedule = argv[++i];
    } else if (!strcmp(a, "--out-dir") && more) {
      out_dir = argv[++i];
    } else if (!model_path && a[0] != '-') {
      model_path = a;
    } else {
      interop_die("bad argument", a);
    }
  }
  if (!model_path)
    interop_die("usage: interop_run MODEL [--input FILE]... [--schedule S] "
                "[--out-dir DIR]",
                NULL);
  if (!schedule)
    schedule = nfiles ? "f" : "1";
  mbytes = interop_read(model_path, &msize);
  /* a 16-byte aligned copy, as a model in flash would be */
  model_copy = (uint8_t *)malloc(msize + 16);
  arena = (uint8_t *)malloc(arena_size);
  if (!model_copy || !arena)
    interop_die("out of memory", NULL);
  model_copy += 16 - ((uintptr_t)model_copy & 15);
  memcpy(model_copy, mbytes, msize);
  if (tflc_model_init(&m, model_copy, msize) != TFLC_OK)
    interop_die(tflc_model_error(&m), model_path);
  if (tflc_interpreter_init(&it, &m, arena, arena_size, NULL) != TFLC_OK)
    interop_die(tflc_error(&it), model_path);
  for (p = schedule; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','))
    ninvokes += !(p[0] == 'r' && (p[1] == ',' || !p[1]));
  for (p = schedule, step = 0; *p;
       p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','), step++) {
    int32_t k;
    const tflc_tensor *o;
    if (p[0] == 'r' && (p[1] == ',' || !p[1])) {
      if (tflc_reset(&it) != TFLC_OK)
        interop_die("tflc_reset failed:", tflc_error(&it));
      continue;
    }
    if (p[0] == 'f' && (p[1] == ',' || !p[1])) {
      tflc_tensor *t;
      for (k = 0; (t = tflc_input(&it, k)) != NULL; k++) {
        size_t n;
        uint8_t *d;
        if (k >= nfiles)
          interop_die("fewer --input files than model inputs", NULL);
        d = interop_read(files[k], &n);
        if (n != t->bytes)
          interop_die("input file size differs from the tensor:", files[k]);
        memcpy(t->data, d, n);
        free(d);
      }
      if (k != nfiles)
        interop_die("more --input files than model inputs", NULL);
    } else {
      char *e;
      long seed = strtol(p, &e, 10);
      if (e == p || (*e && *e != ','))
        interop_die("bad schedule step in", schedule);
      interop_fill(&it, seed);
    }
    if (tflc_invoke(&it) != TFLC_OK)
      interop_die("tflc_invoke failed:", tflc_error(&it));
    for (k = 0; (o = tflc_output(&it, k)) != NULL; k++) {
      char path[4096];
      FILE *f;
      if (ninvokes > 1)
        snprintf(path, sizeof path, "%s/output_%d_step%d.bin", out_dir, (int)k,
                 step);
      else
        snprintf(path, sizeof path, "%s/output_%d.bin", out_dir, (int)k);
      f = fopen(path, "wb");
      if (!f || fwrite(o->data, 1, o->bytes, f) != o->bytes || fclose(f))
        interop_die("cannot write", path);
    }
  }
  printf("{\"arena_used_bytes\": %lu}\n", (unsigned long)tflc_arena_used(&it));
  free(mbytes);
  return 0;
}

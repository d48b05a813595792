/* x86_bench.c - one measured tflc_invoke for callgrind (make bench-x86).
 *
 *   x86_bench MODEL INPUT [EXPECTED_OUTPUT]
 *   valgrind --tool=callgrind --toggle-collect=measured ./x86_bench ...
 *
 * Loads the model, fills input 0 from INPUT, runs one warm-up invoke, then
 * one more inside measured() (the only function callgrind collects with
 * --toggle-collect=measured), and compares output 0 with EXPECTED_OUTPUT
 * (TFLM's bytes) when given: exit status 1 when they differ. The build
 * flags pick the kernels' primitives (portable, -msse4.1, -mavx2). */
#define TFLC_IMPLEMENTATION
#include "../tflc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  unsigned char *p;
  long len;
  if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0) {
    fprintf(stderr, "x86_bench: cannot read %s\n", path);
    exit(2);
  }
  p = (unsigned char *)malloc((size_t)len + 16);
  if (p == NULL || fread(p, 1, (size_t)len, f) != (size_t)len) {
    fprintf(stderr, "x86_bench: cannot read %s\n", path);
    exit(2);
  }
  fclose(f);
  *n = (size_t)len;
  return p;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
tflc_status
measured(tflc_interpreter *it);
tflc_status measured(tflc_interpreter *it) {
  return tflc_invoke(it);
}

int main(int argc, char **argv) {
  static tflc_model model;
  static tflc_interpreter it;
  const size_t arena_bytes = (size_t)8 << 20;
  unsigned char *bytes, *input, *arena;
  size_t n, in_n;
  tflc_tensor *in;
  const tflc_tensor *out;
  if (argc < 3) {
    fprintf(stderr, "usage: x86_bench MODEL INPUT [EXPECTED_OUTPUT]\n");
    return 2;
  }
  bytes = read_file(argv[1], &n);
  input = read_file(argv[2], &in_n);
  arena = (unsigned char *)malloc(arena_bytes + 16);
  if (arena == NULL)
    return 2;
  if (tflc_model_init(&model, bytes, n) != TFLC_OK) {
    fprintf(stderr, "model: %s\n", tflc_model_error(&model));
    return 2;
  }
  if (tflc_interpreter_init(&it, &model, arena, arena_bytes, NULL) != TFLC_OK) {
    fprintf(stderr, "init: %s\n", tflc_error(&it));
    return 2;
  }
  in = tflc_input(&it, 0);
  if (in->bytes != in_n) {
    fprintf(stderr, "input: %lu bytes, the model wants %lu\n",
            (unsigned long)in_n, (unsigned long)in->bytes);
    return 2;
  }
  memcpy(in->data, input, in_n);
  if (tflc_invoke(&it) != TFLC_OK) {
    fprintf(stderr, "invoke: %s\n", tflc_error(&it));
    return 2;
  }
  memcpy(in->data, input, in_n); /* the arena may have reused it */
  if (measured(&it) != TFLC_OK) {
    fprintf(stderr, "invoke: %s\n", tflc_error(&it));
    return 2;
  }
  out = tflc_output(&it, 0);
  if (argc > 3) {
    size_t e_n;
    unsigned char *expect = read_file(argv[3], &e_n);
    const int same = e_n == out->bytes && memcmp(expect, out->data, e_n) == 0;
    printf("output: %s\n", same ? "identical to TFLM" : "DIFFERS from TFLM");
    free(expect);
    if (!same)
      return 1;
  }
  free(bytes);
  free(input);
  free(arena);
  return 0;
}

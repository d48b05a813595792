/* minimal.c - the smallest complete use of tflc: load a model, run it on
 * zeroed (or file) input, print the first output. Link with tflc.c (the
 * library's one implementation file).
 *
 *   cc -std=c99 -I. -o minimal examples/minimal.c tflc.c -lm
 *   ./minimal model.tflite [input.bin]
 *
 * On a microcontroller the model is a const array in flash (`tflc embed
 * model.tflite -o model.c` writes one, aligned) and the arena a static
 * buffer; nothing else changes. */
#include "tflc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 16-byte alignment: constants are then read with plain loads (any
 * alignment works, a misaligned model costs time or RAM: `tflc info`) */
#if defined(__GNUC__) || defined(__clang__)
#define ALIGNED16 __attribute__((aligned(16)))
#elif defined(_MSC_VER)
#define ALIGNED16 __declspec(align(16))
#else
#define ALIGNED16
#endif

static ALIGNED16 unsigned char arena[4 << 20]; /* size: `tflc info MODEL` */

int main(int argc, char **argv) {
  static ALIGNED16 unsigned char model_bytes[8 << 20];
  tflc_model model;
  tflc_interpreter it;
  tflc_tensor *in;
  const tflc_tensor *out;
  size_t n;
  FILE *f;
  if (argc < 2) {
    fprintf(stderr, "usage: minimal MODEL [INPUT]\n");
    return 2;
  }
  f = fopen(argv[1], "rb");
  if (!f)
    return 1;
  n = fread(model_bytes, 1, sizeof model_bytes, f);
  fclose(f);
  if (tflc_model_init(&model, model_bytes, n) != TFLC_OK) {
    fprintf(stderr, "model: %s\n", tflc_model_error(&model));
    return 1;
  }
  if (tflc_interpreter_init(&it, &model, arena, sizeof arena, NULL) !=
      TFLC_OK) {
    fprintf(stderr, "init: %s\n", tflc_error(&it));
    return 1;
  }
  in = tflc_input(&it, 0);
  memset(in->data, 0, in->bytes);
  if (argc > 2 && (f = fopen(argv[2], "rb")) != NULL) {
    if (fread(in->data, 1, in->bytes, f) != in->bytes)
      fprintf(stderr, "short input file\n");
    fclose(f);
  }
  if (tflc_invoke(&it) != TFLC_OK) {
    fprintf(stderr, "invoke: %s\n", tflc_error(&it));
    return 1;
  }
  out = tflc_output(&it, 0);
  printf("output 0: %s, %u bytes, first byte %d; arena used %lu bytes\n",
         tflc_type_name(out->type), (unsigned)out->bytes,
         (int)((const signed char *)out->data)[0],
         (unsigned long)tflc_arena_used(&it));
  return 0;
}

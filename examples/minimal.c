/* minimal.c - the smallest complete use of tflc: load a model, run it on
 * zeroed (or file) input, print the first output. Link with tflc_lib.c.
 *
 *   cc -std=c99 -o minimal examples/minimal.c examples/tflc_lib.c -lm
 *   ./minimal model.tflite [input.bin]
 *
 * On a microcontroller the model is a const array in flash and the arena a
 * static buffer; nothing else changes. */
#include "../tflc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char arena[4 << 20]; /* size it with `tflc info MODEL` */

int main(int argc, char **argv) {
  static unsigned char model_bytes[8 << 20];
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

/* fuzz/gen_corpus.c - writes the seed corpora of the harnesses:
 *
 *   gen_corpus DIR           DIR/model/NAME.tflite  every operator tflc
 *                            supports (and some it may gain), plain and
 *                            compressed in both formats, widths 1..8;
 *                            DIR/lut/, DIR/roundtrip/, DIR/kernels/
 *                            structured seeds
 *   gen_corpus --check       runs every model through tflc and prints
 *                            the status of init and invoke
 *
 * The shared models (../shared/models, conformance) are added by make,
 * from where they are, never copied into the repository. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "../tflc_write.h"
#include "models.h"

static int count_models, count_ok;

static void write_file(const char *dir, const char *name, const uint8_t *p,
                       size_t n) {
  char path[1024];
  FILE *f;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  f = fopen(path, "wb");
  if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0) {
    fprintf(stderr, "gen_corpus: cannot write %s\n", path);
    exit(1);
  }
}

static void to_dir(const char *name, const uint8_t *p, size_t n, void *user) {
  char file[256];
  snprintf(file, sizeof file, "%s.tflite", name);
  write_file((const char *)user, file, p, n);
  count_models++;
}

static void check(const char *name, const uint8_t *p, size_t n, void *user) {
  static uint8_t arena[256 * 1024] __attribute__((aligned(16)));
  tflc_model m;
  tflc_interpreter it;
  tflc_status st;
  uint8_t *copy = (uint8_t *)aligned_alloc(16, (n + 15) & ~(size_t)15);
  (void)user;
  memcpy(copy, p, n);
  count_models++;
  st = tflc_model_init(&m, copy, n);
  if (st != TFLC_OK) {
    printf("%-36s init: %s: %s\n", name, tflc_status_str(st), m.error);
  } else if ((st = tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL)) !=
             TFLC_OK) {
    printf("%-36s interpreter: %s: %s\n", name, tflc_status_str(st), it.error);
  } else if ((st = tflc_invoke(&it)) != TFLC_OK) {
    printf("%-36s invoke: %s: %s\n", name, tflc_status_str(st), it.error);
  } else {
    count_ok++;
  }
  free(copy);
}

/* fuzz_lut seeds: header (see fuzz_lut.c) + a pool of bytes */
static void lut_seeds(const char *dir) {
  int bits, type, alt;
  for (bits = 0; bits <= 8; bits++)
    for (type = 0; type < 7; type++)
      for (alt = 0; alt < 2; alt++) {
        uint8_t s[13 + 96];
        char name[64];
        size_t i;
        s[0] = (uint8_t)bits;
        s[1] = (uint8_t)type;
        s[2] = (uint8_t)(alt | ((bits & 3) << 1) | ((type & 3) << 3) |
                         (alt ? 0x80 : 0));
        s[3] = (uint8_t)(alt ? 3 : bits);
        s[4] = (uint8_t)(17 + bits * 5);
        s[5] = 0;
        s[6] = (uint8_t)((1 << (bits ? bits : 1)) - 1);
        s[7] = (uint8_t)(bits * 3);
        s[8] = 0;
        s[9] = (uint8_t)(40 + type);
        s[10] = 0;
        s[11] = 3;
        s[12] = 0;
        for (i = 13; i < sizeof s; i++)
          s[i] = (uint8_t)rng();
        snprintf(name, sizeof name, "lut_b%d_t%d_a%d", bits, type, alt);
        write_file(dir, name, s, sizeof s);
      }
}

/* fuzz_roundtrip seeds: header (see fuzz_roundtrip.c) + pool */
static void roundtrip_seeds(const char *dir) {
  int type, bits, mode;
  for (type = 0; type < 7; type++)
    for (bits = 1; bits <= 8; bits++)
      for (mode = 0; mode < 4; mode++) {
        uint8_t s[9 + 64];
        char name[64];
        size_t i;
        s[0] = (uint8_t)type;
        s[1] = (uint8_t)(bits - 1);
        s[2] = (uint8_t)((bits & 1) | (mode << 2) | ((type & 1) << 1));
        s[3] = (uint8_t)(1 + (bits + type) % 4);
        s[4] = 2;
        s[5] = 3;
        s[6] = (uint8_t)(bits);
        s[7] = 1;
        s[8] = (uint8_t)(type * 31 + bits);
        for (i = 9; i < sizeof s; i++)
          s[i] = (uint8_t)rng();
        snprintf(name, sizeof name, "rt_t%d_b%d_m%d", type, bits, mode);
        write_file(dir, name, s, sizeof s);
      }
}

/* one fuzz_kernels seed: the case byte, then `n` set bytes, the rest of
 * its 600 random */
static void kernels_seed(const char *dir, const char *name, uint8_t c,
                         const uint8_t *set, size_t n) {
  uint8_t s[600];
  size_t i;
  s[0] = c;
  if (n > 0)
    memcpy(s + 1, set, n);
  for (i = 1 + n; i < sizeof s; i++)
    s[i] = (uint8_t)rng();
  write_file(dir, name, s, sizeof s);
}

/* fuzz_kernels seeds (see fuzz_kernels.c): every case over a pool of
 * random bytes, and case 8's convolutions set up for each of the Arm
 * DSP's paths (their mode, shape and input offset bytes, the rest
 * random): the widened windows of depths 27, 5 and 15, the gathered
 * pixels of strided 1x1 filters (5 and 41 input channels), the border
 * runs (depths 90 and 45, offsets beyond int8); case 3's depthwise
 * layers of rows of 5 or 7 taps with their tile (mode, multiplier, shape,
 * filter, dilation and stride bytes): a copy with the zero point around
 * (7x7 SAME; 7x5 SAME, dilated, strided), every window inside the input
 * (5x5 VALID, stride 2), one batch and two, no bias */
static void kernels_seeds(const char *dir) {
  static const uint8_t dw[][12] = {
      {37, 0, 7, 0, 9, 11, 6, 6, 0, 0, 0, 0},
      {33, 0, 11, 0, 13, 25, 4, 4, 0, 0, 1, 1},
      {53, 0, 3, 1, 11, 30, 4, 6, 1, 0, 0, 1},
      {37, 0, 15, 0, 13, 39, 6, 4, 0, 1, 1, 0},
  };
  static const uint8_t conv[][13] = {
      {1, 0, 2, 2, 2, 0, 1, 0, 10, 9, 5, 1, 1},
      {17, 1, 0, 0, 4, 1, 0, 1, 20, 30, 16, 0, 1},
      {1, 0, 4, 0, 2, 2, 2, 0, 7, 7, 39, 1, 1},
      {13, 1, 4, 0, 0, 1, 2, 0, 30, 30, 39, 0, 0},
      {9, 0, 40, 0, 0, 1, 1, 0, 15, 15, 30, 0, 1},
      {8, 0, 29, 2, 0, 0, 0, 0, 12, 12, 20, 1, 0},
      {0, 1, 2, 4, 2, 0, 0, 0, 20, 20, 10, 1, 0},
  };
  char name[64];
  int k, v;
  for (k = 0; k < 9; k++)
    for (v = 0; v < 4; v++) {
      snprintf(name, sizeof name, "kernels_c%d_%d", k, v);
      kernels_seed(dir, name, (uint8_t)k, NULL, 0);
    }
  for (k = 0; k < (int)(sizeof conv / sizeof conv[0]); k++)
    for (v = 0; v < 3; v++) {
      snprintf(name, sizeof name, "kernels_dsp%d_%d", k, v);
      kernels_seed(dir, name, 8, conv[k], sizeof conv[k]);
    }
  for (k = 0; k < (int)(sizeof dw / sizeof dw[0]); k++)
    for (v = 0; v < 3; v++) {
      snprintf(name, sizeof name, "kernels_dw%d_%d", k, v);
      kernels_seed(dir, name, 3, dw[k], sizeof dw[k]);
    }
}

int main(int argc, char **argv) {
  char sub[1024];
  rng_seed(0x2545F491u);
  if (argc == 2 && strcmp(argv[1], "--check") == 0) {
    fm_all(check, NULL);
    printf("%d models, %d run\n", count_models, count_ok);
    return 0;
  }
  if (argc != 2) {
    fprintf(stderr, "usage: gen_corpus DIR | gen_corpus --check\n");
    return 2;
  }
  snprintf(sub, sizeof sub, "%s/model", argv[1]);
  fm_all(to_dir, sub);
  snprintf(sub, sizeof sub, "%s/lut", argv[1]);
  lut_seeds(sub);
  snprintf(sub, sizeof sub, "%s/roundtrip", argv[1]);
  roundtrip_seeds(sub);
  snprintf(sub, sizeof sub, "%s/kernels", argv[1]);
  kernels_seeds(sub);
  printf("gen_corpus: %d models\n", count_models);
  return 0;
}

/* tests/test_decode.c - Huffman and Prune constants (TFLM_DECODE types 1
 * and 2) and INT4 filters: the decoders of tflc_kernels.h and the
 * interpreter around them.
 *
 * - TFLM's own decoder test vectors (../shared/reference/decode_vectors,
 *   12 cases from TFLM's decode_state_huffman_test.cc and
 *   decode_state_prune_test.cc, checked against TFLM), embedded below:
 *   through the kernel API and as one-operator DECODE models, refusals
 *   included.
 * - Codes built here: Huffman codes with their multi-level tables (16- and
 *   32-bit entries) from this file's own encoder, prune bitmasks, INT4
 *   packing; every element is compared with the values they were built
 *   from, tile by tile in random orders, against the fast and the
 *   reference decoders, and the checker flags every corruption made here.
 * - Models: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and CONCATENATION
 *   reading Huffman / Prune constants give the outputs of the same model
 *   with plain constants; kernels that take them in place read them in
 *   stream order (one restart per invoke); INT4 filters give the outputs
 *   of their INT8 twin; what TFLM refuses is refused at init. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#endif
#include "../tflc_write.h"
#include "harness.h"
#include "models.h"

#include <stdlib.h>

/* exact-size heap copies, so that the address sanitizer sees any read
 * past the end of a stream, table, bitmask or value array */
static uint8_t *dup_exact(const void *p, size_t n) {
  uint8_t *d = (uint8_t *)malloc(n ? n : 1);
  if (!d)
    abort();
  if (n)
    memcpy(d, p, n);
  return d;
}

/* ---- TFLM's decoder test vectors ---------------------------------------- */
typedef struct decode_vector {
  const char *name;
  const uint8_t *enc;
  uint32_t n_enc;
  const uint8_t *anc;
  uint32_t n_anc;
  tflc_type type;
  int32_t rank;
  int32_t dims[4];
  int32_t num_scales; /* 0: no quantization */
  const int64_t *zero_points;
  int32_t num_zero_points;
  int32_t axis;
  const uint8_t *expected; /* NULL: TFLM refuses the case */
  int ok;
} decode_vector;

static const uint8_t v0_enc[32] = {240, 13,  121, 252, 156, 26,  110, 76,
                                   50,  175, 41,  179, 93,  246, 54,  2,
                                   80,  21,  140, 167, 149, 219, 41,  104,
                                   63,  186, 183, 237, 177, 25,  226, 224};
static const uint8_t v0_anc[64] = {
    1,   1,   0,   0,   1,   32,  0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   109, 152, 97,  152, 106, 152, 5,   0,   6,   8,
    9,   8,   14,  0,   15,  0,   111, 136, 104, 136, 100, 136, 100,
    136, 105, 144, 102, 144, 99,  136, 99,  136, 2,   0,   107, 144,
    103, 136, 108, 136, 101, 136, 98,  136, 112, 136, 110, 136};
static const uint8_t v0_exp[64] = {
    110, 109, 109, 97,  99,  110, 97,  110, 101, 102, 100, 97,  99,
    111, 112, 106, 111, 109, 101, 99,  107, 105, 102, 111, 111, 107,
    104, 98,  100, 98,  100, 109, 106, 106, 100, 109, 106, 103, 111,
    106, 102, 101, 99,  112, 98,  105, 105, 98,  109, 97,  110, 98,
    98,  106, 98,  110, 108, 103, 106, 97,  102, 101, 106, 112};
static const uint8_t v2_anc[112] = {
    1,   1, 0, 0,   1,   33, 0, 0,   0,   0, 0, 0,   0,   0, 0, 0,
    109, 0, 0, 152, 97,  0,  0, 152, 106, 0, 0, 152, 5,   0, 0, 0,
    6,   0, 0, 8,   9,   0,  0, 8,   14,  0, 0, 0,   15,  0, 0, 0,
    111, 0, 0, 136, 104, 0,  0, 136, 100, 0, 0, 136, 100, 0, 0, 136,
    105, 0, 0, 144, 102, 0,  0, 144, 99,  0, 0, 136, 99,  0, 0, 136,
    2,   0, 0, 0,   107, 0,  0, 144, 103, 0, 0, 136, 108, 0, 0, 136,
    101, 0, 0, 136, 98,  0,  0, 136, 112, 0, 0, 136, 110, 0, 0, 136};
static const uint8_t v3_exp[128] = {
    110, 0, 109, 0, 109, 0, 97,  0, 99,  0, 110, 0, 97,  0, 110, 0,
    101, 0, 102, 0, 100, 0, 97,  0, 99,  0, 111, 0, 112, 0, 106, 0,
    111, 0, 109, 0, 101, 0, 99,  0, 107, 0, 105, 0, 102, 0, 111, 0,
    111, 0, 107, 0, 104, 0, 98,  0, 100, 0, 98,  0, 100, 0, 109, 0,
    106, 0, 106, 0, 100, 0, 109, 0, 106, 0, 103, 0, 111, 0, 106, 0,
    102, 0, 101, 0, 99,  0, 112, 0, 98,  0, 105, 0, 105, 0, 98,  0,
    109, 0, 97,  0, 110, 0, 98,  0, 98,  0, 106, 0, 98,  0, 110, 0,
    108, 0, 103, 0, 106, 0, 97,  0, 102, 0, 101, 0, 106, 0, 112, 0};
static const uint8_t v4_enc[10] = {165, 90,  165, 165, 165,
                                   165, 165, 165, 165, 165};
static const uint8_t v4_anc[176] = {
    2, 1, 0,   0,  1, 0, 0,   0,  0, 0, 0,   0,  0, 0, 0,   0,  0, 0, 16,  65,
    0, 0, 32,  65, 0, 0, 48,  65, 0, 0, 64,  65, 0, 0, 16,  65, 0, 0, 32,  65,
    0, 0, 48,  65, 0, 0, 64,  65, 0, 0, 16,  65, 0, 0, 32,  65, 0, 0, 48,  65,
    0, 0, 64,  65, 0, 0, 16,  65, 0, 0, 32,  65, 0, 0, 48,  65, 0, 0, 64,  65,
    0, 0, 16,  65, 0, 0, 32,  65, 0, 0, 48,  65, 0, 0, 64,  65, 0, 0, 152, 65,
    0, 0, 160, 65, 0, 0, 168, 65, 0, 0, 176, 65, 0, 0, 152, 65, 0, 0, 160, 65,
    0, 0, 168, 65, 0, 0, 176, 65, 0, 0, 152, 65, 0, 0, 160, 65, 0, 0, 168, 65,
    0, 0, 176, 65, 0, 0, 152, 65, 0, 0, 160, 65, 0, 0, 168, 65, 0, 0, 176, 65,
    0, 0, 152, 65, 0, 0, 160, 65, 0, 0, 168, 65, 0, 0, 176, 65};
static const uint8_t v4_exp[320] = {
    0, 0, 16,  65, 0, 0, 0,   0,  0, 0, 32,  65, 0, 0, 0,   0,  0, 0, 0,   0,
    0, 0, 48,  65, 0, 0, 0,   0,  0, 0, 64,  65, 0, 0, 0,   0,  0, 0, 16,  65,
    0, 0, 0,   0,  0, 0, 32,  65, 0, 0, 48,  65, 0, 0, 0,   0,  0, 0, 64,  65,
    0, 0, 0,   0,  0, 0, 16,  65, 0, 0, 0,   0,  0, 0, 32,  65, 0, 0, 0,   0,
    0, 0, 0,   0,  0, 0, 48,  65, 0, 0, 0,   0,  0, 0, 64,  65, 0, 0, 16,  65,
    0, 0, 0,   0,  0, 0, 32,  65, 0, 0, 0,   0,  0, 0, 0,   0,  0, 0, 48,  65,
    0, 0, 0,   0,  0, 0, 64,  65, 0, 0, 16,  65, 0, 0, 0,   0,  0, 0, 32,  65,
    0, 0, 0,   0,  0, 0, 0,   0,  0, 0, 48,  65, 0, 0, 0,   0,  0, 0, 64,  65,
    0, 0, 152, 65, 0, 0, 0,   0,  0, 0, 160, 65, 0, 0, 0,   0,  0, 0, 0,   0,
    0, 0, 168, 65, 0, 0, 0,   0,  0, 0, 176, 65, 0, 0, 152, 65, 0, 0, 0,   0,
    0, 0, 160, 65, 0, 0, 0,   0,  0, 0, 0,   0,  0, 0, 168, 65, 0, 0, 0,   0,
    0, 0, 176, 65, 0, 0, 152, 65, 0, 0, 0,   0,  0, 0, 160, 65, 0, 0, 0,   0,
    0, 0, 0,   0,  0, 0, 168, 65, 0, 0, 0,   0,  0, 0, 176, 65, 0, 0, 152, 65,
    0, 0, 0,   0,  0, 0, 160, 65, 0, 0, 0,   0,  0, 0, 0,   0,  0, 0, 168, 65,
    0, 0, 0,   0,  0, 0, 176, 65, 0, 0, 152, 65, 0, 0, 0,   0,  0, 0, 160, 65,
    0, 0, 0,   0,  0, 0, 0,   0,  0, 0, 168, 65, 0, 0, 0,   0,  0, 0, 176, 65};
static const uint8_t v5_anc[56] = {
    2,   1,   0,   0,   1,   0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   13,  14,  15,  16,  13,  14,  15,  16,  13,  14,  15,  16,
    13,  14,  15,  16,  13,  14,  15,  16,  113, 114, 115, 116, 113, 114,
    115, 116, 113, 114, 115, 116, 113, 114, 115, 116, 113, 114, 115, 116};
static const uint8_t v5_exp[80] = {
    13,  0, 14,  0, 0, 15,  0, 16,  0,   13, 0,   14, 15, 0,   16, 0,
    13,  0, 14,  0, 0, 15,  0, 16,  13,  0,  14,  0,  0,  15,  0,  16,
    13,  0, 14,  0, 0, 15,  0, 16,  113, 0,  114, 0,  0,  115, 0,  116,
    113, 0, 114, 0, 0, 115, 0, 116, 113, 0,  114, 0,  0,  115, 0,  116,
    113, 0, 114, 0, 0, 115, 0, 116, 113, 0,  114, 0,  0,  115, 0,  116};
static const int64_t v6_zp[2] = {0, 0};
static const uint8_t v7_anc[56] = {
    2,  1,  0,  0,  1,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  2,  3,
    4,  1,  2,  3,  4,  1,  2,  3,  4,  1,  2,  3,  4,  1,  2,  3,  4,  11, 12,
    13, 14, 11, 12, 13, 14, 11, 12, 13, 14, 11, 12, 13, 14, 11, 12, 13, 14};
static const uint8_t v7_exp[80] = {
    1,  128, 2,  128, 128, 3,  128, 4,  128, 1,   128, 2,   3,   128, 4,   128,
    1,  128, 2,  128, 128, 3,  128, 4,  1,   128, 2,   128, 128, 3,   128, 4,
    1,  128, 2,  128, 128, 3,  128, 4,  11,  0,   12,  0,   0,   13,  0,   14,
    11, 0,   12, 0,   0,   13, 0,   14, 11,  0,   12,  0,   0,   13,  0,   14,
    11, 0,   12, 0,   0,   13, 0,   14, 11,  0,   12,  0,   0,   13,  0,   14};
static const int64_t v7_zp[2] = {-128, 0};
static const uint8_t v8_anc[56] = {
    2,  1,  0,  0,  1,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  13, 14, 15,
    16, 13, 14, 15, 16, 13, 14, 15, 16, 13, 14, 15, 16, 13, 14, 15, 16, 23, 24,
    25, 26, 23, 24, 25, 26, 23, 24, 25, 26, 23, 24, 25, 26, 23, 24, 25, 26};
static const uint8_t v8_exp[80] = {
    13, 212, 14, 212, 212, 15, 212, 16, 212, 13,  212, 14,  15,  212, 16,  212,
    13, 212, 14, 212, 212, 15, 212, 16, 13,  212, 14,  212, 212, 15,  212, 16,
    13, 212, 14, 212, 212, 15, 212, 16, 23,  212, 24,  212, 212, 25,  212, 26,
    23, 212, 24, 212, 212, 25, 212, 26, 23,  212, 24,  212, 212, 25,  212, 26,
    23, 212, 24, 212, 212, 25, 212, 26, 23,  212, 24,  212, 212, 25,  212, 26};
static const int64_t v8_zp[1] = {-44};
static const uint8_t v9_anc[56] = {
    2,  1,  0,  0,  1,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  17, 18, 19,
    20, 17, 18, 19, 20, 17, 18, 19, 20, 17, 18, 19, 20, 17, 18, 19, 20, 21, 22,
    23, 24, 21, 22, 23, 24, 21, 22, 23, 24, 21, 22, 23, 24, 21, 22, 23, 24};
static const uint8_t v9_exp[80] = {
    17, 255, 18, 253, 252, 19, 250, 20, 248, 17,  246, 18,  19,  243, 20,  241,
    17, 239, 18, 237, 0,   19, 254, 20, 17,  251, 18,  249, 248, 19,  246, 20,
    17, 243, 18, 241, 240, 19, 238, 20, 21,  255, 22,  253, 252, 23,  250, 24,
    21, 247, 22, 245, 244, 23, 242, 24, 21,  239, 22,  237, 0,   23,  254, 24,
    21, 251, 22, 249, 248, 23, 246, 24, 21,  243, 22,  241, 240, 23,  238, 24};
static const int64_t v9_zp[40] = {
    0,   -1,  -2,  -3,  -4,  -5,  -6,  -7,  -8,  -9,  -10, -11, -12, -13,
    -14, -15, -16, -17, -18, -19, 0,   -1,  -2,  -3,  -4,  -5,  -6,  -7,
    -8,  -9,  -10, -11, -12, -13, -14, -15, -16, -17, -18, -19};
static const uint8_t v10_anc[96] = {
    2,  1, 0,  0, 1,  0, 0,  0, 0,  0, 0,  0, 0,  0, 0,  0, 5,  0, 6,  0,
    7,  0, 8,  0, 5,  0, 6,  0, 7,  0, 8,  0, 5,  0, 6,  0, 7,  0, 8,  0,
    5,  0, 6,  0, 7,  0, 8,  0, 5,  0, 6,  0, 7,  0, 8,  0, 15, 0, 16, 0,
    17, 0, 18, 0, 15, 0, 16, 0, 17, 0, 18, 0, 15, 0, 16, 0, 17, 0, 18, 0,
    15, 0, 16, 0, 17, 0, 18, 0, 15, 0, 16, 0, 17, 0, 18, 0};
static const uint8_t v10_exp[160] = {
    5,  0, 0,  0, 6,  0, 0,  0, 0,  0, 7,  0, 0,  0, 8,  0, 0,  0, 5,  0,
    0,  0, 6,  0, 7,  0, 0,  0, 8,  0, 0,  0, 5,  0, 0,  0, 6,  0, 0,  0,
    0,  0, 7,  0, 0,  0, 8,  0, 5,  0, 0,  0, 6,  0, 0,  0, 0,  0, 7,  0,
    0,  0, 8,  0, 5,  0, 0,  0, 6,  0, 0,  0, 0,  0, 7,  0, 0,  0, 8,  0,
    15, 0, 0,  0, 16, 0, 0,  0, 0,  0, 17, 0, 0,  0, 18, 0, 15, 0, 0,  0,
    16, 0, 0,  0, 0,  0, 17, 0, 0,  0, 18, 0, 15, 0, 0,  0, 16, 0, 0,  0,
    0,  0, 17, 0, 0,  0, 18, 0, 15, 0, 0,  0, 16, 0, 0,  0, 0,  0, 17, 0,
    0,  0, 18, 0, 15, 0, 0,  0, 16, 0, 0,  0, 0,  0, 17, 0, 0,  0, 18, 0};
static const int64_t v10_zp[2] = {0, 0};
static const int64_t v11_zp[2] = {0, -1};
static const decode_vector decode_vectors[] = {
    {"DecodeHuffmanTable16BitsInt8",
     v0_enc,
     32,
     v0_anc,
     64,
     TFLC_INT8,
     1,
     {64},
     0,
     NULL,
     0,
     0,
     v0_exp,
     1},
    {"DecodeHuffmanTable16BitsInt16Fail",
     v0_enc,
     32,
     v0_anc,
     64,
     TFLC_INT16,
     1,
     {64},
     0,
     NULL,
     0,
     0,
     NULL,
     0},
    {"DecodeHuffmanTable32BitsInt8",
     v0_enc,
     32,
     v2_anc,
     112,
     TFLC_INT8,
     1,
     {64},
     0,
     NULL,
     0,
     0,
     v0_exp,
     1},
    {"DecodeHuffmanTable32BitsInt16",
     v0_enc,
     32,
     v2_anc,
     112,
     TFLC_INT16,
     1,
     {64},
     0,
     NULL,
     0,
     0,
     v3_exp,
     1},
    {"DecodePruneFloat",
     v4_enc,
     10,
     v4_anc,
     176,
     TFLC_FLOAT32,
     4,
     {2, 5, 8, 1},
     0,
     NULL,
     0,
     0,
     v4_exp,
     1},
    {"DecodePruneInt8",
     v4_enc,
     10,
     v5_anc,
     56,
     TFLC_INT8,
     4,
     {2, 5, 8, 1},
     0,
     NULL,
     0,
     0,
     v5_exp,
     1},
    {"DecodePruneQuantizedInt8",
     v4_enc,
     10,
     v5_anc,
     56,
     TFLC_INT8,
     4,
     {2, 5, 8, 1},
     2,
     v6_zp,
     2,
     0,
     v5_exp,
     1},
    {"DecodePruneQuantizedMixedZeroPointInt8",
     v4_enc,
     10,
     v7_anc,
     56,
     TFLC_INT8,
     4,
     {2, 5, 8, 1},
     2,
     v7_zp,
     2,
     0,
     v7_exp,
     1},
    {"DecodePruneQuantizedSingleChannelInt8",
     v4_enc,
     10,
     v8_anc,
     56,
     TFLC_INT8,
     4,
     {1, 8, 10, 1},
     1,
     v8_zp,
     1,
     0,
     v8_exp,
     1},
    {"DecodePruneQuantizedAltAxisInt8",
     v4_enc,
     10,
     v9_anc,
     56,
     TFLC_INT8,
     4,
     {1, 2, 1, 40},
     40,
     v9_zp,
     40,
     3,
     v9_exp,
     1},
    {"DecodePruneQuantizedInt16",
     v4_enc,
     10,
     v10_anc,
     96,
     TFLC_INT16,
     4,
     {2, 5, 8, 1},
     2,
     v10_zp,
     2,
     0,
     v10_exp,
     1},
    {"DecodePruneQuantizedInvalidZeroPointInt16",
     v4_enc,
     10,
     v10_anc,
     96,
     TFLC_INT16,
     4,
     {2, 5, 8, 1},
     2,
     v11_zp,
     2,
     0,
     NULL,
     0},
};

static int32_t dims_count(const int32_t *d, int32_t rank) {
  int32_t i, n = 1;
  for (i = 0; i < rank; i++)
    n *= d[i];
  return n;
}

/* Decodes c in tiles of random sizes, in order (or in a random order when
 * `shuffle`), with the fast decoder, and compares with `expect`; also the
 * reference decoder on the whole range and on one random window, and the
 * element accessors on a few elements. */
static void check_tiles(const tflc_const *c, const uint8_t *expect,
                        int shuffle) {
  const size_t es = tflc_type_size(c->type);
  const int32_t n = c->count;
  uint8_t *out = (uint8_t *)malloc((size_t)n * es + 1);
  uint8_t *ref = (uint8_t *)malloc((size_t)n * es + 1);
  int32_t at = 0, k;
  if (!out || !ref)
    abort();
  memset(out, 0xA5, (size_t)n * es);
  if (!shuffle) {
    while (at < n) {
      int32_t m = 1 + rng_below(n - at < 97 ? n - at : 97);
      tflc_lut_decode(c, at, m, out + (size_t)at * es);
      at += m;
    }
  } else {
    for (k = 0; k < 40 && n > 0; k++) {
      int32_t s = rng_below(n), m = 1 + rng_below(n - s);
      tflc_lut_decode(c, s, m, out + (size_t)s * es);
    }
    tflc_lut_decode(c, 0, n, out);
  }
  CHECK_EQ_MEM(out, expect, (size_t)n * es);
  tflc_lut_decode_ref(c, 0, n, ref);
  CHECK_EQ_MEM(ref, expect, (size_t)n * es);
  if (n > 0) {
    int32_t s = rng_below(n), m = 1 + rng_below(n - s);
    tflc_lut_decode_ref(c, s, m, ref);
    CHECK_EQ_MEM(ref, expect + (size_t)s * es, (size_t)m * es);
    /* the span and the element accessors agree with the expectation */
    {
      const void *sp = tflc_const_span(c, s, m, out);
      CHECK_EQ_MEM(sp, expect + (size_t)s * es, (size_t)m * es);
    }
    for (k = 0; k < 5; k++) {
      tflc_const raw = tflc_const_raw(expect, (tflc_type)c->type, n);
      int32_t e = rng_below(n);
      float f1 = tflc_const_f32(c, e), f2 = tflc_const_f32(&raw, e);
      CHECK_EQ_INT(tflc_const_i64(c, e), tflc_const_i64(&raw, e));
      CHECK_EQ_INT(tflc_const_i32(c, e), tflc_const_i32(&raw, e));
      CHECK(memcmp(&f1, &f2, sizeof f1) == 0);
    }
    /* gather with a random step */
    {
      int32_t step = 1 + rng_below(n), g = (n - 1 - s) / step + 1, i;
      tflc_lut_gather(c, s, step, g, out);
      for (i = 0; i < g; i++)
        CHECK(memcmp(out + (size_t)i * es, expect + (size_t)(s + i * step) * es,
                     es) == 0);
    }
  }
  free(out);
  free(ref);
}

/* The vector's descriptor through the kernel API (what tflc.h builds from
 * the same bytes, written out here from the format). */
static tflc_const vector_const(const decode_vector *v, const uint8_t *enc,
                               const uint8_t *anc, tflc_const_cursor *cur) {
  const int32_t count = dims_count(v->dims, v->rank);
  const size_t es = tflc_type_size((int)v->type);
  tflc_const c;
  if (anc[0] == 1) {
    const int wide = anc[5] & 1;
    c = tflc_const_huffman(enc, v->n_enc, anc + 16,
                           (v->n_anc - 16) / (wide ? 4u : 2u), wide,
                           (anc[5] >> 4) + 1, v->type, count, cur);
  } else {
    int any = 0, i;
    c = tflc_const_prune(
        enc, v->n_enc, anc + 16, (uint32_t)((v->n_anc - 16) / es), v->type,
        count, v->num_zero_points ? (int32_t)v->zero_points[0] : 0, cur);
    for (i = 0; i < v->num_zero_points; i++)
      any |= v->zero_points[i] != 0;
    if (v->type == TFLC_INT8 && v->num_scales > 1 && any)
      tflc_const_prune_channels(&c, v->zero_points, 8, v->num_scales,
                                v->axis == v->rank - 1);
  }
  return c;
}

static void test_vectors_kernel_api(void) {
  size_t i;
  for (i = 0; i < sizeof decode_vectors / sizeof decode_vectors[0]; i++) {
    const decode_vector *v = &decode_vectors[i];
    uint8_t *enc = dup_exact(v->enc, v->n_enc);
    uint8_t *anc = dup_exact(v->anc, v->n_anc);
    tflc_const_cursor cur;
    tflc_const c;
    int32_t where = -1;
    harness_current = v->name;
    memset(&cur, 0, sizeof cur);
    if (v->ok) {
      c = vector_const(v, enc, anc, &cur);
      CHECK_EQ_INT(tflc_const_check(&c, &where), TFLC_CONST_OK);
      check_tiles(&c, v->expected, 0);
      check_tiles(&c, v->expected, 1);
      c.cursor = NULL;
      check_tiles(&c, v->expected, 1);
    }
    free(enc);
    free(anc);
  }
}

/* the ancillary tensor's type in vector_model (TFLM's tooling: UINT8) */
static int vector_anc_type = TFLC_UINT8;

/* One DECODE operator whose output is the model's output. */
static uint8_t *vector_model(const decode_vector *v, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t ne[1], na[1], in[2], out;
  float scales[64];
  tflc_w_quant q;
  uint8_t *bytes = NULL;
  int32_t i;
  ne[0] = (int32_t)v->n_enc;
  na[0] = (int32_t)v->n_anc;
  in[0] = tflc_writer_tensor(w, 0, TFLC_UINT8, 1, ne, v->enc, v->n_enc, "enc",
                             NULL);
  in[1] = tflc_writer_tensor(w, 0, vector_anc_type, 1, na, v->anc, v->n_anc,
                             "anc", NULL);
  for (i = 0; i < 64; i++)
    scales[i] = 1.0f; /* never read by DECODE */
  q.scale = scales;
  q.zero_point = v->zero_points;
  q.count = v->num_scales;
  q.axis = v->axis;
  out = tflc_writer_tensor(w, 0, (int)v->type, v->rank, v->dims, NULL, 0, "out",
                           v->num_scales ? &q : NULL);
  tflc_writer_op(w, 0, 32, "TFLM_DECODE", 2, in, 1, &out, 0, 0, NULL);
  tflc_writer_outputs(w, 0, 1, &out);
  if (tflc_writer_finish(w, &bytes, size) != TFLC_OK)
    bytes = NULL;
  tflc_writer_destroy(w);
  return bytes;
}

static uint8_t arena[1 << 20] __attribute__((aligned(16)));

static void test_vectors_models(void) {
  size_t i;
  for (i = 0; i < sizeof decode_vectors / sizeof decode_vectors[0]; i++) {
    const decode_vector *v = &decode_vectors[i];
    size_t size = 0;
    uint8_t *bytes = vector_model(v, &size);
    tflc_model m;
    tflc_interpreter it;
    tflc_status st;
    harness_current = v->name;
    CHECK(bytes != NULL);
    if (!bytes)
      continue;
    st = tflc_model_init(&m, bytes, size);
    if (st == TFLC_OK)
      st = tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL);
    if (v->ok) {
      CHECK_EQ_INT(st, TFLC_OK);
      if (st == TFLC_OK) {
        const tflc_tensor *o = tflc_output(&it, 0);
        CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
        CHECK_EQ_INT(o->bytes, dims_count(v->dims, v->rank) *
                                   (int32_t)tflc_type_size((int)v->type));
        CHECK_EQ_MEM(o->data, v->expected, o->bytes);
        /* again: nothing is kept between invokes */
        memset(o->data, 0x5A, o->bytes);
        CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
        CHECK_EQ_MEM(o->data, v->expected, o->bytes);
      } else {
        fprintf(stderr, "  %s: %s%s\n", v->name, tflc_model_error(&m),
                it.error);
      }
    } else {
      /* TFLM refuses these at Prepare; tflc when it loads the model */
      CHECK_EQ_INT(st, TFLC_ERR_COMPRESSION);
      CHECK(strstr(tflc_model_error(&m), v->type == TFLC_INT16 && v->anc[0] == 1
                                             ? "16-bit Huffman table"
                                             : "must be 0") != NULL);
    }
    free(bytes);
  }
}

/* The ancillary tensor of a DECODE pair is bytes: UINT8, as TFLM's
 * tooling writes it; any other type is refused when the model loads. */
static void test_ancillary_type(void) {
  static const int types[] = {TFLC_INT8, TFLC_INT4, TFLC_BOOL, TFLC_RESOURCE};
  size_t i;
  for (i = 0; i < sizeof types / sizeof types[0]; i++) {
    size_t size = 0;
    uint8_t *bytes;
    tflc_model m;
    vector_anc_type = types[i];
    bytes = vector_model(&decode_vectors[0], &size);
    vector_anc_type = TFLC_UINT8;
    CHECK(bytes != NULL);
    if (!bytes)
      continue;
    CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_ERR_COMPRESSION);
    CHECK(strstr(tflc_model_error(&m), "not UINT8") != NULL);
    free(bytes);
  }
}

/* ---- INT4 ---------------------------------------------------------------- */
static void test_int4(void) {
  /* the example of the format notes (TFLM's unpacking, run): */
  static const uint8_t packed[5] = {0x12, 0x34, 0xF8, 0x7A, 0x9C};
  static const int8_t want[9] = {2, 1, 4, 3, -8, -1, -6, 7, -4};
  uint8_t *p = dup_exact(packed, 5);
  tflc_const c = tflc_const_int4(p, 9);
  int32_t n, i;
  CHECK_EQ_INT(c.type, TFLC_INT8);
  CHECK(c.bits != 0); /* kernels never read it as raw int8 */
  CHECK_EQ_INT(tflc_const_check(&c, NULL), TFLC_CONST_OK);
  check_tiles(&c, (const uint8_t *)want, 0);
  check_tiles(&c, (const uint8_t *)want, 1);
  free(p);
  /* random values -8..7, odd and even counts */
  for (n = 1; n < 300; n += 37) {
    int8_t *v = (int8_t *)malloc((size_t)n);
    uint8_t *pk = (uint8_t *)calloc((size_t)(n + 1) / 2, 1), *pe;
    if (!v || !pk)
      abort();
    for (i = 0; i < n; i++) {
      v[i] = (int8_t)(rng_below(16) - 8);
      pk[i / 2] =
          (uint8_t)(pk[i / 2] | (((unsigned)v[i] & 15u) << (i % 2 ? 4 : 0)));
    }
    pe = dup_exact(pk, (size_t)(n + 1) / 2);
    c = tflc_const_int4(pe, n);
    check_tiles(&c, (const uint8_t *)v, 0);
    check_tiles(&c, (const uint8_t *)v, 1);
    free(v);
    free(pk);
    free(pe);
  }
}

/* ---- a Huffman encoder (this file's own) --------------------------------- */
#define MAX_SYM 400
typedef struct huff_code {
  uint32_t value; /* symbol, as the table stores it */
  uint32_t code;  /* canonical codeword, `len` bits */
  int len;
  int wend; /* bits from the codeword's start to the end of its last
               lookup window */
} huff_code;

typedef struct huff_table {
  uint32_t e[1 << 14];
  int32_t n;
  int wide;
} huff_table;

/* Code lengths of a Huffman code for `freq` (n >= 1): merge the two
 * lightest nodes until one is left; a leaf's length is its depth (a lone
 * symbol gets 1 bit). */
static void huff_lengths(const uint32_t *freq, int n, int *len) {
  uint64_t w[2 * MAX_SYM];
  int parent[2 * MAX_SYM], alive[2 * MAX_SYM], nodes = n, i;
  for (i = 0; i < n; i++) {
    w[i] = freq[i] ? freq[i] : 1;
    alive[i] = 1;
  }
  for (;;) {
    int a = -1, b = -1;
    for (i = 0; i < nodes; i++) {
      if (!alive[i])
        continue;
      if (a < 0 || w[i] < w[a]) {
        b = a;
        a = i;
      } else if (b < 0 || w[i] < w[b]) {
        b = i;
      }
    }
    if (b < 0)
      break;
    w[nodes] = w[a] + w[b];
    alive[nodes] = 1;
    alive[a] = alive[b] = 0;
    parent[a] = parent[b] = nodes;
    nodes++;
  }
  for (i = 0; i < n; i++) {
    int d = 0, x = i;
    while (x != nodes - 1) {
      x = parent[x];
      d++;
    }
    len[i] = d ? d : 1;
  }
}

/* Canonical codes: by (length, symbol order), consecutive values. */
static void huff_canonical(huff_code *hc, int n) {
  uint32_t code = 0;
  int l, i, prev = 0;
  for (l = 1; l <= 32; l++)
    for (i = 0; i < n; i++)
      if (hc[i].len == l) {
        code <<= (l - prev);
        prev = l;
        hc[i].code = code++;
      }
}

static uint32_t huff_sym_entry(const huff_table *t, int count, uint32_t v) {
  return t->wide ? 0x80000000u | ((uint32_t)count << 27) | (v & 0x07FFFFFFu)
                 : 0x8000u | ((uint32_t)count << 11) | (v & 0x07FFu);
}

/* Builds the table for the codewords in `list` (n of them) that share
 * their first `b` bits, at `base`, `width` bits wide; sub-tables of at
 * most `cap` bits go after everything built so far. */
static void huff_build(huff_table *t, huff_code **list, int n, int b,
                       int32_t base, int width, int cap) {
  int i, j;
  for (i = 0; i < n; i++) {
    huff_code *h = list[i];
    int rest = h->len - b;
    if (rest <= width) {
      /* resolved here: every entry sharing its remaining bits */
      uint32_t bits = h->code & ((1u << rest) - 1u);
      int32_t first = (int32_t)(bits << (width - rest)), k;
      for (k = 0; k < (1 << (width - rest)); k++)
        t->e[base + first + k] = huff_sym_entry(t, rest, h->value);
      h->wend = b + width;
    }
  }
  for (i = 0; i < n; i++) {
    huff_code *h = list[i], *group[MAX_SYM];
    uint32_t idx;
    int ng = 0, longest = 0, sub_w;
    int32_t sub;
    if (h->len - b <= width)
      continue;
    idx = (h->code >> (h->len - b - width)) & ((1u << width) - 1u);
    if (t->e[base + (int32_t)idx] != 0xFFFFFFFFu)
      continue; /* its group is done */
    for (j = 0; j < n; j++) {
      huff_code *g = list[j];
      if (g->len - b > width &&
          ((g->code >> (g->len - b - width)) & ((1u << width) - 1u)) == idx) {
        group[ng++] = g;
        if (g->len - b - width > longest)
          longest = g->len - b - width;
      }
    }
    sub_w = longest < cap ? longest : cap;
    sub = t->n;
    t->n += 1 << sub_w;
    for (j = 0; j < (1 << sub_w); j++)
      t->e[sub + j] = 0xFFFFFFFFu;
    t->e[base + (int32_t)idx] =
        t->wide ? ((uint32_t)(sub_w - 1) << 27) |
                      (uint32_t)(sub - (base + (int32_t)idx))
                : ((uint32_t)(sub_w - 1) << 11) |
                      (uint32_t)(sub - (base + (int32_t)idx));
    huff_build(t, group, ng, b + width, sub, sub_w, cap);
  }
}

/* A Huffman constant for `vals` (n elements of es bytes): the table, the
 * codeword stream padded to exactly the bits its lookups read (*bytes),
 * and the descriptor. first: first-level bits, cap: widest sub-table. */
typedef struct huff_built {
  huff_table t;
  uint8_t *table;  /* exact size */
  uint8_t *stream; /* exact size */
  uint32_t stream_bytes;
  tflc_const c;
} huff_built;

static void huff_encode(huff_built *hb, const uint8_t *vals, size_t es,
                        int32_t n, int wide, int first, int cap) {
  static huff_code hc[MAX_SYM];
  huff_code *list[MAX_SYM];
  uint32_t freq[MAX_SYM];
  int nsym = 0, i, len[MAX_SYM];
  int32_t k;
  uint64_t bit = 0, need = 0;
  uint8_t *s;
  memset(hb, 0, sizeof *hb);
  for (k = 0; k < n; k++) {
    uint32_t v = 0;
    memcpy(&v, vals + (size_t)k * es, es); /* little-endian host */
    for (i = 0; i < nsym && hc[i].value != v; i++)
      ;
    if (i == nsym) {
      hc[nsym].value = v;
      freq[nsym++] = 0;
    }
    freq[i]++;
  }
  huff_lengths(freq, nsym, len);
  for (i = 0; i < nsym; i++) {
    hc[i].len = len[i];
    hc[i].wend = -1;
    list[i] = &hc[i];
  }
  huff_canonical(hc, nsym);
  hb->t.wide = wide;
  hb->t.n = 1 << first;
  for (i = 0; i < hb->t.n; i++)
    hb->t.e[i] = 0xFFFFFFFFu;
  huff_build(&hb->t, list, nsym, 0, 0, first, cap);
  /* the stream, and how far its lookups read */
  s = (uint8_t *)calloc((size_t)n * 4 + 8, 1);
  if (!s)
    abort();
  for (k = 0; k < n; k++) {
    uint32_t v = 0;
    int b2;
    memcpy(&v, vals + (size_t)k * es, es);
    for (i = 0; hc[i].value != v; i++)
      ;
    if (bit + (uint64_t)hc[i].wend > need)
      need = bit + (uint64_t)hc[i].wend;
    for (b2 = hc[i].len - 1; b2 >= 0; b2--, bit++)
      if ((hc[i].code >> b2) & 1u)
        s[bit / 8] = (uint8_t)(s[bit / 8] | (0x80u >> (bit % 8)));
  }
  hb->stream_bytes = (uint32_t)((need + 7) / 8);
  hb->stream = dup_exact(s, hb->stream_bytes);
  free(s);
  hb->table = (uint8_t *)malloc((size_t)hb->t.n * 4);
  if (!hb->table)
    abort();
  for (k = 0; k < hb->t.n; k++) {
    uint32_t e = hb->t.e[k];
    int b2;
    for (b2 = 0; b2 < (wide ? 4 : 2); b2++)
      hb->table[(size_t)k * (wide ? 4u : 2u) + (size_t)b2] =
          (uint8_t)(e >> (8 * b2));
  }
  hb->c = tflc_const_huffman(hb->stream, hb->stream_bytes, hb->table,
                             (uint32_t)hb->t.n, wide, first,
                             es == 1 ? TFLC_INT8 : TFLC_INT16, n, NULL);
}
static void huff_free(huff_built *hb) {
  free(hb->table);
  free(hb->stream);
}

/* values with a skewed distribution over `nsym` symbols */
static void skewed_values(uint8_t *v, size_t es, int32_t n, int nsym) {
  int32_t k;
  for (k = 0; k < n; k++) {
    int32_t r = rng_below(nsym), r2 = rng_below(nsym);
    int32_t s = r < r2 ? r : r2; /* small symbols more often */
    int32_t x = es == 1 ? s * 7 - 100 : s * 211 - 32000;
    if (es == 1)
      v[k] = (uint8_t)(int8_t)x;
    else {
      v[2 * k] = (uint8_t)((uint32_t)x & 0xFFu);
      v[2 * k + 1] = (uint8_t)(((uint32_t)x >> 8) & 0xFFu);
    }
  }
}

static void test_huffman_codes(void) {
  static const struct {
    int es, wide, first, cap, nsym;
    int32_t n;
  } cfg[] = {{1, 0, 3, 2, 16, 500},  {1, 0, 1, 1, 5, 300},
             {1, 0, 8, 4, 30, 1000}, {1, 1, 4, 3, 36, 777},
             {2, 1, 5, 4, 60, 900},  {2, 1, 12, 8, 300, 2000},
             {1, 0, 2, 2, 1, 64},    {1, 0, 6, 3, 2, 257},
             {2, 1, 1, 1, 3, 99},    {1, 0, 9, 5, 180, 3000}};
  size_t i;
  harness_current = "test_huffman_codes";
  for (i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
    const size_t es = (size_t)cfg[i].es;
    const int32_t n = cfg[i].n;
    uint8_t *v = (uint8_t *)malloc((size_t)n * es);
    huff_built hb;
    tflc_const_cursor cur;
    int32_t where = -1;
    if (!v)
      abort();
    skewed_values(v, es, n, cfg[i].nsym);
    huff_encode(&hb, v, es, n, cfg[i].wide, cfg[i].first, cfg[i].cap);
    CHECK_EQ_INT(tflc_const_check(&hb.c, &where), TFLC_CONST_OK);
    check_tiles(&hb.c, v, 0); /* no cursor: every tile from element 0 */
    memset(&cur, 0, sizeof cur);
    hb.c.cursor = &cur;
    check_tiles(&hb.c, v, 0);
    /* in order: the cursor never goes back */
    {
      uint8_t *o = (uint8_t *)malloc((size_t)n * es);
      int32_t at = 0;
      if (!o)
        abort();
      memset(&cur, 0, sizeof cur);
      while (at < n) {
        int32_t m = 1 + rng_below(n - at < 64 ? n - at : 64);
        tflc_lut_decode(&hb.c, at, m, o + (size_t)at * es);
        at += m;
      }
      CHECK_EQ_INT(cur.restarts, 0);
      CHECK_EQ_MEM(o, v, (size_t)n * es);
      free(o);
    }
    check_tiles(&hb.c, v, 1);
    /* one byte less and the last lookups read past the stream */
    hb.c.data_bytes--;
    CHECK_EQ_INT(tflc_const_check(&hb.c, &where), TFLC_CONST_STREAM_SHORT);
    hb.c.data_bytes++;
    /* the first element's first lookup turned into a link out of the
     * table: caught at element 0; the decoders stay inside and agree */
    {
      const uint32_t idx0 = (uint32_t)hb.stream[0] << 8 |
                            (hb.stream_bytes > 1 ? hb.stream[1] : 0u);
      const uint32_t at = idx0 >> (16 - cfg[i].first);
      const size_t esz = cfg[i].wide ? 4u : 2u;
      uint8_t keep[4], *a, *b;
      memcpy(keep, hb.table + at * esz, esz);
      memset(hb.table + at * esz, 0xFF, esz);
      hb.table[at * esz + esz - 1] = 0x07; /* flag clear, offset max */
      where = -1;
      CHECK_EQ_INT(tflc_const_check(&hb.c, &where), TFLC_CONST_TABLE_INDEX);
      CHECK_EQ_INT(where, 0);
      a = (uint8_t *)malloc((size_t)n * es);
      b = (uint8_t *)malloc((size_t)n * es);
      if (!a || !b)
        abort();
      hb.c.cursor = NULL;
      tflc_lut_decode(&hb.c, 0, n, a);
      tflc_lut_decode_ref(&hb.c, 0, n, b);
      CHECK_EQ_MEM(a, b, (size_t)n * es);
      free(a);
      free(b);
      memcpy(hb.table + at * esz, keep, esz);
    }
    huff_free(&hb);
    free(v);
  }
}

/* A chain of links longer than 64 lookups, and lookups past the stream:
 * flagged by the check, decoded alike (and inside the buffers) by both
 * decoders. */
static void test_huffman_bad(void) {
  uint16_t chain[200];
  uint8_t *table = (uint8_t *)malloc(sizeof chain), *zeros, a[40], b[40];
  tflc_const c;
  int32_t where = -1, i;
  if (!table)
    abort();
  for (i = 0; i < 200; i++) /* link: 1 more bit, sub-table 1 further on */
    chain[i] = (uint16_t)((0u << 11) | 1u);
  memcpy(table, chain, sizeof chain); /* little-endian host */
  zeros = (uint8_t *)calloc(16, 1);
  if (!zeros)
    abort();
  c = tflc_const_huffman(zeros, 16, table, 200, 0, 1, TFLC_INT8, 40, NULL);
  CHECK_EQ_INT(tflc_const_check(&c, &where), TFLC_CONST_TOO_DEEP);
  CHECK_EQ_INT(where, 0);
  tflc_lut_decode(&c, 0, 40, a);
  tflc_lut_decode_ref(&c, 0, 40, b);
  CHECK_EQ_MEM(a, b, 40);
  CHECK_EQ_INT(a[0], 0); /* "element 0" */
  /* an empty stream: every bit reads 0 */
  c = tflc_const_huffman(zeros, 0, table, 200, 0, 1, TFLC_INT8, 40, NULL);
  CHECK_EQ_INT(tflc_const_check(&c, &where), TFLC_CONST_STREAM_SHORT);
  CHECK_EQ_INT(where, 0);
  tflc_lut_decode(&c, 0, 40, a);
  tflc_lut_decode_ref(&c, 0, 40, b);
  CHECK_EQ_MEM(a, b, 40);
  /* widths out of range */
  c = tflc_const_huffman(zeros, 16, table, 200, 0, 17, TFLC_INT8, 40, NULL);
  CHECK_EQ_INT(tflc_const_check(&c, NULL), TFLC_CONST_BAD_FIELDS);
  free(zeros);
  free(table);
}

/* ---- Prune --------------------------------------------------------------- */
/* A Prune constant: elements of `vals` equal to their channel's pruned
 * value (when `prune` says so) are dropped. The expectation is `vals`
 * itself, with pruned elements replaced by what the decoder must write. */
typedef struct prune_built {
  uint8_t *mask, *values, *expect;
  int64_t zp[64];
  tflc_const c;
} prune_built;

static void prune_encode(prune_built *pb, tflc_type type, int32_t count,
                         int32_t channels, int alt, int per_channel_zp,
                         int pad_ones, int sparsity_pct) {
  const size_t es = tflc_type_size((int)type);
  const uint32_t mask_bytes = (uint32_t)(count + 7) / 8;
  uint8_t *vals = (uint8_t *)malloc((size_t)count * es + 1);
  uint8_t *kept = (uint8_t *)malloc((size_t)count * es + 1);
  uint32_t nk = 0;
  int32_t i, ch;
  memset(pb, 0, sizeof *pb);
  pb->mask = (uint8_t *)calloc(mask_bytes + 1, 1);
  pb->expect = (uint8_t *)malloc((size_t)count * es + 1);
  if (!vals || !kept || !pb->mask || !pb->expect)
    abort();
  for (ch = 0; ch < 64; ch++)
    pb->zp[ch] = per_channel_zp ? (int64_t)rng_below(256) - 128 : 0;
  for (i = 0; i < count; i++) {
    const int32_t c = channels <= 1 ? 0
                      : alt         ? i % channels
                                    : i / (count / channels);
    const int keep = rng_below(100) >= sparsity_pct;
    size_t k;
    for (k = 0; k < es; k++)
      vals[(size_t)i * es + k] = (uint8_t)rng();
    if (type == TFLC_BOOL)
      vals[i] = (uint8_t)(vals[i] & 1u);
    if (keep) {
      pb->mask[i / 8] = (uint8_t)(pb->mask[i / 8] | (0x80u >> (i % 8)));
      memcpy(kept + (size_t)nk * es, vals + (size_t)i * es, es);
      memcpy(pb->expect + (size_t)i * es, vals + (size_t)i * es, es);
      nk++;
    } else if (es == 1) {
      pb->expect[i] = (uint8_t)(pb->zp[per_channel_zp ? c : 0] & 0xFF);
    } else {
      memset(pb->expect + (size_t)i * es, 0, es);
    }
  }
  if (pad_ones)
    for (i = count; i < (int32_t)mask_bytes * 8; i++)
      pb->mask[i / 8] = (uint8_t)(pb->mask[i / 8] | (0x80u >> (i % 8)));
  {
    uint8_t *m = dup_exact(pb->mask, mask_bytes);
    free(pb->mask);
    pb->mask = m;
  }
  pb->values = dup_exact(kept, (size_t)nk * es);
  pb->c = tflc_const_prune(pb->mask, mask_bytes, pb->values, nk, type, count,
                           (int32_t)pb->zp[0], NULL);
  if (per_channel_zp && channels > 1)
    tflc_const_prune_channels(&pb->c, pb->zp, 8, channels, alt);
  free(vals);
  free(kept);
}
static void prune_free(prune_built *pb) {
  free(pb->mask);
  free(pb->values);
  free(pb->expect);
}

static void test_prune_codes(void) {
  static const tflc_type types[6] = {TFLC_INT8,  TFLC_BOOL,  TFLC_INT16,
                                     TFLC_INT32, TFLC_INT64, TFLC_FLOAT32};
  int t, variant;
  harness_current = "test_prune_codes";
  for (t = 0; t < 6; t++)
    for (variant = 0; variant < 8; variant++) {
      const int32_t channels = 1 + rng_below(12);
      const int32_t count = channels * (1 + rng_below(90));
      const int alt = variant & 1;
      const int pc = types[t] == TFLC_INT8 && (variant & 2);
      const int sparsity = variant == 4 ? 100 : variant == 5 ? 0 : 60;
      prune_built pb;
      tflc_const_cursor cur;
      int32_t where = -1;
      prune_encode(&pb, types[t], count, channels, alt, pc, variant & 4,
                   sparsity);
      CHECK_EQ_INT(tflc_const_check(&pb.c, &where), TFLC_CONST_OK);
      check_tiles(&pb.c, pb.expect, 0);
      memset(&cur, 0, sizeof cur);
      pb.c.cursor = &cur;
      check_tiles(&pb.c, pb.expect, 0);
      check_tiles(&pb.c, pb.expect, 1);
      /* one kept value more than the bitmask keeps, or fewer */
      pb.c.nvalues++;
      CHECK_EQ_INT(tflc_const_check(&pb.c, &where), TFLC_CONST_KEPT_MISMATCH);
      CHECK_EQ_INT(where, (int32_t)pb.c.nvalues - 1);
      pb.c.nvalues--;
      /* a bitmask one byte short */
      pb.c.data_bytes--;
      CHECK_EQ_INT(tflc_const_check(&pb.c, &where), TFLC_CONST_MASK_SHORT);
      /* the decoders read nothing past the shortened bitmask and agree */
      {
        const size_t es = tflc_type_size((int)types[t]);
        uint8_t *a = (uint8_t *)malloc((size_t)count * es),
                *b = (uint8_t *)malloc((size_t)count * es);
        if (!a || !b)
          abort();
        pb.c.cursor = NULL;
        tflc_lut_decode(&pb.c, 0, count, a);
        tflc_lut_decode_ref(&pb.c, 0, count, b);
        CHECK_EQ_MEM(a, b, (size_t)count * es);
        free(a);
        free(b);
      }
      pb.c.data_bytes++;
      prune_free(&pb);
    }
  /* uneven channels are refused */
  {
    prune_built pb;
    prune_encode(&pb, TFLC_INT8, 30, 3, 0, 1, 0, 50);
    pb.c.count = 31;
    CHECK_EQ_INT(tflc_const_check(&pb.c, NULL), TFLC_CONST_BAD_CHANNELS);
    prune_free(&pb);
  }
}

/* ---- cursors ------------------------------------------------------------- */
static void test_cursor(void) {
  enum { N = 600 };
  uint8_t v[N], o[N], w2[N];
  huff_built a, b;
  tflc_const_cursor cur;
  int32_t at, k;
  harness_current = "test_cursor";
  skewed_values(v, 1, N, 20);
  huff_encode(&a, v, 1, N, 0, 4, 3);
  for (k = 0; k < N; k++)
    w2[k] = (uint8_t)(v[N - 1 - k] ^ 0x55u);
  huff_encode(&b, w2, 1, N, 1, 5, 4);
  memset(&cur, 0, sizeof cur);
  a.c.cursor = &cur;
  b.c.cursor = &cur;
  /* rows in order: no restart */
  for (at = 0; at < N; at += 50)
    tflc_lut_decode(&a.c, at, 50, o + at);
  CHECK_EQ_MEM(o, v, N);
  CHECK_EQ_INT(cur.restarts, 0);
  CHECK_EQ_INT(cur.elem, N);
  /* one row again and again (a kernel re-reading it per batch): one
   * restart each, from the mark at the row's start */
  for (k = 0; k < 3; k++) {
    tflc_lut_decode(&a.c, 200, 50, o);
    CHECK_EQ_MEM(o, v + 200, 50);
  }
  CHECK_EQ_INT(cur.restarts, 3);
  CHECK_EQ_INT(cur.mark_elem, 200);
  /* a skip forward costs no restart */
  tflc_lut_decode(&a.c, 400, 10, o);
  CHECK_EQ_MEM(o, v + 400, 10);
  CHECK_EQ_INT(cur.restarts, 3);
  /* two constants sharing the cursor: it changes hands, values stay
   * right */
  for (k = 0; k < 6; k++) {
    const int32_t s = rng_below(N - 20);
    tflc_lut_decode(k % 2 ? &b.c : &a.c, s, 20, o);
    CHECK_EQ_MEM(o, (k % 2 ? w2 : v) + s, 20);
  }
  huff_free(&a);
  huff_free(&b);
}

/* ---- models -------------------------------------------------------------- */
enum { ENC_RAW = 0, ENC_HUFFMAN, ENC_PRUNE, ENC_INT4 };

/* Encoded and ancillary bytes of constant `vals` (count elements of type)
 * in DECODE format `enc` (Huffman: 32-bit table for INT16). */
typedef struct pair_bytes {
  uint8_t *enc, *anc;
  size_t n_enc, n_anc;
} pair_bytes;

static void make_pair(pair_bytes *p, int enc, tflc_type type,
                      const uint8_t *vals, int32_t count) {
  const size_t es = tflc_type_size((int)type);
  memset(p, 0, sizeof *p);
  if (enc == ENC_HUFFMAN) {
    huff_built hb;
    const int wide = es == 2;
    const size_t tb = (size_t)(wide ? 4 : 2);
    huff_encode(&hb, vals, es, count, wide, 4, 3);
    p->n_enc = (hb.stream_bytes + 3u) & ~3u; /* whole words, as TFLM */
    p->enc = (uint8_t *)calloc(p->n_enc + 1, 1);
    p->n_anc = 16 + (size_t)hb.t.n * tb;
    p->anc = (uint8_t *)calloc(p->n_anc, 1);
    if (!p->enc || !p->anc)
      abort();
    memcpy(p->enc, hb.stream, hb.stream_bytes);
    p->anc[0] = 1;
    p->anc[1] = 1;
    p->anc[4] = 1;
    p->anc[5] = (uint8_t)((3u << 4) | (unsigned)wide);
    memcpy(p->anc + 16, hb.table, (size_t)hb.t.n * tb);
    huff_free(&hb);
  } else {
    int32_t i, nk = 0;
    size_t k;
    p->n_enc = (size_t)(count + 7) / 8;
    p->enc = (uint8_t *)calloc(p->n_enc + 1, 1);
    p->anc = (uint8_t *)calloc(16 + (size_t)count * es, 1);
    if (!p->enc || !p->anc)
      abort();
    for (i = 0; i < count; i++) {
      int nz = 0;
      for (k = 0; k < es; k++)
        nz |= vals[(size_t)i * es + k] != 0;
      if (nz) {
        p->enc[i / 8] = (uint8_t)(p->enc[i / 8] | (0x80u >> (i % 8)));
        memcpy(p->anc + 16 + (size_t)nk * es, vals + (size_t)i * es, es);
        nk++;
      }
    }
    p->n_anc = 16 + (size_t)nk * es;
    p->anc[0] = 2;
    p->anc[1] = 1;
    p->anc[4] = 1;
  }
}

/* One layer: CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED on int8, or
 * CONCATENATION of an input with a constant. */
typedef struct layer {
  int op;                               /* TFLC_OP_* */
  int32_t batches, h, w, c, o, k, mult; /* FC: c = depth, o = outputs */
  int fenc, benc;                       /* ENC_* of filter and bias */
  int per_tensor;
  int values4; /* INT4-range values (the INT8 twin of an INT4 filter) */
} layer;

static int8_t filter_value(int small) {
  int32_t r;
  if (small)
    return (int8_t)(rng_below(16) - 8);
  r = rng_below(100);
  if (r < 45)
    return 0;
  return (int8_t)((rng_below(9) - 4) * 13 + (r % 3));
}

static uint8_t *build_layer(const layer *L, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t xd[4], fd[4], od[4], bd[1], xr, fr, i, fn, x, f, b = -1, y;
  int32_t ins[3], dec_in[4], dec_out[2], ndec = 0;
  float fs[256], bs[256], xs = 0.5f, ys = 1.5f;
  int64_t fz[256], bz[256], xz = -3, yz = 2;
  int8_t fv[40000];
  int32_t bv[256];
  tflc_w_quant q;
  tflc_w_option o[5];
  uint8_t *bytes = NULL;
  pair_bytes fp, bp;
  const int fc = L->op == TFLC_OP_FULLY_CONNECTED;
  const int dw = L->op == TFLC_OP_DEPTHWISE_CONV_2D;
  const int32_t cout = dw ? L->c * L->mult : L->o;
  memset(&fp, 0, sizeof fp);
  memset(&bp, 0, sizeof bp);
  if (fc) {
    xd[0] = L->batches;
    xd[1] = L->c;
    xr = 2;
    fd[0] = L->o;
    fd[1] = L->c;
    fr = 2;
    od[0] = L->batches;
    od[1] = L->o;
  } else {
    xd[0] = L->batches;
    xd[1] = L->h;
    xd[2] = L->w;
    xd[3] = L->c;
    xr = 4;
    fd[0] = dw ? 1 : L->o;
    fd[1] = fd[2] = L->k;
    fd[3] = dw ? cout : L->c;
    fr = 4;
    od[0] = L->batches;
    od[1] = L->h;
    od[2] = L->w;
    od[3] = cout;
  }
  fn = dims_count(fd, fr);
  for (i = 0; i < fn && i < 40000; i++)
    fv[i] = filter_value(L->fenc == ENC_INT4 || L->values4);
  for (i = 0; i < cout; i++) {
    fs[i] = 0.01f * (float)(1 + i % 3);
    fz[i] = 0;
    bs[i] = xs * fs[L->per_tensor ? 0 : i];
    bz[i] = 0;
    bv[i] = rng_below(3) ? 0 : rng_below(2001) - 1000;
  }
  q.zero_point = &xz;
  q.scale = &xs;
  q.count = 1;
  q.axis = 0;
  x = tflc_writer_tensor(w, 0, TFLC_INT8, xr, xd, NULL, 0, "x", &q);
  q.scale = fs;
  q.zero_point = fz;
  q.count = L->per_tensor ? 1 : cout;
  q.axis = dw ? 3 : 0;
  if (L->fenc == ENC_RAW || L->fenc == ENC_INT4) {
    uint8_t pk[20000];
    if (L->fenc == ENC_INT4) {
      memset(pk, 0, sizeof pk);
      for (i = 0; i < fn; i++)
        pk[i / 2] =
            (uint8_t)(pk[i / 2] | (((unsigned)fv[i] & 15u) << (i % 2 ? 4 : 0)));
    }
    f = tflc_writer_tensor(
        w, 0, L->fenc == ENC_INT4 ? TFLC_INT4 : TFLC_INT8, fr, fd,
        L->fenc == ENC_INT4 ? (const void *)pk : fv,
        L->fenc == ENC_INT4 ? (size_t)(fn + 1) / 2 : (size_t)fn, "f", &q);
  } else {
    int32_t ne[1], na[1];
    make_pair(&fp, L->fenc, TFLC_INT8, (const uint8_t *)fv, fn);
    ne[0] = (int32_t)fp.n_enc;
    na[0] = (int32_t)fp.n_anc;
    dec_in[2 * ndec] = tflc_writer_tensor(w, 0, TFLC_UINT8, 1, ne, fp.enc,
                                          fp.n_enc, "f_enc", NULL);
    dec_in[2 * ndec + 1] = tflc_writer_tensor(w, 0, TFLC_UINT8, 1, na, fp.anc,
                                              fp.n_anc, "f_anc", NULL);
    f = tflc_writer_tensor(w, 0, TFLC_INT8, fr, fd, NULL, 0, "f", &q);
    dec_out[ndec++] = f;
  }
  bd[0] = cout;
  q.scale = bs;
  q.zero_point = bz;
  q.axis = 0;
  if (L->benc == ENC_RAW) {
    b = tflc_writer_tensor(w, 0, TFLC_INT32, 1, bd, bv, 4u * (size_t)cout, "b",
                           &q);
  } else if (L->benc == ENC_PRUNE) {
    int32_t ne[1], na[1];
    make_pair(&bp, ENC_PRUNE, TFLC_INT32, (const uint8_t *)bv, cout);
    ne[0] = (int32_t)bp.n_enc;
    na[0] = (int32_t)bp.n_anc;
    dec_in[2 * ndec] = tflc_writer_tensor(w, 0, TFLC_UINT8, 1, ne, bp.enc,
                                          bp.n_enc, "b_enc", NULL);
    dec_in[2 * ndec + 1] = tflc_writer_tensor(w, 0, TFLC_UINT8, 1, na, bp.anc,
                                              bp.n_anc, "b_anc", NULL);
    b = tflc_writer_tensor(w, 0, TFLC_INT32, 1, bd, NULL, 0, "b", &q);
    dec_out[ndec++] = b;
  }
  q.scale = &ys;
  q.zero_point = &yz;
  q.count = 1;
  y = tflc_writer_tensor(w, 0, TFLC_INT8, fc ? 2 : 4, od, NULL, 0, "y", &q);
  if (ndec)
    tflc_writer_op(w, 0, 32, "TFLM_DECODE", 2 * ndec, dec_in, ndec, dec_out, 0,
                   0, NULL);
  ins[0] = x;
  ins[1] = f;
  ins[2] = b;
  if (fc) {
    o[0] = opt_u8(0, 0);
    tflc_writer_op(w, 0, 9, NULL, 3, ins, 1, &y, 8, 1, o);
  } else if (dw) {
    o[0] = opt_u8(0, 0); /* SAME */
    o[1] = opt_i32(1, 1);
    o[2] = opt_i32(2, 1);
    o[3] = opt_i32(3, L->mult);
    o[4] = opt_u8(4, 0);
    tflc_writer_op(w, 0, 4, NULL, 3, ins, 1, &y, 2, 5, o);
  } else {
    o[0] = opt_u8(0, 0);
    o[1] = opt_i32(1, 1);
    o[2] = opt_i32(2, 1);
    o[3] = opt_u8(3, 0);
    tflc_writer_op(w, 0, 3, NULL, 3, ins, 1, &y, 1, 4, o);
  }
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  if (tflc_writer_finish(w, &bytes, size) != TFLC_OK)
    bytes = NULL;
  tflc_writer_destroy(w);
  free(fp.enc);
  free(fp.anc);
  free(bp.enc);
  free(bp.anc);
  return bytes;
}

/* Runs a model `invokes` times on a fixed random input; the output in out
 * (bytes). Returns the init status. */
static tflc_status run_model(const uint8_t *bytes, size_t size, int invokes,
                             uint8_t *out, uint32_t *out_bytes,
                             uint32_t *restarts, size_t *arena_used) {
  tflc_model m;
  tflc_interpreter it;
  tflc_status st = tflc_model_init(&m, bytes, size);
  uint32_t seed = 99u, i;
  int k;
  if (st)
    return st;
  st = tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL);
  if (st) {
    fprintf(stderr, "  init: %s\n", it.error);
    return st;
  }
  for (i = 0; i < tflc_input(&it, 0)->bytes; i++) {
    seed = seed * 1103515245u + 12345u;
    ((uint8_t *)tflc_input(&it, 0)->data)[i] = (uint8_t)(seed >> 16);
  }
  for (k = 0; k < invokes; k++)
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  *out_bytes = tflc_output(&it, 0)->bytes;
  memcpy(out, tflc_output(&it, 0)->data, *out_bytes);
  if (restarts)
    *restarts = it.cursors ? it.cursors[0].restarts : 0xFFFFFFFFu;
  if (arena_used)
    *arena_used = tflc_arena_used(&it);
  return TFLC_OK;
}

/* The layer with compressed constants against itself with raw ones (the
 * same values: the builders draw them from the same random state). */
static void check_layer(const layer *L, int expect_in_place) {
  static uint8_t a[65536], b[65536];
  layer raw = *L;
  size_t sa = 0, sb = 0, ua = 0, ub = 0;
  uint32_t na = 0, nb = 0, restarts = 0;
  uint32_t saved = rng_state;
  uint8_t *ma, *mb;
  ma = build_layer(L, &sa);
  rng_state = saved;
  raw.values4 = L->fenc == ENC_INT4;
  raw.fenc = ENC_RAW;
  raw.benc = ENC_RAW;
  mb = build_layer(&raw, &sb);
  CHECK(ma != NULL && mb != NULL);
  if (ma && mb) {
    CHECK_EQ_INT(run_model(ma, sa, 3, a, &na, &restarts, &ua), TFLC_OK);
    CHECK_EQ_INT(run_model(mb, sb, 1, b, &nb, NULL, &ub), TFLC_OK);
    CHECK_EQ_INT(na, nb);
    CHECK_EQ_MEM(a, b, nb);
    if (expect_in_place)
      /* read in stream order: once back to element 0 per later invoke */
      CHECK_EQ_INT(restarts, 2);
    /* and with no whole decoded copy the arena stays near the plain one */
    if (expect_in_place)
      CHECK(ua <= ub + 1024);
  }
  free(ma);
  free(mb);
}

static void test_layers(void) {
  /* op, batches, h, w, c, o, k, mult, filter, bias, per_tensor */
  static const layer L[] = {
      {TFLC_OP_CONV_2D, 1, 6, 5, 8, 6, 3, 1, ENC_HUFFMAN, ENC_RAW, 0, 0},
      {TFLC_OP_CONV_2D, 2, 6, 5, 8, 6, 3, 1, ENC_PRUNE, ENC_PRUNE, 0, 0},
      {TFLC_OP_CONV_2D, 1, 5, 4, 64, 5, 3, 1, ENC_HUFFMAN, ENC_PRUNE, 0, 0},
      {TFLC_OP_DEPTHWISE_CONV_2D, 1, 7, 6, 6, 0, 3, 2, ENC_HUFFMAN, ENC_PRUNE,
       0, 0},
      {TFLC_OP_DEPTHWISE_CONV_2D, 1, 7, 6, 6, 0, 3, 1, ENC_PRUNE, ENC_RAW, 0,
       0},
      {TFLC_OP_FULLY_CONNECTED, 1, 0, 0, 100, 7, 0, 0, ENC_HUFFMAN, ENC_PRUNE,
       1, 0},
      {TFLC_OP_FULLY_CONNECTED, 1, 0, 0, 700, 5, 0, 0, ENC_PRUNE, ENC_RAW, 1,
       0},
      {TFLC_OP_FULLY_CONNECTED, 3, 0, 0, 700, 5, 0, 0, ENC_HUFFMAN, ENC_RAW, 1,
       0},
      {TFLC_OP_CONV_2D, 1, 6, 5, 7, 4, 3, 1, ENC_INT4, ENC_RAW, 0, 0},
      {TFLC_OP_CONV_2D, 1, 6, 5, 7, 4, 1, 1, ENC_INT4, ENC_RAW, 1, 0},
      {TFLC_OP_DEPTHWISE_CONV_2D, 2, 5, 5, 5, 0, 3, 2, ENC_INT4, ENC_RAW, 0, 0},
      {TFLC_OP_FULLY_CONNECTED, 2, 0, 0, 33, 3, 0, 0, ENC_INT4, ENC_RAW, 1, 0},
      {TFLC_OP_FULLY_CONNECTED, 1, 0, 0, 900, 3, 0, 0, ENC_INT4, ENC_RAW, 1,
       0}};
  /* in place: filter rows within the decode tile (CONV_2D 72 bytes,
   * FULLY_CONNECTED 100) or one batch (700); decoded whole: a 576-byte
   * row, depthwise, three batches of 700 */
  static const int in_place[] = {1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0};
  size_t i;
  for (i = 0; i < sizeof L / sizeof L[0]; i++) {
    char name[64];
    sprintf(name, "test_layers[%u]", (unsigned)i);
    harness_current = name;
    check_layer(&L[i], in_place[i]);
  }
}

/* ---- what TFLM refuses, refused at init -----------------------------------
 */
typedef struct refusal {
  const char *what;
  uint8_t type, version, dcm_version, param; /* ancillary bytes 0, 4, 1, 5 */
  tflc_type out_type;
  int32_t rank, dims[4];
  int32_t nscales, axis;
  int64_t zp[2];
  tflc_status st;
  const char *msg;
} refusal;

static void test_refusals(void) {
  static const refusal R[] = {{"Huffman into INT32",
                               1,
                               1,
                               1,
                               0x21,
                               TFLC_INT32,
                               1,
                               {8},
                               0,
                               0,
                               {0, 0},
                               TFLC_ERR_UNSUPPORTED,
                               "Huffman output type INT32"},
                              {"Huffman 16-bit table into INT16",
                               1,
                               1,
                               1,
                               0x20,
                               TFLC_INT16,
                               1,
                               {8},
                               0,
                               0,
                               {0, 0},
                               TFLC_ERR_COMPRESSION,
                               "16-bit Huffman table"},
                              {"Huffman version 2",
                               1,
                               2,
                               1,
                               0x21,
                               TFLC_INT8,
                               1,
                               {8},
                               0,
                               0,
                               {0, 0},
                               TFLC_ERR_COMPRESSION,
                               "Huffman version 2"},
                              {"Prune version 0",
                               2,
                               0,
                               1,
                               0,
                               TFLC_INT8,
                               1,
                               {8},
                               0,
                               0,
                               {0, 0},
                               TFLC_ERR_COMPRESSION,
                               "Prune version 0"},
                              {"Prune into UINT8",
                               2,
                               1,
                               1,
                               0,
                               TFLC_UINT8,
                               1,
                               {8},
                               0,
                               0,
                               {0, 0},
                               TFLC_ERR_UNSUPPORTED,
                               "Prune output type UINT8"},
                              {"Prune into INT4",
                               2,
                               1,
                               1,
                               0,
                               TFLC_INT4,
                               1,
                               {8},
                               0,
                               0,
                               {0, 0},
                               TFLC_ERR_UNSUPPORTED,
                               "Prune output type INT4"},
                              {"Prune, one scale on axis 3",
                               2,
                               1,
                               1,
                               0,
                               TFLC_INT8,
                               4,
                               {1, 2, 2, 2},
                               1,
                               3,
                               {0, 0},
                               TFLC_ERR_COMPRESSION,
                               "unsupported quantization axis 3"},
                              {"Prune, two scales on axis 1",
                               2,
                               1,
                               1,
                               0,
                               TFLC_INT8,
                               4,
                               {1, 2, 2, 2},
                               2,
                               1,
                               {0, 0},
                               TFLC_ERR_COMPRESSION,
                               "unsupported quantization axis 1"},
                              {"Prune FLOAT32 with zero point 3",
                               2,
                               1,
                               1,
                               0,
                               TFLC_FLOAT32,
                               2,
                               {2, 4},
                               2,
                               0,
                               {0, 3},
                               TFLC_ERR_COMPRESSION,
                               "must be 0"},
                              {"Prune INT16 with zero point -1",
                               2,
                               1,
                               1,
                               0,
                               TFLC_INT16,
                               2,
                               {2, 4},
                               2,
                               0,
                               {0, -1},
                               TFLC_ERR_COMPRESSION,
                               "must be 0"},
                              {"Prune INT8, channels not dividing",
                               2,
                               1,
                               1,
                               0,
                               TFLC_INT8,
                               2,
                               {3, 3},
                               2,
                               0,
                               {1, 2},
                               TFLC_ERR_COMPRESSION,
                               "do not divide"},
                              {"DECODE type 3",
                               3,
                               1,
                               1,
                               0,
                               TFLC_INT8,
                               1,
                               {8},
                               0,
                               0,
                               {0, 0},
                               TFLC_ERR_UNSUPPORTED,
                               "DECODE type 3"},
                              {"DECODE type 127",
                               127,
                               1,
                               1,
                               0,
                               TFLC_INT8,
                               1,
                               {8},
                               0,
                               0,
                               {0, 0},
                               TFLC_ERR_UNSUPPORTED,
                               "custom DECODE type 127"},
                              {"DECODE type 200",
                               200,
                               1,
                               1,
                               0,
                               TFLC_INT8,
                               1,
                               {8},
                               0,
                               0,
                               {0, 0},
                               TFLC_ERR_UNSUPPORTED,
                               "DECODE type 200"},
                              {"DCM version 0 before the type",
                               9,
                               1,
                               0,
                               0,
                               TFLC_INT8,
                               1,
                               {8},
                               0,
                               0,
                               {0, 0},
                               TFLC_ERR_COMPRESSION,
                               "metadata version 0"}};
  /* a bitmask / stream of ones and a table of symbols, so that only the
   * refused field is wrong */
  static const uint8_t enc[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  uint8_t anc[16 + 64];
  size_t i;
  for (i = 0; i < sizeof R / sizeof R[0]; i++) {
    const refusal *r = &R[i];
    decode_vector v;
    const int32_t count = dims_count(r->dims, r->rank);
    size_t size = 0, k;
    uint8_t *bytes;
    tflc_model m;
    harness_current = r->what;
    memset(anc, 0, sizeof anc);
    anc[0] = r->type;
    anc[1] = r->dcm_version;
    anc[4] = r->version;
    anc[5] = r->param;
    for (k = 16; k < sizeof anc; k += 4) { /* 32-bit "symbol 1, 1 bit" */
      anc[k] = 1;
      anc[k + 3] = 0x88;
    }
    memset(&v, 0, sizeof v);
    v.name = r->what;
    v.enc = enc;
    v.n_enc = r->type == 2 ? (uint32_t)(count + 7) / 8 : 8;
    v.anc = anc;
    /* prune: as many values as kept elements, 8 bytes each at most */
    v.n_anc = r->type == 2
                  ? 16u + (uint32_t)count *
                              (uint32_t)(r->out_type == TFLC_INT4
                                             ? 1
                                             : tflc_type_size((int)r->out_type))
                  : (uint32_t)sizeof anc;
    if (v.n_anc > sizeof anc)
      v.n_anc = sizeof anc;
    v.type = r->out_type;
    v.rank = r->rank;
    memcpy(v.dims, r->dims, sizeof v.dims);
    v.num_scales = r->nscales;
    v.zero_points = r->zp;
    v.num_zero_points = r->nscales;
    v.axis = r->axis;
    bytes = vector_model(&v, &size);
    CHECK(bytes != NULL);
    if (!bytes)
      continue;
    CHECK_EQ_INT(tflc_model_init(&m, bytes, size), r->st);
    if (!strstr(tflc_model_error(&m), r->msg)) {
      fprintf(stderr, "  %s: \"%s\", expected \"%s\"\n", r->what,
              tflc_model_error(&m), r->msg);
      CHECK(0);
    }
    free(bytes);
  }
}

static void test_int4_refusals(void) {
  static uint8_t out[4096];
  uint32_t n = 0;
  size_t size = 0;
  uint8_t *bytes;
  layer fc = {
      TFLC_OP_FULLY_CONNECTED, 1, 0, 0, 16, 3, 0, 0, ENC_INT4, ENC_RAW, 0, 0};
  harness_current = "test_int4_refusals";
  /* per-channel INT4 weights of FULLY_CONNECTED: TFLM refuses them */
  bytes = build_layer(&fc, &size);
  CHECK_EQ_INT(run_model(bytes, size, 1, out, &n, NULL, NULL),
               TFLC_ERR_UNSUPPORTED);
  free(bytes);
  /* an INT4 constant anywhere but a filter */
  {
    tflc_writer *w = tflc_writer_create();
    static const int32_t d[1] = {4};
    static const uint8_t packed[2] = {0x21, 0x43};
    float s = 0.5f;
    int64_t z = 0;
    tflc_w_quant q;
    tflc_model m;
    tflc_interpreter it;
    int32_t ins[2], y;
    q.scale = &s;
    q.zero_point = &z;
    q.count = 1;
    q.axis = 0;
    ins[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "x", &q);
    ins[1] = tflc_writer_tensor(w, 0, TFLC_INT4, 1, d, packed, 2, "k", &q);
    y = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "y", &q);
    tflc_writer_op(w, 0, 0, NULL, 2, ins, 1, &y, 11, 0, NULL);
    tflc_writer_inputs(w, 0, 1, ins);
    tflc_writer_outputs(w, 0, 1, &y);
    CHECK_EQ_INT(tflc_writer_finish(w, &bytes, &size), TFLC_OK);
    CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
    CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
                 TFLC_ERR_TYPE);
    CHECK(strstr(it.error, "INT4 tensor 1") != NULL);
    free(bytes);
    /* and an INT4 buffer one byte short of ceil(n / 2) */
    tflc_writer_destroy(w);
    w = tflc_writer_create();
    ins[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "x", &q);
    ins[1] = tflc_writer_tensor(w, 0, TFLC_INT4, 1, d, packed, 1, "k", &q);
    y = tflc_writer_tensor(w, 0, TFLC_INT8, 1, d, NULL, 0, "y", &q);
    tflc_writer_op(w, 0, 0, NULL, 2, ins, 1, &y, 11, 0, NULL);
    tflc_writer_inputs(w, 0, 1, ins);
    tflc_writer_outputs(w, 0, 1, &y);
    CHECK_EQ_INT(tflc_writer_finish(w, &bytes, &size), TFLC_OK);
    CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_ERR_BUFFER);
    free(bytes);
    tflc_writer_destroy(w);
  }
}

int main(void) {
  rng_seed(0x2468ACE1u);
  RUN(test_vectors_kernel_api);
  RUN(test_vectors_models);
  RUN(test_ancillary_type);
  RUN(test_int4);
  RUN(test_huffman_codes);
  RUN(test_huffman_bad);
  RUN(test_prune_codes);
  RUN(test_cursor);
  RUN(test_layers);
  RUN(test_refusals);
  RUN(test_int4_refusals);
  return harness_report();
}

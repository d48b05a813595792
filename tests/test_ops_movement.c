/* tests/test_ops_movement.c - data movement and resampling operators
 * (CONCATENATION, PACK, SPLIT, SPLIT_V, UNPACK, GATHER, SLICE,
 * STRIDED_SLICE, PADV2, SPACE_TO_DEPTH, DEPTH_TO_SPACE, BATCH_TO_SPACE_ND,
 * SPACE_TO_BATCH_ND, SQUEEZE, EXPAND_DIMS, SHAPE, ZEROS_LIKE,
 * RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR).
 *
 * Evidence:
 *   - hand-computed values (worked out in the comments);
 *   - outputs recorded from TFLM's reference kernels (conformance cases
 *     named in the comments; inputs regenerated from the case seed);
 *   - naive per-element references written here from the operators'
 *     definitions (output element -> input element), on random shapes;
 *   - single-operator models built with the writer, run through the
 *     interpreter: refusals TFLM makes at prepare, parameters coming from
 *     non-constant tensors, compressed CONCATENATION inputs in both
 *     formats. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#endif
#include "../tflc_write.h"
#include "harness.h"
#include "models.h"

#include <stdlib.h>
#include <string.h>

/* ---- utilities ------------------------------------------------------------
 */

/* ---- kernels: hand-computed values ----------------------------------------
 */
static void test_copy_rows(void) {
  /* two rows of 3 bytes from a stride-5 source into a stride-4 target */
  const unsigned char src[10] = {1, 2, 3, 9, 9, 4, 5, 6, 9, 9};
  unsigned char dst[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  const unsigned char want[8] = {1, 2, 3, 0, 4, 5, 6, 0};
  tflc_copy_rows(2, 3, src, 5, dst, 4);
  CHECK_EQ_MEM(dst, want, 8);
  tflc_copy_rows(2, 0, src, 5, dst, 4); /* nothing */
  CHECK_EQ_MEM(dst, want, 8);
}

static void test_space_depth_hand(void) {
  /* TensorFlow's documented example: [1, 2, 2, 1] {1, 2, 3, 4} with block
   * 2 gives [1, 1, 1, 4] {1, 2, 3, 4}; and [1, 4, 4, 1] 1..16 gives
   * [1, 2, 2, 4] {1,2,5,6, 3,4,7,8, 9,10,13,14, 11,12,15,16}. */
  const int32_t d1[4] = {1, 2, 2, 1}, d2[4] = {1, 4, 4, 1};
  const int8_t a[4] = {1, 2, 3, 4};
  const int8_t want2[16] = {1, 2,  5,  6,  3,  4,  7,  8,
                            9, 10, 13, 14, 11, 12, 15, 16};
  int8_t b[16], back[16], in2[16];
  int i;
  tflc_space_depth(1, 1, d1, 2, a, b);
  CHECK_EQ_MEM(b, a, 4);
  for (i = 0; i < 16; i++)
    in2[i] = (int8_t)(i + 1);
  tflc_space_depth(1, 1, d2, 2, in2, b);
  CHECK_EQ_MEM(b, want2, 16);
  tflc_space_depth(1, 0, d2, 2, b, back); /* DEPTH_TO_SPACE inverts it */
  CHECK_EQ_MEM(back, in2, 16);
}

static void test_batch_space_hand(void) {
  /* TensorFlow's documented example: SPACE_TO_BATCH_ND of [1, 2, 2, 1]
   * {1, 2, 3, 4} with block [2, 2], no padding, is [4, 1, 1, 1]
   * {1, 2, 3, 4}; of [1, 4, 4, 1] 1..16 it is [4, 2, 2, 1]
   * {1,3,9,11, 2,4,10,12, 5,7,13,15, 6,8,14,16}. With padding [[1, 0],
   * [0, 1]] on [1, 1, 1, 1] {7}, block [2, 2]: padded image 2x2 is
   * {z, z, 7, z}; batch (sh, sw) takes pixel (sh, sw): {z, z, 7, z}. */
  const int32_t d4[4] = {1, 4, 4, 1}, o4[4] = {4, 2, 2, 1};
  const int32_t d1[4] = {1, 1, 1, 1}, o1[4] = {4, 1, 1, 1};
  const int8_t want[16] = {1, 3, 9,  11, 2, 4, 10, 12,
                           5, 7, 13, 15, 6, 8, 14, 16};
  const int8_t seven = 7, z = -5, want1[4] = {-5, -5, 7, -5};
  int8_t in[16], out[16], back[16], o[4], b1 = 0;
  int i;
  for (i = 0; i < 16; i++)
    in[i] = (int8_t)(i + 1);
  tflc_space_to_batch(1, d4, o4, 2, 2, 0, 0, &z, in, out);
  CHECK_EQ_MEM(out, want, 16);
  memset(back, 0, sizeof back);
  tflc_batch_to_space(1, o4, d4, 2, 2, 0, 0, out, back);
  CHECK_EQ_MEM(back, in, 16);
  tflc_space_to_batch(1, d1, o1, 2, 2, 1, 0, &z, &seven, o);
  CHECK_EQ_MEM(o, want1, 4);
  /* and back with crops [[1, 0], [0, 1]] */
  tflc_batch_to_space(1, o1, d1, 2, 2, 1, 0, o, &b1);
  CHECK_EQ_INT(b1, 7);
}

static void test_gather_hand(void) {
  /* params [3, 2] {10,11, 20,21, 30,31}, axis 0, coords {2, 0, 2} ->
   * {30,31, 10,11, 30,31}; coords {3} is out of range */
  const int8_t p[6] = {10, 11, 20, 21, 30, 31};
  const int32_t co[3] = {2, 0, 2}, bad[2] = {0, 3}, neg[1] = {-1};
  const int8_t want[6] = {30, 31, 10, 11, 30, 31};
  int8_t out[6];
  memset(out, 0, sizeof out);
  CHECK_EQ_INT(tflc_gather(1, 1, 1, 3, 3, 2, co, p, out), 0);
  CHECK_EQ_MEM(out, want, 6);
  memset(out, 0, sizeof out);
  CHECK_EQ_INT(tflc_gather(1, 1, 1, 3, 2, 2, bad, p, out), -1);
  CHECK_EQ_INT(out[0], 0); /* nothing written */
  CHECK_EQ_INT(tflc_gather(1, 1, 1, 3, 1, 2, neg, p, out), -1);
  /* axis 1 of [2, 3] {1,2,3, 4,5,6}, batch_dims 1, coords [2, 1] {2, 0}:
   * row 0 takes element 2, row 1 element 0 -> {3, 4} */
  {
    const int16_t q[6] = {1, 2, 3, 4, 5, 6};
    const int32_t c2[2] = {2, 0};
    int16_t o2[2];
    CHECK_EQ_INT(tflc_gather(2, 2, 1, 3, 1, 1, c2, q, o2), 0);
    CHECK_EQ_INT(o2[0], 3);
    CHECK_EQ_INT(o2[1], 4);
  }
}

static void test_strided_axis_hand(void) {
  /* one axis of size 6 (TFLM clamps begin/end, counts from the end for
   * negative values, masks override; a shrunk axis takes begin) */
  struct {
    int32_t b, e, s;
    int bm, em, sh;
    int32_t start, count, ret;
  } t[] = {{1, 5, 2, 0, 0, 0, 1, 2, 0},      /* 1, 3 */
           {-1, 0, -1, 0, 0, 0, 5, 5, 0},    /* 5, 4, 3, 2, 1 */
           {5, 0, -2, 0, 0, 0, 5, 3, 0},     /* 5, 3, 1 */
           {-9, 99, 1, 0, 0, 0, 0, 6, 0},    /* clamped to [0, 6) */
           {99, -99, -1, 0, 0, 0, 5, 6, 0},  /* clamped to 5 .. -1 */
           {4, 2, 1, 0, 0, 0, 4, 0, 0},      /* empty */
           {3, 3, 1, 1, 0, 0, 0, 3, 0},      /* begin_mask: from 0 */
           {3, 3, -1, 1, 1, 0, 5, 6, 0},     /* both masks backwards: all */
           {2, 3, 1, 0, 1, 0, 2, 4, 0},      /* end_mask: to the end */
           {-2, 0, 1, 0, 0, 1, 4, 1, 0},     /* shrink at 4 */
           {6, 0, 1, 0, 0, 1, 6, 1, -1},     /* shrink outside: refused */
           {2, 0, -1, 0, 0, 1, 2, 1, -1},    /* shrink backwards: refused */
           {0, 6, 4, 0, 0, 0, 0, 2, 0},      /* 0, 4 */
           {-7, -8, -1, 0, 0, 0, -1, 0, 0}}; /* start -1 backwards: empty */
  size_t i;
  for (i = 0; i < sizeof t / sizeof t[0]; i++) {
    int32_t start = -100, count = -100;
    int r = tflc_strided_slice_axis(6, t[i].b, t[i].e, t[i].s, t[i].bm, t[i].em,
                                    t[i].sh, &start, &count);
    CHECK_EQ_INT(r, t[i].ret);
    if (r == 0) {
      CHECK_EQ_INT(start, t[i].start);
      CHECK_EQ_INT(count, t[i].count);
    }
  }
}

static void test_resize_hand(void) {
  /* bilinear int8, [1, 1, 2, 1] {0, 101} -> width 4: Q10 scale
   * (2048 + 2) / 4 = 512; x = 1 sits halfway: 101 * 512 * 1024 / 2^20 =
   * 50.5 -> 51 (half away from zero); x = 2, 3 clamp to 101. Negated:
   * -50.5 -> -51. */
  const int32_t d[4] = {1, 1, 2, 1}, d3[4] = {1, 1, 3, 1};
  const int8_t in[2] = {0, 101}, nin[2] = {0, -101};
  const int8_t want[4] = {0, 51, 101, 101}, nwant[4] = {0, -51, -101, -101};
  const float fin[2] = {0.0f, 1.0f};
  const float fwant[4] = {0.0f, 0.5f, 1.0f, 1.0f};
  const float fhalf[4] = {0.0f, 0.25f, 0.75f, 1.0f};
  const int16_t nn[3] = {100, 200, 300};
  int8_t out[4];
  float fo[4];
  int16_t no[5];
  tflc_resize_bilinear_s8(d, 1, 4, 0, 0, in, out);
  CHECK_EQ_MEM(out, want, 4);
  tflc_resize_bilinear_s8(d, 1, 4, 0, 0, nin, out);
  CHECK_EQ_MEM(out, nwant, 4);
  /* float: scale 0.5; half-pixel positions -0.25, 0.25, 0.75, 1.25 */
  tflc_resize_bilinear_f32(d, 1, 4, 0, 0, fin, fo);
  CHECK_EQ_MEM(fo, fwant, sizeof fo);
  tflc_resize_bilinear_f32(d, 1, 4, 0, 1, fin, fo);
  CHECK_EQ_MEM(fo, fhalf, sizeof fo);
  /* align_corners, width 2 -> 3: scale 1/2, middle = 0.5 */
  tflc_resize_bilinear_f32(d, 1, 3, 1, 0, fin, fo);
  CHECK(fo[0] == 0.0f && fo[1] == 0.5f && fo[2] == 1.0f);
  /* nearest, width 3 -> 5: scale 0.6 -> sources 0,0,1,1,2; align_corners
   * scale 0.5 rounded half away -> 0,1,1,2,2; half-pixel (x + 0.5) * 0.6
   * -> 0,0,1,2,2 */
  tflc_resize_nearest(2, d3, 1, 5, 0, 0, nn, no);
  CHECK(no[0] == 100 && no[1] == 100 && no[2] == 200 && no[3] == 200 &&
        no[4] == 300);
  tflc_resize_nearest(2, d3, 1, 5, 1, 0, nn, no);
  CHECK(no[0] == 100 && no[1] == 200 && no[2] == 200 && no[3] == 300 &&
        no[4] == 300);
  tflc_resize_nearest(2, d3, 1, 5, 0, 1, nn, no);
  CHECK(no[0] == 100 && no[1] == 100 && no[2] == 200 && no[3] == 300 &&
        no[4] == 300);
}

/* Outputs recorded from TFLM (conformance RESIZE_BILINEAR and
 * RESIZE_NEAREST_NEIGHBOR cases i8_1x8x8x1_to3x5_half_pixel, seeds
 * 1747612 / 1317112, and i8_1x3x5x2_to7x4_align_corners, seeds 1747611 /
 * 1317111). */
static void test_resize_recorded(void) {
  static const int8_t bl_half[15] = {-42, -37, 67, -53, 97, 0,   -29, 50,
                                     26,  -21, 17, 64,  17, -85, 57};
  static const int8_t bl_align[56] = {
      -33, -104, -3, 0,   83,  -1,  20,   -8,  -13, -74,  -5, 30,  51,  -6,
      25,  12,   8,  -44, -8,  59,  19,   -11, 31,  33,   28, -14, -11, 88,
      -12, -15,  36, 53,  -21, -33, 13,   24,  8,   -6,   -5, 57,  -71, -52,
      38,  -41,  29, 3,   -46, 60,  -121, -71, 62,  -105, 50, 13,  -87, 64};
  static const int8_t nn_half[15] = {-21, -48, -109, 41,  120, -96, 87, 21,
                                     10,  27,  -63,  -52, -7,  37,  33};
  static const int8_t nn_align_head[16] = {50, -113, -27, -8, 40, -37, -74, 96,
                                           50, -113, -27, -8, 40, -37, -74, 96};
  const int32_t d8[4] = {1, 8, 8, 1}, d3[4] = {1, 3, 5, 2};
  int8_t in[64], out[56];
  conformance_i8(1747612u, 0, in, 64);
  tflc_resize_bilinear_s8(d8, 3, 5, 0, 1, in, out);
  CHECK_EQ_MEM(out, bl_half, 15);
  conformance_i8(1747611u, 0, in, 30);
  tflc_resize_bilinear_s8(d3, 7, 4, 1, 0, in, out);
  CHECK_EQ_MEM(out, bl_align, 56);
  conformance_i8(1317112u, 0, in, 64);
  tflc_resize_nearest(1, d8, 3, 5, 0, 1, in, out);
  CHECK_EQ_MEM(out, nn_half, 15);
  conformance_i8(1317111u, 0, in, 30);
  tflc_resize_nearest(1, d3, 7, 4, 1, 0, in, out);
  CHECK_EQ_MEM(out, nn_align_head, 16);
}

/* float RESIZE_BILINEAR [1, 3, 5, 1] -> [1, 4, 7, 1], inputs from the
 * conformance generator (float: (x >> 8) / 2^23 - 1) with seeds 777 (plain),
 * 778 (align_corners), 779 (half_pixel_centers); outputs (bit patterns)
 * recorded from TFLM's reference ResizeBilinear (tflite-micro 90b983c2b,
 * x86-64). */
static const uint32_t bilinear_f32_rec[3][28] = {
    {0xBF677578u, 0xBF2344BEu, 0xBEFBB915u, 0xBEF9B5F6u, 0xBF3B5D47u,
     0xBF308166u, 0xBF1EFC26u, 0x3CD14F90u, 0xBAF22280u, 0xBEBB0035u,
     0xBF2CA7ABu, 0x3E043522u, 0x3D99CD08u, 0xBDB001ECu, 0xBD91DFE0u,
     0x3EADAE45u, 0x3E422C02u, 0xBE5482F0u, 0xBDCFBCA2u, 0xBDCD48A8u,
     0xBDEC096Eu, 0xBEF4AF8Cu, 0x3EEFC6E2u, 0x3F33CCA1u, 0x3EA4AA32u,
     0xBF1E754Bu, 0xBF07CA22u, 0xBEA556D8u},
    {0xBF676DB8u, 0xBF37C3FAu, 0xBDECD6E8u, 0x3F670D9Au, 0x3E535228u,
     0xBE3BFDC7u, 0xBE88DCB8u, 0xBC971A70u, 0xBE8DCDB3u, 0xBE83818Bu,
     0x3D2B9670u, 0x3EBA2B0Au, 0x3E9997DBu, 0xBE188D65u, 0x3EAD862Cu,
     0xBDE6B3D7u, 0xBEAA0D2Fu, 0xBEA39A81u, 0x3EA96569u, 0x3EC0B3EBu,
     0xBE3B5DCCu, 0x3E2C1818u, 0xBE664B6Fu, 0xBEAED8A4u, 0xBE3A1978u,
     0x3DDD60CAu, 0x3D3AAA8Eu, 0xBEBD1550u},
    {0xBF6765F7u, 0xBF3A069Du, 0xBEED6087u, 0xBE0DACD8u, 0xBD2C7C3Fu,
     0x3E8D8FD9u, 0x3F26638Au, 0xBE57DB0Fu, 0xBE6955E6u, 0xBE78B811u,
     0xBE7E672Au, 0x3CA102A8u, 0x3EBA4DE8u, 0x3F2E0AD8u, 0xBE591918u,
     0xBE912DA9u, 0xBE614722u, 0x3D958EEAu, 0x3E416508u, 0x3E8937ACu,
     0x3E9F9D0Eu, 0xBF6839FDu, 0xBF600A39u, 0xBECE1F49u, 0x3F380934u,
     0x3ED176BDu, 0x3CAA9E43u, 0xBEA9CFF5u},
};
static void test_resize_f32_recorded(void) {
  const int32_t d[4] = {1, 3, 5, 1};
  float in[15], out[28];
  int mode;
  for (mode = 0; mode < 3; mode++) {
    conformance_f32(777u, (uint32_t)mode, in, 15);
    tflc_resize_bilinear_f32(d, 4, 7, mode == 1, mode == 2, in, out);
    CHECK_EQ_MEM(out, bilinear_f32_rec[mode], sizeof out);
  }
}

/* ---- kernels: naive references on random shapes ---------------------------
 */
static void test_space_depth_random(void) {
  int it;
  for (it = 0; it < 200; it++) {
    const int32_t b = rng_int(1, 4);
    const int32_t d[4] = {rng_int(1, 2), b * rng_int(1, 3), b * rng_int(1, 3),
                          rng_int(1, 3)};
    const int32_t n = d[0] * d[1] * d[2] * d[3];
    const int32_t hd = d[1] / b, wd = d[2] / b, cd = d[3] * b * b;
    int16_t in[512], out[512], ref[512], back[512];
    int32_t i, ok = 1;
    rng_bytes(in, sizeof in);
    tflc_space_depth(2, 1, d, b, in, out);
    /* naive: deep element (n, y, x, k) with k = (bh * b + bw) * C + c comes
     * from spatial (n, y * b + bh, x * b + bw, c) */
    for (i = 0; i < n; i++) {
      const int32_t k = i % cd, x = i / cd % wd, y = i / cd / wd % hd;
      const int32_t nn = i / cd / wd / hd, c = k % d[3];
      const int32_t bw = k / d[3] % b, bh = k / d[3] / b;
      ref[i] = in[((nn * d[1] + y * b + bh) * d[2] + x * b + bw) * d[3] + c];
    }
    CHECK_EQ_MEM(out, ref, (size_t)n * 2);
    tflc_space_depth(2, 0, d, b, out, back);
    for (i = 0; i < n; i++)
      ok &= back[i] == in[i];
    CHECK(ok);
  }
}

static void test_batch_space_random(void) {
  int it;
  for (it = 0; it < 300; it++) {
    const int32_t bh = rng_int(1, 3), bw = rng_int(1, 3);
    const int32_t n = rng_int(1, 2), h = rng_int(1, 5), w = rng_int(1, 5),
                  c = rng_int(1, 2);
    int32_t pt = rng_int(0, 3), pb = rng_int(0, 3), pl = rng_int(0, 3),
            pr = rng_int(0, 3), i, ok = 1;
    int32_t id[4], od[4];
    int8_t in[100], out[2000], ref[2000], back[100];
    const int8_t pad = (int8_t)rng_int(-128, 127);
    while ((h + pt + pb) % bh)
      pb++;
    while ((w + pl + pr) % bw)
      pr++;
    id[0] = n;
    id[1] = h;
    id[2] = w;
    id[3] = c;
    od[0] = n * bh * bw;
    od[1] = (h + pt + pb) / bh;
    od[2] = (w + pl + pr) / bw;
    od[3] = c;
    rng_bytes(in, sizeof in);
    tflc_space_to_batch(1, id, od, bh, bw, pt, pl, &pad, in, out);
    /* naive: output (b, y, x, k), b = (sh * bw + sw) * n + nn, reads padded
     * input pixel (nn, y * bh + sh, x * bw + sw) */
    for (i = 0; i < od[0] * od[1] * od[2] * c; i++) {
      const int32_t k = i % c, x = i / c % od[2], y = i / c / od[2] % od[1];
      const int32_t b = i / c / od[2] / od[1];
      const int32_t nn = b % n, sw = b / n % bw, sh = b / n / bw;
      const int32_t py = y * bh + sh - pt, px = x * bw + sw - pl;
      ref[i] = (py < 0 || py >= h || px < 0 || px >= w)
                   ? pad
                   : in[((nn * h + py) * w + px) * c + k];
    }
    CHECK_EQ_MEM(out, ref, (size_t)(od[0] * od[1] * od[2] * c));
    /* BATCH_TO_SPACE_ND with the paddings as crops gives the input back */
    memset(back, 0x55, sizeof back);
    tflc_batch_to_space(1, od, id, bh, bw, pt, pl, out, back);
    for (i = 0; i < n * h * w * c; i++)
      ok &= back[i] == in[i];
    CHECK(ok);
  }
}

static void test_strided_random(void) {
  int it;
  for (it = 0; it < 500; it++) {
    const int32_t rank = rng_int(1, 4);
    int32_t d[4], start[4], stride[4], count[4], k, i, n = 1, total = 1;
    int32_t in[1296], out[1296], ref[1296];
    for (k = 0; k < rank; k++) {
      d[k] = rng_int(1, 6);
      n *= d[k];
      do
        stride[k] = rng_int(-3, 3);
      while (stride[k] == 0);
      (void)tflc_strided_slice_axis(d[k], rng_int(-8, 8), rng_int(-8, 8),
                                    stride[k], (int)(rng() & 1),
                                    (int)(rng() & 1), 0, &start[k], &count[k]);
      if (it >= 250 && (rng() & 1)) { /* an axis taken whole */
        start[k] = 0;
        stride[k] = 1;
        count[k] = d[k];
      }
      total *= count[k];
    }
    for (i = 0; i < n; i++)
      in[i] = (int32_t)rng();
    memset(out, 0, sizeof out);
    tflc_strided_slice(4, rank, d, start, stride, count, in, out);
    /* naive: output element i -> per-axis index j_k -> input index
     * start_k + j_k * stride_k */
    for (i = 0; i < total; i++) {
      int32_t rem = i, off = 0, mul = 1;
      for (k = rank - 1; k >= 0; k--) {
        const int32_t j = rem % count[k];
        rem /= count[k];
        off += (start[k] + j * stride[k]) * mul;
        mul *= d[k];
      }
      ref[i] = in[off];
    }
    CHECK_EQ_MEM(out, ref, (size_t)total * 4);
  }
}

static void test_gather_random(void) {
  int it;
  for (it = 0; it < 200; it++) {
    const int32_t batch = rng_int(1, 3), outer = rng_int(1, 3),
                  axis = rng_int(1, 5), cs = rng_int(0, 4),
                  inner = rng_int(1, 3);
    int32_t co[12], i;
    float in[135], out[180], ref[180];
    for (i = 0; i < batch * cs; i++)
      co[i] = rng_int(0, axis - 1);
    for (i = 0; i < batch * outer * axis * inner; i++)
      in[i] = (float)rng_int(-1000, 1000) * 0.25f;
    CHECK_EQ_INT(tflc_gather(4, batch, outer, axis, cs, inner, co, in, out), 0);
    for (i = 0; i < batch * outer * cs * inner; i++) {
      const int32_t e = i % inner, j = i / inner % cs,
                    o = i / inner / cs % outer;
      const int32_t b = i / inner / cs / outer;
      ref[i] = in[((b * outer + o) * axis + co[b * cs + j]) * inner + e];
    }
    CHECK_EQ_MEM(out, ref, (size_t)(batch * outer * cs * inner) * 4);
  }
}

/* An independent int8 bilinear reference from INT8_KERNELS.md 6.2, written
 * with floor-free integer steps of its own: positions in Q10, source rows
 * from truncating division, weights 1024 - frac / frac, products summed in
 * int64, rounded half away from zero by dividing magnitudes. */
static int8_t ref_bilinear_px(const int8_t *img, int32_t h, int32_t w,
                              int32_t c, int32_t depth, int32_t vy,
                              int32_t vx) {
  int32_t y0 = vy / 1024 < 0 ? 0 : vy / 1024,
          x0 = vx / 1024 < 0 ? 0 : vx / 1024;
  int32_t y1 = (vy + 1023) / 1024, x1 = (vx + 1023) / 1024;
  int64_t fy = vy - 1024 * y0, fx = vx - 1024 * x0, s, mag;
  if (y1 > h - 1)
    y1 = h - 1;
  if (x1 > w - 1)
    x1 = w - 1;
  s = (int64_t)img[(y0 * w + x0) * depth + c] * (1024 - fy) * (1024 - fx) +
      (int64_t)img[(y1 * w + x0) * depth + c] * fy * (1024 - fx) +
      (int64_t)img[(y0 * w + x1) * depth + c] * (1024 - fy) * fx +
      (int64_t)img[(y1 * w + x1) * depth + c] * fy * fx;
  mag = ((s < 0 ? -s : s) + (1 << 19)) >> 20;
  mag = s < 0 ? -mag : mag;
  return (int8_t)(mag > 127 ? mag - 256 : mag < -128 ? mag + 256 : mag);
}
static void test_bilinear_random(void) {
  int it;
  for (it = 0; it < 300; it++) {
    const int32_t h = rng_int(1, 6), w = rng_int(1, 6), c = rng_int(1, 3);
    const int32_t oh = rng_int(1, 9), ow = rng_int(1, 9);
    const int align = (int)(rng() & 1), half = align ? 0 : (int)(rng() & 1);
    const int32_t d[4] = {1, h, w, c};
    int8_t in[108], out[243], ref[243];
    int32_t sy, sx, y, x, k;
    rng_bytes(in, sizeof in);
    sy = align && oh > 1 ? (1024 * (h - 1) + (oh - 1) / 2) / (oh - 1)
                         : (1024 * h + oh / 2) / oh;
    sx = align && ow > 1 ? (1024 * (w - 1) + (ow - 1) / 2) / (ow - 1)
                         : (1024 * w + ow / 2) / ow;
    for (y = 0; y < oh; y++)
      for (x = 0; x < ow; x++)
        for (k = 0; k < c; k++)
          ref[(y * ow + x) * c + k] = ref_bilinear_px(
              in, h, w, k, c, y * sy + (half ? sy / 2 - 512 : 0),
              x * sx + (half ? sx / 2 - 512 : 0));
    tflc_resize_bilinear_s8(d, oh, ow, align, half, in, out);
    CHECK_EQ_MEM(out, ref, (size_t)(oh * ow * c));
  }
}

/* ---- single-operator models through the interpreter -----------------------
 */
static void test_model_concat(void) {
  /* [2, 3] ++ [2, 2] on axis 1 (also as -1), int8 sharing quantization */
  const int32_t a_d[2] = {2, 3}, b_d[2] = {2, 2}, o_d[2] = {2, 5};
  const int8_t a[6] = {1, 2, 3, 4, 5, 6}, b[4] = {-1, -2, -3, -4};
  const int8_t want[10] = {1, 2, 3, -1, -2, 4, 5, 6, -3, -4};
  const void *feeds[2] = {a, b};
  int8_t out[10];
  void *outs[1] = {out};
  op_spec s = op_spec_of(2, 10);
  op_result r;
  s.nopts = 1;
  s.opts[0] = opt_i32(0, -1);
  s.nin = 2;
  s.nout = 1;
  s.in[0] = tensor_quant(tensor_shape(TFLC_INT8, 2, a_d), 0.5f, 3);
  s.in[1] = tensor_quant(tensor_shape(TFLC_INT8, 2, b_d), 0.5f, 3);
  s.out[0] = tensor_quant(tensor_shape(TFLC_INT8, 2, o_d), 0.5f, 3);
  r = run_op_model(&s, feeds, outs);
  CHECK_EQ_INT(r.init, TFLC_OK);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  CHECK_EQ_MEM(out, want, 10);
  /* TFLM refuses int8 inputs whose scale or zero point differ */
  s.in[1] = tensor_quant(tensor_shape(TFLC_INT8, 2, b_d), 0.25f, 3);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_QUANT);
  s.in[1] = tensor_quant(tensor_shape(TFLC_INT8, 2, b_d), 0.5f, 4);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_QUANT);
  s.in[1] = tensor_quant(tensor_shape(TFLC_INT8, 2, b_d), 0.5f, 3);
  /* ... and a fused activation */
  s.nopts = 2;
  s.opts[1] = opt_u8(1, 1);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_UNSUPPORTED);
  s.nopts = 1;
  /* ... and int16 with a zero point */
  s.in[0] = tensor_quant(tensor_shape(TFLC_INT16, 2, a_d), 0.5f, 0);
  s.in[1] = tensor_quant(tensor_shape(TFLC_INT16, 2, b_d), 0.5f, 1);
  s.out[0] = tensor_quant(tensor_shape(TFLC_INT16, 2, o_d), 0.5f, 0);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_QUANT);
  /* wrong output size, axis out of range */
  s.in[1] = tensor_quant(tensor_shape(TFLC_INT8, 2, b_d), 0.5f, 3);
  s.in[0] = tensor_quant(tensor_shape(TFLC_INT8, 2, a_d), 0.5f, 3);
  s.out[0] = tensor_quant(tensor_shape(TFLC_INT8, 2, a_d), 0.5f, 3);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_SHAPE);
  s.out[0] = tensor_quant(tensor_shape(TFLC_INT8, 2, o_d), 0.5f, 3);
  s.opts[0] = opt_i32(0, 2);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_SHAPE);
}

/* A compressed constant second input, both formats and several widths,
 * against the same model uncompressed; the decode goes straight into the
 * output, so no whole-tensor buffer is planned. */
static void test_model_concat_compressed(void) {
  const int32_t a_d[3] = {2, 3, 4}, b_d[3] = {2, 3, 9}, o_d[3] = {2, 3, 13};
  int8_t a[24], bc[54], plain[78], got[78];
  float fa[24], fb[54], fplain[78], fgot[78];
  const void *feeds[1] = {a}, *ffeeds[1] = {fa};
  void *outs[1] = {plain}, *fouts[1] = {fplain};
  int32_t i, f, bits;
  op_spec s = op_spec_of(2, 10);
  op_result r0, r;
  rng_bytes(a, sizeof a);
  for (i = 0; i < 54; i++) {
    bc[i] = (int8_t)((int32_t)(rng() % 5u) * 17 - 30);
    fa[i % 24] = (float)rng_int(-100, 100) / 7.0f;
    fb[i] = (float)(rng() % 3u) * 0.375f - 0.5f;
  }
  s.nopts = 1;
  s.opts[0] = opt_i32(0, 2);
  s.nin = 2;
  s.nout = 1;
  s.in[0] = tensor_quant(tensor_shape(TFLC_INT8, 3, a_d), 0.1f, -2);
  s.in[1] =
      tensor_quant(tensor_const(TFLC_INT8, 3, b_d, bc, sizeof bc), 0.1f, -2);
  s.out[0] = tensor_quant(tensor_shape(TFLC_INT8, 3, o_d), 0.1f, -2);
  r0 = run_op_model(&s, feeds, outs);
  CHECK_EQ_INT(r0.invoke, TFLC_OK);
  for (i = 0; i < 6; i++) {
    CHECK_EQ_MEM(plain + 13 * i, a + 4 * i, 4);
    CHECK_EQ_MEM(plain + 13 * i + 4, bc + 9 * i, 9);
  }
  for (f = TFLC_W_METADATA; f <= TFLC_W_DECODE; f++)
    for (bits = 3; bits <= 7; bits += 2) {
      outs[0] = got;
      s.compress_in = 1;
      s.format = f;
      s.bits = bits;
      memset(got, 0, sizeof got);
      r = run_op_model(&s, feeds, outs);
      CHECK_EQ_INT(r.invoke, TFLC_OK);
      CHECK_EQ_MEM(got, plain, sizeof got);
      /* no whole-tensor decode buffer (64 B here): only the constant's
       * descriptor, built once at init */
      CHECK(r.arena <= r0.arena + sizeof(tflc_const));
    }
  /* per-channel tables (two scales on axis 0, the first one the output's):
   * each row decodes with its channel's table */
  {
    static const float sc2[2] = {0.1f, 0.2f};
    s.compress_in = -1;
    s.in[1].scales = sc2;
    s.in[1].nscales = 2;
    outs[0] = plain;
    for (i = 0; i < 54; i++)
      bc[i] = (int8_t)((int32_t)(rng() % 4u) * 11 - 20 + (i >= 27 ? 40 : 0));
    s.in[1].data = bc;
    CHECK_EQ_INT(run_op_model(&s, feeds, outs).invoke, TFLC_OK);
    CHECK_EQ_MEM(plain + 4, bc, 9);
    CHECK_EQ_MEM(plain + 13 * 5 + 4, bc + 45, 9);
    for (f = TFLC_W_METADATA; f <= TFLC_W_DECODE; f++) {
      s.compress_in = 1;
      s.format = f;
      s.bits = 2;
      outs[0] = got;
      memset(got, 0, sizeof got);
      r = run_op_model(&s, feeds, outs);
      CHECK_EQ_INT(r.invoke, TFLC_OK);
      CHECK_EQ_MEM(got, plain, sizeof got);
    }
    s.in[1].nscales = 0;
  }
  /* float32 */
  s.compress_in = -1;
  s.in[0] = tensor_shape(TFLC_FLOAT32, 3, a_d);
  s.in[1] = tensor_const(TFLC_FLOAT32, 3, b_d, fb, sizeof fb);
  s.out[0] = tensor_shape(TFLC_FLOAT32, 3, o_d);
  CHECK_EQ_INT(run_op_model(&s, ffeeds, fouts).invoke, TFLC_OK);
  s.compress_in = 1;
  s.bits = 2;
  for (f = TFLC_W_METADATA; f <= TFLC_W_DECODE; f++) {
    s.format = f;
    fouts[0] = fgot;
    memset(fgot, 0, sizeof fgot);
    CHECK_EQ_INT(run_op_model(&s, ffeeds, fouts).invoke, TFLC_OK);
    CHECK_EQ_MEM(fgot, fplain, sizeof fgot);
    fouts[0] = fplain;
  }
}

static void test_model_split_pack(void) {
  /* SPLIT [2, 6] on axis 1 into 3, SPLIT_V into {1, 4, 1}, then PACK and
   * UNPACK on axis 0 */
  const int32_t in_d[2] = {2, 6}, o2[2] = {2, 2}, o1[2] = {2, 1},
                o4[2] = {2, 4}, one[1] = {1}, three[1] = {3}, d6[1] = {6};
  const int32_t axis1 = 1, sizes[3] = {1, 4, 1}, pk_d[3] = {2, 2, 6}, axm1 = -1;
  const int16_t x[12] = {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15};
  int16_t a[12], b[12], c[12], pk[24];
  const void *feeds[2] = {x, x};
  void *outs[3] = {a, b, c};
  op_spec s = op_spec_of(49, 35);
  op_result r;
  s.nin = 2;
  s.nout = 3;
  s.in[0] = tensor_const(TFLC_INT32, 0, one, &axis1, 4);
  s.in[1] = tensor_shape(TFLC_INT16, 2, in_d);
  s.out[0] = s.out[1] = s.out[2] = tensor_shape(TFLC_INT16, 2, o2);
  r = run_op_model(&s, feeds, outs);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  CHECK(a[0] == 0 && a[1] == 1 && a[2] == 10 && a[3] == 11);
  CHECK(b[0] == 2 && b[1] == 3 && b[2] == 12 && b[3] == 13);
  CHECK(c[0] == 4 && c[1] == 5 && c[2] == 14 && c[3] == 15);
  s.out[2] = tensor_shape(TFLC_INT16, 2, o1); /* outputs must be equal */
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_SHAPE);
  s = op_spec_of(102, 79);
  s.nin = 3;
  s.nout = 3;
  s.in[0] = tensor_shape(TFLC_INT16, 2, in_d);
  s.in[1] = tensor_const(TFLC_INT32, 1, three, sizes, sizeof sizes);
  s.in[2] = tensor_const(TFLC_INT32, 0, one, &axm1, 4);
  s.out[0] = tensor_shape(TFLC_INT16, 2, o1);
  s.out[1] = tensor_shape(TFLC_INT16, 2, o4);
  s.out[2] = tensor_shape(TFLC_INT16, 2, o1);
  outs[0] = c;
  outs[1] = b;
  outs[2] = a;
  r = run_op_model(&s, feeds, outs);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  CHECK(c[0] == 0 && c[1] == 10 && a[0] == 5 && a[1] == 15);
  CHECK(b[0] == 1 && b[3] == 4 && b[4] == 11 && b[7] == 14);
  /* a zero-size piece is refused as TFLM does */
  {
    const int32_t o0[2] = {2, 0}, o6[2] = {2, 5};
    s.out[0] = tensor_shape(TFLC_INT16, 2, o0);
    s.out[1] = tensor_shape(TFLC_INT16, 2, o6);
    CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_UNSUPPORTED);
  }
  /* PACK two [2, 6] on axis 0 -> [2, 2, 6]: x then x */
  s = op_spec_of(83, 59);
  s.nopts = 2;
  s.opts[0] = opt_i32(0, 2);
  s.opts[1] = opt_i32(1, 0);
  s.nin = 2;
  s.nout = 1;
  s.in[0] = s.in[1] = tensor_shape(TFLC_INT16, 2, in_d);
  s.out[0] = tensor_shape(TFLC_INT16, 3, pk_d);
  outs[0] = pk;
  r = run_op_model(&s, feeds, outs);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  CHECK_EQ_MEM(pk, x, sizeof x);
  CHECK_EQ_MEM(pk + 12, x, sizeof x);
  s.opts[0] = opt_i32(0, 3); /* values_count must match */
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_SCHEMA);
  /* PACK on axis -1 -> [2, 6, 2]: pairs (x, x) */
  {
    const int32_t pd[3] = {2, 6, 2};
    int32_t i, ok = 1;
    s.opts[0] = opt_i32(0, 2);
    s.opts[1] = opt_i32(1, -1);
    s.out[0] = tensor_shape(TFLC_INT16, 3, pd);
    CHECK_EQ_INT(run_op_model(&s, feeds, outs).invoke, TFLC_OK);
    for (i = 0; i < 12; i++)
      ok &= pk[2 * i] == x[i] && pk[2 * i + 1] == x[i];
    CHECK(ok);
  }
  /* UNPACK [2, 6] on axis 1 into six [2] */
  {
    const int32_t d2[1] = {2};
    int16_t u[6][2];
    void *uo[6] = {u[0], u[1], u[2], u[3], u[4], u[5]};
    int32_t i, ok = 1;
    s = op_spec_of(88, 64);
    s.nopts = 2;
    s.opts[0] = opt_i32(0, 6);
    s.opts[1] = opt_i32(1, 1);
    s.nin = 1;
    s.nout = 6;
    s.in[0] = tensor_shape(TFLC_INT16, 2, in_d);
    for (i = 0; i < 6; i++)
      s.out[i] = tensor_shape(TFLC_INT16, 1, d2);
    CHECK_EQ_INT(run_op_model(&s, feeds, uo).invoke, TFLC_OK);
    for (i = 0; i < 6; i++)
      ok &= u[i][0] == x[i] && u[i][1] == x[6 + i];
    CHECK(ok);
    s.opts[0] = opt_i32(0, 5);
    CHECK_EQ_INT(run_op_model(&s, feeds, uo).init, TFLC_ERR_SCHEMA);
    (void)d6;
  }
}

static void test_model_slices(void) {
  /* SLICE [3, 4] begin {1, 1} size {2, -1} -> rows 1..2, cols 1..3 */
  const int32_t in_d[2] = {3, 4}, o_d[2] = {2, 3}, two[1] = {2};
  const int32_t begin[2] = {1, 1}, size[2] = {2, -1}, bad[2] = {2, 1};
  const int8_t x[12] = {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23};
  const int8_t want[6] = {11, 12, 13, 21, 22, 23};
  int8_t out[6];
  const void *feeds[3] = {x, begin, size};
  void *outs[1] = {out};
  op_spec s = op_spec_of(65, 48);
  op_result r;
  s.nin = 3;
  s.nout = 1;
  s.in[0] = tensor_shape(TFLC_INT8, 2, in_d);
  s.in[1] = tensor_const(TFLC_INT32, 1, two, begin, 8);
  s.in[2] = tensor_const(TFLC_INT32, 1, two, size, 8);
  s.out[0] = tensor_shape(TFLC_INT8, 2, o_d);
  r = run_op_model(&s, feeds, outs);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  CHECK_EQ_MEM(out, want, 6);
  s.in[1] = tensor_const(TFLC_INT32, 1, two, bad, 8); /* rows 2..3 of 3 */
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_SHAPE);
  /* begin and size as graph inputs: read and checked at every invoke */
  s.in[1] = tensor_shape(TFLC_INT32, 1, two);
  s.in[2] = tensor_shape(TFLC_INT32, 1, two);
  memset(out, 0, sizeof out);
  r = run_op_model(&s, feeds, outs);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  CHECK_EQ_MEM(out, want, 6);
  feeds[1] = bad;
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).invoke, TFLC_ERR_KERNEL);
  feeds[1] = begin;
  /* STRIDED_SLICE [3, 4]: begin {-1, 0} end {0, 4} strides {-1, 2} ->
   * rows 2, 1; cols 0, 2 */
  {
    const int32_t b2[2] = {-1, 0}, e2[2] = {0, 4}, s2[2] = {-1, 2},
                  s3[2] = {1, 2}, b4[2] = {1, 0}, e4[2] = {2, 4},
                  s4[2] = {1, 1};
    const int8_t w2[4] = {20, 22, 10, 12};
    const int32_t sh_d[1] = {2};
    op_spec t = op_spec_of(45, 32);
    t.nin = 4;
    t.nout = 1;
    t.in[0] = tensor_shape(TFLC_INT8, 2, in_d);
    t.in[1] = tensor_const(TFLC_INT32, 1, two, b2, 8);
    t.in[2] = tensor_const(TFLC_INT32, 1, two, e2, 8);
    t.in[3] = tensor_const(TFLC_INT32, 1, two, s2, 8);
    {
      const int32_t od[2] = {2, 2};
      t.out[0] = tensor_shape(TFLC_INT8, 2, od);
    }
    r = run_op_model(&t, feeds, outs);
    CHECK_EQ_INT(r.invoke, TFLC_OK);
    CHECK_EQ_MEM(out, w2, 4);
    /* shrink_axis_mask 1 with a negative stride: TFLM writes nothing */
    t.nopts = 1;
    t.opts[0] = opt_i32(4, 1);
    t.out[0] = tensor_shape(TFLC_INT8, 1, sh_d);
    CHECK_EQ_INT(run_op_model(&t, feeds, outs).init, TFLC_ERR_UNSUPPORTED);
    /* shrink axis 0 at row -1 with stride 1 -> row 2, cols 0, 2 */
    t.in[3] = tensor_const(TFLC_INT32, 1, two, s3, 8);
    r = run_op_model(&t, feeds, outs);
    CHECK_EQ_INT(r.invoke, TFLC_OK);
    CHECK(out[0] == 20 && out[1] == 22);
    /* offset (slot 5) and ellipsis_mask (slot 2) are not used by TFLM's
     * kernel: begin {1, 0} end {2, 4} takes row 1 only, and an output
     * shaped for the offset reading (rows 1..2) is refused */
    {
      const int32_t od1[2] = {1, 4}, od2[2] = {2, 4};
      t.nopts = 2;
      t.opts[0] = opt_u8(5, 1);
      t.opts[1] = opt_i32(2, 1);
      t.in[1] = tensor_const(TFLC_INT32, 1, two, b4, 8);
      t.in[2] = tensor_const(TFLC_INT32, 1, two, e4, 8);
      t.in[3] = tensor_const(TFLC_INT32, 1, two, s4, 8);
      t.out[0] = tensor_shape(TFLC_INT8, 2, od1);
      r = run_op_model(&t, feeds, outs);
      CHECK_EQ_INT(r.invoke, TFLC_OK);
      CHECK(out[0] == 10 && out[1] == 11 && out[2] == 12 && out[3] == 13);
      t.out[0] = tensor_shape(TFLC_INT8, 2, od2);
      CHECK_EQ_INT(run_op_model(&t, feeds, outs).init, TFLC_ERR_SHAPE);
    }
    /* non-constant begin is refused, as TFLM does */
    t.in[1] = tensor_shape(TFLC_INT32, 1, two);
    CHECK_EQ_INT(run_op_model(&t, feeds, outs).init, TFLC_ERR_UNSUPPORTED);
  }
}

static void test_model_gather(void) {
  const int32_t p_d[2] = {3, 2}, c_d[1] = {3}, o_d[2] = {3, 2};
  const float p[6] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};
  const int32_t co[3] = {2, 2, 0}, bad[3] = {0, 3, 1};
  const float want[6] = {5.0f, 6.0f, 5.0f, 6.0f, 1.0f, 2.0f};
  float out[6];
  const void *feeds[2] = {p, co};
  void *outs[1] = {out};
  op_spec s = op_spec_of(36, 23);
  op_result r;
  s.nin = 2;
  s.nout = 1;
  s.in[0] = tensor_shape(TFLC_FLOAT32, 2, p_d);
  s.in[1] = tensor_shape(TFLC_INT32, 1, c_d);
  s.out[0] = tensor_shape(TFLC_FLOAT32, 2, o_d);
  r = run_op_model(&s, feeds, outs);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  CHECK_EQ_MEM(out, want, sizeof want);
  feeds[1] = bad; /* a position outside [0, 3) at run: error, no write */
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).invoke, TFLC_ERR_KERNEL);
  s.in[1] =
      tensor_const(TFLC_INT32, 1, c_d, bad, sizeof bad); /* constant: at init */
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_SHAPE);
  s.in[0] = tensor_shape(TFLC_INT16, 2, p_d); /* TFLM: float32 / int8 only */
  s.out[0] = tensor_shape(TFLC_INT16, 2, o_d);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_TYPE);
}

static void test_model_pad_space(void) {
  /* PADV2 [2] {5, 6} with [[1, 2]] and constant value 9 -> {9,5,6,9,9} */
  const int32_t d2[1] = {2}, d5[1] = {5}, pd_d[2] = {1, 2}, one[1] = {1};
  const int32_t pads[2] = {1, 2};
  const int8_t x[2] = {5, 6}, nine = 9, want[5] = {9, 5, 6, 9, 9};
  int8_t out[5], val = 9;
  const void *feeds[2] = {x, &val};
  void *outs[1] = {out};
  op_spec s = op_spec_of(60, 43);
  op_result r;
  s.nin = 3;
  s.nout = 1;
  s.in[0] = tensor_quant(tensor_shape(TFLC_INT8, 1, d2), 0.5f, 1);
  s.in[1] = tensor_const(TFLC_INT32, 2, pd_d, pads, sizeof pads);
  s.in[2] = tensor_quant(tensor_const(TFLC_INT8, 1, one, &nine, 1), 0.5f, 1);
  s.out[0] = tensor_quant(tensor_shape(TFLC_INT8, 1, d5), 0.5f, 1);
  r = run_op_model(&s, feeds, outs);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  CHECK_EQ_MEM(out, want, 5);
  /* the value as a graph input */
  s.in[2] = tensor_quant(tensor_shape(TFLC_INT8, 1, one), 0.5f, 1);
  val = 9;
  r = run_op_model(&s, feeds, outs);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  CHECK_EQ_MEM(out, want, 5);
  /* its quantization must be the output's */
  s.in[2] = tensor_quant(tensor_const(TFLC_INT8, 1, one, &nine, 1), 0.25f, 1);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_QUANT);
  /* without it: the output zero point; the same with input 2 absent (-1) */
  s.nin = 2;
  r = run_op_model(&s, feeds, outs);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  CHECK(out[0] == 1 && out[1] == 5 && out[2] == 6 && out[3] == 1 &&
        out[4] == 1);
  s.nin = 3;
  s.in[2].type = -1;
  memset(out, 0, sizeof out);
  r = run_op_model(&s, feeds, outs);
  CHECK_EQ_INT(r.invoke, TFLC_OK);
  CHECK(out[0] == 1 && out[1] == 5 && out[2] == 6 && out[3] == 1 &&
        out[4] == 1);
  /* SPACE_TO_BATCH_ND [1, 3, 1] (3-D) block {2}, paddings [[1, 0]], int8
   * zero point -7 -> [2, 2, 1]: padded rows {z, a, b, c}; batch 0 takes
   * rows 0, 2 = {z, b}, batch 1 rows 1, 3 = {a, c} */
  {
    const int32_t id[3] = {1, 3, 1}, od[3] = {2, 2, 1}, bk[1] = {2},
                  pp[2] = {1, 0}, p_d2[2] = {1, 2};
    const int8_t in3[3] = {11, 12, 13}, w3[4] = {-7, 12, 11, 13};
    int8_t o3[4], back[3];
    op_spec t = op_spec_of(38, 25);
    t.nin = 3;
    t.nout = 1;
    t.in[0] = tensor_quant(tensor_shape(TFLC_INT8, 3, id), 0.5f, -7);
    t.in[1] = tensor_const(TFLC_INT32, 1, one, bk, 4);
    t.in[2] = tensor_const(TFLC_INT32, 2, p_d2, pp, 8);
    t.out[0] = tensor_quant(tensor_shape(TFLC_INT8, 3, od), 0.5f, -7);
    feeds[0] = in3;
    outs[0] = o3;
    r = run_op_model(&t, feeds, outs);
    CHECK_EQ_INT(r.invoke, TFLC_OK);
    CHECK_EQ_MEM(o3, w3, 4);
    /* BATCH_TO_SPACE_ND back, block and crops as graph inputs */
    t = op_spec_of(37, 24);
    t.nin = 3;
    t.nout = 1;
    t.in[0] = tensor_quant(tensor_shape(TFLC_INT8, 3, od), 0.5f, -7);
    t.in[1] = tensor_shape(TFLC_INT32, 1, one);
    t.in[2] = tensor_shape(TFLC_INT32, 2, p_d2);
    t.out[0] = tensor_quant(tensor_shape(TFLC_INT8, 3, id), 0.5f, -7);
    feeds[0] = o3;
    feeds[1] = bk;
    {
      const void *f3[3] = {o3, bk, pp};
      outs[0] = back;
      r = run_op_model(&t, f3, outs);
      CHECK_EQ_INT(r.invoke, TFLC_OK);
      CHECK_EQ_MEM(back, in3, 3);
      /* crops that do not give the output's shape: error at invoke */
      {
        const int32_t pp2[2] = {0, 0};
        const void *f4[3] = {o3, bk, pp2};
        CHECK_EQ_INT(run_op_model(&t, f4, outs).invoke, TFLC_ERR_KERNEL);
      }
    }
  }
}

static void test_model_shapes(void) {
  /* SQUEEZE [1, 3, 1, 2] dims {0, -2} -> [3, 2]; no dims -> all 1s */
  const int32_t in_d[4] = {1, 3, 1, 2}, o_d[2] = {3, 2}, dims[2] = {0, -2};
  const int32_t bad_dims[1] = {1}, one[1] = {1}, four[1] = {4};
  const int8_t x[6] = {1, 2, 3, 4, 5, 6};
  int8_t out[6];
  int32_t sh[4];
  const void *feeds[1] = {x};
  void *outs[1] = {out};
  op_spec s = op_spec_of(43, 30);
  tflc_w_option v;
  memset(&v, 0, sizeof v);
  v.slot = 0;
  v.kind = TFLC_W_I32_VEC;
  v.vec = dims;
  v.vec_len = 2;
  s.nopts = 1;
  s.opts[0] = v;
  s.nin = 1;
  s.nout = 1;
  s.in[0] = tensor_shape(TFLC_INT8, 4, in_d);
  s.out[0] = tensor_shape(TFLC_INT8, 2, o_d);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).invoke, TFLC_OK);
  CHECK_EQ_MEM(out, x, 6);
  s.nopts = 0;
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).invoke, TFLC_OK);
  v.vec = bad_dims; /* dim 1 is 3 */
  v.vec_len = 1;
  s.nopts = 1;
  s.opts[0] = v;
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_SHAPE);
  /* EXPAND_DIMS [3, 2] axis -1 -> [3, 2, 1] */
  {
    const int32_t ax = -1, e_d[3] = {3, 2, 1}, wrong[3] = {3, 1, 2};
    op_spec t = op_spec_of(70, 52);
    t.nin = 2;
    t.nout = 1;
    t.in[0] = tensor_shape(TFLC_INT8, 2, o_d);
    t.in[1] = tensor_const(TFLC_INT32, 1, one, &ax, 4);
    t.out[0] = tensor_shape(TFLC_INT8, 3, e_d);
    memset(out, 0, sizeof out);
    CHECK_EQ_INT(run_op_model(&t, feeds, outs).invoke, TFLC_OK);
    CHECK_EQ_MEM(out, x, 6);
    t.out[0] = tensor_shape(TFLC_INT8, 3, wrong);
    CHECK_EQ_INT(run_op_model(&t, feeds, outs).init, TFLC_ERR_SHAPE);
  }
  /* SHAPE of [1, 3, 1, 2] -> int32 {1, 3, 1, 2}; int64 output refused */
  {
    op_spec t = op_spec_of(77, 55);
    t.nin = 1;
    t.nout = 1;
    t.in[0] = tensor_shape(TFLC_INT8, 4, in_d);
    t.out[0] = tensor_shape(TFLC_INT32, 1, four);
    outs[0] = sh;
    CHECK_EQ_INT(run_op_model(&t, feeds, outs).invoke, TFLC_OK);
    CHECK_EQ_MEM(sh, in_d, sizeof sh);
    t.out[0] = tensor_shape(TFLC_INT64, 1, four);
    CHECK_EQ_INT(run_op_model(&t, feeds, outs).init, TFLC_ERR_UNSUPPORTED);
  }
  /* ZEROS_LIKE: int8 zeros; int16 refused (TFLM: int64/int32/int8/f32) */
  {
    op_spec t = op_spec_of(93, 67);
    t.nin = 1;
    t.nout = 1;
    t.in[0] = tensor_shape(TFLC_INT8, 4, in_d);
    t.out[0] = tensor_shape(TFLC_INT8, 4, in_d);
    outs[0] = out;
    memset(out, 1, sizeof out);
    CHECK_EQ_INT(run_op_model(&t, feeds, outs).invoke, TFLC_OK);
    CHECK(out[0] == 0 && out[5] == 0);
    t.in[0] = tensor_shape(TFLC_INT16, 4, in_d);
    t.out[0] = tensor_shape(TFLC_INT16, 4, in_d);
    CHECK_EQ_INT(run_op_model(&t, feeds, outs).init, TFLC_ERR_TYPE);
  }
}

static void test_model_resize(void) {
  /* RESIZE_BILINEAR int8 [1, 1, 2, 1] {0, 101} -> [1, 1, 4, 1] (the hand
   * case above); both align_corners and half_pixel_centers refused; the
   * size must be constant and match the output */
  const int32_t in_d[4] = {1, 1, 2, 1}, o_d[4] = {1, 1, 4, 1}, two[1] = {2};
  const int32_t sz[2] = {1, 4}, bad[2] = {1, 5};
  const int8_t x[2] = {0, 101}, want[4] = {0, 51, 101, 101};
  int8_t out[4];
  const void *feeds[2] = {x, sz};
  void *outs[1] = {out};
  op_spec s = op_spec_of(23, 15);
  s.nin = 2;
  s.nout = 1;
  s.in[0] = tensor_quant(tensor_shape(TFLC_INT8, 4, in_d), 0.5f, 0);
  s.in[1] = tensor_const(TFLC_INT32, 1, two, sz, 8);
  s.out[0] = tensor_quant(tensor_shape(TFLC_INT8, 4, o_d), 0.5f, 0);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).invoke, TFLC_OK);
  CHECK_EQ_MEM(out, want, 4);
  s.nopts = 2;
  s.opts[0] = opt_u8(2, 1);
  s.opts[1] = opt_u8(3, 1);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_SCHEMA);
  s.nopts = 0;
  s.in[1] = tensor_const(TFLC_INT32, 1, two, bad, 8);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_SHAPE);
  s.in[1] = tensor_shape(TFLC_INT32, 1, two);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_UNSUPPORTED);
  /* RESIZE_NEAREST_NEIGHBOR takes int16 (bilinear does not) */
  s.in[1] = tensor_const(TFLC_INT32, 1, two, sz, 8);
  s.in[0] = tensor_shape(TFLC_INT16, 4, in_d);
  s.out[0] = tensor_shape(TFLC_INT16, 4, o_d);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_TYPE);
  {
    const int16_t x16[2] = {-300, 300};
    int16_t o16[4];
    const void *f16[1] = {x16};
    void *out16[1] = {o16};
    s.code = 97;
    s.opt_type = 74;
    CHECK_EQ_INT(run_op_model(&s, f16, out16).invoke, TFLC_OK);
    CHECK(o16[0] == -300 && o16[1] == -300 && o16[2] == 300 && o16[3] == 300);
  }
}

static void test_model_space_depth(void) {
  /* DEPTH_TO_SPACE [1, 1, 1, 4] block 2 -> [1, 2, 2, 1]; block 3 refused */
  const int32_t in_d[4] = {1, 1, 1, 4}, o_d[4] = {1, 2, 2, 1};
  const float x[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  float out[4];
  const void *feeds[1] = {x};
  void *outs[1] = {out};
  op_spec s = op_spec_of(5, 94);
  s.nopts = 1;
  s.opts[0] = opt_i32(0, 2);
  s.nin = 1;
  s.nout = 1;
  s.in[0] = tensor_shape(TFLC_FLOAT32, 4, in_d);
  s.out[0] = tensor_shape(TFLC_FLOAT32, 4, o_d);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).invoke, TFLC_OK);
  CHECK_EQ_MEM(out, x, sizeof x);
  s.opts[0] = opt_i32(0, 3);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_SHAPE);
  s.opts[0] = opt_i32(0, 0);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).init, TFLC_ERR_SCHEMA);
  /* SPACE_TO_DEPTH back */
  s = op_spec_of(26, 19);
  s.nopts = 1;
  s.opts[0] = opt_i32(0, 2);
  s.nin = 1;
  s.nout = 1;
  s.in[0] = tensor_shape(TFLC_FLOAT32, 4, o_d);
  s.out[0] = tensor_shape(TFLC_FLOAT32, 4, in_d);
  CHECK_EQ_INT(run_op_model(&s, feeds, outs).invoke, TFLC_OK);
  CHECK_EQ_MEM(out, x, sizeof x);
}

int main(void) {
  rng_seed(0x2545F491u);
  RUN(test_copy_rows);
  RUN(test_space_depth_hand);
  RUN(test_batch_space_hand);
  RUN(test_gather_hand);
  RUN(test_strided_axis_hand);
  RUN(test_resize_hand);
  RUN(test_resize_recorded);
  RUN(test_resize_f32_recorded);
  RUN(test_space_depth_random);
  RUN(test_batch_space_random);
  RUN(test_strided_random);
  RUN(test_gather_random);
  RUN(test_bilinear_random);
  RUN(test_model_concat);
  RUN(test_model_concat_compressed);
  RUN(test_model_split_pack);
  RUN(test_model_slices);
  RUN(test_model_gather);
  RUN(test_model_pad_space);
  RUN(test_model_shapes);
  RUN(test_model_resize);
  RUN(test_model_space_depth);
  return harness_report();
}

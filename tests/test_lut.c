/* tests/test_lut.c - the LUT decoder of tflc_kernels.h.
 *
 * Expected values never come from the library: the tests pack index arrays
 * into MSB-first bitstrings with their own bit-by-bit packer and compute
 * the expected elements straight from the index array and the value table.
 * Bitstrings and tables are heap blocks of the exact size (and at odd
 * addresses), so the address sanitizer catches any read past their end. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_KERNELS_IMPLEMENTATION
#endif
#include "../tflc_kernels.h"
#include "harness.h"

#include <stdlib.h>

/* ---- the seeds/tflm_compression.md examples, exactly as written --------- */

static void put_i16(uint8_t *p, int v) {
  p[0] = (uint8_t)((unsigned)v & 0xFFu);
  p[1] = (uint8_t)(((unsigned)v >> 8) & 0xFFu);
}

static int get_i16(const uint8_t *p) {
  int v = p[0] | (p[1] << 8);
  return v >= 32768 ? v - 65536 : v;
}

static void test_doc_example_int16(void) {
  /* tensor data: [2, 4, 4, 10, 1, 7, 99, 10, 2, 4]
   * value table: [99, 2, 10, 4, 1, 7]
   * bitstring:   00101101101010010100001000101100 (bit width 3) */
  static const int table[6] = {99, 2, 10, 4, 1, 7};
  static const int expect[10] = {2, 4, 4, 10, 1, 7, 99, 10, 2, 4};
  uint8_t bs[4], vals[12], out[20], out2[20];
  tflc_const c;
  int k;
  CHECK_EQ_INT(bits_to_bytes("00101101101010010100001000101100", bs), 4);
  CHECK_EQ_INT(bs[0], 0x2D);
  CHECK_EQ_INT(bs[3], 0x2C);
  for (k = 0; k < 6; k++)
    put_i16(vals + 2 * k, table[k]);
  c = tflc_const_lut(bs, vals, TFLC_INT16, 10, 3, 1, 6, 0);
  tflc_lut_decode(&c, 0, 10, out);
  tflc_lut_decode_ref(&c, 0, 10, out2);
  for (k = 0; k < 10; k++) {
    CHECK_EQ_INT(get_i16(out + 2 * k), expect[k]);
    CHECK_EQ_INT(get_i16(out2 + 2 * k), expect[k]);
    CHECK_EQ_INT(tflc_const_i32(&c, k), expect[k]);
  }
  /* a window starting mid-byte (element 3 starts at bit 9) */
  tflc_lut_decode(&c, 3, 5, out);
  for (k = 0; k < 5; k++)
    CHECK_EQ_INT(get_i16(out + 2 * k), expect[3 + k]);
}

static void test_doc_example_per_channel(void) {
  /* tensor data: [2, 4, 4, 10, 1, 7, 99, 10, 2, 4], 2 channels
   * value table: [1, 10, 2, 4, 0, 99, 10, 2, 7, 4]
   * bitstring:   01001101100100001100000101010000 (bit width 3)
   * index:       2  3  3  1  0  3  0  1  2  4 */
  static const int table[10] = {1, 10, 2, 4, 0, 99, 10, 2, 7, 4};
  static const int expect[10] = {2, 4, 4, 10, 1, 7, 99, 10, 2, 4};
  uint8_t bs[4], vals[20], out[20];
  tflc_const c;
  int k;
  CHECK_EQ_INT(bits_to_bytes("01001101100100001100000101010000", bs), 4);
  for (k = 0; k < 10; k++)
    put_i16(vals + 2 * k, table[k]);
  c = tflc_const_lut(bs, vals, TFLC_INT16, 10, 3, 2, 5, 0);
  CHECK_EQ_INT(c.elems_per_channel, 5);
  tflc_lut_decode(&c, 0, 10, out);
  for (k = 0; k < 10; k++)
    CHECK_EQ_INT(get_i16(out + 2 * k), expect[k]);
  tflc_lut_decode_ref(&c, 0, 10, out);
  for (k = 0; k < 10; k++)
    CHECK_EQ_INT(get_i16(out + 2 * k), expect[k]);
  /* across the channel boundary, from an unaligned start */
  tflc_lut_decode(&c, 3, 4, out);
  for (k = 0; k < 4; k++)
    CHECK_EQ_INT(get_i16(out + 2 * k), expect[3 + k]);
}

static void test_doc_example_bw3_bytes(void) {
  /* bit width 3, bytes 0xE1 0xA0 -> indices 7, 0, 3, 2 */
  static const uint8_t bs[2] = {0xE1, 0xA0};
  static const int8_t ident[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  int8_t out[4];
  tflc_const c = tflc_const_lut(bs, ident, TFLC_INT8, 4, 3, 1, 8, 0);
  tflc_lut_decode(&c, 0, 4, out);
  CHECK_EQ_INT(out[0], 7);
  CHECK_EQ_INT(out[1], 0);
  CHECK_EQ_INT(out[2], 3);
  CHECK_EQ_INT(out[3], 2);
  tflc_lut_decode_ref(&c, 0, 4, out);
  CHECK_EQ_INT(out[0], 7);
  CHECK_EQ_INT(out[3], 2);
}

static void test_doc_axis_layout(void) {
  /* shape [1,2,2,4], last axis: channel = element % 4 */
  uint8_t bs[16];
  int8_t vals[8] = {10, 11, 20, 21, 30, 31, 40, 41}, out[16];
  tflc_const c;
  int k;
  /* bit width 1, all indices 1 except elements 0 and 7 */
  bits_to_bytes("0111111011111111", bs);
  c = tflc_const_lut(bs, vals, TFLC_INT8, 16, 1, 4, 2, 1);
  tflc_lut_decode(&c, 0, 16, out);
  for (k = 0; k < 16; k++) {
    const int idx = (k == 0 || k == 7) ? 0 : 1;
    CHECK_EQ_INT(out[k], vals[(k % 4) * 2 + idx]);
  }
  /* shape [4,2,2,1], first axis: channel = element / 4 */
  c = tflc_const_lut(bs, vals, TFLC_INT8, 16, 1, 4, 2, 0);
  tflc_lut_decode(&c, 0, 16, out);
  for (k = 0; k < 16; k++) {
    const int idx = (k == 0 || k == 7) ? 0 : 1;
    CHECK_EQ_INT(out[k], vals[(k / 4) * 2 + idx]);
  }
}

/* ---- randomised: every width, type, axis, start offset ------------------ */

static const int all_types[7] = {TFLC_FLOAT32, TFLC_INT8,  TFLC_UINT8,
                                 TFLC_BOOL,    TFLC_INT16, TFLC_INT32,
                                 TFLC_INT64};

static size_t esize_of(int type) {
  switch (type) {
  case TFLC_FLOAT32:
  case TFLC_INT32:
    return 4;
  case TFLC_INT16:
    return 2;
  case TFLC_INT64:
    return 8;
  default:
    return 1;
  }
}

/* independent MSB-first packer */

static long long le_signed(const uint8_t *p, size_t es) {
  unsigned long long u = 0;
  size_t k;
  for (k = es; k > 0; k--)
    u = (u << 8) | p[k - 1];
  if (es < 8 && (u >> (8 * es - 1)) & 1u)
    return (long long)u - (long long)(1ull << (8 * es));
  return (long long)u; /* int64 tables keep the top bits clear */
}

static int channel_of(int32_t i, int32_t channels, int32_t epc, int alt) {
  if (channels <= 1)
    return 0;
  return alt ? (int)(i % channels) : (int)(i / epc);
}

static void one_case(int type, int bits, int mode, int32_t channels,
                     int32_t per) {
  /* mode 0: per tensor, 1: first axis, 2: last axis */
  const size_t es = esize_of(type);
  const int alt = mode == 2;
  const int32_t nch = mode == 0 ? 1 : channels;
  const int32_t count = nch * per;
  const int32_t epc = nch <= 1 ? count : (mode == 1 ? per : 1);
  const int32_t maxidx = 1 << bits;
  const int32_t stride = maxidx - rng_below(maxidx > 2 ? 2 : 1);
  const size_t bs_len = ((size_t)count * (size_t)bits + 7) / 8;
  const size_t val_len = (size_t)nch * (size_t)stride * es;
  uint8_t *bs_block = (uint8_t *)malloc(bs_len + 1);
  uint8_t *val_block = (uint8_t *)malloc(val_len + 3);
  uint8_t *bs = bs_block + 1; /* odd address, exact end */
  uint8_t *vals = val_block + 3;
  uint32_t *idx = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)count);
  uint8_t *expect = (uint8_t *)malloc((size_t)count * es);
  uint8_t *got = (uint8_t *)malloc((size_t)count * es + 8);
  uint8_t *got2 = (uint8_t *)malloc((size_t)count * es + 8);
  tflc_const c;
  int32_t i, trial;
  size_t k;
  int ok = 1, ok_ref = 1, ok_win = 1, ok_gather = 1, ok_scalar = 1;
  memset(bs, 0, bs_len);
  for (k = 0; k < val_len; k++)
    vals[k] = (uint8_t)rng();
  if (type == TFLC_INT64) /* keep values within long long printing range */
    for (k = 7; k < val_len; k += 8)
      vals[k] = (uint8_t)(vals[k] & 0x3F);
  if (type == TFLC_FLOAT32) /* finite floats only */
    for (k = 3; k < val_len; k += 4)
      vals[k] = (uint8_t)(vals[k] & 0x3F);
  for (i = 0; i < count; i++)
    idx[i] = (uint32_t)rng_below(stride);
  pack_indices(idx, count, bits, bs);
  for (i = 0; i < count; i++) {
    const int ch = channel_of(i, nch, epc, alt);
    memcpy(expect + (size_t)i * es,
           vals + ((size_t)ch * (size_t)stride + (size_t)idx[i]) * es, es);
  }
  c = tflc_const_lut(bs, vals, (tflc_type)type, count, bits, nch, stride, alt);
  CHECK_EQ_INT(c.elems_per_channel, epc);

  /* whole tensor, fast and reference */
  memset(got, 0xAA, (size_t)count * es + 8);
  tflc_lut_decode(&c, 0, count, got);
  ok &= memcmp(got, expect, (size_t)count * es) == 0;
  ok &= got[(size_t)count * es] == 0xAA; /* nothing written past n */
  tflc_lut_decode_ref(&c, 0, count, got2);
  ok_ref &= memcmp(got2, expect, (size_t)count * es) == 0;

  /* windows at every start offset near the front and random ones */
  for (trial = 0; trial < 40; trial++) {
    int32_t start, n;
    if (trial < 17 && trial < count) {
      start = trial;
      n = count - start;
    } else {
      start = rng_below(count);
      n = 1 + rng_below(count - start);
    }
    if (trial % 3 == 2 && n > 1)
      n = 1 + rng_below(n < 20 ? n : 20);
    tflc_lut_decode(&c, start, n, got);
    tflc_lut_decode_ref(&c, start, n, got2);
    ok_win &= memcmp(got, expect + (size_t)start * es, (size_t)n * es) == 0;
    ok_win &= memcmp(got, got2, (size_t)n * es) == 0;
    /* span of a compressed constant decodes into the tile */
    ok_win &= tflc_const_span(&c, start, n, got2) == (const void *)got2;
    ok_win &= memcmp(got2, expect + (size_t)start * es, (size_t)n * es) == 0;
  }

  /* gathers with strides (depthwise taps) */
  for (trial = 0; trial < 10; trial++) {
    const int32_t step = 1 + rng_below(nch + 3);
    const int32_t start = rng_below(count);
    const int32_t n = 1 + (count - 1 - start) / step;
    tflc_lut_gather(&c, start, step, n, got);
    for (i = 0; i < n; i++)
      ok_gather &= memcmp(got + (size_t)i * es,
                          expect + (size_t)(start + i * step) * es, es) == 0;
  }

  /* scalar accessors */
  for (trial = 0; trial < 10; trial++) {
    const int32_t j = rng_below(count);
    const uint8_t *e = expect + (size_t)j * es;
    if (type == TFLC_FLOAT32) {
      float f;
      memcpy(&f, e, 4);
      ok_scalar &= tflc_const_f32(&c, j) == f;
      ok_scalar &= tflc_const_i32(&c, j) == 0;
    } else {
      long long v;
      if (type == TFLC_UINT8 || type == TFLC_BOOL)
        v = e[0];
      else
        v = le_signed(e, es);
      ok_scalar &= tflc_const_i64(&c, j) == v;
      if (type != TFLC_INT64)
        ok_scalar &= tflc_const_i32(&c, j) == v;
      ok_scalar &= tflc_const_f32(&c, j) == (float)v;
    }
  }
  if (!(ok && ok_ref && ok_win && ok_gather && ok_scalar))
    fprintf(stderr, "  case type %d bits %d mode %d channels %d per %d\n", type,
            bits, mode, (int)nch, (int)per);
  CHECK(ok);
  CHECK(ok_ref);
  CHECK(ok_win);
  CHECK(ok_gather);
  CHECK(ok_scalar);
  free(bs_block);
  free(val_block);
  free(idx);
  free(expect);
  free(got);
  free(got2);
}

static void test_random_all(void) {
  static const int32_t pers[6] = {1, 3, 7, 13, 33, 203};
  int t, bits, mode, p;
  for (t = 0; t < 7; t++)
    for (bits = 1; bits <= 8; bits++)
      for (mode = 0; mode < 3; mode++)
        for (p = 0; p < 6; p++) {
          const int32_t channels = mode == 0 ? 1 : 1 + rng_below(6);
          one_case(all_types[t], bits, mode, channels, pers[p]);
        }
}

/* fast path == reference path on long random runs of every width,
 * every start offset mod 8 and every length mod 8, int8 and int16 */
static void test_fast_vs_ref(void) {
  enum { COUNT = 1000 };
  static uint8_t bs[COUNT];
  static int8_t vals[256 * 3 * 2];
  static int8_t a[COUNT * 2], b[COUNT * 2];
  int bits, s, l, mode, t;
  int ok = 1;
  size_t k;
  for (k = 0; k < sizeof bs; k++)
    bs[k] = (uint8_t)rng();
  for (k = 0; k < sizeof vals; k++)
    vals[k] = (int8_t)(rng() & 0x7F);
  for (t = 0; t < 2; t++)
    for (bits = 1; bits <= 8; bits++)
      for (mode = 0; mode < 3; mode++) {
        /* 3 channels; first axis 333 elements each */
        const int32_t count = 999;
        const tflc_const c =
            tflc_const_lut(bs, vals, t ? TFLC_INT16 : TFLC_INT8, count, bits,
                           mode ? 3 : 1, 256, mode == 2);
        for (s = 0; s < 24; s++)
          for (l = 0; l < 24; l++) {
            const int32_t start = s * 37 % 900 + s % 8;
            int32_t n = 50 + l;
            if (start + n > count)
              n = count - start;
            tflc_lut_decode(&c, start, n, a);
            tflc_lut_decode_ref(&c, start, n, b);
            ok &= memcmp(a, b, (size_t)n * (t ? 2u : 1u)) == 0;
          }
      }
  CHECK(ok);
}

/* tflc__lut_decode_rows (the depthwise chunks: n channels of every tap)
 * against the elements computed from the index array, and against one
 * tflc_lut_decode per run: last-axis int8 tables with channel counts that
 * take the grouped path (multiples of 8) and others, first-axis and int16
 * constants (run by run), at every width, with exact-size heap blocks. */
static void test_decode_rows(void) {
  static const int32_t chans[7] = {8, 16, 24, 40, 64, 3, 7};
  int bits, ci, trial, ok = 1, ok_runs = 1;
  for (bits = 1; bits <= 8; bits++)
    for (ci = 0; ci < 7; ci++)
      for (trial = 0; trial < 6; trial++) {
        const int32_t ch = chans[ci], taps = 1 + rng_below(9);
        const int mode = trial == 4 ? 1 : 2; /* first / last axis */
        const int wide = trial == 5;         /* int16 values */
        const size_t es = wide ? 2u : 1u;
        const int32_t count = ch * taps, maxidx = 1 << bits;
        const int32_t stride = maxidx - rng_below(maxidx > 2 ? 2 : 1);
        const size_t bs_len = ((size_t)count * (size_t)bits + 7) / 8;
        const size_t val_len = (size_t)ch * (size_t)stride * es;
        uint8_t *bs = (uint8_t *)malloc(bs_len);
        uint8_t *vals = (uint8_t *)malloc(val_len);
        uint32_t *idx = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)count);
        uint8_t *got = (uint8_t *)malloc((size_t)count * es + 1);
        uint8_t *runs = (uint8_t *)malloc((size_t)count * es);
        tflc_const c;
        int32_t c0, n, t, j, i;
        size_t k;
        for (k = 0; k < val_len; k++)
          vals[k] = (uint8_t)rng();
        for (i = 0; i < count; i++)
          idx[i] = (uint32_t)rng_below(stride);
        memset(bs, 0, bs_len);
        pack_indices(idx, count, bits, bs);
        c = tflc_const_lut(bs, vals, wide ? TFLC_INT16 : TFLC_INT8, count, bits,
                           ch, stride, mode == 2);
        /* chunks as the depthwise kernels take them, and odd ones */
        c0 = trial < 2 ? 8 * rng_below((ch + 7) / 8) : rng_below(ch);
        if (c0 >= ch)
          c0 = 0;
        n = trial == 0 && ch - c0 >= 16 ? 16 : 1 + rng_below(ch - c0);
        got[(size_t)taps * (size_t)n * es] = 0xA5;
        tflc__lut_decode_rows(&c, c0, ch, n, taps, got);
        ok &= got[(size_t)taps * (size_t)n * es] == 0xA5;
        for (t = 0; t < taps; t++)
          for (j = 0; j < n; j++) {
            const int32_t e = t * ch + c0 + j;
            const int32_t chan = mode == 2 ? e % ch : e / taps;
            ok &= memcmp(got + ((size_t)t * (size_t)n + (size_t)j) * es,
                         vals + ((size_t)chan * (size_t)stride + idx[e]) * es,
                         es) == 0;
          }
        for (t = 0; t < taps; t++)
          tflc_lut_decode(&c, t * ch + c0, n,
                          runs + (size_t)t * (size_t)n * es);
        ok_runs &= memcmp(got, runs, (size_t)taps * (size_t)n * es) == 0;
        if (!ok || !ok_runs) {
          fprintf(stderr, "  rows: bits %d channels %d taps %d c0 %d n %d\n",
                  bits, (int)ch, (int)taps, (int)c0, (int)n);
          bits = 9; /* report the first failure only */
          ci = 7;
          trial = 6;
        }
        free(bs);
        free(vals);
        free(idx);
        free(got);
        free(runs);
      }
  CHECK(ok);
  CHECK(ok_runs);
}

static void test_raw(void) {
  int16_t data[5] = {-3, 400, -32768, 32767, 7};
  int16_t out[5];
  const tflc_const c = tflc_const_raw(data, TFLC_INT16, 5);
  CHECK_EQ_INT(c.bits, 0);
  CHECK(tflc_const_span(&c, 2, 2, NULL) == (const void *)(data + 2));
  tflc_lut_decode(&c, 1, 3, out);
  CHECK_EQ_MEM(out, data + 1, 3 * sizeof(int16_t));
  tflc_lut_gather(&c, 0, 2, 3, out);
  CHECK_EQ_INT(out[0], -3);
  CHECK_EQ_INT(out[1], -32768);
  CHECK_EQ_INT(out[2], 7);
  CHECK_EQ_INT(tflc_const_i32(&c, 2), -32768);
  CHECK_EQ_INT(tflc_const_i64(&c, 3), 32767);
  CHECK(tflc_const_f32(&c, 0) == -3.0f);
  {
    /* raw int32 at an odd address, read little-endian */
    uint8_t bytes[9] = {0, 0x78, 0x56, 0x34, 0x12, 0xFF, 0xFF, 0xFF, 0xFF};
    const tflc_const r = tflc_const_raw(bytes + 1, TFLC_INT32, 2);
    CHECK_EQ_INT(tflc_const_i32(&r, 0), 0x12345678);
    CHECK_EQ_INT(tflc_const_i32(&r, 1), -1);
    CHECK_EQ_INT(tflc_const_i64(&r, 1), -1);
  }
}

static void test_type_size(void) {
  CHECK_EQ_INT(tflc_type_size(TFLC_FLOAT32), 4);
  CHECK_EQ_INT(tflc_type_size(TFLC_INT8), 1);
  CHECK_EQ_INT(tflc_type_size(TFLC_UINT8), 1);
  CHECK_EQ_INT(tflc_type_size(TFLC_BOOL), 1);
  CHECK_EQ_INT(tflc_type_size(TFLC_INT16), 2);
  CHECK_EQ_INT(tflc_type_size(TFLC_INT32), 4);
  CHECK_EQ_INT(tflc_type_size(TFLC_INT64), 8);
  CHECK_EQ_INT(tflc_type_size(TFLC_STRING), 0);
  CHECK_EQ_INT(tflc_type_size(99), 0);
}

int main(void) {
  rng_seed(12345u);
  RUN(test_doc_example_int16);
  RUN(test_doc_example_per_channel);
  RUN(test_doc_example_bw3_bytes);
  RUN(test_doc_axis_layout);
  RUN(test_random_all);
  RUN(test_fast_vs_ref);
  RUN(test_decode_rows);
  RUN(test_raw);
  RUN(test_type_size);
  return harness_report();
}

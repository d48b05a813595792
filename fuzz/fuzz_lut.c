/* fuzz/fuzz_lut.c - libFuzzer harness: the LUT decoder's fast paths
 * (tflc_lut_decode, tflc_lut_gather, tflc_const_span, tflc_const_i32/i64/
 * f32) against the portable reference path (tflc_lut_decode_ref) and an
 * oracle written here, byte for byte, on random descriptors and
 * bitstrings. Every buffer is allocated at its exact size (at an odd
 * offset when the input asks), so AddressSanitizer sees any read past
 * the bitstring or the value table and any write past the destination.
 *
 * Input layout (missing bytes read as 0):
 *   0      index width: b % 9 (0 = raw constant)
 *   1      element type: one of the 7 LUT types, b % 7
 *   2      bit 0 last-axis channels; bits 1-2 / 3-4 / 5-6: misalignment of
 *          bitstring / value table / destination (0..3 bytes); bit 7: the
 *          table has exactly 2^width entries per channel
 *   3      channels: 1 + b % 16
 *   4-5    elements per channel: 1 + u16 % 300
 *   6      table entries per channel (stride): 1 + b
 *   7-8    start (mod count), 9-10 n (mod count - start + 1)
 *   11-12  gather step: 1 + u16 % count
 *   13..   pool of bytes for indices and table/raw values (cycled) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TFLC_IMPLEMENTATION
#include "../tflc.h"

static const int lut_types[7] = {TFLC_FLOAT32, TFLC_INT8,  TFLC_UINT8,
                                 TFLC_BOOL,    TFLC_INT16, TFLC_INT32,
                                 TFLC_INT64};

static uint32_t rd8(const uint8_t *d, size_t n, size_t i) {
  return i < n ? d[i] : 0u;
}
static uint32_t rd16(const uint8_t *d, size_t n, size_t i) {
  return rd8(d, n, i) | (rd8(d, n, i + 1) << 8);
}

/* exact-size heap block with `mis` bytes in front; returns the user part */
static uint8_t *block(size_t size, unsigned mis, uint8_t **base) {
  *base = (uint8_t *)malloc(size + mis + (size + mis == 0));
  if (!*base)
    abort();
  return *base + mis;
}

static void fail(const char *what, int32_t a, int32_t b) {
  fprintf(stderr, "fuzz_lut: %s (%d, %d)\n", what, (int)a, (int)b);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t size) {
  const unsigned bits = rd8(d, size, 0) % 9u;
  const int type = lut_types[rd8(d, size, 1) % 7u];
  const uint32_t fl = rd8(d, size, 2);
  const int alt = (int)(fl & 1u);
  const unsigned mis_b = (fl >> 1) & 3u, mis_v = (fl >> 3) & 3u,
                 mis_d = (fl >> 5) & 3u;
  const int32_t channels = 1 + (int32_t)(rd8(d, size, 3) % 16u);
  const int32_t epc = 1 + (int32_t)(rd16(d, size, 4) % 300u);
  const int32_t count = channels * epc;
  const size_t es = tflc_type_size(type);
  const uint8_t *pool = size > 13 ? d + 13 : NULL;
  const size_t npool = size > 13 ? size - 13 : 0;
  int32_t stride = 1 + (int32_t)rd8(d, size, 6);
  int32_t start, n, step, ng, i;
  uint32_t nidx;
  uint8_t *bs, *bs_base, *vals, *vals_base, *oracle, *o1, *o1_base, *o2,
      *o2_base, *tile, *tile_base;
  size_t bs_size, vals_size;
  tflc_const c, raw;
  if (bits && (fl & 0x80u))
    stride = 1 << bits;
  start = (int32_t)(rd16(d, size, 7) % (uint32_t)count);
  n = (int32_t)(rd16(d, size, 9) % (uint32_t)(count - start + 1));
  step = 1 + (int32_t)(rd16(d, size, 11) % (uint32_t)count);
  nidx = bits ? (uint32_t)stride : 0;
  if (bits && nidx > (1u << bits))
    nidx = 1u << bits;

  /* the constant, and the oracle: every element decoded by hand */
  oracle = (uint8_t *)malloc((size_t)count * es);
  if (!oracle)
    abort();
  if (bits == 0) {
    bs_size = (size_t)count * es;
    vals_size = 0;
    bs = block(bs_size, mis_b, &bs_base);
    for (i = 0; i < (int32_t)bs_size; i++)
      bs[i] = npool ? pool[(size_t)i % npool] : (uint8_t)i;
    memcpy(oracle, bs, bs_size);
    vals = block(0, mis_v, &vals_base);
    c = tflc_const_raw(bs, (tflc_type)type, count);
  } else {
    vals_size = (size_t)channels * (size_t)stride * es;
    bs_size = ((size_t)count * bits + 7) / 8;
    vals = block(vals_size, mis_v, &vals_base);
    for (i = 0; i < (int32_t)vals_size; i++)
      vals[i] = npool ? pool[(npool - 1 - (size_t)i % npool)] : (uint8_t)i;
    bs = block(bs_size, mis_b, &bs_base);
    memset(bs, 0, bs_size);
    for (i = 0; i < count; i++) {
      uint32_t ix = (npool ? pool[(size_t)i % npool] : (uint32_t)i) % nidx;
      int32_t ch = channels == 1 ? 0 : alt ? i % channels : i / epc;
      size_t bit = (size_t)i * bits, k;
      for (k = 0; k < bits; k++, bit++)
        if (ix & (1u << (bits - 1 - k)))
          bs[bit / 8] |= (uint8_t)(0x80u >> (bit % 8));
      memcpy(oracle + (size_t)i * es,
             vals + ((size_t)ch * (size_t)stride + ix) * es, es);
    }
    c = tflc_const_lut(bs, vals, (tflc_type)type, count, (int)bits, channels,
                       stride, alt);
  }
  raw = tflc_const_raw(oracle, (tflc_type)type, count);

  /* decode, fast and reference */
  o1 = block((size_t)n * es, mis_d, &o1_base);
  o2 = block((size_t)n * es, 0, &o2_base);
  tflc_lut_decode(&c, start, n, o1);
  tflc_lut_decode_ref(&c, start, n, o2);
  if (memcmp(o1, oracle + (size_t)start * es, (size_t)n * es) != 0)
    fail("tflc_lut_decode differs from the oracle", start, n);
  if (memcmp(o2, oracle + (size_t)start * es, (size_t)n * es) != 0)
    fail("tflc_lut_decode_ref differs from the oracle", start, n);

  /* span */
  tile = block((size_t)n * es, mis_d, &tile_base);
  {
    const void *sp = tflc_const_span(&c, start, n, tile);
    if (n > 0 && memcmp(sp, oracle + (size_t)start * es, (size_t)n * es) != 0)
      fail("tflc_const_span differs", start, n);
  }

  /* gather: start, start + step, ... inside the tensor */
  ng = n == 0 ? 0 : (count - 1 - start) / step + 1;
  if (ng > n)
    ng = n;
  tflc_lut_gather(&c, start, step, ng, o1);
  for (i = 0; i < ng; i++)
    if (memcmp(o1 + (size_t)i * es, oracle + (size_t)(start + i * step) * es,
               es) != 0)
      fail("tflc_lut_gather differs at", start + i * step, step);

  /* element accessors: LUT and raw descriptors agree */
  for (i = 0; i < 8 && i < count; i++) {
    int32_t e = (start + i * 37) % count;
    float f1 = tflc_const_f32(&c, e), f2 = tflc_const_f32(&raw, e);
    if (tflc_const_i64(&c, e) != tflc_const_i64(&raw, e) ||
        tflc_const_i32(&c, e) != tflc_const_i32(&raw, e) ||
        memcmp(&f1, &f2, sizeof f1) != 0)
      fail("element accessors differ at", e, (int32_t)bits);
  }

  free(oracle);
  free(bs_base);
  free(vals_base);
  free(o1_base);
  free(o2_base);
  free(tile_base);
  return 0;
}

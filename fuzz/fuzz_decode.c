/* fuzz/fuzz_decode.c - libFuzzer harness: the INT4, Huffman and Prune
 * constants of tflc_kernels.h (TFLM_DECODE types 1 and 2) on random
 * streams, tables, bitmasks and kept values. The fast decoders
 * (tflc_lut_decode with and without a cursor, over a sequence of tiles
 * that may go backwards; tflc_lut_gather; tflc_const_span; the element
 * accessors) must give the reference decoder's bytes (tflc_lut_decode_ref)
 * whatever the input, valid or not, and tflc_const_check must hold what it
 * promises. Every buffer is allocated at its exact size (at an odd offset
 * when the input asks), so AddressSanitizer sees any read past a stream,
 * table, bitmask or value array and any write past the destination.
 *
 * Input layout (missing bytes read as 0):
 *   0      kind: b % 3 (0 INT4, 1 Huffman, 2 Prune)
 *   1      element type: Huffman INT8 / INT16 (b & 1), Prune one of six
 *          (b % 6), INT4 always INT8
 *   2      bit 0 32-bit Huffman table; bit 1 last-axis channels; bit 2
 *          per-channel zero points; bit 3 use a cursor; bit 4 shaped input
 *          (Huffman: table entries made mostly symbols and short forward
 *          links; Prune: as many kept values as the bitmask keeps);
 *          bits 5-6 misalignment of the data, bit 7 of the values
 *   3      Huffman first-level bits: b % 18 (0 and 17 out of range)
 *   4-5    count: u16 % 3000
 *   6      channels: 1 + b % 16
 *   7-8    data bytes: u16 % 3000 (Prune shaped: enough for count)
 *   9-10   table entries / kept values: u16 % 3000
 *   11     requests: 1 + b % 8
 *   12-43  requests: (start u16, n u16) each, taken mod the count
 *   44..   pool of bytes for data, tables and values (cycled) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TFLC_IMPLEMENTATION
#include "../tflc.h"

static const int prune_types[6] = {TFLC_INT8,  TFLC_BOOL,  TFLC_INT16,
                                   TFLC_INT32, TFLC_INT64, TFLC_FLOAT32};

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
  fprintf(stderr, "fuzz_decode: %s (%d, %d)\n", what, (int)a, (int)b);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t size) {
  const unsigned kind = rd8(d, size, 0) % 3u;
  const uint32_t tsel = rd8(d, size, 1), fl = rd8(d, size, 2);
  const int wide = (int)(fl & 1u), alt = (int)((fl >> 1) & 1u);
  const int per_ch = (int)((fl >> 2) & 1u), use_cursor = (int)((fl >> 3) & 1u);
  const int shaped = (int)((fl >> 4) & 1u);
  const unsigned mis_d = (fl >> 5) & 3u, mis_v = (fl >> 7) & 1u;
  const int first = (int)(rd8(d, size, 3) % 18u);
  const int32_t count = (int32_t)(rd16(d, size, 4) % 3000u);
  const int32_t channels = 1 + (int32_t)(rd8(d, size, 6) % 16u);
  uint32_t data_bytes = rd16(d, size, 7) % 3000u;
  uint32_t nvals = rd16(d, size, 9) % 3000u;
  const int nreq = 1 + (int)(rd8(d, size, 11) % 8u);
  const uint8_t *pool = size > 44 ? d + 44 : NULL;
  const size_t npool = size > 44 ? size - 44 : 0;
  int type = TFLC_INT8;
  size_t es, vbytes, i;
  uint8_t *data, *data_base, *vals, *vals_base, *ref, *out, *out_base;
  int64_t zps[16];
  tflc_const c, raw;
  tflc_const_cursor cur;
  int32_t where = 0, r;

  if (kind == 1)
    type = (tsel & 1u) ? TFLC_INT16 : TFLC_INT8;
  else if (kind == 2)
    type = prune_types[tsel % 6u];
  es = tflc_type_size(type);
  if (kind == 0)
    data_bytes = (uint32_t)(count + 1) / 2; /* INT4 data must be complete */
  if (kind == 2 && shaped && data_bytes < (uint32_t)(count + 7) / 8)
    data_bytes = (uint32_t)(count + 7) / 8;

  /* the data: pool bytes */
  data = block(data_bytes, mis_d, &data_base);
  for (i = 0; i < data_bytes; i++)
    data[i] = npool ? pool[i % npool] : (uint8_t)(i * 37u);
  if (kind == 2 && shaped) { /* kept values: what the bitmask keeps */
    tflc_const probe = tflc_const_prune(data, data_bytes, NULL, 0,
                                        (tflc_type)type, count, 0, NULL);
    (void)tflc_const_check(&probe, &where);
    nvals = (uint32_t)where; /* KEPT_MISMATCH reports the kept count */
    if (tflc_const_check(&probe, NULL) == TFLC_CONST_OK)
      nvals = 0;
  }
  /* the values: Huffman table entries or kept values */
  vbytes = kind == 1   ? (size_t)nvals * (wide ? 4u : 2u)
           : kind == 2 ? (size_t)nvals * es
                       : 0;
  vals = block(vbytes, mis_v, &vals_base);
  for (i = 0; i < vbytes; i++)
    vals[i] = npool ? pool[(npool - 1 - i % npool)] : (uint8_t)(i * 11u);
  if (kind == 1 && shaped) {
    /* mostly symbols (flag set, small count) and short forward links */
    const size_t esz = wide ? 4u : 2u;
    for (i = 0; i < nvals; i++) {
      uint8_t *e = vals + i * esz;
      const unsigned cnt = e[0] % 6u;
      if (e[1] % 4u) { /* symbol */
        e[esz - 1] = (uint8_t)(0x80u | (cnt << 3));
      } else { /* link: 1..4 bits, offset 1..16 */
        e[0] = (uint8_t)(1u + e[0] % 16u);
        if (wide) {
          e[1] = e[2] = 0;
          e[3] = (uint8_t)((cnt % 4u) << 3);
        } else {
          e[1] = (uint8_t)((cnt % 4u) << 3);
        }
      }
    }
  }
  for (i = 0; i < 16; i++)
    zps[i] = npool ? (int64_t)(int8_t)pool[(i * 7u) % npool] : (int64_t)i;

  if (kind == 0) {
    c = tflc_const_int4(data, count);
  } else if (kind == 1) {
    c = tflc_const_huffman(data, data_bytes, vals, nvals, wide, first,
                           (tflc_type)type, count, NULL);
  } else {
    c = tflc_const_prune(data, data_bytes, vals, nvals, (tflc_type)type, count,
                         npool ? (int8_t)pool[0] : 0, NULL);
    if (per_ch)
      tflc_const_prune_channels(&c, zps, 8, channels, alt);
  }
  r = tflc_const_check(&c, &where);
  if (kind == 2 && shaped && !per_ch && r != TFLC_CONST_OK)
    fail("shaped prune constant refused", r, where);

  /* the reference over the whole tensor */
  ref = (uint8_t *)malloc((size_t)count * es + 1);
  if (!ref)
    abort();
  tflc_lut_decode_ref(&c, 0, count, ref);
  raw = tflc_const_raw(ref, (tflc_type)type, count);

  /* tiles, with or without a cursor, in the input's order */
  memset(&cur, 0, sizeof cur);
  c.cursor = use_cursor ? &cur : NULL;
  for (r = 0; r < nreq && count > 0; r++) {
    const int32_t s =
        (int32_t)(rd16(d, size, 12 + 4 * (size_t)r) % (uint32_t)count);
    const int32_t n = (int32_t)(rd16(d, size, 14 + 4 * (size_t)r) %
                                (uint32_t)(count - s + 1));
    out = block((size_t)n * es, mis_d, &out_base);
    tflc_lut_decode(&c, s, n, out);
    if (memcmp(out, ref + (size_t)s * es, (size_t)n * es) != 0)
      fail("tile differs from the reference at", s, n);
    if (n > 0) {
      const void *sp = tflc_const_span(&c, s, n, out);
      if (memcmp(sp, ref + (size_t)s * es, (size_t)n * es) != 0)
        fail("span differs from the reference at", s, n);
    }
    free(out_base);
  }
  /* the reference on a window agrees with itself on the whole */
  if (count > 0) {
    const int32_t s = (int32_t)(rd16(d, size, 12) % (uint32_t)count);
    out = block((size_t)(count - s) * es, 0, &out_base);
    tflc_lut_decode_ref(&c, s, count - s, out);
    if (memcmp(out, ref + (size_t)s * es, (size_t)(count - s) * es) != 0)
      fail("reference window differs at", s, count - s);
    free(out_base);
  }
  /* whole, fast */
  out = block((size_t)count * es, 0, &out_base);
  tflc_lut_decode(&c, 0, count, out);
  if (memcmp(out, ref, (size_t)count * es) != 0)
    fail("whole decode differs", count, 0);
  /* element by element from here on: with a cursor (without one, every
   * element would decode the stream from its start) */
  memset(&cur, 0, sizeof cur);
  c.cursor = &cur;
  /* gather */
  if (count > 0) {
    const int32_t s = (int32_t)(rd16(d, size, 16) % (uint32_t)count);
    const int32_t step = 1 + (int32_t)(rd16(d, size, 18) % (uint32_t)count);
    const int32_t ng = (count - 1 - s) / step + 1;
    tflc_lut_gather(&c, s, step, ng, out);
    for (r = 0; r < ng; r++)
      if (memcmp(out + (size_t)r * es, ref + (size_t)(s + r * step) * es, es))
        fail("gather differs at", s + r * step, step);
  }
  /* element accessors */
  for (r = 0; r < 8 && count > 0; r++) {
    const int32_t e =
        (int32_t)((rd16(d, size, 20) + (uint32_t)r * 997u) % (uint32_t)count);
    float f1 = tflc_const_f32(&c, e), f2 = tflc_const_f32(&raw, e);
    if (tflc_const_i64(&c, e) != tflc_const_i64(&raw, e) ||
        tflc_const_i32(&c, e) != tflc_const_i32(&raw, e) ||
        memcmp(&f1, &f2, sizeof f1) != 0)
      fail("element accessors differ at", e, (int32_t)kind);
  }
  free(out_base);
  free(ref);
  free(data_base);
  free(vals_base);
  return 0;
}

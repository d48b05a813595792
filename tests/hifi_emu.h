/* tests/hifi_emu.h - C definitions of the Xtensa HiFi 4 / HiFi 5 intrinsics
 * that the "Platform: Xtensa HiFi 4 / HiFi 5" section of tflc_kernels.h
 * uses, so that section compiles and runs on any host (TFLC_HIFI_EMULATE).
 * Nothing else of Cadence's <xtensa/tie/xt_hifi4.h> / xt_hifi5.h is here: a
 * new intrinsic in the section fails to compile until it is added below
 * with its semantics.
 *
 * NOT Cadence's code and never run against a HiFi core or Cadence's
 * instruction-set simulator: no HiFi compiler exists here. Each definition
 * is written from what the public sources establish about the intrinsic;
 * where they do not, the section is written so that the unknown cannot
 * change its results, and this header checks that it does not (the
 * counters below, which tests/test_platform_hifi.c requires to be zero).
 *
 * Sources read: Cadence's open NN libraries for HiFi 4 and HiFi 5
 * (github.com/foss-xtensa/nnlib-hifi4 v4.1.0, nnlib-hifi5 v4.1.0), in
 * particular xa_nn_matmul_sym8sxasym8s.c (_xa_nn_dot_product_4_rows_1_vecs_
 * aligned), xa_nn_conv2d_depthwise_sym8sxasym8s.c (conv2d_per_chan_nhwc_
 * sym8sxasym8s) and xa_nnlib_hifi_isa_compat.h (PRIME_8X4F / AE_LA8X4F_IP
 * built from aligned AE_L8X4F_I loads on HiFi 4).
 *
 * Established by those sources (their results are exact TFLM int8 sums,
 * which only works with these meanings):
 *  - AE_L8X4F_I(p, off) / AE_L8X4F_IP(d, p, inc): four int8 at p (+ off) into
 *    the four 16-bit lanes of an ae_int16x4, each value in the high byte
 *    (value * 256, the "F" fractional form); the byte at the lowest address
 *    in lane 3 (nnlib stores channel c + 0 from AE_MOVAD16_3 and pairs lane
 *    3 with the first 32-bit element of a pair). _IP then adds inc to p.
 *    The address must be 4-byte aligned on HiFi 4: nnlib builds its
 *    unaligned AE_LA8X4F_IP for HiFi 4 out of aligned AE_L8X4F_I loads and
 *    64-bit shifts, and only calls its "_aligned" dot products on aligned
 *    rows.
 *  - AE_SRAI16(d, n): arithmetic right shift of each 16-bit lane (nnlib's
 *    AE_SRAI16(x, 8) turns the F form back into int8 values).
 *  - AE_ADD16(a, b): lane-wise 16-bit add; AE_MOVDA16(v): v's low 16 bits
 *    in all four lanes.
 *  - AE_MULAAAAQ16(q, a, b): the ae_int64 q += a0 b0 + a1 b1 + a2 b2 + a3 b3,
 *    16 x 16-bit signed products, no doubling (nnlib accumulates F-form
 *    weights times int16 inputs and shifts the 64-bit sum right by 8 to get
 *    the exact integer dot product).
 *  - AE_MULA16X4(q1, q0, a, b): two ae_int32x2 accumulators; q1.H += a3 b3,
 *    q1.L += a2 b2, q0.H += a1 b1, q0.L += a0 b0 (nnlib adds the bias pair
 *    of channels c, c + 1 to q1 and of c + 2, c + 3 to q0).
 *  - HiFi 5 only (compiled when XCHAL_HAVE_HIFI5 is nonzero):
 *    AE_LA64_PP(p) primes an alignment register (ae_valign) for a stream of
 *    loads starting at p, at any alignment; each AE_LA8X8_IP(d, a, p) then
 *    gives the next eight int8 of the stream in an ae_int8x8 and advances p
 *    (an ae_int8x8 pointer) by 8 bytes (nnlib-hifi5, e.g.
 *    xa_nn_resize_bilinear_8.c, and nnlib-hifi4's HiFi 1S dot products,
 *    which prime with AE_LA64_PP and read rows of any alignment this way).
 *    Here a stream is read as plain bytes; the register only records where
 *    the stream must continue, and a load elsewhere (a stream used out of
 *    order or not primed) is counted in hifi_emu_stream_errors.
 *    AE_MULA8Q8X8(q1, q0, m0, m1, m2, m3, v): q1.H += m0 . v,
 *    q1.L += m1 . v, q0.H += m2 . v, q0.L += m3 . v, each a dot product of
 *    eight signed int8 x int8 products (nnlib-hifi5's
 *    xa_nn_matmul_sym8sxasym8s.c: four matrix rows against the vector,
 *    rows 0 and 1 paired with the bias pair it loads first; nnlib-hifi4's
 *    xa_nn_matXvec_8x8_batch.c spells it out for HiFi 1 as
 *    q1 += AE_SEL32_LL of the 64-bit dot products of m0 and m1). The lane
 *    order inside an ae_int8x8 does not matter to these dot products.
 *  - AE_SRAI64(q, n): arithmetic right shift of an ae_int64;
 *    AE_MOVINT32X2_FROMINT64(q): its high word as H, low word as L;
 *    AE_MOVAD32_H / AE_MOVAD32_L: one 32-bit element to an int;
 *    AE_ZERO64 / AE_ZERO32: zero.
 *
 * Assumed, and made irrelevant (checked here):
 *  - Whether AE_ADD16, AE_MULA16X4, AE_MULAAAAQ16 and AE_MULA8Q8X8 wrap or
 *    saturate on overflow. The section bounds its inputs (offsets within
 *    +-32640, at most 256 taps per 32-bit depthwise lane, at most 2^16
 *    values per HiFi 5 run into 32-bit lanes, at most 2^28 values per
 *    64-bit dot product) so no sum can overflow; each definition below
 *    counts any overflow in hifi_emu_overflows, and the tests require 0.
 *  - What a misaligned AE_L8X4F_I does (we believe the low address bits
 *    are ignored): the section never issues one; each is counted in
 *    hifi_emu_misaligned, loaded from the address rounded down, and the
 *    tests require 0.
 *  - That an AE_LA8X8_IP stream touches nothing a core would fault on: the
 *    hardware reads whole aligned 8-byte words, so it may read the bytes
 *    before the stream's start and after its end that share a word with
 *    it (never beyond that word). Here only the stream's bytes are read.
 * No rounding or saturating intrinsic is used: the requantization stays in
 * the portable C of tflc_kernels.h, so its bytes cannot depend on a
 * rounding mode read wrongly here. */
#ifndef TFLC_TESTS_HIFI_EMU_H
#define TFLC_TESTS_HIFI_EMU_H

#include <stdint.h>
#include <string.h>

/* lane i of an ae_int16x4 is h[i]; lane 3 holds the lowest address */
typedef struct ae_int16x4 {
  int16_t h[4];
} ae_int16x4;
/* element H is w[1], element L is w[0] */
typedef struct ae_int32x2 {
  int32_t w[2];
} ae_int32x2;
typedef struct ae_int64 {
  int64_t v;
} ae_int64;
typedef struct ae_int8x8 {
  int8_t b[8];
} ae_int8x8;
/* where the stream an alignment register was primed for continues */
typedef struct ae_valign {
  const void *next;
} ae_valign;

/* misaligned AE_L8X4F loads, overflowing sums and misused AE_LA8X8_IP
 * streams seen (see above) */
static long hifi_emu_misaligned, hifi_emu_overflows, hifi_emu_stream_errors;
/* AE_MULAAAAQ16, AE_MULA16X4 and AE_MULA8Q8X8 issued (tests check that the
 * vector paths run) */
static long hifi_emu_count_mulaaaaq16, hifi_emu_count_mula16x4,
    hifi_emu_count_mula8q8x8;

static inline int16_t hifi_emu_wrap16(int32_t v) {
  const int32_t w = ((v + 32768) & 0xFFFF) - 32768;
  if (w != v)
    hifi_emu_overflows++;
  return (int16_t)w;
}
static inline int32_t hifi_emu_add32(int32_t a, int64_t b) {
  const int64_t s = (int64_t)a + b;
  uint32_t u;
  if (s > INT32_MAX || s < INT32_MIN)
    hifi_emu_overflows++;
  u = (uint32_t)(uint64_t)s;
  return u <= 0x7FFFFFFFu ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}
static inline int64_t hifi_emu_asr64(int64_t v, int n) {
  return v >= 0 ? v >> n : -((-(v + 1)) >> n) - 1;
}

static inline ae_int16x4 hifi_emu_l8x4f(const int8_t *p) {
  ae_int16x4 d;
  int i;
  const uintptr_t at = (uintptr_t)p;
  if ((at & 3u) != 0) {
    hifi_emu_misaligned++;
    p -= at & 3u;
  }
  for (i = 0; i < 4; i++)
    d.h[3 - i] = (int16_t)((int32_t)p[i] * 256);
  return d;
}
#define AE_L8X4F_I(p, off) hifi_emu_l8x4f((const int8_t *)(p) + (off))
#define AE_L8X4F_IP(d, p, inc)                                                 \
  ((d) = hifi_emu_l8x4f((const int8_t *)(p)), (p) += (inc))

static inline ae_int16x4 AE_SRAI16(ae_int16x4 d, int n) {
  int i;
  for (i = 0; i < 4; i++)
    d.h[i] = (int16_t)hifi_emu_asr64(d.h[i], n);
  return d;
}
static inline ae_int16x4 AE_ADD16(ae_int16x4 a, ae_int16x4 b) {
  int i;
  for (i = 0; i < 4; i++)
    a.h[i] = hifi_emu_wrap16((int32_t)a.h[i] + b.h[i]);
  return a;
}
static inline ae_int16x4 AE_MOVDA16(int32_t v) {
  ae_int16x4 d;
  const uint32_t u = (uint32_t)v & 0xFFFFu;
  int i;
  for (i = 0; i < 4; i++)
    d.h[i] = (int16_t)((int32_t)u - (u >= 0x8000u ? 0x10000 : 0));
  return d;
}

static inline ae_int64 hifi_emu_mulaaaaq16(ae_int64 q, ae_int16x4 a,
                                           ae_int16x4 b) {
  int64_t s = 0;
  int i;
  for (i = 0; i < 4; i++)
    s += (int64_t)a.h[i] * b.h[i];
  /* |s| <= 2^32: the sum overflows only past the int64 limits */
  if ((s > 0 && q.v > INT64_MAX - s) || (s < 0 && q.v < INT64_MIN - s))
    hifi_emu_overflows++;
  else
    q.v += s;
  hifi_emu_count_mulaaaaq16++;
  return q;
}
#define AE_MULAAAAQ16(q, a, b) ((q) = hifi_emu_mulaaaaq16((q), (a), (b)))

static inline void hifi_emu_mula16x4(ae_int32x2 *q1, ae_int32x2 *q0,
                                     ae_int16x4 a, ae_int16x4 b) {
  q1->w[1] = hifi_emu_add32(q1->w[1], (int64_t)a.h[3] * b.h[3]);
  q1->w[0] = hifi_emu_add32(q1->w[0], (int64_t)a.h[2] * b.h[2]);
  q0->w[1] = hifi_emu_add32(q0->w[1], (int64_t)a.h[1] * b.h[1]);
  q0->w[0] = hifi_emu_add32(q0->w[0], (int64_t)a.h[0] * b.h[0]);
  hifi_emu_count_mula16x4++;
}
#define AE_MULA16X4(q1, q0, a, b) hifi_emu_mula16x4(&(q1), &(q0), (a), (b))

static inline ae_valign AE_LA64_PP(const void *p) {
  ae_valign a;
  a.next = p;
  return a;
}
static inline ae_int8x8 hifi_emu_la8x8(ae_valign *a, const void *p) {
  ae_int8x8 d;
  if (a->next != p)
    hifi_emu_stream_errors++;
  memcpy(d.b, p, 8);
  a->next = (const int8_t *)p + 8;
  return d;
}
#define AE_LA8X8_IP(d, a, p)                                                   \
  ((d) = hifi_emu_la8x8(&(a), (const void *)(p)),                              \
   (p) = (const ae_int8x8 *)(const void *)((const int8_t *)(const void *)(p) + \
                                           8))

static inline int32_t hifi_emu_dot8(ae_int8x8 a, ae_int8x8 b) {
  int32_t s = 0;
  int i;
  for (i = 0; i < 8; i++)
    s += (int32_t)a.b[i] * b.b[i];
  return s;
}
static inline void hifi_emu_mula8q8x8(ae_int32x2 *q1, ae_int32x2 *q0,
                                      ae_int8x8 m0, ae_int8x8 m1, ae_int8x8 m2,
                                      ae_int8x8 m3, ae_int8x8 v) {
  q1->w[1] = hifi_emu_add32(q1->w[1], hifi_emu_dot8(m0, v));
  q1->w[0] = hifi_emu_add32(q1->w[0], hifi_emu_dot8(m1, v));
  q0->w[1] = hifi_emu_add32(q0->w[1], hifi_emu_dot8(m2, v));
  q0->w[0] = hifi_emu_add32(q0->w[0], hifi_emu_dot8(m3, v));
  hifi_emu_count_mula8q8x8++;
}
#define AE_MULA8Q8X8(q1, q0, m0, m1, m2, m3, v)                                \
  hifi_emu_mula8q8x8(&(q1), &(q0), (m0), (m1), (m2), (m3), (v))

static inline ae_int64 AE_ZERO64(void) {
  ae_int64 q;
  q.v = 0;
  return q;
}
static inline ae_int32x2 AE_ZERO32(void) {
  ae_int32x2 d;
  d.w[0] = d.w[1] = 0;
  return d;
}
static inline ae_int64 AE_SRAI64(ae_int64 q, int n) {
  q.v = hifi_emu_asr64(q.v, n);
  return q;
}
static inline ae_int32x2 AE_MOVINT32X2_FROMINT64(ae_int64 q) {
  ae_int32x2 d;
  const uint64_t u = (uint64_t)q.v;
  const uint32_t hi = (uint32_t)(u >> 32), lo = (uint32_t)u;
  d.w[1] =
      hi <= 0x7FFFFFFFu ? (int32_t)hi : (int32_t)(hi - 0x80000000u) + INT32_MIN;
  d.w[0] =
      lo <= 0x7FFFFFFFu ? (int32_t)lo : (int32_t)(lo - 0x80000000u) + INT32_MIN;
  return d;
}
static inline int32_t AE_MOVAD32_H(ae_int32x2 d) {
  return d.w[1];
}
static inline int32_t AE_MOVAD32_L(ae_int32x2 d) {
  return d.w[0];
}

#endif

/* tests/kernel_ref.h - naive int8 references shared by the platform
 * tests (tests/test_platform*.c): random int8 fill and TFLM's
 * MultiplyByQuantizedMultiplier written out in 64-bit arithmetic, followed
 * by the output offset and clamp. Include after harness.h. */
#ifndef TFLC_TESTS_KERNEL_REF_H
#define TFLC_TESTS_KERNEL_REF_H

#include <stdint.h>

static inline void fill_s8(int8_t *p, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++)
    p[i] = (int8_t)rng_int(-128, 127);
}

/* ---- naive references ---------------------------------------------------- */
static inline int32_t ref_srdhm(int64_t a, int64_t b) {
  int64_t p;
  if (a == INT32_MIN && b == INT32_MIN)
    return INT32_MAX;
  p = a * b + ((int64_t)1 << 30);
  if (p >= 0)
    return (int32_t)(p / ((int64_t)1 << 31));
  return (int32_t)(-((-p + ((int64_t)1 << 31) - 1) / ((int64_t)1 << 31)));
}
static inline int32_t ref_rdbpot(int32_t x, int n) {
  int64_t mag = x < 0 ? -(int64_t)x : (int64_t)x, d = (int64_t)1 << n, r;
  if (n == 0)
    return x;
  r = mag / d + ((mag % d) * 2 >= d ? 1 : 0);
  return (int32_t)(x < 0 ? -r : r);
}
static inline int32_t wrap32(int64_t v) {
  uint32_t u = (uint32_t)(uint64_t)v;
  return u <= 0x7FFFFFFFu ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}
/* TFLM's arithmetic for shifts -31..30; beyond, tflc's documented
 * extension (a left shift of 32 or more gives 0, right shifts stop at
 * 31); + offset, clamp, low byte */
static inline int8_t ref_out(int64_t acc, int32_t q, int32_t s, int32_t zp,
                             int32_t lo, int32_t hi) {
  const int32_t x = wrap32(acc);
  const int32_t xl =
      s >= 32 ? 0 : (s > 0 ? wrap32((int64_t)x * ((int64_t)1 << s)) : x);
  int32_t v = wrap32(
      (int64_t)ref_rdbpot(ref_srdhm(xl, q), s > 0 ? 0 : (s < -31 ? 31 : -s)) +
      zp);
  if (v < lo)
    v = lo;
  if (v > hi)
    v = hi;
  return (int8_t)(uint8_t)((uint32_t)v & 0xFFu);
}

#endif

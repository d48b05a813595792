/* tests/harness.h - the tiny test harness shared by the unit tests: checks
 * and the one random generator.
 *
 * A test file defines functions `static void test_x(void)` and lists them
 * in main() with RUN(test_x). CHECK(cond) records a failure and goes on;
 * CHECK_EQ_INT compares integers, CHECK_EQ_MEM bytes. main() ends with
 * `return harness_report();` which prints "N passed, N failed" (checks,
 * not tests) and returns nonzero on any failure.
 *
 * Random numbers: xorshift32 (Marsaglia) everywhere. rng() draws from the
 * one global state `rng_state`; a test file seeds it once at the start of
 * main() with rng_seed(), so its cases are the same on every run and
 * every machine. rng_next(&state) steps a private state (a second stream,
 * or the conformance input generator below).
 *
 * Everything here is `static inline` so that a file using part of it
 * compiles warning-free; fuzz/models.h (through tests/models.h) uses it
 * too. */
#ifndef TFLC_TEST_HARNESS_H
#define TFLC_TEST_HARNESS_H
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int harness_passed, harness_failed;
static const char *harness_current = "";

/* SWEEP_BEGIN() ... SWEEP_END() around a loop of many generated cases
 * makes the whole sweep count as one passed check (every failing case
 * inside is still reported and counted), so the totals count what was
 * tested rather than how many random draws it took. */
static int harness_sweep, harness_sweep_failed;
static inline void harness_pass(void) {
  if (!harness_sweep)
    harness_passed++;
}
#define SWEEP_BEGIN()                                                          \
  do {                                                                         \
    harness_sweep = 1;                                                         \
    harness_sweep_failed = harness_failed;                                     \
  } while (0)
#define SWEEP_END()                                                            \
  do {                                                                         \
    harness_sweep = 0;                                                         \
    if (harness_failed == harness_sweep_failed)                                \
      harness_passed++;                                                        \
  } while (0)

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) {                                                                \
      harness_pass();                                                          \
    } else {                                                                   \
      harness_failed++;                                                        \
      fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__,     \
              harness_current, #cond);                                         \
    }                                                                          \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                     \
  do {                                                                         \
    long long harness_a_ = (long long)(a), harness_b_ = (long long)(b);        \
    if (harness_a_ == harness_b_) {                                            \
      harness_pass();                                                          \
    } else {                                                                   \
      harness_failed++;                                                        \
      fprintf(stderr, "%s:%d: %s: %s == %lld, expected %s == %lld\n",          \
              __FILE__, __LINE__, harness_current, #a, harness_a_, #b,         \
              harness_b_);                                                     \
    }                                                                          \
  } while (0)

#define CHECK_EQ_MEM(a, b, n)                                                  \
  do {                                                                         \
    if (memcmp((a), (b), (n)) == 0) {                                          \
      harness_pass();                                                          \
    } else {                                                                   \
      harness_failed++;                                                        \
      fprintf(stderr, "%s:%d: %s: %s and %s differ (%lu bytes)\n", __FILE__,   \
              __LINE__, harness_current, #a, #b, (unsigned long)(n));          \
    }                                                                          \
  } while (0)

#define RUN(fn)                                                                \
  do {                                                                         \
    harness_current = #fn;                                                     \
    fn();                                                                      \
  } while (0)

static inline int harness_report(void) {
  (void)harness_sweep_failed; /* used only by files with a sweep */
  printf("%d passed, %d failed\n", harness_passed, harness_failed);
  return harness_failed != 0;
}

/* ---- random numbers ------------------------------------------------------ */

static uint32_t rng_state = 0x12345678u;

/* One xorshift32 step of *state (a zero state would stay zero: never seed
 * with 0). */
static inline uint32_t rng_next(uint32_t *state) {
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}
/* Restarts the global stream (0 is replaced by 0x9E3779B9). */
static inline void rng_seed(uint32_t seed) {
  rng_state = seed ? seed : 0x9E3779B9u;
}
/* Next 32 random bits of the global stream. */
static inline uint32_t rng(void) {
  return rng_next(&rng_state);
}
/* Uniform in [lo, hi], both included (hi - lo < 2^32). */
static inline int32_t rng_int(int32_t lo, int32_t hi) {
  return lo + (int32_t)(rng() % (uint32_t)(hi - lo + 1));
}
/* Uniform in [0, n), n > 0. */
static inline int32_t rng_below(int32_t n) {
  return (int32_t)(rng() % (uint32_t)n);
}
/* Uniform float in [-1, 1), 2^-23 steps. */
static inline float rng_unit(void) {
  return (float)(rng() >> 8) / 8388608.0f - 1.0f;
}
/* exp(lo + span * u) with u uniform in [0, 1): log-uniform in
 * [e^lo, e^(lo + span)), e.g. quantization scales. */
static inline float rng_log_uniform(double lo, double span) {
  return (float)exp(lo + span * (double)(rng() >> 8) / 16777216.0);
}
/* n random bytes (the top 8 bits of each draw). */
static inline void rng_bytes(void *p, size_t n) {
  unsigned char *b = (unsigned char *)p;
  size_t i;
  for (i = 0; i < n; i++)
    b[i] = (unsigned char)(rng() >> 24);
}

/* ---- the conformance input generator --------------------------------------
 * How the inputs of ../shared/conformance were made, so tests can rebuild
 * them: input k of a case with seed `seed` is xorshift32 from state
 * seed + k (0 becomes 0x9E3779B9); one step per byte of int8/uint8 data
 * (its low 8 bits), one step per float32 element ((x >> 8) / 2^23 - 1). */
static inline uint32_t conformance_state(uint32_t seed, uint32_t k) {
  uint32_t s = seed + k;
  return s ? s : 0x9E3779B9u;
}
static inline void conformance_bytes(uint32_t seed, uint32_t k, uint8_t *dst,
                                     int n) {
  uint32_t s = conformance_state(seed, k);
  int i;
  for (i = 0; i < n; ++i)
    dst[i] = (uint8_t)(rng_next(&s) & 0xFFu);
}
static inline void conformance_i8(uint32_t seed, uint32_t k, int8_t *dst,
                                  int n) {
  uint32_t s = conformance_state(seed, k);
  int i;
  for (i = 0; i < n; ++i) {
    const uint32_t b = rng_next(&s) & 0xFFu;
    dst[i] = (int8_t)(b >= 128 ? (int32_t)b - 256 : (int32_t)b);
  }
}
static inline void conformance_f32(uint32_t seed, uint32_t k, float *dst,
                                   int n) {
  uint32_t s = conformance_state(seed, k);
  int i;
  for (i = 0; i < n; ++i)
    dst[i] = (float)(rng_next(&s) >> 8) / 8388608.0f - 1.0f;
}

/* ---- LUT-compressed constants ---------------------------------------------
 * Packs n indices MSB first, `bits` (1..32) each, into out
 * (ceil(n * bits / 8) bytes, the last one zero padded): the bit layout of
 * TFLM's compressed tensors, written here apart from tflc's decoder and
 * writer so that tests check them against it. */
/* "0110..." (a bit string as TFLM's compression document writes one) ->
 * bytes, MSB first, zero padded; returns the byte count. */
static inline size_t bits_to_bytes(const char *s, uint8_t *out) {
  size_t i, n = strlen(s);
  memset(out, 0, (n + 7) / 8);
  for (i = 0; i < n; i++)
    if (s[i] == '1')
      out[i / 8] = (uint8_t)(out[i / 8] | (0x80u >> (i % 8)));
  return (n + 7) / 8;
}
static inline void pack_indices(const uint32_t *idx, int32_t n, int bits,
                                uint8_t *out) {
  size_t pos = 0;
  int32_t i;
  int b;
  memset(out, 0, ((size_t)n * (size_t)bits + 7u) / 8u);
  for (i = 0; i < n; i++)
    for (b = bits - 1; b >= 0; b--, pos++)
      if ((idx[i] >> b) & 1u)
        out[pos / 8] = (uint8_t)(out[pos / 8] | (0x80u >> (pos % 8)));
}
#endif

/* tests/harness.h - the tiny test harness shared by the unit tests.
 *
 * A test file defines functions `static void test_x(void)` and lists them
 * in main() with RUN(test_x). CHECK(cond) records a failure and goes on;
 * CHECK_EQ_MEM compares bytes. main() ends with `return harness_report();`
 * which prints "N passed, N failed" (checks, not tests) and returns
 * nonzero on any failure. */
#ifndef TFLC_TEST_HARNESS_H
#define TFLC_TEST_HARNESS_H
#include <stdio.h>
#include <string.h>

static int harness_passed, harness_failed;
static const char *harness_current = "";

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) {                                                                \
      harness_passed++;                                                        \
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
      harness_passed++;                                                        \
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
      harness_passed++;                                                        \
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

static int harness_report(void) {
  printf("%d passed, %d failed\n", harness_passed, harness_failed);
  return harness_failed != 0;
}
#endif

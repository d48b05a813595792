/* tests/platform_count.h - a TFLC_PLATFORM_HEADER for tests/test_platform.c.
 *
 * Replaces two primitives of tflc_kernels.h with functions that count their
 * calls and forward to an implementation the test picks at run time (the
 * portable one, or the Arm DSP one compiled with TFLC_DSP_EMULATE). The
 * other two primitives keep their built-in versions. With
 * TEST_LIBRARY_GEMM the GEMM is left to the library's own choice (on the
 * Cortex-M55 that also lets the convolution driver take its MVE-only
 * paths, which a replaced GEMM turns off). */
#ifndef TFLC_TEST_PLATFORM_COUNT_H
#define TFLC_TEST_PLATFORM_COUNT_H

typedef void (*test_gemm_fn)(const tflc_requant_params *rq,
                             const tflc_gemm_block *g);
typedef void (*test_depthwise_fn)(const tflc_requant_params *rq,
                                  const tflc_depthwise_block *b);

static test_gemm_fn test_gemm_impl = tflc_gemm_s8_portable;
static test_depthwise_fn test_depthwise_impl = tflc_depthwise_s8_portable;
static long test_gemm_calls, test_depthwise_calls;
static int32_t test_gemm_rows_max; /* most rows of a GEMM call so far */

#if !defined(TEST_LIBRARY_GEMM)
static void test_gemm_s8(const tflc_requant_params *rq,
                         const tflc_gemm_block *g) {
  test_gemm_calls++;
  if (g->rows > test_gemm_rows_max)
    test_gemm_rows_max = g->rows;
  test_gemm_impl(rq, g);
}
#endif

static void test_depthwise_s8(const tflc_requant_params *rq,
                              const tflc_depthwise_block *b) {
  test_depthwise_calls++;
  test_depthwise_impl(rq, b);
}

#if !defined(TEST_LIBRARY_GEMM)
#define TFLC_GEMM_S8 test_gemm_s8
#endif
#define TFLC_DEPTHWISE_S8 test_depthwise_s8
#endif

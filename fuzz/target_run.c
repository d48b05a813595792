/* fuzz/target_run.c - fuzz_kernels.c's checks run on a Cortex-M target (the
 * QEMU harnesses of ../shared/tools), over pseudo-random inputs from a
 * seed: the platform code as the target compiles it (the Arm DSP
 * instructions and Thumb-2 assembly on the M4; Helium on the M55) against
 * the portable versions and the plain references, where the host fuzzer
 * runs their emulations (TFLC_DSP_EMULATE) or nothing (Helium). The
 * inputs are the fuzzer's format (fuzz_kernels.c): one selector byte,
 * then shape, parameter and data bytes, 1 to FUZZ_MAX_LEN of them.
 *   tests/fuzz_target_test.sh      (builds and runs it on both harnesses)
 * Build-time settings: FUZZ_RUNS (inputs), FUZZ_SEED (the first state). A
 * difference prints the seed and the input's number and exits with 1. */
#define FUZZ_ON_TARGET
static void fuzz_target_fail(void);
#define FUZZ_FAIL() fuzz_target_fail()
#include "fuzz_kernels.c"

#ifndef FUZZ_RUNS
#define FUZZ_RUNS 2000
#endif
#ifndef FUZZ_SEED
#define FUZZ_SEED 0x2545F491u
#endif
#define FUZZ_MAX_LEN 700

static uint32_t fuzz_seed_now;
static long fuzz_run_now;

static void fuzz_target_fail(void) {
  printf("fuzz_kernels on the target: input %ld of seed 0x%08lx differs\n",
         fuzz_run_now, (unsigned long)fuzz_seed_now);
  printf("0 passed, 1 failed\n");
  exit(1);
}

/* xorshift32 */
static uint32_t fuzz_next(uint32_t *s) {
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *s = x;
  return x;
}

int main(void) {
  static uint8_t buf[FUZZ_MAX_LEN];
  uint32_t state = FUZZ_SEED;
  long counts[9] = {0};
  int i;
  fuzz_seed_now = FUZZ_SEED;
  for (fuzz_run_now = 0; fuzz_run_now < FUZZ_RUNS; fuzz_run_now++) {
    /* mostly short inputs (small shapes, many of them), some long */
    const uint32_t r = fuzz_next(&state);
    const size_t len =
        1u + (r & 3u ? (r >> 8) & 127u : (r >> 8) % (FUZZ_MAX_LEN - 1u));
    size_t k;
    for (k = 0; k < len; k++)
      buf[k] = (uint8_t)(fuzz_next(&state) >> 24);
    counts[buf[0] % 9u]++;
    LLVMFuzzerTestOneInput(buf, len);
  }
  printf("fuzz_kernels on the target (%s): %ld inputs, seed 0x%08lx; by "
         "selector:",
         N_FAST ? fast[N_FAST - 1].name : "portable", fuzz_run_now,
         (unsigned long)fuzz_seed_now);
  for (i = 0; i < 9; i++)
    printf(" %ld", counts[i]);
  printf("\n%ld passed, 0 failed\n", fuzz_run_now);
  return 0;
}

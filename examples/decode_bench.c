/* decode_bench.c - LUT decode throughput: int8 bytes decoded per instruction
 * (or per cycle) for every index width 1..8, the way kernels decode
 * compressed filters (tflc_lut_decode in TFLC_TILE_BYTES tiles, one value
 * table). Run by examples/decode_bench.sh (`make bench-decode`):
 *   host:  decode_bench [BITS]   cycles (rdtsc where there is one) and
 *                                nanoseconds per width; run under
 *                                callgrind for exact instruction counts
 *                                (decode_tiles is the function to count)
 *   M4:    built with the Cortex-M4 harness (TFLC_DECODE_BENCH_M4): exact
 *          instruction counts from the harness counter
 * Every width is first checked against tflc_lut_decode_ref (same bytes). */
#define TFLC_KERNELS_IMPLEMENTATION
#include "../tflc_kernels.h"

#include <string.h>

#if defined(TFLC_DECODE_BENCH_M4)
#include "harness.h"
#define PRINT hprintf
#else
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_RDTSC 1
#endif
#define PRINT printf
#endif

#define ELEMS 16384 /* int8 values decoded per width */
#define TILE TFLC_TILE_BYTES

static uint8_t bitstring[ELEMS]; /* up to 8 bits per value */
static int8_t table[256];
static int8_t tile[TILE];
static int8_t whole[ELEMS], whole_ref[ELEMS];

static uint32_t rng = 12345u;
static uint32_t next_random(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

/* The measured work: every element, one tile at a time. The checksum
 * keeps compilers from dropping it. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static uint32_t
decode_tiles(const tflc_const *c) {
  uint32_t sum = 0;
  int32_t start;
  for (start = 0; start < ELEMS; start += TILE) {
    const int32_t n = ELEMS - start < TILE ? ELEMS - start : TILE;
    tflc_lut_decode(c, start, n, tile);
    sum += (uint32_t)(uint8_t)tile[n - 1];
  }
  return sum;
}

static tflc_const make_const(int bits) {
  int32_t i;
  for (i = 0; i < ELEMS; i++)
    bitstring[i] = (uint8_t)next_random();
  for (i = 0; i < 256; i++)
    table[i] = (int8_t)(int32_t)(next_random() & 0xFFu);
  return tflc_const_lut(bitstring, table, TFLC_INT8, ELEMS, bits, 1,
                        (int32_t)1 << bits, 0);
}

/* the fast decode gives the reference decode's bytes */
static int check(const tflc_const *c) {
  int32_t start;
  for (start = 0; start < ELEMS; start += TILE)
    tflc_lut_decode(c, start, TILE, whole + start);
  tflc_lut_decode_ref(c, 0, ELEMS, whole_ref);
  return memcmp(whole, whole_ref, sizeof whole) == 0;
}

#if defined(TFLC_DECODE_BENCH_M4)
int main(void) {
  int bits, bad = 0;
  icount_init();
  PRINT("bits  bytes  instructions  bytes/instruction\n");
  for (bits = 1; bits <= 8; bits++) {
    const tflc_const c = make_const(bits);
    uint64_t n;
    uint32_t milli;
    if (!check(&c)) {
      PRINT("bits %d: decode DIFFERS from tflc_lut_decode_ref\n", bits);
      bad = 1;
      continue;
    }
    bench_begin();
    (void)decode_tiles(&c);
    n = bench_end();
    milli = (uint32_t)((uint64_t)ELEMS * 1000u / (n ? n : 1u));
    PRINT("%4d  %5d  %12llu  %u.%03u\n", bits, ELEMS, (unsigned long long)n,
          (unsigned)(milli / 1000u), (unsigned)(milli % 1000u));
  }
  return bad;
}
#else
static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  enum { REPEATS = 31 };
  int bits, lo = 1, hi = 8, bad = 0;
  volatile uint32_t sink = 0;
  if (argc > 1) {
    lo = hi = atoi(argv[1]);
    if (lo < 1 || lo > 8) {
      fprintf(stderr, "usage: decode_bench [BITS 1..8]\n");
      return 2;
    }
  }
  PRINT("bits  bytes  ns (median)  bytes/ns%s\n",
#if defined(HAVE_RDTSC)
        "  tsc cycles (median)  bytes/cycle"
#else
        ""
#endif
  );
  for (bits = lo; bits <= hi; bits++) {
    const tflc_const c = make_const(bits);
    double ns[REPEATS], cyc[REPEATS];
    int r;
    if (!check(&c)) {
      PRINT("bits %d: decode DIFFERS from tflc_lut_decode_ref\n", bits);
      bad = 1;
      continue;
    }
    for (r = 0; r < REPEATS; r++) {
      const double t0 = now_ns();
#if defined(HAVE_RDTSC)
      const unsigned long long c0 = __rdtsc();
#endif
      sink += decode_tiles(&c);
#if defined(HAVE_RDTSC)
      cyc[r] = (double)(__rdtsc() - c0);
#else
      cyc[r] = 0;
#endif
      ns[r] = now_ns() - t0;
    }
    qsort(ns, REPEATS, sizeof ns[0], cmp_double);
    qsort(cyc, REPEATS, sizeof cyc[0], cmp_double);
    PRINT("%4d  %5d  %11.0f  %8.3f", bits, ELEMS, ns[REPEATS / 2],
          ELEMS / ns[REPEATS / 2]);
#if defined(HAVE_RDTSC)
    PRINT("  %19.0f  %11.3f", cyc[REPEATS / 2], ELEMS / cyc[REPEATS / 2]);
#endif
    PRINT("\n");
  }
  (void)sink;
  return bad;
}
#endif

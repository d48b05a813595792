/* m4_bench.c - bare-metal Cortex-M4F benchmark (QEMU mps2-an386, see
 * ../shared/tools/cortex-m4-qemu): runs one model from flash, reports the
 * exact instruction count of tflc_invoke, arena, stack high-water mark.
 * The model is compiled in: build/m4_model.c defines m4_model[] and
 * m4_model_len (made by `make bench-m4` with xxd -i), and the expected
 * output bytes m4_expect[] (from the conformance case) are compared. */
#define TFLC_IMPLEMENTATION
#include "../tflc.h"

#include "harness.h"

extern const unsigned char m4_model[];
extern const unsigned int m4_model_len;
extern const unsigned char m4_input[];
extern const unsigned int m4_input_len;
extern const unsigned char m4_expect[];
extern const unsigned int m4_expect_len;

static uint8_t arena[160 * 1024] __attribute__((aligned(16)));

int main(void) {
  tflc_model m;
  tflc_interpreter it;
  tflc_tensor *in;
  const tflc_tensor *out;
  uint64_t n;
  tflc_status st;
  icount_init();
  st = tflc_model_init(&m, m4_model, m4_model_len);
  if (st != TFLC_OK) {
    hprintf("model: %s\n", tflc_model_error(&m));
    return 1;
  }
  st = tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL);
  if (st != TFLC_OK) {
    hprintf("init: %s\n", tflc_error(&it));
    return 1;
  }
  in = tflc_input(&it, 0);
  if (in->bytes != m4_input_len) {
    hprintf("input size %u != %u\n", (unsigned)in->bytes, m4_input_len);
    return 1;
  }
  memcpy(in->data, m4_input, m4_input_len);
  bench_begin();
  st = tflc_invoke(&it);
  n = bench_end();
  if (st != TFLC_OK) {
    hprintf("invoke: %s\n", tflc_error(&it));
    return 1;
  }
  out = tflc_output(&it, 0);
  hprintf("invoke: %llu instructions\n", (unsigned long long)n);
  hprintf("arena: %u bytes\n", (unsigned)tflc_arena_used(&it));
  hprintf("stack: %u bytes (high-water, whole program)\n",
          (unsigned)stack_high_water());
  if (out->bytes != m4_expect_len ||
      memcmp(out->data, m4_expect, m4_expect_len) != 0) {
    hprintf("output: DIFFERS from TFLM\n");
    return 1;
  }
  hprintf("output: identical to TFLM (%u bytes)\n", (unsigned)out->bytes);
  return 0;
}

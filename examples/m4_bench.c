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

#if defined(TFLC_M4_BENCH_OPS)
/* Per-operator instructions (TFLC_M4_BENCH_OPS, M4_JSON=1 in
 * examples/m4_bench.sh): a second invoke with a profile hook that reads
 * the instruction counter before and after each operator (resolution: 40
 * instructions at -icount shift=0, plus the hook's own few). The measured
 * invoke above runs without it. */
#define M4_MAX_OPS 512
static struct {
  int32_t op, code;
  uint64_t insns;
} m4_ops[M4_MAX_OPS];
static int m4_nops;
static uint32_t m4_t0;
static void m4_hook(void *user, int32_t op, int32_t code, int begin) {
  const uint32_t t = icount_ticks();
  (void)user;
  if (begin) {
    m4_t0 = t;
  } else if (m4_nops < M4_MAX_OPS) {
    m4_ops[m4_nops].op = op;
    m4_ops[m4_nops].code = code;
    m4_ops[m4_nops].insns = icount_ticks_to_insns((uint32_t)(t - m4_t0));
    m4_nops++;
  }
}

__attribute__((noinline)) static int m4_profile(const tflc_model *m,
                                                uint64_t total) {
  tflc_interpreter it;
  tflc_options opt;
  int i;
  memset(&opt, 0, sizeof opt);
  opt.profile = m4_hook;
  if (tflc_interpreter_init(&it, m, arena, sizeof arena, &opt) != TFLC_OK)
    return 1;
  memcpy(tflc_input(&it, 0)->data, m4_input, m4_input_len);
  if (tflc_invoke(&it) != TFLC_OK)
    return 1;
  hprintf("ops-json: {\"instructions\": %llu, \"ops\": [",
          (unsigned long long)total);
  for (i = 0; i < m4_nops; i++)
    hprintf("%s{\"op\": %d, \"opcode\": \"%s\", \"instructions\": %llu}",
            i ? ", " : "", (int)m4_ops[i].op, tflc_opcode_name(m4_ops[i].code),
            (unsigned long long)m4_ops[i].insns);
  hprintf("]}\n");
  return 0;
}
#endif

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
#if defined(TFLC_M4_BENCH_OPS)
  if (m4_profile(&m, n) != 0) {
    hprintf("ops-json: profiled invoke failed\n");
    return 1;
  }
#endif
  return 0;
}

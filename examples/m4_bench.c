/* m4_bench.c - bare-metal Cortex-M4F benchmark (QEMU mps2-an386, see
 * ../shared/tools/cortex-m4-qemu): runs one model from flash, reports the
 * exact instruction count of tflc_invoke, arena, stack high-water mark.
 * Protocol of ../shared/reference/PEERS.md: a warm-up invoke (its output
 * is the one compared with TFLM's), the input written again, then the
 * measured invoke between bench_begin and bench_end (a streaming model
 * continues from the state the warm-up left).
 * The model is compiled in: build/m4_model.c defines m4_model[] and
 * m4_model_len (made by `make bench-m4` with xxd -i), and the expected
 * output bytes m4_expect[] (from the conformance case) are compared.
 * -DTFLC_M4_BENCH_PLAN=TFLC_PLAN_SMALLEST (or another tflc_plan) runs that
 * plan (tflc_options.plan). */
#define TFLC_IMPLEMENTATION
#include "../tflc.h"

#include "harness.h"

extern const unsigned char m4_model[];
extern const unsigned int m4_model_len;
extern const unsigned char m4_input[];
extern const unsigned int m4_input_len;
extern const unsigned char m4_expect[];
extern const unsigned int m4_expect_len;

static uint8_t arena[400 * 1024] __attribute__((aligned(16)));

/* Stack use per phase: the harness paints the stack at reset and
 * stack_high_water() finds the deepest word written since; painting again
 * below the caller's frame between phases (the same 0xDEADBEEF) makes the
 * next reading the deepest point of that phase alone (main's frame and
 * the harness's words above it included). */
extern uint32_t __stack_limit__;
static size_t stack_model, stack_init, stack_invoke; /* deepest per phase */
static __attribute__((noinline)) void m4_repaint_stack(void) {
  volatile uint32_t *p = &__stack_limit__;
  uint32_t *sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  while (p < (volatile uint32_t *)sp - 4)
    *p++ = 0xDEADBEEFu;
}

#if defined(TFLC_M4_BENCH_OPS)
/* Per-operator instructions (TFLC_M4_BENCH_OPS, M4_JSON=1 in
 * examples/m4_bench.sh): a second invoke with a profile hook that reads
 * the instruction counter before and after each operator (resolution: 40
 * instructions at -icount shift=0, plus the hook's own few), and the
 * stack each operator reaches below tflc_invoke's caller (the stack
 * painted again before each one). The measured invoke above runs without
 * it. */
#define M4_MAX_OPS 512
static struct {
  int32_t op, code;
  uint64_t insns;
  uint32_t stack;
} m4_ops[M4_MAX_OPS];
static int m4_nops;
static uint32_t m4_t0;
static size_t m4_stack_base; /* stack depth at the call of tflc_invoke */
static size_t m4_stack_depth(void) {
  extern uint32_t __stack_top__;
  char *sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  return (size_t)((char *)&__stack_top__ - sp);
}
static void m4_hook(void *user, int32_t op, int32_t code, int begin) {
  const uint32_t t = icount_ticks();
  (void)user;
  if (begin) {
    m4_repaint_stack();
    m4_t0 = icount_ticks();
  } else if (m4_nops < M4_MAX_OPS) {
    m4_ops[m4_nops].op = op;
    m4_ops[m4_nops].code = code;
    m4_ops[m4_nops].insns = icount_ticks_to_insns((uint32_t)(t - m4_t0));
    m4_ops[m4_nops].stack = (uint32_t)(stack_high_water() - m4_stack_base);
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
  m4_stack_base = m4_stack_depth();
  if (tflc_invoke(&it) != TFLC_OK) /* warm-up, as the measured invoke */
    return 1;
  m4_nops = 0;
  memcpy(tflc_input(&it, 0)->data, m4_input, m4_input_len);
  if (tflc_invoke(&it) != TFLC_OK)
    return 1;
  hprintf("ops-json: {\"instructions\": %llu, \"ops\": [",
          (unsigned long long)total);
  for (i = 0; i < m4_nops; i++)
    hprintf("%s{\"op\": %d, \"opcode\": \"%s\", \"instructions\": %llu, "
            "\"stack\": %u}",
            i ? ", " : "", (int)m4_ops[i].op, tflc_opcode_name(m4_ops[i].code),
            (unsigned long long)m4_ops[i].insns, (unsigned)m4_ops[i].stack);
  hprintf("]}\n");
  return 0;
}
#endif

/* The model and interpreter records (572 bytes on a 32-bit target) are
 * static, as a firmware holds them; M4_CFLAGS=-DM4_RECORDS_ON_STACK puts
 * them in main's frame instead (the stack figure grows by their size). */
#if defined(M4_RECORDS_ON_STACK)
#define M4_RECORD
#else
#define M4_RECORD static
#endif

int main(void) {
  M4_RECORD tflc_model m;
  M4_RECORD tflc_interpreter it;
  tflc_tensor *in;
  const tflc_tensor *out;
  uint64_t n;
  tflc_status st;
  int same;
  icount_init();
  st = tflc_model_init(&m, m4_model, m4_model_len);
  stack_model = stack_high_water();
  m4_repaint_stack();
  if (st != TFLC_OK) {
    hprintf("model: %s\n", tflc_model_error(&m));
    return 1;
  }
#ifdef TFLC_M4_BENCH_PLAN
  {
    /* M4_CFLAGS=-DTFLC_M4_BENCH_PLAN=TFLC_PLAN_SMALLEST: another plan */
    tflc_options po;
    memset(&po, 0, sizeof po);
    po.plan = TFLC_M4_BENCH_PLAN;
    st = tflc_interpreter_init(&it, &m, arena, sizeof arena, &po);
    hprintf("plan: %d, %d depthwise layers in place\n", (int)it.plan,
            it.plan == TFLC_PLAN_INPLACE ? (int)it.inplace_ops : 0);
  }
#else
  st = tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL);
#endif
  stack_init = stack_high_water();
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
  m4_repaint_stack();
  st = tflc_invoke(&it); /* warm-up: its output is TFLM's output_0.bin */
  if (st != TFLC_OK) {
    hprintf("invoke: %s\n", tflc_error(&it));
    return 1;
  }
  out = tflc_output(&it, 0);
  same = out->bytes == m4_expect_len &&
         memcmp(out->data, m4_expect, m4_expect_len) == 0;
  memcpy(in->data, m4_input, m4_input_len);
  bench_begin();
  st = tflc_invoke(&it);
  n = bench_end();
  stack_invoke = stack_high_water();
  if (st != TFLC_OK) {
    hprintf("invoke: %s\n", tflc_error(&it));
    return 1;
  }
  hprintf("invoke: %llu instructions\n", (unsigned long long)n);
  hprintf("arena: %u bytes\n", (unsigned)tflc_arena_used(&it));
  {
    /* the last reading also covers the reports printed since the invoke */
    size_t top = stack_high_water();
    top = top > stack_model ? top : stack_model;
    top = top > stack_init ? top : stack_init;
    hprintf("stack: %u bytes (high-water, whole program: model_init %u, "
            "interpreter_init %u, invoke %u)\n",
            (unsigned)top, (unsigned)stack_model, (unsigned)stack_init,
            (unsigned)stack_invoke);
  }
  if (!same) {
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

/* m4_target.c - tflc on a Cortex-M4F (QEMU mps2-an386): for each case of
 * m4_cases (made by tests/m4_test.sh), the model wherever the case put it
 * in flash (an odd address included), TFLM's output byte for byte, and
 * for a case with an exact arena N (the fastest plan's): N works (and
 * tflc_arena_used says N), N - 1 fails with TFLC_ERR_ARENA with that plan
 * forced; with the smallest plan's arena S, the plan the arena decides
 * runs in S and S - 1 fails. One line per case: "ok NAME ..." or
 * "FAIL NAME: ...". */
#include "tflc.h"

#include "harness.h"
#include "m4_target.h"

#include <string.h>

static uint8_t arena[256 * 1024] __attribute__((aligned(16)));

/* 0 when the model runs in `size` bytes of arena and gives the expected
 * output, else the failing status (or -1: wrong output). */
static int run_case(const m4_case *c, size_t size, int32_t plan, size_t *used) {
  tflc_model m;
  tflc_interpreter it;
  tflc_options o;
  tflc_tensor *in;
  const tflc_tensor *out;
  int32_t k;
  tflc_status st = tflc_model_init(&m, c->model, c->model_len);
  if (st != TFLC_OK) {
    hprintf("  model: %s\n", tflc_model_error(&m));
    return (int)st;
  }
  memset(&o, 0, sizeof o);
  o.plan = plan;
  st = tflc_interpreter_init(&it, &m, arena, size, &o);
  if (st != TFLC_OK)
    return (int)st;
  *used = tflc_arena_used(&it);
  for (k = 0; k < 2 && c->input[k]; k++) {
    in = tflc_input(&it, k);
    if (!in || in->bytes != c->input_len[k]) {
      hprintf("  input %d: wrong size\n", (int)k);
      return -1;
    }
    memcpy(in->data, c->input[k], c->input_len[k]);
  }
  st = tflc_invoke(&it);
  if (st != TFLC_OK) {
    hprintf("  invoke: %s\n", tflc_error(&it));
    return (int)st;
  }
  out = tflc_output(&it, 0);
  if (out->bytes != c->expect_len ||
      memcmp(out->data, c->expect, c->expect_len) != 0)
    return -1;
  return 0;
}

int main(void) {
  int k, bad = 0;
  for (k = 0; k < m4_num_cases; k++) {
    const m4_case *c = &m4_cases[k];
    size_t used = 0, used1 = 0;
    size_t size = c->arena ? c->arena : sizeof arena;
    int r = run_case(c, size, TFLC_PLAN_FASTEST, &used);
    if (r != 0) {
      hprintf("FAIL %s: %s with a %u-byte arena (model at %p)\n", c->name,
              r < 0 ? "output differs from TFLM"
                    : tflc_status_str((tflc_status)r),
              (unsigned)size, (const void *)c->model);
      bad++;
      continue;
    }
    if (c->arena && used != c->arena) {
      hprintf("FAIL %s: arena used %u, expected %u\n", c->name, (unsigned)used,
              c->arena);
      bad++;
      continue;
    }
    if (c->arena && run_case(c, c->arena - 1, TFLC_PLAN_FASTEST, &used1) !=
                        TFLC_ERR_ARENA) {
      hprintf("FAIL %s: runs with %u bytes, one less than the exact arena\n",
              c->name, c->arena - 1);
      bad++;
      continue;
    }
    if (c->arena_small &&
        (run_case(c, c->arena_small, TFLC_PLAN_AUTO, &used1) != 0 ||
         used1 != c->arena_small ||
         run_case(c, c->arena_small - 1, TFLC_PLAN_AUTO, &used1) !=
             TFLC_ERR_ARENA)) {
      hprintf("FAIL %s: the smallest plan's arena %u is not exact\n", c->name,
              c->arena_small);
      bad++;
      continue;
    }
    hprintf("ok %s: model at %p, arena %u bytes%s, output identical to "
            "TFLM\n",
            c->name, (const void *)c->model, (unsigned)used,
            c->arena ? " (exact: one byte less fails)" : "");
    if (c->arena_small)
      hprintf("   smallest plan: %u bytes (exact)\n", c->arena_small);
  }
  return bad ? 1 : 0;
}

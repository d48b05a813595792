/* fuzz/fuzz_model.c - libFuzzer harness: any bytes as a model.
 *
 * bytes -> tflc_model_init -> (model introspection: every tensor, every
 * compressed tensor decoded whole) -> tflc_interpreter_init with a 256 KiB
 * arena -> tflc_invoke with inputs all zeros, all 0xFF and a pattern ->
 * every output read in full. Then again with an arena of exactly
 * tflc_arena_used() bytes (which must work) and with a tiny, misaligned
 * arena. The model and every arena are heap blocks of their exact size,
 * so AddressSanitizer reports any access outside them. Errors are fine;
 * a crash, a sanitizer report, an empty error message or an arena size
 * that does not work is a finding. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* damaged models may loop forever in a WHILE: bounded here */
#define TFLC_WHILE_MAX_ITERATIONS 1000
#define TFLC_IMPLEMENTATION
#include "../tflc.h"

#define ARENA_BIG (256u * 1024u)
#define ARENA_TINY 1024u

static void finding(const char *what, const char *msg) {
  fprintf(stderr, "fuzz_model: %s: %s\n", what, msg ? msg : "");
  abort();
}

static void check_msg(const char *msg, const char *where) {
  if (!msg || memchr(msg, 0, TFLC_ERROR_LEN) == NULL)
    finding("unterminated error message", where);
#ifndef TFLC_NO_ERROR_STRINGS
  if (msg[0] == 0)
    finding("empty error message", where);
#endif
}

static volatile uint32_t sink;

static void fill_inputs(tflc_interpreter *it, int pattern) {
  int32_t i;
  for (i = 0; i < it->num_inputs; i++) {
    tflc_tensor *t = tflc_input(it, i);
    uint32_t k;
    if (!t)
      finding("tflc_input returned NULL", "");
    if (pattern < 256) {
      memset(t->data, pattern, t->bytes);
    } else {
      uint8_t *b = (uint8_t *)t->data;
      for (k = 0; k < t->bytes; k++)
        b[k] = (uint8_t)(k * 167u + (uint32_t)pattern);
    }
  }
}

static void read_outputs(const tflc_interpreter *it) {
  int32_t i;
  uint32_t s = 0, k;
  for (i = 0; i < it->num_outputs; i++) {
    const tflc_tensor *t = tflc_output(it, i);
    const uint8_t *b;
    if (!t)
      finding("tflc_output returned NULL", "");
    b = (const uint8_t *)t->data;
    for (k = 0; k < t->bytes; k++)
      s += b[k];
  }
  sink += s;
}

static char last_error[TFLC_ERROR_LEN];

/* init (plan: tflc_options.plan) + three invokes; returns the init
 * status */
static tflc_status run_plan(const tflc_model *m, uint8_t *arena, size_t n,
                            int32_t plan) {
  tflc_interpreter it;
  tflc_options o;
  tflc_status st;
  memset(&o, 0, sizeof o);
  o.plan = plan;
  st = tflc_interpreter_init(&it, m, arena, n, &o);
  static const int patterns[3] = {0, 0xFF, 0x15A};
  int p;
  if (st != TFLC_OK) {
    check_msg(tflc_error(&it), "tflc_interpreter_init");
    memcpy(last_error, it.error, TFLC_ERROR_LEN);
    return st;
  }
  if (tflc_arena_used(&it) > n)
    finding("arena used > arena size", "");
  for (p = 0; p < 3; p++) {
    tflc_status s2;
    fill_inputs(&it, patterns[p]);
    s2 = tflc_invoke(&it);
    if (s2 != TFLC_OK) {
      check_msg(tflc_error(&it), "tflc_invoke");
      break;
    }
    read_outputs(&it);
  }
  return st;
}
static tflc_status run(const tflc_model *m, uint8_t *arena, size_t n) {
  return run_plan(m, arena, n, TFLC_PLAN_AUTO);
}

/* Model-level introspection the tools use. */
static void introspect(const tflc_model *m) {
  int32_t sg, t, i;
  for (sg = 0; sg < m->num_subgraphs && sg < 4; sg++) {
    int32_t nt = tflc_model_num_tensors(m, sg), no = tflc_model_num_ops(m, sg);
    for (i = 0; i < no && i < 4096; i++)
      (void)tflc_opcode_name(tflc_model_op_code(m, sg, i));
    for (t = 0; t < nt && t < 4096; t++) {
      tflc_tensor x;
      const char *name;
      uint32_t name_len, stored;
      tflc_const c;
      int format;
      if (tflc_model_tensor(m, sg, t, &x, &name, &name_len) == TFLC_OK &&
          name && name_len)
        sink += (uint8_t)name[name_len - 1];
      if (tflc_model_lut(m, sg, t, &c, &stored, &format)) {
        size_t es = tflc_type_size(c.type);
        uint8_t *out;
        if (c.count < 0 || es == 0)
          finding("tflc_model_lut: bad descriptor", "");
        if ((uint64_t)c.count * es > ((uint64_t)64 << 20))
          continue;
        out = (uint8_t *)malloc((size_t)c.count * es + 1);
        if (!out)
          abort();
        tflc_lut_decode(&c, 0, c.count, out);
        sink += out[0];
        free(out);
      }
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tflc_model m;
  uint8_t *bytes = NULL, *arena;
  tflc_status st;
  if (size > 0) {
    /* the model at a 16-byte aligned address, exactly `size` bytes */
    if (posix_memalign((void **)&bytes, 16, size) != 0)
      abort();
    memcpy(bytes, data, size);
  }
  st = tflc_model_init(&m, bytes, size);
  if (st != TFLC_OK) {
    check_msg(tflc_model_error(&m), "tflc_model_init");
    free(bytes);
    return 0;
  }
  introspect(&m);
  if (posix_memalign((void **)&arena, 16, ARENA_BIG) != 0)
    abort();
  st = run(&m, arena, ARENA_BIG);
  if (st == TFLC_OK) {
    tflc_interpreter it;
    size_t used;
    uint8_t *exact;
    (void)tflc_interpreter_init(&it, &m, arena, ARENA_BIG, NULL);
    used = tflc_arena_used(&it);
    if (used < 64)
      used = 64; /* tflc_interpreter_init's minimum (empty models use 0) */
    if (posix_memalign((void **)&exact, 16, used) != 0)
      abort();
    st = run(&m, exact, used);
    if (st != TFLC_OK)
      finding("tflc_arena_used() bytes are not enough", last_error);
    free(exact);
    /* the smallest plan, in its own exact arena (the plan the arena
     * decides), and every depthwise layer that can written over its input */
    {
      tflc_options o;
      memset(&o, 0, sizeof o);
      o.plan = TFLC_PLAN_SMALLEST;
      if (tflc_interpreter_init(&it, &m, arena, ARENA_BIG, &o) != TFLC_OK)
        finding("the smallest plan fails where the fastest runs", it.error);
      used = tflc_arena_used(&it);
      if (used < 64)
        used = 64;
      if (posix_memalign((void **)&exact, 16, used) != 0)
        abort();
      if (run(&m, exact, used) != TFLC_OK)
        finding("the smallest plan's arena is not enough", last_error);
      free(exact);
      (void)run_plan(&m, arena, ARENA_BIG, TFLC_PLAN_EVERYWHERE);
    }
  }
  free(arena);
  arena = (uint8_t *)malloc(ARENA_TINY);
  if (!arena)
    abort();
  (void)run(&m, arena + 3, ARENA_TINY - 3);
  free(arena);
  free(bytes);
  return 0;
}

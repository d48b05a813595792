/* tflc - command-line tool for tflc.h.
 *
 *   tflc run MODEL [--input FILE]... [--out-dir DIR] [--random-inputs SEED]
 *            [--iters N] [--json] [--arena BYTES] [--dump-layers DIR]
 *   tflc info MODEL [--json]
 *
 * Any error: exit status 1 and one line on stderr beginning "tflc: ". */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "../tflc_write.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_FILES 16

static void die(const char *fmt, ...) {
  va_list ap;
  fputs("tflc: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  /* leave without the atexit handlers: buffers this short-lived tool
   * still holds are the OS's to reclaim (and leak checkers stay quiet) */
  fflush(stdout);
  fflush(stderr);
  _exit(1);
}

static uint8_t *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  uint8_t *buf;
  long n = 0;
  if (!f)
    die("cannot open %s: %s", path, strerror(errno));
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0)
    die("cannot read %s", path);
  /* 16-byte aligned copy, as TFLM expects models to be loaded */
  buf = (uint8_t *)aligned_alloc(16, ((size_t)n + 16) & ~(size_t)15);
  if (!buf)
    die("out of memory reading %s", path);
  if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)
    die("cannot read %s", path);
  fclose(f);
  *size = (size_t)n;
  return buf;
}

static void write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0)
    die("cannot write %s", path);
}

static void load_model(tflc_model *m, const char *path, uint8_t **bytes) {
  size_t size;
  tflc_status st;
  *bytes = read_file(path, &size);
  st = tflc_model_init(m, *bytes, size);
  if (st != TFLC_OK)
    die("%s: %s: %s", path, tflc_status_str(st), tflc_model_error(m));
}

/* Initialises an interpreter with an arena of exactly the size it needs:
 * first with a large arena to learn the size, then again with that. */
static uint8_t *init_exact(tflc_interpreter *it, const tflc_model *m,
                           size_t arena_limit, const tflc_options *opt) {
  size_t cap = arena_limit ? arena_limit : (size_t)256 << 20, used;
  uint8_t *arena = (uint8_t *)aligned_alloc(16, cap);
  tflc_status st;
  if (!arena)
    die("out of memory for a %lu-byte arena", (unsigned long)cap);
  st = tflc_interpreter_init(it, m, arena, cap, opt);
  if (st != TFLC_OK)
    die("%s: %s", tflc_status_str(st), tflc_error(it));
  if (arena_limit)
    return arena;
  used = tflc_arena_used(it);
  free(arena);
  arena = (uint8_t *)aligned_alloc(16, (used + 15) & ~(size_t)15);
  if (!arena)
    die("out of memory");
  st = tflc_interpreter_init(it, m, arena, used, opt);
  if (st != TFLC_OK)
    die("%s: %s (with the exact arena)", tflc_status_str(st), tflc_error(it));
  return arena;
}

/* The generator of ../shared/conformance/README.md. */
static void random_fill(tflc_tensor *t, uint32_t state) {
  uint32_t x = state ? state : 0x9E3779B9u, i;
  if (t->type == TFLC_FLOAT32) {
    float *f = (float *)t->data;
    for (i = 0; i < t->bytes / 4; i++) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      f[i] = (float)(x >> 8) / 8388608.0f - 1.0f;
    }
  } else {
    uint8_t *b = (uint8_t *)t->data;
    for (i = 0; i < t->bytes; i++) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      b[i] = (uint8_t)x;
    }
  }
}

static void json_tensor(const tflc_tensor *t, int32_t index, int32_t ti) {
  int i;
  printf("{\"index\": %d, \"tensor\": %d, \"type\": \"%s\", \"shape\": [",
         index, ti, tflc_type_name(t->type));
  for (i = 0; i < t->rank; i++)
    printf("%s%d", i ? ", " : "", t->dims[i]);
  printf("], \"bytes\": %u, \"scale\": %.9g, \"zero_point\": %d}", t->bytes,
         (double)t->scale, t->zero_point);
}

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct dump_ctx {
  tflc_interpreter *it;
  const char *dir;
} dump_ctx;
static void dump_layer(void *user, int32_t op, int32_t code, int begin) {
  dump_ctx *d = (dump_ctx *)user;
  tflc__op *o = NULL;
  int32_t k;
  if (begin)
    return;
  /* `op` is the model's operator index; folded DECODE ops have no record */
  for (k = 0; k < d->it->num_ops && !o; k++)
    if (d->it->ops[k].index == op)
      o = &d->it->ops[k];
  for (k = 0; o && k < o->nout; k++) {
    const tflc_tensor *t = &d->it->tensors[TFLC__OUT(o)[k]];
    char path[1024];
    if (!t->data)
      continue;
    snprintf(path, sizeof path, "%s/op_%03d_%s_t%d.bin", d->dir, op,
             tflc_opcode_name(code), t->index);
    write_file(path, t->data, t->bytes);
  }
}

static int cmd_run(int argc, char **argv) {
  const char *model_path = NULL, *out_dir = NULL, *dump_dir = NULL;
  const char *inputs[MAX_FILES];
  int ninputs = 0, json = 0, i, have_seed = 0;
  long iters = 0;
  unsigned long seed = 0, arena_limit = 0;
  tflc_model m;
  tflc_interpreter it;
  tflc_options opt;
  dump_ctx dc;
  uint8_t *bytes, *arena;
  double median = 0;
  memset(&opt, 0, sizeof opt);
  for (i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--input") && i + 1 < argc) {
      if (ninputs == MAX_FILES)
        die("too many --input");
      inputs[ninputs++] = argv[++i];
    } else if (!strcmp(argv[i], "--out-dir") && i + 1 < argc) {
      out_dir = argv[++i];
    } else if (!strcmp(argv[i], "--dump-layers") && i + 1 < argc) {
      dump_dir = argv[++i];
    } else if (!strcmp(argv[i], "--random-inputs") && i + 1 < argc) {
      seed = strtoul(argv[++i], NULL, 0);
      have_seed = 1;
    } else if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
      iters = strtol(argv[++i], NULL, 0);
      if (iters < 1 || iters > 1000000)
        die("--iters must be 1..1000000");
    } else if (!strcmp(argv[i], "--arena") && i + 1 < argc) {
      arena_limit = strtoul(argv[++i], NULL, 0);
    } else if (!strcmp(argv[i], "--json")) {
      json = 1;
    } else if (argv[i][0] == '-') {
      die("run: unknown option %s", argv[i]);
    } else if (!model_path) {
      model_path = argv[i];
    } else {
      die("run: unexpected argument %s", argv[i]);
    }
  }
  if (!model_path)
    die("usage: tflc run MODEL [--input FILE]... [--out-dir DIR] "
        "[--random-inputs SEED] [--iters N] [--json]");
  load_model(&m, model_path, &bytes);
  if (dump_dir) {
    mkdir(dump_dir, 0777);
    dc.it = &it;
    dc.dir = dump_dir;
    opt.profile = dump_layer;
    opt.profile_user = &dc;
  }
  arena = init_exact(&it, &m, arena_limit, &opt);
  if (ninputs && have_seed)
    die("run: --input and --random-inputs are exclusive");
  if (ninputs && ninputs != it.num_inputs)
    die("model has %d inputs, %d given", it.num_inputs, ninputs);
  for (i = 0; i < it.num_inputs; i++) {
    tflc_tensor *t = tflc_input(&it, i);
    if (ninputs) {
      size_t n;
      uint8_t *d = read_file(inputs[i], &n);
      if (n != t->bytes)
        die("input %d: %s has %lu bytes, tensor needs %u", i, inputs[i],
            (unsigned long)n, t->bytes);
      memcpy(t->data, d, n);
      free(d);
    } else if (have_seed) {
      random_fill(t, (uint32_t)(seed + (unsigned long)i));
    }
  }
  {
    tflc_status st = tflc_invoke(&it);
    if (st != TFLC_OK)
      die("invoke: %s: %s", tflc_status_str(st), tflc_error(&it));
  }
  if (iters > 0) {
    double *t = (double *)malloc(sizeof(double) * (size_t)iters);
    long k;
    if (!t)
      die("out of memory");
    opt.profile = NULL;
    it.opt.profile = NULL;
    for (k = 0; k < iters; k++) {
      double t0 = now_us();
      if (tflc_invoke(&it) != TFLC_OK)
        die("invoke: %s", tflc_error(&it));
      t[k] = now_us() - t0;
    }
    qsort(t, (size_t)iters, sizeof(double), cmp_double);
    median = t[iters / 2];
    free(t);
  }
  if (out_dir) {
    mkdir(out_dir, 0777);
    for (i = 0; i < it.num_outputs; i++) {
      char path[1024];
      const tflc_tensor *t = tflc_output(&it, i);
      snprintf(path, sizeof path, "%s/output_%d.bin", out_dir, i);
      write_file(path, t->data, t->bytes);
    }
  }
  if (json) {
    printf("{\"model\": \"%s\", \"arena_used_bytes\": %lu, "
           "\"arena_planned_bytes\": %lu, \"arena_persistent_bytes\": %lu, "
           "\"inputs\": [",
           model_path, (unsigned long)tflc_arena_used(&it),
           (unsigned long)it.head, (unsigned long)it.tail);
    for (i = 0; i < it.num_inputs; i++) {
      if (i)
        printf(", ");
      json_tensor(tflc_input(&it, i), i, it.inputs[i]);
    }
    printf("], \"outputs\": [");
    for (i = 0; i < it.num_outputs; i++) {
      if (i)
        printf(", ");
      json_tensor(tflc_output(&it, i), i, it.outputs[i]);
    }
    printf("]");
    if (iters > 0)
      printf(", \"iters\": %ld, \"median_us\": %.3f", iters, median);
    printf("}\n");
  } else if (!out_dir) {
    for (i = 0; i < it.num_outputs; i++) {
      const tflc_tensor *t = tflc_output(&it, i);
      uint32_t k, n = t->bytes / (uint32_t)tflc_type_size(t->type);
      printf("output %d (%s):", i, tflc_type_name(t->type));
      for (k = 0; k < n && k < 32; k++) {
        if (t->type == TFLC_INT8)
          printf(" %d", ((const int8_t *)t->data)[k]);
        else if (t->type == TFLC_FLOAT32)
          printf(" %g", (double)((const float *)t->data)[k]);
        else if (t->type == TFLC_UINT8)
          printf(" %u", ((const uint8_t *)t->data)[k]);
        else if (t->type == TFLC_INT16)
          printf(" %d", ((const int16_t *)t->data)[k]);
        else if (t->type == TFLC_INT32)
          printf(" %d", ((const int32_t *)t->data)[k]);
      }
      printf("%s\n", n > 32 ? " ..." : "");
    }
    printf("arena_used_bytes: %lu\n", (unsigned long)tflc_arena_used(&it));
    if (iters > 0)
      printf("median: %.3f us per invoke (%ld iterations)\n", median, iters);
  }
  free(arena);
  free(bytes);
  return 0;
}

static int cmd_info(int argc, char **argv) {
  const char *model_path = NULL;
  int json = 0, i;
  tflc_model m;
  tflc_interpreter it;
  uint8_t *bytes, *arena;
  int32_t nt, no, t;
  unsigned long saved = 0;
  for (i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--json"))
      json = 1;
    else if (argv[i][0] == '-')
      die("info: unknown option %s", argv[i]);
    else if (!model_path)
      model_path = argv[i];
    else
      die("info: unexpected argument %s", argv[i]);
  }
  if (!model_path)
    die("usage: tflc info MODEL [--json]");
  load_model(&m, model_path, &bytes);
  arena = init_exact(&it, &m, 0, NULL);
  nt = tflc_model_num_tensors(&m, 0);
  no = tflc_model_num_ops(&m, 0);
  if (json)
    printf("{\"model\": \"%s\", \"bytes\": %lu, \"subgraphs\": %d, "
           "\"arena_used_bytes\": %lu, \"operators\": [",
           model_path, (unsigned long)m.size, m.num_subgraphs,
           (unsigned long)tflc_arena_used(&it));
  else
    printf("%s: %lu bytes, %d subgraph(s), %d operators, %d tensors\n"
           "arena needed: %lu bytes\noperators:\n",
           model_path, (unsigned long)m.size, m.num_subgraphs, no, nt,
           (unsigned long)tflc_arena_used(&it));
  for (i = 0; i < no; i++) {
    int32_t code = tflc_model_op_code(&m, 0, i);
    if (json)
      printf("%s\"%s\"", i ? ", " : "", tflc_opcode_name(code));
    else
      printf("  %3d %s\n", i, tflc_opcode_name(code));
  }
  if (json)
    printf("], \"tensors\": [");
  else
    printf("tensors:\n");
  for (t = 0; t < nt; t++) {
    tflc_tensor tt;
    tflc_const c;
    const char *name = NULL;
    uint32_t nl = 0, stored = 0;
    int fmt = 0, comp, d;
    if (tflc_model_tensor(&m, 0, t, &tt, &name, &nl) != TFLC_OK)
      continue;
    comp = tflc_model_lut(&m, 0, t, &c, &stored, &fmt);
    if (comp && tt.bytes > stored)
      saved += tt.bytes - stored;
    if (json) {
      printf("%s{\"index\": %d, \"name\": \"%.*s\", \"type\": \"%s\", "
             "\"shape\": [",
             t ? ", " : "", t, (int)nl, name ? name : "",
             tflc_type_name(tt.type));
      for (d = 0; d < tt.rank; d++)
        printf("%s%d", d ? ", " : "", tt.dims[d]);
      printf("], \"bytes\": %u, \"constant\": %s", tt.bytes,
             (tt.flags & TFLC_TENSOR_CONST) || comp ? "true" : "false");
      if (comp)
        printf(", \"compressed\": {\"format\": \"%s\", \"method\": "
               "\"%s\", \"bits\": %u, "
               "\"channels\": %d, \"axis\": \"%s\", \"stride\": %u, "
               "\"stored_bytes\": %u, \"bytes_saved\": %ld}",
               fmt == 1 ? "metadata" : "decode",
               c.kind == TFLC_CONST_HUFFMAN ? "huffman"
               : c.kind == TFLC_CONST_PRUNE ? "prune"
                                            : "lut",
               (unsigned)c.bits, c.channels,
               c.channels > 1 ? (c.alt_axis ? "last" : "first") : "none",
               (unsigned)c.stride, stored, (long)tt.bytes - (long)stored);
      printf("}");
    } else {
      printf("  %3d %-8s [", t, tflc_type_name(tt.type));
      for (d = 0; d < tt.rank; d++)
        printf("%s%d", d ? "," : "", tt.dims[d]);
      printf("] %u B%s %.*s", tt.bytes,
             (tt.flags & TFLC_TENSOR_CONST) || comp ? " const" : "", (int)nl,
             name ? name : "");
      if (comp && (c.kind == TFLC_CONST_HUFFMAN || c.kind == TFLC_CONST_PRUNE))
        printf("  [%s TFLM_DECODE, %u B stored, saves %ld B]",
               c.kind == TFLC_CONST_HUFFMAN ? "Huffman" : "Prune", stored,
               (long)tt.bytes - (long)stored);
      else if (comp)
        printf("  [LUT %s, %u bits, %d table(s)%s, %u B stored, saves %ld B]",
               fmt == 1 ? "COMPRESSION_METADATA" : "TFLM_DECODE",
               (unsigned)c.bits, c.channels,
               c.channels > 1 ? (c.alt_axis ? " on last axis" : " on axis 0")
                              : "",
               stored, (long)tt.bytes - (long)stored);
      printf("\n");
    }
  }
  if (json)
    printf("], \"compressed_tensors\": %d, \"bytes_saved\": %lu}\n",
           m.num_lut_tensors, saved);
  else
    printf("compressed tensors: %d, bytes saved: %lu\n", m.num_lut_tensors,
           saved);
  free(arena);
  free(bytes);
  return 0;
}

/* tflc bench: median time per invoke and per operator (profile hook). */
typedef struct bench_ctx {
  double t0;
  double *op_us; /* accumulated per op record */
  int32_t *op_code;
  int32_t nops;
  tflc_interpreter *it;
} bench_ctx;
static void bench_hook(void *user, int32_t op, int32_t code, int begin) {
  bench_ctx *b = (bench_ctx *)user;
  int32_t k;
  if (begin) {
    b->t0 = now_us();
    return;
  }
  for (k = 0; k < b->nops; k++)
    if (b->it->ops[k].index == op) {
      b->op_us[k] += now_us() - b->t0;
      b->op_code[k] = code;
      return;
    }
}
static int cmd_bench(int argc, char **argv) {
  const char *model_path = NULL;
  long iters = 100, k;
  int json = 0, i;
  tflc_model m;
  tflc_interpreter it;
  tflc_options opt;
  bench_ctx b;
  uint8_t *bytes, *arena;
  double *t, total = 0;
  for (i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
      iters = strtol(argv[++i], NULL, 0);
      if (iters < 1 || iters > 1000000)
        die("--iters must be 1..1000000");
    } else if (!strcmp(argv[i], "--json")) {
      json = 1;
    } else if (argv[i][0] == '-') {
      die("bench: unknown option %s", argv[i]);
    } else if (!model_path) {
      model_path = argv[i];
    } else {
      die("bench: unexpected argument %s", argv[i]);
    }
  }
  if (!model_path)
    die("usage: tflc bench MODEL [--iters N] [--json]");
  load_model(&m, model_path, &bytes);
  memset(&opt, 0, sizeof opt);
  memset(&b, 0, sizeof b);
  opt.profile = bench_hook;
  opt.profile_user = &b;
  arena = init_exact(&it, &m, 0, &opt);
  b.it = &it;
  b.nops = it.num_ops;
  b.op_us = (double *)calloc((size_t)it.num_ops + 1, sizeof(double));
  b.op_code = (int32_t *)calloc((size_t)it.num_ops + 1, sizeof(int32_t));
  t = (double *)malloc(sizeof(double) * (size_t)iters);
  if (!b.op_us || !b.op_code || !t)
    die("out of memory");
  for (i = 0; i < it.num_inputs; i++)
    random_fill(tflc_input(&it, i), (uint32_t)(1 + i));
  if (tflc_invoke(&it) != TFLC_OK) /* warm-up */
    die("invoke: %s", tflc_error(&it));
  memset(b.op_us, 0, sizeof(double) * (size_t)it.num_ops);
  for (k = 0; k < iters; k++) {
    double t0 = now_us();
    if (tflc_invoke(&it) != TFLC_OK)
      die("invoke: %s", tflc_error(&it));
    t[k] = now_us() - t0;
  }
  qsort(t, (size_t)iters, sizeof(double), cmp_double);
  for (i = 0; i < it.num_ops; i++)
    total += b.op_us[i];
  if (json) {
    printf("{\"model\": \"%s\", \"iters\": %ld, \"median_us\": %.3f, "
           "\"arena_used_bytes\": %lu, \"ops\": [",
           model_path, iters, t[iters / 2],
           (unsigned long)tflc_arena_used(&it));
    for (i = 0; i < it.num_ops; i++)
      printf("%s{\"op\": %d, \"opcode\": \"%s\", \"mean_us\": %.3f}",
             i ? ", " : "", it.ops[i].index, tflc_opcode_name(b.op_code[i]),
             b.op_us[i] / (double)iters);
    printf("]}\n");
  } else {
    printf("%s: median %.1f us per invoke over %ld invokes (min %.1f, max "
           "%.1f); arena %lu bytes\n",
           model_path, t[iters / 2], iters, t[0], t[iters - 1],
           (unsigned long)tflc_arena_used(&it));
    printf("   op  opcode                          mean us   share\n");
    for (i = 0; i < it.num_ops; i++)
      printf("  %3d  %-30s %9.1f  %5.1f%%\n", it.ops[i].index,
             tflc_opcode_name(b.op_code[i]), b.op_us[i] / (double)iters,
             total > 0 ? 100.0 * b.op_us[i] / total : 0.0);
  }
  free(t);
  free(b.op_us);
  free(b.op_code);
  free(arena);
  free(bytes);
  return 0;
}

#include "cmd_check.h"
#include "cmd_ops.h"
#include "cmd_compress.h"

static int cmd_check(int argc, char **argv) {
  const char *model_path = NULL;
  int json = 0, i, n;
  tflc_model m;
  uint8_t *bytes;
  for (i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--json"))
      json = 1;
    else if (argv[i][0] == '-')
      die("check: unknown option %s", argv[i]);
    else if (!model_path)
      model_path = argv[i];
    else
      die("check: unexpected argument %s", argv[i]);
  }
  if (!model_path)
    die("usage: tflc check MODEL [--json]");
  load_model(&m, model_path, &bytes);
  n = check_model(&m, stdout, json);
  free(bytes);
  if (n)
    die("%s: %d finding%s", model_path, n, n == 1 ? "" : "s");
  if (!json)
    printf("%s: clean (int8 spec followed, every operator supported)\n",
           model_path);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2)
    die("usage: tflc run|info MODEL ... (see tflc help)");
  if (!strcmp(argv[1], "run"))
    return cmd_run(argc - 2, argv + 2);
  if (!strcmp(argv[1], "info"))
    return cmd_info(argc - 2, argv + 2);
  if (!strcmp(argv[1], "bench"))
    return cmd_bench(argc - 2, argv + 2);
  if (!strcmp(argv[1], "ops"))
    return cmd_ops(argc - 2, argv + 2);
  if (!strcmp(argv[1], "check"))
    return cmd_check(argc - 2, argv + 2);
  if (!strcmp(argv[1], "compress"))
    return cmd_compress(argc - 2, argv + 2);
  if (!strcmp(argv[1], "bin"))
    return cmd_bin(argc - 2, argv + 2);
  if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help")) {
    printf("tflc run MODEL [--input FILE]... [--out-dir DIR] "
           "[--random-inputs SEED] [--iters N] [--json] [--arena BYTES] "
           "[--dump-layers DIR]\n"
           "tflc info MODEL [--json]\n"
           "tflc check MODEL [--json]\n"
           "tflc bench MODEL [--iters N] [--json]\n"
           "tflc compress IN -o OUT [--spec SPEC.yaml] [--format "
           "metadata|decode] ...\n"
           "tflc bin IN -o OUT --bits B [--tensors ...] [--exclude ...]\n");
    return 0;
  }
  die("unknown command %s", argv[1]);
  return 1;
}

/* tflc_py.c - the shared library under the `tflc` Python package.
 *
 * One translation unit: the runtime and the host tools (tflc.h,
 * tflc_write.h, implementation macros defined by examples/tflc.c), the
 * command-line tool compiled in as a function (tflcpy_cli: its `--json`
 * reports are what tflc.info / check / bin / compress return, so the
 * Python facts and the CLI's are the same code), and a flat interpreter
 * API that ctypes can call without knowing tflc's struct layouts.
 *
 * Built by python/tflc_build.py (the package's build backend) with
 *   cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -ffp-contract=off -fPIC
 *      -shared -o _libtflc.so tflc_py.c -lm
 * Not thread-safe for tflcpy_cli (the Python side holds a lock);
 * interpreters are independent. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- the CLI as a function --------------------------------------------
 * Its output goes to tmpfiles instead of stdout / stderr, and die()'s
 * _exit returns here through longjmp. What a command allocates or opens
 * (heap blocks, files, directories) is recorded while it runs; whatever is
 * still held when it returns or fails is released then, so a failed call
 * leaks nothing. */
static FILE *tflcpy_out, *tflcpy_err;
static jmp_buf tflcpy_jmp;
static int tflcpy_exit_code;
static void tflcpy_exit(int code) {
  tflcpy_exit_code = code;
  longjmp(tflcpy_jmp, 1);
}

/* The resources a command holds: kind 0 heap block, 1 FILE, 2 DIR. Only
 * while tflcpy_cli runs: the writer and the interpreter API, called from
 * Python directly, allocate through the same code and keep their blocks. */
#include <dirent.h>
static int tflcpy_in_cli;
typedef struct tflcpy_held {
  void *p;
  int kind;
} tflcpy_held;
static tflcpy_held *tflcpy_heldv;
static size_t tflcpy_nheld, tflcpy_capheld;
static int tflcpy_hold(void *p, int kind) { /* 0: out of memory */
  if (tflcpy_nheld == tflcpy_capheld) {
    size_t cap = tflcpy_capheld ? tflcpy_capheld * 2 : 256;
    tflcpy_held *v =
        (tflcpy_held *)realloc(tflcpy_heldv, cap * sizeof(tflcpy_held));
    if (!v)
      return 0;
    tflcpy_heldv = v;
    tflcpy_capheld = cap;
  }
  tflcpy_heldv[tflcpy_nheld].p = p;
  tflcpy_heldv[tflcpy_nheld].kind = kind;
  tflcpy_nheld++;
  return 1;
}
static void tflcpy_unhold(void *p) { /* the latest record of p */
  size_t i = tflcpy_nheld;
  if (!tflcpy_in_cli)
    return;
  while (i > 0) {
    i--;
    if (tflcpy_heldv[i].p == p) {
      tflcpy_heldv[i] = tflcpy_heldv[--tflcpy_nheld];
      return;
    }
  }
}
static void *tflcpy_track(void *p, int kind) {
  if (p && tflcpy_in_cli && !tflcpy_hold(p, kind)) {
    if (kind == 0)
      free(p);
    else if (kind == 1)
      fclose((FILE *)p);
    else
      closedir((DIR *)p);
    return NULL;
  }
  return p;
}
static void tflcpy_release_all(void) {
  while (tflcpy_nheld > 0) {
    tflcpy_held h = tflcpy_heldv[--tflcpy_nheld];
    if (h.kind == 0)
      free(h.p);
    else if (h.kind == 1)
      fclose((FILE *)h.p);
    else
      closedir((DIR *)h.p);
  }
  free(tflcpy_heldv);
  tflcpy_heldv = NULL;
  tflcpy_capheld = 0;
}
static void *tflcpy_malloc(size_t n) {
  return tflcpy_track(malloc(n), 0);
}
static void *tflcpy_calloc(size_t n, size_t m) {
  return tflcpy_track(calloc(n, m), 0);
}
static void *tflcpy_aligned_alloc(size_t a, size_t n) {
  return tflcpy_track(aligned_alloc(a, n), 0);
}
static void *tflcpy_realloc(void *p, size_t n) {
  void *q;
  if (!p)
    return tflcpy_malloc(n);
  q = realloc(p, n);
  if (q && tflcpy_in_cli) { /* p is gone: its record now names q */
    size_t i;
    for (i = tflcpy_nheld; i > 0; i--)
      if (tflcpy_heldv[i - 1].p == p) {
        tflcpy_heldv[i - 1].p = q;
        break;
      }
  }
  return q;
}
static void tflcpy_free(void *p) {
  if (p) {
    tflcpy_unhold(p);
    free(p);
  }
}
static FILE *tflcpy_fopen(const char *path, const char *mode) {
  return (FILE *)tflcpy_track(fopen(path, mode), 1);
}
static int tflcpy_fclose(FILE *f) {
  tflcpy_unhold(f);
  return fclose(f);
}
static DIR *tflcpy_opendir(const char *path) {
  return (DIR *)tflcpy_track(opendir(path), 2);
}
static int tflcpy_closedir(DIR *d) {
  tflcpy_unhold(d);
  return closedir(d);
}
#undef stdout
#undef stderr
#define stdout tflcpy_out
#define stderr tflcpy_err
#define printf(...) fprintf(tflcpy_out, __VA_ARGS__)
#define puts(s) (fputs(s, tflcpy_out), fputc('\n', tflcpy_out))
#define putchar(c) fputc(c, tflcpy_out)
#define _exit(c) tflcpy_exit(c)
#define exit(c) tflcpy_exit(c)
#define main tflcpy_cli_main
#define malloc tflcpy_malloc
#define calloc tflcpy_calloc
#define realloc tflcpy_realloc
#define aligned_alloc tflcpy_aligned_alloc
#define free tflcpy_free
#define fopen tflcpy_fopen
#define fclose tflcpy_fclose
#define opendir tflcpy_opendir
#define closedir tflcpy_closedir
#include "../../examples/tflc.c"
#undef closedir
#undef opendir
#undef fclose
#undef fopen
#undef free
#undef aligned_alloc
#undef realloc
#undef calloc
#undef malloc
#undef main
#undef exit
#undef _exit
#undef putchar
#undef puts
#undef printf
#undef stdout
#undef stderr

/* Runs `tflc argv[0] ...` with its standard output and error written to
 * the files `out_path` and `err_path`. Returns the exit status. */
int tflcpy_cli(int argc, char **argv, const char *out_path,
               const char *err_path);
int tflcpy_cli(int argc, char **argv, const char *out_path,
               const char *err_path) {
  static char *args[64];
  volatile int rc;
  int i;
  if (argc < 0 || argc > 62)
    return 1;
  args[0] = (char *)"tflc";
  for (i = 0; i < argc; i++)
    args[i + 1] = argv[i];
  args[argc + 1] = NULL;
  tflcpy_out = fopen(out_path, "wb");
  tflcpy_err = fopen(err_path, "wb");
  if (!tflcpy_out || !tflcpy_err) {
    if (tflcpy_out)
      fclose(tflcpy_out);
    if (tflcpy_err)
      fclose(tflcpy_err);
    return 1;
  }
  tflcpy_exit_code = 0;
  cli_while_limit = TFLC_CLI_WHILE_LIMIT; /* flags hold for one call */
  tflcpy_in_cli = 1;
  if (setjmp(tflcpy_jmp) == 0)
    rc = tflcpy_cli_main(argc + 1, args);
  else
    rc = tflcpy_exit_code;
  tflcpy_release_all();
  tflcpy_in_cli = 0;
  fclose(tflcpy_out);
  fclose(tflcpy_err);
  tflcpy_out = tflcpy_err = NULL;
  return rc;
}

/* ---- interpreter --------------------------------------------------------
 * A heap handle: a 16-byte aligned copy of the model, the arena, the
 * interpreter and per-operator timings of the last invoke. */
typedef struct tflcpy_interp {
  tflc_model model;
  tflc_interpreter it;
  tflc_options opt;
  uint8_t *bytes;
  uint8_t *arena;
  size_t arena_size;
  double *op_us;   /* per model operator of subgraph 0: last invoke */
  int32_t *op_hit; /* 1 when the operator ran */
  int32_t nops;
  double t0;
  char error[384];
} tflcpy_interp;

static double tflcpy_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void tflcpy_profile(void *user, int32_t op, int32_t code, int begin) {
  tflcpy_interp *h = (tflcpy_interp *)user;
  (void)code;
  if (begin) {
    h->t0 = tflcpy_now_us();
  } else if (op >= 0 && op < h->nops) {
    h->op_us[op] += tflcpy_now_us() - h->t0;
    h->op_hit[op] = 1;
  }
}

void tflcpy_destroy(tflcpy_interp *h);
void tflcpy_destroy(tflcpy_interp *h) {
  if (!h)
    return;
  free(h->bytes);
  free(h->arena);
  free(h->op_us);
  free(h->op_hit);
  free(h);
}

/* A new handle for the model bytes (copied), not yet allocated; NULL with
 * the message in err (errlen bytes) and the status in *status. */
tflcpy_interp *tflcpy_create(const void *bytes, size_t size, char *err,
                             size_t errlen, int *status);
tflcpy_interp *tflcpy_create(const void *bytes, size_t size, char *err,
                             size_t errlen, int *status) {
  tflcpy_interp *h = (tflcpy_interp *)calloc(1, sizeof *h);
  tflc_status st;
  *status = TFLC_ERR_ARENA;
  if (!h || !size ||
      !(h->bytes = (uint8_t *)aligned_alloc(16, (size + 15) & ~(size_t)15))) {
    snprintf(err, errlen, "out of memory");
    tflcpy_destroy(h);
    return NULL;
  }
  memcpy(h->bytes, bytes, size);
  st = tflc_model_init(&h->model, h->bytes, size);
  *status = (int)st;
  if (st != TFLC_OK) {
    snprintf(err, errlen, "%s: %s", tflc_status_str(st),
             tflc_model_error(&h->model));
    tflcpy_destroy(h);
    return NULL;
  }
  h->nops = tflc_model_num_ops(&h->model, 0);
  h->op_us = (double *)calloc((size_t)h->nops + 1, sizeof(double));
  h->op_hit = (int32_t *)calloc((size_t)h->nops + 1, sizeof(int32_t));
  if (!h->op_us || !h->op_hit) {
    snprintf(err, errlen, "out of memory");
    *status = TFLC_ERR_ARENA;
    tflcpy_destroy(h);
    return NULL;
  }
  return h;
}

/* Plans the interpreter in an arena of arena_size bytes, or (0) of exactly
 * the size it needs. Returns a tflc_status; tflcpy_error says why. */
int tflcpy_allocate(tflcpy_interp *h, size_t arena_size);
int tflcpy_allocate(tflcpy_interp *h, size_t arena_size) {
  size_t cap = arena_size ? arena_size : (size_t)256 << 20, used;
  tflc_status st;
  free(h->arena);
  h->arena = NULL;
  h->arena_size = 0;
  memset(&h->opt, 0, sizeof h->opt);
  h->opt.profile = tflcpy_profile;
  h->opt.profile_user = h;
  h->arena = (uint8_t *)aligned_alloc(16, (cap + 15) & ~(size_t)15);
  if (!h->arena) {
    snprintf(h->error, sizeof h->error, "out of memory for a %lu-byte arena",
             (unsigned long)cap);
    return TFLC_ERR_ARENA;
  }
  st = tflc_interpreter_init(&h->it, &h->model, h->arena, cap, &h->opt);
  if (st == TFLC_OK && !arena_size) {
    used = tflc_arena_used(&h->it);
    free(h->arena);
    h->arena = (uint8_t *)aligned_alloc(16, (used + 15) & ~(size_t)15);
    if (!h->arena) {
      snprintf(h->error, sizeof h->error, "out of memory");
      return TFLC_ERR_ARENA;
    }
    cap = used;
    st = tflc_interpreter_init(&h->it, &h->model, h->arena, cap, &h->opt);
  }
  if (st != TFLC_OK) {
    snprintf(h->error, sizeof h->error, "%s: %s", tflc_status_str(st),
             tflc_error(&h->it));
    free(h->arena);
    h->arena = NULL;
    return (int)st;
  }
  h->arena_size = cap;
  return TFLC_OK;
}

const char *tflcpy_error(const tflcpy_interp *h);
const char *tflcpy_error(const tflcpy_interp *h) {
  return h->error;
}

size_t tflcpy_arena_used(const tflcpy_interp *h);
size_t tflcpy_arena_used(const tflcpy_interp *h) {
  return h->arena ? tflc_arena_used(&h->it) : 0;
}

/* Subgraph 0's input (outputs 0) / output (1) count with k < 0, else the
 * model tensor index of number k (-1 when out of range). */
int32_t tflcpy_io(const tflcpy_interp *h, int outputs, int32_t k);
int32_t tflcpy_io(const tflcpy_interp *h, int outputs, int32_t k) {
  uint32_t n = 0, v = info_io(&h->model, 0, outputs, &n);
  if (k < 0)
    return v ? (int32_t)n : 0;
  if (!v || (uint32_t)k >= n)
    return -1;
  return tflc__i32(h->model.bytes + v + 4 * (uint32_t)k);
}

/* Tensor t of subgraph 0 as the model describes it. Returns 0, or -1. */
int tflcpy_tensor(const tflcpy_interp *h, int32_t t, int32_t *type,
                  int32_t *rank, int32_t *dims, uint32_t *bytes,
                  const char **name, uint32_t *name_len, int32_t *nscales,
                  int32_t *axis);
int tflcpy_tensor(const tflcpy_interp *h, int32_t t, int32_t *type,
                  int32_t *rank, int32_t *dims, uint32_t *bytes,
                  const char **name, uint32_t *name_len, int32_t *nscales,
                  int32_t *axis) {
  tflc_tensor tt;
  int32_t d;
  *name = NULL;
  *name_len = 0;
  if (tflc_model_tensor(&h->model, 0, t, &tt, name, name_len) != TFLC_OK)
    return -1;
  *type = tt.type;
  *rank = tt.rank;
  for (d = 0; d < tt.rank && d < TFLC_MAX_DIMS; d++)
    dims[d] = tt.dims[d];
  *bytes = tt.bytes;
  *axis = 0;
  *nscales = tflc_model_tensor_quant(&h->model, 0, t, -1, NULL, NULL, axis);
  if (*nscales < 0)
    *nscales = 0;
  return 0;
}

/* Scale and zero point number k of tensor t (subgraph 0). */
int tflcpy_tensor_quant(const tflcpy_interp *h, int32_t t, int32_t k,
                        float *scale, int64_t *zero_point);
int tflcpy_tensor_quant(const tflcpy_interp *h, int32_t t, int32_t k,
                        float *scale, int64_t *zero_point) {
  int32_t axis = 0;
  *scale = 0.0f;
  *zero_point = 0;
  return tflc_model_tensor_quant(&h->model, 0, t, k, scale, zero_point, &axis) >
                 k
             ? 0
             : -1;
}

/* The interpreter's bytes of model tensor t (subgraph 0) and their size;
 * NULL when it has none readable (a constant compressed or decoded inside
 * its consumers, a tensor not in use, before allocation). Constants point
 * into the model copy (read only). */
void *tflcpy_tensor_data(tflcpy_interp *h, int32_t t, uint32_t *bytes);
void *tflcpy_tensor_data(tflcpy_interp *h, int32_t t, uint32_t *bytes) {
  int32_t k;
  *bytes = 0;
  if (!h->arena)
    return NULL;
  /* it.inputs / it.outputs hold record numbers; a record's `index` is
   * the model tensor */
  for (k = 0; k < h->it.num_inputs; k++)
    if (tflc_input(&h->it, k)->index == t) {
      tflc_tensor *x = tflc_input(&h->it, k);
      *bytes = x->bytes;
      return x->data;
    }
  for (k = 0; k < h->it.num_outputs; k++)
    if (tflc_output(&h->it, k)->index == t) {
      const tflc_tensor *y = tflc_output(&h->it, k);
      *bytes = y->bytes;
      return y->data;
    }
  for (k = 0; k < h->it.num_tensors; k++) {
    tflc_tensor *x = &h->it.tensors[k];
    if (x->index != t)
      continue;
    if (!x->data || (x->flags & (TFLC_TENSOR_LUT | TFLC_TENSOR_VIRTUAL)))
      return NULL;
    *bytes = x->bytes;
    return x->data;
  }
  return NULL;
}

/* Runs subgraph 0 once; operator timings are kept for tflcpy_timing.
 * Returns a tflc_status; tflcpy_error says why. */
int tflcpy_invoke(tflcpy_interp *h);
int tflcpy_invoke(tflcpy_interp *h) {
  tflc_status st;
  if (!h->arena) {
    snprintf(h->error, sizeof h->error, "allocate_tensors() first");
    return TFLC_ERR_STATE;
  }
  memset(h->op_us, 0, sizeof(double) * (size_t)h->nops);
  memset(h->op_hit, 0, sizeof(int32_t) * (size_t)h->nops);
  st = tflc_invoke(&h->it);
  if (st != TFLC_OK)
    snprintf(h->error, sizeof h->error, "%s: %s", tflc_status_str(st),
             tflc_error(&h->it));
  return (int)st;
}

/* Subgraph 0's operator count (op < 0), else operator op's code, with the
 * microseconds it took in the last invoke in *us (-1 when it did not run
 * there, e.g. inside a delegated partition). */
int32_t tflcpy_timing(const tflcpy_interp *h, int32_t op, double *us);
int32_t tflcpy_timing(const tflcpy_interp *h, int32_t op, double *us) {
  if (op < 0)
    return h->nops;
  if (op >= h->nops)
    return -1;
  *us = h->op_hit[op] ? h->op_us[op] : -1.0;
  return tflc_model_op_code(&h->model, 0, op);
}

const char *tflcpy_opcode_name(int32_t code);
const char *tflcpy_opcode_name(int32_t code) {
  return tflc_opcode_name(code);
}

const char *tflcpy_version(void);
const char *tflcpy_version(void) {
  return TFLC_VERSION;
}

/* The conformance input generator (`tflc run --random-inputs`): `bytes`
 * bytes of a tensor of `type` from `state`. */
void tflcpy_random_fill(uint8_t *dst, uint32_t bytes, int32_t type,
                        uint32_t state);
void tflcpy_random_fill(uint8_t *dst, uint32_t bytes, int32_t type,
                        uint32_t state) {
  random_fill(dst, bytes, type, state);
}

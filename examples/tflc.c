/* tflc - command-line tool for tflc.h.
 *
 *   tflc run MODEL [--input FILE]... [--random-inputs SEED] [--out-dir DIR]
 *            [--iters N] [--arena BYTES] [--dump-layers DIR] [--json]
 *   tflc info MODEL [--json]
 *   tflc check MODEL [--json]
 *   tflc bench MODEL [--iters N] [--input FILE]... [--random-inputs SEED]
 *              [--json]
 *   tflc compress IN -o OUT ...     tflc bin IN -o OUT --bits B ...
 *   tflc embed MODEL [-n NAME] [-o FILE]
 *   tflc help [COMMAND], tflc COMMAND --help, tflc --version
 *
 * Any error: exit status 1 and one line on stderr beginning "tflc: ".
 * `check` exits 2 when tflc cannot run the model (an operator or feature
 * unsupported), 0 when it can (spec findings are printed, not failures). */
/* The models this tool reads are untrusted files: a WHILE whose condition
 * never turns false fails after this many iterations (--while-limit N;
 * 0: no bound, the library's default for firmware). */
#define TFLC_CLI_WHILE_LIMIT 1000000ul /* --while-limit default */
static unsigned long cli_while_limit = TFLC_CLI_WHILE_LIMIT;
#define TFLC_WHILE_MAX_ITERATIONS cli_while_limit
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "../tflc_write.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_FILES TFLC_MAX_IO

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

/* ---- usage ---------------------------------------------------------------
 */
/* Every flag of every command, in one table: the usage lines, each
 * command's --help and the check that runs before a command parses its
 * arguments (a flag not listed for the command is refused) all read it,
 * so what --help lists is what the command accepts. */
typedef struct cli_flag {
  const char *cmds; /* the commands taking it, each between spaces */
  const char *flag;
  const char *arg;  /* its value, e.g. "N"; NULL: a switch */
  const char *help; /* one line */
} cli_flag;
static const cli_flag flags[] = {
    {" run bench ", "--input", "FILE",
     "bytes of one model input, in input order (once per input)"},
    {" run bench ", "--random-inputs", "SEED",
     "inputs from the conformance generator with this seed"},
    {" run ", "--out-dir", "DIR", "write the outputs as DIR/output_K.bin"},
    {" run bench ", "--iters", "N",
     "invokes to time (run: N more after the first; bench: default 100)"},
    {" run bench info ", "--arena", "BYTES",
     "arena size (65536, 64K, 1M): the fastest plan that fits it runs "
     "(info: the plan --arena-map shows); default: the exact size of the "
     "fastest plan"},
    {" run ", "--dump-layers", "DIR", "write every operator's outputs"},
    {" run bench ", "--while-limit", "N",
     "a WHILE fails after N iterations (default 1000000; 0: no bound)"},
    {" run bench info ", "--delegate", "SPEC",
     "run through a delegate, e.g. vta or vta:round:threads=1"},
    {" info ", "--target", "32|64",
     "the arena for a 32-bit target (default: this host)"},
    {" info ", "--arena-map", "FILE",
     "the plan the arena gets, drawn (FILE.svg: each tensor a box, operator "
     "range by arena offset) or listed (FILE.json, or --json)"},
    {" compress bin ", "-o", "OUT", "the model to write (required)"},
    {" compress bin ", "--format", "metadata|decode",
     "TFLM_DECODE operators (decode, the default) or COMPRESSION_METADATA"},
    {" compress ", "--methods", "lut,huffman,prune|auto",
     "encodings to try per tensor (default lut; auto: all three, smallest "
     "wins)"},
    {" compress ", "--spec", "SPEC.yaml",
     "the tensors and widths to compress, from a spec file"},
    {" compress ", "--tensors", "SG:T[:BITS],...",
     "compress these tensors (default: every constant that shrinks)"},
    {" bin ", "--tensors", "SG:T,...",
     "bin these tensors (default: the weights of FULLY_CONNECTED, CONV_2D, "
     "DEPTHWISE_CONV_2D, TRANSPOSE_CONV)"},
    {" compress bin ", "--exclude", "SG:T,...", "leave these tensors alone"},
    {" compress bin ", "--tflm-compatible", NULL,
     "only what TFLM runs (default with --format metadata)"},
    {" compress bin ", "--no-tflm-compatible", NULL,
     "whatever tflc runs (default with --format decode)"},
    {" compress ", "--to-int4", NULL,
     "INT8 filters whose values lie in -8..7 become INT4 first"},
    {" compress ", "--allow-growth", NULL,
     "also compress tensors that do not shrink, and write a model larger "
     "than its input"},
    {" bin ", "--bits", "B", "at most 2^B values per table (1..8)"},
    {" bin ", "--prune", "FRACTION",
     "set this fraction of each tensor's smallest values to the zero point"},
    {" bin ", "--budget", "SPEC",
     "the smallest model within an accuracy budget, e.g. top1=99%,max=0.05 "
     "(docs/compress_budget.md); without --bits, --prune, --tensors"},
    {" bin ", "--inputs", "DIR",
     "with --budget: the inputs to measure on (input_K.bin files)"},
    {" bin ", "--random-inputs", "N",
     "with --budget: N random inputs (with --inputs: added to them)"},
    {" bin ", "--labels", "FILE",
     "with --budget: labels of the inputs, for an accuracy drop (acc=D)"},
    {" bin ", "--prune-search", NULL,
     "with --budget: also try pruning each tensor"},
    {" bin ", "--min-bits", "B", "with --budget: the fewest bits to try"},
    {" embed ", "-n", "NAME", "the array's name (default: from the file name)"},
    {" embed ", "-o", "FILE", "write the C file here (default: stdout)"},
    {" embed ", "-H", "FILE",
     "also write a header declaring NAME and NAME_len"},
    {" ops ", "--config", NULL,
     "write a configuration header (TFLC_CONFIG_FILE): TFLC_OPS and what "
     "the model does not need left out"},
    {" ops ", "-o", "FILE", "with --config: the header to write"},
    {" ops ", "--list", NULL, "every operator this build runs"},
    {" run info check bench compress bin ops ", "--json", NULL,
     "machine-readable output"},
    {" run info check bench compress bin embed ops help ", "--help", NULL,
     "this help (also -h)"}};
#define NUM_FLAGS (sizeof flags / sizeof flags[0])

static int flag_of(const cli_flag *f, const char *cmd) {
  const char *p = strstr(f->cmds, cmd);
  size_t n = strlen(cmd);
  while (p && !(p[-1] == ' ' && p[n] == ' '))
    p = strstr(p + 1, cmd);
  return p != NULL;
}
static const cli_flag *find_flag(const char *cmd, const char *a) {
  size_t k;
  for (k = 0; k < NUM_FLAGS; k++)
    if (flag_of(&flags[k], cmd) &&
        (!strcmp(flags[k].flag, a) ||
         (!strcmp(flags[k].flag, "--help") && !strcmp(a, "-h"))))
      return &flags[k];
  return NULL;
}

typedef struct cmd_help {
  const char *name;
  const char *args; /* positional arguments */
  const char *text;
} cmd_help;
static const cmd_help helps[] = {
    {"run", "MODEL",
     "Runs MODEL once on the given inputs (--input FILE per model input, in "
     "order; --random-inputs SEED: the conformance generator; neither: "
     "zeros) and prints the outputs, or writes DIR/output_K.bin. --iters N "
     "runs N more invokes, each on the same inputs, and reports the median "
     "time. --arena BYTES gives the arena size, and the fastest plan that "
     "fits it runs (the output says which); without it the exact size of "
     "the fastest plan is used (TFLC_PLAN=smallest in the environment: of "
     "the smallest). A WHILE loop stops after --while-limit iterations "
     "(models are untrusted files)."},
    {"conform", "DIR...",
     "Checks every case under the folders DIR (a folder holding model.tflite, "
     "input_K.bin and the expected output_K.bin, as the conformance suites "
     "lay them out) in one process: runs the model on the inputs and "
     "compares each expected output byte for byte. Prints a FAIL line for "
     "each failing case, then \"N passed, N failed\"; exit status 1 on any "
     "failure. TFLC_PLAN=a,b,... checks each case with every plan listed."},
    {"info", "MODEL",
     "Lists every subgraph: inputs and outputs (type, shape, scale, zero "
     "point), operators, tensors, compressed constants, constants "
     "misaligned for their type (copied into the arena at init), and the "
     "exact arena: the smallest that works, for this host or, with "
     "--target 32, a 32-bit microcontroller (--json: arena_used_bytes), "
     "and that of the smallest plan (arena_smallest_bytes). "
     "--arena-map FILE draws the plan (FILE.svg) or lists it (FILE.json): "
     "that of the arena --arena BYTES gets, by default the fastest. "
     "Models with operators tflc cannot run are listed too."},
    {"check", "MODEL",
     "Reports where MODEL departs from the TFLite int8 quantization spec and "
     "which operators tflc cannot run. Exit status 0: tflc runs the model "
     "(findings are printed); 2: it cannot; 1: error."},
    {"bench", "MODEL",
     "Times N invokes (default 100) after one warm-up, each on the same "
     "inputs (default: --random-inputs 1), and reports the median per invoke "
     "and the median of each operator (--arena BYTES: in that arena, with "
     "the fastest plan that fits). Runs longer than 2 s show progress "
     "on stderr (TFLC_PROGRESS_AFTER_MS=N: after N ms)."},
    {"compress", "IN -o OUT",
     "LUT-compresses the constant tensors of IN that have few distinct values "
     "per table, into TFLM_DECODE operators by default (--format metadata: "
     "the COMPRESSION_METADATA format). Tensors straight from training have "
     "too many: bin them first with `tflc bin`. Exits 1, writing nothing, "
     "when nothing was compressed or when the model would grow."},
    {"bin", "IN -o OUT",
     "Clusters the values of constant weight tensors to at most 2^B per "
     "table (per channel when quantized per channel), so `tflc compress` "
     "can store them in B bits; --prune sets the smallest values to the "
     "zero point (for the Prune encoding); --budget chooses the widths (and "
     "with --prune-search the pruning) that make the model smallest within "
     "an accuracy budget on the given inputs, and writes it compressed. "
     "Needs --bits, --prune or --budget."},
    {"embed", "MODEL",
     "Writes a C source file (to stdout without -o) with MODEL as a "
     "16-byte aligned const array NAME (default: from the file name) and "
     "its length NAME_len, and with -H a header declaring both. Include it "
     "in firmware instead of `xxd -i`."},
    {"ops", "MODEL",
     "Prints the operators MODEL needs as the TFLC_OPS line that compiles "
     "exactly those into a firmware build, and the operators to register "
     "with tflc_user_op; with --config, a whole configuration header. "
     "`tflc ops --list` lists every operator this build runs."},
    {"help", "[COMMAND]", "Prints the usage of every command."}};
#define NUM_HELPS (sizeof helps / sizeof helps[0])

/* "tflc CMD ARGS [--flag VALUE]..." from the table */
static const char *usage_of(const char *cmd) {
  static char buf[1024];
  size_t k, h, n = 0;
  for (h = 0; h < NUM_HELPS; h++)
    if (!strcmp(helps[h].name, cmd))
      break;
  if (h == NUM_HELPS)
    return "";
  n += (size_t)snprintf(buf, sizeof buf, "tflc %s %s", cmd, helps[h].args);
  for (k = 0; k < NUM_FLAGS && n < sizeof buf; k++)
    if (flag_of(&flags[k], cmd) && strcmp(flags[k].flag, "--help") &&
        !strstr(helps[h].args, flags[k].flag)) /* -o OUT: in args */
      n += (size_t)snprintf(buf + n, sizeof buf - n, " [%s%s%s]", flags[k].flag,
                            flags[k].arg ? " " : "",
                            flags[k].arg ? flags[k].arg : "");
  return buf;
}
static void print_usage(FILE *f) {
  size_t k;
  fprintf(f, "tflc %s - run and inspect TensorFlow Lite models\nusage:\n",
          TFLC_VERSION);
  for (k = 0; k < NUM_HELPS; k++)
    fprintf(f, "  %s\n", usage_of(helps[k].name));
  fprintf(f, "  tflc --version\nRun `tflc help COMMAND` or `tflc COMMAND "
             "--help` for details.\n");
}
static int print_help(const char *cmd) {
  size_t k, j;
  for (k = 0; k < NUM_HELPS; k++)
    if (!strcmp(helps[k].name, cmd)) {
      printf("usage: %s\n\n%s\n\noptions:\n", usage_of(cmd), helps[k].text);
      for (j = 0; j < NUM_FLAGS; j++)
        if (flag_of(&flags[j], cmd)) {
          char left[64];
          snprintf(left, sizeof left, "%s%s%s", flags[j].flag,
                   flags[j].arg ? " " : "", flags[j].arg ? flags[j].arg : "");
          if (strlen(left) > 26)
            printf("  %s\n  %-26s %s\n", left, "", flags[j].help);
          else
            printf("  %-26s %s\n", left, flags[j].help);
        }
      return 0;
    }
  die("help: no command %s (commands: run info check bench compress bin "
      "embed ops)",
      cmd);
  return 1;
}
/* Before a command parses its arguments: every flag is one the table
 * lists for it, with its value. */
static void check_flags(const char *cmd, int argc, char **argv) {
  int i;
  for (i = 0; i < argc; i++) {
    const char *a = argv[i];
    const cli_flag *f;
    if (a[0] != '-' || !a[1])
      continue;
    f = find_flag(cmd, a);
    if (!f)
      die("%s: unknown option %s (tflc %s --help lists them)", cmd, a, cmd);
    if (f->arg && ++i >= argc)
      die("%s: %s needs a value (%s %s)", cmd, a, a, f->arg);
  }
}
/* `tflc CMD -h|--help` anywhere among the arguments prints CMD's help. */
static int wants_help(int argc, char **argv) {
  int i;
  for (i = 0; i < argc; i++)
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
      return 1;
  return 0;
}

/* ---- argument parsing ----------------------------------------------------
 */
/* A whole decimal (or 0x hex) number in [lo, hi], else a clear error. */
static unsigned long parse_num(const char *opt, const char *s, unsigned long lo,
                               unsigned long hi) {
  char *e;
  unsigned long v;
  errno = 0;
  if (!s[0] || s[0] == '-' || s[0] == '+' || s[0] == ' ')
    die("%s: '%s' is not a number (%lu..%lu)", opt, s, lo, hi);
  v = strtoul(s, &e, 0);
  if (*e || errno)
    die("%s: '%s' is not a number (%lu..%lu)", opt, s, lo, hi);
  if (v < lo || v > hi)
    die("%s: %s is out of range (%lu..%lu)", opt, s, lo, hi);
  return v;
}
/* Byte count: a number with an optional K/KiB (1024) or M/MiB suffix. */
static unsigned long parse_bytes(const char *opt, const char *s) {
  char num[32];
  size_t n = strspn(s, "0123456789");
  unsigned long v, mul = 1, max = (unsigned long)1 << 30;
  const char *suf = s + n;
  if (n == 0 || n >= sizeof num)
    die("%s: '%s' is not a byte count (e.g. 65536, 64K, 1M)", opt, s);
  if (!strcmp(suf, "K") || !strcmp(suf, "k") || !strcmp(suf, "KiB"))
    mul = 1024;
  else if (!strcmp(suf, "M") || !strcmp(suf, "MiB"))
    mul = 1024 * 1024;
  else if (*suf)
    die("%s: '%s' is not a byte count (e.g. 65536, 64K, 1M; KB/MB are "
        "ambiguous, use K or M = 1024-based)",
        opt, s);
  memcpy(num, s, n);
  num[n] = 0;
  v = parse_num(opt, num, 1, max / mul);
  return v * mul;
}

/* ---- files -----------------------------------------------------------------
 */
/* Reads a whole file into a 16-byte aligned buffer (*size its length).
 * Models: the tool works on a copy in RAM, as firmware works on flash. */
static uint8_t *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  uint8_t *buf;
  long n = 0;
  struct stat st;
  if (!f)
    die("cannot open %s: %s", path, strerror(errno));
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode))
    die("%s is a directory, not a file", path);
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0)
    die("cannot read %s", path);
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

/* 1 when both paths name the same existing file. */
static int same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/* "status: message", without saying the same thing twice. */
static const char *status_text(tflc_status st, const char *msg) {
  static char buf[TFLC_ERROR_LEN + 64];
  const char *s = tflc_status_str(st);
  if (!msg || !msg[0] || !strcmp(msg, s))
    return s;
  if (!strncmp(msg, s, strlen(s)))
    return msg;
  snprintf(buf, sizeof buf, "%s: %s", s, msg);
  return buf;
}

static void load_model(tflc_model *m, const char *path, uint8_t **bytes) {
  size_t size;
  tflc_status st;
  *bytes = read_file(path, &size);
  st = tflc_model_init(m, *bytes, size);
  if (st != TFLC_OK)
    die("%s: %s", path, status_text(st, tflc_model_error(m)));
}

/* ---- JSON ------------------------------------------------------------------
 */
/* A JSON string of n bytes: quotes, backslashes and control characters
 * escaped; bytes that are not UTF-8 become \u00XX, so the output is valid
 * JSON whatever a path or tensor name holds. */
static void json_strn(FILE *f, const char *s, size_t n) {
  size_t i = 0;
  fputc('"', f);
  while (i < n) {
    unsigned char c = (unsigned char)s[i];
    size_t len = 0, k;
    if (c == '"' || c == '\\') {
      fprintf(f, "\\%c", c);
      i++;
      continue;
    }
    if (c < 0x20 || c == 0x7f) {
      fprintf(f, "\\u%04x", c);
      i++;
      continue;
    }
    if (c < 0x80) {
      fputc(c, f);
      i++;
      continue;
    }
    if (c >= 0xc2 && c <= 0xdf)
      len = 2;
    else if (c >= 0xe0 && c <= 0xef)
      len = 3;
    else if (c >= 0xf0 && c <= 0xf4)
      len = 4;
    for (k = 1; len && k < len; k++)
      if (i + k >= n || ((unsigned char)s[i + k] & 0xc0) != 0x80)
        len = 0;
    if (!len) {
      fprintf(f, "\\u%04x", c);
      i++;
      continue;
    }
    fwrite(s + i, 1, len, f);
    i += len;
  }
  fputc('"', f);
}
static void json_str(FILE *f, const char *s) {
  json_strn(f, s ? s : "", s ? strlen(s) : 0);
}

/* ---- interpreter setup -----------------------------------------------------
 */
/* The plans of TFLC_PLAN in the environment, for tests that run every
 * suite with one plan or several: auto, fastest, inplace, patches, compact,
 * smallest, everywhere (every step wherever it applies), comma-separated.
 * `tflc conform` checks every case with each (auto only first); every
 * other command takes the first. Returns how many (unset: one, auto). */
#define MAX_PLANS 8
static int plans_from_env(int32_t *plans, const char **names) {
  static const char *const known[] = {"auto",      "fastest", "inplace",
                                      "patches",   "compact", "smallest",
                                      "everywhere"};
  static const int32_t value[] = {TFLC_PLAN_AUTO,      TFLC_PLAN_FASTEST,
                                  TFLC_PLAN_INPLACE,   TFLC_PLAN_PATCHES,
                                  TFLC_PLAN_COMPACT,   TFLC_PLAN_SMALLEST,
                                  TFLC_PLAN_EVERYWHERE};
  const char *e = getenv("TFLC_PLAN");
  int n = 0;
  size_t k;
  if (!e || !*e) {
    plans[0] = TFLC_PLAN_AUTO;
    names[0] = known[0];
    return 1;
  }
  for (;;) {
    const size_t len = strcspn(e, ",");
    for (k = 0; k < sizeof known / sizeof known[0]; k++)
      if (strlen(known[k]) == len && !strncmp(e, known[k], len))
        break;
    if (k == sizeof known / sizeof known[0] || n == MAX_PLANS)
      die("TFLC_PLAN=%s: a list of at most %d of auto, fastest, inplace, "
          "patches, compact, smallest and everywhere, comma-separated",
          getenv("TFLC_PLAN"), MAX_PLANS);
    if (n > 0 && value[k] == TFLC_PLAN_AUTO)
      die("TFLC_PLAN=%s: auto only as the first plan", getenv("TFLC_PLAN"));
    plans[n] = value[k];
    names[n++] = known[k];
    if (!e[len])
      return n;
    e += len + 1;
  }
}
static int32_t plan_from_env(void) {
  int32_t plans[MAX_PLANS];
  const char *names[MAX_PLANS];
  plans_from_env(plans, names);
  return plans[0];
}
/* The plan an interpreter runs, for people. */
static unsigned long unfolded_weights(const tflc_interpreter *it);
static const char *plan_text(const tflc_interpreter *it, char *buf, size_t n) {
  if (it->plan == TFLC_PLAN_COMPACT && it->patch_rows)
    snprintf(buf, n,
             "compact (requantization of %d layer%s computed at invoke; "
             "operators %d-%d band by band, %d row%s a band, about %llu bytes "
             "copied; %d depthwise layer%s over their input)",
             it->compact_ops, it->compact_ops == 1 ? "" : "s",
             (int)it->patch_first, (int)it->patch_last, (int)it->patch_rows,
             it->patch_rows == 1 ? "" : "s",
             (unsigned long long)it->patch_copied, it->inplace_ops,
             it->inplace_ops == 1 ? "" : "s");
  else if (it->plan == TFLC_PLAN_COMPACT)
    snprintf(buf, n,
             "compact (requantization of %d layer%s computed at invoke; %d "
             "depthwise layer%s over their input)",
             it->compact_ops, it->compact_ops == 1 ? "" : "s", it->inplace_ops,
             it->inplace_ops == 1 ? "" : "s");
  else if (it->plan == TFLC_PLAN_PATCHES)
    snprintf(buf, n,
             "patches (operators %d-%d band by band, %d row%s a band, "
             "about %llu bytes copied; %d depthwise layer%s over their "
             "input)",
             (int)it->patch_first, (int)it->patch_last, (int)it->patch_rows,
             it->patch_rows == 1 ? "" : "s",
             (unsigned long long)it->patch_copied, it->inplace_ops,
             it->inplace_ops == 1 ? "" : "s");
  else if (it->plan == TFLC_PLAN_INPLACE)
    snprintf(buf, n, "in-place depthwise (%d layer%s over their input)",
             it->inplace_ops, it->inplace_ops == 1 ? "" : "s");
  else if (it->folded_ops == 0 && unfolded_weights(it) > 0)
    snprintf(buf, n,
             "fastest without folded biases (input-offset sums of "
             "the CONV_2D filters at each invoke)");
  else
    snprintf(buf, n, "fastest");
  return buf;
}
/* Instructions a channel whose multiplier and shift the compact plan
 * computes at invoke costs on the Cortex-M4 harness: person_detect's
 * compact plan minus its fastest (examples/m4_bench.sh, with and without
 * M4_CFLAGS=-DTFLC_M4_BENCH_PLAN=TFLC_PLAN_COMPACT), over its 2,738
 * channels: 389.2. */
#define COMPACT_M4_PER_CHANNEL 390ul
/* Instructions a byte the patches plan copies (its windows, padding and
 * output rows) costs on the same harness: person_detect 5.2 (1,129,040
 * more for 216,720 bytes), vww_96_int8 4.7 (1,012,080 for 215,856), with
 * M4_CFLAGS=-DTFLC_M4_BENCH_PLAN=TFLC_PLAN_PATCHES. */
#define PATCH_M4_PER_BYTE 5ul
/* The output channels of the operators whose requantization `it` computes
 * at invoke (the compact plan). */
static unsigned long compact_channels(const tflc_interpreter *it) {
  unsigned long n = 0;
  int32_t i;
  for (i = 0; it->plan == TFLC_PLAN_COMPACT && i < it->num_ops; i++) {
    const tflc__op *op = &it->ops[i];
    if ((op->code == TFLC_OP_CONV_2D ||
         op->code == TFLC_OP_DEPTHWISE_CONV_2D) &&
        (op->variant & TFLC__MULT_AT_INVOKE) && op->nout > 0 &&
        TFLC__OUT(op)[0] >= 0) {
      const tflc_tensor *o = &it->tensors[TFLC__OUT(op)[0]];
      n += o->rank > 0 ? (unsigned long)o->dims[o->rank - 1] : 0;
    }
  }
  return n;
}
/* The filter weights of the int8 CONV_2D layers (raw filter, an input
 * zero point) whose biases a plan does not fold (every plan but the
 * fastest with room for them): their kernels sum them at each invoke (at
 * least once; a chain's layer at each band), 1.25 Cortex-M4 instructions
 * a weight (tflc__sum_s8_dsp). */
static unsigned long unfolded_weights(const tflc_interpreter *it) {
  unsigned long n = 0;
  int32_t i;
  for (i = 0; i < it->num_ops; i++) {
    const tflc__op *op = &it->ops[i];
    const tflc_tensor *in, *f;
    if (op->code != TFLC_OP_CONV_2D || (op->variant & TFLC__FOLDED) ||
        op->nin < 2 || op->in[0] < 0 || op->in[1] < 0)
      continue;
    in = &it->tensors[op->in[0]];
    f = &it->tensors[op->in[1]];
    if (in->type == TFLC_INT8 && in->zero_point != 0 && f->type == TFLC_INT8 &&
        !(f->flags & (TFLC_TENSOR_LUT | TFLC_TENSOR_DECODED)))
      n += (unsigned long)tflc__count(f);
  }
  return n;
}
/* The instructions a plan adds to an invoke on a Cortex-M4, estimated:
 * its requantization computed at invoke, the filter sums its convolutions
 * take again and the bytes its chain copies. */
static unsigned long plan_m4_extra(const tflc_interpreter *it) {
  return compact_channels(it) * COMPACT_M4_PER_CHANNEL +
         unfolded_weights(it) * 5ul / 4ul +
         (it->patch_rows ? (unsigned long)it->patch_copied * PATCH_M4_PER_BYTE
                         : 0ul);
}
/* The plan an interpreter runs, for scripts: "fastest", "inplace",
 * "patches" or "compact". */
static const char *plan_name(const tflc_interpreter *it) {
  return it->plan == TFLC_PLAN_COMPACT   ? "compact"
         : it->plan == TFLC_PLAN_PATCHES ? "patches"
         : it->plan == TFLC_PLAN_INPLACE ? "inplace"
                                         : "fastest";
}
/* The plan an interpreter runs, for JSON: "plan": name, the depthwise
 * layers over their input, the chain run band by band, the layers whose
 * requantization is computed at invoke. */
static void json_plan(const tflc_interpreter *it) {
  printf("\"plan\": \"%s\", \"inplace_layers\": %d", plan_name(it),
         it->plan >= TFLC_PLAN_INPLACE ? it->inplace_ops : 0);
  if (it->patch_rows)
    printf(", \"patch_first_op\": %d, \"patch_last_op\": %d, "
           "\"patch_rows\": %d, \"patch_bytes\": %lu, "
           "\"patch_copied_bytes\": %llu",
           (int)it->patch_first, (int)it->patch_last, (int)it->patch_rows,
           (unsigned long)it->patch_bytes,
           (unsigned long long)it->patch_copied);
  if (it->plan == TFLC_PLAN_COMPACT)
    printf(", \"compact_layers\": %d, \"compact_channels\": %lu",
           it->compact_ops, compact_channels(it));
}
/* Initialises an interpreter with an arena of exactly the size it needs:
 * first with a large arena to learn the size, then again with that.
 * Returns NULL (and the status in *st) when the model cannot be prepared
 * and `soft` is set; dies otherwise. */
static uint8_t *init_arena(tflc_interpreter *it, const tflc_model *m,
                           size_t arena_limit, const tflc_options *opt,
                           int soft, tflc_status *status) {
  /* without a limit, 256 MiB; for the fastest plan (asked, or auto) 4 MiB
   * first, kept when the fastest plan with its folded biases fits it, as
   * most models' does (it is then the plan 256 MiB gets; an arena that
   * large costs a sanitized build a third of a second) */
  tflc_options o = *opt;
  size_t cap, used;
  uint8_t *arena;
  tflc_status st;
  int trial;
  if (!o.plan)
    o.plan = plan_from_env();
  opt = &o;
  trial =
      !arena_limit && (o.plan == TFLC_PLAN_AUTO || o.plan == TFLC_PLAN_FASTEST);
  cap = arena_limit ? arena_limit : trial ? (size_t)4 << 20 : (size_t)256 << 20;
  arena = (uint8_t *)aligned_alloc(16, (cap + 15) & ~(size_t)15);
  if (!arena)
    die("out of memory for a %lu-byte arena", (unsigned long)cap);
  st = tflc_interpreter_init(it, m, arena, cap, opt);
  if (trial &&
      (st == TFLC_ERR_ARENA ||
       (st == TFLC_OK && (it->plan != TFLC_PLAN_FASTEST || it->unfolded)))) {
    free(arena);
    cap = (size_t)256 << 20;
    arena = (uint8_t *)aligned_alloc(16, cap);
    if (!arena)
      die("out of memory for a %lu-byte arena", (unsigned long)cap);
    st = tflc_interpreter_init(it, m, arena, cap, opt);
  }
  if (status)
    *status = st;
  if (st != TFLC_OK) {
    if (soft) {
      free(arena);
      return NULL;
    }
    die("%s", status_text(st, tflc_error(it)));
  }
  if (arena_limit)
    return arena;
  used = tflc_arena_used(it);
  free(arena);
  arena = (uint8_t *)aligned_alloc(16, (used + 15) & ~(size_t)15);
  if (!arena)
    die("out of memory");
  st = tflc_interpreter_init(it, m, arena, used, opt);
  if (st != TFLC_OK)
    die("%s (with the exact arena)", status_text(st, tflc_error(it)));
  return arena;
}
static uint8_t *init_exact(tflc_interpreter *it, const tflc_model *m,
                           size_t arena_limit, const tflc_options *opt) {
  return init_arena(it, m, arena_limit, opt, 0, NULL);
}

/* The generator of ../shared/conformance/README.md. */
static void random_fill(uint8_t *dst, uint32_t bytes, int32_t type,
                        uint32_t state) {
  uint32_t x = state ? state : 0x9E3779B9u, i;
  if (type == TFLC_FLOAT32) {
    for (i = 0; i + 4 <= bytes; i += 4) {
      float v;
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      v = (float)(x >> 8) / 8388608.0f - 1.0f;
      memcpy(dst + i, &v, 4);
    }
  } else {
    for (i = 0; i < bytes; i++) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      dst[i] = (uint8_t)x;
    }
  }
}

/* The inputs the user gave, kept on the host: an invoke may use input
 * buffers for later activations, so they are copied in before every one. */
typedef struct input_set {
  int32_t n;
  uint8_t *data[TFLC_MAX_IO];
  uint32_t bytes[TFLC_MAX_IO];
} input_set;
static void inputs_make(input_set *s, tflc_interpreter *it, const char **files,
                        int nfiles, int have_seed, unsigned long seed) {
  int32_t i;
  if (nfiles && have_seed)
    die("--input and --random-inputs are exclusive");
  if (nfiles && nfiles != it->num_inputs)
    die("model has %d input%s, %d given", it->num_inputs,
        it->num_inputs == 1 ? "" : "s", nfiles);
  s->n = it->num_inputs;
  for (i = 0; i < s->n; i++) {
    const tflc_tensor *t = tflc_input(it, i);
    s->bytes[i] = t->bytes;
    if (nfiles) {
      size_t n;
      s->data[i] = read_file(files[i], &n);
      if (n != t->bytes)
        die("input %d: %s has %lu bytes, tensor needs %u", i, files[i],
            (unsigned long)n, t->bytes);
    } else {
      s->data[i] = (uint8_t *)calloc(1, t->bytes ? t->bytes : 1);
      if (!s->data[i])
        die("out of memory");
      if (have_seed)
        random_fill(s->data[i], t->bytes, t->type,
                    (uint32_t)(seed + (unsigned long)i));
    }
  }
}
static void inputs_load(const input_set *s, tflc_interpreter *it) {
  int32_t i;
  for (i = 0; i < s->n; i++)
    memcpy(tflc_input(it, i)->data, s->data[i], s->bytes[i]);
}
static void inputs_free(input_set *s) {
  int32_t i;
  for (i = 0; i < s->n; i++)
    free(s->data[i]);
  s->n = 0;
}
static void invoke_or_die(tflc_interpreter *it) {
  tflc_status st = tflc_invoke(it);
  if (st != TFLC_OK)
    die("invoke: %s", status_text(st, tflc_error(it)));
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
/* Median of n values (sorts them). */
static double median_of(double *v, long n) {
  qsort(v, (size_t)n, sizeof(double), cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Progress of a long loop on stderr: nothing for the first 2 s (or
 * TFLC_PROGRESS_AFTER_MS of the environment), then a line a second
 * (rewritten in place on a terminal). */
typedef struct progress {
  const char *what;
  double start, last, after;
  int shown;
} progress;
static void progress_start(progress *p, const char *what) {
  const char *env = getenv("TFLC_PROGRESS_AFTER_MS");
  p->what = what;
  p->start = p->last = now_us();
  p->after = env && *env ? atof(env) * 1e3 : 2e6;
  p->shown = 0;
}
static void progress_step(progress *p, long done, long total) {
  double t = now_us(), left;
  if (t - p->start < p->after || (p->shown && t - p->last < 1e6))
    return;
  p->last = t;
  left = (t - p->start) / (double)done * (double)(total - done) / 1e6;
  if (isatty(2))
    fprintf(stderr, "\rtflc: %s: %ld of %ld invokes, about %.0f s left   ",
            p->what, done, total, left);
  else
    fprintf(stderr, "tflc: %s: %ld of %ld invokes, about %.0f s left\n",
            p->what, done, total, left);
  p->shown = 1;
}
static void progress_end(progress *p) {
  if (p->shown && isatty(2))
    fputc('\n', stderr);
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

static void print_values(const tflc_tensor *t) {
  uint32_t k, es = (uint32_t)tflc_type_size(t->type);
  uint32_t n = es ? t->bytes / es : 0;
  for (k = 0; k < n && k < 32; k++) {
    const uint8_t *p = (const uint8_t *)t->data + (size_t)k * es;
    if (t->type == TFLC_INT8)
      printf(" %d", (int)(int8_t)p[0]);
    else if (t->type == TFLC_UINT8 || t->type == TFLC_BOOL)
      printf(" %u", (unsigned)p[0]);
    else if (t->type == TFLC_FLOAT32) {
      float v;
      memcpy(&v, p, 4);
      printf(" %g", (double)v);
    } else if (t->type == TFLC_INT16) {
      int16_t v;
      memcpy(&v, p, 2);
      printf(" %d", v);
    } else if (t->type == TFLC_INT32) {
      int32_t v;
      memcpy(&v, p, 4);
      printf(" %d", v);
    } else if (t->type == TFLC_INT64) {
      int64_t v;
      memcpy(&v, p, 8);
      printf(" %lld", (long long)v);
    }
  }
  printf("%s\n", n > 32 ? " ..." : "");
}

/* The arena figures of `it` for the host (bits 0) or a 32-bit target:
 * used = planned activations + persistent records + rounding to 16. */
static void arena_parts(const tflc_interpreter *it, int bits,
                        unsigned long *used, unsigned long *planned,
                        unsigned long *persistent, unsigned long *rounding) {
  *used = (unsigned long)(bits ? tflc_arena_used_for(it, bits)
                               : tflc_arena_used(it));
  *planned = (unsigned long)it->head;
  *persistent = (unsigned long)(bits == 32 ? it->tail32 : it->tail);
  *rounding = *used - *planned - *persistent;
}
static void json_arena(const tflc_interpreter *it, int bits) {
  unsigned long u, p, q, r;
  arena_parts(it, bits, &u, &p, &q, &r);
  printf("\"arena_used_bytes\": %lu, \"arena_planned_bytes\": %lu, "
         "\"arena_persistent_bytes\": %lu, \"arena_rounding_bytes\": %lu, "
         "\"arena_target\": \"%s\"",
         u, p, q, r,
         bits == 32 ? "32-bit"
                    : (sizeof(void *) == 8 ? "host, 64-bit" : "host, 32-bit"));
}

#include "cmd_delegate.h"
#include "cmd_arena_map.h"

static int cmd_run(int argc, char **argv) {
  const char *model_path = NULL, *out_dir = NULL, *dump_dir = NULL;
  const char *inputs[MAX_FILES];
  int ninputs = 0, json = 0, i, have_seed = 0;
  long iters = 0;
  unsigned long seed = 0, arena_limit = 0;
  tflc_model m;
  tflc_interpreter it;
  tflc_options opt;
  input_set in;
  dump_ctx dc;
  uint8_t *bytes, *arena;
  double median = 0;
  cli_delegate dg = {0};
  memset(&opt, 0, sizeof opt);
  for (i = 0; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "--delegate") && more) {
      delegate_select(&dg, argv[++i]);
    } else if (!strcmp(a, "--input") && more) {
      if (ninputs == MAX_FILES)
        die("run: more than %d --input", MAX_FILES);
      inputs[ninputs++] = argv[++i];
    } else if (!strcmp(a, "--out-dir") && more) {
      out_dir = argv[++i];
    } else if (!strcmp(a, "--dump-layers") && more) {
      dump_dir = argv[++i];
    } else if (!strcmp(a, "--random-inputs") && more) {
      seed = parse_num("--random-inputs", argv[++i], 0, 0xFFFFFFFFul);
      have_seed = 1;
    } else if (!strcmp(a, "--iters") && more) {
      iters = (long)parse_num("--iters", argv[++i], 1, 1000000);
    } else if (!strcmp(a, "--while-limit") && more) {
      cli_while_limit = parse_num("--while-limit", argv[++i], 0, 0x7FFFFFFFul);
    } else if (!strcmp(a, "--arena") && more) {
      arena_limit = parse_bytes("--arena", argv[++i]);
    } else if (!strcmp(a, "--json")) {
      json = 1;
    } else if (a[0] == '-' && a[1]) {
      die("run: unknown option %s%s", a, more ? "" : " (or it needs a value)");
    } else if (!model_path) {
      model_path = a;
    } else {
      die("run: unexpected argument %s", a);
    }
  }
  if (!model_path)
    die("usage: %s", usage_of("run"));
  load_model(&m, model_path, &bytes);
  if (dump_dir) {
    mkdir(dump_dir, 0777);
    dc.it = &it;
    dc.dir = dump_dir;
    opt.profile = dump_layer;
    opt.profile_user = &dc;
  }
  delegate_attach(&dg, &opt);
  arena = init_exact(&it, &m, arena_limit, &opt);
  inputs_make(&in, &it, inputs, ninputs, have_seed, seed);
  inputs_load(&in, &it);
  invoke_or_die(&it);
  if (iters > 0) {
    double *t = (double *)malloc(sizeof(double) * (size_t)iters);
    progress pr;
    long k;
    if (!t)
      die("out of memory");
    it.opt.profile = NULL;
    progress_start(&pr, "run");
    for (k = 0; k < iters; k++) {
      double t0;
      inputs_load(&in, &it); /* the invoke before may have overwritten them */
      t0 = now_us();
      invoke_or_die(&it);
      t[k] = now_us() - t0;
      progress_step(&pr, k + 1, iters);
    }
    progress_end(&pr);
    median = median_of(t, iters);
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
    printf("{\"model\": ");
    json_str(stdout, model_path);
    printf(", ");
    json_arena(&it, 0);
    printf(", \"inputs\": [");
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
    printf("], ");
    json_plan(&it);
    if (iters > 0)
      printf(", \"iters\": %ld, \"median_us\": %.3f", iters, median);
    delegate_json(&dg, &it, 1 + iters);
    printf("}\n");
  } else if (!out_dir) {
    for (i = 0; i < it.num_outputs; i++) {
      const tflc_tensor *t = tflc_output(&it, i);
      printf("output %d (%s):", i, tflc_type_name(t->type));
      print_values(t);
    }
    printf("arena_used_bytes: %lu\n", (unsigned long)tflc_arena_used(&it));
    if (arena_limit || it.plan != TFLC_PLAN_FASTEST) {
      char pb[256];
      printf("plan: %s, in %lu bytes of arena\n", plan_text(&it, pb, sizeof pb),
             arena_limit ? arena_limit : (unsigned long)tflc_arena_used(&it));
    }
    if (iters > 0)
      printf("median: %.3f us per invoke (%ld iterations)\n", median, iters);
    delegate_text(&dg, &it, 1 + iters);
  }
  delegate_free(&dg);
  inputs_free(&in);
  free(arena);
  free(bytes);
  return 0;
}

/* ---- conform ---------------------------------------------------------------
 */
/* The case folders under dir (itself included): those holding a
 * model.tflite, found as `find DIR -name model.tflite` finds them
 * (symbolic links not followed). */
typedef struct case_list {
  char **dir;
  size_t n, cap;
} case_list;
static void cases_find(case_list *l, const char *dir, int depth) {
  char path[4096];
  struct stat st;
  DIR *d;
  struct dirent *e;
  if (depth > 32)
    return;
  snprintf(path, sizeof path, "%s/model.tflite", dir);
  if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
    if (l->n == l->cap) {
      l->cap = l->cap ? 2 * l->cap : 64;
      l->dir = (char **)realloc(l->dir, l->cap * sizeof *l->dir);
      if (!l->dir)
        die("out of memory");
    }
    l->dir[l->n] = (char *)malloc(strlen(dir) + 1);
    if (!l->dir[l->n])
      die("out of memory");
    strcpy(l->dir[l->n++], dir);
  }
  d = opendir(dir);
  if (!d)
    return;
  while ((e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
      cases_find(l, path, depth + 1);
  }
  closedir(d);
}
static int case_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}
static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* One case with one plan: 1 when every expected output matches. */
static int conform_plan(const char *dir, const tflc_model *m, int32_t plan,
                        const char *plan_name, int nplans, input_set *in) {
  tflc_interpreter it;
  tflc_options o;
  tflc_status st;
  uint8_t *arena;
  char path[4200], with[64] = "";
  int k, ok = 1;
  memset(&o, 0, sizeof o);
  o.plan = plan;
  if (nplans > 1)
    snprintf(with, sizeof with, " (plan %s)", plan_name);
  arena = init_arena(&it, m, 0, &o, 1, &st);
  if (!arena) {
    printf("FAIL %s: init%s: %s\n", dir, with,
           status_text(st, tflc_error(&it)));
    return 0;
  }
  if (it.num_inputs != in->n) {
    printf("FAIL %s: model has %d inputs, %d given\n", dir, it.num_inputs,
           in->n);
    free(arena);
    return 0;
  }
  for (k = 0; k < in->n; k++)
    if (tflc_input(&it, k)->bytes != in->bytes[k]) {
      printf("FAIL %s: input_%d.bin has %u bytes, the tensor needs %u\n", dir,
             k, in->bytes[k], tflc_input(&it, k)->bytes);
      free(arena);
      return 0;
    }
  inputs_load(in, &it);
  st = tflc_invoke(&it);
  if (st != TFLC_OK) {
    printf("FAIL %s: invoke%s: %s\n", dir, with,
           status_text(st, tflc_error(&it)));
    free(arena);
    return 0;
  }
  for (k = 0;; k++) {
    size_t n;
    uint8_t *want;
    const tflc_tensor *t;
    snprintf(path, sizeof path, "%s/output_%d.bin", dir, k);
    if (!file_exists(path))
      break;
    want = read_file(path, &n);
    t = k < it.num_outputs ? tflc_output(&it, k) : NULL;
    if (!t || t->bytes != n || memcmp(t->data, want, n) != 0) {
      size_t i, diff = 0;
      for (i = 0; t && t->bytes == n && i < n; i++)
        diff += ((const uint8_t *)t->data)[i] != want[i];
      printf("FAIL %s: output_%d.bin differs%s (%lu bytes differ, or "
             "missing/size mismatch)\n",
             dir, k, with, (unsigned long)diff);
      ok = 0;
    }
    free(want);
  }
  free(arena);
  return ok;
}

static int cmd_conform(int argc, char **argv) {
  int32_t plans[MAX_PLANS];
  const char *names[MAX_PLANS];
  const int nplans = plans_from_env(plans, names);
  case_list l = {NULL, 0, 0};
  unsigned long passed = 0, failed = 0;
  size_t c;
  int i, p;
  if (argc < 1)
    die("usage: %s", usage_of("conform"));
  for (i = 0; i < argc; i++) {
    struct stat st;
    if (argv[i][0] == '-')
      die("conform: unknown option %s", argv[i]);
    if (stat(argv[i], &st) != 0 || !S_ISDIR(st.st_mode))
      die("conform: %s is not a folder", argv[i]);
  }
  for (i = 0; i < argc; i++) {
    const size_t first = l.n;
    cases_find(&l, argv[i], 0);
    qsort(l.dir + first, l.n - first, sizeof *l.dir, case_cmp);
  }
  for (c = 0; c < l.n; c++) {
    const char *dir = l.dir[c];
    char path[4200];
    uint8_t *bytes;
    size_t size;
    tflc_model m;
    tflc_status st;
    input_set in;
    int k, ok = 1;
    snprintf(path, sizeof path, "%s/model.tflite", dir);
    bytes = read_file(path, &size);
    st = tflc_model_init(&m, bytes, size);
    if (st != TFLC_OK) {
      printf("FAIL %s: %s\n", dir, status_text(st, tflc_model_error(&m)));
      free(bytes);
      failed++;
      continue;
    }
    for (k = 0; k < MAX_FILES; k++) {
      snprintf(path, sizeof path, "%s/input_%d.bin", dir, k);
      if (!file_exists(path))
        break;
      in.data[k] = read_file(path, &size);
      in.bytes[k] = (uint32_t)size;
    }
    in.n = k;
    for (p = 0; p < nplans; p++)
      ok &= conform_plan(dir, &m, plans[p], names[p], nplans, &in);
    inputs_free(&in);
    free(bytes);
    if (ok)
      passed++;
    else
      failed++;
    fflush(stdout);
  }
  for (c = 0; c < l.n; c++)
    free(l.dir[c]);
  free(l.dir);
  printf("%lu passed, %lu failed\n", passed, failed);
  return failed ? 1 : 0;
}

/* ---- info ------------------------------------------------------------------
 */
/* Quantization of tensor t as text or JSON fields. */
static void info_quant(const tflc_model *m, int32_t sg, int32_t t, int json) {
  float s = 0;
  int64_t z = 0;
  int32_t axis = 0;
  int32_t n = tflc_model_tensor_quant(m, sg, t, 0, &s, &z, &axis);
  if (json) {
    printf(", \"scale\": %.9g, \"zero_point\": %lld", n ? (double)s : 0.0,
           n ? (long long)z : 0LL);
    if (n > 1)
      printf(", \"scales\": %d, \"quantized_dimension\": %d", n, axis);
  } else if (n == 1) {
    printf(" scale %.9g zero point %lld", (double)s, (long long)z);
  } else if (n > 1) {
    printf(" %d scales on axis %d (first %.9g), zero point %lld", n, axis,
           (double)s, (long long)z);
  }
}
static void info_shape(const tflc_tensor *t, int json) {
  int d;
  printf(json ? "[" : "[");
  for (d = 0; d < t->rank; d++)
    printf("%s%d", d ? (json ? ", " : ",") : "", t->dims[d]);
  printf("]");
}
/* The subgraph's input (outputs != 0: output) tensor indices. */
static uint32_t info_io(const tflc_model *m, int32_t sg, int outputs,
                        uint32_t *n) {
  uint32_t sgt = tflc__subgraph(m, sg);
  *n = 0;
  return sgt ? tflc__sg_vec(m, sgt,
                            outputs ? TFLC__SG_OUTPUTS : TFLC__SG_INPUTS, 4, n)
             : 0;
}
static void info_io_list(const tflc_model *m, int32_t sg, int outputs,
                         int json) {
  uint32_t n, k, v = info_io(m, sg, outputs, &n);
  for (k = 0; k < n; k++) {
    int32_t ti = tflc__i32(m->bytes + v + 4 * k);
    tflc_tensor t;
    const char *name = NULL;
    uint32_t nl = 0;
    if (tflc_model_tensor(m, sg, ti, &t, &name, &nl) != TFLC_OK)
      memset(&t, 0, sizeof t);
    if (json) {
      printf("%s{\"index\": %u, \"tensor\": %d, \"name\": ", k ? ", " : "", k,
             ti);
      json_strn(stdout, name ? name : "", name ? nl : 0);
      printf(", \"type\": \"%s\", \"shape\": ", tflc_type_name(t.type));
      info_shape(&t, 1);
      printf(", \"bytes\": %u", t.bytes);
      info_quant(m, sg, ti, 1);
      printf("}");
    } else {
      printf("  %s %u: tensor %d %s ", outputs ? "output" : "input", k, ti,
             tflc_type_name(t.type));
      info_shape(&t, 0);
      info_quant(m, sg, ti, 0);
      printf("  %.*s\n", (int)nl, name ? name : "");
    }
  }
}

static int cmd_info(int argc, char **argv) {
  const char *model_path = NULL;
  int json = 0, i;
  tflc_model m;
  tflc_interpreter it;
  uint8_t *bytes, *arena;
  tflc_status ist = TFLC_OK;
  int32_t sg, t;
  unsigned long saved = 0;
  uint32_t dl = 0;
  const char *desc;
  int bits = 0; /* arena for: 0 this host, 32 a 32-bit target */
  unsigned long mis_n = 0, mis_bytes = 0, smallest = 0;
  unsigned long step_bytes[3] = {0, 0, 0}, unfolded_bytes = 0,
                unfolded_extra = 0;
  const char *map_path = NULL;
  unsigned long map_arena = 0;
  int32_t small_layers = 0, small_compact = 0, small_chain = 0;
  unsigned long small_channels = 0, small_extra = 0;
  const char *small_name = "fastest";
  tflc_interpreter steps[3];
  uint8_t *step_arena[3] = {NULL, NULL, NULL}; /* kept: the steps are read */
  cli_delegate dg = {0};
  tflc_options opt;
  memset(&opt, 0, sizeof opt);
  for (i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--delegate") && i + 1 < argc)
      delegate_select(&dg, argv[++i]);
    else if (!strcmp(argv[i], "--json"))
      json = 1;
    else if (!strcmp(argv[i], "--target") && i + 1 < argc) {
      unsigned long b = parse_num("--target", argv[++i], 32, 64);
      if (b != 32 && b != 64)
        die("--target: %lu is not 32 or 64 (pointer bits)", b);
      bits = (int)b == (int)(8 * sizeof(void *)) ? 0 : (int)b;
      if (bits && bits != 32)
        die("--target %lu: this tool computes the host's and 32-bit "
            "targets' arenas only",
            b);
    } else if (!strcmp(argv[i], "--arena-map") && i + 1 < argc)
      map_path = argv[++i];
    else if (!strcmp(argv[i], "--arena") && i + 1 < argc)
      map_arena = parse_bytes("--arena", argv[++i]);
    else if (argv[i][0] == '-' && argv[i][1])
      die("info: unknown option %s", argv[i]);
    else if (!model_path)
      model_path = argv[i];
    else
      die("info: unexpected argument %s", argv[i]);
  }
  if (!model_path)
    die("usage: %s", usage_of("info"));
  load_model(&m, model_path, &bytes);
  delegate_attach(&dg, &opt);
  arena = init_arena(&it, &m, 0, &opt, 1, &ist);
  if (arena) {
    /* the smallest plan's arena (the fastest's when no step saves any) */
    tflc_interpreter small;
    tflc_options so = opt;
    uint8_t *sa;
    so.plan = TFLC_PLAN_SMALLEST;
    sa = init_arena(&small, &m, 0, &so, 1, NULL);
    smallest = sa ? (unsigned long)(bits ? tflc_arena_used_for(&small, bits)
                                         : tflc_arena_used(&small))
                  : 0;
    small_layers =
        sa && small.plan >= TFLC_PLAN_INPLACE ? small.inplace_ops : 0;
    small_compact =
        sa && small.plan == TFLC_PLAN_COMPACT ? small.compact_ops : 0;
    small_name = sa ? plan_name(&small) : "fastest";
    small_channels = sa ? compact_channels(&small) : 0;
    small_extra = sa ? plan_m4_extra(&small) : 0;
    small_chain = sa && small.patch_rows; /* patches, compact */
    free(sa);
    /* the fastest plan without its folded biases: what an arena a byte
     * short of the fastest plan's gets, when that is still the fastest */
    if (it.folded_ops > 0) {
      tflc_interpreter unfolded;
      so.plan = TFLC_PLAN_AUTO;
      sa = init_arena(&unfolded, &m, tflc_arena_used(&it) - 1, &so, 1, NULL);
      if (sa && unfolded.plan == TFLC_PLAN_FASTEST && !unfolded.folded_ops) {
        unfolded_bytes =
            (unsigned long)(bits ? tflc_arena_used_for(&unfolded, bits)
                                 : tflc_arena_used(&unfolded));
        unfolded_extra = plan_m4_extra(&unfolded);
      }
      free(sa);
    }
    /* each step down, forced: its arena and what it costs */
    for (i = 0; i < 3; i++) {
      so.plan = i == 0   ? TFLC_PLAN_INPLACE
                : i == 1 ? TFLC_PLAN_PATCHES
                         : TFLC_PLAN_COMPACT;
      sa = init_arena(&steps[i], &m, 0, &so, 1, NULL);
      step_bytes[i] =
          sa ? (unsigned long)(bits ? tflc_arena_used_for(&steps[i], bits)
                                    : tflc_arena_used(&steps[i]))
             : 0;
      step_arena[i] = sa; /* (freed at the end: its records are read) */
    }
  }
  if (map_path) {
    if (!arena)
      die("--arena-map: %s", status_text(ist, tflc_error(&it)));
    if (map_arena) { /* the plan that arena gets */
      tflc_interpreter mi;
      tflc_status mst;
      uint8_t *ma = init_arena(&mi, &m, map_arena, &opt, 1, &mst);
      if (!ma)
        die("--arena %lu: %s", map_arena, status_text(mst, tflc_error(&mi)));
      arena_map_write(map_path, json, &mi, &m, model_path, bits, map_arena,
                      &opt);
      free(ma);
    } else
      arena_map_write(map_path, json, &it, &m, model_path, bits, 0, &opt);
  }
  desc = tflc__get_str(tflc__mfb(&m), m.root, 3, &dl);
  /* constants misaligned for their type (with the model 16-byte aligned):
   * tflc_interpreter_init copies them into the arena */
  for (sg = 0; sg < m.num_subgraphs; sg++)
    for (t = 0; t < tflc_model_num_tensors(&m, sg); t++) {
      tflc_tensor tt;
      size_t es;
      if (tflc_model_tensor(&m, sg, t, &tt, NULL, NULL) != TFLC_OK ||
          !(tt.flags & TFLC_TENSOR_CONST) || !tt.data || !tt.bytes)
        continue;
      es = tflc_type_size(tt.type);
      if (es > 1 && ((size_t)((const uint8_t *)tt.data - m.bytes) & (es - 1))) {
        mis_n++;
        mis_bytes += tt.bytes;
      }
    }
  if (json) {
    printf("{\"model\": ");
    json_str(stdout, model_path);
    printf(", \"bytes\": %lu, \"description\": ", (unsigned long)m.size);
    json_strn(stdout, desc ? desc : "", desc ? dl : 0);
    printf(", \"num_subgraphs\": %d, ", m.num_subgraphs);
    if (arena) {
      json_arena(&it, bits);
      printf(", \"arena_fastest_bytes\": %lu, \"arena_smallest_bytes\": %lu, "
             "\"smallest_plan\": \"%s\", \"smallest_inplace_layers\": %d, "
             "\"smallest_compact_layers\": %d, "
             "\"smallest_compact_channels\": %lu, "
             "\"smallest_compact_m4_instructions\": %lu, "
             "\"smallest_extra_m4_instructions\": %lu",
             (unsigned long)(bits ? tflc_arena_used_for(&it, bits)
                                  : tflc_arena_used(&it)),
             smallest, small_name, small_layers, small_compact, small_channels,
             small_channels * COMPACT_M4_PER_CHANNEL, small_extra);
      printf(", \"plans\": [{\"plan\": \"fastest\", \"arena_bytes\": %lu}",
             (unsigned long)(bits ? tflc_arena_used_for(&it, bits)
                                  : tflc_arena_used(&it)));
      if (unfolded_bytes)
        printf(", {\"plan\": \"fastest_unfolded\", \"arena_bytes\": %lu, "
               "\"extra_m4_instructions\": %lu}",
               unfolded_bytes, unfolded_extra);
      for (i = 0; i < 3; i++)
        if (step_bytes[i] && steps[i].plan != TFLC_PLAN_FASTEST) {
          printf(", {\"arena_bytes\": %lu, ", step_bytes[i]);
          json_plan(&steps[i]);
          printf(", \"recomputed_macs\": 0, \"extra_m4_instructions\": %lu}",
                 plan_m4_extra(&steps[i]));
        }
      printf("]");
    } else {
      printf("\"arena_used_bytes\": null, \"runs\": false, \"error\": ");
      json_str(stdout, status_text(ist, tflc_error(&it)));
    }
    printf(", \"misaligned_constants\": %lu, \"misaligned_bytes\": %lu", mis_n,
           mis_bytes);
    printf(", \"inputs\": [");
    info_io_list(&m, 0, 0, 1);
    printf("], \"outputs\": [");
    info_io_list(&m, 0, 1, 1);
    printf("], \"subgraphs\": [");
  } else {
    printf("%s: %lu bytes, %d subgraph%s", model_path, (unsigned long)m.size,
           m.num_subgraphs, m.num_subgraphs == 1 ? "" : "s");
    if (desc && dl)
      printf(", description \"%.*s\"", (int)dl, desc);
    printf("\n");
    if (arena) {
      unsigned long u, p, q, r;
      arena_parts(&it, bits, &u, &p, &q, &r);
      printf("arena: %lu bytes exactly, on %s (activations %lu + persistent "
             "%lu + rounding %lu), 16-byte aligned; an arena at another "
             "alignment needs up to 15 bytes more\n",
             u, bits ? "a 32-bit target" : "this host", p, q, r);
      if (!bits)
        printf("       %lu bytes on a 32-bit microcontroller (--target 32)\n",
               (unsigned long)tflc_arena_used_for(&it, 32));
      printf("plans: fastest %lu bytes; smallest %lu bytes (", u, smallest);
      if (!small_layers && !small_compact && !small_chain)
        printf("the fastest");
      if (small_layers)
        printf("%d depthwise layer%s written over %s input%s", small_layers,
               small_layers == 1 ? "" : "s",
               small_layers == 1 ? "its" : "their",
               small_chain || small_compact ? "; " : "");
      if (small_chain)
        printf("a chain band by band%s", small_compact ? "; " : "");
      if (small_compact)
        printf("requantization of %d layer%s computed at invoke", small_compact,
               small_compact == 1 ? "" : "s");
      if (small_extra)
        printf(": about %lu instructions more per invoke on a Cortex-M4",
               small_extra);
      printf(")\n");
      if (unfolded_bytes)
        printf("  fastest without folded biases: %lu bytes (input-offset "
               "sums of %d CONV_2D layers taken at each invoke); about %lu "
               "instructions more per invoke on a Cortex-M4\n",
               unfolded_bytes, it.folded_ops, unfolded_extra);
      for (i = 0; i < 3; i++) {
        static const char *const step_names[3] = {
            "in-place depthwise", "patches", "compact requantization"};
        char pb[256];
        if (!step_bytes[i] || steps[i].plan == TFLC_PLAN_FASTEST)
          continue;
        printf("  step %s: %lu bytes, %s", step_names[i], step_bytes[i],
               plan_text(&steps[i], pb, sizeof pb));
        if (steps[i].plan == TFLC_PLAN_INPLACE)
          printf("; depthwise layers through a plane of 4 channels\n");
        else
          printf("; about %lu instructions more per invoke on a Cortex-M4%s\n",
                 plan_m4_extra(&steps[i]),
                 steps[i].patch_rows ? " (no multiply-add made twice)" : "");
      }
    } else
      printf("tflc cannot run this model: %s\n",
             status_text(ist, tflc_error(&it)));
    if (mis_n)
      printf("misaligned constants: %lu (their offset in the file is not a "
             "multiple of their element size): %lu bytes copied into the "
             "arena at init (counted above), no cost at invoke\n",
             mis_n, mis_bytes);
  }
  for (sg = 0; sg < m.num_subgraphs; sg++) {
    int32_t nt = tflc_model_num_tensors(&m, sg),
            no = tflc_model_num_ops(&m, sg);
    uint32_t nl = 0, sgt = tflc__subgraph(&m, sg);
    const char *sname = tflc__get_str(tflc__mfb(&m), sgt, 4, &nl);
    if (json) {
      printf("%s{\"index\": %d, \"name\": ", sg ? ", " : "", sg);
      json_strn(stdout, sname ? sname : "", sname ? nl : 0);
      printf(", \"inputs\": [");
      info_io_list(&m, sg, 0, 1);
      printf("], \"outputs\": [");
      info_io_list(&m, sg, 1, 1);
      printf("], \"operators\": [");
    } else {
      printf("subgraph %d%s%.*s%s: %d operators, %d tensors\n", sg,
             sname && nl ? " (" : "", (int)nl, sname ? sname : "",
             sname && nl ? ")" : "", no, nt);
      info_io_list(&m, sg, 0, 0);
      info_io_list(&m, sg, 1, 0);
      printf(" operators:\n");
    }
    for (i = 0; i < no; i++) {
      int32_t code = tflc_model_op_code(&m, sg, i), k;
      int32_t ni = tflc_model_op_io(&m, sg, i, 0, -1);
      int32_t nout = tflc_model_op_io(&m, sg, i, 1, -1);
      uint32_t cl = 0;
      const char *cn = tflc_model_op_custom_name(&m, sg, i, &cl);
      tflc_op_info oi;
      if (json) {
        printf("%s{\"index\": %d, \"opcode\": \"%s\"", i ? ", " : "", i,
               tflc_opcode_name(code));
        if (code >= 0)
          printf(", \"code\": %d", code);
        if (cn) {
          printf(", \"custom_name\": ");
          json_strn(stdout, cn, cl);
        }
        printf(", \"inputs\": [");
      } else if (cn && code == TFLC_OP_UNKNOWN_CUSTOM) {
        printf("  %3d CUSTOM %-17.*s in", i, (int)cl, cn);
      } else if (code >= 0 && !tflc_op_info_get(code, &oi)) {
        char unk[32];
        snprintf(unk, sizeof unk, "UNKNOWN (code %d)", code);
        printf("  %3d %-24s in", i, unk);
      } else {
        printf("  %3d %-24s in", i, tflc_opcode_name(code));
      }
      for (k = 0; k < ni; k++)
        printf(json ? "%s%d" : "%s%d", json && k ? ", " : (json ? "" : " "),
               tflc_model_op_io(&m, sg, i, 0, k));
      printf(json ? "], \"outputs\": [" : "  out");
      for (k = 0; k < nout; k++)
        printf("%s%d", json && k ? ", " : (json ? "" : " "),
               tflc_model_op_io(&m, sg, i, 1, k));
      printf(json ? "]}" : "\n");
    }
    printf(json ? "], \"tensors\": [" : " tensors:\n");
    for (t = 0; t < nt; t++) {
      tflc_tensor tt;
      tflc_const c;
      const char *name = NULL;
      uint32_t tl = 0, stored = 0;
      int fmt = 0, comp;
      if (tflc_model_tensor(&m, sg, t, &tt, &name, &tl) != TFLC_OK)
        continue;
      comp = tflc_model_lut(&m, sg, t, &c, &stored, &fmt);
      if (comp && tt.bytes > stored)
        saved += tt.bytes - stored;
      if (json) {
        printf("%s{\"index\": %d, \"name\": ", t ? ", " : "", t);
        json_strn(stdout, name ? name : "", name ? tl : 0);
        printf(", \"type\": \"%s\", \"shape\": ", tflc_type_name(tt.type));
        info_shape(&tt, 1);
        printf(", \"bytes\": %u, \"constant\": %s", tt.bytes,
               (tt.flags & TFLC_TENSOR_CONST) || comp ? "true" : "false");
        info_quant(&m, sg, t, 1);
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
        printf("  %3d %-8s ", t, tflc_type_name(tt.type));
        info_shape(&tt, 0);
        printf(" %u B%s %.*s", tt.bytes,
               (tt.flags & TFLC_TENSOR_CONST) || comp ? " const" : "", (int)tl,
               name ? name : "");
        if (comp &&
            (c.kind == TFLC_CONST_HUFFMAN || c.kind == TFLC_CONST_PRUNE))
          printf("  [%s TFLM_DECODE, %u B stored, saves %ld B]",
                 c.kind == TFLC_CONST_HUFFMAN ? "Huffman" : "Prune", stored,
                 (long)tt.bytes - (long)stored);
        else if (comp)
          printf("  [LUT %s, %u bits, %d table(s)%s, %u B stored, saves %ld "
                 "B]",
                 fmt == 1 ? "COMPRESSION_METADATA" : "TFLM_DECODE",
                 (unsigned)c.bits, c.channels,
                 c.channels > 1 ? (c.alt_axis ? " on last axis" : " on axis 0")
                                : "",
                 stored, (long)tt.bytes - (long)stored);
        printf("\n");
      }
    }
    if (json)
      printf("]}");
  }
  if (json) {
    printf("], \"compressed_tensors\": %d, \"bytes_saved\": %lu, ",
           m.num_lut_tensors, saved);
    delegate_json_partitions(&it);
    printf("}\n");
  } else {
    printf("compressed tensors: %d, bytes saved: %lu\n", m.num_lut_tensors,
           saved);
  }
  for (i = 0; !json && i < tflc_num_partitions(&it); i++) {
    tflc_partition_info p;
    tflc_partition_info_get(&it, i, &p);
    printf("partition %d: ops %d-%d (%d), delegate %s, %d in / %d out, %d "
           "kept\n",
           i, p.first_op, p.last_op, p.num_ops, p.delegate, p.num_inputs,
           p.num_outputs, p.num_internal);
  }
  delegate_free(&dg);
  for (i = 0; i < 3; i++)
    free(step_arena[i]);
  free(arena);
  free(bytes);
  return 0;
}

/* ---- bench -----------------------------------------------------------------
 */
/* Per operator (model operator index and opcode) the time of each timed
 * invoke: an operator run several times in one invoke (a WHILE body)
 * adds up. Operators are found in the order of the warm-up invoke. */
typedef struct bench_op {
  int32_t op, code;
  double *us; /* one per timed invoke */
} bench_op;
typedef struct bench_ctx {
  double t0;
  bench_op *ops;
  int32_t nops, cap, cursor;
  long iter; /* -1 during the warm-up */
} bench_ctx;
static void bench_hook(void *user, int32_t op, int32_t code, int begin) {
  bench_ctx *b = (bench_ctx *)user;
  double t = now_us();
  int32_t k, j;
  if (begin) {
    b->t0 = t;
    return;
  }
  for (j = 0; j < b->nops; j++) {
    k = (b->cursor + j) % b->nops;
    if (b->ops[k].op == op && b->ops[k].code == code) {
      if (b->iter >= 0)
        b->ops[k].us[b->iter] += t - b->t0;
      b->cursor = (k + 1) % b->nops;
      return;
    }
  }
  if (b->iter >= 0 || b->nops == b->cap)
    return; /* not seen in the warm-up: not attributed */
  b->ops[b->nops].op = op;
  b->ops[b->nops].code = code;
  b->ops[b->nops].us = NULL;
  b->nops++;
}
static int cmd_bench(int argc, char **argv) {
  const char *model_path = NULL;
  const char *inputs[MAX_FILES];
  int ninputs = 0, have_seed = 0;
  unsigned long seed = 1, arena_limit = 0;
  long iters = 100, k;
  int json = 0, i;
  tflc_model m;
  tflc_interpreter it;
  tflc_options opt;
  input_set in;
  bench_ctx b;
  progress pr;
  uint8_t *bytes, *arena;
  double *t, *col, med, total = 0;
  cli_delegate dg = {0};
  for (i = 0; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "--delegate") && more) {
      delegate_select(&dg, argv[++i]);
    } else if (!strcmp(a, "--iters") && more) {
      iters = (long)parse_num("--iters", argv[++i], 1, 1000000);
    } else if (!strcmp(a, "--while-limit") && more) {
      cli_while_limit = parse_num("--while-limit", argv[++i], 0, 0x7FFFFFFFul);
    } else if (!strcmp(a, "--input") && more) {
      if (ninputs == MAX_FILES)
        die("bench: more than %d --input", MAX_FILES);
      inputs[ninputs++] = argv[++i];
    } else if (!strcmp(a, "--random-inputs") && more) {
      seed = parse_num("--random-inputs", argv[++i], 0, 0xFFFFFFFFul);
      have_seed = 1;
    } else if (!strcmp(a, "--arena") && more) {
      arena_limit = parse_bytes("--arena", argv[++i]);
    } else if (!strcmp(a, "--json")) {
      json = 1;
    } else if (a[0] == '-' && a[1]) {
      die("bench: unknown option %s%s", a,
          more ? "" : " (or it needs a value)");
    } else if (!model_path) {
      model_path = a;
    } else {
      die("bench: unexpected argument %s", a);
    }
  }
  if (!model_path)
    die("usage: %s", usage_of("bench"));
  load_model(&m, model_path, &bytes);
  memset(&opt, 0, sizeof opt);
  memset(&b, 0, sizeof b);
  opt.profile = bench_hook;
  opt.profile_user = &b;
  delegate_attach(&dg, &opt);
  arena = init_exact(&it, &m, arena_limit, &opt);
  inputs_make(&in, &it, inputs, ninputs, ninputs ? 0 : 1,
              have_seed || !ninputs ? seed : 0);
  b.cap = 4096;
  b.ops = (bench_op *)calloc((size_t)b.cap, sizeof(bench_op));
  t = (double *)malloc(sizeof(double) * (size_t)iters);
  col = (double *)malloc(sizeof(double) * (size_t)iters);
  if (!b.ops || !t || !col)
    die("out of memory");
  b.iter = -1;
  inputs_load(&in, &it);
  invoke_or_die(&it); /* warm-up: finds the operators */
  for (i = 0; i < b.nops; i++) {
    b.ops[i].us = (double *)calloc((size_t)iters, sizeof(double));
    if (!b.ops[i].us)
      die("out of memory (%ld invokes x %d operators)", iters, b.nops);
  }
  progress_start(&pr, "bench");
  for (k = 0; k < iters; k++) {
    double t0;
    inputs_load(&in, &it); /* the same inputs for every invoke */
    b.iter = k;
    b.cursor = 0;
    t0 = now_us();
    invoke_or_die(&it);
    t[k] = now_us() - t0;
    progress_step(&pr, k + 1, iters);
  }
  progress_end(&pr);
  med = median_of(t, iters);
  for (i = 0; i < b.nops; i++) {
    memcpy(col, b.ops[i].us, sizeof(double) * (size_t)iters);
    b.ops[i].us[0] = median_of(col, iters); /* keep the median in slot 0 */
    total += b.ops[i].us[0];
  }
  if (json) {
    printf("{\"model\": ");
    json_str(stdout, model_path);
    printf(", \"iters\": %ld, \"median_us\": %.3f, \"min_us\": %.3f, "
           "\"max_us\": %.3f, \"arena_used_bytes\": %lu, ",
           iters, med, t[0], t[iters - 1], (unsigned long)tflc_arena_used(&it));
    json_plan(&it);
    printf(", \"ops\": [");
    for (i = 0; i < b.nops; i++)
      printf("%s{\"op\": %d, \"opcode\": \"%s\", \"median_us\": %.3f}",
             i ? ", " : "", b.ops[i].op, tflc_opcode_name(b.ops[i].code),
             b.ops[i].us[0]);
    printf("]}\n");
  } else {
    printf("%s: median %.1f us per invoke over %ld invokes (min %.1f, max "
           "%.1f); arena %lu bytes\n",
           model_path, med, iters, t[0], t[iters - 1],
           (unsigned long)tflc_arena_used(&it));
    if (arena_limit || it.plan != TFLC_PLAN_FASTEST) {
      char pb[256];
      printf("plan: %s, in %lu bytes of arena\n", plan_text(&it, pb, sizeof pb),
             arena_limit ? arena_limit : (unsigned long)tflc_arena_used(&it));
    }
    printf("   op  opcode                        median us   share\n");
    for (i = 0; i < b.nops; i++)
      printf("  %3d  %-30s %9.1f  %5.1f%%\n", b.ops[i].op,
             tflc_opcode_name(b.ops[i].code), b.ops[i].us[0],
             total > 0 ? 100.0 * b.ops[i].us[0] / total : 0.0);
    printf("  (share: of the sum of the operator medians, %.1f us)\n", total);
  }
  for (i = 0; i < b.nops; i++)
    free(b.ops[i].us);
  free(b.ops);
  free(t);
  delegate_free(&dg);
  free(col);
  inputs_free(&in);
  free(arena);
  free(bytes);
  return 0;
}

#include "cmd_check.h"
#include "cmd_ops.h"
#include "cmd_compress.h"

static int cmd_check(int argc, char **argv) {
  const char *model_path = NULL;
  int json = 0, i, n, cannot_run = 0;
  tflc_model m;
  uint8_t *bytes;
  for (i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--json"))
      json = 1;
    else if (argv[i][0] == '-' && argv[i][1])
      die("check: unknown option %s", argv[i]);
    else if (!model_path)
      model_path = argv[i];
    else
      die("check: unexpected argument %s", argv[i]);
  }
  if (!model_path)
    die("usage: %s", usage_of("check"));
  load_model(&m, model_path, &bytes);
  n = check_model_runs(&m, stdout, json, &cannot_run);
  free(bytes);
  if (!json) {
    if (cannot_run)
      printf("%s: tflc cannot run this model (%d finding%s)\n", model_path, n,
             n == 1 ? "" : "s");
    else if (n)
      printf("%s: runs; %d departure%s from the int8 spec (tflc runs them "
             "as TFLM does)\n",
             model_path, n, n == 1 ? "" : "s");
    else
      printf("%s: clean (int8 spec followed, every operator supported)\n",
             model_path);
  }
  fflush(stdout);
  return cannot_run ? 2 : 0;
}

/* ---- embed -----------------------------------------------------------------
 */
static int cmd_embed(int argc, char **argv) {
  const char *model_path = NULL, *outp = NULL, *name_arg = NULL, *hdrp = NULL;
  char name[128];
  const char *base;
  size_t size, k, n = 0;
  uint8_t *bytes;
  FILE *f;
  int i;
  for (i = 0; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "-n") && more)
      name_arg = argv[++i];
    else if (!strcmp(a, "-o") && more)
      outp = argv[++i];
    else if (!strcmp(a, "-H") && more)
      hdrp = argv[++i];
    else if (a[0] == '-' && a[1])
      die("embed: unknown option %s%s", a,
          more ? "" : " (or it needs a value)");
    else if (!model_path)
      model_path = a;
    else
      die("embed: unexpected argument %s", a);
  }
  if (!model_path)
    die("usage: %s", usage_of("embed"));
  if (name_arg) {
    if (!name_arg[0] || strlen(name_arg) >= sizeof name - 8 ||
        strspn(name_arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789_") != strlen(name_arg) ||
        (name_arg[0] >= '0' && name_arg[0] <= '9'))
      die("embed: -n %s is not a C identifier", name_arg);
    strcpy(name, name_arg);
  } else {
    /* from the file name, as xxd -i does: other characters become '_' */
    base = strrchr(model_path, '/');
    base = base ? base + 1 : model_path;
    if (base[0] >= '0' && base[0] <= '9')
      name[n++] = '_';
    for (; *base && n < sizeof name - 8; base++)
      name[n++] = (char)((*base >= 'a' && *base <= 'z') ||
                                 (*base >= 'A' && *base <= 'Z') ||
                                 (*base >= '0' && *base <= '9')
                             ? *base
                             : '_');
    name[n] = 0;
    if (!n)
      strcpy(name, "model");
  }
  if (outp && same_file(outp, model_path))
    die("embed: -o %s is the model itself", outp);
  if (hdrp && (same_file(hdrp, model_path) ||
               (outp && (same_file(hdrp, outp) || !strcmp(hdrp, outp)))))
    die("embed: -H %s is the model or the -o file", hdrp);
  bytes = read_file(model_path, &size);
  if (size < 8 || memcmp(bytes + 4, "TFL3", 4) != 0)
    die("embed: %s is not a .tflite model (no TFL3 identifier)", model_path);
  f = outp ? fopen(outp, "w") : stdout;
  if (!f)
    die("cannot write %s: %s", outp, strerror(errno));
  fprintf(f,
          "/* %s: %lu bytes, written by `tflc embed` (tflc %s).\n"
          " * 16-byte aligned, as tflc and TFLM want a model; const, so it "
          "stays in flash.\n"
          " * Use: tflc_model_init(&model, %s, %s_len); */\n"
          "#include <stddef.h>\n\n"
          "#if defined(__cplusplus) && __cplusplus >= 201103L\n"
          "#define TFLC_EMBED_ALIGN alignas(16)\n"
          "#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L\n"
          "#define TFLC_EMBED_ALIGN _Alignas(16)\n"
          "#elif defined(__GNUC__) || defined(__clang__)\n"
          "#define TFLC_EMBED_ALIGN __attribute__((aligned(16)))\n"
          "#elif defined(_MSC_VER)\n"
          "#define TFLC_EMBED_ALIGN __declspec(align(16))\n"
          "#else\n"
          "#define TFLC_EMBED_ALIGN /* any alignment works, slower */\n"
          "#endif\n\n"
          "#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
          "extern const unsigned char %s[];\nextern const size_t %s_len;\n"
          "TFLC_EMBED_ALIGN const unsigned char %s[%lu] = {",
          model_path, (unsigned long)size, TFLC_VERSION, name, name, name, name,
          name, (unsigned long)size);
  for (k = 0; k < size; k++)
    fprintf(f, "%s0x%02x%s", k % 12 ? " " : "\n    ", bytes[k],
            k + 1 < size ? "," : "");
  fprintf(f,
          "\n};\nconst size_t %s_len = %lu;\n"
          "#ifdef __cplusplus\n}\n#endif\n",
          name, (unsigned long)size);
  if (outp ? fclose(f) != 0 : fflush(f) != 0)
    die("cannot write %s", outp ? outp : "standard output");
  if (hdrp) { /* the declarations, for the files that use the array */
    char guard[160];
    size_t g;
    const char *hb = strrchr(hdrp, '/');
    hb = hb ? hb + 1 : hdrp;
    for (g = 0; hb[g] && g < sizeof guard - 1; g++)
      guard[g] = (char)((hb[g] >= 'a' && hb[g] <= 'z') ? hb[g] - 'a' + 'A'
                        : (hb[g] >= 'A' && hb[g] <= 'Z') ||
                                (hb[g] >= '0' && hb[g] <= '9')
                            ? hb[g]
                            : '_');
    guard[g] = 0;
    if (guard[0] >= '0' && guard[0] <= '9')
      guard[0] = '_';
    f = fopen(hdrp, "w");
    if (!f)
      die("cannot write %s: %s", hdrp, strerror(errno));
    fprintf(f,
            "/* %s: %lu bytes, written by `tflc embed -H` (tflc %s); the "
            "array is\n * defined in the C file `tflc embed` wrote with it. "
            "*/\n#ifndef %s\n#define %s\n#include <stddef.h>\n\n"
            "#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
            "extern const unsigned char %s[];\nextern const size_t %s_len;\n"
            "#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s */\n",
            model_path, (unsigned long)size, TFLC_VERSION, guard, guard, name,
            name, guard);
    if (fclose(f) != 0)
      die("cannot write %s", hdrp);
  }
  free(bytes);
  return 0;
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    int (*fn)(int, char **);
  } cmds[] = {{"run", cmd_run},     {"conform", cmd_conform},
              {"info", cmd_info},   {"bench", cmd_bench},
              {"check", cmd_check}, {"compress", cmd_compress},
              {"bin", cmd_bin},     {"embed", cmd_embed},
              {"ops", cmd_ops}};
  size_t k;
  if (argc < 2)
    die("usage: tflc COMMAND ... (commands: run conform info check bench "
        "compress bin embed ops; tflc --help)");
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
    printf("tflc %s\n", TFLC_VERSION);
    return 0;
  }
  if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
      !strcmp(argv[1], "-h")) {
    if (argc > 2)
      return print_help(argv[2]);
    print_usage(stdout);
    return 0;
  }
  for (k = 0; k < sizeof cmds / sizeof cmds[0]; k++)
    if (!strcmp(argv[1], cmds[k].name)) {
      if (wants_help(argc - 2, argv + 2))
        return print_help(argv[1]);
      check_flags(argv[1], argc - 2, argv + 2);
      return cmds[k].fn(argc - 2, argv + 2);
    }
  die("unknown command %s (commands: run conform info check bench compress "
      "bin embed ops; tflc --help)",
      argv[1]);
  return 1;
}

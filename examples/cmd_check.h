/* tflc check: where a model departs from the TFLite int8 quantization spec,
 * and which operators tflc cannot run. Included by examples/tflc.c and by
 * tests/test_check.c; check_model() does the work and prints one finding
 * per line:  "sg 0 op 3 CONV_2D: weights tensor 7: zero point 3, spec: 0".
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct check_ctx {
  const tflc_model *m;
  FILE *out;
  int json;
  int count;
  int unsupported; /* findings that stop tflc from running the model */
} check_ctx;

/* A JSON string: quotes, backslashes and control characters escaped. */
static void check_json_str(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(out, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(out, "\\u%04x", ch);
    else
      fputc(ch, out);
  }
  fputc('"', out);
}

/* How a finding names its operator: the table's name, a custom operator's
 * custom_code ("CUSTOM MY_OP"), the number of a code outside the schema
 * ("UNKNOWN (code 400)"). */
static void check_op_name(check_ctx *c, int32_t sg, int32_t op, int32_t code,
                          char *buf, size_t size) {
  uint32_t len = 0;
  const char *cn =
      op >= 0 ? tflc_model_op_custom_name(c->m, sg, op, &len) : NULL;
  tflc_op_info info;
  if (cn && code == TFLC_OP_UNKNOWN_CUSTOM)
    snprintf(buf, size, "CUSTOM %.*s", (int)(len < 100 ? len : 100), cn);
  else if (code >= 0 && !tflc_op_info_get(code, &info))
    snprintf(buf, size, "UNKNOWN (code %d)", code);
  else
    snprintf(buf, size, "%s", tflc_opcode_name(code));
}

static void check_emit(check_ctx *c, int32_t sg, int32_t op, int32_t code,
                       const char *kind, const char *msg) {
  char name[128];
  check_op_name(c, sg, op, code, name, sizeof name);
  if (c->json) {
    uint32_t len = 0;
    const char *cn =
        op >= 0 ? tflc_model_op_custom_name(c->m, sg, op, &len) : NULL;
    fprintf(c->out, "%s{\"subgraph\": %d, \"op\": %d, \"opcode\": \"%s\", ",
            c->count ? ", " : "", sg, op, tflc_opcode_name(code));
    if (code >= 0)
      fprintf(c->out, "\"code\": %d, ", code);
    if (cn && len < 100) {
      char custom[101];
      memcpy(custom, cn, len);
      custom[len] = 0;
      fprintf(c->out, "\"custom_name\": ");
      check_json_str(c->out, custom);
      fprintf(c->out, ", ");
    }
    fprintf(c->out, "\"kind\": \"%s\", \"message\": ", kind);
    check_json_str(c->out, msg);
    fputc('}', c->out);
  } else
    fprintf(c->out, "sg %d op %d %s: %s: %s\n", sg, op, name, kind, msg);
  c->count++;
}

static int check_quant(const tflc_model *m, int32_t sg, int32_t t, float *s,
                       int64_t *z, int32_t *axis) {
  *s = 0;
  *z = 0;
  return t >= 0 ? tflc_model_tensor_quant(m, sg, t, 0, s, z, axis) : 0;
}

/* int8 weights: zero points 0, values in [-127, 127], per-axis dim. */
static void check_weights(check_ctx *c, int32_t sg, int32_t op, int32_t code,
                          int32_t w, int32_t want_axis) {
  tflc_tensor t;
  char msg[200];
  int32_t n, i, axis = 0;
  float s;
  int64_t z;
  if (w < 0 || tflc_model_tensor(c->m, sg, w, &t, NULL, NULL) != TFLC_OK ||
      t.type != TFLC_INT8)
    return;
  n = check_quant(c->m, sg, w, &s, &z, &axis);
  for (i = 0; i < n; i++) {
    tflc_model_tensor_quant(c->m, sg, w, i, &s, &z, NULL);
    if (z != 0) {
      snprintf(msg, sizeof msg,
               "weights tensor %d: zero point %lld at channel %d, spec: 0", w,
               (long long)z, i);
      check_emit(c, sg, op, code, "quantization", msg);
      break;
    }
  }
  if (n > 1 && want_axis < 0) {
    snprintf(msg, sizeof msg,
             "weights tensor %d: %d scales (per-axis), spec: per-tensor", w, n);
    check_emit(c, sg, op, code, "granularity", msg);
  } else if (n > 1 && axis != want_axis) {
    snprintf(msg, sizeof msg,
             "weights tensor %d: per-axis on dimension %d, spec: %d", w, axis,
             want_axis);
    check_emit(c, sg, op, code, "granularity", msg);
  }
  if (t.flags & TFLC_TENSOR_CONST) {
    const int8_t *d = (const int8_t *)t.data;
    uint32_t k;
    for (k = 0; k < t.bytes; k++)
      if (d[k] == -128) {
        snprintf(msg, sizeof msg,
                 "weights tensor %d: value -128 at element %u, spec range "
                 "[-127, 127]",
                 w, k);
        check_emit(c, sg, op, code, "range", msg);
        break;
      }
  }
}

/* int32 bias: (scale, zero point) = (input scale * weight scale[c], 0). */
static void check_bias(check_ctx *c, int32_t sg, int32_t op, int32_t code,
                       int32_t in, int32_t w, int32_t b) {
  float si, sw, sb;
  int64_t z;
  int32_t nb, nw, i;
  char msg[200];
  if (b < 0 || in < 0 || w < 0 || !check_quant(c->m, sg, in, &si, &z, NULL))
    return;
  nb = tflc_model_tensor_quant(c->m, sg, b, 0, &sb, &z, NULL);
  nw = tflc_model_tensor_quant(c->m, sg, w, 0, &sw, &z, NULL);
  if (nb == 0 || nw == 0)
    return;
  for (i = 0; i < nb; i++) {
    double want;
    tflc_model_tensor_quant(c->m, sg, b, i, &sb, &z, NULL);
    tflc_model_tensor_quant(c->m, sg, w, nw > 1 ? i : 0, &sw, NULL, NULL);
    want = (double)si * (double)sw;
    if (z != 0) {
      snprintf(msg, sizeof msg, "bias tensor %d: zero point %lld, spec: 0", b,
               (long long)z);
      check_emit(c, sg, op, code, "quantization", msg);
      return;
    }
    if (fabs((double)sb - want) > 1e-6 * fabs(want) + 1e-12) {
      snprintf(msg, sizeof msg,
               "bias tensor %d: scale %.9g at channel %d, spec: input x "
               "weight = %.9g",
               b, (double)sb, i, want);
      check_emit(c, sg, op, code, "quantization", msg);
      return;
    }
  }
}

static void check_fixed_out(check_ctx *c, int32_t sg, int32_t op, int32_t code,
                            int32_t o, double scale, int64_t zp) {
  float s;
  int64_t z;
  char msg[200];
  tflc_tensor t;
  if (o < 0 || tflc_model_tensor(c->m, sg, o, &t, NULL, NULL) != TFLC_OK ||
      t.type != TFLC_INT8 || !check_quant(c->m, sg, o, &s, &z, NULL))
    return;
  if ((double)s != scale || z != zp) {
    snprintf(msg, sizeof msg,
             "output tensor %d: (scale, zero point) = (%.9g, %lld), spec: "
             "(%.9g, %lld)",
             o, (double)s, (long long)z, scale, (long long)zp);
    check_emit(c, sg, op, code, "quantization", msg);
  }
}

/* Inputs `ins` (bit mask of input slots) and output 0 share quantization. */
static void check_same(check_ctx *c, int32_t sg, int32_t op, int32_t code,
                       unsigned ins) {
  float so, s;
  int64_t zo, z;
  int32_t o = tflc_model_op_io(c->m, sg, op, 1, 0), k;
  int32_t n = tflc_model_op_io(c->m, sg, op, 0, -1);
  char msg[200];
  tflc_tensor t;
  if (o < 0 || tflc_model_tensor(c->m, sg, o, &t, NULL, NULL) != TFLC_OK ||
      t.type != TFLC_INT8 || !check_quant(c->m, sg, o, &so, &zo, NULL))
    return;
  for (k = 0; k < n && k < 32; k++) {
    int32_t in = tflc_model_op_io(c->m, sg, op, 0, k);
    if (!(ins & (1u << k)) || in < 0 ||
        !check_quant(c->m, sg, in, &s, &z, NULL))
      continue;
    if (s != so || z != zo) {
      snprintf(msg, sizeof msg,
               "input tensor %d (%.9g, %lld) and output tensor %d (%.9g, "
               "%lld) differ, spec: same scale and zero point",
               in, (double)s, (long long)z, o, (double)so, (long long)zo);
      check_emit(c, sg, op, code, "quantization", msg);
    }
  }
}

static void check_report(void *user, int32_t sg, int32_t op, tflc_status st,
                         const char *message) {
  check_ctx *c = (check_ctx *)user;
  char msg[TFLC_ERROR_LEN + 40];
  const char *p = message;
  /* drop the "op N NAME: " prefix, the finding line has its own */
  if (!strncmp(p, "op ", 3) && strstr(p, ": "))
    p = strstr(p, ": ") + 2;
  /* the kind says "unsupported"; other statuses are named */
  if (st == TFLC_ERR_UNSUPPORTED ||
      !strncmp(p, tflc_status_str(st), strlen(tflc_status_str(st))))
    snprintf(msg, sizeof msg, "%s", p);
  else
    snprintf(msg, sizeof msg, "%s (%s)", p, tflc_status_str(st));
  check_emit(c, sg, op, tflc_model_op_code(c->m, sg, op), "unsupported", msg);
  c->unsupported++;
}

/* Prints every finding; returns their number. *cannot_run receives the
 * number of findings that stop tflc from running the model. */
static int check_model_runs(const tflc_model *m, FILE *out, int json,
                            int *cannot_run) {
  check_ctx c;
  int32_t sg, op;
  tflc_interpreter it;
  tflc_options opt;
  size_t cap = (size_t)256 << 20;
  uint8_t *arena;
  c.m = m;
  c.out = out;
  c.json = json;
  c.count = 0;
  c.unsupported = 0;
  if (json)
    fprintf(out, "{\"findings\": [");
  for (sg = 0; sg < m->num_subgraphs; sg++)
    for (op = 0; op < tflc_model_num_ops(m, sg); op++) {
      int32_t code = tflc_model_op_code(m, sg, op);
      int32_t i0 = tflc_model_op_io(m, sg, op, 0, 0);
      int32_t i1 = tflc_model_op_io(m, sg, op, 0, 1);
      int32_t i2 = tflc_model_op_io(m, sg, op, 0, 2);
      int32_t o0 = tflc_model_op_io(m, sg, op, 1, 0);
      tflc_op_info info;
      tflc_op_info_get(code, &info);
      switch (info.facts & TFLC_CHECK_MASK) {
      case TFLC_CHECK_CONV:
        check_weights(&c, sg, op, code, i1, 0);
        check_bias(&c, sg, op, code, i0, i1, i2);
        break;
      case TFLC_CHECK_DEPTHWISE:
        check_weights(&c, sg, op, code, i1, 3);
        check_bias(&c, sg, op, code, i0, i1, i2);
        break;
      case TFLC_CHECK_FC:
        check_weights(&c, sg, op, code, i1, -1);
        check_bias(&c, sg, op, code, i0, i1, i2);
        break;
      case TFLC_CHECK_TRANSPOSE_CONV:
        check_weights(&c, sg, op, code, i1, 0);
        check_bias(&c, sg, op, code, i2, i1, tflc_model_op_io(m, sg, op, 0, 3));
        break;
      case TFLC_CHECK_OUT_SIGMOID:
        check_fixed_out(&c, sg, op, code, o0, 1.0 / 256.0, -128);
        break;
      case TFLC_CHECK_OUT_TANH:
        check_fixed_out(&c, sg, op, code, o0, 1.0 / 128.0, 0);
        break;
      case TFLC_CHECK_OUT_LOG_SOFTMAX:
        check_fixed_out(&c, sg, op, code, o0, 16.0 / 256.0, 127);
        break;
      case TFLC_CHECK_SAME_IN0:
        check_same(&c, sg, op, code, 1u);
        break;
      case TFLC_CHECK_SAME_IN0_IN2:
        check_same(&c, sg, op, code, 1u | 4u);
        break;
      case TFLC_CHECK_SAME_ALL:
        check_same(&c, sg, op, code, 0xFFFFFFFFu);
        break;
      }
    }
  /* what the runtime cannot run: prepare every op, reporting each failure */
  arena = (uint8_t *)malloc(cap);
  if (arena) {
    memset(&opt, 0, sizeof opt);
    opt.report = check_report;
    opt.report_user = &c;
    tflc_status st = tflc_interpreter_init(&it, m, arena, cap, &opt);
    if (st != TFLC_OK && it.first_error == TFLC_OK) {
      check_emit(&c, 0, -1, -1, "unsupported", it.error);
      c.unsupported++;
    }
    free(arena);
  }
  if (json)
    fprintf(out, "], \"count\": %d, \"runs\": %s}\n", c.count,
            c.unsupported ? "false" : "true");
  *cannot_run = c.unsupported;
  return c.count;
}
#if defined(__GNUC__) || defined(__clang__)
__attribute__((unused))
#endif
static int
check_model(const tflc_model *m, FILE *out, int json) {
  int cannot_run;
  return check_model_runs(m, out, json, &cannot_run);
}

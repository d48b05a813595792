/* cmd_ops.h - `tflc ops MODEL`: the operators a model needs, as the
 * TFLC_OPS line that compiles exactly those into a firmware build.
 * Included by tflc.c after load_model and die. */

/* `tflc ops --list`: every operator this build runs, from the operator
 * table, as docs/operators.md lists them (comma-separated, 76 columns). */
static int ops_list(void) {
  int32_t code;
  int col = 0, n = 0;
  for (code = 0; code < 512; code++) {
    tflc_op_info info;
    size_t len;
    if (!tflc_op_info_get(code, &info) || info.status != TFLC_OP_COMPILED)
      continue;
    len = strlen(info.name) + (n ? 2 : 0);
    if (n && col + (int)len > 76) {
      printf(",\n");
      col = 0;
      len -= 2;
    } else if (n) {
      printf(", ");
    }
    printf("%s", info.name);
    col += (int)len;
    n++;
  }
  printf(".\n");
  return 0;
}

/* What a model needs beyond its operators, for `tflc ops --config`. */
typedef struct ops_needs {
  int compression, subgraphs, float32, int16;
  /* a CONV_2D other than pointwise (1x1, the map's size kept), a
   * DEPTHWISE_CONV_2D with a filter other than 3x3 */
  int conv_windows, dw_any_filter;
} ops_needs;
/* Tensor k of operator op (outputs != 0: its outputs): 1 and *x when the
 * model describes it. */
static int ops_tensor(const tflc_model *m, int32_t sg, int32_t op, int outputs,
                      int32_t k, tflc_tensor *x) {
  const int32_t t = tflc_model_op_io(m, sg, op, outputs, k);
  return t >= 0 && tflc_model_tensor(m, sg, t, x, NULL, NULL) == TFLC_OK;
}
/* Which convolution paths operator op needs (ops_needs). A shape it cannot
 * read counts as needing them all. */
static void ops_conv_needs(const tflc_model *m, int32_t sg, int32_t op,
                           ops_needs *nd) {
  const int32_t code = tflc_model_op_code(m, sg, op);
  tflc_tensor in, f, out;
  int known;
  if (code != TFLC_OP_CONV_2D && code != TFLC_OP_DEPTHWISE_CONV_2D)
    return;
  known = ops_tensor(m, sg, op, 0, 0, &in) && ops_tensor(m, sg, op, 0, 1, &f) &&
          ops_tensor(m, sg, op, 1, 0, &out) && in.rank == 4 && f.rank == 4 &&
          out.rank == 4;
  if (code == TFLC_OP_CONV_2D)
    nd->conv_windows |= !known || f.dims[1] != 1 || f.dims[2] != 1 ||
                        out.dims[1] != in.dims[1] || out.dims[2] != in.dims[2];
  else
    nd->dw_any_filter |= !known || f.dims[1] != 3 || f.dims[2] != 3;
}
static ops_needs ops_model_needs(const tflc_model *m) {
  ops_needs nd;
  int32_t sg, t, op;
  memset(&nd, 0, sizeof nd);
  nd.compression = m->num_lut_tensors > 0;
  nd.subgraphs = m->num_subgraphs > 1;
  for (sg = 0; sg < m->num_subgraphs; sg++) {
    for (op = 0; op < tflc_model_num_ops(m, sg); op++) {
      if (!strcmp(tflc_opcode_name(tflc_model_op_code(m, sg, op)),
                  "TFLM_DECODE"))
        nd.compression = 1;
      ops_conv_needs(m, sg, op, &nd);
    }
    for (t = 0; t < tflc_model_num_tensors(m, sg); t++) {
      tflc_tensor x;
      if (tflc_model_tensor(m, sg, t, &x, NULL, NULL) != TFLC_OK)
        continue;
      if (x.type == TFLC_FLOAT32)
        nd.float32 = 1;
      else if (x.type == TFLC_INT16)
        nd.int16 = 1;
      else if (x.type == TFLC_INT4)
        nd.compression = 1;
    }
  }
  return nd;
}

/* The header `tflc ops MODEL --config` writes: TFLC_OPS and every
 * feature the model does not need left out. */
static const char *base_name(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}
static void ops_write_config(FILE *f, const char *model_path,
                             const char *out_path, const ops_needs *nd,
                             int user_ops, const char *ops_line) {
  fprintf(f,
          "/* tflc configuration for %s, written by `tflc ops --config`.\n"
          " * Build with -DTFLC_CONFIG_FILE='\"%s\"'\n"
          " * in every unit that includes tflc.h, and -ffunction-sections\n"
          " * -Wl,--gc-sections. Delete a line to keep what it leaves out. "
          "*/\n"
          "#ifndef TFLC_CONFIG_H\n#define TFLC_CONFIG_H\n\n"
          "/* the operators the model runs */\n%s\n",
          base_name(model_path),
          out_path ? base_name(out_path) : "tflc_config.h", ops_line);
  fprintf(f, "/* what the model does not need */\n");
  if (!nd->float32 && !nd->int16)
    fprintf(f, "#define TFLC_INT8_ONLY\n");
  else if (!nd->float32)
    fprintf(f, "#define TFLC_NO_FLOAT32\n");
  else if (!nd->int16)
    fprintf(f, "#define TFLC_NO_INT16\n");
  if (!nd->compression)
    fprintf(f, "#define TFLC_NO_COMPRESSION\n");
  if (!nd->subgraphs)
    fprintf(f, "#define TFLC_NO_SUBGRAPHS\n");
  fprintf(f, "#define TFLC_NO_DELEGATES\n");
  if (!user_ops)
    fprintf(f, "#define TFLC_NO_USER_OPS\n");
  if (!nd->conv_windows || !nd->dw_any_filter)
    fprintf(f, "/* the kernel paths its layers do not take (a layer that needs "
               "one\n * would run a slower path, with the same results) */\n");
  if (!nd->conv_windows)
    fprintf(f, "#define TFLC_NO_CONV_WINDOWS\n");
  if (!nd->dw_any_filter)
    fprintf(f, "#define TFLC_NO_DW_ANY_FILTER\n");
  fprintf(f, "\n/* error messages out, to save flash (tflc_error then names "
             "only the\n * status; tflc_error_op still gives the operator): "
             "*/\n/* #define TFLC_NO_ERROR_STRINGS */\n\n"
             "#endif /* TFLC_CONFIG_H */\n");
}

static int cmd_ops(int argc, char **argv) {
  const char *model_path = NULL, *out_path = NULL;
  int json = 0, config = 0, i, sg, op, n = 0, missing = 0;
  int32_t codes[512];
  char line[8192];
  size_t len;
  tflc_model m;
  uint8_t *bytes;
  for (i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--json"))
      json = 1;
    else if (!strcmp(argv[i], "--config"))
      config = 1;
    else if (!strcmp(argv[i], "-o")) {
      if (++i >= argc)
        die("ops: -o needs a file");
      out_path = argv[i];
    } else if (!strcmp(argv[i], "--list"))
      return ops_list();
    else if (argv[i][0] == '-')
      die("ops: unknown option %s", argv[i]);
    else if (!model_path)
      model_path = argv[i];
    else
      die("ops: unexpected argument %s", argv[i]);
  }
  if (!model_path)
    die("usage: %s", usage_of("ops"));
  if (json && config)
    die("ops: --json and --config do not go together");
  if (out_path && !config)
    die("ops: -o FILE goes with --config (the header to write)");
  load_model(&m, model_path, &bytes);
  /* every operator code of every subgraph, once, in code order */
  for (sg = 0; sg < m.num_subgraphs; sg++)
    for (op = 0; op < tflc_model_num_ops(&m, sg); op++) {
      int32_t code = tflc_model_op_code(&m, sg, op), k, j;
      for (k = 0; k < n && codes[k] < code; k++)
        ;
      if (k < n && codes[k] == code)
        continue;
      if (n == (int)(sizeof codes / sizeof codes[0]))
        die("ops: too many distinct operators");
      for (j = n; j > k; j--)
        codes[j] = codes[j - 1];
      codes[k] = code;
      n++;
    }
  /* what no TFLC_OPS line can give: register these as tflc_user_op */
  for (sg = 0; sg < m.num_subgraphs; sg++)
    for (op = 0; op < tflc_model_num_ops(&m, sg); op++) {
      tflc_op_info info;
      if (!tflc_op_info_get(tflc_model_op_code(&m, sg, op), &info) ||
          info.status == TFLC_OP_NAME_ONLY)
        missing++;
    }
  if (json) {
    printf("{\"ops\": [");
    for (i = 0, op = 0; i < n; i++) {
      tflc_op_info info;
      if (!tflc_op_info_get(codes[i], &info) ||
          info.status == TFLC_OP_NAME_ONLY)
        continue;
      printf("%s\"%s\"", op++ ? ", " : "", info.name);
    }
    printf("], \"user_ops_needed\": [");
  } else {
    len = (size_t)snprintf(line, sizeof line, "#define TFLC_OPS(X)");
    for (i = 0, op = 0; i < n; i++) {
      tflc_op_info info;
      if (!tflc_op_info_get(codes[i], &info) ||
          info.status == TFLC_OP_NAME_ONLY)
        continue;
      len +=
          (size_t)snprintf(line + len, sizeof line - len, " X(%s)", info.name);
      op++;
    }
    /* no built-in operator at all: no line (an empty TFLC_OPS compiles
     * none, which only a model of user operators wants) */
    if (op == 0 && missing)
      line[0] = 0;
    if (config && line[0]) {
      ops_needs nd = ops_model_needs(&m);
      FILE *f = out_path ? fopen(out_path, "w") : stdout;
      if (!f)
        die("cannot write %s: %s", out_path, strerror(errno));
      ops_write_config(f, model_path, out_path, &nd, missing > 0, line);
      if (out_path && fclose(f) != 0)
        die("cannot write %s", out_path);
    } else if (line[0]) {
      printf("%s\n", line);
    }
  }
  for (sg = 0, i = 0; sg < m.num_subgraphs; sg++)
    for (op = 0; op < tflc_model_num_ops(&m, sg); op++) {
      int32_t code = tflc_model_op_code(&m, sg, op);
      tflc_op_info info;
      uint32_t nlen = 0;
      const char *name = tflc_model_op_custom_name(&m, sg, op, &nlen);
      if (tflc_op_info_get(code, &info) && info.status != TFLC_OP_NAME_ONLY)
        continue;
      if (json)
        printf("%s{\"subgraph\": %d, \"op\": %d, \"name\": \"%.*s\"}",
               i++ ? ", " : "", sg, op, name ? (int)nlen : -1,
               name ? name : info.name);
      else
        fprintf(stderr,
                "tflc: subgraph %d op %d %.*s: tflc has no kernel; register "
                "it as a tflc_user_op\n",
                sg, op, name ? (int)nlen : (int)strlen(info.name),
                name ? name : info.name);
    }
  if (json)
    printf("]}\n");
  free(bytes);
  return missing ? 1 : 0;
}

/* cmd_ops.h - `tflc ops MODEL`: the operators a model needs, as the
 * TFLC_OPS line that compiles exactly those into a firmware build.
 * Included by tflc.c after load_model and die. */

/* `tflc ops --list`: every operator this build runs, from the operator
 * table, as the README lists them (comma-separated, 76 columns). */
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

static int cmd_ops(int argc, char **argv) {
  const char *model_path = NULL;
  int json = 0, i, sg, op, n = 0, missing = 0;
  int32_t codes[512];
  tflc_model m;
  uint8_t *bytes;
  for (i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--json"))
      json = 1;
    else if (!strcmp(argv[i], "--list"))
      return ops_list();
    else if (argv[i][0] == '-')
      die("ops: unknown option %s", argv[i]);
    else if (!model_path)
      model_path = argv[i];
    else
      die("ops: unexpected argument %s", argv[i]);
  }
  if (!model_path)
    die("usage: tflc ops MODEL [--json] | tflc ops --list");
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
  if (json)
    printf("{\"ops\": [");
  else
    printf("#define TFLC_OPS(X)");
  for (i = 0, op = 0; i < n; i++) {
    tflc_op_info info;
    if (!tflc_op_info_get(codes[i], &info) || info.status == TFLC_OP_NAME_ONLY)
      continue;
    if (json)
      printf("%s\"%s\"", op ? ", " : "", info.name);
    else
      printf(" X(%s)", info.name);
    op++;
  }
  if (json)
    printf("], \"user_ops_needed\": [");
  else
    printf("\n");
  /* what no TFLC_OPS line can give: register these as tflc_user_op */
  for (sg = 0; sg < m.num_subgraphs; sg++)
    for (op = 0; op < tflc_model_num_ops(&m, sg); op++) {
      int32_t code = tflc_model_op_code(&m, sg, op);
      tflc_op_info info;
      uint32_t len = 0;
      const char *name = tflc_model_op_custom_name(&m, sg, op, &len);
      if (tflc_op_info_get(code, &info) && info.status != TFLC_OP_NAME_ONLY)
        continue;
      if (json)
        printf("%s{\"subgraph\": %d, \"op\": %d, \"name\": \"%.*s\"}",
               missing ? ", " : "", sg, op, name ? (int)len : -1,
               name ? name : info.name);
      else
        fprintf(stderr,
                "tflc: subgraph %d op %d %.*s: tflc has no kernel; register "
                "it as a tflc_user_op\n",
                sg, op, name ? (int)len : (int)strlen(info.name),
                name ? name : info.name);
      missing++;
    }
  if (json)
    printf("]}\n");
  free(bytes);
  return missing ? 1 : 0;
}

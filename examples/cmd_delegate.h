/* examples/cmd_delegate.h - `--delegate SPEC` for tflc run, bench and info:
 * the VTA reference delegate (examples/vta/) on a functional model of the
 * accelerator. SPEC is `vta` (the seed's arithmetic) followed by options
 * separated by colons:
 *   round            round the final shifts half up instead of down
 *   threads=1        no double buffering (default 2, the seed's)
 *   inp=N wgt=N acc=N  SRAM depths in entries (default 2048 1024 2048)
 * e.g. `--delegate vta:round:threads=1`. `tflc run --json` then reports the
 * partitions, the operators taken and declined (with why), and per invoke
 * the GEMM / ALU operations, SRAM loads and stores and estimated cycles;
 * `tflc info --json` lists the partitions. Included by examples/tflc.c. */
#include "vta/vta_delegate.h"

typedef struct cli_delegate {
  int on;
  vta_config cfg;
  vta_device dev;
  void *mem;
  vta_delegate vta;
} cli_delegate;

/* Parses SPEC (dies on an unknown one). */
static void delegate_select(cli_delegate *d, const char *spec) {
  char buf[128], *tok, *save = NULL;
  int round = 0, threads = 2;
  size_t bytes;
  if (d->on)
    die("--delegate given twice");
  d->cfg = vta_default_config();
  if (strlen(spec) >= sizeof buf)
    die("--delegate %s: too long", spec);
  strcpy(buf, spec);
  tok = strtok_r(buf, ":", &save);
  if (!tok || strcmp(tok, "vta") != 0)
    die("--delegate %s: unknown delegate (try vta)", spec);
  while ((tok = strtok_r(NULL, ":", &save)) != NULL) {
    unsigned long v = 0;
    const char *eq = strchr(tok, '=');
    if (eq)
      v = strtoul(eq + 1, NULL, 0);
    if (!strcmp(tok, "round"))
      round = 1;
    else if (!strncmp(tok, "threads=", 8) && (v == 1 || v == 2))
      threads = (int)v;
    else if (!strncmp(tok, "inp=", 4) && v >= 1 && v <= 1u << 20)
      d->cfg.inp_depth = (uint32_t)v;
    else if (!strncmp(tok, "wgt=", 4) && v >= 1 && v <= 1u << 20)
      d->cfg.wgt_depth = (uint32_t)v;
    else if (!strncmp(tok, "acc=", 4) && v >= 1 && v <= 1u << 20)
      d->cfg.acc_depth = (uint32_t)v;
    else
      die("--delegate %s: unknown option %s", spec, tok);
  }
  bytes = vta_device_bytes(&d->cfg);
  d->mem = bytes ? malloc(bytes) : NULL;
  if (!d->mem || vta_device_init(&d->dev, &d->cfg, d->mem, bytes) != 0)
    die("--delegate %s: cannot set the device up", spec);
  vta_delegate_init(&d->vta, &d->dev, round);
  d->vta.threads = threads;
  d->on = 1;
}

static void delegate_attach(cli_delegate *d, tflc_options *opt) {
  if (!d->on)
    return;
  opt->delegates = &d->vta.tflc;
  opt->num_delegates = 1;
}

/* "partitions": [...] of a ready interpreter (JSON). */
static void delegate_json_partitions(const tflc_interpreter *it) {
  int32_t i, n = tflc_num_partitions(it);
  printf("\"partitions\": [");
  for (i = 0; i < n; i++) {
    tflc_partition_info p;
    tflc_partition_info_get(it, i, &p);
    printf("%s{\"delegate\": \"%s\", \"subgraph\": %d, \"first_op\": %d, "
           "\"last_op\": %d, \"ops\": %d, \"inputs\": %d, \"outputs\": %d, "
           "\"internal_tensors\": %d}",
           i ? ", " : "", p.delegate ? p.delegate : "", p.subgraph, p.first_op,
           p.last_op, p.num_ops, p.num_inputs, p.num_outputs, p.num_internal);
  }
  printf("]");
}

/* ", \"delegate\": {...}" for tflc run --json; counters per invoke. */
static void delegate_json(const cli_delegate *d, const tflc_interpreter *it,
                          long invokes) {
  const vta_counters *c = &d->dev.n;
  const double k = invokes > 0 ? 1.0 / (double)invokes : 1.0;
  int32_t i, n = 0;
  if (!d->on)
    return;
  printf(", \"delegate\": {\"name\": \"vta\", \"round\": %s, \"threads\": %d, "
         "\"sram\": {\"inp\": %u, \"wgt\": %u, \"acc\": %u}, ",
         d->vta.round ? "true" : "false", d->vta.threads, d->cfg.inp_depth,
         d->cfg.wgt_depth, d->cfg.acc_depth);
  delegate_json_partitions(it);
  printf(", \"taken\": [");
  for (i = 0; i < d->vta.num_notes; i++)
    if (!d->vta.notes[i].why)
      printf("%s%d", n++ ? ", " : "", d->vta.notes[i].op);
  printf("], \"declined\": [");
  for (i = 0, n = 0; i < d->vta.num_notes; i++)
    if (d->vta.notes[i].why)
      printf("%s{\"op\": %d, \"opcode\": \"%s\", \"why\": \"%s\"}",
             n++ ? ", " : "", d->vta.notes[i].op,
             tflc_opcode_name(d->vta.notes[i].code), d->vta.notes[i].why);
  printf(
      "], \"per_invoke\": {\"gemm\": %.0f, \"gemm_reset\": %.0f, "
      "\"alu\": %.0f, \"load_inp\": %.0f, \"load_wgt\": %.0f, "
      "\"load_acc\": %.0f, \"load_bytes\": %.0f, \"store_bytes\": %.0f, "
      "\"instructions\": %.0f, \"cycles\": %.0f, \"busy_load\": %.0f, "
      "\"busy_compute\": %.0f, \"busy_store\": %.0f, "
      "\"nhwc_to_accel_bytes\": %.0f, \"accel_to_nhwc_bytes\": %.0f}}",
      (double)c->gemm * k, (double)c->gemm_reset * k, (double)c->alu * k,
      (double)c->load_entries[VTA_MEM_INP] * k,
      (double)c->load_entries[VTA_MEM_WGT] * k,
      (double)(c->load_entries[VTA_MEM_ACC] + c->load_entries[VTA_MEM_ACC8]) *
          k,
      (double)c->load_bytes * k, (double)c->store_bytes * k,
      (double)(c->insns[0] + c->insns[1] + c->insns[2] + c->insns[3]) * k,
      (double)c->cycles * k, (double)c->busy[0] * k, (double)c->busy[1] * k,
      (double)c->busy[2] * k, (double)d->vta.to_accel_bytes * k,
      (double)d->vta.from_accel_bytes * k);
}

/* A few lines for tflc run without --json. */
static void delegate_text(const cli_delegate *d, const tflc_interpreter *it,
                          long invokes) {
  const vta_counters *c = &d->dev.n;
  const double k = invokes > 0 ? 1.0 / (double)invokes : 1.0;
  int32_t i, taken = 0;
  if (!d->on)
    return;
  for (i = 0; i < d->vta.num_notes; i++)
    taken += d->vta.notes[i].why == NULL;
  printf("delegate vta%s: %d partition(s), %d operator(s) taken, %d "
         "declined\n",
         d->vta.round ? " (round)" : "", tflc_num_partitions(it), taken,
         d->vta.num_notes - taken);
  printf(
      "per invoke: %.0f GEMM, %.0f ALU, loads %.0f INP / %.0f WGT / %.0f "
      "ACC entries, %.0f cycles\n",
      (double)c->gemm * k, (double)c->alu * k,
      (double)c->load_entries[VTA_MEM_INP] * k,
      (double)c->load_entries[VTA_MEM_WGT] * k,
      (double)(c->load_entries[VTA_MEM_ACC] + c->load_entries[VTA_MEM_ACC8]) *
          k,
      (double)c->cycles * k);
}

static void delegate_free(cli_delegate *d) {
  free(d->mem);
  d->mem = NULL;
}

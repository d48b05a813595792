/* tflc compress / tflc bin: the compression stage of the tflc tool.
 * Included by examples/tflc.c (which defines die(), read_file(),
 * write_file()); the work is done by tflc_compress / tflc_bin in
 * tflc_write.h.
 *
 *   tflc compress IN.tflite -o OUT.tflite [--spec SPEC.yaml]
 *        [--format metadata|decode] [--tensors SG:T[:BITS],...]
 *        [--exclude SG:T,...] [--tflm-compatible | --no-tflm-compatible]
 *        [--methods lut,huffman,prune | --methods auto] [--to-int4]
 *        [--allow-growth] [--json]
 *   tflc bin IN.tflite -o OUT.tflite [--bits B] [--prune FRACTION]
 *        [--tensors SG:T,...] [--exclude SG:T,...] [--json]
 *   tflc bin IN.tflite -o OUT.tflite --budget SPEC [--inputs DIR]
 *        [--random-inputs N] [--labels FILE] [--prune-search]
 *        [--min-bits B] [--exclude SG:T,...] [--format metadata|decode]
 *        [--tflm-compatible | --no-tflm-compatible] [--json]
 *
 * The report goes to stdout (a table, or JSON with --json), warnings to
 * stderr ("tflc: warning: ..."). */

/* Appends the refs of "SG:T[:BITS],SG:T..." to *refs (n, cap). */
static void cz_parse_refs(const char *arg, int allow_bits,
                          tflc_tensor_ref **refs, int32_t *n, size_t *cap,
                          const char *opt) {
  const char *p = arg;
  while (*p) {
    long v[3] = {0, 0, 0};
    int k = 0;
    tflc_tensor_ref *r;
    for (;;) {
      char *e;
      if (*p < '0' || *p > '9')
        die("%s: expected SG:T%s[,...], got '%s'", opt,
            allow_bits ? "[:BITS]" : "", arg);
      errno = 0;
      v[k] = strtol(p, &e, 10);
      if (errno || v[k] > 0x7fffffffL)
        die("%s: number too large in '%s'", opt, arg);
      k++;
      p = e;
      if (*p != ':' || k == (allow_bits ? 3 : 2))
        break;
      p++;
    }
    if (k < 2)
      die("%s: expected SG:T%s[,...], got '%s'", opt,
          allow_bits ? "[:BITS]" : "", arg);
    if (*p == ',')
      p++;
    else if (*p)
      die("%s: unexpected '%c' in '%s'", opt, *p, arg);
    if ((size_t)*n >= *cap) {
      *cap = *cap ? *cap * 2 : 16;
      *refs = (tflc_tensor_ref *)realloc(*refs, *cap * sizeof **refs);
      if (!*refs)
        die("out of memory");
    }
    r = &(*refs)[(*n)++];
    r->subgraph = (int32_t)v[0];
    r->tensor = (int32_t)v[1];
    r->bits = (int32_t)v[2];
    if (k == 3 && (v[2] < 1 || v[2] > 8))
      die("%s: bits %ld not in 1..8", opt, v[2]);
  }
}

static void cz_json_str(const char *s) {
  json_str(stdout, s);
}

static const char *cz_method(int m) {
  return m == TFLC_METHOD_LUT       ? "lut"
         : m == TFLC_METHOD_HUFFMAN ? "huffman"
         : m == TFLC_METHOD_PRUNE   ? "prune"
         : m == TFLC_METHOD_INT4    ? "int4"
                                    : "none";
}

static void cz_print(const char *cmd, const char *in, const char *outp,
                     const tflc_stage_report *rep, int json, int bin, int bits,
                     int prune) {
  int32_t i, ndone = 0;
  size_t before = 0, after = 0;
  for (i = 0; i < rep->nwarnings; i++)
    fprintf(stderr, "tflc: warning: %s\n", rep->warnings[i]);
  for (i = 0; i < rep->nentries; i++) {
    const tflc_stage_entry *e = &rep->entries[i];
    if (e->done) {
      ndone++;
      before += e->bytes_before;
      after += e->bytes_after;
    }
  }
  if (json) {
    printf("{\"command\": \"%s\", \"input\": ", cmd);
    cz_json_str(in);
    printf(", \"output\": ");
    cz_json_str(outp);
    if (bin)
      printf(", \"bits\": %d", bits);
    else
      printf(", \"format\": \"%s\", \"tflm_compatible\": %s",
             rep->format == TFLC_W_METADATA ? "metadata" : "decode",
             rep->tflm_compatible ? "true" : "false");
    printf(", \"input_bytes\": %lu, \"output_bytes\": %lu, \"tensors\": [",
           (unsigned long)rep->in_size, (unsigned long)rep->out_size);
    for (i = 0; i < rep->nentries; i++) {
      const tflc_stage_entry *e = &rep->entries[i];
      printf("%s\n  {\"subgraph\": %d, \"tensor\": %d, \"name\": ",
             i ? "," : "", e->subgraph, e->tensor);
      cz_json_str(e->name);
      printf(", \"type\": \"%s\", \"%s\": %s, \"tables\": %d, "
             "\"unique\": %d",
             tflc_type_name(e->type), bin ? "binned" : "compressed",
             e->done ? "true" : "false", e->tables, e->unique);
      if (bin)
        printf(", \"unique_after\": %d, \"mean_abs_change\": %.9g, "
               "\"max_abs_change\": %.9g, \"pruned\": %lu",
               e->unique_after, e->mean_abs, e->max_abs,
               (unsigned long)e->size_prune);
      else
        printf(", \"method\": \"%s\", \"bits\": %d, \"stride\": %d, "
               "\"bytes_before\": %lu, \"bytes_after\": %lu, "
               "\"bytes_lut\": %lu, \"bytes_huffman\": %lu, "
               "\"bytes_prune\": %lu",
               cz_method(e->method), e->bits, e->stride,
               (unsigned long)e->bytes_before, (unsigned long)e->bytes_after,
               (unsigned long)e->size_lut, (unsigned long)e->size_huffman,
               (unsigned long)e->size_prune);
      printf(", \"reason\": ");
      cz_json_str(e->reason);
      putchar('}');
    }
    printf("\n], \"warnings\": [");
    for (i = 0; i < rep->nwarnings; i++) {
      printf("%s", i ? ", " : "");
      cz_json_str(rep->warnings[i]);
    }
    printf("]}\n");
    return;
  }
  if (bin && bits)
    printf("%s -> %s: binned to at most %d values per table\n", in, outp,
           1 << bits);
  else if (bin)
    printf("%s -> %s: pruned (elements set to the zero point)\n", in, outp);
  else
    printf("%s -> %s: format %s, %s\n", in, outp,
           rep->format == TFLC_W_METADATA ? "COMPRESSION_METADATA"
                                          : "TFLM_DECODE",
           rep->tflm_compatible ? "TFLM-compatible"
                                : "tflc (not restricted to what TFLM runs)");
  if (bin && prune)
    printf("  %-7s %-8s %6s %7s %7s %12s %12s %9s  %s\n", "tensor", "type",
           "tables", "values", "after", "mean |d|", "max |d|", "pruned",
           "name");
  else if (bin)
    printf("  %-7s %-8s %6s %7s %7s %12s %12s  %s\n", "tensor", "type",
           "tables", "values", "after", "mean |d|", "max |d|", "name");
  else
    printf("  %-7s %-8s %-7s %4s %6s %6s %9s %9s  %s\n", "tensor", "type",
           "method", "bits", "tables", "stride", "bytes", "after", "name");
  for (i = 0; i < rep->nentries; i++) {
    const tflc_stage_entry *e = &rep->entries[i];
    char id[24];
    snprintf(id, sizeof id, "%d:%d", e->subgraph, e->tensor);
    if (bin && e->done && prune) {
      char u[16] = "-", ua[16] = "-"; /* distinct values: binning only */
      if (bits) {
        snprintf(u, sizeof u, "%d", e->unique);
        snprintf(ua, sizeof ua, "%d", e->unique_after);
      }
      printf("  %-7s %-8s %6d %7s %7s %12.6g %12.6g %9lu  %s\n", id,
             tflc_type_name(e->type), e->tables, u, ua, e->mean_abs, e->max_abs,
             (unsigned long)e->size_prune, e->name);
    } else if (bin && e->done)
      printf("  %-7s %-8s %6d %7d %7d %12.6g %12.6g  %s\n", id,
             tflc_type_name(e->type), e->tables, e->unique, e->unique_after,
             e->mean_abs, e->max_abs, e->name);
    else if (!bin && e->done)
      printf("  %-7s %-8s %-7s %4d %6d %6d %9lu %9lu  %s%s%s\n", id,
             tflc_type_name(e->type), cz_method(e->method), e->bits, e->tables,
             e->stride, (unsigned long)e->bytes_before,
             (unsigned long)e->bytes_after, e->name,
             e->reason[0] ? "  -- " : "", e->reason);
    else
      printf("  %-7s %-8s skipped: %s  (%s)\n", id, tflc_type_name(e->type),
             e->reason, e->name);
  }
  if (bin)
    printf("%d of %d tensors binned; model %lu -> %lu bytes\n", ndone,
           rep->nentries, (unsigned long)rep->in_size,
           (unsigned long)rep->out_size);
  else
    printf("%d of %d candidates compressed, their data %lu -> %lu bytes; "
           "model %lu -> %lu bytes\n",
           ndone, rep->nentries, (unsigned long)before, (unsigned long)after,
           (unsigned long)rep->in_size, (unsigned long)rep->out_size);
}

/* ---- tflc bin --budget: compression to an accuracy budget ------------------
 * Samples: the *.bin files of --inputs DIR in name order (each the model's
 * inputs' bytes one after another), then --random-inputs N samples (sample
 * j as `tflc run --random-inputs j+1`); --labels FILE: one class index per
 * sample, whitespace-separated. The search is tflc_compress_to_budget. */
#include <dirent.h>

static int cz_cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void cz_metrics_json(const char *key, const tflc_budget_metrics *m) {
  printf("\"%s\": {\"top1\": %.9g, \"mean_abs\": %.9g, \"max_abs\": %.9g, "
         "\"accuracy\": ",
         key, m->top1, m->mean_abs, m->max_abs);
  if (m->accuracy >= 0)
    printf("%.9g}", m->accuracy);
  else
    printf("null}");
}

static int cz_budget(const char *in, const char *outp, const char *spec,
                     const char *dir, unsigned long nrandom,
                     const char *labels_path, int prune, int min_bits,
                     const tflc_tensor_ref *exclude, int32_t nx, int format,
                     int tflm, int json) {
  tflc_budget_options o;
  tflc_budget_report rep;
  tflc_model m;
  char err[256];
  uint8_t *model, *out = NULL, *samples = NULL;
  size_t size, out_size = 0, sb = 0, nfiles = 0, capf = 0, j;
  char **files = NULL;
  int32_t *labels = NULL, nsamples, k, nin;
  uint32_t nio, v;
  tflc_status st;
  memset(&o, 0, sizeof o);
  if (tflc_budget_parse(spec, &o.budget, err, sizeof err) != TFLC_OK)
    die("bin: --budget: %s", err);
  model = read_file(in, &size);
  if (tflc_model_init(&m, model, size) != TFLC_OK)
    die("%s: %s", in, tflc_model_error(&m));
  v = info_io(&m, 0, 0, &nio);
  nin = (int32_t)nio;
  for (k = 0; k < nin; k++) {
    tflc_tensor t;
    if (tflc_model_tensor(&m, 0, tflc__i32(m.bytes + v + 4 * (uint32_t)k), &t,
                          NULL, NULL) != TFLC_OK)
      die("%s: input %d unreadable", in, k);
    sb += t.bytes;
  }
  if (dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
      die("bin: --inputs %s: cannot open the folder", dir);
    while ((e = readdir(d)) != NULL) {
      size_t n = strlen(e->d_name);
      if (e->d_name[0] == '.' || n < 5 || strcmp(e->d_name + n - 4, ".bin"))
        continue;
      if (nfiles == capf) {
        capf = capf ? capf * 2 : 16;
        files = (char **)realloc(files, capf * sizeof *files);
        if (!files)
          die("out of memory");
      }
      files[nfiles] = (char *)malloc(strlen(dir) + n + 2);
      if (!files[nfiles])
        die("out of memory");
      sprintf(files[nfiles], "%s/%s", dir, e->d_name);
      nfiles++;
    }
    closedir(d);
    if (!nfiles)
      die("bin: --inputs %s: no .bin files", dir);
    qsort(files, nfiles, sizeof *files, cz_cmp_str);
  }
  if (nfiles + nrandom == 0 || nfiles + nrandom > 1000000)
    die("bin: --budget needs samples: --inputs DIR and/or --random-inputs N");
  nsamples = (int32_t)(nfiles + nrandom);
  samples = (uint8_t *)malloc((size_t)nsamples * sb + 1);
  if (!samples)
    die("out of memory");
  for (j = 0; j < nfiles; j++) {
    size_t n;
    uint8_t *f = read_file(files[j], &n);
    if (n != sb)
      die("bin: %s has %lu bytes; the model's inputs take %lu", files[j],
          (unsigned long)n, (unsigned long)sb);
    memcpy(samples + j * sb, f, sb);
    free(f);
  }
  for (j = 0; j < nrandom; j++) {
    uint8_t *p = samples + (nfiles + j) * sb;
    for (k = 0; k < nin; k++) {
      tflc_tensor t;
      tflc_model_tensor(&m, 0, tflc__i32(m.bytes + v + 4 * (uint32_t)k), &t,
                        NULL, NULL);
      random_fill(p, t.bytes, t.type, (uint32_t)(j + 1 + (size_t)k));
      p += t.bytes;
    }
  }
  if (labels_path) {
    size_t n;
    char *txt = (char *)read_file(labels_path, &n), *p, *e;
    char *z = (char *)realloc(txt, n + 1);
    if (!z)
      die("out of memory");
    txt = z;
    txt[n] = 0;
    labels = (int32_t *)malloc(sizeof *labels * (size_t)nsamples);
    if (!labels)
      die("out of memory");
    p = txt;
    for (k = 0; k < nsamples; k++) {
      long l = strtol(p, &e, 10);
      if (e == p)
        die("bin: --labels %s: %d labels for %d samples", labels_path, k,
            nsamples);
      labels[k] = (int32_t)l;
      p = e;
    }
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
      p++;
    if (*p)
      die("bin: --labels %s: more labels than the %d samples", labels_path,
          nsamples);
    free(txt);
  }
  o.samples = samples;
  o.sample_bytes = sb;
  o.nsamples = nsamples;
  o.labels = labels;
  o.prune = prune;
  o.min_bits = min_bits;
  o.exclude = exclude;
  o.nexclude = nx;
  o.format = format;
  o.tflm_compatible = tflm;
  st = tflc_compress_to_budget(model, size, &o, &out, &out_size, &rep);
  if (st != TFLC_OK)
    die("bin: --budget: %s", rep.error[0] ? rep.error : tflc_status_str(st));
  write_file(outp, out, out_size);
  if (json) {
    printf("{\"command\": \"bin\", \"input\": ");
    cz_json_str(in);
    printf(", \"output\": ");
    cz_json_str(outp);
    printf(", \"budget\": {\"top1\": %.9g, \"mean_abs\": %.9g, \"max_abs\": "
           "%.9g, \"acc_drop\": %.9g}, \"samples\": %d, \"labels\": %s, "
           "\"input_bytes\": %lu, \"output_bytes\": %lu, \"search_seconds\": "
           "%.3f, \"evaluations\": %d, ",
           o.budget.top1, o.budget.mean_abs, o.budget.max_abs,
           o.budget.acc_drop, nsamples, labels ? "true" : "false",
           (unsigned long)rep.in_size, (unsigned long)rep.out_size, rep.seconds,
           rep.evaluations);
    cz_metrics_json("baseline", &rep.baseline);
    printf(", ");
    cz_metrics_json("final", &rep.final);
    printf(", \"tensors\": [");
    for (k = 0; k < rep.ntensors; k++) {
      const tflc_budget_tensor *t = &rep.tensors[k];
      printf("%s\n  {\"subgraph\": %d, \"tensor\": %d, \"name\": ",
             k ? "," : "", t->subgraph, t->tensor);
      cz_json_str(t->name);
      printf(", \"type\": \"%s\", \"bits\": %d, \"prune\": %.9g, "
             "\"bytes_before\": %lu, \"bytes_after\": %lu, \"method\": "
             "\"%s\", \"cost\": %.9g, \"levels_tried\": %d}",
             tflc_type_name(t->type), t->bits, t->prune,
             (unsigned long)t->bytes_before, (unsigned long)t->bytes_after,
             cz_method(t->method), t->cost, t->levels_tried);
    }
    printf("\n], \"steps\": [");
    for (k = 0; k < rep.nsteps; k++) {
      const tflc_budget_step *s = &rep.steps[k];
      const tflc_budget_tensor *t = &rep.tensors[s->entry];
      printf("%s\n  {\"subgraph\": %d, \"tensor\": %d, \"bits\": %d, "
             "\"prune\": %.9g, \"bytes_saved\": %lu, \"cost\": %.9g, ",
             k ? "," : "", t->subgraph, t->tensor, s->bits, s->prune,
             (unsigned long)s->bytes_saved, s->cost);
      cz_metrics_json("after", &s->after);
      putchar('}');
    }
    printf("\n]}\n");
  } else {
    printf("%s -> %s: budget %s, %d samples%s, %.2f s, %d evaluations\n", in,
           outp, spec, nsamples, labels ? " (labelled)" : "", rep.seconds,
           rep.evaluations);
    printf("  %-7s %-8s %4s %6s %9s %9s %10s  %s\n", "tensor", "type", "bits",
           "prune", "bytes", "after", "cost", "name");
    for (k = 0; k < rep.ntensors; k++) {
      const tflc_budget_tensor *t = &rep.tensors[k];
      char id[24];
      snprintf(id, sizeof id, "%d:%d", t->subgraph, t->tensor);
      printf("  %-7s %-8s %4d %5.0f%% %9lu %9lu %10.4g  %s\n", id,
             tflc_type_name(t->type), t->bits, t->prune * 100,
             (unsigned long)t->bytes_before, (unsigned long)t->bytes_after,
             t->cost, t->name);
    }
    printf("steps (in order; metrics of the whole model after each):\n");
    for (k = 0; k < rep.nsteps; k++) {
      const tflc_budget_step *s = &rep.steps[k];
      const tflc_budget_tensor *t = &rep.tensors[s->entry];
      char what[32];
      if (s->bits)
        snprintf(what, sizeof what, "%d bits", s->bits);
      else
        snprintf(what, sizeof what, "prune %.0f%%", s->prune * 100);
      printf("  %3d  %d:%-4d -> %-9s saves %6lu B  top-1 %6.2f%%  mean %-9.4g "
             "max %-9.4g",
             k + 1, t->subgraph, t->tensor, what, (unsigned long)s->bytes_saved,
             s->after.top1 * 100, s->after.mean_abs, s->after.max_abs);
      if (labels)
        printf("  accuracy %.2f%%", s->after.accuracy * 100);
      printf("  cost %+.4g\n", s->cost);
    }
    printf("top-1 agreement %.2f%%, output error mean %.6g max %.6g",
           rep.final.top1 * 100, rep.final.mean_abs, rep.final.max_abs);
    if (labels)
      printf(", accuracy %.2f%% (was %.2f%%)", rep.final.accuracy * 100,
             rep.baseline.accuracy * 100);
    printf("\nmodel %lu -> %lu bytes\n", (unsigned long)rep.in_size,
           (unsigned long)rep.out_size);
  }
  tflc_budget_report_free(&rep);
  for (j = 0; j < nfiles; j++)
    free(files[j]);
  free(files);
  free(samples);
  free(labels);
  free(out);
  free(model);
  return 0;
}

static int cmd_stage(int argc, char **argv, int bin) {
  const char *cmd = bin ? "bin" : "compress";
  const char *in = NULL, *outp = NULL, *specp = NULL;
  tflc_tensor_ref *tensors = NULL, *exclude = NULL;
  int32_t nt = 0, nx = 0;
  size_t ct = 0, cx = 0, size, out_size = 0, spec_size = 0;
  int json = 0, format = 0, tflm = 0, bits = 0, have_tensors = 0, i;
  int growth = 0, methods = 0, to_int4 = 0;
  double prune = 0;
  const char *budget = NULL, *bdir = NULL, *blabels = NULL; /* --budget */
  unsigned long brandom = 0;
  int bprune = 0, bmin = 0;
  uint8_t *model, *out = NULL, *spec = NULL;
  tflc_stage_report rep;
  tflc_status st;
  for (i = 0; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "-o") && more) {
      outp = argv[++i];
    } else if (!strcmp(a, "--json")) {
      json = 1;
    } else if (!strcmp(a, "--tensors") && more) {
      cz_parse_refs(argv[++i], !bin, &tensors, &nt, &ct, "--tensors");
      have_tensors = 1;
    } else if (!strcmp(a, "--exclude") && more) {
      cz_parse_refs(argv[++i], 0, &exclude, &nx, &cx, "--exclude");
    } else if (!bin && !strcmp(a, "--spec") && more) {
      specp = argv[++i];
    } else if (!strcmp(a, "--format") && more) { /* bin: --budget only */
      i++;
      if (!strcmp(argv[i], "metadata"))
        format = TFLC_W_METADATA;
      else if (!strcmp(argv[i], "decode"))
        format = TFLC_W_DECODE;
      else
        die("%s: --format metadata|decode, not %s", cmd, argv[i]);
    } else if (!strcmp(a, "--tflm-compatible")) {
      tflm = 1;
    } else if (!strcmp(a, "--no-tflm-compatible")) {
      tflm = -1;
    } else if (!bin && !strcmp(a, "--allow-growth")) {
      growth = 1;
    } else if (!bin && !strcmp(a, "--to-int4")) {
      to_int4 = 1;
    } else if (!bin && !strcmp(a, "--methods") && more) {
      const char *p = argv[++i];
      if (!strcmp(p, "auto")) {
        methods = TFLC_METHOD_LUT | TFLC_METHOD_HUFFMAN | TFLC_METHOD_PRUNE;
      } else {
        while (*p) {
          size_t n = strcspn(p, ",");
          if (n == 3 && !strncmp(p, "lut", 3))
            methods |= TFLC_METHOD_LUT;
          else if (n == 7 && !strncmp(p, "huffman", 7))
            methods |= TFLC_METHOD_HUFFMAN;
          else if (n == 5 && !strncmp(p, "prune", 5))
            methods |= TFLC_METHOD_PRUNE;
          else
            die("compress: --methods takes lut,huffman,prune or auto, not %s",
                argv[i]);
          p += n + (p[n] == ',');
        }
      }
    } else if (bin && !strcmp(a, "--prune") && more) {
      char *e;
      prune = strtod(argv[++i], &e);
      if (*e || !(prune > 0 && prune <= 1))
        die("bin: --prune takes a fraction in (0, 1]");
    } else if (bin && !strcmp(a, "--budget") && more) {
      budget = argv[++i];
    } else if (bin && !strcmp(a, "--inputs") && more) {
      bdir = argv[++i];
    } else if (bin && !strcmp(a, "--random-inputs") && more) {
      brandom = parse_num("--random-inputs", argv[++i], 0, 1000000);
    } else if (bin && !strcmp(a, "--labels") && more) {
      blabels = argv[++i];
    } else if (bin && !strcmp(a, "--prune-search")) {
      bprune = 1;
    } else if (bin && !strcmp(a, "--min-bits") && more) {
      bmin = (int)parse_num("--min-bits", argv[++i], 1, 7);
    } else if (bin && !strcmp(a, "--bits") && more) {
      char *e;
      long b = strtol(argv[++i], &e, 10);
      if (*e || b < 1 || b > 8)
        die("bin: --bits must be 1..8");
      bits = (int)b;
    } else if (a[0] == '-' && a[1]) {
      die("%s: unknown option %s", cmd, a);
    } else if (!in) {
      in = a;
    } else {
      die("%s: unexpected argument %s", cmd, a);
    }
  }
  if (budget && in && outp && !bits && !(prune > 0) && !have_tensors) {
    if (same_file(in, outp) || !strcmp(in, outp))
      die("bin: -o %s is the input file; write to another file", outp);
    return cz_budget(in, outp, budget, bdir, brandom, blabels, bprune, bmin,
                     exclude, nx, format, tflm, json);
  }
  if (budget || bdir || brandom || blabels || bprune || bmin ||
      (bin && (format || tflm)))
    die("bin: --budget SPEC (with --inputs DIR and/or --random-inputs N, "
        "--labels FILE, --prune-search, --min-bits B, --format, "
        "--tflm-compatible) goes without --bits, --prune and --tensors");
  if (!in || !outp || (bin && !bits && !(prune > 0)))
    die("usage: %s", usage_of(cmd));
  if (specp && have_tensors)
    die("compress: --spec and --tensors are exclusive");
  if (same_file(in, outp) || !strcmp(in, outp))
    die("%s: -o %s is the input file; write to another file", cmd, outp);
  model = read_file(in, &size);
  if (bin) {
    tflc_bin_options o;
    memset(&o, 0, sizeof o);
    o.bits = bits;
    o.prune = prune;
    o.tensors = have_tensors ? tensors : NULL;
    o.ntensors = nt;
    o.exclude = exclude;
    o.nexclude = nx;
    st = tflc_bin(model, size, &o, &out, &out_size, &rep);
  } else {
    tflc_compress_options o;
    memset(&o, 0, sizeof o);
    o.format = format;
    o.tflm_compatible = tflm;
    o.allow_growth = growth;
    o.methods = methods;
    o.to_int4 = to_int4;
    if (specp) {
      spec = read_file(specp, &spec_size);
      o.spec = (const char *)spec;
      o.spec_len = spec_size;
      o.spec_name = specp;
    }
    o.tensors = have_tensors ? tensors : NULL;
    o.ntensors = nt;
    if (have_tensors && !tensors)
      die("compress: --tensors needs at least one tensor");
    o.exclude = exclude;
    o.nexclude = nx;
    st = tflc_compress(model, size, &o, &out, &out_size, &rep);
  }
  if (st != TFLC_OK) {
    int32_t k;
    for (k = 0; k < rep.nwarnings; k++)
      fprintf(stderr, "tflc: warning: %s\n", rep.warnings[k]);
    die("%s: %s", cmd, rep.error[0] ? rep.error : tflc_status_str(st));
  }
  {
    int32_t k, ndone = 0;
    for (k = 0; k < rep.nentries; k++)
      ndone += rep.entries[k].done != 0;
    if (ndone == 0 && !bin) {
      /* the table (on stdout) gives each tensor's reason */
      cz_print(cmd, in, "(not written)", &rep, json, bin, bits, prune > 0);
      fflush(stdout);
      if (rep.nentries == 0)
        die("compress: nothing compressed: %s has no constant tensor to "
            "compress; %s not written",
            in, outp);
      die("compress: nothing compressed (%d candidates, the table above "
          "gives each one's reason); %s not written. Weights straight from "
          "training have too many distinct values: bin them first, e.g. "
          "tflc bin %s -o BINNED.tflite --bits 4",
          rep.nentries, outp, in);
    }
  }
  /* discovery never writes a model larger than its input: the format's
   * own bytes (DECODE operators, ancillary tensors, metadata) can exceed
   * what small tensors save */
  if (!bin && !specp && !have_tensors && !growth && out_size > size) {
    cz_print(cmd, in, "(not written)", &rep, json, bin, bits, 0);
    fflush(stdout);
    die("compress: the compressed model would be %lu bytes, larger than "
        "the input's %lu (the format's own bytes exceed what the tensors "
        "save); %s not written (--allow-growth writes it)",
        (unsigned long)out_size, (unsigned long)size, outp);
  }
  if (!bin && to_int4) {
    int32_t k, n4 = 0;
    for (k = 0; k < rep.nentries; k++)
      n4 += rep.entries[k].done && rep.entries[k].method == TFLC_METHOD_INT4;
    if (n4 == 0)
      fprintf(stderr,
              "tflc: warning: --to-int4: no filter qualifies (constant INT8 "
              "filters of CONV_2D, DEPTHWISE_CONV_2D and per-tensor "
              "FULLY_CONNECTED with every value in -8..7); none made INT4\n");
  }
  write_file(outp, out, out_size);
  cz_print(cmd, in, outp, &rep, json, bin, bits, prune > 0);
  tflc_stage_report_free(&rep);
  free(out);
  free(model);
  free(spec);
  free(tensors);
  free(exclude);
  return 0;
}

static int cmd_compress(int argc, char **argv) {
  return cmd_stage(argc, argv, 0);
}
static int cmd_bin(int argc, char **argv) {
  return cmd_stage(argc, argv, 1);
}

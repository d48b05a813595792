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

static int cmd_stage(int argc, char **argv, int bin) {
  const char *cmd = bin ? "bin" : "compress";
  const char *in = NULL, *outp = NULL, *specp = NULL;
  tflc_tensor_ref *tensors = NULL, *exclude = NULL;
  int32_t nt = 0, nx = 0;
  size_t ct = 0, cx = 0, size, out_size = 0, spec_size = 0;
  int json = 0, format = 0, tflm = 0, bits = 0, have_tensors = 0, i;
  int growth = 0, methods = 0, to_int4 = 0;
  double prune = 0;
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
    } else if (!bin && !strcmp(a, "--format") && more) {
      i++;
      if (!strcmp(argv[i], "metadata"))
        format = TFLC_W_METADATA;
      else if (!strcmp(argv[i], "decode"))
        format = TFLC_W_DECODE;
      else
        die("compress: --format metadata|decode, not %s", argv[i]);
    } else if (!bin && !strcmp(a, "--tflm-compatible")) {
      tflm = 1;
    } else if (!bin && !strcmp(a, "--no-tflm-compatible")) {
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

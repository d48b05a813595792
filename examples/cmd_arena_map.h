/* cmd_arena_map.h - `tflc info MODEL --arena-map FILE`: the arena plan an
 * interpreter made, drawn as SVG (FILE.svg) or listed as JSON (FILE.json,
 * or any name with --json). Included by tflc.c after plan_name and the
 * JSON helpers. Subgraph 0's tensors (the model's main graph): each
 * activation buffer with its offset from the arena's start, its bytes and
 * the operators from the first that needs it to the last; the scratch
 * buffers of each operator; the persistent records at the arena's end. */

typedef struct map_box {
  int32_t tensor; /* model tensor index; -1: scratch of operator `first` */
  int32_t slot;   /* scratch: its index among the operator's */
  unsigned long offset, bytes;
  int32_t first, last; /* operator indices */
} map_box;

typedef struct arena_map {
  const tflc_interpreter *it;
  const tflc_model *m;
  const char *model_path;
  int bits;                    /* 0: this host; 32: a 32-bit target */
  unsigned long arena_given;   /* --arena, or 0 */
  unsigned long total;         /* the arena drawn */
  unsigned long used, planned; /* tflc_arena_used(_for), activations */
  unsigned long persistent, persistent_offset;
  map_box *boxes;
  int32_t nboxes, ntensors;
  int scratch_known; /* scratch sizes found (see map_scratch) */
} arena_map;

/* The sizes of every operator's scratch buffers: after a successful init
 * the records hold their addresses only, so the same plan is made again
 * in one byte less than it needs, which fails when the activations are
 * placed, after every operator asked for its scratch (the records then
 * still hold the sizes asked). sizes[op * TFLC__MAX_SCRATCH + k]; returns
 * 0 when that did not happen as expected. */
static int map_scratch(const tflc_interpreter *it, const tflc_model *m,
                       const tflc_options *opt, unsigned long *sizes) {
  tflc_interpreter sh;
  tflc_options o = *opt;
  const size_t used = tflc_arena_used(it);
  uint8_t *a = (uint8_t *)aligned_alloc(16, (used + 15) & ~(size_t)15);
  int32_t i, k, good;
  if (!a)
    die("out of memory");
  o.plan = it->plan ? it->plan : TFLC_PLAN_FASTEST;
  good = tflc_interpreter_init(&sh, m, a, used - 1, &o) == TFLC_ERR_ARENA &&
         sh.ops && sh.num_ops == it->num_ops;
  for (i = 0; good && i < it->num_ops; i++) {
    if (sh.ops[i].nscratch != it->ops[i].nscratch) {
      good = 0;
      break;
    }
    for (k = 0; k < it->ops[i].nscratch; k++) {
      const uintptr_t s = sh.ops[i].scratch[k];
      if (s > used) /* an address: planned after all */
        good = 0;
      sizes[(size_t)i * TFLC__MAX_SCRATCH + (size_t)k] = (unsigned long)s;
    }
  }
  free(a);
  return good;
}

static void map_build(arena_map *am, const tflc_options *opt) {
  const tflc_interpreter *it = am->it;
  const uint8_t *base = it->arena;
  int32_t n = it->num_tensors, i, k, last_op = it->num_ops - 1;
  int32_t *first = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
  int32_t *last = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
  unsigned long *ss = (unsigned long *)calloc(
      (size_t)it->num_ops * TFLC__MAX_SCRATCH + 1, sizeof(unsigned long));
  size_t nscratch = 0;
  if (!first || !last || !ss)
    die("out of memory");
  am->used = (unsigned long)(am->bits ? tflc_arena_used_for(it, am->bits)
                                      : tflc_arena_used(it));
  am->planned = (unsigned long)it->head;
  am->persistent = (unsigned long)(am->bits == 32 ? it->tail32 : it->tail);
  am->total = am->arena_given ? (unsigned long)it->arena_size : am->used;
  am->persistent_offset = am->total - am->persistent;
  for (i = 0; i < n; i++) {
    first[i] = 0x7FFFFFFF;
    last[i] = -1;
  }
  /* lifetimes: from the first operator that reads or writes a tensor to
   * the last; the graph's inputs from the start, its outputs to the end */
  for (i = 0; i < it->num_ops; i++) {
    const tflc__op *op = &it->ops[i];
    for (k = 0; k < op->nin + op->nout; k++) {
      const int32_t r = op->in[k];
      if (r < 0 || r >= n)
        continue;
      if (first[r] > i)
        first[r] = i;
      if (last[r] < i)
        last[r] = i;
    }
    nscratch += op->nscratch;
  }
  /* the maps inside a chain run band by band (the patches plan) have no
   * buffer: the outputs of its operators but the last */
  for (i = it->patch_rows ? it->patch_first : 0;
       it->patch_rows && i < it->patch_last && i < it->num_ops; i++) {
    const tflc__op *op = &it->ops[i];
    for (k = op->nin; k < op->nin + op->nout; k++)
      if (op->in[k] >= 0 && op->in[k] < n)
        last[op->in[k]] = -2; /* (marked: no buffer) */
  }
  for (i = 0; i < it->num_inputs; i++)
    if (it->inputs[i] >= 0 && it->inputs[i] < n)
      first[it->inputs[i]] = 0;
  for (i = 0; i < it->num_outputs; i++)
    if (it->outputs[i] >= 0 && it->outputs[i] < n)
      last[it->outputs[i]] = last_op;
  am->boxes = (map_box *)calloc((size_t)n + nscratch + 1, sizeof(map_box));
  if (!am->boxes)
    die("out of memory");
  for (i = 0; i < n; i++) {
    const tflc_tensor *t = &it->tensors[i];
    const uint8_t *d = (const uint8_t *)t->data;
    map_box *b;
    if (!d || d < base || d >= base + it->head || last[i] == -2 ||
        (t->flags & (TFLC_TENSOR_CONST | TFLC_TENSOR_VARIABLE)))
      continue; /* constants, variables, tensors outside the activations,
                   maps inside a chain */
    b = &am->boxes[am->nboxes++];
    b->tensor = t->index;
    b->slot = -1;
    b->offset = (unsigned long)(d - base);
    b->bytes = (unsigned long)t->bytes;
    b->first = first[i] <= last_op ? first[i] : 0;
    b->last = last[i] >= 0 ? last[i] : last_op;
  }
  am->ntensors = am->nboxes;
  am->scratch_known = nscratch == 0 || map_scratch(it, am->m, opt, ss);
  for (i = 0; am->scratch_known && i < it->num_ops; i++)
    for (k = 0; k < it->ops[i].nscratch; k++) {
      const uint8_t *d = (const uint8_t *)it->ops[i].scratch[k];
      map_box *b;
      if (d < base || d >= base + it->head)
        continue;
      b = &am->boxes[am->nboxes++];
      b->tensor = -1;
      b->slot = k;
      b->offset = (unsigned long)(d - base);
      b->bytes = ss[(size_t)i * TFLC__MAX_SCRATCH + (size_t)k];
      b->first = b->last = i;
      if (it->patch_rows && i == it->patch_first &&
          k == it->ops[i].nscratch - 1)
        b->last = it->patch_last; /* the chain's band buffers */
    }
  free(first);
  free(last);
  free(ss);
}

static void map_json(FILE *f, const arena_map *am) {
  const tflc_interpreter *it = am->it;
  int32_t i;
  fprintf(f, "{\"model\": ");
  json_str(f, am->model_path);
  fprintf(f,
          ", \"subgraph\": 0, \"plan\": \"%s\", \"target\": \"%s\", "
          "\"arena_given_bytes\": ",
          plan_name(it),
          am->bits == 32
              ? "32-bit"
              : (sizeof(void *) == 8 ? "host, 64-bit" : "host, 32-bit"));
  if (am->arena_given)
    fprintf(f, "%lu", am->arena_given);
  else
    fprintf(f, "null");
  fprintf(f,
          ", \"arena_bytes\": %lu, \"arena_used_bytes\": %lu, "
          "\"activations_bytes\": %lu, \"persistent_offset\": %lu, "
          "\"persistent_bytes\": %lu, \"inplace_layers\": %d, "
          "\"compact_layers\": %d, \"num_ops\": %d, \"ops\": [",
          am->total, am->used, am->planned, am->persistent_offset,
          am->persistent, it->plan >= TFLC_PLAN_INPLACE ? it->inplace_ops : 0,
          it->plan == TFLC_PLAN_COMPACT ? it->compact_ops : 0, it->num_ops);
  for (i = 0; i < it->num_ops; i++)
    fprintf(f, "%s{\"index\": %d, \"opcode\": \"%s\"}", i ? ", " : "", i,
            tflc_opcode_name(it->ops[i].code));
  fprintf(f, "], \"tensors\": [");
  for (i = 0; i < am->ntensors; i++) {
    const map_box *b = &am->boxes[i];
    const char *name = NULL;
    uint32_t nl = 0;
    tflc_tensor tt;
    if (tflc_model_tensor(am->m, 0, b->tensor, &tt, &name, &nl) != TFLC_OK)
      name = NULL;
    fprintf(f, "%s{\"tensor\": %d, \"name\": ", i ? ", " : "", b->tensor);
    json_strn(f, name ? name : "", name ? nl : 0);
    fprintf(f,
            ", \"offset\": %lu, \"bytes\": %lu, \"first_op\": %d, "
            "\"last_op\": %d}",
            b->offset, b->bytes, b->first, b->last);
  }
  fprintf(f, "], \"scratch\": ");
  if (!am->scratch_known)
    fprintf(f, "null");
  else {
    fprintf(f, "[");
    for (i = am->ntensors; i < am->nboxes; i++) {
      const map_box *b = &am->boxes[i];
      fprintf(
          f, "%s{\"op\": %d, \"slot\": %d, \"offset\": %lu, \"bytes\": %lu}",
          i > am->ntensors ? ", " : "", b->first, b->slot, b->offset, b->bytes);
    }
    fprintf(f, "]");
  }
  /* buffers of patch-based execution (one entry per chain: its operators,
   * rows a band, the band buffers' offset and bytes), when the plan has
   * them; they are the last scratch buffer of the chain's first operator */
  fprintf(f, ", \"patch_buffers\": [");
  if (am->it->patch_rows) {
    long off = -1;
    for (i = am->ntensors; i < am->nboxes; i++)
      if (am->boxes[i].first == am->it->patch_first &&
          am->boxes[i].last == am->it->patch_last)
        off = (long)am->boxes[i].offset;
    fprintf(f,
            "{\"first_op\": %d, \"last_op\": %d, \"rows\": %d, "
            "\"offset\": %ld, \"bytes\": %lu, \"copied_bytes\": %llu}",
            (int)am->it->patch_first, (int)am->it->patch_last,
            (int)am->it->patch_rows, off, (unsigned long)am->it->patch_bytes,
            (unsigned long long)am->it->patch_copied);
  }
  fprintf(f, "]}\n");
}

/* text for SVG: XML's special characters escaped */
static void svg_text(FILE *f, const char *s, size_t n) {
  size_t i;
  for (i = 0; i < n && s[i]; i++)
    switch (s[i]) {
    case '&':
      fputs("&amp;", f);
      break;
    case '<':
      fputs("&lt;", f);
      break;
    case '>':
      fputs("&gt;", f);
      break;
    case '"':
      fputs("&quot;", f);
      break;
    default:
      if ((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7F)
        fputc(s[i], f);
      else
        fputc('?', f); /* control bytes and non-ASCII: not always UTF-8 */
    }
}

/* A tick step of 1, 2 or 5 times a power of ten giving at most `most`
 * ticks over `range`. */
static unsigned long map_step(unsigned long range, unsigned long most) {
  unsigned long p = 1;
  for (;;) {
    if (range / p <= most)
      return p;
    if (range / (2 * p) <= most)
      return 2 * p;
    if (range / (5 * p) <= most)
      return 5 * p;
    p *= 10;
  }
}

static void map_svg(FILE *f, const arena_map *am) {
  const tflc_interpreter *it = am->it;
  const int32_t nops = it->num_ops > 0 ? it->num_ops : 1;
  const double cw = nops <= 25 ? 40.0 : nops >= 100 ? 10.0 : 1000.0 / nops;
  const double left = 80, top = 62, ph = 640, pw = cw * nops;
  const double scale = am->total ? ph / (double)am->total : 1.0;
  const double width = left + pw + 20, height = top + ph + 56;
  unsigned long step, v;
  int32_t i, ostep;
  char pb[200];
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
          "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
          "font-family=\"sans-serif\" font-size=\"10\">\n",
          width, height, width, height);
  fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  fprintf(f, "<text x=\"%.0f\" y=\"16\" font-size=\"13\">", left);
  svg_text(f, am->model_path, strlen(am->model_path));
  fprintf(f, "</text>\n<text x=\"%.0f\" y=\"32\">plan: ", left);
  plan_text(it, pb, sizeof pb);
  svg_text(f, pb, strlen(pb));
  fprintf(f,
          "</text>\n<text x=\"%.0f\" y=\"47\">arena %lu B%s: activations "
          "%lu B, persistent %lu B (%s); x: operator, y: arena offset "
          "(bytes)</text>\n",
          left, am->total, am->arena_given ? " (given)" : "", am->planned,
          am->persistent, am->bits == 32 ? "a 32-bit target" : "this host");
  /* the plot's frame and the offset axis (0 at the bottom) */
  fprintf(f,
          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
          "fill=\"#f7f7f7\" stroke=\"#888\"/>\n",
          left, top, pw, ph);
  step = map_step(am->total, 8);
  for (v = 0; v <= am->total; v += step) {
    const double y = top + ph - (double)v * scale;
    fprintf(f,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.1f\" "
            "text-anchor=\"end\">%lu</text>\n",
            left, y, left + pw, y, left - 4, y + 3, v);
    if (step > am->total - v)
      break;
  }
  /* the operator axis */
  ostep = (int32_t)map_step((unsigned long)nops, (unsigned long)(pw / 28));
  for (i = 0; i < nops; i += ostep)
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n",
            left + cw * (i + 0.5), top + ph + 14, i);
  fprintf(f,
          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">operator "
          "index</text>\n",
          left + pw / 2, top + ph + 32);
  /* the persistent records, over every operator */
  if (am->persistent) {
    const double y = top + ph - (double)am->total * scale;
    const double h = (double)am->persistent * scale;
    fprintf(f,
            "<g><title>persistent: %lu bytes at offset %lu (records, "
            "operator state, requantization)</title><rect x=\"%.1f\" "
            "y=\"%.1f\" width=\"%.1f\" height=\"%.2f\" fill=\"#9a9a9a\" "
            "stroke=\"#555\" stroke-width=\"0.5\"/>",
            am->persistent, am->persistent_offset, left, y, pw,
            h < 0.5 ? 0.5 : h);
    if (h >= 12)
      fprintf(f,
              "<text x=\"%.1f\" y=\"%.1f\" fill=\"white\">persistent %lu "
              "B</text>",
              left + 4, y + (h > 24 ? 14 : h / 2 + 4), am->persistent);
    fprintf(f, "</g>\n");
  }
  for (i = 0; i < am->nboxes; i++) {
    const map_box *b = &am->boxes[i];
    const double x = left + cw * b->first, w = cw * (b->last - b->first + 1);
    const double h = (double)b->bytes * scale;
    const double y = top + ph - (double)(b->offset + b->bytes) * scale;
    const char *name = NULL;
    uint32_t nl = 0;
    tflc_tensor tt;
    if (b->tensor >= 0) {
      /* a hue of its own, spread around the circle */
      const int hue = (int)((b->tensor * 137) % 360);
      if (tflc_model_tensor(am->m, 0, b->tensor, &tt, &name, &nl) != TFLC_OK)
        name = NULL;
      fprintf(f, "<g><title>tensor %d ", b->tensor);
      svg_text(f, name ? name : "", name ? nl : 0);
      fprintf(f,
              ": %lu bytes at offset %lu, operators %d-%d</title><rect "
              "x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" height=\"%.2f\" "
              "fill=\"hsl(%d,60%%,72%%)\" fill-opacity=\"0.85\" "
              "stroke=\"hsl(%d,50%%,35%%)\" stroke-width=\"0.6\"/>",
              b->bytes, b->offset, b->first, b->last, x, y, w,
              h < 0.5 ? 0.5 : h, hue, hue);
      if (h >= 11 && w >= 26) {
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">t%d", x + 2,
                y + (h >= 24 ? 11 : h / 2 + 3.5), b->tensor);
        if (h >= 24 && w >= 60)
          fprintf(f, "</text><text x=\"%.1f\" y=\"%.1f\">%lu B", x + 2, y + 22,
                  b->bytes);
        fprintf(f, "</text>");
      }
      fprintf(f, "</g>\n");
    } else {
      fprintf(f,
              "<g><title>scratch %d of operator %d (%s): %lu bytes at "
              "offset %lu</title><rect x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" "
              "height=\"%.2f\" fill=\"#f4b942\" stroke=\"#a06d00\" "
              "stroke-width=\"0.6\"/></g>\n",
              b->slot, b->first, tflc_opcode_name(it->ops[b->first].code),
              b->bytes, b->offset, x, y, w, h < 0.5 ? 0.5 : h);
    }
  }
  fprintf(f,
          "<text x=\"%.1f\" y=\"%.1f\">boxes: tensors (tN: tensor N of the "
          "model), orange: operator scratch, gray: persistent; hover for "
          "details</text>\n",
          left, top + ph + 48);
  fprintf(f, "</svg>\n");
}

/* Writes the plan of `it` (subgraph 0) to `path`: JSON when it ends in
 * ".json" or `json` is set, SVG when it ends in ".svg". */
static void arena_map_write(const char *path, int json,
                            const tflc_interpreter *it, const tflc_model *m,
                            const char *model_path, int bits,
                            unsigned long arena_given,
                            const tflc_options *opt) {
  const size_t n = strlen(path);
  const int as_json = json || (n >= 5 && !strcmp(path + n - 5, ".json"));
  arena_map am;
  FILE *f;
  if (!as_json && !(n >= 4 && !strcmp(path + n - 4, ".svg")))
    die("--arena-map %s: the file must end in .svg or .json (or give --json)",
        path);
  memset(&am, 0, sizeof am);
  am.it = it;
  am.m = m;
  am.model_path = model_path;
  am.bits = bits;
  am.arena_given = arena_given;
  map_build(&am, opt);
  f = fopen(path, "w");
  if (!f)
    die("cannot write %s", path);
  if (as_json)
    map_json(f, &am);
  else
    map_svg(f, &am);
  if (fclose(f) != 0)
    die("cannot write %s", path);
  free(am.boxes);
}

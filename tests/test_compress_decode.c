/* tests/test_compress_decode.c - the compressor's encodings beyond LUT:
 * Huffman and Prune TFLM_DECODE (tflc_encode_huffman / tflc_encode_prune
 * and the stage's automatic choice, TFLM spec entries), pruning in
 * tflc_bin, INT4 filters (--to-int4).
 *
 * Every encoding is decoded back through the runtime's decoders (the ones
 * tests/test_decode.c holds to TFLM's outputs) and must give the values it
 * was made from; compressed models must give the outputs of the model
 * they came from. Expectations come from the data the tests make (value
 * counts, element positions), never from the compressor. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#endif
#include "../tflc_write.h"
#include "harness.h"
#include "models.h"

#include <stdlib.h>

static uint8_t arena[1 << 20] __attribute__((aligned(16)));

/* ---- encoders ------------------------------------------------------------ */

/* Decodes Huffman bytes as the runtime does (DCM read here from the
 * format: byte 5 = (first - 1) << 4 | wide) and compares with data. */
static void check_huffman_bytes(int type, const uint8_t *data, size_t count,
                                const uint8_t *enc, size_t ne,
                                const uint8_t *anc, size_t na) {
  const size_t es = type == TFLC_INT8 ? 1 : 2;
  const int wide = anc[5] & 1;
  tflc_const c = tflc_const_huffman(
      enc, (uint32_t)ne, anc + 16, (uint32_t)((na - 16) / (wide ? 4 : 2)), wide,
      (anc[5] >> 4) + 1, (tflc_type)type, (int32_t)count, NULL);
  uint8_t *out = (uint8_t *)malloc(count * es);
  int32_t where = -1;
  if (!out)
    abort();
  CHECK_EQ_INT(anc[0], 1); /* DCM: Huffman, versions 1 */
  CHECK_EQ_INT(anc[1], 1);
  CHECK_EQ_INT(anc[4], 1);
  CHECK_EQ_INT(ne % 4, 0); /* whole 32-bit words, as TFLM reads them */
  CHECK(!(type == TFLC_INT16 && !wide)); /* TFLM: INT16 needs 32 bits */
  CHECK_EQ_INT(tflc_const_check(&c, &where), TFLC_CONST_OK);
  tflc_lut_decode(&c, 0, (int32_t)count, out);
  CHECK_EQ_MEM(out, data, count * es);
  free(out);
}

static void test_huffman_encoder(void) {
  static const int nsyms[] = {1, 2, 3, 16, 60, 256};
  size_t k, i;
  for (k = 0; k < sizeof nsyms / sizeof nsyms[0]; k++) {
    int type;
    for (type = 0; type < 2; type++) {
      const int t = type ? TFLC_INT16 : TFLC_INT8;
      const size_t es = type ? 2 : 1, count = 500 + 97 * k;
      uint8_t *d = (uint8_t *)malloc(count * es), *enc = NULL, *anc = NULL;
      size_t ne = 0, na = 0;
      int tb;
      if (!d)
        abort();
      for (i = 0; i < count; i++) { /* skewed: small symbols more often */
        const int32_t a = rng_below(nsyms[k]), b = rng_below(nsyms[k]);
        const int32_t v = (a < b ? a : b) * (type ? 257 : 3) - 90;
        d[i * es] = (uint8_t)((uint32_t)v & 0xFFu);
        if (type)
          d[i * es + 1] = (uint8_t)(((uint32_t)v >> 8) & 0xFFu);
      }
      for (tb = 0; tb <= 32; tb += 16) {
        tflc_status st =
            tflc_encode_huffman(t, d, count, tb, 0, &enc, &ne, &anc, &na);
        if (tb == 16 && type) {
          CHECK_EQ_INT(st, TFLC_ERR_ARG); /* no 16-bit table for INT16 */
          continue;
        }
        CHECK_EQ_INT(st, TFLC_OK);
        if (st != TFLC_OK)
          continue;
        CHECK_EQ_INT(anc[5] & 1, tb == 32 || type ? 1 : 0);
        check_huffman_bytes(t, d, count, enc, ne, anc, na);
        /* a skewed code is shorter than the raw values (but for one
         * symbol, whose 1-bit codes are still 1/8 of a byte) */
        CHECK(ne < count * es);
        free(enc);
        free(anc);
      }
      /* a fixed first level, from 1 bit (deep links) up */
      for (tb = 1; tb <= 12; tb += 5) {
        CHECK_EQ_INT(
            tflc_encode_huffman(t, d, count, 0, tb, &enc, &ne, &anc, &na),
            TFLC_OK);
        CHECK_EQ_INT((anc[5] >> 4) + 1, tb);
        check_huffman_bytes(t, d, count, enc, ne, anc, na);
        free(enc);
        free(anc);
      }
      free(d);
    }
  }
  /* types TFLM's Huffman decoder does not write */
  {
    uint8_t *enc, *anc;
    size_t ne, na;
    int32_t x[4] = {1, 2, 3, 4};
    CHECK_EQ_INT(
        tflc_encode_huffman(TFLC_INT32, x, 4, 0, 0, &enc, &ne, &anc, &na),
        TFLC_ERR_TYPE);
    CHECK(enc == NULL && anc == NULL);
  }
}

/* Prune bytes decoded as the runtime does, against data. */
static void check_prune_bytes(int type, const uint8_t *data, size_t count,
                              const int64_t *zp, int32_t channels, int alt,
                              int per_channel, const uint8_t *enc, size_t ne,
                              const uint8_t *anc, size_t na) {
  const size_t es = tflc_type_size(type);
  tflc_const c = tflc_const_prune(
      enc, (uint32_t)ne, anc + 16, (uint32_t)((na - 16) / es), (tflc_type)type,
      (int32_t)count, zp ? (int32_t)zp[0] : 0, NULL);
  uint8_t *out = (uint8_t *)malloc(count * es);
  if (!out)
    abort();
  if (per_channel)
    tflc_const_prune_channels(&c, zp, 8, channels, alt);
  CHECK_EQ_INT(anc[0], 2);
  CHECK_EQ_INT(anc[1], 1);
  CHECK_EQ_INT(anc[4], 1);
  CHECK_EQ_INT(ne, (count + 7) / 8);
  CHECK_EQ_INT(tflc_const_check(&c, NULL), TFLC_CONST_OK);
  tflc_lut_decode(&c, 0, (int32_t)count, out);
  CHECK_EQ_MEM(out, data, count * es);
  free(out);
}

static void test_prune_encoder(void) {
  static const int types[6] = {TFLC_INT8,  TFLC_BOOL,  TFLC_INT16,
                               TFLC_INT32, TFLC_INT64, TFLC_FLOAT32};
  int t, v;
  for (t = 0; t < 6; t++)
    for (v = 0; v < 4; v++) {
      const int type = types[t];
      const size_t es = tflc_type_size(type);
      const int32_t channels = 4;
      const size_t count = 4 * 37;
      const int alt = v & 1, pc = type == TFLC_INT8 && (v & 2);
      int64_t zp[4] = {0, 0, 0, 0};
      uint8_t *d = (uint8_t *)calloc(count, es), *enc = NULL, *anc = NULL;
      size_t ne = 0, na = 0, i, zeros = 0;
      if (!d)
        abort();
      if (pc) {
        zp[0] = -5;
        zp[1] = 0;
        zp[2] = 100;
        zp[3] = -128;
      } else if (type == TFLC_INT8 && v == 1) {
        zp[0] = zp[1] = zp[2] = zp[3] = 7; /* one zero point */
      }
      for (i = 0; i < count; i++) {
        const size_t ch = alt ? i % 4 : i / (count / 4);
        if (rng_below(100) < 60) { /* pruned: what the decoder writes */
          if (es == 1)
            d[i] = (uint8_t)((uint64_t)zp[pc ? ch : 0] & 0xFFu);
          zeros++;
        } else { /* kept: anything but that value */
          size_t b;
          for (b = 0; b < es; b++)
            d[i * es + b] = (uint8_t)(1 + rng_below(200));
          if (type == TFLC_BOOL)
            d[i] = 1;
          if (es == 1 && d[i] == (uint8_t)((uint64_t)zp[pc ? ch : 0] & 0xFFu))
            d[i] = (uint8_t)(d[i] + 1u);
        }
      }
      CHECK_EQ_INT(tflc_encode_prune(type, d, count, zp, 4, channels, alt, &enc,
                                     &ne, &anc, &na),
                   TFLC_OK);
      if (!enc)
        continue;
      /* the kept values are the elements that are not the pruned value */
      CHECK_EQ_INT(na, 16 + (count - zeros) * es);
      check_prune_bytes(type, d, count, zp, channels, alt, pc, enc, ne, anc,
                        na);
      free(enc);
      free(anc);
      free(d);
    }
  /* what TFLM's Prune decoder refuses */
  {
    uint8_t d[12] = {0}, *enc, *anc;
    size_t ne, na;
    int64_t zp[2] = {0, 3};
    CHECK_EQ_INT(
        tflc_encode_prune(TFLC_INT16, d, 6, zp, 2, 2, 0, &enc, &ne, &anc, &na),
        TFLC_ERR_QUANT); /* non-zero zero point, not INT8 */
    CHECK_EQ_INT(
        tflc_encode_prune(TFLC_INT8, d, 7, zp, 2, 2, 0, &enc, &ne, &anc, &na),
        TFLC_ERR_QUANT); /* 2 channels do not divide 7 */
    CHECK_EQ_INT(tflc_encode_prune(TFLC_UINT8, d, 7, NULL, 0, 1, 0, &enc, &ne,
                                   &anc, &na),
                 TFLC_ERR_TYPE);
  }
}

/* ---- models -------------------------------------------------------------- */
/* CONV_2D [1,8,8,4] -> DEPTHWISE_CONV_2D -> FULLY_CONNECTED, int8, with
 * filters drawn by `pick` (0: skewed int8 with zeros, 1: -8..7). */
static uint8_t *build_net(int pick, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  static const int32_t xd[4] = {1, 8, 8, 4}, cfd[4] = {6, 3, 3, 4},
                       c_out[4] = {1, 8, 8, 6}, dwd[4] = {1, 3, 3, 6},
                       r_d[2] = {1, 384}, fcd[2] = {5, 384}, o_d[2] = {1, 5},
                       b6[1] = {6}, b5[1] = {5}, sh_d[1] = {2};
  static const int32_t shape_v[2] = {1, 384};
  int8_t cf[216], dwf[54], fc[1920];
  int32_t cb[6], dwb[6], fcb[5], i, t[14], in[3], out[1];
  float cfs[6], dws[6], cbs[6], dwbs[6], one = 0.02f, fcbs = 0.5f * 0.02f;
  int64_t z0[6] = {0, 0, 0, 0, 0, 0}, zx = -3, zc = 2, zf = 1;
  float sx = 0.5f, sc = 0.25f, sdw = 0.3f, sf = 1.5f;
  tflc_w_quant q;
  tflc_w_option o[5];
  uint8_t *bytes;
  int8_t *all[3];
  int32_t lens[3] = {216, 54, 1920}, k;
  all[0] = cf;
  all[1] = dwf;
  all[2] = fc;
  for (k = 0; k < 3; k++)
    for (i = 0; i < lens[k]; i++) {
      if (pick == 1) {
        all[k][i] = (int8_t)(rng_below(16) - 8);
      } else {
        const int32_t r = rng_below(100);
        all[k][i] = (int8_t)(r < 50 ? 0 : (rng_below(11) - 5) * 9 + r % 3);
      }
    }
  for (i = 0; i < 6; i++) {
    cfs[i] = 0.01f * (float)(1 + i % 3);
    dws[i] = 0.02f * (float)(1 + i % 2);
    cbs[i] = sx * cfs[i];
    dwbs[i] = sc * dws[i];
    cb[i] = rng_below(3) ? 0 : rng_below(401) - 200;
    dwb[i] = rng_below(401) - 200;
  }
  for (i = 0; i < 5; i++)
    fcb[i] = rng_below(2) ? 0 : rng_below(801) - 400;
  q.axis = 0;
  q.count = 1;
  q.scale = &sx;
  q.zero_point = &zx;
  t[0] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, xd, NULL, 0, "x", &q);
  q.scale = cfs;
  q.zero_point = z0;
  q.count = 6;
  t[1] =
      tflc_writer_tensor(w, 0, TFLC_INT8, 4, cfd, cf, sizeof cf, "conv_w", &q);
  q.scale = cbs;
  t[2] =
      tflc_writer_tensor(w, 0, TFLC_INT32, 1, b6, cb, sizeof cb, "conv_b", &q);
  q.scale = &sc;
  q.zero_point = &zc;
  q.count = 1;
  t[3] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, c_out, NULL, 0, "c", &q);
  q.scale = dws;
  q.zero_point = z0;
  q.count = 6;
  q.axis = 3;
  t[4] =
      tflc_writer_tensor(w, 0, TFLC_INT8, 4, dwd, dwf, sizeof dwf, "dw_w", &q);
  q.scale = dwbs;
  q.axis = 0;
  t[5] =
      tflc_writer_tensor(w, 0, TFLC_INT32, 1, b6, dwb, sizeof dwb, "dw_b", &q);
  q.scale = &sdw;
  q.zero_point = &zc;
  q.count = 1;
  t[6] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, c_out, NULL, 0, "d", &q);
  t[7] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, r_d, NULL, 0, "r", &q);
  t[8] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, sh_d, shape_v, sizeof shape_v,
                            "shape", NULL);
  q.scale = &one;
  q.zero_point = z0;
  t[9] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, fcd, fc, sizeof fc, "fc_w", &q);
  q.scale = &fcbs;
  t[10] =
      tflc_writer_tensor(w, 0, TFLC_INT32, 1, b5, fcb, sizeof fcb, "fc_b", &q);
  q.scale = &sf;
  q.zero_point = &zf;
  t[11] = tflc_writer_tensor(w, 0, TFLC_INT8, 2, o_d, NULL, 0, "y", &q);
  o[0] = opt_u8(0, 0); /* CONV_2D: SAME, stride 1, RELU */
  o[1] = opt_i32(1, 1);
  o[2] = opt_i32(2, 1);
  o[3] = opt_u8(3, 1);
  in[0] = t[0];
  in[1] = t[1];
  in[2] = t[2];
  out[0] = t[3];
  tflc_writer_op(w, 0, TFLC_OP_CONV_2D, NULL, 3, in, 1, out, 1, 4, o);
  o[3] = opt_i32(3, 1); /* DEPTHWISE: multiplier 1, activation NONE */
  o[4] = opt_u8(4, 0);
  in[0] = t[3];
  in[1] = t[4];
  in[2] = t[5];
  out[0] = t[6];
  tflc_writer_op(w, 0, TFLC_OP_DEPTHWISE_CONV_2D, NULL, 3, in, 1, out, 2, 5, o);
  in[0] = t[6];
  in[1] = t[8];
  out[0] = t[7];
  tflc_writer_op(w, 0, TFLC_OP_RESHAPE, NULL, 2, in, 1, out, 0, 0, NULL);
  o[0] = opt_u8(0, 0);
  in[0] = t[7];
  in[1] = t[9];
  in[2] = t[10];
  out[0] = t[11];
  tflc_writer_op(w, 0, TFLC_OP_FULLY_CONNECTED, NULL, 3, in, 1, out, 8, 1, o);
  tflc_writer_inputs(w, 0, 1, &t[0]);
  tflc_writer_outputs(w, 0, 1, &t[11]);
  bytes = finish_model(w, size);
  tflc_writer_destroy(w);
  return bytes;
}

/* Runs a model on a fixed input; output bytes in out (5 int8). */
static tflc_status run_net(const uint8_t *bytes, size_t size, int8_t *out) {
  tflc_model m;
  tflc_interpreter it;
  tflc_status st = tflc_model_init(&m, bytes, size);
  uint32_t i, s = 4242u;
  if (st)
    return st;
  st = tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL);
  if (st)
    return st;
  for (i = 0; i < 256; i++)
    ((int8_t *)tflc_input(&it, 0)->data)[i] =
        (int8_t)((rng_next(&s) & 0xFFu) - 128u);
  st = tflc_invoke(&it);
  memcpy(out, tflc_output(&it, 0)->data, 5);
  return st;
}

/* The report line of tensor name, or NULL. */
static const tflc_stage_entry *entry_named(const tflc_stage_report *r,
                                           const char *name) {
  int32_t i;
  for (i = 0; i < r->nentries; i++)
    if (!strcmp(r->entries[i].name, name))
      return &r->entries[i];
  return NULL;
}

static void test_compress_methods(void) {
  static const int methods[] = {TFLC_METHOD_HUFFMAN, TFLC_METHOD_PRUNE,
                                TFLC_METHOD_LUT | TFLC_METHOD_HUFFMAN |
                                    TFLC_METHOD_PRUNE};
  size_t size = 0, k;
  uint8_t *model = build_net(0, &size);
  int8_t ref[5], got[5];
  CHECK(model != NULL);
  if (!model)
    return;
  CHECK_EQ_INT(run_net(model, size, ref), TFLC_OK);
  for (k = 0; k < sizeof methods / sizeof methods[0]; k++) {
    tflc_compress_options o;
    tflc_stage_report rep;
    uint8_t *out = NULL;
    size_t out_size = 0;
    int32_t i, ndone = 0;
    memset(&o, 0, sizeof o);
    o.methods = methods[k];
    CHECK_EQ_INT(tflc_compress(model, size, &o, &out, &out_size, &rep),
                 TFLC_OK);
    for (i = 0; i < rep.nentries; i++) {
      const tflc_stage_entry *e = &rep.entries[i];
      size_t best = 0;
      if (!e->done)
        continue;
      ndone++;
      /* the method used is one asked for, and the cheapest of them */
      CHECK(e->method & methods[k]);
      if (e->size_lut && (!best || e->size_lut < best))
        best = e->size_lut;
      if (e->size_huffman && (!best || e->size_huffman < best))
        best = e->size_huffman;
      if (e->size_prune && (!best || e->size_prune < best))
        best = e->size_prune;
      CHECK_EQ_INT(e->bytes_after, best);
      CHECK(e->bytes_after < e->bytes_before);
      if (e->method == TFLC_METHOD_HUFFMAN)
        CHECK(e->type == TFLC_INT8 || e->type == TFLC_INT16);
    }
    /* the FC weights (1920 bytes, half zeros, few values) at least; the
     * small filters do not pay for their DECODE records */
    CHECK(ndone >= 1);
    CHECK(entry_named(&rep, "fc_w") && entry_named(&rep, "fc_w")->done);
    CHECK(entry_named(&rep, "dw_w") && !entry_named(&rep, "dw_w")->done &&
          strstr(entry_named(&rep, "dw_w")->reason, "not smaller") != NULL);
    CHECK(out_size < size);
    CHECK_EQ_INT(run_net(out, out_size, got), TFLC_OK);
    CHECK_EQ_MEM(got, ref, 5);
    tflc_stage_report_free(&rep);
    free(out);
  }
  /* Huffman / Prune in the metadata format: refused */
  {
    tflc_compress_options o;
    tflc_stage_report rep;
    uint8_t *out = NULL;
    size_t out_size = 0;
    memset(&o, 0, sizeof o);
    o.format = TFLC_W_METADATA;
    o.methods = TFLC_METHOD_HUFFMAN;
    CHECK_EQ_INT(tflc_compress(model, size, &o, &out, &out_size, &rep),
                 TFLC_ERR_ARG);
    CHECK(strstr(rep.error, "DECODE format") != NULL);
    tflc_stage_report_free(&rep);
  }
  free(model);
}

static void test_compress_spec(void) {
  /* tensors 1 (conv filter), 5 (depthwise bias, INT32), 9 (FC weights) */
  static const char spec[] = "tensors:\n"
                             "  - subgraph: 0\n"
                             "    tensor: 1\n"
                             "    compression:\n"
                             "      - huffman:\n"
                             "  - subgraph: 0\n"
                             "    tensor: 5\n"
                             "    compression:\n"
                             "      - pruning: {}\n"
                             "  - subgraph: 0\n"
                             "    tensor: 9\n"
                             "    compression:\n"
                             "      - lut:\n"
                             "          index_bitwidth: 7\n";
  static const char bad[] = "tensors:\n"
                            "  - subgraph: 0\n"
                            "    tensor: 2\n"
                            "    compression:\n"
                            "      - huffman:\n";
  size_t size = 0;
  uint8_t *model = build_net(0, &size), *out = NULL;
  size_t out_size = 0;
  int8_t ref[5], got[5];
  tflc_compress_options o;
  tflc_stage_report rep;
  if (!model)
    return;
  CHECK_EQ_INT(run_net(model, size, ref), TFLC_OK);
  memset(&o, 0, sizeof o);
  o.spec = spec;
  o.spec_len = sizeof spec - 1;
  CHECK_EQ_INT(tflc_compress(model, size, &o, &out, &out_size, &rep), TFLC_OK);
  CHECK(entry_named(&rep, "conv_w") &&
        entry_named(&rep, "conv_w")->method == TFLC_METHOD_HUFFMAN);
  CHECK(entry_named(&rep, "dw_b") &&
        entry_named(&rep, "dw_b")->method == TFLC_METHOD_PRUNE);
  CHECK(entry_named(&rep, "fc_w") &&
        entry_named(&rep, "fc_w")->method == TFLC_METHOD_LUT);
  CHECK_EQ_INT(run_net(out, out_size, got), TFLC_OK);
  CHECK_EQ_MEM(got, ref, 5);
  /* and the model says so: tflc_model_lut sees the kinds */
  {
    tflc_model m;
    int32_t t, nh = 0, np = 0, nl = 0;
    CHECK_EQ_INT(tflc_model_init(&m, out, out_size), TFLC_OK);
    for (t = 0; t < tflc_model_num_tensors(&m, 0); t++) {
      tflc_const c;
      if (!tflc_model_lut(&m, 0, t, &c, NULL, NULL))
        continue;
      nh += c.kind == TFLC_CONST_HUFFMAN;
      np += c.kind == TFLC_CONST_PRUNE;
      nl += c.kind == TFLC_CONST_RAW_LUT;
    }
    CHECK_EQ_INT(nh, 1);
    CHECK_EQ_INT(np, 1);
    CHECK_EQ_INT(nl, 1);
  }
  tflc_stage_report_free(&rep);
  free(out);
  /* Huffman of an INT32 bias: TFLM's decoder writes INT8 / INT16 only */
  o.spec = bad;
  o.spec_len = sizeof bad - 1;
  CHECK_EQ_INT(tflc_compress(model, size, &o, &out, &out_size, &rep),
               TFLC_ERR_ARG);
  CHECK(strstr(rep.error, "INT8, INT16 only") != NULL);
  tflc_stage_report_free(&rep);
  free(model);
}

/* count elements of the model's constant `name` equal to `v` (int8) */
static int32_t count_value(const uint8_t *bytes, size_t size, const char *name,
                           int8_t v, int32_t *total) {
  tflc_model m;
  int32_t t, n = 0, i;
  *total = 0;
  if (tflc_model_init(&m, bytes, size) != TFLC_OK)
    return -1;
  for (t = 0; t < tflc_model_num_tensors(&m, 0); t++) {
    tflc_tensor x;
    const char *nm;
    uint32_t nl;
    if (tflc_model_tensor(&m, 0, t, &x, &nm, &nl) != TFLC_OK ||
        nl != strlen(name) || memcmp(nm, name, nl) != 0 || !x.data)
      continue;
    for (i = 0; i < (int32_t)x.bytes; i++)
      n += ((const int8_t *)x.data)[i] == v;
    *total = (int32_t)x.bytes;
  }
  return n;
}

static void test_bin_prune(void) {
  size_t size = 0, psize = 0, csize = 0;
  uint8_t *model = build_net(0, &size), *pruned = NULL, *comp = NULL;
  tflc_bin_options b;
  tflc_compress_options o;
  tflc_stage_report rep;
  int32_t total = 0, z0, z1;
  int8_t a[5], c[5];
  if (!model)
    return;
  memset(&b, 0, sizeof b);
  b.prune = 0.75;
  CHECK_EQ_INT(tflc_bin(model, size, &b, &pruned, &psize, &rep), TFLC_OK);
  /* the FC weights: 1920 elements, 75% of them now 0 (their zero point) */
  z0 = count_value(model, size, "fc_w", 0, &total);
  z1 = count_value(pruned, psize, "fc_w", 0, &total);
  CHECK_EQ_INT(total, 1920);
  CHECK(z1 >= 1440);
  CHECK(z1 >= z0);
  CHECK(entry_named(&rep, "fc_w") &&
        entry_named(&rep, "fc_w")->size_prune == 1440);
  tflc_stage_report_free(&rep);
  /* the pruned elements were the smallest: no kept one is smaller in
   * magnitude than a pruned one was (checked on the original values) */
  {
    tflc_model m0, m1;
    int32_t t, i;
    const int8_t *w0 = NULL, *w1 = NULL;
    int32_t max_pruned = 0, min_kept = 1000;
    CHECK_EQ_INT(tflc_model_init(&m0, model, size), TFLC_OK);
    CHECK_EQ_INT(tflc_model_init(&m1, pruned, psize), TFLC_OK);
    for (t = 0; t < tflc_model_num_tensors(&m0, 0); t++) {
      tflc_tensor x;
      const char *nm;
      uint32_t nl;
      (void)tflc_model_tensor(&m0, 0, t, &x, &nm, &nl);
      if (nl == 4 && !memcmp(nm, "fc_w", 4))
        w0 = (const int8_t *)x.data;
    }
    for (t = 0; t < tflc_model_num_tensors(&m1, 0); t++) {
      tflc_tensor x;
      const char *nm;
      uint32_t nl;
      (void)tflc_model_tensor(&m1, 0, t, &x, &nm, &nl);
      if (nl == 4 && !memcmp(nm, "fc_w", 4))
        w1 = (const int8_t *)x.data;
    }
    CHECK(w0 && w1);
    for (i = 0; w0 && w1 && i < 1920; i++) {
      const int32_t mag = w0[i] < 0 ? -w0[i] : w0[i];
      if (w1[i] == 0 && mag > max_pruned)
        max_pruned = mag;
      if (w1[i] != 0 && mag < min_kept)
        min_kept = mag;
    }
    CHECK(max_pruned <= min_kept);
  }
  /* Prune encodes it smaller than the raw model, with the same outputs */
  memset(&o, 0, sizeof o);
  o.methods = TFLC_METHOD_PRUNE;
  CHECK_EQ_INT(tflc_compress(pruned, psize, &o, &comp, &csize, &rep), TFLC_OK);
  CHECK(entry_named(&rep, "fc_w") &&
        entry_named(&rep, "fc_w")->method == TFLC_METHOD_PRUNE);
  CHECK(entry_named(&rep, "fc_w") &&
        entry_named(&rep, "fc_w")->bytes_after == 16 + 240 + 480);
  CHECK(csize < psize);
  CHECK_EQ_INT(run_net(pruned, psize, a), TFLC_OK);
  CHECK_EQ_INT(run_net(comp, csize, c), TFLC_OK);
  CHECK_EQ_MEM(c, a, 5);
  tflc_stage_report_free(&rep);
  free(comp);
  /* a fraction outside 0..1 */
  b.prune = 1.5;
  CHECK_EQ_INT(tflc_bin(model, size, &b, &comp, &csize, &rep), TFLC_ERR_ARG);
  tflc_stage_report_free(&rep);
  free(model);
  free(pruned);
}

static void test_to_int4(void) {
  size_t size = 0, out_size = 0;
  uint8_t *model = build_net(1, &size), *out = NULL;
  tflc_compress_options o;
  tflc_stage_report rep;
  int8_t ref[5], got[5];
  if (!model)
    return;
  CHECK_EQ_INT(run_net(model, size, ref), TFLC_OK);
  memset(&o, 0, sizeof o);
  o.to_int4 = 1;
  CHECK_EQ_INT(tflc_compress(model, size, &o, &out, &out_size, &rep), TFLC_OK);
  /* the three filters (FC per tensor) are INT4 now: half their bytes */
  CHECK(entry_named(&rep, "conv_w") &&
        entry_named(&rep, "conv_w")->method == TFLC_METHOD_INT4);
  CHECK(entry_named(&rep, "dw_w") &&
        entry_named(&rep, "dw_w")->method == TFLC_METHOD_INT4);
  CHECK(entry_named(&rep, "fc_w") &&
        entry_named(&rep, "fc_w")->bytes_after == 960);
  {
    tflc_model m;
    int32_t t, n4 = 0;
    CHECK_EQ_INT(tflc_model_init(&m, out, out_size), TFLC_OK);
    for (t = 0; t < tflc_model_num_tensors(&m, 0); t++) {
      tflc_tensor x;
      if (tflc_model_tensor(&m, 0, t, &x, NULL, NULL) == TFLC_OK &&
          x.type == TFLC_INT4) {
        n4++;
        CHECK_EQ_INT(x.bytes, (tflc__count(&x) + 1) / 2);
      }
    }
    CHECK_EQ_INT(n4, 3);
  }
  CHECK_EQ_INT(run_net(out, out_size, got), TFLC_OK);
  CHECK_EQ_MEM(got, ref, 5);
  tflc_stage_report_free(&rep);
  free(out);
  free(model);
  /* values outside -8..7 stay INT8 */
  model = build_net(0, &size);
  CHECK_EQ_INT(tflc_compress(model, size, &o, &out, &out_size, &rep), TFLC_OK);
  CHECK(entry_named(&rep, "conv_w") == NULL ||
        entry_named(&rep, "conv_w")->method != TFLC_METHOD_INT4);
  tflc_stage_report_free(&rep);
  free(out);
  free(model);
}

int main(void) {
  rng_seed(0x13579BDFu);
  RUN(test_huffman_encoder);
  RUN(test_prune_encoder);
  RUN(test_compress_methods);
  RUN(test_compress_spec);
  RUN(test_bin_prune);
  RUN(test_to_int4);
  return harness_report();
}

/* fuzz/models.h - small, valid models built with the tflc writer, one per
 * operator tflc supports, plain and compressed in both formats. Shared by
 * fuzz/gen_corpus.c (seed corpus) and tests/test_malformed.c (the models
 * that targeted damage is applied to).
 *
 * Host-side code: it needs tflc_write.h, with TFLC_IMPLEMENTATION and
 * TFLC_WRITE_IMPLEMENTATION, included before it. The helpers (add_tensor,
 * opt_u8, ..., and the random generator rng) are the tests' own, from
 * tests/models.h and tests/harness.h. */
#ifndef TFLC_FUZZ_MODELS_H
#define TFLC_FUZZ_MODELS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/models.h"

/* Compression applied to a model's constants: format 0 = none,
 * TFLC_W_METADATA or TFLC_W_DECODE; bits 1..8; pad_pow2 as the writer. */
typedef struct fm_comp {
  int format, bits, pad_pow2;
  int bias; /* also compress the bias (int32) */
} fm_comp;

/* Per-channel quantized constant: n scales along `axis`, zero points 0. */
static int32_t fm_tensor_pc(tflc_writer *w, int type, int32_t rank,
                            const int32_t *dims, const void *data, size_t size,
                            int32_t n, int32_t axis, const char *name) {
  float sc[64];
  int64_t zp[64];
  tflc_w_quant q;
  int32_t i;
  if (n > 64)
    n = 64;
  for (i = 0; i < n; i++) {
    sc[i] = 0.01f + 0.001f * (float)i;
    zp[i] = 0;
  }
  q.scale = sc;
  q.zero_point = zp;
  q.count = n;
  q.axis = axis;
  return tflc_writer_tensor(w, 0, type, rank, dims, data, size, name, &q);
}
/* int8 weights with at most 2^bits distinct values per slice */
static void fm_weights_s8(int8_t *p, size_t n, int bits) {
  size_t i;
  uint32_t u = 1u << (bits > 6 ? 6 : bits);
  for (i = 0; i < n; i++)
    p[i] = (int8_t)((int32_t)(rng() % u) - (int32_t)(u / 2));
}
static void fm_compress(tflc_writer *w, int32_t t, const fm_comp *c) {
  if (c && c->format && t >= 0)
    (void)tflc_writer_compress(w, 0, t, c->bits, c->format, c->pad_pow2);
}
static int fm_finish(tflc_writer *w, uint8_t **out, size_t *size) {
  tflc_status st = tflc_writer_finish(w, out, size);
  tflc_writer_destroy(w);
  return st == TFLC_OK;
}

/* ---- one model per operator ---------------------------------------------
 * Each returns 1 and a malloc'd model in *out, *size. */

/* CONV_2D or DEPTHWISE_CONV_2D, int8, per-channel filter, int32 bias. */
static int fm_conv(int depthwise, int same, int stride, const fm_comp *c,
                   uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t din[4] = {1, 5, 5, 2}, dout[4], df[4], db[1];
  int32_t cout = depthwise ? 4 : 3, x, f, b, y, in[3], oh;
  int8_t wt[3 * 3 * 3 * 4];
  int32_t bias[4] = {100, -200, 300, -400};
  tflc_w_option o[7];
  int n = 0;
  oh = same ? (5 + stride - 1) / stride : (5 - 3 + stride) / stride;
  dout[0] = 1;
  dout[1] = oh;
  dout[2] = oh;
  dout[3] = cout;
  if (depthwise) {
    df[0] = 1;
    df[1] = 3;
    df[2] = 3;
    df[3] = cout;
  } else {
    df[0] = cout;
    df[1] = 3;
    df[2] = 3;
    df[3] = 2;
  }
  db[0] = cout;
  fm_weights_s8(wt, sizeof wt, c && c->format ? c->bits : 8);
  x = add_tensor(w, TFLC_INT8, 4, din, NULL, 0, 0.5f, -1, "x");
  f = fm_tensor_pc(w, TFLC_INT8, 4, df, wt, (size_t)(9 * 2 * cout), cout,
                   depthwise ? 3 : 0, "filter");
  b = fm_tensor_pc(w, TFLC_INT32, 1, db, bias, 4u * (size_t)cout, cout, 0,
                   "bias");
  y = add_tensor(w, TFLC_INT8, 4, dout, NULL, 0, 0.25f, 3, "y");
  in[0] = x;
  in[1] = f;
  in[2] = b;
  o[n++] = opt_u8(0, same ? 0 : 1);
  o[n++] = opt_i32(1, stride);
  o[n++] = opt_i32(2, stride);
  if (depthwise) {
    o[n++] = opt_i32(3, 2);
    o[n++] = opt_u8(4, 1);
  } else {
    o[n++] = opt_u8(3, 3);
  }
  tflc_writer_op(w, 0, depthwise ? 4 : 3, NULL, 3, in, 1, &y,
                 (uint8_t)(depthwise ? 2 : 1), n, o);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  fm_compress(w, f, c);
  if (c && c->bias)
    fm_compress(w, b, c);
  return fm_finish(w, out, size);
}

/* FULLY_CONNECTED, int8 (per-tensor or per-channel) or float32. */
static int fm_fc(int fp, int per_channel, const fm_comp *c, uint8_t **out,
                 size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t din[2] = {2, 6}, dw[2] = {5, 6}, db[1] = {5}, dout[2] = {2, 5};
  int32_t x, f, b, y, in[3], i;
  int8_t wt[30];
  float wf[30], bf[5];
  int32_t bias[5] = {7, -7, 70, -70, 700};
  tflc_w_option o[2];
  fm_weights_s8(wt, sizeof wt, c && c->format ? c->bits : 8);
  for (i = 0; i < 30; i++)
    wf[i] = (float)wt[i] * 0.125f;
  for (i = 0; i < 5; i++)
    bf[i] = (float)bias[i] * 0.01f;
  if (fp) {
    x = add_tensor(w, TFLC_FLOAT32, 2, din, NULL, 0, 0, 0, "x");
    f = add_tensor(w, TFLC_FLOAT32, 2, dw, wf, sizeof wf, 0, 0, "w");
    b = add_tensor(w, TFLC_FLOAT32, 1, db, bf, sizeof bf, 0, 0, "b");
    y = add_tensor(w, TFLC_FLOAT32, 2, dout, NULL, 0, 0, 0, "y");
  } else {
    x = add_tensor(w, TFLC_INT8, 2, din, NULL, 0, 0.5f, 2, "x");
    if (per_channel)
      f = fm_tensor_pc(w, TFLC_INT8, 2, dw, wt, sizeof wt, 5, 0, "w");
    else
      f = add_tensor(w, TFLC_INT8, 2, dw, wt, sizeof wt, 0.02f, 0, "w");
    b = add_tensor(w, TFLC_INT32, 1, db, bias, sizeof bias, 0.01f, 0, "b");
    y = add_tensor(w, TFLC_INT8, 2, dout, NULL, 0, 0.3f, -5, "y");
  }
  in[0] = x;
  in[1] = f;
  in[2] = b;
  o[0] = opt_u8(0, 1);
  o[1] = opt_u8(2, 1);
  tflc_writer_op(w, 0, 9, NULL, 3, in, 1, &y, 8, 2, o);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  fm_compress(w, f, c);
  if (c && c->bias)
    fm_compress(w, b, c);
  return fm_finish(w, out, size);
}

/* AVERAGE_POOL_2D (avg = 1) or MAX_POOL_2D. */
static int fm_pool(int avg, int same, uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t din[4] = {1, 6, 6, 3}, dout[4] = {1, 3, 3, 3}, x, y;
  tflc_w_option o[6];
  (void)same;
  x = add_tensor(w, TFLC_INT8, 4, din, NULL, 0, 0.5f, 1, "x");
  y = add_tensor(w, TFLC_INT8, 4, dout, NULL, 0, 0.5f, 1, "y");
  o[0] = opt_u8(0, same ? 0 : 1);
  o[1] = opt_i32(1, 2);
  o[2] = opt_i32(2, 2);
  o[3] = opt_i32(3, 2);
  o[4] = opt_i32(4, 2);
  o[5] = opt_u8(5, 1);
  tflc_writer_op(w, 0, avg ? 1 : 17, NULL, 1, &x, 1, &y, 5, 6, o);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  return fm_finish(w, out, size);
}

static int fm_softmax(int fp, uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t d[2] = {2, 7}, x, y;
  tflc_w_option o = opt_f32(0, 1.0f);
  if (fp) {
    x = add_tensor(w, TFLC_FLOAT32, 2, d, NULL, 0, 0, 0, "x");
    y = add_tensor(w, TFLC_FLOAT32, 2, d, NULL, 0, 0, 0, "y");
  } else {
    x = add_tensor(w, TFLC_INT8, 2, d, NULL, 0, 0.1f, 0, "x");
    y = add_tensor(w, TFLC_INT8, 2, d, NULL, 0, 1.0f / 256.0f, -128, "y");
  }
  tflc_writer_op(w, 0, 25, NULL, 1, &x, 1, &y, 9, 1, &o);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  return fm_finish(w, out, size);
}

/* ADD with broadcasting; the second operand is a constant (compressible,
 * decoded whole before the op) when c is given. */
static int fm_add(int fp, const fm_comp *c, uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t da[3] = {2, 3, 4}, db[2] = {1, 4}, a, b, y, in[2], i;
  int8_t bv[4];
  float bf[4];
  tflc_w_option o = opt_u8(0, 0);
  fm_weights_s8(bv, 4, 2);
  for (i = 0; i < 4; i++)
    bf[i] = (float)bv[i] * 0.5f;
  if (fp) {
    a = add_tensor(w, TFLC_FLOAT32, 3, da, NULL, 0, 0, 0, "a");
    b = c ? add_tensor(w, TFLC_FLOAT32, 2, db, bf, sizeof bf, 0, 0, "b")
          : add_tensor(w, TFLC_FLOAT32, 2, db, NULL, 0, 0, 0, "b");
    y = add_tensor(w, TFLC_FLOAT32, 3, da, NULL, 0, 0, 0, "y");
  } else {
    a = add_tensor(w, TFLC_INT8, 3, da, NULL, 0, 0.5f, 1, "a");
    b = c ? add_tensor(w, TFLC_INT8, 2, db, bv, sizeof bv, 0.25f, -2, "b")
          : add_tensor(w, TFLC_INT8, 2, db, NULL, 0, 0.25f, -2, "b");
    y = add_tensor(w, TFLC_INT8, 3, da, NULL, 0, 0.75f, 0, "y");
  }
  in[0] = a;
  in[1] = b;
  tflc_writer_op(w, 0, 0, NULL, 2, in, 1, &y, 11, 1, &o);
  tflc_writer_inputs(w, 0, c ? 1 : 2, in);
  tflc_writer_outputs(w, 0, 1, &y);
  fm_compress(w, b, c);
  return fm_finish(w, out, size);
}

static int fm_mean(uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t din[4] = {1, 3, 4, 2}, dax[1] = {2}, dout[4] = {1, 1, 1, 2};
  int32_t axes[2] = {1, 2}, x, ax, y, in[2];
  tflc_w_option o = opt_u8(0, 1);
  x = add_tensor(w, TFLC_INT8, 4, din, NULL, 0, 0.5f, 0, "x");
  ax = add_tensor(w, TFLC_INT32, 1, dax, axes, sizeof axes, 0, 0, "axes");
  y = add_tensor(w, TFLC_INT8, 4, dout, NULL, 0, 0.4f, 1, "y");
  in[0] = x;
  in[1] = ax;
  tflc_writer_op(w, 0, 40, NULL, 2, in, 1, &y, 27, 1, &o);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  return fm_finish(w, out, size);
}

static int fm_pad(int type, uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t din[3] = {2, 3, 2}, dp[2] = {3, 2}, dout[3] = {3, 6, 2};
  int32_t pads[6] = {1, 0, 2, 1, 0, 0}, x, p, y, in[2];
  x = add_tensor(w, type, 3, din, NULL, 0, type == TFLC_FLOAT32 ? 0 : 0.5f, 4,
                 "x");
  p = add_tensor(w, TFLC_INT32, 2, dp, pads, sizeof pads, 0, 0, "pads");
  y = add_tensor(w, type, 3, dout, NULL, 0, type == TFLC_FLOAT32 ? 0 : 0.5f, 4,
                 "y");
  in[0] = x;
  in[1] = p;
  tflc_writer_op(w, 0, 34, NULL, 2, in, 1, &y, 22, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  return fm_finish(w, out, size);
}

/* TRANSPOSE of an input, or of a (compressible) constant. */
static int fm_transpose(const fm_comp *c, uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t din[3] = {2, 3, 4}, dp[1] = {3}, dout[3] = {4, 2, 3};
  int32_t perm[3] = {2, 0, 1}, x, p, y, in[2];
  int8_t v[24];
  fm_weights_s8(v, sizeof v, 3);
  x = c ? add_tensor(w, TFLC_INT8, 3, din, v, sizeof v, 0.5f, 0, "x")
        : add_tensor(w, TFLC_INT8, 3, din, NULL, 0, 0.5f, 0, "x");
  p = add_tensor(w, TFLC_INT32, 1, dp, perm, sizeof perm, 0, 0, "perm");
  y = add_tensor(w, TFLC_INT8, 3, dout, NULL, 0, 0.5f, 0, "y");
  in[0] = x;
  in[1] = p;
  tflc_writer_op(w, 0, 39, NULL, 2, in, 1, &y, 26, 0, NULL);
  if (!c)
    tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  fm_compress(w, x, c);
  return fm_finish(w, out, size);
}

/* RESHAPE of an input, or of a constant (any LUT type) that is compressed. */
static int fm_reshape(int type, const fm_comp *c, uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t din[2] = {3, 4}, dout[3] = {2, 2, 3}, ds[1] = {3}, x, s, y, in[2];
  int32_t shp[3] = {2, 2, 3};
  uint8_t v[12 * 8];
  size_t es = tflc_type_size(type), i;
  tflc_w_option o;
  memset(&o, 0, sizeof o);
  o.slot = 0;
  o.kind = TFLC_W_I32_VEC;
  o.vec = shp;
  o.vec_len = 3;
  for (i = 0; i < 12; i++) {
    memset(v + i * es, 0, es);
    v[i * es] = (uint8_t)(rng() % 5u);
  }
  x = c ? add_tensor(w, type, 2, din, v, 12 * es, 0, 0, "x")
        : add_tensor(w, type, 2, din, NULL, 0, 0, 0, "x");
  s = add_tensor(w, TFLC_INT32, 1, ds, shp, sizeof shp, 0, 0, "shape");
  y = add_tensor(w, type, 3, dout, NULL, 0, 0, 0, "y");
  in[0] = x;
  in[1] = s;
  tflc_writer_op(w, 0, 22, NULL, 2, in, 1, &y, 17, 1, &o);
  if (!c)
    tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  fm_compress(w, x, c);
  return fm_finish(w, out, size);
}

/* QUANTIZE (kind 1 f32->s8, 2 f32->s16, 3 s8->s8) or DEQUANTIZE (4 s8->f32,
 * 5 s16->f32). */
static int fm_quant(int kind, uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t d[2] = {3, 5}, x, y;
  static const int tin[6] = {0,         TFLC_FLOAT32, TFLC_FLOAT32,
                             TFLC_INT8, TFLC_INT8,    TFLC_INT16};
  static const int tout[6] = {0,         TFLC_INT8,    TFLC_INT16,
                              TFLC_INT8, TFLC_FLOAT32, TFLC_FLOAT32};
  x = add_tensor(w, tin[kind], 2, d, NULL, 0,
                 tin[kind] == TFLC_FLOAT32 ? 0 : 0.5f, 0, "x");
  y = add_tensor(w, tout[kind], 2, d, NULL, 0,
                 tout[kind] == TFLC_FLOAT32 ? 0 : 0.25f,
                 tout[kind] == TFLC_INT8 ? -3 : 0, "y");
  tflc_writer_op(w, 0, kind >= 4 ? 6 : 114, NULL, 1, &x, 1, &y,
                 (uint8_t)(kind >= 4 ? 38 : 89), 0, NULL);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  return fm_finish(w, out, size);
}

/* A compressed constant that is itself a subgraph output (DECODE format:
 * one DECODE appended at the end). */
static int fm_const_output(int type, const fm_comp *c, uint8_t **out,
                           size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t d[2] = {4, 3}, x;
  uint8_t v[12 * 8];
  size_t es = tflc_type_size(type), i;
  for (i = 0; i < 12 * es; i++)
    v[i] = (uint8_t)(rng() % 3u);
  x = fm_tensor_pc(w, type, 2, d, v, 12 * es, 3, 1, "c");
  tflc_writer_outputs(w, 0, 1, &x);
  fm_compress(w, x, c);
  return fm_finish(w, out, size);
}

/* A chain: QUANTIZE f32 -> s8, CONV_2D, DEPTHWISE_CONV_2D, MAX_POOL_2D,
 * RESHAPE, FULLY_CONNECTED, SOFTMAX, DEQUANTIZE; constants compressed. */
static int fm_chain(const fm_comp *c, uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t d0[4] = {1, 4, 4, 1}, dc[4] = {1, 4, 4, 2}, dp[4] = {1, 2, 2, 2};
  int32_t dr[2] = {1, 8}, dfw[2] = {3, 8}, dfo[2] = {1, 3};
  int32_t fcd[4] = {2, 3, 3, 1}, dwd[4] = {1, 3, 3, 2}, db[1] = {2},
          dfb[1] = {3};
  int8_t cw[18], dww[18], fw[24];
  int32_t cb[2] = {10, -10}, dwb[2] = {5, 6}, fb[3] = {1, 2, 3};
  int32_t xf, xq, cf, cbt, c1, dwf, dwbt, c2, p, r, ffw, ffb, fo, so, out_f;
  int32_t in[3];
  tflc_w_option co[4], dwo[5], po[5], ro, fo8, so9;
  int bits = c && c->format ? c->bits : 8;
  fm_weights_s8(cw, sizeof cw, bits);
  fm_weights_s8(dww, sizeof dww, bits);
  fm_weights_s8(fw, sizeof fw, bits);
  xf = add_tensor(w, TFLC_FLOAT32, 4, d0, NULL, 0, 0, 0, "input");
  xq = add_tensor(w, TFLC_INT8, 4, d0, NULL, 0, 0.02f, 0, "xq");
  tflc_writer_op(w, 0, 114, NULL, 1, &xf, 1, &xq, 89, 0, NULL);
  cf = fm_tensor_pc(w, TFLC_INT8, 4, fcd, cw, sizeof cw, 2, 0, "conv_w");
  cbt = fm_tensor_pc(w, TFLC_INT32, 1, db, cb, sizeof cb, 2, 0, "conv_b");
  c1 = add_tensor(w, TFLC_INT8, 4, dc, NULL, 0, 0.05f, -1, "c1");
  in[0] = xq;
  in[1] = cf;
  in[2] = cbt;
  co[0] = opt_u8(0, 0);
  co[1] = opt_i32(1, 1);
  co[2] = opt_i32(2, 1);
  co[3] = opt_u8(3, 1);
  tflc_writer_op(w, 0, 3, NULL, 3, in, 1, &c1, 1, 4, co);
  dwf = fm_tensor_pc(w, TFLC_INT8, 4, dwd, dww, sizeof dww, 2, 3, "dw_w");
  dwbt = fm_tensor_pc(w, TFLC_INT32, 1, db, dwb, sizeof dwb, 2, 0, "dw_b");
  c2 = add_tensor(w, TFLC_INT8, 4, dc, NULL, 0, 0.06f, 2, "c2");
  in[0] = c1;
  in[1] = dwf;
  in[2] = dwbt;
  dwo[0] = opt_u8(0, 0);
  dwo[1] = opt_i32(1, 1);
  dwo[2] = opt_i32(2, 1);
  dwo[3] = opt_i32(3, 1);
  dwo[4] = opt_u8(4, 3);
  tflc_writer_op(w, 0, 4, NULL, 3, in, 1, &c2, 2, 5, dwo);
  p = add_tensor(w, TFLC_INT8, 4, dp, NULL, 0, 0.06f, 2, "pool");
  po[0] = opt_u8(0, 1);
  po[1] = opt_i32(1, 2);
  po[2] = opt_i32(2, 2);
  po[3] = opt_i32(3, 2);
  po[4] = opt_i32(4, 2);
  tflc_writer_op(w, 0, 17, NULL, 1, &c2, 1, &p, 5, 5, po);
  r = add_tensor(w, TFLC_INT8, 2, dr, NULL, 0, 0.06f, 2, "flat");
  memset(&ro, 0, sizeof ro);
  ro.kind = TFLC_W_I32_VEC;
  ro.vec = dr;
  ro.vec_len = 2;
  tflc_writer_op(w, 0, 22, NULL, 1, &p, 1, &r, 17, 1, &ro);
  ffw = add_tensor(w, TFLC_INT8, 2, dfw, fw, sizeof fw, 0.03f, 0, "fc_w");
  ffb = add_tensor(w, TFLC_INT32, 1, dfb, fb, sizeof fb, 0.0018f, 0, "fc_b");
  fo = add_tensor(w, TFLC_INT8, 2, dfo, NULL, 0, 0.1f, 0, "logits");
  in[0] = r;
  in[1] = ffw;
  in[2] = ffb;
  fo8 = opt_u8(0, 0);
  tflc_writer_op(w, 0, 9, NULL, 3, in, 1, &fo, 8, 1, &fo8);
  so = add_tensor(w, TFLC_INT8, 2, dfo, NULL, 0, 1.0f / 256.0f, -128, "probs");
  so9 = opt_f32(0, 1.0f);
  tflc_writer_op(w, 0, 25, NULL, 1, &fo, 1, &so, 9, 1, &so9);
  out_f = add_tensor(w, TFLC_FLOAT32, 2, dfo, NULL, 0, 0, 0, "output");
  tflc_writer_op(w, 0, 6, NULL, 1, &so, 1, &out_f, 38, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &xf);
  tflc_writer_outputs(w, 0, 1, &out_f);
  fm_compress(w, cf, c);
  fm_compress(w, dwf, c);
  fm_compress(w, ffw, c);
  if (c && c->bias) {
    fm_compress(w, cbt, c);
    fm_compress(w, dwbt, c);
    fm_compress(w, ffb, c);
  }
  (void)cb;
  return fm_finish(w, out, size);
}

/* Unary and binary int8 operators tflc may gain (LOGISTIC, RELU, MUL ...):
 * shaped as TFLM expects, so a model is valid whenever the operator is
 * supported and rejected cleanly otherwise. */
static int fm_unary(int32_t code, uint8_t otype, uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t d[2] = {2, 8}, x, y;
  float osc = code == 14 ? 1.0f / 256.0f : code == 28 ? 1.0f / 128.0f : 0.1f;
  int64_t ozp = code == 14 ? -128 : 0;
  x = add_tensor(w, TFLC_INT8, 2, d, NULL, 0, 0.1f, 0, "x");
  y = add_tensor(w, TFLC_INT8, 2, d, NULL, 0, osc, ozp, "y");
  tflc_writer_op(w, 0, code, NULL, 1, &x, 1, &y, otype, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  return fm_finish(w, out, size);
}
static int fm_binary(int32_t code, uint8_t otype, int out_type, uint8_t **out,
                     size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t d[2] = {2, 4}, db[1] = {4}, a, b, y, in[2];
  a = add_tensor(w, TFLC_INT8, 2, d, NULL, 0, 0.1f, 0, "a");
  b = add_tensor(w, TFLC_INT8, 1, db, NULL, 0, 0.2f, 1, "b");
  y = add_tensor(w, out_type, 2, d, NULL, 0, out_type == TFLC_INT8 ? 0.3f : 0,
                 0, "y");
  in[0] = a;
  in[1] = b;
  tflc_writer_op(w, 0, code, NULL, 2, in, 1, &y, otype, 0, NULL);
  tflc_writer_inputs(w, 0, 2, in);
  tflc_writer_outputs(w, 0, 1, &y);
  return fm_finish(w, out, size);
}
static int fm_concat(const fm_comp *c, uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t da[2] = {2, 3}, db[2] = {2, 2}, dy[2] = {2, 5}, a, b, y, in[2];
  int8_t bv[4] = {1, 2, 3, 1};
  tflc_w_option o = opt_i32(0, 1);
  a = add_tensor(w, TFLC_INT8, 2, da, NULL, 0, 0.1f, 0, "a");
  b = add_tensor(w, TFLC_INT8, 2, db, bv, sizeof bv, 0.1f, 0, "b");
  y = add_tensor(w, TFLC_INT8, 2, dy, NULL, 0, 0.1f, 0, "y");
  in[0] = a;
  in[1] = b;
  tflc_writer_op(w, 0, 2, NULL, 2, in, 1, &y, 10, 1, &o);
  tflc_writer_inputs(w, 0, 1, &a);
  tflc_writer_outputs(w, 0, 1, &y);
  fm_compress(w, b, c);
  return fm_finish(w, out, size);
}

/* Element-wise math, logic, casts and the pool / reduction types of issue
 * 12: `nin` inputs of type tin (a bool condition first for SELECT_V2, a
 * constant int32 axis second for reductions and CUMSUM), output tout.
 * Quantized types get scale 0.1 (int16: zero point 0; LOGISTIC / TANH /
 * SOFTMAX int16: output scale 2^-15). shape: 0 [2,4], 1 pooled NHWC. */
static int fm_typed(int32_t code, uint8_t otype, int32_t nin, int tin, int tout,
                    uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t d[2] = {2, 4}, d4[4] = {1, 4, 4, 2}, dp[4] = {1, 2, 2, 2};
  int32_t dax[1] = {1}, axis[1] = {1}, in[3], y, k;
  const int pool = code == 1 || code == 17 || code == 12;
  const int axis_in =
      code == 40 || code == 82 || code == 89 || code == 140 || code == 128;
  const int q_in = tin == TFLC_INT8 || tin == TFLC_INT16;
  const int divides = code == 42 || code == 90;
  static const float div_f32[8] = {2, -3, 4, 5, -6, 7, 8, 9};
  static const int32_t div_i32[8] = {2, -3, 4, 5, -6, 7, 8, 9};
  static const int8_t div_s8[8] = {20, -30, 40, 50, -60, 70, 80, 90};
  const int q_out = tout == TFLC_INT8 || tout == TFLC_INT16;
  const float osc =
      tout == TFLC_INT16 && (code == 14 || code == 28 || code == 25)
          ? 1.0f / 32768.0f
          : 0.1f;
  tflc_w_option o[6];
  int32_t nopt = 0;
  for (k = 0; k < nin; k++) {
    const int t = code == 123 && k == 0 ? TFLC_BOOL : tin;
    if (axis_in && k == 1)
      in[k] = add_tensor(w, TFLC_INT32, 1, dax, axis, sizeof axis, 0, 0, "ax");
    else if (divides && k == 1) /* a constant divisor away from zero */
      in[k] = add_tensor(w, t, 2, d,
                         t == TFLC_FLOAT32 ? (const void *)div_f32
                         : t == TFLC_INT32 ? (const void *)div_i32
                                           : (const void *)div_s8,
                         8 * tflc_type_size(t), q_in ? 0.1f : 0, 0, "div");
    else
      in[k] = add_tensor(w, t, pool ? 4 : 2, pool ? d4 : d, NULL, 0,
                         q_in && t == tin ? 0.1f : 0, 0, "x");
  }
  if (axis_in && code != 128)
    d[1] = 1; /* reduced over axis 1, kept */
  y = add_tensor(w, tout, pool ? 4 : 2, pool ? dp : d, NULL, 0, q_out ? osc : 0,
                 0, "y");
  if (pool) {
    o[0] = opt_u8(0, 1);
    o[1] = opt_i32(1, 2);
    o[2] = opt_i32(2, 2);
    o[3] = opt_i32(3, 2);
    o[4] = opt_i32(4, 2);
    o[5] = opt_u8(5, 0);
    nopt = 6;
  } else if (axis_in && code != 128) {
    o[0] = opt_u8(0, 1); /* keep_dims */
    nopt = 1;
  } else if (code == 25) {
    o[0] = opt_f32(0, 1.0f); /* beta */
    nopt = 1;
  }
  tflc_writer_op(w, 0, code, NULL, nin, in, 1, &y, otype, nopt, o);
  tflc_writer_inputs(w, 0, axis_in || divides ? 1 : nin, in);
  tflc_writer_outputs(w, 0, 1, &y);
  return fm_finish(w, out, size);
}

/* The structural operators, control flow and TFLM custom operators of
 * issue 12, one model each (valid for all-zero inputs: indices, ids and
 * shapes are constants or zeros). which: 0 BATCH_MATMUL, 1 BROADCAST_ARGS,
 * 2 BROADCAST_TO, 3 DYNAMIC_UPDATE_SLICE, 4 EMBEDDING_LOOKUP, 5 FILL,
 * 6 GATHER_ND, 7 MIRROR_PAD, 8 REVERSE_V2, 9 IF, 10 WHILE, 11
 * CIRCULAR_BUFFER, 12 TFLite_Detection_PostProcess. */
#define FM_STRUCT_MODELS 13
static const char *const fm_struct_names[FM_STRUCT_MODELS] = {
    "batch_matmul_s8",
    "broadcast_args_i32",
    "broadcast_to_f32",
    "dynamic_update_slice_s8",
    "embedding_lookup_s8_f32",
    "fill_f32",
    "gather_nd_f32",
    "mirror_pad_s8",
    "reverse_v2_s16",
    "if_f32",
    "while_f32",
    "circular_buffer_s8",
    "detection_postprocess_f32"};
/* A subgraph of w computing y = x + x on float32 [4] (then / body part). */
static int32_t fm_double_subgraph(tflc_writer *w) {
  int32_t g = tflc_writer_subgraph(w), d[1] = {4}, in[2], y;
  in[0] = tflc_writer_tensor(w, g, TFLC_FLOAT32, 1, d, NULL, 0, "x", NULL);
  in[1] = in[0];
  y = tflc_writer_tensor(w, g, TFLC_FLOAT32, 1, d, NULL, 0, "y", NULL);
  tflc_writer_op(w, g, 0, NULL, 2, in, 1, &y, 11, 0, NULL);
  tflc_writer_inputs(w, g, 1, in);
  tflc_writer_outputs(w, g, 1, &y);
  return g;
}
static int fm_struct(int which, uint8_t **out, size_t *size) {
  tflc_writer *w = tflc_writer_create();
  static const int8_t tbl[20] = {1,  -2, 3,   -4, 5,  -6,  7,  -8, 9,  10,
                                 11, 12, -13, 14, 15, -16, 17, 18, 19, 20};
  static const int32_t sh_a[2] = {2, 1};
  static const int32_t ids[4] = {0, 4, 2, 0}, dims23[2] = {2, 3};
  static const int32_t pads[4] = {1, 1, 2, 2}, axis1[1] = {1};
  static const float anchors[16] = {0.2f, 0.2f, 0.3f, 0.3f, 0.5f, 0.5f,
                                    0.4f, 0.4f, 0.8f, 0.2f, 0.2f, 0.3f,
                                    0.3f, 0.7f, 0.5f, 0.6f};
  int32_t d1[1], d2[2], d3[3], d4[4], in[4], o[4], y, op, g0, g1;
  tflc_w_option opt[2];
  uint8_t flex[512];
  size_t nf;
  switch (which) {
  case 0: /* int8 [2, 3, 4] x [4, 5] */
    d3[0] = 2, d3[1] = 3, d3[2] = 4;
    in[0] = add_tensor(w, TFLC_INT8, 3, d3, NULL, 0, 0.5f, 1, "a");
    d2[0] = 4, d2[1] = 5;
    in[1] = add_tensor(w, TFLC_INT8, 2, d2, tbl, 20, 0.25f, -2, "b");
    d3[2] = 5;
    y = add_tensor(w, TFLC_INT8, 3, d3, NULL, 0, 0.75f, 3, "y");
    tflc_writer_op(w, 0, 126, NULL, 2, in, 1, &y, 101, 0, NULL);
    break;
  case 1: /* broadcast of two input shapes ([2] and [3]; zeros broadcast) */
    d1[0] = 2;
    in[0] = add_tensor(w, TFLC_INT32, 1, d1, NULL, 0, 0, 0, "s1");
    d1[0] = 3;
    in[1] = add_tensor(w, TFLC_INT32, 1, d1, NULL, 0, 0, 0, "s2");
    y = add_tensor(w, TFLC_INT32, 1, d1, NULL, 0, 0, 0, "y");
    tflc_writer_op(w, 0, 145, NULL, 2, in, 1, &y, 0, 0, NULL);
    tflc_writer_inputs(w, 0, 2, in);
    tflc_writer_outputs(w, 0, 1, &y);
    return fm_finish(w, out, size);
  case 2: /* float [1, 3] to [2, 3] */
    d2[0] = 1, d2[1] = 3;
    in[0] = add_tensor(w, TFLC_FLOAT32, 2, d2, NULL, 0, 0, 0, "x");
    d1[0] = 2;
    in[1] = add_tensor(w, TFLC_INT32, 1, d1, dims23, 8, 0, 0, "shape");
    y = add_tensor(w, TFLC_FLOAT32, 2, dims23, NULL, 0, 0, 0, "y");
    tflc_writer_op(w, 0, 130, NULL, 2, in, 1, &y, 104, 0, NULL);
    break;
  case 3: /* int8 [4, 4] <- [2, 2] at an input position (clamped) */
    d2[0] = d2[1] = 4;
    in[0] = add_tensor(w, TFLC_INT8, 2, d2, NULL, 0, 0.5f, 0, "x");
    y = add_tensor(w, TFLC_INT8, 2, d2, NULL, 0, 0.5f, 0, "y");
    d2[0] = d2[1] = 2;
    in[1] = add_tensor(w, TFLC_INT8, 2, d2, tbl, 4, 0.5f, 0, "u");
    d1[0] = 2;
    in[2] = add_tensor(w, TFLC_INT32, 1, d1, NULL, 0, 0, 0, "start");
    tflc_writer_op(w, 0, 151, NULL, 3, in, 1, &y, 117, 0, NULL);
    in[1] = in[2];
    tflc_writer_inputs(w, 0, 2, in);
    tflc_writer_outputs(w, 0, 1, &y);
    return fm_finish(w, out, size);
  case 4: /* int8 table [5, 3] (the input) -> float32 rows, constant ids */
    d1[0] = 4;
    in[0] = add_tensor(w, TFLC_INT32, 1, d1, ids, 16, 0, 0, "ids");
    d2[0] = 5, d2[1] = 3;
    in[1] = add_tensor(w, TFLC_INT8, 2, d2, NULL, 0, 0.5f, 0, "table");
    d2[0] = 4;
    y = add_tensor(w, TFLC_FLOAT32, 2, d2, NULL, 0, 0, 0, "y");
    tflc_writer_op(w, 0, 7, NULL, 2, in, 1, &y, 0, 0, NULL);
    in[0] = in[1]; /* the table is the model's input */
    break;
  case 5: /* [2, 3] of an input scalar */
    d1[0] = 2;
    in[0] = add_tensor(w, TFLC_INT32, 1, d1, dims23, 8, 0, 0, "dims");
    in[1] = add_tensor(w, TFLC_FLOAT32, 0, d1, NULL, 0, 0, 0, "v");
    y = add_tensor(w, TFLC_FLOAT32, 2, dims23, NULL, 0, 0, 0, "y");
    tflc_writer_op(w, 0, 94, NULL, 2, in, 1, &y, 68, 0, NULL);
    in[0] = in[1];
    break;
  case 6: /* float [3, 4] rows by [2, 1] constant indices */
    d2[0] = 3, d2[1] = 4;
    in[0] = add_tensor(w, TFLC_FLOAT32, 2, d2, NULL, 0, 0, 0, "p");
    d2[0] = 2, d2[1] = 1;
    in[1] = add_tensor(w, TFLC_INT32, 2, d2, sh_a, 8, 0, 0, "idx");
    d2[1] = 4;
    y = add_tensor(w, TFLC_FLOAT32, 2, d2, NULL, 0, 0, 0, "y");
    tflc_writer_op(w, 0, 107, NULL, 2, in, 1, &y, 83, 0, NULL);
    break;
  case 7: /* int8 [3, 4] REFLECT-padded to [5, 8] */
    d2[0] = 3, d2[1] = 4;
    in[0] = add_tensor(w, TFLC_INT8, 2, d2, NULL, 0, 0.5f, 0, "x");
    d2[0] = 2, d2[1] = 2;
    in[1] = add_tensor(w, TFLC_INT32, 2, d2, pads, 16, 0, 0, "pads");
    d2[0] = 5, d2[1] = 8;
    y = add_tensor(w, TFLC_INT8, 2, d2, NULL, 0, 0.5f, 0, "y");
    opt[0] = opt_u8(0, 0);
    tflc_writer_op(w, 0, 100, NULL, 2, in, 1, &y, 77, 1, opt);
    break;
  case 8: /* int16 [2, 3, 4] reversed along axis 1 */
    d3[0] = 2, d3[1] = 3, d3[2] = 4;
    in[0] = add_tensor(w, TFLC_INT16, 3, d3, NULL, 0, 0, 0, "x");
    d1[0] = 1;
    in[1] = add_tensor(w, TFLC_INT32, 1, d1, axis1, 4, 0, 0, "axis");
    y = add_tensor(w, TFLC_INT16, 3, d3, NULL, 0, 0, 0, "y");
    tflc_writer_op(w, 0, 105, NULL, 2, in, 1, &y, 81, 0, NULL);
    break;
  case 9:  /* IF (cond) { x + x } else { (x + x) } on float32 [4] */
  case 10: /* WHILE (false) { x + x }: cond is a constant-false LESS */
    d1[0] = 1;
    in[0] = add_tensor(w, which == 9 ? TFLC_BOOL : TFLC_FLOAT32, 1, d1, NULL, 0,
                       0, 0, "c");
    d1[0] = 4;
    in[1] = add_tensor(w, TFLC_FLOAT32, 1, d1, NULL, 0, 0, 0, "x");
    y = add_tensor(w, TFLC_FLOAT32, 1, d1, NULL, 0, 0, 0, "y");
    if (which == 9) {
      g0 = fm_double_subgraph(w);
      g1 = fm_double_subgraph(w);
      opt[0] = opt_i32(0, g0);
      opt[1] = opt_i32(1, g1);
      tflc_writer_op(w, 0, 118, NULL, 2, in, 1, &y, 92, 2, opt);
    } else { /* loop over (c, x): cond c < c (never), body c, x + x */
      int32_t cg = tflc_writer_subgraph(w), bg, ci[2], cb, cl[2];
      d1[0] = 1;
      ci[0] =
          tflc_writer_tensor(w, cg, TFLC_FLOAT32, 1, d1, NULL, 0, "c", NULL);
      d1[0] = 4;
      ci[1] =
          tflc_writer_tensor(w, cg, TFLC_FLOAT32, 1, d1, NULL, 0, "x", NULL);
      d1[0] = 1;
      cb = tflc_writer_tensor(w, cg, TFLC_BOOL, 1, d1, NULL, 0, "b", NULL);
      cl[0] = cl[1] = ci[0];
      tflc_writer_op(w, cg, 58, NULL, 2, cl, 1, &cb, 41, 0, NULL);
      tflc_writer_inputs(w, cg, 2, ci);
      tflc_writer_outputs(w, cg, 1, &cb);
      bg = tflc_writer_subgraph(w);
      ci[0] =
          tflc_writer_tensor(w, bg, TFLC_FLOAT32, 1, d1, NULL, 0, "c", NULL);
      d1[0] = 4;
      ci[1] =
          tflc_writer_tensor(w, bg, TFLC_FLOAT32, 1, d1, NULL, 0, "x", NULL);
      cl[0] = ci[0];
      cl[1] =
          tflc_writer_tensor(w, bg, TFLC_FLOAT32, 1, d1, NULL, 0, "y", NULL);
      in[2] = ci[1];
      in[3] = ci[1];
      tflc_writer_op(w, bg, 0, NULL, 2, in + 2, 1, &cl[1], 11, 0, NULL);
      tflc_writer_inputs(w, bg, 2, ci);
      tflc_writer_outputs(w, bg, 2, cl);
      d1[0] = 1;
      o[0] = add_tensor(w, TFLC_FLOAT32, 1, d1, NULL, 0, 0, 0, "c2");
      o[1] = y;
      opt[0] = opt_i32(0, cg);
      opt[1] = opt_i32(1, bg);
      tflc_writer_op(w, 0, 119, NULL, 2, in, 2, o, 93, 2, opt);
    }
    tflc_writer_inputs(w, 0, 2, in);
    tflc_writer_outputs(w, 0, 1, &y);
    return fm_finish(w, out, size);
  case 11: { /* int8 [1, 1, 1, 4] into 3 slots, cycles_max 1 */
    flex_value v[1] = {{"cycles_max", FLEX_INT, 0, 1, 0}};
    d4[0] = d4[1] = d4[2] = 1, d4[3] = 4;
    in[0] = add_tensor(w, TFLC_INT8, 4, d4, NULL, 0, 0.5f, -3, "x");
    d4[1] = 3;
    y = add_tensor(w, TFLC_INT8, 4, d4, NULL, 0, 0.5f, -3, "y");
    tflc_writer_set_variable(w, 0, y, 1);
    op = tflc_writer_op(w, 0, 32, "CIRCULAR_BUFFER", 1, in, 1, &y, 0, 0, NULL);
    nf = flex_map(flex, v, 1, 1);
    tflc_writer_custom_options(w, 0, op, flex, nf);
    break;
  }
  default: { /* 4 boxes, 2 classes + background, 3 detections, regular */
    flex_value v[11] = {{"detections_per_class", 1, 0, 2, 0},
                        {"h_scale", FLEX_FLOAT, 0, 0, 5.0},
                        {"max_classes_per_detection", 1, 0, 1, 0},
                        {"max_detections", 1, 0, 3, 0},
                        {"nms_iou_threshold", 3, 0, 0, 0.5},
                        {"nms_score_threshold", 3, 0, 0, 0.0},
                        {"num_classes", 1, 0, 2, 0},
                        {"use_regular_nms", FLEX_BOOL, 0, 1, 0},
                        {"w_scale", 3, 0, 0, 5.0},
                        {"x_scale", 3, 0, 0, 10.0},
                        {"y_scale", 3, 0, 0, 10.0}};
    d3[0] = 1, d3[1] = 4, d3[2] = 4;
    in[0] = add_tensor(w, TFLC_FLOAT32, 3, d3, NULL, 0, 0, 0, "boxes");
    d3[2] = 3;
    in[1] = add_tensor(w, TFLC_FLOAT32, 3, d3, NULL, 0, 0, 0, "scores");
    d2[0] = 4, d2[1] = 4;
    in[2] = add_tensor(w, TFLC_FLOAT32, 2, d2, anchors, 64, 0, 0, "anchors");
    d3[1] = 3, d3[2] = 4;
    o[0] = add_tensor(w, TFLC_FLOAT32, 3, d3, NULL, 0, 0, 0, "det_boxes");
    d2[0] = 1, d2[1] = 3;
    o[1] = add_tensor(w, TFLC_FLOAT32, 2, d2, NULL, 0, 0, 0, "det_classes");
    o[2] = add_tensor(w, TFLC_FLOAT32, 2, d2, NULL, 0, 0, 0, "det_scores");
    d1[0] = 1;
    o[3] = add_tensor(w, TFLC_FLOAT32, 1, d1, NULL, 0, 0, 0, "count");
    op = tflc_writer_op(w, 0, 32, "TFLite_Detection_PostProcess", 3, in, 4, o,
                        0, 0, NULL);
    nf = flex_map(flex, v, 11, 4);
    tflc_writer_custom_options(w, 0, op, flex, nf);
    tflc_writer_inputs(w, 0, 2, in);
    tflc_writer_outputs(w, 0, 4, o);
    return fm_finish(w, out, size);
  }
  }
  tflc_writer_inputs(w, 0, 1, in);
  tflc_writer_outputs(w, 0, 1, &y);
  return fm_finish(w, out, size);
}

/* Calls fn(name, bytes, size, user) for every model of the corpus. */
typedef void (*fm_sink)(const char *name, const uint8_t *p, size_t n,
                        void *user);
static void fm_emit(fm_sink fn, void *user, const char *name, int ok,
                    uint8_t *p, size_t n) {
  if (ok) {
    fn(name, p, n, user);
    free(p);
  }
}
#define FM_EMIT(nm, call)                                                      \
  do {                                                                         \
    int ok_ = (call);                                                          \
    fm_emit(fn, user, nm, ok_, p, n);                                          \
  } while (0)
static void fm_all(fm_sink fn, void *user) {
  uint8_t *p = NULL;
  size_t n = 0;
  char name[96];
  static const int fmts[3] = {0, TFLC_W_METADATA, TFLC_W_DECODE};
  static const int lut_types[7] = {TFLC_FLOAT32, TFLC_INT8,  TFLC_UINT8,
                                   TFLC_BOOL,    TFLC_INT16, TFLC_INT32,
                                   TFLC_INT64};
  int f, bits, k;
  for (f = 0; f < 3; f++) {
    for (bits = 1; bits <= 8; bits++) {
      fm_comp c;
      const char *fn_ = f == 0 ? "plain" : f == 1 ? "meta" : "decode";
      if (f == 0 && bits > 1)
        break;
      c.format = fmts[f];
      c.bits = bits;
      c.pad_pow2 = (bits & 1) && f == 1;
      c.bias = bits == 3 || bits == 8;
      if (f == 2 && bits == 8)
        c.bits = 7; /* DECODE stores the stride in a byte */
      rng_seed(0x2545F491u + (uint32_t)(f * 16 + bits));
      snprintf(name, sizeof name, "conv_%s_b%d", fn_, bits);
      FM_EMIT(name, fm_conv(0, bits & 1, 1 + (bits & 1), &c, &p, &n));
      snprintf(name, sizeof name, "dwconv_%s_b%d", fn_, bits);
      FM_EMIT(name, fm_conv(1, !(bits & 1), 1, &c, &p, &n));
      snprintf(name, sizeof name, "fc_%s_b%d", fn_, bits);
      FM_EMIT(name, fm_fc(0, bits & 1, &c, &p, &n));
      snprintf(name, sizeof name, "fc_f32_%s_b%d", fn_, bits);
      FM_EMIT(name, fm_fc(1, 0, &c, &p, &n));
      snprintf(name, sizeof name, "chain_%s_b%d", fn_, bits);
      FM_EMIT(name, fm_chain(&c, &p, &n));
      if (f == 0 || bits == 2 || bits == 5) {
        snprintf(name, sizeof name, "add_const_%s_b%d", fn_, bits);
        FM_EMIT(name, fm_add(0, &c, &p, &n));
        snprintf(name, sizeof name, "add_f32_const_%s_b%d", fn_, bits);
        FM_EMIT(name, fm_add(1, &c, &p, &n));
        snprintf(name, sizeof name, "transpose_const_%s_b%d", fn_, bits);
        FM_EMIT(name, fm_transpose(&c, &p, &n));
        snprintf(name, sizeof name, "concat_const_%s_b%d", fn_, bits);
        FM_EMIT(name, fm_concat(&c, &p, &n));
        for (k = 0; k < 7; k++) {
          snprintf(name, sizeof name, "reshape_const_%s_%s_b%d", fn_,
                   tflc_type_name(lut_types[k]), bits);
          FM_EMIT(name, fm_reshape(lut_types[k], &c, &p, &n));
          snprintf(name, sizeof name, "const_output_%s_%s_b%d", fn_,
                   tflc_type_name(lut_types[k]), bits);
          FM_EMIT(name, fm_const_output(lut_types[k], &c, &p, &n));
        }
      }
    }
  }
  FM_EMIT("avgpool_same", fm_pool(1, 1, &p, &n));
  FM_EMIT("avgpool_valid", fm_pool(1, 0, &p, &n));
  FM_EMIT("maxpool_valid", fm_pool(0, 0, &p, &n));
  FM_EMIT("softmax_s8", fm_softmax(0, &p, &n));
  FM_EMIT("softmax_f32", fm_softmax(1, &p, &n));
  FM_EMIT("add_s8", fm_add(0, NULL, &p, &n));
  FM_EMIT("add_f32", fm_add(1, NULL, &p, &n));
  FM_EMIT("mean_s8", fm_mean(&p, &n));
  FM_EMIT("pad_s8", fm_pad(TFLC_INT8, &p, &n));
  FM_EMIT("pad_f32", fm_pad(TFLC_FLOAT32, &p, &n));
  FM_EMIT("pad_s16", fm_pad(TFLC_INT16, &p, &n));
  FM_EMIT("transpose_s8", fm_transpose(NULL, &p, &n));
  for (k = 0; k < 7; k++) {
    snprintf(name, sizeof name, "reshape_%s", tflc_type_name(lut_types[k]));
    FM_EMIT(name, fm_reshape(lut_types[k], NULL, &p, &n));
  }
  for (k = 1; k <= 5; k++) {
    snprintf(name, sizeof name, "quant_kind%d", k);
    FM_EMIT(name, fm_quant(k, &p, &n));
  }
  FM_EMIT("concat_s8", fm_concat(NULL, &p, &n));
  {
    static const int32_t un[][2] = {{14, 0},  {19, 0},   {20, 0},
                                    {21, 0},  {28, 0},   {11, 12},
                                    {98, 75}, {117, 91}, {50, 36}};
    static const int32_t bin[][3] = {{18, 21, TFLC_INT8}, {41, 28, TFLC_INT8},
                                     {55, 39, TFLC_INT8}, {57, 39, TFLC_INT8},
                                     {58, 41, TFLC_BOOL}, {61, 44, TFLC_BOOL},
                                     {62, 45, TFLC_BOOL}, {63, 46, TFLC_BOOL},
                                     {71, 53, TFLC_BOOL}, {72, 54, TFLC_BOOL}};
    for (k = 0; k < (int)(sizeof un / sizeof un[0]); k++) {
      snprintf(name, sizeof name, "unary_%s", tflc_opcode_name(un[k][0]));
      FM_EMIT(name, fm_unary(un[k][0], (uint8_t)un[k][1], &p, &n));
    }
    for (k = 0; k < (int)(sizeof bin / sizeof bin[0]); k++) {
      snprintf(name, sizeof name, "binary_%s", tflc_opcode_name(bin[k][0]));
      FM_EMIT(name,
              fm_binary(bin[k][0], (uint8_t)bin[k][1], bin[k][2], &p, &n));
    }
  }
  {
    /* code, options type, inputs, input type, output type */
    static const int32_t typed[][5] = {{101, 78, 1, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {101, 78, 1, TFLC_INT16, TFLC_INT16},
                                       {104, 0, 1, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {108, 84, 1, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {47, 33, 1, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {8, 0, 1, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {73, 0, 1, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {59, 42, 1, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {116, 0, 1, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {76, 0, 1, TFLC_INT8, TFLC_INT8},
                                       {66, 0, 1, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {75, 0, 1, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {92, 66, 1, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {111, 0, 1, TFLC_INT8, TFLC_INT8},
                                       {42, 29, 2, TFLC_INT8, TFLC_INT8},
                                       {42, 29, 2, TFLC_INT32, TFLC_INT32},
                                       {90, 65, 2, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {95, 72, 2, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {99, 76, 2, TFLC_INT16, TFLC_INT16},
                                       {106, 82, 3, TFLC_INT8, TFLC_INT8},
                                       {53, 37, 1, TFLC_FLOAT32, TFLC_UINT32},
                                       {53, 37, 1, TFLC_BOOL, TFLC_INT16},
                                       {86, 62, 2, TFLC_BOOL, TFLC_BOOL},
                                       {84, 60, 2, TFLC_BOOL, TFLC_BOOL},
                                       {87, 63, 1, TFLC_BOOL, TFLC_BOOL},
                                       {123, 98, 3, TFLC_INT16, TFLC_INT16},
                                       {0, 11, 2, TFLC_INT32, TFLC_INT32},
                                       {41, 28, 2, TFLC_INT32, TFLC_INT32},
                                       {18, 21, 2, TFLC_INT32, TFLC_INT32},
                                       {14, 0, 1, TFLC_INT16, TFLC_INT16},
                                       {28, 0, 1, TFLC_INT16, TFLC_INT16},
                                       {25, 9, 1, TFLC_INT16, TFLC_INT16},
                                       {1, 5, 1, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {17, 5, 1, TFLC_INT16, TFLC_INT16},
                                       {12, 5, 1, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {40, 27, 2, TFLC_INT16, TFLC_INT16},
                                       {82, 27, 2, TFLC_FLOAT32, TFLC_FLOAT32},
                                       {89, 27, 2, TFLC_INT8, TFLC_INT8},
                                       {140, 27, 2, TFLC_BOOL, TFLC_BOOL},
                                       {128, 102, 2, TFLC_INT8, TFLC_INT8}};
    for (k = 0; k < (int)(sizeof typed / sizeof typed[0]); k++) {
      snprintf(name, sizeof name, "typed_%s_%s", tflc_opcode_name(typed[k][0]),
               tflc_type_name(typed[k][3]));
      FM_EMIT(name, fm_typed(typed[k][0], (uint8_t)typed[k][1], typed[k][2],
                             typed[k][3], typed[k][4], &p, &n));
    }
  }
  for (k = 0; k < FM_STRUCT_MODELS; k++)
    FM_EMIT(fm_struct_names[k], fm_struct(k, &p, &n));
}

#undef FM_EMIT
#endif

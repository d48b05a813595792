/* examples/vta/vta_delegate.h - a tflc delegate running int8 ADD and
 * CONV_2D on the VTA model of vta.h, as seeds/vta_delegate_ops.rst
 * describes, with its further work done.
 *
 *   static vta_device dev;        // vta_device_init(&dev, &cfg, mem, size)
 *   static vta_delegate vta;
 *   vta_delegate_init(&vta, &dev, 0);   // 0: the seed's arithmetic
 *   opt.delegates = &vta.tflc;
 *   opt.num_delegates = 1;
 *
 * Layouts (the seed's): a tensor [N, H, W, C] lives in accelerator DRAM as
 * N C' Hp Wp c (C' = ceil(C / 16) blocks of c = 16 channels, zero-padded),
 * Hp / Wp with a border as wide as the widest padding of the convolutions
 * reading it, filled with the tensor's zero point; CONV_2D weights [O, Hk,
 * Wk, I] as O' I' Hk Wk o i (16x16 blocks). Tensors crossing a partition's
 * edge are converted from / to NHWC there; tensors between two delegated
 * operators stay in the accelerator layout (the seed's "load data with or
 * without preprocessing depending on context").
 *
 * CONV_2D: per output-channel block, the input zero point folded into the
 * bias (bias - z_in * sum(w); the border holds z_in, so padding adds
 * nothing), GEMM over the kernel taps and input blocks (stride, dilation
 * and SAME / VALID padding from the model), then on the ALU: ADD the bias,
 * MUL by the 16-bit multiplier of s_in * s_w / s_out, SHR by 15 - shift,
 * ADD the output zero point, MIN / MAX the activation range. Where the
 * product could leave 32 bits (|acc| * multiplier >= 2^31, bounded from
 * the weights) an SHR first takes the extra bits off (the seed has no
 * such step; without it those channels overflow). Work is tiled to the
 * SRAMs (output rows and columns, output-channel groups, input-channel
 * chunks) in two threads: LOAD fills one half of INP / WGT while COMPUTE
 * works on the other, and STORE empties one half of ACC while COMPUTE
 * fills the other.
 * ADD: the seed's arithmetic (tflc_q16_add_prepare), dequantization too
 * done on the accelerator (the seed does it on the CPU): both inputs
 * loaded as int8 into ACC, ADD offset, SHR -7, MUL multiplier, the
 * sign-dependent nudge (copy, negate, MAX 0, MIN 1: 1 for negative
 * products, MUL -32767, ADD, ADD 2^14), SHR 15, SHR -shift; then A + B,
 * MUL, SHR, ADD zero point, MIN, MAX. Equal byte for byte to
 * tflc_add_q16_s8.
 * `round` 1 replaces each final SHR n by SHR n-1, ADD 1, SHR 1 (round half
 * up instead of down: not the seed; for comparison).
 *
 * Claims int8 ADD (same shapes, no broadcasting) and int8 CONV_2D
 * (constant int8 weights with zero points 0, int32 bias or none, groups of
 * 1, fused NONE / RELU / RELU_N1_TO_1 / RELU6) whose tiles fit the SRAMs;
 * why it declined the others is kept in `notes`. Memory: partitions take
 * their accelerator buffers (repacked weights, parameters, activations in
 * the accelerator layout) from the arena at prepare. */
#ifndef TFLC_EXAMPLES_VTA_DELEGATE_H
#define TFLC_EXAMPLES_VTA_DELEGATE_H

#include "../../tflc.h"
#include "vta.h"

#include <string.h>

#define VTA_MAX_NOTES 1024

/* What claims decided for an operator: taken (why == NULL) or declined. */
typedef struct vta_note {
  int32_t op, code;
  const char *why;
} vta_note;

typedef struct vta_delegate {
  tflc_delegate tflc; /* give &tflc in tflc_options.delegates */
  vta_device *dev;
  int round;   /* 0: the seed's shifts (floor); 1: round half up */
  int threads; /* 2: double buffering (the seed's NUM_THREADS); or 1 */
  /* per operator index of the last init (subgraph 0's numbering) */
  vta_note notes[VTA_MAX_NOTES];
  int32_t num_notes;
  /* bytes converted between NHWC and the accelerator layout at partition
   * edges (CPU work) */
  uint64_t to_accel_bytes, from_accel_bytes;
} vta_delegate;

/* ---- tensors in the accelerator layout ----------------------------------- */
typedef struct vta_tensor {
  const tflc_tensor *t;
  int32_t n, h, w, c, cb; /* NHWC view, channel blocks */
  int32_t pt, pb, pl, pr; /* border */
  int32_t hp, wp;         /* with the border */
  int8_t *buf;            /* [n][cb][hp][wp][16] */
  uint32_t elems;         /* vectors in buf */
  uint8_t edge_in, edge_out, constant, produced;
} vta_tensor;

/* The NHWC view of a tensor of rank 1..4 (leading dimensions 1). */
VTA_FN int vta__view(const tflc_tensor *t, int32_t *d4) {
  int k;
  if (t->rank < 1 || t->rank > 4)
    return -1;
  for (k = 0; k < 4; k++)
    d4[k] = 1;
  for (k = 0; k < t->rank; k++) {
    if (t->dims[k] < 1)
      return -1;
    d4[4 - t->rank + k] = t->dims[k];
  }
  return 0;
}

/* ---- CONV_2D geometry and tiles ------------------------------------------ */
typedef struct vta_conv_geo {
  int32_t n, h, w, ci, ho, wo, co, kh, kw, sh, sw, dh, dw;
  int32_t pt, pb, pl, pr;      /* padding the convolution reads */
  int32_t ib, ob;              /* input / output channel blocks */
  int32_t ic, ocb, rows, cols; /* tile: input blocks per chunk, output
                                  blocks per group, output rows, columns */
} vta_conv_geo;

/* Input columns / rows a tile of `cols` / `rows` outputs reads. */
VTA_FN uint32_t vta__win(const vta_conv_geo *g, uint32_t cols) {
  return (cols - 1) * (uint32_t)g->sw + (uint32_t)((g->kw - 1) * g->dw + 1);
}
VTA_FN uint32_t vta__rin(const vta_conv_geo *g, uint32_t rows) {
  return (rows - 1) * (uint32_t)g->sh + (uint32_t)((g->kh - 1) * g->dh + 1);
}

/* Tiles for `threads` halves of the SRAMs; NULL, or why none fits. */
VTA_FN const char *vta__conv_plan(const vta_config *cfg, int threads,
                                  vta_conv_geo *g) {
  const uint32_t T = (uint32_t)threads;
  const uint32_t inp_h = cfg->inp_depth / T, wgt_h = cfg->wgt_depth / T;
  const uint32_t acc_h = cfg->acc_depth / T;
  const uint32_t khw = (uint32_t)(g->kh * g->kw);
  const uint32_t rin1 = (uint32_t)((g->kh - 1) * g->dh + 1);
  uint32_t ic, c, r, ocb;
  if (khw > wgt_h)
    return "kernel larger than half the WGT SRAM";
  ic = wgt_h / khw < (uint32_t)g->ib ? wgt_h / khw : (uint32_t)g->ib;
  c = (uint32_t)g->wo;
  while ((uint64_t)ic * rin1 * vta__win(g, c) > inp_h) {
    if (c > 1)
      c = (c + 1) / 2;
    else if (ic > 1)
      ic = (ic + 1) / 2;
    else
      return "kernel window larger than half the INP SRAM";
  }
  r = 1;
  while (r < (uint32_t)g->ho &&
         (uint64_t)ic * vta__rin(g, r + 1) * vta__win(g, c) <= inp_h)
    r++;
  ocb = wgt_h / (ic * khw);
  if (ocb > (uint32_t)g->ob)
    ocb = (uint32_t)g->ob;
  while ((uint64_t)ocb * (4 + r * c) > acc_h) {
    if (r > 1)
      r = (r + 1) / 2;
    else if (ocb > 1)
      ocb = (ocb + 1) / 2;
    else if (c > 1)
      c = (c + 1) / 2;
    else
      return "accumulator tile larger than half the ACC SRAM";
  }
  g->ic = (int32_t)ic;
  g->ocb = (int32_t)ocb;
  g->rows = (int32_t)r;
  g->cols = (int32_t)c;
  return NULL;
}

/* Padding as TFLite computes it: SAME (0) or VALID (1); NULL or why not. */
VTA_FN const char *vta__padding(int32_t in, int32_t out, int32_t k, int32_t s,
                                int32_t dil, int same, int32_t *before,
                                int32_t *after) {
  const int64_t eff = (int64_t)(k - 1) * dil + 1;
  int64_t total = ((int64_t)out - 1) * s + eff - in;
  if (!same) {
    if (out != (in - eff) / s + 1 || in < eff)
      return "VALID output size does not match";
    *before = *after = 0;
    return NULL;
  }
  if (out != (in + s - 1) / s)
    return "SAME output size does not match";
  if (total < 0)
    total = 0;
  *before = (int32_t)(total / 2);
  *after = (int32_t)(total - total / 2);
  return NULL;
}

/* Reads the geometry of a CONV_2D and checks what the VTA path needs. */
VTA_FN const char *vta__conv_check(tflc_op_context *op, const vta_config *cfg,
                                   int threads, vta_conv_geo *g, int32_t *act) {
  const tflc_tensor *x = tflc_op_input(op, 0), *w = tflc_op_input(op, 1);
  const tflc_tensor *b = tflc_op_input(op, 2), *y = tflc_op_output(op, 0);
  int32_t ns, k, same;
  tflc_const wc;
  const char *why;
  float s;
  int64_t zp;
  if (!x || !w || !y || x->type != TFLC_INT8 || y->type != TFLC_INT8)
    return x && x->type == TFLC_INT16 ? "int16 activations (int16x8)"
                                      : "not int8 activations";
  if (w->type == TFLC_INT4)
    return "int4 weights";
  if (w->type != TFLC_INT8 || !tflc_op_const(op, 1, &wc))
    return "weights not constant int8";
  if (b && (b->type != TFLC_INT32 ||
            !(b->flags & (TFLC_TENSOR_CONST | TFLC_TENSOR_LUT))))
    return "bias not constant int32";
  if (x->rank != 4 || w->rank != 4 || y->rank != 4)
    return "not 4-D";
  memset(g, 0, sizeof *g);
  g->n = x->dims[0], g->h = x->dims[1], g->w = x->dims[2], g->ci = x->dims[3];
  g->ho = y->dims[1], g->wo = y->dims[2], g->co = y->dims[3];
  g->kh = w->dims[1], g->kw = w->dims[2];
  if (w->dims[3] != g->ci)
    return "grouped convolution";
  if (w->dims[0] != g->co || y->dims[0] != g->n)
    return "shapes do not match";
  ns = tflc_op_tensor_quant(op, w, 0, &s, &zp, NULL);
  if (ns != 1 && ns != g->co)
    return "weight scales neither per tensor nor per output channel";
  for (k = 0; k < ns; k++) {
    (void)tflc_op_tensor_quant(op, w, k, &s, &zp, NULL);
    if (zp != 0 || !(s > 0))
      return "weights not symmetric";
  }
  if (!(x->scale > 0) || !(y->scale > 0))
    return "activations not quantized";
  same = tflc_op_option_byte(op, 0, 0) == 0;
  g->sw = tflc_op_option_int(op, 1, 1);
  g->sh = tflc_op_option_int(op, 2, 1);
  *act = tflc_op_option_byte(op, 3, 0);
  g->dw = tflc_op_option_int(op, 4, 1);
  g->dh = tflc_op_option_int(op, 5, 1);
  if (*act < 0 || *act > 3)
    return "fused activation not a clamp (TANH / SIGN_BIT)";
  if (g->sh < 1 || g->sw < 1 || g->dh < 1 || g->dw < 1 || g->kh < 1 ||
      g->kw < 1 || g->sh > 255 || g->sw > 255 || g->dh > 255 || g->dw > 255)
    return "stride or dilation out of range";
  why = vta__padding(g->h, g->ho, g->kh, g->sh, g->dh, same, &g->pt, &g->pb);
  if (!why)
    why = vta__padding(g->w, g->wo, g->kw, g->sw, g->dw, same, &g->pl, &g->pr);
  if (why)
    return why;
  if (g->pt > 255 || g->pb > 255 || g->pl > 255 || g->pr > 255)
    return "padding out of range";
  g->ib = (g->ci + 15) / 16;
  g->ob = (g->co + 15) / 16;
  return vta__conv_plan(cfg, threads, g);
}

VTA_FN const char *vta__add_check(tflc_op_context *op) {
  const tflc_tensor *a = tflc_op_input(op, 0), *b = tflc_op_input(op, 1);
  const tflc_tensor *y = tflc_op_output(op, 0);
  int32_t da[4], db[4], dy[4], act = tflc_op_option_byte(op, 0, 0), k;
  if (!a || !b || !y || a->type != TFLC_INT8 || b->type != TFLC_INT8 ||
      y->type != TFLC_INT8)
    return a && a->type == TFLC_INT16 ? "int16 activations"
                                      : "not int8 activations";
  if (vta__view(a, da) || vta__view(b, db) || vta__view(y, dy))
    return "rank above 4";
  for (k = 0; k < 4; k++)
    if (da[k] != db[k] || da[k] != dy[k])
      return "broadcasting";
  if (!(a->scale > 0) || !(b->scale > 0) || !(y->scale > 0))
    return "not quantized";
  if (act < 0 || act > 3)
    return "fused activation not a clamp";
  return NULL;
}

/* Records what claims decided for operator `op` (the last decision for an
 * operator index wins: interpreters are built more than once). */
VTA_FN void vta__note(vta_delegate *v, int32_t op, int32_t code,
                      const char *why) {
  int32_t k;
  for (k = 0; k < v->num_notes; k++)
    if (v->notes[k].op == op)
      break;
  if (k == v->num_notes) {
    if (k == VTA_MAX_NOTES)
      return;
    v->num_notes++;
  }
  v->notes[k].op = op;
  v->notes[k].code = code;
  v->notes[k].why = why;
}

VTA_FN int vta__claims(tflc_op_context *op, void *user) {
  vta_delegate *v = (vta_delegate *)user;
  const int32_t code = tflc_op_code(op);
  const char *why = "no VTA kernel for this operator";
  vta_conv_geo g;
  int32_t act;
  if (code == TFLC_OP_CONV_2D)
    why = vta__conv_check(op, &v->dev->cfg, v->threads, &g, &act);
  else if (code == TFLC_OP_ADD)
    why = vta__add_check(op);
  vta__note(v, tflc_op_index(op), code, why);
  return why == NULL;
}

/* ---- partitions ---------------------------------------------------------- */
typedef struct vta_conv_op {
  int32_t x, y; /* tensors of the partition */
  vta_conv_geo g;
  int8_t *w;        /* [ob][ib][kh][kw][16 o][16 i] */
  uint32_t w_elems; /* 256-byte blocks */
  int32_t *par;     /* [ob][4][16]: bias, pre shift, multiplier, shift */
  uint32_t par_elems;
  int any_pre;
  int32_t zp, lo, hi;
} vta_conv_op;

typedef struct vta_add_op {
  int32_t a, b, y;
  tflc_q16_add_params q;
  int32_t rows, cols;
} vta_add_op;

typedef struct vta_part {
  int32_t num_tensors, num_ops;
  vta_tensor *t;
  int32_t *kind; /* TFLC_OP_ADD / TFLC_OP_CONV_2D per operator */
  void **op;     /* vta_add_op / vta_conv_op */
} vta_part;

VTA_FN int32_t vta__tensor(vta_part *p, const tflc_tensor *t) {
  int32_t k;
  vta_tensor *e;
  for (k = 0; k < p->num_tensors; k++)
    if (p->t[k].t == t)
      return k;
  e = &p->t[p->num_tensors];
  memset(e, 0, sizeof *e);
  e->t = t;
  {
    int32_t d[4];
    (void)vta__view(t, d);
    e->n = d[0], e->h = d[1], e->w = d[2], e->c = d[3];
  }
  e->cb = (e->c + 15) / 16;
  e->constant = (t->flags & (TFLC_TENSOR_CONST | TFLC_TENSOR_LUT)) != 0;
  return p->num_tensors++;
}

/* The CPU side of the conversion at a partition's edge. */
VTA_FN void vta__to_accel(vta_tensor *e, const int8_t *x) {
  int32_t n, h, w, c;
  for (n = 0; n < e->n; n++)
    for (h = 0; h < e->h; h++)
      for (w = 0; w < e->w; w++)
        for (c = 0; c < e->c; c++)
          e->buf[((((size_t)n * (size_t)e->cb + (size_t)(c / 16)) *
                       (size_t)e->hp +
                   (size_t)(h + e->pt)) *
                      (size_t)e->wp +
                  (size_t)(w + e->pl)) *
                     16 +
                 (size_t)(c % 16)] =
              x[(((size_t)n * (size_t)e->h + (size_t)h) * (size_t)e->w +
                 (size_t)w) *
                    (size_t)e->c +
                (size_t)c];
}
VTA_FN void vta__from_accel(const vta_tensor *e, int8_t *y) {
  int32_t n, h, w, c;
  for (n = 0; n < e->n; n++)
    for (h = 0; h < e->h; h++)
      for (w = 0; w < e->w; w++)
        for (c = 0; c < e->c; c++)
          y[(((size_t)n * (size_t)e->h + (size_t)h) * (size_t)e->w +
             (size_t)w) *
                (size_t)e->c +
            (size_t)c] =
              e->buf[((((size_t)n * (size_t)e->cb + (size_t)(c / 16)) *
                           (size_t)e->hp +
                       (size_t)(h + e->pt)) *
                          (size_t)e->wp +
                      (size_t)(w + e->pl)) *
                         16 +
                     (size_t)(c % 16)];
}

/* The requantization VTA applies to a CONV_2D accumulator (bias included),
 * for tests and for reading: SHR pre, MUL m, SHR post (or, rounding, SHR
 * post - 1, ADD 1, SHR 1), ADD zp, MIN hi, MAX lo. With pre 0 and no
 * rounding it is the seed's tflc_q16_requantize. */
VTA_FN int32_t vta_conv_requantize(int32_t acc, int32_t pre, int32_t m,
                                   int32_t post, int round, int32_t zp,
                                   int32_t lo, int32_t hi) {
  int32_t v = vta__lane(VTA_ALU_SHR, acc, pre);
  v = vta__lane(VTA_ALU_MUL, v, m);
  if (round) {
    v = vta__lane(VTA_ALU_SHR, v, post - 1);
    v = vta__lane(VTA_ALU_ADD, v, 1);
    v = vta__lane(VTA_ALU_SHR, v, 1);
  } else {
    v = vta__lane(VTA_ALU_SHR, v, post);
  }
  v = vta__lane(VTA_ALU_ADD, v, zp);
  return v < lo ? lo : v > hi ? hi : v;
}

/* Multiplier, pre shift and shift of one output channel: scale r, |acc| <=
 * bound. */
VTA_FN void vta__conv_scale(double r, int64_t bound, int32_t *pre, int32_t *m,
                            int32_t *post) {
  int16_t mult, shift;
  tflc_q16_multiplier(r, &mult, &shift);
  *pre = 0;
  while ((((bound >> *pre) + 1) * (int64_t)mult) > (int64_t)INT32_MAX &&
         *pre < 31)
    ++*pre;
  *m = mult;
  *post = 15 - shift - *pre;
}

VTA_FN tflc_status vta__conv_prepare(tflc_op_context *part, tflc_op_context *op,
                                     vta_delegate *v, vta_part *p,
                                     vta_conv_op *c) {
  const tflc_tensor *x = tflc_op_input(op, 0), *w = tflc_op_input(op, 1);
  const tflc_tensor *y = tflc_op_output(op, 0);
  tflc_const wc, bc;
  const int has_bias = tflc_op_const(op, 2, &bc);
  const char *why;
  int32_t act, o, i, kh, kw, ns;
  why = vta__conv_check(op, &v->dev->cfg, v->threads, &c->g, &act);
  if (why)
    return tflc_op_fail(part, TFLC_ERR_UNSUPPORTED, why);
  (void)tflc_op_const(op, 1, &wc);
  c->x = vta__tensor(p, x);
  c->y = vta__tensor(p, y);
  c->zp = y->zero_point;
  tflc_activation_range_quantized(act, y->scale, y->zero_point, -128, 127,
                                  &c->lo, &c->hi);
  c->w_elems = (uint32_t)(c->g.ob * c->g.ib * c->g.kh * c->g.kw);
  c->par_elems = (uint32_t)c->g.ob * 4;
  c->w = (int8_t *)tflc_op_persist(part, (size_t)c->w_elems * 256);
  c->par = (int32_t *)tflc_op_persist(part, (size_t)c->par_elems * 64);
  if (!c->w || !c->par)
    return tflc_op_fail(part, TFLC_ERR_ARENA, "arena too small for weights");
  ns = tflc_op_tensor_quant(op, w, 0, NULL, NULL, NULL);
  for (o = 0; o < c->g.co; o++) {
    int64_t sum = 0, abs_sum = 0, bias = has_bias ? tflc_const_i32(&bc, o) : 0;
    int32_t pre, m, post;
    float ws = 0;
    int32_t *vec = c->par + ((size_t)(o / 16) * 4) * 16 + (size_t)(o % 16);
    (void)tflc_op_tensor_quant(op, w, ns > 1 ? o : 0, &ws, NULL, NULL);
    for (kh = 0; kh < c->g.kh; kh++)
      for (kw = 0; kw < c->g.kw; kw++)
        for (i = 0; i < c->g.ci; i++) {
          const int32_t wv = tflc_const_i32(
              &wc, ((o * c->g.kh + kh) * c->g.kw + kw) * c->g.ci + i);
          c->w[(((((size_t)(o / 16) * (size_t)c->g.ib + (size_t)(i / 16)) *
                      (size_t)c->g.kh +
                  (size_t)kh) *
                     (size_t)c->g.kw +
                 (size_t)kw) *
                256) +
               (size_t)(o % 16) * 16 + (size_t)(i % 16)] = (int8_t)wv;
          sum += wv;
          abs_sum += wv < 0 ? -wv : wv;
        }
    /* the input zero point folded into the bias: sum w (x - z) = sum w x
     * - z sum w, every tap (the border holds z) */
    bias -= (int64_t)x->zero_point * sum;
    if (bias < INT32_MIN || bias > INT32_MAX)
      return tflc_op_fail(part, TFLC_ERR_UNSUPPORTED, "bias out of range");
    vta__conv_scale((double)x->scale * (double)ws / (double)y->scale,
                    (bias < 0 ? -bias : bias) + 255 * abs_sum, &pre, &m, &post);
    c->any_pre |= pre != 0;
    vec[0] = (int32_t)bias;
    vec[16] = pre;
    vec[32] = m;
    vec[48] = v->round ? post - 1 : post;
  }
  /* the border the convolution reads */
  {
    vta_tensor *e = &p->t[c->x];
    if (e->pt < c->g.pt)
      e->pt = c->g.pt;
    if (e->pb < c->g.pb)
      e->pb = c->g.pb;
    if (e->pl < c->g.pl)
      e->pl = c->g.pl;
    if (e->pr < c->g.pr)
      e->pr = c->g.pr;
  }
  p->t[c->y].produced = 1;
  return TFLC_OK;
}

VTA_FN tflc_status vta__add_prepare(tflc_op_context *part, tflc_op_context *op,
                                    vta_delegate *v, vta_part *p,
                                    vta_add_op *a) {
  const tflc_tensor *x1 = tflc_op_input(op, 0), *x2 = tflc_op_input(op, 1);
  const tflc_tensor *y = tflc_op_output(op, 0);
  const char *why = vta__add_check(op);
  const uint32_t acc_h = v->dev->cfg.acc_depth / (uint32_t)v->threads;
  int32_t lo, hi;
  uint32_t r, c;
  if (why)
    return tflc_op_fail(part, TFLC_ERR_UNSUPPORTED, why);
  a->a = vta__tensor(p, x1);
  a->b = vta__tensor(p, x2);
  a->y = vta__tensor(p, y);
  p->t[a->y].produced = 1;
  tflc_activation_range_quantized(tflc_op_option_byte(op, 0, 0), y->scale,
                                  y->zero_point, -128, 127, &lo, &hi);
  tflc_q16_add_prepare(x1->scale, x1->zero_point, x2->scale, x2->zero_point,
                       y->scale, y->zero_point, lo, hi, &a->q);
  /* a tile: three ACC regions (two inputs, a temporary) */
  r = (uint32_t)p->t[a->y].h;
  c = (uint32_t)p->t[a->y].w;
  while ((uint64_t)3 * r * c > acc_h) {
    if (r > 1)
      r = (r + 1) / 2;
    else if (c > 1)
      c = (c + 1) / 2;
    else
      return tflc_op_fail(part, TFLC_ERR_UNSUPPORTED, "ACC SRAM too small");
  }
  a->rows = (int32_t)r;
  a->cols = (int32_t)c;
  return TFLC_OK;
}

VTA_FN tflc_status vta__prepare(tflc_op_context *part, void *user) {
  vta_delegate *v = (vta_delegate *)user;
  const int32_t n = tflc_partition_num_ops(part);
  vta_part *p = (vta_part *)tflc_op_persist(part, sizeof *p);
  int32_t k, j;
  if (!p)
    return tflc_op_fail(part, TFLC_ERR_ARENA, "arena too small");
  p->t =
      (vta_tensor *)tflc_op_persist(part, sizeof(vta_tensor) * 3u * (size_t)n);
  p->kind = (int32_t *)tflc_op_persist(part, sizeof(int32_t) * (size_t)n);
  p->op = (void **)tflc_op_persist(part, sizeof(void *) * (size_t)n);
  if (!p->t || !p->kind || !p->op)
    return tflc_op_fail(part, TFLC_ERR_ARENA, "arena too small");
  p->num_ops = n;
  for (k = 0; k < n; k++) {
    tflc_op_context *op = tflc_partition_op(part, k);
    tflc_status st;
    p->kind[k] = tflc_op_code(op);
    if (p->kind[k] == TFLC_OP_CONV_2D) {
      vta_conv_op *c = (vta_conv_op *)tflc_op_persist(part, sizeof *c);
      if (!c)
        return tflc_op_fail(part, TFLC_ERR_ARENA, "arena too small");
      st = vta__conv_prepare(part, op, v, p, c);
      p->op[k] = c;
    } else {
      vta_add_op *a = (vta_add_op *)tflc_op_persist(part, sizeof *a);
      if (!a)
        return tflc_op_fail(part, TFLC_ERR_ARENA, "arena too small");
      st = vta__add_prepare(part, op, v, p, a);
      p->op[k] = a;
    }
    if (st)
      return st;
  }
  /* buffers in the accelerator layout, the border at the zero point */
  for (j = 0; j < p->num_tensors; j++) {
    vta_tensor *e = &p->t[j];
    uint64_t elems;
    e->hp = e->h + e->pt + e->pb;
    e->wp = e->w + e->pl + e->pr;
    elems =
        (uint64_t)e->n * (uint64_t)e->cb * (uint64_t)e->hp * (uint64_t)e->wp;
    if (elems > 0x7FFFFFF)
      return tflc_op_fail(part, TFLC_ERR_UNSUPPORTED, "tensor too large");
    e->elems = (uint32_t)elems;
    e->buf = (int8_t *)tflc_op_persist(part, (size_t)elems * 16);
    if (!e->buf)
      return tflc_op_fail(part, TFLC_ERR_ARENA,
                          "arena too small for accelerator buffers");
    memset(e->buf, (int)(uint8_t)e->t->zero_point, (size_t)elems * 16);
    e->edge_in =
        !e->constant && !e->produced && !(e->t->flags & TFLC_TENSOR_VIRTUAL);
    e->edge_out = e->produced && !(e->t->flags & TFLC_TENSOR_VIRTUAL);
    if (e->constant) {
      /* a constant operand (raw or compressed): into the accelerator
       * layout once, element by element */
      tflc_const cc;
      int32_t i, ops;
      cc.data = NULL;
      for (ops = 0; ops < n && !cc.data; ops++) {
        tflc_op_context *op = tflc_partition_op(part, ops);
        int32_t in;
        for (in = 0; in < 2; in++)
          if (tflc_op_input(op, in) == e->t)
            (void)tflc_op_const(op, in, &cc);
      }
      if (!cc.data)
        return tflc_op_fail(part, TFLC_ERR_KERNEL, "constant without data");
      for (i = 0; i < e->n * e->h * e->w * e->c; i++) {
        const int32_t c = i % e->c, w = (i / e->c) % e->w;
        const int32_t h = (i / e->c / e->w) % e->h, b = i / e->c / e->w / e->h;
        e->buf[((((size_t)b * (size_t)e->cb + (size_t)(c / 16)) *
                     (size_t)e->hp +
                 (size_t)(h + e->pt)) *
                    (size_t)e->wp +
                (size_t)(w + e->pl)) *
                   16 +
               (size_t)(c % 16)] = (int8_t)tflc_const_i32(&cc, i);
      }
    }
  }
  tflc_op_set_state(part, p);
  return TFLC_OK;
}

/* ---- programs ------------------------------------------------------------ */
/* One micro-op. */
VTA_FN int32_t vta__uop1(vta_device *d, uint32_t dst, uint32_t src,
                         uint32_t wgt) {
  int32_t b = vta_uops(d, 1);
  if (b >= 0) {
    d->uops[b].dst = dst;
    d->uops[b].src = src;
    d->uops[b].wgt = wgt;
  }
  return b;
}
/* ALU over `count` consecutive ACC vectors from dst (src advancing alike
 * when not immediate). */
VTA_FN int vta__alu_run(vta_device *d, int alu, int use_imm, int32_t imm,
                        uint32_t dst, uint32_t src, uint32_t count) {
  return vta_alu(d, alu, use_imm, imm, vta__uop1(d, dst, src, 0), 1, count, 1,
                 use_imm ? 0 : 1, 1, 0, 0);
}

VTA_FN int vta__conv_run(vta_delegate *v, vta_part *p, const vta_conv_op *c) {
  vta_device *d = v->dev;
  const vta_tensor *X = &p->t[c->x], *Y = &p->t[c->y];
  const vta_conv_geo *g = &c->g;
  const uint32_t T = (uint32_t)v->threads;
  const uint32_t inp_h = d->cfg.inp_depth / T, wgt_h = d->cfg.wgt_depth / T;
  const uint32_t acc_h = d->cfg.acc_depth / T;
  const uint32_t khw = (uint32_t)(g->kh * g->kw);
  const int32_t nchunk = (g->ib + g->ic - 1) / g->ic;
  int32_t resident[2] = {-1, -1};
  uint32_t step = 0, item = 0;
  int32_t n, o0, r0, c0, k, ol, il, hk, wk;
  int err = 0;
  for (n = 0; n < g->n; n++)
    for (o0 = 0; o0 < g->ob; o0 += g->ocb)
      for (r0 = 0; r0 < g->ho; r0 += g->rows)
        for (c0 = 0; c0 < g->wo; c0 += g->cols) {
          const uint32_t og =
              (uint32_t)(g->ob - o0 < g->ocb ? g->ob - o0 : g->ocb);
          const uint32_t R =
              (uint32_t)(g->ho - r0 < g->rows ? g->ho - r0 : g->rows);
          const uint32_t C =
              (uint32_t)(g->wo - c0 < g->cols ? g->wo - c0 : g->cols);
          const uint32_t rin =
              (R - 1) * (uint32_t)g->sh + (uint32_t)((g->kh - 1) * g->dh + 1);
          const uint32_t win =
              (C - 1) * (uint32_t)g->sw + (uint32_t)((g->kw - 1) * g->dw + 1);
          const uint32_t row0 = (uint32_t)(r0 * g->sh + X->pt - g->pt);
          const uint32_t col0 = (uint32_t)(c0 * g->sw + X->pl - g->pl);
          const uint32_t par = (item % T) * acc_h;
          const uint32_t out = par + 4 * (uint32_t)g->ocb;
          const uint32_t per = R * C; /* outputs per channel block */
          for (k = 0; k < nchunk; k++) {
            const int32_t i0 = k * g->ic;
            const uint32_t icn =
                (uint32_t)(g->ib - i0 < g->ic ? g->ib - i0 : g->ic);
            const uint32_t half = step % T;
            const uint32_t inpb = half * inp_h, wgtb = half * wgt_h;
            int32_t b;
            /* the step's instructions and micro-ops, queued together */
            if (vta_reserve(d, 16 + icn + 2 * og,
                            1 + og * icn * khw + 4 * og + 8) != 0)
              return -1;
            /* LOAD: weights (unless this half holds them) and input rows */
            if (step >= T)
              err |= vta_dep_pop(d, VTA_COMPUTE_Q, VTA_LOAD_Q);
            if (nchunk > 1 || resident[half] != o0) {
              err |= vta_load(
                  d, VTA_MEM_WGT, c->w, c->w_elems,
                  ((uint32_t)o0 * (uint32_t)g->ib + (uint32_t)i0) * khw,
                  icn * khw, og, (uint32_t)g->ib * khw, 0, 0, 0, 0, wgtb);
              resident[half] = nchunk > 1 ? -1 : o0;
            }
            for (il = 0; il < (int32_t)icn; il++)
              err |= vta_load(
                  d, VTA_MEM_INP, X->buf, X->elems,
                  (((uint32_t)n * (uint32_t)X->cb + (uint32_t)(i0 + il)) *
                       (uint32_t)X->hp +
                   row0) * (uint32_t)X->wp +
                      col0,
                  win, rin, (uint32_t)X->wp, 0, 0, 0, 0,
                  inpb + (uint32_t)il * rin * win);
            err |= vta_dep_push(d, VTA_LOAD_Q, VTA_COMPUTE_Q);
            /* COMPUTE: first chunk resets and loads the parameters */
            err |= vta_dep_pop(d, VTA_LOAD_Q, VTA_COMPUTE_Q);
            if (k == 0) {
              if (item >= T)
                err |= vta_dep_pop(d, VTA_STORE_Q, VTA_COMPUTE_Q);
              err |= vta_gemm(d, 1, vta__uop1(d, out, 0, 0), 1, og * per, 1, 0,
                              0, 1, 0, 0, 0);
              err |= vta_load(d, VTA_MEM_ACC, c->par, c->par_elems,
                              (uint32_t)o0 * 4, og * 4, 1, og * 4, 0, 0, 0, 0,
                              par);
            }
            for (ol = 0; ol < (int32_t)og; ol++) {
              b = vta_uops(d, icn * khw);
              if (b < 0)
                return -1;
              for (il = 0; il < (int32_t)icn; il++)
                for (hk = 0; hk < g->kh; hk++)
                  for (wk = 0; wk < g->kw; wk++) {
                    vta_uop *u = &d->uops[(uint32_t)b +
                                          ((uint32_t)il * (uint32_t)g->kh +
                                           (uint32_t)hk) *
                                              (uint32_t)g->kw +
                                          (uint32_t)wk];
                    u->dst = out + (uint32_t)ol * per;
                    u->src = inpb + (uint32_t)il * rin * win +
                             (uint32_t)(hk * g->dh) * win +
                             (uint32_t)(wk * g->dw);
                    u->wgt = wgtb + ((uint32_t)ol * icn + (uint32_t)il) * khw +
                             (uint32_t)(hk * g->kw + wk);
                  }
              err |= vta_gemm(d, 0, b, icn * khw, R, C, (uint32_t)g->sh * win,
                              0, C, 1, (uint32_t)g->sw, 0);
            }
            err |= vta_dep_push(d, VTA_COMPUTE_Q, VTA_LOAD_Q);
            if (k == nchunk - 1) {
              /* requantize on the ALU, per channel from the parameters */
              int32_t kb[4], j;
              for (j = 0; j < 4; j++) {
                kb[j] = vta_uops(d, og);
                if (kb[j] < 0)
                  return -1;
                for (ol = 0; ol < (int32_t)og; ol++) {
                  vta_uop *u = &d->uops[(uint32_t)kb[j] + (uint32_t)ol];
                  u->dst = out + (uint32_t)ol * per;
                  u->src = par + (uint32_t)ol * 4 + (uint32_t)j;
                  u->wgt = 0;
                }
              }
              err |=
                  vta_alu(d, VTA_ALU_ADD, 0, 0, kb[0], og, per, 1, 0, 1, 0, 0);
              if (c->any_pre)
                err |= vta_alu(d, VTA_ALU_SHR, 0, 0, kb[1], og, per, 1, 0, 1, 0,
                               0);
              err |=
                  vta_alu(d, VTA_ALU_MUL, 0, 0, kb[2], og, per, 1, 0, 1, 0, 0);
              err |=
                  vta_alu(d, VTA_ALU_SHR, 0, 0, kb[3], og, per, 1, 0, 1, 0, 0);
              if (v->round) {
                err |= vta__alu_run(d, VTA_ALU_ADD, 1, 1, out, 0, og * per);
                err |= vta__alu_run(d, VTA_ALU_SHR, 1, 1, out, 0, og * per);
              }
              err |= vta__alu_run(d, VTA_ALU_ADD, 1, c->zp, out, 0, og * per);
              err |= vta__alu_run(d, VTA_ALU_MIN, 1, c->hi, out, 0, og * per);
              err |= vta__alu_run(d, VTA_ALU_MAX, 1, c->lo, out, 0, og * per);
              err |= vta_dep_push(d, VTA_COMPUTE_Q, VTA_STORE_Q);
              /* STORE each channel block's rows into the output layout */
              err |= vta_dep_pop(d, VTA_COMPUTE_Q, VTA_STORE_Q);
              for (ol = 0; ol < (int32_t)og; ol++)
                err |= vta_store(
                    d, Y->buf, Y->elems,
                    (((uint32_t)n * (uint32_t)Y->cb + (uint32_t)(o0 + ol)) *
                         (uint32_t)Y->hp +
                     (uint32_t)(Y->pt + r0)) *
                            (uint32_t)Y->wp +
                        (uint32_t)(Y->pl + c0),
                    out + (uint32_t)ol * per, C, R, (uint32_t)Y->wp);
              err |= vta_dep_push(d, VTA_STORE_Q, VTA_COMPUTE_Q);
              item++;
            }
            step++;
            if (err)
              return -1;
          }
        }
  return vta_finish(d);
}

/* Dequantizes the int8 values loaded at ACC `x` (count vectors) in place,
 * exactly as tflc_q16_dequantize, using `tmp` (count vectors). */
VTA_FN int vta__dequantize(vta_device *d, uint32_t x, uint32_t tmp,
                           uint32_t count, int32_t offset, int32_t mult,
                           int32_t shift) {
  int err = 0;
  err |= vta__alu_run(d, VTA_ALU_ADD, 1, offset, x, 0, count);
  err |= vta__alu_run(d, VTA_ALU_SHR, 1, -7, x, 0, count); /* << 7 */
  err |= vta__alu_run(d, VTA_ALU_MUL, 1, mult, x, 0, count);
  /* nudge: 2^14, or 1 - 2^14 for a negative product */
  err |= vta_gemm(d, 1, vta__uop1(d, tmp, 0, 0), 1, count, 1, 0, 0, 1, 0, 0, 0);
  err |= vta__alu_run(d, VTA_ALU_ADD, 0, 0, tmp, x, count);  /* tmp = p */
  err |= vta__alu_run(d, VTA_ALU_MUL, 1, -1, tmp, 0, count); /* -p */
  err |= vta__alu_run(d, VTA_ALU_MAX, 1, 0, tmp, 0, count);  /* max(-p, 0) */
  err |= vta__alu_run(d, VTA_ALU_MIN, 1, 1, tmp, 0, count);  /* p < 0 */
  err |= vta__alu_run(d, VTA_ALU_MUL, 1, -32767, tmp, 0, count);
  err |= vta__alu_run(d, VTA_ALU_ADD, 0, 0, x, tmp, count);
  err |= vta__alu_run(d, VTA_ALU_ADD, 1, 16384, x, 0, count);
  err |= vta__alu_run(d, VTA_ALU_SHR, 1, 15, x, 0, count);
  if (shift != 0)
    err |= vta__alu_run(d, VTA_ALU_SHR, 1, -shift, x, 0, count);
  return err;
}

VTA_FN int vta__add_run(vta_delegate *v, vta_part *p, const vta_add_op *a) {
  vta_device *d = v->dev;
  const vta_tensor *A = &p->t[a->a], *B = &p->t[a->b], *Y = &p->t[a->y];
  const uint32_t T = (uint32_t)v->threads;
  const uint32_t acc_h = d->cfg.acc_depth / T;
  const tflc_q16_add_params *q = &a->q;
  uint32_t item = 0;
  int32_t n, cb, r0, c0;
  int err = 0;
  for (n = 0; n < Y->n; n++)
    for (cb = 0; cb < Y->cb; cb++)
      for (r0 = 0; r0 < Y->h; r0 += a->rows)
        for (c0 = 0; c0 < Y->w; c0 += a->cols) {
          const uint32_t R =
              (uint32_t)(Y->h - r0 < a->rows ? Y->h - r0 : a->rows);
          const uint32_t C =
              (uint32_t)(Y->w - c0 < a->cols ? Y->w - c0 : a->cols);
          const uint32_t cnt = R * C, xa = (item % T) * acc_h;
          const uint32_t xb = xa + cnt, tmp = xb + cnt;
          const int32_t post = 15 - q->out_shift;
          const vta_tensor *in[2];
          int j;
          in[0] = A;
          in[1] = B;
          /* two dequantizations of at most 13 instructions, 11 more */
          if (vta_reserve(d, 37, 34) != 0)
            return -1;
          /* COMPUTE: both operands as int8 into ACC */
          if (item >= T)
            err |= vta_dep_pop(d, VTA_STORE_Q, VTA_COMPUTE_Q);
          for (j = 0; j < 2; j++)
            err |=
                vta_load(d, VTA_MEM_ACC8, in[j]->buf, in[j]->elems,
                         (((uint32_t)n * (uint32_t)in[j]->cb + (uint32_t)cb) *
                              (uint32_t)in[j]->hp +
                          (uint32_t)(in[j]->pt + r0)) *
                                 (uint32_t)in[j]->wp +
                             (uint32_t)(in[j]->pl + c0),
                         C, R, (uint32_t)in[j]->wp, 0, 0, 0, 0, j ? xb : xa);
          err |= vta__dequantize(d, xa, tmp, cnt, q->offset1, q->multiplier1,
                                 q->shift1);
          err |= vta__dequantize(d, xb, tmp, cnt, q->offset2, q->multiplier2,
                                 q->shift2);
          err |= vta__alu_run(d, VTA_ALU_ADD, 0, 0, xa, xb, cnt);
          err |= vta__alu_run(d, VTA_ALU_MUL, 1, q->out_multiplier, xa, 0, cnt);
          if (v->round) {
            err |= vta__alu_run(d, VTA_ALU_SHR, 1, post - 1, xa, 0, cnt);
            err |= vta__alu_run(d, VTA_ALU_ADD, 1, 1, xa, 0, cnt);
            err |= vta__alu_run(d, VTA_ALU_SHR, 1, 1, xa, 0, cnt);
          } else {
            err |= vta__alu_run(d, VTA_ALU_SHR, 1, post, xa, 0, cnt);
          }
          err |= vta__alu_run(d, VTA_ALU_ADD, 1, q->out_offset, xa, 0, cnt);
          err |= vta__alu_run(d, VTA_ALU_MIN, 1, q->act_max, xa, 0, cnt);
          err |= vta__alu_run(d, VTA_ALU_MAX, 1, q->act_min, xa, 0, cnt);
          err |= vta_dep_push(d, VTA_COMPUTE_Q, VTA_STORE_Q);
          err |= vta_dep_pop(d, VTA_COMPUTE_Q, VTA_STORE_Q);
          err |= vta_store(d, Y->buf, Y->elems,
                           (((uint32_t)n * (uint32_t)Y->cb + (uint32_t)cb) *
                                (uint32_t)Y->hp +
                            (uint32_t)(Y->pt + r0)) *
                                   (uint32_t)Y->wp +
                               (uint32_t)(Y->pl + c0),
                           xa, C, R, (uint32_t)Y->wp);
          err |= vta_dep_push(d, VTA_STORE_Q, VTA_COMPUTE_Q);
          item++;
          if (err)
            return -1;
        }
  return vta_finish(d);
}

VTA_FN tflc_status vta__invoke(tflc_op_context *part, void *user) {
  vta_delegate *v = (vta_delegate *)user;
  vta_part *p = (vta_part *)tflc_op_state(part);
  int32_t k;
  for (k = 0; k < p->num_tensors; k++)
    if (p->t[k].edge_in) {
      vta__to_accel(&p->t[k], (const int8_t *)p->t[k].t->data);
      v->to_accel_bytes += p->t[k].t->bytes;
    }
  for (k = 0; k < p->num_ops; k++) {
    int r = p->kind[k] == TFLC_OP_CONV_2D
                ? vta__conv_run(v, p, (const vta_conv_op *)p->op[k])
                : vta__add_run(v, p, (const vta_add_op *)p->op[k]);
    if (r != 0) {
      tflc_status st = tflc_op_fail(part, TFLC_ERR_KERNEL, v->dev->error);
      vta_abort(v->dev); /* reported; the device is usable again */
      return st;
    }
  }
  for (k = 0; k < p->num_tensors; k++)
    if (p->t[k].edge_out) {
      vta__from_accel(&p->t[k], (int8_t *)p->t[k].t->data);
      v->from_accel_bytes += p->t[k].t->bytes;
    }
  return TFLC_OK;
}

/* A delegate on `dev`; round 0 is the seed's arithmetic. Two threads. */
VTA_FN void vta_delegate_init(vta_delegate *v, vta_device *dev, int round) {
  memset(v, 0, sizeof *v);
  v->dev = dev;
  v->round = round;
  v->threads = 2;
  v->tflc.name = "vta";
  v->tflc.claims = vta__claims;
  v->tflc.prepare = vta__prepare;
  v->tflc.invoke = vta__invoke;
  v->tflc.user = v;
}

#endif /* TFLC_EXAMPLES_VTA_DELEGATE_H */

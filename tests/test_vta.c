/* tests/test_vta.c - the VTA reference delegate (examples/vta/): the
 * functional model (GEMM, every ALU operation, LOAD with strides and
 * padding, STORE, dependency tokens: a double-buffered program is right
 * with its tokens and wrong without them, deadlocks are reported), and
 * the delegate: a graph of CONV_2D and ADD run as one partition, data
 * passed between operators in the accelerator layout, equal byte for byte
 * to the seed's arithmetic computed on the CPU under several SRAM sizes,
 * one or two threads, with and without rounding; and the conformance
 * CONV_2D / ADD cases within one step below TFLM's outputs. */
#ifndef TFLC_TEST_LINKED /* else linked with the library built once */
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#endif
#include "../tflc_write.h"
#include "../examples/vta/vta_delegate.h"
#include "harness.h"
#include "models.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t arena[2u << 20] __attribute__((aligned(16)));
static uint8_t device_mem[1u << 20] __attribute__((aligned(16)));

static int device(vta_device *d, uint32_t inp, uint32_t wgt, uint32_t acc,
                  uint32_t insns, uint32_t uops) {
  vta_config c;
  c.inp_depth = inp;
  c.wgt_depth = wgt;
  c.acc_depth = acc;
  c.insn_capacity = insns;
  c.uop_capacity = uops;
  return vta_device_init(d, &c, device_mem, sizeof device_mem);
}

/* ---- the model ----------------------------------------------------------- */
static void test_gemm_alu(void) {
  static vta_device d;
  int8_t in[32], w[512];
  int32_t expect[16], got[16], acc0[16], k, j;
  CHECK_EQ_INT(device(&d, 4, 4, 8, 64, 64), 0);
  for (k = 0; k < 32; k++)
    in[k] = (int8_t)rng_int(-128, 127);
  for (k = 0; k < 512; k++)
    w[k] = (int8_t)rng_int(-128, 127);
  /* acc[1] = 0; acc[1] += in0 x w0; acc[1] += in1 x w1 (a loop of 2) */
  CHECK_EQ_INT(vta_load(&d, VTA_MEM_INP, in, 2, 0, 2, 1, 2, 0, 0, 0, 0, 0), 0);
  CHECK_EQ_INT(vta_load(&d, VTA_MEM_WGT, w, 2, 0, 2, 1, 2, 0, 0, 0, 0, 0), 0);
  CHECK_EQ_INT(vta_dep_push(&d, VTA_LOAD_Q, VTA_COMPUTE_Q), 0);
  CHECK_EQ_INT(vta_dep_pop(&d, VTA_LOAD_Q, VTA_COMPUTE_Q), 0);
  {
    int32_t b = vta_uops(&d, 1);
    d.uops[b].dst = 1, d.uops[b].src = 0, d.uops[b].wgt = 0;
    CHECK_EQ_INT(vta_gemm(&d, 1, b, 1, 1, 0, 0, 0, 1, 0, 0, 0), 0);
    CHECK_EQ_INT(vta_gemm(&d, 0, b, 1, 2, 0, 1, 1, 1, 0, 0, 0), 0);
  }
  CHECK_EQ_INT(vta_sync(&d), 0);
  for (j = 0; j < 16; j++) {
    expect[j] = 0;
    for (k = 0; k < 16; k++)
      expect[j] += in[k] * w[j * 16 + k] + in[16 + k] * w[256 + j * 16 + k];
  }
  CHECK_EQ_MEM(d.acc + 16, expect, 64);
  CHECK_EQ_INT(d.n.gemm, 2);
  CHECK_EQ_INT(d.n.gemm_reset, 1);
  /* ALU: every operation, immediate and vector operands */
  for (j = 0; j < 16; j++) {
    acc0[j] = rng_int(-100000, 100000);
    d.acc[j] = acc0[j];
    d.acc[32 + j] = j == 0   ? 0x12345
                    : j == 1 ? -3
                    : j == 2 ? 40
                             : rng_int(-9, 9);
  }
  d.acc[0] = INT32_MAX;
  acc0[0] = INT32_MAX;
  {
    static const int ops[5] = {VTA_ALU_ADD, VTA_ALU_MUL, VTA_ALU_SHR,
                               VTA_ALU_MIN, VTA_ALU_MAX};
    int o;
    for (o = 0; o < 5; o++) {
      int32_t b;
      memcpy(d.acc, acc0, 64);
      b = vta_uops(&d, 1);
      d.uops[b].dst = 0, d.uops[b].src = 2, d.uops[b].wgt = 0;
      CHECK_EQ_INT(vta_alu(&d, ops[o], 0, 0, b, 1, 1, 0, 0, 1, 0, 0), 0);
      CHECK_EQ_INT(vta_sync(&d), 0);
      memcpy(got, d.acc, 64);
      for (j = 0; j < 16; j++) {
        const int32_t x = acc0[j], y = d.acc[32 + j];
        int64_t e;
        const int32_t y16 = (int16_t)(uint16_t)((uint32_t)y & 0xFFFF);
        switch (ops[o]) {
        case VTA_ALU_ADD:
          e = (int64_t)x + y;
          e = (int32_t)(uint32_t)(uint64_t)e; /* wraps */
          break;
        case VTA_ALU_MUL:
          e = (int32_t)(uint32_t)(uint64_t)((int64_t)x * y16);
          break;
        case VTA_ALU_SHR:
          e = y >= 0 ? (y > 31 ? (x < 0 ? -1 : 0) : x >> y)
                     : (int32_t)((uint32_t)x << -y);
          break;
        case VTA_ALU_MIN:
          e = x < y ? x : y;
          break;
        default:
          e = x > y ? x : y;
        }
        if (got[j] != (int32_t)e)
          fprintf(stderr, "alu %d lane %d: %d op %d = %d, expected %d\n",
                  ops[o], j, x, y, got[j], (int32_t)e);
        CHECK(got[j] == (int32_t)e);
      }
    }
    /* immediates: MUL by -2, SHR by -3 (a left shift) */
    memcpy(d.acc, acc0, 64);
    {
      int32_t b = vta_uops(&d, 1);
      d.uops[b].dst = 0, d.uops[b].src = 0, d.uops[b].wgt = 0;
      CHECK_EQ_INT(vta_alu(&d, VTA_ALU_MUL, 1, -2, b, 1, 1, 0, 0, 1, 0, 0), 0);
      CHECK_EQ_INT(vta_alu(&d, VTA_ALU_SHR, 1, -3, b, 1, 1, 0, 0, 1, 0, 0), 0);
    }
    CHECK_EQ_INT(vta_sync(&d), 0);
    CHECK_EQ_INT(d.acc[5], (int32_t)((uint32_t)(acc0[5] * -2) << 3));
    /* an immediate wider than 16 bits is refused */
    CHECK(vta_alu(&d, VTA_ALU_ADD, 1, 40000, 0, 1, 1, 0, 0, 1, 0, 0) != 0);
    CHECK(strstr(d.error, "16 bits") != NULL);
  }
}

static void test_load_store(void) {
  static vta_device d;
  int8_t dram[6 * 16], out[8 * 16];
  int32_t k;
  CHECK_EQ_INT(device(&d, 32, 2, 32, 64, 64), 0);
  for (k = 0; k < 96; k++)
    dram[k] = (int8_t)(k - 48);
  /* 2 rows of 2 elements, stride 3, from element 1; pads 1 left, 1 right,
   * 1 row above: 3 rows of 4 entries into INP 0.. */
  CHECK_EQ_INT(vta_load(&d, VTA_MEM_INP, dram, 6, 1, 2, 2, 3, 1, 1, 1, 0, 0),
               0);
  /* the same as sign-extended int8 into ACC */
  CHECK_EQ_INT(vta_load(&d, VTA_MEM_ACC8, dram, 6, 1, 2, 2, 3, 1, 1, 1, 0, 0),
               0);
  CHECK_EQ_INT(vta_sync(&d), 0);
  for (k = 0; k < 12; k++) {
    const int row = k / 4, col = k % 4;
    const int inside = row >= 1 && col >= 1 && col <= 2;
    const int src = inside ? 1 + (row - 1) * 3 + (col - 1) : -1;
    int8_t want[16];
    int32_t want32[16], j;
    for (j = 0; j < 16; j++) {
      want[j] = src >= 0 ? dram[src * 16 + j] : 0;
      want32[j] = want[j];
    }
    CHECK_EQ_MEM(d.inp + k * 16, want, 16);
    CHECK_EQ_MEM(d.acc + k * 16, want32, 64);
  }
  CHECK_EQ_INT(d.n.load_entries[VTA_MEM_INP], 12);
  /* STORE keeps the low 8 bits, rows at a stride */
  d.acc[5 * 16 + 3] = 0x1FF; /* -1 */
  memset(out, 0x55, sizeof out);
  CHECK_EQ_INT(vta_store(&d, out, 8, 1, 4, 2, 2, 4), 0);
  CHECK_EQ_INT(vta_sync(&d), 0);
  CHECK_EQ_INT(out[0], 0x55);
  CHECK_EQ_INT(out[2 * 16 + 3], -1);              /* ACC entry 5 -> element 2 */
  CHECK_EQ_MEM(out + 5 * 16, d.inp + 6 * 16, 16); /* row 1: element 5 */
  CHECK_EQ_INT(out[3 * 16], 0x55);                /* skipped by the stride */
  /* out of range: SRAM and DRAM */
  CHECK(vta_load(&d, VTA_MEM_INP, dram, 6, 0, 6, 6, 6, 0, 0, 0, 0, 0) == 0);
  CHECK(vta_sync(&d) != 0 && strstr(d.error, "SRAM") != NULL);
  vta_abort(&d);
  CHECK(vta_load(&d, VTA_MEM_INP, dram, 6, 5, 2, 1, 2, 0, 0, 0, 0, 0) == 0);
  CHECK(vta_sync(&d) != 0 && strstr(d.error, "DRAM") != NULL);
  vta_abort(&d);
}

/* Six items through two halves: LOAD a vector, COMPUTE out = in x I (the
 * identity block), STORE it. `tokens`: 0 all of them; 1 LOAD does not wait
 * for COMPUTE to free a half; 2 COMPUTE does not wait for STORE. */
static int pipeline(vta_device *d, int tokens, int8_t *out, const int8_t *in,
                    const int8_t *eye) {
  int32_t j, b;
  vta_abort(d);
  memset(&d->n, 0, sizeof d->n);
  memset(out, 0, 6 * 16);
  if (vta_load(d, VTA_MEM_WGT, eye, 1, 0, 1, 1, 1, 0, 0, 0, 0, 2) != 0)
    return -1;
  for (j = 0; j < 6; j++) {
    const uint32_t h = (uint32_t)j % 2;
    if (j >= 2 && tokens != 1)
      vta_dep_pop(d, VTA_COMPUTE_Q, VTA_LOAD_Q);
    vta_load(d, VTA_MEM_INP, in, 6, (uint32_t)j, 1, 1, 1, 0, 0, 0, 0, h);
    vta_dep_push(d, VTA_LOAD_Q, VTA_COMPUTE_Q);
    vta_dep_pop(d, VTA_LOAD_Q, VTA_COMPUTE_Q);
    if (j >= 2 && tokens != 2)
      vta_dep_pop(d, VTA_STORE_Q, VTA_COMPUTE_Q);
    b = vta_uops(d, 1);
    d->uops[b].dst = h, d->uops[b].src = h, d->uops[b].wgt = 2;
    vta_gemm(d, 1, b, 1, 1, 0, 0, 0, 1, 0, 0, 0);
    vta_gemm(d, 0, b, 1, 1, 0, 0, 0, 1, 0, 0, 0);
    vta_dep_push(d, VTA_COMPUTE_Q, VTA_LOAD_Q);
    vta_dep_push(d, VTA_COMPUTE_Q, VTA_STORE_Q);
    vta_dep_pop(d, VTA_COMPUTE_Q, VTA_STORE_Q);
    vta_store(d, out, 6, (uint32_t)j, h, 1, 1, 1);
    vta_dep_push(d, VTA_STORE_Q, VTA_COMPUTE_Q);
  }
  return vta_finish(d);
}
static void test_tokens(void) {
  static vta_device d;
  int8_t in[6 * 16], out[6 * 16], eye[256];
  int32_t k;
  CHECK_EQ_INT(device(&d, 2, 4, 2, 64, 64), 0);
  for (k = 0; k < 96; k++)
    in[k] = (int8_t)rng_int(-128, 127);
  memset(eye, 0, sizeof eye);
  for (k = 0; k < 16; k++)
    eye[k * 16 + k] = 1;
  CHECK_EQ_INT(pipeline(&d, 0, out, in, eye), 0);
  CHECK_EQ_MEM(out, in, sizeof in);
  /* the three modules overlapped: less time than their work added up */
  CHECK(d.n.cycles < d.n.busy[0] + d.n.busy[1] + d.n.busy[2]);
  /* without LOAD's waits the model runs LOAD ahead and overwrites inputs
   * COMPUTE has not read; without COMPUTE's, results STORE has not
   * written */
  CHECK_EQ_INT(pipeline(&d, 1, out, in, eye), 0);
  CHECK(memcmp(out, in, sizeof in) != 0);
  CHECK_EQ_INT(pipeline(&d, 2, out, in, eye), 0);
  CHECK(memcmp(out, in, sizeof in) != 0);
  /* a pop nobody pushes for: deadlock, reported */
  vta_abort(&d);
  vta_dep_pop(&d, VTA_LOAD_Q, VTA_COMPUTE_Q);
  {
    int32_t b = vta_uops(&d, 1);
    d.uops[b].dst = d.uops[b].src = d.uops[b].wgt = 0;
    vta_gemm(&d, 1, b, 1, 1, 0, 0, 0, 1, 0, 0, 0);
  }
  CHECK(vta_sync(&d) != 0);
  CHECK(strstr(d.error, "deadlock") != NULL);
  vta_abort(&d);
}

/* ---- the delegate -------------------------------------------------------- */
typedef struct conv_spec {
  int32_t in, out, co, kh, kw, sh, sw, dh, dw, same, act;
} conv_spec;

/* x [1,9,11,20] (zero point -7) -> c1 = CONV 3x3 SAME, 35 channels, RELU
 * -> c2 = CONV 3x3 stride 2 dilation 2 SAME, 18; c3 = CONV 1x1 stride 2
 * VALID on x, 18; y = ADD(c2, c3), RELU6. Tensor ids: see below. */
#define NX 0
#define NC1 1
#define NC2 2
#define NC3 3
#define NY 4
static const int32_t shapes[5][4] = {{1, 9, 11, 20},
                                     {1, 9, 11, 35},
                                     {1, 5, 6, 18},
                                     {1, 5, 6, 18},
                                     {1, 5, 6, 18}};
static const float act_scale[5] = {0.02f, 0.05f, 0.11f, 0.09f, 0.13f};
static const int64_t act_zp[5] = {-7, -128, 3, -20, -128};
static const conv_spec convs[3] = {{NX, NC1, 35, 3, 3, 1, 1, 1, 1, 1, 1},
                                   {NC1, NC2, 18, 3, 3, 2, 2, 2, 2, 1, 0},
                                   {NX, NC3, 18, 1, 1, 2, 2, 1, 1, 0, 0}};
static int8_t wts[3][35 * 3 * 3 * 35];
static int32_t bias[3][35];
static float wscale[3][35];

static uint8_t *graph_model(size_t *size) {
  tflc_writer *w = tflc_writer_create();
  int32_t t[5], k, c;
  uint8_t *bytes = NULL;
  for (k = 0; k < 5; k++) {
    tflc_w_quant q;
    q.scale = &act_scale[k], q.zero_point = &act_zp[k], q.count = 1, q.axis = 0;
    t[k] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, shapes[k], NULL, 0, "t", &q);
  }
  for (c = 0; c < 3; c++) {
    const conv_spec *s = &convs[c];
    const int32_t ci = shapes[s->in][3];
    const int32_t dw[4] = {s->co, s->kh, s->kw, ci}, db[1] = {s->co};
    int64_t zw[35], zb[35];
    float bs[35];
    tflc_w_quant qw, qb;
    tflc_w_option o[6];
    int32_t in[3];
    for (k = 0; k < s->co * s->kh * s->kw * ci; k++)
      wts[c][k] = (int8_t)rng_int(-127, 127);
    for (k = 0; k < s->co; k++) {
      bias[c][k] = rng_int(-3000, 3000);
      wscale[c][k] = 0.002f + 0.0001f * (float)rng_int(0, 40);
      zw[k] = zb[k] = 0;
      bs[k] = act_scale[s->in] * wscale[c][k];
    }
    qw.scale = wscale[c], qw.zero_point = zw, qw.count = s->co, qw.axis = 0;
    qb.scale = bs, qb.zero_point = zb, qb.count = s->co, qb.axis = 0;
    in[0] = t[s->in];
    in[1] = tflc_writer_tensor(w, 0, TFLC_INT8, 4, dw, wts[c],
                               (size_t)(s->co * s->kh * s->kw * ci), "w", &qw);
    in[2] = tflc_writer_tensor(w, 0, TFLC_INT32, 1, db, bias[c],
                               (size_t)s->co * 4, "b", &qb);
    memset(o, 0, sizeof o);
    o[0].slot = 0, o[0].kind = TFLC_W_U8, o[0].i = s->same ? 0 : 1;
    o[1].slot = 1, o[1].kind = TFLC_W_I32, o[1].i = s->sw;
    o[2].slot = 2, o[2].kind = TFLC_W_I32, o[2].i = s->sh;
    o[3].slot = 3, o[3].kind = TFLC_W_U8, o[3].i = s->act;
    o[4].slot = 4, o[4].kind = TFLC_W_I32, o[4].i = s->dw;
    o[5].slot = 5, o[5].kind = TFLC_W_I32, o[5].i = s->dh;
    tflc_writer_op(w, 0, TFLC_OP_CONV_2D, NULL, 3, in, 1, &t[s->out], 1, 6, o);
  }
  {
    tflc_w_option o;
    int32_t in[2];
    memset(&o, 0, sizeof o);
    o.slot = 0, o.kind = TFLC_W_U8, o.i = 3; /* RELU6 */
    in[0] = t[NC2], in[1] = t[NC3];
    tflc_writer_op(w, 0, TFLC_OP_ADD, NULL, 2, in, 1, &t[NY], 11, 1, &o);
  }
  tflc_writer_inputs(w, 0, 1, &t[NX]);
  tflc_writer_outputs(w, 0, 1, &t[NY]);
  if (tflc_writer_finish(w, &bytes, size) != TFLC_OK)
    bytes = NULL;
  tflc_writer_destroy(w);
  return bytes;
}

/* The seed's arithmetic on the CPU: int32 convolution, the requantization
 * vta_conv_requantize describes, tflc_add_q16_s8. */
static void reference(const int8_t *x, int round, int8_t *y) {
  static int8_t buf[5][1 * 9 * 11 * 35];
  int32_t c, o, oh, ow, kh, kw, i;
  memcpy(buf[NX], x, 9 * 11 * 20);
  for (c = 0; c < 3; c++) {
    const conv_spec *s = &convs[c];
    const int32_t *di = shapes[s->in], *dout = shapes[s->out];
    const int32_t ci = di[3], zi = (int32_t)act_zp[s->in];
    int32_t pt = 0, pl = 0, lo, hi;
    if (s->same) {
      int32_t th = (dout[1] - 1) * s->sh + (s->kh - 1) * s->dh + 1 - di[1];
      int32_t tw = (dout[2] - 1) * s->sw + (s->kw - 1) * s->dw + 1 - di[2];
      pt = th > 0 ? th / 2 : 0;
      pl = tw > 0 ? tw / 2 : 0;
    }
    tflc_activation_range_quantized(s->act, act_scale[s->out],
                                    (int32_t)act_zp[s->out], -128, 127, &lo,
                                    &hi);
    for (o = 0; o < s->co; o++) {
      int64_t sum = 0, abs_sum = 0, b;
      int32_t pre, m, post;
      for (i = 0; i < s->kh * s->kw * ci; i++) {
        const int32_t wv = wts[c][o * s->kh * s->kw * ci + i];
        sum += wv;
        abs_sum += wv < 0 ? -wv : wv;
      }
      b = bias[c][o] - (int64_t)zi * sum;
      vta__conv_scale((double)act_scale[s->in] * (double)wscale[c][o] /
                          (double)act_scale[s->out],
                      (b < 0 ? -b : b) + 255 * abs_sum, &pre, &m, &post);
      for (oh = 0; oh < dout[1]; oh++)
        for (ow = 0; ow < dout[2]; ow++) {
          int32_t acc = bias[c][o];
          for (kh = 0; kh < s->kh; kh++)
            for (kw = 0; kw < s->kw; kw++) {
              const int32_t ih = oh * s->sh + kh * s->dh - pt;
              const int32_t iw = ow * s->sw + kw * s->dw - pl;
              if (ih < 0 || iw < 0 || ih >= di[1] || iw >= di[2])
                continue;
              for (i = 0; i < ci; i++)
                acc += wts[c][((o * s->kh + kh) * s->kw + kw) * ci + i] *
                       (buf[s->in][(ih * di[2] + iw) * ci + i] - zi);
            }
          buf[s->out][(oh * dout[2] + ow) * s->co + o] =
              (int8_t)vta_conv_requantize(acc, pre, m, post, round,
                                          (int32_t)act_zp[s->out], lo, hi);
        }
    }
  }
  {
    tflc_q16_add_params p;
    int32_t lo, hi;
    tflc_activation_range_quantized(3, act_scale[NY], (int32_t)act_zp[NY], -128,
                                    127, &lo, &hi);
    tflc_q16_add_prepare(act_scale[NC2], (int32_t)act_zp[NC2], act_scale[NC3],
                         (int32_t)act_zp[NC3], act_scale[NY],
                         (int32_t)act_zp[NY], lo, hi, &p);
    if (round) {
      /* the rounded variant: final shift rounds half up */
      for (i = 0; i < 5 * 6 * 18; i++) {
        int32_t v = tflc_q16_dequantize(buf[NC2][i], p.offset1, p.multiplier1,
                                        p.shift1) +
                    tflc_q16_dequantize(buf[NC3][i], p.offset2, p.multiplier2,
                                        p.shift2);
        v = vta__lane(VTA_ALU_MUL, v, p.out_multiplier);
        v = vta__lane(VTA_ALU_SHR, v, 14 - p.out_shift);
        v = (v + 1) >> 1;
        v += p.out_offset;
        y[i] = (int8_t)(v < p.act_min   ? p.act_min
                        : v > p.act_max ? p.act_max
                                        : v);
      }
    } else {
      tflc_add_q16_s8(&p, 5 * 6 * 18, buf[NC2], buf[NC3], y);
    }
  }
}

typedef struct dev_case {
  uint32_t inp, wgt, acc, insns, uops;
  int threads, round;
} dev_case;

static void test_graph(void) {
  static const dev_case cases[] = {
      {2048, 1024, 2048, 1024, 8192, 2, 0}, /* the seed's sizes */
      {2048, 1024, 2048, 1024, 8192, 1, 0},
      {2048, 1024, 2048, 1024, 8192, 2, 1},
      {64, 24, 40, 40, 400, 2, 0}, /* tiles of rows, columns, chunks */
      {30, 9, 14, 40, 200, 1, 1}};
  static vta_device d;
  static vta_delegate v;
  size_t size = 0;
  uint8_t *bytes = graph_model(&size);
  int8_t x[9 * 11 * 20], want[5 * 6 * 18], exact[5 * 6 * 18];
  tflc_model m;
  tflc_interpreter it;
  tflc_options opt;
  unsigned k;
  int32_t i, worst = 0;
  CHECK(bytes != NULL);
  if (!bytes)
    return;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  for (i = 0; i < (int32_t)sizeof x; i++)
    x[i] = (int8_t)rng_int(-128, 127);
  /* the bit-exact kernels, for the distance printed below */
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, NULL),
               TFLC_OK);
  memcpy(tflc_input(&it, 0)->data, x, sizeof x);
  CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
  memcpy(exact, tflc_output(&it, 0)->data, sizeof exact);
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const dev_case *c = &cases[k];
    uint64_t cycles;
    CHECK_EQ_INT(device(&d, c->inp, c->wgt, c->acc, c->insns, c->uops), 0);
    vta_delegate_init(&v, &d, c->round);
    v.threads = c->threads;
    memset(&opt, 0, sizeof opt);
    opt.delegates = &v.tflc;
    opt.num_delegates = 1;
    CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
                 TFLC_OK);
    /* one partition: x in, y out, c1..c3 kept in the accelerator layout */
    CHECK_EQ_INT(tflc_num_partitions(&it), 1);
    {
      tflc_partition_info p;
      CHECK(tflc_partition_info_get(&it, 0, &p));
      CHECK(p.first_op == 0 && p.last_op == 3 && p.num_inputs == 1 &&
            p.num_outputs == 1 && p.num_internal == 3);
    }
    memcpy(tflc_input(&it, 0)->data, x, sizeof x);
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
    if (tflc_error(&it)[0])
      fprintf(stderr, "  invoke: %s\n", tflc_error(&it));
    reference(x, c->round, want);
    CHECK_EQ_MEM(tflc_output(&it, 0)->data, want, sizeof want);
    /* only the edges were converted from and to NHWC */
    CHECK_EQ_INT(v.to_accel_bytes, sizeof x);
    CHECK_EQ_INT(v.from_accel_bytes, sizeof want);
    CHECK(d.n.gemm > 0 && d.n.alu > 0 && d.n.load_entries[VTA_MEM_WGT] > 0);
    cycles = d.n.cycles;
    /* again: the same bytes, the same work */
    memset(&d.n, 0, sizeof d.n);
    memcpy(tflc_input(&it, 0)->data, x, sizeof x);
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
    CHECK_EQ_MEM(tflc_output(&it, 0)->data, want, sizeof want);
    printf("  inp %u wgt %u acc %u, %d thread(s)%s: %llu cycles, %llu GEMM, "
           "%llu ALU, %llu syncs\n",
           c->inp, c->wgt, c->acc, c->threads, c->round ? ", round" : "",
           (unsigned long long)d.n.cycles, (unsigned long long)d.n.gemm,
           (unsigned long long)d.n.alu, (unsigned long long)d.n.syncs);
    (void)cycles;
  }
  for (i = 0; i < (int32_t)sizeof want; i++) {
    const int32_t dd = abs(want[i] - exact[i]);
    worst = dd > worst ? dd : worst;
  }
  printf("  graph: largest difference to the bit-exact kernels %d\n", worst);
  free(bytes);
}

/* Two threads (double buffering) take fewer cycles than one, same work. */
static void test_threads(void) {
  static vta_device d;
  static vta_delegate v;
  size_t size = 0;
  uint8_t *bytes = graph_model(&size);
  int8_t x[9 * 11 * 20];
  tflc_model m;
  tflc_interpreter it;
  tflc_options opt;
  uint64_t cycles[2], gemm[2];
  int t;
  int32_t i;
  if (!bytes)
    return;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  for (i = 0; i < (int32_t)sizeof x; i++)
    x[i] = (int8_t)rng_int(-128, 127);
  for (t = 0; t < 2; t++) {
    /* the same half-SRAMs: the same tiles, the same work */
    const uint32_t f = (uint32_t)t + 1;
    CHECK_EQ_INT(device(&d, 64 * f, 24 * f, 40 * f, 64, 400), 0);
    vta_delegate_init(&v, &d, 0);
    v.threads = t + 1;
    memset(&opt, 0, sizeof opt);
    opt.delegates = &v.tflc;
    opt.num_delegates = 1;
    CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
                 TFLC_OK);
    memcpy(tflc_input(&it, 0)->data, x, sizeof x);
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
    cycles[t] = d.n.cycles;
    gemm[t] = d.n.gemm;
  }
  CHECK(cycles[1] < cycles[0]);
  CHECK_EQ_INT(gemm[0], gemm[1]);
  printf("  small SRAMs, same tiles: %llu cycles with one thread, %llu with "
         "two\n",
         (unsigned long long)cycles[0], (unsigned long long)cycles[1]);
  free(bytes);
}

/* Declined operators say why: a broadcasting ADD, an SRAM too small. */
static void test_declined(void) {
  static vta_device d;
  static vta_delegate v;
  size_t size = 0;
  uint8_t *bytes = graph_model(&size);
  tflc_model m;
  tflc_interpreter it;
  tflc_options opt;
  int32_t k, declined = 0;
  if (!bytes)
    return;
  CHECK_EQ_INT(tflc_model_init(&m, bytes, size), TFLC_OK);
  /* WGT of 16 entries: half is 8, a 3x3 kernel needs 9 */
  CHECK_EQ_INT(device(&d, 2048, 16, 2048, 1024, 8192), 0);
  vta_delegate_init(&v, &d, 0);
  memset(&opt, 0, sizeof opt);
  opt.delegates = &v.tflc;
  opt.num_delegates = 1;
  CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
               TFLC_OK);
  for (k = 0; k < v.num_notes; k++)
    if (v.notes[k].why) {
      declined++;
      CHECK(strstr(v.notes[k].why, "WGT") != NULL);
      CHECK(v.notes[k].op == 0 || v.notes[k].op == 1);
    }
  CHECK_EQ_INT(declined, 2);
  CHECK_EQ_INT(tflc_num_partitions(&it), 1); /* ops 2-3 */
  free(bytes);
}

/* The conformance CONV_2D / ADD int8 cases: each output one step below
 * TFLM's or equal (the seed's shifts floor where TFLM rounds). */
static void test_conformance(void) {
  static const char *cases[] = {
      "ops/CONV_2D/i8_1x10x10x2_o4_k7x7_s11_d11_same_relu6_bigk_zp127",
      "ops/CONV_2D/i8_1x11x11x3_o4_k3x3_s11_d22_same_relu_n1_to_1_dil",
      "ops/CONV_2D/i8_1x1x1x7_o3_k1x1_s11_d11_valid_none_1x1",
      "ops/CONV_2D/i8_1x8x8x3_o5_k3x3_s11_d11_same_relu",
      "ops/CONV_2D/i8_1x9x7x4_o6_k3x3_s22_d11_valid_none_zp-128",
      "ops/CONV_2D/i8_1x9x9x3_o5_k1x1_s33_d11_valid_none_stride_gt_k",
      "ops/ADD/i8_1x4x5x3_1x4x5x3_same_none"};
  static vta_device d;
  static vta_delegate v;
  const char *shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
  unsigned k;
  int32_t total = 0, equal = 0, below = 0, other = 0;
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char path[600];
    size_t ms = 0, os = 0, j;
    uint8_t *model, *out;
    int32_t n;
    tflc_model m;
    tflc_interpreter it;
    tflc_options opt;
    snprintf(path, sizeof path, "%s/conformance/%s/model.tflite", shared,
             cases[k]);
    model = read_file(path, &ms);
    snprintf(path, sizeof path, "%s/conformance/%s/output_0.bin", shared,
             cases[k]);
    out = read_file(path, &os);
    if (!model || !out) {
      printf("  %s: not found, skipped\n", cases[k]);
      free(model);
      free(out);
      continue;
    }
    CHECK_EQ_INT(device(&d, 2048, 1024, 2048, 1024, 8192), 0);
    vta_delegate_init(&v, &d, 0);
    memset(&opt, 0, sizeof opt);
    opt.delegates = &v.tflc;
    opt.num_delegates = 1;
    CHECK_EQ_INT(tflc_model_init(&m, model, ms), TFLC_OK);
    CHECK_EQ_INT(tflc_interpreter_init(&it, &m, arena, sizeof arena, &opt),
                 TFLC_OK);
    CHECK_EQ_INT(tflc_num_partitions(&it), 1);
    for (n = 0; n < it.num_inputs; n++) {
      size_t is = 0;
      uint8_t *in;
      snprintf(path, sizeof path, "%s/conformance/%s/input_%d.bin", shared,
               cases[k], n);
      in = read_file(path, &is);
      CHECK(in && tflc_input(&it, n)->bytes == is);
      if (in && tflc_input(&it, n)->bytes == is)
        memcpy(tflc_input(&it, n)->data, in, is);
      free(in);
    }
    CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
    CHECK_EQ_INT(tflc_output(&it, 0)->bytes, os);
    for (j = 0; j < os; j++) {
      const int32_t dd =
          ((const int8_t *)tflc_output(&it, 0)->data)[j] - (int8_t)out[j];
      if (dd != 0 && dd != -1)
        fprintf(stderr, "  %s: output %u: %d\n", cases[k], (unsigned)j, dd);
      total++;
      equal += dd == 0;
      below += dd == -1;
      other += dd != 0 && dd != -1;
    }
    free(model);
    free(out);
  }
  CHECK_EQ_INT(other, 0);
  if (total)
    printf("  conformance CONV_2D / ADD: %d outputs, %d equal to TFLM's, %d "
           "one below\n",
           total, equal, below);
}

int main(void) {
  rng_seed(12345);
  RUN(test_gemm_alu);
  RUN(test_load_store);
  RUN(test_tokens);
  RUN(test_graph);
  RUN(test_threads);
  RUN(test_declined);
  RUN(test_conformance);
  return harness_report();
}

/* fuzz/fuzz_kernels.c - libFuzzer harness: every compiled fast version of
 * the platform primitives (GEMM, depthwise, requantization) against the
 * portable version, byte for byte, on shapes, strides, input offsets,
 * requantization parameters and data the input chooses. Built with -mavx2
 * (fuzz/fuzz.mk) so that the SSE4.1 and AVX2 versions are there, with
 * TFLC_DSP_EMULATE for the Arm DSP ones and TFLC_HIFI_EMULATE for the Xtensa
 * HiFi ones (HiFi 4 code, over tests/hifi_emu.h, whose misaligned-load,
 * overflow and stream-misuse counters must stay zero). A new platform version
 * is one line in `fast` below. Buffers are allocated at their exact sizes, so
 * AddressSanitizer sees any read past an input or write past an output;
 * any difference aborts.
 *
 * The Arm DSP depthwise layer paths (the 3x3 frame and the path of any
 * filter, which take a whole DEPTHWISE_CONV_2D layer) are checked against
 * a plain reference of TFLM's arithmetic written here, and must either
 * agree or refuse the layer without writing a byte. The Arm DSP
 * FULLY_CONNECTED layer path (one to three batches) is checked against the
 * portable GEMM the generic path runs, under the same rule, and the DSP
 * int8 ADD loop against the portable one. An int8 CONV_2D with its biases
 * folded once (tflc_conv2d_s8_fold, tflc_conv2d_s8_folded) is checked
 * against tflc_conv2d_s8, which sums its filter at each call, and CONV_2D
 * with few input channels (the window copies) against the direct path.
 * Case 8 checks CONV_2D against the direct path through the Arm DSP's
 * convolution paths: the widened windows of few-channel filters
 * (tflc__conv2d_s8_im2col_dsp), the gathered pixels of strided 1x1
 * convolutions (tflc__conv2d_s8_gather) and the border runs with the
 * input offset in their biases (tflc__conv2d_s8_border). On the host they
 * come from fuzz/fuzz_kernels_wide.c, this file compiled again with
 * TFLC_CONV_WIDE_TEST over the DSP GEMM (linked into fuzz_kernels), so
 * that case 7 keeps the host's paths (the split windows, the offset on
 * the inputs); on the target (fuzz/target_run.c) from this file's own
 * copy, the target's paths.
 *
 * Input layout (missing bytes read as 0):
 *   0      primitive: b % 9 (0 GEMM, 1 depthwise, 2 requantization,
 *          3 depthwise layer, 4 fully connected, 5 ADD, 6 folded
 *          convolution, 7 CONV_2D with few input channels, 8 CONV_2D
 *          through the Arm DSP's convolution paths)
 *   1..    shape and parameter bytes, in the order read below
 *   rest   a pool of data bytes (inputs, weights, accumulators), cycled */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_ON_TARGET /* (fuzz/target_run.c: the target's own code) */
#define TFLC_DSP_EMULATE
#ifndef FUZZ_CONV_WIDE
#define TFLC_HIFI_EMULATE /* the Xtensa HiFi 4 code over tests/hifi_emu.h */
#endif
#endif
#ifdef FUZZ_CONV_WIDE       /* (fuzz/fuzz_kernels_wide.c: case 8's copy) */
#define TFLC_STATIC         /* the kernels again, this copy's own */
#define TFLC_CONV_WIDE_TEST /* the Arm DSP's convolution paths */
#define TFLC_GEMM_S8 tflc_gemm_s8_dsp /* over the Arm DSP's GEMM */
#else
#define TFLC_DW3_LAYER_TEST /* the DSP depthwise layer paths */
#endif
#define TFLC_REQUANTIZE_S8 tflc_requantize_s8_portable /* a pure reference */
#define TFLC_KERNELS_IMPLEMENTATION
#include "../tflc_kernels.h"

typedef void (*gemm_fn)(const tflc_requant_params *, const tflc_gemm_block *);
typedef void (*depthwise_fn)(const tflc_requant_params *,
                             const tflc_depthwise_block *);
typedef void (*requant_fn)(const tflc_requant_params *, int32_t,
                           const int32_t *, int8_t *);

#ifndef FUZZ_CONV_WIDE /* (cases 0..7 and their helpers: this build's) */
/* every fast version compiled here (NULL: the platform has none) */
static const struct {
  const char *name;
  gemm_fn gemm;
  depthwise_fn depthwise;
  requant_fn requant;
} fast[] = {
#if defined(TFLC_HAVE_DSP)
    {"dsp", tflc_gemm_s8_dsp, tflc_depthwise_s8_dsp, NULL},
#endif
#if defined(TFLC_HAVE_SSE41_GEMM)
    {"sse41", tflc_gemm_s8_sse41, tflc_depthwise_s8_sse41,
     tflc_requantize_s8_sse41},
#endif
#if defined(TFLC_HAVE_AVX2_GEMM)
    {"avx2", tflc_gemm_s8_avx2, tflc_depthwise_s8_avx2,
     tflc_requantize_s8_avx2},
#endif
#if defined(TFLC_HAVE_HIFI)
    {"hifi", tflc_gemm_s8_hifi, tflc_depthwise_s8_hifi, NULL},
#endif
#if defined(TFLC_HAVE_MVE)
    {"mve", tflc_gemm_s8_mve, tflc_depthwise_s8_mve, tflc_requantize_s8_mve},
#endif
};
#define N_FAST (sizeof fast / sizeof fast[0])
#endif

/* the input, read front to back; the data pool is what is left */
typedef struct reader {
  const uint8_t *d;
  size_t n, i;
} reader;
static uint32_t u8(reader *r) {
  return r->i < r->n ? r->d[r->i++] : 0u;
}
static uint32_t u32(reader *r) {
  uint32_t v = u8(r);
  v |= u8(r) << 8;
  v |= u8(r) << 16;
  return v | (u8(r) << 24);
}
static int32_t s32(reader *r) {
  const uint32_t u = u32(r);
  return u <= 0x7FFFFFFFu ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}
static int32_t s8(reader *r) {
  return (int32_t)u8(r) - 128;
}
static void pool_fill(const reader *r, void *dst, size_t n) {
  uint8_t *p = (uint8_t *)dst;
  const size_t left = r->n > r->i ? r->n - r->i : 0;
  size_t k;
  for (k = 0; k < n; k++)
    p[k] = left ? r->d[r->i + k % left] : 0u;
}

/* a difference: abort (fuzz/target_run.c reports and exits instead) */
#ifndef FUZZ_FAIL
#define FUZZ_FAIL() abort()
#endif

static void *xmalloc(size_t n) {
  void *p = calloc(n ? n : 1, 1); /* (zeroed: nothing reads garbage) */
  if (p == NULL)
    abort();
  return p;
}

#ifndef FUZZ_CONV_WIDE
/* an input offset: the kernels' -128..255, the 16-bit lane limit, beyond */
static int32_t offset(reader *r) {
  switch (u8(r) % 6u) {
  case 0:
    return 0;
  case 1:
    return (int32_t)u8(r) - 128 + (int32_t)(u8(r) & 0x80u);
  case 2:
    return (int32_t)(u32(r) % 65281u) - 32640;
  case 3:
    return (u8(r) & 1u ? 32640 : -32640) + (int32_t)(u8(r) % 3u) - 1;
  case 4:
    return s32(r);
  default:
    return s8(r);
  }
}
#endif

/* requantization parameters for n channels */
typedef struct quant {
  int32_t q[64], bias[64];
  int8_t shift[64];
  tflc_requant_params rq;
} quant;
static void quant_read(reader *r, quant *k, int32_t n) {
  const uint32_t f = u8(r);
  int32_t c;
  for (c = 0; c < n; c++) {
    if (f & 64u) { /* the fast paths' simple case: q >= 2^30, shift -1..-23 */
      k->q[c] = (int32_t)(0x40000000u + (u32(r) & 0x3FFFFFFFu));
      k->shift[c] = (int8_t)(-1 - (int32_t)(u8(r) % 23u));
      k->bias[c] = f & 16u ? s32(r) : s8(r) * 256;
      continue;
    }
    switch (u8(r) % 4u) {
    case 0:
      k->q[c] = INT32_MAX - (int32_t)u8(r);
      break;
    case 1:
      k->q[c] = INT32_MIN + (int32_t)(u8(r) % 3u);
      break;
    case 2:
      k->q[c] = (int32_t)(0x40000000u + (u32(r) & 0x3FFFFFFFu));
      break;
    default:
      k->q[c] = s32(r);
      break;
    }
    k->shift[c] = (int8_t)(f & 8u ? s8(r) : (int32_t)(u8(r) % 62u) - 31);
    k->bias[c] = f & 16u ? s32(r) : s8(r) * 256;
  }
  k->rq.bias = f & 1u ? k->bias : NULL;
  k->rq.multiplier = k->q;
  k->rq.shift = k->shift;
  k->rq.per_channel = (f & 2u) != 0;
  k->rq.output_offset = f & 4u ? s32(r) : s8(r);
  if (f & 32u) {
    k->rq.act_min = s32(r) % 400;
    k->rq.act_max = s32(r) % 400;
  } else {
    k->rq.act_min = s8(r);
    k->rq.act_max = s8(r);
  }
}

static void differ(const char *what, const char *name) {
  fprintf(stderr, "fuzz_kernels: %s %s differs from the portable version\n",
          name, what);
  FUZZ_FAIL();
}

#ifndef FUZZ_CONV_WIDE
static void fuzz_gemm(reader *r) {
  tflc_gemm_block g;
  quant k;
  int32_t segs;
  size_t an, wn, on, m;
  int8_t *a, *w, *expect, *got;
  g.rows = 1 + (int32_t)(u8(r) % 8u);
  g.cols = 1 + (int32_t)(u8(r) % 40u);
  g.segments = (int32_t)(u8(r) % 5u);
  g.seg_len = (int32_t)(u8(r) % 200u);
  segs = g.segments > 0 ? g.segments : 1;
  g.a_seg = g.seg_len + (int32_t)(u8(r) % 9u);
  g.a_row = u8(r) % 5u == 0 ? 0 : g.a_seg * segs + (int32_t)(u8(r) % 5u);
  g.w_seg = g.seg_len + (int32_t)(u8(r) % 4u);
  g.w_col = g.w_seg * segs + (int32_t)(u8(r) % 5u);
  g.out_row = g.cols + (int32_t)(u8(r) % 3u);
  g.a_offset = offset(r);
  quant_read(r, &k, g.cols);
  an = (size_t)((g.rows - 1) * g.a_row + (segs - 1) * g.a_seg + g.seg_len);
  wn = (size_t)((g.cols - 1) * g.w_col + (segs - 1) * g.w_seg + g.seg_len);
  on = (size_t)((g.rows - 1) * g.out_row + g.cols);
  a = (int8_t *)xmalloc(an);
  w = (int8_t *)xmalloc(wn);
  expect = (int8_t *)xmalloc(on);
  got = (int8_t *)xmalloc(on);
  pool_fill(r, a, an);
  pool_fill(r, w, wn);
  g.a = a;
  g.w = w;
  memset(expect, 0x5A, on);
  g.out = expect;
  tflc_gemm_s8_portable(&k.rq, &g);
  for (m = 0; m < N_FAST; m++) {
    memset(got, 0x5A, on);
    g.out = got;
    fast[m].gemm(&k.rq, &g);
    if (memcmp(got, expect, on) != 0)
      differ("GEMM", fast[m].name);
  }
  free(a);
  free(w);
  free(expect);
  free(got);
}

static void fuzz_depthwise(reader *r) {
  tflc_depthwise_block b;
  quant k;
  int32_t cin;
  size_t xn, wn, on, m;
  int8_t *x, *w, *expect, *got;
  b.channels = 1 + (int32_t)(u8(r) % 48u);
  b.multiplier = u8(r) % 4u == 0 ? 1 + (int32_t)(u8(r) % 24u) : 1;
  b.pixels = 1 + (int32_t)(u8(r) % 8u);
  b.rows = (int32_t)(u8(r) % 10u);
  b.cols = (int32_t)(u8(r) % 10u);
  cin = (b.channels + b.multiplier - 1) / b.multiplier;
  b.x_col = cin + (int32_t)(u8(r) % 4u);
  b.x_row = b.x_col * (b.cols + 1) + (int32_t)(u8(r) % 4u);
  b.x_pixel = b.x_col * (int32_t)(u8(r) % 3u);
  b.x_offset = offset(r);
  b.w_col = b.channels + (int32_t)(u8(r) % 4u);
  b.w_row = b.w_col * (b.cols > 0 ? b.cols : 1) + (int32_t)(u8(r) % 4u);
  b.out_pixel = b.channels + (int32_t)(u8(r) % 3u);
  if (u8(r) % 4u == 0) { /* rows that follow each other (one flat run) */
    b.x_row = b.x_col * b.cols;
    b.w_row = b.w_col * b.cols;
  }
  quant_read(r, &k, b.channels);
  xn = (size_t)((b.pixels - 1) * b.x_pixel +
                (b.rows > 0 ? b.rows - 1 : 0) * b.x_row +
                (b.cols > 0 ? b.cols - 1 : 0) * b.x_col + cin);
  wn = (size_t)((b.rows > 0 ? b.rows - 1 : 0) * b.w_row +
                (b.cols > 0 ? b.cols - 1 : 0) * b.w_col + b.channels);
  on = (size_t)((b.pixels - 1) * b.out_pixel + b.channels);
  x = (int8_t *)xmalloc(xn);
  w = (int8_t *)xmalloc(wn);
  expect = (int8_t *)xmalloc(on);
  got = (int8_t *)xmalloc(on);
  pool_fill(r, x, xn);
  pool_fill(r, w, wn);
  b.x = x;
  b.w = w;
  memset(expect, 0x5A, on);
  b.out = expect;
  tflc_depthwise_s8_portable(&k.rq, &b);
  for (m = 0; m < N_FAST; m++) {
    memset(got, 0x5A, on);
    b.out = got;
    fast[m].depthwise(&k.rq, &b);
    if (memcmp(got, expect, on) != 0)
      differ("depthwise", fast[m].name);
  }
  free(x);
  free(w);
  free(expect);
  free(got);
}

static void fuzz_requantize(reader *r) {
  quant k;
  const int32_t n = 1 + (int32_t)(u8(r) % 64u);
  int32_t *acc = (int32_t *)xmalloc((size_t)n * sizeof(int32_t));
  int8_t *expect = (int8_t *)xmalloc((size_t)n);
  int8_t *got = (int8_t *)xmalloc((size_t)n);
  size_t m;
  quant_read(r, &k, n);
  pool_fill(r, acc, (size_t)n * sizeof(int32_t));
  tflc_requantize_s8_portable(&k.rq, n, acc, expect);
  for (m = 0; m < N_FAST; m++) {
    if (fast[m].requant == NULL)
      continue;
    memset(got, 0x5A, (size_t)n);
    fast[m].requant(&k.rq, n, acc, got);
    if (memcmp(got, expect, (size_t)n) != 0)
      differ("requantization", fast[m].name);
  }
  free(acc);
  free(expect);
  free(got);
}

#if defined(TFLC_HAVE_DSP)
/* a layer path's result: the expected bytes when it ran, else none
 * written (the buffer still 0x5A) */
static void layer_check(int ran, const int8_t *got, const int8_t *expect,
                        size_t n, const char *what, const char *name) {
  size_t i;
  if (ran) {
    if (memcmp(got, expect, n) != 0)
      differ(what, name);
    return;
  }
  for (i = 0; i < n; i++)
    if (got[i] != 0x5A)
      differ(what, "a layer path that refused the layer but wrote");
}

/* a window's output sizes: SAME or VALID padding */
static void out_size(int32_t in, int32_t k, int32_t stride, int32_t dil,
                     int same, int32_t *out, int32_t *pad) {
  const int32_t eff = (k - 1) * dil + 1;
  int32_t total;
  *out = same ? (in + stride - 1) / stride : (in - eff + stride) / stride;
  if (*out < 1)
    *out = 1;
  total = (*out - 1) * stride + eff - in;
  *pad = total > 0 ? total / 2 : 0;
}

/* TFLM's reference depthwise convolution, tap by tap (taps outside the
 * input skipped) */
static void ref_depthwise(const tflc_conv_params *p, const int32_t *in_dims,
                          const int8_t *in, const int32_t *f_dims,
                          const int8_t *f, const int32_t *bias,
                          const int32_t *out_dims, int8_t *out) {
  const int32_t cin = in_dims[3], cout = out_dims[3];
  int32_t b, oy, ox, oc, ky, kx;
  for (b = 0; b < out_dims[0]; b++)
    for (oy = 0; oy < out_dims[1]; oy++)
      for (ox = 0; ox < out_dims[2]; ox++)
        for (oc = 0; oc < cout; oc++) {
          const int32_t ic = oc / p->depth_multiplier;
          int32_t acc = bias != NULL ? bias[oc] : 0, v;
          for (ky = 0; ky < f_dims[1]; ky++)
            for (kx = 0; kx < f_dims[2]; kx++) {
              const int32_t y =
                  oy * p->stride_h - p->pad_h + ky * p->dilation_h;
              const int32_t x =
                  ox * p->stride_w - p->pad_w + kx * p->dilation_w;
              if (y < 0 || y >= in_dims[1] || x < 0 || x >= in_dims[2])
                continue;
              acc += (in[((b * in_dims[1] + y) * in_dims[2] + x) * cin + ic] +
                      p->input_offset) *
                     f[(ky * f_dims[2] + kx) * cout + oc];
            }
          /* the output offset added with int32 wrapping, as the kernels */
          v = tflc__wrap32((int64_t)tflc_multiply_by_quantized_multiplier(
                               acc, p->out_multiplier[oc], p->out_shift[oc]) +
                           p->output_offset);
          v = v < p->act_min ? p->act_min : v;
          v = v > p->act_max ? p->act_max : v;
          out[((b * out_dims[1] + oy) * out_dims[2] + ox) * cout + oc] =
              (int8_t)v;
        }
}

/* A whole int8 DEPTHWISE_CONV_2D layer through the DSP layer paths: the
 * 3x3 frame, or the path of any filter (long columns, dilation), on maps
 * up to 40 wide, multipliers 1, 2, 4, 8, any zero point and clamp; the
 * requantization mostly the simple kind the paths take, now and then not
 * (then they refuse). Inputs are bounded so that no sum overflows. */
static void fuzz_dw_layer(reader *r) {
  tflc_conv_params p;
  quant k;
  int32_t in_dims[4], f_dims[4], out_dims[4], kh, kw, mult, cin, cout, c;
  size_t in_n, f_n, out_n;
  int8_t *x, *w, *expect, *got;
  tflc_const fc, bc;
  const uint32_t mode = u8(r);
  const int any = (int)(mode & 1u);
  int same, ran;
  static const int32_t mults[8] = {1, 1, 1, 1, 2, 4, 8, 1};
  mult = mults[u8(r) % 8u];
  cin = mult == 1 ? 1 + (int32_t)(u8(r) % 40u) : 1 + (int32_t)(u8(r) % 3u);
  cout = cin * mult;
  in_dims[0] = out_dims[0] = 1 + (int32_t)(u8(r) % 2u);
  in_dims[1] = 1 + (int32_t)(u8(r) % 14u);
  in_dims[2] = 1 + (int32_t)(u8(r) % 40u);
  in_dims[3] = cin;
  kh = kw = 3;
  memset(&p, 0, sizeof p);
  p.dilation_h = p.dilation_w = 1;
  if (any) {
    kh = 1 + (int32_t)(u8(r) % 7u);
    kw = 1 + (int32_t)(u8(r) % 7u);
    if (mode & 2u) { /* a long column */
      kh = 5 + (int32_t)(u8(r) % 19u);
      kw = 1;
      in_dims[1] = kh + (int32_t)(u8(r) % 3u);
    }
    p.dilation_h = 1 + (int32_t)(u8(r) % 2u);
    p.dilation_w = 1 + (int32_t)(u8(r) % 2u);
  }
  p.stride_h = 1 + (int32_t)(u8(r) % 2u);
  p.stride_w = 1 + (int32_t)(u8(r) % 2u);
  same = (mode & 4u) != 0 || in_dims[1] < (kh - 1) * p.dilation_h + 1 ||
         in_dims[2] < (kw - 1) * p.dilation_w + 1;
  out_size(in_dims[1], kh, p.stride_h, p.dilation_h, same, &out_dims[1],
           &p.pad_h);
  out_size(in_dims[2], kw, p.stride_w, p.dilation_w, same, &out_dims[2],
           &p.pad_w);
  out_dims[3] = cout;
  f_dims[0] = 1;
  f_dims[1] = kh;
  f_dims[2] = kw;
  f_dims[3] = cout;
  p.depth_multiplier = mult;
  p.input_offset = mode & 8u ? 128 - (int32_t)(u8(r) & 1u) : -s8(r);
  /* requantization: mostly the simple kind (bit 64), the others refused */
  quant_read(r, &k, cout);
  if (u8(r) % 8u != 0) {
    for (c = 0; c < cout; c++) {
      k.q[c] = (int32_t)(0x40000000u + (k.q[c] & 0x3FFFFFFF));
      k.shift[c] = (int8_t)(-1 - (int32_t)((uint32_t)k.shift[c] % 23u));
    }
  }
  for (c = 0; c < cout; c++) /* no sum overflows */
    k.bias[c] %= 0x100000;
  p.output_offset = s8(r);
  p.act_min = s8(r);
  p.act_max = s8(r);
  if (p.act_min > p.act_max) {
    const int32_t t = p.act_min;
    p.act_min = p.act_max;
    p.act_max = t;
  }
  p.out_multiplier = k.q;
  p.out_shift = k.shift;
  in_n = (size_t)(in_dims[0] * in_dims[1] * in_dims[2] * cin);
  f_n = (size_t)(kh * kw * cout);
  out_n = (size_t)(out_dims[0] * out_dims[1] * out_dims[2] * cout);
  x = (int8_t *)xmalloc(in_n);
  w = (int8_t *)xmalloc(f_n);
  expect = (int8_t *)xmalloc(out_n);
  got = (int8_t *)xmalloc(out_n);
  pool_fill(r, x, in_n);
  pool_fill(r, w, f_n);
  fc = tflc_const_raw(w, TFLC_INT8, (int32_t)f_n);
  bc = tflc_const_raw(k.bias, TFLC_INT32, cout);
  ref_depthwise(&p, in_dims, x, f_dims, w, mode & 16u ? NULL : k.bias, out_dims,
                expect);
  memset(got, 0x5A, out_n);
  {
    /* bit 32: the layer's tile (the padded copy of small 3x3 maps, the
     * widened weights and copy of rows of 5 or 7 taps; misaligned with
     * bit 128: then without it) */
    static uint32_t tile[(16384 + 64) / 4];
    void *t =
        mode & 32u ? (void *)((char *)tile + (mode & 128u ? 1 : 0)) : NULL;
    const size_t tb = mode & 32u ? sizeof tile - 4 : 0;
    if (any)
      ran = tflc__dsp_dw_wide_layer(&p, in_dims, x, f_dims, &fc,
                                    mode & 16u ? NULL : &bc, out_dims, got, t,
                                    tb) ||
            tflc__dsp_dw_layer(&p, in_dims, x, f_dims, &fc,
                               mode & 16u ? NULL : &bc, out_dims, got);
    else
      ran =
          tflc__dsp_dw3x3_layer(&p, in_dims, x, f_dims, &fc,
                                mode & 16u ? NULL : &bc, out_dims, got, t, tb);
  }
  layer_check(ran, got, expect, out_n,
              any ? "depthwise layer (any filter)" : "depthwise layer (3x3)",
              "dsp");
#if defined(TFLC__DEPTHWISE_LAYER_S8_IS_MVE)
  /* Helium's 3x3 layer path (on the target only) */
  memset(got, 0x5A, out_n);
  ran = tflc__mve_dw3x3_layer(&p, in_dims, x, f_dims, &fc,
                              mode & 16u ? NULL : &bc, out_dims, got);
  layer_check(ran, got, expect, out_n, "depthwise layer (3x3)", "mve");
#endif
  free(x);
  free(w);
  free(expect);
  free(got);
}
/* tflc_fully_connected_s8_dsp against the portable GEMM over the same
 * operands (the generic FULLY_CONNECTED path): it computes the layer or
 * writes nothing */
static void fuzz_fc(reader *r) {
  tflc_fc_params p;
  tflc_gemm_block g;
  quant k;
  const int32_t batches = 1 + (int32_t)(u8(r) % 4u);
  const int32_t depth = 1 + (int32_t)(u8(r) % 160u);
  const int32_t out_depth = 1 + (int32_t)(u8(r) % 40u);
  const size_t in_n = (size_t)(batches * depth);
  const size_t w_n = (size_t)(out_depth * depth);
  const size_t out_n = (size_t)(batches * out_depth);
  int8_t *x = (int8_t *)xmalloc(in_n), *w = (int8_t *)xmalloc(w_n);
  int8_t *expect = (int8_t *)xmalloc(out_n), *got = (int8_t *)xmalloc(out_n);
  tflc_const fc, bc;
  size_t i;
  int ran;
  memset(&p, 0, sizeof p);
  p.input_offset = offset(r);
  quant_read(r, &k, out_depth);
  for (i = 0; i < (size_t)out_depth; i++) /* tflc_fc_params' -31..30 */
    k.shift[i] = (int8_t)(k.shift[i] < -31  ? -31
                          : k.shift[i] > 30 ? 30
                                            : k.shift[i]);
  p.output_offset = k.rq.output_offset;
  p.act_min = k.rq.act_min;
  p.act_max = k.rq.act_max;
  p.per_channel = k.rq.per_channel;
  p.out_multiplier = k.q;
  p.out_shift = k.shift;
  pool_fill(r, x, in_n);
  pool_fill(r, w, w_n);
  g.rows = batches;
  g.cols = out_depth;
  g.segments = 1;
  g.seg_len = depth;
  g.a = x;
  g.a_row = depth;
  g.a_seg = 0;
  g.a_offset = p.input_offset;
  g.w = w;
  g.w_col = depth;
  g.w_seg = 0;
  g.out = expect;
  g.out_row = out_depth;
  memset(expect, 0x5A, out_n);
  tflc_gemm_s8_portable(&k.rq, &g);
  fc = tflc_const_raw(w, TFLC_INT8, (int32_t)w_n);
  bc = tflc_const_raw(k.bias, TFLC_INT32, out_depth);
  memset(got, 0x5A, out_n);
  ran = tflc_fully_connected_s8_dsp(&p, batches, depth, out_depth, x, &fc,
                                    k.rq.bias != NULL ? &bc : NULL, got);
  layer_check(ran, got, expect, out_n, "fully connected layer", "dsp");
#if defined(TFLC_HAVE_MVE_FULLY_CONNECTED)
  { /* Helium's layer record as its prepare makes it, then its run (which
     * hands a layer it does not take to the generic path) */
    tflc_fc_s8_mve_record rec;
    int mve;
    const size_t nb = tflc__fc_s8_mve_plan(
        &p, depth, out_depth, &fc, k.rq.bias != NULL ? &bc : NULL, &mve);
    void *buf = nb ? xmalloc(nb) : NULL;
    tflc__fc_s8_prepare_mve(&rec, buf, &p, depth, out_depth, &fc,
                            k.rq.bias != NULL ? &bc : NULL);
    memset(got, 0x5A, out_n);
    tflc__fc_s8_run_mve(&rec, &p, batches, depth, out_depth, x, &fc,
                        k.rq.bias != NULL ? &bc : NULL, got, NULL, 0);
    if (memcmp(got, expect, out_n) != 0)
      differ("fully connected layer", "mve");
    free(buf);
  }
#endif
  free(x);
  free(w);
  free(expect);
  free(got);
}

/* the DSP int8 ADD loop against the portable one: parameters as
 * tflc_add_prepare_s8 makes them, or any (it takes its range and hands
 * the rest to the portable loop) */
static void fuzz_add(reader *r) {
  tflc_add_params p;
  const size_t n = (size_t)(u8(r) % 100u);
  int8_t *a = (int8_t *)xmalloc(n), *b = (int8_t *)xmalloc(n);
  int8_t *expect = (int8_t *)xmalloc(n), *got = (int8_t *)xmalloc(n);
  memset(&p, 0, sizeof p);
  if (u8(r) & 1u) {
    const float s1 = (float)(1u + u32(r) % 100000u) * 1e-5f;
    const float s2 = (float)(1u + u32(r) % 100000u) * 1e-5f;
    const float so = (float)(1u + u32(r) % 100000u) * 1e-5f;
    const int32_t z1 = s8(r), z2 = s8(r), zo = s8(r);
    tflc_add_prepare_s8(s1, z1, s2, z2, so, zo, (int)(u8(r) % 4u), &p);
  } else {
    p.input1_offset = (int32_t)(u32(r) % 801u) - 400;
    p.input2_offset = (int32_t)(u32(r) % 801u) - 400;
    p.output_offset = (int32_t)(u32(r) % 801u) - 400;
    p.left_shift = u8(r) & 1u ? 20 : (int32_t)(u8(r) % 21u);
    p.input1_multiplier = s32(r);
    p.input2_multiplier = s32(r);
    p.output_multiplier = s32(r);
    p.input1_shift = (int32_t)(u8(r) % 63u) - 31;
    p.input2_shift = (int32_t)(u8(r) % 63u) - 31;
    p.output_shift = (int32_t)(u8(r) % 63u) - 31;
    p.act_min = s8(r);
    p.act_max = s8(r);
    if (p.act_min > p.act_max) {
      const int32_t t = p.act_min;
      p.act_min = p.act_max;
      p.act_max = t;
    }
  }
  pool_fill(r, a, n);
  r->i += n;
  pool_fill(r, b, n);
  tflc_add_elementwise_s8_portable(&p, n, a, b, expect);
  memset(got, 0x5A, n);
  tflc_add_elementwise_s8_dsp(&p, n, a, b, got);
  if (memcmp(got, expect, n) != 0)
    differ("ADD", "dsp");
#if defined(TFLC_HAVE_MVE_ADD_ELEMENTWISE)
  memset(got, 0x5A, n);
  tflc_add_elementwise_s8_mve(&p, n, a, b, got);
  if (memcmp(got, expect, n) != 0)
    differ("ADD", "mve");
#endif
  free(a);
  free(b);
  free(expect);
  free(got);
}
#endif

/* An int8 CONV_2D (one batch, raw filter) through tflc_conv2d_s8_folded
 * with the biases tflc_conv2d_s8_fold made, against tflc_conv2d_s8; the
 * fold's answer the same with and without its output. */
static void fuzz_conv_folded(reader *r) {
  tflc_conv_params p;
  quant k;
  int32_t in_dims[4], f_dims[4], out_dims[4], folded[64];
  size_t in_n, f_n, out_n;
  int8_t *in, *f, *expect, *got;
  tflc_const fc, bc;
  int32_t h, w, cin, kh, kw, ph, pw, used;
  memset(&p, 0, sizeof p);
  h = 1 + (int32_t)(u8(r) % 8u);
  w = 1 + (int32_t)(u8(r) % 8u);
  cin = u8(r) % 2u ? 4 * (1 + (int32_t)(u8(r) % 16u))
                   : 1 + (int32_t)(u8(r) % 40u);
  kh = 1 + (int32_t)(u8(r) % 3u);
  kw = 1 + (int32_t)(u8(r) % 3u);
  p.stride_h = 1 + (int32_t)(u8(r) % 2u);
  p.stride_w = 1 + (int32_t)(u8(r) % 2u);
  p.dilation_h = p.dilation_w = 1;
  ph = (int32_t)(u8(r) % (uint32_t)kh);
  pw = (int32_t)(u8(r) % (uint32_t)kw);
  p.pad_h = ph;
  p.pad_w = pw;
  out_dims[3] = 1 + (int32_t)(u8(r) % 40u);
  p.input_offset = offset(r);
  if (p.input_offset < -32768 || p.input_offset > 32767)
    p.input_offset %= 32768; /* (TFLM's offsets: -zero point) */
  quant_read(r, &k, out_dims[3]);
  p.output_offset = k.rq.output_offset;
  p.act_min = k.rq.act_min;
  p.act_max = k.rq.act_max;
  p.out_multiplier = k.q;
  p.out_shift = k.shift;
  in_dims[0] = out_dims[0] = f_dims[3] = 1;
  in_dims[1] = h;
  in_dims[2] = w;
  in_dims[3] = f_dims[3] = cin;
  f_dims[0] = out_dims[3];
  f_dims[1] = kh;
  f_dims[2] = kw;
  out_dims[1] = (h + 2 * ph - kh) / p.stride_h + 1;
  out_dims[2] = (w + 2 * pw - kw) / p.stride_w + 1;
  if (out_dims[1] < 1 || out_dims[2] < 1)
    return;
  in_n = (size_t)(h * w * cin);
  f_n = (size_t)(out_dims[3] * kh * kw * cin);
  out_n = (size_t)(out_dims[1] * out_dims[2] * out_dims[3]);
  in = (int8_t *)xmalloc(in_n);
  f = (int8_t *)xmalloc(f_n);
  expect = (int8_t *)xmalloc(out_n);
  got = (int8_t *)xmalloc(out_n);
  pool_fill(r, in, in_n);
  pool_fill(r, f, f_n);
  fc = tflc_const_raw(f, TFLC_INT8, (int32_t)f_n);
  bc = tflc_const_raw(k.bias, TFLC_INT32, out_dims[3]);
  memset(expect, 0x5A, out_n);
  tflc_conv2d_s8(&p, in_dims, in, f_dims, &fc, k.rq.bias ? &bc : NULL, out_dims,
                 expect, NULL, 0);
  used = tflc_conv2d_s8_fold(&p, in_dims, f_dims, &fc, k.rq.bias ? &bc : NULL,
                             out_dims, NULL);
  if (used != tflc_conv2d_s8_fold(&p, in_dims, f_dims, &fc,
                                  k.rq.bias ? &bc : NULL, out_dims, folded))
    differ("conv fold", "folded");
  memset(got, 0x5A, out_n);
  tflc_conv2d_s8_folded(&p, in_dims, in, f_dims, &fc, k.rq.bias ? &bc : NULL,
                        out_dims, got, used ? folded : NULL);
  if (memcmp(got, expect, out_n) != 0)
    differ("CONV_2D", "folded");
  free(in);
  free(f);
  free(expect);
  free(got);
}

#endif

/* fuzz_conv_few's mode bits (case 7: none, case 8: a byte of the input) */
#define FEW_WIDE_QUANT 1u /* the Arm DSP's widened windows' requantization */
#define FEW_CHANNELS 2u   /* 1..64 input channels, kernels up to 3x3 */
#define FEW_POINTWISE 4u  /* 1x1 (strided: the gathered pixels) */
#define FEW_FOLDED 8u     /* tflc_conv2d_s8_folded with the folded biases */
#ifdef FUZZ_CONV_WIDE
#define FEW_NAME "blocked (TFLC_CONV_WIDE_TEST)"
#else
#define FEW_NAME "blocked"
#endif

/* CONV_2D with few input channels (kernel rows under 16 values, depths up
 * to 64: the window copies of several pixels per GEMM call, whole or in
 * two segments for depths that are no multiple of four, some of them in
 * the output's unwritten part) through tflc_conv2d_s8 against the direct
 * path (tflc__conv2d_s8_direct: each pixel's clipped window read in
 * place), raw filters, exact-size buffers. mode (FEW_*): every channel's
 * requantization mostly the kind tflc__conv2d_s8_im2col_dsp takes (a
 * simple multiplier, outputs saturating to int8, biases within its sums'
 * range); more input channels on smaller maps (kernel rows of 16 values
 * and more, depths beyond 64: the border runs); 1x1 filters; the biases
 * folded once (tflc_conv2d_s8_fold, tflc_conv2d_s8_folded). */
static void fuzz_conv_few(reader *r, uint32_t mode) {
  tflc_conv_params p;
  quant k;
  int32_t in_dims[4], f_dims[4], out_dims[4], c, folded[64];
  const int wide_ch = (mode & FEW_CHANNELS) != 0;
  const int32_t n = 1 + (int32_t)(u8(r) % 2u);
  const int32_t cin = 1 + (int32_t)(u8(r) % (wide_ch ? 64u : 5u));
  const int32_t kh_in = 1 + (int32_t)(u8(r) % (wide_ch ? 3u : 9u));
  const int32_t kw_in =
      1 + (int32_t)(u8(r) % (cin < 15 ? (uint32_t)(15 / cin) : 1u));
  const int32_t kw = mode & FEW_POINTWISE ? 1 : kw_in;
  /* (FEW_WIDE_QUANT, few channels: depths up to 32, mostly the widened
   * windows' 5..28) */
  const int32_t kh = mode & FEW_POINTWISE ? 1
                     : (mode & FEW_WIDE_QUANT) && !wide_ch
                         ? 1 + (kh_in - 1) % (32 / (kw * cin))
                         : kh_in;
  const int32_t sh = 1 + (int32_t)(u8(r) % 3u), sw = 1 + (int32_t)(u8(r) % 3u);
  const int32_t dh = 1 + (int32_t)(u8(r) % 2u);
  const uint32_t span = wide_ch ? 16u : 40u;
  const int32_t h = (kh - 1) * dh + 1 + (int32_t)(u8(r) % span);
  const int32_t w = kw + (int32_t)(u8(r) % span);
  const int32_t cout = 1 + (int32_t)(u8(r) % 40u);
  const int same = (int)(u8(r) & 1u);
  const int32_t eh = (kh - 1) * dh + 1;
  const int32_t oh = same ? (h + sh - 1) / sh : (h - eh + sh) / sh;
  const int32_t ow = same ? (w + sw - 1) / sw : (w - kw + sw) / sw;
  const int32_t ph =
      same && (oh - 1) * sh + eh > h ? ((oh - 1) * sh + eh - h) / 2 : 0;
  const int32_t pw =
      same && (ow - 1) * sw + kw > w ? ((ow - 1) * sw + kw - w) / 2 : 0;
  const size_t in_n = (size_t)(n * h * w * cin),
               f_n = (size_t)(cout * kh * kw * cin);
  const size_t out_n = (size_t)(n * oh * ow * cout);
  int8_t *x = (int8_t *)xmalloc(in_n), *f = (int8_t *)xmalloc(f_n);
  int8_t *expect = (int8_t *)xmalloc(out_n), *got = (int8_t *)xmalloc(out_n);
  tflc_const fc, bc;
  memset(&p, 0, sizeof p);
  p.stride_h = sh;
  p.stride_w = sw;
  p.dilation_h = dh;
  p.dilation_w = 1;
  p.pad_h = ph;
  p.pad_w = pw;
  p.depth_multiplier = 1;
  /* an int8 zero point, or beyond (the direct path's int32 products) */
  p.input_offset = u8(r) & 1u ? s8(r) : (int32_t)(u32(r) % 4097u) - 2048;
  quant_read(r, &k, cout);
  for (c = 0; c < cout; c++) /* tflc_conv_params' -31..30 */
    k.shift[c] = (int8_t)(k.shift[c] < -31  ? -31
                          : k.shift[c] > 30 ? 30
                                            : k.shift[c]);
  if (mode & FEW_WIDE_QUANT) {
    /* simple channels, biases within +-2^20; now and then one channel
     * not simple, or outputs not saturating to int8 (then declined) */
    const uint32_t keep = u8(r);
    for (c = 0; c < cout; c++) {
      k.q[c] = (int32_t)(0x40000000u + ((uint32_t)k.q[c] & 0x3FFFFFFFu));
      k.shift[c] = (int8_t)(-1 - (int32_t)((uint32_t)k.shift[c] % 23u));
      k.bias[c] %= 0x100000;
    }
    if (keep % 16u == 0)
      k.shift[keep / 16u % (uint32_t)cout] = 0;
    if (keep % 8u != 1) {
      k.rq.output_offset =
          (int32_t)((uint32_t)k.rq.output_offset & 0xFFu) - 128;
      k.rq.act_min = -128;
      k.rq.act_max = 127;
    }
  }
  p.output_offset = k.rq.output_offset;
  p.act_min = k.rq.act_min;
  p.act_max = k.rq.act_max;
  p.out_multiplier = k.q;
  p.out_shift = k.shift;
  in_dims[0] = out_dims[0] = n;
  in_dims[1] = h;
  in_dims[2] = w;
  in_dims[3] = cin;
  f_dims[0] = cout;
  f_dims[1] = kh;
  f_dims[2] = kw;
  f_dims[3] = cin;
  out_dims[1] = oh;
  out_dims[2] = ow;
  out_dims[3] = cout;
  pool_fill(r, x, in_n);
  pool_fill(r, f, f_n);
  fc = tflc_const_raw(f, TFLC_INT8, (int32_t)f_n);
  bc = tflc_const_raw(k.bias, TFLC_INT32, cout);
  memset(expect, 0x5A, out_n);
  tflc__conv2d_s8_direct(&p, in_dims, x, f_dims, &fc, k.rq.bias ? &bc : NULL,
                         out_dims, expect, NULL, 0);
  memset(got, 0x5A, out_n);
  if (mode & FEW_FOLDED) {
    const int used = tflc_conv2d_s8_fold(
        &p, in_dims, f_dims, &fc, k.rq.bias ? &bc : NULL, out_dims, folded);
    tflc_conv2d_s8_folded(&p, in_dims, x, f_dims, &fc, k.rq.bias ? &bc : NULL,
                          out_dims, got, used ? folded : NULL);
  } else {
    tflc_conv2d_s8(&p, in_dims, x, f_dims, &fc, k.rq.bias ? &bc : NULL,
                   out_dims, got, NULL, 0);
  }
  if (memcmp(got, expect, out_n) != 0)
    differ("CONV_2D few channels", FEW_NAME);
  free(x);
  free(f);
  free(expect);
  free(got);
}

#if defined(FUZZ_CONV_WIDE) || defined(FUZZ_ON_TARGET)
/* Case 8: fuzz_conv_few through the Arm DSP's convolution paths (on the
 * host this file's copy in fuzz/fuzz_kernels_wide.c), its mode from the
 * first byte: the widened windows' requantization three times in four,
 * more input channels or a 1x1 filter once in four each, the folded
 * biases once in two */
static void fuzz_conv_dsp(reader *r) {
  static const uint32_t shapes[4] = {0, 0, FEW_CHANNELS, FEW_POINTWISE};
  const uint32_t b = u8(r);
  fuzz_conv_few(r, (b % 4u != 0 ? FEW_WIDE_QUANT : 0u) | shapes[b / 4u % 4u] |
                       (b & 16u ? FEW_FOLDED : 0u));
}
#endif

#ifdef FUZZ_CONV_WIDE
/* fuzz_conv_dsp over the input's bytes from d (fuzz_kernels.c's case 8) */
void fuzz_conv_wide(const uint8_t *d, size_t size);
void fuzz_conv_wide(const uint8_t *d, size_t size) {
  reader r = {d, size, 0};
  fuzz_conv_dsp(&r);
}
#else
#ifndef FUZZ_ON_TARGET
void fuzz_conv_wide(const uint8_t *d, size_t size); /* fuzz_kernels_wide.c */
#endif

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t size) {
  reader r;
  r.d = d;
  r.n = size;
  r.i = 0;
  switch (u8(&r) % 9u) {
  case 0:
    fuzz_gemm(&r);
    break;
  case 1:
    fuzz_depthwise(&r);
    break;
#if defined(TFLC_HAVE_DSP)
  case 3:
    fuzz_dw_layer(&r);
    break;
  case 4:
    fuzz_fc(&r);
    break;
  case 5:
    fuzz_add(&r);
    break;
#endif
  case 6:
    fuzz_conv_folded(&r);
    break;
  case 7:
    fuzz_conv_few(&r, 0);
    break;
  case 8:
#ifdef FUZZ_ON_TARGET
    fuzz_conv_dsp(&r);
#else
    fuzz_conv_wide(r.d + r.i, r.n - r.i);
#endif
    break;
  default:
    fuzz_requantize(&r);
    break;
  }
#if defined(TFLC_HIFI_EMULATE)
  /* the HiFi code never loads from a misaligned address, overflows a lane
   * or misuses a load stream (tests/hifi_emu.h) */
  if (hifi_emu_misaligned != 0 || hifi_emu_overflows != 0 ||
      hifi_emu_stream_errors != 0) {
    fprintf(stderr,
            "fuzz_kernels: HiFi emulation: %ld misaligned loads, %ld "
            "overflows, %ld stream errors\n",
            hifi_emu_misaligned, hifi_emu_overflows, hifi_emu_stream_errors);
    abort();
  }
#endif
  return 0;
}
#endif /* FUZZ_CONV_WIDE */

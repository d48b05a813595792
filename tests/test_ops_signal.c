/* test_ops_signal.c - TFLM's Signal* operators: kernels and glue.
 *
 *   - every kernel against TFLM's bytes: the single-operator cases of
 *     ../shared/conformance/ops2/SIGNAL_* (SHARED overrides ../shared) fed
 *     straight into the kernels of tflc_kernels.h, parameters from the
 *     cases' case.json and constant tensors (skipped without ../shared);
 *   - properties from the definitions, written independently of the
 *     kernels: FFTs against a DFT in double (all radices 2, 3, 4, 5),
 *     round trips, integer square root and log against libm, frames,
 *     stacks, delays and overlap-add against the stream they cut or sum;
 *   - TFLM's quirks the kernels keep (the running maximum of
 *     FftAutoScale, the int32 wrap of Energy, a ring's discard of 0);
 *   - the glue: state carried across invokes and put back by tflc_reset,
 *     options whose key or value TFLM would misread refused at init. */
#define TFLC_IMPLEMENTATION
#include "../tflc.h"
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OPS2 "conformance/ops2/"

/* ---- shared cases ----------------------------------------------------------
 */
/* Reads SHARED/rel (SHARED from the environment, else ../shared) into a
 * 16-byte aligned buffer; NULL when absent. */
static uint8_t *read_shared(const char *rel, size_t *size) {
  const char *shared = getenv("SHARED");
  char path[1024];
  FILE *f;
  long n;
  uint8_t *buf;
  snprintf(path, sizeof path, "%s/%s", shared ? shared : "../shared", rel);
  f = fopen(path, "rb");
  if (!f)
    return NULL;
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  buf = (uint8_t *)malloc(((size_t)n + 16) & ~(size_t)15);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf)
    buf[n] = 0; /* text files end in a NUL */
  *size = (size_t)n;
  return buf;
}

/* One single-operator case: model, input k, output k, case.json. */
typedef struct signal_case {
  uint8_t *model, *json, *in[3], *out[3];
  size_t nmodel, njson, nin[3], nout[3];
  tflc_model m;
} signal_case;
static void case_free(signal_case *c) {
  int k;
  free(c->model);
  free(c->json);
  for (k = 0; k < 3; k++) {
    free(c->in[k]);
    free(c->out[k]);
  }
  memset(c, 0, sizeof *c);
}
/* Loads ops2/<dir>; 0 (and nothing loaded) when ../shared is missing. */
static int case_load(signal_case *c, const char *dir) {
  char rel[512];
  int k;
  memset(c, 0, sizeof *c);
  snprintf(rel, sizeof rel, OPS2 "%s/model.tflite", dir);
  c->model = read_shared(rel, &c->nmodel);
  if (!c->model)
    return 0;
  snprintf(rel, sizeof rel, OPS2 "%s/case.json", dir);
  c->json = read_shared(rel, &c->njson);
  for (k = 0; k < 3; k++) {
    snprintf(rel, sizeof rel, OPS2 "%s/input_%d.bin", dir, k);
    c->in[k] = read_shared(rel, &c->nin[k]);
    snprintf(rel, sizeof rel, OPS2 "%s/output_%d.bin", dir, k);
    c->out[k] = read_shared(rel, &c->nout[k]);
  }
  CHECK(c->json && c->in[0] && c->out[0]);
  CHECK_EQ_INT(tflc_model_init(&c->m, c->model, c->nmodel), TFLC_OK);
  return c->json && c->in[0] && c->out[0];
}
/* The integer after "key": in case.json (the first one), or dflt. */
static long case_int(const signal_case *c, const char *key, long dflt) {
  char pat[96];
  const char *p;
  snprintf(pat, sizeof pat, "\"%s\":", key);
  p = strstr((const char *)c->json, pat);
  if (!p)
    return dflt;
  p += strlen(pat);
  while (*p == ' ')
    p++;
  if (strncmp(p, "true", 4) == 0)
    return 1;
  if (strncmp(p, "false", 5) == 0)
    return 0;
  return strtol(p, NULL, 10);
}
/* Tensor t of the case's model (data: the constant bytes, or NULL). */
static tflc_tensor case_tensor(const signal_case *c, int32_t t) {
  tflc_tensor x;
  memset(&x, 0, sizeof x);
  CHECK_EQ_INT(tflc_model_tensor(&c->m, 0, t, &x, NULL, NULL), TFLC_OK);
  return x;
}
static int skipped(const char *test) {
  printf("%s: ../shared missing, skipped\n", test);
  return 1;
}

/* ---- kernels against TFLM's bytes ------------------------------------------
 */
static void test_window_tflm(void) {
  static const char *const cases[] = {"i16_2x2x16_shift8", "i16_3x32_shift14",
                                      "i16_400_shift15", "i16_64_shift12"};
  size_t k;
  for (k = 0; k < sizeof cases / sizeof *cases; k++) {
    char dir[128];
    signal_case c;
    tflc_tensor w;
    int16_t y[512];
    int32_t n, i;
    snprintf(dir, sizeof dir, "SIGNAL_WINDOW/%s", cases[k]);
    if (!case_load(&c, dir) && skipped("test_window_tflm"))
      return;
    w = case_tensor(&c, 1);
    n = (int32_t)(c.nin[0] / 2);
    CHECK(n <= 512 && w.data && n % w.dims[0] == 0);
    for (i = 0; i < n; i += w.dims[0])
      tflc_signal_window_s16((const int16_t *)c.in[0] + i,
                             (const int16_t *)w.data, w.dims[0],
                             (int32_t)case_int(&c, "shift", -1), y + i);
    CHECK_EQ_INT(c.nout[0], (size_t)n * 2);
    CHECK_EQ_MEM(y, c.out[0], c.nout[0]);
    case_free(&c);
  }
}

static void test_fft_auto_scale_tflm(void) {
  static const char *const cases[] = {"i16_100_amp200", "i16_256_amp9000",
                                      "i16_33_amp3", "i16_64_amp32767"};
  size_t k;
  for (k = 0; k < sizeof cases / sizeof *cases; k++) {
    char dir[128];
    signal_case c;
    int16_t y[256];
    int32_t bits;
    snprintf(dir, sizeof dir, "SIGNAL_FFT_AUTO_SCALE/%s", cases[k]);
    if (!case_load(&c, dir) && skipped("test_fft_auto_scale_tflm"))
      return;
    CHECK(c.nin[0] <= sizeof y && c.out[1] && c.nout[1] == 4);
    bits = tflc_signal_fft_auto_scale_s16((const int16_t *)c.in[0],
                                          (int32_t)(c.nin[0] / 2), y);
    CHECK_EQ_MEM(y, c.out[0], c.nout[0]);
    CHECK_EQ_MEM(&bits, c.out[1], 4);
    case_free(&c);
  }
}

/* RFFT and IRFFT in the three types: rows of the input shape's last axis. */
static void test_fft_tflm(void) {
  static const char *const cases[] = {
      "SIGNAL_RFFT/f32_256_fft256",  "SIGNAL_RFFT/f32_2x48_fft64",
      "SIGNAL_RFFT/f32_3x32_fft32",  "SIGNAL_RFFT/f32_64_fft64",
      "SIGNAL_RFFT/i16_256_fft256",  "SIGNAL_RFFT/i16_2x48_fft64",
      "SIGNAL_RFFT/i16_3x32_fft32",  "SIGNAL_RFFT/i16_64_fft64",
      "SIGNAL_RFFT/i32_256_fft256",  "SIGNAL_RFFT/i32_2x48_fft64",
      "SIGNAL_RFFT/i32_3x32_fft32",  "SIGNAL_RFFT/i32_64_fft64",
      "SIGNAL_IRFFT/f32_258_fft256", "SIGNAL_IRFFT/f32_2x66_fft64",
      "SIGNAL_IRFFT/f32_3x34_fft32", "SIGNAL_IRFFT/f32_66_fft64",
      "SIGNAL_IRFFT/i16_258_fft256", "SIGNAL_IRFFT/i16_2x66_fft64",
      "SIGNAL_IRFFT/i16_3x34_fft32", "SIGNAL_IRFFT/i16_66_fft64",
      "SIGNAL_IRFFT/i32_258_fft256", "SIGNAL_IRFFT/i32_2x66_fft64",
      "SIGNAL_IRFFT/i32_3x34_fft32", "SIGNAL_IRFFT/i32_66_fft64"};
  size_t k;
  for (k = 0; k < sizeof cases / sizeof *cases; k++) {
    static uint8_t y[4096], work[2048], twiddles[4096];
    const int inverse = strstr(cases[k], "IRFFT") != NULL;
    const char *name = strchr(cases[k], '/') + 1;
    const size_t es = name[0] == 'i' && name[1] == '1' ? 2 : 4;
    signal_case c;
    tflc_tensor x, o;
    tflc_fft_plan p;
    int32_t n, in_row, out_row, rows, r, plan;
    if (!case_load(&c, cases[k]) && skipped("test_fft_tflm"))
      return;
    n = (int32_t)case_int(&c, "fft_length", 0);
    x = case_tensor(&c, 0);
    o = case_tensor(&c, 1);
    in_row = x.dims[x.rank - 1];
    out_row = o.dims[o.rank - 1];
    rows = (int32_t)(c.nin[0] / es) / in_row;
    CHECK(tflc_fft_plan_bytes(n, es) <= sizeof twiddles);
    CHECK(c.nout[0] <= sizeof y && (size_t)n * es <= sizeof work);
    if (name[0] == 'f')
      plan = tflc_fft_plan_f32(&p, n, inverse, twiddles);
    else if (es == 2)
      plan = tflc_fft_plan_s16(&p, n, inverse, twiddles);
    else
      plan = tflc_fft_plan_s32(&p, n, inverse, twiddles);
    CHECK_EQ_INT(plan, 0);
    for (r = 0; r < rows; r++) {
      const uint8_t *xr = c.in[0] + (size_t)(r * in_row) * es;
      uint8_t *yr = y + (size_t)(r * out_row) * es;
      if (name[0] == 'f' && inverse)
        tflc_irfft_f32(&p, (const float *)xr, (float *)work, (float *)yr);
      else if (name[0] == 'f')
        tflc_rfft_f32(&p, (const float *)xr, in_row, (float *)work,
                      (float *)yr);
      else if (es == 2 && inverse)
        tflc_irfft_s16(&p, (const int16_t *)xr, (int16_t *)work, (int16_t *)yr);
      else if (es == 2)
        tflc_rfft_s16(&p, (const int16_t *)xr, in_row, (int16_t *)work,
                      (int16_t *)yr);
      else if (inverse)
        tflc_irfft_s32(&p, (const int32_t *)xr, (int32_t *)work, (int32_t *)yr);
      else
        tflc_rfft_s32(&p, (const int32_t *)xr, in_row, (int32_t *)work,
                      (int32_t *)yr);
    }
    CHECK_EQ_INT(c.nout[0], (size_t)(rows * out_row) * es);
    CHECK_EQ_MEM(y, c.out[0], c.nout[0]);
    case_free(&c);
  }
}

static void test_energy_tflm(void) {
  static const char *const cases[] = {"i16_18_bins9", "i16_258_bins129",
                                      "i16_514_bins257", "i16_66_bins33"};
  size_t k;
  for (k = 0; k < sizeof cases / sizeof *cases; k++) {
    char dir[128];
    signal_case c;
    uint32_t y[257];
    snprintf(dir, sizeof dir, "SIGNAL_ENERGY/%s", cases[k]);
    if (!case_load(&c, dir) && skipped("test_energy_tflm"))
      return;
    CHECK(c.nout[0] <= sizeof y);
    tflc_signal_energy_s16((const int16_t *)c.in[0],
                           (int32_t)case_int(&c, "start_index", -1),
                           (int32_t)case_int(&c, "end_index", -1), y);
    CHECK_EQ_MEM(y, c.out[0], c.nout[0]);
    case_free(&c);
  }
}

static void test_filter_bank_tflm(void) {
  static const char *const cases[] = {"u32_129_ch16", "u32_257_ch40",
                                      "u32_33_ch6", "u32_65_ch10"};
  size_t k;
  for (k = 0; k < sizeof cases / sizeof *cases; k++) {
    char dir[128];
    signal_case c;
    tflc_tensor t[6];
    tflc_filter_bank_params p;
    uint64_t y[40];
    int32_t i;
    snprintf(dir, sizeof dir, "SIGNAL_FILTER_BANK/%s", cases[k]);
    if (!case_load(&c, dir) && skipped("test_filter_bank_tflm"))
      return;
    for (i = 1; i < 6; i++)
      t[i] = case_tensor(&c, i);
    p.num_channels = (int32_t)case_int(&c, "num_channels", -1);
    p.weights = (const int16_t *)t[1].data;
    p.unweights = (const int16_t *)t[2].data;
    p.frequency_starts = (const int16_t *)t[3].data;
    p.weight_starts = (const int16_t *)t[4].data;
    p.widths = (const int16_t *)t[5].data;
    CHECK(c.nout[0] == (size_t)p.num_channels * 8 && c.nout[0] <= sizeof y);
    CHECK_EQ_INT(tflc_signal_filter_bank_check(&p, (int32_t)(c.nin[0] / 4),
                                               t[1].dims[0]),
                 0);
    tflc_signal_filter_bank_u32(&p, (const uint32_t *)c.in[0], p.num_channels,
                                y);
    CHECK_EQ_MEM(y, c.out[0], c.nout[0]);
    case_free(&c);
  }
}

/* Square root, log, spectral subtraction, PCAN: one step each. */
static void test_filter_bank_stages_tflm(void) {
  static const char *const sqrt_cases[] = {"u64_16_shift3", "u64_40_shift0",
                                           "u64_64_shift1", "u64_7_shift7"};
  static const char *const log_cases[] = {
      "u32_16_scale1_corr0", "u32_40_scale1600_corr3", "u32_64_scale256_corr1",
      "u32_7_scale32767_corr5"};
  static const char *const ss_cases[] = {
      "u32_16_sm3277_b8_clamp", "u32_40_sm655_b10", "u32_64_sm1000_b6_clamp",
      "u32_7_sm100_b4"};
  static const char *const pcan_cases[] = {"u32_16_snr4", "u32_32_snr5",
                                           "u32_40_snr6", "u32_7_snr6"};
  size_t k;
  for (k = 0; k < 4; k++) {
    char dir[128];
    signal_case c;
    uint32_t y[64], noise[64];
    int16_t z[64];
    tflc_tensor t;
    tflc_spectral_subtraction_params p;
    int32_t shift, n;

    snprintf(dir, sizeof dir, "SIGNAL_FILTER_BANK_SQUARE_ROOT/%s",
             sqrt_cases[k]);
    if (!case_load(&c, dir) && skipped("test_filter_bank_stages_tflm"))
      return;
    t = case_tensor(&c, 1);
    memcpy(&shift, t.data, 4);
    n = (int32_t)(c.nin[0] / 8);
    tflc_signal_filter_bank_square_root_u64((const uint64_t *)c.in[0], n, shift,
                                            y);
    CHECK_EQ_MEM(y, c.out[0], c.nout[0]);
    case_free(&c);

    snprintf(dir, sizeof dir, "SIGNAL_FILTER_BANK_LOG/%s", log_cases[k]);
    if (!case_load(&c, dir))
      return;
    n = (int32_t)(c.nin[0] / 4);
    tflc_signal_filter_bank_log_u32(
        (const uint32_t *)c.in[0], n, (int32_t)case_int(&c, "output_scale", -1),
        (int32_t)case_int(&c, "input_correction_bits", -1), z);
    CHECK_EQ_MEM(z, c.out[0], c.nout[0]);
    case_free(&c);

    snprintf(dir, sizeof dir, "SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION/%s",
             ss_cases[k]);
    if (!case_load(&c, dir))
      return;
    p.num_channels = (int32_t)case_int(&c, "num_channels", -1);
    p.smoothing = (uint32_t)case_int(&c, "smoothing", -1);
    p.one_minus_smoothing = (uint32_t)case_int(&c, "one_minus_smoothing", -1);
    p.alternate_smoothing = (uint32_t)case_int(&c, "alternate_smoothing", -1);
    p.alternate_one_minus_smoothing =
        (uint32_t)case_int(&c, "alternate_one_minus_smoothing", -1);
    p.min_signal_remaining = (uint32_t)case_int(&c, "min_signal_remaining", -1);
    p.smoothing_bits = (uint32_t)case_int(&c, "smoothing_bits", -1);
    p.spectral_subtraction_bits =
        (uint32_t)case_int(&c, "spectral_subtraction_bits", -1);
    p.clamping = (int32_t)case_int(&c, "clamping", -1);
    memset(noise, 0, sizeof noise); /* the state TFLM's prepare leaves */
    tflc_signal_spectral_subtraction_u32(&p, (const uint32_t *)c.in[0], y,
                                         noise);
    CHECK_EQ_MEM(y, c.out[0], c.nout[0]);
    CHECK(c.out[1] != NULL);
    CHECK_EQ_MEM(noise, c.out[1], c.nout[1]);
    case_free(&c);

    snprintf(dir, sizeof dir, "SIGNAL_PCAN/%s", pcan_cases[k]);
    if (!case_load(&c, dir))
      return;
    t = case_tensor(&c, 2);
    CHECK(t.dims[0] == TFLC_SIGNAL_PCAN_LUT_SIZE && c.in[1] != NULL);
    tflc_signal_pcan_u32((const int16_t *)t.data,
                         (int32_t)case_int(&c, "snr_shift", -1),
                         (const uint32_t *)c.in[1], (const uint32_t *)c.in[0],
                         y, (int32_t)(c.nin[0] / 4));
    CHECK_EQ_MEM(y, c.out[0], c.nout[0]);
    case_free(&c);
  }
}

/* Framer, stacker, delay, overlap-add: one invoke from the reset state. */
static void test_streams_tflm(void) {
  static const char *const framer_cases[] = {
      "i16_160_size400_step160_prefill", "i16_2x64_size64_step32_prefill",
      "i16_3x40_size60_step20_prefill", "i16_96_size48_step48"};
  static const char *const stacker_cases[] = {
      "i16_16_left0_step1", "i16_3_left2_step3", "i16_40_left2_step1",
      "i16_8_left5_step2"};
  static const char *const delay_cases[] = {
      "i16_100_delay40", "i16_2x16_delay16", "i16_32_delay5", "i16_3x8_delay0"};
  static const char *const overlap_cases[] = {
      "f32_1x16_step16", "f32_2x4x10_step5", "f32_3x8_step4", "f32_5x12_step3",
      "i16_1x16_step16", "i16_2x4x10_step5", "i16_3x8_step4", "i16_5x12_step3"};
  static int16_t data[4096], y[4096];
  size_t k;
  for (k = 0; k < 8; k++) {
    char dir[128];
    signal_case c;
    tflc_tensor x;
    tflc_ring_s16 ring;
    int32_t inner, rows, r, valid, started = 0;
    if (k < 4) {
      int32_t fs, fst, frames;
      snprintf(dir, sizeof dir, "SIGNAL_FRAMER/%s", framer_cases[k]);
      if (!case_load(&c, dir) && skipped("test_streams_tflm"))
        return;
      fs = (int32_t)case_int(&c, "frame_size", -1);
      fst = (int32_t)case_int(&c, "frame_step", -1);
      x = case_tensor(&c, 0);
      inner = x.dims[x.rank - 1];
      rows = (int32_t)(c.nin[0] / 2) / inner;
      frames = inner / fst;
      valid = 1;
      for (r = 0; r < rows; r++) {
        ring.data = data;
        ring.capacity = (uint32_t)((fs + fst - 1) / fst * fst);
        tflc_ring_s16_reset(&ring);
        if (case_int(&c, "prefill", -1))
          tflc_ring_s16_write(&ring, NULL, (uint32_t)(fs - fst));
        valid &=
            tflc_signal_framer_s16(&ring, (const int16_t *)c.in[0] + r * inner,
                                   frames, fs, fst, y + r * frames * fs);
      }
      CHECK_EQ_MEM(y, c.out[0], c.nout[0]);
      CHECK(c.out[1] && c.out[1][0] == valid);
      case_free(&c);

      snprintf(dir, sizeof dir, "SIGNAL_STACKER/%s", stacker_cases[k]);
      if (!case_load(&c, dir))
        return;
      {
        const int32_t nc = (int32_t)case_int(&c, "num_channels", -1);
        const int32_t left = (int32_t)case_int(&c, "left_context", -1);
        const int32_t right = (int32_t)case_int(&c, "right_context", -1);
        const int32_t st = (int32_t)case_int(&c, "step", -1);
        ring.data = data;
        ring.capacity = (uint32_t)(nc * (left + right + 1));
        tflc_ring_s16_reset(&ring);
        valid =
            tflc_signal_stacker_s16(&ring, &started, (const int16_t *)c.in[0],
                                    nc, left, (uint32_t)(nc * st), y);
        CHECK(c.out[1] && c.out[1][0] == valid);
        if (valid)
          CHECK_EQ_MEM(y, c.out[0], c.nout[0]);
      }
      case_free(&c);

      snprintf(dir, sizeof dir, "SIGNAL_DELAY/%s", delay_cases[k]);
      if (!case_load(&c, dir))
        return;
      {
        const int32_t d = (int32_t)case_int(&c, "delay_length", -1);
        x = case_tensor(&c, 0);
        inner = x.dims[x.rank - 1];
        rows = (int32_t)(c.nin[0] / 2) / inner;
        for (r = 0; r < rows; r++) {
          ring.data = data;
          ring.capacity = (uint32_t)(inner + d);
          tflc_ring_s16_reset(&ring);
          tflc_ring_s16_write(&ring, NULL, (uint32_t)d);
          tflc_signal_delay_s16(&ring, (const int16_t *)c.in[0] + r * inner,
                                inner, y + r * inner);
        }
        CHECK_EQ_MEM(y, c.out[0], c.nout[0]);
      }
      case_free(&c);
    }
    snprintf(dir, sizeof dir, "SIGNAL_OVERLAP_ADD/%s", overlap_cases[k]);
    if (!case_load(&c, dir))
      return;
    {
      const int32_t st = (int32_t)case_int(&c, "frame_step", -1);
      const size_t es = overlap_cases[k][0] == 'f' ? 4 : 2;
      int32_t size, frames, f;
      static float fbuf[64];
      static int16_t sbuf[64];
      static uint8_t out[4096];
      x = case_tensor(&c, 0);
      size = x.dims[x.rank - 1];
      frames = x.dims[x.rank - 2];
      rows = (int32_t)(c.nin[0] / es) / (size * frames);
      for (r = 0; r < rows; r++) {
        memset(fbuf, 0, sizeof fbuf);
        memset(sbuf, 0, sizeof sbuf);
        for (f = 0; f < frames; f++) {
          const size_t at = (size_t)(r * frames + f);
          if (es == 4)
            tflc_signal_overlap_add_f32(
                (const float *)c.in[0] + at * (size_t)size, fbuf, size, st,
                (float *)out + at * (size_t)st);
          else
            tflc_signal_overlap_add_s16(
                (const int16_t *)c.in[0] + at * (size_t)size, sbuf, size, st,
                (int16_t *)out + at * (size_t)st);
        }
      }
      CHECK_EQ_MEM(out, c.out[0], c.nout[0]);
    }
    case_free(&c);
  }
}

/* ---- properties ------------------------------------------------------------
 */
/* The real DFT of x[0..n) at bin k, in double. */
static void dft(const double *x, int32_t n, int32_t k, double *re, double *im) {
  int32_t i;
  *re = *im = 0.0;
  for (i = 0; i < n; i++) {
    const double a = 2.0 * 3.14159265358979323846 * (double)k * i / n;
    *re += x[i] * cos(a);
    *im -= x[i] * sin(a);
  }
}

/* Every radix KissFFT has (4, 2, 3, 5, in mixed orders): float within
 * 1e-4 relative, int16 / int32 within 3 LSB of DFT / (n / 2) * (1 / 2)
 * after their per-stage scaling; IRFFT(RFFT(x)) = x (float). */
static void test_fft_against_dft(void) {
  static const int32_t lengths[] = {4,  6,  8,  10,  12,  18,  24,  40,
                                    50, 64, 96, 120, 240, 250, 256, 512};
  static uint8_t tw[16384];
  size_t k;
  for (k = 0; k < sizeof lengths / sizeof *lengths; k++) {
    const int32_t n = lengths[k];
    static double xd[512];
    static float xf[512], yf[520], wf[512], back[512];
    static int16_t x16[512], y16[520], w16[512];
    static int32_t x32[512], y32[520], w32[512];
    tflc_fft_plan p;
    double worst_f = 0, worst_16 = 0, worst_32 = 0, scale = 0, worst_back = 0;
    int32_t i, b;
    for (i = 0; i < n; i++) {
      x16[i] = (int16_t)((int32_t)(rng() % 40001u) - 20000);
      x32[i] = (int32_t)x16[i] * 65536;
      xf[i] = (float)x16[i];
      xd[i] = (double)x16[i];
    }
    CHECK(tflc_fft_plan_bytes(n, 4) > 0 &&
          tflc_fft_plan_bytes(n, 4) <= sizeof tw);
    CHECK_EQ_INT(tflc_fft_plan_f32(&p, n, 0, tw), 0);
    tflc_rfft_f32(&p, xf, n, wf, yf);
    CHECK_EQ_INT(tflc_fft_plan_s16(&p, n, 0, tw), 0);
    tflc_rfft_s16(&p, x16, n, w16, y16);
    CHECK_EQ_INT(tflc_fft_plan_s32(&p, n, 0, tw), 0);
    tflc_rfft_s32(&p, x32, n, w32, y32);
    for (b = 0; b <= n / 2; b++) {
      double re, im;
      dft(xd, n, b, &re, &im);
      scale = fabs(re) > scale ? fabs(re) : scale;
      scale = fabs(im) > scale ? fabs(im) : scale;
      worst_f =
          fmax(worst_f, fmax(fabs(yf[2 * b] - re), fabs(yf[2 * b + 1] - im)));
      /* fixed point: each stage divides by its radix, the split by 2 */
      worst_16 = fmax(worst_16, fmax(fabs(y16[2 * b] - re / n),
                                     fabs(y16[2 * b + 1] - im / n)));
      worst_32 = fmax(worst_32, fmax(fabs(y32[2 * b] / 65536.0 - re / n),
                                     fabs(y32[2 * b + 1] / 65536.0 - im / n)));
    }
    CHECK(worst_f <= 1e-5 * scale + 1e-3);
    CHECK(worst_16 <= 3.0);
    CHECK(worst_32 <= 0.01);
    CHECK_EQ_INT(tflc_fft_plan_f32(&p, n, 1, tw), 0);
    tflc_irfft_f32(&p, yf, wf, back);
    for (i = 0; i < n; i++)
      worst_back = fmax(worst_back, fabs(back[i] - xf[i]));
    CHECK(worst_back <= 1e-5 * scale);
    if (!(worst_f <= 1e-5 * scale + 1e-3) || worst_16 > 3.0 ||
        worst_32 > 0.01 || worst_back > 1e-5 * scale)
      fprintf(stderr, "fft %d: f32 %g s16 %g s32 %g back %g (scale %g)\n", n,
              worst_f, worst_16, worst_32, worst_back, scale);
  }
}

/* Lengths KissFFT (as TFLM builds it) cannot run are refused; zero padding
 * equals a padded input. */
static void test_fft_lengths_and_padding(void) {
  static const int32_t refused[] = {-4, 0, 1, 2, 3, 7, 14, 22, 26, 70, 202};
  static uint8_t tw[8192];
  static int16_t x[256], padded[256], w[256], y1[258], y2[258];
  tflc_fft_plan p;
  size_t k;
  int32_t i;
  for (k = 0; k < sizeof refused / sizeof *refused; k++) {
    CHECK_EQ_INT(tflc_fft_plan_bytes(refused[k], 2), 0);
    CHECK_EQ_INT(tflc_fft_plan_s16(&p, refused[k], 0, tw), -1);
  }
  CHECK_EQ_INT(tflc_fft_plan_bytes(256, 2), (256 / 2 + 256 / 4) * 2 * 2);
  CHECK_EQ_INT(tflc_fft_plan_s16(&p, 256, 0, tw), 0);
  CHECK_EQ_INT(p.num_factors, 4); /* 128 = 4 * 4 * 4 * 2 */
  CHECK(p.radix[0] == 4 && p.radix[1] == 4 && p.radix[2] == 4 &&
        p.radix[3] == 2);
  for (i = 0; i < 256; i++) {
    x[i] = (int16_t)(rng() & 0x3FFF);
    padded[i] = i < 200 ? x[i] : 0;
  }
  tflc_rfft_s16(&p, x, 200, w, y1);
  tflc_rfft_s16(&p, padded, 256, w, y2);
  CHECK_EQ_MEM(y1, y2, sizeof y1);
}

/* TFLM's running maximum and bit count (GCC build: 32 bits for 0). */
static void test_fft_auto_scale_quirks(void) {
  int16_t x[4], y[4];
  /* 1000 has 10 bits: scaled by 2^5 */
  x[0] = 1000, x[1] = -3, x[2] = 0, x[3] = 7;
  CHECK_EQ_INT(tflc_signal_fft_auto_scale_s16(x, 4, y), 5);
  CHECK(y[0] == 32000 && y[1] == -96 && y[3] == 224);
  /* all zero: no scaling, 0 bits */
  memset(x, 0, sizeof x);
  CHECK_EQ_INT(tflc_signal_fft_auto_scale_s16(x, 4, y), 0);
  /* -32768: its negation wraps; the sign-extended maximum has 32 bits */
  x[0] = 5, x[1] = -32768, x[2] = 0, x[3] = 0;
  CHECK_EQ_INT(tflc_signal_fft_auto_scale_s16(x, 4, y), 0);
  CHECK(y[0] == 5 && y[1] == -32768);
  /* ... and a later positive value replaces it: 5 has 3 bits, 2^12, and
   * -32768 * 2^12 keeps only its low 16 bits */
  x[0] = -32768, x[1] = 5;
  CHECK_EQ_INT(tflc_signal_fft_auto_scale_s16(x, 2, y), 12);
  CHECK(y[0] == 0 && y[1] == 20480);
}

static void test_energy_and_window(void) {
  int16_t spec[8] = {3, 4, -32768, -32768, 0, 0, -5, 12};
  int16_t x[4] = {-32768, 32767, -3, 1000}, win[4] = {-32768, -32768, 4096, 8};
  int16_t y[4];
  uint32_t e[4] = {7, 7, 7, 7};
  tflc_signal_energy_s16(spec, 1, 4, e);
  CHECK(e[0] == 7); /* below start_index: not written */
  CHECK(e[1] == 2147483648u && e[2] == 0 && e[3] == 169);
  tflc_signal_energy_s16(spec, 0, 1, e);
  CHECK(e[0] == 25);
  /* products shifted right (flooring) and saturated */
  tflc_signal_window_s16(x, win, 4, 15, y);
  CHECK(y[0] == 32767 && y[1] == -32767 && y[2] == -1 && y[3] == 0);
  tflc_signal_window_s16(x, win, 4, 0, y);
  CHECK(y[0] == 32767 && y[1] == -32768 && y[2] == -12288 && y[3] == 8000);
}

/* TFLM's rule: floor(sqrt(x)), plus one when the remainder exceeds it
 * (round half up) unless that would leave 16 (32) bits; inputs below
 * 2^32 take the 16-bit routine. */
static uint32_t sqrt_reference(uint64_t x) {
  uint64_t r = (uint64_t)sqrtl((long double)x);
  const uint64_t cap = (x >> 32) ? 0xFFFFFFFFu : 0xFFFFu;
  while (r * r > x)
    r--;
  while ((r + 1) * (r + 1) <= x && r + 1 <= 0xFFFFFFFFu)
    r++;
  if (x - r * r > r && r != cap)
    r++;
  return (uint32_t)r;
}
static void test_square_root(void) {
  static uint64_t x[4000];
  static uint32_t y[4000];
  int32_t i, ok = 1;
  for (i = 0; i < 4000; i++) {
    const int32_t bits = (int32_t)(rng() % 64u);
    x[i] = (((uint64_t)rng() << 32) | rng()) >> (63 - bits);
  }
  x[0] = 0, x[1] = 1, x[2] = 2, x[3] = 0xFFFFFFFFu, x[4] = 0x100000000u;
  x[5] = ~(uint64_t)0, x[6] = 0xFFFE0001u, x[7] = 0xFFFF8000u;
  tflc_signal_filter_bank_square_root_u64(x, 4000, 0, y);
  for (i = 0; i < 4000; i++)
    if (y[i] != sqrt_reference(x[i])) {
      if (ok)
        fprintf(stderr, "sqrt(%llu) = %u, expected %u\n",
                (unsigned long long)x[i], y[i], sqrt_reference(x[i]));
      ok = 0;
    }
  CHECK(ok);
  CHECK(y[3] == 0xFFFF && y[5] == 0xFFFFFFFFu && y[2] == 1);
  tflc_signal_filter_bank_square_root_u64(x + 5, 1, 31, y);
  CHECK(y[0] == 1);
}

/* ln(x << correction) * scale / 2^16 within 0.2 % + 2 (fixed point with
 * a 128-segment table), 0 below 2, saturated at 32767. */
static void test_log(void) {
  static uint32_t x[2000];
  static int16_t y[2000];
  int32_t i, ok = 1;
  for (i = 0; i < 2000; i++)
    x[i] = (rng() >> (rng() % 32u)) | 2u;
  x[0] = 0, x[1] = 1, x[2] = 2, x[3] = 0xFFFFFFFFu;
  tflc_signal_filter_bank_log_u32(x, 2000, 1600, 0, y);
  CHECK(y[0] == 0 && y[1] == 0);
  for (i = 2; i < 2000; i++) {
    const double ref = log((double)x[i]) * 1600.0;
    if (fabs(y[i] - (ref > 32767 ? 32767 : ref)) > ref * 0.002 + 2.0) {
      if (ok)
        fprintf(stderr, "log(%u) * 1600 = %d, libm %.1f\n", x[i], y[i], ref);
      ok = 0;
    }
  }
  CHECK(ok);
  /* ln(2^32 - 1) * 2000 = 44361: saturated (a larger scale wraps the
   * uint32 product, as in TFLM) */
  tflc_signal_filter_bank_log_u32(x + 3, 1, 2000, 0, y);
  CHECK(y[0] == 32767);
  /* correction bits shift the input first: 1 << 1 = 2 is logged */
  x[0] = 1;
  tflc_signal_filter_bank_log_u32(x, 1, 1 << 14, 1, y);
  CHECK(abs(y[0] - (int)(log(2.0) * 16384.0 + 0.5)) <= 16);
}

/* Filter bank against a direct per-channel sum: output k = weights of
 * channel k + 1 plus unweights of channel k. */
static void test_filter_bank_definition(void) {
  int16_t starts[5] = {1, 3, 4, 6, 9}, wstarts[5] = {0, 2, 3, 5, 8},
          widths[5] = {2, 1, 2, 3, 2}, w[10], u[10];
  uint32_t in[12];
  uint64_t out[4], want[4];
  tflc_filter_bank_params p;
  int32_t ch, j;
  for (j = 0; j < 10; j++) {
    w[j] = (int16_t)(rng() % 4096u);
    u[j] = (int16_t)(4096 - w[j]);
  }
  w[4] = -3; /* a negative weight wraps through uint64 as in TFLM */
  for (j = 0; j < 12; j++)
    in[j] = rng();
  p.num_channels = 4;
  p.frequency_starts = starts;
  p.weight_starts = wstarts;
  p.widths = widths;
  p.weights = w;
  p.unweights = u;
  CHECK_EQ_INT(tflc_signal_filter_bank_check(&p, 12, 10), 0);
  for (ch = 0; ch < 4; ch++) {
    uint64_t s = 0;
    for (j = 0; j < widths[ch + 1]; j++)
      s += (uint64_t)(int64_t)w[wstarts[ch + 1] + j] * in[starts[ch + 1] + j];
    for (j = 0; j < widths[ch]; j++)
      s += (uint64_t)(int64_t)u[wstarts[ch] + j] * in[starts[ch] + j];
    want[ch] = s;
  }
  out[3] = 77;
  tflc_signal_filter_bank_u32(&p, in, 3, out);
  CHECK(out[0] == want[0] && out[1] == want[1] && out[2] == want[2]);
  CHECK(out[3] == 77); /* out_count 3: the fourth is not written */
  /* a channel past the spectrum or the weights */
  CHECK_EQ_INT(tflc_signal_filter_bank_check(&p, 10, 10), -1);
  CHECK_EQ_INT(tflc_signal_filter_bank_check(&p, 12, 9), -1);
  starts[2] = -1;
  CHECK_EQ_INT(tflc_signal_filter_bank_check(&p, 12, 10), -1);
  starts[2] = 4, widths[2] = -5; /* empty channel: fine */
  CHECK_EQ_INT(tflc_signal_filter_bank_check(&p, 12, 10), 0);
}

/* A constant input: the noise estimate converges on it, the output keeps
 * at least min_signal_remaining of it; clamping caps the estimate. */
static void test_spectral_subtraction(void) {
  tflc_spectral_subtraction_params p;
  uint32_t in[2] = {1000, 1000}, out[2], noise[2] = {0, 0};
  int32_t t;
  memset(&p, 0, sizeof p);
  p.num_channels = 2;
  p.smoothing = 1638, p.one_minus_smoothing = 14746; /* 0.1 in Q14 */
  p.alternate_smoothing = 3277, p.alternate_one_minus_smoothing = 13107;
  p.min_signal_remaining = 1638;
  p.smoothing_bits = 10, p.spectral_subtraction_bits = 14;
  for (t = 0; t < 200; t++)
    tflc_signal_spectral_subtraction_u32(&p, in, out, noise);
  CHECK(noise[0] > 1000u * 1024u * 99u / 100u && noise[0] <= 1000u * 1024u);
  CHECK(noise[1] > noise[0] - 1024u); /* the faster alternate */
  /* signal - estimate ~ 0: the floor, 1000 * 1638 >> 14 = 99 */
  CHECK(out[0] == 99 && out[1] == 99);
  /* a drop: without clamping the estimate stays above the signal */
  in[0] = in[1] = 10;
  tflc_signal_spectral_subtraction_u32(&p, in, out, noise);
  CHECK(noise[0] > 10u << 10);
  p.clamping = 1;
  tflc_signal_spectral_subtraction_u32(&p, in, out, noise);
  CHECK(noise[0] == 10u << 10 && noise[1] == 10u << 10);
  CHECK(out[0] == 0 && out[1] == 0); /* nothing left, floor 0 */
}

/* PCAN: the gain is the table segment of the noise's top bit (lut[x] for
 * noise <= 2), lut0 + lut1 * f + lut2 * f^2 with f the next 10 bits as a
 * fraction; with snr_shift 0 and an input of 64 the output is gain - 64
 * (SNR >= 2 in Q12: x - 1 in Q6), below that SNR^2 / 4. */
static void test_pcan(void) {
  int16_t lut[TFLC_SIGNAL_PCAN_LUT_SIZE];
  uint32_t noise[6] = {0, 2, 1u << 20, 0xFFFFFFFFu, 1536, 0};
  uint32_t in[6] = {64, 64, 64, 64, 64, 4}, out[6];
  int32_t i;
  memset(lut, 0, sizeof lut);
  lut[0] = 1000, lut[1] = 2000, lut[2] = 3000;
  for (i = 6; i < TFLC_SIGNAL_PCAN_LUT_SIZE; i += 4)
    lut[i] = 2048; /* every segment flat at 2048 ... */
  /* ... but [1024, 2048) (top bit 11, entries 38..40): 100 + 200 f +
   * 64 f^2, at 1536 (f = 0.5) 100 + 100 + 16 */
  lut[38] = 100, lut[39] = 200, lut[40] = 64;
  tflc_signal_pcan_u32(lut, 0, noise, in, out, 6);
  CHECK_EQ_INT(out[0], 1000 - 64);
  CHECK_EQ_INT(out[1], 3000 - 64);
  CHECK_EQ_INT(out[2], 2048 - 64);
  CHECK_EQ_INT(out[3], 2048 - 64);
  CHECK_EQ_INT(out[4], 216 - 64);
  CHECK_EQ_INT(out[5], (4000u * 4000u) >> 20); /* SNR 4000 / 4096 */
  /* snr_shift divides first: 64 * 2048 >> 5 = 4096: (4096^2) >> 20 */
  tflc_signal_pcan_u32(lut, 5, noise + 2, in + 2, out, 1);
  CHECK_EQ_INT(out[0], 16);
  /* in place */
  memcpy(out, in, sizeof in);
  tflc_signal_pcan_u32(lut, 0, noise, out, out, 6);
  CHECK_EQ_INT(out[4], 216 - 64);
}

/* Frames: the stream (after prefill zeros) cut every `step` samples. */
static void test_framer_definition(void) {
  static int16_t stream[400], buf[64], y[4 * 24];
  tflc_ring_s16 ring;
  int32_t t, f, j, size = 24, step = 8, pre = 16, pos = 0, ok = 1;
  for (t = 0; t < 400; t++)
    stream[t] = (int16_t)rng();
  ring.data = buf;
  ring.capacity = (uint32_t)((size + step - 1) / step * step);
  tflc_ring_s16_reset(&ring);
  tflc_ring_s16_write(&ring, NULL, (uint32_t)pre);
  /* invokes of 4 steps: frame f of invoke t starts at stream position
   * (4 t + f) * step - pre */
  for (t = 0; t < 10; t++) {
    CHECK_EQ_INT(tflc_signal_framer_s16(&ring, stream + pos, 4, size, step, y),
                 1);
    for (f = 0; f < 4; f++)
      for (j = 0; j < size; j++) {
        const int32_t at = (4 * t + f) * step - pre + j;
        ok &= y[f * size + j] == (at < 0 ? 0 : stream[at]);
      }
    pos += 4 * step;
  }
  CHECK(ok);
  /* without prefill the first two steps give no frame */
  tflc_ring_s16_reset(&ring);
  memset(y, 0x55, sizeof y);
  CHECK_EQ_INT(tflc_signal_framer_s16(&ring, stream, 4, size, step, y), 0);
  CHECK(y[0] == 0x5555 && y[size] == 0x5555); /* not written */
  CHECK_EQ_MEM(y + 2 * size, stream, (size_t)size * 2);
  CHECK_EQ_MEM(y + 3 * size, stream + step, (size_t)size * 2);
}

/* Stacks: frames t - left .. t + right, the first frame standing in for
 * the missing left ones; one stack every `step` frames. */
static void test_stacker_definition(void) {
  enum { NC = 3, LEFT = 2, RIGHT = 1, STEP = 2 };
  int16_t frames[12][NC], buf[NC * (LEFT + RIGHT + 1)],
      y[NC * (LEFT + RIGHT + 1)];
  tflc_ring_s16 ring;
  int32_t t, started = 0, next = 0, k, j, ok = 1, stacks = 0;
  for (t = 0; t < 12; t++)
    for (j = 0; j < NC; j++)
      frames[t][j] = (int16_t)rng();
  ring.data = buf;
  ring.capacity = NC * (LEFT + RIGHT + 1);
  tflc_ring_s16_reset(&ring);
  for (t = 0; t < 12; t++) {
    const int valid = tflc_signal_stacker_s16(&ring, &started, frames[t], NC,
                                              LEFT, NC * STEP, y);
    /* the stack centred on frame `next` is complete at t = next + RIGHT */
    ok &= valid == (t == next + RIGHT);
    if (!valid)
      continue;
    stacks++;
    for (k = -LEFT; k <= RIGHT; k++) {
      const int32_t f = next + k < 0 ? 0 : next + k;
      ok &= memcmp(y + (k + LEFT) * NC, frames[f], NC * 2) == 0;
    }
    next += STEP;
  }
  CHECK(ok);
  CHECK_EQ_INT(stacks, 6); /* centred on frames 0, 2, ..., 10 */
}

/* Delay: the output stream is the input stream d samples late. */
static void test_delay_definition(void) {
  static int16_t stream[300], out[300], buf[64];
  tflc_ring_s16 ring;
  int32_t t, d = 13, n = 20, ok = 1;
  for (t = 0; t < 300; t++)
    stream[t] = (int16_t)rng();
  ring.data = buf;
  ring.capacity = (uint32_t)(n + d);
  tflc_ring_s16_reset(&ring);
  tflc_ring_s16_write(&ring, NULL, (uint32_t)d);
  for (t = 0; t < 300; t += n)
    tflc_signal_delay_s16(&ring, stream + t, n, out + t);
  for (t = 0; t < 300; t++)
    ok &= out[t] == (t < d ? 0 : stream[t - d]);
  CHECK(ok);
}

/* Overlap-add: frames placed every `step` samples and summed (small int16
 * values: no saturation; float sums of integers are exact). */
static void test_overlap_add_definition(void) {
  enum { SIZE = 12, STEP = 4, FRAMES = 9 };
  int16_t x[FRAMES][SIZE], buf[SIZE], y[FRAMES * STEP];
  float xf[FRAMES][SIZE], buff[SIZE], yf[FRAMES * STEP];
  int32_t f, j, ok = 1;
  memset(buf, 0, sizeof buf);
  memset(buff, 0, sizeof buff);
  for (f = 0; f < FRAMES; f++) {
    for (j = 0; j < SIZE; j++) {
      x[f][j] = (int16_t)((int32_t)(rng() % 2001u) - 1000);
      xf[f][j] = (float)x[f][j];
    }
    tflc_signal_overlap_add_s16(x[f], buf, SIZE, STEP, y + f * STEP);
    tflc_signal_overlap_add_f32(xf[f], buff, SIZE, STEP, yf + f * STEP);
  }
  for (j = 0; j < FRAMES * STEP; j++) {
    int32_t s = 0;
    for (f = 0; f < FRAMES; f++)
      if (j - f * STEP >= 0 && j - f * STEP < SIZE)
        s += x[f][j - f * STEP];
    ok &= y[j] == s && yf[j] == (float)s;
  }
  CHECK(ok);
  /* saturation at int16 */
  memset(buf, 0, sizeof buf);
  for (j = 0; j < SIZE; j++)
    x[0][j] = 30000;
  tflc_signal_overlap_add_s16(x[0], buf, SIZE, STEP, y);
  tflc_signal_overlap_add_s16(x[0], buf, SIZE, STEP, y);
  CHECK(y[0] == 32767);
}

/* The ring's semantics: wrap-around, extend across the end, and TFLM's
 * discard of 0 on a full ring (it reads as empty afterwards). */
static void test_ring(void) {
  int16_t buf[5], v[5] = {1, 2, 3, 4, 5}, y[5];
  tflc_ring_s16 r;
  r.data = buf;
  r.capacity = 5;
  tflc_ring_s16_reset(&r);
  CHECK_EQ_INT(tflc_ring_s16_available(&r), 0);
  tflc_ring_s16_write(&r, v, 3);
  tflc_ring_s16_discard(&r, 2);
  tflc_ring_s16_write(&r, v + 3, 2); /* 3 4 5, wrapped */
  tflc_ring_s16_extend(&r, 2, 1);    /* 3 4 5 4 5 */
  CHECK_EQ_INT(tflc_ring_s16_available(&r), 5);
  tflc_ring_s16_get(&r, 5, y);
  CHECK(y[0] == 3 && y[1] == 4 && y[2] == 5 && y[3] == 4 && y[4] == 5);
  tflc_ring_s16_discard(&r, 0); /* full: read == write, now "empty" */
  CHECK_EQ_INT(tflc_ring_s16_available(&r), 0);
  tflc_ring_s16_write(&r, NULL, 2);
  tflc_ring_s16_get(&r, 2, y);
  CHECK(y[0] == 0 && y[1] == 0);
}

/* ---- the glue
 * ---------------------------------------------------------------- */
static unsigned char arena[64 * 1024];

/* Stateful graphs: a second invoke on the same input gives other outputs
 * (state carried: noise estimate, rings, overlap buffers, the stacker's
 * validity), and after tflc_reset the first outputs (TFLM's) come back. */
static int outputs_equal(const tflc_interpreter *it, const signal_case *c) {
  int k, same = 1;
  for (k = 0; k < 3 && c->out[k]; k++) {
    const tflc_tensor *o = tflc_output(it, k);
    same &= o->bytes == c->nout[k] && memcmp(o->data, c->out[k], o->bytes) == 0;
  }
  return same;
}
static void test_state_and_reset(void) {
  static const char *const cases[] = {
      "SIGNAL_CHAIN/frontend_i16_240_fft256_ch20",
      "SIGNAL_CHAIN/resynth_i16_3x48_frame96_fft128_delay8",
      "SIGNAL_STACKER/i16_3_left2_step3",
      "SIGNAL_DELAY/i16_32_delay5",
      "SIGNAL_OVERLAP_ADD/f32_3x8_step4",
      "SIGNAL_FRAMER/i16_3x40_size60_step20_prefill"};
  size_t k;
  for (k = 0; k < sizeof cases / sizeof *cases; k++) {
    signal_case c;
    tflc_interpreter it;
    int round;
    if (!case_load(&c, cases[k]) && skipped("test_state_and_reset"))
      return;
    CHECK_EQ_INT(tflc_interpreter_init(&it, &c.m, arena, sizeof arena, NULL),
                 TFLC_OK);
    for (round = 0; round < 3; round++) {
      if (round == 2)
        CHECK_EQ_INT(tflc_reset(&it), TFLC_OK);
      memcpy(tflc_input(&it, 0)->data, c.in[0], c.nin[0]);
      CHECK_EQ_INT(tflc_invoke(&it), TFLC_OK);
      if (outputs_equal(&it, &c) != (round != 1))
        fprintf(stderr, "%s: invoke %d\n", cases[k], round + 1);
      CHECK_EQ_INT(outputs_equal(&it, &c), round != 1);
    }
    case_free(&c);
  }
}

/* The custom options of operator 0 of a loaded case, inside its model. */
static tflc__flex case_options(signal_case *c) {
  tflc__flex f;
  uint32_t size = 0;
  const uint8_t *b =
      tflc__op_custom_options(&c->m, tflc__subgraph(&c->m, 0), 0, &size);
  CHECK(tflc__flex_open(&f, b, size));
  return f;
}
/* init of the (patched) model: its status, the message in `msg` */
static tflc_status init_status(signal_case *c, char *msg) {
  tflc_interpreter it;
  tflc_status st;
  CHECK_EQ_INT(tflc_model_init(&c->m, c->model, c->nmodel), TFLC_OK);
  st = tflc_interpreter_init(&it, &c->m, arena, sizeof arena, NULL);
  strcpy(msg, st == TFLC_OK ? "" : tflc_error(&it));
  return st;
}
/* Values TFLM would shift by 32 or more, or index outside a tensor with,
 * and keys at an index TFLM does not mean: refused at init. */
static void test_refusals(void) {
  signal_case c;
  tflc__flex f;
  char msg[TFLC_ERROR_LEN];
  uint8_t *slot;
  if (!case_load(&c, "SIGNAL_WINDOW/i16_64_shift12") &&
      skipped("test_refusals"))
    return;
  CHECK_EQ_INT(init_status(&c, msg), TFLC_OK);
  f = case_options(&c);
  slot = (uint8_t *)(uintptr_t)(f.b + f.elems); /* "shift" (width 1) */
  CHECK(f.width == 1 && *slot == 12);
  *slot = 32;
  CHECK_EQ_INT(init_status(&c, msg), TFLC_ERR_SCHEMA);
  CHECK(strstr(msg, "shift 32 outside [0, 31]") != NULL);
  *slot = 12;
  {
    uint32_t kt;
    CHECK(tflc__flex_target(&f, f.keys, f.key_width, &kt));
    ((uint8_t *)(uintptr_t)f.b)[kt] = 'S'; /* "Shift" */
    CHECK_EQ_INT(init_status(&c, msg), TFLC_ERR_SCHEMA);
    CHECK(strstr(msg, "SignalWindow: custom option 0 must be 'shift'") != NULL);
  }
  case_free(&c);

  if (!case_load(&c, "SIGNAL_RFFT/i16_64_fft64"))
    return;
  f = case_options(&c);
  slot = (uint8_t *)(uintptr_t)(f.b + f.elems + f.width); /* fft_length */
  CHECK_EQ_INT(tflc__flex_element_int(&f, 1, 0), 64);
  *slot = 56; /* 28 = 4 * 7: radix 7, which TFLM's KissFFT cannot run */
  CHECK_EQ_INT(init_status(&c, msg), TFLC_ERR_UNSUPPORTED);
  CHECK(strstr(msg, "fft_length 56") != NULL);
  *slot = 32; /* supported, but the output holds 66 values, not 34 */
  CHECK_EQ_INT(init_status(&c, msg), TFLC_ERR_SHAPE);
  case_free(&c);

  if (!case_load(&c, "SIGNAL_ENERGY/i16_18_bins9"))
    return;
  f = case_options(&c);
  slot = (uint8_t *)(uintptr_t)(f.b + f.elems); /* end_index */
  CHECK_EQ_INT(tflc__flex_element_int(&f, 0, 0), 9);
  *slot = 10; /* one bin past the spectrum */
  CHECK_EQ_INT(init_status(&c, msg), TFLC_ERR_SHAPE);
  case_free(&c);

  if (!case_load(&c, "SIGNAL_STACKER/i16_8_left5_step2"))
    return;
  f = case_options(&c);
  slot = (uint8_t *)(uintptr_t)(f.b + f.elems + 3 * f.width); /* step */
  CHECK_EQ_INT(tflc__flex_element_int(&f, 3, 0), 2);
  *slot = 7; /* more than the 6 stacked frames: TFLM's ring would underrun */
  CHECK_EQ_INT(init_status(&c, msg), TFLC_ERR_SHAPE);
  *slot = 0;
  CHECK_EQ_INT(init_status(&c, msg), TFLC_ERR_SHAPE);
  case_free(&c);
}

int main(void) {
  rng_seed(12345u);
  RUN(test_window_tflm);
  RUN(test_fft_auto_scale_tflm);
  RUN(test_fft_tflm);
  RUN(test_energy_tflm);
  RUN(test_filter_bank_tflm);
  RUN(test_filter_bank_stages_tflm);
  RUN(test_streams_tflm);
  RUN(test_fft_against_dft);
  RUN(test_fft_lengths_and_padding);
  RUN(test_fft_auto_scale_quirks);
  RUN(test_energy_and_window);
  RUN(test_square_root);
  RUN(test_log);
  RUN(test_filter_bank_definition);
  RUN(test_spectral_subtraction);
  RUN(test_pcan);
  RUN(test_framer_definition);
  RUN(test_stacker_definition);
  RUN(test_delay_definition);
  RUN(test_overlap_add_definition);
  RUN(test_ring);
  RUN(test_state_and_reset);
  RUN(test_refusals);
  return harness_report();
}

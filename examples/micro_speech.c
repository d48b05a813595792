/* micro_speech.c - TFLM's micro_speech example on tflc: a 16 kHz WAV file
 * through the audio front end (audio_preprocessor_int8: TFLM's Signal*
 * operators) into the keyword model (micro_speech_quantized), which says
 * "silence", "unknown", "yes" or "no".
 *
 *   micro_speech [--preprocessor MODEL] [--model MODEL] [--features] FILE.wav
 *
 * As TFLM's micro_speech_test does: one preprocessor interpreter per file
 * (its noise estimate and gain control carry from window to window), 30 ms
 * windows (480 samples) every 20 ms (320 samples), up to 49 windows of 40
 * int8 features; the missing windows of a shorter file stay zero. Then one
 * invoke of the keyword model, whose highest score (the first of equal
 * ones) names the label. Both models run in the same static arena, one
 * after the other; the two are built with only the operators they use
 * (TFLC_OPS below).
 *
 * Output: with --features, the 40 features of every window ("features W:
 * ..."); the arena each model used; the four scores; the label alone on the
 * last line. Models default to $SHARED (else ../shared):
 * conformance/external/tflm_tests/models/audio_preprocessor_int8/seed1/
 * model.tflite and models/micro_speech_quantized.tflite. */
/* clang-format off */
#define TFLC_OPS(X)                                                            \
  X(ADD) X(CONCATENATION) X(MUL) X(RESHAPE) X(DIV) X(STRIDED_SLICE) X(CAST)    \
  X(MAXIMUM) X(MINIMUM) X(SignalEnergy) X(SignalFftAutoScale)                  \
  X(SignalFilterBank) X(SignalFilterBankLog)                                   \
  X(SignalFilterBankSpectralSubtraction) X(SignalFilterBankSquareRoot)         \
  X(SignalPCAN) X(SignalRfft) X(SignalWindow)                                  \
  X(DEPTHWISE_CONV_2D) X(FULLY_CONNECTED) X(SOFTMAX)
/* clang-format on */
#define TFLC_IMPLEMENTATION
#define TFLC_STATIC
#include "../tflc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  SAMPLE_RATE = 16000,
  WINDOW_SAMPLES = 30 * SAMPLE_RATE / 1000, /* 480 */
  STRIDE_SAMPLES = 20 * SAMPLE_RATE / 1000, /* 320 */
  FEATURE_SIZE = 40,
  FEATURE_COUNT = 49,
  CATEGORIES = 4
};
static const char *const labels[CATEGORIES] = {"silence", "unknown", "yes",
                                               "no"};

/* One arena for both models, used one after the other (TFLM's test uses
 * 28584 bytes; tflc needs less, see the "arena" lines). */
static unsigned char arena[32 * 1024];
static int8_t features[FEATURE_COUNT][FEATURE_SIZE];

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "micro_speech: %s%s%s\n", what, detail ? ": " : "",
          detail ? detail : "");
  exit(1);
}

/* The whole file, in a 16-byte aligned buffer (as models want). */
static uint8_t *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  uint8_t *buf;
  long n;
  if (!f)
    fail("cannot open", path);
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0)
    fail("cannot read", path);
  buf = (uint8_t *)aligned_alloc(16, ((size_t)n + 16) & ~(size_t)15);
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
    fail("cannot read", path);
  fclose(f);
  *size = (size_t)n;
  return buf;
}

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}
static uint16_t le16(const uint8_t *p) {
  return (uint16_t)(p[0] | p[1] << 8);
}

/* The samples of a RIFF/WAVE file holding 16-bit mono PCM at 16 kHz:
 * *count samples at the returned pointer (inside `wav`). */
static const uint8_t *wav_samples(const uint8_t *wav, size_t size,
                                  const char *path, size_t *count) {
  size_t at = 12;
  int have_fmt = 0;
  if (size < 12 || memcmp(wav, "RIFF", 4) != 0 || memcmp(wav + 8, "WAVE", 4))
    fail("not a RIFF/WAVE file", path);
  while (size - at >= 8) {
    const uint8_t *chunk = wav + at;
    const uint32_t len = le32(chunk + 4);
    if (len > size - at - 8)
      fail("chunk runs past the end of the file", path);
    if (memcmp(chunk, "fmt ", 4) == 0) {
      if (len < 16 || le16(chunk + 8) != 1 || le16(chunk + 10) != 1 ||
          le32(chunk + 12) != SAMPLE_RATE || le16(chunk + 22) != 16)
        fail("not 16-bit mono PCM at 16 kHz", path);
      have_fmt = 1;
    } else if (memcmp(chunk, "data", 4) == 0) {
      if (!have_fmt)
        fail("data chunk before the fmt chunk", path);
      *count = len / 2;
      return chunk + 8;
    }
    at += 8 + (size_t)len + (len & 1); /* chunks are padded to even sizes */
  }
  fail("no data chunk", path);
  return NULL;
}

static void init(tflc_model *m, tflc_interpreter *it, uint8_t *bytes,
                 size_t size, const char *path) {
  if (tflc_model_init(m, bytes, size) != TFLC_OK)
    fail(path, tflc_model_error(m));
  if (tflc_interpreter_init(it, m, arena, sizeof arena, NULL) != TFLC_OK)
    fail(path, tflc_error(it));
}

int main(int argc, char **argv) {
  const char *shared = getenv("SHARED");
  char pre_default[1024], kws_default[1024];
  const char *pre_path = pre_default, *kws_path = kws_default, *wav_path = 0;
  int show_features = 0, i, w, windows = 0, best = 0;
  uint8_t *pre_bytes, *kws_bytes, *wav;
  size_t pre_size, kws_size, wav_size, samples, at;
  const uint8_t *pcm;
  tflc_model m;
  tflc_interpreter it;
  tflc_tensor *in;
  const tflc_tensor *out;
  const int8_t *scores;

  if (!shared)
    shared = "../shared";
  snprintf(pre_default, sizeof pre_default,
           "%s/conformance/external/tflm_tests/models/"
           "audio_preprocessor_int8/seed1/model.tflite",
           shared);
  snprintf(kws_default, sizeof kws_default,
           "%s/models/micro_speech_quantized.tflite", shared);
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--preprocessor") == 0 && i + 1 < argc)
      pre_path = argv[++i];
    else if (strcmp(argv[i], "--model") == 0 && i + 1 < argc)
      kws_path = argv[++i];
    else if (strcmp(argv[i], "--features") == 0)
      show_features = 1;
    else if (argv[i][0] != '-' && !wav_path)
      wav_path = argv[i];
    else
      wav_path = 0, i = argc; /* usage */
  }
  if (!wav_path) {
    fprintf(stderr, "usage: micro_speech [--preprocessor MODEL] [--model "
                    "MODEL] [--features] FILE.wav\n");
    return 2;
  }
  /* the default models come with the optional ../shared suites */
  for (i = 0; i < 2; i++) {
    const char *path = i ? kws_path : pre_path;
    FILE *f =
        (path == pre_default || path == kws_default) ? fopen(path, "rb") : NULL;
    if (f)
      fclose(f);
    else if (path == pre_default || path == kws_default) {
      fprintf(stderr,
              "micro_speech: no model %s: the models come with the optional "
              "../shared suites (SHARED=DIR), or give --preprocessor and "
              "--model\n",
              path);
      return 1;
    }
  }
  wav = read_file(wav_path, &wav_size);
  pcm = wav_samples(wav, wav_size, wav_path, &samples);

  /* ---- features: 30 ms windows every 20 ms, state kept across them ---- */
  pre_bytes = read_file(pre_path, &pre_size);
  init(&m, &it, pre_bytes, pre_size, pre_path);
  in = tflc_input(&it, 0);
  out = tflc_output(&it, 0);
  if (in->type != TFLC_INT16 || in->bytes != WINDOW_SAMPLES * 2 ||
      out->type != TFLC_INT8 || out->bytes != FEATURE_SIZE)
    fail(pre_path, "expects 480 int16 samples in, 40 int8 features out");
  for (at = 0; samples - at >= WINDOW_SAMPLES && windows < FEATURE_COUNT;
       at += STRIDE_SAMPLES, windows++) {
    int16_t *x = (int16_t *)in->data;
    for (i = 0; i < WINDOW_SAMPLES; i++) /* little-endian in the file */
      x[i] = (int16_t)le16(pcm + 2 * (at + (size_t)i));
    if (tflc_invoke(&it) != TFLC_OK)
      fail(pre_path, tflc_error(&it));
    memcpy(features[windows], out->data, FEATURE_SIZE);
  }
  printf("windows: %d (30 ms every 20 ms); preprocessor arena: %lu bytes\n",
         windows, (unsigned long)tflc_arena_used(&it));
  if (show_features)
    for (w = 0; w < windows; w++) {
      printf("features %d:", w);
      for (i = 0; i < FEATURE_SIZE; i++)
        printf(" %d", features[w][i]);
      printf("\n");
    }

  /* ---- keyword model, in the same arena ---------------------------------- */
  kws_bytes = read_file(kws_path, &kws_size);
  init(&m, &it, kws_bytes, kws_size, kws_path);
  in = tflc_input(&it, 0);
  out = tflc_output(&it, 0);
  if (in->type != TFLC_INT8 || in->bytes != sizeof features ||
      out->type != TFLC_INT8 || out->bytes != CATEGORIES)
    fail(kws_path, "expects 49 x 40 int8 features in, 4 int8 scores out");
  memcpy(in->data, features, sizeof features);
  if (tflc_invoke(&it) != TFLC_OK)
    fail(kws_path, tflc_error(&it));
  scores = (const int8_t *)out->data;
  printf("keyword model arena: %lu bytes\n",
         (unsigned long)tflc_arena_used(&it));
  for (i = 0; i < CATEGORIES; i++) {
    printf("score %-7s %4d (%.4f)\n", labels[i], scores[i],
           (double)((float)(scores[i] - out->zero_point) * out->scale));
    if (scores[i] > scores[best])
      best = i;
  }
  printf("%s\n", labels[best]);
  free(wav);
  free(pre_bytes);
  free(kws_bytes);
  return 0;
}

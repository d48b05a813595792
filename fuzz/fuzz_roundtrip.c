/* fuzz/fuzz_roundtrip.c - libFuzzer harness: compress, then decode.
 *
 * Random small tensor -> writer (tflc_write.h)
 * tflc_writer_compress in either format, widths 1..8, per tensor or per channel
 * on the first or last axis, every LUT type -> tflc_model_init ->
 * tflc_model_lut + tflc_lut_decode (fast) and tflc_lut_decode_ref -> equal to
 * the input, bit for bit. The same model is then run: the constant feeds a
 * RESHAPE (so it is decoded whole by the interpreter, or by a TFLM_DECODE
 * operator), whose output must equal the input too.
 *
 * Input layout (missing bytes read as 0):
 *   0    element type, b % 7 (FLOAT32 INT8 UINT8 BOOL INT16 INT32 INT64)
 *   1    index width: 1 + b % 8
 *   2    bit 0: format (0 METADATA, 1 DECODE); bit 1: tables padded to
 *        2^width; bits 2-3: channels (0 none, 1 first axis, 2 last axis,
 *        3 one scale)
 *   3    rank: 1 + b % 4;  4..7 dims: 1 + b % 8 each
 *   8    distinct values per channel: 1 + b % 2^width
 *   9..  pool of bytes: table values, then element choices (cycled) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "../tflc_write.h"

static const int lut_types[7] = {TFLC_FLOAT32, TFLC_INT8,  TFLC_UINT8,
                                 TFLC_BOOL,    TFLC_INT16, TFLC_INT32,
                                 TFLC_INT64};

static uint32_t rd8(const uint8_t *d, size_t n, size_t i) {
  return i < n ? d[i] : 0u;
}

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_roundtrip: %s: %s\n", what, detail ? detail : "");
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t size) {
  const int type = lut_types[rd8(d, size, 0) % 7u];
  const int bits = 1 + (int)(rd8(d, size, 1) % 8u);
  const uint32_t fl = rd8(d, size, 2);
  const int format = (fl & 1u) ? TFLC_W_DECODE : TFLC_W_METADATA;
  const int pad_pow2 = (int)((fl >> 1) & 1u);
  const int mode = (int)((fl >> 2) & 3u);
  const int32_t rank = 1 + (int32_t)(rd8(d, size, 3) % 4u);
  const size_t es = tflc_type_size(type);
  const uint8_t *pool = size > 9 ? d + 9 : NULL;
  const size_t npool = size > 9 ? size - 9 : 0;
  int32_t dims[4], dy[1], count = 1, channels = 1, axis = 0, i, ch;
  uint32_t nuniq = 1 + rd8(d, size, 8) % (1u << bits), k;
  uint8_t *data, *table, *bytes = NULL, *model, *out, *arena;
  size_t nbytes = 0, pi = 0;
  float scales[8];
  tflc_w_quant q;
  tflc_writer *w;
  int32_t x, y, found = -1, fmt = 0;
  tflc_status st;
  tflc_model m;
  tflc_const c;
  uint32_t stored;
  for (i = 0; i < rank; i++) {
    dims[i] = 1 + (int32_t)(rd8(d, size, 4 + (size_t)i) % 8u);
    count *= dims[i];
  }
  if (mode == 1 || mode == 2) {
    axis = mode == 1 ? 0 : rank - 1;
    channels = dims[axis];
  }
  /* per channel: nuniq table values from the pool; elements pick one */
  table = (uint8_t *)malloc((size_t)channels * nuniq * es);
  data = (uint8_t *)malloc((size_t)count * es);
  if (!table || !data)
    abort();
  for (k = 0; k < (uint32_t)channels * nuniq * es; k++)
    table[k] = npool ? pool[pi++ % npool] : (uint8_t)k;
  for (i = 0; i < count; i++) {
    uint32_t pick = (npool ? pool[pi++ % npool] : (uint32_t)i) % nuniq;
    int32_t epc = count / channels;
    ch = channels == 1 ? 0 : axis == 0 ? i / epc : i % channels;
    memcpy(data + (size_t)i * es, table + ((size_t)ch * nuniq + pick) * es, es);
  }

  w = tflc_writer_create();
  if (!w)
    abort();
  for (i = 0; i < 8; i++)
    scales[i] = 0.5f + (float)i;
  q.scale = scales;
  q.zero_point = NULL;
  q.count = mode == 3 ? 1 : channels;
  q.axis = axis;
  x = tflc_writer_tensor(w, 0, type, rank, dims, data, (size_t)count * es, "c",
                         mode ? &q : NULL);
  dy[0] = count;
  y = tflc_writer_tensor(w, 0, type, 1, dy, NULL, 0, "y", NULL);
  tflc_writer_op(w, 0, 22, NULL, 1, &x, 1, &y, 17, 0, NULL);
  tflc_writer_outputs(w, 0, 1, &y);
  st = tflc_writer_compress(w, 0, x, bits, format, pad_pow2);
  if (st != TFLC_OK) {
    /* refused only when a DECODE table would need 256 entries */
    if (!(st == TFLC_ERR_COMPRESSION && format == TFLC_W_DECODE &&
          (pad_pow2 ? bits == 8 : nuniq >= 256)))
      fail("tflc_writer_compress refused", tflc_status_str(st));
    tflc_writer_destroy(w);
    free(table);
    free(data);
    return 0;
  }
  if (tflc_writer_finish(w, &bytes, &nbytes) != TFLC_OK)
    fail("tflc_writer_finish", "");
  tflc_writer_destroy(w);

  /* exact-size, 16-byte aligned copy of the model */
  if (posix_memalign((void **)&model, 16, nbytes) != 0)
    abort();
  memcpy(model, bytes, nbytes);
  free(bytes);
  st = tflc_model_init(&m, model, nbytes);
  if (st != TFLC_OK)
    fail("tflc_model_init", m.error);
  for (i = 0; i < tflc_model_num_tensors(&m, 0); i++) {
    int f = 0;
    if (tflc_model_lut(&m, 0, i, &c, &stored, &f)) {
      found = i;
      fmt = f;
      break;
    }
  }
  if (found < 0 || fmt != (format == TFLC_W_DECODE ? 2 : 1))
    fail("compressed tensor not found", "");
  if (c.count != count || c.type != type || c.bits != bits)
    fail("descriptor does not match", "");
  out = (uint8_t *)malloc((size_t)count * es);
  if (!out)
    abort();
  tflc_lut_decode(&c, 0, count, out);
  if (memcmp(out, data, (size_t)count * es) != 0)
    fail("tflc_lut_decode does not give the input back", "");
  memset(out, 0, (size_t)count * es);
  tflc_lut_decode_ref(&c, 0, count, out);
  if (memcmp(out, data, (size_t)count * es) != 0)
    fail("tflc_lut_decode_ref does not give the input back", "");
  free(out);

  /* and through the interpreter */
  if (posix_memalign((void **)&arena, 16, 256 * 1024) != 0)
    abort();
  {
    tflc_interpreter it;
    const tflc_tensor *o;
    st = tflc_interpreter_init(&it, &m, arena, 256 * 1024, NULL);
    if (st != TFLC_OK)
      fail("tflc_interpreter_init", it.error);
    st = tflc_invoke(&it);
    if (st != TFLC_OK)
      fail("tflc_invoke", it.error);
    o = tflc_output(&it, 0);
    if (!o || o->bytes != (uint32_t)count * es ||
        memcmp(o->data, data, (size_t)count * es) != 0)
      fail("interpreter output differs from the input", "");
  }
  free(arena);
  free(model);
  free(table);
  free(data);
  return 0;
}

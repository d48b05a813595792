/* dev/writer.h - the tflc model writer: a host-side flatbuffer builder for
 * the TFLite schema, with TFLM's two LUT compression formats.
 *
 * What it is
 *   Builds .tflite bytes from a graph described through calls: tensors
 *   (with constant data and quantization), operators (with builtin options
 *   tables), subgraph inputs and outputs. It serves the compressor and the
 *   tests. It is host-side code (malloc, realloc, free) behind its own
 *   opt-in macro, so it never reaches firmware. No flatbuffers library is
 *   used: the builder below writes the wire format directly.
 *
 * Quick start
 *   #define TFLC_WRITER_IMPLEMENTATION   // in exactly one .c file
 *   #include "tflc.h"
 *
 *   tflc_writer *w = tflc_writer_create();
 *   int32_t d[2] = {1, 4}, wd[2] = {2, 4};
 *   int32_t x = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 2, d, NULL, 0, "x", 0);
 *   int32_t k = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 2, wd, weights,
 *                                  sizeof weights, "w", 0);
 *   int32_t y = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 2, d, NULL, 0, "y", 0);
 *   int32_t in[3] = {x, k, -1};
 *   tflc_writer_op(w, 0, 9, NULL, 3, in, 1, &y, 8, 0, NULL);
 *   tflc_writer_inputs(w, 0, 1, &x);
 *   tflc_writer_outputs(w, 0, 1, &y);
 *   tflc_writer_compress(w, 0, k, 4, TFLC_W_DECODE, 0);   // optional
 *   uint8_t *bytes; size_t size;
 *   if (tflc_writer_finish(w, &bytes, &size) == TFLC_OK) { ...; free(bytes); }
 *   tflc_writer_destroy(w);
 *
 * What it writes
 *   Root offset, "TFL3", Model{version 3, operator_codes, subgraphs,
 *   description "tflc", buffers (0 = empty sentinel), metadata}. Every
 *   Buffer.data starts on a 16-byte file offset (as TFLM's align tool
 *   leaves it); with TFLC_W_FLAG_EXTERNAL_BUFFERS the bytes follow the
 *   flatbuffer and Buffer.offset/size locate them. Scalars are aligned to
 *   their size, vectors to 4 (int64 elements to 8, buffer data to 16).
 *   Layout: tables are written front to back, each vtable right before its
 *   table, children after their parents (so every uoffset points forward),
 *   buffer data last.
 *
 * Compression (tflc_writer_compress, applied by tflc_writer_finish)
 *   TFLC_W_METADATA: the tensor's buffer gets the packed indices, a value
 *     table buffer is appended, and Model.metadata "COMPRESSION_METADATA"
 *     points at a nested flatbuffer listing the LUT tensors.
 *   TFLC_W_DECODE: TFLM_DECODE custom operators are inserted before each
 *     consumer (and at the end for subgraph outputs), reading a UINT8
 *     encoded tensor and a UINT8 ancillary tensor (16-byte DCM + tables).
 *
 * Where TFLM differs (the writer can produce what TFLM would refuse, on
 * purpose, for tests): TFLM takes index widths 1..7 (8 is a tflc
 * extension); it refuses an empty lut_tensors entry (written for subgraphs
 * below the last one with METADATA tensors, as TFLM's older compressor
 * does); it ignores Buffer.offset/size (EXTERNAL_BUFFERS). Unlike TFLM's
 * newer compressor the writer does not share identical ancillary tensors,
 * dedupe buffers or prune the emptied ones (buffer indices stay as given).
 *
 * License: MIT (see LICENSE).
 */
#ifndef TFLC_WRITER_H
#define TFLC_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include "../tflc_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tflc_writer tflc_writer; /* opaque, heap */

typedef struct tflc_w_quant { /* NULL = no quantization */
  const float *scale;
  const int64_t *zero_point; /* zero_point may be NULL -> zeros */
  int32_t count;             /* number of scales */
  int32_t axis;              /* quantized_dimension */
} tflc_w_quant;

/* Kinds of builtin options fields. TFLC_W_RAW: a scalar of `size` bytes
 * (1, 2, 4, 8) holding the low bits of `u`; TFLC_W_RAW_VEC: a vector of
 * `count` elements of `size` bytes (1, 2, 4, 8) read from `bytes`
 * (little-endian), its elements aligned to `align` (0 = their size, at
 * least 4; 16 for CustomQuantization.custom). */
enum {
  TFLC_W_U8 = 1,
  TFLC_W_I32,
  TFLC_W_F32,
  TFLC_W_I32_VEC,
  TFLC_W_STR,
  TFLC_W_RAW,
  TFLC_W_RAW_VEC
};

typedef struct tflc_w_option { /* one field of a builtin options table */
  uint8_t slot;                /* field slot (0-based) in the options table */
  uint8_t kind;                /* TFLC_W_* */
  int32_t i;                   /* TFLC_W_U8 (bool, enums) and TFLC_W_I32 */
  float f;                     /* TFLC_W_F32 */
  const int32_t *vec;          /* TFLC_W_I32_VEC */
  int32_t vec_len;
  const char *str;   /* TFLC_W_STR */
  uint64_t u;        /* TFLC_W_RAW */
  uint8_t size;      /* TFLC_W_RAW, TFLC_W_RAW_VEC: (element) bytes */
  uint8_t align;     /* TFLC_W_RAW_VEC */
  const void *bytes; /* TFLC_W_RAW_VEC */
  int32_t count;     /* TFLC_W_RAW_VEC */
} tflc_w_option;

/* Compression formats. */
enum { TFLC_W_METADATA = 1, TFLC_W_DECODE = 2 };

/* Flags. */
enum {
  TFLC_W_FLAG_ONLY_DEPRECATED_CODE = 1, /* only deprecated_builtin_code */
  TFLC_W_FLAG_EXTERNAL_BUFFERS = 2,     /* Buffer.offset/size, data after */
  TFLC_W_FLAG_NO_IDENTIFIER = 4,        /* omit "TFL3" (negative tests) */
  /* Smaller output, as TFLM's compressor and align tool write it: shared
   * vtables, scalar fields equal to their default omitted, identical
   * buffers merged and unreferenced ones dropped (buffer indices change),
   * and in the DECODE format the encoded indices replace the original
   * tensor in place (UINT8 [n], same index and name) and identical
   * ancillary tensors are shared within a subgraph. */
  TFLC_W_FLAG_COMPACT = 8
};

TFLC_API tflc_writer *tflc_writer_create(void);
TFLC_API void tflc_writer_destroy(tflc_writer *w);
TFLC_API void tflc_writer_set_flags(tflc_writer *w, unsigned flags);
/* First error of a call that returns nothing (bad argument, out of memory);
 * tflc_writer_finish returns it too. */
TFLC_API tflc_status tflc_writer_status(const tflc_writer *w);

/* Adds a subgraph and returns its index; subgraph 0 exists from create. */
TFLC_API int32_t tflc_writer_subgraph(tflc_writer *w);
/* SubGraph.name (not written when never set). */
TFLC_API void tflc_writer_subgraph_name(tflc_writer *w, int32_t sg,
                                        const char *name);

/* Adds a tensor. data NULL = no buffer (activation); data with data_size 0
 * gets its own buffer without a data vector. The bytes are copied and not
 * checked against the shape (so tests can build bad models); type is any
 * TensorType byte. Rank 0 writes an empty shape vector. name may be NULL.
 * Returns the tensor index in sg, or -1. */
TFLC_API int32_t tflc_writer_tensor(tflc_writer *w, int32_t sg, int type,
                                    int32_t rank, const int32_t *dims,
                                    const void *data, size_t data_size,
                                    const char *name, const tflc_w_quant *q);
TFLC_API void tflc_writer_set_variable(tflc_writer *w, int32_t sg,
                                       int32_t tensor, int is_variable);
/* Set (replace) the subgraph's input / output tensor lists. Indices are not
 * checked (negative tests). */
TFLC_API void tflc_writer_inputs(tflc_writer *w, int32_t sg, int32_t n,
                                 const int32_t *tensors);
TFLC_API void tflc_writer_outputs(tflc_writer *w, int32_t sg, int32_t n,
                                  const int32_t *tensors);

/* Appends an operator. builtin_code = BuiltinOperator number (CUSTOM = 32
 * with custom_code). Operator codes are deduplicated by (code, custom_code).
 * options_type = BuiltinOptions union number (0 none); with options_type
 * != 0 an options table is always written (possibly empty) from opts.
 * Tensor indices are not checked (-1 = optional input). Returns the
 * operator index in sg, or -1 (bad argument, duplicate option slot, options
 * without options_type). */
TFLC_API int32_t tflc_writer_op(tflc_writer *w, int32_t sg,
                                int32_t builtin_code, const char *custom_code,
                                int32_t nin, const int32_t *inputs,
                                int32_t nout, const int32_t *outputs,
                                uint8_t options_type, int32_t nopts,
                                const tflc_w_option *opts);

/* Adds a Model.metadata entry `name` with its own buffer holding `data`
 * (size bytes; data NULL or size 0 = a buffer without data). Returns the
 * buffer index, or -1. */
TFLC_API int32_t tflc_writer_metadata(tflc_writer *w, const char *name,
                                      const void *data, size_t size);

/* Marks a constant tensor for LUT compression with `bits` (1..8) in
 * `format` (TFLC_W_METADATA or TFLC_W_DECODE); the work is done now, the
 * graph is rewritten by tflc_writer_finish.
 * Tables: per channel, the sorted unique values (numeric order of the
 * element type; float32 in IEEE total order, i.e. numeric order with -0
 * before +0 and NaNs at the ends, values kept bit-exact); index = position.
 * Per-channel when the tensor's quantization has > 1 scale: the channel
 * axis is quantized_dimension, which must be 0 or rank-1, and the scale
 * count must equal that dimension. pad_pow2: every table padded with zeros
 * to 2^bits entries (older metadata compressor), else to the largest
 * channel's unique count (newer compressor). The DECODE format stores the
 * stride in one byte, so a stride of 256 (bits 8) is refused there.
 * Returns TFLC_OK, or
 *   TFLC_ERR_ARG          bad writer/bits/format
 *   TFLC_ERR_INDEX        bad subgraph or tensor index
 *   TFLC_ERR_STATE        tensor already compressed
 *   TFLC_ERR_TYPE         type not FLOAT32/INT8/UINT8/BOOL/INT16/INT32/INT64
 *   TFLC_ERR_BUFFER       no data, or data size != elements * element size
 *   TFLC_ERR_SHAPE        negative or overflowing dims
 *   TFLC_ERR_QUANT        per-channel axis not 0 / rank-1, scale count !=
 *                         dims[axis]
 *   TFLC_ERR_COMPRESSION  more than 2^bits unique values in a channel, or
 *                         DECODE stride > 255
 *   TFLC_ERR_ARENA        out of memory */
TFLC_API tflc_status tflc_writer_compress(tflc_writer *w, int32_t sg,
                                          int32_t tensor, int bits, int format,
                                          int pad_pow2);

/* Serialises: heap bytes in *out (free with free()), size in *size. The
 * writer stays usable (finish may be called again). Errors: the sticky
 * error, TFLC_ERR_UNSUPPORTED (code > 127 with ONLY_DEPRECATED_CODE, or a
 * flatbuffer over 2 GiB), TFLC_ERR_ARENA (out of memory). */
TFLC_API tflc_status tflc_writer_finish(tflc_writer *w, uint8_t **out,
                                        size_t *size);

/* Packs count indices MSB-first at `bits` (1..32) each into out
 * (ceil(count*bits/8) bytes, zero padded); each index is masked to bits. */
TFLC_API void tflc_writer_pack_indices(const uint32_t *indices, size_t count,
                                       int bits, uint8_t *out);
/* Bytes tflc_writer_pack_indices writes: ceil(count*bits/8) (0 if that
 * does not fit in size_t or bits is out of range). */
TFLC_API size_t tflc_writer_packed_size(size_t count, int bits);

#ifdef __cplusplus
}
#endif

/* ======================================================================== */
/* Stop here if you only want the API.                                      */
/* ======================================================================== */
#endif /* TFLC_WRITER_H */

#if defined(TFLC_WRITER_IMPLEMENTATION) &&                                     \
    !defined(TFLC_WRITER_IMPLEMENTATION_DONE)
#define TFLC_WRITER_IMPLEMENTATION_DONE

#include <stdlib.h>
#include <string.h>

/* ---- writer state --------------------------------------------------------
 * Everything the caller describes is copied into heap arrays owned by the
 * writer. tflc_writer_finish lowers that description (compression applied)
 * into a temporary view and serialises the view. */

#define TFLC__W_MAX_FB 0x7fffffffu /* flatbuffers' 2 GiB limit */
#define TFLC__W_MAX_COUNT ((size_t)0x7fffffff)

typedef struct tflc__w_opt tflc__w_opt;

typedef struct tflc__w_tensor {
  int32_t type, rank;
  int32_t *dims;
  uint32_t buffer;
  char *name;
  int has_q;
  float *scale;
  int64_t *zp;
  int32_t qcount, qaxis;
  int is_variable;
  /* fields the model copier keeps (all zero = not written) */
  int no_shape; /* Tensor.shape absent */
  int has_sig;  /* shape_signature present */
  int32_t *sig;
  int32_t nsig;
  int has_rank; /* 0 absent, 1 false, 2 true */
  int nzp_set;  /* zero points written: nzp (else qcount) */
  int32_t nzp;
  float *qmin, *qmax; /* QuantizationParameters.min/max */
  int32_t nqmin, nqmax;
  uint8_t qdtype;  /* QuantizationParameters.details union type */
  tflc__w_opt *qd; /* its table */
  int32_t nqd;
  /* compression: cformat 0 = none */
  int cformat, cbits;
  uint32_t cstride;
  uint8_t *cidx; /* packed indices */
  size_t cidx_size;
  uint8_t *cvals; /* value tables, channels * stride elements */
  size_t cvals_size;
} tflc__w_tensor;

struct tflc__w_opt {
  uint8_t slot, kind;
  int32_t i;
  float f;
  int32_t *vec;
  int32_t vec_len;
  char *str;
  uint64_t u;     /* TFLC_W_RAW */
  uint8_t size;   /* TFLC_W_RAW(_VEC) */
  uint8_t align;  /* TFLC_W_RAW_VEC */
  uint8_t *bytes; /* TFLC_W_RAW_VEC: count * size bytes */
  int32_t count;
};

typedef struct tflc__w_op {
  uint32_t opcode;
  int32_t nin, nout;
  int32_t *in, *out;
  uint8_t otype;
  int32_t nopts;
  tflc__w_opt *opts;
  /* fields the model copier keeps (all zero = not written) */
  uint8_t otype2; /* builtin_options_2 */
  int32_t nopts2;
  tflc__w_opt *opts2;
  int has_copts; /* custom_options */
  uint8_t *copts;
  size_t ncopts;
  int32_t copts_fmt;
  int has_mut; /* mutating_variable_inputs */
  uint8_t *mut;
  int32_t nmut;
  int has_inter; /* intermediates */
  int32_t *inter;
  int32_t ninter;
  int has_dbg; /* debug_metadata_index */
  int32_t dbg;
} tflc__w_op;

typedef struct tflc__w_sg {
  tflc__w_tensor *t;
  size_t nt, ct;
  tflc__w_op *op;
  size_t nop, cop;
  int32_t *in, *out;
  int32_t nin, nout;
  char *name;
  int has_dbg; /* debug_metadata_index */
  int32_t dbg;
} tflc__w_sg;

typedef struct tflc__w_ocode {
  int32_t code;
  char *custom;
  int raw;         /* copied: write dep, version, code as stored */
  int32_t dep;     /* deprecated_builtin_code */
  int32_t version; /* OperatorCode.version */
  int has_code;    /* builtin_code present (raw) */
} tflc__w_ocode;

typedef struct tflc__w_tmap {
  char *name;
  uint32_t tensor;
} tflc__w_tmap;

typedef struct tflc__w_sigdef {
  tflc__w_tmap *in, *out;
  int32_t nin, nout;
  int has_in, has_out;
  char *key;
  uint32_t sg;
} tflc__w_sigdef;

typedef struct tflc__w_bufd {
  uint8_t *data;
  size_t size;
} tflc__w_bufd;

typedef struct tflc__w_meta {
  char *name;
  uint32_t buffer;
} tflc__w_meta;

struct tflc_writer {
  unsigned flags;
  tflc_status err;
  tflc__w_sg *sg;
  size_t nsg, csg;
  tflc__w_ocode *oc;
  size_t noc, coc;
  tflc__w_bufd *buf;
  size_t nbuf, cbuf;
  tflc__w_meta *meta;
  size_t nmeta, cmeta;
  /* Model fields the copier keeps */
  int raw_model; /* copied: version, description as stored */
  uint32_t version;
  char *description; /* NULL = absent */
  int has_mbuf;      /* metadata_buffer (buffer indices) */
  int32_t *mbuf;
  int32_t nmbuf;
  tflc__w_sigdef *sig;
  int32_t nsig;
};

/* Grows an array to hold `need` elements; returns the (maybe moved) array,
 * or NULL leaving the old one intact. */
static void *tflc__w_grow(void *p, size_t *cap, size_t need, size_t esize) {
  size_t ncap;
  void *np;
  if (need <= *cap && p)
    return p;
  ncap = *cap ? *cap : 8;
  while (ncap < need) {
    if (ncap > ((size_t)-1) / 2)
      return NULL;
    ncap *= 2;
  }
  if (ncap > ((size_t)-1) / esize)
    return NULL;
  np = realloc(p, ncap * esize);
  if (!np)
    return NULL;
  *cap = ncap;
  return np;
}

/* malloc(n * esize) with overflow check; n == 0 gives a 1-byte block. */
static void *tflc__w_alloc(size_t n, size_t esize) {
  if (esize && n > ((size_t)-1) / esize)
    return NULL;
  n *= esize;
  return malloc(n ? n : 1);
}

/* Copy of n elements of esize bytes (p may be NULL when n == 0). */
static void *tflc__w_dup(const void *p, size_t n, size_t esize) {
  void *q = tflc__w_alloc(n, esize);
  if (q && n)
    memcpy(q, p, n * esize);
  return q;
}

static char *tflc__w_strdup(const char *s) {
  return s ? (char *)tflc__w_dup(s, strlen(s) + 1, 1) : NULL;
}

static void tflc__w_fail(tflc_writer *w, tflc_status s) {
  if (w->err == TFLC_OK)
    w->err = s;
}

static tflc__w_sg *tflc__w_get_sg(tflc_writer *w, int32_t sg) {
  if (!w || sg < 0 || (size_t)sg >= w->nsg)
    return NULL;
  return &w->sg[sg];
}

/* Appends a buffer (copy of data); returns its index or 0 on failure. */
static uint32_t tflc__w_add_buffer(tflc_writer *w, const void *data,
                                   size_t size) {
  void *np;
  uint8_t *copy = NULL;
  if (w->nbuf >= TFLC__W_MAX_COUNT)
    return 0;
  np = tflc__w_grow(w->buf, &w->cbuf, w->nbuf + 1, sizeof *w->buf);
  if (!np)
    return 0;
  w->buf = (tflc__w_bufd *)np;
  if (data && size) {
    copy = (uint8_t *)tflc__w_dup(data, size, 1);
    if (!copy)
      return 0;
  } else {
    size = 0;
  }
  w->buf[w->nbuf].data = copy;
  w->buf[w->nbuf].size = size;
  return (uint32_t)w->nbuf++;
}

static void tflc__w_free_opts(tflc__w_opt *o, int32_t n) {
  int32_t i;
  for (i = 0; o && i < n; i++) {
    free(o[i].vec);
    free(o[i].str);
    free(o[i].bytes);
  }
  free(o);
}

static void tflc__w_free_op(tflc__w_op *o) {
  free(o->in);
  free(o->out);
  tflc__w_free_opts(o->opts, o->nopts);
  tflc__w_free_opts(o->opts2, o->nopts2);
  free(o->copts);
  free(o->mut);
  free(o->inter);
}

static void tflc__w_free_tensor(tflc__w_tensor *t) {
  free(t->dims);
  free(t->name);
  free(t->scale);
  free(t->zp);
  free(t->cidx);
  free(t->cvals);
  free(t->sig);
  free(t->qmin);
  free(t->qmax);
  tflc__w_free_opts(t->qd, t->nqd);
}

TFLC_API void tflc_writer_destroy(tflc_writer *w) {
  size_t i, j;
  if (!w)
    return;
  for (i = 0; i < w->nsg; i++) {
    tflc__w_sg *s = &w->sg[i];
    for (j = 0; j < s->nt; j++)
      tflc__w_free_tensor(&s->t[j]);
    for (j = 0; j < s->nop; j++)
      tflc__w_free_op(&s->op[j]);
    free(s->t);
    free(s->op);
    free(s->in);
    free(s->out);
    free(s->name);
  }
  free(w->sg);
  for (i = 0; i < w->noc; i++)
    free(w->oc[i].custom);
  free(w->oc);
  for (i = 0; i < w->nbuf; i++)
    free(w->buf[i].data);
  free(w->buf);
  for (i = 0; i < w->nmeta; i++)
    free(w->meta[i].name);
  free(w->meta);
  free(w->description);
  free(w->mbuf);
  for (i = 0; w->sig && i < (size_t)w->nsig; i++) {
    tflc__w_sigdef *d = &w->sig[i];
    for (j = 0; d->in && j < (size_t)d->nin; j++)
      free(d->in[j].name);
    for (j = 0; d->out && j < (size_t)d->nout; j++)
      free(d->out[j].name);
    free(d->in);
    free(d->out);
    free(d->key);
  }
  free(w->sig);
  free(w);
}

TFLC_API int32_t tflc_writer_subgraph(tflc_writer *w) {
  void *np;
  if (!w || w->nsg >= TFLC__W_MAX_COUNT)
    return -1;
  np = tflc__w_grow(w->sg, &w->csg, w->nsg + 1, sizeof *w->sg);
  if (!np) {
    tflc__w_fail(w, TFLC_ERR_ARENA);
    return -1;
  }
  w->sg = (tflc__w_sg *)np;
  memset(&w->sg[w->nsg], 0, sizeof w->sg[0]);
  return (int32_t)w->nsg++;
}

TFLC_API tflc_writer *tflc_writer_create(void) {
  tflc_writer *w = (tflc_writer *)calloc(1, sizeof(tflc_writer));
  if (!w)
    return NULL;
  w->err = TFLC_OK;
  /* buffer 0: the empty sentinel; subgraph 0: the main graph */
  tflc__w_add_buffer(w, NULL, 0);
  if (w->nbuf != 1 || tflc_writer_subgraph(w) != 0) {
    tflc_writer_destroy(w);
    return NULL;
  }
  return w;
}

TFLC_API void tflc_writer_set_flags(tflc_writer *w, unsigned flags) {
  if (w)
    w->flags = flags;
}

TFLC_API tflc_status tflc_writer_status(const tflc_writer *w) {
  return w ? w->err : TFLC_ERR_ARG;
}

TFLC_API void tflc_writer_subgraph_name(tflc_writer *w, int32_t sg,
                                        const char *name) {
  tflc__w_sg *s = tflc__w_get_sg(w, sg);
  char *copy;
  if (!s) {
    if (w)
      tflc__w_fail(w, TFLC_ERR_INDEX);
    return;
  }
  copy = tflc__w_strdup(name);
  if (name && !copy) {
    tflc__w_fail(w, TFLC_ERR_ARENA);
    return;
  }
  free(s->name);
  s->name = copy;
}

TFLC_API int32_t tflc_writer_tensor(tflc_writer *w, int32_t sg, int type,
                                    int32_t rank, const int32_t *dims,
                                    const void *data, size_t data_size,
                                    const char *name, const tflc_w_quant *q) {
  tflc__w_sg *s = tflc__w_get_sg(w, sg);
  tflc__w_tensor t;
  void *np;
  int32_t i;
  if (!s || rank < 0 || (rank > 0 && !dims) || type < -128 || type > 127 ||
      s->nt >= TFLC__W_MAX_COUNT)
    return -1;
  if (q && (q->count < 0 || (q->count > 0 && !q->scale)))
    return -1;
  memset(&t, 0, sizeof t);
  t.type = type;
  t.rank = rank;
  t.dims = (int32_t *)tflc__w_dup(dims, (size_t)rank, sizeof(int32_t));
  t.name = tflc__w_strdup(name);
  if (q) {
    t.has_q = 1;
    t.qcount = q->count;
    t.qaxis = q->axis;
    t.scale = (float *)tflc__w_dup(q->scale, (size_t)q->count, sizeof(float));
    t.zp = (int64_t *)tflc__w_alloc((size_t)q->count, sizeof(int64_t));
    if (t.zp) {
      for (i = 0; i < q->count; i++)
        t.zp[i] = q->zero_point ? q->zero_point[i] : 0;
    }
  }
  np = tflc__w_grow(s->t, &s->ct, s->nt + 1, sizeof *s->t);
  if (np)
    s->t = (tflc__w_tensor *)np;
  if (!np || !t.dims || (name && !t.name) || (q && (!t.scale || !t.zp)))
    goto oom;
  if (data) {
    t.buffer = tflc__w_add_buffer(w, data, data_size);
    if (t.buffer == 0)
      goto oom;
  }
  s->t[s->nt] = t;
  return (int32_t)s->nt++;
oom:
  tflc__w_free_tensor(&t);
  tflc__w_fail(w, TFLC_ERR_ARENA);
  return -1;
}

TFLC_API void tflc_writer_set_variable(tflc_writer *w, int32_t sg,
                                       int32_t tensor, int is_variable) {
  tflc__w_sg *s = tflc__w_get_sg(w, sg);
  if (!s || tensor < 0 || (size_t)tensor >= s->nt) {
    if (w)
      tflc__w_fail(w, TFLC_ERR_INDEX);
    return;
  }
  s->t[tensor].is_variable = is_variable != 0;
}

static void tflc__w_set_list(tflc_writer *w, int32_t sg, int32_t n,
                             const int32_t *tensors, int outputs) {
  tflc__w_sg *s = tflc__w_get_sg(w, sg);
  int32_t *copy;
  if (!s || n < 0 || (n > 0 && !tensors)) {
    if (w)
      tflc__w_fail(w, s ? TFLC_ERR_ARG : TFLC_ERR_INDEX);
    return;
  }
  copy = (int32_t *)tflc__w_dup(tensors, (size_t)n, sizeof(int32_t));
  if (!copy) {
    tflc__w_fail(w, TFLC_ERR_ARENA);
    return;
  }
  if (outputs) {
    free(s->out);
    s->out = copy;
    s->nout = n;
  } else {
    free(s->in);
    s->in = copy;
    s->nin = n;
  }
}

TFLC_API void tflc_writer_inputs(tflc_writer *w, int32_t sg, int32_t n,
                                 const int32_t *tensors) {
  tflc__w_set_list(w, sg, n, tensors, 0);
}

TFLC_API void tflc_writer_outputs(tflc_writer *w, int32_t sg, int32_t n,
                                  const int32_t *tensors) {
  tflc__w_set_list(w, sg, n, tensors, 1);
}

static int tflc__w_streq(const char *a, const char *b) {
  if (!a || !b)
    return a == b;
  return strcmp(a, b) == 0;
}

/* Index of operator code (code, custom), added when new; -1 on failure. */
static int32_t tflc__w_opcode(tflc_writer *w, int32_t code,
                              const char *custom) {
  size_t i;
  void *np;
  char *copy;
  for (i = 0; i < w->noc; i++)
    if (w->oc[i].code == code && tflc__w_streq(w->oc[i].custom, custom))
      return (int32_t)i;
  if (w->noc >= TFLC__W_MAX_COUNT)
    return -1;
  np = tflc__w_grow(w->oc, &w->coc, w->noc + 1, sizeof *w->oc);
  if (!np)
    return -1;
  w->oc = (tflc__w_ocode *)np;
  copy = tflc__w_strdup(custom);
  if (custom && !copy)
    return -1;
  memset(&w->oc[w->noc], 0, sizeof w->oc[0]);
  w->oc[w->noc].code = code;
  w->oc[w->noc].custom = copy;
  return (int32_t)w->noc++;
}

/* 1 if n options are well formed (known kind, sizes, no slot twice). */
static int tflc__w_opts_ok(const tflc_w_option *opts, int32_t n) {
  int32_t i, j;
  if (n < 0 || (n > 0 && !opts))
    return 0;
  for (i = 0; i < n; i++) {
    const tflc_w_option *p = &opts[i];
    unsigned sz = p->size;
    if (p->kind < TFLC_W_U8 || p->kind > TFLC_W_RAW_VEC)
      return 0;
    if (p->kind == TFLC_W_I32_VEC &&
        (p->vec_len < 0 || (p->vec_len > 0 && !p->vec)))
      return 0;
    if (p->kind == TFLC_W_STR && !p->str)
      return 0;
    if ((p->kind == TFLC_W_RAW || p->kind == TFLC_W_RAW_VEC) && sz != 1 &&
        sz != 2 && sz != 4 && sz != 8)
      return 0;
    if (p->kind == TFLC_W_RAW_VEC &&
        (p->count < 0 || (p->count > 0 && !p->bytes) ||
         (p->align != 0 && p->align != 4 && p->align != 8 && p->align != 16)))
      return 0;
    for (j = 0; j < i; j++)
      if (opts[j].slot == p->slot)
        return 0;
  }
  return 1;
}

/* Deep copy of n checked options into *out; 0 on out of memory (what was
 * copied is in *out, *nout, for tflc__w_free_opts). */
static int tflc__w_copy_opts(const tflc_w_option *opts, int32_t n,
                             tflc__w_opt **out, int32_t *nout) {
  tflc__w_opt *o = (tflc__w_opt *)tflc__w_alloc((size_t)n, sizeof *o);
  int32_t i;
  *out = o;
  *nout = 0;
  if (!o)
    return 0;
  for (i = 0; i < n; i++) {
    tflc__w_opt *d = &o[i];
    memset(d, 0, sizeof *d);
    *nout = i + 1;
    d->slot = opts[i].slot;
    d->kind = opts[i].kind;
    d->i = opts[i].i;
    d->f = opts[i].f;
    d->u = opts[i].u;
    d->size = opts[i].size;
    d->align = opts[i].align;
    if (d->kind == TFLC_W_I32_VEC) {
      d->vec_len = opts[i].vec_len;
      d->vec = (int32_t *)tflc__w_dup(opts[i].vec, (size_t)d->vec_len,
                                      sizeof(int32_t));
      if (!d->vec)
        return 0;
    } else if (d->kind == TFLC_W_STR) {
      d->str = tflc__w_strdup(opts[i].str);
      if (!d->str)
        return 0;
    } else if (d->kind == TFLC_W_RAW_VEC) {
      d->count = opts[i].count;
      d->bytes = (uint8_t *)tflc__w_dup(opts[i].bytes, (size_t)d->count,
                                        (size_t)d->size);
      if (!d->bytes)
        return 0;
    }
  }
  return 1;
}

/* Appends operator o (taken over; freed on failure) to s. */
static int32_t tflc__w_push_op(tflc_writer *w, tflc__w_sg *s, tflc__w_op *o) {
  void *np = tflc__w_grow(s->op, &s->cop, s->nop + 1, sizeof *s->op);
  if (!np) {
    tflc__w_free_op(o);
    tflc__w_fail(w, TFLC_ERR_ARENA);
    return -1;
  }
  s->op = (tflc__w_op *)np;
  s->op[s->nop] = *o;
  return (int32_t)s->nop++;
}

TFLC_API int32_t tflc_writer_op(tflc_writer *w, int32_t sg,
                                int32_t builtin_code, const char *custom_code,
                                int32_t nin, const int32_t *inputs,
                                int32_t nout, const int32_t *outputs,
                                uint8_t options_type, int32_t nopts,
                                const tflc_w_option *opts) {
  tflc__w_sg *s = tflc__w_get_sg(w, sg);
  tflc__w_op o;
  int32_t oc;
  if (!s || builtin_code < 0 || nin < 0 || nout < 0 || nopts < 0 ||
      (nin > 0 && !inputs) || (nout > 0 && !outputs) ||
      (nopts > 0 && (!opts || options_type == 0)) ||
      s->nop >= TFLC__W_MAX_COUNT || !tflc__w_opts_ok(opts, nopts))
    return -1;
  memset(&o, 0, sizeof o);
  o.nin = nin;
  o.nout = nout;
  o.otype = options_type;
  o.in = (int32_t *)tflc__w_dup(inputs, (size_t)nin, sizeof(int32_t));
  o.out = (int32_t *)tflc__w_dup(outputs, (size_t)nout, sizeof(int32_t));
  if (!o.in || !o.out || !tflc__w_copy_opts(opts, nopts, &o.opts, &o.nopts))
    goto oom;
  oc = tflc__w_opcode(w, builtin_code, custom_code);
  if (oc < 0)
    goto oom;
  o.opcode = (uint32_t)oc;
  return tflc__w_push_op(w, s, &o);
oom:
  tflc__w_free_op(&o);
  tflc__w_fail(w, TFLC_ERR_ARENA);
  return -1;
}

TFLC_API int32_t tflc_writer_metadata(tflc_writer *w, const char *name,
                                      const void *data, size_t size) {
  void *np;
  char *copy;
  uint32_t b;
  if (!w || !name || w->nmeta >= TFLC__W_MAX_COUNT)
    return -1;
  np = tflc__w_grow(w->meta, &w->cmeta, w->nmeta + 1, sizeof *w->meta);
  if (!np)
    goto oom;
  w->meta = (tflc__w_meta *)np;
  copy = tflc__w_strdup(name);
  if (!copy)
    goto oom;
  b = tflc__w_add_buffer(w, data, size);
  if (b == 0) {
    free(copy);
    goto oom;
  }
  w->meta[w->nmeta].name = copy;
  w->meta[w->nmeta].buffer = b;
  w->nmeta++;
  return (int32_t)b;
oom:
  tflc__w_fail(w, TFLC_ERR_ARENA);
  return -1;
}

/* ---- LUT compression ------------------------------------------------------
 * Elements are mapped to uint64 keys whose unsigned order is the element
 * type's numeric order (IEEE total order for float32); keys map back to the
 * exact element bits, so tables are bit-exact. */

TFLC_API size_t tflc_writer_packed_size(size_t count, int bits) {
  size_t b, whole;
  if (bits < 1 || bits > 32)
    return 0;
  b = (size_t)bits;
  whole = count / 8; /* 8 indices take exactly `bits` bytes */
  if (whole > ((size_t)-1 - 4) / b)
    return 0;
  return whole * b + ((count % 8) * b + 7) / 8;
}

TFLC_API void tflc_writer_pack_indices(const uint32_t *indices, size_t count,
                                       int bits, uint8_t *out) {
  uint64_t acc = 0, mask;
  unsigned nacc = 0, nb;
  size_t i, o = 0;
  if (bits < 1 || bits > 32 || (count && (!indices || !out)))
    return;
  nb = (unsigned)bits;
  mask = (((uint64_t)1) << nb) - 1;
  for (i = 0; i < count; i++) {
    acc = (acc << nb) | ((uint64_t)indices[i] & mask);
    nacc += nb;
    while (nacc >= 8) {
      nacc -= 8;
      out[o++] = (uint8_t)((acc >> nacc) & 0xffu);
    }
    acc &= (((uint64_t)1) << nacc) - 1;
  }
  if (nacc)
    out[o] = (uint8_t)((acc << (8 - nacc)) & 0xffu);
}

/* Element size of the types LUT compression supports, 0 otherwise. */
static size_t tflc__w_lut_esize(int type) {
  switch (type) {
  case TFLC_INT8:
  case TFLC_UINT8:
  case TFLC_BOOL:
    return 1;
  case TFLC_INT16:
    return 2;
  case TFLC_FLOAT32:
  case TFLC_INT32:
    return 4;
  case TFLC_INT64:
    return 8;
  default:
    return 0;
  }
}

static uint64_t tflc__w_key(int type, const uint8_t *p, size_t esize) {
  uint64_t u = 0, sign;
  size_t k;
  for (k = 0; k < esize; k++)
    u |= ((uint64_t)p[k]) << (8 * k);
  if (type == TFLC_UINT8 || type == TFLC_BOOL)
    return u;
  if (type == TFLC_FLOAT32)
    return (u & 0x80000000u) ? (~u & 0xffffffffu) : (u | 0x80000000u);
  /* signed: sign-extend to 64 bits, then flip the sign bit */
  sign = ((uint64_t)1) << (8 * esize - 1);
  if (esize < 8 && (u & sign))
    u |= ~((sign << 1) - 1);
  return u ^ (((uint64_t)1) << 63);
}

static void tflc__w_unkey(int type, uint64_t key, uint8_t *p, size_t esize) {
  uint64_t u;
  size_t k;
  if (type == TFLC_UINT8 || type == TFLC_BOOL)
    u = key;
  else if (type == TFLC_FLOAT32)
    u = (key & 0x80000000u) ? (key & 0x7fffffffu) : (~key & 0xffffffffu);
  else
    u = key ^ (((uint64_t)1) << 63);
  for (k = 0; k < esize; k++)
    p[k] = (uint8_t)((u >> (8 * k)) & 0xffu);
}

static int tflc__w_cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

TFLC_API tflc_status tflc_writer_compress(tflc_writer *w, int32_t sg,
                                          int32_t tensor, int bits, int format,
                                          int pad_pow2) {
  tflc__w_sg *s = tflc__w_get_sg(w, sg);
  tflc__w_tensor *t;
  const uint8_t *data;
  size_t esize, count = 1, channels = 1, epc, c, i, j, stride = 0, max_u;
  size_t *ucount = NULL;
  uint64_t *keys = NULL, *sorted = NULL;
  uint32_t *idx = NULL;
  uint8_t *packed = NULL, *vals = NULL;
  size_t packed_size, vals_size;
  int alt = 0;
  int32_t d;
  tflc_status st = TFLC_OK;
  if (!w || bits < 1 || bits > 8 ||
      (format != TFLC_W_METADATA && format != TFLC_W_DECODE))
    return TFLC_ERR_ARG;
  if (!s || tensor < 0 || (size_t)tensor >= s->nt)
    return TFLC_ERR_INDEX;
  t = &s->t[tensor];
  if (t->cformat)
    return TFLC_ERR_STATE;
  esize = tflc__w_lut_esize(t->type);
  if (!esize)
    return TFLC_ERR_TYPE;
  if (t->buffer == 0 || w->buf[t->buffer].size == 0)
    return TFLC_ERR_BUFFER;
  data = w->buf[t->buffer].data;
  for (d = 0; d < t->rank; d++) {
    if (t->dims[d] < 0)
      return TFLC_ERR_SHAPE;
    if (t->dims[d] == 0)
      return TFLC_ERR_BUFFER; /* no elements, yet data */
    if (count > TFLC__W_MAX_COUNT / (size_t)t->dims[d])
      return TFLC_ERR_SHAPE;
    count *= (size_t)t->dims[d];
  }
  if (count > ((size_t)-1) / esize || count * esize != w->buf[t->buffer].size)
    return TFLC_ERR_BUFFER;
  if (t->has_q && t->qcount > 1) {
    if (t->rank < 1)
      return TFLC_ERR_QUANT;
    if (t->qaxis == 0)
      alt = 0;
    else if (t->qaxis == t->rank - 1)
      alt = 1;
    else
      return TFLC_ERR_QUANT;
    if (t->dims[t->qaxis] != t->qcount)
      return TFLC_ERR_QUANT;
    channels = (size_t)t->qcount;
  }
  epc = count / channels;
  max_u = ((size_t)1) << bits;
  keys = (uint64_t *)tflc__w_alloc(count, sizeof(uint64_t));
  sorted = (uint64_t *)tflc__w_alloc(count, sizeof(uint64_t));
  idx = (uint32_t *)tflc__w_alloc(count, sizeof(uint32_t));
  ucount = (size_t *)tflc__w_alloc(channels, sizeof(size_t));
  if (!keys || !sorted || !idx || !ucount) {
    st = TFLC_ERR_ARENA;
    goto done;
  }
  /* keys[i] in element order; sorted: channel-major copy */
  for (i = 0; i < count; i++) {
    keys[i] = tflc__w_key(t->type, data + i * esize, esize);
    if (alt)
      sorted[(i % channels) * epc + i / channels] = keys[i];
    else
      sorted[i] = keys[i];
  }
  for (c = 0; c < channels; c++) {
    uint64_t *seg = sorted + c * epc;
    size_t u = 0;
    qsort(seg, epc, sizeof(uint64_t), tflc__w_cmp_u64);
    for (j = 0; j < epc; j++)
      if (u == 0 || seg[u - 1] != seg[j])
        seg[u++] = seg[j];
    if (u > max_u) {
      st = TFLC_ERR_COMPRESSION;
      goto done;
    }
    ucount[c] = u;
    if (u > stride)
      stride = u;
  }
  if (pad_pow2)
    stride = max_u;
  if (format == TFLC_W_DECODE && stride > 255) {
    st = TFLC_ERR_COMPRESSION; /* DCM byte 6 holds the stride */
    goto done;
  }
  /* channels * stride <= count * 256 and count <= 2^31: no overflow in
   * 64-bit size_t; check for 32-bit hosts */
  if (channels > ((size_t)-1) / stride / esize) {
    st = TFLC_ERR_ARENA;
    goto done;
  }
  vals_size = channels * stride * esize;
  packed_size = tflc_writer_packed_size(count, bits);
  vals = (uint8_t *)calloc(vals_size, 1);
  packed = (uint8_t *)calloc(packed_size ? packed_size : 1, 1);
  if (!vals || !packed || packed_size == 0) {
    st = TFLC_ERR_ARENA;
    goto done;
  }
  for (c = 0; c < channels; c++)
    for (j = 0; j < ucount[c]; j++)
      tflc__w_unkey(t->type, sorted[c * epc + j],
                    vals + (c * stride + j) * esize, esize);
  for (i = 0; i < count; i++) {
    size_t ch = alt ? i % channels : i / epc, lo = 0, hi = ucount[ch];
    const uint64_t *seg = sorted + ch * epc;
    while (hi - lo > 1) { /* seg[lo] <= key < seg[hi] */
      size_t mid = lo + (hi - lo) / 2;
      if (seg[mid] <= keys[i])
        lo = mid;
      else
        hi = mid;
    }
    idx[i] = (uint32_t)lo;
  }
  tflc_writer_pack_indices(idx, count, bits, packed);
  t->cformat = format;
  t->cbits = bits;
  t->cstride = (uint32_t)stride;
  t->cidx = packed;
  t->cidx_size = packed_size;
  t->cvals = vals;
  t->cvals_size = vals_size;
  packed = NULL;
  vals = NULL;
done:
  free(keys);
  free(sorted);
  free(idx);
  free(ucount);
  free(packed);
  free(vals);
  return st;
}

/* ---- lowering: the model as it will be written ---------------------------
 * A view with shallow copies of the writer's tensors and operators, in
 * which compression has been applied: buffers swapped or appended, DECODE
 * operators and their tensors inserted. Memory made for the view is kept
 * in `tmp` and freed with it. */

typedef struct tflc__w_bview {
  const uint8_t *data;
  size_t size;
} tflc__w_bview;

typedef struct tflc__w_lsg {
  tflc__w_tensor *t;
  size_t nt, ct;
  tflc__w_op *op;
  size_t nop, cop;
  int32_t *out;
} tflc__w_lsg;

typedef struct tflc__w_lut {
  size_t sg;
  int32_t tensor;
  uint32_t value_buffer;
  int bits;
} tflc__w_lut;

typedef struct tflc__w_lmeta {
  const char *name;
  uint32_t buffer;
} tflc__w_lmeta;

typedef struct tflc__w_low {
  tflc__w_lsg *sg;
  size_t nsg;
  tflc__w_bview *buf;
  size_t nbuf, cbuf;
  tflc__w_lmeta *meta;
  size_t nmeta;
  tflc__w_lut *lut;
  size_t nlut, clut;
  void **tmp;
  size_t ntmp, ctmp;
} tflc__w_low;

static void *tflc__w_tmp(tflc__w_low *L, size_t n, size_t esize) {
  void *np = tflc__w_grow(L->tmp, &L->ctmp, L->ntmp + 1, sizeof(void *)), *p;
  if (!np)
    return NULL;
  L->tmp = (void **)np;
  p = tflc__w_alloc(n, esize);
  if (p)
    L->tmp[L->ntmp++] = p;
  return p;
}

static void tflc__w_low_free(tflc__w_low *L) {
  size_t i;
  for (i = 0; i < L->nsg; i++) {
    free(L->sg[i].t);
    free(L->sg[i].op);
  }
  free(L->sg);
  free(L->buf);
  free(L->meta);
  free(L->lut);
  for (i = 0; i < L->ntmp; i++)
    free(L->tmp[i]);
  free(L->tmp);
}

/* Appends a buffer to the view; returns its index or 0 on failure. */
static uint32_t tflc__w_low_buffer(tflc__w_low *L, const uint8_t *data,
                                   size_t size) {
  void *np;
  if (L->nbuf >= TFLC__W_MAX_COUNT)
    return 0;
  np = tflc__w_grow(L->buf, &L->cbuf, L->nbuf + 1, sizeof *L->buf);
  if (!np)
    return 0;
  L->buf = (tflc__w_bview *)np;
  L->buf[L->nbuf].data = data;
  L->buf[L->nbuf].size = size;
  return (uint32_t)L->nbuf++;
}

/* Appends a tensor to a view subgraph; returns its index or -1. */
static int32_t tflc__w_low_tensor(tflc__w_lsg *s, const tflc__w_tensor *t) {
  void *np;
  if (s->nt >= TFLC__W_MAX_COUNT)
    return -1;
  np = tflc__w_grow(s->t, &s->ct, s->nt + 1, sizeof *s->t);
  if (!np)
    return -1;
  s->t = (tflc__w_tensor *)np;
  s->t[s->nt] = *t;
  return (int32_t)s->nt++;
}

static int tflc__w_low_op(tflc__w_lsg *s, const tflc__w_op *o) {
  void *np = tflc__w_grow(s->op, &s->cop, s->nop + 1, sizeof *s->op);
  if (!np)
    return 0;
  s->op = (tflc__w_op *)np;
  s->op[s->nop++] = *o;
  return 1;
}

/* "<name><suffix>" in view memory. */
static char *tflc__w_low_name(tflc__w_low *L, const char *name,
                              const char *suffix) {
  size_t a = name ? strlen(name) : 0, b = strlen(suffix);
  char *p = (char *)tflc__w_tmp(L, a + b + 1, 1);
  if (!p)
    return NULL;
  if (a)
    memcpy(p, name, a);
  memcpy(p + a, suffix, b + 1);
  return p;
}

/* Inserts one TFLM_DECODE operator decoding the distinct compressed tensors
 * among list[0..n) (enc[t] >= 0) into fresh "<name>_decoded" tensors
 * (copies of orig[t] without data), and rewires `list` (a view copy) to
 * them. Returns 0 on out of memory. */
static int tflc__w_low_decode(tflc__w_low *L, tflc__w_lsg *s,
                              uint32_t decode_opcode, const int32_t *enc,
                              const int32_t *anc, const tflc__w_tensor *orig,
                              size_t orig_nt, int32_t *list, int32_t n) {
  int32_t i, j, k = 0;
  int32_t *din, *dout;
  tflc__w_op d;
  for (i = 0; i < n; i++) {
    int32_t ti = list[i];
    if (ti < 0 || (size_t)ti >= orig_nt || enc[ti] < 0)
      continue;
    for (j = 0; j < i; j++)
      if (list[j] == ti)
        break;
    if (j == i)
      k++;
  }
  if (k == 0)
    return 1;
  din = (int32_t *)tflc__w_tmp(L, (size_t)k, 2 * sizeof(int32_t));
  dout = (int32_t *)tflc__w_tmp(L, (size_t)k, sizeof(int32_t));
  if (!din || !dout)
    return 0;
  k = 0;
  for (i = 0; i < n; i++) {
    int32_t ti = list[i], dec;
    tflc__w_tensor nt;
    if (ti < 0 || (size_t)ti >= orig_nt || enc[ti] < 0)
      continue;
    for (j = 0; j < k; j++) /* already decoded by this operator? */
      if (din[2 * j] == enc[ti])
        break;
    if (j < k) {
      list[i] = dout[j];
      continue;
    }
    nt = orig[ti];
    nt.buffer = 0;
    nt.is_variable = 0;
    nt.cformat = 0;
    nt.name = tflc__w_low_name(L, orig[ti].name, "_decoded");
    if (!nt.name)
      return 0;
    dec = tflc__w_low_tensor(s, &nt);
    if (dec < 0)
      return 0;
    din[2 * k] = enc[ti];
    din[2 * k + 1] = anc[ti];
    dout[k] = dec;
    k++;
    list[i] = dec;
  }
  memset(&d, 0, sizeof d);
  d.opcode = decode_opcode;
  d.nin = 2 * k;
  d.in = din;
  d.nout = k;
  d.out = dout;
  return tflc__w_low_op(s, &d);
}

/* DECODE format for view subgraph `si`. */
static tflc_status tflc__w_low_decode_sg(tflc_writer *w, tflc__w_low *L,
                                         size_t si) {
  tflc__w_sg *ws = &w->sg[si];
  tflc__w_lsg *s = &L->sg[si];
  size_t orig_nt = ws->nt, ti, oi;
  int32_t *enc = NULL, *anct = NULL, i, j, dopc = -1;
  int compact = (w->flags & TFLC_W_FLAG_COMPACT) != 0;
  for (ti = 0; ti < orig_nt; ti++) {
    const tflc__w_tensor *t = &ws->t[ti];
    int used = 0;
    tflc__w_tensor et;
    int32_t *dims;
    uint8_t *anc;
    size_t asize;
    if (t->cformat != TFLC_W_DECODE)
      continue;
    for (oi = 0; oi < ws->nop && !used; oi++)
      for (i = 0; i < ws->op[oi].nin; i++)
        if (ws->op[oi].in[i] == (int32_t)ti)
          used = 1;
    for (i = 0; i < ws->nout; i++)
      if (ws->out[i] == (int32_t)ti)
        used = 1;
    if (!used) /* as TFLM's compressor: no consumer, left uncompressed */
      continue;
    if (!enc) {
      enc = (int32_t *)tflc__w_tmp(L, orig_nt, sizeof(int32_t));
      anct = (int32_t *)tflc__w_tmp(L, orig_nt, sizeof(int32_t));
      if (!enc || !anct)
        return TFLC_ERR_ARENA;
      for (oi = 0; oi < orig_nt; oi++)
        enc[oi] = anct[oi] = -1;
      dopc = tflc__w_opcode(w, 32, "TFLM_DECODE");
      if (dopc < 0)
        return TFLC_ERR_ARENA;
    }
    if (t->cvals_size > TFLC__W_MAX_COUNT - 16 ||
        t->cidx_size > TFLC__W_MAX_COUNT)
      return TFLC_ERR_UNSUPPORTED; /* shape [n] must fit int32 */
    asize = 16 + t->cvals_size;
    anc = (uint8_t *)tflc__w_tmp(L, asize, 1);
    dims = (int32_t *)tflc__w_tmp(L, 2, sizeof(int32_t));
    if (!anc || !dims)
      return TFLC_ERR_ARENA;
    /* DCM: type 0 = LUT, DCM version 1; LUT version 1, bit width, stride */
    memset(anc, 0, 16);
    anc[1] = 1;
    anc[4] = 1;
    anc[5] = (uint8_t)t->cbits;
    anc[6] = (uint8_t)t->cstride;
    memcpy(anc + 16, t->cvals, t->cvals_size);
    dims[0] = (int32_t)t->cidx_size;
    dims[1] = (int32_t)asize;
    memset(&et, 0, sizeof et);
    et.type = TFLC_UINT8;
    et.rank = 1;
    et.dims = dims;
    et.buffer = tflc__w_low_buffer(L, t->cidx, t->cidx_size);
    if (et.buffer == 0)
      return TFLC_ERR_ARENA;
    if (compact) { /* the original becomes the encoded tensor */
      et.name = t->name;
      s->t[ti] = et;
      enc[ti] = (int32_t)ti;
      for (oi = 0; oi < ti; oi++) { /* identical ancillary data: shared */
        const tflc__w_tensor *at;
        const tflc__w_bview *ab;
        if (anct[oi] < 0)
          continue;
        at = &s->t[anct[oi]];
        ab = &L->buf[at->buffer];
        if (ab->size == asize && memcmp(ab->data, anc, asize) == 0) {
          anct[ti] = anct[oi];
          break;
        }
      }
    } else {
      et.name = tflc__w_low_name(L, t->name, "_encoded");
      if (!et.name)
        return TFLC_ERR_ARENA;
      enc[ti] = tflc__w_low_tensor(s, &et);
      if (enc[ti] < 0)
        return TFLC_ERR_ARENA;
      s->t[ti].buffer = 0;
    }
    if (anct[ti] < 0) {
      et.dims = dims + 1;
      et.buffer = tflc__w_low_buffer(L, anc, asize);
      et.name = tflc__w_low_name(L, t->name, "_ancillary");
      if (et.buffer == 0 || !et.name)
        return TFLC_ERR_ARENA;
      anct[ti] = tflc__w_low_tensor(s, &et);
      if (anct[ti] < 0)
        return TFLC_ERR_ARENA;
    }
    /* the original loses its data; the buffer index stays, empty */
    L->buf[t->buffer].data = NULL;
    L->buf[t->buffer].size = 0;
  }
  if (!enc)
    return TFLC_OK;
  /* rebuild the operator list with DECODE operators before consumers */
  free(s->op);
  s->op = NULL;
  s->nop = s->cop = 0;
  for (oi = 0; oi < ws->nop; oi++) {
    tflc__w_op o = ws->op[oi];
    int need = 0;
    for (i = 0; i < o.nin; i++)
      if (o.in[i] >= 0 && (size_t)o.in[i] < orig_nt && enc[o.in[i]] >= 0)
        need = 1;
    if (need) {
      int32_t *in = (int32_t *)tflc__w_tmp(L, (size_t)o.nin, sizeof(int32_t));
      if (!in)
        return TFLC_ERR_ARENA;
      for (j = 0; j < o.nin; j++)
        in[j] = o.in[j];
      o.in = in;
      if (!tflc__w_low_decode(L, s, (uint32_t)dopc, enc, anct, ws->t, orig_nt,
                              in, o.nin))
        return TFLC_ERR_ARENA;
    }
    if (!tflc__w_low_op(s, &o))
      return TFLC_ERR_ARENA;
  }
  if (!tflc__w_low_decode(L, s, (uint32_t)dopc, enc, anct, ws->t, orig_nt,
                          s->out, ws->nout))
    return TFLC_ERR_ARENA;
  return TFLC_OK;
}

/* Builds the view. Buffers: the writer's, then per subgraph and tensor the
 * value table (METADATA) or encoded + ancillary data (DECODE), then the
 * COMPRESSION_METADATA flatbuffer (added by the caller). */
static tflc_status tflc__w_lower(tflc_writer *w, tflc__w_low *L) {
  size_t si, ti;
  tflc_status st;
  memset(L, 0, sizeof *L);
  L->sg = (tflc__w_lsg *)calloc(w->nsg, sizeof(tflc__w_lsg));
  if (!L->sg)
    return TFLC_ERR_ARENA;
  L->nsg = w->nsg;
  L->buf = (tflc__w_bview *)tflc__w_alloc(w->nbuf, sizeof(tflc__w_bview));
  L->meta = (tflc__w_lmeta *)tflc__w_alloc(w->nmeta + 1, sizeof(tflc__w_lmeta));
  if (!L->buf || !L->meta)
    return TFLC_ERR_ARENA;
  L->cbuf = L->nbuf = w->nbuf;
  for (ti = 0; ti < w->nbuf; ti++) {
    L->buf[ti].data = w->buf[ti].data;
    L->buf[ti].size = w->buf[ti].size;
  }
  L->nmeta = w->nmeta;
  for (ti = 0; ti < w->nmeta; ti++) {
    L->meta[ti].name = w->meta[ti].name;
    L->meta[ti].buffer = w->meta[ti].buffer;
  }
  for (si = 0; si < w->nsg; si++) {
    tflc__w_sg *ws = &w->sg[si];
    tflc__w_lsg *s = &L->sg[si];
    s->t = (tflc__w_tensor *)tflc__w_alloc(ws->nt, sizeof(tflc__w_tensor));
    s->op = (tflc__w_op *)tflc__w_alloc(ws->nop, sizeof(tflc__w_op));
    s->out = (int32_t *)tflc__w_tmp(L, (size_t)ws->nout, sizeof(int32_t));
    if (!s->t || !s->op || !s->out)
      return TFLC_ERR_ARENA;
    s->nt = s->ct = ws->nt;
    s->nop = s->cop = ws->nop;
    if (ws->nt)
      memcpy(s->t, ws->t, ws->nt * sizeof(tflc__w_tensor));
    if (ws->nop)
      memcpy(s->op, ws->op, ws->nop * sizeof(tflc__w_op));
    if (ws->nout)
      memcpy(s->out, ws->out, (size_t)ws->nout * sizeof(int32_t));
    for (ti = 0; ti < ws->nt; ti++) {
      const tflc__w_tensor *t = &ws->t[ti];
      void *np;
      if (t->cformat != TFLC_W_METADATA)
        continue;
      L->buf[t->buffer].data = t->cidx;
      L->buf[t->buffer].size = t->cidx_size;
      np = tflc__w_grow(L->lut, &L->clut, L->nlut + 1, sizeof *L->lut);
      if (!np)
        return TFLC_ERR_ARENA;
      L->lut = (tflc__w_lut *)np;
      L->lut[L->nlut].sg = si;
      L->lut[L->nlut].tensor = (int32_t)ti;
      L->lut[L->nlut].bits = t->cbits;
      L->lut[L->nlut].value_buffer =
          tflc__w_low_buffer(L, t->cvals, t->cvals_size);
      if (L->lut[L->nlut++].value_buffer == 0)
        return TFLC_ERR_ARENA;
    }
    st = tflc__w_low_decode_sg(w, L, si);
    if (st != TFLC_OK)
      return st;
  }
  return TFLC_OK;
}

/* ---- flatbuffer builder -------------------------------------------------
 * Front to back into one growing byte array; positions are absolute. A
 * parent is written before its children with zero placeholders in its
 * offset fields, patched once the child's position is known, so every
 * uoffset is positive (forward). Each vtable sits right before its table
 * (soffset = table - vtable > 0); in compact mode a table whose vtable
 * equals one written before points back to that one instead. Integers are
 * stored little-endian byte by byte, independent of the host. */

typedef struct tflc__w_b {
  uint8_t *p;
  size_t len, cap, limit;
  int err;     /* 1: out of memory, 2: over the size limit */
  int compact; /* share vtables, omit default scalars */
  size_t *vts; /* compact: positions of the distinct vtables */
  size_t nvts, cvts;
} tflc__w_b;

typedef struct tflc__w_field {
  uint16_t slot;
  uint8_t size;   /* 1, 2, 4 or 8 */
  uint8_t is_off; /* uoffset placeholder, patched later */
  uint64_t val;   /* scalar value (little-endian bits) */
  size_t pos;     /* out: absolute position of the field */
} tflc__w_field;

/* Appends n zero bytes; returns their position (0 after an error). */
static size_t tflc__w_b_alloc(tflc__w_b *b, size_t n) {
  size_t pos = b->len;
  void *np;
  if (b->err)
    return 0;
  if (n > b->limit - b->len) {
    b->err = 2;
    return 0;
  }
  if (b->len + n > b->cap) {
    size_t ncap = b->cap ? b->cap : 1024;
    while (ncap < b->len + n)
      ncap = ncap > ((size_t)-1) / 2 ? b->len + n : ncap * 2;
    np = realloc(b->p, ncap);
    if (!np) {
      b->err = 1;
      return 0;
    }
    b->p = (uint8_t *)np;
    b->cap = ncap;
  }
  memset(b->p + pos, 0, n);
  b->len += n;
  return pos;
}

/* Pads with zeros until len % align == phase (align a power of two). */
static void tflc__w_b_pad(tflc__w_b *b, size_t align, size_t phase) {
  size_t n = (phase - (b->len & (align - 1))) & (align - 1);
  if (n)
    tflc__w_b_alloc(b, n);
}

static void tflc__w_b_put(tflc__w_b *b, size_t pos, uint64_t v, size_t n) {
  size_t k;
  if (b->err || pos > b->len || n > b->len - pos)
    return;
  for (k = 0; k < n; k++)
    b->p[pos + k] = (uint8_t)((v >> (8 * k)) & 0xffu);
}

/* Stores at `at` the uoffset to `target`. */
static void tflc__w_b_patch(tflc__w_b *b, size_t at, size_t target) {
  if (b->err)
    return;
  if (target <= at || target - at > TFLC__W_MAX_FB) {
    b->err = 2;
    return;
  }
  tflc__w_b_put(b, at, (uint64_t)(target - at), 4);
}

/* Writes vtable + table; returns the table position. Fields are laid out
 * by decreasing size (8, 4, 2, 1) after the soffset, with the table start
 * chosen so that each lands on a multiple of its size. */
static size_t tflc__w_b_table(tflc__w_b *b, tflc__w_field *f, size_t n) {
  size_t nslots = 0, tsize = 4, vsize, vt = 0, tb, off, i, k;
  unsigned sz;
  int has8 = 0, found = 0;
  uint8_t vtb[4 + 2 * 512];
  for (i = 0; i < n; i++) {
    if ((size_t)f[i].slot + 1 > nslots)
      nslots = (size_t)f[i].slot + 1;
    if (f[i].size == 8)
      has8 = 1;
    tsize += f[i].size;
  }
  vsize = 4 + 2 * nslots;
  if (nslots > 512 || tsize > 0xffff) {
    b->err = 2;
    return 0;
  }
  memset(vtb, 0, vsize);
  vtb[0] = (uint8_t)(vsize & 0xffu);
  vtb[1] = (uint8_t)(vsize >> 8);
  vtb[2] = (uint8_t)(tsize & 0xffu);
  vtb[3] = (uint8_t)(tsize >> 8);
  off = 4;
  for (sz = 8; sz >= 1; sz /= 2)
    for (i = 0; i < n; i++) {
      if (f[i].size != sz)
        continue;
      f[i].pos = off; /* relative until the table is placed */
      vtb[4 + 2 * (size_t)f[i].slot] = (uint8_t)(off & 0xffu);
      vtb[5 + 2 * (size_t)f[i].slot] = (uint8_t)(off >> 8);
      off += sz;
    }
  if (b->compact && !b->err)
    for (k = 0; k < b->nvts && !found; k++)
      if (((size_t)b->p[b->vts[k]] | ((size_t)b->p[b->vts[k] + 1] << 8)) ==
              vsize &&
          memcmp(b->p + b->vts[k], vtb, vsize) == 0) {
        vt = b->vts[k];
        found = 1;
      }
  if (!found) {
    tflc__w_b_pad(b, 2, 0);
    vt = tflc__w_b_alloc(b, vsize);
    if (b->err)
      return 0;
    memcpy(b->p + vt, vtb, vsize);
    if (b->compact) {
      void *np = tflc__w_grow(b->vts, &b->cvts, b->nvts + 1, sizeof(size_t));
      if (!np) {
        b->err = 1;
        return 0;
      }
      b->vts = (size_t *)np;
      b->vts[b->nvts++] = vt;
    }
  }
  if (has8)
    tflc__w_b_pad(b, 8, 4);
  else
    tflc__w_b_pad(b, 4, 0);
  tb = tflc__w_b_alloc(b, tsize);
  if (b->err)
    return 0;
  tflc__w_b_put(b, tb, (uint64_t)(tb - vt), 4);
  for (i = 0; i < n; i++) {
    f[i].pos += tb;
    tflc__w_b_put(b, f[i].pos, f[i].is_off ? 0 : f[i].val, f[i].size);
  }
  return tb;
}

static void tflc__w_f(tflc__w_field *f, size_t *n, unsigned slot, unsigned size,
                      uint64_t val) {
  f[*n].slot = (uint16_t)slot;
  f[*n].size = (uint8_t)size;
  f[*n].is_off = 0;
  f[*n].val = val;
  f[*n].pos = 0;
  (*n)++;
}

/* A scalar field, left out in compact mode when it equals its default. */
static void tflc__w_fd(const tflc__w_b *b, tflc__w_field *f, size_t *n,
                       unsigned slot, unsigned size, uint64_t val,
                       uint64_t def) {
  if (!b->compact || val != def)
    tflc__w_f(f, n, slot, size, val);
}

/* Adds an offset field; returns its index in f. */
static size_t tflc__w_foff(tflc__w_field *f, size_t *n, unsigned slot) {
  tflc__w_f(f, n, slot, 4, 0);
  f[*n - 1].is_off = 1;
  return *n - 1;
}

/* Vector header for n elements of esize bytes, elements aligned to align
 * (4, 8 or 16); returns the position of the length field. */
static size_t tflc__w_b_vec(tflc__w_b *b, size_t n, size_t esize,
                            size_t align) {
  size_t pos;
  if (n > 0xffffffffu || (esize && n > (b->limit - 4) / esize)) {
    b->err = 2;
    return 0;
  }
  tflc__w_b_pad(b, align, align - 4);
  pos = tflc__w_b_alloc(b, 4 + n * esize);
  tflc__w_b_put(b, pos, n, 4);
  return pos;
}

static size_t tflc__w_b_i32s(tflc__w_b *b, const int32_t *v, size_t n) {
  size_t pos = tflc__w_b_vec(b, n, 4, 4), i;
  for (i = 0; i < n; i++)
    tflc__w_b_put(b, pos + 4 + 4 * i, (uint32_t)v[i], 4);
  return pos;
}

static uint32_t tflc__w_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static size_t tflc__w_b_str(tflc__w_b *b, const char *s) {
  size_t n = strlen(s), pos = tflc__w_b_vec(b, n + 1, 1, 4);
  tflc__w_b_put(b, pos, n, 4); /* length excludes the NUL */
  if (!b->err)
    memcpy(b->p + pos + 4, s, n);
  return pos;
}

static size_t tflc__w_b_bytes(tflc__w_b *b, const uint8_t *d, size_t n,
                              size_t align) {
  size_t pos = tflc__w_b_vec(b, n, 1, align);
  if (!b->err && n)
    memcpy(b->p + pos + 4, d, n);
  return pos;
}

static size_t tflc__w_b_f32s(tflc__w_b *b, const float *v, size_t n) {
  size_t pos = tflc__w_b_vec(b, n, 4, 4), i;
  for (i = 0; i < n; i++)
    tflc__w_b_put(b, pos + 4 + 4 * i, tflc__w_f32_bits(v[i]), 4);
  return pos;
}

/* A vector of n uoffsets (to tables written next); returns the position of
 * the first element. */
static size_t tflc__w_b_offvec(tflc__w_b *b, size_t n) {
  return tflc__w_b_vec(b, n, 4, 4) + 4;
}

/* ---- TFLite tables ------------------------------------------------------ */

/* A table of option fields (builtin options, quantization details);
 * returns its position. */
static tflc_status tflc__w_ser_opts(tflc__w_b *b, const tflc__w_opt *opts,
                                    int32_t nopts, size_t *table) {
  tflc__w_field *of;
  size_t i, no = 0;
  *table = 0;
  of = (tflc__w_field *)tflc__w_alloc((size_t)nopts, sizeof *of);
  if (!of)
    return TFLC_ERR_ARENA;
  for (i = 0; i < (size_t)nopts; i++) {
    const tflc__w_opt *p = &opts[i];
    switch (p->kind) {
    case TFLC_W_U8:
      tflc__w_f(of, &no, p->slot, 1, (uint8_t)(p->i & 0xff));
      break;
    case TFLC_W_I32:
      tflc__w_f(of, &no, p->slot, 4, (uint32_t)p->i);
      break;
    case TFLC_W_F32:
      tflc__w_f(of, &no, p->slot, 4, tflc__w_f32_bits(p->f));
      break;
    case TFLC_W_RAW:
      tflc__w_f(of, &no, p->slot, p->size, p->u);
      break;
    default: /* vector or string */
      tflc__w_foff(of, &no, p->slot);
      break;
    }
  }
  *table = tflc__w_b_table(b, of, no);
  for (i = 0; i < (size_t)nopts; i++) {
    const tflc__w_opt *p = &opts[i];
    if (p->kind == TFLC_W_I32_VEC) {
      tflc__w_b_patch(b, of[i].pos,
                      tflc__w_b_i32s(b, p->vec, (size_t)p->vec_len));
    } else if (p->kind == TFLC_W_STR) {
      tflc__w_b_patch(b, of[i].pos, tflc__w_b_str(b, p->str));
    } else if (p->kind == TFLC_W_RAW_VEC) {
      size_t al = p->align ? p->align : (p->size > 4 ? p->size : 4u);
      size_t pos = tflc__w_b_vec(b, (size_t)p->count, p->size, al);
      if (!b->err && p->count)
        memcpy(b->p + pos + 4, p->bytes, (size_t)p->count * p->size);
      tflc__w_b_patch(b, of[i].pos, pos);
    }
  }
  free(of);
  return TFLC_OK;
}

static void tflc__w_ser_opcode(tflc__w_b *b, const tflc__w_ocode *oc,
                               unsigned flags, size_t at) {
  tflc__w_field f[4];
  size_t n = 0, tb, fc = 0;
  if (oc->raw) {
    tflc__w_fd(b, f, &n, 0, 1, (uint8_t)(int8_t)oc->dep, 0);
    tflc__w_fd(b, f, &n, 2, 4, (uint32_t)oc->version, 1);
    if (oc->has_code || (b->compact && oc->code != 0))
      tflc__w_fd(b, f, &n, 3, 4, (uint32_t)oc->code, 0);
  } else {
    int32_t dep = oc->code < 127 ? oc->code : 127;
    tflc__w_fd(b, f, &n, 0, 1, (uint8_t)dep, 0);
    tflc__w_fd(b, f, &n, 2, 4, 1, 1);
    if (!(flags & TFLC_W_FLAG_ONLY_DEPRECATED_CODE))
      tflc__w_fd(b, f, &n, 3, 4, (uint32_t)oc->code, 0);
  }
  if (oc->custom)
    fc = tflc__w_foff(f, &n, 1);
  tb = tflc__w_b_table(b, f, n);
  tflc__w_b_patch(b, at, tb);
  if (oc->custom)
    tflc__w_b_patch(b, f[fc].pos, tflc__w_b_str(b, oc->custom));
}

static tflc_status tflc__w_ser_tensor(tflc__w_b *b, const tflc__w_tensor *t,
                                      size_t at) {
  tflc__w_field f[10], q[8];
  size_t n = 0, fshape = 0, fname = 0, fq = 0, fsig = 0, tb, i, pos;
  if (!t->no_shape)
    fshape = tflc__w_foff(f, &n, 0);
  tflc__w_fd(b, f, &n, 1, 1, (uint8_t)(int8_t)t->type, 0);
  tflc__w_fd(b, f, &n, 2, 4, t->buffer, 0);
  if (t->name)
    fname = tflc__w_foff(f, &n, 3);
  if (t->has_q)
    fq = tflc__w_foff(f, &n, 4);
  if (t->is_variable)
    tflc__w_f(f, &n, 5, 1, 1);
  if (t->has_sig)
    fsig = tflc__w_foff(f, &n, 7);
  if (t->has_rank)
    tflc__w_fd(b, f, &n, 8, 1, (uint64_t)(t->has_rank == 2), 0);
  tb = tflc__w_b_table(b, f, n);
  tflc__w_b_patch(b, at, tb);
  if (!t->no_shape)
    tflc__w_b_patch(b, f[fshape].pos,
                    tflc__w_b_i32s(b, t->dims, (size_t)t->rank));
  if (t->name)
    tflc__w_b_patch(b, f[fname].pos, tflc__w_b_str(b, t->name));
  if (t->has_q) {
    size_t nq = 0, fs = 0, fz = 0, fmin = 0, fmax = 0, fd = 0;
    size_t nz = (size_t)(t->nzp_set ? t->nzp : t->qcount);
    if (t->nqmin > 0)
      fmin = tflc__w_foff(q, &nq, 0);
    if (t->nqmax > 0)
      fmax = tflc__w_foff(q, &nq, 1);
    if (t->qcount > 0)
      fs = tflc__w_foff(q, &nq, 2);
    if (nz > 0)
      fz = tflc__w_foff(q, &nq, 3);
    if (t->qdtype) {
      tflc__w_f(q, &nq, 4, 1, t->qdtype);
      fd = tflc__w_foff(q, &nq, 5);
    }
    tflc__w_fd(b, q, &nq, 6, 4, (uint32_t)t->qaxis, 0);
    tflc__w_b_patch(b, f[fq].pos, tflc__w_b_table(b, q, nq));
    if (t->nqmin > 0)
      tflc__w_b_patch(b, q[fmin].pos,
                      tflc__w_b_f32s(b, t->qmin, (size_t)t->nqmin));
    if (t->nqmax > 0)
      tflc__w_b_patch(b, q[fmax].pos,
                      tflc__w_b_f32s(b, t->qmax, (size_t)t->nqmax));
    if (t->qcount > 0)
      tflc__w_b_patch(b, q[fs].pos,
                      tflc__w_b_f32s(b, t->scale, (size_t)t->qcount));
    if (nz > 0) {
      pos = tflc__w_b_vec(b, nz, 8, 8);
      for (i = 0; i < nz; i++)
        tflc__w_b_put(b, pos + 4 + 8 * i, (uint64_t)t->zp[i], 8);
      tflc__w_b_patch(b, q[fz].pos, pos);
    }
    if (t->qdtype) {
      size_t dt;
      tflc_status st = tflc__w_ser_opts(b, t->qd, t->nqd, &dt);
      if (st != TFLC_OK)
        return st;
      tflc__w_b_patch(b, q[fd].pos, dt);
    }
  }
  if (t->has_sig)
    tflc__w_b_patch(b, f[fsig].pos, tflc__w_b_i32s(b, t->sig, (size_t)t->nsig));
  return TFLC_OK;
}

static tflc_status tflc__w_ser_op(tflc__w_b *b, const tflc__w_op *o,
                                  size_t at) {
  tflc__w_field f[14];
  size_t n = 0, fin, fout, fopt = 0, fopt2 = 0, fco = 0, fmut = 0, fint = 0;
  size_t tb, i, pos, ot;
  tflc_status st;
  tflc__w_fd(b, f, &n, 0, 4, o->opcode, 0);
  fin = tflc__w_foff(f, &n, 1);
  fout = tflc__w_foff(f, &n, 2);
  if (o->otype) {
    tflc__w_f(f, &n, 3, 1, o->otype);
    fopt = tflc__w_foff(f, &n, 4);
  }
  if (o->has_copts)
    fco = tflc__w_foff(f, &n, 5);
  if (o->copts_fmt)
    tflc__w_f(f, &n, 6, 1, (uint8_t)(o->copts_fmt & 0xff));
  if (o->has_mut)
    fmut = tflc__w_foff(f, &n, 7);
  if (o->has_inter)
    fint = tflc__w_foff(f, &n, 8);
  if (o->otype2) {
    tflc__w_f(f, &n, 11, 1, o->otype2);
    fopt2 = tflc__w_foff(f, &n, 12);
  }
  if (o->has_dbg)
    tflc__w_fd(b, f, &n, 13, 4, (uint32_t)o->dbg, (uint32_t)-1);
  tb = tflc__w_b_table(b, f, n);
  tflc__w_b_patch(b, at, tb);
  tflc__w_b_patch(b, f[fin].pos, tflc__w_b_i32s(b, o->in, (size_t)o->nin));
  tflc__w_b_patch(b, f[fout].pos, tflc__w_b_i32s(b, o->out, (size_t)o->nout));
  if (o->otype) {
    st = tflc__w_ser_opts(b, o->opts, o->nopts, &ot);
    if (st != TFLC_OK)
      return st;
    tflc__w_b_patch(b, f[fopt].pos, ot);
  }
  if (o->has_copts)
    tflc__w_b_patch(b, f[fco].pos, tflc__w_b_bytes(b, o->copts, o->ncopts, 4));
  if (o->has_mut)
    tflc__w_b_patch(b, f[fmut].pos,
                    tflc__w_b_bytes(b, o->mut, (size_t)o->nmut, 4));
  if (o->has_inter)
    tflc__w_b_patch(b, f[fint].pos,
                    tflc__w_b_i32s(b, o->inter, (size_t)o->ninter));
  if (o->otype2) {
    st = tflc__w_ser_opts(b, o->opts2, o->nopts2, &ot);
    if (st != TFLC_OK)
      return st;
    tflc__w_b_patch(b, f[fopt2].pos, ot);
  }
  (void)pos;
  (void)i;
  return TFLC_OK;
}

static tflc_status tflc__w_ser_subgraph(tflc__w_b *b, const tflc__w_sg *ws,
                                        const tflc__w_lsg *s, size_t at) {
  tflc__w_field f[6];
  size_t n = 0, ft, fi, fo, fops, fname = 0, tb, v, i;
  tflc_status st;
  ft = tflc__w_foff(f, &n, 0);
  fi = tflc__w_foff(f, &n, 1);
  fo = tflc__w_foff(f, &n, 2);
  fops = tflc__w_foff(f, &n, 3);
  if (ws->name)
    fname = tflc__w_foff(f, &n, 4);
  if (ws->has_dbg)
    tflc__w_fd(b, f, &n, 5, 4, (uint32_t)ws->dbg, (uint32_t)-1);
  tb = tflc__w_b_table(b, f, n);
  tflc__w_b_patch(b, at, tb);
  v = tflc__w_b_offvec(b, s->nt);
  tflc__w_b_patch(b, f[ft].pos, v - 4);
  for (i = 0; i < s->nt && !b->err; i++) {
    st = tflc__w_ser_tensor(b, &s->t[i], v + 4 * i);
    if (st != TFLC_OK)
      return st;
  }
  tflc__w_b_patch(b, f[fi].pos, tflc__w_b_i32s(b, ws->in, (size_t)ws->nin));
  tflc__w_b_patch(b, f[fo].pos, tflc__w_b_i32s(b, s->out, (size_t)ws->nout));
  v = tflc__w_b_offvec(b, s->nop);
  tflc__w_b_patch(b, f[fops].pos, v - 4);
  for (i = 0; i < s->nop && !b->err; i++) {
    st = tflc__w_ser_op(b, &s->op[i], v + 4 * i);
    if (st != TFLC_OK)
      return st;
  }
  if (ws->name)
    tflc__w_b_patch(b, f[fname].pos, tflc__w_b_str(b, ws->name));
  return TFLC_OK;
}

/* A vector of TensorMap tables. */
static size_t tflc__w_ser_tmaps(tflc__w_b *b, const tflc__w_tmap *m,
                                int32_t n) {
  size_t v = tflc__w_b_offvec(b, (size_t)n), i;
  for (i = 0; i < (size_t)n && !b->err; i++) {
    tflc__w_field f[2];
    size_t nf = 0, fn = 0;
    if (m[i].name)
      fn = tflc__w_foff(f, &nf, 0);
    tflc__w_fd(b, f, &nf, 1, 4, m[i].tensor, 0);
    tflc__w_b_patch(b, v + 4 * i, tflc__w_b_table(b, f, nf));
    if (m[i].name)
      tflc__w_b_patch(b, f[fn].pos, tflc__w_b_str(b, m[i].name));
  }
  return v - 4;
}

static void tflc__w_ser_sigdefs(tflc__w_b *b, const tflc_writer *w, size_t at) {
  size_t v = tflc__w_b_offvec(b, (size_t)w->nsig), i;
  tflc__w_b_patch(b, at, v - 4);
  for (i = 0; i < (size_t)w->nsig && !b->err; i++) {
    const tflc__w_sigdef *d = &w->sig[i];
    tflc__w_field f[4];
    size_t nf = 0, fi = 0, fo = 0, fk = 0;
    if (d->has_in)
      fi = tflc__w_foff(f, &nf, 0);
    if (d->has_out)
      fo = tflc__w_foff(f, &nf, 1);
    if (d->key)
      fk = tflc__w_foff(f, &nf, 2);
    tflc__w_fd(b, f, &nf, 4, 4, d->sg, 0);
    tflc__w_b_patch(b, v + 4 * i, tflc__w_b_table(b, f, nf));
    if (d->has_in)
      tflc__w_b_patch(b, f[fi].pos, tflc__w_ser_tmaps(b, d->in, d->nin));
    if (d->has_out)
      tflc__w_b_patch(b, f[fo].pos, tflc__w_ser_tmaps(b, d->out, d->nout));
    if (d->key)
      tflc__w_b_patch(b, f[fk].pos, tflc__w_b_str(b, d->key));
  }
}

/* The COMPRESSION_METADATA flatbuffer (no identifier, not size-prefixed):
 * Metadata{schema_version 1, subgraphs: one entry per model subgraph up to
 * the last with LUT tensors}. A subgraph without LUT tensors gets an empty
 * lut_tensors vector, as TFLM's older compressor writes it; note that
 * TFLM's runtime refuses such an entry ("zero length LutTensor vector"). */
static void tflc__w_ser_compression(tflc__w_b *b, const tflc__w_low *L) {
  tflc__w_field f[3];
  size_t n = 0, fsub, tb, nsub = 0, si, i, v, k;
  for (i = 0; i < L->nlut; i++)
    if (L->lut[i].sg + 1 > nsub)
      nsub = L->lut[i].sg + 1;
  tflc__w_b_alloc(b, 4); /* root offset */
  tflc__w_fd(b, f, &n, 0, 4, 1, 1);
  fsub = tflc__w_foff(f, &n, 1);
  tb = tflc__w_b_table(b, f, n);
  tflc__w_b_patch(b, 0, tb);
  v = tflc__w_b_offvec(b, nsub);
  tflc__w_b_patch(b, f[fsub].pos, v - 4);
  for (si = 0; si < nsub && !b->err; si++) {
    size_t nl = 0, lv, fl;
    n = 0;
    fl = tflc__w_foff(f, &n, 0);
    tflc__w_b_patch(b, v + 4 * si, tflc__w_b_table(b, f, n));
    for (i = 0; i < L->nlut; i++)
      nl += L->lut[i].sg == si;
    lv = tflc__w_b_offvec(b, nl);
    tflc__w_b_patch(b, f[fl].pos, lv - 4);
    for (i = 0, k = 0; i < L->nlut; i++) {
      if (L->lut[i].sg != si)
        continue;
      n = 0;
      tflc__w_fd(b, f, &n, 0, 4, (uint32_t)L->lut[i].tensor, 0);
      tflc__w_f(f, &n, 1, 4, L->lut[i].value_buffer);
      tflc__w_f(f, &n, 2, 1, (uint8_t)L->lut[i].bits);
      tflc__w_b_patch(b, lv + 4 * k++, tflc__w_b_table(b, f, n));
    }
  }
}

static tflc_status tflc__w_b_status(const tflc__w_b *b) {
  return b->err == 1 ? TFLC_ERR_ARENA : TFLC_ERR_UNSUPPORTED;
}

static uint64_t tflc__w_hash(const uint8_t *p, size_t n) {
  uint64_t h = 1469598103934665603u;
  size_t i;
  for (i = 0; i < n; i++)
    h = (h ^ p[i]) * 1099511628211u;
  return h;
}

/* Compact mode: drops buffers nothing refers to, merges identical ones
 * (not those of variable tensors) and renumbers every reference in the
 * view. *mbuf_map receives the old -> new map (for metadata_buffer). */
static tflc_status tflc__w_low_compact(tflc_writer *w, tflc__w_low *L,
                                       uint32_t **map_out) {
  size_t nb = L->nbuf, i, j, si, ti, kept = 1;
  uint32_t *map = (uint32_t *)tflc__w_tmp(L, nb ? nb : 1, sizeof(uint32_t));
  uint8_t *use = (uint8_t *)tflc__w_tmp(L, nb ? nb : 1, 1);
  uint64_t *h = (uint64_t *)tflc__w_tmp(L, nb ? nb : 1, sizeof(uint64_t));
  tflc__w_bview *nbv;
  *map_out = map;
  if (!map || !use || !h)
    return TFLC_ERR_ARENA;
  memset(use, 0, nb ? nb : 1); /* 1 used, 3 used and not shared */
  for (si = 0; si < L->nsg; si++)
    for (ti = 0; ti < L->sg[si].nt; ti++) {
      const tflc__w_tensor *t = &L->sg[si].t[ti];
      if (t->buffer < nb)
        use[t->buffer] |= (uint8_t)(t->is_variable ? 3 : 1);
    }
  for (i = 0; i < L->nmeta; i++)
    if (L->meta[i].buffer < nb)
      use[L->meta[i].buffer] |= 1;
  for (i = 0; i < L->nlut; i++)
    if (L->lut[i].value_buffer < nb)
      use[L->lut[i].value_buffer] |= 1;
  for (i = 0; w->has_mbuf && i < (size_t)w->nmbuf; i++)
    if (w->mbuf[i] > 0 && (size_t)w->mbuf[i] < nb)
      use[w->mbuf[i]] |= 1;
  nbv = (tflc__w_bview *)tflc__w_tmp(L, nb ? nb : 1, sizeof *nbv);
  if (!nbv)
    return TFLC_ERR_ARENA;
  nbv[0].data = NULL;
  nbv[0].size = 0;
  map[0] = 0;
  for (i = 1; i < nb; i++) {
    map[i] = 0;
    if (!use[i] || !L->buf[i].size)
      continue; /* dropped, or empty: the sentinel serves */
    h[i] = tflc__w_hash(L->buf[i].data, L->buf[i].size);
    if (use[i] == 1)
      for (j = 1; j < i; j++)
        if (use[j] == 1 && L->buf[j].size == L->buf[i].size && h[j] == h[i] &&
            memcmp(L->buf[j].data, L->buf[i].data, L->buf[i].size) == 0) {
          map[i] = map[j];
          break;
        }
    if (!map[i]) {
      nbv[kept] = L->buf[i];
      map[i] = (uint32_t)kept++;
    }
  }
  for (si = 0; si < L->nsg; si++)
    for (ti = 0; ti < L->sg[si].nt; ti++) {
      tflc__w_tensor *t = &L->sg[si].t[ti];
      t->buffer = t->buffer < nb ? map[t->buffer] : 0;
    }
  for (i = 0; i < L->nmeta; i++)
    L->meta[i].buffer = L->meta[i].buffer < nb ? map[L->meta[i].buffer] : 0;
  for (i = 0; i < L->nlut; i++)
    L->lut[i].value_buffer =
        L->lut[i].value_buffer < nb ? map[L->lut[i].value_buffer] : 0;
  memcpy(L->buf, nbv, kept * sizeof *nbv);
  L->nbuf = kept;
  return TFLC_OK;
}

TFLC_API tflc_status tflc_writer_finish(tflc_writer *w, uint8_t **out,
                                        size_t *size) {
  tflc__w_low L;
  tflc__w_b b, mb;
  tflc__w_field f[10];
  size_t n = 0, fop, fsg, fdesc = 0, fbuf, fmeta = 0, fmb = 0, fsig = 0;
  size_t model, v, i;
  size_t *bpos = NULL; /* per buffer: data (or offset) field position */
  uint32_t *bmap = NULL;
  int ext, compact;
  tflc_status st;
  if (out)
    *out = NULL;
  if (size)
    *size = 0;
  if (!w || !out || !size)
    return TFLC_ERR_ARG;
  if (w->err != TFLC_OK)
    return w->err;
  if (w->flags & TFLC_W_FLAG_ONLY_DEPRECATED_CODE)
    for (i = 0; i < w->noc; i++)
      if (w->oc[i].code > 127 && !w->oc[i].raw)
        return TFLC_ERR_UNSUPPORTED;
  ext = (w->flags & TFLC_W_FLAG_EXTERNAL_BUFFERS) != 0;
  compact = (w->flags & TFLC_W_FLAG_COMPACT) != 0;
  memset(&b, 0, sizeof b);
  memset(&mb, 0, sizeof mb);
  b.limit = TFLC__W_MAX_FB;
  mb.limit = TFLC__W_MAX_FB;
  b.compact = mb.compact = compact;
  st = tflc__w_lower(w, &L);
  if (st != TFLC_OK)
    goto done;
  if (compact) {
    st = tflc__w_low_compact(w, &L, &bmap);
    if (st != TFLC_OK)
      goto done;
  }
  if (L.nlut) {
    uint32_t mbuf;
    tflc__w_ser_compression(&mb, &L);
    if (mb.err) {
      st = tflc__w_b_status(&mb);
      goto done;
    }
    mbuf = tflc__w_low_buffer(&L, mb.p, mb.len);
    if (mbuf == 0) {
      st = TFLC_ERR_ARENA;
      goto done;
    }
    L.meta[L.nmeta].name = "COMPRESSION_METADATA";
    L.meta[L.nmeta].buffer = mbuf;
    L.nmeta++;
  }
  bpos = (size_t *)calloc(L.nbuf ? L.nbuf : 1, sizeof(size_t));
  if (!bpos) {
    st = TFLC_ERR_ARENA;
    goto done;
  }
  /* header: root offset, identifier */
  tflc__w_b_alloc(&b, 4);
  if (!(w->flags & TFLC_W_FLAG_NO_IDENTIFIER)) {
    size_t id = tflc__w_b_alloc(&b, 4);
    if (!b.err)
      memcpy(b.p + id, "TFL3", 4);
  }
  tflc__w_f(f, &n, 0, 4, w->raw_model ? w->version : 3);
  fop = tflc__w_foff(f, &n, 1);
  fsg = tflc__w_foff(f, &n, 2);
  if (!w->raw_model || w->description)
    fdesc = tflc__w_foff(f, &n, 3);
  fbuf = tflc__w_foff(f, &n, 4);
  if (w->has_mbuf)
    fmb = tflc__w_foff(f, &n, 5);
  if (L.nmeta)
    fmeta = tflc__w_foff(f, &n, 6);
  if (w->nsig > 0)
    fsig = tflc__w_foff(f, &n, 7);
  model = tflc__w_b_table(&b, f, n);
  tflc__w_b_patch(&b, 0, model);
  /* operator codes */
  v = tflc__w_b_offvec(&b, w->noc);
  tflc__w_b_patch(&b, f[fop].pos, v - 4);
  for (i = 0; i < w->noc && !b.err; i++)
    tflc__w_ser_opcode(&b, &w->oc[i], w->flags, v + 4 * i);
  /* subgraphs */
  v = tflc__w_b_offvec(&b, L.nsg);
  tflc__w_b_patch(&b, f[fsg].pos, v - 4);
  for (i = 0; i < L.nsg && !b.err; i++) {
    st = tflc__w_ser_subgraph(&b, &w->sg[i], &L.sg[i], v + 4 * i);
    if (st != TFLC_OK)
      goto done;
  }
  if (!w->raw_model || w->description)
    tflc__w_b_patch(&b, f[fdesc].pos,
                    tflc__w_b_str(&b, w->raw_model ? w->description : "tflc"));
  if (w->has_mbuf) {
    v = tflc__w_b_vec(&b, (size_t)w->nmbuf, 4, 4);
    for (i = 0; i < (size_t)w->nmbuf && !b.err; i++) {
      int32_t x = w->mbuf[i];
      if (bmap && x >= 0 && (size_t)x < w->nbuf)
        x = (int32_t)bmap[x];
      tflc__w_b_put(&b, v + 4 + 4 * i, (uint32_t)x, 4);
    }
    tflc__w_b_patch(&b, f[fmb].pos, v);
  }
  /* metadata */
  if (L.nmeta) {
    v = tflc__w_b_offvec(&b, L.nmeta);
    tflc__w_b_patch(&b, f[fmeta].pos, v - 4);
    for (i = 0; i < L.nmeta && !b.err; i++) {
      tflc__w_field mf[2];
      size_t nm = 0, fn = tflc__w_foff(mf, &nm, 0);
      tflc__w_f(mf, &nm, 1, 4, L.meta[i].buffer);
      tflc__w_b_patch(&b, v + 4 * i, tflc__w_b_table(&b, mf, nm));
      tflc__w_b_patch(&b, mf[fn].pos, tflc__w_b_str(&b, L.meta[i].name));
    }
  }
  if (w->nsig > 0)
    tflc__w_ser_sigdefs(&b, w, f[fsig].pos);
  /* buffers: the tables, then the data (16-aligned) */
  v = tflc__w_b_offvec(&b, L.nbuf);
  tflc__w_b_patch(&b, f[fbuf].pos, v - 4);
  for (i = 0; i < L.nbuf && !b.err; i++) {
    tflc__w_field bf[2];
    size_t nb = 0;
    if (L.buf[i].size && ext) {
      tflc__w_f(bf, &nb, 1, 8, 0);
      tflc__w_f(bf, &nb, 2, 8, (uint64_t)L.buf[i].size);
    } else if (L.buf[i].size) {
      tflc__w_foff(bf, &nb, 0);
    }
    tflc__w_b_patch(&b, v + 4 * i, tflc__w_b_table(&b, bf, nb));
    bpos[i] = nb ? bf[0].pos : 0;
  }
  for (i = 0; i < L.nbuf && !b.err && !ext; i++)
    if (L.buf[i].size)
      tflc__w_b_patch(&b, bpos[i],
                      tflc__w_b_bytes(&b, L.buf[i].data, L.buf[i].size, 16));
  if (ext && !b.err) { /* after the flatbuffer proper, at 16-byte offsets */
    b.limit = (size_t)-1;
    for (i = 0; i < L.nbuf && !b.err; i++) {
      size_t pos;
      if (!L.buf[i].size)
        continue;
      tflc__w_b_pad(&b, 16, 0);
      pos = tflc__w_b_alloc(&b, L.buf[i].size);
      if (b.err)
        break;
      memcpy(b.p + pos, L.buf[i].data, L.buf[i].size);
      tflc__w_b_put(&b, bpos[i], (uint64_t)pos, 8);
    }
  }
  if (b.err) {
    st = tflc__w_b_status(&b);
    goto done;
  }
  *out = b.p;
  *size = b.len;
  b.p = NULL;
  st = TFLC_OK;
done:
  free(bpos);
  free(b.p);
  free(b.vts);
  free(mb.p);
  free(mb.vts);
  tflc__w_low_free(&L);
  return st;
}

#endif /* TFLC_WRITER_IMPLEMENTATION */

/* tflc_write.h - build, copy and LUT-compress .tflite models (host side).
 *
 * What it is
 *   The host-side companion of tflc.h, as cgltf_write.h is of cgltf.h:
 *   - a model writer: a flatbuffer builder for the TFLite schema that
 *     writes .tflite bytes from a graph described through calls (tensors
 *     with constant data and quantization, operators with builtin options
 *     tables, subgraph inputs and outputs), with TFLM's two LUT
 *     compression formats. No flatbuffers library: it writes the wire
 *     format directly. The tests and fuzzers build their models with it;
 *   - the compression stage: tflc_compress re-emits a model with
 *     LUT-compressed constants (the tensors of a TFLM spec YAML, an
 *     explicit list, or those found automatically), tflc_bin clusters
 *     constants to at most 2^bits values so they compress, tflc_model_copy
 *     re-emits a model unchanged. examples/tflc.c wraps them as
 *     `tflc compress` and `tflc bin`.
 *   It uses malloc, realloc and free, so it never belongs in firmware;
 *   tflc.h (the runtime) stays free of it. The model is read with tflc.h's
 *   verified walker, so the implementation needs tflc.h's implementation
 *   in the same translation unit (an #error says so otherwise).
 *
 * Quick start
 *   #define TFLC_IMPLEMENTATION         // in exactly one .c file: the
 *   #define TFLC_WRITE_IMPLEMENTATION   // runtime, then the host tools
 *   #include "tflc_write.h"             // includes tflc.h
 *
 *   tflc_writer *w = tflc_writer_create();
 *   int32_t d[2] = {1, 4}, wd[2] = {2, 4};
 *   int32_t x = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 2, d, NULL, 0, "x", 0);
 *   int32_t k = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 2, wd, weights,
 *                                  sizeof weights, "w", 0);
 *   int32_t y = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 2, d, NULL, 0, "y", 0);
 *   int32_t in[3] = {x, k, -1};
 *   tflc_writer_op(w, 0, 9, NULL, 3, in, 1, &y, 8, 0, NULL); // FC
 *   tflc_writer_inputs(w, 0, 1, &x);
 *   tflc_writer_outputs(w, 0, 1, &y);
 *   tflc_writer_compress(w, 0, k, 4, TFLC_W_DECODE, 0);   // optional
 *   uint8_t *bytes; size_t size;
 *   if (tflc_writer_finish(w, &bytes, &size) == TFLC_OK) { ...; free(bytes); }
 *   tflc_writer_destroy(w);
 *
 *   tflc_compress_options co = {0};            // DECODE format, discovery
 *   tflc_stage_report rep;
 *   if (tflc_compress(model, size, &co, &out, &out_size, &rep) == TFLC_OK)
 *     ...;                                     // free(out)
 *   tflc_stage_report_free(&rep);
 *
 * Configuration macros (define before including)
 *   TFLC_WRITE_IMPLEMENTATION  compile the writer and the compression
 *                              stage in this unit; TFLC_IMPLEMENTATION
 *                              must be defined there too (before tflc.h
 *                              is first included)
 *   tflc.h's macros (TFLC_STATIC, TFLC_MAX_DIMS, ...) apply as usual.
 *
 * API in one screen
 *   tflc_writer_create / _destroy / _set_flags / _status
 *   tflc_writer_subgraph(w), tflc_writer_subgraph_name(w, sg, name)
 *   tflc_writer_tensor(w, sg, type, rank, dims, data, size, name, quant)
 *   tflc_writer_set_variable, tflc_writer_inputs, tflc_writer_outputs
 *   tflc_writer_op(w, sg, code, custom, nin, in, nout, out, opt_type, n, o)
 *   tflc_writer_metadata(w, name, data, size)
 *   tflc_writer_compress(w, sg, tensor, bits, format, pad_pow2)
 *   tflc_writer_finish(w, &bytes, &size)       malloc'd .tflite bytes
 *   tflc_writer_pack_indices, tflc_writer_packed_size
 *   tflc_compress(model, size, &opt, &out, &out_size, &report)
 *   tflc_bin(model, size, &opt, &out, &out_size, &report)
 *   tflc_model_copy(model, size, &out, &out_size, &report)
 *   tflc_stage_report_free(&report)
 *   tflc_budget_parse(spec, &budget, err, err_len)
 *   tflc_compress_to_budget(model, size, &opt, &out, &out_size, &report)
 *   tflc_budget_report_free(&report)
 *
 * What the writer writes
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
 * does); it ignores Buffer.offset/size (EXTERNAL_BUFFERS). By default the
 * writer keeps buffer indices as given (no sharing, deduplication or
 * pruning); TFLC_W_FLAG_COMPACT does what TFLM's compressor and align tool
 * do and more: shared vtables, default scalars left out, identical buffers
 * merged, unreferenced ones dropped, buffer data placed where it needs no
 * alignment padding, DECODE's encoded data in the original tensor's place
 * and identical ancillary tensors shared.
 *
 * The compression stage
 *   tflc_compress picks constants read only where they can be decoded,
 *   whose values fit 2^bits entries per channel and shrink (or the spec's
 *   or caller's list); tflc_bin uses optimal 1-D k-means. The model is
 *   copied field by field (options tables by schema, unknown fields as
 *   scalars with a warning). Value tables hold the sorted unique values
 *   per channel, padded to the largest channel's count (as TFLM's newer
 *   compressor; its older one pads to 2^bits).
 *
 * License: MIT (see LICENSE).
 */
#ifndef TFLC_WRITE_H
#define TFLC_WRITE_H

#include "tflc.h"

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

/* Contract of every function below (host only: they use malloc, realloc
 * and free). Writer calls take a writer from tflc_writer_create; with w
 * NULL a call does nothing and returns -1 or TFLC_ERR_ARG. Calls that
 * return nothing keep their first failure in the writer (sticky:
 * TFLC_ERR_INDEX for a subgraph, tensor or operator index out of range,
 * TFLC_ERR_ARG for another bad argument, TFLC_ERR_ARENA when out of
 * memory), which tflc_writer_status and tflc_writer_finish return. Every
 * byte, string and array handed in is copied before the call returns: the
 * caller may free or reuse it at once. Bytes handed out (*out, *enc,
 * *anc) are malloc'd and belong to the caller (free with free()). One
 * writer must not be used from two threads at once; different writers
 * are independent (no global state). */

/* A new, empty writer: subgraph 0 and the empty buffer 0 exist. NULL when
 * out of memory. Free it with tflc_writer_destroy. */
TFLC_API tflc_writer *tflc_writer_create(void);
/* Frees the writer and everything it holds (not the bytes tflc_writer_finish
 * handed out). w may be NULL. */
TFLC_API void tflc_writer_destroy(tflc_writer *w);
/* Replaces the writer's flags (TFLC_W_FLAG_*, or-ed) for the next
 * tflc_writer_finish. Nothing for w NULL. */
TFLC_API void tflc_writer_set_flags(tflc_writer *w, unsigned flags);
/* The first error of a call that returns nothing (TFLC_OK when none):
 * TFLC_ERR_INDEX, TFLC_ERR_ARG or TFLC_ERR_ARENA; tflc_writer_finish
 * returns it too. TFLC_ERR_ARG for w NULL. */
TFLC_API tflc_status tflc_writer_status(const tflc_writer *w);

/* Adds a subgraph and returns its index; subgraph 0 exists from create.
 * -1 for w NULL, too many subgraphs, or out of memory (sticky
 * TFLC_ERR_ARENA). */
TFLC_API int32_t tflc_writer_subgraph(tflc_writer *w);
/* Sets SubGraph.name of subgraph sg to a copy of `name` (NULL: not written,
 * as when never set). Sticky TFLC_ERR_INDEX for a bad sg. */
TFLC_API void tflc_writer_subgraph_name(tflc_writer *w, int32_t sg,
                                        const char *name);

/* Adds a tensor to subgraph sg: `rank` dims from `dims` (NULL allowed for
 * rank 0, which writes an empty shape vector). data NULL = no buffer
 * (activation); data with data_size 0 gets its own buffer without a data
 * vector. The bytes are copied and not checked against the shape (so
 * tests can build bad models); type is any TensorType byte. name may be
 * NULL (no name); q NULL = no quantization (q->zero_point NULL = zeros).
 * Returns the tensor index in sg, or -1 (w NULL, bad sg, rank < 0, dims
 * NULL with rank > 0, type outside -128..127, q with a negative count or
 * no scales, out of memory). */
TFLC_API int32_t tflc_writer_tensor(tflc_writer *w, int32_t sg, int type,
                                    int32_t rank, const int32_t *dims,
                                    const void *data, size_t data_size,
                                    const char *name, const tflc_w_quant *q);
/* Sets (is_variable != 0) or clears Tensor.is_variable of a tensor of sg.
 * Sticky TFLC_ERR_INDEX for a bad sg or tensor. */
TFLC_API void tflc_writer_set_variable(tflc_writer *w, int32_t sg,
                                       int32_t tensor, int is_variable);
/* tflc_writer_inputs / tflc_writer_outputs: set (replace) the subgraph's
 * input / output tensor list with a copy of the n indices at `tensors`
 * (NULL allowed when n is 0). Indices are not checked (negative tests).
 * Sticky TFLC_ERR_INDEX for a bad sg, TFLC_ERR_ARG for n < 0 or tensors
 * NULL with n > 0. */
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

/* Sets operator `op`'s custom_options to a copy of the n bytes at `bytes`
 * (TFLite writes a FlexBuffer map there for custom operators; bytes may
 * be NULL when n is 0: an empty vector), replacing earlier ones. Sticky
 * TFLC_ERR_INDEX for a bad sg, TFLC_ERR_ARG for a bad op or bytes NULL
 * with n > 0. */
TFLC_API void tflc_writer_custom_options(tflc_writer *w, int32_t sg, int32_t op,
                                         const void *bytes, size_t n);

/* Adds a Model.metadata entry `name` (copied; not NULL) with its own buffer
 * holding a copy of `data` (size bytes; data NULL or size 0 = a buffer
 * without data). Returns the buffer index, or -1 (w or name NULL, too
 * many entries, out of memory). */
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

/* Serialises the model: heap bytes in *out (free with free()), size in
 * *size; *out is NULL and *size 0 on failure. The writer's graph is not
 * changed and it stays usable (finish may be called again). Returns
 * TFLC_OK; TFLC_ERR_ARG (w, out or size NULL), the sticky error of an
 * earlier call, TFLC_ERR_UNSUPPORTED (code > 127 with
 * ONLY_DEPRECATED_CODE, or a flatbuffer over 2 GiB), TFLC_ERR_ARENA (out
 * of memory). */
TFLC_API tflc_status tflc_writer_finish(tflc_writer *w, uint8_t **out,
                                        size_t *size);

/* Packs count indices MSB-first at `bits` (1..32) each into out
 * (tflc_writer_packed_size(count, bits) bytes, the last zero padded);
 * each index is masked to bits. Writes nothing when bits is out of range
 * or (count > 0) indices or out is NULL. */
TFLC_API void tflc_writer_pack_indices(const uint32_t *indices, size_t count,
                                       int bits, uint8_t *out);
/* Bytes tflc_writer_pack_indices writes: ceil(count*bits/8) (0 if that
 * does not fit in size_t or bits is out of range). */
TFLC_API size_t tflc_writer_packed_size(size_t count, int bits);

/* ---- Huffman, Prune and INT4 (TFLM_DECODE types 1 and 2, INT4 filters) ---
 * Marks a constant tensor for compression in the DECODE format with
 * TFLM's Huffman (decode type 1) or Prune (decode type 2) encoding; like
 * tflc_writer_compress the work is done now and tflc_writer_finish inserts
 * the TFLM_DECODE operators. TFLM's tools cannot write either format.
 *
 * Huffman: a canonical Huffman code of the tensor's values (the whole
 * tensor: TFLM's Huffman decoder has no channels and writes the table
 * entry itself, so the values are coded, not LUT indices), stored as
 * TFLM's multi-level lookup table: table_bits 16 (INT8 only) or 32 (INT8,
 * INT16; 0: 16 for INT8 when the sub-table links fit, else 32); the first
 * lookup reads first_bits (1..15; 0: the layout with the smallest table,
 * an extra lookup per 64 elements counting one byte). The stream is padded
 * so that every lookup stays inside it, to whole 32-bit words (TFLM reads
 * words). Types INT8, INT16.
 * Prune: a keep-bitmask (MSB-first) and the kept values in element order;
 * an element is pruned when it equals what TFLM's decoder writes for
 * pruned elements: the channel's zero point for INT8 per-channel tensors
 * with a non-zero zero point (TFLM's per-channel path, axis 0 or the last,
 * channels dividing the elements), else the zero point of an INT8 tensor,
 * else all zero bits (0, +0.0, false). Types BOOL, INT8, INT16, INT32,
 * INT64, FLOAT32; zero points must be 0 except for INT8 (as TFLM).
 * Both return tflc_writer_compress's errors, and TFLC_ERR_TYPE for a type
 * the decoder does not produce, TFLC_ERR_QUANT for quantization TFLM's
 * decoder refuses (axis, zero points), TFLC_ERR_COMPRESSION when no table
 * layout fits. */
TFLC_API tflc_status tflc_writer_compress_huffman(tflc_writer *w, int32_t sg,
                                                  int32_t tensor,
                                                  int table_bits,
                                                  int first_bits);
TFLC_API tflc_status tflc_writer_compress_prune(tflc_writer *w, int32_t sg,
                                                int32_t tensor);
/* Turns a constant INT8 tensor whose values all lie in -8..7 into an INT4
 * one (two per byte, element 2i in the low nibble), as TFLM's CONV_2D,
 * DEPTHWISE_CONV_2D and FULLY_CONNECTED take filters. Returns TFLC_OK;
 * TFLC_ERR_ARG (w NULL), TFLC_ERR_INDEX, TFLC_ERR_STATE (compressed),
 * TFLC_ERR_BUFFER (no data), TFLC_ERR_TYPE (not INT8),
 * TFLC_ERR_COMPRESSION (a value outside -8..7), TFLC_ERR_ARENA. */
TFLC_API tflc_status tflc_writer_to_int4(tflc_writer *w, int32_t sg,
                                         int32_t tensor);
/* tflc_encode_huffman / tflc_encode_prune: the encoded and ancillary
 * bytes (16-byte DCM + tables) of `count` elements of `type` at `data` in
 * the Huffman or Prune DECODE format, without a writer. enc, n_enc, anc
 * and n_anc must not be NULL; *enc / *anc are malloc'd (free with
 * free()), NULL with sizes 0 on failure. For Prune, zero_points (n_zp
 * of them; 0 and NULL: none) and channels / alt_axis describe the
 * quantization as TFLM's decoder reads it (the tensor's scale count and
 * axis). Returns TFLC_OK; TFLC_ERR_TYPE, TFLC_ERR_BUFFER (data NULL,
 * count 0 or too large), TFLC_ERR_ARG (table_bits / first_bits out of
 * range), TFLC_ERR_QUANT, TFLC_ERR_COMPRESSION, TFLC_ERR_ARENA, as above. */
TFLC_API tflc_status tflc_encode_huffman(int type, const void *data,
                                         size_t count, int table_bits,
                                         int first_bits, uint8_t **enc,
                                         size_t *n_enc, uint8_t **anc,
                                         size_t *n_anc);
TFLC_API tflc_status tflc_encode_prune(int type, const void *data, size_t count,
                                       const int64_t *zero_points, int32_t n_zp,
                                       int32_t channels, int alt_axis,
                                       uint8_t **enc, size_t *n_enc,
                                       uint8_t **anc, size_t *n_anc);

/* ---- compression stage (host tools) ---------------------------------------
 * tflc_compress and tflc_bin read a .tflite model (bytes in memory) and
 * write a new one (malloc'd; free with free()). The model is re-emitted
 * field by field (operator codes, options tables, custom options, tensors
 * with quantization, buffers, metadata, signature definitions); what cannot
 * be copied is reported as a warning. Output is compact (shared vtables,
 * identical buffers merged, unreferenced ones dropped) with every buffer's
 * data on a 16-byte file offset. */

/* Compression methods: tflc_compress_options.methods (a set) and
 * tflc_stage_entry.method (the one used). */
enum {
  TFLC_METHOD_LUT = 1,     /* value tables + packed indices (both formats) */
  TFLC_METHOD_HUFFMAN = 2, /* TFLM_DECODE type 1 (DECODE format) */
  TFLC_METHOD_PRUNE = 4,   /* TFLM_DECODE type 2 (DECODE format) */
  TFLC_METHOD_INT4 = 8     /* an INT4 filter (to_int4) */
};

/* A tensor: subgraph, tensor index, and an index width (0 = the smallest
 * that holds its values). */
typedef struct tflc_tensor_ref {
  int32_t subgraph, tensor, bits;
} tflc_tensor_ref;

typedef struct tflc_compress_options {
  int format; /* TFLC_W_METADATA or TFLC_W_DECODE (0: DECODE) */
  /* TFLM's spec YAML (tensors: - subgraph/tensor/compression: - lut:
   * index_bitwidth), or NULL. spec_name names it in messages. */
  const char *spec;
  size_t spec_len;
  const char *spec_name;
  /* Explicit list (turns discovery off), or NULL. */
  const tflc_tensor_ref *tensors;
  int32_t ntensors;
  /* Never compressed. */
  const tflc_tensor_ref *exclude;
  int32_t nexclude;
  /* 1: only what TFLM can run: inputs of FULLY_CONNECTED, CONV_2D,
   * DEPTHWISE_CONV_2D, TRANSPOSE_CONV, CONCATENATION, ASSIGN_VARIABLE at
   * the slots TFLM decompresses, widths 1..7, TFLM's types. -1: whatever
   * tflc runs (every builtin operator but IF/WHILE/CALL/CALL_ONCE, custom
   * operators only in DECODE, widths 1..8, also UINT8). 0: 1 for
   * METADATA, -1 for DECODE. */
  int tflm_compatible;
  /* Discovery: also compress tensors whose indices + tables (+ the
   * 16-byte DECODE header) are not smaller than the original data. */
  int allow_growth;
  /* Methods (TFLC_METHOD_LUT | _HUFFMAN | _PRUNE; 0: LUT). With several,
   * each tensor gets the smallest encoding of those its type and
   * quantization allow (automatic mode); the --tensors list and discovery
   * use them, a spec names its own. Huffman and Prune: DECODE format. */
  int methods;
  /* 1: constant INT8 filters (input 1) of CONV_2D, DEPTHWISE_CONV_2D and
   * per-tensor FULLY_CONNECTED whose values all lie in -8..7 become INT4
   * first, and are not compressed further (TFLM refuses compressed INT4
   * filters). */
  int to_int4;
} tflc_compress_options;

typedef struct tflc_bin_options {
  int bits; /* at most 2^bits values per channel (1..8; 0: no binning) */
  /* 0..1: that fraction of each tensor's elements, those of smallest real
   * magnitude (|q - zero point| x scale, per channel), is set to its zero
   * point first (0, +0.0 for float32): the elements a Prune encoding
   * (compress with TFLC_METHOD_PRUNE) leaves out. */
  double prune;
  /* Tensors to bin, or NULL: the weights (input 1) of FULLY_CONNECTED,
   * CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV. */
  const tflc_tensor_ref *tensors;
  int32_t ntensors;
  const tflc_tensor_ref *exclude;
  int32_t nexclude;
} tflc_bin_options;

/* One line of a report: a tensor compressed (or binned), or a candidate
 * left alone with the reason. */
typedef struct tflc_stage_entry {
  int32_t subgraph, tensor;
  char *name;     /* tensor name ("" when none) */
  int type;       /* TensorType */
  int done;       /* 1 compressed / binned, 0 skipped */
  int32_t tables; /* value tables (channels) */
  int32_t unique; /* most distinct values in one table (before binning) */
  int bits;       /* compress: width written (or needed, when skipped) */
  int32_t stride; /* compress: entries per value table */
  size_t bytes_before, bytes_after; /* compress: data bytes (after: packed
                                       indices + tables + 16 for DECODE) */
  int32_t unique_after;     /* bin: most distinct values in one table after */
  double mean_abs, max_abs; /* bin: change from the original values, real
                               units (scale applied), binning and pruning */
  char reason[160];         /* why skipped; notes */
  /* compress: the method used (TFLC_METHOD_*, 0 none), and the bytes each
   * method would take (0: not possible or not tried); bin: elements set to
   * the zero point by pruning in size_prune */
  int method;
  size_t size_lut, size_huffman, size_prune;
} tflc_stage_entry;

typedef struct tflc_stage_report {
  tflc_stage_entry *entries;
  int32_t nentries;
  char **warnings; /* also printed nowhere: the caller shows them */
  int32_t nwarnings;
  int format;          /* compress: format written */
  int tflm_compatible; /* compress: mode used */
  size_t in_size, out_size;
  char error[256]; /* why the call failed */
} tflc_stage_report;

/* Compresses `model` (size bytes, only read) into *out / *out_size (NULL,
 * 0 on failure). opt may be NULL (DECODE format, discovery, LUT). rep (may
 * be NULL) is overwritten with the report, also on failure: free it with
 * tflc_stage_report_free either way. Returns TFLC_OK (also when no tensor
 * qualified: the report's entries say why); TFLC_ERR_ARG (model, out or
 * out_size NULL, bad options, spec errors, a spec width too small), model
 * errors of tflc_model_init, TFLC_ERR_UNSUPPORTED (already compressed),
 * TFLC_ERR_ARENA (out of memory); rep->error says what. */
TFLC_API tflc_status tflc_compress(const void *model, size_t size,
                                   const tflc_compress_options *opt,
                                   uint8_t **out, size_t *out_size,
                                   tflc_stage_report *rep);
/* Bins `model`: per channel (quantization axis) or per tensor, values are
 * replaced by at most 2^bits representatives chosen by 1-D k-means
 * (optimal, deterministic; a cluster's representative is its mean rounded
 * to the tensor's type). The output is a standard model, in *out /
 * *out_size as tflc_compress's; opt must not be NULL; rep as there.
 * Returns TFLC_OK; TFLC_ERR_ARG (model, opt, out or out_size NULL, bad
 * options), model errors of tflc_model_init, TFLC_ERR_UNSUPPORTED (a
 * compressed model), TFLC_ERR_ARENA; rep->error says what. */
TFLC_API tflc_status tflc_bin(const void *model, size_t size,
                              const tflc_bin_options *opt, uint8_t **out,
                              size_t *out_size, tflc_stage_report *rep);
/* Frees what a report holds (names, entries, warnings) and zeroes it; rep
 * may be NULL, and a zeroed report is fine. */
TFLC_API void tflc_stage_report_free(tflc_stage_report *rep);

/* Copies a model through the writer without changes (the round trip the
 * two stages are built on); out, out_size and rep as tflc_compress's,
 * warnings as above. Returns TFLC_OK, TFLC_ERR_ARG (out or out_size
 * NULL), model errors of tflc_model_init, TFLC_ERR_UNSUPPORTED (a
 * compressed model), TFLC_ERR_ARENA. */
TFLC_API tflc_status tflc_model_copy(const void *model, size_t size,
                                     uint8_t **out, size_t *out_size,
                                     tflc_stage_report *rep);

/* ---- compression to an accuracy budget (tflc_compress_to_budget) ---------
 * Chooses, per weight tensor (the tensors tflc_bin bins by default), the
 * bit width (and, with opt.prune, a pruning fraction) that makes the
 * compressed model smallest while its outputs on the caller's samples
 * stay within the budget, measured against the uncompressed model:
 *   top1:  argmax of output 0 agrees on at least that fraction of samples
 *   mean / max:  |output - uncompressed output| in real units (scale and
 *          zero point applied), mean over every output element / maximum
 *   drop:  labelled accuracy (argmax of output 0 == label) falls by at
 *          most that fraction (needs labels)
 * A negative limit is not checked. The search is deterministic (no
 * randomness, ties to the lower tensor index): each tensor's candidate
 * levels (binned to 7..min_bits bits, pruned at 25/50/75/90%) are measured
 * alone first (a level that breaks the budget alone is dropped); then
 * levels are taken greedily, best bytes saved per unit of error first
 * (a level's bytes: the model compressed with that tensor alone at that
 * level, so a TFLM_DECODE operator's own cost counts),
 * each checked on the whole model and kept only when the budget still
 * holds (a tensor may be lowered more than once; a level that fails is
 * not tried again). The result is binned, then
 * compressed with tflc_compress (format, methods, tflm_compatible below);
 * when that is not smaller than the input, the input is written as it
 * was (no tensor changed).
 * Error score of a state: (1 - agreement) + accuracy drop + mean error /
 * mean |uncompressed output|. */
typedef struct tflc_budget {
  double top1;     /* least agreement, 0..1 (< 0: not checked) */
  double mean_abs; /* most mean |difference|, real units (< 0: no) */
  double max_abs;  /* most max |difference|, real units (< 0: no) */
  double acc_drop; /* most accuracy drop, 0..1 (< 0: no; needs labels) */
} tflc_budget;

/* Parses "top1=99%,mean=0.01,max=0.1,drop=1%" (keys top1 / agree, mean,
 * max, drop / acc; a value ending in % is divided by 100; limits not
 * given are -1). Returns TFLC_OK, or TFLC_ERR_ARG with a message in err
 * (err_len bytes; err may be NULL). */
TFLC_API tflc_status tflc_budget_parse(const char *spec, tflc_budget *b,
                                       char *err, size_t err_len);

typedef struct tflc_budget_options {
  tflc_budget budget;
  /* nsamples samples, each the model's inputs' bytes one after another
   * (subgraph 0's inputs in order): sample_bytes = the sum of their
   * sizes. labels: nsamples class indices, or NULL. */
  const uint8_t *samples;
  size_t sample_bytes;
  int32_t nsamples;
  const int32_t *labels;
  int min_bits, max_bits;         /* widths tried (0: 1 and 7) */
  int prune;                      /* 1: also try pruning levels */
  const tflc_tensor_ref *exclude; /* never changed */
  int32_t nexclude;
  int format;          /* of the written model: tflc_compress_options' */
  int methods;         /* tflc_compress_options' (0: LUT, + PRUNE if used) */
  int tflm_compatible; /* tflc_compress_options' */
} tflc_budget_options;

typedef struct tflc_budget_metrics {
  double top1;     /* agreement of output 0's argmax with the original */
  double mean_abs; /* mean |difference| over output elements, real units */
  double max_abs;  /* largest |difference| */
  double accuracy; /* with labels: fraction right (else -1) */
  double score;    /* the error score (above) */
} tflc_budget_metrics;

typedef struct tflc_budget_step { /* one accepted change, in order */
  int32_t entry;                  /* index in tflc_budget_report.tensors */
  int bits;                       /* width set (0: pruned only) */
  double prune;                   /* fraction pruned (0: none) */
  size_t bytes_saved;             /* estimated, this step */
  tflc_budget_metrics after;      /* the whole model after the step */
  double cost;                    /* score after - score before */
} tflc_budget_step;

typedef struct tflc_budget_tensor {
  int32_t subgraph, tensor;
  char name[96];
  int type;
  int bits;             /* width chosen (0: left as it was) */
  double prune;         /* fraction pruned (0: none) */
  size_t bytes_before;  /* its data */
  size_t bytes_after;   /* in the written model (tflc_compress's report) */
  int method;           /* TFLC_METHOD_* used when written (0: not) */
  double cost;          /* sum of its steps' costs */
  int32_t levels_tried; /* levels measured alone */
} tflc_budget_tensor;

typedef struct tflc_budget_report {
  tflc_budget_tensor *tensors;
  int32_t ntensors;
  tflc_budget_step *steps;
  int32_t nsteps;
  tflc_budget_metrics baseline; /* the original (top1 1, errors 0) */
  tflc_budget_metrics final;    /* the written model, measured again */
  int32_t nsamples, evaluations;
  double seconds; /* search time (processor time) */
  size_t in_size, out_size;
  char error[256];
} tflc_budget_report;

/* Runs the search on `model` and writes the chosen model (binned, then
 * compressed) to *out / *out_size (malloc'd; NULL, 0 on failure). rep
 * (may be NULL) is overwritten, also on failure: free it with
 * tflc_budget_report_free. Returns TFLC_OK; TFLC_ERR_ARG (bad
 * arguments, sample size not the inputs' size, drop without labels),
 * the errors of tflc_model_init, tflc_interpreter_init, tflc_invoke,
 * tflc_bin and tflc_compress (rep->error says which), TFLC_ERR_ARENA. */
TFLC_API tflc_status tflc_compress_to_budget(const void *model, size_t size,
                                             const tflc_budget_options *opt,
                                             uint8_t **out, size_t *out_size,
                                             tflc_budget_report *rep);
TFLC_API void tflc_budget_report_free(tflc_budget_report *rep);

#ifdef __cplusplus
}
#endif

/* ======================================================================== */
/* Stop here if you only want the API.                                      */
/* ======================================================================== */
#endif /* TFLC_WRITE_H */

/* The implementation reads models with the runtime's internal walker, so
 * the runtime implementation must be in this unit, compiled before. */
#if defined(TFLC_WRITE_IMPLEMENTATION) && !defined(TFLC_IMPLEMENTATION_DONE)
#error                                                                         \
    "tflc_write.h: TFLC_WRITE_IMPLEMENTATION needs the runtime implementation in the same unit: #define TFLC_IMPLEMENTATION before including tflc_write.h"
#elif defined(TFLC_WRITE_IMPLEMENTATION) &&                                    \
    !defined(TFLC_WRITE_IMPLEMENTATION_DONE)
#define TFLC_WRITE_IMPLEMENTATION_DONE

#include <stdlib.h>
#include <string.h>

/* no fused multiply-add in the implementation (see tflc_kernels.h) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#elif defined(_MSC_VER)
#pragma fp_contract(off)
#endif

/* ---- writer state --------------------------------------------------------
 * Everything the caller describes is copied into heap arrays owned by the
 * writer. tflc_writer_finish lowers that description (compression applied)
 * into a temporary view and serialises the view. */

#define TFLC__FB_MAX_SIZE 0x7fffffffu /* flatbuffers' 2 GiB limit */
#define TFLC__WRITER_MAX_COUNT ((size_t)0x7fffffff)

typedef struct tflc__writer_option tflc__writer_option;

typedef struct tflc__writer_tensor {
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
  uint8_t qdtype;          /* QuantizationParameters.details union type */
  tflc__writer_option *qd; /* its table */
  int32_t nqd;
  /* compression: cformat 0 = none */
  int cformat, cbits;
  uint32_t cstride;
  uint8_t *cidx; /* packed indices */
  size_t cidx_size;
  uint8_t *cvals; /* value tables, channels * stride elements */
  size_t cvals_size;
  /* DECODE data made elsewhere (Huffman, Prune): cidx holds the encoded
   * bytes, canc the whole ancillary data (DCM included) */
  uint8_t *canc;
  size_t canc_size;
} tflc__writer_tensor;

struct tflc__writer_option {
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

typedef struct tflc__writer_op {
  uint32_t opcode;
  int32_t nin, nout;
  int32_t *in, *out;
  uint8_t otype;
  int32_t nopts;
  tflc__writer_option *opts;
  /* fields the model copier keeps (all zero = not written) */
  uint8_t otype2; /* builtin_options_2 */
  int32_t nopts2;
  tflc__writer_option *opts2;
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
} tflc__writer_op;

typedef struct tflc__writer_subgraph {
  tflc__writer_tensor *t;
  size_t nt, ct;
  tflc__writer_op *op;
  size_t nop, cop;
  int32_t *in, *out;
  int32_t nin, nout;
  char *name;
  int has_dbg; /* debug_metadata_index */
  int32_t dbg;
} tflc__writer_subgraph;

typedef struct tflc__writer_opcode {
  int32_t code;
  char *custom;
  int raw;         /* copied: write dep, version, code as stored */
  int32_t dep;     /* deprecated_builtin_code */
  int32_t version; /* OperatorCode.version */
  int has_code;    /* builtin_code present (raw) */
} tflc__writer_opcode;

typedef struct tflc__writer_tensor_map {
  char *name;
  uint32_t tensor;
} tflc__writer_tensor_map;

typedef struct tflc__writer_signature {
  tflc__writer_tensor_map *in, *out;
  int32_t nin, nout;
  int has_in, has_out;
  char *key;
  uint32_t sg;
} tflc__writer_signature;

typedef struct tflc__writer_buffer {
  uint8_t *data;
  size_t size;
} tflc__writer_buffer;

typedef struct tflc__writer_metadata {
  char *name;
  uint32_t buffer;
} tflc__writer_metadata;

struct tflc_writer {
  unsigned flags;
  tflc_status err;
  tflc__writer_subgraph *sg;
  size_t nsg, csg;
  tflc__writer_opcode *oc;
  size_t noc, coc;
  tflc__writer_buffer *buf;
  size_t nbuf, cbuf;
  tflc__writer_metadata *meta;
  size_t nmeta, cmeta;
  /* Model fields the copier keeps */
  int raw_model; /* copied: version, description as stored */
  uint32_t version;
  char *description; /* NULL = absent */
  int has_mbuf;      /* metadata_buffer (buffer indices) */
  int32_t *mbuf;
  int32_t nmbuf;
  tflc__writer_signature *sig;
  int32_t nsig;
};

/* Grows an array to hold `need` elements; returns the (maybe moved) array,
 * or NULL leaving the old one intact. */
static void *tflc__host_grow(void *p, size_t *cap, size_t need, size_t esize) {
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
static void *tflc__host_alloc(size_t n, size_t esize) {
  if (esize && n > ((size_t)-1) / esize)
    return NULL;
  n *= esize;
  return malloc(n ? n : 1);
}

/* Copy of n elements of esize bytes (p may be NULL when n == 0). */
static void *tflc__host_dup(const void *p, size_t n, size_t esize) {
  void *q = tflc__host_alloc(n, esize);
  if (q && n)
    memcpy(q, p, n * esize);
  return q;
}

static char *tflc__host_strdup(const char *s) {
  return s ? (char *)tflc__host_dup(s, strlen(s) + 1, 1) : NULL;
}

static void tflc__writer_fail(tflc_writer *w, tflc_status s) {
  if (w->err == TFLC_OK)
    w->err = s;
}

static tflc__writer_subgraph *tflc__writer_get_subgraph(tflc_writer *w,
                                                        int32_t sg) {
  if (!w || sg < 0 || (size_t)sg >= w->nsg)
    return NULL;
  return &w->sg[sg];
}

/* Appends a buffer (copy of data); returns its index or 0 on failure. */
static uint32_t tflc__writer_add_buffer(tflc_writer *w, const void *data,
                                        size_t size) {
  void *np;
  uint8_t *copy = NULL;
  if (w->nbuf >= TFLC__WRITER_MAX_COUNT)
    return 0;
  np = tflc__host_grow(w->buf, &w->cbuf, w->nbuf + 1, sizeof *w->buf);
  if (!np)
    return 0;
  w->buf = (tflc__writer_buffer *)np;
  if (data && size) {
    copy = (uint8_t *)tflc__host_dup(data, size, 1);
    if (!copy)
      return 0;
  } else {
    size = 0;
  }
  w->buf[w->nbuf].data = copy;
  w->buf[w->nbuf].size = size;
  return (uint32_t)w->nbuf++;
}

static void tflc__writer_free_options(tflc__writer_option *o, int32_t n) {
  int32_t i;
  for (i = 0; o && i < n; i++) {
    free(o[i].vec);
    free(o[i].str);
    free(o[i].bytes);
  }
  free(o);
}

static void tflc__writer_free_op(tflc__writer_op *o) {
  free(o->in);
  free(o->out);
  tflc__writer_free_options(o->opts, o->nopts);
  tflc__writer_free_options(o->opts2, o->nopts2);
  free(o->copts);
  free(o->mut);
  free(o->inter);
}

static void tflc__writer_free_tensor(tflc__writer_tensor *t) {
  free(t->dims);
  free(t->name);
  free(t->scale);
  free(t->zp);
  free(t->cidx);
  free(t->cvals);
  free(t->canc);
  free(t->sig);
  free(t->qmin);
  free(t->qmax);
  tflc__writer_free_options(t->qd, t->nqd);
}

TFLC_API void tflc_writer_destroy(tflc_writer *w) {
  size_t i, j;
  if (!w)
    return;
  for (i = 0; i < w->nsg; i++) {
    tflc__writer_subgraph *s = &w->sg[i];
    for (j = 0; j < s->nt; j++)
      tflc__writer_free_tensor(&s->t[j]);
    for (j = 0; j < s->nop; j++)
      tflc__writer_free_op(&s->op[j]);
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
    tflc__writer_signature *d = &w->sig[i];
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
  if (!w || w->nsg >= TFLC__WRITER_MAX_COUNT)
    return -1;
  np = tflc__host_grow(w->sg, &w->csg, w->nsg + 1, sizeof *w->sg);
  if (!np) {
    tflc__writer_fail(w, TFLC_ERR_ARENA);
    return -1;
  }
  w->sg = (tflc__writer_subgraph *)np;
  memset(&w->sg[w->nsg], 0, sizeof w->sg[0]);
  return (int32_t)w->nsg++;
}

TFLC_API tflc_writer *tflc_writer_create(void) {
  tflc_writer *w = (tflc_writer *)calloc(1, sizeof(tflc_writer));
  if (!w)
    return NULL;
  w->err = TFLC_OK;
  /* buffer 0: the empty sentinel; subgraph 0: the main graph */
  tflc__writer_add_buffer(w, NULL, 0);
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
  tflc__writer_subgraph *s = tflc__writer_get_subgraph(w, sg);
  char *copy;
  if (!s) {
    if (w)
      tflc__writer_fail(w, TFLC_ERR_INDEX);
    return;
  }
  copy = tflc__host_strdup(name);
  if (name && !copy) {
    tflc__writer_fail(w, TFLC_ERR_ARENA);
    return;
  }
  free(s->name);
  s->name = copy;
}

TFLC_API int32_t tflc_writer_tensor(tflc_writer *w, int32_t sg, int type,
                                    int32_t rank, const int32_t *dims,
                                    const void *data, size_t data_size,
                                    const char *name, const tflc_w_quant *q) {
  tflc__writer_subgraph *s = tflc__writer_get_subgraph(w, sg);
  tflc__writer_tensor t;
  void *np;
  int32_t i;
  if (!s || rank < 0 || (rank > 0 && !dims) || type < -128 || type > 127 ||
      s->nt >= TFLC__WRITER_MAX_COUNT)
    return -1;
  if (q && (q->count < 0 || (q->count > 0 && !q->scale)))
    return -1;
  memset(&t, 0, sizeof t);
  t.type = type;
  t.rank = rank;
  t.dims = (int32_t *)tflc__host_dup(dims, (size_t)rank, sizeof(int32_t));
  t.name = tflc__host_strdup(name);
  if (q) {
    t.has_q = 1;
    t.qcount = q->count;
    t.qaxis = q->axis;
    t.scale =
        (float *)tflc__host_dup(q->scale, (size_t)q->count, sizeof(float));
    t.zp = (int64_t *)tflc__host_alloc((size_t)q->count, sizeof(int64_t));
    if (t.zp) {
      for (i = 0; i < q->count; i++)
        t.zp[i] = q->zero_point ? q->zero_point[i] : 0;
    }
  }
  np = tflc__host_grow(s->t, &s->ct, s->nt + 1, sizeof *s->t);
  if (np)
    s->t = (tflc__writer_tensor *)np;
  if (!np || !t.dims || (name && !t.name) || (q && (!t.scale || !t.zp)))
    goto oom;
  if (data) {
    t.buffer = tflc__writer_add_buffer(w, data, data_size);
    if (t.buffer == 0)
      goto oom;
  }
  s->t[s->nt] = t;
  return (int32_t)s->nt++;
oom:
  tflc__writer_free_tensor(&t);
  tflc__writer_fail(w, TFLC_ERR_ARENA);
  return -1;
}

TFLC_API void tflc_writer_set_variable(tflc_writer *w, int32_t sg,
                                       int32_t tensor, int is_variable) {
  tflc__writer_subgraph *s = tflc__writer_get_subgraph(w, sg);
  if (!s || tensor < 0 || (size_t)tensor >= s->nt) {
    if (w)
      tflc__writer_fail(w, TFLC_ERR_INDEX);
    return;
  }
  s->t[tensor].is_variable = is_variable != 0;
}

TFLC_API void tflc_writer_custom_options(tflc_writer *w, int32_t sg, int32_t op,
                                         const void *bytes, size_t n) {
  tflc__writer_subgraph *s = tflc__writer_get_subgraph(w, sg);
  uint8_t *copy;
  if (!s || op < 0 || (size_t)op >= s->nop || (n && !bytes)) {
    if (w)
      tflc__writer_fail(w, s ? TFLC_ERR_ARG : TFLC_ERR_INDEX);
    return;
  }
  copy = (uint8_t *)(n ? tflc__host_dup(bytes, n, 1) : tflc__host_alloc(1, 1));
  if (!copy) {
    tflc__writer_fail(w, TFLC_ERR_ARENA);
    return;
  }
  free(s->op[op].copts);
  s->op[op].copts = copy;
  s->op[op].ncopts = n;
  s->op[op].has_copts = 1;
}

static void tflc__writer_set_io(tflc_writer *w, int32_t sg, int32_t n,
                                const int32_t *tensors, int outputs) {
  tflc__writer_subgraph *s = tflc__writer_get_subgraph(w, sg);
  int32_t *copy;
  if (!s || n < 0 || (n > 0 && !tensors)) {
    if (w)
      tflc__writer_fail(w, s ? TFLC_ERR_ARG : TFLC_ERR_INDEX);
    return;
  }
  copy = (int32_t *)tflc__host_dup(tensors, (size_t)n, sizeof(int32_t));
  if (!copy) {
    tflc__writer_fail(w, TFLC_ERR_ARENA);
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
  tflc__writer_set_io(w, sg, n, tensors, 0);
}

TFLC_API void tflc_writer_outputs(tflc_writer *w, int32_t sg, int32_t n,
                                  const int32_t *tensors) {
  tflc__writer_set_io(w, sg, n, tensors, 1);
}

static int tflc__host_streq(const char *a, const char *b) {
  if (!a || !b)
    return a == b;
  return strcmp(a, b) == 0;
}

/* Index of operator code (code, custom), added when new; -1 on failure. */
static int32_t tflc__writer_find_opcode(tflc_writer *w, int32_t code,
                                        const char *custom) {
  size_t i;
  void *np;
  char *copy;
  for (i = 0; i < w->noc; i++)
    if (w->oc[i].code == code && tflc__host_streq(w->oc[i].custom, custom))
      return (int32_t)i;
  if (w->noc >= TFLC__WRITER_MAX_COUNT)
    return -1;
  np = tflc__host_grow(w->oc, &w->coc, w->noc + 1, sizeof *w->oc);
  if (!np)
    return -1;
  w->oc = (tflc__writer_opcode *)np;
  copy = tflc__host_strdup(custom);
  if (custom && !copy)
    return -1;
  memset(&w->oc[w->noc], 0, sizeof w->oc[0]);
  w->oc[w->noc].code = code;
  w->oc[w->noc].custom = copy;
  return (int32_t)w->noc++;
}

/* 1 if n options are well formed (known kind, sizes, no slot twice). */
static int tflc__writer_options_valid(const tflc_w_option *opts, int32_t n) {
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
 * copied is in *out, *nout, for tflc__writer_free_options). */
static int tflc__writer_copy_options(const tflc_w_option *opts, int32_t n,
                                     tflc__writer_option **out, int32_t *nout) {
  tflc__writer_option *o =
      (tflc__writer_option *)tflc__host_alloc((size_t)n, sizeof *o);
  int32_t i;
  *out = o;
  *nout = 0;
  if (!o)
    return 0;
  for (i = 0; i < n; i++) {
    tflc__writer_option *d = &o[i];
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
      d->vec = (int32_t *)tflc__host_dup(opts[i].vec, (size_t)d->vec_len,
                                         sizeof(int32_t));
      if (!d->vec)
        return 0;
    } else if (d->kind == TFLC_W_STR) {
      d->str = tflc__host_strdup(opts[i].str);
      if (!d->str)
        return 0;
    } else if (d->kind == TFLC_W_RAW_VEC) {
      d->count = opts[i].count;
      d->bytes = (uint8_t *)tflc__host_dup(opts[i].bytes, (size_t)d->count,
                                           (size_t)d->size);
      if (!d->bytes)
        return 0;
    }
  }
  return 1;
}

/* Appends operator o (taken over; freed on failure) to s. */
static int32_t tflc__writer_push_op(tflc_writer *w, tflc__writer_subgraph *s,
                                    tflc__writer_op *o) {
  void *np = tflc__host_grow(s->op, &s->cop, s->nop + 1, sizeof *s->op);
  if (!np) {
    tflc__writer_free_op(o);
    tflc__writer_fail(w, TFLC_ERR_ARENA);
    return -1;
  }
  s->op = (tflc__writer_op *)np;
  s->op[s->nop] = *o;
  return (int32_t)s->nop++;
}

TFLC_API int32_t tflc_writer_op(tflc_writer *w, int32_t sg,
                                int32_t builtin_code, const char *custom_code,
                                int32_t nin, const int32_t *inputs,
                                int32_t nout, const int32_t *outputs,
                                uint8_t options_type, int32_t nopts,
                                const tflc_w_option *opts) {
  tflc__writer_subgraph *s = tflc__writer_get_subgraph(w, sg);
  tflc__writer_op o;
  int32_t oc;
  if (!s || builtin_code < 0 || nin < 0 || nout < 0 || nopts < 0 ||
      (nin > 0 && !inputs) || (nout > 0 && !outputs) ||
      (nopts > 0 && (!opts || options_type == 0)) ||
      s->nop >= TFLC__WRITER_MAX_COUNT ||
      !tflc__writer_options_valid(opts, nopts))
    return -1;
  memset(&o, 0, sizeof o);
  o.nin = nin;
  o.nout = nout;
  o.otype = options_type;
  o.in = (int32_t *)tflc__host_dup(inputs, (size_t)nin, sizeof(int32_t));
  o.out = (int32_t *)tflc__host_dup(outputs, (size_t)nout, sizeof(int32_t));
  if (!o.in || !o.out ||
      !tflc__writer_copy_options(opts, nopts, &o.opts, &o.nopts))
    goto oom;
  oc = tflc__writer_find_opcode(w, builtin_code, custom_code);
  if (oc < 0)
    goto oom;
  o.opcode = (uint32_t)oc;
  return tflc__writer_push_op(w, s, &o);
oom:
  tflc__writer_free_op(&o);
  tflc__writer_fail(w, TFLC_ERR_ARENA);
  return -1;
}

TFLC_API int32_t tflc_writer_metadata(tflc_writer *w, const char *name,
                                      const void *data, size_t size) {
  void *np;
  char *copy;
  uint32_t b;
  if (!w || !name || w->nmeta >= TFLC__WRITER_MAX_COUNT)
    return -1;
  np = tflc__host_grow(w->meta, &w->cmeta, w->nmeta + 1, sizeof *w->meta);
  if (!np)
    goto oom;
  w->meta = (tflc__writer_metadata *)np;
  copy = tflc__host_strdup(name);
  if (!copy)
    goto oom;
  b = tflc__writer_add_buffer(w, data, size);
  if (b == 0) {
    free(copy);
    goto oom;
  }
  w->meta[w->nmeta].name = copy;
  w->meta[w->nmeta].buffer = b;
  w->nmeta++;
  return (int32_t)b;
oom:
  tflc__writer_fail(w, TFLC_ERR_ARENA);
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
static size_t tflc__writer_value_size(int type) {
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

static uint64_t tflc__writer_sort_key(int type, const uint8_t *p,
                                      size_t esize) {
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

static void tflc__writer_from_sort_key(int type, uint64_t key, uint8_t *p,
                                       size_t esize) {
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

static int tflc__host_cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

TFLC_API tflc_status tflc_writer_compress(tflc_writer *w, int32_t sg,
                                          int32_t tensor, int bits, int format,
                                          int pad_pow2) {
  tflc__writer_subgraph *s = tflc__writer_get_subgraph(w, sg);
  tflc__writer_tensor *t;
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
  esize = tflc__writer_value_size(t->type);
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
    if (count > TFLC__WRITER_MAX_COUNT / (size_t)t->dims[d])
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
  keys = (uint64_t *)tflc__host_alloc(count, sizeof(uint64_t));
  sorted = (uint64_t *)tflc__host_alloc(count, sizeof(uint64_t));
  idx = (uint32_t *)tflc__host_alloc(count, sizeof(uint32_t));
  ucount = (size_t *)tflc__host_alloc(channels, sizeof(size_t));
  if (!keys || !sorted || !idx || !ucount) {
    st = TFLC_ERR_ARENA;
    goto done;
  }
  /* keys[i] in element order; sorted: channel-major copy */
  for (i = 0; i < count; i++) {
    keys[i] = tflc__writer_sort_key(t->type, data + i * esize, esize);
    if (alt)
      sorted[(i % channels) * epc + i / channels] = keys[i];
    else
      sorted[i] = keys[i];
  }
  for (c = 0; c < channels; c++) {
    uint64_t *seg = sorted + c * epc;
    size_t u = 0;
    qsort(seg, epc, sizeof(uint64_t), tflc__host_cmp_u64);
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
      tflc__writer_from_sort_key(t->type, sorted[c * epc + j],
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

/* ---- Huffman, Prune and INT4 ----------------------------------------------
 * Huffman: code lengths by merging the two lightest nodes (symbols sorted
 * by count then value, so the code depends on the data alone), canonical
 * codewords, then TFLM's lookup table: a first level of 2^F entries; a
 * codeword resolved at a level fills every entry sharing its bits there,
 * with the count of its bits at that level; longer ones go through a link
 * to a sub-table of width min(longest remaining bits, cap), placed after
 * everything built so far (links point forward). Every (F, cap) layout is
 * built and the smallest kept (an extra lookup per 64 elements counting a
 * byte). */

#define TFLC__HUFF_MAX_WIDTH 15 /* a level's bits; the count field holds 15 */

typedef struct tflc__huff_sym {
  uint32_t value; /* element bits (low 8 or 16) */
  uint64_t freq;
  int len;        /* codeword bits */
  uint32_t code;  /* canonical codeword (len <= 32 bits) */
  uint32_t wend;  /* bits from the codeword's start to its last lookup's end */
  uint32_t looks; /* lookups */
} tflc__huff_sym;

static int tflc__host_cmp_huff_freq(const void *a, const void *b) {
  const tflc__huff_sym *x = (const tflc__huff_sym *)a,
                       *y = (const tflc__huff_sym *)b;
  if (x->freq != y->freq)
    return x->freq < y->freq ? -1 : 1;
  return (x->value > y->value) - (x->value < y->value);
}
static int tflc__host_cmp_huff_code(const void *a, const void *b) {
  const tflc__huff_sym *x = (const tflc__huff_sym *)a,
                       *y = (const tflc__huff_sym *)b;
  if (x->len != y->len)
    return x->len - y->len;
  return (x->value > y->value) - (x->value < y->value);
}

/* Code lengths for n >= 1 symbols sorted by increasing frequency: the
 * two-queue Huffman construction (leaves in order, merged nodes in
 * creation order, both non-decreasing); a lone symbol gets 1 bit. Returns
 * 0 on out of memory or a code longer than 32 bits. */
static int tflc__huff_lengths(tflc__huff_sym *s, size_t n) {
  uint64_t *w;
  size_t *parent, leaf = 0, node, nodes, i;
  int ok = 1;
  if (n == 1) {
    s[0].len = 1;
    return 1;
  }
  w = (uint64_t *)tflc__host_alloc(n - 1, sizeof(uint64_t));
  parent = (size_t *)tflc__host_alloc(2 * n - 1, sizeof(size_t));
  if (!w || !parent) {
    free(w);
    free(parent);
    return 0;
  }
  node = 0;  /* next merged node to take */
  nodes = 0; /* merged nodes made */
  while (nodes < n - 1) {
    size_t pick[2], k;
    uint64_t sum = 0;
    for (k = 0; k < 2; k++) {
      /* the lighter of the next leaf and the next merged node (leaves
       * first on ties) */
      if (leaf < n && (node >= nodes || s[leaf].freq <= w[node])) {
        pick[k] = leaf;
        sum += s[leaf++].freq;
      } else {
        pick[k] = n + node;
        sum += w[node++];
      }
    }
    w[nodes] = sum;
    parent[pick[0]] = parent[pick[1]] = n + nodes;
    nodes++;
  }
  /* depth: the root is the last merged node */
  for (i = 0; i < n; i++) {
    size_t x = i;
    int d = 0;
    while (x != 2 * n - 2) {
      x = parent[x];
      d++;
    }
    s[i].len = d;
    if (d > 32)
      ok = 0;
  }
  free(w);
  free(parent);
  return ok;
}

typedef struct tflc__huff_layout {
  uint32_t *e; /* entries (32-bit layout; narrowed when written) */
  size_t n, cap;
  int wide;       /* 16-bit entries hold 11-bit offsets and values */
  int fail;       /* an offset did not fit, or out of memory */
  uint64_t looks; /* sum over elements of lookups */
} tflc__huff_layout;

static uint32_t tflc__huff_sym_entry(int wide, int count, uint32_t v) {
  return wide ? 0x80000000u | ((uint32_t)count << 27) | (v & 0x07FFFFFFu)
              : 0x8000u | ((uint32_t)count << 11) | (v & 0x07FFu);
}

/* Table for the codewords list[0..n) sharing their first b bits, at
 * `base`, `width` bits wide, sub-tables at most `cap` bits. */
static void tflc__huff_build(tflc__huff_layout *L, tflc__huff_sym **list,
                             size_t n, int b, size_t base, int width, int cap,
                             uint32_t depth) {
  size_t i, j;
  for (i = 0; i < n; i++) {
    tflc__huff_sym *h = list[i];
    const int rest = h->len - b;
    if (rest <= width) {
      const uint32_t bits = h->code & (uint32_t)((1ull << rest) - 1u);
      const size_t first = (size_t)bits << (width - rest);
      size_t k;
      for (k = 0; k < ((size_t)1 << (width - rest)); k++)
        L->e[base + first + k] = tflc__huff_sym_entry(L->wide, rest, h->value);
      h->wend = (uint32_t)(b + width);
      h->looks = depth;
      L->looks += h->freq * depth;
    }
  }
  for (i = 0; i < n && !L->fail; i++) {
    tflc__huff_sym *h = list[i], **group;
    uint32_t idx;
    size_t ng = 0, sub, link;
    int longest = 0, sub_w;
    if (h->len - b <= width)
      continue;
    idx = (h->code >> (h->len - b - width)) & ((1u << width) - 1u);
    if (L->e[base + idx] != 0xFFFFFFFFu)
      continue; /* its group has its sub-table */
    group = (tflc__huff_sym **)tflc__host_alloc(n, sizeof *group);
    if (!group) {
      L->fail = 1;
      return;
    }
    for (j = 0; j < n; j++) {
      tflc__huff_sym *g = list[j];
      if (g->len - b > width &&
          ((g->code >> (g->len - b - width)) & ((1u << width) - 1u)) == idx) {
        group[ng++] = g;
        if (g->len - b - width > longest)
          longest = g->len - b - width;
      }
    }
    sub_w = longest < cap ? longest : cap;
    sub = L->n;
    link = sub - (base + idx);
    if (link > (L->wide ? 0x07FFFFFFu : 0x07FFu) ||
        sub + ((size_t)1 << sub_w) > L->cap) {
      L->fail = 1;
      free(group);
      return;
    }
    L->n += (size_t)1 << sub_w;
    for (j = sub; j < L->n; j++)
      L->e[j] = 0xFFFFFFFFu;
    L->e[base + idx] =
        (uint32_t)((uint32_t)(sub_w - 1) << (L->wide ? 27 : 11)) |
        (uint32_t)link;
    tflc__huff_build(L, group, ng, b + width, sub, sub_w, cap, depth + 1);
    free(group);
  }
}

/* Builds the layout (first level F bits, sub-tables <= cap bits) of the n
 * codes; 0 when it does not fit (offsets) or memory runs out. */
static int tflc__huff_layout_build(tflc__huff_layout *L, tflc__huff_sym *s,
                                   size_t n, int wide, int first, int cap) {
  tflc__huff_sym **list = (tflc__huff_sym **)tflc__host_alloc(n, sizeof *list);
  size_t i, need = (size_t)1 << first;
  if (!list)
    return 0;
  /* an upper bound of the entries: the first level plus, per codeword,
   * one sub-table of at most 2^cap entries per level it passes */
  for (i = 0; i < n; i++) {
    list[i] = &s[i];
    if (s[i].len > first)
      need += (size_t)((s[i].len - first + cap - 1) / cap) << cap;
  }
  L->e = (uint32_t *)tflc__host_alloc(need, sizeof(uint32_t));
  L->cap = need;
  L->n = (size_t)1 << first;
  L->wide = wide;
  L->fail = !L->e;
  L->looks = 0;
  for (i = 0; L->e && i < L->n; i++)
    L->e[i] = 0xFFFFFFFFu;
  if (!L->fail)
    tflc__huff_build(L, list, n, 0, 0, first, cap, 1);
  free(list);
  if (L->fail) {
    free(L->e);
    L->e = NULL;
  }
  return !L->fail;
}

/* Symbols of `count` elements of es bytes (little-endian) with their
 * counts, sorted by (count, value); *keys gets each element's value.
 * Returns the number of symbols, 0 on out of memory. */
static size_t tflc__huff_symbols(const uint8_t *d, size_t count, size_t es,
                                 uint32_t **keys, tflc__huff_sym **syms) {
  const size_t nv = (size_t)1 << (8 * es);
  uint64_t *hist = (uint64_t *)calloc(nv, sizeof(uint64_t));
  size_t i, k, nsym = 0;
  *keys = (uint32_t *)tflc__host_alloc(count, sizeof(uint32_t));
  *syms = NULL;
  if (!hist || !*keys) {
    free(hist);
    return 0;
  }
  for (i = 0; i < count; i++) {
    const uint32_t v =
        es == 1 ? d[i] : (uint32_t)d[2 * i] | ((uint32_t)d[2 * i + 1] << 8);
    (*keys)[i] = v;
    nsym += hist[v]++ == 0;
  }
  *syms = (tflc__huff_sym *)calloc(nsym, sizeof(tflc__huff_sym));
  if (!*syms) {
    free(hist);
    return 0;
  }
  for (i = 0, k = 0; i < nv; i++)
    if (hist[i]) {
      (*syms)[k].value = (uint32_t)i;
      (*syms)[k++].freq = hist[i];
    }
  free(hist);
  qsort(*syms, nsym, sizeof(tflc__huff_sym), tflc__host_cmp_huff_freq);
  return nsym;
}

TFLC_API tflc_status tflc_encode_huffman(int type, const void *data,
                                         size_t count, int table_bits,
                                         int first_bits, uint8_t **enc,
                                         size_t *n_enc, uint8_t **anc,
                                         size_t *n_anc) {
  const uint8_t *d = (const uint8_t *)data;
  const size_t es = type == TFLC_INT8 ? 1u : type == TFLC_INT16 ? 2u : 0u;
  tflc__huff_sym *s = NULL;
  tflc__huff_layout L;
  uint32_t *keys = NULL, *pos = NULL;
  size_t nsym, i, best_cost = 0, need_bits = 0, nbytes, esz;
  uint64_t bitpos = 0;
  int maxlen = 0, f, cap, wide, best_f = 0, best_cap = 0, best_wide = -1;
  tflc_status st = TFLC_OK;
  *enc = *anc = NULL;
  *n_enc = *n_anc = 0;
  memset(&L, 0, sizeof L);
  if (!es)
    return TFLC_ERR_TYPE;
  if (count == 0 || count > 0x7fffffffu || !data)
    return TFLC_ERR_BUFFER;
  if ((table_bits != 0 && table_bits != 16 && table_bits != 32) ||
      (table_bits == 16 && es == 2) || first_bits < 0 ||
      first_bits > TFLC__HUFF_MAX_WIDTH)
    return TFLC_ERR_ARG;
  nsym = tflc__huff_symbols(d, count, es, &keys, &s);
  pos = (uint32_t *)tflc__host_alloc((size_t)1 << (8 * es), sizeof(uint32_t));
  if (!nsym || !pos) {
    st = TFLC_ERR_ARENA;
    goto done;
  }
  if (!tflc__huff_lengths(s, nsym)) {
    st = TFLC_ERR_COMPRESSION; /* codewords over 32 bits */
    goto done;
  }
  /* canonical codewords: by (length, value), consecutive values */
  qsort(s, nsym, sizeof *s, tflc__host_cmp_huff_code);
  {
    uint32_t code = 0;
    for (i = 0; i < nsym; i++) {
      if (i)
        code = (code + 1u) << (s[i].len - s[i - 1].len);
      s[i].code = code;
      if (s[i].len > maxlen)
        maxlen = s[i].len;
      pos[s[i].value] = (uint32_t)i;
    }
  }
  /* the cheapest layout: 16-bit entries for INT8 unless asked otherwise or
   * no layout's links fit, 32-bit ones otherwise */
  for (wide = table_bits == 32 || es == 2 ? 1 : 0; wide <= 1; wide++) {
    const int fmax =
        maxlen < TFLC__HUFF_MAX_WIDTH ? maxlen : TFLC__HUFF_MAX_WIDTH;
    const int f0 = first_bits ? first_bits : 1,
              f1 = first_bits ? first_bits : fmax;
    for (f = f0; f <= f1; f++)
      for (cap = 1; cap <= fmax; cap++) {
        size_t cost;
        if (!tflc__huff_layout_build(&L, s, nsym, wide, f, cap))
          continue;
        cost = L.n * (wide ? 4u : 2u) + (size_t)((L.looks - count) / 64u);
        if (best_wide < 0 || cost < best_cost) {
          best_cost = cost;
          best_f = f;
          best_cap = cap;
          best_wide = wide;
        }
        free(L.e);
        L.e = NULL;
        if (maxlen <= f)
          break; /* one level: the cap plays no part */
      }
    if (best_wide >= 0 || table_bits == 16)
      break;
  }
  if (best_wide < 0 ||
      !tflc__huff_layout_build(&L, s, nsym, best_wide, best_f, best_cap)) {
    st = best_wide < 0 ? TFLC_ERR_COMPRESSION : TFLC_ERR_ARENA;
    goto done;
  }
  /* the stream: codewords MSB-first, zero bits up to the end of the last
   * lookup window, whole 32-bit words */
  for (i = 0; i < count; i++) {
    const tflc__huff_sym *h = &s[pos[keys[i]]];
    if (bitpos + h->wend > need_bits)
      need_bits = (size_t)(bitpos + h->wend);
    bitpos += (uint64_t)h->len;
  }
  nbytes = ((need_bits + 31u) / 32u) * 4u;
  esz = best_wide ? 4u : 2u;
  *enc = (uint8_t *)calloc(nbytes ? nbytes : 1, 1);
  *anc = (uint8_t *)calloc(16 + L.n * esz, 1);
  if (!*enc || !*anc) {
    st = TFLC_ERR_ARENA;
    goto done;
  }
  bitpos = 0;
  for (i = 0; i < count; i++) {
    const tflc__huff_sym *h = &s[pos[keys[i]]];
    int b;
    for (b = h->len - 1; b >= 0; b--, bitpos++)
      if ((h->code >> b) & 1u)
        (*enc)[bitpos / 8] =
            (uint8_t)((*enc)[bitpos / 8] | (0x80u >> (bitpos % 8)));
  }
  /* DCM: type 1, DCM version 1; Huffman version 1, (F - 1) << 4 | wide */
  (*anc)[0] = 1;
  (*anc)[1] = 1;
  (*anc)[4] = 1;
  (*anc)[5] = (uint8_t)(((unsigned)(best_f - 1) << 4) | (unsigned)best_wide);
  for (i = 0; i < L.n; i++) {
    size_t b;
    const uint32_t e = L.e[i] == 0xFFFFFFFFu ? 0u : L.e[i];
    for (b = 0; b < esz; b++)
      (*anc)[16 + i * esz + b] = (uint8_t)(e >> (8 * b));
  }
  *n_enc = nbytes;
  *n_anc = 16 + L.n * esz;
done:
  if (st != TFLC_OK) {
    free(*enc);
    free(*anc);
    *enc = *anc = NULL;
  }
  free(keys);
  free(pos);
  free(s);
  free(L.e);
  return st;
}

/* The value TFLM's Prune decoder writes for pruned elements of channel ch
 * (es bytes). */
typedef struct tflc__prune_rule {
  const int64_t *zp; /* per channel (TFLM's per-channel path) or NULL */
  int64_t zero;      /* otherwise */
  int32_t channels;
  int alt;
  size_t epc;
} tflc__prune_rule;

TFLC_API tflc_status tflc_encode_prune(int type, const void *data, size_t count,
                                       const int64_t *zero_points, int32_t n_zp,
                                       int32_t channels, int alt_axis,
                                       uint8_t **enc, size_t *n_enc,
                                       uint8_t **anc, size_t *n_anc) {
  const uint8_t *d = (const uint8_t *)data;
  size_t es, i, nk = 0;
  tflc__prune_rule z;
  int32_t k;
  int any = 0;
  *enc = *anc = NULL;
  *n_enc = *n_anc = 0;
  switch (type) {
  case TFLC_BOOL:
  case TFLC_INT8:
  case TFLC_INT16:
  case TFLC_INT32:
  case TFLC_INT64:
  case TFLC_FLOAT32:
    es = tflc_type_size(type);
    break;
  default:
    return TFLC_ERR_TYPE;
  }
  if (count == 0 || count > 0x7fffffffu || !data)
    return TFLC_ERR_BUFFER;
  memset(&z, 0, sizeof z);
  for (k = 0; zero_points && k < n_zp; k++)
    any |= zero_points[k] != 0;
  if (any && type != TFLC_INT8)
    return TFLC_ERR_QUANT; /* TFLM: "All zero-points must be zero" */
  if (n_zp > 0)
    z.zero = zero_points[0];
  if (type == TFLC_INT8 && channels > 1 && any) {
    if (count % (size_t)channels)
      return TFLC_ERR_QUANT; /* TFLM's per-channel loops need it */
    z.channels = channels;
    z.alt = alt_axis;
    z.epc = count / (size_t)channels;
    z.zp = n_zp == channels ? zero_points : NULL; /* else zp[0] for all */
  }
  *enc = (uint8_t *)calloc((count + 7) / 8, 1);
  *anc = (uint8_t *)calloc(16 + count * es, 1);
  if (!*enc || !*anc) {
    free(*enc);
    free(*anc);
    *enc = *anc = NULL;
    return TFLC_ERR_ARENA;
  }
  for (i = 0; i < count; i++) {
    const uint8_t *v = d + i * es;
    int pruned;
    if (es == 1) {
      int64_t zc = z.zero;
      if (z.zp)
        zc = z.zp[z.alt ? i % (size_t)z.channels : i / z.epc];
      pruned = v[0] == (uint8_t)((uint64_t)zc & 0xFFu);
    } else {
      size_t b;
      pruned = 1;
      for (b = 0; b < es; b++)
        pruned &= v[b] == 0;
    }
    if (!pruned) {
      (*enc)[i / 8] = (uint8_t)((*enc)[i / 8] | (0x80u >> (i % 8)));
      memcpy(*anc + 16 + nk * es, v, es);
      nk++;
    }
  }
  /* DCM: type 2, DCM version 1; Prune version 1 */
  (*anc)[0] = 2;
  (*anc)[1] = 1;
  (*anc)[4] = 1;
  *n_enc = (count + 7) / 8;
  *n_anc = 16 + nk * es;
  return TFLC_OK;
}

/* The elements of writer tensor t (checks shared by the encoders). */
static tflc_status tflc__writer_tensor_data(tflc_writer *w, int32_t sg,
                                            int32_t tensor,
                                            tflc__writer_tensor **tp,
                                            const uint8_t **data,
                                            size_t *count) {
  tflc__writer_subgraph *s = tflc__writer_get_subgraph(w, sg);
  tflc__writer_tensor *t;
  size_t es, n = 1;
  int32_t d;
  if (!w)
    return TFLC_ERR_ARG;
  if (!s || tensor < 0 || (size_t)tensor >= s->nt)
    return TFLC_ERR_INDEX;
  t = &s->t[tensor];
  if (t->cformat)
    return TFLC_ERR_STATE;
  if (t->buffer == 0 || w->buf[t->buffer].size == 0)
    return TFLC_ERR_BUFFER;
  es = tflc_type_size(t->type);
  if (!es)
    return TFLC_ERR_TYPE;
  for (d = 0; d < t->rank; d++) {
    if (t->dims[d] < 0)
      return TFLC_ERR_SHAPE;
    if (t->dims[d] == 0)
      return TFLC_ERR_BUFFER;
    if (n > TFLC__WRITER_MAX_COUNT / (size_t)t->dims[d])
      return TFLC_ERR_SHAPE;
    n *= (size_t)t->dims[d];
  }
  if (n > ((size_t)-1) / es || n * es != w->buf[t->buffer].size)
    return TFLC_ERR_BUFFER;
  *tp = t;
  *data = w->buf[t->buffer].data;
  *count = n;
  return TFLC_OK;
}

TFLC_API tflc_status tflc_writer_compress_huffman(tflc_writer *w, int32_t sg,
                                                  int32_t tensor,
                                                  int table_bits,
                                                  int first_bits) {
  tflc__writer_tensor *t;
  const uint8_t *data;
  size_t count;
  tflc_status st = tflc__writer_tensor_data(w, sg, tensor, &t, &data, &count);
  if (st != TFLC_OK)
    return st;
  st = tflc_encode_huffman(t->type, data, count, table_bits, first_bits,
                           &t->cidx, &t->cidx_size, &t->canc, &t->canc_size);
  if (st == TFLC_OK)
    t->cformat = TFLC_W_DECODE;
  return st;
}

TFLC_API tflc_status tflc_writer_compress_prune(tflc_writer *w, int32_t sg,
                                                int32_t tensor) {
  tflc__writer_tensor *t;
  const uint8_t *data;
  size_t count;
  int alt = 0;
  tflc_status st = tflc__writer_tensor_data(w, sg, tensor, &t, &data, &count);
  if (st != TFLC_OK)
    return st;
  if (t->has_q && t->qcount > 0) {
    /* TFLM's Prune: channels on axis 0 or (several) on the last axis */
    if (t->qcount > 1 && t->qaxis == t->rank - 1)
      alt = 1;
    else if (t->qaxis != 0)
      return TFLC_ERR_QUANT;
  }
  st = tflc_encode_prune(t->type, data, count, t->has_q ? t->zp : NULL,
                         t->has_q ? (t->nzp_set ? t->nzp : t->qcount) : 0,
                         t->has_q ? t->qcount : 1, alt, &t->cidx, &t->cidx_size,
                         &t->canc, &t->canc_size);
  if (st == TFLC_OK)
    t->cformat = TFLC_W_DECODE;
  return st;
}

TFLC_API tflc_status tflc_writer_to_int4(tflc_writer *w, int32_t sg,
                                         int32_t tensor) {
  tflc__writer_tensor *t;
  const uint8_t *data;
  size_t count, i;
  uint8_t *packed;
  uint32_t b;
  tflc_status st = tflc__writer_tensor_data(w, sg, tensor, &t, &data, &count);
  if (st != TFLC_OK)
    return st;
  if (t->type != TFLC_INT8)
    return TFLC_ERR_TYPE;
  for (i = 0; i < count; i++)
    if ((int8_t)data[i] < -8 || (int8_t)data[i] > 7)
      return TFLC_ERR_COMPRESSION;
  packed = (uint8_t *)calloc((count + 1) / 2, 1);
  if (!packed)
    return TFLC_ERR_ARENA;
  for (i = 0; i < count; i++)
    packed[i / 2] =
        (uint8_t)(packed[i / 2] | ((data[i] & 0x0Fu) << (i % 2 ? 4 : 0)));
  b = tflc__writer_add_buffer(w, packed, (count + 1) / 2);
  free(packed);
  if (b == 0)
    return TFLC_ERR_ARENA;
  t->buffer = b; /* the INT8 data stays behind, unreferenced */
  t->type = TFLC_INT4;
  return TFLC_OK;
}

/* ---- lowering: the model as it will be written ---------------------------
 * A view with shallow copies of the writer's tensors and operators, in
 * which compression has been applied: buffers swapped or appended, DECODE
 * operators and their tensors inserted. Memory made for the view is kept
 * in `tmp` and freed with it. */

typedef struct tflc__lower_buffer {
  const uint8_t *data;
  size_t size;
} tflc__lower_buffer;

typedef struct tflc__lower_subgraph {
  tflc__writer_tensor *t;
  size_t nt, ct;
  tflc__writer_op *op;
  size_t nop, cop;
  int32_t *out;
} tflc__lower_subgraph;

typedef struct tflc__lower_lut {
  size_t sg;
  int32_t tensor;
  uint32_t value_buffer;
  int bits;
} tflc__lower_lut;

typedef struct tflc__lower_metadata {
  const char *name;
  uint32_t buffer;
} tflc__lower_metadata;

typedef struct tflc__lower_model {
  tflc__lower_subgraph *sg;
  size_t nsg;
  tflc__lower_buffer *buf;
  size_t nbuf, cbuf;
  tflc__lower_metadata *meta;
  size_t nmeta;
  tflc__lower_lut *lut;
  size_t nlut, clut;
  void **tmp;
  size_t ntmp, ctmp;
} tflc__lower_model;

static void *tflc__lower_alloc(tflc__lower_model *L, size_t n, size_t esize) {
  void *np = tflc__host_grow(L->tmp, &L->ctmp, L->ntmp + 1, sizeof(void *)), *p;
  if (!np)
    return NULL;
  L->tmp = (void **)np;
  p = tflc__host_alloc(n, esize);
  if (p)
    L->tmp[L->ntmp++] = p;
  return p;
}

static void tflc__lower_free(tflc__lower_model *L) {
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
static uint32_t tflc__lower_add_buffer(tflc__lower_model *L,
                                       const uint8_t *data, size_t size) {
  void *np;
  if (L->nbuf >= TFLC__WRITER_MAX_COUNT)
    return 0;
  np = tflc__host_grow(L->buf, &L->cbuf, L->nbuf + 1, sizeof *L->buf);
  if (!np)
    return 0;
  L->buf = (tflc__lower_buffer *)np;
  L->buf[L->nbuf].data = data;
  L->buf[L->nbuf].size = size;
  return (uint32_t)L->nbuf++;
}

/* Appends a tensor to a view subgraph; returns its index or -1. */
static int32_t tflc__lower_add_tensor(tflc__lower_subgraph *s,
                                      const tflc__writer_tensor *t) {
  void *np;
  if (s->nt >= TFLC__WRITER_MAX_COUNT)
    return -1;
  np = tflc__host_grow(s->t, &s->ct, s->nt + 1, sizeof *s->t);
  if (!np)
    return -1;
  s->t = (tflc__writer_tensor *)np;
  s->t[s->nt] = *t;
  return (int32_t)s->nt++;
}

static int tflc__lower_add_op(tflc__lower_subgraph *s,
                              const tflc__writer_op *o) {
  void *np = tflc__host_grow(s->op, &s->cop, s->nop + 1, sizeof *s->op);
  if (!np)
    return 0;
  s->op = (tflc__writer_op *)np;
  s->op[s->nop++] = *o;
  return 1;
}

/* "<name><suffix>" in view memory. */
static char *tflc__lower_name(tflc__lower_model *L, const char *name,
                              const char *suffix) {
  size_t a = name ? strlen(name) : 0, b = strlen(suffix);
  char *p = (char *)tflc__lower_alloc(L, a + b + 1, 1);
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
static int tflc__lower_insert_decode(tflc__lower_model *L,
                                     tflc__lower_subgraph *s,
                                     uint32_t decode_opcode, const int32_t *enc,
                                     const int32_t *anc,
                                     const tflc__writer_tensor *orig,
                                     size_t orig_nt, int32_t *list, int32_t n) {
  int32_t i, j, k = 0;
  int32_t *din, *dout;
  tflc__writer_op d;
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
  din = (int32_t *)tflc__lower_alloc(L, (size_t)k, 2 * sizeof(int32_t));
  dout = (int32_t *)tflc__lower_alloc(L, (size_t)k, sizeof(int32_t));
  if (!din || !dout)
    return 0;
  k = 0;
  for (i = 0; i < n; i++) {
    int32_t ti = list[i], dec;
    tflc__writer_tensor nt;
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
    nt.name = tflc__lower_name(L, orig[ti].name, "_decoded");
    if (!nt.name)
      return 0;
    dec = tflc__lower_add_tensor(s, &nt);
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
  return tflc__lower_add_op(s, &d);
}

/* DECODE format for view subgraph `si`. */
static tflc_status
tflc__lower_decode_subgraph(tflc_writer *w, tflc__lower_model *L, size_t si) {
  tflc__writer_subgraph *ws = &w->sg[si];
  tflc__lower_subgraph *s = &L->sg[si];
  size_t orig_nt = ws->nt, ti, oi;
  int32_t *enc = NULL, *anct = NULL, i, j, dopc = -1;
  int compact = (w->flags & TFLC_W_FLAG_COMPACT) != 0;
  for (ti = 0; ti < orig_nt; ti++) {
    const tflc__writer_tensor *t = &ws->t[ti];
    int used = 0;
    tflc__writer_tensor et;
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
      enc = (int32_t *)tflc__lower_alloc(L, orig_nt, sizeof(int32_t));
      anct = (int32_t *)tflc__lower_alloc(L, orig_nt, sizeof(int32_t));
      if (!enc || !anct)
        return TFLC_ERR_ARENA;
      for (oi = 0; oi < orig_nt; oi++)
        enc[oi] = anct[oi] = -1;
      dopc = tflc__writer_find_opcode(w, TFLC_OP_CUSTOM, "TFLM_DECODE");
      if (dopc < 0)
        return TFLC_ERR_ARENA;
    }
    if (t->cvals_size > TFLC__WRITER_MAX_COUNT - 16 ||
        t->canc_size > TFLC__WRITER_MAX_COUNT ||
        t->cidx_size > TFLC__WRITER_MAX_COUNT)
      return TFLC_ERR_UNSUPPORTED; /* shape [n] must fit int32 */
    dims = (int32_t *)tflc__lower_alloc(L, 2, sizeof(int32_t));
    if (!dims)
      return TFLC_ERR_ARENA;
    if (t->canc) { /* Huffman / Prune: made whole by their encoder */
      asize = t->canc_size;
      anc = t->canc;
    } else {
      asize = 16 + t->cvals_size;
      anc = (uint8_t *)tflc__lower_alloc(L, asize, 1);
      if (!anc)
        return TFLC_ERR_ARENA;
      /* DCM: type 0 = LUT, DCM version 1; LUT version 1, bit width,
       * stride */
      memset(anc, 0, 16);
      anc[1] = 1;
      anc[4] = 1;
      anc[5] = (uint8_t)t->cbits;
      anc[6] = (uint8_t)t->cstride;
      memcpy(anc + 16, t->cvals, t->cvals_size);
    }
    dims[0] = (int32_t)t->cidx_size;
    dims[1] = (int32_t)asize;
    memset(&et, 0, sizeof et);
    et.type = TFLC_UINT8;
    et.rank = 1;
    et.dims = dims;
    et.buffer = tflc__lower_add_buffer(L, t->cidx, t->cidx_size);
    if (et.buffer == 0)
      return TFLC_ERR_ARENA;
    if (compact) { /* the original becomes the encoded tensor */
      et.name = t->name;
      s->t[ti] = et;
      enc[ti] = (int32_t)ti;
      for (oi = 0; oi < ti; oi++) { /* identical ancillary data: shared */
        const tflc__writer_tensor *at;
        const tflc__lower_buffer *ab;
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
      et.name = tflc__lower_name(L, t->name, "_encoded");
      if (!et.name)
        return TFLC_ERR_ARENA;
      enc[ti] = tflc__lower_add_tensor(s, &et);
      if (enc[ti] < 0)
        return TFLC_ERR_ARENA;
      s->t[ti].buffer = 0;
    }
    if (anct[ti] < 0) {
      et.dims = dims + 1;
      et.buffer = tflc__lower_add_buffer(L, anc, asize);
      et.name = tflc__lower_name(L, t->name, "_ancillary");
      if (et.buffer == 0 || !et.name)
        return TFLC_ERR_ARENA;
      anct[ti] = tflc__lower_add_tensor(s, &et);
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
    tflc__writer_op o = ws->op[oi];
    int need = 0;
    for (i = 0; i < o.nin; i++)
      if (o.in[i] >= 0 && (size_t)o.in[i] < orig_nt && enc[o.in[i]] >= 0)
        need = 1;
    if (need) {
      int32_t *in =
          (int32_t *)tflc__lower_alloc(L, (size_t)o.nin, sizeof(int32_t));
      if (!in)
        return TFLC_ERR_ARENA;
      for (j = 0; j < o.nin; j++)
        in[j] = o.in[j];
      o.in = in;
      if (!tflc__lower_insert_decode(L, s, (uint32_t)dopc, enc, anct, ws->t,
                                     orig_nt, in, o.nin))
        return TFLC_ERR_ARENA;
    }
    if (!tflc__lower_add_op(s, &o))
      return TFLC_ERR_ARENA;
  }
  if (!tflc__lower_insert_decode(L, s, (uint32_t)dopc, enc, anct, ws->t,
                                 orig_nt, s->out, ws->nout))
    return TFLC_ERR_ARENA;
  return TFLC_OK;
}

/* Builds the view. Buffers: the writer's, then per subgraph and tensor the
 * value table (METADATA) or encoded + ancillary data (DECODE), then the
 * COMPRESSION_METADATA flatbuffer (added by the caller). */
static tflc_status tflc__lower_writer(tflc_writer *w, tflc__lower_model *L) {
  size_t si, ti;
  tflc_status st;
  memset(L, 0, sizeof *L);
  L->sg = (tflc__lower_subgraph *)calloc(w->nsg, sizeof(tflc__lower_subgraph));
  if (!L->sg)
    return TFLC_ERR_ARENA;
  L->nsg = w->nsg;
  L->buf = (tflc__lower_buffer *)tflc__host_alloc(w->nbuf,
                                                  sizeof(tflc__lower_buffer));
  L->meta = (tflc__lower_metadata *)tflc__host_alloc(
      w->nmeta + 1, sizeof(tflc__lower_metadata));
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
    tflc__writer_subgraph *ws = &w->sg[si];
    tflc__lower_subgraph *s = &L->sg[si];
    s->t = (tflc__writer_tensor *)tflc__host_alloc(ws->nt,
                                                   sizeof(tflc__writer_tensor));
    s->op =
        (tflc__writer_op *)tflc__host_alloc(ws->nop, sizeof(tflc__writer_op));
    s->out = (int32_t *)tflc__lower_alloc(L, (size_t)ws->nout, sizeof(int32_t));
    if (!s->t || !s->op || !s->out)
      return TFLC_ERR_ARENA;
    s->nt = s->ct = ws->nt;
    s->nop = s->cop = ws->nop;
    if (ws->nt)
      memcpy(s->t, ws->t, ws->nt * sizeof(tflc__writer_tensor));
    if (ws->nop)
      memcpy(s->op, ws->op, ws->nop * sizeof(tflc__writer_op));
    if (ws->nout)
      memcpy(s->out, ws->out, (size_t)ws->nout * sizeof(int32_t));
    for (ti = 0; ti < ws->nt; ti++) {
      const tflc__writer_tensor *t = &ws->t[ti];
      void *np;
      if (t->cformat != TFLC_W_METADATA)
        continue;
      L->buf[t->buffer].data = t->cidx;
      L->buf[t->buffer].size = t->cidx_size;
      np = tflc__host_grow(L->lut, &L->clut, L->nlut + 1, sizeof *L->lut);
      if (!np)
        return TFLC_ERR_ARENA;
      L->lut = (tflc__lower_lut *)np;
      L->lut[L->nlut].sg = si;
      L->lut[L->nlut].tensor = (int32_t)ti;
      L->lut[L->nlut].bits = t->cbits;
      L->lut[L->nlut].value_buffer =
          tflc__lower_add_buffer(L, t->cvals, t->cvals_size);
      if (L->lut[L->nlut++].value_buffer == 0)
        return TFLC_ERR_ARENA;
    }
    st = tflc__lower_decode_subgraph(w, L, si);
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

typedef struct tflc__builder {
  uint8_t *p;
  size_t len, cap, limit;
  int err;     /* 1: out of memory, 2: over the size limit */
  int compact; /* share vtables, omit default scalars */
  size_t *vts; /* compact: positions of the distinct vtables */
  size_t nvts, cvts;
  /* compact: buffer data still to place (written where it needs no
   * padding, see tflc__builder_flush) */
  const struct tflc__lower_buffer *dbuf;
  const size_t *dat; /* per buffer: its Buffer.data field */
  size_t *dorder;    /* buffers to place, in order */
  size_t nd, id;
  int in_flush;
} tflc__builder;

typedef struct tflc__builder_field {
  uint16_t slot;
  uint8_t size;   /* 1, 2, 4 or 8 */
  uint8_t is_off; /* uoffset placeholder, patched later */
  uint64_t val;   /* scalar value (little-endian bits) */
  size_t pos;     /* out: absolute position of the field */
} tflc__builder_field;

/* Appends n zero bytes; returns their position (0 after an error). */
static size_t tflc__builder_alloc(tflc__builder *b, size_t n) {
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
static void tflc__builder_pad(tflc__builder *b, size_t align, size_t phase) {
  size_t n = (phase - (b->len & (align - 1))) & (align - 1);
  if (n)
    tflc__builder_alloc(b, n);
}

static void tflc__builder_put(tflc__builder *b, size_t pos, uint64_t v,
                              size_t n) {
  size_t k;
  if (b->err || pos > b->len || n > b->len - pos)
    return;
  for (k = 0; k < n; k++)
    b->p[pos + k] = (uint8_t)((v >> (8 * k)) & 0xffu);
}

/* Stores at `at` the uoffset to `target`. */
static void tflc__builder_patch(tflc__builder *b, size_t at, size_t target) {
  if (b->err)
    return;
  if (target <= at || target - at > TFLC__FB_MAX_SIZE) {
    b->err = 2;
    return;
  }
  tflc__builder_put(b, at, (uint64_t)(target - at), 4);
}

static size_t tflc__builder_vector(tflc__builder *b, size_t n, size_t esize,
                                   size_t align);
static void tflc__builder_flush(tflc__builder *b, int all);

/* Writes vtable + table; returns the table position. Fields are laid out
 * by decreasing size (8, 4, 2, 1) after the soffset, with the table start
 * chosen so that each lands on a multiple of its size. */
static size_t tflc__builder_table(tflc__builder *b, tflc__builder_field *f,
                                  size_t n) {
  size_t nslots = 0, tsize = 4, vsize, vt = 0, tb, off, i, k;
  unsigned sz;
  int has8 = 0, found = 0;
  uint8_t vtb[4 + 2 * 512];
  tflc__builder_flush(b, 0);
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
    tflc__builder_pad(b, 2, 0);
    vt = tflc__builder_alloc(b, vsize);
    if (b->err)
      return 0;
    memcpy(b->p + vt, vtb, vsize);
    if (b->compact) {
      void *np = tflc__host_grow(b->vts, &b->cvts, b->nvts + 1, sizeof(size_t));
      if (!np) {
        b->err = 1;
        return 0;
      }
      b->vts = (size_t *)np;
      b->vts[b->nvts++] = vt;
    }
  }
  if (has8)
    tflc__builder_pad(b, 8, 4);
  else
    tflc__builder_pad(b, 4, 0);
  tb = tflc__builder_alloc(b, tsize);
  if (b->err)
    return 0;
  tflc__builder_put(b, tb, (uint64_t)(tb - vt), 4);
  for (i = 0; i < n; i++) {
    f[i].pos += tb;
    tflc__builder_put(b, f[i].pos, f[i].is_off ? 0 : f[i].val, f[i].size);
  }
  return tb;
}

static void tflc__builder_scalar(tflc__builder_field *f, size_t *n,
                                 unsigned slot, unsigned size, uint64_t val) {
  f[*n].slot = (uint16_t)slot;
  f[*n].size = (uint8_t)size;
  f[*n].is_off = 0;
  f[*n].val = val;
  f[*n].pos = 0;
  (*n)++;
}

/* A scalar field, left out in compact mode when it equals its default. */
static void tflc__builder_scalar_nondefault(const tflc__builder *b,
                                            tflc__builder_field *f, size_t *n,
                                            unsigned slot, unsigned size,
                                            uint64_t val, uint64_t def) {
  if (!b->compact || val != def)
    tflc__builder_scalar(f, n, slot, size, val);
}

/* Adds an offset field; returns its index in f. */
static size_t tflc__builder_offset_field(tflc__builder_field *f, size_t *n,
                                         unsigned slot) {
  tflc__builder_scalar(f, n, slot, 4, 0);
  f[*n - 1].is_off = 1;
  return *n - 1;
}

/* Vector header for n elements of esize bytes, elements aligned to align
 * (4, 8 or 16); returns the position of the length field. */
static size_t tflc__builder_vector(tflc__builder *b, size_t n, size_t esize,
                                   size_t align) {
  size_t pos;
  tflc__builder_flush(b, 0);
  if (n > 0xffffffffu || (esize && n > (b->limit - 4) / esize)) {
    b->err = 2;
    return 0;
  }
  tflc__builder_pad(b, align, align - 4);
  pos = tflc__builder_alloc(b, 4 + n * esize);
  tflc__builder_put(b, pos, n, 4);
  return pos;
}

static size_t tflc__builder_i32s(tflc__builder *b, const int32_t *v, size_t n) {
  size_t pos = tflc__builder_vector(b, n, 4, 4), i;
  for (i = 0; i < n; i++)
    tflc__builder_put(b, pos + 4 + 4 * i, (uint32_t)v[i], 4);
  return pos;
}

static uint32_t tflc__host_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static size_t tflc__builder_string(tflc__builder *b, const char *s) {
  size_t n = strlen(s), pos = tflc__builder_vector(b, n + 1, 1, 4);
  tflc__builder_put(b, pos, n, 4); /* length excludes the NUL */
  if (!b->err)
    memcpy(b->p + pos + 4, s, n);
  return pos;
}

static size_t tflc__builder_bytes(tflc__builder *b, const uint8_t *d, size_t n,
                                  size_t align) {
  size_t pos = tflc__builder_vector(b, n, 1, align);
  if (!b->err && n)
    memcpy(b->p + pos + 4, d, n);
  return pos;
}

/* Compact mode: writes pending buffer data when the stream sits where a
 * 16-aligned data vector needs no padding (or, with all, the rest, the
 * one needing the most padding after it last). Called before each table
 * and vector, when no object is half written. */
static void tflc__builder_flush(tflc__builder *b, int all) {
  if (!b->dorder || b->in_flush)
    return;
  b->in_flush = 1;
  if (all && b->nd - b->id > 1) { /* largest trailing pad last */
    size_t k, best = b->id, t;
    for (k = b->id; k < b->nd; k++)
      if (((12 - b->dbuf[b->dorder[k]].size) & 15) >
          ((12 - b->dbuf[b->dorder[best]].size) & 15))
        best = k;
    t = b->dorder[best];
    for (k = best; k + 1 < b->nd; k++)
      b->dorder[k] = b->dorder[k + 1];
    b->dorder[b->nd - 1] = t;
  }
  while (b->id < b->nd && !b->err && (all || (b->len & 15) == 12)) {
    size_t k = b->dorder[b->id++];
    tflc__builder_patch(
        b, b->dat[k],
        tflc__builder_bytes(b, b->dbuf[k].data, b->dbuf[k].size, 16));
  }
  b->in_flush = 0;
}

static size_t tflc__builder_f32s(tflc__builder *b, const float *v, size_t n) {
  size_t pos = tflc__builder_vector(b, n, 4, 4), i;
  for (i = 0; i < n; i++)
    tflc__builder_put(b, pos + 4 + 4 * i, tflc__host_f32_bits(v[i]), 4);
  return pos;
}

/* A vector of n uoffsets (to tables written next); returns the position of
 * the first element. */
static size_t tflc__builder_offsets(tflc__builder *b, size_t n) {
  return tflc__builder_vector(b, n, 4, 4) + 4;
}

/* ---- TFLite tables ------------------------------------------------------ */

/* A table of option fields (builtin options, quantization details);
 * returns its position. */
static tflc_status tflc__serialize_options(tflc__builder *b,
                                           const tflc__writer_option *opts,
                                           int32_t nopts, size_t *table) {
  tflc__builder_field *of;
  size_t i, no = 0;
  *table = 0;
  of = (tflc__builder_field *)tflc__host_alloc((size_t)nopts, sizeof *of);
  if (!of)
    return TFLC_ERR_ARENA;
  for (i = 0; i < (size_t)nopts; i++) {
    const tflc__writer_option *p = &opts[i];
    switch (p->kind) {
    case TFLC_W_U8:
      tflc__builder_scalar(of, &no, p->slot, 1, (uint8_t)(p->i & 0xff));
      break;
    case TFLC_W_I32:
      tflc__builder_scalar(of, &no, p->slot, 4, (uint32_t)p->i);
      break;
    case TFLC_W_F32:
      tflc__builder_scalar(of, &no, p->slot, 4, tflc__host_f32_bits(p->f));
      break;
    case TFLC_W_RAW:
      tflc__builder_scalar(of, &no, p->slot, p->size, p->u);
      break;
    default: /* vector or string */
      tflc__builder_offset_field(of, &no, p->slot);
      break;
    }
  }
  *table = tflc__builder_table(b, of, no);
  for (i = 0; i < (size_t)nopts; i++) {
    const tflc__writer_option *p = &opts[i];
    if (p->kind == TFLC_W_I32_VEC) {
      tflc__builder_patch(b, of[i].pos,
                          tflc__builder_i32s(b, p->vec, (size_t)p->vec_len));
    } else if (p->kind == TFLC_W_STR) {
      tflc__builder_patch(b, of[i].pos, tflc__builder_string(b, p->str));
    } else if (p->kind == TFLC_W_RAW_VEC) {
      size_t al = p->align ? p->align : (p->size > 4 ? p->size : 4u);
      size_t pos = tflc__builder_vector(b, (size_t)p->count, p->size, al);
      if (!b->err && p->count)
        memcpy(b->p + pos + 4, p->bytes, (size_t)p->count * p->size);
      tflc__builder_patch(b, of[i].pos, pos);
    }
  }
  free(of);
  return TFLC_OK;
}

static void tflc__serialize_opcode(tflc__builder *b,
                                   const tflc__writer_opcode *oc,
                                   unsigned flags, size_t at) {
  tflc__builder_field f[4];
  size_t n = 0, tb, fc = 0;
  if (oc->raw) {
    tflc__builder_scalar_nondefault(b, f, &n, 0, 1, (uint8_t)(int8_t)oc->dep,
                                    0);
    tflc__builder_scalar_nondefault(b, f, &n, 2, 4, (uint32_t)oc->version, 1);
    if (oc->has_code || (b->compact && oc->code != 0))
      tflc__builder_scalar_nondefault(b, f, &n, 3, 4, (uint32_t)oc->code, 0);
  } else {
    int32_t dep = oc->code < 127 ? oc->code : 127;
    tflc__builder_scalar_nondefault(b, f, &n, 0, 1, (uint8_t)dep, 0);
    tflc__builder_scalar_nondefault(b, f, &n, 2, 4, 1, 1);
    if (!(flags & TFLC_W_FLAG_ONLY_DEPRECATED_CODE))
      tflc__builder_scalar_nondefault(b, f, &n, 3, 4, (uint32_t)oc->code, 0);
  }
  if (oc->custom)
    fc = tflc__builder_offset_field(f, &n, 1);
  tb = tflc__builder_table(b, f, n);
  tflc__builder_patch(b, at, tb);
  if (oc->custom)
    tflc__builder_patch(b, f[fc].pos, tflc__builder_string(b, oc->custom));
}

static tflc_status tflc__serialize_tensor(tflc__builder *b,
                                          const tflc__writer_tensor *t,
                                          size_t at) {
  tflc__builder_field f[10], q[8];
  size_t n = 0, fshape = 0, fname = 0, fq = 0, fsig = 0, tb, i, pos;
  if (!t->no_shape)
    fshape = tflc__builder_offset_field(f, &n, 0);
  tflc__builder_scalar_nondefault(b, f, &n, 1, 1, (uint8_t)(int8_t)t->type, 0);
  tflc__builder_scalar_nondefault(b, f, &n, 2, 4, t->buffer, 0);
  if (t->name)
    fname = tflc__builder_offset_field(f, &n, 3);
  if (t->has_q)
    fq = tflc__builder_offset_field(f, &n, 4);
  if (t->is_variable)
    tflc__builder_scalar(f, &n, 5, 1, 1);
  if (t->has_sig)
    fsig = tflc__builder_offset_field(f, &n, 7);
  if (t->has_rank)
    tflc__builder_scalar_nondefault(b, f, &n, 8, 1,
                                    (uint64_t)(t->has_rank == 2), 0);
  tb = tflc__builder_table(b, f, n);
  tflc__builder_patch(b, at, tb);
  if (!t->no_shape)
    tflc__builder_patch(b, f[fshape].pos,
                        tflc__builder_i32s(b, t->dims, (size_t)t->rank));
  if (t->name)
    tflc__builder_patch(b, f[fname].pos, tflc__builder_string(b, t->name));
  if (t->has_q) {
    size_t nq = 0, fs = 0, fz = 0, fmin = 0, fmax = 0, fd = 0;
    size_t nz = (size_t)(t->nzp_set ? t->nzp : t->qcount);
    if (t->nqmin > 0)
      fmin = tflc__builder_offset_field(q, &nq, 0);
    if (t->nqmax > 0)
      fmax = tflc__builder_offset_field(q, &nq, 1);
    if (t->qcount > 0)
      fs = tflc__builder_offset_field(q, &nq, 2);
    if (nz > 0)
      fz = tflc__builder_offset_field(q, &nq, 3);
    if (t->qdtype) {
      tflc__builder_scalar(q, &nq, 4, 1, t->qdtype);
      fd = tflc__builder_offset_field(q, &nq, 5);
    }
    tflc__builder_scalar_nondefault(b, q, &nq, 6, 4, (uint32_t)t->qaxis, 0);
    tflc__builder_patch(b, f[fq].pos, tflc__builder_table(b, q, nq));
    if (t->nqmin > 0)
      tflc__builder_patch(b, q[fmin].pos,
                          tflc__builder_f32s(b, t->qmin, (size_t)t->nqmin));
    if (t->nqmax > 0)
      tflc__builder_patch(b, q[fmax].pos,
                          tflc__builder_f32s(b, t->qmax, (size_t)t->nqmax));
    if (t->qcount > 0)
      tflc__builder_patch(b, q[fs].pos,
                          tflc__builder_f32s(b, t->scale, (size_t)t->qcount));
    if (nz > 0) {
      pos = tflc__builder_vector(b, nz, 8, 8);
      for (i = 0; i < nz; i++)
        tflc__builder_put(b, pos + 4 + 8 * i, (uint64_t)t->zp[i], 8);
      tflc__builder_patch(b, q[fz].pos, pos);
    }
    if (t->qdtype) {
      size_t dt;
      tflc_status st = tflc__serialize_options(b, t->qd, t->nqd, &dt);
      if (st != TFLC_OK)
        return st;
      tflc__builder_patch(b, q[fd].pos, dt);
    }
  }
  if (t->has_sig)
    tflc__builder_patch(b, f[fsig].pos,
                        tflc__builder_i32s(b, t->sig, (size_t)t->nsig));
  return TFLC_OK;
}

static tflc_status tflc__serialize_op(tflc__builder *b,
                                      const tflc__writer_op *o, size_t at) {
  tflc__builder_field f[14];
  size_t n = 0, fin, fout, fopt = 0, fopt2 = 0, fco = 0, fmut = 0, fint = 0;
  size_t tb, i, pos, ot;
  tflc_status st;
  tflc__builder_scalar_nondefault(b, f, &n, 0, 4, o->opcode, 0);
  fin = tflc__builder_offset_field(f, &n, 1);
  fout = tflc__builder_offset_field(f, &n, 2);
  if (o->otype) {
    tflc__builder_scalar(f, &n, 3, 1, o->otype);
    fopt = tflc__builder_offset_field(f, &n, 4);
  }
  if (o->has_copts)
    fco = tflc__builder_offset_field(f, &n, 5);
  if (o->copts_fmt)
    tflc__builder_scalar(f, &n, 6, 1, (uint8_t)(o->copts_fmt & 0xff));
  if (o->has_mut)
    fmut = tflc__builder_offset_field(f, &n, 7);
  if (o->has_inter)
    fint = tflc__builder_offset_field(f, &n, 8);
  if (o->otype2) {
    tflc__builder_scalar(f, &n, 11, 1, o->otype2);
    fopt2 = tflc__builder_offset_field(f, &n, 12);
  }
  if (o->has_dbg)
    tflc__builder_scalar_nondefault(b, f, &n, 13, 4, (uint32_t)o->dbg,
                                    (uint32_t)-1);
  tb = tflc__builder_table(b, f, n);
  tflc__builder_patch(b, at, tb);
  tflc__builder_patch(b, f[fin].pos,
                      tflc__builder_i32s(b, o->in, (size_t)o->nin));
  tflc__builder_patch(b, f[fout].pos,
                      tflc__builder_i32s(b, o->out, (size_t)o->nout));
  if (o->otype) {
    st = tflc__serialize_options(b, o->opts, o->nopts, &ot);
    if (st != TFLC_OK)
      return st;
    tflc__builder_patch(b, f[fopt].pos, ot);
  }
  if (o->has_copts)
    tflc__builder_patch(b, f[fco].pos,
                        tflc__builder_bytes(b, o->copts, o->ncopts, 4));
  if (o->has_mut)
    tflc__builder_patch(b, f[fmut].pos,
                        tflc__builder_bytes(b, o->mut, (size_t)o->nmut, 4));
  if (o->has_inter)
    tflc__builder_patch(b, f[fint].pos,
                        tflc__builder_i32s(b, o->inter, (size_t)o->ninter));
  if (o->otype2) {
    st = tflc__serialize_options(b, o->opts2, o->nopts2, &ot);
    if (st != TFLC_OK)
      return st;
    tflc__builder_patch(b, f[fopt2].pos, ot);
  }
  (void)pos;
  (void)i;
  return TFLC_OK;
}

static tflc_status tflc__serialize_subgraph(tflc__builder *b,
                                            const tflc__writer_subgraph *ws,
                                            const tflc__lower_subgraph *s,
                                            size_t at) {
  tflc__builder_field f[6];
  size_t n = 0, ft, fi, fo, fops, fname = 0, tb, v, i;
  tflc_status st;
  ft = tflc__builder_offset_field(f, &n, 0);
  fi = tflc__builder_offset_field(f, &n, 1);
  fo = tflc__builder_offset_field(f, &n, 2);
  fops = tflc__builder_offset_field(f, &n, 3);
  if (ws->name)
    fname = tflc__builder_offset_field(f, &n, 4);
  if (ws->has_dbg)
    tflc__builder_scalar_nondefault(b, f, &n, 5, 4, (uint32_t)ws->dbg,
                                    (uint32_t)-1);
  tb = tflc__builder_table(b, f, n);
  tflc__builder_patch(b, at, tb);
  v = tflc__builder_offsets(b, s->nt);
  tflc__builder_patch(b, f[ft].pos, v - 4);
  for (i = 0; i < s->nt && !b->err; i++) {
    st = tflc__serialize_tensor(b, &s->t[i], v + 4 * i);
    if (st != TFLC_OK)
      return st;
  }
  tflc__builder_patch(b, f[fi].pos,
                      tflc__builder_i32s(b, ws->in, (size_t)ws->nin));
  tflc__builder_patch(b, f[fo].pos,
                      tflc__builder_i32s(b, s->out, (size_t)ws->nout));
  v = tflc__builder_offsets(b, s->nop);
  tflc__builder_patch(b, f[fops].pos, v - 4);
  for (i = 0; i < s->nop && !b->err; i++) {
    st = tflc__serialize_op(b, &s->op[i], v + 4 * i);
    if (st != TFLC_OK)
      return st;
  }
  if (ws->name)
    tflc__builder_patch(b, f[fname].pos, tflc__builder_string(b, ws->name));
  return TFLC_OK;
}

/* A vector of TensorMap tables. */
static size_t tflc__serialize_tensor_maps(tflc__builder *b,
                                          const tflc__writer_tensor_map *m,
                                          int32_t n) {
  size_t v = tflc__builder_offsets(b, (size_t)n), i;
  for (i = 0; i < (size_t)n && !b->err; i++) {
    tflc__builder_field f[2];
    size_t nf = 0, fn = 0;
    if (m[i].name)
      fn = tflc__builder_offset_field(f, &nf, 0);
    tflc__builder_scalar_nondefault(b, f, &nf, 1, 4, m[i].tensor, 0);
    tflc__builder_patch(b, v + 4 * i, tflc__builder_table(b, f, nf));
    if (m[i].name)
      tflc__builder_patch(b, f[fn].pos, tflc__builder_string(b, m[i].name));
  }
  return v - 4;
}

static void tflc__serialize_signatures(tflc__builder *b, const tflc_writer *w,
                                       size_t at) {
  size_t v = tflc__builder_offsets(b, (size_t)w->nsig), i;
  tflc__builder_patch(b, at, v - 4);
  for (i = 0; i < (size_t)w->nsig && !b->err; i++) {
    const tflc__writer_signature *d = &w->sig[i];
    tflc__builder_field f[4];
    size_t nf = 0, fi = 0, fo = 0, fk = 0;
    if (d->has_in)
      fi = tflc__builder_offset_field(f, &nf, 0);
    if (d->has_out)
      fo = tflc__builder_offset_field(f, &nf, 1);
    if (d->key)
      fk = tflc__builder_offset_field(f, &nf, 2);
    tflc__builder_scalar_nondefault(b, f, &nf, 4, 4, d->sg, 0);
    tflc__builder_patch(b, v + 4 * i, tflc__builder_table(b, f, nf));
    if (d->has_in)
      tflc__builder_patch(b, f[fi].pos,
                          tflc__serialize_tensor_maps(b, d->in, d->nin));
    if (d->has_out)
      tflc__builder_patch(b, f[fo].pos,
                          tflc__serialize_tensor_maps(b, d->out, d->nout));
    if (d->key)
      tflc__builder_patch(b, f[fk].pos, tflc__builder_string(b, d->key));
  }
}

/* The COMPRESSION_METADATA flatbuffer (no identifier, not size-prefixed):
 * Metadata{schema_version 1, subgraphs: one entry per model subgraph up to
 * the last with LUT tensors}. A subgraph without LUT tensors gets an empty
 * lut_tensors vector, as TFLM's older compressor writes it; note that
 * TFLM's runtime refuses such an entry ("zero length LutTensor vector"). */
static void tflc__serialize_compression(tflc__builder *b,
                                        const tflc__lower_model *L) {
  tflc__builder_field f[3];
  size_t n = 0, fsub, tb, nsub = 0, si, i, v, k;
  for (i = 0; i < L->nlut; i++)
    if (L->lut[i].sg + 1 > nsub)
      nsub = L->lut[i].sg + 1;
  tflc__builder_alloc(b, 4); /* root offset */
  tflc__builder_scalar_nondefault(b, f, &n, 0, 4, 1, 1);
  fsub = tflc__builder_offset_field(f, &n, 1);
  tb = tflc__builder_table(b, f, n);
  tflc__builder_patch(b, 0, tb);
  v = tflc__builder_offsets(b, nsub);
  tflc__builder_patch(b, f[fsub].pos, v - 4);
  for (si = 0; si < nsub && !b->err; si++) {
    size_t nl = 0, lv, fl;
    n = 0;
    fl = tflc__builder_offset_field(f, &n, 0);
    tflc__builder_patch(b, v + 4 * si, tflc__builder_table(b, f, n));
    for (i = 0; i < L->nlut; i++)
      nl += L->lut[i].sg == si;
    lv = tflc__builder_offsets(b, nl);
    tflc__builder_patch(b, f[fl].pos, lv - 4);
    for (i = 0, k = 0; i < L->nlut; i++) {
      if (L->lut[i].sg != si)
        continue;
      n = 0;
      tflc__builder_scalar_nondefault(b, f, &n, 0, 4,
                                      (uint32_t)L->lut[i].tensor, 0);
      tflc__builder_scalar(f, &n, 1, 4, L->lut[i].value_buffer);
      tflc__builder_scalar(f, &n, 2, 1, (uint8_t)L->lut[i].bits);
      tflc__builder_patch(b, lv + 4 * k++, tflc__builder_table(b, f, n));
    }
  }
}

static tflc_status tflc__builder_status(const tflc__builder *b) {
  return b->err == 1 ? TFLC_ERR_ARENA : TFLC_ERR_UNSUPPORTED;
}

/* The Buffer tables; bpos[i] receives buffer i's data (or offset) field. */
static void tflc__serialize_buffers(tflc__builder *b,
                                    const tflc__lower_model *L, int ext,
                                    size_t *bpos, size_t at) {
  size_t v = tflc__builder_offsets(b, L->nbuf), i;
  tflc__builder_patch(b, at, v - 4);
  for (i = 0; i < L->nbuf && !b->err; i++) {
    tflc__builder_field bf[2];
    size_t nb = 0;
    if (L->buf[i].size && ext) {
      tflc__builder_scalar(bf, &nb, 1, 8, 0);
      tflc__builder_scalar(bf, &nb, 2, 8, (uint64_t)L->buf[i].size);
    } else if (L->buf[i].size) {
      tflc__builder_offset_field(bf, &nb, 0);
    }
    tflc__builder_patch(b, v + 4 * i, tflc__builder_table(b, bf, nb));
    bpos[i] = nb ? bf[0].pos : 0;
  }
}

static uint64_t tflc__host_hash(const uint8_t *p, size_t n) {
  uint64_t h = 1469598103934665603u;
  size_t i;
  for (i = 0; i < n; i++)
    h = (h ^ p[i]) * 1099511628211u;
  return h;
}

/* Compact mode: drops buffers nothing refers to, merges identical ones
 * (not those of variable tensors) and renumbers every reference in the
 * view. *mbuf_map receives the old -> new map (for metadata_buffer). */
static tflc_status tflc__lower_compact(tflc_writer *w, tflc__lower_model *L,
                                       uint32_t **map_out) {
  size_t nb = L->nbuf, i, j, si, ti, kept = 1;
  uint32_t *map =
      (uint32_t *)tflc__lower_alloc(L, nb ? nb : 1, sizeof(uint32_t));
  uint8_t *use = (uint8_t *)tflc__lower_alloc(L, nb ? nb : 1, 1);
  uint64_t *h = (uint64_t *)tflc__lower_alloc(L, nb ? nb : 1, sizeof(uint64_t));
  tflc__lower_buffer *nbv;
  *map_out = map;
  if (!map || !use || !h)
    return TFLC_ERR_ARENA;
  memset(use, 0, nb ? nb : 1); /* 1 used, 3 used and not shared */
  for (si = 0; si < L->nsg; si++)
    for (ti = 0; ti < L->sg[si].nt; ti++) {
      const tflc__writer_tensor *t = &L->sg[si].t[ti];
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
  nbv = (tflc__lower_buffer *)tflc__lower_alloc(L, nb ? nb : 1, sizeof *nbv);
  if (!nbv)
    return TFLC_ERR_ARENA;
  nbv[0].data = NULL;
  nbv[0].size = 0;
  map[0] = 0;
  for (i = 1; i < nb; i++) {
    map[i] = 0;
    if (!use[i] || !L->buf[i].size)
      continue; /* dropped, or empty: the sentinel serves */
    h[i] = tflc__host_hash(L->buf[i].data, L->buf[i].size);
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
      tflc__writer_tensor *t = &L->sg[si].t[ti];
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

/* The model's metadata entries (name, buffer) as a vector of tables, its
 * offset patched into the field at `field`. */
static void tflc__serialize_metadata(tflc__builder *b,
                                     const tflc__lower_model *L, size_t field) {
  size_t v = tflc__builder_offsets(b, L->nmeta), i;
  tflc__builder_patch(b, field, v - 4);
  for (i = 0; i < L->nmeta && !b->err; i++) {
    tflc__builder_field mf[2];
    size_t nm = 0, fn = tflc__builder_offset_field(mf, &nm, 0);
    tflc__builder_scalar(mf, &nm, 1, 4, L->meta[i].buffer);
    tflc__builder_patch(b, v + 4 * i, tflc__builder_table(b, mf, nm));
    tflc__builder_patch(b, mf[fn].pos,
                        tflc__builder_string(b, L->meta[i].name));
  }
}
/* The metadata_buffer vector (buffer indices, renumbered by bmap when the
 * buffers were compacted), its offset patched into the field at `field`. */
static void tflc__serialize_metadata_buffer(tflc__builder *b,
                                            const tflc_writer *w,
                                            const uint32_t *bmap,
                                            size_t field) {
  size_t v = tflc__builder_vector(b, (size_t)w->nmbuf, 4, 4), i;
  for (i = 0; i < (size_t)w->nmbuf && !b->err; i++) {
    int32_t x = w->mbuf[i];
    if (bmap && x >= 0 && (size_t)x < w->nbuf)
      x = (int32_t)bmap[x];
    tflc__builder_put(b, v + 4 + 4 * i, (uint32_t)x, 4);
  }
  tflc__builder_patch(b, field, v);
}
/* External buffers: each buffer's data after the flatbuffer proper, at a
 * 16-byte offset, written into its offset field (bpos[i]). */
static void tflc__append_buffers(tflc__builder *b, const tflc__lower_model *L,
                                 const size_t *bpos) {
  size_t i;
  b->limit = (size_t)-1;
  for (i = 0; i < L->nbuf && !b->err; i++) {
    size_t pos;
    if (!L->buf[i].size)
      continue;
    tflc__builder_pad(b, 16, 0);
    pos = tflc__builder_alloc(b, L->buf[i].size);
    if (b->err)
      break;
    memcpy(b->p + pos, L->buf[i].data, L->buf[i].size);
    tflc__builder_put(b, bpos[i], (uint64_t)pos, 8);
  }
}

TFLC_API tflc_status tflc_writer_finish(tflc_writer *w, uint8_t **out,
                                        size_t *size) {
  tflc__lower_model L;
  tflc__builder b, mb;
  tflc__builder_field f[10];
  size_t n = 0, fop, fsg, fdesc = 0, fbuf, fmeta = 0, fmb = 0, fsig = 0;
  size_t model, v, i;
  size_t *bpos = NULL; /* per buffer: data (or offset) field position */
  size_t *dorder = NULL;
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
  b.limit = TFLC__FB_MAX_SIZE;
  mb.limit = TFLC__FB_MAX_SIZE;
  b.compact = mb.compact = compact;
  st = tflc__lower_writer(w, &L);
  if (st != TFLC_OK)
    goto done;
  if (compact) {
    st = tflc__lower_compact(w, &L, &bmap);
    if (st != TFLC_OK)
      goto done;
  }
  if (L.nlut) {
    uint32_t mbuf;
    tflc__serialize_compression(&mb, &L);
    if (mb.err) {
      st = tflc__builder_status(&mb);
      goto done;
    }
    mbuf = tflc__lower_add_buffer(&L, mb.p, mb.len);
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
  tflc__builder_alloc(&b, 4);
  if (!(w->flags & TFLC_W_FLAG_NO_IDENTIFIER)) {
    size_t id = tflc__builder_alloc(&b, 4);
    if (!b.err)
      memcpy(b.p + id, "TFL3", 4);
  }
  tflc__builder_scalar(f, &n, 0, 4, w->raw_model ? w->version : 3);
  fop = tflc__builder_offset_field(f, &n, 1);
  fsg = tflc__builder_offset_field(f, &n, 2);
  if (!w->raw_model || w->description)
    fdesc = tflc__builder_offset_field(f, &n, 3);
  fbuf = tflc__builder_offset_field(f, &n, 4);
  if (w->has_mbuf)
    fmb = tflc__builder_offset_field(f, &n, 5);
  if (L.nmeta)
    fmeta = tflc__builder_offset_field(f, &n, 6);
  if (w->nsig > 0)
    fsig = tflc__builder_offset_field(f, &n, 7);
  model = tflc__builder_table(&b, f, n);
  tflc__builder_patch(&b, 0, model);
  if (compact) { /* buffers first: their data then fills alignment gaps */
    size_t nd = 0;
    tflc__serialize_buffers(&b, &L, ext, bpos, f[fbuf].pos);
    dorder = (size_t *)tflc__host_alloc(L.nbuf, sizeof(size_t));
    if (!dorder) {
      st = TFLC_ERR_ARENA;
      goto done;
    }
    for (i = 0; i < L.nbuf && !ext; i++)
      if (L.buf[i].size)
        dorder[nd++] = i;
    b.dbuf = L.buf;
    b.dat = bpos;
    b.dorder = dorder;
    b.nd = nd;
  }
  /* operator codes */
  v = tflc__builder_offsets(&b, w->noc);
  tflc__builder_patch(&b, f[fop].pos, v - 4);
  for (i = 0; i < w->noc && !b.err; i++)
    tflc__serialize_opcode(&b, &w->oc[i], w->flags, v + 4 * i);
  /* subgraphs */
  v = tflc__builder_offsets(&b, L.nsg);
  tflc__builder_patch(&b, f[fsg].pos, v - 4);
  for (i = 0; i < L.nsg && !b.err; i++) {
    st = tflc__serialize_subgraph(&b, &w->sg[i], &L.sg[i], v + 4 * i);
    if (st != TFLC_OK)
      goto done;
  }
  if (!w->raw_model || w->description)
    tflc__builder_patch(
        &b, f[fdesc].pos,
        tflc__builder_string(&b, w->raw_model ? w->description : "tflc"));
  if (w->has_mbuf)
    tflc__serialize_metadata_buffer(&b, w, bmap, f[fmb].pos);
  if (L.nmeta)
    tflc__serialize_metadata(&b, &L, f[fmeta].pos);
  if (w->nsig > 0)
    tflc__serialize_signatures(&b, w, f[fsig].pos);
  /* buffers: the tables, then the data (16-aligned) */
  if (!compact)
    tflc__serialize_buffers(&b, &L, ext, bpos, f[fbuf].pos);
  for (i = 0; i < L.nbuf && !b.err && !ext && !compact; i++)
    if (L.buf[i].size)
      tflc__builder_patch(
          &b, bpos[i],
          tflc__builder_bytes(&b, L.buf[i].data, L.buf[i].size, 16));
  tflc__builder_flush(&b, 1);
  if (ext && !b.err)
    tflc__append_buffers(&b, &L, bpos);
  if (b.err) {
    st = tflc__builder_status(&b);
    goto done;
  }
  *out = b.p;
  *size = b.len;
  b.p = NULL;
  st = TFLC_OK;
done:
  free(bpos);
  free(dorder);
  free(b.p);
  free(b.vts);
  free(mb.p);
  free(mb.vts);
  tflc__lower_free(&L);
  return st;
}

/* ======================================================================== */
/* Compression stage: model copier, tensor selection, spec reader,          */
/* tflc_compress and tflc_bin. Built on tflc.h's verified walker.           */
/* ======================================================================== */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

/* ---- report ------------------------------------------------------------- */

TFLC_API void tflc_stage_report_free(tflc_stage_report *rep) {
  int32_t i;
  if (!rep)
    return;
  for (i = 0; i < rep->nentries; i++)
    free(rep->entries[i].name);
  free(rep->entries);
  for (i = 0; i < rep->nwarnings; i++)
    free(rep->warnings[i]);
  free(rep->warnings);
  memset(rep, 0, sizeof *rep);
}

/* Working state of one call. */
typedef struct tflc__stage {
  const tflc_model *m;
  tflc_stage_report *rep;
  size_t cent, cwarn;
  int oom;
} tflc__stage;

static tflc_status tflc__stage_error(tflc__stage *s, tflc_status st,
                                     const char *fmt, ...) {
  va_list ap;
  if (s->rep && !s->rep->error[0]) {
    va_start(ap, fmt);
    vsnprintf(s->rep->error, sizeof s->rep->error, fmt, ap);
    va_end(ap);
  }
  return st;
}

static void tflc__stage_warn(tflc__stage *s, const char *fmt, ...) {
  char buf[320];
  va_list ap;
  void *np;
  char *c;
  if (!s->rep)
    return;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  np = tflc__host_grow(s->rep->warnings, &s->cwarn,
                       (size_t)s->rep->nwarnings + 1, sizeof(char *));
  c = tflc__host_strdup(buf);
  if (!np || !c) {
    free(c);
    if (np)
      s->rep->warnings = (char **)np;
    s->oom = 1;
    return;
  }
  s->rep->warnings = (char **)np;
  s->rep->warnings[s->rep->nwarnings++] = c;
}

/* A new zeroed report line, or NULL (out of memory, or no report). */
static tflc_stage_entry *tflc__stage_entry_add(tflc__stage *s, int32_t sg,
                                               int32_t t, const char *name,
                                               uint32_t nlen, int type) {
  void *np;
  tflc_stage_entry *e;
  if (!s->rep)
    return NULL;
  np = tflc__host_grow(s->rep->entries, &s->cent, (size_t)s->rep->nentries + 1,
                       sizeof(tflc_stage_entry));
  if (!np) {
    s->oom = 1;
    return NULL;
  }
  s->rep->entries = (tflc_stage_entry *)np;
  e = &s->rep->entries[s->rep->nentries];
  memset(e, 0, sizeof *e);
  e->name = (char *)malloc((size_t)nlen + 1);
  if (!e->name) {
    s->oom = 1;
    return NULL;
  }
  if (nlen)
    memcpy(e->name, name, nlen);
  e->name[nlen] = 0;
  e->subgraph = sg;
  e->tensor = t;
  e->type = type;
  s->rep->nentries++;
  return e;
}

static void tflc__stage_reason(tflc_stage_entry *e, const char *fmt, ...) {
  va_list ap;
  if (!e)
    return;
  va_start(ap, fmt);
  vsnprintf(e->reason, sizeof e->reason, fmt, ap);
  va_end(ap);
}

/* ---- model copier --------------------------------------------------------
 * Model -> writer, field by field. Options tables are copied by schema
 * (one letter per slot: b/i/l scalar of 1/4/8 bytes, I/L/B vector of
 * 4/8/1-byte elements, A bytes aligned to 16, s string); slots the schema
 * does not know are copied as scalars sized by the gap to the next field,
 * with a warning. */

static const char *const tflc__copy_options_schema[] = {
    "",       "biibiib", "biiibii",  "iII", "b",  "biiiib", "ibb",   "bb",
    "bbbbb",  "i",       "ib",       "bb",  "b",  "iiii",   "biibb", "iibb",
    "i",      "I",       "iib",      "i",   "b",  "b",      "",      "ii",
    "",       "",        "",         "b",   "bb", "b",      "I",     "bbb",
    "iiiiib", "",        "",         "i",   "",   "bb",     "",      "",
    "b",      "",        "",         "",    "",   "",       "",      "",
    "",       "biibb",   "b",        "",    "",   "",       "",      "b",
    "",       "b",       "iiib",     "ii",  "",   "i",      "",      "",
    "ii",     "",        "",         "",    "",   "biibbb", "bbbb",  "biibbb",
    "",       "",        "bb",       "i",   "",   "b",      "",      "i",
    "b",      "",        "",         "",    "",   "",       "",      "ii",
    "",       "",        "",         "",    "ii", "ii",     "i",     "",
    "",       "",        "",         "",    "",   "bbb",    "bb",    "i",
    "",       "",        "biiibiii", "ibb", "",   "",       "",      "ss",
    "",       "",        "ll",       "I",   "b",  "",       "",      "",
    "",       "",        "",         "",    "",   "",       ""};
static const char *const tflc__copy_options2_schema[] = {
    "",       "l",      "L",       "LLL",    "LLLLBllLllLllLllI",
    "sbsiIB", "Li",     "bLLLlbi", "ii",     "L",
    "LLL",    "l",      "LLLLI",   "LLLLLi", "lbi",
    "ii",     "LLLlLb", "L",       "",       "b",
    "i",      "siBbi",  "",        "I"};
static const char *const tflc__copy_qdetails_schema[] = {"", "A", "iii",
                                                         "iiiI"};

/* Copies options table `tt` (schema `sch`, NULL = unknown) into an array
 * of writer options (pointing into the model); *n receives the count.
 * Returns TFLC_OK, TFLC_ERR_FLATBUFFER for a broken field. */
static tflc_status tflc__copy_options(tflc__stage *s, uint32_t tt,
                                      const char *sch, const char *what,
                                      tflc_w_option *o, int32_t *n) {
  tflc__fb fb = tflc__mfb(s->m);
  uint32_t vt, vts, ts, nslots, slot, k;
  size_t nsch = sch ? strlen(sch) : 0;
  *n = 0;
  if (!tflc__table_ok(fb, tt))
    return tflc__stage_error(s, TFLC_ERR_FLATBUFFER, "%s: broken options table",
                             what);
  vt = (uint32_t)((int64_t)tt - (int64_t)tflc__i32(fb.b + tt));
  vts = tflc__u16(fb.b + vt);
  ts = tflc__u16(fb.b + vt + 2);
  nslots = (vts - 4) / 2;
  if (nslots > 255)
    nslots = 255;
  for (slot = 0; slot < nslots; slot++) {
    uint32_t fo = tflc__u16(fb.b + vt + 4 + 2 * slot), len, p;
    tflc_w_option *d = &o[*n];
    char kind = slot < nsch ? sch[slot] : '?';
    if (fo == 0)
      continue;
    memset(d, 0, sizeof *d);
    d->slot = (uint8_t)slot;
    if (kind == 'b' || kind == 'i' || kind == 'l' || kind == '?') {
      uint32_t sz = kind == 'b' ? 1 : kind == 'i' ? 4 : 8, next = ts;
      if (kind == '?') { /* size: the gap to the next field */
        for (k = 0; k < nslots; k++) {
          uint32_t f2 = tflc__u16(fb.b + vt + 4 + 2 * k);
          if (f2 > fo && f2 < next)
            next = f2;
        }
        sz = next - fo >= 8 ? 8 : next - fo >= 4 ? 4 : next - fo >= 2 ? 2 : 1;
        tflc__stage_warn(
            s,
            "%s: field %u not in the schema tflc knows: copied as a "
            "%u-byte scalar",
            what, slot, sz);
      }
      p = tflc__field(fb, tt, slot, sz);
      if (!p)
        return tflc__stage_error(s, TFLC_ERR_FLATBUFFER, "%s: field %u broken",
                                 what, slot);
      d->kind = TFLC_W_RAW;
      d->size = (uint8_t)sz;
      d->u = sz == 1   ? fb.b[p]
             : sz == 2 ? tflc__u16(fb.b + p)
             : sz == 4 ? tflc__u32(fb.b + p)
                       : tflc__u64(fb.b + p);
    } else if (kind == 's') {
      const char *str = tflc__get_str(fb, tt, slot, &len);
      if (!str)
        return tflc__stage_error(s, TFLC_ERR_FLATBUFFER, "%s: string %u broken",
                                 what, slot);
      d->kind = TFLC_W_STR;
      d->str = str;
    } else { /* vectors */
      uint32_t es = kind == 'L' ? 8 : (kind == 'B' || kind == 'A') ? 1 : 4;
      p = tflc__get_vec(fb, tt, slot, es, &len);
      if (!p || len > 0x7fffffffu)
        return tflc__stage_error(s, TFLC_ERR_FLATBUFFER, "%s: vector %u broken",
                                 what, slot);
      d->kind = TFLC_W_RAW_VEC;
      d->size = (uint8_t)es;
      d->align = (uint8_t)(kind == 'A' ? 16 : 0);
      d->bytes = fb.b + p;
      d->count = (int32_t)len;
    }
    (*n)++;
  }
  return TFLC_OK;
}

/* Warns about fields of table t at slots >= known. */
static void tflc__copy_warn_unknown(tflc__stage *s, uint32_t t, uint32_t known,
                                    const char *what, int32_t a, int32_t b) {
  tflc__fb fb = tflc__mfb(s->m);
  uint32_t slot;
  for (slot = known; slot < 64; slot++)
    if (tflc__has_field(fb, t, slot))
      tflc__stage_warn(s, "%s %d:%d: unknown field %u dropped", what, a, b,
                       slot);
}

/* int32 vector field -> *v (pointer into the model, unaligned: copied). */
static tflc_status tflc__copy_i32s(tflc__stage *s, uint32_t t, uint32_t slot,
                                   int32_t **v, int32_t *n, int *has,
                                   const char *what) {
  tflc__fb fb = tflc__mfb(s->m);
  uint32_t len, p, i;
  *v = NULL;
  *n = 0;
  *has = 0;
  if (!tflc__has_field(fb, t, slot))
    return TFLC_OK;
  p = tflc__get_vec(fb, t, slot, 4, &len);
  if (!p || len > 0x7fffffffu)
    return tflc__stage_error(s, TFLC_ERR_FLATBUFFER, "%s: broken vector", what);
  *v = (int32_t *)tflc__host_alloc(len, sizeof(int32_t));
  if (!*v)
    return TFLC_ERR_ARENA;
  for (i = 0; i < len; i++)
    (*v)[i] = tflc__i32(fb.b + p + 4 * i);
  *n = (int32_t)len;
  *has = 1;
  return TFLC_OK;
}

static float *tflc__copy_f32s(const uint8_t *p, uint32_t n) {
  float *v = (float *)tflc__host_alloc(n, sizeof(float));
  uint32_t i;
  for (i = 0; v && i < n; i++)
    v[i] = tflc__f32(p + 4 * i);
  return v;
}

/* A string field as a NUL-terminated copy (NULL when absent); *bad on a
 * broken one. */
static char *tflc__copy_string(tflc__stage *s, uint32_t t, uint32_t slot,
                               int *bad) {
  tflc__fb fb = tflc__mfb(s->m);
  uint32_t len;
  const char *str;
  char *c;
  if (!tflc__has_field(fb, t, slot))
    return NULL;
  str = tflc__get_str(fb, t, slot, &len);
  if (!str) {
    *bad = 1;
    return NULL;
  }
  c = (char *)malloc((size_t)len + 1);
  if (!c) {
    s->oom = 1;
    return NULL;
  }
  memcpy(c, str, len);
  c[len] = 0;
  return c;
}

/* Tensor tt of subgraph sg -> tensor index ti of writer subgraph sg. */
static tflc_status tflc__copy_tensor(tflc__stage *s, tflc_writer *w, int32_t sg,
                                     uint32_t tt, int32_t ti) {
  tflc__fb fb = tflc__mfb(s->m);
  tflc__writer_tensor *t;
  tflc_tensor v;
  uint32_t len = 0, b, qt, p, n, i;
  const char *name;
  const uint8_t *data;
  tflc_status st;
  int32_t idx;
  int has;
  if (tflc_model_tensor(s->m, sg, ti, &v, &name, &len) != TFLC_OK)
    return tflc__stage_error(s, TFLC_ERR_FLATBUFFER, "tensor %d:%d broken", sg,
                             ti);
  b = tflc__get_u32(fb, tt, TFLC__T_BUFFER, 0);
  data = tflc__buffer(s->m, b, &n);
  /* the type byte as stored (tflc_model_tensor keeps only known types) */
  idx = tflc_writer_tensor(w, sg, (int8_t)tflc__get_u8(fb, tt, TFLC__T_TYPE, 0),
                           v.rank, v.dims, data, data ? n : 0, NULL, NULL);
  if (idx != ti)
    return w->err ? w->err : TFLC_ERR_ARENA;
  t = &w->sg[sg].t[ti];
  if (b != 0 && !data) /* a buffer without data: keep it empty-but-own */
    t->buffer = 0;
  if (name) {
    t->name = (char *)malloc((size_t)len + 1);
    if (!t->name)
      return TFLC_ERR_ARENA;
    memcpy(t->name, name, len);
    t->name[len] = 0;
  }
  t->no_shape = !tflc__has_field(fb, tt, TFLC__T_SHAPE);
  t->is_variable = tflc__get_u8(fb, tt, TFLC__T_VARIABLE, 0) != 0;
  st = tflc__copy_i32s(s, tt, 7, &t->sig, &t->nsig, &t->has_sig,
                       "shape_signature");
  if (st != TFLC_OK)
    return st;
  if (tflc__has_field(fb, tt, 8))
    t->has_rank = tflc__get_u8(fb, tt, 8, 0) ? 2 : 1;
  if (tflc__has_field(fb, tt, 9))
    tflc__stage_warn(s, "tensor %d:%d: variant_tensors dropped", sg, ti);
  if (tflc__get_u32(fb, tt, 10, 0))
    tflc__stage_warn(s, "tensor %d:%d: external_buffer reference dropped", sg,
                     ti);
  tflc__copy_warn_unknown(s, tt, 11, "tensor", sg, ti);
  qt = tflc__get_ref(fb, tt, TFLC__T_QUANT);
  if (qt && tflc__table_ok(fb, qt)) {
    uint32_t nmin = 0, nmax = 0, ns = 0, nz = 0, ds, dt;
    uint32_t pmin = tflc__get_vec(fb, qt, 0, 4, &nmin);
    uint32_t pmax = tflc__get_vec(fb, qt, 1, 4, &nmax);
    uint32_t ps = tflc__get_vec(fb, qt, 2, 4, &ns);
    uint32_t pz = tflc__get_vec(fb, qt, 3, 8, &nz);
    if ((tflc__has_field(fb, qt, 0) && !pmin) ||
        (tflc__has_field(fb, qt, 1) && !pmax) ||
        (tflc__has_field(fb, qt, 2) && !ps) ||
        (tflc__has_field(fb, qt, 3) && !pz) || nmin > 0x7fffffffu ||
        nmax > 0x7fffffffu || ns > 0x7fffffffu || nz > 0x7fffffffu)
      return tflc__stage_error(s, TFLC_ERR_FLATBUFFER,
                               "tensor %d:%d: broken quantization", sg, ti);
    t->qaxis = tflc__get_i32(fb, qt, 6, 0);
    dt = tflc__get_u8(fb, qt, 4, 0);
    ds = tflc__get_ref(fb, qt, 5);
    if (nmin)
      t->qmin = tflc__copy_f32s(fb.b + pmin, nmin);
    if (nmax)
      t->qmax = tflc__copy_f32s(fb.b + pmax, nmax);
    if (ns)
      t->scale = tflc__copy_f32s(fb.b + ps, ns);
    if (nz) {
      t->zp = (int64_t *)tflc__host_alloc(nz, sizeof(int64_t));
      for (i = 0; t->zp && i < nz; i++)
        t->zp[i] = (int64_t)tflc__u64(fb.b + pz + 8 * i);
    }
    if ((nmin && !t->qmin) || (nmax && !t->qmax) || (ns && !t->scale) ||
        (nz && !t->zp))
      return TFLC_ERR_ARENA;
    t->nqmin = (int32_t)nmin;
    t->nqmax = (int32_t)nmax;
    t->qcount = (int32_t)ns;
    t->nzp = (int32_t)nz;
    t->nzp_set = 1;
    if (dt) {
      tflc_w_option o[8];
      int32_t no = 0;
      if (dt < sizeof tflc__copy_qdetails_schema /
                   sizeof tflc__copy_qdetails_schema[0] &&
          ds) {
        char what[48];
        snprintf(what, sizeof what, "tensor %d:%d quantization details", sg,
                 ti);
        st = tflc__copy_options(s, ds, tflc__copy_qdetails_schema[dt], what, o,
                                &no);
        if (st != TFLC_OK)
          return st;
        t->qdtype = (uint8_t)dt;
        if (!tflc__writer_copy_options(o, no, &t->qd, &t->nqd))
          return TFLC_ERR_ARENA;
      } else {
        tflc__stage_warn(s,
                         "tensor %d:%d: quantization details type %u dropped",
                         sg, ti, dt);
      }
    }
    tflc__copy_warn_unknown(s, qt, 7, "quantization of tensor", sg, ti);
    /* an empty table says nothing: left out */
    t->has_q = nmin || nmax || ns || nz || t->qdtype || t->qaxis != 0;
  }
  (void)p;
  (void)has;
  return TFLC_OK;
}

static tflc_status tflc__copy_op(tflc__stage *s, tflc_writer *w, int32_t sg,
                                 uint32_t ot, int32_t oi) {
  tflc__fb fb = tflc__mfb(s->m);
  tflc__writer_subgraph *ws = &w->sg[sg];
  tflc__writer_op o;
  tflc_w_option opts[256];
  int32_t no = 0;
  uint32_t ty, tb, len, p;
  tflc_status st;
  int has;
  char what[64];
  memset(&o, 0, sizeof o);
  o.opcode = tflc__get_u32(fb, ot, TFLC__OP_OPCODE, 0);
  st = tflc__copy_i32s(s, ot, TFLC__OP_INPUTS, &o.in, &o.nin, &has, "inputs");
  if (st == TFLC_OK && !has)
    o.in = (int32_t *)tflc__host_alloc(0, 4);
  if (st == TFLC_OK)
    st = tflc__copy_i32s(s, ot, TFLC__OP_OUTPUTS, &o.out, &o.nout, &has,
                         "outputs");
  if (st == TFLC_OK && !has)
    o.out = (int32_t *)tflc__host_alloc(0, 4);
  if (st == TFLC_OK && (!o.in || !o.out))
    st = TFLC_ERR_ARENA;
  snprintf(what, sizeof what, "op %d:%d options", sg, oi);
  ty = tflc__get_u8(fb, ot, TFLC__OP_OPTTYPE, 0);
  tb = tflc__get_ref(fb, ot, TFLC__OP_OPTS);
  if (st == TFLC_OK && ty && tb) {
    const char *sch = ty < sizeof tflc__copy_options_schema /
                                  sizeof tflc__copy_options_schema[0]
                          ? tflc__copy_options_schema[ty]
                          : NULL;
    if (!sch)
      tflc__stage_warn(s, "op %d:%d: builtin options type %u unknown", sg, oi,
                       ty);
    st = tflc__copy_options(s, tb, sch, what, opts, &no);
    if (st == TFLC_OK) {
      o.otype = (uint8_t)ty;
      if (!tflc__writer_copy_options(opts, no, &o.opts, &o.nopts))
        st = TFLC_ERR_ARENA;
    }
  }
  ty = tflc__get_u8(fb, ot, 11, 0);
  tb = tflc__get_ref(fb, ot, 12);
  if (st == TFLC_OK && ty && tb) {
    const char *sch = ty < sizeof tflc__copy_options2_schema /
                                  sizeof tflc__copy_options2_schema[0]
                          ? tflc__copy_options2_schema[ty]
                          : NULL;
    if (!sch)
      tflc__stage_warn(s, "op %d:%d: builtin options 2 type %u unknown", sg, oi,
                       ty);
    st = tflc__copy_options(s, tb, sch, what, opts, &no);
    if (st == TFLC_OK) {
      o.otype2 = (uint8_t)ty;
      if (!tflc__writer_copy_options(opts, no, &o.opts2, &o.nopts2))
        st = TFLC_ERR_ARENA;
    }
  }
  if (st == TFLC_OK && tflc__has_field(fb, ot, 5)) {
    p = tflc__get_vec(fb, ot, 5, 1, &len);
    if (!p)
      st = tflc__stage_error(s, TFLC_ERR_FLATBUFFER,
                             "op %d:%d: broken custom options", sg, oi);
    else if ((o.copts = (uint8_t *)tflc__host_dup(fb.b + p, len, 1)) == NULL)
      st = TFLC_ERR_ARENA;
    o.has_copts = 1;
    o.ncopts = len;
  }
  if (st == TFLC_OK && !o.has_copts) {
    uint64_t off = tflc__get_u64(fb, ot, 9), sz = tflc__get_u64(fb, ot, 10);
    if (off > 1 && sz > 0) {
      if (off > s->m->size || sz > s->m->size - off) {
        st = tflc__stage_error(
            s, TFLC_ERR_TRUNCATED,
            "op %d:%d: large custom options outside the model", sg, oi);
      } else {
        o.copts = (uint8_t *)tflc__host_dup(s->m->bytes + off, (size_t)sz, 1);
        o.ncopts = (size_t)sz;
        o.has_copts = 1;
        if (!o.copts)
          st = TFLC_ERR_ARENA;
        tflc__stage_warn(s, "op %d:%d: large custom options moved inline", sg,
                         oi);
      }
    }
  }
  o.copts_fmt = (int8_t)tflc__get_u8(fb, ot, 6, 0);
  if (st == TFLC_OK && tflc__has_field(fb, ot, 7)) {
    p = tflc__get_vec(fb, ot, 7, 1, &len);
    if (!p || len > 0x7fffffffu)
      st = tflc__stage_error(s, TFLC_ERR_FLATBUFFER,
                             "op %d:%d: broken mutating_variable_inputs", sg,
                             oi);
    else if ((o.mut = (uint8_t *)tflc__host_dup(fb.b + p, len, 1)) == NULL)
      st = TFLC_ERR_ARENA;
    o.has_mut = 1;
    o.nmut = (int32_t)len;
  }
  if (st == TFLC_OK)
    st = tflc__copy_i32s(s, ot, 8, &o.inter, &o.ninter, &o.has_inter,
                         "intermediates");
  if (tflc__has_field(fb, ot, 13)) {
    o.has_dbg = 1;
    o.dbg = tflc__get_i32(fb, ot, 13, -1);
  }
  if (st != TFLC_OK) {
    tflc__writer_free_op(&o);
    return st;
  }
  tflc__copy_warn_unknown(s, ot, 14, "op", sg, oi);
  if (tflc__writer_push_op(w, ws, &o) != oi)
    return TFLC_ERR_ARENA;
  return TFLC_OK;
}

/* Copies the whole verified model into w (created by the caller, compact
 * flag set). */
/* The model's signature definitions into w (tensor maps and keys as they
 * are). */
static tflc_status tflc__copy_signatures(tflc__stage *s, tflc_writer *w) {
  const tflc_model *m = s->m;
  tflc__fb fb = tflc__mfb(m);
  uint32_t i, n, v;
  int bad = 0;
  v = tflc__get_vec(fb, m->root, 7, 4, &n);
  if (tflc__has_field(fb, m->root, 7) && !v)
    return tflc__stage_error(s, TFLC_ERR_FLATBUFFER, "broken signature_defs");
  if (v && n) {
    w->sig = (tflc__writer_signature *)calloc(n, sizeof *w->sig);
    if (!w->sig)
      return TFLC_ERR_ARENA;
    for (i = 0; i < n; i++) {
      uint32_t d = tflc__vec_table(fb, v, i), side;
      tflc__writer_signature *sd = &w->sig[i];
      w->nsig = (int32_t)i + 1;
      if (!d)
        return tflc__stage_error(s, TFLC_ERR_FLATBUFFER, "signature %u broken",
                                 i);
      sd->key = tflc__copy_string(s, d, 2, &bad);
      sd->sg = tflc__get_u32(fb, d, 4, 0);
      for (side = 0; side < 2; side++) {
        uint32_t mv, mn, j;
        tflc__writer_tensor_map *tm;
        if (!tflc__has_field(fb, d, side))
          continue;
        mv = tflc__get_vec(fb, d, side, 4, &mn);
        if (!mv)
          return tflc__stage_error(s, TFLC_ERR_FLATBUFFER,
                                   "signature %u broken", i);
        tm = (tflc__writer_tensor_map *)calloc(mn ? mn : 1, sizeof *tm);
        if (!tm)
          return TFLC_ERR_ARENA;
        if (side == 0) {
          sd->in = tm;
          sd->has_in = 1;
        } else {
          sd->out = tm;
          sd->has_out = 1;
        }
        for (j = 0; j < mn; j++) {
          uint32_t e = tflc__vec_table(fb, mv, j);
          if (!e)
            return tflc__stage_error(s, TFLC_ERR_FLATBUFFER,
                                     "signature %u broken", i);
          tm[j].name = tflc__copy_string(s, e, 0, &bad);
          tm[j].tensor = tflc__get_u32(fb, e, 1, 0);
          if (side == 0)
            sd->nin = (int32_t)j + 1;
          else
            sd->nout = (int32_t)j + 1;
        }
      }
      if (bad)
        return tflc__stage_error(s, TFLC_ERR_FLATBUFFER, "signature %u broken",
                                 i);
    }
  }
  return TFLC_OK;
}

static tflc_status tflc__copy_model(tflc__stage *s, tflc_writer *w) {
  const tflc_model *m = s->m;
  tflc__fb fb = tflc__mfb(m);
  uint32_t i, n, v, k;
  int32_t sg;
  int bad = 0;
  tflc_status st;
  w->raw_model = 1;
  w->version = tflc__get_u32(fb, m->root, TFLC__MODEL_VERSION, 0);
  w->description = tflc__copy_string(s, m->root, 3, &bad);
  if (bad)
    return tflc__stage_error(s, TFLC_ERR_FLATBUFFER, "broken description");
  /* operator codes, in order (operators refer to them by index) */
  for (k = 0; k < (uint32_t)m->num_opcodes; k++) {
    uint32_t oc = tflc__vec_table(fb, m->opcodes, k);
    tflc__writer_opcode *c;
    void *np = tflc__host_grow(w->oc, &w->coc, w->noc + 1, sizeof *w->oc);
    if (!np)
      return TFLC_ERR_ARENA;
    w->oc = (tflc__writer_opcode *)np;
    c = &w->oc[w->noc];
    memset(c, 0, sizeof *c);
    c->raw = 1;
    c->dep = (int8_t)tflc__get_u8(fb, oc, TFLC__OC_DEPRECATED, 0);
    c->version = tflc__get_i32(fb, oc, TFLC__OC_VERSION, 1);
    c->code = tflc__get_i32(fb, oc, TFLC__OC_BUILTIN, 0);
    c->has_code = tflc__has_field(fb, oc, TFLC__OC_BUILTIN);
    c->custom = tflc__copy_string(s, oc, TFLC__OC_CUSTOM, &bad);
    if (bad || s->oom)
      return bad ? TFLC_ERR_FLATBUFFER : TFLC_ERR_ARENA;
    w->noc++;
    tflc__copy_warn_unknown(s, oc, 4, "operator code", (int32_t)k, 0);
  }
  /* subgraphs */
  for (sg = 0; sg < m->num_subgraphs; sg++) {
    uint32_t sgt = tflc__subgraph(m, sg), nt, no;
    tflc__writer_subgraph *ws;
    if (sg > 0 && tflc_writer_subgraph(w) != sg)
      return TFLC_ERR_ARENA;
    ws = &w->sg[sg];
    (void)tflc__sg_vec(m, sgt, TFLC__SG_TENSORS, 4, &nt);
    (void)tflc__sg_vec(m, sgt, TFLC__SG_OPERATORS, 4, &no);
    for (i = 0; i < nt; i++) {
      st = tflc__copy_tensor(s, w, sg, tflc__tensor_table(m, sgt, (int32_t)i),
                             (int32_t)i);
      if (st != TFLC_OK)
        return st;
    }
    st = tflc__copy_i32s(s, sgt, TFLC__SG_INPUTS, &ws->in, &ws->nin, &bad,
                         "subgraph inputs");
    if (st == TFLC_OK)
      st = tflc__copy_i32s(s, sgt, TFLC__SG_OUTPUTS, &ws->out, &ws->nout, &bad,
                           "subgraph outputs");
    if (st != TFLC_OK)
      return st;
    bad = 0;
    for (i = 0; i < no; i++) {
      st = tflc__copy_op(s, w, sg, tflc__op_table(m, sgt, (int32_t)i),
                         (int32_t)i);
      if (st != TFLC_OK)
        return st;
    }
    ws->name = tflc__copy_string(s, sgt, 4, &bad);
    if (bad)
      return tflc__stage_error(s, TFLC_ERR_FLATBUFFER,
                               "subgraph %d: broken name", sg);
    if (tflc__has_field(fb, sgt, 5)) {
      ws->has_dbg = 1;
      ws->dbg = tflc__get_i32(fb, sgt, 5, -1);
    }
    tflc__copy_warn_unknown(s, sgt, 6, "subgraph", sg, 0);
  }
  /* metadata: each entry with its own copy of its buffer */
  v = tflc__get_vec(fb, m->root, TFLC__MODEL_METADATA, 4, &n);
  for (i = 0; v && i < n; i++) {
    uint32_t e = tflc__vec_table(fb, v, i), blen = 0, b;
    const uint8_t *d;
    char *name = tflc__copy_string(s, e, TFLC__MD_NAME, &bad);
    if (bad)
      return tflc__stage_error(s, TFLC_ERR_FLATBUFFER, "metadata %u broken", i);
    if (s->oom)
      return TFLC_ERR_ARENA;
    if (name && strcmp(name, "COMPRESSION_METADATA") == 0) {
      tflc__stage_warn(s, "metadata COMPRESSION_METADATA dropped");
      free(name);
      continue;
    }
    b = tflc__get_u32(fb, e, TFLC__MD_BUFFER, 0);
    d = tflc__buffer(m, b, &blen);
    if (tflc_writer_metadata(w, name ? name : "", d, d ? blen : 0) < 0) {
      free(name);
      return TFLC_ERR_ARENA;
    }
    free(name);
  }
  /* metadata_buffer: buffer indices, each given its own copy */
  if (tflc__has_field(fb, m->root, 5)) {
    st = tflc__copy_i32s(s, m->root, 5, &w->mbuf, &w->nmbuf, &w->has_mbuf,
                         "metadata_buffer");
    if (st != TFLC_OK)
      return st;
    for (i = 0; i < (uint32_t)w->nmbuf; i++) {
      uint32_t blen = 0;
      const uint8_t *d =
          w->mbuf[i] > 0 ? tflc__buffer(m, (uint32_t)w->mbuf[i], &blen) : NULL;
      uint32_t nb = tflc__writer_add_buffer(w, d, d ? blen : 0);
      if (nb == 0)
        return TFLC_ERR_ARENA;
      w->mbuf[i] = (int32_t)nb;
    }
  }
  st = tflc__copy_signatures(s, w);
  if (st != TFLC_OK)
    return st;
  if (tflc__has_field(fb, m->root, 8) || tflc__has_field(fb, m->root, 9))
    tflc__stage_warn(s, "external buffer groups/external buffers dropped");
  tflc__copy_warn_unknown(s, m->root, 10, "model", 0, 0);
  return s->oom ? TFLC_ERR_ARENA : TFLC_OK;
}

/* Common start of every stage: verify, refuse compressed models, copy. */
static tflc_status tflc__stage_open(tflc__stage *s, tflc_model *m,
                                    const void *model, size_t size,
                                    tflc_stage_report *rep, tflc_writer **w) {
  tflc_status st;
  memset(s, 0, sizeof *s);
  s->m = m;
  s->rep = rep;
  *w = NULL;
  if (rep) {
    memset(rep, 0, sizeof *rep);
    rep->in_size = size;
  }
  if (!model)
    return tflc__stage_error(s, TFLC_ERR_ARG, "no model");
  st = tflc_model_init(m, model, size);
  if (st != TFLC_OK)
    return tflc__stage_error(s, st, "model: %s: %s", tflc_status_str(st),
                             tflc_model_error(m));
  if (m->num_lut_tensors > 0)
    return tflc__stage_error(s, TFLC_ERR_UNSUPPORTED,
                             "model: already compressed (%d LUT tensors)",
                             m->num_lut_tensors);
  *w = tflc_writer_create();
  if (!*w)
    return TFLC_ERR_ARENA;
  tflc_writer_set_flags(*w, TFLC_W_FLAG_COMPACT);
  st = tflc__copy_model(s, *w);
  if (st == TFLC_ERR_ARENA)
    return tflc__stage_error(s, st, "out of memory");
  return st;
}

static tflc_status tflc__stage_finish(tflc__stage *s, tflc_writer *w,
                                      uint8_t **out, size_t *out_size) {
  tflc_status st = tflc_writer_finish(w, out, out_size);
  if (st != TFLC_OK)
    return tflc__stage_error(s, st, "writing the model: %s",
                             tflc_status_str(st));
  if (s->oom)
    return tflc__stage_error(s, TFLC_ERR_ARENA, "out of memory");
  if (s->rep)
    s->rep->out_size = *out_size;
  return TFLC_OK;
}

TFLC_API tflc_status tflc_model_copy(const void *model, size_t size,
                                     uint8_t **out, size_t *out_size,
                                     tflc_stage_report *rep) {
  tflc__stage s;
  tflc_model m;
  tflc_writer *w;
  tflc_status st;
  if (!out || !out_size)
    return TFLC_ERR_ARG;
  *out = NULL;
  *out_size = 0;
  st = tflc__stage_open(&s, &m, model, size, rep, &w);
  if (st == TFLC_OK)
    st = tflc__stage_finish(&s, w, out, out_size);
  tflc_writer_destroy(w);
  return st;
}

/* ---- tensor analysis -------------------------------------------------- */

/* What one tensor is, for the stages. */
typedef struct tflc__stage_tensor {
  tflc_tensor v;       /* shape, type, first scale */
  uint32_t tt;         /* tensor table */
  const uint8_t *data; /* constant data or NULL */
  uint32_t len;        /* data bytes */
  const char *name;
  uint32_t name_len;
  size_t esize;     /* element size, 0 if not LUT-able */
  uint64_t count;   /* elements */
  int32_t channels; /* value tables: scales along the axis, or 1 */
  int32_t axis;     /* quantized_dimension when channels > 1 */
  int alt;          /* channels on the last axis */
  uint32_t nscales;
  const char *why; /* why the LUT layout is impossible, or NULL */
} tflc__stage_tensor;

static void tflc__stage_tensor_get(const tflc_model *m, int32_t sg, int32_t t,
                                   tflc__stage_tensor *o) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t sgt = tflc__subgraph(m, sg), b;
  int32_t d;
  memset(o, 0, sizeof *o);
  o->tt = tflc__tensor_table(m, sgt, t);
  (void)tflc_model_tensor(m, sg, t, &o->v, &o->name, &o->name_len);
  if (!o->name) {
    o->name = "";
    o->name_len = 0;
  }
  b = tflc__get_u32(fb, o->tt, TFLC__T_BUFFER, 0);
  o->data = tflc__buffer(m, b, &o->len);
  o->esize = tflc__writer_value_size(o->v.type);
  o->count = 1;
  for (d = 0; d < o->v.rank; d++)
    o->count *= (uint64_t)o->v.dims[d];
  o->channels = 1;
  o->nscales = tflc__tensor_nscales(m, o->tt);
  /* TFLM: per channel iff the quantization has more than one scale */
  if (o->nscales > 1) {
    o->axis = tflc__tensor_qdim(m, o->tt);
    if (o->v.rank < 1 || o->axis < 0 || o->axis >= o->v.rank)
      o->why = "quantized dimension outside the shape";
    else if (o->v.dims[o->axis] != (int32_t)o->nscales)
      o->why = "scale count differs from the channel dimension";
    else if (o->axis != 0 && o->axis != o->v.rank - 1)
      o->why = "per-channel axis neither first nor last";
    else {
      o->channels = (int32_t)o->nscales;
      o->alt = o->axis != 0;
    }
  }
  if (!o->why && !tflc__has_field(fb, o->tt, TFLC__T_SHAPE))
    o->why = "no shape (TFLM refuses compressed scalars)";
  if (!o->why && o->data && o->esize && (uint64_t)o->len != o->count * o->esize)
    o->why = "data size differs from the shape";
  if (!o->why && o->count == 0)
    o->why = "no elements";
}

/* Largest number of distinct values in one channel (element order, with
 * the channel layout of o); 0 on out of memory. */
static size_t tflc__stage_tensor_unique(const tflc__stage_tensor *o) {
  size_t count = (size_t)o->count, ch = (size_t)o->channels, epc, c, j, i;
  size_t best = 0;
  uint64_t *k = (uint64_t *)tflc__host_alloc(count, sizeof(uint64_t));
  if (!k)
    return 0;
  epc = count / ch;
  for (i = 0; i < count; i++) {
    uint64_t key =
        tflc__writer_sort_key(o->v.type, o->data + i * o->esize, o->esize);
    if (o->alt)
      k[(i % ch) * epc + i / ch] = key;
    else
      k[i] = key;
  }
  for (c = 0; c < ch; c++) {
    uint64_t *seg = k + c * epc;
    size_t u = 0;
    qsort(seg, epc, sizeof(uint64_t), tflc__host_cmp_u64);
    for (j = 0; j < epc; j++)
      if (j == 0 || seg[j] != seg[j - 1])
        u++;
    if (u > best)
      best = u;
  }
  free(k);
  return best;
}

static int tflc__bits_for_unique(size_t unique) {
  int b = 1;
  while (b < 31 && ((size_t)1 << b) < unique)
    b++;
  return b;
}

/* How each tensor of a subgraph is used. */
enum {
  TFLC__USE_READ = 1,         /* input of an operator */
  TFLC__USE_WRITTEN = 2,      /* output of an operator */
  TFLC__USE_IO = 4,           /* subgraph input or output */
  TFLC__USE_NOT_DECODABLE = 8 /* read where it cannot be decoded */
};

typedef struct tflc__tensor_uses {
  uint8_t *f;      /* TFLC__USE_* per tensor */
  int32_t *bad_op; /* first op reading it where it cannot be decoded */
  int32_t *bad_in; /* ... at that input */
} tflc__tensor_uses;

/* 1 if TFLM's kernel `code` decompresses its input k: the `inplace`
 * inputs of a TFLC_OPF_TFLM_DECODES row (TFLC_INPUTS_ALL: every input). */
static int tflc__tflm_decodes_input(int32_t code, uint32_t k) {
  tflc_op_info info;
  if (!tflc_op_info_get(code, &info) || !(info.facts & TFLC_OPF_TFLM_DECODES))
    return 0;
  return info.inplace_inputs == TFLC_INPUTS_ALL ||
         (k < 16 && ((info.inplace_inputs >> k) & 1));
}
/* The TFLC_CHECK_* | TFLC_OPF_* facts of operator `code` (0: none). */
static uint16_t tflc__code_facts(int32_t code) {
  tflc_op_info info;
  return tflc_op_info_get(code, &info) ? info.facts : 0;
}

/* 1 if operator `code` can read a compressed input k of `type`: TFLM's
 * six kernels at the inputs they decompress (tflm), else also the data
 * inputs of any builtin tflc runs: not integer inputs (shapes, axes,
 * permutations, paddings... which kernels read while preparing), not the
 * inputs of operators passing tensors to other subgraphs (TFLC_OPF_SUBGRAPHS
 * in the operator table: IF, WHILE, CALL, CALL_ONCE, ...); custom
 * operators only behind a DECODE operator. */
static int tflc__can_decode_input(int32_t code, uint32_t k, int type, int tflm,
                                  int format) {
  tflc_op_info info;
  if (tflc__tflm_decodes_input(code, k))
    return 1;
  if (tflm || code == TFLC_OP_TFLM_DECODE || type == TFLC_INT32 ||
      type == TFLC_INT64)
    return 0;
  if (code == TFLC_OP_UNKNOWN_CUSTOM)
    return format == TFLC_W_DECODE;
  return !tflc_op_info_get(code, &info) || !(info.facts & TFLC_OPF_SUBGRAPHS);
}

static void tflc__tensor_uses_free(tflc__tensor_uses *u) {
  free(u->f);
  free(u->bad_op);
  free(u->bad_in);
}

static tflc_status tflc__tensor_uses_get(const tflc_model *m, int32_t sg,
                                         int tflm, int format,
                                         tflc__tensor_uses *u) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t sgt = tflc__subgraph(m, sg), nt, no, i, j, n, v;
  int32_t slot;
  (void)tflc__sg_vec(m, sgt, TFLC__SG_TENSORS, 4, &nt);
  (void)tflc__sg_vec(m, sgt, TFLC__SG_OPERATORS, 4, &no);
  u->f = (uint8_t *)calloc(nt ? nt : 1, 1);
  u->bad_op = (int32_t *)tflc__host_alloc(nt, sizeof(int32_t));
  u->bad_in = (int32_t *)tflc__host_alloc(nt, sizeof(int32_t));
  if (!u->f || !u->bad_op || !u->bad_in)
    return TFLC_ERR_ARENA;
  for (slot = TFLC__SG_INPUTS; slot <= TFLC__SG_OUTPUTS; slot++) {
    v = tflc__sg_vec(m, sgt, (uint32_t)slot, 4, &n);
    for (j = 0; v && j < n; j++) {
      int32_t t = tflc__i32(fb.b + v + 4 * j);
      if (t >= 0 && (uint32_t)t < nt)
        u->f[t] |= TFLC__USE_IO;
    }
  }
  for (i = 0; i < no; i++) {
    uint32_t ot = tflc__op_table(m, sgt, (int32_t)i);
    int32_t code = tflc__opcode(m, tflc__get_u32(fb, ot, TFLC__OP_OPCODE, 0));
    v = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &n);
    for (j = 0; v && j < n; j++) {
      int32_t t = tflc__i32(fb.b + v + 4 * j);
      if (t < 0 || (uint32_t)t >= nt)
        continue;
      u->f[t] |= TFLC__USE_READ;
      if (!tflc__can_decode_input(
              code, j,
              (int8_t)tflc__get_u8(fb, tflc__tensor_table(m, sgt, t),
                                   TFLC__T_TYPE, 0),
              tflm, format) &&
          !(u->f[t] & TFLC__USE_NOT_DECODABLE)) {
        u->f[t] |= TFLC__USE_NOT_DECODABLE;
        u->bad_op[t] = (int32_t)i;
        u->bad_in[t] = (int32_t)j;
      }
    }
    v = tflc__get_vec(fb, ot, TFLC__OP_OUTPUTS, 4, &n);
    for (j = 0; v && j < n; j++) {
      int32_t t = tflc__i32(fb.b + v + 4 * j);
      if (t >= 0 && (uint32_t)t < nt)
        u->f[t] |= TFLC__USE_WRITTEN;
    }
    /* intermediates are written by the op too */
    v = tflc__get_vec(fb, ot, 8, 4, &n);
    for (j = 0; v && j < n; j++) {
      int32_t t = tflc__i32(fb.b + v + 4 * j);
      if (t >= 0 && (uint32_t)t < nt)
        u->f[t] |= TFLC__USE_WRITTEN;
    }
  }
  return TFLC_OK;
}

static int tflc__tensor_ref_listed(const tflc_tensor_ref *r, int32_t n,
                                   int32_t sg, int32_t t) {
  int32_t i;
  for (i = 0; r && i < n; i++)
    if (r[i].subgraph == sg && r[i].tensor == t)
      return 1;
  return 0;
}

static int tflc__tflm_lut_type(int type) {
  return type == TFLC_FLOAT32 || type == TFLC_INT8 || type == TFLC_INT16 ||
         type == TFLC_INT32 || type == TFLC_INT64 || type == TFLC_BOOL;
}

/* ---- spec reader ---------------------------------------------------------
 * The YAML subset TFLM's spec files use: block mappings and sequences
 * (including "- key: value" items), flow collections ([...], {...}, which
 * may span lines), plain and quoted scalars, comments, "---" / "...".
 * Anchors, aliases, tags and block scalars are refused. */

enum { TFLC__YAML_NULL, TFLC__YAML_SCALAR, TFLC__YAML_MAP, TFLC__YAML_SEQ };

typedef struct tflc__yaml_node {
  int kind, line;
  char *str;                  /* scalar */
  struct tflc__yaml_node **v; /* sequence items, mapping values */
  char **k;                   /* mapping keys */
  int *kline;
  size_t n, cap;
} tflc__yaml_node;

typedef struct tflc__yaml_line {
  int no;     /* 1-based line number */
  int indent; /* leading spaces */
  char *text; /* after the indent, comment and trailing space removed */
} tflc__yaml_line;

typedef struct tflc__yaml_parser {
  tflc__stage *s;
  const char *name; /* file name for messages */
  tflc__yaml_line *l;
  size_t n, cap, cur;
  char *buf; /* copy of the text, lines cut in place */
  int err;
  int depth;
} tflc__yaml_parser;

static void tflc__yaml_node_free(tflc__yaml_node *y) {
  size_t i;
  if (!y)
    return;
  for (i = 0; i < y->n; i++) {
    tflc__yaml_node_free(y->v[i]);
    if (y->k)
      free(y->k[i]);
  }
  free(y->v);
  free(y->k);
  free(y->kline);
  free(y->str);
  free(y);
}

static void tflc__yaml_fail(tflc__yaml_parser *p, int line, const char *fmt,
                            ...) {
  char msg[200];
  va_list ap;
  if (p->err)
    return;
  p->err = 1;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  (void)tflc__stage_error(p->s, TFLC_ERR_ARG, "%s:%d: %s", p->name, line, msg);
}

static tflc__yaml_node *tflc__yaml_node_new(tflc__yaml_parser *p, int kind,
                                            int line) {
  tflc__yaml_node *y = (tflc__yaml_node *)calloc(1, sizeof *y);
  if (!y) {
    p->s->oom = 1;
    tflc__yaml_fail(p, line, "out of memory");
    return NULL;
  }
  y->kind = kind;
  y->line = line;
  return y;
}

/* Appends (key, value) to a mapping or value to a sequence (key NULL);
 * takes both over. */
static int tflc__yaml_node_add(tflc__yaml_parser *p, tflc__yaml_node *y,
                               char *key, int kline, tflc__yaml_node *v) {
  size_t cap = y->cap;
  void *a = tflc__host_grow(y->v, &cap, y->n + 1, sizeof(tflc__yaml_node *));
  if (a)
    y->v = (tflc__yaml_node **)a;
  if (a && y->kind == TFLC__YAML_MAP) {
    size_t c2 = y->cap, c3 = y->cap;
    void *b = tflc__host_grow(y->k, &c2, y->n + 1, sizeof(char *));
    void *c = b ? tflc__host_grow(y->kline, &c3, y->n + 1, sizeof(int)) : NULL;
    if (b)
      y->k = (char **)b;
    if (c)
      y->kline = (int *)c;
    if (!b || !c)
      a = NULL;
  }
  if (!a) {
    free(key);
    tflc__yaml_node_free(v);
    p->s->oom = 1;
    tflc__yaml_fail(p, kline, "out of memory");
    return 0;
  }
  y->cap = cap;
  y->v[y->n] = v;
  if (y->kind == TFLC__YAML_MAP) {
    y->k[y->n] = key;
    y->kline[y->n] = kline;
  }
  y->n++;
  return 1;
}

/* Splits the text into lines: indent, comments and trailing blanks cut. */
static int tflc__yaml_split_lines(tflc__yaml_parser *p, const char *text,
                                  size_t len) {
  size_t i = 0;
  int no = 0;
  p->buf = (char *)malloc(len + 1);
  if (!p->buf)
    return 0;
  memcpy(p->buf, text, len);
  p->buf[len] = 0;
  while (i < len || (i == len && no == 0)) {
    char *line = p->buf + i, *e;
    size_t j = 0;
    int ind = 0, q = 0;
    no++;
    while (i < len && p->buf[i] != '\n')
      i++;
    if (i < len)
      p->buf[i++] = 0;
    else if (i == len && p->buf[len] == 0 && line == p->buf + len)
      break;
    e = line + strlen(line);
    if (e > line && e[-1] == '\r')
      *--e = 0;
    while (line[ind] == ' ')
      ind++;
    if (line[ind] == '\t') {
      tflc__yaml_fail(p, no, "tab in indentation");
      return 0;
    }
    for (j = (size_t)ind; line[j]; j++) { /* comment: # after a blank */
      char c = line[j];
      if (q) {
        if (c == q)
          q = 0;
      } else if (c == '"' || c == '\'') {
        if (j == (size_t)ind || strchr(" [{,:", line[j - 1]))
          q = c;
      } else if (c == '#' && (j == (size_t)ind || line[j - 1] == ' ' ||
                              line[j - 1] == '\t')) {
        line[j] = 0;
        break;
      }
    }
    e = line + strlen(line);
    while (e > line + ind && (e[-1] == ' ' || e[-1] == '\t'))
      *--e = 0;
    if (!line[ind] || line[0] == '%')
      continue;
    if (ind == 0 && (strcmp(line, "---") == 0 || strcmp(line, "...") == 0))
      continue;
    {
      void *np = tflc__host_grow(p->l, &p->cap, p->n + 1, sizeof *p->l);
      if (!np)
        return 0;
      p->l = (tflc__yaml_line *)np;
      p->l[p->n].no = no;
      p->l[p->n].indent = ind;
      p->l[p->n].text = line + ind;
      p->n++;
    }
  }
  return 1;
}

static int tflc__yaml_dash(const char *t) {
  return t[0] == '-' && (t[1] == 0 || t[1] == ' ');
}

/* Position of the ':' ending a block mapping key in t (outside quotes,
 * followed by a blank or the end), or NULL. */
static char *tflc__yaml_colon(char *t) {
  char q = 0;
  if (*t == '[' || *t == '{')
    return NULL;
  for (; *t; t++) {
    if (q) {
      if (*t == q)
        q = 0;
    } else if (*t == '"' || *t == '\'') {
      q = *t;
    } else if (*t == ':' && (t[1] == 0 || t[1] == ' ')) {
      return t;
    }
  }
  return NULL;
}

/* A scalar from t[0..n) (plain, '...' or "..."); NULL on error. */
static tflc__yaml_node *tflc__yaml_scalar(tflc__yaml_parser *p, const char *t,
                                          size_t n, int line) {
  tflc__yaml_node *y;
  char *o;
  size_t i, k = 0;
  while (n && (*t == ' ' || *t == '\t')) {
    t++;
    n--;
  }
  while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
    n--;
  if (n && (*t == '&' || *t == '*' || *t == '!' || *t == '|' || *t == '>' ||
            *t == '@' || *t == '`')) {
    tflc__yaml_fail(p, line,
                    "'%c' (anchors, aliases, tags, block scalars) "
                    "not supported",
                    *t);
    return NULL;
  }
  if (n == 0 || (n == 1 && *t == '~') || (n == 4 && !memcmp(t, "null", 4)) ||
      (n == 4 && !memcmp(t, "Null", 4)) || (n == 4 && !memcmp(t, "NULL", 4)))
    return tflc__yaml_node_new(p, TFLC__YAML_NULL, line);
  y = tflc__yaml_node_new(p, TFLC__YAML_SCALAR, line);
  if (!y)
    return NULL;
  o = y->str = (char *)malloc(n + 1);
  if (!o) {
    free(y);
    p->s->oom = 1;
    tflc__yaml_fail(p, line, "out of memory");
    return NULL;
  }
  if (*t == '\'' || *t == '"') {
    char q = *t;
    for (i = 1; i < n; i++) {
      if (t[i] == q) {
        if (q == '\'' && i + 1 < n && t[i + 1] == '\'') {
          o[k++] = '\'';
          i++;
          continue;
        }
        break;
      }
      if (q == '"' && t[i] == '\\' && i + 1 < n) {
        char e = t[++i];
        o[k++] = e == 'n' ? '\n' : e == 't' ? '\t' : e;
        continue;
      }
      o[k++] = t[i];
    }
    if (i != n - 1) {
      tflc__yaml_node_free(y);
      tflc__yaml_fail(p, line,
                      "unterminated or trailing text after a quoted "
                      "scalar");
      return NULL;
    }
  } else {
    memcpy(o, t, n);
    k = n;
  }
  o[k] = 0;
  return y;
}

/* Flow collection or scalar at *t (text joined over lines). */
static tflc__yaml_node *tflc__yaml_flow(tflc__yaml_parser *p, const char **t,
                                        int line, int in_flow) {
  const char *s = *t;
  tflc__yaml_node *y;
  while (*s == ' ')
    s++;
  if (*s == '[' || *s == '{') {
    char close = *s == '[' ? ']' : '}';
    if (++p->depth > 64) {
      tflc__yaml_fail(p, line, "nesting too deep");
      return NULL;
    }
    y = tflc__yaml_node_new(p, *s == '[' ? TFLC__YAML_SEQ : TFLC__YAML_MAP,
                            line);
    if (!y)
      return NULL;
    s++;
    for (;;) {
      char *key = NULL;
      tflc__yaml_node *v;
      while (*s == ' ')
        s++;
      if (*s == close) {
        s++;
        break;
      }
      if (!*s) {
        tflc__yaml_fail(p, line, "unterminated '%c'", close == ']' ? '[' : '{');
        tflc__yaml_node_free(y);
        return NULL;
      }
      if (y->kind == TFLC__YAML_MAP) {
        const char *ks = s;
        tflc__yaml_node *kn;
        char q = 0;
        while (*s && (q || !(*s == ':' || *s == ',' || *s == '}'))) {
          if (q && *s == q)
            q = 0;
          else if (!q && (*s == '"' || *s == '\'') && s == ks)
            q = *s;
          s++;
        }
        if (*s != ':') {
          tflc__yaml_fail(p, line, "expected 'key: value' in '{...}'");
          tflc__yaml_node_free(y);
          return NULL;
        }
        kn = tflc__yaml_scalar(p, ks, (size_t)(s - ks), line);
        if (!kn || kn->kind != TFLC__YAML_SCALAR) {
          if (kn)
            tflc__yaml_fail(p, line, "empty key");
          tflc__yaml_node_free(kn);
          tflc__yaml_node_free(y);
          return NULL;
        }
        key = kn->str;
        kn->str = NULL;
        tflc__yaml_node_free(kn);
        s++;
      }
      v = tflc__yaml_flow(p, &s, line, 1);
      if (!v) {
        free(key);
        tflc__yaml_node_free(y);
        return NULL;
      }
      if (!tflc__yaml_node_add(p, y, key, line, v)) {
        tflc__yaml_node_free(y);
        return NULL;
      }
      while (*s == ' ')
        s++;
      if (*s == ',')
        s++;
      else if (*s != close) {
        tflc__yaml_fail(p, line, "expected ',' or '%c'", close);
        tflc__yaml_node_free(y);
        return NULL;
      }
    }
    p->depth--;
    *t = s;
    return y;
  } else {
    const char *b = s;
    char q = (*s == '"' || *s == '\'') ? *s : 0;
    if (q) {
      s++;
      while (*s && *s != q)
        s++;
      if (*s)
        s++;
    } else {
      while (*s && !(in_flow && (*s == ',' || *s == ']' || *s == '}')))
        s++;
    }
    *t = s;
    return tflc__yaml_scalar(p, b, (size_t)(s - b), line);
  }
}

/* A flow value starting in line `cur` at text t; joins following lines
 * until the brackets close. */
static tflc__yaml_node *tflc__yaml_flow_lines(tflc__yaml_parser *p,
                                              const char *t) {
  int line = p->l[p->cur].no, depth = 0;
  size_t need = 0, i, j;
  char *joined, *o, q = 0;
  const char *r;
  tflc__yaml_node *y;
  /* how many lines the collection spans */
  for (i = p->cur; i < p->n; i++) {
    const char *c = i == p->cur ? t : p->l[i].text;
    for (; *c; c++) {
      if (q) {
        if (*c == q)
          q = 0;
      } else if (*c == '"' || *c == '\'') {
        q = *c;
      } else if (*c == '[' || *c == '{') {
        depth++;
      } else if (*c == ']' || *c == '}') {
        depth--;
      }
    }
    need += strlen(i == p->cur ? t : p->l[i].text) + 1;
    if (depth <= 0)
      break;
  }
  if (i == p->n) {
    tflc__yaml_fail(p, line, "unterminated flow collection");
    return NULL;
  }
  joined = (char *)malloc(need + 1);
  if (!joined) {
    p->s->oom = 1;
    tflc__yaml_fail(p, line, "out of memory");
    return NULL;
  }
  o = joined;
  for (j = p->cur; j <= i; j++) {
    const char *c = j == p->cur ? t : p->l[j].text;
    size_t n = strlen(c);
    memcpy(o, c, n);
    o += n;
    *o++ = ' ';
  }
  *o = 0;
  r = joined;
  y = tflc__yaml_flow(p, &r, line, 0);
  while (y && *r == ' ')
    r++;
  if (y && *r) {
    tflc__yaml_fail(p, line, "unexpected text after the flow collection");
    tflc__yaml_node_free(y);
    y = NULL;
  }
  free(joined);
  p->cur = i + 1;
  return y;
}

static tflc__yaml_node *tflc__yaml_block(tflc__yaml_parser *p, int indent);

static tflc__yaml_node *tflc__yaml_seq(tflc__yaml_parser *p, int indent) {
  tflc__yaml_node *y = tflc__yaml_node_new(p, TFLC__YAML_SEQ, p->l[p->cur].no);
  while (y && !p->err && p->cur < p->n && p->l[p->cur].indent == indent &&
         tflc__yaml_dash(p->l[p->cur].text)) {
    tflc__yaml_line *ln = &p->l[p->cur];
    char *rest = ln->text + 1;
    tflc__yaml_node *v;
    int off = 1;
    while (*rest == ' ') {
      rest++;
      off++;
    }
    if (!*rest) {
      p->cur++;
      if (p->cur < p->n && p->l[p->cur].indent > indent)
        v = tflc__yaml_block(p, p->l[p->cur].indent);
      else
        v = tflc__yaml_node_new(p, TFLC__YAML_NULL, ln->no);
    } else { /* the item starts on the dash's line */
      ln->indent = indent + off;
      ln->text = rest;
      v = tflc__yaml_block(p, ln->indent);
    }
    if (!v || !tflc__yaml_node_add(p, y, NULL, 0, v)) {
      tflc__yaml_node_free(y);
      return NULL;
    }
  }
  if (y && !p->err && p->cur < p->n && p->l[p->cur].indent > indent)
    tflc__yaml_fail(p, p->l[p->cur].no, "bad indentation");
  if (p->err) {
    tflc__yaml_node_free(y);
    return NULL;
  }
  return y;
}

static tflc__yaml_node *tflc__yaml_map(tflc__yaml_parser *p, int indent) {
  tflc__yaml_node *y = tflc__yaml_node_new(p, TFLC__YAML_MAP, p->l[p->cur].no);
  while (y && !p->err && p->cur < p->n && p->l[p->cur].indent == indent) {
    tflc__yaml_line *ln = &p->l[p->cur];
    char *c = tflc__yaml_colon(ln->text), *val, *key;
    tflc__yaml_node *kn, *v;
    size_t i;
    int kl = ln->no;
    if (!c) {
      tflc__yaml_fail(p, ln->no, "expected 'key: value'");
      break;
    }
    kn = tflc__yaml_scalar(p, ln->text, (size_t)(c - ln->text), ln->no);
    if (!kn || kn->kind != TFLC__YAML_SCALAR) {
      if (kn)
        tflc__yaml_fail(p, ln->no, "empty key");
      tflc__yaml_node_free(kn);
      break;
    }
    key = kn->str;
    kn->str = NULL;
    tflc__yaml_node_free(kn);
    for (i = 0; i < y->n; i++)
      if (strcmp(y->k[i], key) == 0) {
        tflc__yaml_fail(p, ln->no, "key '%s' given twice", key);
        break;
      }
    val = c + 1;
    while (*val == ' ')
      val++;
    if (p->err) {
      v = NULL;
    } else if (!*val) {
      p->cur++;
      if (p->cur < p->n && p->l[p->cur].indent > indent)
        v = tflc__yaml_block(p, p->l[p->cur].indent);
      else if (p->cur < p->n && p->l[p->cur].indent == indent &&
               tflc__yaml_dash(p->l[p->cur].text))
        v = tflc__yaml_seq(p, indent);
      else
        v = tflc__yaml_node_new(p, TFLC__YAML_NULL, kl);
    } else if (*val == '[' || *val == '{') {
      v = tflc__yaml_flow_lines(p, val);
    } else {
      v = tflc__yaml_scalar(p, val, strlen(val), ln->no);
      p->cur++;
    }
    if (!v) {
      free(key);
      break;
    }
    if (!tflc__yaml_node_add(p, y, key, kl, v))
      break;
  }
  if (!p->err && p->cur < p->n && p->l[p->cur].indent > indent)
    tflc__yaml_fail(p, p->l[p->cur].no, "bad indentation");
  if (p->err) {
    tflc__yaml_node_free(y);
    return NULL;
  }
  return y;
}

static tflc__yaml_node *tflc__yaml_block(tflc__yaml_parser *p, int indent) {
  tflc__yaml_line *ln = &p->l[p->cur];
  tflc__yaml_node *y;
  if (++p->depth > 64) {
    tflc__yaml_fail(p, ln->no, "nesting too deep");
    return NULL;
  }
  if (tflc__yaml_dash(ln->text))
    y = tflc__yaml_seq(p, indent);
  else if (ln->text[0] == '[' || ln->text[0] == '{')
    y = tflc__yaml_flow_lines(p, ln->text);
  else if (tflc__yaml_colon(ln->text))
    y = tflc__yaml_map(p, indent);
  else {
    y = tflc__yaml_scalar(p, ln->text, strlen(ln->text), ln->no);
    p->cur++;
    if (y && p->cur < p->n && p->l[p->cur].indent > indent) {
      tflc__yaml_fail(p, p->l[p->cur].no, "multi-line scalars not supported");
      tflc__yaml_node_free(y);
      y = NULL;
    }
  }
  p->depth--;
  return y;
}

/* Looks up key in a mapping; NULL when absent. */
static tflc__yaml_node *tflc__yaml_get(const tflc__yaml_node *y,
                                       const char *key, int *line) {
  size_t i;
  for (i = 0; y && y->kind == TFLC__YAML_MAP && i < y->n; i++)
    if (strcmp(y->k[i], key) == 0) {
      if (line)
        *line = y->kline[i];
      return y->v[i];
    }
  return NULL;
}

/* Integer scalar (decimal, optional sign); 0 if not one. */
static int tflc__yaml_int(const tflc__yaml_node *y, long long *out) {
  const char *s;
  char *e;
  long long v;
  if (!y || y->kind != TFLC__YAML_SCALAR)
    return 0;
  s = y->str;
  if (!*s || !(isdigit((unsigned char)*s) || *s == '-' || *s == '+'))
    return 0;
  errno = 0;
  v = strtoll(s, &e, 10);
  if (*e || errno)
    return 0;
  *out = v;
  return 1;
}

/* One spec entry. */
typedef struct tflc__spec_entry {
  int32_t sg, tensor, bits, line;
  int mode; /* 0 unsaid, 1 per_tensor, 2 per_channel */
  int32_t axis;
  int method; /* TFLC_METHOD_*: lut, huffman, pruning; 0 = the options' */
} tflc__spec_entry;

static void tflc__yaml_unknown_keys(tflc__yaml_parser *p,
                                    const tflc__yaml_node *y,
                                    const char *const *known,
                                    const char *what) {
  size_t i, j;
  for (i = 0; y && y->kind == TFLC__YAML_MAP && i < y->n; i++) {
    for (j = 0; known[j]; j++)
      if (strcmp(y->k[i], known[j]) == 0)
        break;
    if (!known[j])
      tflc__stage_warn(p->s, "%s:%d: unknown key '%s' in %s ignored", p->name,
                       y->kline[i], y->k[i], what);
  }
}

/* Reads the spec text into *out (malloc'd), *n entries. */
/* One entry of a spec's 'tensors' list (`it`, a mapping) into e: 1, or 0
 * after reporting what is wrong to p. */
static int tflc__spec_entry_read(tflc__yaml_parser *p,
                                 const tflc__yaml_node *it,
                                 tflc__spec_entry *e) {
  static const char *const k_item[] = {"subgraph", "tensor", "compression",
                                       NULL};
  static const char *const k_lut[] = {"index_bitwidth", "per_tensor",
                                      "per_channel", NULL};
  const tflc__yaml_node *c, *m, *lut, *bw, *pc;
  long long sg, t, bits, ax;
  int l2 = it->line;
  if (it->kind != TFLC__YAML_MAP) {
    tflc__yaml_fail(p, it->line, "a tensors entry must be a mapping");
    return 0;
  }
  tflc__yaml_unknown_keys(p, it, k_item, "a tensors entry");
  if (!tflc__yaml_int(tflc__yaml_get(it, "subgraph", &l2), &sg) || sg < 0 ||
      sg > 0x7fffffff) {
    tflc__yaml_fail(p, tflc__yaml_get(it, "subgraph", NULL) ? l2 : it->line,
                    "'subgraph' missing or not a non-negative integer");
    return 0;
  }
  if (!tflc__yaml_int(tflc__yaml_get(it, "tensor", &l2), &t) || t < 0 ||
      t > 0x7fffffff) {
    tflc__yaml_fail(p, tflc__yaml_get(it, "tensor", NULL) ? l2 : it->line,
                    "'tensor' missing or not a non-negative integer");
    return 0;
  }
  c = tflc__yaml_get(it, "compression", &l2);
  if (!c || c->kind != TFLC__YAML_SEQ || c->n == 0) {
    tflc__yaml_fail(p, c ? l2 : it->line,
                    "'compression' missing or not a list of methods");
    return 0;
  }
  if (c->n > 1) {
    tflc__yaml_fail(p, c->v[1]->line, "one compression method per tensor");
    return 0;
  }
  m = c->v[0];
  if (m->kind != TFLC__YAML_MAP || m->n != 1) {
    tflc__yaml_fail(p, m->line, "a compression method is one 'name: ...'");
    return 0;
  }
  if (strcmp(m->k[0], "huffman") == 0 || strcmp(m->k[0], "pruning") == 0) {
    /* TFLM's spec: these take no parameters (the value is not read) */
    e->sg = (int32_t)sg;
    e->tensor = (int32_t)t;
    e->line = it->line;
    e->method = m->k[0][0] == 'h' ? TFLC_METHOD_HUFFMAN : TFLC_METHOD_PRUNE;
    return 1;
  }
  if (strcmp(m->k[0], "lut") != 0) {
    tflc__yaml_fail(p, m->kline[0], "compression method '%s' unknown", m->k[0]);
    return 0;
  }
  lut = m->v[0];
  if (lut->kind != TFLC__YAML_MAP) {
    tflc__yaml_fail(p, m->kline[0], "'lut' needs 'index_bitwidth: N'");
    return 0;
  }
  tflc__yaml_unknown_keys(p, lut, k_lut, "lut");
  bw = tflc__yaml_get(lut, "index_bitwidth", &l2);
  if (!tflc__yaml_int(bw, &bits) || bits < 1 || bits > 8) {
    tflc__yaml_fail(p, bw ? l2 : lut->line,
                    "'index_bitwidth' missing or not 1..7 (8: tflc only)");
    return 0;
  }
  e->sg = (int32_t)sg;
  e->tensor = (int32_t)t;
  e->bits = (int32_t)bits;
  e->line = it->line;
  e->method = TFLC_METHOD_LUT;
  if (tflc__yaml_get(lut, "per_tensor", &l2)) {
    if (tflc__yaml_get(lut, "per_tensor", NULL)->kind != TFLC__YAML_NULL) {
      tflc__yaml_fail(p, l2, "per_tensor takes no value");
      return 0;
    }
    e->mode = 1;
  }
  pc = tflc__yaml_get(lut, "per_channel", &l2);
  if (pc) {
    if (e->mode) {
      tflc__yaml_fail(p, l2, "per_tensor and per_channel both given");
      return 0;
    }
    if (!tflc__yaml_int(tflc__yaml_get(pc, "axis", &l2), &ax) || ax < 0 ||
        ax > 0x7fffffff) {
      tflc__yaml_fail(p, l2, "per_channel needs 'axis: N' (N >= 0)");
      return 0;
    }
    e->mode = 2;
    e->axis = (int32_t)ax;
  }
  return 1;
}

static tflc_status tflc__spec_read(tflc__stage *s, const char *text, size_t len,
                                   const char *name, tflc__spec_entry **out,
                                   int32_t *n) {
  static const char *const k_root[] = {"tensors", NULL};
  tflc__yaml_parser p;
  tflc__yaml_node *root = NULL, *list;
  tflc__spec_entry *e = NULL;
  size_t i;
  int line = 1;
  *out = NULL;
  *n = 0;
  memset(&p, 0, sizeof p);
  p.s = s;
  p.name = name ? name : "spec";
  if (text && len >= 3 && (uint8_t)text[0] == 0xEF &&
      (uint8_t)text[1] == 0xBB && (uint8_t)text[2] == 0xBF) {
    text += 3; /* a UTF-8 byte order mark */
    len -= 3;
  }
  if (!tflc__yaml_split_lines(&p, text ? text : "", text ? len : 0)) {
    if (!p.err)
      tflc__yaml_fail(&p, 1, "out of memory");
    goto done;
  }
  if (p.n == 0) {
    tflc__yaml_fail(&p, 1, "empty spec (expected 'tensors:')");
    goto done;
  }
  if (p.l[0].indent != 0)
    tflc__yaml_fail(&p, p.l[0].no, "bad indentation");
  if (!p.err)
    root = tflc__yaml_block(&p, 0);
  if (!p.err && p.cur < p.n)
    tflc__yaml_fail(&p, p.l[p.cur].no, "unexpected text");
  if (p.err)
    goto done;
  if (!root || root->kind != TFLC__YAML_MAP) {
    tflc__yaml_fail(&p, root ? root->line : 1, "expected a mapping 'tensors:'");
    goto done;
  }
  tflc__yaml_unknown_keys(&p, root, k_root, "the root");
  list = tflc__yaml_get(root, "tensors", &line);
  if (!list) {
    tflc__yaml_fail(&p, root->line, "no 'tensors:' key");
    goto done;
  }
  if (list->kind == TFLC__YAML_NULL)
    goto done; /* nothing to compress */
  if (list->kind != TFLC__YAML_SEQ) {
    tflc__yaml_fail(&p, line, "'tensors' must be a list");
    goto done;
  }
  e = (tflc__spec_entry *)calloc(list->n ? list->n : 1, sizeof *e);
  if (!e) {
    tflc__yaml_fail(&p, line, "out of memory");
    goto done;
  }
  for (i = 0; i < list->n && !p.err; i++) {
    if (!tflc__spec_entry_read(&p, list->v[i], &e[i]))
      break;
    *n = (int32_t)i + 1;
  }
done:
  tflc__yaml_node_free(root);
  free(p.l);
  free(p.buf);
  if (p.err) {
    free(e);
    *n = 0;
    return s->oom ? TFLC_ERR_ARENA : TFLC_ERR_ARG;
  }
  *out = e;
  return TFLC_OK;
}

/* ---- tflc_compress ---------------------------------------------------- */

/* Bytes of compressed data for a tensor: packed indices + value tables
 * (+ the 16-byte DECODE header). */
static size_t tflc__compressed_size(const tflc__stage_tensor *o, int bits,
                                    size_t stride, int format) {
  size_t idx = tflc_writer_packed_size((size_t)o->count, bits);
  return idx + (size_t)o->channels * stride * o->esize +
         (format == TFLC_W_DECODE ? 16u : 0u);
}

/* Checks tensor (sg, t) for compression. Returns 0 and a reason in `why`
 * when it cannot be compressed; else 1 with *unique. `spec` relaxes the
 * usage rules to warnings (the user asked for it). */
static int tflc__compress_check(tflc__stage *s, const tflc__stage_tensor *o,
                                const tflc__tensor_uses *u, int32_t sg,
                                int32_t t, int tflm, int format, int spec,
                                size_t *unique, char *why, size_t wn) {
  uint8_t f = u->f[t];
  why[0] = 0;
  if (!o->data) {
    snprintf(why, wn, "not a constant");
    return 0;
  }
  if (tflc__get_u8(tflc__mfb(s->m), o->tt, TFLC__T_VARIABLE, 0)) {
    snprintf(why, wn, "a variable");
    return 0;
  }
  if (f & TFLC__USE_WRITTEN) {
    snprintf(why, wn, "written by an operator");
    return 0;
  }
  if (!o->esize || (tflm && !tflc__tflm_lut_type(o->v.type))) {
    snprintf(why, wn, "type %s not compressible%s", tflc_type_name(o->v.type),
             o->esize ? " by TFLM" : "");
    return 0;
  }
  if (o->why) {
    snprintf(why, wn, "%s", o->why);
    return 0;
  }
  if (!spec) {
    if (f & TFLC__USE_IO) {
      snprintf(why, wn, "a subgraph input or output");
      return 0;
    }
    if (!(f & TFLC__USE_READ)) {
      snprintf(why, wn, "read by no operator");
      return 0;
    }
    if (f & TFLC__USE_NOT_DECODABLE) {
      int32_t code = tflc_model_op_code(s->m, sg, u->bad_op[t]);
      if (!tflm && (o->v.type == TFLC_INT32 || o->v.type == TFLC_INT64) &&
          code != TFLC_OP_UNKNOWN_CUSTOM)
        snprintf(why, wn,
                 "integer input %d of op %d %s (a shape/axis-like parameter "
                 "read while preparing)",
                 u->bad_in[t], u->bad_op[t], tflc_opcode_name(code));
      else
        snprintf(why, wn, "input %d of op %d %s, which %s cannot decode",
                 u->bad_in[t], u->bad_op[t], tflc_opcode_name(code),
                 tflm ? "TFLM" : "tflc");
      return 0;
    }
  } else {
    if (f & TFLC__USE_NOT_DECODABLE) {
      int32_t code = tflc_model_op_code(s->m, sg, u->bad_op[t]);
      tflc__stage_warn(s,
                       "tensor %d:%d: input %d of op %d %s, which %s cannot "
                       "decode",
                       sg, t, u->bad_in[t], u->bad_op[t],
                       tflc_opcode_name(code), tflm ? "TFLM" : "tflc");
    }
    if ((f & TFLC__USE_IO) && format == TFLC_W_METADATA)
      tflc__stage_warn(s,
                       "tensor %d:%d: a subgraph input or output, compressed: "
                       "its readers get the packed indices",
                       sg, t);
  }
  *unique = tflc__stage_tensor_unique(o);
  if (*unique == 0) {
    s->oom = 1;
    snprintf(why, wn, "out of memory");
    return 0;
  }
  return 1;
}

/* ---- Huffman, Prune and INT4 in the compression stage ---------------------
 * The methods beyond LUT: the bytes each would take (encoded + ancillary
 * data with its 16-byte header), the cheapest chosen per tensor, and the
 * INT4 pass that runs before. */

/* Zero points of tensor table tt as TFLM's decoders see them (*n = 0 when
 * the tensor is not quantized: TFLM needs both scales and zero points);
 * malloc'd, NULL on out of memory with *n > 0. */
static int64_t *tflc__stage_zero_points(const tflc_model *m, uint32_t tt,
                                        int32_t *n) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t qt = tflc__get_ref(fb, tt, TFLC__T_QUANT), ns = 0, nz = 0, i;
  uint32_t sv = qt ? tflc__get_vec(fb, qt, TFLC__Q_SCALE, 4, &ns) : 0;
  uint32_t zv = qt ? tflc__get_vec(fb, qt, TFLC__Q_ZP, 8, &nz) : 0;
  int64_t *z;
  *n = 0;
  if (!sv || !zv || ns == 0 || nz == 0)
    return NULL;
  z = (int64_t *)tflc__host_alloc(nz, sizeof(int64_t));
  if (!z) {
    *n = (int32_t)nz;
    return NULL;
  }
  for (i = 0; i < nz; i++)
    z[i] = (int64_t)tflc__u64(fb.b + zv + 8 * i);
  *n = (int32_t)nz;
  return z;
}

/* Bytes of a Huffman (method TFLC_METHOD_HUFFMAN) or Prune encoding of o,
 * 0 when it does not apply (why says so). */
static size_t tflc__stage_method_size(tflc__stage *s,
                                      const tflc__stage_tensor *o, int method,
                                      char *why, size_t wn) {
  uint8_t *enc = NULL, *anc = NULL;
  size_t ne = 0, na = 0;
  tflc_status st;
  if (method == TFLC_METHOD_HUFFMAN) {
    if (o->v.type != TFLC_INT8 && o->v.type != TFLC_INT16) {
      snprintf(why, wn, "Huffman: type %s (INT8, INT16 only)",
               tflc_type_name(o->v.type));
      return 0;
    }
    st = tflc_encode_huffman(o->v.type, o->data, (size_t)o->count, 0, 0, &enc,
                             &ne, &anc, &na);
  } else {
    int32_t nz = 0, qd = tflc__tensor_qdim(s->m, o->tt);
    int64_t *z = tflc__stage_zero_points(s->m, o->tt, &nz);
    int alt = 0;
    if (nz && !z) {
      s->oom = 1;
      return 0;
    }
    if (nz) { /* TFLM's Prune: channels on axis 0 or the last axis */
      if (o->nscales > 1 && qd == o->v.rank - 1)
        alt = 1;
      else if (qd != 0) {
        free(z);
        snprintf(why, wn, "Prune: quantization axis %d (TFLM refuses it)", qd);
        return 0;
      }
    }
    st = tflc_encode_prune(o->v.type, o->data, (size_t)o->count, z, nz,
                           nz ? (int32_t)o->nscales : 1, alt, &enc, &ne, &anc,
                           &na);
    free(z);
  }
  free(enc);
  free(anc);
  if (st == TFLC_ERR_ARENA)
    s->oom = 1;
  if (st != TFLC_OK) {
    snprintf(why, wn, "%s: %s",
             method == TFLC_METHOD_HUFFMAN ? "Huffman" : "Prune",
             st == TFLC_ERR_TYPE    ? "type not decoded by TFLM"
             : st == TFLC_ERR_QUANT ? "zero points TFLM refuses"
                                    : tflc_status_str(st));
    return 0;
  }
  return ne + na;
}

static const char *tflc__method_name(int method) {
  switch (method) {
  case TFLC_METHOD_LUT:
    return "LUT";
  case TFLC_METHOD_HUFFMAN:
    return "Huffman";
  case TFLC_METHOD_PRUNE:
    return "Prune";
  case TFLC_METHOD_INT4:
    return "INT4";
  default:
    return "none";
  }
}

/* Compresses (sg, t) with the cheapest of `methods` that applies (LUT at
 * `bits`, 0 = the width its `unique` values need; Huffman; Prune), ties
 * going to the faster decoder (LUT, Prune, Huffman). Without `forced` a
 * tensor nothing makes smaller stays as it is (unless allow_growth).
 * Returns an error only when the work fails (or `forced` and no method
 * applies); the entry says what was done. */
static tflc_status tflc__compress_tensor(tflc__stage *s, tflc_writer *w,
                                         const tflc__stage_tensor *o,
                                         int32_t sg, int32_t t, int methods,
                                         int format, int maxbits, int bits,
                                         size_t unique, int allow_growth,
                                         int forced, tflc_stage_entry *en) {
  char why_h[96] = "", why_p[96] = "", why_l[96] = "";
  size_t lut = 0, huff = 0, prune = 0, best = 0;
  int method = 0;
  tflc_status st;
  const int need = tflc__bits_for_unique(unique);
  if (methods & TFLC_METHOD_LUT) {
    const int b = bits ? bits : need;
    if (need > b || b > maxbits || (format == TFLC_W_DECODE && unique > 255))
      snprintf(why_l, sizeof why_l, "LUT: %lu values per table",
               (unsigned long)unique);
    else
      lut = tflc__compressed_size(o, b, unique, format);
  }
  if (format == TFLC_W_DECODE && (methods & TFLC_METHOD_HUFFMAN))
    huff =
        tflc__stage_method_size(s, o, TFLC_METHOD_HUFFMAN, why_h, sizeof why_h);
  if (format == TFLC_W_DECODE && (methods & TFLC_METHOD_PRUNE))
    prune =
        tflc__stage_method_size(s, o, TFLC_METHOD_PRUNE, why_p, sizeof why_p);
  if (s->oom)
    return tflc__stage_error(s, TFLC_ERR_ARENA, "out of memory");
  if (lut && (!method || lut < best)) {
    best = lut;
    method = TFLC_METHOD_LUT;
  }
  if (prune && (!method || prune < best)) {
    best = prune;
    method = TFLC_METHOD_PRUNE;
  }
  if (huff && (!method || huff < best)) {
    best = huff;
    method = TFLC_METHOD_HUFFMAN;
  }
  if (en) {
    en->size_lut = lut;
    en->size_huffman = huff;
    en->size_prune = prune;
    en->unique = (int32_t)unique;
    en->bytes_before = o->len;
    en->bytes_after = best;
  }
  if (!method) {
    if (forced)
      return tflc__stage_error(s, TFLC_ERR_ARG,
                               "tensor %d:%d (%.*s): cannot compress: %s%s%s%s"
                               "%s",
                               sg, t, (int)o->name_len, o->name, why_l,
                               why_l[0] && why_h[0] ? "; " : "", why_h,
                               (why_l[0] || why_h[0]) && why_p[0] ? "; " : "",
                               why_p);
    tflc__stage_reason(en, "no method applies: %s%s%s%s%s", why_l,
                       why_l[0] && why_h[0] ? "; " : "", why_h,
                       (why_l[0] || why_h[0]) && why_p[0] ? "; " : "", why_p);
    return TFLC_OK;
  }
  /* in the DECODE format each compressed tensor also brings a decoded
   * copy of its record, an ancillary tensor (both named after it) and
   * operator links: about 150 bytes plus two names (measured on
   * person_detect: 240 to 275 bytes) */
  if (best + (format == TFLC_W_DECODE ? 150u + 2u * o->name_len : 0u) >=
          o->len &&
      !forced && !allow_growth) {
    tflc__stage_reason(
        en,
        "not smaller: %lu B as %s (+ about %lu B of DECODE "
        "records), %lu B now",
        (unsigned long)best, tflc__method_name(method),
        (unsigned long)(format == TFLC_W_DECODE ? 150u + 2u * o->name_len : 0u),
        (unsigned long)o->len);
    return TFLC_OK;
  }
  if (method == TFLC_METHOD_LUT)
    st = tflc_writer_compress(w, sg, t, bits ? bits : need, format, 0);
  else if (method == TFLC_METHOD_HUFFMAN)
    st = tflc_writer_compress_huffman(w, sg, t, 0, 0);
  else
    st = tflc_writer_compress_prune(w, sg, t);
  if (st != TFLC_OK)
    return tflc__stage_error(s, st, "tensor %d:%d: %s: %s", sg, t,
                             tflc__method_name(method), tflc_status_str(st));
  if (en) {
    en->done = 1;
    en->method = method;
    if (method == TFLC_METHOD_LUT) {
      en->bits = bits ? bits : need;
      en->stride = (int32_t)unique;
    }
    if (best >= o->len)
      tflc__stage_reason(en, "larger than the original");
  }
  return TFLC_OK;
}

/* The INT4 pass: constant INT8 filters (input 1) of CONV_2D,
 * DEPTHWISE_CONV_2D and per-tensor FULLY_CONNECTED, read nowhere else,
 * whose values all lie in -8..7, become INT4; done[t] marks them. */
static tflc_status tflc__stage_int4(tflc__stage *s, tflc_writer *w, int32_t sg,
                                    const tflc__tensor_uses *u, uint8_t *done) {
  const tflc_model *m = s->m;
  tflc__fb fb = tflc__mfb(m);
  uint32_t sgt = tflc__subgraph(m, sg), n, j;
  int32_t nt = tflc_model_num_tensors(m, sg), no = tflc_model_num_ops(m, sg);
  int32_t k, t;
  uint8_t *ok = (uint8_t *)calloc(nt > 0 ? (size_t)nt : 1, 1);
  if (!ok)
    return TFLC_ERR_ARENA;
  /* 1: a filter somewhere; 2: read where it is not one */
  for (k = 0; k < no; k++) {
    const uint16_t facts = tflc__code_facts(tflc_model_op_code(m, sg, k));
    const uint32_t ot = tflc__op_table(m, sgt, k),
                   v = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &n);
    for (j = 0; v && j < n; j++) {
      t = tflc__i32(fb.b + v + 4 * j);
      if (t < 0 || t >= nt)
        continue;
      /* (a filter TFLC_CHECK_FC checks per tensor: only per tensor) */
      if (j == 1 && (facts & TFLC_OPF_INT4_FILTER) &&
          ((facts & TFLC_CHECK_MASK) != TFLC_CHECK_FC ||
           tflc__tensor_nscales(m, tflc__tensor_table(m, sgt, t)) <= 1))
        ok[t] |= 1;
      else
        ok[t] |= 2;
    }
  }
  for (t = 0; t < nt; t++) {
    tflc__stage_tensor o;
    tflc_stage_entry *en;
    uint64_t e;
    tflc_status st;
    if (ok[t] != 1 || (u->f[t] & (TFLC__USE_WRITTEN | TFLC__USE_IO)))
      continue;
    tflc__stage_tensor_get(m, sg, t, &o);
    if (!o.data || o.v.type != TFLC_INT8 || o.why ||
        tflc__get_u8(fb, o.tt, TFLC__T_VARIABLE, 0))
      continue;
    for (e = 0; e < o.count; e++)
      if ((int8_t)o.data[e] < -8 || (int8_t)o.data[e] > 7)
        break;
    if (e < o.count)
      continue; /* values outside -8..7: left to the other methods */
    st = tflc_writer_to_int4(w, sg, t);
    if (st != TFLC_OK) {
      free(ok);
      return tflc__stage_error(s, st, "tensor %d:%d: INT4: %s", sg, t,
                               tflc_status_str(st));
    }
    done[t] = 1;
    en = tflc__stage_entry_add(s, sg, t, o.name, o.name_len, o.v.type);
    if (en) {
      en->done = 1;
      en->method = TFLC_METHOD_INT4;
      en->bits = 4;
      en->bytes_before = o.len;
      en->bytes_after = (size_t)(o.count + 1) / 2;
      tflc__stage_reason(en, "INT4 filter");
    }
  }
  free(ok);
  return TFLC_OK;
}

/* What one tflc_compress call works with: its stage, the model, the
 * writer, the options, the tensor uses of the subgraph at hand, the
 * tensors made INT4 (per subgraph), and the format, TFLM compatibility,
 * widest index and methods chosen. */
typedef struct tflc__compress_job {
  tflc__stage *s;
  tflc_model *m;
  tflc_writer *w;
  const tflc_compress_options *opt;
  tflc__tensor_uses *u;
  uint8_t **int4;
  int format, tflm, maxbits, methods;
} tflc__compress_job;

/* TFLM refuses empty COMPRESSION_METADATA subgraph entries: a warning for
 * each subgraph without a compressed tensor before the last with one. */
static void tflc__warn_empty_subgraphs(tflc__stage *s,
                                       const tflc_stage_report *rep) {
  int32_t last = -1, sg, i;
  for (i = 0; rep && i < rep->nentries; i++)
    if (rep->entries[i].done && rep->entries[i].subgraph > last)
      last = rep->entries[i].subgraph;
  for (sg = 0; sg < last; sg++) {
    int any = 0;
    for (i = 0; i < rep->nentries; i++)
      any |= rep->entries[i].done && rep->entries[i].subgraph == sg;
    if (!any)
      tflc__stage_warn(s,
                       "subgraph %d has no compressed tensor but a later one "
                       "has: TFLM refuses the empty COMPRESSION_METADATA "
                       "entry this needs",
                       sg);
  }
}

/* The report line of a listed tensor compressed with a LUT (en may be
 * NULL). */
static void tflc__listed_lut_done(tflc_stage_entry *en,
                                  const tflc__stage_tensor *o, int bits,
                                  size_t unique, int format) {
  if (!en)
    return;
  en->done = 1;
  en->method = TFLC_METHOD_LUT;
  en->tables = o->channels;
  en->unique = (int32_t)unique;
  en->bits = bits;
  en->stride = (int32_t)unique;
  en->bytes_before = o->len;
  en->bytes_after = tflc__compressed_size(o, bits, unique, format);
  if (en->bytes_after >= en->bytes_before)
    tflc__stage_reason(en, "larger than the original");
}

/* Entry i of the tensors listed (mode 1: a spec; 2: --tensors), checked
 * and compressed as listed: TFLC_OK, also when it is left as it is
 * (excluded, an INT4 filter now, read by no operator). */
static tflc_status tflc__compress_listed(const tflc__compress_job *jb,
                                         const tflc__spec_entry *spec,
                                         int32_t i, int mode) {
  tflc__stage *s = jb->s;
  tflc_model *m = jb->m;
  tflc_writer *w = jb->w;
  const tflc_compress_options *opt = jb->opt;
  tflc__tensor_uses *u = jb->u;
  uint8_t *const *int4 = jb->int4;
  const int format = jb->format, tflm = jb->tflm, maxbits = jb->maxbits;
  const int methods = jb->methods;
  tflc_status st = TFLC_OK;
  int32_t j;
  const tflc__spec_entry *e = &spec[i];
  const char *src =
      mode == 1 ? (opt->spec_name ? opt->spec_name : "spec") : "--tensors";
  tflc__stage_tensor o;
  size_t unique;
  char why[160];
  int need, bits;
  tflc_stage_entry *en;
  if (e->sg < 0 || e->sg >= m->num_subgraphs || e->tensor < 0 ||
      e->tensor >= tflc_model_num_tensors(m, e->sg)) {
    st = tflc__stage_error(
        s, TFLC_ERR_ARG, "%s%s%d: tensor %d:%d does not exist", src,
        mode == 1 ? ":" : " entry ", mode == 1 ? e->line : i, e->sg, e->tensor);
    return st;
  }
  for (j = 0; j < i; j++)
    if (spec[j].sg == e->sg && spec[j].tensor == e->tensor) {
      st = tflc__stage_error(s, TFLC_ERR_ARG, "%s: tensor %d:%d listed twice",
                             src, e->sg, e->tensor);
      return st;
    }
  if (opt->exclude &&
      tflc__tensor_ref_listed(opt->exclude, opt->nexclude, e->sg, e->tensor))
    return TFLC_OK;
  if (int4[e->sg] && int4[e->sg][e->tensor])
    return TFLC_OK; /* an INT4 filter now */
  tflc__tensor_uses_free(u);
  memset(u, 0, sizeof *u);
  st = tflc__tensor_uses_get(m, e->sg, tflm, format, u);
  if (st != TFLC_OK)
    return st;
  tflc__stage_tensor_get(m, e->sg, e->tensor, &o);
  if (format == TFLC_W_DECODE && o.data &&
      !(u->f[e->tensor] & (TFLC__USE_READ | TFLC__USE_IO))) {
    /* as TFLM: a DECODE operator needs a consumer */
    tflc__stage_warn(s,
                     "tensor %d:%d (%.*s): read by no operator: not "
                     "compressed",
                     e->sg, e->tensor, (int)o.name_len, o.name);
    tflc__stage_reason(tflc__stage_entry_add(s, e->sg, e->tensor, o.name,
                                             o.name_len, o.v.type),
                       "read by no operator");
    return TFLC_OK;
  }
  if (!tflc__compress_check(s, &o, u, e->sg, e->tensor, tflm, format, 1,
                            &unique, why, sizeof why)) {
    st = tflc__stage_error(s, s->oom ? TFLC_ERR_ARENA : TFLC_ERR_ARG,
                           "tensor %d:%d (%.*s): cannot compress: %s", e->sg,
                           e->tensor, (int)o.name_len, o.name, why);
    return st;
  }
  if ((e->method && e->method != TFLC_METHOD_LUT) ||
      (!e->method && methods != TFLC_METHOD_LUT)) {
    /* a spec's huffman / pruning, or --tensors with several methods */
    if (format == TFLC_W_METADATA) {
      st = tflc__stage_error(s, TFLC_ERR_ARG,
                             "%s:%d: huffman and pruning need the DECODE "
                             "format",
                             src, e->line);
      return st;
    }
    en = tflc__stage_entry_add(s, e->sg, e->tensor, o.name, o.name_len,
                               o.v.type);
    if (en)
      en->tables = o.channels;
    st = tflc__compress_tensor(s, w, &o, e->sg, e->tensor,
                               e->method ? e->method : methods, format, maxbits,
                               e->bits, unique, 1, 1, en);
    if (st != TFLC_OK)
      return st;
    return TFLC_OK;
  }
  if (e->mode == 1 && o.channels > 1) {
    st = tflc__stage_error(s, TFLC_ERR_ARG,
                           "tensor %d:%d (%.*s): per_tensor, but it is "
                           "quantized per channel (%d scales)",
                           e->sg, e->tensor, (int)o.name_len, o.name,
                           o.channels);
    return st;
  }
  if (e->mode == 2 && (o.channels < 2 || e->axis != o.axis)) {
    st = tflc__stage_error(s, TFLC_ERR_ARG,
                           "tensor %d:%d (%.*s): per_channel axis %d, but "
                           "the quantization %s",
                           e->sg, e->tensor, (int)o.name_len, o.name, e->axis,
                           o.channels < 2 ? "is per tensor"
                                          : "has another axis");
    return st;
  }
  need = tflc__bits_for_unique(unique);
  bits = e->bits ? e->bits : need;
  if (need > bits) {
    st = tflc__stage_error(s, TFLC_ERR_ARG,
                           "tensor %d:%d (%.*s): index_bitwidth %d too small: "
                           "%lu distinct values in a table need %d bits",
                           e->sg, e->tensor, (int)o.name_len, o.name, bits,
                           (unsigned long)unique, need);
    return st;
  }
  if (bits > maxbits) {
    st = tflc__stage_error(s, TFLC_ERR_ARG,
                           "tensor %d:%d (%.*s): %d-bit indices%s", e->sg,
                           e->tensor, (int)o.name_len, o.name, bits,
                           tflm ? ": TFLM takes 1..7" : " (1..8)");
    return st;
  }
  if (need < bits)
    tflc__stage_warn(s,
                     "tensor %d:%d (%.*s): index_bitwidth %d larger than "
                     "needed (%d)",
                     e->sg, e->tensor, (int)o.name_len, o.name, bits, need);
  if (format == TFLC_W_DECODE && unique > 255) {
    st = tflc__stage_error(s, TFLC_ERR_ARG,
                           "tensor %d:%d: %lu values per table do not fit the "
                           "DECODE format (255)",
                           e->sg, e->tensor, (unsigned long)unique);
    return st;
  }
  en = tflc__stage_entry_add(s, e->sg, e->tensor, o.name, o.name_len, o.v.type);
  st = tflc_writer_compress(w, e->sg, e->tensor, bits, format, 0);
  if (st != TFLC_OK) {
    st = tflc__stage_error(s, st, "tensor %d:%d: %s", e->sg, e->tensor,
                           tflc_status_str(st));
    return st;
  }
  tflc__listed_lut_done(en, &o, bits, unique, format);
  return TFLC_OK;
}

/* Tensor i of subgraph sg found by discovery: compressed if it is a
 * candidate and pays off, else the reason in its report line. */
static tflc_status tflc__compress_found(const tflc__compress_job *jb,
                                        int32_t sg, int32_t i) {
  tflc__stage *s = jb->s;
  tflc_model *m = jb->m;
  tflc_writer *w = jb->w;
  const tflc_compress_options *opt = jb->opt;
  tflc__tensor_uses *u = jb->u;
  uint8_t *const *int4 = jb->int4;
  const int format = jb->format, tflm = jb->tflm, maxbits = jb->maxbits;
  const int methods = jb->methods;
  tflc_status st = TFLC_OK;
  tflc__stage_tensor o;
  size_t unique = 0, after;
  char why[160];
  int bits;
  tflc_stage_entry *en;
  tflc__stage_tensor_get(m, sg, i, &o);
  if (!o.data)
    return TFLC_OK; /* activations are no candidates */
  if (int4[sg] && int4[sg][i])
    return TFLC_OK; /* an INT4 filter now (reported by its pass) */
  en = tflc__stage_entry_add(s, sg, i, o.name, o.name_len, o.v.type);
  if (en) {
    en->bytes_before = o.len;
    en->tables = o.channels;
  }
  if (opt && opt->exclude &&
      tflc__tensor_ref_listed(opt->exclude, opt->nexclude, sg, i)) {
    tflc__stage_reason(en, "excluded");
    return TFLC_OK;
  }

  if (!tflc__compress_check(s, &o, u, sg, i, tflm, format, 0, &unique, why,
                            sizeof why)) {
    if (s->oom) {
      st = tflc__stage_error(s, TFLC_ERR_ARENA, "out of memory");
      return st;
    }
    tflc__stage_reason(en, "%s", why);
    return TFLC_OK;
  }
  if (methods != TFLC_METHOD_LUT) { /* automatic: the cheapest */
    st = tflc__compress_tensor(s, w, &o, sg, i, methods, format, maxbits, 0,
                               unique, opt && opt->allow_growth, 0, en);
    if (st != TFLC_OK)
      return st;
    return TFLC_OK;
  }
  bits = tflc__bits_for_unique(unique);
  if (en) {
    en->unique = (int32_t)unique;
    en->bits = bits;
  }
  if (bits > maxbits || (format == TFLC_W_DECODE && unique > 255)) {
    tflc__stage_reason(en, "%lu distinct values in a table (at most %d)",
                       (unsigned long)unique,
                       format == TFLC_W_DECODE && maxbits == 8 ? 255
                                                               : 1 << maxbits);
    return TFLC_OK;
  }
  after = tflc__compressed_size(&o, bits, unique, format);
  if (en)
    en->bytes_after = after;
  if (after >= o.len && !(opt && opt->allow_growth)) {
    tflc__stage_reason(en, "not smaller: %lu B compressed, %lu B now",
                       (unsigned long)after, (unsigned long)o.len);
    return TFLC_OK;
  }
  st = tflc_writer_compress(w, sg, i, bits, format, 0);
  if (st != TFLC_OK) {
    st = tflc__stage_error(s, st, "tensor %d:%d: %s", sg, i,
                           tflc_status_str(st));
    return st;
  }
  if (en) {
    en->done = 1;
    en->method = TFLC_METHOD_LUT;
    en->stride = (int32_t)unique;
    if (after >= o.len)
      tflc__stage_reason(en, "larger than the original");
    else if (bits == 8 || o.v.type == TFLC_UINT8)
      tflc__stage_reason(en, "tflc only: TFLM takes %s",
                         bits == 8 ? "widths 1..7" : "no UINT8 tables");
  }
  return TFLC_OK;
}

TFLC_API tflc_status tflc_compress(const void *model, size_t size,
                                   const tflc_compress_options *opt,
                                   uint8_t **out, size_t *out_size,
                                   tflc_stage_report *rep) {
  tflc__stage s;
  tflc_model m;
  tflc_writer *w = NULL;
  tflc_status st;
  tflc__spec_entry *spec = NULL;
  int32_t nspec = 0, sg, i;
  int format, tflm, maxbits, mode, methods;
  tflc__tensor_uses u;
  tflc__compress_job jb;
  uint8_t **int4 = NULL; /* per subgraph: tensors made INT4 */
  if (out)
    *out = NULL;
  if (out_size)
    *out_size = 0;
  memset(&u, 0, sizeof u);
  if (!out || !out_size)
    return TFLC_ERR_ARG;
  st = tflc__stage_open(&s, &m, model, size, rep, &w);
  if (st != TFLC_OK)
    goto done;
  format = opt && opt->format ? opt->format : TFLC_W_DECODE;
  if (format != TFLC_W_METADATA && format != TFLC_W_DECODE) {
    st = tflc__stage_error(&s, TFLC_ERR_ARG, "unknown format %d", format);
    goto done;
  }
  tflm = opt && opt->tflm_compatible ? opt->tflm_compatible > 0
                                     : format == TFLC_W_METADATA;
  maxbits = tflm ? 7 : 8;
  if (rep) {
    rep->format = format;
    rep->tflm_compatible = tflm;
  }
  methods = opt && opt->methods ? opt->methods : TFLC_METHOD_LUT;
  if (methods & ~(TFLC_METHOD_LUT | TFLC_METHOD_HUFFMAN | TFLC_METHOD_PRUNE)) {
    st = tflc__stage_error(&s, TFLC_ERR_ARG, "unknown methods %d", methods);
    goto done;
  }
  if (format == TFLC_W_METADATA &&
      (methods & (TFLC_METHOD_HUFFMAN | TFLC_METHOD_PRUNE))) {
    st = tflc__stage_error(&s, TFLC_ERR_ARG,
                           "Huffman and Prune need the DECODE format");
    goto done;
  }
  int4 = (uint8_t **)calloc((size_t)m.num_subgraphs, sizeof *int4);
  if (!int4) {
    st = TFLC_ERR_ARENA;
    goto done;
  }
  for (sg = 0; opt && opt->to_int4 && sg < m.num_subgraphs; sg++) {
    int32_t nt = tflc_model_num_tensors(&m, sg);
    int4[sg] = (uint8_t *)calloc(nt > 0 ? (size_t)nt : 1, 1);
    tflc__tensor_uses_free(&u);
    memset(&u, 0, sizeof u);
    if (!int4[sg] || tflc__tensor_uses_get(&m, sg, tflm, format, &u)) {
      st = TFLC_ERR_ARENA;
      goto done;
    }
    st = tflc__stage_int4(&s, w, sg, &u, int4[sg]);
    if (st != TFLC_OK)
      goto done;
  }
  jb.s = &s;
  jb.m = &m;
  jb.w = w;
  jb.opt = opt;
  jb.u = &u;
  jb.int4 = int4;
  jb.format = format;
  jb.tflm = tflm;
  jb.maxbits = maxbits;
  jb.methods = methods;
  /* what to compress: 0 discovery, 1 spec, 2 explicit list */
  mode = 0;
  if (opt && opt->spec) {
    st = tflc__spec_read(&s, opt->spec, opt->spec_len, opt->spec_name, &spec,
                         &nspec);
    if (st != TFLC_OK)
      goto done;
    mode = 1;
  } else if (opt && opt->tensors) {
    spec = (tflc__spec_entry *)calloc(
        opt->ntensors > 0 ? (size_t)opt->ntensors : 1, sizeof *spec);
    if (!spec) {
      st = TFLC_ERR_ARENA;
      goto done;
    }
    for (i = 0; i < opt->ntensors; i++) {
      spec[i].sg = opt->tensors[i].subgraph;
      spec[i].tensor = opt->tensors[i].tensor;
      spec[i].bits = opt->tensors[i].bits;
    }
    nspec = opt->ntensors;
    mode = 2;
  }
  if (mode) { /* the listed tensors, in the order given */
    for (i = 0; i < nspec; i++) {
      st = tflc__compress_listed(&jb, spec, i, mode);
      if (st != TFLC_OK)
        goto done;
    }
  } else { /* discovery */
    for (sg = 0; sg < m.num_subgraphs; sg++) {
      int32_t nt = tflc_model_num_tensors(&m, sg);
      tflc__tensor_uses_free(&u);
      memset(&u, 0, sizeof u);
      st = tflc__tensor_uses_get(&m, sg, tflm, format, &u);
      if (st != TFLC_OK)
        goto done;
      for (i = 0; i < nt; i++) {
        st = tflc__compress_found(&jb, sg, i);
        if (st != TFLC_OK)
          goto done;
      }
    }
  }
  if (format == TFLC_W_METADATA)
    tflc__warn_empty_subgraphs(&s, rep);
  st = tflc__stage_finish(&s, w, out, out_size);
done:
  if (st != TFLC_OK && s.oom && rep && !rep->error[0])
    (void)tflc__stage_error(&s, TFLC_ERR_ARENA, "out of memory");
  if (st != TFLC_OK && out && *out) {
    free(*out);
    *out = NULL;
    *out_size = 0;
  }
  tflc__tensor_uses_free(&u);
  free(spec);
  for (sg = 0; int4 && sg < m.num_subgraphs; sg++)
    free(int4[sg]);
  free(int4);
  tflc_writer_destroy(w);
  return st;
}

/* ---- tflc_bin ------------------------------------------------------------
 * Optimal 1-D k-means (least squares) over the distinct values of a
 * channel, weighted by their counts: dynamic programming over sorted
 * values, each layer filled by divide and conquer over the monotone
 * split points; ties go to the earliest split, so the result depends on
 * the values alone. */

typedef struct tflc__kmeans_layer {
  const double *W, *S, *Q; /* prefix sums of weight, w*x, w*x^2 */
  const double *prev;      /* costs with one cluster less */
  double *cur;
  uint32_t *split; /* this layer's best split per end */
  size_t lo_j;     /* smallest split allowed */
} tflc__kmeans_layer;

static double tflc__kmeans_cost(const tflc__kmeans_layer *k, size_t j,
                                size_t i) {
  double w = k->W[i] - k->W[j], s = k->S[i] - k->S[j];
  double c = (k->Q[i] - k->Q[j]) - (w > 0 ? s * s / w : 0.0);
  return c > 0 ? c : 0.0;
}

static void tflc__kmeans_fill(tflc__kmeans_layer *k, size_t lo, size_t hi,
                              size_t optlo, size_t opthi) {
  while (lo <= hi) {
    size_t mid = lo + (hi - lo) / 2, j, best = 0, jlo, jhi;
    double bc = 0;
    int have = 0;
    jlo = optlo > k->lo_j ? optlo : k->lo_j;
    jhi = opthi < mid - 1 ? opthi : mid - 1;
    for (j = jlo; j <= jhi; j++) {
      double c = k->prev[j] + tflc__kmeans_cost(k, j, mid);
      if (!have || c < bc) {
        bc = c;
        best = j;
        have = 1;
      }
    }
    k->cur[mid] = bc;
    k->split[mid] = (uint32_t)best;
    if (mid > lo)
      tflc__kmeans_fill(k, lo, mid - 1, optlo, best);
    /* right half: iterate instead of recursing */
    lo = mid + 1;
    optlo = best;
  }
}

/* Clusters u sorted distinct points x (weights wt) into k < u groups:
 * start[c] = first point of cluster c, start[k] = u. 0 on out of memory. */
static int tflc__kmeans(const double *x, const double *wt, size_t u, size_t k,
                        size_t *start) {
  double *W = NULL, *S = NULL, *Q = NULL, *a = NULL, *b = NULL, mean = 0,
         tw = 0;
  uint32_t *split = NULL;
  size_t i, c;
  tflc__kmeans_layer km;
  int ok = 0;
  W = (double *)tflc__host_alloc(u + 1, sizeof(double));
  S = (double *)tflc__host_alloc(u + 1, sizeof(double));
  Q = (double *)tflc__host_alloc(u + 1, sizeof(double));
  a = (double *)tflc__host_alloc(u + 1, sizeof(double));
  b = (double *)tflc__host_alloc(u + 1, sizeof(double));
  split = (uint32_t *)tflc__host_alloc(k * (u + 1), sizeof(uint32_t));
  if (!W || !S || !Q || !a || !b || !split)
    goto done;
  for (i = 0; i < u; i++) {
    mean += wt[i] * x[i];
    tw += wt[i];
  }
  mean /= tw;
  W[0] = S[0] = Q[0] = 0;
  for (i = 0; i < u; i++) { /* centred, for precision */
    double d = x[i] - mean;
    W[i + 1] = W[i] + wt[i];
    S[i + 1] = S[i] + wt[i] * d;
    Q[i + 1] = Q[i] + wt[i] * d * d;
  }
  km.W = W;
  km.S = S;
  km.Q = Q;
  for (i = 0; i <= u; i++) {
    a[i] = tflc__kmeans_cost(&km, 0, i);
    split[i] = 0;
  }
  for (c = 1; c < k; c++) { /* c + 1 clusters */
    km.prev = a;
    km.cur = b;
    km.split = split + c * (u + 1);
    km.lo_j = c;
    for (i = 0; i <= c; i++)
      b[i] = 0;
    tflc__kmeans_fill(&km, c + 1, u, c, u - 1);
    {
      double *t = a;
      a = b;
      b = t;
    }
  }
  start[k] = u;
  for (c = k, i = u; c-- > 0;) {
    size_t j = c ? split[c * (u + 1) + i] : 0;
    start[c] = j;
    i = j;
  }
  ok = 1;
done:
  free(W);
  free(S);
  free(Q);
  free(a);
  free(b);
  free(split);
  return ok;
}

static double tflc__bin_load(int type, const uint8_t *p) {
  uint64_t u = 0;
  size_t k, es = tflc__writer_value_size(type);
  for (k = 0; k < es; k++)
    u |= (uint64_t)p[k] << (8 * k);
  switch (type) {
  case TFLC_FLOAT32: {
    float f;
    uint32_t v = (uint32_t)u;
    memcpy(&f, &v, 4);
    return (double)f;
  }
  case TFLC_INT8:
    return (double)(int8_t)(uint8_t)u;
  case TFLC_UINT8:
    return (double)(uint8_t)u;
  case TFLC_INT16:
    return (double)(int16_t)(uint16_t)u;
  case TFLC_INT32:
    return (double)(int32_t)(uint32_t)u;
  default: { /* INT64 */
    int64_t v;
    memcpy(&v, &u, 8);
    return (double)v;
  }
  }
}

/* Stores v (already representable) into p as `type`. */
static void tflc__bin_store(int type, uint8_t *p, double v) {
  uint64_t u;
  size_t k, es = tflc__writer_value_size(type);
  if (type == TFLC_FLOAT32) {
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    u = b;
  } else {
    int64_t i = (int64_t)v;
    memcpy(&u, &i, 8);
  }
  for (k = 0; k < es; k++)
    p[k] = (uint8_t)((u >> (8 * k)) & 0xffu);
}

/* Rounds a cluster mean to the type (ties away from zero), inside
 * [lo, hi] (the cluster's extremes). */
static double tflc__bin_round(int type, double mean, double lo, double hi) {
  double r = type == TFLC_FLOAT32
                 ? (double)(float)mean
                 : (mean < 0 ? -floor(-mean + 0.5) : floor(mean + 0.5));
  if (r < lo)
    r = lo;
  if (r > hi)
    r = hi;
  return r;
}

static int tflc__host_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The channels a stage tensor is quantized along (per-channel scales on
 * a dimension of that size) and the elements after that axis: *ch = 1 and
 * *inner = 1 with one scale. */
static void tflc__stage_channels(const tflc_model *m,
                                 const tflc__stage_tensor *o, size_t *ch,
                                 size_t *inner) {
  int32_t axis, d;
  *ch = 1;
  *inner = 1;
  if (o->nscales > 1) {
    axis = tflc__tensor_qdim(m, o->tt);
    if (axis >= 0 && axis < o->v.rank &&
        o->v.dims[axis] == (int32_t)o->nscales) {
      *ch = o->nscales;
      for (d = axis + 1; d < o->v.rank; d++)
        *inner *= (size_t)o->v.dims[d];
    }
  }
}

/* The u sorted distinct values x (weights wt) of one table, point j in
 * group own[j] of n2, clustered into nc clusters of groups: cluster k holds
 * groups start[k] .. start[k + 1] - 1. 0 on out of memory. */
static int tflc__bin_cluster(const double *x, const double *wt,
                             const size_t *own, size_t u, size_t n2, size_t nc,
                             size_t *start) {
  /* grouped points (or the points themselves) */
  double *gx = (double *)tflc__host_alloc(n2, sizeof(double));
  double *gw = (double *)tflc__host_alloc(n2, sizeof(double));
  size_t j;
  int ok = 0;
  if (gx && gw) {
    for (j = 0; j < n2; j++)
      gx[j] = gw[j] = 0;
    for (j = 0; j < u; j++) {
      gx[own[j]] += wt[j] * x[j];
      gw[own[j]] += wt[j];
    }
    for (j = 0; j < n2; j++)
      gx[j] /= gw[j];
    ok = tflc__kmeans(gx, gw, n2, nc, start);
  }
  free(gx);
  free(gw);
  return ok;
}

/* Bins one tensor (data in place, `es` bytes per element); fills the
 * report line. 0 on out of memory. */
static int tflc__bin_tensor(const tflc_model *m, const tflc__stage_tensor *o,
                            uint8_t *data, int bits, tflc_stage_entry *en) {
  size_t count = (size_t)o->count, ch = 1, inner = 1, epc, c, k;
  size_t kmax = (size_t)1 << bits, maxu = 0, maxa = 0, nbuck;
  double *v = NULL, *x = NULL, *wt = NULL, *rep = NULL, sum = 0, mx = 0;
  size_t *start = NULL, *own = NULL;
  int ok = 0;
  const uint32_t ns = o->nscales;
  tflc__stage_channels(m, o, &ch, &inner);
  epc = count / ch;
  /* bucket limit keeps the DP table at most 2^24 entries (64 MB) */
  nbuck = ((size_t)1 << 24) / kmax - 1;
  v = (double *)tflc__host_alloc(epc, sizeof(double));
  x = (double *)tflc__host_alloc(epc, sizeof(double));
  wt = (double *)tflc__host_alloc(epc, sizeof(double));
  own = (size_t *)tflc__host_alloc(epc, sizeof(size_t));
  rep = (double *)tflc__host_alloc(kmax, sizeof(double));
  start = (size_t *)tflc__host_alloc(kmax + 1, sizeof(size_t));
  if (!v || !x || !wt || !own || !rep || !start)
    goto done;
  for (c = 0; c < ch; c++) {
    size_t u = 0, n2, nc, j, a;
    double scale = (double)tflc__tensor_scale(m, o->tt, (uint32_t)c);
    if (ns == 0 || !(scale > 0))
      scale = 1.0; /* raw units */
    /* element e of channel c: outer * dims[axis] * inner layout */
    for (j = 0; j < epc; j++) {
      size_t e = ch == 1 ? j : ((j / inner) * ch + c) * inner + j % inner;
      v[j] = tflc__bin_load(o->v.type, data + e * o->esize);
      x[j] = v[j];
    }
    qsort(x, epc, sizeof(double), tflc__host_cmp_double);
    for (j = 0; j < epc; j++) {
      if (u && x[u - 1] == x[j]) {
        wt[u - 1] += 1.0;
        continue;
      }
      x[u] = x[j];
      wt[u++] = 1.0;
    }
    if (u > maxu)
      maxu = u;
    if (u <= kmax) {
      if (u > maxa)
        maxa = u;
      continue; /* already few enough values */
    }
    /* too many distinct values for the DP: merge neighbours into nbuck
     * weighted points first (deterministic) */
    n2 = u;
    if (u > nbuck) {
      size_t g;
      for (g = 0; g < nbuck; g++) {
        size_t b0 = (size_t)((uint64_t)g * u / nbuck),
               b1 = (size_t)((uint64_t)(g + 1) * u / nbuck);
        for (j = b0; j < b1; j++)
          own[j] = g;
      }
      n2 = nbuck;
    } else {
      for (j = 0; j < u; j++)
        own[j] = j;
    }
    nc = kmax < n2 ? kmax : n2;
    if (!tflc__bin_cluster(x, wt, own, u, n2, nc, start))
      goto done;
    /* representative per cluster: the mean of its original members */
    for (k = 0, j = 0; k < nc; k++) {
      double ws = 0, xs = 0, lo = 0, hi = 0;
      int first = 1;
      for (; j < u && own[j] < start[k + 1]; j++) {
        ws += wt[j];
        xs += wt[j] * x[j];
        if (first)
          lo = x[j];
        hi = x[j];
        first = 0;
      }
      rep[k] = first ? 0 : tflc__bin_round(o->v.type, xs / ws, lo, hi);
    }
    for (k = 0, a = 0; k < nc; k++)
      a += k == 0 || rep[k] != rep[k - 1];
    if (a > maxa)
      maxa = a;
    /* new values */
    for (j = 0; j < epc; j++) {
      size_t e = ch == 1 ? j : ((j / inner) * ch + c) * inner + j % inner;
      size_t lo = 0, hi = u, p, cl, l2, h2;
      double nv, diff;
      while (hi - lo > 1) { /* x[lo] <= v[j] < x[hi] */
        size_t mid = lo + (hi - lo) / 2;
        if (x[mid] <= v[j])
          lo = mid;
        else
          hi = mid;
      }
      p = own[lo];
      l2 = 0;
      h2 = nc;
      while (h2 - l2 > 1) { /* start[l2] <= p < start[h2] */
        size_t mid = l2 + (h2 - l2) / 2;
        if (start[mid] <= p)
          l2 = mid;
        else
          h2 = mid;
      }
      cl = l2;
      nv = rep[cl];
      diff = fabs(nv - v[j]) * scale;
      sum += diff;
      if (diff > mx)
        mx = diff;
      tflc__bin_store(o->v.type, data + e * o->esize, nv);
    }
  }
  if (en) {
    en->tables = (int32_t)ch;
    en->unique = (int32_t)maxu;
    en->unique_after = (int32_t)maxa;
    en->mean_abs = sum / (double)count;
    en->max_abs = mx;
    en->done = maxu > kmax;
    if (!en->done)
      tflc__stage_reason(en, "already at most %lu values per table",
                         (unsigned long)kmax);
  }
  ok = 1;
done:
  free(v);
  free(x);
  free(wt);
  free(own);
  free(rep);
  free(start);
  return ok;
}

/* ---- tflc_bin: pruning ---------------------------------------------------
 * The elements of smallest real magnitude (|q - zero point| x scale of
 * their channel; |x| for float32) are set to their channel's zero point
 * (+0.0 for float32), smallest first, ties in element order. */

typedef struct tflc__prune_rank {
  double mag;
  size_t at;
} tflc__prune_rank;

static int tflc__host_cmp_prune_rank(const void *a, const void *b) {
  const tflc__prune_rank *x = (const tflc__prune_rank *)a,
                         *y = (const tflc__prune_rank *)b;
  if (x->mag != y->mag)
    return x->mag < y->mag ? -1 : 1;
  return (x->at > y->at) - (x->at < y->at);
}

/* Prunes `fraction` of tensor o's elements in data (its writer copy);
 * en->size_prune receives how many were set. 0 on out of memory. */
static int tflc__prune_tensor(const tflc_model *m, const tflc__stage_tensor *o,
                              uint8_t *data, double fraction,
                              tflc_stage_entry *en) {
  const size_t count = (size_t)o->count, es = o->esize;
  size_t ch = 1, inner = 1, i, n = (size_t)(fraction * (double)count);
  int32_t nz = 0;
  int64_t *zp = tflc__stage_zero_points(m, o->tt, &nz);
  tflc__prune_rank *r;
  if (nz && !zp)
    return 0;
  tflc__stage_channels(m, o, &ch, &inner);
  r = (tflc__prune_rank *)tflc__host_alloc(count, sizeof *r);
  if (!r) {
    free(zp);
    return 0;
  }
  for (i = 0; i < count; i++) {
    const size_t c = ch == 1 ? 0 : (i / inner) % ch;
    const double z = nz && o->v.type != TFLC_FLOAT32
                         ? (double)zp[c < (size_t)nz ? c : 0]
                         : 0.0;
    double scale = (double)tflc__tensor_scale(m, o->tt, (uint32_t)c);
    if (!nz || !(scale > 0) || o->v.type == TFLC_FLOAT32)
      scale = 1.0;
    r[i].mag = fabs(tflc__bin_load(o->v.type, data + i * es) - z) * scale;
    r[i].at = i;
  }
  qsort(r, count, sizeof *r, tflc__host_cmp_prune_rank);
  if (n > count)
    n = count;
  for (i = 0; i < n; i++) {
    const size_t at = r[i].at, c = ch == 1 ? 0 : (at / inner) % ch;
    const int64_t z =
        nz && o->v.type != TFLC_FLOAT32 ? zp[c < (size_t)nz ? c : 0] : 0;
    size_t b;
    for (b = 0; b < es; b++) /* the zero point, little-endian */
      data[at * es + b] =
          (uint8_t)(((uint64_t)z >> (8 * (b < 8 ? b : 7))) & 0xFFu);
  }
  if (en) { /* what pruning changed, in real units as binning reports */
    double sum = 0;
    for (i = 0; i < n; i++)
      sum += r[i].mag;
    en->size_prune = n;
    en->tables = (int32_t)ch;
    en->mean_abs = sum / (double)count;
    en->max_abs = n ? r[n - 1].mag : 0.0;
    en->done = 1;
  }
  free(r);
  free(zp);
  return 1;
}

/* The change from `before` to `after` (tensor o's data) in real units,
 * per channel as pruning ranks it: en->mean_abs, en->max_abs. */
static void tflc__stage_change(const tflc_model *m, const tflc__stage_tensor *o,
                               const uint8_t *before, const uint8_t *after,
                               tflc_stage_entry *en) {
  const size_t count = (size_t)o->count, es = o->esize;
  size_t ch = 1, inner = 1, i;
  double sum = 0, mx = 0;
  const int quantized =
      o->nscales > 0 && o->v.type != TFLC_FLOAT32 && count > 0;
  tflc__stage_channels(m, o, &ch, &inner);
  for (i = 0; i < count; i++) {
    const size_t c = ch == 1 ? 0 : (i / inner) % ch;
    double scale =
        quantized ? (double)tflc__tensor_scale(m, o->tt, (uint32_t)c) : 1.0;
    double diff;
    if (!(scale > 0))
      scale = 1.0;
    diff = fabs(tflc__bin_load(o->v.type, after + i * es) -
                tflc__bin_load(o->v.type, before + i * es)) *
           scale;
    sum += diff;
    if (diff > mx)
      mx = diff;
  }
  en->mean_abs = count ? sum / (double)count : 0.0;
  en->max_abs = mx;
}

TFLC_API tflc_status tflc_bin(const void *model, size_t size,
                              const tflc_bin_options *opt, uint8_t **out,
                              size_t *out_size, tflc_stage_report *rep) {
  tflc__stage s;
  tflc_model m;
  tflc_writer *w = NULL;
  tflc_status st;
  int32_t sg, i;
  tflc__tensor_uses u;
  if (out)
    *out = NULL;
  if (out_size)
    *out_size = 0;
  memset(&u, 0, sizeof u);
  if (!out || !out_size || !opt)
    return TFLC_ERR_ARG;
  st = tflc__stage_open(&s, &m, model, size, rep, &w);
  if (st != TFLC_OK)
    goto done;
  if ((opt->bits < 1 && !(opt->prune > 0)) || opt->bits < 0 || opt->bits > 8) {
    st = tflc__stage_error(&s, TFLC_ERR_ARG, "bits %d not in 1..8", opt->bits);
    goto done;
  }
  if (!(opt->prune >= 0 && opt->prune <= 1)) {
    st = tflc__stage_error(&s, TFLC_ERR_ARG, "prune fraction %g not in 0..1",
                           opt->prune);
    goto done;
  }
  for (i = 0; opt->tensors && i < opt->ntensors; i++) {
    const tflc_tensor_ref *r = &opt->tensors[i];
    if (r->subgraph < 0 || r->subgraph >= m.num_subgraphs || r->tensor < 0 ||
        r->tensor >= tflc_model_num_tensors(&m, r->subgraph)) {
      st = tflc__stage_error(&s, TFLC_ERR_ARG, "tensor %d:%d does not exist",
                             r->subgraph, r->tensor);
      goto done;
    }
  }
  for (sg = 0; sg < m.num_subgraphs; sg++) {
    int32_t nt = tflc_model_num_tensors(&m, sg), no, k;
    uint8_t *weight = (uint8_t *)calloc(nt > 0 ? (size_t)nt : 1, 1);
    uint32_t sgt = tflc__subgraph(&m, sg);
    tflc__fb fb = tflc__mfb(&m);
    if (!weight) {
      st = TFLC_ERR_ARENA;
      goto done;
    }
    tflc__tensor_uses_free(&u);
    memset(&u, 0, sizeof u);
    st = tflc__tensor_uses_get(&m, sg, 0, TFLC_W_DECODE, &u);
    if (st != TFLC_OK) {
      free(weight);
      goto done;
    }
    no = tflc_model_num_ops(&m, sg);
    for (k = 0; k < no; k++) { /* weights: the filters (TFLC_OPF_FILTER_*) */
      int32_t code = tflc_model_op_code(&m, sg, k), t;
      uint32_t ot = tflc__op_table(&m, sgt, k), n,
               v = tflc__get_vec(fb, ot, TFLC__OP_INPUTS, 4, &n);
      if ((tflc__code_facts(code) & TFLC_OPF_FILTER_MASK) && v && n > 1) {
        t = tflc__i32(fb.b + v + 4);
        if (t >= 0 && t < nt)
          weight[t] = 1;
      }
    }
    for (i = 0; i < nt; i++) {
      tflc__stage_tensor o;
      tflc_stage_entry *en;
      int listed = opt->tensors ? tflc__tensor_ref_listed(opt->tensors,
                                                          opt->ntensors, sg, i)
                                : weight[i];
      if (!listed)
        continue;
      tflc__stage_tensor_get(&m, sg, i, &o);
      if (!o.data && !opt->tensors)
        continue;
      en = tflc__stage_entry_add(&s, sg, i, o.name, o.name_len, o.v.type);
      if (en)
        en->bytes_before = o.len;
      if (opt->exclude &&
          tflc__tensor_ref_listed(opt->exclude, opt->nexclude, sg, i)) {
        tflc__stage_reason(en, "excluded");
        continue;
      }
      if (!o.data || (u.f[i] & TFLC__USE_WRITTEN) ||
          tflc__get_u8(fb, o.tt, TFLC__T_VARIABLE, 0)) {
        if (opt->tensors) {
          st = tflc__stage_error(&s, TFLC_ERR_ARG,
                                 "tensor %d:%d is not a constant", sg, i);
          free(weight);
          goto done;
        }
        tflc__stage_reason(en, "not a constant");
        continue;
      }
      if (!o.esize || o.v.type == TFLC_BOOL) {
        tflc__stage_reason(en, "type %s not binned", tflc_type_name(o.v.type));
        continue;
      }
      if ((uint64_t)o.len != o.count * o.esize || o.count == 0) {
        tflc__stage_reason(en, "data size differs from the shape");
        continue;
      }
      if (o.v.type == TFLC_FLOAT32) {
        uint64_t e;
        for (e = 0; e < o.count; e++)
          if (!isfinite(tflc__bin_load(o.v.type, o.data + e * 4)))
            break;
        if (e < o.count) {
          tflc__stage_reason(en, "not finite values");
          continue;
        }
      }
      {
        tflc__writer_tensor *wt = &w->sg[sg].t[i];
        uint8_t *data = w->buf[wt->buffer].data;
        /* both: the change reported is from the original values */
        const int both = opt->prune > 0 && opt->bits > 0 && en;
        uint8_t *orig = both ? (uint8_t *)tflc__host_alloc(o.len, 1) : NULL;
        if (orig)
          memcpy(orig, data, o.len);
        if ((both && !orig) ||
            (opt->prune > 0 &&
             !tflc__prune_tensor(&m, &o, data, opt->prune, en)) ||
            (opt->bits > 0 && !tflc__bin_tensor(&m, &o, data, opt->bits, en))) {
          free(orig);
          st = tflc__stage_error(&s, TFLC_ERR_ARENA, "out of memory");
          free(weight);
          goto done;
        }
        if (orig) {
          tflc__stage_change(&m, &o, orig, data, en);
          free(orig);
        }
        if (opt->prune > 0 && en) /* pruned, whatever binning found */
          en->done = 1;
      }
    }
    free(weight);
  }
  st = tflc__stage_finish(&s, w, out, out_size);
done:
  if (st != TFLC_OK && out && *out) {
    free(*out);
    *out = NULL;
    *out_size = 0;
  }
  tflc__tensor_uses_free(&u);
  tflc_writer_destroy(w);
  return st;
}

/* ======================================================================== */
/* ---- compression to an accuracy budget -------------------------------------
 * tflc_compress_to_budget: levels per weight tensor come from tflc_bin runs
 * of the whole model (one per width, one per pruning fraction); a
 * candidate model is the original bytes with some tensors' data replaced
 * by a level's (same shape and type: the bytes are patched in place), run
 * by the interpreter on every sample. */
/* ======================================================================== */

#include <time.h>

TFLC_API tflc_status tflc_budget_parse(const char *spec, tflc_budget *b,
                                       char *err, size_t err_len) {
  const char *p = spec;
  if (err && err_len)
    err[0] = 0;
  if (!b)
    return TFLC_ERR_ARG;
  b->top1 = b->mean_abs = b->max_abs = b->acc_drop = -1;
  if (!spec || !*spec) {
    if (err && err_len)
      snprintf(err, err_len, "empty budget");
    return TFLC_ERR_ARG;
  }
  while (*p) {
    size_t k = strcspn(p, "=,");
    char *e;
    double v;
    double *dst = NULL;
    if ((k == 4 && !strncmp(p, "top1", 4)) ||
        (k == 5 && !strncmp(p, "agree", 5)))
      dst = &b->top1;
    else if (k == 4 && !strncmp(p, "mean", 4))
      dst = &b->mean_abs;
    else if (k == 3 && !strncmp(p, "max", 3))
      dst = &b->max_abs;
    else if ((k == 4 && !strncmp(p, "drop", 4)) ||
             (k == 3 && !strncmp(p, "acc", 3)))
      dst = &b->acc_drop;
    if (!dst || p[k] != '=') {
      if (err && err_len)
        snprintf(err, err_len,
                 "budget '%s': expected top1=X%%, mean=E, max=E, drop=D%% "
                 "(comma-separated)",
                 spec);
      return TFLC_ERR_ARG;
    }
    p += k + 1;
    v = strtod(p, &e);
    if (e == p || !(v >= 0) || v > 1e30) {
      if (err && err_len)
        snprintf(err, err_len, "budget '%s': bad number at '%s'", spec, p);
      return TFLC_ERR_ARG;
    }
    p = e;
    if (*p == '%') {
      v /= 100;
      p++;
    }
    if ((dst == &b->top1 || dst == &b->acc_drop) && v > 1) {
      if (err && err_len)
        snprintf(err, err_len, "budget '%s': a fraction above 100%%", spec);
      return TFLC_ERR_ARG;
    }
    *dst = v;
    if (*p == ',')
      p++;
    else if (*p) {
      if (err && err_len)
        snprintf(err, err_len, "budget '%s': unexpected '%c'", spec, *p);
      return TFLC_ERR_ARG;
    }
  }
  return TFLC_OK;
}

TFLC_API void tflc_budget_report_free(tflc_budget_report *rep) {
  if (!rep)
    return;
  free(rep->tensors);
  free(rep->steps);
  memset(rep, 0, sizeof *rep);
}

typedef struct tflc__bg_level {
  int bits;      /* 0: pruned only */
  double prune;  /* 0: binned only */
  uint8_t *data; /* the tensor's bytes at this level */
  size_t est;    /* estimated stored bytes */
  double score;  /* measured alone */
  int alive;     /* still a candidate */
} tflc__bg_level;

typedef struct tflc__bg_tensor {
  size_t off, len; /* data in the original model */
  size_t count;    /* elements */
  size_t esize;
  tflc__bg_level lv[16];
  int nlv;
  int cur; /* -1: original */
} tflc__bg_tensor;

typedef struct tflc__bg {
  const tflc_budget_options *o;
  tflc_budget_report *rep;
  uint8_t *arena;
  size_t arena_size;
  int32_t nout;      /* output elements per sample, all outputs */
  double *base;      /* nsamples * nout, the original's outputs */
  int32_t *base_top; /* argmax of output 0 per sample */
  int32_t out0;      /* elements of output 0 */
  double ref;        /* mean |base| (> 0) */
  double *tmp;       /* nsamples * nout */
} tflc__bg;

static double tflc__bg_real(const tflc_tensor *t, size_t i) {
  const uint8_t *d = (const uint8_t *)t->data;
  double q, s = t->scale;
  switch (t->type) {
  case TFLC_FLOAT32: {
    float f;
    memcpy(&f, d + 4 * i, 4);
    return (double)f;
  }
  case TFLC_INT8:
    q = (double)(int8_t)d[i];
    break;
  case TFLC_UINT8:
    q = (double)d[i];
    break;
  case TFLC_INT16: {
    int16_t v;
    memcpy(&v, d + 2 * i, 2);
    q = (double)v;
    break;
  }
  case TFLC_INT32: {
    int32_t v;
    memcpy(&v, d + 4 * i, 4);
    q = (double)v;
    break;
  }
  default:
    return 0;
  }
  return s > 0 ? (q - (double)t->zero_point) * s : q;
}

/* Runs `model` on every sample: outputs (real units) in dst. */
static tflc_status tflc__bg_run(tflc__bg *s, const uint8_t *model, size_t size,
                                double *dst) {
  tflc_model m;
  tflc_interpreter it;
  tflc_status st = tflc_model_init(&m, model, size);
  int32_t n, k;
  if (st != TFLC_OK) {
    snprintf(s->rep->error, sizeof s->rep->error, "model: %s",
             tflc_model_error(&m));
    return st;
  }
  st = tflc_interpreter_init(&it, &m, s->arena, s->arena_size, NULL);
  if (st != TFLC_OK) {
    snprintf(s->rep->error, sizeof s->rep->error, "interpreter: %s",
             tflc_error(&it));
    return st;
  }
  s->rep->evaluations++;
  for (n = 0; n < s->o->nsamples; n++) {
    const uint8_t *x = s->o->samples + (size_t)n * s->o->sample_bytes;
    double *y = dst + (size_t)n * (size_t)s->nout;
    for (k = 0; k < it.num_inputs; k++) {
      tflc_tensor *t = tflc_input(&it, k);
      memcpy(t->data, x, t->bytes);
      x += t->bytes;
    }
    st = tflc_invoke(&it);
    if (st != TFLC_OK) {
      snprintf(s->rep->error, sizeof s->rep->error, "invoke: %s",
               tflc_error(&it));
      return st;
    }
    for (k = 0; k < it.num_outputs; k++) {
      const tflc_tensor *t = tflc_output(&it, k);
      size_t i, c = t->bytes /
                    (tflc_type_size(t->type) ? tflc_type_size(t->type) : 1);
      for (i = 0; i < c; i++)
        *y++ = tflc__bg_real(t, i);
    }
  }
  return TFLC_OK;
}

static int32_t tflc__bg_argmax(const double *y, int32_t n) {
  int32_t i, b = 0;
  for (i = 1; i < n; i++)
    if (y[i] > y[b])
      b = i;
  return b;
}

static void tflc__bg_metrics(const tflc__bg *s, const double *y,
                             tflc_budget_metrics *mt) {
  int32_t n, i, agree = 0, right = 0;
  double sum = 0, mx = 0;
  size_t cnt = 0;
  for (n = 0; n < s->o->nsamples; n++) {
    const double *a = y + (size_t)n * (size_t)s->nout;
    const double *b = s->base + (size_t)n * (size_t)s->nout;
    int32_t top = tflc__bg_argmax(a, s->out0);
    agree += top == s->base_top[n];
    if (s->o->labels)
      right += top == s->o->labels[n];
    for (i = 0; i < s->nout; i++) {
      double d = fabs(a[i] - b[i]);
      sum += d;
      if (d > mx)
        mx = d;
      cnt++;
    }
  }
  mt->top1 = s->o->nsamples ? (double)agree / s->o->nsamples : 1;
  mt->mean_abs = cnt ? sum / (double)cnt : 0;
  mt->max_abs = mx;
  mt->accuracy =
      s->o->labels && s->o->nsamples ? (double)right / s->o->nsamples : -1;
  mt->score = (1 - mt->top1) + mt->mean_abs / s->ref;
  if (s->o->labels && s->rep->baseline.accuracy > mt->accuracy)
    mt->score += s->rep->baseline.accuracy - mt->accuracy;
}

static int tflc__bg_within(const tflc__bg *s, const tflc_budget_metrics *mt) {
  const tflc_budget *b = &s->o->budget;
  const double eps = 1e-12;
  if (b->top1 >= 0 && mt->top1 + eps < b->top1)
    return 0;
  if (b->mean_abs >= 0 && mt->mean_abs > b->mean_abs + eps)
    return 0;
  if (b->max_abs >= 0 && mt->max_abs > b->max_abs + eps)
    return 0;
  if (b->acc_drop >= 0 && s->o->labels &&
      s->rep->baseline.accuracy - mt->accuracy > b->acc_drop + eps)
    return 0;
  return 1;
}

/* Evaluates `model`: metrics in *mt. */
static tflc_status tflc__bg_eval(tflc__bg *s, const uint8_t *model, size_t size,
                                 tflc_budget_metrics *mt) {
  tflc_status st = tflc__bg_run(s, model, size, s->tmp);
  if (st == TFLC_OK)
    tflc__bg_metrics(s, s->tmp, mt);
  return st;
}

/* The interpreter's arena for the model (grown until it fits), its inputs
 * checked against the samples' size, and the arrays of baseline and
 * candidate outputs in s. */
static tflc_status tflc__bg_prepare(tflc__bg *s, tflc_model *m) {
  const tflc_budget_options *opt = s->o;
  tflc_budget_report *rep = s->rep;
  tflc_interpreter it;
  tflc_status st = TFLC_OK;
  size_t need = 0;
  int32_t k;
  /* the arena: grow until the original fits (candidates need the same) */
  for (s->arena_size = (size_t)1 << 20;; s->arena_size *= 2) {
    free(s->arena);
    s->arena = (uint8_t *)malloc(s->arena_size);
    if (!s->arena)
      return TFLC_ERR_ARENA;
    st = tflc_interpreter_init(&it, m, s->arena, s->arena_size, NULL);
    if (st != TFLC_ERR_ARENA || s->arena_size >= ((size_t)1 << 30))
      break;
  }
  if (st != TFLC_OK) {
    snprintf(rep->error, sizeof rep->error, "interpreter: %s", tflc_error(&it));
    return st;
  }
  for (k = 0; k < it.num_inputs; k++)
    need += tflc_input(&it, k)->bytes;
  if (need != opt->sample_bytes) {
    snprintf(rep->error, sizeof rep->error,
             "a sample has %lu bytes; the model's inputs take %lu",
             (unsigned long)opt->sample_bytes, (unsigned long)need);
    return TFLC_ERR_ARG;
  }
  for (k = 0; k < it.num_outputs; k++) {
    const tflc_tensor *t = tflc_output(&it, k);
    size_t es = tflc_type_size(t->type) ? tflc_type_size(t->type) : 1;
    s->nout += (int32_t)(t->bytes / es);
    if (k == 0)
      s->out0 = (int32_t)(t->bytes / es);
  }
  s->base = (double *)calloc((size_t)opt->nsamples * (size_t)s->nout + 1,
                             sizeof(double));
  s->tmp = (double *)calloc((size_t)opt->nsamples * (size_t)s->nout + 1,
                            sizeof(double));
  s->base_top = (int32_t *)calloc((size_t)opt->nsamples, sizeof(int32_t));
  if (!s->base || !s->tmp || !s->base_top)
    return TFLC_ERR_ARENA;
  return TFLC_OK;
}

/* write: the chosen model (cur), compressed, into *out; the model as it
 * was when nothing paid off; each tensor's bytes and method in rep */
static tflc_status tflc__bg_write(const void *model, size_t size,
                                  const tflc_budget_options *opt,
                                  tflc_budget_report *rep, int32_t nt,
                                  const uint8_t *cur, uint8_t **out,
                                  size_t *out_size) {
  int32_t i, k;
  int any_prune = 0;
  tflc_status st;
  for (i = 0; i < nt; i++)
    any_prune |= rep->tensors[i].prune > 0;
  {
    tflc_compress_options co;
    tflc_stage_report cr;
    memset(&co, 0, sizeof co);
    co.format = opt->format;
    co.tflm_compatible = opt->tflm_compatible;
    co.methods = opt->methods
                     ? opt->methods
                     : TFLC_METHOD_LUT | (any_prune ? TFLC_METHOD_PRUNE : 0);
    st = tflc_compress(cur, size, &co, out, out_size, &cr);
    if (st != TFLC_OK) {
      snprintf(rep->error, sizeof rep->error, "compress: %.240s",
               cr.error[0] ? cr.error : tflc_status_str(st));
      tflc_stage_report_free(&cr);
      return st;
    }
    for (i = 0; i < nt; i++) {
      rep->tensors[i].bytes_after = rep->tensors[i].bytes_before;
      for (k = 0; k < cr.nentries; k++)
        if (cr.entries[k].done &&
            cr.entries[k].subgraph == rep->tensors[i].subgraph &&
            cr.entries[k].tensor == rep->tensors[i].tensor) {
          rep->tensors[i].bytes_after = cr.entries[k].bytes_after;
          rep->tensors[i].method = cr.entries[k].method;
        }
    }
    tflc_stage_report_free(&cr);
  }
  if (*out_size >= size) { /* nothing paid off: the model as it was */
    free(*out);
    *out = (uint8_t *)malloc(size);
    if (!*out) {
      st = TFLC_ERR_ARENA;
      return st;
    }
    memcpy(*out, model, size);
    *out_size = size;
    for (i = 0; i < nt; i++) {
      rep->tensors[i].bits = 0;
      rep->tensors[i].prune = 0;
      rep->tensors[i].method = 0;
      rep->tensors[i].bytes_after = rep->tensors[i].bytes_before;
    }
    rep->nsteps = 0;
  }
  return TFLC_OK;
}

/* The levels of every tensor tflc_bin changes: one tflc_bin run per width
 * (max_bits down to min_bits) and, with opt->prune, per pruning fraction;
 * each tensor's entry (bt, rep->tensors, *ntp of them) gets the bytes of
 * each level. */
static tflc_status tflc__bg_levels(const void *model, size_t size,
                                   const tflc_budget_options *opt,
                                   const tflc_model *m, tflc_budget_report *rep,
                                   int minb, int maxb, tflc__bg_tensor **btp,
                                   int32_t *ntp) {
  static const double prunes[4] = {0.25, 0.5, 0.75, 0.9};
  tflc__bg_tensor *bt = *btp;
  int32_t nt = *ntp, i, k;
  uint8_t *binned = NULL;
  size_t binned_size = 0;
  tflc_status st = TFLC_OK;
  int lv;
  for (lv = 0; lv < (maxb - minb + 1) + (opt->prune ? 4 : 0); lv++) {
    tflc_bin_options bo;
    tflc_stage_report br;
    tflc_model bm;
    memset(&bo, 0, sizeof bo);
    if (lv <= maxb - minb)
      bo.bits = maxb - lv;
    else
      bo.prune = prunes[lv - (maxb - minb + 1)];
    bo.exclude = opt->exclude;
    bo.nexclude = opt->nexclude;
    free(binned);
    binned = NULL;
    st = tflc_bin(model, size, &bo, &binned, &binned_size, &br);
    if (st == TFLC_OK)
      st = tflc_model_init(&bm, binned, binned_size);
    if (st != TFLC_OK) {
      snprintf(rep->error, sizeof rep->error, "bin: %.240s",
               br.error[0] ? br.error : tflc_status_str(st));
      tflc_stage_report_free(&br);
      goto out;
    }
    for (k = 0; k < br.nentries; k++) {
      const tflc_stage_entry *e = &br.entries[k];
      tflc_tensor to, tb;
      tflc__bg_tensor *b = NULL;
      tflc__bg_level *L;
      if (!e->done)
        continue;
      if (tflc_model_tensor(m, e->subgraph, e->tensor, &to, NULL, NULL) !=
              TFLC_OK ||
          tflc_model_tensor(&bm, e->subgraph, e->tensor, &tb, NULL, NULL) !=
              TFLC_OK ||
          !to.data || !tb.data || to.bytes != tb.bytes || !to.bytes)
        continue;
      for (i = 0; i < nt; i++)
        if (rep->tensors[i].subgraph == e->subgraph &&
            rep->tensors[i].tensor == e->tensor)
          b = &bt[i];
      if (!b) {
        void *p1 = realloc(bt, sizeof *bt * (size_t)(nt + 1));
        void *p2 =
            p1 ? realloc(rep->tensors, sizeof *rep->tensors * (size_t)(nt + 1))
               : NULL;
        if (p1)
          bt = (tflc__bg_tensor *)p1;
        if (p2)
          rep->tensors = (tflc_budget_tensor *)p2;
        if (!p1 || !p2) {
          tflc_stage_report_free(&br);
          st = TFLC_ERR_ARENA;
          goto out;
        }
        b = &bt[nt];
        memset(b, 0, sizeof *b);
        memset(&rep->tensors[nt], 0, sizeof rep->tensors[nt]);
        rep->tensors[nt].subgraph = e->subgraph;
        rep->tensors[nt].tensor = e->tensor;
        snprintf(rep->tensors[nt].name, sizeof rep->tensors[nt].name, "%s",
                 e->name ? e->name : "");
        rep->tensors[nt].type = e->type;
        rep->tensors[nt].bytes_before = to.bytes;
        b->off = (size_t)((const uint8_t *)to.data - m->bytes);
        b->len = to.bytes;
        b->esize = tflc_type_size(to.type) ? tflc_type_size(to.type) : 1;
        b->count = b->len / b->esize;
        b->cur = -1;
        nt++;
        rep->ntensors = nt;
      }
      if (b->nlv >= 16)
        continue;
      L = &b->lv[b->nlv];
      memset(L, 0, sizeof *L);
      L->bits = bo.bits;
      L->prune = bo.prune;
      L->data = (uint8_t *)malloc(b->len);
      if (!L->data) {
        tflc_stage_report_free(&br);
        st = TFLC_ERR_ARENA;
        goto out;
      }
      memcpy(L->data, tb.data, b->len);
      L->alive = 1; /* est: measured below */
      b->nlv++;
    }
    tflc_stage_report_free(&br);
  }

out:
  *btp = bt;
  *ntp = nt;
  free(binned);
  return st;
}

/* each level's bytes in the written model: the original with that one
 * tensor at that level, compressed alone (as the search's result will
 * be: same format, methods, mode); est = its data + what the file grows
 * by besides (a TFLM_DECODE operator and its tensors, alignment) */
static tflc_status tflc__bg_estimate(const void *model, size_t size,
                                     const tflc_budget_options *opt,
                                     tflc_budget_report *rep,
                                     tflc__bg_tensor *bt, int32_t nt,
                                     uint8_t *cand) {
  int32_t i, k;
  int lv;
  tflc_status st;
  uint8_t *cp = NULL;
  size_t base = 0;
  tflc_stage_report cr;
  st = tflc_model_copy(model, size, &cp, &base, &cr);
  tflc_stage_report_free(&cr);
  free(cp);
  if (st != TFLC_OK) {
    snprintf(rep->error, sizeof rep->error, "copy: %s", tflc_status_str(st));
    return st;
  }
  for (i = 0; i < nt; i++)
    for (lv = 0; lv < bt[i].nlv; lv++) {
      tflc__bg_level *L = &bt[i].lv[lv];
      tflc_compress_options co;
      tflc_tensor_ref r;
      uint8_t *co_out = NULL;
      size_t co_size = 0;
      int done_ = 0;
      memcpy(cand, model, size);
      memcpy(cand + bt[i].off, L->data, bt[i].len);
      memset(&co, 0, sizeof co);
      co.format = opt->format;
      co.tflm_compatible = opt->tflm_compatible;
      co.methods = L->bits ? TFLC_METHOD_LUT : TFLC_METHOD_PRUNE;
      r.subgraph = rep->tensors[i].subgraph;
      r.tensor = rep->tensors[i].tensor;
      r.bits = 0;
      co.tensors = &r;
      co.ntensors = 1;
      if (tflc_compress(cand, size, &co, &co_out, &co_size, &cr) == TFLC_OK)
        for (k = 0; k < cr.nentries; k++)
          done_ |= cr.entries[k].done && cr.entries[k].tensor == r.tensor &&
                   cr.entries[k].subgraph == r.subgraph;
      tflc_stage_report_free(&cr);
      free(co_out);
      if (done_ && co_size + bt[i].len > base)
        L->est = co_size + bt[i].len - base;
      L->alive = done_ && L->est < bt[i].len;
    }
  return TFLC_OK;
}

/* each level alone: one that breaks the budget is dropped (smaller
 * levels are still measured: an argmax near a tie can flip at 7 bits
 * and not at 4) */
static tflc_status tflc__bg_screen(tflc__bg *s, const void *model, size_t size,
                                   tflc__bg_tensor *bt, int32_t nt,
                                   uint8_t *cand) {
  tflc_budget_report *rep = s->rep;
  int32_t i;
  int lv;
  tflc_status st;
  for (i = 0; i < nt; i++) {
    tflc__bg_tensor *b = &bt[i];
    for (lv = 0; lv < b->nlv; lv++) {
      tflc__bg_level *L = &b->lv[lv];
      tflc_budget_metrics mt;
      if (!L->alive)
        continue;
      memcpy(cand, model, size);
      memcpy(cand + b->off, L->data, b->len);
      st = tflc__bg_eval(s, cand, size, &mt);
      if (st != TFLC_OK)
        return st;
      rep->tensors[i].levels_tried++;
      L->score = mt.score;
      if (!tflc__bg_within(s, &mt))
        L->alive = 0;
    }
  }
  return TFLC_OK;
}

/* greedy: the best bytes saved per unit of error first; cur is the model
 * so far (the chosen levels in), *now its metrics */
static tflc_status tflc__bg_greedy(tflc__bg *s, size_t size,
                                   tflc__bg_tensor *bt, int32_t nt,
                                   uint8_t *cur, uint8_t *cand,
                                   tflc_budget_metrics *now) {
  tflc_budget_report *rep = s->rep;
  int32_t i;
  int lv;
  tflc_status st;
  for (;;) {
    int32_t bi = -1;
    int bl = -1;
    double best = -1;
    size_t bgain = 0;
    tflc_budget_metrics mt;
    for (i = 0; i < nt; i++) {
      tflc__bg_tensor *b = &bt[i];
      size_t csize = b->cur < 0 ? b->len : b->lv[b->cur].est;
      double cscore = b->cur < 0 ? 0 : b->lv[b->cur].score;
      for (lv = 0; lv < b->nlv; lv++) {
        tflc__bg_level *L = &b->lv[lv];
        size_t gain;
        double dc, r;
        if (!L->alive || L->est >= csize)
          continue;
        gain = csize - L->est;
        dc = L->score - cscore;
        r = (double)gain / ((dc > 0 ? dc : 0) + 1e-6);
        if (r > best || (r == best && gain > bgain)) {
          best = r;
          bgain = gain;
          bi = i;
          bl = lv;
        }
      }
    }
    if (bi < 0)
      break;
    memcpy(cand, cur, size);
    memcpy(cand + bt[bi].off, bt[bi].lv[bl].data, bt[bi].len);
    st = tflc__bg_eval(s, cand, size, &mt);
    if (st != TFLC_OK)
      return st;
    bt[bi].lv[bl].alive = 0; /* tried either way */
    if (tflc__bg_within(s, &mt)) {
      tflc_budget_step *sp;
      void *p =
          realloc(rep->steps, sizeof *rep->steps * (size_t)(rep->nsteps + 1));
      if (!p) {
        st = TFLC_ERR_ARENA;
        return st;
      }
      rep->steps = (tflc_budget_step *)p;
      sp = &rep->steps[rep->nsteps++];
      sp->entry = bi;
      sp->bits = bt[bi].lv[bl].bits;
      sp->prune = bt[bi].lv[bl].prune;
      sp->bytes_saved = bgain;
      sp->after = mt;
      sp->cost = mt.score - now->score;
      rep->tensors[bi].cost += sp->cost;
      rep->tensors[bi].bits = sp->bits;
      rep->tensors[bi].prune = sp->prune;
      bt[bi].cur = bl;
      *now = mt;
      memcpy(cur, cand, size);
    }
  }
  return TFLC_OK;
}

TFLC_API tflc_status tflc_compress_to_budget(const void *model, size_t size,
                                             const tflc_budget_options *opt,
                                             uint8_t **out, size_t *out_size,
                                             tflc_budget_report *rep) {
  tflc_budget_report local;
  tflc__bg s;
  tflc__bg_tensor *bt = NULL;
  tflc_model m;
  tflc_status st = TFLC_OK;
  uint8_t *cur = NULL, *cand = NULL;
  int32_t i, k, nt = 0;
  int minb, maxb, lv;
  clock_t t0 = clock();
  tflc_budget_metrics now;
  if (!rep)
    rep = &local;
  memset(rep, 0, sizeof *rep);
  memset(&s, 0, sizeof s);
  s.o = opt;
  s.rep = rep;
  if (out)
    *out = NULL;
  if (out_size)
    *out_size = 0;
  if (!model || !out || !out_size || !opt || !opt->samples ||
      opt->nsamples <= 0) {
    snprintf(rep->error, sizeof rep->error,
             "model, output, options and samples are needed");
    st = TFLC_ERR_ARG;
    goto done;
  }
  minb = opt->min_bits ? opt->min_bits : 1;
  maxb = opt->max_bits ? opt->max_bits : 7;
  if (minb < 1 || maxb > 8 || minb > maxb) {
    snprintf(rep->error, sizeof rep->error, "widths %d..%d not within 1..8",
             minb, maxb);
    st = TFLC_ERR_ARG;
    goto done;
  }
  if (opt->budget.acc_drop >= 0 && !opt->labels) {
    snprintf(rep->error, sizeof rep->error,
             "an accuracy-drop budget needs labels");
    st = TFLC_ERR_ARG;
    goto done;
  }
  rep->nsamples = opt->nsamples;
  rep->in_size = size;
  st = tflc_model_init(&m, model, size);
  if (st != TFLC_OK) {
    snprintf(rep->error, sizeof rep->error, "%s", tflc_model_error(&m));
    goto done;
  }
  st = tflc__bg_prepare(&s, &m);
  if (st != TFLC_OK)
    goto done;
  cur = (uint8_t *)malloc(size);
  cand = (uint8_t *)malloc(size);
  if (!cur || !cand) {
    st = TFLC_ERR_ARENA;
    goto done;
  }
  memcpy(cur, model, size);
  st = tflc__bg_run(&s, cur, size, s.base);
  if (st != TFLC_OK)
    goto done;
  {
    double sum = 0;
    size_t c = (size_t)opt->nsamples * (size_t)s.nout;
    for (i = 0; i < opt->nsamples; i++)
      s.base_top[i] =
          tflc__bg_argmax(s.base + (size_t)i * (size_t)s.nout, s.out0);
    for (k = 0; k < (int32_t)c; k++)
      sum += fabs(s.base[k]);
    s.ref = c && sum > 0 ? sum / (double)c : 1;
  }
  rep->baseline.top1 = 1;
  rep->baseline.accuracy = -1;
  if (opt->labels) {
    int32_t right = 0;
    for (i = 0; i < opt->nsamples; i++)
      right += s.base_top[i] == opt->labels[i];
    rep->baseline.accuracy = (double)right / opt->nsamples;
  }
  now = rep->baseline;

  /* levels: one tflc_bin run per width and per pruning fraction */
  st = tflc__bg_levels(model, size, opt, &m, rep, minb, maxb, &bt, &nt);
  if (st != TFLC_OK)
    goto done;

  st = tflc__bg_estimate(model, size, opt, rep, bt, nt, cand);
  if (st != TFLC_OK)
    goto done;

  st = tflc__bg_screen(&s, model, size, bt, nt, cand);
  if (st != TFLC_OK)
    goto done;

  st = tflc__bg_greedy(&s, size, bt, nt, cur, cand, &now);
  if (st != TFLC_OK)
    goto done;

  st = tflc__bg_write(model, size, opt, rep, nt, cur, out, out_size);
  if (st != TFLC_OK)
    goto done;
  rep->out_size = *out_size;
  st = tflc__bg_eval(&s, *out, *out_size, &rep->final);
  if (st == TFLC_OK && !tflc__bg_within(&s, &rep->final)) {
    snprintf(rep->error, sizeof rep->error,
             "the written model is outside the budget (internal error)");
    st = TFLC_ERR_STATE;
  }
done:
  rep->seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
  if (st != TFLC_OK && out && *out) {
    free(*out);
    *out = NULL;
    *out_size = 0;
  }
  for (i = 0; i < nt; i++)
    for (lv = 0; lv < bt[i].nlv; lv++)
      free(bt[i].lv[lv].data);
  free(bt);
  free(cur);
  free(cand);
  free(s.arena);
  free(s.base);
  free(s.tmp);
  free(s.base_top);
  if (rep == &local)
    tflc_budget_report_free(&local);
  return st;
}
/* the build's own floating-point contraction again */
#if defined(__clang__)
#pragma STDC FP_CONTRACT DEFAULT
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif

#endif /* TFLC_WRITE_IMPLEMENTATION */

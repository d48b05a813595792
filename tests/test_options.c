/* tests/test_options.c - the typed readers of builtin options (tflc.h,
 * "builtin options: typed readers"):
 *   - every field of every table, set alone in a writer-built model, lands
 *     in its own struct field and nowhere else; the slot numbers here are
 *     transcribed from schema.fbs independently of the readers' enums;
 *   - an operator without options reads as the schema defaults;
 *   - the fields TFLite's converter wrote in the conformance cases
 *     (../shared/conformance/ops*, SHARED to move it) read as the
 *     parameters each case.json records.
 * The operator table's pad / act columns are checked against the readers'
 * slots at compile time (tflc.h). */
#define _POSIX_C_SOURCE 200809L
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "../tflc_write.h"
#include "harness.h"

#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tables and fields -------------------------------------------------- */
enum { K_U8, K_BOOL, K_I32, K_F32, K_VEC, K_STR };
typedef struct field {
  const char *name;
  uint8_t slot; /* schema.fbs position of the field in its table */
  uint8_t kind;
  size_t at;  /* offsetof the field (K_VEC: position; K_STR: pointer) */
  size_t len; /* K_VEC / K_STR: offsetof the length */
  int32_t dflt;
} field;
typedef struct table {
  const char *name;
  uint8_t options_type; /* BuiltinOptions union number */
  size_t size;
  void (*read)(const tflc_model *m, uint32_t t, void *o);
  field fields[8];
} table;

#define READER(name, type)                                                     \
  static void read_##name(const tflc_model *m, uint32_t t, void *o) {          \
    tflc__read_##name(m, t, (type *)o);                                        \
  }
READER(conv2d_options, tflc__conv2d_options)
READER(depthwise_conv2d_options, tflc__depthwise_conv2d_options)
READER(transpose_conv_options, tflc__transpose_conv_options)
READER(pool2d_options, tflc__pool2d_options)
READER(fully_connected_options, tflc__fully_connected_options)
READER(svdf_options, tflc__svdf_options)
READER(sequence_lstm_options, tflc__sequence_lstm_options)
READER(batch_matmul_options, tflc__batch_matmul_options)
READER(softmax_options, tflc__softmax_options)
READER(leaky_relu_options, tflc__leaky_relu_options)
READER(add_sub_options, tflc__add_sub_options)
READER(activation_only_options, tflc__activation_only_options)
READER(concatenation_options, tflc__concatenation_options)
READER(pack_options, tflc__pack_options)
READER(unpack_options, tflc__unpack_options)
READER(gather_options, tflc__gather_options)
READER(strided_slice_options, tflc__strided_slice_options)
READER(space_depth_options, tflc__space_depth_options)
READER(resize_bilinear_options, tflc__resize_options)
READER(resize_nearest_neighbor_options, tflc__resize_options)
READER(squeeze_options, tflc__squeeze_options)
READER(mirror_pad_options, tflc__mirror_pad_options)
READER(cumsum_options, tflc__cumsum_options)
READER(var_handle_options, tflc__var_handle_options)
READER(if_options, tflc__if_options)
READER(while_options, tflc__while_options)
READER(call_once_options, tflc__call_once_options)

#define F(type, fld, slot, kind, dflt)                                         \
  { #fld, slot, kind, offsetof(type, fld), 0, dflt }
#define FL(type, fld, n, slot, kind)                                           \
  { #fld, slot, kind, offsetof(type, fld), offsetof(type, n), 0 }
#define T(name, type, options_type)                                            \
#name, options_type, sizeof(type), read_##name

/* clang-format off */
static const table tables[] = {
  {T(conv2d_options, tflc__conv2d_options, 1),
   {F(tflc__conv2d_options, padding, 0, K_U8, 0),
    F(tflc__conv2d_options, stride_w, 1, K_I32, 0),
    F(tflc__conv2d_options, stride_h, 2, K_I32, 0),
    F(tflc__conv2d_options, fused_activation_function, 3, K_U8, 0),
    F(tflc__conv2d_options, dilation_w_factor, 4, K_I32, 1),
    F(tflc__conv2d_options, dilation_h_factor, 5, K_I32, 1),
    F(tflc__conv2d_options, quantized_bias_type, 6, K_U8, 0)}},
  {T(depthwise_conv2d_options, tflc__depthwise_conv2d_options, 2),
   {F(tflc__depthwise_conv2d_options, padding, 0, K_U8, 0),
    F(tflc__depthwise_conv2d_options, stride_w, 1, K_I32, 0),
    F(tflc__depthwise_conv2d_options, stride_h, 2, K_I32, 0),
    F(tflc__depthwise_conv2d_options, depth_multiplier, 3, K_I32, 0),
    F(tflc__depthwise_conv2d_options, fused_activation_function, 4, K_U8, 0),
    F(tflc__depthwise_conv2d_options, dilation_w_factor, 5, K_I32, 1),
    F(tflc__depthwise_conv2d_options, dilation_h_factor, 6, K_I32, 1)}},
  {T(transpose_conv_options, tflc__transpose_conv_options, 49),
   {F(tflc__transpose_conv_options, padding, 0, K_U8, 0),
    F(tflc__transpose_conv_options, stride_w, 1, K_I32, 0),
    F(tflc__transpose_conv_options, stride_h, 2, K_I32, 0),
    F(tflc__transpose_conv_options, fused_activation_function, 3, K_U8, 0),
    F(tflc__transpose_conv_options, quantized_bias_type, 4, K_U8, 0)}},
  {T(pool2d_options, tflc__pool2d_options, 5),
   {F(tflc__pool2d_options, padding, 0, K_U8, 0),
    F(tflc__pool2d_options, stride_w, 1, K_I32, 0),
    F(tflc__pool2d_options, stride_h, 2, K_I32, 0),
    F(tflc__pool2d_options, filter_width, 3, K_I32, 0),
    F(tflc__pool2d_options, filter_height, 4, K_I32, 0),
    F(tflc__pool2d_options, fused_activation_function, 5, K_U8, 0)}},
  {T(fully_connected_options, tflc__fully_connected_options, 8),
   {F(tflc__fully_connected_options, fused_activation_function, 0, K_U8, 0),
    F(tflc__fully_connected_options, weights_format, 1, K_U8, 0),
    F(tflc__fully_connected_options, keep_num_dims, 2, K_BOOL, 0),
    F(tflc__fully_connected_options, asymmetric_quantize_inputs, 3, K_BOOL, 0),
    F(tflc__fully_connected_options, quantized_bias_type, 4, K_U8, 0)}},
  {T(svdf_options, tflc__svdf_options, 6),
   {F(tflc__svdf_options, rank, 0, K_I32, 0),
    F(tflc__svdf_options, fused_activation_function, 1, K_U8, 0),
    F(tflc__svdf_options, asymmetric_quantize_inputs, 2, K_BOOL, 0)}},
  {T(sequence_lstm_options, tflc__sequence_lstm_options, 71),
   {F(tflc__sequence_lstm_options, fused_activation_function, 0, K_U8, 0),
    F(tflc__sequence_lstm_options, cell_clip, 1, K_F32, 0),
    F(tflc__sequence_lstm_options, proj_clip, 2, K_F32, 0),
    F(tflc__sequence_lstm_options, time_major, 3, K_BOOL, 0),
    F(tflc__sequence_lstm_options, asymmetric_quantize_inputs, 4, K_BOOL, 0),
    F(tflc__sequence_lstm_options, diagonal_recurrent_tensors, 5, K_BOOL, 0)}},
  {T(batch_matmul_options, tflc__batch_matmul_options, 101),
   {F(tflc__batch_matmul_options, adj_x, 0, K_BOOL, 0),
    F(tflc__batch_matmul_options, adj_y, 1, K_BOOL, 0),
    F(tflc__batch_matmul_options, asymmetric_quantize_inputs, 2, K_BOOL, 0)}},
  {T(softmax_options, tflc__softmax_options, 9),
   {F(tflc__softmax_options, beta, 0, K_F32, 0)}},
  {T(leaky_relu_options, tflc__leaky_relu_options, 75),
   {F(tflc__leaky_relu_options, alpha, 0, K_F32, 0)}},
  {T(add_sub_options, tflc__add_sub_options, 11), /* and 28 */
   {F(tflc__add_sub_options, fused_activation_function, 0, K_U8, 0),
    F(tflc__add_sub_options, pot_scale_int16, 1, K_BOOL, 1)}},
  {T(activation_only_options, tflc__activation_only_options, 21), /* 29, 12 */
   {F(tflc__activation_only_options, fused_activation_function, 0, K_U8, 0)}},
  {T(concatenation_options, tflc__concatenation_options, 10),
   {F(tflc__concatenation_options, axis, 0, K_I32, 0),
    F(tflc__concatenation_options, fused_activation_function, 1, K_U8, 0)}},
  {T(pack_options, tflc__pack_options, 59),
   {F(tflc__pack_options, values_count, 0, K_I32, 0),
    F(tflc__pack_options, axis, 1, K_I32, 0)}},
  {T(unpack_options, tflc__unpack_options, 64),
   {F(tflc__unpack_options, num, 0, K_I32, 0),
    F(tflc__unpack_options, axis, 1, K_I32, 0)}},
  {T(gather_options, tflc__gather_options, 23),
   {F(tflc__gather_options, axis, 0, K_I32, 0),
    F(tflc__gather_options, batch_dims, 1, K_I32, 0)}},
  {T(strided_slice_options, tflc__strided_slice_options, 32),
   {F(tflc__strided_slice_options, begin_mask, 0, K_I32, 0),
    F(tflc__strided_slice_options, end_mask, 1, K_I32, 0),
    F(tflc__strided_slice_options, ellipsis_mask, 2, K_I32, 0),
    F(tflc__strided_slice_options, new_axis_mask, 3, K_I32, 0),
    F(tflc__strided_slice_options, shrink_axis_mask, 4, K_I32, 0),
    F(tflc__strided_slice_options, offset, 5, K_BOOL, 0)}},
  {T(space_depth_options, tflc__space_depth_options, 19), /* and 94 */
   {F(tflc__space_depth_options, block_size, 0, K_I32, 0)}},
  {T(resize_bilinear_options, tflc__resize_options, 15),
   {F(tflc__resize_options, align_corners, 2, K_BOOL, 0),
    F(tflc__resize_options, half_pixel_centers, 3, K_BOOL, 0)}},
  {T(resize_nearest_neighbor_options, tflc__resize_options, 74),
   {F(tflc__resize_options, align_corners, 0, K_BOOL, 0),
    F(tflc__resize_options, half_pixel_centers, 1, K_BOOL, 0)}},
  {T(squeeze_options, tflc__squeeze_options, 30),
   {FL(tflc__squeeze_options, squeeze_dims, num_squeeze_dims, 0, K_VEC)}},
  {T(mirror_pad_options, tflc__mirror_pad_options, 77),
   {F(tflc__mirror_pad_options, mode, 0, K_U8, 0)}},
  {T(cumsum_options, tflc__cumsum_options, 102),
   {F(tflc__cumsum_options, exclusive, 0, K_BOOL, 0),
    F(tflc__cumsum_options, reverse, 1, K_BOOL, 0)}},
  {T(var_handle_options, tflc__var_handle_options, 111),
   {FL(tflc__var_handle_options, container, container_len, 0, K_STR),
    FL(tflc__var_handle_options, shared_name, shared_name_len, 1, K_STR)}},
  {T(if_options, tflc__if_options, 92),
   {F(tflc__if_options, then_subgraph_index, 0, K_I32, 0),
    F(tflc__if_options, else_subgraph_index, 1, K_I32, 0)}},
  {T(while_options, tflc__while_options, 93),
   {F(tflc__while_options, cond_subgraph_index, 0, K_I32, 0),
    F(tflc__while_options, body_subgraph_index, 1, K_I32, 0)}},
  {T(call_once_options, tflc__call_once_options, 103),
   {F(tflc__call_once_options, init_subgraph_index, 0, K_I32, 0)}},
};
/* clang-format on */
#define NUM_TABLES ((int)(sizeof tables / sizeof tables[0]))

static int num_fields(const table *t) {
  int n = 0;
  while (n < 8 && t->fields[n].name)
    n++;
  return n;
}
static int32_t get_i32(const void *o, size_t at) {
  int32_t v;
  memcpy(&v, (const uint8_t *)o + at, 4);
  return v;
}
static float get_f32(const void *o, size_t at) {
  float v;
  memcpy(&v, (const uint8_t *)o + at, 4);
  return v;
}
static const char *get_ptr(const void *o, size_t at) {
  const char *v;
  memcpy(&v, (const uint8_t *)o + at, sizeof v);
  return v;
}

/* The value a field is written with when set alone. */
static const int32_t vec_value[3] = {-2, 0, 5};
static tflc_w_option option_for(const field *f) {
  tflc_w_option o;
  memset(&o, 0, sizeof o);
  o.slot = f->slot;
  switch (f->kind) {
  case K_U8:
    o.kind = TFLC_W_U8;
    o.i = 4 + f->slot; /* any byte but the default */
    break;
  case K_BOOL:
    o.kind = TFLC_W_U8;
    o.i = 1;
    break;
  case K_I32:
    o.kind = TFLC_W_I32;
    o.i = -1000 - f->slot;
    break;
  case K_F32:
    o.kind = TFLC_W_F32;
    o.f = 0.375f + (float)f->slot;
    break;
  case K_VEC:
    o.kind = TFLC_W_I32_VEC;
    o.vec = vec_value;
    o.vec_len = 3;
    break;
  default:
    o.kind = TFLC_W_STR;
    o.str = f->slot ? "second name" : "first";
    break;
  }
  return o;
}

/* 1 when field f of o holds its default (set = 0) or the value
 * option_for(f) wrote (set = 1). */
static int field_is(const tflc_model *m, const void *o, const field *f,
                    int set) {
  const tflc_w_option w = option_for(f);
  switch (f->kind) {
  case K_U8:
  case K_I32:
    return get_i32(o, f->at) == (set ? w.i : f->dflt);
  case K_BOOL:
    return get_i32(o, f->at) == (set ? 1 : f->dflt);
  case K_F32:
    return get_f32(o, f->at) == (set ? w.f : (float)f->dflt);
  case K_VEC: {
    const uint32_t pos = (uint32_t)get_i32(o, f->at);
    const uint32_t n = (uint32_t)get_i32(o, f->len);
    int32_t k;
    if (!set)
      return pos == 0 && n == 0;
    if (pos == 0 || n != 3)
      return 0;
    for (k = 0; k < 3; k++)
      if (tflc__i32(m->bytes + pos + 4 * (uint32_t)k) != vec_value[k])
        return 0;
    return 1;
  }
  default: {
    const char *s = get_ptr(o, f->at);
    const uint32_t n = (uint32_t)get_i32(o, f->len);
    if (!set)
      return s == NULL && n == 0;
    return s && n == strlen(w.str) && memcmp(s, w.str, n) == 0;
  }
  }
}

/* A model (not verified) of one operator per (table, field), each with
 * that field alone set, then one operator with every table empty. */
static uint8_t *single_field_model(size_t *size) {
  tflc_writer *w = tflc_writer_create();
  uint8_t *bytes = NULL;
  int i, j;
  for (i = 0; i < NUM_TABLES; i++) {
    const table *t = &tables[i];
    for (j = 0; j < num_fields(t); j++) {
      tflc_w_option o = option_for(&t->fields[j]);
      tflc_writer_op(w, 0, TFLC_OP_ADD, NULL, 0, NULL, 0, NULL, t->options_type,
                     1, &o);
    }
    tflc_writer_op(w, 0, TFLC_OP_ADD, NULL, 0, NULL, 0, NULL, t->options_type,
                   0, NULL);
  }
  if (tflc_writer_finish(w, &bytes, size) != TFLC_OK)
    bytes = NULL;
  tflc_writer_destroy(w);
  return bytes;
}
/* The builtin options table of operator i of subgraph 0 of a model whose
 * bytes and size are set (no verification needed for these). */
static uint32_t options_of(const tflc_model *m, int32_t i) {
  tflc__fb fb = tflc__mfb(m);
  uint32_t n,
      v = tflc__get_vec(fb, tflc__u32(m->bytes), TFLC__MODEL_SUBGRAPHS, 4, &n);
  uint32_t sg = v && n ? tflc__vec_table(fb, v, 0) : 0, ops, ot;
  ops = sg ? tflc__get_vec(fb, sg, TFLC__SG_OPERATORS, 4, &n) : 0;
  if (!ops || i < 0 || (uint32_t)i >= n)
    return 0;
  ot = tflc__vec_table(fb, ops, (uint32_t)i);
  return ot ? tflc__get_ref(fb, ot, TFLC__OP_OPTS) : 0;
}

static void test_each_field_alone(void) {
  size_t size = 0;
  uint8_t *bytes = single_field_model(&size);
  tflc_model m;
  int i, j, k, op = 0;
  CHECK(bytes != NULL);
  if (!bytes)
    return;
  memset(&m, 0, sizeof m);
  m.bytes = bytes;
  m.size = size;
  for (i = 0; i < NUM_TABLES; i++) {
    const table *t = &tables[i];
    const int n = num_fields(t);
    union {
      uint8_t b[128];
      double align;
    } o;
    CHECK(t->size <= sizeof o.b);
    for (j = 0; j <= n; j++) {
      /* j < n: field j alone; j == n: the empty table */
      uint32_t ot = options_of(&m, op++);
      int ok = ot != 0;
      memset(o.b, 0xA5, sizeof o.b);
      t->read(&m, ot, o.b);
      for (k = 0; k < n; k++)
        ok = ok && field_is(&m, o.b, &t->fields[k], k == j);
      if (!ok)
        fprintf(stderr, "%s: %s %s\n", t->name,
                j < n ? "set alone:" : "empty table",
                j < n ? t->fields[j].name : "");
      CHECK(ok);
    }
  }
  free(bytes);
}

/* No options table at all (0): the schema defaults. */
static void test_no_table_is_defaults(void) {
  static const uint8_t nothing[8] = {0};
  tflc_model m;
  int i, k;
  memset(&m, 0, sizeof m);
  m.bytes = nothing;
  m.size = sizeof nothing;
  for (i = 0; i < NUM_TABLES; i++) {
    const table *t = &tables[i];
    union {
      uint8_t b[128];
      double align;
    } o;
    int ok = 1;
    memset(o.b, 0x5A, sizeof o.b);
    t->read(&m, 0, o.b);
    for (k = 0; k < num_fields(t); k++)
      ok = ok && field_is(&m, o.b, &t->fields[k], 0);
    if (!ok)
      fprintf(stderr, "%s: defaults differ\n", t->name);
    CHECK(ok);
  }
}

/* ---- what the converter wrote: the conformance cases ------------------- */
/* A tiny reader of the "params" object of a case.json (json.dump output:
 * no braces inside strings, keys unique within params). */
static const char *params_value(const char *json, const char *key) {
  const char *p = strstr(json, "\"params\":"), *q, *end;
  char pat[64];
  int depth = 0;
  if (!p || !(p = strchr(p, '{')))
    return NULL;
  for (end = p; *end; end++) {
    if (*end == '{')
      depth++;
    else if (*end == '}' && --depth == 0)
      break;
  }
  snprintf(pat, sizeof pat, "\"%s\":", key);
  q = strstr(p, pat);
  if (!q || q > end)
    return NULL;
  q += strlen(pat);
  while (*q == ' ' || *q == '\n')
    q++;
  return q;
}
static int has(const char *json, const char *key) {
  const char *v = params_value(json, key);
  return v && strncmp(v, "null", 4) != 0;
}
static int32_t int_of(const char *json, const char *key) {
  const char *v = params_value(json, key);
  if (v && strncmp(v, "true", 4) == 0)
    return 1;
  return v ? (int32_t)strtol(v, NULL, 10) : -12345;
}
static float float_of(const char *json, const char *key) {
  const char *v = params_value(json, key);
  return v ? (float)strtod(v, NULL) : -12345.0f;
}
/* The integers of an array value; returns how many (-1: not an array). */
static int ints_of(const char *json, const char *key, int32_t *out, int max) {
  const char *v = params_value(json, key);
  char *e;
  int n = 0;
  if (!v || *v != '[')
    return -1;
  v++;
  for (;;) {
    while (*v == ' ' || *v == '\n' || *v == ',')
      v++;
    if (*v == ']' || n == max)
      return n;
    out[n++] = (int32_t)strtol(v, &e, 10);
    if (e == v)
      return -1;
    v = e;
  }
}
/* The index of a string value in names[] (-1: absent or none matches). */
static int enum_of(const char *json, const char *key, const char *const *names,
                   int n) {
  const char *v = params_value(json, key);
  int i;
  if (!v || *v != '"')
    return -1;
  for (i = 0; i < n; i++)
    if (strncmp(v + 1, names[i], strlen(names[i])) == 0 &&
        v[1 + strlen(names[i])] == '"')
      return i;
  return -1;
}
static const char *const paddings[] = {"SAME", "VALID"};
static const char *const activations[] = {"NONE",  "RELU", "RELU_N1_TO_1",
                                          "RELU6", "TANH", "SIGN_BIT"};
static int32_t padding_of(const char *json) {
  return enum_of(json, "padding", paddings, 2);
}
static int32_t activation_of(const char *json, const char *key) {
  return enum_of(json, key, activations, 6);
}

static char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  char *b = NULL;
  long n;
  if (!f)
    return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
      fseek(f, 0, SEEK_SET) == 0 && (b = (char *)malloc((size_t)n + 1)) &&
      fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  if (b) {
    b[n] = 0;
    *size = (size_t)n;
  }
  fclose(f);
  return b;
}

/* The options table of the first operator `code` in any subgraph, or 0. */
static uint32_t find_op(const tflc_model *m, int32_t code, int nth) {
  tflc__fb fb = tflc__mfb(m);
  int32_t sg, i;
  for (sg = 0; sg < m->num_subgraphs; sg++) {
    uint32_t sgt = tflc__subgraph(m, sg), ot;
    for (i = 0; (ot = tflc__op_table(m, sgt, i)) != 0; i++)
      if (tflc__opcode(m, tflc__get_u32(fb, ot, TFLC__OP_OPCODE, 0)) == code &&
          nth-- == 0)
        return tflc__get_ref(fb, ot, TFLC__OP_OPTS);
  }
  return 0;
}

static int cases_checked;

#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond))                                                               \
      fprintf(stderr, "%s: %s\n", dir, #cond);                                 \
    CHECK(cond);                                                               \
  } while (0)

/* Checks the options of the case in dir (operator `op`) against its
 * case.json. */
static void check_case(const char *op, const char *dir, const char *json,
                       const tflc_model *m) {
  int32_t v[8];
  int n;
  if (!strcmp(op, "CONV_2D") || !strcmp(op, "DEPTHWISE_CONV_2D")) {
    int32_t pad, sw, sh, dw, dh, act;
    if (!strcmp(op, "CONV_2D")) {
      tflc__conv2d_options o;
      tflc__read_conv2d_options(m, find_op(m, TFLC_OP_CONV_2D, 0), &o);
      pad = o.padding, sw = o.stride_w, sh = o.stride_h;
      dw = o.dilation_w_factor, dh = o.dilation_h_factor;
      act = o.fused_activation_function;
      if (params_value(json, "bias_note") &&
          strstr(params_value(json, "bias_note"), "quantized_bias_type INT32"))
        EXPECT(o.quantized_bias_type == TFLC_INT32);
    } else {
      tflc__depthwise_conv2d_options o;
      tflc__read_depthwise_conv2d_options(
          m, find_op(m, TFLC_OP_DEPTHWISE_CONV_2D, 0), &o);
      pad = o.padding, sw = o.stride_w, sh = o.stride_h;
      dw = o.dilation_w_factor, dh = o.dilation_h_factor;
      act = o.fused_activation_function;
      EXPECT(o.depth_multiplier == int_of(json, "depth_multiplier"));
    }
    EXPECT(pad == padding_of(json));
    EXPECT(act == activation_of(json, "fused_activation"));
    n = ints_of(json, "stride", v, 2);
    EXPECT(n == 2 && sh == v[0] && sw == v[1]);
    n = ints_of(json, "dilation", v, 2);
    EXPECT(n == 2 && dh == v[0] && dw == v[1]);
  } else if (!strcmp(op, "AVERAGE_POOL_2D") || !strcmp(op, "MAX_POOL_2D") ||
             !strcmp(op, "L2_POOL_2D")) {
    tflc__pool2d_options o;
    tflc__read_pool2d_options(
        m,
        find_op(m,
                !strcmp(op, "MAX_POOL_2D")  ? TFLC_OP_MAX_POOL_2D
                : !strcmp(op, "L2_POOL_2D") ? TFLC_OP_L2_POOL_2D
                                            : TFLC_OP_AVERAGE_POOL_2D,
                0),
        &o);
    EXPECT(o.padding == padding_of(json));
    EXPECT(o.fused_activation_function ==
           activation_of(json, "fused_activation"));
    n = ints_of(json, "stride", v, 2);
    EXPECT(n == 2 && o.stride_h == v[0] && o.stride_w == v[1]);
    n = ints_of(json, "filter", v, 2);
    EXPECT(n == 2 && o.filter_height == v[0] && o.filter_width == v[1]);
  } else if (!strcmp(op, "FULLY_CONNECTED")) {
    tflc__fully_connected_options o;
    tflc__read_fully_connected_options(
        m, find_op(m, TFLC_OP_FULLY_CONNECTED, 0), &o);
    EXPECT(o.fused_activation_function ==
           activation_of(json, "fused_activation"));
    EXPECT(o.weights_format == 0);
    if (has(json, "keep_num_dims"))
      EXPECT(o.keep_num_dims == int_of(json, "keep_num_dims"));
  } else if (!strcmp(op, "TRANSPOSE_CONV")) {
    tflc__transpose_conv_options o;
    tflc__read_transpose_conv_options(m, find_op(m, TFLC_OP_TRANSPOSE_CONV, 0),
                                      &o);
    EXPECT(o.padding == padding_of(json));
    if (has(json, "fused_activation"))
      EXPECT(o.fused_activation_function ==
             activation_of(json, "fused_activation"));
    n = ints_of(json, "stride", v, 2);
    EXPECT(n == 2 && o.stride_h == v[0] && o.stride_w == v[1]);
  } else if (!strcmp(op, "SVDF")) {
    tflc__svdf_options o;
    tflc__read_svdf_options(m, find_op(m, TFLC_OP_SVDF, 0), &o);
    EXPECT(o.rank == int_of(json, "rank"));
    if (has(json, "fused_activation"))
      EXPECT(o.fused_activation_function ==
             activation_of(json, "fused_activation"));
  } else if (!strcmp(op, "UNIDIRECTIONAL_SEQUENCE_LSTM")) {
    tflc__sequence_lstm_options o;
    tflc__read_sequence_lstm_options(
        m, find_op(m, TFLC_OP_UNIDIRECTIONAL_SEQUENCE_LSTM, 0), &o);
    EXPECT(o.fused_activation_function == activation_of(json, "activation"));
    EXPECT(o.time_major == int_of(json, "time_major"));
    EXPECT(o.cell_clip == float_of(json, "cell_clip"));
  } else if (!strcmp(op, "ADD") || !strcmp(op, "SUB")) {
    tflc__add_sub_options o;
    tflc__read_add_sub_options(
        m, find_op(m, !strcmp(op, "ADD") ? TFLC_OP_ADD : TFLC_OP_SUB, 0), &o);
    EXPECT(o.fused_activation_function ==
           activation_of(json, "fused_activation"));
  } else if (!strcmp(op, "MUL") || !strcmp(op, "DIV")) {
    tflc__activation_only_options o;
    tflc__read_activation_only_options(
        m, find_op(m, !strcmp(op, "MUL") ? TFLC_OP_MUL : TFLC_OP_DIV, 0), &o);
    EXPECT(o.fused_activation_function ==
           activation_of(json, "fused_activation"));
  } else if (!strcmp(op, "CONCATENATION")) {
    tflc__concatenation_options o;
    tflc__read_concatenation_options(m, find_op(m, TFLC_OP_CONCATENATION, 0),
                                     &o);
    EXPECT(o.axis == int_of(json, "axis"));
    EXPECT(o.fused_activation_function == 0);
  } else if (!strcmp(op, "PACK")) {
    tflc__pack_options o;
    tflc__read_pack_options(m, find_op(m, TFLC_OP_PACK, 0), &o);
    EXPECT(o.axis == int_of(json, "axis"));
    EXPECT(o.values_count ==
           int_of(json, has(json, "n") ? "n" : "values_count"));
  } else if (!strcmp(op, "UNPACK")) {
    tflc__unpack_options o;
    tflc__read_unpack_options(m, find_op(m, TFLC_OP_UNPACK, 0), &o);
    EXPECT(o.axis == int_of(json, "axis"));
    if (has(json, "num"))
      EXPECT(o.num == int_of(json, "num"));
  } else if (!strcmp(op, "GATHER")) {
    tflc__gather_options o;
    tflc__read_gather_options(m, find_op(m, TFLC_OP_GATHER, 0), &o);
    EXPECT(o.axis == int_of(json, "axis"));
    EXPECT(o.batch_dims == int_of(json, "batch_dims"));
  } else if (!strcmp(op, "SOFTMAX")) {
    tflc__softmax_options o;
    tflc__read_softmax_options(m, find_op(m, TFLC_OP_SOFTMAX, 0), &o);
    EXPECT(o.beta == float_of(json, "beta"));
  } else if (!strcmp(op, "LEAKY_RELU")) {
    tflc__leaky_relu_options o;
    tflc__read_leaky_relu_options(m, find_op(m, TFLC_OP_LEAKY_RELU, 0), &o);
    EXPECT(o.alpha == float_of(json, "alpha"));
  } else if (!strcmp(op, "SPACE_TO_DEPTH") || !strcmp(op, "DEPTH_TO_SPACE")) {
    tflc__space_depth_options o;
    tflc__read_space_depth_options(m,
                                   find_op(m,
                                           !strcmp(op, "SPACE_TO_DEPTH")
                                               ? TFLC_OP_SPACE_TO_DEPTH
                                               : TFLC_OP_DEPTH_TO_SPACE,
                                           0),
                                   &o);
    EXPECT(o.block_size == int_of(json, "block_size"));
  } else if (!strcmp(op, "RESIZE_BILINEAR") ||
             !strcmp(op, "RESIZE_NEAREST_NEIGHBOR")) {
    tflc__resize_options o;
    if (!strcmp(op, "RESIZE_BILINEAR"))
      tflc__read_resize_bilinear_options(
          m, find_op(m, TFLC_OP_RESIZE_BILINEAR, 0), &o);
    else
      tflc__read_resize_nearest_neighbor_options(
          m, find_op(m, TFLC_OP_RESIZE_NEAREST_NEIGHBOR, 0), &o);
    EXPECT(o.align_corners == int_of(json, "align_corners"));
    EXPECT(o.half_pixel_centers == int_of(json, "half_pixel_centers"));
  } else if (!strcmp(op, "SQUEEZE")) {
    tflc__squeeze_options o;
    int k, same;
    tflc__read_squeeze_options(m, find_op(m, TFLC_OP_SQUEEZE, 0), &o);
    n = ints_of(json, "squeeze_dims", v, 8);
    same = n >= 0 && o.num_squeeze_dims == (uint32_t)n;
    for (k = 0; same && k < n; k++)
      same = tflc__i32(m->bytes + o.squeeze_dims + 4 * (uint32_t)k) == v[k];
    EXPECT(same);
  } else if (!strcmp(op, "STRIDED_SLICE")) {
    tflc__strided_slice_options o;
    tflc__read_strided_slice_options(m, find_op(m, TFLC_OP_STRIDED_SLICE, 0),
                                     &o);
    EXPECT(o.begin_mask == int_of(json, "begin_mask"));
    EXPECT(o.end_mask == int_of(json, "end_mask"));
    EXPECT(o.shrink_axis_mask == int_of(json, "shrink_axis_mask"));
    EXPECT(o.ellipsis_mask == 0 && o.new_axis_mask == 0);
  } else if (!strcmp(op, "CUMSUM")) {
    tflc__cumsum_options o;
    tflc__read_cumsum_options(m, find_op(m, TFLC_OP_CUMSUM, 0), &o);
    EXPECT(o.exclusive == int_of(json, "exclusive"));
    EXPECT(o.reverse == int_of(json, "reverse"));
  } else if (!strcmp(op, "BATCH_MATMUL")) {
    tflc__batch_matmul_options o;
    tflc__read_batch_matmul_options(m, find_op(m, TFLC_OP_BATCH_MATMUL, 0), &o);
    EXPECT(o.adj_x == int_of(json, "adj_x"));
    EXPECT(o.adj_y == int_of(json, "adj_y"));
  } else if (!strcmp(op, "MIRROR_PAD")) {
    static const char *const modes[] = {"REFLECT", "SYMMETRIC"};
    tflc__mirror_pad_options o;
    tflc__read_mirror_pad_options(m, find_op(m, TFLC_OP_MIRROR_PAD, 0), &o);
    EXPECT(o.mode == enum_of(json, "mode", modes, 2));
  } else if (!strcmp(op, "RESOURCE_VARIABLE")) {
    /* the cases naming their variable: "subgraph 0: CALL_ONCE(init=1),
     * VAR_HANDLE(state), ..." */
    const char *name = params_value(json, "shared_name");
    tflc__var_handle_options o;
    tflc__call_once_options co;
    if (!name || !strstr(json, "CALL_ONCE(init=1)"))
      return;
    tflc__read_var_handle_options(m, find_op(m, TFLC_OP_VAR_HANDLE, 0), &o);
    EXPECT(o.shared_name && name[0] == '"' &&
           strncmp(name + 1, o.shared_name, o.shared_name_len) == 0 &&
           name[1 + o.shared_name_len] == '"');
    EXPECT(o.container_len == 0);
    tflc__read_call_once_options(m, find_op(m, TFLC_OP_CALL_ONCE, 0), &co);
    EXPECT(co.init_subgraph_index == 1);
  } else {
    return;
  }
  cases_checked++;
}

static void test_conformance_cases(void) {
  static const char *const ops[] = {"CONV_2D",
                                    "DEPTHWISE_CONV_2D",
                                    "AVERAGE_POOL_2D",
                                    "MAX_POOL_2D",
                                    "L2_POOL_2D",
                                    "FULLY_CONNECTED",
                                    "TRANSPOSE_CONV",
                                    "SVDF",
                                    "UNIDIRECTIONAL_SEQUENCE_LSTM",
                                    "ADD",
                                    "SUB",
                                    "MUL",
                                    "DIV",
                                    "CONCATENATION",
                                    "PACK",
                                    "UNPACK",
                                    "GATHER",
                                    "SOFTMAX",
                                    "LEAKY_RELU",
                                    "SPACE_TO_DEPTH",
                                    "DEPTH_TO_SPACE",
                                    "RESIZE_BILINEAR",
                                    "RESIZE_NEAREST_NEIGHBOR",
                                    "SQUEEZE",
                                    "STRIDED_SLICE",
                                    "CUMSUM",
                                    "BATCH_MATMUL",
                                    "MIRROR_PAD",
                                    "RESOURCE_VARIABLE"};
  static const char *const sets[] = {"ops", "ops2"};
  const char *shared = getenv("SHARED");
  char path[1024];
  size_t i, s;
  if (!shared)
    shared = "../shared";
  for (s = 0; s < 2; s++)
    for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
      DIR *d;
      struct dirent *e;
      snprintf(path, sizeof path, "%s/conformance/%s/%s", shared, sets[s],
               ops[i]);
      d = opendir(path);
      if (!d)
        continue;
      while ((e = readdir(d)) != NULL) {
        char dir[1300], file[1400];
        size_t jn = 0, mn = 0;
        char *json, *model;
        tflc_model m;
        if (e->d_name[0] == '.')
          continue;
        snprintf(dir, sizeof dir, "%s/%s", path, e->d_name);
        snprintf(file, sizeof file, "%s/case.json", dir);
        json = read_file(file, &jn);
        snprintf(file, sizeof file, "%s/model.tflite", dir);
        model = read_file(file, &mn);
        /* (models this build refuses, e.g. int4 weights, are skipped) */
        if (json && model &&
            tflc_model_init(&m, (const uint8_t *)model, mn) == TFLC_OK)
          check_case(ops[i], dir, json, &m);
        free(json);
        free(model);
      }
      closedir(d);
    }
  if (cases_checked == 0)
    printf("(%s/conformance not found: converter cases skipped)\n", shared);
  else
    printf("(%d conformance cases' options compared with case.json)\n",
           cases_checked);
}

int main(void) {
  RUN(test_each_field_alone);
  RUN(test_no_table_is_defaults);
  RUN(test_conformance_cases);
  return harness_report();
}

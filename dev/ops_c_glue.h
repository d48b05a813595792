/* Extension fragment c: operator glue (prepare/run) for tflc.h. Pasted
 * into tflc.h's op table section when it stabilises. */
static int tflc__ext_c_tiled(int32_t code, int32_t k) {
  (void)code;
  (void)k;
  return 0;
}
static int tflc__ext_c_prepare(tflc__ctx *c, tflc_status *st) {
  (void)c;
  (void)st;
  return 0;
}
static tflc_status tflc__ext_c_run(tflc__ctx *c) {
  (void)c;
  return TFLC_ERR_UNSUPPORTED;
}

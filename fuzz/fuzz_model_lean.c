/* fuzz/fuzz_model_lean.c - fuzz_model.c on the lean firmware build the
 * flash figures of docs/measured.md are measured with: person_detect's
 * operators (TFLC_OPS) and everything a plain model does not need left out
 * (TFLC_NO_COMPRESSION, TFLC_NO_SUBGRAPHS, TFLC_NO_DELEGATES,
 * TFLC_NO_USER_OPS). Any bytes: refused or run, never a crash. Seeded
 * with fuzz_model's corpus. */
#define TFLC_OPS(X)                                                            \
  X(AVERAGE_POOL_2D) X(CONV_2D) X(DEPTHWISE_CONV_2D) X(RESHAPE) X(SOFTMAX)
#define TFLC_NO_COMPRESSION
#define TFLC_NO_SUBGRAPHS
#define TFLC_NO_DELEGATES
#define TFLC_NO_USER_OPS
#include "fuzz_model.c"

/* fuzz/fuzz_kernels_wide.c - fuzz_kernels' case 8 on the host: the kernels
 * compiled again (static, this file's own copy) with TFLC_CONV_WIDE_TEST
 * over the Arm DSP's GEMM (TFLC_DSP_EMULATE), so that CONV_2D takes the
 * Arm DSP's convolution paths: the widened windows of few-channel filters
 * (tflc__conv2d_s8_im2col_dsp, its C form), the gathered pixels of
 * strided 1x1 convolutions (tflc__conv2d_s8_gather) and the border runs
 * with the input offset in their biases (tflc__conv2d_s8_border), while
 * fuzz_kernels.c's own copy keeps the host's. Linked into fuzz_kernels
 * (fuzz/fuzz.mk); fuzz_kernels.c's fuzz_conv_few against the direct path,
 * through fuzz_conv_wide. */
#define FUZZ_CONV_WIDE
#include "fuzz_kernels.c"

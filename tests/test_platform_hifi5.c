/* tests/test_platform_hifi5.c - tests/test_platform_hifi.c over the HiFi 5
 * code of the Xtensa HiFi section (XCHAL_HAVE_HIFI5: GEMM runs of eight
 * values through AE_L8X8_IP and AE_MULA8Q8X8, then the HiFi 4 code), every
 * check the same, and the HiFi 5 runs required to run. */
#define XCHAL_HAVE_HIFI5 1
#include "test_platform_hifi.c"

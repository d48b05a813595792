/* The whole tflc library as one translation unit, for build systems that
 * want a .c file (CMake, ESP-IDF, Zephyr, PlatformIO, Arduino all compile
 * this one): elsewhere include "tflc.h" without TFLC_IMPLEMENTATION. */
#define TFLC_IMPLEMENTATION
#include "tflc.h"

/* The whole library as one translation unit, for build systems that want
 * a .c file: compile this and include tflc.h elsewhere without the macro. */
#define TFLC_IMPLEMENTATION
#include "../tflc.h"

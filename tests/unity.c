/* Unity (amalgamated) build: both headers static, next to user code that
 * defines its own helpers with common names. */
#define TFLC_STATIC
#define TFLC_IMPLEMENTATION
#include "../tflc.h"

static int count(int x) {
  return x + 1;
} /* names tflc must not collide with */
static int plan(int x) {
  return x * 2;
}

int main(void) {
  tflc_model m;
  return (tflc_model_init(&m, "", 0) == TFLC_ERR_TRUNCATED) + count(0) +
                     plan(0) ==
                 2
             ? 0
             : 1;
}

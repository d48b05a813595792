#!/usr/bin/env bash
# The quick start in tflc_kernels.h's opening comment compiles as C99 and
# as C++ and runs; README's classify() example (init once, invoke many)
# compiles, initialises once, and gives the tool's output for a demo model
# on every call.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
CC=${CC:-gcc}
WARN="-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror"
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL quickstart: $*"; }
skipped() {
  if [ "${TFLC_REQUIRE_ALL:-0}" = 1 ]; then bad "$* (TFLC_REQUIRE_ALL=1)"; else skip=$((skip + 1)); echo "SKIP quickstart: $*"; fi
}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# the comment lines between "Quick start" and "Configuration macros",
# without their " *   " margin
sed -n '/^ \* Quick start/,/^ \* Configuration macros/p' "$here/tflc_kernels.h" |
  sed '1,2d;$d' | sed 's/^ \*   \{0,1\}//; s/^ \*$//' >"$t/qs.c"
grep -q 'tflc_conv2d_s8' "$t/qs.c" && ok || bad "no quick start found"
cat >"$t/main.c" <<'C'
#include <stdint.h>
#include <stdio.h>
void conv_example(const int8_t *in, int8_t *out, const int8_t *weights,
                  const int32_t *bias, const float *w_scales, float in_scale,
                  int32_t in_zp, float out_scale, int32_t out_zp);
int main(void) {
  static int8_t in[8 * 8 * 4], out[6 * 6 * 8], w[8 * 3 * 3 * 4];
  static int32_t bias[8];
  static float ws[8];
  int i, sum = 0;
  for (i = 0; i < (int)sizeof in; i++) in[i] = (int8_t)(i % 7 - 3);
  for (i = 0; i < (int)sizeof w; i++) w[i] = (int8_t)(i % 5 - 2);
  for (i = 0; i < 8; i++) { bias[i] = 10 * i; ws[i] = 0.01f * (float)(i + 1); }
  conv_example(in, out, w, bias, ws, 0.05f, 1, 0.1f, -2);
  for (i = 0; i < (int)sizeof out; i++) sum += out[i];
  printf("%d\n", sum);
  return 0;
}
C
$CC -std=c99 $WARN -I"$here" -o "$t/qs" "$t/qs.c" "$t/main.c" -lm 2>"$t/err" && "$t/qs" >"$t/c.out" && ok || bad "as C99: $(head -n 5 "$t/err")"
if command -v g++ >/dev/null; then
  g++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Wshadow -Werror -I"$here" -o "$t/qsxx" "$t/qs.c" "$t/main.c" -lm 2>"$t/err" && "$t/qsxx" >"$t/cxx.out" && ok || bad "as C++: $(head -n 5 "$t/err")"
  cmp -s "$t/c.out" "$t/cxx.out" && ok || bad "C and C++ builds differ"
else
  skipped "quick start as C++ (g++ not installed)"
fi
# README's quick start: init once, classify many times
sed -n '/^## Quick start (C)/,/^## /p' "$here/README.md" | sed -n '/^```c$/,/^```$/p' | sed '1d;$d' >"$t/readme.c"
grep -q 'classifier_init' "$t/readme.c" && ok || bad "no quick start in README.md"
cat >"$t/readme_main.c" <<'C'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int classifier_init(const uint8_t *model_bytes, size_t model_size);
int classify(const int8_t *features, int8_t *scores);
int main(int argc, char **argv) {
  static uint8_t model[1 << 20] __attribute__((aligned(16)));
  static int8_t in[1960], a[12], b[12];
  FILE *f = fopen(argv[1], "rb");
  size_t n = f ? fread(model, 1, sizeof model, f) : 0;
  f = argc > 2 ? fopen(argv[2], "rb") : NULL;
  if (!f || fread(in, 1, sizeof in, f) != sizeof in) return 2;
  if (classifier_init(model, n) != 0) return 3;
  if (classify(in, a) != 0 || classify(in, b) != 0) return 4;
  if (memcmp(a, b, sizeof a) != 0) return 5; /* same input, same scores */
  fwrite(a, 1, sizeof a, stdout);
  return 0;
}
C
model=$here/build/demo_plain.tflite
[ -f "$model" ] || (cd "$here" && { [ -f build/demo ] || make -s build/demo >/dev/null; } && ./build/demo >/dev/null)
head -c 1960 /dev/urandom >"$t/in.bin"
if $CC -std=c99 -Wall -Wextra -Werror -I"$here" -o "$t/readme" "$t/readme.c" "$t/readme_main.c" -lm 2>"$t/err" &&
  "$t/readme" "$model" "$t/in.bin" >"$t/scores.bin"; then
  ok
  if [ -x "$here/${TFLC:-build/tflc}" ] || [ -x "${TFLC:-build/tflc}" ]; then
    tool=${TFLC:-build/tflc}
    [ -x "$tool" ] || tool=$here/$tool
    "$tool" run "$model" --input "$t/in.bin" --out-dir "$t/o" >/dev/null &&
      cmp -s "$t/scores.bin" "$t/o/output_0.bin" && ok || bad "README classify() differs from tflc run"
  fi
else
  bad "README quick start: $(head -n 5 "$t/err")"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]

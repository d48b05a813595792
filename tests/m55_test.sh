#!/usr/bin/env bash
# tests/m55_test.sh - tflc on a Cortex-M55 with Helium/MVE (QEMU mps3-an547,
# ../shared/tools/cortex-m55-qemu):
#  - tests/test_platform.c built for the M55 at -O2 (the MVE primitives
#    against the portable ones byte for byte on random shapes and
#    parameters, the int8 kernels through them against naive references,
#    and the DSP and portable parts as on other cores), its
#    "N passed, N failed" line; and its kernel tests again with the GEMM
#    the library picks (TEST_LIBRARY_GEMM: the MVE-only convolution paths);
#  - person_detect, kws_ref_model, ad01_int8 and pretrainedResnet_quant
#    through examples/m4_bench.c (the MVE paths), their output bytes
#    against TFLM's.
# Needs arm-none-eabi-gcc, qemu-system-arm and the harness; skipped without
# them (a failure with TFLC_REQUIRE_ALL=1). `make test-m55` runs it alone.
set -u
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
H=$SHARED/tools/cortex-m55-qemu
C=$SHARED/conformance/models/person_detect/person
pass=0 fail=0
bad() { fail=$((fail + 1)); echo "FAIL m55: $*"; }
missing=""
command -v arm-none-eabi-gcc >/dev/null || missing="$missing arm-none-eabi-gcc"
command -v qemu-system-arm >/dev/null || missing="$missing qemu-system-arm"
[ -f "$H/Makefile" ] || missing="$missing $H"
[ -f "$C/model.tflite" ] || missing="$missing $C"
if [ -n "$missing" ]; then
  if [ "${TFLC_REQUIRE_ALL:-0}" = 1 ]; then
    echo "FAIL m55: missing:$missing"
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "SKIP m55: missing:$missing"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
out=build/tests/m55
mkdir -p "$out"
# the platform tests
rm -rf "$out/platform.obj" # the harness rules do not see header changes
# the MVE code warning-free (the harness's own files are not)
if ! arm-none-eabi-gcc -std=c99 -mcpu=cortex-m55 -mthumb -mfloat-abi=hard -O2 \
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror -I. -c tests/test_platform.c \
  -o "$out/platform_strict.o" >"$out/platform.log" 2>&1; then
  bad "test_platform.c: warnings for the M55 (see $out/platform.log)"
elif ! make -s -f "$H/Makefile" OUT="$out/platform" SRCS="tests/test_platform.c" \
  OPT=-O2 EXTRA_CFLAGS="-I. -I$H" LIBS=-lm >"$out/platform.log" 2>&1; then
  bad "test_platform.c does not build (see $out/platform.log)"
else
  res=$(timeout 900 "$H/run.sh" "$out/platform.elf" 2>&1)
  echo "$res" | grep -v '^[0-9]* passed' | sed 's/^/  /'
  line=$(echo "$res" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
  echo "M55 test_platform -O2: ${line:-no result}"
  p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
  f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
  if [ -z "$p" ]; then
    bad "test_platform.c: no result line"
  else
    pass=$((pass + p))
    fail=$((fail + f))
  fi
  # the MVE tests ran (the M55 build has MVE)
  echo "$res" | grep -q 'MVE primitives tested' || bad "the MVE tests did not run"
fi
# the int8 kernels again with the GEMM the library picks (a replaced GEMM,
# as above, turns the convolution driver's MVE-only paths off)
rm -rf "$out/platform_lib.obj"
if ! make -s -f "$H/Makefile" OUT="$out/platform_lib" SRCS="tests/test_platform.c" \
  OPT=-O2 EXTRA_CFLAGS="-I. -I$H -DTEST_LIBRARY_GEMM" LIBS=-lm >"$out/platform_lib.log" 2>&1; then
  bad "test_platform.c -DTEST_LIBRARY_GEMM does not build (see $out/platform_lib.log)"
else
  res=$(timeout 900 "$H/run.sh" "$out/platform_lib.elf" 2>&1)
  line=$(echo "$res" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
  echo "M55 test_platform -O2 -DTEST_LIBRARY_GEMM: ${line:-no result}"
  p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
  f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
  echo "$res" | grep -v '^[0-9]* passed' | grep -v 'tested$' | sed 's/^/  /'
  if [ -z "$p" ] || ! echo "$res" | grep -q "library's GEMM tested"; then
    bad "test_platform.c -DTEST_LIBRARY_GEMM: no result line"
  elif ! echo "$res" | grep -q "MVE convolution windows tested"; then
    bad "test_platform.c -DTEST_LIBRARY_GEMM: the MVE window convolutions did not run"
  else
    pass=$((pass + p))
    fail=$((fail + f))
  fi
fi
# models end to end through the MVE paths, output bytes against TFLM's:
# person_detect (GEMM, depthwise), kws_ref_model (the window GEMM of the
# small im2col convolution), ad01_int8 (fully connected), pretrainedResnet
# (the window pairs of its 3x3x3 convolution, the 48-value runs of its 3 x 3
# ones, element-wise ADD)
carray() { # name file
  printf 'const unsigned char %s[] __attribute__((aligned(16))) = {\n' "$1"
  od -An -v -tx1 "$2" | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'
  printf '};\nconst unsigned int %s_len = %s;\n' "$1" "$(stat -c %s "$2")"
}
M=$SHARED/conformance/external/mlperf_tiny
# and ad01_int8 once more with tests/platform_count.h replacing the GEMM:
# the fully connected layers then go through that GEMM, not the MVE kernel
user_gemm="'-DTFLC_PLATFORM_HEADER=\"tests/platform_count.h\"'"
for v in "person_detect:$C:" "kws_ref_model:$M/kws_ref_model/seed1:" \
  "ad01_int8:$M/ad01_int8/seed1:" "pretrainedResnet_quant:$M/pretrainedResnet_quant/seed1:" \
  "ad01_int8_user_gemm:$M/ad01_int8/seed1:$user_gemm"; do
  name=${v%%:*} rest=${v#*:}
  dir=${rest%%:*} flags=${rest#*:}
  if [ ! -f "$dir/model.tflite" ]; then
    echo "SKIP m55: $name (no $dir)"
    continue
  fi
  { carray m4_model "$dir/model.tflite"; carray m4_input "$dir/input_0.bin"
    carray m4_expect "$dir/output_0.bin"; } >"$out/${name}_data.c"
  rm -rf "$out/$name.obj"
  if ! make -s -f "$H/Makefile" OUT="$out/$name" SRCS="examples/m4_bench.c $out/${name}_data.c" \
    OPT=-O2 EXTRA_CFLAGS="-I. -I$H $flags" >"$out/$name.log" 2>&1; then
    bad "$name does not build (see $out/$name.log)"
    continue
  fi
  res=$(timeout 300 "$H/run.sh" "$out/$name.elf" 2>&1)
  if echo "$res" | grep -q 'identical to TFLM'; then
    pass=$((pass + 1))
    echo "ok $name: $(echo "$res" | grep '^invoke:')"
  else
    bad "$name: $(echo "$res" | tail -n 1)"
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

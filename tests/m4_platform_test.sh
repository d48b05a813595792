#!/usr/bin/env bash
# tests/m4_platform_test.sh - the platform tests on the Cortex-M4F harness (QEMU
# mps2-an386, ../shared/tools/cortex-m4-qemu): tests/test_platform.c built
# for the M4 with the real DSP instructions and the Thumb-2 assembly (no
# emulation), at -O2, -Os and -O2 -fno-omit-frame-pointer, each run in
# QEMU. Prints the test's own "N passed, N failed" line per build and a
# closing total line.
set -u
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
H=$SHARED/tools/cortex-m4-qemu
out=build/m4test
mkdir -p "$out"
pass=0 fail=0
# without the cross compiler, QEMU or the harness: skipped and counted (a
# failure with TFLC_REQUIRE_ALL=1, as CI sets)
missing=""
command -v arm-none-eabi-gcc >/dev/null || missing="$missing arm-none-eabi-gcc"
command -v qemu-system-arm >/dev/null || missing="$missing qemu-system-arm"
[ -d "$H" ] || missing="$missing $H"
if [ -n "$missing" ]; then
  if [ "${TFLC_REQUIRE_ALL:-0}" = 1 ]; then
    echo "FAIL m4_platform: missing:$missing"
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "SKIP m4_platform: missing:$missing"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
for opt in "-O2" "-Os" "-O2 -fno-omit-frame-pointer"; do
  name=$(echo "$opt" | tr -d ' -')
  rm -rf "$out/$name.obj"
  if ! make -s -f "$H/Makefile" OUT="$out/$name" SRCS="tests/test_platform.c" \
    OPT="$opt" EXTRA_CFLAGS="-I. -I$H" LIBS=-lm >"$out/$name.log" 2>&1; then
    echo "FAIL build $opt (see $out/$name.log)"
    fail=$((fail + 1))
    continue
  fi
  line=$(timeout 1200 "$H/run.sh" "$out/$name.elf" 2>&1 | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
  echo "M4 $opt: ${line:-no result}"
  p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
  f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
  if [ -z "$p" ]; then
    fail=$((fail + 1))
  else
    pass=$((pass + p))
    fail=$((fail + f))
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

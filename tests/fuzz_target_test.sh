#!/usr/bin/env bash
# tests/fuzz_target_test.sh - fuzz_kernels' checks on the Cortex-M targets
# (fuzz/target_run.c): the Arm DSP instructions and Thumb-2 assembly on the
# Cortex-M4F harness (QEMU mps2-an386) and Helium on the Cortex-M55 harness
# (QEMU mps3-an547), each against the portable versions over FUZZ_RUNS
# pseudo-random inputs (default 4000) from FUZZ_SEED (default fixed, so a
# failure reproduces; give another to explore). Built at -O2 with
# -Wall -Wextra -Werror. Prints each target's line and a closing total.
set -u
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
RUNS=${FUZZ_RUNS:-4000}
SEED=${FUZZ_SEED:-0x2545F491}
out=build/fuzz_target
mkdir -p "$out"
pass=0 fail=0
missing=""
command -v arm-none-eabi-gcc >/dev/null || missing="$missing arm-none-eabi-gcc"
command -v qemu-system-arm >/dev/null || missing="$missing qemu-system-arm"
for t in cortex-m4-qemu cortex-m55-qemu; do
  [ -d "$SHARED/tools/$t" ] || missing="$missing $SHARED/tools/$t"
done
if [ -n "$missing" ]; then
  if [ "${TFLC_REQUIRE_ALL:-0}" = 1 ]; then
    echo "FAIL fuzz_target: missing:$missing"
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "SKIP fuzz_target: missing:$missing"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
for t in m4 m55; do
  H=$SHARED/tools/cortex-$t-qemu
  rm -rf "$out/$t.obj"
  # the harness's own files are built with the same flags: -Werror checks
  # the program's object only (its log is kept)
  if ! make -s -f "$H/Makefile" OUT="$out/$t" SRCS="fuzz/target_run.c" OPT=-O2 \
    EXTRA_CFLAGS="-I. -I$H -Wextra -DFUZZ_RUNS=$RUNS -DFUZZ_SEED=$SEED" \
    LIBS=-lm >"$out/$t.log" 2>&1 || grep -q 'fuzz/.*warning' "$out/$t.log"; then
    echo "FAIL fuzz_target: build for $t (see $out/$t.log)"
    fail=$((fail + 1))
    continue
  fi
  res=$(timeout 900 "$H/run.sh" "$out/$t.elf" 2>&1)
  echo "$res" | grep -v 'passed, ' | sed "s/^/$t: /"
  line=$(echo "$res" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
  p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
  f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
  if [ -z "$p" ]; then
    echo "FAIL fuzz_target: $t gave no result"
    fail=$((fail + 1))
  else
    pass=$((pass + p))
    fail=$((fail + f))
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

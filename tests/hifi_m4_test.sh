#!/usr/bin/env bash
# tests/hifi_m4_test.sh - the emulated Xtensa HiFi tests on a 32-bit core:
# tests/test_platform_hifi.c (HiFi 4 code) and tests/test_platform_hifi5.c
# (HiFi 5 code) built for the Cortex-M4F harness (QEMU mps2-an386,
# ../shared/tools/cortex-m4-qemu) with arm-none-eabi-gcc -O2 and run there,
# as HiFi cores are 32-bit (pointers, long) where the host is 64-bit. Prints
# each test's own "N passed, N failed" line and a closing total line; a
# missing cross compiler or harness is a skip.
set -u
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
H=$SHARED/tools/cortex-m4-qemu
out=build/hifi_m4
mkdir -p "$out"
pass=0 fail=0
if ! command -v arm-none-eabi-gcc >/dev/null || [ ! -d "$H" ]; then
  echo "hifi_m4_test: arm-none-eabi-gcc or $H missing"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
for t in test_platform_hifi test_platform_hifi5; do
  rm -rf "$out/$t.obj"
  if ! make -s -f "$H/Makefile" OUT="$out/$t" SRCS="tests/$t.c" OPT="-O2" \
    EXTRA_CFLAGS="-I. -I$H" LIBS=-lm >"$out/$t.log" 2>&1; then
    echo "FAIL build $t (see $out/$t.log)"
    fail=$((fail + 1))
    continue
  fi
  line=$(timeout 600 "$H/run.sh" "$out/$t.elf" 2>&1 | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
  echo "M4 $t: ${line:-no result}"
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

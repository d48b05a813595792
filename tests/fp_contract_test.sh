#!/usr/bin/env bash
# Float kernels stay byte-exact whatever the build's flags, and the
# library compiles -Wcast-align clean. The
# implementation turns floating-point contraction off for itself, so no
# fused multiply-add appears even under -std=gnu99 / -ffp-contract=fast
# (gcc) or clang's default contraction, on x86 with FMA and on the
# Cortex-M4F (fpv4 has VFMA). Checks:
#   - no FMA instruction in tflc.c compiled by gcc (C and C++) with
#     -march=haswell -ffp-contract=fast, and by clang with -march=haswell
#     (its default -ffp-contract=on), and by arm-none-eabi-gcc -std=gnu99
#     for the Cortex-M4F
#   - the float-bearing conformance suites (ops, ops2, models) byte-exact
#     with the tool built -std=gnu11 -ffp-contract=fast -mfma (when the
#     CPU has FMA and ../shared is present)
#   - float cases byte-exact on the Cortex-M4 harness built -std=gnu99
#     -ffp-contract=fast (arm-none-eabi-gcc, qemu-system-arm, ../shared)
# Optional tools and ../shared missing: those checks are skipped, counted.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-../shared}
case $SHARED in /*) ;; *) SHARED=$here/$SHARED ;; esac
C=$SHARED/conformance
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL fp_contract: $*"; }
skipped() { skip=$((skip + 1)); echo "SKIP fp_contract: $*"; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$here" || exit 1
CC=${CC:-gcc}
fma_x86='vfn?m(add|sub)[0-9]'
count() { grep -cE "$1" "$2" || true; }
if [ "$(uname -m)" = x86_64 ]; then
  for lang in c c++; do
    if $CC -x $lang -O2 -march=haswell -ffp-contract=fast -S tflc.c -o "$t/x.s" 2>"$t/log"; then
      n=$(count "$fma_x86" "$t/x.s")
      [ "$n" = 0 ] && ok || bad "$CC -x $lang -march=haswell -ffp-contract=fast: $n FMA instructions in tflc.c"
    else
      bad "$CC -x $lang -S tflc.c: $(head -n 3 "$t/log")"
    fi
  done
  if command -v clang >/dev/null; then
    if clang -std=gnu99 -O2 -march=haswell -S tflc.c -o "$t/c.s" 2>"$t/log"; then
      n=$(count "$fma_x86" "$t/c.s")
      [ "$n" = 0 ] && ok || bad "clang -march=haswell: $n FMA instructions in tflc.c"
    else
      bad "clang -S tflc.c: $(head -n 3 "$t/log")"
    fi
  else
    skipped "clang not installed"
  fi
else
  skipped "x86 FMA checks (not an x86_64 host)"
fi
if command -v arm-none-eabi-gcc >/dev/null; then
  if arm-none-eabi-gcc -std=gnu99 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O2 \
    -S tflc.c -o "$t/m4.s" 2>"$t/log"; then
    n=$(count '\bvfn?m[as]' "$t/m4.s")
    [ "$n" = 0 ] && ok || bad "arm-none-eabi-gcc -std=gnu99 (Cortex-M4F): $n vfma/vfms in tflc.c"
  else
    bad "arm-none-eabi-gcc -S tflc.c: $(head -n 3 "$t/log")"
  fi
else
  skipped "Cortex-M4F assembly (arm-none-eabi-gcc not installed)"
fi
# -Wcast-align: clean where alignment is strict (Cortex-M4, M55) and with
# =strict on the host (every platform path the host compiles); a warning
# of the front end, so -fsyntax-only (the optimizing builds of the same
# configurations with -Werror: the build tests)
W="-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror"
for f in "" -DTFLC_DSP_EMULATE -DTFLC_HIFI_EMULATE -mavx2; do
  $CC -std=c99 -O2 $W -Wcast-align=strict -I. $f -fsyntax-only tflc.c 2>"$t/log" && ok || bad "-Wcast-align=strict $f: $(grep -m3 warning "$t/log")"
done
$CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 $W -Wcast-align=strict -fsyntax-only examples/tflc.c 2>"$t/log" && ok || bad "-Wcast-align=strict examples/tflc.c: $(grep -m3 warning "$t/log")"
if command -v arm-none-eabi-gcc >/dev/null; then
  for cpu in "cortex-m4 -mfpu=fpv4-sp-d16" cortex-m55; do
    arm-none-eabi-gcc -std=c99 -mcpu=$cpu -mthumb -mfloat-abi=hard -O2 $W -Wcast-align -fsyntax-only tflc.c 2>"$t/log" && ok || bad "arm-none-eabi-gcc -mcpu=$cpu -Wcast-align: $(grep -c warning "$t/log") warnings: $(grep -m3 warning "$t/log")"
  done
fi
# the conformance suites through a tool built with every contraction on
if [ ! -d "$C/ops" ]; then
  skipped "float conformance with FMA ($C not present; the optional ../shared suites)"
elif [ "$(uname -m)" != x86_64 ] || ! grep -qw fma /proc/cpuinfo 2>/dev/null; then
  skipped "float conformance with FMA (this CPU has no FMA)"
elif $CC -std=gnu11 -O2 -march=haswell -mfma -ffp-contract=fast -D_POSIX_C_SOURCE=200809L \
  -o "$t/tflc-fma" examples/tflc.c -lm 2>"$t/log"; then
  for s in ops ops2 models; do
    [ -d "$C/$s" ] || continue
    line=$(CONFORMANCE_BATCH=1 bash tests/conformance.sh "$t/tflc-fma" "$C/$s" 2>&1 | tail -n 1)
    printf '%s' "$line" | grep -Eq '^[0-9]+ passed, 0 failed' && ok || bad "$s with -ffp-contract=fast -mfma: $line"
  done
else
  bad "tool with -ffp-contract=fast -mfma: $(head -n 3 "$t/log")"
fi
# float cases on the Cortex-M4 harness, built -std=gnu99 -ffp-contract=fast
missing=""
command -v arm-none-eabi-gcc >/dev/null || missing="$missing arm-none-eabi-gcc"
command -v qemu-system-arm >/dev/null || missing="$missing qemu-system-arm"
[ -f "$SHARED/tools/cortex-m4-qemu/Makefile" ] || missing="$missing $SHARED/tools/cortex-m4-qemu"
[ -d "$C/models/hello_world_float" ] || missing="$missing $C"
if [ -n "$missing" ]; then
  skipped "float cases on the Cortex-M4 harness (missing:$missing)"
else
  res=$(SHARED=$SHARED M4_CFLAGS="-std=gnu99 -ffp-contract=fast" bash examples/m4_bench.sh \
    "$C/models/hello_world_float/seed1" \
    "$C/ops/CONV_2D/f32_1x8x8x3_o5_k3x3_s11_d11_same_relu" \
    "$C/ops/DEPTHWISE_CONV_2D/f32_1x8x8x3_m1_k3x3_s11_d11_same_relu" 2>&1)
  n=$(printf '%s\n' "$res" | grep -c ' identical$')
  [ "$n" = 3 ] && ok || bad "Cortex-M4 float cases with -std=gnu99 -ffp-contract=fast: $n of 3 identical
$res"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# tests/clang_arm_test.sh - tflc built by clang for Arm Cortex-M, run on the
# QEMU harnesses (../shared/tools/cortex-m4-qemu, cortex-m55-qemu):
#  - the implementation with clang (C99) and clang++ (C++17) for the M4 and
#    the M55, -O2, -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror
#    (-fsyntax-only: clang's warnings come from its front end; the builds
#    below generate and assemble the code);
#  - tests/test_platform.c built by clang at -O2 (the DSP path on the M4
#    with its Thumb-2 assembly blocks, checked to be in the program; the
#    MVE path on the M55) and run, each path against portable C byte for
#    byte;
#  - person_detect through examples/m4_bench.c built by clang on the M4
#    with its default flags, its output bytes against TFLM's (and the
#    instructions of one invoke, for docs/measured.md);
#  - the ratio clang / gcc of person_detect's instructions per invoke on
#    the M4 and the M55, both builds through examples/m4_bench.sh
#    (M4_CC=clang for clang: README's flags), each checked against TFLM's
#    bytes, and the ratio against the target of 1.10.
# The harness's own files are built by arm-none-eabi-gcc and linked by it
# (newlib). Needs clang, arm-none-eabi-gcc, qemu-system-arm and the
# harnesses; skipped without them (a failure with TFLC_REQUIRE_ALL=1).
set -u
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
C=$SHARED/conformance/models/person_detect/person
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL clang_arm: $*"; }
missing=""
command -v clang >/dev/null || missing="$missing clang"
command -v clang++ >/dev/null || missing="$missing clang++"
command -v arm-none-eabi-gcc >/dev/null || missing="$missing arm-none-eabi-gcc"
command -v qemu-system-arm >/dev/null || missing="$missing qemu-system-arm"
[ -f "$SHARED/tools/cortex-m4-qemu/Makefile" ] || missing="$missing $SHARED/tools/cortex-m4-qemu"
[ -f "$C/model.tflite" ] || missing="$missing $C"
if [ -n "$missing" ]; then
  if [ "${TFLC_REQUIRE_ALL:-0}" = 1 ]; then
    echo "FAIL clang_arm: missing:$missing"
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "SKIP clang_arm: missing:$missing"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
out=build/tests/clang_arm
rm -rf "$out"
mkdir -p "$out"
# newlib's headers, where the cross compiler finds its libc
newlib=$(dirname "$(arm-none-eabi-gcc -print-file-name=libc.a)")/../include
[ -f "$newlib/math.h" ] || newlib=/usr/lib/arm-none-eabi/include
WARN="-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror"
printf '#define TFLC_IMPLEMENTATION\n#include "tflc.h"\n' >"$out/impl.c"
# build target harness-dir arch flags, then sources: objects in $out/target
link() { # target harness ldscript arch... -- clang-sources...
  local target=$1 h=$2 ld=$3
  shift 3
  local arch=()
  while [ "$1" != -- ]; do
    arch+=("$1")
    shift
  done
  shift
  local objs=() s o
  mkdir -p "$out/$target"
  for s in "$@"; do
    o=$out/$target/$(basename "${s%.c}").o
    clang --target=arm-none-eabi "${arch[@]}" -fshort-enums -O2 -std=c11 \
      -ffunction-sections -fdata-sections -isystem "$newlib" -I. -I"$h" \
      -c "$s" -o "$o" >>"$out/$target.log" 2>&1 || return 1
    objs+=("$o")
  done
  for s in startup semihost icount; do
    arm-none-eabi-gcc "${arch[@]}" -O2 -ffunction-sections -fdata-sections \
      -I"$h" -c "$h/$s.c" -o "$out/$target/h_$s.o" >>"$out/$target.log" 2>&1 || return 1
    objs+=("$out/$target/h_$s.o")
  done
  arm-none-eabi-gcc "${arch[@]}" -T "$h/$ld" -nostartfiles --specs=nano.specs \
    -Wl,--gc-sections -o "$out/$target.elf" "${objs[@]}" -lm >>"$out/$target.log" 2>&1
}
result() { # name output: the test's own "N passed, N failed" line
  local line p f
  line=$(echo "$2" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
  echo "$1: ${line:-no result}"
  p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
  f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
  if [ -z "$p" ]; then
    bad "$1: no result line"
  else
    pass=$((pass + p))
    fail=$((fail + f))
  fi
}
M4="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16"
M55="-mcpu=cortex-m55 -mthumb -mfloat-abi=hard"
for v in "m4:$M4" "m55:$M55"; do
  name=${v%%:*} arch=${v#*:}
  # shellcheck disable=SC2086 # arch is a list of flags
  clang --target=arm-none-eabi $arch -O2 -std=c99 $WARN -isystem "$newlib" -I. \
    -fsyntax-only "$out/impl.c" >"$out/impl_$name.log" 2>&1 &&
    ok || bad "clang C99 $name: $(grep -m1 error "$out/impl_$name.log")"
  # shellcheck disable=SC2086
  clang++ --target=arm-none-eabi $arch -O2 -std=c++17 -x c++ $WARN -isystem "$newlib" \
    -I. -fsyntax-only "$out/impl.c" >"$out/impl_${name}_cxx.log" 2>&1 &&
    ok || bad "clang++ C++17 $name: $(grep -m1 error "$out/impl_${name}_cxx.log")"
done
# the platform tests on the M4 (ACLE DSP path) and the M55 (MVE path)
H4=$SHARED/tools/cortex-m4-qemu H55=$SHARED/tools/cortex-m55-qemu
# shellcheck disable=SC2086
if link m4 "$H4" mps2_an386.ld $M4 -- tests/test_platform.c; then
  result "clang M4 test_platform -O2" "$(timeout 1200 "$H4/run.sh" "$out/m4.elf" 2>&1)"
  # the Thumb-2 assembly blocks are what clang built and the tests ran
  asm_missing=""
  for f in tflc__dsp_dot2x2_asm tflc__dsp_dot2x2_stride_asm tflc__dsp_dot1x4_asm \
    tflc__dsp_pairs_asm tflc__dsp_pw_sat_asm tflc__dsp_pw_wide_asm \
    tflc__dsp_blocks_sat_asm tflc__dsp_row_groups_asm; do
    arm-none-eabi-nm "$out/m4.elf" | grep -q " $f\$" || asm_missing="$asm_missing $f"
  done
  [ -z "$asm_missing" ] && ok || bad "clang M4 test_platform without the assembly blocks:$asm_missing"
else
  bad "test_platform.c for the M4 does not build (see $out/m4.log)"
fi
if [ -f "$H55/Makefile" ]; then
  # shellcheck disable=SC2086
  if link m55 "$H55" mps3_an547.ld $M55 -- tests/test_platform.c; then
    res=$(timeout 1200 "$H55/run.sh" "$out/m55.elf" 2>&1)
    result "clang M55 test_platform -O2" "$res"
    echo "$res" | grep -q 'MVE primitives tested' && ok || bad "the MVE tests did not run"
  else
    bad "test_platform.c for the M55 does not build (see $out/m55.log)"
  fi
fi
# person_detect end to end, clang on the M4
carray() { # name file
  printf 'const unsigned char %s[] __attribute__((aligned(16))) = {\n' "$1"
  od -An -v -tx1 "$2" | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'
  printf '};\nconst unsigned int %s_len = %s;\n' "$1" "$(stat -c %s "$2")"
}
{ carray m4_model "$C/model.tflite"; carray m4_input "$C/input_0.bin"
  carray m4_expect "$C/output_0.bin"; } >"$out/pd_data.c"
# (default flags: clang's bare-metal Arm targets assume no unaligned word
# loads unless told, gcc's v7E-M ones do; -munaligned-access, README's
# flag, is the clang build of the ratio below)
for v in "pd:"; do
  name=${v%%:*} extra=${v#*:}
  # shellcheck disable=SC2086
  if link "$name" "$H4" mps2_an386.ld $M4 $extra -- examples/m4_bench.c "$out/pd_data.c"; then
    res=$(timeout 300 "$H4/run.sh" "$out/$name.elf" 2>&1)
    if echo "$res" | grep -q 'identical to TFLM'; then
      ok
      echo "ok clang person_detect on the M4 ${extra:-(default flags)}: $(echo "$res" | grep '^invoke:')"
    else
      bad "clang person_detect on the M4 $extra: $(echo "$res" | tail -n 1)"
    fi
  else
    bad "person_detect for the M4 $extra does not build (see $out/$name.log)"
  fi
done
# person_detect, clang against gcc on the M4 and the M55 (the same bench
# program, harness and protocol; gcc's figure measured here too)
bench_insns() { # target out-dir [M4_CC=clang]: instructions, empty on failure
  env SHARED="$SHARED" TARGET="$1" NOMVE=0 BENCH_OUT="$2" ${3:+"$3"} \
    bash examples/m4_bench.sh "$C" 2>&1 | awk 'NR == 2 && $NF == "identical" { print $2 }'
}
for t in m4 m55; do
  [ "$t" = m55 ] && [ ! -f "$H55/Makefile" ] && continue
  g=$(bench_insns $t "$out/bench_${t}_gcc" M4_CC=gcc)
  c=$(bench_insns $t "$out/bench_${t}_clang" M4_CC=clang)
  if [ -z "$g" ] || [ -z "$c" ]; then
    bad "person_detect on the $t through examples/m4_bench.sh: gcc ${g:-failed}, clang ${c:-failed}"
    continue
  fi
  r=$(awk -v c="$c" -v g="$g" 'BEGIN { printf "%.3f", c / g }')
  echo "person_detect on the $t: clang $c, gcc $g instructions: clang/gcc $r"
  awk -v r="$r" 'BEGIN { exit !(r <= 1.10) }' && ok || bad "clang/gcc $r on the $t above 1.10"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

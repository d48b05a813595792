#!/usr/bin/env bash
# tests/run.sh - every test of tflc, with one closing line "N passed, N failed".
#
#   tests/run.sh            unit tests, build tests, conformance (if ../shared)
#   SANITIZE=1 tests/run.sh  the same with ASan + UBSan (unit tests and tool)
#   VALGRIND=1 tests/run.sh  unit tests under valgrind memcheck
#   TFLC_REQUIRE_ALL=1 tests/run.sh  a missing optional tool fails (CI)
#
# Only gcc and make are required. Checks that need an optional tool
# (clang, g++, arm-none-eabi-gcc, xtensa-lx106-elf-gcc, cmake, python3)
# are skipped when it is not installed, and counted: the closing line is
# then "N passed, N failed, N skipped". With TFLC_REQUIRE_ALL=1 (as .ci/run
# sets after installing them) every skip counts as a failure.
#   T=test_lut tests/run.sh  one unit test (tests/test_lut.c), its failures
#                            on the terminal; T=cli_test: one shell test
#                            (tests/cli_test.sh, with the tool built first);
#                            T=test_platform_x86 (at -msse4.1 and -mavx2),
#                            T=x86_conformance (the suites, tool at -mavx2)
#
# Unit tests are tests/test_*.c (one per layer), each printing its own
# "N passed, N failed" (checks); shell tests are tests/*_test.sh. Build tests
# count one check each. Conformance runs ../shared/conformance/run.sh on the
# suites in CONFORMANCE_SUITES (default: all of them).
set -u
cd "$(dirname "$0")/.."
CC=${CC:-gcc}
SHARED=${SHARED:-../shared}
WARN="-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror"
out=build/tests
mkdir -p "$out"
total_pass=0 total_fail=0 total_skip=0
require_all=${TFLC_REQUIRE_ALL:-0}
log=$out/log.txt
: >"$log"

note() { printf '%s\n' "$*"; }
add_counts() { # "N passed, N failed[, N skipped]" line -> totals
  local line=$1 p f k
  p=$(printf '%s' "$line" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\1/p')
  f=$(printf '%s' "$line" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2/p')
  k=$(printf '%s' "$line" | sed -n 's/^[0-9]* passed, [0-9]* failed, \([0-9][0-9]*\) skipped.*/\1/p')
  if [ -z "$p" ]; then
    total_fail=$((total_fail + 1))
    return 1
  fi
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
  if [ -n "$k" ] && [ "$k" != 0 ]; then
    if [ "$require_all" = 1 ]; then
      note "FAIL: $k check(s) skipped for a missing tool (TFLC_REQUIRE_ALL=1)"
      total_fail=$((total_fail + k))
      f=1
    else
      total_skip=$((total_skip + k))
    fi
  fi
  [ "$f" = 0 ]
}
check() { # name, command...: one check
  local name=$1
  shift
  if "$@" >>"$log" 2>&1; then
    total_pass=$((total_pass + 1))
  else
    total_fail=$((total_fail + 1))
    note "FAIL build: $name (see $log)"
  fi
}
# optional TOOL name command...: the check when TOOL is installed, else a
# skip (a failure with TFLC_REQUIRE_ALL=1)
optional() {
  local tool=$1 name=$2
  shift 2
  if command -v "$tool" >/dev/null 2>&1; then
    check "$name" "$@"
  elif [ "$require_all" = 1 ]; then
    total_fail=$((total_fail + 1))
    note "FAIL build: $name: $tool not installed (TFLC_REQUIRE_ALL=1)"
  else
    total_skip=$((total_skip + 1))
    note "SKIP build: $name ($tool not installed)"
  fi
}

san=""
[ "${SANITIZE:-0}" = 1 ] && san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
runner=""
[ "${VALGRIND:-0}" = 1 ] && runner="valgrind -q --error-exitcode=99 --leak-check=full"

run_unit_test() { # tests/test_x.c [stderr file]: build, run, count
  local src=$1 err=${2:-$log} name res rc line
  name=$(basename "$src" .c)
  if ! $CC -std=c99 $WARN -O1 -g $san -o "$out/$name" "$src" -lm >>"$err" 2>&1; then
    note "FAIL $name: does not compile (see $err)"
    total_fail=$((total_fail + 1))
    return
  fi
  res=$($runner "$out/$name" 2>>"$err")
  rc=$?
  line=$(printf '%s\n' "$res" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
  note "$name: ${line:-no result line} (exit $rc)"
  add_counts "$line" || true
  if [ $rc != 0 ] && [ -n "$line" ] && printf '%s' "$line" | grep -q ' 0 failed'; then
    note "FAIL $name: exit status $rc"
    total_fail=$((total_fail + 1))
  fi
}
build_tool() { # sets $tool: build/tflc, or build/asan/tflc with SANITIZE=1
  tool=build/tflc
  if [ -n "$san" ]; then
    mkdir -p build/asan
    tool=build/asan/tflc
    check "tflc tool (sanitized)" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g $san $WARN -o "$tool" examples/tflc.c -lm
  else
    check "tflc tool" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 $WARN -o "$tool" examples/tflc.c -lm
  fi
}
run_shell_test() { # tests/x_test.sh [stderr file]
  local t=$1 err=${2:-$log} line
  note "== $t"
  line=$(TFLC="$tool" SHARED="$SHARED" TFLC_REQUIRE_ALL="$require_all" bash "$t" 2>>"$err" | tee -a "$log" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
  note "$(basename "$t"): ${line:-no result line}"
  add_counts "$line" || true
}

# tests/test_platform_x86.c at -msse4.1 and at -mavx2 (each build has the
# x86 primitives it allows; the binary skips, counted, on a CPU without them)
run_x86_unit_tests() { # [stderr file]
  local err=${1:-$log} flag name res rc line
  for flag in -msse4.1 -mavx2; do
    name=test_platform_x86${flag#-m}
    if ! $CC -std=c99 $WARN -O1 -g $san $flag -o "$out/$name" tests/test_platform_x86.c -lm >>"$err" 2>&1; then
      note "FAIL test_platform_x86 ($flag): does not compile (see $err)"
      total_fail=$((total_fail + 1))
      continue
    fi
    res=$($runner "$out/$name" 2>>"$err")
    rc=$?
    line=$(printf '%s\n' "$res" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    note "test_platform_x86 ($flag): ${line:-no result line} (exit $rc)"
    add_counts "$line" || true
    if [ $rc != 0 ] && [ -n "$line" ] && printf '%s' "$line" | grep -q ' 0 failed'; then
      note "FAIL test_platform_x86 ($flag): exit status $rc"
      total_fail=$((total_fail + 1))
    fi
  done
}
# The conformance suites with the tool built -mavx2: the x86 primitives
# byte-identical with TFLM end to end (sanitized: the quicker suites only)
run_x86_conformance() {
  local xtool=build/tflc-avx2 s res line suites="models ops ops2 external models_ext weights"
  if [ -n "$san" ]; then
    xtool=build/asan/tflc-avx2
    suites="models external"
    mkdir -p build/asan
    check "tflc tool -mavx2 (sanitized)" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g $san -mavx2 $WARN -o "$xtool" examples/tflc.c -lm
  else
    check "tflc tool -mavx2" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -mavx2 $WARN -o "$xtool" examples/tflc.c -lm
  fi
  [ -x "$xtool" ] || return
  if ! grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
    note "SKIP conformance -mavx2: the CPU has no AVX2"
    total_skip=$((total_skip + 1))
    return
  fi
  for s in $suites; do
    [ -d "$SHARED/conformance/$s" ] || continue
    res=$(bash tests/conformance.sh "$xtool" "$SHARED/conformance/$s" 2>&1)
    printf '%s\n' "$res" | grep -E '^(FAIL|FIXED)' | head -n 20
    line=$(printf '%s\n' "$res" | tail -n 1)
    note "conformance $s (-mavx2): $line"
    add_counts "$line" || true
  done
}

# ---- one test (T=name) -----------------------------------------------------
if [ -n "${T:-}" ]; then
  t=$(basename "$T")
  t=${t%.c}
  t=${t%.sh}
  if [ "$t" = test_platform_x86 ]; then
    run_x86_unit_tests /dev/stderr
  elif [ "$t" = x86_conformance ]; then
    run_x86_conformance
  elif [ -f "tests/$t.c" ]; then
    run_unit_test "tests/$t.c" /dev/stderr
  elif [ -f "tests/$t.sh" ]; then
    build_tool
    run_shell_test "tests/$t.sh" /dev/stderr
  else
    note "T=$T: no tests/$t.c or tests/$t.sh"
    total_fail=$((total_fail + 1))
  fi
  if [ "$total_skip" != 0 ]; then
    echo "$total_pass passed, $total_fail failed, $total_skip skipped"
  else
    echo "$total_pass passed, $total_fail failed"
  fi
  [ "$total_fail" = 0 ]
  exit
fi

# ---- unit tests ------------------------------------------------------------
note "== unit tests"
for src in tests/test_*.c; do
  [ "$src" = tests/test_platform_x86.c ] && continue # below, at -msse4.1/-mavx2
  run_unit_test "$src"
done
run_x86_unit_tests

# ---- build tests -----------------------------------------------------------
note "== build tests"
impl=$out/impl.c
printf '#define TFLC_IMPLEMENTATION\n#include "../../tflc.h"\n' >"$impl"
check "gcc C99" gcc -std=c99 $WARN -c "$impl" -o "$out/impl_gcc99.o"
check "gcc C11" gcc -std=c11 $WARN -c "$impl" -o "$out/impl_gcc11.o"
optional clang "clang C99" clang -std=c99 $WARN -c "$impl" -o "$out/impl_clang99.o"
optional clang "clang C11" clang -std=c11 $WARN -c "$impl" -o "$out/impl_clang11.o"
optional g++ "g++ C++11" g++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror -c "$impl" -o "$out/impl_gxx.o"
optional clang++ "clang++ C++17" clang++ -x c++ -std=c++17 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror -c "$impl" -o "$out/impl_clangxx.o"
# the x86 SSE4.1 / AVX2 primitives compiled in (C and C++)
check "gcc C99 -msse4.1" gcc -std=c99 $WARN -msse4.1 -c "$impl" -o "$out/impl_sse41.o"
optional clang "clang C99 -mavx2" clang -std=c99 $WARN -mavx2 -c "$impl" -o "$out/impl_clang_avx2.o"
optional g++ "g++ C++11 -mavx2" g++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror -mavx2 -c "$impl" -o "$out/impl_gxx_avx2.o"
check "kernels alone C99" gcc -std=c99 $WARN -x c -c tflc_kernels.h -DTFLC_KERNELS_IMPLEMENTATION -o "$out/kernels.o"
check "no error strings" gcc -std=c99 $WARN -DTFLC_NO_ERROR_STRINGS -c "$impl" -o "$out/impl_noerr.o"
check "two translation units" gcc -std=c99 $WARN -I. -o "$out/minimal" examples/minimal.c tflc.c -lm
optional g++ "two TUs, C++ caller" bash -c "g++ -x c++ -Wall -Wextra -Werror -I. -c examples/minimal.c -o $out/minimal_cxx.o && gcc -std=c99 $WARN -I. -c tflc.c -o $out/lib.o && g++ -o $out/minimal_cxx $out/minimal_cxx.o $out/lib.o -lm"
write_impl=$out/write_impl.c
printf '#define TFLC_IMPLEMENTATION\n#define TFLC_WRITE_IMPLEMENTATION\n#include "../../tflc_write.h"\n' >"$write_impl"
check "tflc_write.h gcc C99" gcc -std=c99 $WARN -c "$write_impl" -o "$out/write_gcc99.o"
optional clang "tflc_write.h clang C99" clang -std=c99 $WARN -c "$write_impl" -o "$out/write_clang99.o"
optional g++ "tflc_write.h g++ C++11" g++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror -c "$write_impl" -o "$out/write_gxx.o"
check "tflc_write.h API alone, C99" gcc -std=c99 $WARN -x c -fsyntax-only tflc_write.h
optional g++ "tflc_write.h API alone, C++" g++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only tflc_write.h
# TFLC_WRITE_IMPLEMENTATION without the runtime implementation: the #error
printf '#define TFLC_WRITE_IMPLEMENTATION\n#include "../../tflc_write.h"\n' >"$out/write_alone.c"
check "tflc_write.h without TFLC_IMPLEMENTATION stops with #error" bash -c "! gcc -std=c99 -c $out/write_alone.c -o $out/write_alone.o 2>$out/write_alone.err && grep -q 'error: #error \"tflc_write.h: TFLC_WRITE_IMPLEMENTATION needs the runtime implementation' $out/write_alone.err"
check "unity build (TFLC_STATIC)" bash -c "gcc -std=c99 $WARN -o $out/unity tests/unity.c -lm && $out/unity"
optional arm-none-eabi-gcc "Cortex-M4 (arm-none-eabi-gcc)" arm-none-eabi-gcc -std=c99 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -Os $WARN -c "$impl" -o "$out/impl_m4.o"
optional arm-none-eabi-gcc "Cortex-M55 with MVE (arm-none-eabi-gcc)" arm-none-eabi-gcc -std=c99 -mcpu=cortex-m55 -mthumb -mfloat-abi=hard -O2 $WARN -c "$impl" -o "$out/impl_m55.o"
# C++ on Arm: short enums (AAPCS) make gcc check flag constants against the
# enum's range, which the host C++ builds do not see
optional arm-none-eabi-g++ "Cortex-M4, C++ (arm-none-eabi-g++)" arm-none-eabi-g++ -x c++ -std=c++11 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O2 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror -c "$impl" -o "$out/impl_m4_cxx.o"
optional arm-none-eabi-g++ "Cortex-M55 with MVE, C++ (arm-none-eabi-g++)" arm-none-eabi-g++ -x c++ -std=c++11 -mcpu=cortex-m55 -mthumb -mfloat-abi=hard -O2 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror -c "$impl" -o "$out/impl_m55_cxx.o"
optional xtensa-lx106-elf-gcc "Xtensa (xtensa-lx106-elf-gcc + picolibc)" xtensa-lx106-elf-gcc --specs=/usr/lib/xtensa-lx106-elf/picolibc.specs -std=c99 -Os $WARN -c "$impl" -o "$out/impl_xtensa.o"
# the HiFi detection of a HiFi core's build (__XTENSA__, core-isa.h saying
# XCHAL_HAVE_HIFI4 or XCHAL_HAVE_HIFI5, <xtensa/tie/xt_hifi4.h> or
# xt_hifi5.h) on this host, the emulation standing in for Cadence's
# intrinsics header: the HiFi primitives are compiled in, and TFLC_NO_HIFI
# or XCHAL_HAVE_HIFI4 0 leaves them out
fake=$out/fake_xtensa
mkdir -p "$fake/xtensa/config" "$fake/xtensa/tie"
printf '#if defined(FAKE_HIFI5)\n#define XCHAL_HAVE_HIFI5 1\n#else\n#define XCHAL_HAVE_HIFI4 FAKE_HIFI4\n#endif\n' >"$fake/xtensa/config/core-isa.h"
printf '#include "../../../../../tests/hifi_emu.h"\n' >"$fake/xtensa/tie/xt_hifi4.h"
printf '#include "../../../../../tests/hifi_emu.h"\n' >"$fake/xtensa/tie/xt_hifi5.h"
hifi_cc="gcc -std=c99 $WARN -D__XTENSA__ -I$fake -c $impl"
check "HiFi 4 / HiFi 5 core detected (core-isa.h, xt_hifi4.h / xt_hifi5.h)" bash -c "$hifi_cc -DFAKE_HIFI4=1 -o $out/impl_hifi4.o && nm $out/impl_hifi4.o | grep -q ' T tflc_gemm_s8_hifi' && $hifi_cc -DFAKE_HIFI5 -o $out/impl_hifi5.o && nm $out/impl_hifi5.o | grep -q ' T tflc_depthwise_s8_hifi' && $hifi_cc -DFAKE_HIFI4=1 -DTFLC_NO_HIFI -o $out/impl_nohifi.o && ! nm $out/impl_nohifi.o | grep -q hifi && $hifi_cc -DFAKE_HIFI4=0 -o $out/impl_hifi0.o && ! nm $out/impl_hifi0.o | grep -q hifi"
# a firmware build with person_detect's operators only (the line `tflc ops`
# prints), as a library and as the tool run on the models suite below
printf '#define TFLC_OPS(X) X(AVERAGE_POOL_2D) X(CONV_2D) X(DEPTHWISE_CONV_2D) X(RESHAPE) X(SOFTMAX)\n' >"$out/pd_ops.h"
if [ -x build/tflc ] && [ -f "$SHARED/models/person_detect.tflite" ]; then
  check "tflc ops prints person_detect's line" cmp "$out/pd_ops.h" \
    <(build/tflc ops "$SHARED/models/person_detect.tflite")
fi
check "selected operators (TFLC_OPS)" gcc -std=c99 $WARN -include "$out/pd_ops.h" -c "$impl" -o "$out/impl_sel.o"
optional g++ "selected operators, C++" g++ -x c++ -Wall -Wextra -Werror -include "$out/pd_ops.h" -c "$impl" -o "$out/impl_sel_cxx.o"
# the operators' int8 kernels only (TFLC_INT8_ONLY), or without float32 /
# int16 alone; tests/test_int8_only.c runs the first on person_detect
check "int8 kernels only (TFLC_INT8_ONLY), selected operators" gcc -std=c99 $WARN -DTFLC_INT8_ONLY -include "$out/pd_ops.h" -c "$impl" -o "$out/impl_i8.o"
optional g++ "int8 kernels only, C++" g++ -x c++ -Wall -Wextra -Wshadow -Werror -DTFLC_INT8_ONLY -include "$out/pd_ops.h" -c "$impl" -o "$out/impl_i8_cxx.o"
check "without float32 kernels (TFLC_NO_FLOAT32)" gcc -std=c99 $WARN -DTFLC_NO_FLOAT32 -c "$impl" -o "$out/impl_nof32.o"
check "without int16 kernels (TFLC_NO_INT16)" gcc -std=c99 $WARN -DTFLC_NO_INT16 -c "$impl" -o "$out/impl_nos16.o"
check "selected-operators tflc tool" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 $WARN -include "$out/pd_ops.h" -o "$out/tflc_sel" examples/tflc.c -lm
# the same with what a plain model does not need left out (tests/test_lean.c
# checks the refusals in detail; the tool runs person_detect below)
lean="-DTFLC_NO_COMPRESSION -DTFLC_NO_SUBGRAPHS -DTFLC_NO_DELEGATES -DTFLC_NO_USER_OPS"
check "lean build (TFLC_OPS + TFLC_NO_COMPRESSION ...)" gcc -std=c99 $WARN $lean -include "$out/pd_ops.h" -c "$impl" -o "$out/impl_lean.o"
optional g++ "lean build, C++" g++ -x c++ -Wall -Wextra -Wpedantic -Wshadow -Werror $lean -include "$out/pd_ops.h" -c "$impl" -o "$out/impl_lean_cxx.o"
check "lean tflc tool" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 $WARN $lean -include "$out/pd_ops.h" -o "$out/tflc_lean" examples/tflc.c -lm
check "tests/test_lean.c with TFLC_NO_ERROR_STRINGS" bash -c "$CC -std=c99 $WARN -O1 $san -DTFLC_NO_ERROR_STRINGS -o $out/test_lean_noerr tests/test_lean.c -lm && $out/test_lean_noerr | tail -n 1 | grep -q ' 0 failed'"
note "build tests done"

# ---- the tool, shell tests, conformance ------------------------------------
build_tool
if command -v python3 >/dev/null; then
  line=$(python3 tests/readme_ops.py "$tool" README.md 2>&1 | tail -n 1)
  note "README operator list: $line"
  add_counts "$line" || true
elif [ "$require_all" = 1 ]; then
  note "FAIL: README operator list: python3 not installed (TFLC_REQUIRE_ALL=1)"
  total_fail=$((total_fail + 1))
else
  note "SKIP: README operator list (python3 not installed)"
  total_skip=$((total_skip + 1))
fi
for t in tests/*_test.sh; do
  [ -f "$t" ] || continue
  run_shell_test "$t"
done
if [ -x "$SHARED/conformance/run.sh" ]; then
  suites=${CONFORMANCE_SUITES:-models ops models_ext ops2 external weights}
  if [ -x "$out/tflc_sel" ] && [ -d "$SHARED/conformance/models/person_detect" ]; then
    note "== conformance person_detect, its operators only (TFLC_OPS)"
    line=$("$SHARED/conformance/run.sh" "$out/tflc_sel" "$SHARED/conformance/models/person_detect" 2>&1 | tail -n 1)
    note "conformance person_detect (TFLC_OPS): $line"
    add_counts "$line" || true
    # an operator left out is refused with its name
    if "$out/tflc_sel" run "$SHARED/models/micro_speech_quantized.tflite" --random-inputs 1 2>&1 |
      grep -q 'FULLY_CONNECTED: not compiled in'; then
      total_pass=$((total_pass + 1))
    else
      note "FAIL TFLC_OPS: micro_speech's FULLY_CONNECTED not refused as not compiled in"
      total_fail=$((total_fail + 1))
    fi
  fi
  if [ -x "$out/tflc_lean" ] && [ -d "$SHARED/conformance/models/person_detect" ]; then
    note "== conformance person_detect, lean build (TFLC_OPS, TFLC_NO_*)"
    line=$("$SHARED/conformance/run.sh" "$out/tflc_lean" "$SHARED/conformance/models/person_detect" 2>&1 | tail -n 1)
    note "conformance person_detect (lean): $line"
    add_counts "$line" || true
    # a compressed person_detect is refused, naming the option
    if "$out/tflc_lean" run "$SHARED/conformance/models/compressed/pd_all_w4/meta/model.tflite" \
      --random-inputs 1 2>&1 | grep -q 'compressed tensors not compiled in (TFLC_NO_COMPRESSION)'; then
      total_pass=$((total_pass + 1))
    else
      note "FAIL lean build: compressed person_detect not refused (TFLC_NO_COMPRESSION)"
      total_fail=$((total_fail + 1))
    fi
  fi
  for s in $suites; do
    [ -d "$SHARED/conformance/$s" ] || continue
    note "== conformance $s"
    res=$(bash tests/conformance.sh "$tool" "$SHARED/conformance/$s" 2>&1)
    printf '%s\n' "$res" | grep -E '^(FAIL|FIXED)' | head -n 20
    line=$(printf '%s\n' "$res" | tail -n 1)
    note "conformance $s: $line"
    add_counts "$line" || true
  done
  # the tool with the Xtensa HiFi primitives over tests/hifi_emu.h (as make
  # build/tflc-hifi-emu): models, MLPerf Tiny and compressed weights (the
  # models suite only under SANITIZE=1, where it is slower); unsanitized,
  # also the HiFi 5 code (XCHAL_HAVE_HIFI5) on the models suite
  hifi_conformance() { # TOOL LABEL SUITE...
    local t=$1 label=$2 s res line
    shift 2
    [ -x "$t" ] || return 0
    for s in "$@"; do
      [ -d "$SHARED/conformance/$s" ] || continue
      note "== conformance $s, $label emulated"
      res=$(bash tests/conformance.sh "$t" "$SHARED/conformance/$s" 2>&1)
      printf '%s\n' "$res" | grep -E '^(FAIL|FIXED)' | head -n 20
      line=$(printf '%s\n' "$res" | tail -n 1)
      note "conformance $s ($label emulated): $line"
      add_counts "$line" || true
    done
  }
  hifi_tool=$out/tflc-hifi-emu hifi5_tool=$out/tflc-hifi5-emu
  rm -f "$hifi_tool" "$hifi5_tool"
  if [ -n "$san" ]; then
    check "tflc tool, HiFi emulated (sanitized)" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g $san $WARN -DTFLC_HIFI_EMULATE -o "$hifi_tool" examples/tflc.c -lm
    hifi_conformance "$hifi_tool" HiFi ${HIFI_EMU_SUITES:-models}
  else
    check "tflc tool, HiFi emulated" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 $WARN -DTFLC_HIFI_EMULATE -o "$hifi_tool" examples/tflc.c -lm
    hifi_conformance "$hifi_tool" HiFi ${HIFI_EMU_SUITES:-models external weights}
    check "tflc tool, HiFi 5 emulated" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 $WARN -DTFLC_HIFI_EMULATE -DXCHAL_HAVE_HIFI5=1 -o "$hifi5_tool" examples/tflc.c -lm
    hifi_conformance "$hifi5_tool" "HiFi 5" models
  fi
  note "== conformance with the x86 AVX2 primitives"
  run_x86_conformance
else
  note "(../shared/conformance not found: conformance skipped)"
fi

if [ "$total_skip" != 0 ]; then
  note "($total_skip skipped: optional tools not installed, see SKIP lines)"
  echo "$total_pass passed, $total_fail failed, $total_skip skipped"
else
  echo "$total_pass passed, $total_fail failed"
fi
[ "$total_fail" = 0 ]

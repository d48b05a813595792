#!/usr/bin/env bash
# tests/run.sh - every test of tflc, with one closing line "N passed, N failed".
#
#   tests/run.sh            unit tests, build tests, shell tests, conformance
#                           (if ../shared), JOBS at a time (default: nproc)
#   JOBS=1 tests/run.sh     one at a time (`make -jN test` sets JOBS=N)
#   SANITIZE=1 tests/run.sh  the same with ASan + UBSan (unit tests and tool)
#   VALGRIND=1 tests/run.sh  unit tests under valgrind memcheck
#   TFLC_REQUIRE_ALL=1 tests/run.sh  a missing optional tool fails (CI)
#
# Only gcc and make are required. Checks that need an optional tool
# (clang, g++, arm-none-eabi-gcc, xtensa-lx106-elf-gcc, cmake, python3)
# are skipped when it is not installed, and counted: the closing line is
# then "N passed, N failed, N skipped". With TFLC_REQUIRE_ALL=1 (as .ci/run
# sets after installing them) every skip counts as a failure. Without
# ../shared (SHARED=...), the suites that read it are skipped, counted.
#   T=test_lut tests/run.sh  one unit test (tests/test_lut.c), its failures
#                            on the terminal; T=cli_test: one shell test
#                            (tests/cli_test.sh, with the tool built first);
#                            T=test_platform_x86 (at -msse4.1 and -mavx2),
#                            T=x86_conformance (the suites, tool at -mavx2),
#                            T=conformance (the suites with build/tflc)
#
# The library is compiled once per configuration: build/tests/lib/ holds
# tflc_write.h's and tflc.h's implementation built with TFLC_INTERNAL_API
# (the internal interface sections of the headers), and every unit test
# that says `#ifndef TFLC_TEST_LINKED` around its implementation macros is
# linked against it. Tests of another configuration (selected operators,
# lean builds, emulated platforms, a WHILE bound) and the white-box tests
# that read more of the implementation than the internal interface compile
# the library into themselves.
#
# Unit tests are tests/test_*.c (one per layer), each printing its own
# "N passed, N failed" (checks); shell tests are tests/*_test.sh. Build tests
# count one check each. Conformance runs ../shared/conformance/run.sh on the
# suites in CONFORMANCE_SUITES (default: all of them) with the tool, large
# suites split into parts that run side by side; every other pass over the
# suites (the sanitized tool, other plans, the AVX2, HiFi and lean tools)
# runs its cases in one `tflc conform` process. Every job's output and its time in
# seconds are in build/tests/jobs/ (build/tests-asan/jobs/ with SANITIZE=1).
set -u
cd "$(dirname "$0")/.."
CC=${CC:-gcc}
SHARED=${SHARED:-../shared}
WARN="-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror"
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
case $JOBS in '' | *[!0-9]* | 0) JOBS=2 ;; esac
out=build/tests
[ "${SANITIZE:-0}" = 1 ] && out=build/tests-asan
mkdir -p "$out"
total_pass=0 total_fail=0 total_skip=0
require_all=${TFLC_REQUIRE_ALL:-0}
log=$out/log.txt
: >"$log"
t_start=$(date +%s)

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
    return 1
  fi
}
skip() { # reason: one skipped check (a failure with TFLC_REQUIRE_ALL=1)
  if [ "$require_all" = 1 ]; then
    total_fail=$((total_fail + 1))
    note "FAIL: $1 (TFLC_REQUIRE_ALL=1)"
  else
    total_skip=$((total_skip + 1))
    note "SKIP: $1"
  fi
}
# optional TOOL name command...: the check when TOOL is installed, else a
# skip (a failure with TFLC_REQUIRE_ALL=1)
optional() {
  local tool=$1 name=$2
  shift 2
  if command -v "$tool" >/dev/null 2>&1; then
    check "$name" "$@"
  else
    skip "build: $name ($tool not installed)"
  fi
}

san=""
[ "${SANITIZE:-0}" = 1 ] && san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
runner=""
[ "${VALGRIND:-0}" = 1 ] && runner="valgrind -q --error-exitcode=99 --leak-check=full"
have_shared=0
[ -x "$SHARED/conformance/run.sh" ] && have_shared=1

# ---- jobs ------------------------------------------------------------------
# queue NAME COMMAND...: a job of the next run_queue. Each job runs in its
# own subshell with its own counters and log; run_queue runs JOBS of them
# at a time, prints each job's notes when it ends (with its seconds) and
# adds its counts.
jobdir=$out/jobs
rm -rf "$jobdir"
mkdir -p "$jobdir"
job_names=() job_cmds=()
njob=0
queue() {
  local name=$1
  shift
  job_names+=("$name")
  job_cmds+=("$(printf '%q ' "$@")")
}
job_report() { # index: prints a finished job's notes, adds its counts
  local i=$1 line p f k
  sed '$d' "$jobdir/$i.out"
  cat "$jobdir/$i.log" >>"$log" 2>/dev/null
  line=$(tail -n 1 "$jobdir/$i.out")
  p=$(printf '%s' "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1/p')
  f=$(printf '%s' "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\2/p')
  k=$(printf '%s' "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\3/p')
  if [ -z "$p" ]; then
    note "FAIL job $(cat "$jobdir/$i.name"): no result (see $jobdir/$i.out)"
    total_fail=$((total_fail + 1))
    return
  fi
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
  total_skip=$((total_skip + k))
}
run_queue() {
  local i first=$njob n=${#job_names[@]} reported=$njob
  for ((i = 0; i < n; i++)); do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
      wait -n 2>/dev/null || true
      report_done
    done
    start_job "$((first + i))" "${job_names[$i]}" "${job_cmds[$i]}"
  done
  wait
  report_done
  njob=$((first + n))
  job_names=() job_cmds=()
}
start_job() { # index name command
  local i=$1
  printf '%s\n' "$2" >"$jobdir/$i.name"
  (
    total_pass=0 total_fail=0 total_skip=0
    log=$jobdir/$i.log
    : >"$log"
    s=$(date +%s)
    eval "$3"
    e=$(date +%s)
    printf '%s\n' "$((e - s))" >"$jobdir/$i.seconds"
    note "   ($2: $((e - s)) s)"
    echo "$total_pass passed, $total_fail failed, $total_skip skipped"
  ) >"$jobdir/$i.out" 2>>"$jobdir/$i.log" </dev/null &
  printf '%s\n' "$!" >"$jobdir/$i.pid"
}
report_done() { # reports, in start order, the jobs that have ended
  local i
  for i in "$jobdir"/*.seconds; do
    [ -f "$i" ] || continue
    i=$(basename "$i" .seconds)
    [ -f "$jobdir/$i.reported" ] && continue
    # the job's subshell is gone once its result line is written
    kill -0 "$(cat "$jobdir/$i.pid")" 2>/dev/null && continue
    : >"$jobdir/$i.reported"
    job_report "$i"
  done
}

# ---- builds ----------------------------------------------------------------
tool=build/tflc
[ -n "$san" ] && tool=build/asan/tflc
build_tool() { # $tool: build/tflc, or build/asan/tflc with SANITIZE=1
  if [ -n "$san" ]; then
    mkdir -p build/asan
    check "tflc tool (sanitized)" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g $san $WARN -o "$tool" examples/tflc.c -lm
  else
    check "tflc tool" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 $WARN -o "$tool" examples/tflc.c -lm
  fi
}
# the library as the linked unit tests use it: compiled once, internal
# interface extern (TFLC_INTERNAL_API)
libobj=$out/lib/tflc_test.o
build_test_lib() {
  mkdir -p "$out/lib"
  printf '#define TFLC_IMPLEMENTATION\n#define TFLC_WRITE_IMPLEMENTATION\n#include "../../../tflc_write.h"\n' >"$out/lib/tflc_test.c"
  local cmd="$CC -std=c99 $WARN -O1 -g $san -DTFLC_INTERNAL_API -c $out/lib/tflc_test.c -o $libobj"
  # up to date: newer than the headers, built by the same command
  if [ -f "$libobj" ] && [ "$libobj" -nt tflc.h ] && [ "$libobj" -nt tflc_kernels.h ] &&
    [ "$libobj" -nt tflc_write.h ] && [ "$(cat "$libobj.cmd" 2>/dev/null)" = "$cmd" ]; then
    total_pass=$((total_pass + 1))
    return
  fi
  rm -f "$libobj.cmd"
  check "the library, once for the unit tests (TFLC_INTERNAL_API)" $cmd &&
    printf '%s\n' "$cmd" >"$libobj.cmd"
}
# the demo and its models (build/demo_*.tflite, read by several shell
# tests) and the micro_speech example, before the tests that read them
build_examples() {
  check "make build/demo build/micro_speech" make -s build/demo build/micro_speech
  check "build/demo writes its models" ./build/demo
}
sel_tool=$out/tflc_sel lean_tool=$out/tflc_lean paths_tool=$out/tflc_paths
hifi_tool=$out/tflc-hifi-emu hifi5_tool=$out/tflc-hifi5-emu
xtool=build/tflc-avx2
[ -n "$san" ] && xtool=build/asan/tflc-avx2
lean="-DTFLC_NO_COMPRESSION -DTFLC_NO_SUBGRAPHS -DTFLC_NO_DELEGATES -DTFLC_NO_USER_OPS"
# person_detect's operators only (the line `tflc ops` prints)
printf '#define TFLC_OPS(X) X(AVERAGE_POOL_2D) X(CONV_2D) X(DEPTHWISE_CONV_2D) X(RESHAPE) X(SOFTMAX)\n' >"$out/pd_ops.h"
build_variant_tools() {
  check "selected-operators tflc tool" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 $WARN -include "$out/pd_ops.h" -o "$sel_tool" examples/tflc.c -lm
  check "lean tflc tool" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 $WARN $lean -include "$out/pd_ops.h" -o "$lean_tool" examples/tflc.c -lm
  # the kernel-path options `tflc ops --config` writes, over the Arm DSP
  # paths emulated: the layers they turn away take the other paths
  check "tflc tool, DSP emulated, TFLC_NO_CONV_WINDOWS TFLC_NO_DW_ANY_FILTER" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 $WARN -DTFLC_DSP_EMULATE -DTFLC_NO_CONV_WINDOWS -DTFLC_NO_DW_ANY_FILTER -o "$paths_tool" examples/tflc.c -lm
}
build_x86_tool() {
  if [ -n "$san" ]; then
    mkdir -p build/asan
    check "tflc tool -mavx2 (sanitized)" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g $san -mavx2 $WARN -o "$xtool" examples/tflc.c -lm
  else
    check "tflc tool -mavx2" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -mavx2 $WARN -o "$xtool" examples/tflc.c -lm
  fi
  : >"$xtool.done" # built or failed: x86_conformance's other half goes on
}
# the tool with the Xtensa HiFi primitives over tests/hifi_emu.h (as make
# build/tflc-hifi-emu); unsanitized also the HiFi 5 code
build_hifi_tools() {
  if [ -n "$san" ]; then
    check "tflc tool, HiFi emulated (sanitized)" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g $san $WARN -DTFLC_HIFI_EMULATE -o "$hifi_tool" examples/tflc.c -lm
  else
    check "tflc tool, HiFi emulated" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 $WARN -DTFLC_HIFI_EMULATE -o "$hifi_tool" examples/tflc.c -lm
  fi
}
build_hifi5_tool() {
  check "tflc tool, HiFi 5 emulated" $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 $WARN -DTFLC_HIFI_EMULATE -DXCHAL_HAVE_HIFI5=1 -o "$hifi5_tool" examples/tflc.c -lm
}

# ---- unit tests ------------------------------------------------------------
# build_and_run LABEL BINARY [stderr file] -- COMPILE...: compiles, runs the
# binary (under $runner), counts its closing line and its exit status
build_and_run() {
  local label=$1 bin=$2 err=$log res rc line
  shift 2
  [ "$1" != -- ] && err=$1 && shift
  shift
  if ! "$@" >>"$err" 2>&1; then
    note "FAIL $label: does not compile (see $err)"
    total_fail=$((total_fail + 1))
    return
  fi
  res=$($runner "$bin" 2>>"$err")
  rc=$?
  line=$(printf '%s\n' "$res" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
  note "$label: ${line:-no result line} (exit $rc)"
  add_counts "$line" || true
  if [ $rc != 0 ] && [ -n "$line" ] && printf '%s' "$line" | grep -q ' 0 failed'; then
    note "FAIL $label: exit status $rc"
    total_fail=$((total_fail + 1))
  fi
}
run_unit_test() { # tests/test_x.c [stderr file]: linked or its own build
  local src=$1 err=${2:-$log} name
  name=$(basename "$src" .c)
  if grep -q '^#ifndef TFLC_TEST_LINKED' "$src"; then
    build_and_run "$name (linked)" "$out/$name" "$err" -- $CC -std=c99 $WARN -O1 -g $san -DTFLC_TEST_LINKED -DTFLC_INTERNAL_API -o "$out/$name" "$src" "$libobj" -lm
  else
    build_and_run "$name (own build)" "$out/$name" "$err" -- $CC -std=c99 $WARN -O1 -g $san -o "$out/$name" "$src" -lm
  fi
}
# tests/test_platform_x86.c at -msse4.1 or at -mavx2 (each build has the
# x86 primitives it allows; the binary skips, counted, on a CPU without them)
run_x86_unit_test() { # flag [stderr file]
  local flag=$1 err=${2:-$log} name
  name=test_platform_x86${flag#-m}
  build_and_run "test_platform_x86 ($flag)" "$out/$name" "$err" -- $CC -std=c99 $WARN -O1 -g $san $flag -o "$out/$name" tests/test_platform_x86.c -lm
}
run_shell_test() { # tests/x_test.sh... [stderr file]: one after another
  local t line
  for t in "$@"; do
    note "== $t"
    line=$(TFLC="$tool" SHARED="$SHARED" TFLC_REQUIRE_ALL="$require_all" bash "$t" 2>>"$log" | tee -a "$log" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    note "$(basename "$t"): ${line:-no result line}"
    add_counts "$line" || true
  done
}

# ---- build tests -----------------------------------------------------------
impl=$out/impl.c
printf '#define TFLC_IMPLEMENTATION\n#include "../../tflc.h"\n' >"$impl"
write_impl=$out/write_impl.c
printf '#define TFLC_IMPLEMENTATION\n#define TFLC_WRITE_IMPLEMENTATION\n#include "../../tflc_write.h"\n' >"$write_impl"
build_tests_c() { # the runtime in C99, C11, C++, with the x86 primitives
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
  check "unity build (TFLC_STATIC)" bash -c "gcc -std=c99 $WARN -o $out/unity tests/unity.c -lm && $out/unity"
  # the 32-bit layout on this host: the records a 32-bit target holds are
  # checked against their hand-kept 32-bit twins (tflc__*32, which size the
  # arena `tflc info --target 32` reports) wherever pointers are 4 bytes
  if printf '#include <stdint.h>\n' | gcc -m32 -x c -fsyntax-only - 2>/dev/null; then
    check "32-bit layout (gcc -m32, the twins of tflc__*32)" gcc -m32 -std=c99 $WARN -fsyntax-only "$write_impl"
  else
    skip "build: 32-bit layout (gcc -m32 needs gcc-multilib)"
  fi
  # the internal interface alone: declarations that compile without the
  # implementation, in C and C++
  printf '#define TFLC_INTERNAL_API\n#include "../../tflc_write.h"\n' >"$out/internal_api.c"
  check "internal interface alone, C99" gcc -std=c99 $WARN -fsyntax-only "$out/internal_api.c"
  optional g++ "internal interface alone, C++" g++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Wshadow -Werror -fsyntax-only "$out/internal_api.c"
}
build_tests_write() { # tflc_write.h
  check "tflc_write.h gcc C99" gcc -std=c99 $WARN -c "$write_impl" -o "$out/write_gcc99.o"
  optional clang "tflc_write.h clang C99" clang -std=c99 $WARN -c "$write_impl" -o "$out/write_clang99.o"
  optional g++ "tflc_write.h g++ C++11" g++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror -c "$write_impl" -o "$out/write_gxx.o"
  check "tflc_write.h API alone, C99" gcc -std=c99 $WARN -x c -fsyntax-only tflc_write.h
  optional g++ "tflc_write.h API alone, C++" g++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only tflc_write.h
  # TFLC_WRITE_IMPLEMENTATION without the runtime implementation: the #error
  printf '#define TFLC_WRITE_IMPLEMENTATION\n#include "../../tflc_write.h"\n' >"$out/write_alone.c"
  check "tflc_write.h without TFLC_IMPLEMENTATION stops with #error" bash -c "! gcc -std=c99 -c $out/write_alone.c -o $out/write_alone.o 2>$out/write_alone.err && grep -q 'error: #error \"tflc_write.h: TFLC_WRITE_IMPLEMENTATION needs the runtime implementation' $out/write_alone.err"
}
build_tests_cross() { # Arm, Xtensa, HiFi detection
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
  local fake=$out/fake_xtensa hifi_cc
  mkdir -p "$fake/xtensa/config" "$fake/xtensa/tie"
  printf '#if defined(FAKE_HIFI5)\n#define XCHAL_HAVE_HIFI5 1\n#else\n#define XCHAL_HAVE_HIFI4 FAKE_HIFI4\n#endif\n' >"$fake/xtensa/config/core-isa.h"
  printf '#include "../../../../../tests/hifi_emu.h"\n' >"$fake/xtensa/tie/xt_hifi4.h"
  printf '#include "../../../../../tests/hifi_emu.h"\n' >"$fake/xtensa/tie/xt_hifi5.h"
  hifi_cc="gcc -std=c99 $WARN -D__XTENSA__ -I$fake -c $impl"
  check "HiFi 4 / HiFi 5 core detected (core-isa.h, xt_hifi4.h / xt_hifi5.h)" bash -c "$hifi_cc -DFAKE_HIFI4=1 -o $out/impl_hifi4.o && nm $out/impl_hifi4.o | grep -q ' T tflc_gemm_s8_hifi' && $hifi_cc -DFAKE_HIFI5 -o $out/impl_hifi5.o && nm $out/impl_hifi5.o | grep -q ' T tflc_depthwise_s8_hifi' && $hifi_cc -DFAKE_HIFI4=1 -DTFLC_NO_HIFI -o $out/impl_nohifi.o && ! nm $out/impl_nohifi.o | grep -q hifi && $hifi_cc -DFAKE_HIFI4=0 -o $out/impl_hifi0.o && ! nm $out/impl_hifi0.o | grep -q hifi"
}
build_tests_config() { # selected operators, int8 only, lean builds
  # a firmware build with person_detect's operators only (the line `tflc ops`
  # prints), as a library and as the tool run on the models suite
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
  # the same with what a plain model does not need left out (tests/test_lean.c
  # checks the refusals in detail; the lean tool runs person_detect)
  check "lean build (TFLC_OPS + TFLC_NO_COMPRESSION ...)" gcc -std=c99 $WARN $lean -include "$out/pd_ops.h" -c "$impl" -o "$out/impl_lean.o"
  optional g++ "lean build, C++" g++ -x c++ -Wall -Wextra -Wpedantic -Wshadow -Werror $lean -include "$out/pd_ops.h" -c "$impl" -o "$out/impl_lean_cxx.o"
  check "tests/test_lean.c with TFLC_NO_ERROR_STRINGS" bash -c "$CC -std=c99 $WARN -O1 $san -DTFLC_NO_ERROR_STRINGS -o $out/test_lean_noerr tests/test_lean.c -lm && $out/test_lean_noerr | tail -n 1 | grep -q ' 0 failed'"
}
readme_ops() {
  if command -v python3 >/dev/null; then
    line=$(python3 tests/readme_ops.py "$tool" README.md 2>&1 | tail -n 1)
    note "README operator list: $line"
    add_counts "$line" || true
  else
    skip "README operator list (python3 not installed)"
  fi
}

# ---- conformance -----------------------------------------------------------
# Every pass but one runs its cases in one process (`tflc conform`,
# CONFORMANCE_BATCH=1): the same cases and comparisons, without a process
# and a sanitizer start-up a case. The plain tool's pass over every suite
# goes through the suites' own run.sh (official_conformance).
conformance() { # TOOL LABEL DIR...: tests/conformance.sh on these folders
  local t=$1 label=$2 res line
  shift 2
  [ -x "$t" ] || {
    note "FAIL conformance $label: no tool $t"
    total_fail=$((total_fail + 1))
    return
  }
  res=$(CONFORMANCE_BATCH=${CONFORMANCE_BATCH:-1} bash tests/conformance.sh "$t" "$@" 2>&1)
  printf '%s\n' "$res" | grep -E '^(FAIL|FIXED)' | head -n 20
  line=$(printf '%s\n' "$res" | tail -n 1)
  note "conformance $label: $line"
  add_counts "$line" || true
}
official_conformance() { # TOOL LABEL DIR...: through ../shared's run.sh
  CONFORMANCE_BATCH=0 conformance "$@"
}
# conformance with one plan forced (TFLC_PLAN, which the tool reads)
plan_conformance() { # PLAN TOOL LABEL DIR...
  local TFLC_PLAN=$1
  export TFLC_PLAN
  shift
  conformance "$@"
}
# queue_suite TOOL LABEL SUITE [PARTS [PLAN]]: the suite's cases as PARTS
# jobs (its top folders dealt out in turn), each a conformance run (with
# TFLC_PLAN=PLAN when given)
queue_suite() {
  local t=$1 label=$2 s=$3 parts=${4:-1} plan=${5:-} k d i tag=""
  local dir=$SHARED/conformance/$s
  local -a run=(conformance)
  [ -d "$dir" ] || return 0
  # (parts only for the pass through run.sh: a batch is quick)
  if [ -z "$label" ] && [ -z "$plan" ] && [ -z "$san" ]; then
    run=(official_conformance)
  else
    parts=1
  fi
  [ -n "$label" ] && tag=" ($label)"
  [ -n "$plan" ] && run=(plan_conformance "$plan")
  if [ "$parts" = 1 ]; then
    queue "conformance $s$tag" "${run[@]}" "$t" "$s$tag" "$dir"
    return
  fi
  local -a subs=()
  for d in "$dir"/*/; do subs+=("${d%/}"); done
  for ((k = 0; k < parts; k++)); do
    local -a mine=()
    for ((i = k; i < ${#subs[@]}; i += parts)); do mine+=("${subs[$i]}"); done
    [ ${#mine[@]} -gt 0 ] || continue
    queue "conformance $s part $((k + 1))/$parts$tag" "${run[@]}" "$t" "$s part $((k + 1))/$parts$tag" "${mine[@]}"
  done
}
selected_tool_checks() {
  local pd=$SHARED/conformance/models/person_detect
  build_variant_tools
  conformance "$sel_tool" "person_detect (TFLC_OPS)" "$pd"
  # an operator left out is refused with its name
  if "$sel_tool" run "$SHARED/models/micro_speech_quantized.tflite" --random-inputs 1 2>&1 |
    grep -q 'FULLY_CONNECTED: not compiled in'; then
    total_pass=$((total_pass + 1))
  else
    note "FAIL TFLC_OPS: micro_speech's FULLY_CONNECTED not refused as not compiled in"
    total_fail=$((total_fail + 1))
  fi
  conformance "$lean_tool" "person_detect (lean)" "$pd"
  local c=$SHARED/conformance
  conformance "$paths_tool" "convolutions and models (DSP emulated, TFLC_NO_CONV_WINDOWS TFLC_NO_DW_ANY_FILTER)" \
    "$c/ops/CONV_2D" "$c/ops/DEPTHWISE_CONV_2D" "$c/ops/COMPRESSED_CONV_2D" \
    "$c/ops/COMPRESSED_DEPTHWISE_CONV_2D" "$c/models" "$c/external/mlperf_tiny"
  # a compressed person_detect is refused, naming the option
  if "$lean_tool" run "$SHARED/conformance/models/compressed/pd_all_w4/meta/model.tflite" \
    --random-inputs 1 2>&1 | grep -q 'compressed tensors not compiled in (TFLC_NO_COMPRESSION)'; then
    total_pass=$((total_pass + 1))
  else
    note "FAIL lean build: compressed person_detect not refused (TFLC_NO_COMPRESSION)"
    total_fail=$((total_fail + 1))
  fi
}
have_avx2() { grep -qw avx2 /proc/cpuinfo 2>/dev/null; }
all_suites="models ops models_ext ops2 external weights"
queue_conformance() { # every suite with every tool, big ones in parts
  local s
  # the tools of other configurations: each job builds its tool, then runs
  # its suites one after another
  if have_avx2; then
    queue "conformance -mavx2 (1/2)" x86_conformance models ops external
  else
    queue "conformance -mavx2" skip "conformance -mavx2: the CPU has no AVX2"
  fi
  queue "conformance, HiFi emulated" hifi_conformance
  if [ -d "$SHARED/conformance/models/person_detect" ]; then
    queue "conformance, selected operators and lean" selected_tool_checks
  fi
  for s in ${CONFORMANCE_SUITES:-$all_suites}; do
    case $s in
    ops2) queue_suite "$tool" "" ops2 4 ;;
    external | ops) queue_suite "$tool" "" "$s" 2 ;;
    *) queue_suite "$tool" "" "$s" ;;
    esac
  done
  # every suite again with the smallest plan forced (chains band by band,
  # depthwise layers over their input), byte for byte as the fastest
  for s in ${CONFORMANCE_SUITES:-$all_suites}; do
    [ -n "$san" ] && case $s in models | external) ;; *) continue ;; esac
    case $s in
    ops2) queue_suite "$tool" "smallest plan" ops2 2 smallest ;;
    *) queue_suite "$tool" "smallest plan" "$s" 1 smallest ;;
    esac
  done
  # its second half last: by then the first has built the tool
  have_avx2 && queue "conformance -mavx2 (2/2)" x86_conformance ops2 models_ext weights
}
# the x86 AVX2 primitives byte-identical with TFLM end to end (sanitized:
# the quicker suites only); the first caller builds the tool
x86_conformance() { # SUITE...
  local s
  if [ "$1" = models ]; then build_x86_tool; else
    while [ ! -f "$xtool.done" ]; do sleep 1; done
  fi
  for s in "$@"; do
    [ -n "$san" ] && case $s in models | external) ;; *) continue ;; esac
    conformance "$xtool" "$s (-mavx2)" "$SHARED/conformance/$s"
  done
}
# the HiFi primitives over tests/hifi_emu.h: models, MLPerf Tiny and
# compressed weights (the models suite only under SANITIZE=1); the HiFi 5
# code on the models suite
hifi_conformance() {
  local s
  build_hifi_tools
  if [ -n "$san" ]; then
    for s in ${HIFI_EMU_SUITES:-models}; do conformance "$hifi_tool" "$s (HiFi emulated)" "$SHARED/conformance/$s"; done
  else
    for s in ${HIFI_EMU_SUITES:-models external weights}; do conformance "$hifi_tool" "$s (HiFi emulated)" "$SHARED/conformance/$s"; done
    build_hifi5_tool
    conformance "$hifi5_tool" "models (HiFi 5 emulated)" "$SHARED/conformance/models"
  fi
}

# every suite's cases summed over its parts, per tool: "conformance ops2:
# 1025 passed, 0 failed" (the counts docs/ quote)
conformance_totals() {
  local i
  for ((i = 0; i < njob; i++)); do cat "$jobdir/$i.out" 2>/dev/null; done |
    sed -n 's/^conformance \([a-z0-9_]*\)\( part [0-9]*\/[0-9]*\)\{0,1\}\( (.*)\)\{0,1\}: \([0-9]*\) passed, \([0-9]*\) failed.*/\1\3|\4|\5/p' |
    awk -F'|' '{ p[$1] += $2; f[$1] += $3; if (!($1 in o)) { o[$1] = n++; k[n - 1] = $1 } }
      END { for (i = 0; i < n; i++) printf "conformance total %s: %d passed, %d failed\n", k[i], p[k[i]], f[k[i]] }'
}
finish() {
  local e=$(($(date +%s) - t_start))
  conformance_totals
  note "(${e} s with JOBS=$JOBS; each job's seconds in $jobdir)"
  if [ "$total_skip" != 0 ]; then
    note "($total_skip skipped: optional tools or ../shared missing, see SKIP lines)"
    echo "$total_pass passed, $total_fail failed, $total_skip skipped"
  else
    echo "$total_pass passed, $total_fail failed"
  fi
  [ "$total_fail" = 0 ]
  exit
}

# ---- one test (T=name) -----------------------------------------------------
if [ -n "${T:-}" ]; then
  t=$(basename "$T")
  t=${t%.c}
  t=${t%.sh}
  log=/dev/stderr
  if [ "$t" = test_platform_x86 ]; then
    run_x86_unit_test -msse4.1 /dev/stderr
    run_x86_unit_test -mavx2 /dev/stderr
  elif [ "$t" = x86_conformance ]; then
    x86_conformance models ops ops2 external models_ext weights
  elif [ "$t" = conformance ]; then
    rm -f "$xtool.done"
    build_tool
    queue_conformance
    run_queue
  elif [ -f "tests/$t.c" ]; then
    if grep -q '^#ifndef TFLC_TEST_LINKED' "tests/$t.c"; then build_test_lib; fi
    run_unit_test "tests/$t.c" /dev/stderr
  elif [ -f "tests/$t.sh" ]; then
    build_tool
    build_examples >/dev/null
    run_shell_test "tests/$t.sh"
  else
    note "T=$T: no tests/$t.c or tests/$t.sh"
    total_fail=$((total_fail + 1))
  fi
  finish
fi

# ---- everything ------------------------------------------------------------
# Stage 1: what the tests need built, side by side.
note "== builds (JOBS=$JOBS)"
rm -f "$xtool.done"
queue "the tool" build_tool
queue "the library for the unit tests" build_test_lib
queue "demo and micro_speech" build_examples
run_queue

# Stage 2: every test, the longest first. Under SANITIZE=1 only what the
# sanitizers instrument runs again (the unit tests, the sanitized tool's
# shell tests and conformance): the cross-compiled harnesses, the checks of
# documents and build files, and the build tests run the same commands in
# both passes, so the plain pass covers them.
note "== tests"
# (arena_test: the arena figures of every case, the same in both builds;
# the sanitized tool runs every case in the conformance jobs)
plain_only=" m55_test m4_test clang_arm_test hifi_m4_test m4_platform_test fuzz_target_test micro_speech_test api_doc_test python_test integration_test fp_contract_test docs_figures_test standalone_test plan_test arena_test "
runs_here() { # shell test name: 0 when this pass runs it
  [ -z "$san" ] && return 0
  case $plain_only in *" $1 "*) return 1 ;; esac
  return 0
}
[ -n "$san" ] && note "(SANITIZE=1: not run again here:$plain_only; nor the build tests but the sanitized lean one, nor the README operator list)"
long_tests="fp_contract_test m55_test clang_arm_test m4_platform_test fuzz_target_test plan_test python_test m4_test hifi_m4_test"
for t in $long_tests; do
  [ -f "tests/$t.sh" ] && runs_here "$t" && queue "$t" run_shell_test "tests/$t.sh"
done
# the shell tests that read the demo's models, one after another
demo_tests=""
for t in cli_test arena_exact_test quickstart_test integration_test; do
  [ -f "tests/$t.sh" ] && runs_here "$t" && demo_tests="$demo_tests tests/$t.sh"
done
[ -n "$demo_tests" ] && queue "shell tests on the demo models" run_shell_test $demo_tests
if [ "$have_shared" = 1 ]; then
  queue_conformance
else
  queue "conformance" skip "conformance suites: $SHARED/conformance not found (the optional ../shared suites; SHARED=path)"
fi
# docs_figures_test reads the suites' counts from the conformance jobs, so
# it runs after them (below) instead of running every suite again
after_pool=""
[ "$have_shared" = 1 ] && runs_here docs_figures_test && after_pool=tests/docs_figures_test.sh
for t in tests/*_test.sh; do
  case " $demo_tests $long_tests $after_pool " in
  *" $t "* | *" $(basename "$t" .sh) "*) continue ;;
  esac
  runs_here "$(basename "$t" .sh)" && queue "$(basename "$t" .sh)" run_shell_test "$t"
done
for src in tests/test_*.c; do
  [ "$src" = tests/test_platform_x86.c ] && continue # below, at -msse4.1/-mavx2
  queue "$(basename "$src" .c)" run_unit_test "$src"
done
queue "test_platform_x86 -msse4.1" run_x86_unit_test -msse4.1
queue "test_platform_x86 -mavx2" run_x86_unit_test -mavx2
if [ -z "$san" ]; then
  queue "build tests: C, C++" build_tests_c
  queue "build tests: tflc_write.h" build_tests_write
  queue "build tests: cross compilers" build_tests_cross
  queue "build tests: configurations" build_tests_config
  queue "README operator list" readme_ops
else
  queue "build tests: lean, sanitized" check "tests/test_lean.c with TFLC_NO_ERROR_STRINGS (sanitized)" bash -c "$CC -std=c99 $WARN -O1 $san -DTFLC_NO_ERROR_STRINGS -o $out/test_lean_noerr tests/test_lean.c -lm && $out/test_lean_noerr | tail -n 1 | grep -q ' 0 failed'"
fi
run_queue
if [ -n "$after_pool" ]; then
  conformance_totals >"$out/conformance_totals.txt"
  CONFORMANCE_TOTALS=$out/conformance_totals.txt run_shell_test $after_pool
fi
finish

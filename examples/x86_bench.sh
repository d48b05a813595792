#!/usr/bin/env bash
# x86-64 benchmark under callgrind (make bench-x86): instructions of one
# tflc_invoke after a warm-up invoke (examples/x86_bench.c, collected with
# --toggle-collect=measured), for person_detect, vww_96_int8 (MLPerf Tiny)
# and MobileNetV2, each built gcc -O2 (portable C), -O2 -msse4.1 and -O2
# -mavx2, beside TFLM's reference kernels from ../shared/reference/PEERS.md
# (TFLM built with its Makefile, gcc 12.2, release; no optimized x86
# kernels). Every run's output is compared with TFLM's bytes.
#   examples/x86_bench.sh [CASE_DIR...]   (default: the three models)
# Prints a Markdown table (docs/measured.md) and the ratios TFLM / tflc.
set -eu
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
CC=${CC:-gcc}
out=build/bench-x86
mkdir -p "$out"
[ $# -gt 0 ] || set -- \
  "$SHARED/conformance/models/person_detect/person" \
  "$SHARED/conformance/external/mlperf_tiny/vww_96_int8/seed1" \
  "$SHARED/conformance/models/mobilenet_v2/seed1"
cases=""
for c in "$@"; do cases="$cases $c/model.tflite"; done
. examples/bench_need.sh
bench_need x86_bench.sh "$CC" valgrind $cases
tflm() { # TFLM reference instructions per invoke (PEERS.md, x86-64), or -
  case $1 in
  */person_detect/*) echo 116420994 ;;
  */vww_96_int8/*) echo 121088893 ;;
  */mobilenet_v2/*) echo 4314286733 ;;
  *) echo - ;;
  esac
}
label() {
  case $1 in
  */person_detect/*) echo person_detect ;;
  */vww_96_int8/*) echo "vww_96_int8 (MLPerf Tiny)" ;;
  */mobilenet_v2/*) echo "MobileNetV2 224 (int8)" ;;
  *) basename "$(dirname "$1")" ;;
  esac
}
WARN="-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror"
for v in portable sse41 avx2; do
  case $v in
  portable) flags="-O2" ;;
  sse41) flags="-O2 -msse4.1" ;;
  avx2) flags="-O2 -mavx2" ;;
  esac
  # shellcheck disable=SC2086
  $CC -std=c99 $flags $WARN -o "$out/x86_bench_$v" examples/x86_bench.c -lm
done
fmt() { # 1234567 -> 1,234,567
  printf '%s' "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'
}
ratio() { # a / b with one decimal, or -
  if [ "$1" = - ] || [ -z "$2" ] || [ "$2" = "?" ]; then echo -; else
    awk -v a="$1" -v b="$2" 'BEGIN{printf "%.1fx", a / b}'
  fi
}
echo "| model | TFLM reference | tflc -O2 (portable) | tflc -O2 -msse4.1 | tflc -O2 -mavx2 | TFLM / portable | TFLM / SSE4.1 | TFLM / AVX2 |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
bad=0
for c in "$@"; do
  name=$(label "$c")
  ref=$(tflm "$c")
  declare -A n=()
  for v in portable sse41 avx2; do
    log=$out/$(echo "$name" | tr -c 'A-Za-z0-9_\n' _)_$v.log
    if valgrind --tool=callgrind --toggle-collect=measured \
      --callgrind-out-file="$out/callgrind.$v.out" "$out/x86_bench_$v" \
      "$c/model.tflite" "$c/input_0.bin" "$c/output_0.bin" >"$log" 2>&1; then
      n[$v]=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$log")
    else
      n[$v]="?"
      bad=1
      echo "x86_bench: $name $v failed or differs from TFLM (see $log)" >&2
    fi
  done
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" \
    "$([ "$ref" = - ] && echo "not in PEERS.md" || fmt "$ref")" \
    "$(fmt "${n[portable]}")" "$(fmt "${n[sse41]}")" "$(fmt "${n[avx2]}")" \
    "$(ratio "$ref" "${n[portable]}")" "$(ratio "$ref" "${n[sse41]}")" \
    "$(ratio "$ref" "${n[avx2]}")"
  unset n
done
echo
echo "callgrind instructions of one invoke after a warm-up (gcc $($CC -dumpversion), outputs byte-identical with TFLM's)"
exit $bad

#!/usr/bin/env bash
# Cortex-M4F benchmark on QEMU mps2-an386 (../shared/tools/cortex-m4-qemu):
# for each conformance case, builds examples/m4_bench.c with the model,
# input and TFLM's expected output compiled in, runs it, and prints the
# exact instruction count of one tflc_invoke, arena, stack, flash.
#   examples/m4_bench.sh [CASE_DIR...]     (default: the benchmark models)
# The last columns give TFLM + CMSIS-NN's instructions for the same case
# (../shared/reference/PEERS.md, same harness and protocol) and the ratio.
#   OPT=-Os M4_CFLAGS="-include build/pd_ops.h" examples/m4_bench.sh   variants (a TFLC_OPS line from `tflc ops`)
#   M4_JSON=1 examples/m4_bench.sh ...  also instructions per operator (a
#     second, profiled invoke) as JSON in build/m4/CASE/ops.json
set -eu
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
H=$SHARED/tools/cortex-m4-qemu
OPT=${OPT:--O2}
M=$SHARED/conformance/external/mlperf_tiny
[ $# -gt 0 ] || set -- \
  "$SHARED/conformance/models/person_detect/person" \
  "$SHARED/conformance/models/compressed/pd_all_w4/meta" \
  "$SHARED/conformance/models/compressed/pd_all_w4/decode" \
  "$SHARED/conformance/models/micro_speech/seed1" \
  "$SHARED/conformance/models/compressed/ms_dw_axis3_a/meta" \
  "$M/kws_ref_model/seed1" "$M/vww_96_int8/seed1" \
  "$M/pretrainedResnet_quant/seed1" "$M/ad01_int8/seed1"
peer() { # TFLM + CMSIS-NN instructions per invoke (PEERS.md), or -
  case $1 in
  models_person_detect_person) echo 22928453 ;;
  models_micro_speech_seed1) echo 1495392 ;;
  external_mlperf_tiny_kws_ref_model_seed1) echo 7696912 ;;
  external_mlperf_tiny_vww_96_int8_seed1) echo 24101966 ;;
  external_mlperf_tiny_pretrainedResnet_quant_seed1) echo 29864093 ;;
  external_mlperf_tiny_ad01_int8_seed1) echo 582964 ;;
  *) echo - ;;
  esac
}
carray() { # name file
  printf 'const unsigned char %s[] __attribute__((aligned(16))) = {\n' "$1"
  od -An -v -tx1 "$2" | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'
  printf '};\nconst unsigned int %s_len = %s;\n' "$1" "$(stat -c %s "$2")"
}
printf '%-50s %12s %8s %7s %8s %8s %12s %6s  %s\n' case instructions arena stack text model cmsis-nn ratio output
for c in "$@"; do
  name=$(echo "${c#"$SHARED"/conformance/}" | tr '/' '_')
  out=build/m4/$name
  mkdir -p "$out"
  { carray m4_model "$c/model.tflite"; carray m4_input "$c/input_0.bin"
    carray m4_expect "$c/output_0.bin"; } >"$out/data.c"
  rm -rf "$out/bench.obj" # the harness rules do not see header changes
  make -s -f "$H/Makefile" OUT="$out/bench" SRCS="examples/m4_bench.c $out/data.c" \
    OPT="$OPT" EXTRA_CFLAGS="-I. -I$H ${M4_CFLAGS:-} ${M4_JSON:+-DTFLC_M4_BENCH_OPS}" >"$out/build.log" 2>&1 || { echo "$name: build failed ($out/build.log)"; continue; }
  res=$(timeout 600 "$H/run.sh" "$out/bench.elf" 2>&1 || true)
  if [ -n "${M4_JSON:-}" ]; then
    echo "$res" | sed -n 's/^ops-json: \({.*\)/\1/p' >"$out/ops.json"
  fi
  insns=$(echo "$res" | sed -n 's/^invoke: \([0-9]*\) instructions/\1/p')
  arena=$(echo "$res" | sed -n 's/^arena: \([0-9]*\) bytes/\1/p')
  stack=$(echo "$res" | sed -n 's/^stack: \([0-9]*\) bytes.*/\1/p')
  ok=$(echo "$res" | grep -q 'identical to TFLM' && echo identical || echo "$res" | tail -n 1)
  text=$(arm-none-eabi-size "$out/bench.elf" | awk 'NR==2{print $1}')
  p=$(peer "$name")
  ratio=-
  [ "$p" != - ] && [ -n "$insns" ] && ratio=$(awk -v a="$insns" -v b="$p" 'BEGIN{printf "%.2f", a / b}')
  printf '%-50s %12s %8s %7s %8s %8s %12s %6s  %s\n' "$name" "${insns:-?}" "${arena:-?}" \
    "${stack:-?}" "$text" "$(stat -c %s "$c/model.tflite")" "$p" "$ratio" "$ok"
done

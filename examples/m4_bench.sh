#!/usr/bin/env bash
# Cortex-M benchmark on QEMU: TARGET=m4 (default; Cortex-M4F, mps2-an386,
# ../shared/tools/cortex-m4-qemu) or TARGET=m55 (Cortex-M55 with MVE,
# mps3-an547, ../shared/tools/cortex-m55-qemu). For each conformance case,
# builds examples/m4_bench.c with the model, input and TFLM's expected
# output compiled in, runs it, and prints the exact instruction count of
# one tflc_invoke, arena, stack, flash. Protocol of
# ../shared/reference/PEERS.md: a warm-up invoke (checked against TFLM's
# output), the input written again, the measured invoke.
#   examples/m4_bench.sh [CASE_DIR...]     (default: the benchmark models
#                                           and the two field models)
# On the M4 the column "cycles" is the estimated Cortex-M4 cycles of the
# measured invoke (examples/m4_cycles.py over the instruction mix the
# harness's insnwin plugin records; its cost table is in that file), "-"
# when the host cannot build the plugin.
# The last columns give TFLM + CMSIS-NN's instructions for the same case
# (../shared/reference/PEERS.md, same harness and protocol; on the M55
# CMSIS-NN's MVE kernels, the field models' figures measured the same way,
# docs/measured.md) and the ratio. On the M55 a second build with
# TFLC_NO_MVE (the Arm DSP primitives only) adds the column "no-mve"
# (NOMVE=0 leaves it out).
#   OPT=-Os M4_CFLAGS="-include build/pd_ops.h" examples/m4_bench.sh   variants (a TFLC_OPS line from `tflc ops`)
#   M4_CC=clang examples/m4_bench.sh ...  the program and harness built by
#     clang (--target=arm-none-eabi, newlib's headers; on the M4 with
#     -munaligned-access, the flag README gives), linked by arm-none-eabi-gcc
#   BENCH_OUT=DIR examples/m4_bench.sh ...  the builds in DIR/CASE instead
#     of build/$TARGET/CASE (build/$TARGET-clang/CASE with M4_CC=clang)
#   M4_JSON=1 examples/m4_bench.sh ...  also instructions per operator (a
#     second, profiled invoke) as JSON in CASE/ops.json of the builds' folder
set -eu
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
TARGET=${TARGET:-m4}
case $TARGET in
m4) H=$SHARED/tools/cortex-m4-qemu NOMVE=0 ;;
m55) H=$SHARED/tools/cortex-m55-qemu NOMVE=${NOMVE:-1} ;;
*) echo "TARGET=$TARGET: m4 or m55" >&2; exit 2 ;;
esac
. examples/bench_need.sh
OPT=${OPT:--O2}
# M4_CC=clang: the harness Makefile's compiler replaced, its linker kept
ccflags=() bdir=${BENCH_OUT:-build/$TARGET}
if [ "${M4_CC:-}" = clang ]; then
  newlib=$(dirname "$(arm-none-eabi-gcc -print-file-name=libc.a)")/../include
  [ -f "$newlib/math.h" ] || newlib=/usr/lib/arm-none-eabi/include
  cl="clang --target=arm-none-eabi -isystem $newlib"
  [ "$TARGET" = m4 ] && cl="$cl -munaligned-access"
  ccflags=("CC=$cl" "LINKER=arm-none-eabi-gcc") bdir=${BENCH_OUT:-build/$TARGET-clang}
fi
M=$SHARED/conformance/external/mlperf_tiny
if [ $# -eq 0 ]; then
  set -- "$SHARED/conformance/models/person_detect/person"
  [ "$TARGET" = m4 ] && set -- "$@" \
    "$SHARED/conformance/models/compressed/pd_all_w4/meta" \
    "$SHARED/conformance/models/compressed/pd_all_w4/decode"
  set -- "$@" "$SHARED/conformance/models/micro_speech/seed1"
  [ "$TARGET" = m4 ] && set -- "$@" "$SHARED/conformance/models/compressed/ms_dw_axis3_a/meta"
  set -- "$@" "$M/kws_ref_model/seed1" "$M/vww_96_int8/seed1" \
    "$M/pretrainedResnet_quant/seed1" "$M/ad01_int8/seed1"
  F=$SHARED/conformance/external/field
  set -- "$@" "$F/mcunet_vww/seed1" "$F/microwakeword_okay_nabu_v2/seed1"
fi
peer() { # TFLM + CMSIS-NN instructions per invoke (PEERS.md), or -
  case $TARGET:$1 in
  m4:models_person_detect_person) echo 22928453 ;;
  m4:models_micro_speech_seed1) echo 1495392 ;;
  m4:external_mlperf_tiny_kws_ref_model_seed1) echo 7696912 ;;
  m4:external_mlperf_tiny_vww_96_int8_seed1) echo 24101966 ;;
  m4:external_mlperf_tiny_pretrainedResnet_quant_seed1) echo 29864093 ;;
  m4:external_mlperf_tiny_ad01_int8_seed1) echo 582964 ;;
  m4:external_field_mcunet_vww_seed1) echo 48626870 ;;
  m4:external_field_microwakeword_okay_nabu_v2_seed1) echo 193869 ;;
  m55:models_person_detect_person) echo 6508101 ;;
  m55:models_micro_speech_seed1) echo 1008239 ;;
  m55:external_mlperf_tiny_kws_ref_model_seed1) echo 1812651 ;;
  m55:external_mlperf_tiny_vww_96_int8_seed1) echo 6558350 ;;
  m55:external_mlperf_tiny_pretrainedResnet_quant_seed1) echo 4912176 ;;
  m55:external_mlperf_tiny_ad01_int8_seed1) echo 150009 ;;
  m55:external_field_mcunet_vww_seed1) echo 11958920 ;;
  m55:external_field_microwakeword_okay_nabu_v2_seed1) echo 74360 ;;
  *) echo - ;;
  esac
}
carray() { # name file
  printf 'const unsigned char %s[] __attribute__((aligned(16))) = {\n' "$1"
  od -An -v -tx1 "$2" | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'
  printf '};\nconst unsigned int %s_len = %s;\n' "$1" "$(stat -c %s "$2")"
}
res="" insns="" ok=""
run_one() { # out_prefix extra_cflags: build and run; sets res, insns, ok
  rm -rf "$1.obj" # the harness rules do not see header changes
  insns="" ok=""
  if ! make -s -f "$H/Makefile" ${ccflags[@]+"${ccflags[@]}"} OUT="$1" SRCS="examples/m4_bench.c $(dirname "$1")/data.c" \
    OPT="$OPT" EXTRA_CFLAGS="-I. -I$H ${M4_CFLAGS:-} ${M4_JSON:+-DTFLC_M4_BENCH_OPS} $2" >"$1.log" 2>&1; then
    res="" ok="build failed ($1.log)"
    return
  fi
  if [ -n "$plugin" ]; then
    local b e
    b=$(arm-none-eabi-nm "$1.elf" | awk '$3=="bench_begin"{print "0x"$1}')
    e=$(arm-none-eabi-nm "$1.elf" | awk '$3=="bench_end"{print "0x"$1}')
    res=$(timeout 600 "$H/run.sh" "$1.elf" 0 \
      -plugin "$plugin,begin=$b,end=$e,prof=$1.prof,profwin=0" 2>&1 || true)
  else
    res=$(timeout 600 "$H/run.sh" "$1.elf" 2>&1 || true)
  fi
  insns=$(echo "$res" | sed -n 's/^invoke: \([0-9]*\) instructions/\1/p')
  ok=$(echo "$res" | grep -q 'identical to TFLM' && echo identical || echo "$res" | tail -n 1)
}
cases=""
for c in "$@"; do cases="$cases $c/model.tflite"; done
bench_need m4_bench.sh arm-none-eabi-gcc arm-none-eabi-size qemu-system-arm "$H/Makefile" "$H/run.sh" $cases
failed=0
extra=""
[ "$NOMVE" = 1 ] && extra=no-mve
plugin=""
if [ "$TARGET" = m4 ] && command -v python3 >/dev/null && mkdir -p build/m4 &&
  gcc -O2 -shared -fPIC -o build/m4/libinsnwin.so "$H/plugin/insnwin.c" 2>/dev/null; then
  plugin=build/m4/libinsnwin.so
fi
printf '%-50s %12s %12s %8s %7s %8s %8s %12s %6s %12s  %s\n' case instructions cycles arena stack text model cmsis-nn ratio "$extra" output
for c in "$@"; do
  name=$(echo "${c#"$SHARED"/conformance/}" | tr '/' '_')
  out=$bdir/$name
  mkdir -p "$out"
  { carray m4_model "$c/model.tflite"; carray m4_input "$c/input_0.bin"
    carray m4_expect "$c/output_0.bin"; } >"$out/data.c"
  nomve=""
  if [ "$NOMVE" = 1 ]; then
    run_one "$out/bench_nomve" -DTFLC_NO_MVE
    nomve=${insns:-?}
    [ "$ok" = identical ] || nomve="$nomve($ok)"
  fi
  rm -f "$out/bench.prof"
  run_one "$out/bench" ""
  cycles=-
  if [ -n "$plugin" ] && [ -s "$out/bench.prof" ]; then
    cycles=$(python3 examples/m4_cycles.py --json "$out/bench.elf" "$out/bench.prof" |
      sed -n 's/.*"cycles": \([0-9]*\).*/\1/p')
  fi
  if [ -n "${M4_JSON:-}" ]; then
    echo "$res" | sed -n 's/^ops-json: \({.*\)/\1/p' >"$out/ops.json"
  fi
  arena=$(echo "$res" | sed -n 's/^arena: \([0-9]*\) bytes/\1/p')
  stack=$(echo "$res" | sed -n 's/^stack: \([0-9]*\) bytes.*/\1/p')
  text=$(arm-none-eabi-size "$out/bench.elf" 2>/dev/null | awk 'NR==2{print $1}')
  p=$(peer "$name")
  ratio=-
  [ "$ok" = identical ] || failed=$((failed + 1))
  [ "$p" != - ] && [ -n "$insns" ] && ratio=$(awk -v a="$insns" -v b="$p" 'BEGIN{printf "%.2f", a / b}')
  printf '%-50s %12s %12s %8s %7s %8s %8s %12s %6s %12s  %s\n' "$name" "${insns:-?}" "${cycles:--}" "${arena:-?}" \
    "${stack:-?}" "${text:-?}" "$(stat -c %s "$c/model.tflite")" "$p" "$ratio" "$nomve" "$ok"
done
if [ "$failed" != 0 ]; then
  echo "m4_bench.sh: $failed of $# cases failed ($bdir/*/bench.log)" >&2
  exit 1
fi

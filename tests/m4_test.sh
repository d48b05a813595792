#!/usr/bin/env bash
# tflc on a Cortex-M4F (QEMU mps2-an386, ../shared/tools/cortex-m4-qemu):
# models in flash at 16-byte aligned and at odd addresses give TFLM's
# bytes, and the arena `tflc info --target 32` prints is exact there (it
# works, one byte less fails), also for operators whose persistent state
# holds pointers (SIGNAL_*, ADD_N's pointer scratch, FULLY_CONNECTED's
# weight and bias addresses, whose records exist at prepare only). Needs
# arm-none-eabi-gcc, qemu-system-arm and
# the harness; skipped without them (a failure with TFLC_REQUIRE_ALL=1).
set -u
TFLC=${TFLC:-build/tflc}
SHARED=${SHARED:-../shared}
H=$SHARED/tools/cortex-m4-qemu
C=$SHARED/conformance
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL m4: $*"; }
missing=""
command -v arm-none-eabi-gcc >/dev/null || missing="$missing arm-none-eabi-gcc"
command -v qemu-system-arm >/dev/null || missing="$missing qemu-system-arm"
[ -f "$H/Makefile" ] || missing="$missing $H"
[ -d "$C/models/person_detect" ] || missing="$missing $C"
if [ -n "$missing" ]; then
  if [ "${TFLC_REQUIRE_ALL:-0}" = 1 ]; then
    echo "FAIL m4: missing:$missing"
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "SKIP m4: missing:$missing"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
out=build/tests/m4
mkdir -p "$out"
# case name, folder, byte offset of the model in flash, exact arena (1: ask
# tflc info --target 32; 0: none, a large arena)
cases="person_detect:models/person_detect/person:0:1
person_detect_odd:models/person_detect/person:1:0
transpose_conv0:external/tflm_tests/seanet/transpose_conv0:0:1
transpose_conv0_odd:external/tflm_tests/seanet/transpose_conv0:3:0
micro_speech:models/micro_speech/seed1:0:1
ad01:external/mlperf_tiny/ad01_int8/seed1:0:1
ad01_odd:external/mlperf_tiny/ad01_int8/seed1:1:0
fc_pc_nobias:ops/FULLY_CONNECTED/i8_in3x20_o5_pc_nobias_relu_zp127:0:1
fc_f32:ops/FULLY_CONNECTED/f32_in1x16_o8_pt_none:0:1
ms_meta:models/compressed/ms_dw_axis3_a/meta:0:1
rfft:ops2/SIGNAL_RFFT/f32_256_fft256:0:1
overlap_add:ops2/SIGNAL_OVERLAP_ADD/f32_1x16_step16:0:1
stacker:ops2/SIGNAL_STACKER/i16_16_left0_step1:0:1
spectral_subtraction:ops2/SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION/loop_u32_t5_ch12_sm8000_b6_clamp:0:1
add_n:ops2/ADD_N/f32_1x4x4x3_n2:0:1
vww_96:external/mlperf_tiny/vww_96_int8/seed1:0:1"
carray() { # name, file, leading pad bytes
  printf 'static const unsigned char %s[] __attribute__((aligned(16))) = {\n' "$1"
  [ "$3" -gt 0 ] && printf '0x00,%.0s' $(seq "$3") && echo
  od -An -v -tx1 "$2" | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'
  printf '};\n'
}
{
  echo '#include "m4_target.h"'
  table=""
  n=0
  for line in $cases; do
    IFS=: read -r name dir off exact <<<"$line"
    d=$C/$dir
    [ -f "$d/model.tflite" ] && [ ! -f "$d/input_2.bin" ] || continue
    arena=0 small=0
    if [ "$exact" = 1 ]; then
      "$TFLC" info "$d/model.tflite" --target 32 --json >"$out/info.json"
      arena=$(sed -n 's/.*"arena_used_bytes": \([0-9]*\).*/\1/p' "$out/info.json")
      small=$(sed -n 's/.*"arena_smallest_bytes": \([0-9]*\).*/\1/p' "$out/info.json")
      [ -n "$arena" ] || { bad "$name: no arena from tflc info --target 32"; arena=0; }
    fi
    carray "m$n" "$d/model.tflite" "$off"
    carray "i$n" "$d/input_0.bin" 0
    in1="0" len1=0
    if [ -f "$d/input_1.bin" ]; then
      carray "j$n" "$d/input_1.bin" 0
      in1="j$n" len1=$(stat -c %s "$d/input_1.bin")
    fi
    carray "e$n" "$d/output_0.bin" 0
    table="$table  {\"$name\", m$n + $off, $(stat -c %s "$d/model.tflite"), {i$n, $in1}, {$(stat -c %s "$d/input_0.bin"), $len1}, e$n, $(stat -c %s "$d/output_0.bin"), $arena, ${small:-0}},
"
    n=$((n + 1))
  done
  printf 'const m4_case m4_cases[] = {\n%s};\nconst int m4_num_cases = %d;\n' "$table" "$n"
} >"$out/cases.c"
printf '#define TFLC_IMPLEMENTATION\n#include "tflc.h"\n' >"$out/impl.c"
rm -rf "$out/m4.obj" # the harness rules do not see header changes
if ! make -s -f "$H/Makefile" OUT="$out/m4" SRCS="tests/m4_target.c $out/cases.c $out/impl.c" \
  OPT=-O2 EXTRA_CFLAGS="-I. -Itests" >"$out/build.log" 2>&1; then
  bad "build failed: $(tail -n 3 "$out/build.log")"
  echo "$pass passed, $fail failed"
  exit 1
fi
res=$(timeout 600 "$H/run.sh" "$out/m4.elf" 2>&1)
echo "$res" | sed 's/^/  /'
pass=$((pass + $(echo "$res" | grep -c '^ok ')))
fail=$((fail + $(echo "$res" | grep -c '^FAIL ')))
[ "$(echo "$res" | grep -c '^ok \|^FAIL ')" = "$(grep -c '^  {"' "$out/cases.c")" ] || bad "not every case reported"
# The header `tflc ops --config` writes for person_detect (its operators,
# the features and the kernel paths it does not use left out) gives the
# same bytes as the full build, in no more instructions: the paths it
# leaves out are none the model takes.
pd=$C/models/person_detect/person
if "$TFLC" ops "$pd/model.tflite" --config -o "$out/pd_config.h" &&
  grep -q '^#define TFLC_NO_CONV_WINDOWS$' "$out/pd_config.h" &&
  grep -q '^#define TFLC_NO_DW_ANY_FILTER$' "$out/pd_config.h"; then
  ok
else
  bad "tflc ops --config: person_detect's header without the kernel-path options"
fi
full=$(SHARED=$SHARED BENCH_OUT=$out/bench_full bash examples/m4_bench.sh "$pd" 2>&1 | tail -n 1)
cfg=$(SHARED=$SHARED BENCH_OUT=$out/bench_cfg M4_CFLAGS="-include $out/pd_config.h" \
  bash examples/m4_bench.sh "$pd" 2>&1 | tail -n 1)
set -- $full
full_n=${2:-x} full_out=${!#}
set -- $cfg
cfg_n=${2:-x} cfg_out=${!#}
echo "  person_detect: full build $full_n instructions ($full_out), ops --config build $cfg_n ($cfg_out)"
if [ "$full_out" = identical ] && [ "$cfg_out" = identical ] &&
  [ "$full_n" -ge "$cfg_n" ] 2>/dev/null; then
  ok
else
  bad "person_detect with its ops --config header: $cfg (full build: $full)"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

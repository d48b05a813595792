#!/usr/bin/env bash
# Flash of the person_detect program on the Cortex-M4 (QEMU harness of
# ../shared/tools/cortex-m4-qemu), build by build: text + rodata + data of
# the linked program minus the model, input and expected-output arrays
# (data.o), as the harness's map_sizes.py counts them, with and without
# the harness; -O2 and -Os; each build's instructions per invoke and its
# output check (examples/m4_bench.sh). docs/measured.md's flash table comes from it.
#   make flash-m4          (SHARED=../shared)
set -eu
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
P=$SHARED/conformance/models/person_detect/person
. examples/bench_need.sh
bench_need m4_flash.sh arm-none-eabi-gcc arm-none-eabi-size qemu-system-arm python3 \
  "$SHARED/tools/cortex-m4-qemu/Makefile" "$SHARED/tools/cortex-m4-qemu/map_sizes.py" "$P/model.tflite"
mkdir -p build
printf '#define TFLC_OPS(X) X(AVERAGE_POOL_2D) X(CONV_2D) X(DEPTHWISE_CONV_2D) X(RESHAPE) X(SOFTMAX)\n' >build/pd_ops.h
OPS="-include build/pd_ops.h"
NOSTR="$OPS -DTFLC_NO_ERROR_STRINGS"
INT8="$NOSTR -DTFLC_INT8_ONLY"
ALLPATHS="$INT8 -DTFLC_NO_COMPRESSION -DTFLC_NO_SUBGRAPHS -DTFLC_NO_DELEGATES -DTFLC_NO_USER_OPS -DTFLC_NO_PATCHES"
# lean: the header `tflc ops --config` writes for the model, which also
# leaves out the kernel paths its layers do not take
make -s build/tflc
build/tflc ops "$P/model.tflite" --config -o build/pd_config.h
LEAN="-include build/pd_config.h -DTFLC_NO_ERROR_STRINGS -DTFLC_NO_PATCHES"
printf '%-8s %-4s %12s %12s %12s  %s\n' build opt "with harness" "no harness" instructions output
for row in "every|" "ops|$OPS" "nostr|$NOSTR" "int8|$INT8" "allpaths|$ALLPATHS" "lean|$LEAN"; do
  name=${row%%|*}
  flags=${row#*|}
  for opt in -O2 -Os; do
    rm -rf build/m4
    line=$(OPT=$opt M4_CFLAGS="$flags" SHARED=$SHARED bash examples/m4_bench.sh "$P" | tail -1)
    sizes=$(python3 "$SHARED/tools/cortex-m4-qemu/map_sizes.py" \
      build/m4/models_person_detect_person/bench.map --rule 'model=data\.o' |
      awk '$1=="model"{m=$NF} $1=="harness"{h=$NF} $1=="TOTAL"{t=$NF}
           END{printf "%12d %12d", t-m, t-m-h}')
    set -- $line
    printf '%-8s %-4s %s %12s  %s\n' "$name" "$opt" "$sizes" "$2" "${!#}"
  done
done
echo "builds: every = all operators; ops = TFLC_OPS (person_detect's 5);"
echo "nostr = + TFLC_NO_ERROR_STRINGS; int8 = + TFLC_INT8_ONLY; allpaths = + TFLC_NO_COMPRESSION"
echo "TFLC_NO_SUBGRAPHS TFLC_NO_DELEGATES TFLC_NO_USER_OPS TFLC_NO_PATCHES (every kernel path kept);"
echo "lean = build/pd_config.h (tflc ops --config: allpaths' options + TFLC_NO_CONV_WINDOWS TFLC_NO_DW_ANY_FILTER)"
echo "+ TFLC_NO_ERROR_STRINGS TFLC_NO_PATCHES. TFLM + CMSIS-NN int8-only: 46,452 with harness (PEERS.md)"

#!/usr/bin/env bash
# LUT decode throughput per index width 1..8 (examples/decode_bench.c):
# int8 bytes decoded per instruction on the Cortex-M4 harness (QEMU,
# exact counts) and on this host (callgrind: exact instruction counts of
# decode_tiles; plus the median time and TSC cycles of a native run).
#   examples/decode_bench.sh            (make bench-decode)
# Needs valgrind, arm-none-eabi-gcc, qemu-system-arm and the harness of
# ../shared; without one it prints what is missing and exits 1
# (PARTIAL=1: run the parts it can).
set -eu
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
H=$SHARED/tools/cortex-m4-qemu
OPT=${OPT:--O2}
if [ "${PARTIAL:-0}" != 1 ]; then
  . examples/bench_need.sh
  bench_need decode_bench.sh "${CC:-cc}" valgrind arm-none-eabi-gcc qemu-system-arm "$H/Makefile"
fi
CC=${CC:-cc}
out=build/decode_bench
mkdir -p "$out"
elems=16384
repeats=31
"$CC" -std=c99 -D_POSIX_C_SOURCE=200809L $OPT -g -Wall -Wextra -Werror \
  -o "$out/decode_bench" examples/decode_bench.c -lm
echo "== host ($(uname -m), $CC $OPT): native run"
"$out/decode_bench"
if command -v valgrind >/dev/null; then
  echo "== host ($(uname -m), $CC $OPT): callgrind, instructions of one pass over $elems values"
  printf '%4s  %5s  %12s  %s\n' bits bytes instructions bytes/instruction
  for b in 1 2 3 4 5 6 7 8; do
    valgrind --tool=callgrind --callgrind-out-file="$out/cg.$b" \
      --toggle-collect=decode_tiles "$out/decode_bench" "$b" >/dev/null 2>&1
    ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$out/cg.$b")
    awk -v b="$b" -v ir="$ir" -v n="$elems" -v r="$repeats" \
      'BEGIN{printf "%4d  %5d  %12d  %.3f\n", b, n, ir / r, n * r / ir}'
  done
else
  echo "(valgrind missing: no host instruction counts)"
fi
if command -v arm-none-eabi-gcc >/dev/null && [ -d "$H" ]; then
  echo "== Cortex-M4F (QEMU mps2-an386, arm-none-eabi-gcc $OPT): instructions of one pass over $elems values"
  rm -rf "$out/m4.obj"
  make -s -f "$H/Makefile" OUT="$out/m4" SRCS="examples/decode_bench.c" \
    OPT="$OPT" EXTRA_CFLAGS="-I. -I$H -DTFLC_DECODE_BENCH_M4" LIBS=-lm >"$out/m4.log" 2>&1 ||
    { echo "M4 build failed ($out/m4.log)"; exit 1; }
  "$H/run.sh" "$out/m4.elf"
else
  echo "(arm-none-eabi-gcc or $H missing: no Cortex-M4 figures)"
fi

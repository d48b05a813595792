#!/usr/bin/env bash
# The arena `tflc info` prints for this host is exact: a run of the
# fastest plan (TFLC_PLAN=fastest) with exactly that many bytes works, one
# byte less fails with "arena too small", whose "needs at least N" is no
# more than the exact figure; the JSON parts add up. The smallest plan's
# arena (arena_smallest_bytes) is exact too: with the plan the arena
# decides, it works and one byte less fails. (The Cortex-M4 side:
# tests/m4_test.sh; the plans: tests/plan_test.sh.)
set -u
TFLC=${TFLC:-build/tflc}
SHARED=${SHARED:-../shared}
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL arena_exact: $*"; }
[ -f build/demo_plain.tflite ] || { [ -f build/demo ] || make -s build/demo >/dev/null; ./build/demo >/dev/null; }
models="build/demo_plain.tflite build/demo_lut_metadata.tflite build/demo_lut_decode.tflite"
if [ -d "$SHARED/conformance" ]; then
  for d in models/person_detect/person models/micro_speech/seed1 \
    models/hello_world_int8/seed1 models/hello_world_float/seed1 \
    models/compressed/pd_all_w4/meta models/compressed/pd_all_w4/decode \
    models_ext/trained_lstm/seed1 external/tflm_tests/seanet/transpose_conv0 \
    external/mlperf_tiny/ad01_int8/seed1 \
    ops/COMPRESSED_RESOURCE_VARIABLE/i8_2x8_lut2_decode; do
    [ -f "$SHARED/conformance/$d/model.tflite" ] && models="$models $SHARED/conformance/$d/model.tflite"
  done
fi
num() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$2"; }
for m in $models; do
  "$TFLC" info "$m" --json >build/tests/ae.json 2>/dev/null || { bad "info $m"; continue; }
  n=$(num arena_used_bytes build/tests/ae.json)
  p=$(num arena_planned_bytes build/tests/ae.json)
  q=$(num arena_persistent_bytes build/tests/ae.json)
  r=$(num arena_rounding_bytes build/tests/ae.json)
  [ -n "$n" ] && [ $((p + q + r)) = "$n" ] && ok || bad "$m: $p + $q + $r != $n"
  TFLC_PLAN=fastest "$TFLC" run "$m" --random-inputs 1 --arena "$n" >/dev/null 2>build/tests/ae.err && ok || bad "$m: fails with $n bytes: $(cat build/tests/ae.err)"
  if TFLC_PLAN=fastest "$TFLC" run "$m" --random-inputs 1 --arena $((n - 1)) >/dev/null 2>build/tests/ae.err; then
    bad "$m: runs with $((n - 1)) bytes, info said $n"
  else
    grep -q 'arena too small' build/tests/ae.err && ok || bad "$m: $(cat build/tests/ae.err)"
    least=$(sed -n 's/.*needs at least \([0-9]*\) bytes.*/\1/p' build/tests/ae.err)
    [ -z "$least" ] || [ "$least" -le "$n" ] && ok || bad "$m: 'needs at least $least' > $n"
  fi
  s=$(num arena_smallest_bytes build/tests/ae.json)
  [ -n "$s" ] && [ "$s" -le "$n" ] && ok || bad "$m: smallest plan '$s' above the fastest $n"
  "$TFLC" run "$m" --random-inputs 1 --arena "$s" >/dev/null 2>build/tests/ae.err && ok || bad "$m: fails with the smallest plan's $s bytes: $(cat build/tests/ae.err)"
  if "$TFLC" run "$m" --random-inputs 1 --arena $((s - 1)) >/dev/null 2>build/tests/ae.err; then
    bad "$m: runs with $((s - 1)) bytes, info said the smallest plan needs $s"
  else
    grep -q 'arena too small' build/tests/ae.err && ok || bad "$m: $(cat build/tests/ae.err)"
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

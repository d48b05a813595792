#!/usr/bin/env bash
# Plans (tflc_options.plan): every conformance suite passes with every
# step wherever it applies (TFLC_PLAN=everywhere: each depthwise layer that
# can written over its input, each int8 convolution's requantization
# computed at invoke) and with each smaller plan forced (TFLC_PLAN=inplace,
# patches, compact; the smallest: tests/run.sh's "smallest plan" jobs),
# byte for byte against TFLM as tests/conformance.sh checks; the arena of
# each plan is exact: `tflc info --json` gives the fastest and the smallest
# arena, `tflc run --arena N` runs the fastest plan that fits N and says
# which, the smallest arena works and one byte less fails with the message
# naming both figures; the smallest plan is never above the fastest.
set -u
TFLC=${TFLC:-build/tflc}
SHARED=${SHARED:-../shared}
here=$(cd "$(dirname "$0")" && pwd)
C=$SHARED/conformance
[ -d "$C" ] || { echo "SKIP plan: no $C"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL plan: $*"; }
mkdir -p build/tests

# 1. the suites with every step everywhere and with each plan forced, in
# one `tflc conform` process a suite (TFLC_PLAN lists the plans: each case
# runs with every one, each output compared with TFLM's; the smallest plan:
# tests/run.sh queues every suite with TFLC_PLAN=smallest, as jobs)
for s in models ops models_ext ops2 external weights; do
  [ -d "$C/$s" ] || continue
  res=$(TFLC_PLAN=everywhere,inplace,patches,compact CONFORMANCE_BATCH=1 \
    bash "$here/conformance.sh" "$TFLC" "$C/$s" 2>&1)
  line=$(printf '%s\n' "$res" | tail -n 1)
  p=$(printf '%s' "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1/p')
  f=$(printf '%s' "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\2/p')
  if [ -n "$p" ] && [ "$f" = 0 ] && [ "$p" -gt 0 ]; then
    ok
  else
    printf '%s\n' "$res" | grep -E '^(FAIL|FIXED)' | head -n 10
    bad "conformance $s with TFLC_PLAN=everywhere,inplace,patches,compact: $line"
  fi
done

# 2. exact arenas of both plans, the plan the arena decides
num() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$2"; }
models=""
for d in models/person_detect/person external/mlperf_tiny/vww_96_int8/seed1 \
  external/field/mcunet_vww/seed1 models/micro_speech/seed1 \
  models/compressed/pd_all_w4/meta models/compressed/pd_all_w4/decode \
  external/mlperf_tiny/kws_ref_model/seed1 \
  external/mlperf_tiny/pretrainedResnet_quant/seed1; do
  [ -f "$C/$d/model.tflite" ] && models="$models $C/$d/model.tflite"
done
for m in $models; do
  "$TFLC" info "$m" --json >build/tests/plan.json 2>/dev/null || { bad "info $m"; continue; }
  F=$(num arena_fastest_bytes build/tests/plan.json)
  S=$(num arena_smallest_bytes build/tests/plan.json)
  if [ -z "$F" ] || [ -z "$S" ]; then bad "$m: no arena figures"; continue; fi
  [ "$S" -le "$F" ] && ok || bad "$m: smallest $S > fastest $F"
  case $m in # models where a smaller plan pays: the smallest runs a chain band by band
  */vww_96_int8/* | */person_detect/*)
    [ "$S" -lt "$F" ] && ok || bad "$m: smallest $S not below fastest $F"
    TFLC_PLAN=smallest "$TFLC" run "$m" --random-inputs 1 --json >build/tests/plan_s.json 2>/dev/null
    grep -q '"patch_rows": [1-9]' build/tests/plan_s.json && ok || bad "$m: the smallest plan runs no chain band by band"
    # every plan forced gives the same output bytes as the fastest
    for pl in inplace patches smallest everywhere; do
      TFLC_PLAN=$pl "$TFLC" run "$m" --random-inputs 1 | grep '^output' >build/tests/plan_p.txt
      "$TFLC" run "$m" --random-inputs 1 | grep '^output' >build/tests/plan_f.txt
      [ -s build/tests/plan_f.txt ] && cmp -s build/tests/plan_p.txt build/tests/plan_f.txt && ok || bad "$m: TFLC_PLAN=$pl: outputs differ from the fastest plan"
    done
    ;;
  esac
  "$TFLC" run "$m" --random-inputs 1 --json >build/tests/plan_f.json 2>/dev/null
  grep -q '"plan": "fastest"' build/tests/plan_f.json && ok || bad "$m: the default arena does not run the fastest plan"
  # the smallest plan's arena works, with that plan; one byte less fails
  if "$TFLC" run "$m" --random-inputs 1 --arena "$S" >build/tests/plan.out 2>build/tests/plan.err; then
    ok
    if [ "$S" -lt "$F" ]; then
      grep -qE '^plan: (in-place depthwise|patches|compact)' build/tests/plan.out && ok || bad "$m: --arena $S: $(grep '^plan' build/tests/plan.out)"
    fi
  else
    bad "$m: fails with the smallest arena $S: $(cat build/tests/plan.err)"
  fi
  if "$TFLC" run "$m" --random-inputs 1 --arena $((S - 1)) >/dev/null 2>build/tests/plan.err; then
    bad "$m: runs with $((S - 1)) bytes, info said the smallest is $S"
  else
    grep -q "needs at least $S bytes (the smallest plan; the fastest needs $F)" build/tests/plan.err &&
      ok || bad "$m: $((S - 1)) bytes: $(cat build/tests/plan.err)"
  fi
  # the fastest plan's arena gets the fastest plan; one byte less the next
  "$TFLC" run "$m" --random-inputs 1 --arena "$F" >build/tests/plan.out 2>&1
  grep -q '^plan: fastest' build/tests/plan.out && ok || bad "$m: --arena $F: $(tail -n 1 build/tests/plan.out)"
  if [ "$S" -lt "$F" ]; then
    # (where the fastest plan folds CONV_2D biases: the same plan without
    # them, then the steps below)
    "$TFLC" run "$m" --random-inputs 1 --arena $((F - 1)) >build/tests/plan.out 2>&1
    grep -qE '^plan: (fastest without folded biases|in-place depthwise|patches|compact)' build/tests/plan.out && ok || bad "$m: --arena $((F - 1)): $(tail -n 1 build/tests/plan.out)"
    # the same outputs in both plans
    "$TFLC" run "$m" --random-inputs 1 --arena "$S" | grep '^output' >build/tests/plan_s.txt
    "$TFLC" run "$m" --random-inputs 1 | grep '^output' >build/tests/plan_f.txt
    cmp -s build/tests/plan_s.txt build/tests/plan_f.txt && ok || bad "$m: outputs differ between plans"
    # tflc bench --arena: the same choice, said
    "$TFLC" bench "$m" --iters 1 --arena "$S" --json >build/tests/plan.out 2>&1
    grep -qE '"plan": "(inplace|patches|compact)"' build/tests/plan.out && ok || bad "$m: bench --arena $S: $(head -c 200 build/tests/plan.out)"
  fi
  # the 32-bit figures: the smallest never above the fastest
  "$TFLC" info "$m" --json --target 32 >build/tests/plan.json 2>/dev/null
  F=$(num arena_fastest_bytes build/tests/plan.json)
  S=$(num arena_smallest_bytes build/tests/plan.json)
  [ -n "$F" ] && [ -n "$S" ] && [ "$S" -le "$F" ] && ok || bad "$m: 32-bit smallest $S > fastest $F"
done
# 3. compact state: person_detect's compact plan keeps at most half the
# persistent bytes of the fastest (a 32-bit target), the JSON's plans list
# has that step, and its outputs are the fastest plan's
pd=$C/models/person_detect/person/model.tflite
if [ -f "$pd" ]; then
  "$TFLC" info "$pd" --json --target 32 >build/tests/plan.json 2>/dev/null
  qf=$(num arena_persistent_bytes build/tests/plan.json)
  grep -q '"plan": "compact", [^}]*"compact_layers": [1-9]' build/tests/plan.json && ok || bad "person_detect: info --json lists no compact step"
  TFLC_PLAN=compact "$TFLC" info "$pd" --json --target 32 >build/tests/plan.json 2>/dev/null
  qs=$(num arena_persistent_bytes build/tests/plan.json)
  [ -n "$qf" ] && [ -n "$qs" ] && [ $((2 * qs)) -le "$qf" ] && ok || bad "person_detect: persistent $qs (compact) not at most half of $qf (fastest)"
  TFLC_PLAN=compact "$TFLC" run "$pd" --random-inputs 3 | grep '^output' >build/tests/plan_s.txt
  TFLC_PLAN=fastest "$TFLC" run "$pd" --random-inputs 3 | grep '^output' >build/tests/plan_f.txt
  [ -s build/tests/plan_f.txt ] && cmp -s build/tests/plan_s.txt build/tests/plan_f.txt && ok || bad "person_detect: compact and fastest outputs differ"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# The tflc tool: outputs, JSON fields, and the error contract (exit status
# 1 and one stderr line beginning "tflc: "). Uses models made by `make demo`
# (build/demo_*.tflite), so it needs nothing from ../shared.
set -u
TFLC=${TFLC:-build/tflc}
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL cli: $*"; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
[ -f build/demo ] || make -s build/demo >/dev/null
./build/demo >/dev/null || bad "demo did not run"
plain=build/demo_plain.tflite meta=build/demo_lut_metadata.tflite dec=build/demo_lut_decode.tflite
expect_error() { # description, command...
  local d=$1
  shift
  "$@" >"$t/out" 2>"$t/err"
  local rc=$?
  if [ $rc = 1 ] && [ "$(wc -l <"$t/err")" = 1 ] && grep -q '^tflc: ' "$t/err"; then ok; else bad "$d: rc=$rc stderr=$(head -c 200 "$t/err")"; fi
}
expect_error "no arguments" "$TFLC"
expect_error "unknown command" "$TFLC" frobnicate
expect_error "missing model" "$TFLC" run "$t/nope.tflite"
head -c 100 "$plain" >"$t/trunc.tflite"
expect_error "truncated model" "$TFLC" run "$t/trunc.tflite"
printf 'not a model at all, really' >"$t/junk.tflite"
expect_error "junk model" "$TFLC" info "$t/junk.tflite"
printf 'abc' >"$t/short.bin"
expect_error "input of the wrong size" "$TFLC" run "$plain" --input "$t/short.bin"
expect_error "unknown option" "$TFLC" run "$plain" --bogus
expect_error "too small arena" "$TFLC" run "$plain" --arena 256
# the three demo models give the same bytes, also through files
for m in "$plain" "$meta" "$dec"; do
  "$TFLC" run "$m" --random-inputs 7 --out-dir "$t/$(basename "$m")" >/dev/null 2>&1 && ok || bad "run $m"
done
cmp -s "$t/demo_plain.tflite/output_0.bin" "$t/demo_lut_metadata.tflite/output_0.bin" && ok || bad "metadata output differs"
cmp -s "$t/demo_plain.tflite/output_0.bin" "$t/demo_lut_decode.tflite/output_0.bin" && ok || bad "decode output differs"
# --random-inputs reproduces the conformance generator: seed 1, first bytes
"$TFLC" run "$plain" --random-inputs 1 --out-dir "$t/r1" >/dev/null && ok || bad "random inputs"
# JSON fields
"$TFLC" run "$meta" --random-inputs 1 --iters 3 --json >"$t/run.json" && ok || bad "run --json"
python3 - "$t/run.json" <<'PY' && ok || bad "run --json fields"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["arena_used_bytes"] > 0 and d["median_us"] > 0 and d["iters"] == 3
i, o = d["inputs"][0], d["outputs"][0]
assert i["type"] == "INT8" and i["shape"] == [1, 49, 40, 1] and i["zero_point"] == -128
assert o["shape"] == [1, 12] and abs(o["scale"] - 1 / 256) < 1e-9
PY
"$TFLC" info "$meta" --json >"$t/info.json" && ok || bad "info --json"
python3 - "$t/info.json" <<'PY' && ok || bad "info --json compression"
import json, sys
d = json.load(open(sys.argv[1]))
c = [t for t in d["tensors"] if "compressed" in t]
assert d["compressed_tensors"] == 4 == len(c), d["compressed_tensors"]
fc = [t for t in c if t["name"] == "fc_w"][0]["compressed"]
assert fc["format"] == "metadata" and fc["bits"] == 2 and fc["bytes_saved"] > 30000
dw = [t for t in c if t["name"] == "dw_w"][0]["compressed"]
assert dw["axis"] == "last" and dw["channels"] == 8
PY
"$TFLC" info "$dec" | grep -q 'TFLM_DECODE, 2 bits' && ok || bad "info text for DECODE"
"$TFLC" bench "$plain" --iters 3 --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d["ops"]) == 5' && ok || bad "bench --json"
"$TFLC" check "$plain" >/dev/null 2>&1 && ok || bad "check on a clean model"
"$TFLC" run "$plain" --random-inputs 1 --dump-layers "$t/layers" >/dev/null && [ "$(ls "$t/layers" | wc -l)" = 5 ] && ok || bad "dump-layers"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# tests/compress.sh - the `tflc compress` and `tflc bin` commands against
# ../shared/conformance: for every binned model with a TFLM spec, both
# formats must run with the binned model's outputs and be no larger than
# TFLM's own compressed model; automatic mode (four flavours) must keep
# every conformance model's outputs and never write a model larger than its
# input (unless --allow-growth); plus the command line itself (errors,
# --json, bin). Prints "N passed, N failed".
#
#   tests/compress.sh              (from the repository root; builds with make)
#   TFLC=path/to/tflc SHARED=../shared tests/compress.sh
set -u
cd "$(dirname "$0")/.."
TFLC=${TFLC:-build/tflc}
SHARED=${SHARED:-../shared}
S=$SHARED/conformance
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
  fail=$((fail + 1))
  echo "FAIL $*"
}
if [ ! -d "$S" ]; then
  echo "($S not found: compress tests skipped)"
  echo "0 passed, 0 failed"
  exit 0
fi
if [ "$TFLC" = build/tflc ]; then make -s build/tflc >/dev/null || exit 1; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run MODEL CASE_DIR: runs MODEL on CASE_DIR's inputs, compares its outputs
run_same() {
  local model=$1 dir=$2 k=0 args=()
  while [ -f "$dir/input_$k.bin" ]; do
    args+=(--input "$dir/input_$k.bin")
    k=$((k + 1))
  done
  rm -rf "$work/run" && mkdir -p "$work/run"
  "$TFLC" run "$model" "${args[@]}" --out-dir "$work/run" >/dev/null 2>"$work/run.err" || return 1
  k=0
  while [ -f "$dir/output_$k.bin" ]; do
    cmp -s "$dir/output_$k.bin" "$work/run/output_$k.bin" || return 1
    k=$((k + 1))
  done
  return 0
}

size() { stat -c %s "$1"; }

# ---- spec mode against TFLM's compressor -----------------------------------
for b in "$S"/models/compressed/*/binned "$S"/ops/COMPRESSED_*/*_binned; do
  [ -f "$b/model.tflite" ] || continue
  if [ -f "$b/spec.yaml" ]; then
    spec=$b/spec.yaml base=${b%_binned} meta=${base}_meta dec=${base}_decode
  else
    spec=$(dirname "$b")/spec.yaml meta=$(dirname "$b")/meta dec=$(dirname "$b")/decode
  fi
  [ -f "$spec" ] || continue
  for f in metadata decode; do
    ref=$meta
    [ $f = decode ] && ref=$dec
    out=$work/c.tflite
    if ! "$TFLC" compress "$b/model.tflite" -o "$out" --spec "$spec" --format $f >"$work/log" 2>&1; then
      bad "$b $f: compress: $(tail -n 1 "$work/log")"
      continue
    fi
    if run_same "$out" "$b"; then ok; else bad "$b $f: outputs differ from the binned model"; fi
    if [ -f "$ref/model.tflite" ]; then
      if [ "$(size "$out")" -le "$(size "$ref/model.tflite")" ]; then ok; else
        bad "$b $f: $(size "$out") bytes > TFLM's $(size "$ref/model.tflite")"
      fi
    fi
  done
done

# ---- automatic mode keeps every model's outputs (lossless) -----------------
# each compressed model becomes a case folder (the original's inputs and
# expected outputs beside it), all checked at the end by one `tflc conform`
mkdir -p "$work/auto"
n=0
for m in $(find "$S/models" "$S/ops" -name model.tflite | sort); do
  c=$(dirname "$m")
  case $c in *_meta | *_decode | */compressed/*/meta | */compressed/*/decode | */meta_person) continue ;; esac
  for mode in "--format metadata" "--format metadata --no-tflm-compatible" \
    "--format decode" "--format decode --tflm-compatible --allow-growth"; do
    # shellcheck disable=SC2086
    rm -f "$work/a.tflite"
    if ! "$TFLC" compress "$m" -o "$work/a.tflite" $mode >"$work/log" 2>&1; then
      # nothing to compress, or a model that would grow (without
      # --allow-growth): an error that writes nothing and says why
      if grep -qE "nothing compressed|larger than the input" "$work/log" && [ ! -e "$work/a.tflite" ]; then ok; else
        bad "$c [$mode]: compress: $(tail -n 1 "$work/log")"
      fi
    elif case $mode in *--allow-growth*) false ;; *) [ "$(stat -c %s "$work/a.tflite")" -gt "$(stat -c %s "$m")" ] ;; esac then
      bad "$c [$mode]: wrote $(stat -c %s "$work/a.tflite") bytes from $(stat -c %s "$m")"
    else
      n=$((n + 1))
      d=$work/auto/$n
      mkdir -p "$d"
      mv "$work/a.tflite" "$d/model.tflite"
      for f in "$c"/input_*.bin "$c"/output_*.bin; do [ -f "$f" ] && ln -s "$(readlink -f "$f")" "$d/"; done
      echo "$n $c [$mode]" >>"$work/auto.txt"
    fi
  done
done
if [ "$n" -gt 0 ]; then
  "$TFLC" conform "$work/auto" >"$work/conform" 2>&1
  p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$work/conform")
  if [ -z "$p" ]; then
    bad "tflc conform over the compressed models: $(tail -n 3 "$work/conform")"
  else
    pass=$((pass + p))
    for k in $(sed -n "s|^FAIL $work/auto/\([0-9]*\): .*|\1|p" "$work/conform" | sort -un); do
      bad "$(sed -n "s/^$k //p" "$work/auto.txt"): outputs differ ($(grep -m1 "^FAIL $work/auto/$k: " "$work/conform" | sed 's/^[^:]*: //'))"
    done
  fi
fi

# ---- the command line ------------------------------------------------------
hw=$S/models/compressed/hw_i8_pt_weights
expect_fail() { # message, command...: must exit 1 with the message on stderr
  local msg=$1
  shift
  if "$@" >/dev/null 2>"$work/err"; then
    bad "expected failure: $*"
  elif grep -q -- "$msg" "$work/err"; then ok; else
    bad "expected '$msg' from: $* (got: $(cat "$work/err"))"
  fi
}
printf 'tensors:\n  - subgraph: 0\n    tensor: 4\n    compression:\n      - lut:\n          index_bitwidth: 2\n' >"$work/small.yaml"
expect_fail "tensor 0:4 (sequential/dense_1/MatMul): index_bitwidth 2 too small" \
  "$TFLC" compress "$hw/binned/model.tflite" -o "$work/x.tflite" --spec "$work/small.yaml"
printf 'tensors:\n  - subgraph: 0\n    tensor: 4\n    compression:\n      - lut:\n          index_bitwidth: 6\n' >"$work/big.yaml"
if "$TFLC" compress "$hw/binned/model.tflite" -o "$work/x.tflite" --spec "$work/big.yaml" 2>"$work/err" >/dev/null &&
  grep -q "warning: .*index_bitwidth 6 larger than needed (4)" "$work/err"; then ok; else bad "wider spec width: no warning"; fi
printf 'tensors:\n  - subgraph: 0\n   tensor: 4\n' >"$work/broken.yaml"
expect_fail "broken.yaml:3: bad indentation" \
  "$TFLC" compress "$hw/binned/model.tflite" -o "$work/x.tflite" --spec "$work/broken.yaml"
expect_fail "unknown option" "$TFLC" compress "$hw/binned/model.tflite" -o "$work/x.tflite" --bogus
expect_fail "usage: tflc compress" "$TFLC" compress "$hw/binned/model.tflite"
expect_fail "--tensors: expected SG:T" "$TFLC" compress "$hw/binned/model.tflite" -o "$work/x.tflite" --tensors 0
expect_fail "already compressed" "$TFLC" compress "$hw/meta/model.tflite" -o "$work/x.tflite"
expect_fail "usage: tflc bin" "$TFLC" bin "$hw/binned/model.tflite" -o "$work/x.tflite"
head -c 100 "$hw/binned/model.tflite" >"$work/trunc.tflite"
expect_fail "model:" "$TFLC" compress "$work/trunc.tflite" -o "$work/x.tflite"
# --tensors with widths, --exclude
if "$TFLC" compress "$hw/binned/model.tflite" -o "$work/x.tflite" --tensors 0:4:5,0:6 >"$work/out" 2>/dev/null &&
  grep -q "0:4 .* 5 " "$work/out" && grep -q "0:6 .* 3 " "$work/out" && run_same "$work/x.tflite" "$hw/binned"; then ok; else bad "--tensors"; fi
if "$TFLC" compress "$hw/binned/model.tflite" -o "$work/x.tflite" --exclude 0:6 --allow-growth >"$work/out" 2>/dev/null &&
  grep -q "0:6 .*skipped: excluded" "$work/out"; then ok; else bad "--exclude"; fi
# excluding the one tensor worth compressing leaves nothing: an error
# that says so, names `tflc bin`, and writes nothing
rm -f "$work/x.tflite"
expect_fail "nothing compressed" "$TFLC" compress "$hw/binned/model.tflite" -o "$work/x.tflite" --exclude 0:4
[ ! -e "$work/x.tflite" ] && ok || bad "compress with nothing compressed wrote its output"
# --json is JSON and lists the tensors
if "$TFLC" compress "$hw/binned/model.tflite" -o "$work/x.tflite" --format metadata --allow-growth --json >"$work/json" 2>/dev/null; then
  if command -v python3 >/dev/null; then
    if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["format"]=="metadata" and d["tflm_compatible"] and any(t["compressed"] for t in d["tensors"])' "$work/json"; then ok; else bad "--json output"; fi
  else
    grep -q '"compressed": true' "$work/json" && ok || bad "--json output"
  fi
else bad "compress --json"; fi
# bin: weights to 2^B values, the output runs, compress then takes them
ms=$S/models/micro_speech/seed1
if "$TFLC" bin "$ms/model.tflite" -o "$work/b.tflite" --bits 3 --json >"$work/json" 2>/dev/null &&
  "$TFLC" run "$work/b.tflite" --input "$ms/input_0.bin" --out-dir "$work/run" >/dev/null 2>&1; then ok; else bad "bin micro_speech"; fi
if command -v python3 >/dev/null; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=[x for x in d["tensors"] if x["binned"]]; assert t and all(x["unique_after"]<=8 and x["max_abs_change"]>=x["mean_abs_change"]>0 for x in t)' "$work/json" && ok || bad "bin --json"
fi
if "$TFLC" compress "$work/b.tflite" -o "$work/bc.tflite" --format metadata >"$work/out" 2>/dev/null &&
  grep -q "first_weights/read" "$work/out" && ! grep -q "first_weights.*skipped" "$work/out" &&
  "$TFLC" run "$work/bc.tflite" --input "$ms/input_0.bin" --out-dir "$work/run2" >/dev/null 2>&1 &&
  cmp -s "$work/run/output_0.bin" "$work/run2/output_0.bin"; then ok; else bad "bin then compress"; fi
if "$TFLC" bin "$work/b.tflite" -o "$work/b2.tflite" --bits 3 >/dev/null 2>&1 && cmp -s "$work/b.tflite" "$work/b2.tflite"; then ok; else bad "bin twice changes the model"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# Interop with TFLM (issues 12 and 13): for every case of
# tests/interop/tflm_outputs.txt, re-make the model with the tool as the
# case says (our compressor's Huffman, Prune, INT4, LUT and mixed models),
# check its sha256 is the one TFLM ran (a compressor change must be
# re-recorded: tests/interop/record.sh), run it in tflc on the same
# schedule of inputs, invokes and resets (tests/interop_run.c) and compare
# every output with TFLM's recorded bytes, and the arena with TFLM's
# (tflc's no larger). One check per case, plus one
# that every case of tests/interop/cases.txt is recorded.
set -u
cd "$(dirname "$0")/.."
TFLC=${TFLC:-build/tflc}
SHARED=${SHARED:-../shared}
CC=${CC:-gcc}
M=$SHARED/models W=$SHARED/conformance/weights E=$SHARED/conformance/external I=tests/interop
data=tests/interop/tflm_outputs.txt
[ -d "$SHARED/models" ] && [ -d "$SHARED/conformance" ] || { echo "SKIP interop: no $SHARED"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
command -v sha256sum >/dev/null || { echo "SKIP interop: sha256sum not installed"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
san=""
case "$TFLC" in *asan*) san="-fsanitize=address,undefined -fno-sanitize-recover=all" ;; esac
runner=$work/interop_run
# shellcheck disable=SC2086
if ! $CC -std=c99 -O1 -g $san -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror \
  -o "$runner" tests/interop_run.c -lm; then
  echo "FAIL interop: tests/interop_run.c does not compile"
  echo "0 passed, 1 failed"
  exit 1
fi
# every case defined is recorded (and nothing else)
if [ "$(grep '^case ' tests/interop/cases.txt)" = "$(grep '^case ' "$data")" ]; then
  pass=$((pass + 1))
else
  echo "FAIL interop: $data does not list the cases of tests/interop/cases.txt (re-record: tests/interop/record.sh)"
  fail=$((fail + 1))
fi
name="" ok=1 runargs="" T="" tflm_arena=""
finish() { # runs the current case in tflc and counts it
  [ -n "$name" ] || return 0
  if [ "$ok" = 1 ]; then
    mkdir -p "$T/out"
    # shellcheck disable=SC2086
    if ! "$runner" "$T/model.tflite" $(eval echo "$runargs") --out-dir "$T/out" >"$T/run.json" 2>"$T/run.err"; then
      echo "FAIL interop $name: tflc: $(cat "$T/run.err")"
      ok=0
    fi
  fi
  if [ "$ok" = 1 ]; then
    while read -r f want; do
      [ -f "$T/out/$f" ] || { echo "FAIL interop $name: no $f"; ok=0; continue; }
      case "$want" in
      sha256:*) got=sha256:$(sha256sum "$T/out/$f" | cut -d' ' -f1) ;;
      *) got=$(od -An -v -tx1 "$T/out/$f" | tr -d ' \n') ;;
      esac
      if [ "$got" != "$want" ]; then
        echo "FAIL interop $name: $f differs from TFLM's (tflc $got, TFLM $want)"
        ok=0
      fi
    done <"$T/expect"
    if [ "$(wc -l <"$T/expect")" != "$(find "$T/out" -type f | wc -l)" ]; then
      echo "FAIL interop $name: $(find "$T/out" -type f | wc -l) outputs, TFLM wrote $(wc -l <"$T/expect")"
      ok=0
    fi
    [ -s "$T/expect" ] || { echo "FAIL interop $name: no recorded outputs"; ok=0; }
    # and an arena no larger than TFLM's
    arena=$(sed -n 's/.*"arena_used_bytes": \([0-9]*\).*/\1/p' "$T/run.json")
    if [ -z "$arena" ] || [ -z "$tflm_arena" ] || [ "$arena" -gt "$tflm_arena" ]; then
      echo "FAIL interop $name: arena ${arena:-?} > TFLM's ${tflm_arena:-?}"
      ok=0
    fi
  fi
  if [ "$ok" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
  rm -rf "$T"
}
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
  "#"* | "") continue ;;
  "case "*)
    finish
    name=${line#case } ok=1 runargs="" T=$work/case tflm_arena=""
    mkdir -p "$T"
    : >"$T/expect"
    ;;
  "make "*)
    [ "$ok" = 1 ] || continue
    # shellcheck disable=SC2086
    if ! "$TFLC" $(eval echo "${line#make }") >"$T/make.log" 2>&1; then
      echo "FAIL interop $name: tflc ${line#make } failed: $(tail -n 2 "$T/make.log")"
      ok=0
    fi
    ;;
  "model "*)
    cp "$(eval echo "${line#model }")" "$T/model.tflite" || ok=0
    ;;
  "run "*) runargs=${line#run } ;;
  "sha256 "*)
    [ "$ok" = 1 ] || continue
    got=$(sha256sum "$T/model.tflite" 2>/dev/null | cut -d' ' -f1)
    if [ "$got" != "${line#sha256 }" ]; then
      echo "FAIL interop $name: the model made now (sha256 $got) is not the one TFLM ran (${line#sha256 }): the compressor changed; check it in TFLM and re-record (tests/interop/record.sh)"
      ok=0
    fi
    ;;
  "tflm_arena "*) tflm_arena=${line#tflm_arena } ;;
  "note "*) ;;
  "out "*) echo "${line#out }" >>"$T/expect" ;;
  *) echo "FAIL interop: bad line in $data: $line"; fail=$((fail + 1)) ;;
  esac
done <"$data"
finish
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

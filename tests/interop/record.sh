#!/usr/bin/env bash
# Records TFLM's outputs for tests/interop/cases.txt into
# tests/interop/tflm_outputs.txt (run from the repository root):
#
#   tests/interop/record.sh /path/to/tflm_run
#
# tflm_run is a TFLM runner with interop_run's command line (MODEL
# [--input FILE]... [--schedule S] --out-dir DIR; see README "Interop" for
# how ours was built). Each model is made with build/tflc as the case says;
# the file keeps the case lines, what the model holds (note), its sha256,
# TFLM's arena and every output file TFLM wrote (hex up to 64 bytes, else
# its sha256).
set -eu
cd "$(dirname "$0")/../.."
TFLM_RUN=${1:?usage: tests/interop/record.sh TFLM_RUN}
TFLC=${TFLC:-build/tflc}
M=../shared/models W=../shared/conformance/weights E=../shared/conformance/external I=tests/interop
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=tests/interop/tflm_outputs.txt.new
{
  echo "# TFLM's outputs for tests/interop/cases.txt, written by"
  echo "# tests/interop/record.sh (TFLM ${TFLM_COMMIT:-90b983c2b}, x86-64, reference kernels,"
  echo "# release build with USE_TFLM_COMPRESSION). Checked by tests/interop_test.sh."
} >"$out"
finish() { # writes the recorded lines of the current case
  [ -n "$name" ] || return 0
  local T=$work/$name
  [ -f "$T/model.tflite" ] || { echo "$name: no model" >&2; exit 1; }
  local info
  info=$("$TFLC" info "$T/model.tflite")
  echo "note $(printf '%s\n' "$info" | grep -c '\[Huffman ') Huffman, $(printf '%s\n' "$info" | grep -c '\[Prune ') Prune, $(printf '%s\n' "$info" | grep -c '\[LUT ') LUT, $(printf '%s\n' "$info" | grep -cE '^ +[0-9]+ INT4 ') INT4 tensors; $(stat -c %s "$T/model.tflite") bytes" >>"$out"
  echo "sha256 $(sha256sum "$T/model.tflite" | cut -d' ' -f1)" >>"$out"
  mkdir -p "$T/out"
  # shellcheck disable=SC2086
  "$TFLM_RUN" "$T/model.tflite" $(eval echo "$runargs") --out-dir "$T/out" >"$T/tflm.json" ||
    { echo "$name: TFLM failed" >&2; exit 1; }
  echo "tflm_arena $(sed -n 's/.*"arena_used_bytes": \([0-9]*\).*/\1/p' "$T/tflm.json")" >>"$out"
  for f in $(cd "$T/out" && ls | sort -V); do
    if [ "$(stat -c %s "$T/out/$f")" -le 64 ]; then
      echo "out $f $(od -An -v -tx1 "$T/out/$f" | tr -d ' \n')" >>"$out"
    else
      echo "out $f sha256:$(sha256sum "$T/out/$f" | cut -d' ' -f1)" >>"$out"
    fi
  done
  echo "recorded $name" >&2
}
name="" runargs=""
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
  "#"* | "") continue ;;
  "case "*)
    finish
    echo >>"$out"
    name=${line#case }
    mkdir -p "$work/$name"
    ;;
  "make "*)
    T=$work/$name
    # shellcheck disable=SC2086
    "$TFLC" $(eval echo "${line#make }") >"$T/make.log" 2>&1 ||
      { echo "$name: $line failed" >&2; cat "$T/make.log" >&2; exit 1; }
    ;;
  "model "*)
    T=$work/$name
    cp "$(eval echo "${line#model }")" "$T/model.tflite"
    ;;
  "run "*)
    T=$work/$name
    runargs=${line#run }
    ;;
  *) echo "bad line: $line" >&2; exit 1 ;;
  esac
  echo "$line" >>"$out"
done <tests/interop/cases.txt
finish
mv "$out" tests/interop/tflm_outputs.txt

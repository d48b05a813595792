#!/usr/bin/env bash
# tests/conformance.sh TOOL DIR... - the shared conformance suites (or
# folders inside them), byte for byte against TFLM, with the known gaps of
# tests/conformance_gaps.txt: a listed case that fails is counted as a known
# gap (not a pass); a listed case that passes is a failure ("remove it from
# the list"), so the list stays true; an unlisted failure is a failure.
# Closing line: "N passed, N failed (K known gaps)". The cases run through
# the suites' run.sh (a `TOOL run` process each), or with
# CONFORMANCE_BATCH=1 all in one `TOOL conform` process.
set -u
tool=${1:?usage: conformance.sh TOOL SUITE_DIR...}
shift
here=$(cd "$(dirname "$0")" && pwd)
gaps=$here/conformance_gaps.txt
# run.sh of the conformance folder: beside the suite, or further up when
# the arguments are folders inside a suite (tests/run.sh splits suites)
runner=$(cd "$(dirname "$1")" && pwd)
while [ ! -x "$runner/run.sh" ] && [ "$runner" != / ]; do runner=$(dirname "$runner"); done
runner=$runner/run.sh
# CONFORMANCE_BATCH=1: every case in one process (`TOOL conform`, the same
# cases and byte comparisons as run.sh's process a case; TFLC_PLAN may list
# several plans), within CONFORMANCE_BATCH_TIMEOUT seconds (default 3600)
if [ "${CONFORMANCE_BATCH:-0}" = 1 ]; then
  res=$(timeout "${CONFORMANCE_BATCH_TIMEOUT:-3600}" "$tool" conform "$@" 2>&1)
else
  res=$("$runner" "$tool" "$@" 2>&1)
fi
line=$(printf '%s\n' "$res" | tail -n 1)
p=$(printf '%s' "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1/p')
[ -n "$p" ] || { printf '%s\n' "$res" | tail -n 5; echo "0 passed, 1 failed"; exit 1; }
# case names relative to the conformance folder
failing=$(printf '%s\n' "$res" | sed -n 's/^FAIL \([^:]*\): .*/\1/p' | sed 's/.*conformance\///' | sort -u)
listed=$(grep -v '^#' "$gaps" 2>/dev/null | awk 'NF && $1 != "arena" {print $1}' | sort -u)
known=0 bad=0
for c in $failing; do
  if printf '%s\n' "$listed" | grep -qxF "$c"; then
    known=$((known + 1))
  else
    printf '%s\n' "$res" | grep -F "FAIL " | grep -F "/$c: " | head -n 3
    bad=$((bad + 1))
  fi
done
# listed cases of these suites that passed
for s in "$@"; do
  rel=$(cd "$s" && pwd)
  rel=${rel##*conformance/}
  for c in $(printf '%s\n' "$listed" | grep -E "^$rel(/|$)"); do
    if ! printf '%s\n' "$failing" | grep -qxF "$c"; then
      echo "FIXED $c: passes now; remove it from tests/conformance_gaps.txt"
      bad=$((bad + 1))
    fi
  done
done
echo "$p passed, $bad failed ($known known gaps)"
[ "$bad" = 0 ]

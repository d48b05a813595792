#!/usr/bin/env bash
# The figures README and docs/ state are what the commands print today:
# `make demo`'s model sizes and arenas (README's demo output and its
# figures table), the conformance suites' counts (docs/testing.md's table
# and README's total; needs ../shared, skipped without it; with
# CONFORMANCE_TOTALS=FILE, the "conformance total SUITE: ..." lines tests/run.sh
# wrote after running the suites, instead of running them again), and the front
# door's shape: README at most 250 lines, naming `make test` as the test
# command, linking only pages that exist, and README and docs/ free of
# history (issue numbers, commit hashes of our own, "the seed").
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
TFLC=${TFLC:-build/tflc}
SHARED=${SHARED:-../shared}
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL docs: $*"; }
skipped() { skip=$((skip + 1)); echo "SKIP docs: $*"; }
cd "$here" || exit 1
case $TFLC in /*) ;; *) TFLC=$here/$TFLC ;; esac
readme=README.md
# ---- make demo
make -s build/demo >/dev/null 2>&1 || bad "build/demo does not build"
demo=$(./build/demo 2>&1)
row() { printf '%s\n' "$demo" | grep -E "^  $1 " | awk '{print $(NF-7), $(NF-4)}'; }
read -r p_model p_arena <<<"$(row plain)"
read -r m_model m_arena <<<"$(row 'LUT, COMPRESSION_METADATA')"
read -r d_model d_arena <<<"$(row 'LUT, TFLM_DECODE')"
[ -n "$p_model" ] && [ -n "$m_model" ] && [ -n "$d_model" ] && ok || bad "make demo output not understood: $demo"
# README's copy of the output: same sizes and arenas (times may differ)
for r in "plain:$p_model:$p_arena" "LUT, COMPRESSION_METADATA:$m_model:$m_arena" "LUT, TFLM_DECODE:$d_model:$d_arena"; do
  name=${r%%:*} rest=${r#*:}
  got=$(grep -E "^      $name +[0-9]+ B model" "$readme" | awk '{print $(NF-7) ":" $(NF-4)}')
  [ "$got" = "$rest" ] && ok || bad "README's make demo output for '$name': $got, make demo prints $rest"
done
extra=$(printf '%s\n' "$demo" | sed -n 's/.*compressed arena - plain arena: \(.*\)$/\1/p')
grep -qF "compressed arena - plain arena: $extra" "$readme" && ok || bad "README's arena difference is not $extra"
figures=$(sed -n '/<!-- figures:begin -->/,/<!-- figures:end -->/p' "$readme")
printf '%s\n' "$figures" | grep -qF "| $p_model / $m_model / $d_model |" && ok || bad "README figures: demo model bytes are $p_model / $m_model / $d_model"
printf '%s\n' "$figures" | grep -qF "| $p_arena / $m_arena |" && ok || bad "README figures: demo arenas are $p_arena / $m_arena"
[ "$m_arena" = "$d_arena" ] && ok || bad "demo: the two compressed arenas differ ($m_arena, $d_arena): README states one"
# ---- the conformance suites
table=$(sed -n '/<!-- conformance:begin -->/,/<!-- conformance:end -->/p' docs/testing.md)
[ -n "$table" ] && ok || bad "docs/testing.md has no conformance table"
if [ -x "$SHARED/conformance/run.sh" ]; then
  total=0
  for s in $(printf '%s\n' "$table" | sed -n 's/^| `\([a-z0-9_]*\)` | \([0-9]*\) |.*/\1/p'); do
    want=$(printf '%s\n' "$table" | sed -n "s/^| \`$s\` | \([0-9]*\) |.*/\1/p")
    if [ -n "${CONFORMANCE_TOTALS:-}" ]; then
      # tests/run.sh's totals of the suites it has just run with this tool
      line=$(sed -n "s/^conformance total $s: //p" "$CONFORMANCE_TOTALS")
    else
      line=$(bash tests/conformance.sh "$TFLC" "$SHARED/conformance/$s" 2>&1 | tail -n 1)
    fi
    got=$(printf '%s' "$line" | sed -n 's/^\([0-9]*\) passed, 0 failed.*/\1/p')
    [ "$got" = "$want" ] && ok || bad "conformance $s: docs/testing.md says $want, the suite prints: $line"
    total=$((total + ${got:-0}))
  done
  want=$(printf '%s\n' "$table" | sed -n 's/^| all | \([0-9]*\) |.*/\1/p')
  [ "$total" = "$want" ] && ok || bad "conformance total: docs/testing.md says $want, the suites give $total"
  printf '%s\n' "$figures" | grep -qF "| $total of $total |" && ok || bad "README figures: conformance is $total of $total"
  n=$(ls -d "$SHARED"/conformance/*/ | wc -l)
  [ "$(printf '%s\n' "$table" | grep -c '^| `')" = "$n" ] && ok || bad "docs/testing.md lists not every suite of $SHARED/conformance ($n)"
else
  skipped "conformance counts ($SHARED/conformance not present: the optional ../shared suites)"
fi
# ---- person_detect's arena, both plans (README's figure)
pdm=$SHARED/models/person_detect.tflite
if [ -f "$pdm" ]; then
  pj=$("$TFLC" info "$pdm" --json --target 32 2>/dev/null)
  pf=$(printf '%s' "$pj" | sed -n 's/.*"arena_fastest_bytes": \([0-9]*\).*/\1/p')
  ps=$(printf '%s' "$pj" | sed -n 's/.*"arena_smallest_bytes": \([0-9]*\).*/\1/p')
  c() { printf '%s' "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
  want="| $(c "${pf:-0}") / $(c "${ps:-0}") |"
  printf '%s\n' "$figures" | grep -qF "$want" && ok || bad "README figures: person_detect's arena (fastest / smallest, 32-bit) is $want"
else
  skipped "person_detect's arena ($pdm not present)"
fi
# ---- the front door
n=$(wc -l <"$readme")
[ "$n" -le 250 ] && ok || bad "README.md has $n lines (at most 250)"
grep -q '^    make test ' "$readme" && grep -q 'is the test command' "$readme" && ok || bad "README does not give make test as the test command"
for l in $(grep -oE '\]\((docs/[a-z_]+\.md)\)' "$readme" | sed 's/^](//; s/)$//' | sort -u); do
  [ -f "$l" ] && ok || bad "README links $l, which does not exist"
done
for f in docs/*.md; do
  for l in $(grep -oE '\]\(([a-z_]+\.md)\)' "$f" | sed 's/^](//; s/)$//' | sort -u); do
    [ -f "docs/$l" ] && ok || bad "$f links $l, which does not exist"
  done
done
# history: issue numbers, commit hashes (the peers' versions are facts),
# the project's seed document
peers='90b983c2b|99f736a6|719139c|d371283'
for f in "$readme" docs/*.md; do
  h=$(grep -nE '[Ii]ssue[- ]?[0-9]+|\bthe seed\b|seeds/' "$f" | head -n 3)
  [ -z "$h" ] && ok || bad "$f carries history: $h"
  h=$(grep -noE '\b[0-9a-f]{7,12}\b' "$f" | grep -E ':[0-9a-f]*[a-f][0-9a-f]*$' | grep -E ':[0-9a-f]*[0-9][0-9a-f]*$' | grep -vE ":($peers)$" | head -n 3)
  [ -z "$h" ] && ok || bad "$f names commits: $h"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]

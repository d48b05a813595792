#!/usr/bin/env bash
# The repository stands alone: without ../shared (SHARED naming a folder
# that does not exist), `make demo` runs and prints its figures, and every
# bench script (examples/*_bench.sh, m4_flash.sh) and the micro_speech
# example exit non-zero with one line saying what is missing; with the
# optional tools (arm-none-eabi-gcc, qemu-system-arm, valgrind, python3)
# taken off PATH, the bench scripts name the missing tool the same way.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL standalone: $*"; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$here" || exit 1
none=$t/no-shared
# make demo without ../shared
out=$(make -s demo SHARED="$none" 2>&1)
printf '%s' "$out" | grep -q 'outputs identical: yes' && ok || bad "make demo without ../shared: $(printf '%s' "$out" | tail -n 3)"
# one line, non-zero exit, naming what is missing
one_line() { # description, expected text, command...
  local desc=$1 want=$2 o rc
  shift 2
  o=$("$@" 2>&1)
  rc=$?
  if [ "$rc" != 0 ] && [ "$(printf '%s\n' "$o" | wc -l)" = 1 ] && printf '%s' "$o" | grep -qF "$want"; then
    ok
  else
    bad "$desc: exit $rc, output: $(printf '%s' "$o" | head -n 3)"
  fi
}
for s in examples/*_bench.sh examples/m4_flash.sh; do
  one_line "$s without ../shared" "missing: $none" env SHARED="$none" bash "$s"
done
one_line "TARGET=m55 m4_bench.sh without ../shared" "missing: $none" env SHARED="$none" TARGET=m55 bash examples/m4_bench.sh
make -s build/micro_speech >/dev/null 2>&1 || bad "build/micro_speech does not build"
printf 'RIFF' >"$t/x.wav"
one_line "micro_speech without ../shared" "optional ../shared" env SHARED="$none" ./build/micro_speech "$t/x.wav"
# the optional tools off PATH (the real SHARED, if any): each script names
# the first of its tools that is missing
mkdir -p "$t/minpath"
IFS=: read -r -a path_dirs <<<"$PATH"
for d in "${path_dirs[@]}"; do
  for f in "$d"/*; do
    b=${f##*/}
    case $b in python* | arm-none-eabi-* | qemu-* | valgrind*) continue ;; esac
    [ -x "$f" ] && [ ! -e "$t/minpath/$b" ] && ln -s "$f" "$t/minpath/$b"
  done
done
for s in m4_bench m4_flash decode_bench; do
  one_line "$s.sh without arm-none-eabi-gcc" "arm-none-eabi-gcc" env PATH="$t/minpath" SHARED="${SHARED:-../shared}" bash "examples/$s.sh"
done
one_line "x86_bench.sh without valgrind" "valgrind" env PATH="$t/minpath" SHARED="${SHARED:-../shared}" bash examples/x86_bench.sh
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]

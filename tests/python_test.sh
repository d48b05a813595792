#!/usr/bin/env bash
# The Python package (python/): `pip install ./python` into a virtual
# environment with the system site packages (build/pyvenv, offline:
# --no-index, nothing downloaded), `import tflc`, then the pytest suite
# (python/tests: every conformance model and operator case equal to TFLM's
# recorded bytes, errors raise, 10,000 interpreters do not grow the
# process; info / check / bin / compress equal the tool's --json when
# TFLC=path/to/tflc is given). Needs python3 with numpy, pytest and venv
# (Debian: python3-numpy python3-pytest python3-venv); skipped, counted,
# without them. PYTHON=... picks the interpreter.
set -u
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL python: $*"; }
done_() {
  if [ "$skip" != 0 ]; then echo "$pass passed, $fail failed, $skip skipped"; else echo "$pass passed, $fail failed"; fi
  exit 0
}
# an interpreter with numpy, pytest and venv: $PYTHON, Debian's, PATH's
py=
for c in ${PYTHON:-} /usr/bin/python3 python3; do
  command -v "$c" >/dev/null 2>&1 || continue
  if "$c" -c 'import numpy, pytest, venv' >/dev/null 2>&1; then
    py=$(command -v "$c")
    break
  fi
done
if ! command -v python3 >/dev/null && [ -z "$py" ]; then
  echo "python_test: python3 not installed, skipped"
  skip=1
  done_
fi
if [ -z "$py" ]; then
  echo "python_test: no python3 with numpy, pytest and venv (Debian: python3-numpy python3-pytest python3-venv), skipped"
  skip=1
  done_
fi
venv=$PWD/build/pyvenv
rm -rf "$venv"
mkdir -p build
if ! "$py" -m venv --system-site-packages "$venv" >build/pyvenv.log 2>&1; then
  # no ensurepip (Debian without python3-venv's pip): the system's pip
  rm -rf "$venv"
  "$py" -m venv --system-site-packages --without-pip "$venv" >>build/pyvenv.log 2>&1 ||
    { bad "python3 -m venv failed: $(tail -n 3 build/pyvenv.log)"; done_; }
fi
vpy=$venv/bin/python
if nice "$vpy" -m pip install --no-index ./python >>build/pyvenv.log 2>&1; then ok; else
  bad "pip install ./python failed: $(tail -n 5 build/pyvenv.log)"
  done_
fi
if where=$(cd /tmp && "$vpy" -c 'import tflc, os; print(os.path.dirname(tflc.__file__))' 2>&1) &&
  case $where in "$PWD"/python*) false ;; *) true ;; esac; then ok; else
  bad "import tflc: $where"
  done_
fi
# scikit-learn (the digits data of the budget demo): optional, counted
if ! "$vpy" -c 'import sklearn' >/dev/null 2>&1; then
  echo "python_test: scikit-learn missing (Debian: python3-sklearn): the digits test is skipped"
  skip=$((skip + 1))
fi
tool=${TFLC:-}
[ -n "$tool" ] && tool=$(cd "$(dirname "$tool")" 2>/dev/null && pwd)/$(basename "$tool")
log=build/pytest.log
(cd python/tests && SHARED=$(cd "$OLDPWD" && cd "$SHARED" 2>/dev/null && pwd || echo /nonexistent) \
  TFLC=$tool nice "$vpy" -m pytest -q -p no:cacheprovider -r fE) >"$log" 2>&1
summary=$(tail -n 1 "$log")
n() { printf '%s' "$summary" | grep -o "[0-9][0-9]* $1" | grep -o '^[0-9]*' || echo 0; }
p=$(n passed) f=$(n failed) e=$(n error) k=$(n skipped)
# tests needing ../shared or the tool skip (not counted: no tool missing)
if [ "$p" = 0 ] && [ "$f" = 0 ] && [ "$e" = 0 ] && [ "$k" = 0 ]; then
  bad "pytest ran nothing: $summary"
else
  pass=$((pass + p))
  fail=$((fail + f + e))
  [ $((f + e)) = 0 ] || grep -E '^(FAILED|ERROR)' "$log" | head -n 20
fi
echo "python_test: pytest: $summary"
done_

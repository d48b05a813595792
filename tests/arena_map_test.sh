#!/usr/bin/env bash
# `tflc info MODEL --arena-map FILE`: the JSON agrees with `tflc info
# --json` (arena used, activations, persistent, for this host and a 32-bit
# target; the plan the arena gets, with --arena the smallest plan's
# figure), every tensor box lies inside the activations, no two tensors
# live at once in overlapping bytes unless they share one buffer (the same
# offset: an alias, a layer written over its input), each operator's
# scratch lies inside the activations and overlaps no tensor live during
# it; the SVG is well-formed XML with one box per tensor of the JSON; a
# file name that is neither .svg nor .json is refused; docs/arena_map.md's
# picture is what its command draws. Needs python3 (to
# read JSON and XML): skipped without it.
set -u
TFLC=${TFLC:-build/tflc}
SHARED=${SHARED:-../shared}
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL arena_map: $*"; }
command -v python3 >/dev/null 2>&1 || {
  echo "SKIP arena_map: no python3"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
}
mkdir -p build/tests
[ -f build/demo_plain.tflite ] || { [ -f build/demo ] || make -s build/demo >/dev/null; ./build/demo >/dev/null; }
models="build/demo_plain.tflite build/demo_lut_decode.tflite"
for d in models/person_detect/person models/micro_speech/seed1 \
  models/compressed/pd_all_w4/meta external/mlperf_tiny/vww_96_int8/seed1 \
  models_ext/trained_lstm/seed1; do
  [ -f "$SHARED/conformance/$d/model.tflite" ] && models="$models $SHARED/conformance/$d/model.tflite"
done

# check MAP.json INFO.json [PLAN]: the map against info's figures
check() {
  python3 - "$1" "$2" "${3:-}" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
info = json.load(open(sys.argv[2]))
want_plan = sys.argv[3]
errs = []
def eq(a, b, what):
    if a != b:
        errs.append("%s: map %r, info %r" % (what, a, b))
if not m.get("arena_given_bytes"):
    eq(m["arena_used_bytes"], info["arena_used_bytes"], "arena_used_bytes")
    eq(m["arena_bytes"], info["arena_used_bytes"], "arena_bytes")
eq(m["activations_bytes"], info["arena_planned_bytes"], "activations")
eq(m["persistent_bytes"], info["arena_persistent_bytes"], "persistent")
eq(m["target"], info["arena_target"], "target")
eq(m["persistent_offset"], m["arena_bytes"] - m["persistent_bytes"], "persistent_offset")
if want_plan:
    eq(m["plan"], want_plan, "plan")
eq(m["num_ops"], len(m["ops"]), "num_ops")
act = m["activations_bytes"]
if m["plan"] == "patches" or m["patch_buffers"]:  # a chain: its band buffers inside the activations
    pb = m["patch_buffers"]
    if len(pb) != 1 or pb[0]["bytes"] <= 0 or pb[0]["offset"] < 0 or \
            pb[0]["offset"] + pb[0]["bytes"] > act or \
            not 0 <= pb[0]["first_op"] < pb[0]["last_op"] < m["num_ops"]:
        errs.append("patch_buffers: %r" % pb)
else:
    eq(m["patch_buffers"], [], "patch_buffers")
ts = m["tensors"]
if not ts:
    errs.append("no tensors")
for t in ts:
    if t["offset"] + t["bytes"] > act or t["bytes"] <= 0:
        errs.append("tensor %d: %d + %d outside %d" % (t["tensor"], t["offset"], t["bytes"], act))
    if not 0 <= t["first_op"] <= t["last_op"] < m["num_ops"]:
        errs.append("tensor %d: operators %d-%d" % (t["tensor"], t["first_op"], t["last_op"]))
def clash(a, b):
    return (a["offset"] < b["offset"] + b["bytes"] and b["offset"] < a["offset"] + a["bytes"]
            and a["first_op"] <= b["last_op"] and b["first_op"] <= a["last_op"])
for i in range(len(ts)):
    for j in range(i + 1, len(ts)):
        a, b = ts[i], ts[j]
        if clash(a, b) and a["offset"] != b["offset"]:
            errs.append("tensors %d and %d overlap while both live" % (a["tensor"], b["tensor"]))
for s in m["scratch"] or []:
    if s["offset"] + s["bytes"] > act:
        errs.append("scratch of op %d outside the activations" % s["op"])
    box = {"offset": s["offset"], "bytes": s["bytes"], "first_op": s["op"], "last_op": s["op"]}
    for t in ts:
        if clash(box, t):
            errs.append("scratch of op %d overlaps tensor %d" % (s["op"], t["tensor"]))
print("\n".join(errs[:5]))
sys.exit(1 if errs else 0)
EOF
}
num() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$2"; }
str() { sed -n "s/.*\"$1\": \"\([a-z]*\)\".*/\1/p" "$2"; }
for m in $models; do
  n=$(basename "$(dirname "$(dirname "$m")")")/$(basename "$(dirname "$m")")
  for target in "" 32; do
    topt=""
    [ -n "$target" ] && topt="--target $target"
    # the default arena: the fastest plan
    if "$TFLC" info "$m" --json $topt >build/tests/am_info.json 2>/dev/null &&
      "$TFLC" info "$m" $topt --arena-map build/tests/am.json >/dev/null 2>build/tests/am.err; then
      res=$(check build/tests/am.json build/tests/am_info.json fastest) && ok || bad "$n $topt: $res"
    else
      bad "$n $topt: $(cat build/tests/am.err)"
      continue
    fi
    # the smallest plan's arena: that plan (info --json under TFLC_PLAN=smallest has its figures)
    S=$(num arena_smallest_bytes build/tests/am_info.json)
    P=$(str smallest_plan build/tests/am_info.json)
    if [ -z "$target" ]; then
      TFLC_PLAN=smallest "$TFLC" info "$m" --json >build/tests/am_info_s.json 2>/dev/null
      if "$TFLC" info "$m" --arena "$S" --arena-map build/tests/am_s.json >/dev/null 2>build/tests/am.err; then
        res=$(check build/tests/am_s.json build/tests/am_info_s.json "$P") && ok || bad "$n --arena $S: $res"
        [ "$(num arena_given_bytes build/tests/am_s.json)" = "$S" ] && ok || bad "$n: arena_given_bytes is not $S"
      else
        bad "$n --arena $S: $(cat build/tests/am.err)"
      fi
    fi
  done
  # the picture: well-formed XML, one titled box per tensor of the JSON
  if "$TFLC" info "$m" --arena-map build/tests/am.svg >/dev/null 2>build/tests/am.err; then
    res=$(python3 - build/tests/am.svg build/tests/am.json <<'EOF'
import json, sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
m = json.load(open(sys.argv[2]))
titles = [t.firstChild.data for t in doc.getElementsByTagName("title") if t.firstChild]
nt = sum(1 for t in titles if t.startswith("tensor "))
ns = sum(1 for t in titles if t.startswith("scratch "))
errs = []
if doc.documentElement.tagName != "svg":
    errs.append("root is %s" % doc.documentElement.tagName)
if nt != len(m["tensors"]):
    errs.append("%d tensor boxes, %d tensors in the JSON" % (nt, len(m["tensors"])))
if ns != len(m["scratch"] or []):
    errs.append("%d scratch boxes, %d in the JSON" % (ns, len(m["scratch"] or [])))
if m["persistent_bytes"] and not any(t.startswith("persistent") for t in titles):
    errs.append("no persistent box")
print("; ".join(errs))
sys.exit(1 if errs else 0)
EOF
) && ok || bad "$n svg: $res"
  else
    bad "$n svg: $(cat build/tests/am.err)"
  fi
done
# docs/arena_map.md's picture is what its command draws today (the title,
# the model's path, aside)
pd=$SHARED/models/person_detect.tflite
if [ -f "$pd" ] && [ -f docs/arena_map_person_detect.svg ]; then
  TFLC_PLAN=smallest "$TFLC" info "$pd" --target 32 --arena-map build/tests/am_pd.svg >/dev/null 2>&1
  if cmp -s <(grep -v 'font-size="13"' build/tests/am_pd.svg) <(grep -v 'font-size="13"' docs/arena_map_person_detect.svg); then
    ok
  else
    bad "docs/arena_map_person_detect.svg is not what docs/arena_map.md's command draws"
  fi
fi
# a name that says neither format
if "$TFLC" info build/demo_plain.tflite --arena-map build/tests/am.txt >/dev/null 2>build/tests/am.err; then
  bad "--arena-map am.txt accepted"
else
  grep -q "must end in .svg or .json" build/tests/am.err && ok || bad "am.txt: $(cat build/tests/am.err)"
fi
# --json: JSON whatever the name
"$TFLC" info build/demo_plain.tflite --json --arena-map build/tests/am_j.map >/dev/null 2>&1 &&
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' build/tests/am_j.map && ok || bad "--json --arena-map am_j.map: not JSON"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

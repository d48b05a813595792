#!/usr/bin/env bash
# The tflc tool: outputs, JSON, argument checking, help, and the error
# contract (exit status 1 and one stderr line beginning "tflc: "). Uses the
# models `make demo` writes (build/demo_*.tflite) and, when ../shared is
# there, conformance models. JSON checks need python3 (skipped without).
set -u
TFLC=${TFLC:-build/tflc}
SHARED=${SHARED:-../shared}
CC=${CC:-gcc}
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL cli: $*"; }
skipped() { skip=$((skip + 1)); echo "SKIP cli: $*"; }
have_py=0
command -v python3 >/dev/null && have_py=1
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
json_ok() { # description, file, python expression on d (optional)
  local d=$1 f=$2 expr=${3:-True}
  if [ $have_py = 0 ]; then
    skipped "$d (no python3)"
    return
  fi
  python3 - "$f" "$expr" <<'PY' && ok || bad "$d: $(head -c 300 "$f")"
import json, sys
d = json.load(open(sys.argv[1]))
assert eval(sys.argv[2]), sys.argv[2]
PY
}
expect_error "no arguments" "$TFLC"
expect_error "unknown command" "$TFLC" frobnicate
expect_error "missing model" "$TFLC" run "$t/nope.tflite"
head -c 100 "$plain" >"$t/trunc.tflite"
expect_error "truncated model" "$TFLC" run "$t/trunc.tflite"
# truncation is reported as truncation, with the offset
grep -q 'truncated' "$t/err" && grep -q 'offset [0-9]' "$t/err" && ok || bad "truncation not said: $(cat "$t/err")"
head -c $(($(stat -c %s "$plain") - 7)) "$plain" >"$t/trunc2.tflite"
"$TFLC" info "$t/trunc2.tflite" >/dev/null 2>"$t/err"
grep -q 'truncated' "$t/err" && ok || bad "end cut off not said truncated: $(cat "$t/err")"
printf 'not a model at all, really' >"$t/junk.tflite"
expect_error "junk model" "$TFLC" info "$t/junk.tflite"
printf 'abc' >"$t/short.bin"
expect_error "input of the wrong size" "$TFLC" run "$plain" --input "$t/short.bin"
expect_error "unknown option" "$TFLC" run "$plain" --bogus
expect_error "too small arena" "$TFLC" run "$plain" --arena 256
grep -q 'arena too small: arena too small' "$t/err" && bad "status said twice: $(cat "$t/err")" || ok
# every numeric argument is checked
expect_error "--arena 10MB" "$TFLC" run "$plain" --arena 10MB
expect_error "--arena -5" "$TFLC" run "$plain" --arena -5
expect_error "--arena 0" "$TFLC" run "$plain" --arena 0
expect_error "--random-inputs xyz" "$TFLC" run "$plain" --random-inputs xyz
expect_error "--iters 0" "$TFLC" run "$plain" --iters 0
expect_error "--iters 5x" "$TFLC" run "$plain" --iters 5x
expect_error "bench --iters ''" "$TFLC" bench "$plain" --iters ""
expect_error "bin --bits 9" "$TFLC" bin "$plain" -o "$t/b.tflite" --bits 9
"$TFLC" run "$plain" --random-inputs 1 --arena 1M >/dev/null && ok || bad "--arena 1M"
"$TFLC" run "$plain" --random-inputs 0x10 >/dev/null && ok || bad "--random-inputs 0x10"
# help and version
"$TFLC" --version | grep -Eq '^tflc [0-9]+\.[0-9]+\.[0-9]+$' && ok || bad "--version"
ver=$(sed -n 's/^#define TFLC_VERSION "\(.*\)"/\1/p' tflc.h)
[ "$("$TFLC" --version)" = "tflc $ver" ] && ok || bad "--version is not TFLC_VERSION ($ver)"
for h in -h --help help; do
  "$TFLC" $h >"$t/help" 2>&1 && ok || bad "tflc $h exit status"
done
for c in run info check bench compress bin embed; do
  grep -q "tflc $c " "$t/help" && ok || bad "usage does not list $c"
  "$TFLC" $c --help >"$t/ch" 2>&1 && grep -q "^usage: tflc $c" "$t/ch" && ok || bad "tflc $c --help"
  "$TFLC" help $c >/dev/null 2>&1 && ok || bad "tflc help $c"
done
# the three demo models give the same bytes, also through files
for m in "$plain" "$meta" "$dec"; do
  "$TFLC" run "$m" --random-inputs 7 --out-dir "$t/$(basename "$m")" >/dev/null 2>&1 && ok || bad "run $m"
done
cmp -s "$t/demo_plain.tflite/output_0.bin" "$t/demo_lut_metadata.tflite/output_0.bin" && ok || bad "metadata output differs"
cmp -s "$t/demo_plain.tflite/output_0.bin" "$t/demo_lut_decode.tflite/output_0.bin" && ok || bad "decode output differs"
# --iters: every invoke sees the given inputs, so the outputs stay the same
"$TFLC" run "$plain" --random-inputs 7 --iters 4 --out-dir "$t/it4" >/dev/null && ok || bad "run --iters"
cmp -s "$t/demo_plain.tflite/output_0.bin" "$t/it4/output_0.bin" && ok || bad "--iters changes the output"
pd=$SHARED/conformance/models/person_detect/person
if [ -f "$pd/model.tflite" ]; then
  # person_detect reuses its input buffer for activations
  for n in 1 5; do
    "$TFLC" run "$pd/model.tflite" --input "$pd/input_0.bin" --iters $n --out-dir "$t/pd$n" >/dev/null &&
      cmp -s "$pd/output_0.bin" "$t/pd$n/output_0.bin" && ok || bad "person_detect --iters $n: $(od -An -tx1 "$t/pd$n/output_0.bin")"
  done
  "$TFLC" bench "$pd/model.tflite" --iters 2 --input "$pd/input_0.bin" >/dev/null && ok || bad "bench --input"
else
  skipped "person_detect --iters (no $pd)"
fi
# --random-inputs reproduces the conformance generator: seed 1, first bytes
"$TFLC" run "$plain" --random-inputs 1 --out-dir "$t/r1" >/dev/null && ok || bad "random inputs"
# JSON fields
"$TFLC" run "$meta" --random-inputs 1 --iters 3 --json >"$t/run.json" && ok || bad "run --json"
json_ok "run --json fields" "$t/run.json" 'd["arena_used_bytes"] > 0 and d["median_us"] > 0 and d["iters"] == 3 and d["inputs"][0]["type"] == "INT8" and d["inputs"][0]["shape"] == [1, 49, 40, 1] and d["inputs"][0]["zero_point"] == -128 and d["outputs"][0]["shape"] == [1, 12] and abs(d["outputs"][0]["scale"] - 1 / 256) < 1e-9'
json_ok "run --json: planned + persistent + rounding = used" "$t/run.json" 'd["arena_planned_bytes"] + d["arena_persistent_bytes"] + d["arena_rounding_bytes"] == d["arena_used_bytes"] and d["arena_rounding_bytes"] < 16'
"$TFLC" info "$meta" --json >"$t/info.json" && ok || bad "info --json"
json_ok "info --json compression" "$t/info.json" 'd["compressed_tensors"] == 4 == len([t for t in d["subgraphs"][0]["tensors"] if "compressed" in t]) and [t for t in d["subgraphs"][0]["tensors"] if t["name"] == "fc_w"][0]["compressed"]["bits"] == 2 and [t for t in d["subgraphs"][0]["tensors"] if t["name"] == "dw_w"][0]["compressed"]["axis"] == "last"'
json_ok "info --json inputs/outputs" "$t/info.json" 'd["inputs"][0]["type"] == "INT8" and d["inputs"][0]["shape"] == [1, 49, 40, 1] and d["inputs"][0]["zero_point"] == -128 and d["outputs"][0]["shape"] == [1, 12] and abs(d["outputs"][0]["scale"] - 1 / 256) < 1e-9 and d["subgraphs"][0]["inputs"] == d["inputs"] and d["num_subgraphs"] == len(d["subgraphs"])'
"$TFLC" info "$meta" >"$t/info.txt" && grep -q '^  input 0: tensor [0-9]* INT8 \[1,49,40,1\] scale .* zero point -128' "$t/info.txt" && grep -q '^  output 0: ' "$t/info.txt" && ok || bad "info text inputs/outputs"
"$TFLC" info "$dec" | grep -q 'TFLM_DECODE, 2 bits' && ok || bad "info text for DECODE"
"$TFLC" bench "$plain" --iters 3 --json >"$t/bench.json" && ok || bad "bench --json"
json_ok "bench --json per-operator medians" "$t/bench.json" 'len(d["ops"]) == 5 and all(o["median_us"] >= 0 for o in d["ops"]) and d["median_us"] > 0'
# a bench longer than 2 s says how far it is, on stderr (the delay set to
# 0 ms here, so that the check does not hang on this machine's speed), and
# a short one says nothing
TFLC_PROGRESS_AFTER_MS=0 "$TFLC" bench "$plain" --iters 20 >/dev/null 2>"$t/progress" && grep -q '^tflc: bench: [0-9]* of 20 invokes' "$t/progress" && ok || bad "bench progress: $(head -c 200 "$t/progress")"
"$TFLC" bench "$plain" --iters 20 >/dev/null 2>"$t/progress" && [ ! -s "$t/progress" ] && ok || bad "bench: progress on a short run: $(head -c 200 "$t/progress")"
# valid JSON whatever the path holds
weird="$t/we\"ird\\name.tflite"
cp "$plain" "$weird"
for c in "info" "run --random-inputs 1" "bench --iters 2" "check"; do
  "$TFLC" $c "$weird" --json >"$t/w.json" 2>"$t/err" || bad "$c on a path with quote and backslash: $(cat "$t/err")"
  json_ok "$c --json, path with quote and backslash" "$t/w.json" 'True'
done
"$TFLC" info "$weird" --json >"$t/w.json" 2>/dev/null
json_ok "info --json path round trip" "$t/w.json" "d['model'].endswith('we\"ird\\\\name.tflite')"
# check: exit status 0 when tflc runs the model, also with spec findings
"$TFLC" check "$plain" >/dev/null 2>&1 && ok || bad "check on a clean model"
ks=$SHARED/conformance/models_ext/keyword_scrambled/seed1/model.tflite
if [ -f "$ks" ]; then
  "$TFLC" check "$ks" >"$t/ck" 2>&1
  rc=$?
  [ $rc = 0 ] && grep -q 'runs' "$t/ck" && ok || bad "check keyword_scrambled: rc=$rc $(tail -n 1 "$t/ck")"
else
  skipped "check keyword_scrambled (no $ks)"
fi
# models tflc cannot run, made with tflc_write.h: a custom operator tflc
# does not know, and a builtin code beyond the schema. info lists them and
# names the operator, check names it and exits 2, run refuses it
cat >"$t/gen_unknown.c" <<'C'
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "tflc_write.h"
#include <stdio.h>
#include <stdlib.h>
/* gen_unknown OUT CODE [CUSTOM_NAME]: x [1,4] -> operator -> y [1,4] */
int main(int argc, char **argv) {
  tflc_writer *w = tflc_writer_create();
  int32_t d[2] = {1, 4}, x, y, op;
  uint8_t *bytes;
  size_t size;
  FILE *f;
  if (argc < 3 || !w)
    return 2;
  x = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 2, d, NULL, 0, "x", NULL);
  y = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 2, d, NULL, 0, "y", NULL);
  op = tflc_writer_op(w, 0, atoi(argv[2]), argc > 3 ? argv[3] : NULL, 1, &x, 1,
                      &y, 0, 0, NULL);
  tflc_writer_inputs(w, 0, 1, &x);
  tflc_writer_outputs(w, 0, 1, &y);
  if (op < 0 || tflc_writer_finish(w, &bytes, &size) != TFLC_OK)
    return 3;
  f = fopen(argv[1], "wb");
  if (!f || fwrite(bytes, 1, size, f) != size || fclose(f))
    return 4;
  free(bytes);
  tflc_writer_destroy(w);
  return 0;
}
C
if $CC -std=c99 -O0 -I. -o "$t/gen_unknown" "$t/gen_unknown.c" -lm 2>"$t/err" &&
  "$t/gen_unknown" "$t/custom.tflite" 32 MY_SECRET_OP && "$t/gen_unknown" "$t/code400.tflite" 400; then
  ok
  for u in "custom.tflite|CUSTOM MY_SECRET_OP|MY_SECRET_OP|get('custom_name') == 'MY_SECRET_OP'" \
    "code400.tflite|UNKNOWN (code 400)|code 400|get('code') == 400"; do
    IFS='|' read -r f name said key <<<"$u"
    "$TFLC" info "$t/$f" >"$t/vi" 2>&1
    rc=$?
    [ $rc = 0 ] && grep -q 'cannot run' "$t/vi" && grep -q "$said" "$t/vi" && grep -q "^ operators:" "$t/vi" &&
      grep -Fq " 0 $name " "$t/vi" && ok || bad "info on $f: rc=$rc $(cat "$t/vi")"
    "$TFLC" info "$t/$f" --json >"$t/vi.json" 2>&1
    json_ok "info --json on $f" "$t/vi.json" "d['arena_used_bytes'] is None and d['runs'] is False and d['subgraphs'][0]['operators'][0].$key"
    "$TFLC" check "$t/$f" >"$t/ck" 2>&1
    rc=$?
    [ $rc = 2 ] && grep -Fq "op 0 $name: unsupported:" "$t/ck" && ok || bad "check on $f: rc=$rc $(cat "$t/ck")"
    grep -q 'unsupported).*unsupported\|(unsupported)' "$t/ck" && bad "check repeats itself: $(grep unsupported "$t/ck" | head -n 1)" || ok
    "$TFLC" check "$t/$f" --json >"$t/ck.json" 2>&1
    json_ok "check --json on $f" "$t/ck.json" "d['runs'] is False and d['count'] == 1 and d['findings'][0]['kind'] == 'unsupported' and d['findings'][0].$key"
    expect_error "run $f" "$TFLC" run "$t/$f" --random-inputs 1
    grep -q "op 0 .*$said" "$t/err" && ok || bad "run $f does not name the operator: $(cat "$t/err")"
  done
else
  bad "models with unknown operators not made: $(head -n 5 "$t/err")"
fi
# compress: nothing to compress is an error that names `tflc bin`; it
# never writes over its input
"$TFLC" bin "$plain" -o "$t/binned.tflite" --bits 4 >/dev/null && ok || bad "bin"
cp "$plain" "$t/in.tflite"
expect_error "compress -o its input" "$TFLC" compress "$t/in.tflite" -o "$t/in.tflite"
expect_error "compress -o its input (other spelling)" "$TFLC" compress "$t/in.tflite" -o "$t/./in.tflite"
cmp -s "$plain" "$t/in.tflite" && ok || bad "compress changed its input"
"$TFLC" compress "$plain" -o "$t/c.tflite" --exclude 0:0 >"$t/out" 2>"$t/err"
rc=$?
if grep -q 'nothing compressed' "$t/err"; then
  [ $rc = 1 ] && grep -q 'tflc bin' "$t/err" && [ ! -e "$t/c.tflite" ] && ok || bad "compress with nothing to do: rc=$rc"
else
  [ $rc = 0 ] && ok || bad "compress of the demo model: rc=$rc $(cat "$t/err")"
fi
if [ -f "$pd/model.tflite" ]; then
  expect_error "compress of unbinned person_detect" "$TFLC" compress "$pd/model.tflite" -o "$t/pdc.tflite"
  grep -q 'nothing compressed' "$t/err" && grep -q 'tflc bin' "$t/err" && [ ! -e "$t/pdc.tflite" ] && ok || bad "compress unbinned: $(cat "$t/err")"
fi
"$TFLC" run "$plain" --random-inputs 1 --dump-layers "$t/layers" >/dev/null && [ "$(ls "$t/layers" | wc -l)" = 5 ] && ok || bad "dump-layers"
# embed: a C array, 16-byte aligned, of the model's bytes, as C and C++
"$TFLC" embed "$plain" -n demo_model -o "$t/demo_model.c" && ok || bad "embed"
"$TFLC" embed "$plain" -n demo_model | cmp -s - "$t/demo_model.c" && ok || bad "embed to stdout differs from -o"
expect_error "embed -n not an identifier" "$TFLC" embed "$plain" -n "1bad-name"
expect_error "embed a non-model" "$TFLC" embed "$t/junk.tflite"
cat >"$t/use_embed.c" <<'C'
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
extern const unsigned char demo_model[];
extern const size_t demo_model_len;
#ifdef __cplusplus
}
#endif
int main(int argc, char **argv) {
  static unsigned char file[1 << 20];
  FILE *f = fopen(argv[argc - 1], "rb");
  size_t n = f ? fread(file, 1, sizeof file, f) : 0;
  if (((uintptr_t)demo_model & 15) != 0) return 2;
  if (n != demo_model_len || memcmp(file, demo_model, n) != 0) return 3;
  return 0;
}
C
$CC -std=c99 -Wall -Wextra -Werror -o "$t/use_embed" "$t/use_embed.c" "$t/demo_model.c" && "$t/use_embed" "$plain" && ok || bad "embedded C array (C99)"
if command -v g++ >/dev/null; then
  g++ -x c++ -std=c++11 -Wall -Wextra -Werror -c "$t/demo_model.c" -o "$t/dm.o" &&
    g++ -x c++ -std=c++11 -Wall -Wextra -Werror -o "$t/use_embed_cxx" "$t/use_embed.c" -x none "$t/dm.o" && "$t/use_embed_cxx" "$plain" && ok || bad "embedded C array (C++)"
else
  skipped "embed as C++ (no g++)"
fi
# tflc embed -H: the header declares what the C file defines
"$TFLC" embed "$plain" -n demo_model -o "$t/dm2.c" -H "$t/dm2.h" && ok || bad "embed -H"
sed '/^extern const/d; /^#ifdef __cplusplus/,/^#endif/d' "$t/use_embed.c" >"$t/use_embed2.c"
{ printf '#include "dm2.h"\n'; cat "$t/use_embed2.c"; } >"$t/use_embed3.c"
$CC -std=c99 -Wall -Wextra -Werror -I"$t" -o "$t/use_embed3" "$t/use_embed3.c" "$t/dm2.c" && "$t/use_embed3" "$plain" && ok || bad "embed -H header with its C file"
expect_error "embed -H onto -o" "$TFLC" embed "$plain" -o "$t/same.c" -H "$t/same.c"
# --help of every command lists every flag the command accepts (one
# table): each listed flag is taken by the command's parser (whatever else
# its value makes fail), and every flag the parsers compare against is
# listed for some command
value_for() {
  case $1 in
  N) echo 1 ;; SEED) echo 1 ;; BYTES) echo 1M ;; B) echo 4 ;; FRACTION) echo 0.5 ;;
  NAME) echo m ;; SPEC) echo vta ;; "32|64") echo 32 ;; "metadata|decode") echo decode ;;
  lut,huffman,prune\|auto) echo auto ;; SG:T*) echo 0:1 ;;
  *) echo "$t/flagval_$RANDOM" ;;
  esac
}
for c in run info check bench compress bin embed ops; do
  "$TFLC" $c --help >"$t/h_$c" 2>&1
  grep -q '^options:$' "$t/h_$c" && ok || bad "$c --help has no options list"
  case $c in compress | bin) pos="$plain -o $t/flag_out.tflite" ;; *) pos=$plain ;; esac
  while read -r flag arg _; do
    case $flag in --help) continue ;; esac
    case $arg in [A-Z]* | *'|'* | *,*) val=$(value_for "$arg") ;; *) val="" ;; esac
    # shellcheck disable=SC2086
    (cd "$t" && timeout 60 "$TFLC" $c $pos $flag $val >/dev/null 2>"$t/flag_err")
    if grep -q 'unknown option' "$t/flag_err"; then
      bad "$c: --help lists $flag but $c refuses it: $(cat "$t/flag_err")"
    else
      ok
    fi
  done < <(sed -n '/^options:$/,$p' "$t/h_$c" | grep -E '^  -' | sed 's/^  //')
done
cat "$t"/h_* >"$t/h_all"
for f in $(grep -ohE 'strcmp\((a|argv\[i\]), "-[-a-zA-Z0-9]+"\)' examples/tflc.c examples/cmd_*.h |
  sed 's/.*"\(-[^"]*\)".*/\1/' | sort -u); do
  case $f in -h | --help | --version) continue ;; esac
  grep -qE "^  $f( |$)" "$t/h_all" && ok || bad "the parsers take $f but no --help lists it"
done
expect_error "a flag of another command" "$TFLC" info "$plain" --iters 2
expect_error "a flag without its value" "$TFLC" bench "$plain" --while-limit
# compress says TFLM_DECODE is its default format
grep -q 'TFLM_DECODE operators by default' "$t/h_compress" && ok || bad "compress --help does not name its default format"
# a directory given as a model
expect_error "directory as model" "$TFLC" info build
grep -q 'is a directory' "$t/err" && ok || bad "directory as model: $(cat "$t/err")"
# tflc ops --config writes a configuration header that compiles
"$TFLC" ops "$plain" --config -o "$t/tflc_config.h" && ok || bad "ops --config"
grep -q '^#define TFLC_OPS(X) X(CONV_2D)' "$t/tflc_config.h" && grep -q '^#define TFLC_NO_SUBGRAPHS$' "$t/tflc_config.h" && ok || bad "ops --config content: $(cat "$t/tflc_config.h")"
$CC -std=c99 -Wall -Wextra -Werror -I. -I"$t" -DTFLC_CONFIG_FILE='"tflc_config.h"' -c tflc.c -o "$t/cfg.o" && ok || bad "tflc.c with the ops --config header"
# the kernel paths: the demo's 10x8 CONV_2D needs the windowed paths, its
# 3x3 DEPTHWISE_CONV_2D only the 3x3 one
grep -q '^#define TFLC_NO_DW_ANY_FILTER$' "$t/tflc_config.h" && ! grep -q 'TFLC_NO_CONV_WINDOWS' "$t/tflc_config.h" && ok || bad "ops --config kernel paths: $(grep 'TFLC_NO_CONV\|TFLC_NO_DW' "$t/tflc_config.h")"
[ "$("$TFLC" ops "$plain" --config | grep -c '^#define TFLC_OPS')" = 1 ] && ok || bad "ops --config to stdout"
expect_error "ops -o without --config" "$TFLC" ops "$plain" -o "$t/x.h"
# compress: discovery never writes a model larger than its input; --to-int4
# with nothing to convert says so
hw=$SHARED/conformance/models/hello_world_float/seed1/model.tflite
if [ -f "$hw" ]; then
  rm -f "$t/hw_c.tflite"
  expect_error "compress growing the model" "$TFLC" compress "$hw" -o "$t/hw_c.tflite"
  grep -q 'larger than the input' "$t/err" && [ ! -e "$t/hw_c.tflite" ] && ok || bad "compress growth: $(cat "$t/err")"
  "$TFLC" bin "$hw" -o "$t/hw_b.tflite" --bits 2 >/dev/null 2>&1
  for fmt in decode metadata; do
    if "$TFLC" compress "$t/hw_b.tflite" -o "$t/hw_bc.tflite" --methods auto --format $fmt >/dev/null 2>&1; then
      [ "$(stat -c %s "$t/hw_bc.tflite")" -le "$(stat -c %s "$t/hw_b.tflite")" ] && ok || bad "compress --methods auto --format $fmt wrote a larger file"
    else
      ok # refused: nothing written
    fi
    rm -f "$t/hw_bc.tflite"
  done
  "$TFLC" compress "$hw" -o "$t/hw_4.tflite" --to-int4 --allow-growth >/dev/null 2>"$t/err4"
  grep -q 'to-int4: no filter qualifies' "$t/err4" && ok || bad "--to-int4 with nothing to convert: $(cat "$t/err4")"
else
  skipped "compress growth and --to-int4 checks (no $hw)"
fi
# bin --prune: the text report gives what pruning changed
"$TFLC" bin "$plain" -o "$t/pr.tflite" --prune 0.5 >"$t/pr" && ok || bad "bin --prune"
awk '$1 ~ /^[0-9]+:[0-9]+$/ && $2 == "INT8" { n++; if ($8 + 0 <= 0 || $6 + 0 <= 0) z++ } END { exit !(n > 0 && z == 0) }' "$t/pr" && ok || bad "bin --prune report: $(head -n 4 "$t/pr")"
# with --bits too, the change is from the original values (pruning counts)
"$TFLC" bin "$plain" -o "$t/prb.tflite" --prune 0.5 --bits 4 >"$t/prb" && ok || bad "bin --prune --bits"
awk '$1 ~ /^[0-9]+:[0-9]+$/ && $2 == "INT8" { n++; if ($8 + 0 <= 0 || $6 + 0 <= 0) z++ } END { exit !(n > 0 && z == 0) }' "$t/prb" && ok || bad "bin --prune --bits report: $(head -n 4 "$t/prb")"
# WHILE: bounded by default in the tool (untrusted files), --while-limit
# sets the bound, 0 lifts it
cat >"$t/while_gen.c" <<'C'
#define TFLC_IMPLEMENTATION
#define TFLC_WRITE_IMPLEMENTATION
#include "tflc_write.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* WHILE (c < limit) c += 1: input c, output c' */
int main(int argc, char **argv) {
  static const float one = 1.0f;
  float limit = (float)atof(argv[1]);
  int32_t d[1] = {1}, in[2], c, l, b, c1, c0, c2, cond, body;
  tflc_w_option o[2];
  uint8_t *bytes = NULL;
  size_t n = 0;
  FILE *f;
  tflc_writer *w = tflc_writer_create();
  c0 = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "c", NULL);
  c2 = tflc_writer_tensor(w, 0, TFLC_FLOAT32, 1, d, NULL, 0, "c2", NULL);
  cond = tflc_writer_subgraph(w);
  body = tflc_writer_subgraph(w);
  c = tflc_writer_tensor(w, cond, TFLC_FLOAT32, 1, d, NULL, 0, NULL, NULL);
  l = tflc_writer_tensor(w, cond, TFLC_FLOAT32, 1, d, &limit, 4, NULL, NULL);
  b = tflc_writer_tensor(w, cond, TFLC_BOOL, 1, d, NULL, 0, NULL, NULL);
  in[0] = c;
  in[1] = l;
  tflc_writer_op(w, cond, TFLC_OP_LESS, NULL, 2, in, 1, &b, 41, 0, NULL);
  tflc_writer_inputs(w, cond, 1, &c);
  tflc_writer_outputs(w, cond, 1, &b);
  c = tflc_writer_tensor(w, body, TFLC_FLOAT32, 1, d, NULL, 0, NULL, NULL);
  l = tflc_writer_tensor(w, body, TFLC_FLOAT32, 1, d, &one, 4, NULL, NULL);
  c1 = tflc_writer_tensor(w, body, TFLC_FLOAT32, 1, d, NULL, 0, NULL, NULL);
  in[0] = c;
  in[1] = l;
  tflc_writer_op(w, body, TFLC_OP_ADD, NULL, 2, in, 1, &c1, 11, 0, NULL);
  tflc_writer_inputs(w, body, 1, &c);
  tflc_writer_outputs(w, body, 1, &c1);
  memset(o, 0, sizeof o);
  o[0].slot = 0;
  o[0].kind = TFLC_W_I32;
  o[0].i = cond;
  o[1].slot = 1;
  o[1].kind = TFLC_W_I32;
  o[1].i = body;
  tflc_writer_op(w, 0, TFLC_OP_WHILE, NULL, 1, &c0, 1, &c2, 93, 2, o);
  tflc_writer_inputs(w, 0, 1, &c0);
  tflc_writer_outputs(w, 0, 1, &c2);
  if (tflc_writer_finish(w, &bytes, &n) != TFLC_OK)
    return 1;
  f = fopen(argv[2], "wb");
  if (!f || fwrite(bytes, 1, n, f) != n || fclose(f))
    return 1;
  return 0;
}
C
if $CC -std=c11 -O1 -I. -o "$t/while_gen" "$t/while_gen.c" -lm 2>"$t/wg_err" &&
  "$t/while_gen" 3e38 "$t/while_forever.tflite" && "$t/while_gen" 5 "$t/while_5.tflite"; then
  ok
  expect_error "run: WHILE that never ends, default bound" timeout 120 "$TFLC" run "$t/while_forever.tflite"
  grep -q 'WHILE: .*more than 1000000 iterations' "$t/err" && ok || bad "WHILE bound message: $(cat "$t/err")"
  expect_error "bench: --while-limit 10" timeout 60 "$TFLC" bench "$t/while_forever.tflite" --iters 1 --while-limit 10
  grep -q 'more than 10 iterations' "$t/err" && ok || bad "--while-limit 10: $(cat "$t/err")"
  "$TFLC" run "$t/while_5.tflite" --while-limit 5 >/dev/null && ok || bad "WHILE of 5 iterations with --while-limit 5"
  expect_error "WHILE of 5 iterations with --while-limit 4" "$TFLC" run "$t/while_5.tflite" --while-limit 4
  "$TFLC" run "$t/while_5.tflite" --while-limit 0 >/dev/null && ok || bad "--while-limit 0"
else
  bad "WHILE model generator: $(head -n 5 "$t/wg_err")"
fi
# conform: case folders (model.tflite, input_K.bin, output_K.bin) checked
# in one process, as the conformance suites' run.sh checks them; the
# expected outputs here are the tool's own from `run --out-dir`
mkdir -p "$t/cf/a/one" "$t/cf/b"
cp "$plain" "$t/cf/a/one/model.tflite"
cp "$plain" "$t/cf/b/model.tflite"
head -c "$("$TFLC" run "$plain" --json | sed -n 's/.*"inputs": \[{[^}]*"bytes": \([0-9]*\).*/\1/p')" /dev/urandom >"$t/cf/a/one/input_0.bin" 2>/dev/null
cp "$t/cf/a/one/input_0.bin" "$t/cf/b/input_0.bin"
"$TFLC" run "$t/cf/a/one/model.tflite" --input "$t/cf/a/one/input_0.bin" --out-dir "$t/cf/a/one" >/dev/null &&
  "$TFLC" run "$t/cf/b/model.tflite" --input "$t/cf/b/input_0.bin" --out-dir "$t/cf/b" >/dev/null || bad "conform: expected outputs not written"
out=$("$TFLC" conform "$t/cf" 2>&1) && [ "$(printf '%s\n' "$out" | tail -n 1)" = "2 passed, 0 failed" ] && ok || bad "conform of two good cases: $out"
out=$(TFLC_PLAN=fastest,smallest,everywhere "$TFLC" conform "$t/cf/a" 2>&1) && [ "$out" = "1 passed, 0 failed" ] && ok || bad "conform with three plans: $out"
# a wrong byte, a missing input, a model that does not parse: one FAIL line
# each naming the case, exit status 1
printf '\x55' | dd of="$t/cf/b/output_0.bin" bs=1 seek=3 conv=notrunc 2>/dev/null
cmp -s "$t/cf/b/output_0.bin" "$t/cf/a/one/output_0.bin" && printf '\x56' | dd of="$t/cf/b/output_0.bin" bs=1 seek=3 conv=notrunc 2>/dev/null
out=$("$TFLC" conform "$t/cf" 2>&1)
rc=$?
[ $rc = 1 ] && printf '%s\n' "$out" | grep -q "^FAIL $t/cf/b: output_0.bin differs" && [ "$(printf '%s\n' "$out" | tail -n 1)" = "1 passed, 1 failed" ] && ok || bad "conform: a wrong output byte: rc=$rc $out"
out=$(TFLC_PLAN=smallest,fastest "$TFLC" conform "$t/cf/b" 2>&1)
printf '%s\n' "$out" | grep -q "differs (plan smallest)" && printf '%s\n' "$out" | grep -q "differs (plan fastest)" && ok || bad "conform: each plan's failure named: $out"
rm "$t/cf/b/input_0.bin"
out=$("$TFLC" conform "$t/cf/b" 2>&1)
printf '%s\n' "$out" | grep -q "^FAIL $t/cf/b: model has 1 inputs, 0 given" && ok || bad "conform: a missing input: $out"
printf 'junk' >"$t/cf/b/model.tflite"
out=$("$TFLC" conform "$t/cf/b" 2>&1)
[ $? = 1 ] && printf '%s\n' "$out" | grep -q "^FAIL $t/cf/b: " && ok || bad "conform: a model that does not parse: $out"
expect_error "conform: not a folder" "$TFLC" conform "$t/cf/a/one/model.tflite"
expect_error "conform: no folder" "$TFLC" conform
expect_error "TFLC_PLAN: an unknown plan" env TFLC_PLAN=fastest,quick "$TFLC" conform "$t/cf/a"
expect_error "TFLC_PLAN: auto not first" env TFLC_PLAN=fastest,auto "$TFLC" run "$plain"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]

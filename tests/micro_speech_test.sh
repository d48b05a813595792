#!/usr/bin/env bash
# The micro_speech example (build/micro_speech) against TFLM's own test:
# the label of each 1 s recording on the last line (yes, no, silence, and
# silence for noise) and the 40 features of each 30 ms recording, byte for
# byte, as listed in $SHARED/models/micro_speech_audio/README.md; broken
# WAV files are refused. Needs ../shared (skipped without it).
set -u
SHARED=${SHARED:-../shared}
AUDIO=$SHARED/models/micro_speech_audio
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL micro_speech: $*"; }
if [ ! -f "$AUDIO/README.md" ] || [ ! -f "$SHARED/models/micro_speech_quantized.tflite" ]; then
  echo "micro_speech_test: $AUDIO missing, skipped"
  echo "0 passed, 0 failed"
  exit 0
fi
make -s build/micro_speech >/dev/null || bad "build/micro_speech does not build"
run() { SHARED=$SHARED ./build/micro_speech "$@"; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# labels: the README's table "| FILE | LABEL |"
for f in yes no silence noise; do
  want=$(sed -n "s/^| ${f}_1000ms.wav | \([a-z]*\) |$/\1/p" "$AUDIO/README.md")
  [ -n "$want" ] || { bad "no expected label for ${f}_1000ms.wav in the README"; continue; }
  got=$(run "$AUDIO/${f}_1000ms.wav" 2>&1 | tail -n 1)
  if [ "$got" = "$want" ]; then ok; else bad "${f}_1000ms.wav: '$got', TFLM '$want'"; fi
done

# features of one 30 ms window: the README's "- FILE.wav: n n n ..." item,
# which wraps over lines until the next item
for f in no_30ms yes_30ms; do
  want=$(awk -v k="- $f.wav:" '
    index($0, k) == 1 { on = 1; sub(/^[^:]*:/, ""); printf "%s", $0; next }
    on && /^  [-0-9]/ { printf " %s", $0; next }
    { on = 0 }' "$AUDIO/README.md" | tr -s ' ' | sed 's/^ //; s/ $//')
  got=$(run --features "$AUDIO/$f.wav" 2>&1 | sed -n 's/^features 0: //p')
  n=$(printf '%s\n' "$want" | wc -w)
  if [ "$n" = 40 ] && [ "$got" = "$want" ]; then ok; else bad "$f.wav features: '$got', TFLM ($n values) '$want'"; fi
done

# one window per 20 ms: 49 windows of a 1 s file, all printed with --features
n=$(run --features "$AUDIO/yes_1000ms.wav" 2>&1 | grep -c '^features ')
if [ "$n" = 49 ]; then ok; else bad "yes_1000ms.wav: $n feature windows, expected 49"; fi

# refusals: exit 1 with one message, no label
expect_refusal() { # description, file
  run "$2" >"$t/out" 2>"$t/err"
  local rc=$?
  if [ $rc = 1 ] && grep -q '^micro_speech: ' "$t/err" && [ ! -s "$t/out" ]; then ok; else bad "$1: rc=$rc $(head -c 200 "$t/err")"; fi
}
head -c 30 "$AUDIO/yes_30ms.wav" >"$t/short.wav"
expect_refusal "truncated WAV" "$t/short.wav"
printf 'RIFX0000WAVE' >"$t/riff.wav"
expect_refusal "not RIFF" "$t/riff.wav"
# 8 kHz: the sample rate field (offset 24) changed
{ head -c 24 "$AUDIO/yes_30ms.wav"; printf '\x40\x1f\x00\x00'; tail -c +29 "$AUDIO/yes_30ms.wav"; } >"$t/8k.wav"
expect_refusal "8 kHz WAV" "$t/8k.wav"
# a data chunk longer than the file
{ head -c 40 "$AUDIO/yes_30ms.wav"; printf '\xff\xff\x00\x00'; tail -c +45 "$AUDIO/yes_30ms.wav"; } >"$t/long.wav"
expect_refusal "data chunk past the end" "$t/long.wav"
# the example is built with its operators only (TFLC_OPS): another Signal
# operator is refused by name
stk=$SHARED/conformance/ops2/SIGNAL_STACKER/i16_3_left2_step3/model.tflite
if [ -f "$stk" ]; then
  if run --preprocessor "$stk" "$AUDIO/yes_30ms.wav" 2>&1 | grep -q 'SignalStacker: not compiled in'; then ok; else bad "SignalStacker not refused as not compiled in"; fi
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

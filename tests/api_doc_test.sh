#!/usr/bin/env bash
# Every public function of the three headers (tflc.h, tflc_kernels.h,
# tflc_write.h) has its contract at its declaration: each TFLC_API
# declaration of the API part (before the implementation) follows a
# comment block, either directly or inside a group of declarations with
# no blank line between them whose comment names it (or its variant: the
# last part of its name, "dsp", "f32", "s16", as a word). Functions returning
# tflc_status name in that comment the statuses they return (TFLC_OK or
# TFLC_ERR_*). One check per declaration; each miss is printed with its
# file and line.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0
for h in tflc.h tflc_kernels.h tflc_write.h; do
  res=$(awk -v file="$h" '
    # a group member whose variant the comment names: its last part after
    # "_" (dsp, f32, s16...), as a word of the comment, any case
    function names_variant(name,   v, c) {
      v = tolower(name)
      sub(/.*_/, "", v)
      c = " " tolower(ctext) " "
      gsub(/[^a-z0-9]/, " ", c)
      return length(v) >= 3 && index(c, " " v " ") > 0
    }
    function flush_decl(   name, text, ok, why) {
      text = decl
      gsub(/[ \t]+/, " ", text)
      name = text
      sub(/\(.*/, "", name)
      sub(/.* \**/, "", name)
      ok = 1
      why = ""
      if (!doc) {
        ok = 0
        why = "no comment block above it"
      } else if (ingroup && index(ctext, name) == 0 && !names_variant(name)) {
        ok = 0
        why = "in a group whose comment does not name it"
      } else if (text ~ /^TFLC_API tflc_status / && ctext !~ /TFLC_(OK|ERR_[A-Z]+)/) {
        ok = 0
        why = "returns tflc_status but its comment names no status"
      }
      if (ok)
        print "ok " name
      else
        print "FAIL " file ":" declline ": " name ": " why
      ndecl++
    }
    BEGIN { pp = 0; doc = 0; incomment = 0; indecl = 0; ingroup = 0; ndecl = 0 }
    /Stop here if you only want the API/ || /^#endif \/\* TFLC_KERNELS_H \*\// { exit }
    {
      line = $0
      if (indecl) {
        decl = decl " " line
        if (line ~ /[;{]/) { indecl = 0; flush_decl(); ingroup = 1 }
        next
      }
      if (incomment) {
        ctext = ctext " " line
        if (line ~ /\*\/[ \t]*$/) { incomment = 0; doc = 1; ingroup = 0 }
        else if (line ~ /\*\//) { incomment = 0; doc = 0 }
        next
      }
      if (line ~ /^[ \t]*$/) { doc = 0; ingroup = 0; next }
      if (pp) { pp = (line ~ /\\$/); next }
      if (line ~ /^[ \t]*#/) { pp = (line ~ /\\$/); next }
      if (line ~ /^[ \t]*\/\*/) {
        if (!(doc && !ingroup)) ctext = ""
        else ctext = ctext " "
        ctext = ctext line
        if (line ~ /\*\/[ \t]*$/) { doc = 1; ingroup = 0 }
        else if (line !~ /\*\//) incomment = 1
        else doc = 0
        next
      }
      if (line ~ /^TFLC_API[ \t(]/ || line ~ /^TFLC_API$/) {
        if (!ingroup && !doc) { ctext = "" }
        decl = line
        declline = NR
        if (line ~ /[;{]/) { flush_decl(); ingroup = 1 }
        else indecl = 1
        next
      }
      doc = 0
      ingroup = 0
    }
    END { print "declarations " ndecl }
  ' "$here/$h")
  n=$(printf '%s\n' "$res" | sed -n 's/^declarations //p')
  good=$(printf '%s\n' "$res" | grep -c '^ok ')
  printf '%s\n' "$res" | grep '^FAIL' | sed 's/^FAIL/FAIL api_doc:/'
  pass=$((pass + good))
  fail=$((fail + n - good))
  # a header whose API part yields no declaration means this test is broken
  [ "${n:-0}" -gt 0 ] || {
    fail=$((fail + 1))
    echo "FAIL api_doc: no TFLC_API declaration found in $h"
  }
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

# Sourced by the bench scripts: `bench_need NAME WHAT...` checks that every
# tool (a name) and file or folder (a path: it holds a /) is there, and
# otherwise prints one line saying what is missing and exits 1.
bench_need() {
  local name=$1 miss="" x
  shift
  for x in "$@"; do
    case $x in
    */*) [ -e "$x" ] || miss="$miss $x" ;;
    *) command -v "$x" >/dev/null 2>&1 || miss="$miss $x" ;;
    esac
  done
  [ -z "$miss" ] && return 0
  # no ../shared at all: say that, not every file in it
  if [ ! -d "${SHARED:-../shared}" ]; then
    local m2="" y
    for y in $miss; do
      case $y in "${SHARED:-../shared}"/*) ;; *) m2="$m2 $y" ;; esac
    done
    miss="$m2 ${SHARED:-../shared}"
  fi
  case $miss in
  *"${SHARED:-../shared}"*) note=" (the optional ../shared suites and harness; SHARED=DIR names another place)" ;;
  *) note="" ;;
  esac
  echo "$name: missing:$miss$note" >&2
  exit 1
}

#!/usr/bin/env bash
# Integration files: the CMake package (add_subdirectory and an installed
# find_package(tflc)), the ESP-IDF component and the Zephyr module (their
# CMake files, under stand-ins for the functions those systems define),
# the PlatformIO and Arduino manifests (versions and sources), the file
# naming rule (the top level holds one .c file, the implementation), `make
# format` covering every C file, and the shell tests needing nothing but
# gcc and make (optional tools checked for, skipped when missing).
# Each build compiles examples/minimal.c against the library and runs it.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL integration: $*"; }
skipped() { skip=$((skip + 1)); echo "SKIP integration: $*"; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
ver=$(sed -n 's/^#define TFLC_VERSION "\(.*\)"/\1/p' "$here/tflc.h")
[ -n "$ver" ] && ok || bad "no TFLC_VERSION in tflc.h"
# the version is the same everywhere
grep -q "^version: \"$ver\"" "$here/idf_component.yml" && ok || bad "idf_component.yml version is not $ver"
grep -q "\"version\": \"$ver\"" "$here/library.json" && ok || bad "library.json version is not $ver"
grep -q "^version=$ver\$" "$here/library.properties" && ok || bad "library.properties version is not $ver"
# one implementation file at the top level; no main outside examples/,
# tests/, fuzz/ (where build files never glob)
[ "$(cd "$here" && ls *.c)" = "tflc.c" ] && ok || bad "top level .c files: $(cd "$here" && ls *.c | tr '\n' ' ')"
grep -l 'int main' "$here"/*.c "$here"/*.h >/dev/null 2>&1 && bad "a top-level file defines main" || ok
! grep -rq '\.\./tflc\.h' "$here/tflc.c" "$here/examples/minimal.c" && ok || bad "tflc.c or minimal.c includes ../tflc.h"
# a model for the built programs: the demo's, made by the tool's demo
model=$here/build/demo_plain.tflite
[ -f "$model" ] || (cd "$here" && make -s build/demo >/dev/null && ./build/demo >/dev/null)
[ -f "$model" ] || bad "no model $model"
run_minimal() { # description, binary
  local out
  out=$("$2" "$model" 2>&1)
  if printf '%s' "$out" | grep -q '^output 0: INT8, 12 bytes'; then ok; else bad "$1: $out"; fi
}
# only gcc and make are required: every shell test that runs an optional
# tool checks for it (command -v), and the tests that need one skip,
# counted, when it is missing (run again here with a PATH without them)
optional_tools="python3 cmake clang clang++ g++ arm-none-eabi-gcc xtensa-lx106-elf-gcc qemu-system-arm valgrind clang-format"
for f in "$here"/tests/*_test.sh; do
  for tool in $optional_tools; do
    q=$(printf '%s' "$tool" | sed 's/[+]/\\+/g')
    if grep -v '^ *#' "$f" | grep -Eq "(^ *|[;&|(\`!]|\\$\\(| then | do )$q( |\$)" &&
      ! grep -Eq "command -v $q( |\$)" "$f"; then
      bad "$(basename "$f") runs $tool without checking that it is installed"
    fi
  done
done
mkdir -p "$t/minpath"
IFS=: read -r -a path_dirs <<<"$PATH"
for d in "${path_dirs[@]}"; do
  for f in "$d"/*; do
    b=${f##*/}
    case " $optional_tools " in *" $b "*) continue ;; esac
    case $b in python* | clang* | g++* | c++ | cmake* | arm-none-eabi-* | xtensa-* | qemu-* | valgrind*) continue ;; esac
    [ -x "$f" ] && [ ! -e "$t/minpath/$b" ] && ln -s "$f" "$t/minpath/$b"
  done
done
tool_abs=${TFLC:-build/tflc}
case $tool_abs in /*) ;; *) tool_abs=$here/$tool_abs ;; esac
for x in m4_platform_test m4_test arena_test delegate_test clang_arm_test; do
  [ -f "$here/tests/$x.sh" ] || continue
  last=$(cd "$here" && PATH=$t/minpath TFLC_REQUIRE_ALL=0 TFLC=$tool_abs SHARED=${SHARED:-../shared} \
    bash "tests/$x.sh" 2>&1 | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
  printf '%s' "$last" | grep -Eq '^[0-9]+ passed, 0 failed' && ok || bad "$x.sh without the optional tools: ${last:-no result line}"
done
# `make format` covers every C file of the repository, and all are formatted
fmt=$(cd "$here" && make -s -n format 2>/dev/null | tr ' ' '\n')
missed=""
for f in $(cd "$here" && find . -name build -prune -o -name '*.[ch]' -print | sed 's|^\./||'); do
  printf '%s\n' "$fmt" | grep -qx "$f" || missed="$missed $f"
done
[ -z "$missed" ] && [ -n "$fmt" ] && ok || bad "make format misses:$missed"
if command -v clang-format >/dev/null; then
  (cd "$here" && make -s format-check >"$t/fmt" 2>&1) && ok || bad "not clang-formatted: $(grep -o '^[^:]*\.[ch]:' "$t/fmt" | sort -u | tr '\n' ' ')"
elif [ "${TFLC_REQUIRE_ALL:-0}" = 1 ]; then bad "clang-format not installed"; else skipped "make format-check (clang-format not installed)"; fi
# PlatformIO library.json and Arduino library.properties: valid, the keys
# their specifications require, TFLC_VERSION, and the sources each tool
# would compile (library.json's srcDir/srcFilter/includeDir; Arduino's
# flat layout: the .c/.cpp/.S files of the top folder) build
# examples/minimal.c into a program that runs (pio and arduino-cli fetch
# their toolchains from the network, so they are not run here)
if command -v python3 >/dev/null; then
  if python3 - "$here" "$ver" >"$t/srcs" 2>"$t/manifest_err" <<'PY'; then
import fnmatch, json, os, re, sys
root, ver = sys.argv[1], sys.argv[2]
errors = []
def need(cond, what):
    if not cond:
        errors.append(what)
# --- PlatformIO
with open(os.path.join(root, "library.json")) as f:
    lj = json.load(f)  # raises on invalid JSON
need(isinstance(lj, dict), "library.json: not an object")
for k in ("name", "version", "description", "keywords", "license", "frameworks", "platforms"):
    need(k in lj, "library.json: no %s" % k)
need(lj.get("version") == ver, "library.json: version %r is not TFLC_VERSION %r" % (lj.get("version"), ver))
need(re.fullmatch(r"[a-z0-9_.-]+", str(lj.get("name", ""))) is not None, "library.json: name")
b = lj.get("build", {})
src_dir = os.path.normpath(os.path.join(root, b.get("srcDir", "src")))
inc_dir = os.path.normpath(os.path.join(root, b.get("includeDir", "include")))
for h in lj.get("headers", []):
    need(os.path.isfile(os.path.join(inc_dir, h)), "library.json: header %s not in includeDir" % h)
filters = b.get("srcFilter", ["+<*>"])
if isinstance(filters, str):
    filters = re.findall(r"[+-]<[^>]*>", filters)
files = []
for d, dirs, names in os.walk(src_dir):
    dirs[:] = [x for x in dirs if not x.startswith(".") and x != "build"]
    files += [os.path.relpath(os.path.join(d, n), src_dir) for n in names]
chosen = set()
for flt in filters:
    m = re.fullmatch(r"([+-])<([^>]*)>", flt)
    need(m is not None, "library.json: srcFilter entry %r" % flt)
    if not m:
        continue
    hit = {x for x in files if fnmatch.fnmatch(x, m.group(2)) or fnmatch.fnmatch(x, m.group(2).rstrip("/") + "/*")}
    chosen = chosen | hit if m.group(1) == "+" else chosen - hit
pio = sorted(os.path.join(src_dir, x) for x in chosen if re.search(r"\.(c|cpp|cc|S)$", x))
need(pio == [os.path.join(root, "tflc.c")], "library.json: compiles %s, not tflc.c alone" % pio)
# --- Arduino
props = {}
with open(os.path.join(root, "library.properties"), encoding="utf-8") as f:
    for line in f:
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        need("=" in line, "library.properties: line without '=': %r" % line)
        k, _, v = line.partition("=")
        need(k not in props, "library.properties: %s twice" % k)
        props[k] = v
# every field the 1.5 format requires but url (tflc has no home page yet)
for k in ("name", "version", "author", "maintainer", "sentence", "paragraph", "category", "architectures"):
    need(props.get(k, "").strip() != "", "library.properties: no %s" % k)
need(props.get("version") == ver, "library.properties: version %r is not TFLC_VERSION %r" % (props.get("version"), ver))
need(props.get("category") in ("Display", "Communication", "Signal Input/Output", "Sensors", "Device Control", "Timing", "Data Storage", "Data Processing", "Other"), "library.properties: category %r" % props.get("category"))
need(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 _.-]*", props.get("name", "")) is not None, "library.properties: name")
layout = os.path.join(root, "src") if os.path.isdir(os.path.join(root, "src")) else root
for h in props.get("includes", "").split(","):
    if h.strip():
        need(os.path.isfile(os.path.join(layout, h.strip())), "library.properties: includes %s not in %s" % (h, layout))
ard = sorted(os.path.join(layout, n) for n in os.listdir(layout) if re.search(r"\.(c|cpp|S)$", n))
need(ard == [os.path.join(root, "tflc.c")], "Arduino layout compiles %s, not tflc.c alone" % ard)
if errors:
    sys.stderr.write("\n".join(errors) + "\n")
    sys.exit(1)
print("pio " + " ".join(pio) + " -I" + inc_dir)
print("arduino " + " ".join(ard) + " -I" + layout)
PY
    ok
    while read -r tool args; do
      # the library's sources as C, the caller as C++ (a sketch is C++)
      cxx="g++ -x c++"
      command -v g++ >/dev/null || cxx="${CC:-gcc} -x c"
      if ${CC:-gcc} -std=c99 -c $args -o "$t/$tool.o" 2>>"$t/log" &&
        $cxx -c "$here/examples/minimal.c" ${args##* } -o "$t/${tool}_main.o" 2>>"$t/log" &&
        ${cxx%% *} -o "$t/$tool" "$t/${tool}_main.o" "$t/$tool.o" -lm 2>>"$t/log"; then
        ok
        run_minimal "$tool manifest sources" "$t/$tool"
      else
        bad "$tool manifest sources do not build: $(tail -n 3 "$t/log")"
      fi
    done <"$t/srcs"
  else
    bad "library.json / library.properties: $(cat "$t/manifest_err")"
  fi
elif [ "${TFLC_REQUIRE_ALL:-0}" = 1 ]; then bad "python3 not installed"; else skipped "library.json / library.properties (python3 not installed)"; fi
if ! command -v cmake >/dev/null; then
  if [ "${TFLC_REQUIRE_ALL:-0}" = 1 ]; then bad "cmake not installed"; else skipped "CMake, ESP-IDF and Zephyr builds (cmake not installed)"; fi
  echo "$pass passed, $fail failed, $skip skipped"
  [ "$fail" = 0 ]
  exit
fi
cm() { cmake "$@" >>"$t/log" 2>&1; }
# add_subdirectory
mkdir -p "$t/sub"
cat >"$t/sub/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.13)
project(use_tflc C)
add_subdirectory("$here" tflc)
add_executable(minimal "$here/examples/minimal.c")
target_link_libraries(minimal PRIVATE tflc::tflc)
CM
cm -S "$t/sub" -B "$t/sub/b" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_EXPORT_COMPILE_COMMANDS=ON && cm --build "$t/sub/b" && ok || bad "add_subdirectory build (see below)"
[ -x "$t/sub/b/minimal" ] && run_minimal "add_subdirectory" "$t/sub/b/minimal"
# compile_commands.json's command for tflc.c
tflc_cmd() { grep '"command"' "$1/compile_commands.json" | grep '/tflc\.c"' | head -n 1; }
# a parent project's build type stands; float contraction off regardless
grep -q '^CMAKE_BUILD_TYPE:STRING=Debug$' "$t/sub/b/CMakeCache.txt" && ok || bad "add_subdirectory: the parent's build type Debug was overridden"
tflc_cmd "$t/sub/b" | grep -q -- '-ffp-contract=off' && ok || bad "add_subdirectory: tflc.c without -ffp-contract=off: $(tflc_cmd "$t/sub/b")"
# install, then find_package; tflc alone without a build type is Release
# (optimized), C99 without GNU extensions, no fused multiply-add
cm -S "$here" -B "$t/lib" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON && cm --build "$t/lib" && cm --install "$t/lib" --prefix "$t/prefix" && ok || bad "install"
grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$t/lib/CMakeCache.txt" && ok || bad "top-level CMake build without a build type is not Release"
c=$(tflc_cmd "$t/lib")
printf '%s' "$c" | grep -q -- ' -O[23s]' && printf '%s' "$c" | grep -q -- '-ffp-contract=off' &&
  printf '%s' "$c" | grep -q -- '-std=c99' && ok || bad "top-level CMake build of tflc.c: not -O2/-O3, -std=c99, -ffp-contract=off: $c"
[ -f "$t/prefix/include/tflc.h" ] && [ -f "$t/prefix/include/tflc_kernels.h" ] && ok || bad "headers not installed"
mkdir -p "$t/fp"
cat >"$t/fp/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.13)
project(use_tflc C)
find_package(tflc $ver REQUIRED)
add_executable(minimal "$here/examples/minimal.c")
target_link_libraries(minimal PRIVATE tflc::tflc)
CM
cm -S "$t/fp" -B "$t/fp/b" -DCMAKE_PREFIX_PATH="$t/prefix" && cm --build "$t/fp/b" && ok || bad "find_package build"
[ -x "$t/fp/b/minimal" ] && run_minimal "find_package" "$t/fp/b/minimal"
# float-exact whatever flags the user's build adds: no fused multiply-add
# in the library CMake builds with -ffp-contract=fast -mfma (x86-64)
if [ "$(uname -m)" = x86_64 ] && command -v objdump >/dev/null; then
  cm -S "$here" -B "$t/fma" "-DCMAKE_C_FLAGS=-ffp-contract=fast -mfma -mavx2" && cm --build "$t/fma" && ok || bad "CMake build with -ffp-contract=fast -mfma"
  n=$(objdump -d "$t/fma/libtflc.a" 2>/dev/null | grep -cE 'vfn?m(add|sub)[0-9]')
  [ "$n" = 0 ] && ok || bad "CMake build with -ffp-contract=fast -mfma: $n fused multiply-adds in libtflc.a"
else
  skipped "float-exact CMake build (not x86-64, or no objdump)"
fi
# ESP-IDF: CMakeLists.txt under ESP_PLATFORM registers tflc.c
mkdir -p "$t/idf"
cat >"$t/idf/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.13)
project(idf_standin C)
set(ESP_PLATFORM 1)
function(idf_component_register)
  cmake_parse_arguments(A "" "" "SRCS;INCLUDE_DIRS" \${ARGN})
  list(TRANSFORM A_SRCS PREPEND "$here/")
  list(TRANSFORM A_INCLUDE_DIRS PREPEND "$here/")
  add_library(component \${A_SRCS})
  set(COMPONENT_LIB component PARENT_SCOPE)
  target_include_directories(component PUBLIC \${A_INCLUDE_DIRS})
  target_link_libraries(component PUBLIC m)
endfunction()
include("$here/CMakeLists.txt")
add_executable(minimal "$here/examples/minimal.c")
target_link_libraries(minimal PRIVATE component)
CM
cm -S "$t/idf" -B "$t/idf/b" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON && cm --build "$t/idf/b" && ok || bad "ESP-IDF component (stand-in) build"
tflc_cmd "$t/idf/b" | grep -q -- '-ffp-contract=off' && ok || bad "ESP-IDF component: tflc.c without -ffp-contract=off"
[ -x "$t/idf/b/minimal" ] && run_minimal "ESP-IDF component" "$t/idf/b/minimal"
# Zephyr: zephyr/CMakeLists.txt with CONFIG_TFLC=y
grep -q '^  cmake: zephyr$' "$here/zephyr/module.yml" && grep -q '^  kconfig: zephyr/Kconfig$' "$here/zephyr/module.yml" && grep -q '^config TFLC$' "$here/zephyr/Kconfig" && ok || bad "zephyr/module.yml or Kconfig"
mkdir -p "$t/zephyr"
cat >"$t/zephyr/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.13)
project(zephyr_standin C)
set(CONFIG_TFLC y)
set(zlib "")
macro(zephyr_library)
  set(zlib zephyr_lib)
endmacro()
function(zephyr_library_sources)
  add_library(zephyr_lib \${ARGN})
  target_link_libraries(zephyr_lib PUBLIC m)
endfunction()
function(zephyr_include_directories)
  include_directories(\${ARGN})
endfunction()
function(zephyr_library_compile_definitions)
  target_compile_definitions(zephyr_lib PRIVATE \${ARGN})
endfunction()
function(zephyr_library_compile_options)
  target_compile_options(zephyr_lib PRIVATE \${ARGN})
endfunction()
function(zephyr_compile_definitions)
  add_compile_definitions(\${ARGN})
endfunction()
include("$here/zephyr/CMakeLists.txt")
add_executable(minimal "$here/examples/minimal.c")
target_link_libraries(minimal PRIVATE zephyr_lib)
CM
cm -S "$t/zephyr" -B "$t/zephyr/b" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON && cm --build "$t/zephyr/b" && ok || bad "Zephyr module (stand-in) build"
tflc_cmd "$t/zephyr/b" | grep -q -- '-ffp-contract=off' && ok || bad "Zephyr module: tflc.c without -ffp-contract=off"
[ -x "$t/zephyr/b/minimal" ] && run_minimal "Zephyr module" "$t/zephyr/b/minimal"
# The lean build through each CMake-based system: the configuration header
# `tflc ops MODEL --config` writes (person_detect when ../shared is here,
# else the demo model), plus TFLC_NO_ERROR_STRINGS as a switch, reaches
# tflc.c and the program; the linked program runs the model (person_detect:
# TFLM's output byte), is under half the size of the full build, and
# matches a direct gcc build of the same flags within 2%.
P=${SHARED:-../shared}/conformance/models/person_detect/person
case $P in /*) ;; *) P=$here/$P ;; esac
if [ -f "$P/model.tflite" ]; then
  lmodel=$P/model.tflite linput=$P/input_0.bin
  lexpect=$(od -An -tu1 -N1 "$P/output_0.bin" | awk '{print ($1 > 127) ? $1 - 256 : $1}')
else
  lmodel=$model linput="" lexpect=""
fi
mkdir -p "$t/cfg"
"$tool_abs" ops "$lmodel" --config -o "$t/cfg/tflc_config.h" && grep -q '^#define TFLC_NO_COMPRESSION$' "$t/cfg/tflc_config.h" && ok || bad "tflc ops --config -o"
text_of() { size "$1" | awk 'NR==2{print $1}'; }
run_lean() { # description, binary
  local out
  out=$("$2" "$lmodel" $linput 2>&1)
  if [ -n "$lexpect" ]; then
    printf '%s' "$out" | grep -q "^output 0: INT8, 2 bytes, first byte $lexpect;" && ok || bad "$1: $out (TFLM: first byte $lexpect)"
  else
    printf '%s' "$out" | grep -q '^output 0: INT8, 12 bytes' && ok || bad "$1: $out"
  fi
}
# the reference: the same compile and link by hand
ref_flags="-std=c99 -O3 -DNDEBUG -ffunction-sections -fdata-sections -ffp-contract=off"
gcc $ref_flags -I"$here" -DTFLC_NO_ERROR_STRINGS -DTFLC_CONFIG_FILE="\"$t/cfg/tflc_config.h\"" \
  -Wl,--gc-sections -o "$t/cfg/ref" "$here/examples/minimal.c" "$here/tflc.c" -lm 2>>"$t/log" && ok || bad "direct lean build"
gcc $ref_flags -I"$here" -Wl,--gc-sections -o "$t/cfg/full" "$here/examples/minimal.c" "$here/tflc.c" -lm 2>>"$t/log"
ref=$(text_of "$t/cfg/ref") full=$(text_of "$t/cfg/full")
[ "$ref" -lt $((full / 2)) ] && ok || bad "direct lean build: text $ref B, not under half of the full build's $full B"
check_lean() { # description, program
  local n
  [ -x "$2" ] || { bad "$1: no program"; return; }
  run_lean "$1" "$2"
  n=$(text_of "$2")
  if [ "$n" -lt $((full / 2)) ] && [ $((n * 100)) -le $((ref * 102)) ] && [ $((n * 100)) -ge $((ref * 98)) ]; then
    ok
  else
    bad "$1: text $n B (direct lean build $ref B, full $full B)"
  fi
  echo "lean $1: text $n B (direct $ref, full $full)" >>"$t/sizes"
}
mkdir -p "$t/lean"
cat >"$t/lean/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.13)
project(lean C)
set(CMAKE_BUILD_TYPE Release)
add_subdirectory("$here" tflc)
add_executable(minimal "$here/examples/minimal.c")
target_link_libraries(minimal PRIVATE tflc::tflc)
target_link_options(minimal PRIVATE -Wl,--gc-sections)
CM
cm -S "$t/lean" -B "$t/lean/b" -DTFLC_CONFIG_FILE="$t/cfg/tflc_config.h" -DTFLC_NO_ERROR_STRINGS=ON &&
  cm --build "$t/lean/b" && ok || bad "CMake lean build (TFLC_CONFIG_FILE, TFLC_NO_ERROR_STRINGS=ON)"
check_lean "CMake (TFLC_CONFIG_FILE)" "$t/lean/b/minimal"
# the switches alone, TFLC_OPS as a CMake list: the same program
ops=$(sed -n 's/^#define TFLC_OPS(X) //p' "$t/cfg/tflc_config.h" | sed 's/X(\([A-Z0-9_]*\))/\1/g; s/ /;/g')
cm -S "$t/lean" -B "$t/lean/b2" "-DTFLC_OPS=$ops" -DTFLC_INT8_ONLY=ON -DTFLC_NO_COMPRESSION=ON -DTFLC_NO_SUBGRAPHS=ON \
  -DTFLC_NO_DELEGATES=ON -DTFLC_NO_USER_OPS=ON -DTFLC_NO_ERROR_STRINGS=ON $(sed -n 's/^#define TFLC_\(NO_CONV_WINDOWS\|NO_DW_ANY_FILTER\)$/-DTFLC_\1=ON/p' "$t/cfg/tflc_config.h") && cm --build "$t/lean/b2" && ok || bad "CMake lean build (cache options)"
check_lean "CMake (cache options TFLC_OPS=$ops ...)" "$t/lean/b2/minimal"
# ESP-IDF and Zephyr: their Kconfig values as CMake variables
for sys in idf zephyr; do
  mkdir -p "$t/lean_$sys"
  sed -e "s|^include(|set(CONFIG_TFLC_CONFIG_FILE \"$t/cfg/tflc_config.h\")\nset(CONFIG_TFLC_NO_ERROR_STRINGS y)\nset(CMAKE_BUILD_TYPE Release)\ninclude(|" \
    -e 's|^\(target_link_libraries(minimal .*\)$|\1\ntarget_link_options(minimal PRIVATE -Wl,--gc-sections)\ntarget_compile_options(minimal PRIVATE -ffunction-sections -fdata-sections)|' \
    "$t/$sys/CMakeLists.txt" >"$t/lean_$sys/CMakeLists.txt"
  [ $sys = zephyr ] && echo 'target_compile_options(zephyr_lib PRIVATE -ffunction-sections -fdata-sections)' >>"$t/lean_$sys/CMakeLists.txt"
  cm -S "$t/lean_$sys" -B "$t/lean_$sys/b" && cm --build "$t/lean_$sys/b" && ok || bad "$sys lean build (CONFIG_TFLC_CONFIG_FILE)"
  check_lean "$sys (CONFIG_TFLC_CONFIG_FILE)" "$t/lean_$sys/b/minimal"
done
# Arduino: library.properties' dot_a_linkage puts the library's tflc.c
# (everything in) in an archive; a sketch-folder tflc_impl.c holding the
# implementation with the sketch's tflc_config.h defines every symbol
# first, so the archive's object is never linked: the lean program
grep -q '^dot_a_linkage=true$' "$here/library.properties" && ok || bad "library.properties: no dot_a_linkage=true"
mkdir -p "$t/sketch"
cp "$t/cfg/tflc_config.h" "$t/sketch/"
printf '#define TFLC_NO_ERROR_STRINGS\n' >>"$t/sketch/tflc_config.h"
# (the sketch's files include tflc_config.h themselves: a library's
# headers do not see the sketch folder)
printf '#include "tflc_config.h"\n#define TFLC_IMPLEMENTATION\n#include <tflc.h>\n' >"$t/sketch/tflc_impl.c"
printf '#include "tflc_config.h"\n' >"$t/sketch/sketch_head.h"
cxx="g++ -x c++"
command -v g++ >/dev/null || cxx="gcc -x c"
if gcc $ref_flags -I"$here" -c "$here/tflc.c" -o "$t/sketch/lib_tflc.o" 2>>"$t/log" &&
  ar rcs "$t/sketch/libtflc.a" "$t/sketch/lib_tflc.o" &&
  gcc $ref_flags -I"$here" -c "$t/sketch/tflc_impl.c" -o "$t/sketch/impl.o" 2>>"$t/log" &&
  $cxx -O3 -ffunction-sections -fdata-sections -I"$here" -include "$t/sketch/sketch_head.h" \
    -c "$here/examples/minimal.c" -o "$t/sketch/main.o" 2>>"$t/log" &&
  ${cxx%% *} -Wl,--gc-sections -o "$t/sketch/minimal" "$t/sketch/main.o" "$t/sketch/impl.o" "$t/sketch/libtflc.a" -lm 2>>"$t/log"; then
  ok
  check_lean "Arduino (sketch-folder tflc_config.h, dot_a_linkage)" "$t/sketch/minimal"
else
  bad "Arduino sketch-folder lean build: $(tail -n 3 "$t/log")"
fi
cat "$t/sizes" 2>/dev/null
# PlatformIO / Arduino: the sources their manifests name exist and build
grep -q '"+<tflc.c>"' "$here/library.json" && [ -f "$here/tflc.c" ] && ok || bad "library.json sources"
grep -q '^includes=tflc.h$' "$here/library.properties" && ok || bad "library.properties includes"
# (pio and arduino-cli fetch their toolchains from the network: not built)
[ "$fail" = 0 ] || tail -n 30 "$t/log"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]

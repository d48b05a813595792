#!/usr/bin/env bash
# Integration files: the CMake package (add_subdirectory and an installed
# find_package(tflc)), the ESP-IDF component and the Zephyr module (their
# CMake files, under stand-ins for the functions those systems define),
# the PlatformIO and Arduino manifests (versions and sources), and the
# file naming rule: the top level holds one .c file, the implementation.
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
cm -S "$t/sub" -B "$t/sub/b" && cm --build "$t/sub/b" && ok || bad "add_subdirectory build (see below)"
[ -x "$t/sub/b/minimal" ] && run_minimal "add_subdirectory" "$t/sub/b/minimal"
# install, then find_package
cm -S "$here" -B "$t/lib" && cm --build "$t/lib" && cm --install "$t/lib" --prefix "$t/prefix" && ok || bad "install"
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
  target_include_directories(component PUBLIC \${A_INCLUDE_DIRS})
  target_link_libraries(component PUBLIC m)
endfunction()
include("$here/CMakeLists.txt")
add_executable(minimal "$here/examples/minimal.c")
target_link_libraries(minimal PRIVATE component)
CM
cm -S "$t/idf" -B "$t/idf/b" && cm --build "$t/idf/b" && ok || bad "ESP-IDF component (stand-in) build"
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
endfunction()
include("$here/zephyr/CMakeLists.txt")
add_executable(minimal "$here/examples/minimal.c")
target_link_libraries(minimal PRIVATE zephyr_lib)
CM
cm -S "$t/zephyr" -B "$t/zephyr/b" && cm --build "$t/zephyr/b" && ok || bad "Zephyr module (stand-in) build"
[ -x "$t/zephyr/b/minimal" ] && run_minimal "Zephyr module" "$t/zephyr/b/minimal"
# PlatformIO / Arduino: the sources their manifests name exist and build
grep -q '"+<tflc.c>"' "$here/library.json" && [ -f "$here/tflc.c" ] && ok || bad "library.json sources"
grep -q '^includes=tflc.h$' "$here/library.properties" && ok || bad "library.properties includes"
# (pio and arduino-cli fetch their toolchains from the network: not built)
[ "$fail" = 0 ] || tail -n 30 "$t/log"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]

# tflc build.
#   make              build/tflc (the command-line tool)
#   make test         every test; closing line "N passed, N failed"
#   make -j2 test / JOBS=2              two jobs at a time (default: nproc)
#   make test T=test_lut                one unit test file (tests/test_lut.c)
#                                       with its own "N passed, N failed";
#                                       T=cli_test: one shell test
#   make test SANITIZE=1 / VALGRIND=1   the same under ASan+UBSan / memcheck
#   make demo [MODEL=path.tflite]       plain vs LUT-compressed, side by side
#   make fuzz FUZZ_SECONDS=N            libFuzzer harnesses (fuzz/fuzz.mk)
#   make bench-m4                       Cortex-M4F instruction counts (QEMU)
#   make bench-m55                      Cortex-M55 (MVE) instruction counts (QEMU)
#   make flash-m4                       person_detect's flash on the Cortex-M4
#                                       build by build (README's flash table)
#   make bench-decode                   LUT decode bytes per instruction (host, M4)
#   make bench-x86                      x86-64 callgrind instruction counts:
#                                       portable, -msse4.1, -mavx2 vs TFLM
#   make build/tflc-avx2                the tool with the AVX2 primitives
#   make readme-ops                     README's operator list from the table
#   make test-m4                        platform tests on the Cortex-M4F (QEMU)
#   make test-m55                       platform tests on the Cortex-M55 (MVE, QEMU)
#   make build/tflc-hifi-emu            the tool with the Xtensa HiFi paths
#                                       over tests/hifi_emu.h (HiFi 4 code;
#                                       build/tflc-hifi5-emu: HiFi 5 code)
#   make format / make format-check     clang-format every C file / check them
CC ?= cc
WARN = -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror
OPT ?= -O2
CFLAGS_TOOL = -std=c11 -D_POSIX_C_SOURCE=200809L $(OPT) $(WARN)
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SHARED ?= ../shared
HDRS = tflc.h tflc_kernels.h tflc_write.h
TOOL_SRC = examples/tflc.c examples/cmd_compress.h examples/cmd_check.h examples/cmd_ops.h \
           examples/cmd_delegate.h examples/cmd_arena_map.h examples/vta/vta.h examples/vta/vta_delegate.h

ifeq ($(SANITIZE),1)
all: build/asan/tflc
else
all: build/tflc build/micro_speech
endif

build/tflc: $(TOOL_SRC) $(HDRS)
	@mkdir -p build
	$(CC) $(CFLAGS_TOOL) -o $@ examples/tflc.c -lm

build/asan/tflc: $(TOOL_SRC) $(HDRS)
	@mkdir -p build/asan
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g $(SAN_FLAGS) $(WARN) -o $@ examples/tflc.c -lm

# the tool with the x86 AVX2 (and SSE4.1) primitives
build/tflc-avx2: $(TOOL_SRC) $(HDRS)
	@mkdir -p build
	$(CC) $(CFLAGS_TOOL) -mavx2 -o $@ examples/tflc.c -lm

build/micro_speech: examples/micro_speech.c $(HDRS)
	@mkdir -p build
	$(CC) $(CFLAGS_TOOL) -o $@ examples/micro_speech.c -lm

# the tool with the Xtensa HiFi primitives compiled over tests/hifi_emu.h
# (C definitions of the HiFi intrinsics used): tests/run.sh runs conformance
# suites with it
build/tflc-hifi-emu: $(TOOL_SRC) $(HDRS) tests/hifi_emu.h
	@mkdir -p build
	$(CC) $(CFLAGS_TOOL) -DTFLC_HIFI_EMULATE -o $@ examples/tflc.c -lm

# the same with the HiFi 5 code (XCHAL_HAVE_HIFI5)
build/tflc-hifi5-emu: $(TOOL_SRC) $(HDRS) tests/hifi_emu.h
	@mkdir -p build
	$(CC) $(CFLAGS_TOOL) -DTFLC_HIFI_EMULATE -DXCHAL_HAVE_HIFI5=1 -o $@ examples/tflc.c -lm

build/demo: examples/demo.c $(HDRS)
	@mkdir -p build
	$(CC) $(CFLAGS_TOOL) -o $@ examples/demo.c -lm

# tests/run.sh builds what it tests and runs JOBS jobs side by side: the
# N of `make -jN test`, else JOBS=..., else one per core
test:
	@jobs=$$(printf '%s\n' "$(MAKEFLAGS)" | sed -n 's/.*-j *\([0-9][0-9]*\).*/\1/p'); \
	SANITIZE=$(SANITIZE) VALGRIND=$(VALGRIND) SHARED=$(SHARED) T=$(T) \
	  JOBS=$${jobs:-$(JOBS)} bash tests/run.sh

demo: build/demo
	./build/demo $(MODEL)

# Cortex-M4F on QEMU: exact instruction counts, arena, stack, flash
bench-m4:
	SHARED=$(SHARED) bash examples/m4_bench.sh

# Cortex-M55 with MVE on QEMU: the same, beside TFLM + CMSIS-NN (MVE)
bench-m55:
	SHARED=$(SHARED) TARGET=m55 bash examples/m4_bench.sh

# person_detect's flash on the Cortex-M4, build by build (-O2 and -Os)
flash-m4:
	SHARED=$(SHARED) bash examples/m4_flash.sh

# LUT decode throughput (bytes per instruction, widths 1..8): host + Cortex-M4F
bench-decode:
	SHARED=$(SHARED) bash examples/decode_bench.sh

# x86-64 callgrind instruction counts of one invoke (examples/x86_bench.sh)
bench-x86:
	SHARED=$(SHARED) bash examples/x86_bench.sh

# README's operator list, regenerated from the operator table
readme-ops: build/tflc
	python3 tests/readme_ops.py build/tflc README.md --write
# tests/test_platform.c on the Cortex-M4F (real DSP and assembly paths)
test-m4:
	SHARED=$(SHARED) bash tests/m4_platform_test.sh

# tests/test_platform.c and person_detect on the Cortex-M55 (MVE paths)
test-m55:
	SHARED=$(SHARED) bash tests/m55_test.sh

# every C file of the repository (tests/integration_test.sh checks that
# none is missed and that all are formatted)
FORMAT_FILES = $(sort $(wildcard *.c *.h examples/*.c examples/*.h \
  examples/*/*.c examples/*/*.h tests/*.c tests/*.h fuzz/*.c fuzz/*.h \
  python/csrc/*.c))
format:
	clang-format -i $(FORMAT_FILES)
.PHONY: format-check
format-check:
	clang-format --dry-run -Werror $(FORMAT_FILES)

clean:
	rm -rf build

-include fuzz/fuzz.mk

.PHONY: all test demo bench-m4 bench-m55 flash-m4 bench-decode bench-x86 test-m4 test-m55 format clean readme-ops

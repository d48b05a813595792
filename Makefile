# tflc build. `make` builds build/tflc; `make test` runs every test and
# prints "N passed, N failed"; `make demo` runs the demo.
CC ?= cc
WARN = -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror
OPT ?= -O2
CFLAGS_TOOL = -std=c11 -D_POSIX_C_SOURCE=200809L $(OPT) $(WARN)
SHARED ?= ../shared
HDRS = tflc.h tflc_kernels.h $(wildcard dev/*.h)

all: build/tflc

build:
	mkdir -p build

build/tflc: examples/tflc.c examples/cmd_compress.h $(HDRS) | build
	$(CC) $(CFLAGS_TOOL) -o $@ examples/tflc.c -lm

.PHONY: all test clean
clean:
	rm -rf build

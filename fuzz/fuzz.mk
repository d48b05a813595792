# fuzz/fuzz.mk - fuzzing, sanitizer and stack/symbol checks for tflc.
# Included by the top Makefile (`-include fuzz/fuzz.mk`); every path is
# relative to the repository root.
#
#   make fuzz [FUZZ_SECONDS=10]  build the harnesses, generate the seed
#                      corpora, run each harness FUZZ_SECONDS; closing line
#                      "N passed, N failed" (one check per harness); any
#                      finding fails (artifacts in build/fuzz/artifacts/)
#   make fuzz-build    the harnesses (clang, libFuzzer + ASan + UBSan) and
#                      the replay drivers (any cc, no libFuzzer)
#   make fuzz-replay FILES="crash-... dir/"   rerun inputs of every harness
#   make stack         deepest stack from tflc_invoke (gcc -fstack-usage
#                      -fcallgraph-info=su, fuzz/stack_report.c)
#   make symbols-check the runtime (TFLC_IMPLEMENTATION only) references no
#                      malloc/free/printf/abort/exit... (nm)
#   make test-asan     the unit tests + test_malformed under ASan+UBSan
#   make test-valgrind the unit tests + test_malformed under memcheck
#   make test-malformed  tests/test_malformed.c alone (ASan+UBSan)
#
# Variables: FUZZ_CC (clang), FUZZ_SECONDS (10), FUZZ_JOBS (1: harnesses
# run one after another; N: N harnesses at a time, each FUZZ_SECONDS),
# FUZZ_MAX_LEN (65536), FUZZ_TIMEOUT (per input,
# 30 s), FUZZ_SEED_KB (shared models up to this size seed fuzz_model, 64),
# SHARED (../shared, from the top Makefile).

_fuzz_saved_goal := $(.DEFAULT_GOAL)

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 10
FUZZ_MAX_LEN ?= 65536
FUZZ_TIMEOUT ?= 30
FUZZ_SEED_KB ?= 64
FUZZ_JOBS ?= 1
SHARED ?= ../shared
FUZZ_OUT = build/fuzz
FUZZ_HARNESSES = model model_lean lut roundtrip decode kernels
FUZZ_HDRS = tflc.h tflc_kernels.h tflc_write.h fuzz/models.h tests/harness.h tests/hifi_emu.h \
  tests/models.h
FUZZ_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -fno-omit-frame-pointer
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all \
  -fno-omit-frame-pointer
FUZZ_BINS = $(FUZZ_HARNESSES:%=$(FUZZ_OUT)/fuzz_%)
FUZZ_REPLAY = $(FUZZ_HARNESSES:%=$(FUZZ_OUT)/replay_%)

$(FUZZ_OUT)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_HDRS) fuzz/fuzz_model.c
	@mkdir -p $(FUZZ_OUT)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< -lm

# replay drivers: plain cc (gcc), ASan+UBSan, no libFuzzer
$(FUZZ_OUT)/replay_%: fuzz/fuzz_%.c fuzz/replay.c $(FUZZ_HDRS) fuzz/fuzz_model.c
	@mkdir -p $(FUZZ_OUT)
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g $(FUZZ_SAN) -o $@ $< \
	  fuzz/replay.c -lm

# fuzz_kernels compares every fast primitive with the portable one: built
# with -mavx2 so that the SSE4.1 and AVX2 versions are compiled in (the
# Arm DSP ones come through TFLC_DSP_EMULATE in the source), and linked
# with fuzz/fuzz_kernels_wide.c (its case 8: the kernels compiled again
# with the Arm DSP's convolution paths, TFLC_CONV_WIDE_TEST)
$(FUZZ_OUT)/fuzz_kernels: fuzz/fuzz_kernels.c fuzz/fuzz_kernels_wide.c \
  $(FUZZ_HDRS)
	@mkdir -p $(FUZZ_OUT)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -mavx2 -o $@ $< fuzz/fuzz_kernels_wide.c -lm

$(FUZZ_OUT)/replay_kernels: fuzz/fuzz_kernels.c fuzz/fuzz_kernels_wide.c \
  fuzz/replay.c $(FUZZ_HDRS)
	@mkdir -p $(FUZZ_OUT)
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -mavx2 $(FUZZ_SAN) -o $@ \
	  $< fuzz/fuzz_kernels_wide.c fuzz/replay.c -lm

$(FUZZ_OUT)/gen_corpus: fuzz/gen_corpus.c $(FUZZ_HDRS)
	@mkdir -p $(FUZZ_OUT)
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -o $@ fuzz/gen_corpus.c -lm

# Seed corpora: the writer's models, plus the shared models and conformance
# models up to FUZZ_SEED_KB (read where they are; copies stay in build/).
$(FUZZ_OUT)/seeds.stamp: $(FUZZ_OUT)/gen_corpus
	@rm -rf $(FUZZ_OUT)/seeds
	@mkdir -p $(FUZZ_HARNESSES:%=$(FUZZ_OUT)/seeds/%)
	$(FUZZ_OUT)/gen_corpus $(FUZZ_OUT)/seeds
	@if [ -d "$(SHARED)" ]; then \
	  n=0; for f in $$(find "$(SHARED)/models" "$(SHARED)/conformance" \
	      -name '*.tflite' -size -$(FUZZ_SEED_KB)k 2>/dev/null | sort); do \
	    n=$$((n + 1)); cp "$$f" "$(FUZZ_OUT)/seeds/model/shared_$$n.tflite"; \
	  done; echo "seeds: $$n shared models from $(SHARED)"; \
	fi
	@touch $@

.PHONY: fuzz fuzz-build fuzz-corpus fuzz-replay stack symbols-check \
  test-asan test-valgrind test-malformed

fuzz-build: $(FUZZ_BINS) $(FUZZ_REPLAY)
fuzz-corpus: $(FUZZ_OUT)/seeds.stamp

# Each harness: its own growing corpus in build/fuzz/corpus/<h> (seeded
# from build/fuzz/seeds/<h>), FUZZ_SECONDS of fuzzing, one worker.
# (of the replay drivers only replay_model is built here; it replays the
# model seeds after the run, the one check of replay.c: `make fuzz-build`
# or `fuzz-replay` builds them all)
fuzz: $(FUZZ_BINS) $(FUZZ_OUT)/replay_model fuzz-corpus
	@mkdir -p $(FUZZ_OUT)/artifacts $(FUZZ_HARNESSES:%=$(FUZZ_OUT)/corpus/%)
	@n=0; for h in $(FUZZ_HARNESSES); do \
	  dict=""; seeds=$(FUZZ_OUT)/seeds/$$h; \
	  case $$h in model*) dict="-dict=fuzz/tflite.dict" \
	    seeds=$(FUZZ_OUT)/seeds/model;; esac; \
	  log=$(FUZZ_OUT)/fuzz_$$h.log; rm -f $$log.rc; \
	  ( $(FUZZ_OUT)/fuzz_$$h -max_total_time=$(FUZZ_SECONDS) \
	      -max_len=$(FUZZ_MAX_LEN) -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 \
	      -print_final_stats=1 $$dict \
	      -artifact_prefix=$(FUZZ_OUT)/artifacts/$$h- \
	      $(FUZZ_OUT)/corpus/$$h $$seeds >$$log 2>&1; echo $$? >$$log.rc ) & \
	  n=$$((n + 1)); \
	  if [ $$n -ge $(FUZZ_JOBS) ]; then wait; n=0; fi; \
	done; wait; \
	pass=0; fail=0; \
	for h in $(FUZZ_HARNESSES); do \
	  log=$(FUZZ_OUT)/fuzz_$$h.log; \
	  if [ "$$(cat $$log.rc 2>/dev/null)" = 0 ]; then \
	    runs=$$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 runs in \2 s/p' $$log); \
	    echo "fuzz_$$h: ok, $$runs, no finding"; pass=$$((pass + 1)); \
	  else \
	    echo "fuzz_$$h: FINDING (log $$log; artifacts $(FUZZ_OUT)/artifacts/$$h-*)"; \
	    grep -E 'ERROR|runtime error|fuzz_$$h:|SUMMARY' $$log | head -n 5; \
	    fail=$$((fail + 1)); \
	  fi; \
	done; \
	if $(FUZZ_OUT)/replay_model $(FUZZ_OUT)/seeds/model \
	    >$(FUZZ_OUT)/replay_model.log 2>&1; then \
	  echo "replay_model: ok, $$(tail -n 1 $(FUZZ_OUT)/replay_model.log) (the model seeds)"; \
	  pass=$$((pass + 1)); \
	else \
	  echo "replay_model: FAILED (log $(FUZZ_OUT)/replay_model.log)"; \
	  tail -n 5 $(FUZZ_OUT)/replay_model.log; fail=$$((fail + 1)); \
	fi; \
	echo "$$pass passed, $$fail failed"; [ $$fail = 0 ]

# make fuzz-replay FILES="path ..." : every harness's replay driver on them
fuzz-replay: $(FUZZ_REPLAY)
	@for h in $(FUZZ_HARNESSES); do \
	  echo "== replay_$$h"; $(FUZZ_OUT)/replay_$$h $(FILES) || exit 1; done

# ---- stack -----------------------------------------------------------------
# The runtime compiled as shipped (-O2), with gcc's stack usage and call
# graph; fuzz/stack_report.c sums the frames along the deepest chain from
# tflc_invoke (the .su file has the per-function frames), following the
# operator table's calls through pointers (--indirect: every *_invoke,
# every *_prepare for init). The recursions: subgraphs running subgraphs
# (IF, WHILE, CALL_ONCE) nest at most TFLC_MAX_NESTING (8) deep below the
# main graph; tflc__whole_input asks once about the filter of a bias (2);
# a chain run band by band asks each layer for rows of the one before it,
# at most TFLC__PATCH_MAX (16) layers deep (tflc__patch_produce, and at
# init its dry run tflc__patch_sim_produce).
# A report that finds any other recursion fails.
STACK_OUT = build/stack
stack:
	@mkdir -p $(STACK_OUT)
	@printf '#define TFLC_IMPLEMENTATION\n#include "../../tflc.h"\n' \
	  >$(STACK_OUT)/impl.c
	cd $(STACK_OUT) && gcc -std=c99 -O2 -fstack-usage -fcallgraph-info=su \
	  -c impl.c -o impl.o
	gcc -std=c99 -O1 -o $(STACK_OUT)/stack_report fuzz/stack_report.c
	@echo "== host (gcc -O2): tflc_invoke"
	$(STACK_OUT)/stack_report tflc_invoke --depth tflc__run_graph=9 \
	  --depth tflc__patch_produce=16 --indirect _invoke $(STACK_OUT)/impl.ci
	@for r in tflc_model_init \
	    "tflc_interpreter_init --depth tflc__whole_input=2 --depth tflc__patch_sim_produce=16 --indirect _prepare"; \
	  do echo "== host: $${r%% *}"; \
	  $(STACK_OUT)/stack_report $$r $(STACK_OUT)/impl.ci \
	    >$(STACK_OUT)/report.txt || { cat $(STACK_OUT)/report.txt; exit 1; }; \
	  tail -n 1 $(STACK_OUT)/report.txt; \
	done
	@if command -v arm-none-eabi-gcc >/dev/null; then \
	  cd $(STACK_OUT) && arm-none-eabi-gcc -std=c99 -mcpu=cortex-m4 -mthumb \
	    -mfloat-abi=hard -mfpu=fpv4-sp-d16 -Os -fstack-usage \
	    -fcallgraph-info=su -c impl.c -o impl_m4.o -dumpbase impl_m4 && \
	  for r in "tflc_invoke --depth tflc__run_graph=9 --depth tflc__patch_produce=16 --indirect _invoke" \
	      tflc_model_init \
	      "tflc_interpreter_init --depth tflc__whole_input=2 --depth tflc__patch_sim_produce=16 --indirect _prepare"; \
	  do echo "== Cortex-M4 (arm-none-eabi-gcc -Os): $${r%% *}"; \
	    ./stack_report $$r impl_m4.ci >report.txt || { cat report.txt; exit 1; }; \
	    tail -n 1 report.txt; \
	  done; \
	fi
	@echo "per-function frames: $(STACK_OUT)/impl.su (libm frames not included)"
	@echo "1 passed, 0 failed"

# ---- symbols ---------------------------------------------------------------
SYMBOLS_BAD = malloc calloc realloc free printf fprintf sprintf snprintf \
  vprintf vfprintf puts putchar fputs fputc fwrite abort exit _exit \
  __assert_fail __stack_chk_fail
symbols-check:
	@mkdir -p build/symbols
	@printf '#define TFLC_IMPLEMENTATION\n#include "../../tflc.h"\n' \
	  >build/symbols/impl.c
	@bad=0; for cc_opt in "gcc -O0" "gcc -O2" "gcc -Os" "clang -O2"; do \
	  $$cc_opt -std=c99 -c build/symbols/impl.c -o build/symbols/impl.o \
	    || exit 1; \
	  undef=$$(nm -u build/symbols/impl.o | awk '{print $$NF}'); \
	  for s in $(SYMBOLS_BAD); do \
	    if printf '%s\n' $$undef | grep -qx "$$s"; then \
	      echo "symbols-check: $$cc_opt: runtime references $$s"; bad=1; fi; \
	  done; \
	  echo "symbols-check: $$cc_opt: references" $$undef; \
	done; \
	if [ $$bad = 0 ]; then echo "1 passed, 0 failed"; \
	else echo "0 passed, 1 failed"; exit 1; fi

# ---- sanitized and memcheck test runs ---------------------------------------
# The unit tests (tests/test_*.c, test_malformed included) under ASan+UBSan
# (same as `make test SANITIZE=1` does for them) or valgrind memcheck.
FUZZ_TEST_WARN = -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror
FUZZ_TESTS = $(sort $(wildcard tests/test_*.c))

define fuzz_run_tests
	@mkdir -p $(1)
	@pass=0; fail=0; \
	for src in $(FUZZ_TESTS); do \
	  name=$$(basename $$src .c); \
	  if ! $(CC) -std=c99 $(FUZZ_TEST_WARN) -O1 -g $(2) -o $(1)/$$name $$src \
	      -lm; then \
	    echo "$$name: does not compile"; fail=$$((fail + 1)); continue; fi; \
	  SHARED=$(SHARED) $(3) $(1)/$$name >$(1)/$$name.out 2>$(1)/$$name.err; \
	  rc=$$?; \
	  line=$$(grep -E '^[0-9]+ passed, [0-9]+ failed' $(1)/$$name.out \
	    | tail -n 1); \
	  echo "$$name: $${line:-no result line} (exit $$rc)"; \
	  p=$$(echo "$$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p'); \
	  f=$$(echo "$$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p'); \
	  if [ -z "$$p" ]; then fail=$$((fail + 1)); \
	  else pass=$$((pass + p)); fail=$$((fail + f)); fi; \
	  if [ $$rc != 0 ] && [ "$$f" = 0 ]; then fail=$$((fail + 1)); \
	    echo "$$name: exit status $$rc (see $(1)/$$name.err)"; fi; \
	done; \
	echo "$$pass passed, $$fail failed"; [ $$fail = 0 ]
endef

test-asan:
	$(call fuzz_run_tests,build/asan/tests,$(FUZZ_SAN),)

test-valgrind:
	$(call fuzz_run_tests,build/valgrind/tests,,valgrind -q --error-exitcode=99 --leak-check=full)

test-malformed:
	@mkdir -p build/asan/tests
	$(CC) -std=c99 $(FUZZ_TEST_WARN) -O1 -g $(FUZZ_SAN) \
	  -o build/asan/tests/test_malformed tests/test_malformed.c -lm
	build/asan/tests/test_malformed

# keep the including Makefile's default goal
.DEFAULT_GOAL := $(_fuzz_saved_goal)

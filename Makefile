# slowpath — build, test, benchmark.
#
#   make              ./slowpath (release build, SIM_DEBUG=1)
#   make check        every test, debug build (SIM_DEBUG=3: mm_check after every event)
#   make check-san    every test under ASan + UBSan
#   make test         what CI runs: deps, warning-free gcc and clang builds,
#                     check, check-san, a short fuzz run
#   make demo         the main job: the demonstration case, with its report
#   make bench        benchmarks (figures for closing notes; never timed tests)
#   make fuzz         longer libFuzzer runs (FUZZ_SECONDS each), then the
#                     simulation fuzzer for SIMFUZZ_SECONDS
#   make update-golden  regenerate golden expected files (review the diff!)
#   make deps         install the Debian packages (scripts/install-deps.sh)
#
# Layers point down only: cli -> report -> workload -> mm -> sim; record -> report.

CC       ?= cc
WERROR   ?= 0
JOBS     ?= 2
FUZZ_SECONDS ?= 60

WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN     += -Werror
endif
# The commit goes into --version and each result folder's scenario.ini
# (objects are not rebuilt when only the commit changes: `make clean` for
# a release build).
COMMIT   := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
BASE_CFLAGS := -std=c17 -D_GNU_SOURCE -g -Isrc -MMD -MP -ffp-contract=off $(WARN) \
               -DSLOWPATH_COMMIT='"$(COMMIT)"'
LDLIBS   := -linih -ljansson -lgsl -lgslcblas -lm

REL_CFLAGS := $(BASE_CFLAGS) -O2 -DSIM_DEBUG=1
# SIM_DEBUG=0: every check compiled out.  It must give the same results
# byte for byte as the checked builds (no side effects in asserts); suite
# 0007 compares them.
NDBG_CFLAGS := $(BASE_CFLAGS) -O2 -DSIM_DEBUG=0
DBG_CFLAGS := $(BASE_CFLAGS) -O1 -DSIM_DEBUG=3
SAN_CFLAGS := $(BASE_CFLAGS) -O1 -DSIM_DEBUG=3 -fsanitize=address,undefined \
              -fno-sanitize-recover=undefined -fno-omit-frame-pointer
SAN_LDFLAGS := -fsanitize=address,undefined

.DEFAULT_GOAL := all

LIB_SRC   := $(sort $(filter-out src/cli/main.c,$(wildcard src/*/*.c)))
TEST_SRC  := $(sort $(wildcard tests/unit/test_*.c))
BENCH_SRC := $(sort $(wildcard bench/bench_*.c))
ASM_SRC   := $(sort $(wildcard src/*/*.S))

define flavour
# $(1) = name, $(2) = CFLAGS, $(3) = LDFLAGS
$(1)_DIR   := build/$(1)
$(1)_OBJ   := $$(LIB_SRC:%.c=build/$(1)/%.o) $$(ASM_SRC:%.S=build/$(1)/%.o)
$(1)_LIB   := build/$(1)/libslowpath.a
$(1)_BIN   := build/$(1)/slowpath
$(1)_TESTS := $$(TEST_SRC:tests/unit/%.c=build/$(1)/tests/%)

build/$(1)/%.o: %.c
	@mkdir -p $$(@D)
	$$(CC) $(2) -c $$< -o $$@

build/$(1)/%.o: %.S
	@mkdir -p $$(@D)
	$$(CC) $(2) -c $$< -o $$@

$$($(1)_LIB): $$($(1)_OBJ)
	@rm -f $$@
	ar rcs $$@ $$^

$$($(1)_BIN): build/$(1)/src/cli/main.o $$($(1)_LIB)
	$$(CC) $(3) -o $$@ $$^ $$(LDLIBS)

build/$(1)/tests/harness.o: tests/unit/harness.c
	@mkdir -p $$(@D)
	$$(CC) $(2) -c $$< -o $$@

build/$(1)/tests/%: tests/unit/%.c build/$(1)/tests/harness.o $$($(1)_LIB)
	@mkdir -p $$(@D)
	$$(CC) $(2) $(3) -Itests/unit -o $$@ $$< build/$(1)/tests/harness.o $$($(1)_LIB) $$(LDLIBS)

# The simulation fuzzer's scenario generator (tests/fuzz/simfuzz.sh).
build/$(1)/tests/simfuzz-gen: tests/fuzz/simfuzz_gen.c $$($(1)_LIB)
	@mkdir -p $$(@D)
	$$(CC) $(2) $(3) -o $$@ $$< $$($(1)_LIB) $$(LDLIBS)

-include $$(shell find build/$(1) -name '*.d' 2>/dev/null)
endef

$(eval $(call flavour,rel,$(REL_CFLAGS),))
$(eval $(call flavour,dbg,$(DBG_CFLAGS),))
$(eval $(call flavour,ndbg,$(NDBG_CFLAGS),))
$(eval $(call flavour,san,$(SAN_CFLAGS),$(SAN_LDFLAGS)))

BENCH_BINS := $(BENCH_SRC:bench/%.c=build/rel/bench/%)
build/rel/bench/%: bench/%.c $(rel_LIB)
	@mkdir -p $(@D)
	$(CC) $(REL_CFLAGS) -Ibench -o $@ $< $(rel_LIB) $(LDLIBS)

.PHONY: all check check-san test demo bench fuzz fuzz-smoke update-golden deps clean warnings-clang

all: slowpath

slowpath: $(rel_BIN)
	cp $< $@

check: $(dbg_BIN) $(dbg_TESTS) $(ndbg_BIN) build/dbg/tests/simfuzz-gen
	@tests/run-tests.sh build/dbg

check-san: $(san_BIN) $(san_TESTS) $(ndbg_BIN) build/san/tests/simfuzz-gen
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/run-tests.sh build/san

# Warning-free with clang too (objects only, nothing is run).
warnings-clang:
	$(MAKE) --no-print-directory CC=clang WERROR=1 build/clang-check.stamp

build/clang-check.stamp: $(LIB_SRC) src/cli/main.c $(TEST_SRC) $(BENCH_SRC) tests/fuzz/simfuzz_gen.c
	@mkdir -p build/clang
	@for f in $^; do $(CC) $(filter-out -MMD -MP,$(REL_CFLAGS)) -Itests/unit -Ibench -fsyntax-only $$f || exit 1; done
	@touch $@

deps:
	@scripts/install-deps.sh

test: deps
	$(MAKE) --no-print-directory -j$(JOBS) WERROR=1 slowpath
	$(MAKE) --no-print-directory warnings-clang
	$(MAKE) --no-print-directory -j$(JOBS) WERROR=1 check
	$(MAKE) --no-print-directory -j$(JOBS) WERROR=1 check-san
	$(MAKE) --no-print-directory fuzz-smoke

demo: deps
	$(MAKE) --no-print-directory -j$(JOBS) slowpath
	@scripts/demo.sh

bench: $(BENCH_BINS)
	@for b in $(BENCH_BINS); do echo "== $$b"; $$b || exit 1; done

FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)
FUZZ_LIB_SRC := $(filter-out src/cli/main.c,$(LIB_SRC))
build/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB_SRC) $(ASM_SRC)
	@mkdir -p $(@D)
	clang $(BASE_CFLAGS) -O1 -DSIM_DEBUG=1 -fsanitize=fuzzer,address,undefined -o $@ $^ $(LDLIBS)

fuzz-smoke: $(FUZZ_BINS)
	@tests/fuzz/run.sh smoke $(FUZZ_BINS)

# The simulation fuzzer (tests/fuzz/simfuzz.sh): SIMFUZZ_SECONDS of
# generated scenarios under ASan/UBSan from a new first seed each time;
# failures stay in build/fuzz/simfuzz/seed-N.ini.  Suite 0011 runs the
# same from seed 1 for 35 s in check-san.
SIMFUZZ_SECONDS ?= 600
fuzz: $(FUZZ_BINS) $(san_BIN) build/san/tests/simfuzz-gen
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh long $(FUZZ_BINS); s=$$?; \
	 tests/fuzz/simfuzz.sh build/san $(SIMFUZZ_SECONDS) $$(date +%s) build/fuzz/simfuzz || s=1; exit $$s

update-golden: $(dbg_BIN)
	@UPDATE_GOLDEN=1 tests/golden/run.sh build/dbg

clean:
	rm -rf build slowpath

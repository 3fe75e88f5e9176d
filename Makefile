# warpgate top-level Makefile.
#   make run    set up, build, run the short default power-gating experiment on the Verilated SM and GPU
#   make test   set up, build, run every test that fits in CI
#   make deps   install missing Debian packages (sudo when not root)
#   make help   everything else

SHELL := /bin/bash
BUILD ?= build
PREFIX ?= /usr/local
TARGET ?= sim
# make run-kernels: every kernel program on TARGET. Problem sizes: the RTL runs the CI
# sizes, the golden model the default ones.
RUN_SIZE ?= $(if $(filter sim,$(TARGET)),small,default)
# Target options for every kernel of make run-kernels, e.g. RUN_OPTS='l1_mode=fermi l1_split=48'.
RUN_OPTS ?=
# make run: warpgate experiment RUN_EXPERIMENTS on RUN_KERNELS at RUN_EXP_SIZE, RUN_JOBS
# runs at once, on RUN_TARGET (the Verilated 15-SM GPU; RUN_TARGET= leaves each experiment
# on its own default: sim for simd and bet, gpu for cta); CSV, tables and plots in
# RUN_OUT/EXPERIMENT (docs/experiments.md section 5).
RUN_EXPERIMENTS ?= simd bet cta
RUN_TARGET ?= gpu
RUN_KERNELS ?= vecadd,matmul,reduce,saxpy
RUN_EXP_SIZE ?= small
RUN_JOBS ?= 2
RUN_OUT ?= $(BUILD)/run
CC ?= cc

WERROR ?= -Werror
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Wshadow -Wno-unused-parameter $(WERROR) \
          -ffp-contract=off -fno-strict-aliasing -MMD -MP
CPPFLAGS += -Ihost/include -Ihost/src $(shell pkg-config --cflags libusb-1.0)
# Every program links the Verilated SM (the "sim" target) with libwarpgate.
WGSIM_LIB := $(BUILD)/sim/libwgsim.a
# ... and the Verilated GPU top (the "gpu" target, sim/gpu.mk).
GPU_LIB := $(BUILD)/gpu/libwggpu.a
RTL_LIBS := $(GPU_LIB) $(WGSIM_LIB)
LDLIBS += $(RTL_LIBS) $(shell pkg-config --libs libusb-1.0) -lstdc++ -lz -lpthread -lm

HOST_SRCS := $(sort $(wildcard host/src/*.c))
HOST_OBJS := $(HOST_SRCS:%.c=$(BUILD)/obj/%.o)
LIB := $(BUILD)/libwarpgate.a
CLI := $(BUILD)/warpgate

UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

KERNEL_PROGS := $(filter-out kernels/common.c,$(sort $(wildcard kernels/*.c)))
KERNEL_BINS := $(KERNEL_PROGS:kernels/%.c=$(BUILD)/kernels/%)
KERNEL_ASMS := $(sort $(wildcard kernels/*.s))

# The CUDA benchmark suite (docs/suite.md): kernels/cuda/NAME.cu, its PTX, driver NAME.c.
SUITE_PROGS := $(sort $(wildcard kernels/cuda/*.c))
SUITE_BINS := $(SUITE_PROGS:kernels/cuda/%.c=$(BUILD)/cuda/%)
# Suite programs that make test runs (func, sim in lockstep, identical downloads): all of
# them (docs/suite.md, section Status); a subset with SUITE_CI='bfs lps'.
SUITE_CI ?= all
override SUITE_CI := $(if $(filter all,$(SUITE_CI)),$(SUITE_PROGS:kernels/cuda/%.c=%),$(SUITE_CI))
# make ptx (sim/ptx.mk) regenerates the suite's committed .ptx together with tests/ptx's.

.PHONY: all deps run run-kernels experiment-test test unit-test kernel-test roundtrip-test install-test cosim-rtl lint install clean help bench \
        mem-count-test suite-test suite-emu-test suite-run
.DEFAULT_GOAL := all

all: $(LIB) $(CLI) $(KERNEL_BINS) $(SUITE_BINS)

help:
	@echo "make run         the short default experiment: $(RUN_EXPERIMENTS) on $(RUN_KERNELS), tables and plots in $(RUN_OUT)/"
	@echo "make run-kernels build and run every kernel program on TARGET=$(TARGET) (RUN_SIZE=$(RUN_SIZE)), print statistics"
	@echo "make experiment-test  short 'warpgate experiment cta' (GPU), simd and bet (SM) runs and checks of their CSVs"
	@echo "make test        build and run the CI test suite"
	@echo "make deps        install missing Debian packages"
	@echo "make bench       golden-model speed on the kernel programs"
	@echo "make suite-test  the CUDA suite (SUITE_CI=$(SUITE_CI)) at the small size: func, sim (lockstep), same downloads"
	@echo "make suite-emu-test  the CUDA suite's drivers with the kernels compiled for the host (no PTX)"
	@echo "make suite-run   the CUDA suite at SUITE_SIZE=default on SUITE_TARGETS=sim gpu, then the figures table"
	@echo "make mem-count-test  memory-pipeline counters of directed kernels on MEM_COUNT_TARGETS=$(MEM_COUNT_TARGETS)"
	@echo "make install     PREFIX=$(PREFIX): header, library, CLI, pkg-config file"
	@echo "make lint        static checks"
	@echo "make ptx         regenerate tests/ptx/*.ptx and kernels/cuda/*.ptx with nvcc; make ptx-test runs tests/ptx (docs/ptx.md)"
	@echo "make fuzz-smoke  fuzz the PTX frontend and the assembler 20 s each; make fuzz FUZZ_SECONDS=N"
	@echo "make clean       remove $(BUILD)/"

deps:
	@scripts/deps.sh

# --- library and CLI -------------------------------------------------------
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIB): $(HOST_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(CLI): $(BUILD)/obj/host/cli/warpgate.o $(LIB) $(RTL_LIBS)
	$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(LIB) $(LDLIBS)

# --- kernel programs -------------------------------------------------------
$(BUILD)/kernels/%: $(BUILD)/obj/kernels/%.o $(BUILD)/obj/kernels/common.o $(LIB) $(RTL_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(LIB) $(LDLIBS)

$(BUILD)/obj/kernels/cuda/%.o: CPPFLAGS += -Ikernels

$(BUILD)/cuda/%: $(BUILD)/obj/kernels/cuda/%.o $(BUILD)/obj/kernels/common.o $(LIB) $(RTL_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(LIB) $(LDLIBS)

suite-test: suite-emu-test $(SUITE_CI:%=$(BUILD)/cuda/%)
	@scripts/suite-tests.sh $(BUILD) $(SUITE_CI)

# The suite's drivers against the CUDA sources compiled for the host (tests/suite_emu):
# checks drivers, references and tolerances without the PTX frontend.
CXX ?= c++
SUITE_EMU_OBJ := $(BUILD)/obj/tests/suite_emu/emu.o
$(SUITE_EMU_OBJ): tests/suite_emu/emu.cpp tests/suite_emu/cuda_shim.h host/include/warpgate.h \
		$(wildcard kernels/cuda/*.cu)
	@mkdir -p $(@D)
	$(CXX) -std=gnu++17 -O2 -g -Wall -Wextra -Wno-unused-parameter $(WERROR) -ffp-contract=off -Ihost/include \
		-Ikernels/cuda -Itests/suite_emu -c $< -o $@

$(BUILD)/suite-emu/%: $(BUILD)/obj/kernels/cuda/%.o $(BUILD)/obj/kernels/common.o $(SUITE_EMU_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ -lstdc++ -lpthread -lm

suite-emu-test: $(SUITE_PROGS:kernels/cuda/%.c=$(BUILD)/suite-emu/%)
	@fail=0; for p in $^; do for s in 1 2; do \
		$$p --size small --seed $$s >$$p.$$s.log 2>&1 || { fail=1; echo "suite-emu-test: FAIL $$p --seed $$s"; \
			tail -15 $$p.$$s.log; }; done; done; \
	[ $$fail = 0 ] && echo "suite-emu-test: $(words $^) programs x 2 seeds passed"

SUITE_SIZE ?= default
SUITE_TARGETS ?= sim gpu
suite-run: $(SUITE_BINS)
	@scripts/suite-figures.sh --run $(BUILD) $(SUITE_SIZE) "$(SUITE_TARGETS)"

run: deps all
	@scripts/run-experiment.sh $(BUILD) $(RUN_OUT) "$(RUN_EXPERIMENTS)" $(RUN_KERNELS) $(RUN_EXP_SIZE) $(RUN_JOBS) \
		$(RUN_TARGET)

run-kernels: deps all
	@scripts/run-kernels.sh $(BUILD) $(TARGET) $(RUN_SIZE) "$(RUN_OPTS)"

experiment-test: $(CLI) $(BUILD)/kernels/vecadd
	@scripts/experiment-test.sh $(BUILD)

bench: all
	@scripts/bench-func.sh $(BUILD)

# --- tests -----------------------------------------------------------------
$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(LIB) $(RTL_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(LIB) -lcmocka $(LDLIBS)

# make test builds everything first (test-build, two jobs at a time), then runs its parts in two
# queues at once, one per core (scripts/test-parts.sh: each part's output and wall time printed
# when it ends; the CI budget is about 20 minutes on 2 cores). The queues are balanced by the
# parts' wall times in a clean clone (rtl-test about 520 s and fuzz-smoke about 60 s, against
# about 550 s for the rest); a part's logs stay in $(BUILD)/test-logs.
TEST_QUEUE1 := rtl-test fuzz-smoke
TEST_QUEUE2 := unit-test mem-count-test ptx-test roundtrip-test kernel-test experiment-test suite-test install-test \
	cosim cosim-rtl pg-smoke pgtrace-test
# The run-time library first: every model links it, and with it built the long SM and GPU
# models start at once rather than behind the block tests (make's order of prerequisites).
test: deps
	@t0=$$(date +%s); $(MAKE) --no-print-directory $(RTL_RT)/stamp && $(MAKE) --no-print-directory -j2 test-build \
		|| { echo "make test: test-build FAILED"; exit 1; }; \
	echo "make test: test-build passed in $$(( $$(date +%s) - t0 )) s"; \
	MAKE="$(MAKE)" scripts/test-parts.sh $(BUILD)/test-logs "$(TEST_QUEUE1)" "$(TEST_QUEUE2)" || exit 1; \
	echo "make test: all suites passed in $$(( $$(date +%s) - t0 )) s"

unit-test: $(UNIT_BINS)
	@scripts/run-unit-tests.sh $(UNIT_BINS)

# Memory-pipeline counters of directed kernels (tests/unit/test_mem_counts.c, docs/memory-pipeline.md)
# on every target listed (make unit-test runs it on func; make test on both).
MEM_COUNT_TARGETS ?= func sim
mem-count-test: $(BUILD)/tests/test_mem_counts
	@for t in $(MEM_COUNT_TARGETS); do \
		echo "mem-count-test: $$t"; \
		WG_TEST_TARGET=$$t $< >$<.$$t.log 2>&1 || { tail -40 $<.$$t.log; exit 1; }; \
		grep -E '^\[  (PASSED|FAILED)  \]' $<.$$t.log | sed "s|^|test_mem_counts ($$t): |"; \
	done

roundtrip-test: $(CLI)
	@scripts/roundtrip.sh $(BUILD) $(KERNEL_ASMS)

kernel-test: $(KERNEL_BINS) $(CLI)
	@scripts/kernel-tests.sh $(BUILD)

lint:
	@scripts/lint.sh

# RTL tests: sim/rtl.mk adds its recipes to this double-colon rule.
rtl-test::
include configs/boards.mk
-include sim/rtl.mk
-include sim/fp32.mk
-include sim/simd.mk
-include sim/sm.mk
-include sim/cosim.mk
-include sim/coalescer.mk
-include sim/smem.mk
-include sim/l1.mk
-include sim/sfu.mk
-include sim/gpu.mk
-include sim/board.mk
-include sim/bench_link.mk
-include sim/link.mk
-include sim/jtag.mk
# before sim/usb.mk, whose rules name the firmware image
-include firmware/firmware.mk
-include sim/fx2.mk
-include sim/usb.mk
-include sim/bench.mk
-include sim/synth.mk
-include sim/fpga.mk
-include sim/ptx.mk

# What make test builds, built first two jobs at a time (most of these are Verilator builds of
# one process each; the big libraries compile with two jobs of their own): the libraries, the
# unit-test and kernel programs, every RTL test's model, the board and usb programs.
test-build: $(LIB) $(CLI) $(RTL_LIBS) $(UNIT_BINS) $(KERNEL_BINS) $(RTL_TESTS) \
	$(COAL_SIM) $(COAL_SCAN_SIM) $(SMEM_SIMS) $(L1_SIMS) $(SIMD_ALU_SIM) $(SIMD_UNIT_SIMS) $(FP32_SIM) \
	$(SFU_DIR)_l4/test_sfu_l4 $(SFU_DIR)_l1/test_sfu_l1 $(FX2_SIM) $(FX2L_SIM) $(LINK_SIMS) \
	$(JTAG_DIR)/test_jtag $(JTAG_DIR)/jtag_bitbang $(SM_DIR)/ut_simt/test_simt_stack \
	$(if $(wildcard tests/rtl/test_warp_sched.cpp),$(SM_DIR)/ut_sched/test_warp_sched) \
	$(SM_BRD_DIR)/test_sm $(GPU_DIR)/test_gpu $(BOARD_EXE) $(BOARD_DIR)/test_board_core $(FX2_EMU) $(USB_DIR)/test_board_jtag $(FW_IHX)
.PHONY: test-build

# --- install ---------------------------------------------------------------
install: $(LIB) $(RTL_LIBS) $(CLI)
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 host/include/warpgate.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(LIB) $(RTL_LIBS) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|0.1|' host/warpgate.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/warpgate.pc

clean:
	rm -rf $(BUILD) firmware/build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# CI-sized co-simulation of random kernels on the RTL, in lockstep with the golden model.
cosim-rtl:
	@$(MAKE) --no-print-directory cosim COSIM_TARGET=sim SEEDS=$(or $(CI_RTL_SEEDS),50) SEED0=1
	@$(MAKE) --no-print-directory cosim COSIM_TARGET=sim SEEDS=$(or $(CI_RTL_SEEDS_ALT),30) SEED0=501 \
		COSIM_OPTS='l1_mode=fermi l1_split=48 sched=gto mem_latency=60'

install-test: $(LIB) $(CLI)
	@scripts/install-test.sh

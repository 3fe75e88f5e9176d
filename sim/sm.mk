# The SM core (rtl/wg_sm.sv) as a C library and its tests (docs/sm-pipeline.md).
# Included by the top-level Makefile (-include sim/sm.mk); adds to rtl-test::.
#   make sm-lib         build/sim/libwgsim.a: Verilated wg_sm + sim/wgsim.cpp + Verilator
#                       run-time objects (FST tracing compiled in, off unless asked for)
#   make sm-test        tests/rtl/test_sm.c: kernels on the RTL vs the golden model
#   make bench-sim      simulated cycles per second of the full-size SM on matmul
#   make sm-lint        verilator --lint-only -Wall of every SM block as its own top
#   make sm-synth       yosys synthesis of a small SM: sim/synth.mk, docs/synthesis.md
#   make sm-unit-test   Verilator unit tests of wg_simt_stack and wg_warp_sched
#   make sm-board-test  test_sm on the SM of a board set of configs/boards.mk (SM_BOARD, default
#                       arty: 2 x 4 lanes, LSU_LANES 4; docs/fpga.md section 2); cases that do not
#                       fit the set are skipped by name. In make test (rtl-test): the only test of
#                       the narrow memory pipeline inside the SM
# Parameters of the library build: SM_PARAMS (Verilator -G options); the same values
# reach sim/wgsim.cpp as WGSIM_* macros.

VERILATOR ?= verilator
YOSYS ?= yosys

SM_DIR    := $(BUILD)/sim
SM_OBJ    := $(SM_DIR)/obj
SM_LIB    := $(SM_DIR)/libwgsim.a
SM_VLT    := $(wildcard rtl/*.vlt)
SM_RTL     = $(shell scripts/rtl-deps.py wg_sm)
# Only the SM's own files: a new block elsewhere in rtl/ does not rebuild the SM models.
SM_RTL_ALL := $(shell scripts/rtl-deps.py wg_sm)
SM_NUM_WARPS ?= 48
SM_SIMD_WIDTH ?= 16
SM_NUM_REGS ?= 32768
SM_PARAMS := -GNUM_WARPS=$(SM_NUM_WARPS) -GSIMD_WIDTH=$(SM_SIMD_WIDTH) -GNUM_REGS=$(SM_NUM_REGS)
SM_DEFS   := -DWGSIM_NUM_WARPS=$(SM_NUM_WARPS) -DWGSIM_SIMD_WIDTH=$(SM_SIMD_WIDTH) \
             -DWGSIM_NUM_REGS=$(SM_NUM_REGS)
SM_CFLAGS := -O2 -march=native -I$(CURDIR)/sim $(SM_DEFS)
# The model's C++ compiler. SM_CXX=clang++ (clang 14): bench-sim about 20% faster than
# g++ 12 at the same -O2 -march=native, but the FST trace file alone then compiles for
# several minutes (docs/sm.md section 5), so the default stays g++.
SM_CXX ?= $(CXX)
SM_VFLAGS := --cc --build -j 2 -Wall --trace-fst --x-assign fast --x-initial fast \
             -MAKEFLAGS OPT_FAST=-O2 -MAKEFLAGS CXX=$(SM_CXX) -CFLAGS "$(SM_CFLAGS)"
SM_RT_OBJS := verilated.o verilated_fst_c.o verilated_threads.o wgsim.o
SM_LDLIBS := -lstdc++ -lz -lpthread -lm

.PHONY: sm-lib sm-test bench-sim sm-lint sm-unit-test

sm-lib: $(SM_LIB)

# The model (slow: minutes) is rebuilt only when the RTL changes; wgsim.o on its own. The
# recipe is marked recursive (+) so that Verilator's make gets the jobserver and compiles
# two files at a time (without it: -j1, 434 s instead of 287 s in a clean make test).
$(SM_OBJ)/Vwg_sm__ALL.a: $(SM_RTL_ALL) $(SM_VLT) sim/sm.mk $(RTL_RT)/stamp
	@mkdir -p $(SM_OBJ)
	@echo "VERILATE wg_sm ($(SM_PARAMS))"
	@+start=$$(date +%s); \
	$(VERILATOR) $(SM_VFLAGS) $(SM_PARAMS) --top-module wg_sm --Mdir $(SM_OBJ) \
		$(SM_VLT) $(SM_RTL) $(abspath sim/wgsim.cpp) >$(SM_OBJ)/build.log 2>&1 \
	&& $(call rt_copy,$(SM_OBJ)) \
		|| { tail -40 $(SM_OBJ)/build.log; exit 1; }; \
	echo "wg_sm built in $$(( $$(date +%s) - start )) s"

$(SM_OBJ)/wgsim.o: sim/wgsim.cpp sim/wgsim.h $(SM_OBJ)/Vwg_sm__ALL.a
	$(MAKE) -s --no-print-directory -C $(SM_OBJ) -f Vwg_sm.mk OPT_FAST=-O2 CXX=$(SM_CXX) wgsim.o

$(SM_LIB): $(SM_OBJ)/Vwg_sm__ALL.a $(SM_OBJ)/wgsim.o
	rm -f $@
	cp $(SM_OBJ)/Vwg_sm__ALL.a $@
	ar rcs $@ $(addprefix $(SM_OBJ)/,$(SM_RT_OBJS))

$(SM_DIR)/test_sm: tests/rtl/test_sm.c $(SM_LIB) $(LIB)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Ihost/include -Ihost/src -Isim -o $@ $< $(SM_LIB) $(LIB) \
		$(SM_LDLIBS)

sm-test: $(SM_DIR)/test_sm
	$(SM_DIR)/test_sm
	$(SM_DIR)/test_sm --gto --latency=100 --fermi --l1-48k
	$(SM_DIR)/test_sm --pg --blackout --pg-idle=0 --pg-wake=5 --pg-bet=20

bench-sim: $(SM_DIR)/test_sm
	$(SM_DIR)/test_sm --bench=$(or $(BENCH_N),64)

rtl-test:: sm-test sm-unit-test

# The SM of a board set (configs/boards.mk, docs/fpga.md section 2), assertions on;
# test_sm's kernels against the golden model as in sm-test, those that do not fit the set
# skipped with the reason. Its own model directory per board, so it does not disturb sm-lib.
# `arty` is the narrow memory path's test too (LSU_LANES 4, docs/fpga.md section 3.3).
SM_BOARD     ?= arty
SM_BRD_DIR    := $(BUILD)/sim-$(SM_BOARD)
SM_BRD_OBJ    := $(SM_BRD_DIR)/obj
SM_BRD_PARAMS := $(call board_vflags,$(SM_BOARD),$(BOARD_SM_NAMES))
SM_BRD_CFLAGS := -O2 -march=native -I$(CURDIR)/sim $(call board_simdefs,$(SM_BOARD))
SM_BRD_VFLAGS := --cc --build -j 2 -Wall --assert --x-assign fast --x-initial fast \
                -MAKEFLAGS OPT_FAST=-O2 -MAKEFLAGS CXX=$(SM_CXX) -CFLAGS "$(SM_BRD_CFLAGS)"

$(SM_BRD_OBJ)/Vwg_sm__ALL.a: $(SM_RTL_ALL) $(SM_VLT) sim/sm.mk configs/boards.mk $(RTL_RT)/stamp
	@mkdir -p $(SM_BRD_OBJ)
	@[ -n "$(FPGA_BOARD_$(SM_BOARD))" ] || { echo "SM_BOARD=$(SM_BOARD): no such set in configs/boards.mk"; exit 1; }
	@echo "VERILATE wg_sm, board $(SM_BOARD): $(call board_params,$(SM_BOARD),$(BOARD_SM_NAMES))"
	@+start=$$(date +%s); \
	$(VERILATOR) $(SM_BRD_VFLAGS) $(SM_BRD_PARAMS) --top-module wg_sm --Mdir $(SM_BRD_OBJ) \
		$(SM_VLT) $(SM_RTL) $(abspath sim/wgsim.cpp) >$(SM_BRD_OBJ)/build.log 2>&1 \
	&& $(call rt_copy,$(SM_BRD_OBJ)) \
		|| { tail -40 $(SM_BRD_OBJ)/build.log; exit 1; }; \
	echo "wg_sm ($(SM_BOARD)) built in $$(( $$(date +%s) - start )) s"

$(SM_BRD_OBJ)/wgsim.o: sim/wgsim.cpp sim/wgsim.h $(SM_BRD_OBJ)/Vwg_sm__ALL.a
	$(MAKE) -s --no-print-directory -C $(SM_BRD_OBJ) -f Vwg_sm.mk OPT_FAST=-O2 CXX=$(SM_CXX) wgsim.o

$(SM_BRD_DIR)/libwgsim.a: $(SM_BRD_OBJ)/Vwg_sm__ALL.a $(SM_BRD_OBJ)/wgsim.o
	rm -f $@
	cp $(SM_BRD_OBJ)/Vwg_sm__ALL.a $@
	ar rcs $@ $(addprefix $(SM_BRD_OBJ)/,$(SM_RT_OBJS))

$(SM_BRD_DIR)/test_sm: tests/rtl/test_sm.c $(SM_BRD_DIR)/libwgsim.a $(LIB)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Ihost/include -Ihost/src -Isim -o $@ $< \
		$(SM_BRD_DIR)/libwgsim.a $(LIB) $(SM_LDLIBS)

.PHONY: sm-board-test
rtl-test:: sm-board-test
sm-board-test: $(SM_BRD_DIR)/test_sm
	$(SM_BRD_DIR)/test_sm
	$(SM_BRD_DIR)/test_sm --gto --latency=100 --fermi --l1-48k

sm-lint:
	@for m in $$(ls rtl/wg_sm.sv rtl/wg_decode.sv rtl/wg_fetch.sv rtl/wg_warp_sched.sv rtl/wg_scoreboard.sv \
		rtl/wg_exec_pipe.sv rtl/wg_simt_stack.sv rtl/wg_barrier.sv rtl/wg_cta_ctrl.sv rtl/wg_lsu.sv \
		rtl/wg_sreg.sv rtl/wg_retire.sv); do top=$$(basename $$m .sv); \
		$(VERILATOR) --lint-only -Wall $(SM_VLT) $$(scripts/rtl-deps.py $$top) --top-module $$top \
		|| exit 1; done; echo "sm-lint: clean"

# Unit tests of blocks.
SM_UT_VFLAGS := --cc --exe --build -j 2 -Wall --assert --x-assign unique --x-initial unique \
                -MAKEFLAGS OPT_FAST=-O1 -CFLAGS "-O1 -I$(CURDIR)/sim" \
                $(VL_RT_FLAGS)
$(SM_DIR)/ut_simt/test_simt_stack: rtl/wg_simt_stack.sv rtl/wg_ram_1r1w.sv rtl/wg_rr_arbiter.sv $(RTL_RT)/stamp \
		tests/rtl/test_simt_stack.cpp sim/harness.h sim/sm.mk
	@mkdir -p $(@D)
	$(VERILATOR) $(SM_UT_VFLAGS) -GNUM_WARPS=4 -GSTACK_DEPTH=16 -GNUM_PORTS=1 --top-module wg_simt_stack \
		--Mdir $(@D) -o test_simt_stack $(SM_VLT) $$(scripts/rtl-deps.py wg_simt_stack) \
		$(abspath tests/rtl/test_simt_stack.cpp) >$(@D)/build.log 2>&1 || { tail -30 $(@D)/build.log; exit 1; }

$(SM_DIR)/ut_sched/test_warp_sched: $(SM_RTL_ALL) tests/rtl/test_warp_sched.cpp sim/harness.h sim/sm.mk $(RTL_RT)/stamp
	@mkdir -p $(@D)
	$(VERILATOR) $(SM_UT_VFLAGS) -GNUM_WARPS=8 -GNUM_SIMD=1 --top-module wg_warp_sched \
		--Mdir $(@D) -o test_warp_sched $(SM_VLT) $$(scripts/rtl-deps.py wg_warp_sched) \
		$(abspath tests/rtl/test_warp_sched.cpp) >$(@D)/build.log 2>&1 || { tail -30 $(@D)/build.log; exit 1; }

sm-unit-test: $(SM_DIR)/ut_simt/test_simt_stack $(if $(wildcard tests/rtl/test_warp_sched.cpp),$(SM_DIR)/ut_sched/test_warp_sched)
	$(SM_DIR)/ut_simt/test_simt_stack
	$(if $(wildcard tests/rtl/test_warp_sched.cpp),$(SM_DIR)/ut_sched/test_warp_sched)

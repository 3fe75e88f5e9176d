# The coalescer (rtl/wg_coalescer.sv, docs/memory-pipeline.md sections 1.1 and 4.1).
# Included by the top-level Makefile (-include sim/coalescer.mk); adds to rtl-test::.
#   make coalescer-test     build and run tests/rtl/test_coalescer.cpp (COAL_ARGS go to the run:
#                           make coalescer-test COAL_ARGS="--seed=7 --scale=10")
#   build/rtl/coalescer/test_coalescer --seed=7 --trace      one run, FST trace
# Two builds: test_coalescer (wg_coalescer, 32 lanes per cycle) and test_coalescer_l4
# (wg_coalescer_scan with LANES = 4: the narrow memory path of docs/fpga.md section 3.3).
# The build lives in $(BUILD)/rtl/coalescer/ and is redone when the RTL, the test, the
# harness or this file changes.

VERILATOR ?= verilator

COAL_DIR  := $(BUILD)/rtl/coalescer
COAL_SIM  := $(COAL_DIR)/test_coalescer
COAL_RTL  := $(shell scripts/rtl-deps.py wg_coalescer 2>/dev/null)
COAL_SCAN_SIM := $(BUILD)/rtl/coalescer_l4/test_coalescer_l4
COAL_SCAN_RTL := $(shell scripts/rtl-deps.py wg_coalescer_scan 2>/dev/null)
COAL_VLT  := $(wildcard rtl/*.vlt)
COAL_ARGS ?=
# FST tracing is compiled in and off unless a run asks for it (--trace).
COAL_VFLAGS := --cc --exe --build -j 2 -Wall --assert --x-assign unique --x-initial unique --trace-fst \
               -MAKEFLAGS OPT_FAST=-O2 -CFLAGS "-O2 -I$(CURDIR)/sim" \
               $(VL_RT_FLAGS)

.PHONY: coalescer-test

$(COAL_SIM): $(COAL_RTL) $(COAL_VLT) tests/rtl/test_coalescer.cpp sim/harness.h sim/coalescer.mk $(RTL_RT)/stamp
	@mkdir -p $(@D)
	@echo "VERILATE test_coalescer"
	@$(VERILATOR) $(COAL_VFLAGS) --top-module wg_coalescer --Mdir $(@D) -o test_coalescer \
		$(COAL_VLT) $(COAL_RTL) $(abspath tests/rtl/test_coalescer.cpp) \
		>$(@D)/build.log 2>&1 || { tail -40 $(@D)/build.log; exit 1; }

$(COAL_SCAN_SIM): $(COAL_SCAN_RTL) $(COAL_VLT) tests/rtl/test_coalescer.cpp sim/harness.h sim/coalescer.mk $(RTL_RT)/stamp
	@mkdir -p $(@D)
	@echo "VERILATE test_coalescer_l4"
	@$(VERILATOR) $(COAL_VFLAGS) -CFLAGS -DCOAL_LANES=4 --top-module wg_coalescer_scan \
		--prefix Vwg_coalescer -GLANES=4 --Mdir $(@D) -o test_coalescer_l4 \
		$(COAL_VLT) $(COAL_SCAN_RTL) $(abspath tests/rtl/test_coalescer.cpp) \
		>$(@D)/build.log 2>&1 || { tail -40 $(@D)/build.log; exit 1; }

coalescer-test: $(COAL_SIM) $(COAL_SCAN_SIM)
	$(COAL_SIM) $(COAL_ARGS)
	$(COAL_SCAN_SIM) $(COAL_ARGS)

rtl-test:: coalescer-test

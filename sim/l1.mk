# L1 data cache (rtl/wg_l1.sv, docs/memory-pipeline.md sections 3 and 4.4): its Verilator
# unit test. Included by the top-level Makefile (-include sim/l1.mk); adds l1-test to the
# double-colon rule rtl-test. Builds in $(BUILD)/rtl/l1/<variant>/:
#   default  the SM's geometry: 64 KB array, 64 sets x 6 ways, 8 MSHRs
#   small    the FPGA-check geometry: 8 KB array, 8 sets x 2 ways, 2 MSHRs
#   make l1-test                 build and run both (L1_ARGS go to every run)
#   make l1-test L1_ARGS=--seed=7
#   build/rtl/l1/default/test_l1 --trace --scale=4     one run, FST trace, longer random phase
#   make l1-lint                 verilator -Wall of wg_l1 (both geometries) and tb_l1
#   make l1-synth                yosys synth_ice40 of the small geometry (about 2 min)

VERILATOR ?= verilator
YOSYS ?= yosys

L1_DIR   := $(BUILD)/rtl/l1
L1_VLT   := $(wildcard rtl/*.vlt)
L1_RTL    = $(shell scripts/rtl-deps.py wg_l1)
L1_TB_RTL = $(L1_RTL) rtl/wg_ram_1r1w.sv tests/rtl/tb_l1.sv
L1_ARGS  ?=
L1_VFLAGS := --cc --exe --build -j 2 -Wall --assert --x-assign unique --x-initial unique --trace-fst \
             -MAKEFLAGS OPT_FAST=-O1 -CFLAGS "-O1 -I$(CURDIR)/sim" \
             $(VL_RT_FLAGS)
L1_SRCS := rtl/wg_l1.sv rtl/wg_ram_1r1w.sv tests/rtl/tb_l1.sv tests/rtl/test_l1.cpp sim/harness.h $(L1_VLT) sim/l1.mk

L1_DEFAULT := DMEM_BYTES=65536 SETS=64 MAX_WAYS=6 MSHRS=8
L1_SMALL   := DMEM_BYTES=8192 SETS=8 MAX_WAYS=2 MSHRS=2
l1_get = $(patsubst $(1)=%,%,$(filter $(1)=%,$(2)))
l1_opts = -GDMEM_BYTES=$(call l1_get,DMEM_BYTES,$(1)) -GSETS=$(call l1_get,SETS,$(1)) \
	-GMAX_WAYS=$(call l1_get,MAX_WAYS,$(1)) -GMSHRS=$(call l1_get,MSHRS,$(1)) \
	-CFLAGS "-DL1_DMEM=$(call l1_get,DMEM_BYTES,$(1)) -DL1_SETS=$(call l1_get,SETS,$(1)) \
	-DL1_WAYS=$(call l1_get,MAX_WAYS,$(1)) -DL1_MSHRS=$(call l1_get,MSHRS,$(1))"

# l1_build(variant, geometry)
define l1_build
L1_SIMS += $(L1_DIR)/$(1)/test_l1
$(L1_DIR)/$(1)/test_l1: $(L1_SRCS) $(RTL_RT)/stamp
	@mkdir -p $$(@D)
	@echo "VERILATE l1 $(1)"
	@$(VERILATOR) $(L1_VFLAGS) $(call l1_opts,$(2)) --top-module tb_l1 --Mdir $$(@D) -o test_l1 \
		$(L1_VLT) $$(L1_TB_RTL) $(abspath tests/rtl/test_l1.cpp) >$$(@D)/build.log 2>&1 \
		|| { tail -40 $$(@D)/build.log; exit 1; }
endef
L1_SIMS :=
$(eval $(call l1_build,default,$(L1_DEFAULT)))
$(eval $(call l1_build,small,$(L1_SMALL)))

.PHONY: l1-test l1-lint l1-synth

l1-test: $(L1_SIMS)
	@set -o pipefail; failed=; \
	for t in $(L1_SIMS); do \
		echo "$$t"; \
		$$t $(L1_ARGS) 2>&1 | tee $$t.log | sed 's/^/  /' || failed="$$failed $$t"; \
	done; \
	if [ -n "$$failed" ]; then echo "l1: FAILED:$$failed"; exit 1; fi; \
	echo "l1: $(words $(L1_SIMS)) tests passed"

rtl-test:: l1-test

l1-lint:
	@$(VERILATOR) --lint-only -Wall $(L1_VLT) $(L1_RTL) --top-module wg_l1
	@$(VERILATOR) --lint-only -Wall $(L1_VLT) $(L1_RTL) --top-module wg_l1 \
		-GDMEM_BYTES=8192 -GSETS=8 -GMAX_WAYS=2 -GMSHRS=2
	@$(VERILATOR) --lint-only -Wall $(L1_VLT) $(L1_RTL) --top-module wg_l1 -GMAX_WAYS=3 -GMSHRS=1 -GSETS=2 -GTAG_W=4
	@$(VERILATOR) --lint-only -Wall $(L1_VLT) $(L1_TB_RTL) --top-module tb_l1
	@echo "l1: lint clean"

L1_SYN_DIR := $(L1_DIR)/synth
L1_SYN_CMD = read_verilog -sv $(L1_RTL); \
	chparam -set DMEM_BYTES 8192 -set SETS 8 -set MAX_WAYS 2 -set MSHRS 2 wg_l1; \
	synth_ice40 -top wg_l1; check -assert; tee -q -o $(L1_SYN_DIR)/ice40.stat stat
l1-synth:
	@mkdir -p $(L1_SYN_DIR)
	$(YOSYS) -q -l $(L1_SYN_DIR)/ice40.log -p '$(L1_SYN_CMD)'
	@! grep -a "Latch inferred" $(L1_SYN_DIR)/ice40.log
	@grep -E 'Number of cells|SB_' $(L1_SYN_DIR)/ice40.stat

# SIMD unit: per-lane integer ALU, power-gating wrapper, SIMD unit (docs/simd-unit.md).
# Included by the top-level Makefile (-include sim/simd.mk); adds its recipe to the
# double-colon rule rtl-test. Everything is built under $(BUILD)/rtl/<test>/.
#   make rtl-test                         builds and runs test_int_alu and test_simd_unit
#                                         (16 lanes with FP, 8 lanes with FP, 16 lanes without)
#   make simd-test SIMD_ARGS='--seed=7'   the same, with arguments for every run
#   make simd-test SIMD_ALU_ARGS='--count=10000000' SIMD_UNIT_ARGS='--count=1000000'
#   make simd-test SIMD_TRACE=1 SIMD_UNIT_ARGS='--count=200 --trace'   FST traces
#                                         (separate builds, *_trace directories)
#   make simd-lint                        verilator --lint-only -Wall, each module its own top,
#                                         wg_simd_unit also with other parameters
#   make simd-synth                       yosys synth_xilinx figures quoted in docs/simd-unit.md

VERILATOR ?= verilator
YOSYS ?= yosys

SIMD_TRACE ?=
SIMD_ARGS ?=
SIMD_ALU_ARGS ?=
SIMD_UNIT_ARGS ?=
SIMD_SFX := $(if $(SIMD_TRACE),_trace)

# Exactly the files each top needs, in dependency order (packages first).
simd_deps = $(shell scripts/rtl-deps.py $(1))
SIMD_ALU_RTL := $(call simd_deps,wg_int_alu)
SIMD_UNIT_RTL := $(call simd_deps,wg_simd_unit)
SIMD_VLT := $(wildcard rtl/*.vlt)
SIMD_HARNESS := sim/harness.h sim/simd.mk
# The test's latency expectation: FP32_LATENCY of the FP32 package.
SIMD_FP32_LATENCY := $(shell sed -n 's/^ *localparam int unsigned FP32_LATENCY *= *\([0-9]*\);.*/\1/p' \
                       rtl/wg_fp32_pkg.sv)

SIMD_CFLAGS := -O2 -march=native -ffp-contract=off -I$(abspath sim) -I$(abspath tests/rtl) \
               -I$(abspath host/include) -I$(abspath host/src)
SIMD_VFLAGS := --cc --exe --build -j 2 -Wall --assert --x-assign unique --x-initial unique \
               -MAKEFLAGS OPT_FAST=-O2 -CFLAGS "$(SIMD_CFLAGS)" -LDFLAGS -lm \
               $(if $(SIMD_TRACE),--trace-fst)

SIMD_ALU_DIR := $(BUILD)/rtl/test_int_alu$(SIMD_SFX)
SIMD_ALU_SIM := $(SIMD_ALU_DIR)/test_int_alu

.PHONY: simd-test simd-lint simd-synth

# test_int_alu links libwarpgate for the ISA table and the golden model (func target).
$(SIMD_ALU_SIM): $(SIMD_ALU_RTL) $(SIMD_VLT) tests/rtl/test_int_alu.cpp $(SIMD_HARNESS) $(LIB)
	@mkdir -p $(@D)
	$(VERILATOR) $(SIMD_VFLAGS) --top-module wg_int_alu -Mdir $(@D) -o test_int_alu \
		$(SIMD_VLT) $(SIMD_ALU_RTL) $(abspath tests/rtl/test_int_alu.cpp) $(abspath $(LIB)) \
		>$(@D)/build.log 2>&1 || { cat $(@D)/build.log; exit 1; }

# The FP32 reference, its own C translation unit without FP contraction (tests/rtl/fp32_ref.h).
SIMD_FP32_REF_O := $(BUILD)/rtl/test_simd_unit$(SIMD_SFX)/fp32_ref.o
$(SIMD_FP32_REF_O): tests/rtl/fp32_ref.h sim/simd.mk
	@mkdir -p $(@D)
	$(CC) -x c -std=gnu11 -O2 -Wall -Wextra -Werror -ffp-contract=off -fno-fast-math \
		-DFP32_REF_IMPLEMENTATION -c $< -o $@

# simd_unit_build(directory, SIMD_WIDTH, HAS_FP): one Verilated build of test_simd_unit.
define simd_unit_build
SIMD_UNIT_SIMS += $(BUILD)/rtl/$(1)$(SIMD_SFX)/test_simd_unit
$(BUILD)/rtl/$(1)$(SIMD_SFX)/test_simd_unit: $(SIMD_UNIT_RTL) $(SIMD_VLT) tests/rtl/test_simd_unit.cpp \
                                             tests/rtl/test_int_alu.cpp tests/rtl/fp32_ref.h \
                                             $(SIMD_HARNESS) $(SIMD_FP32_REF_O) $(LIB)
	@mkdir -p $$(@D)
	$(VERILATOR) $(SIMD_VFLAGS) -GSIMD_WIDTH=$(2) -GHAS_FP=1\'b$(3) \
		-CFLAGS "-DSIMD_WIDTH=$(2) -DHAS_FP=$(3) -DWG_FP32_LATENCY=$(SIMD_FP32_LATENCY)" \
		--top-module wg_simd_unit -Mdir $$(@D) -o test_simd_unit \
		$(SIMD_VLT) $(SIMD_UNIT_RTL) $(abspath tests/rtl/test_simd_unit.cpp) \
		$(abspath $(SIMD_FP32_REF_O)) $(abspath $(LIB)) \
		>$$(@D)/build.log 2>&1 || { cat $$(@D)/build.log; exit 1; }
endef
SIMD_UNIT_SIMS :=
$(eval $(call simd_unit_build,test_simd_unit,16,1))
$(eval $(call simd_unit_build,test_simd_unit_w8,8,1))
$(eval $(call simd_unit_build,test_simd_unit_nofp,16,0))

simd-test: $(SIMD_ALU_SIM) $(SIMD_UNIT_SIMS)
	$(SIMD_ALU_SIM) $(SIMD_ARGS) $(SIMD_ALU_ARGS)
	@set -e; for t in $(SIMD_UNIT_SIMS); do echo "$$t $(SIMD_ARGS) $(SIMD_UNIT_ARGS)"; \
		$$t $(SIMD_ARGS) $(SIMD_UNIT_ARGS); done

rtl-test:: simd-test

simd-lint:
	@set -e; for m in wg_int_alu wg_pg_cell wg_simd_unit; do \
		echo "lint $$m"; \
		$(VERILATOR) --lint-only -Wall -Irtl $(SIMD_VLT) $$(scripts/rtl-deps.py $$m) --top-module $$m; \
	done
	@set -e; for p in "-GSIMD_WIDTH=8" "-GSIMD_WIDTH=32" "-GHAS_FP=1'b0" \
		"-GSIMD_WIDTH=4 -GHAS_FP=1'b0" "-GSIMD_WIDTH=1 -GHAS_FP=1'b0 -GTAG_W=1"; do \
		echo "lint wg_simd_unit $$p"; \
		$(VERILATOR) --lint-only -Wall $$p -Irtl $(SIMD_VLT) $(SIMD_UNIT_RTL) --top-module wg_simd_unit; \
	done

# Resource figures (Artix-7): the integer ALU alone, and the 16-lane unit without and
# with FP. Logs and stat files in $(BUILD)/rtl/simd_synth/.
SIMD_SYNTH_DIR := $(BUILD)/rtl/simd_synth
simd-synth:
	@mkdir -p $(SIMD_SYNTH_DIR)
	$(YOSYS) -q -l $(SIMD_SYNTH_DIR)/int_alu.log \
		-p 'read_verilog -sv $(SIMD_ALU_RTL); synth_xilinx -family xc7 -flatten -top wg_int_alu; tee -o $(SIMD_SYNTH_DIR)/int_alu.stat stat'
	$(YOSYS) -q -l $(SIMD_SYNTH_DIR)/simd16_nofp.log \
		-p 'read_verilog -sv $(SIMD_UNIT_RTL); chparam -set HAS_FP 0 wg_simd_unit; synth_xilinx -family xc7 -flatten -top wg_simd_unit; tee -o $(SIMD_SYNTH_DIR)/simd16_nofp.stat stat'
	$(YOSYS) -q -l $(SIMD_SYNTH_DIR)/simd16_fp.log \
		-p 'read_verilog -sv $(SIMD_UNIT_RTL); synth_xilinx -family xc7 -flatten -top wg_simd_unit; tee -o $(SIMD_SYNTH_DIR)/simd16_fp.stat stat'
	@grep -E 'Number of cells|LUT|FD|DSP|CARRY|MUXF|SRL' $(SIMD_SYNTH_DIR)/*.stat

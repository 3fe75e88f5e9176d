# FP32 unit: Verilator unit test, lint, yosys synthesis (docs/fp32.md).
# Included by the top-level Makefile; adds its recipe to the double-colon rule rtl-test.
#   make rtl-test                     builds build/rtl/fp32/ and runs test_fp32
#   make rtl-test FP32_ARGS='--count=10000000 --seed=7'
#   make fp32-test FP32_TRACE=1 FP32_ARGS='--count=100 --trace=fp32.fst'
#   make fp32-lint                    verilator --lint-only -Wall on wg_fp32_unit
#   make fp32-synth                   yosys synth_xilinx / synth_ice40 resource counts
#   make fp32-gate-test               test_fp32 on yosys' synthesised netlist

VERILATOR ?= verilator
YOSYS ?= yosys

FP32_DIR := $(BUILD)/rtl/fp32
FP32_RTL := rtl/wg_fp32_pkg.sv rtl/wg_fp32_fma.sv rtl/wg_fp32_misc.sv \
            rtl/wg_fp32_unit.sv
FP32_VLT := rtl/lint.vlt
FP32_TB := tests/rtl/test_fp32.cpp
FP32_REF := tests/rtl/fp32_ref.h
FP32_HARNESS := sim/harness.h
FP32_TRACE ?=
FP32_SIM := $(FP32_DIR)/obj$(if $(FP32_TRACE),_trace)/test_fp32
FP32_ARGS ?=
FP32_GATE_ARGS ?= --count=20000

# The reference is its own C translation unit without FP contraction (docs/fp32.md).
FP32_REF_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Werror -ffp-contract=off -fno-fast-math -frounding-math \
                   -DFP32_REF_IMPLEMENTATION
FP32_VFLAGS := --cc --exe --build -j 2 -Wall --assert --x-assign unique --x-initial unique \
               -MAKEFLAGS OPT_FAST=-O2 -CFLAGS "-O2 -march=native -ffp-contract=off -I$(abspath sim)" \
               $(if $(FP32_TRACE),--trace-fst) \
               $(VL_RT_FLAGS)

.PHONY: fp32-test fp32-lint fp32-synth fp32-gate-test

$(FP32_DIR)/fp32_ref.o: $(FP32_REF) sim/fp32.mk
	@mkdir -p $(@D)
	$(CC) -x c $(FP32_REF_CFLAGS) -c $< -o $@

$(FP32_SIM): $(FP32_RTL) $(FP32_VLT) $(FP32_TB) $(FP32_REF) $(FP32_HARNESS) $(FP32_DIR)/fp32_ref.o $(RTL_RT)/stamp \
             sim/fp32.mk
	@mkdir -p $(@D)
	$(VERILATOR) $(FP32_VFLAGS) --top-module wg_fp32_unit -Mdir $(@D) -o test_fp32 \
		$(FP32_VLT) $(FP32_RTL) $(abspath $(FP32_TB)) $(abspath $(FP32_DIR)/fp32_ref.o) >$(@D)/build.log \
		|| { cat $(@D)/build.log; exit 1; }

fp32-test: $(FP32_SIM)
	$(FP32_SIM) $(FP32_ARGS)

rtl-test:: fp32-test

fp32-lint:
	$(VERILATOR) --lint-only -Wall --top-module wg_fp32_unit $(FP32_VLT) $(FP32_RTL)

fp32-synth:
	@mkdir -p $(FP32_DIR)
	$(YOSYS) -q -l $(FP32_DIR)/synth_xilinx.log \
		-p 'read_verilog -sv $(FP32_RTL); synth_xilinx -family xc7 -flatten -top wg_fp32_unit; tee -o $(FP32_DIR)/xilinx.stat stat'
	$(YOSYS) -q -l $(FP32_DIR)/synth_ice40.log \
		-p 'read_verilog -sv $(FP32_RTL); synth_ice40 -dsp -top wg_fp32_unit; tee -o $(FP32_DIR)/ice40_dsp.stat stat'
	$(YOSYS) -q -l $(FP32_DIR)/synth_ice40_nodsp.log \
		-p 'read_verilog -sv $(FP32_RTL); synth_ice40 -top wg_fp32_unit; tee -o $(FP32_DIR)/ice40.stat stat'
	@grep -E 'Number of cells|LUT|FD|DSP|CARRY|SB_' $(FP32_DIR)/xilinx.stat $(FP32_DIR)/ice40_dsp.stat $(FP32_DIR)/ice40.stat

# The same test on yosys' generic gate netlist: catches RTL that yosys reads differently.
$(FP32_DIR)/gate/wg_fp32_unit.v: $(FP32_RTL) sim/fp32.mk
	@mkdir -p $(@D)
	$(YOSYS) -q -l $(FP32_DIR)/gate/synth.log \
		-p 'read_verilog -sv $(FP32_RTL); synth -flatten -top wg_fp32_unit; write_verilog -noattr $@'

$(FP32_DIR)/gate/obj/test_fp32: $(FP32_DIR)/gate/wg_fp32_unit.v $(FP32_TB) $(FP32_REF) $(FP32_HARNESS) \
                                $(FP32_DIR)/fp32_ref.o
	$(VERILATOR) --cc --exe --build -j 2 -Wno-fatal -Wno-lint -Wno-style --x-assign unique \
		--x-initial unique -MAKEFLAGS OPT_FAST=-O2 -CFLAGS "-O2 -ffp-contract=off -I$(abspath sim)" \
		--top-module wg_fp32_unit -Mdir $(FP32_DIR)/gate/obj -o test_fp32 \
		$< $(abspath $(FP32_TB)) $(abspath $(FP32_DIR)/fp32_ref.o) >$(FP32_DIR)/gate/build.log \
		|| { cat $(FP32_DIR)/gate/build.log; exit 1; }

fp32-gate-test: $(FP32_DIR)/gate/obj/test_fp32
	$< $(FP32_GATE_ARGS)

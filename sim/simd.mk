# SIMD unit: per-lane integer ALU, power-gating wrapper, SIMD unit (docs/simd-unit.md).
# Included by the top-level Makefile (-include sim/simd.mk); adds its recipe to the
# double-colon rule rtl-test. Each test is its own Verilator build in $(BUILD)/rtl/<test>/.
#   make rtl-test            also builds and runs test_int_alu and test_simd_unit in four
#                            builds: 16 and 8 lanes with FP, 4 lanes with FP and every pass
#                            from the pass buffer (DIRECT=0, as in the FPGA sets), 16 lanes
#                            without FP
#   make simd-test           only these; SIMD_ARGS go to every run, SIMD_ALU_ARGS /
#                            SIMD_UNIT_ARGS to one test:
#                            make simd-test SIMD_ARGS=--seed=7 SIMD_ALU_ARGS=--count=10000000
#   build/rtl/test_simd_unit_w8/test_simd_unit --count=200 --trace    one run, FST trace
#   make simd-lint           verilator --lint-only -Wall: each module its own top, and
#                            wg_simd_unit at other parameter sets
#   make simd-synth          yosys synth_xilinx figures of docs/simd-unit.md (6 to 11 min)
#   make simd-gate-test      the tests on yosys' gate netlists (int ALU; 8-lane unit
#                            without FP, whose build takes several minutes)

VERILATOR ?= verilator
YOSYS ?= yosys

SIMD_ARGS ?=
SIMD_ALU_ARGS ?=
SIMD_UNIT_ARGS ?=

# Exactly the files each top needs, in dependency order (packages first).
simd_deps = $(shell scripts/rtl-deps.py $(1))
SIMD_ALU_RTL := $(call simd_deps,wg_int_alu)
SIMD_UNIT_RTL := $(call simd_deps,wg_simd_unit)
SIMD_VLT := $(wildcard rtl/*.vlt)
SIMD_DEPS := sim/harness.h sim/simd.mk
# The test's latency expectation: FP32_LATENCY of the FP32 package.
SIMD_FP32_LATENCY := $(shell sed -n 's/^ *localparam int unsigned FP32_LATENCY *= *\([0-9]*\);.*/\1/p' \
                       rtl/wg_fp32_pkg.sv)

SIMD_CFLAGS := -O2 -ffp-contract=off -I$(abspath sim) -I$(abspath tests/rtl) \
               -I$(abspath host/include) -I$(abspath host/src)
# FST tracing is compiled in and off unless a run asks for it (--trace).
SIMD_VFLAGS := --cc --exe --build -j 2 -Wall --assert --x-assign unique --x-initial unique --trace-fst \
               -MAKEFLAGS OPT_FAST=-O2 -CFLAGS "$(SIMD_CFLAGS)" -LDFLAGS -lm \
               $(VL_RT_FLAGS)
SIMD_VGATE := --cc --exe --build -j 2 -Wno-fatal -Wno-lint -Wno-style --x-assign unique --x-initial unique \
              -MAKEFLAGS OPT_FAST=-O1 -CFLAGS "$(SIMD_CFLAGS)" -LDFLAGS -lm \
              $(VL_RT_FLAGS)

.PHONY: simd-test simd-lint simd-synth simd-gate-test

# The tests link from libwarpgate only what they call: the ISA table, and for
# test_int_alu the assembler and the functional golden model (not the targets, so not
# the Verilated SM).
SIMD_ALU_SIM := $(BUILD)/rtl/test_int_alu/test_int_alu
$(SIMD_ALU_SIM): $(SIMD_ALU_RTL) $(SIMD_VLT) tests/rtl/test_int_alu.cpp $(SIMD_DEPS) $(LIB) $(RTL_RT)/stamp
	@mkdir -p $(@D)
	@echo "VERILATE test_int_alu"
	@$(VERILATOR) $(SIMD_VFLAGS) --top-module wg_int_alu -Mdir $(@D) -o test_int_alu \
		$(SIMD_VLT) $(SIMD_ALU_RTL) $(abspath tests/rtl/test_int_alu.cpp) $(abspath $(LIB)) \
		>$(@D)/build.log 2>&1 || { cat $(@D)/build.log; exit 1; }

# The FP32 reference, its own C translation unit without FP contraction (tests/rtl/fp32_ref.h).
SIMD_FP32_REF_O := $(BUILD)/rtl/simd_fp32_ref/fp32_ref.o
$(SIMD_FP32_REF_O): tests/rtl/fp32_ref.h sim/simd.mk
	@mkdir -p $(@D)
	$(CC) -x c -std=gnu11 -O2 -Wall -Wextra -Werror -ffp-contract=off -fno-fast-math \
		-DFP32_REF_IMPLEMENTATION -c $< -o $@

SIMD_UNIT_SRCS := tests/rtl/test_simd_unit.cpp tests/rtl/test_int_alu.cpp tests/rtl/fp32_ref.h

# simd_unit_build(name, SIMD_WIDTH, HAS_FP[, DIRECT]): one Verilated build of test_simd_unit
# (DIRECT 1 unless given: pass 0 from the input rows).
define simd_unit_build
SIMD_UNIT_SIMS += $(BUILD)/rtl/$(1)/test_simd_unit
$(BUILD)/rtl/$(1)/test_simd_unit: $(SIMD_UNIT_RTL) $(SIMD_VLT) $(SIMD_UNIT_SRCS) $(SIMD_DEPS) $(RTL_RT)/stamp \
                                  $(SIMD_FP32_REF_O) $(LIB)
	@mkdir -p $$(@D)
	@echo "VERILATE $(1)"
	@$(VERILATOR) $(SIMD_VFLAGS) -GSIMD_WIDTH=$(2) -GHAS_FP=1\'b$(3) -GDIRECT=1\'b$(or $(4),1) \
		-CFLAGS "-DSIMD_WIDTH=$(2) -DHAS_FP=$(3) -DDIRECT=$(or $(4),1) -DWG_FP32_LATENCY=$(SIMD_FP32_LATENCY)" \
		--top-module wg_simd_unit -Mdir $$(@D) -o test_simd_unit \
		$(SIMD_VLT) $(SIMD_UNIT_RTL) $(abspath tests/rtl/test_simd_unit.cpp) \
		$(abspath $(SIMD_FP32_REF_O)) $(abspath $(LIB)) \
		>$$(@D)/build.log 2>&1 || { cat $$(@D)/build.log; exit 1; }
endef
SIMD_UNIT_SIMS :=
$(eval $(call simd_unit_build,test_simd_unit,16,1))
$(eval $(call simd_unit_build,test_simd_unit_w8,8,1))
$(eval $(call simd_unit_build,test_simd_unit_w4b,4,1,0))
$(eval $(call simd_unit_build,test_simd_unit_nofp,16,0))

simd-test: $(SIMD_ALU_SIM) $(SIMD_UNIT_SIMS)
	@failed=; \
	for t in $^; do \
		case $$t in *int_alu*) a="$(SIMD_ALU_ARGS)";; *) a="$(SIMD_UNIT_ARGS)";; esac; \
		echo "$$t"; \
		$$t $(SIMD_ARGS) $$a 2>&1 | sed 's/^/  /'; \
		[ $${PIPESTATUS[0]} -eq 0 ] || failed="$$failed $$t"; \
	done; \
	if [ -n "$$failed" ]; then echo "simd: FAILED:$$failed"; exit 1; fi; \
	echo "simd: $(words $^) tests passed"

rtl-test:: simd-test

simd-lint:
	@set -e; for m in wg_int_alu wg_pg_cell wg_simd_unit; do \
		echo "lint $$m"; \
		$(VERILATOR) --lint-only -Wall -Irtl $(SIMD_VLT) $$(scripts/rtl-deps.py $$m) --top-module $$m; \
	done
	@set -e; for p in "-GSIMD_WIDTH=8" "-GSIMD_WIDTH=32" "-GTAG_W=1" "-GHAS_FP=1'b0" \
		"-GSIMD_WIDTH=4 -GHAS_FP=1'b0" "-GSIMD_WIDTH=1 -GHAS_FP=1'b0 -GTAG_W=1"; do \
		echo "lint wg_simd_unit $$p"; \
		$(VERILATOR) --lint-only -Wall $$p -Irtl $(SIMD_VLT) $(SIMD_UNIT_RTL) --top-module wg_simd_unit; \
	done

# Resource figures (Artix-7): the integer ALU alone, and the 16-lane unit without and
# with FP. Logs and stat files in $(BUILD)/rtl/simd_synth/; no latch may be inferred.
SIMD_SYN_DIR := $(BUILD)/rtl/simd_synth
SIMD_SYN_ALU := read_verilog -sv $(SIMD_ALU_RTL); synth_xilinx -family xc7 -flatten -top wg_int_alu; \
	tee -q -o $(SIMD_SYN_DIR)/int_alu.stat stat
SIMD_SYN_NOFP := read_verilog -sv $(SIMD_UNIT_RTL); chparam -set HAS_FP 0 wg_simd_unit; \
	synth_xilinx -family xc7 -flatten -top wg_simd_unit; tee -q -o $(SIMD_SYN_DIR)/simd16_nofp.stat stat
SIMD_SYN_FP := read_verilog -sv $(SIMD_UNIT_RTL); synth_xilinx -family xc7 -flatten -top wg_simd_unit; \
	tee -q -o $(SIMD_SYN_DIR)/simd16_fp.stat stat

simd-synth:
	@mkdir -p $(SIMD_SYN_DIR)
	$(YOSYS) -q -l $(SIMD_SYN_DIR)/int_alu.log -p '$(SIMD_SYN_ALU)'
	$(YOSYS) -q -l $(SIMD_SYN_DIR)/simd16_nofp.log -p '$(SIMD_SYN_NOFP)'
	$(YOSYS) -q -l $(SIMD_SYN_DIR)/simd16_fp.log -p '$(SIMD_SYN_FP)'
	@! grep -a "Latch inferred" $(SIMD_SYN_DIR)/*.log
	@for f in int_alu simd16_nofp simd16_fp; do echo "$$f:"; \
		grep -E '^ +(LUT|FD|MUXF|CARRY|DSP|SRL|RAM)' $(SIMD_SYN_DIR)/$$f.stat; done

# The same tests on yosys' generic gate netlists: catches RTL that yosys reads
# differently from Verilator. Not part of rtl-test (the unit's build is slow).
SIMD_GATE_DIR := $(BUILD)/rtl/simd_gate
SIMD_GATE_ALU := read_verilog -sv $(SIMD_ALU_RTL); synth -flatten -top wg_int_alu; \
	write_verilog -noattr $(SIMD_GATE_DIR)/wg_int_alu.v
SIMD_GATE_UNIT := read_verilog -sv $(SIMD_UNIT_RTL); chparam -set SIMD_WIDTH 8 -set HAS_FP 0 wg_simd_unit; \
	synth -flatten -top wg_simd_unit; write_verilog -noattr $(SIMD_GATE_DIR)/wg_simd_unit_w8_nofp.v
$(SIMD_GATE_DIR)/wg_int_alu.v: $(SIMD_ALU_RTL) sim/simd.mk
	@mkdir -p $(@D)
	$(YOSYS) -q -l $(@D)/int_alu.log -p '$(SIMD_GATE_ALU)'
$(SIMD_GATE_DIR)/wg_simd_unit_w8_nofp.v: $(SIMD_UNIT_RTL) sim/simd.mk
	@mkdir -p $(@D)
	$(YOSYS) -q -l $(@D)/simd_unit.log -p '$(SIMD_GATE_UNIT)'
$(SIMD_GATE_DIR)/int_alu/test_int_alu: $(SIMD_GATE_DIR)/wg_int_alu.v tests/rtl/test_int_alu.cpp $(SIMD_DEPS) $(LIB) $(RTL_RT)/stamp
	@mkdir -p $(@D)
	@echo "VERILATE gate-level test_int_alu"
	@$(VERILATOR) $(SIMD_VGATE) --top-module wg_int_alu -Mdir $(@D) -o test_int_alu $< \
		$(abspath tests/rtl/test_int_alu.cpp) $(abspath $(LIB)) >$(@D)/build.log 2>&1 \
		|| { cat $(@D)/build.log; exit 1; }
$(SIMD_GATE_DIR)/simd_unit/test_simd_unit: $(SIMD_GATE_DIR)/wg_simd_unit_w8_nofp.v $(SIMD_UNIT_SRCS) $(RTL_RT)/stamp \
                                           $(SIMD_DEPS) $(SIMD_FP32_REF_O) $(LIB)
	@mkdir -p $(@D)
	@echo "VERILATE gate-level test_simd_unit (8 lanes, no FP)"
	@$(VERILATOR) $(SIMD_VGATE) -CFLAGS "-DSIMD_WIDTH=8 -DHAS_FP=0 -DWG_FP32_LATENCY=$(SIMD_FP32_LATENCY)" \
		--top-module wg_simd_unit -Mdir $(@D) -o test_simd_unit $< $(abspath tests/rtl/test_simd_unit.cpp) \
		$(abspath $(SIMD_FP32_REF_O)) $(abspath $(LIB)) >$(@D)/build.log 2>&1 \
		|| { cat $(@D)/build.log; exit 1; }

simd-gate-test: $(SIMD_GATE_DIR)/int_alu/test_int_alu $(SIMD_GATE_DIR)/simd_unit/test_simd_unit
	$(SIMD_GATE_DIR)/int_alu/test_int_alu --count=200000 $(SIMD_ARGS)
	$(SIMD_GATE_DIR)/simd_unit/test_simd_unit --count=20000 $(SIMD_ARGS)

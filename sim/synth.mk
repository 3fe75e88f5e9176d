# SM synthesis in yosys 0.23 (docs/synthesis.md). Included by the top-level Makefile.
#   make sm-synth             synth_xilinx -family xc7 and synth_ice40 of a small SM, HAS_FP = 0
#                             and 1 (four runs, one at a time); check -assert after each; stat
#                             files and logs in build/synth/
#   make sm-synth SYNTH_FP=0  only the runs without FP (SYNTH_FP=1: only with FP)
#   make sm-synth-one SYNTH_TECH=xc7 SYNTH_FP=0    one run
# Every run has a time limit (SYNTH_TIMEOUT seconds) and its wall time goes to
# build/synth/<run>.time. A latch anywhere fails the run.

YOSYS ?= yosys
VERILATOR ?= verilator

SYNTH_DIR := $(BUILD)/synth
SYNTH_RTL = $(shell scripts/rtl-deps.py wg_sm)
SYNTH_TIMEOUT ?= 3600
SYNTH_FP ?= 0 1
SYNTH_TECH ?= xc7 ice40

# The FPGA configuration: 4 warps in 2 schedulers of 4 lanes, 1024 registers, 2 CTAs,
# 2 KB L1/shared array (L1: 2 sets, 6 or 2 ways), 256 instructions, 256 B parameter
# store, no retire port. The LSU, the coalescer and the shared-memory engine are a warp
# (32 lanes) wide whatever SIMD_WIDTH is: they are most of the logic.
SYNTH_PARAMS := -set NUM_WARPS 4 -set SIMD_WIDTH 4 -set NUM_SIMD 2 -set NUM_REGS 1024 -set RF_BANKS 4 \
                -set NUM_CTAS 2 -set DMEM_BYTES 2048 -set L1_SETS 2 -set L1_MSHRS 2 -set IMEM_DEPTH 256 \
                -set CMEM_BYTES 256 -set STACK_DEPTH 16 -set MEM_TAG_W 8 -set RETIRE_EN 0 -set HAS_SFU 0

synth_cmd_xc7   = synth_xilinx -family xc7 -top wg_sm
synth_cmd_ice40 = synth_ice40 -top wg_sm

# $(call synth_script,TECH,FP)
synth_script = read_verilog -sv $(SYNTH_RTL); chparam $(SYNTH_PARAMS) -set HAS_FP $(2) wg_sm; \
	$(synth_cmd_$(1)); check -assert; \
	tee -q -o $(SYNTH_DIR)/$(1)_fp$(2).stat stat; \
	tee -q -o $(SYNTH_DIR)/$(1)_fp$(2).hier.stat stat -top wg_sm

.PHONY: sm-synth sm-synth-one

# $(call synth_run,TECH,FP)
define synth_run
	@mkdir -p $(SYNTH_DIR)
	@echo "YOSYS $(1) HAS_FP=$(2) (log: $(SYNTH_DIR)/$(1)_fp$(2).log)"
	@start=$$(date +%s); \
	timeout $(SYNTH_TIMEOUT) $(YOSYS) -q -l $(SYNTH_DIR)/$(1)_fp$(2).log -p '$(call synth_script,$(1),$(2))' \
		>/dev/null 2>&1; rc=$$?; t=$$(( $$(date +%s) - start )); \
	echo "$$t" > $(SYNTH_DIR)/$(1)_fp$(2).time; \
	if [ $$rc -ne 0 ]; then tail -20 $(SYNTH_DIR)/$(1)_fp$(2).log; \
		echo "$(1) HAS_FP=$(2): failed (exit $$rc after $$t s)"; exit 1; fi; \
	if grep -aq "Latch inferred" $(SYNTH_DIR)/$(1)_fp$(2).log; then \
		grep -a "Latch inferred" $(SYNTH_DIR)/$(1)_fp$(2).log; exit 1; fi; \
	echo "$(1) HAS_FP=$(2): $$t s"; \
	sed -n '/design hierarchy/,$$p' $(SYNTH_DIR)/$(1)_fp$(2).hier.stat \
		| grep -E '^ +(Number of cells|LUT[1-6]|MUXF[78]|CARRY4|FD[A-Z]*|RAM[A-Z0-9]*|DSP48E1|SRL[A-Z0-9]*|SB_LUT4|SB_CARRY|SB_DFF[A-Z]*|SB_RAM40_4K|SB_MAC16) '
endef

define synth_nl


endef

sm-synth:
	$(foreach f,$(SYNTH_FP),$(foreach t,$(SYNTH_TECH),$(call synth_run,$(t),$(f))$(synth_nl)))

sm-synth-one:
	$(call synth_run,$(firstword $(SYNTH_TECH)),$(firstword $(SYNTH_FP)))

# Shared memory: wg_smem (bank-conflict passes, shared atomics) on the array wg_dmem
# (docs/memory-pipeline.md sections 1.2, 3, 4.2, 4.3). Included by the top-level Makefile
# (-include sim/smem.mk); adds its recipe to the double-colon rule rtl-test.
#   make smem-test         builds and runs tests/rtl/test_smem.cpp (through the wrapper
#                          tests/rtl/tb_smem.sv) in three builds: 64 KB with the FP32 adder,
#                          8 KB without it, and l4: 64 KB, FP32, LANES 4 (the narrow engine,
#                          docs/fpga.md 3.3; about 35 s CPU to build, 2 s to run); SMEM_ARGS go
#                          to every run:
#                          make smem-test SMEM_ARGS='--seed=7 --scale=4'
#   build/rtl/smem/fp/test_smem --trace      one run with an FST trace
#   make smem-lint         verilator --lint-only -Wall of wg_smem and wg_dmem (several sizes)
#   make smem-synth        yosys synth_ice40 figures (8 KB, no FP) in $(BUILD)/rtl/smem/synth/

VERILATOR ?= verilator
YOSYS ?= yosys

SMEM_DIR := $(BUILD)/rtl/smem
SMEM_ARGS ?=
SMEM_VLT := $(wildcard rtl/*.vlt)
# wg_smem's files (packages first), then wg_dmem's that are not among them.
SMEM_RTL_SMEM := $(shell scripts/rtl-deps.py wg_smem)
SMEM_RTL := $(SMEM_RTL_SMEM) $(filter-out $(SMEM_RTL_SMEM),$(shell scripts/rtl-deps.py wg_dmem))
SMEM_TB := tests/rtl/tb_smem.sv
SMEM_SRCS := tests/rtl/test_smem.cpp tests/rtl/fp32_ref.h sim/harness.h sim/smem.mk
SMEM_FP32_LATENCY := $(shell sed -n 's/^ *localparam int unsigned FP32_LATENCY *= *\([0-9]*\);.*/\1/p' \
                       rtl/wg_fp32_pkg.sv)
SMEM_CFLAGS := -O2 -ffp-contract=off -I$(abspath sim) -I$(abspath tests/rtl)
SMEM_VFLAGS := --cc --exe --build -j 2 -Wall --assert --x-assign unique --x-initial unique --trace-fst \
               -MAKEFLAGS OPT_FAST=-O2 -CFLAGS "$(SMEM_CFLAGS)" -LDFLAGS -lm \
               $(VL_RT_FLAGS)

.PHONY: smem-test smem-lint smem-synth

# The FP32 reference (ADD.F32), its own C translation unit without FP contraction.
SMEM_FP32_REF_O := $(SMEM_DIR)/fp32_ref.o
$(SMEM_FP32_REF_O): tests/rtl/fp32_ref.h sim/smem.mk
	@mkdir -p $(@D)
	$(CC) -x c -std=gnu11 -O2 -Wall -Wextra -Werror -ffp-contract=off -fno-fast-math \
		-DFP32_REF_IMPLEMENTATION -c $< -o $@

# smem_build(name, DMEM_BYTES, HAS_FP, LANES): one Verilated build of test_smem.
define smem_build
SMEM_SIMS += $(SMEM_DIR)/$(1)/test_smem
$(SMEM_DIR)/$(1)/test_smem: $(SMEM_RTL) $(SMEM_TB) $(SMEM_VLT) $(SMEM_SRCS) $(SMEM_FP32_REF_O) $(RTL_RT)/stamp
	@mkdir -p $$(@D)
	@echo "VERILATE test_smem ($(1): DMEM_BYTES=$(2) HAS_FP=$(3) LANES=$(4))"
	@$(VERILATOR) $(SMEM_VFLAGS) -GDMEM_BYTES=$(2) -GHAS_FP=1\'b$(3) -GLANES=$(4) \
		-CFLAGS "-DDMEM_BYTES=$(2) -DHAS_FP=$(3) -DSMEM_LANES=$(4) -DWG_FP32_LATENCY=$(SMEM_FP32_LATENCY)" \
		--top-module tb_smem -Mdir $$(@D) -o test_smem \
		$(SMEM_VLT) $(SMEM_RTL) $(SMEM_TB) $(abspath tests/rtl/test_smem.cpp) \
		$(abspath $(SMEM_FP32_REF_O)) >$$(@D)/build.log 2>&1 || { tail -40 $$(@D)/build.log; exit 1; }
endef
SMEM_SIMS :=
$(eval $(call smem_build,fp,65536,1,32))
$(eval $(call smem_build,nofp,8192,0,32))
$(eval $(call smem_build,l4,65536,1,4))

smem-test: $(SMEM_SIMS)
	@failed=; \
	for t in $^; do \
		echo "$$t"; \
		$$t $(SMEM_ARGS) 2>&1 | sed 's/^/  /'; \
		[ $${PIPESTATUS[0]} -eq 0 ] || failed="$$failed $$t"; \
	done; \
	if [ -n "$$failed" ]; then echo "smem: FAILED:$$failed"; exit 1; fi; \
	echo "smem: $(words $^) tests passed"

rtl-test:: smem-test

smem-lint:
	@set -e; for p in "" "-GDMEM_BYTES=8192 -GHAS_FP=1'b0" "-GDMEM_BYTES=49152" "-GDMEM_BYTES=256" \
		"-GLANES=4" "-GLANES=1 -GDMEM_BYTES=256 -GHAS_FP=1'b0" "-GLANES=16 -GDMEM_BYTES=2048"; do \
		echo "lint wg_smem $$p"; \
		$(VERILATOR) --lint-only -Wall $$p -Irtl $(SMEM_VLT) $$(scripts/rtl-deps.py wg_smem) --top-module wg_smem; \
	done
	@set -e; for p in "" "-GDMEM_BYTES=8192" "-GDMEM_BYTES=49152" "-GDMEM_BYTES=256"; do \
		echo "lint wg_dmem $$p"; \
		$(VERILATOR) --lint-only -Wall $$p -Irtl $(SMEM_VLT) $$(scripts/rtl-deps.py wg_dmem) --top-module wg_dmem; \
	done
	@$(VERILATOR) --lint-only -Wall -Irtl $(SMEM_VLT) $(SMEM_RTL) $(SMEM_TB) --top-module tb_smem
	@echo "smem-lint: clean"

# Resource figures: wg_smem (8 KB array, no FP) and wg_dmem (64 KB) on iCE40.
SMEM_SYN_DIR := $(SMEM_DIR)/synth
smem-synth:
	@mkdir -p $(SMEM_SYN_DIR)
	$(YOSYS) -q -l $(SMEM_SYN_DIR)/smem.log -p 'read_verilog -sv $(SMEM_RTL_SMEM); \
		chparam -set DMEM_BYTES 8192 -set HAS_FP 0 wg_smem; synth_ice40 -top wg_smem; \
		tee -q -o $(SMEM_SYN_DIR)/smem.stat stat'
	$(YOSYS) -q -l $(SMEM_SYN_DIR)/dmem.log -p 'read_verilog -sv $(shell scripts/rtl-deps.py wg_dmem); \
		synth_ice40 -top wg_dmem; tee -q -o $(SMEM_SYN_DIR)/dmem.stat stat'
	@! grep -a "Latch inferred" $(SMEM_SYN_DIR)/*.log
	@for f in smem dmem; do echo "$$f:"; \
		grep -E 'Number of cells|SB_LUT4|SB_DFF|SB_RAM|SB_CARRY' $(SMEM_SYN_DIR)/$$f.stat; done

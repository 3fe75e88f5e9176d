# The FX2LP slave-FIFO bridge (rtl/wg_fx2_fifo.sv, docs/fx2.md section 5.1) and its test
# against the C model of the FX2's FIFOs (sim/fx2_model.[ch]).
# Included by the top-level Makefile (-include sim/fx2.mk); adds to rtl-test::.
#   make fx2-rtl-test   build and run tests/rtl/test_fx2_fifo.cpp (FX2_ARGS go to the run:
#                       make fx2-rtl-test FX2_ARGS="--seed=7 --scale=10")
#   make fx2-lint       verilator --lint-only -Wall of wg_fx2_fifo

VERILATOR ?= verilator

FX2_DIR    := $(BUILD)/rtl/fx2
FX2_SIM    := $(FX2_DIR)/test_fx2_fifo
FX2_RTL     = $(shell scripts/rtl-deps.py wg_fx2_fifo 2>/dev/null)
FX2_ARGS   ?=
FX2_VFLAGS := --cc --exe --build -j 2 -Wall --assert --x-assign unique --x-initial unique --trace-fst \
              -MAKEFLAGS OPT_FAST=-O2 -CFLAGS "-O2 -I$(CURDIR)/sim" \
              $(VL_RT_FLAGS)

.PHONY: fx2-rtl-test fx2-lint

$(FX2_SIM): $(FX2_RTL) rtl/lint.vlt tests/rtl/test_fx2_fifo.cpp sim/fx2_model.c sim/fx2_model.h sim/harness.h sim/fx2.mk $(RTL_RT)/stamp
	@mkdir -p $(@D)
	@echo "VERILATE test_fx2_fifo"
	@$(VERILATOR) $(FX2_VFLAGS) --top-module wg_fx2_fifo --Mdir $(@D) -o test_fx2_fifo \
		rtl/lint.vlt $(FX2_RTL) $(abspath tests/rtl/test_fx2_fifo.cpp) $(abspath sim/fx2_model.c) \
		>$(@D)/build.log 2>&1 || { tail -40 $(@D)/build.log; exit 1; }

fx2-rtl-test: $(FX2_SIM)
	$(FX2_SIM) $(FX2_ARGS)

fx2-lint:
	$(VERILATOR) --lint-only -Wall rtl/lint.vlt $(FX2_RTL) --top-module wg_fx2_fifo
	$(VERILATOR) --lint-only -Wall rtl/lint.vlt $(FX2_RTL) --top-module wg_fx2_fifo -GRX_DEPTH=4 -GTX_DEPTH=1 \
		-GPKT_BYTES=64 -GPKTEND_IDLE=1 -GBURST=1
	@echo "fx2-lint: clean"

rtl-test:: fx2-rtl-test

# The special-function unit (rtl/wg_sfu*.sv, docs/sfu.md) and its tables.
# Included by the top-level Makefile (-include sim/sfu.mk); adds to rtl-test::.
#   make sfu-test        check the generated ROM package, build and run tests/rtl/test_sfu.cpp
#                        at SFU_LANES=4 (ITER_BITS=2) and SFU_LANES=1 (ITER_BITS=3)
#                        (SFU_ARGS go to the runs: make sfu-test SFU_ARGS="--seed=7 --scale=4")
#   make sfu-tables      recompute host/src/sfu_table.h (libm; commit the result)
#   make rtl-sfu-pkg     regenerate rtl/wg_sfu_tab_pkg.sv from host/src/sfu_table.h
#   make sfu-accuracy    MUFU error against libm over a stride through all inputs
#                        (SFU_STRIDE, default 4099; 1 = all 2^32 inputs, about an hour)
# Builds live in $(BUILD)/rtl/sfu*/.

VERILATOR ?= verilator

SFU_DIR    := $(BUILD)/rtl/sfu
SFU_RTL    := $(shell scripts/rtl-deps.py wg_sfu 2>/dev/null)
SFU_VLT    := $(wildcard rtl/*.vlt)
SFU_ARGS   ?=
SFU_STRIDE ?= 4099
SFU_HOST_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Wshadow -Werror -ffp-contract=off -Ihost/include -Ihost/src
SFU_VFLAGS := --cc --exe --build -j 2 -Wall --assert --x-assign unique --x-initial unique --trace-fst \
              -MAKEFLAGS OPT_FAST=-O2 -CFLAGS "-O2 -I$(CURDIR)/sim -I$(CURDIR)/host/src -I$(CURDIR)/host/include" \
              $(VL_RT_FLAGS)

.PHONY: sfu-test sfu-tables rtl-sfu-pkg sfu-pkg-check sfu-accuracy

$(SFU_DIR)/sfu.o: host/src/sfu.c host/src/sfu.h host/src/sfu_table.h host/src/isa.h sim/sfu.mk
	@mkdir -p $(@D)
	$(CC) $(SFU_HOST_CFLAGS) -c $< -o $@

# sfu_build(name, SFU_LANES, ITER_BITS)
define sfu_build
$(SFU_DIR)_$(1)/test_sfu_$(1): $(SFU_RTL) $(SFU_VLT) tests/rtl/test_sfu.cpp sim/harness.h sim/sfu.mk $(SFU_DIR)/sfu.o $(RTL_RT)/stamp
	@mkdir -p $$(@D)
	@echo "VERILATE test_sfu_$(1) (SFU_LANES=$(2) ITER_BITS=$(3))"
	@$(VERILATOR) $(SFU_VFLAGS) -GNUM_WARPS=8 -GNUM_SIMD=2 -GSFU_LANES=$(2) -GITER_BITS=$(3) \
		-CFLAGS "-DSFU_LANES=$(2)" --top-module wg_sfu --Mdir $$(@D) -o test_sfu_$(1) \
		$(SFU_VLT) $(SFU_RTL) $(abspath tests/rtl/test_sfu.cpp) $(abspath $(SFU_DIR)/sfu.o) \
		>$$(@D)/build.log 2>&1 || { tail -40 $$(@D)/build.log; exit 1; }
endef
$(eval $(call sfu_build,l4,4,2))
$(eval $(call sfu_build,l1,1,3))

SFU_GEN_TAB := $(SFU_DIR)/gen_sfu_tab
SFU_GEN_SV  := $(SFU_DIR)/gen_sfu_sv
$(SFU_GEN_TAB): host/tools/gen_sfu_tab.c sim/sfu.mk
	@mkdir -p $(@D)
	$(CC) $(SFU_HOST_CFLAGS) $< -lm -o $@
$(SFU_GEN_SV): host/tools/gen_sfu_sv.c host/src/sfu_table.h sim/sfu.mk
	@mkdir -p $(@D)
	$(CC) $(SFU_HOST_CFLAGS) $< -o $@
$(SFU_DIR)/sfu_accuracy: host/tools/sfu_accuracy.c $(SFU_DIR)/sfu.o
	$(CC) $(SFU_HOST_CFLAGS) $^ -lm -o $@

sfu-tables: $(SFU_GEN_TAB)
	$(SFU_GEN_TAB) > host/src/sfu_table.h

rtl-sfu-pkg: $(SFU_GEN_SV)
	$(SFU_GEN_SV) > rtl/wg_sfu_tab_pkg.sv

sfu-pkg-check: $(SFU_GEN_SV)
	@$(SFU_GEN_SV) > $(SFU_DIR)/wg_sfu_tab_pkg.sv
	@diff -q rtl/wg_sfu_tab_pkg.sv $(SFU_DIR)/wg_sfu_tab_pkg.sv >/dev/null \
		|| { echo "rtl/wg_sfu_tab_pkg.sv differs from host/src/sfu_table.h: run make rtl-sfu-pkg"; exit 1; }
	@echo "rtl/wg_sfu_tab_pkg.sv matches host/src/sfu_table.h"

sfu-accuracy: $(SFU_DIR)/sfu_accuracy
	$(SFU_DIR)/sfu_accuracy $(SFU_STRIDE)

sfu-test: sfu-pkg-check $(SFU_DIR)_l4/test_sfu_l4 $(SFU_DIR)_l1/test_sfu_l1
	$(SFU_DIR)_l4/test_sfu_l4 $(SFU_ARGS)
	$(SFU_DIR)_l1/test_sfu_l1 $(SFU_ARGS)

rtl-test:: sfu-test

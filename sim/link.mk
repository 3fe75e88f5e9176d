# The RTL link engine (rtl/wg_link*.sv, rtl/wg_crc32.sv; docs/link-rtl.md): its Verilator
# tests, lint and an iCE40 resource count. Included by the top-level Makefile
# (-include sim/link.mk); adds link-rtl-test to the double-colon rule rtl-test.
#   make link-rtl-test            build and run the tests (LINK_ARGS go to every run):
#                                 test_link_crc (wg_crc32 at 8 and 32 bits against host/src/crc32.c),
#                                 test_link_rtl (wg_link against host/src/link.c as the host)
#   make link-rtl-test LINK_ARGS=--seed=7
#   build/rtl/link/rtl/test_link_rtl --trace         one run, FST trace
#   make link-lint                verilator --lint-only -Wall of every link module, several parameter sets
#   make link-synth               yosys synth_ice40 of wg_link in the small configuration: resource count
# Builds live in $(BUILD)/rtl/link/<test>/ and are redone when the RTL, the test, the
# harness, the C link or this file changes.

VERILATOR ?= verilator
YOSYS ?= yosys

LINK_DIR   := $(BUILD)/rtl/link
LINK_VLT   := $(wildcard rtl/*.vlt)
LINK_RTL    = $(shell scripts/rtl-deps.py wg_link)
LINK_ARGS  ?=
LINK_CC    := $(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wshadow -Werror -ffp-contract=off -Ihost/include -Ihost/src
LINK_VFLAGS := --cc --exe --build -j 2 -Wall --assert --x-assign unique --x-initial unique --trace-fst \
               -MAKEFLAGS OPT_FAST=-O2 -CFLAGS "-O2 -I$(CURDIR)/sim -I$(CURDIR)/host/src -I$(CURDIR)/host/include" \
               $(VL_RT_FLAGS)

# The configuration under test: a scaled GPU (4 SMs, 16 lanes) and small buffers, so
# that the ring, the descriptor queue and the frame store fill and wrap.
LINK_TEST_CFG := NUM_SMS=4 NUM_WARPS=8 SIMD_WIDTH=8 NUM_SIMD=2 MEM_TAG_W=8 NUM_CTAS=8 \
                 RX_BUF_BYTES=2048 RX_PAYLOAD=1024 DESC_DEPTH=2 TX_FRAMES=4 TX_SLOT_BYTES=1024 \
                 FLUSH_CYCLES=64 RTO_CYCLES=20000 LERR_DEPTH=4
link_get = $(patsubst $(1)=%,%,$(filter $(1)=%,$(LINK_TEST_CFG)))
LINK_GPARAMS := $(foreach p,$(LINK_TEST_CFG),-G$(p))
LINK_DEFS := -DLINK_NUM_SMS=$(call link_get,NUM_SMS) -DLINK_NUM_WARPS=$(call link_get,NUM_WARPS) \
             -DLINK_SIMD_WIDTH=$(call link_get,SIMD_WIDTH) -DLINK_NUM_SIMD=$(call link_get,NUM_SIMD) \
             -DLINK_MEM_TAG_W=$(call link_get,MEM_TAG_W) -DLINK_NUM_CTAS=$(call link_get,NUM_CTAS) \
             -DLINK_RX_PAYLOAD=$(call link_get,RX_PAYLOAD) -DLINK_TX_FRAMES=$(call link_get,TX_FRAMES) \
             -DLINK_RTO=$(call link_get,RTO_CYCLES)

# The C side linked into the tests: the codec and link, the CRC, the log.
LINK_C_OBJS := $(LINK_DIR)/c/link.o $(LINK_DIR)/c/crc32.o $(LINK_DIR)/c/log.o

$(LINK_DIR)/c/%.o: host/src/%.c host/src/%.h host/include/wg_link_proto.h host/include/warpgate.h sim/link.mk
	@mkdir -p $(@D)
	$(LINK_CC) -c $< -o $@

LINK_SIMS :=

# link_build(test, top, rtl files, C++ source, Verilator options)
define link_build
LINK_SIMS += $(LINK_DIR)/$(1)/$(1)
$(LINK_DIR)/$(1)/$(1): $(3) $(LINK_VLT) $(4) $(LINK_C_OBJS) sim/harness.h sim/link.mk $(RTL_RT)/stamp
	@mkdir -p $$(@D)
	@echo "VERILATE $(1)"
	@$(VERILATOR) $(LINK_VFLAGS) $(5) --top-module $(2) --Mdir $$(@D) -o $(1) \
		$(LINK_VLT) $(3) $(abspath $(4) $(LINK_C_OBJS)) >$$(@D)/build.log 2>&1 \
		|| { tail -40 $$(@D)/build.log; exit 1; }
endef

$(eval $(call link_build,test_link_crc,wg_crc32,rtl/wg_crc32.sv,tests/rtl/test_link_crc.cpp,\
	-GDATA_W=8 -CFLAGS -DCRC_DATA_W=8))
$(eval $(call link_build,test_link_crc32,wg_crc32,rtl/wg_crc32.sv,tests/rtl/test_link_crc.cpp,\
	-GDATA_W=32 -CFLAGS -DCRC_DATA_W=32))
$(eval $(call link_build,test_link_rtl,wg_link,$(LINK_RTL),tests/rtl/test_link_rtl.cpp,\
	$(LINK_GPARAMS) -CFLAGS "$(LINK_DEFS)"))

.PHONY: link-rtl-test link-lint link-synth

link-rtl-test: $(LINK_SIMS)
	@set -o pipefail; failed=; \
	for t in $(LINK_SIMS); do \
		echo "$$t"; \
		$$t $(LINK_ARGS) 2>&1 | tee $$t.log | sed 's/^/  /' || failed="$$failed $$(basename $$t)"; \
	done; \
	if [ -n "$$failed" ]; then echo "link: FAILED:$$failed"; exit 1; fi; \
	echo "link: $(words $(LINK_SIMS)) tests passed"

rtl-test:: link-rtl-test

# Lint: the engine at its defaults, the test configuration, the smallest and the widest
# corners, and every module as its own top.
LINK_LINT = $(VERILATOR) --lint-only -Wall $(LINK_VLT) $(LINK_RTL)
link-lint:
	@$(LINK_LINT) --top-module wg_link
	@$(LINK_LINT) --top-module wg_link $(LINK_GPARAMS)
	@$(LINK_LINT) --top-module wg_link -GNUM_SMS=1 -GNUM_SIMD=1 -GMEM_TAG_W=1 -GRX_BUF_BYTES=2048 \
		-GRX_PAYLOAD=1024 -GDESC_DEPTH=1 -GTX_FRAMES=2 -GTX_SLOT_BYTES=256 -GLERR_DEPTH=1
	@$(LINK_LINT) --top-module wg_link -GNUM_SMS=64 -GMEM_TAG_W=16 -GRX_BUF_BYTES=16384 -GRX_PAYLOAD=16364 \
		-GTX_SLOT_BYTES=16384 -GTX_FRAMES=16
	@$(LINK_LINT) --top-module wg_link -GRETIRE_EN=0 -GFLUSH_CYCLES=0 -GRTO_CYCLES=1 -GMAX_RETRIES=1
	@for m in wg_link_rx wg_link_tx wg_link_cmd wg_link_ev wg_crc32; do \
		$(VERILATOR) --lint-only -Wall $(LINK_VLT) $$(scripts/rtl-deps.py $$m) --top-module $$m || exit 1; \
	done
	@$(VERILATOR) --lint-only -Wall $(LINK_VLT) rtl/wg_crc32.sv --top-module wg_crc32 -GDATA_W=32
	@echo "link: lint clean"

# iCE40 resource count of the small configuration (one SM of 4 lanes, no retire port; 2 KB receive
# ring, 4 x 1 KB frame store). Prints figures; asserts no size. No latches allowed.
LINK_SYN_DIR := $(LINK_DIR)/synth
LINK_SYN_SMALL := -set NUM_SMS 1 -set NUM_WARPS 4 -set SIMD_WIDTH 4 -set NUM_SIMD 1 -set MEM_TAG_W 4 \
	-set RX_BUF_BYTES 2048 -set RX_PAYLOAD 1024 -set DESC_DEPTH 2 -set TX_FRAMES 4 -set TX_SLOT_BYTES 1024 \
	-set LERR_DEPTH 2 -set RTO_CYCLES 100000 -set RETIRE_EN 0
LINK_SYN_CMD = read_verilog -sv $(LINK_RTL); chparam $(LINK_SYN_SMALL) wg_link; \
	synth_ice40 -top wg_link; check -assert; tee -q -o $(LINK_SYN_DIR)/ice40.stat stat
link-synth:
	@mkdir -p $(LINK_SYN_DIR)
	$(YOSYS) -q -l $(LINK_SYN_DIR)/ice40.log -p '$(LINK_SYN_CMD)'
	@! grep -a "Latch inferred" $(LINK_SYN_DIR)/ice40.log
	@echo "wg_link, small configuration, synth_ice40:"
	@grep -E 'Number of cells|SB_' $(LINK_SYN_DIR)/ice40.stat

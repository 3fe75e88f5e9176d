# The JTAG debug port (rtl/wg_jtag_*.sv, docs/jtag.md): its Verilator test, the
# remote_bitbang server, the OpenOCD test, lint and an iCE40 resource count.
# Included by the top-level Makefile (-include sim/jtag.mk); adds jtag-rtl-test and
# jtag-test to the double-colon rule rtl-test.
#   make jtag-rtl-test     tests/rtl/test_jtag.c pin by pin (JTAG_ARGS go to the run:
#                          make jtag-rtl-test JTAG_ARGS="--seed=7 --scale=10")
#   make jtag-test         OpenOCD (remote_bitbang) against the model: checks, scans/s
#                          (JTAG_SCANS drscans timed, default 2000)
#   make jtag-bitbang      build/rtl/jtag/jtag_bitbang, the server alone
#   make jtag-lint         verilator --lint-only -Wall of the modules, several parameter sets
#   make jtag-synth        yosys synth_ice40 of wg_jtag_tap + wg_jtag_regs (tb_jtag sizes)
#   make program           load BITSTREAM into a Xilinx board over its USB JTAG (openocd;
#                          PROGRAM_BOARD arty or nexysv)
#   make openocd-cfg-test  the boards' OpenOCD configurations parse (in `make test`)
# The Verilated model (tests/rtl/tb_jtag.sv) and sim/wgjtag.cpp make build/rtl/jtag/libwgjtag.a;
# it is redone when the RTL, the wrapper or this file changes.

VERILATOR ?= verilator
YOSYS ?= yosys
OPENOCD ?= openocd

JTAG_DIR  := $(BUILD)/rtl/jtag
JTAG_OBJ  := $(JTAG_DIR)/obj
JTAG_LIB  := $(JTAG_DIR)/libwgjtag.a
JTAG_VLT  := $(wildcard rtl/*.vlt)
JTAG_RTL   = $(shell scripts/rtl-deps.py wg_jtag_tap) rtl/wg_jtag_regs.sv tests/rtl/tb_jtag.sv
JTAG_ARGS ?=
JTAG_SCANS ?= 2000
JTAG_CC   := $(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wshadow -Werror -ffp-contract=off -Isim -Ihost/include
JTAG_LDLIBS := -lstdc++ -lz -lpthread -lm
# FST tracing compiled in (test_jtag --trace=FILE, jtag_bitbang --trace=FILE), off unless asked for.
JTAG_VFLAGS := --cc --build -j 2 -Wall --assert --x-assign unique --x-initial unique --trace-fst \
               -MAKEFLAGS OPT_FAST=-O2 -CFLAGS "-O2 -I$(CURDIR)/sim -I$(CURDIR)/host/include"

.PHONY: jtag-rtl-test jtag-test jtag-bitbang jtag-lint jtag-synth program

$(JTAG_LIB): $(JTAG_RTL) $(JTAG_VLT) sim/wgjtag.cpp sim/wgjtag.h host/include/warpgate.h sim/jtag.mk
	@mkdir -p $(JTAG_OBJ)
	@echo "VERILATE tb_jtag"
	@$(VERILATOR) $(JTAG_VFLAGS) --top-module tb_jtag --Mdir $(JTAG_OBJ) $(JTAG_VLT) $(JTAG_RTL) \
		$(abspath sim/wgjtag.cpp) >$(JTAG_DIR)/build.log 2>&1 \
	&& $(MAKE) -s --no-print-directory -C $(JTAG_OBJ) -f Vtb_jtag.mk OPT_FAST=-O2 \
		wgjtag.o verilated.o verilated_fst_c.o verilated_threads.o >>$(JTAG_DIR)/build.log 2>&1 \
		|| { tail -40 $(JTAG_DIR)/build.log; exit 1; }
	rm -f $@
	ar rcs $@ $(addprefix $(JTAG_OBJ)/,Vtb_jtag__ALL.o wgjtag.o verilated.o verilated_fst_c.o verilated_threads.o)

$(JTAG_DIR)/test_jtag: tests/rtl/test_jtag.c sim/wgjtag.h $(JTAG_LIB)
	$(JTAG_CC) -o $@ $< $(JTAG_LIB) $(JTAG_LDLIBS)

$(JTAG_DIR)/jtag_bitbang: sim/jtag_bitbang.c sim/remote_bitbang.c sim/remote_bitbang.h sim/wgjtag.h $(JTAG_LIB)
	$(JTAG_CC) -o $@ sim/jtag_bitbang.c sim/remote_bitbang.c $(JTAG_LIB) $(JTAG_LDLIBS)

jtag-rtl-test: $(JTAG_DIR)/test_jtag
	$(JTAG_DIR)/test_jtag $(JTAG_ARGS)

jtag-bitbang: $(JTAG_DIR)/jtag_bitbang

jtag-test: $(JTAG_DIR)/jtag_bitbang
	@OPENOCD=$(OPENOCD) scripts/jtag-test.sh $(BUILD) $(JTAG_SCANS)

rtl-test:: jtag-rtl-test jtag-test openocd-cfg-test

# Lint: each module as its own top, the register block at its size limits, the test top.
JTAG_LINT = $(VERILATOR) --lint-only -Wall $(JTAG_VLT)
jtag-lint:
	@for m in wg_sync wg_jtag_dtm wg_jtag_tap wg_jtag_regs; do \
		$(JTAG_LINT) $$(scripts/rtl-deps.py $$m) --top-module $$m || exit 1; \
	done
	@$(JTAG_LINT) $$(scripts/rtl-deps.py wg_jtag_regs) --top-module wg_jtag_regs -GNUM_CNT=1 -GNUM_CTRL=1
	@$(JTAG_LINT) $$(scripts/rtl-deps.py wg_jtag_regs) --top-module wg_jtag_regs -GNUM_CNT=256 -GNUM_CTRL=256
	@$(JTAG_LINT) $(JTAG_RTL) --top-module tb_jtag
	@$(JTAG_LINT) sim/xilinx/BSCANE2.sv $$(scripts/rtl-deps.py wg_jtag_bscan) --top-module wg_jtag_bscan
	@echo "jtag: lint clean"

# iCE40 resource count of the debug port as tb_jtag sizes it (4 counters, 4 controls).
# Prints figures; asserts no size. No latches allowed.
JTAG_SYN_CMD = read_verilog -sv $(shell scripts/rtl-deps.py wg_jtag_tap) rtl/wg_jtag_regs.sv; \
	hierarchy -top wg_jtag_tap; synth_ice40 -top wg_jtag_tap; check -assert; \
	tee -q -o $(JTAG_DIR)/synth/tap.stat stat; design -reset; \
	read_verilog -sv $(shell scripts/rtl-deps.py wg_jtag_regs); chparam -set NUM_CNT 4 -set NUM_CTRL 4 wg_jtag_regs; \
	synth_ice40 -top wg_jtag_regs; check -assert; tee -q -o $(JTAG_DIR)/synth/regs.stat stat
jtag-synth:
	@mkdir -p $(JTAG_DIR)/synth
	$(YOSYS) -q -l $(JTAG_DIR)/synth/ice40.log -p '$(JTAG_SYN_CMD)'
	@! grep -a "Latch inferred" $(JTAG_DIR)/synth/ice40.log
	@echo "wg_jtag_tap (with wg_jtag_dtm), synth_ice40:"; grep -E 'Number of cells|SB_LUT4|SB_DFF' $(JTAG_DIR)/synth/tap.stat
	@echo "wg_jtag_regs (4 counters, 4 controls), synth_ice40:"; grep -E 'Number of cells|SB_LUT4|SB_DFF' $(JTAG_DIR)/synth/regs.stat

# Load a bitstream into a Xilinx board's FPGA (volatile: lost at power-off) over its on-board
# FT2232H (constraints/openocd/, docs/jtag.md section 9): PROGRAM_BOARD arty (Arty A7-100T,
# the default) or nexysv (Nexys Video); the bitstream of make fpga-<board> by default.
#   make program [PROGRAM_BOARD=nexysv] [BITSTREAM=path/to/file.bit]
PROGRAM_BOARD ?= arty
OPENOCD_CFG_arty   := constraints/openocd/arty-a7.cfg
OPENOCD_CFG_nexysv := constraints/openocd/nexys-video.cfg
# OpenOCD without its GDB, Tcl and telnet servers (parallel runs do not collide).
OPENOCD_NOPORTS    := -c "gdb_port disabled; tcl_port disabled; telnet_port disabled"
BITSTREAM ?= $(BUILD)/board/warpgate_$(PROGRAM_BOARD).bit
program:
	@[ -n "$(OPENOCD_CFG_$(PROGRAM_BOARD))" ] || { echo "program: no OpenOCD configuration for board" \
		"'$(PROGRAM_BOARD)' (one of: $(FPGA_XC7_BOARDS))"; exit 1; }
	@[ -f "$(BITSTREAM)" ] || { echo "program: no bitstream at $(BITSTREAM) (give BITSTREAM=path/to/file.bit;" \
		"make fpga-$(PROGRAM_BOARD) produces it)"; exit 1; }
	@command -v $(OPENOCD) >/dev/null || { echo "program: $(OPENOCD) not found (Debian package openocd)"; exit 1; }
	@$(OPENOCD) $(OPENOCD_NOPORTS) -f $(OPENOCD_CFG_$(PROGRAM_BOARD)) \
		-c "init; pld load 0 {$(BITSTREAM)}; virtex2 read_stat 0; shutdown" \
		|| { echo "program: openocd failed: is the board ($(PROGRAM_BOARD)) connected over USB, powered, and" \
			"readable (udev rule for 0403:6010)? See docs/jtag.md section 9"; exit 1; }
	@echo "program: $(BITSTREAM) loaded"

# The boards' OpenOCD configurations parse and declare the FPGA's TAP (no adapter is opened:
# OpenOCD stops before init).
.PHONY: openocd-cfg-test
openocd-cfg-test:
	@command -v $(OPENOCD) >/dev/null || { echo "openocd-cfg-test: $(OPENOCD) not found (make deps)"; exit 1; }
	@for c in $(foreach b,$(FPGA_XC7_BOARDS),$(OPENOCD_CFG_$(b))); do \
		t=$$($(OPENOCD) $(OPENOCD_NOPORTS) -f $$c \
			-c "puts \"taps: [jtag names]\"; puts \"procs: [info procs wg_dump]\"; shutdown" 2>&1); \
		echo "$$t" | grep -qx "taps: xc7.tap" && echo "$$t" | grep -qx "procs: wg_dump" \
			|| { echo "$$t"; echo "openocd-cfg-test: $$c does not declare xc7.tap with the warpgate procedures"; exit 1; }; \
		echo "openocd-cfg-test: $$c: xc7.tap, warpgate procedures"; \
	done

# The FPGA flows (docs/fpga.md). Included by the top-level Makefile; adds to rtl-test::.
#   make fpga            iCE40 UP5K (iCEBreaker): yosys synth_ice40 -> nextpnr-ice40 with
#                        constraints/ice40-up5k-icebreaker.pcf -> icepack, of rtl/wg_ice40_top.sv
#                        (the FX2 loop-back: the SM does not fit an iCE40); prints utilisation
#                        and post-route Fmax; fails on a latch, on the design not fitting, or on
#                        IFCLK's Fmax below 48 MHz. About 10 s. In `make test`.
#   make fpga-xc7        yosys synth_xilinx estimate of one SM of board FPGA_XC7_BOARD's set
#                        (default arty; configs/boards.mk) against the board's device
#                        (XC7A100T; nexysv: XC7A200T): LUT/FF/BRAM/DSP used and available. Tens of minutes (FPGA_XC7_TIMEOUT): not in `make test`.
#                        FPGA_XC7_FLATTEN=1: one flat netlist (totals only); FPGA_XC7_MAP=-abc9:
#                        yosys' ABC9 LUT mapping (docs/fpga.md section 3.8). FPGA_XC7_UNIT=wg_xc7_top:
#                        the whole board image; with FPGA_XC7_BOX=wg_sm, the image around its SM.
#   make xc7-abc9-test   scripts/xc7-synth.sh's ABC9 flow on a small design with a true dual-port
#                        block RAM: it maps, RAMs and DSPs as in the default flow. In `make test`.
#   make xc7-report-test scripts/fpga-xc7-table.sh and scripts/fpga-xc7-blocks.py on a small
#                        hierarchical synth_xilinx run: totals agree, rows add up. In `make test`.
#   make fpga-blocks     the SM's blocks synthesised one by one (synth_xilinx), board
#                        FPGA_BLOCKS_BOARD (default arty): the cost table of docs/fpga.md
#   make fpga-configs    build/fpga/<board>.cfg: the host configuration of each board
#   make fpga-lint       verilator --lint-only -Wall of one SM with each board's parameters
#   make fpga-arty       Vivado batch build of the Arty A7-100T bitstream (where Vivado is
#   make fpga-nexysv     installed), or the Nexys Video's (XC7A200T)
#   make xdc-test        the XDC files' ports are the Xilinx tops' ports (in `make test`)
#   make fx2-loop-test   tests/rtl/test_fx2_loop.cpp (in `make test`)
#   make program-ice40   load build/fpga/ice40/wg_ice40_top.bin into the iCEBreaker's FPGA
#                        (iceprog -S: SRAM, lost at power-off)
# The Xilinx boards' bitstreams are Vivado's (constraints/vivado-build.tcl, not run here);
# `make program` (sim/jtag.mk) loads one over the board's FT2232H.


YOSYS       ?= yosys
NEXTPNR     ?= nextpnr-ice40
ICEPACK     ?= icepack
ICEPROG     ?= iceprog
FPGA_DIR    := $(BUILD)/fpga

# --- iCE40 --------------------------------------------------------------------
ICE40_TOP   := wg_ice40_top
ICE40_DEV   := --up5k --package sg48
ICE40_PCF   := constraints/ice40-up5k-icebreaker.pcf
ICE40_MHZ   := 48
ICE40_DIR   := $(FPGA_DIR)/ice40
ICE40_RTL    = $(shell scripts/rtl-deps.py $(ICE40_TOP))
ICE40_BIN   := $(ICE40_DIR)/$(ICE40_TOP).bin
# Device capacity (UP5K): logic cells, 4 Kbit block RAMs, SPRAM, DSP, IO.
ICE40_CAP   := LC=5280 RAM=30 SPRAM=4 DSP=8

.PHONY: fpga fpga-xc7 fpga-blocks fpga-configs fx2-loop-test program-ice40

ICE40_YS = read_verilog -sv $(ICE40_RTL); synth_ice40 -top $(ICE40_TOP) -json $@.tmp; check -assert; \
           tee -q -o $(ICE40_DIR)/yosys.stat stat

$(ICE40_DIR)/$(ICE40_TOP).json: $(ICE40_RTL) sim/fpga.mk
	@mkdir -p $(@D)
	@echo "YOSYS synth_ice40 $(ICE40_TOP)"
	@$(YOSYS) -q -l $(ICE40_DIR)/yosys.log -p '$(ICE40_YS)' >/dev/null 2>&1 || { tail -20 $(ICE40_DIR)/yosys.log; rm -f $@.tmp; exit 1; }
	@if grep -aq "Latch inferred" $(ICE40_DIR)/yosys.log; then grep -a "Latch inferred" $(ICE40_DIR)/yosys.log; \
		rm -f $@.tmp; exit 1; fi
	@mv $@.tmp $@

# nextpnr fails by itself when the design does not fit or a pin is not in the PCF. A fixed
# seed keeps the figures reproducible.
$(ICE40_DIR)/$(ICE40_TOP).asc: $(ICE40_DIR)/$(ICE40_TOP).json $(ICE40_PCF)
	@echo "NEXTPNR $(ICE40_DEV) $(ICE40_PCF)"
	@$(NEXTPNR) $(ICE40_DEV) --pcf $(ICE40_PCF) --json $< --asc $@.tmp --freq $(ICE40_MHZ) --seed 1 \
		-l $(ICE40_DIR)/nextpnr.log >/dev/null 2>&1 || { grep -E "ERROR|Error" $(ICE40_DIR)/nextpnr.log | head; \
		rm -f $@.tmp; exit 1; }
	@mv $@.tmp $@

$(ICE40_BIN): $(ICE40_DIR)/$(ICE40_TOP).asc
	@$(ICEPACK) $< $@

# Utilisation and Fmax from nextpnr's log; IFCLK (the FX2 interface) must reach 48 MHz.
fpga: $(ICE40_BIN)
	@echo "iCE40 UP5K ($(ICE40_TOP), $(ICE40_PCF)): $(ICE40_BIN), $$(stat -c %s $(ICE40_BIN)) bytes"
	@sed -n '/Device utilisation:/,/^Info: *$$/p' $(ICE40_DIR)/nextpnr.log | grep -E '^Info:[[:space:]]+[A-Z_]+:' \
		| sed 's/^Info:[[:space:]]*/  /'
	@grep -E "Max frequency for clock" $(ICE40_DIR)/nextpnr.log | tail -n 2 | sed 's/^Info: /  /'
	@f=$$(grep -E "Max frequency for clock +'fx2_ifclk" $(ICE40_DIR)/nextpnr.log | tail -1 \
		| sed -E 's/.*: ([0-9.]+) MHz.*/\1/'); \
	[ -n "$$f" ] || { echo "fpga: no Fmax for fx2_ifclk_i in $(ICE40_DIR)/nextpnr.log"; exit 1; }; \
	awk -v f="$$f" -v t=$(ICE40_MHZ) 'BEGIN { if (f + 0 < t) { printf "fpga: IFCLK Fmax %s MHz < %d MHz\n", f, t; exit 1 } }'

program-ice40: $(ICE40_BIN)
	@command -v $(ICEPROG) >/dev/null || { echo "program-ice40: $(ICEPROG) not found (Debian package fpga-icestorm)"; exit 1; }
	$(ICEPROG) -S $(ICE40_BIN)

# --- Xilinx 7-series boards with Vivado (not installed here) ---------------------------
# make fpga-arty (Arty A7-100T) or make fpga-nexysv (Nexys Video, XC7A200T): the GPU image
# (wg_xc7_top: wg_board_top behind the board's pins, JTAG through BSCANE2) with the board's
# parameter set, or the loop-back bring-up image (FPGA_XC7_TOP=wg_arty_loop_top, no
# parameters); bitstream build/board/warpgate_<board>.bit and reports in build/board/, where
# `make program` (sim/jtag.mk) looks for it.
VIVADO       ?= vivado
FPGA_XC7_TOP ?= wg_xc7_top
fpga_xc7_params = $(if $(filter wg_xc7_top,$(FPGA_XC7_TOP)),$(call board_params,$(1),NUM_SMS $(BOARD_SM_NAMES)))
.PHONY: $(addprefix fpga-,$(FPGA_XC7_BOARDS))
$(addprefix fpga-,$(FPGA_XC7_BOARDS)): fpga-%:
	@command -v $(VIVADO) >/dev/null || { echo "fpga-$*: $(VIVADO) not found: the board's bitstream needs Vivado" \
		"(constraints/vivado-build.tcl, docs/fpga.md section 6); make fpga-xc7 FPGA_XC7_BOARD=$* gives yosys' estimate"; exit 1; }
	@[ -f rtl/$(FPGA_XC7_TOP).sv ] || { echo "fpga-$*: no rtl/$(FPGA_XC7_TOP).sv"; exit 1; }
	@mkdir -p $(BUILD)/board
	$(VIVADO) -mode batch -nojournal -log $(BUILD)/board/vivado-$*.log -source constraints/vivado-build.tcl \
		-tclargs $(BUILD)/board $* $(FPGA_XC7_TOP) $(call fpga_xc7_params,$*)

# --- Artix-7 estimate ---------------------------------------------------------
FPGA_XC7_BOARD   ?= arty
FPGA_XC7_TIMEOUT ?= 5400
# FPGA_XC7_UNIT: wg_sm (one SM, the default) or wg_xc7_top (the whole GPU image of a Xilinx
# board: the FX2 bridge, the link engine, the GPU with the set's NUM_SMS SMs, the JTAG port
# through BSCANE2, I/O buffers on its pins; docs/fpga.md section 3.9).
FPGA_XC7_UNIT    ?= wg_sm
# FPGA_XC7_BOX: modules read as black boxes, their logic not counted (FPGA_XC7_BOX=wg_sm with
# FPGA_XC7_UNIT=wg_xc7_top: the image around its SM, a quarter of an hour instead of hours).
FPGA_XC7_BOX     ?=
XC7_IMAGE        := $(filter wg_xc7_top,$(FPGA_XC7_UNIT))
XC7_DIR          := $(FPGA_DIR)/xc7-$(FPGA_XC7_BOARD)$(if $(XC7_IMAGE),-image)$(if $(FPGA_XC7_BOX),-box)
XC7_RTL           = $(if $(filter wg_sm wg_xc7_top,$(FPGA_XC7_UNIT)),$(shell scripts/rtl-deps.py $(FPGA_XC7_UNIT)))
XC7_NSMS          = $(call board_param,$(FPGA_XC7_BOARD),NUM_SMS)
# The device the board is compared with (configs/boards.mk): its name and capacity.
# (FPGA_XC7_DEV=XC7A200T compares any set with the larger device; a set without a device of
# its own is compared with the XC7A100T.)
FPGA_XC7_DEV     ?= $(or $(FPGA_XC7_DEV_$(FPGA_XC7_BOARD)),XC7A100T)
XC7_DEV          := $(FPGA_XC7_DEV)
XC7_CAP           = $(XC7_CAP_$(XC7_DEV))

# FPGA_XC7_FLATTEN=1: one flat netlist, as Vivado's default synthesis makes, so that logic behind a
# port tied to a constant in one instance goes (pipe 1 never takes a remote instruction, for one);
# the totals only, no table by block.
FPGA_XC7_FLATTEN ?=
# FPGA_XC7_MAP=-abc9: yosys' ABC9 LUT mapping (on the SM about an eighth fewer LUTs than the
# default ABC mapping; docs/fpga.md section 3.8: with yosys 0.23 it runs on the SM only with the
# block RAMs boxed around the LUT mapping, scripts/xc7-synth.sh). Empty (the default): the
# mapping every figure of docs/fpga.md before section 3.8 was measured with.
FPGA_XC7_MAP     ?=
# The synthesis commands come from scripts/xc7-synth.sh, in the shell variable syn.
XC7_YS = read_verilog -sv $(if $(XC7_IMAGE),-DWG_GPU_NUM_SMS=$(XC7_NSMS)) $(XC7_RTL); \
         chparam $(call board_chparam,$(FPGA_XC7_BOARD),$(BOARD_SM_NAMES)) $(FPGA_XC7_UNIT); \
         $(foreach b,$(FPGA_XC7_BOX),blackbox $(b);) $$syn rename -top wg_sm_xc7; tee -q -o $(XC7_DIR)/check.log check; \
         tee -q -o $(XC7_DIR)/sm.stat stat -top wg_sm_xc7

fpga-xc7:
	@[ -n "$(FPGA_BOARD_$(FPGA_XC7_BOARD))" ] && [ -n "$(XC7_CAP)" ] || { echo "fpga-xc7: board '$(FPGA_XC7_BOARD)'" \
		"has no parameter set or no Xilinx device in configs/boards.mk"; exit 1; }
	@case "$(FPGA_XC7_UNIT)" in wg_sm|wg_xc7_top) ;; *) echo "fpga-xc7: FPGA_XC7_UNIT must be wg_sm or" \
		"wg_xc7_top, not '$(FPGA_XC7_UNIT)'"; exit 1 ;; esac
	@mkdir -p $(XC7_DIR)
	@echo "YOSYS synth_xilinx$(if $(FPGA_XC7_FLATTEN), -flatten)$(if $(FPGA_XC7_MAP), $(FPGA_XC7_MAP))$(if $(XC7_IMAGE), -iopad) $(FPGA_XC7_UNIT)$(if $(FPGA_XC7_BOX), without $(FPGA_XC7_BOX)), board $(FPGA_XC7_BOARD): $(call board_params,$(FPGA_XC7_BOARD),$(BOARD_SM_NAMES))"
	@syn=$$(YOSYS=$(YOSYS) scripts/xc7-synth.sh $(FPGA_XC7_UNIT) "$(FPGA_XC7_MAP)" "$(FPGA_XC7_FLATTEN)" $(XC7_DIR)/ramb-boxes.v \
		"$(if $(XC7_IMAGE),-iopad)") || exit 1; \
	start=$$(date +%s); \
	timeout $(FPGA_XC7_TIMEOUT) nice -n 10 $(YOSYS) -q -l $(XC7_DIR)/yosys.log -p "$(XC7_YS)" >$(XC7_DIR)/yosys.err 2>&1; rc=$$?; t=$$(( $$(date +%s) - start )); \
	[ $$rc -eq 0 ] || { tail -5 $(XC7_DIR)/yosys.log; cat $(XC7_DIR)/yosys.err; echo "fpga-xc7: yosys failed (exit $$rc after $$t s)"; exit 1; }; \
	! grep -a "Latch inferred" $(XC7_DIR)/yosys.log || exit 1; \
	echo "synth_xilinx: $$t s"; \
	scripts/fpga-xc7-table.sh $(XC7_DIR)/sm.stat $(if $(XC7_IMAGE),1 "board image ($(XC7_NSMS) SM)$(if $(FPGA_XC7_BOX), without $(FPGA_XC7_BOX))",$(XC7_NSMS) SM) \
		$(XC7_DEV) $(XC7_CAP); rc=$$?; \
	if [ -z "$(FPGA_XC7_FLATTEN)" ]; then \
		echo "  $(if $(XC7_IMAGE),the image,one SM) by block (scripts/fpga-xc7-blocks.py $(XC7_DIR)/sm.stat [BLOCK] breaks a block down):"; \
		scripts/fpga-xc7-blocks.py $(XC7_DIR)/sm.stat || exit 1; \
	else echo "  (flat netlist: no table by block)"; fi; \
	grep -q "Found and reported 0 problems" $(XC7_DIR)/check.log || { grep -a -i -B1 -A3 "warning" $(XC7_DIR)/check.log | head -40; \
		echo "fpga-xc7: yosys' check found problems ($(XC7_DIR)/check.log)"; exit 1; }; exit $$rc

# (The top is renamed: after chparam and synthesis it is no longer found as wg_sm by stat.)

# The two readers of fpga-xc7's stat agree on a small hierarchical synthesis (about 15 s).
.PHONY: xc7-report-test
xc7-report-test:
	@tests/fpga/xc7-report-test.sh $(FPGA_DIR)/xc7-report-test

# The Xilinx boards' XDC files against the tops (ports, pins), and the GPU image elaborating with
# the `arty` set (about 20 s).
.PHONY: xdc-test
xdc-test:
	@XDC_TEST_CHPARAM="$(call board_chparam,arty,$(BOARD_SM_NAMES))" \
		XDC_TEST_ASSERT="$(if $(filter HAS_SFU=0,$(FPGA_BOARD_arty)),select -assert-none t:*wg_sfu)" \
		tests/fpga/xdc-test.sh $(FPGA_DIR)/xdc-test

# The ABC9 flow of scripts/xc7-synth.sh on a design with a true dual-port block RAM (a few s).
.PHONY: xc7-abc9-test
xc7-abc9-test:
	@tests/fpga/xc7-abc9-test.sh $(FPGA_DIR)/xc7-abc9-test

# --- per-block table ----------------------------------------------------------
FPGA_BLOCKS_BOARD ?= arty
# synth_xilinx's LUT mapper for the blocks: empty for its default ABC mapping (every table of
# docs/fpga.md is measured with it, so figures compare from run to run), or -abc9 for yosys'
# ABC9 flow (a quarter fewer LUTs on some blocks, an eighth on the whole SM, docs/fpga.md
# sections 3.5 and 3.8; block RAMs boxed around the LUT mapping, scripts/xc7-synth.sh, as for
# fpga-xc7's FPGA_XC7_MAP).
FPGA_BLOCKS_MAP ?=
FPGA_BLOCKS ?= wg_warp_sched wg_barrier wg_sreg wg_simt_stack wg_fetch wg_cta_ctrl wg_dmem \
               wg_coalescer wg_l1 wg_smem wg_exec_pipe wg_lsu
fpga-blocks:
	@BLOCK_MAP="$(FPGA_BLOCKS_MAP)" nice -n 10 scripts/fpga-blocks.sh $(FPGA_DIR)/blocks-$(FPGA_BLOCKS_BOARD) \
		"$(FPGA_BOARD_$(FPGA_BLOCKS_BOARD))" $(FPGA_BLOCKS)

# --- the board sets elaborate ------------------------------------------------------
# verilator --lint-only -Wall of one SM with each board's parameters, and yosys' front end
# and elaboration of the same (read_verilog, chparam, hierarchy -check: a construct yosys
# does not read, which Verilator accepts, fails here in seconds rather than in a synthesis
# run of tens of minutes; FPGA_ELAB_BOARDS, default arty: about 15 s each).
FPGA_ELAB_BOARDS ?= arty
.PHONY: fpga-lint
define fpga_lint_one
	@echo "LINT wg_sm, board $(1)"
	@$(VERILATOR) --lint-only -Wall -Irtl $(wildcard rtl/*.vlt) $(XC7_RTL) --top-module wg_sm \
		$(call board_vflags,$(1),$(BOARD_SM_NAMES))
	@if [ -n "$(filter $(1),$(FPGA_ELAB_BOARDS))" ]; then echo "YOSYS ELABORATE wg_sm, board $(1)"; \
		$(YOSYS) -q -p 'read_verilog -sv $(XC7_RTL); chparam $(call board_chparam,$(1),$(BOARD_SM_NAMES)) wg_sm; \
		hierarchy -check -top wg_sm' >$(FPGA_DIR)/elab-$(1).log 2>&1 \
		|| { grep -i -B2 -A2 error $(FPGA_DIR)/elab-$(1).log; exit 1; }; fi

endef
fpga-lint:
	@mkdir -p $(FPGA_DIR)
	$(foreach b,$(FPGA_BOARDS),$(call fpga_lint_one,$(b)))

# --- host configurations --------------------------------------------------------
# The keys the host checks against HELLO (docs/board.md section 5) and the ones that must
# agree with them (threads per CTA, shared-memory split and L1 geometry: the 16 KB L1 split).
$(FPGA_DIR)/%.cfg: configs/boards.mk sim/fpga.mk
	@mkdir -p $(@D)
	@[ -n "$(FPGA_BOARD_$*)" ] || { echo "no board configuration '$*' in configs/boards.mk"; exit 1; }
	@d=$(call board_param,$*,DMEM_BYTES); s=$(call board_param,$*,L1_SETS); \
	{ echo "# Board '$*', generated from configs/boards.mk by make fpga-configs: do not edit."; \
	  echo "name                = $*"; \
	  echo "n_sm                = $(call board_param,$*,NUM_SMS)"; \
	  echo "max_warps_per_sm    = $(call board_param,$*,NUM_WARPS)"; \
	  echo "max_threads_per_cta = $$(( $(call board_param,$*,NUM_WARPS) * 32 ))"; \
	  echo "max_ctas_per_sm     = $(call board_param,$*,NUM_CTAS)"; \
	  echo "regs_per_sm         = $(call board_param,$*,NUM_REGS)"; \
	  echo "reg_banks           = $(call board_param,$*,RF_BANKS)"; \
	  echo "simd_width          = $(call board_param,$*,SIMD_WIDTH)"; \
	  echo "simd_units          = $(call board_param,$*,NUM_SIMD)"; \
	  echo "schedulers          = $(call board_param,$*,NUM_SIMD)"; \
	  echo "shmem_l1_bytes      = $$d"; \
	  echo "shmem_bytes         = $$(( d * 3 / 4 ))"; \
	  echo "dl1                 = $$s:128:$$(( d / 4 / 128 / s ))"; \
	} > $@

FPGA_CFG_BOARDS := $(sort $(FPGA_BOARDS) $(FPGA_XC7_BOARDS))
fpga-configs: $(foreach b,$(FPGA_CFG_BOARDS),$(FPGA_DIR)/$(b).cfg)
	@for b in $(FPGA_CFG_BOARDS); do echo "$(FPGA_DIR)/$$b.cfg"; done

# --- the loop-back's test -----------------------------------------------------------
FX2L_DIR := $(BUILD)/rtl/fx2_loop
FX2L_SIM := $(FX2L_DIR)/test_fx2_loop
FX2L_RTL  = $(shell scripts/rtl-deps.py wg_fx2_loop)
FX2L_VFLAGS := --cc --exe --build -j 2 -Wall --assert --x-assign unique --x-initial unique --trace-fst \
               -MAKEFLAGS OPT_FAST=-O2 -CFLAGS "-O2 -I$(CURDIR)/sim" \
               $(VL_RT_FLAGS)

$(FX2L_SIM): $(FX2L_RTL) $(wildcard rtl/*.vlt) tests/rtl/test_fx2_loop.cpp sim/harness.h sim/fpga.mk $(RTL_RT)/stamp
	@mkdir -p $(@D)
	@echo "VERILATE test_fx2_loop"
	@$(VERILATOR) $(FX2L_VFLAGS) --top-module wg_fx2_loop --Mdir $(@D) -o test_fx2_loop \
		$(wildcard rtl/*.vlt) $(FX2L_RTL) $(abspath tests/rtl/test_fx2_loop.cpp) \
		>$(@D)/build.log 2>&1 || { tail -40 $(@D)/build.log; exit 1; }

fx2-loop-test: $(FX2L_SIM)
	$(FX2L_SIM)

rtl-test:: fx2-loop-test fpga fpga-lint xc7-report-test xc7-abc9-test xdc-test

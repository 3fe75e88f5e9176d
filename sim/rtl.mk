# SM core RTL: Verilator unit tests, the generated ISA package, lint and synthesis.
# Included by the top-level Makefile; adds its recipes to the double-colon rule rtl-test.
#   make rtl-test          check rtl/wg_isa_pkg.sv against the instruction table, lint the
#                          blocks at several parameter sets, build and run every unit test
#   make rtl-isa-pkg       regenerate rtl/wg_isa_pkg.sv (commit the result)
#   make rtl-synth         yosys figures of wg_regfile for docs/regfile.md (iCE40, XC7)
#   make build/rtl/test_regfile/test_regfile          build one test
#   build/rtl/test_regfile/test_regfile --seed=7 --trace   run it: new seed, FST trace
#   make rtl-test RTL_TEST_ARGS=--seed=7                 every test with another seed
# Each test is its own Verilator build in build/rtl/<test>/ (one parameter set each);
# builds are incremental: a test is rebuilt when its RTL, C++, harness or this file changes.

VERILATOR ?= verilator
YOSYS ?= yosys

RTL_DIR := $(BUILD)/rtl
RTL_PKGS := rtl/wg_isa_pkg.sv rtl/wg_pkg.sv
RTL_VLT := $(wildcard rtl/*.vlt)
RTL_OPT ?= -O1
RTL_TEST_ARGS ?=
RTL_MAKEFLAGS := OPT_FAST=$(RTL_OPT) OPT_SLOW=$(RTL_OPT) OPT_GLOBAL=$(RTL_OPT)
RTL_VFLAGS := --cc --exe -Wall --assert --x-assign unique --x-initial unique --trace-fst \
              -CFLAGS "-I$(CURDIR)/sim -I$(CURDIR)/host/src -I$(CURDIR)/host/include"
RTL_HOST_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Wshadow -Werror -Ihost/include -Ihost/src

# Verilator's run-time library (verilated.o, verilated_threads.o, verilated_fst_c.o) is
# the same for every model: build it once (at -O2, as the SM and GPU models had theirs),
# from a generated makefile with the same flags, and give each test here a copy (newer than
# its makefile, so it is not compiled again).
RTL_RT := $(RTL_DIR)/runtime
RTL_RT_OBJS := verilated.o verilated_threads.o verilated_fst_c.o
# $(call rt_copy,DIR): the library's objects into a model's directory.
rt_copy = cp $(addprefix $(RTL_RT)/,$(RTL_RT_OBJS)) $(1)/

$(RTL_RT)/stamp: rtl/wg_spill_reg.sv $(RTL_VLT) sim/rtl.mk
	@mkdir -p $(@D)
	@echo "BUILD Verilator run-time library"
	@$(VERILATOR) $(RTL_VFLAGS) --top-module wg_spill_reg --Mdir $(RTL_RT) $(RTL_VLT) rtl/wg_spill_reg.sv \
		$(abspath tests/rtl/test_spill_reg.cpp) >$(RTL_RT)/build.log 2>&1 \
		&& $(MAKE) -s --no-print-directory -C $(RTL_RT) -f Vwg_spill_reg.mk -j 2 $(RTL_MAKEFLAGS) \
		OPT_GLOBAL=-O2 $(RTL_RT_OBJS) >>$(RTL_RT)/build.log 2>&1 || { cat $(RTL_RT)/build.log; exit 1; }
	@rm -f $(RTL_RT_LIB) && ar rcs $(RTL_RT_LIB) $(addprefix $(RTL_RT)/,$(RTL_RT_OBJS))
	@touch $@

# The block tests of the other sim/*.mk files build with `verilator --build`: VL_RT_FLAGS on
# that line empties the generated makefile's list of run-time objects (so it compiles none
# of its own) and links this library instead (test_coalescer's build: 14.4 s of CPU before,
# 7.9 s); their rules depend on $(RTL_RT)/stamp. The SM, GPU, board and top models copy the
# objects in. (-lz after the library: the FST writer needs it.)
RTL_RT_LIB  := $(RTL_RT)/libvlrt.a
VL_RT_FLAGS := -MAKEFLAGS VM_GLOBAL_FAST= -MAKEFLAGS VM_GLOBAL_SLOW= -LDFLAGS "$(abspath $(RTL_RT_LIB)) -lz"

RTL_TESTS :=

# $(call rtl_test,NAME,TOP,RTL FILES,C++ SOURCE,VERILATOR OPTIONS,EXTRA LINK OBJECTS,PARALLEL)
# Parameters go to Verilator (-G) and, as -D macros, to the C++ test. PARALLEL = 1 compiles
# the model's files separately, two at a time (large models); otherwise as one unit.
define rtl_test
RTL_TESTS += $(RTL_DIR)/$(1)/$(1)
$(RTL_DIR)/$(1)/$(1): $(RTL_PKGS) $(3) $(RTL_VLT) $(4) $(6) sim/harness.h sim/rtl.mk $(RTL_RT)/stamp
	@mkdir -p $$(@D)
	@echo "VERILATE $(1)"
	@$(VERILATOR) $(RTL_VFLAGS) $(5) --top-module $(2) --Mdir $(RTL_DIR)/$(1) -o $(1) \
		$(RTL_VLT) $(RTL_PKGS) $(3) $$(abspath $(4) $(6)) >$(RTL_DIR)/$(1)/build.log 2>&1 \
		&& $(call rt_copy,$(RTL_DIR)/$(1)) \
		&& $(MAKE) -s --no-print-directory -C $(RTL_DIR)/$(1) -f V$(2).mk -j 2 $(RTL_MAKEFLAGS) \
		VM_PARALLEL_BUILDS=$(if $(7),1,0) $(1) >>$(RTL_DIR)/$(1)/build.log 2>&1 \
		|| { cat $(RTL_DIR)/$(1)/build.log; exit 1; }
endef

$(eval $(call rtl_test,test_fifo,wg_fifo,rtl/wg_fifo_ctl.sv rtl/wg_fifo.sv,tests/rtl/test_fifo.cpp,\
	-GDEPTH=4 -GWIDTH=32 -CFLAGS "-DFIFO_DEPTH=4 -DFIFO_WIDTH=32 -DFIFO_FT=0"))
$(eval $(call rtl_test,test_fifo_ft,wg_fifo,rtl/wg_fifo_ctl.sv rtl/wg_fifo.sv,tests/rtl/test_fifo.cpp,\
	-GDEPTH=3 -GWIDTH=12 "-GFALL_THROUGH=1'b1" -CFLAGS "-DFIFO_DEPTH=3 -DFIFO_WIDTH=12 -DFIFO_FT=1"))
$(eval $(call rtl_test,test_fifo_d1,wg_fifo,rtl/wg_fifo_ctl.sv rtl/wg_fifo.sv,tests/rtl/test_fifo.cpp,\
	-GDEPTH=1 -GWIDTH=8 -CFLAGS "-DFIFO_DEPTH=1 -DFIFO_WIDTH=8 -DFIFO_FT=0"))
$(eval $(call rtl_test,test_fifo_ram,wg_fifo_ram,rtl/wg_fifo_ctl.sv rtl/wg_fifo_ram.sv rtl/wg_ram_1r1w.sv,tests/rtl/test_fifo.cpp,\
	-GDEPTH=5 -GWIDTH=32 -CFLAGS "-DFIFO_DEPTH=5 -DFIFO_WIDTH=32 -DFIFO_FT=0 -DFIFO_RAM=1"))
$(eval $(call rtl_test,test_fifo_ram_d1,wg_fifo_ram,rtl/wg_fifo_ctl.sv rtl/wg_fifo_ram.sv rtl/wg_ram_1r1w.sv,tests/rtl/test_fifo.cpp,\
	-GDEPTH=1 -GWIDTH=8 -CFLAGS "-DFIFO_DEPTH=1 -DFIFO_WIDTH=8 -DFIFO_FT=0 -DFIFO_RAM=1"))
$(eval $(call rtl_test,test_rr_arbiter,wg_rr_arbiter,rtl/wg_rr_arbiter.sv,tests/rtl/test_rr_arbiter.cpp,\
	-GN=5 -CFLAGS -DARB_N=5))
$(eval $(call rtl_test,test_spill_reg,wg_spill_reg,rtl/wg_spill_reg.sv,tests/rtl/test_spill_reg.cpp,\
	-GWIDTH=32))
$(eval $(call rtl_test,test_ram,wg_ram_1r1w,rtl/wg_ram_1r1w.sv,tests/rtl/test_ram.cpp,\
	-GDEPTH=100 -GWIDTH=32 -GEN_GRAIN=8 -CFLAGS "-DRAM_DEPTH=100 -DRAM_WIDTH=32 -DRAM_GRAIN=8"))
$(eval $(call rtl_test,test_ram_word,wg_ram_1r1w,rtl/wg_ram_1r1w.sv,tests/rtl/test_ram.cpp,\
	-GDEPTH=64 -GWIDTH=24 -GEN_GRAIN=0 -CFLAGS "-DRAM_DEPTH=64 -DRAM_WIDTH=24 -DRAM_GRAIN=0"))
$(eval $(call rtl_test,test_ram_2c,wg_ram_1r1w_2c,rtl/wg_ram_1r1w_2c.sv,tests/rtl/test_ram_2c.cpp,\
	-GDEPTH=64 -GWIDTH=24 -CFLAGS "-DRAM_DEPTH=64 -DRAM_WIDTH=24"))
$(eval $(call rtl_test,test_isa_pkg,tb_isa_pkg,tests/rtl/tb_isa_pkg.sv,tests/rtl/test_isa_pkg.cpp,,\
	$(RTL_DIR)/isa.o))

# Instruction decoder (docs/isa.md): legality and the uop fields against the golden model's
# decoder; the GTX480 SM's units, and a board SM without FP32 and SFU.
RTL_DEC_SRCS := rtl/wg_sm_pkg.sv rtl/wg_decode.sv tests/rtl/tb_decode.sv
$(eval $(call rtl_test,test_decode,tb_decode,$(RTL_DEC_SRCS),tests/rtl/test_decode.cpp,,$(RTL_DIR)/isa.o))
$(eval $(call rtl_test,test_decode_nofp,tb_decode,$(RTL_DEC_SRCS),tests/rtl/test_decode.cpp,\
	"-GHAS_FP=1'b0" "-GHAS_SFU=1'b0" -CFLAGS "-DDEC_HAS_FP=0 -DDEC_HAS_SFU=0",$(RTL_DIR)/isa.o))

# Special registers (S2R rows, docs/sm-pipeline.md "Execution pipelines"): 4 warps, 2 CTA slots, the port
# shared by two schedulers.
$(eval $(call rtl_test,test_sreg,wg_sreg,rtl/wg_sm_pkg.sv rtl/wg_rr_arbiter.sv rtl/wg_sreg.sv,tests/rtl/test_sreg.cpp,\
	-GNUM_WARPS=4 -GNUM_CTAS=2 -GNUM_PORTS=2))

# Power-gating accounting (docs/power-gating.md section 4): the GTX480 SM's 32 lanes and 1024
# bins; 8 lanes and 256 bins (an FPGA size).
$(eval $(call rtl_test,test_pg_acct,wg_pg_acct,rtl/wg_rr_arbiter.sv rtl/wg_ram_1r1w_2c.sv rtl/wg_pg_acct.sv,\
	tests/rtl/test_pg_acct.cpp,-GNUM_LANES=16 -GHIST_BINS=1024 -CFLAGS "-DPG_LANES=16 -DPG_BINS=1024"))
$(eval $(call rtl_test,test_pg_acct_small,wg_pg_acct,rtl/wg_rr_arbiter.sv rtl/wg_ram_1r1w_2c.sv rtl/wg_pg_acct.sv,\
	tests/rtl/test_pg_acct.cpp,-GNUM_LANES=8 -GHIST_BINS=256 -CFLAGS "-DPG_LANES=8 -DPG_BINS=256"))
# Power-gating controllers (docs/power-gating.md section 2): 2 units x 4 lanes, directed.
$(eval $(call rtl_test,test_pg_ctrl,wg_pg_ctrl,rtl/wg_pg_ctrl.sv,tests/rtl/test_pg_ctrl.cpp,\
	-GNUM_SIMD=2 -GSIMD_WIDTH=4))

# Lane-activity trace (docs/power-gating.md section 7.2): the GTX480 SM's 32 lanes with a
# queue of 4; 40 lanes (two groups) with a queue of 3.
$(eval $(call rtl_test,test_pg_trace,wg_pg_trace,rtl/wg_fifo_ctl.sv rtl/wg_fifo.sv rtl/wg_pg_trace.sv,tests/rtl/test_pg_trace.cpp,\
	-GNUM_LANES=32 -GQDEPTH=4 -CFLAGS "-DPGT_LANES=32 -DPGT_QDEPTH=4"))
$(eval $(call rtl_test,test_pg_trace_w40,wg_pg_trace,rtl/wg_fifo_ctl.sv rtl/wg_fifo.sv rtl/wg_pg_trace.sv,tests/rtl/test_pg_trace.cpp,\
	-GNUM_LANES=40 -GQDEPTH=3 -CFLAGS "-DPGT_LANES=40 -DPGT_QDEPTH=3"))

# Warp issue control (docs/power-gating.md section 3.2): 2 units of 16 lanes.
$(eval $(call rtl_test,test_pg_issue_ctrl,wg_pg_issue_ctrl,rtl/wg_pg_issue_ctrl.sv,tests/rtl/test_pg_issue_ctrl.cpp,\
	-GNUM_SIMD=2 -GSIMD_WIDTH=16))

# Thread compaction (docs/power-gating.md section 3.3): the 16-lane unit (lanes in use 16, 8),
# and a 4-lane FPGA unit (4, 2).
$(eval $(call rtl_test,test_compact,tb_compact,rtl/wg_compact.sv tests/rtl/tb_compact.sv,\
	tests/rtl/test_compact.cpp,-GLANES=16 -CFLAGS -DCMP_LANES=16))
$(eval $(call rtl_test,test_compact_w4,tb_compact,rtl/wg_compact.sv tests/rtl/tb_compact.sv,\
	tests/rtl/test_compact.cpp,-GLANES=4 -CFLAGS -DCMP_LANES=4))

# Register file: the GTX480 size; a scaled FPGA size (4 warps, 4 lanes per row: 8 parts);
# dual-ported banks (WR_BLOCKS_RD=0) with 2 banks and 8 lanes per row (4 parts).
RTL_RF_SRCS := rtl/wg_ram_1r1w.sv rtl/wg_regfile.sv
RTL_RF_DEFAULT := NUM_WARPS=48 NUM_REGS=32768 NUM_BANKS=16 LANES=32 WRB=1
RTL_RF_SMALL := NUM_WARPS=4 NUM_REGS=1024 NUM_BANKS=4 LANES=4 WRB=1
RTL_RF_DP := NUM_WARPS=8 NUM_REGS=2048 NUM_BANKS=2 LANES=8 WRB=0
rtl_rf_get = $(patsubst $(1)=%,%,$(filter $(1)=%,$(2)))
rtl_rf_opts = -GNUM_WARPS=$(call rtl_rf_get,NUM_WARPS,$(1)) -GNUM_REGS=$(call rtl_rf_get,NUM_REGS,$(1)) \
	-GNUM_BANKS=$(call rtl_rf_get,NUM_BANKS,$(1)) -GLANES_PER_ROW=$(call rtl_rf_get,LANES,$(1)) \
	"-GWR_BLOCKS_RD=1'b$(call rtl_rf_get,WRB,$(1))" \
	-CFLAGS "-DRF_NUM_WARPS=$(call rtl_rf_get,NUM_WARPS,$(1)) -DRF_NUM_REGS=$(call rtl_rf_get,NUM_REGS,$(1)) \
	-DRF_NUM_BANKS=$(call rtl_rf_get,NUM_BANKS,$(1)) -DRF_LANES=$(call rtl_rf_get,LANES,$(1)) \
	-DRF_WR_BLOCKS_RD=$(call rtl_rf_get,WRB,$(1))"
$(eval $(call rtl_test,test_regfile,wg_regfile,$(RTL_RF_SRCS),tests/rtl/test_regfile.cpp,\
	$(call rtl_rf_opts,$(RTL_RF_DEFAULT)),,1))
$(eval $(call rtl_test,test_regfile_small,wg_regfile,$(RTL_RF_SRCS),tests/rtl/test_regfile.cpp,\
	$(call rtl_rf_opts,$(RTL_RF_SMALL)),,1))
$(eval $(call rtl_test,test_regfile_dp,wg_regfile,$(RTL_RF_SRCS),tests/rtl/test_regfile.cpp,\
	$(call rtl_rf_opts,$(RTL_RF_DP)),,1))

# Warp rows over a register file in beats (docs/regfile.md section 12): the `arty` pipe's
# size (4 warps, 4096 registers, 4 banks, 8 lanes per row: 4 parts), the same at 4 lanes per
# row (8 parts), dual-ported banks (8 warps, 2 banks, 4 lanes per row), and 32 lanes per row
# (the ports of wg_regfile as they are).
RTL_RR_SRCS := $(RTL_RF_SRCS) rtl/wg_rf_rows.sv
rtl_rr_opts = -GNUM_WARPS=$(1) -GNUM_REGS=$(2) -GNUM_BANKS=$(3) -GLANES_PER_ROW=$(4) "-GWR_BLOCKS_RD=1'b$(5)" \
	-CFLAGS "-DRR_NUM_WARPS=$(1) -DRR_NUM_REGS=$(2) -DRR_NUM_BANKS=$(3) -DRR_LANES=$(4) -DRR_WR_BLOCKS_RD=$(5)"
$(eval $(call rtl_test,test_rf_rows,wg_rf_rows,$(RTL_RR_SRCS),tests/rtl/test_rf_rows.cpp,\
	$(call rtl_rr_opts,4,4096,4,8,1)))
$(eval $(call rtl_test,test_rf_rows_4,wg_rf_rows,$(RTL_RR_SRCS),tests/rtl/test_rf_rows.cpp,\
	$(call rtl_rr_opts,4,4096,4,4,1)))
$(eval $(call rtl_test,test_rf_rows_dp,wg_rf_rows,$(RTL_RR_SRCS),tests/rtl/test_rf_rows.cpp,\
	$(call rtl_rr_opts,8,2048,2,4,0)))
$(eval $(call rtl_test,test_rf_rows_32,wg_rf_rows,$(RTL_RR_SRCS),tests/rtl/test_rf_rows.cpp,\
	$(call rtl_rr_opts,4,4096,4,32,1)))

# The instruction table in C, for test_isa_pkg.
$(RTL_DIR)/isa.o: host/src/isa.c host/src/isa.h host/src/isa_table.h host/include/warpgate.h sim/rtl.mk
	@mkdir -p $(@D)
	$(CC) $(RTL_HOST_CFLAGS) -c $< -o $@

# --- generated ISA package ---------------------------------------------------------
RTL_GEN := $(RTL_DIR)/tools/gen_isa_sv

$(RTL_GEN): host/tools/gen_isa_sv.c host/src/isa.c host/src/isa.h host/src/isa_table.h sim/rtl.mk
	@mkdir -p $(@D)
	$(CC) $(RTL_HOST_CFLAGS) host/tools/gen_isa_sv.c host/src/isa.c -o $@

.PHONY: rtl-isa-pkg rtl-isa-check rtl-lint-params rtl-unit-tests rtl-synth

rtl-isa-pkg: $(RTL_GEN)
	$(RTL_GEN) > rtl/wg_isa_pkg.sv

rtl-isa-check: $(RTL_GEN)
	@$(RTL_GEN) > $(RTL_DIR)/wg_isa_pkg.sv
	@diff -u rtl/wg_isa_pkg.sv $(RTL_DIR)/wg_isa_pkg.sv \
		|| { echo "rtl/wg_isa_pkg.sv differs from the instruction table: run make rtl-isa-pkg"; exit 1; }
	@echo "rtl/wg_isa_pkg.sv matches the instruction table"

# --- lint ---------------------------------------------------------------------------
# scripts/lint.sh (make lint) lints every module at its default parameters; this adds the
# blocks at parameter sets the tests do not build (corner widths: 1 bank, 1 warp, 1 lane
# per row, depth-1 FIFO, N=1 arbiter).
RTL_LINT := $(VERILATOR) --lint-only -Wall $(RTL_VLT) $(RTL_PKGS)
rtl-lint-params:
	@$(RTL_LINT) rtl/wg_ram_1r1w.sv rtl/wg_regfile.sv --top-module wg_regfile
	@$(RTL_LINT) rtl/wg_ram_1r1w.sv rtl/wg_regfile.sv --top-module wg_regfile \
		-GNUM_WARPS=1 -GNUM_REGS=512 -GNUM_BANKS=1 -GLANES_PER_ROW=1 -GTAG_W=1 -GCNT_W=8
	@$(RTL_LINT) rtl/wg_ram_1r1w.sv rtl/wg_regfile.sv --top-module wg_regfile \
		-GNUM_WARPS=6 -GNUM_REGS=4096 -GNUM_BANKS=32 -GLANES_PER_ROW=16 "-GWR_BLOCKS_RD=1'b0"
	@$(RTL_LINT) rtl/wg_ram_1r1w.sv rtl/wg_regfile.sv rtl/wg_rf_rows.sv --top-module wg_rf_rows \
		-GNUM_WARPS=4 -GNUM_REGS=4096 -GNUM_BANKS=4 -GLANES_PER_ROW=16
	@$(RTL_LINT) rtl/wg_fifo_ctl.sv rtl/wg_fifo.sv --top-module wg_fifo -GDEPTH=1 -GWIDTH=1 "-GFALL_THROUGH=1'b1"
	@$(RTL_LINT) rtl/wg_fifo_ctl.sv rtl/wg_fifo.sv --top-module wg_fifo -GDEPTH=16 -GWIDTH=64
	@$(RTL_LINT) rtl/wg_ram_1r1w.sv rtl/wg_fifo_ctl.sv rtl/wg_fifo_ram.sv --top-module wg_fifo_ram -GDEPTH=1 -GWIDTH=1
	@$(RTL_LINT) rtl/wg_ram_1r1w.sv rtl/wg_fifo_ctl.sv rtl/wg_fifo_ram.sv --top-module wg_fifo_ram -GDEPTH=256 -GWIDTH=1096
	@$(RTL_LINT) rtl/wg_rr_arbiter.sv --top-module wg_rr_arbiter -GN=1
	@$(RTL_LINT) rtl/wg_rr_arbiter.sv --top-module wg_rr_arbiter -GN=48
	@$(RTL_LINT) rtl/wg_rr_arbiter.sv rtl/wg_ram_1r1w_2c.sv rtl/wg_pg_acct.sv --top-module wg_pg_acct
	@$(RTL_LINT) rtl/wg_rr_arbiter.sv rtl/wg_ram_1r1w_2c.sv rtl/wg_pg_acct.sv --top-module wg_pg_acct -GNUM_LANES=1 -GHIST_BINS=16
	@$(RTL_LINT) rtl/wg_pg_ctrl.sv --top-module wg_pg_ctrl -GNUM_SIMD=1 -GSIMD_WIDTH=1
	@$(RTL_LINT) rtl/wg_fifo_ctl.sv rtl/wg_fifo.sv rtl/wg_pg_trace.sv --top-module wg_pg_trace -GNUM_LANES=1 -GQDEPTH=2
	@$(RTL_LINT) rtl/wg_fifo_ctl.sv rtl/wg_fifo.sv rtl/wg_pg_trace.sv --top-module wg_pg_trace -GNUM_LANES=128 -GQDEPTH=8
	@$(RTL_LINT) rtl/wg_compact.sv --top-module wg_compact -GLANES=1
	@$(RTL_LINT) rtl/wg_spill_reg.sv --top-module wg_spill_reg "-GBYPASS=1'b1"
	@$(RTL_LINT) rtl/wg_ram_1r1w.sv --top-module wg_ram_1r1w -GDEPTH=1 -GWIDTH=1024 -GEN_GRAIN=8
	@echo "rtl: lint clean at all parameter sets"

# --- tests --------------------------------------------------------------------------
rtl-unit-tests: $(RTL_TESTS)
	@set -o pipefail; failed=; \
	for t in $(RTL_TESTS); do \
		$$t $(RTL_TEST_ARGS) 2>&1 | tee $$t.log | sed 's/^/  /' || failed="$$failed $$(basename $$t)"; \
	done; \
	if [ -n "$$failed" ]; then echo "rtl: FAILED:$$failed"; exit 1; fi; \
	echo "rtl: $(words $(RTL_TESTS)) unit tests passed"

rtl-test:: rtl-isa-check rtl-lint-params rtl-unit-tests

# --- synthesis (docs/regfile.md) ----------------------------------------------------
# iCE40: the smallest FPGA build (4 warps, 8 registers per thread, 4 lanes per row);
# XC7: the GTX480 defaults. No latches allowed (yosys reports "Latch inferred").
RTL_SYN_DIR := $(RTL_DIR)/synth
RTL_SYN_FILES := $(RTL_PKGS) rtl/wg_ram_1r1w.sv rtl/wg_regfile.sv
RTL_SYN_ICE40 := -set NUM_WARPS 4 -set NUM_REGS 1024 -set NUM_BANKS 2 -set LANES_PER_ROW 4 -set CNT_W 16

RTL_SYN_ICE40_CMD := read_verilog -sv $(RTL_SYN_FILES); chparam $(RTL_SYN_ICE40) wg_regfile; \
	synth_ice40 -top wg_regfile; check -assert; tee -q -o $(RTL_SYN_DIR)/ice40.stat stat
RTL_SYN_XC7_CMD := read_verilog -sv $(RTL_SYN_FILES); synth_xilinx -family xc7 -top wg_regfile; \
	check -assert; tee -q -o $(RTL_SYN_DIR)/xc7.stat stat

rtl-synth:
	@mkdir -p $(RTL_SYN_DIR)
	$(YOSYS) -q -l $(RTL_SYN_DIR)/ice40.log -p '$(RTL_SYN_ICE40_CMD)'
	$(YOSYS) -q -l $(RTL_SYN_DIR)/xc7.log -p '$(RTL_SYN_XC7_CMD)'
	@! grep -a "Latch inferred" $(RTL_SYN_DIR)/ice40.log $(RTL_SYN_DIR)/xc7.log
	@for f in ice40 xc7; do echo "$$f:"; s=$(RTL_SYN_DIR)/$$f.stat; \
		if grep -q "design hierarchy" $$s; then sed -n '/design hierarchy/,$$p' $$s; else cat $$s; fi \
		| grep -E '^ +(SB_|LUT|RAM|FD|MUXF|CARRY|DSP)'; done


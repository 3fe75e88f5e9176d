# The USB path of the board (docs/usb.md): the Verilated FPGA board top (rtl/wg_board_top.sv:
# FX2 slave-FIFO bridge + board core + JTAG), the emulated FX2 device that serves libusb
# through umockdev (tests/usb/fx2_emu.c), and the test of libwarpgate's usb target on it.
# Included by the top-level Makefile (-include sim/usb.mk).
#   make top-lib      build/usb/libwgtop.a: Verilated wg_board_top + sim/wgtop.cpp (the GPU
#                     build of sim/gpu.mk: GPU_NUM_SMS, GPU_RETIRE_EN, GPU_TRACE)
#   make fx2-emu      build/usb/fx2-emu: the emulated FX2 + FPGA (umockdev testbed)
#   make usb-test     every kernel program on --target usb under umockdev-wrapper against
#                     --target gpu: identical downloads, cycles and statistics (scripts/usb-test.sh)
#   make usb-ci-test  usb-test without bfs and histogram (USB_CI_KERNELS): the part in make test
#   make usb-bench    frames/s and MB/s through the emulated USB path (a figure, not a test)
#   make top-lint     verilator --lint-only -Wall of wg_board_top (2 SMs; 1 SM without retire)
#   make top-jtag-test  tests/rtl/test_board_jtag.c: the top's JTAG registers and the power-gating
#                     controls they write, pin by pin (no host)
#   make usb-jtag-test  OpenOCD (remote_bitbang served by fx2-emu) against the top while a kernel
#                     runs over the emulated USB link (scripts/usb-jtag-test.sh)

USB_DIR     := $(BUILD)/usb
USB_OBJ     := $(USB_DIR)/obj
TOP_LIB     := $(USB_DIR)/libwgtop.a
TOP_RTL      = $(shell scripts/rtl-deps.py wg_board_top)
TOP_VFLAGS  := --cc --hierarchical -Wall $(if $(filter 1,$(GPU_TRACE)),--trace-fst) --x-assign fast \
               --x-initial fast -CFLAGS "-O2 -march=native -I$(CURDIR)/sim $(GPU_DEFS)"
FX2_EMU     := $(USB_DIR)/fx2-emu
USB_PKGS    := umockdev-1.0 glib-2.0 gobject-2.0
FW_BIX      := firmware/build/warpgate-fx2.bix

.PHONY: top-lib top-lint fx2-emu usb-test usb-bench top-jtag-test usb-jtag-test

top-lib: $(TOP_LIB)

# As sim/board.mk: Verilation serial, the C++ compile with -j 2.
$(USB_OBJ)/Vwg_board_top__ALL.a: $(RTL_RT)/stamp $(TOP_RTL) $(SM_VLT) sim/gpu_hier.vlt sim/usb.mk sim/gpu.mk scripts/protectlib-skip.py \
		$(GPU_OBJ)/Vwg_gpu__ALL.a
	@mkdir -p $(USB_OBJ)
	@echo "VERILATE wg_board_top ($(GPU_PARAMS))"
	@start=$$(date +%s); exec 9>$(USB_DIR)/.build.lock; flock 9; \
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(VERILATOR) $(TOP_VFLAGS) $(GPU_PARAMS) --top-module wg_board_top \
		--Mdir $(USB_OBJ) $(SM_VLT) sim/gpu_hier.vlt $(TOP_RTL) $(abspath sim/wgtop.cpp) >$(USB_OBJ)/build.log 2>&1 \
	&& { $(call hier_reuse,$(USB_OBJ),Vwg_board_top_hier.mk); } >>$(USB_OBJ)/build.log \
	&& $(MAKE) --no-print-directory -C $(USB_OBJ) -f Vwg_board_top_hier.mk -j 2 OPT_FAST=-O2 hier_build \
		>>$(USB_OBJ)/build.log 2>&1 \
	&& { $(call hier_skip,$(USB_OBJ),Vwg_board_top_hier.mk); } >>$(USB_OBJ)/build.log \
	&& $(call rt_copy,$(USB_OBJ)) \
		|| { tail -40 $(USB_OBJ)/build.log; exit 1; }; \
	echo "wg_board_top built in $$(( $$(date +%s) - start )) s"; touch $@  # Verilator may have found nothing to redo

$(USB_OBJ)/wgtop.o: sim/wgtop.cpp sim/wgtop.h sim/fx2_model.h $(USB_OBJ)/Vwg_board_top__ALL.a
	$(MAKE) -s --no-print-directory -C $(USB_OBJ) -f Vwg_board_top.mk OPT_FAST=-O2 wgtop.o
	@touch $@  # the generated make may find it up to date: mark it newer than the archive

# One flat archive: the top's objects, the SM block's, the runtime and the C wrapper.
$(TOP_LIB): $(USB_OBJ)/Vwg_board_top__ALL.a $(USB_OBJ)/wgtop.o
	rm -rf $@ $(USB_OBJ)/blk && mkdir -p $(USB_OBJ)/blk
	cp $(USB_OBJ)/Vwg_board_top__ALL.a $@
	@blk=$$(sed -n 's|^[[:space:]]*\(Vwg_sm_[^/ ]*/lib[^ ]*\.a\).*|\1|p' $(USB_OBJ)/Vwg_board_top_hier.mk | head -1); \
	[ -n "$$blk" ] || { echo "no SM block library named in $(USB_OBJ)/Vwg_board_top_hier.mk"; exit 1; }; \
	echo "SM block $$blk"; ar d $@ $$(basename $$blk) && cd $(USB_OBJ)/blk && ar x ../$$blk
	ar rcs $@ $(USB_OBJ)/blk/*.o
	ar rcs $@ $(addprefix $(USB_OBJ)/,verilated.o $(if $(filter 1,$(GPU_TRACE)),verilated_fst_c.o) verilated_threads.o wgtop.o)

top-lint:
	$(VERILATOR) --lint-only -Wall -y sim/xilinx $(SM_VLT) $(TOP_RTL) --top-module wg_board_top -GNUM_SMS=2
	$(VERILATOR) --lint-only -Wall -y sim/xilinx $(SM_VLT) $(TOP_RTL) --top-module wg_board_top -GNUM_SMS=1 -GRETIRE_EN=0
	@echo "top-lint: clean"

$(FX2_EMU): tests/usb/fx2_emu.c sim/fx2_model.c sim/fx2_model.h sim/remote_bitbang.c sim/remote_bitbang.h sim/wgtop.h host/include/wg_usb_proto.h \
		host/include/wg_link_proto.h $(TOP_LIB)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wshadow -Werror -Ihost/include -Isim $$(pkg-config --cflags $(USB_PKGS)) \
		-o $@ tests/usb/fx2_emu.c sim/fx2_model.c sim/remote_bitbang.c $(TOP_LIB) $$(pkg-config --libs $(USB_PKGS)) -lstdc++ -lz -lpthread -lm

fx2-emu: $(FX2_EMU)

usb-test: $(FX2_EMU) $(KERNEL_BINS) $(FW_IHX)
	@scripts/usb-test.sh $(BUILD)

# Frames and bytes per second through the emulated USB path (a figure; the FPGA's IFCLK is
# simulated, so the rates measure the emulation, not a board).
USB_BENCH_KERNEL ?= matmul
usb-bench: $(FX2_EMU) $(BUILD)/kernels/$(USB_BENCH_KERNEL) $(FW_IHX)
	@USB_TEST_KERNELS=$(USB_BENCH_KERNEL) USB_TEST_UNPLUG=none scripts/usb-test.sh $(BUILD) | grep -v '^usb-test: [0-9]* passed'

# The top's JTAG register window and the power-gating controls it forwards (docs/usb.md 2.1).
$(USB_DIR)/test_board_jtag: tests/rtl/test_board_jtag.c sim/fx2_model.c sim/fx2_model.h sim/wgtop.h \
		host/src/link.c host/src/crc32.c host/src/log.c $(TOP_LIB)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wshadow -Werror -ffp-contract=off -Isim -Ihost/include -Ihost/src -o $@ \
		tests/rtl/test_board_jtag.c sim/fx2_model.c host/src/link.c host/src/crc32.c host/src/log.c $(TOP_LIB) \
		-lstdc++ -lz -lpthread -lm

top-jtag-test: $(USB_DIR)/test_board_jtag
	$(USB_DIR)/test_board_jtag

# OpenOCD against the Verilated top while a kernel runs over the emulated USB link.
USB_JTAG_KERNEL ?= matmul
usb-jtag-test: $(FX2_EMU) $(BUILD)/kernels/$(USB_JTAG_KERNEL) $(FW_IHX)
	@OPENOCD=$(OPENOCD) scripts/usb-jtag-test.sh $(BUILD) $(USB_JTAG_KERNEL)

# In make test (after board-test, whose gpu runs usb-test reuses): the board top's JTAG
# registers pin by pin, the kernels through libusb and the emulated FX2 but the two longest
# (bfs and histogram: about a minute together; make usb-test runs every kernel), OpenOCD on
# the top.
USB_CI_KERNELS ?= matmul nested reduce saxpy vecadd
usb-ci-test: $(FX2_EMU) $(KERNEL_BINS) $(FW_IHX)
	@USB_TEST_KERNELS="$(USB_CI_KERNELS)" scripts/usb-test.sh $(BUILD)
.PHONY: usb-ci-test
rtl-test:: top-jtag-test usb-ci-test usb-jtag-test

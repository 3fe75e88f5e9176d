# The board process (docs/board.md): the GPU behind the framed link on a Unix socket,
# host/tools/warpgate_board.c; libwarpgate's "board" target starts it. By default the link
# is the RTL link engine: the Verilated board core (rtl/wg_board_core.sv = wg_link + wg_gpu,
# build/board/libwgboard.a) takes the socket's bytes; with --link c the C link
# (host/src/link.c) drives the Verilated GPU top (build/gpu/libwggpu.a).
# Included by the top-level Makefile (-include sim/board.mk); adds to rtl-test::.
#   make board        build/warpgate-board
#   make board-lib    build/board/libwgboard.a: Verilated wg_board_core + sim/wgboard.cpp
#   make board-lint   verilator --lint-only -Wall of wg_board_core (2 SMs; 1 SM without retire)
#   make board-core-test  tests/rtl/test_board_core.c: the core driven from C with host/src/link.c
#                     as the host (HELLO fields, answers, idle skipping exact, damaged bytes)
#   make board-test   every kernel program on --target gpu and --target board (RTL link engine;
#                     the C link on one program): identical cycles and statistics; bytes
#                     corrupted on the wire both ways (scripts/board-test.sh)
# The board core is built with the GPU's parameters (GPU_NUM_SMS, GPU_RETIRE_EN, GPU_TRACE of
# sim/gpu.mk); the board program links both libraries.

BOARD_EXE     := $(BUILD)/warpgate-board
BOARD_DIR     := $(BUILD)/board
BOARD_OBJ     := $(BOARD_DIR)/obj
BOARD_LIB     := $(BOARD_DIR)/libwgboard.a
BOARD_RTL      = $(shell scripts/rtl-deps.py wg_board_core)
BOARD_VFLAGS  := --cc --hierarchical -Wall $(if $(filter 1,$(GPU_TRACE)),--trace-fst) --x-assign fast \
                 --x-initial fast -CFLAGS "-O2 -march=native -I$(CURDIR)/sim $(GPU_DEFS)"

.PHONY: board board-lib board-lint board-test board-core-test

all: $(BOARD_EXE)

board: $(BOARD_EXE)

board-lib: $(BOARD_LIB)

# As sim/gpu.mk: Verilation serial (the hierarchical build's generated make races under -j),
# then the C++ compile with -j 2.
$(BOARD_OBJ)/Vwg_board_core__ALL.a: $(RTL_RT)/stamp $(BOARD_RTL) $(SM_VLT) sim/gpu_hier.vlt sim/board.mk sim/gpu.mk scripts/protectlib-skip.py \
		$(GPU_OBJ)/Vwg_gpu__ALL.a
	@mkdir -p $(BOARD_OBJ)
	@echo "VERILATE wg_board_core ($(GPU_PARAMS))"
	@start=$$(date +%s); exec 9>$(BOARD_DIR)/.build.lock; flock 9; \
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(VERILATOR) $(BOARD_VFLAGS) $(GPU_PARAMS) --top-module wg_board_core \
		--Mdir $(BOARD_OBJ) $(SM_VLT) sim/gpu_hier.vlt $(BOARD_RTL) $(abspath sim/wgboard.cpp) >$(BOARD_OBJ)/build.log 2>&1 \
	&& { $(call hier_reuse,$(BOARD_OBJ),Vwg_board_core_hier.mk); } >>$(BOARD_OBJ)/build.log \
	&& $(MAKE) --no-print-directory -C $(BOARD_OBJ) -f Vwg_board_core_hier.mk -j 2 OPT_FAST=-O2 hier_build \
		>>$(BOARD_OBJ)/build.log 2>&1 \
	&& { $(call hier_skip,$(BOARD_OBJ),Vwg_board_core_hier.mk); } >>$(BOARD_OBJ)/build.log \
	&& $(call rt_copy,$(BOARD_OBJ)) \
		|| { tail -40 $(BOARD_OBJ)/build.log; exit 1; }; \
	echo "wg_board_core built in $$(( $$(date +%s) - start )) s"; touch $@  # Verilator may have found nothing to redo

$(BOARD_OBJ)/wgboard.o: sim/wgboard.cpp sim/wgboard.h sim/wggpu_params.h sim/wggpu.h $(BOARD_OBJ)/Vwg_board_core__ALL.a
	$(MAKE) -s --no-print-directory -C $(BOARD_OBJ) -f Vwg_board_core.mk OPT_FAST=-O2 wgboard.o
	@touch $@  # the generated make may find it up to date: mark it newer than the archive

# One flat archive, as the GPU library (sim/gpu.mk). The board program links this library and
# the GPU library (its C link), and both hold a Verilated SM block of the same name (wg_sm_<x>,
# read from the generated Vwg_board_core_hier.mk), each checked against its own top: here every
# symbol of the block is renamed with its last character changed to B (same length, so the C++
# names stay well formed), which keeps the two apart.
$(BOARD_LIB): $(BOARD_OBJ)/Vwg_board_core__ALL.a $(BOARD_OBJ)/wgboard.o
	rm -rf $@ $(BOARD_OBJ)/blk && mkdir -p $(BOARD_OBJ)/blk
	@blk=$$(sed -n 's|^[[:space:]]*\(Vwg_sm_[^/ ]*/lib[^ ]*\.a\).*|\1|p' $(BOARD_OBJ)/Vwg_board_core_hier.mk | head -1); \
	[ -n "$$blk" ] || { echo "no SM block library named in $(BOARD_OBJ)/Vwg_board_core_hier.mk"; exit 1; }; \
	name=$$(basename $$(dirname $$blk)); name=$${name#V}; last=$${name#$${name%?}}; \
	if [ "$$last" = B ]; then new=$${name%?}C; else new=$${name%?}B; fi; \
	echo "SM block $$blk: symbols $$name -> $$new"; \
	cd $(BOARD_OBJ)/blk && ar x ../Vwg_board_core__ALL.a && rm -f $$(basename $$blk) && ar x ../$$blk && cd $(CURDIR) && \
	nm $(BOARD_OBJ)/blk/*.o | awk -v old=$$name -v new=$$new '$$NF ~ old { n = $$NF; gsub(old, new, n); print $$NF, n }' \
		| sort -u >$(BOARD_OBJ)/rename.map
	for o in $(BOARD_OBJ)/blk/*.o; do objcopy --redefine-syms=$(BOARD_OBJ)/rename.map $$o || exit 1; done
	ar rcs $@ $(BOARD_OBJ)/blk/*.o
	ar rcs $@ $(addprefix $(BOARD_OBJ)/,verilated.o $(if $(filter 1,$(GPU_TRACE)),verilated_fst_c.o) \
		verilated_threads.o wgboard.o)

$(BOARD_EXE): $(BUILD)/obj/host/tools/warpgate_board.o $(LIB) $(BOARD_LIB) $(RTL_LIBS)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(BOARD_LIB) $(LDLIBS)

board-lint:
	$(VERILATOR) --lint-only -Wall $(SM_VLT) $(BOARD_RTL) --top-module wg_board_core -GNUM_SMS=2
	$(VERILATOR) --lint-only -Wall $(SM_VLT) $(BOARD_RTL) --top-module wg_board_core -GNUM_SMS=1 -GRETIRE_EN=0
	@echo "board-lint: clean"

$(BOARD_DIR)/test_board_core: tests/rtl/test_board_core.c $(LIB) $(BOARD_LIB) $(RTL_LIBS)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wshadow -Werror -Ihost/include -Ihost/src -Isim -o $@ $< $(LIB) \
		$(BOARD_LIB) -lcmocka $(LDLIBS)

board-core-test: $(BOARD_DIR)/test_board_core
	$(BOARD_DIR)/test_board_core

rtl-test:: board-core-test

board-test: $(BOARD_EXE) $(KERNEL_BINS)
	@scripts/board-test.sh $(BUILD)

rtl-test:: board-test

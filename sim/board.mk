# The board process (docs/board.md): the Verilated GPU (build/gpu/libwggpu.a) behind the
# framed link on a Unix socket, host/tools/warpgate_board.c; libwarpgate's "board" target
# starts it. Included by the top-level Makefile (-include sim/board.mk); adds to rtl-test::.
#   make board        build/warpgate-board
#   make board-test   every kernel program on --target gpu and --target board: identical
#                     cycles and statistics (scripts/board-test.sh)

BOARD_EXE := $(BUILD)/warpgate-board

.PHONY: board board-test

all: $(BOARD_EXE)

board: $(BOARD_EXE)

$(BOARD_EXE): $(BUILD)/obj/host/tools/warpgate_board.o $(LIB) $(RTL_LIBS)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS)

board-test: $(BOARD_EXE) $(KERNEL_BINS)
	@scripts/board-test.sh $(BUILD)

rtl-test:: board-test

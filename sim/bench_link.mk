# Link protocol codec throughput (host/tools/bench_link.c, docs/protocol.md).
# Included by the top-level Makefile (-include sim/bench_link.mk).
#   make bench-link                     encode, decode and link loopback figures per record shape
#   make bench-link BENCH_LINK_SECS=2   longer runs per figure
# Prints figures; asserts nothing.

BENCH_LINK      := $(BUILD)/bench_link
BENCH_LINK_SECS ?= 0.5
BENCH_LINK_OBJS := $(BUILD)/obj/host/tools/bench_link.o $(BUILD)/obj/host/src/link.o \
                   $(BUILD)/obj/host/src/crc32.o $(BUILD)/obj/host/src/log.o

.PHONY: bench-link

$(BENCH_LINK): $(BENCH_LINK_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ -lpthread

bench-link: $(BENCH_LINK)
	$(BENCH_LINK) -s $(BENCH_LINK_SECS)

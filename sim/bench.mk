# make bench-mem: memory requests per second through the host memory models
# (interconnect + L2 + GDDR5, host/src/memsys.c) on a mixed stream with the
# GTX480 configuration. BENCH_MEM_ARGS passes options, e.g.
# BENCH_MEM_ARGS='--requests 500000 --config configs/gtx480.cfg'.
BENCH_MEM := $(BUILD)/tools/bench_mem
BENCH_MEM_ARGS ?=

.PHONY: bench-mem
$(BENCH_MEM): $(BUILD)/obj/host/tools/bench_mem.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) -lm

bench-mem: $(BENCH_MEM)
	$(BENCH_MEM) $(BENCH_MEM_ARGS)

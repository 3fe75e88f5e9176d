# The multi-SM GPU top (rtl/wg_gpu.sv) as a C library and its test (docs/gpu.md).
# Included by the top-level Makefile (-include sim/gpu.mk); adds to rtl-test::.
#   make gpu-lib        build/gpu/libwggpu.a: Verilated wg_gpu + sim/wggpu.cpp
#   make gpu-test       tests/rtl/test_gpu.c: kernels on GPU_NUM_SMS SMs under the
#                       time-grant protocol, identical under different link behaviour
#   make gpu-lint       verilator --lint-only -Wall of wg_gpu (3 SMs; 1 SM without retire)
# GPU_NUM_SMS: 15, the GTX480 configuration (configs/gtx480.cfg n_sm); a configuration may use fewer.

GPU_NUM_SMS ?= 15
GPU_RETIRE_EN ?= 0
GPU_DIR    := $(BUILD)/gpu
GPU_OBJ    := $(GPU_DIR)/obj
GPU_RTL     = $(shell scripts/rtl-deps.py wg_gpu)
# NUM_SMS through a macro: in the hierarchical build a -G would reach the SM block too.
GPU_PARAMS := +define+WG_GPU_NUM_SMS=$(GPU_NUM_SMS) -GRETIRE_EN=$(GPU_RETIRE_EN)
GPU_DEFS   := -DWGGPU_NUM_SMS=$(GPU_NUM_SMS) -DWGGPU_RETIRE_EN=$(GPU_RETIRE_EN)
# FST tracing of the whole GPU (--option trace_fst=FILE): per-SM trace code is about a third of
# the build, so it is compiled in only with GPU_TRACE=1.
GPU_TRACE ?= 0
# GPU_ASSERT=1: the RTL's assertions compiled in (wg_gpu's event-port and grant checks, the
# SMs' own); slower, for a check by hand (make gpu-test GPU_ASSERT=1).
GPU_ASSERT ?= 0
GPU_VFLAGS := --cc --hierarchical -Wall $(if $(filter 1,$(GPU_TRACE)),--trace-fst) $(if $(filter 1,$(GPU_ASSERT)),--assert) \
              --x-assign fast --x-initial fast \
              -CFLAGS "-O2 -march=native -I$(CURDIR)/sim $(GPU_DEFS)"

# The model's Verilator flags, kept in a file rewritten only when they change: a build with
# another GPU_TRACE or GPU_ASSERT is a new build, not the old library.
GPU_FLAGS_FILE := $(GPU_DIR)/vflags
GPU_FLAGS_NOW  := $(GPU_VFLAGS) $(GPU_PARAMS)
$(shell mkdir -p $(GPU_DIR) && { printf '%s\n' '$(GPU_FLAGS_NOW)' | cmp -s - $(GPU_FLAGS_FILE) || \
	printf '%s\n' '$(GPU_FLAGS_NOW)' >$(GPU_FLAGS_FILE); })

.PHONY: gpu-lib gpu-test gpu-lint

# The SM block's directory name (Vwg_sm_<suffix>) as Verilator writes it into $(1)/$(2), the
# generated *_hier.mk: a shell command substitution.
hier_block = $$(sed -n 's|^[[:space:]]*\(Vwg_sm_[^/ ]*\)/lib[^ ]*\.a.*|\1|p' $(1)/$(2) | head -1)

# After hier_build (here and in sim/board.mk, sim/usb.mk): the SM block's protect-lib wrapper
# evaluates the block only when one of its inputs changed (scripts/protectlib-skip.py; docs/gpu.md
# section 2.2), then the block's library is rebuilt with it. $(1): the Verilator output
# directory, $(2): its *_hier.mk.
hier_skip = blk=$(call hier_block,$(1),$(2)); \
	[ -n "$$blk" ] || { echo "no SM block named in $(1)/$(2)"; exit 1; }; \
	scripts/protectlib-skip.py $(1)/$$blk && $(MAKE) -s --no-print-directory -C $(1)/$$blk -f $$blk.mk OPT_FAST=-O2

# Before hier_build in sim/board.mk and sim/usb.mk: the board core and the board top hold the
# same SM block as the GPU top (the same parameters, options and sources), so the GPU build's
# compiled block is copied in instead of Verilating and compiling it again (docs/gpu.md section
# 2.3). Only when the block Verilator names in $(1)/$(2) has the same name and the same
# arguments as the GPU's, apart from its output directory and the list of input files (the
# top's own files differ; the SM's are the same files, and the GPU block is rebuilt whenever
# one of them changes: the GPU build is a prerequisite of the board and top builds); otherwise
# the block is built as usual. All copied files get one time stamp (of $(1)/<block>.reused),
# newer than the arguments file that the Verilation just wrote, so the generated make finds
# the block up to date.
hier_reuse = blk=$(call hier_block,$(1),$(2)); \
	src=$(GPU_OBJ)/$$blk; args='/^-Mdir /d; /\.s\?v$$/d; /\.vlt$$/d'; \
	if [ -n "$$blk" ] && [ -f $$src/lib$${blk\#V}.a ] && [ -f $(GPU_OBJ)/$${blk}_hierMkArgs.f ] \
		&& cmp -s <(sed "$$args" $(GPU_OBJ)/$${blk}_hierMkArgs.f) <(sed "$$args" $(1)/$${blk}_hierMkArgs.f); then \
		rm -rf $(1)/$$blk && cp -a $$src $(1)/$$blk && touch $(1)/$$blk.reused && \
		find $(1)/$$blk -type f -exec touch -r $(1)/$$blk.reused {} + && \
		echo "SM block $$blk: reused from $(GPU_OBJ)"; \
	else echo "SM block $$blk: built here (the GPU build's differs or is missing)"; fi

gpu-lib: $(GPU_LIB)

# Verilation without --build, then the compile: with --build -j 2, Verilator's generated
# Vwg_gpu_hier.mk runs the SM block's Verilation twice at once (a rule with two targets), and the
# two runs race on the same output files. Verilation here is serial (no jobserver inherited),
# only the C++ compile is parallel.
$(GPU_OBJ)/Vwg_gpu__ALL.a: $(RTL_RT)/stamp $(GPU_RTL) $(SM_VLT) sim/gpu_hier.vlt sim/gpu.mk scripts/protectlib-skip.py \
	$(GPU_FLAGS_FILE)
	@mkdir -p $(GPU_OBJ)
	@echo "VERILATE wg_gpu ($(GPU_PARAMS))"
	@start=$$(date +%s); exec 9>$(GPU_DIR)/.build.lock; flock 9; \
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(VERILATOR) $(GPU_VFLAGS) $(GPU_PARAMS) --top-module wg_gpu \
		--Mdir $(GPU_OBJ) $(SM_VLT) sim/gpu_hier.vlt $(GPU_RTL) $(abspath sim/wggpu.cpp) >$(GPU_OBJ)/build.log 2>&1 \
	&& $(MAKE) --no-print-directory -C $(GPU_OBJ) -f Vwg_gpu_hier.mk -j 2 OPT_FAST=-O2 hier_build >>$(GPU_OBJ)/build.log 2>&1 \
	&& { $(call hier_skip,$(GPU_OBJ),Vwg_gpu_hier.mk); } >>$(GPU_OBJ)/build.log \
	&& $(call rt_copy,$(GPU_OBJ)) \
		|| { tail -40 $(GPU_OBJ)/build.log; exit 1; }; \
	echo "wg_gpu built in $$(( $$(date +%s) - start )) s"; touch $@  # Verilator may have found nothing to redo

$(GPU_OBJ)/wggpu.o: sim/wggpu.cpp sim/wggpu.h sim/wggpu_params.h $(GPU_OBJ)/Vwg_gpu__ALL.a
	$(MAKE) -s --no-print-directory -C $(GPU_OBJ) -f Vwg_gpu.mk OPT_FAST=-O2 wggpu.o
	@touch $@  # the generated make may find it up to date: mark it newer than the archive

# One flat archive: the top's objects, the SM block's (Verilator lists its library as a member
# of the top's archive, which the linker does not search), the runtime and the C wrapper.
# The block's name (wg_sm_<suffix>) is Verilator's choice and changes with the SM's parameter
# list: it is read from the generated Vwg_gpu_hier.mk.
$(GPU_LIB): $(GPU_OBJ)/Vwg_gpu__ALL.a $(GPU_OBJ)/wggpu.o
	rm -rf $@ $(GPU_OBJ)/blk && mkdir -p $(GPU_OBJ)/blk
	cp $(GPU_OBJ)/Vwg_gpu__ALL.a $@
	@blk=$$(sed -n 's|^[[:space:]]*\(Vwg_sm_[^/ ]*/lib[^ ]*\.a\).*|\1|p' $(GPU_OBJ)/Vwg_gpu_hier.mk | head -1); \
	[ -n "$$blk" ] || { echo "no SM block library named in $(GPU_OBJ)/Vwg_gpu_hier.mk"; exit 1; }; \
	echo "SM block $$blk"; ar d $@ $$(basename $$blk) && cd $(GPU_OBJ)/blk && ar x ../$$blk
	ar rcs $@ $(GPU_OBJ)/blk/*.o
	ar rcs $@ $(addprefix $(GPU_OBJ)/,verilated.o $(if $(filter 1,$(GPU_TRACE)),verilated_fst_c.o) verilated_threads.o wggpu.o)

$(GPU_DIR)/test_gpu: tests/rtl/test_gpu.c $(LIB) $(RTL_LIBS)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Ihost/include -Ihost/src -Isim -o $@ $< $(LIB) $(LDLIBS)

gpu-test: $(GPU_DIR)/test_gpu
	$(GPU_DIR)/test_gpu

gpu-lint:
	$(VERILATOR) --lint-only -Wall $(SM_VLT) $(GPU_RTL) --top-module wg_gpu -GNUM_SMS=3
	$(VERILATOR) --lint-only -Wall $(SM_VLT) $(GPU_RTL) --top-module wg_gpu -GNUM_SMS=1 -GRETIRE_EN=0
	@echo "gpu-lint: clean"

rtl-test:: gpu-test

# Host time of one histogram clear sweep of the 15 SMs, idle gating on and off (docs/gpu.md 4.3).
#   make bench-sweep [BENCH_SWEEP_N=5]
BENCH_SWEEP_N ?= 5
.PHONY: bench-sweep
$(GPU_DIR)/bench_sweep: tests/rtl/bench_sweep.c $(LIB) $(RTL_LIBS)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Ihost/include -Ihost/src -Isim -o $@ $< $(LIB) $(LDLIBS)

bench-sweep: $(GPU_DIR)/bench_sweep
	$(GPU_DIR)/bench_sweep $(BENCH_SWEEP_N)

# Whole-GPU simulation speed (GTX480: 15 SMs, host memory models) on BFS and matrix multiply.
#   make bench-gpu [BENCH_GPU_SIZE=small|default]
BENCH_GPU_SIZE ?= small
.PHONY: bench-gpu
bench-gpu: $(BUILD)/kernels/bfs $(BUILD)/kernels/matmul
	@mkdir -p $(GPU_DIR)/bench
	@for k in bfs matmul; do \
		$(BUILD)/kernels/$$k --target gpu --size $(BENCH_GPU_SIZE) --json $(GPU_DIR)/bench/$$k.json >/dev/null \
			|| exit 1; \
		python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); c=t["target_counters"]; \
print("bench-gpu: %-7s %2d SMs %10d GPU cycles %8.1f s host %9.0f GPU cycles/s  IPC %.3f" % (sys.argv[2], \
c["num_sms"], c["cycles"], t["totals"]["host_seconds"], c["sim_cycles_per_second"], c["ipc"]))' \
			$(GPU_DIR)/bench/$$k.json $$k; \
	done

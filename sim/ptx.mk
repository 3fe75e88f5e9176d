# The PTX frontend (docs/ptx.md). Included by the top-level Makefile.
#   make ptx          regenerate tests/ptx/*.ptx and kernels/cuda/*.ptx (the CUDA suite, docs/suite.md)
#                     from their .cu with nvcc (when installed)
#   make ptx-test     the CUDA test kernels on PTX_TEST_TARGETS (func and sim; sim in lockstep)
#   make fuzz-smoke   the PTX and assembler fuzzers, FUZZ_SMOKE_SECONDS (20) each
#   make fuzz         the same for FUZZ_SECONDS (600) each
# The fuzzers are libFuzzer programs built with clang, ASan and UBSan (scripts/deps.sh installs clang).

NVCC ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
NVCC_FLAGS ?= -ptx -arch=compute_75
PTX_CU := $(sort $(wildcard tests/ptx/*.cu kernels/cuda/*.cu))
PTX_TEST_TARGETS ?= func sim
FUZZ_CC ?= clang
FUZZ_SMOKE_SECONDS ?= 20
FUZZ_SECONDS ?= 600
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_SRCS := host/src/ptx.c host/src/ptx_cfg.c host/src/ptx_ra.c host/src/ptx_xlat.c host/src/asm.c host/src/isa.c \
             host/src/image.c host/src/crc32.c host/src/log.c
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
               -ffp-contract=off -Ihost/include -Ihost/src
FUZZ_RUN_OPTS := -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=0

.PHONY: ptx ptx-test fuzz-smoke fuzz fuzz-build

ptx:
	@if [ -z "$(NVCC)" ]; then echo "ptx: nvcc not found; keeping the committed .ptx files"; exit 0; fi; \
	for f in $(PTX_CU); do \
		echo "$(NVCC) $(NVCC_FLAGS) $$f -o $${f%.cu}.ptx"; \
		$(NVCC) $(NVCC_FLAGS) $$f -o $${f%.cu}.ptx || exit 1; \
	done

ptx-test: $(BUILD)/tests/test_ptx_run
	@for t in $(PTX_TEST_TARGETS); do \
		echo "ptx-test: $$t"; \
		WG_TEST_TARGET=$$t $< >$<.$$t.log 2>&1 || { tail -40 $<.$$t.log; exit 1; }; \
		grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $<.$$t.log | sed "s|^|test_ptx_run ($$t): |"; \
	done

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_SRCS) host/src/*.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_SRCS) -lm

fuzz-build: $(FUZZ_DIR)/fuzz_ptx $(FUZZ_DIR)/fuzz_asm

# Seeds: the test PTX and the kernel sources, copied so that the fuzzers' new inputs stay in build/.
$(FUZZ_DIR)/seeds.stamp: $(wildcard tests/ptx/*.ptx kernels/cuda/*.ptx) $(wildcard kernels/*.s)
	@mkdir -p $(FUZZ_DIR)/corpus_ptx $(FUZZ_DIR)/corpus_asm
	cp tests/ptx/*.ptx kernels/cuda/*.ptx $(FUZZ_DIR)/corpus_ptx/
	cp kernels/*.s $(FUZZ_DIR)/corpus_asm/
	@touch $@

define fuzz_run
	@echo "fuzz: $(1) for $(2) s"
	@cd $(FUZZ_DIR) && ./fuzz_$(1) $(FUZZ_RUN_OPTS) -max_total_time=$(2) -artifact_prefix=crash-$(1)- corpus_$(1) \
		>fuzz_$(1).log 2>&1 || { tail -40 fuzz_$(1).log; exit 1; }
	@grep -E '^Done|^#[0-9]+.*DONE' $(FUZZ_DIR)/fuzz_$(1).log | tail -1 | sed 's|^|fuzz $(1): |'
endef

fuzz-smoke: fuzz-build $(FUZZ_DIR)/seeds.stamp
	$(call fuzz_run,ptx,$(FUZZ_SMOKE_SECONDS))
	$(call fuzz_run,asm,$(FUZZ_SMOKE_SECONDS))

fuzz: fuzz-build $(FUZZ_DIR)/seeds.stamp
	$(call fuzz_run,ptx,$(FUZZ_SECONDS))
	$(call fuzz_run,asm,$(FUZZ_SECONDS))

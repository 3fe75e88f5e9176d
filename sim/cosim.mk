# Constrained-random co-simulation (docs/cosim.md). Included by the top-level Makefile.
#   make cosim SEEDS=200 SEED0=1                 func self-check (second golden model, random warp order)
#   make cosim SEEDS=50 COSIM_TARGET=sim         the RTL through the sim target, in lockstep
#   make cosim COSIM_TARGET=sim COSIM_OPTS='l1_mode=fermi sched=gto'   with target options
# Failing seeds are kept in $(BUILD)/cosim-fail for build/wg-cosim --replay.

SEEDS ?= 100
SEED0 ?= 1
COSIM_TARGET ?= func
COSIM_OPTS ?=
COSIM := $(BUILD)/wg-cosim

.PHONY: cosim

$(COSIM): $(BUILD)/obj/host/tools/wg_cosim.o $(LIB) $(RTL_LIBS)
	$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(LIB) $(LDLIBS)

cosim: $(COSIM)
	$(COSIM) --seeds $(SEEDS) --seed0 $(SEED0) --target $(COSIM_TARGET) --keep $(BUILD)/cosim-fail \
		$(foreach o,$(COSIM_OPTS),--option $(o))

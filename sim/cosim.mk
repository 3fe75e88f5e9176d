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

# Power gating on the RTL (docs/power-gating.md): the seven kernel programs on the sim target
# (lockstep with the golden model, plus each program's own result check) and co-simulation
# seeds under every policy: issue control with compaction and no lane gating, lane gating
# alone (normal; and with blackout, no idle-detect delay, no wake-up latency, a BET of 7),
# issue control and compaction with gating (slices of 7 cycles: a state change every few
# instructions), and mix with unit and core gating and a 20-cycle wake-up. make pg-test runs
# them all (about 5 minutes); make pg-smoke (in make test) runs the kernels and 5 seeds
# under one policy that combines them. make pg-test PG_SEEDS=N for more seeds.
PG_SEEDS ?= 20
PG_POLICIES := pg_issue_ctrl=1,pg_compaction=1,pg_slice_cycles=7 pg=normal \
               pg=normal,pg_blackout=1,idle_detect_cycles=0,wakeup_cycles=0,bet_cycles=7 \
               pg=issue,pg_slice_cycles=7 pg=comp pg=mix,pg_slice_cycles=7,pg_blackout=1 \
               pg=mix,pg_unit=1,pg_core=1,wakeup_cycles=20
.PHONY: pg-test pg-smoke pgtrace-test
# The lane-activity trace against the histogram (docs/power-gating.md section 7.4; in make test).
pgtrace-test: $(BUILD)/kernels/vecadd $(BUILD)/kernels/nested $(BUILD)/kernels/reduce
	scripts/pgtrace-check.sh $(BUILD)
pg-smoke: PG_POLICIES := pg=mix,pg_slice_cycles=7,pg_blackout=1,pg_unit=1,pg_core=1,bet_cycles=20,wakeup_cycles=4
pg-smoke: PG_SEEDS := 5
pg-test pg-smoke: $(COSIM) $(KERNEL_BINS)
	@set -e; for p in $(PG_POLICIES); do \
		opts=$$(echo $$p | tr ',' ' ' | sed 's/[^ ]*/--option &/g'); \
		for k in $(KERNEL_BINS); do \
			echo "pg-test: $$(basename $$k) on sim, $$p"; \
			$$k --target sim --size small $$opts >$(BUILD)/pg-test.log 2>&1 || { tail -20 $(BUILD)/pg-test.log; exit 1; }; \
		done; \
		echo "pg-test: cosim $(PG_SEEDS) seeds on sim, $$p"; \
		$(COSIM) --seeds $(PG_SEEDS) --seed0 1 --target sim --keep $(BUILD)/cosim-fail $$opts; \
	done; echo "pg-test: passed"

/* Statistics counters and their JSON form (names follow nvprof metrics where one exists). */
#include "stats.h"

#include <stddef.h>
#include <string.h>

#include "json.h"
#include "warpgate.h"

const char *const wg_memcnt_names[WG_MEMCNT_COUNT] = {
	"gld_requests",
	"gld_transactions",
	"gst_requests",
	"gst_transactions",
	"local_load_requests",
	"local_load_transactions",
	"local_store_requests",
	"local_store_transactions",
	"shared_load_requests",
	"shared_load_transactions",
	"shared_store_requests",
	"shared_store_transactions",
	"shared_atom_transactions",
	"atom_count",
	"atomic_transactions",
	"l1_global_load_hit",
	"l1_global_load_miss",
	"l1_local_load_hit",
	"l1_local_load_miss",
	"l1_local_store_hit",
	"l1_local_store_miss",
	"l1_writebacks",
	"l1_mshr_merges",
	"ldc_requests",
	"mem_requests",
	"mem_read_bytes",
	"mem_write_bytes",
};

int wg_memcnt_index(const char *name)
{
	for (int i = 0; name && i < WG_MEMCNT_COUNT; i++)
		if (!strcmp(wg_memcnt_names[i], name))
			return i;
	return -1;
}

void wg_stats_clear(struct wg_stats *s)
{
	memset(s, 0, sizeof(*s));
}

void wg_stats_add(struct wg_stats *acc, const struct wg_stats *s)
{
	acc->kernels += s->kernels;
	acc->ctas += s->ctas;
	acc->warps += s->warps;
	acc->threads += s->threads;
	acc->warp_insts += s->warp_insts;
	acc->thread_insts += s->thread_insts;
	for (int i = 0; i < WG_CLASS_COUNT; i++) {
		acc->class_warp[i] += s->class_warp[i];
		acc->class_thread[i] += s->class_thread[i];
	}
	acc->branches += s->branches;
	acc->divergent_branches += s->divergent_branches;
	acc->barriers += s->barriers;
	acc->gld_bytes += s->gld_bytes;
	acc->gst_bytes += s->gst_bytes;
	acc->shld_bytes += s->shld_bytes;
	acc->shst_bytes += s->shst_bytes;
	acc->local_ld_bytes += s->local_ld_bytes;
	acc->local_st_bytes += s->local_st_bytes;
	acc->atom_ops += s->atom_ops;
	for (int i = 0; i < WG_MEMCNT_COUNT; i++)
		acc->mem[i] += s->mem[i];
	acc->cycles += s->cycles;
	acc->host_seconds += s->host_seconds;
}

/* Replays: transactions beyond one per request (0 when a target reports fewer). */
static uint64_t replays(uint64_t tx, uint64_t req)
{
	return tx > req ? tx - req : 0;
}

/* Derived integer counters of the "memory" object. */
struct derived {
	const char *name;
	uint64_t (*fn)(const uint64_t *m);
};

static uint64_t gld_replays(const uint64_t *m)
{
	return replays(m[WG_MC_GLD_TX], m[WG_MC_GLD_REQ]);
}

static uint64_t gst_replays(const uint64_t *m)
{
	return replays(m[WG_MC_GST_TX], m[WG_MC_GST_REQ]);
}

static uint64_t local_replays(const uint64_t *m)
{
	return replays(m[WG_MC_LOCAL_LD_TX] + m[WG_MC_LOCAL_ST_TX], m[WG_MC_LOCAL_LD_REQ] + m[WG_MC_LOCAL_ST_REQ]);
}

static uint64_t shared_replays(const uint64_t *m)
{
	return replays(m[WG_MC_SHARED_LD_TX] + m[WG_MC_SHARED_ST_TX], m[WG_MC_SHARED_LD_REQ] + m[WG_MC_SHARED_ST_REQ]);
}

static const struct derived derived[] = {
	{ "gld_replays", gld_replays },
	{ "gst_replays", gst_replays },
	{ "local_replays", local_replays },
	{ "shared_replays", shared_replays },
	{ "shared_bank_conflicts", shared_replays }, /* the same count under the nvprof-style name */
};

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static void memory_json(const uint64_t *m, struct wg_json *j)
{
	wg_json_begin_object(j, "memory");
	for (int i = 0; i < WG_MEMCNT_COUNT; i++)
		wg_json_u64(j, wg_memcnt_names[i], m[i]);
	for (size_t i = 0; i < sizeof(derived) / sizeof(derived[0]); i++)
		wg_json_u64(j, derived[i].name, derived[i].fn(m));
	/* fractions 0..1 (0 when nothing was looked up), as warp_execution_efficiency */
	wg_json_double(j, "l1_global_hit_rate",
	               ratio(m[WG_MC_L1_GLD_HIT], m[WG_MC_L1_GLD_HIT] + m[WG_MC_L1_GLD_MISS]));
	wg_json_double(j, "l1_local_hit_rate",
	               ratio(m[WG_MC_L1_LLD_HIT] + m[WG_MC_L1_LST_HIT], m[WG_MC_L1_LLD_HIT] + m[WG_MC_L1_LLD_MISS] +
	                                                                 m[WG_MC_L1_LST_HIT] + m[WG_MC_L1_LST_MISS]));
	wg_json_end_object(j);
}

void wg_stats_to_json(const struct wg_stats *s, struct wg_json *j)
{
	wg_json_u64(j, "kernels", s->kernels);
	wg_json_u64(j, "ctas", s->ctas);
	wg_json_u64(j, "warps", s->warps);
	wg_json_u64(j, "threads", s->threads);
	wg_json_u64(j, "inst_executed", s->warp_insts);
	wg_json_u64(j, "thread_inst_executed", s->thread_insts);
	wg_json_double(j, "warp_execution_efficiency",
	               s->warp_insts ? (double)s->thread_insts / (32.0 * (double)s->warp_insts) : 0.0);
	wg_json_begin_object(j, "inst_by_class");
	for (int i = 0; i < WG_CLASS_COUNT; i++)
		wg_json_u64(j, wg_class_name(i), s->class_warp[i]);
	wg_json_end_object(j);
	wg_json_begin_object(j, "thread_inst_by_class");
	for (int i = 0; i < WG_CLASS_COUNT; i++)
		wg_json_u64(j, wg_class_name(i), s->class_thread[i]);
	wg_json_end_object(j);
	wg_json_u64(j, "branch", s->branches);
	wg_json_u64(j, "divergent_branch", s->divergent_branches);
	wg_json_u64(j, "barrier", s->barriers);
	wg_json_u64(j, "gld_bytes", s->gld_bytes);
	wg_json_u64(j, "gst_bytes", s->gst_bytes);
	wg_json_u64(j, "shared_load_bytes", s->shld_bytes);
	wg_json_u64(j, "shared_store_bytes", s->shst_bytes);
	wg_json_u64(j, "local_load_bytes", s->local_ld_bytes);
	wg_json_u64(j, "local_store_bytes", s->local_st_bytes);
	wg_json_u64(j, "atom_ops", s->atom_ops);
	memory_json(s->mem, j);
	wg_json_u64(j, "cycles", s->cycles);
	wg_json_double(j, "host_seconds", s->host_seconds);
	wg_json_double(j, "warp_insts_per_second",
	               s->host_seconds > 0 ? (double)s->warp_insts / s->host_seconds : 0.0);
}

/* Top-level integer counters of the JSON form. */
static const struct {
	const char *name;
	size_t off;
} fields[] = {
	{ "kernels", offsetof(struct wg_stats, kernels) },
	{ "ctas", offsetof(struct wg_stats, ctas) },
	{ "warps", offsetof(struct wg_stats, warps) },
	{ "threads", offsetof(struct wg_stats, threads) },
	{ "inst_executed", offsetof(struct wg_stats, warp_insts) },
	{ "thread_inst_executed", offsetof(struct wg_stats, thread_insts) },
	{ "branch", offsetof(struct wg_stats, branches) },
	{ "divergent_branch", offsetof(struct wg_stats, divergent_branches) },
	{ "barrier", offsetof(struct wg_stats, barriers) },
	{ "gld_bytes", offsetof(struct wg_stats, gld_bytes) },
	{ "gst_bytes", offsetof(struct wg_stats, gst_bytes) },
	{ "shared_load_bytes", offsetof(struct wg_stats, shld_bytes) },
	{ "shared_store_bytes", offsetof(struct wg_stats, shst_bytes) },
	{ "local_load_bytes", offsetof(struct wg_stats, local_ld_bytes) },
	{ "local_store_bytes", offsetof(struct wg_stats, local_st_bytes) },
	{ "atom_ops", offsetof(struct wg_stats, atom_ops) },
	{ "cycles", offsetof(struct wg_stats, cycles) },
};

int wg_stats_value(const struct wg_stats *s, const char *name, uint64_t *value)
{
	int i;

	if (!s || !name || !value)
		return WG_EINVAL;
	i = wg_memcnt_index(name);
	if (i >= 0) {
		*value = s->mem[i];
		return 0;
	}
	for (size_t k = 0; k < sizeof(derived) / sizeof(derived[0]); k++) {
		if (!strcmp(derived[k].name, name)) {
			*value = derived[k].fn(s->mem);
			return 0;
		}
	}
	for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
		if (!strcmp(fields[k].name, name)) {
			memcpy(value, (const char *)s + fields[k].off, sizeof(*value));
			return 0;
		}
	}
	return WG_ENOENT;
}

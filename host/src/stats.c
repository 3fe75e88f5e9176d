/* Statistics counters and their JSON form (names follow nvprof metrics where one exists). */
#include "stats.h"

#include <string.h>

#include "json.h"

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
	acc->atom_count += s->atom_count;
	acc->cycles += s->cycles;
	acc->host_seconds += s->host_seconds;
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
	wg_json_u64(j, "atom_count", s->atom_count);
	wg_json_u64(j, "cycles", s->cycles);
	wg_json_double(j, "host_seconds", s->host_seconds);
	wg_json_double(j, "warp_insts_per_second",
	               s->host_seconds > 0 ? (double)s->warp_insts / s->host_seconds : 0.0);
}

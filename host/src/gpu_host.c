/*
 * The host side of the link to the GPU top (gpu_host.h, docs/gpu-target.md).
 *
 * One launch is a loop of grants. The GPU stands at target cycle T having
 * reported every event before T. The host
 *   1. models those events in (cycle, SM, arrival) order: a memory request is
 *      applied to global memory at once and enters the memory timing model,
 *      a CTA completion frees a place for the dispatcher;
 *   2. moves the memory model on as far as it is already determined, which
 *      yields responses stamped with their arrival cycle;
 *   3. pushes every timed command (launch, response) due before the next
 *      grant G = T + step, then GRANT G, and collects events until REACHED.
 * step never exceeds the lookahead: the shortest time from an event to a
 * command it can cause (docs/gpu.md section 3), so a command is never late
 * and nothing depends on how fast the transport is.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "dispatch.h"
#include "energy.h"
#include "gpu_host.h"
#include "log.h"
#include "memserve.h"
#include "memsys.h"
#include "warpgate.h"

/* Kernel registers (docs/sm.md section 2.1). */
#define CFG_L1_CTRL 16
#define L1_FERMI 1u
#define L1_SPLIT48 2u
#define L1_FLUSH 4u
/* The SM registers the flush write before its L1 raises busy: cycles to wait before trusting busy. */
#define FLUSH_SETTLE 4
#define DEFAULT_WATCHDOG 200000
/* Link cycles run between polls for events. */
#define LINK_BURST 64

/* Counter words of the snapshot (docs/gpu.md section 4.2). */
#define CW_CYCLES 0
#define CW_ACTIVE 2
#define CW_WINST 4
#define CW_TINST 6
#define CW_CLASS 8
#define CW_STALL 20
#define CW_MEM 25
/* Page 1 (CNT_READ addr 1): wg_sm_pkg::EC_* */
#define EC_BRANCH 0
#define EC_DIV_BRANCH 1
#define EC_LOCAL_LD_BYTES 2
#define EC_LOCAL_ST_BYTES 3
#define EC_CLASS_THREAD 4
/* Power-gating pages (docs/gpu.md section 4.3) and the SM's counter addresses (docs/power-gating.md 4.1). */
#define CFG_PG_CTRL 21
#define PG_CTRL_REG (CFG_PG_CTRL - WG_PG_REG_FIRST) /* its index in wg_pg_regs' array */
#define PG_CLOSE 0x100u
#define PG_CLEAR 0x200u
#define PAGE_PG 0x1000u
#define PAGE_HIST 0x2000u
#define PG_PAGE_VALS 26
#define HIST_PAGE_BINS 52
#define HIST_BATCH 4 /* histogram pages read at once (208 bins) */
#define PG_UNIT_BASE 0x800u
#define PG_SM_BASE 0xC00u
#define PG_SM_VALS 9 /* 0xC00..0xC08: cycles, wake stall, core active/sleep/events/wake stall, state, -, skipped */

/* ------------------------------------------------------------------------ */
/* Options                                                                   */

void wg_gpu_host_opts_default(struct wg_gpu_host_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->watchdog = DEFAULT_WATCHDOG;
	o->mem_latency = 220;
	o->link_seed = 1;
}

static int parse_u64(const char *v, uint64_t *out)
{
	char *end;

	if (!v || !*v)
		return WG_EINVAL;
	*out = strtoull(v, &end, 0);
	return *end ? WG_EINVAL : 0;
}

int wg_gpu_host_option(struct wg_gpu_host_opts *o, const char *key, const char *value, struct wg_err *err)
{
	uint64_t v;

	if (!strcmp(key, "sched")) {
		if (value && !strcmp(value, "lrr"))
			o->sched = 0;
		else if (value && !strcmp(value, "gto"))
			o->sched = 1;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "l1_mode")) {
		if (value && !strcmp(value, "kepler"))
			o->l1_ctrl &= ~L1_FERMI;
		else if (value && !strcmp(value, "fermi"))
			o->l1_ctrl |= L1_FERMI;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "l1_split")) {
		if (value && !strcmp(value, "16"))
			o->l1_ctrl &= ~L1_SPLIT48;
		else if (value && !strcmp(value, "48"))
			o->l1_ctrl |= L1_SPLIT48;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "grant_window")) {
		if (parse_u64(value, &v) || v > 0xFFFFFFFFu)
			goto bad;
		o->grant_window = (uint32_t)v;
		return 0;
	}
	if (!strcmp(key, "link_idle")) {
		unsigned a, b;
		char tail;

		if (!value || sscanf(value, "%u,%u%c", &a, &b, &tail) != 2 || a > 900 || b > 900)
			goto bad;
		o->cmd_idle = a;
		o->ev_idle = b;
		return 0;
	}
	if (!strcmp(key, "link_seed")) {
		if (parse_u64(value, &v))
			goto bad;
		o->link_seed = v;
		return 0;
	}
	if (!strcmp(key, "watchdog")) {
		if (parse_u64(value, &v) || !v)
			goto bad;
		o->watchdog = v;
		return 0;
	}
	if (!strcmp(key, "mem_latency")) {
		if (parse_u64(value, &v) || !v || v > 1000000)
			goto bad;
		o->mem_latency = (uint32_t)v;
		o->mem_fixed = 1;
		return 0;
	}
	snprintf(err->msg, sizeof(err->msg),
	         "unknown option (gpu takes trace_fst, sched, l1_mode, l1_split, grant_window, link_idle, link_seed, "
	         "watchdog, mem_latency, and the configuration keys of docs/config.md)");
	return WG_ENOTSUP;
bad:
	snprintf(err->msg, sizeof(err->msg), "bad value '%s' for option %s", value ? value : "(null)", key);
	return WG_EINVAL;
}

/* ------------------------------------------------------------------------ */
/* Totals                                                                    */

void wg_gpu_host_totals_free(struct wg_gpu_host_totals *t)
{
	free(t->sm_active);
	free(t->sm_ctas);
	free(t->sm_warp_insts);
	free(t->sm_busy_cycles);
	free(t->sm_gateable_kernels);
	free(t->pg_sm);
	free(t->pg_total);
	memset(t, 0, sizeof(*t));
}

static int totals_size(struct wg_gpu_host_totals *t, uint32_t nsms)
{
	if (t->nsms == nsms)
		return 0;
	wg_gpu_host_totals_free(t);
	t->sm_active = calloc(nsms, sizeof(uint64_t));
	t->sm_ctas = calloc(nsms, sizeof(uint64_t));
	t->sm_warp_insts = calloc(nsms, sizeof(uint64_t));
	t->sm_busy_cycles = calloc(nsms, sizeof(uint64_t));
	t->sm_gateable_kernels = calloc(nsms, sizeof(uint64_t));
	t->pg_sm = calloc(nsms, sizeof(*t->pg_sm));
	t->pg_total = calloc(1, sizeof(*t->pg_total));
	if (!t->sm_active || !t->sm_ctas || !t->sm_warp_insts || !t->sm_busy_cycles || !t->sm_gateable_kernels ||
	    !t->pg_sm || !t->pg_total) {
		wg_gpu_host_totals_free(t);
		return WG_ENOMEM;
	}
	t->nsms = nsms;
	return 0;
}

static void mem_totals(struct wg_gpu_host_totals *t, const struct wg_memsys_stats *m)
{
	t->mem.l2_read_transactions += m->l2_read_transactions;
	t->mem.l2_write_transactions += m->l2_write_transactions;
	t->mem.l2_atomic_transactions += m->l2_atomic_transactions;
	t->mem.l2_hits += m->l2_hits;
	t->mem.l2_misses += m->l2_misses;
	t->mem.dram_reads += m->dram_reads;
	t->mem.dram_writes += m->dram_writes;
	t->mem.dram_read_bytes += m->dram_read_bytes;
	t->mem.dram_write_bytes += m->dram_write_bytes;
	t->mem.dram_row_hits += m->dram_row_hits;
	t->mem.latency_sum += m->latency_sum;
	t->mem.completed += m->completed;
	t->mem.icnt_stall_cycles += m->icnt_stall_cycles;
	t->mem_models = 1;
}

static void disp_totals(struct wg_gpu_host_totals *t, const struct wg_dispatch_stats *d)
{
	for (uint32_t s = 0; s < t->nsms && s < WG_DISPATCH_MAX_SMS; s++) {
		t->sm_busy_cycles[s] += d->active_cycles[s];
		if (d->gateable >> s & 1)
			t->sm_gateable_kernels[s]++;
	}
	snprintf(t->policy, sizeof(t->policy), "%s", wg_dispatch_policy_name(d->policy));
	t->decision = d->decision;
}

static void json_u64_array(struct wg_json *j, const char *name, const uint64_t *v, uint32_t n)
{
	wg_json_begin_array(j, name);
	for (uint32_t i = 0; i < n; i++)
		wg_json_u64(j, NULL, v[i]);
	wg_json_end_array(j);
}

void wg_gpu_host_totals_json(const struct wg_gpu_host_totals *t, const struct wg_gpu_host_opts *o,
                             struct wg_json *j)
{
	wg_json_u64(j, "cycles", t->cycles);
	wg_json_double(j, "ipc", t->cycles ? (double)t->warp_insts / (double)t->cycles : 0.0);
	wg_json_u64(j, "num_sms", t->nsms);
	wg_json_u64(j, "mem_requests", t->mem_reqs);
	wg_json_str(j, "mem_model", o->mem_fixed ? "fixed" : "models");
	if (o->mem_fixed)
		wg_json_u64(j, "mem_latency", o->mem_latency);
	wg_json_u64(j, "grants", t->grants);
	wg_json_u64(j, "link_cycles", t->link_cycles);
	wg_json_double(j, "sim_cycles_per_second", t->host_seconds > 0 ? (double)t->cycles / t->host_seconds : 0.0);
	json_u64_array(j, "sm_active_cycles", t->sm_active, t->nsms);
	json_u64_array(j, "sm_resident_cycles", t->sm_busy_cycles, t->nsms);
	json_u64_array(j, "sm_gateable_kernels", t->sm_gateable_kernels, t->nsms);
	wg_json_str(j, "cta_policy", t->policy);
	if (t->decision.reason != WG_DECIDE_NONE) {
		wg_json_begin_object(j, "cta_decision");
		wg_json_u64(j, "at", t->decision.at);
		wg_json_u64(j, "sms", t->decision.sms);
		wg_json_double(j, "stall_rate", t->decision.stall_rate);
		wg_json_double(j, "alu_util", t->decision.alu_util);
		wg_json_double(j, "metric", t->decision.metric);
		wg_json_double(j, "predicted_slowdown", t->decision.predicted_slowdown);
		wg_json_end_object(j);
	}
	if (t->mem_models) {
		const struct wg_memsys_stats *m = &t->mem;

		wg_json_u64(j, "l2_read_transactions", m->l2_read_transactions);
		wg_json_u64(j, "l2_write_transactions", m->l2_write_transactions);
		wg_json_u64(j, "l2_atomic_transactions", m->l2_atomic_transactions);
		wg_json_u64(j, "l2_hits", m->l2_hits);
		wg_json_u64(j, "l2_misses", m->l2_misses);
		wg_json_double(j, "l2_hit_rate", m->l2_hits + m->l2_misses ?
		               (double)m->l2_hits / (double)(m->l2_hits + m->l2_misses) : 0.0);
		wg_json_u64(j, "dram_reads", m->dram_reads);
		wg_json_u64(j, "dram_writes", m->dram_writes);
		wg_json_u64(j, "dram_read_bytes", m->dram_read_bytes);
		wg_json_u64(j, "dram_write_bytes", m->dram_write_bytes);
		wg_json_u64(j, "dram_row_hits", m->dram_row_hits);
		wg_json_double(j, "avg_mem_latency", m->completed ? (double)m->latency_sum / (double)m->completed : 0.0);
		wg_json_u64(j, "icnt_stall_cycles", m->icnt_stall_cycles);
	}
	json_u64_array(j, "sm_ctas", t->sm_ctas, t->nsms);
	json_u64_array(j, "sm_warp_insts", t->sm_warp_insts, t->nsms);
	wg_json_u64(j, "pg_readout_pages", t->pg_pages);
	wg_json_double(j, "pg_readout_seconds", t->pg_seconds);
	if (t->launches && t->pg_total && t->pg_total->lanes) {
		if (!t->energy_ok || wg_power_to_json_sms(t->pg_total, t->pg_sm, t->nsms, &t->energy, j))
			wg_warn("gpu: no power figures: %s", t->energy_ok ? "the energy model has no break-even time for "
			        "these parameters" : t->energy_why);
	}
}

/* ------------------------------------------------------------------------ */
/* One launch                                                                */

/* A request waiting to enter the memory system (its SM's port was full). */
struct mreq {
	uint64_t stamp;
	struct wg_mem_req r;
};

/* A timed command waiting for its grant window. */
struct pcmd {
	uint64_t at;
	uint32_t seq;   /* creation order: ties after (at, sm, op) */
	uint8_t sm, op; /* WGGPU_LAUNCH or WGGPU_MRSP */
	uint32_t tag, linear;
};

struct run {
	const struct wg_gpu_host_env *E;
	const struct wg_launch *l;
	const struct wg_kernel *k;
	struct wg_err *err;
	uint32_t nsms, ntags;
	uint64_t total, next, done;
	uint64_t T;                 /* the GPU stands here: every event before T is known */
	uint64_t lookahead;
	uint64_t last_done, last_event;
	uint8_t *rdata;             /* [sm][tag] response blocks */
	uint8_t *tag_busy;          /* [sm][tag] request outstanding */
	uint32_t *resident;         /* CTAs resident or launched, per SM */
	uint64_t *sm_ctas;          /* CTAs dispatched, per SM */
	struct wg_dispatch *disp;
	struct wggpu_ev *deferred;  /* completions held for the congestion policy's sample */
	size_t ndef, capdef;
	struct pcmd *pend;
	size_t npend, cappend;
	uint32_t seq;
	struct wggpu_ev *evs;
	size_t nev, capev;
	size_t *order;
	/* the memory timing: the models (memsys) or a fixed latency */
	struct wg_memsys *mem;
	struct mreq *backlog;       /* requests the memory system has not taken yet, in stamp order */
	size_t nback, capback;
	uint64_t mem_upto;          /* the memory system has been advanced to here */
	uint64_t grants;
	uint64_t busy_mask;
	uint64_t mem_reqs;
};

static int push_cmd(struct run *R, const struct wggpu_cmd *c)
{
	int rc = R->E->ops->push(R->E->ctx, c);

	if (rc)
		snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': %s: command %u not accepted: %s", R->k->name,
		         R->E->ops->name, c->op, wg_strerror(rc));
	return rc;
}

static int cmd_simple(struct run *R, uint8_t op, uint8_t all, uint64_t at, uint32_t addr, const void *data, size_t n)
{
	struct wggpu_cmd c;

	memset(&c, 0, sizeof(c));
	c.op = op;
	c.all = all;
	c.at = at;
	c.addr = addr;
	if (data)
		memcpy(c.data, data, n);
	return push_cmd(R, &c);
}

static int add_pend(struct run *R, uint64_t at, uint8_t sm, uint8_t op, uint32_t tag, uint32_t linear)
{
	struct pcmd *p;

	if (R->npend == R->cappend) {
		size_t cap = R->cappend ? 2 * R->cappend : 1024;
		struct pcmd *n = realloc(R->pend, cap * sizeof(*n));

		if (!n)
			return WG_ENOMEM;
		R->pend = n;
		R->cappend = cap;
	}
	p = &R->pend[R->npend++];
	p->at = at;
	p->seq = R->seq++;
	p->sm = sm;
	p->op = op;
	p->tag = tag;
	p->linear = linear;
	return 0;
}

static int cmp_pend(const void *a, const void *b)
{
	const struct pcmd *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	if (x->sm != y->sm)
		return x->sm < y->sm ? -1 : 1;
	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static double wall_seconds(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + 1e-6 * (double)tv.tv_usec;
}

static const struct wggpu_ev *g_sort_evs;

static int cmp_ev(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct wggpu_ev *x = &g_sort_evs[i], *y = &g_sort_evs[j];

	if (x->cycle != y->cycle)
		return x->cycle < y->cycle ? -1 : 1;
	if (x->sm != y->sm)
		return x->sm < y->sm ? -1 : 1;
	return i < j ? -1 : i > j; /* arrival order within an SM */
}

static void cta_xyz(const struct run *R, uint64_t cta, uint32_t *x, uint32_t *y, uint32_t *z)
{
	const wg_dim3 g = R->l->grid;

	*x = (uint32_t)(cta % g.x);
	*y = (uint32_t)(cta / g.x % g.y);
	*z = (uint32_t)(cta / g.x / g.y);
}

static size_t where(const struct run *R, char *p, size_t len, uint32_t sm, uint32_t slot, long cta, uint32_t pc)
{
	uint32_t x, y, z;

	if (cta < 0)
		return (size_t)snprintf(p, len, "kernel '%s': SM %u warp slot %u pc %u", R->k->name, sm, slot, pc);
	cta_xyz(R, (uint64_t)cta, &x, &y, &z);
	return (size_t)snprintf(p, len, "kernel '%s': SM %u CTA (%u,%u,%u) warp slot %u pc %u", R->k->name, sm, x, y,
	                        z, slot, pc);
}

static int sm_fault(struct run *R, const struct wggpu_ev *e)
{
	static const char *const what[] = {
		"fault", "illegal instruction", "misaligned address", "shared access outside the window",
		"local access outside the window", "param access outside the window", "SIMT reconvergence stack overflow",
		"pc outside the instruction memory", "barrier deadlock",
	};
	const char *w = e->code < sizeof(what) / sizeof(what[0]) ? what[e->code] : "unknown fault";
	size_t n = where(R, R->err->msg, sizeof(R->err->msg), e->sm, e->fwarp, e->linear, e->fpc);
	char extra[64] = "";

	if (e->code >= 2 && e->code <= 5)
		snprintf(extra, sizeof(extra), " lane %u at 0x%08x", e->flane, e->faddr);
	if (n < sizeof(R->err->msg))
		snprintf(R->err->msg + n, sizeof(R->err->msg) - n, ": %s%s (SM fault code %u, cycle %" PRIu64 ")", w,
		         extra, e->code, e->cycle);
	switch (e->code) {
	case 2: case 3: case 4: case 5: return WG_EFAULT;
	case 8: return WG_EDEADLOCK;
	default: return WG_EILLEGAL;
	}
}

static int mem_error(struct run *R, const struct wggpu_ev *e, const char *why)
{
	static const char *const cmds[] = { "load", "store", "atomic", "?" };
	size_t n;

	if (e->wb) {
		snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': SM %u: L1 write-back of %u bytes at 0x%08x %s "
		         "(cycle %" PRIu64 ")", R->k->name, e->sm, 1u << e->size, e->addr, why, e->cycle);
		return WG_EFAULT;
	}
	n = where(R, R->err->msg, sizeof(R->err->msg), e->sm, e->warp, -1, e->pc);
	if (n < sizeof(R->err->msg))
		snprintf(R->err->msg + n, sizeof(R->err->msg) - n, " lane %u: %s %s of %u bytes at 0x%08x %s (cycle %"
		         PRIu64 ")", e->lane, e->local ? "local" : "global", cmds[e->cmd & 3], 1u << e->size, e->addr,
		         why, e->cycle);
	return WG_EFAULT;
}

/* Interconnect stall cycles of SM sm so far (0 with the fixed-latency memory). */
static uint64_t mem_icnt_stall(const struct run *R, uint32_t sm)
{
	return R->mem ? wg_memsys_sm_stall_cycles(R->mem, sm) : 0;
}

static int mem_backlog(struct run *R, uint64_t stamp, const struct wg_mem_req *r)
{
	if (R->nback == R->capback) {
		size_t cap = R->capback ? 2 * R->capback : 256;
		struct mreq *n = realloc(R->backlog, cap * sizeof(*n));

		if (!n)
			return WG_ENOMEM;
		R->backlog = n;
		R->capback = cap;
	}
	R->backlog[R->nback].stamp = stamp;
	R->backlog[R->nback].r = *r;
	R->nback++;
	return 0;
}

/*
 * Move the memory system on to cycle upto: requests enter in stamp order
 * (a request whose SM port is full waits, and later requests of that SM
 * wait behind it), completions become responses stamped with their cycle.
 */
static int mem_advance(struct run *R, uint64_t upto)
{
	struct wg_mem_done d;
	size_t keep;
	int rc = 0;

	if (!R->mem)
		return 0;
	while (R->nback) {
		uint64_t t = R->backlog[0].stamp, now = wg_memsys_now(R->mem);
		uint64_t blocked = 0; /* SMs with a request left waiting at t (at most 64, docs/gpu.md) */

		if (t < now)
			t = now;
		if (t > upto)
			break;
		rc = wg_memsys_advance(R->mem, t);
		keep = 0;
		for (size_t i = 0; i < R->nback && !rc; i++) {
			struct mreq *q = &R->backlog[i];
			uint64_t bit = 1ull << (q->r.sm & 63);

			if (q->stamp <= t && !(blocked & bit) && wg_memsys_can_accept(R->mem, q->r.sm))
				rc = wg_memsys_push(R->mem, t, &q->r);
			else {
				if (q->stamp <= t)
					blocked |= bit;
				R->backlog[keep++] = *q;
			}
		}
		R->nback = keep;
		if (rc)
			break;
		if (R->nback && R->backlog[0].stamp <= t) {
			/* a port is full: try again when the memory system can next change */
			uint64_t nx = wg_memsys_next_event(R->mem);

			if (nx == UINT64_MAX || nx <= t)
				nx = t + 1;
			if (nx > upto)
				break;
			rc = wg_memsys_advance(R->mem, nx);
			for (size_t i = 0; i < R->nback && R->backlog[i].stamp < nx; i++)
				R->backlog[i].stamp = nx;
		}
		if (rc)
			break;
	}
	if (!rc && upto > wg_memsys_now(R->mem))
		rc = wg_memsys_advance(R->mem, upto);
	while (!rc && wg_memsys_pop(R->mem, &d) == 1)
		rc = add_pend(R, d.cycle, (uint8_t)d.sm, WGGPU_MRSP, (uint32_t)(d.id & 0xFFFF), 0);
	if (rc && !R->err->msg[0])
		snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': memory system: %s", R->k->name,
		         wg_strerror(rc));
	R->mem_upto = upto;
	return rc;
}

/* The request's place in the memory system: bytes, the 32 B sectors touched, partly written sectors. */
static void mem_req_of(const struct wggpu_ev *e, struct wg_mem_req *r)
{
	uint32_t off = e->addr & (WGGPU_MEM_BYTES - 1);

	memset(r, 0, sizeof(*r));
	r->id = (uint64_t)e->sm << 16 | e->tag;
	r->sm = e->sm;
	r->addr = e->addr;
	r->bytes = e->cmd == 2 ? 4 : 1u << e->size;
	r->cmd = e->cmd == 1 ? WG_MEM_WRITE : e->cmd == 2 ? WG_MEM_ATOMIC : WG_MEM_READ;
	r->local = e->local;
	if (e->cmd == 1) {
		for (uint32_t sct = 0; sct < WGGPU_MEM_BYTES / 32; sct++) {
			uint32_t n = 0;

			for (uint32_t b = 0; b < 32; b++)
				n += e->wmask[sct * 32 + b] != 0;
			if (n)
				r->sectors |= (uint8_t)(1u << sct);
			if (n && n < 32)
				r->partial |= (uint8_t)(1u << sct);
		}
		if (!r->sectors) /* a write without enabled bytes still travels */
			r->sectors = (uint8_t)(1u << (off / 32));
	}
}

/* A memory request: applied to global memory now, answered after the memory model's latency. */
static int mem_request(struct run *R, const struct wggpu_ev *e)
{
	struct wg_ls_req q;
	const char *why;
	size_t slot = (size_t)e->sm * R->ntags + e->tag;

	if (e->tag >= R->ntags || R->tag_busy[slot]) {
		char buf[64];

		snprintf(buf, sizeof(buf), "reuses tag %u while it is outstanding", e->tag);
		return mem_error(R, e, buf);
	}
	memset(&q, 0, sizeof(q));
	q.cycle = e->cycle;
	q.slot = e->warp;
	q.pc = e->pc;
	q.lane = e->lane;
	q.cmd = e->cmd;
	q.size = e->size;
	q.atom_op = e->atom_op;
	q.local = e->local;
	q.wb = e->wb;
	q.addr = e->addr;
	q.atom_b = e->atom_b;
	q.atom_c = e->atom_c;
	memcpy(q.wmask, e->wmask, WG_LS_MEM_BYTES);
	memcpy(q.wdata, e->wdata, WG_LS_MEM_BYTES);
	if (wg_memserve(R->E->gmem, &q, R->rdata + slot * WGGPU_MEM_BYTES, &why))
		return mem_error(R, e, why);
	R->tag_busy[slot] = 1;
	R->mem_reqs++;
	if (!R->mem)
		return add_pend(R, e->cycle + R->E->opts->mem_latency, e->sm, WGGPU_MRSP, e->tag, 0);
	{
		struct wg_mem_req r;

		mem_req_of(e, &r);
		/* the request reaches the interconnect sm_mem_latency after the SM's port */
		return mem_backlog(R, e->cycle + R->E->cfg->sm_mem_latency, &r);
	}
}

/* Launch CTA cta on SM sm at cycle at. */
static int launch_at(struct run *R, uint32_t sm, uint64_t cta, uint64_t at)
{
	int rc = add_pend(R, at, (uint8_t)sm, WGGPU_LAUNCH, 0, (uint32_t)cta);

	if (rc)
		return rc;
	R->next++;
	R->resident[sm]++;
	R->sm_ctas[sm]++;
	return 0;
}

/* Everything the dispatcher issues at cycle now, launched dispatch_latency later (at now at the start). */
static int dispatch(struct run *R, uint64_t now, uint64_t at)
{
	uint64_t cta;
	uint32_t sm;
	int got, rc = 0;

	while (!rc && (got = wg_dispatch_next(R->disp, now, &cta, &sm)) == 1) {
		if (sm >= R->nsms) {
			snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': the dispatcher chose SM %u of %u",
			         R->k->name, sm, R->nsms);
			return WG_EINVAL;
		}
		rc = launch_at(R, sm, cta, at);
	}
	return rc ? rc : got < 0 ? got : 0;
}

static int cta_done(struct run *R, const struct wggpu_ev *e)
{
	int rc = wg_dispatch_done(R->disp, e->sm, e->linear, e->cycle);

	if (rc) {
		snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': SM %u reports CTA %u done: %s", R->k->name,
		         e->sm, e->linear, wg_dispatch_error(R->disp));
		return rc;
	}
	R->done++;
	R->last_done = e->cycle;
	R->resident[e->sm]--;
	return dispatch(R, e->cycle, e->cycle + R->E->cfg->cta_dispatch_latency);
}

static int defer_done(struct run *R, const struct wggpu_ev *e)
{
	if (R->ndef == R->capdef) {
		size_t cap = R->capdef ? 2 * R->capdef : 16;
		struct wggpu_ev *n = realloc(R->deferred, cap * sizeof(*n));

		if (!n)
			return WG_ENOMEM;
		R->deferred = n;
		R->capdef = cap;
	}
	R->deferred[R->ndef++] = *e;
	return 0;
}

static int model_events(struct run *R)
{
	int rc = 0;

	for (size_t i = 0; i < R->nev; i++)
		R->order[i] = i;
	g_sort_evs = R->evs;
	qsort(R->order, R->nev, sizeof(R->order[0]), cmp_ev);
	for (size_t i = 0; i < R->nev && !rc; i++) {
		const struct wggpu_ev *e = &R->evs[R->order[i]];

		if (e->sm >= R->nsms) {
			snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': event from SM %u of %u", R->k->name, e->sm,
			         R->nsms);
			return WG_ELINK;
		}
		R->last_event = e->cycle;
		switch (e->kind) {
		case WGGPU_EV_MREQ:
			rc = mem_request(R, e);
			break;
		case WGGPU_EV_DONE:
			/* the congestion policy decides at the first completion, on counters read at a sample point */
			if (R->ndef || wg_dispatch_wants_sample(R->disp))
				rc = defer_done(R, e);
			else
				rc = cta_done(R, e);
			break;
		case WGGPU_EV_FAULT:
			rc = sm_fault(R, e);
			break;
		default:
			break; /* retire beats: the gpu target does not check them (no lockstep) */
		}
	}
	R->nev = 0;
	return rc;
}

/* Push every timed command due before G, in (at, SM, op) order. */
static int push_due(struct run *R, uint64_t G)
{
	size_t keep = 0;
	int rc = 0;

	qsort(R->pend, R->npend, sizeof(R->pend[0]), cmp_pend);
	for (size_t i = 0; i < R->npend; i++) {
		struct pcmd *p = &R->pend[i];
		struct wggpu_cmd c;

		if (rc || p->at >= G) {
			R->pend[keep++] = *p;
			continue;
		}
		memset(&c, 0, sizeof(c));
		c.op = p->op;
		c.sm = p->sm;
		c.at = p->at;
		if (p->op == WGGPU_LAUNCH) {
			uint32_t x, y, z;

			cta_xyz(R, p->linear, &x, &y, &z);
			c.addr = p->linear;
			c.data[0] = (uint8_t)x;
			c.data[1] = (uint8_t)(x >> 8);
			c.data[2] = (uint8_t)y;
			c.data[3] = (uint8_t)(y >> 8);
			c.data[4] = (uint8_t)z;
			c.data[5] = (uint8_t)(z >> 8);
		} else {
			size_t slot = (size_t)p->sm * R->ntags + p->tag;

			c.tag = p->tag;
			memcpy(c.data, R->rdata + slot * WGGPU_MEM_BYTES, WGGPU_MEM_BYTES);
			R->tag_busy[slot] = 0;
		}
		rc = push_cmd(R, &c);
	}
	R->npend = keep;
	return rc;
}

/* GRANT G and collect events until REACHED. */
static int grant(struct run *R, uint64_t G)
{
	const struct wg_gpu_port_ops *ops = R->E->ops;
	int rc = cmd_simple(R, WGGPU_GRANT, 0, G, 0, NULL, 0);

	R->grants++;
	while (!rc) {
		int got;

		rc = ops->run(R->E->ctx, LINK_BURST);
		while (!rc) {
			if (R->nev == R->capev) {
				size_t cap = R->capev ? 2 * R->capev : 256;
				struct wggpu_ev *n = realloc(R->evs, cap * sizeof(*n));
				size_t *o = realloc(R->order, cap * sizeof(*o));

				if (n)
					R->evs = n;
				if (o)
					R->order = o;
				if (!n || !o)
					return WG_ENOMEM;
				R->capev = cap;
			}
			got = ops->pop(R->E->ctx, &R->evs[R->nev]);
			if (got < 0)
				return got;
			if (!got)
				break;
			switch (R->evs[R->nev].kind) {
			case WGGPU_EV_REACHED:
				R->busy_mask = R->evs[R->nev].busy;
				R->T = G;
				return 0;
			case WGGPU_EV_ERROR:
				snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': the GPU reports protocol error %u at "
				         "cycle %" PRIu64, R->k->name, R->evs[R->nev].err, R->evs[R->nev].cycle);
				return WG_ELINK;
			case WGGPU_EV_FAULT:
				R->nev++;
				return model_events(R); /* reports the fault (target time stopped there) */
			default:
				R->nev++;
			}
		}
	}
	return rc;
}

/* The dispatcher for this launch: occupancy by the SM's rules, the configured policy. */
static int start_dispatch(struct run *R, struct wg_config *cfg)
{
	const struct wggpu_info *in = R->E->info;
	const struct wg_kernel *k = R->k;
	struct wg_dispatch_kernel dk = {
		.threads = R->l->threads_per_cta,
		.regs = k->regs,
		.smem_bytes = k->shared_bytes + R->l->dyn_shared,
	};
	char why[200] = "";
	int rc;

	if (k->ninsns > in->imem_depth)
		snprintf(why, sizeof(why), "%u instructions exceed the instruction memory of %u", k->ninsns,
		         in->imem_depth);
	else if (k->param_bytes > in->cmem_bytes)
		snprintf(why, sizeof(why), "%u parameter bytes exceed the parameter store of %u", k->param_bytes,
		         in->cmem_bytes);
	else if ((uint64_t)k->local_bytes * R->l->threads_per_cta * R->total > 0xFFFFFFFFull)
		snprintf(why, sizeof(why), "the local-memory region exceeds 4 GiB");
	if (why[0]) {
		snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': launch does not fit: %s", k->name, why);
		return WG_ELAUNCH;
	}
	/* the shared part of the L1/shared array follows the split the SMs are set to */
	cfg->shmem_bytes = (R->E->opts->l1_ctrl & L1_SPLIT48) ? cfg->shmem_l1_bytes / 4 : cfg->shmem_l1_bytes / 4 * 3;
	rc = wg_dispatch_create(&R->disp, cfg);
	if (!rc)
		rc = wg_dispatch_start(R->disp, &dk, R->l->grid, 0);
	if (rc) {
		snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': launch does not fit: %s", k->name,
		         R->disp ? wg_dispatch_error(R->disp) : wg_strerror(rc));
		return rc == WG_ENOMEM ? rc : WG_ELAUNCH;
	}
	return 0;
}

static int setup_kernel(struct run *R, uint32_t local_base)
{
	const struct wg_launch *l = R->l;
	const struct wg_kernel *k = R->k;
	uint64_t total_threads = (uint64_t)l->threads_per_cta * R->total;
	uint32_t cfg[17] = {
		0, k->regs, k->shared_bytes + l->dyn_shared, k->local_bytes, local_base, l->block.x, l->block.y,
		l->block.z, l->grid.x, l->grid.y, l->grid.z, l->threads_per_cta, k->param_bytes, R->E->opts->sched,
		(uint32_t)total_threads, 0, R->E->opts->l1_ctrl | L1_FLUSH,
	};
	uint32_t pg[WG_PG_NREGS];
	char why[200];
	int rc = wg_pg_regs(R->E->cfg, pg, why, sizeof(why));

	if (rc) {
		snprintf(R->err->msg, sizeof(R->err->msg), "power gating: %s", why);
		return rc;
	}
	rc = cmd_simple(R, WGGPU_RESET, 0, 0, 0, NULL, 0);
	for (uint32_t i = 0; i < 17 && !rc; i++)
		rc = cmd_simple(R, WGGPU_CFG, 1, 0, i, &cfg[i], 4);
	/* power-gating controls (docs/power-gating.md section 5): kernel registers 17..23 */
	for (uint32_t i = 1; i <= WG_PG_NREGS && !rc; i++) /* register 0 (PG_ISSUE) last */
		rc = cmd_simple(R, WGGPU_CFG, 1, 0, WG_PG_REG_FIRST + i % WG_PG_NREGS, &pg[i % WG_PG_NREGS], 4);
	for (uint32_t pc = 0; pc < k->ninsns && !rc; pc++)
		rc = cmd_simple(R, WGGPU_IMEM, 1, 0, pc, &k->code[pc], 8);
	for (uint32_t w = 0; w < (k->param_bytes + 3) / 4 && !rc; w++) {
		uint8_t v[4] = { 0 };

		memcpy(v, l->params + 4 * w, k->param_bytes - 4 * w < 4 ? k->param_bytes - 4 * w : 4);
		rc = cmd_simple(R, WGGPU_CMEM, 1, 0, w, v, 4);
	}
	/*
	 * the power-gating window (docs/gpu.md section 4.3): cleared by the last set-up write, so
	 * that it opens at target cycle 0 whatever edges the set-up writes gave the SMs
	 */
	if (!rc) {
		uint32_t v = pg[PG_CTRL_REG] | PG_CLEAR;

		rc = cmd_simple(R, WGGPU_CFG, 1, 0, CFG_PG_CTRL, &v, 4);
	}
	return rc;
}

/* Closes every SM's power-gating window (the policy bits kept): before the L1 write-back. */
static int sm_counters(struct run *R, uint32_t sm, uint32_t page, uint32_t cnt[WGGPU_CNT_WORDS]);

static int pg_close(struct run *R)
{
	uint32_t regs[WG_PG_NREGS], v, cnt[WGGPU_CNT_WORDS];
	char why[200];
	int rc;

	if (wg_pg_regs(R->E->cfg, regs, why, sizeof(why)) != 0) {
		snprintf(R->err->msg, sizeof(R->err->msg), "power gating: %s", why);
		return WG_ECONFIG;
	}
	v = regs[PG_CTRL_REG] | PG_CLOSE;
	rc = cmd_simple(R, WGGPU_CFG, 1, 0, CFG_PG_CTRL, &v, 4);
	/*
	 * a barrier: a CNT_READ waits until every SM's close is done (docs/gpu.md section 4.3), so
	 * the write-back's CFG comes after the close's edges on every transport, never among them
	 */
	if (!rc)
		rc = sm_counters(R, 0, PAGE_PG + PG_SM_BASE, cnt);
	return rc;
}

/*
 * n counter pages of SM sm (the GPU stands at its grant): every CNT_READ is queued at once
 * and the COUNTERS events come back in order, so a transport with a round-trip delay pays
 * it once per batch, not per page.
 */
static int sm_pages(struct run *R, uint32_t sm, const uint32_t *pages, uint32_t n, uint32_t (*cnt)[WGGPU_CNT_WORDS])
{
	const struct wg_gpu_port_ops *ops = R->E->ops;
	struct wggpu_cmd c;
	struct wggpu_ev e;
	uint32_t got = 0;
	int rc = 0;

	memset(&c, 0, sizeof(c));
	c.op = WGGPU_CNT_READ;
	c.sm = (uint8_t)sm;
	for (uint32_t i = 0; i < n && !rc; i++) {
		c.addr = pages[i];
		rc = push_cmd(R, &c);
	}
	for (int spin = 0; !rc && got < n && spin < 100000; spin++) {
		rc = ops->run(R->E->ctx, 4);
		while (!rc && got < n && (rc = ops->pop(R->E->ctx, &e)) == 1) {
			rc = 0;
			if (e.kind == WGGPU_EV_COUNTERS && e.sm == sm)
				memcpy(cnt[got++], e.cnt, sizeof(e.cnt));
		}
		if (rc == 1)
			rc = 0;
	}
	if (rc || got < n) {
		snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': no counters from SM %u (page 0x%x)", R->k->name,
		         sm, pages[got < n ? got : 0]);
		return rc ? rc : WG_ETIMEOUT;
	}
	return 0;
}

/* The counter snapshot of SM sm, one page (0, 1: docs/gpu.md section 4.2). */
static int sm_counters(struct run *R, uint32_t sm, uint32_t page, uint32_t cnt[WGGPU_CNT_WORDS])
{
	return sm_pages(R, sm, &page, 1, (uint32_t (*)[WGGPU_CNT_WORDS])cnt);
}

#define W64(c, i) ((uint64_t)(c)[i] | (uint64_t)(c)[(i) + 1] << 32)

/*
 * The congestion-aware policy decides at the first CTA completion. Its
 * measurements are the SMs' counters one lookahead after that completion
 * (a cycle that depends on target time only), fed before the held
 * completions are passed on in their order; their launches still come
 * dispatch_latency after each completion, since lookahead <= dispatch_latency.
 */
static int sample_and_release(struct run *R)
{
	uint32_t cnt[WGGPU_CNT_WORDS];
	int rc = 0;

	for (uint32_t s = 0; s < R->nsms && !rc && wg_dispatch_wants_sample(R->disp); s++) {
		struct wg_dispatch_sample smp;

		rc = sm_counters(R, s, 0, cnt);
		if (rc)
			break;
		memset(&smp, 0, sizeof(smp));
		smp.cycles = R->T;
		smp.icnt_stall_cycles = mem_icnt_stall(R, s);
		smp.issue_stall_cycles = (uint64_t)cnt[CW_STALL] + cnt[CW_STALL + 1] + cnt[CW_STALL + 2];
		smp.lane_insts = W64(cnt, CW_TINST);
		rc = wg_dispatch_sample(R->disp, s, &smp);
	}
	for (size_t i = 0; i < R->ndef && !rc; i++)
		rc = cta_done(R, &R->deferred[i]);
	R->ndef = 0;
	return rc;
}

#define PG_MAX_PAGES 40 /* a batch of counter pages (26 values each); the 8 per lane of WG_PG_MAX_LANES lanes take 20 */
/* n values of SM sm's power-gating counter port from address a on (pages of 26). */
static int pg_values(struct run *R, uint32_t sm, uint32_t a, uint32_t n, uint64_t *v, struct wg_gpu_host_totals *tot)
{
	uint32_t pages[PG_MAX_PAGES] = { 0 }, np = 0;
	uint32_t (*cnt)[WGGPU_CNT_WORDS] = malloc(PG_MAX_PAGES * sizeof(*cnt));
	int rc = cnt ? 0 : WG_ENOMEM;

	for (uint32_t i = 0; i < n && np < PG_MAX_PAGES; i += PG_PAGE_VALS)
		pages[np++] = PAGE_PG + a + i;
	if (!rc)
		rc = sm_pages(R, sm, pages, np, cnt);
	tot->pg_pages += np;
	for (uint32_t p = 0; !rc && p < np; p++)
		for (uint32_t k = 0; k < PG_PAGE_VALS && p * PG_PAGE_VALS + k < n; k++)
			v[p * PG_PAGE_VALS + k] = W64(cnt[p], 2 * k);
	free(cnt);
	return rc;
}

/*
 * The power-gating counters of SM sm, its window closed (docs/gpu.md section 4.3): every
 * counter, and the histogram bins of each unit that has intervals of 1024 cycles or less.
 */
static int pg_read_sm(struct run *R, uint32_t sm, struct wg_pg_sm *p, struct wg_gpu_host_totals *tot)
{
	const struct wggpu_info *in = R->E->info;
	uint32_t w = in->simd_width;
	uint64_t *v = calloc(8u * WG_PG_MAX_LANES, sizeof(*v));
	uint32_t (*hc)[WGGPU_CNT_WORDS] = malloc(HIST_BATCH * sizeof(*hc));
	int rc = v && hc ? 0 : WG_ENOMEM;

	memset(p, 0, sizeof(*p));
	p->lanes = in->simd_width * in->num_simd;
	p->units = in->num_simd;
	if (!rc && (p->lanes > WG_PG_MAX_LANES || p->units > WG_PG_MAX_UNITS)) {
		snprintf(R->err->msg, sizeof(R->err->msg), "the GPU build's %u x %u lanes exceed the power accounting's %u",
		         in->num_simd, in->simd_width, WG_PG_MAX_LANES);
		rc = WG_ENOTSUP;
	}
	/* lanes: 8 x lane + k (k 0 active, 1 idle, 2 sleep, 3 wake, 4 events) */
	if (!rc)
		rc = pg_values(R, sm, 0, 8 * p->lanes, v, tot);
	for (uint32_t i = 0; !rc && i < p->lanes; i++) {
		p->active[i] = v[8 * i];
		p->idle[i] = v[8 * i + 1];
		p->sleep[i] = v[8 * i + 2];
		p->wake[i] = v[8 * i + 3];
		p->events[i] = v[8 * i + 4];
	}
	/* units: 0x800 + 8 x u + k (0 sleep, 1 events, 2 over count, 3 over sum, 4 lost) */
	if (!rc)
		rc = pg_values(R, sm, PG_UNIT_BASE, 8 * p->units, v, tot);
	for (uint32_t u = 0; !rc && u < p->units; u++) {
		p->unit_sleep[u] = v[8 * u];
		p->unit_events[u] = v[8 * u + 1];
		p->over_count[u] = v[8 * u + 2];
		p->over_sum[u] = v[8 * u + 3];
		p->lost[u] = v[8 * u + 4];
	}
	if (!rc)
		rc = pg_values(R, sm, PG_SM_BASE, PG_SM_VALS, v, tot);
	if (!rc) {
		p->cycles = v[0];
		p->wake_stall = v[1];
		p->core_active = v[2];
		p->core_sleep = v[3];
		p->core_events = v[4];
		p->core_wake_stall = v[5];
		p->skipped = v[8];
	}
	/*
	 * the bins of unit u: none when every interval was longer than 1024 cycles; when no lane
	 * of the unit was ever active, each lane had one interval, the whole window (the SM had
	 * no work): w intervals of the cycles counted, not read
	 */
	for (uint32_t u = 0; !rc && u < p->units; u++) {
		uint64_t off = 0, act = 0;

		for (uint32_t l = u * w; l < (u + 1) * w; l++) {
			off += p->idle[l] + p->sleep[l] + p->wake[l];
			act += p->active[l];
		}
		if (off == p->over_sum[u] && p->lost[u] == 0)
			continue;
		if (act == 0 && p->lost[u] == 0 && p->cycles && p->cycles <= WG_PG_HIST_BINS && !p->over_count[u]) {
			p->hist[u][p->cycles] = w;
			continue;
		}
		/*
		 * The bins in ascending order, HIST_BATCH pages at a time, until the lengths read
		 * (L x hist[L]) and the long intervals' sum account for all the unit's idle, sleep
		 * and wake lane-cycles: every such cycle lies in exactly one recorded interval
		 * (docs/power-gating.md section 4.2), so the bins not read are 0. With intervals
		 * lost, or counts that do not add up, every page is read.
		 */
		int all = p->lost[u] != 0 || off < p->over_sum[u];
		uint64_t want = all ? 0 : off - p->over_sum[u], have = 0;

		for (uint32_t b = 0; !rc && b < WG_PG_HIST_BINS && (all || have < want);) {
			uint32_t pages[HIST_BATCH], np = 0, b0 = b;

			for (; np < HIST_BATCH && b < WG_PG_HIST_BINS; b += HIST_PAGE_BINS)
				pages[np++] = PAGE_HIST + u * WG_PG_HIST_BINS + b;
			rc = sm_pages(R, sm, pages, np, hc);
			tot->pg_pages += np;
			for (uint32_t i = 0; !rc && i < np; i++)
				for (uint32_t k = 0; k < HIST_PAGE_BINS && b0 + i * HIST_PAGE_BINS + k < WG_PG_HIST_BINS; k++) {
					uint32_t len = b0 + i * HIST_PAGE_BINS + k + 1;

					p->hist[u][len] = hc[i][k];
					have += (uint64_t)len * hc[i][k];
				}
		}
	}
	free(v);
	free(hc);
	return rc;
}

/*
 * Reads every SM's power-gating counters (the windows closed by pg_close) and adds each
 * SM's counts, with its thread operations, to tot (docs/power-gating.md section 6.3).
 * ops: thread operations per SM and class.
 */
static int pg_collect(struct run *R, const uint64_t *ops, struct wg_gpu_host_totals *tot)
{
	struct wg_pg_sm *p = malloc(sizeof(*p));
	struct wg_pg_counts *c = malloc(sizeof(*c));
	char why[200];
	double w0 = wall_seconds();
	int rc = p && c ? 0 : WG_ENOMEM;

	/* a build that does not announce its lanes (a HELLO field of 0) has no accounting to read */
	uint32_t nsms = R->E->info->simd_width && R->E->info->num_simd ? R->nsms : 0;

	for (uint32_t s = 0; s < nsms && !rc; s++) {
		rc = pg_read_sm(R, s, p, tot);
		if (rc)
			break;
		rc = wg_pg_counts_from_sm(p, ops + (size_t)s * WG_CLASS_COUNT, c, why, sizeof(why));
		if (rc == WG_EINVAL) {
			snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': power-gating counters of SM %u: %s",
			         R->k->name, s, why);
			break;
		}
		if (rc)
			wg_warn("gpu: kernel '%s': power-gating counters of SM %u inconsistent: %s", R->k->name, s, why);
		rc = 0;
		/* lanes are counted once, not per launch */
		wg_pg_counts_add(&tot->pg_sm[s], c);
		tot->pg_sm[s].lanes = c->lanes;
		wg_pg_counts_add(tot->pg_total, c);
		tot->pg_total->lanes -= c->lanes;
	}
	if (!rc) {
		tot->pg_total->lanes = 0;
		for (uint32_t s = 0; s < R->nsms; s++)
			tot->pg_total->lanes += tot->pg_sm[s].lanes;
	}
	tot->pg_seconds += wall_seconds() - w0;
	free(p);
	free(c);
	return rc;
}

/* Read every SM's counters (the GPU stands at its grant) into st and tot. */
static int read_counters(struct run *R, struct wg_stats *st, struct wg_gpu_host_totals *tot)
{
	uint32_t cnt[WGGPU_CNT_WORDS];
	uint64_t *ops = calloc((size_t)R->nsms * WG_CLASS_COUNT, sizeof(*ops));
	int rc = ops ? 0 : WG_ENOMEM;

	for (uint32_t s = 0; s < R->nsms && !rc; s++) {
		rc = sm_counters(R, s, 0, cnt);

		if (rc)
			break;
		st->warp_insts += W64(cnt, CW_WINST);
		st->thread_insts += W64(cnt, CW_TINST);
		for (int k = 0; k < WG_CLASS_COUNT && k < 12; k++)
			st->class_warp[k] += cnt[CW_CLASS + k];
		for (int k = 0; k < WG_MEMCNT_COUNT; k++)
			st->mem[k] += cnt[CW_MEM + k];
		tot->sm_active[s] += W64(cnt, CW_ACTIVE);
		tot->sm_warp_insts[s] += W64(cnt, CW_WINST);
		tot->warp_insts += W64(cnt, CW_WINST);
		for (int k = CW_CLASS; k < WGGPU_CNT_WORDS; k++)
			tot->cnt[k] += cnt[k];
		/* page 1: the execution counters, which the sim target takes from its retire stream */
		rc = sm_counters(R, s, 1, cnt);
		if (rc)
			break;
		st->branches += cnt[EC_BRANCH];
		st->divergent_branches += cnt[EC_DIV_BRANCH];
		st->local_ld_bytes += cnt[EC_LOCAL_LD_BYTES];
		st->local_st_bytes += cnt[EC_LOCAL_ST_BYTES];
		for (int k = 0; k < WG_CLASS_COUNT && k < 12; k++) {
			st->class_thread[k] += cnt[EC_CLASS_THREAD + k];
			ops[(size_t)s * WG_CLASS_COUNT + k] = cnt[EC_CLASS_THREAD + k];
		}
	}
	if (!rc)
		rc = pg_collect(R, ops, tot);
	free(ops);
	return rc;
}

int wg_gpu_host_check_build(const struct wg_config *cfg, const struct wggpu_info *in, char *why, size_t n)
{
	const struct {
		const char *key, *what;
		uint32_t want, have;
	} cap[] = {
		{ "n_sm", "SMs", cfg->num_sms, in->num_sms },
		{ "max_warps_per_sm", "warp slots per SM (NUM_WARPS)", cfg->max_warps_per_sm, in->num_warps },
		{ "max_ctas_per_sm", "CTA slots per SM (NUM_CTAS)", cfg->max_ctas_per_sm, in->num_ctas },
		{ "regs_per_sm", "registers per SM (NUM_REGS)", cfg->regs_per_sm, in->num_regs },
		{ "shmem_l1_bytes", "bytes of L1/shared array per SM (DMEM_BYTES)", cfg->shmem_l1_bytes, in->dmem_bytes },
	};
	uint32_t lanes = in->simd_width * in->num_simd;

	for (size_t i = 0; i < sizeof(cap) / sizeof(cap[0]); i++) {
		if (cap[i].have && cap[i].want > cap[i].have) {
			snprintf(why, n, "the configuration's %s = %u exceeds the GPU build's %u %s", cap[i].key, cap[i].want,
			         cap[i].have, cap[i].what);
			return WG_ECONFIG;
		}
	}
	if (lanes && (cfg->simd_width != in->simd_width || cfg->simd_units != in->num_simd)) {
		snprintf(why, n, "the configuration's simd_width = %u, simd_units = %u differ from the GPU build's "
		         "%u x %u lanes (SIMD_WIDTH x NUM_SIMD)", cfg->simd_width, cfg->simd_units, in->simd_width,
		         in->num_simd);
		return WG_ECONFIG;
	}
	return 0;
}

int wg_gpu_host_launch(const struct wg_gpu_host_env *env, const struct wg_launch *l, struct wg_stats *st,
                       struct wg_gpu_host_totals *tot, struct wg_err *err)
{
	const struct wg_gpu_host_opts *o = env->opts;
	struct run R = { 0 };
	struct wg_config cfg;
	uint32_t local_base = 0;
	uint64_t local_bytes, flush_at = UINT64_MAX, dlat = env->cfg->cta_dispatch_latency;
	uint64_t link0 = env->ops->link_cycles(env->ctx);
	int rc, flushing = 0;
	clock_t c0 = clock();
	double w0 = wall_seconds(), wnext = w0 + 3.0; /* the progress line starts after 3 s */

	R.E = env;
	R.l = l;
	R.k = l->kernel;
	R.err = err;
	R.total = l->ctas;
	R.nsms = env->cfg->num_sms;
	R.ntags = 1u << env->info->mem_tag_bits;
	err->msg[0] = '\0';
	cfg = *env->cfg;
	{
		char why[200];

		rc = wg_gpu_host_check_build(&cfg, env->info, why, sizeof(why));
		if (rc) {
			snprintf(err->msg, sizeof(err->msg), "kernel '%s': %s", R.k->name, why);
			return rc;
		}
	}
	rc = start_dispatch(&R, &cfg);
	if (!rc)
		rc = totals_size(tot, R.nsms);
	if (rc)
		return rc;
	tot->energy_ok = wg_energy_params_from_config(env->cfg, &tot->energy, tot->energy_why,
	                                              sizeof(tot->energy_why)) == 0;
	/*
	 * lookahead: a CTA comes dlat after a completion; a response mem_latency after its request
	 * (fixed), or, with the models, the memory system runs sm_mem_latency behind the SMs
	 */
	R.lookahead = o->mem_fixed ? o->mem_latency : env->cfg->sm_mem_latency;
	if (dlat < R.lookahead)
		R.lookahead = dlat;
	if (!rc && !o->mem_fixed) {
		char why[256] = "";

		rc = wg_memsys_create_from_config(&R.mem, &cfg, why, sizeof(why));
		if (rc)
			snprintf(err->msg, sizeof(err->msg), "kernel '%s': memory system: %s", R.k->name,
			         why[0] ? why : wg_strerror(rc));
	}
	if (!rc && R.lookahead == 0) {
		snprintf(err->msg, sizeof(err->msg), "kernel '%s': zero lookahead (the dispatch and memory latencies "
		         "must be at least 1 cycle)", R.k->name);
		rc = WG_ECONFIG;
	}
	if (rc)
		goto out;
	R.rdata = malloc((size_t)R.nsms * R.ntags * WGGPU_MEM_BYTES);
	R.tag_busy = calloc((size_t)R.nsms * R.ntags, 1);
	R.resident = calloc(R.nsms, sizeof(*R.resident));
	R.sm_ctas = calloc(R.nsms, sizeof(*R.sm_ctas));
	if (!R.rdata || !R.tag_busy || !R.resident || !R.sm_ctas) {
		rc = WG_ENOMEM;
		goto out;
	}
	/* local memory: LOCAL_BYTES x TOTAL_THREADS, zeroed, whole 128-byte lines (docs/sm.md section 4) */
	local_bytes = (uint64_t)R.k->local_bytes * l->threads_per_cta * R.total;
	local_bytes = (local_bytes + WGGPU_MEM_BYTES - 1) & ~(uint64_t)(WGGPU_MEM_BYTES - 1);
	if (local_bytes) {
		rc = wg_gmem_alloc(env->gmem, local_bytes, &local_base);
		if (rc) {
			snprintf(err->msg, sizeof(err->msg), "kernel '%s': no device memory for %llu bytes of local memory",
			         R.k->name, (unsigned long long)local_bytes);
			goto out;
		}
	}
	rc = setup_kernel(&R, local_base);
	if (rc)
		goto out;
	rc = dispatch(&R, 0, 0); /* the first CTAs, at cycle 0 */
	while (!rc) {
		uint64_t step = R.lookahead, G;

		if (o->grant_window && o->grant_window < step)
			step = o->grant_window;
		G = R.T + step;
		if (flush_at != UINT64_MAX && !flushing && G > flush_at)
			G = flush_at;
		if (R.ndef && G > R.deferred[0].cycle + R.lookahead)
			G = R.deferred[0].cycle + R.lookahead; /* stop at the sample point */
		rc = push_due(&R, G);
		if (!rc)
			rc = grant(&R, G);
		if (!rc) {
			rc = model_events(&R);
		}
		if (!rc && R.mem)
			rc = mem_advance(&R, R.T + env->cfg->sm_mem_latency - 1);
		if (!rc && R.ndef && R.T == R.deferred[0].cycle + R.lookahead)
			rc = sample_and_release(&R);
		if (rc)
			break;
		if (R.done == R.total && flush_at == UINT64_MAX)
			flush_at = R.last_done + dlat; /* the L1 write-back, at a cycle that depends on target time only */
		if (!flushing && R.T == flush_at) {
			uint32_t v = o->l1_ctrl | L1_FLUSH;

			rc = pg_close(&R); /* the window ends before the write-back */
			if (!rc)
				rc = cmd_simple(&R, WGGPU_CFG, 1, 0, CFG_L1_CTRL, &v, 4);
			flushing = 1;
			continue;
		}
		if (flushing && R.T >= flush_at + FLUSH_SETTLE && !R.busy_mask && R.npend == 0 && !R.nback &&
		    (!R.mem || !wg_memsys_outstanding(R.mem)))
			break;
		if (R.grants % 64 == 0 && wg_progress_enabled() && wall_seconds() >= wnext) {
			double w = wall_seconds() - w0;

			wg_progress("%s: cycle %" PRIu64 "  CTAs %" PRIu64 "/%" PRIu64 "  %.0f cycles/s", R.k->name, R.T,
			            R.done, R.total, w > 0 ? (double)R.T / w : 0.0);
			wnext = wall_seconds() + 0.5;
		}
		if (R.T - R.last_event > o->watchdog && R.T > o->watchdog) {
			snprintf(err->msg, sizeof(err->msg), "kernel '%s': no progress for %" PRIu64 " cycles at cycle %"
			         PRIu64 ": %" PRIu64 " of %" PRIu64 " CTAs done, %zu commands pending, busy SMs 0x%" PRIx64,
			         R.k->name, o->watchdog, R.T, R.done, R.total, R.npend, R.busy_mask);
			rc = WG_ETIMEOUT;
		}
	}
	if (!rc)
		rc = read_counters(&R, st, tot);
	if (!rc) {
		uint64_t cycles = R.total ? R.last_done + 1 : 0;

		st->ctas += R.done;
		st->warps += R.done * l->warps_per_cta;
		st->threads += R.done * l->threads_per_cta;
		st->cycles += cycles;
		tot->cycles += cycles;
		tot->launches++;
		tot->mem_reqs += R.mem_reqs;
		tot->grants += R.grants;
		for (uint32_t s = 0; s < R.nsms; s++)
			tot->sm_ctas[s] += R.sm_ctas[s];
		if (R.mem)
			mem_totals(tot, wg_memsys_stats(R.mem));
		disp_totals(tot, wg_dispatch_stats(R.disp));
	}
out:
	wg_progress_end();
	tot->link_cycles += env->ops->link_cycles(env->ctx) - link0;
	tot->host_seconds += (double)(clock() - c0) / CLOCKS_PER_SEC;
	if (local_base)
		wg_gmem_free(env->gmem, local_base);
	free(R.rdata);
	free(R.tag_busy);
	free(R.resident);
	free(R.pend);
	free(R.evs);
	free(R.order);
	free(R.sm_ctas);
	free(R.deferred);
	free(R.backlog);
	wg_dispatch_destroy(R.disp);
	wg_memsys_destroy(R.mem);
	return rc;
}

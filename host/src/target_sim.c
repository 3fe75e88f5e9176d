/*
 * The "sim" target: the Verilated SM (sim/wgsim.h, ports in docs/sm.md)
 * behind the target interface. The host side of the SM's ports lives here:
 * kernel set-up, CTA dispatch in linear order, a global memory with a fixed
 * latency served from the device's gmem, the retire stream (restored to
 * per-warp program order) turned into retire-log lines and checked in
 * lockstep against the golden model, the L1 flush after the last CTA
 * (docs/memory-pipeline.md section 3), faults, a watchdog and statistics.
 * docs/cosim.md describes the options and the checks.
 *
 * Linking this file needs build/sim/libwgsim.a (C++: -lstdc++).
 */
#include <fenv.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "../../sim/wgsim.h"
#include "config.h"
#include "energy.h"
#include "func.h"
#include "isa.h"
#include "lockstep.h"
#include "log.h"
#include "memserve.h"
#include "pgtrace.h"
#include "simfit.h"
#include "target.h"
#include "warpgate.h"

/* Per-warp reorder window of the retire stream: it starts at ROB_MIN instructions and doubles
 * while a beat arrives further ahead of the oldest unretired instruction (a long-latency load
 * followed by many independent instructions), up to half the 16-bit sequence space. */
#define ROB_MIN 64
#define ROB_MAX 32768
#define MAX_COUNTERS 128
#define DEFAULT_WATCHDOG 200000
#define LOCKSTEP_OFF 0
#define LOCKSTEP_ON 1
#define LOCKSTEP_END 2        /* end-of-run image comparison only */
/* Kernel register L1_CTRL (docs/sm.md 2.1): bit 0 Fermi mode, bit 1 16 KB shared / 48 KB L1, bit 2 flush. */
#define CFG_L1_CTRL 16
#define PGT_NEVER ((1ull << 48) - 1) /* an unbounded trace window */
#define L1_FERMI 1u
#define L1_SPLIT48 2u
#define L1_FLUSH 4u
/* The SM registers the flush write before its L1 raises busy: cycles to wait before trusting busy_o. */
#define FLUSH_SETTLE 4

/* One instruction being assembled from retire beats. */
struct rinsn {
	uint8_t valid, complete, dst, nbeats;
	uint16_t seq;
	uint32_t pc, active, exec;
	uint8_t reg[4];
	uint32_t data[4][32];
};

struct wtrack {
	uint16_t next;      /* sequence number of the next instruction in program order */
	uint32_t last_pc;
	uint64_t retired;
	uint32_t slot;
	uint32_t cap;       /* entries of rob (0: not allocated yet) */
	struct rinsn *rob;  /* instruction seq at rob[seq % cap] */
};

struct rcta {
	int used;
	uint32_t linear;
	struct wtrack *w;
};

struct resp {
	uint64_t due;
	uint32_t tag;
	uint8_t rdata[WGSIM_MEM_BYTES];
};

/* Static facts of the kernel's instructions, for statistics and the log. */
struct pinfo {
	uint8_t cls, op, bytes, skip, valid;
};

struct sim {
	struct wgsim *s;
	struct wgsim_info info;
	struct wg_gmem *gmem;
	struct wg_config cfg;
	struct wg_func *gold;
	char trace_fst[1024];
	int lockstep;
	uint32_t mem_latency;
	uint64_t watchdog;
	uint32_t sched;
	uint32_t l1_ctrl;             /* L1_CTRL mode and split bits (l1_mode, l1_split) */
	/* target counters, summed over launches */
	uint64_t cycles, warp_insts, launches, mem_reqs, lockstep_checked;
	struct wg_pg_counts *pg;      /* power-gating accounting, summed over launches */
	int pg_error;                 /* the energy model could not be computed (message logged) */
	/* lane-activity trace (docs/power-gating.md section 7) */
	char pgt_file[1024];          /* the VCD, "" = no trace */
	uint64_t pgt_from, pgt_to;    /* window over the whole run; pgt_to 0 = unbounded */
	struct wg_pgtrace *pgt;
	uint64_t pgt_off;             /* window cycles of the launches so far */
	uint64_t pgt_lost;            /* records lost (the SM's count) */
	uint64_t pgt_vcd_bytes;
	int ncounters;
	char *cname[MAX_COUNTERS];
	uint64_t cval[MAX_COUNTERS];
};

/* State of one launch. */
struct run {
	struct sim *S;
	const struct wg_launch *l;
	const struct wg_kernel *k;
	struct wg_stats *st;
	struct wg_retire_log *log;
	struct wg_err *err;
	struct wg_lockstep *ls;
	struct pinfo *pi;
	struct rcta *ctas;
	uint32_t nctas, nwarps;
	uint32_t *slot_cta, *slot_wic; /* warp slot -> CTA, warp (from the retire stream) */
	uint8_t *slot_known;
	struct resp *q;                /* responses in due order */
	size_t qhead, qlen, qcap;
	uint64_t cycle0, cycle, last_retire;
	struct wg_func_ls_rec *rec;
};

static void cta_xyz(const struct run *R, uint32_t cta, uint32_t *x, uint32_t *y, uint32_t *z)
{
	const wg_dim3 g = R->l->grid;

	*x = cta % g.x;
	*y = cta / g.x % g.y;
	*z = cta / g.x / g.y;
}

/* "kernel 'k': CTA (x,y,z) warp w pc p lane l: " for a warp slot. */
static size_t where(const struct run *R, char *p, size_t len, uint32_t slot, long cta, uint32_t pc, long lane)
{
	uint32_t x, y, z;
	size_t n;

	if (cta < 0 && slot < R->S->info.num_warps && R->slot_known[slot])
		cta = R->slot_cta[slot];
	if (cta < 0)
		return (size_t)snprintf(p, len, "kernel '%s': warp slot %u pc %u%s", R->k->name, slot, pc, "");
	cta_xyz(R, (uint32_t)cta, &x, &y, &z);
	n = (size_t)snprintf(p, len, "kernel '%s': CTA (%u,%u,%u)", R->k->name, x, y, z);
	if (n < len && slot < R->S->info.num_warps && R->slot_known[slot] && R->slot_cta[slot] == (uint32_t)cta)
		n += (size_t)snprintf(p + n, len - n, " warp %u", R->slot_wic[slot]);
	else if (n < len)
		n += (size_t)snprintf(p + n, len - n, " warp slot %u", slot);
	if (n < len)
		n += (size_t)snprintf(p + n, len - n, " pc %u", pc);
	if (lane >= 0 && n < len)
		n += (size_t)snprintf(p + n, len - n, " lane %ld", lane);
	return n;
}

/* ------------------------------------------------------------------------ */
/* Options                                                                   */

static int parse_u64(const char *v, uint64_t *out)
{
	char *end;

	if (!v || !*v)
		return WG_EINVAL;
	*out = strtoull(v, &end, 0);
	return *end ? WG_EINVAL : 0;
}

static int sim_new_model(struct sim *S, struct wg_err *err)
{
	struct wgsim_opts o = { 0 };
	int rc;

	if (S->s)
		wgsim_destroy(S->s);
	S->s = NULL;
	o.trace_fst = S->trace_fst[0] ? S->trace_fst : NULL;
	rc = wgsim_create(&S->s, &o);
	if (rc) {
		snprintf(err->msg, sizeof(err->msg), "cannot create the Verilated SM (wgsim_create: %s)", wg_strerror(rc));
		return rc;
	}
	wgsim_info(S->s, &S->info);
	return 0;
}

static int sim_set_option(void *priv, const char *key, const char *value, struct wg_err *err)
{
	struct sim *S = priv;
	uint64_t v;

	if (!strcmp(key, "trace_fst")) {
		snprintf(S->trace_fst, sizeof(S->trace_fst), "%s", value ? value : "");
		return sim_new_model(S, err);
	}
	if (!strcmp(key, "lockstep")) {
		if (value && !strcmp(value, "end"))
			S->lockstep = LOCKSTEP_END;
		else if (!parse_u64(value, &v) && v <= 1)
			S->lockstep = (int)v;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "mem_latency")) {
		if (parse_u64(value, &v) || !v || v > 1000000)
			goto bad;
		S->mem_latency = (uint32_t)v;
		return 0;
	}
	if (!strcmp(key, "watchdog")) {
		if (parse_u64(value, &v) || !v)
			goto bad;
		S->watchdog = v;
		return 0;
	}
	if (!strcmp(key, "sched")) {
		if (value && !strcmp(value, "lrr"))
			S->sched = 0;
		else if (value && !strcmp(value, "gto"))
			S->sched = 1;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "l1_mode")) {
		if (value && !strcmp(value, "kepler"))
			S->l1_ctrl &= ~L1_FERMI;
		else if (value && !strcmp(value, "fermi"))
			S->l1_ctrl |= L1_FERMI;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "l1_split")) {
		if (value && !strcmp(value, "16"))
			S->l1_ctrl &= ~L1_SPLIT48;
		else if (value && !strcmp(value, "48"))
			S->l1_ctrl |= L1_SPLIT48;
		else
			goto bad;
		return 0;
	}
	/* lane-activity trace: the VCD file and the window (docs/power-gating.md section 7.3) */
	if (!strcmp(key, "pg_trace")) {
		FILE *f;

		if (!value || !*value) {
			S->pgt_file[0] = '\0';
			return 0;
		}
		if (strlen(value) >= sizeof(S->pgt_file)) {
			snprintf(err->msg, sizeof(err->msg), "pg_trace: file name longer than %zu characters",
			         sizeof(S->pgt_file) - 1);
			return WG_EINVAL;
		}
		f = fopen(value, "w");
		if (!f) {
			snprintf(err->msg, sizeof(err->msg), "pg_trace: cannot write '%.400s'", value);
			return WG_EIO;
		}
		fclose(f);
		snprintf(S->pgt_file, sizeof(S->pgt_file), "%s", value);
		return 0;
	}
	if (!strcmp(key, "pg_trace_from") || !strcmp(key, "pg_trace_to")) {
		if (parse_u64(value, &v) || v >= PGT_NEVER) {
			snprintf(err->msg, sizeof(err->msg), "%s: '%s' is not a cycle number below 2^48", key,
			         value ? value : "(null)");
			return WG_EINVAL;
		}
		*(key[9] == 'f' ? &S->pgt_from : &S->pgt_to) = v;
		return 0;
	}
	/* power gating: the mode (pg) and the configuration keys of docs/power-gating.md sections 5-6 */
	if (!strcmp(key, "pg") || !strncmp(key, "pg_", 3) || !strcmp(key, "bet_cycles") ||
	    !strcmp(key, "idle_detect_cycles") || !strcmp(key, "wakeup_cycles") || !strcmp(key, "core_clock_mhz")) {
		struct wg_config c = S->cfg;

		if (wg_config_set(&c, key, value ? value : "", err->msg, sizeof(err->msg)))
			return WG_EINVAL;
		S->cfg = c;
		return 0;
	}
	snprintf(err->msg, sizeof(err->msg),
	         "unknown option (sim takes trace_fst, lockstep, mem_latency, watchdog, sched, l1_mode, l1_split, pg, "
	         "bet_cycles, idle_detect_cycles, wakeup_cycles, pg_trace, pg_trace_from, pg_trace_to and the pg_* keys)");
	return WG_ENOTSUP;
bad:
	snprintf(err->msg, sizeof(err->msg), "bad value '%s'", value ? value : "(null)");
	return WG_EINVAL;
}

static int sim_create(void **priv, struct wg_gmem *gmem, const struct wg_config *cfg, struct wg_err *err)
{
	struct sim *S = calloc(1, sizeof(*S));
	const char *env;
	int rc;

	if (!S)
		return WG_ENOMEM;
	S->gmem = gmem;
	S->cfg = *cfg;
	S->pg = calloc(1, sizeof(*S->pg));
	if (!S->pg) {
		free(S);
		return WG_ENOMEM;
	}
	S->mem_latency = cfg->dram_latency + cfg->rop_latency;
	if (!S->mem_latency)
		S->mem_latency = 220;
	S->watchdog = DEFAULT_WATCHDOG;
	S->lockstep = LOCKSTEP_ON;
	env = getenv("WG_SIM_LOCKSTEP"); /* for programs that do not call wg_set_option */
	if (env)
		S->lockstep = !strcmp(env, "end") ? LOCKSTEP_END : atoi(env) ? LOCKSTEP_ON : LOCKSTEP_OFF;
	env = getenv("WG_SIM_TRACE_FST");
	if (env)
		snprintf(S->trace_fst, sizeof(S->trace_fst), "%s", env);
	rc = wg_func_create(&S->gold, gmem, cfg);
	if (!rc)
		rc = sim_new_model(S, err);
	if (rc) {
		wg_func_destroy(S->gold);
		free(S->pg);
		free(S);
		return rc;
	}
	*priv = S;
	return 0;
}

static void sim_destroy(void *priv)
{
	struct sim *S = priv;

	if (!S)
		return;
	wgsim_destroy(S->s);
	wg_func_destroy(S->gold);
	for (int i = 0; i < S->ncounters; i++)
		free(S->cname[i]);
	wg_pgtrace_destroy(S->pgt);
	free(S->pg);
	free(S);
}

/* ------------------------------------------------------------------------ */
/* Memory port                                                               */

static int mem_error(struct run *R, const struct wgsim_mreq *q, const char *why)
{
	static const char *const cmds[] = { "load", "store", "atomic", "?" };
	size_t n;

	if (q->wb) {
		snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': L1 write-back of %u bytes at 0x%08x %s (cycle %llu)",
		         R->k->name, 1u << q->size, q->addr, why, (unsigned long long)q->cycle);
		return WG_EFAULT;
	}
	n = where(R, R->err->msg, sizeof(R->err->msg), q->warp, -1, q->pc, q->lane);

	if (n < sizeof(R->err->msg))
		snprintf(R->err->msg + n, sizeof(R->err->msg) - n, ": %s %s of %u bytes at 0x%08x %s (cycle %llu)",
		         q->local ? "local" : "global", cmds[q->cmd & 3], 1u << q->size, q->addr, why,
		         (unsigned long long)q->cycle);
	return WG_EFAULT;
}

static int queue_resp(struct run *R, uint32_t tag, const uint8_t *rdata)
{
	struct resp *r;

	if (R->qlen == R->qcap) {
		size_t cap = R->qcap ? 2 * R->qcap : 256;
		struct resp *n = malloc(cap * sizeof(*n));

		if (!n)
			return WG_ENOMEM;
		for (size_t i = 0; i < R->qlen; i++)
			n[i] = R->q[(R->qhead + i) % R->qcap];
		free(R->q);
		R->q = n;
		R->qhead = 0;
		R->qcap = cap;
	}
	r = &R->q[(R->qhead + R->qlen++) % R->qcap];
	r->due = R->cycle + R->S->mem_latency;
	r->tag = tag;
	memcpy(r->rdata, rdata, WGSIM_MEM_BYTES);
	return 0;
}

/* Serve one request against the device's gmem (the effect is applied now, the response later). */
static int serve(struct run *R, const struct wgsim_mreq *q)
{
	uint8_t rdata[WGSIM_MEM_BYTES];
	struct wg_ls_req r;
	const char *why;
	int rc;

	memset(&r, 0, sizeof(r));
	r.cycle = q->cycle;
	r.slot = q->warp;
	r.pc = q->pc;
	r.lane = q->lane;
	r.cmd = q->cmd;
	r.size = q->size;
	r.atom_op = q->atom_op;
	r.local = q->local;
	r.wb = q->wb;
	r.addr = q->addr;
	r.atom_b = q->atom_b;
	r.atom_c = q->atom_c;
	memcpy(r.wmask, q->wmask, WGSIM_MEM_BYTES);
	memcpy(r.wdata, q->wdata, WGSIM_MEM_BYTES);
	if (wg_memserve(R->S->gmem, &r, rdata, &why))
		return mem_error(R, q, why);
	R->S->mem_reqs++;
	if (R->ls && q->cmd) {
		rc = wg_lockstep_mreq(R->ls, &r, R->err);
		if (rc)
			return rc;
	}
	return queue_resp(R, q->tag, rdata);
}

/* ------------------------------------------------------------------------ */
/* Retire stream                                                             */

static struct rcta *find_cta(struct run *R, uint32_t linear, int create)
{
	struct rcta *free_slot = NULL;

	for (uint32_t i = 0; i < R->nctas; i++) {
		if (R->ctas[i].used && R->ctas[i].linear == linear)
			return &R->ctas[i];
		if (!R->ctas[i].used && !free_slot)
			free_slot = &R->ctas[i];
	}
	if (!create)
		return NULL;
	if (!free_slot) {
		struct rcta *n = realloc(R->ctas, (R->nctas + 1) * sizeof(*n));

		if (!n)
			return NULL;
		R->ctas = n;
		free_slot = &R->ctas[R->nctas++];
		memset(free_slot, 0, sizeof(*free_slot));
		free_slot->w = calloc(R->nwarps, sizeof(*free_slot->w));
		if (!free_slot->w) {
			R->nctas--;
			return NULL;
		}
	}
	for (uint32_t i = 0; i < R->nwarps; i++) { /* keep each warp's window, empty */
		struct wtrack *t = &free_slot->w[i];
		struct rinsn *rob = t->rob;
		uint32_t cap = t->cap;

		memset(t, 0, sizeof(*t));
		t->rob = rob;
		t->cap = cap;
		for (uint32_t j = 0; j < cap; j++)
			rob[j].valid = 0;
	}
	free_slot->used = 1;
	free_slot->linear = linear;
	return free_slot;
}

/* Make warp t's window hold an instruction `ahead` places after the oldest unretired one. */
static int grow_rob(struct wtrack *t, uint32_t ahead)
{
	uint32_t cap = t->cap ? t->cap : ROB_MIN;
	struct rinsn *n;

	while (ahead >= cap && cap < ROB_MAX)
		cap *= 2;
	if (cap == t->cap)
		return 0;
	n = calloc(cap, sizeof(*n));
	if (!n)
		return -1;
	for (uint32_t i = 0; i < t->cap; i++)
		if (t->rob[i].valid)
			n[t->rob[i].seq % cap] = t->rob[i];
	free(t->rob);
	t->rob = n;
	t->cap = cap;
	return 0;
}

static void count(struct run *R, const struct rinsn *e)
{
	struct wg_stats *st = R->st;
	const struct pinfo *p = e->pc < R->k->ninsns ? &R->pi[e->pc] : NULL;
	uint32_t n = (uint32_t)__builtin_popcount(e->exec);

	if (!p || !p->valid)
		return;
	st->warp_insts++;
	st->thread_insts += n;
	st->class_warp[p->cls]++;
	st->class_thread[p->cls] += n;
	switch (p->op) {
	case WG_OP_BRA:
		st->branches++;
		if (e->exec && e->exec != e->active)
			st->divergent_branches++;
		break;
	case WG_OP_BAR:
		st->barriers += e->exec != 0;
		break;
	case WG_OP_LDG: case WG_OP_LDGCG: st->gld_bytes += (uint64_t)n * p->bytes; break;
	case WG_OP_STG: st->gst_bytes += (uint64_t)n * p->bytes; break;
	case WG_OP_LDS: st->shld_bytes += (uint64_t)n * p->bytes; break;
	case WG_OP_STS: st->shst_bytes += (uint64_t)n * p->bytes; break;
	case WG_OP_LDL: st->local_ld_bytes += (uint64_t)n * p->bytes; break;
	case WG_OP_STL: st->local_st_bytes += (uint64_t)n * p->bytes; break;
	case WG_OP_ATOMG: case WG_OP_ATOMGX: case WG_OP_ATOMS: case WG_OP_ATOMSX: st->atom_ops += n; break;
	default: break;
	}
}

/* An instruction of (cta, wic) in program order: log line, statistics, lockstep. */
static int release(struct run *R, uint32_t cta, uint32_t wic, uint32_t slot, const struct rinsn *e)
{
	struct wg_func_ls_rec *r = R->rec;
	const struct pinfo *p = e->pc < R->k->ninsns ? &R->pi[e->pc] : NULL;

	r->cta = cta;
	r->warp = wic;
	r->pc = e->pc;
	r->active = e->active;
	r->exec = e->exec;
	r->dst = e->dst == 1 ? WG_RD_REG : e->dst == 2 ? WG_RD_PRED : WG_RD_NONE;
	r->reg = e->reg[0];
	r->nregs = e->dst == 1 ? e->nbeats : 1;
	r->skip = p ? p->skip : 0;
	r->pred = e->dst == 2 ? e->data[0][0] : 0;
	r->nmem = 0;
	if (e->dst == 1)
		for (unsigned l = 0; l < 32; l++)
			for (unsigned k = 0; k < e->nbeats && k < 4; k++)
				r->vals[l][k] = e->data[k][l];
	count(R, e);
	if (R->log)
		wg_func_ls_log(R->log, r);
	if (R->ls)
		return wg_lockstep_retire(R->ls, slot, R->cycle, r, R->err);
	return 0;
}

static int retire_beat(struct run *R, const struct wgsim_retire *b)
{
	struct rcta *c;
	struct wtrack *t;
	struct rinsn *e;
	int rc;

	if (b->wic >= R->nwarps || b->warp >= R->S->info.num_warps || b->beat > 3) {
		size_t n = where(R, R->err->msg, sizeof(R->err->msg), b->warp, b->cta_linear, b->pc, -1);

		snprintf(R->err->msg + n, sizeof(R->err->msg) - n, ": malformed retire beat (warp index %u, beat %u)",
		         b->wic, b->beat);
		return WG_EIO;
	}
	R->slot_cta[b->warp] = b->cta_linear;
	R->slot_wic[b->warp] = b->wic;
	R->slot_known[b->warp] = 1;
	c = find_cta(R, b->cta_linear, 1);
	if (!c)
		return WG_ENOMEM;
	t = &c->w[b->wic];
	t->slot = b->warp;
	if (grow_rob(t, (uint16_t)(b->seq - t->next)))
		return WG_ENOMEM;
	e = &t->rob[b->seq % t->cap];
	if (!e->valid) {
		if ((uint16_t)(b->seq - t->next) >= t->cap) {
			size_t n = where(R, R->err->msg, sizeof(R->err->msg), b->warp, b->cta_linear, b->pc, -1);

			snprintf(R->err->msg + n, sizeof(R->err->msg) - n,
			         ": retire beat with sequence number %u, expected %u..%u (cycle %llu)", b->seq, t->next,
			         (uint16_t)(t->next + t->cap - 1), (unsigned long long)b->cycle);
			return WG_EIO;
		}
		memset(e, 0, offsetof(struct rinsn, data));
		e->valid = 1;
		e->seq = (uint16_t)b->seq;
		e->pc = b->pc;
		e->active = b->active;
		e->exec = b->exec;
		e->dst = b->dst;
	}
	e->reg[b->beat] = b->reg;
	memcpy(e->data[b->beat], b->data, sizeof(e->data[0]));
	if (b->beat + 1u > e->nbeats)
		e->nbeats = (uint8_t)(b->beat + 1);
	if (b->last)
		e->complete = 1;
	R->last_retire = R->cycle;
	/* release everything now in order */
	for (;;) {
		e = &t->rob[t->next % t->cap];
		if (!e->valid || !e->complete || e->seq != t->next)
			break;
		t->last_pc = e->pc;
		t->retired++;
		rc = release(R, b->cta_linear, b->wic, b->warp, e);
		e->valid = 0;
		t->next++;
		if (rc)
			return rc;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Faults and the watchdog                                                   */

static int sm_fault(struct run *R, const struct wgsim_fault *f)
{
	static const char *const what[] = {
		"fault", "illegal instruction", "misaligned address", "shared access outside the window",
		"local access outside the window", "param access outside the window", "SIMT reconvergence stack overflow",
		"pc outside the instruction memory", "barrier deadlock",
	};
	const char *w = f->code < sizeof(what) / sizeof(what[0]) ? what[f->code] : "unknown fault";
	size_t n = where(R, R->err->msg, sizeof(R->err->msg), f->warp, f->cta_linear, f->pc,
	                 f->code >= 2 && f->code <= 5 ? (long)f->lane : -1);
	char extra[64] = "";

	if (f->code == 1 && f->pc < R->k->ninsns)
		snprintf(extra, sizeof(extra), " 0x%016llx", (unsigned long long)R->k->code[f->pc]);
	else if (f->code >= 2 && f->code <= 5)
		snprintf(extra, sizeof(extra), " at 0x%08x", f->addr);
	snprintf(R->err->msg + n, sizeof(R->err->msg) - n, ": %s%s (SM fault code %u, cycle %llu)", w, extra, f->code,
	         (unsigned long long)R->cycle);
	switch (f->code) {
	case 2: case 3: case 4: case 5: return WG_EFAULT;
	case 8: return WG_EDEADLOCK;
	default: return WG_EILLEGAL;
	}
}

static int watchdog(struct run *R, int flushing)
{
	char *p = R->err->msg;
	size_t len = sizeof(R->err->msg);
	size_t n;

	if (flushing) {
		snprintf(p, len, "kernel '%s': the L1 flush after the last CTA did not finish in %llu cycles (cycle %llu, "
		         "%zu memory responses pending)", R->k->name, (unsigned long long)(R->cycle - R->last_retire),
		         (unsigned long long)R->cycle, R->qlen);
		return WG_ETIMEOUT;
	}
	n = (size_t)snprintf(p, len, "kernel '%s': no instruction retired for %llu cycles (cycle %llu); stuck:",
	                     R->k->name, (unsigned long long)(R->cycle - R->last_retire), (unsigned long long)R->cycle);

	for (uint32_t i = 0; i < R->nctas && n + 48 < len; i++) {
		const struct rcta *c = &R->ctas[i];
		uint32_t x, y, z;

		if (!c->used)
			continue;
		cta_xyz(R, c->linear, &x, &y, &z);
		for (uint32_t w = 0; w < R->nwarps && n + 48 < len; w++)
			n += (size_t)snprintf(p + n, len - n, " CTA (%u,%u,%u) warp %u after pc %u;", x, y, z, w,
			                      c->w[w].last_pc);
	}
	if (n + 40 < len)
		snprintf(p + n, len - n, " %zu memory responses pending", R->qlen);
	return WG_ETIMEOUT;
}

/* ------------------------------------------------------------------------ */
/* End-of-run comparison                                                     */

/* Run the golden model on ref (a copy of the initial memory) and compare every allocation. */
static int end_compare(struct run *R, struct wg_gmem *ref)
{
	struct wg_func *f;
	struct wg_stats st = { 0 };
	struct wg_err e = { { 0 } };
	int rc = wg_func_create(&f, ref, &R->S->cfg);

	if (rc)
		return rc;
	rc = wg_func_run(f, R->l, &st, NULL, &e);
	wg_func_destroy(f);
	if (rc) {
		snprintf(R->err->msg, sizeof(R->err->msg), "end-of-run check: the golden model stops: %.440s", e.msg);
		return WG_ELOCKSTEP;
	}
	for (uint32_t addr = 0, size; wg_gmem_next(ref, &addr, &size);) {
		const uint8_t *a = wg_gmem_ptr(R->S->gmem, addr, size);
		const uint8_t *b = wg_gmem_ptr(ref, addr, size);

		for (uint32_t o = 0; a && b && o < size; o++) {
			if (a[o] != b[o]) {
				snprintf(R->err->msg, sizeof(R->err->msg),
				         "lockstep: end of run: kernel '%s': byte at 0x%08x is %02x on the RTL, %02x on the "
				         "golden model", R->k->name, addr + o, a[o], b[o]);
				return WG_ELOCKSTEP;
			}
		}
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Launch                                                                    */

static int check_fit(struct run *R)
{
	const struct wg_launch *l = R->l;
	char buf[160];
	const char *why = wg_sim_misfit(&R->S->info, R->k, l, (R->S->l1_ctrl & L1_SPLIT48) != 0, buf, sizeof(buf));

	if (why) {
		snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': launch does not fit the SM: %s", R->k->name, why);
		return WG_ELAUNCH;
	}
	R->nwarps = (l->block.x * l->block.y * l->block.z + 31) / 32;
	return 0;
}

static int decode_info(struct run *R)
{
	R->pi = calloc(R->k->ninsns ? R->k->ninsns : 1, sizeof(*R->pi));
	if (!R->pi)
		return WG_ENOMEM;
	for (uint32_t pc = 0; pc < R->k->ninsns; pc++) {
		struct wg_insn in;
		struct pinfo *p = &R->pi[pc];

		if (wg_isa_decode(R->k->code[pc], &in, NULL, 0))
			continue;
		p->valid = 1;
		p->cls = in.e->cls;
		p->op = in.op;
		p->bytes = (uint8_t)((in.e->fmt == WG_FMT_LD || in.e->fmt == WG_FMT_ST) ? wg_width_bytes(in.mod) : 4);
		p->skip = in.op == WG_OP_S2R && (in.b == WG_SR_CLOCK || in.b == WG_SR_CLOCKHI);
	}
	return 0;
}

static void add_counters(struct sim *S, const struct wgsim_counter *before, int nb, const struct wgsim_counter *after,
                         int na)
{
	for (int i = 0; i < na && i < MAX_COUNTERS; i++) {
		uint64_t v = after[i].value, b = 0;
		int j;

		for (j = 0; j < nb; j++)
			if (before[j].name && after[i].name && !strcmp(before[j].name, after[i].name))
				b = before[j].value;
		v = v >= b ? v - b : v;
		for (j = 0; j < S->ncounters; j++)
			if (!strcmp(S->cname[j], after[i].name))
				break;
		if (j == S->ncounters) {
			if (S->ncounters == MAX_COUNTERS || !after[i].name || !(S->cname[j] = strdup(after[i].name)))
				continue;
			S->cval[j] = 0;
			S->ncounters++;
		}
		S->cval[j] += v;
	}
}

/* The change of counter name over the launch, modulo 2^32 (the RTL's width), in *d;
 * 0 when the model has no such counter. */
static int counter_delta(const char *name, const struct wgsim_counter *before, int nb,
                         const struct wgsim_counter *after, int na, uint32_t *d)
{
	uint64_t b = 0, a = 0;
	int found = 0;

	for (int j = 0; j < nb; j++)
		if (before[j].name && !strcmp(before[j].name, name))
			b = before[j].value;
	for (int j = 0; j < na; j++)
		if (after[j].name && !strcmp(after[j].name, name)) {
			a = after[j].value;
			found = 1;
		}
	*d = (uint32_t)(a - b);
	return found;
}

/*
 * The SM's execution counters (wg_sm_pkg::EC_*, what the gpu target reports) must
 * equal what the retire stream gave for the launch: st before (st0) and after it.
 * Returns 0, or WG_EMISMATCH with the first difference in err.
 */
static int check_exec_counters(const struct wg_stats *st0, const struct wg_stats *st,
                               const struct wgsim_counter *before, int nb,
                               const struct wgsim_counter *after, int na, const char *kname, struct wg_err *err)
{
	static const char *const cls[12] = { "threads_int", "threads_imul", "threads_fp", "threads_sfu",
		"threads_ldst_global", "threads_ldst_shared", "threads_ldst_local", "threads_ldst_param",
		"threads_atomic", "threads_branch", "threads_barrier", "threads_control" };
	struct { const char *name; uint64_t want; } c[16] = {
		{ "branches", st->branches - st0->branches },
		{ "divergent_branches", st->divergent_branches - st0->divergent_branches },
		{ "local_load_bytes", st->local_ld_bytes - st0->local_ld_bytes },
		{ "local_store_bytes", st->local_st_bytes - st0->local_st_bytes },
	};

	for (int k = 0; k < 12 && k < WG_CLASS_COUNT; k++)
		c[4 + k] = (typeof(c[0])){ cls[k], st->class_thread[k] - st0->class_thread[k] };
	for (int i = 0; i < 16; i++) {
		uint32_t got;

		if (!c[i].name || !counter_delta(c[i].name, before, nb, after, na, &got))
			continue;
		if (got != (uint32_t)c[i].want) {
			snprintf(err->msg, sizeof(err->msg), "kernel '%s': the SM's execution counter %s is %u, the "
			         "retire stream gives %llu", kname, c[i].name, got, (unsigned long long)c[i].want);
			return WG_EMISMATCH;
		}
	}
	return 0;
}

/*
 * The memory-pipeline counters of the launch (docs/memory-pipeline.md
 * section 2, 32-bit counters in the RTL) from the SM's counters before and
 * after it, by name, into st->mem.
 */
static void mem_counters(struct wg_stats *st, const struct wgsim_counter *before, int nb,
                         const struct wgsim_counter *after, int na)
{
	for (int i = 0; i < na; i++) {
		int k = after[i].name ? wg_memcnt_index(after[i].name) : -1;
		uint64_t b = 0;

		if (k < 0)
			continue;
		for (int j = 0; j < nb; j++)
			if (before[j].name && !strcmp(before[j].name, after[i].name))
				b = before[j].value;
		st->mem[k] += (uint32_t)(after[i].value - b);
	}
}

static double wall_seconds(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + 1e-6 * (double)tv.tv_usec;
}

static int run_loop(struct run *R)
{
	double w0 = wall_seconds(), wnext = w0 + 3.0; /* the progress line starts after 3 s */
	struct sim *S = R->S;
	const struct wg_launch *l = R->l;
	uint64_t total = (uint64_t)l->grid.x * l->grid.y * l->grid.z, next = 0, done = 0, flush_at = 0;
	struct wgsim_mreq *q = malloc(sizeof(*q));
	struct wgsim_retire *b = malloc(sizeof(*b));
	int rc = 0, flushing = 0;

	if (!q || !b) {
		rc = WG_ENOMEM;
		goto out;
	}
	R->last_retire = R->cycle = wgsim_cycle(S->s);
	for (;;) {
		struct wgsim_fault f;
		uint32_t lin;
		int stepped;

		while (next < total && wgsim_cta_pending(S->s) < 2) {
			uint32_t x, y, z;

			cta_xyz(R, (uint32_t)next, &x, &y, &z);
			rc = wgsim_cta_launch(S->s, x, y, z, (uint32_t)next);
			if (rc)
				goto out;
			next++;
		}
		stepped = wgsim_step(S->s, 1);
		R->cycle = wgsim_cycle(S->s);
		if ((R->cycle & 4095) == 0 && wg_progress_enabled() && wall_seconds() >= wnext) {
			double w = wall_seconds() - w0;

			wg_progress("%s: cycle %llu  CTAs %llu/%llu  %.0f cycles/s", R->k->name,
			            (unsigned long long)(R->cycle - R->cycle0), (unsigned long long)done,
			            (unsigned long long)total, w > 0 ? (double)(R->cycle - R->cycle0) / w : 0.0);
			wnext = wall_seconds() + 0.5;
		}
		/* beats first: they tell which warp a slot holds */
		while (!rc && wgsim_retire_pop(S->s, b) == 1)
			rc = retire_beat(R, b);
		while (!rc && wgsim_mreq_pop(S->s, q) == 1)
			rc = serve(R, q);
		while (!rc && R->qlen && R->q[R->qhead].due <= R->cycle) {
			rc = wgsim_mrsp_push(S->s, R->q[R->qhead].tag, R->q[R->qhead].rdata);
			R->qhead = (R->qhead + 1) % R->qcap;
			R->qlen--;
		}
		while (!rc && wgsim_cta_done(S->s, &lin) == 1) {
			struct rcta *c = find_cta(R, lin, 0);

			done++;
			R->last_retire = R->cycle;
			if (R->ls)
				rc = wg_lockstep_cta_done(R->ls, lin, R->cycle, R->err);
			if (c)
				c->used = 0;
		}
		if (rc)
			goto out;
		if (stepped == 1 || wgsim_fault(S->s, &f) == 1) {
			if (wgsim_fault(S->s, &f) == 1) {
				rc = sm_fault(R, &f);
				goto out;
			}
		}
		if (stepped < 0) {
			rc = stepped;
			snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': wgsim_step failed: %s", R->k->name,
			         wg_strerror(rc));
			goto out;
		}
		if (done == total && !flushing) {
			/* write the L1's dirty lines back before results are read (serve() applies them) */
			rc = wgsim_cfg_write(S->s, CFG_L1_CTRL, S->l1_ctrl | L1_FLUSH);
			if (rc) {
				snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': L1 flush request failed: %s",
				         R->k->name, wg_strerror(rc));
				goto out;
			}
			flushing = 1;
			flush_at = R->cycle;
			R->last_retire = R->cycle;
			continue;
		}
		if (flushing && R->cycle >= flush_at + FLUSH_SETTLE && !R->qlen && !wgsim_busy(S->s))
			break;
		if (R->cycle - R->last_retire > S->watchdog) {
			rc = watchdog(R, flushing);
			goto out;
		}
	}
	if (R->ls)
		rc = wg_lockstep_end(R->ls, R->cycle, R->err);
out:
	wg_progress_end();
	R->st->ctas += done;
	free(q);
	free(b);
	return rc;
}

/*
 * The trace window of the next launch, in its window cycles (the SM counts from 0 after its
 * reset): written by wgsim_reset before the window opens (docs/power-gating.md section 7.1).
 */
static int pgt_setup(struct sim *S, struct wg_err *err)
{
	uint64_t from = S->pgt_from > S->pgt_off ? S->pgt_from - S->pgt_off : 0;
	uint64_t to = !S->pgt_to ? PGT_NEVER : S->pgt_to > S->pgt_off ? S->pgt_to - S->pgt_off : 0;
	int rc;

	if (!S->pgt_file[0])
		return wgsim_pgt_window(S->s, 0, 0);
	if (!S->pgt) {
		rc = wg_pgtrace_create(&S->pgt, 1, S->info.num_simd, S->info.simd_width);
		if (rc) {
			snprintf(err->msg, sizeof(err->msg), "pg_trace: %u x %u lanes cannot be traced (%s)",
			         S->info.num_simd, S->info.simd_width, wg_strerror(rc));
			return rc;
		}
	}
	return wgsim_pgt_window(S->s, from, to);
}

/* The power-gating controls of the configuration into the SM's kernel registers. */
static int pg_setup(struct sim *S, struct wg_err *err)
{
	uint32_t regs[WG_PG_NREGS];
	char why[200];
	int rc = wg_pg_regs(&S->cfg, regs, why, sizeof(why));

	if (rc) {
		snprintf(err->msg, sizeof(err->msg), "power gating: %s", why);
		return rc;
	}

	for (uint32_t i = 1; i <= WG_PG_NREGS && !rc; i++) /* register 0 (PG_ISSUE) last */
		rc = wgsim_cfg_write(S->s, WG_PG_REG_FIRST + i % WG_PG_NREGS, regs[i % WG_PG_NREGS]);
	return rc;
}

/*
 * The trace records of the launch just closed, as TRACE blocks of kind 2 (docs/protocol.md
 * section 9) with the launch's first window cycle as base; then the VCD is rewritten.
 */
static int pgt_collect(struct sim *S, struct wg_err *err)
{
	enum { CHUNK = 16384 };
	uint32_t *w = malloc((3 + 2 * CHUNK) * sizeof(*w));
	uint64_t *r = malloc(CHUNK * sizeof(*r));
	char why[200];
	size_t n;
	int rc = w && r ? 0 : WG_ENOMEM;
	FILE *f;

	while (!rc && (n = wgsim_pgt_pop(S->s, r, CHUNK)) > 0) {
		w[0] = WG_PGT_KIND_RECORDS | (uint32_t)(2 + 2 * n) << 16; /* SM 0 */
		w[1] = (uint32_t)S->pgt_off;
		w[2] = (uint32_t)(S->pgt_off >> 32);
		for (size_t i = 0; i < n; i++) {
			w[3 + 2 * i] = (uint32_t)r[i];
			w[4 + 2 * i] = (uint32_t)(r[i] >> 32);
		}
		rc = wg_pgtrace_feed(S->pgt, w, 3 + 2 * n, why, sizeof(why));
		if (rc)
			snprintf(err->msg, sizeof(err->msg), "pg_trace: the SM's records do not decode: %s", why);
	}
	free(w);
	free(r);
	if (rc)
		return rc;
	f = fopen(S->pgt_file, "w");
	if (!f) {
		snprintf(err->msg, sizeof(err->msg), "pg_trace: cannot write '%.400s'", S->pgt_file);
		return WG_EIO;
	}
	rc = wg_pgtrace_write_vcd(S->pgt, f);
	S->pgt_vcd_bytes = (uint64_t)ftell(f);
	if (fclose(f) && !rc)
		rc = WG_EIO;
	if (rc)
		snprintf(err->msg, sizeof(err->msg), "pg_trace: writing '%.400s' failed (%s)", S->pgt_file, wg_strerror(rc));
	return rc;
}

/* Closes the SM's power-gating window after a launch and adds its counters to S->pg. */
static int pg_collect(struct sim *S, struct wg_stats *st, const uint64_t *class_thread0, struct wg_err *err)
{
	struct wgsim_pg *pg = malloc(sizeof(*pg));
	struct wg_pg_sm *sm = calloc(1, sizeof(*sm));
	struct wg_pg_counts *c = calloc(1, sizeof(*c));
	uint64_t ops[WG_CLASS_COUNT];
	char why[200];
	int rc = pg && sm && c ? 0 : WG_ENOMEM;

	rc = rc ? rc : wgsim_pg_close(S->s);
	rc = rc ? rc : wgsim_pg_read(S->s, pg);
	if (rc) {
		snprintf(err->msg, sizeof(err->msg), "power-gating counters of the SM could not be read (%s)",
		         rc == 1 ? "the SM faulted" : wg_strerror(rc));
		rc = rc == 1 ? WG_EINVAL : rc;
		goto out;
	}
	sm->lanes = pg->lanes;
	sm->units = pg->units;
	sm->cycles = pg->cycles;
	for (uint32_t i = 0; i < pg->lanes && i < WG_PG_MAX_LANES; i++) {
		sm->active[i] = pg->active[i];
		sm->idle[i] = pg->idle[i];
		sm->sleep[i] = pg->sleep[i];
		sm->wake[i] = pg->wake[i];
		sm->events[i] = pg->events[i];
	}
	for (uint32_t u = 0; u < pg->units && u < WG_PG_MAX_UNITS; u++) {
		sm->unit_sleep[u] = pg->unit_sleep[u];
		sm->unit_events[u] = pg->unit_events[u];
		sm->over_count[u] = pg->over_count[u];
		sm->over_sum[u] = pg->over_sum[u];
		sm->lost[u] = pg->lost[u];
		for (uint32_t b = 1; b <= WGSIM_PG_BINS && b <= WG_PG_HIST_BINS; b++)
			sm->hist[u][b] = pg->hist[u][b];
	}
	S->pgt_lost += pg->trace_lost;
	if (S->pgt)
		rc = pgt_collect(S, err);
	S->pgt_off += pg->cycles;
	if (rc)
		goto out;
	sm->wake_stall = pg->wake_stall;
	sm->core_active = pg->core_active;
	sm->core_sleep = pg->core_sleep;
	sm->core_events = pg->core_events;
	sm->core_wake_stall = pg->core_wake_stall;
	for (int k = 0; k < WG_CLASS_COUNT; k++)
		ops[k] = st->class_thread[k] - class_thread0[k];
	rc = wg_pg_counts_from_sm(sm, ops, c, why, sizeof(why));
	if (rc == WG_EINVAL) {
		snprintf(err->msg, sizeof(err->msg), "power-gating counters of the SM: %s", why);
		goto out;
	}
	if (rc)
		wg_warn("sim: power-gating counters of kernel launch %llu inconsistent: %s",
		        (unsigned long long)S->launches + 1, why);
	rc = 0;
	c->lanes = 0; /* lanes are counted once, not per launch */
	wg_pg_counts_add(S->pg, c);
	S->pg->lanes = pg->lanes;
out:
	free(pg);
	free(sm);
	free(c);
	return rc;
}

static int sim_launch(void *priv, const struct wg_launch *l, struct wg_stats *st, struct wg_retire_log *log,
                      struct wg_err *err)
{
	struct sim *S = priv;
	struct run R = { 0 };
	struct wgsim_counter *c0 = NULL, *c1 = NULL;
	struct wg_gmem *ref = NULL;
	uint32_t local_base = 0, threads, n0 = 0, n1 = 0;
	struct wg_stats st0;
	uint64_t total_threads, local_bytes;
	int rc, old_round = fegetround();
	uint64_t class_thread0[WG_CLASS_COUNT];

	R.S = S;
	R.l = l;
	R.k = l->kernel;
	R.st = st;
	R.log = log;
	R.err = err;
	err->msg[0] = '\0';
	rc = check_fit(&R);
	if (rc)
		return rc;
	threads = l->block.x * l->block.y * l->block.z;
	total_threads = (uint64_t)threads * l->grid.x * l->grid.y * l->grid.z;
	R.rec = malloc(sizeof(*R.rec));
	R.slot_cta = calloc(S->info.num_warps, sizeof(*R.slot_cta));
	R.slot_wic = calloc(S->info.num_warps, sizeof(*R.slot_wic));
	R.slot_known = calloc(S->info.num_warps, 1);
	c0 = calloc(MAX_COUNTERS, sizeof(*c0));
	c1 = calloc(MAX_COUNTERS, sizeof(*c1));
	if (!R.rec || !R.slot_cta || !R.slot_wic || !R.slot_known || !c0 || !c1 || decode_info(&R)) {
		rc = WG_ENOMEM;
		goto out;
	}
	if (S->lockstep == LOCKSTEP_END) {
		rc = wg_gmem_clone(S->gmem, &ref);
		if (rc) {
			snprintf(err->msg, sizeof(err->msg), "kernel '%s': cannot copy device memory for the end-of-run "
			         "check: %s", R.k->name, wg_strerror(rc));
			goto out;
		}
	}
	/*
	 * local memory: LOCAL_BYTES x TOTAL_THREADS, zeroed (docs/sm.md section 4), in whole
	 * 128-byte lines: the L1 fills and writes back whole lines (every byte enabled)
	 */
	local_bytes = (uint64_t)R.k->local_bytes * total_threads;
	local_bytes = (local_bytes + WGSIM_MEM_BYTES - 1) & ~(uint64_t)(WGSIM_MEM_BYTES - 1);
	if (local_bytes) {
		rc = wg_gmem_alloc(S->gmem, local_bytes, &local_base);
		if (rc) {
			snprintf(err->msg, sizeof(err->msg), "kernel '%s': no device memory for %llu bytes of local memory",
			         R.k->name, (unsigned long long)local_bytes);
			goto out;
		}
	}
	rc = pgt_setup(S, err);
	if (rc)
		goto out;
	wgsim_reset(S->s);
	rc = wgsim_cfg_write(S->s, 0, 0);                       /* START_PC */
	rc = rc ? rc : wgsim_cfg_write(S->s, 1, R.k->regs);
	rc = rc ? rc : wgsim_cfg_write(S->s, 2, R.k->shared_bytes + l->dyn_shared);
	rc = rc ? rc : wgsim_cfg_write(S->s, 3, R.k->local_bytes);
	rc = rc ? rc : wgsim_cfg_write(S->s, 4, local_base);
	rc = rc ? rc : wgsim_cfg_write(S->s, 5, l->block.x);
	rc = rc ? rc : wgsim_cfg_write(S->s, 6, l->block.y);
	rc = rc ? rc : wgsim_cfg_write(S->s, 7, l->block.z);
	rc = rc ? rc : wgsim_cfg_write(S->s, 8, l->grid.x);
	rc = rc ? rc : wgsim_cfg_write(S->s, 9, l->grid.y);
	rc = rc ? rc : wgsim_cfg_write(S->s, 10, l->grid.z);
	rc = rc ? rc : wgsim_cfg_write(S->s, 11, threads);
	rc = rc ? rc : wgsim_cfg_write(S->s, 12, R.k->param_bytes);
	rc = rc ? rc : wgsim_cfg_write(S->s, 13, S->sched);
	rc = rc ? rc : wgsim_cfg_write(S->s, 14, (uint32_t)total_threads);
	rc = rc ? rc : wgsim_cfg_write(S->s, 15, 0);
	rc = rc ? rc : wgsim_cfg_write(S->s, CFG_L1_CTRL, S->l1_ctrl | L1_FLUSH); /* mode, split, an empty L1 */
	rc = rc ? rc : pg_setup(S, err);
	rc = rc ? rc : wgsim_imem_write(S->s, 0, R.k->code, R.k->ninsns);
	if (!rc && R.k->param_bytes)
		rc = wgsim_cmem_write(S->s, l->params, R.k->param_bytes);
	if (rc) {
		snprintf(err->msg, sizeof(err->msg), "kernel '%s': kernel set-up on the SM failed: %s", R.k->name,
		         wg_strerror(rc));
		goto out;
	}
	if (S->lockstep == LOCKSTEP_ON) {
		rc = wg_lockstep_begin(&R.ls, S->gold, l, local_base, err);
		if (rc)
			goto out;
	}
	if (log)
		fprintf(wg_retire_file(log), "# kernel %s grid %u %u %u block %u %u %u\n", R.k->name, l->grid.x,
		        l->grid.y, l->grid.z, l->block.x, l->block.y, l->block.z);
	n0 = (uint32_t)wgsim_counters(S->s, c0, MAX_COUNTERS);
	memcpy(class_thread0, st->class_thread, sizeof(class_thread0));
	st0 = *st;
	fesetround(FE_TONEAREST); /* ATOMG.ADD.F32 on the host */
	R.cycle0 = wgsim_cycle(S->s);
	rc = run_loop(&R);
	fesetround(old_round);
	st->cycles += R.cycle - R.cycle0;
	n1 = (uint32_t)wgsim_counters(S->s, c1, MAX_COUNTERS);
	add_counters(S, c0, (int)(n0 < MAX_COUNTERS ? n0 : MAX_COUNTERS), c1, (int)(n1 < MAX_COUNTERS ? n1 : MAX_COUNTERS));
	mem_counters(st, c0, (int)(n0 < MAX_COUNTERS ? n0 : MAX_COUNTERS), c1, (int)(n1 < MAX_COUNTERS ? n1 : MAX_COUNTERS));
	if (!rc)
		rc = check_exec_counters(&st0, st, c0, (int)(n0 < MAX_COUNTERS ? n0 : MAX_COUNTERS), c1,
		                         (int)(n1 < MAX_COUNTERS ? n1 : MAX_COUNTERS), R.k->name, err);
	S->cycles += R.cycle - R.cycle0;
	S->warp_insts += st->warp_insts;
	S->launches++;
	S->lockstep_checked += wg_lockstep_checked(R.ls);
	if (!rc) {
		st->warps += st->ctas * R.nwarps;
		st->threads += st->ctas * threads;
	}
	if (!rc)
		rc = pg_collect(S, st, class_thread0, err);
	if (!rc && ref)
		rc = end_compare(&R, ref);
out:
	if (rc && R.ls)
		wg_dbg("sim: lockstep stopped after %llu instructions", (unsigned long long)wg_lockstep_checked(R.ls));
	wg_lockstep_destroy(R.ls, NULL);
	if (local_base)
		wg_gmem_free(S->gmem, local_base);
	if (ref)
		wg_gmem_destroy(ref);
	for (uint32_t i = 0; i < R.nctas; i++) {
		for (uint32_t j = 0; R.ctas[i].w && j < R.nwarps; j++)
			free(R.ctas[i].w[j].rob);
		free(R.ctas[i].w);
	}
	free(R.ctas);
	free(R.q);
	free(R.pi);
	free(R.rec);
	free(R.slot_cta);
	free(R.slot_wic);
	free(R.slot_known);
	free(c0);
	free(c1);
	return rc;
}

/* The object pg_trace (docs/power-gating.md section 7.3) with the check of section 7.4. */
static void pgt_json(struct sim *S, struct wg_json *j)
{
	struct wg_pgtrace_summary sum;
	uint64_t *lens = NULL, cycles = 0;
	size_t n = 0;
	char why[240] = "";
	int rc;

	wg_pgtrace_summary(S->pgt, &sum);
	wg_json_begin_object(j, "pg_trace");
	wg_json_str(j, "file", S->pgt_file);
	wg_json_u64(j, "from", S->pgt_from);
	if (S->pgt_to)
		wg_json_u64(j, "to", S->pgt_to);
	wg_json_u64(j, "records", sum.records);
	wg_json_u64(j, "windows", sum.windows);
	wg_json_u64(j, "lost", S->pgt_lost);
	wg_json_u64(j, "changes", wg_pgtrace_changes(S->pgt));
	if (!wg_pgtrace_intervals(S->pgt, &lens, &n)) {
		for (size_t i = 0; i < n; i++)
			cycles += lens[i];
		wg_json_u64(j, "intervals", n);
		wg_json_u64(j, "interval_cycles", cycles);
	}
	free(lens);
	wg_json_u64(j, "vcd_bytes", S->pgt_vcd_bytes);
	if (S->pgt_from || (S->pgt_to && S->pgt_to < S->pgt_off)) {
		wg_json_str(j, "oracle_check", "not checked: the window does not cover the run");
	} else {
		rc = wg_pgtrace_check_oracle(S->pgt, S->pg, WG_PG_HIST_BINS, why, sizeof(why));
		if (rc < 0)
			snprintf(why, sizeof(why), "check failed: %s", wg_strerror(rc));
		if (rc)
			wg_warn("sim: pg_trace: the trace and the histogram disagree: %s", why);
		wg_json_str(j, "oracle_check", rc ? why : "exact");
	}
	wg_json_end_object(j);
}

static void sim_stats_json(void *priv, struct wg_json *j)
{
	struct sim *S = priv;

	wg_json_u64(j, "cycles", S->cycles);
	wg_json_double(j, "ipc", S->cycles ? (double)S->warp_insts / (double)S->cycles : 0.0);
	wg_json_u64(j, "mem_requests", S->mem_reqs);
	wg_json_u64(j, "mem_latency", S->mem_latency);
	wg_json_str(j, "lockstep", S->lockstep == LOCKSTEP_ON ? "on" : S->lockstep == LOCKSTEP_END ? "end" : "off");
	wg_json_u64(j, "lockstep_checked_insts", S->lockstep_checked);
	wg_json_begin_object(j, "sm");
	for (int i = 0; i < S->ncounters; i++)
		wg_json_u64(j, S->cname[i], S->cval[i]);
	wg_json_end_object(j);
	if (S->launches) {
		struct wg_energy_params ep;
		char why[200] = "the energy model has no break-even time for these parameters";

		if (wg_energy_params_from_config(&S->cfg, &ep, why, sizeof(why)) ||
		    wg_power_to_json_sms(S->pg, S->pg, 1, &ep, j))
			wg_warn("sim: no power figures: %s", why);
	}
	if (S->pgt)
		pgt_json(S, j);
}

const struct wg_target_ops wg_target_sim = {
	.name = "sim",
	.description = "the Verilated SM RTL (cycle-level), optionally in lockstep with the golden model",
	.create = sim_create,
	.destroy = sim_destroy,
	.launch = sim_launch,
	.set_option = sim_set_option,
	.stats_json = sim_stats_json,
};

/*
 * Lockstep co-simulation: the device under test's retired instructions and
 * memory writes checked against the golden model's stepping API
 * (docs/cosim.md).
 *
 * Per warp, records arrive in program order. A record of a warp that the
 * golden model still holds at a barrier is kept until the barrier releases
 * (the device may retire a released warp's next instruction before the
 * last arrival's BAR.SYNC). Writes and atomics are matched per warp slot:
 * the golden model's expected accesses of a retired global store or atomic
 * and the device's requests may come in either order. An atomic request
 * matches the oldest expectation of its slot, pc and lane; each byte of a
 * write request (a lane's access or a coalesced 32/64/128 B access) matches
 * the expectations of its slot and pc of the oldest instruction covering
 * it, the highest lane's data where several lanes wrote it. Local stores
 * are not expected on the port (the device's L1 is write-back) and L1
 * write-backs are not matched.
 */
#include "lockstep.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memrules.h"
#include "warpgate.h"

struct exp_op {
	uint64_t inst;    /* the golden model's instruction (in check order) it belongs to */
	uint32_t cta, warp, pc, lane, slot;
	uint8_t cmd, atom_op, local;
	uint32_t addr, size;
	uint32_t atom_b, atom_c;
	uint32_t pending; /* bytes not yet seen (bit i = addr + i) */
	uint8_t data[16];
	uint64_t cycle;
};

struct deferred {
	struct deferred *next;
	uint32_t slot;
	uint64_t cycle;
	struct wg_func_ls_rec rec;
};

struct ls_warp {
	uint32_t slot;
	int seen;
	struct deferred *head, *tail;
};

struct ls_cta {
	int used;
	uint32_t linear;
	int done_seen;
	uint64_t done_cycle;
	struct ls_warp *warps;
};

struct wg_lockstep {
	struct wg_func_ls *g;
	const struct wg_launch *l;
	uint32_t nwarps;
	uint64_t total_ctas, finished;
	struct ls_cta *ctas;
	uint32_t nctas;
	uint8_t *cta_state; /* per CTA: 0 not begun, 1 running, 2 finished */
	struct exp_op *exp;
	size_t nexp, cap_exp;
	struct wg_ls_req *reqs; /* requests waiting for their expectation */
	size_t nreqs, cap_reqs;
	uint64_t checked;
	uint64_t ninst;   /* instructions that added expectations */
	struct wg_func_ls_rec gold;
	struct wg_err dummy;
};

static int lfail(struct wg_lockstep *ls, struct wg_err *err, uint64_t cycle, uint32_t cta, int warp, long pc,
                 int lane, const char *fmt, ...) __attribute__((format(printf, 8, 9)));

static int lfail(struct wg_lockstep *ls, struct wg_err *err, uint64_t cycle, uint32_t cta, int warp, long pc,
                 int lane, const char *fmt, ...)
{
	const wg_dim3 g = ls->l->grid;
	char *p = err->msg;
	size_t len = sizeof(err->msg), n;
	va_list ap;

	n = (size_t)snprintf(p, len, "lockstep: cycle %llu: kernel '%s': CTA (%u,%u,%u)", (unsigned long long)cycle,
	                     ls->l->kernel->name, cta % g.x, cta / g.x % g.y, cta / g.x / g.y);
	if (warp >= 0 && n < len)
		n += (size_t)snprintf(p + n, len - n, " warp %d", warp);
	if (pc >= 0 && n < len)
		n += (size_t)snprintf(p + n, len - n, " pc %ld", pc);
	if (lane >= 0 && n < len)
		n += (size_t)snprintf(p + n, len - n, " lane %d", lane);
	if (n + 2 < len) {
		p[n++] = ':';
		p[n++] = ' ';
		va_start(ap, fmt);
		vsnprintf(p + n, len - n, fmt, ap);
		va_end(ap);
	}
	return WG_ELOCKSTEP;
}

int wg_lockstep_begin(struct wg_lockstep **lsp, struct wg_func *f, const struct wg_launch *l, uint32_t local_base,
                      struct wg_err *err)
{
	struct wg_lockstep *ls;
	int rc;

	*lsp = NULL;
	ls = calloc(1, sizeof(*ls));
	if (!ls)
		return WG_ENOMEM;
	if (!err)
		err = &ls->dummy;
	rc = wg_func_ls_begin(f, l, WG_FUNC_LS_CHECK, local_base, &ls->g, err);
	if (rc) {
		free(ls);
		return rc;
	}
	ls->l = l;
	ls->nwarps = wg_func_ls_warps(ls->g);
	ls->total_ctas = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
	ls->cta_state = calloc(ls->total_ctas ? ls->total_ctas : 1, 1);
	if (!ls->cta_state) {
		wg_lockstep_destroy(ls, NULL);
		return WG_ENOMEM;
	}
	*lsp = ls;
	return 0;
}

static void free_cta(struct ls_cta *c, uint32_t nwarps)
{
	for (uint32_t w = 0; w < nwarps && c->warps; w++) {
		struct deferred *d = c->warps[w].head;

		while (d) {
			struct deferred *n = d->next;

			free(d);
			d = n;
		}
		c->warps[w].head = c->warps[w].tail = NULL;
	}
}

void wg_lockstep_destroy(struct wg_lockstep *ls, struct wg_stats *st)
{
	if (!ls)
		return;
	for (uint32_t i = 0; i < ls->nctas; i++) {
		free_cta(&ls->ctas[i], ls->nwarps);
		free(ls->ctas[i].warps);
	}
	free(ls->ctas);
	wg_func_ls_end(ls->g, st);
	free(ls->cta_state);
	free(ls->exp);
	free(ls->reqs);
	free(ls);
}

uint64_t wg_lockstep_checked(const struct wg_lockstep *ls)
{
	return ls ? ls->checked : 0;
}

static struct ls_cta *find_cta(struct wg_lockstep *ls, uint32_t cta)
{
	for (uint32_t i = 0; i < ls->nctas; i++)
		if (ls->ctas[i].used && ls->ctas[i].linear == cta)
			return &ls->ctas[i];
	return NULL;
}

static struct ls_cta *begin_cta(struct wg_lockstep *ls, uint32_t cta, uint64_t cycle, struct wg_err *err, int *rc)
{
	struct ls_cta *c = NULL;

	if (cta >= ls->total_ctas || ls->cta_state[cta]) {
		*rc = lfail(ls, err, cycle, cta, -1, -1, -1, "%s", cta >= ls->total_ctas ? "CTA outside the grid" :
		            "instruction of a CTA that has already finished");
		return NULL;
	}
	for (uint32_t i = 0; i < ls->nctas && !c; i++)
		if (!ls->ctas[i].used)
			c = &ls->ctas[i];
	if (!c) {
		struct ls_cta *n = realloc(ls->ctas, (ls->nctas + 1) * sizeof(*n));

		if (!n) {
			*rc = WG_ENOMEM;
			return NULL;
		}
		ls->ctas = n;
		c = &ls->ctas[ls->nctas++];
		memset(c, 0, sizeof(*c));
		c->warps = calloc(ls->nwarps, sizeof(*c->warps));
		if (!c->warps) {
			ls->nctas--;
			*rc = WG_ENOMEM;
			return NULL;
		}
	}
	*rc = wg_func_ls_cta_begin(ls->g, cta, err);
	if (*rc)
		return NULL;
	memset(c->warps, 0, ls->nwarps * sizeof(*c->warps));
	c->used = 1;
	c->linear = cta;
	c->done_seen = 0;
	ls->cta_state[cta] = 1;
	return c;
}

/* ------------------------------------------------------------------------ */
/* Record comparison                                                         */

static const char *dst_text(const struct wg_func_ls_rec *r, char *buf, size_t len)
{
	if (r->dst == WG_RD_REG && r->nregs > 1)
		snprintf(buf, len, "R%ux%u", r->reg, r->nregs);
	else if (r->dst == WG_RD_REG)
		snprintf(buf, len, "R%u", r->reg);
	else if (r->dst == WG_RD_PRED)
		snprintf(buf, len, "P%u", r->reg);
	else
		snprintf(buf, len, "-");
	return buf;
}

int wg_lockstep_compare(const struct wg_func_ls_rec *e, const struct wg_func_ls_rec *a, char *why, size_t len)
{
	char d1[16], d2[16];

	if (e->pc != a->pc) {
		snprintf(why, len, "pc differs: expected %u, actual %u", e->pc, a->pc);
		return 1;
	}
	if (e->active != a->active) {
		snprintf(why, len, "active mask differs: expected %08x, actual %08x", e->active, a->active);
		return 1;
	}
	if (e->exec != a->exec) {
		snprintf(why, len, "execution mask differs: expected %08x, actual %08x", e->exec, a->exec);
		return 1;
	}
	if (e->dst != a->dst || (e->dst != WG_RD_NONE && e->reg != a->reg) ||
	    (e->dst == WG_RD_REG && e->nregs != a->nregs)) {
		snprintf(why, len, "destination differs: expected %s, actual %s", dst_text(e, d1, sizeof(d1)),
		         dst_text(a, d2, sizeof(d2)));
		return 1;
	}
	if (e->skip || a->skip)
		return 0;
	if (e->dst == WG_RD_PRED && ((e->pred ^ a->pred) & e->exec)) {
		snprintf(why, len, "P%u differs: expected %08x, actual %08x (lanes of exec %08x)", e->reg,
		         e->pred & e->exec, a->pred & e->exec, e->exec);
		return 1;
	}
	if (e->dst == WG_RD_REG) {
		for (uint32_t m = e->exec; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);

			for (unsigned k = 0; k < e->nregs && k < 4; k++) {
				if (e->vals[l][k] != a->vals[l][k]) {
					snprintf(why, len, "lane %u: R%u differs: expected %08x, actual %08x", l,
					         e->reg + k, e->vals[l][k], a->vals[l][k]);
					return 1;
				}
			}
		}
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Memory requests                                                           */

static uint32_t req_bytes(const struct wg_ls_req *r)
{
	return 1u << r->size;
}

static void drop_done(struct wg_lockstep *ls)
{
	size_t j = 0;

	for (size_t i = 0; i < ls->nexp; i++)
		if (ls->exp[i].pending)
			ls->exp[j++] = ls->exp[i];
	ls->nexp = j;
}

/*
 * Try to match request r. Returns 1 when matched, 0 when no expectation
 * covers it yet, or a negative error for a difference.
 */
static int match_req(struct wg_lockstep *ls, const struct wg_ls_req *r, struct wg_err *err)
{
	if (r->cmd == 2) {
		for (size_t i = 0; i < ls->nexp; i++) {
			struct exp_op *e = &ls->exp[i];

			if (e->slot != r->slot || e->cmd != 2 || e->pc != r->pc || e->lane != r->lane)
				continue;
			if (e->addr != r->addr || e->atom_op != r->atom_op || e->atom_b != r->atom_b ||
			    (e->atom_op == 4 && e->atom_c != r->atom_c))
				return lfail(ls, err, r->cycle, e->cta, (int)e->warp, e->pc, (int)e->lane,
				             "atomic request differs: expected op %u at 0x%08x b %08x c %08x, "
				             "actual op %u at 0x%08x b %08x c %08x", e->atom_op, e->addr, e->atom_b,
				             e->atom_c, r->atom_op, r->addr, r->atom_b, r->atom_c);
			e->pending = 0;
			drop_done(ls);
			return 1;
		}
		return 0;
	}
	/* write: every enabled byte must be covered */
	{
		uint32_t block = r->addr & ~(uint32_t)(WG_LS_MEM_BYTES - 1);
		long hit[WG_LS_MEM_BYTES];
		size_t *cand, ncand = 0;
		int any = 0, rc = 1;

		/* expectations of the slot and pc that overlap the block */
		cand = malloc((ls->nexp ? ls->nexp : 1) * sizeof(*cand));
		if (!cand)
			return WG_ENOMEM;
		for (size_t i = 0; i < ls->nexp; i++) {
			const struct exp_op *e = &ls->exp[i];

			if (e->slot == r->slot && e->cmd == 1 && e->pc == r->pc && e->addr < block + WG_LS_MEM_BYTES &&
			    e->addr + e->size > block)
				cand[ncand++] = i;
		}
		/* per byte: the highest lane of the oldest instruction that has the byte pending */
		for (unsigned i = 0; i < WG_LS_MEM_BYTES && rc == 1; i++) {
			hit[i] = -1;
			if (!r->wmask[i])
				continue;
			any = 1;
			for (size_t k = 0; k < ncand; k++) {
				const struct exp_op *e = &ls->exp[cand[k]], *h;
				uint32_t off = block + i - e->addr;

				if (off >= e->size || !(e->pending >> off & 1))
					continue;
				h = hit[i] >= 0 ? &ls->exp[hit[i]] : NULL;
				if (!h || e->inst < h->inst || (e->inst == h->inst && e->lane > h->lane))
					hit[i] = (long)cand[k];
			}
			if (hit[i] < 0)
				rc = 0; /* not expected yet */
		}
		for (unsigned i = 0; i < WG_LS_MEM_BYTES && rc == 1 && any; i++) {
			const struct exp_op *e;
			uint32_t off;

			if (hit[i] < 0)
				continue;
			e = &ls->exp[hit[i]];
			off = block + i - e->addr;
			if (e->data[off] != r->wdata[i])
				rc = lfail(ls, err, r->cycle, e->cta, (int)e->warp, e->pc, (int)e->lane,
				           "%s store data differs at 0x%08x: expected byte %02x, actual %02x",
				           e->local ? "local" : "global", block + i, e->data[off], r->wdata[i]);
		}
		/* every lane of that instruction that wrote the byte has been seen */
		for (unsigned i = 0; i < WG_LS_MEM_BYTES && rc == 1 && any; i++) {
			uint64_t inst;

			if (hit[i] < 0)
				continue;
			inst = ls->exp[hit[i]].inst;
			for (size_t k = 0; k < ncand; k++) {
				struct exp_op *e = &ls->exp[cand[k]];
				uint32_t off = block + i - e->addr;

				if (e->inst == inst && off < e->size)
					e->pending &= ~(1u << off);
			}
		}
		free(cand);
		if (rc == 1 && any)
			drop_done(ls);
		return rc;
	}
}

static int push_req(struct wg_lockstep *ls, const struct wg_ls_req *r)
{
	if (ls->nreqs == ls->cap_reqs) {
		size_t cap = ls->cap_reqs ? 2 * ls->cap_reqs : 64;
		struct wg_ls_req *n = realloc(ls->reqs, cap * sizeof(*n));

		if (!n)
			return WG_ENOMEM;
		ls->reqs = n;
		ls->cap_reqs = cap;
	}
	ls->reqs[ls->nreqs++] = *r;
	return 0;
}

/* Retry the waiting requests of slot in arrival order. */
static int retry_reqs(struct wg_lockstep *ls, uint32_t slot, struct wg_err *err)
{
	size_t j = 0;
	int rc = 0;

	for (size_t i = 0; i < ls->nreqs; i++) {
		int m = 0;

		if (!rc && ls->reqs[i].slot == slot) {
			m = match_req(ls, &ls->reqs[i], err);
			if (m < 0) {
				rc = m;
				m = 0;
			}
		}
		if (!m)
			ls->reqs[j++] = ls->reqs[i];
	}
	ls->nreqs = j;
	return rc;
}

int wg_lockstep_mreq(struct wg_lockstep *ls, const struct wg_ls_req *r, struct wg_err *err)
{
	int m;

	if (!err)
		err = &ls->dummy;
	if (r->wb) {
		/* an L1 write-back (eviction or flush): local data, not tied to an instruction */
		if (r->cmd != 1)
			return lfail(ls, err, r->cycle, 0, -1, -1, -1,
			             "L1 write-back request at 0x%08x is not a write (command %u)", r->addr, r->cmd);
		return 0;
	}
	if (r->cmd != 1 && r->cmd != 2)
		return 0;
	if (r->cmd == 1 && r->addr & (req_bytes(r) - 1))
		return lfail(ls, err, r->cycle, 0, -1, r->pc, (int)r->lane,
		             "write request at 0x%08x of %u bytes is misaligned (warp slot %u)", r->addr, req_bytes(r),
		             r->slot);
	m = match_req(ls, r, err);
	if (m < 0)
		return m;
	if (m == 0)
		return push_req(ls, r);
	return 0;
}

static int add_expected(struct wg_lockstep *ls, uint32_t slot, uint64_t cycle, const struct wg_func_ls_rec *g)
{
	uint64_t inst = ls->ninst++;

	for (uint32_t i = 0; i < g->nmem; i++) {
		const struct wg_func_ls_mem *m = &g->mem[i];
		struct exp_op *e;

		if (m->local && m->cmd == 1)
			continue; /* cached write-back in the L1: checked through later LDL values */
		if (ls->nexp == ls->cap_exp) {
			size_t cap = ls->cap_exp ? 2 * ls->cap_exp : 256;
			struct exp_op *n = realloc(ls->exp, cap * sizeof(*n));

			if (!n)
				return WG_ENOMEM;
			ls->exp = n;
			ls->cap_exp = cap;
		}
		e = &ls->exp[ls->nexp++];
		memset(e, 0, sizeof(*e));
		e->inst = inst;
		e->cta = g->cta;
		e->warp = g->warp;
		e->pc = g->pc;
		e->lane = m->lane;
		e->slot = slot;
		e->cmd = m->cmd;
		e->atom_op = m->atom_op;
		e->local = m->local;
		e->addr = m->addr;
		e->size = m->size;
		e->atom_b = m->atom_b;
		e->atom_c = m->atom_c;
		e->pending = m->cmd == 2 ? 1 : (m->size >= 32 ? 0xFFFFFFFFu : (1u << m->size) - 1);
		memcpy(e->data, m->data, sizeof(e->data));
		e->cycle = cycle;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Retirement                                                                */

static int finish_cta(struct wg_lockstep *ls, struct ls_cta *c, struct wg_err *err);

/* Check one record of a running warp against the golden model's step. */
static int check_one(struct wg_lockstep *ls, struct ls_cta *c, uint32_t slot, uint64_t cycle,
                     const struct wg_func_ls_rec *obs, struct wg_err *err)
{
	struct wg_func_ls_rec *g = &ls->gold;
	char why[256];
	uint32_t pc = 0;
	int rc;

	wg_func_ls_warp(ls->g, c->linear, obs->warp, &pc);
	if (pc != obs->pc)
		return lfail(ls, err, cycle, c->linear, (int)obs->warp, obs->pc, -1,
		             "pc differs: expected %u, actual %u (active %08x)", pc, obs->pc, obs->active);
	rc = wg_func_ls_step(ls->g, c->linear, obs->warp, obs, g, err);
	if (rc && rc != WG_EDEADLOCK) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		return lfail(ls, err, cycle, c->linear, (int)obs->warp, obs->pc, -1,
		             "the device retired an instruction on which the golden model stops: %s", msg);
	}
	if (wg_lockstep_compare(g, obs, why, sizeof(why)))
		return lfail(ls, err, cycle, c->linear, (int)obs->warp, obs->pc, -1, "%s", why);
	if (rc == WG_EDEADLOCK) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		return lfail(ls, err, cycle, c->linear, (int)obs->warp, obs->pc, -1, "golden model: %s", msg);
	}
	ls->checked++;
	if (g->nmem) {
		rc = add_expected(ls, slot, cycle, g);
		if (!rc)
			rc = retry_reqs(ls, slot, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* Run the kept records of warps that a barrier release let go. */
static int drain_deferred(struct wg_lockstep *ls, struct ls_cta *c, struct wg_err *err)
{
	int progress = 1, rc;

	while (progress) {
		progress = 0;
		for (uint32_t w = 0; w < ls->nwarps; w++) {
			struct ls_warp *lw = &c->warps[w];

			while (lw->head && wg_func_ls_warp(ls->g, c->linear, w, NULL) == WG_FUNC_WARP_RUN) {
				struct deferred *d = lw->head;

				lw->head = d->next;
				if (!lw->head)
					lw->tail = NULL;
				rc = check_one(ls, c, d->slot, d->cycle, &d->rec, err);
				free(d);
				if (rc)
					return rc;
				progress = 1;
			}
		}
	}
	return 0;
}

int wg_lockstep_retire(struct wg_lockstep *ls, uint32_t slot, uint64_t cycle, const struct wg_func_ls_rec *obs,
                       struct wg_err *err)
{
	struct ls_cta *c;
	struct ls_warp *lw;
	int rc = 0, st;

	if (!err)
		err = &ls->dummy;
	c = find_cta(ls, obs->cta);
	if (!c) {
		c = begin_cta(ls, obs->cta, cycle, err, &rc);
		if (!c)
			return rc;
	}
	if (obs->warp >= ls->nwarps)
		return lfail(ls, err, cycle, obs->cta, (int)obs->warp, obs->pc, -1, "warp index outside the CTA (%u warps)",
		             ls->nwarps);
	lw = &c->warps[obs->warp];
	lw->slot = slot;
	lw->seen = 1;
	st = wg_func_ls_warp(ls->g, c->linear, obs->warp, NULL);
	if (st == WG_FUNC_WARP_DONE)
		return lfail(ls, err, cycle, obs->cta, (int)obs->warp, obs->pc, -1,
		             "the device retired an instruction after the warp finished");
	if (st == WG_FUNC_WARP_WAIT || lw->head) {
		struct deferred *d = malloc(sizeof(*d));

		if (!d)
			return WG_ENOMEM;
		d->next = NULL;
		d->slot = slot;
		d->cycle = cycle;
		d->rec = *obs;
		if (lw->tail)
			lw->tail->next = d;
		else
			lw->head = d;
		lw->tail = d;
		return 0;
	}
	rc = check_one(ls, c, slot, cycle, obs, err);
	if (!rc && ls->gold.state != WG_FUNC_WARP_RUN)
		rc = drain_deferred(ls, c, err);
	if (!rc && c->done_seen)
		rc = finish_cta(ls, c, err);
	return rc;
}

/* All warps of c finished on both sides: every expected access must have been seen. */
static int finish_cta(struct wg_lockstep *ls, struct ls_cta *c, struct wg_err *err)
{
	for (uint32_t w = 0; w < ls->nwarps; w++)
		if (wg_func_ls_warp(ls->g, c->linear, w, NULL) != WG_FUNC_WARP_DONE)
			return 0; /* wait for the remaining retirements */
	for (size_t i = 0; i < ls->nexp; i++) {
		const struct exp_op *e = &ls->exp[i];

		if (e->cta == c->linear)
			return lfail(ls, err, c->done_cycle, e->cta, (int)e->warp, e->pc, (int)e->lane,
			             "%s %s of %u bytes at 0x%08x never reached the memory port",
			             e->local ? "local" : "global", e->cmd == 2 ? "atomic" : "store", e->size, e->addr);
	}
	for (size_t i = 0; i < ls->nreqs; i++) {
		const struct wg_ls_req *r = &ls->reqs[i];

		for (uint32_t w = 0; w < ls->nwarps; w++)
			if (c->warps[w].seen && c->warps[w].slot == r->slot)
				return lfail(ls, err, r->cycle, c->linear, (int)w, r->pc, (int)r->lane,
				             "unexpected %s request at 0x%08x (%u bytes) from warp slot %u",
				             r->cmd == 2 ? "atomic" : "write", r->addr, req_bytes(r), r->slot);
	}
	free_cta(c, ls->nwarps);
	wg_func_ls_cta_end(ls->g, c->linear);
	ls->cta_state[c->linear] = 2;
	c->used = 0;
	ls->finished++;
	return 0;
}

int wg_lockstep_cta_done(struct wg_lockstep *ls, uint32_t cta, uint64_t cycle, struct wg_err *err)
{
	struct ls_cta *c;
	int rc = 0;

	if (!err)
		err = &ls->dummy;
	c = find_cta(ls, cta);
	if (!c) {
		/* a CTA that retired nothing cannot be: every warp retires at least its EXIT */
		if (cta < ls->total_ctas && ls->cta_state[cta] == 2)
			return lfail(ls, err, cycle, cta, -1, -1, -1, "CTA reported done twice");
		c = begin_cta(ls, cta, cycle, err, &rc);
		if (!c)
			return rc;
	}
	c->done_seen = 1;
	c->done_cycle = cycle;
	return finish_cta(ls, c, err);
}

int wg_lockstep_end(struct wg_lockstep *ls, uint64_t cycle, struct wg_err *err)
{
	if (!err)
		err = &ls->dummy;
	for (uint32_t i = 0; i < ls->nctas; i++) {
		struct ls_cta *c = &ls->ctas[i];

		if (!c->used)
			continue;
		for (uint32_t w = 0; w < ls->nwarps; w++) {
			uint32_t pc = 0;
			int st = wg_func_ls_warp(ls->g, c->linear, w, &pc);

			if (st != WG_FUNC_WARP_DONE)
				return lfail(ls, err, cycle, c->linear, (int)w, pc, -1,
				             "the golden model's warp %s, the device %s",
				             st == WG_FUNC_WARP_WAIT ? "waits at a barrier" : "has not finished",
				             c->done_seen ? "reported the CTA done" : "stopped retiring it");
		}
		if (!c->done_seen)
			return lfail(ls, err, cycle, c->linear, -1, -1, -1, "every warp finished but the CTA never completed");
	}
	if (ls->finished != ls->total_ctas) {
		for (uint64_t i = 0; i < ls->total_ctas; i++)
			if (ls->cta_state[i] != 2)
				return lfail(ls, err, cycle, (uint32_t)i, -1, -1, -1, "CTA never ran (%llu of %llu finished)",
				             (unsigned long long)ls->finished, (unsigned long long)ls->total_ctas);
	}
	if (ls->nreqs) {
		const struct wg_ls_req *r = &ls->reqs[0];

		return lfail(ls, err, r->cycle, 0, -1, r->pc, (int)r->lane,
		             "unexpected %s request at 0x%08x from warp slot %u", r->cmd == 2 ? "atomic" : "write",
		             r->addr, r->slot);
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Self-check: a golden model as the device under test                      */

struct pend_req {
	uint64_t due;
	uint32_t cta;
	struct wg_ls_req r;
};

struct sc {
	struct pend_req *q;
	size_t n, cap;
	uint64_t rng;
};

static uint64_t sc_rand(struct sc *s)
{
	uint64_t z = (s->rng += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Deliver queued requests due by step now (all of cta when cta_all != -1). */
static int sc_deliver(struct sc *s, struct wg_lockstep *ls, uint64_t now, long cta_all, struct wg_err *err)
{
	size_t j = 0;
	int rc = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (!rc && (s->q[i].due <= now || (cta_all >= 0 && s->q[i].cta == (uint32_t)cta_all))) {
			rc = wg_lockstep_mreq(ls, &s->q[i].r, err);
			continue;
		}
		s->q[j++] = s->q[i];
	}
	s->n = j;
	return rc;
}

/* Queue request r of a CTA, due within max_delay steps of step - 1; requests of one slot stay in order. */
static int sc_queue(struct sc *s, const struct wg_ls_req *r, uint32_t cta, uint64_t step, uint32_t max_delay)
{
	uint64_t due = step - 1 + sc_rand(s) % (max_delay + 1);
	struct pend_req *p;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct pend_req *n = realloc(s->q, cap * sizeof(*n));

		if (!n)
			return WG_ENOMEM;
		s->q = n;
		s->cap = cap;
	}
	for (size_t k = 0; k < s->n; k++)
		if (s->q[k].r.slot == r->slot && s->q[k].due > due)
			due = s->q[k].due;
	p = &s->q[s->n++];
	p->due = due;
	p->cta = cta;
	p->r = *r;
	return 0;
}

/* The bytes of a lane's store into a request's block. */
static void sc_bytes(struct wg_ls_req *q, const struct wg_func_ls_mem *m)
{
	uint32_t off = m->addr & (WG_LS_MEM_BYTES - 1);

	for (unsigned b = 0; b < m->size && off + b < WG_LS_MEM_BYTES; b++) {
		q->wmask[off + b] = 1;
		q->wdata[off + b] = m->data[b];
	}
}

/* Lane i's store bytes that no higher lane of the same instruction overwrites (one request per lane). */
static int sc_lane_bytes(struct wg_ls_req *q, const struct wg_func_ls_rec *rec, uint32_t i)
{
	const struct wg_func_ls_mem *m = &rec->mem[i];
	uint32_t off = m->addr & (WG_LS_MEM_BYTES - 1);
	int any = 0;

	for (unsigned b = 0; b < m->size && off + b < WG_LS_MEM_BYTES; b++) {
		uint32_t a = m->addr + b;
		int later = 0;

		for (uint32_t j = 0; j < rec->nmem && !later; j++) {
			const struct wg_func_ls_mem *o = &rec->mem[j];

			later = o->cmd == 1 && !o->local && o->lane > m->lane && a - o->addr < o->size;
		}
		if (later)
			continue;
		q->wmask[off + b] = 1;
		q->wdata[off + b] = m->data[b];
		any = 1;
	}
	return any;
}

/*
 * The memory-port requests of the device under test's instruction rec, as
 * the memory pipeline sends them: global stores coalesced (WG_COAL_STORE,
 * lanes applied in ascending order so the highest lane's bytes stay), or one
 * per lane with per_lane (without the bytes a higher lane overwrites);
 * atomics one per thread; local stores only as L1 write-backs (a whole
 * line, wb, no debug fields).
 */
static int sc_requests(struct sc *s, const struct wg_func_ls_rec *rec, uint32_t slot, uint32_t cta, uint64_t step,
                       uint32_t max_delay, int per_lane)
{
	uint8_t used[WG_FUNC_LS_MAXMEM] = { 0 };
	struct wg_coal_tx tx[WG_MR_LANES];
	struct wg_ls_req *q = malloc(sizeof(*q));
	int rc = 0;

	if (!q)
		return WG_ENOMEM;
	for (uint32_t i = 0; i < rec->nmem && !rc; i++) {
		const struct wg_func_ls_mem *m = &rec->mem[i];
		uint32_t mask = 0, addr[WG_MR_LANES] = { 0 };
		uint8_t idx[WG_MR_LANES] = { 0 };
		unsigned ntx;

		if (used[i])
			continue;
		memset(q, 0, sizeof(*q));
		q->cycle = step;
		q->slot = slot;
		q->pc = rec->pc;
		q->lane = m->lane;
		q->cmd = m->cmd;
		q->size = (uint8_t)__builtin_ctz(m->size);
		q->atom_op = m->atom_op;
		q->local = m->local;
		q->addr = m->addr;
		q->atom_b = m->atom_b;
		q->atom_c = m->atom_c;
		if (m->cmd == 1 && m->local) {
			q->wb = 1;
			q->slot = q->pc = q->lane = 0;
			q->size = 7;
			q->addr = m->addr & ~(uint32_t)(WG_LS_MEM_BYTES - 1);
			memset(q->wmask, 1, sizeof(q->wmask));
			sc_bytes(q, m);
		} else if (m->cmd == 1 && per_lane && !sc_lane_bytes(q, rec, i)) {
			continue; /* every byte overwritten by a higher lane */
		}
		if (m->cmd != 1 || m->local || per_lane) {
			rc = sc_queue(s, q, cta, step, max_delay);
			continue;
		}
		/* one instruction's global stores, one per lane (a record may list a lane twice: another group) */
		for (uint32_t j = i; j < rec->nmem; j++) {
			const struct wg_func_ls_mem *o = &rec->mem[j];

			if (used[j] || o->cmd != 1 || o->local || (mask >> o->lane & 1) || o->lane >= WG_MR_LANES)
				continue;
			mask |= 1u << o->lane;
			addr[o->lane] = o->addr;
			idx[o->lane] = (uint8_t)j;
			used[j] = 1;
		}
		ntx = wg_coalesce(WG_COAL_STORE, mask, addr, (unsigned)__builtin_ctz(m->size), tx);
		for (unsigned t = 0; t < ntx && !rc; t++) {
			memset(q->wmask, 0, sizeof(q->wmask));
			memset(q->wdata, 0, sizeof(q->wdata));
			q->addr = tx[t].addr;
			q->size = tx[t].size;
			q->lane = (uint32_t)__builtin_ctz(tx[t].lanes);
			for (uint32_t l = tx[t].lanes; l; l &= l - 1)
				sc_bytes(q, &rec->mem[idx[__builtin_ctz(l)]]);
			rc = sc_queue(s, q, cta, step, max_delay);
		}
	}
	free(q);
	return rc;
}

int wg_lockstep_selfcheck(struct wg_func *dut, struct wg_func *ref, const struct wg_launch *l,
                          const struct wg_selfcheck_opts *o, struct wg_stats *st, struct wg_retire_log *log,
                          struct wg_err *err)
{
	struct wg_selfcheck_opts opts = o ? *o : (struct wg_selfcheck_opts){ 0 };
	struct wg_func_ls *d = NULL;
	struct wg_lockstep *ls = NULL;
	struct wg_func_ls_rec *rec = NULL;
	struct sc s = { 0 };
	uint64_t total = (uint64_t)l->grid.x * l->grid.y * l->grid.z, next = 0, step = 0, index = 0;
	uint32_t *res = NULL, nres = 0, nwarps;
	int rc;

	if (!opts.resident_ctas)
		opts.resident_ctas = 4;
	if (!opts.max_delay)
		opts.max_delay = 8;
	if (!opts.local_base)
		opts.local_base = 0x80000000u;
	s.rng = opts.seed;
	rc = wg_func_ls_begin(dut, l, WG_FUNC_LS_EXEC, opts.local_base, &d, err);
	if (rc)
		return rc;
	rc = wg_lockstep_begin(&ls, ref, l, opts.local_base, err);
	if (rc)
		goto out;
	rec = malloc(sizeof(*rec));
	res = calloc(opts.resident_ctas, sizeof(*res));
	if (!rec || !res) {
		rc = WG_ENOMEM;
		goto out;
	}
	nwarps = wg_func_ls_warps(d);
	if (log)
		fprintf(wg_retire_file(log), "# kernel %s grid %u %u %u block %u %u %u\n", l->kernel->name, l->grid.x,
		        l->grid.y, l->grid.z, l->block.x, l->block.y, l->block.z);

	for (;;) {
		uint32_t pick, ci, w, tries, slot;

		while (nres < opts.resident_ctas && next < total) {
			rc = wg_func_ls_cta_begin(d, (uint32_t)next, err);
			if (rc)
				goto out;
			res[nres++] = (uint32_t)next++;
		}
		if (!nres)
			break;
		/* a random runnable warp of a random resident CTA */
		pick = (uint32_t)(sc_rand(&s) % ((uint64_t)nres * nwarps));
		for (tries = 0; tries < nres * nwarps; tries++) {
			uint32_t k = (pick + tries) % (nres * nwarps);

			ci = k / nwarps;
			w = k % nwarps;
			if (wg_func_ls_warp(d, res[ci], w, NULL) == WG_FUNC_WARP_RUN)
				break;
		}
		if (tries == nres * nwarps) {
			/* nothing runnable: finish the CTAs whose warps are all done */
			int any = 0;

			for (ci = 0; ci < nres;) {
				uint32_t done = 0;

				for (w = 0; w < nwarps; w++)
					done += wg_func_ls_warp(d, res[ci], w, NULL) == WG_FUNC_WARP_DONE;
				if (done == nwarps) {
					rc = sc_deliver(&s, ls, step, res[ci], err);
					if (!rc)
						rc = wg_lockstep_cta_done(ls, res[ci], step, err);
					if (rc)
						goto out;
					wg_func_ls_cta_end(d, res[ci]);
					res[ci] = res[--nres];
					any = 1;
				} else {
					ci++;
				}
			}
			if (!any) {
				snprintf(err->msg, sizeof(err->msg), "self-check: kernel '%s': no warp can run",
				         l->kernel->name);
				rc = WG_EDEADLOCK;
				goto out;
			}
			continue;
		}
		slot = ci * nwarps + w;
		rc = wg_func_ls_step(d, res[ci], w, NULL, rec, err);
		if (rc)
			goto out;
		step++;
		if (log)
			wg_func_ls_log(log, rec);
		if (opts.mutate)
			opts.mutate(opts.ctx, rec, index);
		index++;
		rc = sc_requests(&s, rec, slot, res[ci], step, opts.max_delay, opts.per_lane);
		if (rc)
			goto out;
		/* some requests reach the port before the instruction retires */
		rc = sc_deliver(&s, ls, step - 1, -1, err);
		if (!rc)
			rc = wg_lockstep_retire(ls, slot, step, rec, err);
		if (!rc)
			rc = sc_deliver(&s, ls, step, -1, err);
		if (rc)
			goto out;
	}
	rc = sc_deliver(&s, ls, UINT64_MAX, -1, err);
	if (!rc)
		rc = wg_lockstep_end(ls, step, err);
out:
	wg_lockstep_destroy(ls, NULL);
	wg_func_ls_end(d, st);
	free(s.q);
	free(rec);
	free(res);
	return rc;
}

/*
 * Register allocation for translated PTX (docs/ptx.md section 4): linear
 * scan (Poletto and Sarkar) over live intervals built from block liveness.
 *
 * Instruction i reads at position 2i and writes at 2i+1, so a register
 * whose value dies at i can take i's result. A vreg's interval spans every
 * position where it is live: block starts where it is live-in, block ends
 * where it is live-out, and its reads and writes. General registers and
 * predicates are allocated separately. When no register is free the
 * interval that ends last is spilled to a 4-byte local-memory slot; the
 * emitter reloads it before each use and stores it after each definition
 * through scratch registers kept out of the allocation.
 */
#include "ptx.h"

#include <stdlib.h>
#include <string.h>

#include "warpgate.h"

#define GPR_SCRATCH 3
#define PRED_SCRATCH 3

struct ival {
	uint32_t v, start, end;
};

static int cmp_start(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->v < y->v ? -1 : x->v > y->v;
}

static void extend(uint32_t *lo, uint32_t *hi, uint32_t v, uint32_t pos)
{
	if (pos < lo[v])
		lo[v] = pos;
	if (pos > hi[v] || hi[v] == UINT32_MAX)
		hi[v] = pos;
}

/* Linear scan of one class with nregs registers. Returns 0 or WG_ENOMEM. */
static int scan(const struct wg_px_code *c, const uint32_t *lo, const uint32_t *hi, unsigned cls, uint32_t nregs,
                int32_t *phys)
{
	struct ival *iv = NULL, **active = NULL;
	uint32_t n = 0, nact = 0;
	uint8_t *busy = NULL;

	iv = malloc(((size_t)c->nvregs + 1) * sizeof(*iv));
	active = malloc(((size_t)nregs + 1) * sizeof(*active));
	busy = calloc((size_t)nregs + 1, 1);
	if (!iv || !active || !busy) {
		free(iv);
		free(active);
		free(busy);
		return WG_ENOMEM;
	}
	for (uint32_t v = 0; v < c->nvregs; v++) {
		if (c->vclass[v] != cls)
			continue;
		if (hi[v] == UINT32_MAX) {
			phys[v] = WG_PX_UNUSED;
			continue;
		}
		iv[n].v = v;
		iv[n].start = lo[v];
		iv[n].end = hi[v];
		n++;
	}
	qsort(iv, n, sizeof(*iv), cmp_start);
	for (uint32_t i = 0; i < n; i++) {
		struct ival *cur = &iv[i];
		uint32_t r, k;

		/* Expire intervals that ended before this one starts (active is sorted by end). */
		k = 0;
		while (k < nact && active[k]->end < cur->start) {
			busy[phys[active[k]->v]] = 0;
			k++;
		}
		if (k) {
			memmove(active, active + k, (nact - k) * sizeof(*active));
			nact -= k;
		}
		for (r = 0; r < nregs && busy[r]; r++)
			;
		if (r == nregs) {
			struct ival *victim = nact ? active[nact - 1] : NULL;

			if (victim && victim->end > cur->end) {
				r = (uint32_t)phys[victim->v];
				phys[victim->v] = WG_PX_SPILLED;
				nact--;
			} else {
				phys[cur->v] = WG_PX_SPILLED;
				continue;
			}
		}
		phys[cur->v] = (int32_t)r;
		busy[r] = 1;
		/* Insert into active, sorted by end. */
		k = nact;
		while (k > 0 && active[k - 1]->end > cur->end) {
			active[k] = active[k - 1];
			k--;
		}
		active[k] = cur;
		nact++;
	}
	free(iv);
	free(active);
	free(busy);
	return 0;
}

static int any_spilled(const struct wg_px_code *c, const int32_t *phys, unsigned cls)
{
	for (uint32_t v = 0; v < c->nvregs; v++)
		if (c->vclass[v] == cls && phys[v] == WG_PX_SPILLED)
			return 1;
	return 0;
}

int wg_px_regalloc(struct wg_px_ra *ra, const struct wg_px_code *c, const struct wg_px_cfg *g,
                   const struct wg_px_ra_opts *opts)
{
	uint32_t *lo, *hi, gprs, preds, nv = c->nvregs;
	int ret = 0;

	memset(ra, 0, sizeof(*ra));
	gprs = opts && opts->gprs ? opts->gprs : 63;
	preds = opts && opts->preds ? opts->preds : 7;
	if (gprs > 63)
		gprs = 63;
	if (preds > 7)
		preds = 7;
	ra->gpr_scratch = ra->pred_scratch = -1;
	lo = malloc(((size_t)nv + 1) * sizeof(*lo));
	hi = malloc(((size_t)nv + 1) * sizeof(*hi));
	ra->phys = malloc(((size_t)nv + 1) * sizeof(*ra->phys));
	ra->slot = calloc((size_t)nv + 1, sizeof(*ra->slot));
	if (!lo || !hi || !ra->phys || !ra->slot) {
		ret = WG_ENOMEM;
		goto out;
	}
	for (uint32_t v = 0; v < nv; v++) {
		lo[v] = UINT32_MAX;
		hi[v] = UINT32_MAX;
	}
	for (uint32_t b = 0; b < g->nblocks; b++) {
		if (g->start[b] >= g->end[b])
			continue;
		for (uint32_t v = 0; v < nv; v++) {
			if (wg_px_live(g->live_in, g->words, b, v))
				extend(lo, hi, v, 2 * g->start[b]);
			if (wg_px_live(g->live_out, g->words, b, v))
				extend(lo, hi, v, 2 * g->end[b] - 1);
		}
	}
	for (uint32_t i = 0; i < c->n; i++) {
		const struct wg_px_insn *in = &c->insns[i];

		for (int j = 0; j < 3; j++)
			if (in->src[j] >= 0)
				extend(lo, hi, (uint32_t)in->src[j], 2 * i);
		if (in->guard >= 0)
			extend(lo, hi, (uint32_t)in->guard, 2 * i);
		if (in->def >= 0) {
			if (in->guard >= 0)
				extend(lo, hi, (uint32_t)in->def, 2 * i);
			extend(lo, hi, (uint32_t)in->def, 2 * i + 1);
		}
	}
	/* First try with every register; reserve scratch registers when something spills. */
	for (int attempt = 0; attempt < 3; attempt++) {
		uint32_t g_avail = ra->gpr_scratch >= 0 ? gprs - GPR_SCRATCH : gprs;
		uint32_t p_avail = ra->pred_scratch >= 0 ? preds - PRED_SCRATCH : preds;
		int gs, ps;

		if ((ret = scan(c, lo, hi, WG_PX_GPR, g_avail, ra->phys)) ||
		    (ret = scan(c, lo, hi, WG_PX_PRED, p_avail, ra->phys)))
			goto out;
		gs = any_spilled(c, ra->phys, WG_PX_GPR);
		ps = any_spilled(c, ra->phys, WG_PX_PRED);
		if (ps && ra->pred_scratch < 0) {
			ra->pred_scratch = (int)(preds - PRED_SCRATCH);
			ra->gpr_scratch = (int)(gprs - GPR_SCRATCH); /* predicates spill through a register */
			continue;
		}
		if (gs && ra->gpr_scratch < 0) {
			ra->gpr_scratch = (int)(gprs - GPR_SCRATCH);
			continue;
		}
		break;
	}
	ra->regs = 1;
	ra->local_end = opts ? opts->spill_base : 0;
	for (uint32_t v = 0; v < nv; v++) {
		if (ra->phys[v] == WG_PX_SPILLED) {
			ra->slot[v] = ra->local_end;
			ra->local_end += 4;
			ra->nspilled++;
		} else if (c->vclass[v] == WG_PX_GPR && ra->phys[v] >= 0 && (uint32_t)ra->phys[v] + 1 > ra->regs) {
			ra->regs = (uint32_t)ra->phys[v] + 1;
		}
	}
	if (ra->nspilled && ra->gpr_scratch >= 0 && (uint32_t)ra->gpr_scratch + GPR_SCRATCH > ra->regs)
		ra->regs = (uint32_t)ra->gpr_scratch + GPR_SCRATCH;
out:
	free(lo);
	free(hi);
	if (ret)
		wg_px_ra_free(ra);
	return ret;
}

void wg_px_ra_free(struct wg_px_ra *ra)
{
	free(ra->phys);
	free(ra->slot);
	memset(ra, 0, sizeof(*ra));
}

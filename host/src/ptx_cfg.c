/*
 * Code over virtual registers, its control-flow graph, immediate
 * post-dominators and liveness (docs/ptx.md section 4).
 *
 * Blocks start at labels and after BRA and EXIT; successors follow
 * docs/isa.md section 4: an unguarded BRA goes to its target, a guarded one
 * also falls through; an unguarded EXIT goes to the virtual exit node, a
 * guarded one also falls through. Post-dominators are computed on the
 * reverse graph with Cooper, Harvey and Kennedy's iteration, the same rule
 * the assembler applies, so the reconvergence points written into the
 * assembly match the ones it would compute.
 */
#include "ptx.h"

#include <stdlib.h>
#include <string.h>

#include "warpgate.h"

void wg_px_code_free(struct wg_px_code *c)
{
	free(c->insns);
	free(c->vclass);
	free(c->labels);
	memset(c, 0, sizeof(*c));
}

int wg_px_new_vreg(struct wg_px_code *c, unsigned cls)
{
	if (c->nvregs >= (uint32_t)INT32_MAX / 2)
		return WG_ENOMEM;
	if (c->nvregs == c->cap_vregs) {
		uint32_t ncap = c->cap_vregs ? c->cap_vregs * 2 : 64;
		uint8_t *p = realloc(c->vclass, ncap);

		if (!p)
			return WG_ENOMEM;
		c->vclass = p;
		c->cap_vregs = ncap;
	}
	c->vclass[c->nvregs] = (uint8_t)cls;
	return (int)c->nvregs++;
}

int wg_px_new_label(struct wg_px_code *c, const char *name)
{
	if (c->nlabels >= (uint32_t)INT32_MAX / 2)
		return WG_ENOMEM;
	if (c->nlabels == c->cap_labels) {
		uint32_t ncap = c->cap_labels ? c->cap_labels * 2 : 16;
		void *p = realloc(c->labels, (size_t)ncap * sizeof(*c->labels));

		if (!p)
			return WG_ENOMEM;
		c->labels = p;
		c->cap_labels = ncap;
	}
	snprintf(c->labels[c->nlabels], WG_NAME_MAX, "%s", name ? name : "");
	return (int)c->nlabels++;
}

struct wg_px_insn *wg_px_append(struct wg_px_code *c, unsigned kind, unsigned line)
{
	struct wg_px_insn *in;

	if (c->n == c->cap) {
		uint32_t ncap = c->cap ? c->cap * 2 : 64;
		void *p = realloc(c->insns, (size_t)ncap * sizeof(*c->insns));

		if (!p)
			return NULL;
		c->insns = p;
		c->cap = ncap;
	}
	in = &c->insns[c->n++];
	memset(in, 0, sizeof(*in));
	in->kind = (uint8_t)kind;
	in->guard = in->def = -1;
	in->src[0] = in->src[1] = in->src[2] = -1;
	in->label = -1;
	in->line = line;
	return in;
}

void wg_px_cfg_free(struct wg_px_cfg *g)
{
	free(g->start);
	free(g->end);
	free(g->succ);
	free(g->ipdom);
	free(g->block_of);
	free(g->live_in);
	free(g->live_out);
	memset(g, 0, sizeof(*g));
}

static uint32_t intersect(const uint32_t *ipdom, const uint32_t *po, uint32_t x, uint32_t y)
{
	while (x != y) {
		while (po[x] < po[y])
			x = ipdom[x];
		while (po[y] < po[x])
			y = ipdom[y];
	}
	return x;
}

int wg_px_cfg_build(struct wg_px_cfg *g, const struct wg_px_code *c)
{
	uint8_t *leader = NULL;
	uint32_t *label_block = NULL, *po = NULL, *order = NULL, *stack = NULL, *eidx = NULL;
	uint32_t *npred = NULL, *preds = NULL;
	uint32_t n = c->n, nb = 0, exitn, npo = 0, sp = 0, last = 0;
	int ret = 0;

	memset(g, 0, sizeof(*g));
	/* The last real instruction must not fall through. */
	for (uint32_t i = n; i-- > 0;) {
		if (c->insns[i].kind == WG_PX_LABEL)
			continue;
		if (!((c->insns[i].kind == WG_PX_BRA || c->insns[i].kind == WG_PX_EXIT) && c->insns[i].guard < 0))
			return WG_ESYNTAX;
		last = i + 1;
		break;
	}
	if (!last)
		return WG_ESYNTAX;

	leader = calloc((size_t)n + 1, 1);
	g->block_of = calloc((size_t)n + 1, sizeof(*g->block_of));
	label_block = malloc(((size_t)c->nlabels + 1) * sizeof(*label_block));
	if (!leader || !g->block_of || !label_block)
		goto oom;
	leader[0] = 1;
	for (uint32_t i = 0; i < n; i++) {
		const struct wg_px_insn *in = &c->insns[i];

		if (in->kind == WG_PX_LABEL)
			leader[i] = 1;
		else if (in->kind == WG_PX_BRA || in->kind == WG_PX_EXIT)
			leader[i + 1] = 1;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (leader[i])
			nb++;
		g->block_of[i] = nb - 1;
	}
	g->block_of[n] = nb; /* past the end: the exit node */
	g->nblocks = nb;
	exitn = nb;
	g->start = malloc(nb * sizeof(*g->start));
	g->end = malloc(nb * sizeof(*g->end));
	g->succ = malloc(nb * sizeof(*g->succ));
	g->ipdom = malloc((nb + 1) * sizeof(*g->ipdom));
	po = malloc((nb + 1) * sizeof(*po));
	order = malloc((nb + 1) * sizeof(*order));
	stack = malloc((nb + 1) * sizeof(*stack));
	eidx = malloc((nb + 1) * sizeof(*eidx));
	npred = calloc((size_t)nb + 2, sizeof(*npred));
	preds = malloc((size_t)nb * 2 * sizeof(*preds) + 1);
	if (!g->start || !g->end || !g->succ || !g->ipdom || !po || !order || !stack || !eidx || !npred || !preds)
		goto oom;
	for (uint32_t l = 0; l < c->nlabels; l++)
		label_block[l] = WG_PX_NONE;
	for (uint32_t i = 0; i < n; i++) {
		if (leader[i])
			g->start[g->block_of[i]] = i;
		g->end[g->block_of[i]] = i + 1;
		if (c->insns[i].kind == WG_PX_LABEL && c->insns[i].label >= 0 && (uint32_t)c->insns[i].label < c->nlabels)
			label_block[c->insns[i].label] = g->block_of[i];
	}
	for (uint32_t b = 0; b < nb; b++) {
		const struct wg_px_insn *in = NULL;
		uint32_t next = g->end[b] < n ? g->block_of[g->end[b]] : WG_PX_NONE;

		for (uint32_t i = g->end[b]; i-- > g->start[b];)
			if (c->insns[i].kind != WG_PX_LABEL) {
				in = &c->insns[i];
				break;
			}
		g->succ[b][0] = g->succ[b][1] = WG_PX_NONE;
		if (!in) {
			g->succ[b][0] = next;
		} else if (in->kind == WG_PX_BRA) {
			uint32_t t = in->label >= 0 && (uint32_t)in->label < c->nlabels ? label_block[in->label] : WG_PX_NONE;

			if (t == WG_PX_NONE) {
				ret = WG_EINVAL; /* branch to an undefined label */
				goto out;
			}
			g->succ[b][0] = t;
			if (in->guard >= 0)
				g->succ[b][1] = next;
		} else if (in->kind == WG_PX_EXIT) {
			g->succ[b][0] = exitn;
			if (in->guard >= 0)
				g->succ[b][1] = next;
		} else {
			g->succ[b][0] = next;
		}
		if (g->succ[b][1] == g->succ[b][0])
			g->succ[b][1] = WG_PX_NONE;
	}
	/* Predecessor lists (reverse graph). */
	for (uint32_t b = 0; b < nb; b++)
		for (int j = 0; j < 2; j++)
			if (g->succ[b][j] != WG_PX_NONE)
				npred[g->succ[b][j] + 1]++;
	for (uint32_t v = 0; v <= nb; v++)
		npred[v + 1] += npred[v];
	for (uint32_t v = 0; v <= nb; v++)
		eidx[v] = npred[v];
	for (uint32_t b = 0; b < nb; b++)
		for (int j = 0; j < 2; j++)
			if (g->succ[b][j] != WG_PX_NONE)
				preds[eidx[g->succ[b][j]]++] = b;
	/* Postorder of the reverse graph from the exit. */
	for (uint32_t v = 0; v <= nb; v++) {
		po[v] = WG_PX_NONE;
		g->ipdom[v] = WG_PX_NONE;
		eidx[v] = npred[v];
	}
	stack[sp++] = exitn;
	po[exitn] = 0;
	while (sp) {
		uint32_t v = stack[sp - 1];

		if (eidx[v] < npred[v + 1]) {
			uint32_t u = preds[eidx[v]++];

			if (po[u] == WG_PX_NONE) {
				po[u] = 0;
				stack[sp++] = u;
			}
			continue;
		}
		sp--;
		order[npo] = v;
		po[v] = npo++;
	}
	g->ipdom[exitn] = exitn;
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t i = npo - 1; i-- > 0;) {
			uint32_t b = order[i], d = WG_PX_NONE;

			for (int j = 0; j < 2; j++) {
				uint32_t s = g->succ[b][j];

				if (s == WG_PX_NONE || g->ipdom[s] == WG_PX_NONE)
					continue;
				d = d == WG_PX_NONE ? s : intersect(g->ipdom, po, s, d);
			}
			if (d != g->ipdom[b]) {
				g->ipdom[b] = d;
				changed = 1;
			}
		}
	}
	goto out;
oom:
	ret = WG_ENOMEM;
out:
	free(leader);
	free(label_block);
	free(po);
	free(order);
	free(stack);
	free(eidx);
	free(npred);
	free(preds);
	if (ret)
		wg_px_cfg_free(g);
	return ret;
}

static void set_bit(uint64_t *s, uint32_t v)
{
	s[v / 64] |= 1ull << (v % 64);
}

static void clr_bit(uint64_t *s, uint32_t v)
{
	s[v / 64] &= ~(1ull << (v % 64));
}

int wg_px_liveness(struct wg_px_cfg *g, const struct wg_px_code *c)
{
	uint32_t nb = g->nblocks, w = (c->nvregs + 63) / 64;
	uint64_t *use = NULL, *def = NULL, *tmp = NULL;
	int changed;

	if (!w)
		w = 1;
	g->words = w;
	free(g->live_in);
	free(g->live_out);
	g->live_in = calloc((size_t)nb * w + 1, 8);
	g->live_out = calloc((size_t)nb * w + 1, 8);
	use = calloc((size_t)nb * w + 1, 8);
	def = calloc((size_t)nb * w + 1, 8);
	tmp = calloc(w, 8);
	if (!g->live_in || !g->live_out || !use || !def || !tmp) {
		free(use);
		free(def);
		free(tmp);
		return WG_ENOMEM;
	}
	/* Upward-exposed uses and kills of each block, scanning backwards. */
	for (uint32_t b = 0; b < nb; b++) {
		uint64_t *u = use + (size_t)b * w, *d = def + (size_t)b * w;

		for (uint32_t i = g->end[b]; i-- > g->start[b];) {
			const struct wg_px_insn *in = &c->insns[i];

			if (in->def >= 0 && in->guard < 0) {
				set_bit(d, (uint32_t)in->def);
				clr_bit(u, (uint32_t)in->def);
			}
			if (in->def >= 0 && in->guard >= 0)
				set_bit(u, (uint32_t)in->def); /* a guarded write keeps the old value */
			for (int j = 0; j < 3; j++)
				if (in->src[j] >= 0)
					set_bit(u, (uint32_t)in->src[j]);
			if (in->guard >= 0)
				set_bit(u, (uint32_t)in->guard);
		}
	}
	do {
		changed = 0;
		for (uint32_t b = nb; b-- > 0;) {
			uint64_t *out = g->live_out + (size_t)b * w, *lin = g->live_in + (size_t)b * w;

			memset(tmp, 0, (size_t)w * 8);
			for (int j = 0; j < 2; j++) {
				uint32_t s = g->succ[b][j];

				if (s == WG_PX_NONE || s >= nb)
					continue;
				for (uint32_t k = 0; k < w; k++)
					tmp[k] |= g->live_in[(size_t)s * w + k];
			}
			for (uint32_t k = 0; k < w; k++) {
				uint64_t ni = use[(size_t)b * w + k] | (tmp[k] & ~def[(size_t)b * w + k]);

				if (tmp[k] != out[k] || ni != lin[k]) {
					out[k] = tmp[k];
					lin[k] = ni;
					changed = 1;
				}
			}
		}
	} while (changed);
	free(use);
	free(def);
	free(tmp);
	return 0;
}

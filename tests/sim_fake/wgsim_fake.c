/* The scripted wgsim stand-in (wgsim_fake.h). */
#include "wgsim_fake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "warpgate.h"

#define FAKE_IMEM 4096
#define FAKE_CMEM 4096
#define FAKE_Q 4096

struct wgsim_fake_ctl wgsim_fake;

struct fake_cta {
	uint32_t linear;
	uint64_t done_at;
};

struct wgsim {
	uint64_t cycle;
	char trace[256];
	uint32_t cfg[32];
	uint64_t imem[FAKE_IMEM];
	uint8_t cmem[FAKE_CMEM];
	uint32_t pend[FAKE_Q][4]; /* x, y, z, linear */
	size_t npend;
	struct fake_cta res[64];
	size_t nres;
	uint32_t launched[FAKE_Q];
	size_t nlaunched;
	uint32_t done[FAKE_Q];
	size_t ndone;
	struct wgsim_mreq *mreq;
	size_t nmreq;
	struct wgsim_retire *ret;
	size_t nret;
	struct wgsim_fake_rsp *rsp;
	size_t nrsp;
	size_t outstanding;
	int faulted;
	struct wgsim_fault fault;
};

int wgsim_create(struct wgsim **sp, const struct wgsim_opts *opts)
{
	struct wgsim *s = calloc(1, sizeof(*s));

	if (!s)
		return WG_ENOMEM;
	s->mreq = calloc(FAKE_Q, sizeof(*s->mreq));
	s->ret = calloc(FAKE_Q, sizeof(*s->ret));
	s->rsp = calloc(FAKE_Q, sizeof(*s->rsp));
	if (!s->mreq || !s->ret || !s->rsp) {
		wgsim_destroy(s);
		return WG_ENOMEM;
	}
	if (opts && opts->trace_fst)
		snprintf(s->trace, sizeof(s->trace), "%s", opts->trace_fst);
	*sp = s;
	return 0;
}

void wgsim_destroy(struct wgsim *s)
{
	if (!s)
		return;
	free(s->mreq);
	free(s->ret);
	free(s->rsp);
	free(s);
}

void wgsim_info(const struct wgsim *s, struct wgsim_info *in)
{
	(void)s;
	*in = (struct wgsim_info){ .num_warps = 48, .simd_width = 16, .num_simd = 2, .num_regs = 32768, .num_ctas = 8,
		                   .smem_bytes = 49152, .imem_depth = FAKE_IMEM, .cmem_bytes = FAKE_CMEM,
		                   .stack_depth = 64, .has_fp = 1, .mem_tag_bits = 8,
		                   .has_sfu = !wgsim_fake.no_sfu, .retire_en = 1, .lsu_lanes = 32 };
	in->has_fp = !wgsim_fake.no_fp;
}

void wgsim_reset(struct wgsim *s)
{
	s->cycle += 4;
	s->npend = s->nres = s->nlaunched = s->ndone = s->nmreq = s->nret = s->nrsp = 0;
	s->outstanding = 0;
	s->faulted = 0;
}

int wgsim_cfg_write(struct wgsim *s, uint32_t addr, uint32_t value)
{
	if (addr >= 32)
		return WG_EINVAL;
	s->cfg[addr] = value;
	if (wgsim_fake.on_cfg)
		wgsim_fake.on_cfg(s, addr, value, wgsim_fake.ctx);
	return 0;
}

int wgsim_imem_write(struct wgsim *s, uint32_t pc, const uint64_t *words, uint32_t n)
{
	if ((uint64_t)pc + n > FAKE_IMEM)
		return WG_EINVAL;
	memcpy(s->imem + pc, words, n * sizeof(*words));
	return 0;
}

int wgsim_cmem_write(struct wgsim *s, const uint8_t *bytes, uint32_t n)
{
	if (n > FAKE_CMEM)
		return WG_EINVAL;
	memcpy(s->cmem, bytes, n);
	return 0;
}

int wgsim_cta_launch(struct wgsim *s, uint32_t x, uint32_t y, uint32_t z, uint32_t linear)
{
	if (s->npend == FAKE_Q)
		return WG_ENOMEM;
	s->pend[s->npend][0] = x;
	s->pend[s->npend][1] = y;
	s->pend[s->npend][2] = z;
	s->pend[s->npend][3] = linear;
	s->npend++;
	return 0;
}

uint32_t wgsim_cta_pending(const struct wgsim *s)
{
	return (uint32_t)s->npend;
}

int wgsim_cta_done(struct wgsim *s, uint32_t *linear)
{
	if (!s->ndone)
		return 0;
	*linear = s->done[0];
	memmove(s->done, s->done + 1, --s->ndone * sizeof(*s->done));
	return 1;
}

int wgsim_mreq_pop(struct wgsim *s, struct wgsim_mreq *r)
{
	if (!s->nmreq)
		return 0;
	*r = s->mreq[0];
	memmove(s->mreq, s->mreq + 1, --s->nmreq * sizeof(*s->mreq));
	return 1;
}

int wgsim_mrsp_push(struct wgsim *s, uint32_t tag, const uint8_t rdata[WGSIM_MEM_BYTES])
{
	struct wgsim_fake_rsp *r;

	if (s->nrsp == FAKE_Q)
		return WG_ENOMEM;
	r = &s->rsp[s->nrsp++];
	r->cycle = s->cycle;
	r->tag = tag;
	memcpy(r->rdata, rdata, WGSIM_MEM_BYTES);
	if (s->outstanding)
		s->outstanding--;
	return 0;
}

int wgsim_retire_pop(struct wgsim *s, struct wgsim_retire *r)
{
	if (!s->nret)
		return 0;
	*r = s->ret[0];
	memmove(s->ret, s->ret + 1, --s->nret * sizeof(*s->ret));
	return 1;
}

int wgsim_fault(const struct wgsim *s, struct wgsim_fault *f)
{
	if (s->faulted && f)
		*f = s->fault;
	return s->faulted;
}

int wgsim_step(struct wgsim *s, uint64_t n)
{
	uint64_t cta_cycles = wgsim_fake.cta_cycles ? wgsim_fake.cta_cycles : 5;
	uint32_t max_res = wgsim_fake.max_resident ? wgsim_fake.max_resident : 2;

	for (uint64_t i = 0; i < n; i++) {
		if (s->faulted)
			return 1;
		s->cycle++;
		/* accept one launch per cycle */
		if (s->npend && s->nres < max_res) {
			uint32_t lin = s->pend[0][3];

			memmove(s->pend, s->pend + 1, --s->npend * sizeof(s->pend[0]));
			s->res[s->nres++] = (struct fake_cta){ lin, s->cycle + cta_cycles };
			if (s->nlaunched < FAKE_Q)
				s->launched[s->nlaunched++] = lin;
			if (wgsim_fake.on_launch)
				wgsim_fake.on_launch(s, lin, wgsim_fake.ctx);
		}
		for (size_t k = 0; k < s->nres;) {
			if (s->cycle >= s->res[k].done_at && !s->outstanding && s->ndone < FAKE_Q) {
				s->done[s->ndone++] = s->res[k].linear;
				s->res[k] = s->res[--s->nres];
			} else {
				k++;
			}
		}
		if (wgsim_fake.on_step)
			wgsim_fake.on_step(s, s->cycle, wgsim_fake.ctx);
	}
	return s->faulted;
}

uint64_t wgsim_cycle(const struct wgsim *s)
{
	return s->cycle;
}

int wgsim_busy(const struct wgsim *s)
{
	return s->nres || s->outstanding;
}

int wgsim_counters(const struct wgsim *s, struct wgsim_counter *out, int max)
{
	int n = 2 + WG_MEMCNT_COUNT;

	if (max >= n) {
		out[0] = (struct wgsim_counter){ "cycles", s->cycle };
		out[1] = (struct wgsim_counter){ "rf_bank_conflicts", s->cycle / 3 };
		for (int i = 0; i < WG_MEMCNT_COUNT; i++)
			out[2 + i] = (struct wgsim_counter){ wg_memcnt_names[i], wgsim_fake.mem[i] };
	}
	return n;
}

/* ---- test helpers ---- */

void wgsim_fake_push_mreq(struct wgsim *s, const struct wgsim_mreq *r)
{
	if (s->nmreq < FAKE_Q) {
		s->mreq[s->nmreq] = *r;
		s->mreq[s->nmreq].cycle = s->cycle;
		s->nmreq++;
		s->outstanding++;
	}
}

void wgsim_fake_push_retire(struct wgsim *s, const struct wgsim_retire *r)
{
	if (s->nret < FAKE_Q) {
		s->ret[s->nret] = *r;
		s->ret[s->nret].cycle = s->cycle;
		s->nret++;
	}
}

void wgsim_fake_set_fault(struct wgsim *s, const struct wgsim_fault *f)
{
	s->fault = *f;
	s->faulted = 1;
}

uint32_t wgsim_fake_cfg(const struct wgsim *s, uint32_t addr)
{
	return addr < 32 ? s->cfg[addr] : 0;
}

const uint64_t *wgsim_fake_imem(const struct wgsim *s)
{
	return s->imem;
}

const uint8_t *wgsim_fake_cmem(const struct wgsim *s)
{
	return s->cmem;
}

size_t wgsim_fake_nlaunched(const struct wgsim *s)
{
	return s->nlaunched;
}

uint32_t wgsim_fake_launched(const struct wgsim *s, size_t i)
{
	return i < s->nlaunched ? s->launched[i] : 0xFFFFFFFFu;
}

size_t wgsim_fake_nrsp(const struct wgsim *s)
{
	return s->nrsp;
}

const struct wgsim_fake_rsp *wgsim_fake_rsp(const struct wgsim *s, size_t i)
{
	return i < s->nrsp ? &s->rsp[i] : NULL;
}

const char *wgsim_fake_trace(const struct wgsim *s)
{
	return s->trace;
}

/* Power-gating accounting: an empty window (nothing counted), which is consistent. */
int wgsim_pg_close(struct wgsim *s)
{
	return s ? 0 : -1;
}

int wgsim_pg_read(struct wgsim *s, struct wgsim_pg *pg)
{
	if (!s || !pg)
		return -1;
	memset(pg, 0, sizeof(*pg));
	pg->lanes = 32;
	pg->units = 2;
	return 0;
}

int wgsim_pg_shadow(struct wgsim *s, struct wgsim_pg *pg, const uint64_t **lens, size_t *n)
{
	(void)s;
	(void)pg;
	(void)lens;
	(void)n;
	return -1; /* no lane states in the fake */
}

/* Lane-activity trace: the fake has no lanes, so no records. */
size_t wgsim_pgt_pop(struct wgsim *s, uint64_t *recs, size_t max)
{
	(void)s;
	(void)recs;
	(void)max;
	return 0;
}

size_t wgsim_pgt_pending(const struct wgsim *s)
{
	(void)s;
	return 0;
}

/* The trace window: recorded as the kernel-register writes the real model makes at reset. */
int wgsim_pgt_window(struct wgsim *s, uint64_t from, uint64_t to)
{
	if (!s || from >> 48 || to >> 48)
		return -1;
	wgsim_cfg_write(s, 25, (uint32_t)from);
	wgsim_cfg_write(s, 26, (uint32_t)to);
	return wgsim_cfg_write(s, 27, (uint32_t)(from >> 32) | (uint32_t)(to >> 32) << 16);
}

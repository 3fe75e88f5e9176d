/*
 * The memory system: interconnect + L2 slices + GDDR5 channels
 * (docs/memory-models.md section 5).
 *
 * Requests are kept in a table of slots; a slot's index is the id the
 * request carries through the interconnect and the L2. A DRAM request's id
 * is its (slice-local) address and size, which is all a fill needs.
 *
 * Cycle c is processed in this order: the interconnect up to c; per channel,
 * the L2 up to c, arrived requests into the L2, fills due at c into the L2,
 * L2 replies into the reply network, the DRAM up to c, L2 misses and
 * write-backs into the DRAM, DRAM completions (a read's data reaches the L2
 * dram_latency cycles later); finally the replies that arrived at the SMs
 * become completions. Every model takes inputs stamped c after its own
 * cycle c (the time contract), so this order only decides who sees what
 * when, deterministically. advance() processes the cycles in which any
 * model has something to do, or a hand-over is possible, and jumps over the
 * others, which changes nothing: the models skip idle time exactly.
 */
#include "memsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "log.h"
#include "warpgate.h"

struct slot {
	struct wg_mem_req r;
	uint64_t stamp;
	uint8_t hit;
};

struct pfill {
	uint64_t at, addr;
	uint32_t bytes;
};

struct chan {
	struct wg_l2 *l2;
	struct wg_dram *dram;
	struct pfill *fills; /* ring, in due order */
	uint32_t fcap, fhead, fcount;
};

struct wg_memsys {
	struct wg_memsys_params p;
	uint64_t now;
	struct wg_icnt *icnt;
	struct chan *ch;
	struct slot *slots;
	uint32_t nslots, *free_ids, nfree;
	struct wg_mem_done *done; /* ring of completions */
	uint32_t dcap, dhead, dcount;
	uint64_t outstanding;
	uint64_t requests, refused, completed, latency_sum;
	struct wg_memsys_stats st;
};

/* ---- parameters -------------------------------------------------------- */

int wg_memsys_params_from_config(struct wg_memsys_params *p, const struct wg_config *c, char *err, size_t errlen)
{
	int rc;

	if (!p || !c)
		return WG_EINVAL;
	memset(p, 0, sizeof(*p));
	p->num_sms = c->num_sms;
	p->channels = c->mem_channels;
	p->icnt = (struct wg_icnt_params){
		.flit_bytes = WG_MEMSYS_FLIT_BYTES,
		.latency = WG_MEMSYS_ICNT_LATENCY,
		.in_queue = WG_MEMSYS_ICNT_IN_QUEUE,
		.out_queue = WG_MEMSYS_ICNT_OUT_QUEUE,
	};
	if ((rc = wg_l2_params_from_config(&p->l2, c, err, errlen)))
		return rc;
	if ((rc = wg_dram_params_from_config(&p->dram, c, err, errlen)))
		return rc;
	p->dram_latency = c->dram_latency;
	return 0;
}

/* ---- creation ---------------------------------------------------------- */

int wg_memsys_create(struct wg_memsys **mp, const struct wg_memsys_params *p)
{
	struct wg_memsys *m;
	struct wg_icnt_params ip;
	int rc;

	if (!mp || !p)
		return WG_EINVAL;
	*mp = NULL;
	if (!p->num_sms || !p->channels || p->l2.geom.line < 128 || p->l2.geom.line > WG_ICNT_CHUNK_BYTES) {
		wg_err("memory system: needs SMs, channels and an L2 line of 128 or 256 bytes");
		return WG_EINVAL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return WG_ENOMEM;
	m->p = *p;
	m->p.icnt.num_sms = p->num_sms;
	m->p.icnt.num_parts = p->channels;
	ip = m->p.icnt;
	if ((rc = wg_icnt_create(&m->icnt, &ip)))
		goto fail;
	rc = WG_ENOMEM;
	if (!(m->ch = calloc(p->channels, sizeof(*m->ch))))
		goto fail;
	for (uint32_t i = 0; i < p->channels; i++) {
		if ((rc = wg_l2_create(&m->ch[i].l2, &p->l2)) || (rc = wg_dram_create(&m->ch[i].dram, &p->dram)))
			goto fail;
	}
	*mp = m;
	return 0;
fail:
	wg_memsys_destroy(m);
	return rc;
}

int wg_memsys_create_from_config(struct wg_memsys **m, const struct wg_config *c, char *err, size_t errlen)
{
	struct wg_memsys_params p;
	int rc;

	if (!m)
		return WG_EINVAL;
	*m = NULL;
	if ((rc = wg_memsys_params_from_config(&p, c, err, errlen)))
		return rc;
	if ((rc = wg_memsys_create(m, &p)))
		snprintf(err, errlen, "memory system: cannot create the models (error %d)", rc);
	return rc;
}

void wg_memsys_destroy(struct wg_memsys *m)
{
	if (!m)
		return;
	if (m->ch)
		for (uint32_t i = 0; i < m->p.channels; i++) {
			wg_l2_destroy(m->ch[i].l2);
			wg_dram_destroy(m->ch[i].dram);
			free(m->ch[i].fills);
		}
	wg_icnt_destroy(m->icnt);
	free(m->ch);
	free(m->slots);
	free(m->free_ids);
	free(m->done);
	free(m);
}

/* ---- helpers ----------------------------------------------------------- */

/* Double a full ring, its elements moved to the front. */
static int grow(void **buf, uint32_t *cap, size_t esz, uint32_t *head, uint32_t count)
{
	uint32_t ncap = *cap ? 2 * *cap : 64;
	char *nb = malloc((size_t)ncap * esz);

	if (!nb)
		return WG_ENOMEM;
	for (uint32_t i = 0; i < count; i++)
		memcpy(nb + (size_t)i * esz, (char *)*buf + (size_t)((*head + i) % *cap) * esz, esz);
	free(*buf);
	*buf = nb;
	*cap = ncap;
	*head = 0;
	return 0;
}

static int alloc_slot(struct wg_memsys *m, uint32_t *id)
{
	if (!m->nfree) {
		uint32_t n = m->nslots ? 2 * m->nslots : 256;
		struct slot *ns = realloc(m->slots, (size_t)n * sizeof(*ns));
		uint32_t *nf;

		if (!ns)
			return WG_ENOMEM;
		m->slots = ns;
		nf = realloc(m->free_ids, (size_t)n * sizeof(*nf));
		if (!nf)
			return WG_ENOMEM;
		m->free_ids = nf;
		for (uint32_t i = n; i > m->nslots; i--)
			m->free_ids[m->nfree++] = i - 1;
		m->nslots = n;
	}
	*id = m->free_ids[--m->nfree];
	return 0;
}

static uint32_t req_bytes(const struct wg_mem_req *r)
{
	return WG_MEMSYS_HEADER_BYTES + (r->cmd == WG_MEM_READ ? 0 : r->bytes);
}

static uint32_t reply_bytes(const struct wg_mem_req *r)
{
	return WG_MEMSYS_HEADER_BYTES + (r->cmd == WG_MEM_WRITE ? 0 : r->bytes);
}

static int add_fill(struct chan *ch, uint64_t at, uint64_t addr, uint32_t bytes)
{
	int rc;

	if (ch->fcount == ch->fcap &&
	    (rc = grow((void **)&ch->fills, &ch->fcap, sizeof(*ch->fills), &ch->fhead, ch->fcount)))
		return rc;
	ch->fills[(ch->fhead + ch->fcount) % ch->fcap] = (struct pfill){ at, addr, bytes };
	ch->fcount++;
	return 0;
}

static int complete(struct wg_memsys *m, const struct wg_icnt_pkt *pkt)
{
	struct slot *s = &m->slots[pkt->id];
	int rc;

	if (m->dcount == m->dcap && (rc = grow((void **)&m->done, &m->dcap, sizeof(*m->done), &m->dhead, m->dcount)))
		return rc;
	m->done[(m->dhead + m->dcount) % m->dcap] = (struct wg_mem_done){
		.id = s->r.id, .stamp = s->stamp, .cycle = pkt->cycle, .sm = s->r.sm,
		.cmd = s->r.cmd, .local = s->r.local, .l2_hit = s->hit,
	};
	m->dcount++;
	m->completed++;
	m->latency_sum += pkt->cycle - s->stamp;
	m->free_ids[m->nfree++] = (uint32_t)pkt->id;
	return 0;
}

/* ---- one cycle --------------------------------------------------------- */

static int run_channel(struct wg_memsys *m, uint32_t p, uint64_t c)
{
	struct chan *ch = &m->ch[p];
	struct wg_icnt_pkt pkt;
	struct wg_l2_reply y;
	struct wg_l2_dram_req d;
	struct wg_dram_done dd;
	int rc;

	if ((rc = wg_l2_advance(ch->l2, c)))
		return rc;
	/* Arrived requests into the slice. */
	while (wg_l2_can_accept(ch->l2) && wg_icnt_pop(m->icnt, WG_ICNT_REQ, p, &pkt)) {
		struct slot *s = &m->slots[pkt.id];
		uint64_t local = wg_icnt_local_addr(s->r.addr, m->p.channels);
		/* The 128 B block's sectors, at their place in the L2 line (a 256 B line holds two blocks). */
		uint32_t shift = (uint32_t)(local & (m->p.l2.geom.line - 1) & ~127ull) / WG_L2_SECTOR_BYTES;
		struct wg_l2_req lr = {
			.id = pkt.id, .addr = local, .sectors = (uint32_t)s->r.sectors << shift,
			.partial = (uint32_t)s->r.partial << shift, .cmd = s->r.cmd,
		};

		if ((rc = wg_l2_push(ch->l2, c, &lr)))
			return rc;
	}
	/* DRAM data due now. */
	while (ch->fcount && ch->fills[ch->fhead].at <= c) {
		const struct pfill *f = &ch->fills[ch->fhead];

		if ((rc = wg_l2_fill(ch->l2, c, f->addr, f->bytes)))
			return rc;
		ch->fhead = (ch->fhead + 1) % ch->fcap;
		ch->fcount--;
	}
	/* Replies into the reply network. */
	while (wg_icnt_can_accept(m->icnt, WG_ICNT_RSP, p) && wg_l2_pop(ch->l2, &y)) {
		struct slot *s = &m->slots[y.id];

		s->hit = y.hit;
		if ((rc = wg_icnt_push(m->icnt, c, WG_ICNT_RSP, p, s->r.sm, reply_bytes(&s->r), y.id)))
			return rc;
	}
	/* Misses and write-backs into the DRAM, completions out of it (nothing to do: leave it behind). */
	if (!wg_l2_peek_dram(ch->l2, NULL) && wg_dram_next_event(ch->dram) > c)
		return 0;
	if ((rc = wg_dram_advance(ch->dram, c)))
		return rc;
	while (wg_dram_can_accept(ch->dram) && wg_l2_pop_dram(ch->l2, &d)) {
		struct wg_dram_req dr = { .id = d.addr << 8 | d.bytes, .addr = d.addr, .bytes = d.bytes, .write = d.write };

		if ((rc = wg_dram_push(ch->dram, c, &dr)))
			return rc;
	}
	while (wg_dram_pop(ch->dram, &dd)) {
		uint64_t at = dd.cycle + m->p.dram_latency;

		if (dd.write)
			continue;
		if (at <= c) {
			if ((rc = wg_l2_fill(ch->l2, c, dd.id >> 8, (uint32_t)(dd.id & 0xFF))))
				return rc;
		} else if ((rc = add_fill(ch, at, dd.id >> 8, (uint32_t)(dd.id & 0xFF)))) {
			return rc;
		}
	}
	return 0;
}

static int run_cycle(struct wg_memsys *m, uint64_t c)
{
	struct wg_icnt_pkt pkt;
	int rc;

	if ((rc = wg_icnt_advance(m->icnt, c)))
		return rc;
	for (uint32_t p = 0; p < m->p.channels; p++)
		if ((rc = run_channel(m, p, c)))
			return rc;
	for (uint32_t s = 0; s < m->p.num_sms; s++)
		while (wg_icnt_pop(m->icnt, WG_ICNT_RSP, s, &pkt))
			if ((rc = complete(m, &pkt)))
				return rc;
	return 0;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

uint64_t wg_memsys_next_event(const struct wg_memsys *m)
{
	uint64_t next = wg_icnt_next_event(m->icnt), soon = m->now + 1;

	for (uint32_t p = 0; p < m->p.channels; p++) {
		const struct chan *ch = &m->ch[p];

		/* A hand-over that waits for room is retried every cycle. */
		if ((wg_icnt_peek(m->icnt, WG_ICNT_REQ, p, NULL) && wg_l2_can_accept(ch->l2)) ||
		    (wg_l2_peek(ch->l2, NULL) && wg_icnt_can_accept(m->icnt, WG_ICNT_RSP, p)) ||
		    wg_l2_peek_dram(ch->l2, NULL))
			return soon;
		next = min64(next, wg_l2_next_event(ch->l2));
		next = min64(next, wg_dram_next_event(ch->dram));
		if (ch->fcount)
			next = min64(next, ch->fills[ch->fhead].at);
	}
	return next < soon ? soon : next;
}

/* ---- interface --------------------------------------------------------- */

uint64_t wg_memsys_now(const struct wg_memsys *m)
{
	return m->now;
}

int wg_memsys_advance(struct wg_memsys *m, uint64_t t)
{
	int rc;

	if (!m || t < m->now)
		return WG_EINVAL;
	for (;;) {
		uint64_t c = wg_memsys_next_event(m);

		if (c > t)
			break;
		if ((rc = run_cycle(m, c))) {
			wg_err("memory system: cycle %llu failed (error %d)", (unsigned long long)c, rc);
			return rc;
		}
		m->now = c;
	}
	m->now = t;
	return 0;
}

int wg_memsys_can_accept(const struct wg_memsys *m, uint32_t sm)
{
	return m && wg_icnt_can_accept(m->icnt, WG_ICNT_REQ, sm);
}

int wg_memsys_push(struct wg_memsys *m, uint64_t stamp, const struct wg_mem_req *r)
{
	struct wg_mem_req q;
	uint32_t off, id;
	int rc;

	if (!m || !r || stamp < m->now || r->sm >= m->p.num_sms || r->cmd > WG_MEM_ATOMIC || !r->bytes)
		return WG_EINVAL;
	off = r->addr & 127;
	if (off + r->bytes > 128 || (r->sectors & ~0xFu))
		return WG_EINVAL;
	q = *r;
	if (!q.sectors)
		q.sectors = (uint8_t)(((2u << ((off + r->bytes - 1) / 32)) - 1) & ~((1u << (off / 32)) - 1));
	if ((q.partial & ~q.sectors) || (q.partial && q.cmd != WG_MEM_WRITE))
		return WG_EINVAL;
	if ((rc = wg_memsys_advance(m, stamp)))
		return rc;
	if (!wg_icnt_can_accept(m->icnt, WG_ICNT_REQ, r->sm)) {
		m->refused++;
		return WG_ENOMEM;
	}
	if ((rc = alloc_slot(m, &id)))
		return rc;
	m->slots[id] = (struct slot){ .r = q, .stamp = stamp };
	if ((rc = wg_icnt_push(m->icnt, stamp, WG_ICNT_REQ, r->sm, wg_icnt_partition(r->addr, m->p.channels),
	                       req_bytes(&q), id))) {
		m->free_ids[m->nfree++] = id;
		return rc;
	}
	m->requests++;
	m->outstanding++;
	return 0;
}

int wg_memsys_pop(struct wg_memsys *m, struct wg_mem_done *d)
{
	if (!m || !d || !m->dcount || m->done[m->dhead].cycle > m->now)
		return 0;
	*d = m->done[m->dhead];
	m->dhead = (m->dhead + 1) % m->dcap;
	m->dcount--;
	m->outstanding--;
	return 1;
}

uint64_t wg_memsys_outstanding(const struct wg_memsys *m)
{
	return m->outstanding;
}

uint64_t wg_memsys_min_latency(const struct wg_memsys *m)
{
	uint64_t hop = wg_icnt_flits(WG_MEMSYS_HEADER_BYTES, m->p.icnt.flit_bytes) + m->p.icnt.latency;

	return 2 * hop + m->p.l2.latency;
}

uint64_t wg_memsys_sm_stall_cycles(const struct wg_memsys *m, uint32_t sm)
{
	return wg_icnt_sm_stall_cycles(m->icnt, sm);
}

const struct wg_memsys_stats *wg_memsys_stats(struct wg_memsys *m)
{
	struct wg_memsys_stats *st = &m->st;
	const struct wg_icnt_stats *is = wg_icnt_stats(m->icnt);

	memset(st, 0, sizeof(*st));
	st->requests = m->requests;
	st->completed = m->completed;
	st->refused = m->refused;
	for (uint32_t p = 0; p < m->p.channels; p++) {
		const struct wg_l2_stats *l = wg_l2_stats(m->ch[p].l2);
		const struct wg_dram_stats *d = wg_dram_stats(m->ch[p].dram);

		st->l2_read_transactions += l->reads;
		st->l2_write_transactions += l->writes;
		st->l2_atomic_transactions += l->atomics;
		st->l2_hits += l->hits;
		st->l2_misses += l->misses;
		st->dram_reads += d->reads;
		st->dram_writes += d->writes;
		st->dram_row_hits += d->row_hits;
		/* Bytes the L2 asked for (served or still in the DRAM queue). */
		st->dram_read_bytes += l->dram_read_bytes;
		st->dram_write_bytes += l->dram_write_bytes;
	}
	if (st->l2_hits + st->l2_misses)
		st->l2_hit_rate = (double)st->l2_hits / (double)(st->l2_hits + st->l2_misses);
	st->latency_sum = m->latency_sum;
	if (m->completed)
		st->avg_mem_latency = (double)m->latency_sum / (double)m->completed;
	st->icnt_stall_cycles = is->stall_cycles[WG_ICNT_REQ] + is->stall_cycles[WG_ICNT_RSP];
	st->icnt_stall_cycles_sm = is->sm_stall;
	return st;
}

void wg_memsys_stats_json(struct wg_memsys *m, struct wg_json *j, const char *key)
{
	const struct wg_memsys_stats *st = wg_memsys_stats(m);

	wg_json_begin_object(j, key);
	wg_json_u64(j, "l2_read_transactions", st->l2_read_transactions);
	wg_json_u64(j, "l2_write_transactions", st->l2_write_transactions);
	wg_json_u64(j, "l2_atomic_transactions", st->l2_atomic_transactions);
	wg_json_u64(j, "l2_hits", st->l2_hits);
	wg_json_u64(j, "l2_misses", st->l2_misses);
	wg_json_double(j, "l2_hit_rate", st->l2_hit_rate);
	wg_json_u64(j, "dram_reads", st->dram_reads);
	wg_json_u64(j, "dram_writes", st->dram_writes);
	wg_json_u64(j, "dram_row_hits", st->dram_row_hits);
	wg_json_double(j, "avg_mem_latency", st->avg_mem_latency);
	wg_json_u64(j, "icnt_stall_cycles", st->icnt_stall_cycles);
	wg_json_begin_array(j, "icnt_stall_cycles_sm");
	for (uint32_t s = 0; s < m->p.num_sms; s++)
		wg_json_u64(j, NULL, st->icnt_stall_cycles_sm[s]);
	wg_json_end_array(j);
	wg_json_end_object(j);
}

const struct wg_icnt *wg_memsys_icnt(const struct wg_memsys *m)
{
	return m->icnt;
}

const struct wg_l2 *wg_memsys_l2(const struct wg_memsys *m, uint32_t channel)
{
	return channel < m->p.channels ? m->ch[channel].l2 : NULL;
}

const struct wg_dram *wg_memsys_dram(const struct wg_memsys *m, uint32_t channel)
{
	return channel < m->p.channels ? m->ch[channel].dram : NULL;
}

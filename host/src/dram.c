/*
 * GDDR5 model of one memory channel (docs/memory-models.md section 2).
 *
 * The channel is simulated command cycle by command cycle, but every timing
 * constraint is kept as the absolute DRAM cycle of the command it depends on
 * (last activate, last column command, ...), so the earliest cycle at which
 * each queued request's next command becomes legal is a max() of a few
 * sums. When no command is legal at the current cycle, the model jumps to
 * the smallest of those cycles (or the next arrival): nothing changes in
 * between, so the jump gives exactly what stepping would.
 *
 * One command per command cycle. Priority (FR-FCFS): column commands of row
 * hits, oldest first; then the row command (precharge or activate) of the
 * oldest other request whose command is legal. A bank is not precharged
 * while a queued request hits its open row.
 *
 * Time: core cycle t begins at t / f_core, DRAM cycle d at d / f_dram.
 * A request stamped t arrives at the first DRAM cycle beginning at or after
 * t: ceil(t * f_dram / f_core). Data that ends at DRAM cycle boundary e is
 * seen at the first core boundary at or after it: ceil(e * f_core / f_dram).
 * advance(t) processes the DRAM cycles that begin before core cycle t does;
 * every completion at or before t is then fixed (its column command lies in
 * an earlier DRAM cycle), and requests stamped t can still be pushed.
 */
#include "dram.h"

#include <stdlib.h>
#include <string.h>

#include "warpgate.h"

#define NEVER (INT64_MIN / 4)
#define FOREVER (INT64_MAX / 4)

struct bank {
	int open;
	uint64_t row;
	int64_t act;    /* last activate */
	int64_t pre;    /* last precharge */
	int64_t wr_col; /* last write command */
	uint64_t hit_gen; /* == dram->gen when a queued, arrived request hits the open row */
};

struct group {
	int64_t col;    /* last column command */
	int64_t rd_col; /* last read command */
};

struct dreq {
	uint64_t id, addr, row, stamp;
	int64_t arrive; /* DRAM cycle */
	uint32_t bank, group;
	uint8_t write, bursts_left, started, caused_act, caused_pre;
};

struct done_entry {
	struct wg_dram_done d;
	uint64_t order; /* service order */
};

struct wg_dram {
	struct wg_dram_params p;
	/* derived, DRAM cycles */
	int64_t burst;      /* data-bus cycles per burst */
	int64_t tRCDWR, tRTW, tWTR, tWTP;
	uint32_t atom;      /* bytes per burst */
	uint32_t bank_shift; /* bank >> bank_shift = group */
	uint64_t num, den;  /* f_dram / f_core reduced */

	struct bank *banks;
	struct group *groups;
	int64_t last_act, last_col, last_rd_col, last_wr_col, bus_free;

	struct dreq *slots;  /* queue_size entries */
	uint32_t *order;     /* slot indices, oldest first */
	uint32_t *free_slots;
	uint32_t nq, nfree;

	struct done_entry *done;
	size_t done_head, done_len, done_cap;
	uint64_t served;

	uint64_t now;    /* core cycles */
	int64_t next_d;  /* first DRAM cycle not processed */
	uint64_t gen;
	struct wg_dram_stats st;
};

/* ---- address mapping ----------------------------------------------------- */

int wg_dram_mapping_parse(struct wg_dram_mapping *m, const char *s, char *err, size_t errlen)
{
	struct wg_dram_mapping r = { 0, 0, 0 };
	size_t n = 0, len;
	int bit;

	if (!m || !s) {
		snprintf(err, errlen, "no address map");
		return WG_EINVAL;
	}
	len = strlen(s);
	for (size_t i = 0; i < len; i++)
		if (s[i] != '.')
			n++;
	if (!n || n > 64) {
		snprintf(err, errlen, "address map has %zu bits, expected 1..64", n);
		return WG_ECONFIG;
	}
	bit = (int)n;
	for (size_t i = 0; i < len; i++) {
		uint64_t b;

		if (s[i] == '.')
			continue;
		b = 1ull << --bit;
		switch (s[i]) {
		case 'R': r.row_mask |= b; break;
		case 'B': r.bank_mask |= b; break;
		case 'C': r.col_mask |= b; break;
		case 'S':
		case '0': break;
		default:
			snprintf(err, errlen, "address map character %zu '%c' (bit %d): expected R, B, C, S, 0 or '.'", i + 1,
			         s[i], bit);
			return WG_ECONFIG;
		}
	}
	*m = r;
	return 0;
}

/* The bits of addr under mask, packed from bit 0 upwards. */
static uint64_t gather(uint64_t addr, uint64_t mask)
{
	uint64_t v = 0;
	unsigned k = 0;

	while (mask) {
		uint64_t low = mask & -mask;

		if (addr & low)
			v |= 1ull << k;
		k++;
		mask &= mask - 1;
	}
	return v;
}

static unsigned log2u(uint64_t v)
{
	unsigned k = 0;

	while (v > 1) {
		v >>= 1;
		k++;
	}
	return k;
}

void wg_dram_decode(const struct wg_dram *m, uint64_t addr, uint32_t *bank, uint32_t *group, uint64_t *row,
                    uint64_t *col)
{
	uint32_t b = (uint32_t)gather(addr, m->p.map.bank_mask);

	if (bank)
		*bank = b;
	if (group)
		*group = b >> m->bank_shift;
	if (row)
		*row = gather(addr, m->p.map.row_mask);
	if (col)
		*col = gather(addr, m->p.map.col_mask);
}

/* ---- parameters ---------------------------------------------------------- */

int wg_dram_params_from_config(struct wg_dram_params *p, const struct wg_config *c, char *err, size_t errlen)
{
	char msg[200];
	int rc;

	if (!p || !c)
		return WG_EINVAL;
	memset(p, 0, sizeof(*p));
	rc = wg_dram_timing_parse(&p->timing, c->dram_timing, msg, sizeof(msg));
	if (rc) {
		snprintf(err, errlen, "dram_timing: %s", msg);
		return rc;
	}
	rc = wg_dram_mapping_parse(&p->map, WG_DRAM_MAPPING_DEFAULT, msg, sizeof(msg));
	if (rc) {
		snprintf(err, errlen, "DRAM address map: %s", msg);
		return rc;
	}
	p->core_clock_mhz = c->core_clock_mhz;
	p->dram_clock_mhz = c->dram_clock_mhz;
	p->queue_size = c->dram_queue;
	p->bus_bytes = 8;
	p->burst_len = 8;
	p->beats_per_clk = 4;
	return 0;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;
		a = b;
		b = r;
	}
	return a;
}

static int check_params(const struct wg_dram_params *p)
{
	const struct wg_dram_timing *t = &p->timing;
	const struct wg_dram_mapping *m = &p->map;

	if (!t->nbk || (t->nbk & (t->nbk - 1)) || !t->nbkgrp || (t->nbkgrp & (t->nbkgrp - 1)) || t->nbkgrp > t->nbk)
		return WG_EINVAL;
	if ((uint64_t)__builtin_popcountll(m->bank_mask) != log2u(t->nbk))
		return WG_EINVAL;
	if ((m->bank_mask & m->row_mask) || (m->bank_mask & m->col_mask) || (m->row_mask & m->col_mask))
		return WG_EINVAL;
	if (!p->core_clock_mhz || !p->dram_clock_mhz || !p->queue_size || p->queue_size > 65536)
		return WG_EINVAL;
	if (!p->bus_bytes || !p->burst_len || !p->beats_per_clk || p->burst_len % p->beats_per_clk)
		return WG_EINVAL;
	if ((uint64_t)p->bus_bytes * p->burst_len > 128)
		return WG_EINVAL;
	return 0;
}

/* ---- creation ------------------------------------------------------------ */

int wg_dram_create(struct wg_dram **mp, const struct wg_dram_params *p)
{
	struct wg_dram *m;
	const struct wg_dram_timing *t;
	int64_t v;
	uint64_t g;
	int rc;

	if (!mp || !p)
		return WG_EINVAL;
	*mp = NULL;
	rc = check_params(p);
	if (rc)
		return rc;
	m = calloc(1, sizeof(*m));
	if (!m)
		return WG_ENOMEM;
	m->p = *p;
	t = &m->p.timing;
	m->burst = p->burst_len / p->beats_per_clk;
	m->atom = p->bus_bytes * p->burst_len;
	/* GPGPU-Sim's derived constraints. */
	v = (int64_t)t->tRCD - (int64_t)t->WL - 1;
	m->tRCDWR = v > 0 ? v : 0;
	v = (int64_t)t->CL + m->burst + 2 - (int64_t)t->WL;
	m->tRTW = v > 0 ? v : 0;
	m->tWTR = (int64_t)t->WL + m->burst + t->tCDLR;
	m->tWTP = (int64_t)t->WL + m->burst + t->tWR;
	m->bank_shift = log2u(t->nbk) - log2u(t->nbkgrp);
	g = gcd(p->dram_clock_mhz, p->core_clock_mhz);
	m->num = p->dram_clock_mhz / g;
	m->den = p->core_clock_mhz / g;

	m->banks = calloc(t->nbk, sizeof(*m->banks));
	m->groups = calloc(t->nbkgrp, sizeof(*m->groups));
	m->slots = calloc(p->queue_size, sizeof(*m->slots));
	m->order = calloc(p->queue_size, sizeof(*m->order));
	m->free_slots = calloc(p->queue_size, sizeof(*m->free_slots));
	if (!m->banks || !m->groups || !m->slots || !m->order || !m->free_slots) {
		rc = WG_ENOMEM;
		goto fail;
	}
	for (uint32_t i = 0; i < t->nbk; i++)
		m->banks[i] = (struct bank){ .act = NEVER, .pre = NEVER, .wr_col = NEVER };
	for (uint32_t i = 0; i < t->nbkgrp; i++)
		m->groups[i] = (struct group){ .col = NEVER, .rd_col = NEVER };
	m->last_act = m->last_col = m->last_rd_col = m->last_wr_col = m->bus_free = NEVER;
	for (uint32_t i = 0; i < p->queue_size; i++)
		m->free_slots[i] = p->queue_size - 1 - i;
	m->nfree = p->queue_size;
	*mp = m;
	return 0;
fail:
	wg_dram_destroy(m);
	return rc;
}

int wg_dram_create_from_config(struct wg_dram **mp, const struct wg_config *c, char *err, size_t errlen)
{
	struct wg_dram_params p;
	int rc;

	if (!mp)
		return WG_EINVAL;
	*mp = NULL;
	rc = wg_dram_params_from_config(&p, c, err, errlen);
	if (rc)
		return rc;
	rc = wg_dram_create(mp, &p);
	if (rc == WG_EINVAL) {
		snprintf(err, errlen, "inconsistent DRAM parameters (bank count, map or clocks)");
		return WG_ECONFIG;
	}
	if (rc)
		snprintf(err, errlen, "cannot create the DRAM model: out of memory");
	return rc;
}

void wg_dram_destroy(struct wg_dram *m)
{
	if (!m)
		return;
	free(m->banks);
	free(m->groups);
	free(m->slots);
	free(m->order);
	free(m->free_slots);
	free(m->done);
	free(m);
}

/* ---- clock conversion ---------------------------------------------------- */

/* First DRAM cycle beginning at or after the start of core cycle t. */
static int64_t dram_of_core(const struct wg_dram *m, uint64_t t)
{
	unsigned __int128 x = (unsigned __int128)t * m->num;

	return (int64_t)((x + m->den - 1) / m->den);
}

/* First core cycle boundary at or after DRAM cycle boundary e (e >= 0). */
static uint64_t core_of_dram(const struct wg_dram *m, int64_t e)
{
	unsigned __int128 x = (unsigned __int128)(uint64_t)e * m->den;

	return (uint64_t)((x + m->num - 1) / m->num);
}

/* ---- scheduling ---------------------------------------------------------- */

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* Earliest cycle of the next column command of r (its row is open). */
static int64_t col_ready(const struct wg_dram *m, const struct dreq *r)
{
	const struct wg_dram_timing *t = &m->p.timing;
	const struct bank *b = &m->banks[r->bank];
	const struct group *g = &m->groups[r->group];
	int64_t e = max64(m->last_col + t->tCCD, g->col + t->tCCDL);

	if (r->write) {
		e = max64(e, b->act + m->tRCDWR);
		e = max64(e, m->last_rd_col + m->tRTW);
		e = max64(e, m->bus_free - t->WL);
	} else {
		e = max64(e, b->act + t->tRCD);
		e = max64(e, m->last_wr_col + m->tWTR);
		e = max64(e, m->bus_free - t->CL);
	}
	return e;
}

static int64_t pre_ready(const struct wg_dram *m, const struct dreq *r)
{
	const struct bank *b = &m->banks[r->bank];
	int64_t e = b->act + m->p.timing.tRAS;

	e = max64(e, m->groups[r->group].rd_col + m->p.timing.tRTPL);
	return max64(e, b->wr_col + m->tWTP);
}

static int64_t act_ready(const struct wg_dram *m, const struct dreq *r)
{
	const struct bank *b = &m->banks[r->bank];
	int64_t e = b->pre + m->p.timing.tRP;

	e = max64(e, b->act + m->p.timing.tRC);
	return max64(e, m->last_act + m->p.timing.tRRD);
}

static int record_done(struct wg_dram *m, const struct dreq *r, int64_t end)
{
	struct done_entry e;
	size_t i;

	if (m->done_head && m->done_len == m->done_cap) {
		memmove(m->done, m->done + m->done_head, (m->done_len - m->done_head) * sizeof(*m->done));
		m->done_len -= m->done_head;
		m->done_head = 0;
	}
	if (m->done_len == m->done_cap) {
		size_t cap = m->done_cap ? 2 * m->done_cap : 64;
		struct done_entry *nd = realloc(m->done, cap * sizeof(*nd));

		if (!nd)
			return WG_ENOMEM;
		m->done = nd;
		m->done_cap = cap;
	}
	e.d = (struct wg_dram_done){
		.id = r->id,
		.stamp = r->stamp,
		.cycle = core_of_dram(m, end),
		.write = r->write,
	};
	e.order = m->served++;
	/* Sorted by cycle; a later service goes after equal cycles. */
	i = m->done_len;
	while (i > m->done_head && m->done[i - 1].d.cycle > e.d.cycle) {
		m->done[i] = m->done[i - 1];
		i--;
	}
	m->done[i] = e;
	m->done_len++;

	m->st.latency_sum += e.d.cycle - r->stamp;
	if (r->write)
		m->st.writes++;
	else
		m->st.reads++;
	return 0;
}

static void remove_queued(struct wg_dram *m, uint32_t pos)
{
	uint32_t slot = m->order[pos];

	memmove(&m->order[pos], &m->order[pos + 1], (m->nq - pos - 1) * sizeof(*m->order));
	m->nq--;
	m->free_slots[m->nfree++] = slot;
}

static int issue_col(struct wg_dram *m, uint32_t pos, int64_t d)
{
	struct dreq *r = &m->slots[m->order[pos]];
	struct group *g = &m->groups[r->group];
	int64_t start = d + (r->write ? m->p.timing.WL : m->p.timing.CL), end = start + m->burst;

	if (!r->started) {
		r->started = 1;
		if (r->caused_act) {
			m->st.row_misses++;
			if (r->caused_pre)
				m->st.row_conflicts++;
		} else {
			m->st.row_hits++;
		}
	}
	m->last_col = d;
	g->col = d;
	if (r->write) {
		m->last_wr_col = d;
		m->banks[r->bank].wr_col = d;
	} else {
		m->last_rd_col = d;
		g->rd_col = d;
	}
	m->bus_free = end;
	m->st.bus_busy += (uint64_t)m->burst;
	if (--r->bursts_left)
		return 0;
	int rc = record_done(m, r, end);
	remove_queued(m, pos);
	return rc;
}

/*
 * Issue the command of highest priority that is legal at DRAM cycle d.
 * Returns 1 when one was issued, 0 when none is legal (*next is then the
 * earliest cycle > d at which one can be), or a negative error.
 */
static int schedule(struct wg_dram *m, int64_t d, int64_t *next)
{
	int64_t nxt = FOREVER;
	uint64_t gen = ++m->gen;

	/* Row hits, oldest first. */
	for (uint32_t i = 0; i < m->nq; i++) {
		struct dreq *r = &m->slots[m->order[i]];
		struct bank *b = &m->banks[r->bank];
		int64_t e;

		if (r->arrive > d) {
			if (r->arrive < nxt)
				nxt = r->arrive;
			break; /* arrivals are in queue order */
		}
		if (!b->open || b->row != r->row)
			continue;
		b->hit_gen = gen;
		e = col_ready(m, r);
		if (e <= d)
			return issue_col(m, i, d) < 0 ? WG_ENOMEM : 1;
		if (e < nxt)
			nxt = e;
	}
	/* Row commands for the others, oldest first. */
	for (uint32_t i = 0; i < m->nq; i++) {
		struct dreq *r = &m->slots[m->order[i]];
		struct bank *b = &m->banks[r->bank];
		int64_t e;

		if (r->arrive > d)
			break;
		if (b->open && b->row == r->row)
			continue;
		if (b->open) {
			if (b->hit_gen == gen)
				continue; /* the open row still has queued hits */
			e = pre_ready(m, r);
			if (e <= d) {
				b->open = 0;
				b->pre = d;
				r->caused_pre = 1;
				m->st.precharges++;
				return 1;
			}
		} else {
			e = act_ready(m, r);
			if (e <= d) {
				b->open = 1;
				b->row = r->row;
				b->act = d;
				m->last_act = d;
				r->caused_act = 1;
				m->st.activates++;
				return 1;
			}
		}
		if (e < nxt)
			nxt = e;
	}
	*next = nxt;
	return 0;
}

/* Process DRAM cycles up to (not including) limit. */
static int run(struct wg_dram *m, int64_t limit)
{
	while (m->next_d < limit) {
		int64_t nxt = FOREVER;
		int rc;

		if (!m->nq) {
			m->next_d = limit;
			break;
		}
		rc = schedule(m, m->next_d, &nxt);
		if (rc < 0)
			return rc;
		if (rc)
			m->next_d++;
		else
			m->next_d = nxt < limit ? nxt : limit;
	}
	return 0;
}

/* ---- interface ----------------------------------------------------------- */

uint64_t wg_dram_now(const struct wg_dram *m)
{
	return m->now;
}

int wg_dram_can_accept(const struct wg_dram *m)
{
	return m->nq < m->p.queue_size;
}

uint32_t wg_dram_queued(const struct wg_dram *m)
{
	return m->nq;
}

const struct wg_dram_stats *wg_dram_stats(const struct wg_dram *m)
{
	return &m->st;
}

int wg_dram_advance(struct wg_dram *m, uint64_t t)
{
	if (!m || t < m->now)
		return WG_EINVAL;
	m->now = t;
	return run(m, dram_of_core(m, t));
}

int wg_dram_push(struct wg_dram *m, uint64_t stamp, const struct wg_dram_req *r)
{
	struct dreq *q;
	uint32_t slot;
	int rc;

	if (!m || !r || stamp < m->now || r->write > 1 || (r->addr & 31) || !r->bytes || r->bytes > 128 ||
	    (r->bytes & 31))
		return WG_EINVAL;
	rc = wg_dram_advance(m, stamp);
	if (rc)
		return rc;
	if (m->nq == m->p.queue_size) {
		m->st.queue_full++;
		return WG_ENOMEM;
	}
	slot = m->free_slots[--m->nfree];
	q = &m->slots[slot];
	memset(q, 0, sizeof(*q));
	q->id = r->id;
	q->addr = r->addr;
	q->stamp = stamp;
	q->write = r->write;
	q->arrive = dram_of_core(m, stamp);
	q->bursts_left = (uint8_t)((r->bytes + m->atom - 1) / m->atom);
	wg_dram_decode(m, r->addr, &q->bank, &q->group, &q->row, NULL);
	m->order[m->nq++] = slot;
	if (m->nq > m->st.max_queue)
		m->st.max_queue = m->nq;
	return 0;
}

int wg_dram_pop(struct wg_dram *m, struct wg_dram_done *d)
{
	if (!m || !d || m->done_head == m->done_len || m->done[m->done_head].d.cycle > m->now)
		return 0;
	*d = m->done[m->done_head++].d;
	if (m->done_head == m->done_len)
		m->done_head = m->done_len = 0;
	return 1;
}

uint64_t wg_dram_next_event(const struct wg_dram *m)
{
	uint64_t best = UINT64_MAX;

	if (m->done_head < m->done_len)
		best = m->done[m->done_head].d.cycle;
	if (m->nq) {
		/* A request not yet fully issued ends no earlier than this. */
		uint32_t lat = m->p.timing.CL < m->p.timing.WL ? m->p.timing.CL : m->p.timing.WL;
		uint64_t lb = core_of_dram(m, m->next_d + lat + m->burst);

		if (lb < best)
			best = lb;
	}
	return best;
}

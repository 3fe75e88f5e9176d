/*
 * One L2 slice (docs/memory-models.md section 4).
 *
 * Per cycle c, in this order: the fills stamped before c are applied (their
 * sectors become valid, the requests waiting for them are answered), then
 * the oldest request, if its hit latency has elapsed and the bank is free,
 * is looked up; a look-up that lacks a resource (MSHR entry, merge slot,
 * miss-queue room, a way that is not waiting for a fill, reply room) leaves
 * the request at the head and counts a stall cycle. One look-up per cycle;
 * an atomic holds the bank for two (its read and its write).
 *
 * advance() runs the cycles in which something can happen and jumps over the
 * rest; a blocked head makes every cycle count until it moves.
 */
#include "l2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "warpgate.h"

#define L2_IN_QUEUE 8  /* GPGPU-Sim's icnt->L2 queue (gpgpu_dram_partition_queues 8:8:8:8) */
#define L2_OUT_QUEUE 8 /* its L2->icnt queue */
#define DRAM_MAX_BYTES 128u

enum { LOOKUP_DONE = 0, STALL_MSHR, STALL_MERGE, STALL_MQ, STALL_WAY };

/* A ring that grows; the bounded queues check their bound before pushing. */
struct deq {
	char *buf;
	size_t esz;
	uint32_t cap, head, count;
};

struct way {
	uint64_t ln;      /* line number: slice-local address / line size */
	uint64_t order;   /* LRU: last use; FIFO: allocation */
	uint32_t valid, dirty, pending;
	int32_t mshr;     /* entry waiting for this line's fills, -1 none */
	uint8_t used;
};

struct waiter {
	struct wg_l2_req r;
	uint64_t stamp;
	uint32_t need;    /* sectors it waits for */
};

struct mshr {
	uint64_t ln;
	uint32_t way;     /* index in ways[] */
	uint32_t pending; /* sectors being fetched */
	uint32_t nwait;
	uint8_t used;
	struct waiter *w; /* [max_merge] */
};

struct inreq {
	struct wg_l2_req r;
	uint64_t stamp, ready;
};

struct fill {
	uint64_t stamp, addr;
	uint32_t bytes;
};

struct wg_l2 {
	struct wg_l2_params p;
	uint32_t line_shift, set_mask, sec_mask;
	uint64_t now;
	uint64_t bank_free; /* first cycle of the next look-up */
	uint64_t order;
	struct way *ways;   /* sets x assoc, set-major */
	struct mshr *mshr;
	struct waiter *waiters;
	uint32_t mshr_used;
	struct deq in, fills, out, mq;
	uint32_t in_cap;
	struct wg_l2_stats st;
};

/* ---- queues ------------------------------------------------------------ */

static void *deq_at(const struct deq *d, uint32_t i)
{
	return d->buf + (size_t)((d->head + i) % d->cap) * d->esz;
}

static int deq_push(struct deq *d, const void *e)
{
	if (d->count == d->cap) {
		uint32_t cap = d->cap ? 2 * d->cap : 16;
		char *nb = malloc((size_t)cap * d->esz);

		if (!nb)
			return WG_ENOMEM;
		for (uint32_t i = 0; i < d->count; i++)
			memcpy(nb + (size_t)i * d->esz, deq_at(d, i), d->esz);
		free(d->buf);
		d->buf = nb;
		d->cap = cap;
		d->head = 0;
	}
	memcpy(deq_at(d, d->count), e, d->esz);
	d->count++;
	return 0;
}

static void deq_drop(struct deq *d)
{
	d->head = (d->head + 1) % d->cap;
	d->count--;
}

/* ---- parameters -------------------------------------------------------- */

static int check_geom(const struct wg_cache_geom *g, char *err, size_t errlen)
{
	const char *what = NULL;
	char c = 0;

	if (g->replacement != 'L' && g->replacement != 'F')
		what = "replacement", c = g->replacement;
	else if (g->write_policy != 'B')
		what = "write policy (the L2 is write-back: B)", c = g->write_policy;
	else if (g->alloc_policy != 'm')
		what = "allocation (on miss: m)", c = g->alloc_policy;
	else if (g->write_alloc != 'W')
		what = "write allocation (W)", c = g->write_alloc;
	else if (g->set_index != 'L')
		what = "set index (linear: L)", c = g->set_index;
	else if (g->mshr_type != 'A')
		what = "MSHR type (associative: A)", c = g->mshr_type;
	if (what) {
		snprintf(err, errlen, "%s '%c' is not modelled by the L2", what, c);
		return WG_ECONFIG;
	}
	if (g->line / WG_L2_SECTOR_BYTES > 32 || g->line % WG_L2_SECTOR_BYTES) {
		snprintf(err, errlen, "line of %u bytes: the L2 needs 1 to 32 sectors of %u bytes", g->line,
		         WG_L2_SECTOR_BYTES);
		return WG_ECONFIG;
	}
	return 0;
}

int wg_l2_params_from_config(struct wg_l2_params *p, const struct wg_config *c, char *err, size_t errlen)
{
	char msg[240];
	int rc;

	if (!p || !c)
		return WG_EINVAL;
	memset(p, 0, sizeof(*p));
	if ((rc = wg_cache_str_parse(c->dl2, &p->geom, msg, sizeof(msg))) ||
	    (rc = check_geom(&p->geom, msg, sizeof(msg)))) {
		snprintf(err, errlen, "dl2: %s", msg);
		return rc;
	}
	p->latency = c->rop_latency ? c->rop_latency : 1;
	p->in_queue = L2_IN_QUEUE;
	p->out_queue = L2_OUT_QUEUE;
	return 0;
}

/* ---- creation ---------------------------------------------------------- */

int wg_l2_create(struct wg_l2 **lp, const struct wg_l2_params *p)
{
	struct wg_l2 *l2;
	char msg[200];
	uint32_t nsec;

	if (!lp || !p)
		return WG_EINVAL;
	*lp = NULL;
	if (check_geom(&p->geom, msg, sizeof(msg))) {
		wg_err("L2: %s", msg);
		return WG_EINVAL;
	}
	if (!p->latency || !p->in_queue || !p->out_queue || !p->geom.sets || !p->geom.assoc ||
	    !p->geom.mshr_entries || !p->geom.mshr_max_merge || !p->geom.miss_queue ||
	    (p->geom.sets & (p->geom.sets - 1)) || (p->geom.line & (p->geom.line - 1)))
		return WG_EINVAL;
	l2 = calloc(1, sizeof(*l2));
	if (!l2)
		return WG_ENOMEM;
	l2->p = *p;
	nsec = p->geom.line / WG_L2_SECTOR_BYTES;
	l2->sec_mask = nsec == 32 ? 0xFFFFFFFFu : (1u << nsec) - 1;
	while ((1u << l2->line_shift) < p->geom.line)
		l2->line_shift++;
	l2->set_mask = p->geom.sets - 1;
	l2->in_cap = p->latency + p->in_queue;
	l2->in.esz = sizeof(struct inreq);
	l2->fills.esz = sizeof(struct fill);
	l2->out.esz = sizeof(struct wg_l2_reply);
	l2->mq.esz = sizeof(struct wg_l2_dram_req);
	l2->ways = calloc((size_t)p->geom.sets * p->geom.assoc, sizeof(*l2->ways));
	l2->mshr = calloc(p->geom.mshr_entries, sizeof(*l2->mshr));
	l2->waiters = calloc((size_t)p->geom.mshr_entries * p->geom.mshr_max_merge, sizeof(*l2->waiters));
	if (!l2->ways || !l2->mshr || !l2->waiters)
		goto fail;
	for (uint32_t i = 0; i < p->geom.mshr_entries; i++)
		l2->mshr[i].w = &l2->waiters[(size_t)i * p->geom.mshr_max_merge];
	for (size_t i = 0; i < (size_t)p->geom.sets * p->geom.assoc; i++)
		l2->ways[i].mshr = -1;
	*lp = l2;
	return 0;
fail:
	wg_l2_destroy(l2);
	return WG_ENOMEM;
}

void wg_l2_destroy(struct wg_l2 *l2)
{
	if (!l2)
		return;
	free(l2->ways);
	free(l2->mshr);
	free(l2->waiters);
	free(l2->in.buf);
	free(l2->fills.buf);
	free(l2->out.buf);
	free(l2->mq.buf);
	free(l2);
}

/* ---- tag array --------------------------------------------------------- */

static struct way *set_of(const struct wg_l2 *l2, uint64_t ln)
{
	return &l2->ways[(size_t)(ln & l2->set_mask) * l2->p.geom.assoc];
}

static struct way *find(const struct wg_l2 *l2, uint64_t ln)
{
	struct way *s = set_of(l2, ln);

	for (uint32_t i = 0; i < l2->p.geom.assoc; i++)
		if (s[i].used && s[i].ln == ln)
			return &s[i];
	return NULL;
}

/* A free way, else the least recently used (LRU) / oldest (FIFO) way not waiting for a fill. */
static struct way *victim(const struct wg_l2 *l2, uint64_t ln)
{
	struct way *s = set_of(l2, ln), *v = NULL;

	for (uint32_t i = 0; i < l2->p.geom.assoc; i++) {
		if (!s[i].used)
			return &s[i];
		if (s[i].mshr < 0 && !s[i].pending && (!v || s[i].order < v->order))
			v = &s[i];
	}
	return v;
}

/* DRAM requests for a sector mask: runs of consecutive sectors, at most 128 B each. */
static unsigned count_runs(uint32_t m)
{
	unsigned n = 0, i = 0, len;

	while (i < 32) {
		if (!(m >> i & 1)) {
			i++;
			continue;
		}
		for (len = 0; i < 32 && (m >> i & 1) && len < DRAM_MAX_BYTES / WG_L2_SECTOR_BYTES; len++)
			i++;
		n++;
	}
	return n;
}

static int emit_runs(struct wg_l2 *l2, uint64_t ln, uint32_t m, int write, uint64_t c)
{
	unsigned i = 0, len;
	int rc;

	while (i < 32) {
		struct wg_l2_dram_req d = { .write = (uint8_t)write, .cycle = c };

		if (!(m >> i & 1)) {
			i++;
			continue;
		}
		d.addr = (ln << l2->line_shift) + (uint64_t)i * WG_L2_SECTOR_BYTES;
		for (len = 0; i < 32 && (m >> i & 1) && len < DRAM_MAX_BYTES / WG_L2_SECTOR_BYTES; len++)
			i++;
		d.bytes = len * WG_L2_SECTOR_BYTES;
		if ((rc = deq_push(&l2->mq, &d)))
			return rc;
		if (write) {
			l2->st.dram_writes++;
			l2->st.dram_write_bytes += d.bytes;
		} else {
			l2->st.dram_reads++;
			l2->st.dram_read_bytes += d.bytes;
		}
	}
	return 0;
}

/* Replies are kept in cycle order (ties in the order they were made). */
static int reply(struct wg_l2 *l2, const struct wg_l2_req *r, uint64_t stamp, uint64_t cycle, int hit)
{
	struct wg_l2_reply y = { .id = r->id, .stamp = stamp, .cycle = cycle, .cmd = r->cmd, .hit = (uint8_t)hit };
	int rc = deq_push(&l2->out, &y);

	for (uint32_t i = l2->out.count - 1; !rc && i > 0; i--) {
		struct wg_l2_reply *a = deq_at(&l2->out, i - 1), *b = deq_at(&l2->out, i), t;

		if (a->cycle <= b->cycle)
			break;
		t = *a;
		*a = *b;
		*b = t;
	}
	return rc;
}

/* ---- look-up ----------------------------------------------------------- */

static int lookup(struct wg_l2 *l2, const struct inreq *q, uint64_t c)
{
	const struct wg_l2_req *r = &q->r;
	const struct wg_cache_geom *g = &l2->p.geom;
	uint64_t ln = r->addr >> l2->line_shift;
	struct way *w = find(l2, ln), *v = NULL;
	struct mshr *e = NULL;
	uint32_t s = r->sectors, need, fetch;
	int write = r->cmd == WG_L2_WRITE, present = w != NULL, hit, wait, rc;
	unsigned ndram = 0;

	if (write) {
		/* Whole sectors are simply written; a partial sector needs its DRAM data unless valid or coming. */
		need = 0;
		fetch = r->partial & s & ~(w ? w->valid | w->pending : 0);
	} else {
		need = s & ~(w ? w->valid : 0);
		fetch = need & ~(w ? w->pending : 0);
	}
	wait = need != 0;
	hit = present && !need && !fetch;

	if (!hit) {
		if (w && w->mshr >= 0) {
			e = &l2->mshr[w->mshr];
			if (wait && e->nwait == g->mshr_max_merge)
				return STALL_MERGE;
		} else if ((wait || fetch) && l2->mshr_used == g->mshr_entries) {
			return STALL_MSHR;
		}
		if (!w) {
			if (!(v = victim(l2, ln)))
				return STALL_WAY;
			if (v->used)
				ndram += count_runs(v->dirty);
		}
		ndram += count_runs(fetch);
		/* An empty miss queue takes a look-up's requests even beyond its size (no deadlock). */
		if (l2->mq.count && l2->mq.count + ndram > g->miss_queue)
			return STALL_MQ;
	}

	/* Every resource is there: commit. */
	if (r->cmd == WG_L2_READ)
		l2->st.reads++;
	else if (write)
		l2->st.writes++;
	else
		l2->st.atomics++;
	if (hit) {
		l2->st.hits++;
	} else {
		l2->st.misses++;
		if (present)
			l2->st.sector_misses++;
	}
	if (!w) {
		if (v->used) {
			l2->st.evictions++;
			if (v->dirty) {
				l2->st.dirty_evictions++;
				if ((rc = emit_runs(l2, v->ln, v->dirty, 1, c)))
					return rc;
			}
		}
		w = v;
		*w = (struct way){ .ln = ln, .order = ++l2->order, .mshr = -1, .used = 1 };
	} else if (g->replacement == 'L') {
		w->order = ++l2->order;
	}
	if (wait || fetch) {
		if (!e) {
			uint32_t i = 0;

			while (l2->mshr[i].used)
				i++;
			e = &l2->mshr[i];
			e->used = 1;
			e->ln = ln;
			e->way = (uint32_t)(w - l2->ways);
			e->pending = 0;
			e->nwait = 0;
			w->mshr = (int32_t)i;
			l2->mshr_used++;
		} else {
			l2->st.mshr_merges++;
		}
		e->pending |= fetch;
		w->pending |= fetch;
		if ((rc = emit_runs(l2, ln, fetch, 0, c)))
			return rc;
		if (wait)
			e->w[e->nwait++] = (struct waiter){ .r = *r, .stamp = q->stamp, .need = need };
	}
	if (write) {
		w->valid |= s & ~r->partial;
		w->dirty |= s;
	}
	l2->bank_free = c + 1;
	if (!wait) {
		if (r->cmd == WG_L2_ATOMIC) {
			w->dirty |= s;
			l2->bank_free = c + 2;
		}
		if ((rc = reply(l2, r, q->stamp, c, hit)))
			return rc;
	}
	return LOOKUP_DONE;
}

static void apply_fill(struct wg_l2 *l2, const struct fill *f, uint64_t c)
{
	uint64_t ln = f->addr >> l2->line_shift, t = c;
	struct way *w = find(l2, ln);
	struct mshr *e;
	uint32_t first = (uint32_t)(f->addr & (l2->p.geom.line - 1)) / WG_L2_SECTOR_BYTES;
	uint32_t n = f->bytes / WG_L2_SECTOR_BYTES, k = 0;
	uint32_t m = (n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1) << first;

	if (!w || w->mshr < 0)
		return; /* checked by wg_l2_fill */
	e = &l2->mshr[w->mshr];
	m &= w->pending;
	w->valid |= m;
	w->pending &= ~m;
	e->pending &= ~m;
	l2->st.fills++;
	for (uint32_t i = 0; i < e->nwait; i++) {
		struct waiter *x = &e->w[i];

		if (x->need & ~w->valid) {
			e->w[k++] = *x;
			continue;
		}
		if (x->r.cmd == WG_L2_ATOMIC) {
			if (t < l2->bank_free)
				t = l2->bank_free;
			w->dirty |= x->r.sectors;
			reply(l2, &x->r, x->stamp, t, 0);
			l2->bank_free = t + 2;
			t += 2;
		} else {
			reply(l2, &x->r, x->stamp, t, 0);
		}
	}
	e->nwait = k;
	if (!e->pending) {
		e->used = 0;
		w->mshr = -1;
		l2->mshr_used--;
	}
}

/* ---- time -------------------------------------------------------------- */

static uint64_t max3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a > b ? a : b;

	return m > c ? m : c;
}

/* Next cycle in which advance() has work (fills to apply, a look-up to try). */
static uint64_t next_work(const struct wg_l2 *l2)
{
	uint64_t next = UINT64_MAX;

	if (l2->fills.count)
		next = ((const struct fill *)deq_at(&l2->fills, 0))->stamp + 1;
	if (l2->in.count) {
		const struct inreq *q = deq_at(&l2->in, 0);
		uint64_t c = max3(q->ready, l2->bank_free, l2->now + 1);

		if (c < next)
			next = c;
	}
	return next;
}

static void run_cycle(struct wg_l2 *l2, uint64_t c)
{
	while (l2->fills.count) {
		const struct fill *f = deq_at(&l2->fills, 0);

		if (f->stamp >= c)
			break;
		apply_fill(l2, f, c);
		deq_drop(&l2->fills);
	}
	if (l2->in.count) {
		const struct inreq *q = deq_at(&l2->in, 0);

		if (q->ready > c || l2->bank_free > c)
			return;
		if (l2->out.count >= l2->p.out_queue) {
			l2->st.stall_out_queue++;
			return;
		}
		switch (lookup(l2, q, c)) {
		case LOOKUP_DONE:
			deq_drop(&l2->in);
			break;
		case STALL_MSHR:
			l2->st.stall_mshr++;
			break;
		case STALL_MERGE:
			l2->st.stall_merge++;
			break;
		case STALL_MQ:
			l2->st.stall_miss_queue++;
			break;
		case STALL_WAY:
			l2->st.stall_no_way++;
			break;
		default:
			wg_err("L2: out of memory in a look-up");
			break;
		}
	}
}

uint64_t wg_l2_now(const struct wg_l2 *l2)
{
	return l2->now;
}

int wg_l2_advance(struct wg_l2 *l2, uint64_t t)
{
	if (!l2 || t < l2->now)
		return WG_EINVAL;
	for (;;) {
		uint64_t c = next_work(l2);

		if (c > t)
			break;
		run_cycle(l2, c);
		l2->now = c;
	}
	l2->now = t;
	return 0;
}

int wg_l2_can_accept(const struct wg_l2 *l2)
{
	return l2 && l2->in.count < l2->in_cap;
}

int wg_l2_push(struct wg_l2 *l2, uint64_t stamp, const struct wg_l2_req *r)
{
	struct inreq q;
	int rc;

	if (!l2 || !r || stamp < l2->now || r->cmd > WG_L2_ATOMIC || !r->sectors || (r->sectors & ~l2->sec_mask) ||
	    (r->partial & ~r->sectors) || (r->partial && r->cmd != WG_L2_WRITE))
		return WG_EINVAL;
	if ((rc = wg_l2_advance(l2, stamp)))
		return rc;
	if (l2->in.count >= l2->in_cap) {
		l2->st.queue_full++;
		return WG_ENOMEM;
	}
	q = (struct inreq){ .r = *r, .stamp = stamp, .ready = stamp + l2->p.latency };
	return deq_push(&l2->in, &q);
}

int wg_l2_fill(struct wg_l2 *l2, uint64_t stamp, uint64_t addr, uint32_t bytes)
{
	struct fill f = { .stamp = stamp, .addr = addr, .bytes = bytes };
	uint32_t off, m;
	const struct way *w;
	int rc;

	if (!l2 || stamp < l2->now || !bytes || bytes % WG_L2_SECTOR_BYTES || addr % WG_L2_SECTOR_BYTES)
		return WG_EINVAL;
	off = (uint32_t)(addr & (l2->p.geom.line - 1));
	if (off + bytes > l2->p.geom.line)
		return WG_EINVAL;
	m = (bytes / WG_L2_SECTOR_BYTES >= 32 ? 0xFFFFFFFFu : (1u << bytes / WG_L2_SECTOR_BYTES) - 1)
	    << off / WG_L2_SECTOR_BYTES;
	w = find(l2, addr >> l2->line_shift);
	if (!w || (w->pending & m) != m)
		return WG_EINVAL;
	if ((rc = wg_l2_advance(l2, stamp)))
		return rc;
	return deq_push(&l2->fills, &f);
}

int wg_l2_peek(const struct wg_l2 *l2, struct wg_l2_reply *out)
{
	const struct wg_l2_reply *y;

	if (!l2 || !l2->out.count)
		return 0;
	y = deq_at(&l2->out, 0);
	if (y->cycle > l2->now)
		return 0;
	if (out)
		*out = *y;
	return 1;
}

int wg_l2_pop(struct wg_l2 *l2, struct wg_l2_reply *out)
{
	if (!wg_l2_peek(l2, out))
		return 0;
	deq_drop(&l2->out);
	return 1;
}

int wg_l2_peek_dram(const struct wg_l2 *l2, struct wg_l2_dram_req *out)
{
	if (!l2 || !l2->mq.count)
		return 0;
	if (out)
		*out = *(const struct wg_l2_dram_req *)deq_at(&l2->mq, 0);
	return 1;
}

int wg_l2_pop_dram(struct wg_l2 *l2, struct wg_l2_dram_req *out)
{
	if (!wg_l2_peek_dram(l2, out))
		return 0;
	deq_drop(&l2->mq);
	return 1;
}

uint64_t wg_l2_next_event(const struct wg_l2 *l2)
{
	uint64_t next = next_work(l2);

	for (uint32_t i = 0; i < l2->out.count; i++) {
		uint64_t c = ((const struct wg_l2_reply *)deq_at(&l2->out, i))->cycle;

		if (c > l2->now) {
			if (c < next)
				next = c;
			break;
		}
	}
	return next;
}

uint64_t wg_l2_busy(const struct wg_l2 *l2)
{
	return (uint64_t)l2->in.count + l2->out.count + l2->mq.count + l2->fills.count + l2->mshr_used;
}

const struct wg_l2_stats *wg_l2_stats(const struct wg_l2 *l2)
{
	return &l2->st;
}

int wg_l2_probe(const struct wg_l2 *l2, uint64_t addr, uint32_t *valid, uint32_t *dirty, uint32_t *pending)
{
	const struct way *w = find(l2, addr >> l2->line_shift);

	if (!w)
		return 0;
	if (valid)
		*valid = w->valid;
	if (dirty)
		*dirty = w->dirty;
	if (pending)
		*pending = w->pending;
	return 1;
}

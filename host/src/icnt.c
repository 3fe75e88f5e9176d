/*
 * The interconnect (docs/memory-models.md section 3).
 *
 * Each network is a crossbar of source and destination ports. A source port
 * holds a FIFO of waiting packets; in every cycle each free destination port
 * with a free credit picks, round-robin from the source after the one it
 * picked last, a free source port whose oldest packet is bound to it and
 * was pushed before this cycle. A packet of n flits started in cycle s keeps
 * both ports busy in cycles s .. s+n-1 and arrives in cycle s + n - 1 +
 * latency. Its destination credit is taken at the start and returned when
 * the packet is popped, so a destination whose consumer does not drain it
 * stops its senders. Arrivals at one destination are in start order and
 * strictly increasing in time, so each destination keeps one FIFO of packets
 * in flight and arrived. Arbitration keeps, per destination, a bit mask of
 * the candidate sources (hence at most WG_ICNT_MAX_PORTS ports per side).
 *
 * A source stalls in cycle c when, after cycle c's starts, it still holds a
 * packet pushed before c: it wanted to send and its port or the
 * destination's was busy (or out of credits).
 *
 * Time: cycles <= now are processed. A packet pushed with stamp t can start
 * at t + 1 at the earliest, so pushing it before or after advance(t) gives
 * the same result. advance() processes every cycle in which a packet waits
 * and jumps over the others.
 */
#include "icnt.h"

#include <stdlib.h>
#include <string.h>

#include "warpgate.h"

struct ring {
	struct wg_icnt_pkt *q;
	uint32_t cap, head, count;
};

struct src_port {
	struct ring r;    /* waiting packets */
	uint64_t free_at; /* first cycle in which the port can start a packet */
};

struct dst_port {
	struct ring r;    /* in flight and arrived, by arrival */
	uint64_t free_at;
	uint32_t rr;      /* first source to consider */
};

struct net {
	uint32_t nsrc, ndst;
	struct src_port *src;
	struct dst_port *dst;
	uint64_t waiting;  /* packets in source queues */
	uint64_t *stall;   /* per source */
};

struct wg_icnt {
	struct wg_icnt_params p;
	uint64_t now;
	uint64_t pending; /* pushed, not popped */
	struct net net[2];
	struct wg_icnt_stats st;
};

uint32_t wg_icnt_partition(uint64_t addr, uint32_t parts)
{
	return (uint32_t)((addr / WG_ICNT_CHUNK_BYTES) % parts);
}

uint64_t wg_icnt_local_addr(uint64_t addr, uint32_t parts)
{
	return (addr / WG_ICNT_CHUNK_BYTES / parts) * WG_ICNT_CHUNK_BYTES + addr % WG_ICNT_CHUNK_BYTES;
}

uint64_t wg_icnt_global_addr(uint64_t local, uint32_t part, uint32_t parts)
{
	return ((local / WG_ICNT_CHUNK_BYTES) * parts + part) * WG_ICNT_CHUNK_BYTES + local % WG_ICNT_CHUNK_BYTES;
}

uint32_t wg_icnt_flits(uint32_t bytes, uint32_t flit_bytes)
{
	uint32_t n = bytes / flit_bytes + (bytes % flit_bytes != 0);

	return n ? n : 1;
}

static struct wg_icnt_pkt *ring_at(const struct ring *r, uint32_t i)
{
	return &r->q[(r->head + i) % r->cap];
}

static void ring_put(struct ring *r, const struct wg_icnt_pkt *p)
{
	*ring_at(r, r->count) = *p;
	r->count++;
}

static void ring_drop(struct ring *r)
{
	r->head = (r->head + 1) % r->cap;
	r->count--;
}

static int net_init(struct net *n, uint32_t nsrc, uint32_t ndst, uint32_t in_cap, uint32_t out_cap)
{
	n->nsrc = nsrc;
	n->ndst = ndst;
	n->src = calloc(nsrc, sizeof(*n->src));
	n->dst = calloc(ndst, sizeof(*n->dst));
	n->stall = calloc(nsrc, sizeof(*n->stall));
	if (!n->src || !n->dst || !n->stall)
		return WG_ENOMEM;
	for (uint32_t i = 0; i < nsrc; i++) {
		n->src[i].r.cap = in_cap;
		if (!(n->src[i].r.q = calloc(in_cap, sizeof(struct wg_icnt_pkt))))
			return WG_ENOMEM;
	}
	for (uint32_t i = 0; i < ndst; i++) {
		n->dst[i].r.cap = out_cap;
		if (!(n->dst[i].r.q = calloc(out_cap, sizeof(struct wg_icnt_pkt))))
			return WG_ENOMEM;
	}
	return 0;
}

static void net_free(struct net *n)
{
	if (n->src)
		for (uint32_t i = 0; i < n->nsrc; i++)
			free(n->src[i].r.q);
	if (n->dst)
		for (uint32_t i = 0; i < n->ndst; i++)
			free(n->dst[i].r.q);
	free(n->src);
	free(n->dst);
	free(n->stall);
}

int wg_icnt_create(struct wg_icnt **np, const struct wg_icnt_params *p)
{
	struct wg_icnt *n;
	int rc;

	if (!np || !p)
		return WG_EINVAL;
	*np = NULL;
	if (!p->num_sms || !p->num_parts || p->num_sms > WG_ICNT_MAX_PORTS || p->num_parts > WG_ICNT_MAX_PORTS ||
	    !p->flit_bytes || !p->latency || !p->in_queue || !p->out_queue)
		return WG_EINVAL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return WG_ENOMEM;
	n->p = *p;
	rc = net_init(&n->net[WG_ICNT_REQ], p->num_sms, p->num_parts, p->in_queue, p->out_queue);
	if (!rc)
		rc = net_init(&n->net[WG_ICNT_RSP], p->num_parts, p->num_sms, p->in_queue, p->out_queue);
	if (rc)
		goto fail;
	n->st.sm_stall = n->net[WG_ICNT_REQ].stall;
	n->st.part_stall = n->net[WG_ICNT_RSP].stall;
	*np = n;
	return 0;
fail:
	wg_icnt_destroy(n);
	return rc;
}

void wg_icnt_destroy(struct wg_icnt *n)
{
	if (!n)
		return;
	net_free(&n->net[0]);
	net_free(&n->net[1]);
	free(n);
}

uint64_t wg_icnt_now(const struct wg_icnt *n)
{
	return n->now;
}

/* Start packets and count stalls in cycle c of network k. */
static void net_cycle(struct wg_icnt *n, int k, uint64_t c)
{
	struct net *net = &n->net[k];
	uint64_t cand[WG_ICNT_MAX_PORTS] = { 0 }; /* per destination: free sources whose oldest packet goes there */

	if (!net->waiting)
		return;
	for (uint32_t s = 0; s < net->nsrc; s++) {
		const struct src_port *sp = &net->src[s];
		const struct wg_icnt_pkt *h;

		if (!sp->r.count || sp->free_at > c)
			continue;
		h = ring_at(&sp->r, 0);
		if (h->stamp < c)
			cand[h->dst] |= 1ull << s;
	}
	for (uint32_t d = 0; d < net->ndst; d++) {
		struct dst_port *dp = &net->dst[d];
		uint64_t m = cand[d], later;
		struct src_port *sp;
		struct wg_icnt_pkt pkt;
		uint32_t s, flits;

		if (!m || dp->free_at > c || dp->r.count == dp->r.cap)
			continue;
		/* Round-robin: the first candidate at or after rr, else the first one. */
		later = m & ~((1ull << dp->rr) - 1);
		s = (uint32_t)__builtin_ctzll(later ? later : m);
		sp = &net->src[s];
		pkt = *ring_at(&sp->r, 0);
		ring_drop(&sp->r);
		net->waiting--;
		flits = wg_icnt_flits(pkt.bytes, n->p.flit_bytes);
		pkt.start = c;
		pkt.cycle = c + flits - 1 + n->p.latency;
		sp->free_at = dp->free_at = c + flits;
		ring_put(&dp->r, &pkt);
		dp->rr = (s + 1) % net->nsrc;
		n->st.packets[k]++;
		n->st.flits[k] += flits;
	}
	for (uint32_t s = 0; s < net->nsrc; s++) {
		const struct ring *r = &net->src[s].r;

		if (r->count && ring_at(r, 0)->stamp < c) {
			net->stall[s]++;
			n->st.stall_cycles[k]++;
		}
	}
}

int wg_icnt_advance(struct wg_icnt *n, uint64_t t)
{
	if (!n || t < n->now)
		return WG_EINVAL;
	while (n->now < t) {
		uint64_t c = n->now + 1;

		if (!n->net[0].waiting && !n->net[1].waiting) {
			n->now = t;
			break;
		}
		net_cycle(n, WG_ICNT_REQ, c);
		net_cycle(n, WG_ICNT_RSP, c);
		n->now = c;
	}
	return 0;
}

int wg_icnt_can_accept(const struct wg_icnt *n, enum wg_icnt_net net, uint32_t src)
{
	const struct net *nt;

	if (!n || (net != WG_ICNT_REQ && net != WG_ICNT_RSP))
		return 0;
	nt = &n->net[net];
	return src < nt->nsrc && nt->src[src].r.count < nt->src[src].r.cap;
}

int wg_icnt_push(struct wg_icnt *n, uint64_t stamp, enum wg_icnt_net net, uint32_t src, uint32_t dst, uint32_t bytes,
                 uint64_t id)
{
	struct net *nt;
	struct wg_icnt_pkt pkt = { .id = id, .stamp = stamp, .src = src, .dst = dst, .bytes = bytes };
	int rc;

	if (!n || (net != WG_ICNT_REQ && net != WG_ICNT_RSP) || stamp < n->now)
		return WG_EINVAL;
	nt = &n->net[net];
	if (src >= nt->nsrc || dst >= nt->ndst)
		return WG_EINVAL;
	if ((rc = wg_icnt_advance(n, stamp)))
		return rc;
	if (nt->src[src].r.count == nt->src[src].r.cap) {
		n->st.queue_full[net]++;
		return WG_ENOMEM;
	}
	ring_put(&nt->src[src].r, &pkt);
	nt->waiting++;
	n->pending++;
	return 0;
}

int wg_icnt_peek(const struct wg_icnt *n, enum wg_icnt_net net, uint32_t dst, struct wg_icnt_pkt *out)
{
	const struct ring *r;

	if (!n || (net != WG_ICNT_REQ && net != WG_ICNT_RSP) || dst >= n->net[net].ndst)
		return 0;
	r = &n->net[net].dst[dst].r;
	if (!r->count || ring_at(r, 0)->cycle > n->now)
		return 0;
	if (out)
		*out = *ring_at(r, 0);
	return 1;
}

int wg_icnt_pop(struct wg_icnt *n, enum wg_icnt_net net, uint32_t dst, struct wg_icnt_pkt *out)
{
	if (!wg_icnt_peek(n, net, dst, out))
		return 0;
	ring_drop(&n->net[net].dst[dst].r);
	n->pending--;
	return 1;
}

uint64_t wg_icnt_next_event(const struct wg_icnt *n)
{
	uint64_t next = UINT64_MAX;

	if (n->net[0].waiting || n->net[1].waiting)
		return n->now + 1;
	for (int k = 0; k < 2; k++) {
		const struct net *nt = &n->net[k];

		for (uint32_t d = 0; d < nt->ndst; d++) {
			const struct ring *r = &nt->dst[d].r;

			/* Arrivals are in order: the first one not yet due is this port's next. */
			for (uint32_t i = 0; i < r->count; i++) {
				uint64_t c = ring_at(r, i)->cycle;

				if (c > n->now) {
					if (c < next)
						next = c;
					break;
				}
			}
		}
	}
	return next;
}

uint64_t wg_icnt_pending(const struct wg_icnt *n)
{
	return n->pending;
}

const struct wg_icnt_stats *wg_icnt_stats(const struct wg_icnt *n)
{
	return &n->st;
}

uint64_t wg_icnt_sm_stall_cycles(const struct wg_icnt *n, uint32_t sm)
{
	return sm < n->p.num_sms ? n->net[WG_ICNT_REQ].stall[sm] : 0;
}

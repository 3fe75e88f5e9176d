/* fx2_model: the FX2LP's slave FIFOs at the pin level (sim/fx2_model.h, docs/fx2.md section 5.1). */
#include "fx2_model.h"

#include <stdio.h>
#include <string.h>

void fx2_init(struct fx2_model *m, unsigned in_pkt)
{
	memset(m, 0, sizeof(*m));
	m->in_pkt = in_pkt && in_pkt <= FX2_BUF_BYTES ? in_pkt : FX2_BUF_BYTES;
}

void fx2_fifo_reset(struct fx2_model *m, int out, int in)
{
	if (out)
		m->ep2_head = m->ep2_n = m->ep2_off = 0;
	if (in)
		m->ep6_head = m->ep6_n = m->ep6_fill = 0;
}

static int ep2_empty(const struct fx2_model *m)
{
	return m->ep2_n == 0;
}

static int ep6_full(const struct fx2_model *m)
{
	return m->ep6_n == FX2_BUFS;
}

uint8_t fx2_fd(const struct fx2_model *m, const struct fx2_pins *p)
{
	int fx2_drives = !p->sloe_n && p->fifoadr == FX2_ADR_EP2;

	if (p->fd_oe && !fx2_drives)
		return p->fd;
	if (!fx2_drives || ep2_empty(m))
		return FX2_FD_FLOAT;
	return m->ep2[m->ep2_head][m->ep2_off];
}

int fx2_flaga_n(const struct fx2_model *m)
{
	return !ep2_empty(m);
}

int fx2_flagb_n(const struct fx2_model *m)
{
	return !ep6_full(m);
}

static void violation(struct fx2_model *m, const char *what)
{
	m->n.violations++;
	snprintf(m->last_violation, sizeof(m->last_violation), "%s", what);
}

static void commit_in(struct fx2_model *m)
{
	unsigned i = (m->ep6_head + m->ep6_n) % FX2_BUFS;

	m->ep6_len[i] = (uint16_t)m->ep6_fill;
	m->ep6_n++;
	m->ep6_fill = 0;
}

void fx2_edge(struct fx2_model *m, const struct fx2_pins *p)
{
	int rd = !p->slrd_n, wr = !p->slwr_n, pe = !p->pktend_n;

	if (p->fd_oe && !p->sloe_n && p->fifoadr == FX2_ADR_EP2)
		violation(m, "FD driven by both sides");
	if (rd && wr)
		violation(m, "SLRD and SLWR in one cycle");
	if (rd && p->fifoadr != FX2_ADR_EP2)
		violation(m, "SLRD with FIFOADR not EP2");
	if ((wr || pe) && p->fifoadr != FX2_ADR_EP6)
		violation(m, "SLWR/PKTEND with FIFOADR not EP6");
	if (wr && !p->fd_oe)
		violation(m, "SLWR with FD not driven");
	if (rd && p->fifoadr == FX2_ADR_EP2) {
		if (ep2_empty(m)) {
			m->n.rd_empty++;
		} else {
			m->n.rd_bytes++;
			if (++m->ep2_off == m->ep2_len[m->ep2_head]) {
				m->ep2_head = (m->ep2_head + 1) % FX2_BUFS;
				m->ep2_n--;
				m->ep2_off = 0;
			}
		}
	}
	if (wr && p->fifoadr == FX2_ADR_EP6) {
		if (ep6_full(m)) {
			m->n.wr_full++;
		} else {
			unsigned i = (m->ep6_head + m->ep6_n) % FX2_BUFS;

			m->ep6[i][m->ep6_fill++] = p->fd;
			m->n.wr_bytes++;
			if (m->ep6_fill == m->in_pkt)
				commit_in(m); /* AUTOIN */
		}
	}
	if (pe && p->fifoadr == FX2_ADR_EP6) {
		if (ep6_full(m)) {
			m->n.wr_full++;
		} else {
			m->n.pktends++;
			if (!m->ep6_fill)
				m->n.zlps++;
			commit_in(m); /* ZEROLENIN: an empty one is a zero-length packet */
		}
	}
}

int fx2_in_commit(struct fx2_model *m)
{
	if (ep6_full(m))
		return 0;
	if (!m->ep6_fill)
		m->n.zlps++;
	commit_in(m);
	return 1;
}

int fx2_out_room(const struct fx2_model *m)
{
	return m->ep2_n < FX2_BUFS;
}

int fx2_out_packet(struct fx2_model *m, const uint8_t *p, size_t n)
{
	unsigned i;

	if (n == 0 || n > FX2_BUF_BYTES)
		return -1;
	if (!fx2_out_room(m))
		return 0;
	i = (m->ep2_head + m->ep2_n) % FX2_BUFS;
	memcpy(m->ep2[i], p, n);
	m->ep2_len[i] = (uint16_t)n;
	m->ep2_n++;
	m->n.out_packets++;
	return 1;
}

int fx2_in_ready(const struct fx2_model *m)
{
	return (int)m->ep6_n;
}

int fx2_in_packet(struct fx2_model *m, uint8_t *p)
{
	unsigned len;

	if (!m->ep6_n)
		return -1;
	len = m->ep6_len[m->ep6_head];
	memcpy(p, m->ep6[m->ep6_head], len);
	m->ep6_head = (m->ep6_head + 1) % FX2_BUFS;
	m->ep6_n--;
	m->n.in_packets++;
	return (int)len;
}

size_t fx2_out_bytes(const struct fx2_model *m)
{
	size_t b = 0;

	for (unsigned k = 0; k < m->ep2_n; k++)
		b += m->ep2_len[(m->ep2_head + k) % FX2_BUFS];
	return b - m->ep2_off;
}

size_t fx2_in_bytes(const struct fx2_model *m)
{
	size_t b = m->ep6_fill;

	for (unsigned k = 0; k < m->ep6_n; k++)
		b += m->ep6_len[(m->ep6_head + k) % FX2_BUFS];
	return b;
}

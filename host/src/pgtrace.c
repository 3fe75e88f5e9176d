/* Lane-activity traces: TRACE blocks to VCD (docs/power-gating.md section 7). */
#include "pgtrace.h"

#include <stdlib.h>
#include <string.h>

#include "energy.h"
#include "warpgate.h"

struct change {
	uint64_t cycle;
	uint64_t seq; /* arrival order: ties keep it */
	uint16_t sm;
	uint8_t lane; /* 0..61 a lane, WG_PGT_LANE_ISSUE the issue state */
	uint8_t state;
};

/* Per SM: the delta chain of its kind-2 records. */
struct smrec {
	uint64_t t;  /* cycle of its last record */
	int started; /* a START seen */
};

struct wg_pgtrace {
	unsigned num_sms, units, simd_width, lanes;
	struct change *ch;
	size_t n, cap;
	uint64_t seq;
	uint64_t *last; /* per SM: cycle of its last change (time never goes back) */
	struct smrec *rec;
	struct wg_pgtrace_summary sum;
};

int wg_pgtrace_create(struct wg_pgtrace **out, unsigned num_sms, unsigned units, unsigned simd_width)
{
	struct wg_pgtrace *tr;

	*out = NULL;
	if (num_sms == 0 || num_sms > 256 || units == 0 || simd_width == 0 || units * simd_width > WG_PGT_MAX_LANES)
		return WG_EINVAL;
	tr = calloc(1, sizeof(*tr));
	if (!tr)
		return WG_ENOMEM;
	tr->last = calloc(num_sms, sizeof(*tr->last));
	tr->rec = calloc(num_sms, sizeof(*tr->rec));
	if (!tr->last || !tr->rec) {
		free(tr->last);
		free(tr->rec);
		free(tr);
		return WG_ENOMEM;
	}
	tr->num_sms = num_sms;
	tr->units = units;
	tr->simd_width = simd_width;
	tr->lanes = units * simd_width;
	*out = tr;
	return 0;
}

void wg_pgtrace_destroy(struct wg_pgtrace *tr)
{
	if (!tr)
		return;
	free(tr->ch);
	free(tr->last);
	free(tr->rec);
	free(tr);
}

size_t wg_pgtrace_changes(const struct wg_pgtrace *tr)
{
	return tr->n;
}

static int reserve(struct wg_pgtrace *tr, size_t more)
{
	size_t cap = tr->cap ? tr->cap : 256;
	struct change *ch;

	if (tr->n + more <= tr->cap)
		return 0;
	while (cap < tr->n + more)
		cap *= 2;
	ch = realloc(tr->ch, cap * sizeof(*ch));
	if (!ch)
		return WG_ENOMEM;
	tr->ch = ch;
	tr->cap = cap;
	return 0;
}

static void add(struct wg_pgtrace *tr, uint64_t cycle, unsigned sm, unsigned lane, unsigned state)
{
	tr->ch[tr->n++] = (struct change){ cycle, tr->seq++, (uint16_t)sm, (uint8_t)lane, (uint8_t)state };
}

/* Every signal of an SM unknown from cycle on (END, LOST). */
static void add_unknown(struct wg_pgtrace *tr, uint64_t cycle, unsigned sm)
{
	for (unsigned l = 0; l < tr->lanes; l++)
		add(tr, cycle, sm, l, WG_PGT_UNKNOWN);
	add(tr, cycle, sm, WG_PGT_LANE_ISSUE, WG_PGT_UNKNOWN);
}

/* One kind-2 block: words w[first .. first + nrec * 2), docs/power-gating.md section 7.2. */
static int feed_records(struct wg_pgtrace *tr, unsigned sm, uint64_t base, const uint32_t *w, size_t first,
			size_t nrec, char *err, size_t errlen)
{
	struct smrec *r = &tr->rec[sm];
	int ret = reserve(tr, nrec * (tr->lanes + 1));

	if (ret)
		return ret;
	for (size_t k = 0; k < nrec; k++) {
		size_t at = first + 2 * k;
		uint64_t v = (uint64_t)w[at] | (uint64_t)w[at + 1] << 32, t;
		unsigned type = v >> 24 & 15, state = v >> 28 & 3, group = v >> 30 & 3;
		uint32_t pay = (uint32_t)(v >> 32);

		if (type == WG_PGT_R_START) {
			t = base + ((v & 0xFFFF) << 32 | pay);
			if (r->started && t < r->t) {
				snprintf(err, errlen, "TRACE word %zu: SM %u window starts at cycle %llu, before its last record at %llu",
					 at, sm, (unsigned long long)t, (unsigned long long)r->t);
				return WG_EINVAL;
			}
			r->started = 1;
			tr->sum.windows++;
		} else if (!r->started) {
			snprintf(err, errlen, "TRACE word %zu: SM %u record of type %u before its first START", at, sm, type);
			return WG_EINVAL;
		} else {
			t = r->t + (v & 0xFFFFFF);
		}
		switch (type) {
		case WG_PGT_R_LANES:
			for (unsigned b = 0; b < 32; b++) {
				unsigned lane = group * 32 + b;
				if (!(pay >> b & 1))
					continue;
				if (lane >= tr->lanes) {
					snprintf(err, errlen, "TRACE word %zu: lane %u, the SM has %u", at + 1, lane, tr->lanes);
					return WG_EINVAL;
				}
				add(tr, t, sm, lane, state);
			}
			break;
		case WG_PGT_R_ISSUE:
			add(tr, t, sm, WG_PGT_LANE_ISSUE, state);
			break;
		case WG_PGT_R_ADVANCE:
		case WG_PGT_R_START:
			break;
		case WG_PGT_R_LOST:
			tr->sum.losses++;
			add_unknown(tr, t, sm);
			break;
		case WG_PGT_R_SYNC:
			tr->sum.lost_records += pay;
			break;
		case WG_PGT_R_END:
			tr->sum.lost_records += pay;
			add_unknown(tr, t, sm);
			break;
		default:
			snprintf(err, errlen, "TRACE word %zu: unknown record type %u", at, type);
			return WG_EINVAL;
		}
		r->t = t;
		tr->sum.records++;
	}
	return 0;
}

int wg_pgtrace_feed(struct wg_pgtrace *tr, const uint32_t *w, size_t nwords, char *err, size_t errlen)
{
	size_t start = tr->n, i = 0;
	uint64_t *last = calloc(tr->num_sms, sizeof(*last));
	struct smrec *rec = calloc(tr->num_sms, sizeof(*rec));
	struct wg_pgtrace_summary sum = tr->sum;
	int ret = 0;

	if (!last || !rec) {
		free(last);
		free(rec);
		return WG_ENOMEM;
	}
	memcpy(last, tr->last, tr->num_sms * sizeof(*last));
	memcpy(rec, tr->rec, tr->num_sms * sizeof(*rec));
	while (i < nwords) {
		unsigned kind = w[i] & 0xFF, sm = w[i] >> 8 & 0xFF, len = w[i] >> 16;
		size_t hdr = i;
		uint64_t cycle;

		if (kind == WG_PGT_KIND_RECORDS && sm < tr->num_sms && len >= 2 && i + 1 + len <= nwords) {
			if (len % 2) {
				snprintf(err, errlen, "TRACE word %zu: block of %u words: an odd number of record words", hdr, len);
				ret = WG_EINVAL;
				goto fail;
			}
			ret = feed_records(tr, sm, (uint64_t)w[i + 1] | (uint64_t)w[i + 2] << 32, w, i + 3, (len - 2) / 2, err,
					   errlen);
			if (ret)
				goto fail;
			i += 1 + len;
			continue;
		}
		if (kind != WG_PGT_KIND_LANES && kind != WG_PGT_KIND_RECORDS) {
			snprintf(err, errlen, "TRACE word %zu: unknown block kind %u", hdr, kind);
			ret = WG_EINVAL;
			goto fail;
		}
		if (sm >= tr->num_sms) {
			snprintf(err, errlen, "TRACE word %zu: SM %u, the GPU has %u", hdr, sm, tr->num_sms);
			ret = WG_EINVAL;
			goto fail;
		}
		if (len < 2 || i + 1 + len > nwords) {
			snprintf(err, errlen, "TRACE word %zu: block of %u words %s", hdr, len,
				 len < 2 ? "has no base cycle (at least 2 words)" : "runs past the end of the frame");
			ret = WG_EINVAL;
			goto fail;
		}
		cycle = (uint64_t)w[i + 1] | (uint64_t)w[i + 2] << 32;
		if (cycle < last[sm]) {
			snprintf(err, errlen, "TRACE word %zu: SM %u block starts at cycle %llu, before its last change at %llu",
				 hdr + 1, sm, (unsigned long long)cycle, (unsigned long long)last[sm]);
			ret = WG_EINVAL;
			goto fail;
		}
		ret = reserve(tr, len - 2);
		if (ret)
			goto fail;
		for (size_t k = i + 3; k < i + 1 + len; k++) {
			unsigned lane = w[k] & 0x3F, state = w[k] >> 6 & 3;
			cycle += w[k] >> 8;
			if (lane == WG_PGT_LANE_NONE)
				continue;
			if (lane != WG_PGT_LANE_ISSUE && lane >= tr->lanes) {
				snprintf(err, errlen, "TRACE word %zu: lane %u, the SM has %u", k, lane, tr->lanes);
				ret = WG_EINVAL;
				goto fail;
			}
			tr->ch[tr->n++] = (struct change){ cycle, tr->seq++, (uint16_t)sm, (uint8_t)lane, (uint8_t)state };
		}
		last[sm] = cycle;
		i += 1 + len;
	}
	memcpy(tr->last, last, tr->num_sms * sizeof(*last));
	free(last);
	free(rec);
	return 0;
fail:
	tr->n = start;
	memcpy(tr->rec, rec, tr->num_sms * sizeof(*rec));
	tr->sum = sum;
	free(last);
	free(rec);
	return ret;
}

void wg_pgtrace_summary(const struct wg_pgtrace *tr, struct wg_pgtrace_summary *sum)
{
	*sum = tr->sum;
}

static int cmp_change(const void *a, const void *b)
{
	const struct change *x = a, *y = b;

	if (x->cycle != y->cycle)
		return x->cycle < y->cycle ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* VCD identifier of signal number n: printable characters '!'..'~', base 94. */
static void vcd_id(unsigned n, char id[8])
{
	unsigned k = 0;

	do {
		id[k++] = (char)('!' + n % 94);
		n /= 94;
	} while (n && k < 7);
	id[k] = 0;
}

/* Signal number: per SM, the issue state first, then its lanes. */
static unsigned sig_of(const struct wg_pgtrace *tr, unsigned sm, unsigned lane)
{
	return sm * (tr->lanes + 1) + (lane == WG_PGT_LANE_ISSUE ? 0 : lane + 1);
}

static const char *const bits[5] = { "00", "01", "10", "11", "xx" };

int wg_pgtrace_write_vcd(struct wg_pgtrace *tr, FILE *out)
{
	char id[8];
	unsigned sm, u, l, nsig = tr->num_sms * (tr->lanes + 1);
	uint64_t t = 0;
	size_t i, j;
	size_t *last_at = malloc(nsig * sizeof(*last_at)); /* per signal: its last change in this cycle */
	uint8_t *val = malloc(nsig);                        /* per signal: the value written */

	if (!last_at || !val) {
		free(last_at);
		free(val);
		return WG_ENOMEM;
	}
	memset(val, WG_PGT_UNKNOWN, nsig);
	qsort(tr->ch, tr->n, sizeof(*tr->ch), cmp_change);
	fputs("$comment warpgate lane-activity trace: 0 active, 1 idle, 2 sleep, 3 wake; issue: S1..S4 as 0..3 $end\n"
	      "$timescale 1ns $end\n$comment one time unit is one SM cycle $end\n$scope module gpu $end\n",
	      out);
	for (sm = 0; sm < tr->num_sms; sm++) {
		fprintf(out, "$scope module sm%u $end\n", sm);
		vcd_id(sig_of(tr, sm, WG_PGT_LANE_ISSUE), id);
		fprintf(out, "$var wire 2 %s issue $end\n", id);
		for (u = 0; u < tr->units; u++) {
			fprintf(out, "$scope module u%u $end\n", u);
			for (l = 0; l < tr->simd_width; l++) {
				vcd_id(sig_of(tr, sm, u * tr->simd_width + l), id);
				fprintf(out, "$var wire 2 %s l%02u $end\n", id, l);
			}
			fputs("$upscope $end\n", out);
		}
		fputs("$upscope $end\n", out);
	}
	fputs("$upscope $end\n$enddefinitions $end\n", out);
	if (tr->n)
		t = tr->ch[0].cycle;
	fprintf(out, "#%llu\n$dumpvars\n", (unsigned long long)t);
	for (i = 0; i < nsig; i++) {
		vcd_id((unsigned)i, id);
		fprintf(out, "bxx %s\n", id);
	}
	fputs("$end\n", out);
	for (i = 0; i < tr->n; i = j) {
		int stamped = tr->ch[i].cycle == t;

		for (j = i; j < tr->n && tr->ch[j].cycle == tr->ch[i].cycle; j++)
			last_at[sig_of(tr, tr->ch[j].sm, tr->ch[j].lane)] = j;
		for (size_t k = i; k < j; k++) {
			const struct change *c = &tr->ch[k];
			unsigned sig = sig_of(tr, c->sm, c->lane);
			if (last_at[sig] != k || val[sig] == c->state)
				continue;
			if (!stamped) {
				t = c->cycle;
				fprintf(out, "#%llu\n", (unsigned long long)t);
				stamped = 1;
			}
			val[sig] = c->state;
			vcd_id(sig, id);
			fprintf(out, "b%s %s\n", bits[c->state], id);
		}
	}
	free(last_at);
	free(val);
	return ferror(out) ? WG_EIO : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int wg_pgtrace_intervals(struct wg_pgtrace *tr, uint64_t **lens, size_t *n)
{
	size_t nsig = (size_t)tr->num_sms * tr->lanes, cnt = 0, cap = 1024;
	uint64_t *open = malloc((nsig ? nsig : 1) * sizeof(*open)); /* start of the open interval, or UINT64_MAX */
	uint64_t *out = malloc(cap * sizeof(*out));

	*lens = NULL;
	*n = 0;
	if (!open || !out) {
		free(open);
		free(out);
		return WG_ENOMEM;
	}
	for (size_t i = 0; i < nsig; i++)
		open[i] = UINT64_MAX;
	qsort(tr->ch, tr->n, sizeof(*tr->ch), cmp_change);
	for (size_t i = 0; i < tr->n; i++) {
		const struct change *c = &tr->ch[i];
		size_t s;

		if (c->lane == WG_PGT_LANE_ISSUE)
			continue;
		s = (size_t)c->sm * tr->lanes + c->lane;
		if ((c->state == WG_PGT_ACTIVE || c->state == WG_PGT_UNKNOWN) && open[s] != UINT64_MAX) {
			if (cnt == cap) {
				uint64_t *o = realloc(out, 2 * cap * sizeof(*out));
				if (!o) {
					free(open);
					free(out);
					return WG_ENOMEM;
				}
				out = o;
				cap *= 2;
			}
			if (c->cycle > open[s])
				out[cnt++] = c->cycle - open[s];
			open[s] = UINT64_MAX;
		} else if (c->state != WG_PGT_ACTIVE && c->state != WG_PGT_UNKNOWN && open[s] == UINT64_MAX) {
			open[s] = c->cycle;
		}
	}
	free(open);
	*lens = out;
	*n = cnt;
	return 0;
}

int wg_pgtrace_check_oracle(struct wg_pgtrace *tr, const struct wg_pg_counts *c, uint32_t max_bet, char *why,
			    size_t whylen)
{
	uint64_t *lens, sum = 0, above_sum, above_n;
	size_t n, p = 0;
	int rc;

	if (max_bet < 1 || max_bet > WG_PG_HIST_BINS)
		return WG_EINVAL;
	if (tr->sum.losses) {
		snprintf(why, whylen, "the trace lost %llu records", (unsigned long long)tr->sum.lost_records);
		return 1;
	}
	rc = wg_pgtrace_intervals(tr, &lens, &n);
	if (rc)
		return rc;
	qsort(lens, n, sizeof(*lens), cmp_u64);
	for (size_t i = 0; i < n; i++)
		sum += lens[i];
	rc = 0;
	if (n != wg_pg_intervals(c) || sum != wg_pg_interval_cycles(c)) {
		snprintf(why, whylen, "the trace has %zu idle intervals of %llu cycles, the histogram %llu of %llu", n,
			 (unsigned long long)sum, (unsigned long long)wg_pg_intervals(c),
			 (unsigned long long)wg_pg_interval_cycles(c));
		rc = 1;
	}
	/* saved(B) = sum over L >= B of (L - B): the intervals not shorter than B, from the sorted lengths */
	above_sum = sum;
	above_n = n;
	for (uint32_t b = 1; b <= max_bet && !rc; b++) {
		uint64_t h, t;

		while (p < n && lens[p] < b) {
			above_sum -= lens[p++];
			above_n--;
		}
		t = above_sum - (uint64_t)b * above_n;
		if (wg_pg_oracle_saved(c, b, &h)) {
			rc = WG_EINVAL;
			break;
		}
		if (h != t) {
			snprintf(why, whylen, "at BET %u the histogram saves %llu lane-cycles, the trace %llu", b,
				 (unsigned long long)h, (unsigned long long)t);
			rc = 1;
		}
	}
	free(lens);
	return rc;
}

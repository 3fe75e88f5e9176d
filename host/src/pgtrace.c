/* Lane-activity traces: TRACE blocks to VCD (docs/power-gating.md section 7). */
#include "pgtrace.h"

#include <stdlib.h>
#include <string.h>

#include "warpgate.h"

struct change {
	uint64_t cycle;
	uint64_t seq; /* arrival order: ties keep it */
	uint16_t sm;
	uint8_t lane; /* 0..61 a lane, WG_PGT_LANE_ISSUE the issue state */
	uint8_t state;
};

struct wg_pgtrace {
	unsigned num_sms, units, simd_width, lanes;
	struct change *ch;
	size_t n, cap;
	uint64_t seq;
	uint64_t *last; /* per SM: cycle of its last change (time never goes back) */
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
	if (!tr->last) {
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

int wg_pgtrace_feed(struct wg_pgtrace *tr, const uint32_t *w, size_t nwords, char *err, size_t errlen)
{
	size_t start = tr->n, i = 0;
	uint64_t *last = calloc(tr->num_sms, sizeof(*last));
	int ret = 0;

	if (!last)
		return WG_ENOMEM;
	memcpy(last, tr->last, tr->num_sms * sizeof(*last));
	while (i < nwords) {
		unsigned kind = w[i] & 0xFF, sm = w[i] >> 8 & 0xFF, len = w[i] >> 16;
		size_t hdr = i;
		uint64_t cycle;

		if (kind != WG_PGT_KIND_LANES) {
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
	return 0;
fail:
	tr->n = start;
	free(last);
	return ret;
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

static const char *const bits[4] = { "00", "01", "10", "11" };

int wg_pgtrace_write_vcd(struct wg_pgtrace *tr, FILE *out)
{
	char id[8];
	unsigned sm, u, l, nsig = tr->num_sms * (tr->lanes + 1);
	uint64_t t = 0;
	size_t i;

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
	for (i = 0; i < tr->n; i++) {
		const struct change *c = &tr->ch[i];
		if (c->cycle != t) {
			t = c->cycle;
			fprintf(out, "#%llu\n", (unsigned long long)t);
		}
		vcd_id(sig_of(tr, c->sm, c->lane), id);
		fprintf(out, "b%s %s\n", bits[c->state], id);
	}
	return ferror(out) ? WG_EIO : 0;
}

/*
 * CTA dispatcher (docs/dispatch.md).
 *
 * State per SM: the linear ids of its resident CTAs and the cycle its
 * current busy interval began. The policy issues to SMs 0 .. nuse-1 only,
 * round-robin from a pointer that moves past the SM that got the last CTA:
 * "rr" uses every SM; "consolidate" (and "congestion" for a kernel that fits
 * the GPU at once) the fewest SMs that hold the whole grid; "congestion" for
 * a larger kernel starts on every SM and shrinks nuse at the first CTA
 * completion, from the samples fed until then.
 */
#include "dispatch.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

struct sm_state {
	uint32_t resident;
	uint64_t busy_since;
	uint64_t ids[32]; /* resident CTAs (max_ctas_per_sm <= 32) */
	int has_sample;
	struct wg_dispatch_sample sample;
};

struct wg_dispatch {
	/* configuration */
	struct wg_config cfg;
	enum wg_cta_policy policy;
	uint32_t nsm;
	uint32_t min_sms;
	/* kernel */
	int running;            /* a kernel started and not finished */
	struct wg_dispatch_kernel k;
	wg_dim3 grid;
	uint64_t next_cta;      /* next linear id to issue */
	uint64_t now;           /* latest time seen */
	uint32_t nuse;          /* the policy issues to SMs 0 .. nuse-1 */
	uint32_t rr;            /* first SM to try */
	int sampling;           /* congestion policy: decision pending */
	struct sm_state sm[WG_DISPATCH_MAX_SMS];
	struct wg_dispatch_stats st;
	char err[320];
};

static const char *const policy_names[] = { "rr", "consolidate", "congestion" };

int wg_dispatch_policy_parse(const char *name, enum wg_cta_policy *policy)
{
	if (!name)
		return WG_EINVAL;
	for (size_t i = 0; i < sizeof(policy_names) / sizeof(policy_names[0]); i++) {
		if (!strcmp(name, policy_names[i])) {
			if (policy)
				*policy = (enum wg_cta_policy)i;
			return 0;
		}
	}
	return WG_EINVAL;
}

const char *wg_dispatch_policy_name(enum wg_cta_policy policy)
{
	if ((unsigned)policy < sizeof(policy_names) / sizeof(policy_names[0]))
		return policy_names[policy];
	return "?";
}

const char *wg_dispatch_limit_name(uint32_t limit)
{
	switch (limit) {
	case WG_LIMIT_THREADS:
		return "threads";
	case WG_LIMIT_REGS:
		return "registers";
	case WG_LIMIT_SMEM:
		return "shared memory";
	case WG_LIMIT_CTAS:
		return "CTA slots";
	default:
		return "?";
	}
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/*
 * The SM's rules (rtl/wg_cta_ctrl.sv): a CTA takes ceil(threads / 32) warp
 * slots out of the slots that are free and usable; slot w belongs to
 * register file w mod S (S = schedulers, one register file each, of
 * regs_per_sm / 32 / S warp-rows) and takes rows [(w / S) x regs, + regs),
 * so it is usable when (w / S + 1) x regs <= rows: S x floor(rows / regs)
 * slots, at most max_warps_per_sm. A CTA takes the lowest free CTA slot c,
 * whose shared window [c x R, (c + 1) x R), R = shared bytes rounded up to
 * 128-byte rows, must lie inside the split's shared part (shmem_bytes).
 */
int wg_dispatch_occupancy(const struct wg_config *c, const struct wg_dispatch_kernel *k, struct wg_occupancy *o,
                          char *err, size_t errlen)
{
	uint32_t sched, rows;
	uint64_t smem_rnd;

	if (!c || !k || !o)
		return WG_EINVAL;
	memset(o, 0, sizeof(*o));
	if (err && errlen)
		err[0] = '\0';
	if (!k->threads || k->regs < 1 || k->regs > 63 || !c->warp_size || !c->schedulers) {
		if (err)
			snprintf(err, errlen, "invalid kernel shape: %u threads per CTA, %u registers per thread "
			         "(expected >= 1 and 1..63)", k->threads, k->regs);
		return WG_EINVAL;
	}
	sched = c->schedulers;
	rows = c->regs_per_sm / c->warp_size / sched;
	o->warps_per_cta = (uint32_t)(((uint64_t)k->threads + c->warp_size - 1) / c->warp_size);
	o->reg_warp_slots = sched * (rows / k->regs);
	smem_rnd = ((uint64_t)k->smem_bytes + WG_DISPATCH_SMEM_ROW - 1) / WG_DISPATCH_SMEM_ROW * WG_DISPATCH_SMEM_ROW;
	o->smem_per_cta = smem_rnd > UINT32_MAX ? UINT32_MAX : (uint32_t)smem_rnd;

	o->by_threads = c->max_warps_per_sm / o->warps_per_cta;
	o->by_regs = o->reg_warp_slots / o->warps_per_cta;
	o->by_smem = smem_rnd ? (uint32_t)(c->shmem_bytes / smem_rnd) : UINT32_MAX;
	o->by_ctas = c->max_ctas_per_sm;
	if (k->threads > c->max_threads_per_cta)
		o->by_threads = 0;
	o->ctas = min_u32(min_u32(o->by_threads, o->by_regs), min_u32(o->by_smem, o->by_ctas));
	if (o->by_threads == o->ctas)
		o->limits |= WG_LIMIT_THREADS;
	if (o->by_regs == o->ctas)
		o->limits |= WG_LIMIT_REGS;
	if (o->by_smem == o->ctas)
		o->limits |= WG_LIMIT_SMEM;
	if (o->by_ctas == o->ctas)
		o->limits |= WG_LIMIT_CTAS;
	o->limit = o->limits & -o->limits;
	if (o->ctas)
		return 0;
	if (!err)
		return WG_ELAUNCH;
	if (k->threads > c->max_threads_per_cta)
		snprintf(err, errlen, "CTA fits on no SM: threads: %u threads per CTA exceed max_threads_per_cta %u",
		         k->threads, c->max_threads_per_cta);
	else if (!o->by_threads)
		snprintf(err, errlen, "CTA fits on no SM: threads: %u threads per CTA need %u warp slots, "
		         "the SM has %u (max_warps_per_sm)", k->threads, o->warps_per_cta, c->max_warps_per_sm);
	else if (!o->by_regs)
		snprintf(err, errlen, "CTA fits on no SM: registers: %u warps of %u x %u registers need %u warp slots "
		         "whose registers fit, the SM has %u (%u register files of %u warp-rows, %u warps of %u "
		         "registers each)", o->warps_per_cta, k->regs, c->warp_size, o->warps_per_cta,
		         o->reg_warp_slots, sched, rows, rows / k->regs, k->regs);
	else
		snprintf(err, errlen, "CTA fits on no SM: shared memory: %u bytes per CTA (%llu in %u-byte rows) "
		         "exceed the %u shared bytes of the SM (shmem_bytes)", k->smem_bytes,
		         (unsigned long long)smem_rnd, WG_DISPATCH_SMEM_ROW, c->shmem_bytes);
	return WG_ELAUNCH;
}

wg_dim3 wg_dispatch_cta_index(wg_dim3 grid, uint64_t linear)
{
	wg_dim3 id = { 0, 0, 0 };

	if (!grid.x || !grid.y)
		return id;
	id.x = (uint32_t)(linear % grid.x);
	linear /= grid.x;
	id.y = (uint32_t)(linear % grid.y);
	id.z = (uint32_t)(linear / grid.y);
	return id;
}

static int fail(struct wg_dispatch *d, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct wg_dispatch *d, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->err, sizeof(d->err), fmt, ap);
	va_end(ap);
	wg_dbg("dispatch: %s", d->err);
	return rc;
}

int wg_dispatch_create(struct wg_dispatch **dp, const struct wg_config *c)
{
	struct wg_dispatch *d;

	if (!dp || !c)
		return WG_EINVAL;
	*dp = NULL;
	if (!c->num_sms || c->num_sms > WG_DISPATCH_MAX_SMS || c->max_ctas_per_sm > 32 || !c->max_ctas_per_sm)
		return WG_ECONFIG;
	d = calloc(1, sizeof(*d));
	if (!d)
		return WG_ENOMEM;
	d->cfg = *c;
	if (wg_dispatch_policy_parse(c->cta_policy, &d->policy)) {
		free(d);
		return WG_ECONFIG;
	}
	d->nsm = c->num_sms;
	d->min_sms = c->cta_min_sms < 1 ? 1 : c->cta_min_sms > d->nsm ? d->nsm : c->cta_min_sms;
	*dp = d;
	return 0;
}

void wg_dispatch_destroy(struct wg_dispatch *d)
{
	free(d);
}

static int advance(struct wg_dispatch *d, uint64_t now)
{
	if (now < d->now)
		return fail(d, WG_EINVAL, "time went backwards: cycle %llu after cycle %llu", (unsigned long long)now,
		            (unsigned long long)d->now);
	d->now = now;
	return 0;
}

static uint64_t sm_bit(uint32_t s)
{
	return (uint64_t)1 << s;
}

/* SMs 0 .. n-1 are used, the others are gateable from now on. */
static void use_sms(struct wg_dispatch *d, uint32_t n)
{
	d->nuse = n;
	d->st.sms_used = n;
	for (uint32_t s = n; s < d->nsm; s++)
		d->st.gateable |= sm_bit(s);
	if (d->rr >= n)
		d->rr = 0;
}

int wg_dispatch_start(struct wg_dispatch *d, const struct wg_dispatch_kernel *k, wg_dim3 grid, uint64_t now)
{
	struct wg_occupancy occ;
	uint64_t ctas, capacity;
	int rc;

	if (!d || !k)
		return WG_EINVAL;
	d->err[0] = '\0';
	if (d->running)
		return fail(d, WG_EINVAL, "a kernel is still running: %llu of %llu CTAs done",
		            (unsigned long long)d->st.ctas_done, (unsigned long long)d->st.ctas);
	if (!grid.x || !grid.y || !grid.z)
		return fail(d, WG_EINVAL, "empty grid (%u,%u,%u)", grid.x, grid.y, grid.z);
	rc = advance(d, now);
	if (rc)
		return rc;
	rc = wg_dispatch_occupancy(&d->cfg, k, &occ, d->err, sizeof(d->err));
	if (rc)
		return rc;

	ctas = (uint64_t)grid.x * grid.y * grid.z;
	memset(&d->st, 0, sizeof(d->st));
	memset(d->sm, 0, sizeof(d->sm));
	d->k = *k;
	d->grid = grid;
	d->next_cta = 0;
	d->rr = 0;
	d->sampling = 0;
	d->running = 1;
	d->st.policy = d->policy;
	d->st.occ = occ;
	d->st.ctas = ctas;
	d->st.start = now;
	d->st.end = now;

	capacity = (uint64_t)occ.ctas * d->nsm;
	if (d->policy == WG_CTA_RR || ctas > capacity) {
		/* rr, or a kernel larger than the GPU: every SM (congestion: until the decision) */
		use_sms(d, d->nsm);
		d->sampling = d->policy == WG_CTA_CONGESTION;
	} else if (d->policy == WG_CTA_CONSOLIDATE || d->policy == WG_CTA_CONGESTION) {
		/* the whole grid fits at once: the fewest SMs that hold it (paper 3.1.1) */
		use_sms(d, (uint32_t)((ctas + occ.ctas - 1) / occ.ctas));
	}
	wg_dbg("dispatch: %s, %llu CTAs, %u per SM (%s), %u SMs", wg_dispatch_policy_name(d->policy),
	       (unsigned long long)ctas, occ.ctas, wg_dispatch_limit_name(occ.limit), d->nuse);
	return 0;
}

int wg_dispatch_next(struct wg_dispatch *d, uint64_t now, uint64_t *cta, uint32_t *sm)
{
	int rc;

	if (!d || !cta || !sm)
		return WG_EINVAL;
	rc = advance(d, now);
	if (rc)
		return rc;
	if (!d->running || d->next_cta >= d->st.ctas)
		return 0;
	for (uint32_t i = 0; i < d->nuse; i++) {
		uint32_t s = (d->rr + i) % d->nuse;
		struct sm_state *m = &d->sm[s];

		if (m->resident >= d->st.occ.ctas)
			continue;
		if (!m->resident)
			m->busy_since = now;
		m->ids[m->resident++] = d->next_cta;
		if (m->resident > d->st.max_resident[s])
			d->st.max_resident[s] = m->resident;
		d->st.ctas_per_sm[s]++;
		*cta = d->next_cta++;
		*sm = s;
		d->rr = (s + 1) % d->nuse;
		return 1;
	}
	return 0;
}

/*
 * The congestion-aware decision (docs/dispatch.md section 4): the metric
 * from the summed samples; below the threshold every SM stays; at or above
 * it, the fewest SMs (not below cta_min_sms) whose predicted slowdown
 * core_share x (N / n - 1), core_share = threshold / metric, is within the
 * budget.
 */
static void decide(struct wg_dispatch *d, uint64_t now)
{
	const struct wg_config *c = &d->cfg;
	struct wg_dispatch_decision *dc = &d->st.decision;
	uint64_t cyc = 0, icnt = 0, issue = 0, lanei = 0;
	double lanes = (double)c->simd_width * c->simd_units;
	double budget = c->cta_slowdown_pct / 100.0, inv;
	uint32_t n = d->nsm;

	memset(dc, 0, sizeof(*dc));
	dc->at = now;
	for (uint32_t s = 0; s < d->nsm; s++) {
		const struct sm_state *m = &d->sm[s];

		if (!m->has_sample || !m->sample.cycles)
			continue;
		dc->samples++;
		cyc += m->sample.cycles;
		icnt += m->sample.icnt_stall_cycles;
		issue += m->sample.issue_stall_cycles;
		lanei += m->sample.lane_insts;
	}
	d->sampling = 0;
	if (!cyc) {
		dc->reason = WG_DECIDE_NO_SAMPLE;
		dc->sms = n;
		wg_warn("dispatch: congestion policy: no SM sample before the first CTA completion, every SM kept");
		return;
	}
	dc->stall_rate = (double)icnt / (double)cyc;
	dc->issue_stall_rate = (double)issue / ((double)c->schedulers * (double)cyc);
	dc->alu_util = (double)lanei / (lanes * (double)cyc);
	if (c->cta_beta == 0.0)
		inv = 0.0;
	else if (dc->alu_util == 0.0)
		inv = INFINITY;
	else
		inv = c->cta_beta / dc->alu_util;
	dc->metric = c->cta_alpha * dc->stall_rate + inv;
	if (dc->metric < c->cta_threshold) {
		dc->reason = WG_DECIDE_BELOW_THRESHOLD;
		dc->core_share = 1.0;
	} else {
		dc->reason = WG_DECIDE_CONGESTED;
		dc->core_share = c->cta_threshold / dc->metric;
		for (n = d->min_sms; n < d->nsm; n++)
			if (dc->core_share * ((double)d->nsm / n - 1.0) <= budget)
				break;
		dc->predicted_slowdown = dc->core_share * ((double)d->nsm / n - 1.0);
	}
	dc->sms = n;
	use_sms(d, n);
	wg_info("dispatch: congestion metric %.3f (stall rate %.3f, ALU utilisation %.3f) %s threshold %.3f: "
	        "%u of %u SMs, predicted slowdown %.1f%%", dc->metric, dc->stall_rate, dc->alu_util,
	        dc->reason == WG_DECIDE_CONGESTED ? ">=" : "<", c->cta_threshold, n, d->nsm,
	        100.0 * dc->predicted_slowdown);
}

int wg_dispatch_done(struct wg_dispatch *d, uint32_t sm, uint64_t cta, uint64_t now)
{
	struct sm_state *m;
	uint32_t i;
	int rc;

	if (!d)
		return WG_EINVAL;
	if (sm >= d->nsm)
		return fail(d, WG_EINVAL, "done on SM %u, the GPU has %u", sm, d->nsm);
	m = &d->sm[sm];
	for (i = 0; i < m->resident; i++)
		if (m->ids[i] == cta)
			break;
	if (!d->running || i == m->resident)
		return fail(d, WG_EINVAL, "CTA %llu is not resident on SM %u", (unsigned long long)cta, sm);
	rc = advance(d, now);
	if (rc)
		return rc;
	m->ids[i] = m->ids[--m->resident];
	if (!m->resident) {
		d->st.active_cycles[sm] += now - m->busy_since;
		d->st.active_cycles_total += now - m->busy_since;
	}
	d->st.ctas_done++;
	d->st.end = now;
	if (d->sampling)
		decide(d, now);
	if (d->st.ctas_done == d->st.ctas) {
		d->running = 0;
		for (uint32_t s = 0; s < d->nsm; s++)
			if (!d->st.ctas_per_sm[s])
				d->st.gateable |= sm_bit(s);
	}
	return 0;
}

int wg_dispatch_wants_sample(const struct wg_dispatch *d)
{
	return d && d->running && d->sampling;
}

int wg_dispatch_sample(struct wg_dispatch *d, uint32_t sm, const struct wg_dispatch_sample *s)
{
	const struct wg_config *c;

	if (!d || !s)
		return WG_EINVAL;
	c = &d->cfg;
	if (sm >= d->nsm)
		return fail(d, WG_EINVAL, "sample of SM %u, the GPU has %u", sm, d->nsm);
	if (s->icnt_stall_cycles > s->cycles || s->issue_stall_cycles > (uint64_t)c->schedulers * s->cycles ||
	    s->lane_insts > (uint64_t)c->simd_width * c->simd_units * s->cycles)
		return fail(d, WG_EINVAL, "inconsistent sample of SM %u: %llu cycles, %llu interconnect stall cycles, "
		            "%llu issue stall cycles, %llu lane-instructions", sm, (unsigned long long)s->cycles,
		            (unsigned long long)s->icnt_stall_cycles, (unsigned long long)s->issue_stall_cycles,
		            (unsigned long long)s->lane_insts);
	if (!d->sampling)
		return 0;
	d->sm[sm].sample = *s;
	d->sm[sm].has_sample = 1;
	return 0;
}

int wg_dispatch_finished(const struct wg_dispatch *d)
{
	return !d || !d->running;
}

const struct wg_dispatch_stats *wg_dispatch_stats(const struct wg_dispatch *d)
{
	return &d->st;
}

const char *wg_dispatch_error(const struct wg_dispatch *d)
{
	return d ? d->err : "";
}

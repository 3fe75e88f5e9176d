/*
 * bench_mem: speed of the host memory models (interconnect + L2 + GDDR5,
 * host/src/memsys.c) on a mixed request stream, with the GTX480
 * configuration or a given file. Prints requests per second of host time
 * and the model's statistics; asserts nothing about speed.
 *
 *   bench_mem [--config FILE] [--requests N] [--outstanding K] [--seed S]
 *
 * Every SM keeps up to K requests in flight (its memory port's tags) and
 * offers one new request per core cycle while it has room; a request the
 * memory system refuses is held and offered again the next cycle. Each
 * request is, in equal shares, part of a streaming walk (consecutive 128 B
 * lines of the SM's own 64 MB region), a random access anywhere in 1 GB,
 * or a reuse access inside a 256 KB working set shared by all SMs (it fits
 * in the 768 KB L2). Commands: 80% reads, 15% writes, 5% atomics; sizes
 * 128 B (lines), 32 B (segments) or 4 B (threads, atomics).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "memsys.h"
#include "warpgate.h"

#define BASE 0x00100000u
#define STREAM_REGION (64u << 20)
#define RANDOM_SPAN (1u << 30)
#define REUSE_SPAN (256u << 10)

struct gen {
	uint64_t x;
	uint32_t stream_next[64];
};

static uint32_t rnd(struct gen *g)
{
	g->x = g->x * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(g->x >> 33);
}

static void make_request(struct gen *g, uint32_t sm, uint64_t id, struct wg_mem_req *r)
{
	uint32_t kind = rnd(g) % 3, c = rnd(g) % 100, size;

	memset(r, 0, sizeof(*r));
	r->id = id;
	r->sm = sm;
	r->cmd = c < 80 ? WG_MEM_READ : c < 95 ? WG_MEM_WRITE : WG_MEM_ATOMIC;
	size = r->cmd == WG_MEM_ATOMIC ? 4 : (c % 4 == 0 ? 32 : 128);
	switch (kind) {
	case 0: /* streaming */
		r->addr = BASE + (sm % 16) * STREAM_REGION + g->stream_next[sm % 64];
		g->stream_next[sm % 64] = (g->stream_next[sm % 64] + 128) % STREAM_REGION;
		break;
	case 1: /* random */
		r->addr = BASE + rnd(g) % RANDOM_SPAN;
		break;
	default: /* reuse */
		r->addr = BASE + rnd(g) % REUSE_SPAN;
		break;
	}
	r->addr &= ~(size - 1);
	r->bytes = size;
	if (r->cmd == WG_MEM_WRITE && size < 32)
		r->partial = (uint8_t)(1u << ((r->addr & 127) / 32));
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int usage(void)
{
	fprintf(stderr, "usage: bench_mem [--config FILE] [--requests N] [--outstanding K] [--seed S]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct wg_config cfg;
	struct wg_memsys *m = NULL;
	struct gen g = { .x = 1 };
	char err[512];
	uint64_t total = 2000000, issued = 0, completed = 0, held_cycles = 0, t = 0;
	uint32_t max_out = 32;
	uint32_t *inflight;
	struct wg_mem_req *held;
	uint8_t *has_held;
	double t0, dt;
	int rc;

	wg_config_default(&cfg);
	for (int i = 1; i < argc; i++) {
		if (i + 1 >= argc)
			return usage();
		if (!strcmp(argv[i], "--config")) {
			if (wg_config_load(&cfg, argv[++i], err, sizeof(err))) {
				fprintf(stderr, "bench_mem: %s\n", err);
				return 1;
			}
		} else if (!strcmp(argv[i], "--requests")) {
			total = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--outstanding")) {
			max_out = (uint32_t)strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--seed")) {
			g.x = strtoull(argv[++i], NULL, 0);
		} else {
			return usage();
		}
	}
	if (!total || !max_out)
		return usage();
	if ((rc = wg_memsys_create_from_config(&m, &cfg, err, sizeof(err)))) {
		fprintf(stderr, "bench_mem: %s\n", err);
		return 1;
	}
	inflight = calloc(cfg.num_sms, sizeof(*inflight));
	held = calloc(cfg.num_sms, sizeof(*held));
	has_held = calloc(cfg.num_sms, 1);
	if (!inflight || !held || !has_held) {
		fprintf(stderr, "bench_mem: out of memory\n");
		return 1;
	}

	t0 = now_s();
	while (completed < total) {
		struct wg_mem_done d;

		/* Cycle t: every SM with room offers a request (the held one first). */
		for (uint32_t s = 0; s < cfg.num_sms; s++) {
			if (inflight[s] >= max_out)
				continue;
			if (!has_held[s]) {
				if (issued == total)
					continue;
				make_request(&g, s, issued++, &held[s]);
				has_held[s] = 1;
			}
			rc = wg_memsys_push(m, t, &held[s]);
			if (rc == WG_ENOMEM) {
				held_cycles++;
				continue;
			}
			if (rc) {
				fprintf(stderr, "bench_mem: push failed (%d)\n", rc);
				return 1;
			}
			has_held[s] = 0;
			inflight[s]++;
		}
		if ((rc = wg_memsys_advance(m, t))) {
			fprintf(stderr, "bench_mem: advance failed (%d)\n", rc);
			return 1;
		}
		while (wg_memsys_pop(m, &d)) {
			inflight[d.sm]--;
			completed++;
		}
		t++;
	}
	dt = now_s() - t0;

	const struct wg_memsys_stats *st = wg_memsys_stats(m);
	uint64_t sm_stall_max = 0;

	for (uint32_t s = 0; s < cfg.num_sms; s++)
		if (st->icnt_stall_cycles_sm[s] > sm_stall_max)
			sm_stall_max = st->icnt_stall_cycles_sm[s];
	printf("bench-mem: %s, %u SMs x %u channels, dl2 %s, %llu requests, up to %u in flight per SM\n", cfg.name,
	       cfg.num_sms, cfg.mem_channels, cfg.dl2, (unsigned long long)total, max_out);
	printf("  stream: 1/3 streaming, 1/3 random in 1 GB, 1/3 reuse in 256 KB; 80%% reads, 15%% writes, 5%% atomics\n");
	printf("  host time           %.3f s\n", dt);
	printf("  requests/s          %.0f\n", (double)total / dt);
	printf("  target cycles       %llu (%.0f per second)\n", (unsigned long long)t, (double)t / dt);
	printf("  requests per cycle  %.3f\n", (double)total / (double)t);
	printf("  L2 hit rate         %.4f (%llu hits, %llu misses)\n", st->l2_hit_rate,
	       (unsigned long long)st->l2_hits, (unsigned long long)st->l2_misses);
	printf("  L2 transactions     %llu reads, %llu writes, %llu atomics\n",
	       (unsigned long long)st->l2_read_transactions, (unsigned long long)st->l2_write_transactions,
	       (unsigned long long)st->l2_atomic_transactions);
	printf("  DRAM                %llu reads, %llu writes, %llu row hits\n", (unsigned long long)st->dram_reads,
	       (unsigned long long)st->dram_writes, (unsigned long long)st->dram_row_hits);
	printf("  avg mem latency     %.1f core cycles (min %llu)\n", st->avg_mem_latency,
	       (unsigned long long)wg_memsys_min_latency(m));
	printf("  icnt stall cycles   %llu total, %llu on the busiest SM port\n",
	       (unsigned long long)st->icnt_stall_cycles, (unsigned long long)sm_stall_max);
	printf("  refused pushes      %llu (SM-cycles holding a request)\n", (unsigned long long)held_cycles);
	free(inflight);
	free(held);
	free(has_held);
	wg_memsys_destroy(m);
	return 0;
}

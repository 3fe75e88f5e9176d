/*
 * bench_sweep: host time of the GPU top's power-gating histogram clear sweep (docs/gpu.md
 * section 4.3), 15 SMs, through sim/wggpu.h. After a RESET and its sweep, N times: a CFG
 * write of PG_CTRL with the clear strobe to every SM and 1,100 link cycles (the sweep, 1,024
 * bins, and the strobe's edges). Once with idle gating on (GPU_CTRL 1: the sweep of an idle
 * SM on its power-gating clock alone) and once off (GPU_CTRL 0: the SM clocked for the whole
 * sweep, as before the power-gating clock). Prints the median of N per run.
 *
 *   make bench-sweep [BENCH_SWEEP_N=5]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "wggpu.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void cfg_all(struct wggpu *g, uint32_t addr, uint32_t v)
{
	struct wggpu_cmd c;

	memset(&c, 0, sizeof(c));
	c.op = WGGPU_CFG;
	c.all = 1;
	c.addr = addr;
	memcpy(c.data, &v, 4);
	wggpu_push(g, &c);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5;
	double t[64];

	if (n < 1 || n > 64)
		n = 5;
	for (int gating = 1; gating >= 0; gating--) {
		struct wggpu *g;
		struct wggpu_cmd c;

		if (wggpu_create(&g, NULL))
			return 1;
		memset(&c, 0, sizeof(c));
		c.op = WGGPU_RESET;
		wggpu_push(g, &c);
		wggpu_tick(g, 10);
		cfg_all(g, 0x100, (uint32_t)gating); /* GPU_CTRL */
		wggpu_tick(g, 1290);
		for (int i = 0; i < n; i++) {
			double t0 = now();

			cfg_all(g, 21, 1u << 9); /* PG_CTRL: clear */
			wggpu_tick(g, 1100);
			t[i] = now() - t0;
		}
		qsort(t, (size_t)n, sizeof(t[0]), cmp);
		printf("bench-sweep: idle gating %-3s clear sweep %.3f s (median of %d)\n", gating ? "on" : "off",
		       t[n / 2], n);
		wggpu_destroy(g);
	}
	return 0;
}

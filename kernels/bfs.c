/*
 * bfs: breadth-first search from vertex 0 over a random directed graph in
 * CSR form, one launch of bfs_step per level until the frontier is empty;
 * the distances are checked against a CPU BFS.
 *
 * Out-degrees are uniform in [0, 2 * AVG_DEGREE] except for one vertex in
 * 16, a hub with 4 to 16 times AVG_DEGREE edges: neighbouring lanes walk
 * lists of very different lengths.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define BLOCK 128
#define AVG_DEGREE 6

/* Parameter buffer, as .param in bfs.s lays it out. */
struct bfs_params {
	uint32_t nfront, level;
	uint64_t row_ptr, col_idx, frontier, next, next_count, dist;
};

static const char usage[] =
	"Breadth-first search over a random directed graph (CSR), one launch of kernel\n"
	"bfs_step per level; distances are checked against a CPU BFS.\n"
	"--n N: number of vertices (small 1000, default 20000).";

struct graph {
	uint32_t nv, ne;
	uint32_t *row_ptr;	/* nv + 1 */
	uint32_t *col_idx;	/* ne */
};

static void make_graph(struct wgk *k, struct graph *g, uint32_t nv, uint64_t seed)
{
	struct wgk_rng rng;
	uint64_t ne = 0;
	uint32_t v, e, deg;

	wgk_rng_init(&rng, seed, 0);
	g->nv = nv;
	g->row_ptr = wgk_xmalloc(k, ((size_t)nv + 1) * 4);
	for (v = 0; v < nv; v++) {
		if (wgk_rng_below(&rng, 16) == 0)
			deg = 4 * AVG_DEGREE + wgk_rng_below(&rng, 12 * AVG_DEGREE + 1);
		else
			deg = wgk_rng_below(&rng, 2 * AVG_DEGREE + 1);
		g->row_ptr[v] = (uint32_t)ne;
		ne += deg;
	}
	if (ne > UINT32_MAX / 4)
		wgk_die(k, "graph too large (%llu edges)", (unsigned long long)ne);
	g->row_ptr[nv] = (uint32_t)ne;
	g->ne = (uint32_t)ne;
	g->col_idx = wgk_xmalloc(k, (size_t)ne * 4);
	for (e = 0; e < g->ne; e++)
		g->col_idx[e] = wgk_rng_below(&rng, nv);
}

/* Distances from src by a queue-based BFS; -1 for unreachable vertices. Returns the levels. */
static uint32_t cpu_bfs(struct wgk *k, const struct graph *g, uint32_t src, int32_t *dist)
{
	uint32_t *queue = wgk_xmalloc(k, (size_t)g->nv * 4);
	uint32_t head = 0, tail = 0, v, u, e, levels = 0;

	for (v = 0; v < g->nv; v++)
		dist[v] = -1;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		v = queue[head++];
		if ((uint32_t)dist[v] + 1 > levels)
			levels = (uint32_t)dist[v] + 1;
		for (e = g->row_ptr[v]; e < g->row_ptr[v + 1]; e++) {
			u = g->col_idx[e];
			if (dist[u] < 0) {
				dist[u] = dist[v] + 1;
				queue[tail++] = u;
			}
		}
	}
	free(queue);
	return levels;
}

int main(int argc, char **argv)
{
	struct bfs_params p;
	struct graph g;
	struct wgk k;
	int ret;
	int32_t *dist, *ref;
	uint64_t d_front[2];
	uint32_t nv, src = 0, zero = 0, level, ref_levels, reached = 0, v;
	size_t bad;

	wgk_init(&k, "bfs", usage, argc, argv);
	nv = (uint32_t)wgk_size(&k, 1000, 20000);
	if (nv > (1u << 24))
		wgk_die(&k, "--n: at most %u vertices", 1u << 24);
	make_graph(&k, &g, nv, k.opt.seed);

	ref = wgk_xmalloc(&k, (size_t)nv * 4);
	dist = wgk_xmalloc(&k, (size_t)nv * 4);
	ref_levels = cpu_bfs(&k, &g, src, ref);
	for (v = 0; v < nv; v++)
		dist[v] = v == src ? 0 : -1;

	memset(&p, 0, sizeof(p));
	p.row_ptr = wgk_alloc_copy(&k, g.row_ptr, ((size_t)nv + 1) * 4);
	p.col_idx = wgk_alloc_copy(&k, g.col_idx, (size_t)g.ne * 4);
	p.dist = wgk_alloc_copy(&k, dist, (size_t)nv * 4);
	p.next_count = wgk_alloc(&k, 4);
	d_front[0] = wgk_alloc(&k, (size_t)nv * 4);
	d_front[1] = wgk_alloc(&k, (size_t)nv * 4);
	wgk_upload(&k, d_front[0], &src, 4);

	/* One launch per level; the next frontier's length comes back each time. */
	p.nfront = 1;
	for (level = 0; p.nfront; level++) {
		if (level > nv || p.nfront > nv)
			wgk_die(&k, "level %u: frontier of %u vertices: the search does not converge", level,
				p.nfront);
		p.level = level;
		p.frontier = d_front[level & 1];
		p.next = d_front[(level + 1) & 1];
		wgk_upload(&k, p.next_count, &zero, 4);
		wgk_launch(&k, "bfs_step", (wg_dim3){ wgk_div_up(p.nfront, BLOCK), 1, 1 },
			   (wg_dim3){ BLOCK, 1, 1 }, &p, sizeof(p), 0);
		wgk_download(&k, &p.nfront, p.next_count, 4);
	}

	wgk_download(&k, dist, p.dist, (size_t)nv * 4);
	bad = wgk_cmp_i32(&k, "dist", dist, ref, nv);
	if (level != ref_levels) {
		fprintf(stderr, "bfs: %u levels, the CPU BFS has %u\n", level, ref_levels);
		bad++;
	}
	for (v = 0; v < nv; v++)
		reached += ref[v] >= 0;
	printf("bfs: %u vertices, %u edges, %u levels, %u vertices reached\n", nv, g.ne, level, reached);
	ret = wgk_finish(&k, bad, "%u", nv);
	free(dist);
	free(ref);
	free(g.row_ptr);
	free(g.col_idx);
	return ret;
}

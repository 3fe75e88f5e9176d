/*
 * bfs (CUDA suite, docs/suite.md): breadth-first search from vertex 0 over a
 * random directed graph, Rodinia style (kernels/cuda/bfs.cu): per level the
 * host launches bfs_expand and bfs_commit and reads back the "more" flag.
 * The costs (levels) are checked exactly against a queue-based CPU BFS.
 *
 * Degrees: uniform in [0, 2 * AVG_DEGREE], one vertex in 16 a hub with 4 to
 * 16 times AVG_DEGREE edges.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define BLOCK 256
#define AVG_DEGREE 6

struct expand_params {
	uint64_t nodes, edges, frontier, updating, visited, cost;
	int32_t nv;
};

struct commit_params {
	uint64_t frontier, updating, visited, more;
	int32_t nv;
};

static const char usage[] =
	"Breadth-first search (Rodinia-style frontier masks), kernels/cuda/bfs.cu: two\n"
	"launches per level; the costs are checked exactly against a CPU BFS.\n"
	"--n N: number of vertices (small 1024, default 65536).";

int main(int argc, char **argv)
{
	struct expand_params pe;
	struct commit_params pc;
	struct wgk_rng rng;
	struct wgk k;
	int32_t *node, *edge, *cost, *ref;
	uint32_t *queue, head = 0, tail = 0;
	uint8_t *mask, more;
	uint32_t nv, ne = 0, v, e, levels = 0, ref_levels = 0, reached = 0;
	size_t bad;
	int ret;

	wgk_init_ptx(&k, "bfs", usage, argc, argv);
	nv = (uint32_t)wgk_size(&k, 1024, 65536);
	if (nv > (1u << 22))
		wgk_die(&k, "--n: at most %u vertices", 1u << 22);

	/* The graph: node[2v] = first edge, node[2v+1] = degree. */
	wgk_rng_init(&rng, k.opt.seed, 0);
	node = wgk_xmalloc(&k, (size_t)nv * 8);
	for (v = 0; v < nv; v++) {
		uint32_t deg = wgk_rng_below(&rng, 16) == 0 ?
			4 * AVG_DEGREE + wgk_rng_below(&rng, 12 * AVG_DEGREE + 1) :
			wgk_rng_below(&rng, 2 * AVG_DEGREE + 1);
		node[2 * v] = (int32_t)ne;
		node[2 * v + 1] = (int32_t)deg;
		ne += deg;
	}
	edge = wgk_xmalloc(&k, (size_t)ne * 4);
	for (e = 0; e < ne; e++)
		edge[e] = (int32_t)wgk_rng_below(&rng, nv);

	/* CPU reference: queue-based BFS; -1 = unreachable. */
	ref = wgk_xmalloc(&k, (size_t)nv * 4);
	queue = wgk_xmalloc(&k, (size_t)nv * 4);
	for (v = 0; v < nv; v++)
		ref[v] = -1;
	ref[0] = 0;
	queue[tail++] = 0;
	while (head < tail) {
		v = queue[head++];
		if ((uint32_t)ref[v] + 1 > ref_levels)
			ref_levels = (uint32_t)ref[v] + 1;
		for (e = (uint32_t)node[2 * v]; e < (uint32_t)(node[2 * v] + node[2 * v + 1]); e++) {
			uint32_t u = (uint32_t)edge[e];
			if (ref[u] < 0) {
				ref[u] = ref[v] + 1;
				queue[tail++] = u;
			}
		}
	}
	reached = tail;

	/* Device state: source in the frontier and visited, cost 0; the rest -1. */
	cost = wgk_xmalloc(&k, (size_t)nv * 4);
	mask = wgk_xmalloc(&k, nv);
	for (v = 0; v < nv; v++)
		cost[v] = v ? -1 : 0;
	mask[0] = 1;
	memset(&pe, 0, sizeof(pe));
	memset(&pc, 0, sizeof(pc));
	pe.nodes = wgk_alloc_copy(&k, node, (size_t)nv * 8);
	pe.edges = wgk_alloc_copy(&k, edge, (size_t)ne * 4);
	pe.frontier = pc.frontier = wgk_alloc_copy(&k, mask, nv);
	pe.visited = pc.visited = wgk_alloc_copy(&k, mask, nv);
	pe.updating = pc.updating = wgk_alloc(&k, nv);
	wgk_memset(&k, pe.updating, 0, nv);
	pe.cost = wgk_alloc_copy(&k, cost, (size_t)nv * 4);
	pc.more = wgk_alloc(&k, 1);
	pe.nv = pc.nv = (int32_t)nv;

	do {
		if (levels > nv)
			wgk_die(&k, "level %u: the search does not converge", levels);
		more = 0;
		wgk_upload(&k, pc.more, &more, 1);
		wgk_launch(&k, "bfs_expand", (wg_dim3){ wgk_div_up(nv, BLOCK), 1, 1 }, (wg_dim3){ BLOCK, 1, 1 }, &pe,
			   sizeof(pe), 0);
		wgk_launch(&k, "bfs_commit", (wg_dim3){ wgk_div_up(nv, BLOCK), 1, 1 }, (wg_dim3){ BLOCK, 1, 1 }, &pc,
			   sizeof(pc), 0);
		wgk_download(&k, &more, pc.more, 1);
		levels++;
	} while (more);

	wgk_download(&k, cost, pe.cost, (size_t)nv * 4);
	bad = wgk_cmp_i32(&k, "cost", cost, ref, nv);
	/* One launch pair per level (the last one finds nothing new). */
	if (levels != ref_levels) {
		fprintf(stderr, "bfs: %u launch pairs, expected %u (levels of the CPU BFS)\n", levels, ref_levels);
		bad++;
	}
	printf("bfs: %u vertices, %u edges, %u levels, %u vertices reached\n", nv, ne, levels, reached);
	ret = wgk_finish(&k, bad, "%u", nv);
	free(node);
	free(edge);
	free(ref);
	free(queue);
	free(cost);
	free(mask);
	return ret;
}

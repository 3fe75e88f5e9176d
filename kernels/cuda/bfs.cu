// bfs.cu: breadth-first search in the manner of Rodinia's BFS: boolean
// frontier masks instead of a queue, two kernels per level launched by the
// host until no vertex is updated. Thread per vertex: most threads of a
// level find their mask clear and leave; the rest walk adjacency lists of
// different lengths and test neighbours at scattered addresses (irregular
// byte loads, divergent loop trip counts).

struct bfs_node {
	int first;	// index of the first edge in the edge list
	int degree;	// number of edges
};

// Expand the frontier: every vertex in it marks its unvisited neighbours for
// the next level and gives them its cost + 1 (all writers of a neighbour
// write the same cost, so the races are benign).
extern "C" __global__ void bfs_expand(const bfs_node *nodes, const int *edges, bool *frontier, bool *updating,
				      const bool *visited, int *cost, int nv)
{
	int v = blockIdx.x * blockDim.x + threadIdx.x;

	if (v < nv && frontier[v]) {
		frontier[v] = false;
		int c = cost[v] + 1;
		int end = nodes[v].first + nodes[v].degree;
		for (int e = nodes[v].first; e < end; e++) {
			int u = edges[e];
			if (!visited[u]) {
				cost[u] = c;
				updating[u] = true;
			}
		}
	}
}

// Commit the level: the marked vertices form the next frontier; *more tells
// the host to launch another level.
extern "C" __global__ void bfs_commit(bool *frontier, bool *updating, bool *visited, bool *more, int nv)
{
	int v = blockIdx.x * blockDim.x + threadIdx.x;

	if (v < nv && updating[v]) {
		frontier[v] = true;
		visited[v] = true;
		*more = true;
		updating[v] = false;
	}
}

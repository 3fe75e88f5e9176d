// nn.cu: nearest neighbours in the manner of Rodinia's NN: one thread per
// record computes its Euclidean distance (sqrtf) to a target location; the
// host then selects the k nearest records. Few instructions per byte loaded:
// memory bound, no divergence except at the grid's end.

extern "C" __global__ void nn_distance(const float2 *loc, float *dist, int n, float lat, float lng)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n) {
		float2 p = loc[i];
		float dlat = lat - p.x;
		float dlng = lng - p.y;
		dist[i] = sqrtf(dlat * dlat + dlng * dlng);
	}
}

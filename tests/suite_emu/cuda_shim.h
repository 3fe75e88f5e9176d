/*
 * The CUDA subset the suite's kernels use, for the host compiler: one POSIX
 * thread per CUDA thread of a CTA, CTAs one after another (so that static
 * storage serves as the CTA's shared memory), __syncthreads a barrier.
 */
#ifndef WG_CUDA_SHIM_H
#define WG_CUDA_SHIM_H

#include <math.h>
#include <pthread.h>

struct emu_dim3 {
	unsigned x, y, z;
};

struct float2 {
	float x, y;
};

struct float4 {
	float x, y, z, w;
};

extern thread_local emu_dim3 threadIdx;
extern emu_dim3 blockIdx, blockDim, gridDim;
extern pthread_barrier_t emu_barrier;

#define __global__
#define __device__
#define __shared__ static

static inline void __syncthreads()
{
	pthread_barrier_wait(&emu_barrier);
}

/* The SFU's approximation is not modelled: the drivers' tolerances cover it. */
static inline float rsqrtf(float x)
{
	return 1.0f / sqrtf(x);
}

#endif

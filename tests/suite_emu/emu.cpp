/*
 * suite-emu: the CUDA suite's drivers (kernels/cuda/NAME.c) linked against a
 * stand-in for libwarpgate that runs the kernels' CUDA sources, compiled for
 * the host, on host memory (cuda_shim.h). It checks the drivers, their CPU
 * references and tolerances independently of the PTX frontend and of the
 * targets (make suite-emu-test, docs/suite.md). Device addresses are host
 * pointers; parameter buffers are unpacked at the offsets nvcc gives the
 * kernels' arguments.
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cuda_shim.h"

thread_local emu_dim3 threadIdx;
emu_dim3 blockIdx, blockDim, gridDim;
pthread_barrier_t emu_barrier;

#include "bfs.cu"
#include "cfd.cu"
#include "cp.cu"
#include "hotspot.cu"
#include "lib.cu"
#include "lps.cu"
#include "lud.cu"
#include "mum.cu"
#include "nn.cu"
#include "wp.cu"

#include "warpgate.h"

namespace {

const unsigned char *prm; /* the launch's parameter buffer */

template <typename T> T arg(size_t off)
{
	T v;

	memcpy(&v, prm + off, sizeof(v));
	return v;
}

template <typename T> T *ptr(size_t off)
{
	return reinterpret_cast<T *>(static_cast<uintptr_t>(arg<uint64_t>(off)));
}

const std::map<std::string, std::function<void()>> kernels = {
	{ "bfs_expand",
	  [] { bfs_expand(ptr<bfs_node>(0), ptr<int>(8), ptr<bool>(16), ptr<bool>(24), ptr<bool>(32), ptr<int>(40),
			  arg<int>(48)); } },
	{ "bfs_commit", [] { bfs_commit(ptr<bool>(0), ptr<bool>(8), ptr<bool>(16), ptr<bool>(24), arg<int>(32)); } },
	{ "cp_energy",
	  [] { cp_energy(ptr<float>(0), arg<int>(8), arg<float>(12), arg<float>(16), arg<int>(20), arg<cp_atoms>(32)); } },
	{ "lib_paths", [] { lib_paths(ptr<float>(0), arg<int>(8), arg<unsigned>(12), arg<lib_consts>(16)); } },
	{ "lps_jacobi",
	  [] { lps_jacobi(ptr<float>(0), ptr<float>(8), arg<int>(16), arg<int>(20), arg<int>(24)); } },
	{ "mum_match",
	  [] { mum_match(ptr<unsigned char>(0), arg<int>(8), ptr<unsigned>(16), ptr<unsigned>(24),
			 ptr<unsigned char>(32), ptr<unsigned>(40), arg<int>(48), ptr<int>(56), ptr<int>(64),
			 ptr<int>(72)); } },
	{ "nn_distance",
	  [] { nn_distance(ptr<float2>(0), ptr<float>(8), arg<int>(16), arg<float>(20), arg<float>(24)); } },
	{ "wp_step",
	  [] { wp_step(ptr<float>(0), ptr<float>(8), ptr<float>(16), ptr<float>(24), ptr<float>(32), ptr<float>(40),
		       ptr<float>(48), ptr<float>(56), arg<int>(64), arg<int>(68), arg<int>(72), arg<wp_coef>(76)); } },
	{ "hotspot_step",
	  [] { hotspot_step(ptr<float>(0), ptr<float>(8), ptr<float>(16), arg<int>(24), arg<int>(28), arg<int>(32),
			    arg<hs_coef>(36)); } },
	{ "lud_diagonal", [] { lud_diagonal(ptr<float>(0), arg<int>(8), arg<int>(12)); } },
	{ "lud_perimeter", [] { lud_perimeter(ptr<float>(0), arg<int>(8), arg<int>(12)); } },
	{ "lud_internal", [] { lud_internal(ptr<float>(0), arg<int>(8), arg<int>(12)); } },
	{ "cfd_copy", [] { cfd_copy(ptr<float>(0), ptr<float>(8), arg<int>(16)); } },
	{ "cfd_step_factor", [] { cfd_step_factor(ptr<float>(0), ptr<float>(8), ptr<float>(16), arg<int>(24)); } },
	{ "cfd_flux",
	  [] { cfd_flux(ptr<int>(0), ptr<float>(8), ptr<float>(16), ptr<float>(24), arg<int>(32), arg<cfd_ff>(36)); } },
	{ "cfd_time_step",
	  [] { cfd_time_step(ptr<float>(0), ptr<float>(8), ptr<float>(16), ptr<float>(24), ptr<float>(32),
			     arg<int>(40), arg<int>(44)); } },
};

struct thread_arg {
	const std::function<void()> *kernel;
	emu_dim3 tid;
};

void *run_thread(void *p)
{
	const thread_arg *a = static_cast<const thread_arg *>(p);

	threadIdx = a->tid;
	(*a->kernel)();
	return nullptr;
}

uint64_t launches, ctas;
std::string last_error;

} // namespace

extern "C" {

int wg_open(struct wg_device **dev, const char *, const char *)
{
	*dev = reinterpret_cast<wg_device *>(calloc(1, 1));
	return *dev ? 0 : WG_ENOMEM;
}

void wg_close(struct wg_device *dev)
{
	free(dev);
}

int wg_malloc(struct wg_device *, uint64_t *d, size_t bytes)
{
	void *p = calloc(1, bytes);

	*d = reinterpret_cast<uintptr_t>(p);
	return p ? 0 : WG_ENOMEM;
}

int wg_free(struct wg_device *, uint64_t d)
{
	free(reinterpret_cast<void *>(static_cast<uintptr_t>(d)));
	return 0;
}

int wg_memcpy_htod(struct wg_device *, uint64_t dst, const void *src, size_t bytes)
{
	memcpy(reinterpret_cast<void *>(static_cast<uintptr_t>(dst)), src, bytes);
	return 0;
}

int wg_memcpy_dtoh(struct wg_device *, void *dst, uint64_t src, size_t bytes)
{
	memcpy(dst, reinterpret_cast<const void *>(static_cast<uintptr_t>(src)), bytes);
	return 0;
}

int wg_memset(struct wg_device *, uint64_t dst, int value, size_t bytes)
{
	memset(reinterpret_cast<void *>(static_cast<uintptr_t>(dst)), value, bytes);
	return 0;
}

int wg_module_load(struct wg_device *, struct wg_module **mod, const char *)
{
	*mod = reinterpret_cast<wg_module *>(calloc(1, 1));
	return *mod ? 0 : WG_ENOMEM;
}

int wg_module_unload(struct wg_device *, struct wg_module *mod)
{
	free(mod);
	return 0;
}

int wg_launch(struct wg_device *, struct wg_module *, const char *kernel, wg_dim3 grid, wg_dim3 block,
	      const void *params, size_t, uint32_t)
{
	auto k = kernels.find(kernel);
	unsigned n = block.x * block.y * block.z;

	if (k == kernels.end()) {
		last_error = std::string("no kernel '") + kernel + "'";
		return WG_ENOENT;
	}
	prm = static_cast<const unsigned char *>(params);
	gridDim = { grid.x, grid.y, grid.z };
	blockDim = { block.x, block.y, block.z };
	std::vector<pthread_t> th(n);
	std::vector<thread_arg> ta(n);
	for (unsigned z = 0; z < grid.z; z++)
		for (unsigned y = 0; y < grid.y; y++)
			for (unsigned x = 0; x < grid.x; x++) {
				blockIdx = { x, y, z };
				pthread_barrier_init(&emu_barrier, nullptr, n);
				for (unsigned i = 0; i < n; i++) {
					ta[i] = { &k->second, { i % block.x, i / block.x % block.y, i / (block.x * block.y) } };
					if (pthread_create(&th[i], nullptr, run_thread, &ta[i])) {
						last_error = "pthread_create failed";
						return WG_ENOMEM;
					}
				}
				for (unsigned i = 0; i < n; i++)
					pthread_join(th[i], nullptr);
				pthread_barrier_destroy(&emu_barrier);
				ctas++;
			}
	launches++;
	return 0;
}

int wg_synchronize(struct wg_device *)
{
	return 0;
}

int wg_stats_json(struct wg_device *, FILE *out)
{
	fprintf(out, "{\"target\": \"suite-emu\", \"totals\": {\"kernels\": %llu, \"ctas\": %llu}}\n",
		static_cast<unsigned long long>(launches), static_cast<unsigned long long>(ctas));
	return 0;
}

const char *wg_strerror(int err)
{
	return err ? "suite-emu error" : "success";
}

const char *wg_last_error(struct wg_device *)
{
	return last_error.c_str();
}

int wg_set_retire_log(struct wg_device *, const char *)
{
	return WG_ENOTSUP;
}

int wg_set_option(struct wg_device *, const char *, const char *)
{
	return WG_ENOTSUP;
}

int wg_set_option_kv(struct wg_device *, const char *)
{
	return WG_ENOTSUP;
}
}

/* simfit: whether a launch fits a Verilated SM's build parameters (simfit.h). */
#include "simfit.h"

#include <stdio.h>

#include "../../sim/wgsim.h"
#include "isa.h"

const char *wg_sim_misfit(const struct wgsim_info *in, const struct wg_kernel *k, const struct wg_launch *l,
                          int l1_split48, char *buf, size_t len)
{
	uint64_t threads = (uint64_t)l->block.x * l->block.y * l->block.z, warps = (threads + 31) / 32;
	/* the array is 4/3 of the largest shared size (64 KB): l1_split=48 leaves a quarter of it, 16 KB */
	uint32_t smem = l1_split48 ? in->smem_bytes / 3 : in->smem_bytes;
	uint32_t first[2];
	unsigned needs;

	if (warps > in->num_warps) {
		snprintf(buf, len, "%llu threads per CTA exceed %u warps of 32", (unsigned long long)threads,
		         in->num_warps);
		return buf;
	}
	if ((uint64_t)k->regs * warps * 32 > in->num_regs) {
		snprintf(buf, len, "%u registers x %llu threads (whole warps) exceed the SM's %u registers", k->regs,
		         (unsigned long long)(warps * 32), in->num_regs);
		return buf;
	}
	if ((uint64_t)k->shared_bytes + l->dyn_shared > smem) {
		snprintf(buf, len, "%u static + %u dynamic shared bytes exceed the SM's %u (l1_split=%s)", k->shared_bytes,
		         l->dyn_shared, smem, l1_split48 ? "48" : "16");
		return buf;
	}
	if (k->ninsns > in->imem_depth) {
		snprintf(buf, len, "%u instructions exceed the instruction memory of %u", k->ninsns, in->imem_depth);
		return buf;
	}
	if (k->param_bytes > in->cmem_bytes) {
		snprintf(buf, len, "%u parameter bytes exceed the parameter store of %u", k->param_bytes,
		         in->cmem_bytes);
		return buf;
	}
	if ((uint64_t)k->local_bytes * threads * l->grid.x * l->grid.y * l->grid.z > 0xFFFFFFFFull) {
		snprintf(buf, len, "the local-memory region exceeds 4 GiB");
		return buf;
	}
	/* An SM built without FP32 or the SFU decodes those instructions as illegal. */
	needs = wg_isa_needs(k->code, k->ninsns, first);
	if ((needs & WG_NEED_FP) && !in->has_fp) {
		snprintf(buf, len, "pc %u uses FP32, the SM is built without it (HAS_FP 0)", first[0]);
		return buf;
	}
	if ((needs & WG_NEED_SFU) && !in->has_sfu) {
		snprintf(buf, len, "pc %u uses the SFU, the SM is built without it (HAS_SFU 0)", first[1]);
		return buf;
	}
	return NULL;
}

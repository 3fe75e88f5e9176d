/* Functional global-memory access for the SM's memory port (memserve.h). */
#include <string.h>

#include "func.h"
#include "memserve.h"
#include "warpgate.h"

static int fail(const char **why, const char *w)
{
	*why = w;
	return WG_EFAULT;
}

int wg_memserve(struct wg_gmem *g, const struct wg_ls_req *r, uint8_t rdata[WG_LS_MEM_BYTES], const char **why)
{
	uint32_t bytes, block, off;
	uint8_t *p;

	memset(rdata, 0, WG_LS_MEM_BYTES);
	*why = "";
	if (r->size > 7 || r->cmd > 2)
		return fail(why, "is malformed");
	bytes = 1u << r->size;
	if (r->addr & (bytes - 1))
		return fail(why, "is misaligned");
	block = r->addr & ~(uint32_t)(WG_LS_MEM_BYTES - 1);
	off = r->addr - block;
	if (r->cmd == 2) {
		uint32_t old, nv;

		if (bytes != 4 || r->atom_op > 12)
			return fail(why, "is not a 4-byte atomic of a known operation");
		p = wg_gmem_ptr(g, r->addr, 4);
		if (!p)
			return fail(why, "is outside every allocation");
		memcpy(&old, p, 4);
		nv = wg_func_atom_apply(r->atom_op, old, r->atom_b, r->atom_c);
		memcpy(p, &nv, 4);
		memcpy(rdata + off, &old, 4);
		return 0;
	}
	if (bytes <= 16) {
		p = wg_gmem_ptr(g, r->addr, bytes);
		if (!p)
			return fail(why, "is outside every allocation");
		if (r->cmd == 0) {
			memcpy(rdata + off, p, bytes);
			return 0;
		}
		for (uint32_t i = 0; i < WG_LS_MEM_BYTES; i++)
			if (r->wmask[i] && (i < off || i >= off + bytes))
				return fail(why, "has byte enables outside its size");
		for (uint32_t i = 0; i < bytes; i++)
			if (r->wmask[off + i])
				p[i] = r->wdata[off + i];
		return 0;
	}
	/* a segment or line: bytes outside allocations read as zero; written bytes must be inside */
	{
		int any = 0;

		for (uint32_t i = off; i < off + bytes; i++) {
			if (r->cmd == 1 && r->wmask[i] && !wg_gmem_ptr(g, block + i, 1))
				return fail(why, "writes bytes outside every allocation");
			if (wg_gmem_ptr(g, block + i, 1))
				any = 1;
		}
		if (!any)
			return fail(why, "is outside every allocation");
		for (uint32_t i = off; i < off + bytes; i++) {
			uint8_t *b = wg_gmem_ptr(g, block + i, 1);

			if (!b)
				continue;
			if (r->cmd == 0)
				rdata[i] = *b;
			else if (r->wmask[i])
				*b = r->wdata[i];
		}
	}
	return 0;
}

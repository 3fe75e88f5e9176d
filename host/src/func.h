/*
 * The functional golden model ("func" target): runs a whole grid with exact
 * ISA semantics (docs/isa.md), no timing. It is the reference that the RTL
 * is compared against in lockstep.
 */
#ifndef WG_FUNC_H
#define WG_FUNC_H

#include "config.h"
#include "gmem.h"
#include "launch.h"
#include "retire.h"
#include "stats.h"

struct wg_func;

int wg_func_create(struct wg_func **f, struct wg_gmem *gmem, const struct wg_config *cfg);
void wg_func_destroy(struct wg_func *f);

/*
 * Run the launch to completion. Counters are added to st; every retired warp
 * instruction goes to log when log != NULL. On a fault (illegal instruction,
 * out-of-range or misaligned access, barrier deadlock) returns WG_EILLEGAL /
 * WG_EFAULT / WG_EDEADLOCK with err->msg naming the kernel, CTA (x,y,z),
 * warp, pc, lane and address as they apply; memory written before the
 * fault stays written.
 */
int wg_func_run(struct wg_func *f, const struct wg_launch *l, struct wg_stats *st, struct wg_retire_log *log,
                struct wg_err *err);

/*
 * Atomic operation op (the memory port's encoding, docs/sm.md 2.3: 0 ADD ..
 * 7 XOR, 8 MIN.U32, 9 MAX.U32, 10 INC, 11 DEC, 12 ADD.F32) on the word old
 * with operands b and c, exactly as the golden model applies it (ADD.F32:
 * round to nearest even, canonical NaN). The caller keeps the FP rounding
 * mode at round-to-nearest.
 */
uint32_t wg_func_atom_apply(unsigned op, uint32_t old, uint32_t b, uint32_t c);

/* ------------------------------------------------------------------------ */
/*
 * Stepping API for lockstep co-simulation (docs/cosim.md): the same ISA
 * semantics as wg_func_run, one warp instruction at a time, for any CTA
 * and warp the caller names, with several CTAs in flight.
 *
 * WG_FUNC_LS_CHECK: the model never touches global memory. Global loads
 * and global atomics check their addresses (alignment, inside an
 * allocation) and adopt the values the observed record carries; shared
 * atomics apply their operation to the model's shared memory but return
 * the observed values (their order across warps is timing dependent).
 * WG_FUNC_LS_EXEC: global memory is read and written for real, as
 * wg_func_run does (a reference device under test for self-checks).
 * In both modes shared, local and parameter memory are the model's own,
 * per CTA and per thread, and every global or local store and every global
 * atomic is listed in the record as the memory port would carry it (local
 * addresses interleaved from local_base as in docs/sm.md section 4).
 */
enum wg_func_ls_mode { WG_FUNC_LS_CHECK, WG_FUNC_LS_EXEC };
enum wg_func_warp_state { WG_FUNC_WARP_RUN, WG_FUNC_WARP_WAIT, WG_FUNC_WARP_DONE };

#define WG_FUNC_LS_MAXMEM 128 /* 32 lanes x 4 words */

/* One store or atomic of one lane (local: one 4-byte word or less). */
struct wg_func_ls_mem {
	uint32_t addr;     /* device address */
	uint8_t lane;
	uint8_t cmd;       /* 1 write, 2 atomic (as the memory port) */
	uint8_t size;      /* bytes: 1, 2, 4, 8 or 16 */
	uint8_t local;
	uint8_t atom_op;   /* port encoding, see wg_func_atom_apply */
	uint32_t atom_b, atom_c;
	uint8_t data[16];  /* write data, little-endian */
};

/* One retired warp instruction: what the model did, or (obs) what the device under test reported. */
struct wg_func_ls_rec {
	uint32_t cta, warp, pc;
	uint32_t active, exec;
	uint8_t dst;       /* enum wg_retire_dst */
	uint8_t reg, nregs;
	uint8_t skip;      /* values are target-dependent (S2R SR_CLOCK/CLOCKHI) */
	uint8_t cls;       /* operation class */
	uint8_t state;     /* enum wg_func_warp_state after the instruction */
	uint32_t pred;     /* WG_RD_PRED: predicate after the write (compare ANDed with exec) */
	uint32_t vals[32][4];
	uint32_t nmem;
	struct wg_func_ls_mem mem[WG_FUNC_LS_MAXMEM];
};

struct wg_func_ls;

int wg_func_ls_begin(struct wg_func *f, const struct wg_launch *l, int mode, uint32_t local_base,
                     struct wg_func_ls **s, struct wg_err *err);
/* Adds the counters of the instructions stepped to st (may be NULL) and frees s. */
void wg_func_ls_end(struct wg_func_ls *s, struct wg_stats *st);
/* Start CTA cta (linear id): fresh registers, shared and local memory. */
int wg_func_ls_cta_begin(struct wg_func_ls *s, uint32_t cta, struct wg_err *err);
void wg_func_ls_cta_end(struct wg_func_ls *s, uint32_t cta);
uint32_t wg_func_ls_warps(const struct wg_func_ls *s); /* warps per CTA */
/* State (enum wg_func_warp_state) and next pc of a warp; WG_ENOENT when the CTA was not begun. */
int wg_func_ls_warp(const struct wg_func_ls *s, uint32_t cta, uint32_t warp, uint32_t *pc);
/*
 * Execute the next instruction of (cta, warp) into out. obs is the
 * observed record (WG_FUNC_LS_CHECK; NULL in EXEC mode). Returns 0, or a
 * negative WG_E* with err naming the kernel, CTA, warp, pc and lane when
 * the model faults (nothing retires then) or, after a barrier arrival,
 * when every unfinished warp of the CTA waits at different barriers
 * (WG_EDEADLOCK; out is valid).
 */
int wg_func_ls_step(struct wg_func_ls *s, uint32_t cta, uint32_t warp, const struct wg_func_ls_rec *obs,
                    struct wg_func_ls_rec *out, struct wg_err *err);
/* Write rec as a retire-log line (docs/retire-log.md). */
void wg_func_ls_log(struct wg_retire_log *log, const struct wg_func_ls_rec *rec);

#endif

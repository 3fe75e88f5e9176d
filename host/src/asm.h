/* The warpgate assembler: source text -> kernel image (docs/isa.md section 10). */
#ifndef WG_ASM_H
#define WG_ASM_H

#include <stdio.h>
#include "image.h"

/*
 * Assemble src (NUL-terminated) into img. filename is used in messages only.
 * Every error and warning is written to diag (may be NULL) as
 * "file:line:col: error: what, expected ..."; returns 0, or WG_ESYNTAX after
 * reporting every error found (up to a limit), with img left empty.
 */
int wg_asm_string(struct wg_image *img, const char *src, const char *filename, FILE *diag);
int wg_asm_file(struct wg_image *img, const char *path, FILE *diag);

/*
 * Compute the reconvergence pc of every BRA in k (immediate post-dominator,
 * docs/isa.md section 4). out[pc] receives the value for BRA instructions and
 * is left untouched elsewhere. Returns 0, or with pc_out set to the offending
 * pc: WG_ESYNTAX when the code can fall through past its last instruction,
 * WG_EILLEGAL for an undecodable word, WG_EINVAL for a branch target past the
 * end; WG_ENOMEM when out of memory.
 */
int wg_asm_reconv(const uint64_t *code, uint32_t n, uint32_t *out, uint32_t *pc_out);

#endif

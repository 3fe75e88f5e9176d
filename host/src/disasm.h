/* The warpgate disassembler: kernel image -> assembly source that reassembles byte for byte. */
#ifndef WG_DISASM_H
#define WG_DISASM_H

#include <stdio.h>
#include "image.h"
#include "isa.h"

/* Write the whole image as assembly source. 0 or WG_E*. */
int wg_disasm_image(const struct wg_image *img, FILE *out);

/*
 * One instruction as text (no label, no newline), e.g. "@!P0 BRA loop, L_0009".
 * k may be NULL (branch targets then print as numbers). Returns the length.
 */
int wg_disasm_insn(const struct wg_kernel *k, uint32_t pc, const struct wg_insn *in, char *buf, size_t len);

#endif

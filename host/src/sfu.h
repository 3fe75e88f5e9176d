/*
 * The special-function unit's reference arithmetic (docs/sfu.md): MUFU
 * approximations defined in integer arithmetic (table lookup + quadratic
 * interpolation in fixed point, bit-identical to rtl/wg_sfu_mufu.sv), and the
 * exact operations FDIV, FSQRT, IDIV, IREM. Every function takes and returns
 * the raw 32-bit register values.
 */
#ifndef WG_SFU_H
#define WG_SFU_H

#include <stdint.h>

/* MUFU.fn of a: fn is enum wg_mufu (0 RCP .. 6 COS); other fn values give the
 * canonical NaN. */
uint32_t wg_sfu_mufu(unsigned fn, uint32_t a);

/* FDIV a / b and FSQRT a: IEEE binary32, round to nearest even, subnormals
 * kept, NaN results canonical (0x7FFFFFFF). */
uint32_t wg_sfu_fdiv(uint32_t a, uint32_t b);
uint32_t wg_sfu_fsqrt(uint32_t a);

/* IDIV / IREM, is_unsigned = the mod field. Division by zero: quotient
 * 0xFFFFFFFF, remainder a; INT_MIN / -1: quotient INT_MIN, remainder 0. */
uint32_t wg_sfu_idiv(uint32_t a, uint32_t b, int is_unsigned);
uint32_t wg_sfu_irem(uint32_t a, uint32_t b, int is_unsigned);

/*
 * The shared output stage: the binary32 value nearest to (-1)^sign x
 * (v + s) x 2^k, ties to even, where s is 0 when sticky is 0 and otherwise
 * some value strictly between 0 and 1; subnormal results are kept,
 * overflow gives infinity. Exposed for tests.
 */
uint32_t wg_sfu_pack(int sign, uint64_t v, int k, int sticky);

#endif

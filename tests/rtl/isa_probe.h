// isa_probe.h: which fields of an instruction-table row are general registers, found through
// the golden model's register check (host/src/isa.c), not through the generated package or
// the RTL: register 1 in the field, against a kernel of 1 register, fails the check only if
// the field is a register the instruction reads or writes. Shared by test_isa_pkg and
// test_decode.
#ifndef WG_TESTS_RTL_ISA_PROBE_H
#define WG_TESTS_RTL_ISA_PROBE_H

extern "C" {
#include "isa.h"
}

// which: 0 rd, 1 ra, 2 rc
static inline bool isa_field_is_reg(const wg_isa_entry *e, int which)
{
	wg_insn in;
	wg_insn_init(&in, e);
	in.rd = in.ra = in.rc = WG_REG_RZ;
	in.b = WG_REG_RZ;
	in.bimm = 0;
	(which == 0 ? in.rd : which == 1 ? in.ra : in.rc) = 1;
	return wg_isa_check_regs(&in, 1, nullptr, 0) != 0;
}

#endif

// test_isa_pkg: the generated rtl/wg_isa_pkg.sv agrees with the C instruction
// table: every (op, mod) pair's legality, format, class and register use,
// the field positions on encoded words, the width helpers and a few constants.
#include "Vtb_isa_pkg.h"
#include "harness.h"

#include "isa_probe.h"

namespace {

using H = wg::Harness<Vtb_isa_pkg>;

void test_table(H &h)
{
	auto *t = h.top;
	unsigned rows = 0;
	for (unsigned op = 0; op < 64; op++)
		for (unsigned mod = 0; mod < 8; mod++) {
			t->insn_i = static_cast<uint64_t>(op) << 58 | static_cast<uint64_t>(mod) << 32;
			h.eval();
			const wg_isa_entry *e = wg_isa_lookup(op, mod);
			CHECK(h, t->legal_o == (e != nullptr), "op %u mod %u legal %d", op, mod, t->legal_o);
			if (!e)
				continue;
			rows++;
			CHECK(h, t->fmt_o == e->fmt && t->cls_o == e->cls, "%s: fmt %u cls %u, expected %u %u", e->mnemonic,
			      t->fmt_o, t->cls_o, e->fmt, e->cls);
			CHECK(h, t->has_b_o == (wg_fmt_has_b(e->fmt) != 0), "%s: has_b", e->mnemonic);
			CHECK(h, t->wr_rd_o == isa_field_is_reg(e, 0), "%s: writes rd", e->mnemonic);
			CHECK(h, t->rd_ra_o == isa_field_is_reg(e, 1), "%s: reads ra", e->mnemonic);
			CHECK(h, t->rd_rc_o == isa_field_is_reg(e, 2), "%s: reads rc", e->mnemonic);
			CHECK(h, t->wr_rd_o == (wg_fmt_writes_rd(e->fmt) != 0), "%s: writes rd per format", e->mnemonic);
		}
	CHECK(h, rows == wg_isa_table_len, "%u legal pairs, table has %zu rows", rows, wg_isa_table_len);
	for (unsigned mod = 0; mod < 8; mod++) {
		t->insn_i = static_cast<uint64_t>(mod) << 32;
		h.eval();
		CHECK(h, t->width_bytes_o == wg_width_bytes(mod), "width_bytes(%u)", mod);
		CHECK(h, t->width_regs_o == wg_width_regs(mod), "width_regs(%u)", mod);
	}
}

void test_fields(H &h)
{
	auto *t = h.top;
	for (uint64_t n = 0; n < h.scaled(20000); n++) {
		const wg_isa_entry *e = &wg_isa_table[h.rand(wg_isa_table_len)];
		wg_insn in;
		wg_insn_init(&in, e);
		in.gneg = h.rand(2);
		in.gp = h.rand(8);
		uint64_t w;
		if (e->fmt == WG_FMT_BRA) {
			in.b = static_cast<uint32_t>(h.rand(WG_PC_MAX));
			in.reconv = static_cast<uint32_t>(h.rand(WG_RECONV_NONE + 1));
			w = wg_isa_encode(&in);
		} else {
			in.rd = h.rand(64);
			in.ra = h.rand(64);
			in.rc = h.rand(64);
			in.bimm = wg_fmt_has_b(e->fmt) ? h.rand(2) : 0;
			in.b = static_cast<uint32_t>(h.rng());
			w = wg_isa_encode(&in);
		}
		t->insn_i = w;
		h.eval();
		CHECK(h, t->op_o == e->op && t->mod_o == e->mod, "%s: op/mod fields", e->mnemonic);
		CHECK(h, t->gneg_o == in.gneg && t->gp_o == in.gp, "%s: guard fields", e->mnemonic);
		if (e->fmt == WG_FMT_BRA) {
			CHECK(h, t->reconv_o == in.reconv && t->b_o == in.b, "%s: target/reconvergence fields", e->mnemonic);
		} else {
			CHECK(h, t->rd_o == in.rd && t->ra_o == in.ra && t->rc_o == in.rc, "%s: register fields", e->mnemonic);
			CHECK(h, t->bimm_o == in.bimm, "%s: bimm", e->mnemonic);
			uint32_t b = wg_fmt_has_b(e->fmt) && !in.bimm ? (in.b & 63) : in.b;
			CHECK(h, t->b_o == b, "%s: b field 0x%x expected 0x%x", e->mnemonic, t->b_o, b);
		}
	}
}

void test_constants(H &h)
{
	auto *t = h.top;
	h.eval();
	CHECK(h, t->reg_rz_o == WG_REG_RZ);
	CHECK(h, t->op_iadd_o == WG_OP_IADD);
	CHECK(h, t->fmt_rabc_o == WG_FMT_RABC);
	CHECK(h, t->class_atomic_o == WG_CLASS_ATOMIC);
	CHECK(h, t->sr_clockhi_o == WG_SR_CLOCKHI);
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_isa_pkg", 1000);
	h.top->insn_i = 0;
	h.reset(1);
	test_table(h);
	test_fields(h);
	test_constants(h);
	return h.finish();
}

// test_decode: rtl/wg_decode.sv against the golden model's decoder (host/src/isa.c).
//
// For every instruction word given, the uop's `illegal` must equal the golden model's verdict:
// wg_isa_decode fails, or wg_isa_check_regs fails against the kernel's registers per thread,
// or the word needs a unit the build lacks (wg_isa_needs: FP32 with HAS_FP 0, SFU with
// HAS_SFU 0). For a legal word the fields the scheduler uses are checked against values
// formed here from the C table (registers a format reads are probed with wg_isa_check_regs,
// as test_isa_pkg does): the execution path, class, register-file sources, registers
// written, predicate write, the scoreboard masks, and fetch stop / SIMT advance.
// Words: every table row with its fields zero; then random words, most built from a table
// row with random fields (small registers, RZ, immediates, aligned and misaligned vector
// groups), some with one bit flipped, some fully random; random .regs and pc, the next pc
// the reconvergence pc in a third of them.
#include "Vtb_decode.h"
#include "harness.h"

#include "isa_probe.h"

#ifndef DEC_HAS_FP
#define DEC_HAS_FP 1
#endif
#ifndef DEC_HAS_SFU
#define DEC_HAS_SFU 1
#endif

namespace {

using H = wg::Harness<Vtb_decode>;

enum { UNIT_SIMD = 0, UNIT_LSU = 1, UNIT_CTRL = 2, UNIT_SFU = 3 };

uint64_t group(unsigned r, unsigned n)
{
	uint64_t m = 0;
	if (r == WG_REG_RZ)
		return 0;
	for (unsigned k = 0; k < n; k++)
		if (r + k < 63)
			m |= 1ull << (r + k);
	return m;
}

struct Stats {
	uint64_t words = 0, legal = 0, illegal_decode = 0, illegal_regs = 0, illegal_unit = 0;
};

void check_word(H &h, Stats &st, uint64_t w, unsigned regs, uint32_t pc, uint32_t rpc)
{
	auto *t = h.top;
	t->word_i = w;
	t->regs_i = regs;
	t->pc_i = pc;
	t->rpc_i = rpc;
	h.eval();
	st.words++;

	wg_insn in;
	char why[160] = "";
	bool bad = false;
	if (wg_isa_decode(w, &in, why, sizeof why) != 0) {
		bad = true;
		st.illegal_decode++;
	} else if (wg_isa_check_regs(&in, regs, why, sizeof why) != 0) {
		bad = true;
		st.illegal_regs++;
	} else {
		unsigned needs = wg_isa_needs(&w, 1, nullptr);
		if ((!DEC_HAS_FP && (needs & WG_NEED_FP)) || (!DEC_HAS_SFU && (needs & WG_NEED_SFU))) {
			bad = true;
			snprintf(why, sizeof why, "needs a unit the build lacks (%u)", needs);
			st.illegal_unit++;
		}
	}
	CHECK(h, t->illegal_o == bad, "word %016" PRIx64 " regs %u: illegal %d, golden model %d (%s)", w, regs,
	      t->illegal_o, bad, bad ? why : "legal");
	unsigned op = static_cast<unsigned>(w >> 58);
	bool ctl = op == WG_OP_BRA || op == WG_OP_EXIT || op == WG_OP_BAR;
	if (bad || t->illegal_o) {
		CHECK(h, t->stop_o && !t->adv_o, "word %016" PRIx64 ": an illegal word stops fetch without advancing", w);
		return;
	}
	st.legal++;

	const wg_isa_entry *e = in.e;
	unsigned fmt = e->fmt;
	unsigned n = (fmt == WG_FMT_LD || fmt == WG_FMT_ST) ? wg_width_regs(in.mod) : 1;
	bool rd_ra = isa_field_is_reg(e, 1), rd_rc = isa_field_is_reg(e, 2), wr_rd = isa_field_is_reg(e, 0);
	bool rd_rb = wg_fmt_has_b(fmt) && !in.bimm;
	unsigned rb = in.b & 63;

	unsigned unit = UNIT_SIMD;
	if (fmt == WG_FMT_N || fmt == WG_FMT_PLOP || fmt == WG_FMT_BRA || fmt == WG_FMT_BAR)
		unit = UNIT_CTRL;
	if (fmt == WG_FMT_LD || fmt == WG_FMT_ST || fmt == WG_FMT_ATOM || fmt == WG_FMT_CAS)
		unit = UNIT_LSU;
	if (e->cls == WG_CLASS_SFU)
		unit = UNIT_SFU;

	unsigned rf_a = rd_ra ? in.ra : WG_REG_RZ;
	unsigned rf_b = rd_rb ? rb : WG_REG_RZ;
	unsigned rf_c = (rd_rc && fmt != WG_FMT_SEL) ? in.rc : WG_REG_RZ;
	if (fmt == WG_FMT_ST) {
		rf_b = in.rc;
		rf_c = (n >= 2 && in.rc != WG_REG_RZ) ? in.rc + 1 : WG_REG_RZ;
	}
	unsigned nwr = (wr_rd && in.rd != WG_REG_RZ) ? (fmt == WG_FMT_LD ? n : 1) : 0;
	bool wr_pd = (fmt == WG_FMT_SETP || fmt == WG_FMT_PLOP) && (in.rd & 7) != 7;

	uint64_t rmask = group(rf_a, 1) | group(rf_b, 1) | group(rf_c, 1) | group(in.rd, nwr);
	if (fmt == WG_FMT_ST)
		rmask |= group(in.rc, n);
	unsigned pmask = 1u << in.gp;
	if (fmt == WG_FMT_SEL || fmt == WG_FMT_PLOP)
		pmask |= 1u << (in.rc & 7);
	if (fmt == WG_FMT_PLOP)
		pmask |= 1u << (in.ra & 7);
	if (wr_pd)
		pmask |= 1u << (in.rd & 7);
	pmask &= 0x7f;

	bool adv = !ctl && ((pc + 1) & 0x3ffff) == rpc;
	bool stop = ctl || adv;

	CHECK(h, t->unit_o == unit && t->cls_o == e->cls, "%s (%016" PRIx64 "): unit %u cls %u, expected %u %u",
	      e->mnemonic, w, t->unit_o, t->cls_o, unit, e->cls);
	CHECK(h, t->rf_a_o == rf_a && t->rf_b_o == rf_b && t->rf_c_o == rf_c,
	      "%s (%016" PRIx64 "): sources %u %u %u, expected %u %u %u", e->mnemonic, w, t->rf_a_o, t->rf_b_o, t->rf_c_o,
	      rf_a, rf_b, rf_c);
	CHECK(h, t->nwr_o == nwr && t->wr_pd_o == wr_pd, "%s (%016" PRIx64 "): nwr %u wr_pd %u, expected %u %u",
	      e->mnemonic, w, t->nwr_o, t->wr_pd_o, nwr, wr_pd);
	CHECK(h, t->rmask_o == rmask && t->pmask_o == pmask,
	      "%s (%016" PRIx64 "): rmask %016" PRIx64 " pmask %02x, expected %016" PRIx64 " %02x", e->mnemonic, w,
	      static_cast<uint64_t>(t->rmask_o), t->pmask_o, rmask, pmask);
	CHECK(h, t->stop_o == stop && t->adv_o == adv, "%s (%016" PRIx64 ") pc %u rpc %u: stop %u adv %u, expected %u %u",
	      e->mnemonic, w, pc, rpc, t->stop_o, t->adv_o, stop, adv);
}

// A register number: small ones, RZ, the top of the range, anything.
unsigned rand_reg(std::mt19937_64 &rng)
{
	switch (rng() % 8) {
	case 0:
		return WG_REG_RZ;
	case 1:
		return 56 + rng() % 8;
	case 2:
		return rng() % 64;
	default:
		return rng() % 16;
	}
}

uint64_t rand_word(std::mt19937_64 &rng)
{
	unsigned kind = rng() % 16;
	if (kind == 0)
		return rng();
	const wg_isa_entry *e = &wg_isa_table[rng() % wg_isa_table_len];
	wg_insn in;
	wg_insn_init(&in, e);
	in.gneg = rng() & 1;
	in.gp = rng() % 8;
	if (e->fmt == WG_FMT_BRA) {
		in.b = static_cast<uint32_t>(rng() % 4096);
		in.reconv = (rng() % 4) ? static_cast<uint32_t>(rng() % 4096) : WG_RECONV_NONE;
	} else {
		in.rd = rand_reg(rng);
		in.ra = rand_reg(rng);
		in.rc = rand_reg(rng);
		// fields a format does not use are zero in most words (others are illegal)
		if (rng() % 4) {
			if (!isa_field_is_reg(e, 0) && !(e->fmt == WG_FMT_SETP || e->fmt == WG_FMT_PLOP))
				in.rd = 0;
			if (!isa_field_is_reg(e, 1) && e->fmt != WG_FMT_PLOP)
				in.ra = 0;
			if (!isa_field_is_reg(e, 2) && e->fmt != WG_FMT_SEL && e->fmt != WG_FMT_PLOP)
				in.rc = 0;
		}
		if (e->fmt == WG_FMT_SETP || e->fmt == WG_FMT_PLOP)
			in.rd = (rng() % 4) ? rng() % 8 : in.rd;
		if (e->fmt == WG_FMT_PLOP || e->fmt == WG_FMT_SEL) {
			in.rc = (rng() % 4) ? rng() % 16 : in.rc;
			if (e->fmt == WG_FMT_PLOP)
				in.ra = (rng() % 4) ? rng() % 16 : in.ra;
		}
		if (wg_fmt_has_b(e->fmt)) {
			in.bimm = rng() & 1;
			in.b = in.bimm ? static_cast<uint32_t>(rng()) : ((rng() % 8) ? rand_reg(rng) : static_cast<uint32_t>(rng()));
		} else {
			switch (rng() % 4) {
			case 0:
				in.b = static_cast<uint32_t>(rng());
				break;
			case 1:
				in.b = static_cast<uint32_t>(rng() % 40);
				break;
			default:
				in.b = 0;
				break;
			}
			in.bimm = (rng() % 16) == 0;
		}
	}
	uint64_t w = wg_isa_encode(&in);
	if (kind == 1)
		w ^= 1ull << (rng() % 64);
	return w;
}

void test_rows(H &h, Stats &st)
{
	// every row with its fields zero and with typical registers, against several .regs
	for (size_t i = 0; i < wg_isa_table_len; i++) {
		const wg_isa_entry *e = &wg_isa_table[i];
		wg_insn in;
		wg_insn_init(&in, e);
		for (unsigned regs : {1u, 4u, 8u, 63u}) {
			check_word(h, st, wg_isa_encode(&in), regs, 10, 200);
			if (e->fmt != WG_FMT_BRA) {
				wg_insn r = in;
				r.rd = isa_field_is_reg(e, 0) ? 4 : r.rd;
				r.ra = isa_field_is_reg(e, 1) ? 5 : r.ra;
				r.rc = isa_field_is_reg(e, 2) ? 4 : r.rc;
				check_word(h, st, wg_isa_encode(&r), regs, 41, 42);
			}
		}
	}
}

// Branch targets at the end of the pc range (WG_PC_MAX is the first illegal one).
void test_bra_targets(H &h, Stats &st)
{
	const wg_isa_entry *e = wg_isa_find("BRA");
	CHECK(h, e != nullptr, "BRA in the table");
	if (!e)
		return;
	for (uint32_t target : {0u, 1u, WG_PC_MAX - 1, WG_PC_MAX, WG_PC_MAX + 1, 0x40000u, 0x80000000u, 0xffffffffu}) {
		wg_insn in;
		wg_insn_init(&in, e);
		in.b = target;
		in.reconv = WG_RECONV_NONE;
		uint64_t w = wg_isa_encode(&in);
		check_word(h, st, w, 8, 100, 7);
		CHECK(h, h.top->illegal_o == (target >= WG_PC_MAX), "BRA to %u: illegal %d", target, h.top->illegal_o);
	}
}

void test_random(H &h, Stats &st)
{
	uint64_t n = h.scaled(400000);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t w = rand_word(h.rng);
		unsigned regs = (h.rng() % 4) ? 1 + h.rng() % 63 : 63;
		uint32_t pc = static_cast<uint32_t>(h.rng() & 0x3ffff);
		uint32_t rpc = (h.rng() % 3 == 0) ? ((pc + 1) & 0x3ffff) : static_cast<uint32_t>(h.rng() & 0x3ffff);
		check_word(h, st, w, regs, pc, rpc);
	}
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_decode", 1000);
	h.top->word_i = 0;
	h.reset(1);
	Stats st;
	test_rows(h, st);
	test_bra_targets(h, st);
	test_random(h, st);
	printf("test_decode: HAS_FP %d HAS_SFU %d: %" PRIu64 " words: %" PRIu64 " legal, illegal by decode %" PRIu64
	       ", by registers %" PRIu64 ", by a missing unit %" PRIu64 "\n",
	       DEC_HAS_FP, DEC_HAS_SFU, st.words, st.legal, st.illegal_decode, st.illegal_regs, st.illegal_unit);
	CHECK(h, st.legal > st.words / 4 && st.illegal_decode > st.words / 50 && st.illegal_regs > st.words / 50,
	      "the random words cover legal words and both kinds of illegal ones");
	if (!DEC_HAS_FP || !DEC_HAS_SFU)
		CHECK(h, st.illegal_unit > 0, "words needing a missing unit were given");
	return h.finish();
}

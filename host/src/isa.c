/* warpgate ISA: the instruction table and the word encoding (docs/isa.md). */
#include "isa.h"
#include "isa_table.h"

#include <pthread.h>
#include <stdio.h>
#include <strings.h>

#include "warpgate.h"

#define WG_ROW(mn, op_, mod_, fmt_, cls_) \
	{ .mnemonic = (mn), .op = (op_), .mod = (mod_), .fmt = WG_FMT_##fmt_, .cls = WG_CLASS_##cls_ },

const struct wg_isa_entry wg_isa_table[] = { WG_ISA_TABLE(WG_ROW) };
const size_t wg_isa_table_len = sizeof(wg_isa_table) / sizeof(wg_isa_table[0]);

/* (op, mod) -> row index + 1; 0 = no such instruction. Filled on first use. */
static uint16_t lookup_map[WG_OP_COUNT][8];
static pthread_once_t lookup_once = PTHREAD_ONCE_INIT;

static void lookup_init(void)
{
	for (size_t i = 0; i < wg_isa_table_len; i++)
		lookup_map[wg_isa_table[i].op][wg_isa_table[i].mod] = (uint16_t)(i + 1);
}

const struct wg_isa_entry *wg_isa_lookup(uint8_t op, uint8_t mod)
{
	pthread_once(&lookup_once, lookup_init);
	if (op >= WG_OP_COUNT || mod >= 8 || !lookup_map[op][mod])
		return NULL;
	return &wg_isa_table[lookup_map[op][mod] - 1];
}

const struct wg_isa_entry *wg_isa_find(const char *mnemonic)
{
	for (size_t i = 0; i < wg_isa_table_len; i++)
		if (!strcasecmp(wg_isa_table[i].mnemonic, mnemonic))
			return &wg_isa_table[i];
	return NULL;
}

static const char *const class_names[WG_CLASS_COUNT] = {
	"int", "imul", "fp", "sfu", "ldst_global", "ldst_shared",
	"ldst_local", "ldst_param", "atomic", "branch", "barrier", "control",
};

const char *wg_class_name(unsigned cls)
{
	return cls < WG_CLASS_COUNT ? class_names[cls] : "?";
}

static const char *const sreg_names[WG_SR_COUNT] = {
	"SR_TID.X", "SR_TID.Y", "SR_TID.Z", "SR_NTID.X", "SR_NTID.Y", "SR_NTID.Z",
	"SR_CTAID.X", "SR_CTAID.Y", "SR_CTAID.Z", "SR_NCTAID.X", "SR_NCTAID.Y", "SR_NCTAID.Z",
	"SR_LANEID", "SR_WARPID", "SR_SMID", "SR_CLOCK", "SR_CLOCKHI",
};

const char *wg_sreg_name(unsigned sr)
{
	return sr < WG_SR_COUNT ? sreg_names[sr] : NULL;
}

int wg_sreg_find(const char *name)
{
	for (int i = 0; i < WG_SR_COUNT; i++)
		if (!strcasecmp(sreg_names[i], name))
			return i;
	return -1;
}

int wg_fmt_has_b(unsigned fmt)
{
	switch (fmt) {
	case WG_FMT_RB:
	case WG_FMT_RAB:
	case WG_FMT_RABC:
	case WG_FMT_SEL:
	case WG_FMT_SETP:
	case WG_FMT_ATOM:
	case WG_FMT_CAS:
		return 1;
	default:
		return 0;
	}
}

int wg_fmt_writes_rd(unsigned fmt)
{
	switch (fmt) {
	case WG_FMT_RB:
	case WG_FMT_RA:
	case WG_FMT_RAB:
	case WG_FMT_RABC:
	case WG_FMT_SEL:
	case WG_FMT_S2R:
	case WG_FMT_LD:
	case WG_FMT_ATOM:
	case WG_FMT_CAS:
		return 1;
	default:
		return 0;
	}
}

unsigned wg_width_bytes(unsigned mod)
{
	static const unsigned bytes[8] = { 1, 1, 2, 2, 4, 8, 16, 0 };
	return mod < 8 ? bytes[mod] : 0;
}

unsigned wg_width_regs(unsigned mod)
{
	return mod == WG_W_128 ? 4 : mod == WG_W_64 ? 2 : 1;
}

/* Bit positions (docs/isa.md section 2). */
#define SH_OP 58
#define SH_BIMM 57
#define SH_GNEG 56
#define SH_GP 53
#define SH_RD 47
#define SH_RA 41
#define SH_RC 35
#define SH_MOD 32
#define SH_RECONV 35

void wg_insn_init(struct wg_insn *insn, const struct wg_isa_entry *e)
{
	*insn = (struct wg_insn){ .e = e, .op = e->op, .mod = e->mod, .gp = WG_PRED_PT };
	if (e->fmt == WG_FMT_BRA)
		insn->reconv = WG_RECONV_NONE;
}

uint64_t wg_isa_encode(const struct wg_insn *in)
{
	const struct wg_isa_entry *e = in->e;
	uint64_t w = (uint64_t)e->op << SH_OP | (uint64_t)e->mod << SH_MOD;

	w |= (uint64_t)(in->gneg & 1) << SH_GNEG | (uint64_t)(in->gp & 7) << SH_GP;
	if (e->fmt == WG_FMT_BRA)
		return w | (uint64_t)(in->reconv & 0x3FFFF) << SH_RECONV | in->b;
	if (wg_fmt_has_b(e->fmt) && in->bimm)
		w |= 1ull << SH_BIMM | in->b;
	else if (wg_fmt_has_b(e->fmt))
		w |= in->b & 63;
	else
		w |= in->b;
	w |= (uint64_t)(in->rd & 63) << SH_RD | (uint64_t)(in->ra & 63) << SH_RA |
	     (uint64_t)(in->rc & 63) << SH_RC;
	return w;
}

#define BAD(...)                                          \
	do {                                              \
		if (why)                                  \
			snprintf(why, whylen, __VA_ARGS__); \
		return WG_EILLEGAL;                       \
	} while (0)

int wg_isa_decode(uint64_t w, struct wg_insn *in, char *why, size_t whylen)
{
	*in = (struct wg_insn){ 0 };
	in->op = (uint8_t)(w >> SH_OP);
	in->mod = (w >> SH_MOD) & 7;
	in->bimm = (w >> SH_BIMM) & 1;
	in->gneg = (w >> SH_GNEG) & 1;
	in->gp = (w >> SH_GP) & 7;
	in->rd = (w >> SH_RD) & 63;
	in->ra = (w >> SH_RA) & 63;
	in->rc = (w >> SH_RC) & 63;
	in->b = (uint32_t)w;

	const struct wg_isa_entry *e = wg_isa_lookup(in->op, in->mod);
	if (!e)
		BAD("unknown opcode %u modifier %u", in->op, in->mod);
	in->e = e;

	/* Which fields the format uses: rd, ra, rc, b-as-register, b-as-raw. */
	int use_rd = 0, use_ra = 0, use_rc = 0;
	switch (e->fmt) {
	case WG_FMT_N: break;
	case WG_FMT_RB: use_rd = 1; break;
	case WG_FMT_RA: use_rd = use_ra = 1; break;
	case WG_FMT_RAB: use_rd = use_ra = 1; break;
	case WG_FMT_RABC: use_rd = use_ra = use_rc = 1; break;
	case WG_FMT_SEL: use_rd = use_ra = use_rc = 1; break;
	case WG_FMT_SETP: use_rd = use_ra = 1; break;
	case WG_FMT_PLOP: use_rd = use_ra = use_rc = 1; break;
	case WG_FMT_S2R: use_rd = 1; break;
	case WG_FMT_LD: use_rd = use_ra = 1; break;
	case WG_FMT_ST: use_ra = use_rc = 1; break;
	case WG_FMT_ATOM: use_rd = use_ra = 1; break;
	case WG_FMT_CAS: use_rd = use_ra = use_rc = 1; break;
	case WG_FMT_BRA:
		if (in->bimm)
			BAD("%s: bimm bit set", e->mnemonic);
		in->reconv = (uint32_t)(w >> SH_RECONV) & 0x3FFFF;
		in->rd = in->ra = in->rc = 0;
		if (in->b >= WG_PC_MAX)
			BAD("%s: target %u out of range", e->mnemonic, in->b);
		return 0;
	case WG_FMT_BAR: break;
	default: BAD("bad format");
	}
	if (!use_rd && in->rd)
		BAD("%s: unused rd field is %u", e->mnemonic, in->rd);
	if (!use_ra && in->ra)
		BAD("%s: unused ra field is %u", e->mnemonic, in->ra);
	if (!use_rc && in->rc)
		BAD("%s: unused rc field is %u", e->mnemonic, in->rc);
	if (!wg_fmt_has_b(e->fmt) && in->bimm)
		BAD("%s: bimm bit set but the format has no immediate B operand", e->mnemonic);
	if (wg_fmt_has_b(e->fmt) && !in->bimm && (in->b >> 6))
		BAD("%s: register B with non-zero bits 31:6 (0x%08x)", e->mnemonic, in->b);

	switch (e->fmt) {
	case WG_FMT_N:
	case WG_FMT_RA:
	case WG_FMT_PLOP:
		if (in->b)
			BAD("%s: unused b field is 0x%x", e->mnemonic, in->b);
		if (e->fmt != WG_FMT_PLOP)
			break;
		if ((in->rd & ~7u) || (in->ra & ~15u) || (in->rc & ~15u))
			BAD("%s: predicate fields out of range", e->mnemonic);
		break;
	case WG_FMT_SEL:
		if (in->rc & ~15u)
			BAD("%s: predicate operand field 0x%x", e->mnemonic, in->rc);
		break;
	case WG_FMT_SETP:
		if (in->rd & ~7u)
			BAD("%s: destination predicate field 0x%x", e->mnemonic, in->rd);
		break;
	case WG_FMT_S2R:
		if (in->b >= WG_SR_COUNT)
			BAD("%s: special register %u does not exist", e->mnemonic, in->b);
		break;
	case WG_FMT_LD:
	case WG_FMT_ST: {
		unsigned n = wg_width_regs(in->mod);
		unsigned r = e->fmt == WG_FMT_LD ? in->rd : in->rc;
		if (n > 1 && r != WG_REG_RZ && (r % n || r + n - 1 >= WG_NUM_GPR))
			BAD("%s: register group R%u is misaligned or runs past R62", e->mnemonic, r);
		break;
	}
	case WG_FMT_BAR:
		if (in->b >= WG_NUM_BARRIERS)
			BAD("%s: barrier id %u out of range 0..15", e->mnemonic, in->b);
		break;
	default:
		break;
	}
	return 0;
}

unsigned wg_isa_needs(const uint64_t *code, uint32_t n, uint32_t first_pc[2])
{
	unsigned needs = 0;
	if (first_pc)
		first_pc[0] = first_pc[1] = UINT32_MAX;
	for (uint32_t pc = 0; pc < n; pc++) {
		struct wg_insn in;
		unsigned bit = 0;
		if (wg_isa_decode(code[pc], &in, NULL, 0))
			continue;
		if (in.e->cls == WG_CLASS_FP || ((in.op == WG_OP_ATOMGX || in.op == WG_OP_ATOMSX) && in.mod == 4))
			bit = WG_NEED_FP;
		else if (in.e->cls == WG_CLASS_SFU)
			bit = WG_NEED_SFU;
		if (bit && first_pc && !(needs & bit))
			first_pc[bit == WG_NEED_SFU] = pc;
		needs |= bit;
	}
	return needs;
}

static int reg_ok(unsigned r, unsigned n, unsigned regs)
{
	return r == WG_REG_RZ || r + n <= regs;
}

int wg_isa_check_regs(const struct wg_insn *in, unsigned regs, char *why, size_t whylen)
{
	const struct wg_isa_entry *e = in->e;
	unsigned n = (e->fmt == WG_FMT_LD || e->fmt == WG_FMT_ST) ? wg_width_regs(in->mod) : 1;
	int rd = 0, ra = 0, rc = 0, rb = wg_fmt_has_b(e->fmt) && !in->bimm;

	switch (e->fmt) {
	case WG_FMT_RB: case WG_FMT_S2R: rd = 1; break;
	case WG_FMT_RA: case WG_FMT_RAB: case WG_FMT_LD: case WG_FMT_ATOM: rd = ra = 1; break;
	case WG_FMT_RABC: case WG_FMT_CAS: rd = ra = rc = 1; break;
	case WG_FMT_SEL: rd = ra = 1; break;
	case WG_FMT_SETP: ra = 1; break;
	case WG_FMT_ST: ra = rc = 1; break;
	default: break;
	}
	if (rd && !reg_ok(in->rd, e->fmt == WG_FMT_LD ? n : 1, regs))
		BAD("%s: destination R%u beyond the kernel's %u registers", e->mnemonic, in->rd, regs);
	if (ra && !reg_ok(in->ra, 1, regs))
		BAD("%s: source R%u beyond the kernel's %u registers", e->mnemonic, in->ra, regs);
	if (rc && !reg_ok(in->rc, e->fmt == WG_FMT_ST ? n : 1, regs))
		BAD("%s: source R%u beyond the kernel's %u registers", e->mnemonic, in->rc, regs);
	if (rb && !reg_ok(in->b, 1, regs))
		BAD("%s: source R%u beyond the kernel's %u registers", e->mnemonic, in->b, regs);
	return 0;
}

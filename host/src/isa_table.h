/*
 * The one instruction table of the warpgate ISA (docs/isa.md).
 *
 * X(mnemonic, op, mod, format, class)
 *   mnemonic  canonical assembly mnemonic with its modifiers
 *   op, mod   encoding: bits 63:58 and 34:32 of the instruction word
 *   format    operand signature (enum wg_fmt, WG_FMT_ prefix dropped)
 *   class     operation class (enum wg_class, WG_CLASS_ prefix dropped)
 *
 * The assembler, the disassembler and the golden model are all generated from
 * or driven by this list. Do not include it anywhere but isa.c and isa.h.
 */
#define WG_WIDTH_LD(X, mn, op, cls)                                       \
	X(mn ".U8", op, 0, LD, cls) X(mn ".S8", op, 1, LD, cls)                     \
	X(mn ".U16", op, 2, LD, cls) X(mn ".S16", op, 3, LD, cls)                   \
	X(mn ".32", op, 4, LD, cls) X(mn ".64", op, 5, LD, cls)                     \
	X(mn ".128", op, 6, LD, cls)

#define WG_WIDTH_ST(X, mn, op, cls)                                             \
	X(mn ".8", op, 0, ST, cls) X(mn ".16", op, 2, ST, cls)                      \
	X(mn ".32", op, 4, ST, cls) X(mn ".64", op, 5, ST, cls)                     \
	X(mn ".128", op, 6, ST, cls)

#define WG_ATOM_BASE(X, mn, op)                                                 \
	X(mn ".ADD", op, 0, ATOM, ATOMIC) X(mn ".MIN.S32", op, 1, ATOM, ATOMIC)     \
	X(mn ".MAX.S32", op, 2, ATOM, ATOMIC) X(mn ".EXCH", op, 3, ATOM, ATOMIC)    \
	X(mn ".CAS", op, 4, CAS, ATOMIC) X(mn ".AND", op, 5, ATOM, ATOMIC)          \
	X(mn ".OR", op, 6, ATOM, ATOMIC) X(mn ".XOR", op, 7, ATOM, ATOMIC)

#define WG_ATOM_EXT(X, mn, op)                                                  \
	X(mn ".MIN.U32", op, 0, ATOM, ATOMIC) X(mn ".MAX.U32", op, 1, ATOM, ATOMIC) \
	X(mn ".INC", op, 2, ATOM, ATOMIC) X(mn ".DEC", op, 3, ATOM, ATOMIC)         \
	X(mn ".ADD.F32", op, 4, ATOM, ATOMIC)

#define WG_SETP_CC(X, mn, sfx, op, cls)                                         \
	X(mn ".EQ" sfx, op, 0, SETP, cls) X(mn ".NE" sfx, op, 1, SETP, cls)         \
	X(mn ".LT" sfx, op, 2, SETP, cls) X(mn ".LE" sfx, op, 3, SETP, cls)         \
	X(mn ".GT" sfx, op, 4, SETP, cls) X(mn ".GE" sfx, op, 5, SETP, cls)

/* FP32 arithmetic: mod = rounding | ftz << 2; rounding 0 RN (no suffix), 1 RZ,
 * 2 RM, 3 RP; FTZ flushes subnormal operands and results to signed zeros. */
#define WG_FP_RND(X, mn, op, fmt)                                               \
	X(mn, op, 0, fmt, FP) X(mn ".RZ", op, 1, fmt, FP)                           \
	X(mn ".RM", op, 2, fmt, FP) X(mn ".RP", op, 3, fmt, FP)                     \
	X(mn ".FTZ", op, 4, fmt, FP) X(mn ".RZ.FTZ", op, 5, fmt, FP)                \
	X(mn ".RM.FTZ", op, 6, fmt, FP) X(mn ".RP.FTZ", op, 7, fmt, FP)

#define WG_ISA_TABLE(X)                                                         \
	X("NOP", WG_OP_NOP, 0, N, CONTROL)                                          \
	X("MOV", WG_OP_MOV, 0, RB, INT)                                             \
	X("IADD", WG_OP_IADD, 0, RAB, INT)                                          \
	X("ISUB", WG_OP_ISUB, 0, RAB, INT)                                          \
	X("IMUL", WG_OP_IMUL, 0, RAB, IMUL)                                         \
	X("IMUL.HI.S32", WG_OP_IMUL, 1, RAB, IMUL)                                  \
	X("IMUL.HI.U32", WG_OP_IMUL, 2, RAB, IMUL)                                  \
	X("IMAD", WG_OP_IMAD, 0, RABC, IMUL)                                        \
	X("IMAD.HI.S32", WG_OP_IMAD, 1, RABC, IMUL)                                 \
	X("IMAD.HI.U32", WG_OP_IMAD, 2, RABC, IMUL)                                 \
	X("IMIN.S32", WG_OP_IMIN, 0, RAB, INT)                                      \
	X("IMIN.U32", WG_OP_IMIN, 1, RAB, INT)                                      \
	X("IMAX.S32", WG_OP_IMAX, 0, RAB, INT)                                      \
	X("IMAX.U32", WG_OP_IMAX, 1, RAB, INT)                                      \
	X("IABS", WG_OP_IABS, 0, RA, INT)                                           \
	X("AND", WG_OP_AND, 0, RAB, INT)                                            \
	X("OR", WG_OP_OR, 0, RAB, INT)                                              \
	X("XOR", WG_OP_XOR, 0, RAB, INT)                                            \
	X("NOT", WG_OP_NOT, 0, RA, INT)                                             \
	X("SHL", WG_OP_SHL, 0, RAB, INT)                                            \
	X("SHR.U32", WG_OP_SHR, 0, RAB, INT)                                        \
	X("SHR.S32", WG_OP_SHR, 1, RAB, INT)                                        \
	X("POPC", WG_OP_POPC, 0, RA, INT)                                           \
	X("CLZ", WG_OP_CLZ, 0, RA, INT)                                             \
	X("BREV", WG_OP_BREV, 0, RA, INT)                                           \
	X("SEL", WG_OP_SEL, 0, SEL, INT)                                            \
	WG_SETP_CC(X, "ISETP", "", WG_OP_ISETP, INT)                                \
	WG_SETP_CC(X, "ISETP", ".U32", WG_OP_ISETPU, INT)                           \
	X("PLOP.AND", WG_OP_PLOP, 0, PLOP, INT)                                     \
	X("PLOP.OR", WG_OP_PLOP, 1, PLOP, INT)                                      \
	X("PLOP.XOR", WG_OP_PLOP, 2, PLOP, INT)                                     \
	WG_FP_RND(X, "FADD", WG_OP_FADD, RAB)                                       \
	WG_FP_RND(X, "FSUB", WG_OP_FSUB, RAB)                                       \
	WG_FP_RND(X, "FMUL", WG_OP_FMUL, RAB)                                       \
	WG_FP_RND(X, "FFMA", WG_OP_FFMA, RABC)                                      \
	X("FMIN", WG_OP_FMIN, 0, RAB, FP)                                           \
	X("FMAX", WG_OP_FMAX, 0, RAB, FP)                                           \
	WG_SETP_CC(X, "FSETP", "", WG_OP_FSETP, FP)                                 \
	X("FSETP.NUM", WG_OP_FSETP, 6, SETP, FP)                                    \
	X("FSETP.NAN", WG_OP_FSETP, 7, SETP, FP)                                    \
	X("I2F.F32.S32", WG_OP_I2F, 0, RA, FP)                                      \
	X("I2F.F32.U32", WG_OP_I2F, 1, RA, FP)                                      \
	X("F2I.S32.RN", WG_OP_F2I, 0, RA, FP)                                       \
	X("F2I.U32.RN", WG_OP_F2I, 1, RA, FP)                                       \
	X("F2I.S32.RZ", WG_OP_F2I, 2, RA, FP)                                       \
	X("F2I.U32.RZ", WG_OP_F2I, 3, RA, FP)                                       \
	X("F2I.S32.RM", WG_OP_F2I, 4, RA, FP)                                       \
	X("F2I.U32.RM", WG_OP_F2I, 5, RA, FP)                                       \
	X("F2I.S32.RP", WG_OP_F2I, 6, RA, FP)                                       \
	X("F2I.U32.RP", WG_OP_F2I, 7, RA, FP)                                       \
	X("FRND.RN", WG_OP_FRND, 0, RA, FP)                                         \
	X("FRND.RZ", WG_OP_FRND, 1, RA, FP)                                         \
	X("FRND.RM", WG_OP_FRND, 2, RA, FP)                                         \
	X("FRND.RP", WG_OP_FRND, 3, RA, FP)                                         \
	X("MUFU.RCP", WG_OP_MUFU, 0, RA, SFU)                                       \
	X("MUFU.RSQ", WG_OP_MUFU, 1, RA, SFU)                                       \
	X("MUFU.SQRT", WG_OP_MUFU, 2, RA, SFU)                                      \
	X("MUFU.EX2", WG_OP_MUFU, 3, RA, SFU)                                       \
	X("MUFU.LG2", WG_OP_MUFU, 4, RA, SFU)                                       \
	X("MUFU.SIN", WG_OP_MUFU, 5, RA, SFU)                                       \
	X("MUFU.COS", WG_OP_MUFU, 6, RA, SFU)                                       \
	X("FDIV", WG_OP_FDIV, 0, RAB, SFU)                                          \
	X("FSQRT", WG_OP_FSQRT, 0, RA, SFU)                                         \
	X("IDIV.S32", WG_OP_IDIV, 0, RAB, SFU)                                      \
	X("IDIV.U32", WG_OP_IDIV, 1, RAB, SFU)                                      \
	X("IREM.S32", WG_OP_IREM, 0, RAB, SFU)                                      \
	X("IREM.U32", WG_OP_IREM, 1, RAB, SFU)                                      \
	WG_WIDTH_LD(X, "LDG", WG_OP_LDG, LDST_GLOBAL)                            \
	WG_WIDTH_LD(X, "LDG.CG", WG_OP_LDGCG, LDST_GLOBAL)                       \
	WG_WIDTH_LD(X, "LDS", WG_OP_LDS, LDST_SHARED)                            \
	WG_WIDTH_LD(X, "LDL", WG_OP_LDL, LDST_LOCAL)                             \
	WG_WIDTH_LD(X, "LDC", WG_OP_LDC, LDST_PARAM)                             \
	WG_WIDTH_ST(X, "STG", WG_OP_STG, LDST_GLOBAL)                               \
	WG_WIDTH_ST(X, "STS", WG_OP_STS, LDST_SHARED)                               \
	WG_WIDTH_ST(X, "STL", WG_OP_STL, LDST_LOCAL)                                \
	WG_ATOM_BASE(X, "ATOMG", WG_OP_ATOMG)                                       \
	WG_ATOM_EXT(X, "ATOMG", WG_OP_ATOMGX)                                       \
	WG_ATOM_BASE(X, "ATOMS", WG_OP_ATOMS)                                       \
	WG_ATOM_EXT(X, "ATOMS", WG_OP_ATOMSX)                                       \
	X("S2R", WG_OP_S2R, 0, S2R, INT)                                            \
	X("BRA", WG_OP_BRA, 0, BRA, BRANCH)                                         \
	X("BAR.SYNC", WG_OP_BAR, 0, BAR, BARRIER)                                   \
	X("EXIT", WG_OP_EXIT, 0, N, CONTROL)                                        \
	X("MEMBAR.CTA", WG_OP_MEMBAR, 0, N, CONTROL)                                \
	X("MEMBAR.GL", WG_OP_MEMBAR, 1, N, CONTROL)

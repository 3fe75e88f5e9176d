/*
 * PTX lexer and parser (host/src/ptx.c, docs/ptx.md section 1): module
 * directives, kernel parameters and declarations, statements and their
 * operands, content sniffing, and errors naming the line and construct.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ptx.h"
#include "warpgate.h"

static const char good[] =
	"//\n// header comment\n//\n"
	".version 9.0\n"
	".target sm_75\n"
	".address_size 64\n"
	".extern .shared .align 16 .b8 dyn[];\n"
	"\t// .globl k\n"
	".visible .entry k(\n"
	"\t.param .u64 k_param_0,\n"
	"\t.param .align 8 .b8 k_param_1[16],\n"
	"\t.param .f32 k_param_2\n"
	")\n"
	".maxntid 256, 1, 1\n"
	"{\n"
	"\t.reg .pred \t%p<3>;\n"
	"\t.reg .b32 \t%r<10>;\n"
	"\t.reg .b64 \t%SP;\n"
	"\t.shared .align 4 .b8 buf[512];\n"
	"\t.local .align 16 .b8 __local_depot0[64];\n"
	"\tld.param.u64 %rd1, [k_param_0+8];\n"           /* line 21 */
	"\t@!%p1 bra \t$L__BB0_2;\n"                      /* line 22 */
	"\tld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd5+-16];\n"
	"\tadd.f32 %f5, %f1, 0f3F800000;\n"
	"$L__BB0_2:\n"                                    /* line 25 */
	"\tmov.u32 %r1, -0x10;\n"
	"\t/* block\n comment */ ret;\n"                  /* lines 27-28 */
	"}\n";

static void parses_module_kernel_params_and_declarations(void **state)
{
	struct wg_ptx_module m;
	const struct wg_ptx_kernel *k;

	assert_int_equal(wg_ptx_parse(&m, good, "g.ptx", stderr), 0);
	assert_int_equal(m.version_major, 9);
	assert_int_equal(m.version_minor, 0);
	assert_int_equal(m.address_size, 64);
	assert_int_equal(m.nvars, 1);
	assert_string_equal(m.vars[0].name, "dyn");
	assert_true(m.vars[0].is_extern);
	assert_int_equal(m.vars[0].align, 16);
	assert_int_equal(m.nkernels, 1);
	k = &m.kernels[0];
	assert_string_equal(k->name, "k");
	assert_int_equal(k->nparams, 3);
	assert_string_equal(k->params[0].type, "u64");
	assert_int_equal(k->params[0].count, 0);
	assert_string_equal(k->params[1].name, "k_param_1");
	assert_int_equal(k->params[1].align, 8);
	assert_int_equal(k->params[1].count, 16);
	assert_string_equal(k->params[2].type, "f32");
	assert_int_equal(k->nregs, 3);
	assert_string_equal(k->regs[0].name, "%p");
	assert_string_equal(k->regs[0].type, "pred");
	assert_int_equal(k->regs[0].count, 3);
	assert_string_equal(k->regs[2].name, "%SP");
	assert_int_equal(k->regs[2].count, 0); /* a single register */
	assert_int_equal(k->nvars, 2);
	assert_int_equal(k->vars[0].space, WG_PTX_SHARED);
	assert_int_equal(k->vars[0].size, 512);
	assert_int_equal(k->vars[1].space, WG_PTX_LOCAL);
	assert_int_equal(k->vars[1].align, 16);
	assert_int_equal(k->nstmts, 7);
	wg_ptx_free(&m);
}

static void parses_statements_and_operands(void **state)
{
	struct wg_ptx_module m;
	const struct wg_ptx_stmt *s;

	assert_int_equal(wg_ptx_parse(&m, good, "g.ptx", stderr), 0);
	s = m.kernels[0].stmts;
	assert_int_equal(s[0].line, 21);
	assert_string_equal(s[0].op, "ld.param.u64");
	assert_int_equal(s[0].ops[1].kind, WG_PTX_O_ADDR);
	assert_string_equal(s[0].ops[1].name, "k_param_0");
	assert_int_equal(s[0].ops[1].ival, 8);
	/* @!%p1 bra $L__BB0_2 */
	assert_string_equal(s[1].guard, "%p1");
	assert_true(s[1].gneg);
	assert_string_equal(s[1].ops[0].name, "$L__BB0_2");
	/* vector operand and a negative offset written +- */
	assert_int_equal(s[2].ops[0].kind, WG_PTX_O_VEC);
	assert_int_equal(s[2].ops[0].nvec, 4);
	assert_string_equal(s[2].ops[0].vec[3], "%f4");
	assert_int_equal(s[2].ops[1].ival, -16);
	/* 0f3F800000 = 1.0f */
	assert_int_equal(s[3].ops[2].kind, WG_PTX_O_F32);
	assert_int_equal(s[3].ops[2].fbits, 0x3f800000u);
	assert_true(s[4].is_label);
	assert_string_equal(s[4].op, "$L__BB0_2");
	assert_int_equal(s[5].ops[1].ival, -16); /* mov.u32 %r1, -0x10 */
	assert_int_equal(s[6].line, 28); /* after a two-line comment */
	assert_string_equal(s[6].op, "ret");
	wg_ptx_free(&m);
}

static int parse_error(const char *src, char *msg, size_t len)
{
	struct wg_ptx_module m;
	FILE *f = fmemopen(msg, len, "w");
	int rc;

	rc = wg_ptx_parse(&m, src, "e.ptx", f);
	fclose(f);
	return rc;
}

static void errors_name_line_and_construct(void **state)
{
	char msg[512];

	memset(msg, 0, sizeof(msg));
	assert_int_equal(parse_error(".target sm_75\n", msg, sizeof(msg)), WG_ESYNTAX);
	assert_non_null(strstr(msg, "e.ptx:1: error: expected a .version directive first, found '.target'"));
	memset(msg, 0, sizeof(msg));
	assert_int_equal(parse_error(".version 9.0\n\n.func f()\n{\n}\n", msg, sizeof(msg)), WG_ESYNTAX);
	assert_non_null(strstr(msg, "e.ptx:3: error: unsupported device function (.func)"));
	memset(msg, 0, sizeof(msg));
	assert_int_equal(parse_error(".version 9.0\n.entry k()\n{\n add.s32 %r1, %r2, 1\n}\n", msg, sizeof(msg)),
	                 WG_ESYNTAX);
	assert_non_null(strstr(msg, "e.ptx:"));
	assert_non_null(strstr(msg, "add.s32"));
	memset(msg, 0, sizeof(msg));
	assert_int_equal(parse_error(".version 9.0\n/* open\n", msg, sizeof(msg)), WG_ESYNTAX);
	assert_non_null(strstr(msg, "e.ptx:2: error: unterminated comment"));
	memset(msg, 0, sizeof(msg));
	assert_int_equal(parse_error(".version 9.0\n.global .u32 g;\n", msg, sizeof(msg)), WG_ESYNTAX);
	assert_non_null(strstr(msg, "e.ptx:2: error: unsupported module-scope variable in 'global' space"));
	memset(msg, 0, sizeof(msg));
	assert_int_equal(parse_error(".version 9.0\n.entry k()\n{\n setp.lt.s32 %p1|%p2, %r1, 0;\n}\n", msg,
	                             sizeof(msg)), WG_ESYNTAX);
	assert_non_null(strstr(msg, "e.ptx:4: error: unsupported two-destination form of 'setp.lt.s32'"));
	memset(msg, 0, sizeof(msg));
	assert_int_equal(parse_error(".version 9.0\n", msg, sizeof(msg)), WG_ESYNTAX);
	assert_non_null(strstr(msg, "no kernel (.entry)"));
	memset(msg, 0, sizeof(msg));
	assert_int_equal(parse_error(".version 9.0\n.entry k()\n{\n mov.u32 %r1, #;\n}\n", msg, sizeof(msg)),
	                 WG_ESYNTAX);
	assert_non_null(strstr(msg, "e.ptx:4: error: unexpected character '#'"));
}

static void sniff_finds_version_first(void **state)
{
	const char a[] = "// comment\n/* c */\n.version 9.0\n";
	const char b[] = ".kernel k\n.regs 4\n";
	const char c[] = "   .version\t8.5";

	assert_true(wg_ptx_sniff(a, strlen(a)));
	assert_false(wg_ptx_sniff(b, strlen(b)));
	assert_true(wg_ptx_sniff(c, strlen(c)));
	assert_false(wg_ptx_sniff(".versionx", 9));
	assert_false(wg_ptx_sniff("", 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_module_kernel_params_and_declarations),
		cmocka_unit_test(parses_statements_and_operands),
		cmocka_unit_test(errors_name_line_and_construct),
		cmocka_unit_test(sniff_finds_version_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

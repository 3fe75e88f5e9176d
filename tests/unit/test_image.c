/* Unit tests of parameter packing and the .wgk file format (host/src/image.c, docs/wgk.md). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image.h"
#include "isa.h"
#include "warpgate.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static uint32_t ref_crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;

	/* Bitwise, independent of the table-driven one under test. */
	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
	}
	return ~c;
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void wr64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Recompute the CRC after a deliberate edit, so that the structural checks are reached. */
static void fix_crc(uint8_t *buf, size_t len)
{
	wr32(buf + len - 4, ref_crc32(buf, len - 4));
}

static uint64_t enc(const char *mn, unsigned gp, unsigned rd, unsigned ra, unsigned rc, int bimm, uint32_t b,
		    uint32_t reconv)
{
	struct wg_insn in;
	const struct wg_isa_entry *e = wg_isa_find(mn);

	assert_non_null(e);
	wg_insn_init(&in, e);
	in.gp = (uint8_t)gp;
	in.rd = (uint8_t)rd;
	in.ra = (uint8_t)ra;
	in.rc = (uint8_t)rc;
	in.bimm = (uint8_t)bimm;
	in.b = b;
	in.reconv = reconv;
	return wg_isa_encode(&in);
}

/*
 * The sample image used by the file tests, with its byte layout:
 *   header 0..23; kernel "k0" at 24: name 56, params 120 (4 x 80),
 *   labels 440 (2 x 72), code 584 (5 x 8); kernel "k1" at 624: code 720;
 *   CRC at 728; 732 bytes in all.
 */
#define K0 24
#define K0_PARAMS 120
#define K0_LABELS 440
#define K0_CODE 584
#define K1 624
#define K1_CODE 720
#define CRC_AT 728
#define FILE_LEN 732

struct fixture {
	struct wg_image img;
	uint8_t *buf;
	size_t len;
	char err[512];
};

static void build_sample(struct wg_image *img)
{
	struct wg_kernel *k;

	img->nkernels = 2;
	img->kernels = calloc(2, sizeof(*img->kernels));
	assert_non_null(img->kernels);
	k = &img->kernels[0];
	strcpy(k->name, "k0");
	k->regs = 8;
	k->shared_bytes = 256;
	k->local_bytes = 16;
	assert_int_equal(wg_kernel_add_param(k, "n", WG_PT_U32, 1), 0);
	assert_int_equal(wg_kernel_add_param(k, "a", WG_PT_F32, 1), 0);
	assert_int_equal(wg_kernel_add_param(k, "x", WG_PT_PTR, 1), 0);
	assert_int_equal(wg_kernel_add_param(k, "t", WG_PT_U8, 3), 0);
	k->nlabels = 2;
	k->labels = calloc(2, sizeof(*k->labels));
	strcpy(k->labels[0].name, "top");
	k->labels[0].pc = 1;
	strcpy(k->labels[1].name, "done");
	k->labels[1].pc = 4;
	k->ninsns = 5;
	k->code = calloc(5, sizeof(*k->code));
	k->code[0] = enc("MOV", 7, 0, 0, 0, 1, 0, 0);
	k->code[1] = enc("ISETP.GE", 7, 0, 0, 0, 1, 10, 0);
	k->code[2] = enc("BRA", 0, 0, 0, 0, 0, 4, 4);
	k->code[3] = enc("BRA", 7, 0, 0, 0, 0, 1, 1);
	k->code[4] = enc("EXIT", 7, 0, 0, 0, 0, 0, 0);
	k = &img->kernels[1];
	strcpy(k->name, "k1");
	k->regs = 1;
	k->ninsns = 1;
	k->code = calloc(1, sizeof(*k->code));
	k->code[0] = enc("EXIT", 7, 0, 0, 0, 0, 0, 0);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	build_sample(&f->img);
	if (wg_image_serialize(&f->img, &f->buf, &f->len))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	wg_image_free(&f->img);
	free(f->buf);
	free(f);
	return 0;
}

/* Parse f->buf as "test.wgk"; expect failure with "test.wgk: offset <off>: " and the phrase. */
static void expect_reject(struct fixture *f, size_t off, const char *phrase)
{
	struct wg_image img;
	char prefix[64];
	int ret = wg_image_parse(&img, f->buf, f->len, "test.wgk", f->err, sizeof(f->err));

	if (ret != WG_EFORMAT)
		fail_msg("expected WG_EFORMAT, got %d (%s)", ret, f->err);
	assert_int_equal(img.nkernels, 0);
	assert_null(img.kernels);
	snprintf(prefix, sizeof(prefix), "test.wgk: offset %zu: ", off);
	if (strncmp(f->err, prefix, strlen(prefix)) || !strstr(f->err, phrase))
		fail_msg("message '%s', expected prefix '%s' and '%s'", f->err, prefix, phrase);
	assert_non_null(strstr(f->err, "expected"));
}

/* Parse f->buf; expect success and the same bytes when written again. */
static void expect_accept(struct fixture *f)
{
	struct wg_image img;
	uint8_t *out;
	size_t len;
	int ret = wg_image_parse(&img, f->buf, f->len, "test.wgk", f->err, sizeof(f->err));

	if (ret)
		fail_msg("expected success, got %d (%s)", ret, f->err);
	assert_int_equal(wg_image_serialize(&img, &out, &len), 0);
	assert_int_equal(len, f->len);
	assert_memory_equal(out, f->buf, len);
	free(out);
	wg_image_free(&img);
}

/* ------------------------------------------------------------------------ */
/* Parameter types and packing                                              */

static void ptype_names_sizes_and_lookup(void **state)
{
	static const char *const names[] = { "u8", "s8", "u16", "s16", "u32", "s32",
					     "f32", "u64", "s64", "f64", "ptr" };
	static const unsigned sizes[] = { 1, 1, 2, 2, 4, 4, 4, 8, 8, 8, 8 };

	(void)state;
	for (unsigned t = 0; t < WG_PT_COUNT; t++) {
		assert_string_equal(wg_ptype_name(t), names[t]);
		assert_int_equal(wg_ptype_size(t), sizes[t]);
		assert_int_equal(wg_ptype_find(names[t]), (int)t);
	}
	assert_int_equal(wg_ptype_find("PTR"), WG_PT_PTR);
	assert_int_equal(wg_ptype_find("u128"), -1);
	assert_null(wg_ptype_name(WG_PT_COUNT));
	assert_int_equal(wg_ptype_size(WG_PT_COUNT), 0);
}

struct pdesc {
	const char *name;
	unsigned type;
	uint32_t count;
	size_t offset; /* offsetof in the C struct */
};

static void check_packing(const struct pdesc *p, size_t n, size_t struct_size)
{
	struct wg_kernel k = { 0 };

	for (size_t i = 0; i < n; i++)
		assert_int_equal(wg_kernel_add_param(&k, p[i].name, p[i].type, p[i].count), 0);
	assert_int_equal(k.nparams, n);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(k.params[i].name, p[i].name);
		assert_int_equal(k.params[i].type, p[i].type);
		assert_int_equal(k.params[i].count, p[i].count);
		if (k.params[i].offset != p[i].offset)
			fail_msg("parameter %s at %u, C struct has it at %zu", p[i].name, k.params[i].offset,
				 p[i].offset);
		assert_int_equal(k.params[i].size, wg_ptype_size(p[i].type) * p[i].count);
	}
	assert_int_equal(k.param_bytes, struct_size);
	free(k.params);
}

#define PD(s, m, t, c) { #m, t, c, offsetof(struct s, m) }

struct saxpy_args {
	uint32_t n;
	float a;
	uint64_t x, y;
};

struct mixed_args {
	uint8_t a;
	uint64_t b;
	uint16_t c;
	int8_t d;
	double e;
	uint8_t f[3];
	uint32_t g;
};

struct tail_args {
	uint64_t p;
	int16_t c;
	uint8_t d[5];
};

struct small_args {
	uint8_t a;
	int16_t b;
};

struct array_args {
	uint8_t a;
	uint32_t b[3];
	uint8_t c;
	float d[2];
	int64_t e;
	uint16_t f[3];
};

static void packing_matches_c_struct_saxpy(void **state)
{
	const struct pdesc p[] = {
		PD(saxpy_args, n, WG_PT_U32, 1),
		PD(saxpy_args, a, WG_PT_F32, 1),
		PD(saxpy_args, x, WG_PT_PTR, 1),
		PD(saxpy_args, y, WG_PT_PTR, 1),
	};

	(void)state;
	check_packing(p, 4, sizeof(struct saxpy_args));
}

static void packing_matches_c_struct_mixed_scalars(void **state)
{
	const struct pdesc p[] = {
		PD(mixed_args, a, WG_PT_U8, 1),  PD(mixed_args, b, WG_PT_U64, 1),
		PD(mixed_args, c, WG_PT_U16, 1), PD(mixed_args, d, WG_PT_S8, 1),
		PD(mixed_args, e, WG_PT_F64, 1), PD(mixed_args, f, WG_PT_U8, 3),
		PD(mixed_args, g, WG_PT_U32, 1),
	};

	(void)state;
	check_packing(p, 7, sizeof(struct mixed_args));
}

static void packing_matches_c_struct_tail_padding(void **state)
{
	const struct pdesc p[] = {
		PD(tail_args, p, WG_PT_PTR, 1),
		PD(tail_args, c, WG_PT_S16, 1),
		PD(tail_args, d, WG_PT_U8, 5),
	};

	(void)state;
	check_packing(p, 3, sizeof(struct tail_args));
}

static void packing_matches_c_struct_small(void **state)
{
	const struct pdesc p[] = {
		PD(small_args, a, WG_PT_U8, 1),
		PD(small_args, b, WG_PT_S16, 1),
	};

	(void)state;
	check_packing(p, 2, sizeof(struct small_args));
}

static void packing_matches_c_struct_arrays(void **state)
{
	const struct pdesc p[] = {
		PD(array_args, a, WG_PT_U8, 1),  PD(array_args, b, WG_PT_U32, 3),
		PD(array_args, c, WG_PT_U8, 1),  PD(array_args, d, WG_PT_F32, 2),
		PD(array_args, e, WG_PT_S64, 1), PD(array_args, f, WG_PT_U16, 3),
	};

	(void)state;
	check_packing(p, 6, sizeof(struct array_args));
}

static void packing_of_no_parameters_is_empty(void **state)
{
	struct wg_kernel k = { 0 };

	(void)state;
	assert_int_equal(k.param_bytes, 0);
	assert_null(wg_kernel_find_param(&k, "x"));
}

static void add_param_rejects_bad_input(void **state)
{
	struct wg_kernel k = { 0 };
	char longname[WG_NAME_MAX + 1];

	(void)state;
	memset(longname, 'a', WG_NAME_MAX);
	longname[WG_NAME_MAX] = 0;
	assert_int_equal(wg_kernel_add_param(&k, "n", WG_PT_U32, 1), 0);
	assert_int_equal(wg_kernel_add_param(&k, "n", WG_PT_U8, 1), WG_EINVAL);   /* duplicate */
	assert_int_equal(wg_kernel_add_param(&k, "m", WG_PT_COUNT, 1), WG_EINVAL); /* type */
	assert_int_equal(wg_kernel_add_param(&k, "m", WG_PT_U8, 0), WG_EINVAL);   /* count */
	assert_int_equal(wg_kernel_add_param(&k, "9m", WG_PT_U8, 1), WG_EINVAL);  /* name syntax */
	assert_int_equal(wg_kernel_add_param(&k, "", WG_PT_U8, 1), WG_EINVAL);
	assert_int_equal(wg_kernel_add_param(&k, longname, WG_PT_U8, 1), WG_EINVAL);
	assert_int_equal(wg_kernel_add_param(&k, "big", WG_PT_U8, 4093), WG_EINVAL); /* > 4096 bytes */
	assert_int_equal(wg_kernel_add_param(&k, "huge", WG_PT_F64, UINT32_MAX), WG_EINVAL);
	assert_int_equal(wg_kernel_add_param(&k, "fits", WG_PT_U8, 4092), 0);
	assert_int_equal(k.param_bytes, 4096);
	assert_int_equal(k.nparams, 2);
	assert_int_equal(wg_kernel_add_param(&k, "over", WG_PT_U8, 1), WG_EINVAL);
	free(k.params);
}

static void find_param_and_kernel_by_name(void **state)
{
	struct fixture *f = *state;
	const struct wg_kernel *k = wg_image_find(&f->img, "k0");
	const struct wg_param *p;

	assert_ptr_equal(k, &f->img.kernels[0]);
	assert_ptr_equal(wg_image_find(&f->img, "k1"), &f->img.kernels[1]);
	assert_null(wg_image_find(&f->img, "K0"));
	p = wg_kernel_find_param(k, "x");
	assert_non_null(p);
	assert_int_equal(p->offset, 8);
	assert_int_equal(p->size, 8);
	p = wg_kernel_find_param(k, "t");
	assert_int_equal(p->offset, 16);
	assert_int_equal(k->param_bytes, 24);
	assert_null(wg_kernel_find_param(k, "y"));
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                  */

static void serialize_layout_matches_the_documented_offsets(void **state)
{
	struct fixture *f = *state;
	static const uint8_t magic[8] = { 0x89, 'W', 'G', 'K', '\r', '\n', 0x1a, '\n' };
	const uint8_t *b = f->buf;

	assert_int_equal(f->len, FILE_LEN);
	assert_memory_equal(b, magic, 8);
	assert_int_equal(b[8] | b[9] << 8, 1);   /* format version */
	assert_int_equal(b[10] | b[11] << 8, 1); /* ISA version */
	assert_int_equal(rd32(b + 12), FILE_LEN);
	assert_int_equal(rd32(b + 16), 2);
	assert_int_equal(rd32(b + 20), 0);
	assert_int_equal(rd32(b + K0), K1 - K0); /* record size */
	assert_int_equal(rd32(b + K0 + 4), 8);   /* regs */
	assert_int_equal(rd32(b + K0 + 8), 256);
	assert_int_equal(rd32(b + K0 + 12), 16);
	assert_int_equal(rd32(b + K0 + 16), 24);
	assert_int_equal(rd32(b + K0 + 20), 4);
	assert_int_equal(rd32(b + K0 + 24), 2);
	assert_int_equal(rd32(b + K0 + 28), 5);
	assert_string_equal((const char *)b + K0 + 32, "k0");
	assert_string_equal((const char *)b + K0_PARAMS + 80 * 2, "x");
	assert_int_equal(b[K0_PARAMS + 80 * 2 + 64], WG_PT_PTR);
	assert_int_equal(rd32(b + K0_PARAMS + 80 * 3 + 68), 3);  /* count */
	assert_int_equal(rd32(b + K0_PARAMS + 80 * 3 + 72), 16); /* offset */
	assert_int_equal(rd32(b + K0_PARAMS + 80 * 3 + 76), 3);  /* size */
	assert_string_equal((const char *)b + K0_LABELS + 72, "done");
	assert_int_equal(rd32(b + K0_LABELS + 72 + 64), 4);
	assert_int_equal(rd32(b + K0_CODE + 8 * 4), (uint32_t)f->img.kernels[0].code[4]);
	assert_int_equal(rd32(b + K0_CODE + 8 * 4 + 4), (uint32_t)(f->img.kernels[0].code[4] >> 32));
	assert_string_equal((const char *)b + K1 + 32, "k1");
	assert_int_equal(rd32(b + CRC_AT), ref_crc32(b, CRC_AT));
}

static void crc32_is_the_zlib_crc(void **state)
{
	(void)state;
	/* The standard check value, confirming the reference used by these tests. */
	assert_int_equal(ref_crc32((const uint8_t *)"123456789", 9), 0xCBF43926u);
}

static void serialize_is_deterministic_and_zeroes_name_slack(void **state)
{
	struct fixture *f = *state;
	uint8_t *again;
	size_t len;
	struct wg_kernel *k = &f->img.kernels[0];

	assert_int_equal(wg_image_serialize(&f->img, &again, &len), 0);
	assert_int_equal(len, f->len);
	assert_memory_equal(again, f->buf, len);
	free(again);
	/* Garbage after the NUL of names must not reach the file. */
	memset(k->name + 3, 0x5a, WG_NAME_MAX - 3);
	memset(k->params[0].name + 2, 0xa5, WG_NAME_MAX - 2);
	memset(k->labels[1].name + 5, 0x33, WG_NAME_MAX - 5);
	assert_int_equal(wg_image_serialize(&f->img, &again, &len), 0);
	assert_memory_equal(again, f->buf, len);
	free(again);
}

static void serialize_rejects_unterminated_names(void **state)
{
	struct fixture *f = *state;
	uint8_t *buf = NULL;
	size_t len;

	memset(f->img.kernels[1].name, 'k', WG_NAME_MAX);
	assert_int_equal(wg_image_serialize(&f->img, &buf, &len), WG_EINVAL);
	assert_null(buf);
}

static void kernels_equal(const struct wg_kernel *a, const struct wg_kernel *b)
{
	assert_string_equal(a->name, b->name);
	assert_int_equal(a->regs, b->regs);
	assert_int_equal(a->shared_bytes, b->shared_bytes);
	assert_int_equal(a->local_bytes, b->local_bytes);
	assert_int_equal(a->param_bytes, b->param_bytes);
	assert_int_equal(a->nparams, b->nparams);
	for (uint32_t i = 0; i < a->nparams; i++) {
		assert_string_equal(a->params[i].name, b->params[i].name);
		assert_int_equal(a->params[i].type, b->params[i].type);
		assert_int_equal(a->params[i].count, b->params[i].count);
		assert_int_equal(a->params[i].offset, b->params[i].offset);
		assert_int_equal(a->params[i].size, b->params[i].size);
	}
	assert_int_equal(a->nlabels, b->nlabels);
	for (uint32_t i = 0; i < a->nlabels; i++) {
		assert_string_equal(a->labels[i].name, b->labels[i].name);
		assert_int_equal(a->labels[i].pc, b->labels[i].pc);
	}
	assert_int_equal(a->ninsns, b->ninsns);
	assert_memory_equal(a->code, b->code, a->ninsns * sizeof(*a->code));
}

static void write_then_read_round_trip(void **state)
{
	struct fixture *f = *state;
	char path[] = "/tmp/wg_test_image_XXXXXX";
	int fd = mkstemp(path);
	struct wg_image img;
	uint8_t *again;
	size_t len;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(wg_image_write(&f->img, path), 0);
	assert_int_equal(wg_image_read(&img, path, f->err, sizeof(f->err)), 0);
	assert_string_equal(f->err, "");
	unlink(path);
	assert_int_equal(img.nkernels, 2);
	kernels_equal(&img.kernels[0], &f->img.kernels[0]);
	kernels_equal(&img.kernels[1], &f->img.kernels[1]);
	assert_int_equal(wg_image_serialize(&img, &again, &len), 0);
	assert_int_equal(len, f->len);
	assert_memory_equal(again, f->buf, len);
	free(again);
	wg_image_free(&img);
	assert_int_equal(img.nkernels, 0);
}

static void read_reports_missing_file(void **state)
{
	struct fixture *f = *state;
	struct wg_image img;

	assert_int_equal(wg_image_read(&img, "/nonexistent/dir/x.wgk", f->err, sizeof(f->err)), WG_ENOENT);
	assert_non_null(strstr(f->err, "/nonexistent/dir/x.wgk"));
	assert_int_equal(img.nkernels, 0);
	assert_int_not_equal(wg_image_write(&f->img, "/nonexistent/dir/x.wgk"), 0);
}

/* ------------------------------------------------------------------------ */
/* Corruption                                                               */

static void parse_rejects_truncation_at_every_length(void **state)
{
	struct fixture *f = *state;

	for (size_t n = 0; n < f->len; n++) {
		uint8_t *copy = malloc(n ? n : 1);
		struct wg_image img;
		char prefix[64];

		memcpy(copy, f->buf, n);
		assert_int_equal(wg_image_parse(&img, copy, n, "test.wgk", f->err, sizeof(f->err)), WG_EFORMAT);
		snprintf(prefix, sizeof(prefix), "test.wgk: offset %zu: truncated", n);
		if (strncmp(f->err, prefix, strlen(prefix)))
			fail_msg("length %zu: '%s', expected '%s...'", n, f->err, prefix);
		free(copy);
	}
}

static void parse_detects_every_single_bit_flip(void **state)
{
	struct fixture *f = *state;

	for (size_t i = 0; i < f->len; i++) {
		for (int bit = 0; bit < 8; bit++) {
			struct wg_image img;

			f->buf[i] ^= (uint8_t)(1u << bit);
			if (wg_image_parse(&img, f->buf, f->len, "test.wgk", f->err, sizeof(f->err)) != WG_EFORMAT)
				fail_msg("flip of bit %d of byte %zu not detected", bit, i);
			f->buf[i] ^= (uint8_t)(1u << bit);
		}
	}
}

static void parse_rejects_crc_mismatch(void **state)
{
	struct fixture *f = *state;

	f->buf[K0_CODE + 3] ^= 0x10;
	expect_reject(f, CRC_AT, "CRC-32 mismatch");
	f->buf[K0_CODE + 3] ^= 0x10;
	f->buf[CRC_AT + 2] ^= 1;
	expect_reject(f, CRC_AT, "CRC-32 mismatch");
}

static void parse_rejects_bad_magic(void **state)
{
	struct fixture *f = *state;

	f->buf[3] = 'X';
	expect_reject(f, 3, "bad magic");
	f->buf[3] = 'K';
	f->buf[4] = '\n'; /* text-mode line ending damage */
	expect_reject(f, 4, "bad magic");
}

static void parse_rejects_bad_versions(void **state)
{
	struct fixture *f = *state;

	f->buf[8] = 2;
	expect_reject(f, 8, "unsupported format version 2");
	f->buf[8] = 1;
	f->buf[11] = 1;
	expect_reject(f, 10, "unsupported ISA version 257");
}

static void parse_rejects_size_field_disagreement(void **state)
{
	struct fixture *f = *state;
	uint8_t *longer = calloc(1, f->len + 8);
	struct wg_image img;

	wr32(f->buf + 12, FILE_LEN + 4);
	expect_reject(f, FILE_LEN, "truncated: header declares 736 bytes");
	wr32(f->buf + 12, FILE_LEN - 8);
	expect_reject(f, FILE_LEN - 8, "header declares 724");
	/* Trailing bytes after a complete file. */
	wr32(f->buf + 12, FILE_LEN);
	memcpy(longer, f->buf, f->len);
	assert_int_equal(wg_image_parse(&img, longer, f->len + 8, "test.wgk", f->err, sizeof(f->err)), WG_EFORMAT);
	assert_non_null(strstr(f->err, "test.wgk: offset 732: file is 740 bytes"));
	free(longer);
}

static void parse_rejects_reserved_header_and_kernel_count(void **state)
{
	struct fixture *f = *state;

	wr32(f->buf + 20, 1);
	fix_crc(f->buf, f->len);
	expect_reject(f, 20, "reserved header word");
	wr32(f->buf + 20, 0);
	wr32(f->buf + 16, 0);
	fix_crc(f->buf, f->len);
	expect_reject(f, 16, "no kernels");
	wr32(f->buf + 16, 1000000);
	fix_crc(f->buf, f->len);
	expect_reject(f, 16, "1000000 kernels need");
	wr32(f->buf + 16, 3);
	fix_crc(f->buf, f->len);
	expect_reject(f, CRC_AT, "truncated kernel record 2");
	wr32(f->buf + 16, 1);
	fix_crc(f->buf, f->len);
	expect_reject(f, K1, "104 bytes after the last kernel record");
}

static void parse_rejects_counts_that_overrun_the_file(void **state)
{
	struct fixture *f = *state;

	wr32(f->buf + K0 + 20, 0xFFFFFFFFu); /* nparams */
	fix_crc(f->buf, f->len);
	expect_reject(f, K0 + 20, "need");
	wr32(f->buf + K0 + 20, 4);
	wr32(f->buf + K0 + 24, 100); /* nlabels */
	fix_crc(f->buf, f->len);
	expect_reject(f, K0 + 20, "only 704 remain");
	wr32(f->buf + K0 + 24, 2);
	wr32(f->buf + K1 + 28, 2); /* ninsns of the last kernel */
	fix_crc(f->buf, f->len);
	expect_reject(f, K1 + 20, "counts that fit");
	wr32(f->buf + K1 + 28, 1);
	wr32(f->buf + K0, 12345); /* record size */
	fix_crc(f->buf, f->len);
	expect_reject(f, K0, "record size 12345, expected 600");
}

static void parse_rejects_bad_names(void **state)
{
	struct fixture *f = *state;
	uint8_t saved[WG_NAME_MAX];

	memcpy(saved, f->buf + K0 + 32, WG_NAME_MAX);
	memset(f->buf + K0 + 32, 'k', WG_NAME_MAX);
	fix_crc(f->buf, f->len);
	expect_reject(f, K0 + 32, "not NUL-terminated within 64 bytes");
	memcpy(f->buf + K0 + 32, saved, WG_NAME_MAX);
	f->buf[K0 + 32 + 10] = 'z'; /* slack after the NUL */
	fix_crc(f->buf, f->len);
	expect_reject(f, K0 + 32 + 10, "non-zero byte 0x7a after the end of the name of kernel 0");
	memcpy(f->buf + K0 + 32, saved, WG_NAME_MAX);
	f->buf[K0 + 32 + 1] = '-';
	fix_crc(f->buf, f->len);
	expect_reject(f, K0 + 32 + 1, "byte 0x2d in the name of kernel 0");
	memcpy(f->buf + K0 + 32, saved, WG_NAME_MAX);
	f->buf[K0 + 32] = 0;
	f->buf[K0 + 33] = 0;
	fix_crc(f->buf, f->len);
	expect_reject(f, K0 + 32, "is empty");
	memcpy(f->buf + K0 + 32, saved, WG_NAME_MAX);
	memset(f->buf + K0_PARAMS + 80, 'p', WG_NAME_MAX); /* parameter 1 */
	fix_crc(f->buf, f->len);
	expect_reject(f, K0_PARAMS + 80, "name of parameter 1 of kernel 'k0' is not NUL-terminated");
	f->buf[K0_PARAMS + 80 + 1] = 0;
	memset(f->buf + K0_PARAMS + 80 + 2, 0, WG_NAME_MAX - 2);
	f->buf[K0_PARAMS + 80] = '7';
	fix_crc(f->buf, f->len);
	expect_reject(f, K0_PARAMS + 80, "byte 0x37 in the name of parameter 1");
	f->buf[K0_PARAMS + 80] = 'a';
	memset(f->buf + K0_LABELS, 'l', WG_NAME_MAX);
	fix_crc(f->buf, f->len);
	expect_reject(f, K0_LABELS, "name of label 0 of kernel 'k0' is not NUL-terminated");
}

static void parse_rejects_duplicate_kernel_names(void **state)
{
	struct fixture *f = *state;

	f->buf[K1 + 33] = '0';
	fix_crc(f->buf, f->len);
	expect_reject(f, K1 + 32, "duplicate kernel 'k0'");
}

static void parse_rejects_bad_register_counts(void **state)
{
	struct fixture *f = *state;

	wr32(f->buf + K1 + 4, 0);
	fix_crc(f->buf, f->len);
	expect_reject(f, K1 + 4, "has 0 registers, expected 1..63");
	wr32(f->buf + K1 + 4, 64);
	fix_crc(f->buf, f->len);
	expect_reject(f, K1 + 4, "has 64 registers");
	/* Fewer registers than the code of k0 uses: R0 needs 1, so 1 is fine; the check is per word. */
	wr32(f->buf + K1 + 4, 1);
	wr32(f->buf + K0 + 4, 1);
	fix_crc(f->buf, f->len);
	expect_accept(f);
}

static void parse_rejects_parameter_inconsistencies(void **state)
{
	struct fixture *f = *state;
	const size_t p2 = K0_PARAMS + 80 * 2, p3 = K0_PARAMS + 80 * 3;

	wr32(f->buf + p2 + 72, 12); /* x must be at 8 */
	fix_crc(f->buf, f->len);
	expect_reject(f, p2 + 72, "parameter 'x' at offset 12, expected 8 (CUDA packing)");
	wr32(f->buf + p2 + 72, 8);
	wr32(f->buf + p2 + 76, 4);
	fix_crc(f->buf, f->len);
	expect_reject(f, p2 + 76, "parameter 'x' has size 4, expected 8");
	wr32(f->buf + p2 + 76, 8);
	f->buf[p2 + 64] = WG_PT_COUNT;
	fix_crc(f->buf, f->len);
	expect_reject(f, p2 + 64, "has type 11");
	f->buf[p2 + 64] = WG_PT_PTR;
	f->buf[p2 + 66] = 1;
	fix_crc(f->buf, f->len);
	expect_reject(f, p2 + 66, "reserved byte of parameter 'x'");
	f->buf[p2 + 66] = 0;
	wr32(f->buf + p3 + 68, 0);
	fix_crc(f->buf, f->len);
	expect_reject(f, p3 + 68, "count 0");
	wr32(f->buf + p3 + 68, 5000);
	fix_crc(f->buf, f->len);
	expect_reject(f, p3 + 68, "overflows the parameter buffer");
	wr32(f->buf + p3 + 68, 3);
	wr32(f->buf + K0 + 16, 19);
	fix_crc(f->buf, f->len);
	expect_reject(f, K0 + 16, "declares 19 parameter bytes, expected 24");
	wr32(f->buf + K0 + 16, 24);
	f->buf[p3] = 'n'; /* same name as parameter 0 */
	fix_crc(f->buf, f->len);
	expect_reject(f, p3, "duplicate parameter 'n'");
}

static void parse_rejects_label_problems(void **state)
{
	struct fixture *f = *state;
	const size_t l0 = K0_LABELS, l1 = K0_LABELS + 72;

	wr32(f->buf + l1 + 64, 6);
	fix_crc(f->buf, f->len);
	expect_reject(f, l1 + 64, "label 'done' at pc 6 beyond kernel 'k0' of 5 instructions");
	wr32(f->buf + l1 + 64, 5); /* a label after the last instruction is allowed */
	fix_crc(f->buf, f->len);
	expect_accept(f);
	wr32(f->buf + l1 + 64, 0); /* out of pc order */
	fix_crc(f->buf, f->len);
	expect_reject(f, l1, "expected labels sorted by pc");
	wr32(f->buf + l1 + 64, 4);
	wr32(f->buf + l0 + 68, 9);
	fix_crc(f->buf, f->len);
	expect_reject(f, l0 + 68, "reserved word of label 'top'");
	wr32(f->buf + l0 + 68, 0);
	memcpy(f->buf + l1, "top", 4); /* same name at another pc */
	fix_crc(f->buf, f->len);
	expect_reject(f, l1, "duplicate label 'top'");
	wr32(f->buf + l1 + 64, 1); /* same name and pc */
	fix_crc(f->buf, f->len);
	expect_reject(f, l1, "without repeats");
}

static void parse_rejects_illegal_instructions(void **state)
{
	struct fixture *f = *state;
	uint8_t saved[8];

	memcpy(saved, f->buf + K0_CODE + 8, 8);
	wr64(f->buf + K0_CODE + 8, 0); /* op 0 */
	fix_crc(f->buf, f->len);
	expect_reject(f, K0_CODE + 8, "kernel 'k0' pc 1: illegal instruction 0x0000000000000000 (unknown opcode 0");
	wr64(f->buf + K0_CODE + 8, enc("IADD", 7, 1, 2, 0, 0, 3, 0) | 1ull << 36); /* rc unused */
	fix_crc(f->buf, f->len);
	expect_reject(f, K0_CODE + 8, "unused rc field");
	wr64(f->buf + K0_CODE + 8, enc("IADD", 7, 8, 2, 0, 0, 3, 0)); /* R8 with .regs 8 */
	fix_crc(f->buf, f->len);
	expect_reject(f, K0_CODE + 8, "destination R8 beyond the kernel's 8 registers");
	wr64(f->buf + K0_CODE + 8, enc("LDG.64", 7, 3, 2, 0, 0, 0, 0)); /* misaligned */
	fix_crc(f->buf, f->len);
	expect_reject(f, K0_CODE + 8, "misaligned");
	memcpy(f->buf + K0_CODE + 8, saved, 8);
}

static void parse_rejects_branches_beyond_the_kernel(void **state)
{
	struct fixture *f = *state;

	wr64(f->buf + K0_CODE + 16, enc("BRA", 0, 0, 0, 0, 0, 5, 4));
	fix_crc(f->buf, f->len);
	expect_reject(f, K0_CODE + 16, "kernel 'k0' pc 2: branch target 5 beyond the kernel, expected 0..4");
	wr64(f->buf + K0_CODE + 16, enc("BRA", 0, 0, 0, 0, 0, 4, 5));
	fix_crc(f->buf, f->len);
	expect_reject(f, K0_CODE + 16, "reconvergence pc 5 beyond the kernel");
	wr64(f->buf + K0_CODE + 16, enc("BRA", 0, 0, 0, 0, 0, 4, WG_RECONV_NONE));
	fix_crc(f->buf, f->len);
	expect_accept(f);
}

static void parse_rejects_code_falling_off_the_end(void **state)
{
	struct fixture *f = *state;

	wr64(f->buf + K1_CODE, enc("EXIT", 3, 0, 0, 0, 0, 0, 0)); /* @P3 EXIT */
	fix_crc(f->buf, f->len);
	expect_reject(f, K1_CODE, "kernel 'k1' can fall through past its last instruction (pc 0)");
	wr64(f->buf + K1_CODE, enc("NOP", 7, 0, 0, 0, 0, 0, 0));
	fix_crc(f->buf, f->len);
	expect_reject(f, K1_CODE, "fall through");
	wr64(f->buf + K1_CODE, enc("BRA", 7, 0, 0, 0, 0, 0, 0)); /* BRA 0: an endless loop, but no fall-through */
	fix_crc(f->buf, f->len);
	expect_accept(f);
	wr32(f->buf + K1 + 28, 0); /* no instructions at all */
	fix_crc(f->buf, f->len);
	expect_reject(f, K1 + 28, "has no instructions");
}

static void parse_survives_random_garbage(void **state)
{
	struct fixture *f = *state;
	uint64_t s = 12345;

	/* Random edits of a valid file with a repaired CRC: never a crash, never a bogus success. */
	for (int iter = 0; iter < 20000; iter++) {
		uint8_t *copy = malloc(f->len);
		struct wg_image img;
		int nedits = 1 + iter % 4, ret;

		memcpy(copy, f->buf, f->len);
		for (int e = 0; e < nedits; e++) {
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			size_t at = 24 + (s >> 33) % (f->len - 28);

			copy[at] = (uint8_t)(s >> 13);
		}
		fix_crc(copy, f->len);
		ret = wg_image_parse(&img, copy, f->len, "fuzz.wgk", f->err, sizeof(f->err));
		if (ret == 0) {
			/* A successful parse must reproduce the bytes exactly. */
			uint8_t *out;
			size_t len;

			assert_int_equal(wg_image_serialize(&img, &out, &len), 0);
			assert_int_equal(len, f->len);
			assert_memory_equal(out, copy, len);
			free(out);
			wg_image_free(&img);
		} else {
			assert_int_equal(ret, WG_EFORMAT);
			assert_non_null(strstr(f->err, "fuzz.wgk: offset "));
		}
		free(copy);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ptype_names_sizes_and_lookup),
		cmocka_unit_test(packing_matches_c_struct_saxpy),
		cmocka_unit_test(packing_matches_c_struct_mixed_scalars),
		cmocka_unit_test(packing_matches_c_struct_tail_padding),
		cmocka_unit_test(packing_matches_c_struct_small),
		cmocka_unit_test(packing_matches_c_struct_arrays),
		cmocka_unit_test(packing_of_no_parameters_is_empty),
		cmocka_unit_test(add_param_rejects_bad_input),
		cmocka_unit_test(crc32_is_the_zlib_crc),
		cmocka_unit_test_setup_teardown(find_param_and_kernel_by_name, setup, teardown),
		cmocka_unit_test_setup_teardown(serialize_layout_matches_the_documented_offsets, setup, teardown),
		cmocka_unit_test_setup_teardown(serialize_is_deterministic_and_zeroes_name_slack, setup, teardown),
		cmocka_unit_test_setup_teardown(serialize_rejects_unterminated_names, setup, teardown),
		cmocka_unit_test_setup_teardown(write_then_read_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(read_reports_missing_file, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_truncation_at_every_length, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_detects_every_single_bit_flip, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_crc_mismatch, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_bad_magic, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_bad_versions, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_size_field_disagreement, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_reserved_header_and_kernel_count, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_counts_that_overrun_the_file, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_bad_names, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_duplicate_kernel_names, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_bad_register_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_parameter_inconsistencies, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_label_problems, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_illegal_instructions, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_branches_beyond_the_kernel, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_rejects_code_falling_off_the_end, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_survives_random_garbage, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

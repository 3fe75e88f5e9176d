/*
 * Kernel images: parameter packing and the .wgk file format (docs/wgk.md).
 *
 * Every multi-byte field of a .wgk file is little-endian. The parser checks
 * every byte it reads against the file length before reading it, and
 * rejects anything that the writer would not have produced, so that a
 * parsed image always serializes back to the same bytes.
 */
#include "image.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crc32.h"
#include "isa.h"
#include "warpgate.h"

/* File layout (docs/wgk.md). */
#define WGK_MAGIC_LEN 8
#define WGK_VERSION 1
#define WGK_ISA_VERSION 1
#define WGK_HDR_SIZE 24
#define WGK_CRC_SIZE 4
#define WGK_KHDR_SIZE 96
#define WGK_PARAM_SIZE 80
#define WGK_LABEL_SIZE 72
#define WGK_INSN_SIZE 8

/* Header fields. */
#define H_MAGIC 0
#define H_VERSION 8
#define H_ISA 10
#define H_SIZE 12
#define H_NKERNELS 16
#define H_RESERVED 20

/* Kernel record fields, relative to the record. */
#define K_SIZE 0
#define K_REGS 4
#define K_SHARED 8
#define K_LOCAL 12
#define K_PARAM_BYTES 16
#define K_NPARAMS 20
#define K_NLABELS 24
#define K_NINSNS 28
#define K_NAME 32

/* Parameter entry fields. */
#define P_NAME 0
#define P_TYPE 64
#define P_RESERVED 65
#define P_COUNT 68
#define P_OFFSET 72
#define P_SIZE 76

/* Label entry fields. */
#define L_NAME 0
#define L_PC 64
#define L_RESERVED 68

/* The parameter buffer of a Fermi/Kepler kernel holds at most 4 KiB. */
#define WG_PARAM_BYTES_MAX 4096u

static const uint8_t wgk_magic[WGK_MAGIC_LEN] = { 0x89, 'W', 'G', 'K', '\r', '\n', 0x1a, '\n' };

/* ------------------------------------------------------------------------ */
/* Parameter types and packing                                              */

static const char *const ptype_names[WG_PT_COUNT] = {
	"u8", "s8", "u16", "s16", "u32", "s32", "f32", "u64", "s64", "f64", "ptr",
};

static const uint8_t ptype_sizes[WG_PT_COUNT] = { 1, 1, 2, 2, 4, 4, 4, 8, 8, 8, 8 };

const char *wg_ptype_name(unsigned t)
{
	return t < WG_PT_COUNT ? ptype_names[t] : NULL;
}

int wg_ptype_find(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < WG_PT_COUNT; i++)
		if (!strcasecmp(ptype_names[i], name))
			return i;
	return -1;
}

unsigned wg_ptype_size(unsigned t)
{
	return t < WG_PT_COUNT ? ptype_sizes[t] : 0;
}

static int ident_start(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '.' || c == '$';
}

static int ident_char(int c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/* Index of the first character that breaks [A-Za-z_.$][A-Za-z0-9_.$]*, or -1. */
static int ident_bad_char(const char *s)
{
	if (!ident_start((unsigned char)s[0]))
		return 0;
	for (int i = 1; s[i]; i++)
		if (!ident_char((unsigned char)s[i]))
			return i;
	return -1;
}

static int name_ok(const char *s)
{
	size_t n = strnlen(s, WG_NAME_MAX);

	return n > 0 && n < WG_NAME_MAX && ident_bad_char(s) < 0;
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) / a * a;
}

/*
 * Offset and size of a parameter appended after `end` bytes, and the new
 * buffer size. Returns 0 or WG_EINVAL when the buffer would exceed its limit.
 */
static int pack_param(uint32_t end, uint32_t max_align, unsigned type, uint32_t count, uint32_t *offset,
		      uint32_t *size, uint32_t *new_end, uint32_t *new_max_align)
{
	uint32_t esz = wg_ptype_size(type);
	uint32_t al = esz; /* ptr: 8 = its size */
	uint64_t off, sz;

	if (!esz || !count)
		return WG_EINVAL;
	off = align_up(end, al);
	sz = (uint64_t)esz * count;
	if (off + sz > WG_PARAM_BYTES_MAX)
		return WG_EINVAL;
	*offset = (uint32_t)off;
	*size = (uint32_t)sz;
	*new_end = (uint32_t)(off + sz);
	*new_max_align = al > max_align ? al : max_align;
	return 0;
}

/* Raw end of the parameters (before the final rounding) and their largest alignment. */
static void param_extent(const struct wg_kernel *k, uint32_t *end, uint32_t *max_align)
{
	*end = 0;
	*max_align = 1;
	for (uint32_t i = 0; i < k->nparams; i++) {
		uint32_t al = wg_ptype_size(k->params[i].type);
		uint32_t e = k->params[i].offset + k->params[i].size;

		if (e > *end)
			*end = e;
		if (al > *max_align)
			*max_align = al;
	}
}

int wg_kernel_add_param(struct wg_kernel *k, const char *name, unsigned type, uint32_t count)
{
	uint32_t end, max_align, off, size, new_end, new_align;
	struct wg_param *p;
	int ret;

	if (!k || !name || !name_ok(name) || type >= WG_PT_COUNT || !count)
		return WG_EINVAL;
	if (wg_kernel_find_param(k, name))
		return WG_EINVAL;
	param_extent(k, &end, &max_align);
	ret = pack_param(end, max_align, type, count, &off, &size, &new_end, &new_align);
	if (ret)
		return ret;
	if (align_up(new_end, new_align) > WG_PARAM_BYTES_MAX)
		return WG_EINVAL;
	p = realloc(k->params, (k->nparams + 1) * sizeof(*p));
	if (!p)
		return WG_ENOMEM;
	k->params = p;
	p = &k->params[k->nparams++];
	memset(p, 0, sizeof(*p));
	strcpy(p->name, name);
	p->type = (uint8_t)type;
	p->count = count;
	p->offset = off;
	p->size = size;
	k->param_bytes = align_up(new_end, new_align);
	return 0;
}

const struct wg_param *wg_kernel_find_param(const struct wg_kernel *k, const char *name)
{
	if (!k || !name)
		return NULL;
	for (uint32_t i = 0; i < k->nparams; i++)
		if (!strncmp(k->params[i].name, name, WG_NAME_MAX))
			return &k->params[i];
	return NULL;
}

const struct wg_kernel *wg_image_find(const struct wg_image *img, const char *name)
{
	if (!img || !name)
		return NULL;
	for (uint32_t i = 0; i < img->nkernels; i++)
		if (!strncmp(img->kernels[i].name, name, WG_NAME_MAX))
			return &img->kernels[i];
	return NULL;
}

static void kernel_free(struct wg_kernel *k)
{
	free(k->params);
	free(k->labels);
	free(k->code);
	memset(k, 0, sizeof(*k));
}

void wg_image_free(struct wg_image *img)
{
	if (!img)
		return;
	for (uint32_t i = 0; i < img->nkernels; i++)
		kernel_free(&img->kernels[i]);
	free(img->kernels);
	img->kernels = NULL;
	img->nkernels = 0;
}

/* ------------------------------------------------------------------------ */
/* Little-endian access                                                     */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                  */

static uint64_t kernel_record_size(const struct wg_kernel *k)
{
	return WGK_KHDR_SIZE + (uint64_t)WGK_PARAM_SIZE * k->nparams + (uint64_t)WGK_LABEL_SIZE * k->nlabels +
	       (uint64_t)WGK_INSN_SIZE * k->ninsns;
}

/* Copies a name into a zero-filled 64-byte field; 0 or WG_EINVAL if it does not fit. */
static int put_name(uint8_t *p, const char *name)
{
	size_t n = strnlen(name, WG_NAME_MAX);

	if (n >= WG_NAME_MAX)
		return WG_EINVAL;
	memset(p, 0, WG_NAME_MAX);
	memcpy(p, name, n);
	return 0;
}

static int kernel_shape_ok(const struct wg_kernel *k)
{
	if ((k->nparams && !k->params) || (k->nlabels && !k->labels) || (k->ninsns && !k->code))
		return 0;
	return 1;
}

int wg_image_serialize(const struct wg_image *img, uint8_t **buf, size_t *len)
{
	uint64_t total = WGK_HDR_SIZE + WGK_CRC_SIZE;
	uint8_t *out, *p;
	int ret;

	if (!img || !buf || !len || (img->nkernels && !img->kernels))
		return WG_EINVAL;
	for (uint32_t i = 0; i < img->nkernels; i++) {
		if (!kernel_shape_ok(&img->kernels[i]))
			return WG_EINVAL;
		total += kernel_record_size(&img->kernels[i]);
		if (total > UINT32_MAX)
			return WG_EINVAL;
	}
	out = calloc(1, (size_t)total);
	if (!out)
		return WG_ENOMEM;

	memcpy(out + H_MAGIC, wgk_magic, WGK_MAGIC_LEN);
	put16(out + H_VERSION, WGK_VERSION);
	put16(out + H_ISA, WGK_ISA_VERSION);
	put32(out + H_SIZE, (uint32_t)total);
	put32(out + H_NKERNELS, img->nkernels);
	p = out + WGK_HDR_SIZE;
	for (uint32_t i = 0; i < img->nkernels; i++) {
		const struct wg_kernel *k = &img->kernels[i];

		put32(p + K_SIZE, (uint32_t)kernel_record_size(k));
		put32(p + K_REGS, k->regs);
		put32(p + K_SHARED, k->shared_bytes);
		put32(p + K_LOCAL, k->local_bytes);
		put32(p + K_PARAM_BYTES, k->param_bytes);
		put32(p + K_NPARAMS, k->nparams);
		put32(p + K_NLABELS, k->nlabels);
		put32(p + K_NINSNS, k->ninsns);
		ret = put_name(p + K_NAME, k->name);
		if (ret)
			goto fail;
		p += WGK_KHDR_SIZE;
		for (uint32_t j = 0; j < k->nparams; j++, p += WGK_PARAM_SIZE) {
			const struct wg_param *pa = &k->params[j];

			ret = put_name(p + P_NAME, pa->name);
			if (ret)
				goto fail;
			p[P_TYPE] = pa->type;
			put32(p + P_COUNT, pa->count);
			put32(p + P_OFFSET, pa->offset);
			put32(p + P_SIZE, pa->size);
		}
		for (uint32_t j = 0; j < k->nlabels; j++, p += WGK_LABEL_SIZE) {
			ret = put_name(p + L_NAME, k->labels[j].name);
			if (ret)
				goto fail;
			put32(p + L_PC, k->labels[j].pc);
		}
		for (uint32_t j = 0; j < k->ninsns; j++, p += WGK_INSN_SIZE)
			put64(p, k->code[j]);
	}
	put32(p, wg_crc32(0, out, (size_t)total - WGK_CRC_SIZE));
	*buf = out;
	*len = (size_t)total;
	return 0;
fail:
	free(out);
	return ret;
}

int wg_image_write(const struct wg_image *img, const char *path)
{
	uint8_t *buf;
	size_t len;
	FILE *f;
	int ret;

	if (!path)
		return WG_EINVAL;
	ret = wg_image_serialize(img, &buf, &len);
	if (ret)
		return ret;
	f = fopen(path, "wb");
	if (!f) {
		ret = errno == ENOENT ? WG_ENOENT : WG_EIO;
		goto out_buf;
	}
	if (fwrite(buf, 1, len, f) != len)
		ret = WG_EIO;
	if (fclose(f) && !ret)
		ret = WG_EIO;
out_buf:
	free(buf);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                  */

struct pctx {
	const uint8_t *buf;
	size_t end; /* first byte of the CRC: records must lie below it */
	const char *name;
	char *err;
	size_t errlen;
};

static int perr(struct pctx *c, size_t off, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int perr(struct pctx *c, size_t off, int ret, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!c->err || !c->errlen)
		return ret;
	n = snprintf(c->err, c->errlen, "%s: offset %zu: ", c->name, off);
	if (n >= 0 && (size_t)n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return ret;
}

/* Bytes left between off and the CRC (0 when off is at or past it). */
static size_t remain(const struct pctx *c, size_t off)
{
	return off < c->end ? c->end - off : 0;
}

/*
 * Checks a 64-byte name field at off: NUL-terminated, zero slack, a valid
 * name. Copies it to out (WG_NAME_MAX bytes).
 */
static int check_name(struct pctx *c, size_t off, const char *what, char *out)
{
	const uint8_t *p = c->buf + off;
	const uint8_t *nul = memchr(p, 0, WG_NAME_MAX);
	size_t n;
	int bad;

	if (!nul)
		return perr(c, off, WG_EFORMAT,
			    "%s is not NUL-terminated within %d bytes, expected at most %d characters and a NUL",
			    what, WG_NAME_MAX, WG_NAME_MAX - 1);
	n = (size_t)(nul - p);
	if (!n)
		return perr(c, off, WG_EFORMAT, "%s is empty, expected a name", what);
	for (size_t i = n + 1; i < WG_NAME_MAX; i++)
		if (p[i])
			return perr(c, off + i, WG_EFORMAT,
				    "non-zero byte 0x%02x after the end of the %s, expected zero padding", p[i], what);
	memcpy(out, p, WG_NAME_MAX);
	bad = ident_bad_char(out);
	if (bad >= 0)
		return perr(c, off + (size_t)bad, WG_EFORMAT,
			    "byte 0x%02x in the %s, expected a name of the form [A-Za-z_.$][A-Za-z0-9_.$]*",
			    (unsigned)p[bad], what);
	return 0;
}

static int cmp_str_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int parse_params(struct pctx *c, size_t pos, struct wg_kernel *k, size_t kpos)
{
	uint32_t end = 0, max_align = 1;
	char what[WG_NAME_MAX + 64];

	for (uint32_t j = 0; j < k->nparams; j++, pos += WGK_PARAM_SIZE) {
		struct wg_param *pa = &k->params[j];
		uint32_t off, size;
		int ret;

		snprintf(what, sizeof(what), "name of parameter %u of kernel '%s'", j, k->name);
		ret = check_name(c, pos + P_NAME, what, pa->name);
		if (ret)
			return ret;
		pa->type = c->buf[pos + P_TYPE];
		if (pa->type >= WG_PT_COUNT)
			return perr(c, pos + P_TYPE, WG_EFORMAT,
				    "parameter '%s' has type %u, expected 0..%d (docs/wgk.md)", pa->name, pa->type,
				    WG_PT_COUNT - 1);
		for (int b = 0; b < 3; b++)
			if (c->buf[pos + P_RESERVED + b])
				return perr(c, pos + P_RESERVED + b, WG_EFORMAT,
					    "reserved byte of parameter '%s' is 0x%02x, expected 0", pa->name,
					    c->buf[pos + P_RESERVED + b]);
		pa->count = get32(c->buf + pos + P_COUNT);
		pa->offset = get32(c->buf + pos + P_OFFSET);
		pa->size = get32(c->buf + pos + P_SIZE);
		if (!pa->count)
			return perr(c, pos + P_COUNT, WG_EFORMAT, "parameter '%s' has count 0, expected 1 or more",
				    pa->name);
		if (pack_param(end, max_align, pa->type, pa->count, &off, &size, &end, &max_align))
			return perr(c, pos + P_COUNT, WG_EFORMAT,
				    "parameter '%s' (%u x %s) overflows the parameter buffer, expected at most %u bytes",
				    pa->name, pa->count, wg_ptype_name(pa->type), WG_PARAM_BYTES_MAX);
		/* The buffer limit bounds j here, so this search stays cheap. */
		if (wg_kernel_find_param(k, pa->name) != pa)
			return perr(c, pos + P_NAME, WG_EFORMAT,
				    "duplicate parameter '%s' in kernel '%s', expected unique names", pa->name,
				    k->name);
		if (pa->offset != off)
			return perr(c, pos + P_OFFSET, WG_EFORMAT,
				    "parameter '%s' at offset %u, expected %u (CUDA packing)", pa->name, pa->offset,
				    off);
		if (pa->size != size)
			return perr(c, pos + P_SIZE, WG_EFORMAT, "parameter '%s' has size %u, expected %u",
				    pa->name, pa->size, size);
	}
	end = align_up(end, max_align);
	if (end > WG_PARAM_BYTES_MAX)
		return perr(c, kpos + K_PARAM_BYTES, WG_EFORMAT,
			    "kernel '%s' parameter buffer of %u bytes, expected at most %u", k->name, end,
			    WG_PARAM_BYTES_MAX);
	if (k->param_bytes != end)
		return perr(c, kpos + K_PARAM_BYTES, WG_EFORMAT,
			    "kernel '%s' declares %u parameter bytes, expected %u (CUDA packing of its parameters)",
			    k->name, k->param_bytes, end);
	return 0;
}

static int parse_labels(struct pctx *c, size_t pos, struct wg_kernel *k)
{
	const char **sorted;
	char what[WG_NAME_MAX + 64];
	size_t start = pos;
	int ret = 0;

	for (uint32_t j = 0; j < k->nlabels; j++, pos += WGK_LABEL_SIZE) {
		struct wg_label *l = &k->labels[j];

		snprintf(what, sizeof(what), "name of label %u of kernel '%s'", j, k->name);
		ret = check_name(c, pos + L_NAME, what, l->name);
		if (ret)
			return ret;
		l->pc = get32(c->buf + pos + L_PC);
		if (l->pc > k->ninsns)
			return perr(c, pos + L_PC, WG_EFORMAT,
				    "label '%s' at pc %u beyond kernel '%s' of %u instructions, expected 0..%u", l->name,
				    l->pc, k->name, k->ninsns, k->ninsns);
		if (get32(c->buf + pos + L_RESERVED))
			return perr(c, pos + L_RESERVED, WG_EFORMAT, "reserved word of label '%s' is not 0, expected 0",
				    l->name);
		if (j && (l[-1].pc > l->pc || (l[-1].pc == l->pc && strcmp(l[-1].name, l->name) >= 0)))
			return perr(c, pos, WG_EFORMAT,
				    "label '%s' (pc %u) after '%s' (pc %u), expected labels sorted by pc, then name, without repeats",
				    l->name, l->pc, l[-1].name, l[-1].pc);
	}
	if (k->nlabels < 2)
		return 0;
	sorted = malloc(k->nlabels * sizeof(*sorted));
	if (!sorted)
		return WG_ENOMEM;
	for (uint32_t j = 0; j < k->nlabels; j++)
		sorted[j] = k->labels[j].name;
	qsort(sorted, k->nlabels, sizeof(*sorted), cmp_str_ptr);
	for (uint32_t j = 1; j < k->nlabels; j++) {
		if (strcmp(sorted[j - 1], sorted[j]))
			continue;
		/* Report the second entry that carries the name. */
		uint32_t first = UINT32_MAX, second = 0;

		for (uint32_t i = 0; i < k->nlabels; i++) {
			if (strcmp(k->labels[i].name, sorted[j]))
				continue;
			if (first == UINT32_MAX) {
				first = i;
				continue;
			}
			second = i;
			break;
		}
		ret = perr(c, start + (size_t)second * WGK_LABEL_SIZE, WG_EFORMAT,
			   "duplicate label '%s' in kernel '%s' (pcs %u and %u), expected unique names", sorted[j],
			   k->name, k->labels[first].pc, k->labels[second].pc);
		break;
	}
	free(sorted);
	return ret;
}

static int parse_code(struct pctx *c, size_t pos, struct wg_kernel *k)
{
	char why[160];
	struct wg_insn in;

	for (uint32_t pc = 0; pc < k->ninsns; pc++, pos += WGK_INSN_SIZE) {
		uint64_t w = get64(c->buf + pos);

		k->code[pc] = w;
		if (wg_isa_decode(w, &in, why, sizeof(why)) ||
		    wg_isa_check_regs(&in, k->regs, why, sizeof(why)))
			return perr(c, pos, WG_EFORMAT,
				    "kernel '%s' pc %u: illegal instruction 0x%016llx (%s), expected a valid instruction word",
				    k->name, pc, (unsigned long long)w, why);
		if (in.e->fmt != WG_FMT_BRA)
			continue;
		if (in.b >= k->ninsns)
			return perr(c, pos, WG_EFORMAT,
				    "kernel '%s' pc %u: branch target %u beyond the kernel, expected 0..%u", k->name, pc,
				    in.b, k->ninsns - 1);
		if (in.reconv != WG_RECONV_NONE && in.reconv >= k->ninsns)
			return perr(c, pos, WG_EFORMAT,
				    "kernel '%s' pc %u: reconvergence pc %u beyond the kernel, expected 0..%u or none (0x3ffff)",
				    k->name, pc, in.reconv, k->ninsns - 1);
	}
	/* The last instruction must not fall through (docs/isa.md section 4). */
	wg_isa_decode(k->code[k->ninsns - 1], &in, NULL, 0);
	if ((in.e->op != WG_OP_EXIT && in.e->op != WG_OP_BRA) || in.gp != WG_PRED_PT || in.gneg)
		return perr(c, pos - WGK_INSN_SIZE, WG_EFORMAT,
			    "kernel '%s' can fall through past its last instruction (pc %u), expected an unguarded EXIT or BRA",
			    k->name, k->ninsns - 1);
	return 0;
}

static int parse_kernel(struct pctx *c, size_t pos, struct wg_image *img, uint32_t idx, size_t *next)
{
	struct wg_kernel *k = &img->kernels[idx];
	const uint8_t *h = c->buf + pos;
	uint64_t need;
	uint32_t rsize;
	char what[64];
	int ret;

	if (remain(c, pos) < WGK_KHDR_SIZE)
		return perr(c, pos, WG_EFORMAT,
			    "truncated kernel record %u: %zu bytes left before the CRC, expected a %d-byte kernel header",
			    idx, remain(c, pos), WGK_KHDR_SIZE);
	snprintf(what, sizeof(what), "name of kernel %u", idx);
	ret = check_name(c, pos + K_NAME, what, k->name);
	if (ret)
		return ret;
	for (uint32_t i = 0; i < idx; i++)
		if (!strcmp(img->kernels[i].name, k->name))
			return perr(c, pos + K_NAME, WG_EFORMAT, "duplicate kernel '%s', expected unique kernel names",
				    k->name);
	k->regs = get32(h + K_REGS);
	k->shared_bytes = get32(h + K_SHARED);
	k->local_bytes = get32(h + K_LOCAL);
	k->param_bytes = get32(h + K_PARAM_BYTES);
	k->nparams = get32(h + K_NPARAMS);
	k->nlabels = get32(h + K_NLABELS);
	k->ninsns = get32(h + K_NINSNS);
	rsize = get32(h + K_SIZE);
	if (k->regs < 1 || k->regs > WG_NUM_GPR)
		return perr(c, pos + K_REGS, WG_EFORMAT, "kernel '%s' has %u registers, expected 1..%d", k->name,
			    k->regs, WG_NUM_GPR);
	if (!k->ninsns)
		return perr(c, pos + K_NINSNS, WG_EFORMAT, "kernel '%s' has no instructions, expected at least 1",
			    k->name);
	if (k->ninsns >= WG_PC_MAX)
		return perr(c, pos + K_NINSNS, WG_EFORMAT, "kernel '%s' has %u instructions, expected at most %u",
			    k->name, k->ninsns, WG_PC_MAX - 1);
	need = kernel_record_size(k);
	if (need > remain(c, pos))
		return perr(c, pos + K_NPARAMS, WG_EFORMAT,
			    "kernel '%s' counts (%u parameters, %u labels, %u instructions) need %llu bytes, only %zu remain before the CRC, expected counts that fit in the file",
			    k->name, k->nparams, k->nlabels, k->ninsns, (unsigned long long)need, remain(c, pos));
	if (rsize != need)
		return perr(c, pos + K_SIZE, WG_EFORMAT, "kernel '%s' record size %u, expected %llu", k->name, rsize,
			    (unsigned long long)need);

	/* Counts are now bounded by the file size: allocations are safe. */
	k->params = calloc(k->nparams ? k->nparams : 1, sizeof(*k->params));
	k->labels = calloc(k->nlabels ? k->nlabels : 1, sizeof(*k->labels));
	k->code = calloc(k->ninsns, sizeof(*k->code));
	if (!k->params || !k->labels || !k->code)
		return WG_ENOMEM;
	pos += WGK_KHDR_SIZE;
	ret = parse_params(c, pos, k, pos - WGK_KHDR_SIZE);
	if (ret)
		return ret;
	pos += (size_t)WGK_PARAM_SIZE * k->nparams;
	ret = parse_labels(c, pos, k);
	if (ret)
		return ret;
	pos += (size_t)WGK_LABEL_SIZE * k->nlabels;
	ret = parse_code(c, pos, k);
	if (ret)
		return ret;
	*next = pos + (size_t)WGK_INSN_SIZE * k->ninsns;
	return 0;
}

int wg_image_parse(struct wg_image *img, const uint8_t *buf, size_t len, const char *name, char *err,
		   size_t errlen)
{
	struct pctx c = { .buf = buf, .name = name ? name : "<image>", .err = err, .errlen = errlen };
	uint32_t fsize, nk, crc, want;
	uint16_t ver;
	size_t pos;
	int ret;

	if (err && errlen)
		err[0] = 0;
	if (!img || (!buf && len))
		return WG_EINVAL;
	img->nkernels = 0;
	img->kernels = NULL;
	if (len < WGK_HDR_SIZE + WGK_CRC_SIZE)
		return perr(&c, len, WG_EFORMAT, "truncated: file is %zu bytes, expected at least %d (header and CRC)",
			    len, WGK_HDR_SIZE + WGK_CRC_SIZE);
	for (int i = 0; i < WGK_MAGIC_LEN; i++)
		if (buf[H_MAGIC + i] != wgk_magic[i])
			return perr(&c, H_MAGIC + (size_t)i, WG_EFORMAT,
				    "bad magic byte 0x%02x, expected 0x%02x (89 57 47 4b 0d 0a 1a 0a: not a .wgk file)",
				    buf[H_MAGIC + i], wgk_magic[i]);
	ver = get16(buf + H_VERSION);
	if (ver != WGK_VERSION)
		return perr(&c, H_VERSION, WG_EFORMAT, "unsupported format version %u, expected %d", ver, WGK_VERSION);
	ver = get16(buf + H_ISA);
	if (ver != WGK_ISA_VERSION)
		return perr(&c, H_ISA, WG_EFORMAT, "unsupported ISA version %u, expected %d", ver, WGK_ISA_VERSION);
	fsize = get32(buf + H_SIZE);
	if (fsize > len)
		return perr(&c, len, WG_EFORMAT, "truncated: header declares %u bytes, file has %zu, expected %u bytes",
			    fsize, len, fsize);
	if (fsize < len)
		return perr(&c, fsize < WGK_HDR_SIZE + WGK_CRC_SIZE ? H_SIZE : fsize, WG_EFORMAT,
			    "file is %zu bytes but the header declares %u, expected the file to end there", len, fsize);
	c.end = len - WGK_CRC_SIZE;
	crc = get32(buf + c.end);
	want = wg_crc32(0, buf, c.end);
	if (crc != want)
		return perr(&c, c.end, WG_EFORMAT, "CRC-32 mismatch: stored 0x%08x, computed 0x%08x, expected equal (corrupt file)",
			    crc, want);
	if (get32(buf + H_RESERVED))
		return perr(&c, H_RESERVED, WG_EFORMAT, "reserved header word is 0x%08x, expected 0",
			    get32(buf + H_RESERVED));
	nk = get32(buf + H_NKERNELS);
	if (!nk)
		return perr(&c, H_NKERNELS, WG_EFORMAT, "image holds no kernels, expected at least 1");
	if ((uint64_t)nk * (WGK_KHDR_SIZE + WGK_INSN_SIZE) > remain(&c, WGK_HDR_SIZE))
		return perr(&c, H_NKERNELS, WG_EFORMAT,
			    "%u kernels need at least %llu bytes, only %zu remain, expected a count that fits in the file",
			    nk, (unsigned long long)nk * (WGK_KHDR_SIZE + WGK_INSN_SIZE), remain(&c, WGK_HDR_SIZE));
	img->kernels = calloc(nk, sizeof(*img->kernels));
	if (!img->kernels)
		return WG_ENOMEM;
	img->nkernels = nk;
	pos = WGK_HDR_SIZE;
	for (uint32_t i = 0; i < nk; i++) {
		ret = parse_kernel(&c, pos, img, i, &pos);
		if (ret)
			goto fail;
	}
	if (pos != c.end) {
		ret = perr(&c, pos, WG_EFORMAT, "%zu bytes after the last kernel record, expected the CRC", c.end - pos);
		goto fail;
	}
	return 0;
fail:
	wg_image_free(img);
	return ret;
}

int wg_image_read(struct wg_image *img, const char *path, char *err, size_t errlen)
{
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *f;
	int ret = 0;

	if (err && errlen)
		err[0] = 0;
	if (!img || !path)
		return WG_EINVAL;
	img->nkernels = 0;
	img->kernels = NULL;
	f = fopen(path, "rb");
	if (!f) {
		ret = errno == ENOENT ? WG_ENOENT : WG_EIO;
		if (err && errlen)
			snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return ret;
	}
	for (;;) {
		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			uint8_t *nb = realloc(buf, ncap);

			if (!nb) {
				ret = WG_ENOMEM;
				goto out;
			}
			buf = nb;
			cap = ncap;
		}
		size_t got = fread(buf + len, 1, cap - len, f);

		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		ret = WG_EIO;
		if (err && errlen)
			snprintf(err, errlen, "%s: read error", path);
		goto out;
	}
	ret = wg_image_parse(img, buf, len, path, err, errlen);
out:
	free(buf);
	fclose(f);
	return ret;
}

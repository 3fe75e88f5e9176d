/*
 * Kernel images: the in-memory form of an assembled module, shared by the
 * assembler, the disassembler, the .wgk file format (docs/wgk.md) and every
 * target. One image holds one or more kernels.
 */
#ifndef WG_IMAGE_H
#define WG_IMAGE_H

#include <stdint.h>
#include <stddef.h>

#define WG_NAME_MAX 64 /* kernel, parameter and label names, including NUL */

enum wg_ptype {
	WG_PT_U8, WG_PT_S8, WG_PT_U16, WG_PT_S16, WG_PT_U32, WG_PT_S32,
	WG_PT_F32, WG_PT_U64, WG_PT_S64, WG_PT_F64, WG_PT_PTR, WG_PT_COUNT
};

struct wg_param {
	char name[WG_NAME_MAX];
	uint8_t type;    /* enum wg_ptype */
	uint32_t count;  /* array elements, 1 for a scalar */
	uint32_t offset; /* byte offset in the parameter buffer */
	uint32_t size;   /* bytes = element size x count */
};

struct wg_label {
	char name[WG_NAME_MAX];
	uint32_t pc;
};

struct wg_kernel {
	char name[WG_NAME_MAX];
	uint32_t regs;         /* registers per thread, 1..63 */
	uint32_t shared_bytes; /* static shared memory per CTA */
	uint32_t local_bytes;  /* local memory per thread */
	uint32_t param_bytes;  /* size of the parameter buffer */
	uint32_t nparams;
	struct wg_param *params;
	uint32_t nlabels; /* sorted by pc, then by name */
	struct wg_label *labels;
	uint32_t ninsns;
	uint64_t *code;
};

struct wg_image {
	uint32_t nkernels;
	struct wg_kernel *kernels;
};

const char *wg_ptype_name(unsigned t);       /* "u32" */
int wg_ptype_find(const char *name);        /* -1 if unknown */
unsigned wg_ptype_size(unsigned t);         /* bytes of one element */

/* Append a parameter with CUDA packing; updates param_bytes. 0 or WG_E*. */
int wg_kernel_add_param(struct wg_kernel *k, const char *name, unsigned type, uint32_t count);
const struct wg_param *wg_kernel_find_param(const struct wg_kernel *k, const char *name);
const struct wg_kernel *wg_image_find(const struct wg_image *img, const char *name);

void wg_image_free(struct wg_image *img); /* frees the contents, not img */

/*
 * .wgk files (docs/wgk.md). wg_image_read names the file and the byte offset
 * of any defect in err (when err != NULL). Decoding of every instruction is
 * checked on read.
 */
int wg_image_write(const struct wg_image *img, const char *path);
int wg_image_read(struct wg_image *img, const char *path, char *err, size_t errlen);
int wg_image_serialize(const struct wg_image *img, uint8_t **buf, size_t *len);
int wg_image_parse(struct wg_image *img, const uint8_t *buf, size_t len, const char *name, char *err,
                   size_t errlen);

#endif

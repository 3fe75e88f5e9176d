/*
 * libFuzzer target: the PTX frontend (parse, translate, allocate, emit) and
 * the assembler run on its output. Any input must give 0 or an error code,
 * without a crash, leak, hang or undefined behaviour (built with ASan and
 * UBSan by sim/ptx.mk: make fuzz-smoke, make fuzz).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *src = malloc(size + 1);
	char *text = NULL;
	struct wg_image img = { 0 };

	if (!src)
		return 0;
	memcpy(src, data, size);
	src[size] = 0;
	wg_ptx_sniff(src, size);
	if (!wg_ptx_translate(src, "fuzz.ptx", &text, &img, NULL) && !text)
		abort(); /* success always yields the assembly */
	free(text);
	wg_image_free(&img);
	free(src);
	return 0;
}

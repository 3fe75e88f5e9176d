/*
 * libFuzzer target: the assembler, then the image writer and reader on what
 * it accepts (an accepted source must serialise and parse back). Built with
 * ASan and UBSan by sim/ptx.mk (make fuzz-smoke, make fuzz).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *src = malloc(size + 1);
	struct wg_image img = { 0 };

	if (!src)
		return 0;
	memcpy(src, data, size);
	src[size] = 0;
	if (!wg_asm_string(&img, src, "fuzz.s", NULL)) {
		uint8_t *buf = NULL;
		size_t len = 0;
		struct wg_image back = { 0 };
		char err[256];

		if (wg_image_serialize(&img, &buf, &len))
			abort();
		if (wg_image_parse(&back, buf, len, "fuzz.wgk", err, sizeof(err)))
			abort(); /* the assembler produced an image the reader rejects */
		wg_image_free(&back);
		free(buf);
	}
	wg_image_free(&img);
	free(src);
	return 0;
}

/*
 * CRC-32, eight bytes per step ("slicing by 8"): table k holds the CRC
 * contribution of a byte followed by k zero bytes, so that the eight bytes of
 * a step are looked up independently and combined with XOR. The tables are
 * built once, on first use.
 */
#include "crc32.h"

#include <pthread.h>

#define CRC32_POLY 0xEDB88320u

static uint32_t tables[8][256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int j = 0; j < 8; j++)
			c = c & 1 ? CRC32_POLY ^ (c >> 1) : c >> 1;
		tables[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int k = 1; k < 8; k++)
			tables[k][i] = tables[0][tables[k - 1][i] & 0xff] ^ (tables[k - 1][i] >> 8);
}

uint32_t wg_crc32(uint32_t crc, const void *data, size_t n)
{
	const uint8_t *p = data;

	pthread_once(&tables_once, build_tables);
	crc = ~crc;
	while (n >= 8) {
		/* Bytes in stream order, independent of the host's byte order. */
		uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;

		crc = tables[7][lo & 0xff] ^ tables[6][(lo >> 8) & 0xff] ^ tables[5][(lo >> 16) & 0xff] ^
		      tables[4][lo >> 24] ^ tables[3][hi & 0xff] ^ tables[2][(hi >> 8) & 0xff] ^
		      tables[1][(hi >> 16) & 0xff] ^ tables[0][hi >> 24];
		p += 8;
		n -= 8;
	}
	while (n--)
		crc = tables[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

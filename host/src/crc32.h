/*
 * CRC-32 of IEEE 802.3 (zlib, PNG; reflected polynomial 0xEDB88320, all-ones
 * start and final XOR), shared by the .wgk image format (docs/wgk.md) and the
 * link protocol (docs/protocol.md).
 */
#ifndef WG_CRC32_H
#define WG_CRC32_H

#include <stddef.h>
#include <stdint.h>

/*
 * CRC of p[0..n) continued from crc, the CRC of the bytes before them (0 for
 * none): wg_crc32(wg_crc32(0, a, na), b, nb) is the CRC of a followed by b.
 * Thread-safe.
 */
uint32_t wg_crc32(uint32_t crc, const void *p, size_t n);

#endif

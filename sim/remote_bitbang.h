/*
 * OpenOCD's remote_bitbang requests (OpenOCD doc/manual/jtag/drivers/remote_bitbang.txt;
 * docs/jtag.md section 8) decoded for a JTAG model: one decoder for sim/jtag_bitbang.c (the
 * JTAG block alone) and tests/usb/fx2_emu.c (the board top), each giving its pins.
 *
 *   '0'..'7'   pins(tck, tms, tdi), value = 4 TCK + 2 TMS + TDI
 *   'R'        answers '0' or '1' with tdo()
 *   'r'..'u'   reset(trst, srst), 1 = asserted (r: neither, s: SRST, t: TRST, u: both)
 *   'B' 'b'    blink (counted)        'Z' 'z'   sleep_us(1000), sleep_us(1) if given
 *   'Q'        quit                   blanks    ignored
 * Anything else (the SWD requests O o c d e f g among them) is refused.
 */
#ifndef WG_REMOTE_BITBANG_H
#define WG_REMOTE_BITBANG_H

#include <stddef.h>
#include <stdint.h>

struct rbb_ops {
	void *ctx;
	void (*pins)(void *ctx, int tck, int tms, int tdi);
	int (*tdo)(void *ctx);                        /* 0 or 1 */
	void (*reset)(void *ctx, int trst, int srst); /* may be NULL */
	void (*sleep_us)(void *ctx, unsigned us);     /* may be NULL */
};

struct rbb_stats {
	uint64_t bytes, writes, reads, tck_rises, blinks, resets;
	int last_tck;
};

/*
 * Serves the n request bytes at in. The TDO answers go to out from *nout on (out has room for
 * n more). Returns 0, 1 at a 'Q' (the bytes after it are not served), or -1 at a request that
 * is refused: *bad is that byte, st->bytes - 1 its position in the stream.
 */
int rbb_requests(const struct rbb_ops *ops, struct rbb_stats *st, const char *in, size_t n, char *out,
                 size_t *nout, int *bad);

/* write(2) of all n bytes (EINTR retried): 0, or -1 with errno set. */
int rbb_write_all(int fd, const char *p, size_t n);

#endif

/* OpenOCD's remote_bitbang requests decoded for a JTAG model (sim/remote_bitbang.h). */
#include "remote_bitbang.h"

#include <errno.h>
#include <unistd.h>

int rbb_requests(const struct rbb_ops *ops, struct rbb_stats *st, const char *in, size_t n, char *out,
                 size_t *nout, int *bad)
{
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)in[i];

		st->bytes++;
		if (c >= '0' && c <= '7') {
			int tck = (c - '0') >> 2 & 1;

			ops->pins(ops->ctx, tck, (c - '0') >> 1 & 1, (c - '0') & 1);
			if (tck && !st->last_tck)
				st->tck_rises++;
			st->last_tck = tck;
			st->writes++;
		} else if (c == 'R') {
			out[(*nout)++] = ops->tdo(ops->ctx) ? '1' : '0';
			st->reads++;
		} else if (c >= 'r' && c <= 'u') {
			if (ops->reset)
				ops->reset(ops->ctx, (c - 'r') >> 1 & 1, (c - 'r') & 1);
			st->resets++;
		} else if (c == 'B' || c == 'b') {
			st->blinks += c == 'B';
		} else if (c == 'Z' || c == 'z') {
			if (ops->sleep_us)
				ops->sleep_us(ops->ctx, c == 'Z' ? 1000 : 1);
		} else if (c == 'Q') {
			return 1;
		} else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
			*bad = c;
			return -1;
		}
	}
	return 0;
}

int rbb_write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

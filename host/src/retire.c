/*
 * The retire log: one text line per retired warp instruction
 * (grammar in docs/retire-log.md). Lines are formatted by hand into a
 * buffer and written with one fwrite: a log of every instruction of a
 * long kernel is large, and printf would dominate the cost.
 */
#include "retire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "warpgate.h"

#define WG_RETIRE_VERSION 1

struct wg_retire_log {
	FILE *f;
	int owned; /* fclose on close (not stdout) */
};

int wg_retire_open(struct wg_retire_log **logp, const char *path)
{
	struct wg_retire_log *log;

	if (!logp || !path)
		return WG_EINVAL;
	*logp = NULL;
	log = calloc(1, sizeof(*log));
	if (!log)
		return WG_ENOMEM;
	if (!strcmp(path, "-")) {
		log->f = stdout;
	} else {
		log->f = fopen(path, "w");
		if (!log->f) {
			int e = errno;

			free(log);
			errno = e;
			return e == ENOENT ? WG_ENOENT : WG_EIO;
		}
		log->owned = 1;
	}
	fprintf(log->f, "# warpgate retire log v%d: cta warp pc active exec dst values\n", WG_RETIRE_VERSION);
	*logp = log;
	return 0;
}

void wg_retire_close(struct wg_retire_log *log)
{
	if (!log)
		return;
	if (log->owned)
		fclose(log->f);
	else
		fflush(log->f);
	free(log);
}

FILE *wg_retire_file(struct wg_retire_log *log)
{
	return log ? log->f : NULL;
}

static const char hexdig[16] = "0123456789abcdef";

static char *put_hex8(char *p, uint32_t v)
{
	for (int i = 7; i >= 0; i--) {
		p[i] = hexdig[v & 15];
		v >>= 4;
	}
	return p + 8;
}

static char *put_dec(char *p, uint32_t v)
{
	char tmp[10];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

void wg_retire_write(struct wg_retire_log *log, const struct wg_retire_rec *r)
{
	/* Longest line: 3 numbers, 2 masks, "R62x4" and 32 lanes x 4 words x 9 characters: about 1220. */
	char buf[1400];
	char *p = buf;

	if (!log)
		return;
	p = put_dec(p, r->cta);
	*p++ = ' ';
	p = put_dec(p, r->warp);
	*p++ = ' ';
	p = put_dec(p, r->pc);
	*p++ = ' ';
	p = put_hex8(p, r->active);
	*p++ = ' ';
	p = put_hex8(p, r->exec);
	*p++ = ' ';
	switch (r->dst) {
	case WG_RD_REG:
		*p++ = 'R';
		p = put_dec(p, r->reg);
		if (r->nregs > 1) {
			*p++ = 'x';
			p = put_dec(p, r->nregs);
		}
		if (r->skip_values) {
			*p++ = ' ';
			*p++ = '*';
			break;
		}
		for (uint32_t m = r->exec; m; m &= m - 1) {
			unsigned lane = (unsigned)__builtin_ctz(m);

			*p++ = ' ';
			for (unsigned k = 0; k < r->nregs && k < 4; k++) {
				if (k)
					*p++ = ':';
				p = put_hex8(p, r->vals[lane][k]);
			}
		}
		break;
	case WG_RD_PRED:
		*p++ = 'P';
		p = put_dec(p, r->reg);
		*p++ = ' ';
		if (r->skip_values)
			*p++ = '*';
		else
			p = put_hex8(p, r->pred & r->exec);
		break;
	default:
		*p++ = '-';
		break;
	}
	*p++ = '\n';
	fwrite(buf, 1, (size_t)(p - buf), log->f);
}

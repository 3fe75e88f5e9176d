/*
 * s51.c: driving ucsim's s51 over a pseudo-terminal (tests/fw/s51.h).
 */
#define _GNU_SOURCE
#include "s51.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

enum { S51_Q_NONE, S51_Q_DUMP, S51_Q_EXPR, S51_Q_RUN };

/* A batch that has not ended by then has a hung firmware (or a stuck simulator). The
 * batches take well under a second on an idle machine; the bound is wide because a
 * loaded machine (make test beside Verilator builds) can be many times slower, and a
 * test must not fail on time. WG_S51_TIMEOUT_S overrides it. */
#ifndef S51_TIMEOUT_MS
#define S51_TIMEOUT_MS 120000
#endif

static void s51_fail(struct s51 *s, const char *fmt, ...)
{
	va_list ap;

	if (s->failed)
		return;
	s->failed = 1;
	va_start(ap, fmt);
	vsnprintf(s->error, sizeof(s->error), fmt, ap);
	va_end(ap);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Intel HEX into s->image; -1 on a malformed record. */
static int load_ihx(struct s51 *s, const char *path)
{
	char line[600];
	FILE *f = fopen(path, "r");
	int lineno = 0;

	if (!f) {
		s51_fail(s, "%s: %s (build it with make firmware)", path, strerror(errno));
		return -1;
	}
	memset(s->image, 0xFF, sizeof(s->image));
	while (fgets(line, sizeof(line), f)) {
		unsigned n, a, t, i;

		lineno++;
		if (line[0] != ':')
			continue;
		if (sscanf(line + 1, "%2x%4x%2x", &n, &a, &t) != 3 || strlen(line) < 11 + 2 * n) {
			s51_fail(s, "%s:%d: malformed record", path, lineno);
			fclose(f);
			return -1;
		}
		if (t != 0)
			continue;
		for (i = 0; i < n; i++) {
			int hi = hexval(line[9 + 2 * i]), lo = hexval(line[10 + 2 * i]);
			if (hi < 0 || lo < 0) {
				s51_fail(s, "%s:%d: bad hex digit", path, lineno);
				fclose(f);
				return -1;
			}
			s->image[(a + i) & 0xFFFF] = (uint8_t)(hi << 4 | lo);
		}
	}
	fclose(f);
	return 0;
}

/* The address of a code symbol in sdcc's .map ("C:   00000465  _wgf_usb_poll  usb"). */
static int map_symbol(struct s51 *s, const char *path, const char *sym, unsigned *addr)
{
	char line[300], name[128];
	FILE *f = fopen(path, "r");

	if (!f) {
		s51_fail(s, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned a;
		if (sscanf(line, " C: %x %127s", &a, name) == 2 && strcmp(name, sym) == 0) {
			*addr = a;
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	s51_fail(s, "%s: no symbol %s", path, sym);
	return -1;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* The bound of one batch, in ms (S51_TIMEOUT_MS or WG_S51_TIMEOUT_S). */
static int s51_timeout_ms(void)
{
	const char *e = getenv("WG_S51_TIMEOUT_S");
	long v = e ? strtol(e, NULL, 10) : 0;

	return v > 0 && v < 86400 ? (int)(v * 1000) : S51_TIMEOUT_MS;
}

/* Read until `until` is in the buffer (or time runs out); its end offset, or -1. */
static long s51_read_until(struct s51 *s, const char *until, int timeout_ms)
{
	long end = now_ms() + timeout_ms;

	for (;;) {
		if (s->len) {
			s->buf[s->len] = '\0';
			char *f = strstr(s->buf, until);
			if (f)
				return (long)(f - s->buf) + (long)strlen(until);
		}
		long left = end - now_ms();
		if (left <= 0) {
			if (!s->buf)
				s->buf = calloc(1, 1);
			s->buf[s->len] = '\0';
			s51_fail(s, "s51 did not answer within %d ms; its last output: '%s'", timeout_ms,
				 s->len > 300 ? s->buf + s->len - 300 : s->buf);
			return -1;
		}
		struct pollfd p = { .fd = s->fd, .events = POLLIN };
		if (poll(&p, 1, (int)left) <= 0)
			continue;
		if (s->len + 4097 > s->cap) {
			s->cap = s->cap ? 2 * s->cap : 65536;
			s->buf = realloc(s->buf, s->cap);
		}
		ssize_t r = read(s->fd, s->buf + s->len, 4096);
		if (r <= 0) {
			s51_fail(s, "s51 ended (output closed)");
			return -1;
		}
		/* NUL prompts and terminal controls are noise here. */
		for (ssize_t i = 0; i < r; i++)
			if (s->buf[s->len + i] == '\0')
				s->buf[s->len + i] = '\n';
		if (getenv("WG_S51_LOG")) {
			FILE *lf = fopen(getenv("WG_S51_LOG"), "a");
			if (lf) {
				fwrite(s->buf + s->len, 1, (size_t)r, lf);
				fclose(lf);
			}
		}
		s->len += (size_t)r;
	}
}

static void s51_consume(struct s51 *s, size_t n)
{
	memmove(s->buf, s->buf + n, s->len - n);
	s->len -= n;
}

static int s51_write(struct s51 *s, const char *text)
{
	size_t n = strlen(text);

	while (n) {
		ssize_t w = write(s->fd, text, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			s51_fail(s, "cannot write to s51: %s", strerror(errno));
			return -1;
		}
		text += w;
		n -= (size_t)w;
	}
	return 0;
}

int s51_start(struct s51 *s, const char *ihx, const char *map)
{
	int fd;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (load_ihx(s, ihx) || map_symbol(s, map, "_wgf_usb_poll", &s->poll_pc) ||
	    map_symbol(s, map, "_wgf_fpga_tick", &s->tick_pc))
		return -1;
	snprintf(s->batch_path, sizeof(s->batch_path), "/tmp/wg-s51-XXXXXX");
	fd = mkstemp(s->batch_path);
	if (fd < 0) {
		s51_fail(s, "mkstemp: %s", strerror(errno));
		return -1;
	}
	close(fd);
	/* A terminal in its default (cooked) mode, as s51 expects of a console. */
	s->pid = forkpty(&s->fd, NULL, NULL, NULL);
	if (s->pid < 0) {
		s51_fail(s, "forkpty: %s", strerror(errno));
		return -1;
	}
	if (s->pid == 0) {
		/* 8052 core (timer 2), 48 MHz as the FX2's CPUCS sets, no colours, NUL
		 * prompt, a fixed seed for the random start-up contents of memory. */
		execlp("s51", "s51", "-t", "C52", "-X", "48M", "-b", "-P", "-R", "1", ihx, (char *)NULL);
		fprintf(stderr, "cannot run s51: %s\n", strerror(errno));
		_exit(127);
	}
	/* The banner, then the image loaded. */
	long n = s51_read_until(s, "words read from", s51_timeout_ms());
	if (n < 0)
		return -1;
	s51_consume(s, (size_t)n);
	return 0;
}

void s51_stop(struct s51 *s)
{
	for (int i = 0; i < s->nq; i++)
		free(s->q[i].cmd);
	s->nq = 0;
	if (s->pid > 0) {
		int st;
		s51_write(s, "kill\n");
		for (int i = 0; i < 100 && waitpid(s->pid, &st, WNOHANG) == 0; i++)
			usleep(10000);
		if (waitpid(s->pid, &st, WNOHANG) == 0) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, &st, 0);
		}
	}
	if (s->fd >= 0)
		close(s->fd);
	if (s->batch_path[0])
		unlink(s->batch_path);
	free(s->buf);
	s->pid = 0;
	s->fd = -1;
	s->buf = NULL;
}

static void s51_queue(struct s51 *s, struct s51_query q, const char *cmd)
{
	if (s->failed)
		return;
	if (s->nq == S51_MAX_QUEUE && s51_flush(s))
		return;
	q.cmd = strdup(cmd);
	s->q[s->nq++] = q;
}

void s51_cmd(struct s51 *s, const char *fmt, ...)
{
	char cmd[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	s51_queue(s, (struct s51_query){ .kind = S51_Q_NONE }, cmd);
}

static void s51_read_mem(struct s51 *s, const char *cmd, unsigned addr, unsigned n, uint8_t *out)
{
	char c[64];

	snprintf(c, sizeof(c), "%s 0x%x 0x%x", cmd, addr, addr + n - 1);
	s51_queue(s, (struct s51_query){ .kind = S51_Q_DUMP, .addr = addr, .n = n, .out = out }, c);
}

void s51_read_x(struct s51 *s, unsigned addr, unsigned n, uint8_t *out)
{
	s51_read_mem(s, "dx", addr, n, out);
}

void s51_read_sfr(struct s51 *s, unsigned addr, uint8_t *out)
{
	s51_read_mem(s, "ds", addr, 1, out);
}

void s51_expr(struct s51 *s, unsigned *value, const char *fmt, ...)
{
	char cmd[256] = "expression ";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), fmt, ap);
	va_end(ap);
	s51_queue(s, (struct s51_query){ .kind = S51_Q_EXPR, .value = value }, cmd);
}

void s51_run(struct s51 *s, struct s51_stop *stop)
{
	memset(stop, 0, sizeof(*stop));
	s51_queue(s, (struct s51_query){ .kind = S51_Q_RUN, .stop = stop }, "run");
}

/* "0xe740 12 01 00 02 ..." lines: the bytes of [q->addr, q->addr + q->n). */
static int parse_dump(struct s51 *s, const struct s51_query *q, const char *text)
{
	unsigned got = 0;
	const char *l = text;

	while (*l) {
		const char *e = strpbrk(l, "\r\n");
		size_t len = e ? (size_t)(e - l) : strlen(l);
		unsigned a;
		int off;
		if (len > 2 && l[0] == '0' && l[1] == 'x' && sscanf(l, "0x%x%n", &a, &off) == 1 &&
		    a >= q->addr && a < q->addr + q->n) {
			const char *p = l + off;
			unsigned i;
			for (i = 0; i < 8 && a + i < q->addr + q->n; i++) {
				int hi, lo;
				if (p[0] != ' ' || (hi = hexval(p[1])) < 0 || (lo = hexval(p[2])) < 0)
					break;
				q->out[a + i - q->addr] = (uint8_t)(hi << 4 | lo);
				got++;
				p += 3;
			}
		}
		l += len;
		while (*l == '\r' || *l == '\n')
			l++;
	}
	if (got != q->n) {
		s51_fail(s, "%s: %u of %u bytes in the answer '%s'", q->cmd, got, q->n, text);
		return -1;
	}
	return 0;
}

/* The last line of the answer that is a number. */
static int parse_expr(struct s51 *s, const struct s51_query *q, const char *text)
{
	const char *l = text;
	int found = 0;

	while (*l) {
		const char *e = strpbrk(l, "\r\n");
		size_t len = e ? (size_t)(e - l) : strlen(l);
		size_t i;
		for (i = 0; i < len && isdigit((unsigned char)l[i]); i++)
			;
		if (len > 0 && i == len) {
			*q->value = (unsigned)strtoul(l, NULL, 10);
			found = 1;
		}
		l += len;
		while (*l == '\r' || *l == '\n')
			l++;
	}
	if (!found)
		s51_fail(s, "%s: no value in the answer '%s'", q->cmd, text);
	return found ? 0 : -1;
}

static int parse_run(struct s51 *s, const struct s51_query *q, const char *text)
{
	struct s51_stop *stop = q->stop;
	const char *p = strstr(text, "Stop at ");
	char reason[64];

	if (!p || sscanf(p, "Stop at %x: (%*d) %63[^\r\n]", &stop->pc, reason) != 2) {
		s51_fail(s, "run: no stop in the answer '%s'", text);
		return -1;
	}
	if (strncmp(reason, "Event break", 11) == 0) {
		stop->event = 1;
		p = strstr(text, "at xram[");
		if (!p || sscanf(p, "at xram[%x]", &stop->waddr) != 1) {
			s51_fail(s, "run: event without an xram write in '%s'", text);
			return -1;
		}
	} else if (strncmp(reason, "Breakpoint", 10) != 0) {
		s51_fail(s, "run: stopped for '%s' at 0x%04x", reason, stop->pc);
		return -1;
	}
	return 0;
}

/* Find "\n<line>\r\n" (an echoed command) at or after from; its start and end. */
static int find_echo(const char *buf, size_t from, const char *line, size_t *at, size_t *end)
{
	const char *p = buf + from;
	size_t n = strlen(line);

	for (;;) {
		const char *f = strstr(p, line);
		if (!f)
			return -1;
		if ((f == buf || f[-1] == '\n') && (f[n] == '\r' || f[n] == '\n')) {
			*at = (size_t)(f - buf);
			*end = *at + n;
			return 0;
		}
		p = f + 1;
	}
}

/* After a batch timed out: a `stop` typed on the console ends a run, and s51 says
 * where it stopped. That tells a firmware in a loop (a PC, moving between tries)
 * from a simulator that does not answer at all; it is added to s->error. */
static void s51_where(struct s51 *s)
{
	char where[96] = "s51 did not answer a `stop` within 5 s either";
	char first[sizeof(s->error)];
	size_t n;

	memcpy(first, s->error, sizeof(first));
	s->failed = 0;
	/* Only what comes after the `stop`: earlier runs of the batch said "Stop at" too. */
	s51_consume(s, s->len);
	if (s51_write(s, "stop\n") == 0 && s51_read_until(s, "Stop at ", 5000) >= 0) {
		/* The rest of that line (a read that waits 100 ms at a time: never found). */
		for (int i = 0; i < 10 && !strpbrk(strstr(s->buf, "Stop at "), "\r\n"); i++)
			s51_read_until(s, "\x7f\x7f", 100);
		char *p = strstr(s->buf, "Stop at ");
		size_t e = p ? strcspn(p, "\r\n") : 0;
		snprintf(where, sizeof(where), "a `stop` found the run at: %.*s", (int)e, p ? p : "");
	}
	memcpy(s->error, first, sizeof(first));
	s->failed = 1;
	n = strlen(s->error);
	if (n + 3 < sizeof(s->error))
		snprintf(s->error + n, sizeof(s->error) - n, "; %s", where);
}

int s51_flush(struct s51 *s)
{
	char marker[32], cmd[128], end_line[40];
	size_t pos = 0, at, e, next_at, next_e;
	int i, n = s->nq;
	FILE *f;
	long stop;

	if (n == 0 || s->failed)
		goto out;
	f = fopen(s->batch_path, "w");
	if (!f) {
		s51_fail(s, "%s: %s", s->batch_path, strerror(errno));
		goto out;
	}
	for (i = 0; i < n; i++)
		fprintf(f, "%s\n", s->q[i].cmd);
	s->batches++;
	snprintf(marker, sizeof(marker), "expression %u", 4200000u + s->batches);
	fprintf(f, "%s\n", marker);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "exec \"%s\"\n", s->batch_path);
	snprintf(end_line, sizeof(end_line), "\n%u\r", 4200000u + s->batches);
	if (s51_write(s, cmd))
		goto out;
	if ((stop = s51_read_until(s, end_line, s51_timeout_ms())) < 0) {
		s51_where(s);
		goto out;
	}
	char after = s->buf[stop];
	s->buf[stop] = '\0';
	/* The answer of command i lies between its echo and the next one's. */
	if (find_echo(s->buf, 0, s->q[0].cmd, &at, &e)) {
		s51_fail(s, "no echo of '%s' in '%s'", s->q[0].cmd, s->buf);
		goto out;
	}
	for (i = 0; i < n && !s->failed; i++) {
		const char *next = i + 1 < n ? s->q[i + 1].cmd : marker;
		if (find_echo(s->buf, e, next, &next_at, &next_e)) {
			s51_fail(s, "no echo of '%s' after '%s'", next, s->q[i].cmd);
			break;
		}
		char save = s->buf[next_at];
		s->buf[next_at] = '\0';
		const char *answer = s->buf + e;
		if (strstr(answer, "rror") || strstr(answer, "nknown"))
			s51_fail(s, "s51 refused '%s': '%s'", s->q[i].cmd, answer);
		else if (s->q[i].kind == S51_Q_DUMP)
			parse_dump(s, &s->q[i], answer);
		else if (s->q[i].kind == S51_Q_EXPR)
			parse_expr(s, &s->q[i], answer);
		else if (s->q[i].kind == S51_Q_RUN)
			parse_run(s, &s->q[i], answer);
		s->buf[next_at] = save;
		at = next_at;
		e = next_e;
	}
	s->buf[stop] = after;
	pos = (size_t)stop;
	s51_consume(s, pos);
out:
	for (i = 0; i < n; i++)
		free(s->q[i].cmd);
	s->nq = 0;
	return s->failed ? -1 : 0;
}

uint8_t s51_x(struct s51 *s, unsigned addr)
{
	uint8_t v = 0;

	s51_read_x(s, addr, 1, &v);
	s51_flush(s);
	return v;
}

void s51_set_x(struct s51 *s, unsigned addr, uint8_t v)
{
	s51_cmd(s, "set mem xram 0x%x 0x%02x", addr, v);
}

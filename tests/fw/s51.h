/*
 * s51.h: the FX2 firmware under ucsim's 8051 simulator (s51), for tests/fw/test_fw.c
 * (docs/fx2.md section 8).
 *
 * s51 runs as a child on a pseudo-terminal. Commands are queued, written to a
 * batch file and run with s51's `exec` command: a batch console executes them in
 * order, waits for each `run` to stop, and echoes each command before its answer,
 * so the answers are found after their echoes. (Talking to the interactive
 * console command by command costs s51's 100 ms input poll each time, and input
 * typed during a run stops it.) The batch ends with a marker expression.
 */
#ifndef FW_S51_H
#define FW_S51_H

#include <stdint.h>
#include <sys/types.h>

#define S51_MAX_QUEUE 4096

/* How a run stopped. */
struct s51_stop {
	unsigned pc;
	int event;         /* 1: an event breakpoint (a write), 0: a fixed breakpoint */
	unsigned waddr;    /* the xdata address written (event) */
};

struct s51_query {
	char *cmd;
	int kind;          /* S51_Q_* */
	unsigned addr, n;  /* dump: first address and bytes */
	uint8_t *out;      /* dump: n bytes */
	unsigned *value;   /* expression: its value */
	struct s51_stop *stop; /* run */
};

struct s51 {
	pid_t pid;
	int fd;
	char *buf;         /* output not yet split into answers */
	size_t len, cap;
	struct s51_query q[S51_MAX_QUEUE];
	int nq;
	unsigned batches;
	char batch_path[64];
	int failed;        /* a command failed: everything after it is meaningless */
	char error[1024];
	uint8_t image[0x10000]; /* the firmware image (the FX2's RAM as the loader fills it) */
	unsigned poll_pc;  /* wgf_usb_poll: the main loop's breakpoint */
	unsigned tick_pc;  /* wgf_fpga_tick */
};

int s51_start(struct s51 *s, const char *ihx, const char *map);
void s51_stop(struct s51 *s);

/* Queue a command whose answer is ignored / parsed; s51_flush runs the queue and
 * fills the outputs (0, or -1 with the reason in s->error). */
void s51_cmd(struct s51 *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void s51_read_x(struct s51 *s, unsigned addr, unsigned n, uint8_t *out);  /* xdata */
void s51_read_sfr(struct s51 *s, unsigned addr, uint8_t *out);
void s51_expr(struct s51 *s, unsigned *value, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Run until a breakpoint; stop is filled at the flush. */
void s51_run(struct s51 *s, struct s51_stop *stop);
int s51_flush(struct s51 *s);

/* Immediate forms (flush). */
uint8_t s51_x(struct s51 *s, unsigned addr);
void s51_set_x(struct s51 *s, unsigned addr, uint8_t v);

#endif /* FW_S51_H */

/*
 * The "board" target (docs/board.md): the Verilated GPU in its own process,
 * build/warpgate-board, behind the framed link (docs/protocol.md) over a Unix
 * stream socket; the stand-in for the board on USB. The target itself is
 * wg_target_board (target.h); this header holds what the target and the
 * board program share:
 *
 *  - wg_board_sock: a wg_link carried over a connected stream socket. It does
 *    the I/O the link leaves to its transport: frames out (held delay_us
 *    first when a slow link is emulated), bytes in, the link's timers on a
 *    monotonic microsecond clock. Non-blocking; it waits only in poll().
 *  - the one-to-one conversions between the GPU top's records (sim/wggpu.h)
 *    and the link's (link.h).
 *
 * Functions return 0 or a negative WG_E* code unless they say otherwise.
 */
#ifndef WG_TARGET_BOARD_H
#define WG_TARGET_BOARD_H

#include <stdint.h>

#include "../../sim/wggpu.h"
#include "link.h"

/* Defaults of both sides (microseconds, as every time of wg_board_sock). */
#define WG_BOARD_RTO_US 1000000u /* retransmission / HELLO repeat timeout */
#define WG_BOARD_RETRIES 10u     /* link.h max_retries: HELLO repeats cover a slow board start */

struct wg_board_sock;

struct wg_board_sock_params {
	struct wg_link_params link; /* the link's parameters; rto in microseconds (0: WG_BOARD_RTO_US) */
	uint32_t delay_us;          /* hold every frame this long before it is written (0: none) */
};

/*
 * Take over fd, a connected stream socket (made non-blocking, closed by
 * wg_board_sock_destroy), and create the link on it. The host role's HELLO
 * goes out with the first pump.
 */
int wg_board_sock_create(struct wg_board_sock **s, int fd, const struct wg_board_sock_params *p);
void wg_board_sock_destroy(struct wg_board_sock *s);
struct wg_link *wg_board_sock_link(struct wg_board_sock *s);

/*
 * One round of I/O: take every frame the link has due, write what the socket
 * takes, wait up to wait_us for bytes (0: do not wait; -1: until bytes come,
 * a held frame is due or, while the link is not idle, a quarter of rto),
 * feed what came to the link, run its timers and write again. Records reach
 * the link's on_rec hook from in here. Returns 0, WG_ELINK once the link has
 * failed, WG_EIO for a socket error; the end of the peer's stream is not an
 * error here: wg_board_sock_eof() tells it. wg_board_sock_why() names the
 * cause of a failure in one line.
 */
int wg_board_sock_pump(struct wg_board_sock *s, int64_t wait_us);
int wg_board_sock_eof(const struct wg_board_sock *s);
const char *wg_board_sock_why(const struct wg_board_sock *s);
/* Bytes taken from the link and not yet written to the socket. */
uint64_t wg_board_sock_unsent(const struct wg_board_sock *s);
uint64_t wg_board_now_us(void);

/* The GPU top's records <-> the link's (the same fields, sim/wggpu.h and link.h). */
void wg_board_cmd_to_link(const struct wggpu_cmd *c, struct wg_link_cmd *lc);
void wg_board_cmd_from_link(const struct wg_link_cmd *lc, struct wggpu_cmd *c);
void wg_board_ev_to_link(const struct wggpu_ev *e, struct wg_link_ev *le);
void wg_board_ev_from_link(const struct wg_link_ev *le, struct wggpu_ev *e);
/* The GPU build's parameters <-> its HELLO (every build field). */
void wg_board_info_to_link(const struct wggpu_info *in, struct wg_link_info *li);
void wg_board_info_from_link(const struct wg_link_info *li, struct wggpu_info *in);

#endif

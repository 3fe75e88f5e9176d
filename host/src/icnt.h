/*
 * The interconnect between the SMs and the memory partitions
 * (docs/memory-models.md section 3). Two independent networks: requests
 * (source: an SM port, destination: a partition port) and replies (source:
 * a partition port, destination: an SM port). Every port moves flit_bytes
 * per core cycle, so a packet of B bytes holds its source and its
 * destination port for ceil(B / flit_bytes) cycles; its last flit arrives
 * `latency` cycles after it left. Follows the time contract of
 * docs/memory-models.md section 1.
 */
#ifndef WG_ICNT_H
#define WG_ICNT_H

#include <stdint.h>

/* Address interleave over the partitions (GPGPU-Sim's dramid@8): 256 B chunks. */
#define WG_ICNT_CHUNK_BYTES 256u

/* Partition (memory channel) of a device address: (addr / 256) mod parts. */
uint32_t wg_icnt_partition(uint64_t addr, uint32_t parts);
/* The address inside its partition: (addr / 256 / parts) * 256 + addr mod 256. */
uint64_t wg_icnt_local_addr(uint64_t addr, uint32_t parts);
/* The device address of a partition-local address (inverse of the two above). */
uint64_t wg_icnt_global_addr(uint64_t local, uint32_t part, uint32_t parts);
/* Flits of a packet: ceil(bytes / flit_bytes), at least 1. */
uint32_t wg_icnt_flits(uint32_t bytes, uint32_t flit_bytes);

/* Ports per side (SMs, partitions). */
#define WG_ICNT_MAX_PORTS 64u

enum wg_icnt_net {
	WG_ICNT_REQ = 0, /* SM -> partition */
	WG_ICNT_RSP = 1, /* partition -> SM */
};

struct wg_icnt_params {
	uint32_t num_sms;    /* SM ports */
	uint32_t num_parts;  /* partition ports, one per memory channel */
	uint32_t flit_bytes; /* bytes per port and core cycle */
	uint32_t latency;    /* cycles from a packet's last flit leaving to its arrival (>= 1) */
	uint32_t in_queue;   /* packets that may wait at a source port (>= 1) */
	uint32_t out_queue;  /* credits of a destination port: packets in flight to it or not yet popped (>= 1) */
};

struct wg_icnt_pkt {
	uint64_t id;
	uint64_t stamp; /* core cycle of the push */
	uint64_t start; /* core cycle at which its first flit left */
	uint64_t cycle; /* core cycle of its arrival */
	uint32_t src, dst, bytes;
};

struct wg_icnt_stats {
	uint64_t packets[2];      /* per network: packets sent */
	uint64_t flits[2];        /* per network: flits sent */
	uint64_t stall_cycles[2]; /* per network: sum of the senders' stall cycles */
	uint64_t queue_full[2];   /* per network: pushes refused */
	uint64_t *sm_stall;       /* [num_sms] cycles the SM's request port had a packet it could not send */
	uint64_t *part_stall;     /* [num_parts] the same for the partition's reply port */
};

struct wg_icnt;

int wg_icnt_create(struct wg_icnt **n, const struct wg_icnt_params *p);
void wg_icnt_destroy(struct wg_icnt *n);

uint64_t wg_icnt_now(const struct wg_icnt *n);
/* 1 when a push from source port src of network net would be accepted now. */
int wg_icnt_can_accept(const struct wg_icnt *n, enum wg_icnt_net net, uint32_t src);
/*
 * A packet of bytes from src to dst entering at core cycle stamp (>= now; the
 * model first advances to it). It may leave at stamp + 1 at the earliest.
 * WG_EINVAL for a stamp in the past or a bad port, WG_ENOMEM when src's queue is full.
 */
int wg_icnt_push(struct wg_icnt *n, uint64_t stamp, enum wg_icnt_net net, uint32_t src, uint32_t dst, uint32_t bytes,
                 uint64_t id);
int wg_icnt_advance(struct wg_icnt *n, uint64_t t);
/* Pop the next packet that arrived at port dst of network net by now: 1 popped, 0 none. */
int wg_icnt_pop(struct wg_icnt *n, enum wg_icnt_net net, uint32_t dst, struct wg_icnt_pkt *out);
/* The same without removing it. */
int wg_icnt_peek(const struct wg_icnt *n, enum wg_icnt_net net, uint32_t dst, struct wg_icnt_pkt *out);
/* Earliest cycle > now at which something can happen (a packet can leave or arrive); UINT64_MAX if empty. */
uint64_t wg_icnt_next_event(const struct wg_icnt *n);
/* Packets pushed and not yet popped. */
uint64_t wg_icnt_pending(const struct wg_icnt *n);

const struct wg_icnt_stats *wg_icnt_stats(const struct wg_icnt *n);
/* Cumulative stall cycles of SM sm's request port up to now (the congestion-aware CTA policy's input). */
uint64_t wg_icnt_sm_stall_cycles(const struct wg_icnt *n, uint32_t sm);

#endif

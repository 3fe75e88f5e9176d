/*
 * GPGPU-Sim cache configuration strings (docs/memory-models.md section 4.1):
 * the short form "sets:line:assoc" and the full form
 *
 *   [T:]sets:line:assoc,R:W:A:WA[:I],M:E:G,Q[:F][,P]
 *
 * T cache type (N normal, S sector), R replacement (L LRU, F FIFO),
 * W write policy (R read-only, B write-back, T write-through, E write-evict,
 * L local write-back / global write-through), A allocation (m on miss,
 * f on fill, s streaming), WA write allocation (N no, W write-allocate,
 * F fetch-on-write, L lazy fetch-on-read), I set-index function (L linear,
 * F Fermi hash, H ipoly hash, X xor, C custom), M MSHR type (A associative,
 * F texture FIFO, S sector associative, T sector texture FIFO), E MSHR
 * entries, G largest number of requests merged into one entry, Q miss queue
 * entries, F result FIFO entries, P data port width in bytes. Fields the
 * short form leaves out take GPGPU-Sim's GTX480 L2 values
 * (L:B:m:W:L, A:32:4, 4:0, port 0 = the line size).
 */
#ifndef WG_CACHE_STR_H
#define WG_CACHE_STR_H

#include <stddef.h>
#include <stdint.h>

struct wg_cache_geom {
	char type;          /* 'N' or 'S' ('N' when absent) */
	uint32_t sets;      /* power of two */
	uint32_t line;      /* bytes, power of two, 32..1024 */
	uint32_t assoc;     /* ways */
	char replacement;   /* 'L' or 'F' */
	char write_policy;  /* 'R', 'B', 'T', 'E' or 'L' */
	char alloc_policy;  /* 'm', 'f' or 's' */
	char write_alloc;   /* 'N', 'W', 'F' or 'L' */
	char set_index;     /* 'L', 'F', 'H', 'X' or 'C' ('L' when absent) */
	char mshr_type;     /* 'A', 'F', 'S' or 'T' */
	uint32_t mshr_entries;
	uint32_t mshr_max_merge;
	uint32_t miss_queue;
	uint32_t result_fifo; /* 0 when absent */
	uint32_t port_width;  /* 0 when absent */
	int full;             /* 1 when the string gave the full form */
};

/*
 * Parse s into g. On error returns WG_ECONFIG, leaves g unspecified and
 * writes to err a message naming the field, its number (1-based, counting
 * every ':'- or ','-separated field) and its column (1-based character).
 */
int wg_cache_str_parse(const char *s, struct wg_cache_geom *g, char *err, size_t errlen);

/* Capacity in bytes: sets x line x assoc. */
uint64_t wg_cache_geom_bytes(const struct wg_cache_geom *g);

#endif

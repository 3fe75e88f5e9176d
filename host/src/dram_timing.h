/*
 * GPGPU-Sim's DRAM timing string ("nbk=16:CCD=2:RRD=6:..."), parsed and
 * checked (docs/memory-models.md section 2.2). Used by the GDDR5 model
 * (host/src/dram.c) and by the configuration loader to validate dram_timing.
 */
#ifndef WG_DRAM_TIMING_H
#define WG_DRAM_TIMING_H

#include <stddef.h>
#include <stdint.h>

/* Values in DRAM command-clock cycles. */
struct wg_dram_timing {
	uint32_t nbk;    /* banks per channel (power of two) */
	uint32_t tCCD;   /* column command to column command, any bank */
	uint32_t tRRD;   /* activate to activate, different banks */
	uint32_t tRCD;   /* activate to column command, same bank */
	uint32_t tRAS;   /* activate to precharge, same bank */
	uint32_t tRP;    /* precharge to activate, same bank */
	uint32_t tRC;    /* activate to activate, same bank */
	uint32_t CL;     /* read command to first data beat */
	uint32_t WL;     /* write command to first data beat */
	uint32_t tCDLR;  /* last write data beat to read command */
	uint32_t tWR;    /* last write data beat to precharge, same bank */
	uint32_t nbkgrp; /* bank groups (power of two, at most nbk); optional, default 1 */
	uint32_t tCCDL;  /* column to column, same bank group; optional, default 0 */
	uint32_t tRTPL;  /* read command to precharge, same bank group; optional, default 0 */
};

/* Largest value accepted for any parameter. */
#define WG_DRAM_TIMING_MAX 100000u

/*
 * Parse "name=value:name=value:..." (any order; ':' or ';' separate fields,
 * blanks around fields and around '=' ignored) or GPGPU-Sim's legacy
 * positional form "16:2:6:12:28:12:40:12:4:5:12[:4:3:2]" (no '=' anywhere:
 * the fields above in declaration order). Unknown, repeated or missing
 * names, empty fields, bad numbers and inconsistent bank counts are
 * WG_ECONFIG; err then names the parameter and, when it is in the string,
 * its field number (1-based) and character offset. *t is written only on
 * success.
 */
int wg_dram_timing_parse(struct wg_dram_timing *t, const char *s, char *err, size_t errlen);

#endif

/*
 * wg_link_proto.h: constants of the host <-> GPU link protocol (docs/protocol.md).
 *
 * Shared by the host (host/src/link.c) and the FX2LP firmware (built by sdcc
 * for the 8051), so everything outside the `#ifndef SDCC` section at the end is
 * a plain macro: no structs, no 64-bit integers, 32-bit constants with a UL
 * suffix (int is 16 bits on the 8051).
 *
 * Byte order is little-endian everywhere. A frame is
 *
 *   header (WGL_HDR_BYTES) | payload (LEN bytes: NREC records of one type) | CRC-32
 *
 * and every offset below is in bytes: header fields from the first sync byte,
 * record fields from the first byte of the record. A 64-bit value is two 32-bit
 * words, the low one first (..._LO at the offset, ..._HI at offset + 4).
 */
#ifndef WG_LINK_PROTO_H
#define WG_LINK_PROTO_H

#define WGL_VERSION 1u

/* ---- Frame ---------------------------------------------------------------- */

/* Sync word: the bytes A5 57 47 4C ("\xA5WGL") on the wire. */
#define WGL_SYNC0 0xA5u
#define WGL_SYNC1 0x57u
#define WGL_SYNC2 0x47u
#define WGL_SYNC3 0x4Cu
#define WGL_SYNC 0x4C4757A5UL /* the same as a little-endian 32-bit word */

#define WGL_HDR_BYTES 16u
#define WGL_CRC_BYTES 4u
#define WGL_FRAME_MAX 16384u                                        /* one 16 KB bulk transfer */
#define WGL_PAYLOAD_MAX (WGL_FRAME_MAX - WGL_HDR_BYTES - WGL_CRC_BYTES) /* 16364 */
#define WGL_PAYLOAD_MIN 1024u /* every receiver accepts payloads up to this size */
#define WGL_ALIGN 4u          /* payload lengths and record sizes are multiples of 4 */

/* Header fields. */
#define WGL_H_SYNC 0u  /* 4 bytes, WGL_SYNC0..3 */
#define WGL_H_TYPE 4u  /* u8, WGL_T_* */
#define WGL_H_FLAGS 5u /* u8, reserved: senders write 0, receivers ignore */
#define WGL_H_LEN 6u   /* u16, payload bytes = NREC x record size of TYPE */
#define WGL_H_SEQ 8u   /* u32, sequence number (data frames); next data sequence number (link frames) */
#define WGL_H_NREC 12u /* u16, records in the payload (1 for link frames) */
#define WGL_H_HCHK 14u /* u16, low 16 bits of the CRC-32 of header bytes 0..13 */
#define WGL_HCHK_SPAN 14u

/* CRC-32 of IEEE 802.3 (zlib, PNG): reflected polynomial, all-ones start and final XOR. */
#define WGL_CRC_POLY 0xEDB88320UL
#define WGL_CRC_INIT 0xFFFFFFFFUL
#define WGL_CRC_XOROUT 0xFFFFFFFFUL
#define WGL_CRC_CHECK 0xCBF43926UL /* CRC-32 of the ASCII bytes "123456789" */

/* ---- Frame types ---------------------------------------------------------- */

/*
 * 0x01..0x0F link frames (not sequenced; both directions)
 * 0x10 | op   a command, host -> GPU (op = the GPU top's command op, sim/wggpu.h)
 * 0x20 | kind an event, GPU -> host (kind = the GPU top's event kind)
 * 0x30        TRACE, GPU -> host
 * bit 6 set   the no-data form of a command or event: the same record without its
 *             data fields, which the receiver sets to zero
 * Anything else is reserved; 0x00 never starts a frame.
 */
#define WGL_T_HELLO 0x01u
#define WGL_T_ACK 0x02u
#define WGL_T_NAK 0x03u
#define WGL_T_LERR 0x04u
#define WGL_T_LINK_LAST 0x0Fu

#define WGL_T_CMD 0x10u
#define WGL_T_NOP 0x10u
#define WGL_T_RESET 0x11u
#define WGL_T_CFG 0x12u
#define WGL_T_IMEM 0x13u
#define WGL_T_CMEM 0x14u
#define WGL_T_LAUNCH 0x15u
#define WGL_T_MRSP 0x16u
#define WGL_T_GRANT 0x17u
#define WGL_T_LANE_EN 0x18u
#define WGL_T_CNT_READ 0x19u

#define WGL_T_EV 0x20u
#define WGL_T_MREQ 0x20u
#define WGL_T_DONE 0x21u
#define WGL_T_FAULT 0x22u
#define WGL_T_RETIRE 0x23u
#define WGL_T_REACHED 0x24u
#define WGL_T_COUNTERS 0x25u
#define WGL_T_ERROR 0x26u

#define WGL_T_TRACE 0x30u

#define WGL_T_NODATA 0x40u                            /* form bit */
#define WGL_T_MRSP_ND (WGL_T_MRSP | WGL_T_NODATA)     /* 0x56: response without data */
#define WGL_T_MREQ_ND (WGL_T_MREQ | WGL_T_NODATA)     /* 0x60: request without write mask and data */
#define WGL_T_RETIRE_ND (WGL_T_RETIRE | WGL_T_NODATA) /* 0x63: retire beat without lane values */

#define WGL_T_CODE(t) ((t) & 0x0Fu) /* command op or event kind of a command or event type */

/* Sizes and shared values of the GPU top (sim/wggpu.h, docs/sm.md). */
#define WGL_MEM_BYTES 128u  /* bytes of a memory transfer (a line) */
#define WGL_WMASK_BYTES 16u /* write mask: bit i = byte i */
#define WGL_LANES 32u       /* lane values of a retire beat */
#define WGL_CNT_WORDS 52u   /* 32-bit words of a counter snapshot (1664 bits) */
#define WGL_CFG_ALL 0x01u   /* command FLAGS bit: every SM (CFG, IMEM, CMEM, LANE_EN) */

/* ---- Link records --------------------------------------------------------- */

/* HELLO: version and the parameters of the sender's side (the GPU build for the GPU). */
#define WGL_HELLO_VERSION 0u      /* u16 */
#define WGL_HELLO_ROLE 2u         /* u8: WGL_ROLE_* */
#define WGL_HELLO_HFLAGS 3u       /* u8: WGL_HELLO_REPLY */
#define WGL_HELLO_MAX_PAYLOAD 4u  /* u32: largest payload this side accepts */
#define WGL_HELLO_WINDOW 8u       /* u32: frames this side keeps in flight */
#define WGL_HELLO_NUM_SMS 12u     /* u32 each from here on; 0 in the host's HELLO */
#define WGL_HELLO_NUM_WARPS 16u
#define WGL_HELLO_SIMD_WIDTH 20u
#define WGL_HELLO_NUM_SIMD 24u
#define WGL_HELLO_NUM_REGS 28u
#define WGL_HELLO_RF_BANKS 32u
#define WGL_HELLO_NUM_CTAS 36u
#define WGL_HELLO_DMEM_BYTES 40u
#define WGL_HELLO_L1_SETS 44u
#define WGL_HELLO_L1_MSHRS 48u
#define WGL_HELLO_IMEM_DEPTH 52u
#define WGL_HELLO_CMEM_BYTES 56u
#define WGL_HELLO_STACK_DEPTH 60u
#define WGL_HELLO_HAS_FP 64u
#define WGL_HELLO_MEM_BYTES 68u
#define WGL_HELLO_MEM_TAG_BITS 72u
#define WGL_HELLO_RETIRE_EN 76u
#define WGL_HELLO_RSP_DEPTH 80u
#define WGL_HELLO_LAUNCH_DEPTH 84u
#define WGL_HELLO_CNT_WORDS 88u
#define WGL_HELLO_SIZE 92u
#define WGL_ROLE_HOST 0u
#define WGL_ROLE_GPU 1u
#define WGL_HELLO_REPLY 0x01u

/* ACK: every data frame below NEXT has arrived. */
#define WGL_ACK_NEXT 0u /* u32 */
#define WGL_ACK_SIZE 4u

/* NAK: frame FROM is missing; resend from it (go-back-N). Acknowledges everything below FROM. */
#define WGL_NAK_FROM 0u /* u32 */
#define WGL_NAK_GOT 4u  /* u32: the sequence number that showed the gap */
#define WGL_NAK_SIZE 8u

/* LERR: an error the sender's receiver saw (diagnostics; recovery is by NAK and timeout). */
#define WGL_LERR_CODE 0u    /* u8: WGL_E_* */
#define WGL_LERR_TYPE 1u    /* u8: type of the frame concerned, 0 if unknown */
#define WGL_LERR_SEQ 4u     /* u32: its sequence number, 0 if unknown */
#define WGL_LERR_OFF_LO 8u  /* u64: offset in the receiver's byte stream */
#define WGL_LERR_OFF_HI 12u
#define WGL_LERR_EXPECTED 16u /* u32 */
#define WGL_LERR_ACTUAL 20u   /* u32 */
#define WGL_LERR_SIZE 24u

/* Link error codes (LERR records and host-side reports). */
#define WGL_E_SYNC 1u    /* bytes skipped while looking for a sync word */
#define WGL_E_HCHK 2u    /* header check mismatch */
#define WGL_E_LENGTH 3u  /* length too large or not NREC x record size */
#define WGL_E_TYPE 4u    /* unknown type, or a type of the other direction */
#define WGL_E_CRC 5u     /* frame CRC mismatch */
#define WGL_E_TRUNC 6u   /* the stream ended inside a frame */
#define WGL_E_GAP 7u     /* sequence number ahead of the expected one: frames lost */
#define WGL_E_DUP 8u     /* sequence number already delivered: dropped */
#define WGL_E_FIELD 9u   /* a record field out of range or a reserved field not zero */
#define WGL_E_STATE 10u  /* a frame that the link state does not allow (data before HELLO, peer reset) */
#define WGL_E_WINDOW 11u /* ACK or NAK of a frame that was never sent */
#define WGL_E_RETRY 12u  /* retransmission limit reached */
#define WGL_E_VERSION 13u /* HELLO of another version or with unusable parameters */
#define WGL_E_COUNT 14u

/* ---- Command records (host -> GPU) ---------------------------------------- */

/* Every command record starts with SM, FLAGS and TAG. */
#define WGL_C_SM 0u    /* u8: target SM */
#define WGL_C_FLAGS 1u /* u8: WGL_CFG_ALL */
#define WGL_C_TAG 2u   /* u16: memory tag (MRSP), else 0 */
#define WGL_CNT_READ_PAGE 2u /* u16: CNT_READ's page (the GPU's addr, docs/gpu.md section 4.3) */

#define WGL_NOP_SIZE 4u
#define WGL_RESET_SIZE 4u
#define WGL_CNT_READ_SIZE 4u

#define WGL_CFG_ADDR 4u  /* u32: kernel register */
#define WGL_CFG_VALUE 8u /* u32 */
#define WGL_CFG_SIZE 12u

#define WGL_IMEM_ADDR 4u /* u32: pc */
#define WGL_IMEM_WORD 8u /* 8 bytes: the instruction word */
#define WGL_IMEM_SIZE 16u

#define WGL_CMEM_ADDR 4u  /* u32: word index */
#define WGL_CMEM_VALUE 8u /* u32 */
#define WGL_CMEM_SIZE 12u

#define WGL_LAUNCH_AT_LO 4u /* u64: target cycle */
#define WGL_LAUNCH_AT_HI 8u
#define WGL_LAUNCH_LINEAR 12u /* u32: linear CTA id */
#define WGL_LAUNCH_X 16u      /* u16 x3: CTA index */
#define WGL_LAUNCH_Y 18u
#define WGL_LAUNCH_Z 20u
#define WGL_LAUNCH_SIZE 24u /* bytes 22..23 reserved */

#define WGL_MRSP_AT_LO 4u /* u64: target cycle */
#define WGL_MRSP_AT_HI 8u
#define WGL_MRSP_DATA 12u /* WGL_MEM_BYTES bytes (not in the no-data form) */
#define WGL_MRSP_SIZE 140u
#define WGL_MRSP_ND_SIZE 12u

#define WGL_GRANT_AT_LO 4u /* u64: the new grant */
#define WGL_GRANT_AT_HI 8u
#define WGL_GRANT_SIZE 12u

#define WGL_LANE_EN_VALUE 4u /* u32: lane enables, bit per lane */
#define WGL_LANE_EN_SIZE 8u

/* ---- Event records (GPU -> host) ------------------------------------------ */

/* Every event record starts with SM and the target cycle at bytes 4..11. */
#define WGL_V_SM 0u
#define WGL_V_CYCLE_LO 4u
#define WGL_V_CYCLE_HI 8u

#define WGL_MREQ_CMD 1u     /* u8: 0 read, 1 write, 2 atomic */
#define WGL_MREQ_TAG 2u     /* u16 */
#define WGL_MREQ_ADDR 12u   /* u32 */
#define WGL_MREQ_ATOM_B 16u /* u32 */
#define WGL_MREQ_ATOM_C 20u /* u32 */
#define WGL_MREQ_PC 24u     /* u32, 18 bits */
#define WGL_MREQ_SIZE_LOG2 28u /* u8: log2 bytes, 0..7 */
#define WGL_MREQ_ATOM_OP 29u   /* u8, 0..15 */
#define WGL_MREQ_WARP 30u      /* u8, 0..63 */
#define WGL_MREQ_LANE 31u      /* u8, 0..31 */
#define WGL_MREQ_MFLAGS 32u    /* u8: WGL_MREQ_LOCAL | WGL_MREQ_WB; bytes 33..35 reserved */
#define WGL_MREQ_WMASK 36u     /* WGL_WMASK_BYTES (not in the no-data form) */
#define WGL_MREQ_WDATA 52u     /* WGL_MEM_BYTES (not in the no-data form) */
#define WGL_MREQ_SIZE 180u
#define WGL_MREQ_ND_SIZE 36u
#define WGL_MREQ_LOCAL 0x01u
#define WGL_MREQ_WB 0x02u

#define WGL_DONE_LINEAR 12u /* u32; bytes 1..3 reserved */
#define WGL_DONE_SIZE 16u

#define WGL_FAULT_CODE 1u    /* u8, 0..15 */
#define WGL_FAULT_WARP 2u    /* u8, 0..63 */
#define WGL_FAULT_LANE 3u    /* u8, 0..31 */
#define WGL_FAULT_PC 12u     /* u32, 18 bits */
#define WGL_FAULT_ADDR 16u   /* u32 */
#define WGL_FAULT_LINEAR 20u /* u32 */
#define WGL_FAULT_SIZE 24u

#define WGL_RETIRE_WARP 1u    /* u8, 0..63 */
#define WGL_RETIRE_SEQ 2u     /* u16 */
#define WGL_RETIRE_LINEAR 12u /* u32 */
#define WGL_RETIRE_PC 16u     /* u32, 18 bits */
#define WGL_RETIRE_ACTIVE 20u /* u32 */
#define WGL_RETIRE_EXEC 24u   /* u32 */
#define WGL_RETIRE_WIC 28u    /* u8, 0..31 */
#define WGL_RETIRE_DST 29u    /* u8, 0..3 */
#define WGL_RETIRE_REG 30u    /* u8, 0..63 */
#define WGL_RETIRE_BEAT 31u   /* u8, 0..3 */
#define WGL_RETIRE_LAST 32u   /* u8, 0..1; bytes 33..35 reserved */
#define WGL_RETIRE_DATA 36u   /* WGL_LANES x u32 (not in the no-data form) */
#define WGL_RETIRE_SIZE 164u
#define WGL_RETIRE_ND_SIZE 36u

#define WGL_REACHED_BUSY_LO 12u /* u64: SM i busy = bit i; bytes 1..3 reserved */
#define WGL_REACHED_BUSY_HI 16u
#define WGL_REACHED_SIZE 20u

#define WGL_COUNTERS_CNT 12u /* WGL_CNT_WORDS x u32; bytes 1..3 reserved */
#define WGL_COUNTERS_SIZE 220u

#define WGL_ERROR_ERR 1u /* u8, 0..15; bytes 2..3 reserved */
#define WGL_ERROR_SIZE 12u

/* TRACE: 32-bit words, blocks of docs/protocol.md section 9 (decoded by host/src/pgtrace.c). */
#define WGL_TRACE_WORD 4u

#define WGL_REC_MAX WGL_MREQ_SIZE /* the largest record */

/* ---- Host-only helpers ---------------------------------------------------- */
#ifndef SDCC
#include <stdint.h>

static inline uint16_t wgl_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static inline uint32_t wgl_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t wgl_get64(const uint8_t *p)
{
	return (uint64_t)wgl_get32(p) | (uint64_t)wgl_get32(p + 4) << 32;
}

static inline void wgl_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void wgl_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void wgl_put64(uint8_t *p, uint64_t v)
{
	wgl_put32(p, (uint32_t)v);
	wgl_put32(p + 4, (uint32_t)(v >> 32));
}
#endif /* SDCC */

#endif

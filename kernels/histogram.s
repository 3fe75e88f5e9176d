; histogram.s: 256-bin histogram of n bytes, two ways.
;
;   hist_shared  per-CTA histogram in shared memory with ATOMS.ADD, then one
;                ATOMG.ADD per non-empty bin into the global histogram
;   hist_global  every thread adds its byte straight into the global
;                histogram with ATOMG.ADD
;
; hist[] (256 words) must be zeroed beforehand. Parameters (both kernels):
; n @0, data @8, hist @16.

; Any 1-D grid and block: a grid-stride loop covers the n bytes.
.kernel hist_shared
.regs 9
.shared 1024                        ; bins[256], 32-bit counters
.param u32 n
.param ptr data
.param ptr hist
    S2R R0, SR_TID.X                ; R0 = tid
    S2R R1, SR_NTID.X               ; R1 = ntid
    SHL R2, R0, 2                   ; R2 = &bins[tid]
    SHL R3, R1, 2                   ; R3 = ntid * 4, bins per pass in bytes
    ; clear the shared bins: bins[b] = 0 for b = tid, tid + ntid, ... < 256
    ISETP.GE.U32 P0, R2, 1024
@P0 BRA clear_done                  ; more threads than bins
clear:
    STS.32 [R2], RZ
    IADD R2, R2, R3
    ISETP.LT.U32 P0, R2, 1024
@P0 BRA clear
clear_done:
    BAR.SYNC 0                      ; bins cleared before anyone counts
    S2R R2, SR_CTAID.X
    IMAD R2, R2, R1, R0             ; R2 = i = ctaid.x * ntid + tid
    S2R R4, SR_NCTAID.X
    IMUL R4, R4, R1                 ; R4 = S = ntid * nctaid, the stride
    LDC.32 R5, [n]                  ; R5 = n
    LDC.32 R6, [data]               ; R6 = data
    ISETP.GE.U32 P0, R2, R5
@P0 BRA count_done                  ; no byte for this thread
count:
    IADD R7, R6, R2
    LDG.U8 R7, [R7]                 ; R7 = data[i]
    SHL R7, R7, 2
    ATOMS.ADD RZ, [R7], 1           ; bins[data[i]]++
    IADD R2, R2, R4                 ; i += S
    ISETP.LT.U32 P0, R2, R5
@P0 BRA count
count_done:
    BAR.SYNC 0                      ; all bytes of the CTA counted
    ; merge: hist[b] += bins[b] for b = tid, tid + ntid, ... < 256
    SHL R2, R0, 2                   ; R2 = &bins[tid]
    ISETP.GE.U32 P0, R2, 1024
@P0 EXIT                            ; more threads than bins
    LDC.32 R6, [hist]               ; R6 = hist
merge:
    LDS.32 R7, [R2]                 ; R7 = bins[b]
    ISETP.NE P1, R7, 0
    IADD R8, R6, R2                 ; R8 = &hist[b]
@P1 ATOMG.ADD RZ, [R8], R7          ; empty bins cost no global atomic
    IADD R2, R2, R3
    ISETP.LT.U32 P0, R2, 1024
@P0 BRA merge
    EXIT

; One byte per thread: ceil(n / ntid.x) CTAs.
.kernel hist_global
.regs 4
.param u32 n
.param ptr data
.param ptr hist
    S2R R0, SR_CTAID.X
    S2R R1, SR_NTID.X
    S2R R2, SR_TID.X
    IMAD R0, R0, R1, R2             ; R0 = i = ctaid.x * ntid.x + tid.x
    LDC.32 R1, [n]
    ISETP.GE.U32 P0, R0, R1
@P0 EXIT                            ; past the end of the data
    LDC.32 R1, [data]
    IADD R1, R1, R0
    LDG.U8 R2, [R1]                 ; R2 = data[i]
    LDC.32 R3, [hist]
    SHL R2, R2, 2
    IADD R3, R3, R2                 ; R3 = &hist[data[i]]
    ATOMG.ADD RZ, [R3], 1
    EXIT

; reduce.s: sum of n 32-bit integers (mod 2^32), one partial sum per CTA.
;
;   out[ctaid.x] = sum of in[i] over the elements of this CTA
;
; Phase 1, grid-stride loop: thread i adds in[i], in[i + S], in[i + 2S], ...
; (S = ntid.x * nctaid.x) into a register.
; Phase 2, tree in shared memory: the ntid.x sums go to sh[tid]; then for
; s = ntid.x/2, ntid.x/4, ..., 1, after a barrier, threads tid < s add
; sh[tid + s] to their sum and store it back to sh[tid]. Thread 0 ends with
; the CTA's total and writes out[ctaid.x].
;
; Launch: 1-D blocks whose size is a power of two, dynamic shared memory of
; ntid.x * 4 bytes (the tree); any grid. A second launch with one CTA over
; the partial sums (n = number of CTAs of the first) gives the grand total.
; Parameters: n @0, in @8, out @16.

.kernel reduce
.regs 9
.shared 0                           ; sh[] is the dynamic shared memory
.param u32 n
.param ptr in
.param ptr out
    S2R R0, SR_TID.X                ; R0 = tid
    S2R R1, SR_NTID.X               ; R1 = ntid
    S2R R2, SR_CTAID.X              ; R2 = ctaid
    S2R R3, SR_NCTAID.X
    IMUL R3, R3, R1                 ; R3 = S = ntid * nctaid, the stride
    IMAD R4, R2, R1, R0             ; R4 = i = ctaid * ntid + tid
    LDC.32 R5, [n]                  ; R5 = n
    LDC.32 R6, [in]                 ; R6 = in
    MOV R7, 0                       ; R7 = sum
    ISETP.GE.U32 P0, R4, R5
@P0 BRA acc_done                    ; no element for this thread
acc_loop:
    SHL R8, R4, 2
    IADD R8, R6, R8                 ; R8 = &in[i]
    LDG.32 R8, [R8]
    IADD R7, R7, R8                 ; sum += in[i]
    IADD R4, R4, R3                 ; i += S
    ISETP.LT.U32 P0, R4, R5
@P0 BRA acc_loop
acc_done:
    SHL R3, R0, 2                   ; R3 = &sh[tid] (byte offset)
    STS.32 [R3], R7                 ; sh[tid] = sum
    SHR.U32 R4, R1, 1               ; R4 = s = ntid / 2
    ISETP.EQ P1, R4, 0
@P1 BRA tree_done                   ; one-thread CTA: nothing to fold
tree:
    BAR.SYNC 0                      ; the previous level's stores are done
    ISETP.GE.U32 P0, R0, R4
@P0 BRA tree_next                   ; tid >= s: idle on this level
    SHL R5, R4, 2
    IADD R5, R3, R5                 ; R5 = &sh[tid + s]
    LDS.32 R5, [R5]
    IADD R7, R7, R5                 ; sum += sh[tid + s]
    STS.32 [R3], R7                 ; sh[tid] = sum
tree_next:
    SHR.U32 R4, R4, 1               ; s /= 2
    ISETP.NE P1, R4, 0
@P1 BRA tree
tree_done:
    ISETP.NE P0, R0, 0
@P0 EXIT                            ; only thread 0 holds the CTA's total
    LDC.32 R5, [out]
    SHL R2, R2, 2
    IADD R5, R5, R2                 ; R5 = &out[ctaid]
    STG.32 [R5], R7
    EXIT

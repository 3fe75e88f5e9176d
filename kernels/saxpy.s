; saxpy.s: y = a * x + y on FP32 vectors, with one fused multiply-add (FFMA)
; per element.
;
; Grid-stride loop: thread i handles elements i, i + S, i + 2S, ... where
; S = ntid.x * nctaid.x, so any grid covers any n; threads with i >= n from
; the start leave at once. Parameters: n @0, a @4, x @8, y @16.

.kernel saxpy
.regs 9
.param u32 n
.param f32 a
.param ptr x
.param ptr y
    S2R R0, SR_CTAID.X
    S2R R1, SR_NTID.X
    S2R R2, SR_TID.X
    IMAD R0, R0, R1, R2             ; R0 = i = ctaid.x * ntid.x + tid.x
    S2R R2, SR_NCTAID.X
    IMUL R1, R1, R2                 ; R1 = S = ntid.x * nctaid.x, the stride
    LDC.32 R2, [n]                  ; R2 = n
    LDC.32 R3, [a]                  ; R3 = a
    LDC.32 R4, [x]                  ; R4 = x
    LDC.32 R5, [y]                  ; R5 = y
    ISETP.GE.U32 P0, R0, R2
@P0 EXIT                            ; no element for this thread
loop:
    SHL R6, R0, 2                   ; R6 = i * 4
    IADD R7, R4, R6                 ; R7 = &x[i]
    IADD R6, R5, R6                 ; R6 = &y[i]
    LDG.32 R7, [R7]                 ; R7 = x[i]
    LDG.32 R8, [R6]                 ; R8 = y[i]
    FFMA R8, R3, R7, R8             ; R8 = a * x[i] + y[i], one rounding
    STG.32 [R6], R8
    IADD R0, R0, R1                 ; i += S
    ISETP.LT.U32 P0, R0, R2
@P0 BRA loop
    EXIT

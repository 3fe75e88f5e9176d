; vecadd.s: element-wise vector addition, one element per thread.
;
;   vecadd      c[i] = a[i] + b[i]   32-bit integers (mod 2^32)
;   vecadd_f32  c[i] = a[i] + b[i]   FP32
;
; Launch: 1-D grid, 1-D blocks, ceil(n / ntid.x) CTAs; threads with i >= n
; leave at once. Parameters (CUDA packing): a @0, b @8, c @16, n @24.

.kernel vecadd
.regs 6
.param ptr a
.param ptr b
.param ptr c
.param u32 n
    ; R0 = i = ctaid.x * ntid.x + tid.x
    S2R R0, SR_CTAID.X
    S2R R1, SR_NTID.X
    S2R R2, SR_TID.X
    IMAD R0, R0, R1, R2
    LDC.32 R1, [n]                  ; R1 = n
    ISETP.GE.U32 P0, R0, R1
@P0 EXIT                            ; past the end of the vectors
    SHL R0, R0, 2                   ; R0 = byte offset i * 4
    LDC.32 R1, [a]                  ; R1 = &a[i]
    IADD R1, R1, R0
    LDC.32 R2, [b]                  ; R2 = &b[i]
    IADD R2, R2, R0
    LDC.32 R5, [c]                  ; R5 = &c[i]
    IADD R5, R5, R0
    LDG.32 R3, [R1]                 ; R3 = a[i]
    LDG.32 R4, [R2]                 ; R4 = b[i]
    IADD R3, R3, R4
    STG.32 [R5], R3                 ; c[i] = a[i] + b[i]
    EXIT

.kernel vecadd_f32
.regs 6
.param ptr a
.param ptr b
.param ptr c
.param u32 n
    ; R0 = i = ctaid.x * ntid.x + tid.x
    S2R R0, SR_CTAID.X
    S2R R1, SR_NTID.X
    S2R R2, SR_TID.X
    IMAD R0, R0, R1, R2
    LDC.32 R1, [n]                  ; R1 = n
    ISETP.GE.U32 P0, R0, R1
@P0 EXIT                            ; past the end of the vectors
    SHL R0, R0, 2                   ; R0 = byte offset i * 4
    LDC.32 R1, [a]                  ; R1 = &a[i]
    IADD R1, R1, R0
    LDC.32 R2, [b]                  ; R2 = &b[i]
    IADD R2, R2, R0
    LDC.32 R5, [c]                  ; R5 = &c[i]
    IADD R5, R5, R0
    LDG.32 R3, [R1]                 ; R3 = a[i]
    LDG.32 R4, [R2]                 ; R4 = b[i]
    FADD R3, R3, R4
    STG.32 [R5], R3                 ; c[i] = a[i] + b[i]
    EXIT

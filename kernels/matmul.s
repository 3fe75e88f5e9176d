; matmul.s: C = A * B for N x N FP32 matrices (row-major), N a multiple of 16,
; tiled in shared memory.
;
; Launch: grid (N/16, N/16), blocks (16, 16). Thread (tx, ty) of CTA
; (bx, by) computes C[row][col], row = by*16 + ty, col = bx*16 + tx. For each
; of the N/16 tiles t the CTA stages As = A[by*16.., t*16..] and
; Bs = B[t*16.., bx*16..] (16 x 16 each) in shared memory, waits on a
; barrier, and every thread accumulates
;     acc = As[ty][k] * Bs[k][tx] + acc      k = 0..15, one FFMA each
; (As[ty][k..k+3] come in one 128-bit shared load), then a second barrier
; lets the tile be overwritten. Summation order is k = 0..N-1, as in the
; host reference.
;
; Shared memory: As at 0 (1024 bytes), Bs at 1024 (1024 bytes).
; Parameters: n @0, a @8, b @16, c @24.

.kernel matmul
.regs 20
.shared 2048
.param u32 n
.param ptr a
.param ptr b
.param ptr c
    S2R R0, SR_TID.X                ; R0 = tx
    S2R R1, SR_TID.Y                ; R1 = ty
    S2R R2, SR_CTAID.Y
    S2R R3, SR_CTAID.X
    LDC.32 R4, [n]                  ; R4 = N
    SHL R2, R2, 4
    IADD R2, R2, R1                 ; R2 = row = by*16 + ty
    SHL R3, R3, 4
    IADD R3, R3, R0                 ; R3 = col = bx*16 + tx
    ; R10 = &C[row][col]
    IMAD R10, R2, R4, R3
    SHL R10, R10, 2
    LDC.32 R11, [c]
    IADD R10, R10, R11
    ; R2 = &A[row][tx], this thread's element of the first A tile
    IMAD R2, R2, R4, R0
    SHL R2, R2, 2
    LDC.32 R11, [a]
    IADD R2, R2, R11
    ; R3 = &B[ty][col], this thread's element of the first B tile
    IMAD R3, R1, R4, R3
    SHL R3, R3, 2
    LDC.32 R11, [b]
    IADD R3, R3, R11
    SHR.U32 R5, R4, 4               ; R5 = tiles left = N / 16
    SHL R4, R4, 6                   ; R4 = 16 rows of B in bytes = N * 64
    SHL R6, R1, 4
    IADD R6, R6, R0
    SHL R6, R6, 2                   ; R6 = (ty*16 + tx) * 4: As[ty][tx], Bs[ty][tx] - 1024
    SHL R7, R1, 6                   ; R7 = &As[ty][0] = ty * 64
    SHL R8, R0, 2
    IADD R8, R8, 1024               ; R8 = &Bs[0][tx] = 1024 + tx * 4
    MOV R9, 0                       ; R9 = acc = 0.0
    ; R11 = staging register; R12..R15 = As[ty][k..k+3]; R16..R19 = Bs[k..k+3][tx]
tile:
    LDG.32 R11, [R2]
    STS.32 [R6], R11                ; As[ty][tx] = A[row][t*16 + tx]
    LDG.32 R11, [R3]
    STS.32 [R6+1024], R11           ; Bs[ty][tx] = B[t*16 + ty][col]
    BAR.SYNC 0                      ; tile staged
    LDS.128 R12, [R7]               ; As[ty][0..3]
    LDS.32 R16, [R8]                ; Bs[0][tx]
    LDS.32 R17, [R8+64]             ; Bs[1][tx]
    LDS.32 R18, [R8+128]            ; Bs[2][tx]
    LDS.32 R19, [R8+192]            ; Bs[3][tx]
    FFMA R9, R12, R16, R9
    FFMA R9, R13, R17, R9
    FFMA R9, R14, R18, R9
    FFMA R9, R15, R19, R9
    LDS.128 R12, [R7+16]            ; As[ty][4..7]
    LDS.32 R16, [R8+256]            ; Bs[4][tx]
    LDS.32 R17, [R8+320]            ; Bs[5][tx]
    LDS.32 R18, [R8+384]            ; Bs[6][tx]
    LDS.32 R19, [R8+448]            ; Bs[7][tx]
    FFMA R9, R12, R16, R9
    FFMA R9, R13, R17, R9
    FFMA R9, R14, R18, R9
    FFMA R9, R15, R19, R9
    LDS.128 R12, [R7+32]            ; As[ty][8..11]
    LDS.32 R16, [R8+512]            ; Bs[8][tx]
    LDS.32 R17, [R8+576]            ; Bs[9][tx]
    LDS.32 R18, [R8+640]            ; Bs[10][tx]
    LDS.32 R19, [R8+704]            ; Bs[11][tx]
    FFMA R9, R12, R16, R9
    FFMA R9, R13, R17, R9
    FFMA R9, R14, R18, R9
    FFMA R9, R15, R19, R9
    LDS.128 R12, [R7+48]            ; As[ty][12..15]
    LDS.32 R16, [R8+768]            ; Bs[12][tx]
    LDS.32 R17, [R8+832]            ; Bs[13][tx]
    LDS.32 R18, [R8+896]            ; Bs[14][tx]
    LDS.32 R19, [R8+960]            ; Bs[15][tx]
    FFMA R9, R12, R16, R9
    FFMA R9, R13, R17, R9
    FFMA R9, R14, R18, R9
    FFMA R9, R15, R19, R9
    BAR.SYNC 0                      ; everyone is done with the tile
    IADD R2, R2, 64                 ; A: 16 columns to the right
    IADD R3, R3, R4                 ; B: 16 rows down
    IADD R5, R5, -1
    ISETP.NE P0, R5, 0
@P0 BRA tile
    STG.32 [R10], R9                ; C[row][col] = acc
    EXIT

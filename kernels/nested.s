; nested.s: nested divergence inside a loop with a data-dependent break.
;
; Both kernels compute, for every i < n (idx wraps around at n):
;
;   acc = 0; idx = i
;   repeat (i & 15) + 1 times:                  trip count varies per lane
;       v = in[idx]
;       if (v is odd) {                         outer if/else on data
;           if (v & 2) acc += v                 inner if/else on data
;           else       acc ^= v << 1
;           acc += idx
;       } else {
;           acc = acc * 3 + 1
;           if (v > limit) break                data-dependent loop exit
;       }
;       idx = idx + 1, 0 at n
;   out[i] = acc
;
;   nested        structured: the else arm only computes the break
;                 condition, the branch out of the loop sits at the join of
;                 the if/else, so the if/else reconverges in every iteration.
;   nested_break  the break leaves straight from the else arm: the outer
;                 if/else then reconverges only at the loop exit (its
;                 immediate post-dominator), and each side of it runs the
;                 rest of the loop on its own.
;
; Launch: 1-D, ceil(n / ntid.x) CTAs. Parameters: n @0, limit @4, in @8,
; out @16.
;
; Registers (both kernels): R0 = i, R1 = n, R2 = trips left, R3 = acc,
; R4 = idx, R5 = in (out at the end), R6 = limit, R7 = v, R8 = scratch.
; Predicates: P0 = v even, P1 = break, P2 = scratch.

.kernel nested
.regs 9
.param u32 n
.param u32 limit
.param ptr in
.param ptr out
    S2R R0, SR_CTAID.X
    S2R R1, SR_NTID.X
    S2R R2, SR_TID.X
    IMAD R0, R0, R1, R2             ; R0 = i = ctaid.x * ntid.x + tid.x
    LDC.32 R1, [n]                  ; R1 = n
    ISETP.GE.U32 P0, R0, R1
@P0 EXIT                            ; past the end of the data
    AND R2, R0, 15
    IADD R2, R2, 1                  ; R2 = trips = (i & 15) + 1
    MOV R3, 0                       ; R3 = acc
    MOV R4, R0                      ; R4 = idx = i
    LDC.32 R5, [in]                 ; R5 = in
    LDC.32 R6, [limit]              ; R6 = limit
loop:
    SHL R8, R4, 2
    IADD R8, R5, R8
    LDG.32 R7, [R8]                 ; R7 = v = in[idx]
    AND R8, R7, 1
    ISETP.EQ P0, R8, 0              ; P0 = v even
    ISETP.GT.U32 P1, R7, R6
    PLOP.AND P1, P1, P0             ; P1 = break = v even and v > limit
@P0 BRA even                        ; outer if/else
    AND R8, R7, 2
    ISETP.EQ P2, R8, 0
@P2 BRA odd_xor                     ; inner if/else
    IADD R3, R3, R7                 ; acc += v
    BRA odd_tail
odd_xor:
    SHL R8, R7, 1
    XOR R3, R3, R8                  ; acc ^= v << 1
odd_tail:
    IADD R3, R3, R4                 ; acc += idx (the inner if/else has joined)
    BRA join
even:
    IMUL R3, R3, 3
    IADD R3, R3, 1                  ; acc = acc * 3 + 1
join:
@P1 BRA done                        ; break
    IADD R4, R4, 1
    ISETP.EQ P2, R4, R1
@P2 MOV R4, 0                       ; idx = idx + 1, 0 at n
    IADD R2, R2, -1
    ISETP.NE P2, R2, 0
@P2 BRA loop                        ; next trip
done:
    LDC.32 R5, [out]
    SHL R8, R0, 2
    IADD R8, R5, R8
    STG.32 [R8], R3                 ; out[i] = acc
    EXIT

.kernel nested_break
.regs 9
.param u32 n
.param u32 limit
.param ptr in
.param ptr out
    S2R R0, SR_CTAID.X
    S2R R1, SR_NTID.X
    S2R R2, SR_TID.X
    IMAD R0, R0, R1, R2             ; R0 = i = ctaid.x * ntid.x + tid.x
    LDC.32 R1, [n]                  ; R1 = n
    ISETP.GE.U32 P0, R0, R1
@P0 EXIT                            ; past the end of the data
    AND R2, R0, 15
    IADD R2, R2, 1                  ; R2 = trips = (i & 15) + 1
    MOV R3, 0                       ; R3 = acc
    MOV R4, R0                      ; R4 = idx = i
    LDC.32 R5, [in]                 ; R5 = in
    LDC.32 R6, [limit]              ; R6 = limit
loop:
    SHL R8, R4, 2
    IADD R8, R5, R8
    LDG.32 R7, [R8]                 ; R7 = v = in[idx]
    AND R8, R7, 1
    ISETP.EQ P0, R8, 0              ; P0 = v even
@P0 BRA even                        ; outer if/else: reconverges at done
    AND R8, R7, 2
    ISETP.EQ P2, R8, 0
@P2 BRA odd_xor                     ; inner if/else
    IADD R3, R3, R7                 ; acc += v
    BRA odd_tail
odd_xor:
    SHL R8, R7, 1
    XOR R3, R3, R8                  ; acc ^= v << 1
odd_tail:
    IADD R3, R3, R4                 ; acc += idx (the inner if/else has joined)
    BRA latch
even:
    IMUL R3, R3, 3
    IADD R3, R3, 1                  ; acc = acc * 3 + 1
    ISETP.GT.U32 P1, R7, R6
@P1 BRA done                        ; break straight out of the else arm
latch:
    IADD R4, R4, 1
    ISETP.EQ P2, R4, R1
@P2 MOV R4, 0                       ; idx = idx + 1, 0 at n
    IADD R2, R2, -1
    ISETP.NE P2, R2, 0
@P2 BRA loop                        ; next trip
done:
    LDC.32 R5, [out]
    SHL R8, R0, 2
    IADD R8, R5, R8
    STG.32 [R8], R3                 ; out[i] = acc
    EXIT

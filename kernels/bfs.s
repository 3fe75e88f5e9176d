; bfs.s: one level of a breadth-first search over a graph in CSR form.
;
; Thread i takes vertex v = frontier[i] (i < nfront) and walks its edges
; col_idx[row_ptr[v] .. row_ptr[v+1]-1]. A neighbour u that is still
; unreached (dist[u] == -1) is claimed with a compare-and-swap that sets
; dist[u] = level + 1; the winner appends u to the next frontier through an
; atomic counter. Loop trip counts differ per thread (vertex degrees) and the
; claim is taken by some lanes only: the warp diverges at every level.
;
; Launch: 1-D, ceil(nfront / ntid.x) CTAs; *next_count = 0 beforehand.
; Parameters: nfront @0, level @4, row_ptr @8, col_idx @16, frontier @24,
; next @32, next_count @40, dist @48.

.kernel bfs_step
.regs 11
.param u32 nfront                   ; vertices in the frontier
.param u32 level                    ; their distance from the source
.param ptr row_ptr                  ; CSR: V + 1 edge offsets
.param ptr col_idx                  ; CSR: E neighbour ids
.param ptr frontier                 ; the frontier's vertex ids
.param ptr next                     ; the next frontier (written)
.param ptr next_count               ; its length (atomic counter)
.param ptr dist                     ; distance per vertex, -1 = unreached
    S2R R0, SR_CTAID.X
    S2R R1, SR_NTID.X
    S2R R2, SR_TID.X
    IMAD R0, R0, R1, R2             ; R0 = i = ctaid.x * ntid.x + tid.x
    LDC.32 R1, [nfront]
    ISETP.GE.U32 P0, R0, R1
@P0 EXIT                            ; no frontier vertex for this thread
    LDC.32 R1, [frontier]
    SHL R0, R0, 2
    IADD R1, R1, R0
    LDG.32 R0, [R1]                 ; R0 = v = frontier[i]
    LDC.32 R1, [row_ptr]
    SHL R0, R0, 2
    IADD R1, R1, R0                 ; R1 = &row_ptr[v]
    LDG.32 R2, [R1]                 ; R2 = first edge
    LDG.32 R3, [R1+4]               ; R3 = end edge
    ISETP.GE.U32 P0, R2, R3
@P0 EXIT                            ; v has no edges
    LDC.32 R1, [col_idx]
    SHL R2, R2, 2
    IADD R2, R1, R2                 ; R2 = edge cursor, &col_idx[first]
    SHL R3, R3, 2
    IADD R3, R1, R3                 ; R3 = &col_idx[end]
    LDC.32 R4, [level]
    IADD R4, R4, 1                  ; R4 = level + 1, the neighbours' distance
    LDC.32 R5, [dist]               ; R5 = dist
    LDC.32 R6, [next]               ; R6 = next
    LDC.32 R7, [next_count]         ; R7 = &next_count
edge:
    LDG.32 R8, [R2]                 ; R8 = u, the neighbour
    SHL R9, R8, 2
    IADD R9, R5, R9                 ; R9 = &dist[u]
    LDG.CG.32 R10, [R9]             ; R10 = dist[u], from L2: atomics write it
    ISETP.NE P0, R10, -1
@P0 BRA edge_next                   ; u reached already
    ATOMG.CAS R10, [R9], -1, R4     ; dist[u] = level + 1 if still -1; R10 = old
    ISETP.NE P0, R10, -1
@P0 BRA edge_next                   ; another lane or thread claimed u first
    ATOMG.ADD R10, [R7], 1          ; R10 = slot in the next frontier
    SHL R10, R10, 2
    IADD R10, R6, R10
    STG.32 [R10], R8                ; next[slot] = u
edge_next:
    IADD R2, R2, 4                  ; next edge
    ISETP.LT.U32 P0, R2, R3
@P0 BRA edge
    EXIT

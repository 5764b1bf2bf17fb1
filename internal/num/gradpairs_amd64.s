//go:build amd64 && !purego

#include "textflag.h"

// WORKER2 adds ds (X3) times d_j (X0) to gw[w] and ds times e[w] to t_j
// (X1), w = worker[CX], or jumps to OUTSIDE if w is outside e (R15). It
// uses BX and X4.
#define WORKER2(OUTSIDE) \
	MOVL  (SI)(CX*4), BX; \
	CMPQ  BX, R15; \
	JAE   OUTSIDE; \
	MOVSD X3, X4; \
	MULSD X0, X4; \
	ADDSD (R14)(BX*8), X4; \
	MOVSD X4, (R14)(BX*8); \
	MULSD (R11)(BX*8), X3; \
	ADDSD X3, X1

// SETUP2 loads the slices' bases: SI worker, DI label, R8 off, R9 p, R10
// g, R11 e, R12 d, R14 gw; R13 the number of groups, R15 len(e); CX (the
// label) and DX (the group) 0.
#define SETUP2 \
	MOVQ worker_base+0(FP), SI; \
	MOVQ label_base+24(FP), DI; \
	MOVQ off_base+48(FP), R8; \
	MOVQ off_len+56(FP), R13; \
	DECQ R13; \
	MOVQ p_base+72(FP), R9; \
	MOVQ g_base+96(FP), R10; \
	MOVQ e_base+120(FP), R11; \
	MOVQ e_len+128(FP), R15; \
	MOVQ d_base+144(FP), R12; \
	MOVQ gw_base+168(FP), R14; \
	XORQ CX, CX; \
	XORQ DX, DX

// GROUP2 starts group DX, or jumps to DONE after the last: AX its end,
// from the first label, X0 d_j and X1 t_j = 0.
#define GROUP2(DONE) \
	CMPQ  DX, R13; \
	JGE   DONE; \
	MOVQ  8(R8)(DX*8), AX; \
	SUBQ  (R8), AX; \
	MOVSD (R12)(DX*8), X0; \
	XORPS X1, X1

// GROUPEND2 adds t_j (X1) times d_j (X0) to gobj[DX] and moves to the
// next group. It uses BX.
#define GROUPEND2 \
	MULSD X0, X1; \
	MOVQ  gobj_base+192(FP), BX; \
	ADDSD (BX)(DX*8), X1; \
	MOVSD X1, (BX)(DX*8); \
	INCQ  DX

// func sigmoidGradPairsAsm(worker []int32, label []uint16, off []int, p, g, e, d, gw, gobj []float64) int
//
// SI worker, DI label, R8 off, R9 p, R10 g, R11 e, R12 d, R13 the number
// of groups, R14 gw, R15 len(e); CX the label, DX the group, AX the
// group's end, BX scratch; X0 d_j, X1 t_j.
TEXT ·sigmoidGradPairsAsm(SB), NOSPLIT, $0-224
	SETUP2

group:
	GROUP2(done)
	CMPQ CX, AX
	JGE  groupend

label:
	// ds = g[2i+y] - p[2i+y]·(g[2i] + g[2i+1])
	LEAQ    (CX)(CX*1), BX
	MOVSD   (R10)(BX*8), X2
	ADDSD   8(R10)(BX*8), X2
	MOVWLZX (DI)(CX*2), BX
	ANDL    $1, BX
	LEAQ    (BX)(CX*2), BX
	MULSD   (R9)(BX*8), X2
	MOVSD   (R10)(BX*8), X3
	SUBSD   X2, X3
	WORKER2(outside)
	INCQ    CX
	CMPQ    CX, AX
	JLT     label

groupend:
	GROUPEND2
	JMP group

done:
	MOVQ $0, ret+216(FP)
	RET

outside:
	MOVQ $-1, ret+216(FP)
	RET

// func sigmoidGradPairsSharedAsm(worker []int32, label []uint16, off []int, p, g, e, d, gw, gobj []float64) int
//
// As sigmoidGradPairsAsm, with the weights of group j at g[2j] and
// g[2j+1]: X5 holds their sum, R10 points at them.
TEXT ·sigmoidGradPairsSharedAsm(SB), NOSPLIT, $0-224
	SETUP2

sgroup:
	GROUP2(sdone)
	MOVSD (R10), X5
	ADDSD 8(R10), X5
	CMPQ CX, AX
	JGE  sgroupend

slabel:
	// ds = g[2j+y] - p[2i+y]·(g[2j] + g[2j+1])
	MOVWLZX (DI)(CX*2), BX
	ANDL    $1, BX
	MOVSD   (R10)(BX*8), X3
	LEAQ    (BX)(CX*2), BX
	MOVSD   (R9)(BX*8), X2
	MULSD   X5, X2
	SUBSD   X2, X3
	WORKER2(soutside)
	INCQ    CX
	CMPQ    CX, AX
	JLT     slabel

sgroupend:
	GROUPEND2
	ADDQ $16, R10
	JMP  sgroup

sdone:
	MOVQ $0, ret+216(FP)
	RET

soutside:
	MOVQ $-1, ret+216(FP)
	RET

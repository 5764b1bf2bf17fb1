//go:build amd64 && !purego

#include "textflag.h"

// MINGO sets OUT to Go's min(A, B) of the numbers in the low lanes of A and
// B (all four lanes for Y registers): T1 = A < B ? A : B, T2 = T1 < A ? T1 :
// A, OUT = T1 | T2, which is a NaN if A or B is, and -0 rather than +0.
// Applied to negated numbers it is Go's max of the numbers, negated, as the
// compiler writes max.
#define MINGO(A, B, T1, T2, OUT) \
	VMINPD B, A, T1; \
	VMINPD A, T1, T2; \
	VORPD  T1, T2, OUT

// MINGOSD is MINGO for the low lanes of X registers; it zeroes the upper
// half of OUT's Y register.
#define MINGOSD(A, B, T1, T2, OUT) \
	VMINSD B, A, T1; \
	VMINSD A, T1, T2; \
	VORPD  T1, T2, OUT

// func shiftMaxRowsAVX2(dst, b []float64, k, n int)
TEXT ·shiftMaxRowsAVX2(SB), NOSPLIT, $0-64
	MOVQ         dst_base+0(FP), DI
	MOVQ         b_base+24(FP), SI
	MOVQ         k+48(FP), DX
	MOVQ         n+56(FP), BX
	MOVQ         DX, R9
	ANDQ         $-4, R9 // the groups of four
	MOVQ         DX, R10
	SHLQ         $3, R10 // a row's bytes
	MOVQ         $0x8000000000000000, AX
	VMOVQ        AX, X15
	VBROADCASTSD X15, Y15 // the sign bit
	MOVQ         $0x7FF0000000000000, AX
	VMOVQ        AX, X14
	VBROADCASTSD X14, Y14 // +Inf: the chains' -Inf, negated

shiftRow:
	VMOVAPD Y14, Y1 // the four chains, negated
	XORQ    CX, CX

shiftGroup:
	CMPQ    CX, R9
	JGE     shiftLanes
	VMOVUPD (SI)(CX*8), Y2
	VXORPD  Y15, Y2, Y2
	MINGO(Y1, Y2, Y3, Y4, Y1)
	ADDQ    $4, CX
	JMP     shiftGroup

shiftLanes:
	VEXTRACTF128 $1, Y1, X6 // chains 2 and 3
	VPERMILPD    $1, X6, X7 // chain 3
	VPERMILPD    $1, X1, X5 // chain 1

shiftTail: // the rest into chain 0
	CMPQ   CX, DX
	JGE    shiftCombine
	VMOVSD (SI)(CX*8), X2
	VXORPD X15, X2, X2
	MINGOSD(X1, X2, X3, X4, X1)
	INCQ   CX
	JMP    shiftTail

shiftCombine: // max(max(m0, m1), max(m2, m3))
	MINGOSD(X1, X5, X3, X4, X1)
	MINGOSD(X6, X7, X3, X4, X6)
	MINGOSD(X1, X6, X3, X4, X1)
	VXORPD       X15, X1, X1 // the largest element
	VBROADCASTSD X1, Y8
	XORQ         CX, CX

shiftSub:
	CMPQ    CX, R9
	JGE     shiftSubTail
	VMOVUPD (SI)(CX*8), Y2
	VSUBPD  Y8, Y2, Y2
	VMOVUPD Y2, (DI)(CX*8)
	ADDQ    $4, CX
	JMP     shiftSub

shiftSubTail:
	CMPQ   CX, DX
	JGE    shiftNext
	VMOVSD (SI)(CX*8), X2
	VSUBSD X8, X2, X2
	VMOVSD X2, (DI)(CX*8)
	INCQ   CX
	JMP    shiftSubTail

shiftNext:
	ADDQ R10, SI
	ADDQ R10, DI
	DECQ BX
	JNZ  shiftRow
	VZEROUPPER
	RET

//go:build amd64 && !purego

#include "textflag.h"
#include "table_amd64.h"

// func respRowsAVX2(r, q, t []float64, rows []int, m []float64)
TEXT ·respRowsAVX2(SB), NOSPLIT, $0-120
	MOVQ r_base+0(FP), DI
	MOVQ q_base+24(FP), R11
	MOVQ q_len+32(FP), R10
	MOVQ t_base+48(FP), SI
	MOVQ rows_base+72(FP), R8
	MOVQ rows_len+80(FP), R9
	MOVQ m_base+96(FP), R12
	MOVQ R10, R13
	ANDQ $-4, R13
	MOVQ R10, R14
	SHLQ $3, R14
	MOVQ $0x3FF0000000000000, AX // 1.0
	XORQ BX, BX
	CMPQ BX, R9
	JGE  respDone

respLabel:
	MOVQ (R8)(BX*8), DX
	LEAQ (SI)(DX*8), DX
	VXORPD X1, X1, X1 // m = 0
	RESPROW(R11, DX, DI, CX, R13, R10, respGroup, respTail, respScale)

respScale:
	VMOVSD X1, (R12)(BX*8)
	MOVQ   AX, X2
	VDIVSD X1, X2, X2 // 1/m
	VBROADCASTSD X2, Y2
	SCALEROW(DI, Y2, X2, CX, R13, R10, respScaleGroup, respScaleTail, respNext)

respNext:
	ADDQ R14, DI
	INCQ BX
	CMPQ BX, R9
	JLT  respLabel

respDone:
	VZEROUPPER
	RET

// func addRowsEachAVX2(t []float64, rows []int, g, acc []float64, k, n int)
TEXT ·addRowsEachAVX2(SB), NOSPLIT, $0-112
	MOVQ t_base+0(FP), SI
	MOVQ rows_base+24(FP), R8
	MOVQ rows_len+32(FP), R9
	MOVQ g_base+48(FP), DI
	MOVQ acc_base+72(FP), R11
	MOVQ k+96(FP), R14
	SHLQ $3, R14
	MOVQ n+104(FP), R10
	XORQ BX, BX
	TESTQ R11, R11
	JZ   onlyRow

eachRow:
	MOVQ (R8)(BX*8), DX
	LEAQ (SI)(DX*8), DX
	XORQ CX, CX

eachGroup:
	VMOVUPD (DI)(CX*8), Y0
	VADDPD  (DX)(CX*8), Y0, Y1
	VMOVUPD Y1, (DX)(CX*8)
	VADDPD  (R11)(CX*8), Y0, Y1
	VMOVUPD Y1, (R11)(CX*8)
	ADDQ $4, CX
	CMPQ CX, R10
	JLT  eachGroup
	ADDQ R14, DI
	INCQ BX
	CMPQ BX, R9
	JLT  eachRow
	VZEROUPPER
	RET

onlyRow: // acc is nil
	MOVQ (R8)(BX*8), DX
	LEAQ (SI)(DX*8), DX
	XORQ CX, CX

onlyGroup:
	VMOVUPD (DI)(CX*8), Y0
	VADDPD  (DX)(CX*8), Y0, Y1
	VMOVUPD Y1, (DX)(CX*8)
	ADDQ $4, CX
	CMPQ CX, R10
	JLT  onlyGroup
	ADDQ R14, DI
	INCQ BX
	CMPQ BX, R9
	JLT  onlyRow
	VZEROUPPER
	RET

// func weightsAVX2(x, g []float64, a, n float64, m int) float64
TEXT ·weightsAVX2(SB), NOSPLIT, $0-80
	MOVQ         x_base+0(FP), DI
	MOVQ         g_base+24(FP), SI
	VBROADCASTSD a+48(FP), Y14
	VBROADCASTSD n+56(FP), Y13
	MOVQ         m+64(FP), DX
	VXORPD       Y15, Y15, Y15
	VXORPD       X12, X12, X12 // the sum, +0
	XORQ         CX, CX

weightsGroup:
	VMOVUPD (DI)(CX*8), Y1
	VMULPD  Y14, Y1, Y1    // x·a
	VMOVUPD (SI)(CX*8), Y2
	VDIVPD  Y13, Y2, Y2    // g/n
	VADDPD  Y2, Y1, Y1
	VMAXPD  Y1, Y15, Y1    // max(0, w): w where w is NaN or a zero
	VADDPD  Y15, Y1, Y1    // -0 + 0 = +0
	VMOVUPD Y1, (DI)(CX*8)
	VADDSD  X1, X12, X12   // the sum, one element after the other
	VPERMILPD $1, X1, X3
	VADDSD  X3, X12, X12
	VEXTRACTF128 $1, Y1, X3
	VADDSD  X3, X12, X12
	VPERMILPD $1, X3, X3
	VADDSD  X3, X12, X12
	ADDQ    $4, CX
	CMPQ    CX, DX
	JLT     weightsGroup
	VZEROUPPER
	MOVSD   X12, ret+72(FP)
	RET

// func divMaxAVX2(x []float64, s, floor float64, m int)
TEXT ·divMaxAVX2(SB), NOSPLIT, $0-48
	MOVQ         x_base+0(FP), DI
	VBROADCASTSD s+24(FP), Y14
	VBROADCASTSD floor+32(FP), Y13
	MOVQ         m+40(FP), DX
	XORQ         CX, CX

divMaxGroup:
	VMOVUPD (DI)(CX*8), Y1
	VDIVPD  Y14, Y1, Y1 // x/s
	VMAXPD  Y1, Y13, Y1 // max(floor, q): q where q is NaN
	VMOVUPD Y1, (DI)(CX*8)
	ADDQ    $4, CX
	CMPQ    CX, DX
	JLT     divMaxGroup
	VZEROUPPER
	RET

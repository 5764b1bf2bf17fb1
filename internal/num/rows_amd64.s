//go:build amd64 && !purego

#include "textflag.h"

// func mulRowsAVX2(s, t []float64, rows []int, n int) (lo, hi float64)
TEXT ·mulRowsAVX2(SB), NOSPLIT, $0-96
	MOVQ s_base+0(FP), DI
	MOVQ t_base+24(FP), SI
	MOVQ rows_base+48(FP), R8
	MOVQ rows_len+56(FP), R9
	MOVQ n+72(FP), R10
	MOVQ $0x7FF0000000000000, AX // +Inf: the smallest so far
	MOVQ AX, X14
	VPBROADCASTQ X14, Y14
	MOVQ $0xFFF0000000000000, AX // -Inf: the largest so far
	MOVQ AX, X15
	VPBROADCASTQ X15, Y15
	XORQ CX, CX

mulGroup:
	VMOVUPD (DI)(CX*8), Y0
	XORQ BX, BX

mulRow:
	MOVQ (R8)(BX*8), DX
	ADDQ CX, DX
	VMOVUPD (SI)(DX*8), Y1
	VMULPD Y1, Y0, Y0
	VMINPD Y1, Y14, Y14
	VMAXPD Y1, Y15, Y15
	INCQ BX
	CMPQ BX, R9
	JLT  mulRow
	VMOVUPD Y0, (DI)(CX*8)
	ADDQ $4, CX
	CMPQ CX, R10
	JLT  mulGroup

	VEXTRACTF128 $1, Y14, X1
	VMINPD X1, X14, X14
	VPERMILPD $1, X14, X1
	VMINSD X1, X14, X14
	VMOVSD X14, lo+80(FP)
	VEXTRACTF128 $1, Y15, X1
	VMAXPD X1, X15, X15
	VPERMILPD $1, X15, X1
	VMAXSD X1, X15, X15
	VMOVSD X15, hi+88(FP)
	VZEROUPPER
	RET

// func addRowsAVX2(t []float64, rows []int, g []float64, n int)
TEXT ·addRowsAVX2(SB), NOSPLIT, $0-80
	MOVQ t_base+0(FP), SI
	MOVQ rows_base+24(FP), R8
	MOVQ rows_len+32(FP), R9
	MOVQ g_base+48(FP), DI
	MOVQ n+72(FP), R10
	XORQ CX, CX

addGroup:
	VMOVUPD (DI)(CX*8), Y0
	XORQ BX, BX

addRow:
	MOVQ (R8)(BX*8), DX
	ADDQ CX, DX
	VADDPD (SI)(DX*8), Y0, Y1
	VMOVUPD Y1, (SI)(DX*8)
	INCQ BX
	CMPQ BX, R9
	JLT  addRow
	ADDQ $4, CX
	CMPQ CX, R10
	JLT  addGroup
	VZEROUPPER
	RET

// func prefetchRows(t []float64, rows []int, n int)
TEXT ·prefetchRows(SB), NOSPLIT, $0-56
	MOVQ t_base+0(FP), SI
	MOVQ rows_base+24(FP), R8
	MOVQ rows_len+32(FP), R9
	MOVQ n+48(FP), R10
	SHLQ $3, R10
	SUBQ $8, R10
	XORQ BX, BX
	CMPQ BX, R9
	JGE  pfDone

pfRow:
	MOVQ (R8)(BX*8), DX
	LEAQ (SI)(DX*8), DX
	XORQ CX, CX

pfLine:
	PREFETCHT0 (DX)(CX*1)
	ADDQ $64, CX
	CMPQ CX, R10
	JLT  pfLine
	PREFETCHT0 (DX)(R10*1)
	INCQ BX
	CMPQ BX, R9
	JLT  pfRow

pfDone:
	RET

//go:build amd64 && !purego && !amd64.v3

#include "textflag.h"
#include "const_amd64.h"

// DigammaTo's operands, four copies each: 1/2, 1, 7 and +Inf, and 1.0/24,
// 7.0/960, 31.0/8064 and 127.0/30720 as Go rounds them.

CONST4(dgHalf, 0x3fe0000000000000)
CONST4(dgOne, 0x3ff0000000000000)
CONST4(dgSeven, 0x401c000000000000)
CONST4(dgInf, 0x7ff0000000000000)
CONST4(dgC24, 0x3fa5555555555555)
CONST4(dgC960, 0x3f7dddddddddddde)
CONST4(dgC8064, 0x3f6f7df7df7df7df)
CONST4(dgC30720, 0x3f70eeeeeeeeeeef)

// func digammaShiftAVX2(r, u, x []float64, i int) int
//
// Where v < 7: r = r - 1/v, v = v + 1, until no lane of the group needs
// it; then u = v - 1/2.
TEXT ·digammaShiftAVX2(SB), NOSPLIT, $0-88
	MOVQ r_base+0(FP), DI
	MOVQ u_base+24(FP), R9
	MOVQ x_base+48(FP), SI
	MOVQ x_len+56(FP), DX
	MOVQ i+72(FP), CX
	VXORPD  Y15, Y15, Y15
	VMOVUPD dgInf<>(SB), Y14
	VMOVUPD dgSeven<>(SB), Y13
	VMOVUPD dgOne<>(SB), Y12

dsLoop:
	LEAQ 4(CX), AX
	CMPQ AX, DX
	JGT  dsDone
	VMOVUPD (SI)(CX*8), Y0
	VCMPPD  $0x1E, Y15, Y0, Y1 // v > 0, false for NaN
	VCMPPD  $0x11, Y14, Y0, Y2 // v < +Inf
	VANDPD  Y2, Y1, Y1
	VMOVMSKPD Y1, AX
	CMPQ AX, $15
	JNE  dsDone
	VXORPD Y3, Y3, Y3 // r = 0

dsShift:
	VCMPPD $0x11, Y13, Y0, Y1 // v < 7
	VMOVMSKPD Y1, AX
	TESTQ AX, AX
	JZ   dsShifted
	VDIVPD    Y0, Y12, Y4 // 1/v
	VSUBPD    Y4, Y3, Y4  // r - 1/v
	VBLENDVPD Y1, Y4, Y3, Y3
	VADDPD    Y12, Y0, Y4 // v + 1
	VBLENDVPD Y1, Y4, Y0, Y0
	JMP  dsShift

dsShifted:
	VSUBPD  dgHalf<>(SB), Y0, Y0
	VMOVUPD Y3, (DI)(CX*8)
	VMOVUPD Y0, (R9)(CX*8)
	ADDQ $4, CX
	JMP  dsLoop

dsDone:
	VZEROUPPER
	MOVQ CX, ret+80(FP)
	RET

// func digammaSeriesAVX2(dst, u, lg []float64, n int)
//
// dst + (((lg + c24·xx2) − c960·xx4) + c8064·xx4·xx2) − c30720·xx4·xx4 with
// xx = 1/u, xx2 = xx·xx, xx4 = xx2·xx2: digammaSeries' operations in its
// order, unfused.
TEXT ·digammaSeriesAVX2(SB), NOSPLIT, $0-80
	MOVQ dst_base+0(FP), DI
	MOVQ u_base+24(FP), SI
	MOVQ lg_base+48(FP), R9
	MOVQ n+72(FP), DX
	XORQ CX, CX
	VMOVUPD dgOne<>(SB), Y12

dgLoop:
	CMPQ CX, DX
	JGE  dgDone
	VMOVUPD (SI)(CX*8), Y0
	VDIVPD  Y0, Y12, Y1 // xx
	VMULPD  Y1, Y1, Y2  // xx2
	VMULPD  Y2, Y2, Y3  // xx4
	VMULPD  dgC24<>(SB), Y2, Y4
	VMOVUPD (R9)(CX*8), Y5
	VADDPD  Y4, Y5, Y5
	VMULPD  dgC960<>(SB), Y3, Y4
	VSUBPD  Y4, Y5, Y5
	VMULPD  dgC8064<>(SB), Y3, Y4
	VMULPD  Y2, Y4, Y4
	VADDPD  Y4, Y5, Y5
	VMULPD  dgC30720<>(SB), Y3, Y4
	VMULPD  Y3, Y4, Y4
	VSUBPD  Y4, Y5, Y5
	VMOVUPD (DI)(CX*8), Y6
	VADDPD  Y5, Y6, Y6
	VMOVUPD Y6, (DI)(CX*8)
	ADDQ $4, CX
	JMP  dgLoop

dgDone:
	VZEROUPPER
	RET

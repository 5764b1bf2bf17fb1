//go:build amd64 && !purego

#include "textflag.h"

// Four copies each of 1, 7 and 10.
#define CONST4(name, bits) \
	DATA name<>+0(SB)/8, $bits; \
	DATA name<>+8(SB)/8, $bits; \
	DATA name<>+16(SB)/8, $bits; \
	DATA name<>+24(SB)/8, $bits; \
	GLOBL name<>(SB), RODATA|NOPTR, $32;

CONST4(sOne, 0x3ff0000000000000)
CONST4(sSeven, 0x401c000000000000)
CONST4(sTen, 0x4024000000000000)

// func digammaShiftAVX2(x, r []float64) int
// Four elements at a time: while x < 7 (where any is), r = r - 1/x and
// x = x + 1 in the lanes below 7 (the others kept by blends).
TEXT ·digammaShiftAVX2(SB), NOSPLIT, $0-56
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), DX
	MOVQ r_base+24(FP), DI
	XORQ CX, CX

dsLoop:
	LEAQ 4(CX), AX
	CMPQ AX, DX
	JGT  dsDone
	VMOVUPD (SI)(CX*8), Y0
	VXORPD  Y3, Y3, Y3 // r = 0

dsShift:
	VCMPPD    $0x11, sSeven<>(SB), Y0, Y1 // x < 7
	VMOVMSKPD Y1, AX
	TESTQ     AX, AX
	JZ        dsShifted
	VMOVUPD   sOne<>(SB), Y4
	VDIVPD    Y0, Y4, Y4 // 1/x
	VSUBPD    Y4, Y3, Y5 // r - 1/x
	VBLENDVPD Y1, Y5, Y3, Y3
	VADDPD    sOne<>(SB), Y0, Y4
	VBLENDVPD Y1, Y4, Y0, Y0
	JMP       dsShift

dsShifted:
	VMOVUPD Y0, (SI)(CX*8)
	VMOVUPD Y3, (DI)(CX*8)
	ADDQ    $4, CX
	JMP     dsLoop

dsDone:
	VZEROUPPER
	MOVQ CX, ret+48(FP)
	RET

// func gammaShiftAVX2(u, prod, inv []float64) int
// Four elements at a time: while u < 10 (where any is), prod = prod·u,
// inv = inv + 1/u and u = u + 1 in the lanes below 10.
TEXT ·gammaShiftAVX2(SB), NOSPLIT, $0-80
	MOVQ u_base+0(FP), SI
	MOVQ u_len+8(FP), DX
	MOVQ prod_base+24(FP), DI
	MOVQ inv_base+48(FP), R8
	XORQ CX, CX

gsLoop:
	LEAQ 4(CX), AX
	CMPQ AX, DX
	JGT  gsDone
	VMOVUPD (SI)(CX*8), Y0
	VMOVUPD sOne<>(SB), Y2 // prod = 1
	VXORPD  Y3, Y3, Y3     // inv = 0

gsShift:
	VCMPPD    $0x11, sTen<>(SB), Y0, Y1 // u < 10
	VMOVMSKPD Y1, AX
	TESTQ     AX, AX
	JZ        gsShifted
	VMULPD    Y0, Y2, Y4 // prod·u
	VBLENDVPD Y1, Y4, Y2, Y2
	VMOVUPD   sOne<>(SB), Y4
	VDIVPD    Y0, Y4, Y4 // 1/u
	VADDPD    Y4, Y3, Y5 // inv + 1/u
	VBLENDVPD Y1, Y5, Y3, Y3
	VADDPD    sOne<>(SB), Y0, Y4
	VBLENDVPD Y1, Y4, Y0, Y0
	JMP       gsShift

gsShifted:
	VMOVUPD Y0, (SI)(CX*8)
	VMOVUPD Y2, (DI)(CX*8)
	VMOVUPD Y3, (R8)(CX*8)
	ADDQ    $4, CX
	JMP     gsLoop

gsDone:
	VZEROUPPER
	MOVQ CX, ret+72(FP)
	RET

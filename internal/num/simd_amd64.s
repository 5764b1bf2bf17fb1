//go:build amd64 && !purego

#include "textflag.h"

// Constants, four copies each: the operands of ExpTo's and SigmoidPair's
// scalar code (exp.go, num.go), bit for bit.
#define CONST4(name, bits) \
	DATA name<>+0(SB)/8, $bits; \
	DATA name<>+8(SB)/8, $bits; \
	DATA name<>+16(SB)/8, $bits; \
	DATA name<>+24(SB)/8, $bits; \
	GLOBL name<>(SB), RODATA|NOPTR, $32;

CONST4(invLn2N, 0x40671547652b82fe)
CONST4(round, 0x4338000000000000)
CONST4(ln2Hi, 0x3f762e42fee00000)
CONST4(ln2Lo, 0x3d7a39ef35793c76)
CONST4(c2, 0x3fe0000000000000)
CONST4(c6, 0x3fc5555555555555)
CONST4(c24, 0x3fa5555555555555)
CONST4(c120, 0x3f81111111111111)
CONST4(one, 0x3ff0000000000000)
CONST4(m700, 0xc085e00000000000)
CONST4(p700, 0x4085e00000000000)
CONST4(limit, 0x4086232bdd7abcd2)
CONST4(absMask, 0x7fffffffffffffff)
CONST4(signBit, 0x8000000000000000)
CONST4(mask127, 0x000000000000007f)

// EXP4 computes Exp of the four arguments in X into E, using K, F, R, Q,
// T, M as scratch, and R8 as the table's address: kf = x·invLn2N + round,
// k = its bits - round's bits, kf -= round, r = (x - kf·ln2Hi) - kf·ln2Lo,
// q = r + r²·(1/2 + r·(1/6 + r·(1/24 + r/120))), t = table[k & 127],
// t += t·q, and 2^(k>>7) added to t's exponent bits.
#define EXP4(X, E, K, F, R, Q, M) \
	VMULPD invLn2N<>(SB), X, K; \
	VADDPD round<>(SB), K, K; \
	VSUBPD round<>(SB), K, F; \
	VPSUBQ round<>(SB), K, K; \
	VMULPD ln2Hi<>(SB), F, R; \
	VSUBPD R, X, R; \
	VMULPD ln2Lo<>(SB), F, F; \
	VSUBPD F, R, R; \
	VMULPD c120<>(SB), R, Q; \
	VADDPD c24<>(SB), Q, Q; \
	VMULPD R, Q, Q; \
	VADDPD c6<>(SB), Q, Q; \
	VMULPD R, Q, Q; \
	VADDPD c2<>(SB), Q, Q; \
	VMULPD R, R, F; \
	VMULPD Q, F, Q; \
	VADDPD Q, R, Q; \
	VPAND mask127<>(SB), K, F; \
	VPCMPEQQ M, M, M; \
	VGATHERQPD M, (R8)(F*8), E; \
	VMULPD Q, E, Q; \
	VADDPD Q, E, E; \
	VPSRLQ $7, K, K; \
	VPSLLQ $52, K, K; \
	VPADDQ K, E, E;

// func expAVX2(dst, x []float64, i int) int
TEXT ·expAVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), DX
	MOVQ i+48(FP), CX
	LEAQ ·expTable(SB), R8

expLoop:
	LEAQ 4(CX), AX
	CMPQ AX, DX
	JGT  expDone
	VMOVUPD (SI)(CX*8), Y0
	VCMPPD $0x1E, m700<>(SB), Y0, Y1 // x > -700, false for NaN
	VCMPPD $0x11, p700<>(SB), Y0, Y2 // x < 700
	VANDPD Y2, Y1, Y1
	VMOVMSKPD Y1, AX
	CMPQ AX, $15
	JNE  expDone
	EXP4(Y0, Y3, Y4, Y5, Y6, Y7, Y8)
	VMOVUPD Y3, (DI)(CX*8)
	ADDQ $4, CX
	JMP  expLoop

expDone:
	VZEROUPPER
	MOVQ CX, ret+56(FP)
	RET

// func sigmoidPairsAVX2(dst, s []float64, i int) int
TEXT ·sigmoidPairsAVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ s_base+24(FP), SI
	MOVQ i+48(FP), CX
	LEAQ ·expTable(SB), R8

sigLoop:
	CMPQ CX, $4
	JLT  sigDone
	VMOVUPD -32(SI)(CX*8), Y0          // s
	VANDPD absMask<>(SB), Y0, Y1        // |s|
	VCMPPD $0x1E, limit<>(SB), Y1, Y2   // far = |s| > limit
	VXORPD signBit<>(SB), Y1, Y1        // x = -|s|
	VANDNPD Y1, Y2, Y1                  // x = 0 where far
	VCMPPD $0x1E, m700<>(SB), Y1, Y3    // x > -700, false for NaN
	VMOVMSKPD Y3, AX
	CMPQ AX, $15
	JNE  sigDone
	EXP4(Y1, Y3, Y4, Y5, Y6, Y7, Y8)    // Y3 = ex
	VADDPD one<>(SB), Y3, Y4
	VMOVUPD one<>(SB), Y5
	VDIVPD Y4, Y5, Y4                   // big = 1/(1 + ex)
	VMULPD Y4, Y3, Y5                   // small = ex·big
	VXORPD Y6, Y6, Y6
	VCMPPD $0x1D, Y6, Y0, Y6            // ge = s >= 0
	VBLENDVPD Y6, Y4, Y5, Y7            // a = ge ? big : small
	VBLENDVPD Y6, Y5, Y4, Y9            // na = ge ? small : big
	VANDPD one<>(SB), Y6, Y4            // far: a = ge ? 1 : 0
	VANDNPD one<>(SB), Y6, Y5           // far: na = ge ? 0 : 1
	VBLENDVPD Y2, Y4, Y7, Y7
	VBLENDVPD Y2, Y5, Y9, Y9
	VUNPCKLPD Y9, Y7, Y10               // a0 na0 | a2 na2
	VUNPCKHPD Y9, Y7, Y11               // a1 na1 | a3 na3
	VPERM2F128 $0x20, Y11, Y10, Y12     // a0 na0 a1 na1
	VPERM2F128 $0x31, Y11, Y10, Y13     // a2 na2 a3 na3
	LEAQ (CX)(CX*1), BX
	VMOVUPD Y12, -64(DI)(BX*8)
	VMOVUPD Y13, -32(DI)(BX*8)
	SUBQ $4, CX
	JMP  sigLoop

sigDone:
	VZEROUPPER
	MOVQ CX, ret+56(FP)
	RET

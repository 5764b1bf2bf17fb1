//go:build amd64 && !purego

#include "textflag.h"
#include "const_amd64.h"

// Constants, four copies each: the operands of ExpTo's and SigmoidPair's
// scalar code (exp.go, num.go), bit for bit.

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
CONST4(bit0, 0x0000000000000001)

// ExpDigammaParts' operands besides one, c2 (1/2) and c24 (1/24): 10⁻¹⁰⁰,
// 7, and 7.0/960, 31.0/8064 and 127.0/30720 as Go rounds them.
CONST4(tiny, 0x2b2bff2ee48e0530)
CONST4(seven, 0x401c000000000000)
CONST4(c960, 0x3f7dddddddddddde)
CONST4(c8064, 0x3f6f7df7df7df7df)
CONST4(c30720, 0x3f70eeeeeeeeeeef)

// The operands of math.Log's amd64 code (math/log_amd64.s) besides one and
// c2 (1/2): √2/2, ln 2 in two parts, the series' coefficients L1 to L7,
// 2, the masks of the mantissa and of +Inf, and 2⁵² and 2⁵² + 1022, whose
// differences with 2⁵² + e give e - 1022 for an 11-bit exponent e.
CONST4(hsqrt2, 0x3fe6a09e667f3bcd)
CONST4(logLn2Hi, 0x3fe62e42fee00000)
CONST4(logLn2Lo, 0x3dea39ef35793c76)
CONST4(logL1, 0x3fe5555555555593)
CONST4(logL2, 0x3fd999999997fa04)
CONST4(logL3, 0x3fd2492494229359)
CONST4(logL4, 0x3fcc71c51d8e78af)
CONST4(logL5, 0x3fc7466496cb03de)
CONST4(logL6, 0x3fc39a09d078c69f)
CONST4(logL7, 0x3fc2f112df3e5244)
CONST4(two, 0x4000000000000000)
CONST4(mantMask, 0x000fffffffffffff)
CONST4(posInf, 0x7ff0000000000000)
CONST4(magic, 0x4330000000000000)
CONST4(magicK, 0x43300000000003fe)

// LogTo's operands besides one, c2 (1/2), c6 (1/6), mask127, mantMask,
// magic and ln 2 in two parts (logLn2Hi, logLn2Lo, the same numbers): 1/3,
// 1/4, 1/5 and 1/7 as Go rounds them, 2⁵² + 1023, whose difference with
// 2⁵² + e is e - 1023 for an 11-bit exponent e, and the exponent 2047 as
// an integer.
CONST4(c3rd, 0x3fd5555555555555)
CONST4(c4th, 0x3fd0000000000000)
CONST4(c5th, 0x3fc999999999999a)
CONST4(c7th, 0x3fc2492492492492)
CONST4(magic1023, 0x43300000000003ff)
CONST4(exp2047, 0x00000000000007ff)

// The operands of math.Exp's amd64 code with fused multiply-adds
// (math/exp_amd64.s) besides one, two, c2, c6, c24 and c120: log₂e, ln 2
// in two parts, the largest argument, 1/16, the series' 1/720, 1/5040 and
// 1/40320, and, as four int32 each, the exponent's bias 1023 and 2047.
CONST4(log2e, 0x3ff71547652b82fe)
CONST4(expLn2U, 0x3fe62e42fefa3000)
CONST4(expLn2L, 0x3d53de6af278ece6)
CONST4(expOverflow, 0x40862e42fefa39ef)
CONST4(c16th, 0x3fb0000000000000)
CONST4(c720, 0x3f56c16c16c16c17)
CONST4(c5040, 0x3f2a01a01a01a01a)
CONST4(c40320, 0x3efa01a01a01a01a)
DATA bias32<>+0(SB)/4, $0x3ff
DATA bias32<>+4(SB)/4, $0x3ff
DATA bias32<>+8(SB)/4, $0x3ff
DATA bias32<>+12(SB)/4, $0x3ff
GLOBL bias32<>(SB), RODATA|NOPTR, $16
DATA max32<>+0(SB)/4, $0x7ff
DATA max32<>+4(SB)/4, $0x7ff
DATA max32<>+8(SB)/4, $0x7ff
DATA max32<>+12(SB)/4, $0x7ff
GLOBL max32<>(SB), RODATA|NOPTR, $16

// EXP4 computes Exp of the four arguments in X into E, using K, F, R, Q,
// T, M as scratch, and R8 as the table's address: kf = x·invLn2N + round,
// k = its bits - round's bits, kf -= round, r = (x - kf·ln2Hi) - kf·ln2Lo,
// q = r + r²·(1/2 + r·(1/6 + r·(1/24 + r/120))), t = table[k & 127],
// t += t·q, and 2^(k>>7) added to t's exponent bits.
#define EXP4(X, E, K, F, R, Q, M, XE, XF, XM) \
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
	VMOVQ XF, R10; \
	VPEXTRQ $1, XF, R11; \
	VEXTRACTI128 $1, F, XM; \
	VMOVQ XM, R12; \
	VPEXTRQ $1, XM, R13; \
	VMOVSD (R8)(R10*8), XE; \
	VMOVHPD (R8)(R11*8), XE, XE; \
	VMOVSD (R8)(R12*8), XM; \
	VMOVHPD (R8)(R13*8), XM, XM; \
	VINSERTF128 $1, XM, E, E; \
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
	EXP4(Y0, Y3, Y4, Y5, Y6, Y7, Y8, X3, X5, X8)
	VMOVUPD Y3, (DI)(CX*8)
	ADDQ $4, CX
	JMP  expLoop

expDone:
	VZEROUPPER
	MOVQ CX, ret+56(FP)
	RET

// SIG4 computes the pairs of the four s at -32(SI)(CX*8) into dst at
// -64(DI)(CX*16), given the macro SELECT, which turns the mask ge (Y6:
// s >= 0) into the mask of the lanes whose first number is the larger
// sigmoid: ex = e^-|s|, or 0 where |s| > limit (so that the pair is
// exactly 1 and 0), the larger 1/(1 + ex), the smaller ex times it. It jumps to done at a group with -|s| at or below -700 or NaN
// (that group is not written).
#define SIG4(SELECT, done) \
	VMOVUPD -32(SI)(CX*8), Y0; \
	VANDPD absMask<>(SB), Y0, Y1; \
	VCMPPD $0x1E, limit<>(SB), Y1, Y2; \
	VXORPD signBit<>(SB), Y1, Y1; \
	VANDNPD Y1, Y2, Y1; \
	VCMPPD $0x1E, m700<>(SB), Y1, Y3; \
	VMOVMSKPD Y3, AX; \
	CMPQ AX, $15; \
	JNE  done; \
	EXP4(Y1, Y3, Y4, Y5, Y6, Y7, Y8, X3, X5, X8); \
	VANDNPD Y3, Y2, Y3; \
	VADDPD one<>(SB), Y3, Y4; \
	VMOVUPD one<>(SB), Y5; \
	VDIVPD Y4, Y5, Y4; \
	VMULPD Y4, Y3, Y5; \
	VXORPD Y6, Y6, Y6; \
	VCMPPD $0x1D, Y6, Y0, Y6; \
	SELECT; \
	VBLENDVPD Y6, Y4, Y5, Y7; \
	VBLENDVPD Y6, Y5, Y4, Y9; \
	VUNPCKLPD Y9, Y7, Y10; \
	VUNPCKHPD Y9, Y7, Y11; \
	VPERM2F128 $0x20, Y11, Y10, Y12; \
	VPERM2F128 $0x31, Y11, Y10, Y13; \
	LEAQ (CX)(CX*1), BX; \
	VMOVUPD Y12, -64(DI)(BX*8); \
	VMOVUPD Y13, -32(DI)(BX*8);

// BYLABEL makes the first number of a pair σ(s) where y is even and
// σ(-s) where odd: the mask ge is flipped where y (four uint16 at
// -8(R9)(CX*2)) is odd. Without labels (R9 nil) the first number is σ(s).
#define BYLABEL \
	TESTQ R9, R9; \
	JZ   sigPlain; \
	VPMOVZXWQ -8(R9)(CX*2), Y10; \
	VPAND bit0<>(SB), Y10, Y10; \
	VPCMPEQQ bit0<>(SB), Y10, Y10; \
	VXORPD Y10, Y6, Y6; \
sigPlain:

// func sigmoidPairsAVX2(dst, s []float64, y []uint16, i int) int
TEXT ·sigmoidPairsAVX2(SB), NOSPLIT, $0-88
	MOVQ dst_base+0(FP), DI
	MOVQ s_base+24(FP), SI
	MOVQ y_base+48(FP), R9
	MOVQ i+72(FP), CX
	LEAQ ·expTable(SB), R8

sigLoop:
	CMPQ CX, $4
	JLT  sigDone
	SIG4(BYLABEL, sigDone)
	SUBQ $4, CX
	JMP  sigLoop

sigDone:
	VZEROUPPER
	MOVQ CX, ret+80(FP)
	RET

// func expDigammaPartsAVX2(s, w, x []float64, i int) int
TEXT ·expDigammaPartsAVX2(SB), NOSPLIT, $0-88
	MOVQ s_base+0(FP), DI
	MOVQ w_base+24(FP), R9
	MOVQ x_base+48(FP), SI
	MOVQ x_len+56(FP), DX
	MOVQ i+72(FP), CX

edLoop:
	LEAQ 4(CX), AX
	CMPQ AX, DX
	JGT  edDone
	VMOVUPD (SI)(CX*8), Y0
	VCMPPD $0x1D, tiny<>(SB), Y0, Y1 // x >= 1e-100, false for NaN
	VMOVMSKPD Y1, AX
	CMPQ AX, $15
	JNE  edDone
	VMOVUPD one<>(SB), Y2 // p = 1
	VXORPD Y3, Y3, Y3       // dp = 0

edShift:
	// Where x < 7: dp = dp·x + p, p = p·x, x = x + 1.
	VCMPPD $0x11, seven<>(SB), Y0, Y1
	VMOVMSKPD Y1, AX
	TESTQ AX, AX
	JZ   edShifted
	VMULPD Y0, Y3, Y4
	VADDPD Y2, Y4, Y4
	VBLENDVPD Y1, Y4, Y3, Y3
	VMULPD Y0, Y2, Y4
	VBLENDVPD Y1, Y4, Y2, Y2
	VADDPD one<>(SB), Y0, Y4
	VBLENDVPD Y1, Y4, Y0, Y0
	JMP  edShift

edShifted:
	VSUBPD c2<>(SB), Y0, Y5 // w = x - 1/2
	VMULPD Y5, Y5, Y6           // w·w
	VMULPD Y2, Y6, Y7           // w·w·p
	VMOVUPD one<>(SB), Y8
	VDIVPD Y7, Y8, Y8           // inv = 1/(w·w·p)
	VMULPD Y2, Y8, Y9           // w2 = inv·p
	VMULPD Y9, Y9, Y10          // w4 = w2·w2
	VMULPD c24<>(SB), Y9, Y11
	VMULPD c960<>(SB), Y10, Y12
	VSUBPD Y12, Y11, Y11
	VMULPD c8064<>(SB), Y10, Y12
	VMULPD Y9, Y12, Y12
	VADDPD Y12, Y11, Y11
	VMULPD c30720<>(SB), Y10, Y12
	VMULPD Y10, Y12, Y12
	VSUBPD Y12, Y11, Y11
	VMULPD Y6, Y3, Y12          // dp·(w·w)
	VMULPD Y8, Y12, Y12         // ·inv
	VSUBPD Y12, Y11, Y11        // s
	VMOVUPD Y11, (DI)(CX*8)
	VMOVUPD Y5, (R9)(CX*8)
	ADDQ $4, CX
	JMP  edLoop

edDone:
	VZEROUPPER
	MOVQ CX, ret+80(FP)
	RET

// func logAVX2(dst, x []float64, i int) int
//
// math.Log's amd64 code four at a time: the same operations in the same
// order, so the results are bit for bit its own.
TEXT ·logAVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), DX
	MOVQ i+48(FP), CX
	VPXOR   Y15, Y15, Y15
	VMOVUPD posInf<>(SB), Y14
	VMOVUPD hsqrt2<>(SB), Y13

logLoop:
	LEAQ 4(CX), AX
	CMPQ AX, DX
	JGT  logDone
	VMOVUPD (SI)(CX*8), Y0
	VPCMPGTQ Y15, Y0, Y1 // the bits > 0: positive, not ±0
	VPCMPGTQ Y0, Y14, Y2 // the bits < +Inf's: finite, not NaN
	VPAND Y2, Y1, Y1
	VMOVMSKPD Y1, AX
	CMPQ AX, $15
	JNE  logDone

	// f1 = the mantissa with the exponent of 1/2, k = e - 1022.
	VPAND  mantMask<>(SB), Y0, Y2
	VPOR   c2<>(SB), Y2, Y2
	VPSRLQ $52, Y0, Y1
	VPOR   magic<>(SB), Y1, Y1
	VSUBPD magicK<>(SB), Y1, Y1

	// Where !(√2/2 < f1): k -= 1, f1 *= 2.
	VCMPPD $5, Y2, Y13, Y0
	VANDPD one<>(SB), Y0, Y3
	VSUBPD Y3, Y1, Y1
	VADDPD one<>(SB), Y3, Y3
	VMULPD Y3, Y2, Y2

	VSUBPD one<>(SB), Y2, Y2 // f = f1 - 1
	VADDPD two<>(SB), Y2, Y0
	VDIVPD Y0, Y2, Y3        // s = f/(2 + f)
	VMULPD Y3, Y3, Y4        // s2
	VMULPD Y4, Y4, Y5        // s4
	VMULPD logL7<>(SB), Y5, Y6
	VADDPD logL5<>(SB), Y6, Y6
	VMULPD Y5, Y6, Y6
	VADDPD logL3<>(SB), Y6, Y6
	VMULPD Y5, Y6, Y6
	VADDPD logL1<>(SB), Y6, Y6
	VMULPD Y6, Y4, Y4        // t1
	VMULPD logL6<>(SB), Y5, Y6
	VADDPD logL4<>(SB), Y6, Y6
	VMULPD Y5, Y6, Y6
	VADDPD logL2<>(SB), Y6, Y6
	VMULPD Y6, Y5, Y5        // t2
	VADDPD Y5, Y4, Y4        // R
	VMULPD c2<>(SB), Y2, Y0
	VMULPD Y2, Y0, Y0        // hfsq = 0.5·f·f
	VADDPD Y0, Y4, Y4
	VMULPD Y4, Y3, Y3        // s·(hfsq + R)
	VMULPD logLn2Lo<>(SB), Y1, Y4
	VADDPD Y4, Y3, Y3
	VSUBPD Y3, Y0, Y0
	VSUBPD Y2, Y0, Y0
	VMULPD logLn2Hi<>(SB), Y1, Y1
	VSUBPD Y0, Y1, Y1        // k·Ln2Hi - ((hfsq - (s·(hfsq+R) + k·Ln2Lo)) - f)
	VMOVUPD Y1, (DI)(CX*8)
	ADDQ $4, CX
	JMP  logLoop

logDone:
	VZEROUPPER
	MOVQ CX, ret+56(FP)
	RET

// func mathExpAVX2(dst, x []float64, i int) int
//
// math.Exp's amd64 code with fused multiply-adds, four at a time: the
// same operations in the same order, so the results are bit for bit its
// own where it takes that code (the processor has FMA and AVX).
TEXT ·mathExpAVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), DX
	MOVQ i+48(FP), CX
	VMOVUPD posInf<>(SB), Y14
	VPXOR   X15, X15, X15

mexpLoop:
	LEAQ 4(CX), AX
	CMPQ AX, DX
	JGT  mexpDone
	VMOVUPD (SI)(CX*8), Y0
	VANDPD   absMask<>(SB), Y0, Y1
	VPCMPGTQ Y1, Y14, Y2                  // |x|'s bits < +Inf's: finite
	VCMPPD   $0x12, expOverflow<>(SB), Y0, Y3 // x <= the largest argument
	VANDPD   Y3, Y2, Y2
	VMOVMSKPD Y2, AX
	CMPQ AX, $15
	JNE  mexpDone
	VMULPD log2e<>(SB), Y0, Y1
	VCVTPD2DQY Y1, X4                     // k = round(x·log₂e)
	VPADDD bias32<>(SB), X4, X5           // k + 1023, which must be in [1, 2046]
	VPCMPGTD X15, X5, X6
	VMOVDQU max32<>(SB), X7
	VPCMPGTD X5, X7, X7
	VPAND X7, X6, X6
	VMOVMSKPS X6, AX
	CMPQ AX, $15
	JNE  mexpDone
	VCVTDQ2PD X4, Y1
	VFNMADD231PD expLn2U<>(SB), Y1, Y0    // x - k·ln2U, fused
	VFNMADD231PD expLn2L<>(SB), Y1, Y0    // - k·ln2L, fused
	VMULPD c16th<>(SB), Y0, Y0
	VMOVUPD c40320<>(SB), Y1
	VFMADD213PD c5040<>(SB), Y0, Y1
	VFMADD213PD c720<>(SB), Y0, Y1
	VFMADD213PD c120<>(SB), Y0, Y1
	VFMADD213PD c24<>(SB), Y0, Y1
	VFMADD213PD c6<>(SB), Y0, Y1
	VFMADD213PD c2<>(SB), Y0, Y1
	VFMADD213PD one<>(SB), Y0, Y1
	VMULPD Y1, Y0, Y0
	VADDPD two<>(SB), Y0, Y1
	VMULPD Y1, Y0, Y0
	VADDPD two<>(SB), Y0, Y1
	VMULPD Y1, Y0, Y0
	VADDPD two<>(SB), Y0, Y1
	VMULPD Y1, Y0, Y0
	VADDPD two<>(SB), Y0, Y1
	VFMADD213PD one<>(SB), Y1, Y0
	VPMOVZXDQ X5, Y2                      // 2^k as the bits (k + 1023) << 52
	VPSLLQ $52, Y2, Y2
	VMULPD Y2, Y0, Y0
	VMOVUPD Y0, (DI)(CX*8)
	ADDQ $4, CX
	JMP  mexpLoop

mexpDone:
	VZEROUPPER
	MOVQ CX, ret+56(FP)
	RET

// func logToAVX2(dst, x []float64, i int) int
//
// LogTo's scalar loop (log.go) four at a time: e = the exponent bits,
// c = logTable[bits>>45 & 127] by four loads of each of its three numbers,
// m = the mantissa with the exponent of 1, u = (m - c₀)·c₁, the series
// p = u·(1 - u·(1/2 - u·(1/3 - u·(1/4 - u·(1/5 - u·(1/6 - u/7)))))) and
// (e - 1023)·ln2Hi + (c₂ + (p + (e - 1023)·ln2Lo)): the same operations in
// the same order, so the results are the scalar ones bit for bit.
TEXT ·logToAVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), DX
	MOVQ i+48(FP), CX
	LEAQ ·logTable(SB), R8
	VPXOR   Y15, Y15, Y15
	VMOVUPD exp2047<>(SB), Y14
	VMOVUPD c6<>(SB), Y8
	VMOVUPD c5th<>(SB), Y9
	VMOVUPD c4th<>(SB), Y10
	VMOVUPD c3rd<>(SB), Y11
	VMOVUPD c2<>(SB), Y12
	VMOVUPD one<>(SB), Y13

logToLoop:
	LEAQ 4(CX), AX
	CMPQ AX, DX
	JGT  logToDone
	VMOVUPD  (SI)(CX*8), Y0
	VPSRLQ   $52, Y0, Y1 // e, with the sign bit above it
	VPCMPGTQ Y15, Y1, Y2 // e > 0: not zero or subnormal
	VPCMPGTQ Y1, Y14, Y3 // e < 2047: positive, finite, not NaN
	VPAND    Y3, Y2, Y2
	VMOVMSKPD Y2, AX
	CMPQ AX, $15
	JNE  logToDone

	VPOR   magic<>(SB), Y1, Y1
	VSUBPD magic1023<>(SB), Y1, Y1 // e - 1023
	VPSRLQ $45, Y0, Y2
	VPAND  mask127<>(SB), Y2, Y2   // the table's index
	VPAND  mantMask<>(SB), Y0, Y3
	VPOR   one<>(SB), Y3, Y3       // m

	VMOVQ        X2, R10
	VPEXTRQ      $1, X2, R11
	VEXTRACTI128 $1, Y2, X4
	VMOVQ        X4, R12
	VPEXTRQ      $1, X4, R13
	LEAQ (R10)(R10*2), R10 // entries of three numbers
	LEAQ (R11)(R11*2), R11
	LEAQ (R12)(R12*2), R12
	LEAQ (R13)(R13*2), R13
	VMOVSD      (R8)(R10*8), X5
	VMOVHPD     (R8)(R11*8), X5, X5
	VMOVSD      (R8)(R12*8), X4
	VMOVHPD     (R8)(R13*8), X4, X4
	VINSERTF128 $1, X4, Y5, Y5 // c₀
	VMOVSD      8(R8)(R10*8), X6
	VMOVHPD     8(R8)(R11*8), X6, X6
	VMOVSD      8(R8)(R12*8), X4
	VMOVHPD     8(R8)(R13*8), X4, X4
	VINSERTF128 $1, X4, Y6, Y6 // c₁
	VMOVSD      16(R8)(R10*8), X7
	VMOVHPD     16(R8)(R11*8), X7, X7
	VMOVSD      16(R8)(R12*8), X4
	VMOVHPD     16(R8)(R13*8), X4, X4
	VINSERTF128 $1, X4, Y7, Y7 // c₂

	VSUBPD Y5, Y3, Y3 // m - c₀, exact
	VMULPD Y6, Y3, Y3 // u
	VMULPD c7th<>(SB), Y3, Y4
	VSUBPD Y4, Y8, Y4
	VMULPD Y3, Y4, Y4
	VSUBPD Y4, Y9, Y4
	VMULPD Y3, Y4, Y4
	VSUBPD Y4, Y10, Y4
	VMULPD Y3, Y4, Y4
	VSUBPD Y4, Y11, Y4
	VMULPD Y3, Y4, Y4
	VSUBPD Y4, Y12, Y4
	VMULPD Y3, Y4, Y4
	VSUBPD Y4, Y13, Y4
	VMULPD Y3, Y4, Y4 // p
	VMULPD logLn2Lo<>(SB), Y1, Y5
	VADDPD Y5, Y4, Y4
	VADDPD Y4, Y7, Y4
	VMULPD logLn2Hi<>(SB), Y1, Y1
	VADDPD Y4, Y1, Y1
	VMOVUPD Y1, (DI)(CX*8)
	ADDQ $4, CX
	JMP  logToLoop

logToDone:
	VZEROUPPER
	MOVQ CX, ret+56(FP)
	RET

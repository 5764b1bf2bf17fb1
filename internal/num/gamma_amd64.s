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

// LgammaTo's operands besides 1/2 and 1: 2, 3 to 8, 2⁵⁸, and
// math.Lgamma's coefficients (lgamS, lgamR, lgamW in lgamma.go).
CONST4(lgTwo, 0x4000000000000000)
CONST4(lgThree, 0x4008000000000000)
CONST4(lgFour, 0x4010000000000000)
CONST4(lgFive, 0x4014000000000000)
CONST4(lgSix, 0x4018000000000000)
CONST4(lgEight, 0x4020000000000000)
CONST4(lgS0, 0xbfb3c467e37db0c8)
CONST4(lgS1, 0x3fcb848b36e20878)
CONST4(lgS2, 0x3fd4d98f4f139f59)
CONST4(lgS3, 0x3fc2bb9cbee5f2f7)
CONST4(lgS4, 0x3f9b481c7e939961)
CONST4(lgS5, 0x3f5e26b67368f239)
CONST4(lgS6, 0x3f00bfecdd17e945)
CONST4(lgR1, 0x3ff645a762c4ab74)
CONST4(lgR2, 0x3fe71a1893d3dcdc)
CONST4(lgR3, 0x3fc601edccfbdf27)
CONST4(lgR4, 0x3f9317ea742ed475)
CONST4(lgR5, 0x3f497ddaca41a95b)
CONST4(lgR6, 0x3edebaf7a5b38140)
CONST4(lgW0, 0x3fdacfe390c97d69)
CONST4(lgW1, 0x3fb555555555553b)
CONST4(lgW2, 0xbf66c16c16b02e5c)
CONST4(lgW3, 0x3f4a019f98cf38b6)
CONST4(lgW4, 0xbf4380cb8c0fe741)
CONST4(lgW5, 0x3f4b67ba4cdad5d1)
CONST4(lgW6, 0xbf5ab89d0b9e43e4)
CONST4(lgTwo58, 0x4390000000000000)

// POSGROUP loads x[CX..CX+3] (SI x, DX its length) into Y0 and jumps to
// DONE unless four remain and every one is positive and finite; Y15 holds
// 0, Y14 +Inf, Y13 the bound of the shifts (7 or 10) and Y12 1 after
// POSINIT(BOUND). It uses AX, Y1 and Y2.
#define POSINIT(BOUND) \
	VXORPD  Y15, Y15, Y15; \
	VMOVUPD dgInf<>(SB), Y14; \
	VMOVUPD BOUND, Y13; \
	VMOVUPD dgOne<>(SB), Y12

#define POSGROUP(DONE) \
	LEAQ      4(CX), AX; \
	CMPQ      AX, DX; \
	JGT       DONE; \
	VMOVUPD   (SI)(CX*8), Y0; \
	VCMPPD    $0x1E, Y15, Y0, Y1; \
	VCMPPD    $0x11, Y14, Y0, Y2; \
	VANDPD    Y2, Y1, Y1; \
	VMOVMSKPD Y1, AX; \
	CMPQ      AX, $15; \
	JNE       DONE

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
	POSINIT(dgSeven<>(SB))

dsLoop:
	POSGROUP(dsDone)
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

// LgammaDigammaTo's operands besides 1/2 and 1: its shift 10, the
// series' 1/12, 1/360, 1/1260, 1/1680, 1188, 1/120, 1/252, 1/240 and 132
// as Go rounds them.
CONST4(lgd12, 0x3fb5555555555555)
CONST4(lgd360, 0x3f66c16c16c16c17)
CONST4(lgd1260, 0x3f4a01a01a01a01a)
CONST4(lgd1680, 0x3f43813813813814)
CONST4(lgd1188, 0x4092900000000000)
CONST4(lgd120, 0x3f81111111111111)
CONST4(lgd252, 0x3f70410410410410)
CONST4(lgd240, 0x3f71111111111111)
CONST4(lgd132, 0x4060800000000000)
CONST4(lgdTen, 0x4024000000000000)

// LGGROUP loads x[CX..CX+3] into Y0 and jumps to DONE unless every one
// lies in (2, 2⁵⁸), where LgammaTo takes the branches written below. It
// uses AX, Y1 and Y2.
#define LGGROUP(DONE) \
	LEAQ      4(CX), AX; \
	CMPQ      AX, DX; \
	JGT       DONE; \
	VMOVUPD   (SI)(CX*8), Y0; \
	VCMPPD    $0x1E, lgTwo<>(SB), Y0, Y1; \
	VCMPPD    $0x11, lgTwo58<>(SB), Y0, Y2; \
	VANDPD    Y2, Y1, Y1; \
	VMOVMSKPD Y1, AX; \
	CMPQ      AX, $15; \
	JNE       DONE

// LGSHIFT multiplies Y5 by Y4 + C where the whole part Y3 is at least
// C + 1, as lgammaLogArg's cases fall through. It uses Y6 and Y7.
#define LGSHIFT(C, C1) \
	VCMPPD    $0x1D, C1, Y3, Y6; \
	VADDPD    C, Y4, Y7; \
	VMULPD    Y7, Y5, Y7; \
	VBLENDVPD Y6, Y7, Y5, Y5

// func lgammaArgAVX2(dst, x []float64, i int) int
//
// lgammaLogArg for x in (2, 2⁵⁸): x from 8 on, else the product
// (y+6)(y+5)…(y+2) of the terms its whole part i = int(x) calls for, with
// y = x − i, in lgammaLogArg's order from 1, or 1 for i = 2.
TEXT ·lgammaArgAVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), DX
	MOVQ i+48(FP), CX

laLoop:
	LGGROUP(laDone)
	VROUNDPD  $3, Y0, Y3 // float64(int(x))
	VSUBPD    Y3, Y0, Y4 // y
	VMOVUPD   dgOne<>(SB), Y5
	LGSHIFT(lgSix<>(SB), dgSeven<>(SB))
	LGSHIFT(lgFive<>(SB), lgSix<>(SB))
	LGSHIFT(lgFour<>(SB), lgFive<>(SB))
	LGSHIFT(lgThree<>(SB), lgFour<>(SB))
	LGSHIFT(lgTwo<>(SB), lgThree<>(SB))
	VCMPPD    $0x1D, lgEight<>(SB), Y0, Y6
	VBLENDVPD Y6, Y0, Y5, Y5
	VMOVUPD   Y5, (DI)(CX*8)
	ADDQ $4, CX
	JMP  laLoop

laDone:
	VZEROUPPER
	MOVQ CX, ret+56(FP)
	RET

// LGHORNER sets Y5 = C + Y·Y5, one step of a polynomial's nested form.
#define LGHORNER(C, Y) \
	VMULPD Y5, Y, Y5; \
	VADDPD C, Y5, Y5

// func lgammaValueAVX2(dst, x []float64, i int) int
//
// lgammaWithLog for x in (2, 2⁵⁸) given dst = log lgammaLogArg(x): both
// branches, 2 < x < 8 and x ≥ 8, in lgammaWithLog's operations and order,
// each lane taking its own.
TEXT ·lgammaValueAVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), DX
	MOVQ i+48(FP), CX

lvLoop:
	LGGROUP(lvDone)
	VMOVUPD  (DI)(CX*8), Y1 // log
	VROUNDPD $3, Y0, Y3
	VSUBPD   Y3, Y0, Y4 // y = x − i
	// p = y·(S0 + y·(S1 + … + y·S6)).
	VMOVUPD  lgS6<>(SB), Y5
	LGHORNER(lgS5<>(SB), Y4)
	LGHORNER(lgS4<>(SB), Y4)
	LGHORNER(lgS3<>(SB), Y4)
	LGHORNER(lgS2<>(SB), Y4)
	LGHORNER(lgS1<>(SB), Y4)
	LGHORNER(lgS0<>(SB), Y4)
	VMULPD   Y5, Y4, Y8
	// q = 1 + y·(R1 + … + y·R6).
	VMOVUPD  lgR6<>(SB), Y5
	LGHORNER(lgR5<>(SB), Y4)
	LGHORNER(lgR4<>(SB), Y4)
	LGHORNER(lgR3<>(SB), Y4)
	LGHORNER(lgR2<>(SB), Y4)
	LGHORNER(lgR1<>(SB), Y4)
	LGHORNER(dgOne<>(SB), Y4)
	VDIVPD   Y5, Y8, Y8 // p/q
	VMULPD   dgHalf<>(SB), Y4, Y9
	VADDPD   Y8, Y9, Y9 // 0.5·y + p/q
	VADDPD   Y1, Y9, Y8
	VCMPPD   $0x1D, lgThree<>(SB), Y3, Y6 // i ≥ 3: + log
	VBLENDVPD Y6, Y8, Y9, Y9
	// x ≥ 8: (x − ½)(log − 1) + W0 + z·(W1 + y·(W2 + … + y·W6)), z = 1/x,
	// y = z².
	VMOVUPD  dgOne<>(SB), Y10
	VDIVPD   Y0, Y10, Y11 // z
	VMULPD   Y11, Y11, Y12 // y
	VMOVUPD  lgW6<>(SB), Y5
	LGHORNER(lgW5<>(SB), Y12)
	LGHORNER(lgW4<>(SB), Y12)
	LGHORNER(lgW3<>(SB), Y12)
	LGHORNER(lgW2<>(SB), Y12)
	LGHORNER(lgW1<>(SB), Y12)
	LGHORNER(lgW0<>(SB), Y11)
	VSUBPD   dgHalf<>(SB), Y0, Y13
	VSUBPD   Y10, Y1, Y14
	VMULPD   Y14, Y13, Y13
	VADDPD   Y5, Y13, Y13
	VCMPPD   $0x1D, lgEight<>(SB), Y0, Y6
	VBLENDVPD Y6, Y13, Y9, Y9
	VMOVUPD  Y9, (DI)(CX*8)
	ADDQ $4, CX
	JMP  lvLoop

lvDone:
	VZEROUPPER
	MOVQ CX, ret+56(FP)
	RET

// func lgdgShiftAVX2(u, prod, inv, x []float64, i int) int
//
// LgammaDigammaTo's shifts for j = i, i+4, ... in groups of four with
// every x[j] positive and finite: from u = x, prod = 1, inv = 0, where
// u < 10: prod = prod·u, inv = inv + 1/u, u = u + 1. It returns the first
// j it did not write, as digammaShiftAVX2 does.
TEXT ·lgdgShiftAVX2(SB), NOSPLIT, $0-112
	MOVQ u_base+0(FP), DI
	MOVQ prod_base+24(FP), R9
	MOVQ inv_base+48(FP), R10
	MOVQ x_base+72(FP), SI
	MOVQ x_len+80(FP), DX
	MOVQ i+96(FP), CX
	POSINIT(lgdTen<>(SB))

gsLoop:
	POSGROUP(gsDone)
	VMOVAPD Y12, Y3   // prod = 1
	VXORPD  Y4, Y4, Y4 // inv = 0

gsShift:
	VCMPPD $0x11, Y13, Y0, Y1 // u < 10
	VMOVMSKPD Y1, AX
	TESTQ AX, AX
	JZ   gsShifted
	VMULPD    Y0, Y3, Y5
	VBLENDVPD Y1, Y5, Y3, Y3
	VDIVPD    Y0, Y12, Y5
	VADDPD    Y5, Y4, Y5
	VBLENDVPD Y1, Y5, Y4, Y4
	VADDPD    Y12, Y0, Y5
	VBLENDVPD Y1, Y5, Y0, Y0
	JMP  gsShift

gsShifted:
	VMOVUPD Y0, (DI)(CX*8)
	VMOVUPD Y3, (R9)(CX*8)
	VMOVUPD Y4, (R10)(CX*8)
	ADDQ $4, CX
	JMP  gsLoop

gsDone:
	VZEROUPPER
	MOVQ CX, ret+104(FP)
	RET

// LGDSTEP sets Y5 = C − Y11·Y5 (Y11 = r²), one step of the series'
// nested form.
#define LGDSTEP(C) \
	VMULPD Y5, Y11, Y5; \
	VMOVUPD C, Y6; \
	VSUBPD Y5, Y6, Y5

// func lgdgSeriesAVX2(lg, ps, u, lu, lp, sh []float64, h float64)
//
// LgammaDigammaTo's series for every j of u, whose length is a multiple
// of four: with r = 1/u and lu = log u,
//
//	lg = (u − ½)·lu − u + h + r·(1/12 − r²(1/360 − r²(1/1260 − r²(1/1680 − r²/1188)))) − lp,
//	ps = lu − ½r − r²(1/12 − r²(1/120 − r²(1/252 − r²(1/240 − r²/132)))) − sh,
//
// in the scalar loop's operations and order.
TEXT ·lgdgSeriesAVX2(SB), NOSPLIT, $0-152
	MOVQ lg_base+0(FP), DI
	MOVQ ps_base+24(FP), R8
	MOVQ u_base+48(FP), SI
	MOVQ u_len+56(FP), DX
	MOVQ lu_base+72(FP), R9
	MOVQ lp_base+96(FP), R10
	MOVQ sh_base+120(FP), R11
	VBROADCASTSD h+144(FP), Y15
	VMOVUPD dgOne<>(SB), Y14
	VMOVUPD dgHalf<>(SB), Y13
	XORQ CX, CX

gdLoop:
	CMPQ CX, DX
	JGE  gdDone
	VMOVUPD (SI)(CX*8), Y0 // u
	VMOVUPD (R9)(CX*8), Y1 // lu
	VDIVPD  Y0, Y14, Y10   // r
	VMULPD  Y10, Y10, Y11  // r²
	// lg.
	VDIVPD  lgd1188<>(SB), Y11, Y5
	VMOVUPD lgd1680<>(SB), Y6
	VSUBPD  Y5, Y6, Y5
	LGDSTEP(lgd1260<>(SB))
	LGDSTEP(lgd360<>(SB))
	LGDSTEP(lgd12<>(SB))
	VMULPD  Y5, Y10, Y5    // r·(…)
	VSUBPD  Y13, Y0, Y2    // u − ½
	VMULPD  Y1, Y2, Y2     // ·lu
	VSUBPD  Y0, Y2, Y2     // − u
	VADDPD  Y15, Y2, Y2    // + h
	VADDPD  Y5, Y2, Y2
	VSUBPD  (R10)(CX*8), Y2, Y2
	VMOVUPD Y2, (DI)(CX*8)
	// ps.
	VDIVPD  lgd132<>(SB), Y11, Y5
	VMOVUPD lgd240<>(SB), Y6
	VSUBPD  Y5, Y6, Y5
	LGDSTEP(lgd252<>(SB))
	LGDSTEP(lgd120<>(SB))
	LGDSTEP(lgd12<>(SB))
	VMULPD  Y5, Y11, Y5    // r²·(…)
	VMULPD  Y13, Y10, Y3   // ½r
	VSUBPD  Y3, Y1, Y3     // lu − ½r
	VSUBPD  Y5, Y3, Y3
	VSUBPD  (R11)(CX*8), Y3, Y3
	VMOVUPD Y3, (R8)(CX*8)
	ADDQ $4, CX
	JMP  gdLoop

gdDone:
	VZEROUPPER
	RET

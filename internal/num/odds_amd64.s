//go:build amd64 && !purego

#include "textflag.h"

// func oddsPairsAVX(odds, b, g, ex []float64, off []int, pseudo, floor float64, m int)
//
// OddsPairs' loop (odds.go) four objects at a time: the same operations in
// the same order, so the results are the scalar loop's bit for bit. The
// pairs of b and g are split into their first and second numbers with
// VUNPCKLPD and VUNPCKHPD, which leaves the objects in the order 0, 2, 1,
// 3; ex and the label counts are put in that order (VPERMPD $0xD8), and
// the odds back. Registers: DI odds, SI b, R9 g, R10 ex, R8 off, CX the
// object i, DX 2i; Y15 1, Y14 0, Y13 pseudo, Y12 floor, Y11 2⁵².
TEXT ·oddsPairsAVX(SB), NOSPLIT, $0-144
	MOVQ         odds_base+0(FP), DI
	MOVQ         b_base+24(FP), SI
	MOVQ         g_base+48(FP), R9
	MOVQ         ex_base+72(FP), R10
	MOVQ         off_base+96(FP), R8
	MOVQ         m+136(FP), R11
	MOVQ         $0x3ff0000000000000, AX
	VMOVQ        AX, X15
	VPBROADCASTQ X15, Y15
	VXORPD       Y14, Y14, Y14
	VBROADCASTSD pseudo+120(FP), Y13
	VBROADCASTSD floor+128(FP), Y12
	MOVQ         $0x4330000000000000, AX
	VMOVQ        AX, X11
	VPBROADCASTQ X11, Y11
	XORQ         CX, CX

oddsGroup:
	CMPQ CX, R11
	JGE  oddsDone
	MOVQ CX, DX
	SHLQ $1, DX

	// q = SigmoidPair(d, ex): big = 1/(1 + ex), small = ex·big,
	// (q₀, q₁) = (small, big) where d ≥ 0, else (big, small).
	VMOVUPD   (SI)(DX*8), Y0
	VMOVUPD   32(SI)(DX*8), Y1
	VUNPCKLPD Y1, Y0, Y2 // b₀
	VUNPCKHPD Y1, Y0, Y3 // b₁
	VSUBPD    Y2, Y3, Y4 // d
	VMOVUPD   (R10)(CX*8), Y5
	VPERMPD   $0xD8, Y5, Y5
	VADDPD    Y15, Y5, Y6
	VDIVPD    Y6, Y15, Y6       // big
	VMULPD    Y6, Y5, Y7        // small
	VCMPPD    $0x0D, Y14, Y4, Y8 // d >= 0, false for NaN
	VBLENDVPD Y8, Y6, Y7, Y9    // q₁
	VBLENDVPD Y8, Y7, Y6, Y10   // q₀

	// 1/n, n = (off[j+1] - off[j]) + pseudo, the count made a float64 by
	// its bits under 2⁵²'s.
	VMOVDQU (R8)(CX*8), Y0
	VMOVDQU 8(R8)(CX*8), Y1
	VPSUBQ  Y0, Y1, Y1
	VPERMQ  $0xD8, Y1, Y1
	VPOR    Y11, Y1, Y1
	VSUBPD  Y11, Y1, Y1
	VADDPD  Y13, Y1, Y1
	VDIVPD  Y1, Y15, Y1

	// w_z = max(q_z + g_z·(1/n), 0).
	VMOVUPD   (R9)(DX*8), Y2
	VMOVUPD   32(R9)(DX*8), Y3
	VUNPCKLPD Y3, Y2, Y4 // g₀
	VUNPCKHPD Y3, Y2, Y5 // g₁
	VMULPD    Y1, Y4, Y4
	VADDPD    Y4, Y10, Y10
	VMULPD    Y1, Y5, Y5
	VADDPD    Y5, Y9, Y9
	VMAXPD    Y10, Y14, Y10
	VADDPD    Y14, Y10, Y10 // w₀
	VMAXPD    Y9, Y14, Y9
	VADDPD    Y14, Y9, Y9   // w₁

	// The odds max(w₁, f·s)/max(w₀, f·s), or 1 where !(s > 0).
	VADDPD    Y9, Y10, Y0
	VCMPPD    $0x1E, Y14, Y0, Y8 // s > 0, false for NaN
	VMULPD    Y12, Y0, Y0
	VMAXPD    Y0, Y9, Y9
	VMAXPD    Y0, Y10, Y10
	VDIVPD    Y10, Y9, Y9
	VBLENDVPD Y8, Y9, Y15, Y9
	VPERMPD   $0xD8, Y9, Y9
	VMOVUPD   Y9, (DI)(CX*8)
	ADDQ      $4, CX
	JMP       oddsGroup

oddsDone:
	VZEROUPPER
	RET

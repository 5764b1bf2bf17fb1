//go:build amd64 && !purego

#include "textflag.h"
#include "table_amd64.h"

// PRIOR2 sets X0 to group BX's q = (q₀, q₁) as SigmoidPair(d, ex) gives it,
// d = b₁ - b₀ from the logits at BASEB and ex from BASEEX (slices' bases
// in the frame): big = 1/(1 + ex), small = ex·big, (q₀, q₁) = (small, big)
// where d ≥ 0 (false for NaN), else (big, small), without a branch. X10
// holds 1; it uses AX, R11 and X3-X8.
#define PRIOR2(BASEB, BASEEX) \
	MOVQ      BX, R11; \
	SHLQ      $4, R11; \
	MOVQ      BASEB, AX; \
	VMOVSD    8(AX)(R11*1), X5; \
	VSUBSD    (AX)(R11*1), X5, X5; \
	MOVQ      BASEEX, AX; \
	VMOVSD    (AX)(BX*8), X6; \
	VADDSD    X10, X6, X7; \
	VDIVSD    X7, X10, X7; \
	VMULSD    X7, X6, X6; \
	VUNPCKLPD X6, X7, X8; \
	VPERMILPD $1, X8, X0; \
	VXORPD    X4, X4, X4; \
	VCMPSD    $0x0D, X4, X5, X3; \
	VMOVDDUP  X3, X3; \
	VBLENDVPD X3, X0, X8, X0

// GRAD2 adds to group BX's gradient at BASEGB (a slice's base in the
// frame) its sums of responsibilities X1 less its n = DX - R14 labels
// times its q (X0): gb_j += Σ_i r_i - n·q_j. It uses AX, R11 and X5.
#define GRAD2(BASEGB) \
	MOVQ       DX, AX; \
	SUBQ       R14, AX; \
	VCVTSI2SDQ AX, X5, X5; \
	VMOVDDUP   X5, X5; \
	VMULPD     X0, X5, X5; \
	VSUBPD     X5, X1, X5; \
	MOVQ       BASEGB, AX; \
	MOVQ       BX, R11; \
	SHLQ       $4, R11; \
	VADDPD     (AX)(R11*1), X5, X5; \
	VMOVUPD    X5, (AX)(R11*1)

// START2 sets up a DA loop's registers: X13 prod from PROD, the scale
// from SCALE kept in its result's slot RET1, X10 1, X11 2⁻²⁵⁶, X12 2⁻⁶⁰⁰,
// and BX (the group) and CX (the label) 0. It uses AX.
#define START2(PROD, SCALE, RET1) \
	VMOVSD PROD, X13; \
	MOVQ   SCALE, AX; \
	MOVQ   AX, RET1; \
	MOVQ   $0x3ff0000000000000, AX; \
	VMOVQ  AX, X10; \
	MOVQ   $0x2ff0000000000000, AX; \
	VMOVQ  AX, X11; \
	MOVQ   $0x1a70000000000000, AX; \
	VMOVQ  AX, X12; \
	XORQ   BX, BX; \
	XORQ   CX, CX

// GROUP2 starts group BX of a DA loop, or jumps to DONE after the last
// (ENDSLEN the number of groups): DX its end from R10's ends, R14 its
// start, X0 its q (PRIOR2 from BASEB and BASEEX), X1 its sums 0, and prod
// and the scale before it in X9 and SAVED (from RET1).
#define GROUP2(ENDSLEN, DONE, BASEB, BASEEX, RET1, SAVED) \
	CMPQ    BX, ENDSLEN; \
	JGE     DONE; \
	MOVQ    (R10)(BX*8), DX; \
	MOVQ    CX, R14; \
	PRIOR2(BASEB, BASEEX); \
	VXORPD  X1, X1, X1; \
	VMOVAPD X13, X9; \
	MOVQ    RET1, AX; \
	MOVQ    AX, SAVED

// RESP2 is a DA loop's label with the row PROW (a memory operand): t = q·p
// in X2, m = t₀ + t₁ in X3, a jump to FAIL where m < 2⁻⁶⁰⁰ or is NaN,
// r = t·(1/m) in X2, added to the sums X1, and prod X13 *= m; it uses X4.
// The caller stores r and then checks prod.
#define RESP2(PROW, FAIL) \
	VMULPD   PROW, X0, X2; \
	VHADDPD  X2, X2, X3; \
	VUCOMISD X12, X3; \
	JCS      FAIL; \
	VDIVSD   X3, X10, X4; \
	VMOVDDUP X4, X4; \
	VMULPD   X4, X2, X2; \
	VADDPD   X2, X1, X1; \
	VMULSD   X3, X13, X13

// PFAHEAD is how many labels ahead respPairsAVX and posteriorPairsAVX
// prefetch the rows of t and gw: with many workers the two tables outgrow
// a core's cache, and a label's loads would otherwise wait for memory.
#define PFAHEAD 16

// PFPAIR prefetches the rows of t (DI) and gw (SI) of the label PFAHEAD
// after CX, or of the last label within R15, the last index that worker
// (R8) and label (R9) hold in their capacity; nothing where R15 is
// negative (a small table, TABLEARGS). A worker outside t gives an address
// outside it, which a prefetch ignores. It uses AX and R11, and jumps to
// SKIP, the label that follows it.
#define PFPAIR(SKIP) \
	TESTQ      R15, R15; \
	JS         SKIP; \
	LEAQ       PFAHEAD(CX), AX; \
	CMPQ       AX, R15; \
	CMOVQGT    R15, AX; \
	MOVLQSX    (R8)(AX*4), R11; \
	MOVWQZX    (R9)(AX*2), AX; \
	ANDQ       $1, AX; \
	LEAQ       (AX)(R11*2), AX; \
	SHLQ       $4, AX; \
	PREFETCHT0 (DI)(AX*1); \
	PREFETCHT0 (SI)(AX*1)

// TABLEARGS loads the arguments that respPairsAVX and posteriorPairsAVX
// share, t, gw []float64, worker []int32, label []uint16 at the start of
// the frame: DI t, R12 the number of workers' rows in t (len(t)/4), SI
// gw, R8 worker, R9 label, and R15 as PFLAST sets it (for PFPAIR). It
// uses AX.
#define TABLEARGS \
	MOVQ    t_base+0(FP), DI; \
	MOVQ    t_len+8(FP), R12; \
	SHRQ    $2, R12; \
	MOVQ    gw_base+24(FP), SI; \
	MOVQ    worker_base+48(FP), R8; \
	MOVQ    label_base+72(FP), R9; \
	PFLAST(R15)

// func respPairsAVX(t, gw []float64, worker []int32, label []uint16, ends []int, b, ex, gb, r []float64, prod float64, scale int) (float64, int, int)
//
// RespPairs' loop (pairs.go), a label's two classes in one register: the
// same operations in the same order, so the results are the scalar loop's
// bit for bit. Registers: DI t, SI gw, R8 worker, R9 label, R10 ends,
// R13 r, R12 the number of workers' rows in t (len(t)/4), BX the group j,
// CX the label i, DX the group's end, R14 its start, R15 the last label
// within the capacities of worker and label (for PFPAIR, which reads
// ahead of the labels given, as far as the slices' memory goes); X0 the
// group's q, X1 its sums of responsibilities, X13 prod, X9 prod before the
// group, X10 1, X11 2⁻²⁵⁶, X12 2⁻⁶⁰⁰. scale is kept in its result's slot,
// and scale before the group in done's.
TEXT ·respPairsAVX(SB), NOSPLIT, $0-256
	TABLEARGS
	MOVQ    ends_base+96(FP), R10
	MOVQ    r_base+192(FP), R13
	START2(prod+216(FP), scale+224(FP), ret1+240(FP))

pairsGroup:
	GROUP2(ends_len+104(FP), pairsDone, b_base+120(FP), ex_base+144(FP), ret1+240(FP), ret2+248(FP))

pairsLabel:
	CMPQ     CX, DX
	JGE      pairsAdd
	PFPAIR(pairsFetched)

pairsFetched:
	MOVLQSX  (R8)(CX*4), AX
	CMPQ     AX, R12
	JAE      pairsBadRow        // unsigned: a negative worker too
	MOVWQZX  (R9)(CX*2), R11
	ANDQ     $1, R11
	LEAQ     (R11)(AX*2), AX
	SHLQ     $4, AX // (2w + y)·16, the row's byte offset
	RESP2((DI)(AX*1), pairsFail)
	MOVQ     CX, R11
	SUBQ     R14, R11
	SHLQ     $4, R11
	VMOVUPD  X2, (R13)(R11*1)
	VUCOMISD X11, X13
	JCS      pairsRescale       // prod < 2⁻²⁵⁶, or NaN

pairsNext:
	INCQ CX
	JMP  pairsLabel

pairsRescale:
	JPS   pairsNext // NaN: no rescale
	FREXP(ret1+240(FP))
	JMP   pairsNext

pairsAdd:
	// Every m of the group passed: its responsibilities to gw.
	MOVQ R14, CX

pairsAddLabel:
	CMPQ    CX, DX
	JGE     pairsGroupEnd
	MOVLQSX (R8)(CX*4), AX
	MOVWQZX (R9)(CX*2), R11
	ANDQ    $1, R11
	LEAQ    (R11)(AX*2), AX
	SHLQ    $4, AX
	MOVQ    CX, R11
	SUBQ    R14, R11
	SHLQ    $4, R11
	VMOVUPD (R13)(R11*1), X2
	VADDPD  (SI)(AX*1), X2, X2
	VMOVUPD X2, (SI)(AX*1)
	INCQ    CX
	JMP     pairsAddLabel

pairsGroupEnd:
	GRAD2(gb_base+168(FP))
	INCQ BX
	JMP  pairsGroup

pairsFail:
	VMOVAPD X9, X13
	MOVQ    ret2+248(FP), AX
	MOVQ    AX, ret1+240(FP)
	JMP     pairsDone

pairsBadRow:
	MOVQ $-1, BX

pairsDone:
	VMOVSD X13, ret+232(FP)
	MOVQ   BX, ret2+248(FP)
	RET

// func posteriorPairsAVX(t, gw []float64, worker []int32, label []uint16, ends []int, p0, p1 float64, acc, out []float64, m float64, e int) (float64, int, int)
//
// PosteriorPairs' loop (pairs.go), both classes in one register: the same
// operations in the same order, so the results are the scalar loop's bit
// for bit; with out not nil, each group's posterior is also written to
// out[2j], out[2j+1] (PosteriorPairsTo). Registers: DI t, SI gw, R8
// worker, R9 label, R10 ends, R12 the number of workers' rows in t, R13
// out (0 for none), BX the group j, CX the label i, DX the group's end,
// R14 its start, R15 the last label within the capacities of worker and
// label (for PFPAIR); X0 the prior, X1 acc, X2 the products, X13 m, X10 1,
// X11 2⁻²⁵⁶ twice, X12 2, X14 2²⁵⁶. e is kept in its result's slot.
TEXT ·posteriorPairsAVX(SB), NOSPLIT, $0-224
	TABLEARGS
	MOVQ    ends_base+96(FP), R10
	VMOVUPD p0+120(FP), X0
	MOVQ    acc_base+136(FP), AX
	VMOVUPD (AX), X1
	MOVQ    out_base+160(FP), R13
	VMOVSD  m+184(FP), X13
	MOVQ    e+192(FP), AX
	MOVQ    AX, ret1+208(FP)
	MOVQ    $0x3ff0000000000000, AX
	VMOVQ   AX, X10
	MOVQ    $0x2ff0000000000000, AX
	VMOVQ   AX, X11
	VMOVDDUP X11, X11
	MOVQ    $0x4000000000000000, AX
	VMOVQ   AX, X12
	MOVQ    $0x4ff0000000000000, AX
	VMOVQ   AX, X14
	XORQ    BX, BX
	XORQ    CX, CX

postGroup:
	CMPQ    BX, ends_len+104(FP)
	JGE     postDone
	MOVQ    (R10)(BX*8), DX
	MOVQ    CX, R14
	VMOVAPD X0, X2

postLabel:
	CMPQ      CX, DX
	JGE       postEnd
	PFPAIR(postFetched)

postFetched:
	MOVLQSX   (R8)(CX*4), AX
	CMPQ      AX, R12
	JAE       postBadRow // unsigned: a negative worker too
	MOVWQZX   (R9)(CX*2), R11
	ANDQ      $1, R11
	LEAQ      (R11)(AX*2), AX
	SHLQ      $4, AX
	VMULPD    (DI)(AX*1), X2, X2 // s_z *= p_i(z)
	VCMPPD    $0x0D, X11, X2, X3 // s_z >= 2⁻²⁵⁶, false for NaN
	VMOVMSKPD X3, R11
	CMPQ      R11, $3
	JNE       postDone           // the checked loop's object
	INCQ      CX
	JMP       postLabel

postEnd:
	VHADDPD  X2, X2, X3 // sum = s_0 + s_1
	VUCOMISD X12, X3
	JHI      postDone   // sum > 2: the checked loop's object
	JPS      postDone   // or NaN (an empty group's prior)
	VDIVSD   X3, X10, X4
	VMOVDDUP X4, X4
	VMULPD   X4, X2, X5 // g = s·(1/sum)
	MOVQ     R14, CX

postAdd:
	CMPQ    CX, DX
	JGE     postAcc
	MOVLQSX (R8)(CX*4), AX
	MOVWQZX (R9)(CX*2), R11
	ANDQ    $1, R11
	LEAQ    (R11)(AX*2), AX
	SHLQ    $4, AX
	VADDPD  (SI)(AX*1), X5, X6
	VMOVUPD X6, (SI)(AX*1)
	INCQ    CX
	JMP     postAdd

postAcc:
	TESTQ    R13, R13
	JZ       postNoOut
	MOVQ     BX, AX
	SHLQ     $4, AX
	VMOVUPD  X5, (R13)(AX*1) // out[2j], out[2j+1] = g

postNoOut:
	VSUBPD   X0, X5, X6 // g - p
	VADDPD   X6, X1, X1
	VMULSD   X3, X13, X13 // m *= sum
	VUCOMISD X11, X13
	JCS      postRescale
	VUCOMISD X14, X13
	JHI      postRescale
	INCQ     BX
	JMP      postGroup

postRescale:
	FREXP(ret1+208(FP)) // m, a normal number here
	INCQ  BX
	JMP   postGroup

postBadRow:
	MOVQ $-1, BX

postDone:
	MOVQ    acc_base+136(FP), AX
	VMOVUPD X1, (AX)
	VMOVSD  X13, ret+200(FP)
	MOVQ    BX, ret2+216(FP)
	RET

// func respPairsBatchAVX(p, g []float64, ends []int, b, ex, gb []float64, prod float64, scale int) (float64, int, int)
//
// RespPairsBatch's loop (pairs.go): respPairsAVX's, with each label's
// probabilities read in order from p and its responsibilities written to
// g. Registers: DI p, SI g, R10 ends, BX the group j, CX the label i, DX
// the group's end, R14 its start; X0 the group's q, X1 its sums, X13
// prod, X9 prod before the group, X10 1, X11 2⁻²⁵⁶, X12 2⁻⁶⁰⁰. scale is
// kept in its result's slot, and scale before the group in done's.
TEXT ·respPairsBatchAVX(SB), NOSPLIT, $0-184
	MOVQ   p_base+0(FP), DI
	MOVQ   g_base+24(FP), SI
	MOVQ   ends_base+48(FP), R10
	START2(prod+144(FP), scale+152(FP), ret1+168(FP))

batchGroup:
	GROUP2(ends_len+56(FP), batchDone, b_base+72(FP), ex_base+96(FP), ret1+168(FP), ret2+176(FP))

batchLabel:
	CMPQ     CX, DX
	JGE      batchGroupEnd
	MOVQ     CX, AX
	SHLQ     $4, AX
	RESP2((DI)(AX*1), batchFail)
	VMOVUPD  X2, (SI)(AX*1)
	VUCOMISD X11, X13
	JCS      batchRescale       // prod < 2⁻²⁵⁶, or NaN

batchNext:
	INCQ CX
	JMP  batchLabel

batchRescale:
	JPS   batchNext // NaN: no rescale
	FREXP(ret1+168(FP))
	JMP   batchNext

batchGroupEnd:
	GRAD2(gb_base+120(FP))
	INCQ BX
	JMP  batchGroup

batchFail:
	VMOVAPD X9, X13
	MOVQ    ret2+176(FP), AX
	MOVQ    AX, ret1+168(FP)

batchDone:
	VMOVSD X13, ret+160(FP)
	MOVQ   BX, ret2+176(FP)
	RET

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

// POSTSETUP sets the constants of posteriorPairsAVX and
// posteriorPairsRhoAVX: X10 1, X11 2⁻²⁵⁶ twice, X12 2, X14 2²⁵⁶; and BX
// and CX to 0. It uses AX.
#define POSTSETUP \
	MOVQ     $0x3ff0000000000000, AX; \
	VMOVQ    AX, X10; \
	MOVQ     $0x2ff0000000000000, AX; \
	VMOVQ    AX, X11; \
	VMOVDDUP X11, X11; \
	MOVQ     $0x4000000000000000, AX; \
	VMOVQ    AX, X12; \
	MOVQ     $0x4ff0000000000000, AX; \
	VMOVQ    AX, X14; \
	XORQ     BX, BX; \
	XORQ     CX, CX

// POSTPRODS multiplies group BX's products X2 (from the prior X0) by the
// rows of its labels, from CX to the group's end DX (its start kept in
// R14), and then sets X5 to its posterior g = s·(1/sum), with sum in X3.
// It jumps to DONE where the checked loop must take the group (a product
// below 2⁻²⁵⁶ or NaN, a sum above 2 or NaN) and to BADROW at a worker
// outside t. LOOP, FETCHED and END name its labels; the loop's test is at
// its bottom, one branch a label.
#define POSTPRODS(LOOP, FETCHED, END, BADROW, DONE) \
	MOVQ      (R10)(BX*8), DX; \
	MOVQ      CX, R14; \
	VMOVAPD   X0, X2; \
	CMPQ      CX, DX; \
	JGE       END; \
LOOP: \
	PFPAIR(FETCHED); \
FETCHED: \
	MOVLQSX   (R8)(CX*4), AX; \
	CMPQ      AX, R12; \
	JAE       BADROW; \
	MOVWQZX   (R9)(CX*2), R11; \
	ANDQ      $1, R11; \
	LEAQ      (R11)(AX*2), AX; \
	SHLQ      $4, AX; \
	VMULPD    (DI)(AX*1), X2, X2; \
	VCMPPD    $0x0D, X11, X2, X3; \
	VMOVMSKPD X3, R11; \
	CMPQ      R11, $3; \
	JNE       DONE; \
	INCQ      CX; \
	CMPQ      CX, DX; \
	JL        LOOP; \
END: \
	VHADDPD   X2, X2, X3; \
	VUCOMISD  X12, X3; \
	JHI       DONE; \
	JPS       DONE; \
	VDIVSD    X3, X10, X4; \
	VMOVDDUP  X4, X4; \
	VMULPD    X4, X2, X5

// POSTADD adds the posterior X5 to the rows of gw (SI) of the labels of
// group BX, from R14 to DX, and goes on at NEXT, which must follow it. It
// uses AX, CX, R11 and X6; LOOP names its loop, whose test is at its
// bottom.
#define POSTADD(LOOP, NEXT) \
	MOVQ    R14, CX; \
	CMPQ    CX, DX; \
	JGE     NEXT; \
LOOP: \
	MOVLQSX (R8)(CX*4), AX; \
	MOVWQZX (R9)(CX*2), R11; \
	ANDQ    $1, R11; \
	LEAQ    (R11)(AX*2), AX; \
	SHLQ    $4, AX; \
	VADDPD  (SI)(AX*1), X5, X6; \
	VMOVUPD X6, (SI)(AX*1); \
	INCQ    CX; \
	CMPQ    CX, DX; \
	JL      LOOP

// func posteriorPairsAVX(t, gw []float64, worker []int32, label []uint16, ends []int, p0, p1 float64, acc []float64, m float64, e int) (float64, int, int)
//
// PosteriorPairs' loop (pairs.go), both classes in one register: the same
// operations in the same order, so the results are the scalar loop's bit
// for bit. Registers: DI t, SI gw, R8 worker, R9 label, R10 ends, R12 the
// number of workers' rows in t, BX the group j, CX the label i, DX the
// group's end, R14 its start, R15 the last label within the capacities of
// worker and label (for PFPAIR); X0 the prior, X1 acc, X2 the products,
// X13 m, X10 1, X11 2⁻²⁵⁶ twice, X12 2, X14 2²⁵⁶. e is kept in its
// result's slot.
TEXT ·posteriorPairsAVX(SB), NOSPLIT, $0-200
	TABLEARGS
	MOVQ    ends_base+96(FP), R10
	VMOVUPD p0+120(FP), X0
	MOVQ    acc_base+136(FP), AX
	VMOVUPD (AX), X1
	VMOVSD  m+160(FP), X13
	MOVQ    e+168(FP), AX
	MOVQ    AX, ret1+184(FP)
	POSTSETUP

postGroup:
	CMPQ BX, ends_len+104(FP)
	JGE  postDone
	POSTPRODS(postLabel, postFetched, postEnd, postBadRow, postDone)
	POSTADD(postAdd, postAcc)

postAcc:
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
	FREXP(ret1+184(FP)) // m, a normal number here
	INCQ  BX
	JMP   postGroup

postBadRow:
	MOVQ $-1, BX

postDone:
	MOVQ    acc_base+136(FP), AX
	VMOVUPD X1, (AX)
	VMOVSD  X13, ret+176(FP)
	MOVQ    BX, ret2+192(FP)
	RET

// func posteriorPairsRhoAVX(t, gw []float64, worker []int32, label []uint16, off []int, p0, p1 float64, rho, sums []float64, change, m float64, e int) (float64, float64, int, int)
//
// PosteriorPairsRho's loop, as posteriorPairsAVX's with the group's
// posterior g, once its sum has passed, compared with the group's previous
// one in rho: a NaN in |g − rho| stops the loop at the group, as a failed
// check does; otherwise the largest of the two raises the change, g
// replaces rho and is added to sums, before g goes to gw. The groups are
// given by their offsets off (at least two): the label CX starts at
// off[0], R10 holds &off[1] (the groups' ends, as posteriorPairsAVX's
// ends) and off's length slot the number of groups, len(off) − 1.
// Registers as in posteriorPairsAVX, and R13 rho, X1 sums, X7 the change
// in both lanes, X15 the mask of the absolute value.
TEXT ·posteriorPairsRhoAVX(SB), NOSPLIT, $0-240
	TABLEARGS
	MOVQ     off_base+96(FP), R10
	DECQ     off_len+104(FP)
	VMOVUPD  p0+120(FP), X0
	MOVQ     rho_base+136(FP), R13
	MOVQ     sums_base+160(FP), AX
	VMOVUPD  (AX), X1
	VMOVSD   change+184(FP), X7
	VMOVDDUP X7, X7
	VMOVSD   m+192(FP), X13
	MOVQ     e+200(FP), AX
	MOVQ     AX, ret2+224(FP)
	MOVQ     $0x7fffffffffffffff, AX
	VMOVQ    AX, X15
	VMOVDDUP X15, X15
	POSTSETUP
	MOVQ     (R10), CX
	ADDQ     $8, R10

rhoGroup:
	CMPQ BX, off_len+104(FP)
	JGE  rhoDone
	POSTPRODS(rhoLabel, rhoFetched, rhoEnd, rhoBadRow, rhoDone)
	MOVQ      BX, AX
	SHLQ      $4, AX
	VMOVUPD   (R13)(AX*1), X6
	VSUBPD    X6, X5, X6
	VANDPD    X15, X6, X6 // |g − rho|
	VCMPPD    $0x03, X6, X6, X8
	VMOVMSKPD X8, R11
	TESTQ     R11, R11
	JNZ       rhoDone // a NaN: the checked loop's object
	VMAXPD    X7, X6, X7
	VMOVUPD   X5, (R13)(AX*1)
	VADDPD    X5, X1, X1
	POSTADD(rhoAdd, rhoProd)

rhoProd:
	VMULSD   X3, X13, X13 // m *= sum
	VUCOMISD X11, X13
	JCS      rhoRescale
	VUCOMISD X14, X13
	JHI      rhoRescale
	INCQ     BX
	JMP      rhoGroup

rhoRescale:
	FREXP(ret2+224(FP)) // m, a normal number here
	INCQ  BX
	JMP   rhoGroup

rhoBadRow:
	MOVQ $-1, BX

rhoDone:
	MOVQ      sums_base+160(FP), AX
	VMOVUPD   X1, (AX)
	VPERMILPD $1, X7, X8
	VMAXSD    X8, X7, X7
	VMOVSD    X13, ret+208(FP)
	VMOVSD    X7, ret1+216(FP)
	MOVQ      BX, ret3+232(FP)
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

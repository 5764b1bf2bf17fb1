//go:build amd64 && !purego

#include "textflag.h"
#include "table_amd64.h"

// PFAHEADK is how many labels ahead posteriorRowsAVX prefetches the rows
// of t and gw, for tables of at least PFMIN numbers.
#define PFAHEADK 8

// ROWARGS loads what posteriorRowsAVX and respRowsGroupsAVX share: DI t,
// SI gw, R8 worker, R9 label (the first four slices of the frame), R11 K
// from KLEN, R15 K &^ 3, and in the frame the number of rows in t
// (nrows-8(SP)), PFLAST's index for the prefetch (pflast-16(SP)), and
// 8(K-1), the offset of a row's last number (rowlast-24(SP)). It uses AX
// and DX.
#define ROWARGS(KLEN) \
	MOVQ    t_base+0(FP), DI; \
	MOVQ    gw_base+24(FP), SI; \
	MOVQ    worker_base+48(FP), R8; \
	MOVQ    label_base+72(FP), R9; \
	MOVQ    KLEN, R11; \
	MOVQ    R11, R15; \
	ANDQ    $-4, R15; \
	MOVQ    t_len+8(FP), AX; \
	XORQ    DX, DX; \
	DIVQ    R11; \
	MOVQ    AX, nrows-8(SP); \
	PFLAST(DX); \
	MOVQ    DX, pflast-16(SP); \
	LEAQ    -8(R11*8), AX; \
	MOVQ    AX, rowlast-24(SP)

// PFROWS prefetches the rows of t (DI) and gw (SI) of the label PFAHEADK
// after CX, or of the last within pflast-16(SP); nothing where that is
// negative. It uses AX, R10 and R12, and jumps to SKIP, the label that
// follows it.
#define PFROWS(FETCH, SKIP) \
	MOVQ    pflast-16(SP), R12; \
	TESTQ   R12, R12; \
	JS      SKIP; \
	LEAQ    PFAHEADK(CX), AX; \
	CMPQ    AX, R12; \
	CMOVQGT R12, AX; \
	MOVLQSX (R8)(AX*4), R12; \
	MOVWQZX (R9)(AX*2), AX; \
	IMULQ   R11, R12; \
	ADDQ    AX, R12; \
	IMULQ   R11, R12; \
	LEAQ    (DI)(R12*8), AX; \
	LEAQ    (SI)(R12*8), R12; \
	XORQ    R10, R10; \
FETCH: \
	PREFETCHT0 (AX)(R10*1); \
	PREFETCHT0 (R12)(R10*1); \
	ADDQ       $64, R10; \
	CMPQ       R10, rowlast-24(SP); \
	JLT        FETCH; \
	MOVQ       rowlast-24(SP), R10; \
	PREFETCHT0 (AX)(R10*1); \
	PREFETCHT0 (R12)(R10*1)

// ROWIDX sets AX to label CX's row index w·K + y. It uses R12.
#define ROWIDX \
	MOVLQSX (R8)(CX*4), AX; \
	IMULQ   R11, AX; \
	MOVWQZX (R9)(CX*2), R12; \
	ADDQ    R12, AX

// ROWOF sets AX to the offset (w·K + y)·K of label CX's row, and jumps to
// BAD unless the row lies within t (nrows-8(SP)). It uses R12.
#define ROWOF(BAD) \
	ROWIDX; \
	CMPQ  AX, nrows-8(SP); \
	JAE   BAD; \
	IMULQ R11, AX

// ROWAT is ROWOF for a label whose row ROWOF has checked before.
#define ROWAT \
	ROWIDX; \
	IMULQ R11, AX

// func posteriorRowsAVX(t, gw []float64, worker []int32, label []uint16, ends []int, p, s, acc []float64, m float64, e int) (float64, int, int)
//
// PosteriorRows' loop (rowgroups.go) for K ≥ 4, four classes at a
// time and the rest one at a time: the same operations in the same order
// as the scalar loop (the sum in the order of z), so the results are its
// bit for bit. Registers: DI t, SI gw, R8 worker, R9 label, R11 K, R15
// K &^ 3, R13 s, BX the group j, CX the label i, DX the group's end, R14
// its start, R10 the class z, R12 a row's address; Y14 and Y15 the
// smallest and largest values read in the groups of four, X6 and X7 in
// the rest, X3 the sum, X13 m, X10 1, X11 2⁻²⁵⁶, X12 2²⁵⁶. e is kept in
// its result's slot; the frame as ROWARGS leaves it.
TEXT ·posteriorRowsAVX(SB), NOSPLIT, $24-232
	ROWARGS(p_len+128(FP))
	MOVQ    s_base+144(FP), R13
	VMOVSD  m+192(FP), X13
	MOVQ    e+200(FP), AX
	MOVQ    AX, ret1+216(FP)
	MOVQ    $0x3ff0000000000000, AX
	VMOVQ   AX, X10
	MOVQ    $0x2ff0000000000000, AX
	VMOVQ   AX, X11
	MOVQ    $0x4ff0000000000000, AX
	VMOVQ   AX, X12
	XORQ    BX, BX
	XORQ    CX, CX

rpGroup:
	CMPQ BX, ends_len+104(FP)
	JGE  rpDone
	MOVQ ends_base+96(FP), AX
	MOVQ (AX)(BX*8), DX
	MOVQ CX, R14

	// s = p; the smallest and largest values read so far +Inf and -Inf.
	MOVQ p_base+120(FP), AX
	XORQ R10, R10

rpCopy:
	CMPQ    R10, R15
	JGE     rpCopyTail
	VMOVUPD (AX)(R10*8), Y0
	VMOVUPD Y0, (R13)(R10*8)
	ADDQ    $4, R10
	JMP     rpCopy

rpCopyTail:
	CMPQ   R10, R11
	JGE    rpCopied
	VMOVSD (AX)(R10*8), X0
	VMOVSD X0, (R13)(R10*8)
	INCQ   R10
	JMP    rpCopyTail

rpCopied:
	MOVQ         $0x7ff0000000000000, AX
	VMOVQ        AX, X6
	VPBROADCASTQ X6, Y14
	MOVQ         $0xfff0000000000000, AX
	VMOVQ        AX, X7
	VPBROADCASTQ X7, Y15

rpLabel:
	CMPQ CX, DX
	JGE  rpEnd

	PFROWS(rpFetch, rpFetched)

rpFetched:
	ROWOF(rpBadRow)
	LEAQ    (DI)(AX*8), R12
	XORQ    R10, R10

rpMul:
	CMPQ    R10, R15
	JGE     rpMulTail
	VMOVUPD (R12)(R10*8), Y1
	VMULPD  (R13)(R10*8), Y1, Y0 // s_z *= t[r+z]
	VMOVUPD Y0, (R13)(R10*8)
	VMINPD  Y1, Y14, Y14
	VMAXPD  Y1, Y15, Y15
	ADDQ    $4, R10
	JMP     rpMul

rpMulTail:
	CMPQ   R10, R11
	JGE    rpNextLabel
	VMOVSD (R12)(R10*8), X1
	VMULSD (R13)(R10*8), X1, X0
	VMOVSD X0, (R13)(R10*8)
	VMINSD X1, X6, X6
	VMAXSD X1, X7, X7
	INCQ   R10
	JMP    rpMulTail

rpNextLabel:
	INCQ CX
	JMP  rpLabel

rpEnd:
	// Every value read in [0, 1]: lo ≥ 0 and hi ≤ 1.
	VEXTRACTF128 $1, Y14, X1
	VMINPD       X1, X14, X14
	VPERMILPD    $1, X14, X1
	VMINSD       X1, X14, X14
	VMINSD       X6, X14, X14
	VXORPD       X2, X2, X2
	VUCOMISD     X2, X14
	JCS          rpDone // lo < 0 (or NaN): the checked loop's object
	VEXTRACTF128 $1, Y15, X1
	VMAXPD       X1, X15, X15
	VPERMILPD    $1, X15, X1
	VMAXSD       X1, X15, X15
	VMAXSD       X7, X15, X15
	VUCOMISD     X10, X15
	JHI          rpDone // hi > 1

	// Every product at least 2⁻²⁵⁶, and their sum in the order of z.
	VXORPD X3, X3, X3
	XORQ   R10, R10

rpSum:
	CMPQ     R10, R11
	JGE      rpScale
	VMOVSD   (R13)(R10*8), X1
	VUCOMISD X11, X1
	JCS      rpDone // below 2⁻²⁵⁶ or NaN
	VADDSD   X1, X3, X3
	INCQ     R10
	JMP      rpSum

rpScale:
	VDIVSD       X3, X10, X4 // 1/sum
	VBROADCASTSD X4, Y4
	SCALEROW(R13, Y4, X4, R10, R15, R11, rpScaleGroup, rpScaleTail, rpAddRows)

rpAddRows:
	MOVQ R14, CX

rpAddLabel:
	CMPQ    CX, DX
	JGE     rpAcc
	ROWAT
	LEAQ    (SI)(AX*8), R12
	XORQ    R10, R10

rpAdd:
	CMPQ    R10, R15
	JGE     rpAddTail
	VMOVUPD (R13)(R10*8), Y0
	VADDPD  (R12)(R10*8), Y0, Y0 // gw[r+z] += g_z
	VMOVUPD Y0, (R12)(R10*8)
	ADDQ    $4, R10
	JMP     rpAdd

rpAddTail:
	CMPQ   R10, R11
	JGE    rpAddNext
	VMOVSD (R13)(R10*8), X0
	VADDSD (R12)(R10*8), X0, X0
	VMOVSD X0, (R12)(R10*8)
	INCQ   R10
	JMP    rpAddTail

rpAddNext:
	INCQ CX
	JMP  rpAddLabel

rpAcc:
	// acc += g - p, if acc is not nil.
	MOVQ  acc_base+168(FP), R12
	TESTQ R12, R12
	JZ    rpProd
	MOVQ  p_base+120(FP), AX
	XORQ  R10, R10

rpAccGroup:
	CMPQ    R10, R15
	JGE     rpAccTail
	VMOVUPD (R13)(R10*8), Y0
	VSUBPD  (AX)(R10*8), Y0, Y0
	VADDPD  (R12)(R10*8), Y0, Y0
	VMOVUPD Y0, (R12)(R10*8)
	ADDQ    $4, R10
	JMP     rpAccGroup

rpAccTail:
	CMPQ   R10, R11
	JGE    rpProd
	VMOVSD (R13)(R10*8), X0
	VSUBSD (AX)(R10*8), X0, X0
	VADDSD (R12)(R10*8), X0, X0
	VMOVSD X0, (R12)(R10*8)
	INCQ   R10
	JMP    rpAccTail

rpProd:
	VMULSD   X3, X13, X13 // m *= sum
	INCQ     BX
	VUCOMISD X11, X13
	JCS      rpRescale
	VUCOMISD X12, X13
	JHI      rpRescale
	JMP      rpGroup

rpRescale:
	FREXP(ret1+216(FP)) // which takes R11
	MOVQ p_len+128(FP), R11
	JMP  rpGroup

rpBadRow:
	MOVQ $-1, BX

rpDone:
	VMOVSD X13, ret+208(FP)
	MOVQ   BX, ret2+224(FP)
	VZEROUPPER
	RET

// func respRowsGroupsAVX(t, gw []float64, worker []int32, label []uint16, ends []int, q, gb, r, acc []float64, prod float64, scale int) (float64, int, int)
//
// RespRowsGroups' loop (rowgroups.go) for K ≥ 4, four classes at a time
// and the rest one at a time: the same operations in the same order as
// the scalar loop (each m_i in the order of z), so the results are its bit
// for bit. Registers: DI t, SI gw, R8 worker, R9 label, R11 K, R15
// K &^ 3, BX the group j, CX the label i, DX the group's end, R14 its
// start, R10 the class z, R12 a row's address, R13 q_j (acc while the
// rows are added), AX the label's responsibilities in r; X1 m_i, X13 prod,
// X9 prod before the group, X10 1, X11 2⁻²⁵⁶, X12 2⁻⁶⁰⁰. scale is kept in
// its result's slot, and scale before the group in done's; the frame as
// ROWARGS leaves it.
TEXT ·respRowsGroupsAVX(SB), NOSPLIT, $24-256
	ROWARGS(acc_len+200(FP))
	VMOVSD prod+216(FP), X13
	MOVQ   scale+224(FP), AX
	MOVQ   AX, ret1+240(FP)
	MOVQ   $0x3ff0000000000000, AX
	VMOVQ  AX, X10
	MOVQ   $0x2ff0000000000000, AX
	VMOVQ  AX, X11
	MOVQ   $0x1a70000000000000, AX
	VMOVQ  AX, X12
	XORQ   BX, BX
	XORQ   CX, CX

rgGroup:
	CMPQ    BX, ends_len+104(FP)
	JGE     rgDone
	MOVQ    ends_base+96(FP), AX
	MOVQ    (AX)(BX*8), DX
	MOVQ    CX, R14
	VMOVAPD X13, X9
	MOVQ    ret1+240(FP), AX
	MOVQ    AX, ret2+248(FP)
	MOVQ    BX, AX
	IMULQ   R11, AX
	SHLQ    $3, AX
	ADDQ    q_base+120(FP), AX
	MOVQ    AX, R13

rgLabel:
	CMPQ CX, DX
	JGE  rgAdd
	PFROWS(rgFetch, rgFetched)

rgFetched:
	ROWOF(rgBadRow)
	LEAQ  (DI)(AX*8), R12
	MOVQ  CX, AX
	SUBQ  R14, AX
	IMULQ R11, AX
	SHLQ  $3, AX
	ADDQ  r_base+168(FP), AX
	VXORPD X1, X1, X1 // m = 0
	RESPROW(R13, R12, AX, R10, R15, R11, rgResp, rgRespTail, rgCheck)

rgCheck:
	VUCOMISD     X12, X1
	JCS          rgFail // m below 2⁻⁶⁰⁰ or NaN
	VDIVSD       X1, X10, X2 // 1/m
	VBROADCASTSD X2, Y2
	SCALEROW(AX, Y2, X2, R10, R15, R11, rgScale, rgScaleTail, rgProd)

rgProd:
	VMULSD   X1, X13, X13 // prod *= m
	INCQ     CX
	VUCOMISD X11, X13
	JCC      rgLabel
	FREXP(ret1+240(FP)) // which takes R11
	MOVQ acc_len+200(FP), R11
	JMP  rgLabel

rgAdd:
	// acc = 0, then each label's ρ added to its row of gw and to acc.
	MOVQ   acc_base+192(FP), R13
	VXORPD Y0, Y0, Y0
	XORQ   R10, R10

rgClear:
	CMPQ    R10, R15
	JGE     rgClearTail
	VMOVUPD Y0, (R13)(R10*8)
	ADDQ    $4, R10
	JMP     rgClear

rgClearTail:
	CMPQ   R10, R11
	JGE    rgAddRows
	VMOVSD X0, (R13)(R10*8)
	INCQ   R10
	JMP    rgClearTail

rgAddRows:
	MOVQ R14, CX

rgAddLabel:
	CMPQ  CX, DX
	JGE   rgGrad
	ROWAT
	LEAQ  (SI)(AX*8), R12
	MOVQ  CX, AX
	SUBQ  R14, AX
	IMULQ R11, AX
	SHLQ  $3, AX
	ADDQ  r_base+168(FP), AX
	XORQ  R10, R10

rgAddGroup:
	CMPQ    R10, R15
	JGE     rgAddTail
	VMOVUPD (AX)(R10*8), Y0
	VADDPD  (R12)(R10*8), Y0, Y1 // gw[r+z] += ρ_z
	VMOVUPD Y1, (R12)(R10*8)
	VADDPD  (R13)(R10*8), Y0, Y1 // acc_z += ρ_z
	VMOVUPD Y1, (R13)(R10*8)
	ADDQ    $4, R10
	JMP     rgAddGroup

rgAddTail:
	CMPQ   R10, R11
	JGE    rgAddNext
	VMOVSD (AX)(R10*8), X0
	VADDSD (R12)(R10*8), X0, X1
	VMOVSD X1, (R12)(R10*8)
	VADDSD (R13)(R10*8), X0, X1
	VMOVSD X1, (R13)(R10*8)
	INCQ   R10
	JMP    rgAddTail

rgAddNext:
	INCQ CX
	JMP  rgAddLabel

rgGrad:
	// gb_j += acc - n·q_j.
	MOVQ         DX, AX
	SUBQ         R14, AX
	VCVTSI2SDQ   AX, X5, X5
	VBROADCASTSD X5, Y5
	MOVQ         BX, AX
	IMULQ        R11, AX
	SHLQ         $3, AX
	MOVQ         q_base+120(FP), R12
	ADDQ         AX, R12
	ADDQ         gb_base+144(FP), AX
	XORQ         R10, R10

rgGradGroup:
	CMPQ    R10, R15
	JGE     rgGradTail
	VMULPD  (R12)(R10*8), Y5, Y0
	VMOVUPD (R13)(R10*8), Y1
	VSUBPD  Y0, Y1, Y1
	VADDPD  (AX)(R10*8), Y1, Y1
	VMOVUPD Y1, (AX)(R10*8)
	ADDQ    $4, R10
	JMP     rgGradGroup

rgGradTail:
	CMPQ   R10, R11
	JGE    rgNext
	VMULSD (R12)(R10*8), X5, X0
	VMOVSD (R13)(R10*8), X1
	VSUBSD X0, X1, X1
	VADDSD (AX)(R10*8), X1, X1
	VMOVSD X1, (AX)(R10*8)
	INCQ   R10
	JMP    rgGradTail

rgNext:
	INCQ BX
	JMP  rgGroup

rgFail:
	// prod and scale as they were before the group.
	VMOVAPD X9, X13
	MOVQ    ret2+248(FP), AX
	MOVQ    AX, ret1+240(FP)
	JMP     rgDone

rgBadRow:
	MOVQ $-1, BX

rgDone:
	VMOVSD X13, ret+232(FP)
	MOVQ   BX, ret2+248(FP)
	VZEROUPPER
	RET

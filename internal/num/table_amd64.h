// Macros shared by the table kernels of pairs_amd64.s, rowgroups_amd64.s
// and rows_amd64.s.

// FREXP sets the positive normal number X13 to its fraction in [½, 1), as
// math.Frexp does, and adds its exponent to the integer at SCALE (a
// result's slot in the frame). It uses AX and R11.
#define FREXP(SCALE) \
	VMOVQ X13, AX; \
	MOVQ  AX, R11; \
	SHRQ  $52, R11; \
	ANDQ  $0x7ff, R11; \
	SUBQ  $1022, R11; \
	ADDQ  R11, SCALE; \
	MOVQ  $0x800fffffffffffff, R11; \
	ANDQ  R11, AX; \
	MOVQ  $0x3fe0000000000000, R11; \
	ORQ   R11, AX; \
	VMOVQ AX, X13

// PFMIN is the smallest table t (in numbers) whose rows are prefetched:
// with t and gw together within half of a 1 MiB L2 cache, the prefetches'
// instructions cost more than they save (LA's pass at K = 2 with 5,000
// workers went from 2.4-2.5 to 2.8 cpu-ns/label with them).
#define PFMIN 32768

// PFLAST sets REG to the last index within the capacities of the frame's
// worker and label slices, as far as a kernel's prefetch may read ahead of
// the labels it was given, or to -1 if the frame's table t holds fewer
// than PFMIN numbers (no prefetch). It uses AX.
#define PFLAST(REG) \
	MOVQ    worker_cap+64(FP), REG; \
	MOVQ    label_cap+88(FP), AX; \
	CMPQ    REG, AX; \
	CMOVQGT AX, REG; \
	DECQ    REG; \
	MOVQ    $-1, AX; \
	CMPQ    t_len+8(FP), $PFMIN; \
	CMOVQLT AX, REG

// RESPROW writes OUT[i] = Q[i]·ROW[i] for i from 0 to N, four at a time
// while I < GROUPS (N rounded down to four) and then one at a time, adds
// each to X1 in the order of i (the scalar loops' sum, bit for bit), and
// goes on at NEXT. It uses I, Y0, X3 and X4; GROUP and TAIL name its
// loops.
#define RESPROW(Q, ROW, OUT, I, GROUPS, N, GROUP, TAIL, NEXT) \
	XORQ         I, I; \
GROUP: \
	CMPQ         I, GROUPS; \
	JGE          TAIL; \
	VMOVUPD      (Q)(I*8), Y0; \
	VMULPD       (ROW)(I*8), Y0, Y0; \
	VMOVUPD      Y0, (OUT)(I*8); \
	VADDSD       X0, X1, X1; \
	VPERMILPD    $1, X0, X3; \
	VADDSD       X3, X1, X1; \
	VEXTRACTF128 $1, Y0, X4; \
	VADDSD       X4, X1, X1; \
	VPERMILPD    $1, X4, X4; \
	VADDSD       X4, X1, X1; \
	ADDQ         $4, I; \
	JMP          GROUP; \
TAIL: \
	CMPQ         I, N; \
	JGE          NEXT; \
	VMOVSD       (Q)(I*8), X0; \
	VMULSD       (ROW)(I*8), X0, X0; \
	VMOVSD       X0, (OUT)(I*8); \
	VADDSD       X0, X1, X1; \
	INCQ         I; \
	JMP          TAIL

// SCALEROW multiplies the N numbers at BASE by the number broadcast in YS
// (XS its low lane), four at a time while I < GROUPS (N rounded down to
// four) and then one at a time, and goes on at NEXT. It uses I and Y0;
// GROUP and TAIL name its loops.
#define SCALEROW(BASE, YS, XS, I, GROUPS, N, GROUP, TAIL, NEXT) \
	XORQ    I, I; \
GROUP: \
	CMPQ    I, GROUPS; \
	JGE     TAIL; \
	VMULPD  (BASE)(I*8), YS, Y0; \
	VMOVUPD Y0, (BASE)(I*8); \
	ADDQ    $4, I; \
	JMP     GROUP; \
TAIL: \
	CMPQ    I, N; \
	JGE     NEXT; \
	VMULSD  (BASE)(I*8), XS, X0; \
	VMOVSD  X0, (BASE)(I*8); \
	INCQ    I; \
	JMP     TAIL

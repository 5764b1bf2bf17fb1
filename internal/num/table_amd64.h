// Macros shared by the table kernels of pairs_amd64.s and
// rowgroups_amd64.s.

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

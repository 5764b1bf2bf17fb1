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

// PFAHEAD is how many labels ahead respPairsAVX prefetches the rows of t
// and gw: with many workers the two tables outgrow a core's cache, and a

// PFMIN is the smallest table t (in numbers) whose rows are prefetched:
// with t and gw together within half of a 1 MiB L2 cache, the prefetches'
// instructions cost more than they save (LA's pass at K = 2 with 5,000
// workers went from 2.4-2.5 to 2.8 cpu-ns/label with them).
#define PFMIN 32768

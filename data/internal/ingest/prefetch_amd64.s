//go:build amd64 && !purego

#include "textflag.h"

// func prefetchSlots(slots []uint64, at []uint32)
TEXT ·prefetchSlots(SB), NOSPLIT, $0-48
	MOVQ slots_base+0(FP), SI
	MOVQ at_base+24(FP), DI
	MOVQ at_len+32(FP), CX
	TESTQ CX, CX
	JZ done

loop:
	MOVL (DI), AX
	PREFETCHT0 (SI)(AX*8)
	ADDQ $4, DI
	DECQ CX
	JNZ loop

done:
	RET

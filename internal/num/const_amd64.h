// CONST4(name, bits) defines name<>, a read-only constant of four copies
// of the float64 whose bits are bits, for the AVX2 loops' operands.
#define CONST4(name, bits) \
	DATA name<>+0(SB)/8, $bits; \
	DATA name<>+8(SB)/8, $bits; \
	DATA name<>+16(SB)/8, $bits; \
	DATA name<>+24(SB)/8, $bits; \
	GLOBL name<>(SB), RODATA|NOPTR, $32;

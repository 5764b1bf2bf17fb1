//go:build !amd64 || purego || amd64.v3

package num

// haveUnfusedAVX2 is false: no AVX2, or a build that fuses multiply-adds;
// DigammaTo, LgammaTo and LgammaDigammaTo take their scalar loops.
const haveUnfusedAVX2 = false

func digammaShiftAVX2(_, _, _ []float64, i int) int { return i }

func digammaSeriesAVX2(_, _, _ []float64, _ int) { panic("no AVX2") }

func lgammaArgAVX2(_, _ []float64, i int) int { return i }

func lgammaValueAVX2(_, _ []float64, i int) int { return i }

func lgdgShiftAVX2(_, _, _, _ []float64, i int) int { return i }

func lgdgSeriesAVX2(_, _, _, _, _, _ []float64, _ float64) { panic("no AVX2") }

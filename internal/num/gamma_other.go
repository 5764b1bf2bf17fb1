//go:build !amd64 || purego || amd64.v3

package num

// haveGammaAVX2 is false: DigammaTo, LgammaTo and LgammaDigammaTo take
// their scalar loops.
const haveGammaAVX2 = false

func digammaShiftAVX2(_, _, _ []float64, i int) int { return i }

func digammaSeriesAVX2(_, _, _ []float64, _ int) { panic("no AVX2") }

func lgammaArgAVX2(_, _ []float64, i int) int { return i }

func lgammaValueAVX2(_, _ []float64, i int) int { return i }

func lgdgShiftAVX2(_, _, _, _ []float64, i int) int { return i }

func lgdgSeriesAVX2(_, _, _, _, _, _ []float64, _ float64) { panic("no AVX2") }

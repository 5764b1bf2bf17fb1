//go:build !amd64 || purego || amd64.v3

package num

// haveDigammaAVX2 is false: DigammaTo takes its scalar loop.
const haveDigammaAVX2 = false

func digammaShiftAVX2(_, _, _ []float64, i int) int { return i }

func digammaSeriesAVX2(_, _, _ []float64, _ int) { panic("no AVX2") }

//go:build !amd64 || purego

package num

func digammaShiftAVX2(_, _ []float64) int { return 0 }

func gammaShiftAVX2(_, _, _ []float64) int { return 0 }

//go:build !amd64 || purego

package num

// haveAVX2 is false: ExpTo and SigmoidPairs take their scalar loops.
const haveAVX2 = false

func expAVX2(_, _ []float64, i int) int { return i }

func sigmoidPairsAVX2(_, _ []float64, _ []uint16, i int) int { return i }

func respRowsAVX2(_, _, _ []float64, _ []int, _ []float64) { panic("no AVX2") }

func addRowsEachAVX2(_ []float64, _ []int, _, _ []float64, _, _ int) { panic("no AVX2") }

func expDigammaPartsAVX2(_, _, _ []float64, i int) int { return i }

func logAVX2(_, _ []float64, i int) int { return i }

const haveMathExpAVX2 = false

func mathExpAVX2(_, _ []float64, i int) int { return i }

func logToAVX2(_, _ []float64, i int) int { return i }

func weightsAVX2(_, _ []float64, _, _ float64, _ int) float64 { panic("no AVX2") }

func divMaxAVX2(_ []float64, _, _ float64, _ int) { panic("no AVX2") }

func respPairsAVX(_, _ []float64, _ []int32, _ []uint16, _ []int, _, _, _, _ []float64, _ float64, _ int) (float64, int, int) {
	panic("no AVX2")
}

func posteriorPairsAVX(_, _ []float64, _ []int32, _ []uint16, _ []int, _, _ float64, _ []float64, _ float64, _ int) (float64, int, int) {
	panic("no AVX2")
}

func respPairsBatchAVX(_, _ []float64, _ []int, _, _, _ []float64, _ float64, _ int) (float64, int, int) {
	panic("no AVX2")
}

func oddsPairsAVX(_, _, _, _ []float64, _ []int, _, _ float64, _ int) { panic("no AVX2") }

func posteriorRowsAVX(_, _ []float64, _ []int32, _ []uint16, _ []int, _, _, _ []float64, _ float64, _ int) (float64, int, int) {
	panic("no AVX2")
}

func respRowsGroupsAVX(_, _ []float64, _ []int32, _ []uint16, _ []int, _, _, _, _ []float64, _ float64, _ int) (float64, int, int) {
	panic("no AVX2")
}

func shiftMaxRowsAVX2(_, _ []float64, _, _ int) { panic("no AVX2") }

func posteriorPairsRhoAVX(_, _ []float64, _ []int32, _ []uint16, _ []int, _, _ float64, _, _ []float64, _, _ float64, _ int) (float64, float64, int, int) {
	panic("no AVX2")
}

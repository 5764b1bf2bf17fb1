//go:build !amd64 || purego

package num

// haveAVX2 is false: ExpTo and SigmoidPairs take their scalar loops.
const haveAVX2 = false

func expAVX2(_, _ []float64, i int) int { return i }

func sigmoidPairsAVX2(_, _ []float64, _ []uint16, i int) int { return i }

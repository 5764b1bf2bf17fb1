//go:build !amd64 || purego

package num

// haveGradPairsAsm is false: SigmoidGradPairs runs its scalar loop.
const haveGradPairsAsm = false

func sigmoidGradPairsAsm(_ []int32, _ []uint16, _ []int, _, _, _, _, _, _ []float64) int {
	panic("no assembly")
}

func sigmoidGradPairsSharedAsm(_ []int32, _ []uint16, _ []int, _, _, _, _, _, _ []float64) int {
	panic("no assembly")
}

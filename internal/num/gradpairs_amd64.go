//go:build amd64 && !purego

package num

// haveGradPairsAsm reports that SigmoidGradPairs runs its assembly loop,
// which needs nothing beyond the SSE2 of every amd64 processor.
const haveGradPairsAsm = true

// sigmoidGradPairsAsm is SigmoidGradPairs' loop for slices of the right
// lengths, off of one more than the groups; it returns -1 at a worker
// outside e (and so gw), having done the labels before it, and 0 after
// the last group.
//
//go:noescape
func sigmoidGradPairsAsm(worker []int32, label []uint16, off []int, p, g, e, d, gw, gobj []float64) int

// sigmoidGradPairsSharedAsm is SigmoidGradPairsShared's loop, as
// sigmoidGradPairsAsm is SigmoidGradPairs'.
//
//go:noescape
func sigmoidGradPairsSharedAsm(worker []int32, label []uint16, off []int, p, g, e, d, gw, gobj []float64) int

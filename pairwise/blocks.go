package pairwise

import (
	"runtime"
	"sync"
)

// blockSize is the number of comparisons whose terms are computed at once,
// in parallel, before they are added up in order.
const blockSize = 1 << 16

// runBlocks evaluates a sum over n comparisons on threads goroutines (0:
// runtime.GOMAXPROCS) with the result of one goroutine bit for bit: for
// each block of blockSize comparisons, term(lo, hi, at) computes the
// per-comparison terms of comparisons lo to hi-1 into a buffer at offset at
// (the comparison's index within the block), the block split among the
// goroutines, and then add(lo, hi) adds the block's terms to the sums one
// comparison after the other, in the comparisons' order. The expensive
// part (exponentials and logarithms) runs in parallel; the additions, which
// decide the rounding, do not.
func runBlocks(n, threads int, term func(lo, hi, at int), add func(lo, hi int)) {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	for lo := 0; lo < n; lo += blockSize {
		hi := min(n, lo+blockSize)
		parts := min(threads, (hi-lo+1023)/1024)
		if parts <= 1 {
			term(lo, hi, 0)
		} else {
			var wg sync.WaitGroup
			step := (hi - lo + parts - 1) / parts
			for a := lo; a < hi; a += step {
				b := min(hi, a+step)
				wg.Go(func() { term(a, b, a-lo) })
			}
			wg.Wait()
		}
		add(lo, hi)
	}
}

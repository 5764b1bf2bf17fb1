package model

import (
	"runtime"
	"sync"

	"github.com/consensuslab/consensus/data"
)

// maxChunks bounds the number of chunks; it is also the largest number of
// goroutines one evaluation can use.
const maxChunks = 32

// minChunkLabels is the smallest number of labels worth a chunk of its own.
const minChunkLabels = 8192

// batchLabels is the largest number of labels the probability-space path
// hands to the evaluators at once (unless one object has more).
const batchLabels = 256

// threadCount returns the number of goroutines of Settings.Threads n:
// runtime.GOMAXPROCS(0) if n is not positive.
func threadCount(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// chunkAccBudget is the number of accumulated numbers all chunks may hold
// together whatever the size of the data (16 MiB of float64): enough for
// a few chunks, and so a few goroutines, on inputs with many classes and
// few labels, where four numbers per label would leave one chunk.
const chunkAccBudget = 1 << 21

// chunkCount returns the number of chunks for d when every chunk
// accumulates accDim numbers of its own: one per minChunkLabels labels, at
// most maxChunks, and few enough that the per-chunk accumulators stay
// within four numbers per label or chunkAccBudget, whichever is more.
func chunkCount(d *data.Dataset, accDim int) int {
	n := d.NumLabels()
	c := min(maxChunks, max(1, n/minChunkLabels))
	for c > 1 && c*accDim > max(4*n+1024, chunkAccBudget) {
		c--
	}
	return c
}

// mostLabels returns the largest number of labels of an object in
// [lo, hi).
func mostLabels(d *data.Dataset, lo, hi int) int {
	most := 0
	for j := lo; j < hi; j++ {
		most = max(most, d.Offsets[j+1]-d.Offsets[j])
	}
	return most
}

// mostBatchObjects returns the largest number of objects of a batch
// (batchEnd) in [lo, hi).
func mostBatchObjects(d *data.Dataset, lo, hi int) int {
	most := 0
	for j := lo; j < hi; {
		e := batchEnd(d.Offsets, j, hi)
		most = max(most, e-j)
		j = e
	}
	return most
}

// batchEnd returns the end of the batch of whole objects that starts at
// object j and ends by hi: at most batchLabels labels, or the one object j
// if it has more. The cut depends on the data only.
func batchEnd(off []int, j, hi int) int {
	e := j + 1
	for e < hi && off[e+1]-off[j] <= batchLabels {
		e++
	}
	return e
}

// chunkBounds cuts the objects into at most c ranges of about equal numbers
// of labels.
func chunkBounds(d *data.Dataset, c int) []int {
	bounds := []int{0}
	n := d.NumLabels()
	for i := 1; i < c; i++ {
		target := n * i / c
		j := bounds[len(bounds)-1]
		for j < d.NumTasks() && d.Offsets[j] < target {
			j++
		}
		if j > bounds[len(bounds)-1] && j < d.NumTasks() {
			bounds = append(bounds, j)
		}
	}
	return append(bounds, d.NumTasks())
}

// forChunks runs f on every chunk, on up to o.threads goroutines.
func (o *objective) forChunks(f func(c *chunk)) {
	runChunks(len(o.chunks), o.threads, func(i int) { f(&o.chunks[i]) })
}

// runChunks calls f(i) for every i in [0, n), on up to threads goroutines
// (GOMAXPROCS when threads ≤ 0), and returns when every call has.
func runChunks(n, threads int, f func(i int)) {
	threads = threadCount(threads)
	t := min(threads, n)
	if t <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	for range t {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// accPool holds zero accumulators of one length for runChunksOrdered.
type accPool struct {
	dim  int
	free [][]float64
}

// take returns a zero accumulator, from the pool or new.
func (p *accPool) take() []float64 {
	if n := len(p.free); n > 0 {
		a := p.free[n-1]
		p.free = p.free[:n-1]
		return a
	}
	return make([]float64, p.dim)
}

// runChunksOrdered is runChunks for chunks that accumulate into shared
// sums: work(i, acc) evaluates chunk i into acc, a zero accumulator from
// pool, and merge(i, acc) adds acc into the sums and sets it to zero
// again. The merges run one at a time in chunk order, each as soon as
// chunk i and every chunk before it are done, so the sums are those of
// every chunk accumulating into its own and the chunks added one after
// the other at the end, for any number of goroutines; but an accumulator
// goes back to the pool at its merge, so only the chunks in flight, and
// those done before an earlier one, hold one: one on one goroutine, a
// few on several, instead of one per chunk.
func runChunksOrdered(n, threads int, pool *accPool, work, merge func(i int, acc []float64)) {
	var (
		mu   sync.Mutex
		done = make([][]float64, n)
		next int
	)
	runChunks(n, threads, func(i int) {
		mu.Lock()
		acc := pool.take()
		mu.Unlock()
		work(i, acc)
		mu.Lock()
		defer mu.Unlock()
		done[i] = acc
		for ; next < n && done[next] != nil; next++ {
			merge(next, done[next])
			pool.free = append(pool.free, done[next])
			done[next] = nil
		}
	})
}

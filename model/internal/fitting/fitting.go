// Package fitting holds what the fits of every family share: the chunks
// of objects that a pass over the labels runs on several goroutines with
// results identical for any number of them, the ordered reduction of
// their sums, and small helpers of the fits' reports.
package fitting

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/consensuslab/consensus/data"
)

// MaxChunks bounds the number of chunks; it is also the largest number of
// goroutines one evaluation can use.
const MaxChunks = 32

// MinChunkLabels is the smallest number of labels worth a chunk of its own.
const MinChunkLabels = 8192

// BatchLabels is the largest number of labels the probability-space path
// hands to the evaluators at once (unless one object has more).
const BatchLabels = 256

// ThreadCount returns the number of goroutines of Settings.Threads n:
// runtime.GOMAXPROCS(0) if n is not positive.
func ThreadCount(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// ChunkAccBudget is the number of accumulated numbers all chunks may hold
// together whatever the size of the data (16 MiB of float64): enough for
// a few chunks, and so a few goroutines, on inputs with many classes and
// few labels, where four numbers per label would leave one chunk.
const ChunkAccBudget = 1 << 21

// ChunkCount returns the number of chunks for d when every chunk
// accumulates accDim numbers of its own: one per MinChunkLabels labels, at
// most MaxChunks, and few enough that the per-chunk accumulators stay
// within four numbers per label or ChunkAccBudget, whichever is more.
func ChunkCount(d *data.Dataset, accDim int) int {
	n := d.NumLabels()
	c := min(MaxChunks, max(1, n/MinChunkLabels))
	for c > 1 && c*accDim > max(4*n+1024, ChunkAccBudget) {
		c--
	}
	return c
}

// MostLabels returns the largest number of labels of an object in
// [lo, hi).
func MostLabels(d *data.Dataset, lo, hi int) int {
	most := 0
	for j := lo; j < hi; j++ {
		most = max(most, d.Offsets[j+1]-d.Offsets[j])
	}
	return most
}

// MostBatchTasks returns the largest number of tasks of a batch
// (BatchEnd) in [lo, hi).
func MostBatchTasks(d *data.Dataset, lo, hi int) int {
	most := 0
	for j := lo; j < hi; {
		e := BatchEnd(d.Offsets, j, hi)
		most = max(most, e-j)
		j = e
	}
	return most
}

// BatchEnd returns the end of the batch of whole objects that starts at
// object j and ends by hi: at most BatchLabels labels, or the one object j
// if it has more. The cut depends on the data only.
func BatchEnd(off []int, j, hi int) int {
	e := j + 1
	for e < hi && off[e+1]-off[j] <= BatchLabels {
		e++
	}
	return e
}

// ChunkBounds cuts the objects into at most c ranges of about equal numbers
// of labels.
func ChunkBounds(d *data.Dataset, c int) []int {
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

// RunChunks calls f(i) for every i in [0, n), on up to threads goroutines
// (GOMAXPROCS when threads ≤ 0), and returns when every call has.
func RunChunks(n, threads int, f func(i int)) {
	threads = ThreadCount(threads)
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

// AccPool holds zero accumulators of one length for RunChunksOrdered.
type AccPool struct {
	// Dim is the length of the accumulators.
	Dim  int
	free [][]float64
}

// Free drops the pool's accumulators, for the collector.
func (p *AccPool) Free() { p.free = nil }

// Len returns the number of accumulators the pool holds.
func (p *AccPool) Len() int { return len(p.free) }

// take returns a zero accumulator, from the pool or new.
func (p *AccPool) take() []float64 {
	if n := len(p.free); n > 0 {
		a := p.free[n-1]
		p.free = p.free[:n-1]
		return a
	}
	return make([]float64, p.Dim)
}

// RunChunksOrdered is RunChunks for chunks that accumulate into shared
// sums: work(i, acc) evaluates chunk i into acc, a zero accumulator from
// pool, and merge(i, acc) adds acc into the sums and sets it to zero
// again. The merges run one at a time in chunk order, each as soon as
// chunk i and every chunk before it are done, so the sums are those of
// every chunk accumulating into its own and the chunks added one after
// the other at the end, for any number of goroutines; but an accumulator
// goes back to the pool at its merge, so only the chunks in flight, and
// those done before an earlier one, hold one: one on one goroutine, a
// few on several, instead of one per chunk.
func RunChunksOrdered(n, threads int, pool *AccPool, work, merge func(i int, acc []float64)) {
	var (
		mu   sync.Mutex
		done = make([][]float64, n)
		next int
	)
	RunChunks(n, threads, func(i int) {
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

// AddAndClear adds acc to dst and sets acc to zero, ready for the next
// pass: one sweep over a chunk's accumulator instead of a sum and, at the
// next pass, a clear.
func AddAndClear(dst, acc []float64) {
	dst = dst[:len(acc)]
	for p, x := range acc {
		dst[p] += x
		acc[p] = 0
	}
}

// IsFinite reports whether v is neither NaN nor infinite.
func IsFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// SquaremStepGrowth is the factor by which SQUAREM's largest step length
// grows after an accepted extrapolation at that length, and shrinks after a
// rejected one (Varadhan and Roland's mstep = 4).
const SquaremStepGrowth = 4

// FmtVec formats p as a bracketed list of numbers with three decimals,
// as the fits' Method strings report a prior.
func FmtVec(p []float64) string {
	s := "["
	for i, v := range p {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%.3f", v)
	}
	return s + "]"
}

package noise

import "sync"

// Threaded is an optional interface of an Evaluator or a Variational whose
// per-worker work of a pass (for Dawid-Skene: the W·K² logarithms and
// exponentials of SetParams, MStep and Update) can run on several
// goroutines. SetThreads sets their number (at most 1: the calling
// goroutine alone, the default). Every worker's values are computed by
// the same operations whatever the number, so results do not depend on it.
type Threaded interface {
	SetThreads(n int)
}

// parallelMin is the fewest values (workers times values per worker)
// worth splitting over goroutines.
const parallelMin = 1 << 15

// forWorkers calls f on consecutive ranges [lo, hi) that together cover
// the n workers, each of size values, on up to threads goroutines at once,
// and returns when all calls have; with threads at most 1, or fewer than
// parallelMin values, it calls f(0, n) on the calling goroutine. f must
// touch only the values of its workers.
func forWorkers(n, size, threads int, f func(lo, hi int)) {
	parts := min(threads, n)
	if parts <= 1 || n*size < parallelMin {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := n*p/parts, n*(p+1)/parts
		wg.Go(func() { f(lo, hi) })
	}
	wg.Wait()
}

// Package pool runs independent jobs on a bounded number of goroutines:
// the one worker pool of the comparison and of the reproduction.
//
// Each job writes its result into a slot of its own (an element of a slice
// indexed by the job), so the results, and everything computed from them
// in index order, do not depend on the number of goroutines or on the
// order in which the jobs end.
package pool

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"time"
)

// Ended describes a job that has ended.
type Ended struct {
	// Index is the job's index.
	Index int
	// Ended counts the jobs ended so far, this one included.
	Ended int
	// Err is the error the job returned.
	Err error
	// Elapsed is the job's run time.
	Elapsed time.Duration
}

// Settings control Run. The zero value runs the jobs in index order, one
// per core, and keeps going after a job fails.
type Settings struct {
	// Threads is the number of goroutines the jobs run on, and so the
	// largest number of jobs run at the same time; zero or negative means
	// runtime.GOMAXPROCS(0).
	Threads int
	// Order, if not nil, is the order in which the jobs start: a
	// permutation of 0, …, n-1 (such as the most expensive first). Nil
	// means index order.
	Order []int
	// StopOnError stops starting jobs once one has returned an error.
	StopOnError bool
	// Started, if not nil, is called when job i starts.
	Started func(i int)
	// Ended, if not nil, is called when a job ends.
	Ended func(Ended)
}

// Run calls job(i) for the n jobs i = 0, …, n-1, at most o.Workers at a
// time. It stops starting jobs when ctx is done or, with o.StopOnError,
// once a job has returned an error, and returns when every job it started
// has ended: ctx's error if ctx is done, otherwise the first error a job
// returned (in the order the jobs ended), or nil. The calls of o.Started
// and o.Ended are serialised: one at a time, in the order the events
// happen. A nil ctx or job is an error.
func Run(ctx context.Context, n int, o Settings, job func(i int) error) error {
	if ctx == nil || job == nil {
		return errors.New("pool: no context or no job function")
	}
	workers := o.Threads
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	order := o.Order
	if order == nil {
		order = make([]int, n)
		for i := range order {
			order[i] = i
		}
	}
	var (
		mu       sync.Mutex
		firstErr error
		ended    int
		wg       sync.WaitGroup
	)
	next := make(chan int)
	for range min(workers, max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if o.Started != nil {
					mu.Lock()
					o.Started(i)
					mu.Unlock()
				}
				start := time.Now()
				err := job(i)
				elapsed := time.Since(start)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				ended++
				if o.Ended != nil {
					o.Ended(Ended{Index: i, Ended: ended, Err: err, Elapsed: elapsed})
				}
				mu.Unlock()
			}
		}()
	}
	for _, i := range order {
		mu.Lock()
		stop := o.StopOnError && firstErr != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return firstErr
}

package pool_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/consensuslab/consensus/internal/pool"
)

// TestRun checks, for several numbers of workers and start orders, that
// every job runs once, that the results written to per-job slots are the
// same whatever the number of workers, that with one worker the jobs start
// in the given order, and that the Started and Ended calls are serialised
// and count every job.
func TestRun(t *testing.T) {
	const n = 50
	want := make([]int, n)
	for i := range want {
		want[i] = i * i
	}
	rev := make([]int, n)
	for i := range rev {
		rev[i] = n - 1 - i
	}
	for _, c := range []struct {
		workers int
		order   []int
	}{{0, nil}, {1, nil}, {1, rev}, {3, rev}, {8, nil}, {100, nil}} {
		t.Run(fmt.Sprintf("workers=%d/reversed=%v", c.workers, c.order != nil), func(t *testing.T) {
			out := make([]int, n)
			var runs atomic.Int32
			var started []int
			var inCallback atomic.Int32
			lastEnded := 0
			o := pool.Settings{Threads: c.workers, Order: c.order,
				Started: func(i int) {
					if inCallback.Add(1) != 1 {
						t.Error("concurrent callbacks")
					}
					started = append(started, i)
					inCallback.Add(-1)
				},
				Ended: func(e pool.Ended) {
					if inCallback.Add(1) != 1 {
						t.Error("concurrent callbacks")
					}
					if e.Ended != lastEnded+1 || e.Err != nil {
						t.Errorf("ended event %+v after %d", e, lastEnded)
					}
					lastEnded = e.Ended
					inCallback.Add(-1)
				}}
			err := pool.Run(context.Background(), n, o, func(i int) error {
				runs.Add(1)
				out[i] = i * i
				return nil
			})
			if err != nil || runs.Load() != n || lastEnded != n || len(started) != n {
				t.Fatalf("error %v, %d runs, %d ended, %d started", err, runs.Load(), lastEnded, len(started))
			}
			if !slices.Equal(out, want) {
				t.Errorf("results %v", out)
			}
			order := c.order
			if order == nil {
				order = want[:0:0]
				for i := range n {
					order = append(order, i)
				}
			}
			if c.workers == 1 && !slices.Equal(started, order) {
				t.Errorf("with one worker the jobs started in the order %v, want %v", started, order)
			}
		})
	}
}

// TestRunErrors checks the errors: every job runs and the first error is
// returned without StopOnError; with it, no job starts after a failure;
// a cancelled context stops the run and its error is returned; a nil
// context or job is an error.
func TestRunErrors(t *testing.T) {
	boom := errors.New("boom")
	fail := func(i int) error {
		if i == 2 {
			return boom
		}
		return nil
	}
	for _, c := range []struct {
		name     string
		stop     bool
		wantRuns int32
	}{{"keep going", false, 10}, {"stop on error", true, 3}} {
		t.Run(c.name, func(t *testing.T) {
			var runs atomic.Int32
			err := pool.Run(context.Background(), 10, pool.Settings{Threads: 1, StopOnError: c.stop}, func(i int) error {
				runs.Add(1)
				return fail(i)
			})
			if !errors.Is(err, boom) || runs.Load() != c.wantRuns {
				t.Errorf("error %v after %d runs, want %v after %d", err, runs.Load(), boom, c.wantRuns)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	var runs atomic.Int32
	err := pool.Run(ctx, 10, pool.Settings{Threads: 1}, func(i int) error {
		if runs.Add(1) == 4 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || runs.Load() > 5 {
		t.Errorf("error %v after %d runs, want context.Canceled after at most 5", err, runs.Load())
	}
	//lint:ignore SA1012 the nil context is the argument under test
	if err := pool.Run(nil, 1, pool.Settings{}, fail); err == nil {
		t.Error("Run with a nil context: no error")
	}
	if err := pool.Run(context.Background(), 1, pool.Settings{}, nil); err == nil {
		t.Error("Run with a nil job: no error")
	}
	if err := pool.Run(context.Background(), 0, pool.Settings{}, func(int) error { return boom }); err != nil {
		t.Errorf("no jobs: error %v", err)
	}
}

package progress

import (
	"sync"
	"time"

	"github.com/consensuslab/consensus/model"
)

// Parts shows the progress of a run made of parts, such as a
// reproduction of the paper's experiments: one Reporter per part (a status
// line on a terminal, log lines otherwise), refreshed by Tick so that long
// fits do not leave it silent. Each part's reporter is described as
// "reproduce <part>". The zero value is ready to use.
type Parts struct {
	mu          sync.Mutex
	bar         *Reporter
	done, total int
	what        string
}

// Event records the progress p of a part (an experiments.Settings.Progress
// callback): p.Done of p.Total steps of the part p.Run, p.Item the step
// last finished. A part starts at p.Done = 0 and ends at p.Total.
func (s *Parts) Event(p model.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.Done == 0 {
		s.bar.Finish()
		s.bar = New("reproduce " + p.Run)
		s.what = ""
	}
	s.done, s.total = p.Done, p.Total
	if p.Item != "" {
		s.what = "last finished: " + p.Item
	}
	s.bar.Step(s.done, s.total, s.what)
	if p.Done == p.Total {
		s.bar.Finish()
		s.bar = nil
	}
}

// Tick refreshes the status every interval until the returned function
// is called, which also finishes the status. An interval of zero or less
// is one second.
func (s *Parts) Tick(interval time.Duration) (stop func()) {
	if interval <= 0 {
		interval = time.Second
	}
	t := time.NewTicker(interval)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-t.C:
				s.mu.Lock()
				s.bar.Step(s.done, s.total, s.what)
				s.mu.Unlock()
			case <-quit:
				return
			}
		}
	}()
	return func() {
		t.Stop()
		close(quit)
		wg.Wait()
		s.mu.Lock()
		s.bar.Finish()
		s.bar = nil
		s.mu.Unlock()
	}
}

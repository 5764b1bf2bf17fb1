package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/consensuslab/consensus/model"
)

// TestProgress checks what a Reporter writes to a log and to a terminal,
// with and without steps, and that a quick run and a nil Reporter write
// nothing.
func TestProgress(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tty   bool
		delay time.Duration
		steps bool
		want  []string
		not   []string
	}{
		{"quick run is silent", false, time.Hour, false, nil, []string{"fit"}},
		{"log lines", false, 0, false, []string{"fit: iteration 1/10, log-likelihood -123.5, ", "at most", "fit: iteration 9/10", "fit: done after"}, []string{"\r", "["}},
		{"terminal", true, 0, false, []string{"\rfit iteration 1/10", "iteration 9/10, log-likelihood -123.5", "left", "90% |", "█"}, []string{"\n", "done after"}},
		{"steps", false, 0, true, []string{"fit: 1/4 fitting b, iteration 9/10"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			p := NewTo(&b, tc.tty, 200, "fit")
			p.delay, p.every = tc.delay, 0
			if tc.steps {
				p.Step(1, 4, "fitting b")
			}
			for _, i := range []int{1, 9} {
				time.Sleep(time.Millisecond)
				p.Update(model.Progress{Iteration: i, MaxIterations: 10, LogLikelihood: -123.5})
			}
			p.Finish()
			out := b.String()
			if tc.delay > 0 && out != "" {
				t.Errorf("output %q, want none", out)
			}
			for _, s := range tc.want {
				if !strings.Contains(out, s) {
					t.Errorf("output %q lacks %q", out, s)
				}
			}
			for _, s := range tc.not {
				if strings.Contains(out, s) {
					t.Errorf("output %q has %q", out, s)
				}
			}
		})
	}
	var nilp *Reporter // a nil reporter does nothing
	nilp.Update(model.Progress{})
	nilp.Step(1, 2, "x")
	nilp.Finish()
}

// TestParts checks that Parts starts a reporter per part, that Tick
// refreshes it and that stopping the ticker finishes it, on any number of
// goroutines.
func TestParts(t *testing.T) {
	var s Parts
	stop := s.Tick(time.Millisecond)
	for _, run := range []string{"a", "b"} {
		for done := 0; done <= 3; done++ {
			s.Event(model.Progress{Run: run, Done: done, Total: 3, Item: "step"})
			time.Sleep(time.Millisecond)
		}
	}
	s.Event(model.Progress{Run: "c", Done: 0, Total: 2})
	if s.bar == nil || s.bar.desc != "reproduce c" || s.total != 2 {
		t.Errorf("part c under way: reporter %+v, total %d", s.bar, s.total)
	}
	stop()
	if s.bar != nil {
		t.Error("the reporter is not finished after stop")
	}
}

// TestZeroValues checks that the zero Reporter does nothing, as a nil one,
// and that Parts.Tick takes an interval of zero, instead of panicking.
func TestZeroValues(t *testing.T) {
	var r Reporter
	r.Update(model.Progress{Iteration: 1})
	r.Step(1, 2, "fit")
	r.Finish()
	var p Parts
	p.Tick(0)()
}

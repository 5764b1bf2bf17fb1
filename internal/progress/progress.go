// Package progress reports the progress of a long run of the consensus
// command on standard error: a status line redrawn on a terminal, plain
// log lines otherwise, and nothing for a run that ends within a second.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/consensuslab/consensus/model"
)

// Reporter reports a long run on stderr. Nothing appears during the first
// second, so quick runs stay silent. On a terminal it redraws one status
// line (a bar, the iteration, the log-likelihood, the elapsed time and an
// upper bound on the time left, which assumes the run goes on to the
// iteration limit); otherwise it writes a plain log line every few seconds
// and one when the run ends. A nil *Reporter, and the zero Reporter (which
// has nowhere to write), do nothing, so callers write
//
//	var bar *progress.Reporter
//	if !quiet {
//		bar = progress.New("fitting da-glad")
//		settings.Progress = bar.Update
//	}
//	res, err := est.Fit(ctx, d, settings)
//	bar.Finish()
//
// For a run made of several steps (several fits, bootstrap replicates),
// call Step(done, total, what) between them; Update keeps reporting the
// iterations of the current fit.
type Reporter struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	width int // terminal width, for the status line
	desc  string
	start time.Time
	delay time.Duration // nothing is shown before this much time
	every time.Duration // least interval between two writes
	last  time.Time     // when the status line or log line was last written
	shown bool          // whether anything was written
	lines bool          // whether a status line is on screen (terminal)
	bar   *progressbar.ProgressBar

	// The latest state.
	iter, maxIter int
	ll            float64
	hasLL         bool
	done, total   int
	what          string
}

// New returns a Reporter writing to stderr.
func New(desc string) *Reporter {
	tty := term.IsTerminal(int(os.Stderr.Fd()))
	width := 100
	if tty {
		if w, _, err := term.GetSize(int(os.Stderr.Fd())); err == nil && w > 20 {
			width = w
		}
	}
	return NewTo(os.Stderr, tty, width, desc)
}

// NewTo returns a Reporter writing to w, drawing a status line of at most
// width columns if tty is true and writing log lines otherwise.
func NewTo(w io.Writer, tty bool, width int, desc string) *Reporter {
	every := 5 * time.Second
	if tty {
		every = 100 * time.Millisecond
	}
	return &Reporter{w: w, tty: tty, width: width, desc: desc, start: time.Now(),
		delay: time.Second, every: every}
}

// Update records the state of the current fit; it is a
// model.Settings.Progress callback.
func (p *Reporter) Update(s model.Progress) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.iter, p.maxIter, p.ll, p.hasLL = s.Iteration, s.MaxIterations, s.LogLikelihood, true
	p.render(false)
}

// Step records that done of total steps of a multi-step run are finished
// and names the step under way (such as "fitting la-ds").
func (p *Reporter) Step(done, total int, what string) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.total, p.what = done, total, what
	p.iter, p.maxIter, p.hasLL = 0, 0, false
	p.render(false)
}

// Finish removes the status line, or writes a last log line if any was
// written.
func (p *Reporter) Finish() {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.shown {
		return
	}
	if p.tty {
		if p.bar != nil {
			_ = p.bar.Clear()
		}
		p.lines = false
		return
	}
	fmt.Fprintf(p.w, "%s: done after %s\n", p.desc, round(time.Since(p.start)))
}

// render writes the current state if it is time to.
func (p *Reporter) render(force bool) {
	now := time.Now()
	elapsed := now.Sub(p.start)
	if elapsed < p.delay && !force {
		return
	}
	if p.shown && now.Sub(p.last) < p.every && !force {
		return
	}
	p.last, p.shown = now, true
	status := p.status(elapsed)
	if !p.tty {
		fmt.Fprintf(p.w, "%s: %s\n", p.desc, status)
		return
	}
	if p.bar == nil {
		n := 24
		if p.width < 120 {
			n = 10 // leave room for the numbers on narrow terminals
		}
		p.bar = progressbar.NewOptions(barSteps,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetWidth(n),
			progressbar.OptionSetPredictTime(false), // status carries its own bound
			progressbar.OptionClearOnFinish(),
		)
	}
	line := p.desc + " " + status
	if r := []rune(line); len(r) > p.width-n0 {
		line = string(r[:max(p.width-n0-1, 10)]) + "…"
	}
	p.bar.Describe(line)
	if frac := p.fraction(); frac >= 0 {
		_ = p.bar.Set(int(frac * barSteps))
	} else {
		_ = p.bar.RenderBlank()
	}
	p.lines = true
}

// barSteps is the resolution of the terminal bar; n0 is the room the bar
// itself takes on the status line.
const (
	barSteps = 1000
	n0       = 40
)

// fraction is the share of the run done, or -1 if unknown. For a
// multi-step run the current fit counts in proportion to its iterations.
func (p *Reporter) fraction() float64 {
	fit := -1.0
	if p.maxIter > 0 {
		fit = min(1, float64(p.iter)/float64(p.maxIter))
	}
	if p.total > 0 {
		f := float64(p.done)
		if fit > 0 {
			f += fit
		}
		return min(1, f/float64(p.total))
	}
	return fit
}

// status describes the state in one line.
func (p *Reporter) status(elapsed time.Duration) string {
	var parts []string
	if p.total > 0 {
		s := fmt.Sprintf("%d/%d", p.done, p.total)
		if p.what != "" {
			s += " " + p.what
		}
		parts = append(parts, s)
	}
	if p.maxIter > 0 {
		parts = append(parts, fmt.Sprintf("iteration %d/%d", p.iter, p.maxIter))
	}
	if p.hasLL {
		parts = append(parts, fmt.Sprintf("log-likelihood %.6g", p.ll))
	}
	parts = append(parts, round(elapsed).String())
	if f := p.fraction(); f > 0.001 && f < 1 {
		left := time.Duration(float64(elapsed) * (1 - f) / f)
		bound := "at most "
		if p.maxIter == 0 {
			bound = "about "
		}
		parts = append(parts, bound+round(left).String()+" left")
	}
	return strings.Join(parts, ", ")
}

// round rounds a duration for display.
func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second)
	case d >= time.Second:
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}

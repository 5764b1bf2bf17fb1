package main

import (
	"fmt"
	"os"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/consensuslab/consensus/model"
)

// progress shows the progress of a fit on stderr when stderr is a
// terminal; otherwise it does nothing. A nil *progress does nothing.
type progress struct {
	bar *progressbar.ProgressBar
}

func newProgress(desc string) *progress {
	if !term.IsTerminal(int(os.Stderr.Fd())) {
		return nil
	}
	return &progress{bar: progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionClearOnFinish(),
	)}
}

func (p *progress) update(s model.Progress) {
	if p == nil {
		return
	}
	if p.bar.GetMax() != s.MaxIterations {
		p.bar.ChangeMax(s.MaxIterations)
	}
	p.bar.Describe(fmt.Sprintf("iteration %d, log-likelihood %.6g", s.Iteration, s.LogLikelihood))
	_ = p.bar.Set(s.Iteration)
}

func (p *progress) finish() {
	if p == nil {
		return
	}
	_ = p.bar.Finish()
}

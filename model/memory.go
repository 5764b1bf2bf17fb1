package model

import (
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// MemoryEstimator is implemented by an Estimator that can tell, before a
// fit, about how much memory the fit will need, so that a program can
// refuse a fit that cannot fit in the memory it has instead of being
// killed part way (the command line's --max-memory check).
type MemoryEstimator interface {
	Estimator

	// FitMemory returns an estimate in bytes of the memory that fitting
	// d with the settings s (nil for the defaults) needs beyond d
	// itself: the peak of the resident memory during the fit above that
	// at its start, as `consensus bench` measures it, erring on the high
	// side.
	FitMemory(d *data.Dataset, s *Settings) float64
}

var (
	_ MemoryEstimator = Model{}
	_ MemoryEstimator = RFE{}
	_ MemoryEstimator = WeightedVote{}
)

// The bytes an estimate counts. Each was measured with `consensus bench`
// (the fit's peak resident memory above that at its start) on 2·10⁶
// labels with K = 2 and 10⁶ labels with K = 20, five labels an object, and
// rounded up; docs/performance.md lists the measurements against the
// estimates.
const (
	// memSlack and memSlackPerLabel are what every fit needs besides its
	// vectors: the goroutines' scratch, the chunks' accumulators and
	// batches, the runtime.
	memSlack         = 2 << 20
	memSlackPerLabel = 2
	// emBytesPerParam is an EM fit's: the parameters, the iterate
	// SQUAREM keeps and the expected counts in float64, SQUAREM's r in
	// float32 (28 bytes), rounded up.
	emBytesPerParam = 30
	// cgBytesPerParam is a conjugate-gradient fit's: gonum's CG keeps
	// the iterate, the gradient, the direction and the previous
	// gradient, the line search its own (measured 114-116).
	cgBytesPerParam = 120
	// lbfgsBytesPerParam is an L-BFGS fit's: gonum's LBFGS keeps 15
	// pairs of vectors besides the iterate and the gradient (measured
	// 337-361 with the collector's headroom).
	lbfgsBytesPerParam = 360
	// voteBytesPerValue and voteBytesPerLabel are a vote's (rfe's and the
	// skill-weighted votes'): the counts and the frequencies per task and
	// class, the index of the labels.
	voteBytesPerValue = 10
	voteBytesPerLabel = 4
)

// FitMemory returns est.FitMemory(d, s) if est is a MemoryEstimator;
// otherwise, for a Parametric estimator, the estimate of an L-BFGS fit of
// its parameters (the largest per parameter), and for any other the
// estimate of a vote, which counts the labels and keeps a few numbers per
// task and class.
func FitMemory(est Estimator, d *data.Dataset, s *Settings) float64 {
	switch m := est.(type) {
	case MemoryEstimator:
		return m.FitMemory(d, s)
	case Parametric:
		return paramMemory(d, lbfgsBytesPerParam, m.NumParams(d))
	}
	return rfeMemory(d)
}

// FitOverhead returns what every fit needs in memory besides its vectors
// on d: the goroutines' scratch, the chunks' accumulators and batches,
// the runtime (MemoryEstimator).
func FitOverhead(d *data.Dataset) float64 {
	return memSlack + memSlackPerLabel*float64(d.NumLabels())
}

// rfeMemory is the estimate of rfe's fit, which the votes that count
// labels with weights share.
func rfeMemory(d *data.Dataset) float64 {
	return VoteMemory(d, voteBytesPerValue, voteBytesPerLabel)
}

// VoteMemory is the estimate of a fit (a vote's, package crowdkit) that
// keeps perValue bytes per task and class and perLabel bytes per label
// beside what every fit needs.
func VoteMemory(d *data.Dataset, perValue, perLabel float64) float64 {
	return perValue*float64(d.NumTasks()*d.NumClasses()) + perLabel*float64(d.NumLabels()) + FitOverhead(d)
}

// FitMemory estimates the memory of fitting m to d: the J×K output and,
// per parameter, what the solver keeps (EM with SQUAREM about 30 bytes,
// CG 120, L-BFGS 360). A fit that the label-switching guard (Guard)
// makes again from other starts, holding the first fit's result, needs
// more.
func (m Model) FitMemory(d *data.Dataset, s *Settings) float64 {
	per := float64(lbfgsBytesPerParam)
	switch {
	case m.FitsByEM(d, s):
		per = emBytesPerParam
	case s != nil && s.Method == CG:
		per = cgBytesPerParam
	}
	return paramMemory(d, per, m.NumParams(d))
}

// paramMemory is the estimate of a fit of params parameters that keeps per
// bytes for each, with its J×K output.
func paramMemory(d *data.Dataset, per float64, params int) float64 {
	return per*float64(params) + 8*float64(d.NumTasks()*d.NumClasses()) + FitOverhead(d)
}

// FitsByEM reports whether a fit of m to d with the settings s (nil: the
// defaults) runs EM, without building the objective: with Method EM, or
// by default when the noise model and the assumption both have
// closed-form M-steps.
func (m Model) FitsByEM(d *data.Dataset, s *Settings) bool {
	return fitsByEM(s.WithDefaults(), func() bool { return m.hasMStep(d) })
}

// hasMStep reports whether a fit of m to d with the method Auto can run
// EM: the noise model names EM as its solver (noise.Describer) and the
// assumption's evaluator has a closed-form M-step. A noise model that does
// not describe itself is taken to be fitted by L-BFGS, the larger
// estimate.
func (m Model) hasMStep(d *data.Dataset) bool {
	n, ok := m.Noise.(noise.Describer)
	if !ok || n.Info().Solver != EM.String() {
		return false
	}
	ev, err := m.Latent.NewEvaluator(d)
	if err != nil {
		return false
	}
	_, ok = ev.(latent.MStepper)
	return ok
}

// FitMemory estimates the memory of rfe (or mv): the counts and the
// frequencies.
func (r RFE) FitMemory(d *data.Dataset, _ *Settings) float64 { return rfeMemory(d) }

// FitMemory estimates the memory of WeightedVote: rfe's.
func (e WeightedVote) FitMemory(d *data.Dataset, _ *Settings) float64 {
	return rfeMemory(d)
}

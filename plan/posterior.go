package plan

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/vb"
	"github.com/consensuslab/consensus/noise"
)

// TaskPosterior is the posterior of every task's true class.
type TaskPosterior interface {
	// ClassPosterior writes P(z_j = k | data) for every class k into dst,
	// which has one entry per class.
	ClassPosterior(j int, dst []float64)
}

// WorkerPosterior is the posterior of every worker's confusion matrix, one
// Dirichlet distribution per row: π_w(z, ·) ~ Dirichlet(λ_wz).
type WorkerPosterior interface {
	// Confusion writes worker w's posterior pseudo-counts λ_w(z, y), K×K
	// row-major (row z: the true class), into dst.
	Confusion(w int, dst []float64)
	// ConfusionPrior writes the prior pseudo-counts β(z, y), K×K, into dst:
	// λ_w − β are the worker's expected label counts.
	ConfusionPrior(dst []float64)
}

// Posterior is a fitted consensus as the planner reads it: the data, the
// tasks' class posteriors and the workers' confusion posteriors.
type Posterior struct {
	// Data is the data set the posterior was fitted on.
	Data *data.Dataset
	// Tasks is the posterior of the tasks' true classes; nil when the fit
	// gives none (a DA fit: its output is a label distribution).
	Tasks TaskPosterior
	// Workers is the posterior of the workers' confusion matrices.
	Workers WorkerPosterior
	// Probs is the consensus distribution of every task, J×K (the fit's
	// output: the class posterior for an LA fit); the consensus label,
	// against which agreement is counted, is its argmax, and Flags counts
	// the workers' labels against it.
	Probs []float64
}

// Model is the model that Fit fits: variational Dawid-Skene under the
// latent label assumption (vb-la-ds, IBCC), whose output is the posterior
// of every task's true class.
var Model = vb.Bayes{Noise: noise.DS{}, Latent: latent.LA{}}

// Fit fits Model to d with the settings s (nil: the defaults) and returns
// its posterior.
func Fit(ctx context.Context, d *data.Dataset, s *model.Settings) (*Posterior, error) {
	r, err := Model.Fit(ctx, d, s)
	if err != nil {
		return nil, err
	}
	return FromResult(r)
}

// FromResult adapts the result of a variational Dawid-Skene fit with the
// default confusion prior (noise.DefaultPriorDiag, noise.DefaultPriorOff):
// its workers' values are the posterior means p[z,y] and the labels n[z]
// every row weighs, from which the pseudo-counts are recovered as λ_wz(y) =
// p[z,y]·(Σ_y β_z(y) + n[z]). The registry says which fits these are
// (model.Capabilities: variational, noise model ds). Under LA (vb-la-ds,
// vb-ds) Probs is the class posterior and Tasks is its cavity form (see
// Cavity); under DA (vb-da-ds, vb-hda-ds) Tasks is nil. Any other result
// is an error.
func FromResult(r *model.Result) (*Posterior, error) {
	if r == nil {
		return nil, errors.New("plan: no fit")
	}
	d := r.Data
	k := d.NumClasses()
	cols := r.WorkerColumns()
	c, _ := model.DescribeName(r.Model)
	if !c.Variational || c.Noise != "ds" || len(cols) != k*k+k || !strings.HasPrefix(cols[k*k], "n[") {
		return nil, fmt.Errorf("plan: model %s is not a variational Dawid-Skene fit (vb-ds, vb-la-ds, vb-da-ds or vb-hda-ds)", r.Model)
	}
	w := &dsWorkers{k: k, lam: make([]float64, 0, d.NumWorkers()*k*k)}
	vals := make([]float64, 0, k*k+k)
	for wk := range d.Workers {
		vals = r.WorkerValues(wk, vals[:0])
		for z := range k {
			s := float64(noise.DefaultPriorDiag+(k-1)*noise.DefaultPriorOff) + vals[k*k+z]
			for y := range k {
				w.lam = append(w.lam, vals[z*k+y]*s)
			}
		}
	}
	p := &Posterior{Data: d, Workers: w, Probs: r.Probs}
	if c.Answer == "posterior" {
		// An LA fit (vb-la-ds, or the default with both answers, vb-ds),
		// whose Probs are the true class's.
		t, err := Cavity(p)
		if err != nil {
			return nil, err
		}
		p.Tasks = t
	}
	return p, nil
}

// dsWorkers holds Dawid-Skene pseudo-counts, W×K×K.
type dsWorkers struct {
	k   int
	lam []float64
}

func (w *dsWorkers) Confusion(wk int, dst []float64) {
	copy(dst, w.lam[wk*w.k*w.k:(wk+1)*w.k*w.k])
}

func (w *dsWorkers) ConfusionPrior(dst []float64) {
	for z := range w.k {
		for y := range w.k {
			dst[z*w.k+y] = noise.DefaultPriorOff
			if y == z {
				dst[z*w.k+y] = noise.DefaultPriorDiag
			}
		}
	}
}

// rows is a TaskPosterior held as a J×K matrix.
type rows struct {
	probs []float64
	k     int
}

func (r rows) ClassPosterior(j int, dst []float64) { copy(dst, r.probs[j*r.k:(j+1)*r.k]) }

// consensusLabels returns the argmax of every row of p (the first of equal
// maxima: the planner's outputs do not depend on a seed).
func consensusLabels(p []float64, k int) []int {
	out := make([]int, len(p)/k)
	for j := range out {
		out[j] = argmax(p[j*k : (j+1)*k])
	}
	return out
}

// argmax returns the index of the first largest entry of v.
func argmax(v []float64) int {
	b := 0
	for i, x := range v {
		if x > v[b] {
			b = i
		}
	}
	return b
}

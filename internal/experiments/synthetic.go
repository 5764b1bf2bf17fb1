package experiments

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// SyntheticSettings describes the synthetic experiment of the paper's table 4
// and calibration figure: labels simulated from DA-GLAD, LA-GLAD and
// DA-GLAD fitted, and their estimates of the true q_j compared by mean
// squared error.
type SyntheticSettings struct {
	// Sim is the simulation; its zero value is the paper's: 2000
	// objects, 20 workers who label every object, q_j ~ U[0, 1],
	// e_w ~ U[0, 4], log d_j ~ U[0, 3], labels from DA-GLAD. Its Seed is
	// ignored: simulation i uses Seed + i.
	Sim sim.Settings
	// Simulations is the number of simulated data sets (the paper: 10).
	Simulations int
	// Seed is the seed of the first simulation.
	Seed uint64
	// MaxIterations caps the fits run "to convergence".
	MaxIterations int
	// DefaultIterations is model.Settings' default iteration limit
	// (1000), reported as its own row.
	DefaultIterations int
	// EarlyCG is the iteration limit of the early-stopped conjugate
	// gradient row.
	EarlyCG int
	// CGIterations caps the conjugate gradient runs of the sweep.
	CGIterations int
	// SweepLimits are the iteration limits of the sweep.
	SweepLimits []int
	// Ridge is the ridge weight λ of the reproduction protocol, fitted
	// with L-BFGS to convergence on every simulation.
	Ridge float64
	// Ridges are the ridge weights of the ridge sweep, run on the first
	// RidgeSimulations simulations with at most RidgeIterations
	// iterations (the protocol's weight Ridge uses MaxIterations).
	Ridges           []float64
	RidgeSimulations int
	RidgeIterations  int
	// Bins is the number of bins of the calibration plots.
	Bins int
	// Threads is the number of fits run at the same time.
	Threads int
}

// SyntheticSettingsFor returns the settings Run uses: the paper's
// simulation repeated 10 times (seeds Seed to Seed+9), fits to convergence
// capped at 20000 iterations, conjugate gradient up to 2000, the ridge
// sweep on the first 3 simulations capped at 5000 iterations. With Quick: 300 objects, 2
// simulations, caps of 300 iterations.
func SyntheticSettingsFor(o SharedSettings) SyntheticSettings {
	c := SyntheticSettings{
		Simulations:       10,
		Seed:              o.Seed,
		MaxIterations:     20000,
		DefaultIterations: 1000,
		EarlyCG:           50,
		CGIterations:      2000,
		SweepLimits:       []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000},
		Ridge:             1,
		Ridges:            []float64{0.01, 0.1, 0.3, 1, 3, 10},
		RidgeSimulations:  3,
		RidgeIterations:   5000,
		Bins:              10,
		Threads:           o.Threads,
	}
	if o.Quick {
		c.Sim.Tasks = 300
		c.Simulations = 2
		c.MaxIterations = 300
		c.DefaultIterations = 200
		c.CGIterations = 300
		c.SweepLimits = []int{1, 10, 50, 100, 300}
		c.Ridges = []float64{0.1, 1}
		c.RidgeSimulations = 1
		c.RidgeIterations = 300
	}
	return c
}

// SyntheticRow is one protocol of the MSE table: how the models were
// fitted and their MSE on every simulation.
type SyntheticRow struct {
	// Name describes the protocol.
	Name string
	// LA and DA hold the MSE of LA-GLAD and DA-GLAD, one per simulation.
	LA, DA []float64
	// LAIter and DAIter hold the iterations of the fits, and LAConv and
	// DAConv count the fits that stopped at an optimum.
	LAIter, DAIter []int
	LAConv, DAConv int
	// LAMirror and DAMirror tell, per simulation, whether the fit ended in
	// the mirrored mode: its estimate is closer to the true q_j with the
	// classes swapped than to the true q_j (see Mirrored).
	LAMirror, DAMirror []bool
}

// Mirrored tells whether the estimate pred (J×2) is closer, in MSE, to the
// truth with the two classes swapped than to the truth itself. GLAD has a
// mirror symmetry: abilities e_w → −e_w with the classes swapped give the
// same likelihood (exactly under LA with a uniform prior), so a fit can end
// in the mode that reads every label backwards. It returns the errors of
// metrics.MSE.
func Mirrored(pred, truth []float64) (bool, error) {
	swapped := make([]float64, len(truth))
	for j := 0; j+1 < len(truth); j += 2 {
		swapped[j], swapped[j+1] = truth[j+1], truth[j]
	}
	back, err := metrics.MSE(pred, swapped, 2)
	if err != nil {
		return false, err
	}
	fwd, err := metrics.MSE(pred, truth, 2)
	return back < fwd-1e-9, err
}

// add appends the result of model m on one simulation.
func (row *SyntheticRow) add(m int, mse float64, iter int, conv, mirror bool) {
	if m == 0 {
		row.LA, row.LAIter, row.LAMirror = append(row.LA, mse), append(row.LAIter, iter), append(row.LAMirror, mirror)
		if conv {
			row.LAConv++
		}
		return
	}
	row.DA, row.DAIter, row.DAMirror = append(row.DA, mse), append(row.DAIter, iter), append(row.DAMirror, mirror)
	if conv {
		row.DAConv++
	}
}

// withoutMirrored returns the values of v whose fit is not mirrored.
func withoutMirrored(v []float64, mirror []bool) []float64 {
	var out []float64
	for i, x := range v {
		if !mirror[i] {
			out = append(out, x)
		}
	}
	return out
}

func countTrue(b []bool) int {
	n := 0
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}

// CalibrationData holds what a calibration figure shows: the true q_j of
// the first simulation and the two models' estimates.
type CalibrationData struct {
	// Name describes the protocol.
	Name string
	// Truth, LA and DA are J×K matrices.
	Truth, LA, DA []float64
}

// SyntheticResult holds the synthetic experiment.
type SyntheticResult struct {
	// Settings are the experiment's settings.
	Settings SyntheticSettings
	// Rows is the MSE table: default settings, the converged maximum
	// likelihood estimate, early-stopped conjugate gradient and the
	// ridge protocol.
	Rows []SyntheticRow
	// SweepLBFGS and SweepCG hold the MSE against the iteration limit:
	// Sweep[m][l][s] for model m (0 LA, 1 DA), limit Settings.SweepLimits[l]
	// and simulation s. CG entries beyond Settings.CGIterations are NaN.
	SweepLBFGS, SweepCG [2][][]float64
	// MirrorLBFGS and MirrorCG tell, per model and simulation, whether the
	// run ended in the mirrored mode; the sweep's means leave those
	// simulations out.
	MirrorLBFGS, MirrorCG [2][]bool
	// RidgeRows holds the ridge sweep, one row per weight (the first is
	// λ = 0, the converged MLE), over the first RidgeSimulations
	// simulations.
	RidgeRows []SyntheticRow
	// RidgeWeights are the weights of RidgeRows.
	RidgeWeights []float64
	// Protocol and MLE are the calibration data of the ridge protocol and
	// of the converged MLE.
	Protocol, MLE *CalibrationData
}

// glad returns LA-GLAD (m = 0) or DA-GLAD (m = 1).
func glad(m int) model.Model {
	if m == 0 {
		return model.Model{Noise: noise.GLAD{}, Latent: latent.LA{}}
	}
	return model.Model{Noise: noise.GLAD{}, Latent: latent.DA{}}
}

var modelNames = [2]string{"la-glad", "da-glad"}

// Synthetic runs the synthetic experiment.
func Synthetic(ctx context.Context, cfg SyntheticSettings, progress func(model.Progress)) (*SyntheticResult, error) {
	res := &SyntheticResult{Settings: cfg}
	nsim := cfg.Simulations
	nr := min(cfg.RidgeSimulations, nsim)
	type simData struct {
		d  *data.Dataset
		tr *sim.Truth
	}
	sims := make([]simData, nsim)
	for i := range sims {
		c := cfg.Sim
		c.Seed = cfg.Seed + uint64(i)
		d, tr, err := sim.Simulate(c)
		if err != nil {
			return nil, err
		}
		sims[i] = simData{d, tr}
	}
	k := sims[0].d.NumClasses()

	lbfgsAt := append(slices.Clone(cfg.SweepLimits), cfg.DefaultIterations)
	cgAt := append(slices.Clone(cfg.SweepLimits), cfg.EarlyCG)
	var lbfgs, cg [2][]*fitTrajectory
	weights := slices.Clone(cfg.Ridges)
	if !slices.Contains(weights, cfg.Ridge) {
		weights = append(weights, cfg.Ridge)
	}
	slices.Sort(weights)
	// ridge[w][m][s]: the fit with weights[w], nil where not run.
	ridge := make([][2][]*model.Result, len(weights))
	for m := range 2 {
		lbfgs[m] = make([]*fitTrajectory, nsim)
		cg[m] = make([]*fitTrajectory, nsim)
		for w := range weights {
			ridge[w][m] = make([]*model.Result, nsim)
		}
	}
	var jobs []job
	threads := threadsPerFit(cfg.Threads)
	for s := range nsim {
		d := sims[s].d
		for m := range 2 {
			mod := glad(m)
			jobs = append(jobs,
				job{
					name: fmt.Sprintf("simulation %d %s l-bfgs", s, modelNames[m]),
					cost: float64(cfg.MaxIterations) * float64(1+m),
					run: func() (err error) {
						lbfgs[m][s], err = trajectory(ctx, mod, d, model.Settings{Method: model.LBFGS, MaxIterations: cfg.MaxIterations, Threads: threads}, lbfgsAt)
						return err
					},
				},
				job{
					name: fmt.Sprintf("simulation %d %s cg", s, modelNames[m]),
					cost: float64(cfg.CGIterations) * 2,
					run: func() (err error) {
						cg[m][s], err = trajectory(ctx, mod, d, model.Settings{Method: model.CG, MaxIterations: cfg.CGIterations, Threads: threads}, cgAt)
						return err
					},
				})
			for w, lambda := range weights {
				if s >= nr && lambda != cfg.Ridge {
					continue
				}
				limit := cfg.MaxIterations
				if lambda != cfg.Ridge && cfg.RidgeIterations > 0 {
					limit = cfg.RidgeIterations
				}
				jobs = append(jobs, job{
					name: fmt.Sprintf("simulation %d %s ridge %g", s, modelNames[m], lambda),
					cost: float64(limit) * 0.1 / lambda,
					run: func() (err error) {
						ridge[w][m][s], err = mod.Fit(ctx, d, &model.Settings{Method: model.LBFGS, Ridge: lambda, MaxIterations: limit, Threads: threads})
						return err
					},
				})
			}
		}
	}
	if err := runJobs(ctx, cfg.Threads, jobs, progress); err != nil {
		return nil, err
	}

	// scoreErr is the first error of a score, returned once the tables
	// are made.
	var scoreErr error
	keep := func(err error) {
		if scoreErr == nil {
			scoreErr = err
		}
	}
	mse := func(p []float64, s int) float64 {
		v, err := metrics.MSE(p, sims[s].tr.Q, k)
		keep(err)
		return v
	}
	mirror := func(p []float64, s int) bool {
		if k != 2 {
			return false
		}
		m, err := Mirrored(p, sims[s].tr.Q)
		keep(err)
		return m
	}
	trajRow := func(name string, tr [2][]*fitTrajectory, limit int) SyntheticRow {
		row := SyntheticRow{Name: name}
		for s := range nsim {
			for m := range 2 {
				t := tr[m][s]
				p := t.Probs[slices.Index(t.At, limit)]
				row.add(m, mse(p, s), min(limit, t.Iterations), t.Converged && t.Iterations <= limit, mirror(p, s))
			}
		}
		return row
	}
	finalRow := func(name string, tr [2][]*fitTrajectory, sims int) SyntheticRow {
		row := SyntheticRow{Name: name}
		for s := range sims {
			for m := range 2 {
				t := tr[m][s]
				row.add(m, mse(t.Final, s), t.Iterations, t.Converged, mirror(t.Final, s))
			}
		}
		return row
	}
	ridgeRow := func(name string, w, sims int) SyntheticRow {
		row := SyntheticRow{Name: name}
		for s := range sims {
			for m := range 2 {
				r := ridge[w][m][s]
				row.add(m, mse(r.Probs, s), r.Iterations, r.Converged, mirror(r.Probs, s))
			}
		}
		return row
	}
	pw := slices.Index(weights, cfg.Ridge)
	res.Rows = []SyntheticRow{
		trajRow(fmt.Sprintf("L-BFGS, default settings (at most %d iterations)", cfg.DefaultIterations), lbfgs, cfg.DefaultIterations),
		finalRow(fmt.Sprintf("L-BFGS to convergence: the MLE (at most %d iterations)", cfg.MaxIterations), lbfgs, nsim),
		trajRow(fmt.Sprintf("CG stopped at %d iterations", cfg.EarlyCG), cg, cfg.EarlyCG),
		ridgeRow(fmt.Sprintf("L-BFGS, ridge λ = %g, to convergence (our protocol)", cfg.Ridge), pw, nsim),
	}
	res.RidgeWeights = append([]float64{0}, weights...)
	res.RidgeRows = append(res.RidgeRows, finalRow("0", lbfgs, nr))
	for w, lambda := range weights {
		res.RidgeRows = append(res.RidgeRows, ridgeRow(strconv.FormatFloat(lambda, 'g', -1, 64), w, nr))
	}
	for m := range 2 {
		for s := range nsim {
			res.MirrorLBFGS[m] = append(res.MirrorLBFGS[m], mirror(lbfgs[m][s].Final, s))
			res.MirrorCG[m] = append(res.MirrorCG[m], mirror(cg[m][s].Final, s))
		}
		res.SweepLBFGS[m] = make([][]float64, len(cfg.SweepLimits))
		res.SweepCG[m] = make([][]float64, len(cfg.SweepLimits))
		for l, limit := range cfg.SweepLimits {
			for s := range nsim {
				t := lbfgs[m][s]
				res.SweepLBFGS[m][l] = append(res.SweepLBFGS[m][l], mse(t.Probs[slices.Index(t.At, limit)], s))
				c := cg[m][s]
				v := math.NaN()
				if limit <= cfg.CGIterations || c.Iterations < cfg.CGIterations {
					v = mse(c.Probs[slices.Index(c.At, limit)], s)
				}
				res.SweepCG[m][l] = append(res.SweepCG[m][l], v)
			}
		}
	}
	res.MLE = &CalibrationData{Name: "MLE (L-BFGS to convergence)", Truth: sims[0].tr.Q, LA: lbfgs[0][0].Final, DA: lbfgs[1][0].Final}
	res.Protocol = &CalibrationData{Name: fmt.Sprintf("ridge λ = %g", cfg.Ridge), Truth: sims[0].tr.Q, LA: ridge[pw][0][0].Probs, DA: ridge[pw][1][0].Probs}
	if scoreErr != nil {
		return nil, scoreErr
	}
	return res, nil
}

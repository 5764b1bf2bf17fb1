package crowdkit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/internal/vote"
)

// MMSR is the matrix mean-subsequence-reduced estimator of Ma and
// Olshevsky, "Adversarial Crowdsourcing Through Robust Rank-One Matrix
// Completion", NeurIPS 2020 (arXiv:2010.12181), as Crowd-Kit's MMSR. Worker
// w answers correctly with probability p_w and otherwise uniformly among
// the other M − 1 classes (M the number of classes that occur); with
// s_w = (M p_w − 1)/(M − 1), the agreement rate a_vw of two workers on
// their common objects satisfies
//
//	E[C_vw] = s_v s_w,  C_vw = (M a_vw − 1)/(M − 1),
//
// a rank-one matrix observed on the pairs with common objects. Fit finds
// |s| by the robust alternating iteration of the paper: from u = v drawn
// uniformly on (0, 1) with Seed (by the Mersenne Twister as numpy's
// RandomState(Seed), in the order in which the data name the workers:
// Crowd-Kit's start for random_state = Seed), every sweep sets
//
//	v_w ← mean of the trimmed set {|C_uw| / u_u : u observed with w},
//	u_w ← mean of the trimmed set {|C_wv| / v_v : v observed with w},
//
// where trimming drops the F largest values above the current value and
// the F smallest below it (all of them if there are fewer than F),
// F = ⌊n_min / 2⌋ − 1 (at least 0) with n_min the fewest partners any worker
// has. It stops when ‖u vᵀ − u′ v′ᵀ‖_F < Tol (10⁻¹⁰ by default) or after
// MaxIterations sweeps; then |s| = u ‖v‖^½ / ‖u‖^½.
//
// Signs: C_vw < 0 says that v and w lie on opposite sides of random. Fit
// gives s_w the sign of w's skill-weighted agreement with its partners,
// sign Σ_v C_vw |s_v|, which is right when most partners are better than
// random (Crowd-Kit finds the partition spectrally); a worker with no
// partner gets s = 0. With NonAdversarial every s_w is taken positive. The
// estimates are clipped to
// [−1/(M−1) + J^−½, 1 − J^−½] (J objects) and turned back into p_w.
//
// The consensus is the vote weighted by the one-coin log odds
// ω_w = log((M − 1) p_w / (1 − p_w)), returned as the posterior under that
// one-coin model with a uniform prior, P_j(z) ∝ exp(Σ_{i ∈ j} ω_w(i) 1[y_i = z]),
// whose argmax is the weighted vote's. (Crowd-Kit divides the scores by
// their sum, which is not a distribution when weights are negative and
// reverses the ranking when the sum is negative.) Of several labels of one
// worker on one object, the last is used for the agreement rates, as in
// Crowd-Kit, and all are counted in the vote.
//
// If the iteration diverges (a skill estimate overflows, which happens on
// small inputs whose agreement matrix it cannot fit), Fit returns an error
// wrapping ErrMMSRDiverged rather than NaN skills.
//
// The zero value runs Crowd-Kit's defaults: 10000 sweeps at most, seed 0,
// tolerance 10⁻¹⁰.
type MMSR struct {
	// MaxIterations bounds the number of sweeps; zero means 10000.
	MaxIterations int
	// Tol stops the sweeps when one changes u vᵀ by less than Tol in
	// Frobenius norm (Crowd-Kit's tol); zero means 10⁻¹⁰, and a negative
	// Tol never stops them early (Crowd-Kit's tol = 0).
	Tol float64
	// Seed seeds the uniform start of u and v; the zero value is a valid
	// seed.
	Seed uint64
	// NonAdversarial takes every worker to be at least as good as random
	// (s_w ≥ 0) instead of estimating the signs, so that no vote counts
	// against the class it names.
	NonAdversarial bool
}

// Name returns "mmsr".
func (MMSR) Name() string { return "mmsr" }

// pairs holds the observed entries C_vw of the worker covariance, by
// worker: the partners of w are nb[off[w]:off[w+1]], with values c.
type pairs struct {
	off []int
	nb  []int32
	c   []float64
}

// Fit estimates the skills of d's workers and returns the weighted vote.
// It takes no settings.
func (e MMSR) Fit(ctx context.Context, d *data.Dataset, _ *model.Settings) (*model.Result, error) {
	if err := model.CheckFit(ctx, d); err != nil {
		return nil, err
	}
	start := time.Now()
	s, m, iter, converged, err := e.skills(d)
	if err != nil {
		return nil, err
	}
	weight, acc := oneCoinWeights(s, m, d.NumTasks())
	status := "Converged"
	if !converged {
		status = "IterationLimit"
	}
	r := &model.Result{
		Model:      e.Name(),
		Data:       d,
		Probs:      logitVote(d, weight),
		Method:     "M-MSR",
		Iterations: iter,
		Status:     status,
		Converged:  converged,
		Runtime:    time.Since(start),
	}
	// The skill is the one-coin accuracy p_w; the signed skill s_w (Crowd-Kit's
	// skills_) is the worker parameter.
	r.SetNoise(&vote.View{K: d.NumClasses(), Acc: acc, Col: "signed_skill", Own: s})
	return r, nil
}

// NumParams returns the number of fitted parameters on d: one signed skill
// per worker (Parametric). Result.WorkerSkills reports the one-coin
// accuracies and Result.WorkerValues the signed skills ("signed_skill").
func (MMSR) NumParams(d *data.Dataset) int { return voteParams(d) }

// skills returns every worker's signed skill s_w (0 for a worker without
// partners), the number of classes M the labels use, the number of sweeps
// and whether the iteration converged.
func (e MMSR) skills(d *data.Dataset) (s []float64, m float64, iter int, converged bool, err error) {
	m = float64(classesUsed(d))
	cov := covariances(d, m)
	s, iter, converged, err = e.magnitudes(d, cov)
	if err != nil {
		return nil, m, iter, false, err
	}
	if !e.NonAdversarial {
		signs(cov, s)
	}
	for w := range s {
		if cov.off[w+1] == cov.off[w] {
			s[w] = 0 // no partner, no information
		}
	}
	return s, m, iter, converged, nil
}

// magnitudes returns |s| by the robust alternating iteration, with the
// number of sweeps and whether it converged. If the iteration diverges
// (a sweep leaves a value that is not finite, as when a ratio |C_uw| / u_u
// divides by a value that has fallen to near zero), it returns
// ErrMMSRDiverged, wrapped with the sweep.
func (e MMSR) magnitudes(d *data.Dataset, cov pairs) (s []float64, iter int, converged bool, err error) {
	nw := d.NumWorkers()
	minNb := math.MaxInt
	for w := range nw {
		minNb = min(minNb, cov.off[w+1]-cov.off[w])
	}
	f := max(minNb/2-1, 0)
	sqJ := math.Sqrt(float64(d.NumTasks()))

	rng := newMT19937(e.Seed)
	u := make([]float64, nw)
	for w := range u {
		u[w] = rng.float64()
	}
	v := slices.Clone(u)
	up, vp := make([]float64, nw), make([]float64, nw)
	maxIter := orInt(e.MaxIterations, 10000)
	tol := e.Tol
	if tol == 0 {
		tol = 1e-10
	}
	var buf []float64
	sweep := func(dst, by []float64) {
		for w := range dst {
			buf = buf[:0]
			for k := cov.off[w]; k < cov.off[w+1]; k++ {
				if b := by[cov.nb[k]]; b != 0 {
					buf = append(buf, math.Abs(cov.c[k])/b)
				}
			}
			if y := trimmed(buf, f, dst[w], sqJ); len(y) > 0 {
				dst[w] = mean(y)
			}
		}
	}
	for iter < maxIter {
		iter++
		copy(up, u)
		copy(vp, v)
		sweep(v, u)
		sweep(u, v)
		if !num.AllFinite(u) || !num.AllFinite(v) {
			return nil, iter, false, fmt.Errorf("%w at sweep %d (a skill estimate overflowed), so the skills are "+
				"undetermined on these labels; use another model such as wawa, zbs or la-ds", ErrMMSRDiverged, iter)
		}
		if rankOneChange(u, v, up, vp) < tol {
			converged = true
			break
		}
	}
	scale := math.Sqrt(math.Sqrt(dot(u, u)) / math.Sqrt(dot(v, v)))
	s = make([]float64, nw)
	for w := range s {
		s[w] = u[w] / scale
	}
	return s, iter, converged, nil
}

// ErrMMSRDiverged is returned (wrapped, with the sweep) by MMSR.Fit when
// the rank-one iteration diverges: a skill estimate overflows and the next
// sweep turns it into NaN, so that no skill and no vote can be read from
// it. It happens on small inputs where some workers agree with every
// partner (a worker who gives one label to everything, among workers who
// mostly do too), whose agreement matrix the iteration cannot fit; the
// skill-weighted votes wawa and zbs, or la-ds, take such data.
var ErrMMSRDiverged = errors.New("mmsr: the rank-one iteration diverged")

// oneCoinWeights clips the skills s to [−1/(M−1) + J^−½, 1 − J^−½] (J
// objects), turns them into one-coin accuracies p_w and returns the vote
// weights log((M − 1) p_w / (1 − p_w)) and the accuracies.
func oneCoinWeights(s []float64, m float64, tasks int) (weight, acc []float64) {
	sqJ := math.Sqrt(float64(tasks))
	weight = make([]float64, len(s))
	acc = make([]float64, len(s))
	for w, x := range s {
		x = max(min(x, 1-1/sqJ), -1/(m-1)+1/sqJ)
		p := x*(m-1)/m + 1/m
		weight[w] = math.Log(p * (m - 1) / (1 - p))
		acc[w] = p
	}
	return weight, acc
}

// classesUsed returns the number of classes that occur among d's labels,
// at least 2.
func classesUsed(d *data.Dataset) int {
	seen := make([]bool, d.NumClasses())
	n := 0
	for _, y := range d.Label {
		if !seen[y] {
			seen[y] = true
			n++
		}
	}
	return max(n, 2)
}

// covariances returns C_vw = (M a_vw − 1)/(M − 1) for every pair of
// workers with a common object, a_vw being the fraction of their common
// objects on which their (last) labels agree.
func covariances(d *data.Dataset, m float64) pairs {
	type count struct{ common, agree float64 }
	counts := make(map[[2]int32]*count)
	last := make(map[int32]uint16)
	for j := range d.Tasks {
		clear(last)
		ws, ys := d.TaskLabels(j)
		for i, w := range ws {
			last[w] = ys[i]
		}
		for v, yv := range last {
			for w, yw := range last {
				if v == w {
					continue
				}
				c := counts[[2]int32{v, w}]
				if c == nil {
					c = &count{}
					counts[[2]int32{v, w}] = c
				}
				c.common++
				if yv == yw {
					c.agree++
				}
			}
		}
	}
	keys := make([][2]int32, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	p := pairs{off: make([]int, d.NumWorkers()+1)}
	for _, k := range keys {
		c := counts[k]
		p.off[k[0]+1]++
		p.nb = append(p.nb, k[1])
		p.c = append(p.c, (m*c.agree/c.common-1)/(m-1))
	}
	for w := range d.NumWorkers() {
		p.off[w+1] += p.off[w]
	}
	return p
}

// trimmed sorts x and removes its f smallest values below a (all values
// below a if there are fewer than f) and its f largest above a (likewise),
// the mean-subsequence-reduced step. A single remaining zero becomes J^−½
// (sqJ = √J), as in Crowd-Kit, so that no estimate is exactly zero.
func trimmed(x []float64, f int, a, sqJ float64) []float64 {
	slices.Sort(x)
	lo := 0
	for lo < len(x) && x[lo] < a {
		lo++
	}
	if lo >= f {
		lo = f
	}
	hi := len(x)
	for hi > lo && x[hi-1] > a {
		hi--
	}
	if len(x)-hi >= f {
		hi = len(x) - f
	}
	y := x[lo:max(hi, lo)]
	if len(y) == 1 && y[0] == 0 {
		y[0] = 1 / sqJ
	}
	return y
}

// rankOneChange returns ‖u vᵀ − up vpᵀ‖_F, computed from the differences
// so that it keeps its precision near convergence:
// u vᵀ − up vpᵀ = du vᵀ + up dvᵀ.
func rankOneChange(u, v, up, vp []float64) float64 {
	var dd, dup, vv, upup, dvdv, vdv float64
	for i := range u {
		du := u[i] - up[i]
		dd += du * du
		dup += du * up[i]
		upup += up[i] * up[i]
	}
	for i := range v {
		dv := v[i] - vp[i]
		vv += v[i] * v[i]
		dvdv += dv * dv
		vdv += v[i] * dv
	}
	return math.Sqrt(max(dd*vv+upup*dvdv+2*dup*vdv, 0))
}

// signs gives every entry of the magnitudes s the sign of its worker's
// skill-weighted agreement with its partners, σ_w = sign Σ_v C_vw |s_v|:
// the sign that fits C_vw ≈ s_v s_w best when the partners are better than
// random. A worker without partners, or with no net agreement, gets 0.
func signs(cov pairs, s []float64) {
	sigma := make([]float64, len(s))
	for w := range s {
		var field float64
		for k := cov.off[w]; k < cov.off[w+1]; k++ {
			field += cov.c[k] * math.Abs(s[cov.nb[k]])
		}
		switch {
		case field > 0:
			sigma[w] = 1
		case field < 0:
			sigma[w] = -1
		}
	}
	for w := range s {
		s[w] = sigma[w] * math.Abs(s[w])
	}
}

// logitVote returns P_j(z) ∝ exp(Σ_{i ∈ j} ω_w(i) 1[y_i = z]) for every
// object j of d.
func logitVote(d *data.Dataset, weight []float64) []float64 {
	k := d.NumClasses()
	p := make([]float64, d.NumTasks()*k)
	for j := range d.Tasks {
		row := p[j*k : (j+1)*k]
		ws, ys := d.TaskLabels(j)
		for i, w := range ws {
			row[ys[i]] += weight[w]
		}
		top := slices.Max(row)
		var sum float64
		for z := range row {
			row[z] = math.Exp(row[z] - top)
			sum += row[z]
		}
		for z := range row {
			row[z] /= sum
		}
	}
	return p
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

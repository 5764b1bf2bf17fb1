package model

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// WorkerSkills returns every worker's skill: the fitted probability that
// the worker reports the consensus class, averaged over the worker's n_w
// labels,
//
//	skill_w = (1/n_w) Σ_{i: w(i) = w} Σ_z out_j(i)(z) P(y = z | z; w, j(i)),
//
// with out_j the consensus distribution of task j and P the fitted noise
// model (Result.Conditional). It is one number per worker for every model,
// comparable across models, beside the model's own worker parameters
// (WorkerValues): for Dawid-Skene the diagonal of the confusion matrix
// weighted by the consensus, for GLAD σ(e_w d_j) averaged over the
// worker's tasks. A worker without labels gets NaN. RFE, whose workers
// are taken as perfect, gives 1 for every worker. A skill-weighted vote
// (crowdkit.Wawa, crowdkit.ZeroBasedSkill, crowdkit.GoldMajorityVote, crowdkit.MMSR) gives its own skills:
// each worker's agreement with the vote (crowdkit.Wawa, crowdkit.ZeroBasedSkill) or with
// the training gold (crowdkit.GoldMajorityVote), as Crowd-Kit's skills_, and the
// one-coin accuracy of crowdkit.MMSR's signed skill.
func (r *Result) WorkerSkills() []float64 {
	if s := skillsOf(r); s != nil {
		return s
	}
	d := r.Data
	k := d.NumClasses()
	p := make([]float64, k)
	s := make([]float64, d.NumWorkers())
	n := make([]float64, d.NumWorkers())
	// With conditionals that do not depend on the object, every worker's
	// P(y = z | z) is read once (W·K reads of K values) instead of once per
	// label and class (N·K), the same numbers in the same sums.
	var diag []float64
	if _, ok := r.noiseView().(noise.WorkerOnly); ok {
		diag = make([]float64, d.NumWorkers()*k)
		for w := range d.NumWorkers() {
			for z := range k {
				r.Conditional(int32(w), 0, z, p)
				diag[w*k+z] = p[z]
			}
		}
	}
	for j := range d.Tasks {
		out := r.Dist(j)
		workers, _ := d.TaskLabels(j)
		for _, w := range workers {
			n[w]++
			for z, q := range out {
				switch {
				case q == 0:
				case diag != nil:
					s[w] += q * diag[int(w)*k+z]
				default:
					r.Conditional(w, j, z, p)
					s[w] += q * p[z]
				}
			}
		}
	}
	for w := range s {
		s[w] /= n[w]
	}
	return s
}

// Agreement returns the fitted workers' mean probability of reporting the
// consensus class over all N labels, Σ_w n_w skill_w / N (see
// WorkerSkills). Workers who are better than chance on average give
// A > 1/K; a fit in the mirror mode, whose consensus has the classes
// switched so that the workers look systematically wrong, gives A < 1/K.
func (r *Result) Agreement() float64 {
	d := r.Data
	n := make([]float64, d.NumWorkers())
	for _, w := range d.Worker {
		n[w]++
	}
	var a float64
	for w, s := range r.WorkerSkills() {
		if n[w] > 0 {
			a += n[w] * s
		}
	}
	return a / float64(max(d.NumLabels(), 1))
}

// Guard is the label-switching guard of Model.Fit and of package hda's
// fits. The
// likelihood of a latent class model does not say which latent class is
// which observed class: for Dawid-Skene or minimax entropy, relabelling
// the latent classes (the rows of every worker's and object's matrix, the
// columns of every q_j, the class prior or the hierarchical prior's p)
// leaves it unchanged, and for GLAD or one-coin with two classes so does
// negating every ability. A fit can therefore end in the mirror mode,
// whose consensus has the classes switched and whose workers look
// systematically wrong: Result.Agreement below 1/K. Such a fit r is
// fitted again from each of these starts:
//
//  1. the mirrored start: r's parameters with every worker parameter
//     negated, which turns each worker's preference for the latent class
//     the other way round (a GLAD ability, a one-coin or MACE logit, a
//     row of Dawid-Skene or minimax entropy logits);
//  2. the relabelled start: the latent classes of r are renamed by the
//     permutation π of the classes that best matches the consensus to the
//     labels (the maximiser of Σ_z M(z, π(z)), with M(z, y) the
//     consensus-weighted count of labels y given to objects whose
//     consensus is z; every permutation for K ≤ 8, greedily beyond). The
//     noise parameters are fitted from the majority-vote start
//     (Model.Init) under DA with every q_j held at r's consensus
//     relabelled, and the latent parameters are r's with their classes
//     permuted (the LA prior, the DA logits; relabel also permutes the
//     hierarchical prior's p). For a model whose likelihood is invariant
//     under relabelling, this start is the mirror mode with the classes
//     renamed, a point of the same likelihood on the right side of the
//     switch; it is skipped when π is the identity;
//  3. with Warm set (r was fitted from the previous fit of a loop such as
//     hierarchical DA's empirical Bayes),
//     the majority-vote start, Model.Init.
//
// The fit of highest agreement among r and the refits is kept (the
// earlier on ties); its Method names its start and both agreements, and
// its Iterations, Evaluations and Runtime add up every fit.
//
// The zero Guard is the guard of Model.Fit.
type Guard struct {
	// Warm adds the majority-vote start.
	Warm bool
	// Relabel, if not nil, returns the assumption of the relabelled
	// start given π, for an assumption with settings indexed by class
	// (the p of latent.Dirichlet); nil keeps the model's.
	Relabel func(perm []int) latent.Assumption
}

// Check applies the guard to r, the fit of m on d with settings s, and
// returns the fit to keep. A cancelled context stops it with the
// context's error; a refit that fails otherwise is left out. A nil d or r
// is an error wrapping ErrArgument.
func (g Guard) Check(ctx context.Context, m Model, d *data.Dataset, s *Settings, r *Result) (*Result, error) {
	if d == nil || r == nil {
		return nil, fmt.Errorf("%w: the label-switching guard without a data set or a fit", ErrArgument)
	}
	k := d.NumClasses()
	a := r.Agreement()
	if a >= 1/float64(k) {
		return r, nil
	}
	var set Settings
	if s != nil {
		set = *s
	}
	best, bestA, how := r, a, ""
	var iters, evals int
	var took time.Duration
	try := func(name string, mm Model, start []float64) error {
		fs := set
		fs.Start, fs.Fixed = start, nil
		runtime.GC() // the last fit's optimiser state, before this one makes its own
		c, err := mm.FitOnce(ctx, d, &fs)
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			return nil
		}
		iters, evals, took = iters+c.Iterations, evals+c.Evaluations, took+c.Runtime
		if ca := c.Agreement(); ca > bestA {
			best, bestA, how = c, ca, name
		}
		return nil
	}
	// 1: the mirrored start.
	x := slices.Clone(r.Params)
	w, _, _, _ := m.Layout(d).Split(x)
	for i := range w {
		w[i] = -w[i]
	}
	if err := try("mirrored start", m, x); err != nil {
		return nil, err
	}
	// 2: the relabelled start.
	if perm := consensusPermutation(r); !isIdentity(perm) {
		mm := m
		if g.Relabel != nil {
			mm.Latent = g.Relabel(perm)
		}
		x, n, err := relabelledStart(ctx, mm, d, set, r, perm)
		if err != nil {
			return nil, err
		}
		iters, evals = iters+n.Iterations, evals+n.Evaluations
		took += n.Runtime
		if x != nil {
			if err := try("relabelled start", mm, x); err != nil {
				return nil, err
			}
		}
	}
	// 3: the majority-vote start.
	if g.Warm {
		if err := try("majority-vote start", m, nil); err != nil {
			return nil, err
		}
	}
	if best == r {
		r.Iterations, r.Evaluations, r.Runtime = r.Iterations+iters, r.Evaluations+evals, r.Runtime+took
		return r, nil
	}
	best.Method += fmt.Sprintf(", refitted from the %s (worker agreement %.3f, below chance 1/K, became %.3f)", how, a, bestA)
	// best's own counts are among iters, evals and took.
	best.Iterations, best.Evaluations, best.Runtime = r.Iterations+iters, r.Evaluations+evals, r.Runtime+took
	return best, nil
}

// relabelledStart returns the relabelled start of Guard for the
// model m (whose assumption is already relabelled) and the noise fit that
// made it: the noise parameters fitted under DA from Model.Init with every
// q_j held at r's consensus with class z renamed perm[z], and r's latent
// parameters with their classes permuted. A failed noise fit gives a nil
// start and no error, a cancelled context its error.
func relabelledStart(ctx context.Context, m Model, d *data.Dataset, set Settings, r *Result, perm []int) ([]float64, *Result, error) {
	k := d.NumClasses()
	// Every q_j held at the relabelled consensus (floored, so that its
	// logarithm is finite).
	da := Model{Noise: m.Noise, Latent: latent.DA{}}
	lay := da.Layout(d)
	x := da.Init(d)
	_, _, _, t := lay.Split(x)
	for j := range d.Tasks {
		q := r.Dist(j)
		for z := range k {
			t[j*k+perm[z]] = math.Log(max(q[z], 1e-12))
		}
	}
	fixed := make([]bool, len(x))
	for i := lay.T[0]; i < lay.T[1]; i++ {
		fixed[i] = true
	}
	fs := set
	fs.Start, fs.Fixed = x, fixed
	if fs.Method == EM || fs.Method == Auto {
		// The relabelled start's noise fit is made by L-BFGS (or CG when
		// asked): EM, which can hold the q_j too, would end it elsewhere
		// and change which start the guard keeps.
		fs.Method = LBFGS
	}
	runtime.GC() // the guard's last fit's optimiser state, as in check's try
	n, err := da.FitOnce(ctx, d, &fs)
	if cerr := ctx.Err(); cerr != nil {
		return nil, nil, cerr
	}
	if err != nil {
		return nil, &Result{}, nil
	}
	// The start: those noise parameters, and r's latent parameters with
	// the classes permuted (every K-long group of a block indexed by
	// class: the LA prior, the DA logits).
	mlay := m.Layout(d)
	start := slices.Clone(r.Params)
	w, o, g, tt := mlay.Split(start)
	nw, no, _, _ := lay.Split(n.Params)
	copy(w, nw)
	copy(o, no)
	if m.Latent.GlobalDim(k) == k {
		permuteGroups(g, k, perm)
	}
	if m.Latent.TaskDim(k) == k {
		permuteGroups(tt, k, perm)
	}
	return start, n, nil
}

// permuteGroups moves, in every k-long group of x, the value of class z to
// class perm[z].
func permuteGroups(x []float64, k int, perm []int) {
	tmp := make([]float64, k)
	for i := 0; i+k <= len(x); i += k {
		for z, v := range x[i : i+k] {
			tmp[perm[z]] = v
		}
		copy(x[i:i+k], tmp)
	}
}

// consensusPermutation returns the renaming π of the consensus classes of
// r that best matches them to the labels: bestPermutation of the K×K
// matrix M(z, y) = Σ_i out_j(i)(z) 1[y_i = y], the consensus-weighted
// counts of the labels.
func consensusPermutation(r *Result) []int {
	d := r.Data
	k := d.NumClasses()
	m := make([]float64, k*k)
	for j := range d.Tasks {
		out := r.Dist(j)
		_, labels := d.TaskLabels(j)
		for _, y := range labels {
			for z, q := range out {
				m[z*k+int(y)] += q
			}
		}
	}
	return bestPermutation(m, k)
}

// bestPermutation returns the permutation π that maximises Σ_z m(z, π(z))
// for the k×k matrix m (row-major). Every permutation is tried for k ≤ 8
// (the first maximiser in lexicographic order wins); beyond, π is built
// greedily from the largest entries of m (greedyPermutation).
func bestPermutation(m []float64, k int) []int {
	if k > 8 {
		return greedyPermutation(m, k)
	}
	perm := make([]int, k)
	cur := make([]int, k)
	used := make([]bool, k)
	best := math.Inf(-1)
	var rec func(z int, v float64)
	rec = func(z int, v float64) {
		if z == k {
			if v > best {
				best = v
				copy(perm, cur)
			}
			return
		}
		for y := range k {
			if !used[y] {
				used[y], cur[z] = true, y
				rec(z+1, v+m[z*k+y])
				used[y] = false
			}
		}
	}
	rec(0, 0)
	return perm
}

// greedyPermutation returns π built from the largest entries of the k×k
// matrix m: the largest entry M(z, y) fixes π(z) = y, and so on among the
// rows and columns left (ties to the smaller index).
func greedyPermutation(m []float64, k int) []int {
	perm := make([]int, k)
	rowUsed := make([]bool, k)
	colUsed := make([]bool, k)
	for range k {
		bz, by, bv := -1, -1, math.Inf(-1)
		for z := range k {
			for y := range k {
				if !rowUsed[z] && !colUsed[y] && (bz < 0 || m[z*k+y] > bv) {
					bz, by, bv = z, y, m[z*k+y]
				}
			}
		}
		perm[bz], rowUsed[bz], colUsed[by] = by, true, true
	}
	return perm
}

// isIdentity reports whether perm maps every class to itself.
func isIdentity(perm []int) bool {
	for z, y := range perm {
		if z != y {
			return false
		}
	}
	return true
}

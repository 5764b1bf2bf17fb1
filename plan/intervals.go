package plan

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/consensuslab/consensus/internal/pool"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/model"
)

// IntervalSettings are the settings of ClassIntervals. The zero value is
// the default of every field.
type IntervalSettings struct {
	// Level is the nominal level of the intervals; zero means 0.9.
	Level float64
	// Draws is the number of draws of the workers' confusion matrices;
	// zero means 400 for data of up to 10⁵ labels and 4·10⁷ over the
	// number of labels above, at least 100, so that the draws cost a few
	// fits however large the data; as many importance draws a worker
	// estimate its marginal likelihood under the population's priors
	// (ClassIntervals). The bootstrap calibrates the level for the
	// intervals of that many draws, their sampling noise included.
	Draws int
	// Bootstrap is the number of data sets simulated from the fit to
	// calibrate the level (see ClassIntervals); zero means 10 for data of
	// up to 10⁵ labels and 10⁶ over the number of labels above (at least
	// three), so that the calibration sees 10⁶ simulated labels or more;
	// negative means none. Every simulation costs about what the
	// intervals of the data do (a fit, the population's three rounds of
	// draws of every worker, and the draws of at most 5000 tasks), so the
	// intervals cost most at about 10⁵ labels (docs/planning.md).
	Bootstrap int
	// Seed seeds the draws and the simulations.
	Seed uint64
	// Fit holds the settings of the bootstrap's fits, whose Threads is also
	// the number of goroutines of the draws; nil means the defaults. The
	// output does not depend on the number of goroutines.
	Fit *model.Settings
	// Workers, read by LabelIntervals alone, is the posterior of the
	// workers' confusion matrices of a fit of Model (vb-la-ds) to the same
	// labels; nil means that LabelIntervals makes that fit.
	Workers WorkerPosterior
	// Progress, if not nil, is told the steps as they start: done of
	// total steps finished and the one under way (ClassIntervals: the
	// crowd's population, every bootstrap simulation, the draws of the
	// intervals; LabelIntervals: its draws). It does not change the
	// output.
	Progress func(done, total int, what string)
}

// step calls s.Progress, if set.
func (s *IntervalSettings) step(done, total int, what string) {
	if s.Progress != nil {
		s.Progress(done, total, what)
	}
}

// Intervals are credible intervals of every task's class posterior.
type Intervals struct {
	// Lo and Hi bound the interval of ρ_j(z), J×K.
	Lo, Hi []float64
	// Level is the nominal level asked for.
	Level float64
	// Used is the level of the posterior quantiles taken, the calibrated
	// level: Level when no bootstrap was made.
	Used float64
}

// ClassIntervals returns credible intervals for every task's class
// posterior ρ_j(z): the spread of ρ_j(z) over draws of the workers'
// confusion matrices and of the class prior from their posteriors (the
// prior's Dirichlet(1 + Σ_j ρ_j)), which says how much the consensus
// probability depends on what is known of the workers.
//
// A worker's matrix is drawn from its posterior under the crowd's
// population (newPopPosterior): the mixture of spammers', reliable
// workers' and adversaries' priors behind Flags, its shares fitted to the
// crowd. A worker with few labels then borrows the spread of the crowd's
// accuracies; under the fit's own mean-field posterior, with the fixed
// prior of vb-la-ds, light workers at K = 5 looked much worse than they
// were, and the consensus class's intervals covered the true posterior on
// 67% of simulated tasks (docs/planning.md).
//
// These intervals taken at the nominal level still cover the posterior at
// the true workers less often than they claim, or more, so the level is
// calibrated by a parametric bootstrap: Bootstrap data sets are simulated
// from the population's posterior (true classes from every task's
// posterior, labels from the workers' posterior means, on the same
// task-worker pairs) and fitted again, the coverage of the simulations'
// true posteriors is measured on a grid of levels, and the level of the
// quantiles taken is the one whose coverage, interpolated, is the nominal
// level.
//
// Draw s comes from a generator seeded with (Seed, s), which draws the
// class prior and then every worker's matrix in order, and simulation b
// from one seeded with (Seed, b), so that the output depends on the seed
// alone.
func ClassIntervals(ctx context.Context, p *Posterior, s *IntervalSettings) (*Intervals, error) {
	if err := checkPosterior(p); err != nil {
		return nil, err
	}
	var set IntervalSettings
	if s != nil {
		set = *s
	}
	set.Level = cmp.Or(set.Level, 0.9)
	n := p.Data.NumLabels()
	set.Draws = cmp.Or(set.Draws, max(100, min(400, 40_000_000/max(n, 1))))
	set.Bootstrap = cmp.Or(set.Bootstrap, defaultBootstrap(n))
	threads := 0
	if set.Fit != nil {
		threads = set.Fit.Threads
	}
	used := set.Level
	steps := max(set.Bootstrap, 0) + 2
	set.step(0, steps, "the crowd's population")
	base := newPopPosterior(p, set.Draws, set.Seed, popRounds)
	k := p.Data.NumClasses()
	if set.Bootstrap > 0 {
		grid := levelGrid(set.Level)
		in := make([]float64, len(grid))
		var all float64
		world := base.posterior(p)
		for b := range set.Bootstrap {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			set.step(1+b, steps, fmt.Sprintf("bootstrap simulation %d of %d", b+1, set.Bootstrap))
			d, truth := simulateFrom(world, set.Seed, uint64(b))
			q, err := Fit(ctx, d, set.Fit)
			if err != nil {
				return nil, err
			}
			qp := newPopPosterior(q, set.Draws, set.Seed, popRounds)
			tasks := spaced(d.NumTasks(), bootTasks)
			forBlocks(len(tasks), set.Draws*k, func(lo, hi int) {
				qlo, qhi := classDraws(q, qp, set.Draws, set.Seed^0x9e3779b97f4a7c15+uint64(b), tasks[lo:hi], threads, grid)
				for i := range grid {
					for c := range qlo[i] {
						x := truth[tasks[lo+c/k]*k+c%k]
						if x >= qlo[i][c] && x <= qhi[i][c] {
							in[i]++
						}
					}
				}
				all += float64((hi - lo) * k)
			})
		}
		used = calibrate(grid, in, all, set.Level)
	}
	set.step(steps-1, steps, "the intervals' draws")
	lo, hi := make([]float64, len(p.Probs)), make([]float64, len(p.Probs))
	all := spaced(p.Data.NumTasks(), p.Data.NumTasks())
	forBlocks(len(all), set.Draws*k, func(jlo, jhi int) {
		l, h := classDraws(p, base, set.Draws, set.Seed, all[jlo:jhi], threads, []float64{used})
		copy(lo[jlo*k:], l[0])
		copy(hi[jlo*k:], h[0])
	})
	return &Intervals{Lo: lo, Hi: hi, Level: set.Level, Used: used}, nil
}

// popRounds is the number of rounds of newPopPosterior.
const popRounds = 3

// bootTasks bounds the tasks of every bootstrap simulation whose coverage
// is measured: the simulation is fitted whole, its coverage measured on at
// most this many tasks, evenly spaced. The spread between simulations, not
// the tasks counted, limits the calibration: on crowds of 10,000 tasks (K
// = 2 and 5, 3 labels a task, seeds 1 and 2) the calibrated level moved by
// at most 0.0023 between measuring all of them and this bound, which draws
// the class posteriors of a quarter of the tasks of a simulation of
// 20,000 or more.
const bootTasks = 5000

// spaced returns at most m of the indices 0 … n−1, evenly spaced from 0.
func spaced(n, m int) []int {
	stride := max((n+m-1)/max(m, 1), 1)
	out := make([]int, 0, (n+stride-1)/stride)
	for j := 0; j < n; j += stride {
		out = append(out, j)
	}
	return out
}

// defaultBootstrap returns the default number of bootstrap data sets for
// data of n labels: min(10, 10⁶/n), at least 3. The simulations' spread
// limits the calibration: on crowds of 60,000 tasks (1.8·10⁵ labels, K =
// 2 and 5, seeds 1 and 2) the intervals calibrated by one simulation
// covered 0.5 to 3.0 points more than those calibrated by eight.
func defaultBootstrap(n int) int {
	return max(3, min(10, 1_000_000/max(n, 1)))
}

// levelGrid returns the levels the calibration tries, in increasing order:
// those whose tails are level's divided by 0.5, 0.75, 1, 1.5, 2, 3, 5, 10
// and 20.
func levelGrid(level float64) []float64 {
	var out []float64
	for _, f := range []float64{0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 20} {
		out = append(out, max(1-(1-level)/f, 0))
	}
	return out
}

// calibrate returns the level whose coverage, interpolated linearly between
// the grid's levels (in[i] of all covered at grid[i]), is target: the
// grid's first level if it already covers as much, its last if none does.
func calibrate(grid, in []float64, all, target float64) float64 {
	if in[0]/all >= target {
		return grid[0]
	}
	for i := 1; i < len(grid); i++ {
		c0, c1 := in[i-1]/all, in[i]/all
		if c1 >= target {
			return grid[i-1] + (grid[i]-grid[i-1])*(target-c0)/(c1-c0)
		}
	}
	return grid[len(grid)-1]
}

// simulateFrom simulates a data set from the fit p, with the task-worker
// pairs of p.Data: every task's true class from its posterior, every label
// from its worker's posterior mean confusion row, with a generator seeded
// with (seed, b). It returns the data set and every task's class posterior
// at those workers and the fit's class prior (the truth the intervals of
// its fit should cover), J×K.
func simulateFrom(p *Posterior, seed, b uint64) (*data.Dataset, []float64) {
	d := p.Data
	k := d.NumClasses()
	rng := rand.New(rand.NewPCG(seed, b))
	means := workerMeans(p)
	prior := classPrior(p)
	out := &data.Dataset{Name: d.Name, Tasks: d.Tasks, Workers: d.Workers, Classes: d.Classes,
		Offsets: d.Offsets, Worker: d.Worker, Label: make([]uint16, len(d.Label))}
	truth := make([]float64, d.NumTasks()*k)
	for j := range d.Tasks {
		z := num.Pick(rng, p.Probs[j*k:(j+1)*k], 1)
		o := truth[j*k : (j+1)*k]
		copy(o, prior)
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			w := int(d.Worker[i])
			y := num.Pick(rng, means[(w*k+z)*k:(w*k+z+1)*k], 1)
			out.Label[i] = uint16(y)
			for zz := range k {
				o[zz] += math.Log(means[(w*k+zz)*k+y])
			}
		}
		softmax(o)
	}
	return out, truth
}

// classPrior returns the logarithm of the fit's class prior: the mean of
// the tasks' consensus distributions, with one pseudo-count per class.
func classPrior(p *Posterior) []float64 {
	k := p.Data.NumClasses()
	J := p.Data.NumTasks()
	prior := make([]float64, k)
	for j := range J {
		for z := range k {
			prior[z] += p.Probs[j*k+z]
		}
	}
	for z := range prior {
		prior[z] = math.Log((prior[z] + 1) / float64(J+k))
	}
	return prior
}

// blockFloats bounds the draws held at once: 2²² values, 32 MiB, held
// twice while they are gathered and sorted.
const blockFloats = 1 << 22

// forBlocks calls f on consecutive blocks [lo, hi) of n tasks, each of at
// most blockFloats/per tasks (at least one).
func forBlocks(n, per int, f func(lo, hi int)) {
	size := max(blockFloats/max(per, 1), 1)
	for lo := 0; lo < n; lo += size {
		f(lo, min(lo+size, n))
	}
}

// classDraws returns, for every level of levels, the equal-tailed
// intervals of the class posteriors of the tasks listed over draws of the
// class prior from its posterior and of the workers' confusion matrices
// from pp: lo[i][c] and hi[i][c] bound cell c (task tasks[c/K], class c
// mod K) at levels[i]. Draw s comes from a generator seeded with (seed,
// s), which draws the prior and then every worker's matrix in order, so
// that a task's draws do not depend on the tasks listed with it; the
// draws run on threads goroutines (zero: one per core), each writing its
// own entries, so that they do not depend on that number either.
func classDraws(p *Posterior, pp *popPosterior, draws int, seed uint64, tasks []int, threads int, levels []float64) (lo, hi [][]float64) {
	d := p.Data
	k := d.NumClasses()
	J := d.NumTasks()
	cells := len(tasks) * k
	lo, hi = make([][]float64, len(levels)), make([][]float64, len(levels))
	var qs []float64
	for i, l := range levels {
		lo[i], hi[i] = make([]float64, cells), make([]float64, cells)
		qs = append(qs, (1-l)/2, (1+l)/2)
	}
	slices.Sort(qs)
	// The class prior's posterior, Dirichlet(1 + Σ_j ρ_j).
	nu := make([]float64, k)
	for j := range J {
		for z := range k {
			nu[z] += p.Probs[j*k+z]
		}
	}
	// Every draw writes its row of raw, [s·cells, (s+1)·cells); the rows are
	// gathered cell by cell for the quantiles.
	raw := make([]float64, draws*cells)
	ctx := context.Background()
	_ = pool.Run(ctx, draws, pool.Settings{Threads: threads}, func(s int) error {
		prior := make([]float64, k)
		logPi, buf := make([]float64, d.NumWorkers()*k*k), make([]float64, k*k)
		src := rand.NewPCG(seed, uint64(s))
		var sum float64
		for z := range k {
			prior[z] = distuv.Gamma{Alpha: 1 + nu[z], Beta: 1, Src: src}.Rand()
			sum += prior[z]
		}
		for z := range k {
			prior[z] = math.Log(prior[z] / sum)
		}
		for w := range d.Workers {
			pp.draw(w, src, logPi[w*k*k:(w+1)*k*k], buf)
		}
		row := raw[s*cells : (s+1)*cells]
		for t, j := range tasks {
			o := row[t*k : (t+1)*k]
			copy(o, prior)
			for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
				w, y := int(d.Worker[i]), int(d.Label[i])
				for z := range k {
					o[z] += logPi[(w*k+z)*k+y]
				}
			}
			softmax(o)
		}
		return nil
	})
	// Gathered in tiles of 64 cells, whose draws fit in a core's cache.
	const chunk = 64
	_ = pool.Run(ctx, (cells+chunk-1)/chunk, pool.Settings{Threads: threads}, func(i int) error {
		c0, c1 := i*chunk, min((i+1)*chunk, cells)
		n := c1 - c0
		tile := make([]float64, draws*n)
		for s := range draws {
			copy(tile[s*n:(s+1)*n], raw[s*cells+c0:s*cells+c1])
		}
		col := make([]float64, draws)
		q := make([]float64, len(qs))
		for c := range n {
			for s := range col {
				col[s] = tile[s*n+c]
			}
			quantilesOf(col, qs, q)
			for i, l := range levels {
				lo[i][c0+c] = q[sort.SearchFloat64s(qs, (1-l)/2)]
				hi[i][c0+c] = q[sort.SearchFloat64s(qs, (1+l)/2)]
			}
		}
		return nil
	})
	return lo, hi
}

// quantilesOf writes the qs-quantiles of x (qs in increasing order) into
// out, each interpolated linearly between order statistics as
// quantileSorted does; x is reordered. It puts in order only the ranks
// the quantiles read, in runs: every run is placed by two selections
// (nth) and sorted between them, and two runs closer than a quarter of the
// values left are read as one. The bootstrap's eighteen quantiles of 400
// draws read ranks 1-40 and 359-399: two sorted runs of about 40 values
// against one sort of all 400.
func quantilesOf(x, qs, out []float64) {
	n := len(x)
	if n == 0 {
		for i := range qs {
			out[i] = math.NaN()
		}
		return
	}
	rank := func(q float64) int { return min(int(q*float64(n-1)), n-1) }
	from := 0 // x[:from] is settled: no rank from on is below it
	for i := 0; i < len(qs); {
		// The run of ranks [a, b] that quantiles i … e−1 read.
		a := rank(qs[i])
		b := min(a+1, n-1)
		e := i + 1
		for ; e < len(qs); e++ {
			r := rank(qs[e])
			if r-b > (n-from)/4 {
				break
			}
			b = max(b, min(r+1, n-1))
		}
		if a-from <= (n-from)/4 {
			a = from
		}
		if a = max(a, from); a <= b {
			nth(x[from:], a-from)
			if b > a {
				nth(x[a+1:], b-a-1)
				slices.Sort(x[a+1 : b])
			}
			from = b + 1
		}
		for ; i < e; i++ {
			out[i] = quantileSorted(x, qs[i])
		}
	}
}

// nth reorders x so that x[r] is the value it would have sorted, with
// no larger value before it and no smaller one after it (quickselect,
// median-of-three pivots).
func nth(x []float64, r int) {
	lo, hi := 0, len(x)-1
	for lo < hi {
		m := lo + (hi-lo)/2
		if x[m] < x[lo] {
			x[m], x[lo] = x[lo], x[m]
		}
		if x[hi] < x[lo] {
			x[hi], x[lo] = x[lo], x[hi]
		}
		if x[hi] < x[m] {
			x[hi], x[m] = x[m], x[hi]
		}
		pivot := x[m]
		i, j := lo, hi
		for i <= j {
			for x[i] < pivot {
				i++
			}
			for x[j] > pivot {
				j--
			}
			if i <= j {
				x[i], x[j] = x[j], x[i]
				i++
				j--
			}
		}
		switch {
		case r <= j:
			hi = j
		case r >= i:
			lo = i
		default:
			return
		}
	}
}

// softmax turns the logarithms in v into probabilities, in place.
func softmax(v []float64) {
	top := math.Inf(-1)
	for _, x := range v {
		top = max(top, x)
	}
	var s float64
	for i, x := range v {
		v[i] = math.Exp(x - top)
		s += v[i]
	}
	for i := range v {
		v[i] /= s
	}
}

package ebcc

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// fit is the variational posterior of one start: q(z_j, g_j) and the
// Dirichlet posteriors of the workers' rows, the subtype shares and the
// class prior.
type fit struct {
	d         *data.Dataset
	k, m      int
	api       float64   // a/M, the prior pseudo-count of every subtype share
	beta      []float64 // the prior rows β_z, K×K
	zg        []float64 // q(z_j = z, g_j = m), J×K×M
	z         []float64 // q(z_j = z) = Σ_m q(z, m), J×K
	mu        []float64 // the rows' posterior pseudo-counts, W×K×M×K
	elogv     []float64 // E[log v_w(z, m, y)], laid out as mu
	eta       []float64 // the subtype shares' posterior pseudo-counts, K×M
	nu        []float64 // the class prior's posterior pseudo-counts, K
	elogpi    []float64 // E[log π_z(m)], K×M
	elogtau   []float64 // E[log τ_z], K
	elbo      float64
	converged bool // whether the stopping rule ended the start
	index     int  // the start's index
}

func (e EBCC) newFit(d *data.Dataset) *fit {
	k := d.NumClasses()
	m := cmp.Or(e.Subtypes, DefaultSubtypes)
	f := &fit{d: d, k: k, m: m, api: cmp.Or(e.Concentration, DefaultConcentration) / float64(m)}
	diag, off := cmp.Or(e.Diagonal, DefaultDiagonal), cmp.Or(e.OffDiagonal, DefaultOffDiagonal)
	f.beta = make([]float64, k*k)
	for z := range k {
		for y := range k {
			f.beta[z*k+y] = off
			if y == z {
				f.beta[z*k+y] = diag
			}
		}
	}
	f.zg = make([]float64, d.NumTasks()*k*m)
	f.z = make([]float64, d.NumTasks()*k)
	f.mu = make([]float64, d.NumWorkers()*k*m*k)
	f.elogv = make([]float64, len(f.mu))
	f.eta = make([]float64, k*m)
	f.nu = make([]float64, k)
	f.elogpi = make([]float64, k*m)
	f.elogtau = make([]float64, k)
	return f
}

// start sets q(z_j) to the label frequencies and splits every q(z_j = z)
// among the subtypes by a Dirichlet(1, …, 1) draw (normalised exponential
// draws from seed).
func (f *fit) start(seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0xeb_cc))
	k, m := f.k, f.m
	copy(f.z, f.d.Frequencies())
	g := make([]float64, m)
	for j := range f.d.NumTasks() {
		for z := range k {
			var s float64
			for i := range g {
				g[i] = rng.ExpFloat64()
				s += g[i]
			}
			for i := range g {
				f.zg[(j*k+z)*m+i] = f.z[j*k+z] * g[i] / s
			}
		}
	}
}

// run alternates the updates of the Dirichlet posteriors (update) and of
// every q(z_j, g_j),
//
//	q(z_j = z, g_j = m) ∝ exp(E[log τ_z] + E[log π_z(m)] + Σ_i E[log v_{w_i}(z, m, y_i)]),
//
// until no q(z_j = z) moves by more than tol in a pass, or maxIter passes;
// it returns the passes and whether the rule stopped them. The Dirichlet
// posteriors are left updated from the final q.
func (f *fit) run(ctx context.Context, maxIter int, tol float64) (int, bool, error) {
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return it, false, err
		}
		f.update()
		if f.estep() <= tol {
			f.update()
			return it, true, nil
		}
	}
	f.update()
	return maxIter, false, nil
}

// estep sets every q(z_j, g_j) and q(z_j) from the expected logarithms of
// the Dirichlet posteriors, and returns the largest change of a q(z_j = z).
func (f *fit) estep() float64 {
	k, m, d := f.k, f.m, f.d
	km := k * m
	row := make([]float64, km)
	moved := 0.0
	for j := range d.NumTasks() {
		for zm := range row {
			row[zm] = f.elogpi[zm] + f.elogtau[zm/m]
		}
		workers, labels := d.TaskLabels(j)
		for i, w := range workers {
			y := int(labels[i])
			ev := f.elogv[int(w)*km*k:]
			for zm := range row {
				row[zm] += ev[zm*k+y]
			}
		}
		lse := num.LogSumExp(row)
		q := f.zg[j*km : (j+1)*km]
		for z := range k {
			var pz float64
			for g := range m {
				q[z*m+g] = math.Exp(row[z*m+g] - lse)
				pz += q[z*m+g]
			}
			// A sum of exponentials can pass 1 by a rounding error.
			pz = min(pz, 1)
			moved = max(moved, math.Abs(pz-f.z[j*k+z]))
			f.z[j*k+z] = pz
		}
	}
	return moved
}

// update sets the Dirichlet posteriors from q(z, g): every worker row's
// pseudo-counts β_z + Σ_{labels y of w} q(z_j = z, g_j = m) on y, the
// subtype shares' a/M + Σ_j q(z, m), the class prior's 1 + Σ_j q(z), and
// their expected logarithms.
func (f *fit) update() {
	k, m, d := f.k, f.m, f.d
	km := k * m
	for r := 0; r < len(f.mu); r += k {
		z := (r / k / m) % k
		copy(f.mu[r:r+k], f.beta[z*k:(z+1)*k])
	}
	for i := range f.eta {
		f.eta[i] = f.api
	}
	for z := range f.nu {
		f.nu[z] = 1
	}
	for j := range d.NumTasks() {
		q := f.zg[j*km : (j+1)*km]
		for zm, v := range q {
			f.eta[zm] += v
		}
		workers, labels := d.TaskLabels(j)
		for i, w := range workers {
			y := int(labels[i])
			mu := f.mu[int(w)*km*k:]
			for zm, v := range q {
				mu[zm*k+y] += v
			}
		}
	}
	for zm, v := range f.eta {
		f.nu[zm/m] += v - f.api
	}
	for r := 0; r < len(f.mu); r += k {
		num.DirichletExpLog(f.elogv[r:r+k], f.mu[r:r+k])
	}
	for z := range k {
		num.DirichletExpLog(f.elogpi[z*m:(z+1)*m], f.eta[z*m:(z+1)*m])
	}
	num.DirichletExpLog(f.elogtau, f.nu)
}

// bound returns the evidence lower bound of the labels at the current
// posterior, log p(y) ≥ E_q[log p(y, z, g, v, π, τ)] − E_q[log q]. With
// every Dirichlet posterior Dirichlet(λ) at its update from q(z, g) (prior
// pseudo-counts plus expected counts), its expected log-likelihood, prior
// and entropy terms collect into log B(λ) − log B(prior), so that
//
//	bound = Σ_Dirichlets [log B(λ) − log B(prior)] + H[q(z, g)],
//
// with B the multivariate beta function (num.DirichletLogNorm is −log B).
func (f *fit) bound() float64 {
	k, m := f.k, f.m
	var b float64
	for r := 0; r < len(f.mu); r += k {
		b -= num.DirichletLogNorm(f.mu[r : r+k])
	}
	for z := range k {
		b -= num.DirichletLogNorm(f.eta[z*m : (z+1)*m])
	}
	b -= num.DirichletLogNorm(f.nu)
	share := make([]float64, m)
	for g := range share {
		share[g] = f.api
	}
	ones := make([]float64, k)
	for z := range ones {
		ones[z] = 1
	}
	b += num.DirichletLogNorm(ones)
	for z := range k {
		b += float64(f.d.NumWorkers()*m)*num.DirichletLogNorm(f.beta[z*k:(z+1)*k]) + num.DirichletLogNorm(share)
	}
	for _, v := range f.zg {
		if v > 0 {
			b -= v * math.Log(v)
		}
	}
	return b
}

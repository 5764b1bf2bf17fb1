package ambiguity

import (
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// Cond writes into p the probability P(y | z) of every label y from worker
// w on task j when the label's subjective class is z.
type Cond func(w int32, j, z int, p []float64)

// Labels computes the per-label probabilities of the tasks of a data set
// from the workers' conditionals, deconvolved by the ambiguity they
// absorbed in a fit under LA (see SetMean).
type Labels struct {
	d          *data.Dataset
	k          int
	cond       Cond
	workerOnly bool
	mu         float64
	w          []float64 // the distractor's weights w_c(d), K×K
	finv       []float64 // F⁻¹ at mu (K > 2; K×K)
	raw        []float64 // the fit's P(y | z) of every worker, K×K each, when workerOnly
	cache      []float64 // raw deconvolved by mu
	p, m, tmp  []float64
}

// NewLabels returns the Labels of d under cond and the base measure base
// (K, positive), which weighs the distractors; workerOnly says that cond
// does not depend on the task, so that it is read once per worker.
func NewLabels(d *data.Dataset, cond Cond, workerOnly bool, base []float64) *Labels {
	k := d.NumClasses()
	l := &Labels{d: d, k: k, cond: cond, workerOnly: workerOnly, p: make([]float64, k), m: make([]float64, k*k), tmp: make([]float64, k*k)}
	l.w = distractors(base)
	if workerOnly {
		l.raw = make([]float64, d.NumWorkers()*k*k)
		for w := range d.NumWorkers() {
			for z := range k {
				cond(int32(w), 0, z, l.raw[(w*k+z)*k:(w*k+z+1)*k])
			}
		}
		l.cache = slices.Clone(l.raw)
	}
	return l
}

// distractors returns the weights w_c(d) = β_d / (1 − β_c) of the
// distractor d of a task of true class c (K×K, zero on the diagonal) for
// the base measure β.
func distractors(base []float64) []float64 {
	k := len(base)
	w := make([]float64, k*k)
	for c := range k {
		var rest float64
		for d, p := range base {
			if d != c {
				rest += p
			}
		}
		for d, p := range base {
			if d != c {
				w[c*k+d] = p / rest
			}
		}
	}
	return w
}

// SetMean sets the mean share μ of a task's label distribution off its true
// class, which a fit under LA reads as the workers' noise: its
// conditionals are then F·P(y | x) with F(z, x) = 1 − μ for x = z and
// μ·w_z(x) otherwise, the probability of subjective class x on a task of
// true class z. The workers' own conditionals are F⁻¹ times the fit's, each
// probability kept at least a tenth of the fit's and the rows
// renormalised. F is diagonally dominant for μ < ½, so it has an inverse.
func (l *Labels) SetMean(mu float64) {
	l.mu = mu
	if l.k > 2 {
		l.finv = mixInverse(l.w, l.k, mu)
	}
	if l.workerOnly {
		k := l.k
		for w := range l.d.NumWorkers() {
			l.deconvolve(l.raw[w*k*k:(w+1)*k*k], l.cache[w*k*k:(w+1)*k*k])
		}
	}
}

// mixInverse returns F⁻¹ (K×K) for F(z, x) = 1 − μ at x = z and μ·w(z, x)
// otherwise.
func mixInverse(w []float64, k int, mu float64) []float64 {
	f := mat.NewDense(k, k, nil)
	for z := range k {
		for x := range k {
			v := mu * w[z*k+x]
			if x == z {
				v = 1 - mu
			}
			f.Set(z, x, v)
		}
	}
	var inv mat.Dense
	if err := inv.Inverse(f); err != nil {
		// Unreachable for μ < ½: F is strictly diagonally dominant.
		panic("ambiguity: mixing matrix not invertible: " + err.Error())
	}
	return inv.RawMatrix().Data
}

// deconvolve writes F⁻¹·src into dst, K×K rows of P(y | z), as SetMean
// describes: at K = 2 in the closed form of the function deconvolve,
// otherwise by the F⁻¹ of SetMean.
func (l *Labels) deconvolve(src, dst []float64) {
	k := l.k
	if k == 2 {
		deconvolve(src, dst, k, l.mu)
		return
	}
	for x := range k {
		for y := range k {
			var v float64
			for z := range k {
				v += l.finv[x*k+z] * src[z*k+y]
			}
			dst[x*k+y] = max(v, 0.1*src[x*k+y])
		}
	}
	normRows(dst, k)
}

// deconvolve writes F⁻¹·src into dst, K×K rows of P(y | z), as SetMean
// describes, for distractors uniform over the other classes (at K = 2, the
// only other class). With β = μ/(K−1) and α = 1 − K·β, F = α·I + β·J and
// F⁻¹ = (I − β·J)/α.
func deconvolve(src, dst []float64, k int, mu float64) {
	beta := mu / float64(k-1)
	alpha := 1 - float64(k)*beta
	for y := range k {
		var col float64
		for z := range k {
			col += src[z*k+y]
		}
		for x := range k {
			dst[x*k+y] = max((src[x*k+y]-beta*col)/alpha, 0.1*src[x*k+y])
		}
	}
	normRows(dst, k)
}

// normRows scales every K-long row of m to sum to one.
func normRows(m []float64, k int) {
	for x := 0; x < len(m); x += k {
		row := m[x : x+k]
		var s float64
		for _, v := range row {
			s += v
		}
		for y := range row {
			row[y] /= s
		}
	}
}

// like writes P_i(x) / max_x P_i(x) of every label i of task j, from
// workers[i] with label labels[i] (the task's, as d.TaskLabels returns
// them), into dst (n×K, grown as needed) and returns it with
// Σ_i log max_x P_i(x).
func (l *Labels) like(j int, workers []int32, labels []uint16, dst []float64) ([]float64, float64) {
	k := l.k
	dst = slices.Grow(dst[:0], len(workers)*k)[:len(workers)*k]
	scale := num.NewProduct()
	for i, w := range workers {
		y := int(labels[i])
		row := dst[i*k : (i+1)*k]
		switch {
		case l.cache != nil:
			for z := range k {
				row[z] = l.cache[(int(w)*k+z)*k+y]
			}
		case l.mu == 0:
			for z := range k {
				l.cond(w, j, z, l.p)
				row[z] = l.p[y]
			}
		default:
			for z := range k {
				l.cond(w, j, z, l.m[z*k:(z+1)*k])
			}
			copy(l.tmp, l.m)
			l.deconvolve(l.tmp, l.m)
			for z := range k {
				row[z] = l.m[z*k+y]
			}
		}
		top := 0.0
		for _, v := range row {
			top = max(top, v)
		}
		top = max(top, 1e-300)
		for z := range row {
			row[z] /= top
		}
		scale.Mul(top)
	}
	return dst, scale.Log()
}

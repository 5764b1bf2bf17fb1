package noise

import (
	"fmt"
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

var _ Conjugate = OneCoin{}

// NewVariational returns the variational posterior of the workers'
// accuracies on d: a_w ~ Beta(A_w, B_w) with the prior Beta(2, K − 1), the
// one-coin collapse of DS's default confusion prior (prior mean accuracy
// 2/(K + 1), as DS's), and A_w = 2 + Σ g_i(y_i), B_w = K − 1 + Σ_{z ≠ y_i}
// g_i(z) over worker w's labels: the expected numbers of its labels that
// equal, and that differ from, the latent class. The E-step sees
//
//	E[log P(y | z)] = ψ(A_w) − ψ(A_w + B_w)                  if y = z,
//	                  ψ(B_w) − ψ(A_w + B_w) − log(K − 1)     otherwise.
func (OneCoin) NewVariational(d *data.Dataset) Variational {
	k := d.NumClasses()
	w := d.NumWorkers()
	return &oneCoinVB{d: d, k: k, prior: oneCoinPrior(k), ab: make([]float64, 2*w), right: make([]float64, w), wrong: make([]float64, w)}
}

// oneCoinPrior returns the pseudo-counts (A₀, B₀) = (2, K − 1) of the Beta
// prior on an accuracy.
func oneCoinPrior(k int) [2]float64 { return [2]float64{2, float64(k - 1)} }

// oneCoinVB is OneCoin's variational posterior: (A_w, B_w) per worker, and
// exp E[log P(y | z)] for y = z (right) and y ≠ z (wrong).
type oneCoinVB struct {
	d            *data.Dataset
	k            int
	prior        [2]float64
	ab           []float64 // A_w, B_w
	right, wrong []float64
	fixed        []bool // Hold's marks, laid out as ab; nil: none
}

var (
	_ WorkerPosteriorSetter = OneCoin{}
	_ Holder                = (*oneCoinVB)(nil)
)

func (v *oneCoinVB) AccDim() int                    { return len(v.ab) }
func (v *oneCoinVB) Params(dst []float64) []float64 { return append(dst, v.ab...) }

func (v *oneCoinVB) Start(freq data.TaskWeights) {
	acc := make([]float64, len(v.ab))
	buf := make([]float64, v.k)
	for j := range v.d.Tasks {
		workers, labels := v.d.TaskLabels(j)
		fj := freq.Row(j, buf)
		for i, w := range workers {
			f := fj[labels[i]]
			acc[2*w] += f
			acc[2*w+1] += 1 - f
		}
	}
	v.Update(acc)
}

func (v *oneCoinVB) Load(params []float64) float64 {
	acc := make([]float64, len(v.ab))
	for i := range acc {
		acc[i] = params[i] - v.prior[i%2]
	}
	return v.Update(acc)
}

func (v *oneCoinVB) Update(acc []float64) float64 {
	var kl float64
	norm := num.DirichletLogNorm(v.prior[:])
	elog := make([]float64, 2)
	logKm1 := math.Log(float64(v.k - 1))
	for w := range v.right {
		ab := v.ab[2*w : 2*w+2]
		for i := range ab {
			if v.fixed == nil || !v.fixed[2*w+i] {
				ab[i] = v.prior[i] + max(acc[2*w+i], 0)
			}
		}
		num.DirichletExpLog(elog, ab)
		kl += num.DirichletKL(ab, v.prior[:], elog, norm)
		v.right[w] = math.Exp(elog[0])
		v.wrong[w] = math.Exp(elog[1] - logKm1)
	}
	return kl
}

func (v *oneCoinVB) Prob(lo, hi int, p []float64) {
	k := v.k
	a, b := v.d.Offsets[lo], v.d.Offsets[hi]
	for i, w := range v.d.Worker[a:b] {
		pi := p[i*k : (i+1)*k]
		for z := range pi {
			pi[z] = v.wrong[w]
		}
		pi[v.d.Label[a+i]] = v.right[w]
	}
}

func (v *oneCoinVB) Accumulate(lo, hi int, g, acc []float64) {
	k := v.k
	a, b := v.d.Offsets[lo], v.d.Offsets[hi]
	for i, w := range v.d.Worker[a:b] {
		gi := g[i*k : (i+1)*k]
		var s float64
		for _, x := range gi {
			s += x
		}
		r := gi[v.d.Label[a+i]]
		acc[2*w] += r
		acc[2*w+1] += s - r
	}
}

// WorkerOnly marks oneCoinVB's conditionals as the worker's alone (noise.WorkerOnly).
func (*oneCoinVB) WorkerOnly() {}

// Conditional writes the posterior mean: A_w/(A_w + B_w) for y = z, the
// rest spread evenly.
func (v *oneCoinVB) Conditional(w int32, _ int, z int, p []float64) {
	a := v.ab[2*w] / (v.ab[2*w] + v.ab[2*w+1])
	for y := range p[:v.k] {
		p[y] = (1 - a) / float64(v.k-1)
	}
	p[z] = a
}

// WorkerColumns names the posterior mean accuracy and n, the number of
// labels the posterior weighs: A_w + B_w less the prior's pseudo-counts.
func (v *oneCoinVB) WorkerColumns() []string { return []string{"accuracy", "n"} }

func (v *oneCoinVB) WorkerValues(w int, dst []float64) []float64 {
	s := v.ab[2*w] + v.ab[2*w+1]
	return append(dst, v.ab[2*w]/s, s-v.prior[0]-v.prior[1])
}

// WorkerPosteriorDim returns 2: a worker's (A_w, B_w).
func (OneCoin) WorkerPosteriorDim(int) int { return 2 }

// SetWorkerPosterior sets A_w = a·(2 + K − 1 + n) and B_w = (1 − a)·(2 +
// K − 1 + n), each at least its prior's, from the accuracy a and the
// number of labels n that the posterior's WorkerValues reports.
func (OneCoin) SetWorkerPosterior(d *data.Dataset, vals, params []float64) error {
	if err := valueCount(vals, 2); err != nil {
		return err
	}
	if err := probability("accuracy", vals[0]); err != nil {
		return err
	}
	n := vals[1]
	if !labelCount(n) {
		return fmt.Errorf("n = %v is not a number of labels (0 to 2^53)", n)
	}
	prior := oneCoinPrior(d.NumClasses())
	s := prior[0] + prior[1] + n
	params[0] = max(vals[0]*s, prior[0])
	params[1] = max((1-vals[0])*s, prior[1])
	return nil
}

// Hold keeps the pseudo-counts marked in fixed through Update and Load.
func (v *oneCoinVB) Hold(fixed []bool) { v.fixed = fixed }

package vb

import (
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/shared"
	"github.com/consensuslab/consensus/noise"
)

// cavityRescale is how many labels' factors cavityTruth multiplies into a
// task's row between rescalings, well before 10⁻³⁰⁰.
const cavityRescale = 16

// cavityTruth returns the true-class posterior of every task with each of
// its labels' workers taken without that label (noise.CavityProber): the
// class prior (the mean of probs, add-one) times Π_i P^{−i}(y_i | z), from
// the LA fit's posteriors probs (J×K), normalised. A mean-field fit counts
// a task's labels twice, in its posterior and in its workers' posteriors,
// which makes it sure of itself where workers have few labels. Tasks of
// known class (gold) keep their rows.
func cavityTruth(d *data.Dataset, probs []float64, cp noise.CavityProber, gold []int) []float64 {
	k := d.NumClasses()
	prior := shared.ClassPrior(d, probs)
	out := make([]float64, len(probs))
	var p []float64
	for j := range d.NumTasks() {
		r, o := probs[j*k:(j+1)*k], out[j*k:(j+1)*k]
		if j < len(gold) && gold[j] >= 0 {
			copy(o, r)
			continue
		}
		n := (d.Offsets[j+1] - d.Offsets[j]) * k
		if cap(p) < n {
			p = make([]float64, n)
		}
		p = p[:n]
		cp.CavityProbs(j, r, p)
		copy(o, prior)
		for i := 0; i < n; i += k {
			for z := range k {
				o[z] *= p[i+z]
			}
			if (i/k+1)%cavityRescale == 0 {
				normalize(o)
			}
		}
		normalize(o)
	}
	return out
}

// normalize divides x by its sum.
func normalize(x []float64) {
	var s float64
	for _, v := range x {
		s += v
	}
	for i := range x {
		x[i] /= s
	}
}

package gibbs

import "fmt"

// kindNames are the kinds' names in the workers file, in the kinds'
// order.
var kindNames = [numKinds]string{full: "full", spammer: "spammer", adversary: "adversary", coin: "one-coin", perClass: "per-class"}

// view is the fitted noise model a result reads (model.NoiseView): every
// worker's posterior mean confusion and its probabilities of the kinds,
// averaged over the chains.
type view struct {
	classes []string
	k       int
	// conf holds every worker's P(y | z), W×K×K, and kinds its share of
	// the kept sweeps in each kind, W×numKinds.
	conf, kinds []float64
}

// newView returns the view of the chains cs, each of which kept sweeps
// sweeps: a worker's P(y | z) is the mean over the chains of its kinds'
// posterior predictives from the chain's last counts, weighed by the
// worker's share of the chain's kept sweeps in each kind.
func newView(cs []*chain, sweeps int) *view {
	c0 := cs[0]
	k, nw := c0.k, len(c0.kind)
	v := &view{classes: c0.d.Classes, k: k, conf: make([]float64, nw*k*k), kinds: make([]float64, nw*numKinds)}
	m := make([]float64, k) // a worker's label counts
	row := make([]float64, k)
	for _, c := range cs {
		for w := range nw {
			clear(m)
			for z := range k {
				for y := range k {
					m[y] += float64(c.n[(w*k+z)*k+y])
				}
			}
			share := c.kinds[w*numKinds : (w+1)*numKinds]
			for z := range k {
				for kind, s := range share {
					if s == 0 {
						continue
					}
					c.predictive(w, z, kind, m, row)
					for y, p := range row {
						v.conf[(w*k+z)*k+y] += p * s / float64(sweeps*len(cs))
					}
				}
			}
			for kind, s := range share {
				v.kinds[w*numKinds+kind] += s / float64(sweeps*len(cs))
			}
		}
	}
	return v
}

// predictive writes into row worker w's posterior predictive P(y | z)
// under kind, from the chain's counts (labelProb); m holds the worker's
// label counts, which a spammer's labels follow whatever the class.
func (c *chain) predictive(w, z, kind int, m, row []float64) {
	k := c.k
	if kind == spammer {
		var tot float64
		for _, v := range m {
			tot += v
		}
		for y := range k {
			row[y] = (spamAlpha + m[y]) / (float64(k)*spamAlpha + tot)
		}
		return
	}
	for y := range k {
		row[y] = c.labelProb(w, z, y, uint8(kind))
	}
}

// Conditional writes worker w's posterior mean P(y | z) into p[:K]; it
// does not depend on the task.
func (v *view) Conditional(w int32, _ int, z int, p []float64) {
	k := v.k
	copy(p[:k], v.conf[(int(w)*k+z)*k:(int(w)*k+z+1)*k])
}

// WorkerColumns names every worker's posterior mean confusion p[z,y] and
// its posterior probability of each kind. A busy worker whose labels are
// uniform at random fits the one-coin kind at an accuracy near 1/K as
// well as the spammer kind, and is mostly reported one-coin: its p[z,y]
// and skill tell what it is. An adversary is reported as one.
func (v *view) WorkerColumns() []string {
	cols := make([]string, 0, v.k*v.k+numKinds)
	for _, z := range v.classes {
		for _, y := range v.classes {
			cols = append(cols, fmt.Sprintf("p[%s,%s]", z, y))
		}
	}
	for _, name := range kindNames {
		cols = append(cols, name)
	}
	return cols
}

// WorkerValues appends worker w's values, in WorkerColumns's order, to
// dst.
func (v *view) WorkerValues(w int, dst []float64) []float64 {
	k := v.k
	dst = append(dst, v.conf[w*k*k:(w+1)*k*k]...)
	return append(dst, v.kinds[w*numKinds:(w+1)*numKinds]...)
}

package plan

import (
	"flag"
	"fmt"
	"math"
	"testing"
)

// flagOracle runs TestFlagsOracle (scripts/planning-bench.sh oracle).
var flagOracle = flag.Bool("flag-oracle", false, "run TestFlagsOracle: the flags of an oracle that knows the crowd's truth")

// trueLabelPosteriors returns every label's class posterior from its
// task's other labels under the simulation's true confusions and uniform
// class prior, labels×K.
func trueLabelPosteriors(s *Simulated, k int) []float64 {
	d := s.Data
	r := make([]float64, d.NumLabels()*k)
	all := make([]float64, k)
	for j := range d.Tasks {
		clear(all)
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			w, y := int(d.Worker[i]), int(d.Label[i])
			for z := range k {
				all[z] += math.Log(s.Confusion[(w*k+z)*k+y])
			}
		}
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			w, y := int(d.Worker[i]), int(d.Label[i])
			ri := r[i*k : (i+1)*k]
			for z := range k {
				ri[z] = all[z] - math.Log(s.Confusion[(w*k+z)*k+y])
			}
			softmax(ri)
		}
	}
	return r
}

// oracleBad returns the posterior probability that a worker whose labels
// are those listed is a spammer or an adversary under the simulation's
// true kinds (Crowd: shares spam and adv, the spammers' label
// distribution from Dirichlet(1, …, 1), the others' accuracy uniform on
// their ranges), its tasks' class posteriors from their other labels r
// (labels×K). The one-parameter kinds are integrated on a midpoint grid.
func oracleBad(labels []int32, y []uint16, r []float64, k int, spam, adv float64) float64 {
	n := make([]float64, k)
	ones := make([]float64, k)
	for y := range ones {
		ones[y] = 1
	}
	for _, i := range labels {
		n[y[i]]++
	}
	for y := range n {
		n[y]++
	}
	lSpam := logBeta(n) - logBeta(ones)
	// marginal integrates the likelihood over right uniform on [lo, hi],
	// where a label's probability is right·a + (1−right)·b.
	marginal := func(lo, hi float64, a, b func(i int32) float64) float64 {
		const grid = 400
		ls := make([]float64, grid)
		top := math.Inf(-1)
		for g := range grid {
			right := lo + (hi-lo)*(float64(g)+0.5)/grid
			var l float64
			for _, i := range labels {
				l += math.Log(right*a(i) + (1-right)*b(i))
			}
			ls[g] = l
			top = max(top, l)
		}
		var sum float64
		for _, l := range ls {
			sum += math.Exp(l - top)
		}
		return top + math.Log(sum/grid)
	}
	kf := float64(k)
	own := func(i int32) float64 { return r[int(i)*k+int(y[i])] }
	lGood := marginal(max(0.55, 1/kf+0.15), 0.95, own, func(i int32) float64 { return (1 - own(i)) / (kf - 1) })
	prev := func(i int32) float64 { return r[int(i)*k+(int(y[i])+k-1)%k] }
	lAdv := marginal(0, 0.5/kf, own, func(i int32) float64 {
		if k == 2 {
			return 1 - own(i)
		}
		return 0.7*prev(i) + 0.3*(1-own(i)-prev(i))/(kf-2)
	})
	top := max(lSpam, lGood, lAdv)
	bs, ba, bg := spam*math.Exp(lSpam-top), adv*math.Exp(lAdv-top), (1-spam-adv)*math.Exp(lGood-top)
	return (bs + ba) / (bs + ba + bg)
}

// TestFlagsOracle compares the flags with an oracle's on the crowds of
// TestFlagsFindBadWorkers: each worker's posterior of being bad given the
// true class prior, the true confusions of every other worker and the
// simulation's true mixture of kinds. It also scores the oracle's kinds
// on the fit's label posteriors (workerCounts) and the flags on the true
// label posteriors, which splits the gap between the two.
func TestFlagsOracle(t *testing.T) {
	if !*flagOracle {
		t.Skip("run with -flag-oracle")
	}
	first, last := seedRange(t, "flag-seeds", *flagSeeds)
	for _, tc := range []struct{ k, labels int }{{2, 3}, {3, 3}, {5, 3}, {2, 5}, {3, 5}, {5, 5}, {2, 10}, {3, 10}, {5, 10}} {
		t.Run(fmt.Sprintf("K%d-L%d", tc.k, tc.labels), func(t *testing.T) {
			const methods = 2
			names := [methods]string{"oracle", "oracle kinds, fitted r"}
			var bad float64
			var hit, flagged [methods]float64
			for seed := first; seed <= last; seed++ {
				c := Crowd{Tasks: 2000, Workers: 100, Classes: tc.k, LabelsPerTask: tc.labels, Spammers: 0.1, Adversaries: 0.05, Seed: seed}
				s, p := fitCrowd(t, c)
				_, rFit := workerCounts(p)
				rTrue := trueLabelPosteriors(s, tc.k)
				byWorker := s.Data.LabelsByWorker()
				for w, labels := range byWorker {
					if len(labels) < 20 {
						continue
					}
					isBad := s.Kind[w] != ""
					if isBad {
						bad++
					}
					for m, r := range [methods][]float64{rTrue, rFit} {
						if oracleBad(labels, s.Data.Label, r, tc.k, 0.1, 0.05) >= 0.5 {
							flagged[m]++
							if isBad {
								hit[m]++
							}
						}
					}
				}
			}
			for m := range methods {
				t.Logf("K=%d, %d labels a task, seeds %d-%d, %s: %.0f bad, %.0f flagged, recall %.3f, precision %.3f",
					tc.k, tc.labels, first, last, names[m], bad, flagged[m], hit[m]/bad, hit[m]/flagged[m])
			}
		})
	}
}

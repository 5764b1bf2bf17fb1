package plan

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// trueClassPosterior returns every task's class posterior at the true
// confusion matrices and the uniform class prior of the simulation.
func trueClassPosterior(s *Simulated) []float64 {
	d := s.Data
	k := d.NumClasses()
	out := make([]float64, d.NumTasks()*k)
	for j := range d.Tasks {
		o := out[j*k : (j+1)*k]
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			w, y := int(d.Worker[i]), int(d.Label[i])
			for z := range k {
				o[z] += math.Log(s.Confusion[(w*k+z)*k+y])
			}
		}
		softmax(o)
	}
	return out
}

// TestClassIntervalCoverage measures how often the calibrated 90%
// intervals of the class posterior cover the posterior at the true
// workers, on crowds of K = 2 and 5 classes with 3 and 10 labels a task,
// three seeds each, and holds it within 0.85 to 0.95 (the target
// is 0.87 to 0.93: docs/planning.md has the numbers).
func TestClassIntervalCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("the calibration fits every crowd eleven times")
	}
	for _, k := range []int{2, 5} {
		for _, n := range []int{3, 10} {
			t.Run(fmt.Sprintf("K%d-L%d", k, n), func(t *testing.T) {
				var in, all, raw float64
				for seed := uint64(1); seed <= 3; seed++ {
					s, err := Crowd{Tasks: 500, Workers: 50, Classes: k, LabelsPerTask: n, Seed: seed}.Simulate()
					if err != nil {
						t.Fatal(err)
					}
					p, err := Fit(context.Background(), s.Data, nil)
					if err != nil {
						t.Fatal(err)
					}
					iv, err := ClassIntervals(context.Background(), p, &IntervalSettings{Seed: seed})
					if err != nil {
						t.Fatal(err)
					}
					rawLo, rawHi := quantiles(classDraws(p, 400, seed), 400, 0.9)
					truth := trueClassPosterior(s)
					for i, x := range truth {
						all++
						if x >= iv.Lo[i]-1e-9 && x <= iv.Hi[i]+1e-9 {
							in++
						}
						if x >= rawLo[i]-1e-9 && x <= rawHi[i]+1e-9 {
							raw++
						}
					}
					t.Logf("seed %d: calibrated level %.4f", seed, iv.Used)
				}
				t.Logf("K=%d, %d labels a task: coverage %.3f (uncalibrated %.3f)", k, n, in/all, raw/all)
				if c := in / all; c < 0.85 || c > 0.95 {
					t.Errorf("coverage %.3f at 90%%, want 0.85 to 0.95", c)
				}
			})
		}
	}
}

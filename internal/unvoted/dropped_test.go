package unvoted

import (
	"fmt"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestDropped checks Dropped on 100 tasks of three labels each: with
// labels split 50/50 (implied shares 0.5 each), a fit that gives class b
// 8% of the mass drops it, one that gives it 12% or 40% does not; with
// labels split 60/40 (implied shares 0.8, 0.2: the labels lean to a) or
// 80/20 (implied (1, 0): noisy workers' labels overstate a rare class) no
// share of class b is read as dropped.
func TestDropped(t *testing.T) {
	for _, tc := range []struct {
		labelsB int     // tasks whose labels are all b, of 100
		fitB    float64 // every task's ρ_j(b)
		want    bool
	}{{50, 0.08, true}, {50, 0.12, false}, {50, 0.4, false}, {40, 0.01, false}, {20, 0.0, false}, {20, 0.01, false}} {
		b, err := data.NewBuilder([]string{"a", "b"})
		if err != nil {
			t.Fatal(err)
		}
		for j := range 100 {
			y := "a"
			if j < tc.labelsB {
				y = "b"
			}
			for w := range 3 {
				if err := b.Add(fmt.Sprint("t", j), fmt.Sprint("w", w), y); err != nil {
					t.Fatal(err)
				}
			}
		}
		d, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		probs := make([]float64, 200)
		for j := range 100 {
			probs[2*j], probs[2*j+1] = 1-tc.fitB, tc.fitB
		}
		if got := Dropped(d, probs); got != tc.want {
			t.Errorf("labels b on %d tasks, fit share of b %v: Dropped %v, want %v", tc.labelsB, tc.fitB, got, tc.want)
		}
	}
}

package unvoted

import (
	"fmt"
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestDropped checks Dropped on 100 tasks of three labels each: with
// labels split 50/50 (implied shares 0.5 each) and every task's labels
// alike, a fit that gives class b 8% or 20% of the mass drops it (under
// DroppedShare2 of its implied share, the bar at K = 2), one that gives
// it 30% or 40% does not; with labels split 60/40 (implied shares 0.8,
// 0.2: the labels lean to a), a fit that gives b 1% drops it, for the
// labels agree within tasks far beyond DroppedAgreed; with labels split
// 80/20 (implied (1, 0): noisy workers' labels overstate a rare class) no
// share of class b is read as dropped. Where the labels of a task do not
// agree beyond chance (Agreement below DroppedAgreement; here two of the
// three workers disagree on every task), nothing in them tells the tasks
// apart, and no class is read as dropped. Drifted reports a share of b
// under 0.9 of its implied share (0.45 here) where the labels agree, and
// never at K = 3 (a third class that no label gives).
func TestDropped(t *testing.T) {
	for _, tc := range []struct {
		labelsB       int     // tasks whose labels are all b, of 100
		fitB          float64 // every task's ρ_j(b)
		split         bool    // instead, the first two workers disagree on every task
		want, drifted bool
	}{{50, 0.08, false, true, true}, {50, 0.2, false, true, true}, {50, 0.3, false, false, true}, {50, 0.4, false, false, true},
		{50, 0.46, false, false, false}, {40, 0.01, false, true, true},
		{20, 0.0, false, false, false}, {20, 0.01, false, false, false}, {50, 0.01, true, false, false}} {
		d := labelSet(t, 100, 3, func(_, i int) int { return i }, func(j, i int) string {
			if tc.split {
				return []string{"a", "b"}[(j+min(i, 1)+i/2*j/2)%2]
			}
			if j < tc.labelsB {
				return "b"
			}
			return "a"
		})
		probs := make([]float64, 200)
		for j := range 100 {
			probs[2*j], probs[2*j+1] = 1-tc.fitB, tc.fitB
		}
		if got := Dropped(d, probs); got != tc.want {
			t.Errorf("labels b on %d tasks (split: %v), fit share of b %v: Dropped %v, want %v (Agreement %.2f)", tc.labelsB, tc.split, tc.fitB, got, tc.want, Agreement(d))
		}
		if got := Drifted(d, probs); got != tc.drifted {
			t.Errorf("labels b on %d tasks (split: %v), fit share of b %v: Drifted %v, want %v", tc.labelsB, tc.split, tc.fitB, got, tc.drifted)
		}
	}
}

// TestHeldShares checks HeldShares on 100 tasks of three labels, 60
// tasks' labels all a and 40 all b: at K = 2 the implied shares (0.798,
// 0.202) with a tenth of the uniform distribution, (0.768, 0.232); with a
// third class that no label gives, the labels' shares, and Drifted does not
// report a fit that gives b 1% of the mass (Dropped does).
func TestHeldShares(t *testing.T) {
	for _, k := range []int{2, 3} {
		b, err := data.NewBuilder([]string{"a", "b", "c"}[:k])
		if err != nil {
			t.Fatal(err)
		}
		for j := range 100 {
			for i := range 3 {
				y := "a"
				if j < 40 {
					y = "b"
				}
				if err := b.Add(fmt.Sprint("t", j), fmt.Sprint("w", i), y); err != nil {
					t.Fatal(err)
				}
			}
		}
		d, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		if k == 3 {
			probs := make([]float64, 300)
			for j := range 100 {
				probs[3*j], probs[3*j+1] = 0.99, 0.01
			}
			if !Dropped(d, probs) || Drifted(d, probs) {
				t.Errorf("K = 3, b at 1%%: Dropped %v, Drifted %v, want true, false", Dropped(d, probs), Drifted(d, probs))
			}
		}
		got, want := HeldShares(d), LabelShares(d)
		if k == 2 {
			want = Implied(d)
			for z := range want {
				want[z] = 0.9*want[z] + 0.05
			}
			if math.Abs(want[0]-0.768) > 0.001 {
				t.Errorf("K = 2: held share of a %.4f, want about 0.768", want[0])
			}
		}
		for z := range want {
			if math.Abs(got[z]-want[z]) > 1e-12 {
				t.Errorf("K = %d: HeldShares %v, want %v", k, got, want)
				break
			}
		}
	}
}

// TestVoteShares checks VoteShares on four tasks of two labels: a, a;
// a, b (a tie, split); b, b; a, a.
func TestVoteShares(t *testing.T) {
	votes := [][]string{{"a", "a"}, {"a", "b"}, {"b", "b"}, {"a", "a"}}
	d := labelSet(t, 4, 2, func(_, i int) int { return i }, func(j, i int) string { return votes[j][i] })
	got := VoteShares(d)
	if want := []float64{2.5 / 4, 1.5 / 4}; math.Abs(got[0]-want[0]) > 1e-12 || math.Abs(got[1]-want[1]) > 1e-12 {
		t.Errorf("VoteShares %v, want %v", got, want)
	}
}

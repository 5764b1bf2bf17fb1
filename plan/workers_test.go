package plan

import (
	"context"
	"flag"
	"fmt"
	"math"
	"testing"
)

// flagSeeds is the range of seeds of TestFlagsFindBadWorkers, first:last
// (scripts/planning-bench.sh flags FIRST LAST).
var flagSeeds = flag.String("flag-seeds", "1:4", "the seeds of TestFlagsFindBadWorkers, first:last")

// fitCrowd simulates the crowd c and fits it (Fit, vb-la-ds).
func fitCrowd(t testing.TB, c Crowd) (*Simulated, *Posterior) {
	t.Helper()
	s, err := c.Simulate()
	if err != nil {
		t.Fatal(err)
	}
	p, err := Fit(context.Background(), s.Data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, p
}

// flagScore fits a simulated crowd and returns the recall and precision
// of the flags (either kind counts as found) among workers with at least
// 20 labels.
func flagScore(t *testing.T, c Crowd) (recall, precision float64, bad, flagged int) {
	t.Helper()
	s, p := fitCrowd(t, c)
	flags, err := Flags(p, &FlagSettings{Seed: c.Seed})
	if err != nil {
		t.Fatal(err)
	}
	var hit int
	for w, f := range flags {
		if f.Labels < 20 {
			continue
		}
		if s.Kind[w] != "" {
			bad++
		}
		if f.Flag != "" {
			flagged++
			if s.Kind[w] != "" {
				hit++
			}
		}
	}
	return float64(hit) / float64(bad), float64(hit) / float64(max(flagged, 1)), bad, flagged
}

// TestFlagsFindBadWorkers checks the target of the worker flags: on crowds
// with 10% spammers and 5% adversaries, flagging at posterior 0.5 finds at
// least 90% of them with at least 90% precision among workers with 20 or
// more labels, over seeds 1 to 4 (pooled; -flag-seeds changes them), at K
// = 2, 3 and 5 with 3, 5 and 10 labels a task (docs/planning.md has the
// same on six other seeds).
func TestFlagsFindBadWorkers(t *testing.T) {
	first, last := seedRange(t, "flag-seeds", *flagSeeds)
	for _, tc := range []struct {
		k, labels int
	}{{2, 3}, {3, 3}, {5, 3}, {2, 5}, {3, 5}, {5, 5}, {2, 10}, {3, 10}, {5, 10}} {
		t.Run(fmt.Sprintf("K%d-L%d", tc.k, tc.labels), func(t *testing.T) {
			var bad, flagged, hits, trueFlags float64
			for seed := first; seed <= last; seed++ {
				c := Crowd{Tasks: 2000, Workers: 100, Classes: tc.k, LabelsPerTask: tc.labels, Spammers: 0.1, Adversaries: 0.05, Seed: seed}
				r, p, b, f := flagScore(t, c)
				bad += float64(b)
				flagged += float64(f)
				hits += r * float64(b)
				trueFlags += p * float64(f)
			}
			recall, precision := hits/bad, trueFlags/flagged
			t.Logf("K=%d, %d labels a task, seeds %d-%d: %.0f bad workers, %.0f flagged, recall %.3f, precision %.3f", tc.k, tc.labels, first, last, bad, flagged, recall, precision)
			if recall < 0.9 || precision < 0.9 || math.IsNaN(recall) {
				t.Errorf("recall %.3f, precision %.3f: want both at least 0.9", recall, precision)
			}
		})
	}
}

// TestFlagAccuracyIntervals checks the coverage of the workers' accuracy
// intervals at 90% on the crowds of TestFlagsFindBadWorkers (seeds pooled,
// -flag-seeds): the share of workers with 20 or more labels whose true
// balanced accuracy (1/K for a spammer) lies in [Lo, Hi] is at least
// floor, where the tasks' few labels and the adversaries' errors on one
// class (which the crowd model's symmetric priors do not describe) keep
// it below 0.9 at K = 5 with 3 labels a task.
func TestFlagAccuracyIntervals(t *testing.T) {
	first, last := seedRange(t, "flag-seeds", *flagSeeds)
	for _, tc := range []struct {
		k, labels int
		floor     float64
	}{{2, 3, 0.8}, {5, 3, 0.7}, {2, 10, 0.85}, {5, 10, 0.85}} {
		t.Run(fmt.Sprintf("K%d-L%d", tc.k, tc.labels), func(t *testing.T) {
			var in, n float64
			for seed := first; seed <= last; seed++ {
				c := Crowd{Tasks: 2000, Workers: 100, Classes: tc.k, LabelsPerTask: tc.labels, Spammers: 0.1, Adversaries: 0.05, Seed: seed}
				s, p := fitCrowd(t, c)
				flags, err := Flags(p, &FlagSettings{Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				k := tc.k
				for w, f := range flags {
					if f.Labels < 20 {
						continue
					}
					var acc float64
					for z := range k {
						acc += s.Confusion[(w*k+z)*k+z]
					}
					acc /= float64(k)
					n++
					// A spammer's accuracy is 1/K up to rounding.
					if acc >= f.Lo-1e-9 && acc <= f.Hi+1e-9 {
						in++
					}
				}
			}
			t.Logf("K=%d, %d labels a task, seeds %d-%d: %.0f workers, accuracy intervals cover %.3f", tc.k, tc.labels, first, last, n, in/n)
			if in/n < tc.floor {
				t.Errorf("coverage %.3f, want at least %.2f", in/n, tc.floor)
			}
		})
	}
}

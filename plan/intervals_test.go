package plan

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/model"
)

// covSeeds is the range of seeds of the coverage tests, first:last
// (scripts/planning-bench.sh coverage FIRST LAST).
var covSeeds = flag.String("cov-seeds", "1:6", "the seeds of TestClassIntervalCoverage and TestLabelIntervalCoverage, first:last")

// seedRange parses a range of seeds first:last.
func seedRange(t *testing.T, name, s string) (first, last uint64) {
	t.Helper()
	if _, err := fmt.Sscanf(s, "%d:%d", &first, &last); err != nil || first > last {
		t.Fatalf("-%s %q: want first:last", name, s)
	}
	return first, last
}

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
// seeds 1 to 6 each (-cov-seeds changes them), and holds it within 0.85
// to 0.95 (the target is 0.87 to 0.93: docs/planning.md has the
// numbers), over all classes and for the consensus class alone (the
// argmax of the fit's posterior), whose interval is the one a reader
// looks at. A value covers when it lies in its interval exactly: a
// tolerance would count tiny posteriors near tiny intervals as covered,
// 5 points of the cells at K = 5 with 10 labels a task.
func TestClassIntervalCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("the calibration fits every crowd eleven times")
	}
	for _, k := range []int{2, 5} {
		for _, n := range []int{3, 10} {
			t.Run(fmt.Sprintf("K%d-L%d", k, n), func(t *testing.T) {
				var in, all, raw, top float64
				lowest, highest := 1.0, 0.0
				first, last := seedRange(t, "cov-seeds", *covSeeds)
				for seed := first; seed <= last; seed++ {
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
					rawIv, err := ClassIntervals(context.Background(), p, &IntervalSettings{Seed: seed, Bootstrap: -1})
					if err != nil {
						t.Fatal(err)
					}
					rawLo, rawHi := rawIv.Lo, rawIv.Hi
					truth := trueClassPosterior(s)
					var crowd float64
					for i, x := range truth {
						if x >= iv.Lo[i] && x <= iv.Hi[i] {
							crowd++
							if argmax(p.Probs[i-i%k:i-i%k+k]) == i%k {
								top++
							}
						}
						if x >= rawLo[i] && x <= rawHi[i] {
							raw++
						}
					}
					in += crowd
					all += float64(len(truth))
					crowd /= float64(len(truth))
					lowest, highest = min(lowest, crowd), max(highest, crowd)
					t.Logf("seed %d: calibrated level %.4f, coverage %.3f", seed, iv.Used, crowd)
				}
				t.Logf("K=%d, %d labels a task, seeds %s: coverage %.3f (uncalibrated %.3f), one crowd's %.3f-%.3f, the consensus class's %.3f", k, n, *covSeeds, in/all, raw/all, lowest, highest, top/all*float64(k))
				if c := in / all; c < 0.85 || c > 0.95 {
					t.Errorf("coverage %.3f at 90%%, want 0.85 to 0.95", c)
				}
				if c := top / all * float64(k); c < 0.85 || c > 0.95 {
					t.Errorf("the consensus class's coverage %.3f at 90%%, want 0.85 to 0.95", c)
				}
			})
		}
	}
}

// TestClassIntervalsThreads checks that the calibrated intervals of the
// class posterior are the same on one goroutine and on two, and depend on
// the seed.
func TestClassIntervalsThreads(t *testing.T) {
	s, err := Crowd{Tasks: 200, Workers: 20, Classes: 3, LabelsPerTask: 4, Seed: 3}.Simulate()
	if err != nil {
		t.Fatal(err)
	}
	p, err := Fit(context.Background(), s.Data, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkThreads(t, func(threads int, seed uint64) (*Intervals, error) {
		return ClassIntervals(context.Background(), p, &IntervalSettings{Seed: seed, Draws: 100, Bootstrap: 3, Fit: &model.Settings{Threads: threads}})
	})
}

// TestIntervalsProgress checks that ClassIntervals and LabelIntervals tell
// Progress their steps in order (the population, every bootstrap
// simulation, the draws; the draws of q_j) and that it does not change
// their output.
func TestIntervalsProgress(t *testing.T) {
	_, p := fitCrowd(t, Crowd{Tasks: 120, Workers: 15, Classes: 3, LabelsPerTask: 4, Seed: 4})
	var got []string
	record := func(done, total int, what string) { got = append(got, fmt.Sprintf("%d/%d %s", done, total, what)) }
	set := IntervalSettings{Seed: 2, Draws: 100, Bootstrap: 2}
	quiet, err := ClassIntervals(context.Background(), p, &set)
	if err != nil {
		t.Fatal(err)
	}
	set.Progress = record
	told, err := ClassIntervals(context.Background(), p, &set)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0/4 the crowd's population", "1/4 bootstrap simulation 1 of 2", "2/4 bootstrap simulation 2 of 2", "3/4 the intervals' draws"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ClassIntervals' steps %q, want %q", got, want)
	}
	if !reflect.DeepEqual(quiet, told) {
		t.Error("ClassIntervals' output changes with Progress")
	}
	r, err := DAModel.Fit(context.Background(), p.Data, nil)
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	q := IntervalSettings{Seed: 2, Draws: 100, Workers: p.Workers}
	quiet, err = LabelIntervals(context.Background(), r, &q)
	if err != nil {
		t.Fatal(err)
	}
	q.Progress = record
	if told, err = LabelIntervals(context.Background(), r, &q); err != nil {
		t.Fatal(err)
	}
	if want := []string{"0/1 the label distributions' draws"}; !reflect.DeepEqual(got, want) {
		t.Errorf("LabelIntervals' steps %q, want %q", got, want)
	}
	if !reflect.DeepEqual(quiet, told) {
		t.Error("LabelIntervals' output changes with Progress")
	}
}

// checkThreads checks that the intervals f returns are the same on one,
// two and three goroutines, within [0, 1] with lo ≤ hi, and depend on the
// seed.
func checkThreads(t *testing.T, f func(threads int, seed uint64) (*Intervals, error)) {
	t.Helper()
	var ivs []*Intervals
	for _, c := range []struct {
		threads int
		seed    uint64
	}{{1, 7}, {2, 7}, {3, 7}, {2, 8}} {
		iv, err := f(c.threads, c.seed)
		if err != nil {
			t.Fatal(err)
		}
		ivs = append(ivs, iv)
	}
	if !reflect.DeepEqual(ivs[0], ivs[1]) || !reflect.DeepEqual(ivs[0], ivs[2]) {
		t.Error("the intervals on 1, 2 and 3 goroutines differ")
	}
	if reflect.DeepEqual(ivs[1].Lo, ivs[3].Lo) {
		t.Error("the intervals of seeds 7 and 8 are the same")
	}
	for i, lo := range ivs[0].Lo {
		if hi := ivs[0].Hi[i]; lo > hi || lo < 0 || hi > 1 {
			t.Fatalf("interval %d: [%v, %v], want 0 ≤ lo ≤ hi ≤ 1", i, lo, hi)
		}
	}
}

// TestClassDrawsBlocks checks that a task's draws do not depend on the
// block of tasks they are drawn with, so that ClassIntervals gives the
// same intervals whatever the blocks its memory bound makes.
func TestClassDrawsBlocks(t *testing.T) {
	s, err := Crowd{Tasks: 60, Workers: 10, Classes: 3, LabelsPerTask: 4, Seed: 2}.Simulate()
	if err != nil {
		t.Fatal(err)
	}
	p, err := Fit(context.Background(), s.Data, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := spaced(60, 60)
	levels := []float64{0.5, 0.9}
	pp := newPopPosterior(p, 50, 7, 1)
	wlo, whi := classDraws(p, pp, 50, 7, all, 1, levels)
	alo, ahi := classDraws(p, pp, 50, 7, all[:25], 3, levels)
	blo, bhi := classDraws(p, pp, 50, 7, all[25:], 2, levels)
	whole := [][]float64{wlo[0], wlo[1], whi[0], whi[1]}
	parts := [][]float64{append(alo[0], blo[0]...), append(alo[1], blo[1]...), append(ahi[0], bhi[0]...), append(ahi[1], bhi[1]...)}
	if got := spaced(10, 4); !reflect.DeepEqual(got, []int{0, 3, 6, 9}) {
		t.Errorf("spaced(10, 4) = %v, want [0 3 6 9]", got)
	}
	if !reflect.DeepEqual(whole, parts) {
		t.Error("the draws of two blocks on several goroutines differ from those of one block on one")
	}
	var calls, tasks int
	forBlocks(10, blockFloats/3, func(lo, hi int) { calls++; tasks += hi - lo })
	if calls != 4 || tasks != 10 {
		t.Errorf("forBlocks: %d calls over %d tasks, want 4 over 10", calls, tasks)
	}
}

// TestQuantilesOf checks quantilesOf against the quantiles of the sorted
// values, on samples with ties and without: a few quantiles, the
// bootstrap's grid at levels 0.9 and 0.5 (runs of ranks at both ends),
// quantiles at every rank, and random sets.
func TestQuantilesOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		name string
		n    int
		ties bool
	}{{"one", 1, false}, {"two", 2, false}, {"400", 400, false}, {"401 ties", 401, true}, {"50 ties", 50, true}} {
		t.Run(c.name, func(t *testing.T) {
			x := make([]float64, c.n)
			for i := range x {
				x[i] = rng.Float64()
				if c.ties {
					x[i] = float64(rng.IntN(7))
				}
			}
			sorted := slices.Clone(x)
			slices.Sort(sorted)
			sets := [][]float64{{0.05, 0.95}, {0, 0.005, 0.975, 1}, {0, 0.005, 0.05, 0.25, 0.5, 0.95, 0.975, 1}, {0.3, 0.3, 0.30001}}
			for _, level := range []float64{0.9, 0.5} {
				var qs []float64
				for _, l := range levelGrid(level) {
					qs = append(qs, (1-l)/2, (1+l)/2)
				}
				slices.Sort(qs)
				sets = append(sets, qs)
			}
			every := make([]float64, c.n+1)
			for i := range every {
				every[i] = float64(i) / float64(c.n)
			}
			sets = append(sets, every)
			for range 20 {
				qs := make([]float64, 1+rng.IntN(12))
				for i := range qs {
					qs[i] = rng.Float64()
				}
				slices.Sort(qs)
				sets = append(sets, qs)
			}
			for _, qs := range sets {
				got := make([]float64, len(qs))
				quantilesOf(slices.Clone(x), qs, got)
				for i, q := range qs {
					if want := quantileSorted(sorted, q); got[i] != want {
						t.Errorf("%d quantiles, quantile %v: %v, want %v", len(qs), q, got[i], want)
					}
				}
			}
		})
	}
}

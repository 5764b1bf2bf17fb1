package plan

import (
	"context"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/datasets"
)

// TestBadArguments checks that the functions of the package return an
// error naming the problem, instead of panicking, on a nil posterior, fit
// or data set and on negative replay settings.
func TestBadArguments(t *testing.T) {
	d, g, err := datasets.Load("rte")
	if err != nil {
		t.Fatal(err)
	}
	truth := GoldTruth(d, g)
	if got := GoldTruth(nil, g); len(got) != 0 {
		t.Errorf("GoldTruth(nil, gold) = %d entries, want none", len(got))
	}
	ctx := context.Background()
	for _, c := range []struct {
		name string
		run  func() error
		want string
	}{
		{"next", func() error { _, err := Next(nil, nil); return err }, "no posterior"},
		{"assess", func() error { _, err := Assess(nil, 0); return err }, "no posterior"},
		{"class intervals", func() error { _, err := ClassIntervals(ctx, nil, nil); return err }, "no posterior"},
		{"from result", func() error { _, err := FromResult(nil); return err }, "no fit"},
		{"label intervals", func() error { _, err := LabelIntervals(ctx, nil, nil); return err }, "no fit"},
		{"replay/nil data", func() error { _, err := Replay(ctx, nil, truth, Uniform, nil); return err }, "no data set"},
		{"replay/negative reveal", func() error {
			_, err := Replay(ctx, d, truth, Uniform, &ReplaySettings{Reveal: -1})
			return err
		}, "Reveal = -1"},
		{"replay/negative batch", func() error {
			_, err := Replay(ctx, d, truth, Uniform, &ReplaySettings{Batch: -2})
			return err
		}, "Batch = -2"},
		{"flags/nil posterior", func() error { _, err := Flags(nil, nil); return err }, "no posterior"},
		{"flags/no data", func() error { _, err := Flags(&Posterior{}, nil); return err }, "without its data set"},
		{"flags/no workers", func() error { _, err := Flags(&Posterior{Data: d}, nil); return err }, "without its workers"},
		{"cavity/nil posterior", func() error { _, err := Cavity(nil); return err }, "no posterior"},
		{"cavity/short probs", func() error {
			_, err := Cavity(&Posterior{Data: d, Workers: &dsWorkers{k: 2}, Probs: make([]float64, 3)})
			return err
		}, "3 consensus probabilities"},
		{"next/no data", func() error { _, err := Next(&Posterior{}, &Settings{Budget: 1}); return err }, "without its data set"},
		{"prefix/nil data", func() error { _, err := Prefix(nil, nil); return err }, "no data set"},
		{"prefix/short shown", func() error { _, err := Prefix(d, []int{1}); return err }, "of 1 tasks' labels"},
		{"prefix/too many", func() error {
			shown := make([]int, d.NumTasks())
			shown[0] = d.Offsets[1] - d.Offsets[0] + 1
			return second(Prefix(d, shown))
		}, "which has 10"},
		{"prefix/negative", func() error {
			shown := make([]int, d.NumTasks())
			shown[3] = -1
			return second(Prefix(d, shown))
		}, "a prefix of -1 labels"},
		{"savings/nil curve", func() error { _, _, err := Savings(nil, 0.9); return err }, "no curve"},
		{"savings/empty curve", func() error { _, _, err := Savings(&Curve{}, 0.9); return err }, "no curve"},
		{"savings/unequal curve", func() error {
			_, _, err := Savings(&Curve{Spent: []int{0, 1}, Accuracy: []float64{0.5}}, 0.9)
			return err
		}, "unequal"},
		{"replay/short truth", func() error { _, err := Replay(ctx, d, truth[:1], Uniform, nil); return err }, "one truth entry per task"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.run(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one with %q", err, c.want)
			}
		})
	}
}

// second returns the error of a call that returns a value and an error.
func second[T any](_ T, err error) error { return err }

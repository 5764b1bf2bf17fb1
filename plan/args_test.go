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
		{"replay/short truth", func() error { _, err := Replay(ctx, d, truth[:1], Uniform, nil); return err }, "one truth entry per task"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.run(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one with %q", err, c.want)
			}
		})
	}
}

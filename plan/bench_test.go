package plan

import (
	"context"
	"testing"
)

// BenchmarkFlags measures Flags on a crowd of 1000 workers and 10⁵ labels.
func BenchmarkFlags(b *testing.B) {
	p := benchPosterior(b)
	b.ResetTimer()
	for range b.N {
		if _, err := Flags(p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClassIntervals measures ClassIntervals (the population's
// draws and the bootstrap that calibrates their level) on the crowd of
// BenchmarkFlags.
func BenchmarkClassIntervals(b *testing.B) {
	p := benchPosterior(b)
	b.ResetTimer()
	for range b.N {
		if _, err := ClassIntervals(context.Background(), p, &IntervalSettings{Level: 0.9, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClassIntervalsK10 measures ClassIntervals on a crowd of ten
// classes: 5000 tasks, 5 labels a task, 100 workers (2.5·10⁴ labels).
func BenchmarkClassIntervalsK10(b *testing.B) {
	_, p := fitCrowd(b, Crowd{Tasks: 5000, Workers: 100, Classes: 10, LabelsPerTask: 5, Spammers: 0.1, Adversaries: 0.05})
	b.ResetTimer()
	for range b.N {
		if _, err := ClassIntervals(context.Background(), p, &IntervalSettings{Level: 0.9, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLabelIntervals measures LabelIntervals (the prior of q_j and
// the importance sampling of every task's q_j) on the crowd of
// BenchmarkFlags, given its vb-da-ds fit and vb-la-ds's workers.
func BenchmarkLabelIntervals(b *testing.B) {
	p := benchPosterior(b)
	r, err := DAModel.Fit(context.Background(), p.Data, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := LabelIntervals(context.Background(), r, &IntervalSettings{Level: 0.9, Seed: 1, Workers: p.Workers}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchPosterior returns vb-la-ds's posterior of BenchmarkFlags' crowd.
func benchPosterior(b *testing.B) *Posterior {
	b.Helper()
	_, p := fitCrowd(b, Crowd{Tasks: 20000, Workers: 1000, LabelsPerTask: 5, Spammers: 0.1, Adversaries: 0.05})
	return p
}

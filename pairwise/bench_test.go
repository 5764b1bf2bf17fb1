package pairwise

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkFit fits both models to simulated comparisons (N comparisons of
// N/10 items, so 20 an item, by 1,000 workers of whom 30 % are spammers)
// and reports the time per comparison and the fit's iterations.
func BenchmarkFit(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		c, _, err := Simulate(SimSettings{Items: n / 10, Workers: 1000, Comparisons: n, Spammers: 0.3, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range []struct {
			name string
			fit  func() (*Result, error)
		}{
			{"bt", func() (*Result, error) { return BradleyTerry{}.Fit(context.Background(), c) }},
			{"noisy-bt", func() (*Result, error) { return NoisyBT{}.Fit(context.Background(), c) }},
		} {
			b.Run(fmt.Sprintf("%s/N=%d", m.name, n), func(b *testing.B) {
				var it int
				for b.Loop() {
					r, err := m.fit()
					if err != nil {
						b.Fatal(err)
					}
					it = r.Iterations
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/comparison")
				b.ReportMetric(float64(it), "iterations")
			})
		}
	}
}

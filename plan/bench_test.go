package plan

import (
	"context"
	"testing"
)

// BenchmarkFlags measures Flags on a crowd of 1000 workers and 10⁵ labels.
func BenchmarkFlags(b *testing.B) {
	s, err := Crowd{Tasks: 20000, Workers: 1000, LabelsPerTask: 5, Spammers: 0.1, Adversaries: 0.05}.Simulate()
	if err != nil {
		b.Fatal(err)
	}
	p, err := Fit(context.Background(), s.Data, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := Flags(p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

package pairwise

import "testing"

// TestSummary checks the summary line of results with and without
// workers, converged and stopped at the iteration limit.
func TestSummary(t *testing.T) {
	c := &Comparisons{}
	for _, r := range [][4]string{{"w1", "a", "b", "a"}, {"w2", "b", "c", "b"}, {"w1", "c", "a", "a"}, {"w2", "a", "b", "b"}} {
		if err := c.Add(r[0], r[1], r[2], r[3]); err != nil {
			t.Fatal(err)
		}
	}
	noWorkers := *c
	noWorkers.Worker, noWorkers.Workers = nil, nil
	for _, tc := range []struct {
		name string
		r    Result
		c    *Comparisons
		want string
	}{
		{"bt", Result{Model: "bt", Iterations: 5, Converged: true, LogLikelihood: -1.5, LogPosterior: -2.25}, &noWorkers,
			"bt: 3 items, 4 comparisons; 5 iterations, converged; log-likelihood -1.500000, with the prior -2.250000"},
		{"bt stopped", Result{Model: "bt", Iterations: 1, LogLikelihood: -1.75, LogPosterior: -3}, &noWorkers,
			"bt: 3 items, 4 comparisons; 1 iterations, stopped at the iteration limit, not converged; log-likelihood -1.750000, with the prior -3.000000"},
		{"noisy-bt", Result{Model: "noisy-bt", Iterations: 9, Converged: true, LogLikelihood: -2.125, LogPosterior: -12.5}, c,
			"noisy-bt: 3 items, 2 workers, 4 comparisons; 9 iterations, converged; log-likelihood -2.125000, with the prior -12.500000"},
	} {
		if got := tc.r.Summary(tc.c); got != tc.want {
			t.Errorf("%s: Summary() =\n%q, want\n%q", tc.name, got, tc.want)
		}
	}
}

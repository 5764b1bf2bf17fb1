package crowdkit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/model"
)

func TestTrimmed(t *testing.T) {
	sqJ := 4.0
	tests := []struct {
		name string
		x    []float64
		f    int
		a    float64
		want []float64
	}{
		{"one each side", []float64{5, 1, 3, 2, 4}, 1, 3, []float64{2, 3, 4}},
		{"fewer than f above: all above go", []float64{5, 1, 3, 2, 4}, 2, 4.5, []float64{3, 4}},
		{"f = 0 keeps all", []float64{2, 1}, 0, 9, []float64{1, 2}},
		{"single zero", []float64{0}, 0, 1, []float64{0.25}},
		{"all trimmed", []float64{1, 3}, 1, 2, []float64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := trimmed(slices.Clone(tt.x), tt.f, tt.a, sqJ)
			if !slices.Equal(got, tt.want) {
				t.Errorf("trimmed(%v, %d, %v) = %v, want %v", tt.x, tt.f, tt.a, got, tt.want)
			}
		})
	}
}

// adversary has three workers always right and one always wrong on four
// tasks, and one more task labelled by g1 (right) and the adversary only.
const adversary = `task,worker,label
t1,g1,0
t1,g2,0
t1,g3,0
t1,adv,1
t2,g1,1
t2,g2,1
t2,g3,1
t2,adv,0
t3,g1,0
t3,g2,0
t3,g3,0
t3,adv,1
t4,g1,1
t4,g2,1
t4,g3,1
t4,adv,0
t5,g1,0
t5,adv,1
`

func TestMMSR(t *testing.T) {
	d := readCrowd(t, adversary)
	cov := covariances(d, 2)
	for k, c := range cov.c {
		if math.Abs(c) != 1 {
			t.Fatalf("C entry %d = %v, want ±1: the workers agree always or never", k, c)
		}
	}
	// |C| = 1 everywhere, so |s| = 1 and the clipping gives s = ±c with
	// c = 1 − 1/√5 (5 tasks); p = (1 ± c)/2 and the weights are ±log r,
	// r = (1 + c)/(1 − c). On t5 the adversary's vote for 1 counts against
	// it: P(0) = r²/(1 + r²), and on t1..t4 three votes of weight log r
	// face one of −log r: P(true) = r⁴/(1 + r⁴). Without signs both weigh
	// log r: a tie on t5, and r³/(r³ + r) = r²/(1 + r²) on t1..t4.
	c := 1 - 1/math.Sqrt(5)
	r := (1 + c) / (1 - c)
	tests := []struct {
		name string
		e    MMSR
		t5   float64
		t14  float64
	}{
		{"signs", MMSR{}, r * r / (1 + r*r), r * r * r * r / (1 + r*r*r*r)},
		{"non-adversarial", MMSR{NonAdversarial: true}, 0.5, r * r / (1 + r*r)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tt.e.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Converged {
				t.Fatalf("stopped: %s after %d sweeps", res.Status, res.Iterations)
			}
			if got := res.Dist(4)[0]; math.Abs(got-tt.t5) > 1e-9 {
				t.Errorf("t5: P(0) = %.12g, want %.12g", got, tt.t5)
			}
			for j, want := range []int{0, 1, 0, 1} {
				if got := res.Dist(j)[want]; math.Abs(got-tt.t14) > 1e-9 {
					t.Errorf("task %d: P(true class) = %.12g, want %.12g", j, got, tt.t14)
				}
			}
		})
	}
}

// TestMMSRDiverges: on these six tasks (issue 40's reproducer) the
// rank-one iteration overflows to NaN. Fit returns ErrMMSRDiverged instead
// of a result with NaN probabilities, whose argmax used to panic.
func TestMMSRDiverges(t *testing.T) {
	patterns := []struct{ worker, labels string }{
		{"w1", "yes no yes yes no no"},
		{"w2", "yes no no yes no no"},
		{"w3", "yes no yes yes yes yes"},
		{"w4", "yes yes yes yes yes yes"},
		{"w5", "no no yes yes no no"},
		{"w6", "yes yes yes yes"},
	}
	var b strings.Builder
	b.WriteString("task,worker,label\n")
	for _, p := range patterns {
		for j, y := range strings.Fields(p.labels) {
			fmt.Fprintf(&b, "t%d,%s,%s\n", j+1, p.worker, y)
		}
	}
	r, err := MMSR{}.Fit(context.Background(), readCrowd(t, b.String()), nil)
	if !errors.Is(err, ErrMMSRDiverged) {
		t.Fatalf("Fit = %v, %v; want ErrMMSRDiverged", r, err)
	}
	if !strings.Contains(err.Error(), "use another model") {
		t.Errorf("error %q does not say what to do", err)
	}
}

// TestMMSRTol checks Crowd-Kit's tol: a large one stops after the first
// sweep, the default later, and WithTol(0) (Crowd-Kit's tol = 0) runs
// every sweep of MaxIterations.
func TestMMSRTol(t *testing.T) {
	d, _, err := datasets.Load("rte")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		e         model.Estimator
		sweeps    func(int) bool
		converged bool
	}{
		{"default", MMSR{}, func(n int) bool { return n > 1 && n < 10000 }, true},
		{"tol 1e3", MMSR{}.WithTol(1e3), func(n int) bool { return n == 1 }, true},
		{"tol 0", MMSR{MaxIterations: 40}.WithTol(0), func(n int) bool { return n == 40 }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tt.e.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.sweeps(res.Iterations) || res.Converged != tt.converged {
				t.Errorf("%d sweeps, converged %v", res.Iterations, res.Converged)
			}
		})
	}
}

package model

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/internal/benchdata"
	"github.com/consensuslab/consensus/metrics"
)

// fitEMWith fits m to d with EM, accelerated by SQUAREM or plain.
func fitEMWith(m Model, d *data.Dataset, s *Settings, squarem bool) (*Result, error) {
	set := s.WithDefaults()
	return m.runEM(context.Background(), d, set, newObjective(m, d, set.Threads), m.Init(d), time.Now(), squarem)
}

// TestSquaremStep checks SQUAREM's step length and extrapolation on
// hand-computed cases. For a sequence that converges linearly,
// x_t = x* + λᵗ e, the step length is 1/(1 - λ) and the extrapolation lands
// on x* exactly (Aitken's Δ²).
func TestSquaremStep(t *testing.T) {
	for _, c := range []struct {
		name       string
		x0, x1, x2 float64
		maxStep    float64
		wantStep   float64
		want       float64 // x'
	}{
		{"linear λ=0.5", 1, 0.5, 0.25, 100, 2, 0},
		{"linear λ=0.9", 3 + 1, 3 + 0.9, 3 + 0.81, 100, 10, 3},
		{"clamped to maxStep", 1, 0.5, 0.25, 1.5, 1.5, 1 + 2*1.5*-0.5 + 1.5*1.5*0.25},
		{"step below 1 raised to 1", 0, 1, 10, 100, 1, 10},
		{"no change", 2, 2, 2, 100, 1, 2},
		{"constant velocity", 0, -1, -2, 64, 64, -128},
	} {
		t.Run(c.name, func(t *testing.T) {
			x0 := []float64{c.x0}
			x2 := []float64{c.x2}
			r := []float32{float32(c.x1 - c.x0)}
			rng := [2]int{0, 1}
			a := stepLength(x0, x2, r, c.maxStep, rng)
			if math.Abs(a-c.wantStep) > 1e-6*c.wantStep {
				t.Errorf("step %v, want %v", a, c.wantStep)
			}
			extrapolateRange(x0, x2, r, a, rng)
			if math.Abs(x0[0]-c.want) > 1e-6 {
				t.Errorf("x' = %v, want %v", x0[0], c.want)
			}
		})
	}
}

// TestSquaremMatchesPlainEM checks that SQUAREM reaches the maximum plain EM
// reaches, to 10⁻⁷ of the log-likelihood per label or higher, and the same
// consensus distributions where the two maxima agree, in fewer M-steps.
func TestSquaremMatchesPlainEM(t *testing.T) {
	forEMCases(t, func(t *testing.T, m Model, d *data.Dataset) {
		s := &Settings{FunctionTol: 1e-13, MaxIterations: 20000}
		plain, err := fitEMWith(m, d, s, false)
		if err != nil {
			t.Fatal(err)
		}
		sq, err := fitEMWith(m, d, s, true)
		if err != nil {
			t.Fatal(err)
		}
		n := float64(d.NumLabels())
		dq := 0.0
		for i, p := range plain.Probs {
			dq = max(dq, math.Abs(p-sq.Probs[i]))
		}
		t.Logf("plain EM %d M-steps, L/N %.10f; SQUAREM %d M-steps, %d passes, L/N %.10f; max |Δq| %.3g",
			plain.Iterations, plain.LogLikelihood/n, sq.Iterations, sq.Evaluations, sq.LogLikelihood/n, dq)
		if !plain.Converged || !sq.Converged {
			t.Fatalf("not converged: plain %s, SQUAREM %s", plain.Status, sq.Status)
		}
		if sq.LogLikelihood/n < plain.LogLikelihood/n-1e-7 {
			t.Errorf("log-likelihood per label: SQUAREM %.10f below plain EM %.10f", sq.LogLikelihood/n, plain.LogLikelihood/n)
		}
		if math.Abs(sq.LogLikelihood-plain.LogLikelihood)/n < 1e-9 && dq > 1e-3 {
			t.Errorf("same maximum, but the consensus distributions differ by up to %.3g", dq)
		}
		if sq.Evaluations >= plain.Evaluations {
			t.Errorf("SQUAREM took %d passes, plain EM %d", sq.Evaluations, plain.Evaluations)
		}
	})
}

// TestSquaremTable fits LA-DS and DA-DS to the shipped data sets with plain
// EM and with SQUAREM, one after the other in the same process, and logs a
// table of M-steps, passes, log-likelihood per label, accuracy and log loss
// against the gold labels (package metrics), the largest difference of the two consensus distributions
// and the time and CPU time of each fit (the table in docs/performance.md).
// It runs only when CONSENSUS_SOLVER_TABLE is true:
//
//	CONSENSUS_SOLVER_TABLE=1 go test ./model -run SquaremTable -v
func TestSquaremTable(t *testing.T) {
	if ok, _ := strconv.ParseBool(os.Getenv("CONSENSUS_SOLVER_TABLE")); !ok {
		t.Skip("set CONSENSUS_SOLVER_TABLE=1 to run")
	}
	fmt.Printf("| data set | model | EM | M-steps | passes | L/N | accuracy | log loss | max |Δq| | time | CPU time |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, name := range datasets.Names() {
		d, gold, err := datasets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []Model{emModels()[0], emModels()[2]} {
			var plain []float64
			for _, squarem := range []bool{false, true} {
				cpu0, _ := benchdata.CPUTime()
				r, err := fitEMWith(m, d, nil, squarem)
				if err != nil {
					t.Fatal(err)
				}
				cpu1, _ := benchdata.CPUTime()
				acc, loss := "-", "-"
				if gold != nil && gold.Len() > 0 {
					acc = fmt.Sprintf("%.4f", must(metrics.Accuracy(r.Probs, d.NumClasses(), gold, 1)))
					loss = fmt.Sprintf("%.4f", must(metrics.LogLoss(r.Probs, d.NumClasses(), gold)))
				}
				which, dq := "plain", "-"
				if squarem {
					which = "SQUAREM"
					worst := 0.0
					for i, p := range plain {
						worst = max(worst, math.Abs(p-r.Probs[i]))
					}
					dq = fmt.Sprintf("%.2g", worst)
				}
				plain = r.Probs
				status := ""
				if !r.Converged {
					status = " (limit)"
				}
				fmt.Printf("| %s | %s | %s | %d%s | %d | %.6f | %s | %s | %s | %v | %v |\n", name, m.Name(), which, r.Iterations, status,
					r.Evaluations, r.LogLikelihood/float64(d.NumLabels()), acc, loss, dq,
					r.Runtime.Round(100*time.Microsecond), (cpu1 - cpu0).Round(time.Millisecond))
			}
		}
	}
}

package experiments

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/model"
)

// TestPaperWinCounts recounts the paper's own tables: DA wins 13 of 21
// accuracy comparisons and 18 of 21 log-loss comparisons, as its section 6
// says. This checks the copied numbers and the counting rule together.
func TestPaperWinCounts(t *testing.T) {
	var acc, ll Wins
	for _, p := range paperData {
		for _, f := range families {
			la, da := slices.Index(paperModels, "la-"+f.name), slices.Index(paperModels, "da-"+f.name)
			acc.add(compare(parsePaper(p.Acc[la]), parsePaper(p.Acc[da]), false))
			ll.add(compare(parsePaper(p.LogLoss[la]), parsePaper(p.LogLoss[da]), true))
		}
	}
	if acc.DA != PaperAccuracyDAWins || ll.DA != PaperLogLossDAWins || acc.Total() != PaperComparisons || ll.Total() != PaperComparisons {
		t.Errorf("paper's tables give DA wins %d/%d (accuracy) and %d/%d (log loss), want %d and %d of %d",
			acc.DA, acc.Total(), ll.DA, ll.Total(), PaperAccuracyDAWins, PaperLogLossDAWins, PaperComparisons)
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{num(math.Inf(1), 3), "∞"},
		{num(math.NaN(), 3), "n/a"},
		{num(0.5090613, 3), "0.509"},
		{signed(-0.0000001, 2), "+0.00"},
		{signed(-0.21, 2), "-0.21"},
		{signed(4.65, 2), "+4.65"},
		{signed(math.Inf(1), 2), "∞"},
		{csvNum(math.Inf(1)), "Inf"},
		{csvNum(0.25), "0.25"},
		{paperText("inf"), "∞"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if v := paperAbsAcc(paperRow("duchenne"), 1); v != 76.73 {
		t.Errorf("paper LA-DS accuracy on Duchenne = %v, want 76.73", v)
	}
}

func TestCompare(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		la, da float64
		lower  bool
		want   outcome
	}{
		{0.9, 0.8, false, laWins},
		{0.8, 0.9, false, daWins},
		{0.8, 0.8, false, tie},
		{inf, 0.5, true, daWins},
		{0.5, inf, true, laWins},
		{inf, inf, true, tie},
		{math.NaN(), 1, true, tie},
	}
	for _, tc := range tests {
		if got := compare(tc.la, tc.da, tc.lower); got != tc.want {
			t.Errorf("compare(%v, %v, %v) = %v, want %v", tc.la, tc.da, tc.lower, got, tc.want)
		}
	}
}

func TestSubsample(t *testing.T) {
	d, _, err := datasets.Load("duchenne")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 3, 14, 25} {
		s := Subsample(d, n, rand.New(rand.NewPCG(1, uint64(n))))
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		again := Subsample(d, n, rand.New(rand.NewPCG(1, uint64(n))))
		if !slices.Equal(s.Label, again.Label) || !slices.Equal(s.Worker, again.Worker) {
			t.Errorf("n = %d: not deterministic", n)
		}
		for j := range d.Tasks {
			ow, ol := d.TaskLabels(j)
			sw, sl := s.TaskLabels(j)
			if want := min(n, len(ow)); len(sw) != want {
				t.Fatalf("n = %d, task %d: %d labels, want %d", n, j, len(sw), want)
			}
			// Every kept (worker, label) pair is one of the object's,
			// counted with multiplicity.
			pairs := map[[2]int]int{}
			for i := range ow {
				pairs[[2]int{int(ow[i]), int(ol[i])}]++
			}
			for i := range sw {
				k := [2]int{int(sw[i]), int(sl[i])}
				if pairs[k] == 0 {
					t.Fatalf("n = %d, task %d: label %v not in the data", n, j, k)
				}
				pairs[k]--
			}
		}
	}
}

// TestRealTemp runs the real-data experiment on temp with all seven
// models and checks the numbers and the structure of the outputs.
func TestRealTemp(t *testing.T) {
	cfg := RealSettings{Datasets: []string{"temp"}, Protocols: DefaultRealProtocols(true), Seed: 1}
	var events int
	res, err := Real(context.Background(), cfg, func(p model.Progress) {
		events++
		if p.Total != 14 || p.Done > p.Total {
			t.Errorf("progress %d/%d", p.Done, p.Total)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if events != 15 {
		t.Errorf("%d progress events, want 15 (start and one per fit)", events)
	}
	if len(res.Cells) != 2 || len(res.Cells[0]) != 1 || len(res.Cells[0][0]) != 7 {
		t.Fatalf("cells %d×%d×%d, want 2×1×7", len(res.Cells), len(res.Cells[0]), len(res.Cells[0][0]))
	}
	for p := range res.Cells {
		for m, c := range res.Cells[p][0] {
			if !(c.Accuracy > 0.85 && c.Accuracy <= 1) {
				t.Errorf("protocol %d, %s: accuracy %v", p, res.Settings.Models[m], c.Accuracy)
			}
			if math.IsNaN(c.LogLoss) || c.LogLoss < 0 {
				t.Errorf("protocol %d, %s: log loss %v", p, res.Settings.Models[m], c.LogLoss)
			}
			if p == 1 && m > 0 && (!c.Converged || math.IsInf(c.LogLoss, 0)) {
				t.Errorf("ridge protocol, %s: converged %v, log loss %v; want an optimum and a finite loss", res.Settings.Models[m], c.Converged, c.LogLoss)
			}
		}
	}
	rfe := res.Cells[0][0][0]
	if !math.IsInf(rfe.LogLoss, 1) || math.IsInf(rfe.LogLossAddOne, 0) {
		t.Errorf("RFE log loss on temp: unsmoothed %v (want ∞ as in the paper), add-one %v (want finite)", rfe.LogLoss, rfe.LogLossAddOne)
	}
	md := res.Markdown()
	for _, want := range []string{
		"| Temporal ordering (K = 2) | ours | 93.",
		"|  | paper | 93.55 | +0.61 | **+0.82** | +0.39 | **+0.82** | -2.21 | **-1.56** |",
		"| Price (K = 7) | paper | 32.5 |",
		"| ours | not public |",
		"| accuracy, paper | 3 | 0 | 0 | 3 |",
		"| log loss, paper | 3 | 0 | 0 | 3 |",
		"### Protocol 2: ridge λ = 1, to convergence",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("real.md lacks %q", want)
		}
	}
	if strings.Contains(md, "NaN") {
		t.Errorf("real.md contains NaN")
	}
	var buf bytes.Buffer
	if err := res.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 15 || rows[1][0] != "default" || rows[1][1] != "temp" || rows[1][2] != "rfe" || rows[1][4] != "Inf" || rows[1][12] != "93.55" || rows[8][0] != "ridge" {
		t.Errorf("real.csv: %d rows, first %v", len(rows), rows[min(1, len(rows)-1)])
	}
}

// TestRFEUnsmoothedRTE checks the finding that the paper's RFE log loss
// column is unsmoothed: on Textual entailment the unsmoothed RFE log loss
// is the paper's 0.509 and the add-one smoothed one is not.
func TestRFEUnsmoothedRTE(t *testing.T) {
	res, err := Real(context.Background(), RealSettings{Datasets: []string{"rte"}, Models: []string{"rfe"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Cells[0][0][0]
	if math.Abs(c.LogLoss-0.509) > 0.0005 {
		t.Errorf("unsmoothed RFE log loss on rte = %v, want 0.509", c.LogLoss)
	}
	if math.Abs(c.LogLossAddOne-0.509) < 0.005 {
		t.Errorf("add-one smoothed RFE log loss on rte = %v, unexpectedly the paper's value", c.LogLossAddOne)
	}
}

// TestSyntheticDABeatsLA is a small version of table 4 under our protocol
// (ridge λ = 1, to convergence): DA-GLAD recovers q_j with an MSE several
// times below LA-GLAD's. It also checks the documented overfitting of the
// unpenalised DA maximum likelihood: its MSE rises with the iterations.
func TestSyntheticDABeatsLA(t *testing.T) {
	cfg := SyntheticSettingsFor(SharedSettings{Quick: true, Seed: 11})
	cfg.Sim.Tasks = 400
	cfg.Simulations = 2
	cfg.Ridges = nil
	cfg.RidgeSimulations = 0
	res, err := Synthetic(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	protocol := res.Rows[len(res.Rows)-1]
	la, _ := meanSD(protocol.LA)
	da, _ := meanSD(protocol.DA)
	t.Logf("ridge 1: LA %.4f, DA %.4f", la, da)
	if !(la > 3*da) || da > 0.02 {
		t.Errorf("ridge protocol: LA MSE %.4f, DA MSE %.4f; want DA below 0.02 and LA more than 3 times DA", la, da)
	}
	if protocol.LAConv != 2 || protocol.DAConv != 2 {
		t.Errorf("ridge protocol fits did not all converge: %d, %d", protocol.LAConv, protocol.DAConv)
	}
	early, _ := meanSD(res.SweepLBFGS[1][slices.Index(cfg.SweepLimits, 10)])
	late, _ := meanSD(res.SweepLBFGS[1][len(cfg.SweepLimits)-1])
	if !(late > 1.3*early) {
		t.Errorf("DA-GLAD MLE: MSE %.4f after 10 iterations, %.4f after %d; expected it to rise", early, late, cfg.SweepLimits[len(cfg.SweepLimits)-1])
	}
	if fig, err := res.CalibrationFigure(res.Protocol); err != nil || fig == nil || res.SweepFigure() == nil {
		t.Errorf("no figure (%v)", err)
	}
}

// TestOverlapDuchenne is a small version of the labels-per-object figure
// under our protocol: from 3 to 14 labels per object, LA-GLAD's log loss
// gets worse while DA-GLAD's improves.
func TestOverlapDuchenne(t *testing.T) {
	cfg := OverlapSettings{
		Ns:        []int{3, 14},
		Draws:     2,
		Seed:      5,
		Protocols: []OverlapProtocol{{Name: "ridge", File: "overlap", Settings: model.Settings{Ridge: 1, MaxIterations: 2000}}},
	}
	res, err := Overlap(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	la, da := res.Points[0][0], res.Points[0][1]
	for i := range cfg.Ns {
		t.Logf("n = %d (%.2f labels/object): LA log loss %.3f, DA %.3f", cfg.Ns[i], res.MeanLabels[i], la[i].MedianLogLoss(), da[i].MedianLogLoss())
		if la[i].Infinite() > 0 || da[i].Infinite() > 0 {
			t.Errorf("n = %d: infinite log loss under the ridge protocol", cfg.Ns[i])
		}
	}
	if !(la[1].MedianLogLoss() > la[0].MedianLogLoss()) {
		t.Errorf("LA log loss did not get worse: %.3f at n = 3, %.3f at n = 14", la[0].MedianLogLoss(), la[1].MedianLogLoss())
	}
	if !(da[1].MedianLogLoss() < da[0].MedianLogLoss()) {
		t.Errorf("DA log loss did not improve: %.3f at n = 3, %.3f at n = 14", da[0].MedianLogLoss(), da[1].MedianLogLoss())
	}
	if math.Abs(res.MeanLabels[0]-3) > 1e-9 {
		t.Errorf("mean labels per object at n = 3: %v", res.MeanLabels[0])
	}
}

func TestOverlapPoint(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		ll         []float64
		median     float64
		finiteMean float64
		infinite   int
	}{
		{[]float64{1, 2, 3}, 2, 2, 0},
		{[]float64{1, 2, inf, 4}, 3, 7.0 / 3, 1},
		{[]float64{1, inf, inf, 4}, inf, 2.5, 2},
		{[]float64{inf, inf, 1}, inf, 1, 2},
	}
	for _, tc := range tests {
		p := OverlapPoint{LogLoss: tc.ll}
		if p.MedianLogLoss() != tc.median || math.Abs(p.FiniteMeanLogLoss()-tc.finiteMean) > 1e-12 || p.Infinite() != tc.infinite {
			t.Errorf("%v: median %v, finite mean %v, infinite %d; want %v, %v, %d", tc.ll,
				p.MedianLogLoss(), p.FiniteMeanLogLoss(), p.Infinite(), tc.median, tc.finiteMean, tc.infinite)
		}
	}
}

// TestTheoryBySimulation checks the exact expectations of the theory
// figure against a direct simulation of the DA process: n workers draw a
// subjective label from Ber(q) and report it correctly with probability a;
// the LA posterior is computed with the paper's formula as printed.
func TestTheoryBySimulation(t *testing.T) {
	cfg := TheorySettings{Ns: []int{5, 20}, As: []float64{0.7, 0.9}, R: 0.5, Points: 11}
	res := Theory(cfg)
	rng := rand.New(rand.NewPCG(7, 7))
	const reps = 40000
	for i, n := range cfg.Ns {
		for ai, a := range cfg.As {
			for _, q := range []float64{0.1, 0.3, 0.6, 0.9} {
				var sum float64
				for range reps {
					n1 := 0
					for range n {
						z := rng.Float64() < q
						if rng.Float64() >= a {
							z = !z
						}
						if z {
							n1++
						}
					}
					num := cfg.R * math.Pow(a, float64(n1)) * math.Pow(1-a, float64(n-n1))
					den := num + (1-cfg.R)*math.Pow(1-a, float64(n1))*math.Pow(a, float64(n-n1))
					sum += num / den
				}
				mc := sum / reps
				exact := res.LA[i][ai][res.at(q)]
				if math.Abs(mc-exact) > 0.01 {
					t.Errorf("n = %d, a = %g, q = %g: exact %.4f, simulation %.4f", n, a, q, exact, mc)
				}
			}
		}
	}
	// The DA expectation of the clipped estimate is q away from the
	// boundaries once n is large, and the LA one is not.
	if d := res.DA[1][1][res.at(0.6)] - 0.6; math.Abs(d) > 1e-3 {
		t.Errorf("E[clipped DA] at q = 0.6, n = 20, a = 0.9 is off by %g", d)
	}
	if d := res.LA[1][1][res.at(0.6)] - 0.6; d < 0.1 {
		t.Errorf("E[LA] at q = 0.6, n = 20, a = 0.9 is only %g above q", d)
	}
}

func TestStats(t *testing.T) {
	res, err := Stats()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Names) != 6 {
		t.Fatalf("%d data sets, want 6", len(res.Names))
	}
	md := res.Markdown()
	for _, want := range []string{
		"| Duchenne smiles | ours | 2 | 2134 | 64 | 30319 | 14.2 | 473.7 |",
		"| Adult content | ours | 4 | 11040 | 825 | 92721 | 8.4 | 112.4 | 18 | **333** |",
		"| Price | ours | not public |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("stats.md lacks %q", want)
		}
	}
}

// TestRunDeterministic runs the cheap parts twice with different
// parallelism and compares the files byte by byte.
func TestRunDeterministic(t *testing.T) {
	var outs [2]string
	for i := range outs {
		outs[i] = t.TempDir()
		rep, err := Run(context.Background(), Settings{Output: outs[i], Only: []string{"theory", "stats"}, Quick: true, Threads: i + 1})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"theory.md", "theory.csv", "theory.png", "theory.svg", "stats.md", "stats.csv", "report.md"}
		if !slices.Equal(rep.Files, want) {
			t.Errorf("files %v, want %v", rep.Files, want)
		}
	}
	for _, f := range []string{"theory.png", "theory.svg", "report.md", "stats.md"} {
		a, errA := os.ReadFile(filepath.Join(outs[0], f))
		b, errB := os.ReadFile(filepath.Join(outs[1], f))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between runs (%v, %v)", f, errA, errB)
		}
	}
	if _, err := Run(context.Background(), Settings{Output: t.TempDir(), Only: []string{"nope"}}); err == nil {
		t.Error("unknown part accepted")
	}
}

func TestMirrored(t *testing.T) {
	truth := []float64{0.9, 0.1, 0.3, 0.7, 0.5, 0.5}
	tests := []struct {
		pred []float64
		want bool
	}{
		{[]float64{0.8, 0.2, 0.4, 0.6, 0.5, 0.5}, false},
		{[]float64{0.1, 0.9, 0.7, 0.3, 0.5, 0.5}, true},
		{[]float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, false},
	}
	for _, tc := range tests {
		if got, err := Mirrored(tc.pred, truth); err != nil || got != tc.want {
			t.Errorf("Mirrored(%v) = %v, %v, want %v", tc.pred, got, err, tc.want)
		}
	}
	if _, err := Mirrored(truth[:4], truth); err == nil {
		t.Error("Mirrored of an estimate of another size: no error")
	}
}

package experiments

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/consensuslab/consensus/theory"
)

// TheorySettings describes the figure of the paper's appendix A: the
// expectation of the LA estimate of q under the DA generating process, as
// a function of q.
type TheorySettings struct {
	// Ns are the numbers of labels, one panel each (the paper: 5, 10, 20).
	Ns []int
	// As are the worker accuracies a, one curve each.
	As []float64
	// R is the LA prior probability of class 1 (the paper: 0.5).
	R float64
	// Points is the number of values of q, evenly spaced over [0, 1].
	Points int
}

// TheorySettingsFor returns the settings Run uses: n = 5, 10, 20,
// a = 0.6, 0.7, 0.8, 0.9, r = 0.5 and 101 values of q. Quick changes
// nothing: the curves are exact and cheap.
func TheorySettingsFor(SharedSettings) TheorySettings {
	return TheorySettings{Ns: []int{5, 10, 20}, As: []float64{0.6, 0.7, 0.8, 0.9}, R: 0.5, Points: 101}
}

// TheoryResult holds the exact expectations.
type TheoryResult struct {
	// Settings are the experiment's settings.
	Settings TheorySettings
	// Q holds the values of q.
	Q []float64
	// LA[i][a][t] is theory.ExpectedLA(Q[t], As[a], R, Ns[i]) and DA the
	// expectation of the clipped DA estimate, theory.ExpectedDA.
	LA, DA [][][]float64
}

// Theory computes the exact expectations of the LA and the clipped DA
// estimates (packages theory's ExpectedLA and ExpectedDA) on a grid of q.
func Theory(cfg TheorySettings) *TheoryResult {
	r := &TheoryResult{Settings: cfg}
	for t := range cfg.Points {
		r.Q = append(r.Q, float64(t)/float64(cfg.Points-1))
	}
	for _, n := range cfg.Ns {
		var la, da [][]float64
		for _, a := range cfg.As {
			l := make([]float64, len(r.Q))
			d := make([]float64, len(r.Q))
			for t, q := range r.Q {
				l[t] = theory.ExpectedLA(q, a, cfg.R, n)
				d[t] = theory.ExpectedDA(q, a, n)
			}
			la, da = append(la, l), append(da, d)
		}
		r.LA, r.DA = append(r.LA, la), append(r.DA, da)
	}
	return r
}

// at returns the index of q in r.Q, or -1.
func (r *TheoryResult) at(q float64) int {
	for t, v := range r.Q {
		if math.Abs(v-q) < 1e-12 {
			return t
		}
	}
	return -1
}

// Markdown returns theory.md: E[q̂_LA] at a few values of q and the largest
// bias of both estimates.
func (r *TheoryResult) Markdown() string {
	cfg := r.Settings
	var b strings.Builder
	b.WriteString("## Theory (paper appendix A figure)\n\n")
	fmt.Fprintf(&b, "Exact expectation of the LA estimate q̂_LA (the posterior of class 1, prior r = %g) when n labels come from the DA process "+
		"with latent probability q and worker accuracy a (theory.ExpectedLA, the paper's equation in appendix A). "+
		"The unclipped DA estimate is unbiased, E = q (the diagonal); the clipped DA MLE in [0, 1] (theory.ExpectedDA) is biased "+
		"only near 0 and 1. Figure: theory.png.\n\n", cfg.R)
	qs := []float64{0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9}
	head := []string{"n", "a"}
	for _, q := range qs {
		head = append(head, fmt.Sprintf("q = %g", q))
	}
	head = append(head, "largest bias of q̂_LA", "largest bias of clipped q̂_DA")
	t := newTable(head...)
	t.align[1] = 'r'
	for i, n := range cfg.Ns {
		for ai, a := range cfg.As {
			cells := []string{strconv.Itoa(n), strconv.FormatFloat(a, 'g', -1, 64)}
			for _, q := range qs {
				if ti := r.at(q); ti >= 0 {
					cells = append(cells, num(r.LA[i][ai][ti], 3))
				} else {
					cells = append(cells, "–")
				}
			}
			var bl, bd float64
			for ti, q := range r.Q {
				bl = max(bl, math.Abs(r.LA[i][ai][ti]-q))
				bd = max(bd, math.Abs(r.DA[i][ai][ti]-q))
			}
			cells = append(cells, num(bl, 3), num(bd, 3))
			t.add(cells...)
		}
	}
	b.WriteString(t.String())
	return b.String()
}

// WriteCSV writes theory.csv: n, a, q and both expectations.
func (r *TheoryResult) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"n", "a", "r", "q", "expected_la", "expected_da_clipped"})
	for i, n := range r.Settings.Ns {
		for ai, a := range r.Settings.As {
			for t, q := range r.Q {
				cw.Write([]string{strconv.Itoa(n), csvNum(a), csvNum(r.Settings.R), csvNum(q), csvNum(r.LA[i][ai][t]), csvNum(r.DA[i][ai][t])})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// Figure returns one panel per n: E[q̂_LA] against q for every a (solid),
// the clipped DA expectation (dashed, same colour) and the diagonal.
func (r *TheoryResult) Figure() *Figure {
	var row []*plot.Plot
	for i, n := range r.Settings.Ns {
		p := newPlot(fmt.Sprintf("n = %d labels, prior r = %g", n, r.Settings.R), "true probability q", "expected estimate")
		unitAxes(p)
		p.Legend.Top, p.Legend.Left = false, false
		for ai, a := range r.Settings.As {
			la := make(plotter.XYs, len(r.Q))
			da := make(plotter.XYs, len(r.Q))
			for t, q := range r.Q {
				la[t] = plotter.XY{X: q, Y: r.LA[i][ai][t]}
				da[t] = plotter.XY{X: q, Y: r.DA[i][ai][t]}
			}
			col := palette[ai%len(palette)]
			addCurve(p, fmt.Sprintf("E[LA estimate], a = %g", a), la, col, vg.Points(1.8), nil)
			name := ""
			if ai == len(r.Settings.As)-1 {
				name = "E[DA estimate], clipped (dashed)"
			}
			addCurve(p, name, da, col, vg.Points(0.8), []vg.Length{vg.Points(3), vg.Points(2)})
		}
		addDiagonal(p, "unbiased: E = q")
		row = append(row, p)
	}
	return &Figure{Panels: [][]*plot.Plot{row}, Width: vg.Centimeter * 36, Height: vg.Centimeter * 13}
}

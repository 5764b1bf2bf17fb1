package experiments

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/consensuslab/consensus/metrics"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func meanInt(xs []int) float64 {
	var s float64
	for _, x := range xs {
		s += float64(x)
	}
	return s / float64(len(xs))
}

func pm(xs []float64, prec int) string {
	m, sd := meanSD(xs)
	return num(m, prec) + " ± " + num(sd, prec)
}

// Markdown returns synthetic.md: the MSE table beside the paper's table 4,
// the sweep over iteration limits and the ridge sweep.
func (r *SyntheticResult) Markdown() string {
	cfg := r.Settings
	sc := cfg.Sim
	tasks, workers := sc.Tasks, sc.Workers
	if tasks == 0 {
		tasks = 2000
	}
	if workers == 0 {
		workers = 20
	}
	var b strings.Builder
	b.WriteString("## Synthetic data (paper table 4 and calibration figure)\n\n")
	fmt.Fprintf(&b, "%d simulations (seeds %d to %d) of the paper's setting: %d objects, %d workers who label every object, "+
		"q_j ~ U[0, 1], GLAD e_w ~ U[0, 4], log d_j ~ U[0, 3], labels from DA-GLAD. LA-GLAD and DA-GLAD are fitted and their "+
		"estimates of q_j compared with the true q_j by MSE = (1/N) Σ_j (q̂_j − q_j)²; mean ± standard deviation over the simulations.\n\n",
		cfg.Simulations, cfg.Seed, cfg.Seed+uint64(cfg.Simulations)-1, tasks, workers)
	b.WriteString("Mirrored: fits that ended in GLAD's mirror mode (every label read backwards, MSE near 0.5; see below). " +
		"\"LA, mirrored left out\" and the ratio LA / DA leave those simulations out.\n\n")
	b.WriteString(mseTable(r.Rows, "Protocol", true))

	b.WriteString("\n### MSE against the iteration limit\n\n")
	fmt.Fprintf(&b, "What Model.Fit returns with Settings.MaxIterations = limit (a fit that converges earlier keeps its optimum), "+
		"mean ± sd over the %d simulations. Conjugate gradient runs stop at %d iterations (– beyond).\n\n", cfg.Simulations, cfg.CGIterations)
	var left []string
	for _, c := range []struct {
		name   string
		mirror []bool
	}{{"LA, L-BFGS", r.MirrorLBFGS[0]}, {"DA, L-BFGS", r.MirrorLBFGS[1]}, {"LA, CG", r.MirrorCG[0]}, {"DA, CG", r.MirrorCG[1]}} {
		for s, m := range c.mirror {
			if m {
				left = append(left, fmt.Sprintf("%s: simulation seed %d", c.name, cfg.Seed+uint64(s)))
			}
		}
	}
	if len(left) > 0 {
		b.WriteString("Left out because the run ends in the mirrored mode: " + strings.Join(left, "; ") + ".\n\n")
	}
	t := newTable("limit", "LA, L-BFGS", "DA, L-BFGS", "LA, CG", "DA, CG")
	for l, limit := range cfg.SweepLimits {
		cells := []string{strconv.Itoa(limit)}
		for _, c := range []struct {
			v      []float64
			mirror []bool
		}{{r.SweepLBFGS[0][l], r.MirrorLBFGS[0]}, {r.SweepLBFGS[1][l], r.MirrorLBFGS[1]}, {r.SweepCG[0][l], r.MirrorCG[0]}, {r.SweepCG[1][l], r.MirrorCG[1]}} {
			if math.IsNaN(c.v[0]) {
				cells = append(cells, "–")
			} else {
				cells = append(cells, pm(withoutMirrored(c.v, c.mirror), 4))
			}
		}
		t.add(cells...)
	}
	b.WriteString(t.String())

	b.WriteString("\n### Effect of the ridge penalty\n\n")
	fmt.Fprintf(&b, "Settings.Ridge = λ subtracts (λ/2) Σ x² from the log-likelihood (all parameters: GLAD abilities, log difficulties, "+
		"DA logits), that is a N(0, 1/λ) prior; L-BFGS to convergence (at most %d iterations; %d for λ = %g and the MLE), "+
		"first %d simulations. λ = 0 is the MLE.\n\n",
		cmp.Or(cfg.RidgeIterations, cfg.MaxIterations), cfg.MaxIterations, cfg.Ridge, min(cfg.RidgeSimulations, cfg.Simulations))
	b.WriteString(mseTable(r.RidgeRows, "λ", false))
	return b.String()
}

// mseTable renders rows of MSE results; with paper, the paper's row
// comes first.
func mseTable(rows []SyntheticRow, first string, paper bool) string {
	t := newTable(first, "LA GLAD", "LA, mirrored left out", "DA GLAD", "LA / DA", "iterations LA", "iterations DA", "optimum reached LA, DA", "mirrored LA, DA")
	if paper {
		t.add("paper (CG, stopping rule not stated)", fmt.Sprintf("%.3f ± %.3f", PaperMSE.LA, PaperMSE.LASD), "",
			fmt.Sprintf("%.3f ± %.3f", PaperMSE.DA, PaperMSE.DASD), num(PaperMSE.LA/PaperMSE.DA, 1), "", "", "", "")
	}
	for _, row := range rows {
		laKept := withoutMirrored(row.LA, row.LAMirror)
		la, _ := meanSD(laKept)
		da, _ := meanSD(withoutMirrored(row.DA, row.DAMirror))
		t.add(row.Name, pm(row.LA, 4), pm(laKept, 4), pm(row.DA, 4), num(la/da, 1), num(meanInt(row.LAIter), 0), num(meanInt(row.DAIter), 0),
			fmt.Sprintf("%d/%d, %d/%d", row.LAConv, len(row.LA), row.DAConv, len(row.DA)),
			fmt.Sprintf("%d, %d", countTrue(row.LAMirror), countTrue(row.DAMirror)))
	}
	return t.String()
}

// WriteCSV writes synthetic.csv: the MSE and iterations of every protocol,
// model and simulation, and of the ridge sweep.
func (r *SyntheticResult) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"protocol", "ridge", "simulation_seed", "model", "mse", "iterations", "mirrored"})
	write := func(name, ridge string, row SyntheticRow) {
		for s := range row.LA {
			seed := strconv.FormatUint(r.Settings.Seed+uint64(s), 10)
			cw.Write([]string{name, ridge, seed, modelNames[0], csvNum(row.LA[s]), strconv.Itoa(row.LAIter[s]), strconv.FormatBool(row.LAMirror[s])})
			cw.Write([]string{name, ridge, seed, modelNames[1], csvNum(row.DA[s]), strconv.Itoa(row.DAIter[s]), strconv.FormatBool(row.DAMirror[s])})
		}
	}
	for _, row := range r.Rows {
		write(row.Name, "", row)
	}
	for _, row := range r.RidgeRows {
		write("ridge sweep", row.Name, row)
	}
	cw.Flush()
	return cw.Error()
}

// WriteSweepCSV writes synthetic_sweep.csv: the MSE at every iteration
// limit, solver, model and simulation (empty where not run).
func (r *SyntheticResult) WriteSweepCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"solver", "limit", "simulation_seed", "model", "mse"})
	for _, sv := range []struct {
		name string
		v    [2][][]float64
	}{{"lbfgs", r.SweepLBFGS}, {"cg", r.SweepCG}} {
		for l, limit := range r.Settings.SweepLimits {
			for s := range sv.v[0][l] {
				for m := range 2 {
					v := sv.v[m][l][s]
					if math.IsNaN(v) {
						continue
					}
					cw.Write([]string{sv.name, strconv.Itoa(limit), strconv.FormatUint(r.Settings.Seed+uint64(s), 10), modelNames[m], csvNum(v)})
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// CalibrationFigure returns the calibration plots of c side by side: the
// true probability of class 1 on the horizontal axis, the estimate on the
// vertical one, every object as a point, the means of Settings.Bins bins of
// the true probability and the diagonal. It returns the errors of
// metrics.MSE and metrics.Calibration.
func (r *SyntheticResult) CalibrationFigure(c *CalibrationData) (*Figure, error) {
	if c == nil {
		return nil, nil
	}
	k := 2
	panel := func(title string, est []float64, col color.RGBA) (*plot.Plot, error) {
		mse, err := metrics.MSE(est, c.Truth, k)
		if err != nil {
			return nil, err
		}
		p := newPlot(fmt.Sprintf("%s, %s: MSE %.4f", title, c.Name, mse), "true probability q_j of class 1", "estimated probability of class 1")
		unitAxes(p)
		p.Legend.Top, p.Legend.Left = false, false
		pts := make(plotter.XYs, len(c.Truth)/k)
		for j := range pts {
			pts[j] = plotter.XY{X: c.Truth[j*k+1], Y: est[j*k+1]}
		}
		sc, _ := plotter.NewScatter(pts)
		sc.Shape = draw.CircleGlyph{}
		sc.Radius = vg.Points(1.2)
		sc.Color = faded(col)
		p.Add(sc)
		p.Legend.Add("objects", sc)
		bins, err := metrics.Calibration(est, c.Truth, k, 1, r.Settings.Bins)
		if err != nil {
			return nil, err
		}
		bx := make(plotter.XYs, len(bins))
		for i, b := range bins {
			bx[i] = plotter.XY{X: b.X, Y: b.Y}
		}
		addLine(p, fmt.Sprintf("mean of %d bins", r.Settings.Bins), bx, col, draw.SquareGlyph{}, false)
		addDiagonal(p, "perfect calibration")
		return p, nil
	}
	la, err := panel("LA GLAD", c.LA, colLA)
	if err != nil {
		return nil, err
	}
	da, err := panel("DA GLAD", c.DA, colDA)
	if err != nil {
		return nil, err
	}
	return &Figure{
		Panels: [][]*plot.Plot{{la, da}},
		Width:  vg.Centimeter * 26, Height: vg.Centimeter * 13,
	}, nil
}

// SweepFigure returns the plot of the mean MSE against the iteration limit
// for both solvers and models, with the paper's values for reference.
func (r *SyntheticResult) SweepFigure() *Figure {
	cfg := r.Settings
	p := newPlot(fmt.Sprintf("Synthetic DA-GLAD data: MSE of the estimated q_j against the iteration limit (mean of %d simulations, mirrored fits left out)", cfg.Simulations),
		"iteration limit (log scale)", "MSE of the estimated q_j")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Left = false
	p.Y.Min = 0
	series := func(v [][]float64, mirror []bool) plotter.XYs {
		var xy plotter.XYs
		for l, limit := range cfg.SweepLimits {
			m, _ := meanSD(withoutMirrored(v[l], mirror))
			if !math.IsNaN(m) {
				xy = append(xy, plotter.XY{X: float64(limit), Y: m})
			}
		}
		return xy
	}
	addLine(p, "LA GLAD, L-BFGS", series(r.SweepLBFGS[0], r.MirrorLBFGS[0]), colLA, draw.SquareGlyph{}, false)
	addLine(p, "LA GLAD, CG", series(r.SweepCG[0], r.MirrorCG[0]), colLA, draw.TriangleGlyph{}, true)
	addLine(p, "DA GLAD, L-BFGS", series(r.SweepLBFGS[1], r.MirrorLBFGS[1]), colDA, draw.CircleGlyph{}, false)
	addLine(p, "DA GLAD, CG", series(r.SweepCG[1], r.MirrorCG[1]), colDA, draw.TriangleGlyph{}, true)
	lo, hi := float64(cfg.SweepLimits[0]), float64(cfg.SweepLimits[len(cfg.SweepLimits)-1])
	dots := []vg.Length{vg.Points(1), vg.Points(3)}
	addCurve(p, fmt.Sprintf("paper, LA (%.3f)", PaperMSE.LA), plotter.XYs{{X: lo, Y: PaperMSE.LA}, {X: hi, Y: PaperMSE.LA}}, colLA, vg.Points(1), dots)
	addCurve(p, fmt.Sprintf("paper, DA (%.3f)", PaperMSE.DA), plotter.XYs{{X: lo, Y: PaperMSE.DA}, {X: hi, Y: PaperMSE.DA}}, colDA, vg.Points(1), dots)
	return &Figure{Panels: [][]*plot.Plot{{p}}, Width: vg.Centimeter * 22, Height: vg.Centimeter * 14}
}

package experiments

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
)

// OverlapProtocol is one way of fitting the models of the labels-per-object
// experiment.
type OverlapProtocol struct {
	// Name describes the protocol in tables and figure titles.
	Name string
	// File is the base name of its figure, such as "overlap".
	File string
	// Settings are the fit settings (Threads is set by the experiment).
	Settings model.Settings
}

// OverlapSettings describes the labels-per-object experiment of the paper's
// figure on the Duchenne smiles data: for every n, at most n labels are
// drawn for every object, LA-GLAD and DA-GLAD are fitted on the subsample
// and scored on the gold labels.
type OverlapSettings struct {
	// Dataset is the shipped data set; empty means "duchenne".
	Dataset string
	// Ns are the caps n on the number of labels per object.
	Ns []int
	// Draws is the number of random subsamples per n (the paper: 10).
	Draws int
	// Seed seeds the subsamples and the tie-breaking.
	Seed uint64
	// Protocols are the fit settings compared.
	Protocols []OverlapProtocol
	// Threads is the number of fits run at the same time.
	Threads int
}

// OverlapSettingsFor returns the settings Run uses: Duchenne smiles,
// n = 3, ..., 20, 10 draws each, fitted with the ridge protocol (λ = 1, to
// convergence) and without penalty (the maximum likelihood, which LA-GLAD
// never reaches: its parameters diverge; at most 300 iterations to keep the
// run short). With Quick: n = 3 and 14, 2 draws, lower limits.
func OverlapSettingsFor(o SharedSettings) OverlapSettings {
	c := OverlapSettings{
		Dataset: "duchenne",
		Draws:   10,
		Seed:    o.Seed,
		Protocols: []OverlapProtocol{
			{Name: "ridge λ = 1 (our protocol)", File: "overlap", Settings: model.Settings{Method: model.LBFGS, Ridge: 1, MaxIterations: 20000}},
			{Name: "no penalty, at most 300 iterations", File: "overlap_mle", Settings: model.Settings{Method: model.LBFGS, MaxIterations: 300}},
		},
		Threads: o.Threads,
	}
	for n := 3; n <= 20; n++ {
		c.Ns = append(c.Ns, n)
	}
	if o.Quick {
		c.Ns = []int{3, 14}
		c.Draws = 2
		c.Protocols[0].Settings.MaxIterations = 300
		c.Protocols[1].Settings.MaxIterations = 100
	}
	return c
}

// OverlapPoint summarises one protocol, model and n over the draws.
type OverlapPoint struct {
	// Accuracy and LogLoss hold the value of every draw.
	Accuracy, LogLoss []float64
	// Iterations holds the iterations of every fit, and Converged counts
	// the fits that stopped at an optimum.
	Iterations []int
	Converged  int
}

// Infinite returns the number of draws with an infinite log loss.
func (p OverlapPoint) Infinite() int {
	n := 0
	for _, v := range p.LogLoss {
		if math.IsInf(v, 1) {
			n++
		}
	}
	return n
}

// MedianLogLoss returns the median log loss over the draws (the mean of the
// two middle values for an even number); it is finite as long as fewer
// than half the draws are infinite.
func (p OverlapPoint) MedianLogLoss() float64 {
	v := slices.Clone(p.LogLoss)
	slices.Sort(v)
	n := len(v)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return v[n/2]
	}
	if math.IsInf(v[n/2], 1) {
		return math.Inf(1)
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// FiniteMeanLogLoss returns the mean log loss over the draws with a finite
// one (NaN if there are none).
func (p OverlapPoint) FiniteMeanLogLoss() float64 {
	var s float64
	n := 0
	for _, v := range p.LogLoss {
		if !math.IsInf(v, 0) {
			s += v
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return s / float64(n)
}

// OverlapResult holds the labels-per-object experiment.
type OverlapResult struct {
	// Settings are the experiment's settings, with defaults filled in.
	Settings OverlapSettings
	// Protocols is Settings.Protocols.
	Protocols []OverlapProtocol
	// MeanLabels[i] is the mean number of labels per object with the cap
	// Settings.Ns[i] (the same for every draw).
	MeanLabels []float64
	// Points[p][m][i] summarises protocol p, model m (0 LA-GLAD, 1
	// DA-GLAD) and cap Settings.Ns[i].
	Points [][2][]OverlapPoint
	// Gold is the number of gold objects.
	Gold int
}

// Subsample returns a data set with at most n labels of every object of d:
// for an object with more than n labels, n of them drawn uniformly without
// replacement by rng; otherwise all of them. Tasks, workers and classes,
// and so the gold labels, are those of d, and the labels keep their order.
func Subsample(d *data.Dataset, n int, rng *rand.Rand) *data.Dataset {
	out := &data.Dataset{Name: d.Name, Tasks: d.Tasks, Workers: d.Workers, Classes: d.Classes, Offsets: make([]int, len(d.Tasks)+1)}
	var idx []int
	for j := range d.Tasks {
		lo, hi := d.Offsets[j], d.Offsets[j+1]
		idx = idx[:0]
		for i := lo; i < hi; i++ {
			idx = append(idx, i)
		}
		if len(idx) > n {
			for i := range n { // partial Fisher-Yates
				r := i + rng.IntN(len(idx)-i)
				idx[i], idx[r] = idx[r], idx[i]
			}
			idx = idx[:n]
			slices.Sort(idx)
		}
		for _, i := range idx {
			out.Worker = append(out.Worker, d.Worker[i])
			out.Label = append(out.Label, d.Label[i])
		}
		out.Offsets[j+1] = len(out.Label)
	}
	return out
}

// Overlap runs the labels-per-object experiment. Draw r for the cap n uses
// the generator PCG(Seed, n·65536 + r); the same subsample is fitted by
// both models under every protocol.
func Overlap(ctx context.Context, cfg OverlapSettings, progress func(model.Progress)) (*OverlapResult, error) {
	if cfg.Dataset == "" {
		cfg.Dataset = "duchenne"
	}
	d, gold, err := datasets.Load(cfg.Dataset)
	if err != nil {
		return nil, err
	}
	res := &OverlapResult{Settings: cfg, Protocols: cfg.Protocols, Gold: gold.Len()}
	res.Points = make([][2][]OverlapPoint, len(cfg.Protocols))
	for p := range cfg.Protocols {
		for m := range 2 {
			res.Points[p][m] = make([]OverlapPoint, len(cfg.Ns))
			for i := range cfg.Ns {
				pt := &res.Points[p][m][i]
				pt.Accuracy = make([]float64, cfg.Draws)
				pt.LogLoss = make([]float64, cfg.Draws)
				pt.Iterations = make([]int, cfg.Draws)
			}
		}
	}
	converged := make([][2][][]bool, len(cfg.Protocols))
	for p := range converged {
		for m := range 2 {
			converged[p][m] = make([][]bool, len(cfg.Ns))
			for i := range cfg.Ns {
				converged[p][m][i] = make([]bool, cfg.Draws)
			}
		}
	}
	var jobs []job
	k := d.NumClasses()
	for i, n := range cfg.Ns {
		var mean float64
		for r := range cfg.Draws {
			s := Subsample(d, n, rand.New(rand.NewPCG(cfg.Seed, uint64(n)<<16|uint64(r))))
			mean = s.Stats().LabelsPerTask
			for p, proto := range cfg.Protocols {
				for m := range 2 {
					mod := glad(m)
					set := proto.Settings
					set.Threads = threadsPerFit(cfg.Threads)
					pt := &res.Points[p][m][i]
					conv := &converged[p][m][i][r]
					jobs = append(jobs, job{
						name: fmt.Sprintf("%s n=%d draw %d %s", proto.File, n, r, modelNames[m]),
						cost: float64(s.NumLabels()) * float64(max(set.MaxIterations, 1000)) * 1e-6 / max(set.Ridge, 0.1),
						run: func() error {
							fit, err := mod.Fit(ctx, s, &set)
							if err != nil {
								return err
							}
							if pt.Accuracy[r], err = metrics.Accuracy(fit.Probs, k, gold, cfg.Seed); err != nil {
								return err
							}
							if pt.LogLoss[r], err = metrics.LogLoss(fit.Probs, k, gold); err != nil {
								return err
							}
							pt.Iterations[r] = fit.Iterations
							*conv = fit.Converged
							return nil
						},
					})
				}
			}
		}
		res.MeanLabels = append(res.MeanLabels, mean)
	}
	if err := runJobs(ctx, cfg.Threads, jobs, progress); err != nil {
		return nil, err
	}
	for p := range cfg.Protocols {
		for m := range 2 {
			for i := range cfg.Ns {
				for _, c := range converged[p][m][i] {
					if c {
						res.Points[p][m][i].Converged++
					}
				}
			}
		}
	}
	return res, nil
}

// Markdown returns overlap.md: one table per protocol.
func (r *OverlapResult) Markdown() string {
	cfg := r.Settings
	var b strings.Builder
	b.WriteString("## Labels per object (paper figure on Duchenne smiles)\n\n")
	fmt.Fprintf(&b, "Data set %s (%d gold objects). For every cap n, %d random subsamples keep at most n labels of every object "+
		"(all of them if it has no more); LA-GLAD and DA-GLAD are fitted on each and scored on the gold objects. "+
		"Accuracy: mean over the draws. Log loss: a draw is ∞ when the model gives probability exactly 0 to some gold class, "+
		"so we report the median over the draws (finite while fewer than half the draws are infinite; this is what the figures plot), "+
		"the number of infinite draws and the mean over the finite draws.\n\n", cfg.Dataset, r.Gold, cfg.Draws)
	for p, proto := range r.Protocols {
		fmt.Fprintf(&b, "### %s\n\n", proto.Name)
		fmt.Fprintf(&b, "Settings: %s. Figure: %s.png.\n\n", describeSettings(proto.Settings), proto.File)
		t := newTable("n", "labels/object", "acc LA", "acc DA", "log loss LA (median)", "log loss DA (median)",
			"∞ draws LA", "∞ draws DA", "finite mean LA", "finite mean DA", "optimum reached LA, DA")
		for i, n := range cfg.Ns {
			la, da := r.Points[p][0][i], r.Points[p][1][i]
			ma, _ := meanSD(la.Accuracy)
			md, _ := meanSD(da.Accuracy)
			t.add(strconv.Itoa(n), num(r.MeanLabels[i], 2), num(100*ma, 2), num(100*md, 2),
				num(la.MedianLogLoss(), 3), num(da.MedianLogLoss(), 3),
				fmt.Sprintf("%d/%d", la.Infinite(), len(la.LogLoss)), fmt.Sprintf("%d/%d", da.Infinite(), len(da.LogLoss)),
				num(la.FiniteMeanLogLoss(), 3), num(da.FiniteMeanLogLoss(), 3),
				fmt.Sprintf("%d/%d, %d/%d", la.Converged, len(la.LogLoss), da.Converged, len(da.LogLoss)))
		}
		b.WriteString(t.String())
		b.WriteString("\n")
	}
	return b.String()
}

// describeSettings returns a short description of fit settings.
func describeSettings(s model.Settings) string {
	it := s.MaxIterations
	if it == 0 {
		it = 1000
	}
	out := fmt.Sprintf("%s, at most %d iterations", s.Method, it)
	if s.Ridge > 0 {
		out += fmt.Sprintf(", ridge λ = %g", s.Ridge)
	} else {
		out += ", no penalty"
	}
	return out
}

// WriteCSV writes overlap.csv: one row per protocol, cap, draw and model.
func (r *OverlapResult) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"protocol", "n", "labels_per_object", "draw", "model", "accuracy", "log_loss", "iterations"})
	for p, proto := range r.Protocols {
		for i, n := range r.Settings.Ns {
			for d := range r.Settings.Draws {
				for m := range 2 {
					pt := r.Points[p][m][i]
					cw.Write([]string{proto.File, strconv.Itoa(n), csvNum(r.MeanLabels[i]), strconv.Itoa(d), modelNames[m],
						csvNum(pt.Accuracy[d]), csvNum(pt.LogLoss[d]), strconv.Itoa(pt.Iterations[d])})
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// Figure returns the figure of protocol p: accuracy and median log loss
// against the mean number of labels per object, LA-GLAD as red squares and
// DA-GLAD as green dots, as in the paper.
func (r *OverlapResult) Figure(p int) *Figure {
	proto := r.Protocols[p]
	title := "Duchenne smiles"
	if r.Settings.Dataset != "duchenne" {
		title = r.Settings.Dataset
	}
	acc := newPlot(fmt.Sprintf("%s, %s: accuracy", title, proto.Name), "mean number of labels per object", fmt.Sprintf("accuracy (mean of %d draws)", r.Settings.Draws))
	ll := newPlot(fmt.Sprintf("%s, %s: log loss", title, proto.Name), "mean number of labels per object", fmt.Sprintf("log loss (median of %d draws)", r.Settings.Draws))
	// Bottom right, raised above the DA curve: the LA curve ends at the
	// top right.
	ll.Legend.Top = false
	ll.Legend.Left = false
	ll.Legend.YOffs = vg.Centimeter * 2
	acc.Legend.Top = false
	acc.Legend.Left = false
	omitted := 0
	for m := range 2 {
		var xa, xl plotter.XYs
		for i := range r.Settings.Ns {
			pt := r.Points[p][m][i]
			a, _ := meanSD(pt.Accuracy)
			xa = append(xa, plotter.XY{X: r.MeanLabels[i], Y: a})
			if v := pt.MedianLogLoss(); !math.IsInf(v, 0) {
				xl = append(xl, plotter.XY{X: r.MeanLabels[i], Y: v})
			} else {
				omitted++
			}
		}
		col, sh, name := colLA, draw.GlyphDrawer(draw.SquareGlyph{}), "LA GLAD"
		if m == 1 {
			col, sh, name = colDA, draw.CircleGlyph{}, "DA GLAD"
		}
		addLine(acc, name, xa, col, sh, false)
		if len(xl) > 0 {
			addLine(ll, name, xl, col, sh, false)
		}
	}
	if omitted > 0 {
		ll.Title.Text += fmt.Sprintf(" (%d infinite points omitted)", omitted)
	}
	return &Figure{Panels: [][]*plot.Plot{{acc, ll}}, Width: vg.Centimeter * 30, Height: vg.Centimeter * 13}
}

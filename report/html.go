package report

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/consensuslab/consensus/model"
)

// view is what the HTML template shows.
type view struct {
	Title, Subtitle     string
	Cards               []card
	Classes             []classRow
	TaskHist, WorkerHst template.URL
	HasGold             bool
	GoldN               int
	Scores              []scoreRow
	Notes               []string
	Recommended         string   // the recommended model; "" for none
	RecBasis            string   // how it was chosen
	Reliability         []figure // one panel per model
	RelBins             int      // the number of equal-count bins
	HeldOut             bool     // the ranking is by held-out log loss
	Agreement           []card
	AgreeFigs           []figure
	Quality             []figure
	LA, DA              string
	Ambiguous           []objRow
	Disagree            []objRow
	Scatter             template.URL
	Top                 int
	Footer              string
	Next                *nextView
}

type card struct{ Label, Value, Note string }

type classRow struct {
	Name, Color string
	Labels      int
	Share       string
	Width       float64
	Gold        int
}

type scoreRow struct {
	Model, Summary                             string
	Acc, AccCI, LogLoss, LogLossCI, Brier, ECE string
	LogLik, Iter, Time                         string
	Converged                                  bool
	Best                                       map[string]bool
	Note                                       int  // footnote number, 0 for none
	Rank                                       int  // rank by the recommendation, 0 for none
	Rec                                        bool // the recommended model
	HeldOut, HeldOutCI                         string
}

type figure struct {
	URI     template.URL
	Caption string
	Rec     bool // the recommended model's
}

type segment struct {
	Color, Title string
	Width        float64
}

type objRow struct {
	Rank           int
	Task, Labels   string
	DA, LA         []segment
	DAText, LAText string
	Value          string
}

// WriteHTML writes the report as one self-contained HTML page: styles and
// pictures (SVG, drawn with gonum/plot) are inlined, and nothing is fetched
// from the network. A Report that New did not make (the zero Report) or a
// nil w is an error.
func (r *Report) WriteHTML(w io.Writer) error {
	if r.d == nil || w == nil {
		return errors.New("report: a report that New did not make, or no writer")
	}
	v, err := r.view()
	if err != nil {
		return err
	}
	return page.Execute(w, v)
}

func (r *Report) view() (*view, error) {
	d, st := r.d, r.stats
	v := &view{Title: r.title, HasGold: r.gold != nil, LA: r.la, DA: r.da, Top: r.top}
	v.Recommended, v.RecBasis = r.recommended()
	v.Subtitle = fmt.Sprintf("%d tasks · %d workers · %d labels · %d classes", st.Tasks, st.Workers, st.Labels, st.Classes)
	v.Footer = "Written by consensus (github.com/consensuslab/consensus); models of Fedorova, Gusev and Serdyukov, “Latent Distribution Assumption for Unbiased and Consistent Consensus Modelling”."
	v.Cards = []card{
		{"tasks", fmt.Sprint(st.Tasks), ""},
		{"workers", fmt.Sprint(st.Workers), ""},
		{"labels", fmt.Sprint(st.Labels), ""},
		{"labels per task", fmt.Sprintf("%.1f", st.LabelsPerTask), fmt.Sprintf("%d to %d", st.MinLabelsPerTask, st.MaxLabelsPerTask)},
		{"labels per worker", fmt.Sprintf("%.1f", st.LabelsPerWorker), fmt.Sprintf("median %g", st.MedianLabelsPerWorker)},
	}
	if r.gold != nil {
		v.GoldN = r.gold.Len()
		v.Cards = append(v.Cards, card{"gold tasks", fmt.Sprint(r.gold.Len()), fmt.Sprintf("%.1f%% of the tasks", 100*float64(r.gold.Len())/float64(st.Tasks))})
	}
	if st.DuplicatePairs > 0 {
		v.Cards = append(v.Cards, card{"repeated pairs", fmt.Sprint(st.DuplicatePairs), fmt.Sprintf("%d conflicting", st.ConflictingPairs)})
	}

	// Classes.
	k := d.NumClasses()
	perClass := make([]int, k)
	for _, y := range d.Label {
		perClass[y]++
	}
	goldClass := make([]int, k)
	if r.gold != nil {
		for _, y := range r.gold.Label {
			goldClass[y]++
		}
	}
	maxShare := 0.0
	for _, n := range perClass {
		maxShare = math.Max(maxShare, float64(n)/float64(st.Labels))
	}
	for z, c := range d.Classes {
		share := float64(perClass[z]) / float64(st.Labels)
		v.Classes = append(v.Classes, classRow{Name: c, Color: cssColor(colorOf(z)), Labels: perClass[z],
			Share: fmt.Sprintf("%.1f%%", 100*share), Width: 100 * share / maxShare, Gold: goldClass[z]})
	}

	// Histograms.
	perTask := make([]int, d.NumTasks())
	for j := range perTask {
		perTask[j] = d.Offsets[j+1] - d.Offsets[j]
	}
	perWorker := make([]int, d.NumWorkers())
	for _, w := range d.Worker {
		perWorker[w]++
	}
	var err error
	for _, h := range []struct {
		counts      []int
		title, unit string
		dst         *template.URL
	}{
		{perTask, "Labels per task", "tasks", &v.TaskHist},
		{perWorker, "Labels per worker", "workers", &v.WorkerHst},
	} {
		labels, heights, binned := countHistogram(h.counts)
		x := "labels"
		if binned {
			x = "labels (bins from the value shown up to the next)"
		}
		s, e := barPlot(h.title, x, h.unit, labels, heights)
		if e != nil {
			err = e
		}
		*h.dst = template.URL(s)
	}
	if err != nil {
		return nil, err
	}

	// Comparison.
	r.scoreRows(v)
	v.Next = r.next
	if err := r.agreement(v); err != nil {
		return nil, err
	}

	// Reliability.
	if r.gold != nil {
		var curves []curve
		for _, s := range r.scores {
			res := r.res[s.Model]
			if res == nil || sameAs(s.Model) {
				continue
			}
			curves = append(curves, curve{name: s.Model, pred: res.Consensus().Scored()})
		}
		if err := r.reliability(v, curves); err != nil {
			return nil, err
		}
	}

	// Worker quality.
	for _, name := range []string{r.la, r.da} {
		q, what, ok := workerQuality(name, r.res[name])
		if !ok {
			continue
		}
		s, err := histPlot("Worker quality", what, "workers", q)
		if err != nil {
			return nil, err
		}
		v.Quality = append(v.Quality, figure{URI: template.URL(s), Caption: qualityCaption(what, q)})
	}

	// Ambiguous objects and disagreements.
	la, da := r.res[r.la], r.res[r.da]
	// Among equally ambiguous tasks, those with more labels come first.
	ambiguity := func(j int) float64 {
		return math.Round(entropy(da.Dist(j))*1e6) + float64(d.Offsets[j+1]-d.Offsets[j])/float64(d.NumLabels()+1)
	}
	for i, j := range topBy(d.NumTasks(), r.top, ambiguity) {
		v.Ambiguous = append(v.Ambiguous, r.objRow(i+1, j, la, da, fmt.Sprintf("%.3f", entropy(da.Dist(j)))))
	}
	for i, j := range topBy(d.NumTasks(), r.top, func(j int) float64 { return tv(la.Dist(j), da.Dist(j)) }) {
		v.Disagree = append(v.Disagree, r.objRow(i+1, j, la, da, fmt.Sprintf("%.3f", tv(la.Dist(j), da.Dist(j)))))
	}
	xs := make([]float64, d.NumTasks())
	ys := make([]float64, d.NumTasks())
	top := model.Argmax(la.Probs, k, r.seed)
	for j := range xs {
		xs[j], ys[j] = la.Dist(j)[top[j]], da.Dist(j)[top[j]]
	}
	s, err := scatterPlot("LA posterior against DA distribution", r.la+": posterior of its top class", r.da+": q_j of the same class", xs, ys)
	if err != nil {
		return nil, err
	}
	v.Scatter = template.URL(s)
	return v, nil
}

func qualityCaption(what string, q []float64) string {
	lo, hi, mean := math.Inf(1), math.Inf(-1), 0.0
	for _, v := range q {
		lo, hi, mean = math.Min(lo, v), math.Max(hi, v), mean+v
	}
	mean /= float64(len(q))
	return fmt.Sprintf("%s of %d workers: mean %.3g, range %.3g to %.3g.", what, len(q), mean, lo, hi)
}

// objRow describes object j for the tables of objects.
func (r *Report) objRow(rank, j int, la, da *model.Result, value string) objRow {
	return objRow{
		Rank: rank, Task: r.d.Tasks[j], Labels: r.labelCounts(j),
		DA: r.segments(da.Dist(j)), LA: r.segments(la.Dist(j)),
		DAText: r.distText(da.Dist(j)), LAText: r.distText(la.Dist(j)),
		Value: value,
	}
}

func (r *Report) segments(p []float64) []segment {
	s := make([]segment, len(p))
	for z, v := range p {
		s[z] = segment{Color: cssColor(colorOf(z)), Width: 100 * v, Title: fmt.Sprintf("%s: %.3f", r.d.Classes[z], v)}
	}
	return s
}

// distText lists the largest probabilities of p, such as "cat: 0.62 · dog: 0.38".
func (r *Report) distText(p []float64) string {
	top := topBy(len(p), 3, func(z int) float64 { return p[z] })
	var parts []string
	for _, z := range top {
		if p[z] < 0.005 && len(parts) > 0 {
			break
		}
		parts = append(parts, fmt.Sprintf("%s: %.2f", r.d.Classes[z], p[z]))
	}
	return strings.Join(parts, " · ")
}

// scoreRows fills the comparison table, marking the best value of every
// column; with a recommendation the rows follow its ranking, the
// recommended model first.
func (r *Report) scoreRows(v *view) {
	best := map[string]float64{"acc": math.Inf(-1), "ll": math.Inf(1), "brier": math.Inf(1), "ece": math.Inf(1)}
	for _, s := range r.scores {
		if s.Gold.N == 0 {
			continue
		}
		best["acc"] = math.Max(best["acc"], s.Gold.Accuracy)
		best["ll"] = math.Min(best["ll"], s.Gold.LogLoss)
		best["brier"] = math.Min(best["brier"], s.Gold.Brier)
		best["ece"] = math.Min(best["ece"], s.Gold.ECE)
	}
	notes := map[string]int{}
	rank := r.rank()
	scores := slices.Clone(r.scores)
	slices.SortStableFunc(scores, func(a, b Score) int { return orderOf(rank, a.Model) - orderOf(rank, b.Model) })
	for _, s := range scores {
		row := scoreRow{Model: s.Model, Summary: s.Summary, Converged: s.Converged, Best: map[string]bool{},
			Rank: rank[s.Model], Rec: s.Model == v.Recommended}
		if h, ok := r.heldOut(s.Model); ok {
			v.HeldOut = true
			row.HeldOut, row.HeldOutCI = num(h.Value, 4), interval([2]float64{h.Lo, h.Hi})
		}
		if s.Gold.N > 0 {
			row.Acc, row.LogLoss = num(s.Gold.Accuracy, 4), num(s.Gold.LogLoss, 4)
			row.Brier, row.ECE = num(s.Gold.Brier, 4), num(s.Gold.ECE, 4)
			row.AccCI, row.LogLossCI = interval(s.AccuracyCI), interval(s.LogLossCI)
			row.Best["acc"] = s.Gold.Accuracy == best["acc"]
			row.Best["ll"] = s.Gold.LogLoss == best["ll"]
			row.Best["brier"] = s.Gold.Brier == best["brier"]
			row.Best["ece"] = s.Gold.ECE == best["ece"]
		}
		if s.Iterations > 0 {
			if s.LogLikelihood != 0 { // 0: an estimator without a likelihood, such as mmsr
				row.LogLik = fmt.Sprintf("%.6g", s.LogLikelihood)
			}
			row.Iter = fmt.Sprint(s.Iterations)
		}
		row.Time = s.Runtime.Round(time.Millisecond).String()
		if s.Note != "" {
			n, ok := notes[s.Note]
			if !ok {
				v.Notes = append(v.Notes, s.Note)
				n = len(v.Notes)
				notes[s.Note] = n
			}
			row.Note = n
		}
		v.Scores = append(v.Scores, row)
	}
}

func interval(ci [2]float64) string {
	if math.IsNaN(ci[0]) || math.IsNaN(ci[1]) {
		return ""
	}
	return num(ci[0], 3) + "–" + num(ci[1], 3)
}

// num formats a score with the given decimals, and infinity as ∞.
func num(v float64, decimals int) string {
	if math.IsInf(v, 1) {
		return "∞"
	}
	return fmt.Sprintf("%.*f", decimals, v)
}

var page = template.Must(template.New("report").Parse(pageHTML))

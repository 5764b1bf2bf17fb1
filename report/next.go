package report

import (
	"cmp"
	"context"
	"fmt"
	"html/template"
	"slices"
	"strconv"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/consensuslab/consensus/plan"
)

// savingsLimit is the most labels for which the report replays the data
// to draw the planner's savings curve; the replay fits vb-la-ds at most
// savingsFits times per strategy.
const (
	savingsLimit = 100000
	savingsFits  = 40
)

// nextView is the section "What to label next".
type nextView struct {
	Model   string
	Stop    string
	Chosen  int // tasks the planner would label, up to the budget shown
	Certain int // tasks at or above the stopping rule
	Tasks   []nextRow
	Workers []flagRow
	Flagged int
	Savings template.URL // the savings curve, with gold
	Saving  string       // what the curve shows
}

type nextRow struct {
	Rank                     int
	Task, Label              string
	Labels                   int
	Confidence, Gain, Change string
}

type flagRow struct {
	Worker, Flag                     string
	Labels                           int
	Agreement, Accuracy, PSpam, PAdv string
}

// planNext computes the section "What to label next": the planner's first
// r.top tasks, the flagged workers and, with gold labels and at most
// savingsLimit labels, the savings curve of a replay.
func (r *Report) planNext(ctx context.Context) (*nextView, error) {
	p, err := plan.Fit(ctx, r.d, nil)
	if err != nil {
		return nil, fmt.Errorf("planning: %w", err)
	}
	const stop = 0.99
	all, err := plan.Next(p, &plan.Settings{Budget: r.d.NumTasks(), Stop: stop})
	if err != nil {
		return nil, err
	}
	v := &nextView{Model: plan.Model.Name(), Stop: strconv.FormatFloat(stop, 'g', -1, 64), Chosen: len(all), Certain: r.d.NumTasks() - len(all)}
	k := r.d.NumClasses()
	for i, pk := range all[:min(len(all), r.top)] {
		probs := p.Probs[pk.Task*k : (pk.Task+1)*k]
		v.Tasks = append(v.Tasks, nextRow{Rank: i + 1, Task: r.d.Tasks[pk.Task], Label: r.d.Classes[argmaxOf(probs)],
			Labels: r.d.Offsets[pk.Task+1] - r.d.Offsets[pk.Task], Confidence: num(pk.Confidence, 3), Gain: num(pk.Gain, 4), Change: num(pk.Change, 3)})
	}
	flags, err := plan.Flags(p, &plan.FlagSettings{Seed: r.seed})
	if err != nil {
		return nil, err
	}
	for _, w := range flagOrder(flags) {
		f := flags[w]
		if f.Flag == "" {
			continue
		}
		v.Flagged++
		if len(v.Workers) < r.top {
			v.Workers = append(v.Workers, flagRow{Worker: r.d.Workers[w], Flag: f.Flag, Labels: f.Labels, Agreement: num(f.Agreement, 3),
				Accuracy: fmt.Sprintf("%s [%s, %s]", num(f.Accuracy, 3), num(f.Lo, 3), num(f.Hi, 3)), PSpam: num(f.Spammer, 3), PAdv: num(f.Adversarial, 3)})
		}
	}
	if r.gold == nil || r.d.NumLabels() > savingsLimit {
		return v, nil
	}
	truth := plan.GoldTruth(r.d, r.gold)
	batch := max(r.d.NumTasks()/20, (r.d.NumLabels()-r.d.NumTasks())/savingsFits, 1)
	set := &plan.ReplaySettings{Batch: batch}
	u, err := plan.Replay(ctx, r.d, truth, plan.Uniform, set)
	if err != nil {
		return nil, err
	}
	pl, err := plan.Replay(ctx, r.d, truth, plan.Planned, set)
	if err != nil {
		return nil, err
	}
	target := u.Accuracy[len(u.Accuracy)-1]
	spent, frac, err := plan.Savings(pl, target)
	if err != nil {
		return nil, err
	}
	if spent >= 0 {
		v.Saving = fmt.Sprintf("Batches of %d labels. The planner reaches the accuracy of round-robin with every label (%.4f on the gold tasks) after %d of the %d labels beyond every task's first (%.0f%%).",
			batch, target, spent, pl.Spent[len(pl.Spent)-1], 100*frac)
	} else {
		v.Saving = fmt.Sprintf("Batches of %d labels. The planner does not reach the accuracy of round-robin with every label (%.4f on the gold tasks) before every label is revealed.", batch, target)
	}
	s, err := savingsPlot(u, pl, target)
	if err != nil {
		return nil, err
	}
	v.Savings = template.URL(s)
	return v, nil
}

// argmaxOf returns the index of the first largest entry of p.
func argmaxOf(p []float64) int {
	b := 0
	for i, x := range p {
		if x > p[b] {
			b = i
		}
	}
	return b
}

// savingsPlot draws accuracy against labels spent for round-robin and the
// planner, with round-robin's accuracy with every label dashed.
func savingsPlot(u, p *plan.Curve, target float64) (string, error) {
	pl := newPlot("Accuracy against labels spent", "labels revealed beyond every task's first", "accuracy on the gold tasks")
	for i, c := range []*plan.Curve{u, p} {
		xy := make(plotter.XYs, len(c.Spent))
		for j := range xy {
			xy[j].X, xy[j].Y = float64(c.Spent[j]), c.Accuracy[j]
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return "", err
		}
		l.Color = colorOf(1 - i)
		l.Width = vg.Points(1.5)
		pl.Add(l)
		pl.Legend.Add(map[int]string{0: "round-robin", 1: "planner"}[i], l)
	}
	t, err := plotter.NewLine(plotter.XYs{{X: 0, Y: target}, {X: float64(u.Spent[len(u.Spent)-1]), Y: target}})
	if err != nil {
		return "", err
	}
	t.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	t.Color = inkColor
	pl.Add(t)
	pl.Legend.Add("round-robin, every label", t)
	pl.Legend.Left, pl.Legend.Top = false, false
	pl.Legend.YOffs = vg.Points(12)
	return svgURI(pl, 6*vg.Inch, 3.2*vg.Inch)
}

// flagOrder returns the workers' indices, the most probably bad first: by
// p_bad, p_spammer + p_adversarial (the kinds are disjoint), which the
// flag reads, ties in worker order.
func flagOrder(flags []plan.WorkerFlag) []int {
	order := make([]int, len(flags))
	for w := range order {
		order[w] = w
	}
	bad := func(f plan.WorkerFlag) float64 { return f.Spammer + f.Adversarial }
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(bad(flags[b]), bad(flags[a])) })
	return order
}

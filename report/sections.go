package report

import (
	"fmt"
	"html/template"
	"image/color"
	"math"
	"slices"

	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
)

// curve is what a model's reliability panel is drawn from: its name and
// the probabilities it is scored with.
type curve struct {
	name string
	pred []float64
}

// reliability fills the calibration section: one panel per model, in the
// order of the comparison table, the recommended model's in the accent
// colour and the others in grey.
func (r *Report) reliability(v *view, curves []curve) error {
	k := r.d.NumClasses()
	bins := reliabilityBins(r.gold.Len())
	v.RelBins = bins
	ece := make(map[string]float64)
	for _, s := range r.scores {
		ece[s.Model] = s.Gold.ECE
	}
	rank := r.rank()
	slices.SortStableFunc(curves, func(a, b curve) int { return orderOf(rank, a.name) - orderOf(rank, b.name) })
	panels := make([]panel, len(curves))
	for i, c := range curves {
		conf := make([]float64, r.gold.Len())
		right := make([]bool, r.gold.Len())
		for g, j := range r.gold.Task {
			row := c.pred[int(j)*k : int(j+1)*k]
			top := 0
			for z := range row {
				if row[z] > row[top] {
					top = z
				}
			}
			conf[g], right[g] = row[top], top == int(r.gold.Label[g])
		}
		col := color.RGBA{0x6b, 0x76, 0x84, 0xff}
		if c.name == v.Recommended {
			col = accentColor
		}
		title := c.name
		if e, ok := ece[c.name]; ok && !math.IsNaN(e) {
			title += fmt.Sprintf(" · ECE %.3f", e)
		}
		panels[i] = panel{title: title, bins: equalCountBins(conf, right, bins), color: col}
	}
	uris, err := reliabilityPanels(panels)
	if err != nil {
		return err
	}
	for i, u := range uris {
		v.Reliability = append(v.Reliability, figure{URI: template.URL(u), Caption: curves[i].name, Rec: curves[i].name == v.Recommended})
	}
	return nil
}

// orderOf returns the rank of a model in the recommendation's ranking, or
// a number past every rank for a model it does not rank.
func orderOf(rank map[string]int, name string) int {
	if n, ok := rank[name]; ok {
		return n
	}
	return len(rank) + 1
}

// agreement fills the section on the agreement of the labels: Krippendorff's
// alpha, the entropy of every task's label frequencies, every worker's
// agreement with the consensus of the recommended model (or of the default
// model, or of the first model compared) and the mean consistency with it.
func (r *Report) agreement(v *view) error {
	d := r.d
	alpha, err := metrics.KrippendorffAlpha(d)
	if err != nil {
		return err
	}
	h, err := metrics.TaskEntropy(d)
	if err != nil {
		return err
	}
	lnK := math.Log(float64(d.NumClasses()))
	var norm []float64
	unanimous := 0
	for _, x := range h {
		if math.IsNaN(x) {
			continue
		}
		norm = append(norm, x/lnK)
		if x == 0 {
			unanimous++
		}
	}
	v.Agreement = append(v.Agreement,
		card{"Krippendorff's alpha", num(alpha, 3), "1 is full agreement, 0 chance level"},
		card{"mean task entropy", num(mean(norm), 3), "of label frequencies, in base K"},
		card{"unanimous tasks", fmt.Sprintf("%.1f%%", 100*float64(unanimous)/float64(len(norm))), fmt.Sprintf("%d of %d", unanimous, len(norm))},
	)
	s, err := histPlot("Task entropy", "entropy of the label frequencies (base K)", "tasks", norm)
	if err != nil {
		return err
	}
	v.AgreeFigs = append(v.AgreeFigs, figure{URI: template.URL(s), Caption: "Entropy of each task's label frequencies, divided by ln K: 0 when the labels agree, 1 when they are spread evenly over the classes."})

	name := v.Recommended
	if r.res[name] == nil {
		name = model.DefaultModel
	}
	if r.res[name] == nil {
		name = r.scores[0].Model
	}
	res := r.res[name]
	if res == nil {
		return nil
	}
	labels := res.Labels(r.seed)
	agree, n, err := metrics.WorkerAgreement(d, labels)
	if err != nil {
		return err
	}
	var vals []float64
	var right, total float64
	for w, a := range agree {
		if n[w] > 0 {
			vals = append(vals, a)
			right += a * float64(n[w])
			total += float64(n[w])
		}
	}
	v.Agreement = append(v.Agreement, card{"labels equal to the consensus", fmt.Sprintf("%.1f%%", 100*right/total), "consensus of " + name})
	var cons []float64
	consistency, err := metrics.Consistency(d, labels, agree)
	if err != nil {
		return err
	}
	for _, c := range consistency {
		if !math.IsNaN(c) {
			cons = append(cons, c)
		}
	}
	v.Agreement = append(v.Agreement, card{"consistency", num(mean(cons), 3), "mean posterior of the " + name + " label given the workers' agreement (Crowd-Kit's)"})
	s, err = histPlot("Worker agreement with the consensus", "share of the worker's labels equal to the "+name+" consensus", "workers", vals)
	if err != nil {
		return err
	}
	v.AgreeFigs = append(v.AgreeFigs, figure{URI: template.URL(s), Caption: fmt.Sprintf("For each of %d workers, the share of their labels that equal the consensus label of %s (Crowd-Kit's accuracy_on_aggregates).", len(vals), name)})
	return nil
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

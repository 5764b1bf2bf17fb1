// Command planbench measures what the planner of 'consensus next' saves:
// it replays data sets (the shipped ones, and simulated crowds) by the
// planner and by round-robin, prints a Markdown table of the labels the
// planner needs to reach round-robin's accuracy with every label, and
// draws accuracy against labels spent for both. scripts/planning-bench.sh
// runs it; docs/planning.md shows its output.
package main

import (
	"context"
	"flag"
	"fmt"
	"image/color"
	"log"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/plan"
)

func main() {
	names := flag.String("datasets", "rte,temp,duchenne,websearch,adult", "comma-separated shipped data sets to replay")
	sims := flag.String("sims", "2:1,2:2,5:1,5:2", "simulated crowds K:seed (1000 tasks, 100 workers, 10 labels a task, 10% spammers, 5% adversaries)")
	reveal := flag.Int("reveal", 1, "labels of every task revealed before any is spent")
	simReveal := flag.Int("sim-reveal", 2, "labels revealed first in the simulated crowds")
	batch := flag.Float64("batch", 0.05, "labels revealed between two fits, as a fraction of the tasks")
	out := flag.String("plots", "", "directory for the plots (planning_NAME.png); empty: none")
	flag.Float64Var(&planSet.Stop, "stop", 0, "the planner's stopping rule (plan.Settings.Stop; 0: its default)")
	flag.IntVar(&planSet.Lookahead, "lookahead", 0, "the planner's lookahead (plan.Settings.Lookahead; 0: its default)")
	flag.Parse()
	log.SetFlags(0)
	fmt.Println("| data set | tasks | labels | reveal | uniform, all labels | planner reaches it at | fraction of the labels beyond the first | planner within 0.005 at |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, name := range split(*names) {
		d, g, err := datasets.Load(name)
		if err != nil {
			log.Fatal(err)
		}
		run(name, d, plan.GoldTruth(d, g), *reveal, *batch, *out)
	}
	for _, s := range split(*sims) {
		var k int
		var seed uint64
		if _, err := fmt.Sscanf(s, "%d:%d", &k, &seed); err != nil {
			log.Fatalf("-sims %q: want K:seed", s)
		}
		c, err := plan.Crowd{Tasks: 1000, Workers: 100, Classes: k, LabelsPerTask: 10, Spammers: 0.1, Adversaries: 0.05, Seed: seed}.Simulate()
		if err != nil {
			log.Fatal(err)
		}
		run(fmt.Sprintf("sim-K%d-seed%d", k, seed), c.Data, c.Truth, *simReveal, *batch, *out)
	}
}

// planSet holds the planner's settings of every replay.
var planSet plan.Settings

// split splits a comma-separated list, without empty items.
func split(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// run replays d both ways, prints its row and draws its plot.
func run(name string, d *data.Dataset, truth []int, reveal int, batch float64, dir string) {
	set := &plan.ReplaySettings{Reveal: reveal, Batch: max(int(batch*float64(d.NumTasks())), 1), Plan: planSet}
	ctx := context.Background()
	u, err := plan.Replay(ctx, d, truth, plan.Uniform, set)
	if err != nil {
		log.Fatal(err)
	}
	p, err := plan.Replay(ctx, d, truth, plan.Planned, set)
	if err != nil {
		log.Fatal(err)
	}
	target := u.Accuracy[len(u.Accuracy)-1]
	spent, frac, err := plan.Savings(p, target)
	if err != nil {
		log.Fatal(err)
	}
	_, near, err := plan.Savings(p, target-0.005)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("| %s | %d | %d | %d | %.4f | %d | %.2f | %.2f |\n", name, d.NumTasks(), d.NumLabels(), reveal, target, spent, frac, near)
	if dir != "" {
		if err := draw2(filepath.Join(dir, "planning_"+name+".png"), name, u, p, target); err != nil {
			log.Fatal(err)
		}
	}
}

// draw2 plots the two curves and the target.
func draw2(path, name string, u, p *plan.Curve, target float64) error {
	pl := plot.New()
	pl.Title.Text = name + ": accuracy against labels spent"
	pl.X.Label.Text = "labels beyond the first per task"
	pl.Y.Label.Text = "accuracy"
	pl.Add(plotter.NewGrid())
	for i, c := range []*plan.Curve{u, p} {
		xy := make(plotter.XYs, len(c.Spent))
		for j := range xy {
			xy[j].X, xy[j].Y = float64(c.Spent[j]), c.Accuracy[j]
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return err
		}
		l.Color = []color.Color{color.RGBA{0xe0, 0x7b, 0x39, 0xff}, color.RGBA{0x2f, 0x6f, 0xb5, 0xff}}[i]
		l.Width = vg.Points(1.5)
		pl.Add(l)
		pl.Legend.Add(c.Strategy, l)
	}
	last := float64(u.Spent[len(u.Spent)-1])
	t, err := plotter.NewLine(plotter.XYs{{X: 0, Y: target}, {X: last, Y: target}})
	if err != nil {
		return err
	}
	t.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	t.Color = color.Gray{0x80}
	pl.Add(t)
	pl.Legend.Add("uniform, all labels", t)
	pl.Legend.Left, pl.Legend.Top = false, false
	pl.Legend.YOffs = vg.Points(10)
	pl.Y.Min = max(0, minOf(u.Accuracy[len(u.Accuracy)/10:])-0.02)
	pl.Y.Max = 1
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return pl.Save(6*vg.Inch, 3.6*vg.Inch, path)
}

// minOf returns the smallest value of x.
func minOf(x []float64) float64 {
	m := x[0]
	for _, v := range x {
		m = min(m, v)
	}
	return m
}

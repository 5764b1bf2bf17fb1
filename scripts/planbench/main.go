// Command planbench measures what the planner of 'consensus next' saves:
// it replays data sets (the shipped ones, and recorded simulated crowds)
// by the planner and by round-robin, prints a Markdown table of the labels
// the planner needs to reach round-robin's accuracy with every label, and
// draws accuracy against labels spent for both. It then runs interactive
// simulations (plan.Simulation), where the planner may ask any worker of
// a simulated crowd, with every worker available and with a random part
// of them available in every batch, and prints their table and plots.
// scripts/planning-bench.sh runs it; docs/planning.md shows its output.
package main

import (
	"context"
	"flag"
	"fmt"
	"image/color"
	"log"
	"math"
	"os"
	"path/filepath"
	"slices"
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
	sims := flag.String("sims", "2:1,2:2,5:1,5:2", "simulated crowds K:seed or K:first-last (1000 tasks, 100 workers, 10 labels a task, 10% spammers, 5% adversaries)")
	reveal := flag.Int("reveal", 1, "labels of every task revealed before any is spent")
	simReveal := flag.Int("sim-reveal", 2, "labels revealed first in the simulated crowds")
	batch := flag.Float64("batch", 0.05, "labels revealed between two fits, as a fraction of the tasks")
	out := flag.String("plots", "", "directory for the plots (planning_NAME.png); empty: none")
	asks := flag.String("ask", "2:1-6,5:1-6", "interactive simulations K:seed or K:first-last (the crowds of -sims)")
	askPlots := flag.String("ask-plots", "2:1,5:1", "interactive simulations K:seed drawn under -plots")
	available := flag.Float64("available", 0.2, "the fraction of the workers available in every batch of the pool-restricted planner")
	perWorker := flag.Int("per-worker", 5, "labels a worker of the restricted pool gives in one batch at most")
	flag.Float64Var(&planSet.Stop, "stop", 0, "the planner's stopping rule (plan.Settings.Stop; 0: its default)")
	flag.IntVar(&planSet.Lookahead, "lookahead", 0, "the planner's lookahead (plan.Settings.Lookahead; 0: its default)")
	flag.Parse()
	log.SetFlags(0)
	if len(split(*names))+len(split(*sims)) > 0 {
		fmt.Println("| data set | tasks | labels | reveal | uniform, all labels | planner reaches it at | fraction of the labels beyond the first | planner within 0.005 at |")
		fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	}
	for _, name := range split(*names) {
		d, g, err := datasets.Load(name)
		if err != nil {
			log.Fatal(err)
		}
		run(name, d, plan.GoldTruth(d, g), *reveal, *batch, *out)
	}
	for _, ks := range crowds(*sims) {
		k, seed := ks[0], uint64(ks[1])
		c, err := plan.Crowd{Tasks: 1000, Workers: 100, Classes: k, LabelsPerTask: 10, Spammers: 0.1, Adversaries: 0.05, Seed: seed}.Simulate()
		if err != nil {
			log.Fatal(err)
		}
		run(fmt.Sprintf("sim-K%d-seed%d", k, seed), c.Data, c.Truth, *simReveal, *batch, *out)
	}
	if len(crowds(*asks)) == 0 {
		return
	}
	fmt.Println()
	fmt.Printf("| crowd | uniform, all labels | every worker: planner reaches it at | share | stopped at | %g of the workers, %d labels each: reaches it at | share | stopped at |\n", *available, *perWorker)
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	drawn := map[[2]int]bool{}
	for _, ks := range crowds(*askPlots) {
		drawn[ks] = true
	}
	var shares [2][]float64
	for _, ks := range crowds(*asks) {
		k, seed := ks[0], uint64(ks[1])
		c, err := plan.Crowd{Tasks: 1000, Workers: 100, Classes: k, LabelsPerTask: 10, Spammers: 0.1, Adversaries: 0.05, Seed: seed}.Simulate()
		if err != nil {
			log.Fatal(err)
		}
		dir := ""
		if drawn[ks] {
			dir = *out
		}
		f := ask(fmt.Sprintf("ask-K%d-seed%d", k, seed), c, seed, *simReveal, *batch, *available, *perWorker, dir)
		shares[0], shares[1] = append(shares[0], f[0]), append(shares[1], f[1])
	}
	fmt.Printf("\nmedian share (never: 1): every worker %.2f, %g of the workers %.2f\n", median(shares[0]), *available, median(shares[1]))
}

// crowds parses a comma-separated list of crowds, K:seed or
// K:first-last (every seed from first to last).
func crowds(list string) [][2]int {
	var out [][2]int
	for _, s := range split(list) {
		var k, first, last int
		if n, _ := fmt.Sscanf(s, "%d:%d-%d", &k, &first, &last); n == 2 {
			last = first
		} else if n != 3 {
			log.Fatalf("%q: want K:seed or K:first-last", s)
		}
		for seed := first; seed <= last; seed++ {
			out = append(out, [2]int{k, seed})
		}
	}
	return out
}

// ask runs the interactive simulation of c by round-robin and by the
// planner with every worker and with a restricted pool, prints its row,
// draws its plot and returns the planner's two shares.
func ask(name string, c *plan.Simulated, seed uint64, reveal int, batch, available float64, perWorker int, dir string) [2]float64 {
	ctx := context.Background()
	set := plan.SimSettings{Reveal: reveal, Batch: max(int(batch*float64(c.Data.NumTasks())), 1), Plan: planSet, Seed: seed}
	u, err := plan.Simulation(ctx, c, plan.Uniform, &set)
	if err != nil {
		log.Fatal(err)
	}
	row := fmt.Sprintf("| %s | %.4f |", name, u.Accuracy[len(u.Accuracy)-1])
	var curves []*plan.Curve
	var shares [2]float64
	for i, pool := range []float64{0, available} {
		s := set
		if pool > 0 {
			s.Available, s.PerWorker = pool, perWorker
		}
		p, err := plan.Simulation(ctx, c, plan.Planned, &s)
		if err != nil {
			log.Fatal(err)
		}
		spent, frac, err := plan.SavingsAgainst(p, u, 0)
		if err != nil {
			log.Fatal(err)
		}
		reached, share, stopped := "never", "-", "-"
		if spent >= 0 {
			reached, share = fmt.Sprint(spent), fmt.Sprintf("%.2f", frac)
		}
		if p.Stopped >= 0 {
			stopped = fmt.Sprint(p.Stopped)
		}
		row += fmt.Sprintf(" %s | %s | %s |", reached, share, stopped)
		if pool > 0 {
			p.Strategy = fmt.Sprintf("planner, %g of the workers", pool)
		} else {
			p.Strategy = "planner, every worker"
		}
		curves = append(curves, p)
		shares[i] = frac
	}
	fmt.Println(row)
	if dir != "" {
		if err := draw(filepath.Join(dir, "planning_"+name+".png"), name, u.Accuracy[len(u.Accuracy)-1], append([]*plan.Curve{u}, curves...)...); err != nil {
			log.Fatal(err)
		}
	}
	return shares
}

// median returns the median of x.
func median(x []float64) float64 {
	y := slices.Clone(x)
	slices.Sort(y)
	n := len(y)
	if n == 0 {
		return math.NaN()
	}
	return (y[(n-1)/2] + y[n/2]) / 2
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
		if err := draw(filepath.Join(dir, "planning_"+name+".png"), name, target, u, p); err != nil {
			log.Fatal(err)
		}
	}
}

// draw plots the curves and the target, uniform's first.
func draw(path, name string, target float64, curves ...*plan.Curve) error {
	u := curves[0]
	pl := plot.New()
	pl.Title.Text = name + ": accuracy against labels spent"
	pl.X.Label.Text = "labels beyond the first per task"
	pl.Y.Label.Text = "accuracy"
	pl.Add(plotter.NewGrid())
	colors := []color.Color{color.RGBA{0xe0, 0x7b, 0x39, 0xff}, color.RGBA{0x2f, 0x6f, 0xb5, 0xff}, color.RGBA{0x3a, 0x9a, 0x4a, 0xff}}
	for i, c := range curves {
		xy := make(plotter.XYs, len(c.Spent))
		for j := range xy {
			xy[j].X, xy[j].Y = float64(c.Spent[j]), c.Accuracy[j]
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return err
		}
		l.Color = colors[i%len(colors)]
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

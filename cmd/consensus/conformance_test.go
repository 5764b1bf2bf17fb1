package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/crowdkit"
	"github.com/consensuslab/consensus/output"
)

// conformanceData writes the data of TestRegistryConformance to dir: labels
// of two classes (l2.csv) and of three (l3.csv), each with gold for a third
// of its tasks (g2.csv, g3.csv), and multi-label data (ml.csv: l2.csv's
// labels, every other one with a second class x).
func conformanceData(t *testing.T, dir string) {
	t.Helper()
	for _, k := range []string{"2", "3"} {
		if r := runIn(t, dir, "", "simulate", "-m", "la-ds", "--objects", "30", "--workers", "6", "--classes", k,
			"--labels-per-object", "4", "--seed", "1", "-o", "l"+k+".csv", "--truth", "truth"+k+".csv"); r.code != 0 {
			t.Fatal(r.stderr)
		}
		truth, err := os.ReadFile(filepath.Join(dir, "truth"+k+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		gold := []string{"task,label"}
		for i, line := range strings.Split(strings.TrimSpace(string(truth)), "\n")[1:] {
			if i%3 == 0 {
				f := strings.Split(line, ",")
				gold = append(gold, f[0]+","+f[1])
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "g"+k+".csv"), []byte(strings.Join(gold, "\n")+"\n"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	labels, err := os.ReadFile(filepath.Join(dir, "l2.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(labels)), "\n")
	for i := 1; i < len(lines); i += 2 {
		lines[i] += "|x"
	}
	if err := os.WriteFile(filepath.Join(dir, "ml.csv"), []byte(strings.Join(lines, "\n")+"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
}

// conformanceFlag is a flag of fit that a capability allows: the value it
// takes when accepted, and whether the capabilities c allow it.
type conformanceFlag struct {
	args  []string
	allow func(c model.Capabilities) bool
}

var conformanceFlags = []conformanceFlag{
	{[]string{"--workers", "w.csv"}, func(c model.Capabilities) bool { return c.WorkerParams }},
	{[]string{"--tasks", "t.csv"}, func(c model.Capabilities) bool { return c.TaskParams }},
	{[]string{"--train-gold", "g2.csv"}, func(c model.Capabilities) bool { return c.TrainGold }},
	{[]string{"--glad-prior", "1"}, model.HasPrior("glad-prior")},
	{[]string{"--q-prior", "0.5"}, model.HasPrior("q-prior")}, // the default: the model keeps its name
	{[]string{"--solver", "lbfgs"}, model.ReadsSetting("solver")},
	{[]string{"--max-iter", "30"}, model.ReadsSetting("max-iter")},
	{[]string{"--grad-tol", "1e-6"}, model.ReadsSetting("grad-tol")},
	{[]string{"--func-tol", "1e-6"}, model.ReadsSetting("func-tol")},
	{[]string{"--ridge", "0.01"}, model.ReadsSetting("ridge")},
	{[]string{"--staged"}, model.HasPrior("q-prior")},
	{[]string{"--tol", "1e-8"}, implements[crowdkit.Tolerancer]},
	{[]string{"--random-state", "3"}, implements[crowdkit.RandomStarter]},
	{[]string{"--skills", "skills.csv"}, func(c model.Capabilities) bool { return c.Skills }},
}

// implements reports whether the estimator registered as c.Name is an I:
// the flags of the Crowd-Kit methods' own capabilities, which
// model.Capabilities does not list.
func implements[I any](c model.Capabilities) bool {
	est, err := model.ByName(c.Name)
	_, ok := est.(I)
	return err == nil && ok
}

// TestRegistryConformance runs every registered model (model.Registry, the
// vb-* forms included) through fit with every flag its capabilities
// (model.Describe) allow, all at once, and checks the outputs: the
// consensus table (with q_<class> columns for a model with both answers),
// the worker and task tables, the summary naming the model. Every flag its
// capabilities do not allow is refused alone, with exit status 2, one line
// and no output file. It then checks --init-workers with --fix-workers
// from the fit's own worker table, --strict (an unconverged fit exits 1
// and writes nothing), a number of classes the model does not support, and
// the other commands that take a model: simulate (only a generative
// model), agreement, compare and report (without -short).
func TestRegistryConformance(t *testing.T) {
	dir := t.TempDir()
	conformanceData(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "skills.csv"), []byte("worker,skill\nw0,1\nw1,2\nw2,1\nw3,1\nw4,3\nw5,1\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, c := range model.DescribeAll() {
		t.Run(c.Name, func(t *testing.T) {
			wd := t.TempDir()
			for _, f := range []string{"l2.csv", "l3.csv", "g2.csv", "g3.csv", "ml.csv", "skills.csv"} {
				if err := os.Symlink(filepath.Join(dir, f), filepath.Join(wd, f)); err != nil {
					t.Fatal(err)
				}
			}
			conformFit(t, wd, c)
			conformRefusals(t, wd, c)
			conformStrict(t, wd, c)
			conformCommands(t, wd, c)
		})
	}
}

// conformFit fits c on two classes with every flag its capabilities allow
// and checks the outputs.
func conformFit(t *testing.T, wd string, c model.Capabilities) {
	t.Helper()
	args := []string{"fit", "l2.csv", "-m", c.Name, "-q", "-o", "c.csv", "--summary", "s.json"}
	for _, f := range conformanceFlags {
		if f.allow(c) && f.args[0] != "--skills" {
			args = append(args, f.args...)
		}
	}
	r := runIn(t, wd, "", args...)
	if r.code != 0 {
		t.Fatalf("%s: exit %d, stderr %q", strings.Join(args, " "), r.code, r.stderr)
	}
	out, err := os.ReadFile(filepath.Join(wd, "c.csv"))
	if err != nil {
		t.Fatal(err)
	}
	header := strings.SplitN(string(out), "\n", 2)[0]
	want := "task,label,p_0,p_1"
	if c.Both {
		want += ",q_0,q_1"
	}
	if header != want || strings.Count(string(out), "\n") != 31 {
		t.Errorf("consensus header %q and %d lines, want %q and 31", header, strings.Count(string(out), "\n"), want)
	}
	if r := runIn(t, wd, "", "eval", "-p", "c.csv", "--gold", "g2.csv"); r.code != 0 || !strings.Contains(r.stdout, "accuracy") {
		t.Errorf("eval of the fit: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	var s output.Summary
	if b, err := os.ReadFile(filepath.Join(wd, "s.json")); err != nil || json.Unmarshal(b, &s) != nil {
		t.Fatalf("summary: %v %s", err, b)
	}
	// --staged fits the staged form, which the summary names after the
	// model asked for.
	if s.Requested != c.Name || s.Model != c.Name && s.Model != c.Name+" (staged)" || s.Tasks != 30 || s.Classes != 2 || (s.LogLikelihood != nil) != (c.Solver != "" || c.Variational) {
		t.Errorf("summary %+v", s)
	}
	for _, f := range []struct {
		path string
		want bool
	}{{"w.csv", c.WorkerParams}, {"t.csv", c.TaskParams}} {
		if _, err := os.Stat(filepath.Join(wd, f.path)); (err == nil) != f.want {
			t.Errorf("%s written: %v, want %v", f.path, err == nil, f.want)
		}
	}
	if c.Skills {
		// Weighed by skills, the vote is another estimator (mv's), so
		// it runs alone.
		r := runIn(t, wd, "", "fit", "l2.csv", "-m", c.Name, "-q", "-o", "c3.csv", "--skills", "skills.csv")
		if r.code != 0 {
			t.Errorf("--skills skills.csv: exit %d, stderr %q", r.code, r.stderr)
		}
	}
	if c.InitWorkers {
		r := runIn(t, wd, "", "fit", "l2.csv", "-m", c.Name, "-q", "-o", "c2.csv", "--init-workers", "w.csv", "--fix-workers")
		if r.code != 0 {
			t.Errorf("--init-workers w.csv --fix-workers: exit %d, stderr %q", r.code, r.stderr)
		}
	}
}

// conformRefusals checks that every flag c's capabilities do not allow is
// refused alone with exit status 2, one line and no output.
func conformRefusals(t *testing.T, wd string, c model.Capabilities) {
	t.Helper()
	refused := slices.Clone(conformanceFlags)
	refused = append(refused, conformanceFlag{[]string{"--init-workers", "w.csv"}, func(c model.Capabilities) bool { return c.InitWorkers }})
	for _, f := range refused {
		if f.allow(c) || f.args[0] == "--init-workers" && !fileExists(wd, "w.csv") {
			continue
		}
		args := append([]string{"fit", "l2.csv", "-m", c.Name, "-o", "r.csv"}, f.args...)
		if c.NeedsGold && f.args[0] != "--train-gold" {
			args = append(args, "--train-gold", "g2.csv")
		}
		r := runIn(t, wd, "", args...)
		if r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, f.args[0]) || fileExists(wd, "r.csv") {
			t.Errorf("%s: exit %d, stderr %q, want exit 2, one line naming the flag and no output", strings.Join(args, " "), r.code, r.stderr)
		}
	}
	if c.MaxClasses < 3 {
		r := runIn(t, wd, "", "fit", "l3.csv", "-m", c.Name, "-o", "r.csv")
		if r.code == 0 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || fileExists(wd, "r.csv") {
			t.Errorf("%s on 3 classes (it supports %d to %d): exit %d, stderr %q", c.Name, c.MinClasses, c.MaxClasses, r.code, r.stderr)
		}
	}
}

// conformStrict checks --strict with one iteration: a fit that did not
// converge exits 1 and writes nothing, one that did writes its output and
// says so in its summary.
func conformStrict(t *testing.T, wd string, c model.Capabilities) {
	t.Helper()
	if !slices.Contains(c.Settings, "max-iter") {
		return
	}
	r := runIn(t, wd, "", "fit", "l2.csv", "-m", c.Name, "-q", "--max-iter", "1", "--strict", "-o", "x.csv", "--summary", "x.json")
	switch r.code {
	case 1:
		if fileExists(wd, "x.csv") || fileExists(wd, "x.json") || !strings.Contains(r.stderr, "did not converge") {
			t.Errorf("--strict, exit 1: stderr %q, or an output written", r.stderr)
		}
	case 0:
		b, _ := os.ReadFile(filepath.Join(wd, "x.json"))
		var s output.Summary
		if json.Unmarshal(b, &s) != nil || !s.Converged {
			t.Errorf("--strict, exit 0: summary %s does not say the fit converged", b)
		}
	default:
		t.Errorf("--strict: exit %d, stderr %q", r.code, r.stderr)
	}
}

// conformCommands runs the other commands that take a model: simulate
// succeeds exactly for a generative model; agreement, fit with Crowd-Kit's
// layout and evaluation on gold, bench, multilabel, and without -short
// compare and report, succeed for a model that can fit the data without
// training gold, and refuse the others with one line; compare reports such
// a model's row as failed and ranks the others. --train-fraction is taken
// exactly by a model that can train on gold.
func conformCommands(t *testing.T, wd string, c model.Capabilities) {
	t.Helper()
	r := runIn(t, wd, "", "simulate", "-m", c.Name, "--objects", "5", "--workers", "3", "--seed", "1", "-o", "sim.csv")
	if (r.code == 0) != c.Generative || r.code != 0 && r.code != 2 {
		t.Errorf("simulate: exit %d (generative: %v), stderr %q", r.code, c.Generative, r.stderr)
	}
	runs := [][]string{
		{"agreement", "l2.csv", "-m", c.Name},
		{"fit", "l2.csv", "-m", c.Name, "-q", "-o", "ck.csv", "--layout", "crowdkit", "--gold", "g2.csv"},
		{"bench", "--model", c.Name, "--labels", "500"},
		{"multilabel", "ml.csv", "-m", c.Name, "-q", "-o", "ml-out.csv"},
	}
	if !testing.Short() {
		runs = append(runs,
			[]string{"compare", "l2.csv", "--gold", "g2.csv", "--models", c.Name, "--bootstrap", "1", "--output-format", "csv"},
			[]string{"report", "l2.csv", "--models", c.Name, "--no-recommendation", "-o", "r.html"})
	}
	r = runIn(t, wd, "", "fit", "l2.csv", "-m", c.Name, "-q", "-o", "tf.csv", "--gold", "g2.csv", "--train-fraction", "0.5")
	if (r.code == 0) != c.TrainGold || r.code != 0 && (r.code != 2 || !strings.Contains(r.stderr, "--train-fraction") || fileExists(wd, "tf.csv")) {
		t.Errorf("--train-fraction: exit %d (trains on gold: %v), stderr %q", r.code, c.TrainGold, r.stderr)
	}
	for _, args := range runs {
		r := runIn(t, wd, "", args...)
		ok := r.code == 0
		switch {
		case c.NeedsGold && args[0] == "compare":
			ok = ok && strings.Contains(r.stderr, c.Name+" failed")
		case c.NeedsGold:
			ok = r.code != 0 && strings.Count(strings.TrimSpace(r.stderr), "\n") == 0
		}
		if !ok {
			t.Errorf("%s: exit %d, stderr %q", strings.Join(args, " "), r.code, r.stderr)
		}
	}
}

// fileExists reports whether dir holds a file of that name.
func fileExists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

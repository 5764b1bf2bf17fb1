package main

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTrainGold checks that --train-gold pins the gold tasks to their gold
// class under LA and DA, that evaluation then leaves them out, and that
// --train-fraction splits --gold reproducibly.
func TestTrainGold(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		// Task 1's labels favour y, but its training gold says x.
		"labels.csv": "task,worker,label\n1,a,y\n1,b,y\n1,c,x\n2,a,x\n2,b,x\n2,c,x\n3,a,y\n3,b,y\n3,c,y\n4,a,x\n4,b,y\n4,c,x\n",
		"train.csv":  "task,label\n1,x\n",
		"gold.csv":   "task,label\n1,x\n2,x\n3,y\n4,x\n",
	})
	for _, m := range []string{"la-ds", "da-ds", "la-glad", "da-glad", "vb-da-ds", "vb-la-ds", "vb-hda-ds"} {
		r := runIn(t, dir, "", "fit", "--input", "labels.csv", "--gold", "gold.csv", "--train-gold", "train.csv",
			"--model", m, "--output", m+".csv")
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", m, r.code, r.stderr)
		}
		rows := readCSV(t, filepath.Join(dir, m+".csv"))
		if got := strings.Join(rows[1], ","); got != "1,x,1,0" {
			t.Errorf("%s: training gold task 1 = %q, want pinned to 1,x,1,0", m, got)
		}
		if !strings.Contains(r.stderr, "gold (3 tasks)") || !strings.Contains(r.stderr, "left out of the evaluation") {
			t.Errorf("%s: evaluation should use the 3 other gold tasks:\n%s", m, r.stderr)
		}
	}
	a := runIn(t, dir, "", "fit", "--input", "labels.csv", "--gold", "gold.csv", "--train-fraction", "0.5", "--seed", "3", "--model", "da-ds", "--output", "a.csv")
	b := runIn(t, dir, "", "fit", "--input", "labels.csv", "--gold", "gold.csv", "--train-fraction", "0.5", "--seed", "3", "--model", "da-ds", "--output", "b.csv")
	if a.code != 0 || b.code != 0 {
		t.Fatalf("--train-fraction: exit %d, %d: %s", a.code, b.code, a.stderr)
	}
	if !strings.Contains(a.stderr, "2 gold tasks train the fit") {
		t.Errorf("--train-fraction 0.5 of 4: %s", a.stderr)
	}
	fa, _ := os.ReadFile(filepath.Join(dir, "a.csv"))
	fb, _ := os.ReadFile(filepath.Join(dir, "b.csv"))
	if string(fa) != string(fb) {
		t.Error("--train-fraction with the same seed gave different outputs")
	}
}

// TestInitWorkers checks that --init-workers reads the file fit --workers
// writes, and refuses models that are not Dawid-Skene and bad rows.
func TestInitWorkers(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"labels.csv": okLabels,
		"bad.csv":    "worker,labels,\"p[x,x]\",\"p[x,y]\",\"p[y,x]\",\"p[y,y]\"\na,3,0.5,0.6,0.1,0.9\n",
	})
	if r := runIn(t, dir, "", "fit", "--input", "labels.csv", "--model", "la-ds", "--workers", "w.csv", "--output", "o.csv"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	r := runIn(t, dir, "", "fit", "--input", "labels.csv", "--model", "da-ds", "--init-workers", "w.csv", "--output", "o2.csv")
	if r.code != 0 || !strings.Contains(r.stderr, "2 of 2 workers start from w.csv") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	checkRefusals(t, dir, []refusal{
		{[]string{"--model", "da-glad", "--init-workers", "w.csv"}, "w.csv:1: header has 7 columns 'worker', 'labels', 'skill', 'p[x,x]', 'p[x,y]', 'p[y,x]', 'p[y,y]' but no 'ability' column; model da-glad needs the worker columns ability"},
		{[]string{"--model", "rfe", "--init-workers", "w.csv"}, "model rfe cannot start from worker parameters"},
		{[]string{"--model", "da-ds", "--init-workers", "bad.csv"}, "bad.csv:2: the row of class x sums to 1.1"},
		{[]string{"--model", "rfe", "--train-gold", "w.csv"}, "model rfe cannot use training gold"},
		{[]string{"--model", "da-ds", "--train-fraction", "0.5"}, "--train-fraction needs --gold"},
	})
}

// TestFixWorkers checks that --fix-workers holds the workers of the
// --init-workers file at its parameters, fits the others, and refuses
// what it cannot do.
func TestFixWorkers(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"labels.csv": "task,worker,label\n1,a,x\n1,b,x\n1,c,y\n2,a,y\n2,b,y\n2,c,y\n3,a,x\n3,b,y\n3,c,x\n4,a,y\n4,b,x\n4,c,x\n",
		// Worker a held at an unlikely matrix, c absent from the data.
		"one.csv":   "worker,\"p[x,x]\",\"p[x,y]\",\"p[y,x]\",\"p[y,y]\"\na,0.6,0.4,0.3,0.7\nc,0.9,0.1,0.1,0.9\n",
		"twice.csv": "worker,\"p[x,x]\",\"p[x,y]\",\"p[y,x]\",\"p[y,y]\"\na,0.6,0.4,0.3,0.7\nb,0.9,0.1,0.1,0.9\na,0.5,0.5,0.5,0.5\n",
	})
	for _, m := range []string{"la-ds", "da-ds", "hda-ds"} {
		r := runIn(t, dir, "", "fit", "--input", "labels.csv", "--model", m, "--init-workers", "one.csv", "--fix-workers", "--workers", m+"-w.csv", "--output", m+".csv")
		if r.code != 0 || !strings.Contains(r.stderr, "2 of 3 workers are held at their parameters in one.csv, 1 are fitted") {
			t.Fatalf("%s: exit %d: %s", m, r.code, r.stderr)
		}
		rows := readCSV(t, filepath.Join(dir, m+"-w.csv"))
		got := map[string][]string{}
		for _, row := range rows[1:] {
			got[row[0]] = row[3:] // worker, labels, skill, then p[x,x] ...
		}
		for w, want := range map[string][]float64{"a": {0.6, 0.4, 0.3, 0.7}, "c": {0.9, 0.1, 0.1, 0.9}} {
			for i, v := range want {
				if x, err := strconv.ParseFloat(got[w][i], 64); err != nil || math.Abs(x-v) > 1e-12 {
					t.Errorf("%s: held worker %s's %s = %s, want %v", m, w, rows[0][3+i], got[w][i], v)
				}
			}
		}
		if strings.Join(got["b"], ",") == "0.9,0.1,0.1,0.9" || len(got["b"]) != 4 {
			t.Errorf("%s: worker b, not in the file, was not fitted: %v", m, got["b"])
		}
	}
	// The variational forms hold their workers' posteriors: the pseudo-counts
	// follow from p and n in the workers file.
	for _, m := range []string{"vb-la-ds", "vb-da-ds", "vb-hda-ds", "vb-da-onecoin", "vb-la-onecoin", "vb-da-glad", "vb-hda-glad"} {
		if r := runIn(t, dir, "", "fit", "--input", "labels.csv", "--model", m, "--workers", m+"-w.csv", "--output", m+".csv"); r.code != 0 {
			t.Fatalf("%s: exit %d: %s", m, r.code, r.stderr)
		}
		r := runIn(t, dir, "", "fit", "--input", "labels.csv", "--model", m, "--init-workers", m+"-w.csv", "--fix-workers", "--workers", m+"-w2.csv", "--output", m+".csv")
		if r.code != 0 || !strings.Contains(r.stderr, "3 of 3 workers are held") {
			t.Fatalf("%s: exit %d: %s", m, r.code, r.stderr)
		}
		sameWorkerParams(t, m, filepath.Join(dir, m+"-w.csv"), filepath.Join(dir, m+"-w2.csv"))
	}
	checkRefusals(t, dir, []refusal{
		{[]string{"--model", "da-ds", "--fix-workers"}, "--fix-workers needs --init-workers"},
		{[]string{"--model", "wawa", "--init-workers", "one.csv", "--fix-workers"}, "model wawa cannot start from worker parameters (la-*, da-*, hda-*, vb-la-*, vb-ds,"},
		{[]string{"--model", "vb-da-ds", "--init-workers", "one.csv", "--fix-workers"}, "one.csv:1: header has 5 columns"},
		{[]string{"--model", "la-ds", "--init-workers", "twice.csv", "--fix-workers"}, `twice.csv:4: worker "a" appears twice`},
		{[]string{"--model", "la-ds", "--init-workers", "twice.csv"}, `twice.csv:4: worker "a" appears twice`},
	})
}

// sameWorkerParams checks that the workers files a and b, written by fit
// --workers with model m, hold the same parameters (every column after
// worker, labels and skill) to 10⁻⁹: a fit with --fix-workers keeps them.
func sameWorkerParams(t *testing.T, m, a, b string) {
	t.Helper()
	ra, rb := readCSV(t, a), readCSV(t, b)
	if len(ra) != len(rb) || strings.Join(ra[0], ",") != strings.Join(rb[0], ",") {
		t.Fatalf("%s: %s and %s differ in shape: %v, %v", m, a, b, ra[0], rb[0])
	}
	for i := 1; i < len(ra); i++ {
		for c := 3; c < len(ra[i]); c++ {
			x, _ := strconv.ParseFloat(ra[i][c], 64)
			y, _ := strconv.ParseFloat(rb[i][c], 64)
			if ra[i][0] != rb[i][0] || math.Abs(x-y) > 1e-9 {
				t.Errorf("%s: worker %s's %s: %s held, %s after the fit", m, ra[i][0], ra[0][c], ra[i][c], rb[i][c])
			}
		}
	}
}

// refusal is a fit command line (after fit --input labels.csv --output
// x.csv) that must be refused, and a part of its message.
type refusal struct {
	args []string
	want string
}

// checkRefusals runs every refusal in dir and checks that it exits with
// status 2, one line of message containing want, and no output file.
func checkRefusals(t *testing.T, dir string, cases []refusal) {
	t.Helper()
	for _, c := range cases {
		r := runIn(t, dir, "", append([]string{"fit", "--input", "labels.csv", "--output", "x.csv"}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line containing %q", c.args, r.code, r.stderr, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "x.csv")); err == nil {
			t.Errorf("%v: wrote an output file", c.args)
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestCalibrateGold checks that --calibrate-gold needs training gold,
// names its temperature in the summary, and gives the same output with the
// same --seed; and that fit --gold hints at it where the probabilities are
// more confident than the gold supports (duchenne), not elsewhere (rte).
func TestCalibrateGold(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		set  string
		hint bool
	}{{"duchenne", true}, {"rte", false}} {
		r := runIn(t, dir, "", "fit", "--dataset", c.set, "-o", c.set+".csv")
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", c.set, r.code, r.stderr)
		}
		if got := strings.Contains(r.stderr, "note: the probabilities are more confident than this gold supports"); got != c.hint {
			t.Errorf("%s: hint %v, want %v:\n%s", c.set, got, c.hint, r.stderr)
		}
	}
	r := runIn(t, dir, "", "fit", "--dataset", "temp", "--calibrate-gold", "-o", "none.csv")
	if r.code != 2 || !strings.Contains(r.stderr, "--calibrate-gold needs training gold") || fileExists(dir, "none.csv") {
		t.Errorf("without training gold: exit %d, stderr %q", r.code, r.stderr)
	}
	var outs []string
	for _, name := range []string{"a.csv", "b.csv"} {
		r := runIn(t, dir, "", "fit", "--dataset", "temp", "--train-fraction", "0.5", "--calibrate-gold", "--seed", "2", "-o", name)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		if !strings.Contains(r.stderr, "on 231 gold tasks (5-fold cross-fitting)") {
			t.Errorf("the summary should name the calibration on the 231 training gold tasks:\n%s", r.stderr)
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, string(b))
	}
	if outs[0] != outs[1] {
		t.Error("--calibrate-gold with the same seed gave different outputs")
	}
}

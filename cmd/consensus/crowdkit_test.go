package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCrowdKitModels runs the estimators ported from Crowd-Kit through fit:
// gmv with and without training gold, kos on three classes.
func TestCrowdKitModels(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"labels.csv": okLabels,
		"train.csv":  "task,label\n1,x\n",
		"three.csv":  "task,worker,label\n1,a,x\n1,b,y\n2,a,z\n",
		"mmsr6.csv":  mmsrDiverges,
	})
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // a line the output must contain
		stderr string // a text stderr must contain
	}{
		{"wawa", []string{"fit", "-i", "labels.csv", "--model", "wawa"}, 0, "2,x,1,0", "model wawa"},
		{"zbs", []string{"fit", "-i", "labels.csv", "--model", "zbs"}, 0, "2,x,1,0", "model zbs"},
		// a is right on the gold task 1, b wrong: a decides task 3 alone.
		{"gmv", []string{"fit", "-i", "labels.csv", "--model", "gmv", "--train-gold", "train.csv"}, 0, "1,x,1,0", "model gmv"},
		{"gmv without gold", []string{"fit", "-i", "labels.csv", "--model", "gmv"}, 2, "", "needs training gold to measure worker skills: no task has a gold class: give --train-gold FILE, or --train-fraction F with --gold"},
		{"kos", []string{"fit", "-i", "labels.csv", "--model", "kos"}, 0, "task,label,p_x,p_y", "model kos"},
		{"kos on three classes", []string{"fit", "-i", "three.csv", "--model", "kos"}, 2, "", "kos is for two classes only, and the data have 3"},
		{"kos seeded", []string{"fit", "-i", "labels.csv", "--model", "kos", "--random-state", "4294967295"}, 0, "task,label,p_x,p_y", "model kos"},
		{"mmsr seeded", []string{"fit", "-i", "labels.csv", "--model", "mmsr", "--random-state", "3"}, 0, "task,label,p_x,p_y", "model mmsr"},
		{"random state too large", []string{"fit", "-i", "labels.csv", "--model", "mmsr", "--random-state", "4294967296"}, 2, "", "--random-state 4294967296: must be at most 4294967295, as numpy's RandomState"},
		{"random state without a random start", []string{"fit", "-i", "labels.csv", "--model", "la-ds", "--random-state", "1"}, 2, "", "--random-state: model la-ds has no random start; it applies to kos and mmsr"},
		// --tol 0 runs every sweep; a large tol stops after the first.
		{"mmsr tol 0", []string{"fit", "-i", "labels.csv", "--model", "mmsr", "--tol", "0", "--max-iter", "7", "--strict"}, 1, "", "IterationLimit after 7 iterations"},
		{"mmsr tol", []string{"fit", "-i", "labels.csv", "--model", "mmsr", "--tol", "1e3", "--max-iter", "1", "--strict"}, 0, "task,label,p_x,p_y", "model mmsr"},
		{"tol negative", []string{"fit", "-i", "labels.csv", "--model", "mmsr", "--tol", "-1"}, 2, "", "--tol -1: must not be negative"},
		{"tol without one", []string{"fit", "-i", "labels.csv", "--model", "la-ds", "--tol", "1e-3"}, 2, "", "--tol: model la-ds does not use it; it applies to mmsr"},
		// The rank-one iteration overflows: a one-line error, no output file.
		{"mmsr diverges", []string{"fit", "-i", "mmsr6.csv", "--model", "mmsr", "-o", "out.csv"}, 1, "", "mmsr: the rank-one iteration diverged at sweep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runIn(t, dir, "", tt.args...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, tt.code, r.stderr)
			}
			if !strings.Contains(r.stdout, tt.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.stdout, r.stdout)
			}
			if !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, r.stderr)
			}
			if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "internal error") {
				t.Errorf("panic:\n%s", r.stderr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "out.csv")); err == nil {
		t.Error("the failed mmsr fit left an output file")
	}
}

// mmsrDiverges holds issue 40's six tasks (yes/no labels, worker w6 on the
// first four only), on which MMSR's rank-one iteration overflows.
const mmsrDiverges = "task,worker,label\n" +
	"t1,w1,yes\nt2,w1,no\nt3,w1,yes\nt4,w1,yes\nt5,w1,no\nt6,w1,no\n" +
	"t1,w2,yes\nt2,w2,no\nt3,w2,no\nt4,w2,yes\nt5,w2,no\nt6,w2,no\n" +
	"t1,w3,yes\nt2,w3,no\nt3,w3,yes\nt4,w3,yes\nt5,w3,yes\nt6,w3,yes\n" +
	"t1,w4,yes\nt2,w4,yes\nt3,w4,yes\nt4,w4,yes\nt5,w4,yes\nt6,w4,yes\n" +
	"t1,w5,no\nt2,w5,no\nt3,w5,yes\nt4,w5,yes\nt5,w5,no\nt6,w5,no\n" +
	"t1,w6,yes\nt2,w6,yes\nt3,w6,yes\nt4,w6,yes\n"

// TestCrowdKitWorkers checks the worker tables of the skill-weighted votes
// (Crowd-Kit's skills_): worker a agrees with the majority vote on all 3 of
// its labels, b on 1 of 2 (the tie on task 1 goes to x); MMSR adds the
// signed skill; kos has no worker table.
func TestCrowdKitWorkers(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"labels.csv": okLabels, "train.csv": "task,label\n1,x\n"})
	for _, tt := range []struct {
		model string
		extra []string
		want  []string // lines of the workers file
	}{
		{"wawa", nil, []string{"worker,labels,skill", "a,3,1", "b,2,0.5"}},
		{"gmv", []string{"--train-gold", "train.csv"}, []string{"worker,labels,skill", "a,3,1", "b,2,0"}},
		{"zbs", nil, []string{"worker,labels,skill"}},
		{"mmsr", nil, []string{"worker,labels,skill,signed_skill"}},
	} {
		args := append([]string{"fit", "-i", "labels.csv", "--model", tt.model, "-o", "out.csv", "--workers", "w.csv"}, tt.extra...)
		r := runIn(t, dir, "", args...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.model, r.code, r.stderr)
		}
		b, err := os.ReadFile(filepath.Join(dir, "w.csv"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != 3 {
			t.Errorf("%s: %d lines in the workers file, want 3:\n%s", tt.model, len(lines), b)
		}
		for i, w := range tt.want {
			if i < len(lines) && lines[i] != w {
				t.Errorf("%s: line %d of the workers file is %q, want %q", tt.model, i+1, lines[i], w)
			}
		}
	}
	r := runIn(t, dir, "", "fit", "-i", "labels.csv", "--model", "kos", "-o", "out.csv", "--workers", "w.csv")
	if r.code != 2 || !strings.Contains(r.stderr, "--workers: model kos has no worker parameters") {
		t.Errorf("kos --workers: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestMultilabel runs binary relevance from the command line on Crowd-Kit's
// example: the classes chosen by most workers, with an empty choice.
func TestMultilabel(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"tags.csv":  "task,worker,label\nt1,w1,house|tree\nt1,w2,house\nt1,w3,house|tree\nt2,w1,car\nt2,w2,car|tree\nt2,w3,none\n",
		"twice.csv": "task,worker,label\nt1,w1,house|house\n",
	})
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"mv", []string{"multilabel", "tags.csv", "-m", "mv", "--empty-label", "none"}, 0,
			"task,labels,p_car,p_house,p_tree\nt1,house|tree,0,1,0.6666666666666666\nt2,car,0.6666666666666666,0,0.3333333333333333\n", "3 classes; mv fitted"},
		{"la-ds", []string{"multilabel", "tags.csv", "-m", "la-ds", "--empty-label", "none"}, 0, "t1,house|tree,", ""},
		{"twice", []string{"multilabel", "twice.csv", "-m", "mv"}, 2, "", "twice.csv:2: label \"house|house\" names class \"house\" twice"},
		{"unknown model", []string{"multilabel", "tags.csv", "-m", "nope"}, 2, "", "unknown model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runIn(t, dir, "", tt.args...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, tt.code, r.stderr)
			}
			if !strings.Contains(r.stdout, tt.stdout) {
				t.Errorf("stdout %q lacks %q", r.stdout, tt.stdout)
			}
			if !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("stderr %q lacks %q", r.stderr, tt.stderr)
			}
		})
	}
}

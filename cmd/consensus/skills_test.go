package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSkills checks fit -m mv --skills: Crowd-Kit's weighted majority vote
// example by hand, what --missing-skill does with a worker missing from the
// file, the workers table (agreement and weight), and the refusals.
func TestSkills(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"labels.csv":  "task,worker,label\nt1,p1,0\nt1,p2,0\nt1,p3,1\nt2,p1,1\nt2,p2,0\nt2,p3,1\n",
		"skills.csv":  "worker,skill\np1,0.5\np2,0.7\np3,0.4\nother,9\n",
		"two.csv":     "worker,skill\np1,0.5\np3,0.4\n",
		"neg.csv":     "worker,skill\np1,0.5\np2,-1\n",
		"noskill.csv": "worker,weight\np1,0.5\n",
	})
	for _, c := range []struct {
		args   []string
		labels string    // the consensus labels of t1 and t2
		probs  []float64 // P(0), P(1) of t1, then of t2
		note   string
	}{
		{[]string{"--skills", "skills.csv"}, "0 1", []float64{1.2 / 1.6, 0.4 / 1.6, 0.7 / 1.6, 0.9 / 1.6}, "3 of 3 workers have a skill in"},
		{[]string{"--skills", "two.csv", "--missing-skill", "0.7"}, "0 1", []float64{1.2 / 1.6, 0.4 / 1.6, 0.7 / 1.6, 0.9 / 1.6}, "2 of 3 workers"},
		{[]string{"--skills", "two.csv", "--missing-skill", "ignore"}, "0 1", []float64{0.5 / 0.9, 0.4 / 0.9, 0, 1}, "2 of 3 workers"},
	} {
		r := runIn(t, dir, "", append([]string{"fit", "--input", "labels.csv", "--model", "mv", "--output", "o.csv", "--workers", "w.csv"}, c.args...)...)
		if r.code != 0 || !strings.Contains(r.stderr, c.note) {
			t.Fatalf("%v: exit %d: %s", c.args, r.code, r.stderr)
		}
		rows := readCSV(t, filepath.Join(dir, "o.csv"))[1:]
		if got := rows[0][1] + " " + rows[1][1]; got != c.labels {
			t.Errorf("%v: labels %s, want %s", c.args, got, c.labels)
		}
		for i, want := range c.probs {
			got, _ := strconv.ParseFloat(rows[i/2][2+i%2], 64)
			if math.Abs(got-want) > 1e-15 {
				t.Errorf("%v: %s's P(%d) = %v, want %v", c.args, rows[i/2][0], i%2, got, want)
			}
		}
	}
	r := runIn(t, dir, "", "fit", "--input", "labels.csv", "--model", "mv", "--skills", "skills.csv", "--output", "o.csv", "--workers", "w.csv")
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	// The consensus is 0 for t1 and 1 for t2: p1 agrees with it on both
	// tasks, p2 and p3 on one. The weights are the skills given.
	w, _ := os.ReadFile(filepath.Join(dir, "w.csv"))
	if want := "worker,labels,skill,weight\np1,2,1,0.5\np2,2,0.5,0.7\np3,2,0.5,0.4\n"; string(w) != want {
		t.Errorf("workers table\n%s\nwant\n%s", w, want)
	}
	checkRefusals(t, dir, []refusal{
		{[]string{"--model", "la-ds", "--skills", "skills.csv"}, "--skills: model la-ds does not weigh votes by given skills (mv does)"},
		{[]string{"--model", "mv", "--missing-skill", "ignore"}, "--missing-skill and --skills-format need --skills"},
		{[]string{"--model", "mv", "--skills", "skills.csv", "--missing-skill", "often"}, `--missing-skill "often": want error, ignore or a skill`},
		{[]string{"--model", "mv", "--skills", "two.csv"}, "two.csv: worker p2 has no skill, and 1 workers in all"},
		{[]string{"--model", "mv", "--skills", "neg.csv"}, `neg.csv:3: worker "p2" has skill -1: want a finite number, at least 0`},
		{[]string{"--model", "mv", "--skills", "noskill.csv"}, "noskill.csv:1: header has 2 columns 'worker', 'weight' but no 'skill' column"},
	})
}

package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPairwiseCLI: the worked example of the package's tests (a beats b
// three times in four) through the command, without and with the prior.
func TestPairwiseCLI(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"c.csv": "worker,left,right,label\nw1,a,b,a\nw2,b,a,a\nw1,a,b,a\nw2,a,b,b\n",
	})
	r := runIn(t, dir, "", "pairwise", "fit", "c.csv", "--prior", "0", "-o", "s.csv")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	recs := readCSV(t, filepath.Join(dir, "s.csv"))
	if strings.Join(recs[0], ",") != "item,rank,score,weight,wins,comparisons" || len(recs) != 3 {
		t.Fatalf("scores: %v", recs)
	}
	want := math.Log(3) / 2
	for i, row := range recs[1:] {
		score, _ := strconv.ParseFloat(row[2], 64)
		weight, _ := strconv.ParseFloat(row[3], 64)
		sign, w := 1.0, 0.75
		if i == 1 {
			sign, w = -1, 0.25
		}
		if row[1] != strconv.Itoa(i+1) || math.Abs(score-sign*want) > 1e-12 || math.Abs(weight-w) > 1e-12 {
			t.Errorf("row %v, want score %v and weight %v", row, sign*want, w)
		}
	}
	if row := strings.Join(recs[1][4:], ","); recs[1][0] != "a" || row != "3,4" {
		t.Errorf("first row %v", recs[1])
	}
	if !strings.Contains(r.stderr, "bt: 2 items, 4 comparisons;") || !strings.Contains(r.stderr, "converged") {
		t.Errorf("summary: %s", r.stderr)
	}

	// The noisy model with its workers' table, as JSON Lines from
	// standard input.
	r = runIn(t, dir, "worker,left,right,label\nw1,a,b,a\nw2,b,a,a\nw1,a,b,a\nw2,a,b,b\n",
		"pairwise", "fit", "-m", "noisy-bt", "-o", "s.jsonl", "--workers", "w.csv", "-q")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	w := readCSV(t, filepath.Join(dir, "w.csv"))
	if strings.Join(w[0], ",") != "worker,skill,bias,comparisons" || len(w) != 3 || w[1][0] != "w1" || w[1][3] != "2" {
		t.Errorf("workers: %v", w)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "s.jsonl")); !strings.HasPrefix(string(b), `{"item":"a","rank":1,`) {
		t.Errorf("scores: %s", b)
	}
}

// TestPairwiseTiesCLI: a beats b once and ties twice (--tie): the
// maximum likelihood has σ(θ_a − θ_b) = 2/3, and the table a ties column.
func TestPairwiseTiesCLI(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"c.csv": "left,right,label\na,b,a\na,b,draw\nb,a,draw\n"})
	r := runIn(t, dir, "", "pairwise", "fit", "c.csv", "--tie", "draw", "--prior", "0", "-o", "s.csv")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	recs := readCSV(t, filepath.Join(dir, "s.csv"))
	if strings.Join(recs[0], ",") != "item,rank,score,weight,wins,ties,comparisons" || strings.Join(recs[1][4:], ",") != "1,2,3" {
		t.Fatalf("scores: %v", recs)
	}
	if w, _ := strconv.ParseFloat(recs[1][3], 64); math.Abs(w-2.0/3) > 1e-12 {
		t.Errorf("weight of a %v, want 2/3", w)
	}
	if r := runIn(t, dir, "", "pairwise", "fit", "c.csv", "-o", "s2.csv"); r.code != 2 || !strings.Contains(r.stderr, `c.csv:3: label "draw" is neither`) {
		t.Errorf("without --tie: exit %d, %s", r.code, r.stderr)
	}
}

func TestPairwiseCLIErrors(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"bad.csv":      "left,right,label\na,b,a\na,b,c\n",
		"nowinner.csv": "left,right,label\na,b,a\nb,a,a\n",
		"noworker.csv": "left,right,label\na,b,a\n",
		"emptyw.csv":   "worker,left,right,label\n,a,b,a\nw,b,a,b\n",
	})
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"fit", "bad.csv", "-o", "out.csv"}, `bad.csv:3: label "c" is neither the left item "a" nor the right item "b"`},
		{[]string{"fit", "nowinner.csv", "--prior", "0", "-o", "out.csv"}, `item "a" wins all of its 2 comparisons, so its maximum-likelihood score is +∞`},
		{[]string{"fit", "noworker.csv", "-m", "noisy-bt", "-o", "out.csv"}, "needs the worker of every comparison"},
		{[]string{"fit", "noworker.csv", "-m", "nope", "-o", "out.csv"}, `--model "nope": want bt or noisy-bt`},
		{[]string{"fit", "noworker.csv", "--grad-tol", "1e-9", "-o", "out.csv"}, "--grad-tol applies to --model noisy-bt"},
		{[]string{"fit", "noworker.csv", "-m", "noisy-bt", "--tol", "1e-9", "-o", "out.csv"}, "--tol applies to --model bt"},
		{[]string{"fit", "noworker.csv", "-m", "noisy-bt", "--prior", "0", "-o", "out.csv"}, "noisy-bt needs a prior"},
		{[]string{"fit", "missing.csv", "-o", "out.csv"}, "missing.csv"},
		{[]string{"fit", "noworker.csv", "--prior", "-1", "-o", "out.csv"}, "must be a positive number"},
		{[]string{"fit", "noworker.csv", "--threads", "-1", "-o", "out.csv"}, "--threads -1"},
		{[]string{"fit", "emptyw.csv", "-m", "noisy-bt", "-o", "out.csv"}, "emptyw.csv:2: empty worker cell"},
		{[]string{"fit", "emptyw.csv", "--worker-column", "w", "-o", "out.csv"}, "--worker-column applies to --model noisy-bt, not bt"},
	} {
		r := runIn(t, dir, "", append([]string{"pairwise"}, tc.args...)...)
		if r.code == 0 || !strings.Contains(r.stderr, tc.msg) || strings.Contains(r.stderr, "goroutine") {
			t.Errorf("%v: exit %d, stderr %q, want a message containing %q", tc.args, r.code, r.stderr, tc.msg)
		}
		if strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("%v: more than one line: %q", tc.args, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "out.csv")); err == nil {
			t.Fatalf("%v: wrote out.csv", tc.args)
		}
	}
}

// TestPairwiseBTIgnoresWorkers checks that bt, which does not use the
// workers, does not read their column: an empty worker cell is no error,
// and the summary counts no workers.
func TestPairwiseBTIgnoresWorkers(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"emptyw.csv": "worker,left,right,label\n,a,b,a\nw,b,a,b\n"})
	r := runIn(t, dir, "", "pairwise", "fit", "emptyw.csv", "-o", "out.csv")
	if r.code != 0 || !strings.Contains(r.stderr, "bt: 2 items, 2 comparisons;") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestPairwiseSimulateCLI: simulated comparisons read back and fitted; the
// same seed gives the same bytes, and the noisy model ranks the items
// closer to the truth than Bradley-Terry on comparisons with spammers.
func TestPairwiseSimulateCLI(t *testing.T) {
	dir := t.TempDir()
	args := []string{"pairwise", "simulate", "--items", "100", "--workers", "20", "--comparisons", "6000", "--spammers", "0.3", "--seed", "3"}
	r := runIn(t, dir, "", append(args, "-o", "c.csv", "--truth", "t.csv", "--truth-workers", "tw.csv")...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	again := runIn(t, dir, "", args...)
	if b, _ := os.ReadFile(filepath.Join(dir, "c.csv")); again.code != 0 || again.stdout != string(b) {
		t.Errorf("the same seed gave other comparisons")
	}
	if recs := readCSV(t, filepath.Join(dir, "tw.csv")); len(recs) != 21 || strings.Join(recs[0], ",") != "worker,skill,bias" {
		t.Errorf("truth-workers: %d rows, header %v", len(recs), recs[0])
	}
	truth := map[string]float64{}
	for _, row := range readCSV(t, filepath.Join(dir, "t.csv"))[1:] {
		truth[row[0]], _ = strconv.ParseFloat(row[1], 64)
	}
	// Kendall's concordance of the ranking with the true scores.
	concordance := func(file string) float64 {
		var items []string
		for _, row := range readCSV(t, filepath.Join(dir, file))[1:] {
			items = append(items, row[0])
		}
		agree, pairs := 0, 0
		for i := range items {
			for j := i + 1; j < len(items); j++ {
				pairs++
				if truth[items[i]] > truth[items[j]] {
					agree++
				}
			}
		}
		return float64(agree) / float64(pairs)
	}
	for _, m := range []string{"bt", "noisy-bt"} {
		if r := runIn(t, dir, "", "pairwise", "fit", "c.csv", "-m", m, "-o", m+".csv", "--strict"); r.code != 0 {
			t.Fatalf("%s: exit %d: %s", m, r.code, r.stderr)
		}
	}
	bt, noisy := concordance("bt.csv"), concordance("noisy-bt.csv")
	if noisy < 0.8 || noisy <= bt {
		t.Errorf("concordance with the true ranking: bt %.4f, noisy-bt %.4f", bt, noisy)
	}
}

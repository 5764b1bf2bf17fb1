package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgreementCLI runs agreement on a small hand-made file: units {a,a},
// {b,b}, {a,b} and a single label give alpha = 4/9 (see the metrics
// test), and checks the per-task CSV table and the per-worker JSON Lines
// table against hand-computed values.
func TestAgreementCLI(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"labels.csv": "task,worker,label\n1,x,a\n1,y,a\n2,x,b\n2,y,b\n3,x,a\n3,y,b\n4,x,a\n",
	})
	r := runIn(t, dir, "", "agreement", "-i", "labels.csv", "--tasks", "tasks.csv", "--workers", "workers.jsonl")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"krippendorff_alpha\t0.444444\n", "labels\t7\n", "agreement_with_mv\t", "consistency_with_mv\t1.000000\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	f, err := os.Open(filepath.Join(dir, "tasks.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != "task,labels,label,entropy,normalized_entropy,agreement,consistency" || len(recs) != 5 {
		t.Fatalf("tasks table: %v", recs)
	}
	// Task 3 has one a and one b: entropy ln 2, normalised 1, half agree;
	// whichever label the seed makes its consensus, the worker who gave it
	// agrees with every consensus (skill 1), so that its posterior is 1.
	if got := strings.Join(recs[3][3:], ","); got != "0.6931471805599453,1,0.5,1" {
		t.Errorf("task 3: %s", got)
	}
	b, err := os.ReadFile(filepath.Join(dir, "workers.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		t.Fatalf("workers table: %q", b)
	}
	agreeing := 0.0
	for _, l := range lines {
		var row struct {
			Worker    string
			Labels    int
			Agreement float64
		}
		if err := json.Unmarshal([]byte(l), &row); err != nil {
			t.Fatal(err)
		}
		if row.Worker == "y" && row.Labels != 3 || row.Worker == "x" && row.Labels != 4 {
			t.Errorf("worker row %s", l)
		}
		agreeing += row.Agreement * float64(row.Labels)
	}
	// Both agree on tasks 1 and 2, x on task 4; on task 3 the tie is
	// broken by the seed, so exactly one of them agrees there: 6 labels.
	if agreeing < 5.999 || agreeing > 6.001 {
		t.Errorf("%v labels agree with the consensus, want 6", agreeing)
	}

	// Bad input: one line naming the file and line, exit 2, no output.
	writeFiles(t, dir, map[string]string{"bad.csv": "task,worker,label\n1,x,a\n1,y\n"})
	r = runIn(t, dir, "", "agreement", "-i", "bad.csv", "--tasks", "t2.csv")
	if r.code != 2 || !strings.Contains(r.stderr, "bad.csv") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("bad input: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "t2.csv")); err == nil {
		t.Error("bad input wrote an output file")
	}
}

// TestAgreementAlphaUndefined checks that where Krippendorff's alpha is
// undefined (no task with two labels; or one class among the tasks that
// have two) agreement prints "undefined" and says why, never NaN.
func TestAgreementAlphaUndefined(t *testing.T) {
	for _, tc := range []struct{ labels, why string }{
		{"task,worker,label\n1,a,x\n2,b,y\n3,a,x\n", "no task has two labels to compare"},
		{"task,worker,label\n1,a,x\n1,b,x\n2,b,y\n", "all of one class"},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"in.csv": tc.labels})
		r := runIn(t, dir, "", "agreement", "in.csv", "--tasks", "t.csv", "--workers", "w.csv")
		if r.code != 0 || !strings.Contains(r.stdout, "krippendorff_alpha\tundefined\n") || !strings.Contains(r.stderr, tc.why) {
			t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
		for _, f := range []string{"t.csv", "w.csv"} {
			b, _ := os.ReadFile(filepath.Join(dir, f))
			if strings.Contains(strings.ToLower(r.stdout+string(b)), "nan") {
				t.Errorf("NaN in the output: %q, %s %q", r.stdout, f, b)
			}
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNextCLI runs next on rte: the budget is respected, the gains are in
// decreasing order and positive, no chosen task is above the stopping
// rule, the worker flags have one row per worker, a pool gives pairs of
// workers who did not label the task, the output does not depend on
// --threads, and bad flags and pools exit 2 without output.
func TestNextCLI(t *testing.T) {
	dir := t.TempDir()
	r := runIn(t, dir, "", "next", "--dataset", "rte", "--budget", "30", "--output", "next.csv", "--workers", "flags.csv", "--threads", "1")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	recs := readCSV(t, filepath.Join(dir, "next.csv"))
	if strings.Join(recs[0], ",") != "task,labels,label,confidence,gain,p_change" || len(recs) != 31 {
		t.Fatalf("next table: %d rows, header %v", len(recs), recs[0])
	}
	prev := 2.0
	for _, row := range recs[1:] {
		g, _ := strconv.ParseFloat(row[4], 64)
		c, _ := strconv.ParseFloat(row[3], 64)
		if g <= 0 || g > prev || c >= 0.99 {
			t.Errorf("row %v: gain %v after %v, confidence %v", row, g, prev, c)
		}
		prev = g
	}
	flags := readCSV(t, filepath.Join(dir, "flags.csv"))
	if len(flags) != 165 || strings.Join(flags[0], ",") != "worker,labels,skill,p[0,0],p[0,1],p[1,0],p[1,1],n[0],n[1],agreement,accuracy,accuracy_lo,accuracy_hi,p_spammer,p_adversarial,flag" {
		t.Errorf("flags table: %d rows, header %v", len(flags), flags[0])
	}
	// The flags file is a workers file of vb-la-ds: fit reads it back.
	r = runIn(t, dir, "", "fit", "--dataset", "rte", "-m", "vb-la-ds", "--init-workers", "flags.csv", "--output", "fit.csv")
	if r.code != 0 {
		t.Fatalf("fit --init-workers flags.csv: exit %d: %s", r.code, r.stderr)
	}
	r = runIn(t, dir, "", "next", "--dataset", "rte", "--budget", "30", "--output", "next2.csv", "--workers", "flags2.csv", "--threads", "2")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, f := range [][2]string{{"next.csv", "next2.csv"}, {"flags.csv", "flags2.csv"}} {
		a, _ := os.ReadFile(filepath.Join(dir, f[0]))
		b, _ := os.ReadFile(filepath.Join(dir, f[1]))
		if string(a) != string(b) {
			t.Errorf("%s differs with --threads 2", f[1])
		}
	}

	// A pool of three workers, at most 4 tasks each.
	pool := "worker\n" + strings.Join([]string{flags[1][0], flags[2][0], flags[3][0]}, "\n") + "\n"
	writeFiles(t, dir, map[string]string{"pool.csv": pool, "bad-pool.csv": "worker\n" + flags[1][0] + "\nnobody\n"})
	r = runIn(t, dir, "", "next", "--dataset", "rte", "--budget", "20", "--pool", "pool.csv", "--per-worker", "4", "--output", "pairs.csv")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	pairs := readCSV(t, filepath.Join(dir, "pairs.csv"))
	if len(pairs) != 13 || pairs[0][1] != "worker" {
		t.Fatalf("pairs table: %d rows, header %v", len(pairs), pairs[0])
	}
	per := map[string]int{}
	for _, row := range pairs[1:] {
		per[row[1]]++
	}
	for w, n := range per {
		if n > 4 {
			t.Errorf("worker %s got %d tasks, more than --per-worker 4", w, n)
		}
	}

	// Every task with intervals: lo ≤ hi within [0, 1].
	r = runIn(t, dir, "", "next", "--dataset", "temp", "--budget", "5", "--output", "n.csv", "--tasks", "tasks.csv", "--intervals", "0.9", "--distribution", "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if want := "next: 5 of 462 tasks chosen (budget 5, stop at confidence 0.99)\n"; r.stderr != want {
		t.Errorf("--quiet: stderr %q, want only %q", r.stderr, want)
	}
	tasks := readCSV(t, filepath.Join(dir, "tasks.csv"))
	if len(tasks) != 463 || strings.Join(tasks[0], ",") != "task,labels,label,confidence,gain,p_change,p_1,p_1_lo,p_1_hi,p_2,p_2_lo,p_2_hi,q_1,q_1_lo,q_1_hi,q_2,q_2_lo,q_2_hi" {
		t.Fatalf("tasks table: %d rows, header %v", len(tasks), tasks[0])
	}
	for _, row := range tasks[1:] {
		for _, c := range []int{7, 10, 13, 16} {
			lo, _ := strconv.ParseFloat(row[c], 64)
			hi, _ := strconv.ParseFloat(row[c+1], 64)
			if !(0 <= lo && lo <= hi && hi <= 1) {
				t.Errorf("task %s: interval [%v, %v]", row[0], lo, hi)
			}
		}
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--intervals", "0.9"}, "--intervals applies to --tasks"},
		{[]string{"--distribution"}, "--distribution applies to --tasks"},
		{[]string{"--tasks", "t.csv", "--intervals", "1.5"}, "--intervals 1.5"},
		{[]string{"--budget", "-1"}, "--budget -1"},
		{[]string{"--stop", "1.5"}, "--stop 1.5"},
		{[]string{"--lookahead", "0"}, "--lookahead 0"},
		{[]string{"--per-worker", "3"}, "--per-worker applies only with --pool"},
		{[]string{"--pool", "bad-pool.csv"}, `bad-pool.csv:3: worker "nobody" has no labels`},
	} {
		args := append([]string{"next", "--dataset", "rte", "--output", "out.csv"}, tc.args...)
		r := runIn(t, dir, "", args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q on one line", tc.args, r.code, r.stderr, tc.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "out.csv")); err == nil {
			t.Errorf("%v: wrote out.csv", tc.args)
		}
	}
}

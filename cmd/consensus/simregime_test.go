package main

import (
	"bytes"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readTable reads a CSV file of dir into its header and rows.
func readTable(t *testing.T, dir, name string) ([]string, [][]string) {
	t.Helper()
	rows := readCSV(t, filepath.Join(dir, name))
	if len(rows) == 0 {
		t.Fatalf("%s is empty", name)
	}
	return rows[0], rows[1:]
}

// TestSimulateRegime checks --regime and the flags that override it:
// the sizes of the preset with --objects changed, the worker kinds of
// --truth-workers with --spammers and --adversaries changed, the subtype
// column of --truth, the posterior of --bayes (probabilities summing to 1,
// its label their argmax), and that the same command writes the same
// bytes.
func TestSimulateRegime(t *testing.T) {
	dir := t.TempDir()
	args := []string{"simulate", "--regime", "correlated", "--objects", "600", "--spammers", "0.2", "--adversaries", "0.1", "--seed", "4",
		"-o", "l.csv", "--truth", "t.csv", "--truth-workers", "w.csv", "--bayes", "b.csv"}
	if r := runIn(t, dir, "", args...); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	_, labels := readTable(t, dir, "l.csv")
	if len(labels) != 600*5 {
		t.Errorf("%d labels, want 600 objects × 5", len(labels))
	}
	header, workers := readTable(t, dir, "w.csv")
	if !slices.Equal(header[:3], []string{"worker", "kind", "labels"}) || len(workers) != 100 {
		t.Fatalf("workers file: header %v, %d rows; want worker, kind, labels, ... and 100 rows", header, len(workers))
	}
	kinds := map[string]int{}
	total := 0
	for _, row := range workers {
		kinds[row[1]]++
		n, err := strconv.Atoi(row[2])
		if err != nil {
			t.Fatal(err)
		}
		total += n
	}
	if want := map[string]int{"correlated": 2, "spammer": 20, "adversary": 10, "normal": 68}; !maps.Equal(kinds, want) {
		t.Errorf("kinds %v, want %v", kinds, want)
	}
	if total != len(labels) {
		t.Errorf("the workers' labels sum to %d, want %d", total, len(labels))
	}
	header, truth := readTable(t, dir, "t.csv")
	if !slices.Equal(header, []string{"task", "label", "q_0", "q_1", "subtype"}) || len(truth) != 600 {
		t.Errorf("truth file: header %v, %d rows", header, len(truth))
	}
	header, bayes := readTable(t, dir, "b.csv")
	if !slices.Equal(header, []string{"task", "label", "p_0", "p_1"}) || len(bayes) != 600 {
		t.Fatalf("--bayes file: header %v, %d rows", header, len(bayes))
	}
	var right int
	for j, row := range bayes {
		p0, err0 := strconv.ParseFloat(row[2], 64)
		p1, err1 := strconv.ParseFloat(row[3], 64)
		if err0 != nil || err1 != nil || math.Abs(p0+p1-1) > 1e-12 || (p0 > p1) != (row[1] == "0") {
			t.Fatalf("--bayes row %v", row)
		}
		if row[1] == truth[j][1] {
			right++
		}
	}
	if acc := float64(right) / 600; acc < 0.8 {
		t.Errorf("the Bayes posterior's accuracy is %.3f", acc)
	}

	for _, f := range []string{"l.csv", "t.csv", "w.csv", "b.csv"} {
		if err := os.Rename(filepath.Join(dir, f), filepath.Join(dir, "first-"+f)); err != nil {
			t.Fatal(err)
		}
	}
	if r := runIn(t, dir, "", args...); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, f := range []string{"l.csv", "t.csv", "w.csv", "b.csv"} {
		a, _ := os.ReadFile(filepath.Join(dir, f))
		b, _ := os.ReadFile(filepath.Join(dir, "first-"+f))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs with the same seed", f)
		}
	}
}

// TestSimulateRegimeZeroFlags checks that the regime flags at their
// neutral values (a uniform class prior, activity 0, no spammers) write
// the labels and the truth of the command without them, byte for byte.
func TestSimulateRegimeZeroFlags(t *testing.T) {
	dir := t.TempDir()
	base := []string{"simulate", "--model", "la-ds", "--objects", "200", "--workers", "15", "--labels-per-object", "4", "--seed", "3"}
	if r := runIn(t, dir, "", append(base, "-o", "a.csv", "--truth", "at.csv")...); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	extra := []string{"--class-prior", "0.5,0.5", "--activity", "0", "--spammers", "0", "--adversaries", "0", "--correlated", "off"}
	if r := runIn(t, dir, "", append(append(base, extra...), "-o", "b.csv", "--truth", "bt.csv")...); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, p := range [][2]string{{"a.csv", "b.csv"}, {"at.csv", "bt.csv"}} {
		a, _ := os.ReadFile(filepath.Join(dir, p[0]))
		b, _ := os.ReadFile(filepath.Join(dir, p[1]))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s and %s differ", p[0], p[1])
		}
	}
}

// TestSimulateRegimeFromFlags checks that a regime's flags, given one by
// one, write the same files as --regime, and that --accuracy and
// --near-random give the workers of --truth-workers their ranges.
func TestSimulateRegimeFromFlags(t *testing.T) {
	dir := t.TempDir()
	if r := runIn(t, dir, "", "simulate", "--regime", "sparse", "--objects", "500", "--seed", "2", "-o", "a.csv", "--truth", "at.csv", "--truth-workers", "aw.csv"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if r := runIn(t, dir, "", "simulate", "--model", "la-ds", "--objects", "500", "--workers", "176", "--labels-per-object", "3",
		"--activity", "0.9", "--class-prior", "0.88,0.12", "--accuracy", "0.75:0.98,0.55:0.95", "--near-random", "0.1", "--seed", "2",
		"-o", "b.csv", "--truth", "bt.csv", "--truth-workers", "bw.csv"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, p := range [][2]string{{"a.csv", "b.csv"}, {"at.csv", "bt.csv"}, {"aw.csv", "bw.csv"}} {
		a, _ := os.ReadFile(filepath.Join(dir, p[0]))
		b, _ := os.ReadFile(filepath.Join(dir, p[1]))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s and %s differ", p[0], p[1])
		}
	}
	header, workers := readTable(t, dir, "bw.csv")
	if !slices.Equal(header, []string{"worker", "kind", "labels", "p[0,0]", "p[0,1]", "p[1,0]", "p[1,1]"}) {
		t.Fatalf("workers file header %v", header)
	}
	near := 0
	for _, row := range workers {
		d0, _ := strconv.ParseFloat(row[3], 64)
		d1, _ := strconv.ParseFloat(row[6], 64)
		switch {
		case d0 >= 0.4 && d0 <= 0.6 && d1 >= 0.4 && d1 <= 0.6:
			near++
		case d0 < 0.75 || d0 > 0.98 || d1 < 0.55 || d1 > 0.95:
			t.Errorf("worker %v outside the ranges", row)
		}
	}
	if near != 18 {
		t.Errorf("%d near-random workers, want 18", near)
	}
}

// TestSimulateAmbiguousFromFlags checks that the ambiguous regime, written
// out in flags, writes the same files, Bayes limit included, and that
// --ambiguity off gives the LA data of the regime's other settings.
func TestSimulateAmbiguousFromFlags(t *testing.T) {
	dir := t.TempDir()
	files := func(p string) []string {
		return []string{"-o", p + ".csv", "--truth", p + "t.csv", "--bayes", p + "b.csv"}
	}
	for _, args := range [][]string{
		append([]string{"simulate", "--regime", "ambiguous", "--objects", "300", "--seed", "2"}, files("a")...),
		append([]string{"simulate", "--model", "la-ds", "--objects", "300", "--workers", "100", "--classes", "3", "--labels-per-object", "5",
			"--activity", "0.5", "--accuracy", "0.7:0.95", "--ambiguity", "base=0.5,vertex=3", "--seed", "2"}, files("b")...),
		append([]string{"simulate", "--regime", "ambiguous", "--ambiguity", "off", "--objects", "300", "--seed", "2"}, files("c")...),
		append([]string{"simulate", "--model", "la-ds", "--objects", "300", "--workers", "100", "--classes", "3", "--labels-per-object", "5",
			"--activity", "0.5", "--accuracy", "0.7:0.95", "--seed", "2"}, files("d")...),
	} {
		if r := runIn(t, dir, "", args...); r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
	}
	for _, p := range [][2]string{{"a.csv", "b.csv"}, {"at.csv", "bt.csv"}, {"ab.csv", "bb.csv"}, {"c.csv", "d.csv"}, {"ct.csv", "dt.csv"}, {"cb.csv", "db.csv"}} {
		a, _ := os.ReadFile(filepath.Join(dir, p[0]))
		b, _ := os.ReadFile(filepath.Join(dir, p[1]))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s and %s differ", p[0], p[1])
		}
	}
	a, _ := os.ReadFile(filepath.Join(dir, "a.csv"))
	c, _ := os.ReadFile(filepath.Join(dir, "c.csv"))
	if bytes.Equal(a, c) {
		t.Error("--ambiguity off did not change the labels")
	}
}

// TestSimulateRegimeErrors checks that simulate refuses bad values of the
// regime flags with a one-line error naming the flag, exit status 2 and no
// output file.
func TestSimulateRegimeErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // in the message
	}{
		{[]string{"--regime", "nope"}, "--regime nope"},
		{[]string{"--regime", "sparse", "--model", "la-onecoin"}, "--regime sparse with --model la-onecoin: the parameters draw ds workers, not onecoin ones"},
		{[]string{"--regime", "sparse", "--classes", "3"}, "--classes 3"},
		{[]string{"--class-prior", "0.5,0.6"}, "--class-prior"},
		{[]string{"--class-prior", "1"}, "--class-prior"},
		{[]string{"--class-prior", "0.5,x"}, "--class-prior"},
		{[]string{"--class-prior", "0,1"}, "--class-prior"},
		{[]string{"--class-prior", "0.2,0.3,0.5", "--classes", "2"}, "--class-prior"},
		{[]string{"--activity", "-1"}, "--activity"},
		{[]string{"--activity", "Inf"}, "--activity"},
		{[]string{"--spammers", "1.5"}, "--spammers"},
		{[]string{"--adversaries", "-0.1"}, "--adversaries"},
		{[]string{"--spammers", "0.6", "--adversaries", "0.5"}, "--spammers"},
		{[]string{"--correlated", "workers=2"}, "--correlated"},
		{[]string{"--correlated", "workers=2,coverage=0,subtype=0.3"}, "--correlated"},
		{[]string{"--correlated", "workers=2,coverage=0.5,subtype=2"}, "--correlated"},
		{[]string{"--correlated", "workers=2,coverage=0.5,subtype=0.3,x=1"}, "--correlated"},
		{[]string{"--correlated", "workers=2,coverage=0.5,subtype=0.3,from=1"}, "--correlated"},
		{[]string{"--correlated", "workers=2,coverage=0.5,subtype=0.3,from=1,to=1"}, "--correlated"},
		{[]string{"--correlated", "workers=2,coverage=0.5,subtype=0.3,from=0,to=2"}, "--correlated"},
		{[]string{"--correlated", "workers=20,coverage=0.5,subtype=0.3"}, "--correlated"},
		{[]string{"--correlated", "workers=3,coverage=0.5,subtype=0.3", "--labels-per-object", "2"}, "--correlated"},
		{[]string{"--correlated", "workers=two,coverage=0.5,subtype=0.3"}, "--correlated"},
		{[]string{"--bayes", "b.csv"}, "--bayes"},
		{[]string{"--model", "la-ds", "--accuracy", "0.7:0.6"}, "--accuracy"},
		{[]string{"--model", "la-ds", "--accuracy", "0.5:1"}, "--accuracy"},
		{[]string{"--model", "la-ds", "--accuracy", "0.5"}, "--accuracy"},
		{[]string{"--model", "la-ds", "--accuracy", "0.5:0.6,0.5:0.6,0.5:0.6"}, "--accuracy"},
		{[]string{"--model", "la-onecoin", "--accuracy", "0.5:0.6,0.5:0.6"}, "--accuracy"},
		{[]string{"--model", "la-glad", "--accuracy", "0.5:0.6"}, "--accuracy"},
		{[]string{"--model", "la-ds", "--near-random", "1.1"}, "--near-random"},
		{[]string{"--model", "la-ds", "--error-decay", "-1"}, "--error-decay"},
		{[]string{"--model", "la-onecoin", "--error-decay", "1"}, "--error-decay"},
		{[]string{"--bayes", "b.csv", "--truth-workers", "b.csv"}, "same file"},
		{[]string{"--ambiguity", "vertex=3,base=0.5"}, "--ambiguity"},
		{[]string{"--model", "la-ds", "--ambiguity", "vertex=3"}, "--ambiguity"},
		{[]string{"--model", "la-ds", "--ambiguity", "vertex=3,base=0"}, "--ambiguity"},
		{[]string{"--model", "la-ds", "--ambiguity", "vertex=3,base=1", "--correlated", "workers=2,coverage=0.5,subtype=0.3"}, "--ambiguity"},
		{[]string{"--model", "la-ds", "--ambiguity", "vertex=3,base=1", "--classes", "10", "--bayes", "b.csv"}, "--bayes"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			dir := t.TempDir()
			r := runIn(t, dir, "", append(append([]string{"simulate", "--objects", "50"}, tc.args...), "-o", "l.csv")...)
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Errorf("exit %d, stderr %q; want 2 and one line with %q", r.code, r.stderr, tc.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("files written: %v", entries)
			}
		})
	}
}

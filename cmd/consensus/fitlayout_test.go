package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFitLayout runs fit with --layout crowdkit and --tasks: the
// Crowd-Kit-shaped table, GLAD's difficulties, the class prior in the
// summary, and one-line usage errors that write nothing.
func TestFitLayout(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"l.csv": "task,worker,label\n0001,a,x\n0001,b,y\n0002,a,x\n0002,b,x\n0003,a,y\n",
		"clash.csv": "task,worker,label\n1,a,task\n1,b,y\n"})
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout []string // lines the output begins with
		stderr string
		files  map[string]string // file → its first line
	}{
		{"crowdkit", []string{"fit", "l.csv", "-m", "la-ds", "--layout", "crowdkit"}, 0,
			[]string{"task,agg_label,x,y", "0001,"}, "class prior: x ", nil},
		{"default", []string{"fit", "l.csv", "-m", "la-ds", "-q"}, 0, []string{"task,label,p_x,p_y"}, "", nil},
		{"glad tasks", []string{"fit", "l.csv", "-m", "la-glad", "-q", "--tasks", "t.jsonl", "--layout", "crowdkit", "-o", "c.tsv"}, 0, nil, "",
			map[string]string{"t.jsonl": `{"task":"0001","labels":2,"difficulty":`, "c.tsv": "task\tagg_label\tx\ty"}},
		{"tasks without glad", []string{"fit", "l.csv", "-m", "la-ds", "--tasks", "t2.csv", "-o", "c2.csv"}, 2, nil, "--tasks: model la-ds has no per-task parameters", nil},
		{"tasks the result lacks", []string{"fit", "l.csv", "-m", "vb-la-glad", "-q", "--tasks", "t3.csv", "-o", "c5.csv"}, 2, nil, "--tasks: model vb-la-glad has no per-task parameters", nil},
		{"bad layout", []string{"fit", "l.csv", "--layout", "wide", "-o", "c3.csv"}, 2, nil, `--layout: unknown layout "wide"`, nil},
		{"class clash", []string{"fit", "clash.csv", "-m", "mv", "--layout", "crowdkit", "-o", "c4.csv"}, 2, nil, `class "task" has the name of a column`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runIn(t, dir, "", tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %s", r.code, tc.code, r.stderr)
			}
			lines := strings.Split(r.stdout, "\n")
			for i, want := range tc.stdout {
				if i >= len(lines) || !strings.HasPrefix(lines[i], want) {
					t.Errorf("stdout line %d: %q, want prefix %q", i, lines, want)
				}
			}
			if !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("stderr %q lacks %q", r.stderr, tc.stderr)
			}
			if tc.code != 0 {
				if strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
					t.Errorf("error of more than one line: %q", r.stderr)
				}
				for _, a := range tc.args {
					if strings.HasPrefix(a, "c") && strings.Contains(a, ".") && a != "clash.csv" {
						if _, err := os.Stat(filepath.Join(dir, a)); err == nil {
							t.Errorf("%s written despite the error", a)
						}
					}
				}
			}
			for name, first := range tc.files {
				b, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(string(b), first) {
					t.Errorf("%s begins %q, want %q", name, strings.SplitN(string(b), "\n", 2)[0], first)
				}
			}
		})
	}
}

// TestEvalReadsCrowdKitLayout checks that eval reads fit's --layout
// crowdkit output, in every format, with the scores of the default
// layout, and names a bad class column as it is written.
func TestEvalReadsCrowdKitLayout(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"in.csv": hLabels, "gold.csv": hGold,
		"bad.csv": "task,agg_label,x,y\n1,x,0.5,0.5\n2,y,0.2,lots\n"})
	if r := runIn(t, dir, "", "fit", "in.csv", "-m", "la-ds", "-q", "-o", "d.csv"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	want := runIn(t, dir, "", "eval", "-p", "d.csv", "-g", "gold.csv")
	for _, out := range []string{"ck.csv", "ck.tsv", "ck.jsonl", "ck.parquet", "ck.csv.gz"} {
		if r := runIn(t, dir, "", "fit", "in.csv", "-m", "la-ds", "-q", "--layout", "crowdkit", "-o", out); r.code != 0 {
			t.Fatal(r.stderr)
		}
		got := runIn(t, dir, "", "eval", "-p", out, "-g", "gold.csv")
		if got.code != 0 || got.stdout != want.stdout {
			t.Errorf("%s: exit %d, %q %s; want %q", out, got.code, got.stdout, got.stderr, want.stdout)
		}
	}
	r := runIn(t, dir, "", "eval", "-p", "bad.csv", "-g", "gold.csv")
	if r.code != 2 || !strings.Contains(r.stderr, `bad.csv:3: y = "lots" is not a probability`) {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

package main

import (
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadLimitSizeCLI checks that --max-memory counts the text of long
// identifiers and the fields of wide lines in every command that reads
// labels or comparisons, from a file and from standard input: the run
// stops with exit status 1 (the estimate before reading) or 2 (the limit
// while reading) and one line, writes no output and peaks below 300 MB.
// Without -short it also runs the scale: 150,000 tasks of 10 KB
// ids (1.5 GB of text in a gzip file) and a CSV of 10⁶ columns, with
// --max-memory 100M, which used to finish at a 1.5 GB peak.
func TestReadLimitSizeCLI(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 10_000)
	writeGzip := func(name string, n int, row func(w *gzip.Writer, i int)) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
		for i := range n {
			row(zw, i)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	header := func(w *gzip.Writer, s string, i int) {
		if i == 0 {
			fmt.Fprint(w, s)
		}
	}
	writeGzip("long.csv.gz", 3000, func(w *gzip.Writer, i int) {
		header(w, "task,worker,label\n", i)
		fmt.Fprintf(w, "%d%s,a,x\n%d%s,b,y\n", i, long, i, long)
	})
	writeGzip("long.jsonl.gz", 3000, func(w *gzip.Writer, i int) {
		fmt.Fprintf(w, "{\"task\":\"%d%s\",\"worker\":\"a\",\"label\":\"x\"}\n", i, long)
	})
	writeGzip("pairs.csv.gz", 3000, func(w *gzip.Writer, i int) {
		header(w, "left,right,label\n", i)
		fmt.Fprintf(w, "%d%s,b,b\n", i, long)
	})
	wide := strings.Repeat(",c", 200_000)
	writeGzip("wide.csv.gz", 1, func(w *gzip.Writer, i int) {
		fmt.Fprintf(w, "task,worker,label%s\n1,a,x%s\n", wide, wide)
	})
	type run struct {
		name  string
		stdin string // a file to give on standard input, if any
		args  []string
	}
	cases := []run{
		{"fit, long ids", "", []string{"fit", "-i", "long.csv.gz", "-m", "mv", "-o", "o.csv"}},
		{"fit, long ids on standard input", "long.csv.gz", []string{"fit", "-i", "-", "-m", "mv", "-o", "o.csv"}},
		{"fit, long ids, JSON Lines on standard input", "long.jsonl.gz", []string{"fit", "-i", "-", "--format", "jsonl", "-m", "mv", "-o", "o.csv"}},
		{"report, long ids", "long.csv.gz", []string{"report", "-i", "-", "-o", "o.html"}},
		{"compare, long ids", "long.csv.gz", []string{"compare", "-i", "-", "--models", "mv,la-ds"}},
		{"pairwise fit, long items", "pairs.csv.gz", []string{"pairwise", "fit", "-", "-o", "o.csv"}},
		{"fit, wide", "", []string{"fit", "-i", "wide.csv.gz", "-m", "mv", "-o", "o.csv"}},
		{"next, wide", "wide.csv.gz", []string{"next", "-i", "-", "--budget", "10", "-o", "o.csv"}},
		{"eval, wide predictions", "", []string{"eval", "-p", "wide.csv.gz", "-g", "long.csv.gz"}},
	}
	for i := range cases {
		cases[i].args = append(cases[i].args, "--max-memory", "20M")
	}
	if !testing.Short() {
		writeGzip("issue.csv.gz", 150_000, func(w *gzip.Writer, i int) {
			header(w, "task,worker,label\n", i)
			fmt.Fprintf(w, "%d%s,w%d,%d\n", i, long, i%7, i%2)
		})
		f, err := os.Create(filepath.Join(dir, "issue-wide.csv"))
		if err != nil {
			t.Fatal(err)
		}
		cols := strings.Repeat(",v", 1_000_000)
		fmt.Fprintf(f, "task,worker,label%s\n1,a,x%s\n1,b,y%s\n", cols, cols, cols)
		f.Close()
		cases = append(cases,
			run{"issue: 150,000 tasks of 10 KB", "", []string{"fit", "issue.csv.gz", "-m", "mv", "-o", "o.csv", "--max-memory", "100M"}},
			run{"issue: 150,000 tasks of 10 KB on standard input", "issue.csv.gz", []string{"fit", "-i", "-", "-m", "mv", "-o", "o.csv", "--max-memory", "100M"}},
			run{"issue: 10⁶ columns", "", []string{"fit", "issue-wide.csv", "-m", "mv", "-o", "o.csv", "--max-memory", "100M"}},
		)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(consensusBin, tc.args...)
			cmd.Dir = dir
			if tc.stdin != "" {
				f, err := os.Open(filepath.Join(dir, tc.stdin))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				cmd.Stdin = f
			}
			r := execute(t, cmd)
			peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
			t.Logf("exit %d, peak %.0f MB: %s", r.code, float64(peak)/1e6, strings.TrimSpace(r.stderr))
			if r.code != 1 && r.code != 2 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "memory") {
				t.Fatalf("exit %d, stderr %q; want exit status 1 or 2 and one line about memory", r.code, r.stderr)
			}
			if peak > 300e6 {
				t.Errorf("peak %.0f MB, want below 300 MB", float64(peak)/1e6)
			}
			for _, o := range []string{"o.csv", "o.html"} {
				if _, err := os.Stat(filepath.Join(dir, o)); err == nil {
					t.Errorf("%s was written", o)
				}
			}
		})
	}
}

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/datasets"
)

// triples returns the labels of d as sorted "task\x00worker\x00label"
// strings: the data set independent of the order of its rows.
func triples(d *data.Dataset) []string {
	out := make([]string, 0, d.NumLabels())
	for j, task := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		for i, w := range workers {
			out = append(out, task+"\x00"+d.Workers[w]+"\x00"+d.Classes[labels[i]])
		}
	}
	slices.Sort(out)
	return out
}

// goldPairs returns the gold labels as "task\x00class" strings in order.
func goldPairs(d *data.Dataset, g *data.Gold) []string {
	out := make([]string, g.Len())
	for i, j := range g.Task {
		out[i] = d.Tasks[j] + "\x00" + d.Classes[g.Label[i]]
	}
	return out
}

// TestDatasetsExportRoundTrip exports shipped data sets in every format,
// reads the files back and checks that they hold the same data set: the
// same tasks in the same order, the same workers and classes, the same
// (task, worker, label) rows and the same gold labels.
func TestDatasetsExportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	type tc struct {
		name, format string
		gz           bool
	}
	var cases []tc
	for _, n := range datasets.Names() {
		cases = append(cases, tc{n, "csv", false})
	}
	for _, f := range []string{"tsv", "jsonl", "parquet"} {
		cases = append(cases, tc{"temp", f, false}, tc{"websearch", f, true})
	}
	for _, c := range cases {
		out := filepath.Join(dir, fmt.Sprintf("%s-%s-%v", c.name, c.format, c.gz), "sub")
		args := []string{"datasets", "export", c.name, out, "--format", c.format}
		ext := "." + c.format
		if c.gz {
			args = append(args, "--gzip")
			ext += ".gz"
		}
		if r := runIn(t, dir, "", args...); r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		want, wantGold, err := datasets.Load(c.name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := dataio.LoadLabels(context.Background(), filepath.Join(out, "labels"+ext), "", dataio.ReadSettings{})
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		gotGold, err := dataio.LoadGold(context.Background(), filepath.Join(out, "gold"+ext), "", got, dataio.ReadSettings{})
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if !slices.Equal(got.Tasks, want.Tasks) || !slices.Equal(got.Classes, want.Classes) {
			t.Errorf("%v: tasks or classes differ: %d tasks, classes %v; want %d, %v", args, got.NumTasks(), got.Classes, want.NumTasks(), want.Classes)
		}
		gw, ww := slices.Sorted(slices.Values(got.Workers)), slices.Sorted(slices.Values(want.Workers))
		if !slices.Equal(gw, ww) {
			t.Errorf("%v: %d workers, want %d", args, len(gw), len(ww))
		}
		if !slices.Equal(triples(got), triples(want)) {
			t.Errorf("%v: the labels differ (%d rows, want %d)", args, got.NumLabels(), want.NumLabels())
		}
		if !slices.Equal(goldPairs(got, gotGold), goldPairs(want, wantGold)) || gotGold.Unmatched != 0 {
			t.Errorf("%v: the gold labels differ (%d, want %d; %d unmatched)", args, gotGold.Len(), wantGold.Len(), gotGold.Unmatched)
		}
		src, _ := datasets.Source(c.name)
		if b, err := os.ReadFile(filepath.Join(out, "SOURCE.md")); err != nil || string(b) != src {
			t.Errorf("%v: SOURCE.md differs from the shipped one (%v)", args, err)
		}
	}
}

// TestDatasetsExportFitEval runs the eval help's example: export rte, fit
// the exported labels and evaluate the consensus on the exported gold. The
// gold metrics printed by fit and by eval agree.
func TestDatasetsExportFitEval(t *testing.T) {
	dir := t.TempDir()
	steps := [][]string{
		{"datasets", "export", "rte", "rte"},
		{"fit", "-i", "rte/labels.csv", "-g", "rte/gold.csv", "--model", "da-ds", "--output", "rte.csv"},
		{"eval", "--predictions", "rte.csv", "--gold", "rte/gold.csv"},
	}
	var fitErr string
	for _, s := range steps {
		r := runIn(t, dir, "", s...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", s, r.code, r.stderr)
		}
		if s[0] == "fit" {
			fitErr = r.stderr
		}
		if s[0] == "eval" {
			if !strings.Contains(r.stdout, "tasks\t800\n") {
				t.Errorf("eval: want 800 gold tasks:\n%s", r.stdout)
			}
			var acc float64
			for _, line := range strings.Split(r.stdout, "\n") {
				fmt.Sscanf(line, "accuracy\t%g", &acc)
			}
			if want := fmt.Sprintf("accuracy %.4f", acc); !strings.Contains(fitErr, want) {
				t.Errorf("eval accuracy %.6f does not match fit's summary %q", acc, fitErr)
			}
		}
	}
}

// TestDatasetsExportErrors checks the one-line usage errors of export:
// an unknown data set or format, a DIR that is a file, a DIR holding a
// file (or a dangling link) of one of export's names, and no files written
// or replaced.
func TestDatasetsExportErrors(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"file": "x"})
	mine := filepath.Join(dir, "mine")
	os.Mkdir(mine, 0o755)
	writeFiles(t, mine, map[string]string{"labels.csv": "mine\n"})
	os.Symlink("nowhere", filepath.Join(mine, "SOURCE.md"))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"datasets", "export", "nope", "out"}, `unknown data set "nope"`},
		{[]string{"datasets", "export", "rte", "out", "--format", "xlsx"}, `unknown format "xlsx"`},
		{[]string{"datasets", "export", "rte", "file"}, "file exists and is not a directory"},
		{[]string{"datasets", "export", "rte"}, "accepts 2 arg(s)"},
		{[]string{"datasets", "export", "rte", "mine"}, "mine/labels.csv already exists; export does not replace files"},
		{[]string{"datasets", "export", "rte", "mine", "--format", "tsv"}, "mine/SOURCE.md already exists"},
	} {
		r := runIn(t, dir, "", c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Errorf("a failed export created its directory")
	}
	if got := snapshot(t, mine); len(got) != 1 || got["labels.csv"] != "mine\n" {
		t.Errorf("mine/ holds %v after refused exports", got)
	}
}

// TestExportCompareCompletion checks the completion of the data set names
// of export and of the format flags of export and compare.
func TestExportCompareCompletion(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"__complete", "datasets", "export", ""}, "duchenne\n"},
		{[]string{"__complete", "datasets", "export", "rte", "--format", ""}, "parquet\n"},
		{[]string{"__complete", "compare", "--output-format", ""}, "markdown\n"},
	} {
		r := runIn(t, t.TempDir(), "", c.args...)
		if r.code != 0 || !strings.Contains(r.stdout, c.want) {
			t.Errorf("%v: exit %d, completions %q; want %q", c.args, r.code, r.stdout, c.want)
		}
	}
}

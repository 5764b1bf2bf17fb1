package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryCommandReadsEveryFormat writes the rte data set and fit's
// outputs in every format, gzip-compressed or not, and reads each file
// with every command that takes it: fit --input, --gold, --train-gold and
// --init-workers, and eval --predictions and --gold. Every run must give
// the output of the plain CSV run, byte for byte.
func TestEveryCommandReadsEveryFormat(t *testing.T) {
	dir := t.TempDir()
	run := func(args ...string) result {
		t.Helper()
		r := runIn(t, dir, "", args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		return r
	}
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var base struct{ eval, init, train string }
	for i, f := range []string{"csv", "tsv", "jsonl", "parquet", "csv.gz", "tsv.gz", "jsonl.gz", "parquet.gz"} {
		format, gz := strings.CutSuffix(f, ".gz")
		ex := "ex-" + strings.ReplaceAll(f, ".", "-")
		args := []string{"datasets", "export", "rte", ex, "--format", format}
		if gz {
			args = append(args, "--gzip")
		}
		run(args...)
		labels, gold := filepath.Join(ex, "labels."+f), filepath.Join(ex, "gold."+f)
		c, w := "c."+f, "w."+f
		run("fit", "-i", labels, "-g", gold, "-m", "la-ds", "-q", "-o", c, "--workers", w)
		ev := run("eval", "-p", c, "-g", gold).stdout
		run("fit", "-i", labels, "-m", "da-ds", "-q", "--init-workers", w, "-o", "init.csv")
		run("fit", "-i", labels, "-g", gold, "--train-gold", gold, "-m", "la-ds", "-q", "-o", "train.csv")
		got := struct{ eval, init, train string }{ev, read("init.csv"), read("train.csv")}
		if i == 0 {
			base = got
			if !strings.Contains(ev, "tasks\t800") {
				t.Fatalf("eval of rte: %s", ev)
			}
			continue
		}
		if got.eval != base.eval || got.init != base.init || got.train != base.train {
			t.Errorf("%s: the runs differ from those of the CSV files:\neval %q, want %q", f, got.eval, base.eval)
		}
	}
	// Standard input, with the format given by flag.
	r := runIn(t, dir, read("c.parquet"), "eval", "-p", "-", "--predictions-format", "parquet", "-g", "ex-csv/gold.csv")
	if r.code != 0 || r.stdout != base.eval {
		t.Errorf("eval of Parquet on standard input: exit %d, %q %s", r.code, r.stdout, r.stderr)
	}
	r = runIn(t, dir, read("w.jsonl"), "fit", "-i", "ex-csv/labels.csv", "-m", "da-ds", "-q", "--init-workers", "-", "--init-workers-format", "jsonl", "-o", "init.csv")
	if r.code != 0 || read("init.csv") != base.init {
		t.Errorf("--init-workers of JSON Lines on standard input: exit %d: %s", r.code, r.stderr)
	}
}

// TestReadErrorsNameTheirFlags checks that the advice added to a reader's
// message names the flag of the file concerned, and that each message is
// the one docs/errors.md shows.
func TestReadErrorsNameTheirFlags(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"in.csv": okLabels, "gold.csv": "task,label\n1,x\n", "text.parquet": okLabels})
	const notParquet = "text.parquet: not a Parquet file (it does not start with PAR1); it looks like text: name it .csv, .tsv or .jsonl, or use "
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", "-i", "text.parquet", "-o", "o.csv"}, notParquet + "--format\n"},
		{[]string{"fit", "-i", "in.csv", "-g", "text.parquet", "-m", "mv", "-o", "o.csv"}, notParquet + "--gold-format\n"},
		{[]string{"eval", "-p", "text.parquet", "-g", "gold.csv"}, notParquet + "--predictions-format\n"},
		{[]string{"fit", "-i", "in.csv", "-m", "la-ds", "--init-workers", "text.parquet", "-o", "o.csv"}, notParquet + "--init-workers-format\n"},
		{[]string{"fit", "-i", "in.csv", "-m", "la-ds", "--init-workers", "gold.csv", "-o", "o.csv"},
			"gold.csv:1: header has 2 columns 'task', 'label' but no 'worker', 'p[x,x]', 'p[x,y]', 'p[y,x]' or 'p[y,y]' column; the first line must be a header naming the columns, such as 'worker,p[x,x],p[x,y],p[y,x],p[y,y]'; model la-ds needs the worker columns p[x,x],p[x,y],p[y,x],p[y,y] (as fit --workers writes them with this model)\n"},
		{[]string{"eval", "--predictions", "in.csv", "--gold", "gold.csv"},
			`in.csv:1: the columns are 'task', 'worker', 'label': want a task column and at least two p_<class> columns, or task, agg_label and a column per class (--layout crowdkit)` + "\n"},
	} {
		r := runIn(t, dir, "", c.args...)
		if r.code != 2 || r.stderr != "consensus: "+c.want {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, r.code, r.stderr, "consensus: "+c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "o.csv")); err == nil {
			t.Errorf("%v: wrote an output file", c.args)
		}
	}
}

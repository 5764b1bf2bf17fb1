package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/output"
)

// fuzzFormats are the file names the fuzzed bytes are given: every input
// format, plain and gzip-compressed (the bytes are compressed by the test).
var fuzzFormats = []string{"in.csv", "in.tsv", "in.jsonl", "in.parquet", "in.csv.gz", "in.tsv.gz", "in.jsonl.gz", "in.parquet.gz"}

// fuzzCommands are the reading subcommands; IN is the fuzzed file, the
// other files are valid.
var fuzzCommands = [][]string{
	{"fit", "-i", "IN", "-m", "mv", "-o", "out.csv"},
	{"fit", "-i", "IN", "-m", "la-ds", "--max-iter", "3", "-g", "gold.csv", "-o", "out.parquet", "--workers", "w.jsonl"},
	{"fit", "-i", "labels.csv", "-m", "mv", "-g", "IN"},
	{"fit", "-i", "labels.csv", "-m", "la-ds", "--max-iter", "3", "--init-workers", "IN", "-o", "out.csv"},
	{"eval", "-p", "IN", "-g", "gold.csv"},
	{"eval", "-p", "pred.csv", "-g", "IN"},
	{"report", "-i", "IN", "--models", "rfe,la-ds", "--max-iter", "3", "--bootstrap", "-1", "-o", "r.html"},
	{"compare", "-i", "IN", "--models", "rfe,mv", "--splits", "1", "--bootstrap", "2"},
	// Last, so that the corpus's earlier inputs keep their commands.
	{"fit", "-i", "labels.csv", "-m", "vb-da-ds", "--max-iter", "3", "--init-workers", "IN", "--fix-workers", "-o", "out.csv"},
	{"fit", "-i", "labels.csv", "-m", "mv", "--skills", "IN", "--missing-skill", "ignore", "-o", "out.csv"},
}

// FuzzReadCommands runs every reading subcommand (fit, fit with gold and
// --init-workers, of la-ds and of the default model with --fix-workers,
// mv with --skills, eval, report, compare) in-process on fuzzed bytes given
// as a file of every input format, plain or gzip-compressed. It must never
// panic (run turns a panic into "internal error"): the exit status is 0,
// 1 or 2, and a failure is one line on stderr.
func FuzzReadCommands(f *testing.F) {
	labels := "task,worker,label\n1,a,x\n1,b,y\n2,a,x\n2,b,x\n3,a,y\n"
	d, err := dataio.ReadLabels(context.Background(), strings.NewReader(labels), "l.csv", dataio.ReadSettings{})
	if err != nil {
		f.Fatal(err)
	}
	var pq, jl bytes.Buffer
	output.WriteLabels(&pq, d, dataio.Parquet)
	output.WriteLabels(&jl, d, dataio.JSONL)
	seeds := [][]byte{[]byte(labels), pq.Bytes(), jl.Bytes(), []byte("task,label\n1,x\n2,y\n"),
		[]byte("task,label,p_x,p_y\n1,x,0.5,0.5\n2,y,0.25,0.75\n"),
		[]byte("worker,labels,p[x,x],p[x,y],p[y,x],p[y,y]\na,3,0.9,0.1,0.2,0.8\n"),
		[]byte("worker,labels,p[x,x],p[x,y],p[y,x],p[y,y],n[x],n[y]\na,3,0.9,0.1,0.2,0.8,1.5,1.5\nb,2,1,0,0,1,0,2\n"),
		[]byte("worker,skill\na,0.5\nb,2\n"),
		[]byte("task,worker,label\n1,a,x\ntask,worker,label\n1,b,NaN\n"),
		[]byte(`{"task":"1","worker":"\ud800","label":"x"}` + "\n")}
	for _, s := range seeds {
		for which := range len(fuzzFormats) * len(fuzzCommands) {
			f.Add(s, uint8(which))
		}
	}
	f.Fuzz(func(t *testing.T, in []byte, which uint8) {
		name := fuzzFormats[int(which)%len(fuzzFormats)]
		args := fuzzCommands[int(which)/len(fuzzFormats)%len(fuzzCommands)]
		dir := t.TempDir()
		content := in
		if strings.HasSuffix(name, ".gz") {
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			zw.Write(in)
			zw.Close()
			content = z.Bytes()
		}
		files := map[string][]byte{name: content, "labels.csv": []byte(labels), "gold.csv": []byte("task,label\n1,x\n2,x\n"),
			"pred.csv": []byte("task,label,p_x,p_y\n1,x,0.5,0.5\n2,y,0.25,0.75\n")}
		for n, b := range files {
			if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		full := []string{}
		for _, a := range args {
			switch {
			case a == "IN":
				a = filepath.Join(dir, name)
			case strings.Contains(a, ".") && !strings.Contains(a, ","):
				a = filepath.Join(dir, a)
			}
			full = append(full, a)
		}
		full = append(full, "--max-memory", "64M")
		if args[0] != "eval" {
			full = append(full, "-q")
		}
		stdout, stderr := os.Stdout, os.Stderr
		outf, _ := os.Create(filepath.Join(dir, "stdout"))
		errf, _ := os.Create(filepath.Join(dir, "stderr"))
		os.Stdout, os.Stderr = outf, errf
		code := run(context.Background(), full)
		os.Stdout, os.Stderr = stdout, stderr
		outf.Close()
		errf.Close()
		msg, _ := os.ReadFile(filepath.Join(dir, "stderr"))
		if strings.Contains(string(msg), "internal error") || code > 2 {
			t.Fatalf("%v: exit %d: %s", full, code, msg)
		}
		if code != 0 && (strings.Count(string(msg), "\n") != 1 || !strings.HasPrefix(string(msg), "consensus: ")) {
			t.Fatalf("%v: exit %d, message not one line: %q", full, code, msg)
		}
	})
}

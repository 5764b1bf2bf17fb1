package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/output"
)

// writeSmall writes a small labels file in JSON Lines and a gold file in
// CSV, and returns their paths.
func writeSmall(t *testing.T, dir string) (labels, gold string) {
	t.Helper()
	var l, g strings.Builder
	g.WriteString("task,label\n")
	for j := range 30 {
		for w := range 5 {
			y := "a"
			if (j*7+w*3)%5 < j%3+1 {
				y = "b"
			}
			l.WriteString(`{"task":"t` + itoa(j) + `","worker":` + itoa(w) + `,"label":"` + y + `"}` + "\n")
		}
		if j%2 == 0 {
			y := "a"
			if j%3 == 2 {
				y = "b"
			}
			g.WriteString("t" + itoa(j) + "," + y + "\n")
		}
	}
	labels, gold = filepath.Join(dir, "labels.jsonl"), filepath.Join(dir, "gold.csv")
	if err := os.WriteFile(labels, []byte(l.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gold, []byte(g.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return labels, gold
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	labels, gold := writeSmall(t, dir)
	out := filepath.Join(dir, "r.html")
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"report", "-i", labels, "-g", gold, "--models", "rfe,la-ds,da-ds", "--max-iter", "40", "--bootstrap", "10", "-q", "-o", out}, exitOK},
		{[]string{"report", "-i", labels, "--noise", "nope", "-o", out}, exitUsage},
		{[]string{"report", "-i", labels, "--models", "rfe,nope", "-q", "-o", out + ".x"}, exitUsage},
		{[]string{"report", "--dataset", "duchenne", "-i", labels}, exitUsage},
	} {
		if code := run(context.Background(), tc.args); code != tc.code {
			t.Errorf("%v: exit %d, want %d", tc.args, code, tc.code)
		}
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"<title>Consensus report: labels</title>", `id="calibration"`, "da-ds", `id="disagreement"`} {
		if !strings.Contains(string(b), s) {
			t.Errorf("report lacks %q", s)
		}
	}
}

func TestFitFormats(t *testing.T) {
	dir := t.TempDir()
	labels, _ := writeSmall(t, dir)
	for _, f := range []string{"c.parquet", "c.jsonl", "c.tsv", "c.csv.gz"} {
		out := filepath.Join(dir, f)
		code := run(context.Background(), []string{"fit", "-i", labels, "-m", "la-ds", "--max-iter", "30", "-q", "-o", out, "--workers", out + ".workers.jsonl"})
		if code != exitOK {
			t.Fatalf("%s: exit %d", f, code)
		}
		fh, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		p, err := output.ReadConsensus(fh, out, "")
		fh.Close()
		if err != nil || len(p.Tasks) != 30 || strings.Join(p.Classes, ",") != "a,b" {
			t.Errorf("%s: %v %+v", f, err, p)
		}
	}
	// --format overrides the extension, --output-format the output's.
	renamed := filepath.Join(dir, "labels.txt")
	if err := os.Rename(labels, renamed); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.bin")
	if code := run(context.Background(), []string{"fit", "-i", renamed, "--format", "jsonl", "-m", "mv", "-q", "-o", out, "--output-format", "parquet"}); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	fh, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if _, err := output.ReadConsensus(fh, out, dataio.Parquet); err != nil {
		t.Error(err)
	}
	for _, args := range [][]string{
		{"fit", "-i", renamed, "--format", "xlsx"},
		{"fit", "-i", renamed, "--output-format", "xlsx"},
		{"fit", "-i", renamed}, // CSV by extension: no header match
	} {
		if code := run(context.Background(), args); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

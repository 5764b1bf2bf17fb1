package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestReproduceQuick runs 'reproduce --quick' twice, with different
// parallelism, and checks that it writes every expected file and that the
// two runs are byte-identical.
func TestReproduceQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the quick reproduction twice")
	}
	want := []string{
		"calibration.png", "calibration.svg", "calibration_mle.png", "calibration_mle.svg",
		"overlap.csv", "overlap.md", "overlap.png", "overlap.svg", "overlap_mle.png", "overlap_mle.svg",
		"real.csv", "real.md", "report.md", "stats.csv", "stats.md",
		"synthetic.csv", "synthetic.md", "synthetic_sweep.csv", "synthetic_sweep.png", "synthetic_sweep.svg",
		"theory.csv", "theory.md", "theory.png", "theory.svg",
	}
	var dirs [2]string
	for i, par := range []string{"1", "2"} {
		dirs[i] = filepath.Join(t.TempDir(), "out")
		if code := run(context.Background(), []string{"reproduce", "--quick", "-q", "--parallel", par, "-o", dirs[i]}); code != exitOK {
			t.Fatalf("reproduce --quick: exit %d", code)
		}
		entries, err := os.ReadDir(dirs[i])
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		if !slices.Equal(got, want) {
			t.Errorf("files %v, want %v", got, want)
		}
	}
	for _, f := range want {
		a, errA := os.ReadFile(filepath.Join(dirs[0], f))
		b, errB := os.ReadFile(filepath.Join(dirs[1], f))
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: %d and %d bytes, not identical", f, len(a), len(b))
		}
	}
}

func TestReproduceUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"reproduce", "--only", "nope", "-o", dir}, exitUsage},
		{[]string{"reproduce", "--parallel", "-1", "-o", dir}, exitUsage},
		{[]string{"reproduce", "extra-arg"}, exitUsage},
		{[]string{"reproduce", "--only", "theory, stats", "--quick", "-q", "-o", dir}, exitOK},
	} {
		if code := run(context.Background(), tc.args); code != tc.code {
			t.Errorf("%v: exit %d, want %d", tc.args, code, tc.code)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "theory.png")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "real.md")); err == nil {
		t.Error("--only theory,stats wrote real.md")
	}
}

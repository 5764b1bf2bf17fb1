package experiments

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/consensuslab/consensus/model"
)

// TestRunAllOrNothing checks that a reproduction writes its folder all or
// nothing: a second run cancelled after its first part leaves the first
// run's files as they were (no part of the second run beside the first
// run's report.md), and a run one of whose files cannot be written (its
// name taken by a directory) writes none of the others.
func TestRunAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	cfg := Settings{Output: dir, Only: []string{PartTheory, PartStats}, Quick: true, Seed: 1}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	before := readDir(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.Seed = 2
	cfg.Progress = func(p model.Progress) {
		if p.Run == PartStats {
			cancel()
		}
	}
	if _, err := Run(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if after := readDir(t, dir); len(after) != len(before) {
		t.Errorf("files %d, want %d", len(after), len(before))
	} else {
		for name, b := range before {
			if after[name] != b {
				t.Errorf("%s changed", name)
			}
		}
	}

	fresh := t.TempDir()
	if err := os.Mkdir(filepath.Join(fresh, "stats.csv"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg = Settings{Output: fresh, Only: []string{PartTheory, PartStats}, Quick: true, Seed: 1}
	if _, err := Run(context.Background(), cfg); err == nil {
		t.Fatal("no error with a directory in the place of stats.csv")
	}
	if got := readDir(t, fresh); len(got) != 0 {
		t.Errorf("files written beside the failure: %v", len(got))
	}
}

// readDir returns the content of the regular files in dir.
func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range entries {
		if e.Type().IsRegular() {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			m[e.Name()] = string(b)
		}
	}
	return m
}

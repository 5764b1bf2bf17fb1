package output

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// leftTemps returns the temporary files WriteFile left in dir.
func leftTemps(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestWriteFileFailure checks that a write that fails midway (here a full
// disk, ENOSPC, after part of the content is written) leaves the target
// with its old content, or absent, removes the temporary file, and returns
// an error naming the target rather than the temporary file.
func TestWriteFileFailure(t *testing.T) {
	for _, old := range []string{"old content\n", ""} {
		dir := t.TempDir()
		path := filepath.Join(dir, "out.csv")
		if old != "" {
			if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		err := WriteFile(path, func(w io.Writer) error {
			if _, err := io.WriteString(w, "task,label\n1,"); err != nil {
				return err
			}
			f := w.(*os.File)
			return &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
		})
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("error %v, want ENOSPC", err)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, path+": ") || strings.Contains(msg, ".tmp-") {
			t.Errorf("message %q does not name the target only", msg)
		}
		got, rerr := os.ReadFile(path)
		switch {
		case old == "" && rerr == nil:
			t.Errorf("failed write created %s", path)
		case old != "" && string(got) != old:
			t.Errorf("failed write changed %s to %q", path, got)
		}
		if m := leftTemps(t, dir); len(m) > 0 {
			t.Errorf("temporary files left: %v", m)
		}
	}
}

// TestWriteFileSuccess checks that a successful write replaces the target
// and leaves no temporary file.
func TestWriteFileSuccess(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	for _, content := range []string{"first\n", "second\n"} {
		if err := WriteFile(path, func(w io.Writer) error {
			_, err := io.WriteString(w, content)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != content {
			t.Errorf("content %q, want %q", got, content)
		}
	}
	if m := leftTemps(t, dir); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

// TestRemoveTemps checks that RemoveTemps removes the temporary file of a
// write in progress, as the program does when it exits after an interrupt,
// and that the interrupted write then fails without touching the target.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(path, func(w io.Writer) error {
		io.WriteString(w, "partial")
		if len(leftTemps(t, dir)) != 1 {
			t.Error("no temporary file during the write")
		}
		RemoveTemps()
		if m := leftTemps(t, dir); len(m) > 0 {
			t.Errorf("RemoveTemps left %v", m)
		}
		return nil
	})
	if err == nil {
		t.Error("the write whose temporary file was removed succeeded")
	}
	if got, _ := os.ReadFile(path); string(got) != "old\n" {
		t.Errorf("target changed to %q", got)
	}
}

// TestWriteFileNoDirectory checks the error for a target in a missing
// directory.
func TestWriteFileNoDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "out.csv")
	err := WriteFile(path, func(io.Writer) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), path+": ") {
		t.Errorf("error %v", err)
	}
}

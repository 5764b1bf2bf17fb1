package output

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCheck checks the rules of Check on paths it accepts and refuses.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "old.csv"), []byte("old"), 0o644)
	for _, tc := range []struct {
		path string
		want string // "" for no error
	}{
		{"-", ""},
		{filepath.Join(dir, "new.csv"), ""},
		{filepath.Join(dir, "old.csv"), ""},
		{filepath.Join(dir, strings.Repeat("a", 250)), ""},
		{dir, "is a directory"},
		{filepath.Join(dir, strings.Repeat("a", 300)), "file name too long"},
		{"/proc/consensus-check.csv", "no such file or directory"},
	} {
		err := Check(tc.path)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Check(%.40s): %v", tc.path, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			if strings.HasPrefix(tc.path, "/proc") {
				if _, e := os.Stat("/proc/self"); e != nil {
					continue
				}
			}
			t.Errorf("Check(%.40s): %v, want %q", tc.path, err, tc.want)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*")); len(m) != 0 {
		t.Errorf("Check left %v", m)
	}
}

// TestTempPattern checks that a temporary file's name, with CreateTemp's
// digits and the backup's ".old", fits in nameMax bytes and is valid
// UTF-8 for any target name.
func TestTempPattern(t *testing.T) {
	for _, base := range []string{"out.csv", strings.Repeat("a", 255), strings.Repeat("é", 127)} {
		p := tempPattern(filepath.Join("/x", base))
		name := strings.Replace(p, "*", "4294967295", 1) + ".old"
		if len(name) > nameMax || !utf8.ValidString(name) || !strings.HasPrefix(name, ".") {
			t.Errorf("%.20s...: temporary name %d bytes, valid %v", base, len(name), utf8.ValidString(name))
		}
	}
}

// TestFreeze checks that Freeze reports a commit that happened and stops
// any later one, leaving its targets as they were.
func TestFreeze(t *testing.T) {
	defer func() { commits.frozen, commits.done = false, false }()
	commits.frozen, commits.done = false, false
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if Freeze() {
		t.Fatal("Freeze reports a commit before any")
	}
	commits.frozen = false
	if err := WriteFiles(context.Background(), File{a, write("a")}); err != nil {
		t.Fatal(err)
	}
	if !Freeze() {
		t.Error("Freeze does not report the commit")
	}
	if err := WriteFiles(context.Background(), File{b, write("b")}); !errors.Is(err, context.Canceled) {
		t.Errorf("WriteFiles after Freeze: %v, want context.Canceled", err)
	}
	if _, err := os.Stat(b); err == nil {
		t.Error("b.csv written after Freeze")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

package output

import (
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

//go:build unix

package output

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteFilesAllOrNothing checks that when one of several outputs
// fails (its write fails, its directory cannot take a file, or the run is
// cancelled before the renames), none of the targets changes and no
// temporary file is left; and that a run without failure replaces all.
func TestWriteFilesAllOrNothing(t *testing.T) {
	text := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	failing := func(w io.Writer) error {
		io.WriteString(w, "half")
		return errors.New("boom")
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		second  func(io.Writer) error
		badDir  bool
		wantErr bool
	}{
		{"success", context.Background(), text("new b"), false, false},
		{"second write fails", context.Background(), failing, false, true},
		{"second directory unwritable", context.Background(), text("new b"), true, true},
		{"cancelled before the renames", cancelled, text("new b"), false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
			os.WriteFile(a, []byte("old a"), 0o644)
			if tc.badDir {
				// /proc takes no new files, not even from root.
				if _, err := os.Stat("/proc/self"); err != nil {
					t.Skip("no /proc")
				}
				b = "/proc/consensus-test-b.csv"
			} else {
				os.WriteFile(b, []byte("old b"), 0o644)
			}
			err := WriteFiles(tc.ctx, File{a, text("new a")}, File{b, tc.second})
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %v", err, tc.wantErr)
			}
			got, _ := os.ReadFile(a)
			want := "old a"
			if !tc.wantErr {
				want = "new a"
			}
			if string(got) != want {
				t.Errorf("%s holds %q, want %q", a, got, want)
			}
			if !tc.badDir {
				got, _ := os.ReadFile(b)
				if want := map[bool]string{true: "old b", false: "new b"}[tc.wantErr]; string(got) != want {
					t.Errorf("%s holds %q, want %q", b, got, want)
				}
			}
			if m := leftTemps(t, dir); len(m) > 0 {
				t.Errorf("temporary files left: %v", m)
			}
		})
	}
}

// TestWriteFilesModes checks that an existing output keeps its permission
// bits and that a new one gets 0666 less the umask.
func TestWriteFilesModes(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	saved := umask
	umask = func() os.FileMode { return 0o077 }
	defer func() { umask = saved }()
	dir := t.TempDir()
	for _, tc := range []struct {
		name     string
		existing os.FileMode // 0: absent
		want     os.FileMode
	}{
		{"new file, umask 077", 0, 0o600},
		{"existing 0600", 0o600, 0o600},
		{"existing 0640", 0o640, 0o640},
		{"existing 0755", 0o755, 0o755},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".csv")
			if tc.existing != 0 {
				os.WriteFile(path, []byte("old"), 0o600)
				if err := os.Chmod(path, tc.existing); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != tc.want {
				t.Errorf("mode %v, want %v", got, tc.want)
			}
		})
	}
}

// TestWriteFilesDanglingLink checks that a symbolic link to a file that
// does not exist yet is followed: the file is created and the link stays.
func TestWriteFilesDanglingLink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "sub", "real.csv")
	os.Mkdir(filepath.Dir(real), 0o755)
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink("sub/real.csv", link); err != nil {
		t.Skip(err)
	}
	if r, err := Resolve(link); err != nil || r != real {
		t.Fatalf("Resolve = %q, %v; want %q", r, err, real)
	}
	if err := WriteFile(link, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(real); string(b) != "x" {
		t.Errorf("target holds %q", b)
	}
}

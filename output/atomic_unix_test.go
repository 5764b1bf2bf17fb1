//go:build unix

package output

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestWriteFileSpecialTargets checks the targets that a rename must not
// replace: writing to /dev/null (through a link) leaves it a character
// device, a named pipe
// receives the bytes through the pipe, and a symbolic link keeps pointing
// at the file it named, which gets the new content.
func TestWriteFileSpecialTargets(t *testing.T) {
	const content = "task,label\n1,a\n"
	write := func(w io.Writer) error {
		_, err := io.WriteString(w, content)
		return err
	}
	for _, tc := range []struct {
		name string
		// setup returns the path to write to and a function that checks
		// the outcome (after WriteFile returned).
		setup func(t *testing.T, dir string) (string, func(t *testing.T))
	}{
		{"device", func(t *testing.T, dir string) (string, func(t *testing.T)) {
			// A link to /dev/null rather than /dev/null itself: were the
			// device path broken, the rename would replace the link in
			// dir, not the machine's /dev/null.
			link := filepath.Join(dir, "null.csv")
			if err := os.Symlink(os.DevNull, link); err != nil {
				t.Skipf("symlink: %v", err)
			}
			return link, func(t *testing.T) {
				fi, err := os.Lstat(link)
				if err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Fatalf("the link to %s was replaced: %v, %v", os.DevNull, fi, err)
				}
				if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
					t.Fatalf("%s is not a character device: %v, %v", os.DevNull, fi, err)
				}
			}
		}},
		{"named pipe", func(t *testing.T, dir string) (string, func(t *testing.T)) {
			path := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			got := make(chan string, 1)
			go func() {
				f, err := os.Open(path) // blocks until the writer opens
				if err != nil {
					got <- "open: " + err.Error()
					return
				}
				defer f.Close()
				b, _ := io.ReadAll(f)
				got <- string(b)
			}()
			return path, func(t *testing.T) {
				select {
				case s := <-got:
					if s != content {
						t.Fatalf("read %q from the pipe, want %q", s, content)
					}
				case <-time.After(30 * time.Second):
					t.Fatal("nothing was written to the pipe in 30 s")
				}
				fi, err := os.Lstat(path)
				if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
					t.Fatalf("the pipe was replaced: %v, %v", fi, err)
				}
			}
		}},
		{"symbolic link", func(t *testing.T, dir string) (string, func(t *testing.T)) {
			real := filepath.Join(dir, "real.csv")
			if err := os.WriteFile(real, []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(dir, "link.csv")
			if err := os.Symlink(real, link); err != nil {
				t.Skipf("symlink: %v", err)
			}
			return link, func(t *testing.T) {
				fi, err := os.Lstat(link)
				if err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Fatalf("the link was replaced: %v, %v", fi, err)
				}
				b, err := os.ReadFile(real)
				if err != nil || string(b) != content {
					t.Fatalf("target holds %q (%v), want %q", b, err, content)
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path, check := tc.setup(t, dir)
			if err := WriteFile(path, write); err != nil {
				t.Fatal(err)
			}
			check(t)
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if filepath.Ext(e.Name()) != ".csv" && e.Name() != "fifo" {
					t.Errorf("left behind %s", e.Name())
				}
			}
		})
	}
}

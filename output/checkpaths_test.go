package output

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckPaths holds each rule of CheckPaths: the message of the refusal
// and that it wraps ErrBadPath, and the acceptance of distinct writable
// outputs.
func TestCheckPaths(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "labels.csv")
	if err := os.WriteFile(in, []byte("task,worker,label\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.csv")
	if err := os.Symlink(filepath.Join(dir, "nowhere", "x.csv"), dangling); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.csv")
	missing := filepath.Join(dir, "missing", "out.csv")
	p := func(flag, path string) Path { return Path{Flag: flag, Path: path} }
	for _, c := range []struct {
		name    string
		inputs  []Path
		outputs []Path
		want    string // "" for no error
	}{
		{"distinct", []Path{p("input", in)}, []Path{p("output", out), p("workers", "-"), p("tasks", "")}, ""},
		{"no files", nil, nil, ""},
		{"output is the input", []Path{p("input", in)}, []Path{p("output", in)},
			"--output " + in + " is also an input file (--input " + in + "); writing it would replace the input"},
		{"output links to the input", []Path{p("input", in)}, []Path{p("output", link)},
			"--output " + link + " is also an input file (--input " + in + "); writing it would replace the input"},
		{"standard input twice", []Path{p("input", "-"), p("gold", "-")}, nil,
			"--input - and --gold - both read standard input, which can be read only once; give one of them as a file"},
		{"two outputs, one file", nil, []Path{p("output", out), p("workers", out)},
			"--output and --workers name the same file " + out},
		{"two standard outputs", nil, []Path{p("output", "-"), p("workers", "-")},
			"--output and --workers both write to standard output, which would join two tables into one stream; give one of them a file name"},
		{"a directory", nil, []Path{p("output", dir)},
			"--output " + dir + " is a directory; give a file name"},
		{"no directory", nil, []Path{p("output", missing)},
			"--output " + missing + ": directory " + filepath.Dir(missing) + " does not exist"},
		{"a link into no directory", nil, []Path{p("output", dangling)},
			"--output " + dangling + ": directory " + filepath.Join(dir, "nowhere") + " (where the link points) does not exist"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckPaths(c.inputs, c.outputs)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("CheckPaths: %v, want nil", err)
			case c.want == "":
				return
			case err == nil:
				t.Fatalf("CheckPaths: nil, want %q", c.want)
			case err.Error() != c.want:
				t.Fatalf("CheckPaths:\n got %q\nwant %q", err, c.want)
			case !errors.Is(err, ErrBadPath):
				t.Fatalf("CheckPaths: %v does not wrap ErrBadPath", err)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("CheckPaths created %s (stat: %v)", out, err)
	}
}

// TestPathMessage checks that PathMessage drops the path of an
// *os.PathError and keeps any other message whole.
func TestPathMessage(t *testing.T) {
	_, err := os.Open(filepath.Join(t.TempDir(), "none"))
	if got, want := PathMessage(err), "no such file or directory"; got != want {
		t.Errorf("PathMessage(%v) = %q, want %q", err, got, want)
	}
	if got, want := PathMessage(errors.New("plain")), "plain"; got != want {
		t.Errorf("PathMessage = %q, want %q", got, want)
	}
}

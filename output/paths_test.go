package output

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSameFile checks which paths name one file: the same path written
// two ways, a symbolic link (also a dangling one) and a hard link, but not
// two files.
func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.csv")
	if err := os.WriteFile(a, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "b.csv")
	if err := os.WriteFile(other, []byte("y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link, hard, dangling := filepath.Join(dir, "link.csv"), filepath.Join(dir, "hard.csv"), filepath.Join(dir, "dangling.csv")
	if err := os.Symlink(a, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := os.Link(a, hard); err != nil {
		t.Skip("no hard links:", err)
	}
	if err := os.Symlink(filepath.Join(dir, "new.csv"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{a, a, true},
		{a, filepath.Join(dir, ".", "a.csv"), true},
		{a, link, true},
		{a, hard, true},
		{dangling, filepath.Join(dir, "new.csv"), true},
		{a, other, false},
		{link, other, false},
	} {
		if got := SameFile(c.a, c.b); got != c.want {
			t.Errorf("SameFile(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := Aliases(c.a, c.b); got != c.want {
			t.Errorf("Aliases(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := SameOutput(c.a, c.b); got != c.want {
			t.Errorf("SameOutput(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if !SameOutput("-", "-") || !SameStream("-", "-") {
		t.Error("standard output or input named twice is not one stream")
	}
	if SameStream(a, a) {
		t.Error("a regular file read twice counts as one stream")
	}
}

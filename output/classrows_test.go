package output

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestClassRowsFile checks that ClassRowsFile writes WriteClassRows' rows
// in the format of the path's extension.
func TestClassRowsFile(t *testing.T) {
	d, err := data.FromIndices([]string{"t1", "t2"}, []string{"w"}, []string{"a", "b"},
		[]int32{0, 1}, []int32{0, 0}, []uint16{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct{ name, want string }{
		{"q.csv", "task,label,q_a,q_b\nt1,a,0.75,0.25\nt2,b,0.5,0.5\n"},
		{"q.tsv", "task\tlabel\tq_a\tq_b\nt1\ta\t0.75\t0.25\nt2\tb\t0.5\t0.5\n"},
	} {
		path := filepath.Join(dir, c.name)
		if err := WriteFiles(t.Context(), ClassRowsFile(path, d, []int{0, 1}, []float64{0.75, 0.25, 0.5, 0.5}, "q_", nil)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

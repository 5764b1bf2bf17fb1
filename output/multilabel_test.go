package output

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/dataio"
)

// TestLoadMultiLabels checks the classes and sets read from label cells,
// the empty set, and the refusals with their file and line.
func TestLoadMultiLabels(t *testing.T) {
	cols := MultiLabelColumns{Task: "task", Worker: "worker", Label: "label", Sep: "|", Empty: "none"}
	for _, c := range []struct {
		name, text string
		classes    []string
		chosen     [][]uint16
		err        string
	}{
		{"sets", "task,worker,label\nt1,w1,b|a\nt1,w2,none\nt2,w1, c \n", []string{"a", "b", "c"}, [][]uint16{{1, 0}, nil, {2}}, ""},
		{"empty class", "task,worker,label\nt1,w1,a||b\n", nil, nil, "l.csv:2"},
		{"class twice", "task,worker,label\nt1,w1,a|a\n", nil, nil, `names class "a" twice`},
		{"no class", "task,worker,label\nt1,w1,none\n", nil, nil, "no label names a class"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "l.csv")
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			m, err := LoadMultiLabels(context.Background(), path, "", dataio.ReadSettings{}, cols)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one with %q", err, c.err)
				}
				if c.name == "no class" && !errors.Is(err, ErrNoClasses) {
					t.Errorf("error %v does not wrap ErrNoClasses", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(m.Classes, c.classes) || !reflect.DeepEqual(m.Chosen, c.chosen) {
				t.Errorf("classes %v, chosen %v; want %v, %v", m.Classes, m.Chosen, c.classes, c.chosen)
			}
		})
	}
}

package plan

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestLoadPool checks the workers read from a pool file, each once in the
// order of its first row, and the refusal of a worker without labels.
func TestLoadPool(t *testing.T) {
	b, err := data.NewBuilder([]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"w1", "w2", "w3"} {
		if err := b.Add("t1", w, "a"); err != nil {
			t.Fatal(err)
		}
	}
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	index := map[string]int{}
	for i, w := range d.Workers {
		index[w] = i
	}
	for _, c := range []struct {
		name, text string
		want       []int
		err        string
	}{
		{"order", "worker\nw3\nw1\nw3\n", []int{index["w3"], index["w1"]}, ""},
		{"unknown", "worker\nw1\nw9\n", nil, `pool.csv:3: worker "w9" has no labels`},
	} {
		path := filepath.Join(t.TempDir(), "pool.csv")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := LoadPool(context.Background(), path, d)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one with %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	if _, err := LoadPool(context.Background(), "pool.csv", nil); err == nil || err.Error() != "plan: no data set" {
		t.Errorf("nil data set: error %v, want plan: no data set", err)
	}
}

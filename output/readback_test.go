package output

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
)

// TestReadBack writes the consensus, the worker parameters and gold labels
// of a result whose identifiers need quoting or escaping in every format,
// to files in every format, gzip-compressed or not, and reads each file back
// with the reader the command uses for it: LoadConsensus (eval
// --predictions), LoadWorkers (fit --init-workers) and dataio.LoadGold
// (--gold, --train-gold). Numbers must come back bit for bit.
func TestReadBack(t *testing.T) {
	r := trickyResult(t)
	d := r.Data
	gold := &data.Gold{Task: []int32{3, 0, 1}, Label: []uint16{2, 0, 1}}
	cols := append([]string{"skill"}, r.WorkerColumns()...)
	skills := r.WorkerSkills()
	dir := t.TempDir()
	bits := func(a, b []float64) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				return false
			}
		}
		return true
	}
	for _, f := range dataio.Formats() {
		for _, ext := range []string{"", ".gz"} {
			c := filepath.Join(dir, "c."+string(f)+ext)
			w := filepath.Join(dir, "w."+string(f)+ext)
			g := filepath.Join(dir, "g."+string(f)+ext)
			if err := WriteFiles(context.Background(), ConsensusFile(c, "", r, 1), WorkersFile(w, "", r), GoldFile(g, "", d, gold)); err != nil {
				t.Fatalf("%s%s: %v", f, ext, err)
			}

			p, err := LoadConsensus(context.Background(), c, "", dataio.ReadSettings{})
			if err != nil {
				t.Fatalf("%s: %v", c, err)
			}
			if !reflect.DeepEqual(p.Tasks, d.Tasks) || !reflect.DeepEqual(p.Classes, d.Classes) || !bits(p.Probs, r.Probs) {
				t.Errorf("%s: read back tasks %q classes %q probs %v", c, p.Tasks, p.Classes, p.Probs)
			}

			wt, err := LoadWorkers(context.Background(), w, "", dataio.ReadSettings{}, cols)
			if err != nil {
				t.Fatalf("%s: %v", w, err)
			}
			if !reflect.DeepEqual(wt.Workers, d.Workers) || !reflect.DeepEqual(wt.Columns, cols) {
				t.Errorf("%s: workers %q columns %q", w, wt.Workers, wt.Columns)
				continue
			}
			for i := range d.Workers {
				want := r.WorkerValues(i, []float64{skills[i]})
				if got := wt.Values[i*len(cols) : (i+1)*len(cols)]; !bits(got, want) {
					t.Errorf("%s: worker %d: %v, want %v", w, i, got, want)
				}
			}
			wantLine := 2 // after the header
			if f == dataio.JSONL || f == dataio.Parquet {
				wantLine = 1
			}
			if wt.Lines[0] != wantLine {
				t.Errorf("%s: first worker on line %d, want %d", w, wt.Lines[0], wantLine)
			}

			gd, err := dataio.LoadGold(context.Background(), g, "", d, dataio.ReadSettings{})
			if err != nil {
				t.Fatalf("%s: %v", g, err)
			}
			if !reflect.DeepEqual(gd, gold) {
				t.Errorf("%s: gold %+v, want %+v", g, gd, gold)
			}
		}
	}
}

// TestReadWorkersErrors checks the messages of workers tables that cannot
// be read: each names the file and the line (the row for Parquet).
func TestReadWorkersErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		hint           dataio.Hint
	}{
		{"w.csv", "worker,a\nx,1\nx,2\n", `w.csv:3: worker "x" appears twice`, dataio.NoHint},
		{"w.csv", "worker,a\nx,one\n", `w.csv:2: a = "one" is not a number`, dataio.NoHint},
		{"w.csv", "worker,b\nx,1\n", "w.csv:1: header has 2 columns 'worker', 'b' but no 'a' column", dataio.HintColumns},
		{"w.jsonl", `{"worker":"x","a":1}` + "\n" + `{"worker":"y"}`, "w.jsonl:2: the record has no 'a' key", dataio.HintColumns},
		{"w.jsonl", `{"worker":"x","a":null}`, "w.jsonl:1: the a value (key 'a') is null", dataio.NoHint},
		{"w.csv", "worker,a\n", "w.csv: no data rows after the header on line 1", dataio.NoHint},
		{"w.parquet", "worker,a\nx,1\n", "w.parquet: not a Parquet file", dataio.HintFormat},
	} {
		_, err := ReadWorkers(strings.NewReader(tc.in), tc.name, "", []string{"a"})
		var ie *dataio.InputError
		if !errors.As(err, &ie) {
			t.Errorf("%q: error %v, want an *dataio.InputError", tc.in, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.want) || ie.Hint != tc.hint {
			t.Errorf("%q: error %v (hint %d), want prefix %q and hint %d", tc.in, err, ie.Hint, tc.want, tc.hint)
		}
	}
}

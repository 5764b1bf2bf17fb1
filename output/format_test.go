package output

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
	_ "github.com/consensuslab/consensus/model/all" // every family of estimators, for ByName
	"github.com/parquet-go/parquet-go"
)

// trickyResult fits DA-DS for a few iterations on labels whose identifiers
// need quoting or escaping in every format.
func trickyResult(t *testing.T) *model.Result {
	t.Helper()
	b, err := data.NewBuilder([]string{"b", `a,"x"`, "ü\tv"})
	if err != nil {
		t.Fatal(err)
	}
	tasks := []string{"t1", `t,"2"`, "τ3\"\\", "4", "<5&>"}
	workers := []string{"w1", "w\\2", "w 3"}
	classes := []string{"b", `a,"x"`, "ü\tv"}
	for j, task := range tasks {
		for w, worker := range workers {
			if err := b.Add(task, worker, classes[(j*w+j+w)%3]); err != nil {
				t.Fatal(err)
			}
		}
	}
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.ByName("la-ds")
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Fit(context.Background(), d, &model.Settings{MaxIterations: 15, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	r.Probs[0] = 1.0 / 3 // digits that need all 17 places
	r.Probs[1] = 1 - 1.0/3 - 1e-300
	r.Probs[2] = 1e-300
	return r
}

func TestConsensusRoundTrip(t *testing.T) {
	r := trickyResult(t)
	d := r.Data
	dir := t.TempDir()
	for _, f := range dataio.Formats() {
		for _, ext := range []string{"", ".gz"} {
			name := "c." + string(f) + ext
			path := filepath.Join(dir, name)
			if err := WriteConsensusFile(path, "", r, 1); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			fh, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := ReadConsensus(fh, name, "")
			fh.Close()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !reflect.DeepEqual(p.Tasks, d.Tasks) || !reflect.DeepEqual(p.Classes, d.Classes) {
				t.Errorf("%s: tasks %q classes %q", name, p.Tasks, p.Classes)
			}
			for i := range r.Probs {
				if math.Float64bits(p.Probs[i]) != math.Float64bits(r.Probs[i]) {
					t.Errorf("%s: prob %d = %v, want %v", name, i, p.Probs[i], r.Probs[i])
				}
			}
		}
	}
}

func TestConsensusStreams(t *testing.T) {
	// Parquet read from a pipe-like reader (no ReaderAt) is spooled.
	r := trickyResult(t)
	var b bytes.Buffer
	if err := WriteConsensus(&b, r, 1, dataio.Parquet); err != nil {
		t.Fatal(err)
	}
	p, err := ReadConsensus(io.MultiReader(&b), "-", dataio.Parquet)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Tasks) != r.Data.NumTasks() {
		t.Errorf("%d tasks", len(p.Tasks))
	}
	if err := WriteConsensus(&b, r, 1, "xlsx"); err == nil {
		t.Error("no error for an unknown format")
	}
}

func TestConsensusColumns(t *testing.T) {
	r := trickyResult(t)
	want := []string{"task", "label", "p_b", `p_a,"x"`, "p_ü\tv"}
	var b bytes.Buffer
	if err := WriteConsensus(&b, r, 1, dataio.Parquet); err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range pf.Schema().Fields() {
		got = append(got, f.Name())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parquet columns %q, want %q", got, want)
	}
	b.Reset()
	if err := WriteConsensus(&b, r, 1, dataio.JSONL); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(b.String(), "\n")
	if keys := jsonKeys([]byte(first)); !reflect.DeepEqual(keys, want) {
		t.Errorf("JSON keys %q, want %q", keys, want)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(first), &rec); err != nil {
		t.Errorf("first record %s: %v", first, err)
	}
	labels := r.Labels(1)
	if rec["label"] != r.Data.Classes[labels[0]] {
		t.Errorf("label %v, want %v", rec["label"], r.Data.Classes[labels[0]])
	}
}

// readWorkers reads a worker table in any format: names, the number of
// labels, the parameter columns and their values.
func readWorkers(t *testing.T, f dataio.Format, raw []byte) (names []string, n []int, cols []string, vals [][]float64) {
	t.Helper()
	switch f {
	case dataio.CSV, dataio.TSV:
		cr := csv.NewReader(bytes.NewReader(raw))
		if f == dataio.TSV {
			cr.Comma = '\t'
		}
		recs, err := cr.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		cols = recs[0][2:]
		for _, rec := range recs[1:] {
			names = append(names, rec[0])
			k, _ := strconv.Atoi(rec[1])
			n = append(n, k)
			var v []float64
			for _, s := range rec[2:] {
				x, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatal(err)
				}
				v = append(v, x)
			}
			vals = append(vals, v)
		}
	case dataio.JSONL:
		for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			keys := jsonKeys([]byte(line))
			if cols == nil {
				cols = keys[2:]
			}
			dec := json.NewDecoder(strings.NewReader(line))
			dec.UseNumber()
			var rec map[string]any
			if err := dec.Decode(&rec); err != nil {
				t.Fatal(err)
			}
			names = append(names, rec["worker"].(string))
			k, _ := rec["labels"].(json.Number).Int64()
			n = append(n, int(k))
			var v []float64
			for _, c := range cols {
				x, err := strconv.ParseFloat(string(rec[c].(json.Number)), 64)
				if err != nil {
					t.Fatal(err)
				}
				v = append(v, x)
			}
			vals = append(vals, v)
		}
	case dataio.Parquet:
		pf, err := parquet.OpenFile(bytes.NewReader(raw), int64(len(raw)))
		if err != nil {
			t.Fatal(err)
		}
		for _, fl := range pf.Schema().Fields()[2:] {
			cols = append(cols, fl.Name())
		}
		rows := make([]parquet.Row, 100)
		for _, rg := range pf.RowGroups() {
			rr := rg.Rows()
			m, _ := rr.ReadRows(rows)
			for _, row := range rows[:m] {
				names = append(names, row[0].String())
				n = append(n, int(row[1].Int64()))
				var v []float64
				for _, x := range row[2:] {
					v = append(v, x.Double())
				}
				vals = append(vals, v)
			}
			rr.Close()
		}
	}
	return names, n, cols, vals
}

func TestWorkersRoundTrip(t *testing.T) {
	r := trickyResult(t)
	d := r.Data
	wantCols := append([]string{"skill"}, r.WorkerColumns()...)
	skills := r.WorkerSkills()
	for _, f := range dataio.Formats() {
		var b bytes.Buffer
		if err := WriteWorkers(&b, r, f); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		names, n, cols, vals := readWorkers(t, f, b.Bytes())
		if !reflect.DeepEqual(names, d.Workers) || !reflect.DeepEqual(cols, wantCols) {
			t.Errorf("%s: workers %q columns %q", f, names, cols)
			continue
		}
		for w := range d.Workers {
			if n[w] != 5 {
				t.Errorf("%s: worker %d has %d labels, want 5", f, w, n[w])
			}
			want := r.WorkerValues(w, []float64{skills[w]})
			for i := range want {
				if math.Float64bits(vals[w][i]) != math.Float64bits(want[i]) {
					t.Errorf("%s: worker %d %s = %v, want %v", f, w, cols[i], vals[w][i], want[i])
				}
			}
		}
	}
}

func TestLabelsRoundTrip(t *testing.T) {
	d := trickyResult(t).Data
	dir := t.TempDir()
	for _, f := range dataio.Formats() {
		for _, ext := range []string{"", ".gz"} {
			path := filepath.Join(dir, "labels."+string(f)+ext)
			if err := WriteLabelsFile(path, "", d); err != nil {
				t.Fatal(err)
			}
			got, err := dataio.LoadLabels(context.Background(), path, "", dataio.ReadSettings{Classes: d.Classes})
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			got.Name = d.Name
			if !reflect.DeepEqual(got, d) {
				t.Errorf("%s: got %+v, want %+v", path, got, d)
			}
		}
	}
}

func TestReadConsensusErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"task":"a","p_x":0.5}`, `c.jsonl:1: the columns are 'task', 'p_x': want a task column and at least two`},
		{`{"task":"a","p_x":0.5,"p_y":0.5}` + "\n" + `{"task":"a","p_x":0.5,"p_y":0.5}`, "c.jsonl:2: task \"a\" appears twice"},
		{`{"task":"a","p_x":0.5,"p_y":0.6}`, "c.jsonl:1: probabilities sum to"},
		{`{"task":"a","p_x":0.5,"p_y":"half"}`, "c.jsonl:1: p_y = \"half\" is not a probability"},
		{`{"task":"a","p_x":1.001,"p_y":0}`, "c.jsonl:1: p_x = \"1.001\" is not a probability"},
		{`{"task":"a","p_x":1,"p_y":-0.001}`, "c.jsonl:1: p_y = \"-0.001\" is not a probability"},
		{`{"task":"a","p_x":0.5,"p_y":0.5}` + "\n" + `{"task":"b","p_x":1}`, "c.jsonl:2: the record has no 'p_y' key"},
		{`{"task":"a",`, "c.jsonl:1: the JSON object is not closed"},
		{`{"task":"a","p_x":0.5,"p_y":null}`, "c.jsonl:1: the probability value (key 'p_y') is null"},
		{"", "c.jsonl: no records"},
	} {
		_, err := ReadConsensus(strings.NewReader(tc.in), "c.jsonl", "")
		var ie *dataio.InputError
		if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want an *dataio.InputError with prefix %q", tc.in, err, tc.want)
		}
	}
}

// TestReadConsensusRounding checks that a probability a rounding error
// took just outside [0, 1], as a sum of exponentials can, is read as the
// bound it passed.
func TestReadConsensusRounding(t *testing.T) {
	in := "task,p_x,p_y\na,1.0000000000000002,0\nb,-1e-17,1\n"
	p, err := ReadConsensus(strings.NewReader(in), "c.csv", "")
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{1, 0, 0, 1}; !slices.Equal(p.Probs, want) {
		t.Errorf("probabilities %v, want %v", p.Probs, want)
	}
}

// jsonKeys returns the top-level keys of a JSON object in their order, as
// dataio.ReadTable gives them to Columns.More.
func jsonKeys(obj []byte) []string {
	var keys []string
	cols := dataio.Columns{More: func(header []string) ([]string, []string, error) {
		keys = append(keys, header...)
		return nil, nil, nil
	}}
	dataio.ReadTable(context.Background(), bytes.NewReader(obj), "k.jsonl", dataio.JSONL, dataio.ReadSettings{}, cols, func([]string, int) error { return nil })
	return keys
}

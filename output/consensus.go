package output

import (
	"errors"
	"io"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/table"
	"github.com/consensuslab/consensus/model"
)

// FormatProb formats a probability with the shortest decimal representation
// that reads back to the same float64, so output round-trips exactly.
func FormatProb(p float64) string { return table.FormatFloat(p) }

// ConsensusHeader returns the header of a consensus table: "task", "label",
// then "p_<class>" for every class.
func ConsensusHeader(classes []string) []string {
	h := []string{"task", "label"}
	for _, c := range classes {
		h = append(h, "p_"+c)
	}
	return h
}

// WriteConsensus writes the consensus of r in format f (CSV for the empty
// Format): one row per object with its identifier ("task"), its consensus
// class ("label": the argmax, ties broken by model.Argmax with the given
// seed) and its distribution over the classes ("p_<class>" for every
// class, numbers that read back bit for bit). Every format has these
// columns in this order: text with a header line for CSV and TSV, one
// object a line for JSON Lines, such as
//
//	{"task":"t1","label":"b","p_a":0.25,"p_b":0.75}
//
// and string and double columns for Parquet (Snappy-compressed). pandas
// reads them with read_csv, read_json(path, lines=True) and read_parquet;
// ReadConsensus reads any of them back.
func WriteConsensus(w io.Writer, r *model.Result, seed uint64, f dataio.Format) error {
	if err := checkResult(r); err != nil {
		return err
	}
	d := r.Data
	cols := []table.Column{{Name: "task"}, {Name: "label"}}
	for _, c := range ConsensusHeader(d.Classes)[2:] {
		cols = append(cols, table.Column{Name: c, Kind: table.Float})
	}
	if r.Distribution != nil {
		for _, c := range d.Classes {
			cols = append(cols, table.Column{Name: "q_" + c, Kind: table.Float})
		}
	}
	return writeConsensusRows(w, r, seed, f, cols)
}

// writeConsensusRows writes one row per object of r to a table with the
// columns cols in format f: the object's identifier, its consensus class
// (ties broken with seed) and its probability of every class.
func writeConsensusRows(w io.Writer, r *model.Result, seed uint64, f dataio.Format, cols []table.Column) error {
	d := r.Data
	t, err := table.NewWriter(w, f, cols)
	if err != nil {
		return err
	}
	labels := r.Labels(seed)
	for j, task := range d.Tasks {
		t.String(task)
		t.String(d.Classes[labels[j]])
		for _, p := range r.Dist(j) {
			t.Float(p)
		}
		if r.Distribution != nil && len(cols) > 2+2*len(d.Classes)-1 {
			k := len(d.Classes)
			for _, q := range r.Distribution[j*k : (j+1)*k] {
				t.Float(q)
			}
		}
		if err := t.EndRow(); err != nil {
			return err
		}
	}
	return t.Close()
}

// WriteWorkers writes the fitted worker parameters of r in format f (CSV
// for the empty Format): one row per worker with its identifier
// ("worker"), its number of labels ("labels"), its skill ("skill",
// model.Result.WorkerSkills) and the parameters named by
// model.Result.WorkerColumns. In JSON Lines a parameter that is not a
// finite number is null; in Parquet "labels" is a 64-bit integer column
// and the others are doubles. ReadWorkers reads any of these back.
func WriteWorkers(w io.Writer, r *model.Result, f dataio.Format) error {
	if err := checkResult(r); err != nil {
		return err
	}
	d := r.Data
	skills := r.WorkerSkills()
	cols := []table.Column{{Name: "worker"}, {Name: "labels", Kind: table.Int}}
	for _, c := range append([]string{"skill"}, r.WorkerColumns()...) {
		cols = append(cols, table.Column{Name: c, Kind: table.Float})
	}
	t, err := table.NewWriter(w, f, cols)
	if err != nil {
		return err
	}
	n := make([]int64, d.NumWorkers())
	for _, wk := range d.Worker {
		n[wk]++
	}
	var vals []float64
	for wk, name := range d.Workers {
		vals = r.WorkerValues(wk, append(vals[:0], skills[wk]))
		t.String(name)
		t.Int(n[wk])
		for _, v := range vals {
			t.Float(v)
		}
		if err := t.EndRow(); err != nil {
			return err
		}
	}
	return t.Close()
}

// checkResult returns an error if r is nil or has no data set.
func checkResult(r *model.Result) error {
	if r == nil || r.Data == nil {
		return errors.New("output: no fit result to write")
	}
	return nil
}

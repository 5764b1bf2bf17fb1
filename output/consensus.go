package output

import (
	"bufio"
	"encoding/csv"
	"io"
	"strconv"

	"github.com/consensuslab/consensus/model"
)

// FormatProb formats a probability with the shortest decimal representation
// that reads back to the same float64, so output round-trips exactly.
func FormatProb(p float64) string { return strconv.FormatFloat(p, 'g', -1, 64) }

// ConsensusHeader returns the header of a consensus table: "task", "label",
// then "p_<class>" for every class.
func ConsensusHeader(classes []string) []string {
	h := []string{"task", "label"}
	for _, c := range classes {
		h = append(h, "p_"+c)
	}
	return h
}

// WriteConsensusCSV writes one row per object: its identifier, its consensus
// class (the argmax, ties broken by model.Argmax with the given seed) and
// its distribution over the classes. sep is the field separator (',' or
// '\t').
func WriteConsensusCSV(w io.Writer, r *model.Result, seed uint64, sep rune) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	cw := csv.NewWriter(bw)
	cw.Comma = sep
	d := r.Data
	if err := cw.Write(ConsensusHeader(d.Classes)); err != nil {
		return err
	}
	labels := r.Labels(seed)
	k := d.NumClasses()
	row := make([]string, 2+k)
	for j, task := range d.Tasks {
		row[0] = task
		row[1] = d.Classes[labels[j]]
		for z, p := range r.Dist(j) {
			row[2+z] = FormatProb(p)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteWorkersCSV writes one row per worker: its identifier, its number of
// labels, and the fitted worker parameters named by
// model.Result.WorkerColumns.
func WriteWorkersCSV(w io.Writer, r *model.Result, sep rune) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	cw := csv.NewWriter(bw)
	cw.Comma = sep
	d := r.Data
	cols := workerColumns(r)
	skills := r.WorkerSkills()
	if err := cw.Write(append([]string{"worker", "labels"}, cols...)); err != nil {
		return err
	}
	n := make([]int, d.NumWorkers())
	for _, wk := range d.Worker {
		n[wk]++
	}
	var vals []float64
	row := make([]string, 2+len(cols))
	for wk, name := range d.Workers {
		vals = workerValues(r, skills, int32(wk), vals[:0])
		row[0] = name
		row[1] = strconv.Itoa(n[wk])
		for i, v := range vals {
			row[2+i] = FormatProb(v)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// workerColumns returns the columns of a workers table after "worker" and
// "labels": "skill" (Result.WorkerSkills) and the model's own worker
// parameters (Result.WorkerColumns).
func workerColumns(r *model.Result) []string {
	return append([]string{"skill"}, r.WorkerColumns()...)
}

// workerValues appends worker w's values of the workerColumns to dst.
func workerValues(r *model.Result, skills []float64, w int32, dst []float64) []float64 {
	return r.WorkerValues(int(w), append(dst, skills[w]))
}

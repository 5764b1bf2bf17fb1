package output

import (
	"fmt"
	"io"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/table"
	"github.com/consensuslab/consensus/model"
)

// Layout names the columns of a consensus table.
type Layout string

// The layouts of a consensus table.
const (
	// Default is task, label, then p_<class> for every class
	// (ConsensusHeader).
	Default Layout = ""
	// CrowdKit is Crowd-Kit's shape: task, agg_label, then one column per
	// class named by the class, as a Crowd-Kit aggregator's fit_predict
	// (task and agg_label) next to its fit_predict_proba (a column per
	// class).
	CrowdKit Layout = "crowdkit"
)

// ParseLayout returns the layout named s: "" or "default", or "crowdkit".
func ParseLayout(s string) (Layout, error) {
	switch s {
	case "", "default":
		return Default, nil
	case string(CrowdKit):
		return CrowdKit, nil
	}
	return "", fmt.Errorf("unknown layout %q (valid: default, crowdkit)", s)
}

// CrowdKitHeader returns the header of a consensus table in the CrowdKit
// layout: "task", "agg_label", then the class names. It returns an error
// if a class is named "task" or "agg_label", which would name two columns
// alike.
func CrowdKitHeader(classes []string) ([]string, error) {
	h := []string{"task", "agg_label"}
	for _, c := range classes {
		if c == "task" || c == "agg_label" {
			return nil, fmt.Errorf("class %q has the name of a column of the crowdkit layout; use the default layout", c)
		}
		h = append(h, c)
	}
	return h, nil
}

// WriteConsensusCrowdKit writes the consensus of r in the CrowdKit layout
// and format f: one row per object with its identifier, its consensus
// class (the argmax, ties broken by model.Argmax with seed) and its
// probability of every class, in the columns CrowdKitHeader names. The task
// and agg_label columns are text in every format (Parquet strings, JSON
// strings), so identifiers such as "0001" keep their zeros; the class
// columns are numbers (JSON numbers, Parquet doubles) that read back to the
// same float64.
func WriteConsensusCrowdKit(w io.Writer, r *model.Result, seed uint64, f dataio.Format) error {
	if err := checkResult(r); err != nil {
		return err
	}
	d := r.Data
	header, err := CrowdKitHeader(d.Classes)
	if err != nil {
		return err
	}
	cols := make([]table.Column, len(header))
	for i, c := range header {
		cols[i] = table.Column{Name: c}
		if i >= 2 {
			cols[i].Kind = table.Float
		}
	}
	return writeConsensusRows(w, r, seed, f, cols)
}

// LayoutFile returns a File for WriteFiles that writes the consensus of r
// to path in layout l and format f (empty: by the extension; ".gz"
// compresses): ConsensusFile for Default, WriteConsensusCrowdKit for
// CrowdKit.
func LayoutFile(path string, f dataio.Format, l Layout, r *model.Result, seed uint64) File {
	if l != CrowdKit {
		return ConsensusFile(path, f, r, seed)
	}
	return formatted(path, f, func(w io.Writer, f dataio.Format) error { return WriteConsensusCrowdKit(w, r, seed, f) })
}

// WriteTasks writes one row per object of r in format f: its identifier,
// its number of labels and its fitted parameters named by
// model.Result.TaskColumns (for GLAD the difficulty d_j, larger for an
// object whose labels are more reliable; its logarithm is Crowd-Kit's
// betas_). Numbers are JSON numbers and Parquet doubles; the task column
// is text.
func WriteTasks(w io.Writer, r *model.Result, f dataio.Format) error {
	if err := checkResult(r); err != nil {
		return err
	}
	d := r.Data
	tc := []table.Column{{Name: "task"}, {Name: "labels", Kind: table.Int}}
	for _, c := range r.TaskColumns() {
		tc = append(tc, table.Column{Name: c, Kind: table.Float})
	}
	t, err := table.NewWriter(w, f, tc)
	if err != nil {
		return err
	}
	var vals []float64
	for j, task := range d.Tasks {
		t.String(task)
		t.Int(int64(d.Offsets[j+1] - d.Offsets[j]))
		vals = r.TaskValues(j, vals[:0])
		for _, v := range vals {
			t.Float(v)
		}
		if err := t.EndRow(); err != nil {
			return err
		}
	}
	return t.Close()
}

// TasksFile returns a File for WriteFiles that writes the tasks table of r
// (WriteTasks) to path in format f (empty: by the extension; ".gz"
// compresses).
func TasksFile(path string, f dataio.Format, r *model.Result) File {
	return formatted(path, f, func(w io.Writer, f dataio.Format) error { return WriteTasks(w, r, f) })
}

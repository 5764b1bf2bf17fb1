package output

import (
	"encoding/json"
	"io"

	"github.com/consensuslab/consensus/model"
)

// Summary is what fit --summary writes, one JSON object: the model
// fitted (with --model auto, the one chosen) and how its fit ended, for
// programs that must not read the English summary on standard error.
type Summary struct {
	// Model is the model fitted; Requested the --model value.
	Model     string `json:"model"`
	Requested string `json:"requested"`
	// Tasks, Workers, Labels and Classes count the data fitted.
	Tasks   int `json:"tasks"`
	Workers int `json:"workers"`
	Labels  int `json:"labels"`
	Classes int `json:"classes"`
	// Converged is model.Result.Converged.
	Converged bool `json:"converged"`
	// Solver, Iterations, Status and LogLikelihood are the solver's
	// statistics, left out for a fit without a solver (Result.Solved).
	Solver        string   `json:"solver,omitempty"`
	Iterations    int      `json:"iterations,omitempty"`
	Status        string   `json:"status,omitempty"`
	LogLikelihood *float64 `json:"log_likelihood,omitempty"`
}

// SummaryFile returns the output of fit --summary at path: the Summary of
// the result r of the model requested (the --model value, such as "auto"),
// as indented JSON. A nil r, or one without its data set, gives a File
// whose Write returns an error wrapping ErrArgument.
func SummaryFile(path, requested string, r *model.Result) File {
	if r == nil || r.Data == nil {
		return File{Path: path, Write: func(io.Writer) error { return argErrorf("a summary without a fit") }}
	}
	d := r.Data
	s := Summary{
		Model: r.Model, Requested: requested, Converged: r.Converged,
		Tasks: d.NumTasks(), Workers: d.NumWorkers(), Labels: d.NumLabels(), Classes: d.NumClasses(),
	}
	if r.Solved() {
		ll := r.LogLikelihood
		s.Solver, s.Iterations, s.Status, s.LogLikelihood = r.Method, r.Iterations, r.Status, &ll
	}
	return File{Path: path, Write: func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}}
}

package output

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/consensuslab/consensus/data"
)

// Predictions is a consensus table read back from a file.
type Predictions struct {
	// Tasks and Classes name the rows and the probability columns.
	Tasks, Classes []string
	// Probs holds the distributions, len(Tasks)×len(Classes), row-major.
	Probs []float64
}

// ReadConsensusCSV reads a consensus table in the form WriteConsensusCSV
// writes: a header "task", "label" (optional), then "p_<class>" columns,
// and one row per task. Each row's probabilities must be numbers in [0, 1]
// summing to 1 within 1e-6. Errors name the file (name) and the line.
func ReadConsensusCSV(r io.Reader, name string, sep rune) (*Predictions, error) {
	cr := csv.NewReader(r)
	cr.Comma = sep
	cr.ReuseRecord = true
	fail := func(line int, format string, a ...any) error {
		for _, v := range a {
			var ie *data.InputError
			if err, ok := v.(error); ok && errors.As(err, &ie) {
				return ie // from the reader r, such as data.LimitReader
			}
		}
		return &data.InputError{File: name, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	head, err := cr.Read()
	if err == io.EOF {
		return nil, fail(0, "empty file")
	}
	if err != nil {
		return nil, fail(1, "%v", err)
	}
	taskCol := -1
	var probCols []int
	p := &Predictions{}
	for i, h := range head {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		switch {
		case h == "task":
			taskCol = i
		case strings.HasPrefix(h, "p_"):
			probCols = append(probCols, i)
			p.Classes = append(p.Classes, strings.TrimPrefix(h, "p_"))
		}
	}
	if taskCol < 0 || len(probCols) < 2 {
		return nil, fail(1, "header %q: want a task column and at least two p_<class> columns", strings.Join(head, string(sep)))
	}
	seen := make(map[string]bool)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, fail(line, "%v", err)
		}
		task := strings.TrimSpace(rec[taskCol])
		if task == "" {
			return nil, fail(line, "empty task")
		}
		if seen[task] {
			return nil, fail(line, "task %q appears twice", task)
		}
		seen[task] = true
		p.Tasks = append(p.Tasks, task)
		var sum float64
		for z, c := range probCols {
			v, err := strconv.ParseFloat(strings.TrimSpace(rec[c]), 64)
			if err != nil || v < 0 || v > 1 || math.IsNaN(v) {
				return nil, fail(line, "p_%s = %q is not a probability", p.Classes[z], rec[c])
			}
			sum += v
			p.Probs = append(p.Probs, v)
		}
		if math.Abs(sum-1) > 1e-6 {
			return nil, fail(line, "probabilities sum to %v, not 1", sum)
		}
	}
	if len(p.Tasks) == 0 {
		return nil, fail(0, "no rows")
	}
	return p, nil
}

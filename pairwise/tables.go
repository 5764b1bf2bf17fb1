package pairwise

import (
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/table"
	"github.com/consensuslab/consensus/output"
)

// ScoresTable returns the items file of consensus pairwise fit: one row
// per item of r, best first, with a ties column when some comparison was a
// tie.
func (r *Result) ScoresTable() *output.Table {
	t := &output.Table{
		Columns: []string{"item", "rank", "score", "weight", "wins", "comparisons"},
		Numeric: []bool{false, true, true, true, true, true},
	}
	if r.Ties != nil {
		t.Columns = slices.Insert(t.Columns, 5, "ties")
		t.Numeric = append(t.Numeric, true)
	}
	w := r.Weights()
	for rank, i := range r.Ranking() {
		row := []string{r.Items[i], strconv.Itoa(rank + 1), output.FormatProb(r.Scores[i]),
			output.FormatProb(w[i]), strconv.Itoa(r.Wins[i])}
		if r.Ties != nil {
			row = append(row, strconv.Itoa(r.Ties[i]))
		}
		t.Rows = append(t.Rows, append(row, strconv.Itoa(r.Games[i])))
	}
	return t
}

// WorkersTable returns the workers file of the noisy Bradley-Terry fit r
// of the comparisons c: skill, bias and number of comparisons, in the
// order of the comparisons. It returns an error wrapping ErrArgument if c
// is not valid comparisons or not of r's workers.
func (r *Result) WorkersTable(c *Comparisons) (*output.Table, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if len(c.Workers) != len(r.Workers) || len(r.Skills) != len(r.Workers) || len(r.Biases) != len(r.Workers) {
		return nil, fmt.Errorf("%w: a fit of %d workers (%d skills, %d biases) and comparisons of %d", ErrArgument, len(r.Workers), len(r.Skills), len(r.Biases), len(c.Workers))
	}
	n := make([]int, len(c.Workers))
	for _, w := range c.Worker {
		n[w]++
	}
	t := &output.Table{
		Columns: []string{"worker", "skill", "bias", "comparisons"},
		Numeric: []bool{false, true, true, true},
	}
	for w, name := range r.Workers {
		t.Rows = append(t.Rows, []string{name, output.FormatProb(r.Skills[w]), output.FormatProb(r.Biases[w]), strconv.Itoa(n[w])})
	}
	return t, nil
}

// ScoresTable returns the true scores tr of the simulated items of c as a
// table item,score. It returns an error wrapping ErrArgument if c is nil
// or tr has not one score per item of c.
func (tr *Truth) ScoresTable(c *Comparisons) (*output.Table, error) {
	if c == nil || len(tr.Scores) != len(c.Items) {
		return nil, fmt.Errorf("%w: true scores of another number of items than the comparisons'", ErrArgument)
	}
	t := &output.Table{Columns: []string{"item", "score"}, Numeric: []bool{false, true}}
	for i, item := range c.Items {
		t.Rows = append(t.Rows, []string{item, output.FormatProb(tr.Scores[i])})
	}
	return t, nil
}

// WorkersTable returns the true skills and biases tr of the simulated
// workers of c as a table worker,skill,bias, in the order in which the
// comparisons name them. It returns an error wrapping ErrArgument if c is
// nil or tr has not one skill and bias per worker of c.
func (tr *Truth) WorkersTable(c *Comparisons) (*output.Table, error) {
	if c == nil || len(tr.Skills) != len(c.Workers) || len(tr.Biases) != len(c.Workers) {
		return nil, fmt.Errorf("%w: true skills and biases of another number of workers than the comparisons'", ErrArgument)
	}
	t := &output.Table{Columns: []string{"worker", "skill", "bias"}, Numeric: []bool{false, true, true}}
	for w, name := range c.Workers {
		t.Rows = append(t.Rows, []string{name, output.FormatProb(tr.Skills[w]), output.FormatProb(tr.Biases[w])})
	}
	return t, nil
}

// Write writes c as a table worker,left,right,label in format f.
// It returns an error wrapping ErrArgument if c is not valid comparisons.
func (c *Comparisons) Write(w io.Writer, f dataio.Format) error {
	if err := c.check(); err != nil {
		return err
	}
	tw, err := table.NewWriter(w, f, []table.Column{{Name: "worker", Kind: table.Dict}, {Name: "left"}, {Name: "right"}, {Name: "label"}})
	if err != nil {
		return err
	}
	for k, l := range c.Left {
		left, right := c.Items[l], c.Items[c.Right[k]]
		label := right
		if c.LeftWon[k] {
			label = left
		}
		tw.String(c.Workers[c.Worker[k]])
		tw.String(left)
		tw.String(right)
		tw.String(label)
		if err := tw.EndRow(); err != nil {
			return err
		}
	}
	return tw.Close()
}

package output

import (
	"io"
	"slices"
	"strconv"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/table"
	"github.com/consensuslab/consensus/pairwise"
)

// PairwiseScores returns the items file of consensus pairwise fit: one
// row per item of r, best first, with a ties column
// when some comparison was a tie.
func PairwiseScores(r *pairwise.Result) *Table {
	t := &Table{
		Columns: []string{"item", "rank", "score", "weight", "wins", "comparisons"},
		Numeric: []bool{false, true, true, true, true, true},
	}
	if r.Ties != nil {
		t.Columns = slices.Insert(t.Columns, 5, "ties")
		t.Numeric = append(t.Numeric, true)
	}
	w := r.Weights()
	for rank, i := range r.Ranking() {
		row := []string{r.Items[i], strconv.Itoa(rank + 1), FormatProb(r.Scores[i]),
			FormatProb(w[i]), strconv.Itoa(r.Wins[i])}
		if r.Ties != nil {
			row = append(row, strconv.Itoa(r.Ties[i]))
		}
		t.Rows = append(t.Rows, append(row, strconv.Itoa(r.Games[i])))
	}
	return t
}

// PairwiseWorkers returns the workers file of the noisy Bradley-Terry fit
// r of the comparisons c: skill, bias and number of comparisons, in the order of
// the comparisons.
func PairwiseWorkers(r *pairwise.Result, c *pairwise.Comparisons) *Table {
	n := make([]int, len(c.Workers))
	for _, w := range c.Worker {
		n[w]++
	}
	t := &Table{
		Columns: []string{"worker", "skill", "bias", "comparisons"},
		Numeric: []bool{false, true, true, true},
	}
	for w, name := range r.Workers {
		t.Rows = append(t.Rows, []string{name, FormatProb(r.Skills[w]), FormatProb(r.Biases[w]), strconv.Itoa(n[w])})
	}
	return t
}

// PairwiseTruthScores returns the true scores tr of the simulated items
// of c as a table item,score.
func PairwiseTruthScores(c *pairwise.Comparisons, tr *pairwise.Truth) *Table {
	t := &Table{Columns: []string{"item", "score"}, Numeric: []bool{false, true}}
	for i, item := range c.Items {
		t.Rows = append(t.Rows, []string{item, FormatProb(tr.Scores[i])})
	}
	return t
}

// PairwiseTruthWorkers returns the true skills and biases tr of the
// simulated workers of c as a table worker,skill,bias, in the order in
// which the comparisons name them.
func PairwiseTruthWorkers(c *pairwise.Comparisons, tr *pairwise.Truth) *Table {
	t := &Table{Columns: []string{"worker", "skill", "bias"}, Numeric: []bool{false, true, true}}
	for w, name := range c.Workers {
		t.Rows = append(t.Rows, []string{name, FormatProb(tr.Skills[w]), FormatProb(tr.Biases[w])})
	}
	return t
}

// WriteComparisons writes c as a table worker,left,right,label in format f.
func WriteComparisons(w io.Writer, f dataio.Format, c *pairwise.Comparisons) error {
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

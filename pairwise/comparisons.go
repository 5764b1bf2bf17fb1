package pairwise

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/consensuslab/consensus/data/dataio"
)

// Comparisons holds pairwise comparisons with their items and workers
// numbered by first appearance.
type Comparisons struct {
	// Items names the items, in the order of their first appearance
	// (a row's left item before its right one).
	Items []string
	// Workers names the workers in the order of their first appearance;
	// it is empty when the comparisons have no worker column.
	Workers []string
	// Left and Right hold the items of each comparison, as indices into
	// Items.
	Left, Right []int32
	// Worker holds the worker of each comparison, an index into Workers;
	// it is nil when the comparisons have no worker column.
	Worker []int32
	// LeftWon tells, for each comparison, whether the left item was
	// chosen (false for a tie).
	LeftWon []bool
	// Tie tells, for each comparison, whether it was a tie, neither item
	// chosen; it is nil when no comparison is (AddTie).
	Tie []bool

	items, workers map[string]int32
}

// Len returns the number of comparisons, 0 for a nil c, so that a fit
// given nil returns ErrNoComparisons.
func (c *Comparisons) Len() int {
	if c == nil {
		return 0
	}
	return len(c.Left)
}

// check returns an error wrapping ErrArgument unless c's slices have one
// entry per comparison (Worker and Tie may be nil) and name its items and
// workers.
func (c *Comparisons) check() error {
	if c == nil {
		return fmt.Errorf("%w: no comparisons", ErrArgument)
	}
	n := len(c.Left)
	if len(c.Right) != n || len(c.LeftWon) != n || c.Worker != nil && len(c.Worker) != n || c.Tie != nil && len(c.Tie) != n {
		return fmt.Errorf("%w: comparisons of %d left items, %d right items, %d outcomes, %d workers and %d ties", ErrArgument, n, len(c.Right), len(c.LeftWon), len(c.Worker), len(c.Tie))
	}
	for k := range n {
		if l, r := c.Left[k], c.Right[k]; l < 0 || r < 0 || int(l) >= len(c.Items) || int(r) >= len(c.Items) {
			return fmt.Errorf("%w: comparison %d of items %d and %d, of %d items", ErrArgument, k, l, r, len(c.Items))
		}
		if c.Worker != nil && (c.Worker[k] < 0 || int(c.Worker[k]) >= len(c.Workers)) {
			return fmt.Errorf("%w: comparison %d by worker %d, of %d workers", ErrArgument, k, c.Worker[k], len(c.Workers))
		}
	}
	return nil
}

// HasWorkers reports whether the comparisons name their workers.
func (c *Comparisons) HasWorkers() bool { return c.Worker != nil }

// Add appends a comparison of the items left and right whose chosen item
// is label, by worker (empty if the comparisons name no workers). It
// returns an error if left and right are the same item, label is neither of
// them, or the comparison names a worker where the ones before it did not,
// or the other way round; the comparisons are then unchanged. The first
// comparison decides whether the comparisons have workers.
func (c *Comparisons) Add(worker, left, right, label string) error {
	if left == right {
		return fmt.Errorf("left and right are the same item %q; a comparison needs two items", left)
	}
	var leftWon bool
	switch label {
	case left:
		leftWon = true
	case right:
	default:
		return fmt.Errorf("label %q is neither the left item %q nor the right item %q; the label names the chosen item", label, left, right)
	}
	if c.Len() == 0 && c.Worker == nil && worker != "" {
		c.Worker = []int32{}
	}
	switch {
	case c.Worker != nil && worker == "":
		return fmt.Errorf("the worker is missing; the comparisons before name theirs")
	case c.Worker == nil && worker != "":
		return fmt.Errorf("worker %q given where the comparisons before name none", worker)
	}
	if c.Worker != nil {
		c.Worker = append(c.Worker, intern(&c.workers, &c.Workers, worker))
	}
	c.Left = append(c.Left, intern(&c.items, &c.Items, left))
	c.Right = append(c.Right, intern(&c.items, &c.Items, right))
	c.LeftWon = append(c.LeftWon, leftWon)
	if c.Tie != nil {
		c.Tie = append(c.Tie, false)
	}
	return nil
}

// AddTie appends a comparison of the items left and right that ended in a
// tie, by worker, with Add's rules for the items and the worker.
func (c *Comparisons) AddTie(worker, left, right string) error {
	if err := c.Add(worker, left, right, left); err != nil {
		return err
	}
	k := c.Len() - 1
	if c.Tie == nil {
		c.Tie = make([]bool, k+1) // Add appended no entry for this one
	}
	c.Tie[k], c.LeftWon[k] = true, false
	return nil
}

// HasTies reports whether some comparison is a tie.
func (c *Comparisons) HasTies() bool { return c.Tie != nil }

// isTie reports whether comparison k is a tie.
func (c *Comparisons) isTie(k int) bool { return c.Tie != nil && c.Tie[k] }

// intern returns the index of name in *names, adding it if it is new.
func intern(index *map[string]int32, names *[]string, name string) int32 {
	if *index == nil {
		*index = make(map[string]int32)
	}
	if i, ok := (*index)[name]; ok {
		return i
	}
	name = strings.Clone(name)
	i := int32(len(*names))
	(*index)[name] = i
	*names = append(*names, name)
	return i
}

// Wins returns, for every item, the number of comparisons it was chosen in
// and the number it took part in, ties included.
func (c *Comparisons) Wins() (wins, games []int) {
	wins = make([]int, len(c.Items))
	games = make([]int, len(c.Items))
	for k, l := range c.Left {
		r := c.Right[k]
		games[l]++
		games[r]++
		switch {
		case c.isTie(k):
		case c.LeftWon[k]:
			wins[l]++
		default:
			wins[r]++
		}
	}
	return wins, games
}

// Ties returns, for every item, the number of its comparisons that were
// ties.
func (c *Comparisons) Ties() []int {
	ties := make([]int, len(c.Items))
	for k, t := range c.Tie {
		if t {
			ties[c.Left[k]]++
			ties[c.Right[k]]++
		}
	}
	return ties
}

// Columns names the columns of a comparisons table. The zero value is
// Crowd-Kit's: "worker", "left", "right" and "label", and no ties.
type Columns struct {
	// Worker, Left, Right and Label name the columns; empty means
	// "worker", "left", "right" and "label". The worker column may be
	// absent from a table (the Bradley-Terry model does not need it);
	// the others must be there.
	Worker, Left, Right, Label string
	// NoWorkers leaves the worker column unread even where the table has
	// one, as any other column the reader ignores: its cells are not
	// checked (an empty cell is no error). The Bradley-Terry model does
	// not use the workers.
	NoWorkers bool
	// Tie, if not empty, is the label of a tie: a row whose label is
	// Tie is a comparison in which neither item was chosen (AddTie). A
	// row whose items include one named Tie is an error, as the label
	// would be ambiguous.
	Tie string
}

// names returns the column names, with the defaults for the empty ones.
func (c Columns) names() (worker, left, right, label string) {
	or := func(s, def string) string {
		if s == "" {
			return def
		}
		return s
	}
	return or(c.Worker, "worker"), or(c.Left, "left"), or(c.Right, "right"), or(c.Label, "label")
}

// ReadComparisons reads comparisons from r in format f (empty: by the
// name's extension, see dataio.FormatOf), gzip-compressed or not, with
// dataio.ReadTable's rules: CSV and TSV with a header line, JSON Lines,
// Parquet; cells are trimmed text, neither empty nor null. Each row is one
// comparison whose label cell names the chosen item, which must be the
// row's left or right item, or is cols.Tie for a tie; a row whose two items
// are the same is an error. The worker column is read when the table has
// one, unless cols.NoWorkers. Every problem
// is a *dataio.InputError naming the file and the line (for Parquet, the
// row). ctx, opt.Sep and opt.MaxMemory apply as in dataio.ReadTable.
func ReadComparisons(ctx context.Context, r io.Reader, name string, f dataio.Format, cols Columns, opt dataio.ReadSettings) (*Comparisons, error) {
	c := &Comparisons{}
	spec, row := c.reader(cols)
	if err := dataio.ReadTable(ctx, r, name, f, opt, spec, row); err != nil {
		return nil, err
	}
	return c, nil
}

// LoadComparisons reads comparisons from the named file, or from standard
// input if path is "-", as ReadComparisons does.
func LoadComparisons(ctx context.Context, path string, f dataio.Format, cols Columns, opt dataio.ReadSettings) (*Comparisons, error) {
	c := &Comparisons{}
	spec, row := c.reader(cols)
	if err := dataio.LoadTable(ctx, path, f, opt, spec, row); err != nil {
		return nil, err
	}
	return c, nil
}

// reader returns the columns to read into c and the function that adds a
// row.
func (c *Comparisons) reader(cols Columns) (dataio.Columns, func([]string, int) error) {
	worker, left, right, label := cols.names()
	spec := dataio.Columns{
		Names: []string{left, right, label},
		Roles: []string{"left", "right", "choice"},
		More: func(header []string) (names, roles []string, err error) {
			if cols.NoWorkers {
				return nil, nil, nil
			}
			for _, h := range header {
				if h == worker {
					return []string{h}, []string{"worker"}, nil
				}
			}
			for _, h := range header {
				if strings.EqualFold(h, worker) {
					return []string{h}, []string{"worker"}, nil
				}
			}
			return nil, nil, nil
		},
	}
	first := true
	return spec, func(cells []string, _ int) error {
		if first && len(cells) == 4 {
			c.Worker = []int32{}
		}
		first = false
		w := ""
		if len(cells) == 4 {
			w = cells[3]
		}
		if cols.Tie != "" {
			if cells[0] == cols.Tie || cells[1] == cols.Tie {
				return fmt.Errorf("item %q is also the tie label; name the tie with another label", cols.Tie)
			}
			if cells[2] == cols.Tie {
				return c.AddTie(w, cells[0], cells[1])
			}
		}
		return c.Add(w, cells[0], cells[1], cells[2])
	}
}

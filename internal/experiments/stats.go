package experiments

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
)

// StatsResult holds the statistics of the shipped data sets.
type StatsResult struct {
	// Names lists the data sets in the paper's order.
	Names []string
	// Stats and Gold hold their statistics and numbers of gold objects.
	Stats []data.Stats
	Gold  []int
}

// Stats computes the statistics of the paper's appendix B table for the
// six shipped data sets.
func Stats() (*StatsResult, error) {
	r := &StatsResult{}
	for _, p := range paperData {
		if p.Name == "price" {
			continue
		}
		d, g, err := datasets.Load(p.Name)
		if err != nil {
			return nil, err
		}
		r.Names = append(r.Names, p.Name)
		r.Stats = append(r.Stats, d.Stats())
		r.Gold = append(r.Gold, g.Len())
	}
	return r, nil
}

// row returns our row of the table for data set i, formatted as the
// paper's.
func (r *StatsResult) row(i int) [8]string {
	s := r.Stats[i]
	return [8]string{strconv.Itoa(s.Classes), strconv.Itoa(s.Tasks), strconv.Itoa(s.Workers), strconv.Itoa(s.Labels),
		num(s.LabelsPerTask, 1), num(s.LabelsPerWorker, 1), strconv.FormatFloat(s.MedianLabelsPerWorker, 'g', -1, 64), strconv.Itoa(r.Gold[i])}
}

// Markdown returns stats.md: our statistics beside the paper's, with the
// cells that differ marked.
func (r *StatsResult) Markdown() string {
	var b strings.Builder
	b.WriteString("## Data set statistics (paper appendix B table)\n\n")
	b.WriteString("Computed from the shipped data (data.Dataset.Stats; gold objects are those with at least one noisy label). " +
		"**Bold**: our value differs from the paper's. Price is not public.\n\n")
	t := newTable("Data set", "", "# Cl.", "# Obj.", "# Workers", "# Samples", "Lab. per obj. (mean)", "Lab. per worker (mean)", "Lab. per worker (median)", "Gr. truth objects")
	t.align[1] = 'l'
	for _, p := range paperData {
		i := -1
		for j, n := range r.Names {
			if n == p.Name {
				i = j
			}
		}
		if i >= 0 {
			ours := r.row(i)
			cells := []string{p.Title, "ours"}
			for c, v := range ours {
				if v != p.Stats[c] {
					v = bold(v)
				}
				cells = append(cells, v)
			}
			t.add(cells...)
		} else {
			cells := []string{p.Title, "ours", "not public"}
			for range len(p.Stats) - 1 {
				cells = append(cells, "–")
			}
			t.add(cells...)
		}
		t.add(append([]string{"", "paper"}, p.Stats[:]...)...)
	}
	b.WriteString(t.String())
	var extra []string
	for i, n := range r.Names {
		s := r.Stats[i]
		if s.DuplicatePairs > 0 {
			extra = append(extra, fmt.Sprintf("%s: %d (object, worker) pairs labelled more than once (%d extra labels, %d pairs with conflicting labels), all kept as in the paper's counts",
				n, s.DuplicatePairs, s.DuplicateLabels, s.ConflictingPairs))
		}
	}
	if len(extra) > 0 {
		b.WriteString("\nRepeated labels: " + strings.Join(extra, "; ") + ".\n")
	}
	return b.String()
}

// WriteCSV writes stats.csv: our statistics and the paper's.
func (r *StatsResult) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"dataset", "source", "classes", "objects", "workers", "labels", "labels_per_object", "labels_per_worker_mean", "labels_per_worker_median", "gold"}
	cw.Write(head)
	for _, p := range paperData {
		for i, n := range r.Names {
			if n == p.Name {
				s := r.Stats[i]
				cw.Write([]string{n, "ours", strconv.Itoa(s.Classes), strconv.Itoa(s.Tasks), strconv.Itoa(s.Workers), strconv.Itoa(s.Labels),
					csvNum(s.LabelsPerTask), csvNum(s.LabelsPerWorker), csvNum(s.MedianLabelsPerWorker), strconv.Itoa(r.Gold[i])})
			}
		}
		cw.Write(append([]string{p.Name, "paper"}, p.Stats[:]...))
	}
	cw.Flush()
	return cw.Error()
}

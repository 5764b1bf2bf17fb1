package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/consensuslab/consensus/compare"
)

// compareFormats lists the --output-format values of compare.
var compareFormats = []string{"table", "csv", "json", "markdown"}

// tableWidth is the width the default compare table keeps within.
const tableWidth = 100

// printCompareAs writes the report in format f: "table" (or ""), "csv",
// "json" or "markdown".
func printCompareAs(w io.Writer, r *compare.Report, f string) error {
	switch f {
	case "", "table":
		return printCompareTable(w, r)
	case "csv":
		return printCompareCSV(w, r)
	case "json":
		return printCompareJSON(w, r)
	case "markdown":
		return printCompareMarkdown(w, r)
	}
	return usagef("--output-format %q: want one of %s", f, strings.Join(compareFormats, ", "))
}

// compareNote is the note of a row: "recommended" for the recommended
// model, then the failure or the iteration limit.
func compareNote(r *compare.Report, row compare.Row) string {
	var notes []string
	if isRecommended(r, row.Model) {
		notes = append(notes, "recommended")
	}
	switch {
	case row.Err != nil:
		notes = append(notes, "failed: "+oneLine(row.Err))
	case !row.Converged:
		notes = append(notes, "iteration limit")
	}
	return strings.Join(notes, "; ")
}

// f4 formats a metric with four decimals, "-" for a metric not computed.
func f4(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.4f", v)
}

// withCI formats an interval as "value [lo, hi]".
func withCI(x compare.Interval) string {
	if math.IsNaN(x.Value) {
		return "-"
	}
	return fmt.Sprintf("%.4f [%.4f, %.4f]", x.Value, x.Lo, x.Hi)
}

// recommendation returns the last lines of the table and markdown forms:
// what the ranking measured, how the recommendation was made, and the
// recommended model on a line of its own. The recommendation is
// compare.Auto's (r.Recommended), whatever the ranking's criterion; the
// lines are empty when r has none.
func recommendation(r *compare.Report) (basis, how, rec string) {
	if top, _ := r.Top(); top != "" {
		what := fmt.Sprintf("%d gold tasks", r.N)
		if r.Criterion == compare.HeldOut {
			what = fmt.Sprintf("%d held-out labels in %d splits", r.N, r.Splits)
		}
		basis = fmt.Sprintf("ranked by %s on %s; first: share of %d bootstrap resamples ranked first",
			r.Criterion, what, r.Bootstrap)
	}
	if c := r.Recommended; c != nil {
		how = "recommendation, as fit --model auto and report make it: " + c.Basis()
		rec = "recommended: " + c.Model
	}
	return basis, how, rec
}

// recommendedBy returns the criterion of the recommendation, "" without
// one.
func recommendedBy(r *compare.Report) string {
	if r.Recommended == nil {
		return ""
	}
	return r.Recommended.Criterion
}

// isRecommended reports whether model is r's recommendation.
func isRecommended(r *compare.Report, model string) bool {
	return r.Recommended != nil && r.Recommended.Model == model
}

// wrap breaks text into lines of at most width columns at spaces (a word
// longer than width gets a line of its own).
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// printCompareTable writes the compact table: rank, model, the gold
// metrics (or the held-out log loss) with the confidence interval of the
// ranking criterion only, the share of resamples ranked first and a note
// cut to keep every line within tableWidth columns; then the basis of the
// ranking and the recommendation on the last line.
func printCompareTable(w io.Writer, r *compare.Report) error {
	lvl := int(math.Round(r.Level * 100))
	head := []string{"rank", "model", "accuracy", "log loss", "Brier", "ECE"}
	crit := map[compare.Criterion]int{compare.Accuracy: 2, compare.LogLoss: 3, compare.Brier: 4, compare.ECE: 5}
	if r.Criterion == compare.HeldOut {
		head = []string{"rank", "model", "held-out log loss"}
		crit = map[compare.Criterion]int{compare.HeldOut: 2}
	}
	ci := crit[r.Criterion]
	head[ci] += fmt.Sprintf(" [%d%% CI]", lvl)
	head = append(head, "first", "note")
	rows := [][]string{head}
	for i, row := range r.Rows {
		cells := []string{strconv.Itoa(i + 1), row.Model}
		if r.Criterion == compare.HeldOut {
			cells = append(cells, withCI(row.HeldOut))
		} else {
			for c, x := range []compare.Interval{row.Accuracy, row.LogLoss, row.Brier, row.ECE} {
				if c+2 == ci {
					cells = append(cells, withCI(x))
				} else {
					cells = append(cells, f4(x.Value))
				}
			}
		}
		rows = append(rows, append(cells, fmt.Sprintf("%.0f%%", 100*row.First), compareNote(r, row)))
	}
	// Cut the notes to the width left by the other columns (each
	// followed by two spaces of padding).
	used := 0
	for c := range len(head) - 1 {
		wmax := 0
		for _, cells := range rows {
			wmax = max(wmax, len([]rune(cells[c])))
		}
		used += wmax + 2
	}
	room := max(tableWidth-used, len("note"))
	var buf strings.Builder
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	for _, cells := range rows {
		if note := []rune(cells[len(cells)-1]); len(note) > room {
			cells[len(cells)-1] = string(note[:room-1]) + "…"
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, l := range strings.SplitAfter(buf.String(), "\n") {
		if l != "" {
			fmt.Fprintln(w, strings.TrimRight(l, " \n"))
		}
	}
	basis, how, rec := recommendation(r)
	for _, text := range []string{basis, how, rec} {
		for _, l := range wrap(text, tableWidth) {
			if _, err := fmt.Fprintln(w, l); err != nil {
				return err
			}
		}
	}
	return nil
}

// compareFields are the columns of the csv and json forms, in order.
var compareFields = []string{
	"rank", "model", "recommended", "recommendation_criterion", "criterion", "score", "score_lo", "score_hi",
	"accuracy", "accuracy_lo", "accuracy_hi", "log_loss", "log_loss_lo", "log_loss_hi",
	"brier", "brier_lo", "brier_hi", "ece", "ece_lo", "ece_hi",
	"heldout_log_loss", "heldout_log_loss_lo", "heldout_log_loss_hi",
	"first", "converged", "n", "splits", "bootstrap", "level", "error",
}

// compareRecord returns row i of r as the values of compareFields: int,
// string, bool or float64 (NaN where a metric was not computed).
func compareRecord(r *compare.Report, i int) []any {
	row := r.Rows[i]
	errText := ""
	if row.Err != nil {
		errText = oneLine(row.Err)
	}
	v := []any{i + 1, row.Model, isRecommended(r, row.Model), recommendedBy(r), string(r.Criterion)}
	for _, x := range []compare.Interval{row.Score, row.Accuracy, row.LogLoss, row.Brier, row.ECE, row.HeldOut} {
		v = append(v, x.Value, x.Lo, x.Hi)
	}
	return append(v, row.First, row.Converged, r.N, r.Splits, r.Bootstrap, r.Level, errText)
}

// csvNumber formats a float64 with the shortest text that reads back to
// the same value: "" for NaN (not computed), "inf" and "-inf" for the
// infinities, as pandas and Python's float() read them.
func csvNumber(x float64) string {
	switch {
	case math.IsNaN(x):
		return ""
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// printCompareCSV writes one row per model with every number of the
// report at full precision (columns compareFields; see csvNumber).
func printCompareCSV(w io.Writer, r *compare.Report) error {
	cw := csv.NewWriter(w)
	cw.Write(compareFields)
	for i := range r.Rows {
		rec := compareRecord(r, i)
		cells := make([]string, len(rec))
		for c, v := range rec {
			switch v := v.(type) {
			case float64:
				cells[c] = csvNumber(v)
			default:
				cells[c] = fmt.Sprint(v)
			}
		}
		cw.Write(cells)
	}
	cw.Flush()
	return cw.Error()
}

// printCompareJSON writes a JSON array with one object per model, keys
// compareFields, numbers as JSON numbers at full precision; a metric not
// computed (NaN) is null and an infinite one the string "inf" or "-inf".
func printCompareJSON(w io.Writer, r *compare.Report) error {
	var b strings.Builder
	b.WriteString("[")
	for i := range r.Rows {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  {")
		for c, v := range compareRecord(r, i) {
			if c > 0 {
				b.WriteString(", ")
			}
			k, _ := json.Marshal(compareFields[c])
			b.Write(k)
			b.WriteString(": ")
			if x, ok := v.(float64); ok {
				switch s := csvNumber(x); s {
				case "":
					b.WriteString("null")
				case "inf", "-inf":
					b.WriteString(`"` + s + `"`)
				default:
					b.WriteString(s)
				}
				continue
			}
			enc, err := json.Marshal(v)
			if err != nil {
				return err
			}
			b.Write(enc)
		}
		b.WriteString("}")
	}
	b.WriteString("\n]\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// printCompareMarkdown writes a GitHub-flavoured Markdown table with every
// metric and its interval at four decimals, then the basis of the ranking
// and the recommendation.
func printCompareMarkdown(w io.Writer, r *compare.Report) error {
	lvl := int(math.Round(r.Level * 100))
	head := []string{"rank", "model", "accuracy", "log loss", "Brier", "ECE"}
	if r.Criterion == compare.HeldOut {
		head = []string{"rank", "model", "held-out log loss"}
	}
	for c := 2; c < len(head); c++ {
		head[c] += fmt.Sprintf(" [%d%% CI]", lvl)
	}
	head = append(head, "first", "note")
	line := func(cells []string) {
		for c := range cells {
			cells[c] = strings.ReplaceAll(cells[c], "|", `\|`)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	line(head)
	sep := make([]string, len(head))
	for c := range sep {
		sep[c] = "---:"
	}
	sep[1], sep[len(sep)-1] = "---", "---"
	fmt.Fprintf(w, "|%s|\n", strings.Join(sep, "|"))
	for i, row := range r.Rows {
		cells := []string{strconv.Itoa(i + 1), "`" + row.Model + "`"}
		if r.Criterion == compare.HeldOut {
			cells = append(cells, withCI(row.HeldOut))
		} else {
			for _, x := range []compare.Interval{row.Accuracy, row.LogLoss, row.Brier, row.ECE} {
				cells = append(cells, withCI(x))
			}
		}
		line(append(cells, fmt.Sprintf("%.0f%%", 100*row.First), compareNote(r, row)))
	}
	basis, how, rec := recommendation(r)
	for _, text := range []string{basis, how, rec} {
		if text == "" {
			continue
		}
		if _, err := fmt.Fprintf(w, "\n%s\n", text); err != nil {
			return err
		}
	}
	return nil
}

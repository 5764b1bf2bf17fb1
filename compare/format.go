package compare

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Formats lists the formats Write writes, the first the default.
var Formats = []string{"table", "csv", "json", "markdown"}

// TableWidth is the width in columns that the table format keeps within:
// failure notes are cut and the closing lines wrapped to fit.
const TableWidth = 100

// Write writes r to w in format f, one of Formats ("" is "table"):
//
//   - table: a compact table of rank, model, the gold metrics (or the
//     held-out log loss) with the confidence interval of the ranking
//     criterion only, the share of resamples ranked first and a note, within
//     TableWidth columns, then the basis of the ranking and the
//     recommendation, the recommended model on the last line;
//   - csv: one row per model with every number at full precision, NaN (not
//     computed) as an empty cell and the infinities as "inf" and "-inf";
//   - json: an array of one object per model with the csv form's columns as
//     keys, NaN as null and the infinities as the strings "inf" and "-inf";
//   - markdown: a GitHub-flavoured Markdown table with every metric and its
//     interval, then the basis of the ranking and the recommendation.
//
// Write returns an error for any other format, or the first error of w;
// an error wrapping ErrArgument if r is nil.
func Write(w io.Writer, r *Report, f string) error {
	if r == nil {
		return argErrorf("nil report")
	}
	switch f {
	case "", "table":
		return writeTable(w, r)
	case "csv":
		return writeCSV(w, r)
	case "json":
		return writeJSON(w, r)
	case "markdown":
		return writeMarkdown(w, r)
	}
	return fmt.Errorf("output format %q: want one of %s", f, strings.Join(Formats, ", "))
}

// oneLine flattens an error message to a single line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", " ")), " ")
}

// rowNote is the note of a row: "recommended" for the recommended
// model, then the failure or the iteration limit.
func rowNote(r *Report, row Row) string {
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
func withCI(x Interval) string {
	if math.IsNaN(x.Value) {
		return "-"
	}
	return fmt.Sprintf("%.4f [%.4f, %.4f]", x.Value, x.Lo, x.Hi)
}

// recommendation returns the last lines of the table and markdown forms:
// what the ranking measured, how the recommendation was made, and the
// recommended model on a line of its own. The recommendation is
// Auto's (r.Recommended), whatever the ranking's criterion; the
// lines are empty when r has none.
func recommendation(r *Report) (basis, how, rec string) {
	if top, _ := r.Top(); top != "" {
		what := fmt.Sprintf("%d gold tasks", r.N)
		if r.Criterion == HeldOut {
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
func recommendedBy(r *Report) string {
	if r.Recommended == nil {
		return ""
	}
	return r.Recommended.Criterion
}

// isRecommended reports whether model is r's recommendation.
func isRecommended(r *Report, model string) bool {
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

// writeTable writes the compact table: rank, model, the gold
// metrics (or the held-out log loss) with the confidence interval of the
// ranking criterion only, the share of resamples ranked first and a note
// cut to keep every line within TableWidth columns; then the basis of the
// ranking and the recommendation on the last line.
func writeTable(w io.Writer, r *Report) error {
	lvl := int(math.Round(r.Level * 100))
	head := []string{"rank", "model", "accuracy", "log loss", "Brier", "ECE"}
	crit := map[Criterion]int{Accuracy: 2, LogLoss: 3, Brier: 4, ECE: 5}
	if r.Criterion == HeldOut {
		head = []string{"rank", "model", "held-out log loss"}
		crit = map[Criterion]int{HeldOut: 2}
	}
	ci := crit[r.Criterion]
	head[ci] += fmt.Sprintf(" [%d%% CI]", lvl)
	head = append(head, "first", "note")
	rows := [][]string{head}
	for i, row := range r.Rows {
		cells := []string{strconv.Itoa(i + 1), row.Model}
		if r.Criterion == HeldOut {
			cells = append(cells, withCI(row.HeldOut))
		} else {
			for c, x := range []Interval{row.Accuracy, row.LogLoss, row.Brier, row.ECE} {
				if c+2 == ci {
					cells = append(cells, withCI(x))
				} else {
					cells = append(cells, f4(x.Value))
				}
			}
		}
		rows = append(rows, append(cells, fmt.Sprintf("%.0f%%", 100*row.First), rowNote(r, row)))
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
	room := max(TableWidth-used, len("note"))
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
		for _, l := range wrap(text, TableWidth) {
			if _, err := fmt.Fprintln(w, l); err != nil {
				return err
			}
		}
	}
	return nil
}

// fields are the columns of the csv and json forms, in order.
var fields = []string{
	"rank", "model", "recommended", "recommendation_criterion", "criterion", "score", "score_lo", "score_hi",
	"accuracy", "accuracy_lo", "accuracy_hi", "log_loss", "log_loss_lo", "log_loss_hi",
	"brier", "brier_lo", "brier_hi", "ece", "ece_lo", "ece_hi",
	"heldout_log_loss", "heldout_log_loss_lo", "heldout_log_loss_hi",
	"first", "converged", "n", "splits", "bootstrap", "level", "error",
}

// record returns row i of r as the values of fields: int,
// string, bool or float64 (NaN where a metric was not computed).
func record(r *Report, i int) []any {
	row := r.Rows[i]
	errText := ""
	if row.Err != nil {
		errText = oneLine(row.Err)
	}
	v := []any{i + 1, row.Model, isRecommended(r, row.Model), recommendedBy(r), string(r.Criterion)}
	for _, x := range []Interval{row.Score, row.Accuracy, row.LogLoss, row.Brier, row.ECE, row.HeldOut} {
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

// writeCSV writes one row per model with every number of the
// report at full precision (columns fields; see csvNumber).
func writeCSV(w io.Writer, r *Report) error {
	cw := csv.NewWriter(w)
	cw.Write(fields)
	for i := range r.Rows {
		rec := record(r, i)
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

// writeJSON writes a JSON array with one object per model, keys
// fields, numbers as JSON numbers at full precision; a metric not
// computed (NaN) is null and an infinite one the string "inf" or "-inf".
func writeJSON(w io.Writer, r *Report) error {
	var b strings.Builder
	b.WriteString("[")
	for i := range r.Rows {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  {")
		for c, v := range record(r, i) {
			if c > 0 {
				b.WriteString(", ")
			}
			k, _ := json.Marshal(fields[c])
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

// writeMarkdown writes a GitHub-flavoured Markdown table with every
// metric and its interval at four decimals, then the basis of the ranking
// and the recommendation.
func writeMarkdown(w io.Writer, r *Report) error {
	lvl := int(math.Round(r.Level * 100))
	head := []string{"rank", "model", "accuracy", "log loss", "Brier", "ECE"}
	if r.Criterion == HeldOut {
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
		if r.Criterion == HeldOut {
			cells = append(cells, withCI(row.HeldOut))
		} else {
			for _, x := range []Interval{row.Accuracy, row.LogLoss, row.Brier, row.ECE} {
				cells = append(cells, withCI(x))
			}
		}
		line(append(cells, fmt.Sprintf("%.0f%%", 100*row.First), rowNote(r, row)))
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

// WriteChoice writes what Auto chose and why, as fit --model auto reports
// it: one line with the choice, its basis and the time taken, and one per
// candidate with its score, iterations and time, the choice marked "*".
// WriteChoice returns an error wrapping ErrArgument if c is nil; it does
// not report w's errors, as the lines are a note beside a fit.
func WriteChoice(w io.Writer, c *AutoChoice) error {
	if c == nil {
		return argErrorf("nil choice")
	}
	fmt.Fprintf(w, "auto: chose %s, %s; %v\n", c.Model, c.Basis(), c.Runtime.Round(time.Millisecond))
	width := 0
	for _, k := range c.Candidates {
		width = max(width, len(k.Model))
	}
	for _, k := range c.Candidates {
		note := ""
		switch {
		case k.Err != nil:
			note = "  failed: " + oneLine(k.Err)
		case !k.Converged:
			note = "  (stopped at its iteration limit)"
		}
		mark := " "
		if k.Model == c.Model {
			mark = "*"
		}
		fmt.Fprintf(w, "auto: %s %-*s %.4f  %4d iterations  %v%s\n", mark, width, k.Model, k.Score, k.Iterations, k.Runtime.Round(time.Millisecond), note)
	}
	return nil
}

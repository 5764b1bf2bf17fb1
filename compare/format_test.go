package compare

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
)

// testReport returns a report with an infinite log loss, a row that did
// not converge and a failed model with a long message, and a
// recommendation that is not the first row.
func testReport() *Report {
	nan := math.NaN()
	iv := func(v, lo, hi float64) Interval { return Interval{Value: v, Lo: lo, Hi: hi} }
	none := iv(nan, nan, nan)
	return &Report{
		Criterion: LogLoss, N: 462, Bootstrap: 200, Level: 0.95,
		Rows: []Row{
			{Model: "hda-ds", Score: iv(0.23561234567, 0.1692, 0.2950), Accuracy: iv(0.9415584415584416, 0.9221, 0.9589),
				LogLoss: iv(0.23561234567, 0.1692, 0.2950), Brier: iv(0.0888, 0.063, 0.1133), ECE: iv(0.0244, 0.0122, 0.0462),
				HeldOut: none, First: 0.72, Converged: true},
			{Model: "la-glad", Score: iv(math.Inf(1), 0.27, math.Inf(1)), Accuracy: iv(0.9372, 0.9177, 0.9567),
				LogLoss: iv(math.Inf(1), 0.27, math.Inf(1)), Brier: iv(0.1418, 0.1183, 0.1677), ECE: iv(0.0818, 0.0592, 0.1047),
				HeldOut: none, First: 0.28},
			{Model: "vb-hda-onecoin", Score: none, Accuracy: none, LogLoss: none, Brier: none, ECE: none, HeldOut: none,
				Err: errors.New("the fit could not start because " + strings.Repeat("of a very long reason ", 8))},
		},
		Recommended: &AutoChoice{Model: "la-glad", Criterion: "likelihood", Tasks: 462, Labels: 4620, Splits: 3,
			Candidates: []AutoCandidate{{Model: "la-glad"}, {Model: "hda-ds"}, {Model: "vb-hda-onecoin"}}},
	}
}

// TestCompareTable checks that the default table fits in 100 columns (the
// long failure note is cut), shows the criterion's interval, marks the
// recommended model and ends with how the recommendation was made and the
// recommendation on a line of its own.
func TestCompareTable(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, testReport(), "table"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for _, l := range lines {
		if n := len([]rune(l)); n > TableWidth {
			t.Errorf("line of %d columns: %q", n, l)
		}
		if strings.TrimRight(l, " ") != l {
			t.Errorf("trailing spaces: %q", l)
		}
	}
	for _, want := range []string{"log loss [95% CI]", "0.2356 [0.1692, 0.2950]", "0.9416", "+Inf [0.2700, +Inf]", "recommended; iterat", "failed: the fit",
		"recommendation, as fit --model auto and report make it: the lowest held-out likelihood loss among\nla-glad,"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	if last := lines[len(lines)-1]; last != "recommended: la-glad" {
		t.Errorf("last line %q", last)
	}
}

// TestCompareCSVJSON parses the csv and json forms back and checks every
// number against the report, at full precision, with the documented rules
// for infinite (the string "inf") and missing (empty, null) values.
func TestCompareCSVJSON(t *testing.T) {
	r := testReport()
	var cb, jb bytes.Buffer
	if err := Write(&cb, r, "csv"); err != nil {
		t.Fatal(err)
	}
	if err := Write(&jb, r, "json"); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cb).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(jb.Bytes(), &objs); err != nil {
		t.Fatalf("json: %v\n%s", err, jb.String())
	}
	if len(recs) != len(r.Rows)+1 || len(objs) != len(r.Rows) {
		t.Fatalf("%d csv records and %d json objects for %d rows", len(recs), len(objs), len(r.Rows))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	check := func(i int, field string, want float64) {
		t.Helper()
		cell, obj := recs[i+1][col[field]], objs[i][field]
		switch {
		case math.IsNaN(want):
			if cell != "" || obj != nil {
				t.Errorf("row %d %s: csv %q json %v, want empty and null", i, field, cell, obj)
			}
		case math.IsInf(want, 1):
			if cell != "inf" || obj != "inf" {
				t.Errorf("row %d %s: csv %q json %v, want inf", i, field, cell, obj)
			}
		default:
			got, err := strconv.ParseFloat(cell, 64)
			if err != nil || got != want || obj != want {
				t.Errorf("row %d %s: csv %q json %v, want %v", i, field, cell, obj, want)
			}
		}
	}
	for i, row := range r.Rows {
		if recs[i+1][col["model"]] != row.Model || objs[i]["model"] != row.Model || objs[i]["rank"] != float64(i+1) {
			t.Errorf("row %d: model %q / %v, want %s", i, recs[i+1][col["model"]], objs[i]["model"], row.Model)
		}
		for name, x := range map[string]Interval{"score": row.Score, "accuracy": row.Accuracy, "log_loss": row.LogLoss,
			"brier": row.Brier, "ece": row.ECE, "heldout_log_loss": row.HeldOut} {
			check(i, name, x.Value)
			check(i, name+"_lo", x.Lo)
			check(i, name+"_hi", x.Hi)
		}
		check(i, "first", row.First)
		if objs[i]["converged"] != row.Converged || objs[i]["recommended"] != (i == 1) || recs[i+1][col["recommended"]] != strconv.FormatBool(i == 1) {
			t.Errorf("row %d: converged %v recommended %v", i, objs[i]["converged"], objs[i]["recommended"])
		}
		if objs[i]["recommendation_criterion"] != "likelihood" || recs[i+1][col["recommendation_criterion"]] != "likelihood" {
			t.Errorf("row %d: recommendation criterion %v", i, objs[i]["recommendation_criterion"])
		}
		if (row.Err != nil) != (objs[i]["error"] != "") {
			t.Errorf("row %d: error %q", i, objs[i]["error"])
		}
	}
}

// TestCompareMarkdown checks the markdown form: a header, a separator, one
// row per model with every metric's interval, and the recommendation.
func TestCompareMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, testReport(), "markdown"); err != nil {
		t.Fatal(err)
	}
	var rows int
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "| ") {
			rows++
			if n := strings.Count(strings.ReplaceAll(l, `\|`, ""), "|"); n != 9 {
				t.Errorf("%d cell borders in %q, want 9", n, l)
			}
		}
	}
	if rows != 4 {
		t.Errorf("%d table lines, want 4:\n%s", rows, b.String())
	}
	for _, want := range []string{"| 1 | `hda-ds` | 0.9416 [0.9221, 0.9589] | 0.2356 [0.1692, 0.2950] |", "| 72% |  |\n",
		"| 28% | recommended; iteration limit |", "\nrecommendation, as fit --model auto", "\nrecommended: la-glad\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, b.String())
		}
	}
}

// TestWriteUnknownFormat checks that Write refuses a format outside Formats
// and writes nothing.
func TestWriteUnknownFormat(t *testing.T) {
	for _, f := range []string{"xml", "Table", "tsv"} {
		var b bytes.Buffer
		err := Write(&b, testReport(), f)
		if err == nil || !strings.Contains(err.Error(), strconv.Quote(f)) {
			t.Errorf("Write(%q) = %v, want an error naming the format", f, err)
		}
		if b.Len() != 0 {
			t.Errorf("Write(%q) wrote %d bytes", f, b.Len())
		}
	}
}

// TestWriteChoice checks the lines of a choice: the choice with its basis,
// then one per candidate, the chosen one marked and a failure on one line.
func TestWriteChoice(t *testing.T) {
	c := testReport().Recommended
	c.Candidates[0].Converged, c.Candidates[0].Score, c.Candidates[0].Iterations = true, 0.5, 12
	c.Candidates[1].Converged = true
	c.Candidates[2].Err = errors.New("out of\nmemory")
	var b bytes.Buffer
	if err := WriteChoice(&b, c); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for i, want := range []string{
		"auto: chose la-glad, the lowest held-out",
		"auto: * la-glad        0.5000    12 iterations  0s",
		"auto:   hda-ds         0.0000     0 iterations  0s",
		"auto:   vb-hda-onecoin 0.0000     0 iterations  0s  failed: out of memory",
	} {
		if i >= len(lines) || !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d: got %q, want it to start with %q", i, lines[min(i, len(lines)-1)], want)
		}
	}
	if len(lines) != 4 {
		t.Errorf("%d lines, want 4:\n%s", len(lines), b.String())
	}
}

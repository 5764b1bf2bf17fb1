package experiments

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// num formats v with prec digits after the point, "∞" for +Inf, "−∞" for
// -Inf and "n/a" for NaN.
func num(v float64, prec int) string {
	switch {
	case math.IsInf(v, 1):
		return "∞"
	case math.IsInf(v, -1):
		return "−∞"
	case math.IsNaN(v):
		return "n/a"
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

// signed formats v like num with an explicit sign.
func signed(v float64, prec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return num(v, prec)
	}
	s := num(v, prec)
	if strings.HasPrefix(s, "-") && strings.Trim(s, "-0.") == "" {
		s = s[1:] // -0.00 after rounding
	}
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// csvNum formats v for a CSV file: shortest round-trip representation,
// "Inf", "-Inf" or "NaN".
func csvNum(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// parsePaper parses a number copied from the paper; "inf" is +Inf.
func parsePaper(s string) float64 {
	if s == "inf" {
		return math.Inf(1)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(fmt.Sprintf("experiments: bad paper number %q", s))
	}
	return v
}

// paperText returns a number copied from the paper as printed: "∞" for
// "inf", the text otherwise.
func paperText(s string) string {
	if s == "inf" {
		return "∞"
	}
	return s
}

// bold wraps s in markdown bold markers.
func bold(s string) string { return "**" + s + "**" }

// table is a markdown table under construction.
type table struct {
	head  []string
	align []byte // 'l' or 'r' per column
	rows  [][]string
}

func newTable(head ...string) *table {
	t := &table{head: head, align: make([]byte, len(head))}
	for i := range t.align {
		t.align[i] = 'r'
	}
	t.align[0] = 'l'
	return t
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// String renders the table in GitHub markdown.
func (t *table) String() string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(t.head, " | ") + " |\n|")
	for _, a := range t.align {
		if a == 'l' {
			b.WriteString("---|")
		} else {
			b.WriteString("---:|")
		}
	}
	b.WriteByte('\n')
	for _, r := range t.rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	return b.String()
}

// meanSD returns the mean and the sample standard deviation of xs (sd 0
// for a single value).
func meanSD(xs []float64) (mean, sd float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}

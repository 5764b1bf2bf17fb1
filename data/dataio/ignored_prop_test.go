package dataio

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestIgnoredColumnsAnyContent is a property test of the rule that the
// columns a reader ignores are not checked: random content in extra
// columns — quotes inside unquoted cells, invalid UTF-8, NUL bytes, quotes, separators and line breaks
// (quoted), a byte order mark, text that looks like the header or like
// NaN; in JSON Lines also unpaired surrogate escapes, nested objects and
// arrays, null, huge numbers — gives the data set of the file without
// them, in CSV, TSV and JSON Lines.
func TestIgnoredColumnsAnyContent(t *testing.T) {
	for seed := range uint64(80) {
		r := rand.New(rand.NewPCG(seed, 7))
		n := 1 + r.IntN(400)
		rows := make([][3]string, n)
		for i := range rows {
			rows[i] = [3]string{fmt.Sprintf("t%d", r.IntN(50)), fmt.Sprintf("w%d", r.IntN(9)), fmt.Sprintf("c%d", r.IntN(3))}
		}
		rows[0][2], rows[n-1][2] = "c0", "c1" // two classes at least
		extra := 1 + r.IntN(3)
		for _, sep := range []string{",", "\t"} {
			var plain, with bytes.Buffer
			plain.WriteString(strings.Join([]string{"task", "worker", "label"}, sep) + "\n")
			head := []string{"task", "worker", "label"}
			for k := range extra {
				head = append(head, fmt.Sprintf("x%d", k))
			}
			order := r.Perm(len(head))
			cells := make([]string, len(head))
			for i, at := range order {
				cells[i] = head[at]
			}
			with.WriteString(strings.Join(cells, sep) + "\n")
			for _, row := range rows {
				plain.WriteString(strings.Join(row[:], sep) + "\n")
				for i, at := range order {
					if at < 3 {
						cells[i] = row[at]
					} else {
						cells[i] = quoteCSV(randomText(r))
						if r.IntN(4) == 0 {
							cells[i] = strayQuotes(r)
						}
					}
				}
				with.WriteString(strings.Join(cells, sep) + "\n")
			}
			name := map[string]string{",": "in.csv", "\t": "in.tsv"}[sep]
			sameRead(t, seed, name, plain.Bytes(), with.Bytes())
		}
		var plain, with bytes.Buffer
		for _, row := range rows {
			fmt.Fprintf(&plain, `{"task":%q,"worker":%q,"label":%q}`+"\n", row[0], row[1], row[2])
			fields := []string{fmt.Sprintf(`"task":%q`, row[0]), fmt.Sprintf(`"worker":%q`, row[1]), fmt.Sprintf(`"label":%q`, row[2])}
			for k := range extra {
				fields = append(fields, fmt.Sprintf(`"x%d":%s`, k, randomJSON(r, 2)))
			}
			r.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
			with.WriteString("{" + strings.Join(fields, ",") + "}\n")
		}
		sameRead(t, seed, "in.jsonl", plain.Bytes(), with.Bytes())
	}
}

// sameRead reads plain and with as name and wants the same data set.
func sameRead(t *testing.T, seed uint64, name string, plain, with []byte) {
	t.Helper()
	want, err := ReadLabelsAs(ctx, bytes.NewReader(plain), name, "", ReadSettings{})
	if err != nil {
		t.Fatalf("seed %d: %s without extra columns: %v", seed, name, err)
	}
	got, err := ReadLabelsAs(ctx, bytes.NewReader(with), name, "", ReadSettings{})
	if err != nil {
		t.Errorf("seed %d: %s with extra columns: %v", seed, name, err)
		return
	}
	if !slices.Equal(got.Tasks, want.Tasks) || !slices.Equal(got.Workers, want.Workers) ||
		!slices.Equal(got.Classes, want.Classes) || !slices.Equal(got.Label, want.Label) || !slices.Equal(got.Worker, want.Worker) {
		t.Errorf("seed %d: %s: the extra columns changed the data set", seed, name)
	}
}

// randomText returns a random cell of hostile content.
func randomText(r *rand.Rand) string {
	parts := []string{"", "a", "\xff", "\xc3", "\x00", `"`, ",", "\t", "\n", "\r\n", " ", "\ufeff", "task",
		"NaN", "-Infinity", `\ud83d`, "é", "😀", "null", "label"}
	var b strings.Builder
	for range r.IntN(6) {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	return b.String()
}

// quoteCSV quotes s as one CSV or TSV cell.
func quoteCSV(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// randomJSON returns a random JSON value of hostile content, nested up to
// depth levels.
func randomJSON(r *rand.Rand, depth int) string {
	strs := []string{`"cut \ud83d"`, `"\udc00"`, `"\ud800\ud800"`, "\"\xff\xfe\"", `"\u0000"`, `"a\"b"`, `""`, `"task"`, `"NaN"`}
	switch k := r.IntN(8); {
	case k < 3:
		return strs[r.IntN(len(strs))]
	case k == 3:
		return []string{"null", "true", "1e999", "-0", "12345678901234567890"}[r.IntN(5)]
	case k == 4 && depth > 0:
		return "[" + randomJSON(r, depth-1) + "," + randomJSON(r, depth-1) + "]"
	case k == 5 && depth > 0:
		return `{"task":` + randomJSON(r, depth-1) + `,"\ud800":` + randomJSON(r, depth-1) + "}"
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`, "\x00", `\u0000`).Replace(randomText(r)) + `"`
}

// strayQuotes returns an unquoted cell with quotes inside it, such as
// 5" screen, which the rule of quotes reads as it is.
func strayQuotes(r *rand.Rand) string {
	parts := []string{"5", "\"", " screen", "\"\"", "x", "\xff", "\u00e9"}
	b := []byte{'a' + byte(r.IntN(26))}
	for range 1 + r.IntN(5) {
		b = append(b, parts[r.IntN(len(parts))]...)
	}
	return string(b)
}

package dataio

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// row is one (task, worker, label) row of a logical input; a nil label
// pointer is a missing value (an empty CSV cell, JSON null, Parquet null).
type row struct{ task, worker, label string }

// encodings renders rows in every text format: CSV, TSV and JSON Lines,
// each also gzip-compressed. JSON strings are written with json escapes
// kept as given in jsonLabel when that is set.
func encodings(rows []row, jsonRaw []string) map[string][]byte {
	var csvb, tsvb, jl bytes.Buffer
	csvb.WriteString("task,worker,label\n")
	tsvb.WriteString("task\tworker\tlabel\n")
	for i, r := range rows {
		fmt.Fprintf(&csvb, "%s,%s,%s\n", r.task, r.worker, r.label)
		fmt.Fprintf(&tsvb, "%s\t%s\t%s\n", r.task, r.worker, r.label)
		if jsonRaw != nil && jsonRaw[i] != "" {
			jl.WriteString(jsonRaw[i] + "\n")
			continue
		}
		fmt.Fprintf(&jl, "{\"task\":%q,\"worker\":%q,\"label\":%q}\n", r.task, r.worker, r.label)
	}
	plain := map[string][]byte{"in.csv": csvb.Bytes(), "in.tsv": tsvb.Bytes(), "in.jsonl": jl.Bytes()}
	out := map[string][]byte{}
	for name, b := range plain {
		out[name] = b
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(b)
		zw.Close()
		out[name+".gz"] = z.Bytes()
	}
	return out
}

// parquetOf writes rows of any struct type as a Parquet file.
func parquetOf[T any](t *testing.T, rows []T) []byte {
	t.Helper()
	var b bytes.Buffer
	w := parquet.NewGenericWriter[T](&b)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

type pqString struct {
	Task   string `parquet:"task"`
	Worker string `parquet:"worker"`
	Label  string `parquet:"label"`
}

type pqFloat struct {
	Task   string  `parquet:"task"`
	Worker string  `parquet:"worker"`
	Label  float64 `parquet:"label"`
}

type pqDecimal struct {
	Task   string `parquet:"task"`
	Worker string `parquet:"worker"`
	Label  int32  `parquet:"label,decimal(2:9)"`
}

type pqUint struct {
	Task   string `parquet:"task"`
	Worker uint64 `parquet:"worker"`
	Label  string `parquet:"label"`
}

// TestOneRuleForEveryFormat reads the same logical input in every format
// (CSV, TSV, JSON Lines, Parquet, gzip-compressed or not) and checks that
// all accept it with the same classes, or all refuse it with a message
// naming the problem: unpaired surrogates and invalid UTF-8, NaN and
// infinite labels, empty cells, a repeated header row inside the file,
// and Parquet decimals rendered as written.
func TestOneRuleForEveryFormat(t *testing.T) {
	nan, inf := parquetNaN(), parquetInf()
	for _, tc := range []struct {
		name    string
		rows    []row
		jsonRaw []string // JSON Lines lines written as they are, where set
		parquet []byte
		classes string // the classes on success; "" for a refusal
		workers string // the workers on success, if set
		want    string // a part of the message of a refusal
	}{
		{name: "plain", rows: []row{{"t1", "w1", "a"}, {"t1", "w2", "b"}},
			parquet: parquetOf(t, []pqString{{"t1", "w1", "a"}, {"t1", "w2", "b"}}), classes: "a,b"},
		{name: "unpaired surrogates", rows: []row{{"t1", "\xed\xa0\x80", "a"}, {"t1", "\xed\xaf\xbf", "b"}},
			jsonRaw: []string{`{"task":"t1","worker":"\ud800","label":"a"}`, `{"task":"t1","worker":"\udbff","label":"b"}`},
			parquet: parquetOf(t, []pqString{{"t1", "\xed\xa0\x80", "a"}, {"t1", "\xed\xaf\xbf", "b"}}), want: "invalid"},
		{name: "low surrogate alone", rows: []row{{"t1", "\xed\xb0\x80", "a"}, {"t1", "w", "b"}},
			jsonRaw: []string{`{"task":"t1","worker":"x\udc00","label":"a"}`, ""},
			parquet: parquetOf(t, []pqString{{"t1", "\xed\xb0\x80", "a"}, {"t1", "w", "b"}}), want: "invalid"},
		{name: "NaN label", rows: []row{{"t1", "w1", "NaN"}, {"t1", "w2", "1"}},
			parquet: parquetOf(t, []pqFloat{{"t1", "w1", nan}, {"t1", "w2", 1}}), want: "NaN or infinite"},
		{name: "infinite label", rows: []row{{"t1", "w1", "+Inf"}, {"t1", "w2", "1"}},
			parquet: parquetOf(t, []pqFloat{{"t1", "w1", inf}, {"t1", "w2", 1}}), want: "NaN or infinite"},
		{name: "decimal labels", rows: []row{{"t1", "w1", "1.50"}, {"t1", "w2", "2.50"}},
			parquet: parquetOf(t, []pqDecimal{{"t1", "w1", 150}, {"t1", "w2", 250}}), classes: "1.50,2.50"},
		{name: "unsigned worker ids", rows: []row{{"t1", "18446744073709551615", "a"}, {"t1", "1", "b"}},
			parquet: parquetOf(t, []pqUint{{"t1", 1<<64 - 1, "a"}, {"t1", 1, "b"}}), classes: "a,b", workers: "18446744073709551615,1"},
		{name: "empty label", rows: []row{{"t1", "w1", ""}, {"t1", "w2", "b"}},
			parquet: parquetOf(t, []pqString{{"t1", "w1", ""}, {"t1", "w2", "b"}}), want: "empty label"},
		{name: "repeated header", rows: []row{{"t1", "w1", "a"}, {"task", "worker", "label"}, {"t1", "w2", "b"}},
			parquet: parquetOf(t, []pqString{{"t1", "w1", "a"}, {"task", "worker", "label"}, {"t1", "w2", "b"}}), want: "repeats the header"},
		{name: "repeated header, other case", rows: []row{{"t1", "w1", "a"}, {"Task", "WORKER", "Label"}, {"t1", "w2", "b"}},
			parquet: parquetOf(t, []pqString{{"t1", "w1", "a"}, {"Task", "WORKER", "Label"}, {"t1", "w2", "b"}}), want: "repeats the header"},
		{name: "repeated header, other order", rows: []row{{"t1", "w1", "a"}, {"worker", "task", "label"}, {"t1", "w2", "b"}},
			parquet: parquetOf(t, []pqString{{"t1", "w1", "a"}, {"worker", "task", "label"}, {"t1", "w2", "b"}}), want: "repeats the header"},
		{name: "repeated header, other order and case", rows: []row{{"t1", "w1", "a"}, {"LABEL", "Task", "worker"}, {"t1", "w2", "b"}},
			parquet: parquetOf(t, []pqString{{"t1", "w1", "a"}, {"LABEL", "Task", "worker"}, {"t1", "w2", "b"}}), want: "repeats the header"},
		{name: "column names as values, one twice", rows: []row{{"task", "task", "label"}, {"t1", "w2", "b"}},
			parquet: parquetOf(t, []pqString{{"task", "task", "label"}, {"t1", "w2", "b"}}), classes: "b,label"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := encodings(tc.rows, tc.jsonRaw)
			files["in.parquet"] = tc.parquet
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			zw.Write(tc.parquet)
			zw.Close()
			files["in.parquet.gz"] = z.Bytes()
			for name, b := range files {
				d, err := ReadLabelsAs(ctx, bytes.NewReader(b), name, "", ReadSettings{})
				if tc.classes != "" {
					if err != nil {
						t.Errorf("%s: %v", name, err)
					} else if got := strings.Join(d.Classes, ","); got != tc.classes {
						t.Errorf("%s: classes %s, want %s", name, got, tc.classes)
					} else if got := strings.Join(d.Workers, ","); tc.workers != "" && got != tc.workers {
						t.Errorf("%s: workers %s, want %s", name, got, tc.workers)
					}
					continue
				}
				if err == nil {
					t.Errorf("%s: accepted (classes %v), want a refusal", name, d.Classes)
					continue
				}
				if msg := err.Error(); !strings.Contains(msg, tc.want) || !strings.HasPrefix(msg, name) || strings.Contains(msg, "\n") {
					t.Errorf("%s: message %q does not name the file and %q on one line", name, msg, tc.want)
				}
			}
		})
	}
}

// TestRepeatedHeaderLine checks that a repeated header is refused naming
// its line, in gold files too.
func TestRepeatedHeaderLine(t *testing.T) {
	for _, head := range []string{"task,worker,label", "\ufefftask,worker,label", "TASK , Worker,label"} {
		in := "task,worker,label\n1,a,x\n2,b,y\n\n" + head + "\n3,a,x\n"
		_, err := ReadLabels(ctx, strings.NewReader(in), "joined.csv", ReadSettings{})
		if err == nil || !strings.HasPrefix(err.Error(), "joined.csv:5: the row repeats the header") {
			t.Errorf("labels with %q: %v", head, err)
		}
	}
	d, err := ReadLabels(ctx, strings.NewReader("task,worker,label\n1,a,x\n2,b,y\n"), "l.csv", ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadGold(ctx, strings.NewReader("task,label\n1,x\ntask,label\n2,y\n"), "gold.csv", d, ReadSettings{})
	if err == nil || !strings.HasPrefix(err.Error(), "gold.csv:3: the row repeats the header") {
		t.Errorf("gold: %v", err)
	}
}

// TestBadSurrogate checks the scanner of JSON escapes.
func TestBadSurrogate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{`"a"`, 0}, {`"\ud83d\ude00"`, 0}, {`"\u00e9"`, 0}, {`"\\ud800"`, 0},
		{`"\ud800"`, 2}, {`"\udbff"`, 2}, {`"x\udc00"`, 3}, {`"\ud800\u0041"`, 2},
		{`"\ud800\ud800"`, 2}, {`"\\\ud800"`, 4}, {`"\ud800`, 2},
	} {
		if got := badSurrogate([]byte(tc.in)); got != tc.want {
			t.Errorf("badSurrogate(%s) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func parquetNaN() float64 { z := 0.0; return z / z }
func parquetInf() float64 { z := 0.0; return 1 / z }

type pqNote struct {
	Task   string `parquet:"task"`
	Worker string `parquet:"worker"`
	Label  string `parquet:"label"`
	Note   string `parquet:"note"`
}

// TestInvalidUTF8Columns checks that invalid UTF-8 is refused in a wanted
// column and accepted in a column the reader ignores, in every format.
func TestInvalidUTF8Columns(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows []pqNote
		ok   bool
	}{
		{"in an ignored column", []pqNote{{"1", "a", "x", "caf\xe9"}, {"1", "b", "y", "ok"}}, true},
		{"in the worker column", []pqNote{{"1", "caf\xe9", "x", "n"}, {"1", "b", "y", "ok"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var csvb, jl bytes.Buffer
			csvb.WriteString("task,worker,label,note\n")
			for _, r := range tc.rows {
				fmt.Fprintf(&csvb, "%s,%s,%s,%s\n", r.Task, r.Worker, r.Label, r.Note)
				fmt.Fprintf(&jl, "{\"task\":\"%s\",\"worker\":\"%s\",\"label\":\"%s\",\"note\":\"%s\"}\n", r.Task, r.Worker, r.Label, r.Note)
			}
			files := map[string][]byte{"n.csv": csvb.Bytes(), "n.jsonl": jl.Bytes(), "n.parquet": parquetOf(t, tc.rows)}
			for name, b := range files {
				_, err := ReadLabelsAs(ctx, bytes.NewReader(b), name, "", ReadSettings{})
				if (err == nil) != tc.ok {
					t.Errorf("%s: error %v, want accepted %v", name, err, tc.ok)
				}
				if err != nil && !strings.Contains(err.Error(), "UTF-8") {
					t.Errorf("%s: message %q does not say UTF-8", name, err)
				}
			}
		})
	}
}

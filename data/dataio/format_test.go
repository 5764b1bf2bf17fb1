package dataio

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

func TestFormatOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		want Format
	}{
		{"a.csv", CSV}, {"a.CSV.gz", CSV}, {"-", CSV}, {"a.txt", CSV}, {"", CSV},
		{"a.tsv", TSV}, {"dir.x/a.tab.gz", TSV},
		{"a.jsonl", JSONL}, {"a.ndjson", JSONL}, {"a.JSONL.GZ", JSONL},
		{"a.parquet", Parquet}, {"a.pq", Parquet}, {"a.parquet.gz", Parquet},
	} {
		if got := FormatOf(tc.name); got != tc.want {
			t.Errorf("FormatOf(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		in   string
		want Format
		ok   bool
	}{
		{"", "", true}, {"CSV", CSV, true}, {"tab", TSV, true}, {"ndjson", JSONL, true},
		{" parquet ", Parquet, true}, {"xlsx", "", false},
	} {
		got, err := ParseFormat(tc.in)
		if got != tc.want || (err == nil) != tc.ok {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// labelRows are tricky identifiers: separators, quotes, unicode, numbers.
var labelRows = [][3]string{
	{"t,1", `w"1`, "10"},
	{"t,1", "w2", "2"},
	{"τ 2", "w1", "2"},
	{"τ 2", "w{3}", "10"},
	{"3", "w2", "1.5"},
	{"3", "w2", "2"},
}

// encode writes rows with the header task,worker,label in format f.
func encode(t *testing.T, f Format, rows [][3]string) []byte {
	t.Helper()
	var b bytes.Buffer
	switch f {
	case CSV, TSV:
		sep := ","
		if f == TSV {
			sep = "\t"
		}
		q := func(s string) string {
			if strings.ContainsAny(s, `,"`+"\t") {
				return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
			}
			return s
		}
		b.WriteString("task" + sep + "worker" + sep + "label\n")
		for _, r := range rows {
			b.WriteString(q(r[0]) + sep + q(r[1]) + sep + q(r[2]) + "\n")
		}
	case JSONL:
		for _, r := range rows {
			b.WriteString(`{"task":` + jsonQuote(r[0]) + `,"worker":` + jsonQuote(r[1]) + `,"label":` + jsonQuote(r[2]) + "}\n")
		}
	case Parquet:
		type row struct {
			Task   string `parquet:"task"`
			Worker string `parquet:"worker"`
			Label  string `parquet:"label,dict"`
		}
		w := parquet.NewGenericWriter[row](&b, parquet.MaxRowsPerRowGroup(4))
		for _, r := range rows {
			if _, err := w.Write([]row{{r[0], r[1], r[2]}}); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func jsonQuote(s string) string {
	return `"` + strings.NewReplacer(`"`, `\"`, `\`, `\\`).Replace(s) + `"`
}

func gz(t *testing.T, p []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(p)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestFormatsAgree reads the same labels in every format, plain and
// gzip-compressed, from memory and from a file, and expects equal data sets.
func TestFormatsAgree(t *testing.T) {
	want, err := ReadLabels(ctx, bytes.NewReader(encode(t, CSV, labelRows)), "labels.csv", ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want.Classes, []string{"1.5", "2", "10"}) {
		t.Fatalf("classes %q", want.Classes)
	}
	dir := t.TempDir()
	for _, f := range Formats() {
		for _, z := range []bool{false, true} {
			raw := encode(t, f, labelRows)
			name := "labels." + string(f)
			if z {
				raw, name = gz(t, raw), name+".gz"
			}
			got, err := ReadLabelsAs(ctx, bytes.NewReader(raw), name, "", ReadSettings{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: got %+v, want %+v", name, got, want)
			}
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err = LoadLabels(ctx, path, "", ReadSettings{})
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			got.Name = want.Name
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s from a file: got %+v, want %+v", name, got, want)
			}
			gold := [][3]string{{"3", "", "2"}, {"t,1", "", "10"}, {"nope", "", "2"}}
			if f == CSV || f == TSV {
				continue // the delimited gold readers are tested in read_test.go
			}
			g, err := ReadGoldAs(ctx, bytes.NewReader(encodeGold(t, f, gold)), "gold."+string(f), "", got, ReadSettings{})
			if err != nil {
				t.Fatalf("gold %s: %v", f, err)
			}
			if !reflect.DeepEqual(g.Task, []int32{2, 0}) || !reflect.DeepEqual(g.Label, []uint16{1, 2}) || g.Unmatched != 1 {
				t.Errorf("gold %s: %+v", f, g)
			}
		}
	}
}

// encodeGold writes task,label rows (the worker is left out).
func encodeGold(t *testing.T, f Format, rows [][3]string) []byte {
	t.Helper()
	var b bytes.Buffer
	switch f {
	case JSONL:
		for _, r := range rows {
			b.WriteString(`{"task":` + jsonQuote(r[0]) + `,"label":` + jsonQuote(r[2]) + "}\n")
		}
	case Parquet:
		type row struct {
			Task  string `parquet:"task"`
			Label string `parquet:"label"`
		}
		w := parquet.NewGenericWriter[row](&b)
		for _, r := range rows {
			w.Write([]row{{r[0], r[2]}})
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func TestJSONLValues(t *testing.T) {
	// Numbers keep their literal text, booleans become words, other keys
	// and nested values are skipped, keys match ignoring case when no key
	// matches exactly, and blank lines are skipped.
	in := "\ufeff" + `{"task": 1, "worker": "a", "label": 1.0, "meta": {"x": [1, {"y": 2}]}}` + "\r\n" +
		"\n" +
		`{"Task": 9, "worker": 7, "label": 1, "task": 1}` + "\n" +
		`{"task": "2", "worker": "a", "label": true, "extra": null}` + "\n" +
		`{"task": 2, "worker": "b", "label": 1e0}`
	d, err := ReadLabelsAs(ctx, strings.NewReader(in), "v.jsonl", "", ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Tasks, []string{"1", "2"}) || !reflect.DeepEqual(d.Workers, []string{"a", "7", "b"}) {
		t.Errorf("tasks %q workers %q", d.Tasks, d.Workers)
	}
	if !reflect.DeepEqual(d.Classes, []string{"1", "1.0", "1e0", "true"}) {
		t.Errorf("classes %q", d.Classes)
	}
}

func TestParquetValueTypes(t *testing.T) {
	type row struct {
		Task   int64   `parquet:"task"`
		Worker int32   `parquet:"worker"`
		Label  float64 `parquet:"label"`
		Flag   bool    `parquet:"flag"`
		Score  float32 `parquet:"score"`
	}
	var b bytes.Buffer
	w := parquet.NewGenericWriter[row](&b)
	w.Write([]row{{1, 10, 0.5, true, 1.5}, {2, 11, 2, false, 0.1}, {2, 10, 0.5, true, 3}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := ReadLabelsAs(ctx, bytes.NewReader(b.Bytes()), "n.parquet", "", ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Tasks, []string{"1", "2"}) || !reflect.DeepEqual(d.Workers, []string{"10", "11"}) || !reflect.DeepEqual(d.Classes, []string{"0.5", "2"}) {
		t.Errorf("tasks %q workers %q classes %q", d.Tasks, d.Workers, d.Classes)
	}
	for _, col := range []string{"flag", "score"} {
		d, err = ReadLabelsAs(ctx, bytes.NewReader(b.Bytes()), "n.parquet", "", ReadSettings{LabelColumn: col})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %q", col, d.Classes)
	}
	if !reflect.DeepEqual(d.Classes, []string{"0.1", "1.5", "3"}) {
		t.Errorf("float32 classes %q", d.Classes)
	}
}

func TestFormatErrors(t *testing.T) {
	pq := func(rows ...[3]string) string { return string(encode(t, Parquet, rows)) }
	type optRow struct {
		Task   string  `parquet:"task"`
		Worker string  `parquet:"worker"`
		Label  *string `parquet:"label,optional"`
	}
	var nulls bytes.Buffer
	x := "x"
	w := parquet.NewGenericWriter[optRow](&nulls)
	w.Write([]optRow{{"1", "a", &x}, {"2", "b", &x}, {"3", "c", nil}})
	w.Close()
	type other struct {
		Item  string `parquet:"item"`
		Label string `parquet:"label"`
	}
	var noTask bytes.Buffer
	w2 := parquet.NewGenericWriter[other](&noTask)
	w2.Write([]other{{"1", "x"}})
	w2.Close()

	for _, tc := range []struct {
		name  string
		in    string
		opt   ReadSettings
		where string
		want  []string
	}{
		{"syntax.jsonl", `{"task":1,"worker":"a","label":"x"}` + "\n\n" + `{"task":2,"worker":"a","label":"x"` + "\n", ReadSettings{}, "syntax.jsonl:3: ", []string{"not closed"}},
		{"comma.jsonl", `{"task":1,,"worker":"a","label":"x"}`, ReadSettings{}, "comma.jsonl:1: ", []string{"invalid JSON at column"}},
		{"missing.jsonl", `{"task":1,"worker":"a","label":"x"}` + "\n" + `{"task":1,"labels":"x"}`, ReadSettings{}, "missing.jsonl:2: ", []string{"no 'worker' or 'label' key", "'task', 'labels'", "[columns key]"}},
		{"null.jsonl", `{"task":1,"worker":null,"label":"x"}`, ReadSettings{}, "null.jsonl:1: ", []string{"worker value", "null"}},
		{"nested.jsonl", `{"task":1,"worker":"a","label":["x"]}`, ReadSettings{}, "nested.jsonl:1: ", []string{"label value", "object or array"}},
		{"emptyval.jsonl", `{"task":" ","worker":"a","label":"x"}`, ReadSettings{}, "emptyval.jsonl:1: ", []string{"empty task value"}},
		{"twice.jsonl", `{"task":1,"worker":"a","label":"x","task":2}`, ReadSettings{}, "twice.jsonl:1: ", []string{"'task' appears twice"}},
		{"fold.jsonl", `{"Task":1,"worker":"a","label":"x","TASK":2}`, ReadSettings{}, "fold.jsonl:1: ", []string{"two keys match 'task' ignoring case"}},
		{"trailing.jsonl", `{"task":1,"worker":"a","label":"x"} {"task":2}`, ReadSettings{}, "trailing.jsonl:1: ", []string{"more than one JSON value"}},
		{"array.jsonl", `[{"task":1,"worker":"a","label":"x"}]`, ReadSettings{}, "array.jsonl:1: ", []string{"JSON array", "jq"}},
		{"scalar.jsonl", `{"task":1,"worker":"a","label":"x"}` + "\n42\n", ReadSettings{}, "scalar.jsonl:2: ", []string{"must be a JSON object"}},
		{"latin1.jsonl", "{\"task\":1,\"worker\":\"Jos\xe9\",\"label\":\"x\"}", ReadSettings{}, "latin1.jsonl:1: ", []string{"invalid UTF-8", "0xE9", "column 24"}},
		{"empty.jsonl", "\n\n", ReadSettings{}, "empty.jsonl: ", []string{"no records", `{"task":"task","worker":"worker","label":"label"}`}},
		{"outside.jsonl", `{"task":1,"worker":"a","label":"x"}` + "\n" + `{"task":1,"worker":"a","label":"q"}`, ReadSettings{Classes: []string{"x", "y"}}, "outside.jsonl:2: ", []string{`label "q"`, "[classes]"}},
		{"oneclass.jsonl", `{"task":1,"worker":"a","label":"x"}`, ReadSettings{}, "oneclass.jsonl: ", []string{"only one class"}},
		{"same.jsonl", `{}`, ReadSettings{WorkerColumn: "task"}, "same.jsonl: ", []string{"same name 'task'"}},
		{"badgz.jsonl", "\x1f\x8b\x08\x00garbage", ReadSettings{}, "badgz.jsonl: ", []string{"compressed"}},
		{"text.parquet", "task,worker,label\n1,a,x\n", ReadSettings{}, "text.parquet: ", []string{"not a Parquet file", "looks like text", "[format]"}},
		{"empty.parquet", "", ReadSettings{}, "empty.parquet: ", []string{"empty"}},
		{"trunc.parquet", pq([3]string{"1", "a", "x"}, [3]string{"1", "b", "y"})[:40], ReadSettings{}, "trunc.parquet: ", []string{"corrupt or truncated Parquet"}},
		{"cols.parquet", noTask.String(), ReadSettings{}, "cols.parquet: ", []string{"2 columns 'item', 'label'", "no 'task' or 'worker' column"}},
		{"null.parquet", nulls.String(), ReadSettings{}, "null.parquet:3: ", []string{"label cell", "null"}},
		{"empty2.parquet", pq([3]string{"1", "a", " "}), ReadSettings{}, "empty2.parquet:1: ", []string{"empty label cell"}},
		{"outside.parquet", pq([3]string{"1", "a", "x"}, [3]string{"1", "b", "x"}, [3]string{"2", "b", "z"}), ReadSettings{Classes: []string{"x", "y"}}, "outside.parquet:3: ", []string{`label "z"`}},
		{"norows.parquet", pq(), ReadSettings{}, "norows.parquet: ", []string{"no rows"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadLabelsAs(ctx, strings.NewReader(tc.in), tc.name, "", tc.opt)
			if err == nil {
				t.Fatal("no error")
			}
			if _, ok := err.(*InputError); !ok {
				t.Errorf("error %T, want *InputError", err)
			}
			checkInputError(t, err, tc.where, tc.want)
		})
	}
}

func TestGoldFormatErrors(t *testing.T) {
	d, err := ReadLabels(ctx, strings.NewReader("task,worker,label\n1,a,x\n2,a,y\n"), "l.csv", ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"g.jsonl", `{"task":1,"label":"x"}` + "\n" + `{"task":1,"label":"y"}`, "g.jsonl:2: task '1' has gold label 'y' here but 'x' on line 1"},
		{"o.jsonl", `{"task":1,"label":"z"}`, "o.jsonl:1: gold label 'z' of task '1' is not one of the classes"},
		{"n.jsonl", `{"task":7,"label":"x"}`, "n.jsonl: none of the 1 gold tasks"},
		{"w.jsonl", `{"task":7,"worker":"x"}`, "w.jsonl:1: the record has no 'label' key"},
		{"g.parquet", string(encodeGold(t, Parquet, [][3]string{{"1", "", "x"}, {"2", "", "y"}, {"1", "", "y"}})), "g.parquet:3: task '1' has gold label 'y' here but 'x' on row 1"},
	} {
		_, err := ReadGoldAs(ctx, strings.NewReader(tc.in), tc.name, "", d, ReadSettings{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want prefix %q", tc.name, err, tc.want)
		}
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := LoadLabels(ctx, filepath.Join(t.TempDir(), "none.parquet"), "", ReadSettings{})
	if err == nil || !strings.Contains(err.Error(), "cannot open") {
		t.Errorf("error %v", err)
	}
}

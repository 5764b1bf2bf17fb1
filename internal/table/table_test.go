package table

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// writeSample writes a table with one column of every kind, whose text
// needs quoting or escaping, and a number that is not finite.
func writeSample(t *testing.T, w io.Writer, f dataio.Format) {
	t.Helper()
	tw, err := NewWriter(w, f, []Column{{"id", String}, {"class", Dict}, {"p", Float}, {"n", Int}})
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		id, class string
		p         float64
		n         int64
	}{{`a,"b"`, "x\ty", 1.0 / 3, 7}, {"ü\n", "x\ty", math.Inf(1), -1}}
	for _, r := range rows {
		tw.String(r.id)
		tw.String(r.class)
		tw.Float(r.p)
		tw.Int(r.n)
		if err := tw.EndRow(); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestWriterFormats(t *testing.T) {
	for _, tc := range []struct {
		f    dataio.Format
		want string
	}{
		{dataio.CSV, "id,class,p,n\n\"a,\"\"b\"\"\",x\ty,0.3333333333333333,7\n\"ü\n\",x\ty,+Inf,-1\n"},
		{dataio.TSV, "id\tclass\tp\tn\n\"a,\"\"b\"\"\"\t\"x\ty\"\t0.3333333333333333\t7\n\"ü\n\"\t\"x\ty\"\t+Inf\t-1\n"},
		{dataio.JSONL, `{"id":"a,\"b\"","class":"x\ty","p":0.3333333333333333,"n":7}` + "\n" + `{"id":"ü\n","class":"x\ty","p":null,"n":-1}` + "\n"},
	} {
		var b bytes.Buffer
		writeSample(t, &b, tc.f)
		if b.String() != tc.want {
			t.Errorf("%s:\n%q\nwant\n%q", tc.f, b.String(), tc.want)
		}
	}
}

func TestWriterParquet(t *testing.T) {
	var b bytes.Buffer
	writeSample(t, &b, dataio.Parquet)
	pf, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range pf.Schema().Fields() {
		names = append(names, f.Name())
	}
	if strings.Join(names, " ") != "id class p n" {
		t.Errorf("columns %q, want the order of the Writer", names)
	}
	cc := pf.RowGroups()[0].ColumnChunks()
	if kinds := []parquet.Kind{cc[0].Type().Kind(), cc[2].Type().Kind(), cc[3].Type().Kind()}; kinds[0] != parquet.ByteArray || kinds[1] != parquet.Double || kinds[2] != parquet.Int64 {
		t.Errorf("column kinds %v, want byte array, double, int64", kinds)
	}
	dict := func(i int) bool {
		for _, e := range pf.Metadata().RowGroups[0].Columns[i].MetaData.Encoding {
			if e == format.RLEDictionary {
				return true
			}
		}
		return false
	}
	if dict(0) || !dict(1) {
		t.Errorf("dictionary encoding of the String column %v and of the Dict column %v; want false, true", dict(0), dict(1))
	}
	rows := make([]parquet.Row, 3)
	n, _ := pf.RowGroups()[0].Rows().ReadRows(rows)
	if n != 2 || rows[0][0].String() != `a,"b"` || rows[1][2].Double() != math.Inf(1) || rows[1][3].Int64() != -1 {
		t.Errorf("rows %v", rows[:n])
	}
}

func TestWriterErrors(t *testing.T) {
	if _, err := NewWriter(io.Discard, "xlsx", nil); err == nil || !strings.Contains(err.Error(), `unknown output format "xlsx"`) {
		t.Errorf("unknown format: %v", err)
	}
	if _, err := NewWriter(io.Discard, dataio.CSV, []Column{{"a", String}, {"a", Float}}); err == nil || !strings.Contains(err.Error(), `two columns are called "a"`) {
		t.Errorf("duplicate column: %v", err)
	}
	for _, f := range dataio.Formats() {
		tw, err := NewWriter(io.Discard, f, []Column{{"a", String}, {"b", Float}})
		if err != nil {
			t.Fatal(err)
		}
		tw.String("x")
		if err := tw.EndRow(); err == nil || !strings.Contains(err.Error(), "a row of 1 cells in a table of 2 columns") {
			t.Errorf("%s: short row: %v", f, err)
		}
		tw.String("x")
		if err := tw.FloatText("ten"); f != dataio.CSV && f != dataio.TSV && (err == nil || !strings.Contains(err.Error(), "column b")) {
			t.Errorf("%s: FloatText of text: %v", f, err)
		}
	}
}

func TestEncoder(t *testing.T) {
	write := func(w io.Writer, f dataio.Format) error { _, err := io.WriteString(w, string(f)); return err }
	for _, tc := range []struct {
		path string
		f    dataio.Format
		want string
		gz   bool
	}{
		{"a.csv", "", "csv", false},
		{"a.TSV.gz", "", "tsv", true},
		{"a.jsonl", dataio.Parquet, "parquet", false},
		{"-", "", "csv", false},
	} {
		var b bytes.Buffer
		if err := Encoder(tc.path, tc.f, write)(&b); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		if tc.gz {
			zr, err := gzip.NewReader(&b)
			if err != nil {
				t.Fatalf("%s: %v", tc.path, err)
			}
			raw, _ := io.ReadAll(zr)
			got = string(raw)
		}
		if got != tc.want {
			t.Errorf("%s: wrote %q, want %q", tc.path, got, tc.want)
		}
	}
}

// TestWriterNumbersCSV writes rows of many numbers of every length, so
// that the text of a row's numbers outgrows its buffer within the row and
// the buffer is reused from row to row, and checks every cell against
// FormatFloat and strconv.FormatInt, in CSV and TSV.
func TestWriterNumbersCSV(t *testing.T) {
	vals := []float64{0, 1, -0.5, 1.0 / 3, math.Pi * 1e300, 5e-324, math.Inf(-1), math.NaN(), 0.1 + 0.2, 123456789}
	cols := []Column{{"id", String}}
	for i := range 40 {
		cols = append(cols, Column{fmt.Sprintf("c%d", i), Float}, Column{fmt.Sprintf("n%d", i), Int})
	}
	for _, f := range []dataio.Format{dataio.CSV, dataio.TSV} {
		var b bytes.Buffer
		tw, err := NewWriter(&b, f, cols)
		if err != nil {
			t.Fatal(err)
		}
		var want [][]string
		for r := range 50 {
			row := []string{fmt.Sprintf("row %d", r)}
			tw.String(row[0])
			for i := range 40 {
				v, n := vals[(r+i)%len(vals)]*float64(r+1), int64(r-i)*987654321
				tw.Float(v)
				tw.Int(n)
				row = append(row, FormatFloat(v), strconv.FormatInt(n, 10))
			}
			if err := tw.EndRow(); err != nil {
				t.Fatal(err)
			}
			want = append(want, row)
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		cr := csv.NewReader(&b)
		if f == dataio.TSV {
			cr.Comma = '\t'
		}
		got, err := cr.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want)+1 {
			t.Fatalf("%s: %d records, want %d", f, len(got), len(want)+1)
		}
		for r, row := range want {
			if !slices.Equal(got[r+1], row) {
				t.Errorf("%s row %d:\n%q\nwant\n%q", f, r, got[r+1], row)
			}
		}
	}
}

// FuzzWriterCSV checks that the Writer writes the bytes encoding/csv's
// Writer writes, with either separator, for rows of two text cells and a
// number: the quoting of cells (empty, `\.`, line ends, quotes,
// separators, a leading Unicode space, invalid UTF-8) included.
func FuzzWriterCSV(f *testing.F) {
	for _, s := range []string{"", "a", `\.`, `\.x`, " a", "\ta", "\u00a0a", "\u2003x", "\u0085", "a,b", "a\tb",
		`a"b`, `"`, "a\nb", "a\r\nb", "\r", "\xff", "\xc2", "x ", "é", "t1"} {
		f.Add(s, "w", 0.5, false)
		f.Add("t", s, -1e-300, true)
	}
	f.Fuzz(func(t *testing.T, a, b string, v float64, tsv bool) {
		format, comma := dataio.CSV, ','
		if tsv {
			format, comma = dataio.TSV, '\t'
		}
		var got, want bytes.Buffer
		tw, err := NewWriter(&got, format, []Column{{a + "h", String}, {"x" + b, Dict}, {"v", Float}})
		if err != nil {
			t.Skip() // two equal column names
		}
		for range 2 {
			tw.String(a)
			tw.String(b)
			tw.Float(v)
			if err := tw.EndRow(); err != nil {
				t.Fatal(err)
			}
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		cw := csv.NewWriter(&want)
		cw.Comma = comma
		rows := [][]string{{a + "h", "x" + b, "v"}, {a, b, FormatFloat(v)}, {a, b, FormatFloat(v)}}
		if err := cw.WriteAll(rows); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("cells %q, %q, %v: wrote\n%q\nencoding/csv writes\n%q", a, b, v, got.Bytes(), want.Bytes())
		}
	})
}

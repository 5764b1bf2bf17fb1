package output

import (
	"bytes"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/parquet-go/parquet-go"
)

// TestWriteTable writes a table with a text column that looks like a
// number and a numeric column with NaN, and reads it back: CSV as text,
// JSON Lines with numbers and null, Parquet with a string and a double
// column.
func TestWriteTable(t *testing.T) {
	tab := &Table{
		Columns: []string{"task", "x"},
		Numeric: []bool{false, true},
		Rows:    [][]string{{"0001", FormatProb(0.25)}, {"b", FormatProb(math.NaN())}},
	}
	var b bytes.Buffer
	if err := WriteTable(&b, tab, dataio.CSV); err != nil {
		t.Fatal(err)
	}
	if want := "task,x\n0001,0.25\nb,NaN\n"; b.String() != want {
		t.Errorf("CSV %q, want %q", b.String(), want)
	}
	b.Reset()
	if err := WriteTable(&b, tab, dataio.JSONL); err != nil {
		t.Fatal(err)
	}
	if want := "{\"task\":\"0001\",\"x\":0.25}\n{\"task\":\"b\",\"x\":null}\n"; b.String() != want {
		t.Errorf("JSON Lines %q, want %q", b.String(), want)
	}
	b.Reset()
	if err := WriteTable(&b, tab, dataio.Parquet); err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	f := pf.Schema().Fields()
	if len(f) != 2 || f[0].Type().Kind() != parquet.ByteArray || f[1].Type().Kind() != parquet.Double {
		t.Fatalf("Parquet schema %v", pf.Schema())
	}
	rows := make([]parquet.Row, 2)
	rr := pf.RowGroups()[0].Rows()
	defer rr.Close()
	n, err := rr.ReadRows(rows)
	if n != 2 || (err != nil && err != io.EOF) {
		t.Fatalf("read %d rows: %v", n, err)
	}
	if rows[0][0].String() != "0001" || rows[0][1].Double() != 0.25 || !math.IsNaN(rows[1][1].Double()) {
		t.Errorf("Parquet rows %v", rows)
	}
	if err := WriteTable(&b, &Table{Columns: []string{"x"}, Numeric: []bool{true}, Rows: [][]string{{"abc"}}}, dataio.JSONL); err == nil || !strings.Contains(err.Error(), "column x") {
		t.Errorf("a non-number in a numeric column: %v", err)
	}
}

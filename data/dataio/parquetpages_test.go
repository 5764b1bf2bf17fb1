package dataio

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/internal/ingest"
	"github.com/parquet-go/parquet-go"
)

// parquetPagesSeeds are rows for the differential tests of readParquetPages,
// one a line, cells separated by commas; "~" is a null cell.
var parquetPagesSeeds = []string{
	"t1,w1,x\nt1,w2,y\nt2,w1,x\nt3,w3,y\nt2,w2,x",
	"t1, w1 ,x\nt1,w2,y\n t2,w1,\u00a0x\nt3,w3,z",
	"t1,w1,x\nt1,,y\nt2,w1,x",
	"t1,w1,x\nt1,w2,~\nt2,w1,x",
	"t1,w1,x\nt1,w\xff,y\nt2,w1,x",
	"t1,w1,1\nt1,w2,2\nt2,w1,10\nt2,w3,3\nt3,w1,4\nt3,w2,5\nt4,w3,6\nt4,w1,7\nt5,w2,8\nt5,w3,9\nt6,w1,11",
	"a,b,c",
	"t1,w1,x\nt2,w2,nan\nt3,w1,y",
	"t1,w1,x\ntask,worker,label\nt3,w1,y",
	"t1,w1,x\nTASK,w2,y\nt3,w1,y",
}

// FuzzParquetPages checks that ReadLabelsAs (the page path) gives the same
// Dataset or the same error as the value-by-value reference (valueReader), for Parquet files with
// dictionary-encoded and plain columns, optional columns, small pages and
// row groups, and with and without --classes.
func FuzzParquetPages(f *testing.F) {
	for _, s := range parquetPagesSeeds {
		f.Add(s, uint8(0))
		f.Add(s, uint8(0xff))
	}
	f.Fuzz(func(t *testing.T, rows string, mode uint8) {
		compareParquetPaths(t, rows, mode)
	})
}

// TestParquetPagesSeeds runs the checks of FuzzParquetPages on its seeds in
// every mode.
func TestParquetPagesSeeds(t *testing.T) {
	for _, s := range parquetPagesSeeds {
		for mode := range 64 {
			compareParquetPaths(t, s, uint8(mode*4+mode%4))
		}
	}
}

// compareParquetPaths writes rows as Parquet as mode says (bits 0-2:
// which columns are dictionary-encoded; bit 3: optional columns; bits 4-5:
// rows per row group; bit 6: small pages; bit 7: --classes) and reads it
// page by page and value by value.
func compareParquetPaths(t *testing.T, rows string, mode uint8) {
	t.Helper()
	var buf bytes.Buffer
	if !writeTestParquet(&buf, rows, mode) {
		return
	}
	opt := ReadSettings{}
	if mode&0x80 != 0 {
		opt.Classes = []string{"x", "y", "1", "2"}
	}
	d1, e1 := readValueByValue(buf.Bytes(), "p.parquet", opt)
	d2, e2 := readPages(buf.Bytes(), "p.parquet", opt)
	if e1 != e2 {
		t.Fatalf("%q mode %#x: error %q, want %q", rows, mode, e2, e1)
	}
	if !reflect.DeepEqual(d1, d2) {
		t.Fatalf("%q mode %#x: read %+v, want %+v", rows, mode, d2, d1)
	}
}

// writeTestParquet writes the rows of compareParquetPaths to buf and
// reports whether they fit the schema.
func writeTestParquet(buf *bytes.Buffer, rows string, mode uint8) bool {
	var fields []parquet.Field
	g := parquet.Group{}
	for i, name := range []string{"task", "worker", "label"} {
		var n parquet.Node = parquet.String()
		if mode&(1<<i) != 0 {
			n = parquet.Encoded(n, &parquet.RLEDictionary)
		}
		if mode&8 != 0 {
			n = parquet.Optional(n)
		}
		g[name] = n
	}
	_ = fields
	opts := []parquet.WriterOption{parquet.NewSchema("t", g), parquet.MaxRowsPerRowGroup(int64([]int{1 << 20, 1, 2, 3}[mode>>4&3]))}
	if mode&0x40 != 0 {
		opts = append(opts, parquet.PageBufferSize(8))
	}
	w := parquet.NewWriter(buf, opts...)
	for _, line := range strings.Split(rows, "\n") {
		cells := strings.Split(line, ",")
		if len(cells) != 3 {
			return false
		}
		// The columns of a Group are sorted by name: label, task, worker.
		row := make(parquet.Row, 0, 3)
		for i, at := range []int{2, 0, 1} {
			if cells[at] == "~" {
				if mode&8 == 0 {
					return false
				}
				row = append(row, parquet.NullValue().Level(0, 0, i))
				continue
			}
			v := parquet.ByteArrayValue([]byte(cells[at]))
			if mode&8 != 0 {
				v = v.Level(0, 1, i)
			} else {
				v = v.Level(0, 0, i)
			}
			row = append(row, v)
		}
		if _, err := w.WriteRows([]parquet.Row{row}); err != nil {
			return false
		}
	}
	return w.Close() == nil
}

// TestParquetPagesGuard checks that a memory limit stops the page path on
// the same row, with the same message, as the value-by-value reference.
func TestParquetPagesGuard(t *testing.T) {
	var rows []string
	for i := range 5000 {
		rows = append(rows, fmt.Sprintf("t%d,w%d,%d", i/3, i%97, i%2))
	}
	var buf bytes.Buffer
	if !writeTestParquet(&buf, strings.Join(rows, "\n"), 7) {
		t.Fatal("cannot write")
	}
	for _, limit := range []int64{20 << 10, 200 << 10, 1 << 30} {
		opt := ReadSettings{MaxMemory: limit}
		_, want := readValueByValue(buf.Bytes(), "p.parquet", opt)
		if _, got := readPages(buf.Bytes(), "p.parquet", opt); got != want {
			t.Errorf("limit %d: error %q, want %q", limit, got, want)
		}
	}
}

// TestParquetPagesGeneral checks that the page path reads pages of
// numbers and booleans (through parquetText.cell, as general) to the same
// Dataset or error as the value-by-value reference, and that
// readParquetPages reads every row of a file without faults.
func TestParquetPagesGeneral(t *testing.T) {
	type ints struct {
		Task   string `parquet:"task"`
		Worker int32  `parquet:"worker"`
		Label  int64  `parquet:"label"`
	}
	type floats struct {
		Task   int64   `parquet:"task"`
		Worker string  `parquet:"worker"`
		Label  float64 `parquet:"label"`
	}
	type bools struct {
		Task   string  `parquet:"task"`
		Worker float32 `parquet:"worker"`
		Label  bool    `parquet:"label"`
	}
	type decimals struct {
		Task   string `parquet:"task"`
		Worker string `parquet:"worker"`
		Label  int32  `parquet:"label,decimal(2:9)"`
	}
	const n = 1500 // several pages of pageBatch values
	var in []ints
	var fl, nan []floats
	var bo []bools
	var de []decimals
	for i := range n {
		in = append(in, ints{fmt.Sprint("t", i/3), int32(i % 7), int64(i % 3)})
		fl = append(fl, floats{int64(i / 3), fmt.Sprint("w", i%7), float64(i%2) / 4})
		bo = append(bo, bools{fmt.Sprint("t", i/3), float32(i%5) / 2, i%3 == 0})
		de = append(de, decimals{fmt.Sprint("t", i/3), fmt.Sprint("w", i%7), int32(i%4) * 25})
	}
	nan = append(nan, fl...)
	nan[1000].Label = math.NaN()
	for _, tc := range []struct {
		name  string
		file  []byte
		clean bool // the page path reads every row
	}{
		{"ints", parquetOf(t, in), true},
		{"floats", parquetOf(t, fl), true},
		{"bools", parquetOf(t, bo), true},
		{"decimals", parquetOf(t, de), true},
		{"nan", parquetOf(t, nan), false},
	} {
		d1, e1 := readValueByValue(tc.file, "g.parquet", ReadSettings{})
		d2, e2 := readPages(tc.file, "g.parquet", ReadSettings{})
		if e1 != e2 || !reflect.DeepEqual(d1, d2) {
			t.Errorf("%s: pages read %v, %q; values read %v, %q", tc.name, d2, e2, d1, e1)
		}
		if (e1 == "") != tc.clean {
			t.Errorf("%s: error %q", tc.name, e1)
		}
		p, err := openParquet(bytes.NewReader(tc.file), int64(len(tc.file)), "g.parquet", Columns{Names: []string{"task", "worker", "label"}}, 0)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := ingest.NewBuilder(nil)
		err = readParquetPages(p, b, &guard{})
		if (err == nil) != tc.clean || tc.clean && p.row != n {
			t.Errorf("%s: the page path read %d rows of %d, error %v", tc.name, p.row, n, err)
		}
	}
}

package dataio

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkReadLabelsGeneral reads 10⁶ generated rows, as
// BenchmarkReadLabels does, whose first row has a quoted cell over two
// lines in an ignored column: the whole input goes to the general path
// (encoding/csv and the rule of quotes, csvRecords).
func BenchmarkReadLabelsGeneral(b *testing.B) {
	const rows = 1_000_000
	var buf bytes.Buffer
	buf.WriteString("task,worker,label,note\n")
	for i := range rows {
		note := "n"
		if i == 0 {
			note = "\"two\nlines\""
		}
		fmt.Fprintf(&buf, "task%06d,worker%04d,%d,%s\n", i/20, (i*7919)%2000, i%5, note)
	}
	in := buf.Bytes()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		d, err := ReadLabels(ctx, bytes.NewReader(in), "bench.csv", ReadSettings{})
		if err != nil {
			b.Fatal(err)
		}
		if d.NumLabels() != rows {
			b.Fatalf("%d labels", d.NumLabels())
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

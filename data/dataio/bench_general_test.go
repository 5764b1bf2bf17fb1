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
	benchRead(b, buf.Bytes(), rows)
}

package pqbound

import (
	"bytes"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/gzip"
	"github.com/parquet-go/parquet-go/compress/snappy"
)

// TestDecodePage decodes a page of each codec at its size and refuses a
// gzip page whose text is longer than it declares.
func TestDecodePage(t *testing.T) {
	text := []byte(strings.Repeat("task,worker,label\n", 50))
	for _, c := range []compress.Codec{nil, &gzip.Codec{}, &snappy.Codec{}} {
		data := text
		if c != nil {
			var err error
			if data, err = c.Encode(nil, text); err != nil {
				t.Fatal(err)
			}
		}
		got, err := DecodePage(c, data, len(text))
		if err != nil || !bytes.Equal(got, text) {
			t.Errorf("%v: DecodePage = %d bytes, %v; want the %d bytes of text", c, len(got), err, len(text))
		}
	}
	data, err := (&gzip.Codec{}).Encode(nil, text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodePage(&gzip.Codec{}, data, len(text)-1); err == nil || !strings.Contains(err.Error(), "more than the page's") {
		t.Errorf("a gzip page longer than it declares: err = %v", err)
	}
}

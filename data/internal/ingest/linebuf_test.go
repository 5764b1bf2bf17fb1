package ingest

import (
	"bytes"
	"testing"
)

// TestGrowLine checks that GrowLine keeps the bytes, doubles the capacity
// up to the limit, stops there, and doubles on past it only for a reader
// that lets a longer line through.
func TestGrowLine(t *testing.T) {
	for _, tc := range []struct {
		len, cap, more, limit, want int
	}{
		{10, 10, 1, 0, 4096},
		{5000, 5000, 1, 0, 10000},
		{5000, 5000, 1, 8000, 8000},
		{5000, 5000, 4000, 8000, 9000},
		{8000, 8000, 1, 8000, 16000},
		{100, 200, 50, 8000, 200},
	} {
		buf := make([]byte, tc.len, tc.cap)
		for i := range buf {
			buf[i] = byte(i)
		}
		got := GrowLine(buf, tc.more, tc.limit)
		if cap(got) != tc.want || !bytes.Equal(got, buf) {
			t.Errorf("GrowLine(len %d cap %d, %d, %d): len %d cap %d, want cap %d and the bytes kept",
				tc.len, tc.cap, tc.more, tc.limit, len(got), cap(got), tc.want)
		}
	}
}

package ingest

import (
	"fmt"
	"hash/maphash"
	"testing"
)

// TestIDHash checks that idHash hashes a string and its bytes alike, that
// identifiers of 16 bytes or more are maphash's, and that the short keys
// spread the identifiers of typical files over the table: the mean number
// of slots a lookup reads, at the load at which intern grows, is linear
// probing's expectation for a random hash, ½(1 + 1/(1 - α)) (Knuth).
func TestIDHash(t *testing.T) {
	h := newIDHash()
	for _, s := range []string{"", "a", "w1", "t12345", "0123456789abcde", "0123456789abcdef", "a much longer identifier than that"} {
		if a, b := h.String(s), h.Bytes([]byte(s)); a != b {
			t.Errorf("%q: String %x, Bytes %x", s, a, b)
		}
		if len(s) > 15 && h.String(s) != maphash.String(h.seed, s) {
			t.Errorf("%q: not maphash's", s)
		}
	}
	if h2 := newIDHash(); h2.String("w1") == h.String("w1") {
		t.Errorf("two seeds gave one hash")
	}
	tests := []struct {
		format string
		n      int
	}{
		{"t%d", 1 << 20},
		{"w%d", 5000},
		{"%d", 1 << 20},
		{"worker-%07d", 1 << 18},
		{"%x", 1 << 18},
	}
	for _, test := range tests {
		in := &Intern{}
		ids := make([]string, test.n)
		for i := range ids {
			ids[i] = fmt.Sprintf(test.format, i)
			in.Get(ids[i])
		}
		probes := 0
		mask := len(in.slots) - 1
		for i, s := range ids {
			p := int(in.Hash(s) >> in.shift)
			for probes++; uint32(in.slots[p]) != uint32(i)+1; p = (p + 1) & mask {
				probes++
			}
		}
		alpha := float64(test.n) / float64(len(in.slots))
		mean, want := float64(probes)/float64(test.n), (1+1/(1-alpha))/2
		if mean > 1.1*want {
			t.Errorf("%s, %d ids: %.3f slots read per lookup at load %.2f, want about %.3f", test.format, test.n, mean, alpha, want)
		}
	}
}

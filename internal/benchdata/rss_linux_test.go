//go:build linux

package benchdata

import "testing"

// TestStatusKB checks the parsing of /proc/self/status fields, and that
// RSS reads a current size no larger than its peak.
func TestStatusKB(t *testing.T) {
	status := []byte("Name:\tx\nVmHWM:\t  218328 kB\nVmRSS:\t   13524 kB\nVmBad:\t12\nVmMB:\t1 MB\n")
	for _, c := range []struct {
		name string
		want int64
		ok   bool
	}{
		{"VmHWM:", 218328 * 1024, true},
		{"VmRSS:", 13524 * 1024, true},
		{"VmBad:", 0, false},
		{"VmMB:", 0, false},
		{"VmSwap:", 0, false},
	} {
		got, ok := statusKB(status, c.name)
		if got != c.want || ok != c.ok {
			t.Errorf("statusKB(%q) = %d, %v; want %d, %v", c.name, got, ok, c.want, c.ok)
		}
	}
	cur, peak, ok := RSS()
	if !ok || cur <= 0 || peak < cur {
		t.Errorf("RSS() = %d, %d, %v; want 0 < current <= peak", cur, peak, ok)
	}
}

//go:build linux

package benchdata

import (
	"bytes"
	"os"
	"strconv"
)

// ResetPeakRSS sets the peak resident set size that PeakRSS reports to the
// current size, by writing 5 to /proc/self/clear_refs (Linux 4.0 and
// later), and reports whether it could: a fit's own peak is then PeakRSS
// after it minus RSS before it.
func ResetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// RSS returns the current resident set size (VmRSS) and its peak since the
// start of the process or the last ResetPeakRSS (VmHWM) in bytes, from
// /proc/self/status, and ok = true where the system reports them.
func RSS() (cur, peak int64, ok bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0, false
	}
	cur, ok1 := statusKB(b, "VmRSS:")
	peak, ok2 := statusKB(b, "VmHWM:")
	return cur, peak, ok1 && ok2
}

// statusKB returns the value in bytes of the field name ("VmRSS:") of
// /proc/self/status, whose values are in kB.
func statusKB(status []byte, name string) (int64, bool) {
	i := bytes.Index(status, []byte(name))
	if i < 0 {
		return 0, false
	}
	rest := status[i+len(name):]
	if j := bytes.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	f := bytes.Fields(rest)
	if len(f) != 2 || string(f[1]) != "kB" {
		return 0, false
	}
	v, err := strconv.ParseInt(string(f[0]), 10, 64)
	return v * 1024, err == nil
}

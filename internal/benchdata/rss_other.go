//go:build !linux

package benchdata

// ResetPeakRSS reports false: the peak resident set size cannot be reset
// here.
func ResetPeakRSS() bool { return false }

// RSS returns ok = false: the resident set size is not read here.
func RSS() (cur, peak int64, ok bool) { return 0, 0, false }

//go:build !unix

package benchdata

import "time"

// CPUTime returns ok = false: the process CPU time is not available here.
func CPUTime() (time.Duration, bool) { return 0, false }

// MaxRSS returns ok = false: the peak resident set size is not available
// here.
func MaxRSS() (int64, bool) { return 0, false }

//go:build unix

package benchdata

import (
	"syscall"
	"time"
)

// CPUTime returns the user and system CPU time the process has used so
// far, and ok = true where the system reports it.
func CPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// MaxRSS returns the peak resident set size of the process in bytes, and
// ok = true where the system reports it.
func MaxRSS() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return maxrssBytes(int64(ru.Maxrss)), true
}

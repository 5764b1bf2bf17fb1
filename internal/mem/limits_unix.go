//go:build unix

package mem

import "syscall"

// addressSpaceLimit returns the process's address-space limit (ulimit -v),
// if it has one.
func addressSpaceLimit() (float64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur >= 1<<62 { // RLIM_INFINITY is all ones
		return 0, false
	}
	return float64(r.Cur), true
}

// stackLimit returns the stack limit (ulimit -s), which sizes a C
// thread's stack, if there is one.
func stackLimit() (float64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_STACK, &r); err != nil || r.Cur >= 1<<62 {
		return 0, false
	}
	return float64(r.Cur), true
}

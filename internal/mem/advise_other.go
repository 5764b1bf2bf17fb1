//go:build !linux

package mem

import "unsafe"

// Advise does nothing outside Linux (see advise_linux.go).
func Advise(p unsafe.Pointer, n uintptr) {}

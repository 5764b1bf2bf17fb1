//go:build !linux

package mem

import "unsafe"

// advise does nothing outside Linux (see advise_linux.go).
func advise(p unsafe.Pointer, n uintptr) {}

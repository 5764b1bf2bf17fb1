//go:build !linux

package data

import "unsafe"

// adviseHuge does nothing outside Linux (see hugepages_linux.go).
func adviseHuge(p unsafe.Pointer, n uintptr) {}

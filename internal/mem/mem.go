package mem

import "unsafe"

// HugePage is the size of a transparent huge page on Linux amd64 and
// arm64 with 4 KiB base pages.
const HugePage = 2 << 20

// Make returns make([]T, n), advised to transparent huge pages (see
// Advise) if it holds at least one whole huge page. It is meant for a
// slice that is written soon after, in full: its fresh pages are then
// mapped 2 MiB at a time.
func Make[T any](n int) []T {
	return MakeCap[T](n, n)
}

// MakeCap returns make([]T, n, c), advised as Make's.
func MakeCap[T any](n, c int) []T {
	s := make([]T, n, c)
	var zero T
	Advise(unsafe.Pointer(unsafe.SliceData(s)), uintptr(c)*unsafe.Sizeof(zero))
	return s
}

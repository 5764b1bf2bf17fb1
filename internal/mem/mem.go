package mem

import "unsafe"

// HugePage is the size of a transparent huge page on Linux amd64 and
// arm64 with 4 KiB base pages.
const HugePage = 2 << 20

// Make returns make([]T, n), with the whole 2 MiB pages inside it advised
// to transparent huge pages (madvise MADV_HUGEPAGE on Linux; see the
// package documentation), if it holds at least one. It is meant for a
// slice that is written soon after, in full: its fresh pages are then
// mapped 2 MiB at a time.
func Make[T any](n int) []T {
	return MakeCap[T](n, n)
}

// MakeCap returns make([]T, n, c), advised as Make's.
func MakeCap[T any](n, c int) []T {
	s := make([]T, n, c)
	var zero T
	advise(unsafe.Pointer(unsafe.SliceData(s)), uintptr(c)*unsafe.Sizeof(zero))
	return s
}

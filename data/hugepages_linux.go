package data

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on Linux.
const hugePage = 2 << 20

// adviseHuge asks Linux to back the whole huge pages within the n bytes at
// p with transparent huge pages (madvise MADV_HUGEPAGE), for a large slice
// that is about to be filled: one page fault then maps 2 MiB instead of
// 4 KiB, and faults on fresh memory are a large part of reading big
// inputs. It is only advice: the call's result is ignored, and where huge
// pages are off the memory is mapped as before.
func adviseHuge(p unsafe.Pointer, n uintptr) {
	if n < 4*hugePage {
		return
	}
	start := (uintptr(p) + hugePage - 1) &^ (hugePage - 1)
	end := (uintptr(p) + n) &^ (hugePage - 1)
	if end > start {
		syscall.Syscall(syscall.SYS_MADVISE, start, end-start, 14) // MADV_HUGEPAGE
	}
}

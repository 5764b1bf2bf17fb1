package mem

import (
	"syscall"
	"unsafe"
)

// madvHugePage is MADV_HUGEPAGE of linux/mman.h.
const madvHugePage = 14

// advise asks Linux to back the whole huge pages within the n bytes at p
// with transparent huge pages (madvise MADV_HUGEPAGE). The call's result is
// ignored: it is only advice, and where huge pages are off the memory is
// mapped as before. The bytes outside those whole pages, which may belong
// to other values, are left alone.
func advise(p unsafe.Pointer, n uintptr) {
	start := (uintptr(p) + HugePage - 1) &^ (HugePage - 1)
	end := (uintptr(p) + n) &^ (HugePage - 1)
	if end > start {
		syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvHugePage)
	}
}

// Package mem allocates the large slices of a fit and of a read so that
// Linux can back them with transparent huge pages.
//
// A page fault on fresh memory maps one 4 KiB page; on a virtual machine
// it costs several microseconds, so that a vector of 32 MB (one J·K vector
// of a DA fit with 200,000 objects and 20 classes) costs 8,192 faults the
// first time it is written. With transparent huge pages in the kernel's
// `madvise` mode (a common default), memory that the program has advised
// with madvise(MADV_HUGEPAGE) is mapped 2 MiB at a time instead: one fault
// where there were 512. Go's runtime does not advise its heap, so the
// functions here advise the slices they return.
//
// The advice covers only the whole 2 MiB pages inside a slice, never its
// neighbours on the heap, and it is only advice: where huge pages are off,
// or outside Linux, the memory is mapped as before. Values are never
// changed by it.
//
// It also measures memory for the checks made before a large allocation:
// Available gives the memory the process can still use (the machine's
// MemAvailable, a cgroup limit or an address-space limit, whichever leaves
// least), and ParseSize, FormatBytes and FormatCount read and write the
// sizes and counts of those checks' flags and messages.
package mem

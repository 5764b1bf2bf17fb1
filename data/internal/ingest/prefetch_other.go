//go:build !amd64 || purego

package ingest

// prefetchSink keeps prefetchSlots's loads.
var prefetchSink uint64

// prefetchSlots loads slots[i] for every i in at, in a loop whose loads
// do not depend on each other, so that their cache misses overlap.
func prefetchSlots(slots []uint64, at []uint32) {
	var s uint64
	for _, i := range at {
		s += slots[i]
	}
	prefetchSink += s
}

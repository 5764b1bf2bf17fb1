//go:build amd64 && !purego

package ingest

// prefetchSlots issues a PREFETCHT0 of slots[i] for every i in at, each
// less than len(slots). Unlike a load, a prefetch does not hold up the
// instructions after it until its cache line arrives, so a batch's misses
// all overlap.
//
//go:noescape
func prefetchSlots(slots []uint64, at []uint32)

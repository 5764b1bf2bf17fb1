package ingest

// prefetchHomes asks the processor to bring the home slots of the hashes
// h into its cache, so that the cache misses of a batch of lookups
// overlap instead of coming one after the other; at is scratch space,
// returned for reuse. A hint: it changes nothing the lookups see.
func (in *Intern) PrefetchHomes(h []uint64, at []uint32) []uint32 {
	if in.slots == nil || len(h) == 0 {
		return at
	}
	at = at[:0]
	for _, x := range h {
		at = append(at, uint32(x>>in.shift))
	}
	prefetchSlots(in.slots, at)
	return at
}

// prefetchHome is prefetchHomes for one hash.
func (in *Intern) PrefetchHome(h uint64) {
	if in.slots != nil {
		at := [1]uint32{uint32(h >> in.shift)}
		prefetchSlots(in.slots, at[:])
	}
}

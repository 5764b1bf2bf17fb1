package ingest

import (
	"hash/maphash"
	"math/bits"
	"unsafe"
)

// idHash is the seeded hash of identifiers that intern and localIDs place
// them by. An identifier of up to 15 bytes, the common case (t123456,
// w4217), is packed into two words by shortKey and mixed by two 64×64→128
// bit multiplications, each folded by XOR (the mixing of wyhash), which
// is several times cheaper than a call to maphash; a longer one is hashed by
// maphash with the same seed. Equal identifiers get equal hashes whether
// they come as strings or bytes; the table compares the identifiers
// themselves, so the hash only places them and a collision costs a probe,
// never a wrong index. The keys are drawn from the seed, which is random,
// so inputs cannot be chosen to collide.
type idHash struct {
	seed   maphash.Seed
	k0, k1 uint64 // the short identifiers' keys, drawn from seed
}

// newIDHash returns an idHash with a new random seed.
func newIDHash() idHash {
	return idHashOf(maphash.MakeSeed())
}

// idHashOf returns the idHash with seed.
func idHashOf(seed maphash.Seed) idHash {
	return idHash{
		seed: seed,
		k0:   maphash.String(seed, "consensus id key 0"),
		k1:   maphash.String(seed, "consensus id key 1") | 1,
	}
}

// String returns the hash of s.
func (h *idHash) String(s string) uint64 {
	if len(s) > 15 {
		return maphash.String(h.seed, s)
	}
	return h.mix(shortKey(s))
}

// Bytes returns the hash of b, which is String's of the same text.
func (h *idHash) Bytes(b []byte) uint64 {
	return h.String(unsafe.String(unsafe.SliceData(b), len(b)))
}

// mix returns the hash of the short key (a, b):
// m(m(a ⊕ k₀, b ⊕ k₁) ⊕ φ, k₁), where m(x, y) is the XOR of the two
// halves of the 128-bit product x·y and φ is 2⁶⁴ divided by the golden
// ratio. The second product spreads every bit of the first over the
// result's top bits, which choose an entry's home slot.
func (h *idHash) mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a^h.k0, b^h.k1)
	hi, lo = bits.Mul64(hi^lo^0x9E3779B97F4A7C15, h.k1)
	return hi ^ lo
}

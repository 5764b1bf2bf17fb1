package ingest

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/consensuslab/consensus/internal/mem"
)

// intern maps strings to dense indices in order of first appearance.
//
// Its index is an open-addressing hash table with linear probing over the
// packed id text: a slot holds the upper 32 bits of the string's 64-bit
// hash and its index plus one (0 marks an empty slot), and the home slot of
// a string is given by the top bits of its hash. A probe reads one 8-byte
// slot, compares the stored bits with the hash and only then the string;
// growing the table moves the slots without reading a string or hashing
// again. The strings themselves are packed into shared blocks of text.
type Intern struct {
	hasher idHash
	seeded bool
	slots  []uint64 // hash>>32<<32 | index+1, or 0; a power of two long
	shift  uint     // 64 - log2(len(slots)): the home slot is hash>>shift
	used   int      // slots in use
	names  column[string]
	text   []byte // the latest block of names' text
	stored int    // bytes of text stored in all
	// hint is the text that reserve expects beyond the current block, in
	// bytes: the next block is made that large (up to textHuge), once.
	hint  int
	last  string // the string of the last get, which returns lastI again
	lastI int32
	// inline, if set, keeps short: per index, the string packed by
	// shortKey, so that a probe compares a string of up to 15 bytes with
	// two words instead of reading it through names (the workers, looked
	// up once a label among few, use it).
	inline bool
	short  [][2]uint64
}

// shortKey packs a string of up to 15 bytes into two words, its bytes then
// its length in the last byte, so that two strings of up to 15 bytes are
// equal if and only if their keys are; a longer string gets a key with
// 0xFF as its length, equal to no short string's. The two words come back
// as two results, in registers: returned as an array they went through the
// stack, and reading them back as one 16-byte word waited for the two
// 8-byte stores to retire (a failed store forwarding, about a dozen cycles).
func shortKey(s string) (k0, k1 uint64) {
	n := len(s)
	if n > 15 {
		return 0, 0xFF << 56
	}
	// Overlapping loads of the string's own bytes: two of 8 bytes for 8
	// to 15 bytes (the second shifted down to the bytes after the first
	// 8), two of 4 bytes for 4 to 7, three single bytes for 1 to 3; an
	// overlapping byte lands where it belongs, so OR keeps it.
	b := unsafe.Slice(unsafe.StringData(s), n)
	switch {
	case n >= 8:
		k0 = binary.LittleEndian.Uint64(b)
		k1 = binary.LittleEndian.Uint64(b[n-8:]) >> (8 * (16 - n))
	case n >= 4:
		k0 = uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<(8*(n-4))
	case n > 0:
		k0 = uint64(b[0]) | uint64(b[n/2])<<(8*(n/2)) | uint64(b[n-1])<<(8*(n-1))
	}
	return k0, k1 | uint64(n)<<56
}

// textChunk is the largest size of the blocks in which intern stores the
// text of the names, one after the other, unless reserve expects more;
// the first blocks are smaller.
const textChunk = 64 << 10

// textHuge is the largest block that reserve makes intern allocate.
const textHuge = 256 << 20

// minSlots is the size of a new intern's table.
const minSlots = 1 << 8

// hash returns the hash of s that get and find use.
func (in *Intern) Hash(s string) uint64 {
	if !in.seeded {
		in.hasher, in.seeded = newIDHash(), true
	}
	return in.hasher.String(s)
}

// get returns the index of s, adding s if it is new. The string of the
// previous call is recognised without a lookup, which makes runs of one
// identifier (such as a labels file grouped by task) cheap.
func (in *Intern) Get(s string) int32 {
	if in.IsLast(s) {
		return in.lastI
	}
	return in.GetHashed(s, in.Hash(s))
}

// isLast reports whether s is the string of the last get, whose index get
// returns without a lookup.
func (in *Intern) IsLast(s string) bool { return s == in.last && in.Len() > 0 }

// getHashed is get for a string whose hash h is known.
func (in *Intern) GetHashed(s string, h uint64) int32 {
	slot, i, ok := in.Probe(s, h)
	if !ok {
		i = int32(in.names.len())
		s = in.store(s)
		in.names.add(s)
		if in.inline {
			k0, k1 := shortKey(s)
			in.short = append(in.short, [2]uint64{k0, k1})
		}
		in.slots[slot] = h>>32<<32 | uint64(i) + 1
		if in.used++; 2*in.used > len(in.slots) {
			in.grow()
		}
	}
	in.last, in.lastI = in.names.at(int(i)), i
	return i
}

// probe returns the index of s if it is known, or else the empty slot
// where it belongs.
func (in *Intern) Probe(s string, h uint64) (slot int, i int32, ok bool) {
	if in.slots == nil {
		in.slots, in.shift = make([]uint64, minSlots), 64-8
	}
	mask := len(in.slots) - 1
	tag := h >> 32
	if in.inline && len(s) <= 15 {
		k0, k1 := shortKey(s)
		for p := int(h >> in.shift); ; p = (p + 1) & mask {
			e := in.slots[p]
			if e == 0 {
				return p, 0, false
			}
			if e>>32 == tag {
				if i := int32(uint32(e) - 1); in.short[i][0] == k0 && in.short[i][1] == k1 {
					return p, i, true
				}
			}
		}
	}
	for p := int(h >> in.shift); ; p = (p + 1) & mask {
		e := in.slots[p]
		if e == 0 {
			return p, 0, false
		}
		if e>>32 == tag {
			if i := int32(uint32(e) - 1); in.names.at(int(i)) == s {
				return p, i, true
			}
		}
	}
}

// reserve sizes the table, the list of names and the block of their text
// for about n strings in all: the table for a load of at most 2/3 (it
// grows past 1/2, so an estimate that is a little high does not double
// it).
func (in *Intern) reserve(n int) {
	if k := in.names.len(); n > k && k > 0 {
		// The text of the names to come, at the mean length so far.
		in.hint = (n - k) * (in.stored/k + 1)
	}
	in.names.reserve(n)
	// The garbage collector reads the whole reserved slice of strings,
	// its unused tail too, which maps the zero page where the names will
	// be written: a second fault per page, with a flush of the other
	// cores' TLBs. Writing it first avoids both.
	clear(in.names.cur[len(in.names.cur):cap(in.names.cur)])
	if in.inline && n > cap(in.short) {
		in.short = append(make([][2]uint64, 0, n), in.short...)
	}
	size := max(minSlots, len(in.slots))
	for 2*size < 3*n {
		size *= 2
	}
	if size > len(in.slots) {
		in.resize(size)
	}
}

// grow doubles the table.
func (in *Intern) grow() { in.resize(2 * len(in.slots)) }

// resize moves the entries to a table of size slots, a power of two. The
// home slot of an entry is its hash's top bits, which the entry keeps (the
// table never exceeds 2³² slots).
func (in *Intern) resize(size int) {
	old := in.slots
	in.slots, in.shift = mem.Make[uint64](size), uint(64-bits.TrailingZeros(uint(size)))
	// Written before it is read: a lookup's first read of fresh memory
	// would map the zero page, which its insertion's write must then
	// replace, a second fault that also flushes the other cores' TLBs.
	clear(in.slots)
	mask := len(in.slots) - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		p := int(e >> in.shift)
		for in.slots[p] != 0 {
			p = (p + 1) & mask
		}
		in.slots[p] = e
	}
}

// store returns a copy of s, so as not to keep a caller's larger buffer
// alive. The copies are packed into blocks of up to textChunk bytes, which
// take less memory than a small allocation each and keep the names together
// in the cache; after reserve, the next block holds the text it expects,
// in huge pages if it is large. A block is only appended to, so the
// strings returned before stay valid.
func (in *Intern) store(s string) string {
	if len(s) == 0 {
		return ""
	}
	if cap(in.text)-len(in.text) < len(s) {
		size := min(textChunk, max(256, 2*cap(in.text)))
		if in.hint > size {
			size, in.hint = min(in.hint, textHuge), 0
		}
		in.text = mem.MakeCap[byte](0, max(size, len(s)))
	}
	at := len(in.text)
	in.text = append(in.text, s...)
	in.stored += len(s)
	return unsafe.String(&in.text[at], len(s))
}

// find returns the index of s, or false if s is not known. A short list
// is scanned, which is faster than hashing for a few classes.
func (in *Intern) Find(s string) (int32, bool) {
	if in.names.len() <= 8 {
		for i, n := range in.names.cur {
			if n == s {
				return int32(i), true
			}
		}
		return 0, false
	}
	_, i, ok := in.Probe(s, in.Hash(s))
	return i, ok
}

// localIDs numbers the distinct ids of one column of a chunk in order of
// first appearance, in an open-addressing table like intern's over the
// chunk's own bytes.
type localIDs struct {
	hasher idHash
	slots  []uint64 // hash>>32<<32 | index+1, or 0
	shift  uint
	off    []int32 // id i is data[off[i]:end[i]]
	end    []int32
	hash   []uint64
	first  []int32 // the row where the id first appears
	global []int32 // the id's index in the Builder, set by merge
}

// reset empties ids for a new chunk.
func (ids *localIDs) reset(h idHash) {
	ids.hasher = h
	if ids.slots == nil {
		ids.slots, ids.shift = make([]uint64, 1<<10), 64-10
	}
	clear(ids.slots)
	ids.off, ids.end, ids.hash, ids.first = ids.off[:0], ids.end[:0], ids.hash[:0], ids.first[:0]
}

// name returns id i as a string pointing into data.
func (ids *localIDs) name(data []byte, i int) string {
	b := data[ids.off[i]:ids.end[i]]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// get returns the local index of data[a:z], adding it, first seen in row
// row, if it is new.
func (ids *localIDs) Get(data []byte, a, z, row int32) int32 {
	s := data[a:z]
	h := ids.hasher.Bytes(s)
	mask := len(ids.slots) - 1
	tag := h >> 32
	p := int(h >> ids.shift)
	for ; ; p = (p + 1) & mask {
		e := ids.slots[p]
		if e == 0 {
			break
		}
		if e>>32 == tag {
			if i := int32(uint32(e) - 1); bytes.Equal(data[ids.off[i]:ids.end[i]], s) {
				return i
			}
		}
	}
	i := int32(len(ids.off))
	ids.slots[p] = tag<<32 | uint64(i) + 1
	ids.off, ids.end = append(ids.off, a), append(ids.end, z)
	ids.hash, ids.first = append(ids.hash, h), append(ids.first, row)
	if 2*len(ids.off) > len(ids.slots) {
		old := ids.slots
		ids.slots, ids.shift = make([]uint64, 2*len(old)), ids.shift-1
		clear(ids.slots) // written before it is read (see intern.resize)
		mask = len(ids.slots) - 1
		for _, e := range old {
			if e != 0 {
				q := int(e >> ids.shift)
				for ids.slots[q] != 0 {
					q = (q + 1) & mask
				}
				ids.slots[q] = e
			}
		}
	}
	if cap(ids.global) < len(ids.off) {
		ids.global = make([]int32, len(ids.off), 2*len(ids.off))
	}
	ids.global = ids.global[:len(ids.off)]
	return i
}

// scan is get for a column of few distinct ids, such as labels: while
// there are at most 8, they are compared one by one without hashing.
func (ids *localIDs) scan(data []byte, a, z, row int32) int32 {
	if len(ids.off) > 8 {
		return ids.Get(data, a, z, row)
	}
	s := data[a:z]
	for i := range ids.off {
		if bytes.Equal(data[ids.off[i]:ids.end[i]], s) {
			return int32(i)
		}
	}
	return ids.Get(data, a, z, row)
}

// Len returns the number of distinct identifiers stored.
func (in *Intern) Len() int { return in.names.len() }

package ingest

import (
	"encoding/binary"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
)

// internClashIDs are ids that the packed keys of an inline Intern must
// tell apart: empty, NUL bytes, 15 and 16 bytes, and long ids that differ
// only after their first 15 bytes.
var internClashIDs = []string{"", "\x00", "a", "a\x00", "\x00a", "aaaaaaaaaaaaaaa", "aaaaaaaaaaaaaa\x0f",
	"aaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaab", "aaaaaaaaaaaaaaa\x00", "aaaaaaaaaaaaaaa\xff", "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"}

// TestInternClash checks that strings with the same hash, or the same home
// slot, get their own indices, before and after the table grows, with and
// without the packed keys of short strings (inline). The clashes are made
// by hand: a 64-bit hash collision cannot be found on purpose.
func TestInternClash(t *testing.T) {
	for _, c := range []struct {
		inline bool
		hash   func(string) uint64
	}{
		{false, func(string) uint64 { return 42 << 32 }},                              // one hash for all
		{false, func(s string) uint64 { return uint64(len(s))<<60 | uint64(len(s)) }}, // one home slot per length, the rest differs
		{true, func(string) uint64 { return 42 << 32 }},
		{true, func(s string) uint64 { return uint64(len(s))<<60 | uint64(len(s)) }},
	} {
		hash := c.hash
		in := Intern{inline: c.inline}
		var want []string
		const n = 3 * minSlots // grows twice
		for round := range 2 {
			for i := range n {
				s := "s" + strconv.Itoa(i)
				if i < len(internClashIDs) {
					s = internClashIDs[i]
				}
				if round == 0 {
					want = append(want, s)
				}
				if got := in.GetHashed(s, hash(s)); got != int32(i) {
					t.Fatalf("round %d: get(%q) = %d, want %d", round, s, got, i)
				}
				if _, j, ok := in.Probe(s, hash(s)); !ok || j != int32(i) {
					t.Fatalf("probe(%q) = %d, %v, want %d", s, j, ok, i)
				}
			}
		}
		if _, _, ok := in.Probe("e", hash("e")); ok {
			t.Error(`probe("e") found an unknown string`)
		}
		if got := in.names.flat(false); !reflect.DeepEqual(got, want) {
			t.Errorf("names %q", got)
		}
	}
}

// TestInternFind checks get and find with the real hash, across the switch
// from scanning to probing.
func TestInternFind(t *testing.T) {
	var in Intern
	for round := range 2 {
		for i := range 20 {
			s := "c" + strconv.Itoa(i)
			if got := in.Get(s); got != int32(i) {
				t.Fatalf("round %d: get(%q) = %d", round, s, got)
			}
			if j, ok := in.Find(s); !ok || j != int32(i) {
				t.Fatalf("find(%q) = %d, %v", s, j, ok)
			}
		}
	}
	if _, ok := in.Find("e"); ok {
		t.Error(`find("e") found an unknown string`)
	}
}

// TestShortKey compares shortKey with its definition, the string's bytes
// copied into 16 bytes with its length in the last one, for every length
// up to 16 and strings of every byte.
func TestShortKey(t *testing.T) {
	want := func(s string) [2]uint64 {
		if len(s) > 15 {
			return [2]uint64{0, 0xFF << 56}
		}
		var b [16]byte
		copy(b[:], s)
		b[15] = byte(len(s))
		return [2]uint64{binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 17 {
		for range 200 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			k0, k1 := shortKey(string(b))
			if got, w := [2]uint64{k0, k1}, want(string(b)); got != w {
				t.Fatalf("shortKey(%q) = %x, want %x", b, got, w)
			}
		}
	}
}

// TestInternReserveText checks that the block of text that reserve asks
// for keeps every name intact, whether the estimate is exact, too high or
// too low (the names then go on into new blocks), and that the names of a
// reserved Intern keep their indices and text.
func TestInternReserveText(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, total int // names added before reserve, and in all
		reserve       int // the estimate given to reserve
	}{
		{"exact", 10, 5000, 5000},
		{"high", 10, 5000, 20000},
		{"low", 10, 5000, 100},
		{"longer later", 3, 5000, 5000}, // the mean length from "n0".."n2" is short
		{"empty first", 0, 50, 50},      // no mean to estimate from: no hint
	} {
		t.Run(tc.name, func(t *testing.T) {
			var in Intern
			var want []string
			for i := range tc.total {
				if i == tc.before {
					in.reserve(tc.reserve)
					if tc.before > 0 && tc.reserve > tc.before && in.hint == 0 {
						t.Fatalf("reserve(%d) after %d names set no hint", tc.reserve, tc.before)
					}
				}
				s := "n" + strconv.Itoa(i)
				if i%7 == 3 {
					s += "-a-longer-name-that-is-not-short"
				}
				want = append(want, s)
				if got := in.Get(s); got != int32(i) {
					t.Fatalf("get(%q) = %d, want %d", s, got, i)
				}
			}
			if got := in.names.flat(false); !reflect.DeepEqual(got, want) {
				t.Fatalf("names differ from those added")
			}
			for i, s := range want {
				if j, ok := in.Find(s); !ok || j != int32(i) {
					t.Fatalf("find(%q) = %d, %v, want %d", s, j, ok, i)
				}
			}
		})
	}
}

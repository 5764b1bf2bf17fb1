package data

import (
	"reflect"
	"strconv"
	"testing"
)

// TestInternClash checks that strings with the same hash, or the same home
// slot, get their own indices, before and after the table grows. The
// clashes are made by hand: a 64-bit hash collision cannot be found on
// purpose.
func TestInternClash(t *testing.T) {
	for _, hash := range []func(string) uint64{
		func(string) uint64 { return 42 << 32 },                              // one hash for all
		func(s string) uint64 { return uint64(len(s))<<60 | uint64(len(s)) }, // one home slot per length, the rest differs
	} {
		var in intern
		var want []string
		const n = 3 * minSlots // grows twice
		for round := range 2 {
			for i := range n {
				s := "s" + strconv.Itoa(i)
				if round == 0 {
					want = append(want, s)
				}
				if got := in.getHashed(s, hash(s)); got != int32(i) {
					t.Fatalf("round %d: get(%q) = %d, want %d", round, s, got, i)
				}
				if _, j, ok := in.probe(s, hash(s)); !ok || j != int32(i) {
					t.Fatalf("probe(%q) = %d, %v, want %d", s, j, ok, i)
				}
			}
		}
		if _, _, ok := in.probe("e", hash("e")); ok {
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
	var in intern
	for round := range 2 {
		for i := range 20 {
			s := "c" + strconv.Itoa(i)
			if got := in.get(s); got != int32(i) {
				t.Fatalf("round %d: get(%q) = %d", round, s, got)
			}
			if j, ok := in.find(s); !ok || j != int32(i) {
				t.Fatalf("find(%q) = %d, %v", s, j, ok)
			}
		}
	}
	if _, ok := in.find("e"); ok {
		t.Error(`find("e") found an unknown string`)
	}
}

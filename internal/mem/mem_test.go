package mem_test

import (
	"testing"

	"github.com/consensuslab/consensus/internal/mem"
)

func TestMake(t *testing.T) {
	for _, tc := range []struct {
		name string
		n, c int
	}{
		{"empty", 0, 0},
		{"small", 10, 10},
		{"one huge page", mem.HugePage / 8, mem.HugePage / 8},
		{"several", 3 * mem.HugePage / 8, 5 * mem.HugePage / 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mem.MakeCap[float64](tc.n, tc.c)
			if len(s) != tc.n || cap(s) != tc.c {
				t.Fatalf("len %d cap %d, want %d %d", len(s), cap(s), tc.n, tc.c)
			}
			full := s[:tc.c]
			for i, v := range full {
				if v != 0 {
					t.Fatalf("s[%d] = %v, want 0", i, v)
				}
			}
			for i := range full {
				full[i] = float64(i)
			}
			for i, v := range full {
				if v != float64(i) {
					t.Fatalf("s[%d] = %v after writing %d", i, v, i)
				}
			}
		})
	}
	if s := mem.Make[int32](7); len(s) != 7 || cap(s) != 7 {
		t.Errorf("Make(7): len %d cap %d", len(s), cap(s))
	}
}

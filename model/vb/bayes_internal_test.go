package vb

import "testing"

// TestDistinct3 checks the count of a task's workers that the pairs rule
// reads (tripled): repeated labels of one worker count once.
func TestDistinct3(t *testing.T) {
	for _, tc := range []struct {
		workers []int32
		want    bool
	}{
		{nil, false},
		{[]int32{4}, false},
		{[]int32{4, 4, 4}, false},
		{[]int32{4, 7}, false},
		{[]int32{4, 7, 4, 7, 4}, false},
		{[]int32{4, 7, 9}, true},
		{[]int32{4, 4, 7, 7, 9}, true},
		{[]int32{1, 2, 3, 4, 5}, true},
	} {
		if got := distinct3(tc.workers); got != tc.want {
			t.Errorf("distinct3(%v) = %v, want %v", tc.workers, got, tc.want)
		}
	}
}

package model

import (
	"context"
	"strings"
	"testing"
)

// TestFitBinaryRelevance: Crowd-Kit's BinaryRelevance example (three
// workers tag two tasks), one binary fit per class.
func TestFitBinaryRelevance(t *testing.T) {
	m := &MultiLabels{
		Tasks:   []string{"t1", "t2"},
		Workers: []string{"w1", "w2", "w3"},
		Classes: []string{"car", "house", "tree"},
		Task:    []int32{0, 0, 0, 1, 1, 1},
		Worker:  []int32{0, 1, 2, 0, 1, 2},
		// house|tree, house, house|tree; car, car|tree, nothing
		Chosen: [][]uint16{{1, 2}, {1}, {1, 2}, {0}, {0, 2}, {}},
	}
	for _, name := range []string{"mv", "la-ds", "wawa"} {
		est, err := ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		br, err := FitBinaryRelevance(context.Background(), est, m, nil)
		if err != nil {
			t.Fatal(name, err)
		}
		prob, chosen := br.Chosen(1)
		want := [][]int{{1, 2}, {0}}
		for j := range want {
			if len(chosen[j]) != len(want[j]) {
				t.Fatalf("%s: task %d chose %v, want %v", name, j, chosen[j], want[j])
			}
			for i := range want[j] {
				if chosen[j][i] != want[j][i] {
					t.Fatalf("%s: task %d chose %v, want %v", name, j, chosen[j], want[j])
				}
			}
		}
		if name == "mv" && (prob[0][2] != 2.0/3 || prob[1][0] != 2.0/3 || prob[1][1] != 0) {
			t.Errorf("mv: probabilities %v, want the shares of workers choosing each class", prob)
		}
	}
	_, err := FitBinaryRelevance(context.Background(), RFE{}, &MultiLabels{Tasks: []string{"t"}, Workers: []string{"w"}, Task: []int32{0}, Worker: []int32{0}, Chosen: [][]uint16{{}}}, nil)
	if err == nil || !strings.Contains(err.Error(), "no class") {
		t.Errorf("no class: error %v", err)
	}
}

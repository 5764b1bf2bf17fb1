package pairwise

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/dataio"
)

func TestAdd(t *testing.T) {
	for _, tc := range []struct {
		name                       string
		worker, left, right, label string
		err                        string
	}{
		{name: "left chosen", worker: "w", left: "a", right: "b", label: "a"},
		{name: "right chosen", worker: "w", left: "a", right: "b", label: "b"},
		{name: "same item", worker: "w", left: "a", right: "a", label: "a", err: `left and right are the same item "a"`},
		{name: "label elsewhere", worker: "w", left: "a", right: "b", label: "c", err: `label "c" is neither the left item "a" nor the right item "b"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Comparisons{}
			err := c.Add(tc.worker, tc.left, tc.right, tc.label)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				if c.Len() != 0 || len(c.Items) != 0 {
					t.Errorf("a refused comparison changed the comparisons: %+v", c)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Len() != 1 || c.LeftWon[0] != (tc.label == tc.left) || !reflect.DeepEqual(c.Items, []string{tc.left, tc.right}) {
				t.Errorf("got %+v", c)
			}
		})
	}
}

func TestReadComparisons(t *testing.T) {
	for _, tc := range []struct {
		name, file, text string
		items, workers   []string
		left, right      []int32
		leftWon          []bool
		err              string
	}{
		{
			name: "Crowd-Kit's columns", file: "c.csv",
			text:  "worker,left,right,label\nw1,x,y,x\nw2,y,z,z\nw1,z,x,x\n",
			items: []string{"x", "y", "z"}, workers: []string{"w1", "w2"},
			left: []int32{0, 1, 2}, right: []int32{1, 2, 0}, leftWon: []bool{true, false, false},
		},
		{
			name: "no worker column, other order, spaces", file: "c.tsv",
			text:  "label\tright\tleft\n y \ty\tx\n",
			items: []string{"x", "y"}, left: []int32{0}, right: []int32{1}, leftWon: []bool{false},
		},
		{
			name: "JSON Lines", file: "c.jsonl",
			text:  `{"worker":"w","left":"x","right":"y","label":"y"}` + "\n",
			items: []string{"x", "y"}, workers: []string{"w"}, left: []int32{0}, right: []int32{1}, leftWon: []bool{false},
		},
		{
			name: "items named like numbers", file: "c.csv",
			text:  "left,right,label\nNaN,inf,NaN\n",
			items: []string{"NaN", "inf"}, left: []int32{0}, right: []int32{1}, leftWon: []bool{true},
		},
		{name: "label neither", file: "c.csv", text: "left,right,label\nx,y,x\nx,y,z\n", err: `c.csv:3: label "z" is neither the left item "x" nor the right item "y"`},
		{name: "same item", file: "c.csv", text: "left,right,label\nx,x,x\n", err: `c.csv:2: left and right are the same item "x"`},
		{name: "missing column", file: "c.csv", text: "left,label\nx,x\n", err: `c.csv:1:`},
		{name: "empty cell", file: "c.csv", text: "worker,left,right,label\n,x,y,x\n", err: `c.csv:2:`},
		{name: "no rows", file: "c.csv", text: "left,right,label\n", err: `c.csv`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ReadComparisons(context.Background(), strings.NewReader(tc.text), tc.file, "", Columns{}, dataio.ReadSettings{})
			if tc.err != "" {
				var ie *dataio.InputError
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) || !errors.As(err, &ie) {
					t.Fatalf("error %v, want a *dataio.InputError starting %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Items, tc.items) || !reflect.DeepEqual(c.Workers, tc.workers) ||
				!reflect.DeepEqual(c.Left, tc.left) || !reflect.DeepEqual(c.Right, tc.right) || !reflect.DeepEqual(c.LeftWon, tc.leftWon) {
				t.Errorf("got %+v", c)
			}
			if c.HasWorkers() != (tc.workers != nil) || c.HasWorkers() && len(c.Worker) != c.Len() {
				t.Errorf("workers %v for %d comparisons, want %v", c.Worker, c.Len(), tc.workers)
			}
		})
	}
}

func TestReadComparisonsColumns(t *testing.T) {
	text := "annotator,a,b,winner\nw,x,y,y\n"
	c, err := ReadComparisons(context.Background(), strings.NewReader(text), "c.csv", "", Columns{Worker: "annotator", Left: "a", Right: "b", Label: "winner"}, dataio.ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Workers, []string{"w"}) || c.LeftWon[0] {
		t.Errorf("got %+v", c)
	}
}

func TestAddWorkers(t *testing.T) {
	c := &Comparisons{}
	if err := c.Add("", "a", "b", "a"); err != nil {
		t.Fatal(err)
	}
	if err := c.Add("w", "a", "b", "a"); err == nil || c.Len() != 1 {
		t.Errorf("a worker after comparisons without one: %v, %d comparisons", err, c.Len())
	}
	d := &Comparisons{}
	if err := d.Add("w", "a", "b", "a"); err != nil {
		t.Fatal(err)
	}
	if err := d.Add("", "a", "b", "a"); err == nil || d.Len() != 1 {
		t.Errorf("no worker after comparisons with one: %v, %d comparisons", err, d.Len())
	}
	if !d.HasWorkers() || c.HasWorkers() {
		t.Errorf("HasWorkers: %v with workers, %v without", d.HasWorkers(), c.HasWorkers())
	}
}

func TestReadTies(t *testing.T) {
	text := "worker,left,right,label\nw,x,y,x\nw,y,z,tie\nw,z,x,z\n"
	c, err := ReadComparisons(context.Background(), strings.NewReader(text), "c.csv", "", Columns{Tie: "tie"}, dataio.ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Tie, []bool{false, true, false}) || !reflect.DeepEqual(c.LeftWon, []bool{true, false, true}) ||
		!reflect.DeepEqual(c.Ties(), []int{0, 1, 1}) {
		t.Errorf("got %+v", c)
	}
	if wins, _ := c.Wins(); !reflect.DeepEqual(wins, []int{1, 0, 1}) {
		t.Errorf("wins %v", wins)
	}
	// Without Columns.Tie a tie is a label that is neither item.
	if _, err := ReadComparisons(context.Background(), strings.NewReader(text), "c.csv", "", Columns{}, dataio.ReadSettings{}); err == nil || !strings.HasPrefix(err.Error(), `c.csv:3: label "tie" is neither`) {
		t.Errorf("no tie label: %v", err)
	}
	bad := "left,right,label\nx,tie,x\n"
	if _, err := ReadComparisons(context.Background(), strings.NewReader(bad), "c.csv", "", Columns{Tie: "tie"}, dataio.ReadSettings{}); err == nil || !strings.HasPrefix(err.Error(), `c.csv:2: item "tie" is also the tie label`) {
		t.Errorf("an item named as the tie: %v", err)
	}
}

func TestWins(t *testing.T) {
	c := &Comparisons{}
	for _, row := range [][3]string{{"a", "b", "a"}, {"b", "c", "c"}, {"a", "c", "a"}} {
		if err := c.Add("", row[0], row[1], row[2]); err != nil {
			t.Fatal(err)
		}
	}
	wins, games := c.Wins()
	if !reflect.DeepEqual(wins, []int{2, 0, 1}) || !reflect.DeepEqual(games, []int{2, 2, 2}) {
		t.Errorf("wins %v, games %v", wins, games)
	}
}

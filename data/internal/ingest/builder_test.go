package ingest

import (
	"reflect"
	"strconv"
	"testing"
)

// TestBuilder checks that a Builder gives the Dataset of FromIndices, with
// identifiers indexed in order of first appearance, whether the labels of
// each task come together or not, across chunk boundaries, and when Build
// is called twice with labels added in between, when the Builder
// frees its memory while building, as the readers have it do, and when it
// was reserved for more or fewer labels and tasks than it gets.
func TestBuilder(t *testing.T) {
	type row struct{ task, worker, label string }
	grouped := func(n, per int) []row {
		var rows []row
		for i := range n {
			rows = append(rows, row{"t" + strconv.Itoa(i/per), "w" + strconv.Itoa(i*7%13), strconv.Itoa(i * 5 % 3)})
		}
		return rows
	}
	scattered := func(n, tasks int) []row {
		var rows []row
		for i := range n {
			rows = append(rows, row{"t" + strconv.Itoa(i*7919%tasks), "w" + strconv.Itoa(i%11), strconv.Itoa(i % 12)})
		}
		return rows
	}
	for _, tc := range []struct {
		name    string
		rows    []row
		classes []string
		again   int // Build after this many rows as well
		at      int // reserve after this many rows, if reserve is set
		reserve [2]int
	}{
		{"grouped", grouped(20, 4), nil, 0, 0, [2]int{}},
		{"grouped-fixed", grouped(20, 4), []string{"2", "0", "1", "9"}, 0, 0, [2]int{}},
		{"one task", grouped(10, 10), nil, 0, 0, [2]int{}},
		{"comes back", append(grouped(12, 3), row{"t0", "w1", "1"}, row{"t9", "w1", "0"}), nil, 0, 0, [2]int{}},
		{"comes back at once", []row{{"a", "u", "x"}, {"b", "u", "y"}, {"a", "v", "x"}}, nil, 0, 0, [2]int{}},
		{"scattered", scattered(50, 7), nil, 0, 0, [2]int{}},
		{"grouped chunks", grouped(3*ChunkLen+5, 2), nil, 0, 0, [2]int{}},
		{"scattered chunks", scattered(2*ChunkLen+3, ChunkLen+1), nil, 0, 0, [2]int{}},
		{"late scatter", append(grouped(ChunkLen+7, 3), row{"t1", "w0", "0"}), nil, 0, 0, [2]int{}},
		{"build twice", append(grouped(20, 4), row{"t1", "w1", "1"}), nil, 10, 0, [2]int{}},
		{"build twice grouped", grouped(20, 4), nil, 9, 0, [2]int{}},
		{"reserved", grouped(3*ChunkLen+5, 2), nil, 0, 10, [2]int{3*ChunkLen + 5, 2 * ChunkLen}},
		{"reserved too few", grouped(3*ChunkLen+5, 2), nil, 0, 10, [2]int{ChunkLen + 100, ChunkLen + 10}},
		{"reserved after a chunk", grouped(3*ChunkLen+5, 2), nil, 0, ChunkLen + 10, [2]int{4 * ChunkLen, 2 * ChunkLen}},
		{"reserved, late scatter", append(grouped(ChunkLen+7, 3), row{"t1", "w0", "0"}), nil, 0, 5, [2]int{ChunkLen + 2, 10}},
		{"reserved, scattered", scattered(2*ChunkLen+3, ChunkLen+1), nil, 0, 100, [2]int{2 * ChunkLen, ChunkLen}},
		{"reserved, build twice", append(grouped(3*ChunkLen, 4), row{"t1", "w1", "1"}), nil, ChunkLen, 10, [2]int{3 * ChunkLen, ChunkLen}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := NewBuilder(tc.classes)
			if err != nil {
				t.Fatal(err)
			}
			var tasks, workers, raw []string
			var task, worker []int32
			var label []uint16
			seen := map[*[]string]map[string]int{}
			at := func(list *[]string, s string) int { // the index of s in list, added if new
				if seen[list] == nil {
					seen[list] = map[string]int{}
				}
				i, ok := seen[list][s]
				if !ok {
					i = len(*list)
					seen[list][s] = i
					*list = append(*list, s)
				}
				return i
			}
			for _, c := range tc.classes {
				at(&raw, c)
			}
			want := func() *Labels {
				classes := append([]string(nil), raw...)
				if tc.classes == nil {
					SortClasses(classes)
				}
				pos := map[string]int{}
				for i, c := range classes {
					pos[c] = i
				}
				l := make([]uint16, len(label))
				for i, k := range label {
					l[i] = uint16(pos[raw[k]])
				}
				d, err := FromChunks(tasks, workers, classes, [][]int32{task}, [][]int32{worker}, [][]uint16{l}, nil)
				if err != nil {
					t.Fatal(err)
				}
				return d
			}
			check := func(n int, consume bool) {
				t.Helper()
				got, err := b.Build(consume)
				if err != nil {
					t.Fatal(err)
				}
				if w := want(); !reflect.DeepEqual(got, w) {
					t.Fatalf("after %d rows: Build differs from FromIndices:\ngot  %v %v %v %v\nwant %v %v %v %v", n,
						got.Tasks, got.Offsets, got.Worker, got.Label, w.Tasks, w.Offsets, w.Worker, w.Label)
				}
			}
			for i, r := range tc.rows {
				if tc.again > 0 && i == tc.again {
					check(i, false)
				}
				if tc.reserve[0] > 0 && i == tc.at {
					b.reserve(tc.reserve[0], tc.reserve[1])
				}
				if err := b.Add(r.task, r.worker, r.label); err != nil {
					t.Fatal(err)
				}
				task = append(task, int32(at(&tasks, r.task)))
				worker = append(worker, int32(at(&workers, r.worker)))
				label = append(label, uint16(at(&raw, r.label)))
			}
			if b.Len() != len(tc.rows) {
				t.Errorf("Len() = %d, want %d", b.Len(), len(tc.rows))
			}
			check(len(tc.rows), false)
			check(len(tc.rows), true) // as the readers build
		})
	}
}

// TestAdmit checks the rule of a label's admission that every reading
// path applies: a class is found, a new label is admitted (and not yet
// added), a label outside fixed classes and one past MaxClasses are
// refused with AddHinted's messages.
func TestAdmit(t *testing.T) {
	full, _ := NewBuilder(nil)
	for k := range MaxClasses {
		full.Raw.Get(strconv.Itoa(k))
	}
	fixed, _ := NewBuilder([]string{"x", "y"})
	open, _ := NewBuilder(nil)
	open.Raw.Get("a")
	for _, c := range []struct {
		name  string
		b     *Builder
		label string
		want  int32
		err   string
	}{
		{"a known class", open, "a", 0, ""},
		{"a new class", open, "b", -1, ""},
		{"a fixed class", fixed, "y", 1, ""},
		{"outside the fixed classes", fixed, "z", -1, `label "z" is not one of the classes x,y`},
		{"a known class of a full list", full, "7", 7, ""},
		{"past MaxClasses", full, "new", -1, "more than 65536 distinct labels"},
	} {
		got, err := c.b.Admit(c.label)
		if got != c.want || (err == nil) != (c.err == "") || err != nil && err.Error() != c.err {
			t.Errorf("%s: Admit(%q) = %d, %v; want %d, %q", c.name, c.label, got, err, c.want, c.err)
		}
		if err := c.b.Add("t", "w", c.label); (err == nil) != (c.err == "") || err != nil && err.Error() != c.err {
			t.Errorf("%s: Add(%q) = %v; want %q", c.name, c.label, err, c.err)
		}
	}
	if n := open.Raw.Len(); n != 2 {
		t.Errorf("open builder: %d classes after adding a and b, want 2", n)
	}
}

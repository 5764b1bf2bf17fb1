package data

import (
	"fmt"
	"strings"
	"testing"
)

// TestZeroValues checks that the zero Builder is NewBuilder(nil)'s and that
// Gold.Without takes a nil training set, instead of panicking.
func TestZeroValues(t *testing.T) {
	for _, c := range []struct {
		name string
		run  func() (string, error)
		want string
	}{
		{"builder/empty", func() (string, error) {
			var b Builder
			_, err := b.Build()
			return "", err
		}, "data: no classes"},
		{"builder/labels", func() (string, error) {
			var b Builder
			for _, l := range [][3]string{{"t1", "w1", "b"}, {"t1", "w2", "a"}, {"t2", "w1", "a"}} {
				if err := b.Add(l[0], l[1], l[2]); err != nil {
					return "", err
				}
			}
			d, err := b.Build()
			if err != nil {
				return "", err
			}
			return strings.Join(d.Classes, ",") + " " + strings.Join(d.Tasks, ",") + " " + strings.Repeat("l", b.Len()), nil
		}, "a,b t1,t2 lll"},
		{"builder/len", func() (string, error) {
			var b Builder
			return strings.Repeat("l", b.Len()) + "none", nil
		}, "none"},
		{"gold/without nil", func() (string, error) {
			g := &Gold{Task: []int32{0, 2}, Label: []uint16{1, 0}, Unmatched: 3}
			w := g.Without(nil)
			return fmt.Sprint(w.Task, w.Label, w.Unmatched), nil
		}, "[0 2] [1 0] 3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.run()
			if err != nil {
				got = err.Error()
			}
			if !strings.Contains(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

package sim

import (
	"errors"
	"reflect"
	"testing"
)

// TestParseClassPrior checks class priors accepted and refused.
func TestParseClassPrior(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []float64
		ok   bool
	}{
		{"0.88,0.12", []float64{0.88, 0.12}, true},
		{" 0.5, 0.25 ,0.25", []float64{0.5, 0.25, 0.25}, true},
		{"1", nil, false},
		{"0.5,0.6", nil, false},
		{"0,1", nil, false},
		{"0.5,x", nil, false},
	} {
		got, err := ParseClassPrior(c.in)
		if (err == nil) != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseClassPrior(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
	if _, err := ParseClassPrior("1"); !errors.Is(err, ErrShortClassPrior) {
		t.Errorf("one probability: %v, want ErrShortClassPrior", err)
	}
}

// TestParseCorrelated checks correlated groups accepted and refused.
func TestParseCorrelated(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Correlated
		ok   bool
	}{
		{"off", Correlated{}, true},
		{"workers=3,coverage=0.5,subtype=0.3", Correlated{Workers: 3, Coverage: 0.5, Subtype: 0.3}, true},
		{"workers=2, coverage=1, subtype=0, from=2, to=1", Correlated{Workers: 2, Coverage: 1, From: 2, To: 1}, true},
		{"workers=3,coverage=0.5", Correlated{}, false},
		{"workers=0,coverage=0.5,subtype=0.3", Correlated{}, false},
		{"workers=3,coverage=0,subtype=0.3", Correlated{}, false},
		{"workers=3,coverage=0.5,subtype=0.3,from=1", Correlated{}, false},
		{"workers=3,coverage=0.5,subtype=0.3,from=1,to=1", Correlated{}, false},
		{"workers=3,workers=4,coverage=0.5,subtype=0.3", Correlated{}, false},
		{"workers=3,coverage=0.5,subtype=0.3,size=2", Correlated{}, false},
		{"workers", Correlated{}, false},
	} {
		got, err := ParseCorrelated(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseCorrelated(%q) = %+v, %v; want %+v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestParseAmbiguity checks ambiguities accepted and refused.
func TestParseAmbiguity(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Ambiguity
		ok   bool
	}{
		{"off", Ambiguity{}, true},
		{"vertex=3,base=0.5", Ambiguity{Vertex: 3, Base: 0.5}, true},
		{" base=0.2 , vertex=10", Ambiguity{Vertex: 10, Base: 0.2}, true},
		{"vertex=3", Ambiguity{}, false},
		{"vertex=0,base=0.5", Ambiguity{}, false},
		{"vertex=3,base=-1", Ambiguity{}, false},
		{"vertex=3,base=Inf", Ambiguity{}, false},
		{"vertex=3,base=x", Ambiguity{}, false},
		{"vertex=3,vertex=4,base=1", Ambiguity{}, false},
		{"vertex=3,base=1,spread=2", Ambiguity{}, false},
		{"3,0.5", Ambiguity{}, false},
	} {
		got, err := ParseAmbiguity(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseAmbiguity(%q) = %+v, %v; want %+v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestParseRanges checks accuracy ranges accepted and refused.
func TestParseRanges(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []Range
		ok   bool
	}{
		{"0.55:0.95", []Range{{0.55, 0.95}}, true},
		{"0.75:0.98, 0.5:0.5", []Range{{0.75, 0.98}, {0.5, 0.5}}, true},
		{"0.9:0.8", nil, false},
		{"0:0.5", nil, false},
		{"0.5:1", nil, false},
		{"0.5", nil, false},
	} {
		got, err := ParseRanges(c.in)
		if (err == nil) != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseRanges(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestSizes checks the defaults Sizes fills in.
func TestSizes(t *testing.T) {
	for _, c := range []struct {
		cfg             Settings
		workers, per, k int
	}{
		{Settings{}, 20, 20, 2},
		{Settings{Workers: 5, LabelsPerTask: 3, Classes: 4}, 5, 3, 4},
		{Settings{Workers: 5, LabelsPerTask: 9}, 5, 5, 2},
		{Settings{ClassPrior: []float64{0.2, 0.3, 0.5}}, 20, 20, 3},
	} {
		w, p, k := c.cfg.Sizes()
		if w != c.workers || p != c.per || k != c.k {
			t.Errorf("%+v: Sizes() = %d, %d, %d; want %d, %d, %d", c.cfg, w, p, k, c.workers, c.per, c.k)
		}
	}
}

package sim

import (
	"errors"
	"reflect"
	"testing"

	"github.com/consensuslab/consensus/noise"
)

func TestWithPopulation(t *testing.T) {
	share, decay := 0.25, 1.5
	two := []Range{{0.7, 0.9}, {0.6, 0.8}}
	for _, tc := range []struct {
		name    string
		c       Settings
		p       Population
		want    ParamSampler // the Params of the result, when err is nil
		err     error
		counted *RangeCountError
	}{
		{name: "nothing given", c: Settings{Noise: noise.GLAD{}}},
		{name: "ds from default", c: Settings{Noise: noise.DS{}}, p: Population{Accuracy: two, NearRandom: &share, ErrorDecay: &decay},
			want: DSParams{Diag: two, NearRandom: 0.25, ErrorDecay: 1.5}},
		{name: "ds on top of a regime's", c: Settings{Noise: noise.DS{}, Params: DSParams{Diag: two, NearRandom: 0.1}}, p: Population{ErrorDecay: &decay},
			want: DSParams{Diag: two, NearRandom: 0.1, ErrorDecay: 1.5}},
		{name: "onecoin", c: Settings{Noise: noise.OneCoin{}}, p: Population{Accuracy: two[:1], NearRandom: &share},
			want: OneCoinParams{Accuracy: two[0], NearRandom: 0.25}},
		{name: "onecoin decay", c: Settings{Noise: noise.OneCoin{}}, p: Population{ErrorDecay: &decay}, err: ErrOneCoinDecay},
		{name: "onecoin two ranges", c: Settings{Noise: noise.OneCoin{}}, p: Population{Accuracy: two}, err: ErrOneCoinRanges},
		{name: "glad", c: Settings{Noise: noise.GLAD{}}, p: Population{NearRandom: &share}, err: ErrNotRanged},
		{name: "default noise is glad", p: Population{NearRandom: &share}, err: ErrNotRanged},
		{name: "two ranges, three classes", c: Settings{Noise: noise.DS{}, Classes: 3}, p: Population{Accuracy: two},
			counted: &RangeCountError{Ranges: 2, Classes: 3}},
		{name: "regime's ranges, three classes", c: Settings{Noise: noise.DS{}, Classes: 3, Params: DSParams{Diag: two}},
			counted: &RangeCountError{Ranges: 2, Classes: 3}},
	} {
		got, err := tc.c.WithPopulation(tc.p)
		var rc *RangeCountError
		switch {
		case tc.counted != nil:
			if !errors.As(err, &rc) || *rc != *tc.counted {
				t.Errorf("%s: error %v, want %v", tc.name, err, tc.counted)
			}
		case tc.err != nil || err != nil:
			if !errors.Is(err, tc.err) {
				t.Errorf("%s: error %v, want %v", tc.name, err, tc.err)
			}
		case !reflect.DeepEqual(got.Params, tc.want):
			t.Errorf("%s: params %#v, want %#v", tc.name, got.Params, tc.want)
		}
	}
}

// TestChecks holds the messages of Settings.CheckParams and CheckGroup.
func TestChecks(t *testing.T) {
	params, group := Settings.CheckParams, Settings.CheckGroup
	for _, tc := range []struct {
		name  string
		check func(Settings) error
		c     Settings
		want  string
	}{
		{"no parameters", params, Settings{Noise: noise.GLAD{}}, ""},
		{"no noise model", params, Settings{Params: DSParams{}}, ""},
		{"match", params, Settings{Noise: noise.DS{}, Params: DSParams{}}, ""},
		{"mismatch", params, Settings{Noise: noise.GLAD{}, Params: DSParams{}}, "the parameters draw ds workers, not glad ones"},
		{"no group", group, Settings{}, ""},
		{"fits", group, Settings{Workers: 10, LabelsPerTask: 5, Correlated: Correlated{Workers: 3, Coverage: 1, To: 1}}, ""},
		{"all the workers", group, Settings{Workers: 10, Correlated: Correlated{Workers: 10}},
			"workers=10: the group must leave some of the 10 workers outside it"},
		{"more than the labels", group, Settings{Workers: 10, LabelsPerTask: 3, Correlated: Correlated{Workers: 4}},
			"workers=4: more than the 3 labels of an object"},
		{"class out of range", group, Settings{Correlated: Correlated{Workers: 2, From: 0, To: 2}},
			"from=0,to=2: the classes are 0 to 1"},
	} {
		got := ""
		if err := tc.check(tc.c); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

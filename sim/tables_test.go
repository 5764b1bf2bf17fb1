package sim

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// TestWriteWorkersArguments checks that WriteWorkers returns an error
// wrapping ErrArgument on a nil data set or noise model or a truth of
// another noise model, instead of panicking, and writes the workers of its
// own simulation.
func TestWriteWorkersArguments(t *testing.T) {
	d, tr, err := Simulate(Settings{Tasks: 20, Workers: 4, Classes: 3, LabelsPerTask: 2, Noise: noise.DS{}, Latent: latent.LA{}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, c := range []struct {
		name string
		err  error
		want string // "" for no error
	}{
		{"good", tr.WriteWorkers(&b, "", d, noise.DS{}), ""},
		{"nil data", tr.WriteWorkers(&b, "", nil, noise.DS{}), "without a data set or a noise model"},
		{"nil model", tr.WriteWorkers(&b, "", d, nil), "without a data set or a noise model"},
		{"other model", tr.WriteWorkers(&b, "", d, noise.OneCoin{}), "not onecoin's on 4 workers and 20 tasks"},
	} {
		switch {
		case c.want == "" && c.err != nil:
			t.Errorf("%s: error %v", c.name, c.err)
		case c.want != "" && (!errors.Is(c.err, ErrArgument) || !strings.Contains(c.err.Error(), c.want)):
			t.Errorf("%s: error %v, want one wrapping ErrArgument with %q", c.name, c.err, c.want)
		}
	}
}

package compare

import (
	"context"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// TestBadArguments checks that Run and Auto return an error naming the
// problem, instead of panicking, on a nil data set or a nil estimator.
func TestBadArguments(t *testing.T) {
	d, err := simulate(latent.DA{}, noise.DS{}, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	nilEst := []model.Estimator{model.Model{Noise: noise.DS{}, Latent: latent.LA{}}, nil}
	for _, c := range []struct {
		name string
		run  func() error
		want string
	}{
		{"run/nil data", func() error { _, err := Run(ctx, nil, Settings{}); return err }, "no data set"},
		{"run/nil estimator", func() error { _, err := Run(ctx, d, Settings{Estimators: nilEst}); return err }, "estimator 1 is nil"},
		{"auto/nil data", func() error { _, err := Auto(ctx, nil, AutoSettings{}); return err }, "no data set"},
		{"auto/nil estimator", func() error { _, err := Auto(ctx, d, AutoSettings{Estimators: nilEst}); return err }, "estimator 1 is nil"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.run(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one with %q", err, c.want)
			}
		})
	}
}

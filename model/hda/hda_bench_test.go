package hda

import (
	"context"
	"testing"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/internal/benchdata"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// BenchmarkHDA times the hierarchical fit hda-X (HDA, empirical Bayes)
// against the maximum-likelihood da-X of the same noise model X on each
// shipped data set, one fit of each per iteration of the benchmark. It
// reports both fits' CPU seconds (da-cpu-s, hda-cpu-s; the wall time when
// the process CPU time is not available) and their ratio (ratio), which
// the hierarchical fits keep at most 3:
//
//	go test ./model -run '^$' -bench 'HDA/duchenne' -benchtime 1x
//
// Noise models that do not support a data set's number of classes (such
// as two-coin beyond K = 2) are skipped.
func BenchmarkHDA(b *testing.B) {
	for _, set := range []string{"rte", "temp", "duchenne", "websearch", "adult", "trec2010"} {
		d, _, err := datasets.Load(set)
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range model.NoiseModels() {
			if noise.CheckClasses(n, d.NumClasses()) != nil {
				continue
			}
			b.Run(set+"/"+n.Name(), func(b *testing.B) {
				da := model.Model{Noise: n, Latent: latent.DA{}}
				hda := HDA{Noise: n}
				var tda, thda time.Duration
				for b.Loop() {
					tda += cpuFit(b, da, d)
					thda += cpuFit(b, hda, d)
				}
				b.ReportMetric(tda.Seconds()/float64(b.N), "da-cpu-s")
				b.ReportMetric(thda.Seconds()/float64(b.N), "hda-cpu-s")
				b.ReportMetric(thda.Seconds()/tda.Seconds(), "ratio")
			})
		}
	}
}

// cpuFit fits est to d and returns the process CPU time the fit took (its
// wall time if CPU time is not available).
func cpuFit(b *testing.B, est model.Estimator, d *data.Dataset) time.Duration {
	start := time.Now()
	cpu0, ok0 := benchdata.CPUTime()
	if _, err := est.Fit(context.Background(), d, nil); err != nil {
		b.Fatal(err)
	}
	cpu1, ok1 := benchdata.CPUTime()
	if ok0 && ok1 {
		return cpu1 - cpu0
	}
	return time.Since(start)
}

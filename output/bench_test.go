package output

import (
	"bytes"
	"context"
	"testing"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/benchdata"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// BenchmarkConsensusIO writes the consensus of 2·10^5 tasks with 3 classes
// (label frequencies of 10^6 simulated labels) in every format and reads it
// back with ReadConsensus, the reader of eval --predictions.
func BenchmarkConsensusIO(b *testing.B) {
	d, err := benchdata.Get(1_000_000, 3, noise.DS{}, latent.DA{})
	if err != nil {
		b.Fatal(err)
	}
	r, err := model.RFE{}.Fit(context.Background(), d, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range dataio.Formats() {
		var buf bytes.Buffer
		b.Run("write/"+string(f), func(b *testing.B) {
			for b.Loop() {
				buf.Reset()
				if err := WriteConsensus(&buf, r, 1, f); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(buf.Len()))
			b.ReportMetric(float64(d.NumTasks())*float64(b.N)/b.Elapsed().Seconds(), "tasks/s")
		})
		b.Run("read/"+string(f), func(b *testing.B) {
			b.SetBytes(int64(buf.Len()))
			for b.Loop() {
				p, err := ReadConsensus(bytes.NewReader(buf.Bytes()), "c."+string(f), "")
				if err != nil || len(p.Tasks) != d.NumTasks() {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(d.NumTasks())*float64(b.N)/b.Elapsed().Seconds(), "tasks/s")
		})
	}
}

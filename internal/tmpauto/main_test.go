package tmpauto

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/data"
	_ "github.com/consensuslab/consensus/model/all"
)

func TestAutoEBCC(t *testing.T) {
	var sets []*data.Dataset
	var names []string
	for _, n := range []string{"rte", "temp", "duchenne", "websearch", "adult", "trec2010"} {
		d, _, err := datasets.Load(n)
		if err != nil {
			t.Fatal(err)
		}
		sets, names = append(sets, d), append(names, n)
	}
	for _, f := range []string{"c1", "c2", "sparse", "light", "oc2", "ds5", "gl5", "many-classes", "spammers"} {
		fh, err := os.Open("/tmp/r39/" + f + ".csv")
		if err != nil {
			t.Fatal(err)
		}
		d, err := dataio.ReadLabels(context.Background(), fh, f, dataio.ReadSettings{})
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		sets, names = append(sets, d), append(names, f)
	}
	for i, d := range sets {
		ch, err := compare.Auto(context.Background(), d, compare.AutoSettings{Models: []string{"vb-ds", "vb-onecoin", "vb-glad", "ebcc"}})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(os.Stderr, "%s: %s", names[i], ch.Model)
		for _, c := range ch.Candidates {
			fmt.Fprintf(os.Stderr, " %s=%.4f", c.Model, c.Score)
		}
		fmt.Fprintln(os.Stderr)
	}
}

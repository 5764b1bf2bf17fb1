package output_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/output"
)

func fitted() *model.Result {
	const labels = `task,worker,label
img1,ann,cat
img1,bob,cat
img1,cid,dog
img2,ann,dog
img2,bob,dog
`
	d, err := dataio.ReadLabels(context.Background(), strings.NewReader(labels), "pets.csv", dataio.ReadSettings{})
	if err != nil {
		log.Fatal(err)
	}
	res, err := model.RFE{}.Fit(context.Background(), d, nil) // label frequencies
	if err != nil {
		log.Fatal(err)
	}
	return res
}

// The consensus table has Crowd-Kit's columns: task, label, then one
// probability column per class.
func ExampleWriteConsensus() {
	if err := output.WriteConsensus(os.Stdout, fitted(), 1, dataio.CSV); err != nil {
		log.Fatal(err)
	}
	// Output:
	// task,label,p_cat,p_dog
	// img1,cat,0.6666666666666666,0.3333333333333333
	// img2,dog,0,1
}

// JSON Lines has the same keys; pandas reads it with
// read_json(path, lines=True).
func ExampleWriteConsensus_jsonl() {
	if err := output.WriteConsensus(os.Stdout, fitted(), 1, dataio.JSONL); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {"task":"img1","label":"cat","p_cat":0.6666666666666666,"p_dog":0.3333333333333333}
	// {"task":"img2","label":"dog","p_cat":0,"p_dog":1}
}

// WriteConsensusFile picks the format from the extension (.csv, .tsv,
// .jsonl, .parquet, optionally .gz) and replaces the file atomically.
func ExampleWriteConsensusFile() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := dir + "/consensus.parquet"
	if err := output.WriteConsensusFile(path, "", fitted(), 1); err != nil {
		log.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	p, err := output.ReadConsensus(f, path, "")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Tasks, p.Classes, p.Probs[:2])
	// Output: [img1 img2] [cat dog] [0.6666666666666666 0.3333333333333333]
}

// ReadWorkers reads the worker table of fit --workers back, in any format:
// here the Dawid-Skene confusion matrix row of class cat.
func ExampleReadWorkers() {
	d, err := dataio.ReadLabels(context.Background(), strings.NewReader("task,worker,label\n1,ann,cat\n1,bob,cat\n2,ann,dog\n2,bob,cat\n"), "l.csv", dataio.ReadSettings{})
	if err != nil {
		log.Fatal(err)
	}
	m, err := model.ByName("la-ds")
	if err != nil {
		log.Fatal(err)
	}
	res, err := m.Fit(context.Background(), d, nil)
	if err != nil {
		log.Fatal(err)
	}
	var b bytes.Buffer
	if err := output.WriteWorkers(&b, res, dataio.Parquet); err != nil {
		log.Fatal(err)
	}
	w, err := output.ReadWorkers(&b, "workers.parquet", "", []string{"p[cat,cat]", "p[cat,dog]"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(w.Workers, w.Columns, len(w.Values))
	// Output: [ann bob] [p[cat,cat] p[cat,dog]] 4
}

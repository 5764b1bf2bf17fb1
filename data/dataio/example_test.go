package dataio_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
)

func ExampleReadLabels() {
	const labels = `task,worker,label
img1,alice,cat
img1,bob,dog
img2,alice,dog
img2,carol,dog
`
	d, err := dataio.ReadLabels(context.Background(), strings.NewReader(labels), "pets.csv", dataio.ReadSettings{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Name, d.Classes)
	fmt.Println(d.NumTasks(), "tasks,", d.NumWorkers(), "workers,", d.NumLabels(), "labels")
	// Output:
	// pets [cat dog]
	// 2 tasks, 3 workers, 4 labels
}

func ExampleReadLabels_options() {
	// A semicolon-separated file with its own column names, extra columns
	// and numeric classes, one of which no worker chose.
	const labels = `item;annotator;time;grade
q1;w1;12;10
q1;w2;7;2
q2;w1;9;1
`
	d, err := dataio.ReadLabels(context.Background(), strings.NewReader(labels), "grades.txt", dataio.ReadSettings{
		Sep:          ';',
		TaskColumn:   "item",
		WorkerColumn: "annotator",
		LabelColumn:  "grade",
		Classes:      []string{"1", "2", "5", "10"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Classes)
	// Output:
	// [1 2 5 10]
}

func ExampleReadLabels_error() {
	const labels = "task;worker;label\nimg1;alice;cat\n"
	_, err := dataio.ReadLabels(context.Background(), strings.NewReader(labels), "pets.csv", dataio.ReadSettings{})
	fmt.Println(err)
	// Output:
	// pets.csv:1: header has 1 column 'task;worker;label' but no 'task', 'worker' or 'label' column; is the separator ';'?
}

func ExampleReadGold() {
	d, err := dataio.ReadLabels(context.Background(), strings.NewReader(`task,worker,label
img1,alice,cat
img1,bob,dog
img2,alice,dog
`), "pets.csv", dataio.ReadSettings{})
	if err != nil {
		log.Fatal(err)
	}
	g, err := dataio.ReadGold(context.Background(), strings.NewReader(`task,label
img1,cat
img9,dog
`), "gold.csv", d, dataio.ReadSettings{})
	if err != nil {
		log.Fatal(err)
	}
	for i, j := range g.Task {
		fmt.Println(d.Tasks[j], d.Classes[g.Label[i]])
	}
	fmt.Println("without noisy labels:", g.Unmatched, g.UnmatchedTasks)
	// Output:
	// img1 cat
	// without noisy labels: 1 [img9]
}

func ExampleDataset_Stats() {
	d, err := dataio.ReadLabels(context.Background(), strings.NewReader(`task,worker,label
1,a,0
1,a,1
1,b,0
2,b,1
`), "votes.csv", dataio.ReadSettings{})
	if err != nil {
		log.Fatal(err)
	}
	s := d.Stats()
	fmt.Printf("K=%d tasks=%d workers=%d labels=%d labels/task=%.2f duplicate pairs=%d\n",
		s.Classes, s.Tasks, s.Workers, s.Labels, s.LabelsPerTask, s.DuplicatePairs)
	// Output:
	// K=2 tasks=2 workers=2 labels=4 labels/task=2.00 duplicate pairs=1
}

func ExampleInputError() {
	err := &dataio.InputError{File: "labels.csv", Line: 7, Msg: "empty worker cell (column 2, 'worker')"}
	fmt.Println(err)
	// Output:
	// labels.csv:7: empty worker cell (column 2, 'worker')
}

// ReadTable reads any table of named columns, in any format, with the
// rules of the labels readers; Columns.More picks columns by the header.
func ExampleReadTable() {
	const in = `{"id":"a","p_x":0.25,"p_y":0.75}
{"id":"b","p_x":1,"p_y":0}
`
	cols := dataio.Columns{
		Names: []string{"id"},
		More: func(header []string) (names, roles []string, err error) {
			for _, h := range header {
				if strings.HasPrefix(h, "p_") {
					names = append(names, h)
				}
			}
			return names, nil, nil
		},
	}
	err := dataio.ReadTable(context.Background(), strings.NewReader(in), "p.jsonl", "", dataio.ReadSettings{}, cols, func(cells []string, line int) error {
		fmt.Println(line, cells)
		return nil
	})
	fmt.Println(err)
	// Output:
	// 1 [a 0.25 0.75]
	// 2 [b 1 0]
	// <nil>
}

// A model's initialisation reads the label frequencies one task at a time,
// into a buffer of its own, instead of a J×K matrix; WithClasses puts the
// known classes of some tasks in their place.
func ExampleDataset_FrequencyWeights() {
	const labels = `task,worker,label
img1,alice,cat
img1,bob,dog
img1,carol,dog
img2,alice,dog
`
	d, err := dataio.ReadLabels(context.Background(), strings.NewReader(labels), "pets.csv", dataio.ReadSettings{})
	if err != nil {
		log.Fatal(err)
	}
	// A row is valid until the next call with the same buffer: one each.
	b1, b2 := make([]float64, d.NumClasses()), make([]float64, d.NumClasses())
	freq := d.FrequencyWeights()
	known := data.WithClasses(freq, []int{-1, 0}) // img2 is known to be a cat
	for j, task := range d.Tasks {
		fmt.Printf("%s %.3f %.3f\n", task, freq.Row(j, b1), known.Row(j, b2))
	}
	// Output:
	// img1 [0.333 0.667] [0.333 0.667]
	// img2 [0.000 1.000] [1.000 0.000]
}

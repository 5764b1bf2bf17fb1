package output

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
)

// glad fits la-glad to labels whose tasks look like numbers.
func glad(t *testing.T, classes string) *model.Result {
	t.Helper()
	labels := "task,worker,label\n0001,a,X\n0001,b,X\n0001,c,Y\n0002,a,Y\n0002,b,Y\n0002,c,Y\n"
	labels = strings.NewReplacer("X", strings.Split(classes, ",")[0], "Y", strings.Split(classes, ",")[1]).Replace(labels)
	d, err := dataio.ReadLabels(context.Background(), strings.NewReader(labels), "l.csv", dataio.ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	est, err := model.ByName("la-glad")
	if err != nil {
		t.Fatal(err)
	}
	res, err := est.Fit(context.Background(), d, &model.Settings{MaxIterations: 50, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestCrowdKitLayout writes the crowdkit layout in every format and reads
// it back: task and agg_label as text ("0001" keeps its zeros), one number
// column per class named by the class.
func TestCrowdKitLayout(t *testing.T) {
	res := glad(t, "cat,dog")
	p := func(j, z int) float64 { return res.Dist(j)[z] }
	for _, f := range dataio.Formats() {
		t.Run(string(f), func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteConsensusCrowdKit(&b, res, 1, f); err != nil {
				t.Fatal(err)
			}
			var task, label []string
			var probs [][2]float64
			switch f {
			case dataio.CSV, dataio.TSV:
				sep := map[dataio.Format]string{dataio.CSV: ",", dataio.TSV: "\t"}[f]
				lines := strings.Split(strings.TrimSpace(b.String()), "\n")
				if lines[0] != strings.Join([]string{"task", "agg_label", "cat", "dog"}, sep) {
					t.Fatalf("header %q", lines[0])
				}
				for _, l := range lines[1:] {
					c := strings.Split(l, sep)
					task, label = append(task, c[0]), append(label, c[1])
					probs = append(probs, [2]float64{parse(t, c[2]), parse(t, c[3])})
				}
			case dataio.JSONL:
				want := `{"task":"0001","agg_label":"cat","cat":` + FormatProb(p(0, 0)) + `,"dog":` + FormatProb(p(0, 1)) + "}"
				if first := strings.SplitN(b.String(), "\n", 2)[0]; first != want {
					t.Fatalf("first line %s, want %s", first, want)
				}
				task, label = []string{"0001", "0002"}, []string{"cat", "dog"}
				probs = [][2]float64{{p(0, 0), p(0, 1)}, {p(1, 0), p(1, 1)}}
			case dataio.Parquet:
				pf, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
				if err != nil {
					t.Fatal(err)
				}
				fs := pf.Schema().Fields()
				if len(fs) != 4 || fs[0].Name() != "task" || fs[0].Type().Kind() != parquet.ByteArray ||
					fs[1].Name() != "agg_label" || fs[1].Type().Kind() != parquet.ByteArray ||
					fs[2].Name() != "cat" || fs[2].Type().Kind() != parquet.Double || fs[3].Name() != "dog" {
					t.Fatalf("schema %v", pf.Schema())
				}
				rows := make([]parquet.Row, 4)
				rr := pf.RowGroups()[0].Rows()
				defer rr.Close()
				n, err := rr.ReadRows(rows)
				if err != nil && err != io.EOF {
					t.Fatal(err)
				}
				for _, r := range rows[:n] {
					task, label = append(task, r[0].String()), append(label, r[1].String())
					probs = append(probs, [2]float64{r[2].Double(), r[3].Double()})
				}
			}
			if strings.Join(task, " ") != "0001 0002" || strings.Join(label, " ") != "cat dog" {
				t.Errorf("tasks %q labels %q", task, label)
			}
			for j, pr := range probs {
				if pr[0] != p(j, 0) || pr[1] != p(j, 1) {
					t.Errorf("task %d: probabilities %v, want %v", j, pr, res.Dist(j))
				}
			}
		})
	}
}

func parse(t *testing.T, s string) float64 {
	t.Helper()
	var v float64
	if _, err := fmt.Sscan(s, &v); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// TestCrowdKitLayoutClash refuses a class named like a column.
func TestCrowdKitLayoutClash(t *testing.T) {
	for _, classes := range []string{"task,x", "agg_label,x"} {
		res := glad(t, classes)
		err := WriteConsensusCrowdKit(io.Discard, res, 1, dataio.CSV)
		if err == nil || !strings.Contains(err.Error(), "crowdkit layout") {
			t.Errorf("classes %s: error %v", classes, err)
		}
	}
	if _, err := ParseLayout("wide"); err == nil {
		t.Error("ParseLayout accepted an unknown layout")
	}
}

// TestWriteTasks writes GLAD's difficulties: d_j = exp of the object
// parameter, larger for the unanimous task.
func TestWriteTasks(t *testing.T) {
	res := glad(t, "cat,dog")
	diff := append(res.TaskValues(0, nil), res.TaskValues(1, nil)...)
	if len(diff) != 2 || !(diff[1] > diff[0]) || diff[0] <= 0 {
		t.Fatalf("difficulties %v: want two positive values, the unanimous task's larger", diff)
	}
	var b bytes.Buffer
	if err := WriteTasks(&b, res, dataio.CSV); err != nil {
		t.Fatal(err)
	}
	want := "task,labels,difficulty\n0001,3," + FormatProb(diff[0]) + "\n0002,3," + FormatProb(diff[1]) + "\n"
	if b.String() != want {
		t.Errorf("tasks table %q, want %q", b.String(), want)
	}
	rfe, _ := model.RFE{}.Fit(context.Background(), res.Data, nil)
	if rfe.TaskValues(0, nil) != nil || rfe.TaskColumns() != nil {
		t.Error("rfe has task parameters")
	}
}

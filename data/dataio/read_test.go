package dataio

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
)

func TestReadLabelsErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string // test and file name
		in    string
		opt   ReadSettings
		where string // expected "file:line:" or "file:" prefix
		want  []string
	}{
		{"empty.csv", "", ReadSettings{}, "empty.csv: ", []string{"empty", "header"}},
		{"blank.csv", "\n\n  \n", ReadSettings{}, "blank.csv: ", []string{"empty"}},
		{"blankhead.csv", "\n \t\nworker,label\n1,x\n", ReadSettings{}, "blankhead.csv:3: ", []string{"no 'task' column"}},
		{"bomonly.csv", "\xef\xbb\xbf", ReadSettings{}, "bomonly.csv: ", []string{"empty"}},
		{"semi.csv", "task;worker;label\n1;a;x\n", ReadSettings{}, "semi.csv:1: ", []string{"header has 1 column 'task;worker;label'", "is the separator ';'?", "[separator ;]"}},
		{"tabs.csv", "task\tworker\tlabel\n1\ta\tx\n", ReadSettings{}, "tabs.csv:1: ", []string{"1 column", "separator a tab", "[separator \t]"}},
		{"commas.tsv", "task,worker,label\n1,a,x\n", ReadSettings{}, "commas.tsv:1: ", []string{"1 column", "separator ','"}},
		{"nohead.csv", "1,a,x\n2,b,y\n", ReadSettings{}, "nohead.csv:1: ", []string{"3 columns '1', 'a', 'x'", "must be a header", "task,worker,label"}},
		{"nolabel.csv", "task,worker,answer\n1,a,x\n", ReadSettings{}, "nolabel.csv:1: ", []string{"'task', 'worker', 'answer'", "no 'label' column", "[columns column]"}},
		{"custom.csv", "task,worker,label\n1,a,x\n", ReadSettings{LabelColumn: "answer"}, "custom.csv:1: ", []string{"no 'answer' column"}},
		{"twice.csv", "task,worker,label,task\n1,a,x,1\n", ReadSettings{}, "twice.csv:1: ", []string{"'task' appears twice", "columns 1 and 4"}},
		{"same.csv", "task,worker,label\n1,a,x\n", ReadSettings{WorkerColumn: "task"}, "same.csv: ", []string{"same name 'task'"}},
		{"few.csv", "task,worker,label\n1,a,x\n2,b\n", ReadSettings{}, "few.csv:3: ", []string{"too few fields", "row has 2", "header has 3"}},
		{"many.csv", "task,worker,label\n1,a,x\n2,b,y,z\n", ReadSettings{}, "many.csv:3: ", []string{"too many fields", "row has 4"}},
		{"extrafew.csv", "task,worker,label,note\n1,a,x,n\n2,b,y\n", ReadSettings{}, "extrafew.csv:3: ", []string{"too few fields"}},
		{"emptytask.csv", "task,worker,label\n1,a,x\n,b,y\n", ReadSettings{}, "emptytask.csv:3: ", []string{"empty task cell", "column 1"}},
		{"emptyworker.csv", "task,worker,label\n1,a,x\n2,  ,y\n", ReadSettings{}, "emptyworker.csv:3: ", []string{"empty worker cell", "column 2"}},
		{"emptylabel.csv", "label,task,worker\n\"\",1,a\n", ReadSettings{}, "emptylabel.csv:2: ", []string{"empty label cell", "column 1"}},
		{"openquote.csv", "task,worker,label\n1,a,x\n\"2,b,y\n3,c,z\n", ReadSettings{}, "openquote.csv:3: ", []string{"unbalanced quote", "does not end", "line 4"}},
		{"badquote.csv", "task,worker,label\n1,a,x\n\"2\"x,b,y\n", ReadSettings{}, "badquote.csv:3: ", []string{"unbalanced quote", "column 3"}},
		{"closequote.csv", "task,worker,label\n1,a,x\n2,\"b\"c,y\n", ReadSettings{}, "closequote.csv:3: ", []string{"unbalanced quote near column 5"}},
		{"latin1.csv", "task,worker,label\n1,a,x\n2,Jos\xe9,y\n", ReadSettings{}, "latin1.csv:3: ", []string{"invalid UTF-8", "0xE9", "worker cell", "column 3"}},
		{"latin1head.csv", "t\xe2che,worker,label\n1,a,x\n", ReadSettings{}, "latin1head.csv:1: ", []string{"invalid UTF-8", "header"}},
		{"zip.csv", "PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00\xff\xfe,a,b\n", ReadSettings{}, "zip.csv:1: ", []string{"zip archive", "CSV"}},
		{"outside.csv", "task,worker,label\n1,a,x\n2,b,q\n", ReadSettings{Classes: []string{"x", "y"}}, "outside.csv:3: ", []string{`label "q"`, "x,y", "[classes]"}},
		{"oneclass.csv", "task,worker,label\n1,a,x\n2,b,x\n", ReadSettings{}, "oneclass.csv: ", []string{"only one class, 'x'", "at least two", "[one class x]"}},
		{"oneopt.csv", "task,worker,label\n1,a,x\n", ReadSettings{Classes: []string{"x"}}, "oneopt.csv: ", []string{"only one class", "[classes]"}},
		{"dupopt.csv", "task,worker,label\n1,a,x\n", ReadSettings{Classes: []string{"x", "y", "x"}}, "dupopt.csv: ", []string{"'x' twice"}},
		{"norows.csv", "task,worker,label\n", ReadSettings{}, "norows.csv: ", []string{"no data rows", "line 1"}},
		{"norowsblank.csv", "task,worker,label\r\n\r\n  \r\n", ReadSettings{}, "norowsblank.csv: ", []string{"no data rows"}},
		{"multiline.csv", "task,worker,label\n\"1\n1\",a,x\n2,b,y,z\n", ReadSettings{}, "multiline.csv:4: ", []string{"too many fields"}},
		{"multicell.csv", "task,worker,label\n\"1\n1\",,x\n", ReadSettings{}, "multicell.csv:3: ", []string{"empty worker cell"}},
		{"space.csv", "task worker label\n1 a x\n", ReadSettings{}, "space.csv:1: ", []string{"1 column 'task worker label'", "separator a space?", "[separator  ]"}},
		{"pipe.csv", "task|worker|label\n1|a|x\n", ReadSettings{}, "pipe.csv:1: ", []string{"separator '|'"}},
		{"mac.csv", "task,worker,label\r1,a,x\r1,b,y\r", ReadSettings{}, "mac.csv:1: ", []string{"carriage return alone", `convert them to \n or \r\n`}},
		{"mac.tsv", "task\tworker\tlabel\r1\ta\tx\r", ReadSettings{}, "mac.tsv:1: ", []string{"old Mac line ends"}},
		{"myspace.csv", "task,worker,my label\n1,a,x\n", ReadSettings{}, "myspace.csv:1: ", []string{"'my label'", "no 'label' column", "[columns column]"}},
		{"long.csv", "task,worker," + strings.Repeat("é", 30) + "\n", ReadSettings{}, "long.csv:1: ", []string{"'" + strings.Repeat("é", 20) + "…'"}},
		{"sep.csv", "task,worker,label\n", ReadSettings{Sep: '"'}, "sep.csv: ", []string{"invalid separator"}},
		{"", "task,worker\n", ReadSettings{}, "<input>:1: ", []string{"no 'label' column"}},
		{"-", "task,worker\n", ReadSettings{}, "<stdin>:1: ", []string{"no 'label' column"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadLabels(ctx, strings.NewReader(tc.in), tc.name, tc.opt)
			if err == nil {
				t.Fatalf("no error, got %d labels", d.NumLabels())
			}
			t.Log(err)
			checkInputError(t, err, tc.where, tc.want)
		})
	}
}

// hintTag describes the Hint of e for the tables of expected messages,
// such as "[separator ;]".
func hintTag(e *InputError) string {
	name := map[Hint]string{HintSeparator: "separator", HintColumns: "columns", HintClasses: "classes", HintOneClass: "one class", HintFormat: "format"}[e.Hint]
	if name == "" {
		return ""
	}
	if e.Arg != "" {
		name += " " + e.Arg
	}
	return " [" + name + "]"
}

func checkInputError(t *testing.T, err error, where string, want []string) {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v is %T, not *InputError", err, err)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") {
		t.Errorf("message has several lines: %q", msg)
	}
	if strings.Contains(msg, "--") {
		t.Errorf("message %q names an option of a program", msg)
	}
	if !strings.HasPrefix(msg, where) {
		t.Errorf("message %q does not start with %q", msg, where)
	}
	msg += hintTag(ie)
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not contain %q", msg, w)
		}
	}
}

func TestReadLabelsFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.csv")
	_, err := LoadLabels(ctx, missing, "", ReadSettings{})
	checkInputError(t, err, missing+": ", []string{"cannot open", "no such file"})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("errors.Is(%v, fs.ErrNotExist) = false", err)
	}
	_, err = LoadLabels(ctx, dir, "", ReadSettings{})
	checkInputError(t, err, dir+": ", []string{"directory"})

	empty := filepath.Join(dir, "empty.csv")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadLabels(ctx, empty, "", ReadSettings{})
	checkInputError(t, err, empty+": ", []string{"empty"})

	trunc := filepath.Join(dir, "trunc.csv.gz")
	z := gzipped("task,worker,label\n1,a,x\n2,b,y\n")
	if err := os.WriteFile(trunc, z[:len(z)-6], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadLabels(ctx, trunc, "", ReadSettings{})
	checkInputError(t, err, trunc+": ", []string{"compressed"})
}

// labelsOf returns the labels of d as "task/worker/class" strings in task
// order.
func labelsOf(d *data.Dataset) []string {
	var out []string
	for j, task := range d.Tasks {
		w, l := d.TaskLabels(j)
		for i := range w {
			out = append(out, task+"/"+d.Workers[w[i]]+"/"+d.Classes[l[i]])
		}
	}
	return out
}

func TestReadLabelsAccepts(t *testing.T) {
	plain := []string{"1/a/x", "1/b/y", "2/a/y"}
	for _, tc := range []struct {
		name    string
		in      string
		opt     ReadSettings
		labels  []string
		classes []string
	}{
		{"plain.csv", "task,worker,label\n1,a,x\n1,b,y\n2,a,y\n", ReadSettings{}, plain, []string{"x", "y"}},
		{"noeol.csv", "task,worker,label\n1,a,x\n1,b,y\n2,a,y", ReadSettings{}, plain, []string{"x", "y"}},
		{"bom.csv", "\xef\xbb\xbftask,worker,label\n1,a,x\n1,b,y\n2,a,y\n", ReadSettings{}, plain, []string{"x", "y"}},
		{"crlf.csv", "task,worker,label\r\n1,a,x\r\n1,b,y\r\n2,a,y\r\n", ReadSettings{}, plain, []string{"x", "y"}},
		{"space.csv", " task , worker ,label\t\n 1 ,a,  x \n\n   \n1,\tb,y\n2, a , y\n", ReadSettings{}, plain, []string{"x", "y"}},
		{"quotes.csv", "\"task\",\"worker\",\"label\"\n\"1\",\"a\",\"x\"\n1, \"b\",y\n\"2\",a,\"y\"\n", ReadSettings{}, plain, []string{"x", "y"}},
		{"quoted.csv", "task,worker,label\n\"a, \"\"b\"\"\",w,x\n\"multi\r\nline\",w,y\n", ReadSettings{},
			[]string{`a, "b"/w/x`, "multi\nline/w/y"}, []string{"x", "y"}},
		{"order.csv", "label,extra,worker,task\nx,e,a,1\ny,,b,1\ny,e,a,2\n", ReadSettings{}, plain, []string{"x", "y"}},
		{"case.csv", "Task,WORKER,Label\n1,a,x\n1,b,y\n2,a,y\n", ReadSettings{}, plain, []string{"x", "y"}},
		{"tab.tsv", "task\tworker\tlabel\n1\ta\tx\n1\tb\ty\n2\ta\ty\n", ReadSettings{}, plain, []string{"x", "y"}},
		{"tab.TAB", "task\tworker\tlabel\n1\t a \tx\n1\tb\ty \n2\ta\ty\n", ReadSettings{}, plain, []string{"x", "y"}},
		{"semi.txt", "task;worker;label\n1;a;x\n1;b;y\n2;a;y\n", ReadSettings{Sep: ';'}, plain, []string{"x", "y"}},
		{"columns.csv", "item,annotator,answer,task\n1,a,x,9\n1,b,y,9\n2,a,y,9\n",
			ReadSettings{TaskColumn: "item", WorkerColumn: "annotator", LabelColumn: "answer"}, plain, []string{"x", "y"}},
		{"numeric.csv", "task,worker,label\n1,a,10\n1,b,2\n2,a,1\n", ReadSettings{},
			[]string{"1/a/10", "1/b/2", "2/a/1"}, []string{"1", "2", "10"}},
		{"lexical.csv", "task,worker,label\n1,a,b10\n1,b,b2\n2,a,a1\n", ReadSettings{},
			[]string{"1/a/b10", "1/b/b2", "2/a/a1"}, []string{"a1", "b10", "b2"}},
		{"classes.csv", "task,worker,label\n1,a,x\n1,b,y\n2,a,y\n", ReadSettings{Classes: []string{"z", " y", "x"}}, plain, []string{"z", "y", "x"}},
		{"grouped.csv", "task,worker,label\n2,a,y\n1,a,x\n1,b,y\n", ReadSettings{},
			[]string{"2/a/y", "1/a/x", "1/b/y"}, []string{"x", "y"}},
		{"dups.csv", "task,worker,label\n1,a,x\n1,a,x\n1,a,y\n", ReadSettings{},
			[]string{"1/a/x", "1/a/x", "1/a/y"}, []string{"x", "y"}},
		{"plain.csv.gz", "\x00gzip", ReadSettings{}, plain, []string{"x", "y"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			if tc.in == "\x00gzip" {
				in = gzipped("\xef\xbb\xbftask,worker,label\n1,a,x\n1,b,y\n2,a,y\n")
			}
			d, err := ReadLabels(ctx, bytes.NewReader(in), "dir/"+tc.name, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Validate(); err != nil {
				t.Fatal(err)
			}
			if got := labelsOf(d); !slices.Equal(got, tc.labels) {
				t.Errorf("labels %q, want %q", got, tc.labels)
			}
			if !slices.Equal(d.Classes, tc.classes) {
				t.Errorf("classes %q, want %q", d.Classes, tc.classes)
			}
			if want := strings.SplitN(tc.name, ".", 2)[0]; d.Name != want {
				t.Errorf("name %q, want %q", d.Name, want)
			}
		})
	}
}

func TestReadLabelsFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "votes.tsv.gz")
	if err := os.WriteFile(path, gzipped("task\tworker\tlabel\n1\ta\tx\n1\tb\ty\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := LoadLabels(ctx, path, "", ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "votes" || d.NumLabels() != 2 || d.NumClasses() != 2 {
		t.Errorf("got name %q, %d labels, %d classes", d.Name, d.NumLabels(), d.NumClasses())
	}
	gold := filepath.Join(dir, "gold.tsv")
	if err := os.WriteFile(gold, []byte("task\tlabel\n1\ty\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := LoadGold(ctx, gold, "", d, ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() != 1 || d.Classes[g.Label[0]] != "y" {
		t.Errorf("gold %+v", g)
	}
}

func gzipped(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func readTestLabels(t *testing.T) *data.Dataset {
	t.Helper()
	d, err := ReadLabels(ctx, strings.NewReader("task,worker,label\n1,a,x\n1,b,y\n2,a,y\n3,b,z\n"), "labels.csv", ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestReadGold(t *testing.T) {
	d := readTestLabels(t)
	for _, tc := range []struct {
		name      string
		in        string
		opt       ReadSettings
		task      []int32
		label     []string
		unmatched []string
		count     int
	}{
		{"gold.csv", "task,label\n1,x\n2,y\n", ReadSettings{}, []int32{0, 1}, []string{"x", "y"}, nil, 0},
		{"order.csv", "label,note,task\nz,n,3\nx,,1\n", ReadSettings{}, []int32{2, 0}, []string{"z", "x"}, nil, 0},
		{"withworker.csv", "task,worker,label\n1,w,x\n", ReadSettings{}, []int32{0}, []string{"x"}, nil, 0},
		{"dup.csv", "task,label\n1,x\n2,y\n1, x\n", ReadSettings{}, []int32{0, 1}, []string{"x", "y"}, nil, 0},
		{"unmatched.csv", "task,label\n9,x\n1,x\n8,y\n9,x\n7,x\n6,x\n5,x\n4,x\n", ReadSettings{}, []int32{0}, []string{"x"},
			[]string{"9", "8", "7", "6", "5"}, 6},
		{"cols.tsv", "id\tgold\n2\ty\n", ReadSettings{TaskColumn: "id", LabelColumn: "gold"}, []int32{1}, []string{"y"}, nil, 0},
		{"bomcrlf.csv", "\xef\xbb\xbftask,label\r\n\"3\",z\r\n", ReadSettings{}, []int32{2}, []string{"z"}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadGold(ctx, strings.NewReader(tc.in), tc.name, d, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			var labels []string
			for _, l := range g.Label {
				labels = append(labels, d.Classes[l])
			}
			if !slices.Equal(g.Task, tc.task) || !slices.Equal(labels, tc.label) {
				t.Errorf("gold %v %q, want %v %q", g.Task, labels, tc.task, tc.label)
			}
			if g.Len() != len(tc.task) {
				t.Errorf("Len %d, want %d", g.Len(), len(tc.task))
			}
			if g.Unmatched != tc.count || !slices.Equal(g.UnmatchedTasks, tc.unmatched) {
				t.Errorf("unmatched %d %q, want %d %q", g.Unmatched, g.UnmatchedTasks, tc.count, tc.unmatched)
			}
		})
	}
}

func TestReadGoldErrors(t *testing.T) {
	d := readTestLabels(t)
	for _, tc := range []struct {
		name  string
		in    string
		opt   ReadSettings
		where string
		want  []string
	}{
		{"empty.csv", "", ReadSettings{}, "empty.csv: ", []string{"empty", "task,label"}},
		{"nolabel.csv", "task,answer\n1,x\n", ReadSettings{}, "nolabel.csv:1: ", []string{"no 'label' column", "'task', 'answer'"}},
		{"semi.csv", "task;label\n1;x\n", ReadSettings{}, "semi.csv:1: ", []string{"separator ';'"}},
		{"class.csv", "task,label\n1,x\n2,q\n", ReadSettings{}, "class.csv:3: ", []string{"gold label 'q'", "task '2'", "x,y,z"}},
		{"conflict.csv", "task,label\n1,x\n2,y\n1,y\n", ReadSettings{}, "conflict.csv:4: ", []string{"task '1'", "'y' here but 'x' on line 2"}},
		{"conflict2.csv", "task,label\n9,x\n9,y\n", ReadSettings{}, "conflict2.csv:3: ", []string{"task '9'", "on line 2"}},
		{"nomatch.csv", "task,label\n7,x\n8,y\n", ReadSettings{}, "nomatch.csv: ", []string{"none of the 2 gold tasks", "'7', '8'", "'1', '2', '3'", "same task identifiers"}},
		{"norows.csv", "task,label\n", ReadSettings{}, "norows.csv: ", []string{"no data rows"}},
		{"few.csv", "task,label\n1\n", ReadSettings{}, "few.csv:2: ", []string{"too few fields"}},
		{"emptytask.csv", "task,label\n1,x\n ,y\n", ReadSettings{}, "emptytask.csv:3: ", []string{"empty task cell"}},
		{"quote.csv", "task,label\n1,x\n\"2,y\n", ReadSettings{}, "quote.csv:3: ", []string{"unbalanced quote"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadGold(ctx, strings.NewReader(tc.in), tc.name, d, tc.opt)
			if err == nil {
				t.Fatal("no error")
			}
			t.Log(err)
			checkInputError(t, err, tc.where, tc.want)
		})
	}
	_, err := LoadGold(ctx, filepath.Join(t.TempDir(), "gold.csv"), "", d, ReadSettings{})
	checkInputError(t, err, filepath.Join(filepath.Dir(err.(*InputError).File), "gold.csv")+": ", []string{"cannot open"})
}

func TestStats(t *testing.T) {
	d, err := ReadLabels(ctx, strings.NewReader(`task,worker,label
1,a,x
1,a,x
1,a,y
1,b,x
2,b,y
2,b,y
2,c,x
3,a,x
`), "s.csv", ReadSettings{Classes: []string{"x", "y", "z"}})
	if err != nil {
		t.Fatal(err)
	}
	got := d.Stats()
	want := data.Stats{
		Classes: 3, Tasks: 3, Workers: 3, Labels: 8,
		LabelsPerTask: 8.0 / 3, MinLabelsPerTask: 1, MaxLabelsPerTask: 4,
		LabelsPerWorker: 8.0 / 3, MedianLabelsPerWorker: 3, // a: 4, b: 3, c: 1
		DuplicatePairs: 2, DuplicateLabels: 3, ConflictingPairs: 1,
	}
	if got != want {
		t.Errorf("Stats() = %+v\nwant %+v", got, want)
	}
	if s := (&data.Dataset{Classes: []string{"x"}, Offsets: []int{0}}).Stats(); s.LabelsPerTask != 0 || s.MedianLabelsPerWorker != 0 {
		t.Errorf("empty data set stats %+v", s)
	}
}

// BenchmarkReadLabels reads 1e6 generated rows: 50,000 tasks with 20 labels
// each from 2,000 workers, 5 classes.
func BenchmarkReadLabels(b *testing.B) {
	const rows = 1_000_000
	var buf bytes.Buffer
	buf.WriteString("task,worker,label\n")
	for i := range rows {
		fmt.Fprintf(&buf, "task%06d,worker%04d,%d\n", i/20, (i*7919)%2000, i%5)
	}
	benchRead(b, buf.Bytes(), rows)
}

// benchRead reads in, a CSV file of rows labels, with ReadLabels in a
// loop, and reports bytes and rows a second.
func benchRead(b *testing.B, in []byte, rows int) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		d, err := ReadLabels(ctx, bytes.NewReader(in), "bench.csv", ReadSettings{})
		if err != nil {
			b.Fatal(err)
		}
		if d.NumLabels() != rows {
			b.Fatalf("%d labels", d.NumLabels())
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// ctx is the context of the tests' reads.
var ctx = context.Background()

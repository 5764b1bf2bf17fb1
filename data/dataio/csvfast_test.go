package dataio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/internal/ingest"
	"github.com/consensuslab/consensus/internal/race"
)

// csvFastSeeds are inputs for the differential tests of csvLines.
var csvFastSeeds = []string{
	"task,worker,label,note\n\u0437\u0430\u0434\u0430\u0447\u0430,\u0440\u0430\u0431,\u043a\u043e\u0442,\xff\n\u00a0,w,x,n\nt,w,\u3000y\u0085,z\nt2,\xc3,x,n\n",
	"task,worker,label\n1,a,x\n1,b,y\n",
	"task,worker,label\r\n1,a,x\r\n\r\n2,b,y\r",
	"  task , worker ,label\n \n\t\n1, a ,x\r\r\n2,\u00a0b,y",
	"task,worker,label\n1,a,x\n\"2\",b,y\n3,c,\"z\nw\"\n",
	"task,worker,label\n1,a\"b,x\n",
	"task,worker,label\n1,a,x\n\"2,b,y\n",
	"task\tworker\tlabel\n1\t a\tx\n\n2\tb\t\"y\"\n",
	"task;worker;label\n1;a;x;\n2;;y\n3;c\n",
	"task§worker§label\n1§a§x\n2§\xffb§y\n",
	"a,b\n,\n , \n",
	"\n\n   \ntask,worker,label\n1,2,3",
	"task,worker,label\n1,2,3\r",
	"task,worker,label\n1,a,x\n2,b,y\n1,c,x\n3,a,z\n\n4, d ,y\n2,a,x\n",
	"label,x,task,worker\n a ,1,t1,w1\n b,2,t2,w2\r\nc,3,t1,w3\n\xc3\xa9,4,t3,w1\nb,5,t3,\u00a0w2\u00a0\n",
	"task,worker,label\n1,2,\r\r",
	"x,y,z\n1,2,3\n\"\n",
	"task,worker,label\n1,a,x\n2,b,NaN\n3,c,y\n",
	"task,worker,label\n1,a,x\nTask,Worker,LABEL\n3,c,y\n",
	"task,worker,label\n1,a,x\ntask,b,y\n3,c,y\n",
	// Quoted fields, as spreadsheets and R's write.csv write them.
	"\"task\",\"worker\",\"label\"\n\"t1\",\"w1\",\"x\"\n\"t1\",\"w2\",\"y\"\n\"t2\",\"w1\",\"x\"\n",
	"\"task\",\"worker\",\"label\"\n\"a,b\",\" w \",\"x\"\n\"c\",d,\"y\"\r\n\"a,b\",e,x\n",
	"\"task\",\"worker\",\"label\"\r\n\"1\",\"a\",\"x\"\r\n\"2\",\"b\",\"y\"\r",
	"\"task\",\"worker\",\"label\"\n\"1\",\"a\"\"b\",\"x\"\n\"2\",\"b\",\"y\"\n",
	"\"task\",\"worker\",\"label\"\n\"1\",a\"b,\"x\"\n\"2\",\"b\",\"y\"\n",
	"\"task\",\"worker\",\"label\"\n\"1\",\"a\nb\",\"x\"\n\"2\",\"b\",\"y\"\n",
	"\"ta\nsk\",\"worker\",\"label\"\n1,a,x\n2,b,y\n",
	"\"task\",\"worker\",\"label\"\n\"1\"x,a,x\n2,b,y\n",
	"\"task\",\"worker\",\"label\"\n\"\",a,x\n\" \",b,y\n\"3\",\"c\",\"\"\n4,d,y\n",
	"\"task\",\"worker\",\"label\"\n\"\u00e9\",\"a\",\"x\"\n\"\xff\",\"b\",\"y\"\n\"\u00a0c\u00a0\",d,x\n",
	"\"task\",\"worker\",\"label\"\n\"1\",\"a\"\n\"2\",\"b\",\"y\",\"z\"\n3,c,x\n",
	"\"task\",\"worker\",\"label\"\n \"1\",\"a\",\"x\"\n2,b,y\n",
	"task\tworker\tlabel\n1\t \"a\"\tx\n2 \"b\" y\n",
	"\"task\", \"worker\", \"label\"\n\"1\", \"a\",\t\"x\"\n\"2\", \"b\" , \"y\"\n3,\u00a0\"c\",x\n\"4\",\v\f\"d\",  y\n",
	"\xef\xbb\xbf\"task\",\"worker\",\"label\"\n\"1\",\"a\",\"x\"\n\"2\",\"b\",\"y\"\n",
	"ta\"sk,worker,label\n1,a,x\n2,b,y\n",
	"\"task\",\"worker\",\"label\"\n\"1\",\"a\",\"NaN\"\n\"2\",\"b\",\"y\"\n",
	"\"task\",\"worker\",\"label\"\n\"1\",\"a\",\"x\"\n\"Task\",\"worker\",\"label\"\n\"2\",\"b\",\"y\"\n",
	"\"task\",\"worker\",\"label\"\n\"1\",\"a\",\"x\"\n\"1\",\"b\",\"y\"\n\"2\",\"a\",\"x\"\n\"1\",\"c\",\"y\"\n",
	// Quotes inside unquoted cells, wanted or ignored, on lines that the
	// tokenizer takes and on lines after one that goes to encoding/csv.
	"task,worker,label,comment\nt1,w1,a,5\" screen\nt1,w2,b,ok\n",
	"task,worker,label,comment\nt1,w\"1,a\",5\" screen\"\nt1,w2,b,\"ok\nthen\"\nt2,w3\",b,5\"\"\n",
	"task\tworker\tlabel\tcomment\nt1\tw1\ta\t5\" \"screen\"\nt1\tw2\t\"b\"\"\"\t\"x\ny\"\nt\"2\tw\tb\tz\"\n",
	"task,worker,label,comment\nt1,w1,a,\"a\nb\"\nt1,w2,b,\"c\"d\"\n",
	"task,worker,label,comment\nt1,w1,a,\u00a0\"a\"b\nt1,w2,b,x\u00a0\"c\"\n",
}

// FuzzFastCSV checks that csvLines returns the records, field positions and
// errors of encoding/csv, with several separators, buffer sizes and read
// errors, and that ReadLabels and ReadGold give the same results and the
// same errors with and without it.
func FuzzFastCSV(f *testing.F) {
	for _, s := range csvFastSeeds {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, in []byte, mode uint8) {
		sep := []rune{',', '\t', ';', '§', ' '}[int(mode)%5]
		block := []int{1, 3, 16, fastBlock}[int(mode/5)%4]
		fail := mode&0x80 != 0
		compareRecords(t, in, sep, block, fail)
		compareReaders(t, in, sep)
	})
}

// TestFastCSVSeeds runs the differential checks of FuzzFastCSV on its seeds
// in every mode.
func TestFastCSVSeeds(t *testing.T) {
	for _, s := range csvFastSeeds {
		for _, sep := range []rune{',', '\t', ';', '§', ' '} {
			for _, block := range []int{1, 3, 16, fastBlock} {
				for _, fail := range []bool{false, true} {
					compareRecords(t, []byte(s), sep, block, fail)
				}
			}
			compareReaders(t, []byte(s), sep)
		}
	}
}

// compareRecords reads in with encoding/csv and with a csvLines whose first
// buffer holds block bytes, through a reader that returns a few bytes at a
// time and, if fail is set, an error after the input, and checks that they
// agree on every record, field position and error.
func compareRecords(t *testing.T, in []byte, sep rune, block int, fail bool) {
	t.Helper()
	source := func() io.Reader {
		var r io.Reader = iotest.HalfReader(bytes.NewReader(in))
		if fail {
			r = io.MultiReader(r, ingest.ErrReader{Err: errors.New("disk on fire")})
		}
		return r
	}
	trim := sep != '\t' && sep != ' '
	want := ingest.NewCSVReader(source(), sep, trim)
	got := &csvLines{r: source(), sep: sep, trim: trim, buf: make([]byte, 0, block)}
	for n := 0; ; n++ {
		wrec, werr := want.Read()
		grec, gerr := got.Read()
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Fatalf("%q sep %q: record %d: error %v, want %v", in, sep, n, gerr, werr)
		}
		if werr != nil {
			return
		}
		if !reflect.DeepEqual(wrec, grec) {
			t.Fatalf("%q sep %q: record %d is %q, want %q", in, sep, n, grec, wrec)
		}
		for i := range wrec {
			wl, wc := want.FieldPos(i)
			gl, gc := got.FieldPos(i)
			if wl != gl || wc != gc {
				t.Fatalf("%q sep %q: record %d field %d at %d:%d, want %d:%d", in, sep, n, i, gl, gc, wl, wc)
			}
		}
	}
}

// compareReaders reads in with ReadLabels, and gold labels from it with
// ReadGold, with and without the fast path, and checks that the results or
// the errors are the same.
func compareReaders(t *testing.T, in []byte, sep rune) {
	t.Helper()
	compareReadersWith(t, in, ReadSettings{Sep: sep})
	compareReadersWith(t, in, ReadSettings{Sep: sep, Classes: []string{"x", "y", "1", "3"}})
}

// compareReadersWith is compareReaders with the given options. It also
// reads in as a table of its first two columns through a reader that gives
// a few bytes at a time and then fails, with and without the fast path.
func compareReadersWith(t *testing.T, in []byte, opt ReadSettings) {
	t.Helper()
	sep := opt.Sep
	table := func(fast bool) string {
		defer func(old bool) { useFastCSV = old }(useFastCSV)
		useFastCSV = fast
		r := io.MultiReader(iotest.HalfReader(bytes.NewReader(in)), ingest.ErrReader{Err: errors.New("disk on fire")})
		var rows []string
		err := ReadTable(ctx, r, "t.csv", CSV, ReadSettings{Sep: sep}, Columns{Names: []string{"task", "worker"}}, func(cells []string, line int) error {
			rows = append(rows, fmt.Sprint(line, cells))
			return nil
		})
		return fmt.Sprint(rows, err)
	}
	if slow, fast := table(false), table(true); slow != fast {
		t.Fatalf("%q sep %q: a failing table reads %s, want %s", in, sep, fast, slow)
	}
	read := func(fast bool) (*data.Dataset, *data.Gold, string) {
		defer func(old bool) { useFastCSV = old }(useFastCSV)
		useFastCSV = fast
		d, err := ReadLabels(ctx, bytes.NewReader(in), "f.csv", opt)
		if err != nil {
			return nil, nil, err.Error()
		}
		g, err := ReadGold(ctx, bytes.NewReader(in), "g.csv", d, ReadSettings{Sep: sep, LabelColumn: "worker"})
		if err != nil {
			return d, nil, "gold: " + err.Error()
		}
		return d, g, ""
	}
	d1, g1, e1 := read(false)
	defer func(old int) { ingest.ChunkSize = old }(ingest.ChunkSize)
	defer func(old int) { ingest.ChunkThreads = old }(ingest.ChunkThreads)
	for _, threads := range []int{1, 2} { // one goroutine: rows straight into the Builder
		ingest.ChunkThreads = threads
		for _, size := range []int{1, 7, 64, 1 << 20} { // blocks of readChunks
			ingest.ChunkSize = size
			d2, g2, e2 := read(true)
			if e1 != e2 {
				t.Fatalf("%q sep %q blocks of %d, %d goroutines: error %q, want %q", in, sep, size, threads, e2, e1)
			}
			if !reflect.DeepEqual(d1, d2) || !reflect.DeepEqual(g1, g2) {
				t.Fatalf("%q sep %q blocks of %d, %d goroutines: fast path read %+v %+v, want %+v %+v", in, sep, size, threads, d2, g2, d1, g1)
			}
		}
	}
}

// TestFastCSVHandOver checks that a quote late in a large input hands the
// rest to encoding/csv with the right line numbers.
func TestFastCSVHandOver(t *testing.T) {
	var b strings.Builder
	b.WriteString("task,worker,label\n")
	for i := range 50000 {
		fmt.Fprintf(&b, "t%d,w%d,%d\n", i/3, i%97, i%2)
	}
	b.WriteString("\"t\",w,\"1\n")
	_, err := ReadLabels(ctx, strings.NewReader(b.String()), "big.csv", ReadSettings{})
	want := "big.csv:50002: unbalanced quote"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want it to start with %q", err, want)
	}
}

// TestFastCSVGuard checks that a memory limit stops the fast path on the
// same row, with the same message, as the row-by-row path.
func TestFastCSVGuard(t *testing.T) {
	var b strings.Builder
	b.WriteString("task,worker,label\n")
	for i := range 50000 {
		fmt.Fprintf(&b, "t%d,w%d,%d\n", i/3, i%997, i%2)
	}
	in := []byte(b.String())
	limits := []int64{100 << 10, 1 << 20, 4 << 20, 1 << 30}
	if race.Enabled {
		limits = []int64{100 << 10, 1 << 30} // a limit met, and one not
	}
	for _, limit := range limits {
		compareReadersWith(t, in, ReadSettings{Sep: ',', MaxMemory: limit})
	}
}

package dataio

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/internal/ingest"
)

// parseBoth reads one trimmed, non-empty line with jsonlReader.parse (the
// scan, then the general path) and with the general path alone, and fails
// t unless both give the same cells or the same error. It reports whether
// the scan (ingest.JSONLScan) accepted the line.
func parseBoth(t *testing.T, line []byte, names []string) bool {
	t.Helper()
	roles := names
	newReader := func() *jsonlReader {
		j, err := newJSONLReader(strings.NewReader(""), "t.jsonl", names, roles, nil)
		if err != nil {
			t.Fatal(err)
		}
		j.line, j.records = 1, 1
		return j
	}
	both, slow := newReader(), newReader()
	var scan ingest.JSONLScan
	scanCells := make([]string, len(names))
	scanOK := scan.Parse(line, names, scanCells)
	errBoth := both.parse(line)
	errSlow := slow.parseSlow(line)
	switch {
	case scanOK && errSlow != nil:
		t.Fatalf("%q: the scan accepts it, the general path says %v", line, errSlow)
	case scanOK && !slices.Equal(scanCells, slow.cells):
		t.Fatalf("%q: the scan gives %q, the general path %q", line, scanCells, slow.cells)
	case (errBoth == nil) != (errSlow == nil):
		t.Fatalf("%q: parse says %v, the general path %v", line, errBoth, errSlow)
	case errBoth != nil && errBoth.Error() != errSlow.Error():
		t.Fatalf("%q: parse says %q, the general path %q", line, errBoth, errSlow)
	case errBoth == nil && !slices.Equal(both.cells, slow.cells):
		t.Fatalf("%q: parse gives %q, the general path %q", line, both.cells, slow.cells)
	}
	if errBoth != nil {
		var ie *InputError
		if !errors.As(errBoth, &ie) {
			t.Fatalf("%q: error %v is %T", line, errBoth, errBoth)
		}
	}
	return scanOK
}

// TestJSONLFastPath runs lines through both paths of the JSON Lines reader:
// they must agree, and the fast path must take the lines marked fast.
func TestJSONLFastPath(t *testing.T) {
	names := []string{"task", "worker", "label"}
	for _, c := range []struct {
		line string
		fast bool // the fast path accepts it
	}{
		{`{"task":"t1","worker":"w1","label":"x"}`, true},
		{`{"label":"x","task":1,"worker":"w"}`, true},
		{`{ "task" : "a b" , "worker":"w", "label" : "x" }`, true},
		{`{"task":"  padded\t","worker":"w","label":"x"}`, true},
		{`{"task":"t\"q\\u00e9\n\u2028","worker":"w\/1","label":"x"}`, true},
		{`{"task":"caf\u00e9","worker":"日本","label":"\ud83d\ude00"}`, true},
		{`{"task":"Ωmega","worker":"w","label":"😀"}`, true},
		{`{"task":1e3,"worker":-0,"label":0.5E-7}`, true},
		{`{"task":-12.50,"worker":1E+2,"label":10}`, true},
		{`{"task":true,"worker":false,"label":"x"}`, true},
		{`{"task":"t","worker":"w","label":"x","extra":{"a":[1,{"b":null}],"c":"}"},"n":null}`, true},
		{`{"id":7,"task":"t","x":[],"worker":"w","y":{},"label":"x","z":"task"}`, true},
		{`{"extra":1,"extra":2,"task":"t","worker":"w","label":"x"}`, true},
		{`{"task":"t","worker":"w","label":"x","tasks":"u"}`, true},
		// The slow path reads these.
		{`{"Task":"t","worker":"w","label":"x"}`, false},
		{`{" task ":"t","worker":"w","label":"x"}`, false},
		{`{"task":"t","TASK":"u","worker":"w","label":"x"}`, false},
		{`{"Task":"t","TASK":"u","worker":"w","label":"x"}`, false},
		{`{"task":"t","worker":"w","label":"x","Label":"y"}`, false},
		{`{"ta\u0073k":"t","worker":"w","label":"x"}`, false},
		{`{"task":"t","worker":"w","label":"x","task":"u"}`, false},
		{`{"task":"t","worker":"w","label":"x","ta\u0073k":"u"}`, false},
		{`{"task":null,"worker":"w","label":"x"}`, false},
		{`{"task":"t","worker":{"id":1},"label":"x"}`, false},
		{`{"task":"t","worker":"w","label":["x"]}`, false},
		{`{"task":"","worker":"w","label":"x"}`, false},
		{`{"task":" \t ","worker":"w","label":"x"}`, false},
		{`{"task":"\u0020","worker":"w","label":"x"}`, false},
		{`{"task":"t","worker":"w"}`, false},
		{`{}`, false},
		{`{"task":"t","worker":"w","label":"x"} {"task":2}`, false},
		{`{"task":"t","worker":"w","label":"x"}x`, false},
		{`{"task":"t","worker":"w","label":"x"},`, false},
		{`{"task":"t","worker":"w","label":"x"`, false},
		{`{"task":"t","worker":"w","label":"x",}`, false},
		{`{"task":1,,"worker":"a","label":"x"}`, false},
		{`{"task":01,"worker":"a","label":"x"}`, false},
		{`{"task":1.,"worker":"a","label":"x"}`, false},
		{`{"task":+1,"worker":"a","label":"x"}`, false},
		{`{"task":'t',"worker":"a","label":"x"}`, false},
		{`{task:"t","worker":"a","label":"x"}`, false},
		{`{"task":"t\x","worker":"a","label":"x"}`, false},
		{`{"task":"t\ud800","worker":"a","label":"x"}`, false},
		{"{\"task\":\"t\tb\",\"worker\":\"a\",\"label\":\"x\"}", false},
		{"{\"task\":\"Jos\xe9\",\"worker\":\"a\",\"label\":\"x\"}", false},
		{`{"task":"t","worker":"w","label":"x","e":[1,2}`, false},
		{`{"task":"t","worker":"w","label":"x","e":tru}`, false},
		{`[{"task":"t","worker":"w","label":"x"}]`, false},
		{`"task"`, false},
		{`42`, false},
		{`null`, false},
	} {
		if got := parseBoth(t, []byte(c.line), names); got != c.fast {
			t.Errorf("%q: the fast path accepts it: %v, want %v", c.line, got, c.fast)
		}
	}
	// Two wanted keys, as for gold labels.
	if !parseBoth(t, []byte(`{"task":"t","label":"x","worker":"w"}`), []string{"task", "label"}) {
		t.Errorf("the fast path refuses a gold record")
	}
	parseBoth(t, []byte(`{"task":"t","worker":"w"}`), []string{"task", "label"})
}

// checkJSONLPaths runs every line of in through both paths of the JSON Lines
// reader, and through the first tier with and without the layout of the
// lines before it (checkLayout), for FuzzReadLabels.
func checkJSONLPaths(t *testing.T, in []byte) {
	var lines [][]byte
	for _, raw := range bytes.Split(in, []byte("\n")) {
		if line := bytes.TrimSpace(raw); len(line) > 0 {
			parseBoth(t, line, []string{"task", "worker", "label"})
			lines = append(lines, line)
		}
	}
	checkLayout(t, lines...)
	compareJSONLPaths(t, in, ReadSettings{})
}

// compareJSONLPaths reads in as JSON Lines record by record, and checks
// that reading records ahead in batches (readAhead), and reading them in
// parallel blocks (readJSONLChunks) on one and two goroutines with blocks
// of several sizes, give the same Dataset, or the same error.
func compareJSONLPaths(t *testing.T, in []byte, opt ReadSettings) {
	t.Helper()
	defer func(old bool) { jsonlChunks = old }(jsonlChunks)
	jsonlChunks = false
	d1, e1 := readSwitched(&jsonlAhead, false, in, "f.jsonl", JSONL, opt)
	check := func(how string, d2 *data.Dataset, e2 string) {
		t.Helper()
		if e1 != e2 {
			t.Fatalf("%.200q: error %q %s, %q record by record", in, e2, how, e1)
		}
		if !reflect.DeepEqual(d1, d2) {
			t.Fatalf("%.200q: %s %+v, record by record %+v", in, how, d2, d1)
		}
	}
	d2, e2 := readSwitched(&jsonlAhead, true, in, "f.jsonl", JSONL, opt)
	check("read ahead", d2, e2)
	defer func(old int) { ingest.ChunkSize = old }(ingest.ChunkSize)
	defer func(old int) { ingest.ChunkThreads = old }(ingest.ChunkThreads)
	for _, threads := range []int{1, 2} {
		ingest.ChunkThreads = threads
		for _, size := range []int{1, 7, 4096, 1 << 20} {
			ingest.ChunkSize = size
			d2, e2 := readSwitched(&jsonlChunks, true, in, "f.jsonl", JSONL, opt)
			check(fmt.Sprintf("in blocks of %d bytes on %d goroutines", size, threads), d2, e2)
		}
	}
}

// readSwitched reads in as labels in format f (from the name if empty)
// with the switch *flag set to on, and puts the switch back: the Dataset,
// or the error's text.
func readSwitched(flag *bool, on bool, in []byte, name string, f Format, opt ReadSettings) (*data.Dataset, string) {
	defer func(old bool) { *flag = old }(*flag)
	*flag = on
	d, err := ReadLabelsAs(ctx, bytes.NewReader(in), name, f, opt)
	if err != nil {
		return nil, err.Error()
	}
	return d, ""
}

// TestJSONLPaths checks that reading records ahead in batches, and in
// parallel blocks, gives the Dataset, or the error with its line, that
// reading them one by one gives: across the reader's buffer refills and
// the blocks' ends, with blank lines, records with escapes and nested
// values, a line longer than the buffer, and bad rows or labels after many
// good ones.
func TestJSONLPaths(t *testing.T) {
	body := func(n int, odd func(i int) string) []byte {
		var b bytes.Buffer
		for i := range n {
			if s := odd(i); s != "" {
				b.WriteString(s)
				continue
			}
			fmt.Fprintf(&b, `{"task":"t%d","worker":"w%d","label":"%d"}`+"\n", i/3, i%97, i%2)
		}
		return b.Bytes()
	}
	none := func(int) string { return "" }
	at := func(n int, line string) func(int) string { // line in place of row n
		return func(i int) string {
			if i == n {
				return line
			}
			return ""
		}
	}
	long := `{"task":"` + strings.Repeat("x", 70000) + `","worker":"w","label":"1"}` + "\n"
	for _, c := range []struct {
		name string
		in   []byte
		opt  ReadSettings
	}{
		{"plain", body(20000, none), ReadSettings{}},
		{"blank and spaced lines", body(20000, func(i int) string {
			switch i % 401 {
			case 7:
				return "\n"
			case 9:
				return "  \t\n"
			case 11, 12:
				return fmt.Sprintf(" \t{\"task\":\"t%d\",\"worker\":\"w%d\",\"label\":\"%d\"} \r\n", i/3, i%97, i%2)
			}
			return ""
		}), ReadSettings{}},
		{"later tiers", body(20000, func(i int) string {
			switch i % 333 {
			case 5:
				return fmt.Sprintf(`{"task":"t\u0041%d","worker":"w\"","label":"1"}`+"\n", i)
			case 6:
				return fmt.Sprintf(`{"task":"té%d","worker":"w","label":"0"}`+"\n", i)
			}
			return ""
		}), ReadSettings{}},
		{"escapes in every record, nested ignored values", body(20000, func(i int) string {
			switch i % 3 {
			case 0:
				return fmt.Sprintf(`{"task": "\u0437-t%d", "worker": "w%d\u00e9\ud83d\ude00", "label": "%d", "n": "\ud800"}`+"\n", i/3, i%97, i%2)
			case 1:
				return fmt.Sprintf(`{"task":"t%d","worker":"w%d","label":"%d","e":{"a":[1,"\u00e9",{}]}}`+"\n", i/3, i%97, i%2)
			}
			return ""
		}), ReadSettings{}},
		{"escapes in every record, bad ones late", body(20000, func(i int) string {
			switch i {
			case 14000:
				return `{"task":"\u0074ask","worker":"\u0077orker","label":"\u006cabel"}` + "\n" // the header, escaped
			case 15000:
				return `{"task":"t","worker":"w","label":"N\u0061N"}` + "\n"
			case 16000:
				return `{"task":"t\u00e9","worker":"w","label":"1"` + "\n"
			}
			return fmt.Sprintf(`{"task":"t\u00e9%d","worker":"w%d\"","label":"%d"}`+"\n", i/3, i%97, i%2)
		}), ReadSettings{}},
		{"escaped label not a class", body(20000, func(i int) string {
			if i == 12345 {
				return `{"task":"t","worker":"w","label":"\u0032"}` + "\n"
			}
			return fmt.Sprintf(`{"task":"t\u00e9%d","worker":"w%d","label":"\u003%d"}`+"\n", i/3, i%97, i%2)
		}), ReadSettings{Classes: []string{"0", "1"}}},
		{"escapes and a memory limit", body(20000, func(i int) string {
			return fmt.Sprintf(`{"task":"t\u00e9%d","worker":"w%d","label":"%d"}`+"\n", i/3, i%97, i%2)
		}), ReadSettings{MaxMemory: 1 << 20}},
		{"a line longer than the buffer", body(20000, func(i int) string {
			if i == 3000 || i == 3001 {
				return long
			}
			return ""
		}), ReadSettings{}},
		{"no line end at the end", bytes.TrimSuffix(body(20000, none), []byte("\n")), ReadSettings{}},
		{"empty task late", body(20000, at(15000, `{"task":"","worker":"w","label":"1"}`+"\n")), ReadSettings{}},
		{"bad record late", body(20000, at(15001, `{"task":"t","worker":"w","label":"1"`+"\n")), ReadSettings{}},
		{"NaN label late", body(20000, at(14000, `{"task":"t","worker":"w","label":"NaN"}`+"\n")), ReadSettings{}},
		{"an array late", body(20000, at(14000, `[{"task":"t","worker":"w","label":"1"}]`+"\n")), ReadSettings{}},
		{"header repeated late", body(20000, at(14000, `{"task":"task","worker":"worker","label":"label"}`+"\n")), ReadSettings{}},
		{"tasks that come back, and blank lines", body(20000, func(i int) string {
			switch {
			case i%501 == 3:
				return "\n"
			case i%2 == 0:
				return fmt.Sprintf(`{"task":"s%d","worker":"w%d","label":"%d"}`+"\n", i%1543, i%89, i%3%2)
			}
			return ""
		}), ReadSettings{}},
		{"label not a class", body(20000, at(12345, `{"task":"t","worker":"w","label":"2"}`+"\n")), ReadSettings{Classes: []string{"0", "1"}}},
		{"memory limit", body(20000, none), ReadSettings{MaxMemory: 1 << 20}},
	} {
		t.Run(c.name, func(t *testing.T) {
			compareJSONLPaths(t, c.in, c.opt)
		})
	}
}

// TestJSONLScan checks which lines the first tier of the JSON Lines reader
// takes: the records it must read itself, for speed, and the others it
// leaves to the general path. parseBoth checks that the cells of the lines
// it takes are the general path's.
func TestJSONLScan(t *testing.T) {
	names := []string{"task", "worker", "label"}
	for _, c := range []struct {
		line string
		scan bool
	}{
		{`{"task":"t1","worker":"w1","label":"x"}`, true},
		{`{"label":"x","task":1,"worker":"w"}`, true},
		{"{ \"task\" :\t\"a b\" , \"worker\":\"w\", \"label\" : \"x\" }", true},
		{`{"task":"  padded ","worker":"w","label":"x"}`, true},
		{`{"task":-1.5e+3,"worker":0,"label":true}`, true},
		{"{\"task\":\"t\",\"worker\":false,\"label\":\"x\",\"n\":null,\"m\":\"~\x7f\"}", true},
		{`{"id":7,"task":"t","worker":"w","label":"x","id":8}`, true},
		{`{"task":"é","worker":"w","label":"x"}`, true},
		{`{"task":"задача 7","worker":"работник","label":"кошка","заметка":"…"}`, true},
		{"{\"task\":\"\u00a0t\u3000\",\"worker\":\"w\u2028\",\"label\":\" \u0085x\"}", true}, // trimmed as by TrimSpace
		{"{\"task\":\"t\u00e9\u00a0\",\"worker\":\"\u00a0w\",\"label\":\"\u00e9\"}", true},
		// Escapes, decoded as encoding/json decodes them.
		{`{"task":"t\"","worker":"w","label":"x"}`, true},
		{`{"task":"\u0437\u0430-t0","worker":"w\u00e9\ud83d\ude00","label":"\/\\\b\f\n\r\tx"}`, true},
		{`{"task":"\u00A0t\u3000","worker":"\u0020w","label":"\u0000"}`, true},
		{`{"task":"t","worker":"w","label":"x","n":"\ud800 lone \udc00"}`, true}, // not wanted: U+FFFD
		{`{"task":"t","worker":"w","label":"x","e":{"a":[1,{"b":null}],"c":"}\u00e9","d":[]}}`, true},
		{`{"task":"t","worker":"w","label":"x","e":{}}`, true},
		{`{"task":"t","worker":"w","label":"x","e":[1]}`, true},
		// The general path reads these.
		{`{"task":"\ud800","worker":"w","label":"x"}`, false},
		{`{"task":"\udc00\ud800","worker":"w","label":"x"}`, false},
		{`{"task":"\ud83d\u0041","worker":"w","label":"x"}`, false},
		{`{"task":"\x41","worker":"w","label":"x"}`, false},
		{`{"task":"\u12G4","worker":"w","label":"x"}`, false},
		{`{"task":"\u00a0\t","worker":"w","label":"x"}`, false}, // empty once trimmed
		{`{"t\u0061sk":"t","worker":"w","label":"x"}`, false},
		{`{"task":"t","worker":"w","label":"x","e":{"a":1,}}`, false},
		{`{"task":"t","worker":"w","label":"x","e":[1 2]}`, false},
		{`{"task":"t","worker":"w","label":"x","e":[tru]}`, false},
		{`{"task":"t","worker":"w","label":"x","e":"\q"}`, false},
		{"{\"task\":\"t\",\"worker\":\"w\",\"label\":\"x\",\"e\":" + strings.Repeat("[", 70) + strings.Repeat("]", 70) + "}", false},
		{`{"task":{"a":1},"worker":"w","label":"x"}`, false},
		{"{\"task\":\"\u00a0\u3000\",\"worker\":\"w\",\"label\":\"x\"}", false}, // empty once trimmed
		{"{\"task\":\"t\xff\",\"worker\":\"w\",\"label\":\"x\"}", false},
		{"{\"task\":\"t\",\"worker\":\"w\",\"label\":\"x\",\"n\":\"\xc3\"}", false},
		{"{\"t\xe9sk\xff\":1,\"task\":\"t\",\"worker\":\"w\",\"label\":\"x\"}", false},
		{`{"task":null,"worker":"w","label":"x"}`, false},
		{`{"task":"t","worker":"w","label":"x","Label":"y"}`, false},
		{`{"task":"t","worker":"w","label":"x","task":"u"}`, false},
		{`{"task":" ","worker":"w","label":"x"}`, false},
		{`{"task":"t","worker":"w"}`, false},
		{`{"task":01,"worker":"w","label":"x"}`, false},
		{`{"task":1.,"worker":"w","label":"x"}`, false},
		{`{"task":1e,"worker":"w","label":"x"}`, false},
		{`{"task":-,"worker":"w","label":"x"}`, false},
		{`{"task":truex,"worker":"w","label":"x"}`, false},
		{`{"task":"t","worker":"w","label":"x",}`, false},
		{`{"task":"t","worker":"w","label":"x"}}`, false},
		{`{"task":"t","worker":"w","label":"x"`, false},
		{"{\"task\":\"t\x01\",\"worker\":\"w\",\"label\":\"x\"}", false},
		{"{\"task\":\"t\",\"worker\":\"w\",\"label\":\"x\"\v}", false},
		{`{}`, false},
	} {
		var s ingest.JSONLScan
		cells := make([]string, len(names))
		if got := s.Parse([]byte(c.line), names, cells); got != c.scan {
			t.Errorf("%q: the scan takes it: %v, want %v", c.line, got, c.scan)
		}
		parseBoth(t, []byte(c.line), names)
	}
}

// checkLayout reads lines in turn with one JSONLScan, which takes the
// shortcut of a line with the layout of the last one it read in full
// (sameLayout), and checks that each gives what a JSONLScan that has read
// nothing before gives it: whether it reads the line, and the cells.
func checkLayout(t *testing.T, lines ...[]byte) {
	t.Helper()
	names := []string{"task", "worker", "label"}
	var carried ingest.JSONLScan
	for i, line := range lines {
		var fresh ingest.JSONLScan
		got, want := make([]string, 3), make([]string, 3)
		gotOK, wantOK := carried.Parse(line, names, got), fresh.Parse(line, names, want)
		if gotOK != wantOK || wantOK && !slices.Equal(got, want) {
			t.Fatalf("line %d %q after %q: the scan reads it %v %q, without the lines before %v %q",
				i+1, line, lines[:i], gotOK, got, wantOK, want)
		}
	}
}

// TestJSONLLayout checks the first tier's shortcut for a record with the
// layout of the one before (sameLayout): taken with the new values, of the
// wanted keys and of others, where the full scan reads the line alike, and
// refused where the values would
// not be read alike (escapes, non-ASCII text, an empty value, a string
// where a number was, a number that does not end where the layout goes
// on), where the text around the values differs, and after a record with
// true or false.
func TestJSONLLayout(t *testing.T) {
	const (
		str   = `{"task":"t1","worker":"w1","label":"x"}`
		num   = `{"id":7, "task":12,"worker":"w","label":-1.5e3 }`
		extra = `{"task":"t1","worker":"w1","label":"x","ts":1700000000,"conf":"0.5","n":null}`
	)
	for _, second := range []string{
		`{"task":"t2 with, commas: and } braces","worker":"w2","label":"y"}`,
		`{"task":"  padded ","worker":"w2","label":"y"}`,
		`{"task":"t\"2","worker":"w2","label":"y"}`,
		`{"task":"té","worker":"w2","label":"y"}`,
		`{"task":"   ","worker":"w2","label":"y"}`,
		`{"task":"","worker":"w2","label":"y"}`,
		`{"task":"t","worker":"w2","label":"y"} `,
		`{"task":"t","worker":"w2","label":"y","n":null}`,
		`{"task":"t","worker":"w2","label":"y"`,
		`{"task":"t","worker":"w2","label":"y}`,
		`{"task":"t","Worker":"w2","label":"y"}`,
		`{"task":"t","worker":"w2","label":"y"}}`,
		`{"id":7, "task":3,"worker":"w","label":0 }`,
		`{"id":7, "task":-0.25e-3,"worker":"w","label":1E+2 }`,
		`{"id":7, "task":"3","worker":"w","label":0 }`,
		`{"id":7, "task":01,"worker":"w","label":0 }`,
		`{"id":7, "task":1.,"worker":"w","label":0 }`,
		`{"id":7, "task":1e,"worker":"w","label":0 }`,
		`{"id":7, "task":1,"worker":"w","label":0x }`,
		`{"id":8, "task":1,"worker":"w","label":0 }`,
		`{"id":7, "task":true,"worker":"w","label":0 }`,
		`{"task":"t2","worker":"w2","label":"y","ts":1800000000,"conf":"0.25","n":null}`,
		`{"task":"t2","worker":"w2","label":"y","ts":-1e3,"conf":"","n":null}`,
		`{"task":"t2","worker":"w2","label":"y","ts":18,"conf":"a\"b","n":null}`,
		`{"task":"t2","worker":"w2","label":"y","ts":18,"conf":"é","n":null}`,
		`{"task":"t2","worker":"w2","label":"y","ts":"18","conf":"c","n":null}`,
		`{"task":"t2","worker":"w2","label":"y","ts":18,"conf":"c","n":true}`,
		`{"task":"t2","worker":"w2","label":"y","ts":18,"conf":7,"n":null}`,
		`{"task":"t2","worker":"w2","label":"y","ts":18.,"conf":"c","n":null}`,
	} {
		for _, first := range []string{str, num, extra, `{"task":"t","worker":true,"label":"x"}`} {
			checkLayout(t, []byte(first), []byte(second), []byte(first))
		}
	}
	// The shortcut is taken: a line with the layout and new values; the
	// layout is the first record's, and a record of another layout becomes
	// it only when the record before had that other layout too.
	names := []string{"task", "worker", "label"}
	cells := make([]string, 3)
	takes := func(records []string, line string) bool {
		var s ingest.JSONLScan
		for _, r := range records {
			if !s.Parse([]byte(r), names, cells) {
				t.Fatalf("%q is not read", r)
			}
		}
		return s.SameLayout([]byte(line))
	}
	for _, c := range []struct {
		records []string
		line    string
		want    bool
	}{
		{[]string{str}, `{"task":"t9","worker":"w9","label":"z"}`, true},
		{[]string{extra}, `{"task":"t9","worker":"w9","label":"z","ts":1700000123,"conf":"","n":null}`, true},
		{[]string{`{"task":"t","worker":true,"label":"x"}`}, `{"task":"t","worker":true,"label":"x"}`, false},
		{[]string{str, extra}, `{"task":"t9","worker":"w9","label":"z"}`, true},
		{[]string{str, extra}, extra, false},
		{[]string{str, extra, extra}, extra, true},
		{[]string{str, extra, str, extra}, `{"task":"t9","worker":"w9","label":"z"}`, true},
	} {
		if got := takes(c.records, c.line); got != c.want {
			t.Errorf("%q after %q: the shortcut taken %v, want %v", c.line, c.records, got, c.want)
		}
	}
}

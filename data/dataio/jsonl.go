package dataio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/consensuslab/consensus/data/internal/ingest"
)

// jsonlReader reads JSON Lines: one flat JSON object a line. It returns
// the trimmed values of the wanted keys; strings are unescaped, numbers keep
// their literal text, and true and false become "true" and "false".
type jsonlReader struct {
	file    string
	br      *bufio.Reader
	names   []string          // wanted keys
	header  *ingest.HeaderSet // of names
	roles   []string          // what each wanted key holds, for messages
	line    int               // physical line of the last line read
	records int
	buf     []byte
	br2     bytes.Reader
	cells   []string
	found   []int // per wanted key: 0 absent, 1 matched ignoring case, 2 exact
	keys    []string
	scan    ingest.JSONLScan
	read    int64 // bytes of the lines read so far
	size    int64 // the input's size in bytes, if it is a file; else 0
	limit   int   // the longest line the input gives (the guard's lineLimit)
	// more, if not nil, adds wanted keys from the keys of the first
	// record (Columns.More).
	more func(header []string) (names, roles []string, err error)
	// The records readAhead read: their cells, len(names) a record, the
	// lengths of their raw lines, and the next one's place.
	aheadCells []string
	aheadLen   []int
	aheadTasks []string
	aheadNext  int
}

// newJSONLTable returns the reader of the columns cols of JSON Lines.
func newJSONLTable(r io.Reader, file string, cols Columns, g *guard) (*jsonlReader, error) {
	j, err := newJSONLReader(r, file, cols.Names, cols.roles(), g)
	if err == nil && cols.More != nil {
		j.more = cols.more
	}
	return j, err
}

// newJSONLReader returns the reader of the keys names of JSON Lines, each
// holding what roles says.
func newJSONLReader(r io.Reader, file string, names, roles []string, g *guard) (*jsonlReader, error) {
	text, err := g.text(r)
	if err != nil {
		return nil, &InputError{File: file, Msg: err.Error(), Err: err}
	}
	br, ok := text.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(text, 64<<10)
	}
	return &jsonlReader{
		file: file, br: br, names: names, roles: roles, size: inputSize(r), header: ingest.NewHeaderSet(names),
		cells: make([]string, len(names)), found: make([]int, len(names)), limit: g.lineLimit(),
	}, nil
}

// resolve sets the wanted keys from the keys of the first record, line,
// once.
func (j *jsonlReader) resolve(line []byte) error {
	if j.more == nil || !json.Valid(line) {
		return nil // an invalid record is for parse to describe
	}
	names, roles, err := j.more(objectKeys(line))
	if err != nil {
		return &InputError{File: j.file, Line: j.line, Msg: err.Error(), Err: err}
	}
	j.names, j.roles, j.more = names, roles, nil
	j.header = ingest.NewHeaderSet(names)
	j.cells, j.found = make([]string, len(j.names)), make([]int, len(j.names))
	return nil
}

// objectKeys returns the top-level keys of a JSON object in their order,
// as far as it can read them.
func objectKeys(obj []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := tok.(string)
		keys = append(keys, strings.TrimSpace(k))
		if err := skipValue(dec); err != nil {
			return keys
		}
	}
	return keys
}

// progress returns the bytes of the lines read so far and the size of the
// input if it is a regular file, for labelsFrom's sizing.
func (j *jsonlReader) progress() (done, total int64) { return j.read, j.size }

func (j *jsonlReader) where(n int) string { return fmt.Sprintf("line %d", n) }

func (j *jsonlReader) noRows() error {
	return &InputError{File: j.file, Msg: "no records: a JSON Lines file has one object a line, such as " +
		j.example()}
}

// example returns a record with the wanted keys, for messages.
func (j *jsonlReader) example() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, n := range j.names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(n)
		fmt.Fprintf(&b, `%s:"%s"`, k, j.roles[i])
	}
	b.WriteByte('}')
	return b.String()
}

// readLine reads the next physical line, with its line end if it has one.
// The line is valid until the next call: it points into the reader's
// buffer when the line fits in it.
func (j *jsonlReader) readLine() ([]byte, error) {
	chunk, err := j.br.ReadSlice('\n')
	j.read += int64(len(chunk))
	if err == nil {
		return chunk, nil
	}
	j.buf = append(j.buf[:0], chunk...)
	for {
		if err == bufio.ErrBufferFull {
			chunk, err = j.br.ReadSlice('\n')
			j.read += int64(len(chunk))
			// Grown to the line limit at most (ingest.GrowLine).
			j.buf = append(ingest.GrowLine(j.buf, len(chunk), j.limit+j.br.Size()), chunk...)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(j.buf) > 0:
			return j.buf, nil
		case err != nil:
			return nil, err
		}
		return j.buf, nil
	}
}

func (j *jsonlReader) fail(msg string, a ...any) error {
	return &InputError{File: j.file, Line: j.line, Msg: fmt.Sprintf(msg, a...)}
}

func (j *jsonlReader) next() ([]string, int, error) {
	if i := j.aheadNext; i < len(j.aheadLen) {
		// A record readAhead read and checked: its line is the next
		// bytes of the buffer, which Discard passes without a read.
		n, _ := j.br.Discard(j.aheadLen[i])
		j.read += int64(n)
		j.line++
		j.aheadNext++
		j.records++
		w := len(j.names)
		return j.aheadCells[i*w : (i+1)*w : (i+1)*w], j.line, nil
	}
	for {
		raw, err := j.readLine()
		if err == io.EOF {
			return nil, 0, io.EOF
		}
		if err != nil {
			if e, ok := inputErrorOf(err); ok {
				return nil, 0, e
			}
			msg := "read error: " + err.Error()
			if isCorrupt(err) {
				msg = "corrupt or truncated compressed file: " + err.Error()
			}
			return nil, 0, &InputError{File: j.file, Msg: msg, Err: err}
		}
		j.line++
		line := bytes.TrimSpace(raw)
		if len(line) == 0 {
			continue
		}
		if err := j.resolve(line); err != nil {
			return nil, 0, err
		}
		if err := j.parse(line); err != nil {
			return nil, 0, err
		}
		if msg := checkRow(j.cells, j.header, j.roles); msg != "" {
			return nil, 0, j.fail("%s", msg)
		}
		j.records++
		return j.cells, j.line, nil
	}
}

// jsonlAhead switches readAhead on; tests switch it off to compare.
var jsonlAhead = true

// readAhead reads ahead the records of up to n lines that are whole in
// the reader's buffer, up to the first that is blank or that the fast
// path (ingest.JSONLScan) does not read or checkRow refuses, which next then
// reads as ever; see aheadReader. It reads nothing from the input: the
// lines stay where they are in the buffer (bufio.Reader moves its data
// only to read more), and next passes them one by one (Discard) and
// returns their records without reading them again.
func (j *jsonlReader) readAhead(n int) []string {
	j.aheadLen, j.aheadTasks, j.aheadNext = j.aheadLen[:0], j.aheadTasks[:0], 0
	if j.more != nil || !jsonlAhead {
		return nil
	}
	buf, _ := j.br.Peek(j.br.Buffered()) // within the buffer: no read
	w := len(j.names)
	if len(j.aheadCells) < n*w {
		j.aheadCells = make([]string, n*w)
	}
	for k := 0; k < n; k++ {
		end := bytes.IndexByte(buf, '\n')
		if end < 0 {
			break
		}
		raw := buf[:end+1]
		line := bytes.TrimSpace(raw)
		cells := j.aheadCells[k*w : (k+1)*w]
		if len(line) == 0 || !j.scan.Parse(line, j.names, cells) || checkRow(cells, j.header, j.roles) != "" {
			break
		}
		j.aheadLen = append(j.aheadLen, len(raw))
		j.aheadTasks = append(j.aheadTasks, cells[0])
		buf = buf[end+1:]
	}
	return j.aheadTasks
}

// parse reads the wanted values of one record into j.cells. The fast path
// (ingest.JSONLScan) takes the valid record, escapes included; parseSlow
// takes every other line and gives every message.
func (j *jsonlReader) parse(line []byte) error {
	if j.scan.Parse(line, j.names, j.cells) {
		return nil
	}
	return j.parseSlow(line)
}

// parseSlow reads the wanted values of one record into j.cells token by
// token, or says what is wrong with the line.
func (j *jsonlReader) parseSlow(line []byte) error {
	if !utf8.Valid(line) {
		if col := invalidWanted(line, j.names); col > 0 {
			return j.fail("invalid UTF-8 (byte 0x%02X at column %d); the file must be UTF-8 text", line[col-1], col)
		}
		// Only values the reader ignores are not UTF-8, which is
		// accepted as it is in the other formats.
		line = bytes.ToValidUTF8(line, []byte("\uFFFD"))
	}
	if line[0] != '{' {
		if j.records == 0 && line[0] == '[' {
			return j.fail("the file is a JSON array; JSON Lines wants one object a line, such as %s (convert it, e.g. with jq -c '.[]')", j.example())
		}
		return j.fail("a record must be a JSON object such as %s", j.example())
	}
	j.br2.Reset(line)
	dec := json.NewDecoder(&j.br2)
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return j.syntax(err)
	}
	clear(j.found)
	j.keys = j.keys[:0]
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return j.syntax(err)
		}
		key, _ := tok.(string)
		if len(j.keys) < 12 {
			j.keys = append(j.keys, key)
		}
		want := -1
		exact := false
		for i, n := range j.names {
			if key == n {
				want, exact = i, true
				break
			}
			if want < 0 && strings.EqualFold(strings.TrimSpace(key), n) {
				want = i
			}
		}
		if want < 0 || !exact && j.found[want] == 2 {
			if err := skipValue(dec); err != nil {
				return j.syntax(err)
			}
			continue
		}
		if exact && j.found[want] == 2 {
			return j.fail("key %s appears twice in the record", show(key))
		}
		if !exact && j.found[want] == 1 {
			return j.fail("two keys match %s ignoring case; give the exact key name", show(j.names[want]))
		}
		start := dec.InputOffset()
		tok, err = dec.Token()
		if err != nil {
			return j.syntax(err)
		}
		// An unpaired surrogate is refused in a wanted value only, as
		// invalid UTF-8 is: values the reader ignores are not checked.
		if col := badSurrogate(line[start:dec.InputOffset()]); col > 0 {
			col += int(start)
			return j.fail("invalid text at column %d: an unpaired UTF-16 surrogate escape (%s); the text must be valid Unicode", col, line[col-1:col+5])
		}
		// The value's kind and text, to which the cell rule of the scan
		// (ingest.JSONCell) applies.
		kind, text := byte('{'), ""
		switch t := tok.(type) {
		case string:
			kind, text = '"', t
		case json.Number:
			kind, text = t[0], string(t)
		case bool:
			text = strconv.FormatBool(t)
			kind = text[0]
		case nil:
			kind = 'n'
		}
		a, z, ok := ingest.JSONCell(kind, []byte(text))
		switch {
		case ok:
			j.cells[want] = text[a:z]
		case kind == 'n':
			return j.fail("the %s value (key %s) is null", j.roles[want], show(key))
		case kind == '{':
			return j.fail("the %s value (key %s) is an object or array; want a string or a number", j.roles[want], show(key))
		default:
			return j.fail("empty %s value (key %s)", j.roles[want], show(key))
		}
		if exact {
			j.found[want] = 2
		} else {
			j.found[want] = 1
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return j.syntax(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return j.fail("more than one JSON value on the line; JSON Lines wants exactly one object a line")
	}
	var missing []string
	for i, f := range j.found {
		if f == 0 {
			missing = append(missing, j.names[i])
		}
	}
	if len(missing) > 0 {
		msg := fmt.Sprintf("the record has no %s key", showOr(missing))
		if len(j.keys) > 0 {
			msg += fmt.Sprintf(" (its keys: %s)", showList(j.keys))
		}
		e := j.fail("%s", msg).(*InputError)
		e.Hint, e.Arg = HintColumns, "key"
		return e
	}
	return nil
}

// syntax turns a JSON decoding error into an *InputError.
func (j *jsonlReader) syntax(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return j.fail("invalid JSON at column %d: %s", se.Offset, strings.TrimPrefix(se.Error(), "json: "))
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return j.fail("the JSON object is not closed on its line (a record must fit on one line)")
	}
	return j.fail("invalid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
}

// skipValue reads and discards one JSON value from dec.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

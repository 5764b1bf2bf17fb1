package dataio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/consensuslab/consensus/data/internal/ingest"
	"github.com/consensuslab/consensus/data/internal/pqbound"
	"github.com/parquet-go/parquet-go"
)

// parquetReader reads the wanted columns of a Parquet file, row group by
// row group, reading only those columns' pages.
type parquetReader struct {
	file   string
	pf     *parquet.File
	names  []string
	header *ingest.HeaderSet // the schema's column names
	roles  []string
	index  []int          // leaf column index of each wanted column
	kinds  []parquet.Kind // the physical type of each wanted column
	maxDef []int          // and its maximum definition level
	groups []parquet.RowGroup
	group  int  // the row group open, or next to open
	open   bool // whether cols read row group group
	cols   []pageColumn
	texts  []parquetText // how each wanted column becomes text
	row    int           // 1-based number of the last row returned
	cells  []string
}

// parquetMagic starts and ends every Parquet file.
const parquetMagic = "PAR1"

// newParquetReader opens a Parquet input. Parquet is read from its end, so
// a reader that is not a regular file, or gzip-compressed input, is first
// copied to a temporary file, which the returned function removes.
func newParquetReader(r io.Reader, file string, cols Columns, g *guard) (_ rowSource, _ func(), err error) {
	defer recoverParquet(file, &err)
	fail := func(msg string, err error) (rowSource, func(), error) {
		return nil, nil, &InputError{File: file, Msg: msg, Err: err}
	}
	var ra io.ReaderAt
	var size int64
	done := func() {}
	if f, ok := r.(*os.File); ok && isRegular(f) && !startsWithGzip(f) {
		fi, err := f.Stat()
		if err != nil {
			return fail("cannot read the file: "+err.Error(), err)
		}
		ra, size = f, fi.Size()
	} else if s, ok := r.(sizedReaderAt); ok && !startsWithGzip(s) {
		ra, size = s, s.Size() // in memory, such as a *bytes.Reader
	} else {
		text, err := g.binary(r)
		if err != nil {
			return fail(err.Error(), err)
		}
		// The magic number first: input that is not Parquet is refused
		// before any of it is copied.
		var head [4]byte
		n, err := io.ReadFull(text, head[:])
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			if e, ok := inputErrorOf(err); ok {
				return nil, nil, e
			}
			return fail("read error: "+err.Error(), err)
		}
		if err := parquetHead(head[:n], file); err != nil {
			return nil, nil, err
		}
		text = io.MultiReader(bytes.NewReader(head[:]), text)
		tmp, err := os.CreateTemp("", "consensus-*.parquet")
		if err != nil {
			return fail("cannot make a temporary copy of the input: "+err.Error(), err)
		}
		done = func() { tmp.Close(); os.Remove(tmp.Name()) }
		if os.Remove(tmp.Name()) == nil {
			// Unlinked at once (Unix): the open file stays readable and no
			// copy is left behind, however the program ends.
			done = func() { tmp.Close() }
		}
		size, err = io.Copy(tmp, text)
		if err != nil {
			done()
			if e, ok := inputErrorOf(err); ok {
				return nil, nil, e
			}
			msg := "read error: " + err.Error()
			if isCorrupt(err) {
				msg = "corrupt or truncated compressed file: " + err.Error()
			}
			return fail(msg, err)
		}
		ra = tmp
	}
	src, err := openParquet(ra, size, file, cols, g.memoryLimit())
	if err == nil {
		err = g.parquetSize(src)
	}
	if err == nil {
		err = src.checkPages(ra, g.memoryLimit())
	}
	if err != nil {
		done()
		return nil, nil, err
	}
	return src, done, nil
}

// recoverParquet turns a panic in the Parquet library into the error of a
// corrupt file: corrupt metadata or pages can make it index out of range
// or allocate absurd sizes. Every entry point into the library —
// newParquetReader (the footer, the schema, the size check), next and
// readParquetPages (the pages) — defers it with its named error, so no
// Parquet input can end the program with a panic.
func recoverParquet(file string, err *error) {
	if p := recover(); p != nil {
		*err = &InputError{File: file, Msg: fmt.Sprintf("corrupt Parquet file (the Parquet reader failed: %v)", p)}
	}
}

// sizedReaderAt is an input that can be read at any offset without a copy,
// such as a *bytes.Reader.
type sizedReaderAt interface {
	io.ReaderAt
	Size() int64
}

func isRegular(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode().IsRegular()
}

func startsWithGzip(f io.ReaderAt) bool {
	var p [2]byte
	n, _ := f.ReadAt(p[:], 0)
	return n == 2 && p[0] == 0x1f && p[1] == 0x8b
}

// parquetHead returns the error of a file whose first bytes, head (up to
// four), are not Parquet's magic number, or nil.
func parquetHead(head []byte, file string) error {
	if string(head) == parquetMagic {
		return nil
	}
	msg, hint := "not a Parquet file (it does not start with PAR1)", NoHint
	switch {
	case len(head) == 0:
		msg = "the file is empty; a Parquet file was expected"
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		msg += "; it is a zip archive (a spreadsheet?): export it as CSV or Parquet"
	case utf8.Valid(head) && bytes.IndexByte(head, 0) < 0:
		msg += "; it looks like text: name it .csv, .tsv or .jsonl"
		hint = HintFormat
	}
	return &InputError{File: file, Msg: msg, Hint: hint}
}

// openParquet reads the footer of a Parquet file and finds the wanted
// columns. A footer that would need more than limit bytes to decode is
// refused before it is decoded.
func openParquet(ra io.ReaderAt, size int64, file string, cols Columns, limit int64) (*parquetReader, error) {
	names, roles := cols.Names, cols.roles()
	var head [4]byte
	n, _ := ra.ReadAt(head[:], 0)
	if err := parquetHead(head[:n], file); err != nil {
		return nil, err
	}
	// The footer's length, in the 4 bytes before the closing magic number,
	// must fit in the file: the library allocates a buffer of that length
	// before it reads, gigabytes for a corrupt one.
	// Then the footer's thrift metadata are checked (pqbound.Footer): the
	// counts and lengths they declare, which the library allocates at once.
	var tail [4]byte
	if size < 12 {
		return nil, &InputError{File: file, Msg: fmt.Sprintf("corrupt or truncated Parquet file: %d bytes, fewer than the 12 of its magic numbers and footer length", size)}
	}
	if _, err := ra.ReadAt(tail[:], size-8); err != nil && err != io.EOF {
		return nil, &InputError{File: file, Msg: "read error: " + err.Error(), Err: err}
	}
	length := int64(binary.LittleEndian.Uint32(tail[:]))
	if length > size-12 {
		return nil, &InputError{File: file, Msg: fmt.Sprintf("corrupt or truncated Parquet file: its footer's length, %d bytes, exceeds the file's %d", length, size)}
	}
	footer := make([]byte, length)
	if _, err := ra.ReadAt(footer, size-8-length); err != nil && err != io.EOF {
		return nil, &InputError{File: file, Msg: "read error: " + err.Error(), Err: err}
	}
	if _, err := pqbound.Footer(footer, limit); err != nil {
		if big, ok := err.(*pqbound.TooLarge); ok {
			return nil, &InputError{File: file, Err: ErrLimit, Msg: fmt.Sprintf(
				"the file's metadata (%s) need %s to decode, more than the memory limit of %s",
				formatSize(float64(length)), formatSize(float64(big.Need)), formatSize(float64(limit)))}
		}
		return nil, &InputError{File: file, Msg: "corrupt or truncated Parquet file: " + err.Error(), Err: err}
	}
	pf, err := parquet.OpenFile(ra, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, &InputError{File: file, Msg: "corrupt or truncated Parquet file: " + err.Error(), Err: err}
	}
	fields := pf.Schema().Fields()
	var header []string
	for _, f := range fields {
		header = append(header, f.Name())
	}
	if cols.More != nil {
		if names, roles, err = cols.more(header); err != nil {
			return nil, &InputError{File: file, Msg: err.Error(), Err: err}
		}
	}
	p := &parquetReader{file: file, pf: pf, names: names, roles: roles, groups: pf.RowGroups(), cells: make([]string, len(names)), header: ingest.NewHeaderSet(header)}
	var missing []string
	for i, n := range names {
		at, err := findColumn(header, n)
		if err != nil {
			return nil, &InputError{File: file, Msg: err.Error()}
		}
		if at < 0 {
			missing = append(missing, n)
			continue
		}
		f := fields[at]
		if !f.Leaf() || f.Repeated() {
			return nil, &InputError{File: file, Msg: fmt.Sprintf(
				"the %s column %s is a nested or repeated column; want a flat column of strings or numbers", roles[i], show(f.Name()))}
		}
		leaf, ok := pf.Schema().Lookup(f.Name())
		if !ok {
			return nil, &InputError{File: file, Msg: fmt.Sprintf("column %s not found in the schema", show(f.Name()))}
		}
		text, err := newParquetText(leaf.Node.Type())
		if err != nil {
			return nil, &InputError{File: file, Msg: fmt.Sprintf("the %s column %s %v", roles[i], show(f.Name()), err)}
		}
		p.index = append(p.index, leaf.ColumnIndex)
		p.kinds = append(p.kinds, leaf.Node.Type().Kind())
		p.maxDef = append(p.maxDef, leaf.MaxDefinitionLevel)
		p.texts = append(p.texts, text)
	}
	if len(missing) > 0 {
		s := "s"
		if len(header) == 1 {
			s = ""
		}
		return nil, &InputError{File: file, Hint: HintColumns, Arg: "column", Msg: fmt.Sprintf(
			"the file has %d column%s %s but no %s column", len(header), s, showList(header), showOr(missing))}
	}
	for i := range p.index {
		for j := range i {
			if p.index[i] == p.index[j] {
				return nil, &InputError{File: file, Msg: fmt.Sprintf(
					"the %s and %s columns are the same column %s; give distinct column names", roles[j], roles[i], show(names[i]))}
			}
		}
	}
	return p, nil
}

// progress returns the rows read so far and the rows the file declares,
// for labelsFrom's sizing. The declared rows are trusted only up to 16 a
// byte of the file: a corrupt file can declare any number, and run-length
// encoding lets a real one hold many rows in few bytes, but a reservation
// too small only costs one copy.
func (p *parquetReader) progress() (done, total int64) {
	return int64(p.row), min(p.pf.NumRows(), 16*p.pf.Size())
}

func (p *parquetReader) where(n int) string { return fmt.Sprintf("row %d", n) }

func (p *parquetReader) noRows() error {
	return &InputError{File: p.file, Msg: "the Parquet file has no rows"}
}

func (p *parquetReader) fail(row int, err error, msg string, a ...any) error {
	return &InputError{File: p.file, Line: row, Msg: fmt.Sprintf(msg, a...), Err: err}
}

// cellError returns the error of row's cell of the wanted column i, which
// parquetText.cell refused with err.
func (p *parquetReader) cellError(row, i int, err error) error {
	switch err {
	case errNullCell:
		return p.fail(row, nil, "the %s cell (column %s) is null", p.roles[i], show(p.names[i]))
	case errEmptyCell:
		return p.fail(row, nil, "empty %s cell (column %s)", p.roles[i], show(p.names[i]))
	}
	return p.fail(row, nil, "the %s cell (column %s): %v", p.roles[i], show(p.names[i]), err)
}

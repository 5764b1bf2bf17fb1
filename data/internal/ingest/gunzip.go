package ingest

import (
	"bufio"
	"compress/gzip"
	"errors"
	"io"
)

// GzipMembers decompresses a gzip stream of one or more members, as
// gzip.Reader does with Multistream, but takes header name and comment
// fields of any length: Go's reader refuses those of 512 bytes or more as
// a corrupt header, while gzip -t and Python read such files. Each
// member's header is handed to gzip.Reader without those fields (and
// without its header CRC, which covers them).
type GzipMembers struct {
	br *bufio.Reader
	zr *gzip.Reader
	pr prefixReader
}

// NewGzipMembers returns a reader of the decompressed text of the gzip
// stream in br, or the error of its first header.
func NewGzipMembers(br *bufio.Reader) (*GzipMembers, error) {
	g := &GzipMembers{br: br}
	if err := g.open(); err != nil {
		return nil, err
	}
	return g, nil
}

// The flags of a gzip header (RFC 1952).
const (
	gzipHCRC    = 1 << 1
	gzipExtra   = 1 << 2
	gzipName    = 1 << 3
	gzipComment = 1 << 4
)

// open starts reading the member at the start of g.br.
func (g *GzipMembers) open() error {
	head, err := gzipHeader(g.br)
	if err != nil {
		return err
	}
	g.pr = prefixReader{pre: head, br: g.br}
	if g.zr == nil {
		g.zr, err = gzip.NewReader(&g.pr)
	} else {
		err = g.zr.Reset(&g.pr)
	}
	if err != nil {
		return err
	}
	g.zr.Multistream(false)
	return nil
}

// Read reads decompressed text, member after member.
func (g *GzipMembers) Read(p []byte) (int, error) {
	for {
		n, err := g.zr.Read(p)
		if err != io.EOF {
			return n, err
		}
		if _, perr := g.br.Peek(1); perr != nil {
			return n, io.EOF // no other member
		}
		if err := g.open(); err != nil {
			return n, err
		}
		if n > 0 {
			return n, nil
		}
	}
}

// Close releases the decompressor.
func (g *GzipMembers) Close() error { return g.zr.Close() }

// gzipHeader reads the header of a gzip member from br and returns it
// without its name, comment and header CRC: the 10 fixed bytes with those
// flags cleared, and the extra field if there is one. The fields are
// skipped whatever their length.
func gzipHeader(br *bufio.Reader) ([]byte, error) {
	fixed, err := br.Peek(10)
	if err != nil || fixed[0] != 0x1f || fixed[1] != 0x8b || fixed[2] != 8 {
		return nil, gzip.ErrHeader
	}
	flags := fixed[3]
	head := append([]byte(nil), fixed...)
	head[3] = flags &^ (gzipName | gzipComment | gzipHCRC)
	br.Discard(10)
	if flags&gzipExtra != 0 {
		size, err := br.Peek(2)
		if err != nil {
			return nil, gzip.ErrHeader
		}
		n := 2 + int(size[0]) + int(size[1])<<8
		extra := make([]byte, n)
		if _, err := io.ReadFull(br, extra); err != nil {
			return nil, gzip.ErrHeader
		}
		head = append(head, extra...)
	}
	for _, f := range []byte{gzipName, gzipComment} {
		if flags&f == 0 {
			continue
		}
		for { // a zero-terminated string of any length
			_, err := br.ReadSlice(0)
			if err == nil {
				break
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				return nil, gzip.ErrHeader
			}
		}
	}
	if flags&gzipHCRC != 0 {
		if _, err := br.Discard(2); err != nil {
			return nil, gzip.ErrHeader
		}
	}
	return head, nil
}

// prefixReader reads pre, then br. It is an io.ByteReader, so that
// gzip.Reader reads from it no further than its member's end.
type prefixReader struct {
	pre []byte
	br  *bufio.Reader
}

func (r *prefixReader) Read(p []byte) (int, error) {
	if len(r.pre) > 0 {
		n := copy(p, r.pre)
		r.pre = r.pre[n:]
		return n, nil
	}
	return r.br.Read(p)
}

func (r *prefixReader) ReadByte() (byte, error) {
	if len(r.pre) > 0 {
		b := r.pre[0]
		r.pre = r.pre[1:]
		return b, nil
	}
	return r.br.ReadByte()
}

package dataio

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/consensuslab/consensus/data/internal/pqbound"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// checkPages checks the pages of the wanted column chunks before the
// Parquet library decodes any of them, and refuses as corrupt a page
// whose header or data declare sizes that the library would allocate at
// once beyond what the file can hold (see package pqbound): the page
// headers' thrift counts and lengths, page sizes beyond the column chunk,
// more values than the chunk's rows, the decoded size in a codec's header
// (and the text of gzip, Brotli, LZ4_RAW and unsized Zstandard pages,
// dictionary pages included, past the page's size), runs of levels and
// dictionary indices, and the counts and string lengths of the delta
// encodings. It also refuses byte-array data pages that hold
// another number of values than their headers declare: the library, given
// such a page, prints a warning of its own on standard error (with the
// builtin println, which no caller can redirect) and reads on; here the
// page is decoded as the library would decode it (the same levels, codec
// and encoding) and counted, so the file is refused as corrupt with one
// message instead. limit bounds the text a page's strings decode to.
func (p *parquetReader) checkPages(ra io.ReaderAt, limit int64) error {
	md := p.pf.Metadata()
	for g, rg := range md.RowGroups {
		for i, at := range p.index {
			if at >= len(rg.Columns) {
				continue
			}
			if err := p.checkChunk(ra, &rg.Columns[at].MetaData, rg.NumRows, i, limit); err != nil {
				return &InputError{File: p.file, Msg: fmt.Sprintf(
					"corrupt Parquet file (row group %d, %s column %s: %v)", g+1, p.roles[i], show(p.names[i]), err)}
			}
		}
	}
	return nil
}

// checkChunk checks the pages of one column chunk of the wanted column i,
// in a row group of rows rows (see checkPages).
func (p *parquetReader) checkChunk(ra io.ReaderAt, cm *format.ColumnMetaData, rows int64, i int, limit int64) error {
	start := cm.DataPageOffset
	if cm.DictionaryPageOffset != 0 {
		start = cm.DictionaryPageOffset
	}
	if start < 0 || cm.TotalCompressedSize < 0 || start+cm.TotalCompressedSize > p.pf.Size() {
		return fmt.Errorf("the column chunk lies outside the file")
	}
	if cm.NumValues < 0 || cm.NumValues > rows {
		return fmt.Errorf("the column chunk declares %d values for %d rows", cm.NumValues, rows)
	}
	chunk := make([]byte, cm.TotalCompressedSize)
	if _, err := ra.ReadAt(chunk, start); err != nil && err != io.EOF {
		return err
	}
	codec := parquet.LookupCompressionCodec(cm.Codec)
	values := cm.NumValues // left for the data pages
	for page, at := 1, 0; at < len(chunk); page++ {
		n, err := pqbound.Struct(chunk[at:])
		if err != nil {
			return fmt.Errorf("page %d: %v", page, err)
		}
		var h format.PageHeader
		if err := thrift.NewDecoder(new(thrift.CompactProtocol).NewReaderFromBytes(chunk[at : at+n])).Decode(&h); err != nil {
			return fmt.Errorf("page %d: %v", page, err)
		}
		at += n
		if h.CompressedPageSize < 0 || int(h.CompressedPageSize) > len(chunk)-at {
			return fmt.Errorf("page %d: its size %d is beyond the column chunk", page, h.CompressedPageSize)
		}
		if h.UncompressedPageSize < 0 || int64(h.UncompressedPageSize) > cm.TotalUncompressedSize {
			return fmt.Errorf("page %d: its size %d is beyond the column chunk's %d", page, h.UncompressedPageSize, cm.TotalUncompressedSize)
		}
		data := chunk[at:][:h.CompressedPageSize]
		at += int(h.CompressedPageSize)
		if n := pqbound.DeclaredValues(&h); n < 0 || n > values || h.Type == format.DictionaryPage && n > cm.NumValues {
			return fmt.Errorf("page %d declares %d values, more than the column chunk's %d left", page, n, values)
		} else if h.Type != format.DictionaryPage {
			values -= n
		}
		want, got, err := p.checkPage(&h, data, codec, i, limit)
		if err != nil {
			return fmt.Errorf("page %d: %v", page, err)
		}
		if want != got {
			return fmt.Errorf("page %d declares %d values but holds %d", page, want, got)
		}
	}
	return nil
}

// checkPage checks the data of one data page of the wanted column i (see
// checkPages) and returns, for a byte-array page that is not
// dictionary-encoded, the number of values that its header declares
// (without nulls) and the number its data holds, as the Parquet library
// decodes them; both are 0 for other pages.
func (p *parquetReader) checkPage(h *format.PageHeader, data []byte, codec compress.Codec, i int, limit int64) (want, got int, err error) {
	var enc format.Encoding
	maxDef := p.maxDef[i]
	size := int(h.UncompressedPageSize)
	switch {
	case h.Type == format.DataPage && h.DataPageHeader.Valid:
		v := h.DataPageHeader.V
		enc, want = v.Encoding, int(v.NumValues)
		if data, err = pqbound.DecodePage(codec, data, size); err != nil {
			return 0, 0, err
		}
		if maxDef > 0 {
			if len(data) < 4 || 4+int(binary.LittleEndian.Uint32(data)) > len(data) || 4+int(binary.LittleEndian.Uint32(data)) < 4 {
				return 0, 0, io.ErrUnexpectedEOF
			}
			n := 4 + int(binary.LittleEndian.Uint32(data))
			levels := data[4:n]
			data = data[n:]
			if want, err = pqbound.NonNull(v.DefinitionLevelEncoding, levels, want, maxDef); err != nil {
				return 0, 0, err
			}
		}
	case h.Type == format.DataPageV2 && h.DataPageHeaderV2.Valid:
		v := h.DataPageHeaderV2.V
		enc, want = v.Encoding, int(v.NumValues-v.NumNulls)
		skip := int64(v.RepetitionLevelsByteLength) + int64(v.DefinitionLevelsByteLength)
		if v.RepetitionLevelsByteLength < 0 || v.DefinitionLevelsByteLength < 0 || skip > int64(len(data)) {
			return 0, 0, io.ErrUnexpectedEOF
		}
		if maxDef > 0 {
			def := data[v.RepetitionLevelsByteLength:skip]
			if _, err := pqbound.Hybrid(def, pqbound.BitWidth(maxDef), int(v.NumValues)); err != nil {
				return 0, 0, fmt.Errorf("definition levels: %v", err)
			}
		}
		data = data[skip:]
		if !v.IsCompressed.Valid || v.IsCompressed.V {
			if data, err = pqbound.DecodePage(codec, data, max(size-int(skip), 0)); err != nil { // size counts the levels
				return 0, 0, err
			}
		}
	default: // a dictionary or index page: only codecs without bounds of their own are decoded
		if h.Type == format.DictionaryPage && codec != nil {
			_, _, err = pqbound.Decompress(codec.CompressionCodec(), data, size)
		}
		return 0, 0, err
	}
	if err := pqbound.Values(enc, data, max(want, 0), limit); err != nil {
		return 0, 0, fmt.Errorf("%v values: %v", enc, err)
	}
	if pqbound.IsDictionary(enc) || p.kinds[i] != parquet.ByteArray {
		return 0, 0, nil
	}
	_, offsets, err := parquet.LookupEncoding(enc).DecodeByteArray(nil, data, nil)
	if err != nil {
		return 0, 0, err
	}
	return want, max(len(offsets)-1, 0), nil
}

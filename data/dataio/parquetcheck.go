package dataio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/encoding/bitpacked"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// checkPages refuses, before the Parquet library decodes any page of
// them, the wanted column chunks whose byte-array data pages hold another
// number of values than their headers declare. The library, given such a
// page, prints a warning of its own on standard error (with the builtin
// println, which no caller can redirect) and reads on; here the page is
// decoded as the library would decode it (the same levels, codec and
// encoding) and counted, so the file is refused as corrupt with one
// message instead. Dictionary-encoded pages hold indices, which the
// library counts itself, and columns of other types have no such warning:
// their pages are only walked past.
func (p *parquetReader) checkPages(ra io.ReaderAt) error {
	md := p.pf.Metadata()
	for g, rg := range md.RowGroups {
		for i, at := range p.index {
			if at >= len(rg.Columns) || p.kinds[i] != parquet.ByteArray {
				continue
			}
			if err := p.checkChunk(ra, &rg.Columns[at].MetaData, i); err != nil {
				return &InputError{File: p.file, Msg: fmt.Sprintf(
					"corrupt Parquet file (row group %d, %s column %s: %v)", g+1, p.roles[i], show(p.names[i]), err)}
			}
		}
	}
	return nil
}

// checkChunk checks the pages of one column chunk of the wanted column i
// (see checkPages).
func (p *parquetReader) checkChunk(ra io.ReaderAt, cm *format.ColumnMetaData, i int) error {
	start := cm.DataPageOffset
	if cm.DictionaryPageOffset != 0 {
		start = cm.DictionaryPageOffset
	}
	if start < 0 || cm.TotalCompressedSize < 0 || start+cm.TotalCompressedSize > p.pf.Size() {
		return fmt.Errorf("the column chunk lies outside the file")
	}
	chunk := make([]byte, cm.TotalCompressedSize)
	if _, err := ra.ReadAt(chunk, start); err != nil && err != io.EOF {
		return err
	}
	codec := parquet.LookupCompressionCodec(cm.Codec)
	r := bytes.NewReader(chunk)
	dec := thrift.NewDecoder(new(thrift.CompactProtocol).NewReader(r))
	for page := 1; r.Len() > 0; page++ {
		var h format.PageHeader
		if err := dec.Decode(&h); err != nil {
			return fmt.Errorf("page %d: %v", page, err)
		}
		if h.CompressedPageSize < 0 || int(h.CompressedPageSize) > r.Len() {
			return fmt.Errorf("page %d: its size %d is beyond the column chunk", page, h.CompressedPageSize)
		}
		data := chunk[len(chunk)-r.Len():][:h.CompressedPageSize]
		r.Seek(int64(h.CompressedPageSize), io.SeekCurrent)
		want, got, err := pageValues(&h, data, codec, p.maxDef[i])
		if err != nil {
			return fmt.Errorf("page %d: %v", page, err)
		}
		if want != got {
			return fmt.Errorf("page %d declares %d values but holds %d", page, want, got)
		}
	}
	return nil
}

// pageValues returns the number of values that a page's header declares
// (without nulls) and the number its data holds, as the Parquet library
// decodes them, for a data page of byte arrays that is not
// dictionary-encoded; both are 0 for other pages.
func pageValues(h *format.PageHeader, data []byte, codec compress.Codec, maxDef int) (want, got int, err error) {
	var enc format.Encoding
	var levels []byte // the definition levels, if the column has them
	switch {
	case h.Type == format.DataPage && h.DataPageHeader.Valid:
		v := h.DataPageHeader.V
		enc, want = v.Encoding, int(v.NumValues)
		if isDictionary(enc) {
			return 0, 0, nil
		}
		if data, err = decompress(codec, data); err != nil {
			return 0, 0, err
		}
		if maxDef > 0 {
			if len(data) < 4 || 4+int(binary.LittleEndian.Uint32(data)) > len(data) || 4+int(binary.LittleEndian.Uint32(data)) < 4 {
				return 0, 0, io.ErrUnexpectedEOF
			}
			n := 4 + int(binary.LittleEndian.Uint32(data))
			levels, data = data[4:n], data[n:]
			if want, err = nonNull(v.DefinitionLevelEncoding, levels, want, maxDef); err != nil {
				return 0, 0, err
			}
		}
	case h.Type == format.DataPageV2 && h.DataPageHeaderV2.Valid:
		v := h.DataPageHeaderV2.V
		enc, want = v.Encoding, int(v.NumValues-v.NumNulls)
		if isDictionary(enc) {
			return 0, 0, nil
		}
		skip := int64(v.RepetitionLevelsByteLength) + int64(v.DefinitionLevelsByteLength)
		if skip < 0 || skip > int64(len(data)) {
			return 0, 0, io.ErrUnexpectedEOF
		}
		data = data[skip:]
		if !v.IsCompressed.Valid || v.IsCompressed.V {
			if data, err = decompress(codec, data); err != nil {
				return 0, 0, err
			}
		}
	default:
		return 0, 0, nil // a dictionary or index page
	}
	_, offsets, err := parquet.LookupEncoding(enc).DecodeByteArray(nil, data, nil)
	if err != nil {
		return 0, 0, err
	}
	return want, max(len(offsets)-1, 0), nil
}

// plainDictionary is the encoding PLAIN_DICTIONARY (2), deprecated but
// still written on the data pages of old files for RLE_DICTIONARY.
const plainDictionary format.Encoding = 2

// isDictionary reports whether a data page's values are indices into the
// column chunk's dictionary.
func isDictionary(enc format.Encoding) bool {
	return enc == plainDictionary || enc == format.RLEDictionary
}

// decompress returns the text of a page compressed with codec (nil for
// none).
func decompress(codec compress.Codec, data []byte) ([]byte, error) {
	if codec == nil || codec.CompressionCodec() == format.Uncompressed {
		return data, nil
	}
	return codec.Decode(nil, data)
}

// nonNull returns the number of values that are not null among the first
// n definition levels, encoded with enc, of a column whose maximum level
// is maxDef (1 for the flat columns the readers accept), as the library
// counts them.
func nonNull(enc format.Encoding, levels []byte, n, maxDef int) (int, error) {
	var e encoding.Encoding
	switch enc {
	case format.RLE:
		e = &rle.Encoding{BitWidth: bitWidth(maxDef)}
	case format.BitPacked:
		e = &bitpacked.Encoding{BitWidth: bitWidth(maxDef)}
	default:
		return 0, fmt.Errorf("unsupported encoding %v of the definition levels", enc)
	}
	decoded, err := e.DecodeLevels(nil, levels)
	if err != nil {
		return 0, err
	}
	if len(decoded) < n {
		return 0, fmt.Errorf("%d definition levels for %d values", len(decoded), n)
	}
	count := 0
	for _, l := range decoded[:n] {
		if int(l) == maxDef {
			count++
		}
	}
	return count, nil
}

// bitWidth returns the bits of a level up to max.
func bitWidth(max int) int {
	w := 0
	for ; max > 0; max >>= 1 {
		w++
	}
	return w
}

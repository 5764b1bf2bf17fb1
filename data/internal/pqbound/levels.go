package pqbound

import (
	"fmt"

	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/encoding/bitpacked"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/format"
)

// DeclaredValues returns the number of values, nulls included, that a
// page's header declares.
func DeclaredValues(h *format.PageHeader) int64 {
	switch {
	case h.DataPageHeader.Valid:
		return int64(h.DataPageHeader.V.NumValues)
	case h.DataPageHeaderV2.Valid:
		return int64(h.DataPageHeaderV2.V.NumValues)
	case h.DictionaryPageHeader.Valid:
		return int64(h.DictionaryPageHeader.V.NumValues)
	}
	return 0
}

// IsDictionary reports whether a data page's values are indices into the
// column chunk's dictionary.
func IsDictionary(enc format.Encoding) bool {
	return enc == plainDictionary || enc == format.RLEDictionary
}

// NonNull returns the number of values that are not null among the first
// n definition levels, encoded with enc, of a column whose maximum level
// is maxDef (1 for the flat columns the readers accept), as the library
// counts them, after checking the runs of RLE levels (Hybrid).
func NonNull(enc format.Encoding, levels []byte, n, maxDef int) (int, error) {
	var e encoding.Encoding
	switch enc {
	case format.RLE:
		e = &rle.Encoding{BitWidth: BitWidth(maxDef)}
	case format.BitPacked:
		e = &bitpacked.Encoding{BitWidth: BitWidth(maxDef)}
	default:
		return 0, fmt.Errorf("unsupported encoding %v of the definition levels", enc)
	}
	if enc == format.RLE {
		if _, err := Hybrid(levels, BitWidth(maxDef), n); err != nil {
			return 0, err
		}
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

// BitWidth returns the bits of a level up to max.
func BitWidth(max int) int {
	w := 0
	for ; max > 0; max >>= 1 {
		w++
	}
	return w
}

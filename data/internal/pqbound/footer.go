package pqbound

import (
	"fmt"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// MaxSchemaDepth is the deepest nesting of groups in a schema that Footer
// accepts. The library allocates, for every column, the names of the path
// from the root to it: a corrupt count of children can nest every element
// of a long schema in the one before it, which makes the paths' total
// length the square of the schema's.
const MaxSchemaDepth = 64

// TooLarge is Footer's error for metadata whose decoding would need more
// memory than the limit: Need bytes (see Decoded).
type TooLarge struct{ Need int64 }

// Error returns the bytes needed.
func (e *TooLarge) Error() string {
	return fmt.Sprintf("the metadata would need %d bytes to decode", e.Need)
}

// Footer checks the footer of a Parquet file, the thrift encoding of its
// FileMetaData (the bytes before the footer's length and the closing
// magic number), before the Parquet library decodes it: the counts and
// lengths it declares (see Struct), then what the library allocates from
// the decoded metadata before it checks them: the paths of the schema's
// columns, and a column chunk per column and row group. Metadata whose
// decoding would allocate more than limit bytes (if limit is positive; see
// Decoded) are refused with a *TooLarge error before they are decoded. It
// returns the decoded metadata, which shares b's memory, or an error describing the
// first fault.
func Footer(b []byte, limit int64) (*format.FileMetaData, error) {
	if _, err := Struct(b); err != nil {
		return nil, err
	}
	if need := Decoded(b); limit > 0 && need > limit {
		return nil, &TooLarge{Need: need}
	}
	md := new(format.FileMetaData)
	// Decoded as the library decodes it, whose errors these are.
	r := new(thrift.CompactProtocol).NewReaderFromBytes(b)
	if err := thrift.NewDecoder(r).Decode(md); err != nil {
		return nil, fmt.Errorf("reading parquet file metadata: %w", err)
	}
	leaves, open := 0, make([]int32, 0, 16)
	for i := range md.Schema {
		s := &md.Schema[i]
		if s.Type.Valid {
			leaves++
		}
		if n := s.NumChildren; n.Valid && n.V > 0 {
			if len(open) == MaxSchemaDepth {
				return nil, fmt.Errorf("the schema nests groups more than %d deep at its element %d", MaxSchemaDepth, i+1)
			}
			open = append(open, n.V)
			continue
		}
		for len(open) > 0 { // a leaf closes the groups whose last child it is
			if open[len(open)-1]--; open[len(open)-1] > 0 {
				break
			}
			open = open[:len(open)-1]
		}
	}
	for i, rg := range md.RowGroups {
		if len(rg.Columns) < leaves {
			return nil, fmt.Errorf("row group %d has %d column chunks for the schema's %d columns", i+1, len(rg.Columns), leaves)
		}
	}
	return md, nil
}

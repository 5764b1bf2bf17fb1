package dataio

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/consensuslab/consensus/data/internal/ingest"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// parquetText turns the values of one Parquet column into the text a user
// would have written: strings as they are, integers and floating-point
// numbers in decimal, decimals with their scale (1.50, not the unscaled
// 150), unsigned integers as unsigned, UUIDs in their usual form. Types
// whose text is not obvious (dates, times, timestamps and the like) are
// refused when the column is opened rather than rendered as raw numbers.
type parquetText struct {
	logical  string // the logical type, for messages
	scale    int    // decimal: digits after the point; -1 if not a decimal
	unsigned bool
	uuid     bool
}

// newParquetText returns the rendering of a column of type t, or an error
// for a type the reader does not take.
func newParquetText(t parquet.Type) (parquetText, error) {
	p := parquetText{scale: -1}
	lt := t.LogicalType()
	if lt == nil || lt.Value == nil {
		return p, nil
	}
	p.logical = lt.String()
	switch v := lt.Value.(type) {
	case *format.StringType, *format.EnumType, *format.JsonType:
	case *format.DecimalType:
		p.scale = int(v.Scale)
	case *format.IntType:
		p.unsigned = !v.IsSigned
	case *format.UUIDType:
		p.uuid = true
	default:
		return p, fmt.Errorf("has the Parquet logical type %s, which has no single text form; store it as strings", p.logical)
	}
	return p, nil
}

// The faults of a cell other than its conversion's (see parquetText.cell).
var (
	errNullCell  = errors.New("null cell")
	errEmptyCell = errors.New("empty cell")
	errNotUTF8   = errors.New("invalid UTF-8; string columns must be UTF-8")
)

// cell returns the text of v, a value of the column, trimmed of white
// space, or why it is not a cell: errNullCell, errEmptyCell, errNotUTF8 or
// the error of its conversion. It is the one rule of a Parquet cell: the
// page path (pageColumn, of readParquetPages and parquetReader.next)
// reads every dictionary entry and every value of a general page through
// it, and every string of a plain page through bytesCell, which is cell
// for the values that verbatim takes.
func (p parquetText) cell(v parquet.Value) (string, error) {
	if v.IsNull() {
		return "", errNullCell
	}
	if k := v.Kind(); k == parquet.ByteArray || k == parquet.FixedLenByteArray {
		if b := v.ByteArray(); p.verbatim(k, len(b)) {
			s, err := bytesCell(b, false)
			return strings.Clone(s), err
		}
	}
	s, err := p.text(v)
	if err != nil {
		return "", err
	}
	if s = strings.TrimSpace(s); s == "" {
		return "", errEmptyCell
	}
	return s, nil
}

// verbatim reports whether the text of a string value of kind k and n
// bytes is its bytes as they are: it is not a decimal, nor a UUID of 16
// bytes.
func (p parquetText) verbatim(k parquet.Kind, n int) bool {
	return p.scale < 0 && !(p.uuid && k == parquet.FixedLenByteArray && n == 16)
}

// bytesCell is parquetText.cell for the bytes b of a string value that
// verbatim takes: b must be UTF-8 (known beforehand if ascii is set), and
// not empty once trimmed of white space. The text returned shares b's
// memory.
func bytesCell(b []byte, ascii bool) (string, error) {
	if !ascii && !utf8.Valid(b) {
		return "", errNotUTF8
	}
	s := strings.TrimSpace(ingest.BytesString(b))
	if s == "" {
		return "", errEmptyCell
	}
	return s, nil
}

// text returns the text of v, a value that is not null and that verbatim
// does not take.
func (p parquetText) text(v parquet.Value) (string, error) {
	if p.scale >= 0 {
		return p.decimal(v)
	}
	if p.uuid && v.Kind() == parquet.FixedLenByteArray && len(v.ByteArray()) == 16 {
		h := hex.EncodeToString(v.ByteArray())
		return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
	}
	if p.unsigned {
		switch v.Kind() {
		case parquet.Int32:
			return strconv.FormatUint(uint64(uint32(v.Int32())), 10), nil
		case parquet.Int64:
			return strconv.FormatUint(uint64(v.Int64()), 10), nil
		}
	}
	switch v.Kind() {
	case parquet.Float:
		if f := float64(v.Float()); math.IsNaN(f) || math.IsInf(f, 0) {
			return "", nonFinite(f)
		}
	case parquet.Double:
		if f := v.Double(); math.IsNaN(f) || math.IsInf(f, 0) {
			return "", nonFinite(f)
		}
	}
	return valueText(v)
}

// nonFinite describes a NaN or infinite floating-point value, which
// pandas writes for a missing value.
func nonFinite(f float64) error {
	return fmt.Errorf("is NaN or infinite (%v): a missing value; %s", f, missingAdvice)
}

// decimal renders a decimal value with exactly p.scale digits after the
// point, as it was written.
func (p parquetText) decimal(v parquet.Value) (string, error) {
	var n big.Int
	switch v.Kind() {
	case parquet.Int32:
		n.SetInt64(int64(v.Int32()))
	case parquet.Int64:
		n.SetInt64(v.Int64())
	case parquet.ByteArray, parquet.FixedLenByteArray:
		b := v.ByteArray()
		n.SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 { // two's complement, negative
			n.Sub(&n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
	default:
		return "", fmt.Errorf("is a decimal stored as %v, which the Parquet format does not allow", v.Kind())
	}
	s := n.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if p.scale > 0 {
		if len(s) <= p.scale {
			s = strings.Repeat("0", p.scale-len(s)+1) + s
		}
		s = s[:len(s)-p.scale] + "." + s[len(s)-p.scale:]
	}
	if neg {
		s = "-" + s
	}
	return s, nil
}

// valueText returns the text of a Parquet value that is not a string:
// numbers in their shortest decimal form, booleans as "true" or "false".
func valueText(v parquet.Value) (string, error) {
	switch v.Kind() {
	case parquet.Boolean:
		return strconv.FormatBool(v.Boolean()), nil
	case parquet.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10), nil
	case parquet.Int64:
		return strconv.FormatInt(v.Int64(), 10), nil
	case parquet.Float:
		return strconv.FormatFloat(float64(v.Float()), 'g', -1, 32), nil
	case parquet.Double:
		return strconv.FormatFloat(v.Double(), 'g', -1, 64), nil
	}
	return "", fmt.Errorf("unsupported Parquet type %v; want strings, integers, floating-point numbers or booleans", v.Kind())
}

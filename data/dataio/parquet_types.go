package dataio

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

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

// text returns the text of v.
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

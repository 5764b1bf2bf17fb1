package pqbound

import (
	"encoding/binary"
	"fmt"

	"github.com/parquet-go/parquet-go/format"
)

// The encodings that declare sizes in their own headers.
const (
	plainDictionary format.Encoding = 2 // deprecated; RLE_DICTIONARY on old files' data pages
)

// Values checks the values of a data page (the bytes after its
// definition levels, decompressed) encoded with enc, of which at most n
// are not null, before the Parquet library decodes them: the counts that
// the encoding declares must not exceed n (the library allocates them at
// once), and the strings of DELTA_BYTE_ARRAY, each a prefix of the one
// before it and a suffix, must not decode to more than limit bytes. It
// does not allocate.
func Values(enc format.Encoding, data []byte, n int, limit int64) error {
	switch enc {
	case format.RLEDictionary, plainDictionary:
		if len(data) == 0 {
			return nil
		}
		if data[0] > 32 {
			return fmt.Errorf("dictionary indices of %d bits", data[0])
		}
		_, err := Hybrid(data[1:], int(data[0]), n)
		return err
	case format.RLE: // booleans, after the length of their runs
		if len(data) < 4 {
			return nil
		}
		m := int(binary.LittleEndian.Uint32(data))
		if m < 0 || m > len(data)-4 {
			return fmt.Errorf("runs of %d bytes declared in %d", m, len(data)-4)
		}
		_, err := Hybrid(data[4:4+m], 1, n)
		return err
	case format.DeltaBinaryPacked: // integers: only the count
		_, _, _, err := deltas(data, n, nil)
		return err
	case format.DeltaLengthByteArray:
		// Only the count: the library's decoder checks the lengths
		// against the data before it allocates by them.
		_, _, _, err := deltas(data, n, nil)
		return err
	case format.DeltaByteArray:
		// Each string is a prefix of the one before it and a suffix.
		rest, prefixes, count, err := lengths(data, n, limit)
		if err != nil {
			return err
		}
		rest, suffixes, count2, err := lengths(rest, n, limit-prefixes)
		if err != nil {
			return err
		}
		if count2 != count {
			return fmt.Errorf("%d prefixes for %d suffixes", count, count2)
		}
		if suffixes > int64(len(rest)) {
			return fmt.Errorf("suffixes of %d bytes declared in %d", suffixes, len(rest))
		}
	}
	return nil
}

// Hybrid walks the runs of the RLE / bit-packing hybrid encoding of values
// of width bits in b and returns how many values they declare; it
// refuses, without allocating, more than max+8 values (the last group of
// bit-packed values may hold up to 7 of padding) or runs beyond b.
func Hybrid(b []byte, width, max int) (int, error) {
	total := 0
	for len(b) > 0 {
		h, k := binary.Uvarint(b)
		if k <= 0 {
			return total, fmt.Errorf("a corrupt run header")
		}
		b = b[k:]
		var count uint64
		var size int
		if h&1 != 0 {
			count = (h >> 1) * 8
			size = int(min(h>>1, uint64(len(b)+1))) * width
			if h>>1 > uint64(len(b)) || size > len(b) {
				return total, fmt.Errorf("bit-packed values beyond the data")
			}
		} else {
			count, size = h>>1, (width+7)/8
			if size > len(b) {
				size = len(b) // the library reads the value as zero
			}
		}
		if count > uint64(max+8-total) {
			return total, fmt.Errorf("runs of %d values declared for %d", uint64(total)+count, max)
		}
		total += int(count)
		b = b[size:]
	}
	return total, nil
}

// lengths walks the DELTA_BINARY_PACKED lengths of strings at the start
// of b, at most max of them (see deltas), which must not be negative nor
// sum to more than limit.
func lengths(b []byte, max int, limit int64) (rest []byte, sum int64, count int, err error) {
	var total int64
	return deltas(b, max, func(x int64) error {
		if x < 0 || x > limit-total {
			return fmt.Errorf("strings of more than %d bytes", limit)
		}
		total += x
		return nil
	})
}

// deltas walks the DELTA_BINARY_PACKED integers at the start of b, of
// which there may be at most max, calling each with each value, and
// returns the bytes after them, their sum and count. With each nil it
// checks only the header's count and returns nothing else. It does not
// allocate.
func deltas(b []byte, max int, each func(int64) error) (rest []byte, sum int64, count int, err error) {
	var head [3]uint64
	for i := range head {
		v, k := binary.Uvarint(b)
		if k <= 0 {
			return b, 0, 0, fmt.Errorf("a corrupt DELTA_BINARY_PACKED header")
		}
		head[i], b = v, b[k:]
	}
	first, k := binary.Varint(b)
	if k <= 0 {
		return b, 0, 0, fmt.Errorf("a corrupt DELTA_BINARY_PACKED header")
	}
	b = b[k:]
	block, minis, total := head[0], head[1], head[2]
	if total > uint64(max) {
		return b, 0, 0, fmt.Errorf("%d values declared for %d", total, max)
	}
	if total == 0 {
		return b, 0, 0, nil
	}
	if block == 0 || block%128 != 0 || block > 1<<16 || minis == 0 || minis > block || block/minis%32 != 0 {
		return b, 0, 0, fmt.Errorf("a DELTA_BINARY_PACKED block of %d values in %d mini-blocks", block, minis)
	}
	if each == nil {
		return b, 0, 0, nil
	}
	per := int(block / minis)
	v := first
	emit := func(x int64) error {
		sum += x
		count++
		if each != nil {
			return each(x)
		}
		return nil
	}
	if err := emit(v); err != nil {
		return b, sum, count, err
	}
	for count < int(total) && len(b) > 0 {
		minDelta, k := binary.Varint(b)
		if k <= 0 {
			return b, sum, count, fmt.Errorf("a corrupt DELTA_BINARY_PACKED block")
		}
		b = b[k:]
		if uint64(len(b)) < minis {
			return b, sum, count, fmt.Errorf("a DELTA_BINARY_PACKED block beyond the data")
		}
		widths := b[:minis]
		b = b[minis:]
		for _, w := range widths {
			if count >= int(total) {
				break
			}
			if w > 64 {
				return b, sum, count, fmt.Errorf("deltas of %d bits", w)
			}
			size := per * int(w) / 8
			if size > len(b) {
				return b, sum, count, fmt.Errorf("a DELTA_BINARY_PACKED mini-block beyond the data")
			}
			for j := 0; j < per && count < int(total); j++ {
				v += minDelta + int64(unpack(b[:size], j, int(w)))
				if err := emit(v); err != nil {
					return b, sum, count, err
				}
			}
			b = b[size:]
		}
	}
	if count < int(total) {
		return b, sum, count, fmt.Errorf("%d values declared, %d held", total, count)
	}
	return b, sum, count, nil
}

// unpack returns the j-th value of w bits (at most 64) of the
// little-endian bit-packed b.
func unpack(b []byte, j, w int) uint64 {
	at := j * w
	i, o := at/8, at%8
	if w <= 56 && i+8 <= len(b) {
		return binary.LittleEndian.Uint64(b[i:]) >> o & (1<<w - 1)
	}
	var v uint64
	for bit := 0; bit < w; {
		at := j*w + bit
		i, o := at/8, at%8
		take := min(8-o, w-bit)
		v |= uint64(b[i]>>o&byte(1<<take-1)) << bit
		bit += take
	}
	return v
}

// Compressed checks the size that the compressed data of a page declare
// in the header of their codec, which the codec's decoder allocates at
// once, against size, the page header's uncompressed size: the length
// of a Snappy block, the content size of a Zstandard frame.
func Compressed(codec format.CompressionCodec, data []byte, size int) error {
	var n uint64
	switch codec {
	case format.Snappy:
		v, k := binary.Uvarint(data)
		if k <= 0 {
			return nil // the codec's own error
		}
		n = v
	case format.Zstd:
		n = zstdContentSize(data)
	}
	if n > uint64(size) {
		return fmt.Errorf("its compressed data declare %d bytes, the page %d", n, size)
	}
	return nil
}

// zstdContentSize returns the content size that the Zstandard frame at
// the start of b declares, or 0.
func zstdContentSize(b []byte) uint64 {
	_, at, size := zstdHeader(b)
	if size == 0 || at+size > len(b) {
		return 0
	}
	var v uint64
	for i := size - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[at+i])
	}
	if size == 2 {
		v += 256
	}
	return v
}

// zstdHeader returns the frame header descriptor of the Zstandard frame
// at the start of b, the offset of its content size and the size of that
// field (0 if the frame declares none), or zeros if b holds no frame.
func zstdHeader(b []byte) (fhd byte, at, size int) {
	if len(b) < 5 || binary.LittleEndian.Uint32(b) != 0xFD2FB528 {
		return 0, 0, 0
	}
	fhd = b[4]
	single := fhd>>5&1 == 1
	at = 5
	if !single {
		at++ // the window descriptor
	}
	at += []int{0, 1, 2, 4}[fhd&3] // the dictionary id
	size = []int{0, 2, 4, 8}[fhd>>6]
	if size == 0 && single {
		size = 1
	}
	return fhd, at, size
}

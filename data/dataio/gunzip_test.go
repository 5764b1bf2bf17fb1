package dataio

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"strings"
	"testing"
)

// The flags of a gzip header (RFC 1952) that gzipMember sets.
const (
	gzipHCRC    = 1 << 1
	gzipExtra   = 1 << 2
	gzipName    = 1 << 3
	gzipComment = 1 << 4
)

// gzipMember returns one gzip member of payload whose header has the
// given flags' fields: a name and a comment of any length, an extra field,
// a header CRC.
func gzipMember(t *testing.T, payload []byte, name, comment string, extra []byte, hcrc bool) []byte {
	t.Helper()
	flags := byte(0)
	if name != "" {
		flags |= gzipName
	}
	if comment != "" {
		flags |= gzipComment
	}
	if extra != nil {
		flags |= gzipExtra
	}
	if hcrc {
		flags |= gzipHCRC
	}
	h := []byte{0x1f, 0x8b, 8, flags, 0, 0, 0, 0, 0, 0xff}
	if extra != nil {
		h = binary.LittleEndian.AppendUint16(h, uint16(len(extra)))
		h = append(h, extra...)
	}
	if name != "" {
		h = append(append(h, name...), 0)
	}
	if comment != "" {
		h = append(append(h, comment...), 0)
	}
	if hcrc {
		h = binary.LittleEndian.AppendUint16(h, uint16(crc32.ChecksumIEEE(h)))
	}
	var body bytes.Buffer
	fw, _ := flate.NewWriter(&body, flate.BestCompression)
	fw.Write(payload)
	fw.Close()
	h = append(h, body.Bytes()...)
	h = binary.LittleEndian.AppendUint32(h, crc32.ChecksumIEEE(payload))
	return binary.LittleEndian.AppendUint32(h, uint32(len(payload)))
}

// TestGzipLongHeaderFields checks that gzip files whose members have name
// or comment fields of 512 bytes or more (valid: gzip -t and Python read
// them; Go's compress/gzip does not) are read, in one member or several,
// with extra fields and header CRCs; and that a header cut short or
// garbage after a member is still a corrupt file.
func TestGzipLongHeaderFields(t *testing.T) {
	text := "task,worker,label\n1,a,x\n1,b,y\n2,a,y\n2,b,y\n"
	want, err := ReadLabels(ctx, strings.NewReader(text), "plain.csv", ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	half := strings.Index(text, "2,a")
	long := strings.Repeat("n", 70000)
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"name 600 bytes", gzipMember(t, []byte(text), strings.Repeat("é", 300), "", nil, false)},
		{"comment 70000 bytes, extra, CRC", gzipMember(t, []byte(text), "x.csv", long, []byte("EX\x02\x00hi"), true)},
		{"two members, long fields in both", append(gzipMember(t, []byte(text[:half]), long, long, nil, true),
			gzipMember(t, []byte(text[half:]), strings.Repeat("m", 600), "", nil, false)...)},
		{"short fields", gzipMember(t, []byte(text), "x.csv", "ok", nil, false)},
	} {
		d, err := ReadLabelsAs(ctx, bytes.NewReader(tc.in), "in.csv.gz", "", ReadSettings{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if strings.Join(d.Tasks, ",") != strings.Join(want.Tasks, ",") || d.NumLabels() != want.NumLabels() {
			t.Errorf("%s: %d labels, tasks %v", tc.name, d.NumLabels(), d.Tasks)
		}
	}
	good := gzipMember(t, []byte(text), long, "", nil, false)
	for name, in := range map[string][]byte{
		"name without its end":   good[:10+1000],
		"garbage after a member": append(append([]byte(nil), good...), "garbage"...),
	} {
		if _, err := ReadLabelsAs(ctx, bytes.NewReader(in), "in.csv.gz", "", ReadSettings{}); err == nil || !strings.Contains(err.Error(), "corrupt") {
			t.Errorf("%s: %v, want a corrupt file", name, err)
		}
	}
}

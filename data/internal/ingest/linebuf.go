package ingest

// MaxLine is the most bytes a line of text may hold, whatever the memory
// limit: the blocks of ReadBlocks index their bytes with int32, and no
// labels file has a line near this long. The readers of package dataio
// refuse a longer line (their guard), so no buffer holds more of one line.
const MaxLine = 1 << 30

// GrowLine returns buf, its bytes kept, with room for at least more bytes
// beyond its length, for a line that has not ended yet. Its capacity
// doubles, so that the copies made while a long line comes in add up to
// less than the last, but stops at limit (if positive), the longest line
// the reader lets through plus the most it reads at once: the line-length
// limit bounds the buffers of every reader in one place, and a line
// that the limit ends takes at most about twice its length in memory.
func GrowLine(buf []byte, more, limit int) []byte {
	need := len(buf) + more
	if need <= cap(buf) {
		return buf
	}
	c := max(2*cap(buf), 4096)
	if limit > 0 && c > limit && cap(buf) < limit {
		c = limit // beyond it, a reader that lets longer lines through doubles on
	}
	c = max(c, need)
	out := make([]byte, len(buf), c)
	copy(out, buf)
	return out
}

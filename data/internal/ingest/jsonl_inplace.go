package ingest

// edits logs the bytes of a block's data that the JSON Lines parser
// overwrote with decoded values (decodeInPlace), so that the lines that
// go to the record-by-record reader are restored first (undo) and read as
// they stand in the input.
type edits struct {
	at  []int32 // where each edit starts in the block's data
	n   []int32 // its length
	old []byte  // the bytes the edits overwrote, one after the other
}

// reset empties the log, for a block of new data.
func (e *edits) reset() { e.at, e.n, e.old = e.at[:0], e.n[:0], e.old[:0] }

// undo restores the bytes of data that the edits from position from on
// overwrote. The edits of a line lie within it, so undo from a line's start
// restores that line and the ones after it, and no other.
func (e *edits) undo(data []byte, from int) {
	off := 0
	for i, at := range e.at {
		n := int(e.n[i])
		if int(at) >= from {
			copy(data[at:int(at)+n], e.old[off:off+n])
		}
		off += n
	}
}

// decodeInPlace writes the wanted values with escapes of the line that
// the scan has just read, decoded (their cells in p.json.text), over their
// text in the line, which starts at data position off, and points p.json.at
// at them in the line; it logs the bytes it overwrites in p.edits. A decoded
// value is never longer than its text with escapes (appendJSONText), so it
// fits. It reports false, changing nothing, if the parser has no log (a
// caller that restores nothing) or a value does not fit.
func (p *ChunkParser) decodeInPlace(line []byte, off int) bool {
	s := p.json
	if p.edits == nil {
		return false
	}
	for k, esc := range s.esc {
		if esc && s.at[k][1]-s.at[k][0] > s.raw[k][1]-s.raw[k][0] {
			return false
		}
	}
	for k, esc := range s.esc {
		if !esc {
			continue
		}
		text := s.text[s.at[k][0]:s.at[k][1]]
		a := int(s.raw[k][0])
		dst := line[a : a+len(text)]
		p.edits.at = append(p.edits.at, int32(off+a))
		p.edits.n = append(p.edits.n, int32(len(text)))
		p.edits.old = append(p.edits.old, dst...)
		copy(dst, text)
		s.at[k] = [2]int32{int32(a), int32(a + len(text))}
	}
	return true
}

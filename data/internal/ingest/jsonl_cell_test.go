package ingest

import (
	"bytes"
	"testing"
)

// TestJSONCell checks the cell rule of a wanted JSON Lines value on each
// kind of value.
func TestJSONCell(t *testing.T) {
	for _, c := range []struct {
		kind byte
		text string
		want string
		ok   bool
	}{
		{'"', "t1", "t1", true},
		{'"', " \t padded\n\r", "padded", true},
		{'"', "\u00a0t\u3000", "t", true},
		{'"', "\u00e9", "\u00e9", true},
		{'"', " a b ", "a b", true},
		{'"', "\v\f x \u0085", "x", true},
		{'"', "", "", false},
		{'"', " \t", "", false},
		{'"', "\u00a0\u3000 ", "", false},
		{'-', "-0", "-0", true},
		{'1', "1e3", "1e3", true},
		{'0', "0.50", "0.50", true},
		{'t', "true", "true", true},
		{'f', "false", "false", true},
		{'n', "null", "", false},
		{'{', "", "", false},
		{'[', "", "", false},
	} {
		a, z, ok := JSONCell(c.kind, []byte(c.text))
		if ok != c.ok || ok && c.text[a:z] != c.want {
			t.Errorf("JSONCell(%q, %q) = %q, %v; want %q, %v", c.kind, c.text, c.text[a:z], ok, c.want, c.ok)
		}
		if c.kind == '"' && ok && string(bytes.TrimSpace([]byte(c.text))) != c.text[a:z] {
			t.Errorf("JSONCell(%q, %q) trims to %q, bytes.TrimSpace to %q", c.kind, c.text, c.text[a:z], bytes.TrimSpace([]byte(c.text)))
		}
	}
}

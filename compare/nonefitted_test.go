package compare

import (
	"errors"
	"testing"
)

// TestNoneFitted checks the error of a report in which no model was
// fitted, with the first model's failure on one line, and nil as soon as
// one model was.
func TestNoneFitted(t *testing.T) {
	bad := errors.New("fit failed:\n  overflow")
	for _, c := range []struct {
		name string
		rows []Row
		want string // "" for nil
	}{
		{"no rows", nil, "no model was compared"},
		{"all failed", []Row{{Model: "la-ds", Err: bad}, {Model: "da-ds", Err: bad}}, "none of the 2 models could be fitted (la-ds: fit failed: overflow)"},
		{"one fitted", []Row{{Model: "la-ds", Err: bad}, {Model: "da-ds"}}, ""},
	} {
		err := (&Report{Rows: c.rows}).NoneFitted()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want nil", c.name, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

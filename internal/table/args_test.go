package table

import (
	"errors"
	"testing"
)

// TestArgumentErrors checks that NewWriter without a writer, and EndRow and
// Close on the zero Writer, return an error wrapping ErrArgument instead of
// panicking.
func TestArgumentErrors(t *testing.T) {
	var zero Writer
	for _, c := range []struct {
		name string
		err  error
	}{
		{"new writer", second(NewWriter(nil, "", []Column{{Name: "a"}}))},
		{"end row", zero.EndRow()},
		{"close", zero.Close()},
	} {
		if !errors.Is(c.err, ErrArgument) {
			t.Errorf("%s: error %v, want one wrapping ErrArgument", c.name, c.err)
		}
	}
}

// second returns the error of a call that returns a value and an error.
func second[T any](_ T, err error) error { return err }

package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/consensuslab/consensus/data"
)

// usageError marks errors caused by the command line or the input data:
// they exit with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usageErr(err error) error { return usageError{err} }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

func isUsage(err error) bool {
	var u usageError
	var in *data.InputError
	return errors.As(err, &u) || errors.As(err, &in)
}

// oneLine flattens an error message to a single line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", " ")), " ")
}

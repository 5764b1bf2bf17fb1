package main

import (
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// zeroDefaults lists the number flags whose zero, in the settings struct
// they fill, means that struct's default: given explicitly as 0 they
// would silently give the default (--objects 0 would simulate 2000
// objects), so checkZeros refuses them. cmd is the command's path after
// "consensus", or "" for the flag in every command that has it. want says
// what to give instead. Flags whose zero is a value (--ridge 0, --seed 0,
// --spammers 0) or a stated meaning (--threads 0 and --parallel 0: all
// cores) are not listed.
var zeroDefaults = []struct{ cmd, flag, want string }{
	{"", "max-iter", "at least 1 iteration"},
	{"", "grad-tol", "a positive tolerance"},
	{"", "func-tol", "a positive tolerance"},
	{"", "q-prior", "a positive pseudo-count"},
	{"simulate", "objects", "at least 1 object"},
	{"simulate", "workers", "at least 1 worker"},
	{"simulate", "classes", "at least 2 classes"},
	{"simulate", "labels-per-object", "at least 1 label per object"},
	{"simulate", "concentration", "a positive concentration"},
	{"pairwise simulate", "items", "at least 2 items"},
	{"pairwise simulate", "workers", "at least 1 worker"},
	{"pairwise simulate", "comparisons", "at least 1 comparison"},
	{"pairwise simulate", "spread", "a positive spread"},
	{"pairwise fit", "tol", "a positive tolerance"},
	{"compare", "splits", "at least 1 split"},
	{"compare", "bootstrap", "at least 1 resample"},
	{"report", "bootstrap", "at least 1 replicate, or a negative number for none"},
}

// checkZeros refuses a flag of zeroDefaults given as 0 on the command line
// of c (the root's PersistentPreRunE, so the rule holds for every command):
// a zero must mean zero or be refused, never silently the default.
func checkZeros(c *cobra.Command, _ []string) error {
	path := c.CommandPath()
	if root := c.Root(); root != c {
		path = path[len(root.Name())+1:]
	} else {
		path = ""
	}
	var err error
	c.Flags().Visit(func(f *pflag.Flag) {
		if err != nil || f.Value.Type() == "string" {
			return
		}
		v, perr := strconv.ParseFloat(f.Value.String(), 64)
		if perr != nil || v != 0 {
			return
		}
		for _, z := range zeroDefaults {
			if z.flag == f.Name && (z.cmd == "" || z.cmd == path) {
				err = usagef("--%s 0: want %s; leave the flag out for the default", f.Name, z.want)
				return
			}
		}
	})
	return err
}

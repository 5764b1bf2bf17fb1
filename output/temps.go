package output

import (
	"os"
	"sync"
)

// temps holds the temporary files of the WriteFile calls in progress, so
// that a program stopping abruptly can remove them with RemoveTemps.
var temps struct {
	sync.Mutex
	names map[string]bool
}

func addTemp(name string) {
	temps.Lock()
	defer temps.Unlock()
	if temps.names == nil {
		temps.names = make(map[string]bool)
	}
	temps.names[name] = true
}

func dropTemp(name string) {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.names, name)
}

// commits serialises the renames of WriteFiles with the exit of a
// program after an interrupt (Freeze).
var commits struct {
	sync.Mutex
	frozen bool // no more renames
	done   bool // a WriteFiles call has renamed files over their targets
}

// Freeze stops every later WriteFiles call from renaming files (a call
// renaming now finishes first; the later ones fail with
// context.Canceled) and reports whether a call has already renamed files
// over their targets. A program exiting after an interrupt calls it, so
// that what it says about the files is true when it exits.
func Freeze() (committed bool) {
	commits.Lock()
	defer commits.Unlock()
	commits.frozen = true
	return commits.done
}

// RemoveTemps removes the temporary files of every WriteFile call still in
// progress, leaving their targets untouched. A program that exits without
// waiting for those calls (after an interrupt, say) calls it first so that
// no temporary file is left behind. The interrupted calls fail.
func RemoveTemps() {
	temps.Lock()
	defer temps.Unlock()
	for name := range temps.names {
		os.Remove(name)
		delete(temps.names, name)
	}
}

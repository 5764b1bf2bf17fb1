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

package mem_test

import (
	"fmt"

	"github.com/consensuslab/consensus/internal/mem"
)

// A vector of 10⁶ values (8 MB) that a fit is about to fill: its whole
// 2 MiB pages are advised to huge pages; it is zeroed like make's.
func ExampleMake() {
	x := mem.Make[float64](1_000_000)
	for i := range x {
		x[i] = 0.5
	}
	fmt.Println(len(x), x[0], x[len(x)-1])
	// Output: 1000000 0.5 0.5
}

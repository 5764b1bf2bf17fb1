package noise_test

import (
	"fmt"

	"github.com/consensuslab/consensus/noise"
)

// The noise models and their numbers of parameters per worker and per
// object for K = 3 classes.
func Example() {
	for _, m := range []noise.Model{noise.DS{}, noise.GLAD{}, noise.MME{}} {
		fmt.Printf("%s: %d per worker, %d per object\n", m.Name(), m.WorkerDim(3), m.TaskDim(3))
	}
	// Output:
	// ds: 9 per worker, 0 per object
	// glad: 1 per worker, 1 per object
	// mme: 9 per worker, 9 per object
}

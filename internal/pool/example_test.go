package pool_test

import (
	"context"
	"fmt"

	"github.com/consensuslab/consensus/internal/pool"
)

// Each job writes its result into its own slot, so the results are the
// same for any number of workers; Ended reports the jobs as they end.
func ExampleRun() {
	squares := make([]int, 5)
	ended := 0
	err := pool.Run(context.Background(), len(squares), pool.Settings{
		Threads: 2,
		Ended:   func(e pool.Ended) { ended = e.Ended },
	}, func(i int) error {
		squares[i] = i * i
		return nil
	})
	fmt.Println(squares, ended, err)
	// Output: [0 1 4 9 16] 5 <nil>
}

package latent_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// The same noise model under both assumptions: LA outputs the posterior of
// one true class, DA the object's label distribution q_j.
func Example() {
	la := model.Model{Noise: noise.GLAD{}, Latent: latent.LA{}}
	da := model.Model{Noise: noise.GLAD{}, Latent: latent.DA{}}
	fmt.Println(la.Name(), da.Name())
	// Output: la-glad da-glad
}

// Under DA every label has its own latent class drawn from q_j; under LA
// all labels of an object share one.
func ExampleGenerator() {
	rng := rand.New(rand.NewPCG(1, 2))
	q := []float64{0.5, 0.5}
	z := make([]int, 8)
	latent.LA{}.Generate(rng, q, z)
	fmt.Println("LA all equal:", allEqual(z))
	// Output: LA all equal: true
}

func allEqual(z []int) bool {
	for _, v := range z {
		if v != z[0] {
			return false
		}
	}
	return true
}

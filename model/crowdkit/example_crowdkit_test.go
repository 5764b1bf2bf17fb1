package crowdkit_test

import (
	"context"
	"fmt"
	"log"
	"math"
	"os"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/crowdkit"
)

// Wawa weights every label by its worker's agreement with the majority
// vote: ann and cid agree on 3 of 4 images (weight 3/4), bob on all (weight 1),
// so img1 gets P(cat) = (3/4 + 1) / (3/4 + 1 + 3/4).
func ExampleWawa() {
	d := load()
	res, err := crowdkit.Wawa{}.Fit(context.Background(), d, nil)
	if err != nil {
		log.Fatal(err)
	}
	for j, task := range d.Tasks {
		fmt.Printf("%s P(cat) = %.3f\n", task, res.Dist(j)[0])
	}
	// Output:
	// img1 P(cat) = 0.700
	// img2 P(cat) = 0.000
	// img3 P(cat) = 0.300
	// img4 P(cat) = 1.000
}

// ZeroBasedSkill moves the skills towards the agreement with the weighted
// vote; on these labels it stops at Wawa's skills.
func ExampleZeroBasedSkill() {
	d := load()
	res, err := crowdkit.ZeroBasedSkill{}.Fit(context.Background(), d, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d iterations, %s, labels %v\n", res.Iterations, res.Status, res.Labels(1))
	// Output:
	// 2 iterations, fixed point, labels [0 1 1 0]
}

// GoldMajorityVote measures the skills on training gold: here img3 is
// known to be a cat, which only ann said, so ann's label outweighs the
// two others on every image.
func ExampleGoldMajorityVote() {
	d := load()
	gold := []int{-1, -1, d.ClassIndex("cat"), -1} // one entry per task, -1: no gold
	res, err := crowdkit.GoldMajorityVote{Gold: gold}.Fit(context.Background(), d, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Labels(1))

	// From a gold file read with dataio.LoadGold, the slice is
	// latent.GoldClasses(d, g); without gold, Fit refuses.
	_, err = crowdkit.GoldMajorityVote{Gold: latent.GoldClasses(d, nil)}.Fit(context.Background(), d, nil)
	fmt.Println(err)
	// Output:
	// [0 1 0 0]
	// gmv needs training gold to measure worker skills: no task has a gold class
}

// KOS passes messages between objects and workers; it is for two classes.
// On the temp data set the paper's algorithm as it stands (Raw, as in
// Crowd-Kit) follows the workers' bias towards one class; centring each
// worker's labels first recovers the true classes.
func ExampleKOS() {
	d, gold, err := datasets.Load("temp")
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range []crowdkit.KOS{{Raw: true}, {}} {
		res, err := e.Fit(context.Background(), d, nil)
		if err != nil {
			log.Fatal(err)
		}
		acc, err := metrics.Accuracy(res.Probs, res.K(), gold, 1)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("raw %v: accuracy %.4f\n", e.Raw, acc)
	}
	// Output:
	// raw true: accuracy 0.5693
	// raw false: accuracy 0.9307
}

// MMSR estimates every worker's skill from the agreement matrix of the
// workers. On adult, estimating which workers are adversarial (worse than
// random) costs accuracy: the non-adversarial form is closer to Crowd-Kit.
func ExampleMMSR() {
	d, gold, err := datasets.Load("adult")
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range []crowdkit.MMSR{{}, {NonAdversarial: true}} {
		res, err := e.Fit(context.Background(), d, nil)
		if err != nil {
			log.Fatal(err)
		}
		acc, err := metrics.Accuracy(res.Probs, res.K(), gold, 1)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("non-adversarial %v: accuracy %.4f\n", e.NonAdversarial, acc)
	}
	// Output:
	// non-adversarial false: accuracy 0.7207
	// non-adversarial true: accuracy 0.7598
}

// A vote weighted by skills known from elsewhere (Crowd-Kit's
// MajorityVote.fit(data, skills)): bob counts three times as much as ann,
// and cid, whose skill is unknown, is left out. img1, where ann and bob say
// cat and cid dog, gets P(cat) = 1, and img3, where ann says cat and bob
// dog, P(cat) = 1/(1 + 3). WorkerSkills reports each worker's agreement
// with the consensus label, cid's too.
func ExampleWeightedVote() {
	d := load() // workers ann, bob, cid
	v := model.WeightedVote{Skills: []float64{1, 3, math.NaN()}, Missing: model.MissingIgnore}
	res, err := v.Fit(context.Background(), d, nil)
	if err != nil {
		log.Fatal(err)
	}
	for j, task := range d.Tasks {
		fmt.Printf("%s P(cat) = %.2f\n", task, res.Dist(j)[0])
	}
	fmt.Println(res.WorkerSkills())
	// Output:
	// img1 P(cat) = 1.00
	// img2 P(cat) = 0.00
	// img3 P(cat) = 0.25
	// img4 P(cat) = 1.00
	// [0.75 1 0.75]
}

// load reads the pets of package model's examples: three workers label
// four images.
func load() *data.Dataset {
	f, err := os.Open("testdata/pets.csv")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	d, err := dataio.ReadLabels(context.Background(), f, "pets.csv", dataio.ReadSettings{})
	if err != nil {
		log.Fatal(err)
	}
	return d
}

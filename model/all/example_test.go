package all_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	_ "github.com/consensuslab/consensus/model/all"
)

// Smoothed is a whole estimator family in one file, outside package
// model: the label frequencies of every task with add-one (Laplace)
// smoothing, P_j(z) = (n_j(z) + 1) / (n_j + K). In a package of its own,
// its init registers it, and one import line in package all makes it known
// to every command, to Python through the command line, and to the
// conformance tests that loop over model.Registry.
type Smoothed struct{}

// Name returns "smoothed".
func (Smoothed) Name() string { return "smoothed" }

// Fit returns the smoothed frequencies of d. It takes no settings.
func (e Smoothed) Fit(ctx context.Context, d *data.Dataset, _ *model.Settings) (*model.Result, error) {
	if err := model.CheckFit(ctx, d); err != nil {
		return nil, err
	}
	start := time.Now()
	k := d.NumClasses()
	p := d.Counts()
	for j := range d.Tasks {
		n := float64(d.Offsets[j+1] - d.Offsets[j])
		for z := range k {
			p[j*k+z] = (p[j*k+z] + 1) / (n + float64(k))
		}
	}
	return model.ClosedForm(e.Name(), d, p, start), nil
}

func init() {
	model.Register(model.Family{
		Name:    "smoothed",
		Section: model.SectionHeuristic,
		Rank:    1, // after Crowd-Kit's heuristics
		Entries: func() []model.Entry {
			return []model.Entry{{
				Name:    "smoothed",
				Summary: "label frequencies with add-one smoothing",
				New:     func() model.Estimator { return Smoothed{} },
			}}
		},
	})
}

// A family registers its estimators with model.Register; model.ByName and
// model.Registry then list them beside the others, in the order of the
// family's section and rank.
func ExampleRegister() {
	d, err := data.FromIndices([]string{"t1", "t2"}, []string{"ann", "bob", "cid"}, []string{"cat", "dog"},
		[]int32{0, 0, 0, 1, 1}, []int32{0, 1, 2, 0, 1}, []uint16{0, 0, 1, 1, 1})
	if err != nil {
		log.Fatal(err)
	}
	est, err := model.ByName("smoothed")
	if err != nil {
		log.Fatal(err)
	}
	r, err := est.Fit(context.Background(), d, nil)
	if err != nil {
		log.Fatal(err)
	}
	for j, task := range d.Tasks {
		fmt.Printf("%s: P(cat) = %.2f\n", task, r.Dist(j)[0])
	}
	names := model.Names()
	fmt.Println("registered after", names[len(names)-2])
	// Output:
	// t1: P(cat) = 0.60
	// t2: P(cat) = 0.25
	// registered after mmsr
}

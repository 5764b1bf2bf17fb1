package output_test

import (
	"log"
	"os"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/output"
)

// The crowdkit layout has Crowd-Kit's columns: task, agg_label (its
// fit_predict), then one column per class named by the class (its
// fit_predict_proba).
func ExampleWriteConsensusCrowdKit() {
	if err := output.WriteConsensusCrowdKit(os.Stdout, fitted(), 1, dataio.CSV); err != nil {
		log.Fatal(err)
	}
	// Output:
	// task,agg_label,cat,dog
	// img1,cat,0.6666666666666666,0.3333333333333333
	// img2,dog,0,1
}

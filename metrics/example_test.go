package metrics_test

import (
	"fmt"
	"log"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/metrics"
)

// The worked example of the package documentation: two binary tasks of
// true class 0, predicted as (0.8, 0.2) and (0.4, 0.6).
func Example() {
	pred := []float64{
		0.8, 0.2, // task 0
		0.4, 0.6, // task 1
	}
	gold := &data.Gold{Task: []int32{0, 1}, Label: []uint16{0, 0}}
	s, err := metrics.Evaluate(pred, 2, gold, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("accuracy %.4f\nlog loss %.4f\nbrier    %.4f\nECE      %.4f\nN        %d\n",
		s.Accuracy, s.LogLoss, s.Brier, s.ECE, s.N)
	// Output:
	// accuracy 0.5000
	// log loss 0.8219
	// brier    0.4000
	// ECE      0.4000
	// N        2
}

// Uniform probabilities score a log loss of exactly 1 whatever the number
// of classes, because the logarithm is taken in base k.
func ExampleLogLoss() {
	gold := &data.Gold{Task: []int32{0}, Label: []uint16{1}}
	for _, k := range []int{2, 3, 10} {
		pred := make([]float64, k)
		for c := range pred {
			pred[c] = 1 / float64(k)
		}
		ll, err := metrics.LogLoss(pred, k, gold)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("k=%d: %.4f\n", k, ll)
	}
	ll, err := metrics.LogLoss([]float64{1, 0, 0}, 3, gold)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ll)
	// Output:
	// k=2: 1.0000
	// k=3: 1.0000
	// k=10: 1.0000
	// +Inf
}

// Scoring the relative frequency estimator as in the paper: accuracy
// averaged over 10 tie-breaking draws, log loss after add-one smoothing.
func ExampleAddOne() {
	counts := []float64{
		3, 0, // task 0: three labels of class 0
		1, 1, // task 1: a tie
	}
	freq := []float64{1, 0, 0.5, 0.5}
	gold := &data.Gold{Task: []int32{0, 1}, Label: []uint16{1, 1}}

	raw, err := metrics.LogLoss(freq, 2, gold)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("raw log loss:", raw)
	smooth := metrics.AddOne(counts, 2)
	fmt.Printf("smoothed: %.2f\n", smooth)
	ll, err := metrics.LogLoss(smooth, 2, gold)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("smoothed log loss: %.4f\n", ll)
	acc, err := metrics.ExpectedAccuracy(freq, 2, gold)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("expected accuracy: %.2f\n", acc)
	// Output:
	// raw log loss: +Inf
	// smoothed: [0.80 0.20 0.50 0.50]
	// smoothed log loss: 1.6610
	// expected accuracy: 0.25
}

// For binary labels MSE is the paper's mean squared error of the estimated
// probability of class 1.
func ExampleMSE() {
	truth := []float64{0.3, 0.7, 0.9, 0.1}
	pred := []float64{0.2, 0.8, 0.6, 0.4}
	// ((0.8-0.7)² + (0.4-0.1)²)/2 = (0.01 + 0.09)/2
	mse, err := metrics.MSE(pred, truth, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.4f\n", mse)
	// Output:
	// 0.0500
}

// Points of a calibration plot: true probability of class 1 against its
// estimate, in two bins.
func ExampleCalibration() {
	truth := []float64{0.9, 0.1, 0.8, 0.2, 0.3, 0.7}
	pred := []float64{0.99, 0.01, 0.95, 0.05, 0.02, 0.98}
	bins, err := metrics.Calibration(pred, truth, 2, 1, 2)
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range bins {
		fmt.Printf("[%.1f, %.1f) n=%d true %.2f estimate %.2f\n", b.Lo, b.Hi, b.N, b.X, b.Y)
	}
	// Output:
	// [0.0, 0.5) n=2 true 0.15 estimate 0.03
	// [0.5, 1.0) n=1 true 0.70 estimate 0.98
}

// A 95% percentile bootstrap interval for the Brier score.
func ExampleBootstrap() {
	pred := []float64{0.9, 0.1, 0.8, 0.2, 0.3, 0.7, 0.6, 0.4, 0.5, 0.5, 0.1, 0.9}
	gold := &data.Gold{Task: []int32{0, 1, 2, 3, 4, 5}, Label: []uint16{0, 0, 1, 1, 0, 1}}
	brier, err := metrics.Brier(pred, 2, gold)
	if err != nil {
		log.Fatal(err)
	}
	lo, hi, err := metrics.Bootstrap(pred, 2, gold, metrics.Brier, 1000, 1, 0.95)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("Brier %.3f, 95%% interval [%.3f, %.3f]\n", brier, lo, hi)
	// Output:
	// Brier 0.253, 95% interval [0.057, 0.487]
}

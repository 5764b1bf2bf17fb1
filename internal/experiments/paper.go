package experiments

// The numbers of the paper (Fedorova, Gusev, Serdyukov, "Latent Distribution
// Assumption for Unbiased and Consistent Consensus Modelling", 2019),
// copied verbatim as strings from its tables so that they print exactly as
// published. "inf" stands for the paper's \infty.

// paperModels lists the seven models in the column order of the paper's
// tables 2 and 3.
var paperModels = []string{"rfe", "la-ds", "da-ds", "la-glad", "da-glad", "la-mme", "da-mme"}

// paperDataset describes one row of the paper's tables.
type paperDataset struct {
	// Name is the name of the shipped data set (datasets.Load), or
	// "price" for the data set that is not public.
	Name string
	// Title is the paper's row label.
	Title string
	// K is the number of classes.
	K int
	// Acc is the row of table 2, "Accuracy (in %) of various models
	// across real data sets": RFE absolute, the six models relative to
	// RFE, in the order of paperModels.
	Acc [7]string
	// LogLoss is the row of table 3, "Log loss results across real data
	// sets", in the order of paperModels.
	LogLoss [7]string
	// Stats is the row of the appendix table "Summary statistics for real
	// data sets": classes, objects, workers, samples, labels per object
	// (mean), labels per worker (mean, median), ground truth objects.
	Stats [8]string
}

// paperData holds the rows of the paper's tables 2 and 3 (section 6) and of
// the appendix B table of data set statistics, in the paper's order.
var paperData = []paperDataset{
	{
		Name: "duchenne", Title: "Duchenne smiles", K: 2,
		Acc:     [7]string{"72.08", "+4.65", "+4.03", "+3.4", "+5.28", "-31.82", "+0.88"},
		LogLoss: [7]string{"inf", "2.467", "0.821", "2.074", "0.753", "3.464", "0.817"},
		Stats:   [8]string{"2", "2134", "64", "30319", "14.2", "473.7", "109", "159"},
	},
	{
		Name: "websearch", Title: "Web search", K: 5,
		Acc:     [7]string{"73.03", "+12.69", "+6.66", "+8.2", "+7.3", "+3.04", "+10.88"},
		LogLoss: [7]string{"inf", "0.247", "0.364", "0.408", "0.468", "0.747", "0.331"},
		Stats:   [8]string{"5", "2665", "177", "15567", "5.8", "87.9", "19", "2653"},
	},
	{
		Name: "trec2010", Title: "TREC", K: 3,
		Acc:     [7]string{"45.48", "+6.43", "+3.47", "-0.78", "-0.1", "+0.72", "+1.51"},
		LogLoss: [7]string{"inf", "1.403", "1.143", "1.28", "1.116", "1.779", "1.196"},
		Stats:   [8]string{"3", "20026", "762", "91783", "4.6", "120.5", "18", "3275"},
	},
	{
		Name: "rte", Title: "Textual entailment", K: 2,
		Acc:     [7]string{"89.92", "+2.7", "+2.33", "+3.2", "+2.08", "-5.55", "-2.42"},
		LogLoss: [7]string{"0.509", "0.554", "0.363", "0.308", "0.377", "0.9", "0.454"},
		Stats:   [8]string{"2", "800", "164", "8000", "10.0", "48.8", "20", "800"},
	},
	{
		Name: "temp", Title: "Temporal ordering", K: 2,
		Acc:     [7]string{"93.55", "+0.61", "+0.82", "+0.39", "+0.82", "-2.21", "-1.56"},
		LogLoss: [7]string{"inf", "0.841", "0.26", "0.331", "0.252", "0.817", "0.286"},
		Stats:   [8]string{"2", "462", "76", "4620", "10.0", "60.8", "20", "462"},
	},
	{
		Name: "adult", Title: "Adult content", K: 4,
		Acc:     [7]string{"76.04", "-0.36", "+1.44", "-0.36", "-0.96", "-1.56", "+2.34"},
		LogLoss: [7]string{"inf", "1.345", "0.507", "0.875", "0.535", "1.385", "0.501"},
		Stats:   [8]string{"4", "11040", "825", "92721", "8.4", "112.4", "18", "1517"},
	},
	{
		Name: "price", Title: "Price", K: 7,
		Acc:     [7]string{"32.5", "-1.25", "+1.25", "0.0", "0.0", "-2.5", "+2.5"},
		LogLoss: [7]string{"inf", "80.365", "3.128", "16.357", "0.917", "42.651", "1.675"},
		Stats:   [8]string{"7", "80", "155", "12400", "155.0", "80.0", "80", "80"},
	},
}

// PaperMSE holds the paper's table 4, "Mean squared error between true and
// estimated probabilities" on synthetic DA-GLAD data, averaged over 10
// simulations: mean and standard deviation for the LA and the DA model.
var PaperMSE = struct {
	LA, LASD, DA, DASD float64
}{LA: 0.071, LASD: 0.002, DA: 0.010, DASD: 0.001}

// Paper's summary counts of section 6: among the 21 LA/DA comparisons of
// tables 2 and 3 the DA model is better 13 times in accuracy and 18 times in
// log loss.
const (
	PaperAccuracyDAWins = 13
	PaperLogLossDAWins  = 18
	PaperComparisons    = 21
)

package data

// TaskWeights is a J×K matrix of per-task weights over the classes, such as
// the relative label frequencies with which the paper's section 5 starts
// its models, read one task's row at a time. A model's initialisation reads
// it row by row, so that the frequencies need not be held as a matrix: at
// K = 20 with five labels a task that matrix takes 32 bytes a label, five
// times what the labels themselves take.
type TaskWeights interface {
	// Row returns the K weights of task j. It may write them into buf,
	// which must have length K, and return buf; the caller must not
	// modify the returned slice, which is valid until the next call with
	// the same buf.
	Row(j int, buf []float64) []float64
}

// DenseWeights is TaskWeights held as a row-major J×K slice: row j is
// W[j*K : (j+1)*K].
type DenseWeights struct {
	K int
	W []float64
}

// Row returns W[j*K : (j+1)*K]; buf is not used.
func (m DenseWeights) Row(j int, _ []float64) []float64 {
	return m.W[j*m.K : (j+1)*m.K : (j+1)*m.K]
}

// FrequencyWeights returns the relative label frequencies of d as
// TaskWeights computed when a row is read, the same values as the rows of
// Frequencies without its J×K matrix.
func (d *Dataset) FrequencyWeights() TaskWeights { return frequencyWeights{d} }

// frequencyWeights is Dataset.FrequencyWeights.
type frequencyWeights struct{ d *Dataset }

// Row writes the relative label frequencies of task j into buf.
func (f frequencyWeights) Row(j int, buf []float64) []float64 {
	f.d.frequencyRow(j, buf)
	return buf
}

// frequencyRow writes the relative label frequencies of task j into row:
// its count of each class divided by its number of labels, or 1/K for a
// task without labels.
func (d *Dataset) frequencyRow(j int, row []float64) {
	d.TaskCounts(j, row)
	n := float64(d.Offsets[j+1] - d.Offsets[j])
	for z := range row {
		if n == 0 {
			row[z] = 1 / float64(len(row))
		} else {
			row[z] /= n
		}
	}
}

// WithClasses returns the weights base with the row of every task j with
// class[j] ≥ 0 replaced by the one-hot vector of class[j], such as the
// gold tasks' known classes. A nil base gives zero rows for the other
// tasks.
func WithClasses(base TaskWeights, class []int) TaskWeights {
	return classWeights{base, class}
}

// classWeights is WithClasses.
type classWeights struct {
	base  TaskWeights
	class []int
}

// Row returns the one-hot row of j's class, or base's row (zeros for a nil
// base).
func (c classWeights) Row(j int, buf []float64) []float64 {
	if j < len(c.class) && c.class[j] >= 0 {
		clear(buf)
		buf[c.class[j]] = 1
		return buf
	}
	if c.base == nil {
		clear(buf)
		return buf
	}
	return c.base.Row(j, buf)
}

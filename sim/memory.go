package sim

import "github.com/consensuslab/consensus/data/dataio"

// Memory is an estimate of the memory a simulation needs, with the sizes
// it was made from.
type Memory struct {
	// Bytes is the memory needed, in bytes.
	Bytes float64
	// Tasks, Workers and PerTask are the numbers of objects, of workers
	// and of labels an object, with their defaults filled in; Labels is
	// Tasks·PerTask.
	Tasks, Workers, PerTask, Labels float64
	// Classes is the number of classes, at least 2.
	Classes int
	// Params is the number of noise-model parameter values drawn (the
	// noise model's WorkerDim values per worker and TaskDim values per
	// object), 0 without a noise model.
	Params float64
}

// bytesPerLabel is the memory a simulated label takes (the data set's
// index arrays: a worker and a class), and baseBytes what a simulation
// takes besides its labels, identifiers and true distributions, set above
// the whole process's peaks of `consensus simulate` under /usr/bin/time:
// 65 MB for 2·10⁶ labels of 4·10⁵ objects (estimated 81), 117 MB for 10⁷
// of 5·10⁵ (158), 1.27 GB for 2·10⁸ labels of 2·10⁵ objects with K = 20
// (1.70 GB).
const (
	bytesPerLabel = 8
	baseBytes     = 16 << 20
)

// EstimateMemory estimates the memory that simulating cfg needs, before
// any allocation: the labels, the identifiers, the true distributions and
// the noise model's parameters (cfg.Noise's WorkerDim and TaskDim values,
// twice: the parameters and what sampling derives from them). The zero
// sizes of cfg count as Simulate's defaults: 2000 objects, 20 workers,
// every worker labelling every object, 2 classes.
func EstimateMemory(cfg Settings) Memory {
	m := Memory{Tasks: float64(cfg.Tasks), Workers: float64(cfg.Workers), PerTask: float64(cfg.LabelsPerTask)}
	if m.Tasks == 0 {
		m.Tasks = 2000
	}
	if m.Workers == 0 {
		m.Workers = 20
	}
	if m.PerTask == 0 || m.PerTask > m.Workers {
		m.PerTask = m.Workers
	}
	m.Classes = max(cfg.Classes, 2)
	m.Labels = m.Tasks * m.PerTask
	if cfg.Noise != nil {
		m.Params = m.Workers*float64(cfg.Noise.WorkerDim(m.Classes)) + m.Tasks*float64(cfg.Noise.TaskDim(m.Classes))
	}
	m.Bytes = m.Labels*bytesPerLabel + (m.Tasks+m.Workers)*dataio.ReadBytesPerID +
		m.Tasks*float64(m.Classes)*16 + m.Params*16 + baseBytes
	return m
}

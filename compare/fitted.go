package compare

import (
	"errors"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
)

// RankFitted ranks models already fitted to d on the gold labels of opt,
// as Run ranks them with a gold criterion after fitting them: the same
// scores, intervals, bootstrap resamples and order. results[i] is the fit
// of one model, named by its Model field; its Runtime is the row's.
// opt.Models, Fit, Threads and Progress are not used. It returns an
// error without gold labels or with the HeldOut criterion, which needs
// fits on held-out splits (Run does them).
func RankFitted(d *data.Dataset, results []*model.Result, opt Settings) (*Report, error) {
	opt = opt.withDefaults()
	if opt.Criterion == HeldOut || opt.Gold == nil || opt.Gold.Len() == 0 {
		return nil, errors.New("compare: ranking fitted models needs gold labels and a gold criterion")
	}
	if !(opt.Level > 0 && opt.Level < 1) || opt.Bootstrap < 0 {
		return nil, errors.New("compare: bad bootstrap or level")
	}
	names := make([]string, len(results))
	fits := make([]fitOut, len(results))
	for i, r := range results {
		if r == nil {
			return nil, errors.New("compare: a nil result")
		}
		names[i] = r.Model
		fits[i] = fitOut{res: r, dur: r.Runtime}
	}
	return rankGold(d, names, fits, opt)
}

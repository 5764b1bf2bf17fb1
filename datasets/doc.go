// Package datasets ships the six public crowdsourcing data sets used in the
// paper (Fedorova, Gusev, Serdyukov 2019) inside the binary, so that the
// experiments can be rerun from a fresh clone without any download.
//
// Each data set is a noisy-label file (task, worker, label) and a gold file
// (task, label), stored gzip-compressed under files/NAME/ together with
// SOURCE.md, which records where the data come from, how they were converted,
// their statistics and their terms of use. Load returns a data set as a
// data.Dataset and data.Gold; Source returns its SOURCE.md.
//
// # Data sets
//
//	name       K  objects  workers  labels  gold  origin
//	adult      4    11040      825   92721   333  Ipeirotis, Provost, Wang, HCOMP 2010 (Get-Another-Label, AdultContent2)
//	duchenne   2     2134       64   30319   159  Whitehill et al., NIPS 2009 (GLAD)
//	rte        2      800      164    8000   800  Snow et al., EMNLP 2008
//	temp       2      462       76    4620   462  Snow et al., EMNLP 2008
//	trec2010   3    20026      762   91783  3275  Buckley, Lease, Smucker, TREC 2010 Relevance Feedback track
//	websearch  5     2665      177   15567  2653  Zhou, Platt, Basu, Mao, NIPS 2012
//
// All counts equal the paper's table, except the adult gold count: the
// source gold file has the paper's 1,517 rows, but only 333 of those web
// sites have crowd labels, so only those 333 are kept (as in Zheng et al.,
// VLDB 2017). For trec2010 the judgements "broken link" (-2) are removed,
// which leaves the paper's three relevance classes and counts. Repeated
// labels of one task by one worker are kept in duchenne, trec2010 and adult,
// as the paper's label counts include them.
//
// The seventh data set of the paper, price (Liu, Ihler, Steyvers 2013), is
// not publicly available and is not included.
//
// # Licences and terms
//
// The data are redistributed for research use; cite the original papers
// listed in each SOURCE.md.
//
//   - adult: Get-Another-Label is distributed under the Apache License 2.0;
//     the data folder has no separate licence.
//   - duchenne: the original release page allows academic use and asks to
//     cite Whitehill et al. (2009); the face images are proprietary and not
//     included (only labels are).
//   - rte and temp: no licence file; released by Snow et al. for research
//     use, cite the EMNLP 2008 paper.
//   - trec2010: no licence file; the release readme asks to cite Buckley et
//     al. (2010).
//   - websearch: no licence file; cite Zhou et al. (2012) for the data and
//     Zhang et al. (2014) for the redistribution.
//
// # Regenerating the files
//
// The embedded files are produced by gen.go from the converted data sets
// (labels.csv, gold.csv and SOURCE.md per data set):
//
//	go run gen.go -src DIR
//
// It compresses deterministically: the gzip headers hold no file name and no
// time stamp.
package datasets

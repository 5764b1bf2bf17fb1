package datasets

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
)

//go:generate go run gen.go

// files holds README.md and, for each data set, labels.csv.gz, gold.csv.gz
// and SOURCE.md.
//
//go:embed files
var files embed.FS

// Info describes a shipped data set.
type Info struct {
	// Name is the name used by Load, such as "rte".
	Name string
	// Task is a short description of what the workers labelled.
	Task string
	// ClassNames describes the classes, as labelled in the files.
	ClassNames string
	// Classes, Tasks, Workers, Labels and Gold are the number of classes
	// (K), tasks (objects), workers, noisy labels and gold tasks.
	Classes, Tasks, Workers, Labels, Gold int
	// Citation names the paper that introduced the data.
	Citation string
}

// String returns a one-line description of the data set.
func (i Info) String() string {
	return fmt.Sprintf("%s: K=%d, %d objects, %d workers, %d labels, %d gold; %s (%s)",
		i.Name, i.Classes, i.Tasks, i.Workers, i.Labels, i.Gold, i.Task, i.ClassNames)
}

// infos lists the data sets, sorted by name.
var infos = []Info{
	{
		Name: "adult", Task: "adult-content rating of web sites", ClassNames: "G, P, R, X",
		Classes: 4, Tasks: 11040, Workers: 825, Labels: 92721, Gold: 333,
		Citation: "Ipeirotis, Provost, Wang. Quality Management on Amazon Mechanical Turk. HCOMP 2010",
	},
	{
		Name: "duchenne", Task: "is the smile in a face image a Duchenne smile", ClassNames: "0 = no, 1 = yes",
		Classes: 2, Tasks: 2134, Workers: 64, Labels: 30319, Gold: 159,
		Citation: "Whitehill, Ruvolo, Wu, Bergsma, Movellan. Whose Vote Should Count More. NIPS 2009",
	},
	{
		Name: "rte", Task: "is a hypothesis entailed by a text (PASCAL RTE-1)", ClassNames: "0 = no, 1 = yes",
		Classes: 2, Tasks: 800, Workers: 164, Labels: 8000, Gold: 800,
		Citation: "Snow, O'Connor, Jurafsky, Ng. Cheap and Fast -- But is it Good? EMNLP 2008",
	},
	{
		Name: "temp", Task: "temporal order of two events in a sentence", ClassNames: "1, 2 = before, after, which is which undocumented",
		Classes: 2, Tasks: 462, Workers: 76, Labels: 4620, Gold: 462,
		Citation: "Snow, O'Connor, Jurafsky, Ng. Cheap and Fast -- But is it Good? EMNLP 2008",
	},
	{
		Name: "trec2010", Task: "relevance of web pages to TREC topics", ClassNames: "0 = not, 1 = relevant, 2 = highly relevant",
		Classes: 3, Tasks: 20026, Workers: 762, Labels: 91783, Gold: 3275,
		Citation: "Buckley, Lease, Smucker. Overview of the TREC 2010 Relevance Feedback Track. TREC 2010",
	},
	{
		Name: "websearch", Task: "relevance of URLs to web search queries", ClassNames: "1..5 relevance levels",
		Classes: 5, Tasks: 2665, Workers: 177, Labels: 15567, Gold: 2653,
		Citation: "Zhou, Platt, Basu, Mao. Learning from the Wisdom of Crowds by Minimax Entropy. NIPS 2012",
	},
}

// Names returns the names of the shipped data sets in sorted order: adult,
// duchenne, rte, temp, trec2010 and websearch.
func Names() []string {
	names := make([]string, len(infos))
	for i, in := range infos {
		names[i] = in.Name
	}
	return names
}

// Describe returns the description of the named data set. Names are matched
// ignoring case.
func Describe(name string) (Info, error) {
	for _, in := range infos {
		if strings.EqualFold(in.Name, name) {
			return in, nil
		}
	}
	return Info{}, fmt.Errorf("unknown data set %q; the data sets are %s", name, strings.Join(Names(), ", "))
}

// Load reads the named data set: its noisy labels and its gold labels. The
// Dataset's Name is the data set's name. Each call returns new values.
func Load(name string) (*data.Dataset, *data.Gold, error) {
	in, err := Describe(name)
	if err != nil {
		return nil, nil, err
	}
	labels, err := files.ReadFile(path.Join("files", in.Name, "labels.csv.gz"))
	if err != nil {
		return nil, nil, err
	}
	d, err := dataio.ReadLabels(context.Background(), bytes.NewReader(labels), in.Name+"/labels.csv.gz", dataio.ReadSettings{})
	if err != nil {
		return nil, nil, err
	}
	d.Name = in.Name
	gold, err := files.ReadFile(path.Join("files", in.Name, "gold.csv.gz"))
	if err != nil {
		return nil, nil, err
	}
	g, err := dataio.ReadGold(context.Background(), bytes.NewReader(gold), in.Name+"/gold.csv.gz", d, dataio.ReadSettings{})
	if err != nil {
		return nil, nil, err
	}
	return d, g, nil
}

// Source returns the SOURCE.md text of the named data set: provenance,
// conversion, statistics and terms of use.
func Source(name string) (string, error) {
	in, err := Describe(name)
	if err != nil {
		return "", err
	}
	b, err := files.ReadFile(path.Join("files", in.Name, "SOURCE.md"))
	return string(b), err
}

// FS returns the embedded files: README.md and, for each data set NAME,
// NAME/labels.csv.gz, NAME/gold.csv.gz and NAME/SOURCE.md.
func FS() fs.FS {
	sub, err := fs.Sub(files, "files")
	if err != nil {
		panic(err) // cannot happen: files is embedded
	}
	return sub
}

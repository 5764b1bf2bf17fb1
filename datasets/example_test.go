package datasets_test

import (
	"fmt"
	"log"

	"github.com/consensuslab/consensus/datasets"
)

func ExampleLoad() {
	d, gold, err := datasets.Load("rte")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Name, d.Classes, d.NumTasks(), d.NumWorkers(), d.NumLabels(), gold.Len())
	// Output:
	// rte [0 1] 800 164 8000 800
}

func ExampleDescribe() {
	for _, name := range datasets.Names() {
		info, err := datasets.Describe(name)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(info)
	}
	// Output:
	// adult: K=4, 11040 objects, 825 workers, 92721 labels, 333 gold; adult-content rating of web sites (G, P, R, X)
	// duchenne: K=2, 2134 objects, 64 workers, 30319 labels, 159 gold; is the smile in a face image a Duchenne smile (0 = no, 1 = yes)
	// rte: K=2, 800 objects, 164 workers, 8000 labels, 800 gold; is a hypothesis entailed by a text (PASCAL RTE-1) (0 = no, 1 = yes)
	// temp: K=2, 462 objects, 76 workers, 4620 labels, 462 gold; temporal order of two events in a sentence (1, 2 = before, after, which is which undocumented)
	// trec2010: K=3, 20026 objects, 762 workers, 91783 labels, 3275 gold; relevance of web pages to TREC topics (0 = not, 1 = relevant, 2 = highly relevant)
	// websearch: K=5, 2665 objects, 177 workers, 15567 labels, 2653 gold; relevance of URLs to web search queries (1..5 relevance levels)
}

package datasets_test

import (
	"fmt"
	"log"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

func ExampleSynthetic() {
	d := experiment.Default().Data // C=3, n=500, P=0.01, Q=0.005, F=D=32, σF=5, σD=2
	g, err := datasets.Synthetic(d)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.N, "nodes,", len(g.Nodes(datasets.Train)), "for training,", g.C, "classes")
	// Output: 1500 nodes, 1200 for training, 3 classes
}

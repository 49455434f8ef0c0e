package pdn_test

import (
	"fmt"
	"log"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/pdn"
)

// A PDN learns to weigh intra-class edges above inter-class ones.
func Example() {
	e := experiment.Default()
	e.Data.PerClass = 200
	e.Train.Epochs = 100
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		log.Fatal(err)
	}
	t, err := pdn.NewTrainer(g, e)
	if err != nil {
		log.Fatal(err)
	}
	for !t.Done() {
		if _, err := t.Step(); err != nil {
			log.Fatal(err)
		}
	}
	s := t.Evaluate()
	fmt.Printf("epoch %d: inter-class edges weigh less than a third of intra-class ones: %v\n",
		s.Epoch, s.WInter < s.WIntra/3)
	// Output: epoch 100: inter-class edges weigh less than a third of intra-class ones: true
}

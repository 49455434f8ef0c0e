// Package app is the explorer's user interface, built with go-app: a shell
// of labs, each with its controls, live views and permalink. It never
// trains: every engine call goes to the Web Worker through wasm/protocol,
// and the package links neither the engine nor gonum.
//
// A lab's whole state is an experiment.Experiment: the rows of the one
// state table, the run's and the view's (lab, layout, threshold) alike,
// which the controls, the permalink and the worker's messages all read.
package app

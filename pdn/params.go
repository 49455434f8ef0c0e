package pdn

import (
	"slices"
	"strings"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

// Parameter is one trained array of a model, named and shaped as the
// PyTorch Geometric module that holds the same numbers names and shapes it
// (conv1.lin.weight is GCNConv's weight, out×in; pathfinder.0.weight the
// first linear layer of the pathfinder MLP as torch.nn.Sequential numbers
// it). Values are row-major.
type Parameter struct {
	Name   string
	Shape  []int
	Values []float64
}

// named is a network whose weights have names in PyTorch Geometric.
type named interface{ named() []Parameter }

// Exportable lists the kinds whose weights Parameters names: those the
// model table gives a counterpart among PyTorch Geometric's layers
// (experiment.ModelKind.PyG). EdgeConv, the multi-scale PDN, ClusterGCN
// and DeepWalk are built from parts PyG has no one layer for.
var Exportable = experiment.ModelsWhere(func(m experiment.ModelKind) bool { return m.PyG != "" })

// CheckExportable refuses a kind not in Exportable, naming it and the
// kinds the export covers.
func CheckExportable(kind string) error {
	if slices.Contains(Exportable, kind) {
		return nil
	}
	return phrase.Errorf("model %s has no PyTorch Geometric counterpart to export to; the export covers %s", kind, strings.Join(Exportable, ", "))
}

// Parameters returns copies of the model's trained arrays, by name, in the
// order the model holds them. It finishes the set-up first (the restarts'
// choice), and refuses a kind not in Exportable.
func (t *Trainer) Parameters() ([]Parameter, error) {
	if err := CheckExportable(t.exp.Model.Kind); err != nil {
		return nil, err
	}
	t.prepared()
	ps := t.net.(named).named()
	for i := range ps {
		ps[i].Values = slices.Clone(ps[i].Values)
	}
	return ps, nil
}

// param names one tensor, shaped.
func param(name string, t *tensor, shape ...int) Parameter {
	return Parameter{Name: name, Shape: shape, Values: t.val}
}

// linearParams names a dense layer as torch.nn.Linear under prefix.
func linearParams(prefix string, l *dense) []Parameter {
	return []Parameter{param(prefix+".weight", l.w, l.out, l.in), param(prefix+".bias", l.b, l.out)}
}

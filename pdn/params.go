package pdn

import (
	"fmt"
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

// Exportable lists the kinds whose weights Parameters names: those with a
// counterpart among PyTorch Geometric's layers (GCNConv, GATConv, SGConv,
// APPNP and torch.nn.Linear). EdgeConv, the multi-scale PDN, ClusterGCN
// and DeepWalk are built from parts PyG has no one layer for.
var Exportable = []string{experiment.PDN, experiment.PDNLinear, experiment.GCN, experiment.GAT, experiment.APPNP, experiment.SGC, experiment.MLP}

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

func (m *gcnNet) named() []Parameter {
	var out []Parameter
	switch e := m.edges.(type) {
	case *pathfinder:
		for i, l := range e.layers { // Linear, ReLU, Linear, …: the linear layers are every other module
			out = append(out, linearParams(fmt.Sprintf("pathfinder.%d", 2*i), l)...)
		}
	case *linearPathfinder:
		out = append(out, param("pathfinder.beta", e.beta, len(e.beta.val)))
	}
	if m.norm == nil { // the MLP
		return append(out,
			param("lin1.weight", m.l1.w, m.l1.out, m.l1.in), param("lin1.bias", m.l1.b, m.l1.out),
			param("lin2.weight", m.l2.w, m.l2.out, m.l2.in), param("lin2.bias", m.l2.b, m.l2.out))
	}
	return append(out,
		param("conv1.lin.weight", m.l1.w, m.l1.out, m.l1.in), param("conv1.bias", m.l1.b, m.l1.out),
		param("conv2.lin.weight", m.l2.w, m.l2.out, m.l2.in), param("conv2.bias", m.l2.b, m.l2.out))
}

// named gives GATConv's names and shapes: W is (heads·out)×in, and the
// attention vectors are 1×heads×out.
func (m *gat) named() []Parameter {
	var out []Parameter
	for i, l := range []*gatLayer{m.l1, m.l2} {
		p := fmt.Sprintf("conv%d.", i+1)
		ho := l.heads * l.o
		out = append(out, param(p+"lin_src.weight", l.w, ho, l.in),
			param(p+"att_src", l.aSrc, 1, l.heads, l.o), param(p+"att_dst", l.aDst, 1, l.heads, l.o),
			param(p+"bias", l.b, ho))
	}
	return out
}

func (m *sgc) named() []Parameter { return linearParams("conv.lin", m.lin) }

func (m *appnp) named() []Parameter {
	return append(linearParams("lin1", m.l1), linearParams("lin2", m.l2)...)
}

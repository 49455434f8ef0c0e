package datasets

import (
	"strconv"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/encoding"
	"gonum.org/v1/gonum/graph/encoding/dot"
	"gonum.org/v1/gonum/graph/simple"
)

// DOT writes g in Graphviz's DOT language with gonum's encoder: each node
// with its class and split, each edge with its kind and, when weights has
// one per edge, its learned weight (also as penwidth, so Graphviz draws
// heavy edges thick).
func DOT(g *Graph, name string, weights []float64) ([]byte, error) {
	ug := simple.NewUndirectedGraph()
	nodes := make([]dotNode, g.N)
	for i := range nodes {
		nodes[i] = dotNode{id: int64(i), label: g.Labels[i], split: g.Splits[i].String()}
		if g.Labels[i] >= 0 && g.Labels[i] < len(g.ClassNames) {
			nodes[i].name = g.ClassNames[g.Labels[i]]
		}
		ug.AddNode(nodes[i])
	}
	for e := range g.Src {
		de := dotEdge{from: nodes[g.Src[e]], to: nodes[g.Dst[e]], weight: -1}
		if g.Kind != nil {
			de.kind = g.Kind[e].String()
		}
		if len(weights) == g.E() {
			de.weight = weights[e]
		}
		ug.SetEdge(de)
	}
	return dot.Marshal(ug, name, "", "  ")
}

type dotNode struct {
	id    int64
	label int
	split string
	name  string // the class's name, where the data names it
}

func (n dotNode) ID() int64 { return n.id }

func (n dotNode) Attributes() []encoding.Attribute {
	a := []encoding.Attribute{{Key: "class", Value: strconv.Itoa(n.label)}, {Key: "split", Value: n.split}}
	if n.name != "" {
		a = append(a, encoding.Attribute{Key: "class_name", Value: strconv.Quote(n.name)})
	}
	return a
}

type dotEdge struct {
	from, to dotNode
	kind     string
	weight   float64 // -1: none learned
}

func (e dotEdge) From() graph.Node         { return e.from }
func (e dotEdge) To() graph.Node           { return e.to }
func (e dotEdge) ReversedEdge() graph.Edge { e.from, e.to = e.to, e.from; return e }

func (e dotEdge) Attributes() []encoding.Attribute {
	var a []encoding.Attribute
	if e.kind != "" {
		a = append(a, encoding.Attribute{Key: "kind", Value: e.kind})
	}
	if e.weight >= 0 {
		w := strconv.FormatFloat(e.weight, 'g', 6, 64)
		a = append(a, encoding.Attribute{Key: "weight", Value: w},
			encoding.Attribute{Key: "penwidth", Value: strconv.FormatFloat(0.2+3*e.weight, 'g', 3, 64)})
	}
	return a
}

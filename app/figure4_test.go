package app

import (
	"math"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/wasm/protocol"
)

// Figure 4 says why a panel has no points or no agreement, and says it
// true: a graph of one kind of edge is no model's want of edge
// representations; a sample too small for 10 neighbours of a kind is no
// "NaN" in the drawing; and where no panel will ever be drawn the chart
// says so rather than wait for the engine.
func TestFigure4SaysWhyNothingIsDrawn(t *testing.T) {
	nan := protocol.Num(math.NaN())
	oneKind := []edgePanel{
		{model: "pdn", title: "PDN", em: &protocol.Embedding{Model: "pdn", Separation: nan, Hidden: nan, Neighbours: 10, OneKind: true}},
		{model: "gat", title: "GAT", em: &protocol.Embedding{Model: "gat", Beside: true, Separation: nan, Hidden: nan, Neighbours: 10, OneKind: true}},
	}
	h := app.HTMLString(renderEdgeNumbers(oneKind))
	if strings.Contains(h, "no hidden edge representations") || !strings.Contains(h, "no edges of one kind") {
		t.Errorf("a graph of one kind of edge: %s", h)
	}
	if noPanelDrawn(oneKind) == "" || drawEdgePanels(oneKind, true) != "" {
		t.Error("no panel will be drawn, and the chart does not say so")
	}
	gcn := []edgePanel{{model: "gcn", title: "gcn", em: &protocol.Embedding{Model: "gcn", Separation: nan, Hidden: nan, Neighbours: 10}}}
	if h := app.HTMLString(renderEdgeNumbers(gcn)); !strings.Contains(h, "no hidden edge representations") {
		t.Errorf("a model without edge representations: %s", h)
	}
	few := []edgePanel{{model: "pdn", title: "PDN", em: &protocol.Embedding{Model: "pdn", Separation: nan, Hidden: nan, Neighbours: 10,
		XY: make([]float32, 12), Inter: []bool{false, false, false, true, true, true}}}}
	if h := app.HTMLString(renderEdgeNumbers(few)); !strings.Contains(h, "too few edges of one kind") || !strings.Contains(h, "holds 3 of each") {
		t.Errorf("a sample of 3 edges of each kind: %s", h)
	}
	if svg := drawEdgePanels(few, true); svg == "" || strings.Contains(svg, "NaN") {
		t.Errorf("the drawing of a sample too small to count neighbours says NaN or is missing")
	}
	if noPanelDrawn(few) != "" || noPanelDrawn([]edgePanel{{title: "PDN"}}) != "" {
		t.Error("a panel drawn, or one still to come, and the chart says nothing will be")
	}
}

package app

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/viz"
)

// An export is one file the graph lab offers to save: its name, its type
// and how to write it from the lab's state at the moment it is asked for.
type export struct {
	ID, Label, File, Type string
	Write                 func(c *GraphLab) []byte
}

// exports are the graph lab's files: the run's history and its learned
// weights as CSV, the state as JSON, the graph and the curves as SVG.
var exports = []export{
	{"export-history", "History (CSV)", "pdn-history.csv", "text/csv", (*GraphLab).historyCSV},
	{"export-weights", "Edge weights (CSV)", "pdn-weights.csv", "text/csv", (*GraphLab).weightsCSV},
	{"export-state", "State (JSON)", "pdn-state.json", "application/json", (*GraphLab).stateJSON},
	{"export-graph", "Graph (SVG)", "pdn-graph.svg", "image/svg+xml", (*GraphLab).graphSVG},
	{"export-curves", "Curves (SVG)", "pdn-curves.svg", "image/svg+xml", func(c *GraphLab) []byte { return viz.File(c.curvesSVG) }},
}

// historyCSV is one row per snapshot the page received: epoch, loss,
// accuracies, the inter-class share of the learned weight.
func (c *GraphLab) historyCSV() []byte {
	h := &c.hist
	rows := [][]string{{"epoch", "loss", "train_accuracy", "test_accuracy", "inter_share"}}
	for i := range h.epoch {
		rows = append(rows, []string{strconv.Itoa(int(h.epoch[i])), plain(h.loss[i]), plain(h.train[i]), plain(h.test[i]), plain(h.share[i])})
	}
	return csvBytes(rows)
}

// weightsCSV is one row per edge: its ends, its kind and its latest weight.
func (c *GraphLab) weightsCSV() []byte {
	rows := [][]string{{"source", "target", "kind", "weight"}}
	if g := c.graph; g != nil {
		for e := range g.Src {
			kind, w := "", "NaN"
			if e < len(g.Kinds) {
				kind = g.Kinds[e].String()
			}
			if e < len(c.weights) {
				w = strconv.FormatFloat(float64(c.weights[e]), 'g', -1, 32) // the engine sends float32
			}
			rows = append(rows, []string{strconv.Itoa(int(g.Src[e])), strconv.Itoa(int(g.Dst[e])), kind, w})
		}
	}
	return csvBytes(rows)
}

// stateJSON is the state table's rows as an object, each value as the
// permalink writes it, and the permalink itself.
func (c *GraphLab) stateJSON() []byte {
	rows := map[string]string{}
	for _, p := range experiment.Params {
		rows[p.Name] = p.Get(&c.st)
	}
	b, _ := json.MarshalIndent(map[string]any{"permalink": "#" + c.st.Encode(), "state": rows}, "", "  ")
	return append(b, '\n')
}

// graphSVG is the graph view as drawn now, every edge at its weight.
func (c *GraphLab) graphSVG() []byte {
	if c.view == nil {
		return viz.File(viz.LineChart(chartW, chartH, viz.Axes{Title: "No graph yet"}))
	}
	return viz.File(c.view.SVG(c.drawnWeights(), c.st.View.Threshold, "The learned graph"))
}

func csvBytes(rows [][]string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(rows) // a bytes.Buffer does not fail
	return b.Bytes()
}

// save offers data to the user as a file called name, by way of a Blob.
func save(name, typ string, data []byte) {
	u8 := app.Window().Get("Uint8Array").New(len(data))
	app.CopyBytesToJS(u8, data)
	parts := app.Window().Get("Array").New() // go-app converts no Go slice of its Values
	parts.Call("push", u8)
	blob := app.Window().Get("Blob").New(parts, map[string]any{"type": typ})
	url := app.Window().Get("URL").Call("createObjectURL", blob)
	a := app.Window().Get("document").Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	a.Call("click")
	app.Window().Get("URL").Call("revokeObjectURL", url)
}

// renderExports is the row of export buttons.
func (c *GraphLab) renderExports() app.UI {
	return app.Div().ID("exports").Class("exports").Body(
		app.Span().Class("label").Text("Save: "),
		app.Range(exports).Slice(func(i int) app.UI {
			x := exports[i]
			return app.Button().ID(x.ID).Class("small").Title("Save " + x.File).Text(x.Label).
				OnClick(func(ctx app.Context, e app.Event) { save(x.File, x.Type, x.Write(c)) })
		}),
	)
}

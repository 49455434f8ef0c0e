package app

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// An export is one file the graph lab offers to save: its name, its type
// and how to make it from the lab's state at the moment it is asked for:
// Write in the page, or Format by the engine, which holds the graph
// itself, or Canvas as a picture.
type export struct {
	ID, Label, File, Type string
	Title                 string // what the button's tooltip says, if more than the file's name
	Write                 func(c *GraphLab) []byte
	Format                string                                  // a protocol.Format the engine writes
	Canvas                func(c *GraphLab, done func(app.Value)) // paints a canvas to save as PNG
}

// exports are the graph lab's files: the run's history and its learned
// weights and its predictions as CSV, the state as JSON, the graph as SVG, PNG, DOT and a
// bundle, the curves as SVG and PNG, and the whole run for PyTorch Geometric.
var exports = []export{
	{ID: "export-history", Label: msg("History (CSV)"), File: "pdn-history.csv", Type: "text/csv", Write: (*GraphLab).historyCSV},
	{ID: "export-weights", Label: msg("Edge weights (CSV)"), File: "pdn-weights.csv", Type: "text/csv", Write: (*GraphLab).weightsCSV},
	{ID: "export-predictions", Label: msg("Predictions (CSV)"), File: "pdn-predictions.csv", Type: "text/csv", Write: (*GraphLab).predictionsCSV},
	{ID: "export-state", Label: msg("State (JSON)"), File: "pdn-state.json", Type: "application/json", Write: (*GraphLab).stateJSON},
	{ID: "export-graph", Label: msg("Graph (SVG)"), File: "pdn-graph.svg", Type: "image/svg+xml", Write: (*GraphLab).graphSVG},
	{ID: "export-curves", Label: msg("Curves (SVG)"), File: "pdn-curves.svg", Type: "image/svg+xml", Write: func(c *GraphLab) []byte { return viz.File(c.charts.curves) }},
	{ID: "export-graph-png", Label: msg("Graph (PNG)"), File: "pdn-graph.png", Type: "image/png", Canvas: (*GraphLab).graphCanvas},
	{ID: "export-curves-png", Label: msg("Curves (PNG)"), File: "pdn-curves.png", Type: "image/png", Canvas: func(c *GraphLab, done func(app.Value)) { svgCanvas(c.charts.curves, done) }},
	{ID: "export-dot", Label: msg("Graph (DOT)"), File: "pdn-graph.dot", Type: "text/vnd.graphviz", Format: protocol.FormatDOT},
	{ID: "export-bundle", Label: msg("Graph bundle (zip)"), File: "pdn-graph.zip", Type: "application/zip", Format: protocol.FormatBundle},
	{ID: "export-pyg", Label: msg("PyTorch Geometric (zip)"), File: "pdn-run-pyg.zip", Type: "application/zip", Format: protocol.FormatPyG,
		Title: msg("The graph, the trained weights and run_pyg.py, which builds this model in PyTorch Geometric, loads the weights and trains it again")},
}

// do makes the export's file and offers it: at once, or when the engine or
// the picture is ready.
func (x export) do(c *GraphLab) {
	switch {
	case x.Write != nil:
		save(x.File, x.Type, x.Write(c))
	case x.Format != "":
		if r := c.one(); r.engine != nil {
			r.engine.Send(protocol.Command{Op: protocol.OpExport, Format: x.Format})
		}
	case x.Canvas != nil:
		x.Canvas(c, func(cv app.Value) { saveCanvas(x.File, cv) })
	}
}

// pngScale is how many pixels a picture has per unit of its figure: twice
// the screen's, sharp on a projector or a page.
const pngScale = 2

// graphCanvas paints the graph view's two layers, edges under nodes, on
// white.
func (c *GraphLab) graphCanvas(done func(app.Value)) {
	edges, nodes := app.Window().GetElementByID(edgeCanvasID), app.Window().GetElementByID(nodeCanvasID)
	if !edges.Truthy() || !nodes.Truthy() {
		c.page.board.Add(phrase.New("No graph drawn yet to save as a picture."), false)
		return
	}
	w, h := edges.Get("width").Int(), edges.Get("height").Int()
	cv, g := newCanvas(w, h)
	g.Call("drawImage", edges, 0, 0)
	g.Call("drawImage", nodes, 0, 0, w, h)
	done(cv)
}

// svgCanvas paints an SVG figure at pngScale on white, once the browser
// has decoded it.
func svgCanvas(svg string, done func(app.Value)) {
	parts := app.Window().Get("Array").New()
	parts.Call("push", string(viz.File(svg)))
	blob := app.Window().Get("Blob").New(parts, map[string]any{"type": "image/svg+xml"})
	url := app.Window().Get("URL").Call("createObjectURL", blob)
	img := app.Window().Get("Image").New()
	var onload app.Func
	onload = app.FuncOf(func(app.Value, []app.Value) any {
		defer onload.Release()
		w, h := img.Get("naturalWidth").Int(), img.Get("naturalHeight").Int()
		if w == 0 || h == 0 {
			w, h = chartW, chartH
		}
		cv, g := newCanvas(pngScale*w, pngScale*h)
		g.Call("drawImage", img, 0, 0, pngScale*w, pngScale*h)
		app.Window().Get("URL").Call("revokeObjectURL", url)
		done(cv)
		return nil
	})
	var onerror app.Func
	onerror = app.FuncOf(func(app.Value, []app.Value) any {
		onerror.Release()
		app.Window().Get("URL").Call("revokeObjectURL", url)
		app.Log(tr("the figure could not be drawn as a picture"))
		return nil
	})
	img.Set("onload", onload)
	img.Set("onerror", onerror)
	img.Set("src", url)
}

// newCanvas is a w×h canvas painted white, and its 2D context.
func newCanvas(w, h int) (cv, g app.Value) {
	cv = app.Window().Get("document").Call("createElement", "canvas")
	cv.Set("width", w)
	cv.Set("height", h)
	g = cv.Call("getContext", "2d")
	g.Set("fillStyle", "#ffffff")
	g.Call("fillRect", 0, 0, w, h)
	return cv, g
}

// saveCanvas offers a canvas as a PNG file called name.
func saveCanvas(name string, cv app.Value) {
	var cb app.Func
	cb = app.FuncOf(func(_ app.Value, args []app.Value) any {
		defer cb.Release()
		if len(args) > 0 && args[0].Truthy() {
			saveBlob(name, args[0])
		}
		return nil
	})
	cv.Call("toBlob", cb, "image/png")
}

// historyCSV is one row per snapshot the page received: epoch, loss,
// accuracies, the inter-class share of the learned weight.
func (c *GraphLab) historyCSV() []byte {
	h := &c.one().hist
	rows := [][]string{{"epoch", "loss", "train_accuracy", "test_accuracy", "inter_share"}}
	for i := range h.epoch {
		rows = append(rows, []string{strconv.Itoa(int(h.epoch[i])), plain(h.loss[i]), plain(h.train[i]), plain(h.test[i]), plain(h.share[i])})
	}
	return csvBytes(rows)
}

// weightsCSV is one row per edge: its ends, its kind and its latest weight.
func (c *GraphLab) weightsCSV() []byte {
	rows := [][]string{{"source", "target", "kind", "weight"}}
	r := c.one()
	if g := r.graph; g != nil {
		for e := range g.Src {
			kind, w := "", "NaN"
			if e < len(g.Kinds) {
				kind = g.Kinds[e].String()
			}
			if e < len(r.weights) {
				w = strconv.FormatFloat(float64(r.weights[e]), 'g', -1, 32) // the engine sends float32
			}
			rows = append(rows, []string{strconv.Itoa(int(g.Src[e])), strconv.Itoa(int(g.Dst[e])), kind, w})
		}
	}
	return csvBytes(rows)
}

// predictionsCSV is one row per node: its class, its split, and the
// class the model predicts with the probability it gives it.
func (c *GraphLab) predictionsCSV() []byte {
	rows := [][]string{{"node", "class", "split", "predicted", "probability", "class_name", "predicted_name"}}
	r := c.one()
	if g := r.graph; g != nil {
		for i := range g.Nodes {
			split, pred, prob, predName := "train", "", "NaN", ""
			switch {
			case g.Labels[i] < 0:
				split = "unlabelled" // class -1, as PyG's y has it
			case i < len(g.Test) && g.Test[i]:
				split = "test"
			}
			if i < len(r.pred) {
				pred, prob = strconv.Itoa(int(r.pred[i])), strconv.FormatFloat(float64(r.prob[i]), 'g', -1, 32)
				predName = className(g, int(r.pred[i]))
			}
			rows = append(rows, []string{strconv.Itoa(i), strconv.Itoa(g.Labels[i]), split, pred, prob, className(g, g.Labels[i]), predName})
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
		return viz.File(viz.LineChart(chartW, chartH, viz.Axes{Title: tr("No graph yet")}))
	}
	return viz.File(c.view.SVG(c.drawnWeights(), c.st.View.Threshold, tr("The learned graph")))
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
	saveBlob(name, app.Window().Get("Blob").New(parts, map[string]any{"type": typ}))
}

// saveBlob offers a Blob to the user as a file called name.
func saveBlob(name string, blob app.Value) {
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
		app.Span().Class("label").Text(tr("Save: ")),
		app.Range(exports).Slice(func(i int) app.UI {
			x := exports[i]
			title := tr("Save ") + x.File
			if x.Title != "" {
				title = tr(x.Title)
			}
			return app.Button().ID(x.ID).Class("small").Title(title).Text(tr(x.Label)).
				OnClick(func(ctx app.Context, e app.Event) { x.do(c) })
		}),
	)
}

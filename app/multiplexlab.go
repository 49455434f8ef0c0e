package app

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// MultiplexLab is §5.2's setting on a generated multiplex graph: its
// edges come in named layers, some joining nodes of one class and some at
// random, and the edge features are the layers. PDN learns a weight from
// the layers that hold each edge; GCN trains over their union and over
// each layer alone (the lab table's runs). It shows the weight the
// pathfinder gives each layer as it trains, and each run's accuracy, the
// numbers pdn multiplex prints.
type MultiplexLab struct {
	app.Compo
	lab

	weights, curves string
}

func init() {
	addRoom("multiplex", func(p *page) room {
		c := &MultiplexLab{}
		c.init(p, "multiplex", c)
		return c
	})
}

func (c *MultiplexLab) draw(ch change) {
	if !c.due(ch, severalRedraw) {
		return
	}
	c.weights = c.layerChart()
	c.curves = c.testCurves()
}

// pdnLayers are the layers as the PDN run's latest snapshot says them:
// their names, edges, share within classes and PDN's weight; nil before
// its worker has built the graph.
func (c *MultiplexLab) pdnLayers() []protocol.Layer {
	if r := c.runNamed(experiment.PDN); r != nil {
		return r.snap.Layers
	}
	return nil
}

// layerChart draws PDN's mean weight on each layer's edges over the
// epochs, a line a layer.
func (c *MultiplexLab) layerChart() string {
	r := c.runNamed(experiment.PDN)
	var series []viz.Series
	for l, layer := range c.pdnLayers() {
		s := viz.Series{Name: trf("layer %s", layer.Name), Color: runColor(l)}
		for i, ws := range r.hist.layers {
			if l < len(ws) && !math.IsNaN(ws[l]) {
				s.X, s.Y = append(s.X, r.hist.epoch[i]), append(s.Y, ws[l])
			}
		}
		series = append(series, s)
	}
	return viz.LineChart(chartW, chartH, viz.Axes{Title: tr("PDN's weight by layer"), XLabel: tr("epoch"), YMin: 0, YMax: 1, XMax: c.epochs()}, series...)
}

// Render lays the lab out.
func (c *MultiplexLab) Render() app.UI {
	return c.layOut("multiplex-lab", nil, app.Div().Body(c.renderLayerControls(), c.render(c.visible)),
		c.card("layer-weights", tr("The pathfinder's weight by layer"), c.weights, "", app.Div().Body(
			app.P().Text(tr("Each line is the mean learned weight of the edges one layer holds. A layer whose edges mostly join nodes of one class should rise; one that joins nodes at random should fall.")),
			c.renderLayerTable(),
		)),
		c.testCard(c.curves),
		app.Div().ID("summary").Class("card").Body(
			app.H2().Text(tr("Side by side")),
			c.runsTable("runs-table", []column{
				epochColumn,
				testColumn,
				{Title: tr("epochs/s"), Metric: "epochs-per-second", Digits: 1, Value: func(r *run) float64 { return float64(r.snap.EpochsPerSec) }},
			}),
			app.P().Class("explain").Text(tr("GCN over one layer alone trains on that layer's edges only; GCN over the union treats every edge alike, whichever layers hold it.")),
		),
	)
}

// renderLayerTable is a row a layer: its edges, their share within
// classes, PDN's weight on them and GCN's accuracy over it alone.
func (c *MultiplexLab) renderLayerTable() app.UI {
	layers := c.pdnLayers()
	if len(layers) == 0 {
		return app.P().Class("note").Text(tr("The table of layers comes with the graph."))
	}
	head := app.Tr().Body(
		app.Th().Scope("col").Text(tr("layer")),
		app.Th().Scope("col").Text(tr("edges")),
		app.Th().Scope("col").Text(tr("within classes")),
		app.Th().Scope("col").Text(tr("PDN's weight")),
		app.Th().Scope("col").Text(tr("GCN over it alone")),
	)
	rows := []app.UI{head}
	for _, l := range layers {
		acc := math.NaN()
		if r := c.runNamed(experiment.GCN + "-" + l.Name); r != nil && r.snapped {
			acc = float64(r.snap.TestAcc)
		}
		rows = append(rows, app.Tr().Body(
			app.Th().Scope("row").Text(l.Name),
			app.Td().Text(strconv.Itoa(l.Edges)),
			app.Td().Body(layerMetric("layer-within", l.Name, float64(l.Within))),
			app.Td().Body(layerMetric("layer-weight", l.Name, float64(l.Weight))),
			app.Td().Body(layerMetric("layer-gcn-accuracy", l.Name, acc)),
		))
	}
	return dataTable("layers-table", "runs", app.TBody().Body(rows...))
}

// layerMetric is a layer's figure, named by data-metric and data-layer
// (a layer is no run: data-run names the lab's runs).
func layerMetric(name, layer string, v float64) app.UI {
	return metric(name, "", v, num(v, 3)).DataSet("layer", layer)
}

// layerSliderID and the layer's place from 0 name a layer's slider.
const layerSliderID = "layer-share-"

// renderLayerControls is a slider a layer for its share of edges within
// classes, and buttons to add or remove a layer: the layers row, which
// is free text (a list), has no control of the table's.
func (c *MultiplexLab) renderLayerControls() app.UI {
	shares, err := c.st.Data.LayerShares()
	if err != nil {
		return app.Aside().Class("controls")
	}
	names := experiment.LayerNames(len(shares))
	items := []app.UI{app.Legend().Text(tr("Layers"))}
	for i, h := range shares {
		pct := int(math.Round(h * 100))
		id := layerSliderID + strconv.Itoa(i)
		items = append(items, app.Div().Class("control layer-control").Body(
			app.Label().For(id).Text(trf("Layer %s: %d%% of its edges within classes", names[i], pct)),
			positionSlider(id, pct, 100).
				OnChange(func(ctx app.Context, e app.Event) {
					c.setLayer(ctx, i, ctx.JSSrc().Get("value").String())
				}, i),
		))
	}
	buttons := []app.UI{}
	if len(shares) < experiment.MaxLayers {
		buttons = append(buttons, app.Button().ID("layer-add").Class("small").Text(tr("Add a random layer")).
			OnClick(func(ctx app.Context, e app.Event) {
				c.changeLayers(ctx, append(slices.Clone(c.sharesText()), strconv.Itoa(c.randomShare())))
			}))
	}
	if len(shares) > 2 {
		buttons = append(buttons, app.Button().ID("layer-remove").Class("small").Text(trf("Remove layer %s", names[len(names)-1])).
			OnClick(func(ctx app.Context, e app.Event) {
				s := c.sharesText()
				c.changeLayers(ctx, s[:len(s)-1])
			}))
	}
	items = append(items, app.Div().Class("layer-buttons").Body(buttons...),
		app.P().Class("note").Text(trf("At %d classes, %d%% joins nodes at random.", c.st.Data.Classes, c.randomShare())))
	return app.Aside().Class("controls").Body(app.FieldSet().ID("layers").Body(items...))
}

// randomShare is the share within classes, in percent, of a layer that
// joins nodes at random: 100/C.
func (c *MultiplexLab) randomShare() int {
	return int(math.Round(100 / float64(c.st.Data.Classes)))
}

// sharesText is the layers row as its items.
func (c *MultiplexLab) sharesText() []string {
	return strings.Split(c.st.Data.Layers, ",")
}

// setLayer sets layer i's share to the slider's value.
func (c *MultiplexLab) setLayer(ctx app.Context, i int, value string) {
	s := c.sharesText()
	if i < len(s) {
		s[i] = value
		c.changeLayers(ctx, s)
	}
}

// changeLayers sets the layers row, the one way the lab's layer controls
// change it (controls.change, which puts the control back where the
// state holds it).
func (c *MultiplexLab) changeLayers(ctx app.Context, shares []string) {
	c.change(ctx, "layers", strings.Join(shares, ","))
}

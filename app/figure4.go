package app

import (
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// Figure 4 (§5.1) as the labs draw it: each model's hidden edge
// representations of a sample of edges, embedded by t-SNE in its worker,
// coloured by edge kind, with how well the kinds separate. The degree lab
// draws its two runs' once they have trained; the graph lab its run's and
// GAT's, trained beside it, as the run trains. One drawing, one text
// alternative and one explanation serve both.

// edgePanel is one panel of Figure 4: the run it is of where the lab
// shows several (data-run, "" for none), its model's kind (data-model),
// its heading, and its embedding (nil before one has come).
type edgePanel struct {
	run, model, title string
	em                *protocol.Embedding
}

// panelOf is r's embedding (beside: the model trained beside it) as a
// panel of the run called run, of model, headed title, where it is not of a later epoch than the
// run's (a run reset or restarted waits for its next one).
func panelOf(r *run, beside bool, name, model, title string) edgePanel {
	em := r.embedded[0]
	if beside {
		em = r.embedded[1]
	}
	if em != nil && em.Epoch > r.snap.Epoch {
		em = nil
	}
	return edgePanel{run: name, model: model, title: title, em: em}
}

// modelTitle is a model's heading in Figure 4: the paper's names for the
// two it compares.
func modelTitle(kind string) string {
	switch kind {
	case experiment.PDN:
		return tr("PDN")
	case experiment.GAT:
		return tr("GAT")
	}
	return kind
}

// drawEdgePanels draws the panels that have points; "" where none has.
// Each panel says the epoch its embedding is of where the lab embeds as
// the runs train (live).
func drawEdgePanels(panels []edgePanel, live bool) string {
	var out []viz.EmbeddingPanel
	for _, p := range panels {
		em := p.em
		if em == nil || len(em.XY) == 0 {
			continue
		}
		name := p.title
		if live {
			name = trf("%s, epoch %d", p.title, em.Epoch)
		}
		v := viz.EmbeddingPanel{Name: name, K: em.Neighbours, Agreement: float64(em.Separation), Inter: em.Inter}
		for _, x := range em.XY {
			v.XY = append(v.XY, float64(x))
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return ""
	}
	return viz.EdgeEmbeddings(tr, chartW, chartH+100, out...)
}

// renderEdgeNumbers states each panel's separation in numbers, the
// figure's text alternative: in the representations themselves (what the
// claim reads) and in the embedding as drawn, each a metric named by its
// model (data-model), its run where the lab shows several (data-run) and
// the epoch it is of (data-epoch).
func renderEdgeNumbers(panels []edgePanel) app.UI {
	var parts []app.UI
	for _, p := range panels {
		hidden, drawn, epoch, text := math.NaN(), math.NaN(), "", "–"
		if em := p.em; em != nil {
			hidden, drawn, epoch = float64(em.Hidden), float64(em.Separation), strconv.Itoa(em.Epoch)
			text = ""
		}
		say := func(name string, v float64) app.UI {
			t := text
			if t == "" {
				t = num(v, 3)
			}
			return metric(name, p.run, v, t).DataSet("model", p.model).DataSet("epoch", epoch)
		}
		if p.em != nil && len(p.em.XY) == 0 {
			parts = append(parts, app.P().Class("drawn").Text(noEmbedding(p)))
			continue
		}
		if p.em != nil && math.IsNaN(hidden) {
			parts = append(parts, app.P().Class("drawn").Text(trf("%s: too few edges of one kind to count each edge's %d nearest neighbours of its kind (the sample holds %d of each).", p.title, p.em.Neighbours, len(p.em.Inter)/2)))
			continue
		}
		parts = append(parts, app.P().Class("drawn").Body(
			app.Text(trf("%s, 10-NN agreement of edge kind: ", p.title)),
			say("edge-separation", hidden),
			app.Text(tr(" in the representations; in the embedding drawn, ")),
			say("edge-separation-tsne", drawn), app.Text(".")))
	}
	return app.Div().Body(parts...)
}

// noEmbedding says why panel p, whose embedding came without points, has
// none: the browser cannot afford its model beside the run, its graph
// lacks edges of one kind (every inter-class edge removed), or its model
// computes no representation of an edge.
func noEmbedding(p edgePanel) string {
	if p.em.Refused != nil {
		return trf("%s is not trained beside the run: %s", p.title, say(*p.em.Refused))
	}
	if p.em.OneKind {
		return trf("%s: the graph has no edges of one kind (within classes or between), so there is nothing to set apart.", p.title)
	}
	return trf("%s has no hidden edge representations to embed.", p.title)
}

// noPanelDrawn says why Figure 4 has no drawing where every panel's
// embedding came without points (it never will have one), "" else: the
// chart then waits for the engine.
func noPanelDrawn(panels []edgePanel) string {
	for _, p := range panels {
		if p.em == nil || len(p.em.XY) > 0 {
			return ""
		}
	}
	return tr("Nothing to embed: each model's sentence below says why.")
}

// explainEdgePanels says what Figure 4 draws and how its number reads,
// and when it is drawn.
func explainEdgePanels(live bool) app.UI {
	if live {
		return app.P().Text(tr("As the run trains, a sample of its edges, as many within classes as between, is embedded again and again in two dimensions by t-SNE from what each model computes for each edge: " +
			"PDN's pathfinder's last hidden layer; GAT's attention logits (both directions, every head), GAT trained beside the run on the same graph from the same seeds. " +
			"Each embedding takes seconds, so each panel names the epoch it shows. The number is the share of an edge's 10 nearest neighbours of its own kind: about 0.5 where the kinds mix, 1 where they separate."))
	}
	return app.P().Text(tr("Once a run has trained, a sample of its edges, as many within classes as between, is embedded in two dimensions by t-SNE from what the model computes for each edge: " +
		"PDN's pathfinder's last hidden layer, GAT's attention logits (both directions, every head). The number is the share of an edge's 10 nearest neighbours of its own kind: about 0.5 where the kinds mix, 1 where they separate."))
}

package viz

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"pdnexplorer/experiment"
)

// The structure lab's figures, drawn alike by the page and pdn structure
// from the same runs and results (experiment.RobustnessRuns, TransferRuns).

// HomophilyLine is one run's learned homophily over its epochs.
type HomophilyLine struct {
	Name, Color    string
	Epoch, Learned []float64
}

// HomophilyChart draws each run's learned homophily against the epoch,
// with the input graph's edge homophily as a dashed line: the reader sees
// whether a model's graph becomes more homophilous than its input.
func HomophilyChart(tr func(string) string, w, h int, epochs, input float64, lines ...HomophilyLine) string {
	var series []Series
	for _, l := range lines {
		series = append(series, Series{Name: l.Name, Color: l.Color, X: l.Epoch, Y: l.Learned})
	}
	if !math.IsNaN(input) {
		series = append(series, Series{Name: tr("input graph"), Color: "#555555", Dash: true, X: []float64{0, epochs}, Y: []float64{input, input}})
	}
	return LineChart(w, h, Axes{Title: tr("Homophily of the learned graph"), XLabel: tr("epoch"), YMin: 0, YMax: 1, XMax: epochs}, series...)
}

// RobustnessChart draws, for perturbation p, each model's test accuracy
// against the rate, from runs (experiment.RobustnessRuns) and results.
func RobustnessChart(tr func(string) string, w, h int, p experiment.Perturbation, models []string, runs []experiment.Run, res []experiment.Result) string {
	var series []Series
	for i, m := range models {
		series = append(series, Series{Name: m, Color: ModelColor(m, i), X: p.Rates, Y: experiment.RobustAcc(runs, res, p, m)})
	}
	return LineChart(w, h, Axes{Title: tr(p.Title), XLabel: tr("rate"), YMin: 0, YMax: 1, XMax: p.Rates[len(p.Rates)-1]}, series...)
}

// TransferBars draws each transfer model's test accuracy on the input
// graph and on PDN's learned graph, frozen.
func TransferBars(tr func(string) string, w, h int, runs []experiment.Run, res []experiment.Result) string {
	input := BarSeries{Name: tr("input graph"), Color: "#999999"}
	learned := BarSeries{Name: tr("PDN's learned graph"), Color: ModelColor(experiment.PDN, 0)}
	for _, m := range experiment.TransferModels {
		for _, s := range []*BarSeries{&input, &learned} {
			from := experiment.FromInput
			if s == &learned {
				from = experiment.FromPDN
			}
			v := experiment.TransferAcc(runs, res, m, from)
			s.Mean, s.SD, s.Reference = append(s.Mean, v), append(s.SD, 0), append(s.Reference, math.NaN())
		}
	}
	return GroupedBars(tr, w, h, tr("Test accuracy over each graph"), tr("test acc."), 0, experiment.TransferModels, input, learned)
}

// InductionBars is the induction table's figure: at each graph the
// generator draws at a later seed, the test accuracy of GCN over the
// weights the first seed's pathfinder gives it, beside a PDN trained on
// that graph and GCN over its input edges (experiment.InductionRuns).
func InductionBars(tr func(string) string, w, h int, runs []experiment.Run, res []experiment.Result) string {
	series := []BarSeries{
		{Name: tr("pathfinder from the first graph"), Color: SweepColors[4]}, // PDN's hue, lighter: its pathfinder, elsewhere
		{Name: tr("PDN trained on this graph"), Color: ModelColor(experiment.PDN, 0)},
		{Name: tr("GCN on the input graph"), Color: "#999999"},
	}
	names := []string{experiment.InducedRun, experiment.OwnPDNRun, experiment.OwnGCNRun}
	var groups []string
	for i, r := range runs {
		k := slices.Index(names, r.Title)
		if k < 0 {
			continue
		}
		if k == 0 {
			groups = append(groups, fmt.Sprintf(tr("seed %d"), r.Exp.Data.Seed))
		}
		v := math.NaN()
		if res[i].Done {
			v = res[i].Acc
		}
		series[k].Mean, series[k].SD, series[k].Reference = append(series[k].Mean, v), append(series[k].SD, 0), append(series[k].Reference, math.NaN())
	}
	return GroupedBars(tr, w, h, tr("Test accuracy on graphs the pathfinder never saw"), tr("test acc."), 0, groups, series...)
}

// withoutSize is an svg tag's attributes without its width and height
// (by hand: the page's binary links no regexp).
func withoutSize(attrs string) string {
	for _, name := range []string{" width=\"", " height=\""} {
		for {
			i := strings.Index(attrs, name)
			if i < 0 {
				break
			}
			end := strings.IndexByte(attrs[i+len(name):], '"')
			if end < 0 {
				break
			}
			attrs = attrs[:i] + attrs[i+len(name)+end+1:]
		}
	}
	return attrs
}

// Grid lays inline figures of w×h each out in a figure of cols columns,
// as a standalone file's figure holds several charts.
func Grid(w, h, cols int, figures ...string) string {
	rows := (len(figures) + cols - 1) / cols
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ` + f1(float64(w*cols)) + " " + f1(float64(h*rows)) + `">`)
	for i, f := range figures {
		x, y := (i%cols)*w, (i/cols)*h
		// The cell's own size replaces the one the figure's tag may give.
		open, rest, _ := strings.Cut(strings.TrimPrefix(f, "<svg"), ">")
		open = withoutSize(strings.ReplaceAll(open, "\n", " "))
		b.WriteString(`<svg x="` + f1(float64(x)) + `" y="` + f1(float64(y)) + `" width="` + f1(float64(w)) + `" height="` + f1(float64(h)) + `"` + open + ">" + rest)
	}
	b.WriteString("</svg>")
	return b.String()
}

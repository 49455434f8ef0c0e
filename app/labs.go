package app

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// lab is one room of the explorer: a lesson of the paper with its own
// component, state and runs. Adding a lab is writing its component (copy
// graphlab.go, or xorlab.go for a lab of several models side by side),
// adding one row to labs and its name to experiment.Labs,
// the lab row's choices (a test checks that the two agree).
type lab struct {
	Name  string // its key in the URL: #lab=NAME
	Title string // its name in the navigation
	New   func(*Engine, *Board) app.Composer
}

// labs are the labs in the order the navigation shows them; the first is
// the default.
var labs = []lab{
	{Name: "graph", Title: "The learned graph", New: func(e *Engine, b *Board) app.Composer { return &GraphLab{Engine: e, Board: b} }},
	{Name: "xor", Title: "XOR needs a hidden layer", New: func(e *Engine, b *Board) app.Composer { return &XORLab{multiLab: multiLab{Engine: e, Board: b}} }},
	{Name: "degree", Title: "GAT's weights shrink with degree", New: func(e *Engine, b *Board) app.Composer { return &DegreeLab{multiLab: multiLab{Engine: e, Board: b}} }},
	{Name: "compare", Title: "Models side by side", New: func(e *Engine, b *Board) app.Composer { return &CompareLab{multiLab: multiLab{Engine: e, Board: b}} }},
	{Name: "attention", Title: "What PDN attends to", New: func(e *Engine, b *Board) app.Composer { return &AttentionLab{multiLab: multiLab{Engine: e, Board: b}} }},
}

// labNamed returns the lab called name, or the default lab.
func labNamed(name string) lab {
	for _, l := range labs {
		if l.Name == name {
			return l
		}
	}
	return labs[0]
}

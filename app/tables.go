package app

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// dataTable is every table the page draws (a rule: internal/rules fails
// on app.Table anywhere else): its rows in a wrapper that scrolls sideways
// where the table is wider than its column, as on a phone, and cells that
// keep their numbers whole (web/app.css, .data-table: a cell's numbers
// never wrap, a heading's words may). A table squeezed into a phone's
// width broke its numbers over three lines; one that scrolls keeps them.
// The wrapper takes the keyboard's focus, so that the arrow keys scroll a
// table wider than the screen as a finger does (axe-core: a region that
// scrolls must be reachable without a pointer).
//
// id names the table for tests and styles ("" for none); class adds its
// own styles (runs, trace-table); parts are its rows, or its head and
// body (app.THead, app.TBody).
func dataTable(id, class string, parts ...app.UI) app.UI {
	table := app.Table().Class("data-table " + class).Body(parts...)
	if id != "" {
		table = table.ID(id)
	}
	return app.Div().Class("table-scroll").TabIndex(0).Body(table)
}

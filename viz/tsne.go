package viz

import (
	"fmt"
	"math"
	"strconv"
)

// EmbeddingPanel is one model's edges embedded in two dimensions (Figure 4):
// the model's name, the points as rows of 2, whether each is an
// inter-class edge, and how well the kinds separate: the share of each
// point's K nearest neighbours of its kind (Agreement).
type EmbeddingPanel struct {
	Name      string
	XY        []float64
	Inter     []bool
	K         int
	Agreement float64
}

// EdgeEmbeddings draws Figure 4: the panels side by side, each a scatter
// of its edges, intra-class ones dark and inter-class ones orange, as the
// learned graph draws them. A t-SNE embedding's axes carry no units, so
// the panels have none; each is scaled to its own points.
func EdgeEmbeddings(tr func(string) string, w, h int, panels ...EmbeddingPanel) string {
	t := typeFor(w, h)
	title := tr("Figure 4: each model's hidden edge representations, embedded in two dimensions by t-SNE")
	entries := []legendEntry{{tr("intra-class edge"), IntraColor, markBox}, {tr("inter-class edge"), InterColor, markHollow}}
	left, right := t.f(10), float64(w)-t.f(padRight)
	legendRows := t.legendRows(entries, right-left)
	top := t.legendTop(title, w) + t.f(4) + float64(legendRows)*t.f(legendRow)
	n := max(1, len(panels))
	gap := t.f(12)
	slot := (right - left - gap*float64(n-1)) / float64(n)
	var heads [][]string
	rows := 1
	for _, p := range panels {
		head := p.Name + ": " + fmt.Sprintf(tr("%d-NN agreement of edge kind %.2f"), p.K, p.Agreement)
		if math.IsNaN(p.Agreement) { // too few edges of a kind to count K neighbours
			head = p.Name + ": " + fmt.Sprintf(tr("%d-NN agreement of edge kind: too few edges of one kind"), p.K)
		}
		lines := wrapText(head, t.f(11), slot, 3)
		heads, rows = append(heads, lines), max(rows, len(lines))
	}
	boxTop := top + t.f(6) + float64(rows)*t.f(14)
	side := min(slot, float64(h)-boxTop-t.f(10))
	if side < t.f(60) { // a narrow figure: grow it rather than squeeze the panels
		side = math.Max(slot, t.f(60))
	}
	h = int(math.Ceil(boxTop + side + t.f(10)))
	c := newCanvas(w, h, title)
	c.Rect(0, 0, w, h, `fill="#ffffff"`)
	t.title(c, title, w)
	t.drawLegend(c, entries, left, t.legendTop(title, w), right-left)
	r := t.f(2.2)
	for i, p := range panels {
		x0 := left + float64(i)*(slot+gap)
		for k, line := range heads[i] {
			c.Text(int(x0), int(top+t.f(12)+float64(k)*t.f(14)), line, t.size(11), `fill="#222"`)
		}
		bx := x0 + (slot-side)/2
		c.buf.WriteString(`<rect x="` + f1(bx) + `" y="` + f1(boxTop) + `" width="` + f1(side) + `" height="` + f1(side) + `" fill="none" stroke="#cccccc"/>`)
		lo, hi := bounds(p.XY)
		span := math.Max(hi[0]-lo[0], hi[1]-lo[1])
		if span == 0 || math.IsInf(span, 0) || math.IsNaN(span) {
			span = 1
		}
		inner := side - 4*r
		// Intra-class edges first, inter-class ones over them: the
		// rarer mark where they overlap stays seen.
		for _, inter := range []bool{false, true} {
			for k := 0; 2*k+1 < len(p.XY); k++ {
				if k < len(p.Inter) && p.Inter[k] != inter || k >= len(p.Inter) && inter {
					continue
				}
				px := bx + 2*r + (p.XY[2*k]-lo[0])/span*inner + (inner-(hi[0]-lo[0])/span*inner)/2
				py := boxTop + 2*r + (p.XY[2*k+1]-lo[1])/span*inner + (inner-(hi[1]-lo[1])/span*inner)/2
				if math.IsNaN(px) || math.IsNaN(py) {
					continue
				}
				kind := "intra"
				style := `fill="` + IntraColor + `" fill-opacity="0.7"`
				if inter {
					kind, style = "inter", `fill="none" stroke="`+InterColor+`" stroke-width="1.2"`
				}
				c.buf.WriteString(`<circle class="edge-point" data-panel="` + strconv.Itoa(i) + `" data-kind="` + kind + `" cx="` + f1(px) + `" cy="` + f1(py) + `" r="` + f1(r) + `" ` + style + `/>`)
			}
		}
	}
	return c.inline()
}

// bounds are the smallest and largest coordinates of the rows of 2 in xy,
// NaN left out.
func bounds(xy []float64) (lo, hi [2]float64) {
	lo = [2]float64{math.Inf(1), math.Inf(1)}
	hi = [2]float64{math.Inf(-1), math.Inf(-1)}
	for i, v := range xy {
		if !math.IsNaN(v) {
			lo[i%2], hi[i%2] = math.Min(lo[i%2], v), math.Max(hi[i%2], v)
		}
	}
	if lo[0] > hi[0] {
		return [2]float64{}, [2]float64{}
	}
	return lo, hi
}

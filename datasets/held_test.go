package datasets

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"pdnexplorer/internal/numtext"
	"pdnexplorer/internal/pagemem"
)

// heldFiles write, for each format row that holds items (holdsItems), a
// ring of n nodes (two classes) and its n edges (a weight each) in the
// row's format, each node and edge on a line of its own, and say where
// the kth of them (0 first, the nodes before the edges) is, as a message
// names it (file:line:col).
var heldFiles = map[string]func(n int) (files map[string]string, at func(k int) string){
	"GraphML": func(n int) (map[string]string, func(int) string) {
		var b strings.Builder
		b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n")
		b.WriteString("<key id=\"c\" for=\"node\" attr.name=\"club\" attr.type=\"string\"/>\n<key id=\"w\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n")
		b.WriteString("<graph edgedefault=\"undirected\">\n")
		for i := range n {
			fmt.Fprintf(&b, "<node id=\"n%d\"><data key=\"c\">%s</data></node>\n", i, "ab"[i%2:i%2+1])
		}
		for i := range n {
			fmt.Fprintf(&b, "<edge source=\"n%d\" target=\"n%d\"><data key=\"w\">1.5</data></edge>\n", i, (i+1)%n)
		}
		b.WriteString("</graph>\n</graphml>\n")
		return map[string]string{"ring.graphml": b.String()}, func(k int) string { return fmt.Sprintf("ring.graphml:%d:1", 6+k) }
	},
	"GEXF": func(n int) (map[string]string, func(int) string) {
		var b strings.Builder
		b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gexf xmlns=\"http://gexf.net/1.3\" version=\"1.3\">\n<graph defaultedgetype=\"undirected\">\n")
		b.WriteString("<attributes class=\"node\"><attribute id=\"0\" title=\"club\" type=\"string\"/></attributes>\n")
		b.WriteString("<nodes>\n")
		for i := range n {
			fmt.Fprintf(&b, "<node id=\"n%d\"><attvalues><attvalue for=\"0\" value=\"%s\"/></attvalues></node>\n", i, "ab"[i%2:i%2+1])
		}
		b.WriteString("</nodes>\n<edges>\n")
		for i := range n {
			fmt.Fprintf(&b, "<edge source=\"n%d\" target=\"n%d\" weight=\"1.5\"/>\n", i, (i+1)%n)
		}
		b.WriteString("</edges>\n</graph>\n</gexf>\n")
		return map[string]string{"ring.gexf": b.String()}, func(k int) string {
			if k < n {
				return fmt.Sprintf("ring.gexf:%d:1", 6+k)
			}
			return fmt.Sprintf("ring.gexf:%d:1", 6+k+2)
		}
	},
	"node-link JSON": func(n int) (map[string]string, func(int) string) {
		var b strings.Builder
		b.WriteString("{\"directed\": false, \"multigraph\": false, \"graph\": {},\n\"nodes\": [\n")
		for i := range n {
			fmt.Fprintf(&b, "{\"id\": \"n%d\", \"club\": %q}%s\n", i, "ab"[i%2:i%2+1], map[bool]string{true: ",", false: ""}[i < n-1])
		}
		b.WriteString("],\n\"links\": [\n")
		for i := range n {
			fmt.Fprintf(&b, "{\"source\": \"n%d\", \"target\": \"n%d\", \"weight\": 1.5}%s\n", i, (i+1)%n, map[bool]string{true: ",", false: ""}[i < n-1])
		}
		b.WriteString("]}\n")
		return map[string]string{"ring.json": b.String()}, func(k int) string {
			if k < n {
				return fmt.Sprintf("ring.json:%d:1", 3+k)
			}
			return fmt.Sprintf("ring.json:%d:1", 3+k+2)
		}
	},
}

// Every reader that holds its nodes and edges as items till the graph is
// made (the rows holdsItems) counts them against the page's budget
// (limits.elements) by held's one rule: a ring of as many nodes and
// edges as the budget opens; one more is refused at the first past it,
// naming the count and the budget and what reads it, and far more name
// their whole count (the rest counted, not held); the command line reads
// them. The advice holds: the same graph as an edge list and a labels
// file holds no item, and opens within any budget.
func TestEveryItemHoldingReaderKeepsTheBudget(t *testing.T) {
	const n = 6 // nodes, and as many edges
	for _, f := range formats() {
		if !f.holdsItems {
			continue
		}
		t.Run(f.name, func(t *testing.T) {
			write, ok := heldFiles[f.name]
			if !ok {
				t.Fatalf("no file to read: a row that holds items has its ring in heldFiles")
			}
			files, at := write(n)
			fsys := mapFS(files)
			lim := pageLimits
			lim.elements = 2 * n
			g, _, err := Open(limitedTo(fsys, lim), Columns{})
			if err != nil {
				t.Fatalf("as many as the budget: %v", err)
			}
			if g.Meta["format"] != f.name || g.N != n || g.E() != n {
				t.Fatalf("as many as the budget: read as %v, %d nodes and %d edges", g.Meta["format"], g.N, g.E())
			}
			for _, budget := range []int{2*n - 1, 2, 0} {
				lim.elements = budget
				_, _, err := Open(limitedTo(fsys, lim), Columns{})
				want := fmt.Sprintf("%s: holds %d nodes and edges, more than the %d the browser holds at once (each is kept, with its values, until the graph is made): open the graph with the command line (pdn train -data), or save it as an edge list and a labels file, which are read as they stream, in far less memory", at(budget), 2*n, budget)
				if err == nil || err.Error() != want {
					t.Errorf("a budget of %d:\n got %v\nwant %s", budget, err, want)
				}
			}
			last := nativeLimits
			last.elements = 2
			_, _, err = Open(limitedTo(fsys, last), Columns{})
			if want := fmt.Sprintf("%s: holds %d nodes and edges, more than the 2 the command line holds at once (each is kept, with its values, until the graph is made): save the graph as an edge list and a labels file", at(2), 2*n); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("where nothing reads more:\n got %v\nwant %s", err, want)
			}
			if _, _, err := Open(fsys, Columns{}); err != nil {
				t.Errorf("the command line: %v", err)
			}
		})
	}
	var edges, labels strings.Builder
	labels.WriteString("id,club\n")
	for i := range n {
		fmt.Fprintf(&labels, "n%d,%s\n", i, "ab"[i%2:i%2+1])
		fmt.Fprintf(&edges, "n%d,n%d,1.5\n", i, (i+1)%n)
	}
	lim := pageLimits
	lim.elements = 0
	g, _, err := Open(limitedTo(mapFS(map[string]string{"ring.edges": edges.String(), "ring.labels": labels.String()}), lim), Columns{})
	if err != nil || g.N != n || g.E() != n {
		t.Errorf("the same ring as an edge list and a labels file, within a budget of 0: %v", err)
	}
}

// The budget touches no reader that holds no items: each other row's
// fixtures read within a budget of 0 as within the page's. A reader that
// came to hold items (held) without its row saying so fails here.
func TestTheBudgetTouchesOnlyItemHoldingReaders(t *testing.T) {
	fixtures := faultFixtures(t)
	for _, f := range formats() {
		if f.holdsItems {
			continue
		}
		for _, fx := range fixtures[f.name] {
			fsys := mapFS(fx.files)
			g, _, err := Open(limitedTo(fsys, pageLimits), Columns{})
			if err != nil {
				t.Fatalf("%s (%s): %v", f.name, fx.name, err)
			}
			none := pageLimits
			none.elements = 0
			g0, _, err := Open(limitedTo(fsys, none), Columns{})
			if err != nil || g.N != g0.N || g.E() != g0.E() {
				t.Errorf("%s (%s): within no budget, %v: a reader that holds items says so in its row (holdsItems)", f.name, fx.name, err)
			}
		}
	}
}

// heldValueFiles write, for each format row that holds items, a ring of
// n nodes (two classes, club, and k features, f0…) and its n edges (a
// weight each), each value on a line of its own where the format lets it
// (GEXF's weight= is its edge's), and say where the last value is, as a
// message names it (file:line:col).
var heldValueFiles = map[string]func(n, k int) (name, text, last string){
	"GraphML": func(n, k int) (string, string, string) {
		var b strings.Builder
		b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n")
		b.WriteString("<key id=\"c\" for=\"node\" attr.name=\"club\" attr.type=\"string\"/>\n")
		for j := range k {
			fmt.Fprintf(&b, "<key id=\"f%d\" for=\"node\" attr.name=\"f%d\" attr.type=\"double\"/>\n", j, j)
		}
		b.WriteString("<key id=\"w\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n<graph edgedefault=\"undirected\">\n")
		for i := range n {
			fmt.Fprintf(&b, "<node id=\"n%d\">\n<data key=\"c\">%s</data>\n", i, "ab"[i%2:i%2+1])
			for j := range k {
				fmt.Fprintf(&b, "<data key=\"f%d\">0.%d</data>\n", j, i+j+1)
			}
			b.WriteString("</node>\n")
		}
		for i := range n {
			fmt.Fprintf(&b, "<edge source=\"n%d\" target=\"n%d\">\n<data key=\"w\">1.5</data>\n</edge>\n", i, (i+1)%n)
		}
		last := strings.Count(b.String(), "\n") - 1
		b.WriteString("</graph>\n</graphml>\n")
		return "ring.graphml", b.String(), fmt.Sprintf("ring.graphml:%d:1", last)
	},
	"GEXF": func(n, k int) (string, string, string) {
		var b strings.Builder
		b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gexf xmlns=\"http://gexf.net/1.3\" version=\"1.3\">\n<graph defaultedgetype=\"undirected\">\n")
		b.WriteString("<attributes class=\"node\">\n<attribute id=\"c\" title=\"club\" type=\"string\"/>\n")
		for j := range k {
			fmt.Fprintf(&b, "<attribute id=\"%d\" title=\"f%d\" type=\"double\"/>\n", j, j)
		}
		b.WriteString("</attributes>\n<nodes>\n")
		for i := range n {
			fmt.Fprintf(&b, "<node id=\"n%d\">\n<attvalues>\n<attvalue for=\"c\" value=\"%s\"/>\n", i, "ab"[i%2:i%2+1])
			for j := range k {
				fmt.Fprintf(&b, "<attvalue for=\"%d\" value=\"0.%d\"/>\n", j, i+j+1)
			}
			b.WriteString("</attvalues>\n</node>\n")
		}
		b.WriteString("</nodes>\n<edges>\n")
		for i := range n {
			fmt.Fprintf(&b, "<edge id=\"e%d\" source=\"n%d\" target=\"n%d\" weight=\"1.5\"/>\n", i, i, (i+1)%n)
		}
		last := strings.Count(b.String(), "\n")
		b.WriteString("</edges>\n</graph>\n</gexf>\n")
		return "ring.gexf", b.String(), fmt.Sprintf("ring.gexf:%d:1", last)
	},
	"node-link JSON": func(n, k int) (string, string, string) {
		var b strings.Builder
		b.WriteString("{\"directed\": false, \"multigraph\": false, \"graph\": {},\n\"nodes\": [\n")
		comma := func(i int) string { return map[bool]string{true: ",", false: ""}[i < n-1] }
		for i := range n {
			fmt.Fprintf(&b, "{\"id\": \"n%d\",\n\"club\": %q", i, "ab"[i%2:i%2+1])
			for j := range k {
				fmt.Fprintf(&b, ",\n\"f%d\": 0.%d", j, i+j+1)
			}
			fmt.Fprintf(&b, "}%s\n", comma(i))
		}
		b.WriteString("],\n\"links\": [\n")
		for i := range n {
			fmt.Fprintf(&b, "{\"source\": \"n%d\", \"target\": \"n%d\",\n\"weight\": 1.5}%s\n", i, (i+1)%n, comma(i))
		}
		last := strings.Count(b.String(), "\n")
		b.WriteString("]}\n")
		return "ring.json", b.String(), fmt.Sprintf("ring.json:%d:1", last)
	},
}

// Every reader that holds items counts their values against the page's
// budget of bytes (limits.itemBytes) by held's rule: a ring of 6 nodes of
// 4 values each and 6 edges of one, whose estimate is the budget, opens;
// with the budget one byte less, the file is one value past it, and is
// refused at its last value, naming what is held there (nodes and edges,
// values, the tables' cells), the estimate and the budget, and what reads
// it: the command line, which does, or the same graph as an edge list, a
// labels file and a features file, which hold no item and open within a
// budget of 0.
func TestEveryItemHoldingReaderKeepsTheValuesBudget(t *testing.T) {
	const n, k = 6, 3 // nodes, and as many edges; features a node
	for _, tc := range []struct {
		format string
		cost   itemCost
	}{
		{"GraphML", graphmlCost},
		{"GEXF", gexfCost},
		{"node-link JSON", nodeLinkCost},
	} {
		t.Run(tc.format, func(t *testing.T) {
			name, text, last := heldValueFiles[tc.format](n, k)
			fsys := mapFS(map[string]string{name: text})
			// Every node gives its k+1 keys, every edge its weight: no
			// cell is left out; the k+2 keys are charged too.
			values := n*(k+1) + n
			estimate := n*tc.cost.node + n*tc.cost.edge + float64(values)*tc.cost.value + (k+2)*tc.cost.key
			lim := pageLimits
			lim.itemBytes = int(estimate)
			g, _, err := Open(limitedTo(fsys, lim), Columns{})
			if err != nil {
				t.Fatalf("within the budget: %v", err)
			}
			if g.Meta["format"] != tc.format || g.N != n || g.E() != n || g.F != k || g.D != 1 {
				t.Fatalf("within the budget: read as %v, %d nodes, %d edges, %d features, %d edge features", g.Meta["format"], g.N, g.E(), g.F, g.D)
			}
			lim.itemBytes--
			_, _, err = Open(limitedTo(fsys, lim), Columns{})
			said := fmt.Sprintf("holds, by here, %d nodes and edges with %d values (%d cells in the graph's tables), which would take about %s bytes until the graph is made, more than the %s bytes", 2*n, values, values, numtext.Group(int(roughly(estimate))), numtext.Group(lim.itemBytes))
			want := fmt.Sprintf("%s: %s the browser holds at once: open the graph with the command line (pdn train -data), or save it as an edge list, a labels file and a features file (edges.csv, target.csv and features.csv, as in a MUSAE folder), which are read as they stream, in far less memory", last, said)
			if err == nil || err.Error() != want {
				t.Errorf("one value past the budget:\n got %v\nwant %s", err, want)
			}
			native := nativeLimits
			native.itemBytes = lim.itemBytes
			_, _, err = Open(limitedTo(fsys, native), Columns{})
			if want := fmt.Sprintf("%s: %s the command line holds at once: save the graph as an edge list, a labels file and a features file", last, said); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("where nothing reads more:\n got %v\nwant %s", err, want)
			}
			if _, _, err := Open(fsys, Columns{}); err != nil {
				t.Errorf("the command line: %v", err)
			}
		})
	}
	var edges, target, features strings.Builder
	edges.WriteString("id_1,id_2\n")
	target.WriteString("id,club\n")
	features.WriteString("node_id,feature_id,value\n")
	for i := range n {
		fmt.Fprintf(&edges, "%d,%d\n", i, (i+1)%n)
		fmt.Fprintf(&target, "%d,%s\n", i, "ab"[i%2:i%2+1])
		for j := range k {
			fmt.Fprintf(&features, "%d,%d,0.%d\n", i, j, i+j+1)
		}
	}
	lim := pageLimits
	lim.elements, lim.itemBytes = 0, 0
	g, _, err := Open(limitedTo(mapFS(map[string]string{"edges.csv": edges.String(), "target.csv": target.String(), "features.csv": features.String()}), lim), Columns{})
	if err != nil || g.N != n || g.E() != n || g.F != k {
		t.Errorf("the same ring as an edge list, a labels file and a features file, within budgets of 0: %v", err)
	}
}

// Every key is charged (itemCost.key), however few the nodes: 900,000
// GraphML keys and 3 nodes, 60 MB, peaked at 1 GB and opened. Here 2,000
// keys and 3 nodes pass a budget of 1 MB at the key that passes it, in
// GraphML and in node-link JSON (whose keys are its nodes' attributes).
func TestEveryKeyIsCharged(t *testing.T) {
	const keys = 2000
	var graphml, nodeLink strings.Builder
	graphml.WriteString("<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n<key id=\"c\" for=\"node\" attr.name=\"club\" attr.type=\"string\"/>\n")
	nodeLink.WriteString("{\"nodes\": [\n{\"id\": 0, \"club\": \"a\"")
	for i := range keys {
		fmt.Fprintf(&graphml, "<key id=\"k%d\" for=\"node\" attr.name=\"a%d\" attr.type=\"double\"/>\n", i, i)
		fmt.Fprintf(&nodeLink, ",\n\"a%d\": 1", i)
	}
	graphml.WriteString("<graph edgedefault=\"undirected\">\n")
	for i := range 3 {
		fmt.Fprintf(&graphml, "<node id=\"n%d\"><data key=\"c\">%s</data></node>\n", i, "ab"[i%2:i%2+1])
	}
	graphml.WriteString("<edge source=\"n0\" target=\"n1\"/><edge source=\"n1\" target=\"n2\"/>\n</graph>\n</graphml>\n")
	nodeLink.WriteString("},\n{\"id\": 1, \"club\": \"b\"}, {\"id\": 2, \"club\": \"a\"}],\n\"links\": [{\"source\": 0, \"target\": 1}, {\"source\": 1, \"target\": 2}]}\n")
	lim := pageLimits
	lim.itemBytes = 1_000_000
	for name, text := range map[string]string{"g.graphml": graphml.String(), "g.json": nodeLink.String()} {
		fsys := mapFS(map[string]string{name: text})
		if _, _, err := Open(limitedTo(fsys, lim), Columns{}); err == nil || !strings.HasPrefix(err.Error(), name+":") || !strings.Contains(err.Error(), "which would take about 1,0") {
			t.Errorf("%s: %v", name, err)
		}
		if _, _, err := Open(fsys, Columns{}); err != nil {
			t.Errorf("%s, the command line: %v", name, err)
		}
	}
}

// Every place a user's file is read bounds what reading it may hold (the
// numbers it gives, its node table's cells, the items of a GraphML, GEXF
// or node-link file) by the memory that place lets a graph and its models
// hold, by one rule (readingLimits): the command line had no bound, and a
// labels file of 40 lines of 8 million cells (623 kB gzipped) held 10.7
// GB before it failed for memory; an OGB folder's node features of as
// many, 9.3 GB before the cost model refused the run.
func TestReadingIsBoundedByEachPlacesMemory(t *testing.T) {
	for _, tc := range []struct {
		place string
		lim   limits
		mem   int64
	}{
		{"the page", pageLimits, pagemem.Bytes},
		{"the command line", nativeLimits, pagemem.NativeBytes},
	} {
		want := readingLimits(tc.mem, tc.lim)
		if tc.lim.valueBytes != want.valueBytes || tc.lim.cells != want.cells || tc.lim.itemBytes != want.itemBytes {
			t.Errorf("%s reads within values %d, cells %d, items %d bytes; its memory (%d bytes) gives %d, %d and %d",
				tc.place, tc.lim.valueBytes, tc.lim.cells, tc.lim.itemBytes, tc.mem, want.valueBytes, want.cells, want.itemBytes)
		}
		if int64(tc.lim.valueBytes) > tc.mem || int64(tc.lim.itemBytes) > tc.mem || int64(tc.lim.cells)*16 > tc.mem {
			t.Errorf("%s lets reading hold more than its memory (%d bytes): values %d, cells %d, items %d", tc.place, tc.mem, tc.lim.valueBytes, tc.lim.cells, tc.lim.itemBytes)
		}
	}
	if pageLimits.valueBytes != pagemem.ValueBytes || pageLimits.cells != pageCells || pageLimits.itemBytes != pageItemBytes {
		t.Errorf("the page's bounds moved: values %d, cells %d, items %d", pageLimits.valueBytes, pageLimits.cells, pageLimits.itemBytes)
	}
}

// A table of nodes wider than a name, a class and the most features the
// explorer reads is refused at its first line, on the page and on the
// command line alike: each column is looked at as the nodes' names, and a
// gzipped labels file of 40 lines of 8 million zeros (623 kB) held 10.7
// GB on the command line before it failed for memory.
func TestATableOfNodesTooWideIsRefusedAtItsFirstLine(t *testing.T) {
	// A table at the bound itself is read whole, which a test in the
	// browser's 4 GiB cannot afford beside the others: the bound is read
	// one column past it, and a narrow table beside it.
	for _, cols := range []int{3, maxNodeColumns + 1} {
		line := "0" + strings.Repeat(",0", cols-1) + "\n"
		fsys := fstest.MapFS{
			"edges.csv":  {Data: []byte("source,target\n0,1\n")},
			"labels.csv": {Data: []byte(line + strings.Replace(line, "0", "1", 1))},
		}
		for _, lim := range []limits{pageLimits, nativeLimits} {
			_, _, err := Open(limitedTo(fsys, lim), Columns{})
			want := fmt.Sprintf("labels.csv:1: holds %s columns, more than a table of nodes has: %s (a name, a class and at most %s features)",
				numtext.Group(cols), numtext.Group(maxNodeColumns), numtext.Group(MaxFeatures))
			switch {
			case cols > maxNodeColumns && (err == nil || err.Error() != want):
				t.Errorf("%d columns, %s: %v; want %s", cols, lim.where, err, want)
			case cols <= maxNodeColumns && err != nil && strings.Contains(err.Error(), "columns, more than a table of nodes has"):
				t.Errorf("%d columns, %s: refused for its width: %v", cols, lim.where, err)
			}
		}
	}
}

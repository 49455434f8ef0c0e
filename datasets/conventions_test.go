package datasets

import (
	"fmt"
	"slices"
	"testing"
)

// The publishers' conventions, one rule each in one place, on every
// surface: each case is keyed by the format row whose rule it holds to,
// and a row that states a rule without its case fails.

// bareClassCases are, by format row, a graph whose node table has no
// header and several columns that could each be the class: the class is
// the column the row's bareClass says, read on every surface.
var bareClassCases = map[string]struct {
	files  map[string]string
	names  []string // the class names the row's column gives
	labels []int
}{
	// Network Repository's NAME.node_labels: node,label, then features.
	"Matrix Market": {
		files: map[string]string{
			"club.mtx":         "%%MatrixMarket matrix coordinate pattern symmetric\n6 6 5\n2 1\n3 2\n4 3\n5 4\n6 5\n",
			"club.node_labels": "1,0,0,7\n2,1,0,7\n3,0,1,7\n4,1,1,8\n5,0,2,8\n6,1,2,8\n",
		},
		labels: []int{0, 1, 0, 1, 0, 1}, // classes numbered 0..K−1 keep no names
	},
	// Planetoid's .content: id, features…, class.
	"edge list": {
		files: map[string]string{
			"club.content": "a,0,0,7\nb,1,0,7\nc,0,1,7\nd,1,1,8\ne,0,2,8\nf,1,2,8\n",
			"club.cites":   "a,b\nb,c\nc,d\nd,e\ne,f\n",
		},
		names: []string{"7", "8"}, labels: []int{0, 0, 0, 1, 1, 1},
	},
}

func TestAHeaderlessTableKeepsItsRowsClassColumn(t *testing.T) {
	for _, f := range formats {
		c, ok := bareClassCases[f.name]
		if ok != (f.bareClass != askClass) {
			t.Errorf("format %s: bareClass %d, and a case: %v; a row that places a headerless table's class needs its case here, and only such a row", f.name, f.bareClass, ok)
		}
		if !ok {
			continue
		}
		for _, s := range surfaces {
			t.Run(f.name+"/"+s.name, func(t *testing.T) {
				g, err := s.open(t, c.files)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(g.ClassNames, c.names) || len(g.ClassNames) != len(c.names) || fmt.Sprint(g.Labels) != fmt.Sprint(c.labels) {
					t.Errorf("classes %q, labels %v; want %q, %v (the row's column)", g.ClassNames, g.Labels, c.names, c.labels)
				}
			})
		}
	}
}

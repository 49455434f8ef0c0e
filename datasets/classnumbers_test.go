package datasets

import (
	"fmt"
	"strings"
	"testing"
)

// A column of class numbers with a few cells that are no plain decimal
// number is refused naming them and what to write, where each would be a
// class of its own; a column of names, or of numbers and NA, is read.
func TestClassNumbersThroughout(t *testing.T) {
	for _, c := range []struct {
		odd  map[int]string // node → its cell, the others i%3
		want string         // "" for read
	}{
		{map[int]string{4: "0x1"}, `holds class numbers, but also "0x1" (1 node), which is not a plain decimal number`},
		{map[int]string{4: "１", 7: "１"}, `"１" (2 nodes), which is not`},
		{map[int]string{4: "−1"}, `"−1" (1 node)`},
		{map[int]string{4: "?", 5: "unknown", 8: "?"}, `"?" (2 nodes), "unknown" (1 node), which are not plain decimal numbers`},
		{map[int]string{4: "NAN"}, `"NAN" (1 node)`},
		{map[int]string{4: "NA", 5: "", 6: "-1"}, ""},
		{map[int]string{4: "1.0", 5: "2e0"}, ""},
	} {
		var labels strings.Builder
		labels.WriteString("id,label\n")
		var edges strings.Builder
		edges.WriteString("a,b\n")
		for i := range 12 {
			cell, ok := c.odd[i]
			if !ok {
				cell = fmt.Sprint(i % 3)
			}
			fmt.Fprintf(&labels, "n%d,%s\n", i, cell)
			fmt.Fprintf(&edges, "n%d,n%d\n", i, (i+1)%12)
		}
		_, _, err := Open(mapFS(map[string]string{"labels.csv": labels.String(), "edges.csv": edges.String()}), Columns{})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.odd, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), "labels.csv: column label: ") || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "leave a node without a class empty")):
			t.Errorf("%v: %v; want %q", c.odd, err, c.want)
		}
	}
	names := "id,label\na,x\nb,y\nc,1\nd,x\n"
	if _, _, err := Open(mapFS(map[string]string{"labels.csv": names, "edges.csv": "a,b\nb,c\nc,d\n"}), Columns{}); err != nil {
		t.Errorf("a column of names with a number among them: %v", err)
	}
}

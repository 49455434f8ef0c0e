package experiment

import (
	"fmt"
	"strings"
	"testing"
)

// Every form of the edits row reads back as it was written.
func TestEditsRoundTrip(t *testing.T) {
	for _, text := range []string{
		"a12-40",
		"a12-40c3-17",
		"r40-12",
		"s12-40c3-17",
		"s12-40f5~0.8",
		"s1-2f0~-1.25e-05_a0-9_r3-4",
	} {
		es, err := ParseEdits(text)
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		if got := es.String(); got != text {
			t.Errorf("%s reads back as %s", text, got)
		}
	}
}

// Leading zeros are read as every whole number is (numtext's rule: 016 is
// 16, as -edge-hidden 016 and a column 03 are), and the list is written
// without them, in the form a link keeps.
func TestEditsLeadingZeros(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"nodes", "a00-01", "a0-1"},
		{"an edge to copy", "s1-2c03-004", "s1-2c3-4"},
		{"a feature", "s1-2f05~0.5", "s1-2f5~0.5"},
		{"a value", "s1-2f0~00.50", "s1-2f0~0.5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			es, err := ParseEdits(c.text)
			if err != nil || es.String() != c.want {
				t.Errorf("%s: %v, %v; want read as %s", c.text, es, err, c.want)
			}
			e, err := Decode("edits=" + c.text)
			if err != nil || e.Data.Edits != c.want {
				t.Errorf("edits=%s in a link: %q, %v; want kept as %s", c.text, e.Data.Edits, err, c.want)
			}
		})
	}
}

// A bad item is named with its number and what it should be.
func TestEditsErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"x1-2", "edit 1 (\"x1-2\"): an edit starts with a (add), r (remove) or s (set)"},
		{"a1-2__r1-2", "edit 2 (\"\"): empty"},
		{"a1", "edit 1 (\"a1\"): want two node numbers"},
		{"a1-1", "joins a node to itself"},
		{"a1-99999999", `node "99999999"`},
		{"r1-2c3-4", "follows a removal"},
		{"s1-2", "a set says what to set"},
		{"s1-2f3", "want f, a feature number, ~ and a value"},
		{"s1-2f3~NaN", `"NaN" is not a decimal number`},
		{"s1-2f3~1e999", `value "1e999": want a finite number`},
		{"s0-2f0~0x1p-2", `"0x1p-2" is not a decimal number`}, // strconv would read 0.25
		{"s0-2f0~Inf", `"Inf" is not a decimal number`},
		{"s0-2f0x1~1", `feature "0x1"`},
		{"a0x1-2", "want two node numbers"},
		{"s1-2f-1~0", "feature \"-1\""},
		{"a1-2f3~0", "want c and an edge to copy"},
		{"a1-2c3-4x", "\"x\" follows the edge to copy"},
		{strings.Repeat("r1-2_", MaxEdits) + "r1-2", "101 edits; at most 100"},
	} {
		_, err := ParseEdits(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.text, err, c.want)
		}
	}
	// The row refuses them, naming itself and the form.
	if _, err := Decode("edits=x1-2"); err == nil || !strings.Contains(err.Error(), "edits: edit 1") || !strings.Contains(err.Error(), "joined by _") {
		t.Errorf("Decode: %v", err)
	}
}

// Then keeps a list short: an edge added and removed leaves no trace, and
// a set replaces the sets it makes moot.
func TestEditsThen(t *testing.T) {
	parse := func(s string) Edit {
		es, err := ParseEdits(s)
		if err != nil {
			t.Fatal(err)
		}
		return es[0]
	}
	for _, c := range []struct{ before, edit, want string }{
		{"", "a1-2", "a1-2"},
		{"r5-6_a1-2c3-4_s1-2f0~1_a7-8c2-1", "r2-1", "r5-6"},
		{"r5-6", "r1-2", "r5-6_r1-2"},
		{"s1-2f0~1_s1-2f1~1", "s2-1f0~3", "s1-2f1~1_s2-1f0~3"},
		{"s1-2f0~1_s1-2f1~1", "s1-2c7-8", "s1-2c7-8"},
		{"s1-2c7-8", "s1-2f0~2", "s1-2c7-8_s1-2f0~2"},
	} {
		es, err := ParseEdits(c.before)
		if err != nil {
			t.Fatal(err)
		}
		if got := es.Then(parse(c.edit)).String(); got != c.want {
			t.Errorf("%s then %s = %s, want %s", c.before, c.edit, got, c.want)
		}
	}
}

func ExampleEdits_Then() {
	es, _ := ParseEdits("a3-9c0-1")
	es = es.Then(Edit{Op: EditSet, U: 9, V: 3, Feature: 2, Value: 0.5})
	fmt.Println(es)
	es = es.Then(Edit{Op: EditRemove, U: 3, V: 9})
	fmt.Printf("%q\n", es.String())
	// Output:
	// a3-9c0-1_s9-3f2~0.5
	// ""
}

// Which data changes make another graph, whose arrival drops the rows that
// belong to one graph: a row that applies to either graph and differs; not
// a row neither reads, nor the edits themselves.
func TestSameGraphAndForNextGraph(t *testing.T) {
	base := ForLab("graph").Data
	base.Edits = "a0-3"
	local := base
	local.Graph = GraphLocal
	cora := base
	cora.Graph = GraphCora
	for _, tc := range []struct {
		name string
		from Data
		set  func(*Data)
		same bool
	}{
		{"other edits", base, func(d *Data) { d.Edits = "r0-1" }, true},
		{"bins on the synthetic graph", base, func(d *Data) { d.Bins = 5 }, true},
		{"bins on one's own files", local, func(d *Data) { d.Bins = 5 }, false},
		{"target on one's own files", local, func(d *Data) { d.Target = "mature" }, false},
		{"q on the synthetic graph", base, func(d *Data) { d.Q = 0.02 }, false},
		{"q on Cora", cora, func(d *Data) { d.Q = 0.02 }, true},
		{"the data seed", base, func(d *Data) { d.Seed++ }, false},
		{"another graph", base, func(d *Data) { d.Graph = GraphLocal }, false},
		{"a perturbation", cora, func(d *Data) { d.Perturb, d.PerturbRate = PerturbDrop, 0.1 }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := tc.from
			tc.set(&next)
			if got := tc.from.SameGraph(next); got != tc.same {
				t.Errorf("SameGraph %v, want %v", got, tc.same)
			}
		})
	}
	next, dropped := base.ForNextGraph()
	if next.Edits != "" || len(dropped) != 1 || dropped[0] != EditsRow || next.WithoutEdits() != base.WithoutEdits() {
		t.Errorf("ForNextGraph: %+v, dropped %v", next, dropped)
	}
	if _, dropped := next.ForNextGraph(); len(dropped) != 0 {
		t.Errorf("an unedited graph dropped %v", dropped)
	}
}

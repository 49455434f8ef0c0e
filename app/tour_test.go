package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
)

// Every tour step points at an element its lab draws.
func TestTourFocusExists(t *testing.T) {
	for _, tour := range experiment.Tours {
		for k, s := range tour.Steps {
			if s.Focus == "" {
				continue
			}
			st, err := experiment.Decode(s.Link)
			if err != nil {
				t.Fatalf("%s step %d: %v", tour.Name, k+1, err)
			}
			e := NewEngine(func(ev EventFunc) Conn { return &fakeConn{onEvent: ev} })
			lab := labNamed(st.View.Lab).New(e, &Board{})
			d := app.NewClientTester(lab)
			d.Consume()
			if h := app.HTMLString(lab); !strings.Contains(h, `id="`+s.Focus+`"`) {
				t.Errorf("%s step %d points at #%s, which the %s lab does not draw", tour.Name, k+1, s.Focus, st.View.Lab)
			}
			d.Close()
		}
	}
}

// The panel shows the step the link names, and the keys walk the tour.
func TestTourPanel(t *testing.T) {
	var p tourPanel
	p.read(view(t, "#lab=graph&tour=paper&step=2"))
	if !p.active() || p.step != 2 || p.tour.Name != "paper" {
		t.Fatalf("read: tour %q step %d", p.tour.Name, p.step)
	}
	h := app.HTMLString(p.render())
	if metricValue(h, "tour-step") != "2" {
		t.Errorf("the panel says step %q", metricValue(h, "tour-step"))
	}
	for _, want := range []string{p.tour.Steps[1].Title, `id="tour-back"`, `id="tour-next"`, "of 6"} {
		if !strings.Contains(h, want) {
			t.Errorf("the panel lacks %q", want)
		}
	}
	p.read(view(t, "#tour=graph&step=6")) // past the graph tour's 4 steps: its last
	if p.step != 4 {
		t.Errorf("step 6 of a 4-step tour shows step %d, want 4", p.step)
	}
	if h := app.HTMLString(p.render()); !strings.Contains(h, "Finish") {
		t.Error("the last step offers no Finish")
	}
	p.read(view(t, "#lab=graph"))
	if p.active() || p.onKey("n") {
		t.Error("a link without a tour shows one, or takes its keys")
	}
}

func view(t *testing.T, link string) experiment.View {
	t.Helper()
	st, err := experiment.Decode(link)
	if err != nil {
		t.Fatal(err)
	}
	return st.View
}

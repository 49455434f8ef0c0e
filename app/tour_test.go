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
			rm, _, _, _ := mountLab(t, st.View.Lab, s.Link)
			if h := htmlOf(rm); !strings.Contains(h, `id="`+s.Focus+`"`) {
				t.Errorf("%s step %d points at #%s, which the %s lab does not draw", tour.Name, k+1, s.Focus, st.View.Lab)
			}
		}
	}
}

// The panel shows the step the link names.
func TestTourPanel(t *testing.T) {
	c := &Shell{}
	p := &c.tour
	p.read(view(t, "#lab=compare&tour=paper&step=2"))
	if !p.active() || p.step != 2 || p.tour.Name != "paper" {
		t.Fatalf("read: tour %q step %d", p.tour.Name, p.step)
	}
	h := app.HTMLString(c.renderTour())
	if metricValue(h, "tour-step") != "2" {
		t.Errorf("the panel says step %q", metricValue(h, "tour-step"))
	}
	for _, want := range []string{p.tour.Steps[1].Title, `id="tour-back"`, `id="tour-next"`, "of 6"} {
		if !strings.Contains(h, want) {
			t.Errorf("the panel lacks %q", want)
		}
	}
	p.read(view(t, "#tour=graph&step=4"))
	if h := app.HTMLString(c.renderTour()); !strings.Contains(h, "Finish") {
		t.Error("the last step offers no Finish")
	}
	p.read(view(t, "#lab=graph"))
	if p.active() {
		t.Error("a link without a tour shows one")
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

// htmlOf is a component's HTML.
func htmlOf(c app.UI) string { return app.HTMLString(c) }

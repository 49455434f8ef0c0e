package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
)

// Every tour step points at an element its lab draws; a step with a
// question points at its claim's figure (experiment.TourStep.Target),
// never at one set by hand.
func TestTourFocusExists(t *testing.T) {
	for _, tour := range experiment.Tours {
		for k, s := range tour.Steps {
			if s.Question != nil && s.Focus != "" {
				t.Errorf("%s step %d asks a question and points at #%s by hand: it points at its claim's figure", tour.Name, k+1, s.Focus)
			}
			target := s.Target()
			if target == "" {
				if s.Question != nil {
					t.Errorf("%s step %d asks about claim %q, which names no figure", tour.Name, k+1, s.Question.Claim)
				}
				continue
			}
			st, err := experiment.Decode(s.Link)
			if err != nil {
				t.Fatalf("%s step %d: %v", tour.Name, k+1, err)
			}
			rm, _, _, _ := mountLab(t, st.View.Lab, s.Link)
			if h := htmlOf(rm); !strings.Contains(h, `id="`+target+`"`) {
				t.Errorf("%s step %d points at #%s, which the %s lab does not draw", tour.Name, k+1, target, st.View.Lab)
			}
		}
	}
}

// Every claim names the figure that shows what it reads, its lab draws
// that figure at the claim's state, and the figure's card holds the
// claim's verdict line (lab.beside): a card that goes around it fails.
func TestEveryClaimStandsOnItsFigure(t *testing.T) {
	for _, c := range experiment.Claims {
		if c.Figure == "" {
			t.Errorf("claim %s names no figure", c.ID)
			continue
		}
		rm, _, _, _ := mountLab(t, c.Lab(), c.Link)
		h := htmlOf(rm)
		at := strings.Index(h, `id="`+c.Figure+`"`)
		if at < 0 {
			t.Errorf("claim %s reads #%s, which the %s lab does not draw", c.ID, c.Figure, c.Lab())
			continue
		}
		card := h[at:] // up to the next card, past the element's own tag
		open := strings.Index(card, ">")
		if next := strings.Index(card[open:], `class="card`); next >= 0 {
			card = card[:open+next]
		}
		if !strings.Contains(card, `data-metric="claim-beside"`) || !strings.Contains(card, `data-claim="`+c.ID+`"`) {
			t.Errorf("the %s lab's #%s does not hold claim %s's verdict line", c.Lab(), c.Figure, c.ID)
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

package app

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// The page cases of the audit of 28 November 2026 that no other app test
// asserts (cmd/pdn's audit1128Tests names every case's test).

// Audit case 64: once a sweep runs, its time left follows the pace it
// keeps, not the engine's estimate: two runs the estimate put at 10 s
// each that took a minute make the rest as many times slower than the
// estimate, and the figure no longer says "(estimate)".
func TestAudit1128TimeLeftFollowsThePace(t *testing.T) {
	rm, l, conns, d := mountLab(t, "sweep", "lab=sweep&scenario=4&models=gcn,mlp&reps=1")
	c := rm.(*SweepLab)
	l.page.save = func(experiment.Experiment) {}
	secs := make([]float64, len(c.queue))
	for i := range secs {
		secs[i] = 10
	}
	doIn(d, c, func() { (*conns)[0].onEvent(protocol.Event{Kind: protocol.KindEstimate, Seconds: secs}, nil) })
	base, ok := c.estimateLeft()
	if !ok || base != time.Duration(float64(len(secs))*10/float64(sweepWorkers())*float64(time.Second)) {
		t.Fatalf("the estimate left: %v, %v", base, ok)
	}
	if left := text(app.HTMLString(c), "sweep-left"); !strings.Contains(left, "(estimate)") {
		t.Errorf("before the sweep runs: %q", left)
	}
	// Two runs of the estimate's 10 s each, on 2 workers, took a minute.
	doIn(d, c, func() {
		//testwait:fixed not a limit: the sweep started a minute ago, as its pace reckons
		c.playing, c.since, c.estDone = true, time.Now().Add(-time.Minute), 20
		for i := range c.slots {
			c.slots[i].job = -1
		}
	})
	left, estimated, ok := c.timeLeft()
	if !ok || estimated {
		t.Fatalf("time left %v, estimated %v, ok %v", left, estimated, ok)
	}
	scale := min(max(60/(20/float64(sweepWorkers())), 0.2), 20)
	if want := time.Duration(scale * float64(base)); left < want*99/100 || left > want*101/100 {
		t.Errorf("time left %v, the estimate's %v; want %v, %.1f times it", left, base, want, scale)
	}
	if txt := text(app.HTMLString(c), "sweep-left"); strings.Contains(txt, "(estimate)") {
		t.Errorf("a running sweep's time left says %q", txt)
	}
}

// Audit case 67: Share on a link's state: the link in the panel holds the
// whole state (its seed and model among it), and its QR code is drawn.
func TestAudit1128ShareHoldsTheWholeState(t *testing.T) {
	c, _, d := mount(t)
	sh := shells[c]
	doIn(d, sh, func() { sh.follow("#lab=graph&seed=3&model=gcn") })
	doIn(d, sh, func() { sh.share.open = true })
	h := app.HTMLString(sh)
	i := strings.Index(h, `id="share-link"`)
	if i < 0 {
		t.Fatal("no link in the share panel")
	}
	input := h[strings.LastIndex(h[:i], "<"):]
	input = input[:strings.Index(input, ">")]
	for _, want := range []string{"lab=graph", "seed=3", "model=gcn", "epochs=200", "lr=0.01"} {
		if !strings.Contains(input, want) {
			t.Errorf("the shared link lacks %s: %s", want, input)
		}
	}
	qr := h[strings.Index(h, `class="share-qr"`):]
	if !strings.Contains(qr[:min(len(qr), 400)], "<svg") {
		t.Errorf("no QR code drawn: %.400s", qr)
	}
}

// What a link held that this version cannot use stays in every link the
// page gives out of the state: Share's link, its QR code's and the embed
// code, as in the address.
func TestShareKeepsWhatThisVersionCannotUse(t *testing.T) {
	c, _, d := mount(t)
	sh := shells[c]
	doIn(d, sh, func() { sh.follow("#lab=graph&per-class=64&futurerow=3") })
	doIn(d, sh, func() { sh.share.open = true })
	for name, link := range map[string]string{"link": linkOf(sh.st, sh.unread), "QR code": shortLinkOf(sh.st, sh.unread), "embed": embedCode(sh.st, sh.unread)} {
		if !strings.Contains(link, "futurerow=3") || !strings.Contains(link, "per-class=64") {
			t.Errorf("the shared %s lacks what the link kept: %s", name, link)
		}
	}
	if h := app.HTMLString(sh); !strings.Contains(h, "futurerow=3") {
		t.Error("the share panel shows no link with futurerow=3")
	}
}

// Audit case 179: the compare lab takes GraphSAGE and Chebyshev beside
// GCN and GAT from a link, a run each; a model named twice, or five
// models, are refused by name and the lab keeps its default two.
func TestAudit1128CompareLabModelsFromALink(t *testing.T) {
	_, l, conns, _ := mountLab(t, "compare", "lab=compare&models=sage,cheb,gcn,gat")
	var names []string
	for _, r := range l.runs {
		names = append(names, r.Name)
	}
	if !slices.Equal(names, []string{"sage", "cheb", "gcn", "gat"}) || len(*conns) != 4 {
		t.Errorf("runs %v on %d workers", names, len(*conns))
	}
	c, _, d := mount(t)
	sh := shells[c]
	for _, tc := range []struct{ models, want string }{
		{"sage,cheb,sage", `models: "sage,cheb,sage" is not allowed; want 2 to 4 of`},
		{"sage,cheb,gcn,gat,pdn", `models: "sage,cheb,gcn,gat,pdn" is not allowed; want 2 to 4 of`},
	} {
		sh.board.notices = nil
		doIn(d, sh, func() { sh.follow("#lab=compare&models=" + tc.models) })
		notices := strings.Join(sh.board.Texts(), "|")
		cmp, ok := sh.room.(*CompareLab)
		if !strings.Contains(notices, tc.want) || !strings.Contains(notices, "each once; it keeps pdn,gcn") || !ok || !slices.Equal(cmp.st.View.Models, []string{"pdn", "gcn"}) {
			t.Errorf("models=%s: notices %q, lab %T", tc.models, notices, sh.room)
		}
	}
}

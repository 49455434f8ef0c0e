package app

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// Each export writes a file its reader accepts, holding what the page shows.
func TestExports(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	do(d, c, func() {
		snapshot(f, 1, true, 0.5, 0.5, 0.5)
		snapshot(f, 2, false, 0.9, 0.1, 0.2)
	})
	files := map[string][]byte{}
	for _, x := range exports {
		if x.Write != nil { // the engine's and the pictures' are tested end to end
			files[x.ID] = x.Write(c)
		}
	}
	history, err := csv.NewReader(bytes.NewReader(files["export-history"])).ReadAll()
	if err != nil || len(history) != 3 || history[2][0] != "2" || history[2][3] != "0.875" {
		t.Errorf("history %v, %v", history, err)
	}
	weights, err := csv.NewReader(bytes.NewReader(files["export-weights"])).ReadAll()
	if err != nil || len(weights) != 4 || weights[1][2] != "intra" || weights[2][3] != "0.1" {
		t.Errorf("weights %v, %v", weights, err)
	}
	var state struct {
		Permalink string            `json:"permalink"`
		State     map[string]string `json:"state"`
	}
	if err := json.Unmarshal(files["export-state"], &state); err != nil || state.State["model"] != "pdn" || state.Permalink == "" {
		t.Errorf("state %+v, %v", state, err)
	}
	for _, id := range []string{"export-graph", "export-curves"} {
		dec := xml.NewDecoder(bytes.NewReader(files[id]))
		elements := 0
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			if _, ok := tok.(xml.StartElement); ok {
				elements++
			}
		}
		if elements < 5 {
			t.Errorf("%s: %d elements", id, elements)
		}
	}
}

// The engine writes the graph's DOT and bundle: the buttons ask for them.
func TestExportsAskTheEngine(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	for _, x := range exports {
		if x.Format == "" {
			continue
		}
		x.do(c)
		if last := f.sent[len(f.sent)-1]; last.Op != protocol.OpExport || last.Format != x.Format {
			t.Errorf("%s sent %+v", x.ID, last)
		}
	}
}

// Files the engine has read switch the lab to data=local with a new graph;
// the files go to every worker, and to a worker started later.
func TestOpenedGraphBecomesTheData(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	files := []protocol.File{{Name: "nodes.csv", Data: []byte("id")}}
	do(d, c, func() { c.opening = true; c.page.engine.Load(files, c.st.Data) })
	if last := f.sent[len(f.sent)-1]; last.Op != protocol.OpLoad || len(last.Files) != 1 {
		t.Fatalf("the files were sent as %+v", last)
	}
	do(d, c, func() {
		f.play(protocol.Event{Kind: protocol.KindLoaded, Loaded: &protocol.Loaded{Name: "mine", Nodes: 4, Edges: 3, Classes: 2}}, nil)
	})
	if c.st.Data.Graph != experiment.GraphLocal {
		t.Fatalf("data is %s after the graph was read", c.st.Data.Graph)
	}
	if last := f.sent[len(f.sent)-1]; last.Op != protocol.OpRegenerate || !strings.Contains(last.State, "data=local") {
		t.Errorf("then sent %+v", last)
	}
	if h := html(c); !strings.Contains(h, "Opened mine") || !strings.Contains(h, "a link to it opens without it") {
		t.Error("the page does not say what was opened, or that the link cannot carry it")
	}
	var late *fakeConn
	e := c.page.engine
	e.dial = func(ev EventFunc) Conn { late = &fakeConn{onEvent: ev}; return late }
	c.one().engine.Close()
	e.Open(func(protocol.Event, []float32) {})
	e.Open(func(protocol.Event, []float32) {})
	if late == nil || len(late.sent) == 0 || late.sent[0].Op != protocol.OpLoad {
		t.Errorf("a worker started later did not get the files first")
	}
}

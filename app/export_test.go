package app

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"io"
	"testing"
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
		files[x.ID] = x.Write(c)
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

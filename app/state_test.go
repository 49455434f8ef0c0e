package app

import (
	"strings"
	"testing"

	"pdnexplorer/experiment"
)

func TestHashRoundTrip(t *testing.T) {
	st := experiment.Default()
	st.Data.Q = 0.0625
	st.Model.Kind = "gcn"
	st.View.Threshold = 0.25
	got, err := experiment.Decode("#" + st.Encode())
	if err != nil || got.Encode() != st.Encode() {
		t.Errorf("round trip: %v, %q vs %q", err, got.Encode(), st.Encode())
	}
}

func TestParseHashReplacesBadValues(t *testing.T) {
	for _, tc := range []struct {
		hash string
		want []string
	}{
		{"#threshold=7", []string{"threshold", "[0, 1]"}},
		{"#threshold=x&classes=1", []string{"threshold", "classes", "[2, 6]"}},
		{"#%%%", []string{"not a valid link parameter"}},
		{"#model=gat9&lr=1e9", []string{"model", "lr"}},
	} {
		st, err := experiment.Decode(tc.hash)
		if err == nil {
			t.Errorf("%s: no error", tc.hash)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.hash, err, w)
			}
		}
		if verr := st.Validate(); verr != nil || st.View.Threshold < 0 || st.View.Threshold > 1 {
			t.Errorf("%s: the state is not usable: %v, threshold %v", tc.hash, verr, st.View.Threshold)
		}
	}
	if st, err := experiment.Decode(""); err != nil || st.Encode() != experiment.Default().Encode() {
		t.Errorf("empty hash: %v", err)
	}
}

// A link keeps the layout; links made before there were layouts open in
// the default one.
func TestLayoutInLink(t *testing.T) {
	st, err := experiment.Decode("#per-class=64&layout=input&threshold=0.3")
	if err != nil || st.View.Layout != "input" || st.View.Threshold != 0.3 {
		t.Fatalf("got layout %q, threshold %v, error %v", st.View.Layout, st.View.Threshold, err)
	}
	back, err := experiment.Decode(st.Encode())
	if err != nil || back.Encode() != st.Encode() {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	old, err := experiment.Decode("#per-class=64&threshold=0.3")
	if err != nil || old.View.Layout != "classes" {
		t.Errorf("an old link: layout %q, error %v", old.View.Layout, err)
	}
}

package app

import (
	"strings"
	"testing"
)

func TestHashRoundTrip(t *testing.T) {
	st := DefaultState()
	st.Exp.Data.Q = 0.0625
	st.Exp.Model.Kind = "gcn"
	st.Threshold = 0.25
	got, err := ParseHash("#" + st.Hash())
	if err != nil || got.Hash() != st.Hash() {
		t.Errorf("round trip: %v, %q vs %q", err, got.Hash(), st.Hash())
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
		st, err := ParseHash(tc.hash)
		if err == nil {
			t.Errorf("%s: no error", tc.hash)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.hash, err, w)
			}
		}
		if verr := st.Exp.Validate(); verr != nil || st.Threshold < 0 || st.Threshold > 1 {
			t.Errorf("%s: the state is not usable: %v, threshold %v", tc.hash, verr, st.Threshold)
		}
	}
	if st, err := ParseHash(""); err != nil || st.Hash() != DefaultState().Hash() {
		t.Errorf("empty hash: %v", err)
	}
}

// A link keeps the layout; links made before there were layouts open in
// the default one.
func TestLayoutInLink(t *testing.T) {
	st, err := ParseHash("#per-class=64&layout=input&threshold=0.3")
	if err != nil || st.Layout != "input" || st.Threshold != 0.3 {
		t.Fatalf("got layout %q, threshold %v, error %v", st.Layout, st.Threshold, err)
	}
	back, err := ParseHash(st.Hash())
	if err != nil || back.Hash() != st.Hash() {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	old, err := ParseHash("#per-class=64&threshold=0.3")
	if err != nil || old.Layout != "classes" {
		t.Errorf("an old link: layout %q, error %v", old.Layout, err)
	}
}

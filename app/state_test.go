package app

import (
	"math"
	"strconv"
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

// Every slider runs 0..steps by 1, steps at most 100, and maps onto its
// parameter's whole range: the ends onto the bounds, and each value it
// offers shown where it offers it.
func TestSliderScale(t *testing.T) {
	for _, p := range experiment.Params {
		kind := sliderKind(p)
		if kind == "" || p.Choices != nil || p.MaxLen > 0 || p.Form != "" {
			continue
		}
		sc := newSliderScale(p, kind == "log")
		for _, tc := range []struct {
			pos  int
			want float64
		}{{0, p.Min}, {sc.steps, p.Max}} {
			got, err := strconv.ParseFloat(sc.value(float64(tc.pos)), 64)
			if err != nil || math.Abs(got-tc.want) > 1e-3*math.Abs(tc.want) {
				t.Errorf("%s: position %d gives %v, want %v", p.Name, tc.pos, got, tc.want)
			}
		}
		if sc.steps < 1 || sc.steps > sliderSteps {
			t.Errorf("%s: %d steps", p.Name, sc.steps)
		}
		// A value a position gives is shown at a position that gives it again.
		for pos := 0; pos <= sc.steps; pos++ {
			text := sc.value(float64(pos))
			v, _ := strconv.ParseFloat(text, 64)
			if back := sc.value(float64(sc.position(v))); back != text {
				t.Errorf("%s: position %d gives %s, shown where it gives %s", p.Name, pos, text, back)
			}
		}
		if sc.position(math.NaN()) != 0 || sc.position(p.Max*10) != sc.steps || sc.position(p.Min-1) != 0 {
			t.Errorf("%s: out-of-range values leave the slider's ends", p.Name)
		}
	}
}

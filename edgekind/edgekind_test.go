package edgekind

import "testing"

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		k     Kind
		text  string
		words string
	}{
		{Intra, "intra", "intra-class"},
		{Inter, "inter", "inter-class"},
		{Unknown, "", "unknown"},
	} {
		if tc.k.String() != tc.text || tc.k.Words() != tc.words {
			t.Errorf("%d: %q, %q", tc.k, tc.k.String(), tc.k.Words())
		}
		if k, ok := Parse(tc.text); ok != (tc.k != Unknown) || k != tc.k {
			t.Errorf("Parse(%q) = %v, %v", tc.text, k, ok)
		}
	}
	if _, ok := Parse("Intra"); ok {
		t.Error("Parse is case-sensitive, as the format")
	}
}

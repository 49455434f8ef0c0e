package experiment

import (
	"strings"
	"testing"
)

// FuzzDecode reads any link. It must never panic; it always returns a
// valid experiment; what it reports fits in a notice; and the experiment
// it returns writes a link that reads back to itself without a complaint.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"", Default().Encode(), "classes=99&p=abc&bogus=1", "%", "a=%", "%ZZ=1", "lr=%E0%A4%A",
		"edge-hidden=0", "seed=9007199254740992", "lr=1e+2", "classes=4&classes=5", "model=" + strings.Repeat("x", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, query string) {
		e, err := Decode(query)
		if verr := e.Validate(); verr != nil {
			t.Fatalf("Decode(%q) returned an invalid experiment: %v", query, verr)
		}
		if err != nil {
			if lines := strings.Count(err.Error(), "\n") + 1; lines > MaxReported+1 {
				t.Fatalf("%d lines of problems", lines)
			}
			if len(err.Error()) > 4000 {
				t.Fatalf("problems of %d bytes", len(err.Error()))
			}
		}
		back, err := Decode(e.Encode())
		if err != nil || back.Encode() != e.Encode() {
			t.Fatalf("%q does not read back: %v", e.Encode(), err)
		}
		short, err := Decode(e.EncodeShort())
		if err != nil || short.Encode() != e.Encode() {
			t.Fatalf("the short link %q reads back as %q (%v), want %q", e.EncodeShort(), short.Encode(), err, e.Encode())
		}
	})
}

package app

import (
	"net/url"
	"strings"
	"testing"

	"pdnexplorer/experiment"
)

// FuzzLink opens any fragment as the page does: RepairURL, then go-app's
// url.Parse, then experiment.Decode. Nothing may panic or fail to parse, the state
// must be usable, and the notice must stay small.
func FuzzLink(f *testing.F) {
	for _, tc := range badLinks {
		f.Add(strings.TrimPrefix(tc.hash, "#"))
	}
	f.Add(experiment.Default().Encode())
	f.Fuzz(func(t *testing.T, frag string) {
		if strings.ContainsAny(frag, " #\"<>`\x00\r\n\t") {
			return // the browser percent-encodes these before any script sees them
		}
		href, _ := RepairURL("http://127.0.0.1:8080/pdn/#" + frag)
		u, err := url.Parse(href)
		if err != nil {
			t.Fatalf("%q does not parse after repair: %v", href, err)
		}
		st, err := experiment.Decode(u.EscapedFragment())
		if verr := st.Validate(); verr != nil || !(st.View.Threshold >= 0 && st.View.Threshold <= 1) {
			t.Fatalf("unusable state from %q: %v", frag, verr)
		}
		if err != nil && strings.Count(err.Error(), "\n") > experiment.MaxReported {
			t.Fatalf("%d lines of problems", strings.Count(err.Error(), "\n")+1)
		}
		if again, err := experiment.Decode(st.Encode()); err != nil || again.Encode() != st.Encode() {
			t.Fatalf("%q does not read back: %v", st.Encode(), err)
		}
	})
}

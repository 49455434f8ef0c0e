package experiment

import (
	"slices"
	"strings"
	"testing"
)

// A link's pairs this version cannot use stay in the address as given, in
// place of the rows they name, and the address reads back to the same
// state and the same unread pairs.
func TestLinkKeepsWhatThisVersionCannotUse(t *testing.T) {
	for _, tc := range []struct {
		name, link string
		unread     []string
	}{
		{"all read", "per-class=64", nil},
		{"a lab this version lacks", "lab=figure4&per-class=64", []string{"lab=figure4"}},
		{"a row this version lacks", "per-class=64&future-row=3", []string{"future-row=3"}},
		{"a model this version lacks", "lab=compare&models=pdn,newmodel", []string{"models=pdn,newmodel"}},
		{"a graph this version lacks", "data=ogbn-proteins&per-class=64", []string{"data=ogbn-proteins"}},
		{"a value this version knows is out of range is dropped", "per-class=100000", nil},
		{"a bins this version knows is out of range is dropped", "bins=99", nil},
		{"results are dropped", "lab=compare&results=5000", nil},
		{"a row given twice is read, not kept", "per-class=64&per-class=32", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, unread, _ := DecodeLink(tc.link)
			if !slices.Equal(unread, tc.unread) {
				t.Fatalf("unread %q, want %q", unread, tc.unread)
			}
			addr := e.EncodeKeeping(unread)
			for _, kv := range unread {
				k, _, _ := strings.Cut(kv, "=")
				if !strings.Contains("&"+addr+"&", "&"+kv+"&") || strings.Count("&"+addr, "&"+k+"=") != 1 {
					t.Errorf("the address %q does not hold %q once, in place of its row", addr, kv)
				}
			}
			again, unreadAgain, _ := DecodeLink(addr)
			if again.Encode() != e.Encode() || !slices.Equal(unreadAgain, unread) {
				t.Errorf("the address reads back as %q with %q unread, want %q with %q", again.Encode(), unreadAgain, e.Encode(), unread)
			}
			if len(unread) == 0 && addr != e.Encode() {
				t.Errorf("with nothing unread the address is %q, want the permalink %q", addr, e.Encode())
			}
		})
	}
}

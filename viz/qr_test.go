package viz

import (
	"fmt"
	"strings"
	"testing"
)

func TestQRDrawsTheLink(t *testing.T) {
	for _, tc := range []struct {
		name, link string
		ok         bool
	}{
		{"short", "https://example.org/pdn/#lab=graph", true},
		{"a whole state", "https://example.org/pdn/#" + strings.Repeat("threshold=0.5&", 40), true},
		{"too long", strings.Repeat("x", 5000), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := QR(tc.link, `a "link"`)
			if (err == nil) != tc.ok {
				t.Fatalf("err %v, want ok %v", err, tc.ok)
			}
			if !tc.ok {
				return
			}
			if !strings.HasPrefix(s, "<svg") || !strings.Contains(s, `aria-label="a &#34;link&#34;"`) || strings.Count(s, "h") < 20 {
				t.Errorf("not a QR figure: %.200s", s)
			}
			// The finder pattern's top row: seven dark modules inside the
			// four-module quiet zone, at the code's top left and top right.
			var side int
			fmt.Sscanf(s[strings.Index(s, `viewBox="0 0 `)+len(`viewBox="0 0 `):], "%d", &side)
			for _, finder := range []string{"M4 4h7v1h-7z", fmt.Sprintf("M%d 4h7v1h-7z", side-4-7)} {
				if !strings.Contains(s, finder) {
					t.Errorf("no finder pattern %s in a code of %d modules", finder, side)
				}
			}
		})
	}
}

package viz

import (
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
		})
	}
}

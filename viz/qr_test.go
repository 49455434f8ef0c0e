package viz

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"github.com/boombuler/barcode/qr"
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

// Audit cases 137 and 138: the code drawn is the encoder's, module for
// module, for short links and for the longest states the audit shared (a
// sweep's 280 results, 100 edits), so a phone's reader gets the link: the
// path is read back into modules and compared with qr.Encode's.
func TestQRDrawsEveryModule(t *testing.T) {
	var edits []string
	for i := range 100 {
		edits = append(edits, fmt.Sprintf("a%d-%d", i, 700+i))
	}
	for _, link := range []string{
		"http://127.0.0.1:18431/#lab=graph&seed=3&model=gcn",
		"http://127.0.0.1:18431/#lab=sweep&scenario=2&reps=10&models=pdn,gat,deepwalk,clustergcn&results=" + strings.TrimSuffix(strings.Repeat("8123.", 280), "."),
		"http://127.0.0.1:18431/#lab=graph&edits=" + strings.Join(edits, "_"),
	} {
		s, err := QR(link, "QR")
		if err != nil {
			t.Fatalf("%d characters: %v", len(link), err)
		}
		code, err := qr.Encode(link, qr.M, qr.Auto)
		if err != nil {
			t.Fatal(err)
		}
		if code.Content() != link {
			t.Fatalf("the encoder holds %q", code.Content())
		}
		side := code.Bounds().Dx()
		drawn := make([]bool, side*side)
		path := s[strings.Index(s, `<path d="`)+len(`<path d="`):]
		path = path[:strings.Index(path, `"`)]
		for _, cmd := range strings.Split(strings.TrimSuffix(path, "z"), "z") {
			var x, y, run, back int
			if _, err := fmt.Sscanf(cmd, "M%d %dh%dv1h-%d", &x, &y, &run, &back); err != nil || run != back {
				t.Fatalf("a path command %q: %v", cmd, err)
			}
			for k := range run {
				drawn[(y-4)*side+x-4+k] = true
			}
		}
		for y := range side {
			for x := range side {
				if dark := code.At(x, y) == color.Black; dark != drawn[y*side+x] {
					t.Fatalf("%d characters: module (%d, %d) drawn %v, encoded %v", len(link), x, y, drawn[y*side+x], dark)
				}
			}
		}
	}
}

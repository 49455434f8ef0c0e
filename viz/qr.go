package viz

import (
	"bytes"
	"fmt"
	"html"
	"image/color"
	"strings"

	svg "github.com/ajstarks/svgo"
	"github.com/boombuler/barcode/qr"

	"pdnexplorer/i18n/phrase"
)

// QR draws link as a QR code in SVG: dark modules on white, with the
// four-module quiet zone a reader needs, one path of unit squares so that
// it scales to any size crisply (a classroom's projector, a printed
// page). The code itself is boombuler/barcode's, at medium error
// correction (15% of the code may be lost: a glare on a screen); title is
// what a screen reader says of it. A link too long for a QR code is an
// error. (boombuler/barcode rather than skip2/go-qrcode: the latter
// brings image/png and zlib into the page's program, 92 kB of brotli for
// a PNG writer the page never calls.)
func QR(link, title string) (string, error) {
	code, err := qr.Encode(link, qr.M, qr.Auto)
	if err != nil {
		return "", phrase.Errorf("a link of %d characters is too long for a QR code: %w", len(link), err)
	}
	const quiet = 4
	side := code.Bounds().Dx()
	n := side + 2*quiet
	var path strings.Builder
	dark := func(x, y int) bool { return code.At(x, y) == color.Black }
	for y := range side {
		for x := 0; x < side; x++ {
			if !dark(x, y) {
				continue
			}
			run := 1 // a row's dark run is one rectangle: a fifth of the path
			for x+run < side && dark(x+run, y) {
				run++
			}
			fmt.Fprintf(&path, "M%d %dh%dv1h-%dz", x+quiet, y+quiet, run, run)
			x += run - 1
		}
	}
	var b bytes.Buffer
	s := svg.New(&b)
	s.Startraw(fmt.Sprintf(`viewBox="0 0 %d %d"`, n, n), `class="qr"`, `role="img"`, `aria-label="`+html.EscapeString(title)+`"`, `shape-rendering="crispEdges"`)
	s.Rect(0, 0, n, n, `fill="#ffffff"`)
	s.Path(path.String(), `fill="#000000"`)
	s.End()
	out := b.String()
	return out[strings.Index(out, "<svg"):], nil
}

package viz

import (
	"bytes"
	"fmt"
	"html"
	"strings"

	svg "github.com/ajstarks/svgo"
	qrcode "github.com/skip2/go-qrcode"
)

// QR draws link as a QR code in SVG: dark modules on white, with the
// four-module quiet zone a reader needs, one path of unit squares so that
// it scales to any size crisply (a classroom's projector, a printed
// page). The code itself is skip2/go-qrcode's, at its medium error
// correction (15% of the code may be lost: a glare on a screen); title is
// what a screen reader says of it. A link too long for a QR code is an
// error.
func QR(link, title string) (string, error) {
	q, err := qrcode.New(link, qrcode.Medium)
	if err != nil {
		return "", fmt.Errorf("a QR code of %d characters: %w", len(link), err)
	}
	q.DisableBorder = true
	bits := q.Bitmap()
	const quiet = 4
	n := len(bits) + 2*quiet
	var path strings.Builder
	for y, row := range bits {
		for x := 0; x < len(row); x++ {
			if !row[x] {
				continue
			}
			run := 1 // a row's dark run is one rectangle: a fifth of the path
			for x+run < len(row) && row[x+run] {
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

package site

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"

	"pdnexplorer/internal/outdir"
)

// writeIcon draws the app icon at size×size: three nodes in the class
// colours, two solid intra-class edges and one faded inter-class edge, on a
// rounded tile. It is drawn at build time so no binary is committed.
func writeIcon(tree *outdir.Tree, name string, size int) error {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	s := float64(size)
	type pt struct{ x, y float64 }
	nodes := []pt{{0.28 * s, 0.30 * s}, {0.72 * s, 0.34 * s}, {0.48 * s, 0.74 * s}}
	colors := []color.NRGBA{{0x00, 0x72, 0xB2, 255}, {0xE6, 0x9F, 0x00, 255}, {0x00, 0x9E, 0x73, 255}}
	bg := color.NRGBA{0x1d, 0x35, 0x57, 255}
	edges := []struct {
		a, b  int
		c     color.NRGBA
		width float64
	}{{0, 2, color.NRGBA{255, 255, 255, 255}, 0.045}, {1, 2, color.NRGBA{255, 255, 255, 255}, 0.045}, {0, 1, color.NRGBA{0xD5, 0x5E, 0x00, 110}, 0.02}}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			px, py := float64(x)+0.5, float64(y)+0.5
			if !inRoundedSquare(px, py, s, 0.18*s) {
				continue
			}
			c := bg
			for _, e := range edges {
				if segDist(px, py, nodes[e.a].x, nodes[e.a].y, nodes[e.b].x, nodes[e.b].y) < e.width*s/2 {
					c = blend(c, e.c)
				}
			}
			for i, n := range nodes {
				if math.Hypot(px-n.x, py-n.y) < 0.1*s {
					c = colors[i]
				}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return err
	}
	return tree.WriteFile(name, b.Bytes(), 0o644)
}

func inRoundedSquare(x, y, s, r float64) bool {
	cx, cy := math.Max(r, math.Min(s-r, x)), math.Max(r, math.Min(s-r, y))
	return math.Hypot(x-cx, y-cy) <= r
}

func segDist(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	t := math.Max(0, math.Min(1, ((px-ax)*dx+(py-ay)*dy)/(dx*dx+dy*dy)))
	return math.Hypot(px-(ax+t*dx), py-(ay+t*dy))
}

func blend(dst, src color.NRGBA) color.NRGBA {
	a := float64(src.A) / 255
	mix := func(d, s uint8) uint8 { return uint8(float64(d)*(1-a) + float64(s)*a) }
	return color.NRGBA{mix(dst.R, src.R), mix(dst.G, src.G), mix(dst.B, src.B), 255}
}

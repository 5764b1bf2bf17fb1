package experiments

import (
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure is a grid of plots drawn side by side, written as PNG or SVG.
type Figure struct {
	// Panels holds the plots, row-major; a nil entry leaves a tile empty.
	Panels [][]*plot.Plot
	// Width and Height are the size of the whole figure.
	Width, Height vg.Length
}

// dpi is the resolution of the PNG files.
const dpi = 96

func (f *Figure) draw(c draw.Canvas) {
	rows := len(f.Panels)
	cols := 0
	for _, r := range f.Panels {
		cols = max(cols, len(r))
	}
	tiles := draw.Tiles{
		Rows: rows, Cols: cols,
		PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2,
		PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2,
	}
	canvases := plot.Align(f.Panels, tiles, c)
	for i, r := range f.Panels {
		for j, p := range r {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
}

// WritePNG writes the figure as a PNG image at 96 dpi. The output depends
// only on the figure.
func (f *Figure) WritePNG(w io.Writer) error {
	c := vgimg.NewWith(vgimg.UseWH(f.Width, f.Height), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
	f.draw(draw.New(c))
	_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
	return err
}

// WriteSVG writes the figure as an SVG document (fonts referenced by name,
// not embedded). The output depends only on the figure.
func (f *Figure) WriteSVG(w io.Writer) error {
	c := vgsvg.New(f.Width, f.Height)
	f.draw(draw.New(c))
	_, err := c.WriteTo(w)
	return err
}

// palette holds well distinguishable colours (Okabe-Ito).
var palette = []color.RGBA{
	{R: 0xd5, G: 0x5e, B: 0x00, A: 0xff}, // vermillion
	{R: 0x00, G: 0x72, B: 0xb2, A: 0xff}, // blue
	{R: 0x00, G: 0x9e, B: 0x73, A: 0xff}, // bluish green
	{R: 0xcc, G: 0x79, B: 0xa7, A: 0xff}, // reddish purple
	{R: 0xe6, G: 0x9f, B: 0x00, A: 0xff}, // orange
	{R: 0x56, G: 0xb4, B: 0xe9, A: 0xff}, // sky blue
}

// colLA and colDA are the colours of the LA and DA models in every figure:
// red and green, as in the paper's figure of labels per object.
var (
	colLA = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	colDA = color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}
)

// newPlot returns a plot with a title, axis labels, a grid and the legend
// in the top left corner.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.ThumbnailWidth = vg.Millimeter * 6
	p.Add(plotter.NewGrid())
	return p
}

// addLine adds a line with point markers through xys, in colour c and with
// glyph shape sh, to p and its legend (if name is not empty).
func addLine(p *plot.Plot, name string, xys plotter.XYs, c color.Color, sh draw.GlyphDrawer, dashed bool) error {
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	l.Color = c
	l.Width = vg.Points(1.5)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	s.Color = c
	s.Shape = sh
	s.Radius = vg.Points(2.5)
	p.Add(l, s)
	if name != "" {
		p.Legend.Add(name, l, s)
	}
	return nil
}

// addCurve adds a line without markers.
func addCurve(p *plot.Plot, name string, xys plotter.XYs, c color.Color, width vg.Length, dashes []vg.Length) error {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return err
	}
	l.Color = c
	l.Width = width
	l.Dashes = dashes
	p.Add(l)
	if name != "" {
		p.Legend.Add(name, l)
	}
	return nil
}

// addDiagonal adds the line y = x over [0, 1].
func addDiagonal(p *plot.Plot, name string) error {
	return addCurve(p, name, plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}}, color.Black, vg.Points(1), []vg.Length{vg.Points(4), vg.Points(3)})
}

// unitAxes fixes both axes of p to [0, 1].
func unitAxes(p *plot.Plot) {
	p.X.Min, p.X.Max = 0, 1
	p.Y.Min, p.Y.Max = 0, 1
}

// faded returns c with 35% opacity (premultiplied), for dense scatters.
func faded(c color.RGBA) color.RGBA {
	const a = 0.35
	f := func(v uint8) uint8 { return uint8(math.Round(float64(v) * a)) }
	return color.RGBA{R: f(c.R), G: f(c.G), B: f(c.B), A: f(255)}
}

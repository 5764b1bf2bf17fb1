package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/consensuslab/consensus/metrics"
)

// Colours of the report, shared by the CSS and the plots.
var (
	inkColor    = color.RGBA{0x33, 0x3b, 0x47, 0xff}
	accentColor = color.RGBA{0x2f, 0x6f, 0xb5, 0xff}
	gridColor   = color.RGBA{0xe3, 0xe7, 0xee, 0xff}
	// palette colours classes and models.
	palette = []color.RGBA{
		{0x2f, 0x6f, 0xb5, 0xff}, {0xe0, 0x7b, 0x39, 0xff}, {0x3a, 0x9d, 0x5d, 0xff},
		{0xc4, 0x4e, 0x52, 0xff}, {0x82, 0x6d, 0xb5, 0xff}, {0x9c, 0x7a, 0x4f, 0xff},
		{0xd4, 0x6f, 0xaf, 0xff}, {0x7f, 0x7f, 0x7f, 0xff}, {0xb5, 0xb0, 0x2f, 0xff},
		{0x2f, 0xae, 0xb5, 0xff},
	}
)

// colorOf returns the palette colour i, cycling.
func colorOf(i int) color.RGBA { return palette[i%len(palette)] }

// cssColor formats a colour for CSS.
func cssColor(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// newPlot returns a plot styled for the report: sans-serif text, light
// grid, no top or right clutter.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	for _, s := range []*plot.Axis{&p.X, &p.Y} {
		s.Label.TextStyle.Font.Variant = "Sans"
		s.Label.TextStyle.Font.Size = 11
		s.Label.TextStyle.Color = inkColor
		s.Tick.Label.Font.Variant = "Sans"
		s.Tick.Label.Font.Size = 9
		s.Tick.Label.Color = inkColor
		s.Color = inkColor
		s.Tick.Color = inkColor
	}
	p.Title.TextStyle.Font.Variant = "Sans"
	p.Title.TextStyle.Font.Size = 12
	p.Title.TextStyle.Color = inkColor
	p.Legend.TextStyle.Font.Variant = "Sans"
	p.Legend.TextStyle.Font.Size = 9
	p.Legend.TextStyle.Color = inkColor
	g := plotter.NewGrid()
	g.Vertical.Color = gridColor
	g.Horizontal.Color = gridColor
	g.Vertical.Width = vg.Points(0.5)
	g.Horizontal.Width = vg.Points(0.5)
	p.Add(g)
	return p
}

// svgURI renders p as an SVG data URI of the given size in points.
func svgURI(p *plot.Plot, w, h vg.Length) (string, error) {
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return "", err
	}
	// Let viewers without the Liberation fonts fall back to look-alikes
	// (Liberation Sans has the metrics of Arial).
	s := strings.ReplaceAll(b.String(), "font-family:Liberation Sans;", "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")
	return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(s)), nil
}

// barPlot draws a bar chart of values with one nominal label per bar.
func barPlot(title, x, y string, labels []string, values []float64) (string, error) {
	p := newPlot(title, x, y)
	bars, err := plotter.NewBarChart(plotter.Values(values), vg.Points(max(4, 320/float64(len(values)+1))))
	if err != nil {
		return "", err
	}
	bars.Color = accentColor
	bars.LineStyle.Width = 0
	p.Add(bars)
	p.NominalX(labels...)
	if len(labels) > 16 {
		// Keep every few tick labels so they do not overlap.
		step := (len(labels) + 11) / 12
		ticks := make([]plot.Tick, len(labels))
		for i, l := range labels {
			ticks[i].Value = float64(i)
			if i%step == 0 {
				ticks[i].Label = l
			}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
	}
	p.Y.Min = 0
	return svgURI(p, 6*vg.Inch, 3*vg.Inch)
}

// countHistogram returns bar labels and heights for a histogram of
// non-negative integer counts: one bar per value when they span few values,
// otherwise bins whose edges grow geometrically (1, 2–4, 5–9, 10–19, 20–49,
// …), labelled by their lower edge (1, 2, 5, 10, 20, …); binned says which.
func countHistogram(counts []int) (labels []string, heights []float64, binned bool) {
	if len(counts) == 0 {
		return nil, nil, false
	}
	lo, hi := counts[0], counts[0]
	for _, c := range counts {
		lo, hi = min(lo, c), max(hi, c)
	}
	if hi-lo <= 40 {
		heights = make([]float64, hi-lo+1)
		for _, c := range counts {
			heights[c-lo]++
		}
		for v := lo; v <= hi; v++ {
			labels = append(labels, fmt.Sprint(v))
		}
		return labels, heights, false
	}
	// Edges 1, 2, 5, 10, 20, 50, ...: bins 1, 2–4, 5–9, 10–19, 20–49, ...
	edges := []int{0, 1}
	for m := 1; edges[len(edges)-1] <= hi; m *= 10 {
		edges = append(edges, 2*m, 5*m, 10*m)
	}
	first, last := -1, 0
	heights = make([]float64, len(edges))
	for _, c := range counts {
		b := 0
		for b+1 < len(edges) && edges[b+1] <= c {
			b++
		}
		heights[b]++
	}
	for b := range heights {
		if heights[b] > 0 {
			if first < 0 {
				first = b
			}
			last = b
		}
	}
	for b := first; b <= last; b++ {
		labels = append(labels, short(edges[b]))
	}
	return labels, heights[first : last+1], true
}

// short formats a count compactly: 950, 1k, 20k, 1.5M.
func short(n int) string {
	switch {
	case n >= 1_000_000 && n%100_000 == 0:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1e6), ".0") + "M"
	case n >= 1000 && n%100 == 0:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1e3), ".0") + "k"
	}
	return fmt.Sprint(n)
}

// histPlot draws a histogram of continuous values.
func histPlot(title, x string, values []float64) (string, error) {
	p := newPlot(title, x, "workers")
	bins := min(30, max(5, int(math.Sqrt(float64(len(values))))*2))
	h, err := plotter.NewHist(plotter.Values(values), bins)
	if err != nil {
		return "", err
	}
	h.FillColor = accentColor
	h.LineStyle.Color = color.White
	h.LineStyle.Width = vg.Points(0.5)
	p.Add(h)
	p.Y.Min = 0
	return svgURI(p, 4.6*vg.Inch, 2.8*vg.Inch)
}

// curve is one model's reliability diagram.
type curve struct {
	name string
	bins []metrics.Bin
}

// reliabilityPlot draws reliability diagrams: mean top-class confidence
// against accuracy per bin, with the diagonal of perfect calibration.
func reliabilityPlot(curves []curve) (string, error) {
	p := newPlot("Reliability on the gold tasks", "confidence of the top class (bin mean)", "accuracy in the bin")
	diag := plotter.NewFunction(func(x float64) float64 { return x })
	diag.Color = color.RGBA{0xaa, 0xaa, 0xaa, 0xff}
	diag.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(diag)
	lo := 1.0
	for i, c := range curves {
		pts := make(plotter.XYs, len(c.bins))
		for b, bin := range c.bins {
			pts[b] = plotter.XY{X: bin.X, Y: bin.Y}
			lo = min(lo, bin.X, bin.Y)
		}
		if len(pts) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return "", err
		}
		l.Color = colorOf(i)
		l.Width = vg.Points(1.5)
		s.Color = colorOf(i)
		s.Shape = draw.CircleGlyph{}
		s.Radius = vg.Points(2.5)
		p.Add(l, s)
		p.Legend.Add(c.name, l, s)
	}
	p.Legend.Top = false
	p.Legend.Left = false
	p.Legend.XOffs = -vg.Points(6)
	p.Legend.YOffs = vg.Points(6)
	lo = math.Floor(lo*10) / 10
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, 1, lo, 1
	return svgURI(p, 4.6*vg.Inch, 4.2*vg.Inch)
}

// scatterPlot draws y against x for every object, with the diagonal.
func scatterPlot(title, x, y string, xs, ys []float64) (string, error) {
	p := newPlot(title, x, y)
	diag := plotter.NewFunction(func(x float64) float64 { return x })
	diag.Color = color.RGBA{0xaa, 0xaa, 0xaa, 0xff}
	diag.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(diag)
	pts := make(plotter.XYs, len(xs))
	for i := range xs {
		pts[i] = plotter.XY{X: xs[i], Y: ys[i]}
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return "", err
	}
	s.Color = color.NRGBA{0x2f, 0x6f, 0xb5, 0x70}
	s.Shape = draw.CircleGlyph{}
	s.Radius = vg.Points(1.6)
	p.Add(s)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	return svgURI(p, 4.6*vg.Inch, 4.2*vg.Inch)
}

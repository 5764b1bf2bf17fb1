package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
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
		sans(&s.Label.TextStyle, 11)
		sans(&s.Tick.Label, 9)
		s.Color = inkColor
		s.Tick.Color = inkColor
	}
	sans(&p.Title.TextStyle, 12)
	sans(&p.Legend.TextStyle, 9)
	g := plotter.NewGrid()
	g.Vertical.Color = gridColor
	g.Horizontal.Color = gridColor
	g.Vertical.Width = vg.Points(0.5)
	g.Horizontal.Width = vg.Points(0.5)
	p.Add(g)
	return p
}

// sans sets a text style to the report's sans-serif font of the given
// size in points, in the ink colour.
func sans(s *text.Style, size vg.Length) {
	s.Font.Variant = "Sans"
	s.Font.Size = size
	s.Color = inkColor
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

// histPlot draws a histogram of continuous values, counted in units y
// (such as "workers").
func histPlot(title, x, y string, values []float64) (string, error) {
	p := newPlot(title, x, y)
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

// relBin is one bin of a reliability panel: n gold tasks whose mean
// top-class confidence is conf, of which a share acc have the right top
// class; [lo, hi] is the 95% Wilson interval of acc.
type relBin struct {
	conf, acc, lo, hi float64
	n                 int
}

// equalCountBins sorts the gold tasks by the confidence of their top class
// and cuts them into at most bins groups of nearly equal size, keeping
// tasks of equal confidence in one group (so a model that gives many tasks
// the same confidence has fewer, larger bins). Adjacent bins whose mean
// confidences differ by less than mergeGap are merged, since they would
// be drawn on top of each other. correct[i] says whether the top class of
// task i is right.
func equalCountBins(conf []float64, correct []bool, bins int) []relBin {
	n := len(conf)
	if n == 0 || bins < 1 {
		return nil
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return conf[idx[a]] < conf[idx[b]] })
	var out []relBin
	start := 0
	for b := 1; b <= bins && start < n; b++ {
		end := b * n / bins
		for end < n && end > start && conf[idx[end]] == conf[idx[end-1]] {
			end++ // keep ties together
		}
		if end <= start {
			continue
		}
		var sc, right float64
		for _, i := range idx[start:end] {
			sc += conf[i]
			if correct[i] {
				right++
			}
		}
		m := float64(end - start)
		if last := len(out) - 1; last >= 0 && sc/m-out[last].conf < mergeGap {
			// Bins this close draw as one point: merge them.
			sc += out[last].conf * float64(out[last].n)
			right += out[last].acc * float64(out[last].n)
			m += float64(out[last].n)
			out = out[:last]
		}
		lo, hi := wilson(right, m)
		out = append(out, relBin{conf: sc / m, acc: right / m, lo: lo, hi: hi, n: int(m)})
		start = end
	}
	return out
}

// mergeGap is the difference of mean confidence below which two adjacent
// bins of a reliability panel are merged.
const mergeGap = 0.02

// wilson returns the 95% Wilson score interval of a proportion of k
// successes in n trials.
func wilson(k, n float64) (lo, hi float64) {
	const z = 1.959963984540054
	p := k / n
	d := 1 + z*z/n
	c := (p + z*z/(2*n)) / d
	h := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / d
	return max(0, c-h), min(1, c+h)
}

// panel is one model's reliability diagram.
type panel struct {
	title string
	bins  []relBin
	color color.RGBA
}

// reliabilityBins returns the number of equal-count bins for n gold tasks:
// about 25 tasks a bin, at least 1 and at most 10.
func reliabilityBins(n int) int { return max(1, min(10, n/25)) }

// reliabilityPanels draws one small reliability diagram per model, all on
// the same axes: the bins' accuracy against their mean confidence, marker
// area proportional to the bin's tasks (and the count written by it), the
// band of the bins' 95% Wilson intervals and the diagonal of perfect
// calibration.
func reliabilityPanels(panels []panel) ([]string, error) {
	lo, most := 1.0, 1
	for _, p := range panels {
		for _, b := range p.bins {
			lo = min(lo, b.conf, b.acc)
			most = max(most, b.n)
		}
	}
	lo = math.Max(0, math.Floor(lo*10)/10)
	uris := make([]string, len(panels))
	for i, pn := range panels {
		p := newPlot(pn.title, "confidence", "accuracy")
		p.Title.TextStyle.Font.Size = 11
		p.X.Label.TextStyle.Font.Size = 9
		p.Y.Label.TextStyle.Font.Size = 9
		diag := plotter.NewFunction(func(x float64) float64 { return x })
		diag.Color = color.RGBA{0xaa, 0xaa, 0xaa, 0xff}
		diag.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
		p.Add(diag)
		n := len(pn.bins)
		if n > 0 {
			band := make(plotter.XYs, 0, 2*n)
			for _, b := range pn.bins {
				band = append(band, plotter.XY{X: b.conf, Y: math.Max(b.lo, lo)}) // the band stays in the plot
			}
			for b := n - 1; b >= 0; b-- {
				band = append(band, plotter.XY{X: pn.bins[b].conf, Y: pn.bins[b].hi})
			}
			if n == 1 { // a band needs width: draw the interval as a bar
				c := pn.bins[0].conf
				l, h := math.Max(pn.bins[0].lo, lo), pn.bins[0].hi
				band = plotter.XYs{{X: c - 0.005, Y: l}, {X: c + 0.005, Y: l}, {X: c + 0.005, Y: h}, {X: c - 0.005, Y: h}}
			}
			poly, err := plotter.NewPolygon(band)
			if err != nil {
				return nil, err
			}
			poly.Color = color.NRGBA{pn.color.R, pn.color.G, pn.color.B, 0x38}
			poly.LineStyle.Width = 0
			p.Add(poly)
			pts := make(plotter.XYs, n)
			labels := make([]string, n)
			for b, bin := range pn.bins {
				pts[b] = plotter.XY{X: bin.conf, Y: bin.acc}
				labels[b] = fmt.Sprint(bin.n)
			}
			line, err := plotter.NewLine(pts)
			if err != nil {
				return nil, err
			}
			line.Color = pn.color
			line.Width = vg.Points(1.2)
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, err
			}
			sc.GlyphStyleFunc = func(b int) draw.GlyphStyle {
				r := 1.5 + 4*math.Sqrt(float64(pn.bins[b].n)/float64(most))
				return draw.GlyphStyle{Color: pn.color, Shape: draw.CircleGlyph{}, Radius: vg.Points(r)}
			}
			lb, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: labels})
			if err != nil {
				return nil, err
			}
			for t := range lb.TextStyle {
				lb.TextStyle[t].Font.Variant = "Sans"
				lb.TextStyle[t].Font.Size = 7
				lb.TextStyle[t].Color = inkColor
				lb.TextStyle[t].XAlign = draw.XRight
			}
			lb.Offset = vg.Point{X: -vg.Points(4), Y: vg.Points(3)}
			p.Add(line, sc, lb)
		}
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, 1, lo, 1
		uri, err := svgURI(p, 2.6*vg.Inch, 2.6*vg.Inch)
		if err != nil {
			return nil, err
		}
		uris[i] = uri
	}
	return uris, nil
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

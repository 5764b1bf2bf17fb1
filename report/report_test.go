package report

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/sim"
)

// smallData simulates a small data set with gold labels (the true classes
// of a third of the tasks).
func smallData(t *testing.T) (*data.Dataset, *data.Gold) {
	t.Helper()
	d, truth, err := sim.Simulate(sim.Settings{Tasks: 120, Workers: 8, LabelsPerTask: 5, Classes: 3, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	g := &data.Gold{}
	top := model.Argmax(truth.Q, 3, 1)
	for j := 0; j < d.NumTasks(); j += 3 {
		g.Task = append(g.Task, int32(j))
		g.Label = append(g.Label, uint16(top[j]))
	}
	d.Tasks[0] = `<script>alert("x")</script>`
	return d, g
}

func render(t *testing.T, d *data.Dataset, g *data.Gold, opt *Settings) string {
	t.Helper()
	if opt == nil {
		opt = &Settings{}
	}
	opt.Fit = &model.Settings{MaxIterations: 60, Threads: 1}
	opt.BootstrapReps = 20
	rep, err := New(context.Background(), d, g, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// checkStructure parses the page as XML-ish HTML (the template writes
// balanced tags) and checks that it fetches nothing from the network.
func checkStructure(t *testing.T, page string) {
	t.Helper()
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.HasSuffix(strings.TrimSpace(page), "</html>") {
		t.Error("not an HTML document")
	}
	dec := xml.NewDecoder(strings.NewReader(strings.TrimPrefix(page, "<!DOCTYPE html>")))
	dec.Strict = false
	dec.AutoClose = xml.HTMLAutoClose
	dec.Entity = xml.HTMLEntity
	var stack []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("malformed HTML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			stack = append(stack, e.Name.Local)
			for _, a := range e.Attr {
				switch a.Name.Local {
				case "src", "href", "srcset", "action", "poster", "data":
					if regexp.MustCompile(`(?i)^\s*(https?:)?//`).MatchString(a.Value) {
						t.Errorf("<%s %s=%q> fetches from the network", e.Name.Local, a.Name.Local, a.Value)
					}
					if e.Name.Local == "img" && !strings.HasPrefix(a.Value, "data:image/svg+xml;base64,") {
						t.Errorf("image %.40q is not an inline SVG", a.Value)
					}
				}
			}
		case xml.EndElement:
			if len(stack) == 0 || stack[len(stack)-1] != e.Name.Local {
				t.Fatalf("unbalanced </%s> (open: %v)", e.Name.Local, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		t.Errorf("unclosed elements %v", stack)
	}
	for _, bad := range []string{"@import", "url(http", "<link", "<script"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
}

func TestReport(t *testing.T) {
	d, g := smallData(t)
	for _, tc := range []struct {
		name     string
		gold     *data.Gold
		opt      *Settings
		sections []string
		absent   []string
	}{
		{"with gold", g, nil,
			[]string{`id="data"`, `id="models"`, `id="calibration"`, `id="workers"`, `id="ambiguous"`, `id="disagreement"`,
				"labels each task received", "accuracy", "log loss", "ECE", "la-glad", "da-ds", "Reliability diagram", "worker skill under la-ds", "worker skill under da-ds", "entropy", "distance", "add-one",
				`id="next"`, "Flagged workers", "Savings on the gold tasks"},
			nil},
		{"without gold", nil, &Settings{Models: []string{"mv", "la-glad"}, Noise: "glad", Top: 4, Title: "T & T"},
			[]string{`id="data"`, `id="models"`, `id="workers"`, `id="ambiguous"`, `id="disagreement"`, "<h1>T &amp; T</h1>", "No gold labels", "da-glad q_j", "worker skill under la-glad", "What to label next"},
			[]string{`id="calibration"`, "Brier", "worker skill under la-ds", "Savings on the gold tasks"}},
		{"given scores", g, &Settings{Scores: []Score{{Model: "from-compare", Summary: "precomputed"}}},
			[]string{"from-compare", "precomputed", "worker skill under da-ds"},
			[]string{">rfe<", "la-glad"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := render(t, d, tc.gold, tc.opt)
			checkStructure(t, page)
			for _, s := range tc.sections {
				if !strings.Contains(page, s) {
					t.Errorf("page lacks %q", s)
				}
			}
			for _, s := range tc.absent {
				if strings.Contains(page, s) {
					t.Errorf("page has %q", s)
				}
			}
			if strings.Contains(page, "<script>alert") {
				t.Error("a task identifier was not escaped")
			}
			if tc.opt != nil && tc.opt.Top == 4 {
				if n := strings.Count(page, `<td class="task">`); n != 8 {
					t.Errorf("%d task rows, want 2×4", n)
				}
			}
		})
	}
	if _, err := New(context.Background(), d, g, &Settings{Models: []string{"nope"}}); err == nil || !errors.Is(err, model.ErrUnknownModel) {
		t.Errorf("unknown model: error %v", err)
	}
}

func TestCountHistogram(t *testing.T) {
	for _, tc := range []struct {
		in      []int
		labels  string
		heights []float64
	}{
		{[]int{3, 5, 5}, "3 4 5", []float64{1, 0, 2}},
		{[]int{1, 2, 4, 7, 120, 1000}, "1 2 5 10 20 50 100 200 500 1k", []float64{1, 2, 1, 0, 0, 0, 1, 0, 0, 1}},
	} {
		l, h, _ := countHistogram(tc.in)
		if strings.Join(l, " ") != tc.labels || len(h) != len(tc.heights) {
			t.Errorf("%v: labels %q heights %v", tc.in, l, h)
			continue
		}
		for i := range h {
			if h[i] != tc.heights[i] {
				t.Errorf("%v: heights %v, want %v", tc.in, h, tc.heights)
				break
			}
		}
	}
}

// TestChromium renders a report in headless Chromium, if installed, and
// checks that it produces a screenshot.
func TestChromium(t *testing.T) {
	bin := ""
	for _, b := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(b); err == nil {
			bin = p
			break
		}
	}
	if bin == "" || testing.Short() {
		t.Skip("no Chromium installed (or -short)")
	}
	d, g := smallData(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, []byte(render(t, d, g, nil)), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--screenshot="+shot, "--window-size=1280,1600",
		"file://"+page)
	done := make(chan error, 1)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("chromium: %v\n%s", err, out.String())
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("chromium did not finish in 60 s")
	}
	fi, err := os.Stat(shot)
	if err != nil || fi.Size() < 10000 {
		t.Fatalf("no screenshot (%v)\n%s", err, out.String())
	}
}

func TestWilson(t *testing.T) {
	for _, tc := range []struct{ k, n, lo, hi float64 }{
		{5, 10, 0.23659, 0.76341},
		{0, 10, 0, 0.27754},
		{10, 10, 0.72246, 1},
		{81, 100, 0.72221, 0.87485},
	} {
		lo, hi := wilson(tc.k, tc.n)
		if math.Abs(lo-tc.lo) > 1e-5 || math.Abs(hi-tc.hi) > 1e-5 {
			t.Errorf("wilson(%g, %g) = %.5f, %.5f, want %.5f, %.5f", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

func TestEqualCountBins(t *testing.T) {
	for _, tc := range []struct {
		name    string
		conf    []float64
		correct []bool
		bins    int
		n       []int
		acc     []float64
	}{
		{"even", []float64{0.9, 0.5, 0.6, 0.8}, []bool{true, false, true, true}, 2, []int{2, 2}, []float64{0.5, 1}},
		{"ties stay together", []float64{0.5, 0.7, 0.7, 0.7, 0.9, 0.95}, []bool{false, true, false, true, true, true}, 3, []int{4, 2}, []float64{0.5, 1}},
		{"close bins merge", []float64{0.5, 0.6, 0.99, 0.995, 1, 1}, []bool{false, true, true, true, false, true}, 3, []int{2, 4}, []float64{0.5, 0.75}},
		{"one bin", []float64{0.3, 0.8}, []bool{true, false}, 1, []int{2}, []float64{0.5}},
		{"no tasks", nil, nil, 4, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := equalCountBins(tc.conf, tc.correct, tc.bins)
			if len(got) != len(tc.n) {
				t.Fatalf("%d bins %+v, want %d", len(got), got, len(tc.n))
			}
			prev := -1.0
			for b, bin := range got {
				if bin.n != tc.n[b] || math.Abs(bin.acc-tc.acc[b]) > 1e-12 || bin.conf <= prev || bin.lo > bin.acc || bin.hi < bin.acc {
					t.Errorf("bin %d = %+v, want %d tasks, accuracy %g", b, bin, tc.n[b], tc.acc[b])
				}
				prev = bin.conf
			}
		})
	}
}

// TestRecommendation checks that the report recommends compare.Auto's
// choice (the model of consensus fit --model auto), fitting it beside the
// models asked for when they do not include it, highlights it, orders the
// rows as package compare ranks them, and draws one reliability panel per
// model; that without gold the recommendation is the same and the table
// shows the held-out log loss the ranking is by; and that
// NoRecommendation leaves both out.
func TestRecommendation(t *testing.T) {
	d, g := smallData(t)
	models := []string{"rfe", "la-ds", "da-ds", "vb-da-ds"}
	set := &model.Settings{MaxIterations: 60, Threads: 1}
	rep, err := New(context.Background(), d, g, &Settings{Models: models, Fit: set, BootstrapReps: 20})
	if err != nil {
		t.Fatal(err)
	}
	choice, err := compare.Auto(context.Background(), d, compare.AutoSettings{Fit: set})
	if err != nil {
		t.Fatal(err)
	}
	rec := choice.Model
	all := append(slices.Clone(models), rec)
	want, err := compare.Run(context.Background(), d, compare.Settings{Models: all, Gold: g, Fit: set, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	top, _ := want.Top()
	if got, _ := rep.recommended(); got != rec {
		t.Errorf("recommended %q, compare.Auto chose %q", got, rec)
	}
	var b bytes.Buffer
	if err := rep.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	checkStructure(t, page)
	first := regexp.MustCompile(`<tr( class="rec")?>\s*<td class="num">1</td><td><span class="model">([^<]+)</span>`).FindStringSubmatch(page)
	if first == nil || first[2] != top || (first[1] != "") != (top == rec) {
		t.Errorf("first row %v, want %s, ranked first by compare", first, top)
	}
	marked := regexp.MustCompile(`<tr class="rec">\s*<td class="num">\d+</td><td><span class="model">([^<]+)</span>`).FindAllStringSubmatch(page, -1)
	if len(marked) != 1 || marked[0][1] != rec {
		t.Errorf("highlighted rows %v, want the one of %s", marked, rec)
	}
	if n := strings.Count(page, `alt="Reliability diagram of `); n != len(all) {
		t.Errorf("%d reliability panels, want %d", n, len(all))
	}
	for _, s := range []string{"Recommended model: <b>" + rec, `<span class="badge">recommended</span>`, "Krippendorff", "Wilson",
		"consensus of " + rec, "the lowest held-out likelihood loss among"} {
		if !strings.Contains(page, s) {
			t.Errorf("page lacks %q", s)
		}
	}
	page = render(t, d, nil, &Settings{Models: models, Fit: set})
	if n := strings.Count(page, `<span class="ci">`); !strings.Contains(page, "held-out log loss</th>") || n != len(all) {
		t.Errorf("without gold: %d held-out intervals for %d models, or no held-out column", n, len(all))
	}
	if !strings.Contains(page, "Recommended model: <b>"+rec+"</b>") {
		t.Errorf("without gold: the page does not recommend %s", rec)
	}
	page = render(t, d, g, &Settings{Models: models, NoRecommendation: true})
	if strings.Contains(page, `class="badge"`) || strings.Contains(page, "Recommended") {
		t.Error("NoRecommendation: the page recommends a model")
	}
}

// TestWorkerQuality checks that the worker-quality section takes any
// model with worker parameters, whatever its noise model, and skips those
// without: one skill per worker with labels, each a probability.
func TestWorkerQuality(t *testing.T) {
	d, _ := smallData(t)
	names := []string{"rfe", "mv", "wawa"}
	for _, n := range model.NoiseModels() {
		names = append(names, "la-"+n.Name(), "da-"+n.Name(), "hda-"+n.Name())
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			est, err := model.ByName(name)
			if err != nil {
				t.Fatal(err)
			}
			res, err := est.Fit(context.Background(), d, &model.Settings{MaxIterations: 30, Threads: 1})
			if err != nil {
				t.Fatal(err)
			}
			q, what, ok := workerQuality(name, res)
			if want := len(res.WorkerColumns()) > 0; ok != want {
				t.Fatalf("ok = %v, want %v (worker columns %v)", ok, want, res.WorkerColumns())
			}
			if !ok {
				return
			}
			if len(q) != d.NumWorkers() {
				t.Errorf("%d skills, want one per worker (%d)", len(q), d.NumWorkers())
			}
			for w, s := range q {
				if !(s >= 0 && s <= 1+1e-12) { // rounding in the sums
					t.Errorf("worker %d: skill %v is not a probability", w, s)
				}
			}
			if !strings.Contains(what, name) {
				t.Errorf("description %q does not name %s", what, name)
			}
		})
	}
	if _, _, ok := workerQuality("none", nil); ok {
		t.Error("ok for a nil result")
	}
}

// TestMaxMemory checks that New refuses, before any fit, a report whose
// models are estimated to need more than Settings.MaxMemory, naming the
// model.
func TestMaxMemory(t *testing.T) {
	d, g := smallData(t)
	fitted := 0
	_, err := New(context.Background(), d, g, &Settings{Models: []string{"la-ds", "da-mme"}, MaxMemory: 1000,
		Step: func(_, _ int, what string) {
			if strings.HasPrefix(what, "fitting") {
				fitted++
			}
		}})
	if err == nil || !strings.Contains(err.Error(), "needs about") || fitted != 0 {
		t.Errorf("New: %v after %d fits; want a memory error before any fit", err, fitted)
	}
}

// TestUnvotedNote checks that a model's score carries a note when the model
// makes a class the label of many tasks that no worker labelled so: la-ds
// on a crowd whose third class is seldom given and whose subtype of class
// 1 three workers of every task call class 0 (compare's TestUnvotedClasses
// has the crowd), and not mv there.
func TestUnvotedNote(t *testing.T) {
	if testing.Short() {
		t.Skip("fits a simulation")
	}
	d, _, err := sim.Simulate(sim.Settings{Tasks: 10_000, Workers: 57, Classes: 3, LabelsPerTask: 5, Seed: 1,
		Latent: latent.LA{}, ClassPrior: []float64{0.4, 0.55, 0.05},
		Params:     sim.DSParams{Diag: []sim.Range{{Lo: 0.8, Hi: 0.98}, {Lo: 0.8, Hi: 0.98}, {Lo: 0.02, Hi: 0.1}}},
		Correlated: sim.Correlated{Workers: 3, Coverage: 1, Subtype: 0.3, From: 1, To: 0}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		model string
		note  bool
	}{{"la-ds", true}, {"mv", false}} {
		est, err := model.ByName(tc.model)
		if err != nil {
			t.Fatal(err)
		}
		res, err := est.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, err := (&Report{}).score(res, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.HasPrefix(s.Note, "class 2 is this model's label of "); got != tc.note {
			t.Errorf("%s: note %q", tc.model, s.Note)
		}
	}
}

package ebcc

import (
	"fmt"
)

// view is the fitted noise model a result reads (model.NoiseView): worker
// w's posterior mean confusion on object j, its rows for the object's
// subtypes weighted by q(g_j | z_j).
type view struct{ f *fit }

func (f *fit) view() view { return view{f} }

// Conditional writes P(y | z) for worker w labelling object j,
// Σ_m q(g_j = m | z_j = z) E[v_w(z, m, y)], into p[:K]; the object's
// subtype shares weigh the rows, so that Σ_z q(z_j = z) P(y | z) is the
// posterior predictive of a new label of w on j.
func (v view) Conditional(w int32, j int, z int, p []float64) {
	f := v.f
	k, m := f.k, f.m
	clear(p[:k])
	q := f.zg[(j*k+z)*m : (j*k+z+1)*m]
	var qs float64
	for _, x := range q {
		qs += x
	}
	for g := range m {
		wt := 1 / float64(m)
		if qs > 0 {
			wt = q[g] / qs
		}
		if wt == 0 {
			continue
		}
		row := f.mu[((int(w)*k+z)*m+g)*k:][:k]
		var s float64
		for _, x := range row {
			s += x
		}
		for y, x := range row {
			p[y] += wt * x / s
		}
	}
}

// WorkerColumns names the class-level posterior mean confusion p[z,y] of
// every worker: its rows for the subtypes of class z weighted by the
// subtypes' shares of the class.
func (v view) WorkerColumns() []string {
	f := v.f
	cols := make([]string, 0, f.k*f.k)
	for z := range f.k {
		for y := range f.k {
			cols = append(cols, fmt.Sprintf("p[%s,%s]", f.d.Classes[z], f.d.Classes[y]))
		}
	}
	return cols
}

// WorkerValues appends worker w's class-level confusion to dst.
func (v view) WorkerValues(w int, dst []float64) []float64 {
	f := v.f
	k, m := f.k, f.m
	for z := range k {
		var es float64
		for g := range m {
			es += f.eta[z*m+g]
		}
		for y := range k {
			var p float64
			for g := range m {
				row := f.mu[((w*k+z)*m+g)*k:][:k]
				var s float64
				for _, x := range row {
					s += x
				}
				p += f.eta[z*m+g] / es * row[y] / s
			}
			dst = append(dst, p)
		}
	}
	return dst
}

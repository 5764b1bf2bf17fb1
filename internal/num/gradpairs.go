package num

// SigmoidGradPairs back-propagates weights through the two-class
// probabilities of consecutive groups of labels, each a sigmoid of a
// product, s_i = e[w]·d[j] (GLAD at K = 2: P(y_i | y_i) = σ(s_i) for
// worker ability e_w and object difficulty d_j = exp(δ_j)). Group j holds
// the labels [off[j]-off[0], off[j+1]-off[0]). Label i, of worker
// w = worker[i] and class y = label[i] (of which only the lowest bit is
// read), has its probabilities of the two classes at p[2i] and p[2i+1]
// and their weights at g[2i] and g[2i+1]; with a = p[2i+y] = σ(s_i),
//
//	ds_i = ∂L/∂s_i = g[2i+y] - a·(g[2i] + g[2i+1]),
//	gw[w] += ds_i·d[j],   t_j = Σ_i ds_i·e[w] (in label order, from 0),
//
// and gobj[j] += t_j·d[j] after the group's labels. Every product is
// rounded before the sum that takes it.
//
// It panics if a worker lies outside e or gw, if off decreases, or if the
// slices are shorter than the groups need. The results are the scalar
// loop's bit for bit on every build; on amd64 the loop is written in
// assembly, which keeps every slice and index in a register where the
// compiled loop reloads half of them from the stack at every label.
func SigmoidGradPairs(worker []int32, label []uint16, off []int, p, g, e, d, gw, gobj []float64) {
	gradPairs(worker, label, off, p, g, e, d, gw, gobj, false)
}

// SigmoidGradPairsShared is SigmoidGradPairs with the weights of a group
// shared by its labels: group j's at g[2j] and g[2j+1], in the place of
// each label's g[2i] and g[2i+1].
func SigmoidGradPairsShared(worker []int32, label []uint16, off []int, p, g, e, d, gw, gobj []float64) {
	gradPairs(worker, label, off, p, g, e, d, gw, gobj, true)
}

// gradPairs is SigmoidGradPairs, or SigmoidGradPairsShared if shared.
func gradPairs(worker []int32, label []uint16, off []int, p, g, e, d, gw, gobj []float64, shared bool) {
	n := gradPairsLabels(worker, label, off, p, g, e, d, gw, gobj, shared)
	if n < 0 {
		return
	}
	worker, label = worker[:n], label[:n]
	status := 0 // the assembly's: -1 at a worker outside e
	switch {
	case haveGradPairsAsm && shared:
		status = sigmoidGradPairsSharedAsm(worker, label, off, p, g, e, d, gw, gobj)
	case haveGradPairsAsm:
		status = sigmoidGradPairsAsm(worker, label, off, p, g, e, d, gw, gobj)
	case shared:
		sigmoidGradPairsShared(worker, label, off, p, g, e, d, gw, gobj)
	default:
		sigmoidGradPairs(worker, label, off, p, g, e, d, gw, gobj)
	}
	if status < 0 {
		panic("num: worker out of range")
	}
}

// gradPairsLabels returns the number of labels of the groups of off, or
// -1 if there are none; it panics if off decreases or a slice is shorter
// than the groups need (g holding two weights a group if shared, else two
// a label), or if gw is shorter than e.
func gradPairsLabels(worker []int32, label []uint16, off []int, p, g, e, d, gw, gobj []float64, shared bool) int {
	groups := len(off) - 1
	if groups <= 0 {
		return -1
	}
	n, _ := groupSpanFrom(off[0], off[1:])
	weights := 2 * n
	if shared {
		weights = 2 * groups
	}
	if len(worker) < n || len(label) < n || len(p) < 2*n || len(g) < weights || len(d) < groups || len(gobj) < groups || len(gw) < len(e) {
		panic("num: SigmoidGradPairs: slices too short")
	}
	return n
}

// sigmoidGradPairs is SigmoidGradPairs' scalar loop.
func sigmoidGradPairs(worker []int32, label []uint16, off []int, p, g, e, d, gw, gobj []float64) {
	base := off[0]
	i := 0
	for j, dj := range d[:len(off)-1] {
		end := off[j+1] - base
		var t float64
		for ; i < end; i++ {
			w := worker[i]
			y := int(label[i]) & 1
			ds := g[2*i+y] - float64(p[2*i+y]*(g[2*i]+g[2*i+1]))
			gw[w] += float64(ds * dj)
			t += float64(ds * e[w])
		}
		gobj[j] += float64(t * dj)
	}
}

// sigmoidGradPairsShared is SigmoidGradPairsShared's scalar loop.
func sigmoidGradPairsShared(worker []int32, label []uint16, off []int, p, g, e, d, gw, gobj []float64) {
	base := off[0]
	i := 0
	for j, dj := range d[:len(off)-1] {
		end := off[j+1] - base
		gj := g[2*j : 2*j+2]
		sum := gj[0] + gj[1]
		var t float64
		for ; i < end; i++ {
			w := worker[i]
			y := int(label[i]) & 1
			ds := gj[y] - float64(p[2*i+y]*sum)
			gw[w] += float64(ds * dj)
			t += float64(ds * e[w])
		}
		gobj[j] += float64(t * dj)
	}
}

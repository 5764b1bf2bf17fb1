package sim

import (
	"math"
	"math/rand/v2"
	"sort"
)

// chooser draws the distinct workers of each object among the workers
// [lo, w): uniformly by a partial Fisher-Yates shuffle, or with probability
// proportional to 1/rank^activity by rejection from the cumulative
// weights.
type chooser struct {
	rng      *rand.Rand
	lo       int
	activity float64

	// The uniform draw: a permutation of the workers [lo, w), the identity
	// between draws, and the swaps that undo a draw.
	perm  []int32
	swaps []int

	// The weighted draw: the cumulative weights of the workers [lo, w),
	// each worker's weight, and the workers drawn for the current object.
	cum, weight []float64
	taken       []bool
}

// maxRejections bounds the rejections of one weighted draw before the
// chooser draws from the remaining workers directly, at a cost linear in
// their number: the rejection draw is fast unless the workers already
// chosen hold most of the weight.
const maxRejections = 32

func newChooser(rng *rand.Rand, w, lo int, activity float64) *chooser {
	ch := &chooser{rng: rng, lo: lo, activity: activity}
	if activity == 0 {
		ch.perm = make([]int32, w-lo)
		for i := range ch.perm {
			ch.perm[i] = int32(lo + i)
		}
		return ch
	}
	ch.cum = make([]float64, w-lo)
	ch.weight = make([]float64, w-lo)
	ch.taken = make([]bool, w-lo)
	var sum float64
	for i := range ch.cum {
		ch.weight[i] = math.Pow(float64(lo+i+1), -activity)
		sum += ch.weight[i]
		ch.cum[i] = sum
	}
	return ch
}

// choose appends n distinct workers (all of them if there are fewer) to
// dst and returns the result.
func (ch *chooser) choose(dst []int32, n int) []int32 {
	if ch.perm != nil {
		return ch.uniform(dst, n)
	}
	m := len(ch.cum)
	if n >= m {
		for i := range m {
			dst = append(dst, int32(ch.lo+i))
		}
		return dst
	}
	start := len(dst)
	total := ch.cum[m-1]
	for range n {
		i := -1
		for range maxRejections {
			// The worker whose interval [cum[c-1], cum[c]) holds u.
			u := ch.rng.Float64() * total
			c := sort.Search(m, func(i int) bool { return ch.cum[i] > u })
			if c < m && !ch.taken[c] {
				i = c
				break
			}
		}
		if i < 0 {
			i = ch.remaining()
		}
		ch.taken[i] = true
		dst = append(dst, int32(ch.lo+i))
	}
	for _, w := range dst[start:] {
		ch.taken[int(w)-ch.lo] = false
	}
	return dst
}

// remaining draws one of the workers not yet taken with probability
// proportional to its weight, by a linear scan.
func (ch *chooser) remaining() int {
	var rest float64
	last := -1
	for i, t := range ch.taken {
		if !t {
			rest += ch.weight[i]
			last = i
		}
	}
	u := ch.rng.Float64() * rest
	for i, t := range ch.taken {
		if t {
			continue
		}
		if u -= ch.weight[i]; u < 0 {
			return i
		}
	}
	return last
}

// uniform appends n distinct workers drawn uniformly to dst.
func (ch *chooser) uniform(dst []int32, n int) []int32 {
	perm := ch.perm
	n = min(n, len(perm))
	if cap(ch.swaps) < n {
		ch.swaps = make([]int, n)
	}
	swaps := ch.swaps[:n]
	for i := 0; i < n; i++ { // partial Fisher-Yates: n distinct workers
		r := i + ch.rng.IntN(len(perm)-i)
		swaps[i] = r
		perm[i], perm[r] = perm[r], perm[i]
		dst = append(dst, perm[i])
	}
	// Undo the swaps in reverse order, so that perm is the identity again
	// at O(n) rather than O(Workers) cost per object.
	for i := n - 1; i >= 0; i-- {
		r := swaps[i]
		perm[i], perm[r] = perm[r], perm[i]
	}
	return dst
}

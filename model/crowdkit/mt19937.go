package crowdkit

import "math"

// mt19937 is the Mersenne Twister MT19937 of Matsumoto and Nishimura
// (1998), seeded as numpy's legacy RandomState(seed) seeds it from an
// integer (init_genrand), with RandomState.random_sample's 53-bit doubles
// and RandomState.standard_normal's normal draws: the generator of
// Crowd-Kit's random starts, so that MMSR and KOS start where Crowd-Kit's
// do for the same random_state.
type mt19937 struct {
	mt  [624]uint32
	idx int
	// spare is the second normal draw of the last polar pair, which
	// the next call of normal returns (hasSpare).
	spare    float64
	hasSpare bool
}

// newMT19937 returns the generator seeded with seed (its low 32 bits).
func newMT19937(seed uint64) *mt19937 {
	g := &mt19937{idx: 624}
	g.mt[0] = uint32(seed)
	for i := 1; i < 624; i++ {
		prev := g.mt[i-1]
		g.mt[i] = 1812433253*(prev^(prev>>30)) + uint32(i)
	}
	return g
}

// uint32 returns the next 32 random bits.
func (g *mt19937) uint32() uint32 {
	if g.idx >= 624 {
		for i := range 624 {
			y := g.mt[i]&0x80000000 | g.mt[(i+1)%624]&0x7fffffff
			next := g.mt[(i+397)%624] ^ y>>1
			if y&1 != 0 {
				next ^= 0x9908b0df
			}
			g.mt[i] = next
		}
		g.idx = 0
	}
	y := g.mt[g.idx]
	g.idx++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

// float64 returns a uniform double in [0, 1) from 53 random bits, as
// numpy's random_sample.
func (g *mt19937) float64() float64 {
	a, b := g.uint32()>>5, g.uint32()>>6
	return (float64(a)*67108864 + float64(b)) / 9007199254740992
}

// normal returns a standard normal draw by the polar method of Marsaglia,
// as numpy's legacy generator draws it: a pair of uniforms on (−1, 1)²
// inside the unit circle gives two draws, of which the second is returned
// first and the first kept for the next call. The draws are numpy's to
// within one unit in the last place: Go's math.Log and the C library's
// log, which numpy calls, differ in the last bit for about 3% of them.
func (g *mt19937) normal() float64 {
	if g.hasSpare {
		g.hasSpare = false
		return g.spare
	}
	for {
		x1 := 2*g.float64() - 1
		x2 := 2*g.float64() - 1
		r2 := x1*x1 + x2*x2
		if r2 >= 1 || r2 == 0 {
			continue
		}
		f := math.Sqrt(-2 * math.Log(r2) / r2)
		g.spare, g.hasSpare = f*x1, true
		return f * x2
	}
}

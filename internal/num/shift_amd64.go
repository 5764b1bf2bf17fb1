//go:build amd64 && !purego

package num

// digammaShiftAVX2 is digammaShift for the elements of x in groups of
// four, with the same operations in each lane; it returns the number of
// elements it took, len(x) rounded down to a multiple of four. r must be
// at least as long as x.
//
//go:noescape
func digammaShiftAVX2(x, r []float64) int

// gammaShiftAVX2 is gammaShiftTo for the elements of u in groups of
// four, with the same operations in each lane; it returns the number of
// elements it took, len(u) rounded down to a multiple of four. prod and
// inv must be at least as long as u.
//
//go:noescape
func gammaShiftAVX2(u, prod, inv []float64) int

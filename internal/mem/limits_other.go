//go:build !unix

package mem

// addressSpaceLimit reports no address-space limit where there is no
// getrlimit.
func addressSpaceLimit() (float64, bool) { return 0, false }

// stackLimit reports no stack limit where there is no getrlimit.
func stackLimit() (float64, bool) { return 0, false }

// Package race reports whether the program was built with the race
// detector (go test -race), so that tests can give their goroutines
// smaller inputs under it: the detector makes a program 5 to 10 times
// slower, and CI races the whole suites of the packages whose code runs on
// several goroutines within its time.
package race

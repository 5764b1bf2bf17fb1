package model_test

// The tests of this package range over the whole registry (Registry,
// ByName): importing package all registers every family for the test
// binary, the internal tests included.
import _ "github.com/consensuslab/consensus/model/all"

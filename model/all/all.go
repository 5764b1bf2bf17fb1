// Package all registers every family of estimators with package model:
// a program that looks estimators up by name (model.ByName,
// model.Registry) imports it for its side effect,
//
//	import _ "github.com/consensuslab/consensus/model/all"
//
// so that the command line, the comparisons, the reports and the Python
// front end (through the command line) know every estimator. Package model
// registers its own forms (rfe, mv, la-X, da-X); a new family is added
// here with one import line.
package all

import (
	_ "github.com/consensuslab/consensus/model/crowdkit" // wawa, zbs, gmv, kos, mmsr
	_ "github.com/consensuslab/consensus/model/ebcc"     // ebcc
	_ "github.com/consensuslab/consensus/model/gibbs"    // gibbs-kinds
	_ "github.com/consensuslab/consensus/model/hda"      // hda-X
	_ "github.com/consensuslab/consensus/model/vb"       // vb-la-X, vb-X, vb-da-X, vb-hda-X
)

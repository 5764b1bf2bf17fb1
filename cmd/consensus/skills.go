package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/output"
)

// skillFlags are fit's flags for a vote weighted by given worker skills
// (Crowd-Kit's MajorityVote.fit(data, skills)).
type skillFlags struct {
	path, format, missing string
	// ctx and maxMemory bound the reading of --skills.
	ctx       context.Context
	maxMemory int64
}

func (f *skillFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&f.path, "skills", "", "with mv: weigh every worker's vote by its skill from this file (columns worker,skill, such as a workers file of another fit; CSV, TSV, JSON Lines or Parquet, by extension or --skills-format), as Crowd-Kit's MajorityVote.fit(data, skills)")
	fl.StringVar(&f.format, "skills-format", "", "format of --skills: csv, tsv, jsonl or parquet (default: by extension, CSV for standard input)")
	fl.StringVar(&f.missing, "missing-skill", "", "with --skills: what a worker missing from the file gets: error (the default: refuse), ignore (its labels are left out) or a skill such as 0.5 (Crowd-Kit's on_missing_skill)")
}

// check refuses --skills with a model that cannot weigh votes, and a bad
// --missing-skill, before any reading.
func (f *skillFlags) check(est model.Estimator) error {
	if f.path == "" {
		if f.missing != "" || f.format != "" {
			return usagef("--missing-skill and --skills-format need --skills")
		}
		return nil
	}
	if _, ok := est.(model.SkillWeigher); !ok {
		return usagef("--skills: model %s does not weigh votes by given skills (mv does)", est.Name())
	}
	_, _, err := f.parseMissing()
	return err
}

// parseMissing returns what --missing-skill says.
func (f *skillFlags) parseMissing() (model.MissingSkill, float64, error) {
	switch f.missing {
	case "", "error":
		return model.MissingError, 0, nil
	case "ignore":
		return model.MissingIgnore, 0, nil
	}
	v, err := strconv.ParseFloat(f.missing, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 1) {
		return 0, 0, usagef("--missing-skill %q: want error, ignore or a skill (a finite number, at least 0)", f.missing)
	}
	return model.MissingValue, v, nil
}

// apply returns est weighted by the skills of --skills on d, when it is
// given, and est otherwise. A skill must be a finite number, at least 0;
// workers of the file without a label in d are left aside, and the number
// of workers with a skill is noted on stderr.
func (f *skillFlags) apply(est model.Estimator, d *data.Dataset) (model.Estimator, error) {
	if f.path == "" {
		return est, nil
	}
	sw := est.(model.SkillWeigher) // check made sure
	missing, def, err := f.parseMissing()
	if err != nil {
		return nil, err
	}
	format, err := dataio.ParseFormat(f.format)
	if err != nil {
		return nil, usagef("--skills-format: %v", err)
	}
	opt := dataio.ReadSettings{MaxMemory: f.maxMemory}
	t, err := output.LoadWorkers(f.ctx, f.path, format, opt, []string{"skill"})
	if err != nil {
		return nil, limitHint(withAdvice(err, readFlags{format: "--skills-format"}))
	}
	skills, given, err := t.Skills(d, f.path)
	if err != nil {
		return nil, err
	}
	wv := sw.WithSkills(skills, missing, def)
	if err := wv.Check(d); err != nil {
		return nil, &dataio.InputError{File: f.path, Msg: strings.TrimPrefix(err.Error(), "mv: ")}
	}
	fmt.Fprintf(os.Stderr, "note: %d of %d workers have a skill in %s\n", given, d.NumWorkers(), f.path)
	return wv, nil
}

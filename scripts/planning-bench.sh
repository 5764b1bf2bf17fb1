#!/usr/bin/env bash
# The bars of the planner of 'consensus next' (docs/planning.md), each measured
# by one part of this script:
#   savings   replays the shipped data sets and simulated crowds by the planner
#             and by round-robin, then runs the interactive simulations where
#             the planner may ask any worker (scripts/planbench): the Markdown
#             tables and, with a directory, the plots there (docs/figures)
#   ask       the interactive simulations alone
#   coverage  the coverage of the 90% intervals of the true-class probability
#             and of q_j on simulated crowds, seeds 1 to 3 or FIRST to LAST,
#             the q_j of the DA crowds drawn from Dirichlet(1) or Dirichlet(CONC)
#   flags     the recall and precision of the worker flags at 3, 5 and 10
#             labels a task, seeds 1 to 4 or FIRST to LAST
#   oracle    the same of an oracle that knows the crowd's truth (the other
#             workers' confusions, the kinds' distributions), seeds 1 to 4
#             or FIRST to LAST
#   speed     CPU seconds of fit, next, next --workers, next --intervals and
#             next --intervals --distribution on 10⁶ simulated labels, and of
#             next --intervals on 10⁵ (K = 2) and 2.5·10⁴ (K = 10)
#   scripts/planning-bench.sh [savings|ask [PLOTS_DIR [planbench flags...]] | coverage [FIRST LAST [CONC]] | flags [FIRST LAST] | oracle [FIRST LAST] | speed | all]
# With no argument, or a directory as the first, it runs savings as before.
set -euo pipefail
cd "$(dirname "$0")/.."
part="${1:-savings}"
case "$part" in
savings | ask | coverage | flags | oracle | speed | all) shift || true ;;
*) part=savings ;;
esac

savings() {
	local dir="${1:-}"
	shift || true
	go run ./scripts/planbench -plots "$dir" "$@"
}

coverage() {
	go test ./plan -count=1 -v -run 'TestClassIntervalCoverage|TestLabelIntervalCoverage' -args -cov-seeds "${1:-1}:${2:-3}" -cov-conc "${3:-1}" | grep -E 'coverage|^(ok|FAIL)' || true
}

flags() {
	go test ./plan -count=1 -v -run 'TestFlagsFindBadWorkers' -args -flag-seeds "${1:-1}:${2:-4}" | grep -E 'bad workers|^(ok|FAIL)' || true
}

oracle() {
	go test ./plan -count=1 -v -run 'TestFlagsOracle' -args -flag-oracle -flag-seeds "${1:-1}:${2:-4}" | grep -E 'oracle|^(ok|FAIL)' || true
}

speed() {
	local tmp
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	go build -o "$tmp/consensus" ./cmd/consensus
	"$tmp/consensus" simulate --model la-ds --objects 100000 --workers 1000 --labels-per-object 10 --seed 1 --output "$tmp/big.csv" 2>/dev/null
	local run
	for run in "fit --input big.csv -o fit.csv" \
		"next --input big.csv --budget 1000 -o next.csv" \
		"next --input big.csv --budget 1000 -o next.csv --workers flags.csv" \
		"next --input big.csv --budget 10 -o next.csv --tasks t.csv --intervals 0.9" \
		"next --input big.csv --budget 10 -o next.csv --tasks t.csv --intervals 0.9 --distribution"; do
		# shellcheck disable=SC2086
		(cd "$tmp" && /usr/bin/time -f "| \`consensus $run\` | %U | %M |" ./consensus $run 2>&1 >/dev/null | tail -1)
	done
	# The intervals cost most at about 10⁵ labels, where the bootstrap still
	# simulates ten data sets.
	"$tmp/consensus" simulate --model la-ds --objects 20000 --workers 1000 --labels-per-object 5 --seed 1 --output "$tmp/mid.csv" 2>/dev/null
	run="next --input mid.csv --budget 10 -o next.csv --tasks t.csv --intervals 0.9"
	# shellcheck disable=SC2086
	(cd "$tmp" && /usr/bin/time -f "| \`consensus $run\` (10⁵ labels) | %U | %M |" ./consensus $run 2>&1 >/dev/null | tail -1)
	# At K = 10 a worker's draw is a 10×10 matrix and a task's 10 classes.
	"$tmp/consensus" simulate --model la-ds --classes 10 --objects 5000 --workers 100 --labels-per-object 5 --accuracy 0.6:0.9 --seed 1 --output "$tmp/k10.csv" 2>/dev/null
	run="next --input k10.csv --budget 10 -o next.csv --tasks t.csv --intervals 0.9"
	# shellcheck disable=SC2086
	(cd "$tmp" && /usr/bin/time -f "| \`consensus $run\` (2.5·10⁴ labels, K = 10) | %U | %M |" ./consensus $run 2>&1 >/dev/null | tail -1)
}

case "$part" in
savings) savings "$@" ;;
ask)
	dir="${1:-}"
	shift || true
	savings "$dir" -datasets "" -sims "" "$@"
	;;
coverage) coverage "$@" ;;
flags) flags "$@" ;;
oracle) oracle "$@" ;;
speed) speed ;;
all)
	coverage
	flags
	speed
	savings "$@"
	;;
esac

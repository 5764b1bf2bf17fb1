#!/bin/sh
# perf-targets.sh: measure everything issues 4 and 15 set a target for, on
# this machine, and print the raw results (docs/performance.md quotes them).
#
#   scripts/perf-targets.sh [quick|full]
#
# quick (the default) runs the pass benchmarks and the 2·10⁶ / 5·10⁵ fits,
# about 10 minutes on two cores; full adds reading 10⁷ labels in each
# format, the 10⁸-label fits and the 10⁷ pass benchmarks (about 25 more
# minutes and 4 GB of memory). Run it on an
# otherwise idle machine: every fit reports wall and CPU time, and the
# medians and ranges are over the --repeat fits or the -count runs.
set -eu
cd "$(dirname "$0")/.."
mode=${1:-quick}
bin=$(mktemp -d)/consensus
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/consensus

echo "## machine"
lscpu | grep -E '^(Model name|CPU family|Model|CPU\(s\)|L1d|L2|L3|CPU max MHz)'
if grep -q avx512f /proc/cpuinfo; then echo "AVX-512: yes"; else echo "AVX-512: no"; fi
go version
uptime

echo "## one pass, K = 2 and 5, 10^6 labels, 1 and 2 goroutines"
go test ./model -run '^$' -bench 'Eval/(la|da)-(ds|glad)/K=(2|5)/N=1e6' -count 5

echo "## fits against the targets"
for spec in "la-ds 2e6 5" "da-ds 2e6 5" "la-glad 5e5 3" "da-glad 5e5 3"; do
	set -- $spec
	echo "### $1, $2 labels"
	"$bin" bench --model "$1" --labels "$2" --repeat "$3"
done
for m in la-glad da-glad; do
	echo "### $m, 5e5 labels, --glad-prior 1"
	"$bin" bench --model "$m" --labels 5e5 --repeat 3 --glad-prior 1
	echo "### $m, 5e5 labels, 100 iterations (Crowd-Kit's GLAD default n_iter)"
	"$bin" bench --model "$m" --labels 5e5 --repeat 3 --max-iter 100
done

[ "$mode" = full ] || exit 0

echo "## reading 10^7 labels: CSV, Parquet (dictionary-encoded), JSON Lines; 1 and 2 goroutines"
files=$(dirname "$bin")
for ext in csv parquet jsonl; do
	"$bin" simulate --model da-ds --objects 2000000 --workers 5000 --labels-per-object 5 --seed 1 -o "$files/l10m.$ext"
done
go test -c -o "$files/data.test" ./data
for ext in csv parquet jsonl; do
	echo "### $ext"
	CONSENSUS_BENCH_FILE="$files/l10m.$ext" "$files/data.test" -test.run '^$' -test.bench LoadLabelsFile \
		-test.benchtime 1x -test.count 3 -test.cpu 1,2
	rm "$files/l10m.$ext"
done

echo "## one pass at 10^7 labels"
CONSENSUS_BENCH_LARGE=1 go test ./model -run '^$' -bench 'Eval/(la|da)-(ds|glad)/K=(2|5)/N=1e7/threads=2' -count 3

echo "## 10^8 labels"
for m in la-ds da-ds; do
	echo "### $m, 1e8 labels"
	/usr/bin/time -f 'process: %e s wall, %U s user, %S s system, %M KB maxrss' \
		"$bin" bench --model "$m" --labels 1e8
done

#!/usr/bin/env bash
# The evidence for the default model (docs/choosing-a-model.md): on the six shipped data sets, the
# default's accuracy and the log loss of its two answers against the paper's models and the add-one
# frequencies; on the simulated regimes, accuracy and calibration against the Bayes limit
# (scripts/sim-regimes.sh); on the paper's synthetic DA design, the label distributions' MSE against
# the statistical limit; and the whole-process CPU time of the default against la-ds.
#
# Usage: scripts/default-bench.sh [sets|regimes|da|speed]...   (default: all four)
#   SEEDS="1 2 3"   seeds of the regimes
set -euo pipefail
cd "$(dirname "$0")/.."
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(sets regimes da speed)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/consensus" ./cmd/consensus
bin=$tmp/consensus

# field SUMMARY LINE-PREFIX N prints the N-th number after LINE-PREFIX in a fit summary.
gold_line() { grep "^$2" <<<"$1" | head -1; }
acc() { grep -o 'accuracy [0-9.]*' <<<"$1" | cut -d' ' -f2; }
ll() { grep -o 'log loss [0-9.+Inf]*' <<<"$1" | cut -d' ' -f3; }

for part in "${parts[@]}"; do
  case $part in
  sets)
    echo "## Shipped data sets: accuracy / log loss (base K) on gold"
    printf '| data set | add-one frequencies | la-ds | da-ds | vb-la-ds | default: true class | default: label distribution |\n|---|---|---|---|---|---|---|\n'
    for ds in rte temp duchenne websearch adult trec2010; do
      row="| $ds |"
      for m in rfe la-ds da-ds vb-la-ds; do
        s=$("$bin" fit --dataset "$ds" -m "$m" -o /dev/null 2>&1 >/dev/null)
        g=$(gold_line "$s" gold)
        row+=" $(acc "$g") / $(ll "$g") |"
      done
      s=$("$bin" fit --dataset "$ds" -o /dev/null 2>&1 >/dev/null)
      g=$(gold_line "$s" gold); q=$(gold_line "$s" "label distribution")
      row+=" $(acc "$g") / $(ll "$g") | $(acc "$q") / $(ll "$q") |"
      echo "$row"
    done
    ;;
  regimes)
    echo "## Simulated regimes (scripts/sim-regimes.sh ${SEEDS:-1 2 3}): means over the seeds"
    # shellcheck disable=SC2086
    MODELS="mv la-ds vb-la-ds vb-da-ds default" scripts/sim-regimes.sh ${SEEDS:-1 2 3} | grep -P '\tmean\t'
    ;;
  da)
    echo "## The paper's synthetic DA design: MSE of the label distributions against the limit"
    go test ./model/vb -run 'TestDefaultDistributionLimit$' -v -count=1 | grep -o 'seed [0-9]: MSE.*'
    ;;
  speed)
    echo "## Whole-process CPU seconds (user + system), median of three runs"
    "$bin" simulate --model la-onecoin --objects 400000 --workers 2000 --labels-per-object 5 --seed 1 -o "$tmp/k2.csv"
    "$bin" simulate --model la-ds --classes 10 --objects 40000 --workers 200 --labels-per-object 5 --seed 1 -o "$tmp/k10.csv"
    for f in k2 k10; do
      for m in la-ds vb-la-ds default; do
        args=()
        [ "$m" = default ] || args=(-m "$m")
        ts=()
        for _ in 1 2 3; do
          t=$( { /usr/bin/time -f '%U %S' "$bin" fit -q -i "$tmp/$f.csv" "${args[@]}" -o /dev/null; } 2>&1 | tail -1 | awk '{print $1+$2}')
          ts+=("$t")
        done
        printf '%s\t%s\t%s\n' "$f" "$m" "$(printf '%s\n' "${ts[@]}" | sort -n | sed -n 2p)"
      done
    done
    ;;
  *) echo "unknown part $part" >&2; exit 2 ;;
  esac
done

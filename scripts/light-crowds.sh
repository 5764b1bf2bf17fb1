#!/usr/bin/env bash
# Scores the default on crowds of two classes whose workers give few labels each (8-60) and whose
# tasks have three or five labels: the crowds on which the mean-field fit's shared priors collapse
# and the default chooses them by cavity empirical Bayes (model/vb/ceb.go; docs/choosing-a-model.md).
# For every crowd and seed it runs
#   consensus simulate ARGS --seed S -o labels.csv --truth truth.csv --bayes bayes.csv
#   consensus fit -q -i labels.csv [-m M] -o out.csv      (for each model; "default": no -m)
#   consensus eval -p out.csv -g truth.csv                (and -p bayes.csv for the Bayes limit)
# and prints one tab-separated row per crowd and seed: accuracy and expected calibration error of
# the Bayes limit and of every model, then the means over all rows and over each crowd's seeds.
#
# CROWDS=pairs scores instead the crowds of two labels a task at K = 4 and 5: Dawid-Skene workers (10 to
# 100, busy or of skewed activity), on which the default takes its workers' errors' precisions from
# drawn counts (model/vb/sampled.go), with one-coin workers and three labels a task beside them, where
# it does not. CROWDS=patterns scores two-label crowds at K = 3, 5 and 10 whose errors fall on
# neighbouring classes, on which the default keeps the crowd's learned pattern (Bayes.pairsFallback).
# CROWDS=kinds scores the five crowds with spammers and adversaries of sim/unknownkinds_test.go (A to E,
# in order), whose oracle shows how far any method could go; CROWDS=grid 18 crowds at K = 3, 5 and 10
# with 3 or 5 labels a task among 1,000 workers of activity 1/rank^0.5: none bad, 10% spammers and 5%
# adversaries, or 30% spammers. CROWDS=neighbours scores 12 crowds of imbalanced classes at K = 3 and 5,
# 3 labels a task among 300 workers (10% spammers) whose errors fall on the next class, on which the
# first fit all but drops a class, a refit holds the class prior (vb.keepHeld), and gibbs-kinds
# challenges the first fit (gibbs.Challenge). CROWDS=absent scores
# 16 crowds at K = 5 and 7 of the same kind without spammers (100 or 300 workers of activity 1/rank),
# on some of which mean field all but drops a class the labels agree on and the default takes
# gibbs-kinds's answer (gibbs.Challenge). CROWDS=weak scores two crowds of balanced classes, 5 labels
# a task from 100 or 300 Dawid-Skene workers of accuracy U[0.55, 0.7], on which a learned class prior
# drifts to one class and the default refits it held (unvoted.Dropped, unvoted.Drifted,
# unvoted.HeldShares).
#
# Usage: scripts/light-crowds.sh [SEED...]      (default seeds 1 2 3)
#   MODELS="default mv vb-la-ds ebcc"          env override of the models
#   CROWDS=pairs|patterns|kinds|grid|neighbours|absent|weak   env: other crowds instead (see above)
set -euo pipefail
cd "$(dirname "$0")/.."

seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3)
read -r -a models <<<"${MODELS:-default mv vb-la-ds ebcc}"
crowds=(
  "--model la-ds --labels-per-object 3 --workers 200 --objects 2000 --activity 0 --class-prior 0.7,0.3"
  "--model la-ds --labels-per-object 3 --workers 200 --objects 2000 --activity 0 --class-prior 0.7,0.3 --accuracy 0.75:0.98,0.55:0.95"
  "--model la-ds --labels-per-object 3 --workers 200 --objects 2000 --activity 0 --class-prior 0.7,0.3 --accuracy 0.6:0.95,0.6:0.8"
  "--model la-ds --labels-per-object 3 --workers 100 --objects 2000 --activity 0.9 --class-prior 0.7,0.3"
  "--model la-ds --labels-per-object 3 --workers 300 --objects 3000 --activity 0.5 --class-prior 0.6,0.4 --spammers 0.2"
  "--model la-onecoin --labels-per-object 3 --workers 500 --objects 3000 --activity 0.5 --class-prior 0.8,0.2"
  "--model la-ds --labels-per-object 5 --workers 1000 --objects 4000 --spammers 0.3"
  "--model la-onecoin --labels-per-object 5 --workers 2000 --objects 2000 --adversaries 0.1 --class-prior 0.7,0.3"
)
if [ "${CROWDS:-light}" = pairs ]; then
  crowds=(
    "--model la-ds --labels-per-object 2 --workers 30 --objects 2000 --classes 4 --activity 0.8"
    "--model la-ds --labels-per-object 2 --workers 100 --objects 3000 --classes 5 --activity 0.5"
    "--model la-ds --labels-per-object 2 --workers 10 --objects 2000 --classes 5"
    "--model la-onecoin --labels-per-object 2 --workers 30 --objects 2000 --classes 4 --activity 0.8"
    "--model la-ds --labels-per-object 3 --workers 30 --objects 2000 --classes 4 --activity 0.8"
  )
elif [ "${CROWDS:-light}" = patterns ]; then
  crowds=(
    "--model la-ds --labels-per-object 2 --workers 100 --objects 3000 --classes 10 --activity 1 --error-decay 1"
    "--model la-ds --labels-per-object 2 --workers 100 --objects 3000 --classes 5 --activity 1 --error-decay 1"
    "--model la-ds --labels-per-object 2 --workers 2000 --objects 3000 --classes 5 --error-decay 1"
    "--model la-ds --labels-per-object 2 --workers 2000 --objects 3000 --classes 10 --error-decay 2 --class-prior 0.3,0.2,0.1,0.1,0.08,0.07,0.05,0.04,0.03,0.03"
    "--model la-ds --labels-per-object 2 --workers 200 --objects 3000 --classes 3 --activity 0.5 --error-decay 1 --spammers 0.2"
    "--model la-ds --labels-per-object 2 --workers 50 --objects 3000 --classes 5 --error-decay 1 --adversaries 0.1"
    "--regime many-classes --labels-per-object 2"
  )
elif [ "${CROWDS:-light}" = kinds ]; then
  crowds=(
    "--model la-ds --classes 3 --labels-per-object 3 --workers 1000 --objects 4000 --activity 0.5 --spammers 0.3"
    "--model la-ds --classes 5 --labels-per-object 3 --workers 1000 --objects 3000 --activity 0.5 --spammers 0.3"
    "--model la-ds --classes 2 --labels-per-object 3 --workers 200 --objects 2000 --activity 0 --spammers 0.3 --class-prior 0.85,0.15"
    "--model la-ds --classes 3 --labels-per-object 2 --workers 200 --objects 3000 --activity 0.5 --error-decay 1 --spammers 0.2"
    "--model la-ds --classes 3 --labels-per-object 3 --workers 1000 --objects 4000 --activity 0.5 --spammers 0.2 --adversaries 0.1"
  )
elif [ "${CROWDS:-light}" = neighbours ]; then
  crowds=()
  for prior in 0.6,0.3,0.1 0.5,0.2,0.15,0.1,0.05; do
    for acc in 0.3:0.8 0.35:0.7 0.4:0.9; do
      for act in 0 1.3; do
        crowds+=("--model la-ds --classes $(($(tr -cd , <<<"$prior" | wc -c) + 1)) --labels-per-object 3 --workers 300 --objects 3000 --activity $act --spammers 0.1 --accuracy $acc --class-prior $prior --error-decay 2")
      done
    done
  done
elif [ "${CROWDS:-light}" = absent ]; then
  crowds=()
  for prior in 0.35,0.25,0.2,0.12,0.08 0.3,0.2,0.15,0.1,0.1,0.1,0.05; do
    for w in 100 300; do
      for acc in 0.3:0.8 0.35:0.7; do
        for decay in 2 3; do
          crowds+=("--model la-ds --classes $(($(tr -cd , <<<"$prior" | wc -c) + 1)) --labels-per-object 3 --workers $w --objects 3000 --activity 1 --accuracy $acc --class-prior $prior --error-decay $decay")
        done
      done
    done
  done
elif [ "${CROWDS:-light}" = weak ]; then
  crowds=(
    "--model la-ds --labels-per-object 5 --workers 100 --objects 2000 --accuracy 0.55:0.7"
    "--model la-ds --labels-per-object 5 --workers 300 --objects 2000 --accuracy 0.55:0.7"
  )
elif [ "${CROWDS:-light}" = grid ]; then
  crowds=()
  for k in 3 5 10; do
    for n in 3 5; do
      for bad in "" "--spammers 0.1 --adversaries 0.05" "--spammers 0.3"; do
        crowds+=("--model la-ds --classes $k --labels-per-object $n --workers 1000 --objects 3000 --activity 0.5 $bad")
      done
    done
  done
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/consensus" ./cmd/consensus
bin=$tmp/consensus

# score FILE TRUTH prints accuracy and ECE of FILE against TRUTH, tab-separated.
score() {
  "$bin" eval -p "$1" -g "$2" | awk -F'\t' '{v[$1]=$2} END {printf "%.4f\t%.4f", v["accuracy"], v["ece"]}'
}

printf 'crowd\tseed\tbayes\tbayes_ece'
for m in "${models[@]}"; do printf '\t%s\t%s_ece' "$m" "$m"; done
printf '\n'
for c in "${crowds[@]}"; do
  for s in "${seeds[@]}"; do
    # shellcheck disable=SC2086
    "$bin" simulate $c --seed "$s" -o "$tmp/l.csv" --truth "$tmp/t.csv" --bayes "$tmp/b.csv" 2>/dev/null
    row="$c\t$s\t$(score "$tmp/b.csv" "$tmp/t.csv")"
    for m in "${models[@]}"; do
      args=()
      [ "$m" = default ] || args=(-m "$m")
      "$bin" fit -q -i "$tmp/l.csv" "${args[@]}" -o "$tmp/o.csv"
      row+="\t$(score "$tmp/o.csv" "$tmp/t.csv")"
    done
    printf '%b\n' "$row"
  done
done | tee "$tmp/rows"
awk -F'\t' '{for (i = 3; i <= NF; i++) s[i] += $i; n++} END {printf "mean\t"; for (i = 3; i <= NF; i++) printf "\t%.4f", s[i]/n; printf "\n"}' "$tmp/rows"
# The means of every crowd over its seeds.
awk -F'\t' '{if (!($1 in n)) order[++m] = $1; n[$1]++; for (i = 3; i <= NF; i++) s[$1, i] += $i; nf = NF}
  END {for (c = 1; c <= m; c++) {k = order[c]; printf "mean\t%s", k; for (i = 3; i <= nf; i++) printf "\t%.4f", s[k, i]/n[k]; printf "\n"}}' "$tmp/rows"

#!/usr/bin/env bash
# Scores the default against other models on random crowds, to find regimes where it fails before
# users do. Every crowd draws its generating noise model (DS, one-coin, GLAD), classes (2, 3, 5, 10),
# class prior (uniform or imbalanced), labels a task (2-10), workers (20-2,000), activity skew,
# spammers and adversaries from bash's generator seeded by SWEEP_SEED, then runs
#   consensus simulate ARGS --seed I -o labels.csv --truth truth.csv --bayes bayes.csv
#   consensus fit -q -i labels.csv [-m M] -o out.csv     (for each model; "default": no -m)
#   consensus eval -p out.csv -g truth.csv               (and -p bayes.csv for the Bayes limit)
# and prints one tab-separated row per crowd: its arguments, then every model's accuracy and ECE, the
# default's gap to the Bayes limit and to the best other model (points; negative: the default is worse).
# A last line gives the mean gaps and the number of crowds where the default trails the best other
# model by more than 1 point.
#
# Usage: scripts/regime-sweep.sh [N]        N crowds (default 30)
#   SWEEP_SEED=1                           env: the seed of the crowds' draw (default 1)
#   MODELS="default vb-la-ds ebcc mv"      env: the models; the first is the one scored
#   CLASSES="2 2 3 5 10"                   env: the numbers of classes to draw from
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:-30}
RANDOM=${SWEEP_SEED:-1}
read -r -a models <<<"${MODELS:-default vb-la-ds ebcc mv}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/consensus" ./cmd/consensus
bin=$tmp/consensus

# pick sets REPLY to one of its arguments at random. It runs in the script's own shell, never in a
# subshell: bash reseeds RANDOM in subshells, which would make the crowds differ from run to run.
pick() { local a=("$@"); REPLY=${a[RANDOM % ${#a[@]}]}; }

# score FILE TRUTH prints accuracy and ECE of FILE against TRUTH, tab-separated.
score() {
  "$bin" eval -p "$1" -g "$2" | awk -F'\t' '{v[$1]=$2} END {printf "%s\t%s", v["accuracy"], v["ece"]}'
}

printf 'crowd\tbayes'
for m in "${models[@]}"; do printf '\t%s\t%s_ece' "$m" "$m"; done
printf '\tto_bayes\tto_best\n'
for ((i = 1; i <= n; i++)); do
  pick ds ds onecoin glad
  noise=$REPLY
  pick ${CLASSES:-2 2 3 5 10}
  k=$REPLY
  pick 2 3 3 5 5 7 10
  per=$REPLY
  pick 20 50 200 200 1000 2000
  workers=$REPLY
  pick 2000 4000
  objects=$REPLY
  pick 0 0.5 1 1
  activity=$REPLY
  pick 0 0 0.1 0.3
  spam=$REPLY
  pick 0 0 0 0.05 0.1
  adv=$REPLY
  prior=""
  pick 0 1
  if [ "$REPLY" = 1 ]; then
    case $k in
      2) pick 0.85,0.15 0.7,0.3 0.95,0.05; prior=$REPLY ;;
      3) prior=0.7,0.2,0.1 ;;
      5) prior=0.5,0.2,0.15,0.1,0.05 ;;
      10) prior=0.3,0.2,0.1,0.1,0.08,0.07,0.05,0.04,0.03,0.03 ;;
    esac
  fi
  [ "$per" -le "$workers" ] || per=$workers
  args=(--model "la-$noise" --classes "$k" --labels-per-object "$per" --workers "$workers" --objects "$objects"
    --activity "$activity" --spammers "$spam" --adversaries "$adv")
  [ -z "$prior" ] || args+=(--class-prior "$prior")
  d=$tmp/$i
  mkdir -p "$d"
  "$bin" simulate "${args[@]}" --seed "$i" -o "$d/labels.csv" --truth "$d/truth.csv" --bayes "$d/bayes.csv"
  row="${args[*]} --seed $i"$'\t'"$(score "$d/bayes.csv" "$d/truth.csv" | cut -f1)"
  for m in "${models[@]}"; do
    margs=()
    [ "$m" = default ] || margs=(-m "$m")
    "$bin" fit -q -i "$d/labels.csv" "${margs[@]}" -o "$d/$m.csv"
    row+=$'\t'"$(score "$d/$m.csv" "$d/truth.csv")"
  done
  # Columns: 2 Bayes, then accuracy and ECE of each model from 3 on.
  awk -F'\t' -v m="${#models[@]}" '{best=-1; for (j=1; j<m; j++) if ($(3+2*j) > best) best=$(3+2*j);
    printf "%s\t%.2f\t%s\n", $0, 100*($3-$2), best < 0 ? "-" : sprintf("%.2f", 100*($3-best))}' <<<"$row" >>"$tmp/rows.tsv"
  tail -n 1 "$tmp/rows.tsv"
done
awk -F'\t' '{b+=$(NF-1); n++; if ($NF != "-") {o+=$NF; if ($NF < -1) bad++}}
  END {printf "mean gap to the Bayes limit %.2f points, to the best other model %.2f (%d of %d crowds more than 1 point below it)\n", b/n, o/n, bad, n}' "$tmp/rows.tsv"

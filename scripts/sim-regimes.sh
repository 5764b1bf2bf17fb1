#!/usr/bin/env bash
# Benchmarks consensus models on the simulated regimes of `consensus simulate --regime` against the
# Bayes limit (the posterior of the true class under the true parameters, `simulate --bayes`). For
# every regime and seed:
#   consensus simulate --regime R --seed S -o labels.csv --truth truth.csv --bayes bayes.csv
#   consensus fit -q -i labels.csv [-m M] -o out.csv        (for each model; "default": no -m)
#   consensus eval -p out.csv -g truth.csv                  (and -p bayes.csv for the Bayes limit)
# and prints one tab-separated row per regime, seed and model: accuracy, log loss (base K) and
# expected calibration error (10 bins) on every object, followed by the mean over the seeds.
#
# Usage: scripts/sim-regimes.sh [SEED...]        (default seeds 1 2 3)
#   REGIMES="sparse light"     env override of the regimes (default: the LA regimes sparse light
#                              many-classes spammers adversarial sparse-many correlated
#                              shared-mistake)
#   GRID=1                     instead of the regimes, LA data from DS, one-coin and GLAD workers
#                              (their default parameters) at K = 2, 5 and 10 and 3, 5 and 10 labels an
#                              object: 10,000 objects, 200 workers, activity 1/rank^0.9; named
#                              la-<noise>-k<K>-n<labels>
#   MODELS="mv la-ds default"  env override of the models (default: mv la-ds vb-la-ds default)
set -euo pipefail
cd "$(dirname "$0")/.."

seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3)
# Every case is a name and the arguments of simulate that draw it.
names=()
cases=()
if [ "${GRID:-}" = 1 ]; then
  for noise in ds onecoin glad; do
    for k in 2 5 10; do
      for n in 3 5 10; do
        names+=("la-$noise-k$k-n$n")
        cases+=("--model la-$noise --classes $k --labels-per-object $n --objects 10000 --workers 200 --activity 0.9")
      done
    done
  done
else
  for r in ${REGIMES:-sparse light many-classes spammers adversarial sparse-many correlated shared-mistake}; do
    names+=("$r")
    cases+=("--regime $r")
  done
fi
read -r -a models <<<"${MODELS:-mv la-ds vb-la-ds default}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/consensus" ./cmd/consensus
bin=$tmp/consensus

# score FILE TRUTH prints accuracy, log loss and ECE of FILE against TRUTH, tab-separated.
score() {
  "$bin" eval -p "$1" -g "$2" | awk -F'\t' '{v[$1]=$2} END {printf "%s\t%s\t%s", v["accuracy"], v["log_loss"], v["ece"]}'
}

printf 'regime\tseed\tmodel\taccuracy\tlog_loss\tece\n'
for i in "${!names[@]}"; do
  r=${names[$i]}
  read -r -a simargs <<<"${cases[$i]}"
  for s in "${seeds[@]}"; do
    d=$tmp/$r-$s
    mkdir -p "$d"
    "$bin" simulate "${simargs[@]}" --seed "$s" -o "$d/labels.csv" --truth "$d/truth.csv" --bayes "$d/bayes.csv"
    printf '%s\t%s\tbayes\t%s\n' "$r" "$s" "$(score "$d/bayes.csv" "$d/truth.csv")"
    for m in "${models[@]}"; do
      args=()
      [ "$m" = default ] || args=(-m "$m")
      "$bin" fit -q -i "$d/labels.csv" "${args[@]}" -o "$d/$m.csv"
      printf '%s\t%s\t%s\t%s\n' "$r" "$s" "$m" "$(score "$d/$m.csv" "$d/truth.csv")"
    done
  done
done | tee "$tmp/rows.tsv"

# The mean of every regime and model over the seeds.
awk -F'\t' '{k=$1"\t"$3; if (!(k in n)) order[++m]=k; n[k]++; a[k]+=$4; l[k]+=$5; e[k]+=$6}
  END {for (i=1; i<=m; i++) {k=order[i]; split(k, p, "\t");
    printf "%s\tmean\t%s\t%.4f\t%.4f\t%.4f\n", p[1], p[2], a[k]/n[k], l[k]/n[k], e[k]/n[k]}}' "$tmp/rows.tsv"

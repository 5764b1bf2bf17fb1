#!/usr/bin/env bash
# Prints a Markdown table of what `consensus fit --model auto` picks under each held-out criterion on
# labels simulated under LA from three worker models, three seeds each: the pick and the gold accuracy /
# log loss of the final fit against the true classes, and the accuracy of every candidate.
# Usage: scripts/auto-sim-table.sh [CRITERION ...]   (default: likelihood output-reliable output-channel)
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/consensus
go build -o "$bin" ./cmd/consensus
crits=("$@")
[ ${#crits[@]} -gt 0 ] || crits=(likelihood output-reliable output-channel)
# name, simulate flags
regimes=(
  "ds, K=3, 30 workers, 5 labels a task|--model la-ds --objects 1000 --workers 30 --labels-per-object 5 --classes 3"
  "one-coin, K=5, 500 workers, 5 labels a task|--model la-onecoin --objects 1000 --workers 500 --labels-per-object 5 --classes 5"
  "one-coin, K=3, 300 workers, 3 labels a task|--model la-onecoin --objects 1000 --workers 300 --labels-per-object 3 --classes 3"
  "glad, K=3, 100 workers, 5 labels a task|--model la-glad --objects 2000 --workers 100 --labels-per-object 5 --classes 3"
)
echo "| data | seed | candidates: gold accuracy |$(printf ' %s pick (accuracy) |' "${crits[@]}")"
printf '|---|---|---|%s\n' "$(printf -- '---|%.0s' "${crits[@]}")"
for r in "${regimes[@]}"; do
  name=${r%%|*}
  read -ra flags <<<"${r#*|}"
  for seed in 1 2 3; do
    "$bin" simulate "${flags[@]}" --seed "$seed" -o "$tmp/l.csv" --truth "$tmp/t.csv"
    cands=
    while read -r m; do
      acc=$("$bin" fit -i "$tmp/l.csv" --gold "$tmp/t.csv" -m "$m" -o /dev/null 2>&1 | grep -o 'accuracy [0-9.]*' | head -1 | cut -d' ' -f2)
      cands+="$m $acc, "
    done < <("$bin" fit -i "$tmp/l.csv" -m auto -o /dev/null 2>&1 | grep -E '^auto: [ *] ' | awk '{ print ($2 == "*" ? $3 : $2) }')
    row="| $name | $seed | ${cands%, } |"
    for c in "${crits[@]}"; do
      out=$("$bin" fit -i "$tmp/l.csv" --gold "$tmp/t.csv" -m auto --auto-criterion "$c" -o /dev/null 2>&1)
      pick=$(grep -o 'auto: chose [a-z0-9-]*' <<<"$out" | cut -d' ' -f3)
      acc=$(grep -o 'accuracy [0-9.]*' <<<"$out" | head -1 | cut -d' ' -f2)
      row+=" $pick ($acc) |"
    done
    echo "$row"
  done
done

#!/usr/bin/env bash
# Prints, for every shipped data set and every simulation regime (consensus simulate --regime), the model
# that each command recommends: fit --model auto, compare with and without gold, and report with and
# without gold (compare and report with --models rfe: the recommendation does not depend on the models
# compared, and the recommended one is added to them). The five must agree on every row.
# Usage: scripts/one-recommendation.sh [DATASET-OR-REGIME ...]   (default: the six sets and every regime)
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
b=$tmp/consensus
go build -o "$b" ./cmd/consensus
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  read -ra names <<<"$("$b" datasets | awk 'NR > 1 { print $1 }' | paste -sd ' ') $("$b" simulate --help | grep -- '--regime string' | sed 's/.*named regime (//; s/;.*//; s/,//g')"
fi
rec() { grep -o 'Recommended model: <b>[^<]*' "$1" | sed 's/.*<b>//'; }
echo '| data | fit -m auto | compare --gold | compare (no gold) | report --gold | report (no gold) |'
echo '|---|---|---|---|---|---|'
for n in "${names[@]}"; do
  if "$b" datasets export "$n" "$tmp/$n" >/dev/null 2>&1; then
    labels=$tmp/$n/labels.csv gold=$tmp/$n/gold.csv
  else
    "$b" simulate --regime "$n" --seed 1 -o "$tmp/$n.csv" --truth "$tmp/$n-truth.csv"
    labels=$tmp/$n.csv gold=$tmp/$n-truth.csv
  fi
  a=$("$b" fit -i "$labels" -m auto -o /dev/null 2>&1 | grep -o '^auto: chose [a-z0-9-]*' | cut -d' ' -f3)
  cg=$("$b" compare -i "$labels" --gold "$gold" --models rfe -q | tail -1 | sed 's/recommended: //')
  cn=$("$b" compare -i "$labels" --models rfe -q | tail -1 | sed 's/recommended: //')
  "$b" report -i "$labels" --gold "$gold" --models rfe -o "$tmp/r.html" -q
  rg=$(rec "$tmp/r.html")
  "$b" report -i "$labels" --models rfe -o "$tmp/r.html" -q
  rn=$(rec "$tmp/r.html")
  echo "| $n | $a | $cg | $cn | $rg | $rn |"
done

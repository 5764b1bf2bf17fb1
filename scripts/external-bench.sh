#!/usr/bin/env bash
# Scores models on label sets this project does not ship: for every directory DIR/NAME holding a
# labels file (labels.csv or label.csv: task,worker,label) and a gold file (gold.csv or truth.csv:
# task,label; a first column named item and a gold column named truth are read as such), it fits
# each model with `consensus fit` and prints a Markdown table of accuracy / log loss (base K) on
# the gold tasks, the first model's whole-process CPU seconds, and the first model's gap in
# accuracy points to the best of the others on each set and on average. Use it to check a change
# of the default on public data sets before trusting it, for example the collection of Zheng et
# al.'s truth-inference benchmark or the active crowd toolkit's sets, each in its own directory.
#
# Usage: scripts/external-bench.sh DIR [MODEL...]   (default models: default mv vb-la-ds ebcc la-ds)
#   "default" is the model fit uses with no --model.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] && [ -d "$1" ] || { echo "usage: $0 DIR [MODEL...]" >&2; exit 2; }
dir=$1
shift
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(default mv vb-la-ds ebcc la-ds)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/consensus" ./cmd/consensus

first() { for f in "$@"; do [ -f "$f" ] && { echo "$f"; return; }; done; }
printf '| set | %s | CPU s (%s) | gap |\n|---|' "$(IFS='|'; echo "${models[*]}" | sed 's/|/ | /g')" "${models[0]}"
for _ in "${models[@]}"; do printf -- '---|'; done
printf -- '---|---|\n'
sum=0 n=0
for d in "$dir"/*/; do
  labels=$(first "$d/labels.csv" "$d/label.csv")
  gold=$(first "$d/gold.csv" "$d/truth.csv")
  [ -n "$labels" ] && [ -n "$gold" ] || continue
  args=(-i "$labels" --gold "$gold")
  [ "$(head -c 5 "$labels")" = "item," ] && args+=(--task-column item)
  [ "$(head -c 5 "$gold")" = "item," ] && args+=(--gold-task-column item)
  head -1 "$gold" | grep -q ',truth' && args+=(--gold-label-column truth)
  row="| $(basename "$d") |"
  accs=() cpu=
  for m in "${models[@]}"; do
    margs=()
    [ "$m" = default ] || margs=(-m "$m")
    out=$( { /usr/bin/time -f 'cpu %U %S' "$tmp/consensus" fit "${args[@]}" "${margs[@]}" -o /dev/null; } 2>&1 | grep '^gold\|^cpu' || true)
    a=$(grep -o 'accuracy [0-9.]*' <<<"$out" | cut -d' ' -f2)
    l=$(grep -o 'log loss [0-9.+Inf]*' <<<"$out" | cut -d' ' -f3)
    [ -n "$cpu" ] || cpu=$(awk '/^cpu/ {printf "%.2f", $2 + $3}' <<<"$out")
    accs+=("${a:-0}")
    row+=" ${a:--} / ${l:--} |"
  done
  gap=$(printf '%s\n' "${accs[@]}" | awk 'NR == 1 {f = $1; next} $1 > b {b = $1} END {printf "%+.2f", 100 * (f - b)}')
  sum=$(awk -v s="$sum" -v g="$gap" 'BEGIN {print s + g}')
  n=$((n + 1))
  echo "$row $cpu | $gap |"
done
[ "$n" -gt 0 ] || { echo "no DIR/NAME with a labels and a gold file" >&2; exit 1; }
awk -v s="$sum" -v n="$n" 'BEGIN {printf "\nmean gap of the first model to the best of the others: %+.2f points on %d sets\n", s / n, n}'

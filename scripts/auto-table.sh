#!/usr/bin/env bash
# Prints a Markdown table of what `consensus fit --model auto` picks on the six shipped data sets under
# each held-out criterion: the candidates' scores (lower is better), the pick, the gold accuracy / log loss
# of the final fit, and the wall and CPU (user + sys) time of the whole command, choice included.
# The candidates are fit --model auto's default ones, named in the header.
# Usage: scripts/auto-table.sh [CRITERION ...]   (default: likelihood output output-reliable output-channel)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/consensus
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/consensus
crits=("$@")
[ ${#crits[@]} -gt 0 ] || crits=(likelihood output output-reliable output-channel)
rows=()
names=
for ds in rte temp duchenne websearch adult trec2010; do
  for c in "${crits[@]}"; do
    out=$( { /usr/bin/time -f 'time %e %U %S' "$bin" fit --dataset "$ds" --model auto --auto-criterion "$c" --output /dev/null; } 2>&1 >/dev/null)
    scores=$(grep -E '^auto: [ *] ' <<<"$out" | while read -r line; do
      s=$(grep -oE ' [0-9]+\.[0-9]{4} ' <<<"$line" | head -1 | tr -d ' ')
      grep -q 'iteration limit' <<<"$line" && s="$s (limit)"
      echo "$s"
    done | paste -sd '/' | sed 's#/# / #g')
    [ -n "$names" ] || names=$(grep -E '^auto: [ *] ' <<<"$out" | awk '{ print ($2 == "*" ? $3 : $2) }' | paste -sd '/' | sed 's#/# / #g')
    pick=$(grep -o 'auto: chose [a-z0-9-]*' <<<"$out" | cut -d' ' -f3)
    acc=$(grep -o 'accuracy [0-9.]*' <<<"$out" | head -1 | cut -d' ' -f2)
    ll=$(grep -o 'log loss [0-9.+Inf]*' <<<"$out" | head -1 | cut -d' ' -f3)
    t=$(grep '^time ' <<<"$out" | awk '{ printf "%.1f / %.1f", $2, $3 + $4 }')
    rows+=("$(printf '| %s | %s | %s | %s | %s / %s | %s |' "$ds" "$c" "$scores" "$pick" "$acc" "$ll" "$t")")
  done
done
echo "| data set | criterion | scores ($names) | pick | gold accuracy / log loss | wall / CPU s |"
echo '|---|---|---|---|---|---|'
printf '%s\n' "${rows[@]}"

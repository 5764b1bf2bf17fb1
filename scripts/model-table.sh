#!/usr/bin/env bash
# Prints a Markdown table of accuracy / log loss (base K) / iterations / stop reason
# of the given models on the six shipped data sets, from `consensus fit` summaries.
# Usage: scripts/model-table.sh [MODEL ...]   (default: the models of docs/choosing-a-model.md)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/consensus
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/consensus
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(rfe la-ds da-ds vb-la-ds vb-da-ds vb-hda-ds)
printf '| data set |'; for m in "${models[@]}"; do printf ' %s |' "$m"; done; echo
printf '|---|'; for _ in "${models[@]}"; do printf -- '---|'; done; echo
for ds in rte temp duchenne websearch adult trec2010; do
  printf '| %s |' "$ds"
  for m in "${models[@]}"; do
    out=$("$bin" fit --dataset "$ds" --model "$m" --output /dev/null 2>&1 >/dev/null)
    acc=$(grep -o 'accuracy [0-9.]*' <<<"$out" | cut -d' ' -f2)
    ll=$(grep -o 'log loss [0-9.+Inf]*' <<<"$out" | head -1 | cut -d' ' -f3)
    note=""
    if grep -q 'IterationLimit' <<<"$out"; then note=" (limit)"; fi
    printf ' %s / %s%s |' "$acc" "$ll" "$note"
  done
  echo
done

#!/usr/bin/env bash
# Prints the Markdown table of docs/choosing-a-model.md#how-sharp: for every shipped data set and
# every pseudo-count a of q_j's Dirichlet(a, ..., a) prior, the default model's log loss (base K) on
# the gold tasks and its held-out label log loss (consensus compare --criterion heldout, 3 splits).
# Usage: scripts/prior-table.sh [A ...]   (default: 0.25 0.5 1 2)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/consensus
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/consensus
priors=("$@")
[ ${#priors[@]} -gt 0 ] || priors=(0.25 0.5 1 2)
printf '| data set |'; for a in "${priors[@]}"; do printf ' a = %s |' "$a"; done; echo
printf '|---|'; for _ in "${priors[@]}"; do printf -- '---|'; done; echo
for ds in rte temp duchenne websearch adult trec2010; do
  printf '| %s |' "$ds"
  for a in "${priors[@]}"; do
    gold=$("$bin" fit --dataset "$ds" --q-prior "$a" --output /dev/null 2>&1 >/dev/null |
      grep -o 'log loss [0-9.+Inf]*' | head -1 | cut -d' ' -f3)
    held=$("$bin" compare --dataset "$ds" --models vb-da-ds --q-prior "$a" --criterion heldout \
      --output-format csv --quiet | awk -F, 'NR == 2 { printf "%.4f", $5 }')
    printf ' %s / %s |' "$gold" "$held"
  done
  echo
done

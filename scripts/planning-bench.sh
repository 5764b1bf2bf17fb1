#!/usr/bin/env bash
# The planner's savings (docs/planning.md): replays the shipped data sets and
# simulated crowds by the planner of 'consensus next' and by round-robin,
# prints the Markdown table of the docs and, with a directory argument,
# draws the plots there (docs/figures in the docs).
#   scripts/planning-bench.sh [PLOTS_DIR] [planbench flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-}"
shift || true
exec go run ./scripts/planbench -plots "$dir" "$@"

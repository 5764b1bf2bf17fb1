#!/bin/sh
# report-screenshot.sh: write the HTML report of a shipped data set and take
# a screenshot of it in headless Chromium, to check that it renders offline.
#
#   scripts/report-screenshot.sh [DATASET] [OUT.png]
#
# DATASET defaults to duchenne and OUT.png to docs/figures/report.png. Needs
# Chromium (Debian: apt-get install -y chromium). The browser runs with a
# throw-away profile and without background networking, so any attempt of
# the page to fetch something would show as a broken picture.
set -eu
cd "$(dirname "$0")/.."
dataset=${1:-duchenne}
out=${2:-docs/figures/report.png}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./cmd/consensus report --dataset "$dataset" --output "$tmp/report.html"
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
"$browser" --headless --no-sandbox --disable-gpu --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--hide-scrollbars --user-data-dir="$tmp/profile" \
	--screenshot="$tmp/report.png" --window-size=1280,2400 \
	"file://$tmp/report.html" 2>"$tmp/chromium.log" || { cat "$tmp/chromium.log" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
cp "$tmp/report.png" "$out"
echo "wrote $out"

#!/bin/sh
# report-screenshots.sh: write the HTML report of a shipped data set and take
# screenshots of it in headless Chromium at a desktop width (1280 px) and a
# phone width (390 px), to check that it renders offline and reads on both.
#
#   scripts/report-screenshots.sh [DATASET] [OUTDIR]
#
# DATASET defaults to duchenne and OUTDIR to docs/figures; the pictures are
# OUTDIR/report-1280.png and OUTDIR/report-390.png. Needs Chromium (Debian:
# apt-get install -y chromium); with ImageMagick's convert the empty space
# below the page is trimmed. The browser runs with a throw-away profile and
# without background networking, so any attempt of the page to fetch
# something would show as a broken picture.
set -eu
cd "$(dirname "$0")/.."
dataset=${1:-duchenne}
outdir=${2:-docs/figures}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./cmd/consensus report --dataset "$dataset" --output "$tmp/report.html" --quiet
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
mkdir -p "$outdir"
for size in 1280,9000 390,14000; do
	width=${size%,*}
	"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--hide-scrollbars --user-data-dir="$tmp/profile-$width" \
		--screenshot="$tmp/report-$width.png" --window-size="$size" \
		"file://$tmp/report.html" 2>"$tmp/chromium.log" || { cat "$tmp/chromium.log" >&2; exit 1; }
	if command -v convert >/dev/null 2>&1 && convert -version 2>/dev/null | grep -q ImageMagick; then
		convert "$tmp/report-$width.png" -define trim:edges=south -trim +repage "$tmp/report-$width.png"
	fi
	cp "$tmp/report-$width.png" "$outdir/report-$width.png"
	echo "wrote $outdir/report-$width.png"
done

#!/usr/bin/env bash
# fresh-clone.sh: follow the README on a fresh clone, as a new user would.
#
#   scripts/fresh-clone.sh [--full]
#
# Clones the committed HEAD of this checkout into a temporary directory and
# runs, in the clone, the commands of README.md's first code block and of
# its "A five-minute tour" section, verbatim, as extracted from the clone's
# README: the tour installs the binary (go install, here into a temporary
# GOBIN that is put first on PATH) and runs it on the shipped data sets.
# Skipped: the tour's "git clone ... && cd consensus" (the script has just
# cloned and is in the clone), commands that read files the README does not
# create (--input, zcat), and the first block's "go test" command unless
# --full is given (CI runs the test suite just before this script).
#
# Fails when a command exits non-zero, takes longer than 90 s, or prints a
# line containing "warning" (any case) on standard error, or when fewer than
# five commands were found (the README changed shape), or when the README's
# Go program does not build and run. Each command's
# standard output goes to a file in the clone.
set -euo pipefail
full=0
[ "${1:-}" = --full ] && full=1
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git clone -q "$root" "$tmp/consensus"
cd "$tmp/consensus"
export GOBIN="$tmp/bin" PATH="$tmp/bin:$PATH" GOFLAGS=-mod=readonly

# The lines of the first ```sh block, and of every ```sh block between
# "## A five-minute tour" and the next "## " heading.
extract() {
	awk '
		/^## / { tour = ($0 ~ /^## A five-minute tour/) }
		/^```sh$/ { inblock = 1; blocks++; next }
		/^```/ { inblock = 0; next }
		inblock && (blocks == 1 || tour) && NF { print }
	' README.md
}

n=0
while IFS= read -r line; do
	cmd=$(printf '%s\n' "$line" | sed 's/[[:space:]]\{2,\}#.*$//')
	case "$cmd" in
	"git clone "*)
		echo "skip (already cloned): $cmd"; continue ;;
	*--input*|zcat*)
		echo "skip (needs the user's files): $cmd"; continue ;;
	"go test "*)
		if [ "$full" = 0 ]; then echo "skip (CI runs the tests; --full runs them): $cmd"; continue; fi ;;
	esac
	n=$((n + 1))
	echo "run: $cmd"
	status=0
	timeout 90 bash -c "$cmd" >"$tmp/out.$n" 2>"$tmp/err.$n" </dev/null || status=$?
	if [ "$status" != 0 ]; then
		echo "fresh-clone: exit status $status from: $cmd" >&2
		cat "$tmp/err.$n" >&2
		exit 1
	fi
	if grep -i warning "$tmp/err.$n" >&2; then
		echo "fresh-clone: a warning on standard error from: $cmd" >&2
		exit 1
	fi
done < <(extract)
# The README's Go program (the ```go block that starts with "package
# main"), built and run inside the clone's module, as a user would after
# copying it into a main.go.
mkdir -p readme-example
awk '/^```go$/ { inblock = 1; first = 1; next }
	/^```/ { inblock = 0; keep = 0 }
	inblock && first { keep = ($0 == "package main"); first = 0 }
	inblock && keep' README.md >readme-example/main.go
if ! grep -q '^package main$' readme-example/main.go; then
	echo "fresh-clone: no Go program (package main) in README.md's go blocks" >&2
	exit 1
fi
echo "run: the README's Go program"
if ! (cd readme-example && timeout 90 go run . >"$tmp/out.go" 2>"$tmp/err.go"); then
	echo "fresh-clone: the README's Go program failed" >&2
	cat "$tmp/err.go" >&2
	exit 1
fi
cat "$tmp/out.go"
if [ "$n" -lt 5 ]; then
	echo "fresh-clone: only $n commands found in README.md; has its first block or its tour changed shape?" >&2
	exit 1
fi
echo "fresh-clone: $n README commands ran cleanly"

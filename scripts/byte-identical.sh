#!/usr/bin/env bash
# Checks that the working tree's consensus binary writes byte-identical outputs to the binary of
# git revision REV: for every registered model (`consensus models`) on the six shipped data sets,
#   consensus fit -q --dataset D -m M -o out.csv --workers w.csv
# at both, compared with cmp (the consensus file, the workers file, the exit status and the error
# text). A model without worker parameters is run without --workers; a model that needs training
# gold (gmv) gets --train-fraction 0.2. A fit that fails the same way at both is no difference.
# Exits 1 listing every difference, 0 if there is none.
#
# Usage: scripts/byte-identical.sh [--quick] [REV]     (REV default HEAD)
#   --quick        only the three small data sets (rte temp duchenne); every model
#   MODELS="la-ds da-glad"   env override of the models (default: every model of both binaries)
#   SETS="rte adult"         env override of the data sets
#   KEEP=1                   keep the temporary directory (its path is printed)
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
rev=HEAD
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "byte-identical.sh: unknown option $a" >&2; exit 2 ;;
    *) rev=$a ;;
  esac
done
commit=$(git rev-parse --verify --quiet "$rev^{commit}") || { echo "byte-identical.sh: $rev is not a git revision" >&2; exit 2; }

tmp=$(mktemp -d)
if [ "${KEEP:-}" = 1 ]; then echo "keeping $tmp" >&2; else trap 'rm -rf "$tmp"' EXIT; fi

# The binary at REV, from its files alone (git archive), and the working tree's.
mkdir -p "$tmp/src"
git archive "$commit" | tar -x -C "$tmp/src"
(cd "$tmp/src" && go build -o "$tmp/old" ./cmd/consensus)
go build -o "$tmp/new" ./cmd/consensus

if [ -n "${SETS:-}" ]; then
  read -r -a sets <<<"$SETS"
elif [ "$quick" = 1 ]; then
  sets=(rte temp duchenne)
else
  sets=(rte temp duchenne websearch adult trec2010)
fi
if [ -n "${MODELS:-}" ]; then
  read -r -a models <<<"$MODELS"
else
  "$tmp/old" models | awk '{print $1}' | sort >"$tmp/models.old"
  "$tmp/new" models | awk '{print $1}' | sort >"$tmp/models.new"
  only=$(comm -3 "$tmp/models.old" "$tmp/models.new" | tr -d '\t' | tr '\n' ' ')
  [ -z "$only" ] || echo "registered at one revision only, not compared: $only" >&2
  # In the order of the working tree's list.
  mapfile -t models < <("$tmp/new" models | awk '{print $1}' | grep -Fxf "$tmp/models.old")
fi

# fit BIN DIR SET MODEL: runs one fit into DIR, recording its exit status and error text.
fit() {
  local bin=$1 dir=$2 set=$3 m=$4
  mkdir -p "$dir"
  local args=(fit -q --dataset "$set" -m "$m" -o "$dir/out.csv" --workers "$dir/w.csv")
  local rc=0
  "$bin" "${args[@]}" 2>"$dir/err" || rc=$?
  if [ "$rc" = 2 ] && grep -q 'has no worker parameters' "$dir/err"; then
    args=(fit -q --dataset "$set" -m "$m" -o "$dir/out.csv")
    rc=0; "$bin" "${args[@]}" 2>"$dir/err" || rc=$?
  fi
  if [ "$rc" = 2 ] && grep -q 'needs training gold' "$dir/err"; then
    args+=(--train-fraction 0.2)
    rc=0; "$bin" "${args[@]}" 2>"$dir/err" || rc=$?
  fi
  echo "$rc" >"$dir/rc"
}

diffs=()
n=0
start=$SECONDS
for set in "${sets[@]}"; do
  for m in "${models[@]}"; do
    t0=$SECONDS
    fit "$tmp/old" "$tmp/out/$set/$m/old" "$set" "$m"
    fit "$tmp/new" "$tmp/out/$set/$m/new" "$set" "$m"
    a=$tmp/out/$set/$m/old b=$tmp/out/$set/$m/new
    n=$((n + 1))
    what=""
    for f in rc err out.csv w.csv; do
      if [ -e "$a/$f" ] || [ -e "$b/$f" ]; then
        cmp -s "$a/$f" "$b/$f" || what+=" $f"
      fi
    done
    status="same"
    [ "$(cat "$a/rc")" = 0 ] || status="same failure (exit $(cat "$a/rc"))"
    if [ -n "$what" ]; then
      status="DIFFERENT:$what"
      diffs+=("$set $m:$what")
    fi
    printf '%-10s %-16s %4ds  %s\n' "$set" "$m" $((SECONDS - t0)) "$status" >&2
  done
done

echo "compared ${#models[@]} models on ${#sets[@]} data sets ($n pairs of fits) of $rev against the working tree in $((SECONDS - start)) s" >&2
if [ ${#diffs[@]} -gt 0 ]; then
  echo "${#diffs[@]} differences:"
  printf '  %s\n' "${diffs[@]}"
  exit 1
fi
echo "no differences"

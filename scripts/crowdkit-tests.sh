#!/usr/bin/env bash
# Runs Crowd-Kit's own classification and pairwise aggregation tests against
# the Python package consensus_crowd.
#
#   scripts/crowdkit-tests.sh CROWDKIT_CHECKOUT [PYTEST_ARGS...]
#
# CROWDKIT_CHECKOUT is a source tree of Crowd-Kit 1.4.1 (a clone at tag
# v1.4.1, or `git archive v1.4.1` unpacked). Its tests/conftest.py and the
# classification, multi-label and pairwise files of tests/aggregation are
# copied into a temporary directory, where only their import lines change:
# `crowdkit.aggregation` becomes `consensus_crowd` (and its `.utils` and
# `.base` modules consensus_crowd's). Nothing of Crowd-Kit is kept here.
# The tests then run with /usr/bin/python3 -m pytest (Debian: python3-pytest,
# python3-pandas, python3-scipy) against python/ of this checkout and a
# consensus binary built from it (or CONSENSUS_BIN). The last line is
# pytest's summary of the 145 tests: 137 classification and pairwise, 8
# multi-label (docs/crowdkit.md lists the ones that fail and why).
set -euo pipefail
if [ $# -lt 1 ] || [ ! -d "$1/tests/aggregation" ]; then
  echo "usage: $0 CROWDKIT_CHECKOUT [PYTEST_ARGS...]  (a Crowd-Kit 1.4.1 source tree with tests/aggregation)" >&2
  exit 2
fi
ck=$(cd "$1" && pwd)
shift
repo=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$PATH:/usr/local/go/bin"
python=${PYTHON:-/usr/bin/python3}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/crowdkit-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ -z "${CONSENSUS_BIN:-}" ]; then
  (cd "$repo" && go build -o "$tmp/consensus" ./cmd/consensus)
  export CONSENSUS_BIN="$tmp/consensus"
fi

# The classification, multi-label and pairwise tests; the text and image
# aggregators (ROVER, RASA, HRRASA, segmentation) have no counterpart here.
files="test_classification_aggregation.py test_classification_aggregation_edge_cases.py
  test_majority_vote.py test_ds_aggregation.py test_glad_aggregation.py test_mace_aggregation.py
  test_kos_aggregation.py test_binary_relevance_aggregation.py test_bt_aggregation.py"
mkdir -p "$tmp/tests/aggregation"
cp "$ck/tests/conftest.py" "$ck/tests/__init__.py" "$tmp/tests/"
cp "$ck/tests/aggregation/__init__.py" "$ck/tests/aggregation"/data_*.py "$tmp/tests/aggregation/"
for f in $files; do
  cp "$ck/tests/aggregation/$f" "$tmp/tests/aggregation/"
done
# Only lines that import change.
sed -i -E \
  -e 's/^(from|import) crowdkit\.aggregation\.(utils|base)\b/\1 consensus_crowd.\2/' \
  -e 's/^(from|import) crowdkit\.aggregation\b/\1 consensus_crowd/' \
  "$tmp/tests/conftest.py" "$tmp/tests/aggregation"/*.py
if grep -n 'crowdkit' "$tmp/tests/conftest.py" "$tmp/tests/aggregation"/*.py | grep -v '^\S*:[0-9]*:\s*#'; then
  echo "$0: a reference to crowdkit is left after rewriting the imports (above)" >&2
  exit 1
fi

cd "$tmp"
PYTHONPATH="$repo/python${PYTHONPATH:+:$PYTHONPATH}" "$python" -m pytest -p no:cacheprovider -q --continue-on-collection-errors \
  --rootdir "$tmp" tests/aggregation "$@"

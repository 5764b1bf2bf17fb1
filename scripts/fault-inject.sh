#!/usr/bin/env bash
# Fault injection: runs every subcommand that reads or writes files and
# stops it at random moments with SIGINT or SIGTERM, fills the disk and
# makes the output directory read-only, then checks that every file that
# existed before the run is intact and that no temporary file is left.
#
#   scripts/fault-inject.sh [SECONDS]     (default 60; stops starting new cases after that)
#
# Only local files are used: a small tmpfs mounted in a temporary directory
# when the script runs as root and mount works (so "disk full" and
# "read-only" are real), and otherwise a plain temporary directory where
# the disk is "filled" with ulimit -f (writes fail with EFBIG) and
# read-only is chmod (skipped for root; FAULT_NO_TMPFS=1 forces this
# fallback). It prints the counts of cases tried and passed and fails if
# any case failed.
set -euo pipefail
budget=${1:-60}
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/consensus-fault-XXXXXX)
mounted=0
cleanup() {
	if [ "$mounted" = 1 ]; then umount "$work/fs" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
bin=$work/consensus
go build -o "$bin" ./cmd/consensus
mkdir -p "$work/fs"
if [ -z "${FAULT_NO_TMPFS:-}" ] && [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=8m tmpfs "$work/fs" 2>/dev/null; then
	mounted=1
fi
fs=$work/fs
export TMPDIR=$fs/tmp
mkdir -p "$TMPDIR" "$fs/in" "$fs/out"
"$bin" simulate --model da-ds --objects 3000 --workers 20 --labels-per-object 5 --seed 3 -o "$fs/in/labels.csv" --truth "$fs/in/truth.csv"
"$bin" simulate --model da-ds --objects 3000 --workers 20 --labels-per-object 5 --seed 3 -o "$fs/in/labels.parquet"
awk -F, 'NR>1{print $1","$2}' "$fs/in/truth.csv" | sed '1i task,label' > "$fs/in/gold.csv"
"$bin" fit -i "$fs/in/labels.csv" -m la-ds -o "$fs/in/pred.csv" --workers "$fs/in/workers.csv" -q

# --max-memory counts the text of long ids and the fields of wide lines
# (issue 42, class 2): 150,000 tasks of 10 KB ids (1.5 GB of text, gzip)
# and a CSV of 10^6 columns, with --max-memory 100M, from a file and from
# standard input, must stop with one line and exit 1 or 2 at a peak far
# below the text's size (/usr/bin/time %M, when installed).
awk 'BEGIN { x = "x"; while (length(x) < 10000) x = x x; x = substr(x, 1, 10000); print "task,worker,label"
	for (i = 0; i < 150000; i++) printf "%d%s,w%d,%d\n", i, x, i % 7, i % 2 }' | gzip -1 >"$work/longids.csv.gz"
awk 'BEGIN { for (r = 0; r < 3; r++) { printf (r ? "1,w" r ",x" : "task,worker,label"); for (i = 0; i < 1000000; i++) printf ",v"; print "" } }' >"$work/wide.csv"
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f %M -o "$work/peak")
for c in "fit $work/longids.csv.gz" "fit -i - <$work/longids.csv.gz" "fit $work/wide.csv" "fit -i - <$work/wide.csv"; do
	set +e
	eval "${timer[*]} \"\$bin\" $c -m mv --max-memory 100M -o $work/o.csv" 2>"$work/err"
	code=$?
	set -e
	peak=$(tail -n1 "$work/peak" 2>/dev/null || echo 0)
	if [ $code != 1 ] && [ $code != 2 ] || [ "$(grep -vc '^[0-9]*$' "$work/err")" != 1 ] || [ "$peak" -gt 400000 ] || [ -e "$work/o.csv" ]; then
		echo "FAIL [max-memory: $c]: exit $code, peak ${peak} KB: $(head -c 300 "$work/err")"
		exit 1
	fi
	echo "max-memory: $c: exit $code, peak ${peak} KB"
done

# An endless line under an address-space limit (issue 42, class 1): the
# line limit, a quarter of the limit the process runs under, stops every
# text format with one line, exit 2, the same file, line and problem for
# any --threads (the sizes vary with the address space that threads take),
# and no output, never the runtime's out-of-memory crash.
for f in jsonl csv tsv; do
	first=
	for t in 1 2; do
		set +e
		(ulimit -v 2500000; "$bin" fit --format $f -i /dev/zero -m mv --threads $t -o "$work/o.csv") 2>"$work/err"
		code=$?
		set -e
		if [ $code != 2 ] || [ "$(wc -l <"$work/err")" != 1 ] || [ -e "$work/o.csv" ] || { [ -n "$first" ] && [ "$first" != "$(sed 's/[0-9.]* [KMG]iB/SIZE/g' "$work/err")" ]; }; then
			echo "FAIL [ulimit -v, /dev/zero, $f, --threads $t]: exit $code: $(head -c 300 "$work/err")"
			exit 1
		fi
		first=$(sed 's/[0-9.]* [KMG]iB/SIZE/g' "$work/err")
	done
	echo "endless line: $f: exit $code: $(cat "$work/err")"
done

cmds=(
	"fit -i IN/labels.csv -m rfe -o OUT/a.csv -q"
	"fit -i IN/labels.csv -m mv -o OUT/a.csv -q"
	"fit -i IN/labels.csv -m la-ds -o OUT/a.csv --workers OUT/w.csv -q"
	"fit -i IN/labels.csv -m da-glad -g IN/gold.csv -o OUT/a.parquet --workers OUT/w.jsonl -q"
	"fit -i IN/labels.parquet -m da-mme -o OUT/a.csv.gz -q"
	"fit -i IN/labels.csv -m la-ds --init-workers IN/workers.csv -o OUT/a.csv -q"
	"report -i IN/labels.csv -g IN/gold.csv --bootstrap 20 -o OUT/r.html -q"
	"compare -i IN/labels.csv --models rfe,la-ds --splits 1 --bootstrap 10 -q"
	"next -i IN/labels.csv --budget 100 -o OUT/a.csv --workers OUT/w.csv --tasks OUT/t.csv --intervals 0.9"
	"eval -p IN/pred.csv -g IN/gold.csv"
	"simulate --objects 20000 -o OUT/s.csv --truth OUT/t.csv"
	"stdin-parquet"
)
faults=(sigint sigterm full readonly)

# state lists every file under $fs with its checksum, except $TMPDIR.
state() { (cd "$fs" && find . -path ./tmp -prune -o -type f -print0 | sort -z | xargs -0 -r sha256sum); }
tried=0 passed=0
fail() { echo "FAIL [$1]: $2"; }
end=$((SECONDS + budget))
while [ $SECONDS -lt $end ]; do
	for c in "${cmds[@]}"; do
		for f in "${faults[@]}"; do
			[ $SECONDS -lt $end ] || break 2
			args=${c//IN/$fs/in}
			args=${args//OUT/$fs/out}
			# Old outputs exist in half of the cases.
			if [ $((RANDOM % 2)) = 0 ]; then
				for o in a.csv w.csv a.parquet w.jsonl a.csv.gz r.html s.csv t.csv; do echo old > "$fs/out/$o"; done
			else
				rm -f "$fs/out"/*
			fi
			before=$(state)
			tried=$((tried + 1))
			name="$c / $f"
			ok=1
			case $f in
			sigint | sigterm)
				sig=INT
				[ $f = sigterm ] && sig=TERM
				feeder=
				if [ "$c" = stdin-parquet ]; then
					# Standard input stays open for 5 s after the file, so the
					# signal may come while the program waits for more.
					rm -f "$work/pipe"
					mkfifo "$work/pipe"
					sh -c 'cat "$1"; exec sleep 5' sh "$fs/in/labels.parquet" >"$work/pipe" &
					feeder=$!
					"$bin" fit -i - --format parquet -m la-ds -o "$fs/out/a.csv" -q <"$work/pipe" 2>"$work/err" &
				else
					# shellcheck disable=SC2086
					"$bin" $args >/dev/null 2>"$work/err" &
				fi
				pid=$!
				sleep "0.$((RANDOM % 8))$((RANDOM % 10))"
				kill -s $sig $pid 2>/dev/null || true
				set +e; wait $pid; code=$?; set -e
				if [ -n "$feeder" ]; then
					kill "$feeder" 2>/dev/null || true
					wait "$feeder" 2>/dev/null || true
				fi
				# 143 (killed by SIGTERM) only when the signal came before the
				# program set up its handler, before any work.
				if [ $code != 0 ] && [ $code != 130 ] && [ $code != 143 ]; then ok=0; fail "$name" "exit $code: $(head -c 300 "$work/err")"; fi
				if [ $code != 0 ] && [ "$(state)" != "$before" ]; then ok=0; fail "$name" "interrupted run changed files"; fi
				;;
			full)
				if [ "$mounted" = 1 ]; then
					fallocate -l 100G "$fs/filler" 2>/dev/null || dd if=/dev/zero of="$fs/filler" bs=1M 2>/dev/null || true
					before=$(state)
					set +e
					if [ "$c" = stdin-parquet ]; then "$bin" fit -i - --format parquet -m la-ds -o "$fs/out/a.csv" -q <"$fs/in/labels.parquet" 2>"$work/err"
					else "$bin" $args >/dev/null 2>"$work/err"; fi
					code=$?
					set -e
					rm -f "$fs/filler"
				else
					set +e
					if [ "$c" = stdin-parquet ]; then (ulimit -f 1; "$bin" fit -i - --format parquet -m la-ds -o "$fs/out/a.csv" -q <"$fs/in/labels.parquet" 2>"$work/err")
					else (ulimit -f 1; "$bin" $args >/dev/null 2>"$work/err"); fi
					code=$?
					set -e
				fi
				if [ $code -gt 2 ] && [ $code != 130 ]; then ok=0; fail "$name" "exit $code: $(head -c 300 "$work/err")"; fi
				if [ $code != 0 ] && [ "$(state | grep -v filler)" != "$(echo "$before" | grep -v filler)" ]; then ok=0; fail "$name" "failed run changed files"; fi
				if grep -q "goroutine\|panic" "$work/err"; then ok=0; fail "$name" "crash: $(head -c 300 "$work/err")"; fi
				;;
			readonly)
				if [ "$mounted" = 1 ]; then mount -o remount,ro "$fs"; elif [ "$(id -u)" != 0 ]; then chmod a-w "$fs/out"; else tried=$((tried - 1)); continue; fi
				set +e
				if [ "$c" = stdin-parquet ]; then "$bin" fit -i - --format parquet -m la-ds -o "$fs/out/a.csv" -q <"$fs/in/labels.parquet" 2>"$work/err"
				else "$bin" $args >/dev/null 2>"$work/err"; fi
				code=$?
				set -e
				if [ "$mounted" = 1 ]; then mount -o remount,rw "$fs"; else chmod u+w "$fs/out"; fi
				if [ $code -gt 2 ]; then ok=0; fail "$name" "exit $code: $(head -c 300 "$work/err")"; fi
				if [ "$(state)" != "$before" ]; then ok=0; fail "$name" "run on a read-only directory changed files"; fi
				;;
			esac
			left=$(find "$fs/out" "$fs/in" "$TMPDIR" -name '.*.tmp-*' -o -name 'consensus-*' | head -3)
			if [ -n "$left" ]; then ok=0; fail "$name" "temporary files left: $left"; rm -f $left; fi
			[ $ok = 1 ] && passed=$((passed + 1))
		done
	done
done
echo "fault injection: $tried cases tried, $passed passed (tmpfs: $mounted)"
[ "$tried" = "$passed" ]

#!/bin/sh
# bench-scaling.sh: cost of the planar bar chain against its number of bars N (issue 15,
# BENCHMARKS.md "Large models: scaling with N").
#
#   scripts/bench-scaling.sh [-k K] [-m "hht bdf radau5 dopri5"] [N ...]   (default N: 10 100 1000 10000)
#
# For every N and method it runs `linkage run` on examples/chain-bars.yaml with N
# substituted, --json, to t_end = T1 and to T2 (env T1, T2; default 0.1 s and 0.3 s),
# each K times (default 3), interleaving the methods, and prints:
#   ms/step   steady state: (step_s(T2) − step_s(T1)) / (steps(T2) − steps(T1)), best of K
#             per end time, so the first step, the first factorizations and the method's
#             Init drop out;
#   setup_s   load, build, consistent start and the method's Init (setup_s of the run
#             summary), best of K;
#   rss_MB    peak resident memory of the T2 run (/usr/bin/time), smallest of K;
# then the log-log slope of each column between the second and the last N (100 and 10 000
# by default): 1 means linear growth. Needs go, awk and GNU time (/usr/bin/time).
set -eu

K=3
METHODS="hht bdf radau5 dopri5"
while getopts k:m: opt; do
	case $opt in
	k) K=$OPTARG ;;
	m) METHODS=$OPTARG ;;
	*) echo "usage: $0 [-k K] [-m METHODS] [N ...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
SIZES=${*:-10 100 1000 10000}
T1=${T1:-0.1}
T2=${T2:-0.3}

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/linkage" ./cmd/linkage)

# field NAME FILE: the number after "NAME": in the JSON summary FILE.
field() { sed -n "s/^ *\"$1\": *\([-0-9.eE+]*\),*$/\1/p" "$2" | head -n 1; }

# one N METHOD TEND: one run; prints "steps step_s setup_s rss_KB".
one() {
	"/usr/bin/time" -f %M -o "$tmp/rss" "$tmp/linkage" run "$tmp/chain$1.yaml" --method "$2" --t-end "$3" --json >"$tmp/out.json" 2>"$tmp/err" || {
		echo "bench-scaling: N = $1, $2, t_end $3 failed:" >&2
		cat "$tmp/err" "$tmp/out.json" >&2
		exit 1
	}
	echo "$(field steps "$tmp/out.json") $(field step_s "$tmp/out.json") $(field setup_s "$tmp/out.json") $(tail -n 1 "$tmp/rss")"
}

echo "# chain-bars (examples/chain-bars.yaml), tol from the file (1e-4), t_end $T1 and $T2 s, best of $K; $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
printf '%-8s %6s %10s %9s %8s %7s\n' method N ms/step setup_s rss_MB steps
: >"$tmp/table"
for n in $SIZES; do
	sed "s/N: 100,/N: $n,/" "$root/examples/chain-bars.yaml" >"$tmp/chain$n.yaml"
	: >"$tmp/runs$n"
	for _ in $(seq "$K"); do
		for m in $METHODS; do # interleaved: a slow spell of the machine hits every method
			echo "$m 1 $(one "$n" "$m" "$T1")" >>"$tmp/runs$n"
			echo "$m 2 $(one "$n" "$m" "$T2")" >>"$tmp/runs$n"
		done
	done
	for m in $METHODS; do
		awk -v m="$m" -v n="$n" '
			$1 != m { next }
			$2 == 1 && (s1 == "" || $4 < t1) { s1 = $3; t1 = $4 }
			$2 == 2 && (s2 == "" || $4 < t2) { s2 = $3; t2 = $4 }
			setup == "" || $5 < setup { setup = $5 }
			$2 == 2 && (rss == "" || $6 < rss) { rss = $6 }
			END {
				ms = (s2 > s1) ? 1e3 * (t2 - t1) / (s2 - s1) : -1
				printf "%-8s %6d %10.4g %9.4g %8.1f %7d\n", m, n, ms, setup, rss / 1024, s2
			}' "$tmp/runs$n" | tee -a "$tmp/table"
	done
done

set -- $SIZES
[ $# -ge 3 ] || exit 0
shift
lo=$1
for x in "$@"; do hi=$x; done
echo "# log-log slope from N = $lo to $hi (1: linear)"
printf '%-8s %10s %9s %8s\n' method ms/step setup_s rss_MB
for m in $METHODS; do
	awk -v m="$m" -v lo="$lo" -v hi="$hi" '
		$1 == m && $2 == lo { a = $3; b = $4; c = $5 }
		$1 == m && $2 == hi { A = $3; B = $4; C = $5 }
		END {
			r = log(hi / lo)
			printf "%-8s %10.2f %9.2f %8.2f\n", m, log(A / a) / r, log(B / b) / r, log(C / c) / r
		}' "$tmp/table"
done

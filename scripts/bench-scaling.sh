#!/bin/sh
# bench-scaling.sh: cost of the planar bar chain against its number of bars N (issue 15,
# BENCHMARKS.md "Large models: scaling with N").
#
#   scripts/bench-scaling.sh [-k K] [-m "hht bdf radau5 dopri5"] [N ...]   (default N: 10 100 1000 10000)
#
# For every N and method it runs `linkage run` on examples/chain-bars.yaml with N
# substituted, --json, to t_end = T1 and to T2 (env T1, T2; default 0.1 s and 0.3 s),
# each K times (default 3), interleaving the methods, and prints:
#   cpu_ms/step  steady state: (cpu(T2) − cpu(T1)) / (steps(T2) − steps(T1)), cpu the
#                integration's CPU time (user + system, every thread, the GC's included:
#                cpu_s of the run summary), least of K per end time, so the first steps
#                and the method's Init drop out. CPU time, because on a machine shared with
#                other jobs the wall time of a run can be several times its CPU time;
#   cpu_ms/newton the same per Newton iteration (implicit methods): the cost of the linear
#                algebra and the evaluations apart from how many iterations a step needs,
#                which depends on the chain's motion and so on N;
#   wall_ms/step the same from the run summary's step_s (wall time of the steps), best of K;
#   setup_cpu_s  the CPU time before the first step: process start, load, build,
#                consistent start and the method's Init (the summary's setup_cpu_s), least
#                of K; setup_s the same in wall time (setup_s), best of K;
#   rss_MB       peak resident memory of the T2 run (/usr/bin/time), least of K;
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

# one N METHOD TEND: one run; prints "steps step_s setup_s rss_KB cpu_s newton_iters setup_cpu_s".
one() {
	"/usr/bin/time" -f %M -o "$tmp/rss" "$tmp/linkage" run "$tmp/chain$1.yaml" --method "$2" --t-end "$3" --json >"$tmp/out.json" 2>"$tmp/err" || {
		echo "bench-scaling: N = $1, $2, t_end $3 failed:" >&2
		cat "$tmp/err" "$tmp/out.json" >&2
		exit 1
	}
	echo "$(field steps "$tmp/out.json") $(field step_s "$tmp/out.json") $(field setup_s "$tmp/out.json") $(tail -n 1 "$tmp/rss") $(field cpu_s "$tmp/out.json") $(field newton_iters "$tmp/out.json") $(field setup_cpu_s "$tmp/out.json")"
}

echo "# chain-bars (examples/chain-bars.yaml), tol from the file (1e-4), t_end $T1 and $T2 s, best of $K; $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
printf '%-8s %6s %12s %14s %13s %12s %9s %8s %7s\n' method N cpu_ms/step cpu_ms/newton wall_ms/step setup_cpu_s setup_s rss_MB steps
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
		# fields: method, 1|2 (T1|T2), steps, step_s, setup_s, rss_KB, cpu_s, newton_iters, setup_cpu_s
		awk -v m="$m" -v n="$n" '
			$1 != m { next }
			$2 == 1 && (w1 == "" || $4 < w1) { w1 = $4 } $2 == 1 && (c1 == "" || $7 < c1) { c1 = $7 }
			$2 == 2 && (w2 == "" || $4 < w2) { w2 = $4 } $2 == 2 && (c2 == "" || $7 < c2) { c2 = $7 }
			$2 == 1 { s1 = $3; i1 = $8 } $2 == 2 { s2 = $3; i2 = $8 }
			setup == "" || $5 < setup { setup = $5 }
			scpu == "" || $9 < scpu { scpu = $9 }
			$2 == 2 && (rss == "" || $6 < rss) { rss = $6 }
			END {
				cpu = (s2 > s1) ? 1e3 * (c2 - c1) / (s2 - s1) : -1
				newton = (i2 > i1) ? sprintf("%.4g", 1e3 * (c2 - c1) / (i2 - i1)) : "-"
				wall = (s2 > s1) ? 1e3 * (w2 - w1) / (s2 - s1) : -1
				printf "%-8s %6d %12.4g %14s %13.4g %12.4g %9.4g %8.1f %7d\n", m, n, cpu, newton, wall, scpu, setup, rss / 1024, s2
			}' "$tmp/runs$n" | tee -a "$tmp/table"
	done
done

set -- $SIZES
[ $# -ge 3 ] || exit 0
shift
lo=$1
for x in "$@"; do hi=$x; done
echo "# log-log slope from N = $lo to $hi (1: linear)"
printf '%-8s %12s %14s %13s %12s %9s %8s\n' method cpu_ms/step cpu_ms/newton wall_ms/step setup_cpu_s setup_s rss_MB
for m in $METHODS; do
	awk -v m="$m" -v lo="$lo" -v hi="$hi" '
		$1 == m && $2 == lo { for (i = 3; i <= 8; i++) a[i] = $i }
		$1 == m && $2 == hi { for (i = 3; i <= 8; i++) b[i] = $i }
		function slope(i) { return (a[i] > 0 && b[i] > 0) ? sprintf("%.2f", log(b[i] / a[i]) / log(hi / lo)) : "-" }
		END { printf "%-8s %12s %14s %13s %12s %9s %8s\n", m, slope(3), slope(4), slope(5), slope(6), slope(7), slope(8) }' "$tmp/table"
done

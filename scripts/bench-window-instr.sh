#!/bin/sh
# bench-window-instr.sh: instructions per step of hht, bdf, radau5 and dopri5 on the planar
# bar chain against its number of bars N, counted by callgrind, which the load of a shared
# machine does not move (issue 15 item 5; BENCHMARKS.md "bdf's cost per step against N by
# instructions").
#
#   scripts/bench-window-instr.sh [-m "hht bdf radau5 dopri5"] [N ...]   (N of 100 1000 10000, the default)
#
# For every method and N it runs BenchmarkChainBarsWindow (package problems) once under
# callgrind with GOGC=off, counting only stepWindow: the steps of a run Step(0.3) from the
# consistent start that begin at t >= 0.1, tolerance 1e-4 (bench-scaling.sh's window). It
# prints the window's steps, instructions per step and per Newton iteration, and the
# benchmark's counts per step (Newton iterations, Jacobians, factorizations), then the
# log-log slope of the instructions per step and per Newton iteration between the first
# and the last N (1: linear). Slow: callgrind runs some 30 times slower than the program
# (bdf at 10 000 bars: about 5 min of CPU); needs go, valgrind and awk.
set -eu

METHODS="hht bdf radau5 dopri5"
while getopts m: opt; do
	case $opt in
	m) METHODS=$OPTARG ;;
	*) echo "usage: $0 [-m METHODS] [N ...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
SIZES=${*:-100 1000 10000}

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go test -c -o "$tmp/p.test" ./problems)

# metric NAME FILE: the value before the unit NAME on the benchmark's line in FILE.
metric() { awk -v u="$1" '/^BenchmarkChainBarsWindow/ { for (i = 2; i <= NF; i++) if ($i == u) print $(i - 1) }' "$2"; }

echo "# chain-bars:N, tol 1e-4, window t in [0.1, 0.3) of Step(0.3); callgrind instructions of stepWindow; $(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-8s %6s %6s %14s %14s %10s %10s %10s\n' method N steps instr/step instr/newton newton/st jac/step fact/step
: >"$tmp/table"
for n in $SIZES; do
	for m in $METHODS; do
		(cd "$root/problems" && GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind \
			--callgrind-out-file=/dev/null --toggle-collect='*stepWindow' "$tmp/p.test" -test.run XXX \
			-test.bench "ChainBarsWindow/$m/N=$n\$/part=window\$" -test.benchtime 1x) >"$tmp/out" 2>&1 || {
			echo "bench-window-instr: $m, N = $n failed:" >&2
			cat "$tmp/out" >&2
			exit 1
		}
		if [ -z "$(metric steps "$tmp/out")" ]; then
			echo "bench-window-instr: N = $n is not one of BenchmarkChainBarsWindow's (100, 1000, 10000)" >&2
			exit 1
		fi
		ir=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$tmp/out" | tail -n 1)
		echo "$m $n $(metric steps "$tmp/out") $ir $(metric newton/step "$tmp/out") $(metric jacobians/step "$tmp/out") $(metric factors/step "$tmp/out")" |
			awk '{ st = $3; per = $4 / st; it = ($5 > 0) ? sprintf("%.4g", per / $5) : "-"
				printf "%-8s %6d %6d %14.4g %14s %10.3f %10.3f %10.3f\n", $1, $2, st, per, it, $5, $6, $7 }' | tee -a "$tmp/table"
	done
done

set -- $SIZES
[ $# -ge 2 ] || exit 0
lo=$1
for x in "$@"; do hi=$x; done
echo "# log-log slope from N = $lo to $hi (1: linear)"
printf '%-8s %12s %14s\n' method instr/step instr/newton
for m in $METHODS; do
	awk -v m="$m" -v lo="$lo" -v hi="$hi" '
		$1 == m && $2 == lo { a4 = $4; a5 = $5 }
		$1 == m && $2 == hi { b4 = $4; b5 = $5 }
		function slope(a, b) { return (a > 0 && b > 0) ? sprintf("%.3f", log(b / a) / log(hi / lo)) : "-" }
		END { printf "%-8s %12s %14s\n", m, slope(a4, b4), slope(a5, b5) }' "$tmp/table"
done

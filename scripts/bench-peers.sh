#!/bin/sh
# bench-peers.sh: linkage against SUNDIALS IDA + KLU and against Simbody on chains, in one
# run (issue 15, BENCHMARKS.md "Large models: against IDA and Simbody"). A manual command,
# not a test: it needs the peers' libraries, which linkage itself never does:
#
#   apt-get install -y libsundials-dev libsuitesparse-dev libsimbody-dev pkg-config
#   scripts/bench-peers.sh [-k K] [ida|simbody|counts ...]  (default: ida and simbody, K = 3)
#
# The harnesses are built from ../shared/peers (env PEERS) into a temporary folder:
# ida_chain.c (IDA, GGL form, KLU: a chain of point masses; scripts/peers/ida_chain.c, a copy
# with IDA's work counters added (-counts), is built instead) and simbody/sbchain.cpp
# (Simbody 3.7, relative coordinates, Runge-Kutta-Merson; Debian builds it without
# -DNDEBUG). Every configuration runs K times, interleaved with the others, and keeps its
# least time.
#
# Times are CPU times (user + system), read from the rusage of each process by a small
# helper built here (microseconds; GNU time prints 10 ms): on a machine shared with other
# jobs the wall time of a run swings several-fold, its CPU time far less.
#   process_s  the whole process: for linkage loading the file, building the model, the
#              consistent start and the integration; for the peers building their system
#              and integrating;
#   integ_s    linkage's run alone (cpu_s of its run summary): the method's Init, the
#              steps, the residual measure after each step, the output samples and
#              their CSV rows; not the loading, building and consistent start.
#
# ida: per step. linkage's planar bar chain of N bars (examples/chain-bars.yaml; bdf in its
#   default GGL form, and hht) against IDA's chain of N_ida point masses with the same
#   number of unknowns in the GGL form: 10 N (q, v: 3N each; λ, μ: 2N each) = 6 N_ida
#   (q, v: 2N_ida each; λ, μ: N_ida each), so N_ida = 5N/3; N = 100 and 1000, t_end = 1 s,
#   tol 1e-4 and 1e-6 (IDA: rtol = atol = 10^-k). µs/step: linkage integ_s, IDA process_s
#   (nearly all of it IDASolve), over the steps. IDA returns the state at t_end alone, so
#   linkage's chain here records one channel (the last bar's x) at t_end alone (the same
#   steps as with every coordinate at every 0.01 s: the samples are interpolated), and
#   integ_s is its integration with little output. The problems differ, so the whole runs
#   are shown, not compared.
# counts: the work behind the ida part's µs/step, counts that the machine's load does not
#   move: per step, Newton iterations, residual evaluations, Jacobian evaluations and
#   factorizations (IDA: nsetups, each one Jacobian and one KLU refactorization; linkage:
#   Stats; `run --json` has no residual count: bdf evaluates one per Newton iteration),
#   Newton (convergence) and error-test failures, for IDA's point-mass chain and
#   linkage's bdf and hht on the bar chain, same N, tolerances and t_end as the ida part;
#   IDA's steps per order 1-5 and the nonzeros per unknown of its Jacobian and KLU's L + U.
# simbody: CPU time at equal accuracy. The planar chain (sbchain pin, linkage
#   examples/chain-bars.yaml) at N = 100 and 1000 and the 3D chain on spherical joints
#   (sbchain ball, linkage examples/chain3d.yaml at rest, w = 0) at N = 100, 400 and 1000,
#   released at rest along +x, t_end = 0.5 s; linkage hht and dopri5 at tol 1e-3 … 1e-6,
#   Simbody at accuracy 1e-3 … 1e-6. Error = max over the rods of |tip − reference| at
#   t_end (the far end of the last rod alone is still in free fall at t_end on long
#   chains, so it says little); the reference is Simbody at accuracy 1e-10 on the planar
#   chain, which serves the 3D chain as well (at rest the rods stay in the x-z plane and
#   move as the planar bars, y ↔ z; the rods' axial inertia, 1e-4 in sbchain and
#   m r²/2 = 5e-5 in chain3d.yaml, does not enter), checked at N = 100 against linkage
#   radau5 at tol 1e-10. Each chain runs on both of linkage's routes (env ROUTES, default
#   "body joint"): the body route (hht, dopri5) and the joint route (`coordinates: joint`,
#   package joint: the same coordinates as Simbody's Pin/Ball chains, eq. 17 by the O(N)
#   articulated-body recursion; engines j-dopri5 at tol 1e-3 … 1e-6 and j-rk4 at h = 0.01,
#   0.005, 0.0025 s); a Cardan check prints the largest |y|, |p1|, |p3| of the 3D joint
#   route's rods over a run (zero: the rods turn about y alone, the middle Cardan angle
#   stays 0, far from its singularity at ±90°). Env CHAINS picks the chains (default
#   "pin:100 pin:1000 ball:100 ball:400 ball:1000"). "at matched error": Simbody's process_s interpolated (log-log) at
#   linkage's error between the two Simbody runs around it, and the ratios of linkage's
#   process_s and integ_s to it.
set -eu

K=3
ROUTES=${ROUTES:-body joint}
CHAINS=${CHAINS:-pin:100 pin:1000 ball:100 ball:400 ball:1000}
while getopts k: opt; do
	case $opt in
	k) K=$OPTARG ;;
	*) echo "usage: $0 [-k K] [ida|simbody|counts ...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
PARTS=${*:-ida simbody}

root=$(cd "$(dirname "$0")/.." && pwd)
peers=${PEERS:-$root/../shared/peers}
[ -f "$peers/ida_chain.c" ] && [ -f "$peers/simbody/sbchain.cpp" ] || {
	echo "bench-peers: no harnesses in $peers (ida_chain.c, simbody/sbchain.cpp); set PEERS" >&2
	exit 2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
(cd "$root" && go build -o "$tmp/linkage" ./cmd/linkage)
idasrc=$peers/ida_chain.c
[ -f "$root/scripts/peers/ida_chain.c" ] && idasrc=$root/scripts/peers/ida_chain.c
gcc -O2 -I/usr/include/suitesparse -o "$tmp/ida_chain" "$idasrc" \
	-lsundials_ida -lsundials_nvecserial -lsundials_sunlinsoldense -lsundials_sunmatrixdense \
	-lsundials_sunlinsolklu -lsundials_sunmatrixsparse -lklu -lm
g++ -O2 -o "$tmp/sbchain" "$peers/simbody/sbchain.cpp" $(pkg-config --cflags --libs simbody)
cat >"$tmp/cpurun.go" <<'EOF'
// cpurun FILE CMD ARGS...: runs CMD and writes its CPU time (user + system, s) to FILE.
package main

import (
	"fmt"
	"os"
	"os/exec"
)

func main() {
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err := cmd.Run()
	if st := cmd.ProcessState; st != nil {
		os.WriteFile(os.Args[1], []byte(fmt.Sprintf("%.6f\n", (st.UserTime()+st.SystemTime()).Seconds())), 0o644)
	}
	if err != nil {
		os.Exit(1)
	}
}
EOF
(cd "$tmp" && go build -o "$tmp/cpurun" cpurun.go)

# jfield NAME FILE: the number after "NAME": in the JSON of FILE (one object, any layout).
jfield() { tr ',{' '\n\n' <"$2" | sed -n "s/^ *\"$1\": *\([-0-9.eE+]*\) *$/\1/p" | head -n 1; }

# chain N DIM [ROUTE]: a model file of the chain with N bodies at rest, recording every
# body's coordinates (the default outputs: per body x, y, θ in 2D; x, y, z, p0 … p3 in 3D,
# in joint coordinates too). ROUTE joint adds `coordinates: joint` (package joint: one angle
# per bar, three Cardan angles per spherical joint, no constraints).
chain() {
	f=$tmp/chain$2d$1${3:-body}.yaml
	if [ "$2" = 2 ]; then
		sed -e "s/N: 100,/N: $1,/" -e '/^  outputs: /d' "$root/examples/chain-bars.yaml" >"$f"
	else
		sed -e "s/N: 20,/N: $1,/" -e 's/w: 1}/w: 0}/' -e '/^  outputs: /d' "$root/examples/chain3d.yaml" >"$f"
	fi
	if [ "${3:-body}" = joint ]; then
		sed -i 's/^gravity:/coordinates: joint\n&/' "$f"
	fi
	echo "$f"
}

# tipchain N: the planar chain of N bars recording the last bar's x at t_end alone (the ida
# part: IDA writes no trajectory either).
tipchain() {
	f=$tmp/tipchain$1.yaml
	sed -e "s/N: 100,/N: $1,/" -e 's/^  outputs: .*/  outputs: ["bar${N}.x"]/' \
		-e 's/^  output_step: .*/  output_step: 1/' -e '/^  plot: /d' "$root/examples/chain-bars.yaml" >"$f"
	echo "$f"
}

# lrun FILE METHOD TOL TEND: one linkage run; sets steps, proc (process CPU s) and integ
# (the integration's CPU s) and leaves the CSV header and last row in $tmp/last. TOL h=H
# runs a fixed step H instead (rk4). A failed run stops the script.
lrun() {
	acc="--tol $3"
	case $3 in h=*) acc="--h ${3#h=}" ;; esac
	"$tmp/cpurun" "$tmp/cpu" "$tmp/linkage" run "$1" --method "$2" $acc --t-end "$4" --json --out "$tmp/run.csv" >"$tmp/run.json" 2>"$tmp/err" || {
		echo "bench-peers: linkage run $1 --method $2 $acc failed:" >&2
		cat "$tmp/err" "$tmp/run.json" >&2
		exit 1
	}
	head -n 1 "$tmp/run.csv" >"$tmp/last"
	tail -n 1 "$tmp/run.csv" >>"$tmp/last"
	steps=$(jfield steps "$tmp/run.json") integ=$(jfield cpu_s "$tmp/run.json") proc=$(cat "$tmp/cpu")
}

# tips DIM: the far tip (x, y, z) of every rod, one per line, from $tmp/last (the CSV
# header, then the last row): centre + R (L/2, 0, 0), L = 0.5, each body's coordinates
# starting at its column BODY.x.
tips() {
	awk -F, -v dim="$1" -v h=0.25 '
		NR == 1 { for (c = 1; c <= NF; c++) if ($c ~ /\.x$/) start[++n] = c; next }
		{ for (k = 1; k <= n; k++) {
			c = start[k]
			if (dim == 2) { printf "%.15g %.15g 0\n", $c + h * cos($(c+2)), $(c+1) + h * sin($(c+2)); continue }
			p0 = $(c+3); p1 = $(c+4); p2 = $(c+5); p3 = $(c+6) # first column of R(p)
			printf "%.15g %.15g %.15g\n", $c + h * (p0*p0 + p1*p1 - p2*p2 - p3*p3), $(c+1) + h * 2 * (p1*p2 + p0*p3), $(c+2) + h * 2 * (p1*p3 - p0*p2)
		} }' "$tmp/last"
}

# maxdist DIM TIPS REF: max over the rods of |tip − reference|, the planar reference tips
# (x, y) placed in the x-y plane (DIM 2) or the x-z plane (DIM 3).
maxdist() {
	awk -v d="$1" 'NR == FNR { x[FNR] = $1; y[FNR] = $2; nref = FNR; next }
		{ n++; e = (d == 2) ? sqrt(($1-x[FNR])^2 + ($2-y[FNR])^2) : sqrt(($1-x[FNR])^2 + $2^2 + ($3-y[FNR])^2); m = (e > m) ? e : m }
		END { if (n != nref) { print "maxdist: " n " tips, " nref " in the reference" > "/dev/stderr"; exit 1 }; printf "%.3e\n", m }' "$3" "$2"
}

# methods ROUTE: linkage's methods on a route: the body route's best implicit and explicit
# methods; the joint route's explicit ones (no constraints: eq. 17 is the articulated-body
# recursion alone; its implicit methods are slower at every size measured).
methods() { if [ "$1" = joint ]; then echo dopri5 rk4; else echo hht dopri5; fi; }

# accuracies METHOD: the tolerances, or for rk4 the fixed steps, of its runs.
accuracies() { if [ "$1" = rk4 ]; then echo h=0.01 h=0.005 h=0.0025; else echo 1e-3 1e-4 1e-5 1e-6; fi; }

# label ROUTE METHOD: the engine column, j- marking the joint route.
label() { if [ "$1" = joint ]; then echo "j-$2"; else echo "$2"; fi; }

# sbrun MODEL N ACC TEND: one Simbody run; sets steps and proc (process CPU s) and writes
# every rod's tip at TEND to $tmp/sbtips. A failed run stops the script.
sbrun() {
	SB_DUMP=$tmp/sbtips "$tmp/cpurun" "$tmp/cpu" "$tmp/sbchain" "$1" "$2" rkm "$3" "$4" >"$tmp/sb.json" || {
		echo "bench-peers: sbchain $* failed:" >&2
		cat "$tmp/sb.json" >&2
		exit 1
	}
	steps=$(jfield steps "$tmp/sb.json") proc=$(cat "$tmp/cpu")
}

echo "# bench-peers, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, CPU times, least of $K"

case " $PARTS " in *" ida "*)
	echo "## linkage bar chain vs IDA+KLU point-mass chain, same number of unknowns (GGL), t_end 1 s"
	: >"$tmp/ida"
	for _ in $(seq "$K"); do
		for n in 100 1000; do
			f=$(tipchain "$n")
			ni=$(((5 * n + 1) / 3))
			for k in 4 6; do
				"$tmp/cpurun" "$tmp/cpu" "$tmp/ida_chain" -n "$ni" -klu -k "$k" -tend 1 -reps 1 -noheader >"$tmp/ida.out"
				set -- $(cat "$tmp/ida.out")
				echo "$n ida 1e-$k $4 $(cat "$tmp/cpu") $(cat "$tmp/cpu")" >>"$tmp/ida" # steps, process, integration
				for m in bdf hht; do
					lrun "$f" "$m" "1e-$k" 1
					echo "$n $m 1e-$k $steps $proc $integ" >>"$tmp/ida"
				done
			done
		done
	done
	printf '%6s %7s %6s %6s %10s %9s %9s %12s\n' N engine tol steps process_s integ_s us/step vs_IDA/step
	awk '
		{ key = $1 " " $2 " " $3
		  if (!(key in p) || $5 < p[key]) p[key] = $5
		  if (!(key in t) || $6 < t[key]) t[key] = $6
		  s[key] = $4; if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
		END {
			for (i = 1; i <= n; i++) {
				split(order[i], a, " "); key = order[i]; ref = a[1] " ida " a[3]
				us = 1e6 * t[key] / s[key]; usi = 1e6 * t[ref] / s[ref]
				printf "%6s %7s %6s %6d %10.4g %9.4g %9.4g %12.3g\n", a[1], (a[2] == "ida" ? "IDA+KLU" : a[2]), a[3], s[key], p[key], t[key], us, us / usi
			}
		}' "$tmp/ida"
	;;
esac

case " $PARTS " in *" counts "*)
	echo "## work per step: IDA+KLU point-mass chain (N_ida = 5N/3) vs linkage bar chain (N), t_end 1 s"
	printf '%6s %7s %6s %6s %9s %9s %9s %9s %9s\n' N engine tol steps newton/st res/st jac/st Nfail etf
	for n in 100 1000; do
		ni=$(((5 * n + 1) / 3))
		f=$(chain "$n" 2)
		for k in 4 6; do
			"$tmp/ida_chain" -n "$ni" -klu -k "$k" -tend 1 -reps 1 -noheader -counts >"$tmp/ida.out"
			set -- $(grep '^# counts' "$tmp/ida.out")
			# "# counts steps S nsetups J nje J nre R nni I ncfn C netf E order1-5 o1..o5 hgeo H
			#  matrix_nnz A klu_LU_nnz B klu_offdiag_nnz Z"
			awk -v n="$n" -v k="$k" -v s="$4" -v j="$6" -v r="${10}" -v i="${12}" -v c="${14}" -v e="${16}" \
				-v o="${18} ${19} ${20} ${21} ${22}" -v a="${26}" -v b="${28}" -v ni="$ni" 'BEGIN {
				printf "%6s %7s %6s %6d %9.2f %9.2f %9.3f %9d %9d   orders 1-5: %s; nnz/unknown: matrix %.1f, L+U %.1f\n",
					n, "IDA+KLU", "1e-" k, s, i / s, r / s, j / s, c, e, o, a / (6 * ni), b / (6 * ni) }'
			for m in bdf hht; do
				lrun "$f" "$m" "1e-$k" 1
				awk -v n="$n" -v k="$k" -v m="$m" -v s="$steps" \
					-v i="$(jfield newton_iters "$tmp/run.json")" \
					-v j="$(jfield jacobians "$tmp/run.json")" -v c="$(jfield newton_failures "$tmp/run.json")" \
					-v e="$(jfield rejected "$tmp/run.json")" 'BEGIN {
					printf "%6s %7s %6s %6d %9.2f %9s %9.3f %9d %9d\n", n, m, "1e-" k, s, i / s, "-", j / s, c, e }'
			done
		done
	done
	;;
esac

case " $PARTS " in *" simbody "*)
	tend=0.5
	echo "## linkage vs Simbody (RKM) at equal accuracy: max over the rods of |tip − reference| at t_end $tend s"
	for n in $(echo "$CHAINS" | tr ' ' '\n' | sed 's/.*://' | sort -un); do
		sbrun pin "$n" 1e-10 "$tend"
		cp "$tmp/sbtips" "$tmp/ref$n"
	done
	lrun "$(chain 100 2)" radau5 1e-10 "$tend"
	tips 2 >"$tmp/ltips"
	echo "reference check, N = 100: linkage radau5 at tol 1e-10 differs from Simbody at 1e-10 by $(maxdist 2 "$tmp/ltips" "$tmp/ref100") m (max over the rods' tips)"
	case " $ROUTES " in *" joint "*)
		# The same mechanisms on the joint route: its chains at tol 1e-10 against the
		# reference; and its Cardan angles (z, x, y) stay clear of their singularity
		# (middle angle ±90°) when the rods turn about y alone: y, p1 and p3 of every rod
		# stay zero at every output row.
		lrun "$(chain 100 2 joint)" dopri5 1e-10 "$tend"
		tips 2 >"$tmp/ltips"
		echo "reference check, N = 100, 2D joint route: dopri5 at tol 1e-10 differs by $(maxdist 2 "$tmp/ltips" "$tmp/ref100") m"
		lrun "$(chain 100 3 joint)" dopri5 1e-10 "$tend"
		tips 3 >"$tmp/ltips"
		echo "reference check, N = 100, 3D joint route: dopri5 at tol 1e-10 differs by $(maxdist 3 "$tmp/ltips" "$tmp/ref100") m; Cardan check: max |y|, |p1|, |p3| over the rods and output rows $(awk -F, 'NR == 1 { for (c = 1; c <= NF; c++) if ($c ~ /\.(y|p1|p3)$/) k[c] = 1; next }
			{ for (c in k) { x = ($c < 0) ? -$c : $c; m = (x > m) ? x : m } } END { printf "%.3g\n", m }' "$tmp/run.csv")"
		;;
	esac
	: >"$tmp/sb"
	for _ in $(seq "$K"); do
		for c in $CHAINS; do
			model=${c%:*} n=${c#*:} dim=2
			[ "$model" = ball ] && dim=3
			for acc in 1e-3 1e-4 1e-5 1e-6; do
				sbrun "$model" "$n" "$acc" "$tend"
				echo "$model $n simbody $acc $steps $proc $proc $(maxdist "$dim" "$tmp/sbtips" "$tmp/ref$n")" >>"$tmp/sb"
			done
			for route in $ROUTES; do
				f=$(chain "$n" "$dim" "$route")
				for m in $(methods "$route"); do
					for tol in $(accuracies "$m"); do
						lrun "$f" "$m" "$tol" "$tend"
						tips "$dim" >"$tmp/ltips"
						echo "$model $n $(label "$route" "$m") $tol $steps $proc $integ $(maxdist "$dim" "$tmp/ltips" "$tmp/ref$n")" >>"$tmp/sb"
					done
				done
			done
		done
	done
	printf '%5s %5s %8s %6s %6s %10s %9s %10s %12s %10s %9s\n' chain N engine tol steps process_s integ_s error simbody_s ratio_proc ratio_int
	awk '
		{ key = $1 " " $2 " " $3 " " $4
		  if (!(key in p) || $6 < p[key]) p[key] = $6
		  if (!(key in t) || $7 < t[key]) t[key] = $7
		  st[key] = $5; err[key] = $8
		  if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
		END {
			for (i = 1; i <= n; i++) {
				split(order[i], a, " "); key = order[i]
				# Simbody at the same error: log-log between the two runs around err
				sim = "-"; rp = "-"; ri = "-"
				if (a[3] != "simbody") {
					lo = ""; hi = ""
					for (j = 1; j <= n; j++) {
						split(order[j], b, " ")
						if (b[1] != a[1] || b[2] != a[2] || b[3] != "simbody") continue
						if (err[order[j]] >= err[key] && (lo == "" || err[order[j]] < err[lo])) lo = order[j]
						if (err[order[j]] <= err[key] && (hi == "" || err[order[j]] > err[hi])) hi = order[j]
					}
					if (lo != "" && hi != "") {
						if (lo == hi) tsim = p[lo]
						else {
							w = log(err[key] / err[lo]) / log(err[hi] / err[lo])
							tsim = exp(log(p[lo]) + w * (log(p[hi]) - log(p[lo])))
						}
						sim = sprintf("%.4g", tsim); rp = sprintf("%.3g", p[key] / tsim); ri = sprintf("%.3g", t[key] / tsim)
					}
				}
				printf "%5s %5s %8s %6s %6d %10.4g %9.4g %10.2e %12s %10s %9s\n", (a[1] == "pin" ? "2D" : "3D"), a[2], a[3], a[4], st[key], p[key], t[key], err[key], sim, rp, ri
			}
		}' "$tmp/sb"
	;;
esac

package integrate

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"linkage/joint"
)

// krylovComparison is a run of a method on a joint system's Newton-Krylov path against
// the same method's dense path (MassSolve hidden) and a dense radau5 reference at 1e-10.
type krylovComparison struct {
	dKD, eK, eD float64 // |krylov − dense|, and each path's error against the reference
}

// compareKrylovDense runs kry on sys and dense on sys with MassSolve hidden (radau5:
// MassMul hidden, so that it scales its dynamic rows as the Krylov path does) from s to tEnd
// at tol, checks that kry took the Newton-Krylov path (onPath) without dense fallbacks and
// that its steps allocate nothing, and returns the distances of the final positions.
func compareKrylovDense(t *testing.T, kry, dense Method, onPath func() bool, sys *joint.System, s State, ref []float64, tol, tEnd float64) krylovComparison {
	t.Helper()
	runTo(t, kry, sys, s, tEnd, StepControl{RTol: tol, ATol: tol})
	denseSys := hideMassSolver(sys)
	if _, ok := dense.(*Radau5); ok {
		denseSys = hideMassMultiplier(sys) // the same scaled rows (radauMassRows)
	}
	runTo(t, dense, denseSys, s, tEnd, StepControl{RTol: tol, ATol: tol})
	if !onPath() {
		t.Fatalf("the Krylov run did not take the Newton-Krylov path")
	}
	kq, dq := kry.Current().Q, dense.Current().Q
	c := krylovComparison{maxDiff(kq, dq), maxDiff(kq, ref), maxDiff(dq, ref)}
	ks, ds := kry.Stats(), dense.Stats()
	t.Logf("|krylov − dense| %.1e, error krylov %.1e dense %.1e; steps %d / %d, newton %d / %d, f evals %d / %d",
		c.dKD, c.eK, c.eD, ks.Steps, ds.Steps, ks.NewtonIters, ds.NewtonIters, ks.FuncEvals, ds.FuncEvals)
	if ks.DenseFallbacks != 0 {
		t.Errorf("%d dense fallbacks on a non-stiff model", ks.DenseFallbacks)
	}
	if a := testing.AllocsPerRun(10, func() {
		if err := kry.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("step: %g allocations, want 0", a)
	}
	return c
}

// within checks the paths' agreement: |krylov − dense| ≤ frac·(dense error) and the Krylov
// error at most grow times the dense one.
func (c krylovComparison) within(t *testing.T, frac, grow float64) {
	t.Helper()
	if c.dKD > frac*c.eD || c.eK > grow*c.eD {
		t.Errorf("|krylov − dense| = %.2e, errors krylov %.2e dense %.2e: want at most %g of the dense error apart and the Krylov error at most %g times the dense one",
			c.dKD, c.eK, c.eD, frac, grow)
	}
}

// denseReference is the final q of a dense radau5 run at 1e-10 from s to tEnd (with the
// scaled dynamic rows, radauMassRows: 0.1 s instead of 4 on the 4-rod chain).
func denseReference(t *testing.T, sys *joint.System, s State, tEnd float64) []float64 {
	ref := &Radau5{}
	runTo(t, ref, hideMassMultiplier(sys), s, tEnd, StepControl{RTol: 1e-10, ATol: 1e-10})
	return ref.Current().Q
}

// TestRadau5MassNewtonMatchesDense: on the joint route's 3D chain, planar chain and
// cut-joint four-bar, radau5 in each of its forms with the Newton-Krylov corrector
// (radauKrylov) lands where radau5 with its dense Newton matrices lands, without dense
// fallbacks and without a stored n×n matrix, and its steps allocate nothing; both scale
// the dynamic rows (radauMassRows). ggl and
// index2: the paths differ by at most a quarter of the dense path's error against a
// dense radau5 run at 1e-10, and the Krylov error is at most 1.25 times the dense one
// (measured at the forcing term 1e-3: 0.03 to 0.2 of the error, 0.8 to 1.1 times it; at
// 1e-2 the four-bar's paths differed by 0.8 of the error, at 1e-5 by 1e-3 of it).
// index3: the Krylov error is at most 3 times the dense one (1e-4 at tol 1e-6 on the
// chain: v and a are index-2 and -3 variables there; measured 0.3 to 1.8 times); its
// step sequences part at rounding level (measured: with the forcing term at 1e-5 the
// paths still differed by 2e-4 on the four-bar against errors of 3e-4 and 7e-5).
func TestRadau5MassNewtonMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	for _, c := range jointMassCases {
		sys, s := c.make(t)
		ref := denseReference(t, sys, s, tEnd)
		for _, form := range []Formulation{StabilizedIndex2, Index2, Index3} {
			t.Run(fmt.Sprint(c.name, "/", form), func(t *testing.T) {
				kry, dense := &Radau5{Formulation: form}, &Radau5{Formulation: form}
				r := compareKrylovDense(t, kry, dense, func() bool { return kry.w.kry != nil && kry.w.J == nil && dense.w.kry == nil },
					sys, s, ref, tol, tEnd)
				switch {
				case form == Index3:
					r.within(t, math.Inf(1), 3)
				default:
					r.within(t, 0.25, 1.25)
				}
			})
		}
	}
}

// TestRadau5MassNewtonFallsBackOnStiffJoints: on the 3D chain with stiff spring-dampers
// (k = 1e7, d = 1e5 on every joint coordinate) the terms radauKrylov's preconditioner
// leaves out dominate, GMRES misses its tolerance, and radau5 falls back to its dense
// matrices (Stats.DenseFallbacks), landing on the dense-only run's solution.
func TestRadau5MassNewtonFallsBackOnStiffJoints(t *testing.T) {
	var kry, dense Radau5
	checkStiffFallback(t, &kry, &dense, func() bool { return kry.w.J != nil })
}

// TestRadau5MassNewtonApproxJacobian: with ApproxJacobian the matrices are exactly the
// preconditioner's (semiExplicit.approxJacobian drops the derivatives of f, M and G), so
// on the cut-joint four-bar with a fresh matrix at every step (the Krylov path's rule)
// the Newton-Krylov path makes no GMRES products: its evaluations per Newton iteration
// (stages and estimates only) are the dense path's to 2 %, and the two land within a
// quarter of the dense error of each other against a radau5 run at 1e-10. Both paths
// scale the dynamic rows (radauMassRows; the dense one with dae.MassMultiplier hidden).
// They took the same steps to 1e-3·tol before that scaling; with it, the error estimate
// of the first steps, at rounding level on both, parts their step sequences (measured at
// the 18th attempt, ‖ΔW‖ 3.9621e-3 against 3.9622e-3), after which the two final errors
// differ as two runs of one path at tolerances 1e-9 apart do: at tol·(1 + k·1e-9),
// k = 0 … 11, the pair passed the quarter and 1.25 bounds below in 6 of 12 draws
// (|krylov − dense| from 1e-10 to 3e-7 against dense errors of 3e-7 to 7e-7), before
// radau5's first-iterate bound (radauMonitor.staleFirst) as after. So the test compares
// the medians over 8 such draws (k = 0 … 7; measured: apart 0.20 of the dense error, the
// Krylov error 1.10 times it, both before and after that bound).
func TestRadau5MassNewtonApproxJacobian(t *testing.T) {
	sys, s := jointFourBar(t)
	const tol, tEnd, draws = 1e-6, 0.5, 8
	ref := denseReference(t, sys, s, tEnd)
	ns := NewtonSettings{Jacobian: JacobianEveryStep}
	var dKD, eK, eD []float64
	for k := range draws {
		f := 1 + float64(k)*1e-9
		ctl := StepControl{RTol: tol * f, ATol: tol * f}
		kry, dense := Radau5{ApproxJacobian: true, Newton: ns}, Radau5{ApproxJacobian: true, Newton: ns}
		runTo(t, &kry, sys, s, tEnd, ctl)
		runTo(t, &dense, hideMassMultiplier(sys), s, tEnd, ctl)
		ks, ds := kry.Stats(), dense.Stats()
		dKD = append(dKD, maxDiff(kry.Current().Q, dense.Current().Q))
		eK = append(eK, maxDiff(kry.Current().Q, ref))
		eD = append(eD, maxDiff(dense.Current().Q, ref))
		perK, perD := float64(ks.FuncEvals)/float64(ks.NewtonIters), float64(ds.FuncEvals)/float64(ds.NewtonIters)
		t.Logf("tol·(1 + %d·1e-9): |krylov − dense| %.1e, errors %.1e / %.1e; steps %d / %d, f evals per Newton iteration %.3f / %.3f",
			k, dKD[k], eK[k], eD[k], ks.Steps, ds.Steps, perK, perD)
		if kry.w.kry == nil || dense.w.kry != nil || math.Abs(perK-perD) > 0.02*perD {
			t.Errorf("paths %v / %v, f evals per Newton iteration %.3f / %.3f: want the Krylov and the dense path, without GMRES products", kry.w.kry != nil, dense.w.kry != nil, perK, perD)
		}
	}
	krylovComparison{sortedMedian(dKD), sortedMedian(eK), sortedMedian(eD)}.within(t, 0.25, 1.25)
}

// sortedMedian returns the median of x, sorting x in place.
func sortedMedian(x []float64) float64 {
	slices.Sort(x)
	n := len(x)
	if n%2 == 1 {
		return x[n/2]
	}
	return (x[n/2-1] + x[n/2]) / 2
}

// TestRadau5KrylovCountsAccountForEvaluations: Radau5.KrylovCounts, which
// BenchmarkChainStepCounts reports per step, accounts for radau5's residual evaluations on
// the Newton-Krylov path (the 10-rod chain to t = 0.1, tol 1e-4): one complex solve per
// Newton iteration, a real one per iteration and per error estimate, and the evaluations
// beyond the first, the three stages per iteration and one per accepted step are the
// products (one per real product, one or two per complex product: a zero real or
// imaginary part takes none) and the estimates' extra evaluations (at most one per real
// solve beyond the iterations and steps). On the dense path the counts stay zero.
func TestRadau5KrylovCountsAccountForEvaluations(t *testing.T) {
	sys, s := jointChain3D(t, 10, 0.01, 0)
	m := &Radau5{}
	if _, err := Solve(m, "radau5", sys, s, 0.1, SolveOptions{Control: StepControl{RTol: 1e-4, ATol: 1e-4}}); err != nil {
		t.Fatal(err)
	}
	st := m.Stats()
	re, cx := m.KrylovCounts()
	t.Logf("stats %+v; real %+v; complex %+v", st, re, cx)
	if st.DenseFallbacks != 0 || re.Products == 0 || cx.Products == 0 {
		t.Fatalf("not on the Newton-Krylov path throughout: %d dense fallbacks, %d / %d products", st.DenseFallbacks, re.Products, cx.Products)
	}
	if cx.Solves != st.NewtonIters {
		t.Errorf("complex solves %d, Newton iterations %d: want one per iteration", cx.Solves, st.NewtonIters)
	}
	extra := re.Solves - st.NewtonIters - st.Steps
	if extra < 0 {
		t.Errorf("real solves %d < Newton iterations %d + steps %d", re.Solves, st.NewtonIters, st.Steps)
	}
	e := st.FuncEvals - 1 - 3*st.NewtonIters - st.Steps
	if lo, hi := re.Products+cx.Products, re.Products+2*cx.Products+extra; e < lo || e > hi {
		t.Errorf("%d evaluations beyond stages and steps, want within [%d, %d] from the products", e, lo, hi)
	}
	if re.Missed > re.Solves || cx.Missed > cx.Solves {
		t.Errorf("missed solves %d, %d exceed the solves %d, %d", re.Missed, cx.Missed, re.Solves, cx.Solves)
	}
	d := &Radau5{}
	if _, err := Solve(d, "radau5", denseOnly{sys, sys, sys, sys}, s, 0.02, SolveOptions{Control: StepControl{RTol: 1e-4, ATol: 1e-4}}); err != nil {
		t.Fatal(err)
	}
	if r, c := d.KrylovCounts(); r != (KrylovCounts{}) || c != (KrylovCounts{}) {
		t.Errorf("dense path: KrylovCounts %+v, %+v, want zero", r, c)
	}
}

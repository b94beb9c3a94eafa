package integrate

import (
	"fmt"
	"math"
	"testing"
)

// TestRadau5MassNewtonMatchesDense: on the joint route's 3D chain, planar chain and
// cut-joint four-bar, radau5 in each of its forms with the Newton-Krylov corrector
// (radauKrylov) lands where radau5 with its dense Newton matrices lands, without dense
// fallbacks and without a stored n×n matrix, and its steps allocate nothing. ggl and
// index2: the paths differ by at most a quarter of the dense path's error against a
// dense radau5 run at 1e-10, and the Krylov error is at most 1.25 times the dense one
// (measured at the forcing term 1e-3: 0.03 to 0.2 of the error, 0.8 to 1.1 times it; at
// 1e-2 the four-bar's paths differed by 0.8 of the error, at 1e-5 by 1e-3 of it).
// index3: the Krylov error is at most 3 times the dense one (1e-4 at tol 1e-6 on the
// chain: v and a are index-2 and -3 variables there; measured 0.3 to 1.8 times); its
// step sequences part at
// rounding level (measured: with the forcing term at 1e-5 the paths still differed by
// 2e-4 on the four-bar against errors of 3e-4 and 7e-5).
func TestRadau5MassNewtonMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	for _, c := range jointMassCases {
		if testing.Short() && c.name == "chain3d:4" {
			continue // 4 s
		}
		sys, s := c.make(t)
		ref := &Radau5{}
		runTo(t, ref, hideMassSolver(sys), s, tEnd, StepControl{RTol: 1e-10, ATol: 1e-10})
		for _, form := range []Formulation{StabilizedIndex2, Index2, Index3} {
			t.Run(fmt.Sprint(c.name, "/", form), func(t *testing.T) {
				kry, dense := &Radau5{Formulation: form}, &Radau5{Formulation: form}
				runTo(t, kry, sys, s, tEnd, StepControl{RTol: tol, ATol: tol})
				runTo(t, dense, hideMassSolver(sys), s, tEnd, StepControl{RTol: tol, ATol: tol})
				if kry.w.kry == nil || dense.w.kry != nil {
					t.Fatalf("the runs did not take the intended paths")
				}
				kq, dq := kry.Current().Q, dense.Current().Q
				dKD, eK, eD := maxDiff(kq, dq), maxDiff(kq, ref.Current().Q), maxDiff(dq, ref.Current().Q)
				ks, ds := kry.Stats(), dense.Stats()
				t.Logf("|krylov − dense| %.1e, error krylov %.1e dense %.1e; steps %d / %d, newton %d / %d, f evals %d / %d",
					dKD, eK, eD, ks.Steps, ds.Steps, ks.NewtonIters, ds.NewtonIters, ks.FuncEvals, ds.FuncEvals+ds.FDEvals)
				if form != Index3 && (dKD > 0.25*eD || eK > 1.25*eD) {
					t.Errorf("|krylov − dense| = %.2e, errors krylov %.2e dense %.2e: want the paths to agree to a quarter of the error", dKD, eK, eD)
				}
				if form == Index3 && eK > 3*eD {
					t.Errorf("errors krylov %.2e, dense %.2e: want the Krylov error at most 3 times the dense one", eK, eD)
				}
				if ks.DenseFallbacks != 0 || kry.w.J != nil {
					t.Errorf("%d dense fallbacks on a non-stiff model", ks.DenseFallbacks)
				}
				if a := testing.AllocsPerRun(10, func() {
					if err := kry.Step(math.Inf(1)); err != nil {
						t.Fatal(err)
					}
				}); a != 0 {
					t.Errorf("step: %g allocations, want 0", a)
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
// the Newton-Krylov path takes the dense path's steps with no GMRES products (the same
// f evaluations: stages and estimates only) and lands on its solution to 1e-3·tol: the
// Schur-complement solve and the dense LU round differently in matrices of condition
// about 1/h² (measured 7.8e-10 at tol 1e-6; with JacobianAuto, where the dense path
// keeps its matrix over steps, 4e-8).
func TestRadau5MassNewtonApproxJacobian(t *testing.T) {
	sys, s := jointFourBar(t)
	ctl := StepControl{RTol: 1e-6, ATol: 1e-6}
	ns := NewtonSettings{Jacobian: JacobianEveryStep}
	kry, dense := Radau5{ApproxJacobian: true, Newton: ns}, Radau5{ApproxJacobian: true, Newton: ns}
	runTo(t, &kry, sys, s, 0.5, ctl)
	runTo(t, &dense, hideMassSolver(sys), s, 0.5, ctl)
	ks, ds := kry.Stats(), dense.Stats()
	d := maxDiff(kry.Current().Q, dense.Current().Q)
	t.Logf("|krylov − dense| %.1e; steps %d / %d, f evals %d / %d", d, ks.Steps, ds.Steps, ks.FuncEvals, ds.FuncEvals)
	if kry.w.kry == nil || ks.Steps != ds.Steps || ks.FuncEvals != ds.FuncEvals || d > 1e-3*ctl.RTol {
		t.Errorf("|krylov − dense| = %.2e, steps %d / %d, f evals %d / %d: want the same steps and evaluations, and 1e-3·tol", d, ks.Steps, ds.Steps, ks.FuncEvals, ds.FuncEvals)
	}
}

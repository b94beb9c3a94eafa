package integrate

import (
	"testing"
)

// TestGCPABMMassMatchesDense: on the joint route's 3D chain, planar chain and cut-joint
// four-bar, gcp-abm on the mass-solve path (eq. 17 by the Schur complement through
// dae.MassSolver, no nq×nq matrix) takes the same steps as on the dense path (MassSolve
// hidden: M formed, eq. 39 by the reduced mass): the two integrate one ODE with one
// formula and differ by rounding in the recovery only. After 300 steps of 1e-3 q, v and λ agree to 1e-9 relative, and a step on
// the mass path allocates nothing.
func TestGCPABMMassMatchesDense(t *testing.T) {
	const h, tEnd = 1e-3, 0.3
	for _, c := range jointMassCases {
		t.Run(c.name, func(t *testing.T) {
			sys, s := c.make(t)
			mass, dense := &ABM{}, &ABM{}
			runTo(t, mass, sys, s, tEnd, StepControl{FixedH: h})
			runTo(t, dense, hideMassSolver(sys), s, tEnd, StepControl{FixedH: h})
			if mass.w.cs.schur == nil || dense.w.cs.schur != nil || mass.w.cs.M != nil {
				t.Fatal("the runs did not take the intended paths")
			}
			mc, dc := mass.Current(), dense.Current()
			ms, ds := mass.Stats(), dense.Stats()
			if ms.Steps != ds.Steps || ms.Repartitions != ds.Repartitions {
				t.Errorf("steps %d / %d, re-partitions %d / %d: want the same", ms.Steps, ds.Steps, ms.Repartitions, ds.Repartitions)
			}
			scale := 1 + max(hhtMaxAbs(dc.Q), hhtMaxAbs(dc.V))
			dq, dv, dl := maxDiff(mc.Q, dc.Q), maxDiff(mc.V, dc.V), maxDiff(mc.Lambda, dc.Lambda)
			t.Logf("|mass − dense| q %.1e v %.1e λ %.1e; steps %d, re-partitions %d", dq, dv, dl, ms.Steps, ms.Repartitions)
			if !(dq <= 1e-9*scale && dv <= 1e-9*scale && dl <= 1e-9*(1+hhtMaxAbs(dc.Lambda))) {
				t.Errorf("|mass − dense| q %.1e v %.1e λ %.1e, want ≤ 1e-9 relative", dq, dv, dl)
			}
			if n := stepAllocs(t, mass, 5, 20); n != 0 {
				t.Errorf("gcp-abm on the mass-solve path: Step allocates %v times per call after warm-up, want 0", n)
			}
		})
	}
}

// TestGCPABMMassLarge: above massNewtonDenseMax coordinates (the 3D chain of 70 rods, 210
// coordinates), where the dense path is refused on a dae.MassSolver system, gcp-abm runs
// on the mass-solve path and lands, after 50 steps of 1e-3, within 1e-10 relative of the
// dense path run with MassSolve hidden.
func TestGCPABMMassLarge(t *testing.T) {
	const h, tEnd = 1e-3, 0.05
	sys, s := jointChain3D(t, 70, 0.05, 0)
	mass, dense := &ABM{}, &ABM{}
	runTo(t, mass, sys, s, tEnd, StepControl{FixedH: h})
	runTo(t, dense, hideMassSolver(sys), s, tEnd, StepControl{FixedH: h})
	if mass.w.cs.schur == nil || dense.w.cs.schur != nil {
		t.Fatal("the runs did not take the intended paths")
	}
	mc, dc := mass.Current(), dense.Current()
	scale := 1 + max(hhtMaxAbs(dc.Q), hhtMaxAbs(dc.V))
	dq, dv := maxDiff(mc.Q, dc.Q), maxDiff(mc.V, dc.V)
	t.Logf("|mass − dense| q %.1e v %.1e after %d steps (scale %.1f)", dq, dv, mass.Stats().Steps, scale)
	if !(dq <= 1e-10*scale && dv <= 1e-10*scale) {
		t.Errorf("|mass − dense| q %.1e v %.1e, want ≤ 1e-10 relative", dq, dv)
	}
}

// TestGCPNewmarkKrylovMatchesDense: on the joint-route chains and the cut-joint four-bar,
// gcp-newmark with its Newton-Krylov corrector (GMRES on differences of Ψ, preconditioned
// by Zᵀ M Z through the recursion; no nq×nq matrix) lands where its dense path (MassSolve
// hidden: eq. 29 assembled and factorized) lands: both solve the same discrete equations
// (eq. 20) to the same Newton tolerance, and their difference is below a tenth of the
// error either has against a radau5 run at 1e-10. A step on the Krylov path allocates
// nothing.
func TestGCPNewmarkKrylovMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	for _, c := range jointMassCases {
		t.Run(c.name, func(t *testing.T) {
			sys, s := c.make(t)
			ref := radau5Ref(t, sys, s, tEnd)
			kry, dense := DefaultGCP(), DefaultGCP()
			ctl := StepControl{RTol: tol, ATol: tol}
			runTo(t, &kry, sys, s, tEnd, ctl)
			runTo(t, &dense, hideMassSolver(sys), s, tEnd, ctl)
			if kry.w.kry == nil || dense.w.kry != nil || kry.w.cs.M != nil {
				t.Fatal("the runs did not take the intended paths")
			}
			kq, dq := kry.Current().Q, dense.Current().Q
			dKD, eK, eD := maxDiff(kq, dq), maxDiff(kq, ref.Current().Q), maxDiff(dq, ref.Current().Q)
			ks, ds := kry.Stats(), dense.Stats()
			t.Logf("|krylov − dense| %.1e, error krylov %.1e dense %.1e; steps %d / %d, f evals %d / %d, newton %d / %d, failures %d / %d",
				dKD, eK, eD, ks.Steps, ds.Steps, ks.FuncEvals, ds.FuncEvals, ks.NewtonIters, ds.NewtonIters, ks.NewtonFailures, ds.NewtonFailures)
			if !(dKD <= 0.1*max(eK, eD)) {
				t.Errorf("|krylov − dense| = %.1e, want ≤ a tenth of the errors %.1e, %.1e", dKD, eK, eD)
			}
			if n := stepAllocs(t, &kry, 5, 10); n != 0 {
				t.Errorf("gcp-newmark on the Krylov path: Step allocates %v times per call after warm-up, want 0", n)
			}
		})
	}
}

// TestGCPNewmarkKrylovLarge: above massNewtonDenseMax coordinates (the 3D chain of 70
// rods, 210 coordinates), where its dense path is refused on a dae.MassSolver system,
// gcp-newmark runs on its Newton-Krylov path and lands where the dense path (MassSolve
// hidden) lands, within a tenth of the error either has against rk4 at h = 1e-4.
func TestGCPNewmarkKrylovLarge(t *testing.T) {
	const tol, tEnd = 1e-5, 0.008
	sys, s := jointChain3D(t, 70, 0.05, 0)
	ref := &RK4{}
	runTo(t, ref, sys, s, tEnd, StepControl{FixedH: 1e-4})
	kry, dense := DefaultGCP(), DefaultGCP()
	ctl := StepControl{RTol: tol, ATol: tol}
	runTo(t, &kry, sys, s, tEnd, ctl)
	runTo(t, &dense, hideMassSolver(sys), s, tEnd, ctl)
	if kry.w.kry == nil || dense.w.kry != nil {
		t.Fatal("the runs did not take the intended paths")
	}
	kq, dq := kry.Current().Q, dense.Current().Q
	dKD, eK, eD := maxDiff(kq, dq), maxDiff(kq, ref.Current().Q), maxDiff(dq, ref.Current().Q)
	ks, ds := kry.Stats(), dense.Stats()
	t.Logf("|krylov − dense| %.1e, error krylov %.1e dense %.1e; steps %d / %d, newton %d / %d, f evals %d / %d",
		dKD, eK, eD, ks.Steps, ds.Steps, ks.NewtonIters, ds.NewtonIters, ks.FuncEvals, ds.FuncEvals)
	if !(dKD <= 0.1*max(eK, eD)) {
		t.Errorf("|krylov − dense| = %.1e, want ≤ a tenth of the errors %.1e, %.1e", dKD, eK, eD)
	}
}

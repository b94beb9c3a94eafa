package integrate

import (
	"testing"

	"linkage/dae"
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

// TestGCPKrylovMatchesDense: on the joint-route chains and the cut-joint four-bar,
// gcp-newmark and gcp-fv with their Newton-Krylov corrector (GMRES on differences of Ψ,
// preconditioned by Zᵀ M Z through the recursion; no nq×nq matrix) land where their dense
// paths (MassSolve hidden: eq. 29, for gcp-fv less eq. 40, assembled and factorized) land:
// all solve the same discrete equations (eq. 20) to the same Newton tolerance, and the
// difference is below a tenth of the error either has against a radau5 run at 1e-10. On
// the Krylov path gcp-fv is gcp-newmark (the differences of Ψ keep eq. 40's terms), so
// the two take the same steps to the last bit. A step on the Krylov path allocates
// nothing.
func TestGCPKrylovMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	for _, c := range jointMassCases {
		t.Run(c.name, func(t *testing.T) {
			sys, s := c.make(t)
			ref := radau5Ref(t, sys, s, tEnd)
			var kryQ [2][]float64
			var kryStats [2]Stats
			for v, variant := range []GCPVariant{GCPExact, GCPFisetteVaneghem} {
				kry, dense := DefaultGCP(), DefaultGCP()
				kry.Variant, dense.Variant = variant, variant
				ctl := StepControl{RTol: tol, ATol: tol}
				runTo(t, &kry, sys, s, tEnd, ctl)
				runTo(t, &dense, hideMassSolver(sys), s, tEnd, ctl)
				if kry.w.kry == nil || dense.w.kry != nil || kry.w.cs.M != nil {
					t.Fatal("the runs did not take the intended paths")
				}
				kq, dq := kry.Current().Q, dense.Current().Q
				dKD, eK, eD := maxDiff(kq, dq), maxDiff(kq, ref.Current().Q), maxDiff(dq, ref.Current().Q)
				ks, ds := kry.Stats(), dense.Stats()
				t.Logf("variant %d: |krylov − dense| %.1e, error krylov %.1e dense %.1e; steps %d / %d, f evals %d / %d, newton %d / %d, failures %d / %d",
					variant, dKD, eK, eD, ks.Steps, ds.Steps, ks.FuncEvals, ds.FuncEvals, ks.NewtonIters, ds.NewtonIters, ks.NewtonFailures, ds.NewtonFailures)
				if !(dKD <= 0.1*max(eK, eD)) {
					t.Errorf("variant %d: |krylov − dense| = %.1e, want ≤ a tenth of the errors %.1e, %.1e", variant, dKD, eK, eD)
				}
				if n := stepAllocs(t, &kry, 5, 10); n != 0 {
					t.Errorf("variant %d on the Krylov path: Step allocates %v times per call after warm-up, want 0", variant, n)
				}
				kryQ[v], kryStats[v] = kq, ks
			}
			if d := maxDiff(kryQ[0], kryQ[1]); d != 0 || kryStats[0] != kryStats[1] {
				t.Errorf("Krylov path: gcp-fv differs from gcp-newmark by %.1e in q, stats %+v / %+v; want the same iteration", d, kryStats[1], kryStats[0])
			}
		})
	}
}

// TestGCPKrylovLarge: above massNewtonDenseMax coordinates (the 3D chain of 70 rods, 210
// coordinates), where their dense paths are refused on a dae.MassSolver system,
// gcp-newmark and gcp-fv run on their Newton-Krylov path and land where gcp-newmark's
// dense path (MassSolve hidden; the same discrete equations, eq. 20) lands, within a tenth
// of the error either has against rk4 at h = 1e-4.
func TestGCPKrylovLarge(t *testing.T) {
	const tol, tEnd = 1e-5, 0.008
	sys, s := jointChain3D(t, 70, 0.05, 0)
	ref := &RK4{}
	runTo(t, ref, sys, s, tEnd, StepControl{FixedH: 1e-4})
	ctl := StepControl{RTol: tol, ATol: tol}
	dense := DefaultGCP()
	runTo(t, &dense, hideMassSolver(sys), s, tEnd, ctl)
	dq, ds := dense.Current().Q, dense.Stats()
	for _, variant := range []GCPVariant{GCPExact, GCPFisetteVaneghem} {
		kry := DefaultGCP()
		kry.Variant = variant
		runTo(t, &kry, sys, s, tEnd, ctl)
		if kry.w.kry == nil || dense.w.kry != nil {
			t.Fatal("the runs did not take the intended paths")
		}
		kq := kry.Current().Q
		dKD, eK, eD := maxDiff(kq, dq), maxDiff(kq, ref.Current().Q), maxDiff(dq, ref.Current().Q)
		ks := kry.Stats()
		t.Logf("variant %d: |krylov − dense| %.1e, error krylov %.1e dense %.1e; steps %d / %d, newton %d / %d, f evals %d / %d",
			variant, dKD, eK, eD, ks.Steps, ds.Steps, ks.NewtonIters, ds.NewtonIters, ks.FuncEvals, ds.FuncEvals)
		if !(dKD <= 0.1*max(eK, eD)) {
			t.Errorf("variant %d: |krylov − dense| = %.1e, want ≤ a tenth of the errors %.1e, %.1e", variant, dKD, eK, eD)
		}
	}
}

// TestGCPFVKrylovOrder: on the cut-joint four-bar of the joint route, gcp-fv converges
// with order 2 in q, v and λ (Richardson orders of gcpOrders, fixed steps h = 0.005 to
// 0.000625 to t = 0.4) on its Newton-Krylov path as on its dense path (MassSolve hidden):
// the Krylov corrector changes the Newton matrix, not the discretization. (At h = 0.01 the
// dense path's quasi-Newton iteration fails to converge at t = 0.22, where the Krylov
// path's exact one does not; h = 0.005 is the largest power-of-two fraction of 0.02 both
// take.)
func TestGCPFVKrylovOrder(t *testing.T) {
	sys, s := jointFourBar(t)
	for _, path := range []struct {
		name string
		sys  dae.System
	}{{"krylov", sys}, {"dense", hideMassSolver(sys)}} {
		newM := func() Method { m := DefaultGCP(); m.Variant = GCPFisetteVaneghem; return &m }
		q, v, l := gcpOrders(t, newM, path.sys, s, 0.4, 0.005)
		checkGCPOrder2(t, "gcp-fv "+path.name, q, v, l)
	}
}

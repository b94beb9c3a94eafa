package integrate

import (
	"testing"
)

// TestGenAlphaForwardDynamicsIteration is TestHHTForwardDynamicsIteration for genalpha
// (index 3, the default parameters): on the joint route's open 3D chain of 10 rods, with
// its forward-dynamics iteration (fdIter) it lands where the factorized Newton-Krylov
// iteration alone lands, at the same steps, to a hundredth of the error both have against
// radau5 at 1e-10 (measured: 7e-8 to 3e-5 of it), for at most 2 % more evaluations.
// Where its rate is small (no joint springs) it takes every step, with one evaluation per
// Newton iteration and nothing else (no Jacobian, no GMRES product; the start's three
// solves of eq. 17 aside): 2.0 and 2.6 iterations per attempt at h = 1 ms and at tol
// 1e-6, where the factorized iteration took 4.2 and 6.0 evaluations per attempt (2.0 and
// 2.4 iterations). With stiff joint springs it contracts poorly, leaves for the factorized
// iteration within the attempt (fdIter.leave) and is tried again after its backoff. Its
// steps allocate nothing.
func TestGenAlphaForwardDynamicsIteration(t *testing.T) {
	const tEnd = 0.2
	for _, c := range []struct {
		name      string
		k, h, tol float64 // joint spring stiffness; FixedH, or the tolerance
	}{
		{"soft h=1ms", 0, 1e-3, 0},
		{"soft tol=1e-6", 0, 0, 1e-6},
		{"stiff h=1ms", 1e3, 1e-3, 0},
		{"stiff tol=1e-4", 1e3, 0, 1e-4},
	} {
		t.Run(c.name, func(t *testing.T) {
			sys, s := jointChain3D(t, 10, 0.05, c.k)
			ref := radau5Ref(t, sys, s, tEnd)
			fd, fac := DefaultGenAlpha(), DefaultGenAlpha()
			fac.factorizedOnly = true
			ctl := StepControl{FixedH: c.h, RTol: c.tol, ATol: c.tol}
			runTo(t, &fd, sys, s, tEnd, ctl)
			runTo(t, &fac, sys, s, tEnd, ctl)
			d, e := maxDiff(fd.Current().Q, fac.Current().Q), maxDiff(fac.Current().Q, ref.Current().Q)
			fs, ks, it := fd.Stats(), fac.Stats(), &fd.w.fdn
			t.Logf("|fd − factorized| %.2e, error %.2e; steps %d / %d, by fd %d, left %d; evals %d / %d, factorizations %d / %d, rejected %d / %d, newton %d / %d",
				d, e, fs.Steps, ks.Steps, it.steps, it.leaves, fs.FuncEvals, ks.FuncEvals, fs.Factorizations, ks.Factorizations, fs.Rejected, ks.Rejected, fs.NewtonIters, ks.NewtonIters)
			if fs.Steps != ks.Steps || !(d <= 1e-2*e) || float64(fs.FuncEvals) > 1.02*float64(ks.FuncEvals)+4 {
				t.Errorf("fd: %d steps, |fd − factorized| = %.2e, %d evaluations; want %d steps, ≤ %.2e, ≤ 1.02 × %d",
					fs.Steps, d, fs.FuncEvals, ks.Steps, 1e-2*e, ks.FuncEvals)
			}
			switch {
			case c.k == 0 && (it.steps != fs.Steps || fs.Jacobians > 0 || fs.FuncEvals > fs.NewtonIters+3 ||
				fs.NewtonIters > 3*(fs.Steps+fs.Rejected)):
				t.Errorf("soft chain: %d of %d steps by fd, %d Jacobians, %d evaluations, %d Newton iterations in %d attempts; want all, none, one per iteration and the start's 3, at most 3 per attempt",
					it.steps, fs.Steps, fs.Jacobians, fs.FuncEvals, fs.NewtonIters, fs.Steps+fs.Rejected)
			case c.k > 0 && it.leaves == 0:
				t.Errorf("stiff chain: fd never left for the factorized iteration")
			}
			stepAllocatesNothing(t, c.name, &fd)
		})
	}
}

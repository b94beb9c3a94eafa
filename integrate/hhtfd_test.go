package integrate

import (
	"testing"
)

// TestHHTForwardDynamicsIteration: on the joint route's open 3D chain of 10 rods, hht with
// its forward-dynamics iteration (fdIter) lands where the factorized Newton-Krylov
// iteration alone lands, at the same steps, to a hundredth of the error both have against
// radau5 at 1e-10 (measured: 1e-8 to 1e-4 of it), for at most 2 % more evaluations. Where
// its rate is small (no joint springs) it takes every step, with two evaluations and no
// factorization per step; with stiff joint springs it contracts poorly, leaves for the
// factorized iteration within the attempt (fdIter.leave) and is tried again after its
// backoff. Its steps allocate nothing.
func TestHHTForwardDynamicsIteration(t *testing.T) {
	for _, c := range fdIterationCases {
		t.Run(c.name, func(t *testing.T) {
			fd, fac := DefaultHHT(), DefaultHHT()
			fac.factorizedOnly = true
			fs, it := runFDIteration(t, c, &fd, &fac, func() *fdIter { return &fd.w.fdn })
			if c.k == 0 && (it.steps != fs.Steps || fs.Factorizations > 1 || fs.FuncEvals > 2*(fs.Steps+fs.Rejected)+1) {
				t.Errorf("soft chain: %d of %d steps by fd, %d factorizations, %d evaluations; want all, at most Init's 1, two per attempt",
					it.steps, fs.Steps, fs.Factorizations, fs.FuncEvals)
			}
		})
	}
}

// fdIterationCase is a run of the forward-dynamics iteration's tests on the joint route's
// 3D chain of 10 rods (jointChain3D) to t = 0.2 s.
type fdIterationCase struct {
	name      string
	k, h, tol float64 // joint spring stiffness; FixedH, or the tolerance
}

// fdIterationCases are the runs of the forward-dynamics iteration's tests: without joint
// springs, where its rate is small, and with stiff ones, where it contracts poorly; at
// fixed steps and adaptive ones.
var fdIterationCases = []fdIterationCase{
	{"soft h=1ms", 0, 1e-3, 0},
	{"soft tol=1e-6", 0, 0, 1e-6},
	{"stiff h=1ms", 1e3, 1e-3, 0},
	{"stiff tol=1e-4", 1e3, 0, 1e-4},
}

// runFDIteration runs the case c with fd (its forward-dynamics iteration it where it
// runs) and fac (the factorized iteration alone) and checks what the forward-dynamics
// iteration's tests share: the same steps, end states apart by at most a hundredth of
// the error against radau5 at 1e-10, at most 2 % more evaluations, a try that left on the
// stiff chain, and steps that allocate nothing. It returns fd's Stats and iteration for
// the method's own checks, as they were at tEnd.
func runFDIteration(t *testing.T, c fdIterationCase, fd, fac Method, it func() *fdIter) (Stats, *fdIter) {
	t.Helper()
	const tEnd = 0.2
	sys, s := jointChain3D(t, 10, 0.05, c.k)
	ref := radau5Ref(t, sys, s, tEnd)
	ctl := StepControl{FixedH: c.h, RTol: c.tol, ATol: c.tol}
	runTo(t, fd, sys, s, tEnd, ctl)
	runTo(t, fac, sys, s, tEnd, ctl)
	d, e := maxDiff(fd.Current().Q, fac.Current().Q), maxDiff(fac.Current().Q, ref.Current().Q)
	fs, ks, f := fd.Stats(), fac.Stats(), *it() // f: its counts at tEnd
	t.Logf("|fd − factorized| %.2e, error %.2e; steps %d / %d, by fd %d, left %d; evals %d / %d, factorizations %d / %d, Newton iterations %d / %d",
		d, e, fs.Steps, ks.Steps, f.steps, f.leaves, fs.FuncEvals, ks.FuncEvals, fs.Factorizations, ks.Factorizations, fs.NewtonIters, ks.NewtonIters)
	if fs.Steps != ks.Steps || !(d <= 1e-2*e) || float64(fs.FuncEvals) > 1.02*float64(ks.FuncEvals)+4 {
		t.Errorf("fd: %d steps, |fd − factorized| = %.2e, %d evaluations; want %d steps, ≤ %.2e, ≤ 1.02 × %d",
			fs.Steps, d, fs.FuncEvals, ks.Steps, 1e-2*e, ks.FuncEvals)
	}
	if c.k > 0 && f.leaves == 0 {
		t.Errorf("stiff chain: fd never left for the factorized iteration")
	}
	stepAllocatesNothing(t, c.name, fd)
	return fs, &f
}

package integrate

import (
	"testing"
)

// TestGenAlphaForwardDynamicsIteration is TestHHTForwardDynamicsIteration for genalpha
// (index 3, the default parameters): on the joint route's open 3D chain of 10 rods, with
// its forward-dynamics iteration (fdIter) it lands where the factorized Newton-Krylov
// iteration alone lands, at the same steps, to a hundredth of the error both have against
// radau5 at 1e-10 (measured: 7e-8 to 8e-5 of it), for at most 2 % more evaluations.
// Where its rate is small (no joint springs) it takes every step, with one evaluation per
// Newton iteration and nothing else (no Jacobian, no GMRES product; the start's three
// solves of eq. 17 aside): 2.0 iterations per attempt at h = 1 ms and at tol 1e-6 (2.6
// at tol 1e-6 with the linear prediction, fdQuadratic), where the factorized iteration
// took 4.2 and 6.0 evaluations per attempt (2.0 and 2.4 iterations). With stiff joint springs it contracts poorly, leaves for the factorized
// iteration within the attempt (fdIter.leave) and is tried again after its backoff. Its
// steps allocate nothing.
func TestGenAlphaForwardDynamicsIteration(t *testing.T) {
	for _, c := range fdIterationCases {
		t.Run(c.name, func(t *testing.T) {
			fd, fac := DefaultGenAlpha(), DefaultGenAlpha()
			fac.factorizedOnly = true
			fs, it := runFDIteration(t, c, &fd, &fac, func() *fdIter { return &fd.w.fdn })
			attempts := fs.Steps + fs.Rejected
			if c.k == 0 && (it.steps != fs.Steps || fs.Jacobians > 0 || fs.FuncEvals > fs.NewtonIters+3 || fs.NewtonIters > 3*attempts) {
				t.Errorf("soft chain: %d of %d steps by fd, %d Jacobians, %d evaluations, %d Newton iterations in %d attempts; want all, none, one per iteration and the start's 3, at most 3 per attempt",
					it.steps, fs.Steps, fs.Jacobians, fs.FuncEvals, fs.NewtonIters, attempts)
			}
		})
	}
}

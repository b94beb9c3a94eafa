package integrate

import (
	"fmt"
	"math"
	"testing"
)

// radauForms are radau5's three formulations.
var radauForms = []Formulation{StabilizedIndex2, Index2, Index3}

// TestRadau5FrictionKrylovMatchesDense: on the chain of 6 rods with friction in its pins
// (18 coordinates, 12 hold rows), radau5 in each form on the Newton-Krylov path
// (reactionKrylov: below massNewtonDenseMax the path is taken for this test only; φ
// carries f_λ at the λ of y, so the differences radauKrylov.jv hold −∂f_λ/∂λ beside Gᵀ)
// lands where its dense path (exact matrices with ∂f_λ) lands, without dense fallbacks and
// without a stored nq×nq matrix, and its step allocates nothing; the friction is active
// (it moves q by more than ten times the dense error). The bounds are those of
// TestRadau5MassNewtonMatchesDense: ggl and index2 within a quarter of the dense error of
// each other, the Krylov error at most 1.25 times the dense one; index3 (v at its index-1
// scale with λ-dependent forces, see Radau5) at most 3 times.
func TestRadau5FrictionKrylovMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.2
	sys, s := frictionChain(t, 6)
	rq := frictionChainReference(t, sys, s, tEnd)
	for _, form := range radauForms {
		t.Run(fmt.Sprint(form), func(t *testing.T) {
			kry, dense, bare := Radau5{Formulation: form, reactionKrylov: true}, Radau5{Formulation: form}, Radau5{Formulation: form}
			c := compareFrictionPaths(t, &kry, &dense, &bare, sys, s, rq, tol, tEnd)
			if kry.w.kry == nil || dense.w.kry != nil {
				t.Fatal("the runs did not take the intended paths")
			}
			if form == Index3 {
				c.within(t, math.Inf(1), 3)
			} else {
				c.within(t, 0.25, 1.25)
			}
			if kry.w.J != nil || kry.w.se.rx.Fq != nil || kry.w.se.M != nil {
				t.Error("a dense matrix stored")
			}
		})
	}
}

// TestRadau5FrictionKrylovLarge: radau5 in each form starts on the chain of 70 rods with
// friction in its pins (210 coordinates, above massNewtonDenseMax, where it was refused)
// on its Newton-Krylov path, keeps g(q) = 0 to the Newton tolerance's level over its
// first steps, and stores no dense matrix; its steps allocate nothing after warm-up,
// those with a failed Newton iteration too (the chain's first steps fail their Newton
// iteration without friction too: 8 in 16 steps at tol 1e-4, 4 in 45 at 1e-6; a failure
// asks whether G lost rank by linalg.PivotedGram, which allocates nothing after the
// run's first failure).
func TestRadau5FrictionKrylovLarge(t *testing.T) {
	sys, s := frictionChain(t, 70)
	for _, form := range radauForms {
		t.Run(fmt.Sprint(form), func(t *testing.T) {
			m := Radau5{Formulation: form}
			frictionChainLarge(t, &m, sys, s, 1e-6, 5, func() { stepAllocatesNothing(t, "radau5 "+string(form), &m) },
				func() bool { return m.w.kry != nil && m.w.J == nil && m.w.se.rx.Fq == nil && m.w.se.M == nil })
		})
	}
}

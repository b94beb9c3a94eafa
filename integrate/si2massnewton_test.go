package integrate

import (
	"fmt"
	"testing"
)

// TestSI2MassNewtonMatchesDense: on the joint route's 3D chain, planar chain and cut-joint
// four-bar, genalpha-si2 and newmark (both the stabilized index-2 form) with the
// Newton-Krylov corrector preconditioned by si2MassPrecond land where the same method with
// its dense Newton matrix lands, within a tenth of the error either has against a dense
// radau5 run at 1e-10 (as TestMassNewtonMatchesDense for the index-3 form), without dense
// fallbacks, and their steps allocate nothing. On the trees (no constraint rows: the
// stabilized index-2 form is the index-3 one there) each runs both ways, with the
// factorized iteration alone and with the forward-dynamics iteration (fdIter, "/fd"),
// which must take most steps.
func TestSI2MassNewtonMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	for _, c := range jointMassCases {
		sys, s := c.make(t)
		ref := denseReference(t, sys, s, tEnd)
		_, nc := sys.Size()
		for _, method := range []string{"genalpha-si2", "newmark"} {
			for _, fd := range []bool{false, true} {
				if fd && nc > 0 {
					continue
				}
				label := fmt.Sprint(c.name, "/", method)
				if fd {
					label += "/fd"
				}
				t.Run(label, func(t *testing.T) {
					e, err := Lookup(method)
					if err != nil {
						t.Fatal(err)
					}
					kry, dense := e.New().(*GenAlpha), e.New().(*GenAlpha)
					kry.factorizedOnly = !fd
					onPath := func() bool { return kry.w.si2p != nil && kry.w.mn.inUse() && dense.w.mn == nil }
					if fd {
						onPath = func() bool { return kry.w.fdn.steps >= kry.Stats().Steps/2 && dense.w.mn == nil }
					}
					r := compareKrylovDense(t, kry, dense, onPath, sys, s, ref, tol, tEnd)
					r.within(t, 0.1, 1.1)
				})
			}
		}
	}
}

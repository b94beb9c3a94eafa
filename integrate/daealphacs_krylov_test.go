package integrate

import "testing"

// TestDAEAlphaCSKrylovMatchesDense: daealpha's cs and cs-qr forms by the CM iteration in
// product form on the Newton-Krylov corrector (daeAlphaCM) and by the CM iteration's
// dense matrix reach the same state within a small fraction of the error either has
// against radau5's reference, with the constraints held, and a Krylov step allocates
// nothing after warm-up (daeAlphaKrylovMatchesDense).
func TestDAEAlphaCSKrylovMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	for _, c := range jointMassCases {
		for _, form := range []Formulation{CoordinateSplit, CoordinateSplitQR} {
			t.Run(c.name+"-"+string(form), func(t *testing.T) {
				daeAlphaKrylovMatchesDense(t, c.make, form, tol, tEnd)
			})
		}
	}
}

// TestDAEAlphaCSKrylovLarge: cs and cs-qr run on the Newton-Krylov corrector at 210
// coordinates on the driven 3D chain, without dense matrices, the constraint held to the
// tolerance.
func TestDAEAlphaCSKrylovLarge(t *testing.T) {
	sys, s := jointChain3DDriven(t, 70)
	for _, form := range []Formulation{CoordinateSplit, CoordinateSplitQR} {
		t.Run(string(form), func(t *testing.T) { daeAlphaKrylovLarge(t, sys, s, form) })
	}
}

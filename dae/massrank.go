package dae

import (
	"gonum.org/v1/gonum/mat"
)

// MassRankTol is the relative threshold on the singular values of [M; G] below which
// MassOnNullSpace reports M singular on the null space of G: far above the roundoff of a
// regular pair (about 1e-16·σ_max) and far below the inertia of any real body part.
const MassRankTol = 1e-10

// MassOnNullSpace checks the condition of seed 002, Lemma 1, for a positive semi-definite
// mass matrix (point masses, massless coordinates): the accelerations of
//
//	[M  Gᵀ] [a]   [f]
//	[G  0 ] [λ] = [γ]
//
// are unique iff M is positive definite on the null space of G, i.e. iff the stacked
// matrix [M; G] has full column rank. It returns nil when it has (smallest singular value
// above MassRankTol times the largest), and otherwise a unit vector v with M v ≈ 0 and
// G v ≈ 0: a motion the constraints allow and nothing resists, whose large components name
// the coordinates at fault. It allocates dense (nq+nc)×nq storage: a check made once,
// before a run, for models that declare point masses.
func MassOnNullSpace(sys System, t float64, q []float64) []float64 {
	nq, nc := sys.Size()
	S := mat.NewDense(nq+nc, nq, nil)
	sys.Mass(S.Slice(0, nq, 0, nq).(*mat.Dense), t, q)
	if nc > 0 {
		sys.ConstraintJacobian(S.Slice(nq, nq+nc, 0, nq).(*mat.Dense), t, q)
	}
	return nullVector(S)
}

// nullVector returns nil when the smallest singular value of S (rows ≥ columns n) is above
// MassRankTol times its largest, or the factorization does not converge (no verdict), and
// otherwise the unit right singular vector v of the smallest: S v ≈ 0.
func nullVector(S *mat.Dense) []float64 {
	_, n := S.Dims()
	var svd mat.SVD
	if !svd.Factorize(S, mat.SVDThin) {
		return nil
	}
	sv := svd.Values(nil)
	if sv[n-1] > MassRankTol*sv[0] {
		return nil
	}
	var V mat.Dense
	svd.VTo(&V)
	return mat.Col(nil, n-1, &V)
}

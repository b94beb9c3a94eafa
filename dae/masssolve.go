package dae

// MassSolver is the optional capability of solving M(t,q) x = b without forming M, at a
// cost linear in the number of bodies: the articulated-body recursion of seed 002
// Table 1 for tree-structured systems in joint coordinates. Methods that only need the
// accelerations a = M⁻¹(f − Gᵀλ) (eq. 17 by its Schur complement G M⁻¹ Gᵀ) use it in place
// of a factorization of M; methods that need M itself still call Mass.
type MassSolver interface {
	MassSolve(x []float64, t float64, q, b []float64)
}

// MassMultiplier is the optional capability of forming the product M(t,q) x without
// forming M, at a cost linear in the number of bodies: the recursive Newton-Euler
// algorithm of seed 002 (Table 1's inverse-dynamics counterpart) at zero velocity and
// without gravity. The implicit methods' residuals need M(q₁) times an acceleration at
// every Newton iteration; with it they stay linear in the number of bodies.
type MassMultiplier interface {
	MassMul(dst []float64, t float64, q, x []float64)
}

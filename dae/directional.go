package dae

// DirectionalDerivatives is the optional capability of exact directional derivatives
// (forward-mode linearization) of the terms of eq. 16 at a cost linear in the number of
// bodies: the recursive Newton-Euler algorithm of seed 002 Table 1 run once with every
// position, velocity, acceleration and force carrying its tangent along (δq, δv, δa). A
// Newton-Krylov method's product J z, which differences of the residual give only to
// about √ε·cond (the slender rods' spins of the joint route, cond(M) ≈ 1e11), comes from
// these to rounding, with no increment to choose.
//
// With the inverse-dynamics residual R(t,q,v,a) = M(q) a − f(t,q,v):
//
//	InverseDynamicsDirection:  δR  = (M a − f)_q δq − f_v δv + M δa
//	ConstraintForceDirection:  δF  = (Gᵀλ)_q δq + Gᵀ δλ
//	ConstraintDirection:       δg  = G δq,   δc = (G v + g_t)_q δq + G δv
//
// Each writes its result (dst, dg, dc: nil skips it); the arguments are not modified.
type DirectionalDerivatives interface {
	// HasDirectionalDerivatives reports whether the three cover every force and every
	// constraint row of the system (false: the method differences its residual).
	HasDirectionalDerivatives() bool
	InverseDynamicsDirection(dst []float64, t float64, q, v, a, dq, dv, da []float64)
	ConstraintForceDirection(dst []float64, t float64, q, lambda, dq, dlambda []float64)
	ConstraintDirection(dg, dc []float64, t float64, q, v, dq, dv []float64)
}

// AsDirectionalDerivatives returns sys as a DirectionalDerivatives, or nil when it is none
// or HasDirectionalDerivatives is false.
func AsDirectionalDerivatives(sys System) DirectionalDerivatives {
	if d, ok := sys.(DirectionalDerivatives); ok && d.HasDirectionalDerivatives() {
		return d
	}
	return nil
}

package dae

// PfaffianStiffMassSolver is the optional capability of a StiffMassSolver with Pfaffian
// rows (Nonholonomic) of levering the rows' loads −Aᵀμ in its geometric stiffness K_g as
// it levers the loop-closure rows' −Gᵀλ: GeometricStiffness then takes lambda with the
// rows' multipliers μ after λ (length nc + NumPfaffian, the order of WithPfaffianRows), so
// the d'Alembert, transmitted and constraint loads it levers balance. K_g stays the
// symmetric part a body's inertia can hold: a row's load turns with its body (A depends
// on q), and that follower part of (Aᵀμ)_q is left out. M does not see the rows, so
// StiffMassSolve is unchanged.
type PfaffianStiffMassSolver interface {
	StiffMassSolver
	// HasPfaffianGeometricStiffness reports whether GeometricStiffness levers every row's
	// load, the Pfaffian rows' included, when given their multipliers.
	HasPfaffianGeometricStiffness() bool
}

// AsPfaffianStiffMassSolver returns sys as a StiffMassSolver whose K_g levers its Pfaffian
// rows' loads (PfaffianStiffMassSolver), or nil. WithPfaffianRows does not carry the
// capability: a method takes it from the system it wrapped, where it passes the full
// multipliers.
func AsPfaffianStiffMassSolver(sys System) StiffMassSolver {
	if s, ok := sys.(PfaffianStiffMassSolver); ok && s.HasPfaffianGeometricStiffness() {
		return s
	}
	return nil
}

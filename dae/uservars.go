package dae

// UserVariables is the optional capability of user variables V = v(t, q, v, X) (seed 004,
// eq. 8b), named channels such as a cam's pressure angle or a contact point's position.
//
// Seed 004 lets v depend on q″, λ, the forces and V itself and solves eq. 8b with the
// equations of motion. Restricted to (t, q, v, X), as here, V is an explicit function of
// the state: it adds no unknowns and no rows to any Newton matrix (they would be V − v = 0
// with an identity block, eliminated at once), it is exact wherever the state is, and a
// method needs no change to carry it, so every method accepts it. A force that uses a user
// variable calls the function that computes it, and its derivatives follow by the chain
// rule in the force's own Jacobian. A quantity that depends on a or λ (a contact force) is
// not a user variable in this sense: it is read from the accepted state (a, λ) instead.
type UserVariables interface {
	// UserVariableNames returns the names of the nv user variables, in order.
	UserVariableNames() []string
	// UserVariables writes V = v(t, q, v, X) into dst (length nv); x is nil for a system
	// without first-order states.
	UserVariables(dst []float64, t float64, q, v, x []float64)
}

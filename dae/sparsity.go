package dae

// Sparsity is the optional capability of a System whose mass matrix and constraint
// Jacobian have a fixed structural sparsity, so that integrators can factorize the KKT
// matrix [M Gᵀ; G 0] of seed 002, eq. 17, by a sparse solver (linalg.SparseKKT) set up once.
// The patterns are supersets of the nonzeros at every (t, q); rows list increasing columns.
type Sparsity interface {
	// MassPattern returns, per row i of M, the columns j that can be nonzero (the diagonal
	// is implied), or nil when M is diagonal.
	MassPattern() [][]int
	// ConstraintPattern returns, per row of G, the columns that can be nonzero.
	ConstraintPattern() [][]int
	// CouplingPattern returns, per row i of q, the columns j at which ∂f/∂q, ∂f/∂v,
	// ∂(M a)/∂q or ∂(Gᵀλ)/∂q can be nonzero — with MassPattern the pattern of the
	// top-left block of every implicit method's Newton matrix — or nil when it is dense.
	CouplingPattern() [][]int
}

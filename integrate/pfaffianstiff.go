package integrate

import "linkage/dae"

// takePfaffianStiffness gives m's solver the geometric stiffness K_g of sys, the system
// before dae.WithPfaffianRows wrapped it, when its K_g levers the Pfaffian rows' loads
// (dae.AsPfaffianStiffMassSolver): massSchurOf finds no dae.StiffMassSolver on the wrapped
// system (dae.AsStiffMassSolver is off where the rows press on the bodies), and the
// method's stiffen passes λ with the rows' μ after it, as GeometricStiffness then wants.
// For a method whose residual carries the rows as WithPfaffianRows orders them (genalpha's
// Newton-Krylov corrector); m nil or already stiff: nothing.
func (m *massNewton) takePfaffianStiffness(sys dae.System) {
	if m == nil || m.schur.st != nil {
		return
	}
	st := dae.AsPfaffianStiffMassSolver(sys)
	if st == nil {
		return
	}
	m.schur.st, m.schur.kg = st, make([]float64, st.GeometricStiffnessLen())
}

package integrate

import (
	"fmt"

	"linkage/dae"
)

// refuseDenseNewton refuses a method whose Newton matrix on sys would be dense although sys
// solves with M through dae.MassSolver (the joint route, whose point is O(N) per step):
// above massNewtonDenseMax coordinates, where one dense factorization costs more than many
// Newton-Krylov steps (massnewton.go), a silent O(nq³) per Jacobian and O(nq²) memory
// would be the run's cost. why names what keeps the method off the Newton-Krylov path
// ("" when nothing does). It returns nil for a system without dae.MassSolver, on the
// sparse evaluation path or with at most massNewtonDenseMax coordinates.
func refuseDenseNewton(method string, form Formulation, sys dae.System, why string) error {
	nq, _ := sys.Size()
	if _, ok := sys.(dae.MassSolver); !ok || nq <= massNewtonDenseMax || why == "" {
		return nil
	}
	if _, sparse := sys.(dae.SparseEvaluator); sparse {
		return nil // the sparse evaluation path (sparseeval.go) forms no dense matrix
	}
	return fmt.Errorf("integrate: %s: formulation %s on this dae.MassSolver system (joint coordinates) has no Newton-Krylov corrector (%s) and would factorize a dense Newton matrix of %d coordinates (more than %d); choose a method or form that has one (hht, also with λ-dependent forces; genalpha, genalpha-si2, newmark, lie-genalpha, radau5, bdf, ali3, ali1, multi-index, gcp-newmark, gcp-fv, daealpha index2 and index1-proj)",
		method, form, why, nq, massNewtonDenseMax)
}

// denseWhy says which capability of sys keeps it off the mass-preconditioned
// Newton-Krylov correctors (newMassSchur, newBDFMassPrecond, newRadauKrylov), or "".
func denseWhy(sys dae.System) string {
	if _, pf := sys.(dae.PfaffianRows); pf && !dae.HasReactionForce(sys) {
		return "nonholonomic Pfaffian rows"
	}
	return denseWhyRows(sys)
}

// denseWhyRows is denseWhy for a corrector whose preconditioner takes the Pfaffian rows
// A v + b = 0 beside G (genalpha's index-3 form: massSchur over (G; A)).
func denseWhyRows(sys dae.System) string {
	if dae.HasReactionForce(sys) {
		return "λ-dependent forces"
	}
	if _, ok := sys.(dae.MassMultiplier); !ok {
		return "no dae.MassMultiplier"
	}
	return ""
}

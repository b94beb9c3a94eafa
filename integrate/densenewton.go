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
	return fmt.Errorf("integrate: %s: formulation %s on this dae.MassSolver system (joint coordinates) has no Newton-Krylov corrector (%s) and would factorize a dense Newton matrix of %d coordinates (more than %d); choose a method or form that has one (hht, genalpha, genalpha-si2, newmark, lie-genalpha, bdf, radau5, ali3, ali1, multi-index, gcp-newmark, gcp-fv, gcp-abm, daealpha, all also with λ-dependent forces but daealpha's cs and cs-qr)",
		method, form, why, nq, massNewtonDenseMax)
}

// denseWhy says which capability of sys keeps it off the mass-preconditioned
// Newton-Krylov correctors (newMassSchur, newBDFMassPrecond, newRadauKrylov), or "", for a
// corrector that takes neither λ-dependent forces nor Pfaffian rows (denseWhyTaking).
func denseWhy(sys dae.System) string { return denseWhyTaking(sys, false, false) }

// denseWhyTaking is denseWhy for a corrector whose residual carries f_λ at the iterate's λ
// (reaction: GMRES's difference products then hold its λ columns) or whose preconditioner
// takes the Pfaffian rows A v + b = 0 beside G (pfaffian: massSchur over (G; A),
// bdfMassPrecond's rows).
func denseWhyTaking(sys dae.System, reaction, pfaffian bool) string {
	if dae.HasReactionForce(sys) && !reaction {
		return "λ-dependent forces"
	}
	if hasPfaffianRows(sys) && !pfaffian {
		return "nonholonomic Pfaffian rows"
	}
	if _, ok := sys.(dae.MassMultiplier); !ok {
		return "no dae.MassMultiplier"
	}
	return ""
}

// hasPfaffianRows reports Pfaffian rows on sys, before (dae.Nonholonomic) or after
// (dae.PfaffianRows) dae.WithPfaffianRows appended them to G: the methods ask at either
// point.
func hasPfaffianRows(sys dae.System) bool {
	if _, appended := sys.(dae.PfaffianRows); appended {
		return true
	}
	_, ok := dae.AsNonholonomic(sys)
	return ok
}

package integrate

import (
	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// The mass-solve path of the gcp core, for the explicit gcp-abm on systems that solve with
// M through dae.MassSolver (the joint route's articulated-body recursion): the partition,
// the position and velocity recovery (eqs. 7-8, 11-12, 31, 37) keep their small dense
// matrices G (nc×nq), G_u (nc×nc) and H (nc×nd), whose size grows with the loop-closure
// rows nc, not with nq²; the reduced mass of eq. 39 is never formed. Eq. 39 with eqs. 37-38
// is eq. 17 in other unknowns (both are the equations of motion restricted by G q” = γ),
// so the accelerations and multipliers come from eq. 17 by the Schur complement
// G M⁻¹ Gᵀ (massSchur: nc + 1 recursive solves), as rk4 and dopri5 take them: O(N) per
// rate for a fixed number of cut joints, where the dense path costs O(nq³).

// newGCPCoreMass returns the core on the mass-solve path: no nq×nq matrix, and none of
// the Newton matrix workspace of eq. 29 (gcp-abm has no Newton iteration).
func newGCPCoreMass(name string, sys dae.System, stats *Stats, ms *massSchur) (*gcpCore, error) {
	nq, nc := sys.Size()
	nd := nq - nc
	cs := &gcpCore{name: name, sys: sys, stats: stats, nq: nq, nc: nc, nd: nd, schur: ms}
	cs.dep, cs.ind, cs.inDep = make([]int, nc), make([]int, nd), make([]int, nq)
	if nc > 0 {
		if err := cs.newPartition(); err != nil {
			return nil, err
		}
		cs.phiU = linalg.NewFullPivLU(nc, nc)
		cs.Gu = mat.NewDense(nc, nc, nil)
		cs.G = mat.NewDense(nc, nq, nil)
		cs.H = mat.NewDense(nc, nd, nil)
		cs.g, cs.gt, cs.col = make([]float64, nc), make([]float64, nc), make([]float64, nc)
	}
	cs.initPartition()
	return cs, nil
}

// reducedAccelerationMass solves eq. 17, [M Gᵀ; G 0](a, λ) = (f, γ), at (t, q, v) with
// positions and velocities already recovered, by the Schur complement at q with the G of
// the position recovery (the same G as the dense path's H and eq. 38). The dependent
// entries of a equal H qInd” + α of eq. 37 and λ that of eq. 38 up to rounding.
func (cs *gcpCore) reducedAccelerationMass(t float64, q, v, a, lambda []float64) error {
	cs.sys.Force(a, t, q, v)
	cs.stats.FuncEvals++
	if cs.nc > 0 {
		cs.sys.Gamma(lambda, t, q, v)
	}
	cs.stats.Factorizations++
	if err := cs.schur.factor(t, q, cs.G); err != nil {
		cs.worst = Residual{Block: "G M⁻¹ Gᵀ (eq. 17) " + err.Error()}
		return err
	}
	cs.schur.Solve(a, lambda)
	cs.stats.Solves++
	return cs.checkFinite(a, lambda, nil)
}

package integrate

import (
	"math"

	"linkage/dae"
	"linkage/linalg"
)

// The mass-solve path of the gcp core, for gcp-abm, gcp-newmark and gcp-fv (gcpKrylov below) on
// systems that solve with M through dae.MassSolver (the joint route's articulated-body
// recursion): the partition,
// the position and velocity recovery (eqs. 7-8, 11-12, 31, 37) keep their small dense
// matrices G (nc×nq), G_u (nc×nc) and H (nc×nd), whose size grows with the loop-closure
// rows nc, not with nq²; the reduced mass of eq. 39 is never formed. Eq. 39 with eqs. 37-38
// is eq. 17 in other unknowns (both are the equations of motion restricted by G q” = γ),
// so the accelerations and multipliers come from eq. 17 by the Schur complement
// G M⁻¹ Gᵀ (massSchur: nc + 1 recursive solves), as rk4 and dopri5 take them: O(N) per
// rate for a fixed number of cut joints, where the dense path costs O(nq³). With
// λ-dependent forces (joint friction) eq. 17 is solved by Newton on λ (newReactionAccelFD)
// and eq. 38 by Newton on λ with G_uᵀ − ∂f_λ/∂λ_u from differences of f_λ
// (refactorReaction): no ∂f_λ matrix of nq rows is formed.

// newGCPCoreMass returns the core on the mass-solve path: no nq×nq matrix, and none of
// the Newton matrix workspace of eq. 29; mm (gcp-newmark's residual Ψ) forms M a.
func newGCPCoreMass(name string, sys dae.System, stats *Stats, ms *massSchur, mm dae.MassMultiplier) (*gcpCore, error) {
	nq, nc := sys.Size()
	nd := nq - nc
	cs := &gcpCore{name: name, sys: sys, stats: stats, nq: nq, nc: nc, nd: nd, schur: ms, mm: mm}
	cs.dep, cs.ind, cs.inDep = make([]int, nc), make([]int, nd), make([]int, nq)
	cs.f, cs.e = make([]float64, nq), make([]float64, nq)
	if nc > 0 {
		if err := cs.newRecovery(); err != nil {
			return nil, err
		}
	}
	if cs.rx = newReactionDeferred(sys, nil); cs.rx != nil {
		cs.rxa = newReactionAccelFD(sys) // eq. 17 with f_λ (reducedAccelerationMass)
		if nc > 0 {
			cs.alu, cs.fd = linalg.NewLU(nc), true // eq. 38 with f_λ (reactionMultipliers)
			cs.fl, cs.dl, cs.flt, cs.lt = make([]float64, nq), make([]float64, nc), make([]float64, 2*nq), make([]float64, nc)
		}
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
	if cs.rxa != nil { // eq. 17 with f_λ(λ): Newton on λ (reactionaccel.go)
		if err := cs.rxa.solve(cs.schur, a, lambda, t, q, v, cs.stats); err != nil {
			cs.worst = Residual{Block: "eq. 17 with λ-dependent forces"}
			return err
		}
		return cs.checkFinite(a, lambda, nil)
	}
	cs.schur.Solve(a, lambda)
	cs.stats.Solves++
	return cs.checkFinite(a, lambda, nil)
}

// gcpKrylov is the corrector of gcp-newmark and gcp-fv on the mass-solve path: the Newton
// increment of eq. 30 by GMRES on products taken as forward differences of the residual,
// each a full recovery (eqs. 11, 31, 37), O(N) for a fixed number of constraint rows.
// Newton runs on Ψ (eq. 20) in its forward-dynamics form
//
//	Ψ̃(qInd”) = (Zᵀ M(q) Z)⁻¹ Ψ = qInd” − q̈*_ind(t, q, q'),
//
// q̈* the accelerations of eq. 17 at the recovered (q, q') (reducedAccelerationMass: the
// Schur complement G M⁻¹ Gᵀ at q, nc + 1 recursive solves). The two are equal because
// M a − f = M(a − q̈*) − Gᵀλ*, Zᵀ Gᵀ = 0 and a − q̈* = Z(qInd” − q̈*_ind) (both satisfy
// eq. 37's G q” = γ); so Ψ̃ has Ψ's zeros, and its tangent at the iterate is the Jacobian of
// eq. 29 scaled by (Zᵀ M Z)⁻¹ (the reduced mass of eq. 39, which preconditioned Ψ before),
// so GMRES needs no preconditioner. Newton's method is not invariant under that
// q-dependent row scaling, and that is its purpose: in joint coordinates of slender rods
// M(q)'s spin inertia changes by orders over microradians, and Ψ, which carries M(q) a
// unscaled, is far more curved along the spins than Ψ̃ (as ali3's rows, aliKrylov). On
// the 1000-rod chain at 0.14-0.28 ms the first increment on Ψ raised the preconditioned
// residual in the spin rows 2.3 → 251 and the second undid it there, and Newton took 3
// iterations per step where it takes 2 at N = 100 (BENCHMARKS.md, "gcp-newmark's products
// on the 1000-rod chain"). For gcp-fv too: differences keep the terms of eq. 40 that its
// quasi-Newton matrix drops, so on this path gcp-fv is Newton's method on the same
// equations with the exact Jacobian, the same iteration as gcp-newmark (the same steps and
// solution to rounding), not Fisette and Vaneghem's approximation.
type gcpKrylov struct {
	kr       *gmres
	pt       State     // the perturbed iterate of a product
	pv, ppsi []float64 // nd: perturbed qInd”, Ψ̃ there
	a        []float64 // nq: q̈* of eq. 17 at the last recovery
	kg       gcpStiffness
}

// gcpGMRESRTol is GMRES's forcing term on Ψ̃. Newton's second increment is about the
// first one's linear-solve error, so with hht's 1e-2 on the 1000-rod chain at 0.14-0.28 ms
// (first increments 5-23 in the Newton norm) it was 1-2 % of the first, θ/(1−θ)‖Δ‖ =
// 2-6e-3 above Tol = 1e-3, and Newton took a third iteration in most steps: 3e-3 stops at
// the second (2.0 iterations, 7-8 evaluations per step at N = 1000 where 1e-2 took 2-3
// and 8-8.2; N = 100 unchanged at 6). 1e-3 gave the same iterations at more products.
const gcpGMRESRTol = 3e-3

func newGCPKrylov(sys dae.System, nq, nc int) *gcpKrylov {
	nd := nq - nc
	kr := newGMRES(nd)
	kr.rtol = gcpGMRESRTol
	k := &gcpKrylov{kr: kr, pt: NewState(nq, nc), pv: make([]float64, nd), ppsi: make([]float64, nd),
		a: make([]float64, nq)}
	k.kg.init(sys, nq, nc)
	return k
}

// forwardResidual writes Ψ̃ = qInd” − q̈*_ind (see gcpKrylov) into psi at the recovered
// positions and velocities of it, with it's multipliers and dependent accelerations
// those of eq. 17 (eq. 38's and eq. 37's at the solution).
func (w *gcpWork) forwardResidual(vdd []float64, it *State, psi []float64) error {
	cs, a := w.cs, w.kry.a
	if err := cs.reducedAccelerationMass(it.T, it.Q, it.V, a, it.Lambda); err != nil {
		w.lad.worst = cs.worst
		return err
	}
	for j, i := range cs.ind {
		psi[j] = vdd[j] - a[i]
	}
	for _, i := range cs.dep {
		it.A[i] = a[i]
	}
	return nil
}

// krylov overwrites w.dvdd (holding −Ψ) with the GMRES increment.
func (w *gcpWork) krylov() {
	k := w.kry
	reached := k.kr.solve(w, w.dvdd)
	k.kg.counted(k.kr.products, reached)
}

// jacVec writes Ψ_v” z ≈ (Ψ(qInd” + εz) − Ψ(qInd”))/ε into dst (krylovSystem), ε from
// perturb with gcpProductScale. A recovery that fails at the perturbed point writes NaN,
// which ends the iteration as diverged.
func (w *gcpWork) jacVec(dst, z []float64) {
	k, h := w.kry, w.hTry
	eps := perturb(k.pv, w.vdd, z, gcpProductScale(w.cur.Q, w.cur.V, h), k.kr.noise)
	if eps == 0 {
		clear(dst)
		return
	}
	k.pt.T = w.it.T
	copy(k.pt.Q, w.it.Q)
	copy(k.pt.Lambda, w.it.Lambda)
	if err := w.evaluateAt(h, k.pv, &k.pt, k.ppsi); err != nil {
		for i := range dst {
			dst[i] = math.NaN()
		}
		return
	}
	for i := range dst {
		dst[i] = (k.ppsi[i] - w.psi[i]) / eps
	}
}

// gcpProductScale is the scale S of qInd” for the difference products (perturb): qInd”
// moves q by βh² and q' by γh times its change (eqs. 16-17), so it is the smaller of
// (1 + ‖q‖)/(βh²) and (1 + ‖q'‖)/(γh), each input moved at most on its own scale. The
// position scale alone is 2(1 + ‖q‖)/(h(1 + ‖q'‖)) times larger: at h = 70 µs on the 3D
// chain's start it moved a by 12 rad/s² and q' by 4e-4 rad/s, and the products'
// truncation in the quadratic velocity terms, lifted by M⁻¹ into the slender rods' spins,
// left second Newton increments of 1-7 % of the first where a smaller increment leaves
// 0.1 % (BENCHMARKS.md, "gcp-newmark's products on the 1000-rod chain").
func gcpProductScale(q, v []float64, h float64) float64 {
	return math.Min((1+norm2(q))/(gcpBeta*h*h), (1+norm2(v))/(gcpGamma*h))
}

// precondition applies the rule gcpStiffness's preconditioner to x (krylovSystem): x as
// it is while it holds no K_g (Ψ̃ carries the reduced mass's inverse itself).
func (w *gcpWork) precondition(x []float64) { w.kry.kg.apply(w.cs, x) }

// firstIterate reports whether no increment of the attempt has been taken yet.
func (w *gcpWork) firstIterate() bool {
	if w.full != nil {
		return w.full.iter == 0
	}
	return w.nw.mon.iter == 0
}

// stalled reports whether the increment of weighted norm norm contracted by less than
// alphaStallRate on the last one of the attempt (two increments of rounding noise have a
// rate θ near 1).
func (w *gcpWork) stalled(norm float64) bool {
	iter, prev := w.nw.mon.iter, w.nw.mon.prev
	if w.full != nil {
		iter, prev = w.full.iter, w.full.prev
	}
	return iter > 0 && norm >= alphaStallRate*prev
}

// measureRounding measures the rounding level of the increments (newtonRounding) at the
// iterate: the third difference of Ψ̃ (gcpKrylov) along qInd”, in the weighted norm of
// the increments; setFloor makes it the Newton floor. Ψ̃ carries the rounding of the joint loads' world-origin moments, which M⁻¹ takes into the
// slender rods' spins: from the loaded 1000-rod chain at h = 0.14 ms the increments
// stalled at 0.02 in that norm (θ ≈ 1, against the 10-ulp floor 2e-11) and full Newton
// ran out of iterations (BENCHMARKS.md, "gcp-newmark's products on the 1000-rod chain").
// As genalpha's (genAlphaWork.measureRounding) it runs at a stalled increment only
// (roundingDue), and the level holds for gcpRoundingAttempts attempts. It
// restores qInd” and Ψ; the displaced evaluations leave their state in the iterate, which
// the next residual or the converged iterate's recovery overwrites.
func (w *gcpWork) measureRounding() {
	m := w.rnd
	copy(m.y, w.vdd)
	copy(m.r0, w.psi)
	thirdDifference(w, w.dvdd)
	m.setLevel(WeightedRMS(w.dvdd, m.y, m.y, w.lad.c.RTol, w.lad.c.ATol))
	m.current, w.rndAge = true, 0
	w.rndCount++
	copy(w.vdd, m.y)
	copy(w.psi, m.r0)
}

// displacedResidual evaluates Ψ at qInd” + kτd (roundingProbe).
func (w *gcpWork) displacedResidual(k int) []float64 {
	pv := w.kry.pv
	for i, a := range w.rnd.y {
		pv[i] = a + roundingShift(k, i, a)
	}
	_ = w.evaluateAt(w.hTry, pv, &w.it, w.psi) // a failure leaves a non-finite level: none
	return w.psi
}

// gcpRoundingAttempts is the number of attempts a measured rounding level serves: the
// joint loads that set it change over many steps. Within them a stall above the floor is
// measured again only up to gcpRoundingReach times the floor: a stall far above it is
// Newton's own (from a far start the increments may not contract for an iteration or two:
// at N = 100, h = 3.4 ms, 1e3 then 962, then 1.2), not rounding that grew.
const gcpRoundingAttempts, gcpRoundingReach = 16, 16

// roundingDue reports whether a stalled increment of weighted norm norm calls for a
// measurement of the rounding level: none holds, or it lies above the floor within
// gcpRoundingReach times it.
func (w *gcpWork) roundingDue(norm float64) bool {
	m := w.rnd
	return !m.current || (norm > m.floor() && norm <= gcpRoundingReach*m.floor())
}

// setFloor sets the Newton floor: the 10-ulp floor, or bdfRoundingFloor times the
// measured rounding level while it holds, when larger.
func (w *gcpWork) setFloor() {
	f := tenUlpFloor(w.lad.c.RTol, w.lad.c.ATol)
	if w.rnd != nil && w.rnd.current {
		f = math.Max(f, w.rnd.floor())
	}
	w.nw.mon.floor = f
	if w.full != nil {
		w.full.floor = f
	}
}

package integrate

import (
	"math"

	"linkage/linalg"
)

// singularWatch reports the singular positions a method passes, whether it steps straight
// over them (dopri5: no Newton iteration fails there, so the singular mode never starts)
// or its Newton iteration fails near them (hht, genalpha, bdf, radau5:
// newtonSolver.watchStep).
// After an accepted step it takes one step of inverse iteration on the Schur complement S
// of the multipliers in a saddle-point matrix the method has factorized at the new state
// (schurSolver): dopri5's [M Gᵀ; G 0] (seed 002, eq. 17), S = G M⁻¹ Gᵀ, or the Newton
// matrix of an implicit method, whose S is the same up to a constant factor and O(h)
// terms. The solve of the matrix with right-hand side (0, y) gives λ = −S⁻¹ y, so
// μ = ‖y‖/‖λ‖ (y of unit norm) tracks from above the smallest eigenvalue of S, σ_min(G)²
// in the metric of M, at the cost of one solve and no allocation. A passage starts when
// μ falls below watchDrop times its value at the start and ends when it rises back; it
// is reported at the accepted state where μ was least, with the rank and joints of
// failureContext.diagnoseSingular (the same test as the singular mode), if G has lost
// rank there. The first observation converges μ₀ by up to watchStartIters iterations.
type singularWatch struct {
	y, lam   []float64 // nc, nc
	mu0      float64   // μ at the first accepted step; 0 before it
	in       bool      // inside a passage: μ < watchDrop·μ₀
	muMin    float64
	min      State // the accepted state of least μ in the passage (T and Q)
	kkt      kktSchur
	passages []SingularPassage // dopri5's (observe); implicit methods merge theirs (newtonSolver.watchStep)
}

// schurSolver is the solve of singularWatch: it overwrites y (the right-hand side of the
// constraint rows; the other rows are 0) with the multipliers of the solution, −S⁻¹ y up
// to a factor that does not depend on the step size.
type schurSolver interface {
	schurSolve(y []float64)
}

// kktSchur is schurSolver with the saddle-point factorization [M Gᵀ; G 0] (dopri5).
type kktSchur struct {
	kkt linalg.SaddlePoint
	x   []float64 // nq
}

func (k *kktSchur) schurSolve(y []float64) {
	clear(k.x)
	k.kkt.Solve(k.x, y)
}

// watchDrop is singularModeDrop squared: μ measures σ_min(G)², the singular mode's test
// the pivot ratio of G.
const watchDrop = singularModeDrop * singularModeDrop

// watchStartIters is the most inverse iterations that converge μ₀ at the first step; they
// stop earlier once μ changes by at most watchStartTol·μ from one to the next.
const watchStartIters = 30

// watchStartTol is the relative change of μ at which the start's inverse iteration stops.
// μ₀ only sets the threshold watchDrop·μ₀ that a passage must fall below, so a few digits
// suffice; the change between iterations bounds μ₀'s error from above once the iteration
// contracts (on the bar chains of 100 and 1000 bars the error shrinks about 100-fold per
// iteration: 1e-8 in 4-5 iterations where rounding level, 1e-14, took 8; 30 iterations
// were 47 M of hht's 725 M instructions at 1000 bars, tol 1e-4). The watch reports
// passages only, so the integration's numbers do not depend on it.
const watchStartTol = 1e-8

func newSingularWatch(nq, nc int) singularWatch {
	return singularWatch{y: make([]float64, nc), lam: make([]float64, nc), kkt: kktSchur{x: make([]float64, nq)}, min: State{Q: make([]float64, nq)}}
}

// iterate takes one inverse iteration with solve and returns μ.
func (s *singularWatch) iterate(solve schurSolver) float64 {
	copy(s.lam, s.y)
	solve.schurSolve(s.lam)
	n := 0.0
	for _, v := range s.lam {
		n += v * v
	}
	n = math.Sqrt(n)
	if !(n > 0) || math.IsInf(n, 0) {
		return math.Inf(1) // S singular to rounding: nothing to iterate on
	}
	for i, v := range s.lam {
		s.y[i] = v / n
	}
	return 1 / n
}

// observe follows μ at the accepted state cur of dopri5, kkt factorized there, and lists
// the passages.
func (s *singularWatch) observe(kkt linalg.SaddlePoint, cur *State, fc *failureContext) {
	s.kkt.kkt = kkt
	if p, ok := s.follow(&s.kkt, cur, fc); ok {
		s.passages = append(s.passages, p)
	}
}

// follow follows μ at the accepted state cur with solve, and returns the passage that
// ended there, if one did and G had lost rank at its least μ.
func (s *singularWatch) follow(solve schurSolver, cur *State, fc *failureContext) (SingularPassage, bool) {
	if len(s.y) == 0 {
		return SingularPassage{}, false
	}
	if s.mu0 == 0 {
		for i := range s.y {
			s.y[i] = 1 / math.Sqrt(float64(len(s.y)))
		}
		for k := range watchStartIters {
			mu := s.iterate(solve)
			settled := k > 0 && math.Abs(mu-s.mu0) <= watchStartTol*mu // false for NaN and ∞
			s.mu0 = mu
			if settled {
				break
			}
		}
		return SingularPassage{}, false
	}
	mu := s.iterate(solve)
	switch {
	case mu < watchDrop*s.mu0 && (!s.in || mu < s.muMin):
		s.in, s.muMin, s.min.T = true, mu, cur.T
		copy(s.min.Q, cur.Q)
	case s.in && mu >= watchDrop*s.mu0:
		s.in = false
		return fc.diagnoseSingular(&s.min)
	}
	return SingularPassage{}, false
}

// implicitWatch is the singularWatch of an implicit method (newtonSolver): the inverse
// iteration solves with the method's Newton factorization (schurProbe), after each
// accepted step whose attempt factorized a fresh matrix (a stale one was made at an
// earlier state; near a singular position the Newton iteration refreshes it at nearly
// every step), on the sparse path too, for one solve and no allocation after the first.
type implicitWatch struct {
	w     singularWatch
	probe newtonSchur
	real  radauReal // radau5's real matrix as a linearSolve
	// from indexes the passages recorded since the watch's last passage ended: the
	// singular mode's entries in them are the passage the watch ends next.
	from int
}

// schurProbe is a method whose Newton matrix is a saddle point in its constraint rows
// and multipliers (schurBlock).
type schurProbe interface {
	schurBlock() schurBlock
}

// schurBlock is where the multipliers' block of a Newton matrix's inverse is: the
// factorization lu of order n (nil when there is none: no constraints, no such layout),
// the first constraint row and multiplier column, the factor that makes the block
// independent of h, and the accepted state the matrix was evaluated at (nil: the last).
type schurBlock struct {
	lu       linearSolve
	n        int
	row, col int
	scale    float64
	at       *State
}

// linearSolve overwrites b with the solution of a factorized system.
type linearSolve interface {
	Solve(b []float64)
}

// newtonSchur is schurSolver with a Newton factorization (schurProbe's block).
type newtonSchur struct {
	lu       linearSolve
	rhs      []float64 // the Newton system's size
	row, col int
	scale    float64
}

func (p *newtonSchur) schurSolve(y []float64) {
	clear(p.rhs)
	copy(p.rhs[p.row:], y)
	p.lu.Solve(p.rhs)
	for i := range y {
		y[i] = p.scale * p.rhs[p.col+i]
	}
}

// watchStep follows the singular watch after an accepted step of m at cur (ladder.step)
// and records the passage that ended there: it takes the place of the singular mode's
// entries made during the passage (the Newton failure near the singular position, which
// the instant of least μ dates better), and is added when there were none. A passage in
// which the redundant rows were chosen anew (rekeep) is already reported by that swap.
func (n *newtonSolver) watchStep(m stepper, cur *State, fc *failureContext) {
	if !n.fresh || fc.sys == nil {
		return // most steps: the watch needs a matrix factorized at this step
	}
	sp, ok := m.(schurProbe)
	if !ok {
		return
	}
	b := sp.schurBlock()
	if b.lu == nil {
		return
	}
	iw := &n.watch
	if iw.w.y == nil {
		_, nc := fc.sys.Size()
		iw.w = newSingularWatch(len(cur.Q), nc)
		iw.probe.rhs = make([]float64, b.n)
	}
	if b.at != nil {
		cur = b.at
	}
	iw.probe.lu, iw.probe.row, iw.probe.col, iw.probe.scale = b.lu, b.row, b.col, b.scale
	p, ended := iw.w.follow(&iw.probe, cur, fc)
	if !ended {
		if !iw.w.in && !n.singular {
			iw.from = len(n.passages) // nothing of a passage under way
		}
		return
	}
	n.passages = mergePassage(n.passages, iw.from, p)
	iw.from = len(n.passages)
}

// mergePassage puts p in place of the singular mode's entries of list[from:], or appends
// it when that part of list has none and no rekeep either.
func mergePassage(list []SingularPassage, from int, p SingularPassage) []SingularPassage {
	out, placed, swapped := list[:from], false, false
	for _, q := range list[from:] {
		switch {
		case len(q.Left) > 0:
			out, swapped = append(out, q), true
		case !placed:
			out, placed = append(out, p), true
		}
	}
	if !placed && !swapped {
		out = append(out, p)
	}
	return out
}

// schurBlock: hht's matrix of eq. 12 is [M/(1+α) + O(h), Gᵀ; G, 0] in (a, λ), scaled
// constraint rows: S = (1+α) G M⁻¹ Gᵀ + O(h). On the Newton-Krylov path its mass part
// (massNewton) has the same S to leading order and is probed instead.
func (w *hhtWork) schurBlock() schurBlock {
	if w.nc == 0 {
		return schurBlock{}
	}
	return schurBlock{lu: w.mn.or(w.lu), n: w.n, row: w.nq, col: w.nq, scale: 1}
}

// schurBlock: genalpha's matrix of eq. 70 is [C M + O(h²), Gᵀ; G, 0] in (Δq, hλ), so
// S = G M⁻¹ Gᵀ/C + O(h²). In the stabilized index-2 form (eq. 94) the block probed is
// that of μ and the rows ġ_h, (β/γ)(G G₀ᵀ)⁻¹ to leading order: the λ block of the inverse
// vanishes there with h.
func (w *genAlphaWork) schurBlock() schurBlock {
	switch {
	case w.nc == 0:
		return schurBlock{}
	case w.si2 && w.mn.inUse():
		return schurBlock{lu: w.si2p, n: w.nx, row: w.nq + w.nc, col: w.nq + w.nc, scale: 1} // its μ block is (β/γ)(G Gᵀ)⁻¹
	case w.si2:
		return schurBlock{lu: w.mn.or(w.lu), n: w.nx, row: w.nq + w.nc, col: w.nq + w.nc, scale: 1} // or: no nil *newtonFactor in the interface
	}
	return schurBlock{lu: w.mn.or(w.lu), n: w.nx, row: w.nq, col: w.nq, scale: 1}
}

// schurBlock: bdf's matrix c_j K − ∂φ/∂y of the first-order form y = (q, v, a, λ[, μ])
// (semiExplicit) gives the multipliers λ of its constraint rows c_j^(k−1) S⁻¹ to leading
// order in h, k the differentiation index of λ (3 in index3: the rows g reach λ through
// q' = v, v' = a, M a = f − Gᵀλ; 2 in ggl and index2; 1 in index1), so the scale is
// c_j^−(k−1), c_j of the factorization.
func (w *bdfWork) schurBlock() schurBlock {
	if w.se == nil || w.nc == 0 {
		return schurBlock{}
	}
	var lu linearSolve = w.lu
	switch {
	case w.mn().inUse():
		lu = w.pm // its λ block is c_j S⁻¹ too (bdfmassnewton.go)
	case w.lu == nil:
		return schurBlock{}
	}
	return schurBlock{lu: lu, n: w.n, row: w.se.il(), col: w.se.il(), scale: firstOrderSchurScale(w.se, w.cjJ)}
}

// schurBlock: radau5's real matrix (γ/h) K − J of the first-order form is bdf's with
// c_j = γ/h, h that of the factorization; its J is evaluated at the start of the step
// (RADAU5), the state before the accepted one. On the Newton-Krylov path its mass part
// (radauKrylov) is probed, whose λ block is the same to leading order, as bdf's.
func (w *radauWork) schurBlock() schurBlock {
	if w.se == nil || w.se.nc == 0 || !w.haveLU {
		return schurBlock{}
	}
	var lu linearSolve = &w.nw.watch.real
	if w.mn().inUse() {
		lu = w.kry
	} else {
		w.nw.watch.real.lin = w.lin
	}
	return schurBlock{lu: lu, n: w.n, row: w.se.il(), col: w.se.il(),
		scale: firstOrderSchurScale(w.se, radauCoef.gamma/w.hLU), at: &w.prev}
}

// firstOrderSchurScale is c^−(k−1), k the differentiation index of λ in se (schurBlock of
// bdf and radau5).
func firstOrderSchurScale(se *semiExplicit, c float64) float64 {
	return math.Pow(c, float64(1-se.index(se.il())))
}

// radauReal is radau5's real Newton matrix as a linearSolve.
type radauReal struct{ lin radauSystems }

// Solve implements linearSolve.
func (r *radauReal) Solve(b []float64) { r.lin.solveReal(b) }

package dae

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Defaults of InitOptions.
const (
	// defaultInitTol is the relative target of the constraint residuals: about 5000 rounding
	// errors of the largest term of g, which Newton reaches in one step from 1e-8.
	defaultInitTol = 1e-12
	// defaultInitIters bounds the Newton iterations; from ‖g‖ ≈ 1e-2 quadratic convergence
	// needs 4 or 5, so 20 only fails on guesses outside the basin.
	defaultInitIters = 20
	// defaultRankTol is the relative threshold on |R_kk| below which a row of G counts as
	// a combination of the others: well above the 1e-16·‖G‖ rounding of the factorization,
	// well below the smallest singular value of any mechanism away from a singular pose.
	defaultRankTol = 1e-10
	// divergeFactor: Newton is abandoned as diverging once ‖g‖∞ exceeds this multiple of
	// its value at the guess.
	divergeFactor = 1e4
)

// InitOptions are the settings of Initialize; nil or zero fields take the defaults.
type InitOptions struct {
	// Tol is the target of ‖g(t0,q)‖∞ and of ‖G v + g_t‖∞ over all rows, redundant rows
	// included. Default: position 1e-12·max(1, s_q) with s_q = max_i Σ_j |G_ij|·|q̄_j| at the
	// guess (the size of the terms of g for constraints quadratic in q, e.g. l² for a rod of
	// length l); velocity 1e-12·max(1, s_v) with s_v = max_i (Σ_j |G_ij v_j| + |g_t,i|) at the
	// result. A positive Tol is used for both levels.
	Tol float64
	// MaxIters bounds the Newton iterations on the position constraints [20].
	MaxIters int
	// RankTol is the relative threshold on |R_kk| / |R_00| of the pivoted QR factorizations
	// that decide the rank of G and pick the dependent coordinates, in (0, 1) [1e-10]. On
	// the sparse path it bounds the entries of a row reduced against the rows before it,
	// relative to max |G_ij| (linalg.SparseRankLU.Tol): both measure the part of a row
	// outside the span of the others against the size of G.
	RankTol float64
	// Keep lists coordinates that should stay independent (keep their guessed position and
	// velocity). They are made dependent only when the other coordinates cannot supply nλ
	// independent columns of G; Consistent.Dependent says which coordinates were solved for.
	Keep []int
	// Factorization chooses the linear algebra of the partition and the solves [InitAuto].
	Factorization InitFactorization
	// X holds the first-order states of a FirstOrder system (length StateSize(sys)); their
	// force f_X(t0, q, v, X) joins f in eq. 17. Required when StateSize(sys) > 0, else
	// ignored.
	X []float64
}

// Consistent is a consistent initial state of seed 002, Definition 1: (Q, V) satisfy the
// position and velocity constraints (eq. 19) and (A, Lambda) solve the linear system of
// eq. 17.
type Consistent struct {
	Q, V, A, Lambda []float64 // λ has full length nc; 0 for redundant rows
	Redundant       []int     // constraint rows found dependent on the others (dropped)
	Independent     []int     // the coordinates kept from the guess
	Dependent       []int     // the coordinates solved for
	// KeptSolved are the coordinates of InitOptions.Keep that had to be solved for (Keep
	// asked for more than the constraints leave free) and kept their guess only because
	// the guess satisfied the constraints; had one moved, Initialize would have failed.
	KeptSolved []int
	Iterations int // Newton iterations on the position constraints
}

// KeptRows returns the constraint rows that are not redundant, in increasing order: the
// keep argument of Reduce, which gives the integrators a G of full row rank.
func (c Consistent) KeptRows() []int {
	rows := make([]int, 0, len(c.Lambda)-len(c.Redundant))
	for i := range c.Lambda {
		if !slices.Contains(c.Redundant, i) {
			rows = append(rows, i)
		}
	}
	return rows
}

// Report describes the partitioning with the names sys gives its coordinates and
// constraints (see Namer): which coordinates were solved for and which constraints were
// dropped as redundant.
func (c Consistent) Report(sys System) string {
	var b strings.Builder
	fmt.Fprintf(&b, "consistent after %d Newton iterations", c.Iterations)
	fmt.Fprintf(&b, "; dependent coordinates: %s", names(c.Dependent, func(i int) string { return CoordinateName(sys, i) }))
	fmt.Fprintf(&b, "; independent coordinates: %s", names(c.Independent, func(i int) string { return CoordinateName(sys, i) }))
	fmt.Fprintf(&b, "; redundant constraints: %s", names(c.Redundant, func(i int) string { return ConstraintName(sys, i) }))
	if len(c.KeptSolved) > 0 {
		fmt.Fprintf(&b, "; over-determined keep: %s solved for, unchanged only because the guess satisfies the constraints",
			names(c.KeptSolved, func(i int) string { return CoordinateName(sys, i) }))
	}
	return b.String()
}

func names(idx []int, name func(int) string) string {
	if len(idx) == 0 {
		return "none"
	}
	s := make([]string, len(idx))
	for k, i := range idx {
		s[k] = name(i)
	}
	return strings.Join(s, ", ")
}

// Initialize computes consistent initial values from a guess (q̄, v̄) by the coordinate
// partitioning of seed 002, Remark 2b, extended to redundant constraints:
//
//  1. The rank nλ of G(t0, q̄) and a set of nλ independent rows come from the pivoted QR
//     factorization of Gᵀ; the other rows are redundant. Among rows of equal weight the
//     pivoting keeps the one of lower index.
//  2. nλ independent columns of the reduced G, chosen by pivoted QR (avoiding opt.Keep),
//     are the dependent coordinates q̂ = P̂ᵀq; the others keep their guessed values.
//  3. Newton's method solves g_red(t0, P̄P̄ᵀq̄ + P̂q̂) = 0 for q̂ (eq. 21) with the Jacobian
//     G_red P̂ re-evaluated every iteration. Afterwards every row, redundant ones included,
//     must satisfy |g_i| ≤ Tol; a redundant row that does not is inconsistent with the
//     rows its gradient combines.
//  4. v̂ solves G_red P̂ v̂ = −g_t − G_red P̄P̄ᵀ v̄ (seed 002, Remark 2b), and every row must
//     satisfy |G v + g_t| ≤ Tol.
//  5. (a, λ_red) solve the linear system of eq. 17 with the redundant rows dropped (below),
//     which is non-singular when M is positive definite on ker G (seed 002, Lemma 1);
//     λ of redundant rows is 0.
//
// The system of step 5 is (f_X: the force of first-order states, FirstOrder, at
// InitOptions.X; absent otherwise; with λ-dependent forces, ReactionForce, f_λ(λ) joins the
// right side and a fixed-point iteration on λ solves it, unless rows are redundant, when
// the reactions are not determined and f_λ is left out)
//
//	[ M      G_redᵀ ] [a    ]   [f + f_X]
//	[ G_red  0      ] [λ_red] = [γ_red  ]
//
// Steps 1 and 2 are those of the dense path (InitDense); the sparse path (InitSparse, and
// InitAuto for large SparseEvaluators) finds the rank, the redundant rows and the dependent
// columns by a sparse LU with threshold pivoting that limits fill (linalg.SparseRankLU),
// then names as redundant the last-listed row of each dependency (InitSparse); Newton
// refactorizes the sparse G_red P̂ with the pattern analysed once, step 5 factorizes the
// sparse matrix of eq. 17, and a redundant row's combination comes from a solve with the
// transpose of a square block of the independent rows. No matrix of size nq×nq or nc×nq
// is formed.
//
// A system with nonholonomic constraints (Nonholonomic) is initialized as
// WithPfaffianRows(sys): the Pfaffian rows join G in steps 1-2 (Newton keeps A Δq = 0), the
// start velocities satisfy A v + b = 0 with G v + g_t = 0 in step 4, and step 5 solves for
// (a, λ, μ) with A a = γ_A; Consistent.Lambda then holds λ followed by μ (nc + nn values).
//
// Redundancy is judged at the guess, so rows that become dependent only on the
// constraint manifold (a parallelogram's third crank) are not detected and make the Newton
// matrix or the KKT matrix singular at the solution; such models should drop those rows.
// Errors start with "dae: initialize:" and name the offending coordinates or constraints
// (Namer). len(q) or len(v) other than nq panics.
func Initialize(sys System, t0 float64, q, v []float64, opt *InitOptions) (Consistent, error) {
	nq, _ := sys.Size()
	if len(q) != nq || len(v) != nq {
		panic(fmt.Sprintf("dae: Initialize: len(q) = %d, len(v) = %d, want nq = %d", len(q), len(v), nq))
	}
	if err := RefusePfaffianWith("dae: initialize", sys); err != nil {
		return Consistent{}, err
	}
	sys = WithPfaffianRows(sys) // nc counts the Pfaffian rows from here on
	_, nc := sys.Size()
	o, err := resolveInit(opt, nq)
	if err != nil {
		return Consistent{}, err
	}
	if err := checkGuess(sys, t0, q, v); err != nil {
		return Consistent{}, err
	}
	if nd := StateSize(sys); nd > 0 && len(o.x) != nd {
		return Consistent{}, fmt.Errorf("dae: initialize: the system has %d first-order states, InitOptions.X has %d values", nd, len(o.x))
	}
	for i, x := range o.x {
		if !finite(x) {
			return Consistent{}, fmt.Errorf("dae: initialize: first-order state X[%d] = %g", i, x)
		}
	}
	in := &initWork{sys: sys, t0: t0, nq: nq, nc: nc, o: o}
	in.q = append([]float64(nil), q...)
	in.v = append([]float64(nil), v...)
	in.g = make([]float64, nc)
	in.gt = make([]float64, nc)
	if in.G, err = newJacobian(sys, o.path); err != nil {
		return Consistent{}, err
	}

	if nc > 0 {
		if err := in.partition(); err != nil {
			return Consistent{}, err
		}
		if err := in.positions(); err != nil {
			return Consistent{}, err
		}
		if err := in.velocities(); err != nil {
			return Consistent{}, err
		}
		if err := in.checkKept(q, v); err != nil {
			return Consistent{}, err
		}
	} else {
		in.indep = seq(nq)
	}
	a, lambda, err := in.accelerations()
	if err != nil {
		return Consistent{}, err
	}
	return Consistent{
		Q: in.q, V: in.v, A: a, Lambda: lambda,
		Redundant: in.redundant, Independent: in.indep, Dependent: in.dep,
		KeptSolved: in.keptSolved(), Iterations: in.iters,
	}, nil
}

// initOpts are InitOptions with defaults resolved; tol = 0 means the scaled defaults.
type initOpts struct {
	tol      float64
	maxIters int
	rankTol  float64
	keep     []bool
	x        []float64
	path     InitFactorization
}

func resolveInit(opt *InitOptions, nq int) (initOpts, error) {
	o := initOpts{maxIters: defaultInitIters, rankTol: defaultRankTol, keep: make([]bool, nq)}
	if opt == nil {
		return o, nil
	}
	switch {
	case opt.Tol < 0 || math.IsNaN(opt.Tol) || math.IsInf(opt.Tol, 0):
		return o, fmt.Errorf("dae: initialize: Tol = %g, want a finite value ≥ 0 (0 for the default)", opt.Tol)
	case opt.MaxIters < 0:
		return o, fmt.Errorf("dae: initialize: MaxIters = %d, want ≥ 0 (0 for the default %d)", opt.MaxIters, defaultInitIters)
	case opt.RankTol < 0 || opt.RankTol >= 1 || math.IsNaN(opt.RankTol):
		return o, fmt.Errorf("dae: initialize: RankTol = %g outside [0, 1) (0 for the default %g)", opt.RankTol, defaultRankTol)
	case opt.Factorization < InitAuto || opt.Factorization > InitSparse:
		return o, fmt.Errorf("dae: initialize: Factorization = %d, want InitAuto, InitDense or InitSparse", opt.Factorization)
	}
	o.path = opt.Factorization
	o.tol = opt.Tol
	o.x = opt.X
	if opt.MaxIters > 0 {
		o.maxIters = opt.MaxIters
	}
	if opt.RankTol > 0 {
		o.rankTol = opt.RankTol
	}
	for k, j := range opt.Keep {
		if j < 0 || j >= nq {
			return o, fmt.Errorf("dae: initialize: Keep[%d] = %d outside [0, %d)", k, j, nq)
		}
		o.keep[j] = true
	}
	return o, nil
}

// checkGuess rejects a non-finite t0, q̄ or v̄, naming the coordinate.
func checkGuess(sys System, t0 float64, q, v []float64) error {
	if !finite(t0) {
		return fmt.Errorf("dae: initialize: t0 = %g is not finite", t0)
	}
	for i := range q {
		if !finite(q[i]) {
			return fmt.Errorf("dae: initialize: guess of coordinate %s is %g", CoordinateName(sys, i), q[i])
		}
		if !finite(v[i]) {
			return fmt.Errorf("dae: initialize: guess of the velocity of coordinate %s is %g", CoordinateName(sys, i), v[i])
		}
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// initWork carries one call of Initialize.
type initWork struct {
	sys    System
	t0     float64
	nq, nc int
	o      initOpts

	q, v  []float64
	g, gt []float64
	G     initAlgebra // G (the last Jacobian evaluated), its factorizations, eq. 17

	rows      []int  // independent constraint rows (increasing)
	redundant []int  // the other rows (increasing)
	dep       []int  // dependent coordinates q̂ (increasing)
	isDep     []bool // isDep[j]: j is in dep
	indep     []int  // independent coordinates (increasing)
	tolQ      float64
	tolV      float64 // the velocity tolerance of step 4
	iters     int
}

// partition is steps 1 and 2: the independent rows of G and the dependent coordinates.
func (in *initWork) partition() error {
	in.G.eval(in.t0, in.q)
	if err := in.finiteG("at the guess"); err != nil {
		return err
	}
	rows, redundant, dep, err := in.G.partition(in.o.rankTol, in.o.keep)
	in.rows, in.redundant = rows, redundant

	in.tolQ = in.o.tol
	if in.tolQ == 0 {
		in.tolQ = defaultInitTol * positionScale(in.G, in.nc, in.q)
	}
	if err != nil {
		return err
	}
	in.dep = dep
	in.isDep = make([]bool, in.nq)
	for _, j := range dep {
		in.isDep[j] = true
	}
	for j := range in.nq {
		if !in.isDep[j] {
			in.indep = append(in.indep, j)
		}
	}
	return in.G.prepareDep(in.rows, in.dep)
}

// positions is step 3: Newton on g_red = 0 in the dependent coordinates, then the check of
// all rows.
func (in *initWork) positions() error {
	in.sys.Constraint(in.g, in.t0, in.q)
	guess := append([]float64(nil), in.g...)
	res0 := in.maxRow(in.g, in.rows)
	res := res0
	nl := len(in.dep)
	dx := make([]float64, nl)
	for {
		if math.IsNaN(res) || math.IsInf(res, 0) {
			return in.newtonFailed(guess, res, "a non-finite residual")
		}
		if res <= in.tolQ {
			break
		}
		if in.iters == in.o.maxIters {
			return in.newtonFailed(guess, res, fmt.Sprintf("no convergence in MaxIters = %d iterations", in.o.maxIters))
		}
		if in.iters > 0 && res > divergeFactor*math.Max(res0, in.tolQ) {
			return in.newtonFailed(guess, res, "divergence")
		}
		//	G_red(t0, q) P̂ Δq̂ = g_red(t0, q),   q̂ ← q̂ − Δq̂        (Newton on eq. 21)
		in.G.eval(in.t0, in.q)
		if err := in.G.factorDep(); err != nil {
			return in.newtonFailed(guess, res, "a singular Jacobian G_red P̂ (the dependent coordinates lost their independence)")
		}
		for r, i := range in.rows {
			dx[r] = in.g[i]
		}
		in.G.solveDep(dx)
		for k, j := range in.dep {
			in.q[j] -= dx[k]
		}
		in.iters++
		in.sys.Constraint(in.g, in.t0, in.q)
		res = in.maxRow(in.g, in.rows)
	}
	// The rows kept at the guess must still be independent at the solution; else Newton
	// has converged (linearly) to a singular pose, or the guess hid a redundancy that
	// holds only on the constraint manifold.
	in.G.eval(in.t0, in.q)
	if err := in.finiteG("at the consistent position"); err != nil {
		return err
	}
	if r := in.G.rankRows(in.rows, in.o.rankTol); r < len(in.rows) {
		return fmt.Errorf("dae: initialize: the constraints %s, independent at the guess, have rank %d < %d at the position Newton found (%s): a singular pose, or a redundancy that holds only on the constraint manifold; drop such rows (Reduce) or start closer to the intended pose",
			names(in.rows, func(i int) string { return ConstraintName(in.sys, i) }), r, len(in.rows),
			names(in.dep, func(j int) string { return fmt.Sprintf("%s = %.6g", CoordinateName(in.sys, j), in.q[j]) }))
	}
	// Redundant rows are satisfied only if they are consistent with the others.
	if w := worstAbove(in.g, in.redundant, in.tolQ); w >= 0 && len(in.rows) == 0 {
		return fmt.Errorf("dae: initialize: constraint %s = %.3g cannot be satisfied: G is zero at the guess", ConstraintName(in.sys, w), in.g[w])
	} else if w >= 0 {
		return fmt.Errorf("dae: initialize: inconsistent constraints: %s = %.3g where %s hold (|g| ≤ %.2g), although its gradient is a combination of theirs",
			ConstraintName(in.sys, w), in.g[w], in.combination(w), in.tolQ)
	}
	return nil
}

// newtonFailed reports a guess outside the basin of Newton's method with the constraints
// worst violated at the guess.
func (in *initWork) newtonFailed(guess []float64, res float64, why string) error {
	return fmt.Errorf("dae: initialize: guess too far from the constraints: Newton on the position constraints stopped after %d iterations at ‖g‖∞ = %.3g (target %.2g): %s; worst at the guess: %s",
		in.iters, res, in.tolQ, why, in.worstList(guess, in.rows, 3))
}

// velocities is step 4.
func (in *initWork) velocities() error {
	// G and g were evaluated at the consistent q by positions.
	in.sys.ConstraintTimeDerivative(in.gt, in.t0, in.q)
	for i, x := range in.gt {
		if !finite(x) {
			return fmt.Errorf("dae: initialize: g_t of constraint %s is %g at the consistent position", ConstraintName(in.sys, i), x)
		}
	}
	if len(in.dep) > 0 {
		if err := in.G.factorDep(); err != nil {
			return fmt.Errorf("dae: initialize: the constraint rows %s, independent at the guess, are dependent at the consistent position (singular pose, or a redundancy that holds only on the constraint manifold)",
				names(in.rows, func(i int) string { return ConstraintName(in.sys, i) }))
		}
		//	G_red P̂ v̂ = −g_t,red − G_red P̄ P̄ᵀ v̄      (seed 002, Remark 2b)
		rhs := make([]float64, len(in.dep))
		for r, i := range in.rows {
			s := -in.gt[i]
			cols, vals := in.G.row(i)
			for t, j := range cols {
				if !in.isDep[j] {
					s -= vals[t] * in.v[j]
				}
			}
			rhs[r] = s
		}
		in.G.solveDep(rhs)
		for k, j := range in.dep {
			in.v[j] = rhs[k]
		}
	}
	res := make([]float64, in.nc)
	sv := velocityResiduals(res, in.G, in.gt, in.v)
	tolV := in.o.tol
	if tolV == 0 {
		tolV = defaultInitTol * sv
	}
	in.tolV = tolV
	if w := worstAbove(res, in.rows, tolV); w >= 0 {
		return fmt.Errorf("dae: initialize: velocity constraint %s = %.3g after the solve (target %.2g); G_red P̂ is ill-conditioned", ConstraintName(in.sys, w), res[w], tolV)
	}
	if w := worstAbove(res, in.redundant, tolV); w >= 0 {
		return fmt.Errorf("dae: initialize: inconsistent velocity constraints: G v + g_t of %s = %.3g where %s hold (target %.2g)",
			ConstraintName(in.sys, w), res[w], in.combination(w), tolV)
	}
	return nil
}

// positionScale returns max(1, s_q), s_q = max_i Σ_j |G_ij|·|q_j| with the G last
// evaluated: the size of the terms of g, to which the default position tolerance is
// relative (InitOptions.Tol).
func positionScale(G initAlgebra, nc int, q []float64) float64 {
	sq := 1.0
	for i := range nc {
		var s float64
		cols, vals := G.row(i)
		for t, j := range cols {
			s += math.Abs(vals[t]) * math.Abs(q[j])
		}
		sq = math.Max(sq, s)
	}
	return sq
}

// velocityResiduals writes G v + g_t of every row to res (G the last evaluated) and returns
// max(1, s_v), s_v = max_i (Σ_j |G_ij v_j| + |g_t,i|): the size of the terms, to which the
// default velocity tolerance is relative (InitOptions.Tol).
func velocityResiduals(res []float64, G initAlgebra, gt, v []float64) float64 {
	sv := 1.0
	for i := range res {
		s, mag := gt[i], math.Abs(gt[i])
		cols, vals := G.row(i)
		for t, j := range cols {
			s += vals[t] * v[j]
			mag += math.Abs(vals[t] * v[j])
		}
		res[i] = s
		sv = math.Max(sv, mag)
	}
	return sv
}

// keptSolved returns the coordinates of Keep among the dependent ones.
func (in *initWork) keptSolved() []int {
	var out []int
	for _, j := range in.dep {
		if in.o.keep[j] {
			out = append(out, j)
		}
	}
	return out
}

// checkKept fails when a coordinate of Keep had to be solved for (more were kept than the
// constraints leave free) and moved from its guess (q̄, v̄): Keep promises the guess is
// kept. A move within the tolerances of steps 3 and 4 (the size of a residual of g and of
// G v + g_t for unit-sized G) is rounding, not a move.
func (in *initWork) checkKept(q, v []float64) error {
	solved := in.keptSolved()
	var moved []string
	for _, j := range solved {
		name := CoordinateName(in.sys, j)
		if math.Abs(in.q[j]-q[j]) > in.tolQ {
			moved = append(moved, fmt.Sprintf("%s would move from %.6g to %.6g", name, q[j], in.q[j]))
		}
		if math.Abs(in.v[j]-v[j]) > in.tolV {
			moved = append(moved, fmt.Sprintf("the velocity of %s would change from %.6g to %.6g", name, v[j], in.v[j]))
		}
	}
	if len(moved) == 0 {
		return nil
	}
	var kept []int
	for j, k := range in.o.keep {
		if k {
			kept = append(kept, j)
		}
	}
	dof := in.nq - len(in.rows)
	return fmt.Errorf("dae: initialize: over-determined Keep: %d coordinates kept (%s), but the mechanism has %s (nq − rank G = %d − %d) and the constraints determine %s from the others; %s; keep at most %s the constraints leave free, or give a guess that satisfies the constraints",
		len(kept), names(kept, func(i int) string { return CoordinateName(in.sys, i) }), plural(dof, "degree of freedom", "degrees of freedom"), in.nq, len(in.rows),
		names(solved, func(i int) string { return CoordinateName(in.sys, i) }), strings.Join(moved, ", "), plural(dof, "coordinate", "coordinates"))
}

// plural writes n and the noun in the number n asks for.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// accelerations is step 5: (a, λ) from eq. 17 with the redundant rows dropped.
func (in *initWork) accelerations() ([]float64, []float64, error) {
	nl := len(in.rows)
	a := make([]float64, in.nq)
	in.sys.Force(a, in.t0, in.q, in.v)
	if fo, ok := in.sys.(FirstOrder); ok && fo.StateSize() > 0 {
		fx := make([]float64, in.nq)
		fo.StateForce(fx, in.t0, in.q, in.v, in.o.x)
		for i := range a {
			a[i] += fx[i]
		}
	}
	for i, x := range a {
		if !finite(x) {
			return nil, nil, fmt.Errorf("dae: initialize: force on coordinate %s is %g at the consistent state", CoordinateName(in.sys, i), x)
		}
	}
	gamma := make([]float64, in.nc)
	lred := make([]float64, nl)
	if nl > 0 {
		in.sys.Gamma(gamma, in.t0, in.q, in.v)
		for r, i := range in.rows {
			lred[r] = gamma[i]
			if !finite(gamma[i]) {
				return nil, nil, fmt.Errorf("dae: initialize: gamma of constraint %s is %g at the consistent state", ConstraintName(in.sys, i), gamma[i])
			}
		}
	}
	f := append([]float64(nil), a...)
	//	M a + G_redᵀ λ_red = f,   G_red a = γ_red      (seed 002, eq. 17)
	if err := in.G.solve17(in.t0, in.q, in.rows, a, lred); err != nil {
		return nil, nil, err
	}
	lambda := make([]float64, in.nc)
	ExpandLambda(lambda, lred, in.rows)
	if rf, ok := AsReactionForce(in.sys); ok && nl == in.nc {
		return a, lambda, in.reactionFixedPoint(rf, f, gamma, a, lambda)
	}
	return a, lambda, nil
}

// initReactionIters bounds the fixed-point iteration of reactionFixedPoint; joint friction
// contracts by about μ·(pin radius/lever arm) per iteration.
const initReactionIters = 100

// reactionFixedPoint solves step 5 with λ-dependent forces (ReactionForce):
// M a + Gᵀλ = f + f_λ(λ), G a = γ, by λ_{k+1} = λ(f + f_λ(λ_k)) from the λ without f_λ in
// lambda, until λ changes by less than 1e-14 relative. With redundant rows the reactions
// are not determined and the caller leaves f_λ out (Reduce refuses such systems).
func (in *initWork) reactionFixedPoint(rf ReactionForce, f, gamma, a, lambda []float64) error {
	prev := make([]float64, in.nc)
	for range initReactionIters {
		copy(prev, lambda)
		copy(a, f)
		rf.AddReactionForce(a, in.t0, in.q, in.v, prev)
		copy(lambda, gamma)
		if err := in.G.solve17(in.t0, in.q, in.rows, a, lambda); err != nil {
			return err
		}
		var d, s float64
		for i := range lambda {
			d = math.Max(d, math.Abs(lambda[i]-prev[i]))
			s = math.Max(s, math.Abs(lambda[i]))
		}
		if d <= 1e-14*math.Max(1, s) {
			return nil
		}
	}
	return fmt.Errorf("dae: initialize: the accelerations with forces that depend on λ (ReactionForce) did not converge in %d fixed-point iterations", initReactionIters)
}

// finiteG names the first non-finite entry of G.
func (in *initWork) finiteG(where string) error {
	for i := range in.nc {
		cols, vals := in.G.row(i)
		for t, j := range cols {
			if x := vals[t]; !finite(x) {
				return fmt.Errorf("dae: initialize: G entry (%s, %s) is %g %s", ConstraintName(in.sys, i), CoordinateName(in.sys, j), x, where)
			}
		}
	}
	return nil
}

// maxRow returns max |x_i| over rows, NaN if any is NaN.
func (in *initWork) maxRow(x []float64, rows []int) float64 {
	var m float64
	for _, i := range rows {
		if math.IsNaN(x[i]) {
			return math.NaN()
		}
		m = math.Max(m, math.Abs(x[i]))
	}
	return m
}

// worstAbove returns the row of rows with the largest |x_i| when it exceeds tol (or is
// NaN), else −1.
func worstAbove(x []float64, rows []int, tol float64) int {
	w := -1
	for _, i := range rows {
		ax := math.Abs(x[i])
		if math.IsNaN(ax) {
			return i
		}
		if ax > tol && (w < 0 || ax > math.Abs(x[w])) {
			w = i
		}
	}
	return w
}

// worstList names up to n rows of largest |x_i| with their values.
func (in *initWork) worstList(x []float64, rows []int, n int) string {
	idx := append([]int(nil), rows...)
	sort.SliceStable(idx, func(a, b int) bool { return math.Abs(x[idx[a]]) > math.Abs(x[idx[b]]) })
	if len(idx) > n {
		idx = idx[:n]
	}
	s := make([]string, len(idx))
	for k, i := range idx {
		s[k] = fmt.Sprintf("%s = %.3g", ConstraintName(in.sys, i), x[i])
	}
	return strings.Join(s, ", ")
}

// combination names the independent rows whose gradients make up the gradient of the
// redundant row w at the current G (initAlgebra.combination).
func (in *initWork) combination(w int) string {
	if len(in.rows) == 0 {
		return "no other constraint (its gradient is zero)"
	}
	return names(in.G.combination(in.rows, w), func(i int) string { return ConstraintName(in.sys, i) })
}

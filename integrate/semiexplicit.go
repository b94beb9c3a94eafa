package integrate

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// semiExplicit is the equations of motion written as a first-order DAE with a constant,
// diagonal, singular "mass matrix" K, the form the IVP test set gives Andrews' mechanism
// and that BDF and Radau IIA codes integrate (Hairer & Wanner 1996, VII.1; seed 002,
// section 4.2):
//
//	K y' = φ(t, y),   K = diag(I, I, 0, 0[, 0]),   y = (q, v, a, λ[, μ]),
//
//	q' = v                (GGL: q' = v − Gᵀμ, seed 002 eq. 92)
//	v' = a
//	0  = f − M a − Gᵀλ   (seed 002, eq. 16a with the acceleration as unknown; plus f_λ
//	                       of a dae.ReactionForce, its derivatives in ∂φ/∂y)
//	0  = c(t, q, v, a)    by formulation:
//	      index3            g                                   (eq. 16b)
//	      index2            G v + g_t                           (eq. 79c)
//	      ggl               G v + g_t  and  g (second block, μ) (eq. 92)
//	      index1            G a − γ                             (eq. 83c)
//	      baumgarte         G a − γ + 2α(G v + g_t) + β g       (seed 000, eq. 5)
//	      index2-baumgarte  G v + g_t + α₀ g                    (eq. 87c)
//
// Each component carries the differentiation index of its variable (q: 1; v: 2 in index3,
// else 1; a, λ, μ: the form's index), which radau5-style error scaling uses. λ and μ are
// algebraic and, as seed 002 asks, should stay out of error norms.
//
// The Jacobian ∂φ/∂y uses the System's derivative capabilities (analytic or finite
// differences through dae.Derivatives). The derivatives of the velocity- and
// acceleration-level constraint rows with respect to q (and of γ with respect to v) come
// from the constraint second derivatives (dae.ConstraintJacobianDerivative,
// dae.GammaDerivative; see constraintJacobian) when the System implements both, and are
// central finite differences of those rows otherwise. One semiExplicit serves one
// goroutine; it does not allocate after newSemiExplicit.
type semiExplicit struct {
	sys    dae.System
	der    *dae.Derivatives
	form   Formulation
	nq, nc int
	n      int // dimension of y
	hasMu  bool
	// ncH is the number of holonomic rows: nc, or fewer when sys carries Pfaffian rows
	// after them (dae.PfaffianRows). GGL holds g = 0 for the rows below ncH only; the μ of
	// a Pfaffian row obeys μ = 0, so that q' = v − Gᵀμ has the holonomic Gᵀ alone.
	ncH int

	// Baumgarte coefficients: α, β of seed 000 eq. 5 (baumgarte) and α₀ of eq. 87c
	// (index2-baumgarte, α₀ = C/h chosen by the caller).
	baumAlpha, baumBeta, alpha0 float64

	// second gives the constraint second derivatives when the System implements both
	// capabilities analytically (nil otherwise: rows by finite differences).
	second *dae.SecondDerivatives

	M, G, work   *mat.Dense // nq×nq, nc×nq, nq×nq
	work2        *mat.Dense // nc×nq
	f, g, gt, gm []float64  // nq, nc, nc, nc
	gx           []float64  // G x for one vector x (nc)
	qp           []float64  // perturbed q or v
	cp, cm       []float64  // constraint row at ±δ

	rowEvals int // evaluations of the constraint row spent on its finite differences

	sp *sparseEval // the sparse evaluation path (M, G, work, der, second nil), or nil
	// mm, when set, gives residual M a by dae.MassMultiplier without forming M (bdf's
	// Newton-Krylov corrector, bdfmassnewton.go); jacobian still forms M.
	mm  dae.MassMultiplier
	ma  []float64 // M a (with mm)
	rx  *reaction // λ-dependent forces f_λ (dae.ReactionForce), or nil
	spx *semiScatter
	// sec, on the sparse path, gives ∂(G v)/∂q and G_t on G's pattern into dGv and gT
	// (dae.SparseConstraintJacobianDerivative) when sys has them and no Pfaffian rows;
	// nil: the constraint rows' derivatives are differenced (semisparse.go).
	sec     dae.SparseConstraintJacobianDerivative
	dGv, gT []float64
}

// fdEvals returns the System evaluations spent on finite differences so far: those of
// dae.Derivatives and those of the constraint rows (constraintJacobian).
func (s *semiExplicit) fdEvals() int {
	if s.der == nil {
		return s.rowEvals
	}
	return s.der.Evals + s.rowEvals
}

// Offsets of the blocks of y.
func (s *semiExplicit) iq() int  { return 0 }
func (s *semiExplicit) iv() int  { return s.nq }
func (s *semiExplicit) ia() int  { return 2 * s.nq }
func (s *semiExplicit) il() int  { return 3 * s.nq }
func (s *semiExplicit) imu() int { return 3*s.nq + s.nc }

// newSemiExplicit returns the first-order form of sys in formulation form, on the sparse
// evaluation path (sparseEval, semisparse.go) when sparse is set and sys has it.
func newSemiExplicit(sys dae.System, form Formulation, sparse bool) (*semiExplicit, error) {
	switch form {
	case Index3, Index2, StabilizedIndex2, Index1, Baumgarte, Index2Baumgarte:
	default:
		return nil, fmt.Errorf("integrate: formulation %q has no first-order form; want one of %s, %s, %s, %s, %s, %s",
			form, Index3, Index2, StabilizedIndex2, Index1, Baumgarte, Index2Baumgarte)
	}
	nq, nc := sys.Size()
	s := &semiExplicit{sys: sys, form: form, nq: nq, nc: nc,
		hasMu: form == StabilizedIndex2,
		f:     make([]float64, nq), g: make([]float64, nc), gt: make([]float64, nc), gm: make([]float64, nc), gx: make([]float64, nc),
		qp: make([]float64, nq), cp: make([]float64, nc), cm: make([]float64, nc),
	}
	s.ncH = nc
	if pr, ok := sys.(dae.PfaffianRows); ok {
		s.ncH = pr.HolonomicRows()
	}
	s.n = 3*nq + nc
	if s.hasMu {
		s.n += nc
	}
	if sparse {
		s.sp = newSparseEval(sys, true)
	}
	s.rx = newReactionDeferred(sys, s.sp) // ∂f_λ's dense matrices at the first jacobian
	if s.sp != nil {
		if sec, ok := sys.(dae.SparseConstraintJacobianDerivative); ok && s.ncH == nc && nc > 0 {
			s.sec = sec
			s.dGv, s.gT = make([]float64, len(s.sp.G)), make([]float64, len(s.sp.G))
		}
		return s, nil
	}
	s.der = dae.NewDerivatives(sys)
	s.M, s.work = mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)
	if nc > 0 {
		s.G = mat.NewDense(nc, nq, nil)
		s.work2 = mat.NewDense(nc, nq, nil)
		if sd := dae.NewSecondDerivatives(sys); sd.AnalyticConstraintJacobian() && sd.AnalyticGamma() {
			s.second = sd
		}
	}
	return s, nil
}

// differential reports whether component i of y has a derivative in K y' (K_ii = 1).
func (s *semiExplicit) differential(i int) bool { return i < 2*s.nq }

// index returns the differentiation index of variable i (radau5's index-1/2/3 blocks).
func (s *semiExplicit) index(i int) int {
	switch {
	case i < s.nq:
		return 1
	case i < 2*s.nq:
		if s.form == Index3 {
			return 2
		}
		return 1
	}
	switch s.form {
	case Index3:
		return 3
	case Index2, StabilizedIndex2, Index2Baumgarte:
		return 2
	}
	return 1
}

// pack writes st (and μ = 0) into y.
func (s *semiExplicit) pack(y []float64, st *State) {
	copy(y[s.iq():], st.Q)
	copy(y[s.iv():], st.V)
	copy(y[s.ia():], st.A)
	copy(y[s.il():], st.Lambda)
	if s.hasMu {
		clear(y[s.imu():])
	}
}

// unpack writes the blocks of y into st (μ is dropped).
func (s *semiExplicit) unpack(st *State, t float64, y []float64) {
	st.T = t
	copy(st.Q, y[s.iq():s.iv()])
	copy(st.V, y[s.iv():s.ia()])
	copy(st.A, y[s.ia():s.il()])
	copy(st.Lambda, y[s.il():s.il()+s.nc])
}

// blocks returns the views q, v, a, λ, μ of y (μ nil without GGL).
func (s *semiExplicit) blocks(y []float64) (q, v, a, lambda, mu []float64) {
	q, v, a = y[:s.nq], y[s.nq:2*s.nq], y[2*s.nq:3*s.nq]
	lambda = y[3*s.nq : 3*s.nq+s.nc]
	if s.hasMu {
		mu = y[3*s.nq+s.nc:]
	}
	return
}

// residual writes φ(t, y) into dst (length n).
func (s *semiExplicit) residual(dst []float64, t float64, y []float64) {
	q, v, a, lambda, mu := s.blocks(y)
	nq := s.nq
	copy(dst[:nq], v)
	var g []float64 // g(t, q) when evaluated with G
	if s.mm == nil {
		g = s.evalMGg(t, q)
	} else if s.G != nil {
		s.sys.ConstraintJacobian(s.G, t, q)
	}
	if s.hasMu {
		s.addGT(dst[:nq], mu, -1)
	}
	copy(dst[nq:2*nq], a)
	dyn := dst[2*nq : 3*nq]
	s.sys.Force(dyn, t, q, v)
	s.rx.add(dyn, t, q, v, lambda)
	if s.mm == nil {
		s.subMass(dyn, a)
	} else {
		s.mm.MassMul(s.ma, t, q, a)
		for i, x := range s.ma {
			dyn[i] -= x
		}
	}
	s.addGT(dyn, lambda, -1)
	s.constraintRow(dst[3*nq:3*nq+s.nc], t, q, v, a, g)
	if s.hasMu {
		if g != nil {
			copy(dst[3*nq+s.nc:], g)
		} else {
			s.sys.Constraint(dst[3*nq+s.nc:], t, q)
		}
		copy(dst[3*nq+s.nc+s.ncH:], mu[s.ncH:]) // μ = 0 for the Pfaffian rows
	}
}

// evalMG evaluates M and G at (t, q).
func (s *semiExplicit) evalMG(t float64, q []float64) { evalMG(s.sys, s.sp, s.M, s.G, t, q) }

// evalMGg evaluates M and G at (t, q), and returns g(t, q) (in s.g) when the residual
// reads it and it comes with G in one pass (sparseEval.evalGg), else nil.
func (s *semiExplicit) evalMGg(t float64, q []float64) []float64 {
	if s.sp == nil || !s.readsG() {
		s.evalMG(t, q)
		return nil
	}
	s.sp.evalM(t, q)
	if s.sp.evalGg(s.g, t, q) {
		return s.g
	}
	return nil
}

// readsG reports whether the residual reads g(t, q): the μ rows of GGL and the position
// terms of index3 and the Baumgarte forms.
func (s *semiExplicit) readsG() bool {
	switch s.form {
	case Index3, StabilizedIndex2, Baumgarte, Index2Baumgarte:
		return s.nc > 0
	}
	return false
}

// constraintRow writes the formulation's constraint c(t, q, v, a) into dst, using s.G,
// which must hold G(t, q), and g when not nil (g(t, q), else evaluated here).
func (s *semiExplicit) constraintRow(dst []float64, t float64, q, v, a, g []float64) {
	if s.nc == 0 {
		return
	}
	velocity := func(w float64) { // dst += w·(G v + g_t)
		s.sys.ConstraintTimeDerivative(s.gt, t, q)
		s.mulG(s.gx, v)
		for i, gv := range s.gx {
			dst[i] += w * (gv + s.gt[i])
		}
	}
	position := func(w float64) { // dst += w·g
		if g == nil {
			g = s.g
			s.sys.Constraint(g, t, q)
		}
		for i := range s.nc {
			dst[i] += w * g[i]
		}
	}
	acceleration := func() { // dst += G a − γ
		s.sys.Gamma(s.gm, t, q, v)
		s.mulG(s.gx, a)
		for i, ga := range s.gx {
			dst[i] += ga - s.gm[i]
		}
	}
	clear(dst)
	switch s.form {
	case Index3:
		position(1)
	case Index2, StabilizedIndex2:
		velocity(1)
	case Index1:
		acceleration()
	case Baumgarte:
		acceleration()
		velocity(2 * s.baumAlpha)
		position(s.baumBeta)
	case Index2Baumgarte:
		velocity(1)
		position(s.alpha0)
	}
}

// jacobian writes ∂φ/∂y at (t, y) into J (n×n).
func (s *semiExplicit) jacobian(J *mat.Dense, t float64, y []float64) {
	q, v, a, lambda, mu := s.blocks(y)
	nq, nc := s.nq, s.nc
	J.Zero()
	s.evalMG(t, q)
	for i := range nq {
		J.Set(i, nq+i, 1)      // ∂q'/∂v
		J.Set(nq+i, 2*nq+i, 1) // ∂v'/∂a
	}
	if s.hasMu && nc > 0 { // ggl with nc = 0 has no μ block
		s.der.ConstraintForceDerivative(s.work, t, q, mu)
		addBlock(J, 0, 0, s.work, -1)
		addBlockT(J, 0, 3*nq+nc, s.G, -1) // −Gᵀ
	}
	// Dynamics row: ∂/∂q (f − M a − Gᵀλ), ∂/∂v f, ∂/∂a = −M, ∂/∂λ = −Gᵀ.
	r := 2 * nq
	s.der.ForceDerivativeQ(s.work, t, q, v)
	addBlock(J, r, 0, s.work, 1)
	s.der.MassDerivative(s.work, t, q, a)
	addBlock(J, r, 0, s.work, -1)
	if nc > 0 {
		s.der.ConstraintForceDerivative(s.work, t, q, lambda)
		addBlock(J, r, 0, s.work, -1)
	}
	s.der.ForceDerivativeV(s.work, t, q, v)
	addBlock(J, r, nq, s.work, 1)
	addBlock(J, r, 2*nq, s.M, -1)
	if nc == 0 {
		return
	}
	addBlockT(J, r, 3*nq, s.G, -1)
	if s.rx != nil {
		s.rx.allocDense(nq, nc) // once: a Newton-Krylov run (no jacobian) stores no nq×nq
		s.rx.derivatives(t, q, v, lambda)
		raw := J.RawMatrix()
		s.rx.addDense(raw.Data, raw.Stride, r, 0, nq, 3*nq, 1, 1, 1)
	}
	// Constraint rows.
	r = 3 * nq
	s.constraintJacobian(J, r, t, q, v, a)
	if s.hasMu {
		s.addMuRows(J, r+nc)
	}
}

// addMuRows writes the derivative of GGL's second constraint block at row r: G of the
// holonomic rows in the q columns, and the identity in the μ columns of the Pfaffian rows
// (their equation is μ = 0).
func (s *semiExplicit) addMuRows(J *mat.Dense, r int) {
	for i := range s.ncH { // G's first ncH rows, without slicing (a slice would allocate)
		jr := J.RawRowView(r + i)
		for j, g := range s.G.RawRowView(i) {
			jr[j] += g
		}
	}
	for i := s.ncH; i < s.nc; i++ {
		J.Set(r+i, s.imu()+i, 1)
	}
}

// constraintJacobian writes ∂c/∂(q, v, a) of the formulation's constraint row at row r.
// ∂/∂a is G (acceleration forms); ∂/∂v is G for the velocity forms and involves γ_v for
// the acceleration forms; ∂/∂q is G for index3. The other blocks come from the
// constraint second derivatives when the System has them (analyticConstraintRow), else
// from central differences of the row.
func (s *semiExplicit) constraintJacobian(J *mat.Dense, r int, t float64, q, v, a []float64) {
	if s.form == Index3 {
		addBlock(J, r, 0, s.G, 1)
		return
	}
	if s.second != nil {
		s.analyticConstraintRow(J, r, t, q, v, a)
		return
	}
	nq := s.nq
	// ∂c/∂q by central differences; G is re-evaluated at the perturbed q.
	copy(s.qp, q)
	for j := range nq {
		h := dae.FDStep(q[j])
		s.qp[j] = q[j] + h
		s.sys.ConstraintJacobian(s.G, t, s.qp)
		s.constraintRow(s.cp, t, s.qp, v, a, nil)
		s.qp[j] = q[j] - h
		s.sys.ConstraintJacobian(s.G, t, s.qp)
		s.constraintRow(s.cm, t, s.qp, v, a, nil)
		s.qp[j] = q[j]
		for i := range s.nc {
			J.Set(r+i, j, (s.cp[i]-s.cm[i])/(2*h))
		}
	}
	s.rowEvals += 2 * nq
	s.sys.ConstraintJacobian(s.G, t, q)
	// ∂c/∂v: G times the weight of the velocity level, minus γ_v for the acceleration forms.
	switch s.form {
	case Index2, StabilizedIndex2, Index2Baumgarte:
		addBlock(J, r, nq, s.G, 1)
	case Index1, Baumgarte:
		copy(s.qp, v)
		for j := range nq {
			h := dae.FDStep(v[j])
			s.qp[j] = v[j] + h
			s.constraintRow(s.cp, t, q, s.qp, a, nil)
			s.qp[j] = v[j] - h
			s.constraintRow(s.cm, t, q, s.qp, a, nil)
			s.qp[j] = v[j]
			for i := range s.nc {
				J.Set(r+i, nq+j, (s.cp[i]-s.cm[i])/(2*h))
			}
		}
		s.rowEvals += 2 * nq
		addBlock(J, r, 2*nq, s.G, 1) // ∂(G a)/∂a
	}
}

// analyticConstraintRow writes the q- and v-blocks of ∂c/∂(q, v, a) for the velocity and
// acceleration forms from the constraint second derivatives, with s.G holding G(t, q).
// For holonomic constraints ∂(G v + g_t)/∂q = (G v)_q + G_t = −γ_v/2 (dae.GammaDerivative),
// so by formulation (the rows of constraintRow)
//
//	index2, ggl        ∂/∂q = −γ_v/2                            ∂/∂v = G
//	index2-baumgarte   ∂/∂q = −γ_v/2 + α₀ G                     ∂/∂v = G
//	index1             ∂/∂q = (G a)_q − γ_q                     ∂/∂v = −γ_v
//	baumgarte          ∂/∂q = (G a)_q − γ_q − α γ_v + β G       ∂/∂v = −γ_v + 2α G
//
// and ∂/∂a = G for the acceleration forms. It replaces 2nq evaluations of G and of the row
// (the central differences) by three analytic matrices.
func (s *semiExplicit) analyticConstraintRow(J *mat.Dense, r int, t float64, q, v, a []float64) {
	nq := s.nq
	sd, D := s.second, s.work2
	switch s.form {
	case Index2, StabilizedIndex2, Index2Baumgarte:
		sd.GammaDerivativeV(D, t, q, v)
		addBlock(J, r, 0, D, -0.5)
		addBlock(J, r, nq, s.G, 1)
		if s.form == Index2Baumgarte {
			addBlock(J, r, 0, s.G, s.alpha0)
		}
	case Index1, Baumgarte:
		sd.ConstraintJacobianDerivative(D, t, q, a)
		addBlock(J, r, 0, D, 1)
		sd.GammaDerivativeQ(D, t, q, v)
		addBlock(J, r, 0, D, -1)
		sd.GammaDerivativeV(D, t, q, v)
		addBlock(J, r, nq, D, -1)
		if s.form == Baumgarte {
			addBlock(J, r, 0, D, -s.baumAlpha)
			addBlock(J, r, 0, s.G, s.baumBeta)
			addBlock(J, r, nq, s.G, 2*s.baumAlpha)
		}
		addBlock(J, r, 2*nq, s.G, 1)
	}
}

// dotRow returns row i of G times x.
func dotRow(G *mat.Dense, i int, x []float64) float64 {
	var s float64
	for j, gij := range G.RawRowView(i) {
		s += gij * x[j]
	}
	return s
}

// addGTx adds w·Gᵀx to dst.
func addGTx(dst []float64, G *mat.Dense, x []float64, w float64) {
	if G == nil {
		return
	}
	for k, xk := range x {
		if xk == 0 {
			continue
		}
		for j, gkj := range G.RawRowView(k) {
			dst[j] += w * gkj * xk
		}
	}
}

// addBlock adds w·B to J at (r0, c0).
func addBlock(J *mat.Dense, r0, c0 int, B *mat.Dense, w float64) {
	rows, cols := B.Dims()
	for i := range rows {
		row := B.RawRowView(i)
		jr := J.RawRowView(r0 + i)[c0 : c0+cols]
		for j, b := range row {
			jr[j] += w * b
		}
	}
}

// addBlockT adds w·Bᵀ to J at (r0, c0).
func addBlockT(J *mat.Dense, r0, c0 int, B *mat.Dense, w float64) {
	rows, _ := B.Dims()
	for i := range rows {
		for j, b := range B.RawRowView(i) {
			J.Set(r0+j, c0+i, J.At(r0+j, c0+i)+w*b)
		}
	}
}

// addPositionWeight adds w·G of the holonomic rows (the first ncH) to J's q columns at row
// r: a Baumgarte form's position term. A Pfaffian row has none (dae.WithPfaffianRows gives
// it g = 0), so its row keeps only its velocity and acceleration blocks.
func (s *semiExplicit) addPositionWeight(J *mat.Dense, r int, w float64) {
	for i := range s.ncH {
		jr := J.RawRowView(r + i)[:s.nq]
		for j, g := range s.G.RawRowView(i) {
			jr[j] += w * g
		}
	}
}

// approxJacobian writes into J the approximate ∂φ/∂y of the IVP test set's index-3 runs
// (Mazzia & Iavernaro 2003, problem "andrews", option of an approximate Jacobian): every
// derivative of f, M and G is neglected, which leaves the constant-structure blocks
//
//	[0 I 0 0; 0 0 I 0; 0 0 −M −Gᵀ; C_q C_v C_a 0]   (and −Gᵀ, G for μ in GGL),
//
// where C_q, C_v, C_a are the G-blocks of the formulation's constraint row (index3: C_q =
// G; index2 and ggl: C_v = G; index1: C_a = G; the Baumgarte forms their weighted sums).
// Simplified Newton converges with it only linearly, at a rate set by the neglected terms
// times h².
func (s *semiExplicit) approxJacobian(J *mat.Dense, t float64, y []float64) {
	q := y[:s.nq]
	nq, nc := s.nq, s.nc
	J.Zero()
	s.evalMG(t, q)
	for i := range nq {
		J.Set(i, nq+i, 1)
		J.Set(nq+i, 2*nq+i, 1)
	}
	addBlock(J, 2*nq, 2*nq, s.M, -1)
	if nc == 0 {
		return
	}
	addBlockT(J, 2*nq, 3*nq, s.G, -1)
	r := 3 * nq
	switch s.form {
	case Index3:
		addBlock(J, r, 0, s.G, 1)
	case Index2, StabilizedIndex2:
		addBlock(J, r, nq, s.G, 1)
	case Index2Baumgarte:
		addBlock(J, r, nq, s.G, 1)
		s.addPositionWeight(J, r, s.alpha0)
	case Index1:
		addBlock(J, r, 2*nq, s.G, 1)
	case Baumgarte:
		addBlock(J, r, 2*nq, s.G, 1)
		addBlock(J, r, nq, s.G, 2*s.baumAlpha)
		s.addPositionWeight(J, r, s.baumBeta)
	}
	if s.hasMu {
		addBlockT(J, 0, 3*nq+nc, s.G, -1)
		s.addMuRows(J, r+nc)
	}
}

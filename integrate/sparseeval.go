package integrate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// sparseEval is the sparse evaluation path of a step (issue 15, item 3): for a System
// that writes its matrices into pattern-aligned value arrays (dae.SparseEvaluator) and is
// large enough for the sparse solvers (sparseMinSize), M, G and the coupling derivatives
// are held as values on their fixed patterns (dae.MassCSR, ConstraintCSR, CouplingCSR),
// the products M x, G x, Gᵀx are sparse mat-vecs, and the Newton matrices are filled by
// index maps computed once. Nothing of size nq×nq or nc×nq is stored. The products add
// the same terms in the same order as the dense loops (skipping exact zeros), so both
// paths agree to rounding.
type sparseEval struct {
	se              dae.SparseEvaluator
	nq, nc          int
	mass, con, coup dae.CSR
	M, G, C         []float64 // values of M, G and of one coupling quantity (scratch)
	mMat, gMat      csrMatrix // M and G as mat.Matrix for linalg.SparseKKT
	// constM: M depends on neither t nor q (dae.ConstantMass), so M holds it from the
	// first evalM on (haveM) and later calls write nothing.
	constM, haveM bool
	// gpass writes g with G in one pass (dae.SparseConstraintWithJacobian), or nil.
	gpass dae.SparseConstraintWithJacobian
	// diagM: M's pattern is its diagonal (value i at (i, i)), which addMul runs through
	// without the rows' slices.
	diagM bool
}

// kktArgs returns M and G (nil when nc = 0) as matrices for SaddlePoint.FactorizeSym,
// without allocating.
func (e *sparseEval) kktArgs() (M, G mat.Matrix) {
	if e.nc == 0 {
		return &e.mMat, nil
	}
	return &e.mMat, &e.gMat
}

// newSparseEval returns the sparse path for sys, or nil when sys does not implement
// dae.SparseEvaluator, the KKT matrix has fewer than sparseMinSize rows, (coupling set:
// the implicit methods) the coupling pattern is dense, or sys has λ-dependent forces
// (dae.ReactionForce) without their sparse values (dae.SparseReactionForce).
func newSparseEval(sys dae.System, coupling bool) *sparseEval {
	se, ok := sys.(dae.SparseEvaluator)
	nq, nc := sys.Size()
	if !ok || nq+nc < sparseMinSize || (coupling && se.CouplingPattern() == nil) {
		return nil
	}
	if dae.HasReactionForce(sys) {
		if _, srf := sys.(dae.SparseReactionForce); !srf {
			return nil // λ-dependent forces without values on the patterns: dense
		}
	}
	e := &sparseEval{se: se, nq: nq, nc: nc, mass: dae.MassCSR(se, nq), con: dae.ConstraintCSR(se, nq, nc)}
	e.M, e.G = make([]float64, e.mass.NNZ()), make([]float64, e.con.NNZ())
	e.mMat, e.gMat = csrMatrix{&e.mass, e.M}, csrMatrix{&e.con, e.G}
	if c, ok := sys.(dae.ConstantMass); ok {
		e.constM = c.ConstantMass()
	}
	e.gpass, _ = sys.(dae.SparseConstraintWithJacobian)
	e.diagM = e.mass.NNZ() == nq
	for i := range nq {
		e.diagM = e.diagM && e.mass.RowStart[i] == i && e.mass.Cols[i] == i
	}
	if coupling {
		e.coup = dae.CouplingCSR(se, nq)
		e.C = make([]float64, e.coup.NNZ())
	}
	return e
}

// evalM writes M(t, q) into e.M: once for a constant mass matrix.
func (e *sparseEval) evalM(t float64, q []float64) {
	if e.constM && e.haveM {
		return
	}
	e.se.MassValues(e.M, t, q)
	e.haveM = true
}

// massDerivative writes ∂(M a)/∂q into e.C and reports true, or, for a constant mass
// matrix (dae.ConstantMass), whose derivative is zero, writes nothing and reports false:
// a caller adds e.C into its Newton matrix only on true, which spares an evaluation that
// clears the coupling values and a scatter of its zeros per Jacobian.
func (e *sparseEval) massDerivative(t float64, q, a []float64) bool {
	if e.constM {
		return false
	}
	e.se.MassDerivativeValues(e.C, t, q, a)
	return true
}

// evalG writes G(t, q) into e.G.
func (e *sparseEval) evalG(t float64, q []float64) {
	if e.nc > 0 {
		e.se.ConstraintJacobianValues(e.G, t, q)
	}
}

// evalGg writes G(t, q) into e.G and, when the system writes both in one pass (gpass),
// g(t, q) into g, and reports whether it did: residuals that read g and G at one q
// evaluate the constraints' kinematics once.
func (e *sparseEval) evalGg(g []float64, t float64, q []float64) bool {
	if e.gpass == nil || e.nc == 0 {
		e.evalG(t, q)
		return false
	}
	e.gpass.ConstraintWithJacobianValues(g, e.G, t, q)
	return true
}

// mulG writes G x into dst (length nc).
func (e *sparseEval) mulG(dst, x []float64) { csrMul(dst, &e.con, e.G, x) }

// addGTx adds w·Gᵀx to dst.
func (e *sparseEval) addGTx(dst, x []float64, w float64) {
	p := &e.con
	for k, xk := range x {
		if xk == 0 {
			continue
		}
		lo, hi := p.RowStart[k], p.RowStart[k+1]
		cols := p.Cols[lo:hi]
		vals := e.G[lo:hi]
		vals = vals[:len(cols)] // one length: no bounds check on vals[t]
		for t, j := range cols {
			dst[j] += w * vals[t] * xk
		}
	}
}

// csrMul writes A x into dst for A = (p, v).
func csrMul(dst []float64, p *dae.CSR, v, x []float64) {
	for i := range p.NRows {
		lo, hi := p.RowStart[i], p.RowStart[i+1]
		cols := p.Cols[lo:hi]
		vals := v[lo:hi]
		vals = vals[:len(cols)]
		var s float64
		for t, j := range cols {
			s += vals[t] * x[j]
		}
		dst[i] = s
	}
}

// measure returns the position and velocity residuals of (t, q, v) as
// dae.ResidualMeter.Measure does (without the acceleration level), with G sparse; g and gt
// are nc-long scratch. Init's start check uses it on the values it already evaluates.
func (e *sparseEval) measure(t float64, q, v, g, gt []float64) dae.ConstraintResiduals {
	r := dae.ConstraintResiduals{WorstPos: -1}
	if e.nc == 0 {
		return r
	}
	sys := e.se.(dae.System)
	sys.Constraint(g, t, q)
	for i, x := range g {
		if ax := math.Abs(x); ax > r.Pos || r.WorstPos < 0 || math.IsNaN(x) {
			r.Pos, r.WorstPos = ax, i
		}
	}
	e.evalG(t, q)
	sys.ConstraintTimeDerivative(gt, t, q)
	r.Vel = e.maxAbsGxPlus(v, gt, 1)
	return r
}

// maxAbsGxPlus returns ‖G x + s·y‖∞ (NaN if any row is NaN), summed as dae's dense meter
// sums: s·yᵢ first, then the row's terms.
func (e *sparseEval) maxAbsGxPlus(x, y []float64, s float64) float64 {
	var worst float64
	for i := range y {
		r := s * y[i]
		lo := e.con.RowStart[i]
		for t, j := range e.con.Row(i) {
			r += e.G[lo+t] * x[j]
		}
		if math.IsNaN(r) {
			return math.NaN()
		}
		worst = math.Max(worst, math.Abs(r))
	}
	return worst
}

// csrMatrix shows pattern values as a mat.Matrix for linalg.SparseKKT, which reads the
// pattern entries only (At by binary search in the row; a zero off the pattern).
type csrMatrix struct {
	p *dae.CSR
	v []float64
}

func (m csrMatrix) Dims() (r, c int) { return m.p.NRows, m.p.NCols }
func (m csrMatrix) T() mat.Matrix    { return mat.Transpose{Matrix: m} }
func (m csrMatrix) At(i, j int) float64 {
	if k := m.p.Find(i, j); k >= 0 {
		return m.v[k]
	}
	return 0
}

// scatterMap returns, for every entry of src (in value order), its position in the values
// of dst when src is placed at (r0, c0) of dst, transposed when transpose is set. An entry
// that dst does not list is a bug of the patterns: it panics naming it.
func scatterMap(dst, src *dae.CSR, r0, c0 int, transpose bool) []int {
	idx := make([]int, src.NNZ())
	for i := range src.NRows {
		for t, j := range src.Row(i) {
			r, c := r0+i, c0+j
			if transpose {
				r, c = r0+j, c0+i
			}
			k := dst.Find(r, c)
			if k < 0 {
				panic(fmt.Sprintf("integrate: Newton matrix pattern misses entry (%d, %d)", r, c))
			}
			idx[src.RowStart[i]+t] = k
		}
	}
	return idx
}

// scatterAdd adds w·src[t] to dst[idx[t]] for every t.
func scatterAdd(dst []float64, idx []int, src []float64, w float64) {
	for t, k := range idx {
		dst[k] += w * src[t]
	}
}

// newSparseNewtonFactor returns a sparse LU for the n×n pattern filled value by value
// (Values, scatterMap against CSR()), with no dense assembly storage.
func newSparseNewtonFactor(n int, pattern [][]int) *newtonFactor {
	s, err := linalg.NewSparseLU(n, pattern)
	if err != nil {
		panic(fmt.Sprintf("integrate: bad Newton matrix pattern: %v", err))
	}
	return sparseFactor(s, nil)
}

// newBlockNewtonFactor is newSparseNewtonFactor with the sparse LU's pivot blocks
// (linalg.SparseLU.UseBlocks) when the pattern allows them: a body's Euler parameters
// with its normalization row pivot within their block, so that a change of the largest
// parameter or a βh²-sized diagonal needs no new pivot search (the full factorizations
// of the 3D chain). hht and genalpha's index-3 form take it; on the stabilized index-2
// form (newmark) the blocks cost more than the few full factorizations they save
// (BENCHMARKS.md, "The 400-rod 3D chain with hht"). The first-order forms of bdf
// and radau5 are left to plain sparse LUs (with the accelerations eliminated,
// velelim.go): a body's q, v and a are different unknowns there, so the pattern has no
// bordered block (UseBlocks declines) and their refactorizations hold on the 3D chain
// (one full factorization per run). daealpha's
// index-2 pattern is declined too: its μ rows couple to their coordinates one way only,
// so they pair with none.
func newBlockNewtonFactor(n int, pattern [][]int) *newtonFactor {
	f := newSparseNewtonFactor(n, pattern)
	f.sparse.UseBlocks()
	return f
}

// addMul adds M x to dst, row by row as the dense loops do; a diagonal M (planar rigid
// bodies) by one pass over its values, each row's sum 0 + M_ii x_i as the loop forms it.
func (e *sparseEval) addMul(dst, x []float64) {
	p := &e.mass
	if e.diagM {
		m := e.M[:len(x)]
		dst = dst[:len(x)] // one length: no bounds checks
		for i, xi := range x {
			var s float64
			s += m[i] * xi
			dst[i] += s
		}
		return
	}
	for i := range p.NRows {
		lo := p.RowStart[i]
		var s float64
		for t, j := range p.Row(i) {
			s += e.M[lo+t] * x[j]
		}
		dst[i] += s
	}
}

// scatterAddDiv adds src[t]/d to dst[idx[t]] for every t.
func scatterAddDiv(dst []float64, idx []int, src []float64, d float64) {
	for t, k := range idx {
		dst[k] += src[t] / d
	}
}

// kktScatter places the sparse evaluator's values in a Newton matrix [A Gᵀ; G ·] whose
// unknowns start with (a, λ): M and the coupling quantities in the top-left block, G in
// the rows nq.. and Gᵀ in the columns nq...
type kktScatter struct {
	m, c, g, gt []int
}

// newKKTScatter computes the maps of sp's patterns into the Newton pattern k.
func newKKTScatter(sp *sparseEval, k *dae.CSR) kktScatter {
	return kktScatter{
		m:  scatterMap(k, &sp.mass, 0, 0, false),
		c:  scatterMap(k, &sp.coup, 0, 0, false),
		g:  scatterMap(k, &sp.con, sp.nq, 0, false),
		gt: scatterMap(k, &sp.con, 0, sp.nq, true),
	}
}

// measureStart returns the residuals of start at the position and velocity levels, by
// the sparse path when sp is set (no nc×nq storage), by dae.ResidualMeter otherwise.
func measureStart(sp *sparseEval, sys dae.System, start State) dae.ConstraintResiduals {
	if sp == nil {
		return dae.NewResidualMeter(sys).Measure(start.T, start.Q, start.V, nil)
	}
	return sp.measure(start.T, start.Q, start.V, make([]float64, sp.nc), make([]float64, sp.nc))
}

// gxPlus writes G x + y into dst (which may alias y), each row summed from yᵢ.
func (e *sparseEval) gxPlus(dst, x, y []float64) {
	for i := range e.nc {
		r := y[i]
		lo := e.con.RowStart[i]
		for t, j := range e.con.Row(i) {
			r += e.G[lo+t] * x[j]
		}
		dst[i] = r
	}
}

// swapG makes other G's value array and returns the old one (HEDOP5 hands G(Q_{i+1}) on
// to the next stage), keeping gMat on the current values.
func (e *sparseEval) swapG(other []float64) []float64 {
	old := e.G
	e.G, e.gMat.v = other, other
	return old
}

// evalMG evaluates M and G of sys at (t, q): as pattern values into sp on the sparse
// evaluation path, else into the dense M and G (G nil without constraints).
func evalMG(sys dae.System, sp *sparseEval, M, G *mat.Dense, t float64, q []float64) {
	if sp != nil {
		sp.evalM(t, q)
		sp.evalG(t, q)
		return
	}
	sys.Mass(M, t, q)
	if G != nil {
		sys.ConstraintJacobian(G, t, q)
	}
}
